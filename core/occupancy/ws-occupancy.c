/* ws-occupancy.c: theoretical occupancy by NVIDIA's rules (compute
 * capability 2.0-9.0), as the CUDA occupancy calculator and
 * cuda_occupancy.h define them.
 *
 * The per-GPU numbers (threads, warps, blocks, registers, shared memory,
 * allocation units, reserved shared memory per block) come from the catalogue
 * record, so an edited or imported GPU is honoured.  What is a property of
 * the compute capability rather than of one chip comes from the tables
 * below: register sub-partitions and the shared-memory carveouts the driver
 * can choose. */
#include "occupancy/ws-occupancy.h"

#include <limits.h>
#include <string.h>

/* The rules' arithmetic is done in 64 bits: block sizes, register and
 * shared-memory counts up to G_MAXINT cannot overflow it. */
static gint64
div_round_up (gint64 x, gint64 y)
{
  return (x + y - 1) / y;
}

static gint64
round_up (gint64 x, gint64 y)
{
  return y * div_round_up (x, y);
}

/* A per-block figure for the report; above G_MAXINT only for launches
 * that cannot run anyway. */
static int
clamp_int (gint64 v)
{
  return (int) MIN (v, (gint64) G_MAXINT);
}

/* Registers are split evenly over the SM's sub-partitions (one per warp
 * scheduler); a warp's registers live in one of them. */
static int
register_sub_partitions (const WsGpu *gpu)
{
  switch (gpu->cc_major)
    {
    case 2: return 1; /* Fermi allocates from one register file per SM */
    case 6: return gpu->cc_minor == 0 ? 2 : 4;
    case 3:
    case 5:
    case 7:
    case 8:
    case 9:
    case 10:
    case 11:
    case 12: return 4;
    default: return gpu->warp_schedulers_per_sm > 0 ? gpu->warp_schedulers_per_sm : 4;
    }
}

/* Shared-memory carveouts (KiB) selectable from Volta on; the driver picks the
 * smallest one that holds what the launch needs when the preferred one
 * (the whole configurable size, by default) is too small. */
static const int carveouts_volta[] = { 0, 8, 16, 32, 64, 96, -1 };
static const int carveouts_turing[] = { 32, 64, -1 };
static const int carveouts_ga100[] = { 0, 8, 16, 32, 64, 100, 132, 164, -1 };
static const int carveouts_ga10x[] = { 0, 8, 16, 32, 64, 100, -1 };
static const int carveouts_hopper[] = { 0, 8, 16, 32, 64, 100, 132, 164, 196, 228, -1 };

static const int *
carveout_table (const WsGpu *gpu)
{
  switch (gpu->cc_major)
    {
    case 7: return gpu->cc_minor == 5 ? carveouts_turing : carveouts_volta;
    case 8: return (gpu->cc_minor == 0 || gpu->cc_minor == 7) ? carveouts_ga100 : carveouts_ga10x;
    case 9:
    case 10:
    case 11: return carveouts_hopper;
    case 12: return carveouts_ga10x;
    default: return NULL;
    }
}

/* Rounds @bytes up to a carveout; -1 when above the largest. */
static int
align_to_carveout (const WsGpu *gpu, int bytes)
{
  const int *table = carveout_table (gpu);
  for (int i = 0; table[i] >= 0; i++)
    if (bytes <= table[i] * 1024)
      return table[i] * 1024;
  return -1;
}

const char *
ws_occupancy_limiter_name (WsOccupancyLimiter l)
{
  switch (l)
    {
    case WS_LIMIT_WARPS: return "warps";
    case WS_LIMIT_BLOCKS: return "blocks";
    case WS_LIMIT_REGISTERS: return "registers";
    case WS_LIMIT_SHARED_MEMORY: return "shared_memory";
    default: return "unknown";
    }
}

