// ws-calibrate.cu: the micro-benchmarks of `warpscope-cli calibrate`.
//
// Measures on the present GPU what the models need (seed 002's latency and
// gap per resource, seed 004's latencies and PCIe parameters):
//   - global-memory load latency for an L1 hit, an L2 hit and DRAM, by
//     pointer chasing with one thread (each load's address is the previous
//     load's value, so latencies cannot overlap);
//   - shared-memory load latency (pointer chasing) and the cost of bank
//     conflicts (a warp reading with a stride of k words is k-way conflicted);
//   - latency (one dependent chain, one thread) and throughput (many warps,
//     independent chains) of FP32 FMA, INT32 IMAD, SFU (MUFU.EX2) and FP64
//     DFMA;
//   - PCIe: pinned cudaMemcpy times per direction over sizes 4 B .. 256 MiB,
//     printed raw; warpscope-cli fits eq. 4.6 to them.
//
// Output: "key value" lines (cycles unless the key says otherwise) and
// "pcie HtoD|DtoH BYTES SECONDS" lines, read by app/cli/ws-cli-measure.c.
// Build: nvcc -O2 -arch=native -o ws-calibrate ws-calibrate.cu
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <vector>
#include <random>
#include <cuda_runtime.h>

#define CHECK(call)                                                                                 \
  do {                                                                                              \
    cudaError_t e_ = (call);                                                                        \
    if (e_ != cudaSuccess) {                                                                        \
      std::fprintf (stderr, "ws-calibrate: %s failed: %s (%s:%d)\n", #call, cudaGetErrorString (e_), \
                    __FILE__, __LINE__);                                                            \
      std::exit (1);                                                                                \
    }                                                                                               \
  } while (0)

static const int kChase = 4096;  // timed dependent loads per measurement

// ---------------------------------------------------------------------------
// Global memory: pointer chasing.  `mode` 0 = default caching (L1), 1 = .cg
// (L2 only).  The first pass warms the caches; the second is timed.

__global__ void
chase_global (const uint32_t *next, int mode, int steps, uint32_t *sink, long long *cycles)
{
  uint32_t p = 0;
  for (int i = 0; i < steps; i++)  // warm-up
    p = mode ? __ldcg (next + p) : next[p];
  p = 0;
  long long t0 = clock64 ();
  for (int i = 0; i < kChase; i++)
    p = mode ? __ldcg (next + p) : next[p];
  long long t1 = clock64 ();
  *sink = p;
  *cycles = t1 - t0;
}

// A random cyclic permutation over `n` slots `stride` words apart, so that
// prefetchers cannot follow it.
static std::vector<uint32_t>
make_chain (size_t words, size_t stride, unsigned seed)
{
  size_t n = words / stride;
  std::vector<uint32_t> order (n);
  for (size_t i = 0; i < n; i++)
    order[i] = (uint32_t) i;
  std::mt19937 rng (seed);
  std::shuffle (order.begin () + 1, order.end (), rng);
  std::vector<uint32_t> next (words, 0);
  for (size_t i = 0; i < n; i++)
    next[order[i] * stride] = (uint32_t) (order[(i + 1) % n] * stride);
  return next;
}

static double
global_latency (size_t bytes, size_t stride_bytes, int mode, int warm_steps)
{
  size_t words = bytes / 4;
  std::vector<uint32_t> host = make_chain (words, stride_bytes / 4, 1234);
  uint32_t *dev, *sink;
  long long *cycles;
  CHECK (cudaMalloc (&dev, bytes));
  CHECK (cudaMalloc (&sink, sizeof *sink));
  CHECK (cudaMalloc (&cycles, sizeof *cycles));
  CHECK (cudaMemcpy (dev, host.data (), bytes, cudaMemcpyHostToDevice));
  chase_global<<<1, 1>>> (dev, mode, warm_steps, sink, cycles);
  CHECK (cudaDeviceSynchronize ());
  long long c = 0;
  CHECK (cudaMemcpy (&c, cycles, sizeof c, cudaMemcpyDeviceToHost));
  CHECK (cudaFree (dev));
  CHECK (cudaFree (sink));
  CHECK (cudaFree (cycles));
  return (double) c / kChase;
}

// ---------------------------------------------------------------------------
// Shared memory: latency by chasing, bank conflicts by strided warp reads.

__global__ void
chase_shared (int n, uint32_t *sink, long long *cycles)
{
  __shared__ uint32_t next[1024];
  for (int i = threadIdx.x; i < n; i += blockDim.x)
    next[i] = (uint32_t) ((i + 37) % n);  // 37 is coprime with 1024
  __syncthreads ();
  if (threadIdx.x != 0)
    return;
  uint32_t p = 0;
  long long t0 = clock64 ();
  for (int i = 0; i < kChase; i++)
    p = next[p];
  long long t1 = clock64 ();
  *sink = p;
  *cycles = t1 - t0;
}

