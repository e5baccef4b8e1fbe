#!/usr/bin/env bash
# cuda-samples.sh: NVIDIA's CUDA samples as a compatibility suite for the
# emulator (issue 17, docs/compatibility.md).
#
# Builds every sample of a NVIDIA/cuda-samples checkout (CUDA 13 version)
# that the emulator can be asked to run with `-cudart shared` and PTX only
# (`-gencode arch=compute_80,code=compute_80`: no SASS, so every kernel runs
# on the emulator), runs each under `warpscope-cli profile` with a watchdog,
# and prints one line per sample:
#
#   PASS  NAME  [note]
#   FAIL  NAME  reason
#   SKIP  NAME  reason        (not eligible: graphics interop, driver-API
#                              module loading, several GPUs or processes,
#                              closed-source CUDA libraries, missing packages)
#
# and a total line with the pass rate over the eligible samples (those not
# skipped).  A sample passes when it exits 0 under `profile` (so no kernel
# faulted) and its own output reports success (its "Test passed" / "Result =
# PASS" line; the few samples that print no verdict pass on their exit status,
# as their own checks exit non-zero on a mismatch).  The samples compare with
# results computed on the CPU, so a pass means the emulator computed right.
#
# Usage: bench/cuda-samples.sh [--jobs N] [--only a,b] [--cli PATH]
#                              [--timeout SEC] CUDA_SAMPLES_CHECKOUT [WORKDIR]
#   --jobs N      samples built and run in parallel (default: number of CPUs)
#   --only a,b    only these samples (directory names)
#   --cli PATH    warpscope-cli to use (default: build/app/cli/warpscope-cli
#                 next to this script, else warpscope-cli on PATH)
#   --timeout SEC wall-clock limit for one sample's run (default 600); each
#                 launch also has `--launch-timeout` (default 300 s)
#   --db PATH     catalogue database for `profile` (default WORKDIR/warpscope.db,
#                 made on first use: the run does not depend on the user's store)
#   WORKDIR       builds, run folders and logs (default
#                 ${TMPDIR:-/tmp}/warpscope-cuda-samples); binaries are kept
#                 and rebuilt only when the sample's sources are newer.
#
# Environment: NVCC (default: nvcc on PATH, else /usr/local/cuda/bin/nvcc),
# WS_SAMPLES_ARCH (default 80: the PTX target), WS_LAUNCH_TIMEOUT.
set -u

usage() {
  echo "usage: $0 [--jobs N] [--only a,b] [--cli PATH] [--timeout SEC] [--db PATH] CUDA_SAMPLES_CHECKOUT [WORKDIR]" >&2
  exit 2
}

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

# ---------------------------------------------------------------------------
# What is not eligible, and why.  Keyed by sample directory name.

declare -A skip_reason=(
  # Several GPUs, peer access, several processes sharing device memory.
  [simpleMultiGPU]="several GPUs (one emulated device)"
  [simpleP2P]="peer access between GPUs"
  [p2pBandwidthLatencyTest]="peer access between GPUs"
  [topologyQuery]="peer topology between GPUs"
  [conjugateGradientMultiDeviceCG]="several GPUs (multi-device cooperative launch)"
  [streamOrderedAllocationP2P]="peer access between GPUs"
  [simpleCUFFT_MGPU]="several GPUs (cuFFT multi-GPU)"
  [simpleCUFFT_2d_MGPU]="several GPUs (cuFFT multi-GPU)"
  [simpleCUBLASXT]="several GPUs (cuBLAS-XT)"
  [simpleIPC]="several processes sharing device memory (cudaIpc*)"
  [streamOrderedAllocationIPC]="several processes sharing device memory (driver API IPC)"
  [memMapIPCDrv]="several processes sharing device memory (driver API IPC)"
  [simpleMPI]="needs MPI (several processes)"
  # Driver API modules (files, NVRTC or libNVVM output loaded with cuModuleLoad*).
  [matrixMulDrv]="driver API: cuModuleLoad of a prebuilt fatbin file"
  [vectorAddDrv]="driver API: cuModuleLoad of a prebuilt fatbin file"
  [simpleTextureDrv]="driver API: cuModuleLoad of a prebuilt fatbin file"
  [simpleDrvRuntime]="driver API: cuModuleLoad of a prebuilt fatbin file"
  [threadMigration]="driver API: cuModuleLoad of a prebuilt fatbin file"
  [vectorAddMMAP]="driver API: cuModuleLoad of a prebuilt fatbin file"
  [matrixMulDynlinkJIT]="driver API: cuModuleLoadDataEx of PTX (JIT)"
  [ptxjit]="driver API: cuLinkCreate/cuModuleLoadData of PTX (JIT)"
  [jitLto]="driver API: NVRTC + nvJitLink, cuModuleLoadData"
  [deviceQueryDrv]="driver API (libcuda.so.1), which Warpscope does not replace"
  [cudaCompressibleMemory]="driver API (cuMemCreate, libcuda.so.1), which Warpscope does not replace"
  # Platform-specific.
  [Tegra]="Tegra/EGL platform samples"
)

