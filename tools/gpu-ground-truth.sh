#!/usr/bin/env bash
# Ground truth from a GPU machine (issue 25; docs/measurement.md, "Ground
# truth from a GPU machine").  On a machine with an NVIDIA GPU it builds every
# example and validation benchmark natively (-arch=sm_90) and, in one pass
# under a time budget, collects into one output folder of at most 8 files:
#   - per program: exit status and output of a plain run;
#   - per kernel launch: CUPTI durations (the injection library of
#     `warpscope-cli measure`, built here from tools/cupti), and with ncu
#     (--clock-control none) durations, executed warp instructions, cycles,
#     achieved occupancy, L1/L2 hit rates, DRAM bytes and the stall breakdown;
#   - per kernel: static SASS (cuobjdump -sass) and PTX counts per opcode class;
#   - seed 004's saxpy2 sweeps and the calibration micro-benchmarks.
# Without a GPU, --dry-run does everything up to the GPU calls: it checks the
# tools, compiles every program for sm_90, counts PTX instructions, and writes
# the exact commands it would run.  --emulated-reference runs the same
# programs under `warpscope-cli profile` (here, no GPU), and --compare sets
# the two side by side.  Helper: tools/gpu-ground-truth.py; programs and
# their arguments: tools/gpu-ground-truth.programs.
set -uo pipefail

usage () {
  cat <<'EOF'
usage: tools/gpu-ground-truth.sh [OPTIONS] [OUTPUT]
       tools/gpu-ground-truth.sh --emulated-reference DIR [OPTIONS]
       tools/gpu-ground-truth.sh --compare EMULATED_DIR GPU_DIR [-o REPORT_DIR]

  -o, --output DIR      output folder (default $OUT if set, else ./gpu-ground-truth)
  --dry-run             everything up to the GPU calls (no GPU needed); exit 0
  --only LIST           comma-separated labels of tools/gpu-ground-truth.programs
  --budget SECONDS      whole run, builds included (default 1100; 7200 with
                        --emulated-reference); steps past it are skipped and
                        recorded as skipped-budget
  --runs N              CUPTI runs per program (default 3; durations: median)
  --ncu-launch-count N  ncu profiles at most N launches per program (default 60)
  --step-limit SECONDS  at most this long for one step (default 300)
  --steps LIST          run only these kinds of step (comma-separated: run, cupti,
                        sass, calibrate, sweep, ncu, ncu-sweep; default all), e.g.
                        two device calls of 10 minutes each:
                        --steps run,cupti,sass,calibrate,sweep and --steps ncu,ncu-sweep
  --no-ncu, --no-sass, --no-sweeps, --no-calibrate   leave a part out
  --sweep-n N           N of the intensity and occupancy sweeps (default 10000000)
  --jobs N              parallel nvcc (default: number of CPUs)
  --cli PATH            warpscope-cli for --emulated-reference (default
                        build/app/cli/warpscope-cli); the GPU run does not need it
  --work DIR            keep the intermediate files in DIR (default: a temporary
                        folder, removed at the end)
  --emulated-reference DIR  run the same programs on the emulator (profile --gpu
                        "H100 SXM") and write runs.json, launches.csv,
                        instructions.csv and metadata.json into DIR
  --emu-gpu NAME        catalogue GPU for --emulated-reference (default "H100 SXM")
  --compare EMU GPU     compare an emulated reference with a GPU run (GPU may be
                        several folders, comma-separated, of one split run): report.md
                        and measured/LABEL.csv (measure format) in -o (default
                        ./gpu-ground-truth-comparison); exit 1 on a difference
Exit: 0 done (steps may have failed; see README.md), 1 failure, 2 bad usage,
3 no GPU (not with --dry-run).
EOF
}

R=$(cd "$(dirname "$0")/.." && pwd)
HELPER="$R/tools/gpu-ground-truth.py"
PROGRAMS_FILE="$R/tools/gpu-ground-truth.programs"

OUTDIR=${OUT:-}
DRY=0
ONLY=""
BUDGET=1100
RUNS=3
NCU_LAUNCHES=60
STEP_LIMIT=300
DO_NCU=1
DO_SASS=1
DO_SWEEPS=1
DO_CALIBRATE=1
SWEEP_N=10000000
JOBS=$(nproc 2>/dev/null || echo 2)
CLI=""
WORK=""
EMU_REF=""
EMU_GPU="H100 SXM"
COMPARE=()
STEPS=",run,cupti,sass,calibrate,sweep,ncu,ncu-sweep,"
ARCH=sm_90
# Time kept back for packing the results.
RESERVE=40

