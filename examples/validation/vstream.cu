/* vstream: streaming bandwidth against occupancy (gpu-stream, ground-truth
 * README section 1; te42kyfo/gpu-benches, commit 1c36d50, gpu-stream/).
 *
 * Six FP64 kernels, one element per thread (i = blockIdx.x * blockDim.x +
 * threadIdx.x, threads outside the valid range return), grid = n / block + 1:
 *   init          A[i] = 0.23                                   1 stream
 *   read          t = B[i]; A[i] = t only if t == 123 (never)     1 stream
 *   scale         A[i] = 1.2 * B[i]                              2 streams
 *   triad         A[i] = 1.2 * B[i] + C[i]                       3 streams
 *   stencil1d3pt  A[i] = 0.5 B[i-1] - B[i] + 0.5 B[i+1]          2 streams
 *   stencil1d5pt  A[i] = .25 B[i-2] + .25 B[i-1] - B[i]
 *                        + .5 B[i+1] + .5 B[i+2]                  2 streams
 * Occupancy is pinned to exactly 2 resident blocks per SM on the current
 * device by a shared-memory "spoiler", so the block size alone sets the
 * number of resident threads (64 ... 2048 per SM).  The original uses a
 * static 6 KiB array plus a small preferred carve-out; we ask for dynamic
 * shared memory of half the SM's shared memory minus the per-block reserve
 * (rounded down to 256 B, the coarsest allocation unit), which gives 2 blocks
 * on every GPU from Volta on without relying on the carve-out table, and we
 * check it with cudaOccupancyMaxActiveBlocksPerMultiprocessor (FAILED if not
 * 2).  The spoiler array is touched only under a runtime-false flag.
 *
 * Usage: vstream [n=1048576] [block_sizes=32,64,...,1024]
 *                [kernels=init,read,scale,triad,stencil1d3pt,stencil1d5pt]
 *                [reps=1] [pollute=0]
 * Block sizes with 2 * block > max threads per SM are skipped (as in the
 * original).  Published: n = 128 * 2^20 + 2, reps = 9 (median, one warm-up).
 *
 * Launch sequence (the contract with `warpscope-cli validate`): for each
 * kernel in `kernels` order, for each block size in `block_sizes` order
 * (skipped sizes launch nothing): one warm-up launch when reps > 1, then
 * `reps` timed launches, all of the kernel named like the column.  With
 * pollute=BYTES > 0 every one of those launches is preceded by a launch of
 * `l2_pollute`, which streams BYTES of another buffer with the stream
 * kernel's own mix of loads and stores (read: loads only; init: stores only;
 * scale: half of its 256-byte chunks stored, triad: a third, chosen by a
 * hash of the chunk).  It leaves the L2 as the
 * published run's earlier launches of the same kernel over 1 GB arrays
 * leave it: full of lines the kernel does not use, of which the kernel's
 * store share is dirty.  So a reduced n (arrays smaller than the L2) still
 * sees every load miss, and each line the kernel allocates evicts dirty
 * data exactly as often as in the published steady state (a read stream
 * writes nothing back; an all-dirty L2 would charge it one write-back per
 * line read).
 * Output: one line per point
 *   RESULT kernel=K block_size=B blocks_per_sm=2 ms=T GBps=G
 * (ms = median of the reps; GBps = streams * n * 8 B / ms), then PASSED.
 * Every point is checked on the host: A is filled with a NaN pattern before
 * the point and must hold exactly the expected values afterwards.
 */
#include "validation-util.h"

/* Dynamic: its size is chosen at run time so that 2 blocks fill an SM. */
extern __shared__ double spoiler[];

/* Never taken (spoil == 0), but the compiler cannot know, so the kernel keeps
 * its shared-memory use as the original's static spoiler does. */
#define SPOIL(i)                                                             \
  if (spoil) {                                                               \
    spoiler[threadIdx.x] = A[i];                                             \
    A[i] = spoiler[(threadIdx.x + 1) % blockDim.x];                          \
  }

