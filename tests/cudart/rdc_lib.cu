// -rdc=true program, second unit: defines scaled() and total.
#include <cstdio>
__device__ int total;
static __device__ int unit_value;
__device__ int scaled(int x) { return 3 * x + 1; }
__global__ void add_one(int *out) {
  out[threadIdx.x] += 1;
  atomicAdd(&total, 1000);
  unit_value = 7;
  if (threadIdx.x == 0)
    printf("lib unit: %d\n", out[0]);
}
void launch_lib(int *out) {
  add_one<<<1, 2>>>(out);
  int v = 0;
  cudaMemcpyFromSymbol(&v, unit_value, sizeof v);
  printf("lib_value=%d\n", v);
}
