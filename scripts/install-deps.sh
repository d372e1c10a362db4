#!/usr/bin/env bash
# Installs the Debian packages dbx-bench builds from, and creates the unprivileged account the postgres
# adapter runs its private servers as (initdb refuses to run as root). Idempotent: when everything is
# present it only checks (about a second) and never touches apt.
set -euo pipefail

PACKAGES=(
  build-essential cmake ninja-build pkg-config git
  ccache  # the compile cache outside the clone (cmake/compile_cache.cmake)
  libsqlite3-dev liblmdb-dev librocksdb-dev libleveldb-dev libwiredtiger-dev
  postgresql libpq-dev
  libfmt-dev nlohmann-json3-dev libcli11-dev
  libbenchmark-dev libgtest-dev libgmock-dev
  libzstd-dev liblz4-dev zlib1g-dev
  libsnappy-dev libbz2-dev liburing-dev  # the codecs and io_uring the RocksDB release build links (thirdparty/rocksdb.sh)
  python3 libbenchmark-tools python3-scipy
  python3-pip  # pip download of the registry sources and wheels: thirdparty/lmdb.sh, thirdparty/postgres.sh
  clang-format  # scripts/check-format.sh, run by scripts/test.sh
  clang-tidy  # scripts/check-rooms.sh, run by scripts/test.sh
  valgrind  # run --measure instructions: callgrind, and valgrind/callgrind.h for its client requests
  libhdrhistogram-java openjdk-17-jdk-headless  # HdrHistogram's Java side of tests/hdr_interop_test.cc
  iproute2  # tests/netns_clients_test.cc: a server and two clients in network namespaces (as root)
)
# Extra packages for the sanitizer and fuzzing builds (scripts/test.sh's asan, tsan and fuzz stages).
if [[ "${DBXB_WITH_CLANG:-0}" == 1 ]]; then
  PACKAGES+=(clang libclang-rt-14-dev)
fi
# Debian's db_bench, the other side of scripts/check-fidelity.sh.
if [[ "${DBXB_WITH_DB_BENCH:-0}" == 1 ]]; then
  PACKAGES+=(rocksdb-tools)
fi

# The account of the postgres adapter's servers (adapters/postgres/postgres_server.h names it).
PG_SERVER_USER=dbxbench

ensure_server_user() {
  if [[ $(id -u) -ne 0 ]] || id -u "$PG_SERVER_USER" >/dev/null 2>&1; then
    return 0  # not root: the servers run as the invoking user; or the account exists already
  fi
  echo "install-deps: creating system user $PG_SERVER_USER (runs the postgres adapter's servers)" >&2
  useradd --system --user-group --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin \
    "$PG_SERVER_USER"
}

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if ((${#missing[@]} == 0)); then
  ensure_server_user
  exit 0
fi

echo "install-deps: installing ${missing[*]}" >&2
SUDO=""
if [[ $(id -u) -ne 0 ]]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
ensure_server_user
