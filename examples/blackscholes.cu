/* blackscholes: European option pricing (CUDA SDK BlackScholes style).
 *
 * Each thread prices call and put options with the Black-Scholes formula,
 * using expf, logf, sqrtf, a division and the Abramowitz-Stegun polynomial
 * approximation of the cumulative normal distribution (CND).  The grid is
 * fixed and threads use a grid-stride loop, as the SDK sample does; the
 * pricing is repeated `iterations` times (the SDK runs it 512 times; seed
 * 000 Table VI lists 87 launches) with identical launches.
 *
 * Usage: blackscholes [options=8192] [iterations=4]
 * Work: about 170 * options * iterations thread instructions.
 */
#include "example-util.h"

__device__ inline float cnd_device(float d) {
  const float A1 = 0.31938153f, A2 = -0.356563782f, A3 = 1.781477937f,
              A4 = -1.821255978f, A5 = 1.330274429f, RSQRT2PI = 0.39894228040143267793994605993438f;
  float K = 1.0f / (1.0f + 0.2316419f * fabsf(d));
  float cnd = RSQRT2PI * expf(-0.5f * d * d) *
              (K * (A1 + K * (A2 + K * (A3 + K * (A4 + K * A5)))));
  if (d > 0)
    cnd = 1.0f - cnd;
  return cnd;
}

__global__ void black_scholes(float *call, float *put, const float *price,
                              const float *strike, const float *years, float riskfree,
                              float volatility, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    float S = price[i], X = strike[i], T = years[i];
    float sqrtT = sqrtf(T);
    float d1 = (logf(S / X) + (riskfree + 0.5f * volatility * volatility) * T) /
               (volatility * sqrtT);
    float d2 = d1 - volatility * sqrtT;
    float cndd1 = cnd_device(d1), cndd2 = cnd_device(d2);
    float expRT = expf(-riskfree * T);
    call[i] = S * cndd1 - X * expRT * cndd2;
    put[i] = X * expRT * (1.0f - cndd2) - S * (1.0f - cndd1);
  }
}

static double cnd_host(double d) {
  const double A1 = 0.31938153, A2 = -0.356563782, A3 = 1.781477937, A4 = -1.821255978,
               A5 = 1.330274429, RSQRT2PI = 0.39894228040143267793994605993438;
  double K = 1.0 / (1.0 + 0.2316419 * fabs(d));
  double cnd = RSQRT2PI * exp(-0.5 * d * d) * (K * (A1 + K * (A2 + K * (A3 + K * (A4 + K * A5)))));
  return d > 0 ? 1.0 - cnd : cnd;
}

int main(int argc, char **argv) {
  int n = (int) arg_long(argc, argv, 1, 8192, 1, 1 << 26);
  int iters = (int) arg_long(argc, argv, 2, 4, 1, 100000);
  const float R = 0.02f, V = 0.30f;
  size_t bytes = (size_t) n * sizeof(float);

  float *price = (float *) host_alloc(bytes), *strike = (float *) host_alloc(bytes);
  float *years = (float *) host_alloc(bytes), *call = (float *) host_alloc(bytes);
  float *put = (float *) host_alloc(bytes);
  uint64_t seed = 23;
  for (int i = 0; i < n; i++) {
    price[i] = 5.0f + 25.0f * lcg_float(&seed);
    strike[i] = 1.0f + 99.0f * lcg_float(&seed);
    years[i] = 0.25f + 9.75f * lcg_float(&seed);
  }

  float *d_call, *d_put, *d_price, *d_strike, *d_years;
  CHECK(cudaMalloc(&d_call, bytes));
  CHECK(cudaMalloc(&d_put, bytes));
  CHECK(cudaMalloc(&d_price, bytes));
  CHECK(cudaMalloc(&d_strike, bytes));
  CHECK(cudaMalloc(&d_years, bytes));
  CHECK(cudaMemcpy(d_price, price, bytes, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_strike, strike, bytes, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_years, years, bytes, cudaMemcpyHostToDevice));

  int block = 128, grid = (n + block - 1) / block;
  if (grid > 240) grid = 240; /* grid-stride beyond this, as the SDK sample */
  for (int it = 0; it < iters; it++) {
    black_scholes<<<grid, block>>>(d_call, d_put, d_price, d_strike, d_years, R, V, n);
    CHECK_LAUNCH("black_scholes");
  }
  CHECK(cudaMemcpy(call, d_call, bytes, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(put, d_put, bytes, cudaMemcpyDeviceToHost));

  /* Reference in double.  Prices are at most ~100; single precision with
   * expf/logf (2 ulp) gives absolute errors around 1e-5 here. */
  double max_err = 0.0, sum_err = 0.0, sum_ref = 0.0;
  int worst = 0;
  for (int i = 0; i < n; i++) {
    double S = price[i], X = strike[i], T = years[i];
    double sqrtT = sqrt(T);
    double d1 = (log(S / X) + (R + 0.5 * V * V) * T) / (V * sqrtT);
    double d2 = d1 - V * sqrtT;
    double c1 = cnd_host(d1), c2 = cnd_host(d2), e = exp(-R * T);
    double wc = S * c1 - X * e * c2;
    double wp = X * e * (1.0 - c2) - S * (1.0 - c1);
    double err = fmax(fabs(call[i] - wc), fabs(put[i] - wp));
    if (!(err <= max_err)) { /* also catches NaN */
      max_err = err;
      worst = i;
    }
    sum_err += fabs(call[i] - wc) + fabs(put[i] - wp);
    sum_ref += fabs(wc) + fabs(wp);
  }
  CHECK(cudaFree(d_call)); CHECK(cudaFree(d_put)); CHECK(cudaFree(d_price));
  CHECK(cudaFree(d_strike)); CHECK(cudaFree(d_years));
  double l1 = sum_err / sum_ref;
  if (!(max_err < 1e-3) || !(l1 < 1e-5)) {
    printf("FAILED: option %d: call %.6f put %.6f, max abs error %.3g, L1 relative error %.3g\n",
           worst, call[worst], put[worst], max_err, l1);
    return 1;
  }
  free(price); free(strike); free(years); free(call); free(put);
  printf("blackscholes: %d options, %d launches of %d blocks, max error %.2e, L1 %.2e\n", n,
         iters, grid, max_err, l1);
  printf("PASSED\n");
  return 0;
}
