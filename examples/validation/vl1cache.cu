/* vl1cache: L1 (and shared-L2) bandwidth with every SM re-reading one
 * buffer (gpu-cache, ground-truth README section 3; te42kyfo/gpu-benches,
 * commit 1c36d50, gpu-cache/, revision 266497d).
 *
 * Kernel `l1_sweep<N>`: double, grid = SM count (cudaDevAttrMultiProcessorCount),
 * 256 threads.  Every block sweeps the same N-element buffer B `sweeps`
 * times; in a sweep thread t adds B[t], B[t+256], ... (indices < N) into a
 * private sum, then the sum is multiplied by 1.3 and the base pointer moved
 * by a runtime zero so the loads cannot be hoisted out of the sweep loop.
 * As in the original, N is a compile-time constant (a template parameter)
 * and both loops are unrolled by it: the sweep loop 32 / (N / 256) times
 * when N / 256 <= 32 (else once), the inner loop N / 256 times up to 32
 * (32 from N / 256 >= 64), so that an unrolled body holds up to 32
 * independent loads whatever N is.  The machine code, and so the number of
 * loads a warp has in flight, depends on it: with N known only at run time
 * a small N leaves one load per sweep between dependent adds.  Every N of
 * the published series (README section 3, the 73 sizes of
 * `VL1_PUBLISHED_SIZES`) has its instantiation; another N runs the
 * run-time-N kernel `l1_sweep_any` (say so in RESULT: `kernel=any`).
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
 *                kernel=unrolled|any ms=T GBps=G
 *         (G = N * 8 * blocks * sweeps / min time)
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

/* The published sizes (README section 3): 256, 512, 768, 1024 to 16384 in
 * steps of 512, then v_k = floor (v_(k-1) * 1.17) from 16384 rounded down to
 * a multiple of 512, k = 1..14 and 16..40. */
#define VL1_PUBLISHED_SIZES(X) \
  X (256) X (512) X (768) X (1024) X (1536) X (2048) X (2560) X (3072) X (3584) X (4096) X (4608) X (5120) \
  X (5632) X (6144) X (6656) X (7168) X (7680) X (8192) X (8704) X (9216) X (9728) X (10240) X (10752) \
  X (11264) X (11776) X (12288) X (12800) X (13312) X (13824) X (14336) X (14848) X (15360) X (15872) \
  X (16384) X (18944) X (22016) X (26112) X (30208) X (35840) X (41984) X (49152) X (57344) X (67072) \
  X (78336) X (91648) X (107520) X (125952) X (147456) X (201728) X (236032) X (276480) X (323072) \
  X (378368) X (442368) X (517632) X (605696) X (709120) X (829440) X (970752) X (1135616) X (1328640) \
  X (1554944) X (1819136) X (2128384) X (2490368) X (2913792) X (3408896) X (3988480) X (4666368) \
  X (5459968) X (6388224) X (7474176) X (8744960)

template <int N>
__global__ void l1_sweep (const double *B, double *sums, int n, int sweeps, int zero)
{
  constexpr int per_thread = N / THREADS;  /* every published N is a multiple of 256 */
  double sum = 0.0;
  const double *b = B + threadIdx.x;
#pragma unroll (per_thread > 32 ? 1 : 32 / per_thread)
  for (int s = 0; s < sweeps; s++) {
#pragma unroll (per_thread >= 64 ? 32 : per_thread)
    for (int k = 0; k < per_thread; k++)
      sum += b[k * THREADS];
    sum *= 1.3;
    b += zero;
  }
  sums[blockIdx.x * THREADS + threadIdx.x] = sum;
}

/* Any other N, known only at run time. */
__global__ void l1_sweep_any (const double *B, double *sums, int n, int sweeps, int zero)
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

typedef void (*SweepKernel) (const double *, double *, int, int, int);

static SweepKernel
sweep_kernel (long long n, bool *unrolled)
{
  *unrolled = true;
  switch (n) {
#define VL1_CASE(N) case N: return l1_sweep<N>;
    VL1_PUBLISHED_SIZES (VL1_CASE)
#undef VL1_CASE
  default:
    *unrolled = false;
    return l1_sweep_any;
  }
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
    bool unrolled;
    SweepKernel l1_sweep_n = sweep_kernel (n, &unrolled);
    std::vector<double> ms;
    for (int r = 0; r < reps; r++) {
      timer.start ();
      l1_sweep_n<<<blocks, THREADS>>> (B, sums, (int) n, sweeps, 0);
      ms.push_back (timer.stop ());
      CHECK_LAUNCH ("l1_sweep");
    }
    double t = vu_min (ms);
    printf ("RESULT elements_per_block=%lld bytes_per_block=%lld sweeps=%d blocks=%d kernel=%s ms=%.6f GBps=%.3f\n",
            n, n * 8, sweeps, blocks, unrolled ? "unrolled" : "any", t, vu_gbps ((double) n * 8.0 * blocks * sweeps, t));
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
      l1_sweep_n<<<blocks, THREADS>>> (B, sums, (int) n, sweeps2, 0);
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
