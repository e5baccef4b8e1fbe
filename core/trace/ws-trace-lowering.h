/* ws-trace-lowering.h: what the recorded PTX instructions become in machine
 * code.
 *
 * The trace records PTX, but the GPU runs what ptxas makes of it.  Two
 * published rules change how many instructions issue, and every consumer
 * (bounds, interval analysis, predictor host, simulator) takes them from
 * here so that they all count the same instructions:
 *
 *  1. FMA contraction.  PTX ISA (8.x), "Floating Point Instructions: add /
 *     sub / mul", rounding modifiers: an instruction "with no rounding
 *     modifier defaults to round-to-nearest-even and may be optimized
 *     aggressively by the code optimizer.  In particular, mul/add sequences
 *     with no rounding modifiers may be optimized to use fused-multiply-add
 *     instructions on the target device", while one with an explicit
 *     rounding modifier is treated conservatively; nvcc contracts by default
 *     (CUDA Compiler Driver NVCC, "--fmad": contraction of floating-point
 *     multiplies and adds/subtracts into FFMA/DFMA, default true).  A mul.f32 /
 *     mul.f64 without rounding modifier or .sat is ABSORBED when its result
 *     register is read by exactly one instruction of its function: a later
 *     add/sub of the same type and .ftz, also without rounding modifier or
 *     .sat, in the same basic block, under the same guard, reading it once,
 *     with no write to the mul's sources, result or guard in between (so the
 *     value is dead after the add and the add can read the mul's operands).
 *     That add/sub becomes one FMA.  Conservative on purpose: ptxas may fuse
 *     more (across blocks, or a mul read twice, duplicated).
 *  2. Kernel parameters.  "__global__ function parameters are passed to the
 *     device via constant memory" (CUDA C++ Programming Guide, "Function
 *     Parameters"); ptxas -v reports them as cmem[0] and SASS reads them as
 *     constant-bank operands c[0x0][offset] of the instructions that use
 *     them (CUDA Binary Utilities, SASS listings).  ld.param of a kernel
 *     parameter at a symbol + constant offset is ABSORBED (its value is an
 *     operand).  Left out on purpose: where ptxas copies a parameter into a
 *     register once (e.g. ULDC into a uniform register on sm_75 and later),
 *     at most one instruction per parameter and warp.
 *
 * An absorbed instruction issues nothing and occupies no pipe: its result is
 * available as soon as its sources are, and no instruction but its consumer
 * reads it.  Computed once per kernel when a trace is opened
 * (WsTraceKernel.lowering / .machine); a kernel whose PTX text is missing or
 * does not match the recorded instructions keeps every instruction, and so
 * does every kernel when the environment sets WARPSCOPE_PTX_ISSUE=1 (to
 * measure what the lowering changes). */
#pragma once

#include "base/ws-base.h"
#include "trace/ws-trace-writer.h"
#include "ptx/ws-ptx.h"

G_BEGIN_DECLS

typedef enum {
  WS_TRACE_LOWERING_ISSUE = 0,          /* one machine instruction, as recorded */
  WS_TRACE_LOWERING_FMA = 1,            /* an add/sub that absorbed a mul: one fused multiply-add */
  WS_TRACE_LOWERING_ABSORBED_MUL = 2,   /* a mul folded into the FMA that consumes it */
  WS_TRACE_LOWERING_ABSORBED_PARAM = 3, /* ld.param of a kernel parameter: a constant-bank operand */
} WsTraceLowering;

/* TRUE when an instruction with lowering @l issues a machine instruction. */
static inline gboolean
ws_trace_lowering_issues (uint8_t l)
{
  return l < WS_TRACE_LOWERING_ABSORBED_MUL;
}

WS_EXPORT const char *ws_trace_lowering_name (WsTraceLowering l);

/* The lowering of kernel @kernel_name's @n_insts recorded static
 * instructions @insts (static ids as the emulator assigns them: the kernel's
 * instructions in order, then those of the functions it calls in module
 * order), from @module, the parsed PTX of its module (may be NULL).  Fills
 * @lowering[n_insts] (WsTraceLowering) and @machine[n_insts]: @insts as
 * issued, i.e. an absorbed instruction with no sources and no destinations
 * and an FMA (op WS_OP_FMA) reading the add's other sources and the
 * absorbed mul's sources instead of the mul's result.  Where the module does
 * not match the instructions (no such kernel, other lines or opcodes),
 * every instruction is ISSUE and @machine is a copy of @insts.  Returns the
 * number of absorbed instructions. */
WS_EXPORT guint ws_trace_lowering_compute (const WsPtxModule *module, const char *kernel_name,
                                           const WsTraceStaticInst *insts, guint n_insts,
                                           uint8_t *lowering, WsTraceStaticInst *machine);

G_END_DECLS
