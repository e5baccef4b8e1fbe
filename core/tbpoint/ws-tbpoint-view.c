/* ws-tbpoint-view.c: the TBPoint view of one launch (seed 000 Fig. 8 and
 * Table III): which TBs form homogeneous regions, which of them region
 * sampling simulated, and what sampling cost in accuracy against the full
 * simulation of the same launch. */
#include "tbpoint/ws-tbpoint.h"

#include <glib/gi18n-lib.h>
#include <inttypes.h>
#include <math.h>

void
ws_tbpoint_view_free (WsTbpointView *view)
{
  if (view == NULL)
    return;
  g_free (view->kernel);
  g_free (view->gpu);
  g_free (view->tb_size);
  g_free (view->tb_region);
  g_free (view->tb_simulated);
  g_free (view);
}

WsTbpointView *
ws_tbpoint_view_compute (WsTrace *trace, guint launch, const WsGpu *gpu, const WsTbpointOptions *options,
                         GError **error)
{
  WsTbpointOptions o;

  if (options != NULL)
    o = *options;
  else
    ws_tbpoint_options_init (&o);
  if (launch >= ws_trace_get_n_launches (trace))
    {
      g_set_error (error, WS_ERROR, WS_ERROR_NOT_FOUND, "trace '%s' has no launch %u (it has %u)",
                   ws_trace_get_path (trace), launch, ws_trace_get_n_launches (trace));
      return NULL;
    }

  g_autoptr (WsTbpointView) view = g_new0 (WsTbpointView, 1);
  const WsTraceLaunch *l = ws_trace_get_launch (trace, launch);
  view->launch = launch;
  view->kernel = g_strdup (ws_trace_get_kernel (trace, l->kernel)->name);
  view->gpu = g_strdup (gpu->name);

  /* The reference: every TB simulated, on a simulator of its own so both
   * runs start from the same (cold) caches. */
  WsSimLaunchStats full = { 0 }, sampled = { 0 };
  gint64 t0 = g_get_monotonic_time ();
  {
    g_autoptr (WsSim) sim = ws_sim_new (gpu, &o.sim, error);
    o.sampling = WS_SAMPLING_NONE;
    if (sim == NULL || !ws_tbpoint_simulate_launch (sim, trace, launch, &o, &full, NULL, NULL, error))
      return NULL;
  }
  gint64 t1 = g_get_monotonic_time ();
  {
    g_autoptr (WsSim) sim = ws_sim_new (gpu, &o.sim, error);
    o.sampling = WS_SAMPLING_TBPOINT;
    if (sim == NULL
        || !ws_tbpoint_simulate_launch (sim, trace, launch, &o, &sampled, &view->n_regions, &view->tb_region, error))
      {
        ws_sim_launch_stats_clear (&full);
        return NULL;
      }
  }
  gint64 t2 = g_get_monotonic_time ();

  uint64_t n_tbs = 0;
  const WsTraceTbCounters *counters = ws_trace_get_tb_counters (trace, launch, &n_tbs);
  view->n_tbs = n_tbs;
  view->tb_size = g_new (uint64_t, MAX (n_tbs, (uint64_t) 1));
  for (uint64_t t = 0; t < n_tbs; t++)
    view->tb_size[t] = counters[t].warp_instructions;
  view->tb_simulated = g_steal_pointer (&sampled.tb_simulated);
  view->full_cycles = full.cycles;
  view->sampled_cycles = sampled.cycles;
  view->error = full.cycles > 0 ? ((double) sampled.cycles - (double) full.cycles) / (double) full.cycles : 0;
  view->warp_instructions = sampled.warp_instructions;
  view->simulated_warp_instructions = sampled.simulated_warp_instructions;
  view->sample_fraction = sampled.warp_instructions > 0
                            ? (double) sampled.simulated_warp_instructions / (double) sampled.warp_instructions
                            : 0;
  view->simulated_tbs = sampled.simulated_tbs;
  view->full_wall_seconds = (double) (t1 - t0) / 1e6;
  view->sampled_wall_seconds = (double) (t2 - t1) / 1e6;
  ws_sim_launch_stats_clear (&full);
  ws_sim_launch_stats_clear (&sampled);
  return g_steal_pointer (&view);
}

