#!/usr/bin/env bash
# Builds third-party engines at their current release from registry sources, each with the engine's own
# release build (thirdparty/<engine>.sh), into a cache outside the clone:
#
#   ${DBXB_CACHE_DIR:-${XDG_CACHE_HOME:-~/.cache}/dbx-bench}/thirdparty/<engine>-<version>-<key>/
#
# <key> hashes the recipe file, the compilers' versions and what -march=native means on this
# CPU, so a second clone reuses an entry and a changed version, flag or compiler builds a new one. An
# entry holds include/, lib/, maybe bin/, BUILD-INFO (the provenance dbx-bench reports) and MANIFEST (the
# sha256 of every other file). It is built in a scratch directory and renamed into place only when
# complete, so a half-built library is never used; an entry whose MANIFEST no longer matches is rebuilt.
# Builds run at nice 10 with one progress line a minute on stderr.
#
# Usage: thirdparty/build.sh [--print-prefix] ENGINE...     ENGINE: sqlite | rocksdb | rocksdb-tools | lmdb | wiredtiger
#   --print-prefix  prints ENGINE=PREFIX per engine on stdout (what cmake/thirdparty.cmake reads)
# Exit: 0 built or reused; 2 an unknown engine or a missing tool (one line on stderr); 1 a failed build.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cache_root="${DBXB_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/dbx-bench}/thirdparty"
jobs="${DBXB_THIRDPARTY_JOBS:-$(nproc)}"

log() { echo "thirdparty: $*" >&2; }
bad_input() { echo "thirdparty: $*" >&2; exit 2; }
die() { echo "thirdparty: error: $*" >&2; exit 1; }

print_prefix=0
engines=()
for arg in "$@"; do
  case "$arg" in
    --print-prefix) print_prefix=1 ;;
    -*) bad_input "unknown option '$arg' (usage: thirdparty/build.sh [--print-prefix] ENGINE...)" ;;
    *) engines+=("$arg") ;;
  esac
