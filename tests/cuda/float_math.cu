/* float_math: single and double precision math functions and intrinsics.
 *
 * Each result is compared with a double-precision host reference within the
 * error bound the CUDA Programming Guide documents for the function (in
 * ulps of the float result, or an absolute bound for the fast intrinsics),
 * plus exact checks for operations IEEE defines exactly (sqrt, division,
 * fma, rounding, conversions with explicit rounding modes).
 */
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <cfloat>
#include <cuda_runtime.h>

#define CHECK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
  printf("FAILED: %s: %s\n", #call, cudaGetErrorString(e_)); exit(1); } } while (0)

#define NF 30
#define ND 10

__global__ void float_ops(const float *xs, const float *ys, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float x = xs[i], y = ys[i];       /* x in (0.01, 10), y in (-4, 4) */
  float *o = out + i * NF;
  o[0] = sinf(y);
  o[1] = cosf(y);
  o[2] = expf(y);
  o[3] = logf(x);
  o[4] = powf(x, y);
  o[5] = sqrtf(x);
  o[6] = rsqrtf(x);
  o[7] = __fdividef(y, x);
  o[8] = __sinf(y);
  o[9] = __cosf(y);
  o[10] = __expf(y);
  o[11] = __logf(x);
  o[12] = x / y;
  o[13] = fmaf(x, y, 1.0f);
  o[14] = floorf(y * 3.3f) + ceilf(y * 1.7f) * 100.0f;
  o[15] = truncf(y * 2.5f) + roundf(y * 2.5f) * 100.0f;
  o[16] = fminf(x, y) + fmaxf(x, y) * 3.0f;
  o[17] = copysignf(x, y) + fabsf(y) * 10.0f;
  o[18] = tanhf(y);
  o[19] = atan2f(y, x);
  o[20] = exp2f(y) + log2f(x) * 0.0f;
  o[21] = log2f(x);
  o[22] = erff(y);
  o[23] = (float) __float2int_rn(y * 1000.5f) + 0.25f * (float) __float2int_rd(y * 7.7f);
  o[24] = (float) __float2int_ru(y * 7.7f) + 1000.0f * (float) __float2int_rz(y * 7.7f);
  o[25] = __int2float_rn(__float_as_int(x) >> 4);
  o[26] = __saturatef(y);
  o[27] = __fmul_rn(x, y) + __fadd_rz(x, y) * 0.0f;
  o[28] = sinpif(y * 0.25f) + (float) isnan(x * __int_as_float(0x7fc00000));
  o[29] = cbrtf(y);
}

__global__ void double_ops(const float *xs, const float *ys, double *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  double x = xs[i], y = ys[i];
  double *o = out + i * ND;
  o[0] = sin(y);
  o[1] = cos(y);
  o[2] = exp(y);
  o[3] = log(x);
  o[4] = pow(x, y);
  o[5] = sqrt(x);
  o[6] = x / y;
  o[7] = fma(x, y, 0.1);
  o[8] = tanh(y) + atan(y);
  o[9] = (double) (float) (x * 1.1) + (double) (long long) (y * 1e12);
}

static int check(const char *what, int i, double got, double want, double ulps, double abs_tol) {
  double tol = abs_tol;
  if (ulps > 0) {
    double ulp = want == 0 ? FLT_MIN : ldexp(1.0, ilogb(want) - 23);
    tol += ulps * ulp;
  }
  if (!(fabs(got - want) <= tol)) {
    printf("FAILED: input %d: %s = %.9g, expected %.9g (tolerance %.3g)\n", i, what, got, want, tol);
    return 1;
  }
  return 0;
}

static int h_rn(double v) { return (int) nearbyint(v); }

int main() {
  const int n = 1024;
  float xs[n], ys[n];
  unsigned long long seed = 77;
  for (int i = 0; i < n; i++) {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    xs[i] = 0.01f + 9.99f * (float) ((seed >> 40) & 0xffffff) / 16777216.0f;
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    ys[i] = -4.0f + 8.0f * (float) ((seed >> 40) & 0xffffff) / 16777216.0f;
    if (ys[i] == 0.0f) ys[i] = 0.5f;
  }
  float *d_x, *d_y, *d_f;
  double *d_d;
  float *of = (float *) malloc(n * NF * sizeof(float));
  double *od = (double *) malloc(n * ND * sizeof(double));
  CHECK(cudaMalloc(&d_x, sizeof xs));
  CHECK(cudaMalloc(&d_y, sizeof ys));
  CHECK(cudaMalloc(&d_f, n * NF * sizeof(float)));
  CHECK(cudaMalloc(&d_d, n * ND * sizeof(double)));
  CHECK(cudaMemcpy(d_x, xs, sizeof xs, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_y, ys, sizeof ys, cudaMemcpyHostToDevice));
  float_ops<<<n / 256, 256>>>(d_x, d_y, d_f, n);
  CHECK(cudaGetLastError());
  double_ops<<<n / 256, 256>>>(d_x, d_y, d_d, n);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(of, d_f, n * NF * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(od, d_d, n * ND * sizeof(double), cudaMemcpyDeviceToHost));

  int bad = 0;
  for (int i = 0; i < n && bad < 10; i++) {
    double x = xs[i], y = ys[i];
    const float *o = of + i * NF;
    /* Error bounds from the CUDA Programming Guide, "Mathematical Functions". */
    bad += check("sinf", i, o[0], sin(y), 2, 1e-9);
    bad += check("cosf", i, o[1], cos(y), 2, 1e-9);
    bad += check("expf", i, o[2], exp(y), 2, 0);
    bad += check("logf", i, o[3], log(x), 1, 0);
    bad += check("powf", i, o[4], pow(x, (float) y), 4, 0);  /* x^y with y rounded to float */
    bad += check("sqrtf", i, o[5], (float) sqrt(x), 0, 0);   /* correctly rounded */
    bad += check("rsqrtf", i, o[6], 1.0 / sqrt(x), 2, 0);
    bad += check("__fdividef", i, o[7], y / x, 2, 0);
    bad += check("__sinf", i, o[8], sin(y), 0, 4.1e-6 * 2); /* 2^-21.41 on [-pi, pi], looser outside */
    bad += check("__cosf", i, o[9], cos(y), 0, 4.1e-6 * 2);
    bad += check("__expf", i, o[10], exp(y), 2 + 16 * fabs(y), 0);
    bad += check("__logf", i, o[11], log(x), 0, 1.5e-6 * (fabs(log(x)) > 1 ? fabs(log(x)) : 1) + 7.2e-6);
    bad += check("division", i, o[12], (float) (x / y), 0, 0);
    bad += check("fmaf", i, o[13], fmaf(xs[i], ys[i], 1.0f), 0, 0); /* glibc fmaf rounds once */
    bad += check("floor/ceil", i, o[14], floorf((float) y * 3.3f) + ceilf((float) y * 1.7f) * 100.0f, 0, 0);
    bad += check("trunc/round", i, o[15], truncf((float) y * 2.5f) + roundf((float) y * 2.5f) * 100.0f, 0, 0);
    /* a*b+c may be contracted into one FMA on the device: the product is
     * then not rounded, which differs by up to half an ulp of the product
     * (much more than an ulp of the result when the sum cancels). */
    bad += check("fmin/fmax", i, o[16], fminf(x, y) + fmaxf(x, y) * 3.0f, 1,
                 fabs(fmaxf(x, y) * 3.0) * 6e-8);
    bad += check("copysign/fabs", i, o[17], copysignf(x, y) + fabsf(y) * 10.0f, 1,
                 fabs(y) * 10.0 * 6e-8);
    bad += check("tanhf", i, o[18], tanh(y), 2, 0);
    bad += check("atan2f", i, o[19], atan2(y, x), 3, 0);
    bad += check("exp2f", i, o[20], exp2(y), 2, 0);
    bad += check("log2f", i, o[21], log2(x), 1, 0);
    bad += check("erff", i, o[22], erf(y), 2, 0);
    bad += check("__float2int_rn/rd", i, o[23],
                 (float) h_rn((float) y * 1000.5f) + 0.25f * (float) (int) floorf((float) y * 7.7f), 0, 0);
    bad += check("__float2int_ru/rz", i, o[24],
                 (float) (int) ceilf((float) y * 7.7f) + 1000.0f * (float) (int) truncf((float) y * 7.7f), 0, 0);
    {
      float fx = xs[i];
      int bits;
      memcpy(&bits, &fx, 4);
      bad += check("__int2float_rn", i, o[25], (float) (bits >> 4), 0, 0);
    }
    bad += check("__saturatef", i, o[26], y < 0 ? 0.0 : y > 1 ? 1.0 : y, 0, 0);
    bad += check("__fmul_rn", i, o[27], (float) (x * y), 0, 0);
    bad += check("sinpif", i, o[28], sin(M_PI * (double) ((float) y * 0.25f)) + 1.0, 2, 1e-7);
    bad += check("cbrtf", i, o[29], cbrt(y), 1, 0);

    const double *d = od + i * ND;
    /* Double precision: within a few ulps of the host's libm. */
    double dt = 4e-16;
    bad += check("sin", i, d[0], sin(y), 0, dt);
    bad += check("cos", i, d[1], cos(y), 0, dt);
    bad += check("exp", i, d[2], exp(y), 0, dt * exp(y));
    bad += check("log", i, d[3], log(x), 0, dt * (1 + fabs(log(x))));
    bad += check("pow", i, d[4], pow(x, y), 0, 4 * dt * pow(x, y));
    bad += check("sqrt", i, d[5], sqrt(x), 0, 0);
    bad += check("double division", i, d[6], x / y, 0, 0);
    bad += check("fma", i, d[7], fma(x, y, 0.1), 0, 0);
    bad += check("tanh+atan", i, d[8], tanh(y) + atan(y), 0, 4 * dt);
    bad += check("double conversions", i, d[9], (double) (float) (x * 1.1) + (double) (long long) (y * 1e12), 0, 0);
  }
  CHECK(cudaFree(d_x)); CHECK(cudaFree(d_y)); CHECK(cudaFree(d_f)); CHECK(cudaFree(d_d));
  free(of); free(od);
  if (bad) return 1;
  printf("PASSED\n");
  return 0;
}
