/* vsmallkernels: launch overhead against data-set size (gpu-small-kernels,
 * ground-truth README section 6, modes stream_launches and cuda_graph;
 * te42kyfo/gpu-benches, commit 1c36d50, gpu-small-kernels/).
 *
 * Kernel `scale`: FP64 A[i] = 0.25 * B[i] for i < d, one element per thread,
 * grid = d / block + 1.  A sample is `iters` launches alternating A <- B and
 * B <- A, either issued one by one on a stream (mode=stream) or captured once
 * into a CUDA graph and launched as one graph (mode=graph).  The time per
 * kernel is the sample's time / iters.  The persistent-thread modes (_gsync,
 * _pt) need grid-wide synchronisation and are not reproduced.
 *
 * Usage: vsmallkernels [sizes=4096,65536] [block_sizes=32,64,128,256,512,1024]
 *                      [iters=4] [reps=1] [mode=stream|graph]
 * Published: d from 4096 by d <- d + max(1, floor(0.06 d)), block sizes 32 ...
 * 1024, iters = min(30000, max(2000, floor(1e9 / d))), one warm-up launch and
 * 3 samples (median).
 *
 * Launch sequence: for each d in `sizes` order, for each block size in
 * `block_sizes` order: when reps > 1 one warm-up launch (A <- B), then `reps`
 * samples of `iters` launches of `scale` (graph mode: the same kernel
 * launches, replayed from the graph).
 * Output: RESULT mode=M elements=d block_size=B us_per_kernel=U GBps=G
 *         (G = 16 d B / time per kernel; U from the median sample)
 * The buffers are reset before every point and checked exactly after it
 * (scaling by 0.25 is exact in IEEE arithmetic, denormals included).
 */
#include "validation-util.h"

__global__ void scale (double *A, const double *B, long long d)
{
  long long i = (long long) blockIdx.x * blockDim.x + threadIdx.x;
  if (i < d)
    A[i] = 0.25 * B[i];
}

/* Initial values come from a few classes so the host can follow every
 * class through thousands of launches. */
#define CLASSES 8
static double a0 (long long i) { return 3.0 + (double) (i % CLASSES); }
static double b0 (long long i) { return 1.0 + 2.0 * (double) (i % CLASSES); }

int
main (int argc, char **argv)
{
  static const char *const keys[] = { "sizes", "block_sizes", "iters", "reps", "mode", NULL };
  static const char *const modes[] = { "stream", "graph", NULL };
  VuArgs args = vu_args_parse (argc, argv, keys,
                               "vsmallkernels [sizes=4096,65536] [block_sizes=32,64,128,256,512,1024] "
                               "[iters=4] [reps=1] [mode=stream|graph]");
  std::vector<long long> sizes = vu_ints (args, "sizes", { 4096, 65536 }, 1, 1LL << 31);
  std::vector<long long> block_sizes = vu_ints (args, "block_sizes", { 32, 64, 128, 256, 512, 1024 }, 1, 1024);
  int iters = (int) vu_int (args, "iters", 4, 1, 1000000);
  int reps = (int) vu_int (args, "reps", 1, 1, 1000);
  bool graph_mode = vu_choice (args, "mode", modes) == "graph";

  long long max_d = *std::max_element (sizes.begin (), sizes.end ());
  long long len = max_d + 2;
  size_t bytes = (size_t) len * sizeof (double);
  double *h_a = (double *) host_alloc (bytes), *h_b = (double *) host_alloc (bytes);
  double *A, *B;
  CHECK (cudaMalloc (&A, bytes));
  CHECK (cudaMalloc (&B, bytes));
  cudaStream_t stream;
  CHECK (cudaStreamCreateWithFlags (&stream, cudaStreamNonBlocking));
  VuTimer timer (stream);

  for (long long d : sizes)
    for (long long bs : block_sizes) {
      for (long long i = 0; i < len; i++) {
        h_a[i] = a0 (i);
        h_b[i] = b0 (i);
      }
      CHECK (cudaMemcpy (A, h_a, bytes, cudaMemcpyHostToDevice));
      CHECK (cudaMemcpy (B, h_b, bytes, cudaMemcpyHostToDevice));
      unsigned grid = (unsigned) (d / bs + 1);

      cudaGraphExec_t exec = NULL;
      if (graph_mode) {
        cudaGraph_t graph;
        CHECK (cudaStreamBeginCapture (stream, cudaStreamCaptureModeThreadLocal));
        for (int it = 0; it < iters; it++) {
          if (it % 2 == 0)
            scale<<<grid, (unsigned) bs, 0, stream>>> (A, B, d);
          else
            scale<<<grid, (unsigned) bs, 0, stream>>> (B, A, d);
        }
        CHECK (cudaStreamEndCapture (stream, &graph));
        CHECK (cudaGraphInstantiate (&exec, graph, 0));
        CHECK (cudaGraphDestroy (graph));
      }
      if (reps > 1) {
        scale<<<grid, (unsigned) bs, 0, stream>>> (A, B, d);
        CHECK (cudaStreamSynchronize (stream));
      }
      std::vector<double> ms;
      for (int r = 0; r < reps; r++) {
        timer.start ();
        if (graph_mode) {
          CHECK (cudaGraphLaunch (exec, stream));
        } else {
          for (int it = 0; it < iters; it++) {
            if (it % 2 == 0)
              scale<<<grid, (unsigned) bs, 0, stream>>> (A, B, d);
            else
              scale<<<grid, (unsigned) bs, 0, stream>>> (B, A, d);
          }
        }
        ms.push_back (timer.stop ());
      }
      CHECK_LAUNCH ("scale");
      if (exec)
        CHECK (cudaGraphExecDestroy (exec));
      double us = vu_median (ms) * 1000.0 / iters;
      printf ("RESULT mode=%s elements=%lld block_size=%lld us_per_kernel=%.4f GBps=%.3f\n",
              graph_mode ? "graph" : "stream", d, bs, us, us > 0 ? 16.0 * (double) d / (us * 1e-6) / 1e9 : 0.0);
      fflush (stdout);

      /* Follow each class of values through the launches, in order. */
      double wa[CLASSES], wb[CLASSES];
      for (int c = 0; c < CLASSES; c++) {
        wa[c] = a0 (c);
        wb[c] = b0 (c);
        if (reps > 1)
          wa[c] = 0.25 * wb[c];
        for (int r = 0; r < reps; r++)
          for (int it = 0; it < iters; it++) {
            if (it % 2 == 0)
              wa[c] = 0.25 * wb[c];
            else
              wb[c] = 0.25 * wa[c];
          }
      }
      CHECK (cudaMemcpy (h_a, A, bytes, cudaMemcpyDeviceToHost));
      CHECK (cudaMemcpy (h_b, B, bytes, cudaMemcpyDeviceToHost));
      for (long long i = 0; i < len; i++) {
        int c = (int) (i % CLASSES);
        double want_a = i < d ? wa[c] : a0 (i), want_b = i < d ? wb[c] : b0 (i);
        if (h_a[i] != want_a || h_b[i] != want_b) {
          printf ("FAILED: d %lld block %lld: A[%lld] = %.17g, B = %.17g; expected %.17g, %.17g\n", d, bs, i, h_a[i],
                  h_b[i], want_a, want_b);
          return 1;
        }
      }
    }
  CHECK (cudaStreamDestroy (stream));
  CHECK (cudaFree (A));
  CHECK (cudaFree (B));
  free (h_a);
  free (h_b);
  printf ("PASSED\n");
  return 0;
}
