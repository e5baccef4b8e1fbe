/* unsupported_api: calls an API a CPU runtime may not implement.
 *
 * Inter-process memory handles (cudaIpcGetMemHandle) are outside what
 * Warpscope's runtime supports (one process per emulated device).  The runtime must not pretend to succeed: either the call
 * returns an error (this program prints it and passes) or the runtime stops
 * the program with a message naming cudaIpcGetMemHandle (the test accepts that
 * too).  A silent cudaSuccess is a failure.  On a real GPU the call succeeds,
 * so this program is meant for the emulator only.
 */
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void touch(int *p) { p[threadIdx.x] = threadIdx.x; }

int main() {
  int *d;
  if (cudaMalloc(&d, 32 * sizeof(int)) != cudaSuccess) {
    printf("FAILED: cudaMalloc\n");
    return 1;
  }
  touch<<<1, 32>>>(d);
  if (cudaDeviceSynchronize() != cudaSuccess) {
    printf("FAILED: kernel before the unsupported call\n");
    return 1;
  }
  fflush(stdout);
  cudaIpcMemHandle_t handle;
  cudaError_t e = cudaIpcGetMemHandle(&handle, d);
  if (e == cudaSuccess) {
    printf("FAILED: cudaIpcGetMemHandle returned cudaSuccess\n");
    return 1;
  }
  printf("cudaIpcGetMemHandle returned %s: %s\n", cudaGetErrorName(e), cudaGetErrorString(e));
  printf("PASSED\n");
  return 0;
}
