// Integer and floating-point arithmetic of every type.
#include <cstdint>
__global__ void ints(int8_t *i8, uint8_t *u8, int16_t *i16, uint16_t *u16, int32_t *i32, uint32_t *u32,
                     int64_t *i64, uint64_t *u64)
{
  int t = threadIdx.x;
  i8[t] = (int8_t) (i8[t] * 3 + i8[t + 1]);
  u8[t] = (uint8_t) (u8[t] / 3 + (u8[t + 1] % 5));
  i16[t] = (int16_t) (i16[t] * i16[t + 1] - 1000);
  u16[t] = (uint16_t) (u16[t] >> 3);
  i32[t] = i32[t] / i32[t + 1] + i32[t + 2] % i32[t + 3] + __mulhi (i32[t], i32[t + 1]) + abs (i32[t + 4]);
  u32[t] = u32[t] / u32[t + 1] + u32[t + 2] % u32[t + 3] + __umulhi (u32[t], 7u) + __popc (u32[t]) + __clz (u32[t])
           + __brev (u32[t]) + __ffs (u32[t]) + __byte_perm (u32[t], u32[t + 1], 0x5410)
           + __funnelshift_l (u32[t], u32[t + 1], 5) + __funnelshift_r (u32[t], u32[t + 1], u32[t + 2])
           + min (u32[t], u32[t + 1]) + max (u32[t], 9u) + __sad (u32[t], u32[t + 1], 3u) + __usad (u32[t], 3u, 1u);
  i64[t] = i64[t] / i64[t + 1] + i64[t + 2] % i64[t + 3] + __mul64hi (i64[t], i64[t + 1]) + llabs (i64[t]) + __popcll (i64[t]);
  u64[t] = u64[t] / u64[t + 1] + u64[t + 2] % 1000003ull + (u64[t] << 13) + (u64[t] >> (u32[t] & 63)) + __clzll (u64[t])
           + __brevll (u64[t]) + __ffsll (u64[t]);
}

__global__ void floats(float *f, double *d, int *i, unsigned *u, long long *l)
{
  int t = threadIdx.x;
  f[t] = f[t] * f[t + 1] + f[t + 2] / f[t + 3] - fminf (f[t], 2.5f) + fmaxf (f[t], -1.0f) + fabsf (f[t + 4])
         + __fadd_rz (f[t], 1.0f) + __fmul_rd (f[t], 3.0f) + __fdiv_rn (f[t], f[t + 5]) + __fmaf_ru (f[t], f[t], 1.0f)
         + __saturatef (f[t]) + copysignf (f[t], f[t + 1]) + __frcp_rn (f[t]) + __fsqrt_rn (f[t]);
  d[t] = d[t] * d[t + 1] + d[t + 2] / d[t + 3] + fmin (d[t], 1.0) + fma (d[t], d[t + 1], 0.5) + sqrt (d[t]) + 1.0 / d[t]
         + __dadd_rd (d[t], 2.0) + fabs (d[t]) + (double) f[t] + (double) i[t] + (double) l[t];
  i[t] = (int) f[t] + (int) d[t] + __float2int_rn (f[t]) + __double2int_rz (d[t]) + (int) rintf (f[t]) + (int) floorf (f[t])
         + (int) ceil (d[t]) + (int) truncf (f[t]) + isnan (f[t]) + isinf (d[t]) + signbit (f[t]);
  u[t] = (unsigned) f[t] + __float_as_uint (f[t]) + (unsigned) __double_as_longlong (d[t]) + __float2uint_ru (f[t]);
  l[t] = (long long) d[t] + __double2ll_rd (d[t]) + (long long) f[t] + __float2ll_rz (f[t]);
}
