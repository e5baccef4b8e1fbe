/* ws-instrument-private.h: the built-in tools (one file each). */
#pragma once

#include "instrument/ws-instrument.h"
#include "ptx/ws-ptx.h"

void ws_instr_add_branch (WsInstrument *ins);          /* ws-instr-branch.c (seed 003 §5) */
void ws_instr_add_memdiv (WsInstrument *ins);          /* ws-instr-memdiv.c (§6) */
void ws_instr_add_value (WsInstrument *ins);           /* ws-instr-value.c (§7) */
void ws_instr_add_faults_profile (WsInstrument *ins);  /* ws-instr-faults.c (§8) */

/* Per-kernel accumulation shared by the tools: results are keyed by kernel
 * name and static id, merged from CTAs under the tool's lock. */
static inline double
ws_instr_percent (double num, double den)
{
  return den > 0 ? 100.0 * num / den : 0.0;
}
