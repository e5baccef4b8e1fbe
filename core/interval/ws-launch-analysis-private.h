/* ws-launch-analysis-private.h: the launch analysis' fields, shared by its
 * computation (ws-interval.c) and its on-disk cache (ws-analysis-cache.c). */
#pragma once

#include "interval/ws-interval.h"

G_BEGIN_DECLS

struct _WsLaunchAnalysis {
  WsTrace *trace;
  guint launch;
  WsGpu *gpu;
  WsCacheStats *cache;
  double *latency;
  uint64_t rep_tb;
  uint32_t rep_warp;
  WsIntervalProfile *rep;
  guint n_profiled;
  double *wavefronts;  /* per static instruction, see ws_launch_analysis_get_wavefronts */
  uint64_t *tb_issued; /* per TB: warp instructions issued (machine level) */
  uint64_t *tb_thread_issued;
  double *tb_critical; /* per TB: the longest of its warps' eq. 13 cycles alone */
  uint64_t issued, thread_issued;
  /* the sample (ws_launch_analysis_get_sample) */
  uint64_t profiled_tbs, simulated_tbs, recorded_tbs, waves;
  guint sample_waves;
};

G_END_DECLS
