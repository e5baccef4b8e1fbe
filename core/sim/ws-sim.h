/* ws-sim.h: trace-driven cycle-level GPU simulator (the detailed reference,
 * the role Macsim plays in seeds 000 and 001), configured from a catalogue
 * record.
 *
 * Model (docs/simulator.md has the details and the constants):
 *  - TB dispatcher: greedy by TB id, as many TBs per SM as the occupancy
 *    rules allow (ws_occupancy_compute), a freed slot is refilled at once.
 *  - SM: warp_schedulers_per_sm schedulers, each owning the warps of the
 *    slots i with i % schedulers == its index, issuing up to issue_width
 *    instructions per cycle from different warps, RR or GTO.
 *  - Scoreboard: per warp register-ready times; registers written by loads
 *    stay pending until every sector of the load has returned.
 *  - Functional units: one pipe per instruction class per scheduler with the
 *    catalogue's latency and initiation interval.
 *  - Shared memory: 32 banks of 4 bytes; an n-way conflict holds the shared
 *    pipe n times as long and adds (n - 1) initiation intervals of latency.
 *  - Global/local memory: coalescing into 32-byte sectors, per-SM L1
 *    (sectored LRU, write-through no-allocate) with MSHRs that merge misses
 *    to the same sector, an interconnect latency each way, L2 slices with one
 *    request per cycle each, DRAM channels with banks, open-row buffers,
 *    FR-FCFS scheduling and a data bus limited to the channel's bandwidth.
 *  - Barriers: a warp waits at bar.sync until every live warp of its TB has
 *    arrived.
 *  - Idle cycles are skipped: when no warp of any SM can issue, the clock
 *    jumps to the next event (writeback, memory response, DRAM slot).
 *
 * The L2 keeps its contents from one launch to the next; the L1s start
 * each launch invalidated, as on hardware. */
#pragma once

#include "hw/ws-hw.h"
#include "trace/ws-trace.h"
#include <gio/gio.h>

G_BEGIN_DECLS

typedef enum {
  WS_SIM_SCHED_RR,  /* loose round robin */
  WS_SIM_SCHED_GTO, /* greedy then oldest */
} WsSimScheduler;

WS_EXPORT const char *ws_sim_scheduler_name (WsSimScheduler s); /* "rr", "gto" */
WS_EXPORT gboolean ws_sim_scheduler_from_string (const char *s, WsSimScheduler *out);

/* Why a scheduler did not issue in a cycle. */
typedef enum {
  WS_SIM_STALL_IDLE,       /* no warp assigned */
  WS_SIM_STALL_DEPENDENCY, /* waiting for a non-memory result (pipeline latency) */
  WS_SIM_STALL_MEMORY,     /* waiting for a load */
  WS_SIM_STALL_STRUCTURAL, /* a ready warp found its pipe or the MSHRs busy */
  WS_SIM_STALL_BARRIER,    /* every live warp waits at a barrier */
  WS_SIM_STALL_COUNT
} WsSimStall;

WS_EXPORT const char *ws_sim_stall_name (WsSimStall s); /* "idle", "dependency", ... */

typedef struct {
  WsSimScheduler scheduler;
  double interconnect_latency; /* cycles each way between SM and L2; <= 0: default 10 */
  uint64_t
    timeline_interval; /* cycles per timeline sample; 0: default 1000 (doubled as needed to stay <= 4096 samples) */
} WsSimConfig;

WS_EXPORT void ws_sim_config_init (WsSimConfig *config);

/* Region sampling (seed 000 §IV-B2) for one launch: @region[tb] is the
 * homogeneous region of each TB (-1 = none), from core/tbpoint. */
typedef struct {
  const int32_t *region; /* n_tbs entries */
  uint64_t n_tbs;
  double ipc_tolerance;  /* warming ends when two consecutive units differ by less (default 0.1) */
  gboolean warm_skipped; /* skipped TBs' accesses warm the L2 tags functionally, as
                                 * ws_sim_warm_launch does for a whole launch */
} WsSimRegionSampling;

