/* ws-ptxmath-cvt.c: the cvt instruction (PTX ISA "cvt"): integer<->integer
 * with extension, truncation and .sat; integer<->float and float<->float with
 * the four IEEE rounding modes; float->integer with .rni/.rzi/.rmi/.rpi,
 * clamping to the destination range and NaN -> 0; .ftz on f32 operands and
 * results; .sat to [0, 1] for float destinations; .relu for f16/bf16. */
#include "ptxmath/ws-ptxmath-private.h"

static inline int
int_width (WsPtxType t)
{
  switch (t)
    {
    case WS_T_B8:
    case WS_T_U8:
    case WS_T_S8: return 8;
    case WS_T_B16:
    case WS_T_U16:
    case WS_T_S16: return 16;
    case WS_T_B32:
    case WS_T_U32:
    case WS_T_S32: return 32;
    default: return 64;
    }
}

/* Reads the low bits of @bits as an integer of type @t. */
static inline __int128
int_read (uint64_t bits, WsPtxType t)
{
  int w = int_width (t);
  if (ws_ptx_type_is_signed_int (t))
    return (__int128) (w == 64 ? (int64_t) bits : ((int64_t) (bits << (64 - w)) >> (64 - w)));
  return (__int128) (w == 64 ? bits : (bits & ((G_GUINT64_CONSTANT (1) << w) - 1)));
}

/* Truncates @v to the width of @t and extends it to 64 bits by @t's
 * signedness, so a destination register wider than the type (cvt.s8.s32
 * into a .b16/.b32 register) holds the extended value. */
static inline uint64_t
int_write (__int128 v, WsPtxType t)
{
  int w = int_width (t);
  uint64_t u = (uint64_t) v;
  if (w == 64)
    return u;
  if (ws_ptx_type_is_signed_int (t))
    return (uint64_t) ((int64_t) (u << (64 - w)) >> (64 - w));
  return u & ((G_GUINT64_CONSTANT (1) << w) - 1);
}

static inline __int128
int_min (WsPtxType t)
{
  return ws_ptx_type_is_signed_int (t) ? -((__int128) 1 << (int_width (t) - 1)) : 0;
}

static inline __int128
int_max (WsPtxType t)
{
  int w = int_width (t);
  return ws_ptx_type_is_signed_int (t) ? ((__int128) 1 << (w - 1)) - 1 : ((__int128) 1 << w) - 1;
}

static inline gboolean
mode_is_integer (int rnd)
{
  return rnd == WS_RND_RNI || rnd == WS_RND_RZI || rnd == WS_RND_RMI || rnd == WS_RND_RPI;
}

/* Applies .ftz (f32 results only), .sat and .relu to a float result. */
static uint64_t
float_result_mods (uint64_t r, WsFpFmt fmt, WsPtxType to, uint32_t mods)
{
  if ((mods & WS_MOD_FTZ) && to == WS_T_F32)
    r = ws_f32_flush ((uint32_t) r);
  if (mods & (WS_MOD_SAT | WS_MOD_RELU))
    {
      double d = ws_fp_to_double (fmt, r);
      if (mods & WS_MOD_SAT)
        {
          if (isnan (d) || d <= 0.0)
            return 0; /* NaN and -0 saturate to +0 */
          if (d > 1.0)
            return ws_fp_from_double (fmt, 1.0, WS_FP_RN);
        }
      else if (isnan (d))
        return ws_fp_canonical_nan (fmt);
      else if (d < 0.0 || (d == 0.0 && signbit (d)))
        return 0;
    }
  return r;
}

