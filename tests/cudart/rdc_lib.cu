// -rdc=true program, second unit.
#include <cstdio>
__device__ int scaled(int x) { return 3 * x + 1; }
__global__ void add_one(int *out) {
  out[threadIdx.x] += 1;
  if (threadIdx.x == 0)
    printf("lib unit: %d\n", out[0]);
}
void launch_lib(int *out) { add_one<<<1, 32>>>(out); }
