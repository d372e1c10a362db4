#!/usr/bin/env bash
# Checks the rules of the rooms that CONTRIBUTING.md states, so that they stay true:
# - dependencies point one way: no tracked .h/.cc file includes a room above its own in the table
#   "Where things are" of CONTRIBUTING.md (read from it: the table's order is the rule); tests/ is
#   exempt both ways (fixtures for every room's tests, end-to-end tests of the whole tool);
# - in the rooms cli, harness, writers, compare, records and stats: no tracked .h/.cc file over 500
#   lines, and no function over 60 lines as clang-tidy's readability-function-size counts them (the
#   lines of its body), with Debian's clang-tidy (scripts/install-deps.sh installs it).
# scripts/test.sh runs it after the release build: clang-tidy reads the compile commands of build/.
#
# Usage: scripts/check-rooms.sh [BUILD_DIR]   default build/; exit 1 naming each include against the
#                                             order and each file or function over its limit, exit 2
#                                             when a tool, the table or the compile commands are missing
set -euo pipefail
cd "$(dirname "$0")/.."

ROOMS=(cli harness writers compare records stats)
MAX_FILE_LINES=500
MAX_FUNCTION_LINES=60
BUILD_DIR="${1:-build}"
CLANG_TIDY="${CLANG_TIDY:-clang-tidy}"

command -v "$CLANG_TIDY" >/dev/null || { echo "check-rooms: $CLANG_TIDY not found (scripts/install-deps.sh installs it)" >&2; exit 2; }
[[ -f "$BUILD_DIR/compile_commands.json" ]] || { echo "check-rooms: $BUILD_DIR/compile_commands.json not found (build first: scripts/build.sh)" >&2; exit 2; }

# The order of the rooms, from the table of CONTRIBUTING.md; then every include that runs upwards.
order_status=0
python3 - <<'PY' || order_status=$?
import os, re, subprocess, sys

section = open("CONTRIBUTING.md", encoding="utf-8").read().split("## Where things are", 1)[-1].split("\n## ", 1)[0]
order = re.findall(r"^\| `([a-z_]+)/` \|", section, re.M)
if "tests" not in order or len(order) < 5:
    print("check-rooms: CONTRIBUTING.md has no table of rooms under 'Where things are'", file=sys.stderr)
    sys.exit(2)
rank = {room: i for i, room in enumerate(order)}

def room_of(including_file, path):
    """The room an #include "path" names, or None (a system or third-party header)."""
    if including_file.startswith("engine/") and path.split("/")[0] in ("dbx", "src", "tests", "bench"):
        return "engine"  # the engine's own include roots
    if path.split("/")[0] in rank:
        return path.split("/")[0]  # also a generated header, e.g. records/seed_published_csv.h
    if os.path.exists("engine/include/" + path):
        return "engine"  # DBX's public headers, "dbx/db.h"
    if os.path.exists("adapters/rust/include/" + path):
        return "adapters"
    return None

files = subprocess.run(["git", "ls-files", "--", "*.h", "*.cc"], capture_output=True, text=True, check=True).stdout.split()
bad = 0
for name in files:
    room = name.split("/")[0]
    if room not in rank or room == "tests":
        continue
    with open(name, encoding="utf-8", errors="replace") as f:
        for number, line in enumerate(f, 1):
            m = re.match(r'\s*#\s*include\s+"([^"]+)"', line)
            target = m and room_of(name, m.group(1))
            if target and target != "tests" and rank[target] < rank[room]:
                print(f"check-rooms: {name}:{number} includes {m.group(1)}: {target}/ is above {room}/ "
                      "in CONTRIBUTING.md's order", file=sys.stderr)
                bad += 1
sys.exit(1 if bad else 0)
PY
((order_status != 2)) || exit 2

pathspecs=()
for room in "${ROOMS[@]}"; do pathspecs+=("$room/*.h" "$room/*.cc"); done
mapfile -t files < <(git ls-files -- "${pathspecs[@]}")
mapfile -t sources < <(printf '%s\n' "${files[@]}" | grep '\.cc$')

failed=0
((order_status == 0)) || failed=1
while read -r lines file; do
  [[ "$file" == total ]] && continue
  if ((lines > MAX_FILE_LINES)); then
    echo "check-rooms: $file has $lines lines (at most $MAX_FILE_LINES in the rooms)" >&2
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
for f in "${long[@]}"; do echo "check-rooms: $f (at most $MAX_FUNCTION_LINES)" >&2; done
((${#long[@]} == 0)) || failed=1
if ((status != 0 && ${#long[@]} == 0)); then
  # clang-tidy failed without naming a long function: a source it could not parse.
  grep -E 'error:' "$log" | head -n 10 >&2 || true
  echo "check-rooms: clang-tidy failed (exit $status) on the rooms' sources" >&2
  exit 2
fi
((failed == 0)) || exit 1
echo "check-rooms: every include runs down CONTRIBUTING.md's order; ${#files[@]} files of ${ROOMS[*]}: none over $MAX_FILE_LINES lines, no function over $MAX_FUNCTION_LINES"
