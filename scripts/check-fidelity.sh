#!/usr/bin/env bash
# Fidelity check: RocksDB through dbx-bench against RocksDB's own db_bench, on the same library, side
# by side. fillseq (every key in one WriteBatch, db_bench --batch_size=N, as dbx-micro's insert) and
# readrandom (point reads of the loaded keys; dbx-micro's get reads every key once in a random order)
# at 100k and 1M records: 16-byte keys, 100-byte values, WAL off, no sync, the same 64 MiB LRU block
# cache, snappy, no bloom filter (the adapter's defaults), and both settle before reading (dbx-bench's
# settle; db_bench's flush and waitforcompaction). The two tools run alternately, --reps times (default 3), so
# that a busy machine slows both alike; each side's figure is the median over its runs (dbx-bench: the
# median iteration of each run, after its warm-up; db_bench: the micros/op of every run after the
# warm-up runs of its process — three fillseq and one readrandom). Prints ns per operation and the
# ratio dbx-bench / db_bench, and fails (exit 1) when a ratio is outside [1 - TOL, 1 + TOL].
#
# Runs Debian's db_bench (rocksdb-tools) against a dbx-bench linked with Debian's librocksdb; when
# .rocksdb-release/ holds a release build with its own bin/db_bench and the dbx-bench build links it,
# that pair is compared as well.
#
# Usage: scripts/check-fidelity.sh [--records 100000,1000000] [--tolerance 0.10] [--reps 3]
# Environment: DBX_BENCH (default build/dbx-bench), DATA_DIR (default /tmp).
set -euo pipefail
cd "$(dirname "$0")/.."

records="100000,1000000"
tol="0.10"
reps=3
usage() {
  echo "check-fidelity.sh: $1" >&2
  exit 2
}
while (($# > 0)); do
  case "$1" in
    --records) records="${2:-}"; shift 2 || usage "--records needs a list" ;;
    --tolerance) tol="${2:-}"; shift 2 || usage "--tolerance needs a fraction" ;;
    --reps) reps="${2:-}"; shift 2 || usage "--reps needs a count" ;;
    *) usage "unknown argument '$1'" ;;
  esac
done
[[ "$records" =~ ^[0-9]+(,[0-9]+)*$ ]] || usage "--records: '$records' is not a list of counts"
[[ "$tol" =~ ^0?\.[0-9]+$ ]] || usage "--tolerance: '$tol' is not a fraction like 0.10"
[[ "$reps" =~ ^[1-9][0-9]?$ ]] || usage "--reps: '$reps' is not a count from 1 to 99"

dbx_bench="${DBX_BENCH:-build/dbx-bench}"
[[ -x "$dbx_bench" ]] || usage "$dbx_bench not built (scripts/build.sh)"
work="$(mktemp -d "${DATA_DIR:-/tmp}/dbxb-fidelity-XXXXXX")"
trap 'rm -rf "$work"' EXIT

failed=0
# db_bench's first runs in a process are slower (the heap and the memtable arena are touched for the
# first time: 1.7 and 0.9 us/op for the first fillseq of 100k keys against 0.6-0.8 for the fifth and
# sixth); dbx-bench's warm-up iterations are not measured either.
warm_fills=3
kept_fills=5
load_batch=10000  # dbx-micro's --load-batch default
common=(--key_size=16 --value_size=100 --disable_wal=1 --sync=0 --cache_size=$((64 << 20))
  --compression_type=snappy --bloom_bits=0 --threads=1)

