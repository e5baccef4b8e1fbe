/* reduction: sum of N values, shared memory tree + warp shuffles.
 *
 * Each block loads two elements per thread (grid-stride), halves the active
 * threads through shared memory down to one warp, then finishes with
 * __shfl_down_sync.  Block partial sums are reduced again by the same kernel
 * until one value remains (several launches, shrinking grids).  The inputs
 * are small integers stored as floats so every partial sum is exact and the
 * result is independent of the summation order.
 *
 * Usage: reduction [N=300000] [blockSize=256]  (blockSize a power of two >= 64)
 * Work: about 10 * N thread instructions.
 */
#include "example-util.h"

__global__ void reduce_sum(const float *in, float *out, int n) {
  extern __shared__ float sdata[];
  unsigned tid = threadIdx.x;
  unsigned stride = 2u * blockDim.x * gridDim.x;
  float sum = 0.0f;
  for (unsigned i = blockIdx.x * 2u * blockDim.x + tid; i < (unsigned) n; i += stride) {
    sum += in[i];
    if (i + blockDim.x < (unsigned) n)
      sum += in[i + blockDim.x];
  }
  sdata[tid] = sum;
  __syncthreads();

  for (unsigned s = blockDim.x / 2; s >= 32; s >>= 1) {
    if (tid < s)
      sdata[tid] = sum = sum + sdata[tid + s];
    __syncthreads();
  }
  if (tid < 32) {
    for (int offset = 16; offset > 0; offset >>= 1)
      sum += __shfl_down_sync(0xffffffffu, sum, offset);
    if (tid == 0)
      out[blockIdx.x] = sum;
  }
}

int main(int argc, char **argv) {
  int n = (int) arg_long(argc, argv, 1, 300000, 1, 1 << 21);
  int block = (int) arg_long(argc, argv, 2, 256, 64, 1024);
  if (block & (block - 1)) {
    printf("FAILED: blockSize %d is not a power of two\n", block);
    return 2;
  }

  float *h = (float *) host_alloc((size_t) n * sizeof(float));
  uint64_t seed = 5;
  long long want = 0;
  for (int i = 0; i < n; i++) {
    int v = (int) lcg_below(&seed, 17) - 8; /* [-8, 8]: partial sums stay exact */
    h[i] = (float) v;
    want += v;
  }

  /* At most 64 blocks per pass: the first pass uses a grid-stride loop, later
   * passes reduce the partial sums. */
  float *d_in, *d_a, *d_b;
  CHECK(cudaMalloc(&d_in, (size_t) n * sizeof(float)));
  CHECK(cudaMalloc(&d_a, 1024 * sizeof(float)));
  CHECK(cudaMalloc(&d_b, 1024 * sizeof(float)));
  CHECK(cudaMemcpy(d_in, h, (size_t) n * sizeof(float), cudaMemcpyHostToDevice));

  const float *src = d_in;
  float *dst = d_a;
  int remaining = n, launches = 0;
  while (1) {
    int blocks = (remaining + 2 * block - 1) / (2 * block);
    if (blocks > 64) blocks = 64;
    reduce_sum<<<blocks, block, block * sizeof(float)>>>(src, dst, remaining);
    CHECK_LAUNCH("reduce_sum");
    launches++;
    remaining = blocks;
    if (remaining == 1) break;
    src = dst;
    dst = (dst == d_a) ? d_b : d_a;
  }
  float got;
  CHECK(cudaMemcpy(&got, dst, sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaFree(d_in));
  CHECK(cudaFree(d_a));
  CHECK(cudaFree(d_b));
  free(h);

  if ((double) got != (double) want) {
    printf("FAILED: sum = %.1f, expected %lld\n", got, want);
    return 1;
  }
  printf("reduction: N=%d sum=%lld launches=%d\n", n, want, launches);
  printf("PASSED\n");
  return 0;
}
