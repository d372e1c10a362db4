# A compile cache outside the clone: every C and C++ compile goes through ccache (Debian's package), its
# objects kept in ${DBXB_CACHE_DIR:-${XDG_CACHE_HOME:-~/.cache}/dbx-bench}/ccache, the same cache root
# as thirdparty/build.sh's engine builds. A second clone, or a second CI run, recompiles only what
# changed. ccache keys each object by the compiler, its flags and the preprocessed source, so a hit is
# the object the compile would have produced.
#
# CCACHE_BASEDIR makes the paths under the clone relative before they are hashed, so clones at
# different paths share objects; -fdebug-prefix-map does the same for the paths inside debug
# information (the sanitizer builds' -g), which ccache then hashes in their mapped form.
#
# -DDBXB_CCACHE=OFF compiles without it (as does a machine without ccache).
option(DBXB_CCACHE "Compile through ccache, with its cache outside the clone" ON)
find_program(DBXB_CCACHE_PROGRAM ccache)
# DBXB_CACHE_ROOT: the root of every build cache outside the clone (as thirdparty/build.sh computes it);
# the Rust bridge keeps cargo's target directory under it too.
if(DEFINED ENV{DBXB_CACHE_DIR})
  set(DBXB_CACHE_ROOT "$ENV{DBXB_CACHE_DIR}")
elseif(DEFINED ENV{XDG_CACHE_HOME})
  set(DBXB_CACHE_ROOT "$ENV{XDG_CACHE_HOME}/dbx-bench")
else()
  set(DBXB_CACHE_ROOT "$ENV{HOME}/.cache/dbx-bench")
endif()
if(DBXB_CCACHE AND DBXB_CCACHE_PROGRAM)
  set(_dbxb_cache_root "${DBXB_CACHE_ROOT}")
  # 8 GiB: the Release build and the two sanitizer builds of a few clones (about 1.5 GiB each).
  set(_dbxb_launcher /usr/bin/env "CCACHE_DIR=${_dbxb_cache_root}/ccache" "CCACHE_BASEDIR=${PROJECT_SOURCE_DIR}"
      CCACHE_MAXSIZE=8G "${DBXB_CCACHE_PROGRAM}")
  set(CMAKE_C_COMPILER_LAUNCHER ${_dbxb_launcher})
  set(CMAKE_CXX_COMPILER_LAUNCHER ${_dbxb_launcher})
  add_compile_options("-fdebug-prefix-map=${PROJECT_SOURCE_DIR}=.")
  message(STATUS "Compile cache: ccache, ${_dbxb_cache_root}/ccache")
endif()
