// Second translation unit of the -rdc=true fixture.
__device__ int triple(int x) { return 3 * x; }
__global__ void rdc_kernel_b(int *p) { p[threadIdx.x] += 1; }
void launch_a(int *p);
int main() {
  int *p = 0;
  cudaMalloc(&p, 128);
  launch_a(p);
  rdc_kernel_b<<<1, 32>>>(p);
  return cudaDeviceSynchronize() != cudaSuccess;
}