done
((${#engines[@]} > 0)) || bad_input "no engine named (usage: thirdparty/build.sh [--print-prefix] ENGINE...)"
for e in "${engines[@]}"; do
  [[ "$e" =~ ^[a-z0-9-]+$ && -f "$here/$e.sh" ]] ||
    bad_input "unknown engine '$e' (there is no recipe thirdparty/$e.sh; known: $(cd "$here" && ls ./*.sh | sed -e 's|^\./||' -e 's|\.sh$||' | grep -v '^build$' | tr '\n' ' '))"
done

find_cargo() {
  local c
  for c in cargo "${CARGO_HOME:-$HOME/.cargo}/bin/cargo"; do
    if command -v "$c" >/dev/null 2>&1; then command -v "$c"; return 0; fi
  done
  bad_input "cargo was not found; it fetches the engines' release sources from crates.io (install rustup's cargo)"
}

# The unpacked source directory of a crate pinned by thirdparty/Cargo.lock (fetched on first use).
crate_source() {
  local crate="$1" cargo
  cargo="$(find_cargo)"
  "$cargo" fetch --locked --quiet --manifest-path "$here/Cargo.toml" >&2 ||
    die "cargo fetch of thirdparty/Cargo.toml failed"
  "$cargo" metadata --locked --offline --format-version 1 --manifest-path "$here/Cargo.toml" 2>/dev/null |
    python3 -c '
import json, os, sys
for p in json.load(sys.stdin)["packages"]:
    if p["name"] == sys.argv[1]:
        print(os.path.dirname(p["manifest_path"]))
        break
else:
    sys.exit("no package " + sys.argv[1] + " in thirdparty/Cargo.lock")' "$crate"
}

# What identifies a build besides the recipe: the compilers and the CPU that -march=native resolves to.
toolchain_facts() {
  cc --version | head -n1
  c++ --version | head -n1
  cmake --version | head -n1
  cc -march=native -Q --help=target 2>/dev/null | grep -E '^\s+-march=|^\s+-mtune=' || true
}

entry_key() {
  # rocksdb-tools.sh sources rocksdb.sh: its key covers both
  { cat "$here/$1.sh"; [[ "$1" != rocksdb-tools ]] || cat "$here/rocksdb.sh"; toolchain_facts; } | sha256sum | cut -c1-12
}

entry_ok() {
  [[ -f "$1/BUILD-INFO" && -f "$1/MANIFEST" ]] && (cd "$1" && sha256sum --quiet --check MANIFEST >/dev/null 2>&1)
}

# Runs the recipe's build at nice 10 in the background and prints a line a minute until it ends.
build_with_progress() {
  local name="$1" logfile="$2"
  shift 2
  local start=$SECONDS
  (
    set -e
    renice -n 10 "$BASHPID" >/dev/null
    "$@"
  ) >"$logfile" 2>&1 &
  local pid=$! next=$((SECONDS + 60))
  while kill -0 "$pid" 2>/dev/null; do
    sleep 2
    if ((SECONDS >= next)); then
      log "$name: still building ($(((SECONDS - start) / 60)) min; $(grep -c '^\[' "$logfile" 2>/dev/null || echo 0) steps; log $logfile)"
      next=$((next + 60))
    fi
  done
  if ! wait "$pid"; then
    tail -n 30 "$logfile" >&2
    die "$name: the build failed after $((SECONDS - start)) s (full log: $logfile)"
  fi
  log "$name: built in $((SECONDS - start)) s"
}

build_engine() {
  local engine="$1"
  # Each recipe defines VERSION, CRATE, SOURCE_SUBDIR and recipe_build SRC WORK PREFIX JOBS, and may
  # add lines to BUILD-INFO through recipe_info.
  # A recipe whose source is not a crate defines recipe_source (it prints the source directory) and
  # SOURCE_NAME instead of CRATE.
  unset -f recipe_build recipe_info recipe_source
  unset CRATE SOURCE_NAME
  # shellcheck source=/dev/null
  source "$here/$engine.sh"
  local key prefix
  key="$(entry_key "$engine")"
  prefix="$cache_root/$engine-$VERSION-$key"
  mkdir -p "$cache_root"
  exec {lock}>"$cache_root/.$engine.lock"
  flock "$lock"  # another clone building the same engine: wait for it, then reuse its entry
  if [[ -d "$prefix" ]]; then
    if entry_ok "$prefix"; then
      flock -u "$lock"
      echo "$prefix"
      return 0
    fi
    log "$engine: the cached build $prefix is incomplete or damaged (MANIFEST does not match); rebuilding"
    rm -rf "$prefix"
  fi
  local src source_name
  if declare -F recipe_source >/dev/null; then
    src="$(recipe_source)"
    source_name="$SOURCE_NAME"
  else
    src="$(crate_source "$CRATE")"
    source_name="crates.io $CRATE $(basename "$src" | sed "s/^$CRATE-//")"
  fi
  [[ -d "$src/$SOURCE_SUBDIR" ]] || die "$engine: $src has no $SOURCE_SUBDIR"
  local scratch="$cache_root/.build-$engine-$key"
  rm -rf "$scratch"
  mkdir -p "$scratch/work" "$scratch/prefix"
  log "$engine $VERSION: building from $source_name ($src) with $jobs jobs into $prefix"
  build_with_progress "$engine" "$scratch/build.log" \
    recipe_build "$src/$SOURCE_SUBDIR" "$scratch/work" "$scratch/prefix" "$jobs"
  {
    echo "engine=$engine"
    echo "version=$VERSION"
    echo "source=$source_name"
    echo "key=$key"
    echo "built=$(date -u +%Y-%m-%dT%H:%M:%SZ)"
    echo "compiler=$(c++ --version | head -n1)"
    recipe_info
  } >"$scratch/prefix/BUILD-INFO"
  (cd "$scratch/prefix" && find . -type f ! -name MANIFEST -print0 | sort -z | xargs -0 sha256sum >MANIFEST)
  mv "$scratch/prefix" "$prefix"
  rm -rf "$scratch"
  flock -u "$lock"
  echo "$prefix"
}

for e in "${engines[@]}"; do
  p="$(build_engine "$e")"
  if ((print_prefix)); then echo "$e=$p"; fi
done
