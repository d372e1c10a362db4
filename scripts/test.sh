#!/usr/bin/env bash
# The test command (README, .ci/run): installs what is missing, then runs every test in four stages.
#
#   release  clang-format check of every C++ file (scripts/check-format.sh), then a Release build in
#            build/ (scripts/build.sh), the rules of the rooms (scripts/check-rooms.sh: includes down
#            CONTRIBUTING.md's order, files of at most 500 lines, functions of at most 60 by clang-tidy)
#            and every CTest test: unit, conformance over every adapter, end-to-end, bad input, crash
#            soak (10 iterations), fuzz corpus replay.
#   asan     AddressSanitizer + UndefinedBehaviorSanitizer (+ LeakSanitizer) build in build-asan/
#            (clang, -O1 -g; test targets only) and every CTest test again.
#            Both clang builds check the engine's lock annotations: -Wthread-safety -Werror=thread-safety
#            (also set for any clang build by engine/CMakeLists.txt).
#   tsan     ThreadSanitizer build in build-tsan/ (clang, -O1 -g) and the tests whose threads all run
#            our code: the DBX engine tests (CTest label `engine`), the threaded phase runner
#            (PhaseRunner.*, CapacityRunTest.*), ThreadTeam and dbx-micro's get and scan on --threads,
#            and the multi-threaded YCSB, conformance and row-store tests on the dbx and null adapters,
#            plus LMDB's two concurrency conformance tests (TSAN_THREADED_TESTS:
#            LMDB starts no threads and locks with pthread mutexes, which TSan intercepts, so the
#            adapter's own code is checked). Debian's SQLite/RocksDB are not TSan-instrumented, so
#            tests that run threads inside them would only report false positives.
#   fuzz     every libFuzzer target (built in build-asan/) for DBXB_FUZZ_SECONDS (default 20) each,
#            starting from fuzz/corpus/<target>; a crash fails the stage and keeps the reproducer.
#   The sanitizer builds (asan, tsan, fuzz) leave the Rust bridge out (-DDBXB_RUST=OFF: no sled, redb or
#   dbx-core adapter): cargo builds the crates without -fsanitize, so ASan/TSan would check none of their
#   code and TSan would report the Rust threads' own synchronisation (not intercepted) as races; the
#   bridge's Rust side is memory-safe Rust whose every entry catches panics, and its C++ side (one adapter)
#   is tested in the release stage. Building the crates twice more would add the bridge's whole compile
#   time (see adapters/rust/README.md) to each sanitizer stage.
#   They leave the Debian variants out too (-DDBXB_DEBIAN_VARIANTS=OFF: sqlite@debian ...): the same
#   adapter code as the release engines', which the sanitizers check, linked to Debian's uninstrumented
#   libraries; the release stage runs their conformance and sync-count cases.
#
# Usage: scripts/test.sh                 all four stages (what CI runs)
#        scripts/test.sh --fast          the release stage only (for developers)
#        scripts/test.sh --stage asan    only the named stage(s) (repeatable)
#        scripts/test.sh -L conformance  extra arguments go to the release stage's ctest (and imply --fast
#                                        unless --stage is given)
set -euo pipefail
cd "$(dirname "$0")/.."

stages=()
ctest_args=()
while (($# > 0)); do
  case "$1" in
    --fast) stages+=(release); shift ;;
    --stage)
      case "${2:-}" in release|asan|tsan|fuzz) stages+=("$2") ;; *) echo "test.sh: --stage: '${2:-}' is not one of release, asan, tsan, fuzz" >&2; exit 2 ;; esac
      shift 2 ;;
    -h|--help) sed -n '2,34p' "$0"; exit 0 ;;
    *) ctest_args+=("$1"); shift ;;
  esac
