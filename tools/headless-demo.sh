#!/usr/bin/env bash
# The Warpscope demo without a display (./run.sh runs it when there is none).
#
#   tools/headless-demo.sh BUILD_DIR
#
# Creates a fresh demo workspace (BUILD_DIR/demo/demo.db: seed 004's three
# test beds and the saxpy2 application models), profiles examples/saxpy2 on
# the emulator when the example was built (else the trace shipped in
# db/workspace/ is used), evaluates saxpy2-analytic (seed 004 Listing 5) once
# and as a 20-point sweep over N on testbed-gtx970, runs the profiled saxpy2
# on all three test beds, sweeps N for saxpy2-profiled (its kernel profiled
# on demand) with every kernel-time source, and writes
# BUILD_DIR/demo/report.txt (plus the sweeps as CSV and JSON, the single run
# as JSON, and PNG/SVG plots: the sweeps, a timeline, the CPI stacks and the
# TBPoint view of saxpy2 at N = 262144, when the CLI has `plot`).
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD="${1:-build}"
CLI="$BUILD/app/cli/warpscope-cli"
if [ ! -x "$CLI" ]; then
  echo "headless-demo: $CLI does not exist; build first (meson setup $BUILD && ninja -C $BUILD)" >&2
  exit 1
fi
OUT="$BUILD/demo"
mkdir -p "$OUT"
DB="$OUT/demo.db"
rm -f "$DB" "$DB-wal" "$DB-shm"
rm -rf "$OUT/warpscope-traces"
REPORT="$OUT/report.txt"
ws() { "$CLI" --db "$DB" "$@"; }

# The real profile of examples/saxpy2.cu (N = 16384, computeIntensity 16,
# blockSize 256: the example's defaults, which the saxpy2 model assumes).
TRACE="$OUT/saxpy2.wstrace"
TRACE_NOTE=""
rm -f "$TRACE"
if [ -x "$BUILD/examples/saxpy2" ] && ws --quiet profile -o "$TRACE" -- "$BUILD/examples/saxpy2" > "$OUT/profile.log" 2>&1; then
  TRACE_NOTE="profiled $BUILD/examples/saxpy2 on the emulator into $TRACE"
elif [ -f db/workspace/saxpy2.wstrace ]; then
  rm -f "$TRACE"
  cp db/workspace/saxpy2.wstrace "$TRACE"
  TRACE_NOTE="examples/saxpy2 was not built or could not be profiled (see $OUT/profile.log); used the trace shipped in db/workspace/saxpy2.wstrace"
fi
export WARPSCOPE_DEMO_TRACE="$TRACE"

SWEEP="N=1048576:20971520:1048576"
{
  echo "Warpscope headless demo — system and application modelling (seed 004)"
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)   build: $BUILD   database: $DB"
  echo
  echo "== Workspace"
  ws model list
  echo
  echo "saxpy2 trace: ${TRACE_NOTE:-none available; the saxpy2 model is added once a trace exists}"
  echo
  echo "== saxpy2-analytic on testbed-gtx970 (seed 004 Listing 5, N = 1048576, computeIntensity = 16, blockSize = 256)"
  ws model run --system testbed-gtx970 --app saxpy2-analytic
  echo
  echo "== 20-point sweep over N ($SWEEP) on testbed-gtx970"
} > "$REPORT" 2>&1

start=$(date +%s.%N)
ws model run --system testbed-gtx970 --app saxpy2-analytic --sweep "$SWEEP" >> "$REPORT" 2>&1
end=$(date +%s.%N)
ws --json model run --system testbed-gtx970 --app saxpy2-analytic --no-store > "$OUT/saxpy2-analytic-run.json"
# The sweep as CSV (N, total, kernels, transfers) for plotting.
{
  echo "N,total_seconds,kernel_seconds,transfer_seconds"
  ws model run --system testbed-gtx970 --app saxpy2-analytic --sweep "$SWEEP" --no-store \
    | awk 'NR > 1 { printf "%s,%s,%s,%s\n", $1, $2, $3, $4 }'
} > "$OUT/sweep-N.csv"