__global__ void init (double *A, const double *B, const double *C, long long n, int spoil)
{
  long long i = (long long) blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  A[i] = 0.23;
  SPOIL (i);
}

__global__ void read (double *A, const double *B, const double *C, long long n, int spoil)
{
  long long i = (long long) blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  double t = B[i];
  if (t == 123.0)
    A[i] = t;
  SPOIL (i);
}

__global__ void scale (double *A, const double *B, const double *C, long long n, int spoil)
{
  long long i = (long long) blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  A[i] = 1.2 * B[i];
  SPOIL (i);
}

__global__ void triad (double *A, const double *B, const double *C, long long n, int spoil)
{
  long long i = (long long) blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  A[i] = 1.2 * B[i] + C[i];
  SPOIL (i);
}

__global__ void stencil1d3pt (double *A, const double *B, const double *C, long long n, int spoil)
{
  long long i = (long long) blockIdx.x * blockDim.x + threadIdx.x;
  if (i < 1 || i >= n - 1)
    return;
  A[i] = 0.5 * B[i - 1] - B[i] + 0.5 * B[i + 1];
  SPOIL (i);
}

__global__ void stencil1d5pt (double *A, const double *B, const double *C, long long n, int spoil)
{
  long long i = (long long) blockIdx.x * blockDim.x + threadIdx.x;
  if (i < 2 || i >= n - 2)
    return;
  A[i] = 0.25 * B[i - 2] + 0.25 * B[i - 1] - B[i] + 0.5 * B[i + 1] + 0.5 * B[i + 2];
  SPOIL (i);
}

typedef void (*Kernel) (double *, const double *, const double *, long long, int);

static const char *const kernel_names[] = {
  "init", "read", "scale", "triad", "stencil1d3pt", "stencil1d5pt", NULL,
};
static const Kernel kernel_fns[] = { init, read, scale, triad, stencil1d3pt, stencil1d5pt };
/* Arrays each kernel streams in (loads: B, C; the stencils' neighbours
 * are the same stream) and out (stores: A).  Their sum is the stream count
 * of the bandwidth (ground-truth README table, section 1); the split is the
 * load/store mix l2_pollute reproduces. */
static const int kernel_load_streams[] = { 0, 1, 1, 2, 1, 1 };
static const int kernel_store_streams[] = { 1, 0, 1, 1, 1, 1 };

static int
kernel_index (const std::string &name)
{
  for (int k = 0; kernel_names[k]; k++)
    if (name == kernel_names[k])
      return k;
  return -1;
}

/* B and C hold small multiples of 1/2 so every kernel's result is exact
 * whether or not the compiler contracts a multiply and an add into an FMA,
 * except triad, where both roundings are accepted.  B is never 123 (read's
 * store must never happen). */
static double b_value (long long i) { return (double) ((i * 7) % 1000) + 0.5; }
static double c_value (long long i) { return (double) ((i * 13) % 100); }

/* The value A[i] must hold after kernel k, or NaN when A[i] keeps the
 * sentinel; *alt is a second acceptable value (the other rounding of triad). */
static double
expected (int k, long long i, long long n, double *alt)
{
  double v = NAN;
  switch (k) {
  case 0: v = 0.23; break;
  case 1: v = NAN; break;
  case 2: v = 1.2 * b_value (i); break;
  case 3:
    *alt = fma (1.2, b_value (i), c_value (i));
    return 1.2 * b_value (i) + c_value (i);
  case 4:
    if (i >= 1 && i < n - 1)
      v = 0.5 * b_value (i - 1) - b_value (i) + 0.5 * b_value (i + 1);
    break;
  case 5:
    if (i >= 2 && i < n - 2)
      v = 0.25 * b_value (i - 2) + 0.25 * b_value (i - 1) - b_value (i) + 0.5 * b_value (i + 1)
          + 0.5 * b_value (i + 2);
    break;
  }
  *alt = v;
  return v;
}

