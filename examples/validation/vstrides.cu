/* vstrides: L1 load throughput for strided and 2-D block access
 * (gpu-strides, ground-truth README section 7; te42kyfo/gpu-benches, commit
 * 1c36d50, gpu-strides/, revision 15f814a).
 *
 * Kernel `strides<T>`: ONE block of 1024 threads (everything on one SM,
 * L1-resident data).  Each thread makes `loads` loads: loads/8 iterations of
 * 8 loads at element offsets 0, 4, ..., 28 from its base pointer p, feeding
 * sum += p[0]*p[4]; sum += p[8]*p[12]; sum += p[20]*p[16]; sum += p[24]*p[28];
 * p moves by a runtime zero every iteration so the loads are issued again.
 *   pattern=stride: 1-D block of 1024, p = A + (threadIdx.x mod 64) * stride;
 *   pattern=block:  2-D block (w, 1024 / w),
 *                   p = A + (threadIdx.x mod 64) + (threadIdx.y mod 32 + 1) * 4098.
 * The original stores the sum only under an impossible condition; every
 * thread stores it here (one store against `loads` loads) for the host check.
 *
 * Usage: vstrides [pattern=stride|block] [type=float|double] [args=...]
 *                 [loads=64] [reps=1]
 * args: strides (default 0,1,2,3,4,8,16,32,64) or block widths w (default
 * 1,2,4,...,64).  loads must be a multiple of 8.  Published: loads =
 * 18 * 64 * 1024 = 1179648, one warm-up and 11 timed launches (minimum).
 *
 * Launch sequence: for each arg in `args` order, one warm-up launch when
 * reps > 1, then `reps` launches of strides<T> (_Z7stridesIfEv... for float,
 * _Z7stridesIdEv... for double).
 * Output: RESULT pattern=P type=T arg=A cycles_per_warp_load=C
 *                bytes_per_cycle_per_sm=B ms=T
 * cycles = min time * clock (cudaDevAttrClockRate, the rated clock), warp
 * loads = 1024 * loads / 32.
 */
#include "validation-util.h"

#define THREADS 1024
#define PITCH 4098

template <typename T>
__global__ void strides (const T *A, T *sums, int block_pattern, int stride, long long loads, int zero)
{
  const T *p;
  if (block_pattern)
    p = A + (threadIdx.x % 64) + (threadIdx.y % 32) * PITCH + PITCH;
  else
    p = A + (threadIdx.x % 64) * stride;
  T sum = 0;
  for (long long it = 0; it < loads / 8; it++) {
    sum += p[0] * p[4];
    sum += p[8] * p[12];
    sum += p[20] * p[16];
    sum += p[24] * p[28];
    p += zero;
  }
  sums[threadIdx.y * blockDim.x + threadIdx.x] = sum;
}

/* Small integers: every product and partial sum is exact in float and double
 * for the published load count (|sum| <= 4 * 4 * loads / 8 < 2^24). */
static int a_value (long long i) { return (int) (i % 5) - 2; }

