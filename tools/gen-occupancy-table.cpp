// gen-occupancy-table: writes the expected-occupancy table that
// tests/occupancy checks Warpscope's calculator against, computed by
// NVIDIA's own cuda_occupancy.h (shipped with the CUDA toolkit).
//
// Build and run (from the repository root):
//   g++ -O1 -I/usr/local/cuda/include tools/gen-occupancy-table.cpp -o /tmp/gen-occ
//   /tmp/gen-occ > tests/data/occupancy/nvidia-occupancy.csv
//
// Device properties per compute capability are NVIDIA's published limits
// (CUDA C++ Programming Guide, "Technical Specifications per Compute
// Capability"; cudaDeviceProp of V100, A100, RTX 3090, RTX 4090, H100).
// Shared memory above the default 48 KiB per block is requested with the
// opt-in attribute, as a kernel would with cudaFuncSetAttribute.
#include <cuda_occupancy.h>
#include <cstdio>

struct Cc {
  int major, minor;
  int threads_per_sm, blocks_per_sm_unused, regs_per_sm, regs_per_block;
  size_t smem_per_sm, smem_per_block, smem_optin, smem_reserved;
};

static const Cc ccs[] = {
  { 7, 0, 2048, 32, 65536, 65536,  98304, 49152,  98304,    0 },
  { 8, 0, 2048, 32, 65536, 65536, 167936, 49152, 166912, 1024 },
  { 8, 6, 1536, 16, 65536, 65536, 102400, 49152, 101376, 1024 },
  { 8, 9, 1536, 24, 65536, 65536, 102400, 49152, 101376, 1024 },
  { 9, 0, 2048, 32, 65536, 65536, 233472, 49152, 232448, 1024 },
};

int main() {
  const int block_sizes[] = { 32, 64, 96, 128, 160, 192, 256, 320, 384, 512, 640, 768, 1024 };
  const int regs[] = { 0, 16, 24, 32, 40, 48, 56, 64, 72, 96, 128, 168, 200, 255 };
  const int smems[] = { 0, 1000, 4096, 12288, 24000, 49152, 65536, 100000, 160000, 230000 };
  std::printf("# cc,threads_per_sm,regs_per_sm,regs_per_block,smem_per_sm,smem_per_block,smem_optin,smem_reserved\n");
  for (const Cc &c : ccs)
    std::printf("#device,%d.%d,%d,%d,%d,%zu,%zu,%zu,%zu\n", c.major, c.minor, c.threads_per_sm,
                c.regs_per_sm, c.regs_per_block, c.smem_per_sm, c.smem_per_block, c.smem_optin, c.smem_reserved);
  std::printf("cc,block_size,regs,smem,blocks_per_sm,limiting_factors\n");
  for (const Cc &c : ccs)
    for (int bs : block_sizes)
      for (int r : regs)
        for (int sm : smems) {
          cudaOccDeviceProp prop;
          prop.computeMajor = c.major;
          prop.computeMinor = c.minor;
          prop.maxThreadsPerBlock = 1024;
          prop.maxThreadsPerMultiprocessor = c.threads_per_sm;
          prop.regsPerBlock = c.regs_per_block;
          prop.regsPerMultiprocessor = c.regs_per_sm;
          prop.warpSize = 32;
          prop.sharedMemPerBlock = c.smem_per_block;
          prop.sharedMemPerMultiprocessor = c.smem_per_sm;
          prop.numSms = 80;
          prop.sharedMemPerBlockOptin = c.smem_optin;
          prop.reservedSharedMemPerBlock = c.smem_reserved;
          cudaOccFuncAttributes attr;
          attr.maxThreadsPerBlock = 1024;
          attr.numRegs = r;
          attr.sharedSizeBytes = 0;
          attr.partitionedGCConfig = PARTITIONED_GC_OFF;
          attr.shmemLimitConfig = FUNC_SHMEM_LIMIT_OPTIN;
          attr.maxDynamicSharedSizeBytes = c.smem_optin;
          attr.numBlockBarriers = 1;
          cudaOccDeviceState state;
          cudaOccResult res;
          cudaOccError e = cudaOccMaxActiveBlocksPerMultiprocessor(&res, &prop, &attr, &state, bs, sm);
          if (e != CUDA_OCC_SUCCESS) {
            std::printf("%d.%d,%d,%d,%d,error,%d\n", c.major, c.minor, bs, r, sm, (int) e);
            continue;
          }
          std::printf("%d.%d,%d,%d,%d,%d,%u\n", c.major, c.minor, bs, r, sm,
                      res.activeBlocksPerMultiprocessor, res.limitingFactors);
        }
  return 0;
}
