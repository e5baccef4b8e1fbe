/* ws-emu-wmma.c: wmma.mma, the warp-level matrix multiply-accumulate.
 *
 * The PTX ISA leaves the distribution of fragment elements over the lanes
 * unspecified ("Warp Level Matrix Multiply-Accumulate Instructions"), so
 * the emulator uses its own (ws_emu_wmma_element, ws-emu-private.h): the
 * same for wmma.load, wmma.store (ws-emu-exec.c) and wmma.mma here, which
 * gathers A, B and C from the 32 lanes, computes D = A * B + C in the
 * accumulator's precision and scatters D to the lanes that execute it. */
#include "emu/ws-emu-private.h"
#include "ptxmath/ws-ptxmath.h"

#include <math.h>
#include <string.h>

/* Largest tile: 32 x 16 (A of m32n8k16) or 16 x 32 (B of m8n32k16). */
#define WMMA_MAX_ELEMS 512

static inline float
bits_f32 (uint32_t u)
{
  float f;
  memcpy (&f, &u, 4);
  return f;
}

static inline double
bits_f64 (uint64_t u)
{
  double d;
  memcpy (&d, &u, 8);
  return d;
}

static inline float
half_to_float (uint32_t h)
{
  uint32_t sign = (h & 0x8000u) << 16, exp = (h >> 10) & 0x1fu, man = h & 0x3ffu;
  if (exp == 0x1f)
    return bits_f32 (sign | 0x7f800000u | (man << 13));
  if (exp == 0)
    return sign ? -ldexpf ((float) man, -24) : ldexpf ((float) man, -24);
  return bits_f32 (sign | ((exp + 112) << 23) | (man << 13));
}

/* The value of an element's bits as a double (exact for every type).  A
 * .tf32 operand is a 32-bit float whose 13 low mantissa bits the tensor
 * core ignores. */
static inline double
elem_value (WsPtxWmmaElem e, uint64_t v)
{
  switch (e)
    {
    case WS_WMMA_ELEM_F16: return half_to_float ((uint32_t) v);
    case WS_WMMA_ELEM_BF16: return bits_f32 ((uint32_t) v << 16);
    case WS_WMMA_ELEM_TF32: return bits_f32 ((uint32_t) v & 0xffffe000u);
    case WS_WMMA_ELEM_F32: return bits_f32 ((uint32_t) v);
    case WS_WMMA_ELEM_F64: return bits_f64 (v);
    default: return 0.0;
    }
}

static inline int64_t
elem_int (WsPtxWmmaElem e, uint64_t v)
{
  switch (e)
    {
    case WS_WMMA_ELEM_S8: return (int8_t) v;
    case WS_WMMA_ELEM_U8: return (uint8_t) v;
    default: return (int32_t) v; /* s32 */
    }
}

/* The fragment's elements (bits) in tile order (row * cols + col), read
 * from the first copy: slot s of lane l holds element l * slots + s. */
static void
gather (const WsPtxWmmaFragment *f, gboolean col_order, const uint64_t *const bases[3], const uint32_t *rows,
        uint64_t *out)
{
  const uint64_t *reg[WS_PTX_MAX_VEC];
  uint32_t slots = (uint32_t) f->regs * f->per_reg, n = (uint32_t) f->rows * f->cols;
  uint32_t bits = f->elem_bytes * 8u;
  uint64_t emask = bits >= 64 ? ~UINT64_C (0) : (UINT64_C (1) << bits) - 1;
  for (uint32_t r = 0; r < f->regs; r++)
    reg[r] = bases[rows[r] >> WS_SRC_SHIFT] + (size_t) (rows[r] & 0x0fffffffu) * WS_EMU_WARP;
  for (uint32_t e = 0; e < n; e++)
    {
      uint32_t lane = e / slots, s = e % slots, row, col;
      uint64_t v = reg[s / f->per_reg][lane] >> ((s % f->per_reg) * bits) & emask;
      ws_emu_wmma_position (f, col_order, e, &row, &col);
      out[row * f->cols + col] = v;
    }
}

