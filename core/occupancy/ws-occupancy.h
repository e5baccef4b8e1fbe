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
  int blocks_per_sm; /* active blocks per SM (0: the block does not fit) */
  int warps_per_sm;  /* active warps per SM */
  double occupancy;  /* warps_per_sm / max_warps_per_sm */
  WsOccupancyLimiter limiter;
  unsigned limiters; /* bit (1 << WsOccupancyLimiter) for every rule that gives the minimum */
  int limit_warps, limit_blocks, limit_registers, limit_shared; /* blocks allowed by each rule (G_MAXINT: unlimited) */
  int registers_per_block; /* registers allocated per block (allocation granularity applied) */
  int shared_per_block;    /* shared bytes allocated per block (reserved bytes and granularity applied) */
  int shared_per_sm;       /* shared-memory carveout the driver picks for the launch */
  const char *reason;      /* when blocks_per_sm == 0: why the block cannot run (static string), else NULL */
} WsOccupancy;

/* Block sizes above this are out of range for every GPU (the hardware
 * limit is 1024; the catalogue allows records up to 8192). */
#define WS_OCCUPANCY_MAX_BLOCK_SIZE 65536

/* @smem_bytes: static + dynamic shared memory per block.  A launch that can
 * never run (block above the thread limit, too many registers per thread,
 * shared memory above the per-block limit) gives blocks_per_sm = 0 with
 * @reason set, as NVIDIA's calculator does.  Returns FALSE with
 * WS_ERROR_INVALID only for meaningless input (non-positive block size or
 * one above WS_OCCUPANCY_MAX_BLOCK_SIZE, negative registers or more than
 * the GPU's registers per SM, negative shared memory, a GPU record without
 * the needed limits or with an unknown compute capability).  Any int input
 * is computed without overflow; registers_per_block and shared_per_block
 * are clamped to G_MAXINT for blocks that cannot run. */
WS_EXPORT gboolean ws_occupancy_compute (const WsGpu *gpu, int block_size, int regs_per_thread, int smem_bytes,
                                         WsOccupancy *out, GError **error);
WS_EXPORT const char *
ws_occupancy_limiter_name (WsOccupancyLimiter l); /* "warps", "blocks", "registers", "shared_memory" */

G_END_DECLS
