#!/bin/sh
# sim-validate.sh: the detailed simulator as the reference, over the example
# programs' traces (docs/simulator.md has the tables).
#
#  1. TBPoint and random sampling (10 %) against full simulation, seed 000
#     Fig. 9/10: `warpscope-cli tbpoint validate`.
#  2. GPUMech's CPI error against full simulation for RR and GTO
#     (seed 001 §4.6): the gpumech plugin's predicted cycles against the
#     simulator's, per program (sum over launches; both count the same warp
#     instructions, so the cycle error is the CPI error).
#
# Usage: bench/sim-validate.sh BUILD_DIR [--gpu NAME] [--traces DIR]
#   --gpu NAME    TBPoint part on NAME (default "TBPoint Fermi"); the GPUMech
#                 part always uses "GPUMech baseline" (seed 001 Table 7)
#   --traces DIR  reuse DIR/*.wstrace instead of profiling the examples
#   --large       profile the examples with larger inputs (about 16x the
#                 default work and many more thread blocks per launch):
#                 intra-launch sampling needs launches of many waves, which
#                 the defaults, sized for the test suite, do not have
# Traces are recorded with `warpscope-cli profile` from BUILD_DIR/examples.
# Needs jq.  Prints Markdown.
set -eu

[ $# -ge 1 ] || { echo "usage: $0 BUILD_DIR [--gpu NAME] [--traces DIR]" >&2; exit 2; }
build=$(cd "$1" && pwd)
shift
gpu="TBPoint Fermi"
traces=
large=0
while [ $# -gt 0 ]; do
  case $1 in
    --gpu) gpu=$2; shift 2 ;;
    --traces) traces=$2; shift 2 ;;
    --large) large=1; shift ;;
    *) echo "$0: unknown option $1" >&2; exit 2 ;;
  esac
done
cli=$build/app/cli/warpscope-cli
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
db=$work/store.db
if [ -z "$traces" ]; then
  traces=$work/traces
  mkdir -p "$traces"
  for p in "$build"/examples/*; do
    [ -f "$p" ] && [ -x "$p" ] || continue
    n=$(basename "$p")
    args=
    if [ $large = 1 ]; then
      # Arguments as examples/README.md lists them.
      case $n in
        saxpy2) args="1048576 16 256" ;;
        vectoradd) args="4194304 64" ;;
        matmul) args="480 400 88" ;;
        reduction) args="2000000 256" ;;
        histogram) args="3200000 768 256" ;;
        hotspot) args="256 320 20" ;;
        bfs) args="48000 96 0" ;;
        spmv) args="8192 16384 10" ;;
        kmeans) args="65536 8 10" ;;
        blackscholes) args="131072 4" ;;
        transpose) args="800 544 2" ;;
        scan) args="1600000" ;;
        sssp) args="16000 64 100" ;;
        convsep) args="512 512 4" ;;
        lbm) args="512 256 8" ;;
        cfd) args="256 192 10" ;;
        streamcluster) args="32768 20 1000000" ;;
        mri_gridding) args="96 240 100 5" ;;
        mst) args="16384 200" ;;
      esac
    fi
    # shellcheck disable=SC2086
    "$cli" --db "$db" --quiet profile -o "$traces/$n.wstrace" -- "$p" $args > /dev/null 2>&1 ||
      echo "$0: profiling $n failed; left out" >&2
  done
fi

echo "## TBPoint and random sampling against full simulation ($gpu)"
echo
"$cli" --db "$db" --quiet tbpoint validate --gpu "$gpu" --markdown "$traces"/*.wstrace
echo
echo "## GPUMech against full simulation (GPUMech baseline)"
echo
echo "| program | sim RR cycles | GPUMech RR cycles | RR CPI error | sim GTO cycles | GPUMech GTO cycles | GTO CPI error |"
echo "|---|---:|---:|---:|---:|---:|---:|"
errs_rr=
errs_gto=
for t in "$traces"/*.wstrace; do
  n=$(basename "$t" .wstrace)
  line="| $n"
  for s in rr gto; do
    sim=$("$cli" --db "$db" --quiet --json simulate --no-store --trace "$t" --gpu "GPUMech baseline" --scheduler $s | jq '.cycles')
    model=$("$cli" --db "$db" --quiet --json predict --trace "$t" --gpu "GPUMech baseline" --model gpumech \
              --option scheduler=$s | jq '[.launches[].cycles] | add')
    err=$(jq -n "($model - $sim) / $sim | fabs")
    line="$line | $sim | $(printf '%.0f' "$model") | $(jq -n "$err * 100 | . * 100 | round / 100") %"
    if [ $s = rr ]; then errs_rr="$errs_rr $err"; else errs_gto="$errs_gto $err"; fi
  done
  echo "$line |"
done
mean() { echo "$1" | tr ' ' '\n' | grep . | jq -s 'add / length * 10000 | round / 100'; }
echo "| **mean** | | | **$(mean "$errs_rr") %** | | | **$(mean "$errs_gto") %** |"