# check_pair DB_BENCH LABEL: every record count, both benchmarks.
check_pair() {
  local db_bench="$1" label="$2"
  echo "== $label: $("$dbx_bench" list | awk '$1 == "rocksdb"' | sed 's/  */ /g')"
  printf '%-10s %-11s %16s %16s %8s\n' records benchmark "dbx-bench ns/op" "db_bench ns/op" ratio
  local n rep
  for n in ${records//,/ }; do
    for ((rep = 1; rep <= reps; ++rep)); do
      local out="$work/dbx-$n-$rep" db="$work/db_bench-$n"
      "$dbx_bench" run --suite dbx-micro --engines rocksdb --workloads insert,get --records "$n" \
        --key-size 16 --value-size 100 --durability none --cache-size 64MiB \
        --warmup 0.5s --measurement 2s --samples 10 --resamples 1000 --no-overhead \
        --data-dir "$work" --out "$out" --format json >"$out.log" 2>&1 \
        || { echo "dbx-bench failed:"; cat "$out.log"; return 1; }
      # fillseq: one batch of N rows, as dbx-micro's insert. Each fillseq starts from a fresh database.
      # Like dbx-bench, which measures after its warm-up, db_bench is measured warm: the first
      # $warm_fills fillseq and the first readrandom of every process run and are not counted (below).
      local fills
      fills="$(printf 'fillseq,%.0s' $(seq $((warm_fills + kept_fills))))"
      "$db_bench" --benchmarks="${fills%,}" --num="$n" --batch_size="$n" "${common[@]}" --seed="$rep" \
        --db="$db" >"$work/db_bench-$n-$rep.log" 2>&1 \
        || { echo "db_bench failed:"; cat "$work/db_bench-$n-$rep.log"; return 1; }
      rm -rf "$db"
      # readrandom: on a database loaded as dbx-micro loads it (batches of $load_batch rows, so that
      # the memtable switches and flushes alike; a single batch of 10^6 rows would leave them all in
      # one 130 MB memtable, never flushed), settled, then read.
      "$db_bench" --benchmarks=fillseq,waitforcompaction,readrandom,readrandom --num="$n" --reads="$n" \
        --batch_size="$load_batch" "${common[@]}" --seed="$rep" --db="$db" \
        >"$work/db_bench-reads-$n-$rep.log" 2>&1 \
        || { echo "db_bench failed:"; cat "$work/db_bench-reads-$n-$rep.log"; return 1; }
      rm -rf "$db"
    done
    python3 - "$work" "$n" "$tol" "$warm_fills" <<'PY' || failed=1
import glob, json, re, statistics, sys
work, n, tol, warm_fills = sys.argv[1], sys.argv[2], float(sys.argv[3]), int(sys.argv[4])
skip = {"fillseq": warm_fills, "readrandom": 1}  # warm-up runs of each db_bench process
ours, theirs = {}, {}
for path in glob.glob(f"{work}/dbx-{n}-*/results.json"):
    for b in json.load(open(path))["benchmarks"]:
        if b["error_occurred"]:
            sys.exit(f"dbx-bench {b['workload']} failed: {b['error_message']}")
        per_op = b["estimates"]["median"]["point"] / b["elements_per_iteration"]
        ours.setdefault(b["workload"], []).append(per_op)
# fillseq from the fills logs, readrandom from the reads logs (whose fillseq is the batched load).
for pattern, wanted in ((f"{work}/db_bench-{n}-*.log", "fillseq"), (f"{work}/db_bench-reads-{n}-*.log", "readrandom")):
    for path in glob.glob(pattern):
        seen = 0
        for line in open(path):
            m = re.match(r"^(\w+)\s*:\s*([0-9.]+) micros/op", line)
            if m and m.group(1) == wanted:
                seen += 1
                if seen > skip[wanted]:
                    theirs.setdefault(wanted, []).append(float(m.group(2)) * 1000.0)
bad = False
for ours_name, their_name in (("insert", "fillseq"), ("get", "readrandom")):
    if their_name not in theirs or ours_name not in ours:
        sys.exit(f"no {their_name} / {ours_name} figures (see {work})")
    a, b = statistics.median(ours[ours_name]), statistics.median(theirs[their_name])
    ratio = a / b
    ok = abs(ratio - 1.0) <= tol
    bad = bad or not ok
    print(f"{n:<10} {their_name:<11} {a:16.1f} {b:16.1f} {ratio:8.3f}{'' if ok else f'  outside ±{tol:.0%}'}")
sys.exit(1 if bad else 0)
PY
  done
}

check_pair /usr/bin/db_bench "Debian's librocksdb and db_bench (rocksdb-tools)"
release=.rocksdb-release
if [[ -d "$release" ]]; then
  if [[ -x "$release/bin/db_bench" ]] && "$dbx_bench" list | awk '$1 == "rocksdb"' | grep -q release; then
    check_pair "$release/bin/db_bench" "release build in $release"
  else
    echo "== $release: skipped (needs $release/bin/db_bench and a dbx-bench build that links $release)"
  fi
fi
if ((failed)); then
  echo "FIDELITY: a ratio is outside ±$tol" >&2
  exit 1
fi
echo "FIDELITY: every ratio within ±$tol"
