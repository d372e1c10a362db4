#!/usr/bin/env bash
# Installs the Debian packages dbx-bench builds from. Idempotent: when everything is present it only
# checks (about a second) and never touches apt.
set -euo pipefail

PACKAGES=(
  build-essential cmake ninja-build pkg-config git
  libsqlite3-dev liblmdb-dev librocksdb-dev
  libfmt-dev nlohmann-json3-dev libcli11-dev
  libbenchmark-dev libgtest-dev libgmock-dev
  libzstd-dev liblz4-dev zlib1g-dev
  python3 libbenchmark-tools python3-scipy
  libhdrhistogram-java openjdk-17-jdk-headless  # HdrHistogram's Java side of tests/hdr_interop_test.cc
)
# Extra packages for the sanitizer and fuzzing builds (scripts/test.sh --full).
if [[ "${DBXB_WITH_CLANG:-0}" == 1 ]]; then
  PACKAGES+=(clang libclang-rt-14-dev)
fi

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if ((${#missing[@]} == 0)); then
  exit 0
fi

echo "install-deps: installing ${missing[*]}" >&2
SUDO=""
if [[ $(id -u) -ne 0 ]]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