die () { echo "gpu-ground-truth: $*" >&2; exit 1; }
bad_usage () { echo "gpu-ground-truth: $*" >&2; echo "Try --help." >&2; exit 2; }
need_value () { [ $# -ge 2 ] && [ -n "$2" ] || bad_usage "$1 needs a value"; }
is_count () { [[ "$1" =~ ^[0-9]+$ ]] && [ "$1" -ge "${2:-1}" ]; }

while [ $# -gt 0 ]; do
  case "$1" in
    -h|--help) usage; exit 0 ;;
    -o|--output) need_value "$@"; OUTDIR=$2; shift ;;
    --dry-run) DRY=1 ;;
    --only) need_value "$@"; ONLY=$2; shift ;;
    --budget) need_value "$@"; is_count "$2" 60 || bad_usage "--budget takes seconds >= 60, not '$2'"; BUDGET=$2; BUDGET_SET=1; shift ;;
    --runs) need_value "$@"; is_count "$2" 1 || bad_usage "--runs takes a count >= 1, not '$2'"; RUNS=$2; shift ;;
    --ncu-launch-count) need_value "$@"; is_count "$2" 1 || bad_usage "--ncu-launch-count takes a count >= 1, not '$2'"; NCU_LAUNCHES=$2; shift ;;
    --step-limit) need_value "$@"; is_count "$2" 10 || bad_usage "--step-limit takes seconds >= 10, not '$2'"; STEP_LIMIT=$2; shift ;;
    --steps) need_value "$@"; STEPS=",$2,"; shift ;;
    --no-ncu) DO_NCU=0 ;;
    --no-sass) DO_SASS=0 ;;
    --no-sweeps) DO_SWEEPS=0 ;;
    --no-calibrate) DO_CALIBRATE=0 ;;
    --sweep-n) need_value "$@"; is_count "$2" 1 || bad_usage "--sweep-n takes a count, not '$2'"; SWEEP_N=$2; shift ;;
    --jobs) need_value "$@"; is_count "$2" 1 || bad_usage "--jobs takes a count >= 1, not '$2'"; JOBS=$2; shift ;;
    --cli) need_value "$@"; CLI=$2; shift ;;
    --work) need_value "$@"; WORK=$2; shift ;;
    --emulated-reference) need_value "$@"; EMU_REF=$2; shift ;;
    --emu-gpu) need_value "$@"; EMU_GPU=$2; shift ;;
    --compare) [ $# -ge 3 ] || bad_usage "--compare needs EMULATED_DIR and GPU_DIR"; COMPARE=("$2" "$3"); shift 2 ;;
    -*) bad_usage "unknown option '$1'" ;;
    *) [ -z "${POSITIONAL_SET:-}" ] || bad_usage "unexpected argument '$1'"; OUTDIR=$1; POSITIONAL_SET=1 ;;
  esac
  shift
done

command -v python3 >/dev/null || die "python3 is needed (tools/gpu-ground-truth.py)"
for k in ${STEPS//,/ }; do
  case "$k" in run|cupti|sass|calibrate|sweep|ncu|ncu-sweep) ;; *) bad_usage "--steps: unknown kind '$k' (run, cupti, sass, calibrate, sweep, ncu, ncu-sweep)" ;; esac
done
step_on () { [[ "$STEPS" == *",$1,"* ]]; }
step_on ncu || step_on ncu-sweep || DO_NCU=0
step_on sass || DO_SASS=0
step_on calibrate || DO_CALIBRATE=0
step_on sweep || step_on ncu-sweep || DO_SWEEPS=0

