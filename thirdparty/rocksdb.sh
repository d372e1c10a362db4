# RocksDB's release library, built by RocksDB's own CMake from the full source tree that the crate
# librocksdb-sys carries (rocksdb/ is RocksDB's release tag; the crate's own build.rs is not used).
# Sourced by thirdparty/build.sh. The flags are RocksDB's documented release build (INSTALL.md):
#   CMAKE_BUILD_TYPE=Release  -O3 -DNDEBUG: assertions off (Debian's 7.8.3 package has them on)
#   PORTABLE=haswell          -march=haswell: SSE4.2 and PCLMUL (RocksDB's fast crc32c needs both at
#                             compile time), AVX2, BMI2. Not RocksDB's default (PORTABLE=0, -march=native):
#                             on this machine native means AVX-512, which valgrind 3.19 cannot run, and
#                             `run --measure instructions` runs dbx-bench (RocksDB's static initialisers
#                             included) under callgrind (SIGILL). PORTABLE=1 would drop SSE4.2 and PCLMUL.
#   WITH_SNAPPY/LZ4/ZLIB/ZSTD/BZ2=ON   every codec RocksDB's Makefile build links when it finds it
#                             (CMake's defaults are OFF; the adapter's rocksdb.compression needs them)
#   WITH_LIBURING=ON          RocksDB's default (MultiGet's async reads)
#   USE_RTTI=ON               as Debian builds it; dbx-bench's adapter is compiled with RTTI
#   tests, tools, benchmarks, gflags, shared library OFF: the static library only
VERSION=11.8.1
CRATE=librocksdb-sys
SOURCE_SUBDIR=rocksdb
RELEASE_DATE=2026-07-28  # rocksdb/HISTORY.md: "## 11.8.1 (07/28/2026)"

ROCKSDB_FLAGS=(
  -DCMAKE_BUILD_TYPE=Release -DPORTABLE=haswell -DFAIL_ON_WARNINGS=OFF -DUSE_RTTI=ON
  -DWITH_SNAPPY=ON -DWITH_LZ4=ON -DWITH_ZLIB=ON -DWITH_ZSTD=ON -DWITH_BZ2=ON -DWITH_LIBURING=ON
  -DWITH_JEMALLOC=OFF -DWITH_TBB=OFF -DWITH_NUMA=OFF
)

recipe_build() {
  local src="$1" work="$2" prefix="$3" jobs="$4"
  cmake -S "$src" -B "$work" -G Ninja "${ROCKSDB_FLAGS[@]}" -DROCKSDB_BUILD_SHARED=OFF -DWITH_GFLAGS=OFF \
    -DWITH_TESTS=OFF -DWITH_TOOLS=OFF -DWITH_CORE_TOOLS=OFF -DWITH_BENCHMARK_TOOLS=OFF \
    -DWITH_TRACE_TOOLS=OFF -DWITH_EXAMPLES=OFF
  cmake --build "$work" --target rocksdb -j "$jobs"
  mkdir -p "$prefix/lib"
  cp -a "$src/include" "$prefix/include"
  cp "$work/librocksdb.a" "$prefix/lib/librocksdb.a"
}

recipe_info() {
  echo "release_date=$RELEASE_DATE"
  echo "build=release (CMAKE_BUILD_TYPE=Release: -O3 -DNDEBUG, assertions off)"
  echo "flags=${ROCKSDB_FLAGS[*]}"
  echo "compression=snappy lz4 zlib zstd bzip2"
  echo "link=zstd lz4 z bz2 snappy uring"
}
