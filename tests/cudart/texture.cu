// One kernel with an instruction the emulator does not implement (a
// texture gather, tld4) in a module with a __managed__ variable and a kernel that
// runs: the module loads, the managed variable is reachable from the host,
// only the texture kernel's launch fails (non-sticky), the other kernel
// runs before and after it.
#include <cstdio>
#include <cuda_runtime.h>

__managed__ int m_counter;

__global__ void count_kernel(int n) { atomicAdd(&m_counter, n); }

__global__ void fetch_kernel(cudaTextureObject_t tex, float *out) {
  float r, g, b, a, x = (float) threadIdx.x;
  asm volatile("tld4.r.2d.v4.f32.f32 {%0, %1, %2, %3}, [%4, {%5, %6}];"
               : "=f"(r), "=f"(g), "=f"(b), "=f"(a) : "l"(tex), "f"(x), "f"(x));
  out[threadIdx.x] = r + g + b + a;
}

int main() {
  m_counter = 10;
  count_kernel<<<1, 32>>>(1);
  printf("first=%d counter=%d\n", (int) cudaDeviceSynchronize(), m_counter);
  float *out = nullptr;
  cudaMalloc(&out, 32 * sizeof(float));
  // (No texture object is created: the launch is refused before it runs.)
  fetch_kernel<<<1, 32>>>((cudaTextureObject_t) 0, out);
  printf("fetch=%d\n", (int) cudaGetLastError());
  count_kernel<<<2, 32>>>(2);
  printf("second=%d counter=%d\n", (int) cudaDeviceSynchronize(), m_counter);
  return 0;
}
