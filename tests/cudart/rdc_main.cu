// -rdc=true program, first unit: calls a __device__ function of the other
// unit; both units use printf (each has its own $str format strings).
#include <cstdio>
__device__ int scaled(int x);
__global__ void use_scaled(int *out) {
  out[threadIdx.x] = scaled(threadIdx.x);
  if (threadIdx.x == 0)
    printf("main unit: %d\n", out[0]);
}
void launch_lib(int *out);
int main() {
  int *d;
  cudaMalloc(&d, 32 * sizeof(int));
  use_scaled<<<1, 32>>>(d);
  launch_lib(d);
  int h[32];
  cudaError_t e = cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  printf("status=%d out5=%d out31=%d\n", (int) e, h[5], h[31]);
  return e != cudaSuccess;
}
