/* runtime_api: runtime entry points beyond <<<>>> and cudaMemcpy.
 *
 *  - cudaLaunchKernel with an argument array, cudaLaunchKernelEx (which
 *    calls cudaLaunchKernelExC) with a cudaLaunchConfig_t;
 *  - launch configuration errors: too many threads per block and too much
 *    shared memory give cudaErrorInvalidConfiguration / InvalidValue from
 *    cudaGetLastError, which clears them (not sticky), while
 *    cudaPeekAtLastError does not clear;
 *  - cudaGetErrorName / cudaGetErrorString;
 *  - cudaMemset patterns, device-to-device cudaMemcpy, cudaMemcpyAsync with
 *    the default stream and cudaStreamSynchronize(0), cudaFree(NULL);
 *  - the program keeps working after the recoverable errors.
 */
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>

#define CHECK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
  printf("FAILED: %s: %s\n", #call, cudaGetErrorString(e_)); exit(1); } } while (0)

__global__ void axpb(float *y, const float *x, float a, float b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + b;
}

__global__ void big_shared(int *out) {
  extern __shared__ int s[];
  s[threadIdx.x] = threadIdx.x;
  __syncthreads();
  out[threadIdx.x] = s[blockDim.x - 1 - threadIdx.x];
}

static int expect_close(const char *what, const float *y, const float *x, float a, float b, int n) {
  for (int i = 0; i < n; i++) {
    float want = a * x[i] + b; /* exact: small binary fractions */
    if (y[i] != want) {
      printf("FAILED: %s: y[%d] = %g, expected %g\n", what, i, y[i], want);
      return 1;
    }
  }
  return 0;
}

int main() {
  const int n = 1000;
  float x[n], y[n], *d_x, *d_y, *d_z;
  for (int i = 0; i < n; i++) x[i] = (float) (i % 64) * 0.5f;
  CHECK(cudaMalloc(&d_x, sizeof x));
  CHECK(cudaMalloc(&d_y, sizeof y));
  CHECK(cudaMalloc(&d_z, sizeof y));
  CHECK(cudaMemcpy(d_x, x, sizeof x, cudaMemcpyHostToDevice));

  /* cudaLaunchKernel with an argument array. */
  float a = 2.0f, b = -1.5f;
  int nn = n;
  void *args[] = {&d_y, &d_x, &a, &b, &nn};
  CHECK(cudaLaunchKernel((const void *) axpb, dim3((n + 127) / 128), dim3(128), args, 0, 0));
  CHECK(cudaMemcpy(y, d_y, sizeof y, cudaMemcpyDeviceToHost));
  if (expect_close("cudaLaunchKernel", y, x, a, b, n)) return 1;

  /* cudaLaunchKernelEx (C++ wrapper of cudaLaunchKernelExC). */
  cudaLaunchConfig_t cfg;
  memset(&cfg, 0, sizeof cfg);
  cfg.gridDim = dim3((n + 255) / 256);
  cfg.blockDim = dim3(256);
  cfg.dynamicSmemBytes = 0;
  cfg.stream = 0;
  cfg.attrs = NULL;
  cfg.numAttrs = 0;
  CHECK(cudaLaunchKernelEx(&cfg, axpb, d_z, (const float *) d_x, 0.5f, 3.0f, n));
  CHECK(cudaMemcpy(y, d_z, sizeof y, cudaMemcpyDeviceToHost));
  if (expect_close("cudaLaunchKernelEx", y, x, 0.5f, 3.0f, n)) return 1;

  /* Invalid configuration: 2048 threads per block. */
  axpb<<<1, 2048>>>(d_y, d_x, 1.0f, 0.0f, n);
  cudaError_t peek = cudaPeekAtLastError();
  cudaError_t e = cudaGetLastError();
  if (peek != cudaErrorInvalidConfiguration || e != cudaErrorInvalidConfiguration) {
    printf("FAILED: 2048 threads per block: peek %s, last %s, expected cudaErrorInvalidConfiguration\n",
           cudaGetErrorName(peek), cudaGetErrorName(e));
    return 1;
  }
  if (cudaGetLastError() != cudaSuccess) {
    printf("FAILED: cudaGetLastError did not clear the launch error\n");
    return 1;
  }
  if (strcmp(cudaGetErrorName(cudaErrorInvalidConfiguration), "cudaErrorInvalidConfiguration") != 0 ||
      strlen(cudaGetErrorString(cudaErrorInvalidConfiguration)) == 0 ||
      strcmp(cudaGetErrorName(cudaSuccess), "cudaSuccess") != 0) {
    printf("FAILED: cudaGetErrorName/String\n");
    return 1;
  }

  /* Too much dynamic shared memory without the opt-in. */
  int *d_o;
  CHECK(cudaMalloc(&d_o, 256 * sizeof(int)));
  big_shared<<<1, 256, 200 * 1024>>>(d_o);
  e = cudaGetLastError();
  if (e == cudaSuccess) {
    e = cudaDeviceSynchronize();
    printf("FAILED: a launch with 200 KiB of dynamic shared memory succeeded (sync: %s)\n",
           cudaGetErrorName(e));
    return 1;
  }
  printf("oversized shared memory launch: %s\n", cudaGetErrorName(e));
  /* The context is still usable: the same kernel with a legal size. */
  big_shared<<<1, 256, 256 * sizeof(int)>>>(d_o);
  CHECK(cudaGetLastError());
  int o[256];
  CHECK(cudaMemcpy(o, d_o, sizeof o, cudaMemcpyDeviceToHost));
  for (int i = 0; i < 256; i++)
    if (o[i] != 255 - i) {
      printf("FAILED: big_shared[%d] = %d after the failed launch\n", i, o[i]);
      return 1;
    }

  /* Memset patterns, device-to-device copies, async copies on stream 0. */
  unsigned char bytes[4096];
  unsigned char *d_bytes;
  CHECK(cudaMalloc(&d_bytes, sizeof bytes));
  CHECK(cudaMemset(d_bytes, 0x5a, sizeof bytes));
  CHECK(cudaMemset(d_bytes + 100, 0xc3, 17));
  CHECK(cudaMemcpy(d_z, d_y, sizeof y, cudaMemcpyDeviceToDevice));
  float *h_pinned;
  CHECK(cudaMallocHost(&h_pinned, sizeof y));
  CHECK(cudaMemcpyAsync(h_pinned, d_z, sizeof y, cudaMemcpyDeviceToHost, 0));
  CHECK(cudaMemcpyAsync(bytes, d_bytes, sizeof bytes, cudaMemcpyDefault, 0));
  CHECK(cudaStreamSynchronize(0));
  for (int i = 0; i < 4096; i++) {
    unsigned char want = (i >= 100 && i < 117) ? 0xc3 : 0x5a;
    if (bytes[i] != want) {
      printf("FAILED: memset byte %d = 0x%02x, expected 0x%02x\n", i, bytes[i], want);
      return 1;
    }
  }
  if (expect_close("device-to-device copy", h_pinned, x, 2.0f, -1.5f, n)) return 1;

  CHECK(cudaFree(NULL));
  CHECK(cudaFreeHost(h_pinned));
  CHECK(cudaFree(d_x)); CHECK(cudaFree(d_y)); CHECK(cudaFree(d_z));
  CHECK(cudaFree(d_o)); CHECK(cudaFree(d_bytes));
  CHECK(cudaDeviceSynchronize());
  printf("PASSED\n");
  return 0;
}
