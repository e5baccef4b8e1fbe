/* ws-ptxmath-arith.c: PTX floating-point arithmetic (add sub mul fma mad div
 * min max copysign, the unary ops, testp and comparisons) with the ISA's
 * rounding, .ftz, .sat and NaN rules.
 *
 * Round-to-nearest f32/f64 operations use the host's IEEE arithmetic (same
 * results as the GPU: both are IEEE 754 correctly rounded).  Directed
 * rounding of f32/f16/bf16 is exact without the floating-point environment:
 * the operation is done in double together with its exact error (TwoSum for
 * sums, an fma residual for quotients and roots), the double is made
 * round-to-odd, and ws_fp_from_double rounds it into the target format in
 * the requested mode (53 >= 24 + 2 bits make this double rounding exact).
 * Directed f64 rounding is done in 128-bit integer arithmetic
 * (ws-ptxmath-f64.c).  The host's floating-point environment is never
 * changed. */
#include "ptxmath/ws-ptxmath-private.h"

/* ---- f32 result post-processing --------------------------------------- */

static inline uint32_t
f32_finish (uint32_t u, uint32_t mods)
{
  if ((u & 0x7fffffffu) > 0x7f800000u)
    u = WS_F32_CANON_NAN;
  if (mods & WS_MOD_FTZ)
    u = ws_f32_flush (u);
  if (mods & WS_MOD_SAT)
    {
      /* Clamp to [0, 1]; NaN and -0 become +0. */
      if ((u & 0x7fffffffu) > 0x7f800000u || (u >> 31) || u == 0)
        return 0;
      if (u > 0x3f800000u)
        return 0x3f800000u;
    }
  return u;
}

static inline uint16_t
f16_finish (uint16_t u, WsFpFmt fmt, uint32_t mods)
{
  uint16_t one = fmt == WS_FMT_F16 ? 0x3c00 : 0x3f80;
  uint16_t inf = fmt == WS_FMT_F16 ? 0x7c00 : 0x7f80;
  if ((u & 0x7fffu) > inf)
    u = 0x7fff;
  if ((mods & WS_MOD_FTZ) && fmt == WS_FMT_F16)
    u = ws_f16_flush (u);
  if ((mods & WS_MOD_FTZ) && fmt == WS_FMT_BF16 && (u & 0x7f80u) == 0)
    u &= 0x8000u;
  if ((mods & WS_MOD_RELU) && (u >> 15) && u != 0x7fff)
    return 0; /* fma.relu: negative results (and -0) become +0; NaN stays canonical */
  if (mods & WS_MOD_SAT)
    {
      if ((u & 0x7fffu) > inf || (u >> 15) || u == 0)
        return 0;
      if (u > one)
        return one;
    }
  return u;
}

static inline uint64_t
f64_finish (uint64_t u, uint32_t mods)
{
  if (mods & WS_MOD_SAT)
    {
      double d = ws_u2d (u);
      if (isnan (d) || d <= 0.0)
        return 0;
      if (d > 1.0)
        return ws_d2u (1.0);
    }
  return u;
}

/* ---- exact directed rounding ------------------------------------------ */

/* Sign of an exact zero sum x + y (IEEE 754 6.3): -0 only when both are -0,
 * or in round-toward-minus when either is. */
static inline double
zero_sum (double x, double y, WsFpMode mode)
{
  gboolean neg;
  if (x == 0 && y == 0)
    neg = mode == WS_FP_RM ? (signbit (x) || signbit (y)) : (signbit (x) && signbit (y));
  else
    neg = mode == WS_FP_RM;
  return neg ? -0.0 : 0.0;
}

/* Computes @op on operands that are exact doubles of a format of at most 24
 * significand bits and rounds into @fmt with @mode, exactly. */
