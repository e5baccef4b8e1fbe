// First translation unit of the -rdc=true fixture: calls a device function
// defined in rdc_b.cu.
__device__ int triple(int x);
__global__ void rdc_kernel_a(int *p) { p[threadIdx.x] = triple(threadIdx.x); }
void launch_a(int *p) { rdc_kernel_a<<<1, 32>>>(p); }
