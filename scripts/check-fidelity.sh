#!/usr/bin/env bash
# Fidelity check: RocksDB through dbx-bench against RocksDB's own db_bench, on the same library, side
# by side. fillseq (every key in one WriteBatch, db_bench --batch_size=N, as dbx-micro's insert) and
# readrandom (point reads of the loaded keys; dbx-micro's get reads every key once in a random order,
# db_bench N random keys with replacement) at 100k and 1M records: 16-byte keys, 100-byte values, WAL
# off, no sync, the same 64 MiB LRU block cache, no compression (see below), no bloom filter, and
# both settle before reading (dbx-bench's settle: a memtable flush, a compaction of the whole key
# range, then the wait for compactions; db_bench's flush, compact, then waitforcompaction).
#
# Measurement: --reps pairs (default 5); a pair is one run of each tool back to back, and which tool
# goes first alternates from pair to pair. Warm-up runs are not counted: dbx-bench's warm-up, and the
# first three fillseq and the first readrandom of each db_bench process.
# - fillseq, wall clock: each tool's fastest of its 10 counted fills (dbx-bench's --samples 10 of one
#   iteration each; db_bench's 10 fillseq after its warm-up ones); preemption only adds time, so the
#   fastest run is the least disturbed. The ratio of the median fills is printed too, not the verdict.
#   db_bench times, inside each fill, work that dbx-bench does before its timing: it starts the
#   benchmark's thread and builds its value generator (1 MiB of random text) for every fill, about 2.1 ms
#   measured, 2-3 % of a fill of 100k rows. The fastest of 10 one-row fillseq (that work and a Write of
#   one row) is taken off each of its fills, and printed.
# - readrandom, CPU time, every read a hit on both sides (dbx-micro verifies each value; db_bench's
#   "(N of N found)" is checked): the process's CPU over the counted reads (dbx-bench's resources.cpu_ns_per_op;
#   db_bench's utime + stime read from /proc at the end of each pass: 2 to 5 passes of max(N, 200,000)
#   random reads of the N keys, at least 10^6 reads in all, so the 10 ms tick stays below 1 %). On a
#   shared machine preemption inflates wall-clock reads by 2x and more; it does not inflate CPU time
#   (contention for the caches still can). The wall-clock readrandom ratio is printed too, marked as
#   not the verdict.
# The VERDICT of each benchmark is the median over the pairs of the ratio dbx-bench / db_bench; its
# line also shows both tools' median ns per operation and the smallest and largest pair ratio (the
# spread). Exit 1 when a verdict is outside [1 - TOL, 1 + TOL].
#
# What differs and cannot be made equal: the key bytes (dbx-bench's data set has keys "key_%08d"
# padded to 16 bytes, db_bench's are the 8-byte big-endian row number padded with '0'), their values
# (dbx-bench's "value_%08d_data" repeated, db_bench's RandomGenerator bytes at --compression_ratio 0.5),
# dbx-micro verifies every value it reads against the expected bytes (rebuilt from the row number, so
# without a read of stored rows), which db_bench does not.
# What is made equal: both tools build the key of each read from its row number (dbx-micro's
# ReferenceData::KeyInto, db_bench's GenerateKeyFromInt). dbx-micro used to read it from its data set's
# key array (16 MB at 10^6 rows) in random order, a cache and TLB miss per read that db_bench does not
# pay: perf put 8 % of dbx-bench's 1M readrandom samples on RocksDB's copy of that key, and the 1M
# readrandom ratio was 1.154 (pairs 1.126..1.206; 1.027 with the key built, three pairs each).
# Because the value bytes differ, both sides run without block compression (db_bench
# --compression_type=none, dbx-bench --engine-option rocksdb.compression=none): with snappy, RocksDB's
# default, the work of a 1M read differed with the bytes, not with the tool. At 1M half the reads miss
# the 64 MiB block cache and decompress a block; dbx-bench's values (a 19-byte pattern repeated, many
# short matches) took about 1.0 us of snappy per read, db_bench's (50 random bytes repeated) 0.3 us
# (perf record of both tools' reads at 1M rows, snappy's samples over the reads: 15 % of dbx-bench's
# read time). Without compression both read the same 4 KiB blocks.
#
# Each pair runs one library on both sides, and the same machine code: Debian's db_bench links the
# shared librocksdb.so, where every call into RocksDB goes through the PLT and every access to its
# thread-locals (perf_context, iostats_context, touched on each Get and Write) through __tls_get_addr;
# dbx-bench links Debian's static librocksdb.a by default, which has neither. That alone made dbx-bench's
# RocksDB 20-38 % cheaper in CPU per insert and get (the same binary linked both ways, alternating), so
# the Debian pair is checked with a dbx-bench linked to the very librocksdb.so db_bench loads (cmake
# -DDBXB_ROCKSDB_SHARED=ON): by default the script builds one into build-fidelity/, and it refuses a
# DBX_BENCH that does not load the same file.
# The dbx-bench build decides which pair is checked: one linked with Debian's librocksdb runs against
# Debian's db_bench (rocksdb-tools); one linked with
# RocksDB's release build (thirdparty/rocksdb.sh, the default build) against db_bench from the same
# source and flags (thirdparty/rocksdb-tools.sh, built into the cache on first use: about 25 min). The pair that cannot run is reported as SKIPPED, with
# the reason.
#
# Usage: scripts/check-fidelity.sh [--records 100000,1000000] [--tolerance 0.10] [--reps 5]
# Environment: DBX_BENCH (default build-fidelity/dbx-bench, built when missing), DATA_DIR (default /tmp).
# Installs what the build needs and Debian's db_bench (rocksdb-tools) when they are missing.
set -euo pipefail
cd "$(dirname "$0")/.."

