/* ws-launch-cost.h: what a kernel launch costs beyond the kernel itself.
 *
 * The simulator and the predictor plugins give a launch's execution time on
 * the GPU (kernel-only cycles and IPC).  A program that launches kernels one
 * after another also pays for getting each launch to the GPU: the host's
 * driver call, the GPU front end that fetches the commands and starts the
 * grid, and the device-side gap between a kernel's end and the start of the
 * next kernel on the same stream, which may not start earlier.  For a short
 * kernel that cost is larger than the kernel.  This module turns a kernel's
 * execution time into the time it occupies in a sequence of back-to-back
 * launches, from the catalogue record's launch fields (WsGpu.launch_*,
 * sources in each record); docs/models/launch-cost.md gives the model and
 * the published measurements behind it.
 *
 * Program-level wall times (predict, simulate, validate's small kernels)
 * add it; kernel-level cycles, IPC and bounds never do. */
#pragma once

#include "base/ws-base.h"
#include "hw/ws-hw.h"

G_BEGIN_DECLS

typedef enum {
  WS_LAUNCH_MODE_STREAM, /* launched one by one by the host on one stream, not synchronised in between */
  WS_LAUNCH_MODE_GRAPH,  /* kernel nodes of a straight-line CUDA graph, replayed by one graph launch */
  WS_LAUNCH_MODE_COUNT
} WsLaunchMode;

WS_EXPORT const char *ws_launch_mode_name (WsLaunchMode mode); /* "stream", "graph" */
WS_EXPORT gboolean ws_launch_mode_from_string (const char *s, WsLaunchMode *out);

typedef struct {
  WsLaunchMode mode;
  double exec_seconds;     /* the kernel's own execution time (the input) */
  double interval_seconds; /* the mode's shortest time per launch; 0 when the catalogue does not know it */
  double gap_seconds;      /* device gap after the previous kernel's end; 0 when unknown */
  double wall_seconds;     /* time per launch in the sequence: max (interval, exec + gap) */
  double overhead_seconds; /* wall_seconds - exec_seconds (>= 0) */
  const char *limiter; /* "interval" (host and front end), "gap" (kernel + device gap) or "unknown" (no launch data) */
} WsLaunchCost;

/* Fills @out for one launch of a kernel that executes for @exec_seconds on
 * @gpu when it is one of many launched back to back in @mode.  Returns
 * FALSE (and leaves wall = exec, limiter "unknown") when the record has no
 * launch data for @mode.  @exec_seconds must be finite and >= 0. */
WS_EXPORT gboolean ws_launch_cost (const WsGpu *gpu, WsLaunchMode mode, double exec_seconds, WsLaunchCost *out);

/* The wall_seconds of ws_launch_cost. */
WS_EXPORT double ws_launch_cost_wall_seconds (const WsGpu *gpu, WsLaunchMode mode, double exec_seconds);

G_END_DECLS
