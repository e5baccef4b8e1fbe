/* test-ptxmath.c: PTX numeric semantics checked against known bit patterns
 * and, for the directed rounding modes, against the host FPU run in that
 * mode on random operands. */
#include "ptxmath/ws-ptxmath.h"

#include <fenv.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

static uint32_t
f2u (float f)
{
  uint32_t u;
  memcpy (&u, &f, 4);
  return u;
}
static float
u2f (uint32_t u)
{
  float f;
  memcpy (&f, &u, 4);
  return f;
}
static uint64_t
d2u (double d)
{
  uint64_t u;
  memcpy (&u, &d, 8);
  return u;
}
static double
u2d (uint64_t u)
{
  double d;
  memcpy (&d, &u, 8);
  return d;
}

#define F32_NAN 0x7fffffffu

/* The random tests take the host FPU, run in each rounding mode, as the
 * reference.  Tools that ignore the SSE rounding mode (valgrind) cannot
 * serve as a reference: those tests skip there. */
static gboolean
host_rounding_modes_work (void)
{
  volatile double x = 1.0, y = 0x1p-60, r;
  fesetround (FE_UPWARD);
  r = x + y;
  fesetround (FE_TONEAREST);
  if (r == 1.0)
    {
      g_test_skip ("the host does not honour fesetround (running under valgrind?)");
      return FALSE;
    }
  return TRUE;
}

/* ---- cvt ------------------------------------------------------------------ */

static int32_t
cvt_f32_s32 (float x, int rnd, gboolean ftz)
{
  return (int32_t) ws_ptx_cvt (f2u (x), WS_T_F32, WS_T_S32, rnd, FALSE, ftz);
}

static void
test_cvt_float_to_int_rounding (void)
{
  static const struct {
    float x;
    int32_t rni, rzi, rmi, rpi;
  } cases[] = {
    { 0.5f, 0, 0, 0, 1 },      { 1.5f, 2, 1, 1, 2 },      { 2.5f, 2, 2, 2, 3 },        { -0.5f, 0, 0, -1, 0 },
    { -1.5f, -2, -1, -2, -1 }, { -2.5f, -2, -2, -3, -2 }, { 3.49999976f, 3, 3, 3, 4 }, { -7.0f, -7, -7, -7, -7 },
  };
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_assert_cmpint (cvt_f32_s32 (cases[i].x, WS_RND_RNI, FALSE), ==, cases[i].rni);
      g_assert_cmpint (cvt_f32_s32 (cases[i].x, WS_RND_RZI, FALSE), ==, cases[i].rzi);
      g_assert_cmpint (cvt_f32_s32 (cases[i].x, WS_RND_RMI, FALSE), ==, cases[i].rmi);
      g_assert_cmpint (cvt_f32_s32 (cases[i].x, WS_RND_RPI, FALSE), ==, cases[i].rpi);
    }
  /* f64 and f16 sources */
  g_assert_cmpint ((int64_t) ws_ptx_cvt (d2u (-2.5), WS_T_F64, WS_T_S64, WS_RND_RNI, FALSE, FALSE), ==, -2);
  g_assert_cmpint ((int64_t) ws_ptx_cvt (d2u (4503599627370497.0), WS_T_F64, WS_T_S64, WS_RND_RZI, FALSE, FALSE), ==,
                   G_GINT64_CONSTANT (4503599627370497));
  g_assert_cmpint ((int32_t) ws_ptx_cvt (0x3e00 /* 1.5 */, WS_T_F16, WS_T_S32, WS_RND_RNI, FALSE, FALSE), ==, 2);
  g_assert_cmpint ((int32_t) ws_ptx_cvt (0xbe00 /* -1.5 */, WS_T_F16, WS_T_S32, WS_RND_RZI, FALSE, FALSE), ==, -1);
}

static void
test_cvt_float_to_int_saturation (void)
{
  g_assert_cmpint (cvt_f32_s32 (NAN, WS_RND_RNI, FALSE), ==, 0);
  g_assert_cmpint (cvt_f32_s32 (INFINITY, WS_RND_RZI, FALSE), ==, G_MAXINT32);
  g_assert_cmpint (cvt_f32_s32 (-INFINITY, WS_RND_RZI, FALSE), ==, G_MININT32);
  g_assert_cmpint (cvt_f32_s32 (1e10f, WS_RND_RZI, FALSE), ==, G_MAXINT32);
  g_assert_cmpint (cvt_f32_s32 (-3e9f, WS_RND_RMI, FALSE), ==, G_MININT32);
  /* 2^31 exactly is out of range, -2^31 is not */
  g_assert_cmpint (cvt_f32_s32 (2147483648.0f, WS_RND_RZI, FALSE), ==, G_MAXINT32);
  g_assert_cmpint (cvt_f32_s32 (-2147483648.0f, WS_RND_RZI, FALSE), ==, G_MININT32);
  g_assert_cmphex (ws_ptx_cvt (f2u (-1.0f), WS_T_F32, WS_T_U32, WS_RND_RZI, FALSE, FALSE), ==, 0);
  g_assert_cmphex (ws_ptx_cvt (f2u (5e9f), WS_T_F32, WS_T_U32, WS_RND_RZI, FALSE, FALSE), ==, 0xffffffffu);
  g_assert_cmphex (ws_ptx_cvt (F32_NAN, WS_T_F32, WS_T_U64, WS_RND_RZI, FALSE, FALSE), ==, 0);
  g_assert_cmphex (ws_ptx_cvt (d2u (9223372036854775808.0), WS_T_F64, WS_T_S64, WS_RND_RZI, FALSE, FALSE), ==,
                   G_GUINT64_CONSTANT (0x7fffffffffffffff));
  g_assert_cmphex (ws_ptx_cvt (d2u (-1e300), WS_T_F64, WS_T_S64, WS_RND_RZI, FALSE, FALSE), ==,
                   G_GUINT64_CONSTANT (0x8000000000000000));
  g_assert_cmphex (ws_ptx_cvt (d2u (18446744073709551616.0), WS_T_F64, WS_T_U64, WS_RND_RZI, FALSE, FALSE), ==,
                   G_MAXUINT64);
  g_assert_cmphex (ws_ptx_cvt (d2u (18446744073709549568.0), WS_T_F64, WS_T_U64, WS_RND_RZI, FALSE, FALSE), ==,
                   G_GUINT64_CONSTANT (18446744073709549568));
  /* narrow destinations clamp to their own range, signed ones come back sign-extended */
  g_assert_cmphex (ws_ptx_cvt (f2u (300.0f), WS_T_F32, WS_T_U8, WS_RND_RNI, FALSE, FALSE), ==, 255);
  g_assert_cmphex (ws_ptx_cvt (f2u (-200.0f), WS_T_F32, WS_T_S8, WS_RND_RNI, FALSE, FALSE), ==,
                   G_GUINT64_CONSTANT (0xffffffffffffff80));
  g_assert_cmphex (ws_ptx_cvt (f2u (-5.0f), WS_T_F32, WS_T_S16, WS_RND_RNI, FALSE, FALSE), ==,
                   G_GUINT64_CONSTANT (0xfffffffffffffffb));
  g_assert_cmphex (ws_ptx_cvt (f2u (70000.0f), WS_T_F32, WS_T_U16, WS_RND_RNI, FALSE, FALSE), ==, 0xffff);
}

static void
test_cvt_int_to_int (void)
{
  /* .sat clamps to the destination range */
  g_assert_cmphex (ws_ptx_cvt (300, WS_T_U32, WS_T_U8, WS_RND_NONE, TRUE, FALSE), ==, 255);
  g_assert_cmphex (ws_ptx_cvt (200, WS_T_U32, WS_T_U8, WS_RND_NONE, TRUE, FALSE), ==, 200);
  g_assert_cmphex (ws_ptx_cvt ((uint32_t) -5, WS_T_S32, WS_T_U8, WS_RND_NONE, TRUE, FALSE), ==, 0);
  g_assert_cmphex (ws_ptx_cvt ((uint32_t) -500, WS_T_S32, WS_T_S8, WS_RND_NONE, TRUE, FALSE), ==,
                   G_GUINT64_CONSTANT (0xffffffffffffff80));
  g_assert_cmphex (ws_ptx_cvt (0xffffffffu, WS_T_U32, WS_T_S32, WS_RND_NONE, TRUE, FALSE), ==, 0x7fffffff);
  g_assert_cmphex (ws_ptx_cvt (G_GUINT64_CONSTANT (0x8000000000000000), WS_T_U64, WS_T_S64, WS_RND_NONE, TRUE, FALSE),
                   ==, G_GUINT64_CONSTANT (0x7fffffffffffffff));
  g_assert_cmphex (ws_ptx_cvt (G_GUINT64_CONSTANT (0x123456789), WS_T_S64, WS_T_S32, WS_RND_NONE, TRUE, FALSE), ==,
                   0x7fffffff);
  g_assert_cmphex (ws_ptx_cvt ((uint64_t) -1, WS_T_S64, WS_T_U64, WS_RND_NONE, TRUE, FALSE), ==, 0);
  /* without .sat: truncation, then extension by the destination's signedness */
  g_assert_cmphex (ws_ptx_cvt (300, WS_T_S32, WS_T_S8, WS_RND_NONE, FALSE, FALSE), ==, 44);
  g_assert_cmphex (ws_ptx_cvt (0x1ff, WS_T_U32, WS_T_S8, WS_RND_NONE, FALSE, FALSE), ==, G_MAXUINT64);
  g_assert_cmphex (ws_ptx_cvt (G_GUINT64_CONSTANT (0x123456789), WS_T_U64, WS_T_U32, WS_RND_NONE, FALSE, FALSE), ==,
                   0x23456789);
  /* extension by the source's signedness */
  g_assert_cmphex (ws_ptx_cvt (0xff, WS_T_S8, WS_T_U32, WS_RND_NONE, FALSE, FALSE), ==, 0xffffffffu);
  g_assert_cmphex (ws_ptx_cvt (0xff, WS_T_U8, WS_T_S32, WS_RND_NONE, FALSE, FALSE), ==, 255);
  g_assert_cmphex (ws_ptx_cvt (0x8000, WS_T_S16, WS_T_S64, WS_RND_NONE, FALSE, FALSE), ==,
                   G_GUINT64_CONSTANT (0xffffffffffff8000));
  g_assert_cmphex (ws_ptx_cvt (0x80000000u, WS_T_S32, WS_T_S64, WS_RND_NONE, FALSE, FALSE), ==,
                   G_GUINT64_CONSTANT (0xffffffff80000000));
  g_assert_cmphex (ws_ptx_cvt (0x80000000u, WS_T_U32, WS_T_U64, WS_RND_NONE, FALSE, FALSE), ==, 0x80000000u);
  /* upper register bits above the source width are ignored */
  g_assert_cmphex (ws_ptx_cvt (G_GUINT64_CONSTANT (0xdead00000005), WS_T_S16, WS_T_S32, WS_RND_NONE, FALSE, FALSE), ==,
                   5);
}

static uint32_t
cvt_i64_f32 (int64_t v, int rnd)
{
  return (uint32_t) ws_ptx_cvt ((uint64_t) v, WS_T_S64, WS_T_F32, rnd, FALSE, FALSE);
}

