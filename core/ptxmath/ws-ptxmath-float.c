/* ws-ptxmath-float.c: software packing and rounding of binary floating-point
 * formats (f16, bf16, f32, f64).  Integer arithmetic only, so results do not
 * depend on the host's rounding mode and every PTX rounding modifier is
 * exact. */
#include "ptxmath/ws-ptxmath-private.h"

typedef struct {
  int mant_bits; /* explicit fraction bits */
  int exp_bits;
} FmtInfo;

static const FmtInfo fmt_info[] = {
  [WS_FMT_F16] = { 10, 5 },
  [WS_FMT_BF16] = { 7, 8 },
  [WS_FMT_F32] = { 23, 8 },
  [WS_FMT_F64] = { 52, 11 },
};

uint64_t
ws_fp_canonical_nan (WsFpFmt fmt)
{
  switch (fmt)
    {
    case WS_FMT_F16: return WS_F16_CANON_NAN;
    case WS_FMT_BF16: return WS_BF16_CANON_NAN;
    case WS_FMT_F32: return WS_F32_CANON_NAN;
    default: return WS_F64_CANON_NAN;
    }
}

WsFpClass
ws_fp_unpack (WsFpFmt fmt, uint64_t bits, int *sign, uint64_t *mant, int *exp)
{
  const FmtInfo *f = &fmt_info[fmt];
  int mb = f->mant_bits, eb = f->exp_bits;
  int bias = (1 << (eb - 1)) - 1;
  uint64_t frac = bits & ((G_GUINT64_CONSTANT (1) << mb) - 1);
  int e = (int) ((bits >> mb) & ((1u << eb) - 1));

  *sign = (int) ((bits >> (mb + eb)) & 1);
  if (e == (1 << eb) - 1)
    return frac ? WS_FPC_NAN : WS_FPC_INF;
  if (e == 0)
    {
      if (frac == 0)
        return WS_FPC_ZERO;
      *mant = frac;
      *exp = 1 - bias - mb;
      return WS_FPC_FINITE;
    }
  *mant = frac | (G_GUINT64_CONSTANT (1) << mb);
  *exp = e - bias - mb;
  return WS_FPC_FINITE;
}

uint64_t
ws_fp_round_pack (WsFpFmt fmt, int sign, uint64_t mant, int exp, gboolean sticky, WsFpMode mode)
{
  const FmtInfo *f = &fmt_info[fmt];
  int mb = f->mant_bits, eb = f->exp_bits;
  int bias = (1 << (eb - 1)) - 1;
  int emin = 1 - bias;
  uint64_t sgn = (uint64_t) (sign & 1) << (mb + eb);
  uint64_t inf = (uint64_t) ((1u << eb) - 1) << mb;
  uint64_t kept, rem, half, bits;
  gboolean up;
  int lz, E, shift;

  if (mant == 0)
    {
      if (!sticky)
        return sgn;
      /* Only "something tiny but nonzero": far below any rounding position. */
      mant = 1;
      exp -= 2 * 1100;
      sticky = FALSE;
    }
  lz = __builtin_clzll (mant);
  mant <<= lz;
  exp -= lz;
  /* value = 1.xxx * 2^E with mant's top bit at position 63 */
  E = exp + 63;
  shift = 63 - mb;
  if (E < emin)
    shift += emin - E;
  if (shift > 64)
    {
      kept = 0;
      rem = 0;
      half = 1;
      sticky = TRUE;
    }
  else if (shift == 64)
    {
      kept = 0;
      rem = mant;
      half = G_GUINT64_CONSTANT (1) << 63;
    }
  else
    {
      kept = mant >> shift;
      rem = mant & ((G_GUINT64_CONSTANT (1) << shift) - 1);
      half = G_GUINT64_CONSTANT (1) << (shift - 1);
    }

  switch (mode)
    {
    case WS_FP_RZ: up = FALSE; break;
    case WS_FP_RM: up = sign && (rem || sticky); break;
    case WS_FP_RP: up = !sign && (rem || sticky); break;
    case WS_FP_RNA: up = rem >= half && (rem | sticky) != 0; break;
    default: up = rem > half || (rem == half && (sticky || (kept & 1))); break;
    }
  kept += up;

  if (E < emin)
    bits = kept; /* subnormal; a carry into 2^mb yields the smallest normal */
  else if (E + bias >= (1 << eb) - 1)
    bits = inf; /* certainly overflows */
  else
    bits = ((uint64_t) (E + bias - 1) << mb) + kept;

  if (bits >= inf)
    {
      gboolean to_inf;
      switch (mode)
        {
        case WS_FP_RZ: to_inf = FALSE; break;
        case WS_FP_RM: to_inf = sign; break;
        case WS_FP_RP: to_inf = !sign; break;
        default: to_inf = TRUE; break;
        }
      bits = to_inf ? inf : inf - 1;
    }
  return sgn | bits;
}

