#!/bin/sh
# Regenerates the PTX fixtures in tests/data/ptx/ from tests/data/ptx/src/*.cu
# with nvcc 13 (sm_80).  The tests read the committed .ptx files so they run
# without CUDA; rerun this after changing a source or upgrading CUDA.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
nvcc=${NVCC:-/usr/local/cuda/bin/nvcc}
src=$top/tests/data/ptx/src
out=$top/tests/data/ptx
cd "$src"
for cu in *.cu; do
  base=${cu%.cu}
  "$nvcc" -arch=sm_80 -ptx "$cu" -o "$out/$base.ptx"
done
# line information (.file/.loc) and a full debug build (-G: .section .debug_*)
"$nvcc" -arch=sm_80 -ptx -lineinfo vecadd.cu -o "$out/vecadd-lineinfo.ptx"
"$nvcc" -arch=sm_80 -ptx -lineinfo control.cu -o "$out/control-lineinfo.ptx"
"$nvcc" -arch=sm_80 -ptx -G calls.cu -o "$out/calls-debug.ptx"
"$nvcc" -arch=sm_80 -ptx -G vecadd.cu -o "$out/vecadd-debug.ptx"
# the absolute source directory in .file lines makes fixtures machine-specific
sed -i "s|$src/||g" "$out"/*.ptx
echo "generated: $(ls "$out"/*.ptx | wc -l) files"