static uint64_t
narrow_arith (WsFpFmt fmt, int op, double a, double b, double c, WsFpMode mode)
{
  double s, x, y;

  switch (op)
    {
    case WS_OP_ADD:
    case WS_OP_SUB:
    case WS_OP_FMA:
    case WS_OP_MAD:
      if (op == WS_OP_FMA || op == WS_OP_MAD)
        {
          x = a * b; /* exact: at most 48 significand bits */
          y = c;
        }
      else
        {
          x = a;
          y = op == WS_OP_SUB ? -b : b;
        }
      s = x + y;
      if (!isfinite (s))
        break;
      if (s == 0)
        s = zero_sum (x, y, mode);
      else
        {
          double bb = s - x;
          double e = (x - (s - bb)) + (y - bb); /* TwoSum: s + e == x + y */
          s = ws_fp_odd (s, e);
        }
      break;
    case WS_OP_MUL:
      s = a * b; /* exact */
      break;
    case WS_OP_DIV:
      s = a / b;
      if (isfinite (s) && s != 0 && isfinite (a))
        {
          double r = fma (-s, b, a); /* exact remainder: a - s*b */
          s = ws_fp_odd (s, r == 0 ? 0 : ((r > 0) == (b > 0) ? 1 : -1));
        }
      break;
    case WS_OP_SQRT:
      s = sqrt (a);
      if (isfinite (s) && s > 0)
        {
          double r = fma (-s, s, a);
          s = ws_fp_odd (s, r);
        }
      break;
    default: g_return_val_if_reached (ws_fp_canonical_nan (fmt));
    }
  return ws_fp_from_double (fmt, s, mode);
}

/* ---- min / max ---------------------------------------------------------- */

/* Returns 0 to pick a, 1 to pick b, -1 for the canonical NaN.  PTX: one NaN
 * operand gives the other operand; two NaNs (or any NaN with .NaN) give NaN;
 * -0 is below +0. */
static inline int
minmax_pick (double a, double b, gboolean is_max, uint32_t mods)
{
  gboolean na = isnan (a), nb = isnan (b);
  if (na || nb)
    {
      if ((na && nb) || (mods & WS_MOD_NAN))
        return -1;
      return na ? 1 : 0;
    }
  if (a == b)
    {
      if (signbit (a) != signbit (b))
        return (is_max ? signbit (a) : signbit (b)) ? 1 : 0;
      return 0;
    }
  return ((a < b) != is_max) ? 0 : 1;
}

static uint64_t
float_minmax (WsFpFmt fmt, uint64_t a, uint64_t b, gboolean is_max, uint32_t mods)
{
  int width = fmt == WS_FMT_F64 ? 64 : fmt == WS_FMT_F32 ? 32 : 16;
  uint64_t sign_bit = G_GUINT64_CONSTANT (1) << (width - 1);
  uint64_t xsign = 0, r;
  int pick;

  if (mods & WS_MOD_FTZ)
    {
      if (fmt == WS_FMT_F32)
        a = ws_f32_flush ((uint32_t) a), b = ws_f32_flush ((uint32_t) b);
      else if (fmt == WS_FMT_F16)
        a = ws_f16_flush ((uint16_t) a), b = ws_f16_flush ((uint16_t) b);
    }
  if (mods & WS_MOD_XORSIGN)
    {
      /* min/max.xorsign.abs: compare magnitudes; sign = sign(a) ^ sign(b). */
      xsign = (a ^ b) & sign_bit;
      a &= ~sign_bit;
      b &= ~sign_bit;
    }
  pick = minmax_pick (ws_fp_to_double (fmt, a), ws_fp_to_double (fmt, b), is_max, mods);
  if (pick < 0)
    return ws_fp_canonical_nan (fmt);
  r = pick ? b : a;
  return (r & ~sign_bit) | (((r & sign_bit) ^ xsign) & sign_bit);
}

/* ---- f32 ------------------------------------------------------------------ */

/* div.approx.f32: a * rcp.approx(b), with the ISA's rule for huge divisors. */
static uint32_t
f32_div_approx (uint32_t ua, uint32_t ub)
{
  float a = ws_u2f (ua), b = ws_u2f (ub);
  float ab = fabsf (b);
  if (ab > 0x1p126f && ab < INFINITY)
    {
      /* 2^126 < |b| < 2^128: NaN for infinite a, otherwise zero. */
      if (isinf (a))
        return WS_F32_CANON_NAN;
      return (ua ^ ub) & 0x80000000u;
    }
  return ws_f2u (a * (1.0f / b));
}

