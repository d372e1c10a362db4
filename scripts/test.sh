#!/usr/bin/env bash
# Installs what is missing, builds dbx-bench (Release, in build/) and runs every test with CTest.
# Usage: scripts/test.sh [ctest args...]   e.g. scripts/test.sh -L conformance
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh
ctest --test-dir build --output-on-failure -j"$(nproc)" "$@"
