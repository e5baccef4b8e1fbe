/* ws-emu-instrument.h: the emulator's instrumentation hooks (private to
 * core/emu; they call core/instrument through ws-instrument.h).  The emulator calls these only when a
 * WsInstrument is attached (WsEmuOptions.instrument), each behind one
 * G_UNLIKELY pointer test, so the uninstrumented interpreter is unchanged. */
#pragma once

#include "emu/ws-emu-exec.h"
#include "instrument/ws-instrument.h"

typedef struct _WsEmuInstrCta WsEmuInstrCta;

struct _WsEmuInstrCta {
  WsInstrCtaRun *cr;
  WsInstrRun *run;
  guint where, after; /* union of the handlers' before / after masks */
  const uint8_t *flags;
  const WsTraceStaticInst *insts;
  WsInstrSite site; /* scratch, reused per instruction */
  uint64_t addr[WS_EMU_WARP];
  uint32_t src_reg[8], dst_reg[4], dst_bits[4];
  const uint64_t *src[8];
  uint64_t *dst[4];
  uint32_t *pdst[2];
  /* the instruction whose after-callback is due: called before the warp's
   * next instruction, when its results are in the registers and before
   * any frame change */
  gboolean pending;
  Warp *pw;
  const EInst *pin;
  uint32_t pid, pactive, pm;
};

/* ws_emu_launch: after the launch is set up / before it reports. */
void ws_emu_instr_launch_begin (Launch *L);
void ws_emu_instr_launch_end (Launch *L, gboolean ok);
/* worker_main: around ws_emu_run_cta. */
void ws_emu_instr_cta_begin (Cta *c);
void ws_emu_instr_cta_end (Cta *c);
/* run_warp: before executing @in (after the guard is evaluated); first
 * delivers the after-callback of the warp's previous instruction.  Returns
 * the will-execute mask, re-evaluated when that callback changed the
 * guard predicate (fault injection). */
uint32_t ws_emu_instr_before (Cta *c, Warp *w, const EInst *in, uint32_t pc, uint32_t active, uint32_t m);
/* Delivers a pending after-callback (also called at the end of a CTA). */
void ws_emu_instr_flush (Cta *c);
