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
 *  3. Loads issued early.  The machine code issues a basic block's loads as
 *     early as their operands allow and the arithmetic that consumes them
 *     later, so that the loads' latencies overlap: list scheduling for
 *     instruction-level parallelism, the mechanism V. Volkov's "Better
 *     Performance at Lower Occupancy" (GTC 2010) measures, independent
 *     loads of one thread in flight together.  In PTX an unrolled
 *     `sum += b[k]` reads load, add, load, add, ...; issued in that order
 *     each add would stall the next load.  Within each basic block a load (ld, ldu) moves ahead of
 *     the arithmetic before it (ALU, FP, SFU, warp-level instructions) that
 *     it does not depend on: no register or predicate it reads is written
 *     there, none it writes is read or written there; the arithmetic that
 *     computes a later load's address or guard moves with the loads.  Stores, atomics,
 *     barriers, fences and control transfers keep their place, and every
 *     instruction before them too, so memory order is untouched.  The
 *     registers bound the distance: the values of the loads issued since the
 *     arithmetic last caught up must fit in the kernel's registers per thread
 *     (ptxas -v, which is the allocation of the schedule ptxas chose) less
 *     those live at the block's entry (PTX registers, 32-bit units); before
 *     a load that does not fit, the oldest waiting arithmetic issues until
 *     it does (each instruction that reads a loaded value frees it), which
 *     software-pipelines an unrolled loop: loads run ahead of their
 *     consumers by what the registers hold.  Conservative:
 *     ptxas also moves loads across blocks and interleaves the arithmetic.
 *     Per static instruction, @schedule holds WS_TRACE_SCHEDULE_* flags that
 *     the trace's warp iterator follows, so every consumer sees the records
 *     in this order (ws-trace.h).
 *
 * An absorbed instruction issues nothing and occupies no pipe: its result is
 * available as soon as its sources are, and no instruction but its consumer
 * reads it.  Computed once per kernel when a trace is opened
 * (WsTraceKernel.lowering / .machine); a kernel whose PTX text is missing or
 * does not match the recorded instructions keeps every instruction, and so
 * does every kernel when the environment sets WARPSCOPE_PTX_ISSUE=1 (to
 * measure what the lowering changes); WARPSCOPE_PTX_ORDER=1 keeps rules 1
 * and 2 but the recorded order (rule 3 off). */
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

/* Rule 3 per static instruction: bit 0 WS_TRACE_SCHEDULE_DELAY (arithmetic
 * that waits behind the block's later loads), bits 1-7 how many of the
 * oldest waiting instructions issue before this one
 * (WS_TRACE_SCHEDULE_DRAIN_ALL: every one). */
enum {
  WS_TRACE_SCHEDULE_DELAY = 1,
  WS_TRACE_SCHEDULE_DRAIN_SHIFT = 1,
  WS_TRACE_SCHEDULE_DRAIN_ALL = 127,
};

static inline guint
ws_trace_schedule_drain (uint8_t flags)
{
  return flags >> WS_TRACE_SCHEDULE_DRAIN_SHIFT;
}

/* At most this many instructions wait at a time (a longer run of
 * arithmetic issues in order from there). */
#define WS_TRACE_SCHEDULE_QUEUE 64
/* Registers per thread assumed when a kernel's count is unknown (the
 * architectural limit since sm_35). */
#define WS_TRACE_SCHEDULE_MAX_REGS 255

/* TRUE when an instruction with lowering @l issues a machine instruction. */
static inline gboolean
ws_trace_lowering_issues (uint8_t l)
{
  return l < WS_TRACE_LOWERING_ABSORBED_MUL;
}

WS_EXPORT const char *ws_trace_lowering_name (WsTraceLowering l);

/* The lowering of kernel @kernel_name (@regs_per_thread registers per
 * thread, 0 if unknown) and its @n_insts recorded static
 * instructions @insts (static ids as the emulator assigns them: the kernel's
 * instructions in order, then those of the functions it calls in module
 * order), from @module, the parsed PTX of its module (may be NULL).  Fills
 * @lowering[n_insts] (WsTraceLowering) and @machine[n_insts]: @insts as
 * issued, i.e. an absorbed instruction with no sources and no destinations
 * and an FMA (op WS_OP_FMA) reading the add's other sources and the
 * absorbed mul's sources instead of the mul's result.  Where the module does
 * not match the instructions (no such kernel, other lines or opcodes),
 * every instruction is ISSUE and @machine is a copy of @insts.  When
 * @schedule is not NULL, fills @schedule[n_insts] with rule 3's flags (all 0
 * when no load moves) and *@n_hoisted (may be NULL) with the number of static
 * loads that issue ahead of an earlier instruction.  Returns the number of
 * absorbed instructions. */
WS_EXPORT guint ws_trace_lowering_compute (const WsPtxModule *module, const char *kernel_name,
                                           const WsTraceStaticInst *insts, guint n_insts, uint32_t regs_per_thread,
                                           uint8_t *lowering, WsTraceStaticInst *machine, uint8_t *schedule,
                                           guint *n_hoisted);

G_END_DECLS
