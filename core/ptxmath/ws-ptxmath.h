/* ws-ptxmath.h: PTX arithmetic semantics on scalar values.
 *
 * CONTRACT between core/ptxmath (owner) and the emulator.  Every function
 * implements one PTX instruction's numeric behaviour exactly as the PTX ISA
 * (and the hardware) defines it: rounding modes, .ftz, .sat, NaN rules,
 * saturating float->int conversion, approximate functions with hardware-like
 * results, f16/bf16 conversions.  Values travel as raw bits (uint64_t) with a
 * WsPtxType so the emulator can call one function for every type. */
#pragma once

#include "base/ws-base.h"
#include "ptx/ws-ptx.h"

G_BEGIN_DECLS

/* cvt: converts @bits of type @from to type @to with rounding @rnd
 * (WsPtxRounding), saturation (.sat) and flush-to-zero (.ftz). Includes
 * int<->int (sign/zero extension, truncation, .sat clamping), int<->float,
 * float<->float (f16, bf16, f32, f64), float->int (NaN -> 0, clamped). */
WS_EXPORT uint64_t ws_ptx_cvt (uint64_t bits, WsPtxType from, WsPtxType to, int rnd, gboolean sat, gboolean ftz);

/* cvt with the full modifier set: @mods may hold WS_MOD_SAT, WS_MOD_FTZ and
 * WS_MOD_RELU (f16/bf16 destinations: negative -> +0, NaN -> canonical NaN).
 * Integer results come back extended to 64 bits by the destination type's
 * signedness (cvt.s8.s32 into a wider register holds the sign-extended
 * byte).  x2 types are converted one half at a time by the caller:
 * cvt.rn.f16x2.f32 d, a, b puts cvt(a) in the upper half, cvt(b) in the lower. */
WS_EXPORT uint64_t ws_ptx_cvt_mods (uint64_t bits, WsPtxType from, WsPtxType to, int rnd, uint32_t mods);

/* Binary/ternary float ops for f32/f64 (and f16/bf16 where PTX allows):
 * op is one of WS_OP_ADD, SUB, MUL, DIV, FMA, MAD, MIN, MAX, COPYSIGN; @c is
 * used by FMA/MAD only.  Honors @rnd (RN default), @mods (FTZ, SAT, APPROX,
 * FULL, NAN, XORSIGN, ABS). */
WS_EXPORT uint64_t ws_ptx_float_op (int op, WsPtxType type, uint64_t a, uint64_t b, uint64_t c, int rnd, uint32_t mods);

/* Unary float ops: WS_OP_ABS, NEG, SQRT, RSQRT, RCP, SIN, COS, EX2, LG2, TANH. */
WS_EXPORT uint64_t ws_ptx_float_unary (int op, WsPtxType type, uint64_t a, int rnd, uint32_t mods);

/* testp.<sub> on f32/f64. */
WS_EXPORT gboolean ws_ptx_testp (int sub, WsPtxType type, uint64_t a);

/* Comparison for setp/set/slct with float or integer types (WsPtxCmp). */
WS_EXPORT gboolean ws_ptx_compare (int cmp, WsPtxType type, uint64_t a, uint64_t b, gboolean ftz);

/* Device-side printf: formats @fmt with the argument buffer laid out as
 * vprintf's (each argument aligned to its size, 8 bytes for double and
 * pointers, 4 for int; %s arguments are device addresses resolved through
 * @read_string).  Appends to @out. */
typedef const char *(*WsReadString) (uint64_t dev_addr, gpointer user_data);
WS_EXPORT void ws_ptx_format_printf (GString *out, const char *fmt, const uint8_t *args, gsize args_len,
                                     WsReadString read_string, gpointer user_data);

G_END_DECLS
