/* ws-ptxmath-private.h: exact software floating-point helpers shared by the
 * ptxmath sources.  Values are handled as raw bits of one of four binary
 * formats; rounding is done in integer arithmetic so every rounding mode is
 * exact without touching the host's floating-point environment. */
#pragma once

#include "ptxmath/ws-ptxmath.h"

#include <math.h>
#include <string.h>

G_BEGIN_DECLS

/* Host rounding directions used internally (independent of WsPtxRounding). */
typedef enum {
  WS_FP_RN = 0, /* nearest, ties to even */
  WS_FP_RZ,     /* toward zero */
  WS_FP_RM,     /* toward -inf */
  WS_FP_RP,     /* toward +inf */
  WS_FP_RNA,    /* nearest, ties away from zero */
} WsFpMode;

typedef enum { WS_FMT_F16, WS_FMT_BF16, WS_FMT_F32, WS_FMT_F64 } WsFpFmt;

typedef enum {
  WS_FPC_ZERO,
  WS_FPC_FINITE, /* normal or subnormal */
  WS_FPC_INF,
  WS_FPC_NAN,
} WsFpClass;

/* Unpacks @bits of @fmt: value = (-1)^sign * mant * 2^exp for finite values.
 * Returns the class; mant/exp are meaningful for WS_FPC_FINITE only. */
WsFpClass ws_fp_unpack (WsFpFmt fmt, uint64_t bits, int *sign, uint64_t *mant, int *exp);

/* Rounds (-1)^sign * (mant + sticky*epsilon) * 2^exp into @fmt with @mode:
 * @sticky says nonzero bits exist below mant's last bit.  Handles
 * subnormal results and overflow (to inf or the largest finite value
 * as the mode dictates).  mant == 0 && !sticky gives a signed zero. */
uint64_t ws_fp_round_pack (WsFpFmt fmt, int sign, uint64_t mant, int exp, gboolean sticky, WsFpMode mode);

/* Rounds a finite or special double into @fmt with @mode (NaN -> the
 * format's canonical NaN). */
uint64_t ws_fp_from_double (WsFpFmt fmt, double x, WsFpMode mode);

/* Exact widening of a value of @fmt (not f64) to double. */
double ws_fp_to_double (WsFpFmt fmt, uint64_t bits);

/* The canonical NaN the GPU produces for each format. */
uint64_t ws_fp_canonical_nan (WsFpFmt fmt);

static inline uint32_t
ws_f2u (float f)
{
  uint32_t u;
  memcpy (&u, &f, 4);
  return u;
}
static inline float
ws_u2f (uint32_t u)
{
  float f;
  memcpy (&f, &u, 4);
  return f;
}
static inline uint64_t
ws_d2u (double d)
{
  uint64_t u;
  memcpy (&u, &d, 8);
  return u;
}
static inline double
ws_u2d (uint64_t u)
{
  double d;
  memcpy (&d, &u, 8);
  return d;
}

#define WS_F32_CANON_NAN 0x7fffffffu
#define WS_F64_CANON_NAN G_GUINT64_CONSTANT (0xfff8000000000000)
#define WS_F16_CANON_NAN 0x7fffu
#define WS_BF16_CANON_NAN 0x7fffu

/* Sign-preserving flush of an f32 subnormal (exponent field zero). */
static inline uint32_t
ws_f32_flush (uint32_t u)
{
  return (u & 0x7f800000u) == 0 ? (u & 0x80000000u) : u;
}

static inline uint16_t
ws_f16_flush (uint16_t u)
{
  return (u & 0x7c00u) == 0 ? (u & 0x8000u) : u;
}

/* f16 -> f32 bits, exact. */
static inline uint32_t
ws_f16_to_f32_bits (uint16_t h)
{
  uint32_t sgn = (uint32_t) (h & 0x8000u) << 16;
  uint32_t e = (h >> 10) & 0x1f, f = h & 0x3ffu;
  if (e == 0x1f)
    return f ? WS_F32_CANON_NAN : (sgn | 0x7f800000u);
  if (e != 0)
    return sgn | ((e + 112) << 23) | (f << 13);
  {
    /* subnormal: f * 2^-24, exact in float */
    float v = (float) f * 0x1p-24f;
    uint32_t u;
    memcpy (&u, &v, 4);
    return sgn | u;
  }
}

