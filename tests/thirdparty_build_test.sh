#!/usr/bin/env bash
# thirdparty/build.sh against its contract, in a cache of its own: bad input is one line and exit 2; a
# complete entry is reused as it is; a damaged entry is named and rebuilt, never used; the printed prefix
# holds what BUILD-INFO says. Seeds the cache with the SQLite entry the configure step built (a copy),
# so only the rebuild compiles (about 35 s).
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

echo "$((12 - failures)) passed, $failures failed"
((failures == 0))