static uint64_t
cvt_float_to_int (uint64_t bits, WsPtxType from, WsPtxType to, int rnd, uint32_t mods)
{
  WsFpFmt ff = ws_fp_fmt_of (from);
  double x, r;

  if ((mods & WS_MOD_FTZ) && from == WS_T_F32)
    bits = ws_f32_flush ((uint32_t) bits);
  x = ws_fp_to_double (ff, bits);
  if (isnan (x))
    return 0;
  /* PTX requires an integer rounding modifier here; C's truncation is the
   * sensible reading of a missing one. */
  r = ws_fp_round_integral (x, ws_fp_mode_from_ptx (rnd, WS_FP_RZ));

  /* Float-to-integer conversions always clamp to the destination range
   * (.sat is implied). */
  if (ws_ptx_type_is_signed_int (to))
    {
      int w = int_width (to);
      double lo = -ldexp (1.0, w - 1), hi = ldexp (1.0, w - 1);
      if (r <= lo)
        return int_write (int_min (to), to);
      if (r >= hi)
        return int_write (int_max (to), to);
      return int_write ((__int128) (int64_t) r, to);
    }
  else
    {
      double hi = ldexp (1.0, int_width (to));
      if (r <= 0.0)
        return 0;
      if (r >= hi)
        return int_write (int_max (to), to);
      return int_write ((__int128) (uint64_t) r, to);
    }
}

static uint64_t
cvt_int_to_float (uint64_t bits, WsPtxType from, WsPtxType to, int rnd, uint32_t mods)
{
  WsFpFmt tf = ws_fp_fmt_of (to);
  WsFpMode mode = ws_fp_mode_from_ptx (rnd, WS_FP_RN);
  __int128 v = int_read (bits, from);
  uint64_t r;

  if (mode == WS_FP_RN && (to == WS_T_F32 || to == WS_T_F64))
    {
      /* The host's conversions round to nearest even, exactly as needed. */
      if (v < 0)
        r = to == WS_T_F32 ? ws_f2u ((float) (int64_t) v) : ws_d2u ((double) (int64_t) v);
      else
        r = to == WS_T_F32 ? ws_f2u ((float) (uint64_t) v) : ws_d2u ((double) (uint64_t) v);
    }
  else
    {
      int sign = v < 0;
      uint64_t mag = (uint64_t) (sign ? -v : v);
      r = ws_fp_round_pack (tf, sign, mag, 0, FALSE, mode);
    }
  return float_result_mods (r, tf, to, mods);
}

static uint64_t
cvt_float_to_float (uint64_t bits, WsPtxType from, WsPtxType to, int rnd, uint32_t mods)
{
  WsFpFmt ff = ws_fp_fmt_of (from), tf = ws_fp_fmt_of (to);
  double x;
  uint64_t r;

  if ((mods & WS_MOD_FTZ) && from == WS_T_F32)
    bits = ws_f32_flush ((uint32_t) bits);

  if (to == WS_T_F64 && from != WS_T_F64)
    {
      /* Widening is exact; a NaN keeps its sign and payload, quietened. */
      if (from == WS_T_F32 && ((uint32_t) bits & 0x7fffffffu) > 0x7f800000u)
        return ((uint64_t) (bits & 0x80000000u) << 32) | G_GUINT64_CONSTANT (0x7ff8000000000000)
               | ((uint64_t) (bits & 0x003fffffu) << 29);
      x = ws_fp_to_double (ff, bits);
      if (mode_is_integer (rnd))
        x = ws_fp_round_integral (x, ws_fp_mode_from_ptx (rnd, WS_FP_RN));
      return float_result_mods (ws_d2u (x), tf, to, mods);
    }

  if (from == WS_T_F64 && to == WS_T_F64)
    {
      x = ws_u2d (bits);
      if (isnan (x))
        return bits | G_GUINT64_CONSTANT (0x0008000000000000);
      if (mode_is_integer (rnd))
        x = ws_fp_round_integral (x, ws_fp_mode_from_ptx (rnd, WS_FP_RN));
      return float_result_mods (ws_d2u (x), tf, to, mods);
    }

  x = ws_fp_to_double (ff, bits);
  if (isnan (x))
    r = ws_fp_canonical_nan (tf);
  else if (mode_is_integer (rnd))
    {
      /* Same-size conversion to an integral value (cvt.rni.f32.f32). */
      x = ws_fp_round_integral (x, ws_fp_mode_from_ptx (rnd, WS_FP_RN));
      r = ws_fp_from_double (tf, x, WS_FP_RN);
    }
  else
    r = ws_fp_from_double (tf, x, ws_fp_mode_from_ptx (rnd, WS_FP_RN));
  return float_result_mods (r, tf, to, mods);
}

