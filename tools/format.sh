#!/usr/bin/env bash
# format.sh: Warpscope's one C style (.clang-format at the top of the tree).
#
#   tools/format.sh            reformat every tracked .c and .h file in place
#   tools/format.sh --check    list the files that differ from the style;
#                              exit 1 if any does (tests/tools/format-check)
#   tools/format.sh FILE...    reformat only these files
#
# Needs clang-format (Debian package clang-format, version 14 on Debian 12;
# other versions may wrap a few lines differently).  The CUDA programs
# (*.cu) keep the style of their sources and are not formatted.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v clang-format >/dev/null 2>&1 || { echo "format.sh: clang-format not found (apt-get install clang-format)" >&2; exit 2; }
check=0
if [ "${1:-}" = "--check" ]; then
  check=1
  shift
fi
if [ $# -gt 0 ]; then
  files=("$@")
else
  if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    mapfile -t files < <(git ls-files '*.c' '*.h')
  else   # a source tree without its git history
    mapfile -t files < <(find app bench core plugins tests tools examples -name '*.c' -o -name '*.h' 2>/dev/null | sort)
  fi
fi
bad=0
for f in "${files[@]}"; do
  if [ $check = 1 ]; then
    if ! clang-format --style=file "$f" | cmp -s - "$f"; then
      echo "not formatted: $f (tools/format.sh $f)"
      bad=$((bad + 1))
    fi
  else
    clang-format --style=file -i "$f"
  fi
done
if [ $check = 1 ]; then
  echo "format.sh: ${#files[@]} files checked, $bad not formatted"
  [ $bad = 0 ]
fi
