#!/usr/bin/env bash
# thirdparty/build.sh against its contract, in a cache of its own: bad input is one line and exit 2; a
# complete entry is reused as it is; a damaged entry is named and rebuilt, never used; the printed prefix
# holds what BUILD-INFO says. Seeds the cache with the SQLite entry the configure step built (a copy),
# so only the rebuild compiles (about 35 s). WiredTiger's recipe: its entry is the release it names, and
# its source archive is unpacked only with the pinned sha256 (offline, from a copy of the cached one).
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
build="$repo/thirdparty/build.sh"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
failures=0
check() {  # check DESCRIPTION COMMAND...: one line per check, counted
  if "${@:2}"; then echo "ok: $1"; else echo "FAILED: $1"; failures=$((failures + 1)); fi
}

# Bad input: exit 2, one line on stderr naming the input.
set +e
"$build" nosuchengine >"$scratch/out" 2>"$scratch/err"; rc=$?
set -e
check "an unknown engine exits 2" test "$rc" -eq 2
check "... with one line" test "$(wc -l <"$scratch/err")" -eq 1
check "... naming it" grep -q "unknown engine 'nosuchengine'" "$scratch/err"
set +e
"$build" --bogus sqlite 2>"$scratch/err"; rc=$?
"$build" 2>"$scratch/err2"; rc2=$?
set -e
check "an unknown option exits 2 naming it" test "$rc" -eq 2 -a "$(grep -c "unknown option '--bogus'" "$scratch/err")" -eq 1
check "no engine exits 2" test "$rc2" -eq 2 -a "$(wc -l <"$scratch/err2")" -eq 1

# Reuse: the entry of the default cache, copied, is used as it is (nothing is built).
entry="$("$build" --print-prefix sqlite | sed -n 's/^sqlite=//p')"
wt="$("$build" --print-prefix wiredtiger | sed -n 's/^wiredtiger=//p')"
mkdir -p "$scratch/cache/thirdparty"
cp -a "$entry" "$scratch/cache/thirdparty/"
copy="$scratch/cache/thirdparty/$(basename "$entry")"
export DBXB_CACHE_DIR="$scratch/cache"
"$build" --print-prefix sqlite >"$scratch/out" 2>"$scratch/err"
check "a complete entry is reused" test "$(cat "$scratch/out")" = "sqlite=$copy"
check "... without building" test ! -s "$scratch/err"
check "... and it holds what BUILD-INFO says" grep -q "^version=3\.54\." "$copy/BUILD-INFO"

# A damaged entry is named and rebuilt.
printf 'x' >>"$copy/lib/libsqlite3.a"
"$build" --print-prefix sqlite >"$scratch/out" 2>"$scratch/err"
check "a damaged entry is named" grep -q "incomplete or damaged" "$scratch/err"
check "... rebuilt in place" test "$(cat "$scratch/out")" = "sqlite=$copy"
check "... and whole again" bash -c "cd '$copy' && sha256sum --quiet --check MANIFEST"
rm "$copy/MANIFEST"
"$build" sqlite >/dev/null 2>"$scratch/err"
check "an entry without its MANIFEST is rebuilt too" grep -q "incomplete or damaged" "$scratch/err"

# WiredTiger's entry (of the default cache) is 11.3.1 as its BUILD-INFO and its header say.
check "the wiredtiger entry is WiredTiger 11.3.1 from PyPI's sdist" \
  grep -q "^source=PyPI wiredtiger 11\.3\.1 (sdist" "$wt/BUILD-INFO"
check "... released 2024-11-13" grep -q "^release_date=2024-11-13$" "$wt/BUILD-INFO"
check "... and its wiredtiger.h is 11.3" \
  bash -c "grep -Eq 'WIREDTIGER_VERSION_MAJOR[[:space:]]+11$' '$wt/include/wiredtiger.h' &&
           grep -Eq 'WIREDTIGER_VERSION_MINOR[[:space:]]+3$' '$wt/include/wiredtiger.h'"

# Its source archive is used only with the pinned sha256: a good copy is unpacked without a download, a
# damaged one is fetched again (here pip cannot reach an index, so the recipe stops) and never unpacked.
wt_source() {  # wt_source CACHE_ROOT: runs the recipe's recipe_source offline
  (
    cache_root="$1"
    die() { echo "thirdparty: error: $*" >&2; exit 1; }
    # shellcheck source=/dev/null
    source "$repo/thirdparty/wiredtiger.sh"
    PIP_NO_INDEX=1 PIP_FIND_LINKS="$scratch/nolinks" recipe_source
  )
}
mkdir -p "$scratch/wt/sources" "$scratch/nolinks"
cp "$(dirname "$wt")/sources/wiredtiger-11.3.1.tar.gz" "$scratch/wt/sources/"
set +e
wt_source "$scratch/wt" >"$scratch/out" 2>"$scratch/err"
set -e
check "a pinned archive is unpacked without a download" test "$(cat "$scratch/out")" = "$scratch/wt/sources/wiredtiger-11.3.1"
check "... into WiredTiger 11.3.1's tree" \
  grep -q 'WiredTiger 11\.3\.1: ' "$scratch/wt/sources/wiredtiger-11.3.1/cmake/configs/version.cmake"
rm -rf "$scratch/wt/sources/wiredtiger-11.3.1"
printf 'x' >>"$scratch/wt/sources/wiredtiger-11.3.1.tar.gz"
set +e
wt_source "$scratch/wt" >"$scratch/out" 2>"$scratch/err"; rc=$?
set -e
check "a damaged archive is not used: its fetch fails here and the recipe stops" test "$rc" -ne 0
check "... saying so" grep -q "pip download wiredtiger==11.3.1 failed" "$scratch/err"
check "... without unpacking anything" test ! -e "$scratch/wt/sources/wiredtiger-11.3.1"

echo "$((20 - failures)) passed, $failures failed"
((failures == 0))