# Libraries whose device code is closed (SASS only) and which carry their own
# statically linked CUDA runtime that talks to the driver directly: their
# kernels never reach Warpscope's libcudart.
library_pattern='cublasCreate|cublasXtCreate|cufftPlan|cufftCreate|curandCreateGenerator|cusparseCreate|cusolver[A-Za-z]*Create|nppi[A-Z]|nppGet|nvjpegCreate'

# Samples that print no verdict of their own: they pass on exit status 0
# (their checks exit non-zero on a mismatch), with what was checked.
# "check": the sample compares with the CPU (or a known answer) and exits
# non-zero on a mismatch without printing a verdict; "nocheck": the sample
# checks nothing, so exit 0 without a fault is all there is to see.
declare -A exit_only=(
  [asyncAPI]=check [cudaOpenMP]=check [simpleCallback]=check
  [simpleCooperativeGroups]=check [simpleCubemapTexture]=check
  [simpleLayeredTexture]=check [simpleStreams]=check [simpleTemplates]=check
  [simpleVoteIntrinsics]=check [simpleZeroCopy]=check
  [MC_EstimatePiInlineP]=check [MC_EstimatePiInlineQ]=check
  [MC_SingleAsianOptionP]=check [scan]=check [sortingNetworks]=check
  [StreamPriorities]=check [bf16TensorCoreGemm]=check
  [dmmaTensorCoreGemm]=check [tf32TensorCoreGemm]=check
  [cdpBezierTessellation]=check [cdpQuadtree]=check
  [cdpSimpleQuicksort]=check [HSOpticalFlow]=check
  [NV12toBGRandResize]=check [SobolQRNG]=check [quasirandomGenerator]=check
  [stereoDisparity]=check [UnifiedMemoryPerf]=check
  [graphMemoryFootprint]=check [interval]=check [mergeSort]=check
  [simpleAtomicIntrinsics]=check [systemWideAtomics]=check [template]=check
  [threadFenceReduction]=check [simpleMultiCopy]=check
  [shfl_scan]=check [simpleHyperQ]=check [FDTD3d]=check [reductionMultiBlockCG]=check
  [segmentationTreeThrust]=check
  [clock]=nocheck [binaryPartitionCG]=nocheck [cudaTensorCoreGemm]=nocheck
  [immaTensorCoreGemm]=nocheck [graphConditionalNodes]=nocheck
  [simpleCudaGraphs]=nocheck [simplePrintf]=nocheck [cdpSimplePrint]=nocheck
)

# Samples whose kernels fault on purpose and that check the error they get:
# `profile` exits 4 for them (a fault is never silent); they pass when the
# program itself exited 0 with its verdict.
declare -A expects_fault=(
  [simpleAssert]="device assert expected"
)

# Arguments for samples that accept a smaller problem (the default takes
# minutes on the emulator).  Documented in docs/compatibility.md.
declare -A sample_args=(
  [UnifiedMemoryPerf]="-kernel-iterations=1"
)

# ---------------------------------------------------------------------------

jobs=$(nproc 2>/dev/null || echo 2)
only=
cli=
timeout_s=600
db=
one=
while [ $# -gt 0 ]; do
  case $1 in
  --jobs) [ $# -ge 2 ] || usage; jobs=$2; shift ;;
  --only) [ $# -ge 2 ] || usage; only=$2; shift ;;
  --cli) [ $# -ge 2 ] || usage; cli=$2; shift ;;
  --timeout) [ $# -ge 2 ] || usage; timeout_s=$2; shift ;;
  --db) [ $# -ge 2 ] || usage; db=$2; shift ;;
  --one) [ $# -ge 2 ] || usage; one=$2; shift ;;   # internal: one sample
  -h|--help) usage ;;
  -*) usage ;;
  *) break ;;
  esac
  shift