static uint32_t
f32_op (int op, uint32_t ua, uint32_t ub, uint32_t uc, int rnd, uint32_t mods)
{
  WsFpMode mode = ws_fp_mode_from_ptx (rnd, WS_FP_RN);
  float a, b, c;
  uint32_t r;

  if (mods & WS_MOD_FTZ)
    {
      ua = ws_f32_flush (ua);
      ub = ws_f32_flush (ub);
      uc = ws_f32_flush (uc);
    }
  a = ws_u2f (ua);
  b = ws_u2f (ub);
  c = ws_u2f (uc);

  switch (op)
    {
    case WS_OP_MIN:
    case WS_OP_MAX:
      if (!(mods & (WS_MOD_XORSIGN | WS_MOD_NAN)) && a == a && b == b && (a != b || ua == ub))
        {
          /* Ordered, distinct values (the common case): a plain compare. */
          gboolean a_less = a < b;
          return (op == WS_OP_MIN) == a_less ? ua : ub;
        }
      return (uint32_t) float_minmax (WS_FMT_F32, ua, ub, op == WS_OP_MAX, mods);
    case WS_OP_COPYSIGN:
      /* copysign d, a, b: the sign of a on the magnitude of b. */
      return (ub & 0x7fffffffu) | (ua & 0x80000000u);
    case WS_OP_DIV:
      if (mods & WS_MOD_APPROX)
        return f32_finish (f32_div_approx (ua, ub), mods);
      /* .full (max 2 ulp) is served by the correctly rounded quotient. */
      if (mods & WS_MOD_FULL)
        mode = WS_FP_RN;
      break;
    default: break;
    }

  if (mode == WS_FP_RN)
    {
      float f;
      switch (op)
        {
        case WS_OP_ADD: f = a + b; break;
        case WS_OP_SUB: f = a - b; break;
        case WS_OP_MUL: f = a * b; break;
        case WS_OP_DIV: f = a / b; break;
        case WS_OP_FMA:
        case WS_OP_MAD: f = fmaf (a, b, c); break;
        default: g_return_val_if_reached (WS_F32_CANON_NAN);
        }
      r = ws_f2u (f);
    }
  else
    r = (uint32_t) narrow_arith (WS_FMT_F32, op, a, b, c, mode);
  return f32_finish (r, mods);
}

/* ---- f64 ------------------------------------------------------------------ */

static uint64_t
f64_op (int op, uint64_t ua, uint64_t ub, uint64_t uc, int rnd, uint32_t mods)
{
  WsFpMode mode = ws_fp_mode_from_ptx (rnd, WS_FP_RN);
  double a = ws_u2d (ua), b = ws_u2d (ub), c = ws_u2d (uc), r;

  switch (op)
    {
    case WS_OP_MIN:
    case WS_OP_MAX: return float_minmax (WS_FMT_F64, ua, ub, op == WS_OP_MAX, mods);
    case WS_OP_COPYSIGN:
      return (ub & G_GUINT64_CONSTANT (0x7fffffffffffffff)) | (ua & G_GUINT64_CONSTANT (0x8000000000000000));
    default: break;
    }
  if (mode == WS_FP_RN || mode == WS_FP_RNA)
    {
      switch (op)
        {
        case WS_OP_ADD: r = a + b; break;
        case WS_OP_SUB: r = a - b; break;
        case WS_OP_MUL: r = a * b; break;
        case WS_OP_DIV: r = a / b; break;
        case WS_OP_FMA:
        case WS_OP_MAD: r = fma (a, b, c); break;
        default: g_return_val_if_reached (WS_F64_CANON_NAN);
        }
    }
  else
    r = ws_f64_directed (op, a, b, c, mode);
  return f64_finish (ws_d2u (r), mods);
}

/* ---- f16 / bf16 ------------------------------------------------------------ */