template <typename T>
static int
run (const VuArgs &args, bool block_pattern, const std::vector<long long> &list, long long loads, int reps)
{
  const char *tname = sizeof (T) == 4 ? "float" : "double";
  long long elems = 34LL * PITCH + 64 * 64 + 64; /* covers both patterns' largest offsets */
  for (long long a : list)
    if (!block_pattern)
      elems = std::max (elems, 63 * a + 29);
  std::vector<T> h_a (elems);
  for (long long i = 0; i < elems; i++)
    h_a[i] = (T) a_value (i);
  T *A, *sums;
  CHECK (cudaMalloc (&A, elems * sizeof (T)));
  CHECK (cudaMalloc (&sums, THREADS * sizeof (T)));
  CHECK (cudaMemcpy (A, h_a.data (), elems * sizeof (T), cudaMemcpyHostToDevice));
  double clock_hz = vu_attr (cudaDevAttrClockRate) * 1e3;
  std::vector<T> h_sums (THREADS);
  VuTimer timer;

  for (long long a : list) {
    dim3 block = block_pattern ? dim3 ((unsigned) a, (unsigned) (THREADS / a)) : dim3 (THREADS);
    int stride = block_pattern ? PITCH : (int) a;
    CHECK (cudaMemset (sums, 0xff, THREADS * sizeof (T)));
    if (reps > 1) {
      strides<T><<<1, block>>> (A, sums, block_pattern, stride, loads, 0);
      CHECK_LAUNCH ("strides");
    }
    std::vector<double> ms;
    for (int r = 0; r < reps; r++) {
      timer.start ();
      strides<T><<<1, block>>> (A, sums, block_pattern, stride, loads, 0);
      ms.push_back (timer.stop ());
    }
    CHECK_LAUNCH ("strides");
    double t = vu_min (ms);
    double cycles = t * 1e-3 * clock_hz;
    double warp_loads = THREADS * (double) loads / 32.0;
    printf ("RESULT pattern=%s type=%s arg=%lld cycles_per_warp_load=%.4f bytes_per_cycle_per_sm=%.3f ms=%.6f\n",
            block_pattern ? "block" : "stride", tname, a, cycles > 0 ? cycles / warp_loads : 0.0,
            cycles > 0 ? THREADS * (double) loads * sizeof (T) / cycles : 0.0, t);
    fflush (stdout);

    CHECK (cudaMemcpy (h_sums.data (), sums, THREADS * sizeof (T), cudaMemcpyDeviceToHost));
    for (int y = 0; y < (int) block.y; y++)
      for (int x = 0; x < (int) block.x; x++) {
        long long base = block_pattern ? (x % 64) + (long long) (y % 32) * PITCH + PITCH : (long long) (x % 64) * a;
        const int off[8] = { 0, 4, 8, 12, 20, 16, 24, 28 };
        long long per_iter = 0;
        for (int k = 0; k < 8; k += 2)
          per_iter += (long long) a_value (base + off[k]) * a_value (base + off[k + 1]);
        double want = (double) per_iter * (double) (loads / 8);
        double got = (double) h_sums[y * block.x + x];
        if (got != want) {
          printf ("FAILED: %s %s arg %lld thread (%d,%d): sum %.17g, expected %.17g\n",
                  block_pattern ? "block" : "stride", tname, a, x, y, got, want);
          return 1;
        }
      }
  }
  CHECK (cudaFree (A));
  CHECK (cudaFree (sums));
  return 0;
}

int
main (int argc, char **argv)
{
  static const char *const keys[] = { "pattern", "type", "args", "loads", "reps", NULL };
  static const char *const patterns[] = { "stride", "block", NULL };
  static const char *const types[] = { "float", "double", NULL };
  VuArgs args = vu_args_parse (argc, argv, keys,
                               "vstrides [pattern=stride|block] [type=float|double] [args=LIST] [loads=64] [reps=1]");
  bool block_pattern = vu_choice (args, "pattern", patterns) == "block";
  bool dbl = vu_choice (args, "type", types) == "double";
  std::vector<long long> list = block_pattern ? vu_ints (args, "args", { 1, 2, 4, 8, 16, 32, 64 }, 1, 1024)
                                              : vu_ints (args, "args", { 0, 1, 2, 3, 4, 8, 16, 32, 64 }, 0, 1 << 20);
  if (block_pattern)
    for (long long w : list)
      if (THREADS % w)
        vu_usage_error (args, "args: block widths must divide 1024", NULL);
  long long loads = vu_int (args, "loads", 64, 8, 1LL << 40);
  if (loads % 8)
    vu_usage_error (args, "loads must be a multiple of 8", NULL);
  int reps = (int) vu_int (args, "reps", 1, 1, 1000);

  int rc = dbl ? run<double> (args, block_pattern, list, loads, reps) : run<float> (args, block_pattern, list, loads, reps);
  if (rc)
    return rc;
  printf ("PASSED\n");
  return 0;
}
