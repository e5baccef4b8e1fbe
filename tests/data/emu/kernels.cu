// Test kernels for tests/emu (compiled to kernels.ptx with
// nvcc -ptx -arch=sm_80 -O3 kernels.cu, and to kernels-debug.ptx with -G; the .ptx files are committed so the tests
// run without CUDA).
#include <cstdio>
#include <cstdint>
#include <cassert>

extern "C" __global__ void vecadd(const float *a, const float *b, float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

extern "C" __global__ void saxpy2(int n, int a, float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float val = x[i], tmp = 0;
#pragma unroll 1
    for (int cnt = 0; cnt < a; ++cnt) tmp += val;
    y[i] += tmp;
  }
}

extern "C" __global__ void reduce(const int *in, int *out, int n) {
  __shared__ int partial[32];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = i < n ? in[i] : 0;
  for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
  int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  if (lane == 0) partial[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < (blockDim.x + 31) / 32 ? partial[lane] : 0;
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
    if (lane == 0) out[blockIdx.x] = v;
  }
}

extern "C" __global__ void diverge(const int *in, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int x = in[i], r = 0;
  if (x & 1) r = x * 3 + 1; else r = x / 2;
  for (int k = 0; k < 100; k++) {
    if (r == 1) break;
    if (r & 1) r = 3 * r + 1; else r >>= 1;
    out[n + i] = k + 1;
  }
  out[i] = r + __popc(__activemask());
}

extern "C" __global__ void atomics(unsigned *counters, float *fsum, double *dsum, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  atomicAdd(&counters[0], 1u);
  atomicAdd(&counters[1], (unsigned)i);
  atomicMax(&counters[2], (unsigned)i);
  atomicMin(&counters[3], (unsigned)i);
  atomicOr(&counters[4], 1u << (i & 31));
  atomicXor(&counters[5], (unsigned)i);
  atomicInc(&counters[6], 9u);
  atomicCAS(&counters[7], (unsigned)i, (unsigned)i + 1);
  atomicAdd(fsum, 1.0f);
  atomicAdd(dsum, 0.5);
  __shared__ unsigned s;
  if (threadIdx.x == 0) s = 0;
  __syncthreads();
  atomicAdd(&s, 2u);
  __syncthreads();
  if (threadIdx.x == 0) atomicAdd(&counters[8], s);
}

extern "C" __global__ void add64(const unsigned long long *a, const unsigned long long *b,
                                 unsigned long long *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  // 128-bit addition through a carry chain
  unsigned long long lo, hi;
  asm("add.cc.u64 %0, %2, %3;\n\taddc.u64 %1, %4, %5;"
      : "=l"(lo), "=l"(hi) : "l"(a[2*i]), "l"(b[2*i]), "l"(a[2*i+1]), "l"(b[2*i+1]));
  out[2*i] = lo; out[2*i+1] = hi;
  unsigned r0, r1;
  asm("sub.cc.u32 %0, %2, %3;\n\tsubc.u32 %1, 0, 0;" : "=r"(r0), "=r"(r1) : "r"((unsigned)a[2*i]), "r"((unsigned)b[2*i]));
  out[2*n + i] = ((unsigned long long)r1 << 32) | r0;
}

__device__ __noinline__ int fib(int n) {
  if (n < 2) return n;
  return fib(n - 1) + fib(n - 2);
}

extern "C" __global__ void recurse(int *out) {
  out[threadIdx.x] = fib(threadIdx.x % 12);
}

extern "C" __global__ void hello(int base) {
  printf("block %d thread %d value %d %.2f %s\n", blockIdx.x, threadIdx.x, base + threadIdx.x, 0.5 * threadIdx.x, "ok");
}

extern "C" __global__ void devmalloc(int *out) {
  int *p = (int *) malloc(16 * sizeof(int));
  if (!p) { out[threadIdx.x] = -1; return; }
  for (int k = 0; k < 16; k++) p[k] = threadIdx.x * k;
  int s = 0;
  for (int k = 0; k < 16; k++) s += p[k];
  out[threadIdx.x] = s;
  free(p);
}

extern "C" __global__ void oob(int *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  p[i + n] = 1;
}

extern "C" __global__ void misaligned(char *p) {
  *(int *)(p + 2) = 5;
}

__constant__ float coeffs[4] = {1.5f, 2.5f, 3.5f, 4.5f};
__device__ int table[8] = {10, 20, 30, 40, 50, 60, 70, 80};
__device__ int counter;
__device__ int *table_ptr = table;

extern "C" __global__ void globals(float *out) {
  int t = threadIdx.x;
  out[t] = coeffs[t & 3] * table_ptr[t & 7];
  atomicAdd(&counter, 1);
}

