/* ws-ptxmath-f64.c: f64 add/sub/mul/div/fma/sqrt in the directed rounding
 * modes (.rz .rm .rp) by exact integer arithmetic.
 *
 * The exact result is formed as a 128-bit integer significand (with a sticky
 * bit for anything shifted out below it) and rounded once by
 * ws_fp_round_pack.  Nothing depends on the host's floating-point
 * environment, so results are the same on any thread and under tools that
 * ignore the SSE rounding mode (valgrind). */
#include "ptxmath/ws-ptxmath-private.h"

typedef unsigned __int128 u128;

static inline int
clz128 (u128 v)
{
  uint64_t hi = (uint64_t) (v >> 64);
  return hi ? __builtin_clzll (hi) : 64 + __builtin_clzll ((uint64_t) v);
}

/* Rounds (-1)^sign * (m + sticky) * 2^exp into f64. */
static double
round128 (int sign, u128 m, int exp, gboolean sticky, WsFpMode mode)
{
  if ((m >> 64) != 0)
    {
      int k = 64 - clz128 (m); /* bits to drop so the rest fits 64 */
      sticky |= (m & (((u128) 1 << k) - 1)) != 0;
      m >>= k;
      exp += k;
    }
  return ws_u2d (ws_fp_round_pack (WS_FMT_F64, sign, (uint64_t) m, exp, sticky, mode));
}

/* Shifts @m right by @n, folding lost bits into *sticky. */
static inline u128
shr_sticky (u128 m, int n, gboolean *sticky)
{
  if (n <= 0)
    return m;
  if (n >= 128)
    {
      *sticky |= m != 0;
      return 0;
    }
  *sticky |= (m & (((u128) 1 << n) - 1)) != 0;
  return m >> n;
}

static inline double
signed_zero (gboolean neg)
{
  return neg ? -0.0 : 0.0;
}

/* Sum of two values given as 128-bit significands whose top bit is at or
 * below bit 124 and whose low bits have room to shift (see callers). */
static double
add128 (int sx, u128 mx, int ex, int sy, u128 my, int ey, WsFpMode mode)
{
  gboolean sticky = FALSE;
  u128 s;
  int sign;

  /* Align to the operand with the larger top exponent. */
  if (ex + (127 - clz128 (mx)) < ey + (127 - clz128 (my)))
    {
      int ts = sx;
      u128 tm = mx;
      int te = ex;
      sx = sy;
      mx = my;
      ex = ey;
      sy = ts;
      my = tm;
      ey = te;
    }
  /* Bring mx's top bit to 124 (3 bits of headroom for the carry). */
  {
    int up = clz128 (mx) - 3;
    mx <<= up;
    ex -= up;
  }
  my = ey >= ex ? my << (ey - ex) : shr_sticky (my, ex - ey, &sticky);
  sign = sx;
  if (sx == sy)
    s = mx + my;
  else if (mx >= my)
    s = mx - my - (sticky ? 1 : 0); /* the sticky part lies below every kept bit */
  else
    {
      s = my - mx; /* only without sticky: my had no bits shifted out */
      sign = sy;
    }
  if (s == 0 && !sticky)
    return signed_zero (mode == WS_FP_RM); /* exact cancellation */
  return round128 (sign, s, ex, sticky, mode);
}

double
ws_f64_directed (int op, double a, double b, double c, WsFpMode mode)
{
  int sa, sb, sc, ea, eb, ec;
  uint64_t ma, mb, mc;
  WsFpClass ka = ws_fp_unpack (WS_FMT_F64, ws_d2u (a), &sa, &ma, &ea);
  WsFpClass kb = ws_fp_unpack (WS_FMT_F64, ws_d2u (b), &sb, &mb, &eb);
  WsFpClass kc = ws_fp_unpack (WS_FMT_F64, ws_d2u (c), &sc, &mc, &ec);

  switch (op)
    {
    case WS_OP_SUB:
      b = -b;
      sb ^= 1;
      G_GNUC_FALLTHROUGH;
    case WS_OP_ADD:
      if (ka != WS_FPC_FINITE || kb != WS_FPC_FINITE)
        {
          /* A zero, infinite or NaN operand: the host's sum is exact. */
          double r = a + b;
          if (r == 0)
            {
              gboolean neg = mode == WS_FP_RM ? (signbit (a) || signbit (b)) : (signbit (a) && signbit (b));
              return signed_zero (neg);
            }
          return r;
        }
      return add128 (sa, ma, ea, sb, mb, eb, mode);

    case WS_OP_MUL:
      if (ka != WS_FPC_FINITE || kb != WS_FPC_FINITE)
        return a * b;
      return round128 (sa ^ sb, (u128) ma * mb, ea + eb, FALSE, mode);

    case WS_OP_DIV:
      if (ka != WS_FPC_FINITE || kb != WS_FPC_FINITE)
        return a / b;
      {
        /* Normalise both significands to 53 bits, then a 75-bit quotient. */
        int na = __builtin_clzll (ma) - 11, nb = __builtin_clzll (mb) - 11;
        u128 num, q;
        ma <<= na;
        ea -= na;
        mb <<= nb;
        eb -= nb;
        num = (u128) ma << 75;
        q = num / mb;
        return round128 (sa ^ sb, q, ea - eb - 75, (num % mb) != 0, mode);
      }

    case WS_OP_SQRT:
      if (ka != WS_FPC_FINITE || sa)
        return sqrt (a); /* zeros, negatives, inf, NaN: exact */
      {
        int n = __builtin_clzll (ma) - 11;
        u128 m;
        uint64_t r;
        ma <<= n;
        ea -= n;
        if (ea & 1)
          {
            ma <<= 1;
            ea -= 1;
          }
        m = (u128) ma << 64; /* 116..118 bits: a 58..59-bit root */
        r = (uint64_t) sqrt ((double) m);
        /* Integer correction of the estimate: r = floor(sqrt(m)). */
        if (r != 0)
          r = (uint64_t) (((u128) r + m / r) >> 1);
        while ((u128) r * r > m)
          r--;
        while ((u128) (r + 1) * (r + 1) <= m)
          r++;
        return round128 (0, r, (ea - 64) / 2, (u128) r * r != m, mode);
      }

    case WS_OP_FMA:
    case WS_OP_MAD:
      if (ka != WS_FPC_FINITE || kb != WS_FPC_FINITE || kc == WS_FPC_INF || kc == WS_FPC_NAN)
        {
          /* A zero, infinite or NaN factor, or an infinite/NaN addend: the
           * host's fma is exact here apart from the sign of a zero sum. */
          double r = fma (a, b, c);
          if (r == 0 && kc == WS_FPC_ZERO)
            {
              gboolean np = (sa ^ sb) != 0, nc = sc != 0;
              return signed_zero (mode == WS_FP_RM ? (np || nc) : (np && nc));
            }
          return r;
        }
      if (kc == WS_FPC_ZERO)
        return round128 (sa ^ sb, (u128) ma * mb, ea + eb, FALSE, mode);
      {
        /* The exact product has at most 106 bits; put it and c at the top
         * of the 125-bit frame so shifts of up to ~19 bits lose nothing and
         * larger ones leave no room for cancellation. */
        u128 p = (u128) ma * mb;
        int ep = ea + eb;
        return add128 (sa ^ sb, p, ep, sc, mc, ec, mode);
      }

    default: g_return_val_if_reached (NAN);
    }
}