typedef struct {
  uint64_t cycles;              /* simulated + charged for skipped TBs (seed 000 Table IV) */
  uint64_t simulated_cycles;    /* cycles actually simulated */
  uint64_t warp_instructions;   /* all TBs, skipped included (trace instructions: PTX) */
  uint64_t thread_instructions; /* simulated TBs only */
  uint64_t simulated_warp_instructions;
  uint64_t tbs, simulated_tbs;
  double ipc;                          /* machine instructions issued / cycles (absorbed PTX
                                         * instructions left out, ws-trace-lowering.h; skipped
                                         * TBs at the simulated ones' machine/PTX ratio) */
  int blocks_per_sm;                   /* occupancy used by the dispatcher */
  uint64_t stalls[WS_SIM_STALL_COUNT]; /* scheduler-cycles, summed over schedulers */
  uint64_t l1_accesses, l1_hits;       /* sectors looked up in the L1s */
  uint64_t l2_accesses, l2_hits;
  uint64_t dram_reads, dram_writes; /* 32-byte transfers */
  uint64_t dram_row_hits;
  uint64_t shared_accesses, shared_conflict_cycles;
  double l1_hit_rate, l2_hit_rate;
  double dram_bandwidth_gbs; /* bytes moved / simulated time at the core clock */
  guint n_sms;
  uint64_t *sm_instructions; /* n_sms entries: machine warp instructions issued per SM */
  /* Per-SM IPC timeline: n_samples x n_sms instruction counts, sample i
   * covering cycles [i * timeline_interval, (i + 1) * timeline_interval)
   * from the launch's start. */
  uint64_t timeline_interval;
  guint n_samples;
  uint32_t *timeline;
  /* Region sampling */
  uint64_t skipped_tbs;
  double skipped_cycles;         /* max (Table IV charge, DRAM floor) per fast-forward */
  uint64_t skipped_dram_sectors; /* 32-byte DRAM transfers of skipped TBs (functional warming) */
  guint regions_fast_forwarded;  /* fast-forwards started (a region can be re-warmed) */
  /* With region sampling: per TB (n = tbs), 1 if the TB was simulated, 0 if
   * it was fast-forwarded (or never ran in the emulator); NULL without. */
  uint8_t *tb_simulated;
} WsSimLaunchStats;

WS_EXPORT void ws_sim_launch_stats_clear (WsSimLaunchStats *stats);

typedef struct _WsSim WsSim;

/* Fails with WS_ERROR_INVALID when the GPU record lacks what the model needs
 * (SMs, schedulers, warp limits). */
WS_EXPORT WsSim *ws_sim_new (const WsGpu *gpu, const WsSimConfig *config, GError **error);
WS_EXPORT void ws_sim_free (WsSim *sim);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsSim, ws_sim_free)

WS_EXPORT const WsGpu *ws_sim_get_gpu (const WsSim *sim);

/* Simulates launch @launch of @trace to completion (caches keep their state
 * from earlier calls).  @sampling may be NULL (every TB simulated).  @stats
 * is filled (clear it with ws_sim_launch_stats_clear afterwards). */
WS_EXPORT gboolean ws_sim_run_launch (WsSim *sim, WsTrace *trace, guint launch, const WsSimRegionSampling *sampling,
                                      WsSimLaunchStats *stats, GError **error);

/* Functional warming for a launch that sampling skips: its global and local
 * accesses update the L2's tags in program order (no timing, no
 * statistics), so the next simulated launch finds the L2 as the skipped
 * work would have left it.  Costs one decode of the launch's streams. */
WS_EXPORT gboolean ws_sim_warm_launch (WsSim *sim, WsTrace *trace, guint launch, GError **error);
/* The same, telling how many of the launch's load and atomic sectors the
 * L2 held when they came (*@load_hits of *@load_sectors; either may be
 * NULL): the cache state the launch starts with. */
WS_EXPORT gboolean ws_sim_warm_launch_hits (WsSim *sim, WsTrace *trace, guint launch, uint64_t *load_hits,
                                            uint64_t *load_sectors, GError **error);

/* Instruction-count observer for fixed-size sampling units (random sampling,
 * seed 000 §V-A): called each time @unit_instructions more warp
 * instructions have been issued since the last call, with the cycle (from
 * the start of the run's first launch) at which the unit ended.  Set
 * before ws_sim_run_launch; counts continue across launches. */
typedef void (*WsSimUnitFunc) (uint64_t end_cycle, gpointer user_data);
WS_EXPORT void ws_sim_set_unit_observer (WsSim *sim, uint64_t unit_instructions, WsSimUnitFunc func,
                                         gpointer user_data);

/* ws_sim_run_launch checks @cancellable every few thousand cycles and fails
 * with G_IO_ERROR_CANCELLED once it is cancelled (NULL: never). */
WS_EXPORT void ws_sim_set_cancellable (WsSim *sim, GCancellable *cancellable);

/* Total cycles simulated by this WsSim so far (sum over its launches). */
WS_EXPORT uint64_t ws_sim_get_elapsed_cycles (const WsSim *sim);

G_END_DECLS
