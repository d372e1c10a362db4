# WiredTiger's newest release, 11.3.1, from the source archive of PyPI's `wiredtiger` 11.3.1, which holds
# WiredTiger's complete release tree (its CMakeLists.txt, src/, ext/compressors/), built by WiredTiger's
# own CMake as a static library. The archive's setup.py (the Python API) is not used. Sourced by
# thirdparty/build.sh. The flags, against WiredTiger's CMake (cmake/configs/base.cmake, modes.cmake):
#   CMAKE_BUILD_TYPE=Release  WiredTiger's release mode: -O2 (its CC_OPTIMIZE_LEVEL for Release, which
#                             replaces CMake's -O3), -DNDEBUG, HAVE_DIAGNOSTIC and debug info off (its
#                             default build type is Debug, for its developers)
#   ENABLE_STRICT=0           its strict mode only adds warnings and -Werror; gcc 12 stops it on a
#                             -Werror=array-bounds in src/include/intpack_inline.h. The code is the same
#   HAVE_BUILTIN_EXTENSION_LZ4/SNAPPY/ZLIB/ZSTD=1, ENABLE_LZ4/SNAPPY/ZLIB/ZSTD=0
#                             the compressors its Release build makes when it finds their libraries
#                             (as loadable modules then), compiled into the library instead: WiredTiger's
#                             own switch for a static link (MongoDB links it so); they register at
#                             wiredtiger_open with no extension path
#   ENABLE_STATIC=1, ENABLE_SHARED=0   the static library only (its default is the shared one)
#   ENABLE_PYTHON=0           the Python API (SWIG) is not linked
VERSION=11.3.1
RELEASE_DATE=2024-11-13  # cmake/configs/version.cmake: "WiredTiger 11.3.1: (November 13, 2024)"; README too
SOURCE_SUBDIR=.
WT_ARCHIVE=wiredtiger-11.3.1.tar.gz
WT_ARCHIVE_SHA256=95052d1b6fc06921dd617aafa1ba2a773d8dbbbf2eb74f77147290a630e598d0
WT_FLAGS=(
  -DCMAKE_BUILD_TYPE=Release -DENABLE_STRICT=0
  -DHAVE_BUILTIN_EXTENSION_LZ4=1 -DHAVE_BUILTIN_EXTENSION_SNAPPY=1 -DHAVE_BUILTIN_EXTENSION_ZLIB=1
  -DHAVE_BUILTIN_EXTENSION_ZSTD=1 -DENABLE_LZ4=0 -DENABLE_SNAPPY=0 -DENABLE_ZLIB=0 -DENABLE_ZSTD=0
  -DENABLE_STATIC=1 -DENABLE_SHARED=0 -DENABLE_PYTHON=0
)

# Prints the unpacked source tree: the archive is fetched with pip once into the cache's sources/ and
# checked against its pinned sha256 on every use.
recipe_source() {
  local dir="$cache_root/sources" archive
  archive="$dir/$WT_ARCHIVE"
  mkdir -p "$dir"
  if [[ ! -f "$archive" ]] || ! echo "$WT_ARCHIVE_SHA256  $archive" | sha256sum --quiet --check - >/dev/null 2>&1; then
    rm -f "$archive"
    python3 -m pip download --quiet --no-deps --no-binary :all: --no-build-isolation -d "$dir" "wiredtiger==$VERSION" >&2 ||
      python3 -m pip download --quiet --no-deps --no-binary :all: -d "$dir" "wiredtiger==$VERSION" >&2 ||
      die "wiredtiger: pip download wiredtiger==$VERSION failed"
  fi
  echo "$WT_ARCHIVE_SHA256  $archive" | sha256sum --quiet --check - >&2 ||
    die "wiredtiger: $archive does not have the pinned sha256 $WT_ARCHIVE_SHA256"
  rm -rf "$dir/wiredtiger-$VERSION"
  tar -xzf "$archive" -C "$dir"
  echo "$dir/wiredtiger-$VERSION"
}
SOURCE_NAME="PyPI wiredtiger 11.3.1 (sdist, sha256 ${WT_ARCHIVE_SHA256:0:16})"

recipe_build() {
  local src="$1" work="$2" prefix="$3" jobs="$4"
  grep -q '^set(WT_VERSION_STRING "WiredTiger 11\.3\.1: ' "$src/cmake/configs/version.cmake" || {
    echo "$src is not WiredTiger $VERSION" >&2
    return 1
  }
  cmake -S "$src" -B "$work" -G Ninja "${WT_FLAGS[@]}"
  cmake --build "$work" --target wiredtiger_static -j "$jobs"
  mkdir -p "$prefix/include" "$prefix/lib"
  cp "$work/include/wiredtiger.h" "$src/src/include/wiredtiger_ext.h" "$prefix/include/"
  cp "$work/libwiredtiger.a" "$prefix/lib/libwiredtiger.a"
}

recipe_info() {
  echo "release_date=$RELEASE_DATE"
  echo "build=release (CMAKE_BUILD_TYPE=Release: -O2 -DNDEBUG, HAVE_DIAGNOSTIC off)"
  echo "flags=${WT_FLAGS[*]}"
  echo "compression=snappy lz4 zlib zstd (built in)"
  echo "link=snappy z lz4 zstd pthread dl rt m"
}
