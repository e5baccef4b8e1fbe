#!/bin/sh
# instrument-bench.sh: emulation overhead of instrumentation handlers
# (docs/instrumentation.md, "Overhead").
#
# Runs two examples under `warpscope-cli profile --summary` with no
# handler, with an empty C handler called before every instruction
# (bench/empty-handler.c, built here with pkg-config against the build
# tree), with each built-in tool, and with the opcode histogram of
# examples/instrument-handler; prints the emulated kernels' seconds (the
# summary's "seconds"; fastest of --repeat runs) and the slowdown against
# no handler.  One emulator thread, so the numbers do not depend on the
# machine's load from other cores.
#   compute bound: saxpy2 N=524288 computeIntensity=64
#   memory bound:  saxpy2 N=8388608 computeIntensity=1
#
# Usage: bench/instrument-bench.sh BUILD_DIR [--quick] [--repeat N]
# Or: meson compile -C BUILD_DIR instrument-bench
set -eu

[ $# -ge 1 ] || { echo "usage: $0 BUILD_DIR [--quick] [--repeat N]" >&2; exit 2; }
build=$(cd "$1" && pwd)
shift
quick=0
repeat=3
while [ $# -gt 0 ]; do
  case $1 in
    --quick) quick=1 ;;
    --repeat) repeat=$2; shift ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
  shift
done
src=$(cd "$(dirname "$0")/.." && pwd)
cli=$build/app/cli/warpscope-cli
saxpy2=$build/examples/saxpy2
[ -x "$cli" ] && [ -x "$saxpy2" ] || { echo "build $build first (warpscope-cli and examples/saxpy2, needs nvcc)" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT INT TERM
export PKG_CONFIG_PATH=$build/core/instrument
cc -O2 -shared -fPIC -o "$work/empty.so" "$src/bench/empty-handler.c" $(pkg-config --cflags warpscope-instrument)
cc -O2 -shared -fPIC -o "$work/opcode-histogram.so" "$src/examples/instrument-handler/opcode-histogram.c" \
  $(pkg-config --cflags warpscope-instrument) -lpthread

if [ $quick = 1 ]; then
  compute="16384 64 256"; memory="262144 1 256"
else
  compute="524288 64 256"; memory="8388608 1 256"
fi

# best SECONDS of $repeat runs: run TOOLARGS... -- ARGS
best() {
  b=
  i=0
  while [ $i -lt "$repeat" ]; do
    rm -f "$work/s.json"
    (cd "$work" && "$cli" --db "$work/db.sqlite" --quiet profile --threads 1 --summary "$work/s.json" "$@" \
       >/dev/null 2>"$work/err") || { cat "$work/err" >&2; exit 1; }
    s=$(sed -n 's/.*"seconds" *: *\([0-9.eE+-]*\).*/\1/p' "$work/s.json" | head -1)
    b=$(awk -v a="$s" -v b="$b" 'BEGIN { if (b == "" || a < b) print a; else print b }')
    i=$((i + 1))
  done
  echo "$b"
}

printf '%-28s %-14s %12s %10s\n' "handler" "case" "seconds" "slowdown"
for case in compute memory; do
  eval args=\$$case
  base=$(best -- $saxpy2 $args)
  printf '%-28s %-14s %12.4f %10s\n' "none" "$case" "$base" "1.00x"
  for tool in "$work/empty.so" branch memdiv value faults-profile "$work/opcode-histogram.so"; do
    t=$(best --tool "$tool" -- $saxpy2 $args)
    name=$(basename "$tool" .so)
    [ "$name" = empty ] && name="empty C handler (ALL)"
    printf '%-28s %-14s %12.4f %9.2fx\n' "$name" "$case" "$t" "$(awk -v a="$t" -v b="$base" 'BEGIN { print a / b }')"
  done
done