static int
limit_by_warps (const WsGpu *gpu, gint64 warps_per_block)
{
  return (int) (gpu->max_warps_per_sm / warps_per_block);
}

static int
limit_by_registers (const WsGpu *gpu, int regs, gint64 warps_per_block, WsOccupancy *out, const char **reason)
{
  gint64 unit = gpu->register_alloc_unit > 0 ? gpu->register_alloc_unit : 256;
  int subparts = register_sub_partitions (gpu);
  gint64 regs_per_warp = round_up ((gint64) regs * gpu->warp_size, unit);
  gint64 regs_per_block = regs_per_warp * warps_per_block;
  /* The hardware places a block's warps round-robin on the sub-partitions, so
   * it must be able to hold a block rounded up to whole sub-partition rows. */
  gint64 regs_assumed = regs_per_warp * round_up (warps_per_block, subparts);
  gint64 max_per_block = gpu->max_registers_per_block > 0 ? gpu->max_registers_per_block : gpu->registers_per_sm;

  out->registers_per_block = clamp_int (regs_per_block);
  if (regs > gpu->max_registers_per_thread)
    {
      *reason = "more registers per thread than the GPU allows";
      return 0;
    }
  if (regs_assumed > max_per_block || regs_per_block > max_per_block)
    {
      *reason = "the block needs more registers than one block may use";
      return 0;
    }
  if (regs_per_warp == 0)
    return INT_MAX;
  gint64 warps_per_subpart = (gpu->registers_per_sm / subparts) / regs_per_warp;
  return (int) ((warps_per_subpart * subparts) / warps_per_block);
}

static int
limit_by_shared (const WsGpu *gpu, int smem, WsOccupancy *out, const char **reason)
{
  gint64 unit = gpu->shared_alloc_unit > 0 ? gpu->shared_alloc_unit : 256;
  gint64 reserved = gpu->shared_reserved_per_block;
  gint64 allocated = round_up ((gint64) smem + reserved, unit);
  /* The per-block limit: the default static limit, or the opt-in limit when a
   * kernel asks for more (cudaFuncSetAttribute), plus the reserved bytes. */
  gint64 per_block_limit = gpu->shared_per_block;
  if (gpu->cc_major >= 7 && smem > gpu->shared_per_block && gpu->shared_per_block_optin > 0)
    per_block_limit = gpu->shared_per_block_optin;
  if (gpu->cc_major >= 8)
    per_block_limit += reserved;

  out->shared_per_block = clamp_int (allocated);
  if (allocated > per_block_limit)
    {
      *reason = "the block needs more shared memory than one block may use";
      return 0;
    }

  int per_sm = gpu->shared_per_sm;
  if (gpu->cc_major >= 7)
    {
      /* Default preference: the whole configurable size, aligned to a carveout. */
      int preferred = align_to_carveout (gpu, gpu->shared_per_sm);
      if (preferred < 0)
        preferred = gpu->shared_per_sm;
      per_sm = preferred;
      if (preferred < allocated)
        {
          /* allocated is at most the per-block limit here, an int */
          per_sm = align_to_carveout (gpu, (int) allocated);
          if (per_sm < 0)
            {
              *reason = "the block needs more shared memory than the SM has";
              return 0;
            }
        }
    }
  out->shared_per_sm = per_sm;
  if (allocated == 0)
    return INT_MAX;
  return (int) (per_sm / allocated);
}

