/* vlatency: pointer-chasing load latency (gpu-latency, ground-truth README
 * section 2; te42kyfo/gpu-benches, commit 1c36d50, gpu-latency/).
 *
 * A chain of LEN nodes, one 8-byte device pointer every 64 B (footprint
 * 64 * LEN bytes), forms one random cycle through all LEN slots: slot 0
 * points to the first of the shuffled slots 1..LEN-1, each to the next, the
 * last back to slot 0.  The shuffle is Fisher-Yates driven by the fixed-seed
 * LCG of example-util.h (the original seeds std::mt19937 randomly; any
 * random cycle has the same statistics, a fixed one makes traces
 * reproducible).  Kernel `pchase`: one block of 64 threads, every thread
 * starts at slot 0 and repeats p = *p (64-bit loads, inner loop unrolled
 * 32x) for iters = max(LEN, min_iters) steps, rounded up to a multiple of 32;
 * all threads load the same address, so each step is one dependent warp-wide
 * load per warp.  The result is kept alive by a store that never happens;
 * in addition thread 0 stores its final pointer (one store after the whole
 * chase) so the host can check the walk.
 *
 * Usage: vlatency [lens=16,256,4096,65536] [min_iters=4096] [extra_iters=0]
 * Published: LEN from 16 by LEN <- floor(1.1 LEN + 16) up to 2^24 (times 1.5
 * above 80 MiB), min_iters = 1000000, 7 timed launches (minimum).
 *
 * Launch sequence: for each LEN in `lens` order, one warm-up launch and one
 * timed launch of `pchase`; with extra_iters=E > 0 a third launch walks
 * iters + E steps (E a multiple of 32), and the latency per load is the
 * difference of the two timed launches over E: the first pass's cold
 * misses, the launch overhead and the kernel's end cancel, leaving the
 * steady state the published 10^6-load launches measure.
 * Output: RESULT len=L footprint_bytes=F iters=I ms=T ns_per_load=X
 * The host checks that the chain is one cycle through all LEN slots and that
 * both launches ended on the slot the host walk ends on.
 */
#include "validation-util.h"

#define NODE_STRIDE 8 /* pointers (64 B) between consecutive slots */
#define THREADS 64
#define UNROLL 32

__global__ void pchase (void **start, long long iters, void **out, int impossible)
{
  void **p = start;
  for (long long it = 0; it < iters; it += UNROLL) {
#pragma unroll
    for (int u = 0; u < UNROLL; u++)
      p = (void **) *p;
  }
  if (threadIdx.x == 0)
    out[0] = (void *) p;
  /* The original's keep-alive store: never executed. */
  if (impossible && (long long) p == impossible)
    out[1 + threadIdx.x] = (void *) p;
}

int
main (int argc, char **argv)
{
  static const char *const keys[] = { "lens", "min_iters", "extra_iters", NULL };
  VuArgs args = vu_args_parse (argc, argv, keys,
                               "vlatency [lens=16,256,4096,65536] [min_iters=4096] [extra_iters=0]");
  std::vector<long long> lens = vu_ints (args, "lens", { 16, 256, 4096, 65536 }, 1, 1LL << 26);
  long long min_iters = vu_int (args, "min_iters", 4096, 1, 1LL << 34);
  long long extra = vu_int (args, "extra_iters", 0, 0, 1LL << 34);
  if (extra % UNROLL != 0) {
    printf ("FAILED: extra_iters must be a multiple of %d\n", UNROLL);
    return 2;
  }

  void **out;
  CHECK (cudaMalloc (&out, (1 + THREADS) * sizeof (void *)));
  VuTimer timer;
  uint64_t seed = 2;

  for (long long len : lens) {
    size_t slots = (size_t) len * NODE_STRIDE;
    void **d_chain;
    CHECK (cudaMalloc (&d_chain, slots * sizeof (void *)));
    /* next[k]: the slot after slot k. */
    std::vector<uint32_t> order (len > 1 ? len - 1 : 0), next (len);
    for (long long k = 1; k < len; k++)
      order[k - 1] = (uint32_t) k;
    for (long long k = (long long) order.size () - 1; k > 0; k--)
      std::swap (order[k], order[lcg_below (&seed, (uint32_t) k + 1)]);
    uint32_t prev = 0;
    for (uint32_t s : order) {
      next[prev] = s;
      prev = s;
    }
    next[prev] = 0;

    /* One cycle through every slot: the walk from 0 sees LEN distinct slots
     * and is back at 0 after exactly LEN steps. */
    std::vector<char> seen (len, 0);
    uint32_t at = 0;
    for (long long s = 0; s < len; s++) {
      if (seen[at]) {
        printf ("FAILED: len %lld: slot %u visited twice\n", len, at);
        return 1;
      }
      seen[at] = 1;
      at = next[at];
    }
    if (at != 0) {
      printf ("FAILED: len %lld: the chain is not one cycle\n", len);
      return 1;
    }

    void **h_chain = (void **) host_alloc (slots * sizeof (void *));
    memset (h_chain, 0, slots * sizeof (void *));
    for (long long k = 0; k < len; k++)
      h_chain[k * NODE_STRIDE] = (void *) (d_chain + (size_t) next[k] * NODE_STRIDE);
    CHECK (cudaMemcpy (d_chain, h_chain, slots * sizeof (void *), cudaMemcpyHostToDevice));
    free (h_chain);

    long long iters = std::max (len, min_iters);
    iters = (iters + UNROLL - 1) / UNROLL * UNROLL;
    double ms = 0.0, ms_short = 0.0;
    for (int launch = 0; launch < (extra > 0 ? 3 : 2); launch++) {
      long long steps = launch == 2 ? iters + extra : iters;
      uint32_t end = 0;
      for (long long s = 0; s < steps % len; s++)
        end = next[end];
      void *want = (void *) (d_chain + (size_t) end * NODE_STRIDE);
      CHECK (cudaMemset (out, 0, sizeof (void *)));
      timer.start ();
      pchase<<<1, THREADS>>> (d_chain, steps, out, 0);
      ms_short = ms;
      ms = timer.stop ();
      CHECK_LAUNCH ("pchase");
      void *got = NULL;
      CHECK (cudaMemcpy (&got, out, sizeof got, cudaMemcpyDeviceToHost));
      if (got != want) {
        printf ("FAILED: len %lld launch %d: the chase ended at %p, expected %p\n", len, launch, got, want);
        return 1;
      }
    }
    if (extra > 0) {
      printf ("RESULT len=%lld footprint_bytes=%lld iters=%lld extra_iters=%lld ms=%.6f ns_per_load=%.4f\n", len,
              len * 64, iters, extra, ms, (ms - ms_short) * 1e6 / (double) extra);
      fflush (stdout);
      CHECK (cudaFree (d_chain));
      continue;
    }
    printf ("RESULT len=%lld footprint_bytes=%lld iters=%lld ms=%.6f ns_per_load=%.4f\n", len, len * 64, iters, ms,
            ms * 1e6 / (double) iters);
    fflush (stdout);
    CHECK (cudaFree (d_chain));
  }
  CHECK (cudaFree (out));
  printf ("PASSED\n");
  return 0;
}
