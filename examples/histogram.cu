/* histogram: 256-bin byte histogram with atomics.
 *
 * Two kernels over the same skewed input (a few "hot" byte values, so atomic
 * updates contend):
 *   hist_global  - every thread atomicAdds straight into global memory;
 *   hist_shared  - each block builds a private histogram in shared memory with
 *                  shared-memory atomicAdd, then merges it into global memory
 *                  with one global atomicAdd per bin.
 * Both use grid-stride loops.  Integer counts are exact whatever the order.
 *
 * Usage: histogram [N=200000] [blocks=48] [blockSize=256]
 * Work: about 25 * N thread instructions.
 */
#include "example-util.h"

#define BINS 256

__global__ void hist_global(const unsigned char *data, int n, unsigned int *hist) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    atomicAdd(&hist[data[i]], 1u);
}

__global__ void hist_shared(const unsigned char *data, int n, unsigned int *hist) {
  __shared__ unsigned int local[BINS];
  for (int b = threadIdx.x; b < BINS; b += blockDim.x)
    local[b] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    atomicAdd(&local[data[i]], 1u);
  __syncthreads();
  for (int b = threadIdx.x; b < BINS; b += blockDim.x)
    if (local[b])
      atomicAdd(&hist[b], local[b]);
}

static int check(const char *what, const unsigned int *got, const unsigned int *want) {
  for (int b = 0; b < BINS; b++)
    if (got[b] != want[b]) {
      printf("FAILED: %s bin %d = %u, expected %u\n", what, b, got[b], want[b]);
      return 1;
    }
  return 0;
}

int main(int argc, char **argv) {
  int n = (int) arg_long(argc, argv, 1, 200000, 1, 1 << 28);
  int blocks = (int) arg_long(argc, argv, 2, 48, 1, 65535);
  int block = (int) arg_long(argc, argv, 3, 256, 32, 1024);

  unsigned char *data = (unsigned char *) host_alloc(n);
  unsigned int want[BINS] = {0}, got[BINS];
  uint64_t seed = 7;
  for (int i = 0; i < n; i++) {
    uint32_t r = lcg_next(&seed);
    /* One element in four is one of 4 hot values. */
    unsigned char v = (r & 3) == 0 ? (unsigned char) (0x40 + ((r >> 2) & 3))
                                   : (unsigned char) (r >> 8);
    data[i] = v;
    want[v]++;
  }

  unsigned char *d_data;
  unsigned int *d_hist;
  CHECK(cudaMalloc(&d_data, n));
  CHECK(cudaMalloc(&d_hist, BINS * sizeof(unsigned int)));
  CHECK(cudaMemcpy(d_data, data, n, cudaMemcpyHostToDevice));

  CHECK(cudaMemset(d_hist, 0, BINS * sizeof(unsigned int)));
  hist_global<<<blocks, block>>>(d_data, n, d_hist);
  CHECK_LAUNCH("hist_global");
  CHECK(cudaMemcpy(got, d_hist, sizeof got, cudaMemcpyDeviceToHost));
  if (check("hist_global", got, want)) return 1;

  CHECK(cudaMemset(d_hist, 0, BINS * sizeof(unsigned int)));
  hist_shared<<<blocks, block>>>(d_data, n, d_hist);
  CHECK_LAUNCH("hist_shared");
  CHECK(cudaMemcpy(got, d_hist, sizeof got, cudaMemcpyDeviceToHost));
  if (check("hist_shared", got, want)) return 1;

  CHECK(cudaFree(d_data));
  CHECK(cudaFree(d_hist));
  free(data);
  printf("histogram: N=%d blocks=%d blockSize=%d hottest bin count=%u\n",
         n, blocks, block, want[0x40]);
  printf("PASSED\n");
  return 0;
}
