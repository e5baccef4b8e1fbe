/* trace-ptx-test-util.h: recorded static instructions made from parsed PTX,
 * for tests that need a trace whose PTX text matches its instructions. */
#pragma once

#include "trace/ws-trace-writer.h"
#include "ptx/ws-ptx.h"

/* The static instructions as the emulator records them (core/emu
 * fill_static: register operands, address bases and vector elements). */
static inline WsTraceStaticInst *
trace_test_static_insts (const WsPtxFunction *fn)
{
  WsTraceStaticInst *insts = g_new0 (WsTraceStaticInst, fn->n_insts);
  for (guint i = 0; i < fn->n_insts; i++)
    {
      const WsPtxInst *pi = &fn->insts[i];
      WsTraceStaticInst *s = &insts[i];
      s->ptx_line = pi->line;
      s->op = (uint8_t) pi->op;
      s->opclass = pi->opclass;
      s->space = pi->space;
      if (pi->op == WS_OP_LD || pi->op == WS_OP_ST || pi->op == WS_OP_ATOM || pi->op == WS_OP_RED)
        s->access_size = (uint8_t) (ws_ptx_type_size ((WsPtxType) pi->type) * (pi->vec ? pi->vec : 1));
      s->is_conditional_branch = pi->op == WS_OP_BRA && pi->guard != WS_REG_SINK;
      s->is_barrier = pi->op == WS_OP_BAR || pi->op == WS_OP_BARRIER;
      s->dst[0] = s->dst[1] = 0xffff;
      for (int k = 0; k < 4; k++)
        s->src[k] = 0xffff;
      for (int k = 0; k < pi->ndst; k++)
        if (pi->dst[k].kind == WS_OPND_REG && s->n_dst < 2)
          s->dst[s->n_dst++] = (uint16_t) pi->dst[k].reg;
      for (int k = 0; k < pi->nsrc; k++)
        if ((pi->src[k].kind == WS_OPND_REG || (pi->src[k].kind == WS_OPND_ADDR && pi->src[k].comp == WS_OPND_REG))
            && s->n_src < 4)
          s->src[s->n_src++] = (uint16_t) pi->src[k].reg;
    }
  return insts;
}
