#!/usr/bin/env bash
# Builds the RocksDB version Debian ships (librocksdb-dev) as a RELEASE build from Debian's own source
# package, and installs it into .rocksdb-release/ (include/ and lib/librocksdb.a), where
# cmake/rocksdb.cmake picks it up, with that source's own db_bench in bin/db_bench (built the same way,
# in a second build directory because db_bench needs gflags), for scripts/check-fidelity.sh.
#
# Why: Debian's librocksdb is compiled without -DNDEBUG, so every assert() in RocksDB runs; that makes it
# 2-3x slower than the release build RocksDB's own benchmarks use. Same source, same version, same
# compression libraries, only the build type differs.
#
# Needs root (apt). Adds a deb-src entry for the system's Debian suites if none exists. Idempotent: when
# the prefix already holds a build of the right version it says so and exits 0.
#
# Usage: scripts/build-rocksdb-release.sh [--jobs N]
# Environment: DBXB_ROCKSDB_PREFIX (default <repo>/.rocksdb-release),
#              DBXB_ROCKSDB_SRC    (default <repo>/.rocksdb-release-src, the git-ignored work dir).
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
prefix="${DBXB_ROCKSDB_PREFIX:-$repo/.rocksdb-release}"
work="${DBXB_ROCKSDB_SRC:-$repo/.rocksdb-release-src}"
jobs="$(nproc)"
if [[ "${1:-}" == "--jobs" && -n "${2:-}" ]]; then jobs="$2"; fi

log() { echo "build-rocksdb-release: $*"; }
die() { echo "build-rocksdb-release: error: $*" >&2; exit 1; }

# The version to build is the one the Debian package provides, so both builds are comparable.
src_version="$(dpkg-query -W -f '${source:Version}' librocksdb-dev 2>/dev/null || true)"
[[ -n "$src_version" ]] || src_version="$(apt-cache policy librocksdb-dev | awk '/Candidate:/ {print $2}')"
[[ -n "$src_version" && "$src_version" != "(none)" ]] || die "cannot tell which RocksDB version Debian ships"
upstream="${src_version#*:}"       # drop an epoch
upstream="${upstream%-*}"          # drop the Debian revision: 7.8.3-2 -> 7.8.3
log "target: RocksDB $upstream (Debian source package rocksdb $src_version)"

# Reads "MAJOR.MINOR.PATCH" from an installed rocksdb/version.h.
header_version() {
  awk '/#define ROCKSDB_MAJOR/ {M=$3} /#define ROCKSDB_MINOR/ {m=$3} /#define ROCKSDB_PATCH/ {p=$3}
       END {if (M != "") print M "." m "." p}' "$1"
}

if [[ -f "$prefix/lib/librocksdb.a" && -f "$prefix/include/rocksdb/version.h" ]]; then
  have="$(header_version "$prefix/include/rocksdb/version.h")"
  if [[ "$have" == "$upstream" && -f "$prefix/BUILD-INFO" && -x "$prefix/bin/db_bench" ]]; then
    log "release build of RocksDB $have already installed in $prefix; nothing to do"
    exit 0
  fi
  log "$prefix holds RocksDB '${have:-?}' (or an unfinished build, or one without bin/db_bench); rebuilding"
fi

[[ "$(id -u)" == 0 ]] || die "must run as root (uses apt-get)"
export DEBIAN_FRONTEND=noninteractive

# --- 1. A deb-src entry matching the system's Debian archive. ---------------------------------------
codename="$(. /etc/os-release && echo "${VERSION_CODENAME:-}")"
[[ -n "$codename" ]] || die "cannot read VERSION_CODENAME from /etc/os-release"

