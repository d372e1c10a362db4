# RocksDB's own db_bench from the same source and flags as the release library (thirdparty/rocksdb.sh),
# for scripts/check-fidelity.sh: the library is compiled again in a build directory of its own, with
# gflags (db_bench's command line) and the benchmark tools switched on. Sourced by thirdparty/build.sh.
# shellcheck source=/dev/null
source "$(dirname "${BASH_SOURCE[0]}")/rocksdb.sh"

recipe_build() {
  local src="$1" work="$2" prefix="$3" jobs="$4"
  cmake -S "$src" -B "$work" -G Ninja "${ROCKSDB_FLAGS[@]}" -DROCKSDB_BUILD_SHARED=OFF -DWITH_GFLAGS=ON \
    -DWITH_TESTS=OFF -DWITH_TOOLS=ON -DWITH_CORE_TOOLS=OFF -DWITH_BENCHMARK_TOOLS=ON \
    -DWITH_TRACE_TOOLS=OFF -DWITH_EXAMPLES=OFF
  cmake --build "$work" --target db_bench -j "$jobs"
  mkdir -p "$prefix/bin"
  cp "$work/db_bench" "$prefix/bin/db_bench"
}

recipe_info() {
  echo "release_date=$RELEASE_DATE"
  echo "build=release db_bench (CMAKE_BUILD_TYPE=Release: -O3 -DNDEBUG), with gflags"
  echo "flags=${ROCKSDB_FLAGS[*]}"
}