/* f32 bits -> f16 bits, round to nearest even (the host must be in
 * round-to-nearest; its float addition rounds the subnormal range). */
static inline uint16_t
ws_f32_to_f16_rn (uint32_t x)
{
  uint32_t sgn = (x >> 16) & 0x8000u, ax = x & 0x7fffffffu;
  if (ax >= 0x7f800000u)
    return ax > 0x7f800000u ? WS_F16_CANON_NAN : (uint16_t) (sgn | 0x7c00u);
  if (ax >= 0x477ff000u) /* 65520 and above round to infinity */
    return (uint16_t) (sgn | 0x7c00u);
  if (ax < 0x38800000u) /* below 2^-14: 0.5 has an ulp of 2^-24, the f16 subnormal step */
    {
      float v, half = 0.5f;
      uint32_t u;
      memcpy (&v, &ax, 4);
      v += half;
      memcpy (&u, &v, 4);
      return (uint16_t) (sgn | (u - 0x3f000000u));
    }
  return (uint16_t) (sgn | ((ax + 0xfffu + ((ax >> 13) & 1) - (112u << 23)) >> 13));
}

/* f32 bits -> bf16 bits, round to nearest even. */
static inline uint16_t
ws_f32_to_bf16_rn (uint32_t x)
{
  if ((x & 0x7fffffffu) > 0x7f800000u)
    return WS_BF16_CANON_NAN;
  return (uint16_t) ((x + 0x7fffu + ((x >> 16) & 1)) >> 16);
}

/* Round-to-odd nudge: @s is the round-to-nearest double of an exact value
 * lying on the side @dir (> 0: above, < 0: below) of @s.  Returns the
 * neighbour with an odd last bit, so that a second rounding to a format with
 * at most 51 significand bits is correct in every mode. */
static inline double
ws_fp_odd (double s, double dir)
{
  uint64_t u = ws_d2u (s);
  if (dir == 0 || (u & 1))
    return s;
  if ((dir > 0) == !(u >> 63))
    u += 1; /* away from zero */
  else
    u -= 1; /* toward zero */
  return ws_u2d (u);
}

/* Maps a PTX rounding modifier (float or integer flavour) to a WsFpMode;
 * WS_RND_NONE gives @dflt. */
static inline WsFpMode
ws_fp_mode_from_ptx (int rnd, WsFpMode dflt)
{
  switch (rnd)
    {
    case WS_RND_RN:
    case WS_RND_RNI: return WS_FP_RN;
    case WS_RND_RZ:
    case WS_RND_RZI: return WS_FP_RZ;
    case WS_RND_RM:
    case WS_RND_RMI: return WS_FP_RM;
    case WS_RND_RP:
    case WS_RND_RPI: return WS_FP_RP;
    case WS_RND_RNA: return WS_FP_RNA;
    default: return dflt;
    }
}

static inline gboolean
ws_ptx_type_is_float (WsPtxType t)
{
  return t == WS_T_F16 || t == WS_T_BF16 || t == WS_T_F32 || t == WS_T_F64;
}

static inline gboolean
ws_ptx_type_is_signed_int (WsPtxType t)
{
  return t == WS_T_S8 || t == WS_T_S16 || t == WS_T_S32 || t == WS_T_S64;
}

static inline WsFpFmt
ws_fp_fmt_of (WsPtxType t)
{
  switch (t)
    {
    case WS_T_F16:
    case WS_T_F16X2: return WS_FMT_F16;
    case WS_T_BF16:
    case WS_T_BF16X2: return WS_FMT_BF16;
    case WS_T_F64: return WS_FMT_F64;
    default: return WS_FMT_F32;
    }
}

/* f64 add/sub/mul/div/fma/sqrt (WS_OP_*) exactly rounded in @mode, by
 * integer arithmetic (no floating-point environment). */
double ws_f64_directed (int op, double a, double b, double c, WsFpMode mode);

/* Rounds a double to the nearest integral value in @mode (exact). */
double ws_fp_round_integral (double x, WsFpMode mode);

G_END_DECLS
