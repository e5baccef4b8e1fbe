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
# Traces are recorded with `warpscope-cli profile` from BUILD_DIR/examples.
# Needs jq.  Prints Markdown.
set -eu

[ $# -ge 1 ] || { echo "usage: $0 BUILD_DIR [--gpu NAME] [--traces DIR]" >&2; exit 2; }
build=$(cd "$1" && pwd)
shift
gpu="TBPoint Fermi"
traces=
while [ $# -gt 0 ]; do
  case $1 in
    --gpu) gpu=$2; shift 2 ;;
    --traces) traces=$2; shift 2 ;;
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
    "$cli" --db "$db" --quiet profile -o "$traces/$n.wstrace" -- "$p" > /dev/null 2>&1 ||
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