records="100000,1000000"
tol="0.10"
reps=5
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

# What the build needs, and Debian's db_bench (rocksdb-tools).
DBXB_WITH_DB_BENCH=1 scripts/install-deps.sh >&2
if [[ -z "${DBX_BENCH:-}" ]]; then
  if [[ -f build-fidelity/build.ninja ]]; then
    # Brought up to date with the sources (a no-op when it is): a stale binary may lack what the
    # script passes it, such as --engine-option rocksdb.compression.
    cmake --build build-fidelity --target dbx-bench >&2
  else
    echo "building build-fidelity/dbx-bench, linked with Debian's shared librocksdb as db_bench is" >&2
    DBXB_BUILD_DIR=build-fidelity DBXB_BUILD_TARGET=dbx-bench scripts/build.sh \
      -DDBXB_ROCKSDB_SHARED=ON -DDBXB_RELEASE_ENGINES=sqlite >&2
  fi
fi
dbx_bench="${DBX_BENCH:-build-fidelity/dbx-bench}"
[[ -x "$dbx_bench" ]] || usage "$dbx_bench not built (scripts/build.sh)"
work="$(mktemp -d "${DATA_DIR:-/tmp}/dbxb-fidelity-XXXXXX")"
trap 'rm -rf "$work"' EXIT

