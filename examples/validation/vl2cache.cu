/* vl2cache: L2 bandwidth with footprints larger than L1 (gpu-l2-cache,
 * ground-truth README section 4: the kernel of the a100_80 and h200 files;
 * te42kyfo/gpu-benches, commit 1c36d50, gpu-l2-cache/).
 *
 * Kernel `l2_stream`: double, 1024 threads per block.  Block b works on slot
 * s = b mod R; in iteration i = 0..31 thread t loads B[j] and B[j + 1024],
 * j = 2 (1024 R i + 1024 s) + t, and accumulates their product (an FMA).
 * Each block reads 512 KiB; the R slots' 16 KiB chunks are interleaved, so
 * the footprint is R * 512 KiB and every byte is read blocks / R times.
 * The sum is stored only by the first R blocks (one 8-B store per thread, so
 * the host can check it; the original stores under an impossible condition).
 * Kernel `l2_init` fills B.
 *
 * Usage: vl2cache [slots=3,12,48] [blocks=0] [reps=1]
 * blocks=0 means max(4 R, 2 * SMs * resident blocks per SM): enough waves
 * for a steady state while emulating quickly.  Published: R from 3 by
 * R <- floor(R + max(1, 0.1 R)) below 10000, blocks = 100000, 11 reps (min).
 *
 * Launch sequence: for each R in `slots` order, one `l2_init`, then `reps`
 * launches of `l2_stream`.
 * Output: RESULT slots=R footprint_bytes=R*524288 blocks=NB ms=T GBps=G
 *         (G = 512 KiB * blocks / min time)
 */
#include "validation-util.h"

#define THREADS 1024
#define ITERS 32
#define BLOCK_BYTES (2LL * ITERS * THREADS * 8) /* 512 KiB read per block */

/* Small integers: every product and sum is exact, FMA or not. */
__host__ __device__ static inline double
b_value (long long j)
{
  return (double) (j % 7 - 3);
}

__global__ void l2_init (double *B, long long n)
{
  for (long long i = (long long) blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (long long) gridDim.x * blockDim.x)
    B[i] = b_value (i);
}

__global__ void l2_stream (const double *B, double *sums, int R)
{
  double sum = 0.0;
  int s = blockIdx.x % R;
#pragma unroll
  for (int i = 0; i < ITERS; i++) {
    long long j = 2 * ((long long) THREADS * R * i + (long long) THREADS * s) + threadIdx.x;
    sum += B[j] * B[j + THREADS];
  }
  if (blockIdx.x < (unsigned) R)
    sums[(long long) blockIdx.x * THREADS + threadIdx.x] = sum;
}

int
main (int argc, char **argv)
{
  static const char *const keys[] = { "slots", "blocks", "reps", NULL };
  VuArgs args = vu_args_parse (argc, argv, keys, "vl2cache [slots=3,12,48] [blocks=0] [reps=1]");
  std::vector<long long> slots = vu_ints (args, "slots", { 3, 12, 48 }, 1, 1 << 20);
  long long blocks_arg = vu_int (args, "blocks", 0, 0, 1LL << 31);
  int reps = (int) vu_int (args, "reps", 1, 1, 1000);

  int sms = vu_attr (cudaDevAttrMultiProcessorCount);
  int resident = 0;
  CHECK (cudaOccupancyMaxActiveBlocksPerMultiprocessor (&resident, l2_stream, THREADS, 0));
  if (resident < 1) {
    printf ("FAILED: l2_stream cannot run %d threads per block\n", THREADS);
    return 1;
  }
  VuTimer timer;

  for (long long R : slots) {
    long long blocks = blocks_arg ? blocks_arg : std::max (4 * R, 2LL * sms * resident);
    long long n = R * 2 * ITERS * THREADS;
    double *B, *sums;
    CHECK (cudaMalloc (&B, (size_t) n * sizeof (double)));
    CHECK (cudaMalloc (&sums, (size_t) R * THREADS * sizeof (double)));
    CHECK (cudaMemset (sums, 0xff, (size_t) R * THREADS * sizeof (double)));
    l2_init<<<sms * 4, THREADS>>> (B, n);
    CHECK_LAUNCH ("l2_init");
    std::vector<double> ms;
    for (int r = 0; r < reps; r++) {
      timer.start ();
      l2_stream<<<(unsigned) blocks, THREADS>>> (B, sums, (int) R);
      ms.push_back (timer.stop ());
      CHECK_LAUNCH ("l2_stream");
    }
    double t = vu_min (ms);
    printf ("RESULT slots=%lld footprint_bytes=%lld blocks=%lld ms=%.6f GBps=%.3f\n", R, R * BLOCK_BYTES, blocks, t,
            vu_gbps ((double) BLOCK_BYTES * blocks, t));
    fflush (stdout);

    std::vector<double> h ((size_t) R * THREADS);
    CHECK (cudaMemcpy (h.data (), sums, h.size () * sizeof (double), cudaMemcpyDeviceToHost));
    long long stored = std::min (R, blocks);
    for (long long s = 0; s < stored; s++)
      for (int t = 0; t < THREADS; t++) {
        double want = 0.0;
        for (int i = 0; i < ITERS; i++) {
          long long j = 2 * ((long long) THREADS * R * i + (long long) THREADS * s) + t;
          want += b_value (j) * b_value (j + THREADS);
        }
        double got = h[(size_t) s * THREADS + t];
        if (got != want) {
          printf ("FAILED: R %lld slot %lld thread %d: sum %.17g, expected %.17g\n", R, s, t, got, want);
          return 1;
        }
      }
    CHECK (cudaFree (B));
    CHECK (cudaFree (sums));
  }
  printf ("PASSED\n");
  return 0;
}
