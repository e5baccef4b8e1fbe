/* warpscope-cli simulate: the cycle-level simulator over a trace, with no
 * sampling, TBPoint or random sampling; the run is stored in the store. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <glib/gi18n.h>

#include "ws-cli.h"
#include "tbpoint/ws-tbpoint.h"
#include "bounds/ws-bounds.h"
#include "launchcost/ws-launch-cost.h"

int ws_cli_cmd_simulate (WsCli *cli, int argc, char **argv);

/* Adds each launch's physical lower bound (core/bounds) to the result's
 * "launches" objects: bound_cycles and bound_limiter. */
static gboolean
add_bounds (JsonNode *root, WsTrace *trace, const WsGpu *gpu, GError **error)
{
  JsonArray *launches = json_object_get_array_member (json_node_get_object (root), "launches");
  for (guint i = 0; launches != NULL && i < json_array_get_length (launches); i++)
    {
      JsonObject *o = json_array_get_object_element (launches, i);
      WsLaunchCounts counts;
      WsLaunchBound b;
      if (!ws_launch_counts_cached (trace, (guint) json_object_get_int_member (o, "index"), &counts, error)
          || !ws_launch_bound_from_counts (&counts, gpu, &b, error))
        return FALSE;
      json_object_set_double_member (o, "bound_cycles", b.cycles);
      json_object_set_string_member (o, "bound_limiter", b.limiter);
    }
  return TRUE;
}

/* The launches' cost when issued back to back on one stream
 * (core/launchcost), beside the kernels' simulated time: each launch
 * object gets launch_overhead_seconds, the result kernel_seconds,
 * launch_mode, launch_overhead_seconds and program_seconds.  Returns the
 * total overhead. */
static double
launch_costs (const WsTbpointResult *r, const WsGpu *gpu, JsonNode *root, double *kernel_seconds)
{
  JsonArray *launches = root ? json_object_get_array_member (json_node_get_object (root), "launches") : NULL;
  double hz = gpu->core_clock_mhz * 1e6, kernels = 0, overhead = 0;
  for (guint i = 0; i < r->n_launches; i++)
    {
      double exec = (double) r->launches[i].cycles / hz, o = 0;
      WsLaunchCost cost;
      if (ws_launch_cost (gpu, WS_LAUNCH_MODE_STREAM, exec, &cost))
        o = cost.overhead_seconds;
      kernels += exec;
      overhead += o;
      if (launches != NULL && i < json_array_get_length (launches))
        json_object_set_double_member (json_array_get_object_element (launches, i), "launch_overhead_seconds", o);
    }
  if (root != NULL)
    {
      JsonObject *o = json_node_get_object (root);
      json_object_set_double_member (o, "kernel_seconds", kernels);
      json_object_set_string_member (o, "launch_mode", ws_launch_mode_name (WS_LAUNCH_MODE_STREAM));
      json_object_set_double_member (o, "launch_overhead_seconds", overhead);
      json_object_set_double_member (o, "program_seconds", kernels + overhead);
    }
  *kernel_seconds = kernels;
  return overhead;
}