static void
test_cvt_int_to_float_modes (void)
{
  int64_t v = (1 << 24) + 1; /* halfway between two f32 values */
  g_assert_cmphex (cvt_i64_f32 (v, WS_RND_RN), ==, 0x4b800000u);
  g_assert_cmphex (cvt_i64_f32 (v, WS_RND_RZ), ==, 0x4b800000u);
  g_assert_cmphex (cvt_i64_f32 (v, WS_RND_RM), ==, 0x4b800000u);
  g_assert_cmphex (cvt_i64_f32 (v, WS_RND_RP), ==, 0x4b800001u);
  g_assert_cmphex (cvt_i64_f32 (-v, WS_RND_RM), ==, 0xcb800001u);
  g_assert_cmphex (cvt_i64_f32 (-v, WS_RND_RP), ==, 0xcb800000u);
  g_assert_cmphex (cvt_i64_f32 ((1 << 24) + 3, WS_RND_RN), ==, 0x4b800002u); /* tie to even, up */
  g_assert_cmphex (cvt_i64_f32 (G_MAXINT64, WS_RND_RN), ==, 0x5f000000u);
  g_assert_cmphex (cvt_i64_f32 (G_MAXINT64, WS_RND_RZ), ==, 0x5effffffu);
  g_assert_cmphex (cvt_i64_f32 (G_MININT64, WS_RND_RZ), ==, 0xdf000000u);
  g_assert_cmphex (ws_ptx_cvt (G_MAXUINT64, WS_T_U64, WS_T_F32, WS_RND_RN, FALSE, FALSE), ==, 0x5f800000u);
  g_assert_cmphex (ws_ptx_cvt (G_MAXUINT64, WS_T_U64, WS_T_F32, WS_RND_RM, FALSE, FALSE), ==, 0x5f7fffffu);
  g_assert_cmphex (ws_ptx_cvt (G_MAXUINT64, WS_T_U64, WS_T_F64, WS_RND_RZ, FALSE, FALSE), ==,
                   G_GUINT64_CONSTANT (0x43efffffffffffff));
  g_assert_cmphex (ws_ptx_cvt (G_MAXUINT64, WS_T_U64, WS_T_F64, WS_RND_RN, FALSE, FALSE), ==,
                   G_GUINT64_CONSTANT (0x43f0000000000000));
  /* u32 -> f32, s32 -> f64, integers into f16 (overflow -> inf or max finite) */
  g_assert_cmphex (ws_ptx_cvt (0xffffffffu, WS_T_U32, WS_T_F32, WS_RND_RN, FALSE, FALSE), ==, 0x4f800000u);
  g_assert_cmphex (ws_ptx_cvt (0xffffffffu, WS_T_U32, WS_T_F32, WS_RND_RZ, FALSE, FALSE), ==, 0x4f7fffffu);
  g_assert_cmphex (ws_ptx_cvt ((uint32_t) -3, WS_T_S32, WS_T_F64, WS_RND_RN, FALSE, FALSE), ==, d2u (-3.0));
  g_assert_cmphex (ws_ptx_cvt (2049, WS_T_S32, WS_T_F16, WS_RND_RN, FALSE, FALSE), ==, 0x6800); /* tie: 2048 */
  g_assert_cmphex (ws_ptx_cvt (2049, WS_T_S32, WS_T_F16, WS_RND_RP, FALSE, FALSE), ==, 0x6801);
  g_assert_cmphex (ws_ptx_cvt (70000, WS_T_S32, WS_T_F16, WS_RND_RN, FALSE, FALSE), ==, 0x7c00);
  g_assert_cmphex (ws_ptx_cvt (70000, WS_T_S32, WS_T_F16, WS_RND_RZ, FALSE, FALSE), ==, 0x7bff);
  g_assert_cmphex (ws_ptx_cvt ((uint32_t) -70000, WS_T_S32, WS_T_F16, WS_RND_RP, FALSE, FALSE), ==, 0xfbff);
  g_assert_cmphex (ws_ptx_cvt (257, WS_T_S32, WS_T_BF16, WS_RND_RN, FALSE, FALSE), ==, 0x4380);
  g_assert_cmphex (ws_ptx_cvt (257, WS_T_S32, WS_T_BF16, WS_RND_RP, FALSE, FALSE), ==, 0x4381);
  /* .sat clamps an int->float result to [0, 1] */
  g_assert_cmphex (ws_ptx_cvt (7, WS_T_S32, WS_T_F32, WS_RND_RN, TRUE, FALSE), ==, 0x3f800000u);
  g_assert_cmphex (ws_ptx_cvt ((uint32_t) -7, WS_T_S32, WS_T_F32, WS_RND_RN, TRUE, FALSE), ==, 0);
}

/* Host reference for a directed conversion, with the FPU in @mode. */
static void
test_cvt_int_to_float_random_vs_host (void)
{
  static const int modes[] = { FE_TONEAREST, FE_TOWARDZERO, FE_DOWNWARD, FE_UPWARD };
  static const int rnds[] = { WS_RND_RN, WS_RND_RZ, WS_RND_RM, WS_RND_RP };
  GRand *rng;

  if (!host_rounding_modes_work ())
    return;
  rng = g_rand_new_with_seed (1234);
  for (int i = 0; i < 20000; i++)
    {
      uint64_t v = ((uint64_t) g_rand_int (rng) << 32) | g_rand_int (rng);
      v >>= g_rand_int_range (rng, 0, 63);
      if (g_rand_boolean (rng))
        v = -v;
      for (int m = 0; m < 4; m++)
        {
          volatile int64_t vs = (int64_t) v;
          volatile float ref;
          volatile double refd;
          fesetround (modes[m]);
          ref = (float) vs;
          refd = (double) vs;
          fesetround (FE_TONEAREST);
          g_assert_cmphex (ws_ptx_cvt (v, WS_T_S64, WS_T_F32, rnds[m], FALSE, FALSE), ==, f2u (ref));
          g_assert_cmphex (ws_ptx_cvt (v, WS_T_S64, WS_T_F64, rnds[m], FALSE, FALSE), ==, d2u (refd));
        }
    }
  g_rand_free (rng);
}

static void
test_cvt_float_to_float (void)
{
  /* f32 -> f16: ties to even, directed modes, overflow, subnormals */
  g_assert_cmphex (ws_ptx_cvt (f2u (1.0f + 0x1p-11f), WS_T_F32, WS_T_F16, WS_RND_RN, FALSE, FALSE), ==, 0x3c00);
  g_assert_cmphex (ws_ptx_cvt (f2u (1.0f + 3 * 0x1p-11f), WS_T_F32, WS_T_F16, WS_RND_RN, FALSE, FALSE), ==, 0x3c02);
  g_assert_cmphex (ws_ptx_cvt (f2u (1.0f + 0x1p-11f), WS_T_F32, WS_T_F16, WS_RND_RP, FALSE, FALSE), ==, 0x3c01);
  g_assert_cmphex (ws_ptx_cvt (f2u (1.0f + 0x1p-11f + 0x1p-20f), WS_T_F32, WS_T_F16, WS_RND_RN, FALSE, FALSE), ==,
                   0x3c01);
  g_assert_cmphex (ws_ptx_cvt (f2u (1.0f + 0x1p-11f + 0x1p-20f), WS_T_F32, WS_T_F16, WS_RND_RZ, FALSE, FALSE), ==,
                   0x3c00);
  g_assert_cmphex (ws_ptx_cvt (f2u (-1.0f - 0x1p-20f), WS_T_F32, WS_T_F16, WS_RND_RM, FALSE, FALSE), ==, 0xbc01);
  g_assert_cmphex (ws_ptx_cvt (f2u (-1.0f - 0x1p-20f), WS_T_F32, WS_T_F16, WS_RND_RP, FALSE, FALSE), ==, 0xbc00);
  g_assert_cmphex (ws_ptx_cvt (f2u (65520.0f), WS_T_F32, WS_T_F16, WS_RND_RN, FALSE, FALSE), ==, 0x7c00);
  g_assert_cmphex (ws_ptx_cvt (f2u (65519.0f), WS_T_F32, WS_T_F16, WS_RND_RN, FALSE, FALSE), ==, 0x7bff);
  g_assert_cmphex (ws_ptx_cvt (f2u (1e6f), WS_T_F32, WS_T_F16, WS_RND_RZ, FALSE, FALSE), ==, 0x7bff);
  g_assert_cmphex (ws_ptx_cvt (f2u (0x1p-24f), WS_T_F32, WS_T_F16, WS_RND_RN, FALSE, FALSE), ==, 0x0001);
  g_assert_cmphex (ws_ptx_cvt (f2u (0x1p-25f), WS_T_F32, WS_T_F16, WS_RND_RN, FALSE, FALSE), ==, 0x0000);
  g_assert_cmphex (ws_ptx_cvt (f2u (0x1.8p-25f), WS_T_F32, WS_T_F16, WS_RND_RN, FALSE, FALSE), ==, 0x0001);
  g_assert_cmphex (ws_ptx_cvt (f2u (0x1p-30f), WS_T_F32, WS_T_F16, WS_RND_RP, FALSE, FALSE), ==, 0x0001);
  g_assert_cmphex (ws_ptx_cvt (f2u (-0x1p-30f), WS_T_F32, WS_T_F16, WS_RND_RN, FALSE, FALSE), ==, 0x8000);
  g_assert_cmphex (ws_ptx_cvt (f2u (0x1.ff8p-15f), WS_T_F32, WS_T_F16, WS_RND_RN, FALSE, FALSE), ==, 0x03ff);
  g_assert_cmphex (ws_ptx_cvt (f2u (0x1.ffcp-15f), WS_T_F32, WS_T_F16, WS_RND_RN, FALSE, FALSE), ==, 0x0400);
  g_assert_cmphex (ws_ptx_cvt (F32_NAN, WS_T_F32, WS_T_F16, WS_RND_RN, FALSE, FALSE), ==, 0x7fff);
  g_assert_cmphex (ws_ptx_cvt (f2u (-INFINITY), WS_T_F32, WS_T_F16, WS_RND_RN, FALSE, FALSE), ==, 0xfc00);
  /* f16/bf16 -> f32 are exact */
  g_assert_cmphex (ws_ptx_cvt (0x3c00, WS_T_F16, WS_T_F32, WS_RND_NONE, FALSE, FALSE), ==, 0x3f800000u);
  g_assert_cmphex (ws_ptx_cvt (0x0001, WS_T_F16, WS_T_F32, WS_RND_NONE, FALSE, FALSE), ==, f2u (0x1p-24f));
  g_assert_cmphex (ws_ptx_cvt (0xfc00, WS_T_F16, WS_T_F32, WS_RND_NONE, FALSE, FALSE), ==, 0xff800000u);
  g_assert_cmphex (ws_ptx_cvt (0x7e00, WS_T_F16, WS_T_F32, WS_RND_NONE, FALSE, FALSE), ==, F32_NAN);
  g_assert_cmphex (ws_ptx_cvt (0xc0490fdb >> 16, WS_T_BF16, WS_T_F32, WS_RND_NONE, FALSE, FALSE), ==, 0xc0490000u);
  /* f32 -> bf16 */
  g_assert_cmphex (ws_ptx_cvt (f2u (1.0f + 0x1p-8f), WS_T_F32, WS_T_BF16, WS_RND_RN, FALSE, FALSE), ==, 0x3f80);
  g_assert_cmphex (ws_ptx_cvt (f2u (1.0f + 3 * 0x1p-8f), WS_T_F32, WS_T_BF16, WS_RND_RN, FALSE, FALSE), ==, 0x3f82);
  g_assert_cmphex (ws_ptx_cvt (f2u (1.0f + 0x1p-9f), WS_T_F32, WS_T_BF16, WS_RND_RP, FALSE, FALSE), ==, 0x3f81);
  /* f64 <-> f32 */
  g_assert_cmphex (ws_ptx_cvt (d2u (1.0 / 3.0), WS_T_F64, WS_T_F32, WS_RND_RN, FALSE, FALSE), ==, 0x3eaaaaabu);
  g_assert_cmphex (ws_ptx_cvt (d2u (1.0 / 3.0), WS_T_F64, WS_T_F32, WS_RND_RZ, FALSE, FALSE), ==, 0x3eaaaaaau);
  g_assert_cmphex (ws_ptx_cvt (d2u (-1.0 / 3.0), WS_T_F64, WS_T_F32, WS_RND_RM, FALSE, FALSE), ==, 0xbeaaaaabu);
  g_assert_cmphex (ws_ptx_cvt (d2u (1e300), WS_T_F64, WS_T_F32, WS_RND_RN, FALSE, FALSE), ==, 0x7f800000u);
  g_assert_cmphex (ws_ptx_cvt (d2u (1e300), WS_T_F64, WS_T_F32, WS_RND_RZ, FALSE, FALSE), ==, 0x7f7fffffu);
  g_assert_cmphex (ws_ptx_cvt (d2u (0x1p-140), WS_T_F64, WS_T_F32, WS_RND_RN, FALSE, FALSE), ==, 0x00000200u);
  g_assert_cmphex (ws_ptx_cvt (f2u (0.1f), WS_T_F32, WS_T_F64, WS_RND_NONE, FALSE, FALSE), ==, d2u ((double) 0.1f));
  /* a NaN widens keeping sign and payload; narrowing gives the canonical NaN */
  g_assert_cmphex (ws_ptx_cvt (F32_NAN, WS_T_F32, WS_T_F64, WS_RND_NONE, FALSE, FALSE), ==,
                   G_GUINT64_CONSTANT (0x7fffffffe0000000));
  g_assert_cmphex (ws_ptx_cvt (0xffc00000u, WS_T_F32, WS_T_F64, WS_RND_NONE, FALSE, FALSE), ==,
                   G_GUINT64_CONSTANT (0xfff8000000000000));
  g_assert_cmphex (ws_ptx_cvt (G_GUINT64_CONSTANT (0xfff8000000000000), WS_T_F64, WS_T_F32, WS_RND_RN, FALSE, FALSE),
                   ==, F32_NAN);
}

/* f32 -> bf16 to nearest, against the classic integer formula (bf16 shares
 * f32's exponent, so rounding is a carry into the upper 16 bits). */
