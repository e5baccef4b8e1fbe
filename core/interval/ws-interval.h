/* ws-interval.h: the single-warp interval model of GPUMech (seed 001 §4.3)
 * and the per-launch analysis the predictors share.
 *
 * For one GPU configuration and one traced launch this computes, once:
 *  - the latency of every static instruction: the catalogue's pipeline
 *    latency for compute instructions, the average memory access time from
 *    the cache simulation for memory instructions (seed 001 §4.5.2);
 *  - every warp's interval profile by the interval algorithm (eq. 13) and its
 *    warp performance (eq. 14);
 *  - the representative warp: k-means with k = 2 on the eq. 15 feature
 *    vectors, the warp closest to the centre of the larger cluster (§4.3.3);
 *  - the L1 / shared data-stage wavefronts of every static memory
 *    instruction, by the physical bound's per-access rule
 *    (ws_bounds_access_wavefronts);
 *  - the machine instructions each TB issues.
 * Everything here counts machine instructions: records whose lowering
 * (WsTraceKernel.lowering) issues nothing are skipped. */
#pragma once

#include "hw/ws-hw.h"
#include "trace/ws-trace.h"
#include "cachesim/ws-cachesim.h"

G_BEGIN_DECLS

typedef struct {
  uint32_t insts;      /* instructions issued in the interval */
  double stall_cycles; /* cycles lost after it, waiting for a dependence */
  uint32_t stall_inst; /* static id of the instruction whose result was awaited */
} WsInterval;

typedef struct {
  GArray *intervals;     /* of WsInterval, eq. 11 */
  uint64_t insts;        /* warp instructions issued (machine level: absorbed ones left out) */
  double cycles;         /* issue cycles + stall cycles of the warp alone, up to the
                          * completion of its last memory access */
  double perf;           /* eq. 14: insts / cycles */
  uint64_t thread_insts; /* active lanes summed over the issued instructions */
} WsIntervalProfile;

WS_EXPORT void ws_interval_profile_free (WsIntervalProfile *p);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsIntervalProfile, ws_interval_profile_free)

/* The class the catalogue's latency table uses for a static instruction. */
WS_EXPORT WsIClass ws_interval_inst_iclass (const WsTraceStaticInst *inst);

/* Eq. 13 over one warp's stream: issue(k+1) = max(issue(k) + 1, done(src) + 1),
 * done = issue + latency; an interval closes where the issue cycle jumps.
 * The warp ends when all its memory accesses (loads, stores, atomics) are
 * done: the last interval stalls until the latest of them completes. */
WS_EXPORT WsIntervalProfile *ws_interval_profile_warp (const WsTraceKernel *kernel, const WsTraceTb *tb, guint warp,
                                                       const double *latency, GError **error);

typedef struct _WsLaunchAnalysis WsLaunchAnalysis;

WS_EXPORT WsLaunchAnalysis *ws_launch_analysis_new (WsTrace *trace, guint launch, const WsGpu *gpu, GError **error);
WS_EXPORT void ws_launch_analysis_free (WsLaunchAnalysis *a);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsLaunchAnalysis, ws_launch_analysis_free)

/* The same analysis through the analysis cache (ws-analysis-cache.c): read
 * from the file of this launch's content, this GPU record and this build
 * when there is an intact one, else computed and stored.  The files live in
 * TRACE.analysis/ beside the trace (the user's cache folder when that
 * cannot be written); WARPSCOPE_ANALYSIS_CACHE=DIR puts them in DIR, =0
 * turns the cache off.  @from_cache (may be NULL) says whether it was read. */
WS_EXPORT WsLaunchAnalysis *ws_launch_analysis_get (WsTrace *trace, guint launch, const WsGpu *gpu,
                                                    gboolean *from_cache, GError **error);

WS_EXPORT const WsCacheStats *ws_launch_analysis_get_cache (WsLaunchAnalysis *a);
/* Latency (cycles) of each static instruction; n = kernel's n_insts. */
WS_EXPORT const double *ws_launch_analysis_get_latencies (WsLaunchAnalysis *a);
/* The representative warp and its profile. */
WS_EXPORT const WsIntervalProfile *ws_launch_analysis_get_representative (WsLaunchAnalysis *a, uint64_t *tb,
                                                                          uint32_t *warp);
WS_EXPORT guint ws_launch_analysis_get_n_warps_profiled (WsLaunchAnalysis *a);
/* Per static instruction (n = kernel's n_insts): the average L1 or shared
 * data-stage wavefronts of one execution on the analysis' GPU.  Counted are
 * the executions that reach the data stage: loads from global or local
 * memory and every shared-memory access (by the space each execution
 * resolved to), each by ws_bounds_access_wavefronts.  0 for an instruction
 * that is no memory access or never executed; NAN for one whose executions
 * have no such figure (stores and atomics to global memory, constant and
 * parameter reads, global and local loads before Volta). */
WS_EXPORT const double *ws_launch_analysis_get_wavefronts (WsLaunchAnalysis *a);
/* Machine-level instruction counts (ws-trace-lowering.h: absorbed PTX
 * instructions left out), per TB in linear order (n = the launch's TBs, 0
 * for a TB never recorded) and over the launch; the trace's own counters
 * (WsTraceLaunch, WsTraceTbCounters) count the recorded PTX instructions. */
WS_EXPORT const uint64_t *ws_launch_analysis_get_tb_issued (WsLaunchAnalysis *a, const uint64_t **thread_insts);
/* Per TB in linear order (0 for a TB never recorded): the cycles of its
 * longest warp alone on an SM (eq. 13/14's cycles, up to the completion of
 * its last memory access).  A block holds its SM slot until its last warp
 * has finished, so no block ends sooner after its dispatch. */
WS_EXPORT const double *ws_launch_analysis_get_tb_critical_cycles (WsLaunchAnalysis *a);
WS_EXPORT void ws_launch_analysis_get_issued (WsLaunchAnalysis *a, uint64_t *warp_insts, uint64_t *thread_insts);
/* The sample the analysis was computed on.  A launch of more than 8 waves
 * (SMs x resident blocks) has its caches simulated on 4 of its waves,
 * spread evenly, and as many blocks, drawn from equal strata of the grid,
 * profiled (interval profiles, representative warp, wavefronts); the
 * blocks left out are extrapolated from what the trace records of each
 * (ws-interval.c, extrapolate_sample).  WARPSCOPE_ANALYSIS_SAMPLE=0
 * analyses every block.  @profiled_tbs and @simulated_tbs of
 * @recorded_tbs blocks, in @sample_waves of @waves waves (all of them when
 * nothing was left out).  Any pointer may be NULL. */
WS_EXPORT void ws_launch_analysis_get_sample (WsLaunchAnalysis *a, uint64_t *profiled_tbs, uint64_t *simulated_tbs,
                                              uint64_t *recorded_tbs, guint *sample_waves, uint64_t *waves);
/* The sample ws_launch_analysis_new would take, without computing it:
 * @sample_waves of @waves waves (equal when every block is analysed). */
WS_EXPORT gboolean ws_launch_analysis_plan (WsTrace *trace, guint launch, const WsGpu *gpu, guint *sample_waves,
                                            uint64_t *waves, GError **error);
/* FALSE when WARPSCOPE_ANALYSIS_SAMPLE is 0 or off: analyses cover every block. */
WS_EXPORT gboolean ws_launch_analysis_samples (void);

G_END_DECLS