/* Round-to-nearest-even of a double into a narrow format by bit arithmetic
 * (the conversion every f16/bf16 instruction ends with): @drop fraction bits
 * go, the exponent is rebiased, carries run into the exponent; results
 * below the smallest normal are rounded by adding a power of two whose ulp
 * is the format's subnormal step (the host adds to nearest, ties to even). */
static inline uint64_t
narrow_rn (double x, int drop, int rebias, uint64_t min_normal_bits, double magic, uint64_t inf, uint64_t nan)
{
  uint64_t u = ws_d2u (x);
  uint64_t sign = (u >> 63) << 15; /* both narrow formats are 16 bits wide */
  uint64_t ax = u & G_GUINT64_CONSTANT (0x7fffffffffffffff);
  uint64_t m;

  if (ax >= G_GUINT64_CONSTANT (0x7ff0000000000000))
    return ax > G_GUINT64_CONSTANT (0x7ff0000000000000) ? nan : (sign | inf);
  if (ax < min_normal_bits)
    return sign | (ws_d2u (ws_u2d (ax) + magic) - ws_d2u (magic));
  m = ax + ((G_GUINT64_CONSTANT (1) << (drop - 1)) - 1) + ((ax >> drop) & 1);
  m = (m - ((uint64_t) rebias << 52)) >> drop;
  return sign | (m >= inf ? inf : m);
}

uint64_t
ws_fp_from_double (WsFpFmt fmt, double x, WsFpMode mode)
{
  int sign, exp;
  uint64_t mant;

  if (mode == WS_FP_RN)
    {
      if (fmt == WS_FMT_F16)
        return narrow_rn (x, 42, 1023 - 15, G_GUINT64_CONSTANT (0x3f10000000000000), 0x1p28, 0x7c00, WS_F16_CANON_NAN);
      if (fmt == WS_FMT_BF16)
        return narrow_rn (x, 45, 1023 - 127, G_GUINT64_CONSTANT (0x3810000000000000), 0x1p-81, 0x7f80,
                          WS_BF16_CANON_NAN);
    }

  switch (ws_fp_unpack (WS_FMT_F64, ws_d2u (x), &sign, &mant, &exp))
    {
    case WS_FPC_NAN: return ws_fp_canonical_nan (fmt);
    case WS_FPC_INF:
      {
        const FmtInfo *f = &fmt_info[fmt];
        return ((uint64_t) sign << (f->mant_bits + f->exp_bits))
               | ((uint64_t) ((1u << f->exp_bits) - 1) << f->mant_bits);
      }
    case WS_FPC_ZERO: return (uint64_t) sign << (fmt_info[fmt].mant_bits + fmt_info[fmt].exp_bits);
    default:
      if (fmt == WS_FMT_F64)
        return ws_d2u (x);
      if (fmt == WS_FMT_F32 && mode == WS_FP_RN)
        return ws_f2u ((float) x); /* the host's cast rounds to nearest */
      return ws_fp_round_pack (fmt, sign, mant, exp, FALSE, mode);
    }
}

double
ws_fp_to_double (WsFpFmt fmt, uint64_t bits)
{
  int sign, exp;
  uint64_t mant;

  switch (fmt)
    {
    case WS_FMT_F32: return (double) ws_u2f ((uint32_t) bits);
    case WS_FMT_F64: return ws_u2d (bits);
    case WS_FMT_BF16: return (double) ws_u2f ((uint32_t) (bits & 0xffff) << 16);
    default:
      if (((bits >> 10) & 0x1f) != 0x1f)
        return (double) ws_u2f (ws_f16_to_f32_bits ((uint16_t) bits));
      break;
    }
  switch (ws_fp_unpack (fmt, bits, &sign, &mant, &exp))
    {
    case WS_FPC_NAN: return sign ? -NAN : NAN;
    case WS_FPC_INF: return sign ? -INFINITY : INFINITY;
    case WS_FPC_ZERO: return sign ? -0.0 : 0.0;
    default: return (sign ? -1.0 : 1.0) * ldexp ((double) mant, exp);
    }
}

double
ws_fp_round_integral (double x, WsFpMode mode)
{
  /* libm's rounding functions are exact; rint follows the host's rounding
   * mode, which ptxmath only ever leaves at round-to-nearest. */
  switch (mode)
    {
    case WS_FP_RZ: return trunc (x);
    case WS_FP_RM: return floor (x);
    case WS_FP_RP: return ceil (x);
    case WS_FP_RNA: return round (x);
    default: return rint (x);
    }
}