done
if ((${#stages[@]} == 0)); then
  if ((${#ctest_args[@]} > 0)); then stages=(release); else stages=(release asan tsan fuzz); fi
fi
want() { local s; for s in "${stages[@]}"; do [[ "$s" == "$1" ]] && return 0; done; return 1; }

JOBS=$(nproc)
TSAN_THREADED_TESTS='^PhaseRunner\.|^ThreadTeamTest\.|^MicroSuiteTest\.Threads|^CapacityRunTest\.|^AcknowledgedCounter\.|YcsbOnEngine\..*/(dbx|null)( |$)|ConformanceTest\.(ConcurrentSessions|BigBatchWhileReadersRun)/(dbx|lmdb)_|RowStoreTest\.ConcurrentReaderNeverSeesHalfABatch/dbx_kv'

FUZZ_SECONDS="${DBXB_FUZZ_SECONDS:-20}"
# Sanitizer reports stop the process (a test that hits one fails) and print full stacks.
export ASAN_OPTIONS="${ASAN_OPTIONS:-halt_on_error=1:detect_leaks=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}"
export TSAN_OPTIONS="${TSAN_OPTIONS:-halt_on_error=1:second_deadlock_stack=1}"
export LSAN_OPTIONS="${LSAN_OPTIONS:-suppressions=$PWD/scripts/lsan.supp:print_suppressions=0}"

summary=()
stage_start=0
begin() {
  stage_start=$SECONDS
  printf '\n======== test.sh: %s ========\n' "$1"
}
finish() {  # finish NAME RESULT: one summary line for the time since begin or the previous finish
  local t=$((SECONDS - stage_start))
  summary+=("$(printf '%-20s %4d:%02d  %s' "$1" $((t / 60)) $((t % 60)) "$2")")
  stage_start=$SECONDS
}
print_summary() {
  printf '\n======== test.sh: summary (stage, wall time, result) ========\n'
  printf '%s\n' "${summary[@]}"
  printf '%-20s %4d:%02d\n' total $((SECONDS / 60)) $((SECONDS % 60))
}
trap print_summary EXIT

# ctest_stage NAME DIR ARGS...: runs ctest, keeps its "N% tests passed" line for the summary.
ctest_stage() {
  local name=$1 dir=$2
  shift 2
  local log="$dir/ctest-$name.log" status=0
  ctest --test-dir "$dir" --output-on-failure -j"$JOBS" "$@" 2>&1 | tee "$log" || status=$?
  local line
  line=$(grep -E 'tests passed|No tests were found' "$log" | tail -n 1 || true)
  if ((status != 0)) || [[ -z "$line" || "$line" == *"No tests were found"* ]]; then
    finish "$name" "FAILED: ${line:-ctest did not run}"
    exit 1
  fi
  finish "$name" "$line"
}

# configure_sanitizer DIR SANITIZERS [cmake args...]
configure_sanitizer() {
  local dir=$1 san=$2
  shift 2
  if [[ ! -f "$dir/build.ninja" ]]; then
    cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
      "-DCMAKE_C_FLAGS_RELWITHDEBINFO=-O1 -g" "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g" \
      "-DCMAKE_CXX_FLAGS=-Wthread-safety -Werror=thread-safety" \
      -DDBXB_SANITIZE="$san" -DDBXB_RUST=OFF -DDBXB_DEBIAN_VARIANTS=OFF "$@" >/dev/null
  fi
}

# Ninja targets of DIR matching the extended regex: the test binaries (convention: *_test), never the
# benchmarks.
targets_matching() {
  local found
  # build.ninja first: in a build directory made before a test was added, the target list is stale.
  ninja -C "$1" build.ninja >/dev/null
  found=$(ninja -C "$1" -t targets all | sed -nE 's/^([A-Za-z0-9_.+-]+): phony$/\1/p' | grep -v '^cmake_' | grep -E "$2" | sort -u)
  [[ -n "$found" ]] || { echo "test.sh: no target of $1 matches $2" >&2; return 1; }
  echo "$found"
}

if want asan || want tsan || want fuzz; then
  DBXB_WITH_CLANG=1 scripts/install-deps.sh
fi

if want release; then
  begin "format: every tracked .h/.cc as .clang-format says (scripts/check-format.sh)"
  scripts/install-deps.sh
  scripts/check-format.sh
  finish format "clang-format: no file to change"
  begin "release: build (build/) and every test"
  # Every release engine, whatever an earlier `scripts/bench.sh --engines ...` left in build/'s cache:
  # the tests hold the default build.
  scripts/build.sh "-DDBXB_RELEASE_ENGINES=sqlite;lmdb;rocksdb;wiredtiger;postgres"
  finish release-build "build/ (Release, every target)"
  begin "rooms: includes down CONTRIBUTING.md's order; no file over 500 lines, no function over 60 (scripts/check-rooms.sh)"
  scripts/check-rooms.sh build
  finish rooms "one-way includes, within the limits"
  ctest_stage release build "${ctest_args[@]}"
fi

if want asan || want fuzz; then
  begin "asan: AddressSanitizer + UndefinedBehaviorSanitizer build (build-asan/) and every test"
  configure_sanitizer build-asan address,undefined -DDBXB_FUZZ=ON
  list=$(targets_matching build-asan '^([a-z0-9_]+_test|replay_[a-z_]+|dbx-bench|dbx_soak_writer)$')
  mapfile -t asan_targets <<<"$list"
  cmake --build build-asan -j"$JOBS" --target "${asan_targets[@]}" dbxb_fuzzers
  finish asan-build "build-asan/ (${#asan_targets[@]} targets + fuzzers)"
  if want asan; then ctest_stage asan build-asan; else finish asan "built for fuzz only"; fi
fi

if want tsan; then
  begin "tsan: ThreadSanitizer build (build-tsan/) and the engine and phase-runner tests"
  configure_sanitizer build-tsan thread
  list=$(targets_matching build-tsan '^(dbx_[a-z_]+_test|phase_runner_test|ycsb_suite_test|ycsb_phases_test|conformance_test|row_store_test|thread_team_test|workloads_test|capacity_test)$')
  mapfile -t tsan_targets <<<"$list"
  cmake --build build-tsan -j"$JOBS" --target "${tsan_targets[@]}"
  finish tsan-build "build-tsan/ (${#tsan_targets[@]} targets)"
  ctest_stage tsan-engine build-tsan -L engine
  # Threads in our code only: the phase runner, and the threaded tests of the other binaries on the
  # dbx and null adapters (their sqlite/lmdb/rocksdb instances are not run).
  ctest_stage tsan-threads build-tsan -R "$TSAN_THREADED_TESTS"
fi

if want fuzz; then
  begin "fuzz: every libFuzzer target for ${FUZZ_SECONDS}s"
  artifacts=build-asan/fuzz-artifacts
  mkdir -p "$artifacts"
  fuzzed=0
  for bin in build-asan/fuzz/fuzz_*; do
    [[ -x "$bin" ]] || continue
    t=${bin##*/fuzz_}
    work=$(mktemp -d "${TMPDIR:-/tmp}/dbxb-fuzz-$t.XXXXXX")
    log="$artifacts/$t.log"
    status=0
    # New inputs go to the scratch corpus (first directory); the seeds in the repository are read only.
    "$bin" -max_total_time="$FUZZ_SECONDS" -rss_limit_mb=2048 -timeout=10 -print_final_stats=1 \
      -artifact_prefix="$artifacts/$t-" "$work" "fuzz/corpus/$t" >"$log" 2>&1 || status=$?
    rm -rf "$work"
    execs=$(sed -nE 's/^stat::number_of_executed_units: *([0-9]+)/\1/p' "$log" | tail -n 1)
    cov=$(grep -oE 'cov: [0-9]+' "$log" | tail -n 1 || true)
    if ((status != 0)); then
      grep -E 'ERROR|SUMMARY|FUZZ_CHECK|Test unit written' "$log" >&2 || tail -n 30 "$log" >&2
      echo "test.sh: fuzz_$t found a crash; reproduce with: $bin $artifacts/$t-<file>; full log $log" >&2
      finish "fuzz_$t" "FAILED: crashed after ${execs:-?} executions"
      exit 1
    fi
    echo "fuzz_$t: ${execs:-?} executions, ${cov:-cov: ?}, no crash"
    finish "fuzz_$t" "${execs:-?} executions, ${cov:-cov: ?}, no crash"
    fuzzed=$((fuzzed + 1))
  done
  ((fuzzed > 0)) || { finish fuzz "FAILED: no fuzz target was built"; exit 1; }
fi
