#!/usr/bin/env bash
# Configures and builds dbx-bench (Release) into build/. Usage: scripts/build.sh [extra cmake args...]
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
BUILD_DIR="${DBXB_BUILD_DIR:-build}"
if [[ ! -f "$BUILD_DIR/build.ninja" ]] || (($# > 0)); then
  cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE="${DBXB_BUILD_TYPE:-Release}" "$@" >/dev/null
fi
cmake --build "$BUILD_DIR" -j"$(nproc)"