int
ws_cli_cmd_simulate (WsCli *cli, int argc, char **argv)
{
  g_autofree char *trace_path = NULL, *gpu_name = NULL, *sampling = NULL, *scheduler = NULL;
  double inter = 0.1, intra = 0.2, vf = 0.3, icnt = 10;
  gboolean timeline = FALSE, no_store = FALSE;
  int seed = 1;
  const GOptionEntry entries[] = {
    { "trace", 0, 0, G_OPTION_ARG_FILENAME, &trace_path, N_ ("Trace recorded by 'warpscope-cli profile'"), "TRACE" },
    { "gpu", 0, 0, G_OPTION_ARG_STRING, &gpu_name, N_ ("Catalogue GPU to simulate"), "NAME" },
    { "sampling", 0, 0, G_OPTION_ARG_STRING, &sampling, N_ ("none (default), tbpoint or random (10 %)"), "MODE" },
    { "scheduler", 0, 0, G_OPTION_ARG_STRING, &scheduler, N_ ("Warp scheduler: gto (default) or rr"), "POLICY" },
    { "inter-threshold", 0, 0, G_OPTION_ARG_DOUBLE, &inter, N_ ("TBPoint inter-launch distance threshold (0.1)"),
      "SIGMA" },
    { "intra-threshold", 0, 0, G_OPTION_ARG_DOUBLE, &intra, N_ ("TBPoint epoch clustering threshold (0.2)"), "SIGMA" },
    { "vf-threshold", 0, 0, G_OPTION_ARG_DOUBLE, &vf, N_ ("TBPoint variation-factor threshold (0.3)"), "VF" },
    { "interconnect-latency", 0, 0, G_OPTION_ARG_DOUBLE, &icnt, N_ ("Cycles each way between SM and L2 (10)"),
      "CYCLES" },
    { "seed", 0, 0, G_OPTION_ARG_INT, &seed, N_ ("Random-sampling seed (1)"), "N" },
    { "timeline", 0, 0, G_OPTION_ARG_NONE, &timeline, N_ ("Include the per-SM IPC timeline in the JSON"), NULL },
    { "no-store", 0, 0, G_OPTION_ARG_NONE, &no_store, N_ ("Do not record the run in the store"), NULL },
    { NULL }
  };
  if (!ws_cli_parse_options (cli, &argc, &argv, entries, "",
                             _ ("Simulates a traced program cycle by cycle on a catalogue GPU.")))
    return WS_EXIT_USAGE;
  if (argc > 1)
    return ws_cli_fail (cli, WS_EXIT_USAGE, _ ("unexpected argument '%s'"), argv[1]);
  if (trace_path == NULL || gpu_name == NULL)
    return ws_cli_fail (cli, WS_EXIT_USAGE, "%s", _ ("--trace TRACE and --gpu NAME are required"));
  WsTbpointOptions o;
  ws_tbpoint_options_init (&o);
  if (sampling && !ws_sampling_from_string (sampling, &o.sampling))
    return ws_cli_fail (cli, WS_EXIT_USAGE, _ ("unknown sampling '%s' (none, tbpoint, random)"), sampling);
  if (scheduler && !ws_sim_scheduler_from_string (scheduler, &o.sim.scheduler))
    return ws_cli_fail (cli, WS_EXIT_USAGE, _ ("unknown scheduler '%s' (rr, gto)"), scheduler);
  if (inter < 0 || intra < 0 || vf < 0 || icnt <= 0)
    return ws_cli_fail (cli, WS_EXIT_USAGE, "%s", _ ("thresholds must be >= 0 and the interconnect latency > 0"));
  o.inter_threshold = inter;
  o.intra_threshold = intra;
  o.vf_threshold = vf;
  o.sim.interconnect_latency = icnt;
  o.random_seed = (guint32) seed;

  g_autoptr (GError) error = NULL;
  int rc = WS_EXIT_OK;
  g_autoptr (WsTrace) trace = ws_cli_open_trace (cli, trace_path, &rc);
  if (trace == NULL)
    return rc;
  g_autoptr (WsGpu) gpu = ws_cli_lookup_gpu (cli, gpu_name, &rc);
  if (gpu == NULL)
    return rc;
  g_autoptr (WsTbpointResult) r = ws_tbpoint_simulate (trace, gpu, &o, &error);
  if (r == NULL)
    return ws_cli_fail_error (cli, error);
  if (!no_store)
    {
      WsStore *store = ws_cli_store (cli);
      if (store == NULL)
        return WS_EXIT_FAILURE;
      gint64 id = ws_sim_run_store_put (store, trace_path, gpu, &o, r, &error);
      if (id < 0)
        return ws_cli_fail_error (cli, error);
      ws_cli_info (cli, _ ("stored as simulation run %" PRId64), id);
    }
  if (cli->json)
    {
      g_autoptr (JsonNode) node = ws_tbpoint_result_to_json (r, timeline);
      if (!add_bounds (node, trace, gpu, &error))
        return ws_cli_fail_error (cli, error);
      double kernel_seconds;
      launch_costs (r, gpu, node, &kernel_seconds);
      ws_cli_print_json (cli, node);
      return WS_EXIT_OK;
    }
  printf (_ ("%s on %s, %s scheduler, sampling %s\n"), trace_path, r->gpu, ws_sim_scheduler_name (r->scheduler),
          ws_sampling_name (r->sampling));
  printf (_ ("  cycles:               %" PRIu64 "\n"), r->cycles);
  printf (_ ("  IPC:                  %.4f warp instructions per cycle\n"), r->ipc);
  printf (_ ("  warp instructions:    %" PRIu64 " (%" PRIu64 " simulated, %.2f %%)\n"), r->warp_instructions,
          r->simulated_warp_instructions, 100 * r->sample_fraction);
  if (r->sampling == WS_SAMPLING_TBPOINT)
    printf (_ ("  launch clusters:      %u\n"), r->n_clusters);
  double kernel_seconds, overhead = launch_costs (r, gpu, NULL, &kernel_seconds);
  printf (_ ("  kernel time:          %.6g s at %.0f MHz\n"), kernel_seconds, gpu->core_clock_mhz);
  printf (_ ("  launch cost:          %.6g s back to back on one stream (program %.6g s)\n"), overhead,
          kernel_seconds + overhead);
  printf (_ ("  wall time:            %.3f s\n"), r->wall_seconds);
  printf ("  %5s  %-32s %12s %8s %9s %7s\n", _ ("launch"), _ ("kernel"), _ ("cycles"), _ ("IPC"), _ ("simulated"),
          _ ("cluster"));
  for (guint i = 0; i < r->n_launches; i++)
    {
      const WsTbpointLaunch *L = &r->launches[i];
      printf ("  %5u  %-32.32s %12" G_GUINT64_FORMAT " %8.4f %9s %7d\n", L->index, L->kernel, L->cycles, L->ipc,
              L->simulated ? _ ("yes") : _ ("no"), L->cluster);
    }
  return WS_EXIT_OK;
}