gboolean
ws_occupancy_compute (const WsGpu *gpu, int block_size, int regs_per_thread, int smem_bytes, WsOccupancy *out,
                      GError **error)
{
  g_return_val_if_fail (gpu != NULL && out != NULL, FALSE);

  memset (out, 0, sizeof *out);
  if (block_size <= 0 || regs_per_thread < 0 || smem_bytes < 0)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID,
                   "invalid launch: block size %d, %d registers per thread, %d bytes of shared memory "
                   "(block size must be positive, the others not negative)",
                   block_size, regs_per_thread, smem_bytes);
      return FALSE;
    }
  if (gpu->cc_major < 2 || gpu->cc_major > 12 || (gpu->cc_major >= 7 && carveout_table (gpu) == NULL)
      || gpu->warp_size <= 0 || gpu->max_warps_per_sm <= 0 || gpu->max_blocks_per_sm <= 0 || gpu->registers_per_sm <= 0
      || gpu->shared_per_sm <= 0 || gpu->max_threads_per_block <= 0)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID,
                   "GPU '%s' (compute capability %d.%d) lacks the limits the occupancy rules need "
                   "(warp size, warps/blocks/registers/shared memory per SM, threads per block)",
                   gpu->name ? gpu->name : "?", gpu->cc_major, gpu->cc_minor);
      return FALSE;
    }

  /* More registers per thread than the whole register file, or more
   * shared memory than a whole SM (plus every per-block allowance), is not
   * a launch that merely cannot run: it is a wrong number. */
  if (regs_per_thread > gpu->registers_per_sm)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID,
                   "%d registers per thread is out of range: GPU '%s' has %d registers per SM and allows at most "
                   "%d per thread; give a count between 0 and %d",
                   regs_per_thread, gpu->name ? gpu->name : "?", gpu->registers_per_sm, gpu->max_registers_per_thread,
                   gpu->max_registers_per_thread);
      return FALSE;
    }
  if (block_size > WS_OCCUPANCY_MAX_BLOCK_SIZE)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID,
                   "block size %d is out of range: a block has at most %d threads on GPU '%s' (no GPU allows more "
                   "than %d)",
                   block_size, gpu->max_threads_per_block, gpu->name ? gpu->name : "?", WS_OCCUPANCY_MAX_BLOCK_SIZE);
      return FALSE;
    }

  const char *reason = NULL;
  gint64 warps_per_block = div_round_up (block_size, gpu->warp_size);

  if (block_size > gpu->max_threads_per_block)
    {
      out->limit_warps = 0;
      reason = "the block has more threads than the GPU allows per block";
    }
  else
    out->limit_warps = limit_by_warps (gpu, warps_per_block);
  out->limit_blocks = gpu->max_blocks_per_sm;
  out->limit_registers = limit_by_registers (gpu, regs_per_thread, warps_per_block, out, &reason);
  out->limit_shared = limit_by_shared (gpu, smem_bytes, out, &reason);

  int blocks = MIN (MIN (out->limit_warps, out->limit_blocks), MIN (out->limit_registers, out->limit_shared));
  out->blocks_per_sm = blocks;
  out->warps_per_sm = (int) (blocks * warps_per_block); /* blocks is 0 when a block exceeds an SM */
  out->occupancy = (double) out->warps_per_sm / gpu->max_warps_per_sm;
  out->reason = blocks == 0 ? reason : NULL;

  if (out->limit_warps == blocks)
    out->limiters |= 1u << WS_LIMIT_WARPS;
  if (out->limit_blocks == blocks)
    out->limiters |= 1u << WS_LIMIT_BLOCKS;
  if (out->limit_registers == blocks)
    out->limiters |= 1u << WS_LIMIT_REGISTERS;
  if (out->limit_shared == blocks)
    out->limiters |= 1u << WS_LIMIT_SHARED_MEMORY;

  /* One name for the report: the scarce resource a user can act on first
   * (registers, then shared memory, then the block size, then the block cap). */
  static const WsOccupancyLimiter order[] = { WS_LIMIT_REGISTERS, WS_LIMIT_SHARED_MEMORY, WS_LIMIT_WARPS,
                                              WS_LIMIT_BLOCKS };
  out->limiter = WS_LIMIT_WARPS;
  for (guint i = 0; i < G_N_ELEMENTS (order); i++)
    if (out->limiters & (1u << order[i]))
      {
        out->limiter = order[i];
        break;
      }
  return TRUE;
}