static uint16_t
half_op (WsFpFmt fmt, int op, uint16_t ua, uint16_t ub, uint16_t uc, int rnd, uint32_t mods)
{
  WsFpMode mode = ws_fp_mode_from_ptx (rnd, WS_FP_RN);

  if ((mods & WS_MOD_FTZ) && fmt == WS_FMT_F16)
    {
      ua = ws_f16_flush (ua);
      ub = ws_f16_flush (ub);
      uc = ws_f16_flush (uc);
    }
  switch (op)
    {
    case WS_OP_MIN:
    case WS_OP_MAX: return (uint16_t) float_minmax (fmt, ua, ub, op == WS_OP_MAX, mods);
    case WS_OP_COPYSIGN: return (ub & 0x7fff) | (ua & 0x8000);
    case WS_OP_ADD:
    case WS_OP_SUB:
    case WS_OP_MUL:
      if (mode == WS_FP_RN)
        {
          /* f32 carries more than 2p+2 bits of an f16/bf16 significand, so
           * rounding the f32 sum/product again to the half format gives the
           * correctly rounded result (no double-rounding error). */
          float x = ws_u2f (fmt == WS_FMT_F16 ? ws_f16_to_f32_bits (ua) : (uint32_t) ua << 16);
          float y = ws_u2f (fmt == WS_FMT_F16 ? ws_f16_to_f32_bits (ub) : (uint32_t) ub << 16);
          uint32_t r = ws_f2u (op == WS_OP_ADD ? x + y : op == WS_OP_SUB ? x - y : x * y);
          return f16_finish (fmt == WS_FMT_F16 ? ws_f32_to_f16_rn (r) : ws_f32_to_bf16_rn (r), fmt, mods);
        }
      break;
    default: break;
    }
  return f16_finish ((uint16_t) narrow_arith (fmt, op, ws_fp_to_double (fmt, ua), ws_fp_to_double (fmt, ub),
                                              ws_fp_to_double (fmt, uc), mode),
                     fmt, mods);
}

static G_GNUC_NO_INLINE uint64_t
float_op_general (int op, WsPtxType type, uint64_t a, uint64_t b, uint64_t c, int rnd, uint32_t mods)
{
  switch (type)
    {
    case WS_T_F32: return f32_op (op, (uint32_t) a, (uint32_t) b, (uint32_t) c, rnd, mods);
    case WS_T_F64: return f64_op (op, a, b, c, rnd, mods);
    case WS_T_F16:
    case WS_T_BF16: return half_op (ws_fp_fmt_of (type), op, (uint16_t) a, (uint16_t) b, (uint16_t) c, rnd, mods);
    case WS_T_F16X2:
    case WS_T_BF16X2:
      {
        WsFpFmt fmt = ws_fp_fmt_of (type);
        uint32_t lo = half_op (fmt, op, (uint16_t) a, (uint16_t) b, (uint16_t) c, rnd, mods);
        uint32_t hi = half_op (fmt, op, (uint16_t) (a >> 16), (uint16_t) (b >> 16), (uint16_t) (c >> 16), rnd, mods);
        return (uint64_t) (lo | (hi << 16));
      }
    default: g_return_val_if_reached (0);
    }
}

uint64_t
ws_ptx_float_op (int op, WsPtxType type, uint64_t a, uint64_t b, uint64_t c, int rnd, uint32_t mods)
{
  /* Plain round-to-nearest f32 arithmetic without a stack frame. */
  if (type == WS_T_F32 && mods == 0 && (rnd == WS_RND_RN || rnd == WS_RND_NONE))
    {
      float x = ws_u2f ((uint32_t) a), y = ws_u2f ((uint32_t) b), r;
      switch (op)
        {
        case WS_OP_ADD: r = x + y; break;
        case WS_OP_SUB: r = x - y; break;
        case WS_OP_MUL: r = x * y; break;
        case WS_OP_DIV: r = x / y; break;
        case WS_OP_FMA:
        case WS_OP_MAD: r = fmaf (x, y, ws_u2f ((uint32_t) c)); break;
        default: return float_op_general (op, type, a, b, c, rnd, mods);
        }
      return r != r ? WS_F32_CANON_NAN : ws_f2u (r);
    }
  if (type == WS_T_F16X2 || type == WS_T_BF16X2)
    {
      WsFpFmt fmt = type == WS_T_F16X2 ? WS_FMT_F16 : WS_FMT_BF16;
      uint32_t lo = half_op (fmt, op, (uint16_t) a, (uint16_t) b, (uint16_t) c, rnd, mods);
      uint32_t hi = half_op (fmt, op, (uint16_t) (a >> 16), (uint16_t) (b >> 16), (uint16_t) (c >> 16), rnd, mods);
      return (uint64_t) (lo | (hi << 16));
    }
  return float_op_general (op, type, a, b, c, rnd, mods);
}