{
  echo "sweep wall time (CLI process, evaluation + storing 20 runs): $(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.3f s", b - a }')"
  echo
  if ws model list | grep -qx '  saxpy2'; then
    echo "== saxpy2 (profiled kernel, seed 004 Listing 6) on the three test beds"
    for s in testbed-gtx970 testbed-titanx testbed-gtx1070; do
      echo "-- $s"
      ws model run --system "$s" --app saxpy2 | grep -E "^(CPU|Overall)"
    done
    echo "-- testbed-gtx970, kernel time from the detailed simulator (--predictor simulator)"
    ws model run --system testbed-gtx970 --app saxpy2 --predictor simulator | grep -E "^(CPU|Overall)" \
      || echo "(the detailed simulator could not run this trace)"
  else
    echo "saxpy2 (profiled): no trace of examples/saxpy2 is available, so it was not evaluated."
  fi
  echo
  if ws model list | grep -qx '  saxpy2-profiled'; then
    echo "== saxpy2-profiled (kernel profiled on demand: examples/saxpy2 N computeIntensity blockSize) on testbed-gtx970"
    echo "-- sweep over N, kernel times from the detailed simulator (each N profiled once, traces reused by later runs)"
    ws model run --system testbed-gtx970 --app saxpy2-profiled --sweep N=4096,16384,65536,262144 \
      --predictor simulator --no-store || echo "(saxpy2-profiled could not be evaluated)"
    echo
  fi
  if ws model list | grep -qx '  saxpy2-profiled' && "$CLI" plot --help > /dev/null 2>&1; then
    # Issue 9's walk-through on the command line: every kernel-time source in
    # one plot, the CPI stacks of one configuration, and the TBPoint view.
    PSWEEP="N=65536,131072,262144,524288"
    inputs=()
    for p in volkov gpumech ake simulator simulator-tbpoint; do
      if ws --json model run --system testbed-gtx970 --app saxpy2-profiled --sweep "$PSWEEP" --predictor "$p" \
           --no-store > "$OUT/saxpy2-profiled-$p.json" 2>> "$OUT/profile.log"; then
        inputs+=(-i "$OUT/saxpy2-profiled-$p.json")
      else
        echo "saxpy2-profiled with $p failed (see $OUT/profile.log)"
      fi
    done
    if [ ${#inputs[@]} -gt 0 ] && ws plot line "${inputs[@]}" --x N -o "$OUT/saxpy2-profiled-sources.png" \
         --title "saxpy2-profiled on testbed-gtx970: every kernel-time source" --x-title "N (elements)"; then
      echo "Plot: $OUT/saxpy2-profiled-sources.png (total time against N, one series per source)"
    fi
    T262="$OUT/saxpy2-N262144.wstrace"
    if ws --quiet profile -o "$T262" -- "$BUILD/examples/saxpy2" 262144 >> "$OUT/profile.log" 2>&1; then
      ws --json predict --trace "$T262" --gpu "GTX 970" --model all > "$OUT/saxpy2-N262144-predict.json" \
        && ws plot stacked -i "$OUT/saxpy2-N262144-predict.json" -o "$OUT/saxpy2-N262144-cpi.png" \
             --title "CPI stacks of saxpy2 (N = 262144) on the GTX 970" \
        && echo "Plot: $OUT/saxpy2-N262144-cpi.png (CPI stack per predictor)"
      ws tbpoint view --trace "$T262" --gpu "GTX 970" -o "$OUT/saxpy2-N262144-tbpoint.json" \
        --plot "$OUT/saxpy2-N262144-tbpoint.png" \
        && echo "Plot: $OUT/saxpy2-N262144-tbpoint.png (TBPoint view: regions, simulated and skipped TBs)"
    fi
    echo
  fi
  echo "Files: $REPORT, $OUT/sweep-N.csv, $OUT/saxpy2-analytic-run.json"
  if "$CLI" plot --help > /dev/null 2>&1; then
    ws --json model run --system testbed-gtx970 --app saxpy2-analytic --sweep "$SWEEP" --no-store > "$OUT/sweep-N.json"
    for fmt in png svg; do
      ws plot line -i "$OUT/sweep-N.json" --x N -o "$OUT/sweep-N.$fmt" \
        --title "saxpy2-analytic on testbed-gtx970 (seed 004 Listing 5)" --x-title "N (elements)" --y-title "time" \
        && echo "Plot: $OUT/sweep-N.$fmt (overall time against N)" || echo "Plot of the sweep failed"
      ws plot gantt -i "$OUT/saxpy2-analytic-run.json" -o "$OUT/timeline.$fmt" \
        --title "saxpy2-analytic, N = 1048576: operations per component" \
        && echo "Plot: $OUT/timeline.$fmt (timeline of one run)" || echo "Plot of the timeline failed"
    done
  else
    echo "Plots: this build has no 'warpscope-cli plot' command; $OUT/sweep-N.csv holds the data."
  fi
} >> "$REPORT" 2>&1

cat "$REPORT"