uint64_t
ws_ptx_cvt_mods (uint64_t bits, WsPtxType from, WsPtxType to, int rnd, uint32_t mods)
{
  gboolean ff = ws_ptx_type_is_float (from), tf = ws_ptx_type_is_float (to);

  if (ff && tf)
    return cvt_float_to_float (bits, from, to, rnd, mods);
  if (ff)
    return cvt_float_to_int (bits, from, to, rnd, mods);
  if (tf)
    return cvt_int_to_float (bits, from, to, rnd, mods);

  /* integer -> integer */
  if (!(mods & WS_MOD_SAT))
    {
      int w = int_width (from);
      uint64_t v = bits;
      if (w < 64)
        v = ws_ptx_type_is_signed_int (from) ? (uint64_t) ((int64_t) (bits << (64 - w)) >> (64 - w))
                                             : bits & ((G_GUINT64_CONSTANT (1) << w) - 1);
      w = int_width (to);
      if (w < 64)
        v = ws_ptx_type_is_signed_int (to) ? (uint64_t) ((int64_t) (v << (64 - w)) >> (64 - w))
                                           : v & ((G_GUINT64_CONSTANT (1) << w) - 1);
      return v;
    }
  else
    {
      /* .sat clamps the source value to the destination's range. */
      __int128 v = int_read (bits, from);
      __int128 lo = int_min (to), hi = int_max (to);
      if (v < lo)
        v = lo;
      else if (v > hi)
        v = hi;
      return int_write (v, to);
    }
}

uint64_t
ws_ptx_cvt (uint64_t bits, WsPtxType from, WsPtxType to, int rnd, gboolean sat, gboolean ftz)
{
  /* The conversions a kernel executes most, without the general dispatch. */
  if (!sat && !ftz)
    {
      if (from == WS_T_F32 && to == WS_T_F64)
        {
          float f = ws_u2f ((uint32_t) bits);
          if (!isnan (f))
            return ws_d2u ((double) f);
        }
      else if (from == WS_T_S32 && to == WS_T_S64)
        return (uint64_t) (int64_t) (int32_t) bits;
      else if (from == WS_T_U32 && to == WS_T_U64)
        return (uint32_t) bits;
      else if (from == WS_T_S32 && to == WS_T_F32 && (rnd == WS_RND_RN || rnd == WS_RND_NONE))
        return ws_f2u ((float) (int32_t) bits);
      else if (from == WS_T_U32 && to == WS_T_F32 && (rnd == WS_RND_RN || rnd == WS_RND_NONE))
        return ws_f2u ((float) (uint32_t) bits);
      else if (from == WS_T_F32 && to == WS_T_F16 && (rnd == WS_RND_RN || rnd == WS_RND_NONE))
        return ws_f32_to_f16_rn ((uint32_t) bits);
      else if (from == WS_T_F32 && to == WS_T_BF16 && (rnd == WS_RND_RN || rnd == WS_RND_NONE))
        return ws_f32_to_bf16_rn ((uint32_t) bits);
      else if (from == WS_T_F16 && to == WS_T_F32)
        return ws_f16_to_f32_bits ((uint16_t) bits);
      else if (from == WS_T_F64 && to == WS_T_F32 && (rnd == WS_RND_RN || rnd == WS_RND_NONE))
        {
          float f = (float) ws_u2d (bits);
          return isnan (f) ? WS_F32_CANON_NAN : ws_f2u (f);
        }
      else if (from == WS_T_F32 && to == WS_T_S32 && rnd == WS_RND_RZI)
        {
          /* C's conversion truncates; only the clamping needs care. */
          float f = ws_u2f ((uint32_t) bits);
          if (f != f)
            return 0;
          if (f >= 2147483648.0f)
            return (uint64_t) (int64_t) G_MAXINT32;
          if (f <= -2147483648.0f)
            return (uint64_t) (int64_t) G_MININT32;
          return (uint64_t) (int64_t) (int32_t) f;
        }
    }
  return ws_ptx_cvt_mods (bits, from, to, rnd, (sat ? WS_MOD_SAT : 0) | (ftz ? WS_MOD_FTZ : 0));
}
