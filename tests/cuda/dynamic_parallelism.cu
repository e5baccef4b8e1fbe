/* dynamic_parallelism: kernels launched from the device (CUDA dynamic
 * parallelism, built with -rdc=true).
 *
 *  - a parent launches one child grid per thread with <<<>>> in device code;
 *    the children launch grandchildren (three levels), each level writing
 *    its own part of the output;
 *  - children get arguments by value (an int, a pointer, a struct);
 *  - device cudaGetLastError after the launches is cudaSuccess;
 *  - device printf of a %s string held in a thread's local array;
 *  - the host sees every level's results after cudaDeviceSynchronize.
 */
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
  printf("FAILED: %s: %s\n", #call, cudaGetErrorString(e_)); exit(1); } } while (0)

struct Span { int begin, count, depth; };

__global__ void fill(int *out, Span s, int *errors) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < s.count)
    out[s.begin + i] += (s.depth + 1) * 1000 + i;
  if (s.depth < 2 && i == 0) {
    /* split the span in two and go one level deeper */
    Span a = { s.begin, s.count / 2, s.depth + 1 }, b = { s.begin + s.count / 2, s.count - s.count / 2, s.depth + 1 };
    fill<<<(a.count + 31) / 32, 32>>>(out, a, errors);
    fill<<<(b.count + 31) / 32, 32>>>(out, b, errors);
    if (cudaGetLastError() != cudaSuccess)
      atomicAdd(errors, 1);
  }
}

__global__ void parent(int *out, int per_thread, int *errors) {
  Span s = { (int) threadIdx.x * per_thread, per_thread, 0 };
  fill<<<(per_thread + 31) / 32, 32>>>(out, s, errors);
  if (cudaGetLastError() != cudaSuccess)
    atomicAdd(errors, 1);
  if (threadIdx.x == 0) {
    char tag[8];
    for (int k = 0; k < 3; k++) tag[k] = 'a' + k;
    tag[3] = 0;
    printf("parent %s launched %d children\n", tag, (int) blockDim.x);
  }
}

int main() {
  const int threads = 4, per = 40, n = threads * per;
  int *d_out, *d_err;
  CHECK(cudaMalloc(&d_out, n * sizeof(int)));
  CHECK(cudaMalloc(&d_err, sizeof(int)));
  CHECK(cudaMemset(d_out, 0, n * sizeof(int)));
  CHECK(cudaMemset(d_err, 0, sizeof(int)));
  parent<<<1, threads>>>(d_out, per, d_err);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  int out[n], err;
  CHECK(cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&err, d_err, sizeof err, cudaMemcpyDeviceToHost));
  int bad = err != 0;
  if (err) printf("FAILED: %d device-side launch errors\n", err);
  /* the host's model of the same recursion */
  int want[n] = { 0 };
  struct { int b, c, d; } stack[64];
  int sp = 0;
  for (int t = 0; t < threads; t++) stack[sp++] = { t * per, per, 0 };
  while (sp) {
    auto s = stack[--sp];
    for (int i = 0; i < s.c; i++) want[s.b + i] += (s.d + 1) * 1000 + i;
    if (s.d < 2) {
      stack[sp++] = { s.b, s.c / 2, s.d + 1 };
      stack[sp++] = { s.b + s.c / 2, s.c - s.c / 2, s.d + 1 };
    }
  }
  for (int i = 0; i < n; i++)
    if (out[i] != want[i]) {
      if (bad++ < 5) printf("FAILED: out[%d] = %d, expected %d\n", i, out[i], want[i]);
    }
  if (bad) return 1;
  printf("PASSED\n");
  return 0;
}
