#!/bin/sh
# emu-bench.sh: speed of the PTX emulator and size of its traces.
#
# Runs CUDA examples under `warpscope-cli profile --json --summary`, once
# without a trace and once with `-o TRACE`, and prints per case:
#   thread- and warp-instructions per second without and with tracing, and
#   trace bytes per warp instruction (trace size on disk / warp instructions).
# Rates use the summary's "seconds" (the emulated kernels' time as the
# runtime reports it); the last column uses "wall_seconds" (the whole
# program, host work included) of the traced run.  Cases: compute bound (saxpy2, computeIntensity 256), memory
# bound (saxpy2 with computeIntensity 1, vectoradd), divergent (bfs, spmv).
#
# Usage: bench/emu-bench.sh BUILD_DIR [--quick] [--repeat N] [--gpu NAME]
#   --quick     smaller problem sizes (a few seconds in all)
#   --repeat N  run each configuration N times and keep the fastest (default 1)
# Or: meson compile -C BUILD_DIR emu-bench
set -eu

usage() {
  echo "usage: $0 BUILD_DIR [--quick] [--repeat N] [--gpu NAME]" >&2
  exit 2
}

[ $# -ge 1 ] || usage
build=$1
shift
quick=0
repeat=1
gpu=
while [ $# -gt 0 ]; do
  case $1 in
  --quick) quick=1 ;;
  --repeat) [ $# -ge 2 ] || usage; repeat=$2; shift ;;
  --gpu) [ $# -ge 2 ] || usage; gpu=$2; shift ;;
  *) usage ;;
  esac
  shift
done

cli=$build/app/cli/warpscope-cli
ex=$build/examples
if [ ! -x "$cli" ]; then
  echo "emu-bench: $cli not found: build warpscope-cli first (ninja -C $build)" >&2
  exit 1
fi
if [ ! -x "$ex/saxpy2" ]; then
  echo "emu-bench: $ex/saxpy2 not found: the examples need nvcc at configure time" >&2
  exit 1
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/ws-emu-bench-XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM

# name | class | program | arguments
if [ $quick -eq 1 ]; then
  cases="saxpy2-a256|compute|saxpy2|65536 256
saxpy2-a1|memory|saxpy2|262144 1
vectoradd|memory|vectoradd|524288 128
bfs|divergent|bfs|20000 96
spmv|divergent|spmv|2048 2048 5"
else
  cases="saxpy2-a256|compute|saxpy2|262144 256
saxpy2-a1|memory|saxpy2|2097152 1
vectoradd|memory|vectoradd|2097152 128
bfs|divergent|bfs|30000 96
spmv|divergent|spmv|8192 8192 10"
fi

# json_num FILE KEY: the number after "KEY": in the summary.
json_num() {
  sed -n 's/.*"'"$2"'"[[:space:]]*:[[:space:]]*\([-0-9.eE+]*\).*/\1/p' "$1" | head -n 1
}

# run NAME TRACE(0|1) PROGRAM ARGS...: prints "warp thread seconds bytes" of
# the fastest of $repeat runs (plus the wall seconds).
run() {
  name=$1
  with_trace=$2
  prog=$3
  shift 3
  best=
  i=0
  while [ $i -lt "$repeat" ]; do
    i=$((i + 1))
    summary=$tmp/$name-$with_trace.json
    trace=$tmp/$name.trace
    rm -rf "$trace" "$summary"
    if [ "$with_trace" -eq 1 ]; then
      topt="-o $trace"
    else
      topt=
    fi
    gopt=
    [ -n "$gpu" ] && gopt="--gpu $gpu"
    # shellcheck disable=SC2086 # options are split on purpose
    if ! "$cli" --db "$tmp/warpscope.db" profile $topt $gopt --json --summary "$summary" \
      -- "$ex/$prog" "$@" \
      >"$tmp/$name.out" 2>"$tmp/$name.err"; then
      echo "emu-bench: $name failed (trace=$with_trace):" >&2
      tail -n 5 "$tmp/$name.out" "$tmp/$name.err" >&2
      echo "FAIL"
      return 0
    fi
    if ! grep -q '^PASSED' "$tmp/$name.out"; then
      echo "emu-bench: $name did not print PASSED:" >&2
      tail -n 5 "$tmp/$name.out" >&2
      echo "FAIL"
      return 0
    fi
    warp=$(json_num "$summary" warp_instructions)
    thread=$(json_num "$summary" thread_instructions)
    secs=$(json_num "$summary" seconds)
    wall=$(json_num "$summary" wall_seconds)
    bytes=0
    if [ "$with_trace" -eq 1 ]; then
      bytes=$(du -sb "$trace" | cut -f1)
    fi
    if [ -z "$best" ] || awk -v a="$secs" -v b="$(echo "$best" | cut -d' ' -f3)" 'BEGIN { exit !(a < b) }'; then
      best="$warp $thread $secs $bytes $wall"
    fi
  done
  echo "$best"
}

printf '%-12s %-9s %14s %14s %9s %9s %9s %9s %9s %9s %9s\n' \
  case class warp_insts thread_insts \
  "Mthr/s" "Mwarp/s" "Mthr/s" "Mwarp/s" "B/winst" "trace_MB" "Mwarp/s"
printf '%-12s %-9s %14s %14s %19s %19s %19s %9s\n' "" "" "" "" "--- no trace ---" "--- with trace ---" "---- trace ----" "wall,trace"
raw=$tmp/raw
: >"$raw"
echo "$cases" | while IFS='|' read -r name class prog args; do
  # shellcheck disable=SC2086 # arguments are split on purpose
  plain=$(run "$name" 0 "$prog" $args)
  # shellcheck disable=SC2086
  traced=$(run "$name" 1 "$prog" $args)
  if [ "$plain" = FAIL ] || [ "$traced" = FAIL ]; then
    printf '%-12s %-9s %s\n' "$name" "$class" "failed (see messages above)"
    continue
  fi
  echo "$plain $traced" >>"$raw"
  echo "$plain $traced" | awk -v n="$name" -v c="$class" '{
    w = $1; t = $2; s = $3; ws = $6; ts = $7; tsec = $8; b = $9; twall = $10;
    printf "%-12s %-9s %14d %14d %9.1f %9.2f %9.1f %9.2f %9.3f %9.2f %9.2f\n", n, c, w, t,
      (s > 0 ? t / s / 1e6 : 0), (s > 0 ? w / s / 1e6 : 0),
      (tsec > 0 ? ts / tsec / 1e6 : 0), (tsec > 0 ? ws / tsec / 1e6 : 0),
      (ws > 0 ? b / ws : 0), b / 1e6, (twall > 0 ? ws / twall / 1e6 : 0) }'
done
awk '{ b += $9; w += $6; if ($6 > 0) { r += $9 / $6; n++ } }
  END { if (n > 0) printf "\ntrace bytes per warp instruction: %.3f overall, %.3f mean of cases\n", b / w, r / n }' "$raw"
echo
echo "Mthr/s, Mwarp/s: millions of thread / warp instructions per second of"
echo "emulated kernel time (summary \"seconds\"); the last column per second of the"
echo "whole traced run (\"wall_seconds\"); B/winst: trace bytes per warp instruction."
echo "Targets (issue 3): >= 300 Mthr/s compute bound without trace; >= 5 Mwarp/s"
echo "with trace; <= 4 B/winst on average."