done
[ $# -ge 1 ] && [ $# -le 2 ] || usage
checkout=$(cd "$1" 2>/dev/null && pwd) || { echo "cuda-samples: $1: no such folder" >&2; exit 2; }
workdir=${2:-${TMPDIR:-/tmp}/warpscope-cuda-samples}
mkdir -p "$workdir" || exit 1
workdir=$(cd "$workdir" && pwd)
db=${db:-$workdir/warpscope.db}
samples_root=$checkout/Samples
[ -d "$samples_root" ] || { echo "cuda-samples: $checkout has no Samples/ folder (not a cuda-samples checkout?)" >&2; exit 2; }

if [ -z "$cli" ]; then
  if [ -x "$here/../build/app/cli/warpscope-cli" ]; then
    cli=$here/../build/app/cli/warpscope-cli
  else
    cli=$(command -v warpscope-cli) || { echo "cuda-samples: no warpscope-cli: pass --cli PATH" >&2; exit 2; }
  fi
fi
cli=$(cd "$(dirname "$cli")" && pwd)/$(basename "$cli")
[ -x "$cli" ] || { echo "cuda-samples: $cli is not executable" >&2; exit 2; }
nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
arch=${WS_SAMPLES_ARCH:-80}
launch_timeout=${WS_LAUNCH_TIMEOUT:-300}

# The sample's directory: Samples/<group>/<name>.
sample_dir() {
  local d
  for d in "$samples_root"/*/"$1"; do
    [ -d "$d" ] && { echo "$d"; return 0; }
  done
  return 1
}

# Why NAME is not eligible (empty when it is).
classify() {
  local name=$1 dir=$2 cm=$2/CMakeLists.txt
  if [ -n "${skip_reason[$name]:-}" ]; then
    echo "${skip_reason[$name]}"; return
  fi
  case $dir in
  */7_libNVVM/*) echo "libNVVM + driver API: cuModuleLoadData of generated PTX"; return ;;
  */8_Platform_Specific/*) echo "platform-specific (Tegra/EGL)"; return ;;
  esac
  if [ ! -f "$cm" ]; then
    echo "no CMakeLists.txt (not a sample)"; return
  fi
  if grep -qE 'OpenGL|GLUT|Vulkan|find_package\(EGL|NVSCI|d3d|D3D' "$cm"; then
    echo "graphics interop ($(grep -oE 'OpenGL|Vulkan|EGL|NVSCI|D3D1[12]' "$cm" | sort -u | tr '\n' ' ' | sed 's/ $//'))"; return
  fi
  if grep -qE 'CUDA::nvrtc' "$cm"; then
    echo "NVRTC + driver API: cuModuleLoadData of run-time compiled PTX"; return
  fi
  local lib
  lib=$(grep -ohE "$library_pattern" -r "$dir" --include='*.cu' --include='*.cpp' --include='*.h' --include='*.cuh' 2>/dev/null |
        sed -E 's/^cublas.*/cuBLAS/; s/^cufft.*/cuFFT/; s/^curand.*/cuRAND (host API)/; s/^cusparse.*/cuSPARSE/; s/^cusolver.*/cuSOLVER/; s/^npp.*/NPP/; s/^nvjpeg.*/nvJPEG/' |
        sort -u | tr '\n' ',' | sed 's/,$//; s/,/, /g')
  if [ -n "$lib" ]; then
    echo "closed-source CUDA library ($lib): SASS-only kernels behind its own static runtime"; return
  fi
  if grep -q 'FreeImage' "$cm" && ! [ -f /usr/include/FreeImage.h ]; then
    echo "needs FreeImage (not installed)"; return
  fi
  if grep -qE 'CUDA::cuda_driver' "$cm"; then
    echo "driver API (libcuda.so.1), which Warpscope does not replace"; return
  fi
}

# The target's sources from CMakeLists.txt (add_executable of the sample).
sources() {
  local dir=$1 name=$2
  tr '\n' ' ' < "$dir/CMakeLists.txt" |
    grep -oE "add_executable\(\s*$name\s[^)]*\)" | head -1 |
    sed -E "s/add_executable\(\s*$name\s+//; s/\)$//" | tr ' ' '\n' |
    grep -E '\.(cu|cpp|cc|c)$'
}

