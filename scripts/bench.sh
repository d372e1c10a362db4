#!/usr/bin/env bash
# The default comparison: builds dbx-bench and runs the dbx-micro suite on every engine, writing
# results/<UTC time>/results.{json,md,gbench.json} and printing the Markdown table.
# Extra arguments go to `dbx-bench run`, e.g. scripts/bench.sh --records 100000 --quick
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh
out="results/$(date -u +%Y%m%dT%H%M%SZ)"
build/dbx-bench run --suite dbx-micro --out "$out" --format json,md,gbench \
  --warmup 1s --measurement 2s --samples 50 "$@"
echo "Results: $out/results.json, $out/results.md, $out/results.gbench.json"