JsonNode *
ws_tbpoint_view_to_json (const WsTbpointView *view)
{
  g_autoptr (JsonBuilder) b = json_builder_new ();

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "launch");
  json_builder_add_int_value (b, view->launch);
  json_builder_set_member_name (b, "kernel");
  json_builder_add_string_value (b, view->kernel);
  json_builder_set_member_name (b, "gpu");
  json_builder_add_string_value (b, view->gpu);
  json_builder_set_member_name (b, "regions");
  json_builder_add_int_value (b, view->n_regions);
  json_builder_set_member_name (b, "full_cycles");
  json_builder_add_int_value (b, (gint64) view->full_cycles);
  json_builder_set_member_name (b, "sampled_cycles");
  json_builder_add_int_value (b, (gint64) view->sampled_cycles);
  json_builder_set_member_name (b, "error");
  json_builder_add_double_value (b, view->error);
  json_builder_set_member_name (b, "sample_fraction");
  json_builder_add_double_value (b, view->sample_fraction);
  json_builder_set_member_name (b, "simulated_tbs");
  json_builder_add_int_value (b, (gint64) view->simulated_tbs);
  json_builder_set_member_name (b, "warp_instructions");
  json_builder_add_int_value (b, (gint64) view->warp_instructions);
  json_builder_set_member_name (b, "simulated_warp_instructions");
  json_builder_add_int_value (b, (gint64) view->simulated_warp_instructions);
  json_builder_set_member_name (b, "tbs");
  json_builder_begin_array (b);
  for (uint64_t t = 0; t < view->n_tbs; t++)
    {
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "id");
      json_builder_add_int_value (b, (gint64) t);
      json_builder_set_member_name (b, "size");
      json_builder_add_int_value (b, (gint64) view->tb_size[t]);
      json_builder_set_member_name (b, "region");
      json_builder_add_int_value (b, view->tb_region ? view->tb_region[t] : -1);
      json_builder_set_member_name (b, "simulated");
      json_builder_add_boolean_value (b, view->tb_simulated ? view->tb_simulated[t] != 0 : TRUE);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_end_object (b);
  return json_builder_get_root (b);
}

/* The series of region @r, created on first use. */
static guint
region_series (WsChart *chart, int32_t r)
{
  g_autofree char *name = r >= 0 ? g_strdup_printf (_ ("region %d"), r) : g_strdup (_ ("no region"));
  int s = ws_chart_find_series (chart, name);

  if (s >= 0)
    return (guint) s;
  s = (int) ws_chart_add_series (chart, name, WS_CHART_SERIES_NO_LINE);
  if (r < 0)
    ws_chart_series_set_color (chart, (guint) s, (WsChartColor){ 0.55, 0.55, 0.55 });
  return (guint) s;
}

WsChart *
ws_tbpoint_view_to_chart (const WsTbpointView *view)
{
  WsChart *chart = ws_chart_new (WS_CHART_TBPOINT);
  g_autofree char *title = g_strdup_printf (_ ("TBPoint: %s (launch %u) on %s"), view->kernel, view->launch, view->gpu);
  g_autofree char *subtitle = g_strdup_printf (
    _ ("error %.2f %%, sample %.1f %% of warp instructions (%" PRIu64 " of %" PRIu64 " TBs), homogeneous regions: %u"),
    fabs (view->error) * 100, view->sample_fraction * 100, view->simulated_tbs, view->n_tbs, view->n_regions);

  ws_chart_set_title (chart, title);
  ws_chart_set_subtitle (chart, subtitle);
  ws_chart_set_axis_title (chart, WS_CHART_AXIS_X, _ ("TB id"));
  ws_chart_set_axis_title (chart, WS_CHART_AXIS_Y, _ ("TB size (warp instructions)"));
  for (uint64_t t = 0; t < view->n_tbs; t++)
    {
      guint s = region_series (chart, view->tb_region ? view->tb_region[t] : -1);
      gboolean sim = view->tb_simulated == NULL || view->tb_simulated[t];
      ws_chart_series_add_point_full (chart, s, (double) t, (double) view->tb_size[t],
                                      sim ? 0 : WS_CHART_POINT_SKIPPED);
    }
  return chart;
}
