#!/usr/bin/env bash
# DBX crash soak: repeatedly start a writer that commits numbered transactions, SIGKILL it at a random
# moment (tiny delta/WOS thresholds make the kill land in flushes and compactions too, or during the
# recovery of the previous crash), reopen the database and check it (tests/crash_soak/dbx_soak_writer.cc):
#   - it opens cleanly;
#   - it holds exactly transactions 1..L (a prefix: no gap, no half-visible transaction);
#   - durability full: every acknowledged commit is there (L >= last acknowledged);
#   - durability normal/none: acknowledged commits may be lost at the tail; how many is reported.
# A SIGKILL leaves the kernel's page cache intact, so this soak would pass with every fsync deleted.
#
# --power-loss runs the power-loss soak instead (in one process, over the engine's fault-injecting
# Env, which keeps only what fsyncs covered; see the writer's header comment): the power is cut after a
# random number of file-system operations (in WAL writes and syncs, flushes, compactions, WAL
# rotations, manifest replacements, recovery), every unsynced byte and directory entry is dropped,
# and the reopened database is checked: it opens; it holds a prefix of the commits with no
# half-visible transaction; at full every acknowledged commit is there; at normal the prefix ends no
# earlier than the last background WAL sync before the cut. --max-delay-ms and --dir do not apply.
#
# Usage: scripts/crash-soak.sh [--power-loss] [--iterations N] [--durability full|normal|none] [--seed S]
#                              [--max-delay-ms MS] [--writer PATH] [--dir DIR]
# Defaults: 100 iterations, durability full, writer build/tests/dbx_soak_writer (built if missing).
# Exit 0 when every iteration passed; 1 on the first violation (the database is kept for inspection).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"

iterations=100
durability=full
seed=$(( $(date +%s) % 32768 ))
max_delay_ms=400
writer=""
dir=""
power_loss=0
while (($# > 0)); do
  case "$1" in
    --iterations) iterations="$2"; shift 2 ;;
    --durability) durability="$2"; shift 2 ;;
    --seed) seed="$2"; shift 2 ;;
    --max-delay-ms) max_delay_ms="$2"; shift 2 ;;
    --writer) writer="$2"; shift 2 ;;
    --dir) dir="$2"; shift 2 ;;
    --power-loss) power_loss=1; shift ;;
    -h|--help) sed -n '2,24p' "$0"; exit 0 ;;
    *) echo "crash-soak: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
# Relative paths are relative to where the script was started; the defaults to the repository.
[[ -n "$writer" && "$writer" != /* ]] && writer="$PWD/$writer"
[[ -n "$dir" && "$dir" != /* ]] && dir="$PWD/$dir"
cd "$root"
[[ "$iterations" =~ ^[1-9][0-9]*$ ]] || { echo "crash-soak: --iterations: '$iterations' is not a positive count" >&2; exit 2; }
[[ "$max_delay_ms" =~ ^[1-9][0-9]*$ ]] || { echo "crash-soak: --max-delay-ms: '$max_delay_ms' is not a positive count" >&2; exit 2; }
[[ "$seed" =~ ^[0-9]+$ ]] || { echo "crash-soak: --seed: '$seed' is not a number" >&2; exit 2; }
case "$durability" in full|normal|none) ;; *) echo "crash-soak: --durability: '$durability' is not one of full, normal, none" >&2; exit 2 ;; esac

if [[ -z "$writer" ]]; then
  writer=build/tests/dbx_soak_writer
  if [[ ! -x "$writer" ]]; then
    scripts/build.sh >/dev/null
    cmake --build build --target dbx_soak_writer >/dev/null
  fi
fi
[[ -x "$writer" ]] || { echo "crash-soak: --writer: '$writer' is not an executable" >&2; exit 2; }

if ((power_loss == 1)); then
  if [[ "$durability" == none ]]; then
    echo "crash-soak: --power-loss: durability none promises nothing to check" >&2
    exit 2
  fi
  exec "$writer" power-loss "$durability" "$iterations" "$seed"
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/dbx-crash-soak.XXXXXX")
keep=0
cleanup() { if ((keep == 0)); then rm -rf "$work"; fi; }
trap cleanup EXIT
db="${dir:-$work/db}"

RANDOM=$seed
acked_total=0     # acknowledged commits over all iterations
lost_total=0      # acknowledged commits missing after recovery
lost_iterations=0 # iterations that lost at least one acknowledged commit
recovered=0       # L after the last check
flushes=0 compactions=0
early_kills=0     # kills before the first commit of an iteration (in Open/recovery)
echo "crash-soak: $iterations iterations, durability $durability, seed $seed, kill after 0..${max_delay_ms} ms, db $db"
for ((i = 1; i <= iterations; i++)); do
  "$writer" write "$db" "$durability" >"$work/acks" 2>"$work/writer.err" &
  pid=$!
  delay_ms=$(( (RANDOM * 32768 + RANDOM) % (max_delay_ms + 1) ))
  sleep "$(printf '%d.%03d' $((delay_ms / 1000)) $((delay_ms % 1000)))"
  kill -KILL "$pid" 2>/dev/null || true
  status=0
  { wait "$pid"; } 2>/dev/null || status=$?
  if ((status != 137)); then
    keep=1
    echo "crash-soak: iteration $i: the writer ended by itself (status $status) before the kill:" >&2
    cat "$work/writer.err" >&2
    echo "crash-soak: database kept in $db" >&2
    exit 1
  fi
  # The last complete line is the last acknowledged commit of this iteration.
  # (A line is written with one write(2), so a kill cannot leave half of one; be strict anyway.)
  last_line=$(grep -aE '^[0-9]+ [0-9]+ [0-9]+$' "$work/acks" | tail -n 1 || true)
  acked=$recovered
  if [[ -n "$last_line" ]]; then
    read -r acked f c <<<"$last_line"
    flushes=$((flushes + f))
    compactions=$((compactions + c))
    acked_total=$((acked_total + acked - recovered))
  else
    early_kills=$((early_kills + 1))
  fi
  check_status=0
  out=$("$writer" check "$db" "$durability" "$acked" 2>"$work/check.err") || check_status=$?
  if ((check_status != 0)); then
    keep=1
    echo "crash-soak: iteration $i (killed after ${delay_ms} ms, last acknowledged commit $acked): FAILED" >&2
    cat "$work/check.err" >&2
    echo "crash-soak: database kept in $db; reproduce with --seed $seed" >&2
    exit 1
  fi
  recovered=${out#recovered }
  if ((recovered < acked)); then
    lost_total=$((lost_total + acked - recovered))
    lost_iterations=$((lost_iterations + 1))
  fi
  if ((i % 10 == 0 || i == iterations)); then
    echo "crash-soak: iteration $i/$iterations: $recovered transactions recovered, $acked_total acknowledged, $lost_total lost"
  fi
done
echo "crash-soak: PASSED $iterations iterations (durability $durability, seed $seed): $acked_total acknowledged commits," \
     "$lost_total lost in $lost_iterations iterations; the writers did $flushes segment flushes and $compactions compactions;" \
     "$early_kills kills landed before the first commit (during open/recovery)"
