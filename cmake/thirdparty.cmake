# The engines linked at their current release: thirdparty/build.sh builds each from its registry
# source with the engine's own release build (thirdparty/<engine>.sh) into a cache outside the clone,
# and this file links the cached library. An engine left out of DBXB_RELEASE_ENGINES links Debian's
# package instead, and its provenance (list, results.json, the report's warnings) says so.
#
# Defines the targets dbxb_sqlite3, dbxb_lmdb, dbxb_rocksdb and dbxb_wiredtiger, and DBXB_<ENGINE>_PROVENANCE: the compile
# definitions (DBXB_LIB_BUILD, DBXB_LIB_SOURCE, DBXB_LIB_FLAGS, DBXB_LIB_RELEASE_DATE) of that engine's
# adapter sources.
set(DBXB_RELEASE_ENGINES "sqlite;lmdb;rocksdb;wiredtiger;postgres" CACHE STRING
    "Engines linked at their current release, built by thirdparty/build.sh (the others link Debian's package)")
set(_dbxb_known_release_engines sqlite lmdb rocksdb wiredtiger postgres)
foreach(_engine IN LISTS DBXB_RELEASE_ENGINES)
  if(NOT _engine IN_LIST _dbxb_known_release_engines)
    message(FATAL_ERROR "DBXB_RELEASE_ENGINES: '${_engine}' has no release build here (known: ${_dbxb_known_release_engines})")
  endif()
endforeach()

