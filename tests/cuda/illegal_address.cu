/* illegal_address: a kernel that writes far outside any allocation.
 *
 * On a GPU this faults and the next synchronisation returns
 * cudaErrorIllegalAddress (a sticky error).  The program expects exactly that
 * error, prints it, and passes; the runtime should also have reported the
 * kernel, block, thread and address of the faulting access.
 */
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void good_kernel(int *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = i;
}

__global__ void bad_kernel(int *p, int n, long long offset) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = i;
  if (blockIdx.x == 1 && threadIdx.x == 7)
    p[offset] = 42; /* about 1 TiB past the allocation */
}

int main() {
  const int n = 256;
  int *d, h[n];
  cudaError_t e = cudaMalloc(&d, n * sizeof(int));
  if (e != cudaSuccess) {
    printf("FAILED: cudaMalloc: %s\n", cudaGetErrorString(e));
    return 1;
  }
  good_kernel<<<2, 128>>>(d, n);
  e = cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  if (e != cudaSuccess || h[200] != 200) {
    printf("FAILED: the valid kernel did not run: %s\n", cudaGetErrorString(e));
    return 1;
  }

  bad_kernel<<<2, 128>>>(d, n, 1LL << 38);
  /* The fault is asynchronous: cudaGetLastError may already report it (if
   * the kernel has finished) or return cudaSuccess; the synchronisation must
   * report it in any case, since the error is sticky. */
  cudaError_t launch = cudaGetLastError();
  if (launch != cudaSuccess && launch != cudaErrorIllegalAddress) {
    printf("FAILED: cudaGetLastError after the launch returned %s (%s)\n", cudaGetErrorName(launch),
           cudaGetErrorString(launch));
    return 1;
  }
  e = cudaDeviceSynchronize();
  if (e != cudaErrorIllegalAddress) {
    printf("FAILED: cudaDeviceSynchronize returned %s (%s), expected cudaErrorIllegalAddress\n",
           cudaGetErrorName(e), cudaGetErrorString(e));
    return 1;
  }
  printf("expected error: %s: %s\n", cudaGetErrorName(e), cudaGetErrorString(e));
  /* The error is sticky: later calls report it too. */
  e = cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  if (e == cudaSuccess) {
    printf("FAILED: cudaMemcpy after the fault succeeded; the error should be sticky\n");
    return 1;
  }
  printf("PASSED\n");
  return 0;
}
