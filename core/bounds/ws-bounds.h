/* ws-bounds.h: physical lower bounds of a kernel launch's time on a GPU.
 *
 * No model or simulator may beat the GPU's issue rate, arithmetic peak or
 * memory bandwidth.  This module gives, for one launch of a trace on one
 * catalogue GPU, the smallest time the real hardware could take, as the
 * largest of several throughput terms (issue, one warp's issue, FP32, FP64,
 * SFU, tensor, shared-memory wavefronts, L1, L2 and DRAM bandwidth).
 *
 * Every term is a TRUE lower bound of the hardware's time: the trace is PTX
 * and the GPU runs SASS, so only work that must survive compilation by ptxas
 * is counted, and wherever something must be approximated it is
 * approximated in the direction that keeps the bound lower.  docs/bounds.md
 * gives each term, why it is a lower bound and its sources.
 *
 * Two steps: ws_launch_counts_compute walks the launch's warp streams once
 * (hardware independent); ws_launch_bound_from_counts turns the counts into
 * cycles for one GPU (cheap), so bounds for many GPUs walk the trace once. */
#pragma once

#include "base/ws-base.h"
#include "hw/ws-hw.h"
#include "trace/ws-trace.h"
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/* What one walk of a launch found: counts of work that certainly reaches
 * the hardware (hardware independent). */
typedef struct {
  guint launch;
  uint64_t n_tbs; /* thread blocks of the launch (recorded or not) */
  uint64_t warps; /* warps with at least one record */
  /* Warp instructions that certainly issue as machine instructions. */
  uint64_t warp_insts_issued_min; /* sum over every warp */
  uint64_t tb_warp_insts_max;     /* the largest block's sum */
  uint64_t warp_warp_insts_max;   /* the largest warp's count */
  /* Not a bound: warp instructions the trace's lowering issues (records
   * less the absorbed ones, ws-trace-lowering.h), the count the simulator
   * and the models work with; never below warp_insts_issued_min. */
  uint64_t warp_insts_lowered;
  /* Thread-level operations per pipe (an FMA is one op; a mul that may fuse
   * with an add is not counted separately). */
  uint64_t fp32_thread_ops_min;
  uint64_t fp64_thread_ops_min;
  uint64_t sfu_thread_ops_min;
  uint64_t tensor_thread_ops_min; /* 0: the recorded PTX subset has no mma/wmma */
  /* ptxas may merge neighbouring accesses of a thread into one access of
   * up to 16 bytes (LDS.128, LDG.128) where their addresses allow it, and
   * may remove a repeated load: the per-access figures below are summed
   * with weight s / M for an s-byte access that may be part of an M-byte
   * merged one, 0 for a removable one, else 1 (docs/bounds.md). */
  /* Shared memory: warp accesses and wavefronts (bank-conflict degree
   * summed over the accesses), with 4-byte banks and with 8-byte banks. */
  uint64_t shared_accesses;
  double shared_wavefronts_min;      /* 32 banks x 4 bytes */
  double shared_wavefronts_8b_min;   /* 32 banks x 8 bytes (Kepler's 8-byte mode) */
  double shared_data_wavefronts_min; /* Volta and later: also at least active lanes x size / 128 per access */
  double tb_shared_wavefronts_max;   /* the largest block's sums of the three */
  double tb_shared_wavefronts_8b_max;
  double tb_shared_data_wavefronts_max;
  /* Global memory, in 32-byte sectors coalesced per warp instruction. */
  double l1_load_sectors; /* global loads */
  double l1_load_bytes;   /* distinct bytes each global load touches, summed */
  /* L1 wavefronts of global loads (Volta and later): per access the most
   * distinct 4-byte words in one of 32 banks, at least active lanes x size
   * / 128 (the data path returns 128 bytes a cycle) and at least its
   * 128-byte lines / 4, rounded up (the tag stage looks up 4 a cycle). */
  double l1_wavefronts_min;
  double tb_l1_wavefronts_max;       /* the largest block's sum */
  double store_sectors;              /* global stores and atomics (write-through to L2) */
  uint64_t unique_load_sectors;      /* distinct sectors loaded */
  uint64_t unique_load_only_sectors; /* distinct sectors loaded and never stored nor atomically updated */
  uint64_t unique_store_sectors;     /* distinct sectors stored or atomically updated */
  gboolean unique_truncated;         /* the distinct-sector set hit its memory cap: the unique
                                      * counts are lower than the truth (the bound stays valid) */
} WsLaunchCounts;

