/* warpscope-cli tbpoint: TBPoint's analyses (seed 000) on their own:
 * launch clusters, homogeneous regions, the Markov-chain IPC variation, and
 * the validation of TBPoint and random sampling against full simulation. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <glib/gi18n.h>

#include "ws-cli.h"
#include "tbpoint/ws-tbpoint.h"

int ws_cli_cmd_tbpoint (WsCli *cli, int argc, char **argv);

static int
cmd_clusters (WsCli *cli, int argc, char **argv)
{
  g_autofree char *trace_path = NULL, *gpu_name = NULL;
  double threshold = 0.1;
  const GOptionEntry entries[] = { { "trace", 0, 0, G_OPTION_ARG_FILENAME, &trace_path, N_ ("Trace"), "TRACE" },
                                   { "threshold", 0, 0, G_OPTION_ARG_DOUBLE, &threshold,
                                     N_ ("Distance threshold (0.1)"), "SIGMA" },
                                   { "gpu", 0, 0, G_OPTION_ARG_STRING, &gpu_name,
                                     N_ ("Catalogue GPU: cluster on the L2 state each launch starts with too, as "
                                         "'simulate --sampling tbpoint' does"),
                                     "NAME" },
                                   { NULL } };
  if (!ws_cli_parse_options (cli, &argc, &argv, entries, "",
                             _ ("Clusters the launches of a trace on their eq. 2 feature vectors (seed 000 §III).")))
    return WS_EXIT_USAGE;
  if (trace_path == NULL || argc > 1)
    return ws_cli_fail (cli, WS_EXIT_USAGE, "%s",
                        _ ("usage: tbpoint clusters --trace TRACE [--threshold SIGMA] [--gpu NAME]"));
  int rc = WS_EXIT_OK;
  g_autoptr (WsTrace) trace = ws_cli_open_trace (cli, trace_path, &rc);
  if (trace == NULL)
    return rc;
  g_autoptr (WsGpu) gpu = NULL;
  if (gpu_name != NULL && (gpu = ws_cli_lookup_gpu (cli, gpu_name, &rc)) == NULL)
    return rc;
  g_autoptr (GError) error = NULL;
  g_autoptr (WsTbpointInter) in = ws_tbpoint_inter_launch_on_gpu (trace, gpu, threshold, &error);
  if (in == NULL)
    return ws_cli_fail (cli, WS_EXIT_FAILURE, "%s", error->message);
  g_autoptr (JsonBuilder) b = json_builder_new ();
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "threshold");
  json_builder_add_double_value (b, threshold);
  json_builder_set_member_name (b, "clusters");
  json_builder_begin_array (b);
  for (guint c = 0; c < in->n_clusters; c++)
    {
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "id");
      json_builder_add_int_value (b, c);
      json_builder_set_member_name (b, "representative");
      json_builder_add_int_value (b, in->representative[c]);
      json_builder_set_member_name (b, "weight");
      json_builder_add_double_value (b, in->weight[c]);
      json_builder_set_member_name (b, "launches");
      json_builder_begin_array (b);
      for (guint i = 0; i < in->n_launches; i++)
        if (in->cluster[i] == (int) c)
          json_builder_add_int_value (b, i);
      json_builder_end_array (b);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_set_member_name (b, "features");
  json_builder_begin_array (b);
  for (guint i = 0; i < in->n_launches; i++)
    {
      json_builder_begin_array (b);
      json_builder_add_double_value (b, in->features[i].thread_instructions);
      json_builder_add_double_value (b, in->features[i].warp_instructions);
      json_builder_add_double_value (b, in->features[i].memory_requests);
      json_builder_add_double_value (b, in->features[i].cov_tb_size);
      json_builder_end_array (b);
    }
  json_builder_end_array (b);
  if (in->l2_hit_rate != NULL)
    {
      json_builder_set_member_name (b, "l2_hit_rate");
      json_builder_begin_array (b);
      for (guint i = 0; i < in->n_launches; i++)
        json_builder_add_double_value (b, in->l2_hit_rate[i]);
      json_builder_end_array (b);
    }
  json_builder_end_object (b);
  if (cli->json)
    {
      g_autoptr (JsonNode) n = json_builder_get_root (b);
      ws_cli_print_json (cli, n);
      return WS_EXIT_OK;
    }
  printf (_ ("%u launches, %u clusters (threshold %g)\n"), in->n_launches, in->n_clusters, threshold);
  for (guint c = 0; c < in->n_clusters; c++)
    {
      printf (_ ("  cluster %u: weight %.4f, representative launch %u, launches"), c, in->weight[c],
              in->representative[c]);
      for (guint i = 0; i < in->n_launches; i++)
        if (in->cluster[i] == (int) c)
          {
            if (in->l2_hit_rate != NULL)
              printf (" %u (L2 %.0f %%)", i, 100 * in->l2_hit_rate[i]);
            else
              printf (" %u", i);
          }
      printf ("\n");
    }
  return WS_EXIT_OK;
}

static int
cmd_regions (WsCli *cli, int argc, char **argv)
{
  g_autofree char *trace_path = NULL, *gpu_name = NULL;
  double threshold = 0.2, vf = 0.3;
  int launch = 0;
  const GOptionEntry entries[] = {
    { "trace", 0, 0, G_OPTION_ARG_FILENAME, &trace_path, N_ ("Trace"), "TRACE" },
    { "gpu", 0, 0, G_OPTION_ARG_STRING, &gpu_name, N_ ("Catalogue GPU (sets the epoch size)"), "NAME" },
    { "launch", 0, 0, G_OPTION_ARG_INT, &launch, N_ ("Launch index (0)"), "N" },
    { "threshold", 0, 0, G_OPTION_ARG_DOUBLE, &threshold, N_ ("Epoch clustering threshold (0.2)"), "SIGMA" },
    { "vf-threshold", 0, 0, G_OPTION_ARG_DOUBLE, &vf, N_ ("Variation-factor threshold (0.3)"), "VF" },
    { NULL }
  };
  if (!ws_cli_parse_options (cli, &argc, &argv, entries, "",
                             _ ("Homogeneous regions of a launch on a GPU (seed 000 §IV-B1, Table III).")))
    return WS_EXIT_USAGE;
  if (trace_path == NULL || gpu_name == NULL || argc > 1 || launch < 0)
    return ws_cli_fail (
      cli, WS_EXIT_USAGE, "%s",
      _ ("usage: tbpoint regions --trace TRACE --gpu NAME [--launch N] [--threshold S] [--vf-threshold VF]"));
  g_autoptr (GError) error = NULL;
  int rc = WS_EXIT_OK;
  g_autoptr (WsTrace) trace = ws_cli_open_trace (cli, trace_path, &rc);
  if (trace == NULL)
    return rc;
  g_autoptr (WsGpu) gpu = ws_cli_lookup_gpu (cli, gpu_name, &rc);
  if (gpu == NULL)
    return rc;
  g_autoptr (WsTbpointRegions) r = ws_tbpoint_regions (trace, (guint) launch, gpu, threshold, vf, &error);
  if (r == NULL)
    return ws_cli_fail_error (cli, error);
  if (cli->json)
    {
      g_autoptr (JsonBuilder) b = json_builder_new ();
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "epoch_size");
      json_builder_add_int_value (b, r->epoch_size);
      json_builder_set_member_name (b, "epochs");
      json_builder_begin_array (b);
      for (guint e = 0; e < r->n_epochs; e++)
        {
          json_builder_begin_object (b);
          json_builder_set_member_name (b, "first_tb");
          json_builder_add_int_value (b, (int64_t) r->epochs[e].first_tb);
          json_builder_set_member_name (b, "stall_probability");
          json_builder_add_double_value (b, r->epochs[e].stall_probability);
          json_builder_set_member_name (b, "variation_factor");
          json_builder_add_double_value (b, r->epochs[e].variation_factor);
          json_builder_set_member_name (b, "cluster");
          json_builder_add_int_value (b, r->epoch_cluster[e]);
          json_builder_end_object (b);
        }
      json_builder_end_array (b);
      json_builder_set_member_name (b, "regions");
      json_builder_begin_array (b);
      for (guint i = 0; i < r->n_regions; i++)
        {
          json_builder_begin_object (b);
          json_builder_set_member_name (b, "id");
          json_builder_add_int_value (b, r->regions[i].id);
          json_builder_set_member_name (b, "start_tb");
          json_builder_add_int_value (b, (int64_t) r->regions[i].first_tb);
          json_builder_set_member_name (b, "end_tb");
          json_builder_add_int_value (b, (int64_t) r->regions[i].last_tb);
          json_builder_set_member_name (b, "stall_probability");
          json_builder_add_double_value (b, r->regions[i].stall_probability);
          json_builder_end_object (b);
        }
      json_builder_end_array (b);
      json_builder_end_object (b);
      g_autoptr (JsonNode) n = json_builder_get_root (b);
      ws_cli_print_json (cli, n);
      return WS_EXIT_OK;
    }
  printf (_ ("launch %d: %" PRIu64 " TBs, epochs of %u TBs (%u epochs), %u regions\n"), launch, r->n_tbs, r->epoch_size,
          r->n_epochs, r->n_regions);
  printf ("  %9s %10s %10s %18s\n", _ ("region"), _ ("start TB"), _ ("end TB"), _ ("stall probability"));
  for (guint i = 0; i < r->n_regions; i++)
    printf ("  %9d %10" G_GUINT64_FORMAT " %10" G_GUINT64_FORMAT " %18.4f\n", r->regions[i].id, r->regions[i].first_tb,
            r->regions[i].last_tb, r->regions[i].stall_probability);
  return WS_EXIT_OK;
}

static int
cmd_markov (WsCli *cli, int argc, char **argv)
{
  double p = -1, m = -1;
  int warps = 4, samples = 10000, seed = 1;
  const GOptionEntry entries[] = {
    { "p", 0, 0, G_OPTION_ARG_DOUBLE, &p, N_ ("Stall probability (memory instructions / instructions)"), "P" },
    { "m", 0, 0, G_OPTION_ARG_DOUBLE, &m, N_ ("Mean stall cycles M"), "CYCLES" },
    { "warps", 0, 0, G_OPTION_ARG_INT, &warps, N_ ("Warps per SM N (4)"), "N" },
    { "samples", 0, 0, G_OPTION_ARG_INT, &samples, N_ ("Monte Carlo samples (10000)"), "N" },
    { "seed", 0, 0, G_OPTION_ARG_INT, &seed, N_ ("Random seed (1)"), "N" },
    { NULL }
  };
  if (!ws_cli_parse_options (cli, &argc, &argv, entries, "",
                             _ ("IPC variation of a homogeneous interval: Markov chain (seed 000 eq. 3) with "
                                "Monte Carlo over Gaussian stall latencies (Lemma 4.1, Fig. 5).")))
    return WS_EXIT_USAGE;
  if (argc > 1 || p < 0 || p > 1 || m < 1 || warps < 1 || warps > 64 || samples < 1)
    return ws_cli_fail (cli, WS_EXIT_USAGE, "%s",
                        _ ("usage: tbpoint markov --p P (0..1) --m CYCLES (>= 1) [--warps N (1..64)] [--samples N]"));
  double *mv = g_new (double, warps);
  for (int i = 0; i < warps; i++)
    mv[i] = m;
  double ipc = ws_tbpoint_markov_ipc (p, mv, (guint) warps);
  double ipc_matrix = warps <= 8 ? ws_tbpoint_markov_ipc_matrix (p, mv, (guint) warps) : -1;
  g_free (mv);
  WsTbpointMarkovStats st;
  ws_tbpoint_markov_monte_carlo (p, m, (guint) warps, (guint) samples, (guint32) seed, &st);
  if (cli->json)
    {
      g_autoptr (JsonBuilder) b = json_builder_new ();
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "p");
      json_builder_add_double_value (b, p);
      json_builder_set_member_name (b, "m");
      json_builder_add_double_value (b, m);
      json_builder_set_member_name (b, "warps");
      json_builder_add_int_value (b, warps);
      json_builder_set_member_name (b, "ipc");
      json_builder_add_double_value (b, ipc);
      if (ipc_matrix >= 0)
        {
          json_builder_set_member_name (b, "ipc_matrix");
          json_builder_add_double_value (b, ipc_matrix);
        }
      json_builder_set_member_name (b, "samples");
      json_builder_add_int_value (b, st.samples);
      json_builder_set_member_name (b, "mean_ipc");
      json_builder_add_double_value (b, st.mean_ipc);
      json_builder_set_member_name (b, "min_ipc");
      json_builder_add_double_value (b, st.min_ipc);
      json_builder_set_member_name (b, "max_ipc");
      json_builder_add_double_value (b, st.max_ipc);
      json_builder_set_member_name (b, "within_10_percent");
      json_builder_add_double_value (b, st.within_10);
      json_builder_set_member_name (b, "histogram");
      json_builder_begin_array (b);
      for (int i = 0; i < 21; i++)
        json_builder_add_int_value (b, st.histogram[i]);
      json_builder_end_array (b);
      json_builder_end_object (b);
      g_autoptr (JsonNode) n = json_builder_get_root (b);
      ws_cli_print_json (cli, n);
      return WS_EXIT_OK;
    }
  printf (_ ("p %g, M %g, N %d: IPC %.6f"), p, m, warps, ipc);
  if (ipc_matrix >= 0)
    printf (_ (" (explicit 2^N chain: %.6f)"), ipc_matrix);
  printf ("\n");
  printf (_ ("Monte Carlo, %u samples of M ~ N(M, (0.1 M / 1.96)^2): mean IPC %.6f, range %.6f .. %.6f, "
             "%.2f %% within 10 %% of the mean\n"),
          st.samples, st.mean_ipc, st.min_ipc, st.max_ipc, 100 * st.within_10);
  return WS_EXIT_OK;
}

/* Seed 000 Fig. 9/10: overall IPC error against full simulation and total
 * sample size, TBPoint next to random sampling, over a set of traces. */
