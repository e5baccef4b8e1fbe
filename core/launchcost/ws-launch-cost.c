/* ws-launch-cost.c: a launch's time in a sequence of back-to-back launches
 * (see ws-launch-cost.h and docs/models/launch-cost.md). */
#define G_LOG_DOMAIN "ws-launch-cost"

#include "launchcost/ws-launch-cost.h"

#include <math.h>
#include <string.h>

static const char *const mode_names[WS_LAUNCH_MODE_COUNT] = { "stream", "graph" };

const char *
ws_launch_mode_name (WsLaunchMode mode)
{
  g_return_val_if_fail (mode < WS_LAUNCH_MODE_COUNT, NULL);
  return mode_names[mode];
}

gboolean
ws_launch_mode_from_string (const char *s, WsLaunchMode *out)
{
  g_return_val_if_fail (s != NULL && out != NULL, FALSE);
  for (guint i = 0; i < WS_LAUNCH_MODE_COUNT; i++)
    if (strcmp (s, mode_names[i]) == 0)
      {
        *out = (WsLaunchMode) i;
        return TRUE;
      }
  return FALSE;
}

/* Launches in one stream (or one straight-line graph) are serialised: the
 * next kernel starts no earlier than the previous one's end plus the device
 * gap (completion, front end, grid start), and no earlier than the host and
 * front end have delivered it, which they do at most once per interval.  In
 * a long sequence the host runs ahead while kernels are longer than the
 * interval, so the steady time per launch is the larger of the two:
 *   wall = max (interval, exec + gap). */
gboolean
ws_launch_cost (const WsGpu *gpu, WsLaunchMode mode, double exec_seconds, WsLaunchCost *out)
{
  g_return_val_if_fail (gpu != NULL && out != NULL, FALSE);
  g_return_val_if_fail (mode < WS_LAUNCH_MODE_COUNT, FALSE);
  g_return_val_if_fail (isfinite (exec_seconds) && exec_seconds >= 0, FALSE);
  double interval_us = mode == WS_LAUNCH_MODE_GRAPH ? gpu->graph_launch_interval_us : gpu->launch_interval_us;
  double gap_us = mode == WS_LAUNCH_MODE_GRAPH ? gpu->graph_launch_gap_us : gpu->launch_gap_us;
  *out = (WsLaunchCost){
    .mode = mode,
    .exec_seconds = exec_seconds,
    .interval_seconds = MAX (interval_us, 0) * 1e-6,
    .gap_seconds = MAX (gap_us, 0) * 1e-6,
    .wall_seconds = exec_seconds,
    .limiter = "unknown",
  };
  if (!(out->interval_seconds > 0) && !(out->gap_seconds > 0))
    return FALSE;
  double after_previous = exec_seconds + out->gap_seconds;
  if (out->interval_seconds > after_previous)
    {
      out->wall_seconds = out->interval_seconds;
      out->limiter = "interval";
    }
  else
    {
      out->wall_seconds = after_previous;
      out->limiter = "gap";
    }
  out->overhead_seconds = out->wall_seconds - exec_seconds;
  return TRUE;
}

double
ws_launch_cost_wall_seconds (const WsGpu *gpu, WsLaunchMode mode, double exec_seconds)
{
  g_return_val_if_fail (gpu != NULL && mode < WS_LAUNCH_MODE_COUNT, NAN);
  g_return_val_if_fail (isfinite (exec_seconds) && exec_seconds >= 0, NAN);
  WsLaunchCost c;
  ws_launch_cost (gpu, mode, exec_seconds, &c);
  return c.wall_seconds;
}
