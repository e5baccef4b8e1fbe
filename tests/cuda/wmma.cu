/* wmma: warp-level matrix multiply-accumulate through mma.h (wmma.load,
 * wmma.mma, wmma.store): f16 with f32 and f16 accumulators in the three
 * f16 shapes, row- and column-major A, B and D, bf16, tf32 (m16n16k8), f64
 * (m8n8k4), s8 and u8 with s32 accumulators; fragments loaded from global
 * and from (skewed) shared memory, and element-wise work on fragments
 * (scaling A, alpha * AB + beta * C) as the CUDA samples do.  Inputs are
 * small multiples of 1/4, so every product and sum is exact and the device
 * result must equal the host's.
 */
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <type_traits>
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <mma.h>

using namespace nvcuda;

#define CHECK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
  printf("FAILED: %s: %s\n", #call, cudaGetErrorString(e_)); exit(1); } } while (0)

static int failures = 0;

/* Element-wise helpers that work for every fragment element type. */
template <typename T> __device__ T twice(T x) { return x + x; }
template <typename T> __device__ T axpby(T alpha, T x, T beta, T y) { return alpha * x + beta * y; }

/* One warp per TM x TN tile of D = alpha * (s A) B + beta * C, where A is
 * m x k (layout LA), B is k x n (layout LB), C is row-major and D is
 * stored row- or column-major; s = 2 when scale_a (applied to the A
 * fragment's elements). */
template <typename FT, typename ST, typename AT, int TM, int TN, int TK, typename LA, typename LB>
__global__ void gemm(const ST *A, const ST *B, const AT *C, AT *D, int m, int n, int k, AT alpha, AT beta,
                     int d_col, int scale_a) {
  const bool a_row = std::is_same<LA, wmma::row_major>::value;
  const bool b_row = std::is_same<LB, wmma::row_major>::value;
  int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  int tn = n / TN;
  if (warp >= (m / TM) * tn) return;
  int r0 = warp / tn * TM, c0 = warp % tn * TN;
  wmma::fragment<wmma::matrix_a, TM, TN, TK, FT, LA> a;
  wmma::fragment<wmma::matrix_b, TM, TN, TK, FT, LB> b;
  wmma::fragment<wmma::accumulator, TM, TN, TK, AT> acc, cf;
  wmma::fill_fragment(acc, AT(0));
  for (int kk = 0; kk < k; kk += TK) {
    wmma::load_matrix_sync(a, a_row ? A + r0 * k + kk : A + kk * m + r0, a_row ? k : m);
    wmma::load_matrix_sync(b, b_row ? B + kk * n + c0 : B + c0 * k + kk, b_row ? n : k);
    if (std::is_same<FT, wmma::precision::tf32>::value) {
      for (int i = 0; i < a.num_elements; i++) a.x[i] = wmma::__float_to_tf32(a.x[i]);
      for (int i = 0; i < b.num_elements; i++) b.x[i] = wmma::__float_to_tf32(b.x[i]);
    }
    if (scale_a)
      for (int i = 0; i < a.num_elements; i++) a.x[i] = twice(a.x[i]);
    wmma::mma_sync(acc, a, b, acc);
  }
  wmma::load_matrix_sync(cf, C + r0 * n + c0, n, wmma::mem_row_major);
  for (int i = 0; i < acc.num_elements; i++) acc.x[i] = axpby(alpha, acc.x[i], beta, cf.x[i]);
  if (d_col)
    wmma::store_matrix_sync(D + c0 * m + r0, acc, m, wmma::mem_col_major);
  else
    wmma::store_matrix_sync(D + r0 * n + c0, acc, n, wmma::mem_row_major);
}

/* The same for f16 -> f32 m16n16k16 with the A and B tiles staged in
 * shared memory with a skewed leading dimension (as cudaTensorCoreGemm
 * does), and C/D through shared memory.  One warp per block. */
#define SKEW 8
__global__ void gemm_shared(const half *A, const half *B, const float *C, float *D, int m, int n, int k) {
  __shared__ half sa[16][16 + SKEW];
  __shared__ half sb[16][16 + SKEW];   /* column-major B: sb[col][row] */
  __shared__ float sc[16][16 + 4];
  int tn = n / 16;
  int r0 = blockIdx.x / tn * 16, c0 = blockIdx.x % tn * 16;
  int lane = threadIdx.x;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> b;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  for (int i = lane; i < 16 * 16; i += 32) sc[i / 16][i % 16] = C[(r0 + i / 16) * n + c0 + i % 16];
  __syncwarp();
  wmma::load_matrix_sync(acc, &sc[0][0], 16 + 4, wmma::mem_row_major);
  for (int kk = 0; kk < k; kk += 16) {
    for (int i = lane; i < 16 * 16; i += 32) {
      sa[i / 16][i % 16] = A[(r0 + i / 16) * k + kk + i % 16];
      sb[i / 16][i % 16] = B[(c0 + i / 16) * k + kk + i % 16];   /* B column-major */
    }
    __syncwarp();
    wmma::load_matrix_sync(a, &sa[0][0], 16 + SKEW);
    wmma::load_matrix_sync(b, &sb[0][0], 16 + SKEW);
    wmma::mma_sync(acc, a, b, acc);
    __syncwarp();
  }
  wmma::store_matrix_sync(&sc[0][0], acc, 16 + 4, wmma::mem_row_major);
  __syncwarp();
  for (int i = lane; i < 16 * 16; i += 32) D[(r0 + i / 16) * n + c0 + i % 16] = sc[i / 16][i % 16];
}

/* Host conversions. */
template <typename T> static T from_double(double v) { return T(v); }
template <> half from_double<half>(double v) { return __double2half(v); }
template <> __nv_bfloat16 from_double<__nv_bfloat16>(double v) { return __double2bfloat16(v); }
template <typename T> static double to_double(T v) { return double(v); }
template <> double to_double<half>(half v) { return (double) __half2float(v); }
template <> double to_double<__nv_bfloat16>(__nv_bfloat16 v) { return (double) __bfloat162float(v); }

/* Small exact inputs: multiples of 1/4 in [-2, 2] (integers for s8/u8). */
static double input(int i, int salt, bool integer, bool is_unsigned) {
  int v = (i * 7 + salt * 13 + (i / 5) * 3) % 9;
  if (integer) return is_unsigned ? v * 25 : (v - 4) * 30;
  return (v - 4) * 0.25;
}

template <typename FT, typename ST, typename AT, int TM, int TN, int TK, typename LA, typename LB>
static void run(const char *name, int m, int n, int k, double alpha, double beta, int d_col, int scale_a) {
  const bool a_row = std::is_same<LA, wmma::row_major>::value;
  const bool b_row = std::is_same<LB, wmma::row_major>::value;
  const bool integer = std::is_integral<AT>::value;
  const bool is_unsigned = std::is_same<ST, unsigned char>::value;
  ST *hA = new ST[m * k], *hB = new ST[k * n];
  AT *hC = new AT[m * n], *hD = new AT[m * n];
  double *ref = new double[m * n];
  for (int i = 0; i < m * k; i++) hA[i] = from_double<ST>(input(i, 1, integer, is_unsigned));
  for (int i = 0; i < k * n; i++) hB[i] = from_double<ST>(input(i, 2, integer, is_unsigned));
  for (int i = 0; i < m * n; i++) hC[i] = from_double<AT>(integer ? input(i, 3, true, false) * 10 : input(i, 3, false, false));
  for (int r = 0; r < m; r++)
    for (int c = 0; c < n; c++) {
      double s = 0;
      for (int x = 0; x < k; x++) {
        double av = to_double(hA[a_row ? r * k + x : x * m + r]) * (scale_a ? 2 : 1);
        double bv = to_double(hB[b_row ? x * n + c : c * k + x]);
        s += av * bv;
      }
      ref[r * n + c] = alpha * s + beta * to_double(hC[r * n + c]);
    }
  ST *dA, *dB;
  AT *dC, *dD;
  CHECK(cudaMalloc(&dA, sizeof(ST) * m * k));
  CHECK(cudaMalloc(&dB, sizeof(ST) * k * n));
  CHECK(cudaMalloc(&dC, sizeof(AT) * m * n));
  CHECK(cudaMalloc(&dD, sizeof(AT) * m * n));
  CHECK(cudaMemcpy(dA, hA, sizeof(ST) * m * k, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dB, hB, sizeof(ST) * k * n, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dC, hC, sizeof(AT) * m * n, cudaMemcpyHostToDevice));
  CHECK(cudaMemset(dD, 0, sizeof(AT) * m * n));
  int warps = (m / TM) * (n / TN);
  gemm<FT, ST, AT, TM, TN, TK, LA, LB><<<(warps * 32 + 127) / 128, 128>>>(
      dA, dB, dC, dD, m, n, k, from_double<AT>(alpha), from_double<AT>(beta), d_col, scale_a);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(hD, dD, sizeof(AT) * m * n, cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int r = 0; r < m; r++)
    for (int c = 0; c < n; c++) {
      double got = to_double(hD[d_col ? c * m + r : r * n + c]), want = ref[r * n + c];
      if (got != want && bad++ < 5)
        printf("%s: D[%d][%d] = %g, expected %g\n", name, r, c, got, want);
    }
  if (bad) {
    printf("%s: %d wrong elements\n", name, bad);
    failures++;
  } else
    printf("%s: ok\n", name);
  CHECK(cudaFree(dA)); CHECK(cudaFree(dB)); CHECK(cudaFree(dC)); CHECK(cudaFree(dD));
  delete[] hA; delete[] hB; delete[] hC; delete[] hD; delete[] ref;
}

static void run_shared(int m, int n, int k) {
  half *hA = new half[m * k], *hB = new half[k * n];
  float *hC = new float[m * n], *hD = new float[m * n];
  for (int i = 0; i < m * k; i++) hA[i] = __double2half(input(i, 4, false, false));
  for (int i = 0; i < k * n; i++) hB[i] = __double2half(input(i, 5, false, false));
  for (int i = 0; i < m * n; i++) hC[i] = (float) input(i, 6, false, false);
  half *dA, *dB;
  float *dC, *dD;
  CHECK(cudaMalloc(&dA, sizeof(half) * m * k));
  CHECK(cudaMalloc(&dB, sizeof(half) * k * n));
  CHECK(cudaMalloc(&dC, sizeof(float) * m * n));
  CHECK(cudaMalloc(&dD, sizeof(float) * m * n));
  CHECK(cudaMemcpy(dA, hA, sizeof(half) * m * k, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dB, hB, sizeof(half) * k * n, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dC, hC, sizeof(float) * m * n, cudaMemcpyHostToDevice));
  gemm_shared<<<(m / 16) * (n / 16), 32>>>(dA, dB, dC, dD, m, n, k);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(hD, dD, sizeof(float) * m * n, cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int r = 0; r < m; r++)
    for (int c = 0; c < n; c++) {
      double s = hC[r * n + c];
      for (int x = 0; x < k; x++) s += (double) __half2float(hA[r * k + x]) * (double) __half2float(hB[c * k + x]);
      if (hD[r * n + c] != s && bad++ < 5) printf("shared f16: D[%d][%d] = %g, expected %g\n", r, c, hD[r * n + c], s);
    }
  if (bad) {
    printf("shared f16: %d wrong elements\n", bad);
    failures++;
  } else
    printf("shared f16: ok\n");
  CHECK(cudaFree(dA)); CHECK(cudaFree(dB)); CHECK(cudaFree(dC)); CHECK(cudaFree(dD));
  delete[] hA; delete[] hB; delete[] hC; delete[] hD;
}

int main() {
  typedef wmma::row_major R;
  typedef wmma::col_major C;
  const int m = 32, n = 32, k = 48;
  run<half, half, float, 16, 16, 16, R, C>("f16 m16n16k16 row.col f32", m, n, k, 1.5, 0.5, 0, 0);
  run<half, half, float, 16, 16, 16, C, R>("f16 m16n16k16 col.row f32, D col-major", m, n, k, 1.0, 2.0, 1, 0);
  run<half, half, float, 16, 16, 16, R, R>("f16 m16n16k16 row.row f32, A scaled", m, n, k, 1.0, 1.0, 0, 1);
  run<half, half, half, 16, 16, 16, R, C>("f16 m16n16k16 f16 accumulate", m, n, 32, 0.5, 1.0, 0, 0);
  run<half, half, float, 32, 8, 16, R, C>("f16 m32n8k16 f32, A scaled", m, n, k, 1.0, 1.0, 0, 1);
  run<half, half, float, 8, 32, 16, C, C>("f16 m8n32k16 col.col f32, B copies", m, n, k, 1.0, 1.0, 1, 0);
  run<__nv_bfloat16, __nv_bfloat16, float, 16, 16, 16, R, C>("bf16 m16n16k16 f32", m, n, k, 1.5, 0.5, 0, 0);
  run<wmma::precision::tf32, float, float, 16, 16, 8, R, C>("tf32 m16n16k8 f32", m, n, k, 1.5, 0.5, 0, 0);
  run<wmma::precision::tf32, float, float, 16, 16, 8, C, R>("tf32 m16n16k8 col.row f32, D col-major", m, n, k, 1.0, 1.0, 1, 1);
  run<double, double, double, 8, 8, 4, R, C>("f64 m8n8k4", m, n, k, 1.5, 0.5, 0, 0);
  run<double, double, double, 8, 8, 4, C, R>("f64 m8n8k4 col.row, D col-major", m, n, k, 1.0, -1.0, 1, 1);
  run<signed char, signed char, int, 16, 16, 16, R, C>("s8 m16n16k16 s32", m, n, k, 2, 3, 0, 0);
  run<unsigned char, unsigned char, int, 16, 16, 16, R, C>("u8 m16n16k16 s32", m, n, k, 1, -1, 0, 0);
  run<signed char, signed char, int, 32, 8, 16, C, R>("s8 m32n8k16 col.row s32, D col-major", m, n, k, 1, 1, 1, 0);
  run_shared(m, n, k);
  if (failures) {
    printf("FAILED: %d wmma cases\n", failures);
    return 1;
  }
  printf("PASSED\n");
  return 0;
}
