// Kernel embedded in the fatbinary fixtures (see make-fixtures.sh).
__constant__ float scale[4];
__device__ int counter;

__global__ void scale_add(const float *a, float *b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    b[i] = a[i] * scale[i & 3] + b[i];
  if (i == 0)
    atomicAdd(&counter, n);
}

int main() {
  float *a = 0, *b = 0;
  cudaMalloc(&a, 1024);
  cudaMalloc(&b, 1024);
  scale_add<<<1, 256>>>(a, b, 256);
  return cudaDeviceSynchronize() != cudaSuccess;
}