if(DBXB_RELEASE_ENGINES)
  message(STATUS "Release builds of ${DBXB_RELEASE_ENGINES}: thirdparty/build.sh (cached; the first build of RocksDB takes about 15 min on 2 idle cores)")
  execute_process(COMMAND "${PROJECT_SOURCE_DIR}/thirdparty/build.sh" --print-prefix ${DBXB_RELEASE_ENGINES}
                  OUTPUT_VARIABLE _dbxb_prefixes RESULT_VARIABLE _dbxb_rc OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(NOT _dbxb_rc EQUAL 0)
    message(FATAL_ERROR "thirdparty/build.sh ${DBXB_RELEASE_ENGINES} failed (exit ${_dbxb_rc}); its message is above")
  endif()
  string(REPLACE "\n" ";" _dbxb_prefixes "${_dbxb_prefixes}")
  foreach(_line IN LISTS _dbxb_prefixes)
    if(_line MATCHES "^([a-z0-9-]+)=(.+)$")
      set(DBXB_${CMAKE_MATCH_1}_PREFIX "${CMAKE_MATCH_2}")
    endif()
  endforeach()
endif()

# DBXB_<engine>_PROVENANCE from the entry's BUILD-INFO (key=value lines written by thirdparty/build.sh);
# a changed or removed entry re-runs this configuration.
function(dbxb_release_provenance engine)
  set(prefix "${DBXB_${engine}_PREFIX}")
  if(NOT EXISTS "${prefix}/BUILD-INFO" OR NOT EXISTS "${prefix}/MANIFEST")
    message(FATAL_ERROR "thirdparty/build.sh named ${prefix} for ${engine}, which has no BUILD-INFO or MANIFEST")
  endif()
  set_property(DIRECTORY "${PROJECT_SOURCE_DIR}" APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${prefix}/MANIFEST")
  file(STRINGS "${prefix}/BUILD-INFO" lines)
  foreach(line IN LISTS lines)
    if(line MATCHES "^([a-z_]+)=(.*)$")
      set(info_${CMAKE_MATCH_1} "${CMAKE_MATCH_2}")
    endif()
  endforeach()
  set(DBXB_${engine}_LINK "${info_link}" PARENT_SCOPE)
  set(DBXB_${engine}_PROVENANCE "DBXB_LIB_BUILD=\"${info_build}\"" "DBXB_LIB_SOURCE=\"${info_source}\""
      "DBXB_LIB_FLAGS=\"${info_flags}\"" "DBXB_LIB_RELEASE_DATE=\"${info_release_date}\"" PARENT_SCOPE)
  message(STATUS "${engine}: ${info_version}, ${info_build}, from ${info_source} (${prefix})")
endfunction()

# dbxb_c_engine_library(ENGINE TARGET ARCHIVE PKG_CONFIG MODULE PACKAGE DEB RELEASED DATE LINK LIBS...): TARGET
# links the release ARCHIVE of ENGINE (and LIBS) when ENGINE is a release engine, else Debian's package
# DEB through pkg-config's MODULE (whose version was released on DATE).
function(dbxb_c_engine_library engine target archive)
  cmake_parse_arguments(A "" "PKG_CONFIG;PACKAGE;RELEASED" "LINK" ${ARGN})
  add_library(${target} INTERFACE)
  if(engine IN_LIST DBXB_RELEASE_ENGINES)
    dbxb_release_provenance(${engine})
    target_include_directories(${target} INTERFACE "${DBXB_${engine}_PREFIX}/include")
    target_link_libraries(${target} INTERFACE "${DBXB_${engine}_PREFIX}/lib/${archive}" ${A_LINK})
  else()
    pkg_check_modules(DBXB_${engine}_DEBIAN REQUIRED IMPORTED_TARGET ${A_PKG_CONFIG})
    target_link_libraries(${target} INTERFACE PkgConfig::DBXB_${engine}_DEBIAN)
    set(DBXB_${engine}_PROVENANCE "DBXB_LIB_BUILD=\"debian-package\"" "DBXB_LIB_SOURCE=\"Debian 12 package ${A_PACKAGE}\""
        "DBXB_LIB_FLAGS=\"\"" "DBXB_LIB_RELEASE_DATE=\"${A_RELEASED}\"")
  endif()
  set(DBXB_${engine}_PROVENANCE "${DBXB_${engine}_PROVENANCE}" PARENT_SCOPE)
endfunction()

dbxb_c_engine_library(sqlite dbxb_sqlite3 libsqlite3.a PKG_CONFIG sqlite3 PACKAGE libsqlite3-dev
                      RELEASED 2022-12-28 LINK m dl Threads::Threads)  # Debian's: SQLite 3.40.1
dbxb_c_engine_library(lmdb dbxb_lmdb liblmdb.a PKG_CONFIG lmdb PACKAGE liblmdb-dev
                      RELEASED 2019-07-24 LINK Threads::Threads)  # Debian's: LMDB 0.9.24
# The release links its built-in compressors' libraries; Debian's loads none (its snappy and zlib are
# extensions the adapter does not load).
dbxb_c_engine_library(wiredtiger dbxb_wiredtiger libwiredtiger.a PKG_CONFIG wiredtiger PACKAGE libwiredtiger-dev
                      RELEASED 2019-08-27 LINK snappy z lz4 zstd Threads::Threads dl rt m)  # Debian's: 3.2.1

add_library(dbxb_rocksdb INTERFACE)
if("rocksdb" IN_LIST DBXB_RELEASE_ENGINES)
  dbxb_release_provenance(rocksdb)
  pkg_check_modules(ROCKSDB_DEPS REQUIRED IMPORTED_TARGET zlib libzstd liblz4 liburing)
  target_include_directories(dbxb_rocksdb INTERFACE "${DBXB_rocksdb_PREFIX}/include")
  target_link_libraries(dbxb_rocksdb INTERFACE "${DBXB_rocksdb_PREFIX}/lib/librocksdb.a" PkgConfig::ROCKSDB_DEPS
                        snappy bz2 Threads::Threads dl)
else()
  # Debian's package has the library twice: librocksdb.a (direct calls, thread-locals by offset) and
  # librocksdb.so (what Debian's db_bench links). scripts/check-fidelity.sh links the shared one, so that
  # both sides of its Debian comparison run the very same machine code.
  option(DBXB_ROCKSDB_SHARED "Link Debian's shared librocksdb instead of its static one" OFF)
  find_package(RocksDB REQUIRED CONFIG)
  if(DBXB_ROCKSDB_SHARED)
    target_link_libraries(dbxb_rocksdb INTERFACE RocksDB::rocksdb-shared)
    set(_build "debian-package, shared library (assertions enabled)")
  else()
    target_link_libraries(dbxb_rocksdb INTERFACE RocksDB::rocksdb)
    set(_build "debian-package (assertions enabled)")
  endif()
  set(DBXB_rocksdb_PROVENANCE "DBXB_LIB_BUILD=\"${_build}\"" "DBXB_LIB_SOURCE=\"Debian 12 package librocksdb-dev\""
      "DBXB_LIB_FLAGS=\"without -DNDEBUG\"" "DBXB_LIB_RELEASE_DATE=\"\"")
endif()

# PostgreSQL: nothing is linked (the adapter links Debian's libpq, which speaks to every server version);
# the release build is the server programs the `postgres` engine runs, named to its adapter as
# DBXB_PG_RELEASE_ROOT (the entry) and DBXB_PG_RELEASE_BINDIR. Without it, `postgres` runs Debian's
# server, and says so; `postgres@debian` runs Debian's in either case.
if("postgres" IN_LIST DBXB_RELEASE_ENGINES)
  dbxb_release_provenance(postgres)
  file(STRINGS "${DBXB_postgres_PREFIX}/BUILD-INFO" _dbxb_pg_bindir REGEX "^bindir=")
  string(REGEX REPLACE "^bindir=" "" _dbxb_pg_bindir "${_dbxb_pg_bindir}")
  list(APPEND DBXB_postgres_PROVENANCE "DBXB_PG_RELEASE_ROOT=\"${DBXB_postgres_PREFIX}\""
       "DBXB_PG_RELEASE_BINDIR=\"${DBXB_postgres_PREFIX}/${_dbxb_pg_bindir}\"")
else()
  set(DBXB_postgres_PROVENANCE "DBXB_LIB_BUILD=\"debian-package\"" "DBXB_LIB_SOURCE=\"Debian 12 package postgresql-15\""
      "DBXB_LIB_FLAGS=\"\"" "DBXB_LIB_RELEASE_DATE=\"\"" "DBXB_PG_RELEASE_ROOT=\"\"" "DBXB_PG_RELEASE_BINDIR=\"\"")
endif()
