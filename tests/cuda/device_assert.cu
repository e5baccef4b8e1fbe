/* device_assert: assert() in device code.
 *
 * One thread of one block fails an assertion.  On a GPU the device prints
 * "...: block: [b,0,0], thread: [t,0,0] Assertion `...` failed." and the next
 * synchronisation returns cudaErrorAssert (sticky).  The program expects that
 * error, prints it, and passes.
 */
#include <cassert>
#include <cstdio>
#include <cuda_runtime.h>

__global__ void check_values(const int *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    assert(v[i] >= 0);
}

int main() {
  const int n = 128;
  int h[n], *d;
  for (int i = 0; i < n; i++) h[i] = i;
  h[77] = -1; /* block 1, thread 13 */
  if (cudaMalloc(&d, sizeof h) != cudaSuccess ||
      cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice) != cudaSuccess) {
    printf("FAILED: setup\n");
    return 1;
  }
  check_values<<<2, 64>>>(d, n / 2); /* only the valid first half */
  cudaError_t e = cudaDeviceSynchronize();
  if (e != cudaSuccess) {
    printf("FAILED: a kernel whose assertions hold returned %s\n", cudaGetErrorName(e));
    return 1;
  }
  check_values<<<2, 64>>>(d, n);
  cudaError_t launch = cudaGetLastError();
  if (launch != cudaSuccess && launch != cudaErrorAssert) {
    printf("FAILED: cudaGetLastError after the launch returned %s\n", cudaGetErrorName(launch));
    return 1;
  }
  e = cudaDeviceSynchronize();
  if (e != cudaErrorAssert) {
    printf("FAILED: cudaDeviceSynchronize returned %s (%s), expected cudaErrorAssert\n",
           cudaGetErrorName(e), cudaGetErrorString(e));
    return 1;
  }
  printf("expected error: %s: %s\n", cudaGetErrorName(e), cudaGetErrorString(e));
  printf("PASSED\n");
  return 0;
}