static void
test_cvt_f32_to_bf16_random (void)
{
  GRand *rng = g_rand_new_with_seed (5);
  for (int i = 0; i < 200000; i++)
    {
      uint32_t x = g_rand_int (rng);
      uint32_t want = (x & 0x7fffffffu) > 0x7f800000u ? 0x7fff : (x + 0x7fffu + ((x >> 16) & 1)) >> 16;
      uint64_t got = ws_ptx_cvt (x, WS_T_F32, WS_T_BF16, WS_RND_RN, FALSE, FALSE);
      if (got != want)
        g_error ("cvt.rn.bf16.f32 %08x -> %04x, expected %04x", x, (unsigned) got, want);
      /* and back: exact */
      g_assert_cmphex (ws_ptx_cvt (want, WS_T_BF16, WS_T_F32, WS_RND_NONE, FALSE, FALSE), ==,
                       want == 0x7fff ? 0x7fffffffu : want << 16);
    }
  g_rand_free (rng);
}

static void
test_cvt_ftz_and_sat (void)
{
  /* subnormal f32 inputs flushed (sign kept) under .ftz only */
  g_assert_cmphex (ws_ptx_cvt (0x00000001u, WS_T_F32, WS_T_F64, WS_RND_NONE, FALSE, FALSE), ==, d2u (0x1p-149));
  g_assert_cmphex (ws_ptx_cvt (0x00000001u, WS_T_F32, WS_T_F64, WS_RND_NONE, FALSE, TRUE), ==, 0);
  g_assert_cmphex (ws_ptx_cvt (0x80000001u, WS_T_F32, WS_T_F64, WS_RND_NONE, FALSE, TRUE), ==,
                   G_GUINT64_CONSTANT (0x8000000000000000));
  g_assert_cmpint (cvt_f32_s32 (u2f (0x00000001u), WS_RND_RPI, FALSE), ==, 1);
  g_assert_cmpint (cvt_f32_s32 (u2f (0x00000001u), WS_RND_RPI, TRUE), ==, 0);
  g_assert_cmpint (cvt_f32_s32 (u2f (0x80000001u), WS_RND_RMI, FALSE), ==, -1);
  g_assert_cmpint (cvt_f32_s32 (u2f (0x80000001u), WS_RND_RMI, TRUE), ==, 0);
  /* subnormal f32 results flushed */
  g_assert_cmphex (ws_ptx_cvt (d2u (0x1p-140), WS_T_F64, WS_T_F32, WS_RND_RN, FALSE, TRUE), ==, 0);
  g_assert_cmphex (ws_ptx_cvt (d2u (-0x1p-140), WS_T_F64, WS_T_F32, WS_RND_RN, FALSE, TRUE), ==, 0x80000000u);
  g_assert_cmphex (ws_ptx_cvt (d2u (0x1p-126), WS_T_F64, WS_T_F32, WS_RND_RN, FALSE, TRUE), ==, 0x00800000u);
  g_assert_cmphex (ws_ptx_cvt (0x00400000u, WS_T_F32, WS_T_F32, WS_RND_NONE, FALSE, TRUE), ==, 0);
  g_assert_cmphex (ws_ptx_cvt (0x00400000u, WS_T_F32, WS_T_F32, WS_RND_NONE, FALSE, FALSE), ==, 0x00400000u);
  /* .sat: [0, 1], NaN -> +0 */
  g_assert_cmphex (ws_ptx_cvt (f2u (1.5f), WS_T_F32, WS_T_F32, WS_RND_NONE, TRUE, FALSE), ==, 0x3f800000u);
  g_assert_cmphex (ws_ptx_cvt (f2u (-2.0f), WS_T_F32, WS_T_F32, WS_RND_NONE, TRUE, FALSE), ==, 0);
  g_assert_cmphex (ws_ptx_cvt (f2u (0.25f), WS_T_F32, WS_T_F32, WS_RND_NONE, TRUE, FALSE), ==, f2u (0.25f));
  g_assert_cmphex (ws_ptx_cvt (F32_NAN, WS_T_F32, WS_T_F32, WS_RND_NONE, TRUE, FALSE), ==, 0);
  g_assert_cmphex (ws_ptx_cvt (d2u (NAN), WS_T_F64, WS_T_F32, WS_RND_RN, TRUE, FALSE), ==, 0);
  g_assert_cmphex (ws_ptx_cvt (d2u (7.0), WS_T_F64, WS_T_F64, WS_RND_NONE, TRUE, FALSE), ==, d2u (1.0));
  g_assert_cmphex (ws_ptx_cvt (f2u (3.0f), WS_T_F32, WS_T_F16, WS_RND_RN, TRUE, FALSE), ==, 0x3c00);
  /* .relu on f16 results */
  g_assert_cmphex (ws_ptx_cvt_mods (f2u (-3.0f), WS_T_F32, WS_T_F16, WS_RND_RN, WS_MOD_RELU), ==, 0);
  g_assert_cmphex (ws_ptx_cvt_mods (f2u (3.0f), WS_T_F32, WS_T_F16, WS_RND_RN, WS_MOD_RELU), ==, 0x4200);
  g_assert_cmphex (ws_ptx_cvt_mods (F32_NAN, WS_T_F32, WS_T_BF16, WS_RND_RN, WS_MOD_RELU), ==, 0x7fff);
}

static void
test_cvt_round_to_integral (void)
{
  static const struct {
    float x;
    float rni, rzi, rmi, rpi;
  } cases[] = {
    { 2.5f, 2.0f, 2.0f, 2.0f, 3.0f },      { 3.5f, 4.0f, 3.0f, 3.0f, 4.0f },
    { -2.5f, -2.0f, -2.0f, -3.0f, -2.0f }, { -0.5f, -0.0f, -0.0f, -1.0f, -0.0f },
    { 0.25f, 0.0f, 0.0f, 0.0f, 1.0f },     { 8388609.0f, 8388609.0f, 8388609.0f, 8388609.0f, 8388609.0f },
  };
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      uint64_t x = f2u (cases[i].x);
      g_assert_cmphex (ws_ptx_cvt (x, WS_T_F32, WS_T_F32, WS_RND_RNI, FALSE, FALSE), ==, f2u (cases[i].rni));
      g_assert_cmphex (ws_ptx_cvt (x, WS_T_F32, WS_T_F32, WS_RND_RZI, FALSE, FALSE), ==, f2u (cases[i].rzi));
      g_assert_cmphex (ws_ptx_cvt (x, WS_T_F32, WS_T_F32, WS_RND_RMI, FALSE, FALSE), ==, f2u (cases[i].rmi));
      g_assert_cmphex (ws_ptx_cvt (x, WS_T_F32, WS_T_F32, WS_RND_RPI, FALSE, FALSE), ==, f2u (cases[i].rpi));
    }
  g_assert_cmphex (ws_ptx_cvt (d2u (-1.5), WS_T_F64, WS_T_F64, WS_RND_RNI, FALSE, FALSE), ==, d2u (-2.0));
  g_assert_cmphex (ws_ptx_cvt (d2u (4503599627370495.5), WS_T_F64, WS_T_F64, WS_RND_RNI, FALSE, FALSE), ==,
                   d2u (4503599627370496.0));
  g_assert_cmphex (ws_ptx_cvt (d2u (INFINITY), WS_T_F64, WS_T_F64, WS_RND_RZI, FALSE, FALSE), ==, d2u (INFINITY));
  g_assert_cmphex (ws_ptx_cvt (0x3e00, WS_T_F16, WS_T_F16, WS_RND_RNI, FALSE, FALSE), ==, 0x4000); /* 1.5 -> 2 */
  g_assert_cmphex (ws_ptx_cvt (F32_NAN, WS_T_F32, WS_T_F32, WS_RND_RNI, FALSE, FALSE), ==, F32_NAN);
}

/* ---- arithmetic -------------------------------------------------------------- */

static uint32_t
f32op (int op, float a, float b, float c, int rnd, uint32_t mods)
{
  return (uint32_t) ws_ptx_float_op (op, WS_T_F32, f2u (a), f2u (b), f2u (c), rnd, mods);
}

static uint64_t
f64op (int op, double a, double b, double c, int rnd, uint32_t mods)
{
  return ws_ptx_float_op (op, WS_T_F64, d2u (a), d2u (b), d2u (c), rnd, mods);
}

static void
test_add_rounding_modes (void)
{
  float e = 0x1p-24f;
  g_assert_cmphex (f32op (WS_OP_ADD, 1.0f, e, 0, WS_RND_RN, 0), ==, 0x3f800000u);
  g_assert_cmphex (f32op (WS_OP_ADD, 1.0f, e, 0, WS_RND_RZ, 0), ==, 0x3f800000u);
  g_assert_cmphex (f32op (WS_OP_ADD, 1.0f, e, 0, WS_RND_RM, 0), ==, 0x3f800000u);
  g_assert_cmphex (f32op (WS_OP_ADD, 1.0f, e, 0, WS_RND_RP, 0), ==, 0x3f800001u);
  g_assert_cmphex (f32op (WS_OP_ADD, -1.0f, -e, 0, WS_RND_RM, 0), ==, 0xbf800001u);
  g_assert_cmphex (f32op (WS_OP_ADD, -1.0f, -e, 0, WS_RND_RP, 0), ==, 0xbf800000u);
  g_assert_cmphex (f32op (WS_OP_ADD, 1.0f, 3 * 0x1p-24f, 0, WS_RND_RN, 0), ==, 0x3f800002u);
  g_assert_cmphex (f32op (WS_OP_SUB, 1.0f, 0x1p-30f, 0, WS_RND_RN, 0), ==, 0x3f800000u);
  g_assert_cmphex (f32op (WS_OP_SUB, 1.0f, 0x1p-30f, 0, WS_RND_RZ, 0), ==, 0x3f7fffffu);
  g_assert_cmphex (f32op (WS_OP_SUB, 1.0f, 0x1p-30f, 0, WS_RND_RM, 0), ==, 0x3f7fffffu);
  g_assert_cmphex (f32op (WS_OP_SUB, 1.0f, 0x1p-30f, 0, WS_RND_RP, 0), ==, 0x3f800000u);
  /* far-apart operands: the tiny one still decides a directed rounding */
  g_assert_cmphex (f32op (WS_OP_ADD, 0x1p100f, 0x1p-100f, 0, WS_RND_RP, 0), ==, f2u (0x1p100f) + 1);
  g_assert_cmphex (f32op (WS_OP_ADD, 0x1p100f, -0x1p-100f, 0, WS_RND_RZ, 0), ==, f2u (0x1p100f) - 1);
  /* x + (-x) is -0 in round-toward-minus only */
  g_assert_cmphex (f32op (WS_OP_ADD, 3.0f, -3.0f, 0, WS_RND_RM, 0), ==, 0x80000000u);
  g_assert_cmphex (f32op (WS_OP_ADD, 3.0f, -3.0f, 0, WS_RND_RP, 0), ==, 0);
  g_assert_cmphex (f32op (WS_OP_ADD, -0.0f, -0.0f, 0, WS_RND_RZ, 0), ==, 0x80000000u);
  /* overflow: inf or the largest finite value by mode */
  g_assert_cmphex (f32op (WS_OP_ADD, FLT_MAX, FLT_MAX, 0, WS_RND_RN, 0), ==, 0x7f800000u);
  g_assert_cmphex (f32op (WS_OP_ADD, FLT_MAX, FLT_MAX, 0, WS_RND_RZ, 0), ==, 0x7f7fffffu);
  g_assert_cmphex (f32op (WS_OP_ADD, -FLT_MAX, -FLT_MAX, 0, WS_RND_RP, 0), ==, 0xff7fffffu);
  g_assert_cmphex (f32op (WS_OP_ADD, INFINITY, -INFINITY, 0, WS_RND_RN, 0), ==, F32_NAN);
  g_assert_cmphex (f32op (WS_OP_ADD, INFINITY, -INFINITY, 0, WS_RND_RZ, 0), ==, F32_NAN);
  /* f64 */
  g_assert_cmphex (f64op (WS_OP_ADD, 1.0, 0x1p-53, 0, WS_RND_RN, 0), ==, d2u (1.0));
  g_assert_cmphex (f64op (WS_OP_ADD, 1.0, 0x1p-53, 0, WS_RND_RP, 0), ==, G_GUINT64_CONSTANT (0x3ff0000000000001));
  g_assert_cmphex (f64op (WS_OP_ADD, 1.0, 0x1p-53, 0, WS_RND_RM, 0), ==, d2u (1.0));
  g_assert_cmphex (f64op (WS_OP_SUB, 1.0, 0x1p-60, 0, WS_RND_RZ, 0), ==, G_GUINT64_CONSTANT (0x3fefffffffffffff));
  g_assert_cmphex (f64op (WS_OP_ADD, 2.0, -2.0, 0, WS_RND_RM, 0), ==, G_GUINT64_CONSTANT (0x8000000000000000));
  /* the host's rounding mode is left at nearest */
  g_assert_cmpint (fegetround (), ==, FE_TONEAREST);
}

