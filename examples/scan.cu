/* scan: multi-block inclusive prefix sum of integers (warp-scan based).
 *
 * Level by level, as in the classic "scan then propagate" scheme:
 *   scan_blocks  - each 256-thread block scans 256 elements: a warp scan with
 *                  __shfl_up_sync, warp totals through shared memory scanned
 *                  by warp 0, then added back; the block total goes to an
 *                  auxiliary array;
 *   add_offsets  - block b > 0 adds the scanned total of blocks 0..b-1.
 * The auxiliary array is scanned recursively, so large inputs take several
 * levels (launches of shrinking size).
 *
 * Usage: scan [N=100000]
 * Work: about 85 * N thread instructions.
 */
#include "example-util.h"

#define BLOCK 256
#define WARPS (BLOCK / 32)

__global__ void scan_blocks(int *data, int n, int *block_sums) {
  __shared__ int warp_sums[WARPS];
  int i = blockIdx.x * BLOCK + threadIdx.x;
  int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  int v = i < n ? data[i] : 0;

  for (int off = 1; off < 32; off <<= 1) {
    int up = __shfl_up_sync(0xffffffffu, v, off);
    if (lane >= off)
      v += up;
  }
  if (lane == 31)
    warp_sums[warp] = v;
  __syncthreads();
  if (warp == 0) {
    int w = lane < WARPS ? warp_sums[lane] : 0;
    for (int off = 1; off < WARPS; off <<= 1) {
      int up = __shfl_up_sync(0xffffffffu, w, off);
      if (lane >= off)
        w += up;
    }
    if (lane < WARPS)
      warp_sums[lane] = w;
  }
  __syncthreads();
  if (warp > 0)
    v += warp_sums[warp - 1];
  if (i < n)
    data[i] = v;
  if (threadIdx.x == BLOCK - 1 && block_sums)
    block_sums[blockIdx.x] = v;
}

__global__ void add_offsets(int *data, int n, const int *scanned_sums) {
  int i = blockIdx.x * BLOCK + threadIdx.x;
  if (blockIdx.x > 0 && i < n)
    data[i] += scanned_sums[blockIdx.x - 1];
}

/* Scans d_data[0..n) in place; returns the number of launches. */
static int scan_device(int *d_data, int n) {
  int blocks = (n + BLOCK - 1) / BLOCK;
  if (blocks == 1) {
    scan_blocks<<<1, BLOCK>>>(d_data, n, NULL);
    CHECK_LAUNCH("scan_blocks");
    return 1;
  }
  int *d_sums;
  CHECK(cudaMalloc(&d_sums, blocks * sizeof(int)));
  scan_blocks<<<blocks, BLOCK>>>(d_data, n, d_sums);
  CHECK_LAUNCH("scan_blocks");
  int launches = 1 + scan_device(d_sums, blocks);
  add_offsets<<<blocks, BLOCK>>>(d_data, n, d_sums);
  CHECK_LAUNCH("add_offsets");
  CHECK(cudaFree(d_sums));
  return launches + 1;
}

int main(int argc, char **argv) {
  int n = (int) arg_long(argc, argv, 1, 100000, 1, 1 << 26);
  int *h = (int *) host_alloc((size_t) n * sizeof(int));
  int *got = (int *) host_alloc((size_t) n * sizeof(int));
  uint64_t seed = 31;
  for (int i = 0; i < n; i++) h[i] = (int) lcg_below(&seed, 10);

  int *d;
  CHECK(cudaMalloc(&d, (size_t) n * sizeof(int)));
  CHECK(cudaMemcpy(d, h, (size_t) n * sizeof(int), cudaMemcpyHostToDevice));
  int launches = scan_device(d, n);
  CHECK(cudaMemcpy(got, d, (size_t) n * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaFree(d));

  long long acc = 0; /* at most 9 * 2^26 < 2^31: fits the device's int */
  for (int i = 0; i < n; i++) {
    acc += h[i];
    if (got[i] != acc) {
      printf("FAILED: prefix[%d] = %d, expected %lld\n", i, got[i], acc);
      return 1;
    }
  }
  free(h); free(got);
  printf("scan: N=%d total=%lld launches=%d\n", n, acc, launches);
  printf("PASSED\n");
  return 0;
}
