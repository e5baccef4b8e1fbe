/* rdc_main: relocatable device code (nvcc -rdc=true) across two files.
 *
 * The kernel here calls a __device__ function defined in rdc_lib.cu, which
 * reads a __constant__ defined here and counts calls in a __device__
 * variable defined there.  The two files are compiled together with
 * -rdc=true, so the fatbinary holds relocatable code that the runtime must
 * link (issue 3: "-rdc=true relocatable fatbins").
 */
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
  printf("FAILED: %s: %s\n", #call, cudaGetErrorString(e_)); exit(1); } } while (0)

__constant__ float main_scale = 2.5f;
extern __device__ int lib_calls;
__device__ float lib_transform(float x, int i);

__global__ void apply(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = lib_transform(in[i], i);
}

int main() {
  const int n = 300;
  float in[n], out[n], *d_in, *d_out;
  for (int i = 0; i < n; i++) in[i] = (float) i * 0.25f;
  CHECK(cudaMalloc(&d_in, sizeof in));
  CHECK(cudaMalloc(&d_out, sizeof out));
  CHECK(cudaMemcpy(d_in, in, sizeof in, cudaMemcpyHostToDevice));
  apply<<<(n + 127) / 128, 128>>>(d_in, d_out, n);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost));
  int calls = 0;
  CHECK(cudaMemcpyFromSymbol(&calls, lib_calls, sizeof calls));
  for (int i = 0; i < n; i++) {
    float want = in[i] * 2.5f + (float) (i % 5); /* exact: quarter steps */
    if (out[i] != want) {
      printf("FAILED: out[%d] = %g, expected %g\n", i, out[i], want);
      return 1;
    }
  }
  if (calls != n) {
    printf("FAILED: lib_calls = %d, expected %d\n", calls, n);
    return 1;
  }
  CHECK(cudaFree(d_in));
  CHECK(cudaFree(d_out));
  printf("PASSED\n");
  return 0;
}