if [ ${#COMPARE[@]} -eq 2 ]; then
  for d in "${COMPARE[0]}" ${COMPARE[1]//,/ }; do [ -f "$d/runs.json" ] || die "$d/runs.json is missing: not a ground-truth or emulated-reference folder"; done
  exec python3 "$HELPER" compare "${COMPARE[0]}" "${COMPARE[1]}" "${OUTDIR:-gpu-ground-truth-comparison}"
fi

T0=$(date +%s)
if [ -n "$EMU_REF" ]; then
  MODE=emulated
  OUTDIR=$EMU_REF
  # Emulation here is not bounded by the GPU machine's lease.
  [ -n "${BUDGET_SET:-}" ] || BUDGET=7200
else
  MODE=gpu
  [ -n "$OUTDIR" ] || OUTDIR=gpu-ground-truth
fi
mkdir -p "$OUTDIR" || die "cannot create the output folder $OUTDIR"
OUTDIR=$(cd "$OUTDIR" && pwd)

if [ -n "$WORK" ]; then
  mkdir -p "$WORK" || die "cannot create the work folder $WORK"
  W=$(cd "$WORK" && pwd)
else
  W=$(mktemp -d "${TMPDIR:-/tmp}/gpu-ground-truth.XXXXXX") || die "cannot create a temporary folder"
  trap 'rm -rf "$W"' EXIT
fi
case "$W/" in "$OUTDIR"/*) die "the work folder must not be inside the output folder (at most 8 files come back)" ;; esac
mkdir -p "$W"/{meta,bin,ptx,sass,run,cupti,ncu,calibrate,build,lib,emu}
: > "$W/steps.tsv"
export W R

log () { printf 'gpu-ground-truth: %s\n' "$*" >&2; }
elapsed () { echo $(( $(date +%s) - T0 )); }

# ---------------------------------------------------------------------------
# Programs

declare -a LABELS=() SOURCES=() BINARIES=() ARGSTR=()
while read -r label source rest; do
  case "$label" in ''|'#'*) continue ;; esac
  [[ "$label" =~ ^[A-Za-z0-9_-]+$ ]] || die "$PROGRAMS_FILE: bad label '$label'"
  [ -f "$R/$source" ] || die "$PROGRAMS_FILE: $label: source $source not found"
  LABELS+=("$label"); SOURCES+=("$source"); BINARIES+=("$(basename "$source" .cu)"); ARGSTR+=("$rest")
done < "$PROGRAMS_FILE"

SELECTED=()
if [ -n "$ONLY" ]; then
  IFS=',' read -r -a wanted <<< "$ONLY"
  for w in "${wanted[@]}"; do
    found=""
    for i in "${!LABELS[@]}"; do [ "${LABELS[$i]}" = "$w" ] && found=$i; done
    [ -n "$found" ] || bad_usage "--only: no program labelled '$w' in tools/gpu-ground-truth.programs"
    SELECTED+=("$found")
  done
else
  SELECTED=("${!LABELS[@]}")
fi
[ ${#SELECTED[@]} -gt 0 ] || bad_usage "no program selected"

: > "$W/programs.tsv"
for i in "${SELECTED[@]}"; do
  # shellcheck disable=SC2206
  words=(${ARGSTR[$i]})
  (IFS=$'\t'; printf '%s\t%s\t%s\t%s\n' "${LABELS[$i]}" "${SOURCES[$i]}" "${BINARIES[$i]}" "${words[*]:-}") >> "$W/programs.tsv"
done

# ---------------------------------------------------------------------------
# Tools: what the run relies on, recorded into meta/ before anything else.

first_of () { for c in "$@"; do [ -n "$c" ] && [ -x "$c" ] && { echo "$c"; return 0; }; done; return 1; }

NVCC=$(first_of "$(command -v nvcc)" "${CUDA_HOME:-/usr/local/cuda}/bin/nvcc" /usr/local/cuda/bin/nvcc) \
  || die "nvcc not found (PATH, \$CUDA_HOME/bin, /usr/local/cuda/bin)"
# The toolkit root: the folder above nvcc's, or, where nvcc is a wrapper
# script elsewhere (e.g. /usr/local/bin/nvcc running /usr/local/cuda-13.0/
# bin/nvcc), the TOP that nvcc itself reports in a --dryrun.
toolkit_root_of () {
  local top
  top=$(cd "$(dirname "$(readlink -f "$1")")/.." && pwd)
  if [ ! -f "$top/bin/nvcc.profile" ]; then
    local probe
    probe=$(mktemp -d)
    : > "$probe/probe.cu"
    top=$("$1" --dryrun -c -o "$probe/probe.o" "$probe/probe.cu" 2>&1 | sed -n 's/^#\$ TOP=//p' | head -1)
    rm -rf "$probe"
    [ -n "$top" ] && top=$(cd "$top" && pwd)
  fi
  echo "$top"
}
CUDA_ROOT=$(toolkit_root_of "$NVCC")
NCU=$(first_of "$(command -v ncu)" "$CUDA_ROOT/bin/ncu" $(ls -d /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | sort -V | tail -1)) || NCU=""
CUOBJDUMP=$(first_of "$(command -v cuobjdump)" "$CUDA_ROOT/bin/cuobjdump") || CUOBJDUMP=""
NVIDIA_SMI=$(first_of "$(command -v nvidia-smi)" /usr/local/nvidia/bin/nvidia-smi /usr/bin/nvidia-smi) || NVIDIA_SMI=""
SANITIZER=$(first_of "$(command -v compute-sanitizer)" "$CUDA_ROOT/bin/compute-sanitizer") || SANITIZER=""
NVDISASM=$(first_of "$(command -v nvdisasm)" "$CUDA_ROOT/bin/nvdisasm") || NVDISASM=""
HOSTCC=$(first_of "$(command -v cc)" "$(command -v gcc)") || HOSTCC=""
CUPTI_INC="" CUPTI_LIB=""
# The toolkit's CUPTI, else the one of a Python wheel (nvidia-cuda-cupti).
PY_CUPTI=$(python3 -c 'import nvidia, os; print(*nvidia.__path__)' 2>/dev/null | xargs -r -I{} find {} -maxdepth 3 -name cupti.h -path '*/include/*' 2>/dev/null | head -1)
for root in "$CUDA_ROOT/extras/CUPTI" "$CUDA_ROOT" ${PY_CUPTI:+"$(dirname "$(dirname "$PY_CUPTI")")"}; do
  [ -f "$root/include/cupti.h" ] || continue
  for lib in "$root/lib64" "$root/lib"; do
    if [ -z "$CUPTI_LIB" ] && ls "$lib"/libcupti.so* >/dev/null 2>&1; then CUPTI_INC=$root/include; CUPTI_LIB=$lib; fi
  done
done

version_of () {  # NAME PATH ARGS...: the tool's version text into meta/NAME.txt
  local name=$1 path=$2; shift 2
  if [ -n "$path" ]; then "$path" "$@" > "$W/meta/$name.txt" 2>&1 || true; else echo "absent" > "$W/meta/$name.txt"; fi
}
version_of nvcc "$NVCC" --version
version_of ncu "$NCU" --version
version_of cuobjdump "$CUOBJDUMP" --version
version_of compute-sanitizer "$SANITIZER" --version
version_of nvdisasm "$NVDISASM" --version
version_of hostcc "$HOSTCC" --version
{ uname -srm; echo "$(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2 | sed 's/^ *//')"; } > "$W/meta/host.txt"
date -u +%Y-%m-%dT%H:%M:%SZ > "$W/meta/date.txt"
(cd "$R" && git rev-parse HEAD 2>/dev/null && git status --porcelain 2>/dev/null | head -50 | sed 's/^/changed: /') > "$W/meta/repository.txt" || true

GPU_FIELDS=name,driver_version,pci.bus_id,memory.total,clocks.sm,clocks.mem,clocks.max.sm,clocks.max.mem,clocks.applications.graphics,clocks.applications.memory,power.limit,power.draw,temperature.gpu,persistence_mode,compute_mode
HAVE_GPU=0
if [ "$MODE" = gpu ] && [ -n "$NVIDIA_SMI" ] && "$NVIDIA_SMI" -L > "$W/meta/nvidia-smi-L.txt" 2>&1 && grep -q '^GPU ' "$W/meta/nvidia-smi-L.txt"; then
  HAVE_GPU=1
  "$NVIDIA_SMI" > "$W/meta/nvidia-smi.txt" 2>&1
  "$NVIDIA_SMI" -q > "$W/meta/nvidia-smi-q.txt" 2>&1
  "$NVIDIA_SMI" --query-gpu=$GPU_FIELDS --format=csv > "$W/meta/nvidia-smi-query.csv" 2>&1
fi
if [ "$MODE" = gpu ] && [ $DRY = 0 ] && [ $HAVE_GPU = 0 ]; then
  echo "gpu-ground-truth: no NVIDIA GPU is present (nvidia-smi ${NVIDIA_SMI:-not found}${NVIDIA_SMI:+ lists none}); use --dry-run to check everything else" >&2
  exit 3
fi

CLI_OK=0
if [ "$MODE" = emulated ]; then
  if [ -z "$CLI" ] && [ -x "$R/build/app/cli/warpscope-cli" ]; then CLI=$R/build/app/cli/warpscope-cli; fi
  if [ -n "$CLI" ] && "$CLI" --db "$W/meta/probe.db" hw show "$EMU_GPU" > /dev/null 2> "$W/meta/cli-probe.txt"; then CLI_OK=1; fi
  rm -f "$W/meta/probe.db"
fi

BUILD_FLAGS="-O2 -arch=$ARCH"
[ "$MODE" = emulated ] && BUILD_FLAGS="-cudart shared -O2 -arch=$ARCH"
NCU_FLAGS="--clock-control none --cache-control all --replay-mode kernel"

# ncu metrics (names of Nsight Compute for sm_90).  The stall breakdown is
# warps stalled per issue-active cycle for each reason, the WarpStateStats
# section's CPI stack; its sum is smsp__average_warp_latency_per_inst_issued.
STALL_REASONS="barrier branch_resolving dispatch_stall drain gmma imc_miss lg_throttle long_scoreboard math_pipe_throttle membar mio_throttle misc no_instruction not_selected selected short_scoreboard sleeping tex_throttle wait"
NCU_METRICS="gpu__time_duration.sum,sm__cycles_elapsed.avg,sm__cycles_elapsed.max,smsp__cycles_active.avg,smsp__inst_executed.sum,smsp__thread_inst_executed.sum,sm__warps_active.avg.pct_of_peak_sustained_active,sm__warps_active.avg.per_cycle_active,sm__maximum_warps_per_active_cycle_pct,l1tex__t_sector_hit_rate.pct,lts__t_sector_hit_rate.pct,dram__bytes_read.sum,dram__bytes_write.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum,smsp__inst_executed_pipe_fma.sum,smsp__inst_executed_pipe_alu.sum,smsp__inst_executed_pipe_fp64.sum,smsp__inst_executed_pipe_xu.sum,smsp__inst_executed_pipe_lsu.sum,smsp__inst_executed_pipe_cbu.sum,smsp__inst_executed_pipe_adu.sum,smsp__inst_executed_pipe_uniform.sum,smsp__average_warp_latency_per_inst_issued.ratio,launch__grid_size,launch__block_size,launch__registers_per_thread,launch__shared_mem_per_block_static,launch__shared_mem_per_block_dynamic,launch__occupancy_limit_blocks,launch__occupancy_limit_registers,launch__occupancy_limit_shared_mem,launch__occupancy_limit_warps,launch__waves_per_multiprocessor"
for r in $STALL_REASONS; do NCU_METRICS+=",smsp__average_warps_issue_stalled_${r}_per_issue_active.ratio"; done
NCU_SWEEP_METRICS="gpu__time_duration.sum,sm__cycles_elapsed.avg,sm__warps_active.avg.pct_of_peak_sustained_active,sm__maximum_warps_per_active_cycle_pct,launch__grid_size,launch__block_size,launch__shared_mem_per_block_dynamic,launch__occupancy_limit_shared_mem,launch__occupancy_limit_blocks,launch__waves_per_multiprocessor"
if [ "$MODE" = gpu ] && [ $DRY = 0 ] && [ -n "$NCU" ] && [ $DO_NCU = 1 ]; then
  # Names a newer or older ncu does not know would fail every ncu step: keep
  # the ones --query-metrics lists, record the rest.
  "$NCU" --query-metrics > "$W/meta/ncu-query-metrics.txt" 2>&1 || true
  NCU_METRICS=$(python3 "$HELPER" filter-metrics "$W/meta/ncu-query-metrics.txt" "$NCU_METRICS" 2> "$W/meta/ncu-metrics-dropped.txt")
  NCU_SWEEP_METRICS=$(python3 "$HELPER" filter-metrics "$W/meta/ncu-query-metrics.txt" "$NCU_SWEEP_METRICS" 2>> "$W/meta/ncu-metrics-dropped.txt")
fi
echo "$NCU_METRICS" | tr ',' '\n' > "$W/meta/ncu-metrics.txt"
echo "$NCU_SWEEP_METRICS" | tr ',' '\n' > "$W/meta/ncu-sweep-metrics.txt"

{
  echo "mode=$MODE"; echo "dry_run=$DRY"; echo "budget_s=$BUDGET"; echo "runs=$RUNS"
  echo "ncu_launch_count=$NCU_LAUNCHES"; echo "step_limit_s=$STEP_LIMIT"; echo "ncu=$DO_NCU"; echo "sass=$DO_SASS"
  echo "sweeps=$DO_SWEEPS"; echo "calibrate=$DO_CALIBRATE"; echo "steps=${STEPS:1:-1}"; echo "sweep_n=$SWEEP_N"; echo "only=$ONLY"
  echo "build_flags=$BUILD_FLAGS"; echo "ncu_flags=$NCU_FLAGS"; echo "arch=$ARCH"; echo "emu_gpu=$EMU_GPU"
  echo "nvcc_path=$NVCC"; echo "ncu_path=$NCU"; echo "cuobjdump_path=$CUOBJDUMP"; echo "nvidia_smi_path=$NVIDIA_SMI"
  echo "cupti_include=$CUPTI_INC"; echo "cupti_lib=$CUPTI_LIB"; echo "host_cc=$HOSTCC"
  echo "cli=$CLI"; echo "cli_works=$CLI_OK"; echo "have_gpu=$HAVE_GPU"
} > "$W/meta/options.env"

# ---------------------------------------------------------------------------
# Build: every binary and its PTX, the calibration benchmarks, the CUPTI
# injection library.  In parallel; nvcc needs no GPU.

BUILD_FAILED=()
build_jobs () {  # lines "NAME<TAB>command" on stdin
  local name cmd running=0
  while IFS=$'\t' read -r name cmd; do
    ( bash -c "$cmd" > "$W/build/$name.log" 2>&1 || echo "$name" >> "$W/build/failed" ) &
    running=$((running + 1))
    if [ $running -ge "$JOBS" ]; then wait -n; running=$((running - 1)); fi
  done
  wait
}

UNIQUE_BINS=()
declare -A BIN_SOURCE=()
for i in "${SELECTED[@]}"; do
  b=${BINARIES[$i]}
  [ -n "${BIN_SOURCE[$b]:-}" ] || { UNIQUE_BINS+=("$b"); BIN_SOURCE[$b]=${SOURCES[$i]}; }
done
SWEEP_BIN=saxpy2
# saxpy2 also serves the ncu metric probe.
if [ "$MODE" = gpu ] && { [ $DO_SWEEPS = 1 ] || [ $DO_NCU = 1 ]; } && [ -z "${BIN_SOURCE[$SWEEP_BIN]:-}" ]; then
  UNIQUE_BINS+=("$SWEEP_BIN"); BIN_SOURCE[$SWEEP_BIN]=examples/saxpy2.cu
fi

log "building ${UNIQUE_BINS[*]} for $ARCH ($BUILD_FLAGS, $JOBS jobs)"
rm -f "$W/build/failed"
{
  for b in "${UNIQUE_BINS[@]}"; do
    printf '%s\t%q %s -o %q %q\n' "$b" "$NVCC" "$BUILD_FLAGS" "$W/bin/$b" "$R/${BIN_SOURCE[$b]}"
    printf '%s\t%q %s -ptx -o %q %q\n' "$b.ptx" "$NVCC" "-O2 -arch=$ARCH" "$W/ptx/$b.ptx" "$R/${BIN_SOURCE[$b]}"
  done
  if [ "$MODE" = gpu ] && [ $DO_CALIBRATE = 1 ]; then
    printf '%s\t%q %s -o %q %q\n' ws-calibrate "$NVCC" "-O2 -arch=$ARCH" "$W/bin/ws-calibrate" "$R/bench/calibration/ws-calibrate.cu"
  fi
  if [ "$MODE" = gpu ] && [ -n "$CUPTI_LIB" ] && [ -n "$HOSTCC" ]; then
    incs="-I$(printf %q "$CUPTI_INC")"
    [ "$CUPTI_INC" = "$CUDA_ROOT/include" ] || incs+=" -I$(printf %q "$CUDA_ROOT/include")"
    printf '%s\t%q -shared -fPIC -O2 -fvisibility=hidden %s -o %q %q -L%q -lcupti -lpthread -Wl,-rpath,%q\n' \
      cupti-inject "$HOSTCC" "$incs" "$W/lib/libws-cupti-inject.so" \
      "$R/tools/cupti/ws-cupti-inject.c" "$CUPTI_LIB" "$CUPTI_LIB"
  fi
} > "$W/build/commands.tsv"
build_jobs < "$W/build/commands.tsv"
if [ -f "$W/build/failed" ]; then
  while read -r f; do BUILD_FAILED+=("$f"); log "building $f failed: $(tail -3 "$W/build/$f.log" | tr '\n' ' ')"; done < "$W/build/failed"
fi
HAVE_CUPTI=0
[ -f "$W/lib/libws-cupti-inject.so" ] && HAVE_CUPTI=1
echo "cupti_inject_built=$HAVE_CUPTI" >> "$W/meta/options.env"
echo "build_failed=${BUILD_FAILED[*]:-}" >> "$W/meta/options.env"
echo "build_s=$(elapsed)" >> "$W/meta/options.env"

for b in "${UNIQUE_BINS[@]}"; do
  [ -f "$W/ptx/$b.ptx" ] && python3 "$HELPER" count-ptx "$b" "$W/ptx/$b.ptx" > "$W/ptx/$b.csv"
done

# A name that ncu rejects would lose every profile: try the lists on one
# small launch first and keep what works (metadata.json: ncu_metrics_dropped).
if [ "$MODE" = gpu ] && [ $DRY = 0 ] && [ -n "$NCU" ] && [ $DO_NCU = 1 ] && [ -x "$W/bin/$SWEEP_BIN" ]; then
  log "checking the ncu metric lists on one launch of saxpy2"
  NCU_METRICS=$(python3 "$HELPER" probe-metrics "$NCU" "$W/meta/ncu-probe.log" "$NCU_METRICS" "$W/bin/$SWEEP_BIN" 4096 1 2>> "$W/meta/ncu-metrics-dropped.txt")
  NCU_SWEEP_METRICS=$(python3 "$HELPER" probe-metrics "$NCU" "$W/meta/ncu-probe.log" "$NCU_SWEEP_METRICS" "$W/bin/$SWEEP_BIN" 4096 1 2>> "$W/meta/ncu-metrics-dropped.txt")
  echo "$NCU_METRICS" | tr ',' '\n' > "$W/meta/ncu-metrics.txt"
  echo "$NCU_SWEEP_METRICS" | tr ',' '\n' > "$W/meta/ncu-sweep-metrics.txt"
  [ -n "$NCU_METRICS" ] || { log "ncu profiles nothing here (see raw/meta/ncu-probe.log): no ncu steps"; DO_NCU=0; }
  echo "ncu_probe_s=$(elapsed)" >> "$W/meta/options.env"
fi

# ---------------------------------------------------------------------------
# The plan: every command the run executes, in order of priority (cheap and
# essential first, so a budget cut loses the ncu tail, not the basics).

declare -a P_KIND=() P_LABEL=() P_CMD=()
plan () { P_KIND+=("$1"); P_LABEL+=("$2"); P_CMD+=("$3"); }
q () {  # shell-quote only what needs it, so commands.sh stays readable
  if [[ "$1" =~ ^[A-Za-z0-9_=,./:+@%-]+$ ]]; then printf '%s' "$1"; else printf '%q' "$1"; fi
}
args_of () { local out="" a; for a in $1; do out+=" $(q "$a")"; done; printf '%s' "$out"; }
has_bin () { [ -x "$W/bin/$1" ] || [ $DRY = 1 ]; }

INJECT='CUDA_INJECTION64_PATH="$W/lib/libws-cupti-inject.so"'
ncu_cmd () {  # LABEL BINARY ARGS METRICS LAUNCHES
  printf '%s %s --launch-count %s --metrics %s --export "$W/ncu/%s" --force-overwrite --log-file "$W/ncu/%s.log" "$W/bin/%s"%s > "$W/ncu/%s.stdout" 2>&1; rc=$?; %s --import "$W/ncu/%s.ncu-rep" --csv --page raw --print-units base --print-kernel-base mangled > "$W/ncu/%s.csv" 2>> "$W/ncu/%s.log"; exit $rc' \
    "$(q "${NCU:-ncu}")" "$NCU_FLAGS" "$5" "$4" "$1" "$1" "$2" "$3" "$1" "$(q "${NCU:-ncu}")" "$1" "$1" "$1"
}

if [ "$MODE" = gpu ]; then
  for i in "${SELECTED[@]}"; do
    step_on run || break
    l=${LABELS[$i]} b=${BINARIES[$i]}; has_bin "$b" || continue
    plan run "$l" "\"\$W/bin/$b\"$(args_of "${ARGSTR[$i]}") > \"\$W/run/$l.stdout\" 2> \"\$W/run/$l.stderr\""
  done
  if step_on cupti && { [ $HAVE_CUPTI = 1 ] || [ $DRY = 1 ]; }; then
    for n in $(seq 1 "$RUNS"); do
      for i in "${SELECTED[@]}"; do
        l=${LABELS[$i]} b=${BINARIES[$i]}; has_bin "$b" || continue
        plan cupti "$l" "$INJECT WS_CUPTI_OUTPUT=\"\$W/cupti/$l.csv\" \"\$W/bin/$b\"$(args_of "${ARGSTR[$i]}") > \"\$W/cupti/$l.run$n.log\" 2>&1"
      done
    done
  fi
  if [ $DO_SASS = 1 ] && { [ -n "$CUOBJDUMP" ] || [ $DRY = 1 ]; }; then
    for b in "${UNIQUE_BINS[@]}"; do
      has_bin "$b" || continue
      plan sass "$b" "$(q "${CUOBJDUMP:-cuobjdump}") -sass \"\$W/bin/$b\" > \"\$W/sass/$b.sass\" && $(q "${CUOBJDUMP:-cuobjdump}") -res-usage \"\$W/bin/$b\" > \"\$W/sass/$b.res\""
    done
  fi
  # The micro-benchmarks of `calibrate --gpu`, run directly: warpscope-cli
  # needs GLib, SQLite and its source tree, which the GPU machine may lack.
  # Their `key value` output is what calibrate parses
  # (ws_measure_apply_benchmark).
  if [ $DO_CALIBRATE = 1 ] && has_bin ws-calibrate; then
    plan calibrate ws-calibrate "\"\$W/bin/ws-calibrate\" > \"\$W/calibrate/ws-calibrate.out\" 2> \"\$W/calibrate/ws-calibrate.err\""
  fi
  # seed 004's saxpy2 sweeps: compute intensity (N = --sweep-n), occupancy by
  # block size and the dynamic shared-memory spoiler (saxpy2 takes at most
  # 48 KiB; with H100's 228 KiB per SM and 1 KiB reserved per block, 48 KiB
  # leaves 4 blocks per SM, so 4 warps per SM is the floor), and N.
  : > "$W/sweeps.tsv"
  if [ $DO_SWEEPS = 1 ] && has_bin "$SWEEP_BIN"; then
    sweep () {  # LABEL N INTENSITY BLOCK SHMEM
      printf '%s\texamples/saxpy2.cu\t%s\t%s\t%s\t%s\t%s\n' "$1" "$SWEEP_BIN" "$2" "$3" "$4" "$5" >> "$W/sweeps.tsv"
      if ! step_on sweep; then
        :
      elif [ $HAVE_CUPTI = 1 ] || [ $DRY = 1 ]; then
        plan sweep "$1" "$INJECT WS_CUPTI_OUTPUT=\"\$W/cupti/$1.csv\" \"\$W/bin/$SWEEP_BIN\" $2 $3 $4 $5 > \"\$W/run/$1.stdout\" 2> \"\$W/run/$1.stderr\""
      elif [ -n "$NCU" ]; then
        plan ncu-sweep "$1" "$(ncu_cmd "$1" "$SWEEP_BIN" " $2 $3 $4 $5" "$NCU_SWEEP_METRICS" 1)"
      fi
    }
    for ci in 1 2 4 8 16 32 64 128 256 512 1024 2048 4096; do sweep "saxpy2-ci-$ci" "$SWEEP_N" "$ci" 256 0; done
    OCC_SWEEP="64:256:0 48:256:32768 32:256:49152 16:128:49152 8:64:49152 4:32:49152"
    for o in $OCC_SWEEP; do IFS=: read -r w bs sh <<< "$o"; sweep "saxpy2-occ-${w}w" "$SWEEP_N" 16 "$bs" "$sh"; done
    for e in 3 4 5 6 7 8; do sweep "saxpy2-n-1e$e" "$(python3 -c "print(10**$e)")" 16 256 0; done
  fi
  if [ $DO_NCU = 1 ] && { [ -n "$NCU" ] || [ $DRY = 1 ]; }; then
    for i in "${SELECTED[@]}"; do
      step_on ncu || break
      l=${LABELS[$i]} b=${BINARIES[$i]}; has_bin "$b" || continue
      plan ncu "$l" "$(ncu_cmd "$l" "$b" "$(args_of "${ARGSTR[$i]}")" "$NCU_METRICS" "$NCU_LAUNCHES")"
    done
    if [ $DO_SWEEPS = 1 ] && step_on ncu-sweep && { [ $HAVE_CUPTI = 1 ] || [ $DRY = 1 ]; }; then
      for o in $OCC_SWEEP; do
        IFS=: read -r w bs sh <<< "$o"
        plan ncu-sweep "saxpy2-occ-${w}w" "$(ncu_cmd "saxpy2-occ-${w}w" "$SWEEP_BIN" " $SWEEP_N 16 $bs $sh" "$NCU_SWEEP_METRICS" 1)"
      done
    fi
  fi
  if [ -n "$NVIDIA_SMI" ] || [ $DRY = 1 ]; then
    plan gpu-after nvidia-smi "$(q "${NVIDIA_SMI:-nvidia-smi}") --query-gpu=$GPU_FIELDS --format=csv > \"\$W/meta/nvidia-smi-after.csv\""
  fi
else
  [ $CLI_OK = 1 ] || die "--emulated-reference needs a working warpscope-cli (--cli PATH; build it with meson first): $(head -c 300 "$W/meta/cli-probe.txt" 2>/dev/null)"
  for i in "${SELECTED[@]}"; do
    l=${LABELS[$i]} b=${BINARIES[$i]}; [ -x "$W/bin/$b" ] || continue
    plan run "$l" "$(q "$CLI") profile --gpu $(q "$EMU_GPU") -o \"\$W/emu/$l.trace\" --summary \"\$W/emu/$l.summary.json\" -- \"\$W/bin/$b\"$(args_of "${ARGSTR[$i]}") > \"\$W/run/$l.stdout\" 2> \"\$W/run/$l.stderr\"; rc=\$?; $(q "$CLI") --json trace info \"\$W/emu/$l.trace\" > \"\$W/emu/$l.info.json\"; rm -f \"\$W/emu/$l.trace\"; exit \$rc"
  done
fi

{
  echo "#!/usr/bin/env bash"
  echo "# Commands of tools/gpu-ground-truth.sh ($MODE mode$([ $DRY = 1 ] && echo ', dry run'); $(date -u +%Y-%m-%dT%H:%M:%SZ))."
  echo "# W: the work folder (binaries in \$W/bin, built with nvcc $BUILD_FLAGS); R: the repository."
  echo "# Each step runs under 'timeout' within the budget of $BUDGET s; the ncu metric lists are in metadata.json."
  echo ": \"\${W:?set W to the work folder}\""
  echo "# build (before the steps, $JOBS in parallel)"
  cut -f2- "$W/build/commands.tsv" | sed "s#$W/#\$W/#g"
  for k in "${!P_CMD[@]}"; do
    echo "# step $((k + 1)): ${P_KIND[$k]} ${P_LABEL[$k]}"
    echo "${P_CMD[$k]}"
  done
} > "$W/commands.sh"

# ---------------------------------------------------------------------------
# Run the plan under the budget.

run_plan () {
  local k n=${#P_CMD[@]} left limit t1 t2 rc status secs
  for k in "${!P_CMD[@]}"; do
    left=$(( BUDGET - RESERVE - $(elapsed) ))
    if [ $left -lt 5 ]; then
      printf '%d\t%s\t%s\t%s\t-\t-\n' $((k + 1)) "${P_KIND[$k]}" "${P_LABEL[$k]}" skipped-budget >> "$W/steps.tsv"
      continue
    fi
    limit=$(( left < STEP_LIMIT ? left : STEP_LIMIT ))
    t1=$(date +%s.%N)
    timeout -k 5 "$limit" bash -c "${P_CMD[$k]}" < /dev/null
    rc=$?
    t2=$(date +%s.%N)
    secs=$(python3 -c "print('%.3f' % ($t2 - $t1))")
    case $rc in 0) status=ok ;; 124|137) status=timeout ;; *) status="exit-$rc" ;; esac
    printf '%d\t%s\t%s\t%s\t%d\t%s\n' $((k + 1)) "${P_KIND[$k]}" "${P_LABEL[$k]}" "$status" "$rc" "$secs" >> "$W/steps.tsv"
    printf 'gpu-ground-truth: [%3d/%d] %-14s %-9s %-22s %7ss, %ds left\n' $((k + 1)) "$n" "$status" "${P_KIND[$k]}" "${P_LABEL[$k]}" "$secs" $(( BUDGET - $(elapsed) )) >&2
  done
}

if [ $DRY = 1 ]; then
  for k in "${!P_CMD[@]}"; do
    printf '%d\t%s\t%s\tplanned\t-\t-\n' $((k + 1)) "${P_KIND[$k]}" "${P_LABEL[$k]}" >> "$W/steps.tsv"
  done
else
  log "running ${#P_CMD[@]} steps within $(( BUDGET - $(elapsed) )) s"
  run_plan
fi
echo "elapsed_s=$(elapsed)" >> "$W/meta/options.env"

# ---------------------------------------------------------------------------
# Pack.

rc=0
if [ "$MODE" = emulated ]; then
  python3 "$HELPER" emulated-collect "$W" "$OUTDIR" || rc=1
else
  for b in "${UNIQUE_BINS[@]}"; do
    [ -s "$W/sass/$b.sass" ] && python3 "$HELPER" count-sass "$b" "$W/sass/$b.sass" > "$W/sass/$b.csv"
  done
  if [ $DRY = 1 ]; then
    python3 "$HELPER" collect "$W" "$OUTDIR" --dry-run || rc=1
  else
    python3 "$HELPER" collect "$W" "$OUTDIR" || rc=1
  fi
fi
[ ${#BUILD_FAILED[@]} -eq 0 ] || { log "build failures: ${BUILD_FAILED[*]}"; rc=1; }
log "$MODE$([ $DRY = 1 ] && echo ' dry run'): ${#P_CMD[@]} steps$([ $DRY = 1 ] && echo ' planned'), $(elapsed) s; results in $OUTDIR"
exit $rc