extern "C" __global__ void dynsmem(const int *in, int *out) {
  extern __shared__ int buf[];
  int t = threadIdx.x;
  buf[t] = in[blockIdx.x * blockDim.x + t];
  __syncthreads();
  out[blockIdx.x * blockDim.x + t] = buf[blockDim.x - 1 - t];
}

extern "C" __global__ void localarr(const int *in, int *out, int k) {
  int a[32];
  for (int j = 0; j < 32; j++) a[j] = in[j] * threadIdx.x;
  out[threadIdx.x] = a[(threadIdx.x + k) & 31];
}

extern "C" __global__ void warpops(int *out) {
  int t = threadIdx.x;
  unsigned b = __ballot_sync(0xffffffffu, t & 1);
  int all = __all_sync(0xffffffffu, t < 64);
  int any = __any_sync(0xffffffffu, t == 5);
  int up = __shfl_up_sync(0xffffffffu, t, 1);
  int idx = __shfl_sync(0xffffffffu, t * 2, (t + 3) & 31);
  unsigned m = __match_any_sync(0xffffffffu, t / 8);
  int red = __reduce_add_sync(0xffffffffu, t);
  out[t * 8 + 0] = b; out[t * 8 + 1] = all; out[t * 8 + 2] = any; out[t * 8 + 3] = up;
  out[t * 8 + 4] = idx; out[t * 8 + 5] = m; out[t * 8 + 6] = red;
  out[t * 8 + 7] = __brev(t) ^ __clz(t) ^ __ffs(t) ^ __byte_perm(t, 0x12345678, 0x3210 + t);
}

extern "C" __global__ void mathops(const float *in, float *out, double *dout) {
  int t = threadIdx.x;
  float x = in[t];
  out[t * 6 + 0] = sqrtf(x);
  out[t * 6 + 1] = __sinf(x);
  out[t * 6 + 2] = expf(x);
  out[t * 6 + 3] = x / 3.0f;
  out[t * 6 + 4] = (float)(int)(x * 7.9f);
  out[t * 6 + 5] = rsqrtf(x + 1.0f);
  double d = x;
  dout[t * 2 + 0] = sqrt(d) / 3.0;
  dout[t * 2 + 1] = fma(d, d, 1.0);
}

typedef int (*binop_t)(int, int);
__device__ __noinline__ int op_add(int a, int b) { return a + b; }
__device__ __noinline__ int op_mul(int a, int b) { return a * b; }
__device__ __noinline__ int op_sub(int a, int b) { return a - b; }
__device__ binop_t ops[3] = {op_add, op_mul, op_sub};

extern "C" __global__ void indirect(int *out) {
  int t = threadIdx.x;
  out[t] = ops[t % 3](t, 7);
}

extern "C" __global__ void switcher(int *out) {
  int t = threadIdx.x, r;
  switch (t % 9) {
    case 0: r = t * 3; break;
    case 1: r = t + 100; break;
    case 2: r = t ^ 0x55; break;
    case 3: r = -t; break;
    case 4: r = t << 3; break;
    case 5: r = t / 3; break;
    case 6: r = t % 5; break;
    case 7: r = 77; break;
    default: r = t * t; break;
  }
  out[t] = r;
}

#include <cuda_fp16.h>
extern "C" __global__ void halfops(const float *in, float *out) {
  int t = threadIdx.x;
  __half a = __float2half(in[t]), b = __float2half(1.5f);
  __half c = __hfma(a, b, __float2half(0.25f));
  __half2 v = __halves2half2(a, b);
  __half2 w = __hmul2(v, v);
  out[t * 3 + 0] = __half2float(c);
  out[t * 3 + 1] = __low2float(w);
  out[t * 3 + 2] = __high2float(w);
}

extern "C" __global__ void asserter(int *p) {
  assert(p[threadIdx.x] < 10);
}

extern "C" __global__ void grid3d(unsigned *out) {
  unsigned b = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
  unsigned nt = blockDim.x * blockDim.y * blockDim.z;
  unsigned t = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  out[2 * (b * nt + t)] = threadIdx.x | threadIdx.y << 8 | threadIdx.z << 16;
  out[2 * (b * nt + t) + 1] = blockIdx.x | blockIdx.y << 8 | blockIdx.z << 16;
}

// Volta-style independent thread scheduling: a spin lock taken by every
// thread of a warp (deadlocks on a pure SIMT stack).
__device__ int g_lock;
extern "C" __global__ void spinlock(int *counter) {
  while (atomicCAS(&g_lock, 0, 1) != 0)
    ;
  *(volatile int *) counter += 1;
  __threadfence();
  atomicExch(&g_lock, 0);
}
