/* bounds-test-util.h: building static instructions for the bound tests'
 * hand-made traces. */
#pragma once

#include <string.h>
#include "trace/ws-trace-writer.h"
#include "ptx/ws-ptx.h"

/* One static instruction: @dst and @src are register slots or -1. */
static inline WsTraceStaticInst
bounds_test_inst (WsPtxOp op, WsOpClass cls, uint32_t line, uint8_t space, uint8_t size, int dst, int src)
{
  WsTraceStaticInst i;
  memset (&i, 0, sizeof i);
  i.op = (uint8_t) op;
  i.opclass = (uint8_t) cls;
  i.ptx_line = line;
  i.space = space;
  i.access_size = size;
  i.dst[0] = i.dst[1] = 0xffff;
  for (int k = 0; k < 4; k++)
    i.src[k] = 0xffff;
  if (dst >= 0)
    {
      i.dst[0] = (uint16_t) dst;
      i.n_dst = 1;
    }
  if (src >= 0)
    {
      i.src[0] = (uint16_t) src;
      i.n_src = 1;
    }
  i.is_barrier = op == WS_OP_BAR;
  return i;
}
