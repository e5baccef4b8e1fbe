/* ws-occupancy.h: NVIDIA's occupancy rules, compute capability 2.0-9.0. */
#pragma once

#include "hw/ws-hw.h"

G_BEGIN_DECLS

typedef enum {
  WS_LIMIT_WARPS,
  WS_LIMIT_BLOCKS,
  WS_LIMIT_REGISTERS,
  WS_LIMIT_SHARED_MEMORY,
} WsOccupancyLimiter;

typedef struct {
  int blocks_per_sm;        /* active blocks per SM (0: the block does not fit) */
  int warps_per_sm;         /* active warps per SM */
  double occupancy;         /* warps_per_sm / max_warps_per_sm */
  WsOccupancyLimiter limiter;
  int limit_warps, limit_blocks, limit_registers, limit_shared; /* blocks allowed by each rule */
} WsOccupancy;

/* @smem_bytes: static + dynamic shared memory per block.  Returns FALSE with
 * WS_ERROR_INVALID when the launch cannot run at all (block too large, too many
 * registers per thread, shared memory above the per-block limit). */
WS_EXPORT gboolean ws_occupancy_compute (const WsGpu *gpu, int block_size, int regs_per_thread,
                                         int smem_bytes, WsOccupancy *out, GError **error);
WS_EXPORT const char *ws_occupancy_limiter_name (WsOccupancyLimiter l); /* "warps", "blocks", "registers", "shared_memory" */

G_END_DECLS