static void
test_mul_rounding_modes (void)
{
  float a = 1.0f + 0x1p-23f; /* a*a = 1 + 2^-22 + 2^-46 */
  g_assert_cmphex (f32op (WS_OP_MUL, a, a, 0, WS_RND_RN, 0), ==, 0x3f800002u);
  g_assert_cmphex (f32op (WS_OP_MUL, a, a, 0, WS_RND_RZ, 0), ==, 0x3f800002u);
  g_assert_cmphex (f32op (WS_OP_MUL, a, a, 0, WS_RND_RM, 0), ==, 0x3f800002u);
  g_assert_cmphex (f32op (WS_OP_MUL, a, a, 0, WS_RND_RP, 0), ==, 0x3f800003u);
  g_assert_cmphex (f32op (WS_OP_MUL, -a, a, 0, WS_RND_RM, 0), ==, 0xbf800003u);
  g_assert_cmphex (f32op (WS_OP_MUL, 0x1p127f, 4.0f, 0, WS_RND_RN, 0), ==, 0x7f800000u);
  g_assert_cmphex (f32op (WS_OP_MUL, 0x1p127f, 4.0f, 0, WS_RND_RZ, 0), ==, 0x7f7fffffu);
  g_assert_cmphex (f32op (WS_OP_MUL, 0x1p-100f, 0x1p-60f, 0, WS_RND_RN, 0), ==, 0);
  g_assert_cmphex (f32op (WS_OP_MUL, 0x1p-100f, 0x1p-60f, 0, WS_RND_RP, 0), ==, 1);
  g_assert_cmphex (f32op (WS_OP_MUL, -0x1p-100f, 0x1p-60f, 0, WS_RND_RM, 0), ==, 0x80000001u);
  g_assert_cmphex (f32op (WS_OP_MUL, 0.0f, INFINITY, 0, WS_RND_RN, 0), ==, F32_NAN);
  g_assert_cmphex (f64op (WS_OP_MUL, 1.0 + 0x1p-52, 1.0 + 0x1p-52, 0, WS_RND_RP, 0), ==,
                   G_GUINT64_CONSTANT (0x3ff0000000000003));
  g_assert_cmphex (f64op (WS_OP_MUL, 1.0 + 0x1p-52, 1.0 + 0x1p-52, 0, WS_RND_RZ, 0), ==,
                   G_GUINT64_CONSTANT (0x3ff0000000000002));
}

static void
test_fma_single_rounding (void)
{
  float a = 1.0f + 0x1p-12f; /* a*a = 1 + 2^-11 + 2^-24: a tie for mul.rn */
  float p = 1.0f + 0x1p-11f;
  float mul = u2f (f32op (WS_OP_MUL, a, a, 0, WS_RND_RN, 0));
  g_assert_cmphex (f2u (mul), ==, f2u (p));
  g_assert_cmphex (f32op (WS_OP_SUB, mul, p, 0, WS_RND_RN, 0), ==, 0);
  g_assert_cmphex (f32op (WS_OP_FMA, a, a, -p, WS_RND_RN, 0), ==, f2u (0x1p-24f));
  g_assert_cmphex (f32op (WS_OP_MAD, a, a, -p, WS_RND_RN, 0), ==, f2u (0x1p-24f));
  g_assert_cmphex (f32op (WS_OP_FMA, a, a, 0.0f, WS_RND_RZ, 0), ==, 0x3f801000u);
  g_assert_cmphex (f32op (WS_OP_FMA, a, a, 0.0f, WS_RND_RP, 0), ==, 0x3f801001u);
  g_assert_cmphex (f32op (WS_OP_FMA, a, a, 0.0f, WS_RND_RN, 0), ==, 0x3f801000u);
  g_assert_cmphex (f32op (WS_OP_FMA, a, -a, 0x1p30f, WS_RND_RM, 0), ==, f2u (0x1p30f) - 1);
  g_assert_cmphex (f32op (WS_OP_FMA, 2.0f, 3.0f, -6.0f, WS_RND_RM, 0), ==, 0x80000000u);
  g_assert_cmphex (f32op (WS_OP_FMA, 2.0f, 3.0f, -6.0f, WS_RND_RN, 0), ==, 0);
  g_assert_cmphex (f64op (WS_OP_FMA, 1.0 + 0x1p-30, 1.0 + 0x1p-30, -(1.0 + 0x1p-29), WS_RND_RN, 0), ==, d2u (0x1p-60));
  g_assert_cmphex (f64op (WS_OP_FMA, 1.0 + 0x1p-30, 1.0 - 0x1p-30, 0.0, WS_RND_RM, 0), ==,
                   G_GUINT64_CONSTANT (0x3fefffffffffffff));
}

static void
test_div (void)
{
  g_assert_cmphex (f32op (WS_OP_DIV, 1.0f, 3.0f, 0, WS_RND_RN, 0), ==, 0x3eaaaaabu);
  g_assert_cmphex (f32op (WS_OP_DIV, 1.0f, 3.0f, 0, WS_RND_RZ, 0), ==, 0x3eaaaaaau);
  g_assert_cmphex (f32op (WS_OP_DIV, 1.0f, 3.0f, 0, WS_RND_RM, 0), ==, 0x3eaaaaaau);
  g_assert_cmphex (f32op (WS_OP_DIV, 1.0f, 3.0f, 0, WS_RND_RP, 0), ==, 0x3eaaaaabu);
  g_assert_cmphex (f32op (WS_OP_DIV, -1.0f, 3.0f, 0, WS_RND_RM, 0), ==, 0xbeaaaaabu);
  g_assert_cmphex (f32op (WS_OP_DIV, 2.0f, 3.0f, 0, WS_RND_RN, 0), ==, 0x3f2aaaabu);
  g_assert_cmphex (f32op (WS_OP_DIV, 2.0f, 3.0f, 0, WS_RND_RZ, 0), ==, 0x3f2aaaaau);
  g_assert_cmphex (f32op (WS_OP_DIV, 6.0f, 3.0f, 0, WS_RND_RP, 0), ==, f2u (2.0f));
  g_assert_cmphex (f32op (WS_OP_DIV, 1.0f, 0.0f, 0, WS_RND_RN, 0), ==, 0x7f800000u);
  g_assert_cmphex (f32op (WS_OP_DIV, -1.0f, 0.0f, 0, WS_RND_RZ, 0), ==, 0xff800000u);
  g_assert_cmphex (f32op (WS_OP_DIV, 0.0f, 0.0f, 0, WS_RND_RN, 0), ==, F32_NAN);
  g_assert_cmphex (f64op (WS_OP_DIV, 1.0, 3.0, 0, WS_RND_RN, 0), ==, G_GUINT64_CONSTANT (0x3fd5555555555555));
  g_assert_cmphex (f64op (WS_OP_DIV, 1.0, 3.0, 0, WS_RND_RP, 0), ==, G_GUINT64_CONSTANT (0x3fd5555555555556));
  g_assert_cmphex (f64op (WS_OP_DIV, 1.0, 3.0, 0, WS_RND_RZ, 0), ==, G_GUINT64_CONSTANT (0x3fd5555555555555));
  /* .full is within 2 ulp (here: correctly rounded) */
  g_assert_cmphex (f32op (WS_OP_DIV, 1.0f, 3.0f, 0, WS_RND_NONE, WS_MOD_FULL), ==, 0x3eaaaaabu);
  /* .approx: a * rcp(b), within 2 ulp; zero for 2^126 < |b| < 2^128 */
  {
    uint32_t r = f32op (WS_OP_DIV, 10.0f, 7.0f, 0, WS_RND_NONE, WS_MOD_APPROX | WS_MOD_FTZ);
    g_assert_cmpint (ABS ((int64_t) r - (int64_t) f2u (10.0f / 7.0f)), <=, 2);
  }
  g_assert_cmphex (f32op (WS_OP_DIV, 1.0f, 0x1p127f, 0, WS_RND_NONE, WS_MOD_APPROX), ==, 0);
  g_assert_cmphex (f32op (WS_OP_DIV, -1.0f, 0x1p127f, 0, WS_RND_NONE, WS_MOD_APPROX), ==, 0x80000000u);
  g_assert_cmphex (f32op (WS_OP_DIV, INFINITY, 0x1p127f, 0, WS_RND_NONE, WS_MOD_APPROX), ==, F32_NAN);
  g_assert_cmphex (f32op (WS_OP_DIV, 1.0f, 0x1p126f, 0, WS_RND_NONE, WS_MOD_APPROX), ==, f2u (0x1p-126f));
}

/* Directed rounding of random f32 operations against the host FPU running in
 * that mode. */
static void
test_f32_directed_random_vs_host (void)
{
  static const int modes[] = { FE_TONEAREST, FE_TOWARDZERO, FE_DOWNWARD, FE_UPWARD };
  static const int rnds[] = { WS_RND_RN, WS_RND_RZ, WS_RND_RM, WS_RND_RP };
  static const int ops[] = { WS_OP_ADD, WS_OP_SUB, WS_OP_MUL, WS_OP_DIV, WS_OP_FMA };
  GRand *rng;

  if (!host_rounding_modes_work ())
    return;
  rng = g_rand_new_with_seed (42);

  for (int i = 0; i < 40000; i++)
    {
      uint32_t u[3];
      for (int k = 0; k < 3; k++)
        {
          /* random sign and significand, exponents clustered so sums cancel
           * and products under/overflow now and then */
          int ex = g_rand_int_range (rng, 0, 10) == 0 ? g_rand_int_range (rng, 0, 255)
                                                      : g_rand_int_range (rng, 100, 156);
          u[k] = (g_rand_int (rng) & 0x807fffffu) | ((uint32_t) ex << 23);
          if (g_rand_int_range (rng, 0, 8) == 0 && k > 0)
            u[k] = u[0] ^ (g_rand_int (rng) & 0x80000003u);
        }
      for (int m = 0; m < 4; m++)
        for (guint o = 0; o < G_N_ELEMENTS (ops); o++)
          {
            volatile float a = u2f (u[0]), b = u2f (u[1]), c = u2f (u[2]);
            volatile float ref = 0;
            uint32_t got, want;
            fesetround (modes[m]);
            switch (ops[o])
              {
              case WS_OP_ADD: ref = a + b; break;
              case WS_OP_SUB: ref = a - b; break;
              case WS_OP_MUL: ref = a * b; break;
              case WS_OP_DIV: ref = a / b; break;
              default: ref = fmaf (a, b, c); break;
              }
            fesetround (FE_TONEAREST);
            want = isnan (ref) ? F32_NAN : f2u (ref);
            got = (uint32_t) ws_ptx_float_op (ops[o], WS_T_F32, u[0], u[1], u[2], rnds[m], 0);
            if (got != want)
              g_error ("op %d mode %d: %a %a %a -> %08x, host %08x", ops[o], m, (double) a, (double) b, (double) c, got,
                       want);
          }
      for (int m = 0; m < 4; m++)
        {
          volatile float a = fabsf (u2f (u[0]));
          volatile float ref;
          fesetround (modes[m]);
          ref = sqrtf (a);
          fesetround (FE_TONEAREST);
          g_assert_cmphex (ws_ptx_float_unary (WS_OP_SQRT, WS_T_F32, f2u (a), rnds[m], 0), ==, f2u (ref));
        }
    }
  g_rand_free (rng);
}

/* f16 arithmetic and conversions in every rounding mode against the host's
 * _Float16 (libgcc rounds in the FPU's current mode).  Sums and products of
 * two f16 values are exact in double, so the reference rounds only once. */
static void
test_f16_random_vs_host (void)
{
  static const int modes[] = { FE_TONEAREST, FE_TOWARDZERO, FE_DOWNWARD, FE_UPWARD };
  static const int rnds[] = { WS_RND_RN, WS_RND_RZ, WS_RND_RM, WS_RND_RP };
  GRand *rng;

  if (!host_rounding_modes_work ())
    return;
  rng = g_rand_new_with_seed (7);

  for (int i = 0; i < 30000; i++)
    {
      uint16_t ua = (uint16_t) g_rand_int (rng), ub = (uint16_t) g_rand_int (rng);
      uint32_t uf = g_rand_int (rng);
      _Float16 ha, hb;
      double da, db;
      memcpy (&ha, &ua, 2);
      memcpy (&hb, &ub, 2);
      da = (double) ha;
      db = (double) hb;
      if (isnan (da) || isnan (db))
        continue;
      /* f16 -> f32 is exact */
      g_assert_cmphex (ws_ptx_cvt (ua, WS_T_F16, WS_T_F32, WS_RND_NONE, FALSE, FALSE), ==, f2u ((float) ha));
      for (int m = 0; m < 4; m++)
        {
          volatile double va = da, vb = db, vsum, vdif, vprod;
          volatile double vd = u2f (uf);
          volatile _Float16 rsum, rdif, rprod, rcvt;
          uint16_t want;
          fesetround (modes[m]);
          /* exact in double; computed in the mode for the sign of exact zeros */
          vsum = va + vb;
          vdif = va - vb;
          vprod = va * vb;
          rsum = (_Float16) vsum;
          rdif = (_Float16) vdif;
          rprod = (_Float16) vprod;
          rcvt = (_Float16) vd;
          fesetround (FE_TONEAREST);
          {
            _Float16 t = rsum;
            memcpy (&want, &t, 2);
            if (!isnan (vsum))
              g_assert_cmphex (ws_ptx_float_op (WS_OP_ADD, WS_T_F16, ua, ub, 0, rnds[m], 0), ==, want);
            t = rdif;
            memcpy (&want, &t, 2);
            if (!isnan (vdif))
              g_assert_cmphex (ws_ptx_float_op (WS_OP_SUB, WS_T_F16, ua, ub, 0, rnds[m], 0), ==, want);
            t = rprod;
            memcpy (&want, &t, 2);
            if (!isnan (vprod))
              g_assert_cmphex (ws_ptx_float_op (WS_OP_MUL, WS_T_F16, ua, ub, 0, rnds[m], 0), ==, want);
            t = rcvt;
            memcpy (&want, &t, 2);
            if (!isnan (vd))
              g_assert_cmphex (ws_ptx_cvt (uf, WS_T_F32, WS_T_F16, rnds[m], FALSE, FALSE), ==, want);
          }
        }
    }
  g_rand_free (rng);
}