/* ---- unary ------------------------------------------------------------------ */

/* The approximate functions of the SFU, computed in double and rounded to
 * nearest: within the ISA's stated error bounds (usually tighter than the
 * hardware), with the ISA's special values (which libm shares). */
static double
sfu_eval (int op, double x)
{
  switch (op)
    {
    case WS_OP_SIN: return sin (x);
    case WS_OP_COS: return cos (x);
    case WS_OP_EX2: return exp2 (x);
    case WS_OP_LG2: return log2 (x);
    case WS_OP_TANH: return tanh (x);
    case WS_OP_RSQRT: return 1.0 / sqrt (x);
    case WS_OP_RCP: return 1.0 / x;
    case WS_OP_SQRT: return sqrt (x);
    default: g_return_val_if_reached (NAN);
    }
}

static uint32_t
f32_unary (int op, uint32_t ua, int rnd, uint32_t mods)
{
  float a;

  if (mods & WS_MOD_FTZ)
    ua = ws_f32_flush (ua);
  a = ws_u2f (ua);
  switch (op)
    {
    case WS_OP_ABS:
      /* The ISA leaves the NaN of abs/neg unspecified; only the sign bit
       * changes here (as the emulator's own fast path does). */
      return ua & 0x7fffffffu;
    case WS_OP_NEG: return ua ^ 0x80000000u;
    case WS_OP_SQRT:
      if (!(mods & WS_MOD_APPROX) && rnd != WS_RND_NONE && rnd != WS_RND_RN)
        return f32_finish (
          (uint32_t) narrow_arith (WS_FMT_F32, WS_OP_SQRT, a, 0, 0, ws_fp_mode_from_ptx (rnd, WS_FP_RN)), mods);
      return f32_finish (ws_f2u (sqrtf (a)), mods);
    case WS_OP_RCP:
      if (!(mods & WS_MOD_APPROX) && rnd != WS_RND_NONE && rnd != WS_RND_RN)
        return f32_finish (
          (uint32_t) narrow_arith (WS_FMT_F32, WS_OP_DIV, 1.0, a, 0, ws_fp_mode_from_ptx (rnd, WS_FP_RN)), mods);
      return f32_finish (ws_f2u (1.0f / a), mods);
    case WS_OP_SIN:
    case WS_OP_COS:
    case WS_OP_EX2:
    case WS_OP_LG2:
    case WS_OP_TANH:
    case WS_OP_RSQRT: return f32_finish (ws_f2u ((float) sfu_eval (op, (double) a)), mods);
    default: g_return_val_if_reached (WS_F32_CANON_NAN);
    }
}

static uint64_t
f64_unary (int op, uint64_t ua, int rnd, uint32_t mods)
{
  WsFpMode mode = ws_fp_mode_from_ptx (rnd, WS_FP_RN);
  double a;

  switch (op)
    {
    case WS_OP_ABS: return ua & G_GUINT64_CONSTANT (0x7fffffffffffffff);
    case WS_OP_NEG: return ua ^ G_GUINT64_CONSTANT (0x8000000000000000);
    default: break;
    }
  /* .ftz on f64 exists only for rcp.approx.ftz.f64 / rsqrt.approx.ftz.f64. */
  if ((mods & WS_MOD_FTZ) && (ua & G_GUINT64_CONSTANT (0x7ff0000000000000)) == 0)
    ua &= G_GUINT64_CONSTANT (0x8000000000000000);
  a = ws_u2d (ua);
  switch (op)
    {
    case WS_OP_SQRT:
      if (!(mods & WS_MOD_APPROX) && mode != WS_FP_RN)
        return f64_finish (ws_d2u (ws_f64_directed (WS_OP_SQRT, a, 0, 0, mode)), mods);
      return f64_finish (ws_d2u (sqrt (a)), mods);
    case WS_OP_RCP:
      if (!(mods & WS_MOD_APPROX) && mode != WS_FP_RN)
        return f64_finish (ws_d2u (ws_f64_directed (WS_OP_DIV, 1.0, a, 0, mode)), mods);
      {
        uint64_t r = ws_d2u (1.0 / a);
        if ((mods & WS_MOD_FTZ) && (r & G_GUINT64_CONSTANT (0x7ff0000000000000)) == 0)
          r &= G_GUINT64_CONSTANT (0x8000000000000000);
        return r;
      }
    default:
      {
        uint64_t r = ws_d2u (sfu_eval (op, a));
        if ((mods & WS_MOD_FTZ) && (r & G_GUINT64_CONSTANT (0x7ff0000000000000)) == 0)
          r &= G_GUINT64_CONSTANT (0x8000000000000000);
        return f64_finish (r, mods);
      }
    }
}

