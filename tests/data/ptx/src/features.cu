// Less common features: virtual calls, new/delete, cp.async, dp4a, 128-bit
// integers, half atomics, 16-bit CAS, special registers, nanosleep, trap paths.
#include <cuda_fp16.h>
#include <cuda_pipeline.h>
#include <cstdio>

struct Shape {
  __device__ virtual float area () const = 0;
  __device__ virtual ~Shape () {}
};
struct Sq : Shape {
  float s;
  __device__ Sq (float v) : s (v) {}
  __device__ float area () const override { return s * s; }
};
struct Circ : Shape {
  float r;
  __device__ Circ (float v) : r (v) {}
  __device__ float area () const override { return 3.14159f * r * r; }
};

__global__ void virt (float *out, int n)
{
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  Shape *s = (t & 1) ? (Shape *) new Sq (t) : (Shape *) new Circ (t);
  if (t < n)
    out[t] = s->area ();
  delete s;
}

__global__ void pipeline (const int4 *in, int4 *out)
{
  __shared__ int4 buf[128];
  __pipeline_memcpy_async (&buf[threadIdx.x], &in[blockIdx.x * 128 + threadIdx.x], sizeof (int4));
  __pipeline_commit ();
  __pipeline_wait_prior (0);
  __syncthreads ();
  out[blockIdx.x * 128 + threadIdx.x] = buf[127 - threadIdx.x];
}

__global__ void intrinsics (int *out, const int *a, const int *b, unsigned long long *w, __half2 *h2,
                            unsigned short *us, __half *hh)
{
  int t = threadIdx.x;
  out[t] = __dp4a (a[t], b[t], out[t]) + __dp2a_lo (a[t], b[t], 1);
  unsigned x = a[t], y = b[t], z = out[t + 1];
  out[t + 2] = (x & y) ^ (~z | (x & ~y));  /* lop3 */
  unsigned __int128 p = (unsigned __int128) w[t] * w[t + 1];
  w[t] = (unsigned long long) (p >> 64) + (unsigned long long) p;
  atomicAdd (&h2[t], __floats2half2_rn (1.0f, 2.0f));
  atomicAdd (&hh[t], __float2half (0.5f));
  atomicCAS (&us[t], (unsigned short) 1, (unsigned short) 2);
  unsigned smid, warpid, nsmid;
  asm ("mov.u32 %0, %%smid;" : "=r"(smid));
  asm ("mov.u32 %0, %%warpid;" : "=r"(warpid));
  asm ("mov.u32 %0, %%nsmid;" : "=r"(nsmid));
  unsigned long long gt;
  asm volatile ("mov.u64 %0, %%globaltimer;" : "=l"(gt));
  out[t + 3] = smid + warpid + nsmid + (int) gt + __isGlobal (a) + __fns (x, 0, 3);
  __nanosleep (100);
  if (out[t] == 12345)
    __trap ();
  if (out[t] == 777)
    asm ("exit;");
  out[t + 4] = __reduce_max_sync (0xffffffffu, t);
}