failed=0
# Both tools run with the same malloc policy, one that keeps freed memory: without it, db_bench's
# timed fillseq of 100k rows took 6,836 page faults per fill (its WriteBatch growing to 16 MiB in
# memory glibc had given back to the kernel after the previous fill; counted with perf probes on
# WriteBatch::Clear and DB::Write) and dbx-bench's none (its main thread's heap kept the memory from
# the first fill): kernel work inside db_bench's timing alone. With this policy db_bench's counted
# fills take none either. Blocks of 32 MiB and more (the WriteBatch of 10^6 rows) are still mapped
# and unmapped for each fill, on both sides alike (29,100 page faults per fill of 10^6 rows on each).
# One malloc arena: db_bench runs every benchmark on a new thread, which allocates from a thread arena
# of 64 MiB heaps, and glibc unmaps a heap as soon as it is free whatever the trim threshold; at 10^6
# rows the memtable (130 MB) spans such heaps, so each fill's memtable inserts faulted its memory in
# again inside db_bench's timing: 76,800 page faults per fill against dbx-bench's 29,100 (perf stat,
# 7 against 1 fillseq), 29,100 with arena_max=1; dbx-bench's fills kept their memory without it.
export GLIBC_TUNABLES="glibc.malloc.mmap_threshold=$((32 << 20)):glibc.malloc.trim_threshold=$((4 << 30)):glibc.malloc.arena_max=1"
# db_bench's first runs in a process are slower (the heap and the memtable arena are touched for the
# first time: 1.7 and 0.9 us/op for the first fillseq of 100k keys against 0.6-0.8 for the fifth and
# sixth); dbx-bench's warm-up iterations are not measured either.
warm_fills=3
kept_fills=10  # as many as dbx-bench's --samples 10, so that their minimums compare alike
load_batch=10000  # dbx-micro's --load-batch default
# --progress_reports=0: db_bench's "... finished N ops" lines on stderr are its own output, not RocksDB's work.
# The next lines set db_bench's own defaults that differ from RocksDB's Options defaults, which the
# adapter uses, back to RocksDB's (found by comparing the OPTIONS file each tool writes): db_bench
# turns on enable_pipelined_write (another write path), shortens index keys further, shards the table
# cache less, does not pin the top-level index and halves two write-stall limits. What still differs
# is inert here: compaction_options_fifo (FIFO compaction only), create_missing_column_families (open
# only), dump_malloc_stats (the 10-minute stats dump) and an error-handler listener.
common=(--key_size=16 --value_size=100 --disable_wal=1 --sync=0 --cache_size=$((64 << 20))
  --compression_type=none --bloom_bits=0 --threads=1 --progress_reports=0
  --enable_pipelined_write=0 --index_shortening_mode=1 --table_cache_numshardbits=6
  --pin_top_level_index_and_filter=1 --delayed_write_rate=$((16 << 20))
  --hard_pending_compaction_bytes_limit=$((256 << 30)))

# run_dbx N REP: dbx-micro's insert and get through dbx-bench.
run_dbx() {
  local n="$1" rep="$2" out="$work/dbx-$1-$2"
  "$dbx_bench" run --suite dbx-micro --engines rocksdb --workloads insert,get --records "$n" \
    --key-size 16 --value-size 100 --durability none --cache-size 64MiB --engine-option rocksdb.compression=none \
    --warmup 0.5s --measurement 2s --samples 10 --resamples 1000 --no-overhead \
    --data-dir "$work" --out "$out" --format json >"$out.log" 2>&1 \
    || { echo "dbx-bench failed:"; cat "$out.log"; return 1; }
}

