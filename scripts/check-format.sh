#!/usr/bin/env bash
# Checks that the C++ sources are formatted as .clang-format says (Google style, 120 columns), with
# Debian's clang-format (scripts/install-deps.sh installs it). scripts/test.sh runs it before building.
#
# Usage: scripts/check-format.sh                  every tracked .h/.cc file; exit 1 naming each file that
#                                                 clang-format would change, with the first lines of the diff
#        scripts/check-format.sh --changed BASE   only the lines changed since the git revision BASE
#                                                 (e.g. origin/main): what a pull request must get right
#        scripts/check-format.sh --fix [BASE]     format in place (every file, or the lines changed since BASE)
set -euo pipefail
cd "$(dirname "$0")/.."

CLANG_FORMAT="${CLANG_FORMAT:-clang-format}"
command -v "$CLANG_FORMAT" >/dev/null || { echo "check-format: $CLANG_FORMAT not found (scripts/install-deps.sh installs it)" >&2; exit 2; }

mode=all base=""
case "${1:-}" in
  "") ;;
  --changed) mode=changed; base="${2:?check-format: --changed needs a git revision}" ;;
  --fix) mode=fix; base="${2:-}" ;;
  -h|--help) sed -n '2,9p' "$0"; exit 0 ;;
  *) echo "check-format: unknown argument '$1' (see --help)" >&2; exit 2 ;;
esac
if [[ -n "$base" ]] && ! git rev-parse --verify --quiet "$base^{commit}" >/dev/null; then
  echo "check-format: '$base' is not a git revision" >&2
  exit 2
fi

mapfile -t files < <(git ls-files -- '*.h' '*.cc')

if [[ "$mode" == fix ]]; then
  if [[ -n "$base" ]]; then
    git clang-format --binary "$CLANG_FORMAT" --force "$base" -- "${files[@]}" || true
  else
    "$CLANG_FORMAT" -i "${files[@]}"
  fi
  exit 0
fi

if [[ "$mode" == changed ]]; then
  out=$(git clang-format --binary "$CLANG_FORMAT" --diff "$base" -- "${files[@]}" || true)
  if [[ -z "$out" || "$out" == *"no modified files to format"* || "$out" == *"did not modify any files"* ]]; then
    echo "check-format: the lines changed since $base are formatted"
    exit 0
  fi
  echo "check-format: lines changed since $base are not formatted (fix: scripts/check-format.sh --fix $base):" >&2
  printf '%s\n' "$out" | head -n 40 >&2
  exit 1
fi

log=$(mktemp)
trap 'rm -f "$log"' EXIT
if "$CLANG_FORMAT" --style=file --dry-run --Werror "${files[@]}" 2>"$log"; then
  echo "check-format: ${#files[@]} files formatted"
  exit 0
fi
mapfile -t bad < <(sed -nE 's/^([^:]+):[0-9]+:[0-9]+: error: .*/\1/p' "$log" | sort -u)
for f in "${bad[@]}"; do echo "check-format: $f is not formatted" >&2; done
sed -n '1,12p' "$log" >&2
echo "check-format: ${#bad[@]} of ${#files[@]} files not formatted (fix: scripts/check-format.sh --fix)" >&2
exit 1