/* Walks every TB's warp streams of launch @launch once. */
WS_EXPORT gboolean ws_launch_counts_compute (WsTrace *trace, guint launch, WsLaunchCounts *out, GError **error);

typedef struct {
  double cycles;       /* the launch's lower time bound in core cycles = max of the terms below */
  double seconds;      /* cycles / core clock */
  const char *limiter; /* name of the largest term: "issue", "warp-issue", "fp32", "fp64", "sfu",
                               * "tensor", "shared", "l1", "l2", "dram" (static string) */
  double issue, warp_issue, fp32, fp64, sfu, tensor, shared, l1, l2, dram; /* each term, cycles */
  double sms_used;                                                         /* min (sms, blocks) */
  double max_ipc; /* warp instructions per cycle the GPU can reach for this launch */
  /* The rates used, per core cycle: */
  double l1_bytes_per_clk;   /* per SM */
  double l2_bytes_per_clk;   /* whole chip */
  double dram_bytes_per_clk; /* whole chip */
  /* The counts used (so a user can check): */
  uint64_t warp_insts_issued_min, tb_warp_insts_max, warp_warp_insts_max;
  uint64_t fp32_thread_ops_min, fp64_thread_ops_min, sfu_thread_ops_min, tensor_thread_ops_min;
  double shared_wavefronts_min; /* the launch's, over all its SMs */
  double l1_bytes_min;          /* distinct bytes of each global load, summed */
  double l1_wavefronts_min;     /* L1 data-stage wavefronts of global loads (0 before Volta: not used) */
  double l2_bytes_min;          /* store sectors + distinct load-only sectors, x 32 */
  uint64_t dram_bytes_min;      /* distinct read and written bytes beyond what the L2 can hold */
} WsLaunchBound;

/* The bound of a launch with counts @counts on @gpu.  Fails
 * (WS_ERROR_INVALID) when the GPU record lacks the core clock, SMs,
 * schedulers or issue width. */
WS_EXPORT gboolean ws_launch_bound_from_counts (const WsLaunchCounts *counts, const WsGpu *gpu, WsLaunchBound *out,
                                                GError **error);
/* Both steps for one GPU. */
WS_EXPORT gboolean ws_launch_bound_compute (WsTrace *trace, guint launch, const WsGpu *gpu, WsLaunchBound *out,
                                            GError **error);
/* {"cycles":…, "seconds":…, "limiter":…, "terms":{…}, "max_ipc":…, "counts":{…}, "rates":{…}} */
WS_EXPORT JsonNode *ws_launch_bound_to_json (const WsLaunchBound *b);

/* The wavefronts one warp access @r of @size bytes per lane needs on a GPU
 * of compute capability @cc_major, by the rule of the shared and l1 terms
 * (docs/bounds.md), for the access alone (no merging with its neighbours):
 *  - shared memory: the bank-conflict degree with 32 banks of 4 bytes; from
 *    Volta on at least active lanes x size / 128 (the data stage returns
 *    128 bytes a cycle); on Kepler the fewer of 4- and 8-byte banks;
 *  - global (Volta and later): the same data-stage count of the L1;
 *  - local (Volta and later): active lanes x size / 128, rounded up (local
 *    memory is interleaved per thread, so lanes never share a bank).
 * NAN where no rule is published: global and local before Volta, other
 * spaces.  0 for a record without active lanes.  The caller decides which
 * accesses go through the data stage (the bounds count global loads and
 * every shared access). */
WS_EXPORT double ws_bounds_access_wavefronts (const WsTraceRecord *r, guint size, int cc_major);

/* Counts cached by trace file (path, size) and launch, so that the host can
 * check every prediction of a launch without walking it again.  Thread-safe. */
WS_EXPORT gboolean ws_launch_counts_cached (WsTrace *trace, guint launch, WsLaunchCounts *out, GError **error);

/* The L1 bandwidth per SM per core clock used for @gpu: the catalogue's
 * l1_bandwidth_bytes_per_clk when the record has it (> 0), else the
 * documented default (WS_BOUNDS_L1_BYTES_PER_CLK). */
WS_EXPORT double ws_bounds_l1_bytes_per_clk (const WsGpu *gpu);
/* The L2 bandwidth per core clock used for @gpu (0: unknown, term off). */
WS_EXPORT double ws_bounds_l2_bytes_per_clk (const WsGpu *gpu);

G_END_DECLS
