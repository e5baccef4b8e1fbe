/* dynamic_shared: extern __shared__ arrays sized at launch.
 *
 *  - one dynamic array carved into an int and a double region;
 *  - a block-wide reversal through dynamic shared memory of several sizes;
 *  - static and dynamic shared memory in the same kernel;
 *  - a launch asking for more than 48 KiB after
 *    cudaFuncSetAttribute(cudaFuncAttributeMaxDynamicSharedMemorySize).
 */
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
  printf("FAILED: %s: %s\n", #call, cudaGetErrorString(e_)); exit(1); } } while (0)

__global__ void reverse(int *data, int n) {
  extern __shared__ int s[];
  int t = threadIdx.x;
  if (t < n) s[t] = data[blockIdx.x * n + t];
  __syncthreads();
  if (t < n) data[blockIdx.x * n + t] = s[n - 1 - t];
}

__global__ void carved(double *out, int ints) {
  extern __shared__ double dyn[]; /* double-aligned base */
  double *ds = dyn;
  int *is = (int *) (dyn + blockDim.x);
  __shared__ int fixed[32];
  int t = threadIdx.x;
  ds[t] = t * 0.5;
  for (int i = t; i < ints; i += blockDim.x) is[i] = i;
  if (t < 32) fixed[t] = 1000 + t;
  __syncthreads();
  int sum = 0;
  for (int i = 0; i < ints; i++) sum += is[i];
  out[blockIdx.x * blockDim.x + t] = ds[blockDim.x - 1 - t] + sum + fixed[t % 32];
}

__global__ void big_shared(unsigned *out, int words) {
  extern __shared__ unsigned big[];
  for (int i = threadIdx.x; i < words; i += blockDim.x) big[i] = i * 2654435761u;
  __syncthreads();
  unsigned x = 0;
  for (int i = threadIdx.x; i < words; i += blockDim.x) x ^= big[words - 1 - i];
  out[threadIdx.x] = x;
}

int main() {
  const int sizes[3] = {32, 100, 256};
  for (int k = 0; k < 3; k++) {
    int n = sizes[k], blocks = 3;
    int *h = (int *) malloc(blocks * n * sizeof(int)), *d;
    for (int i = 0; i < blocks * n; i++) h[i] = i * 7 + 1;
    CHECK(cudaMalloc(&d, blocks * n * sizeof(int)));
    CHECK(cudaMemcpy(d, h, blocks * n * sizeof(int), cudaMemcpyHostToDevice));
    reverse<<<blocks, n, n * sizeof(int)>>>(d, n);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(h, d, blocks * n * sizeof(int), cudaMemcpyDeviceToHost));
    for (int b = 0; b < blocks; b++)
      for (int t = 0; t < n; t++)
        if (h[b * n + t] != (b * n + n - 1 - t) * 7 + 1) {
          printf("FAILED: reverse n=%d block %d [%d] = %d\n", n, b, t, h[b * n + t]);
          return 1;
        }
    CHECK(cudaFree(d));
    free(h);
  }

  const int threads = 64, ints = 300, blocks = 2;
  double *d_out, out[blocks * threads];
  CHECK(cudaMalloc(&d_out, sizeof out));
  carved<<<blocks, threads, threads * sizeof(double) + ints * sizeof(int)>>>(d_out, ints);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost));
  for (int i = 0; i < blocks * threads; i++) {
    int t = i % threads;
    double want = (threads - 1 - t) * 0.5 + ints * (ints - 1) / 2 + 1000 + t % 32;
    if (out[i] != want) {
      printf("FAILED: carved[%d] = %g, expected %g\n", i, out[i], want);
      return 1;
    }
  }

  const int words = 20000; /* 80000 bytes: needs the opt-in */
  CHECK(cudaFuncSetAttribute(big_shared, cudaFuncAttributeMaxDynamicSharedMemorySize,
                             words * (int) sizeof(unsigned)));
  unsigned *d_x, x[128];
  CHECK(cudaMalloc(&d_x, sizeof x));
  big_shared<<<1, 128, words * sizeof(unsigned)>>>(d_x, words);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(x, d_x, sizeof x, cudaMemcpyDeviceToHost));
  for (int t = 0; t < 128; t++) {
    unsigned want = 0;
    for (int i = t; i < words; i += 128) want ^= (unsigned) (words - 1 - i) * 2654435761u;
    if (x[t] != want) {
      printf("FAILED: big_shared thread %d = %08x, expected %08x\n", t, x[t], want);
      return 1;
    }
  }
  CHECK(cudaFree(d_out));
  CHECK(cudaFree(d_x));
  printf("PASSED\n");
  return 0;
}
