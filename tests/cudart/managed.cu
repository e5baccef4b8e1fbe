// __managed__ variables: the host reaches them through a pointer the
// runtime sets when the module loads (__cudaRegisterManagedVar +
// __cudaInitModule).
#include <cstdio>
__managed__ int m_counter;
__managed__ float m_values[4];

__global__ void bump(int n) {
  atomicAdd(&m_counter, n);
  if (threadIdx.x < 4)
    m_values[threadIdx.x] *= 2.0f;
}

int main() {
  m_counter = 100;
  for (int i = 0; i < 4; i++) m_values[i] = i + 0.5f;
  bump<<<2, 32>>>(1);
  cudaError_t e = cudaDeviceSynchronize();
  printf("sync=%d counter=%d values=%g,%g\n", (int) e, m_counter, m_values[0], m_values[3]);
  return e != cudaSuccess;
}