# run_db_bench DB_BENCH N REP: fillseq and readrandom through db_bench.
run_db_bench() {
  local db_bench="$1" n="$2" rep="$3" db="$work/db_bench-$2"
  # fillseq: one batch of N rows, as dbx-micro's insert. Each fillseq starts from a fresh database.
  # Like dbx-bench, which measures after its warm-up, db_bench is measured warm: the first
  # $warm_fills fillseq and the first readrandom of every process run and are not counted.
  local fills
  fills="$(printf 'fillseq,%.0s' $(seq $((warm_fills + kept_fills))))"
  "$db_bench" --benchmarks="${fills%,}" --num="$n" --batch_size="$n" "${common[@]}" --seed="$rep" \
    --db="$db" >"$work/db_bench-$n-$rep.log" 2>&1 \
    || { echo "db_bench failed:"; cat "$work/db_bench-$n-$rep.log"; return 1; }
  rm -rf "$db"
  # db_bench's timed fillseq also starts its benchmark thread and builds its value generator (1 MiB
  # of random text, rebuilt for every fill), work that dbx-bench does before its timing (its data set
  # is built once, before any iteration). That work alone is a fillseq of one row: the fastest of
  # these is taken off each fill of N rows (the one-row Write it also times is ~1 us).
  "$db_bench" --benchmarks="${fills%,}" --num=1 --batch_size=1 "${common[@]}" --seed="$rep" \
    --db="$db" >"$work/db_bench-fixed-$n-$rep.log" 2>&1 \
    || { echo "db_bench failed:"; cat "$work/db_bench-fixed-$n-$rep.log"; return 1; }
  rm -rf "$db"
  # readrandom: on a database loaded as dbx-micro loads it (batches of $load_batch rows, so that
  # the memtable switches and flushes alike; a single batch of 10^6 rows would leave them all in
  # one 130 MB memtable, never flushed), settled (the memtable flushed, the whole key range compacted,
  # compactions waited for), then read from the compacted files on both sides.
  # Each counted readrandom is timed twice: db_bench's own micros/op (wall clock) and the process's CPU
  # time, read from /proc when db_bench prints the pass's result line (line-buffered); the CPU spent
  # from the end of the warm-up pass to the end of the last counted pass, over their reads, is the CPU
  # figure. One more, uncounted pass follows, so that each of the two readings, however late it comes,
  # is followed by the same work (reads, not the database's close and flush at exit).
  # /proc counts CPU in 10 ms ticks: a pass reads at least 200,000 keys (of the N loaded), and the
  # counted passes at least 10^6 in all, so that a tick is well under 1 % of the figure.
  local reads per_pass=$((n > 200000 ? n : 200000)) passes
  passes=$((1000000 / per_pass))
  ((passes < 2)) && passes=2
  reads="$(printf 'readrandom,%.0s' $(seq $((1 + passes + 1))))"
  python3 - "$work/db_bench-reads-$n-$rep.log" stdbuf -oL "$db_bench" \
    --benchmarks="fillseq,flush,compact,waitforcompaction,${reads%,}" --num="$n" --reads="$per_pass" \
    --batch_size="$((n < load_batch ? n : load_batch))" "${common[@]}" --seed="$rep" --db="$db" <<'PY' \
    || { echo "db_bench failed:"; cat "$work/db_bench-reads-$n-$rep.log"; return 1; }
import os, subprocess, sys
tick = os.sysconf("SC_CLK_TCK")
with open(sys.argv[1], "w") as log:
    p = subprocess.Popen(sys.argv[2:], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    for line in p.stdout:
        if line.startswith("readrandom "):
            with open(f"/proc/{p.pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            cpu_s = (int(fields[11]) + int(fields[12])) / tick  # utime + stime, all threads
            line = line.rstrip("\n") + f" cpu_s={cpu_s:.2f}\n"
        log.write(line)
    sys.exit(p.wait())
PY
  rm -rf "$db"
}

# check_pair DB_BENCH LABEL: every record count, both benchmarks.
check_pair() {
  local db_bench="$1" label="$2"
  echo "== $label: $("$dbx_bench" list | awk '$1 == "rocksdb"' | sed 's/  */ /g')"
  echo "   compared: 16 B keys, 100 B values, WAL off, no sync, 64 MiB LRU block cache, no compression, no bloom,"
  echo "   one thread; fillseq: one WriteBatch of N rows into a fresh database, each tool's fastest of 10"
  echo "   (wall; db_bench's less its fixed work per fill); readrandom: CPU per read of a database loaded"
  echo "   in batches of $load_batch and settled; both with GLIBC_TUNABLES=$GLIBC_TUNABLES"
  printf '%-10s %-11s %-8s %16s %16s %8s %15s\n' records benchmark clock "dbx-bench ns/op" "db_bench ns/op" ratio "pairs min..max"
  local n rep
  for n in ${records//,/ }; do
    for ((rep = 1; rep <= reps; ++rep)); do
      # A pair is one run of each tool, back to back; which goes first alternates, so that a machine
      # getting busier or quieter during the check favours neither.
      if ((rep % 2)); then
        run_dbx "$n" "$rep" && run_db_bench "$db_bench" "$n" "$rep" || return 1
      else
        run_db_bench "$db_bench" "$n" "$rep" && run_dbx "$n" "$rep" || return 1
      fi
    done
    python3 - "$work" "$n" "$tol" "$warm_fills" "$reps" <<'PY' || failed=1
import json, re, statistics, sys
work, n, tol, warm_fills, reps = sys.argv[1], sys.argv[2], float(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
skip = {"fillseq": warm_fills, "readrandom": 1}  # warm-up runs of each db_bench process

def ours(rep):
    """dbx-bench: the median iteration's ns per row of each workload of run `rep`."""
    got = {}
    for b in json.load(open(f"{work}/dbx-{n}-{rep}/results.json"))["benchmarks"]:
        if b["error_occurred"]:
            sys.exit(f"dbx-bench {b['workload']} failed: {b['error_message']}")
        got[(b["workload"], "wall")] = b["estimates"]["median"]["point"] / b["elements_per_iteration"]
        got[(b["workload"], "wall-min")] = min(x["total_ns"] / x["iterations"] for x in b["samples"]) / b["elements_per_iteration"]
        got[(b["workload"], "cpu")] = b["resources"]["cpu_ns_per_op"]  # process CPU over the measured samples
    return got

def theirs(rep):
    """db_bench: the median over the counted runs of run `rep` (fillseq from the fills process, less
    the fastest one-row fill of the fixed-work process; readrandom from the reads process, whose
    fillseq is the batched load)."""
    got = {}
    for path, wanted in ((f"{work}/db_bench-fixed-{n}-{rep}.log", "fillseq"), (f"{work}/db_bench-{n}-{rep}.log", "fillseq"),
                         (f"{work}/db_bench-reads-{n}-{rep}.log", "readrandom")):
        runs = []  # (micros/op, operations, cpu_s or None) of every run of the benchmark, in order
        for line in open(path):
            m = re.match(r"^(\w+)\s*:\s*([0-9.]+) micros/op .*?\b([0-9]+) operations;", line)
            if m and m.group(1) == wanted:
                # dbx-micro's get finds every key (it fails otherwise): db_bench's reads must too, or it
                # read another database (a --batch_size above --num once made its fillseq write nothing).
                f = re.search(r"\(([0-9]+) of ([0-9]+) found\)", line)
                if wanted == "readrandom" and (f is None or f.group(1) != f.group(2)):
                    sys.exit(f"db_bench readrandom did not find every key ({f.group(0) if f else 'no count'}) in {path}")
                c = re.search(r" cpu_s=([0-9.]+)$", line.rstrip())
                runs.append((float(m.group(2)), int(m.group(3)), float(c.group(1)) if c else None))
        # readrandom's last pass only follows the last CPU reading (see run_db_bench): not counted.
        counted = runs[skip[wanted]:len(runs) - 1] if wanted == "readrandom" else runs[skip[wanted]:]
        if not counted:
            sys.exit(f"no {wanted} figures in {path}")
        if "fixed" in path:
            got["fixed-ns"] = min(r[0] * 1000.0 * r[1] for r in counted)  # ns per fill of one row
            continue
        # fillseq: ns per row of each fill, without its fixed work.
        off = got["fixed-ns"] / int(n) if wanted == "fillseq" else 0.0
        got[(wanted, "wall")] = statistics.median(r[0] * 1000.0 - off for r in counted)
        got[(wanted, "wall-min")] = min(r[0] * 1000.0 for r in counted) - off
        if wanted == "readrandom":
            # CPU from the end of the warm-up pass to the end of the last counted pass, over their reads.
            start, end = runs[skip[wanted] - 1][2], counted[-1][2]
            got[(wanted, "cpu")] = (end - start) * 1e9 / sum(r[1] for r in counted)
    return got

pairs = [(ours(r), theirs(r)) for r in range(1, reps + 1)]
fixed = statistics.median(t["fixed-ns"] for _, t in pairs) / 1000.0
print(f"{n:<10} db_bench's fixed work per fill (fastest one-row fillseq, median of the pairs): {fixed:.0f} us, "
      f"{fixed * 1000.0 / int(n):.1f} ns per row, taken off its fillseq")
bad = False
# fillseq is compared on the wall clock (each tool's own figure), its verdict on each run's fastest
# fill (preemption only ever adds time, so the fastest of 10 is the least disturbed); readrandom's
# verdict on CPU time, which preemption does not inflate. The medians' ratios are shown beside them.
for ours_name, their_name, clock, verdict in (("insert", "fillseq", "wall-min", True), ("insert", "fillseq", "wall", False),
                                              ("get", "readrandom", "cpu", True), ("get", "readrandom", "wall", False)):
    key = (ours_name, clock)
    if any(key not in o for o, _ in pairs) or any((their_name, clock) not in t for _, t in pairs):
        sys.exit(f"no {their_name} / {ours_name} {clock} figures (see {work})")
    a = [o[key] for o, _ in pairs]
    b = [t[(their_name, clock)] for _, t in pairs]
    ratios = [x / y for x, y in zip(a, b)]
    # The verdict is the median of the pairs' ratios: each ratio compares two runs made back to back,
    # so a slow minute of the machine moves one pair, not the verdict.
    ratio = statistics.median(ratios)
    ok = abs(ratio - 1.0) <= tol
    spread = f"{min(ratios):.3f}..{max(ratios):.3f}"
    if verdict:
        bad = bad or not ok
        note = "  VERDICT" + ("" if ok else f", outside ±{tol:.0%}")
    else:
        note = "  (shown, not the verdict)"
    if max(ratios) - min(ratios) > 2 * tol:
        note += "; pairs spread wider than the band (a busy machine: more --reps)"
    print(f"{n:<10} {their_name:<11} {clock:<8} {statistics.median(a):16.1f} {statistics.median(b):16.1f} {ratio:8.3f} {spread:>15}{note}")
sys.exit(1 if bad else 0)
PY
  done
}

# Each pair must run one library on both sides: the dbx-bench build decides which pair can run.
checked=0
if "$dbx_bench" list | awk '$1 == "rocksdb"' | grep -q release; then
  echo "== Debian's librocksdb: SKIPPED: $dbx_bench links RocksDB's release build (a build configured"
  echo "   with -DDBXB_RELEASE_ENGINES=sqlite -DDBXB_ROCKSDB_SHARED=ON, given as DBX_BENCH, checks this pair)"
  tools="$(thirdparty/build.sh --print-prefix rocksdb-tools | sed -n 's/^rocksdb-tools=//p')"
  check_pair "$tools/bin/db_bench" "release build and its db_bench (thirdparty/rocksdb-tools.sh)" || failed=1
  checked=1
else
  # The shared library each binary loads (none: linked statically).
  loaded_rocksdb() { { ldd "$1" 2>/dev/null || true; } | awk '$1 ~ /^librocksdb\.so/ { print $3 }'; }
  ours_lib="$(loaded_rocksdb "$dbx_bench")"
  theirs_lib="$(loaded_rocksdb /usr/bin/db_bench)"
  if [[ -n "$theirs_lib" && "$(readlink -f "$ours_lib" 2>/dev/null)" == "$(readlink -f "$theirs_lib")" ]]; then
    echo "== library: both load $(readlink -f "$theirs_lib")"
    check_pair /usr/bin/db_bench "Debian's librocksdb and db_bench (rocksdb-tools)" || failed=1
    checked=1
  else
    echo "== Debian's librocksdb: SKIPPED: $dbx_bench ${ours_lib:+loads $ours_lib}${ours_lib:-links librocksdb statically},"
    echo "   db_bench loads ${theirs_lib:-no librocksdb}: not the same machine code (build dbx-bench with"
    echo "   -DDBXB_ROCKSDB_SHARED=ON, as the default build-fidelity/ is)"
  fi
  echo "== the release build: SKIPPED: $dbx_bench links Debian's librocksdb (the default build,"
  echo "   given as DBX_BENCH, checks that pair)"
fi
((checked)) || { echo "FIDELITY: nothing was checked" >&2; exit 1; }
if ((failed)); then
  echo "FIDELITY: a ratio is outside ±$tol" >&2
  exit 1
fi
echo "FIDELITY: every ratio within ±$tol"