/* f64 directed rounding (integer arithmetic in ptxmath) against the host. */
static void
test_f64_directed_random_vs_host (void)
{
  static const int modes[] = { FE_TONEAREST, FE_TOWARDZERO, FE_DOWNWARD, FE_UPWARD };
  static const int rnds[] = { WS_RND_RN, WS_RND_RZ, WS_RND_RM, WS_RND_RP };
  static const int ops[] = { WS_OP_ADD, WS_OP_SUB, WS_OP_MUL, WS_OP_DIV, WS_OP_FMA, WS_OP_SQRT };
  GRand *rng;

  if (!host_rounding_modes_work ())
    return;
  rng = g_rand_new_with_seed (99);
  for (int i = 0; i < 30000; i++)
    {
      uint64_t u[3];
      for (int k = 0; k < 3; k++)
        {
          int ex = g_rand_int_range (rng, 0, 10) == 0 ? g_rand_int_range (rng, 0, 2047)
                                                      : g_rand_int_range (rng, 900, 1150);
          u[k] = (((uint64_t) g_rand_int (rng) << 32) | g_rand_int (rng)) & G_GUINT64_CONSTANT (0x800fffffffffffff);
          u[k] |= (uint64_t) ex << 52;
          if (g_rand_int_range (rng, 0, 8) == 0 && k > 0)
            u[k] = u[0] ^ (g_rand_int (rng) & 0x80000003u);
          if (g_rand_int_range (rng, 0, 50) == 0)
            u[k] &= G_GUINT64_CONSTANT (0x800fffffffffffff) >> g_rand_int_range (rng, 0, 60); /* subnormal */
        }
      /* products near the bottom of the range exercise subnormal results */
      if (i % 7 == 0)
        u[1] = (u[1] & G_GUINT64_CONSTANT (0x800fffffffffffff)) | ((uint64_t) g_rand_int_range (rng, 1, 60) << 52);
      for (int m = 0; m < 4; m++)
        for (guint o = 0; o < G_N_ELEMENTS (ops); o++)
          {
            volatile double a = u2d (u[0]), b = u2d (u[1]), c = u2d (u[2]);
            volatile double ref = 0;
            uint64_t got, want;
            if (ops[o] == WS_OP_SQRT)
              a = fabs (a);
            fesetround (modes[m]);
            switch (ops[o])
              {
              case WS_OP_ADD: ref = a + b; break;
              case WS_OP_SUB: ref = a - b; break;
              case WS_OP_MUL: ref = a * b; break;
              case WS_OP_DIV: ref = a / b; break;
              case WS_OP_SQRT: ref = sqrt (a); break;
              default: ref = fma (a, b, c); break;
              }
            fesetround (FE_TONEAREST);
            want = d2u (ref);
            if (ops[o] == WS_OP_SQRT)
              got = ws_ptx_float_unary (WS_OP_SQRT, WS_T_F64, d2u (a), rnds[m], 0);
            else
              got = ws_ptx_float_op (ops[o], WS_T_F64, u[0], u[1], u[2], rnds[m], 0);
            if (isnan (ref) ? !isnan (u2d (got)) : got != want)
              g_error ("f64 op %d mode %d: %a %a %a -> %016" G_GINT64_MODIFIER "x, host %016" G_GINT64_MODIFIER "x",
                       ops[o], m, a, b, c, got, want);
          }
    }
  g_rand_free (rng);
}

static void
test_f64_directed_cases (void)
{
  double t = 0x1p-1074;
  /* 1.5 * 2^-1074: subnormal rounding */
  g_assert_cmphex (f64op (WS_OP_MUL, 0x1p-1070, 0x1.8p-4, 0, WS_RND_RN, 0), ==, 2);
  g_assert_cmphex (f64op (WS_OP_MUL, 0x1p-1070, 0x1.8p-4, 0, WS_RND_RZ, 0), ==, 1);
  g_assert_cmphex (f64op (WS_OP_MUL, 0x1p-1070, 0x1.8p-4, 0, WS_RND_RM, 0), ==, 1);
  g_assert_cmphex (f64op (WS_OP_MUL, 0x1p-1070, 0x1.8p-4, 0, WS_RND_RP, 0), ==, 2);
  g_assert_cmphex (f64op (WS_OP_MUL, t, 0.5, 0, WS_RND_RP, 0), ==, 1);
  g_assert_cmphex (f64op (WS_OP_MUL, t, 0.5, 0, WS_RND_RZ, 0), ==, 0);
  g_assert_cmphex (f64op (WS_OP_MUL, -t, 0.5, 0, WS_RND_RM, 0), ==, G_GUINT64_CONSTANT (0x8000000000000001));
  /* overflow */
  g_assert_cmphex (f64op (WS_OP_MUL, DBL_MAX, 2.0, 0, WS_RND_RZ, 0), ==, d2u (DBL_MAX));
  g_assert_cmphex (f64op (WS_OP_MUL, DBL_MAX, 2.0, 0, WS_RND_RP, 0), ==, d2u (INFINITY));
  g_assert_cmphex (f64op (WS_OP_MUL, DBL_MAX, -2.0, 0, WS_RND_RP, 0), ==, d2u (-DBL_MAX));
  g_assert_cmphex (f64op (WS_OP_ADD, DBL_MAX, 0x1p970, 0, WS_RND_RP, 0), ==, d2u (INFINITY));
  g_assert_cmphex (f64op (WS_OP_ADD, DBL_MAX, 0x1p970, 0, WS_RND_RM, 0), ==, d2u (DBL_MAX));
  /* fma: one rounding, exact zero signs */
  g_assert_cmphex (f64op (WS_OP_FMA, 1.0 + 0x1p-52, 1.0 - 0x1p-52, -1.0, WS_RND_RZ, 0), ==, d2u (-0x1p-104));
  g_assert_cmphex (f64op (WS_OP_FMA, 3.0, 5.0, -15.0, WS_RND_RM, 0), ==, G_GUINT64_CONSTANT (0x8000000000000000));
  g_assert_cmphex (f64op (WS_OP_FMA, 3.0, 5.0, -15.0, WS_RND_RP, 0), ==, 0);
  g_assert_cmphex (f64op (WS_OP_FMA, 0x1p600, 0x1p600, -1.0, WS_RND_RZ, 0), ==, d2u (DBL_MAX));
  g_assert_cmphex (f64op (WS_OP_FMA, 1.0, 1.0, 0x1p-200, WS_RND_RP, 0), ==, G_GUINT64_CONSTANT (0x3ff0000000000001));
  g_assert_cmphex (f64op (WS_OP_FMA, 1.0, 1.0, -0x1p-200, WS_RND_RZ, 0), ==, G_GUINT64_CONSTANT (0x3fefffffffffffff));
  g_assert_cmphex (f64op (WS_OP_FMA, 0x1p-200, 0x1p-200, 1.0, WS_RND_RP, 0), ==,
                   G_GUINT64_CONSTANT (0x3ff0000000000001));
  g_assert_cmphex (f64op (WS_OP_FMA, 0.0, 5.0, -0.0, WS_RND_RM, 0), ==, G_GUINT64_CONSTANT (0x8000000000000000));
  g_assert_cmphex (f64op (WS_OP_FMA, 0.0, 5.0, -0.0, WS_RND_RZ, 0), ==, 0);
  /* div / sqrt of subnormals */
  g_assert_cmphex (f64op (WS_OP_DIV, t, 3.0, 0, WS_RND_RP, 0), ==, 1);
  g_assert_cmphex (f64op (WS_OP_DIV, t, 3.0, 0, WS_RND_RN, 0), ==, 0);
  g_assert_cmphex (f64op (WS_OP_DIV, 1.0, t, 0, WS_RND_RZ, 0), ==, d2u (DBL_MAX));
  g_assert_cmphex (ws_ptx_float_unary (WS_OP_SQRT, WS_T_F64, 1, WS_RND_RN, 0), ==, d2u (0x1p-537));
  g_assert_cmphex (ws_ptx_float_unary (WS_OP_SQRT, WS_T_F64, 2, WS_RND_RZ, 0), ==, d2u (0x1.6a09e667f3bccp-537));
  g_assert_cmphex (ws_ptx_float_unary (WS_OP_SQRT, WS_T_F64, 2, WS_RND_RP, 0), ==, d2u (0x1.6a09e667f3bcdp-537));
  g_assert_cmphex (ws_ptx_float_unary (WS_OP_SQRT, WS_T_F64, d2u (-0.0), WS_RND_RZ, 0), ==,
                   G_GUINT64_CONSTANT (0x8000000000000000));
  g_assert_true (isnan (u2d (ws_ptx_float_unary (WS_OP_SQRT, WS_T_F64, d2u (-4.0), WS_RND_RP, 0))));
  g_assert_true (isnan (u2d (f64op (WS_OP_ADD, INFINITY, -INFINITY, 0, WS_RND_RZ, 0))));
  g_assert_cmphex (f64op (WS_OP_SUB, 0.0, 0.0, 0, WS_RND_RM, 0), ==, G_GUINT64_CONSTANT (0x8000000000000000));
  g_assert_cmphex (f64op (WS_OP_SUB, 0.0, 0.0, 0, WS_RND_RP, 0), ==, 0);
}

static void
test_ftz_and_sat (void)
{
  /* subnormal inputs */
  g_assert_cmphex (f32op (WS_OP_ADD, u2f (1), 0.0f, 0, WS_RND_RN, 0), ==, 1);
  g_assert_cmphex (f32op (WS_OP_ADD, u2f (1), 0.0f, 0, WS_RND_RN, WS_MOD_FTZ), ==, 0);
  g_assert_cmphex (f32op (WS_OP_ADD, u2f (0x80000001u), -0.0f, 0, WS_RND_RN, WS_MOD_FTZ), ==, 0x80000000u);
  g_assert_cmphex (f32op (WS_OP_MUL, u2f (0x00400000u), 4.0f, 0, WS_RND_RN, 0), ==, 0x01000000u);
  g_assert_cmphex (f32op (WS_OP_MUL, u2f (0x00400000u), 4.0f, 0, WS_RND_RN, WS_MOD_FTZ), ==, 0);
  /* subnormal results */
  g_assert_cmphex (f32op (WS_OP_MUL, 0x1p-100f, 0x1p-30f, 0, WS_RND_RN, 0), ==, 0x00080000u);
  g_assert_cmphex (f32op (WS_OP_MUL, 0x1p-100f, 0x1p-30f, 0, WS_RND_RN, WS_MOD_FTZ), ==, 0);
  g_assert_cmphex (f32op (WS_OP_MUL, -0x1p-100f, 0x1p-30f, 0, WS_RND_RN, WS_MOD_FTZ), ==, 0x80000000u);
  g_assert_cmphex (f32op (WS_OP_FMA, 0x1p-100f, 0x1p-30f, 0.0f, WS_RND_RZ, WS_MOD_FTZ), ==, 0);
  /* .sat */
  g_assert_cmphex (f32op (WS_OP_ADD, 0.75f, 0.5f, 0, WS_RND_RN, WS_MOD_SAT), ==, 0x3f800000u);
  g_assert_cmphex (f32op (WS_OP_ADD, 0.25f, 0.5f, 0, WS_RND_RN, WS_MOD_SAT), ==, f2u (0.75f));
  g_assert_cmphex (f32op (WS_OP_MUL, -3.0f, 0.5f, 0, WS_RND_RN, WS_MOD_SAT), ==, 0);
  g_assert_cmphex (f32op (WS_OP_ADD, INFINITY, -INFINITY, 0, WS_RND_RN, WS_MOD_SAT), ==, 0);
  g_assert_cmphex (f32op (WS_OP_FMA, 2.0f, 2.0f, -3.5f, WS_RND_RN, WS_MOD_SAT), ==, f2u (0.5f));
}