static int
cmd_validate (WsCli *cli, int argc, char **argv)
{
  g_autofree char *gpu_name = NULL, *scheduler = NULL;
  gboolean markdown = FALSE;
  const GOptionEntry entries[] = {
    { "gpu", 0, 0, G_OPTION_ARG_STRING, &gpu_name, N_ ("Catalogue GPU"), "NAME" },
    { "scheduler", 0, 0, G_OPTION_ARG_STRING, &scheduler, N_ ("gto (default) or rr"), "POLICY" },
    { "markdown", 0, 0, G_OPTION_ARG_NONE, &markdown, N_ ("Print a Markdown table"), NULL },
    { NULL }
  };
  if (!ws_cli_parse_options (cli, &argc, &argv, entries, "TRACE...",
                             _ ("TBPoint and random sampling (10 %) against full simulation (seed 000 Fig. 9/10).")))
    return WS_EXIT_USAGE;
  if (gpu_name == NULL || argc < 2)
    return ws_cli_fail (cli, WS_EXIT_USAGE, "%s", _ ("usage: tbpoint validate --gpu NAME [--scheduler P] TRACE..."));
  WsTbpointOptions o;
  ws_tbpoint_options_init (&o);
  if (scheduler && !ws_sim_scheduler_from_string (scheduler, &o.sim.scheduler))
    return ws_cli_fail (cli, WS_EXIT_USAGE, _ ("unknown scheduler '%s' (rr, gto)"), scheduler);
  int rc = WS_EXIT_OK;
  g_autoptr (WsGpu) gpu = ws_cli_lookup_gpu (cli, gpu_name, &rc);
  if (gpu == NULL)
    return rc;
  g_autoptr (JsonBuilder) b = json_builder_new ();
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "gpu");
  json_builder_add_string_value (b, gpu->name);
  json_builder_set_member_name (b, "programs");
  json_builder_begin_array (b);
  if (!cli->json)
    {
      if (markdown)
        printf ("| program | launches | TBs | warp insts | full IPC | TBPoint IPC | TBPoint error | TBPoint sample | "
                "random IPC | random error | random sample | full s | TBPoint s |\n"
                "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
      else
        printf ("%-16s %8s %8s %12s %9s %9s %8s %8s %9s %8s %8s %8s %8s\n", _ ("program"), _ ("launches"), _ ("TBs"),
                _ ("warp insts"), _ ("full IPC"), _ ("TBP IPC"), _ ("TBP err"), _ ("TBP smp"), _ ("rnd IPC"),
                _ ("rnd err"), _ ("rnd smp"), _ ("full s"), _ ("TBP s"));
    }
  g_autoptr (GArray) err_t = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr (GArray) err_r = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr (GArray) smp_t = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr (GArray) smp_r = g_array_new (FALSE, FALSE, sizeof (double));
  uint64_t total_insts = 0;
  double total_wall = 0;
  for (int i = 1; i < argc; i++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (WsTrace) trace = ws_cli_open_trace (cli, argv[i], &rc);
      if (trace == NULL)
        return rc;
      WsTbpointResult *res[3] = { NULL, NULL, NULL };
      for (int s = 0; s < 3; s++)
        {
          o.sampling = (WsSampling) s;
          res[s] = ws_tbpoint_simulate (trace, gpu, &o, &error);
          if (res[s] == NULL)
            {
              for (int k = 0; k < s; k++)
                ws_tbpoint_result_free (res[k]);
              g_prefix_error (&error, "%s: ", argv[i]);
              return ws_cli_fail_error (cli, error);
            }
        }
      WsTbpointResult *full = res[WS_SAMPLING_NONE], *tbp = res[WS_SAMPLING_TBPOINT], *rnd = res[WS_SAMPLING_RANDOM];
      double et = full->ipc > 0 ? ABS (tbp->ipc - full->ipc) / full->ipc : 0;
      double er = full->ipc > 0 ? ABS (rnd->ipc - full->ipc) / full->ipc : 0;
      g_array_append_val (err_t, et);
      g_array_append_val (err_r, er);
      g_array_append_val (smp_t, tbp->sample_fraction);
      g_array_append_val (smp_r, rnd->sample_fraction);
      total_insts += full->warp_instructions;
      total_wall += full->wall_seconds;
      uint64_t tbs = 0;
      for (guint l = 0; l < ws_trace_get_n_launches (trace); l++)
        tbs += ws_trace_get_launch (trace, l)->n_tbs;
      g_autofree char *base = g_path_get_basename (argv[i]);
      char *dot = strrchr (base, '.');
      if (dot)
        *dot = '\0';
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "program");
      json_builder_add_string_value (b, base);
      json_builder_set_member_name (b, "launches");
      json_builder_add_int_value (b, full->n_launches);
      json_builder_set_member_name (b, "tbs");
      json_builder_add_int_value (b, (int64_t) tbs);
      json_builder_set_member_name (b, "warp_instructions");
      json_builder_add_int_value (b, (int64_t) full->warp_instructions);
      json_builder_set_member_name (b, "full_ipc");
      json_builder_add_double_value (b, full->ipc);
      json_builder_set_member_name (b, "tbpoint_ipc");
      json_builder_add_double_value (b, tbp->ipc);
      json_builder_set_member_name (b, "tbpoint_error");
      json_builder_add_double_value (b, et);
      json_builder_set_member_name (b, "tbpoint_sample_fraction");
      json_builder_add_double_value (b, tbp->sample_fraction);
      json_builder_set_member_name (b, "tbpoint_clusters");
      json_builder_add_int_value (b, tbp->n_clusters);
      json_builder_set_member_name (b, "random_ipc");
      json_builder_add_double_value (b, rnd->ipc);
      json_builder_set_member_name (b, "random_error");
      json_builder_add_double_value (b, er);
      json_builder_set_member_name (b, "random_sample_fraction");
      json_builder_add_double_value (b, rnd->sample_fraction);
      json_builder_set_member_name (b, "full_wall_seconds");
      json_builder_add_double_value (b, full->wall_seconds);
      json_builder_set_member_name (b, "tbpoint_wall_seconds");
      json_builder_add_double_value (b, tbp->wall_seconds);
      json_builder_end_object (b);
      if (!cli->json)
        {
          if (markdown)
            printf ("| %s | %u | %" G_GUINT64_FORMAT " | %" G_GUINT64_FORMAT
                    " | %.4f | %.4f | %.2f %% | %.1f %% | %.4f | "
                    "%.2f %% | %.1f %% | %.2f | %.2f |\n",
                    base, full->n_launches, tbs, full->warp_instructions, full->ipc, tbp->ipc, 100 * et,
                    100 * tbp->sample_fraction, rnd->ipc, 100 * er, 100 * rnd->sample_fraction, full->wall_seconds,
                    tbp->wall_seconds);
          else
            printf ("%-16.16s %8u %8" G_GUINT64_FORMAT " %12" G_GUINT64_FORMAT " %9.4f %9.4f %7.2f%% %7.1f%% %9.4f "
                    "%7.2f%% %7.1f%% %8.2f %8.2f\n",
                    base, full->n_launches, tbs, full->warp_instructions, full->ipc, tbp->ipc, 100 * et,
                    100 * tbp->sample_fraction, rnd->ipc, 100 * er, 100 * rnd->sample_fraction, full->wall_seconds,
                    tbp->wall_seconds);
          fflush (stdout);
        }
      for (int s = 0; s < 3; s++)
        ws_tbpoint_result_free (res[s]);
    }
  json_builder_end_array (b);
  /* Geometric means; an exact 0 would zero the mean, so values are floored
   * at 0.01 %. */
  double gt = ws_tbpoint_geomean ((double *) err_t->data, err_t->len, 1e-4);
  double gr = ws_tbpoint_geomean ((double *) err_r->data, err_r->len, 1e-4);
  double st = ws_tbpoint_geomean ((double *) smp_t->data, smp_t->len, 1e-4);
  double sr = ws_tbpoint_geomean ((double *) smp_r->data, smp_r->len, 1e-4);
  double speed = total_wall > 0 ? (double) total_insts / total_wall : 0;
  json_builder_set_member_name (b, "geomean_tbpoint_error");
  json_builder_add_double_value (b, gt);
  json_builder_set_member_name (b, "geomean_tbpoint_sample_fraction");
  json_builder_add_double_value (b, st);
  json_builder_set_member_name (b, "geomean_random_error");
  json_builder_add_double_value (b, gr);
  json_builder_set_member_name (b, "geomean_random_sample_fraction");
  json_builder_add_double_value (b, sr);
  json_builder_set_member_name (b, "full_warp_instructions_per_second");
  json_builder_add_double_value (b, speed);
  json_builder_end_object (b);
  if (cli->json)
    {
      g_autoptr (JsonNode) node = json_builder_get_root (b);
      ws_cli_print_json (cli, node);
      return WS_EXIT_OK;
    }
  if (markdown)
    printf ("| **geometric mean** | | | | | | **%.2f %%** | **%.1f %%** | | **%.2f %%** | **%.1f %%** | | |\n",
            100 * gt, 100 * st, 100 * gr, 100 * sr);
  else
    printf (_ ("geometric mean: TBPoint error %.2f %%, sample %.1f %%; random error %.2f %%, sample %.1f %%\n"),
            100 * gt, 100 * st, 100 * gr, 100 * sr);
  printf (_ ("full simulation speed: %.0f warp instructions per second\n"), speed);
  return WS_EXIT_OK;
}