static uint16_t
half_unary (WsFpFmt fmt, int op, uint16_t ua, int rnd, uint32_t mods)
{
  if ((mods & WS_MOD_FTZ) && fmt == WS_FMT_F16)
    ua = ws_f16_flush (ua);
  switch (op)
    {
    case WS_OP_ABS: return ua & 0x7fff; /* bitwise for half types */
    case WS_OP_NEG: return ua ^ 0x8000;
    case WS_OP_SQRT:
      return f16_finish (
        (uint16_t) narrow_arith (fmt, WS_OP_SQRT, ws_fp_to_double (fmt, ua), 0, 0, ws_fp_mode_from_ptx (rnd, WS_FP_RN)),
        fmt, mods);
    case WS_OP_RCP:
      return f16_finish ((uint16_t) narrow_arith (fmt, WS_OP_DIV, 1.0, ws_fp_to_double (fmt, ua), 0,
                                                  ws_fp_mode_from_ptx (rnd, WS_FP_RN)),
                         fmt, mods);
    default:
      return f16_finish ((uint16_t) ws_fp_from_double (fmt, sfu_eval (op, ws_fp_to_double (fmt, ua)), WS_FP_RN), fmt,
                         mods);
    }
}

uint64_t
ws_ptx_float_unary (int op, WsPtxType type, uint64_t a, int rnd, uint32_t mods)
{
  switch (type)
    {
    case WS_T_F32: return f32_unary (op, (uint32_t) a, rnd, mods);
    case WS_T_F64: return f64_unary (op, a, rnd, mods);
    case WS_T_F16:
    case WS_T_BF16: return half_unary (ws_fp_fmt_of (type), op, (uint16_t) a, rnd, mods);
    case WS_T_F16X2:
    case WS_T_BF16X2:
      {
        WsFpFmt fmt = ws_fp_fmt_of (type);
        uint32_t lo = half_unary (fmt, op, (uint16_t) a, rnd, mods);
        uint32_t hi = half_unary (fmt, op, (uint16_t) (a >> 16), rnd, mods);
        return (uint64_t) (lo | (hi << 16));
      }
    default: g_return_val_if_reached (0);
    }
}

/* ---- testp / compare ------------------------------------------------------- */

gboolean
ws_ptx_testp (int sub, WsPtxType type, uint64_t a)
{
  int sign, exp;
  uint64_t mant;
  WsFpFmt fmt = ws_fp_fmt_of (type);
  WsFpClass cls = ws_fp_unpack (fmt, a, &sign, &mant, &exp);
  int mb = fmt == WS_FMT_F64 ? 52 : fmt == WS_FMT_F32 ? 23 : fmt == WS_FMT_F16 ? 10 : 7;

  switch (sub)
    {
    case WS_SUB_FINITE: return cls == WS_FPC_ZERO || cls == WS_FPC_FINITE;
    case WS_SUB_INFINITE: return cls == WS_FPC_INF;
    case WS_SUB_NUMBER: return cls != WS_FPC_NAN;
    case WS_SUB_NOTANUMBER: return cls == WS_FPC_NAN;
    case WS_SUB_NORMAL: return cls == WS_FPC_FINITE && (mant >> mb) != 0;
    case WS_SUB_SUBNORMAL: return cls == WS_FPC_FINITE && (mant >> mb) == 0;
    default: g_return_val_if_reached (FALSE);
    }
}