static void
test_minmax_nan (void)
{
  g_assert_cmphex (f32op (WS_OP_MIN, NAN, 1.0f, 0, 0, 0), ==, f2u (1.0f));
  g_assert_cmphex (f32op (WS_OP_MIN, 1.0f, NAN, 0, 0, 0), ==, f2u (1.0f));
  g_assert_cmphex (f32op (WS_OP_MAX, NAN, -2.0f, 0, 0, 0), ==, f2u (-2.0f));
  g_assert_cmphex (f32op (WS_OP_MIN, NAN, NAN, 0, 0, 0), ==, F32_NAN);
  g_assert_cmphex (f32op (WS_OP_MIN, 1.0f, NAN, 0, 0, WS_MOD_NAN), ==, F32_NAN);
  g_assert_cmphex (f32op (WS_OP_MAX, 1.0f, 2.0f, 0, 0, WS_MOD_NAN), ==, f2u (2.0f));
  g_assert_cmphex (f32op (WS_OP_MIN, -0.0f, 0.0f, 0, 0, 0), ==, 0x80000000u);
  g_assert_cmphex (f32op (WS_OP_MIN, 0.0f, -0.0f, 0, 0, 0), ==, 0x80000000u);
  g_assert_cmphex (f32op (WS_OP_MAX, -0.0f, 0.0f, 0, 0, 0), ==, 0);
  g_assert_cmphex (f32op (WS_OP_MAX, 3.0f, -INFINITY, 0, 0, 0), ==, f2u (3.0f));
  g_assert_cmphex (f32op (WS_OP_MIN, 3.0f, -INFINITY, 0, 0, 0), ==, 0xff800000u);
  g_assert_cmphex (f32op (WS_OP_MIN, u2f (0x80000001u), 1.0f, 0, 0, WS_MOD_FTZ), ==, 0x80000000u);
  g_assert_cmphex (f64op (WS_OP_MIN, NAN, 5.0, 0, 0, 0), ==, d2u (5.0));
  g_assert_cmphex (f64op (WS_OP_MAX, -1.0, NAN, 0, 0, 0), ==, d2u (-1.0));
  g_assert_cmphex (f64op (WS_OP_MAX, -0.0, 0.0, 0, 0, 0), ==, 0);
  g_assert_true (isnan (u2d (f64op (WS_OP_MAX, NAN, NAN, 0, 0, 0))));
  /* f16, f16x2, xorsign.abs */
  g_assert_cmphex (ws_ptx_float_op (WS_OP_MIN, WS_T_F16, 0x7e00, 0x3c00, 0, 0, 0), ==, 0x3c00);
  g_assert_cmphex (ws_ptx_float_op (WS_OP_MAX, WS_T_F16, 0xc000, 0x3c00, 0, 0, 0), ==, 0x3c00);
  g_assert_cmphex (ws_ptx_float_op (WS_OP_MAX, WS_T_F16X2, 0xc0003c00, 0x3c00c000, 0, 0, 0), ==, 0x3c003c00);
  g_assert_cmphex (ws_ptx_float_op (WS_OP_MIN, WS_T_BF16, 0x3f80, 0x7fc0, 0, 0, WS_MOD_NAN), ==, 0x7fff);
  g_assert_cmphex (f32op (WS_OP_MIN, -2.0f, 3.0f, 0, 0, WS_MOD_XORSIGN | WS_MOD_ABS), ==, f2u (-2.0f));
  g_assert_cmphex (f32op (WS_OP_MIN, -2.0f, -3.0f, 0, 0, WS_MOD_XORSIGN | WS_MOD_ABS), ==, f2u (2.0f));
  g_assert_cmphex (f32op (WS_OP_MAX, 2.0f, -3.0f, 0, 0, WS_MOD_XORSIGN | WS_MOD_ABS), ==, f2u (-3.0f));
  /* copysign d, a, b: sign of a, magnitude of b */
  g_assert_cmphex (f32op (WS_OP_COPYSIGN, -1.0f, 5.0f, 0, 0, 0), ==, f2u (-5.0f));
  g_assert_cmphex (f32op (WS_OP_COPYSIGN, 1.0f, -5.0f, 0, 0, 0), ==, f2u (5.0f));
  g_assert_cmphex (f64op (WS_OP_COPYSIGN, -0.0, 2.5, 0, 0, 0), ==, d2u (-2.5));
}

static void
test_half_arith (void)
{
  /* 1 + 2^-11 is a tie in f16 */
  g_assert_cmphex (ws_ptx_float_op (WS_OP_ADD, WS_T_F16, 0x3c00, 0x1000, 0, WS_RND_RN, 0), ==, 0x3c00);
  g_assert_cmphex (ws_ptx_float_op (WS_OP_ADD, WS_T_F16, 0x3c00, 0x1000, 0, WS_RND_RP, 0), ==, 0x3c01);
  g_assert_cmphex (ws_ptx_float_op (WS_OP_ADD, WS_T_F16, 0x3c01, 0x1000, 0, WS_RND_RN, 0), ==, 0x3c02);
  g_assert_cmphex (ws_ptx_float_op (WS_OP_MUL, WS_T_F16, 0x5c00, 0x5c00, 0, WS_RND_RN, 0), ==, 0x7c00); /* 256^2 */
  g_assert_cmphex (ws_ptx_float_op (WS_OP_MUL, WS_T_F16, 0x4000, 0x4200, 0, WS_RND_RN, WS_MOD_SAT), ==, 0x3c00);
  g_assert_cmphex (ws_ptx_float_op (WS_OP_FMA, WS_T_F16, 0x3c01, 0x3c01, 0xbc02, WS_RND_RN, 0), ==, 0x0010);
  g_assert_cmphex (ws_ptx_float_op (WS_OP_ADD, WS_T_F16X2, 0x3c004000, 0x3c003c00, 0, WS_RND_RN, 0), ==, 0x40004200);
  /* fma.relu: negative -> +0, NaN -> canonical NaN */
  g_assert_cmphex (ws_ptx_float_op (WS_OP_FMA, WS_T_F16, 0x4000, 0xbc00, 0x3c00, WS_RND_RN, WS_MOD_RELU), ==, 0);
  g_assert_cmphex (ws_ptx_float_op (WS_OP_FMA, WS_T_F16, 0x4000, 0x3c00, 0x3c00, WS_RND_RN, WS_MOD_RELU), ==, 0x4200);
  g_assert_cmphex (ws_ptx_float_op (WS_OP_FMA, WS_T_BF16X2, 0x7fc03f80, 0x3f803f80, 0x3f80bf80, WS_RND_RN, WS_MOD_RELU),
                   ==, 0x7fff0000);
  /* f16 subnormals, with and without .ftz */
  g_assert_cmphex (ws_ptx_float_op (WS_OP_ADD, WS_T_F16, 0x0001, 0x0001, 0, WS_RND_RN, 0), ==, 0x0002);
  g_assert_cmphex (ws_ptx_float_op (WS_OP_ADD, WS_T_F16, 0x0001, 0x0001, 0, WS_RND_RN, WS_MOD_FTZ), ==, 0);
  /* bf16 */
  g_assert_cmphex (ws_ptx_float_op (WS_OP_MUL, WS_T_BF16, 0x4040, 0x4040, 0, WS_RND_RN, 0), ==, 0x4110); /* 3*3 */
  g_assert_cmphex (ws_ptx_float_op (WS_OP_ADD, WS_T_BF16, 0x3f80, 0x3b80, 0, WS_RND_RN, 0), ==, 0x3f80); /* 1+2^-8 */
  g_assert_cmphex (ws_ptx_float_op (WS_OP_SUB, WS_T_BF16X2, 0x40403f80, 0x3f803f80, 0, WS_RND_RN, 0), ==, 0x40000000);
  /* unary */
  g_assert_cmphex (ws_ptx_float_unary (WS_OP_NEG, WS_T_F16, 0x3c00, 0, 0), ==, 0xbc00);
  g_assert_cmphex (ws_ptx_float_unary (WS_OP_ABS, WS_T_F16X2, 0xbc00c000, 0, 0), ==, 0x3c004000);
  g_assert_cmphex (ws_ptx_float_unary (WS_OP_EX2, WS_T_F16, 0x4200 /* 3 */, 0, WS_MOD_APPROX), ==, 0x4800);
  g_assert_cmphex (ws_ptx_float_unary (WS_OP_TANH, WS_T_BF16, 0x0000, 0, WS_MOD_APPROX), ==, 0);
}

static uint32_t
f32un (int op, float a, int rnd, uint32_t mods)
{
  return (uint32_t) ws_ptx_float_unary (op, WS_T_F32, f2u (a), rnd, mods);
}

static void
test_sqrt_rcp_special (void)
{
  g_assert_cmphex (f32un (WS_OP_SQRT, -0.0f, WS_RND_RN, 0), ==, 0x80000000u);
  g_assert_cmphex (f32un (WS_OP_SQRT, -1.0f, WS_RND_RN, 0), ==, F32_NAN);
  g_assert_cmphex (f32un (WS_OP_SQRT, -1.0f, WS_RND_RZ, 0), ==, F32_NAN);
  g_assert_cmphex (f32un (WS_OP_SQRT, INFINITY, WS_RND_RN, 0), ==, 0x7f800000u);
  g_assert_cmphex (f32un (WS_OP_SQRT, 2.0f, WS_RND_RN, 0), ==, 0x3fb504f3u);
  g_assert_cmphex (f32un (WS_OP_SQRT, 2.0f, WS_RND_RZ, 0), ==, 0x3fb504f3u);
  g_assert_cmphex (f32un (WS_OP_SQRT, 2.0f, WS_RND_RP, 0), ==, 0x3fb504f4u);
  g_assert_cmphex (f32un (WS_OP_SQRT, 16.0f, WS_RND_RP, 0), ==, f2u (4.0f));
  g_assert_cmphex (f32un (WS_OP_SQRT, 2.0f, WS_RND_NONE, WS_MOD_APPROX), ==, 0x3fb504f3u);
  g_assert_cmphex (f32un (WS_OP_SQRT, u2f (0x80000004u), WS_RND_NONE, WS_MOD_APPROX | WS_MOD_FTZ), ==, 0x80000000u);
  g_assert_cmphex (ws_ptx_float_unary (WS_OP_SQRT, WS_T_F64, d2u (-0.0), WS_RND_RN, 0), ==,
                   G_GUINT64_CONSTANT (0x8000000000000000));
  g_assert_true (isnan (u2d (ws_ptx_float_unary (WS_OP_SQRT, WS_T_F64, d2u (-1.0), WS_RND_RN, 0))));
  g_assert_cmphex (ws_ptx_float_unary (WS_OP_SQRT, WS_T_F64, d2u (2.0), WS_RND_RN, 0), ==,
                   G_GUINT64_CONSTANT (0x3ff6a09e667f3bcd));
  g_assert_cmphex (ws_ptx_float_unary (WS_OP_SQRT, WS_T_F64, d2u (2.0), WS_RND_RM, 0), ==,
                   G_GUINT64_CONSTANT (0x3ff6a09e667f3bcc));
  /* rcp */
  g_assert_cmphex (f32un (WS_OP_RCP, 0.0f, WS_RND_RN, 0), ==, 0x7f800000u);
  g_assert_cmphex (f32un (WS_OP_RCP, -0.0f, WS_RND_NONE, WS_MOD_APPROX), ==, 0xff800000u);
  g_assert_cmphex (f32un (WS_OP_RCP, -INFINITY, WS_RND_NONE, WS_MOD_APPROX), ==, 0x80000000u);
  g_assert_cmphex (f32un (WS_OP_RCP, 3.0f, WS_RND_RN, 0), ==, 0x3eaaaaabu);
  g_assert_cmphex (f32un (WS_OP_RCP, 3.0f, WS_RND_RZ, 0), ==, 0x3eaaaaaau);
  g_assert_cmphex (f32un (WS_OP_RCP, u2f (0x00000010u), WS_RND_NONE, WS_MOD_APPROX | WS_MOD_FTZ), ==, 0x7f800000u);
  g_assert_cmphex (ws_ptx_float_unary (WS_OP_RCP, WS_T_F64, d2u (3.0), WS_RND_RP, 0), ==,
                   G_GUINT64_CONSTANT (0x3fd5555555555556));
  g_assert_cmphex (ws_ptx_float_unary (WS_OP_RCP, WS_T_F64, d2u (0x1p-1050), WS_RND_NONE, WS_MOD_APPROX | WS_MOD_FTZ),
                   ==, d2u (INFINITY));
  g_assert_cmphex (ws_ptx_float_unary (WS_OP_RCP, WS_T_F64, d2u (0x1p1023), WS_RND_NONE, WS_MOD_APPROX | WS_MOD_FTZ),
                   ==, 0);
  g_assert_cmphex (ws_ptx_float_unary (WS_OP_RCP, WS_T_F64, d2u (4.0), WS_RND_NONE, WS_MOD_APPROX | WS_MOD_FTZ), ==,
                   d2u (0.25));
  /* rsqrt */
  g_assert_cmphex (f32un (WS_OP_RSQRT, 4.0f, WS_RND_NONE, WS_MOD_APPROX), ==, f2u (0.5f));
  g_assert_cmphex (f32un (WS_OP_RSQRT, 0.0f, WS_RND_NONE, WS_MOD_APPROX), ==, 0x7f800000u);
  g_assert_cmphex (f32un (WS_OP_RSQRT, -0.0f, WS_RND_NONE, WS_MOD_APPROX), ==, 0xff800000u);
  g_assert_cmphex (f32un (WS_OP_RSQRT, INFINITY, WS_RND_NONE, WS_MOD_APPROX), ==, 0);
  g_assert_cmphex (f32un (WS_OP_RSQRT, -4.0f, WS_RND_NONE, WS_MOD_APPROX), ==, F32_NAN);
  g_assert_cmphex (ws_ptx_float_unary (WS_OP_RSQRT, WS_T_F64, d2u (0.25), WS_RND_NONE, WS_MOD_APPROX), ==, d2u (2.0));
  /* abs / neg */
  g_assert_cmphex (f32un (WS_OP_ABS, -3.0f, 0, 0), ==, f2u (3.0f));
  g_assert_cmphex (f32un (WS_OP_NEG, 3.0f, 0, 0), ==, f2u (-3.0f));
  g_assert_cmphex (f32un (WS_OP_NEG, 0.0f, 0, 0), ==, 0x80000000u);
  g_assert_cmphex (f32un (WS_OP_NEG, u2f (0x00000005u), 0, WS_MOD_FTZ), ==, 0x80000000u);
  g_assert_cmphex (f32un (WS_OP_ABS, u2f (0x80000005u), 0, 0), ==, 5);
  g_assert_cmphex (f32un (WS_OP_ABS, u2f (0x80000005u), 0, WS_MOD_FTZ), ==, 0);
  g_assert_cmphex (ws_ptx_float_unary (WS_OP_NEG, WS_T_F64, d2u (1.0), 0, 0), ==, d2u (-1.0));
}

