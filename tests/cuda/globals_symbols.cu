/* globals_symbols: __device__ and __constant__ variables with initialisers,
 * read and written from kernels and through cudaMemcpyToSymbol /
 * cudaMemcpyFromSymbol (with offsets), including arrays, structs and a
 * variable that keeps its value across launches.
 */
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
  printf("FAILED: %s: %s\n", #call, cudaGetErrorString(e_)); exit(1); } } while (0)

struct Params {
  int scale;
  float bias;
  double weights[3];
  char tag[8];
};

__constant__ int c_table[8] = {1, 2, 3, 5, 8, 13, 21, 34};
__constant__ Params c_params = {3, 0.5f, {0.25, 0.5, 0.125}, "const"};
__constant__ float c_coeffs[16]; /* zero-initialised, set from the host */
__device__ int d_counter = 100;
__device__ unsigned long long d_big = 0x123456789abcdefULL;
__device__ float d_array[5] = {1.5f, -2.5f, 3.25f, 0.0f, 7.0f};
__device__ short d_shorts[4] = {-1, 2, -3, 4};
__device__ double d_result[4];

__global__ void use_constants(int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = c_table[i % 8] * c_params.scale + (int) c_coeffs[i % 16];
}

__global__ void use_globals() {
  /* One thread: d_counter is a plain read-modify-write. */
  d_counter += 1;
  d_big ^= 0xffULL;
  double s = 0.0;
  for (int i = 0; i < 5; i++) s += d_array[i];
  d_result[0] = s;
  d_result[1] = c_params.weights[0] + c_params.weights[1] + c_params.weights[2];
  d_result[2] = c_params.bias + d_shorts[0] + d_shorts[1] + d_shorts[2] + d_shorts[3];
  d_result[3] = c_params.tag[0] == 'c' && c_params.tag[4] == 't' && c_params.tag[5] == 0;
}

int main() {
  /* Host writes part of a constant array, with an offset. */
  float coeffs[16];
  for (int i = 0; i < 16; i++) coeffs[i] = (float) (i * 10);
  CHECK(cudaMemcpyToSymbol(c_coeffs, coeffs, sizeof coeffs));
  float four[4] = {1000.f, 2000.f, 3000.f, 4000.f};
  CHECK(cudaMemcpyToSymbol(c_coeffs, four, sizeof four, 4 * sizeof(float)));
  for (int i = 0; i < 4; i++) coeffs[4 + i] = four[i];

  const int n = 100;
  int *d_out, out[n];
  CHECK(cudaMalloc(&d_out, sizeof out));
  use_constants<<<(n + 31) / 32, 32>>>(d_out, n);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost));
  const int table[8] = {1, 2, 3, 5, 8, 13, 21, 34};
  for (int i = 0; i < n; i++)
    if (out[i] != table[i % 8] * 3 + (int) coeffs[i % 16]) {
      printf("FAILED: use_constants[%d] = %d, expected %d\n", i, out[i],
             table[i % 8] * 3 + (int) coeffs[i % 16]);
      return 1;
    }

  use_globals<<<1, 1>>>();
  CHECK(cudaGetLastError());
  use_globals<<<1, 1>>>(); /* the counter persists between launches */
  CHECK(cudaGetLastError());
  int counter;
  unsigned long long big;
  double result[4];
  CHECK(cudaMemcpyFromSymbol(&counter, d_counter, sizeof counter));
  CHECK(cudaMemcpyFromSymbol(&big, d_big, sizeof big));
  CHECK(cudaMemcpyFromSymbol(result, d_result, sizeof result));
  if (counter != 102) { printf("FAILED: d_counter = %d, expected 102\n", counter); return 1; }
  if (big != 0x123456789abcdefULL) { printf("FAILED: d_big = %llx\n", big); return 1; }
  if (result[0] != 9.25) { printf("FAILED: sum of d_array = %g, expected 9.25\n", result[0]); return 1; }
  if (result[1] != 0.875) { printf("FAILED: weights sum = %g, expected 0.875\n", result[1]); return 1; }
  if (result[2] != 2.5) { printf("FAILED: bias + shorts = %g, expected 2.5\n", result[2]); return 1; }
  if (result[3] != 1.0) { printf("FAILED: constant string tag not initialised\n"); return 1; }

  /* Partial read with an offset and a write to a __device__ array. */
  float tail[2];
  CHECK(cudaMemcpyFromSymbol(tail, d_array, sizeof tail, 3 * sizeof(float)));
  if (tail[0] != 0.0f || tail[1] != 7.0f) {
    printf("FAILED: d_array[3..4] = %g %g, expected 0 7\n", tail[0], tail[1]);
    return 1;
  }
  float repl[5] = {1, 1, 1, 1, 1};
  CHECK(cudaMemcpyToSymbol(d_array, repl, sizeof repl));
  CHECK(cudaMemcpyToSymbol(d_counter, &counter, sizeof counter)); /* unchanged value */
  use_globals<<<1, 1>>>();
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpyFromSymbol(result, d_result, sizeof result));
  CHECK(cudaMemcpyFromSymbol(&counter, d_counter, sizeof counter));
  if (result[0] != 5.0 || counter != 103) {
    printf("FAILED: after cudaMemcpyToSymbol: sum %g counter %d, expected 5 and 103\n",
           result[0], counter);
    return 1;
  }
  CHECK(cudaFree(d_out));
  printf("PASSED\n");
  return 0;
}