# Build NAME into $workdir/bin/NAME; prints nothing, returns 0 on success.
build() {
  local name=$1 dir=$2 out=$workdir/bin/$name log=$workdir/logs/$name.build.log
  local srcs=() flags=() s
  while IFS= read -r s; do [ -n "$s" ] && srcs+=("$dir/$s"); done < <(sources "$dir" "$name")
  if [ ${#srcs[@]} -eq 0 ]; then
    echo "no sources found in add_executable($name ...)" > "$log"
    return 1
  fi
  if [ -x "$out" ]; then
    local newer
    newer=$(find "$dir" "$samples_root/../Common" -newer "$out" -type f \( -name '*.cu' -o -name '*.cpp' -o -name '*.h' -o -name '*.cuh' \) | head -1)
    [ -z "$newer" ] && return 0
  fi
  flags=(-cudart shared -gencode "arch=compute_$arch,code=compute_$arch"
         -std=c++17 --extended-lambda -Wno-deprecated-gpu-targets -lineinfo
         -I"$checkout/Common")
  while IFS= read -r s; do flags+=(-I"$s"); done < <(find "$dir" \( -name '*.h' -o -name '*.cuh' \) -printf '%h\n' | sort -u)
  flags+=(-I"$dir")
  if grep -q 'CUDA_SEPARABLE_COMPILATION ON' "$dir/CMakeLists.txt"; then
    flags+=(-rdc=true)
  fi
  if grep -q 'OpenMP' "$dir/CMakeLists.txt"; then
    flags+=(-Xcompiler -fopenmp -lgomp)
  fi
  # Host-only library functions some samples use (cuRAND's direction
  # vectors, no device code).
  if grep -q 'CUDA::curand' "$dir/CMakeLists.txt"; then
    flags+=(-lcurand)
  fi
  "$nvcc" "${flags[@]}" -o "$out.tmp" "${srcs[@]}" > "$log" 2>&1 && mv "$out.tmp" "$out"
}

# Verdict on one run: echoes "PASS note" or "FAIL reason".
verdict() {
  local name=$1 rc=$2 log=$3 prog_out
  # The program's own output: warpscope's lines and their indented
  # continuation lines removed (a sample's own indented lines stay).
  prog_out=$(awk '/^warpscope:/ { cont = 1; next } cont && /^  / { next } { cont = 0; print }' "$log")
  local unsupported fault
  unsupported=$(grep -oE 'unsupported CUDA runtime call [A-Za-z0-9_]+' "$log" | awk '{print $5}' | sort -u | tr '\n' ',' | sed 's/,$//; s/,/, /g')
  if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
    echo "FAIL timed out after ${timeout_s}s"; return
  fi
  if grep -q 'cudaErrorLaunchTimeout' "$log"; then
    echo "FAIL a launch ran past the watchdog (--launch-timeout $launch_timeout)"; return
  fi
  # profile exits 4 only when the program exited 0 although a kernel faulted.
  if [ "$rc" = 4 ] && [ -n "${expects_fault[$name]:-}" ]; then
    rc=0
  fi
  if [ "$rc" != 0 ]; then
    if [ -n "$unsupported" ]; then
      echo "FAIL unsupported runtime call(s): $unsupported (exit $rc)"; return
    fi
    fault=$(grep -m1 -E '^warpscope: .*(unsupported|not supported|cannot|error|fault)' "$log" | cut -c1-200)
    if [ "$rc" = 2 ] && grep -qi 'waiv' <<< "$prog_out"; then
      echo "FAIL waived by the sample: $(grep -m1 -i 'waiv\|requires\|not support' <<< "$prog_out" | cut -c1-160)"; return
    fi
    if [ "$rc" = 4 ]; then
      echo "FAIL a kernel faulted: ${fault:-see log}"; return
    fi
    [ -n "$fault" ] && { echo "FAIL exit $rc: $fault"; return; }
    echo "FAIL exit $rc: $(printf '%s\n' "$prog_out" | grep -v '^\s*$' | tail -1 | cut -c1-160)"; return
  fi
  if printf '%s\n' "$prog_out" | grep -qE '[Tt]est [Ff]ailed|TEST FAILED|Result = FAIL|\bFAILED\b|\bFAIL\b|[Mm]ismatch'; then
    echo "FAIL output reports a failure: $(printf '%s\n' "$prog_out" | grep -m1 -E '[Tt]est [Ff]ailed|TEST FAILED|Result = FAIL|\bFAILED\b|\bFAIL\b|[Mm]ismatch' | cut -c1-160)"; return
  fi
  if printf '%s\n' "$prog_out" | grep -qiE 'test passed|result = pass|\bPASSED\b|\bPASS\b|test.*succe|completed successfully|completed, returned OK'; then
    echo "PASS"; return
  fi
  case ${exit_only[$name]:-} in
  check) echo "PASS (no verdict printed; its own check passed: exit 0)"; return ;;
  nocheck) echo "PASS (the sample checks no result: ran without fault, exit 0)"; return ;;
  esac
  echo "FAIL exit 0 but the output has no pass verdict"
}