/* Streams n doubles of a buffer the stream kernels never touch, in chunks of
 * one warp's 256 B (whole 128-byte lines and 32-byte sectors): a chunk is
 * written with probability stores / (loads + stores), else read, so the
 * lines it leaves in the L2 are dirty in the proportion the measured
 * kernel's own traffic makes them.  The choice is a hash of the chunk
 * (Fibonacci hashing, Knuth TAOCP vol. 3 §6.4), not a period: a period of a
 * few lines aliases with the modulo set and channel interleaving (2 dirty
 * lines then 2 clean put every dirty line in half of the sets and DRAM
 * channels), while the published run's own A and B lines spread over all
 * of them alike.  P holds zeros and is written with 0.25, so the store
 * under a read chunk's test never happens. */
__global__ void l2_pollute (double *P, long long n, int loads, int stores)
{
  long long i = (long long) blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  unsigned long long hash = ((unsigned long long) (i / 32) * 0x9E3779B97F4A7C15ull) >> 40;
  if (hash % (unsigned long long) (loads + stores) < (unsigned long long) stores)
    P[i] = 0.25;
  else {
    double t = P[i];
    if (t == 123.0)
      P[i] = t;
  }
}

int
main (int argc, char **argv)
{
  static const char *const keys[] = { "n", "block_sizes", "kernels", "reps", "pollute", NULL };
  VuArgs args = vu_args_parse (argc, argv, keys,
                               "vstream [n=1048576] [block_sizes=32,64,...,1024] "
                               "[kernels=init,read,scale,triad,stencil1d3pt,stencil1d5pt] [reps=1] [pollute=0]");
  long long n = vu_int (args, "n", 1048576, 5, 1LL << 32);
  std::vector<long long> def_bs;
  for (int b = 32; b <= 1024; b += 32)
    def_bs.push_back (b);
  std::vector<long long> block_sizes = vu_ints (args, "block_sizes", def_bs, 1, 1024);
  std::vector<std::string> kernels = vu_words (args, "kernels", kernel_names);
  int reps = (int) vu_int (args, "reps", 1, 1, 1000);
  long long pollute_bytes = vu_int (args, "pollute", 0, 0, 1LL << 34);
  long long pollute_n = pollute_bytes / (long long) sizeof (double);

  /* Two blocks per SM: each takes half the SM's shared memory, less the
   * per-block reservation the driver adds (1 KiB from sm_80 on), rounded
   * down to 256 B (the allocation unit is 128 or 256 B). */
  int per_sm = vu_attr (cudaDevAttrMaxSharedMemoryPerMultiprocessor);
  int reserved = vu_attr (cudaDevAttrReservedSharedMemoryPerBlock);
  int optin = vu_attr (cudaDevAttrMaxSharedMemoryPerBlockOptin);
  int max_threads_sm = vu_attr (cudaDevAttrMaxThreadsPerMultiProcessor);
  int smem = (per_sm / 2 - reserved) / 256 * 256;
  if (smem > optin || smem <= per_sm / 3 - reserved) {
    printf ("FAILED: cannot pin 2 blocks per SM with shared memory (per SM %d, reserved %d, "
            "opt-in %d)\n", per_sm, reserved, optin);
    return 1;
  }
  for (int k = 0; kernel_names[k]; k++) {
    CHECK (cudaFuncSetAttribute (kernel_fns[k], cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
    CHECK (cudaFuncSetAttribute (kernel_fns[k], cudaFuncAttributePreferredSharedMemoryCarveout,
                                 cudaSharedmemCarveoutMaxShared));
  }

  size_t bytes = (size_t) n * sizeof (double);
  double *h_a = (double *) host_alloc (bytes);
  double *h_b = (double *) host_alloc (bytes);
  double *h_c = (double *) host_alloc (bytes);
  for (long long i = 0; i < n; i++) {
    h_b[i] = b_value (i);
    h_c[i] = c_value (i);
  }
  double *A, *B, *C;
  CHECK (cudaMalloc (&A, bytes));
  CHECK (cudaMalloc (&B, bytes));
  CHECK (cudaMalloc (&C, bytes));
  CHECK (cudaMemcpy (B, h_b, bytes, cudaMemcpyHostToDevice));
  CHECK (cudaMemcpy (C, h_c, bytes, cudaMemcpyHostToDevice));
  double *P = NULL;
  if (pollute_n > 0) {
    CHECK (cudaMalloc (&P, (size_t) pollute_n * sizeof (double)));
    CHECK (cudaMemset (P, 0, (size_t) pollute_n * sizeof (double)));
  }
  auto pollute = [&] (int k) {
    if (pollute_n > 0) {
      l2_pollute<<<(unsigned) ((pollute_n + 255) / 256), 256>>> (P, pollute_n, kernel_load_streams[k],
                                                                  kernel_store_streams[k]);
      CHECK_LAUNCH ("l2_pollute");
    }
  };

  VuTimer timer;
  long long bad = 0;
  for (const std::string &kname : kernels) {
    int k = kernel_index (kname);
    for (long long bs : block_sizes) {
      if (2 * bs > max_threads_sm)
        continue;
      int blocks_per_sm = 0;
      CHECK (cudaOccupancyMaxActiveBlocksPerMultiprocessor (&blocks_per_sm, kernel_fns[k], (int) bs, smem));
      if (blocks_per_sm != 2) {
        printf ("FAILED: %s with %lld threads and %d B of shared memory: %d resident blocks per SM, "
                "not 2\n", kname.c_str (), bs, smem, blocks_per_sm);
        return 1;
      }
      /* All-ones bytes: a NaN, so any element left unwritten is caught. */
      CHECK (cudaMemset (A, 0xff, bytes));
      unsigned grid = (unsigned) (n / bs + 1);
      if (reps > 1) {
        pollute (k);
        kernel_fns[k]<<<grid, (unsigned) bs, smem>>> (A, B, C, n, 0);
        CHECK_LAUNCH (kname.c_str ());
      }
      std::vector<double> ms;
      for (int r = 0; r < reps; r++) {
        pollute (k);
        timer.start ();
        kernel_fns[k]<<<grid, (unsigned) bs, smem>>> (A, B, C, n, 0);
        ms.push_back (timer.stop ());
      }
      CHECK_LAUNCH (kname.c_str ());
      double t = vu_median (ms);
      printf ("RESULT kernel=%s block_size=%lld blocks_per_sm=%d ms=%.6f GBps=%.3f\n", kname.c_str (), bs,
              blocks_per_sm, t, vu_gbps ((double) (kernel_load_streams[k] + kernel_store_streams[k]) * n * 8.0, t));
      fflush (stdout);

      CHECK (cudaMemcpy (h_a, A, bytes, cudaMemcpyDeviceToHost));
      for (long long i = 0; i < n; i++) {
        double alt;
        double want = expected (k, i, n, &alt);
        bool ok = std::isnan (want) ? std::isnan (h_a[i]) : (h_a[i] == want || h_a[i] == alt);
        if (!ok) {
          if (bad < 5)
            printf ("FAILED: %s block %lld: A[%lld] = %.17g, expected %.17g\n", kname.c_str (), bs, i, h_a[i],
                    want);
          bad++;
        }
      }
    }
  }
  CHECK (cudaFree (A));
  CHECK (cudaFree (B));
  CHECK (cudaFree (C));
  if (P != NULL)
    CHECK (cudaFree (P));
  free (h_a);
  free (h_b);
  free (h_c);
  if (bad) {
    printf ("FAILED: %lld wrong elements\n", bad);
    return 1;
  }
  printf ("PASSED\n");
  return 0;
}