static int
cmd_view (WsCli *cli, int argc, char **argv)
{
  g_autofree char *trace_path = NULL, *gpu_name = NULL, *output = NULL, *plot = NULL, *sched = NULL;
  int launch = 0;
  const GOptionEntry entries[] = {
    { "trace", 0, 0, G_OPTION_ARG_FILENAME, &trace_path, N_ ("Trace"), "TRACE" },
    { "gpu", 0, 0, G_OPTION_ARG_STRING, &gpu_name, N_ ("Catalogue GPU"), "NAME" },
    { "launch", 0, 0, G_OPTION_ARG_INT, &launch, N_ ("Launch index (0)"), "N" },
    { "scheduler", 0, 0, G_OPTION_ARG_STRING, &sched, N_ ("Warp scheduler: rr (default) or gto"), "POLICY" },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output, N_ ("Write the view as JSON (the input of plot tbpoint)"),
      "FILE" },
    { "plot", 0, 0, G_OPTION_ARG_FILENAME, &plot, N_ ("Draw the chart to FILE (.png, .svg, .pdf or .csv)"), "FILE" },
    { NULL }
  };
  if (!ws_cli_parse_options (cli, &argc, &argv, entries, "",
                             _ ("One launch simulated in full and with TBPoint: TB sizes, homogeneous regions, "
                                "simulated and skipped TBs, error and sample size (seed 000 Fig. 8).")))
    return WS_EXIT_USAGE;
  if (trace_path == NULL || gpu_name == NULL || argc > 1 || launch < 0)
    return ws_cli_fail (cli, WS_EXIT_USAGE, "%s",
                        _ ("usage: tbpoint view --trace TRACE --gpu NAME [--launch N] [--scheduler rr|gto] "
                           "[-o VIEW.json] [--plot FILE]"));
  WsTbpointOptions o;
  ws_tbpoint_options_init (&o);
  if (sched != NULL && !ws_sim_scheduler_from_string (sched, &o.sim.scheduler))
    return ws_cli_fail (cli, WS_EXIT_USAGE, _ ("unknown scheduler '%s' (rr, gto)"), sched);
  WsChartFormat format = WS_CHART_FORMAT_PNG;
  if (plot != NULL && !ws_chart_format_from_path (plot, &format))
    return ws_cli_fail (cli, WS_EXIT_USAGE, _ ("cannot tell the format of '%s': use .png, .svg, .pdf or .csv"), plot);
  g_autoptr (GError) error = NULL;
  int rc = WS_EXIT_OK;
  g_autoptr (WsTrace) trace = ws_cli_open_trace (cli, trace_path, &rc);
  if (trace == NULL)
    return rc;
  g_autoptr (WsGpu) gpu = ws_cli_lookup_gpu (cli, gpu_name, &rc);
  if (gpu == NULL)
    return rc;
  g_autoptr (WsTbpointView) view = ws_tbpoint_view_compute (trace, (guint) launch, gpu, &o, &error);
  if (view == NULL)
    return ws_cli_fail_error (cli, error);
  g_autoptr (JsonNode) node = ws_tbpoint_view_to_json (view);
  if (output != NULL)
    {
      g_autoptr (JsonGenerator) gen = json_generator_new ();
      json_generator_set_root (gen, node);
      if (!json_generator_to_file (gen, output, &error))
        return ws_cli_fail (cli, WS_EXIT_FAILURE, _ ("cannot write %s: %s"), output, error->message);
    }
  if (plot != NULL)
    {
      WsChart *chart = ws_tbpoint_view_to_chart (view);
      gboolean ok = ws_chart_export (chart, plot, format, 900, 560, &error);
      ws_chart_free (chart);
      if (!ok)
        return ws_cli_fail_error (cli, error);
    }
  if (cli->json)
    {
      ws_cli_print_json (cli, node);
      return WS_EXIT_OK;
    }
  printf (_ ("launch %u (%s) on %s: %" PRIu64 " TBs, homogeneous regions: %u\n"), view->launch, view->kernel, view->gpu,
          view->n_tbs, view->n_regions);
  printf (_ ("  full simulation %" PRIu64 " cycles (%.2f s), TBPoint %" PRIu64 " cycles (%.2f s)\n"), view->full_cycles,
          view->full_wall_seconds, view->sampled_cycles, view->sampled_wall_seconds);
  printf (_ ("  error %.2f %%, sample %.1f %% of warp instructions, %" PRIu64 " of %" PRIu64 " TBs simulated\n"),
          100 * view->error, 100 * view->sample_fraction, view->simulated_tbs, view->n_tbs);
  return WS_EXIT_OK;
}

int
ws_cli_cmd_tbpoint (WsCli *cli, int argc, char **argv)
{
  static const struct {
    const char *name;
    int (*func) (WsCli *, int, char **);
  } subs[] = {
    { "clusters", cmd_clusters }, { "regions", cmd_regions }, { "markov", cmd_markov },
    { "validate", cmd_validate }, { "view", cmd_view },
  };
  if (argc < 2)
    return ws_cli_fail (cli, WS_EXIT_USAGE, "%s", _ ("usage: tbpoint clusters|regions|markov|validate|view ..."));
  for (guint i = 0; i < G_N_ELEMENTS (subs); i++)
    if (strcmp (argv[1], subs[i].name) == 0)
      return subs[i].func (cli, argc - 1, argv + 1);
  return ws_cli_fail (cli, WS_EXIT_USAGE,
                      _ ("unknown tbpoint command '%s' (clusters, regions, markov, validate, view)"), argv[1]);
}