# One sample: build, run, verdict; writes $workdir/results/NAME and prints it.
run_one() {
  local name=$1 dir reason line
  dir=$(sample_dir "$name") || { line="FAIL $name: no such sample"; echo "$line"; return; }
  reason=$(classify "$name" "$dir")
  if [ -n "$reason" ]; then
    line="SKIP  $name  $reason"
  elif ! build "$name" "$dir"; then
    line="FAIL  $name  build failed: $(grep -m1 -E 'error' "$workdir/logs/$name.build.log" | cut -c1-160)"
  else
    local run=$workdir/run/$name log=$workdir/logs/$name.run.log rc args
    rm -rf "$run"; mkdir -p "$run"
    # The sample's data files, next to the program as sdkFindFilePath expects.
    [ -d "$dir/data" ] && cp -r "$dir/data" "$run/data"
    find "$dir" -maxdepth 1 -type f ! -name '*.cu' ! -name '*.cpp' ! -name '*.h' ! -name '*.cuh' \
      ! -name '*.txt' ! -name '*.md' ! -name 'Makefile' -exec cp {} "$run/" \;
    cp "$workdir/bin/$name" "$run/$name"
    args=${sample_args[$name]:-}
    local start=$SECONDS
    # shellcheck disable=SC2086
    (cd "$run" && timeout --kill-after=10 "$timeout_s" "$cli" --db "$db" profile \
        --launch-timeout "$launch_timeout" --summary "$run/summary.json" \
        -- "./$name" $args) < /dev/null > "$log" 2>&1
    rc=$?
    local v note=""
    v=$(verdict "$name" "$rc" "$log")
    [ -n "$args" ] && note=" [args: $args]"
    line="$(printf '%-4s  %s  %s' "${v%% *}" "$name" "${v#* }")$note ($((SECONDS - start)) s)"
    [ "$v" = PASS ] && line="PASS  $name$note ($((SECONDS - start)) s)"
  fi
  echo "$line" > "$workdir/results/$name"
  echo "$line"
}

mkdir -p "$workdir/bin" "$workdir/logs" "$workdir/run" "$workdir/results"

if [ -n "$one" ]; then
  run_one "$one"
  exit 0
fi

if [ -n "$only" ]; then
  names=$(echo "$only" | tr ',' '\n' | grep -v '^$')
else
  # Every sample folder (one with a CMakeLists.txt; 7_libNVVM's common/ and
  # utils/ are helpers), and Tegra as one entry.
  names=$(find "$samples_root" -mindepth 3 -maxdepth 3 -name CMakeLists.txt -printf '%h\n' | xargs -n1 basename | sort)
fi

echo "cuda-samples: $checkout ($(git -C "$checkout" rev-parse --short HEAD 2>/dev/null || echo 'no git'))," \
     "warpscope-cli $cli, PTX compute_$arch, $jobs jobs, work folder $workdir"
for n in $names; do rm -f "$workdir/results/$n"; done
# Make the catalogue once, before parallel runs would race to create it.
"$cli" --db "$db" hw list > /dev/null 2>&1 || { echo "cuda-samples: $cli cannot open the catalogue $db" >&2; exit 1; }
printf '%s\n' $names |
  xargs -P "$jobs" -I{} "$0" --one {} --cli "$cli" --timeout "$timeout_s" --db "$db" "$checkout" "$workdir"

pass=0 fail=0 skip=0 slow=0
for n in $names; do
  r=$(cat "$workdir/results/$n" 2>/dev/null) || r="FAIL  $n  no result"
  case $r in
  PASS*) pass=$((pass + 1)) ;;
  SKIP*) skip=$((skip + 1)) ;;
  *) fail=$((fail + 1))
     case $r in *"timed out after"*|*"past the watchdog"*) slow=$((slow + 1)) ;; esac ;;
  esac
done
eligible=$((pass + fail))
if [ $eligible -gt 0 ]; then
  rate=$(awk -v p=$pass -v e=$eligible 'BEGIN { printf "%.1f", 100 * p / e }')
else
  rate=0.0
fi
echo "TOTAL  $pass passed, $fail failed ($slow of them ran out of time), $skip skipped: $pass/$eligible eligible samples pass ($rate %)"
[ $fail -eq 0 ]