// One warp; lane l reads word (l * stride) % 1024 + the previous value & 0
// (a data dependence that keeps the loads serial).
__global__ void
shared_stride (int stride, uint32_t *sink, long long *cycles)
{
  __shared__ uint32_t data[32 * 32];
  for (int i = threadIdx.x; i < 32 * 32; i += blockDim.x)
    data[i] = 0;
  __syncwarp ();
  uint32_t idx = (threadIdx.x * stride) % (32 * 32);
  uint32_t v = 0;
  long long t0 = clock64 ();
  for (int i = 0; i < kChase; i++)
    v = data[idx + v];
  __syncwarp ();
  long long t1 = clock64 ();
  sink[threadIdx.x] = v;
  if (threadIdx.x == 0)
    *cycles = t1 - t0;
}

// ---------------------------------------------------------------------------
// Functional units.  OP is applied to `x` with constants that keep values
// finite; CHAINS independent chains per thread.

template <int OP>
__device__ __forceinline__ float
step_f (float x)
{
  if (OP == 0)
    return fmaf (x, 0.999f, 0.001f);
  float y;
  asm volatile ("ex2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
  return y * 0.5f;
}

template <int OP, int CHAINS>
__global__ void
alu_f32 (int iters, float *sink, long long *cycles)
{
  float x[CHAINS];
  for (int c = 0; c < CHAINS; c++)
    x[c] = threadIdx.x * 1e-3f + c;
  long long t0 = clock64 ();
  for (int i = 0; i < iters; i++)
#pragma unroll
    for (int c = 0; c < CHAINS; c++)
      x[c] = step_f<OP> (x[c]);
  long long t1 = clock64 ();
  float s = 0;
  for (int c = 0; c < CHAINS; c++)
    s += x[c];
  sink[blockIdx.x * blockDim.x + threadIdx.x] = s;
  if (threadIdx.x == 0 && blockIdx.x == 0)
    *cycles = t1 - t0;
}

template <int CHAINS>
__global__ void
alu_int (int iters, int *sink, long long *cycles)
{
  int x[CHAINS];
  for (int c = 0; c < CHAINS; c++)
    x[c] = threadIdx.x + c;
  long long t0 = clock64 ();
  for (int i = 0; i < iters; i++)
#pragma unroll
    for (int c = 0; c < CHAINS; c++)
      x[c] = x[c] * 1664525 + 1013904223;  // IMAD
  long long t1 = clock64 ();
  int s = 0;
  for (int c = 0; c < CHAINS; c++)
    s ^= x[c];
  sink[blockIdx.x * blockDim.x + threadIdx.x] = s;
  if (threadIdx.x == 0 && blockIdx.x == 0)
    *cycles = t1 - t0;
}

template <int CHAINS>
__global__ void
alu_f64 (int iters, double *sink, long long *cycles)
{
  double x[CHAINS];
  for (int c = 0; c < CHAINS; c++)
    x[c] = threadIdx.x * 1e-3 + c;
  long long t0 = clock64 ();
  for (int i = 0; i < iters; i++)
#pragma unroll
    for (int c = 0; c < CHAINS; c++)
      x[c] = fma (x[c], 0.999, 0.001);
  long long t1 = clock64 ();
  double s = 0;
  for (int c = 0; c < CHAINS; c++)
    s += x[c];
  sink[blockIdx.x * blockDim.x + threadIdx.x] = s;
  if (threadIdx.x == 0 && blockIdx.x == 0)
    *cycles = t1 - t0;
}

struct Dev {
  int sms;
  double clock_hz;
};

// Latency: one thread, one chain.  Throughput: full SMs, 8 chains per
// thread, time by events; warp instructions per cycle per SM.
template <typename T, typename K1, typename K8>
static void
measure_unit (const char *name, const Dev &dev, K1 one, K8 eight)
{
  const int iters = 4096;
  T *sink;
  long long *cycles;
  const int blocks = dev.sms * 8, threads = 256;
  CHECK (cudaMalloc (&sink, sizeof (T) * blocks * threads));
  CHECK (cudaMalloc (&cycles, sizeof *cycles));
  one<<<1, 1>>> (iters, sink, cycles);
  CHECK (cudaDeviceSynchronize ());
  long long c = 0;
  CHECK (cudaMemcpy (&c, cycles, sizeof c, cudaMemcpyDeviceToHost));
  std::printf ("%s_latency %.3f\n", name, (double) c / iters);

  cudaEvent_t e0, e1;
  CHECK (cudaEventCreate (&e0));
  CHECK (cudaEventCreate (&e1));
  eight<<<blocks, threads>>> (iters, sink, cycles);  // warm-up (clocks ramp)
  CHECK (cudaEventRecord (e0));
  eight<<<blocks, threads>>> (iters, sink, cycles);
  CHECK (cudaEventRecord (e1));
  CHECK (cudaEventSynchronize (e1));
  float ms = 0;
  CHECK (cudaEventElapsedTime (&ms, e0, e1));
  double warp_insts = (double) blocks * (threads / 32) * iters * 8;
  double sm_cycles = ms * 1e-3 * dev.clock_hz * dev.sms;
  std::printf ("%s_warp_insts_per_cycle_per_sm %.4f\n", name, warp_insts / sm_cycles);
  CHECK (cudaEventDestroy (e0));
  CHECK (cudaEventDestroy (e1));
  CHECK (cudaFree (sink));
  CHECK (cudaFree (cycles));
}

// ---------------------------------------------------------------------------

static void
pcie (void)
{
  const size_t max = 256u << 20;
  void *host, *dev;
  CHECK (cudaMallocHost (&host, max));
  CHECK (cudaMalloc (&dev, max));
  cudaEvent_t e0, e1;
  CHECK (cudaEventCreate (&e0));
  CHECK (cudaEventCreate (&e1));
  for (int dir = 0; dir < 2; dir++)
    for (size_t n = 4; n <= max; n *= 4)
      for (int rep = 0; rep < 5; rep++)
        {
          CHECK (cudaEventRecord (e0));
          if (dir == 0)
            CHECK (cudaMemcpy (dev, host, n, cudaMemcpyHostToDevice));
          else
            CHECK (cudaMemcpy (host, dev, n, cudaMemcpyDeviceToHost));
          CHECK (cudaEventRecord (e1));
          CHECK (cudaEventSynchronize (e1));
          float ms = 0;
          CHECK (cudaEventElapsedTime (&ms, e0, e1));
          if (rep > 0)  // the first copy of a size pays for page mapping
            std::printf ("pcie %s %zu %.9g\n", dir ? "DtoH" : "HtoD", n, ms * 1e-3);
        }
  CHECK (cudaEventDestroy (e0));
  CHECK (cudaEventDestroy (e1));
  CHECK (cudaFreeHost (host));
  CHECK (cudaFree (dev));
}

int
main (void)
{
  int device = 0;
  CHECK (cudaSetDevice (device));
  cudaDeviceProp prop;
  CHECK (cudaGetDeviceProperties (&prop, device));
  int clock_khz = 0, l2_bytes = 0;
  CHECK (cudaDeviceGetAttribute (&clock_khz, cudaDevAttrClockRate, device));
  CHECK (cudaDeviceGetAttribute (&l2_bytes, cudaDevAttrL2CacheSize, device));
  Dev dev = { prop.multiProcessorCount, clock_khz * 1e3 };
  std::printf ("device %s\n", prop.name);
  std::printf ("cc %d.%d\n", prop.major, prop.minor);
  std::printf ("sms %d\n", dev.sms);
  std::printf ("core_clock_mhz %.1f\n", clock_khz / 1e3);

  // L1: 8 KiB, line-strided; L2: a quarter of L2 with .cg; DRAM: 8x L2 with
  // .cg and a 2 KiB stride (fresh lines, fewer TLB misses than a page stride).
  std::printf ("l1_latency %.3f\n", global_latency (8 << 10, 128, 0, kChase));
  std::printf ("l2_latency %.3f\n", global_latency ((size_t) l2_bytes / 4, 128, 1, 1 << 16));
  std::printf ("dram_latency %.3f\n", global_latency ((size_t) l2_bytes * 8, 2048, 1, 0));

  uint32_t *sink;
  long long *cycles, c = 0;
  CHECK (cudaMalloc (&sink, 32 * sizeof *sink));
  CHECK (cudaMalloc (&cycles, sizeof *cycles));
  chase_shared<<<1, 256>>> (1024, sink, cycles);
  CHECK (cudaDeviceSynchronize ());
  CHECK (cudaMemcpy (&c, cycles, sizeof c, cudaMemcpyDeviceToHost));
  std::printf ("shared_latency %.3f\n", (double) c / kChase);
  double per_way[33] = { 0 };
  for (int ways = 1; ways <= 32; ways *= 2)
    {
      // A stride of `ways` words puts `ways` lanes in each bank.
      shared_stride<<<1, 32>>> (ways, sink, cycles);
      CHECK (cudaDeviceSynchronize ());
      CHECK (cudaMemcpy (&c, cycles, sizeof c, cudaMemcpyDeviceToHost));
      per_way[ways] = (double) c / kChase;
      std::printf ("shared_stride_%d_cycles %.3f\n", ways, per_way[ways]);
    }
  std::printf ("shared_bank_conflict_cycles_per_way %.3f\n", (per_way[32] - per_way[1]) / 31);
  CHECK (cudaFree (sink));
  CHECK (cudaFree (cycles));

  measure_unit<float> ("fp32", dev, alu_f32<0, 1>, alu_f32<0, 8>);
  measure_unit<int> ("int", dev, alu_int<1>, alu_int<8>);
  measure_unit<float> ("sfu", dev, alu_f32<1, 1>, alu_f32<1, 8>);
  measure_unit<double> ("fp64", dev, alu_f64<1>, alu_f64<8>);

  pcie ();
  return 0;
}