void
ws_emu_wmma_mma (uint32_t desc, uint32_t mods, const uint64_t *const bases[3], const uint32_t *rows, uint64_t *regs,
                 uint32_t mask)
{
  WsPtxWmmaFragment fa, fb, fc, fd;
  uint64_t a[WMMA_MAX_ELEMS], b[WMMA_MAX_ELEMS], cm[WMMA_MAX_ELEMS], d[WMMA_MAX_ELEMS];
  ws_ptx_wmma_fragment (desc, WS_WMMA_A, &fa);
  ws_ptx_wmma_fragment (desc, WS_WMMA_B, &fb);
  ws_ptx_wmma_fragment (desc, WS_WMMA_C, &fc);
  ws_ptx_wmma_fragment (desc, WS_WMMA_D, &fd);
  const uint32_t *rd = rows, *ra = rd + fd.regs, *rb = ra + fa.regs, *rc = rb + fb.regs;
  uint32_t M = fa.rows, K = fa.cols, N = fb.cols;
  WsPtxWmmaElem ea = (WsPtxWmmaElem) fa.elem, eb = (WsPtxWmmaElem) fb.elem;
  WsPtxWmmaElem ec = (WsPtxWmmaElem) fc.elem, ed = (WsPtxWmmaElem) fd.elem;

  gather (&fa, WS_PTX_WMMA_COL_MAJOR (desc, WS_WMMA_A), bases, ra, a);
  gather (&fb, WS_PTX_WMMA_COL_MAJOR (desc, WS_WMMA_B), bases, rb, b);
  gather (&fc, FALSE, bases, rc, cm);

  if (ea == WS_WMMA_ELEM_S8 || ea == WS_WMMA_ELEM_U8)
    {
      /* s32 accumulate: wraps modulo 2^32, or clamps with .satfinite */
      int32_t ai[WMMA_MAX_ELEMS], bi[WMMA_MAX_ELEMS];
      for (uint32_t i = 0; i < M * K; i++)
        ai[i] = (int32_t) elem_int (ea, a[i]);
      for (uint32_t i = 0; i < K * N; i++)
        bi[i] = (int32_t) elem_int (eb, b[i]);
      for (uint32_t i = 0; i < M; i++)
        for (uint32_t j = 0; j < N; j++)
          {
            int64_t acc = elem_int (ec, cm[i * N + j]);
            for (uint32_t k = 0; k < K; k++)
              acc += (int64_t) ai[i * K + k] * bi[k * N + j];
            if (mods & WS_MOD_SATFINITE)
              acc = CLAMP (acc, (int64_t) G_MININT32, (int64_t) G_MAXINT32);
            d[i * N + j] = (uint32_t) acc;
          }
    }
  else if (ea == WS_WMMA_ELEM_F64)
    {
      /* dmma: one fused multiply-add per k, rounded to nearest (.rn) */
      for (uint32_t i = 0; i < M; i++)
        for (uint32_t j = 0; j < N; j++)
          {
            double acc = bits_f64 (cm[i * N + j]);
            for (uint32_t k = 0; k < K; k++)
              acc = fma (bits_f64 (a[i * K + k]), bits_f64 (b[k * N + j]), acc);
            memcpy (&d[i * N + j], &acc, 8);
          }
    }
  else
    {
      /* f16 / bf16 / tf32 products are exact in double; the K products
       * and C are summed in double and rounded once to the accumulator's
       * type (the tensor core adds them at least this precisely). */
      double av[WMMA_MAX_ELEMS], bv[WMMA_MAX_ELEMS];
      for (uint32_t i = 0; i < M * K; i++)
        av[i] = elem_value (ea, a[i]);
      for (uint32_t i = 0; i < K * N; i++)
        bv[i] = elem_value (eb, b[i]);
      for (uint32_t i = 0; i < M; i++)
        for (uint32_t j = 0; j < N; j++)
          {
            double acc = elem_value (ec, cm[i * N + j]);
            for (uint32_t k = 0; k < K; k++)
              acc += av[i * K + k] * bv[k * N + j];
            if (ed == WS_WMMA_ELEM_F16)
              {
                uint64_t bits;
                memcpy (&bits, &acc, 8);
                d[i * N + j] = ws_ptx_cvt (bits, WS_T_F64, WS_T_F16, WS_RND_RN, FALSE, FALSE) & 0xffffu;
              }
            else
              {
                float r = (float) acc;
                uint32_t u;
                memcpy (&u, &r, 4);
                d[i * N + j] = u;
              }
          }
    }

  /* scatter D: every slot of every executing lane */
  uint32_t slots = (uint32_t) fd.regs * fd.per_reg, bits = fd.elem_bytes * 8u;
  for (uint32_t l = 0; l < WS_EMU_WARP; l++)
    {
      if (!(mask >> l & 1))
        continue;
      uint64_t packed[WS_PTX_MAX_VEC] = { 0 };
      for (uint32_t s = 0; s < slots; s++)
        {
          uint32_t row, col;
          ws_emu_wmma_position (&fd, FALSE, ws_emu_wmma_element (&fd, l, s), &row, &col);
          packed[s / fd.per_reg] |= d[row * N + col] << ((s % fd.per_reg) * bits);
        }
      for (uint32_t r = 0; r < fd.regs; r++)
        regs[(size_t) rd[r] * WS_EMU_WARP + l] = ed == WS_WMMA_ELEM_S32 ? (uint64_t) (int64_t) (int32_t) packed[r]
                                                                        : packed[r];
    }
}
