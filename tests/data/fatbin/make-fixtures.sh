#!/bin/sh
# Regenerates the fatbinary fixtures of tests/fatbin from fixture.cu and
# rdc_*.cu with nvcc 13 (run from this directory; needs nvcc and objcopy).
# Each .fatbin is the raw .nv_fatbin section of a program built with
# -cudart shared; the rdc pair is the device-linked section plus the
# __nv_relfatbin section holding the relocatable objects' PTX.
set -eu
NVCC=${NVCC:-nvcc}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ptx80='-gencode arch=compute_80,code=[compute_80,sm_80]'

section () { objcopy -O binary --only-section="$2" "$1" "$3"; }

$NVCC -cudart shared $ptx80 --compress-mode=none -o "$tmp/plain" fixture.cu
section "$tmp/plain" .nv_fatbin plain.fatbin
$NVCC -cudart shared $ptx80 -o "$tmp/zstd" fixture.cu
section "$tmp/zstd" .nv_fatbin zstd.fatbin
$NVCC -cudart shared $ptx80 --compress-mode=speed -o "$tmp/lz4" fixture.cu
section "$tmp/lz4" .nv_fatbin lz4.fatbin
$NVCC -cudart shared -gencode arch=compute_80,code=sm_80 -o "$tmp/sass" fixture.cu
section "$tmp/sass" .nv_fatbin sass-only.fatbin
$NVCC -cudart shared -gencode arch=compute_75,code=compute_75 \
  -gencode arch=compute_80,code=[compute_80,sm_80] -gencode arch=compute_90,code=compute_90 \
  -o "$tmp/multi" fixture.cu
section "$tmp/multi" .nv_fatbin multi-arch.fatbin
$NVCC -cudart shared -rdc=true $ptx80 -o "$tmp/rdc" rdc_a.cu rdc_b.cu
section "$tmp/rdc" .nv_fatbin rdc-linked.fatbin
section "$tmp/rdc" __nv_relfatbin rdc-prelinked.fatbin
# The PTX nvcc embeds for compute_80, to compare decoded payloads with.
$NVCC -ptx -arch=compute_80 -o fixture.ptx fixture.cu