static inline gboolean
int_compare (int cmp, gboolean is_signed, int width, uint64_t a, uint64_t b)
{
  uint64_t ua = a, ub = b;
  int64_t sa, sb;

  if (width < 64)
    {
      uint64_t m = (G_GUINT64_CONSTANT (1) << width) - 1;
      ua &= m;
      ub &= m;
    }
  sa = width < 64 ? ((int64_t) (ua << (64 - width)) >> (64 - width)) : (int64_t) ua;
  sb = width < 64 ? ((int64_t) (ub << (64 - width)) >> (64 - width)) : (int64_t) ub;
  switch (cmp)
    {
    case WS_CMP_EQ: return ua == ub;
    case WS_CMP_NE: return ua != ub;
    case WS_CMP_LT: return is_signed ? sa < sb : ua < ub;
    case WS_CMP_LE: return is_signed ? sa <= sb : ua <= ub;
    case WS_CMP_GT: return is_signed ? sa > sb : ua > ub;
    case WS_CMP_GE: return is_signed ? sa >= sb : ua >= ub;
    case WS_CMP_LO: return ua < ub;
    case WS_CMP_LS: return ua <= ub;
    case WS_CMP_HI: return ua > ub;
    case WS_CMP_HS: return ua >= ub;
    default: g_return_val_if_reached (FALSE);
    }
}

gboolean
ws_ptx_compare (int cmp, WsPtxType type, uint64_t a, uint64_t b, gboolean ftz)
{
  double x, y;
  gboolean unordered;

  switch (type)
    {
    case WS_T_F32:
      if (ftz)
        a = ws_f32_flush ((uint32_t) a), b = ws_f32_flush ((uint32_t) b);
      x = ws_u2f ((uint32_t) a);
      y = ws_u2f ((uint32_t) b);
      break;
    case WS_T_F64:
      x = ws_u2d (a);
      y = ws_u2d (b);
      break;
    case WS_T_F16:
    case WS_T_BF16:
      if (ftz && type == WS_T_F16)
        a = ws_f16_flush ((uint16_t) a), b = ws_f16_flush ((uint16_t) b);
      x = ws_fp_to_double (ws_fp_fmt_of (type), a & 0xffff);
      y = ws_fp_to_double (ws_fp_fmt_of (type), b & 0xffff);
      break;
    case WS_T_S8: return int_compare (cmp, TRUE, 8, a, b);
    case WS_T_S16: return int_compare (cmp, TRUE, 16, a, b);
    case WS_T_S32: return int_compare (cmp, TRUE, 32, a, b);
    case WS_T_S64: return int_compare (cmp, TRUE, 64, a, b);
    case WS_T_B8:
    case WS_T_U8: return int_compare (cmp, FALSE, 8, a, b);
    case WS_T_B16:
    case WS_T_U16: return int_compare (cmp, FALSE, 16, a, b);
    case WS_T_B32:
    case WS_T_U32: return int_compare (cmp, FALSE, 32, a, b);
    default: return int_compare (cmp, FALSE, 64, a, b);
    }

  unordered = isnan (x) || isnan (y);
  switch (cmp)
    {
    case WS_CMP_EQ: return !unordered && x == y;
    case WS_CMP_NE: return !unordered && x != y;
    case WS_CMP_LT:
    case WS_CMP_LO: return x < y;
    case WS_CMP_LE:
    case WS_CMP_LS: return x <= y;
    case WS_CMP_GT:
    case WS_CMP_HI: return x > y;
    case WS_CMP_GE:
    case WS_CMP_HS: return x >= y;
    case WS_CMP_EQU: return unordered || x == y;
    case WS_CMP_NEU: return unordered || x != y;
    case WS_CMP_LTU: return unordered || x < y;
    case WS_CMP_LEU: return unordered || x <= y;
    case WS_CMP_GTU: return unordered || x > y;
    case WS_CMP_GEU: return unordered || x >= y;
    case WS_CMP_NUM: return !unordered;
    case WS_CMP_NAN: return unordered;
    default: g_return_val_if_reached (FALSE);
    }
}
