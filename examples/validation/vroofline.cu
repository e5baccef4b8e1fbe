/* vroofline: FP32 FMA loop across arithmetic intensities (gpu-roofline,
 * ground-truth README section 5; te42kyfo/gpu-benches, commit 1c36d50,
 * gpu-roofline/).
 *
 * Kernel `roofline<N>`: float (the published files are FP32, see the README),
 * 256 threads per block, grid = SMs * cudaOccupancyMaxActiveBlocksPerMultiprocessor
 * (full occupancy).  Thread t of block b reads A[b*256*M + t + 256 k] and the
 * same element of B for k = 0..M-1, two elements per (not unrolled)
 * iteration: a, b, a2, b2; v = a - b, v2 = a2 - b2; then N dependent
 * iterations of v = v*a - b and v2 = v2*a2 - b2 (two independent chains),
 * and the running sum += v + v2.  The code is written as plain multiply and
 * subtract, not fmaf: whether the compiler contracts them (it does in the
 * SASS; the PTX may show mul + sub or fma) is part of what is modelled.
 * N is a template parameter, instantiated for 0, 1, 2, 4, ..., 512.  The
 * original has thread 0 store its sum; every thread stores its sum here (one
 * store against 2 M loads) so the host can check a few blocks.
 *
 * Usage: vroofline [m=4] [ns=0,1,2,4,8,16,32,64,128,256,512] [reps=1]
 * Published: M = 4000, 1000 back-to-back launches per N.  Counting per
 * element: 2 + 2N flop and 8 B (A and B, 4 B each).
 *
 * Launch sequence: for each N in `ns` order, one warm-up launch when
 * reps > 1, then `reps` launches of roofline<N> (the mangled name carries N,
 * e.g. _Z8rooflineILi4EEvPKfS1_Pfi).
 * Output: RESULT n=N flop_per_byte=I ms=T GFlops=F GBps=G (T = median)
 */
#include "validation-util.h"

#define THREADS 256

template <int N>
__global__ void roofline (const float *A, const float *B, float *sums, int M)
{
  float sum = 0.0f;
  long long base = (long long) blockIdx.x * THREADS * M + threadIdx.x;
#pragma unroll 1
  for (int k = 0; k < M; k += 2) {
    float a = A[base + (long long) THREADS * k];
    float b = B[base + (long long) THREADS * k];
    float a2 = A[base + (long long) THREADS * (k + 1)];
    float b2 = B[base + (long long) THREADS * (k + 1)];
    float v = a - b;
    float v2 = a2 - b2;
#pragma unroll
    for (int i = 0; i < N; i++) {
      v = v * a - b;
      v2 = v2 * a2 - b2;
    }
    sum += v + v2;
  }
  sums[(long long) blockIdx.x * THREADS + threadIdx.x] = sum;
}

typedef void (*Kernel) (const float *, const float *, float *, int);

static const int known_ns[] = { 0, 1, 2, 4, 8, 16, 32, 64, 128, 256, 512 };
static const Kernel known_kernels[] = {
  roofline<0>, roofline<1>, roofline<2>, roofline<4>, roofline<8>, roofline<16>,
  roofline<32>, roofline<64>, roofline<128>, roofline<256>, roofline<512>,
};
#define N_KNOWN ((int) (sizeof known_ns / sizeof known_ns[0]))

/* Inputs in [0.25, 0.75) (a) and [0, 0.5) (b): |a| < 1 keeps the chains
 * bounded (they converge to -b / (1 - a)). */
static float a_value (uint64_t *s) { return 0.25f + 0.5f * lcg_float (s); }
static float b_value (uint64_t *s) { return 0.5f * lcg_float (s); }