has_deb_src() {
  local f
  for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
    [[ -f "$f" ]] && grep -Eq "^[[:space:]]*deb-src[[:space:]].*[[:space:]]$codename[[:space:]]" "$f" && return 0
  done
  for f in /etc/apt/sources.list.d/*.sources; do
    [[ -f "$f" ]] || continue
    # A deb822 stanza that lists deb-src among its Types and the codename among its Suites.
    awk -v cn="$codename" '
      BEGIN {RS=""; FS="\n"; found=0}
      { src=0; suite=0; enabled=1
        for (i = 1; i <= NF; i++) {
          if ($i ~ /^Types:/ && $i ~ /[[:space:]]deb-src([[:space:]]|$)/) src=1
          if ($i ~ /^Suites:/ && $i ~ ("[[:space:]]" cn "([[:space:]]|$)")) suite=1
          if ($i ~ /^Enabled:[[:space:]]*no/) enabled=0
        }
        if (src && suite && enabled) found=1 }
      END {exit found ? 0 : 1}' "$f" && return 0
  done
  return 1
}

if has_deb_src; then
  log "a deb-src entry for $codename exists"
else
  added="/etc/apt/sources.list.d/dbxb-deb-src.sources"
  # Copy the first enabled deb822 stanza serving the main codename, as deb-src.
  stanza=""
  for f in /etc/apt/sources.list.d/*.sources; do
    [[ -f "$f" ]] || continue
    stanza="$(awk -v cn="$codename" '
      BEGIN {RS=""; FS="\n"}
      { deb=0; suite=0; enabled=1
        for (i = 1; i <= NF; i++) {
          if ($i ~ /^Types:/ && $i ~ /[[:space:]]deb([[:space:]]|$)/) deb=1
          if ($i ~ /^Suites:/ && $i ~ ("[[:space:]]" cn "([[:space:]]|$)")) suite=1
          if ($i ~ /^Enabled:[[:space:]]*no/) enabled=0
        }
        if (deb && suite && enabled) {
          for (i = 1; i <= NF; i++) {
            if ($i ~ /^#/) continue
            if ($i ~ /^Types:/) print "Types: deb-src"; else print $i
          }
          exit
        } }' "$f")"
    [[ -n "$stanza" ]] && break
  done
  if [[ -z "$stanza" && -f /etc/apt/sources.list ]]; then
    # One-line format: turn "deb [opts] URI codename components" into a deb-src line.
    line="$(grep -E "^[[:space:]]*deb[[:space:]].*[[:space:]]$codename[[:space:]]" /etc/apt/sources.list | head -n1 || true)"
    if [[ -n "$line" ]]; then
      added="/etc/apt/sources.list.d/dbxb-deb-src.list"
      stanza="$(sed -E 's/^[[:space:]]*deb[[:space:]]/deb-src /' <<<"$line")"
    fi
  fi
  [[ -n "$stanza" ]] || die "no apt source for '$codename' found to derive a deb-src entry from"
  log "adding deb-src entry $added:"
  printf '%s\n' "$stanza" | sed 's/^/    /'
  printf '# Added by dbx-bench scripts/build-rocksdb-release.sh to fetch the rocksdb source package.\n%s\n' \
    "$stanza" >"$added"
fi

# --- 2. Tools and the libraries RocksDB is built against (Debian's choice: snappy, zlib, bz2, lz4, zstd).
log "apt-get update"
apt-get update -qq
log "installing build dependencies"
apt-get install -y -qq --no-install-recommends \
  build-essential cmake dpkg-dev libsnappy-dev zlib1g-dev libbz2-dev liblz4-dev libzstd-dev libgflags-dev >/dev/null

# --- 3. Debian's source, with Debian's patches applied by dpkg-source. --------------------------------
mkdir -p "$work"
srcdir="$work/rocksdb-$upstream"
if [[ ! -f "$srcdir/CMakeLists.txt" ]]; then
  log "apt-get source rocksdb=$src_version into $work"
  (cd "$work" && apt-get source -qq "rocksdb=$src_version")
fi
[[ -f "$srcdir/CMakeLists.txt" ]] || die "expected the unpacked source in $srcdir"
have_src="$(header_version "$srcdir/include/rocksdb/version.h")"
[[ "$have_src" == "$upstream" ]] || die "source in $srcdir is RocksDB $have_src, expected $upstream"

# --- 4. Release build: -O2/-O3 with -DNDEBUG, portable code, static library only. ---------------------
builddir="$work/build-release"
# The flags the library and db_bench are both built with (db_bench differs only in gflags and the
# benchmark tools, below).
common_flags=(
  -DCMAKE_BUILD_TYPE=Release
  -DPORTABLE=ON
  -DFAIL_ON_WARNINGS=OFF
  -DUSE_RTTI=ON
  -DROCKSDB_BUILD_SHARED=OFF
  -DWITH_TESTS=OFF -DWITH_TOOLS=OFF -DWITH_CORE_TOOLS=OFF
  -DWITH_TRACE_TOOLS=OFF -DWITH_EXAMPLES=OFF
  -DWITH_SNAPPY=ON -DWITH_ZLIB=ON -DWITH_BZ2=ON -DWITH_LZ4=ON -DWITH_ZSTD=ON
  -DWITH_LIBURING=OFF -DWITH_JEMALLOC=OFF -DWITH_TBB=OFF -DWITH_NUMA=OFF
)
log "configuring in $builddir"
cmake -S "$srcdir" -B "$builddir" -G "Unix Makefiles" "${common_flags[@]}" \
  -DCMAKE_INSTALL_PREFIX="$prefix" \
  -DCMAKE_INSTALL_LIBDIR=lib \
  -DWITH_BENCHMARK_TOOLS=OFF -DWITH_GFLAGS=OFF >"$work/configure.log" \
  || { tail -n 40 "$work/configure.log" >&2; die "cmake configure failed (full log: $work/configure.log)"; }

log "building with $jobs jobs at nice 10 (log: $work/build.log)"
nice -n 10 cmake --build "$builddir" --target rocksdb -j "$jobs" >"$work/build.log" 2>&1 \
  || { tail -n 40 "$work/build.log" >&2; die "build failed (full log: $work/build.log)"; }

# --- 5. db_bench from the same source with the same flags; only gflags (db_bench's command line) and
# the benchmark tools are switched on, in their own build directory, so the library above is untouched.
toolsdir="$work/build-release-db_bench"
log "configuring db_bench in $toolsdir"
cmake -S "$srcdir" -B "$toolsdir" -G "Unix Makefiles" "${common_flags[@]}" \
  -DWITH_BENCHMARK_TOOLS=ON -DWITH_GFLAGS=ON >"$work/configure-db_bench.log" \
  || { tail -n 40 "$work/configure-db_bench.log" >&2; die "db_bench configure failed (full log: $work/configure-db_bench.log)"; }
log "building db_bench with $jobs jobs at nice 10 (log: $work/build-db_bench.log)"
nice -n 10 cmake --build "$toolsdir" --target db_bench -j "$jobs" >"$work/build-db_bench.log" 2>&1 \
  || { tail -n 40 "$work/build-db_bench.log" >&2; die "db_bench build failed (full log: $work/build-db_bench.log)"; }
[[ -x "$toolsdir/db_bench" ]] || die "the db_bench build left no $toolsdir/db_bench"

# Install only the headers, the static library and db_bench; a fresh prefix so no stale files remain.
rm -rf "$prefix"
mkdir -p "$prefix/lib" "$prefix/bin"
cp -a "$srcdir/include" "$prefix/include"
cp "$builddir/librocksdb.a" "$prefix/lib/librocksdb.a"
cp "$toolsdir/db_bench" "$prefix/bin/db_bench"
have="$(header_version "$prefix/include/rocksdb/version.h")"
{
  echo "RocksDB $have release build (CMAKE_BUILD_TYPE=Release, -DNDEBUG, PORTABLE=ON, static)"
  echo "source: Debian source package rocksdb $src_version"
  echo "compression: snappy zlib bz2 lz4 zstd"
  echo "bin/db_bench: the same source and build flags, with gflags"
  echo "built: $(date -u +%Y-%m-%dT%H:%M:%SZ) with $(c++ --version | head -n1)"
} >"$prefix/BUILD-INFO"
log "installed RocksDB $have (release) into $prefix"
