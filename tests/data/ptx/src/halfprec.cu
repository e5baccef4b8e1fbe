// Half precision and bfloat16.
#include <cuda_fp16.h>
#include <cuda_bf16.h>
__global__ void halfk(__half *h, __half2 *h2, __nv_bfloat16 *bf, float *f)
{
  int t = threadIdx.x;
  __half a = h[t], b = h[t + 1];
  h[t] = __hadd (a, b) * __hmul (a, b) - __hdiv (a, b) + __hfma (a, b, a) + hsqrt (a) + __habs (b);
  h2[t] = __hadd2 (h2[t], h2[t + 1]) * __hfma2 (h2[t], h2[t], h2[t + 1]);
  bf[t] = __hadd (bf[t], bf[t + 1]) * bf[t];
  f[t] = __half2float (a) + __low2float (h2[t]) + __bfloat162float (bf[t]) + (__hlt (a, b) ? 1.0f : 0.0f);
  h[t + 2] = __float2half_rn (f[t]);
  bf[t + 2] = __float2bfloat16 (f[t]);
  h2[t + 2] = __floats2half2_rn (f[t], f[t + 1]);
}
