/* cooperative_grid: cooperative launches and grid-wide synchronisation.
 *
 *  - cudaDevAttrCooperativeLaunch is 1;
 *  - cudaLaunchCooperativeKernel with as many blocks as fit at once, and a
 *    kernel that runs three phases separated by cooperative groups'
 *    grid.sync() (each phase reads what other blocks wrote in the previous);
 *  - the same through cudaLaunchKernelEx with cudaLaunchAttributeCooperative;
 *  - a grid larger than the device holds at once is refused with
 *    cudaErrorCooperativeLaunchTooLarge (not sticky);
 *  - a block whose thread 0 polls for a late block while its other threads
 *    already wait at __syncthreads(): the barrier counts threads (Volta+),
 *    so no thread passes it before thread 0 has seen the late block's value.
 */
#include <cstdio>
#include <cstdlib>
#include <cooperative_groups.h>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

#define CHECK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
  printf("FAILED: %s: %s\n", #call, cudaGetErrorString(e_)); exit(1); } } while (0)

__global__ void phases(int *a, int *b, long long *total, int n) {
  cg::grid_group grid = cg::this_grid();
  int stride = gridDim.x * blockDim.x;
  for (int i = grid.thread_rank(); i < n; i += stride) a[i] = i;
  grid.sync();
  /* reverse neighbour: written by another block in phase 1 */
  for (int i = grid.thread_rank(); i < n; i += stride) b[i] = a[n - 1 - i] * 2;
  grid.sync();
  if (grid.thread_rank() == 0) {
    long long s = 0;
    for (int i = 0; i < n; i++) s += b[i];
    *total = s;
  }
}

/* Block 1 works a while, then publishes 42; thread 0 of block 0 polls for
 * it and shares it; every thread of block 0 must read 42 after the barrier. */
__global__ void late_block(volatile int *flag, int *seen, int spin) {
  __shared__ int shared_value;
  if (blockIdx.x == 1) {
    if (threadIdx.x == 0) {
      int x = 1;
      for (int i = 0; i < spin; i++) x = x * 3 + 1;
      flag[1] = x;
      __threadfence();
      flag[0] = 42;
    }
    return;
  }
  if (threadIdx.x == 0) {
    while (flag[0] != 42) { }
    shared_value = flag[0];
  }
  __syncthreads();
  seen[threadIdx.x] = shared_value;
}

int main() {
  int coop = 0, sms = 0, per_sm = 0;
  CHECK(cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, 0));
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  if (coop != 1) { printf("FAILED: cudaDevAttrCooperativeLaunch = %d\n", coop); return 1; }
  const int threads = 128, n = 5000;
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, phases, threads, 0));
  int *a, *b;
  long long *total, got = 0;
  CHECK(cudaMalloc(&a, n * sizeof(int)));
  CHECK(cudaMalloc(&b, n * sizeof(int)));
  CHECK(cudaMalloc(&total, sizeof(long long)));
  int nn = n;
  void *args[] = { &a, &b, &total, &nn };
  long long want = 0;
  for (int i = 0; i < n; i++) want += 2LL * (n - 1 - i);

  dim3 grid(sms * 2 < per_sm * sms ? sms * 2 : per_sm * sms);   /* fits at once */
  CHECK(cudaLaunchCooperativeKernel((void *) phases, grid, dim3(threads), args, 0, 0));
  CHECK(cudaMemcpy(&got, total, sizeof got, cudaMemcpyDeviceToHost));
  if (got != want) { printf("FAILED: cooperative kernel: %lld, expected %lld\n", got, want); return 1; }

  CHECK(cudaMemset(total, 0, sizeof(long long)));
  cudaLaunchConfig_t cfg = {};
  cudaLaunchAttribute attr;
  attr.id = cudaLaunchAttributeCooperative;
  attr.val.cooperative = 1;
  cfg.gridDim = dim3(3);
  cfg.blockDim = dim3(threads);
  cfg.attrs = &attr;
  cfg.numAttrs = 1;
  CHECK(cudaLaunchKernelEx(&cfg, phases, a, b, total, nn));
  CHECK(cudaMemcpy(&got, total, sizeof got, cudaMemcpyDeviceToHost));
  if (got != want) { printf("FAILED: cudaLaunchKernelEx cooperative: %lld, expected %lld\n", got, want); return 1; }

  cudaError_t e = cudaLaunchCooperativeKernel((void *) phases, dim3(per_sm * sms + 1), dim3(threads), args, 0, 0);
  if (e != cudaErrorCooperativeLaunchTooLarge) {
    printf("FAILED: too large a cooperative grid gave %s\n", cudaGetErrorName(e));
    return 1;
  }
  if (cudaGetLastError() != cudaErrorCooperativeLaunchTooLarge || cudaGetLastError() != cudaSuccess) {
    printf("FAILED: the refused launch should be the last error, once\n");
    return 1;
  }
  {
    int *flag, *seen, host[128];
    CHECK(cudaMalloc(&flag, 2 * sizeof(int)));
    CHECK(cudaMalloc(&seen, 128 * sizeof(int)));
    CHECK(cudaMemset(flag, 0, 2 * sizeof(int)));
    CHECK(cudaMemset(seen, 0, 128 * sizeof(int)));
    int spin = 200000;
    void *largs[] = { &flag, &seen, &spin };
    CHECK(cudaLaunchCooperativeKernel((void *) late_block, dim3(2), dim3(128), largs, 0, 0));
    CHECK(cudaMemcpy(host, seen, sizeof host, cudaMemcpyDeviceToHost));
    for (int i = 0; i < 128; i++)
      if (host[i] != 42) { printf("FAILED: late_block: thread %d read %d after the barrier\n", i, host[i]); return 1; }
    CHECK(cudaFree(flag));
    CHECK(cudaFree(seen));
  }
  CHECK(cudaFree(a));
  CHECK(cudaFree(b));
  CHECK(cudaFree(total));
  printf("PASSED\n");
  return 0;
}