int
main (int argc, char **argv)
{
  static const char *const keys[] = { "m", "ns", "reps", NULL };
  VuArgs args = vu_args_parse (argc, argv, keys, "vroofline [m=4] [ns=0,1,2,4,...,512] [reps=1]");
  long long M = vu_int (args, "m", 4, 2, 1 << 20);
  if (M % 2)
    vu_usage_error (args, "m must be even", NULL);
  std::vector<long long> def_ns (known_ns, known_ns + N_KNOWN);
  std::vector<long long> ns = vu_ints (args, "ns", def_ns, 0, 512);
  std::vector<int> which;
  for (long long n : ns) {
    int k = 0;
    while (k < N_KNOWN && known_ns[k] != n)
      k++;
    if (k == N_KNOWN)
      vu_usage_error (args, "ns: each value must be one of 0,1,2,4,8,16,32,64,128,256,512", NULL);
    which.push_back (k);
  }
  int reps = (int) vu_int (args, "reps", 1, 1, 100000);

  int sms = vu_attr (cudaDevAttrMultiProcessorCount);
  /* The grid is the same for every N, as in the original (one calculator
   * answer for the kernel); we ask for the largest N and check the others
   * are not lower, so no instantiation runs with more than one wave. */
  int per_sm = 0;
  CHECK (cudaOccupancyMaxActiveBlocksPerMultiprocessor (&per_sm, known_kernels[N_KNOWN - 1], THREADS, 0));
  for (int k = 0; k < N_KNOWN; k++) {
    int o = 0;
    CHECK (cudaOccupancyMaxActiveBlocksPerMultiprocessor (&o, known_kernels[k], THREADS, 0));
    per_sm = std::min (per_sm, o);
  }
  if (per_sm < 1) {
    printf ("FAILED: roofline cannot run %d threads per block\n", THREADS);
    return 1;
  }
  long long blocks = (long long) sms * per_sm;
  long long data_len = blocks * THREADS * M;

  size_t bytes = (size_t) data_len * sizeof (float);
  float *h_a = (float *) host_alloc (bytes);
  float *h_b = (float *) host_alloc (bytes);
  uint64_t seed = 5;
  for (long long i = 0; i < data_len; i++) {
    h_a[i] = a_value (&seed);
    h_b[i] = b_value (&seed);
  }
  float *A, *B, *sums;
  CHECK (cudaMalloc (&A, bytes));
  CHECK (cudaMalloc (&B, bytes));
  CHECK (cudaMalloc (&sums, (size_t) blocks * THREADS * sizeof (float)));
  CHECK (cudaMemcpy (A, h_a, bytes, cudaMemcpyHostToDevice));
  CHECK (cudaMemcpy (B, h_b, bytes, cudaMemcpyHostToDevice));
  std::vector<float> h_sums ((size_t) blocks * THREADS);
  VuTimer timer;

  for (int k : which) {
    int N = known_ns[k];
    CHECK (cudaMemset (sums, 0xff, h_sums.size () * sizeof (float)));
    if (reps > 1) {
      known_kernels[k]<<<(unsigned) blocks, THREADS>>> (A, B, sums, (int) M);
      CHECK_LAUNCH ("roofline");
    }
    std::vector<double> ms;
    for (int r = 0; r < reps; r++) {
      timer.start ();
      known_kernels[k]<<<(unsigned) blocks, THREADS>>> (A, B, sums, (int) M);
      ms.push_back (timer.stop ());
    }
    CHECK_LAUNCH ("roofline");
    double t = vu_median (ms);
    double flops = (2.0 + 2.0 * N) * (double) data_len;
    printf ("RESULT n=%d flop_per_byte=%.4f ms=%.6f GFlops=%.3f GBps=%.3f\n", N, (2.0 + 2.0 * N) / 8.0, t,
            t > 0 ? flops / (t * 1e-3) / 1e9 : 0.0, vu_gbps (8.0 * (double) data_len, t));
    fflush (stdout);

    /* Host reference for the first, a middle and the last block, in float
     * with either rounding of each multiply-subtract (separate or fused):
     * the two differ by a few ulps per step on values of order 1. */
    CHECK (cudaMemcpy (h_sums.data (), sums, h_sums.size () * sizeof (float), cudaMemcpyDeviceToHost));
    long long check_blocks[] = { 0, blocks / 2, blocks - 1 };
    for (long long blk : check_blocks)
      for (int t = 0; t < THREADS; t++) {
        float sum = 0.0f, abs_sum = 0.0f;
        long long base = blk * THREADS * M + t;
        for (long long kk = 0; kk < M; kk += 2) {
          float a = h_a[base + THREADS * kk], b = h_b[base + THREADS * kk];
          float a2 = h_a[base + THREADS * (kk + 1)], b2 = h_b[base + THREADS * (kk + 1)];
          float v = a - b, v2 = a2 - b2;
          for (int i = 0; i < N; i++) {
            v = fmaf (v, a, -b);
            v2 = fmaf (v2, a2, -b2);
          }
          sum += v + v2;
          abs_sum += fabsf (v) + fabsf (v2);
        }
        float got = h_sums[(size_t) blk * THREADS + t];
        float tol = 1e-5f * (float) M * std::max (1.0f, abs_sum / (float) M) + 1e-5f * abs_sum;
        if (!(fabsf (got - sum) <= tol)) {
          printf ("FAILED: N %d block %lld thread %d: sum %.9g, expected %.9g\n", N, blk, t, got, sum);
          return 1;
        }
      }
  }
  CHECK (cudaFree (A));
  CHECK (cudaFree (B));
  CHECK (cudaFree (sums));
  free (h_a);
  free (h_b);
  printf ("PASSED\n");
  return 0;
}
