// -rdc=true program, first unit: calls a __device__ function of the other
// unit, adds to an extern __device__ variable the other unit defines; both
// units use printf (each has its own $str format strings) and a static
// __device__ variable of the same name.
#include <cstdio>
__device__ int scaled(int x);
extern __device__ int total;
static __device__ int unit_value;
__global__ void use_scaled(int *out) {
  out[threadIdx.x] = scaled(threadIdx.x);
  atomicAdd(&total, 10);
  unit_value = 5;
  if (threadIdx.x == 0)
    printf("main unit: %d\n", out[0]);
}
void launch_lib(int *out);
int main() {
  int *d;
  cudaMalloc(&d, 32 * sizeof(int));
  use_scaled<<<1, 32>>>(d);
  launch_lib(d);
  int h[32], t = 0, v = 0;
  cudaError_t e = cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  cudaMemcpyFromSymbol(&t, total, sizeof t);
  cudaMemcpyFromSymbol(&v, unit_value, sizeof v);
  printf("status=%d out5=%d out31=%d total=%d main_value=%d\n", (int) e, h[5], h[31], t, v);
  return e != cudaSuccess;
}
