/* ws-cachesim.h: functional L1/L2 cache simulation of a traced launch for
 * one GPU configuration (seed 001 §4.5, GPUMech's input collector).
 *
 * The trace is hardware independent; cache behaviour is not, so it is
 * computed here per GPU: thread blocks start in id order on the GPU's block
 * slots (SMs x resident blocks per SM, by the occupancy rules) as slots
 * free, and the warps of the running blocks are fed to the caches round-
 * robin, one instruction per warp per round, with no timing.  The first
 * wave starts in step; from the second on, the blocks' starts are spread
 * over a block's duration, the steady state of a long launch (each slot
 * waits a pseudo-random fraction of its first block's rounds once).  Every
 * SM has its own L1; the L2 is shared.  Both
 * are sectored (a line is filled 32 bytes at a time), set-associative, LRU;
 * an L1 whose l1_sector is larger (Fermi: 128 bytes) is filled a whole
 * l1_sector at a time: a load's L1 miss fetches every sector of that unit
 * from the L2 (the L2 counts them all; the load's L1 hit rate counts the
 * sectors it touched in units that hit).
 * Stores write through the L1 without allocating (they invalidate the
 * sector) and allocate in the L2, which is write-back: a dirty sector costs
 * a DRAM write when its line is evicted or, for what is still dirty at the
 * end, when the launch's data is flushed.  Atomics are performed at the L2.
 *
 * Per memory instruction (static id) it reports the distribution of *miss
 * events*: for a warp instruction whose requests end at different levels,
 * the slowest request decides (seed 001 §4.5.2), and the average memory
 * access time AMAT = sum over levels of fraction x latency. */
#pragma once

#include "hw/ws-hw.h"
#include "trace/ws-trace.h"

G_BEGIN_DECLS

typedef enum {
  WS_CACHE_EVENT_L1_HIT,
  WS_CACHE_EVENT_L2_HIT,
  WS_CACHE_EVENT_DRAM,
  WS_CACHE_EVENT_SHARED, /* shared memory: no cache involved */
  WS_CACHE_EVENT_COUNT
} WsCacheEvent;

typedef struct {
  uint64_t executions;                   /* warp-level executions of this memory instruction */
  uint64_t events[WS_CACHE_EVENT_COUNT]; /* executions by their slowest request's level */
  uint64_t sectors;                      /* 32-byte requests issued (after coalescing) */
  uint64_t sector_l1_hits;               /* of `sectors`, those found in the L1 */
  uint64_t sector_l2_hits, sector_dram;  /* sectors looked up in the L2: with an L1 fill unit
                                           * over 32 bytes, every sector a miss fetches */
  double amat;                           /* cycles */
} WsCachePcStats;

typedef struct {
  char *gpu;
  guint n_insts;
  WsCachePcStats *pcs; /* indexed by static instruction id; zero for non-memory */
  uint64_t sectors, l1_hits, l2_hits, dram_sectors;
  uint64_t writeback_sectors;      /* dirty L2 sectors written to DRAM (evictions + final flush) */
  uint64_t dram_bytes;             /* (DRAM read sectors + write-back sectors) x 32 */
  double l1_hit_rate, l2_hit_rate; /* over sectors looked up at that level */
  int blocks_per_sm;               /* residency used to form waves */
} WsCacheStats;

WS_EXPORT void ws_cache_stats_free (WsCacheStats *stats);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsCacheStats, ws_cache_stats_free)

/* Simulates launch @launch of @trace on @gpu. */
WS_EXPORT WsCacheStats *ws_cachesim_run_launch (WsTrace *trace, guint launch, const WsGpu *gpu, GError **error);
/* The blocks of one wave of launch @launch on @gpu: SMs x resident blocks
 * per SM, the simulation's block slots. */
WS_EXPORT gboolean ws_cachesim_wave_blocks (WsTrace *trace, guint launch, const WsGpu *gpu, uint64_t *wave,
                                            GError **error);
/* The same for the blocks t with @in_sample[t] != 0 only (NULL: all); the
 * others are left out, the sampled blocks taking the slots in their place,
 * so a sample of whole waves runs as consecutive waves, the caches carried
 * from one sampled wave to the next.  Counts are the sample's. */
WS_EXPORT WsCacheStats *ws_cachesim_run_launch_sample (WsTrace *trace, guint launch, const WsGpu *gpu,
                                                       const guint8 *in_sample, GError **error);

/* ---- the cache model itself (exposed for tests and the simulator) ------- */

typedef struct _WsCache WsCache;

/* A sectored set-associative LRU cache; @size 0 = no cache (every lookup misses). */
WS_EXPORT WsCache *ws_cache_new (uint32_t size, uint32_t line, uint32_t sector, uint32_t assoc);
WS_EXPORT void ws_cache_free (WsCache *cache);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsCache, ws_cache_free)
/* Looks up the sector holding @addr; on a miss with @allocate the sector is
 * filled (evicting the LRU line of the set if needed).  Returns TRUE on hit. */
WS_EXPORT gboolean ws_cache_access (WsCache *cache, uint64_t addr, gboolean allocate);
/* Drops the sector holding @addr if present. */
WS_EXPORT void ws_cache_invalidate (WsCache *cache, uint64_t addr);
/* A write-back access: like ws_cache_access with allocation, and marks the
 * sector dirty when @write.  Returns TRUE on hit; *@written_back receives the
 * number of dirty sectors of a line this access evicted. */
WS_EXPORT gboolean ws_cache_access_wb (WsCache *cache, uint64_t addr, gboolean write, guint *written_back);
/* A write with allocation: marks the sector dirty; *@was_dirty tells
 * whether it already was (a write-back cache owes DRAM one write per
 * sector it dirties).  Returns TRUE on hit. */
WS_EXPORT gboolean ws_cache_write (WsCache *cache, uint64_t addr, gboolean *was_dirty);
/* Number of dirty sectors still in the cache. */
WS_EXPORT guint64 ws_cache_count_dirty (WsCache *cache);
/* Empties the cache: afterwards it behaves exactly as a new one.  Costs
 * the sets used since the last reset, not the cache's size. */
WS_EXPORT void ws_cache_reset (WsCache *cache);
/* 1 when @cache has the geometry ws_cache_new (@size, @line, @sector,
 * @assoc) gives. */
WS_EXPORT gboolean ws_cache_has_geometry (const WsCache *cache, uint32_t size, uint32_t line, uint32_t sector,
                                          uint32_t assoc);

G_END_DECLS
