/* vl1cache: L1 (and shared-L2) bandwidth with every SM re-reading one
 * buffer (gpu-cache, ground-truth README section 3; te42kyfo/gpu-benches,
 * commit 1c36d50, gpu-cache/, revision 266497d).
 *
 * Kernel `l1_sweep`: double, grid = SM count (cudaDevAttrMultiProcessorCount),
 * 256 threads.  Every block sweeps the same N-element buffer B `sweeps`
 * times; in a sweep thread t adds B[t], B[t+256], ... (indices < N) into a
 * private sum, then the sum is multiplied by 1.3 and the base pointer moved
 * by a runtime zero so the loads cannot be hoisted.  Inner loop unrolled.
 * The original stores the sum only under an impossible condition; we store
 * each thread's sum once at the end (one 8-B store per thread against
 * sweeps * N / 256 loads) so the host can check it.
 * Kernel `l1_init` fills B (the original initialises its buffers with a
 * small kernel too).
 *
 * Usage: vl1cache [sizes=256,4096,16384] [sweeps=8] [reps=1] [sweeps2=0]
 * sweeps=0 means the published floor(1e8 / N) + 2.  Published: sizes 256 ...
 * about 8.7M elements (README section 3), 15 repetitions (minimum).
 *
 * Launch sequence: for each N in `sizes` order, one `l1_init`, then `reps`
 * launches of `l1_sweep`, then, with sweeps2=S2 > 0, one more launch of
 * `l1_sweep` doing S2 sweeps.  The bandwidth of the difference,
 * N * 8 * blocks * (S2 - S) / (t2 - t), is that of the steady state: the
 * first (cold) sweep, the launch's start and its end cancel.
 * Output: RESULT elements_per_block=N bytes_per_block=8N sweeps=S blocks=SMs
 *                ms=T GBps=G   (G = N * 8 * blocks * sweeps / min time)
 */
#include "validation-util.h"

#define THREADS 256

/* B[i] = (i % 13) / 4: exact in double, so only the multiplications by 1.3
 * (and the compiler's choice of FMA) round. */
__host__ __device__ static inline double
b_value (long long i)
{
  return (double) (i % 13) * 0.25;
}

__global__ void l1_init (double *B, long long n)
{
  for (long long i = (long long) blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (long long) gridDim.x * blockDim.x)
    B[i] = b_value (i);
}

__global__ void l1_sweep (const double *B, double *sums, int n, int sweeps, int zero)
{
  double sum = 0.0;
  const double *b = B + threadIdx.x;
  int count = (n - (int) threadIdx.x + THREADS - 1) / THREADS; /* this thread's loads per sweep */
  for (int s = 0; s < sweeps; s++) {
#pragma unroll 32
    for (int k = 0; k < count; k++)
      sum += b[k * THREADS];
    sum *= 1.3;
    b += zero;
  }
  sums[blockIdx.x * THREADS + threadIdx.x] = sum;
}

int
main (int argc, char **argv)
{
  static const char *const keys[] = { "sizes", "sweeps", "reps", "sweeps2", NULL };
  VuArgs args = vu_args_parse (argc, argv, keys,
                               "vl1cache [sizes=256,4096,16384] [sweeps=8] [reps=1] [sweeps2=0]");
  std::vector<long long> sizes = vu_ints (args, "sizes", { 256, 4096, 16384 }, 1, 1LL << 30);
  long long sweeps_arg = vu_int (args, "sweeps", 8, 0, 1LL << 30);
  int reps = (int) vu_int (args, "reps", 1, 1, 1000);
  int sweeps2 = (int) vu_int (args, "sweeps2", 0, 0, 1LL << 30);

  int blocks = vu_attr (cudaDevAttrMultiProcessorCount);
  double *sums;
  CHECK (cudaMalloc (&sums, (size_t) blocks * THREADS * sizeof (double)));
  std::vector<double> h_sums ((size_t) blocks * THREADS);
  VuTimer timer;

  for (long long n : sizes) {
    int sweeps = (int) (sweeps_arg ? sweeps_arg : 100000000LL / n + 2);
    double *B;
    CHECK (cudaMalloc (&B, (size_t) n * sizeof (double)));
    l1_init<<<blocks, THREADS>>> (B, n);
    CHECK_LAUNCH ("l1_init");
    std::vector<double> ms;
    for (int r = 0; r < reps; r++) {
      timer.start ();
      l1_sweep<<<blocks, THREADS>>> (B, sums, (int) n, sweeps, 0);
      ms.push_back (timer.stop ());
      CHECK_LAUNCH ("l1_sweep");
    }
    double t = vu_min (ms);
    printf ("RESULT elements_per_block=%lld bytes_per_block=%lld sweeps=%d blocks=%d ms=%.6f GBps=%.3f\n", n, n * 8,
            sweeps, blocks, t, vu_gbps ((double) n * 8.0 * blocks * sweeps, t));
    fflush (stdout);

    /* Host reference of each thread's sum (the same for every block).  The
     * device may contract `sum * 1.3 + B[i]` into an FMA: each operation may
     * then differ by an ulp, far below the tolerance for any sweep count. */
    auto check = [&] (int sw) -> bool {
      CHECK (cudaMemcpy (h_sums.data (), sums, h_sums.size () * sizeof (double), cudaMemcpyDeviceToHost));
      for (int t = 0; t < THREADS; t++) {
        double want = 0.0, scale = 0.0;
        for (int s = 0; s < sw; s++) {
          for (long long i = t; i < n; i += THREADS) {
            want += b_value (i);
            scale += b_value (i);
          }
          want *= 1.3;
          scale *= 1.3;
        }
        for (int b = 0; b < blocks; b++) {
          double got = h_sums[(size_t) b * THREADS + t];
          bool ok = std::isinf (want) ? got == want : fabs (got - want) <= 1e-9 * std::max (1.0, scale);
          if (!ok) {
            printf ("FAILED: N %lld block %d thread %d: sum %.17g, expected %.17g\n", n, b, t, got, want);
            return false;
          }
        }
      }
      return true;
    };
    if (!check (sweeps))
      return 1;
    if (sweeps2 > 0) {
      timer.start ();
      l1_sweep<<<blocks, THREADS>>> (B, sums, (int) n, sweeps2, 0);
      double t2 = timer.stop ();
      CHECK_LAUNCH ("l1_sweep");
      printf ("RESULT elements_per_block=%lld bytes_per_block=%lld sweeps=%d sweeps2=%d blocks=%d ms=%.6f "
              "GBps_difference=%.3f\n", n, n * 8, sweeps, sweeps2, blocks, t2,
              vu_gbps ((double) n * 8.0 * blocks * (sweeps2 - sweeps), t2 - t));
      fflush (stdout);
      if (!check (sweeps2))
        return 1;
    }
    CHECK (cudaFree (B));
  }
  CHECK (cudaFree (sums));
  printf ("PASSED\n");
  return 0;
}
