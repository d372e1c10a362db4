#!/usr/bin/env bash
# Checks the size limits of the rooms CONTRIBUTING.md describes (cli, harness, writers, compare, records,
# stats): no tracked .h/.cc file over 500 lines, and no function over 60 lines as clang-tidy's
# readability-function-size counts them (the lines of its body), with Debian's clang-tidy
# (scripts/install-deps.sh installs it). scripts/test.sh runs it after the release build: clang-tidy
# reads the compile commands of build/.
#
# Usage: scripts/check-sizes.sh [BUILD_DIR]   default build/; exit 1 naming each file or function over
#                                             its limit, exit 2 when a tool or the compile commands are
#                                             missing
set -euo pipefail
cd "$(dirname "$0")/.."

ROOMS=(cli harness writers compare records stats)
MAX_FILE_LINES=500
MAX_FUNCTION_LINES=60
BUILD_DIR="${1:-build}"
CLANG_TIDY="${CLANG_TIDY:-clang-tidy}"

command -v "$CLANG_TIDY" >/dev/null || { echo "check-sizes: $CLANG_TIDY not found (scripts/install-deps.sh installs it)" >&2; exit 2; }
[[ -f "$BUILD_DIR/compile_commands.json" ]] || { echo "check-sizes: $BUILD_DIR/compile_commands.json not found (build first: scripts/build.sh)" >&2; exit 2; }

pathspecs=()
for room in "${ROOMS[@]}"; do pathspecs+=("$room/*.h" "$room/*.cc"); done
mapfile -t files < <(git ls-files -- "${pathspecs[@]}")
mapfile -t sources < <(printf '%s\n' "${files[@]}" | grep '\.cc$')

failed=0
while read -r lines file; do
  [[ "$file" == total ]] && continue
  if ((lines > MAX_FILE_LINES)); then
    echo "check-sizes: $file has $lines lines (at most $MAX_FILE_LINES in the rooms)" >&2
    failed=1
  fi
done < <(wc -l "${files[@]}")

# Each source once; a header's functions are reported from every source that includes it, so the
# warnings are made unique. The header filter keeps them to the rooms' own headers.
rooms_regex=$(IFS='|'; echo "${ROOMS[*]}")
log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
printf '%s\n' "${sources[@]}" | xargs -n 8 -P "$(nproc)" "$CLANG_TIDY" -p "$BUILD_DIR" --quiet \
  --checks='-*,readability-function-size' --header-filter="^$PWD/($rooms_regex)/.*\.h$" \
  --config="{CheckOptions: [{key: readability-function-size.LineThreshold, value: $MAX_FUNCTION_LINES}]}" \
  >"$log" 2>/dev/null || status=$?
# "FILE:LINE:COL: warning: function 'NAME' exceeds ...", then "note: N lines including whitespace ...".
mapfile -t long < <(awk -v root="$PWD/" '
  / warning: function .* exceeds recommended size/ { split($0, w, ": warning: "); at = w[1]; sub(root, "", at)
    name = $0; sub(/.* function /, "", name); sub(/ exceeds.*/, "", name); next }
  at != "" && / note: [0-9]+ lines including/ { n = $0; sub(/.* note: /, "", n); sub(/ lines.*/, "", n)
    print at ": " name " has " n " lines"; at = "" }' "$log" | sort -u)
for f in "${long[@]}"; do echo "check-sizes: $f (at most $MAX_FUNCTION_LINES)" >&2; done
((${#long[@]} == 0)) || failed=1
if ((status != 0 && ${#long[@]} == 0)); then
  # clang-tidy failed without naming a long function: a source it could not parse.
  grep -E 'error:' "$log" | head -n 10 >&2 || true
  echo "check-sizes: clang-tidy failed (exit $status) on the rooms' sources" >&2
  exit 2
fi
((failed == 0)) || exit 1
echo "check-sizes: ${#files[@]} files of ${ROOMS[*]}: none over $MAX_FILE_LINES lines, no function over $MAX_FUNCTION_LINES"
