#!/usr/bin/env bash
# Configures and builds dbx-bench (Release) into build/. Usage: scripts/build.sh [extra cmake args...]
# DBXB_BUILD_TARGET=dbx-bench builds that target only (default: everything, tests included).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
BUILD_DIR="${DBXB_BUILD_DIR:-build}"
if [[ ! -f "$BUILD_DIR/build.ninja" ]] || (($# > 0)); then
  cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE="${DBXB_BUILD_TYPE:-Release}" "$@" >/dev/null
fi
targets=()
[[ -n "${DBXB_BUILD_TARGET:-}" ]] && targets=(--target "$DBXB_BUILD_TARGET")
cmake --build "$BUILD_DIR" -j"$(nproc)" "${targets[@]}"