static void
test_sfu_approx (void)
{
  uint32_t ftz_approx = WS_MOD_APPROX | WS_MOD_FTZ;
  /* special values */
  g_assert_cmphex (f32un (WS_OP_LG2, 0.0f, 0, ftz_approx), ==, 0xff800000u);
  g_assert_cmphex (f32un (WS_OP_LG2, -0.0f, 0, ftz_approx), ==, 0xff800000u);
  g_assert_cmphex (f32un (WS_OP_LG2, u2f (1), 0, ftz_approx), ==, 0xff800000u);
  g_assert_cmphex (f32un (WS_OP_LG2, u2f (1), 0, WS_MOD_APPROX), ==, f2u (-149.0f));
  g_assert_cmphex (f32un (WS_OP_LG2, -1.0f, 0, ftz_approx), ==, F32_NAN);
  g_assert_cmphex (f32un (WS_OP_LG2, INFINITY, 0, ftz_approx), ==, 0x7f800000u);
  g_assert_cmphex (f32un (WS_OP_LG2, 8.0f, 0, ftz_approx), ==, f2u (3.0f));
  g_assert_cmphex (f32un (WS_OP_EX2, -INFINITY, 0, ftz_approx), ==, 0);
  g_assert_cmphex (f32un (WS_OP_EX2, INFINITY, 0, ftz_approx), ==, 0x7f800000u);
  g_assert_cmphex (f32un (WS_OP_EX2, 3.0f, 0, ftz_approx), ==, f2u (8.0f));
  g_assert_cmphex (f32un (WS_OP_EX2, -140.0f, 0, WS_MOD_APPROX), ==, f2u (0x1p-140f));
  g_assert_cmphex (f32un (WS_OP_EX2, -140.0f, 0, ftz_approx), ==, 0);
  g_assert_cmphex (f32un (WS_OP_SIN, -0.0f, 0, ftz_approx), ==, 0x80000000u);
  g_assert_cmphex (f32un (WS_OP_SIN, INFINITY, 0, ftz_approx), ==, F32_NAN);
  g_assert_cmphex (f32un (WS_OP_COS, 0.0f, 0, ftz_approx), ==, f2u (1.0f));
  g_assert_cmphex (f32un (WS_OP_COS, -INFINITY, 0, ftz_approx), ==, F32_NAN);
  g_assert_cmphex (f32un (WS_OP_TANH, INFINITY, 0, WS_MOD_APPROX), ==, f2u (1.0f));
  g_assert_cmphex (f32un (WS_OP_TANH, -0.0f, 0, WS_MOD_APPROX), ==, 0x80000000u);
  g_assert_cmphex (f32un (WS_OP_SIN, NAN, 0, ftz_approx), ==, F32_NAN);
  /* accuracy: sin/cos absolute error <= 2^-20.5 over [-pi, pi] */
  for (int i = -1000; i <= 1000; i++)
    {
      float x = (float) (G_PI * i / 1000.0);
      double s = u2f (f32un (WS_OP_SIN, x, 0, ftz_approx)), c = u2f (f32un (WS_OP_COS, x, 0, ftz_approx));
      g_assert_cmpfloat (fabs (s - sin ((double) x)), <=, ldexp (1.0, -20) * M_SQRT1_2);
      g_assert_cmpfloat (fabs (c - cos ((double) x)), <=, ldexp (1.0, -20) * M_SQRT1_2);
      g_assert_cmpfloat (fabs (u2f (f32un (WS_OP_TANH, x, 0, WS_MOD_APPROX)) - tanh ((double) x)), <=, 0x1p-11);
    }
}

/* ---- testp / compare ----------------------------------------------------------- */

static void
test_testp (void)
{
  static const struct {
    uint32_t x;
    gboolean finite, infinite, number, nan, normal, subnormal;
  } cases[] = {
    { 0x00000000u, TRUE, FALSE, TRUE, FALSE, FALSE, FALSE },  { 0x80000000u, TRUE, FALSE, TRUE, FALSE, FALSE, FALSE },
    { 0x00000001u, TRUE, FALSE, TRUE, FALSE, FALSE, TRUE },   { 0x807fffffu, TRUE, FALSE, TRUE, FALSE, FALSE, TRUE },
    { 0x00800000u, TRUE, FALSE, TRUE, FALSE, TRUE, FALSE },   { 0xbf800000u, TRUE, FALSE, TRUE, FALSE, TRUE, FALSE },
    { 0x7f800000u, FALSE, TRUE, TRUE, FALSE, FALSE, FALSE },  { 0xff800000u, FALSE, TRUE, TRUE, FALSE, FALSE, FALSE },
    { 0x7fc00000u, FALSE, FALSE, FALSE, TRUE, FALSE, FALSE }, { 0xff800001u, FALSE, FALSE, FALSE, TRUE, FALSE, FALSE },
  };
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      uint32_t x = cases[i].x;
      uint64_t xd = ws_ptx_cvt (x, WS_T_F32, WS_T_F64, WS_RND_NONE, FALSE, FALSE);
      g_assert_cmpint (ws_ptx_testp (WS_SUB_FINITE, WS_T_F32, x), ==, cases[i].finite);
      g_assert_cmpint (ws_ptx_testp (WS_SUB_INFINITE, WS_T_F32, x), ==, cases[i].infinite);
      g_assert_cmpint (ws_ptx_testp (WS_SUB_NUMBER, WS_T_F32, x), ==, cases[i].number);
      g_assert_cmpint (ws_ptx_testp (WS_SUB_NOTANUMBER, WS_T_F32, x), ==, cases[i].nan);
      g_assert_cmpint (ws_ptx_testp (WS_SUB_NORMAL, WS_T_F32, x), ==, cases[i].normal);
      g_assert_cmpint (ws_ptx_testp (WS_SUB_SUBNORMAL, WS_T_F32, x), ==, cases[i].subnormal);
      /* the same values widened to f64 keep their class, except that f32
       * subnormals are normal doubles */
      g_assert_cmpint (ws_ptx_testp (WS_SUB_NOTANUMBER, WS_T_F64, xd), ==, cases[i].nan);
      g_assert_cmpint (ws_ptx_testp (WS_SUB_INFINITE, WS_T_F64, xd), ==, cases[i].infinite);
      g_assert_cmpint (ws_ptx_testp (WS_SUB_NORMAL, WS_T_F64, xd), ==, cases[i].normal || cases[i].subnormal);
    }
  g_assert_true (ws_ptx_testp (WS_SUB_SUBNORMAL, WS_T_F64, 1));
  g_assert_false (ws_ptx_testp (WS_SUB_NORMAL, WS_T_F64, 1));
}

static void
test_compare (void)
{
  uint64_t nan = F32_NAN, one = f2u (1.0f), two = f2u (2.0f);
  g_assert_false (ws_ptx_compare (WS_CMP_EQ, WS_T_F32, nan, nan, FALSE));
  g_assert_false (ws_ptx_compare (WS_CMP_NE, WS_T_F32, nan, one, FALSE));
  g_assert_true (ws_ptx_compare (WS_CMP_NEU, WS_T_F32, nan, one, FALSE));
  g_assert_true (ws_ptx_compare (WS_CMP_EQU, WS_T_F32, one, nan, FALSE));
  g_assert_false (ws_ptx_compare (WS_CMP_EQU, WS_T_F32, one, two, FALSE));
  g_assert_true (ws_ptx_compare (WS_CMP_NE, WS_T_F32, one, two, FALSE));
  g_assert_false (ws_ptx_compare (WS_CMP_LT, WS_T_F32, nan, one, FALSE));
  g_assert_true (ws_ptx_compare (WS_CMP_LTU, WS_T_F32, nan, one, FALSE));
  g_assert_true (ws_ptx_compare (WS_CMP_LTU, WS_T_F32, one, two, FALSE));
  g_assert_false (ws_ptx_compare (WS_CMP_GTU, WS_T_F32, one, two, FALSE));
  g_assert_true (ws_ptx_compare (WS_CMP_GEU, WS_T_F32, two, two, FALSE));
  g_assert_true (ws_ptx_compare (WS_CMP_LEU, WS_T_F32, nan, nan, FALSE));
  g_assert_true (ws_ptx_compare (WS_CMP_NUM, WS_T_F32, one, two, FALSE));
  g_assert_false (ws_ptx_compare (WS_CMP_NUM, WS_T_F32, one, nan, FALSE));
  g_assert_true (ws_ptx_compare (WS_CMP_NAN, WS_T_F32, one, nan, FALSE));
  g_assert_false (ws_ptx_compare (WS_CMP_NAN, WS_T_F32, one, two, FALSE));
  g_assert_true (ws_ptx_compare (WS_CMP_EQ, WS_T_F32, 0x80000000u, 0, FALSE));
  g_assert_false (ws_ptx_compare (WS_CMP_LT, WS_T_F32, 0x80000000u, 0, FALSE));
  g_assert_true (ws_ptx_compare (WS_CMP_LE, WS_T_F32, two, two, FALSE));
  g_assert_true (ws_ptx_compare (WS_CMP_GT, WS_T_F32, two, one, FALSE));
  /* .ftz: subnormals compare as zero */
  g_assert_false (ws_ptx_compare (WS_CMP_EQ, WS_T_F32, 1, 0, FALSE));
  g_assert_true (ws_ptx_compare (WS_CMP_EQ, WS_T_F32, 1, 0, TRUE));
  g_assert_true (ws_ptx_compare (WS_CMP_GT, WS_T_F32, 1, 0, FALSE));
  /* f64 / f16 */
  g_assert_true (ws_ptx_compare (WS_CMP_LT, WS_T_F64, d2u (1.0), d2u (1.0 + 0x1p-52), FALSE));
  g_assert_false (ws_ptx_compare (WS_CMP_GE, WS_T_F64, d2u (NAN), d2u (1.0), FALSE));
  g_assert_true (ws_ptx_compare (WS_CMP_GT, WS_T_F16, 0x3c01, 0x3c00, FALSE));
  g_assert_true (ws_ptx_compare (WS_CMP_NEU, WS_T_F16, 0x7e00, 0x3c00, FALSE));
  g_assert_true (ws_ptx_compare (WS_CMP_EQ, WS_T_F16, 0x0001, 0x8000, TRUE));
  g_assert_true (ws_ptx_compare (WS_CMP_LT, WS_T_BF16, 0xbf80, 0x3f80, FALSE));
  /* integers: signedness and width */
  g_assert_true (ws_ptx_compare (WS_CMP_LT, WS_T_S32, 0xffffffffu, 0, FALSE));
  g_assert_false (ws_ptx_compare (WS_CMP_LT, WS_T_U32, 0xffffffffu, 0, FALSE));
  g_assert_false (ws_ptx_compare (WS_CMP_LO, WS_T_S32, 0xffffffffu, 0, FALSE));
  g_assert_true (ws_ptx_compare (WS_CMP_HI, WS_T_S32, 0xffffffffu, 0, FALSE));
  g_assert_true (ws_ptx_compare (WS_CMP_HS, WS_T_U32, 7, 7, FALSE));
  g_assert_true (ws_ptx_compare (WS_CMP_LS, WS_T_U64, 7, 8, FALSE));
  g_assert_true (ws_ptx_compare (WS_CMP_LT, WS_T_S8, 0xff, 1, FALSE));
  g_assert_true (ws_ptx_compare (WS_CMP_GT, WS_T_U8, 0xff, 1, FALSE));
  g_assert_true (ws_ptx_compare (WS_CMP_LT, WS_T_S16, 0x8000, 0x7fff, FALSE));
  g_assert_true (ws_ptx_compare (WS_CMP_EQ, WS_T_U16, 0x10005, 0x5, FALSE));
  g_assert_true (ws_ptx_compare (WS_CMP_LT, WS_T_S64, G_GUINT64_CONSTANT (0x8000000000000000), 0, FALSE));
  g_assert_false (ws_ptx_compare (WS_CMP_LT, WS_T_U64, G_GUINT64_CONSTANT (0x8000000000000000), 0, FALSE));
  g_assert_true (ws_ptx_compare (WS_CMP_NE, WS_T_B32, 1, 2, FALSE));
  g_assert_true (ws_ptx_compare (WS_CMP_GE, WS_T_S32, 5, (uint32_t) -5, FALSE));
  g_assert_true (ws_ptx_compare (WS_CMP_LE, WS_T_S32, (uint32_t) -5, (uint32_t) -5, FALSE));
}

