#!/usr/bin/env bash
# The default comparison: builds dbx-bench and runs the dbx-micro suite on every engine, writing
# results/<UTC time>/results.{json,md,gbench.json} (or --out DIR) and printing the Markdown table.
# Extra arguments go to `dbx-bench run`, e.g. scripts/bench.sh --records 100000 --quick
set -euo pipefail
cd "$(dirname "$0")/.."
out="results/$(date -u +%Y%m%dT%H%M%SZ)"
args=()
engines=""
while (($# > 0)); do
  case "$1" in
    --out) out="${2:-}"; shift 2 || { echo "bench.sh: --out needs a directory" >&2; exit 2; } ;;
    --out=*) out="${1#--out=}"; shift ;;
    --engines) engines="${2:-}"; args+=("$1" "${2:-}"); shift 2 || shift ;;
    --engines=*) engines="${1#--engines=}"; args+=("$1"); shift ;;
    *) args+=("$1"); shift ;;
  esac
done
# The release builds of third-party engines (thirdparty/) that the run needs: all of them by default,
# only those named in --engines otherwise (the rest link Debian's package and say so).
release=()
for e in sqlite lmdb rocksdb wiredtiger postgres; do
  if [[ -z "$engines" || ",$engines," == *",$e,"* ]]; then release+=("$e"); fi
done
release_list="$(IFS=';'; echo "${release[*]}")"
# Only the tool itself: the test binaries are scripts/test.sh's business.
DBXB_BUILD_TARGET=dbx-bench scripts/build.sh "-DDBXB_RELEASE_ENGINES=$release_list"
build/dbx-bench run --suite dbx-micro --out "$out" --format json,md,gbench \
  --warmup 1s --measurement 2s --samples 50 "${args[@]}"
echo "Results: $out/results.json, $out/results.md, $out/results.gbench.json"