/* ---- printf ------------------------------------------------------------------- */

/* Builds a vprintf argument buffer the way nvcc lays it out. */
typedef struct {
  uint8_t buf[512];
  gsize len;
} ArgBuf;

static void
ab_put (ArgBuf *ab, const void *v, gsize size)
{
  ab->len = (ab->len + size - 1) & ~(size - 1);
  g_assert_cmpuint (ab->len + size, <=, sizeof ab->buf);
  memcpy (ab->buf + ab->len, v, size);
  ab->len += size;
}

static void
ab_int (ArgBuf *ab, int32_t v)
{
  ab_put (ab, &v, 4);
}
static void
ab_i64 (ArgBuf *ab, int64_t v)
{
  ab_put (ab, &v, 8);
}
static void
ab_dbl (ArgBuf *ab, double v)
{
  ab_put (ab, &v, 8);
}

static char *
fmt_dev (const char *fmt, const ArgBuf *ab)
{
  GString *s = g_string_new (NULL);
  ws_ptx_format_printf (s, fmt, ab ? ab->buf : NULL, ab ? ab->len : 0, NULL, NULL);
  return g_string_free (s, FALSE);
}

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
#pragma GCC diagnostic ignored "-Wformat"

static void
check_int (const char *fmt, int32_t v)
{
  ArgBuf ab = { { 0 }, 0 };
  char want[512];
  g_autofree char *got = NULL;
  snprintf (want, sizeof want, fmt, v);
  ab_int (&ab, v);
  got = fmt_dev (fmt, &ab);
  g_assert_cmpstr (got, ==, want);
}

static void
check_i64 (const char *fmt, int64_t v)
{
  ArgBuf ab = { { 0 }, 0 };
  char want[512];
  g_autofree char *got = NULL;
  snprintf (want, sizeof want, fmt, v);
  ab_i64 (&ab, v);
  got = fmt_dev (fmt, &ab);
  g_assert_cmpstr (got, ==, want);
}

static void
check_dbl (const char *fmt, double v)
{
  ArgBuf ab = { { 0 }, 0 };
  char want[512];
  g_autofree char *got = NULL;
  snprintf (want, sizeof want, fmt, v);
  ab_dbl (&ab, v);
  got = fmt_dev (fmt, &ab);
  g_assert_cmpstr (got, ==, want);
}

static void
test_printf_battery (void)
{
  static const char *int_fmts[] = {
    "%d",  "%i",  "%u",   "%x",    "%X",       "%o",  "%c",   "%5d", "%-5d|", "%05d", "%+d",   "% d",
    "%#x", "%#o", "%.3d", "%8.3d", "%-+8.3i|", "%hd", "%hhd", "%hu", "%hhx",  "%#X",  "%+05d", "%%%d%%",
  };
  static const int32_t ints[] = { 0, 1, -1, 42, -42, 65, 255, 32767, -32768, 65536 + 7, G_MAXINT32, G_MININT32 };
  static const char *i64_fmts[] = {
    "%ld", "%lld", "%llu", "%llx", "%lX", "%lo", "%zu", "%zd", "%td", "%jd", "%20lld|", "%-20llx|", "%#llo",
  };
  static const int64_t i64s[] = { 0, -1, G_MAXINT64, G_MININT64, G_GINT64_CONSTANT (1234567890123), 4294967296 };
  static const char *dbl_fmts[] = {
    "%f",  "%F",  "%e",    "%E",  "%g",      "%G",    "%a",   "%A",  "%.0f", "%.3f",  "%10.4f|", "%-12.2e|",
    "%+g", "% f", "%#.0f", "%#g", "%012.3f", "%.10g", "%.0e", "%Lf", "%lf",  "%.17g", "%15a",
  };
  static const double dbls[] = {
    0.0, -0.0, 1.0, -1.5, 3.14159265358979, 1e-300,    1e300, 123456789.125,
    0.1, 2.5,  0.5, 1e-5, INFINITY,         -INFINITY, NAN,   0x1p-1074,
  };
  for (guint f = 0; f < G_N_ELEMENTS (int_fmts); f++)
    for (guint i = 0; i < G_N_ELEMENTS (ints); i++)
      check_int (int_fmts[f], ints[i]);
  for (guint f = 0; f < G_N_ELEMENTS (i64_fmts); f++)
    for (guint i = 0; i < G_N_ELEMENTS (i64s); i++)
      check_i64 (i64_fmts[f], i64s[i]);
  for (guint f = 0; f < G_N_ELEMENTS (dbl_fmts); f++)
    for (guint i = 0; i < G_N_ELEMENTS (dbls); i++)
      check_dbl (strcmp (dbl_fmts[f], "%Lf") == 0 ? "%f" : dbl_fmts[f], dbls[i]);
  /* %Lf reads an 8-byte double on the device */
  {
    ArgBuf ab = { { 0 }, 0 };
    g_autofree char *got = NULL;
    ab_dbl (&ab, 2.25);
    got = fmt_dev ("%Lf", &ab);
    g_assert_cmpstr (got, ==, "2.250000");
  }
}

static const char *
read_dev_string (uint64_t addr, gpointer user_data)
{
  const char *const *strings = user_data;
  return addr >= 0x1000 && addr < 0x1003 ? strings[addr - 0x1000] : NULL;
}

static void
test_printf_layout (void)
{
  /* the argument struct of printf("%c %hd %f %lld %s %e %p %*d %zu\n", ...)
   * as nvcc lays it out: offsets 0 4 8 16 24 32 40 48 52 56 */
  static const char *strings[] = { "hello", "", "world" };
  ArgBuf ab = { { 0 }, 0 };
  GString *s = g_string_new (NULL);
  g_autofree char *want = NULL;
  char *got;

  ab_int (&ab, 'A');
  ab_int (&ab, -7);
  ab_dbl (&ab, (double) 1.5f);
  ab_i64 (&ab, -123456789012345);
  ab_i64 (&ab, 0x1000);
  ab_dbl (&ab, 6.02e23);
  ab_i64 (&ab, 0x7f0012345678);
  ab_int (&ab, 6);
  ab_int (&ab, 99);
  ab_i64 (&ab, 17);
  g_assert_cmpuint (ab.len, ==, 64);
  ws_ptx_format_printf (s, "%c %hd %f %lld %s %e %p %*d %zu\n", ab.buf, ab.len, read_dev_string, (gpointer) strings);
  got = g_string_free (s, FALSE);
  want = g_strdup_printf ("%c %hd %f %lld %s %e %p %*d %zu\n", 'A', (short) -7, 1.5, (long long) -123456789012345,
                          "hello", 6.02e23, (void *) (uintptr_t) 0x7f0012345678, 6, 99, (size_t) 17);
  g_assert_cmpstr (got, ==, want);
  g_free (got);

  /* precision and width from arguments, strings with precision, NULL */
  memset (&ab, 0, sizeof ab);
  ab_int (&ab, 8);
  ab_int (&ab, 3);
  ab_dbl (&ab, G_PI);
  ab_int (&ab, 2);
  ab_i64 (&ab, 0x1002);
  ab_i64 (&ab, 0);
  ab_int (&ab, -6);
  ab_i64 (&ab, 0x1000);
  s = g_string_new ("prefix:");
  ws_ptx_format_printf (s, "[%*.*f] [%.*s] [%s] [%*s]", ab.buf, ab.len, read_dev_string, (gpointer) strings);
  got = g_string_free (s, FALSE);
  g_free (want);
  want = g_strdup_printf ("prefix:[%*.*f] [%.*s] [%s] [%*s]", 8, 3, G_PI, 2, "world", (char *) NULL, -6, "hello");
  g_assert_cmpstr (got, ==, want);
  g_free (got);
}

#pragma GCC diagnostic pop

static void
test_printf_literal_cases (void)
{
  ArgBuf ab = { { 0 }, 0 };
  g_autofree char *plain = fmt_dev ("no conversions, 100%% sure\n", NULL);
  g_autofree char *unknown = NULL, *missing = NULL, *trailing = NULL, *mixed = NULL;

  g_assert_cmpstr (plain, ==, "no conversions, 100% sure\n");
  ab_int (&ab, 5);
  unknown = fmt_dev ("a %y b %d", &ab);
  g_assert_cmpstr (unknown, ==, "a %y b 5");
  missing = fmt_dev ("%d and %d and %f", &ab);
  g_assert_cmpstr (missing, ==, "5 and %d and %f");
  trailing = fmt_dev ("end %", &ab);
  g_assert_cmpstr (trailing, ==, "end %");
  memset (&ab, 0, sizeof ab);
  ab_int (&ab, 1);
  ab_dbl (&ab, 2.0);
  ab_int (&ab, 3);
  mixed = fmt_dev ("%d %g %d", &ab);
  g_assert_cmpstr (mixed, ==, "1 2 3");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/ptxmath/cvt/float-to-int-rounding", test_cvt_float_to_int_rounding);
  g_test_add_func ("/ptxmath/cvt/float-to-int-saturation", test_cvt_float_to_int_saturation);
  g_test_add_func ("/ptxmath/cvt/int-to-int-extension-and-sat", test_cvt_int_to_int);
  g_test_add_func ("/ptxmath/cvt/int-to-float-rounding-modes", test_cvt_int_to_float_modes);
  g_test_add_func ("/ptxmath/cvt/int64-to-float-random-vs-host", test_cvt_int_to_float_random_vs_host);
  g_test_add_func ("/ptxmath/cvt/float-to-float", test_cvt_float_to_float);
  g_test_add_func ("/ptxmath/cvt/f32-to-bf16-random", test_cvt_f32_to_bf16_random);
  g_test_add_func ("/ptxmath/cvt/ftz-and-sat", test_cvt_ftz_and_sat);
  g_test_add_func ("/ptxmath/cvt/round-to-integral", test_cvt_round_to_integral);
  g_test_add_func ("/ptxmath/arith/add-rounding-modes", test_add_rounding_modes);
  g_test_add_func ("/ptxmath/arith/mul-rounding-modes", test_mul_rounding_modes);
  g_test_add_func ("/ptxmath/arith/fma-single-rounding", test_fma_single_rounding);
  g_test_add_func ("/ptxmath/arith/div", test_div);
  g_test_add_func ("/ptxmath/arith/f32-directed-random-vs-host", test_f32_directed_random_vs_host);
  g_test_add_func ("/ptxmath/arith/f16-random-vs-host", test_f16_random_vs_host);
  g_test_add_func ("/ptxmath/arith/f64-directed-cases", test_f64_directed_cases);
  g_test_add_func ("/ptxmath/arith/f64-directed-random-vs-host", test_f64_directed_random_vs_host);
  g_test_add_func ("/ptxmath/arith/ftz-and-sat", test_ftz_and_sat);
  g_test_add_func ("/ptxmath/arith/min-max-nan", test_minmax_nan);
  g_test_add_func ("/ptxmath/arith/f16-bf16", test_half_arith);
  g_test_add_func ("/ptxmath/unary/sqrt-rcp-rsqrt-special", test_sqrt_rcp_special);
  g_test_add_func ("/ptxmath/unary/sfu-approx", test_sfu_approx);
  g_test_add_func ("/ptxmath/testp/classes", test_testp);
  g_test_add_func ("/ptxmath/compare/ordered-unordered-int", test_compare);
  g_test_add_func ("/ptxmath/printf/battery-vs-libc", test_printf_battery);
  g_test_add_func ("/ptxmath/printf/argument-layout", test_printf_layout);
  g_test_add_func ("/ptxmath/printf/literal-cases", test_printf_literal_cases);
  return g_test_run ();
}
