/* predict-bench: predictions per second of every predictor plugin that
 * reads traces, on the traces given (or on a synthetic trace it writes).
 * Prints numbers; it is not a test.
 *
 *   predict-bench [--gpu NAME] [--seconds S] [TRACE...]
 *
 * For each trace and plugin it reports predictions per second (one
 * prediction = one launch)
 *  - model: in this process with the per-launch analysis (cache
 *    simulation, latencies, representative warp) already in memory, as
 *    `warpscope-cli predict --model all` shares it between models;
 *  - warm: with the analysis read from its file in the analysis cache
 *    (core/interval/ws-analysis-cache.c), as any later prediction of the
 *    same trace on the same GPU, in any process;
 *  - cold: with an empty cache, so the analysis is computed (once per
 *    distinct launch) and stored, as the first prediction of a trace;
 *  - worker: in the plugin's supervised worker processes, as a plugin from
 *    the user's plugin path runs, the analysis from the cache file, and the
 *    isolation's overhead per prediction (worker against warm);
 * and, once per trace, how many analyses per second core computes.  With
 * --vs-sim, a second table per trace and plugin: the seconds of one
 * prediction of every launch (model, warm, cold) next to the detailed
 * simulator's time for the same launches, every thread block simulated and
 * with TBPoint sampling, the physical bound's count pass over the trace's
 * distinct launches (part of a trace's first prediction, once for every
 * GPU), the speed-ups of warm and cold over the full simulation and of the
 * first prediction (cold + bound), whether they reach issue 18's aims (100x
 * warm, 10x cold), and
 * the sampling error: the largest relative difference of the predicted
 * cycles with the sampled analysis (launches of more than 8 waves) against
 * every block analysed (WARPSCOPE_ANALYSIS_SAMPLE=0).
 * Last,
 * for plugins that read analytic kernels (seed 004 Listing 5's saxpy2),
 * predictions per second in the plugin's long-lived worker and in process,
 * and the worker's overhead per prediction.
 * GPUs come from the catalogue folder db/catalogue/gpu (JSON files); default
 * "GTX 970".  Plugins are found as `warpscope-cli` finds them (run from the
 * build tree, or set WARPSCOPE_PLUGIN_PATH). */
#include <glib.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <stdio.h>
#include <math.h>
#include <string.h>

#include "ws-config.h"
#include "predict/ws-predict.h"
#include "interval/ws-interval.h"
#include "bounds/ws-bounds.h"
#include "trace/ws-trace.h"
#include "trace/ws-trace-writer.h"
#include "ptx/ws-ptx.h"
#include "sim/ws-sim.h"
#include "tbpoint/ws-tbpoint.h"

static WsGpu *
load_catalogue_gpu (const char *name, GError **error)
{
  g_autofree char *dir = g_build_filename (WS_SOURCE_DIR, "db", "catalogue", "gpu", NULL);
  g_autoptr (GDir) d = g_dir_open (dir, 0, error);
  if (d == NULL)
    return NULL;
  const char *f;
  while ((f = g_dir_read_name (d)) != NULL)
    {
      if (!g_str_has_suffix (f, ".json"))
        continue;
      g_autofree char *path = g_build_filename (dir, f, NULL);
      g_autoptr (JsonParser) parser = json_parser_new ();
      if (!json_parser_load_from_file (parser, path, NULL))
        continue;
      JsonNode *root = json_parser_get_root (parser);
      if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
        continue;
      const char *n = json_object_get_string_member_with_default (json_node_get_object (root), "name", "");
      if (g_ascii_strcasecmp (n, name) == 0)
        return ws_gpu_from_json (root, error);
    }
  g_set_error (error, WS_ERROR, WS_ERROR_NOT_FOUND, "no GPU named '%s' in %s", name, dir);
  return NULL;
}

/* A synthetic launch: 240 blocks of 8 warps; each warp loops 16 times over
 * a coalesced load, a strided load (8 lines), 6 dependent FP32 operations
 * and a coalesced store. */
static char *
write_synthetic (const char *dir)
{
  enum { LD_A, LD_B, FMA0, N_FMA = 6, ST = FMA0 + N_FMA, N_INSTS };
  g_autofree char *path = g_build_filename (dir, "predict-bench.wstrace", NULL);
  g_autoptr (GError) error = NULL;
  WsTraceWriter *w = ws_trace_writer_new (path, &error);
  if (w == NULL)
    g_error ("%s", error->message);
  WsTraceStaticInst insts[N_INSTS] = { 0 };
  for (int i = 0; i < N_INSTS; i++)
    {
      insts[i].ptx_line = 10 + i;
      insts[i].dst[0] = insts[i].dst[1] = 0xffff;
      for (int k = 0; k < 4; k++)
        insts[i].src[k] = 0xffff;
    }
  for (int i = LD_A; i <= LD_B; i++)
    {
      insts[i].op = WS_OP_LD;
      insts[i].opclass = WS_OPCLASS_LD;
      insts[i].space = WS_SPACE_GLOBAL;
      insts[i].access_size = 4;
      insts[i].n_dst = 1;
      insts[i].dst[0] = (uint16_t) (1 + i);
    }
  for (int i = 0; i < N_FMA; i++)
    {
      WsTraceStaticInst *s = &insts[FMA0 + i];
      s->op = WS_OP_FMA;
      s->opclass = WS_OPCLASS_FP32;
      s->n_dst = 1;
      s->dst[0] = (uint16_t) (10 + i);
      s->n_src = 2;
      s->src[0] = i == 0 ? 1 : (uint16_t) (9 + i);
      s->src[1] = 2;
    }
  insts[ST].op = WS_OP_ST;
  insts[ST].opclass = WS_OPCLASS_ST;
  insts[ST].space = WS_SPACE_GLOBAL;
  insts[ST].access_size = 4;
  insts[ST].n_src = 1;
  insts[ST].src[0] = 10 + N_FMA - 1;
  WsTraceKernelDesc kd = { .name = "bench_kernel", .n_insts = N_INSTS, .insts = insts, .regs_per_thread = 32 };
  uint32_t kernel = ws_trace_writer_add_kernel (w, &kd);
  const uint32_t blocks = 240, warps = 8, iters = 16;
  const uint32_t grid[3] = { blocks, 1, 1 }, block[3] = { warps * 32, 1, 1 };
  ws_trace_writer_begin_launch (w, kernel, grid, block, 0);
  for (uint64_t b = 0; b < blocks; b++)
    {
      WsTraceCta *cta = ws_trace_cta_begin (w, b, warps);
      for (uint32_t wp = 0; wp < warps; wp++)
        for (uint32_t it = 0; it < iters; it++)
          {
            uint64_t gw = (b * warps + wp) * iters + it, a[32], s[32];
            for (int l = 0; l < 32; l++)
              {
                a[l] = 0x7e0000000000ull + gw * 128 + 4 * l;
                s[l] = 0x7f0000000000ull + (gw * 8 + l / 4) * 128 + 4 * (l % 4);
              }
            ws_trace_cta_mem (cta, wp, LD_A, 0xffffffffu, WS_SPACE_GLOBAL, a);
            ws_trace_cta_mem (cta, wp, LD_B, 0xffffffffu, WS_SPACE_GLOBAL, s);
            for (int i = 0; i < N_FMA; i++)
              ws_trace_cta_inst (cta, wp, FMA0 + i, 0xffffffffu);
            ws_trace_cta_mem (cta, wp, ST, 0xffffffffu, WS_SPACE_GLOBAL, a);
          }
      ws_trace_cta_end (cta);
    }
  if (!ws_trace_writer_end_launch (w, &error) || !ws_trace_writer_close (w, &error))
    g_error ("%s", error->message);
  return g_steal_pointer (&path);
}

/* Runs @fn until @seconds have passed (at least once); returns calls per second. */
typedef gboolean (*BenchFn) (gpointer data);

static double
rate (BenchFn fn, gpointer data, double seconds, guint *calls)
{
  gint64 start = g_get_monotonic_time ();
  guint n = 0;
  double elapsed;
  do
    {
      if (!fn (data))
        return -1;
      n++;
      elapsed = (g_get_monotonic_time () - start) / 1e6;
    }
  while (elapsed < seconds);
  if (calls)
    *calls = n;
  return n / elapsed;
}

typedef struct {
  WsTrace *trace;
  const WsGpu *gpu;
  WsPredictorPlugin *plugin;
  const WsAnalyticKernel *kernel; /* analytic predictions */
  WsLaunchAnalysis **analyses;    /* per launch, or NULL for cold runs */
  guint n_launches;
} Job;

static gboolean
run_analysis (gpointer data)
{
  Job *j = data;
  for (guint l = 0; l < j->n_launches; l++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (WsLaunchAnalysis) a = ws_launch_analysis_new (j->trace, l, j->gpu, &error);
      if (a == NULL)
        {
          g_printerr ("analysis of launch %u: %s\n", l, error->message);
          return FALSE;
        }
    }
  return TRUE;
}

static gboolean
run_analytic (gpointer data)
{
  Job *j = data;
  g_autoptr (GError) error = NULL;
  g_autoptr (WsPrediction) p = ws_predict_analytic (j->plugin, j->gpu, j->kernel, NULL, &error);
  if (p == NULL)
    g_printerr ("%s: %s\n", j->plugin->name, error->message);
  return p != NULL;
}

static gboolean
run_predictions (gpointer data)
{
  Job *j = data;
  for (guint l = 0; l < j->n_launches; l++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (WsPrediction)
        p = ws_predict_trace (j->plugin, j->gpu, j->trace, l, j->analyses ? j->analyses[l] : NULL, NULL, &error);
      if (p == NULL)
        {
          g_printerr ("%s on launch %u: %s\n", j->plugin->name, l, error->message);
          return FALSE;
        }
    }
  return TRUE;
}

/* Seconds to simulate every launch of @trace once on @gpu, every TB or
 * with TBPoint sampling; negative on error. */
static double
simulate_trace (WsTrace *trace, const WsGpu *gpu, gboolean tbpoint)
{
  gint64 start = g_get_monotonic_time ();
  for (guint l = 0; l < ws_trace_get_n_launches (trace); l++)
    {
      g_autoptr (GError) error = NULL;
      WsTbpointOptions options;
      ws_tbpoint_options_init (&options);
      options.sampling = tbpoint ? WS_SAMPLING_TBPOINT : WS_SAMPLING_NONE;
      g_autoptr (WsSim) sim = ws_sim_new (gpu, &options.sim, &error);
      WsSimLaunchStats stats = { 0 };
      if (sim == NULL || !ws_tbpoint_simulate_launch (sim, trace, l, &options, &stats, NULL, NULL, &error))
        {
          g_printerr ("simulating launch %u: %s\n", l, error->message);
          return -1;
        }
      ws_sim_launch_stats_clear (&stats);
    }
  return (g_get_monotonic_time () - start) / 1e6;
}

typedef struct {
  char *trace, *plugin;
  double model, warm, cold, full, tbpoint; /* seconds for all launches of the trace */
  double bound;                            /* the bound's count pass, once per trace */
  double sample_error;                     /* largest |sampled - exact| / exact over the launches, % */
} VsSim;

/* Where the analysis cache goes for the next measurement ("0": off). */
static void
use_cache (const char *folder)
{
  g_setenv ("WARPSCOPE_ANALYSIS_CACHE", folder, TRUE);
}

/* Cold: every run of the predictions gets an empty cache folder of its
 * own, so the analysis is computed (once per distinct launch) and stored,
 * as on a user's first prediction of a trace. */
typedef struct {
  Job *job;
  const char *root;
  guint runs;
} ColdJob;

static gboolean
run_cold (gpointer data)
{
  ColdJob *c = data;
  g_autofree char *folder = g_strdup_printf ("%s/cold-%u", c->root, c->runs++);
  use_cache (folder);
  return run_predictions (c->job);
}

/* Cycles predicted by @plugin for every launch, with the analysis as the
 * environment says; NULL on error. */
static double *
predicted_cycles (Job *j)
{
  double *cycles = g_new0 (double, MAX (j->n_launches, 1));
  for (guint l = 0; l < j->n_launches; l++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (WsPrediction) p = ws_predict_trace (j->plugin, j->gpu, j->trace, l, NULL, NULL, &error);
      if (p == NULL)
        {
          g_printerr ("%s on launch %u: %s\n", j->plugin->name, l, error->message);
          g_free (cycles);
          return NULL;
        }
      cycles[l] = p->cycles;
    }
  return cycles;
}

/* The largest relative difference (%) between the predictions with the
 * sampled analysis and with every block analysed; negative on error. */
static double
sampling_error (Job *j)
{
  use_cache ("0");
  g_autofree double *sampled = predicted_cycles (j);
  g_setenv ("WARPSCOPE_ANALYSIS_SAMPLE", "0", TRUE);
  g_autofree double *exact = predicted_cycles (j);
  g_unsetenv ("WARPSCOPE_ANALYSIS_SAMPLE");
  if (sampled == NULL || exact == NULL)
    return -1;
  double worst = 0;
  for (guint l = 0; l < j->n_launches; l++)
    if (exact[l] > 0)
      worst = MAX (worst, 100 * fabs (sampled[l] - exact[l]) / exact[l]);
  return worst;
}

/* Seconds the physical bound's count pass (core/bounds) takes over the
 * distinct launches of @trace: the rest of a first prediction's cost, once
 * per trace whatever the GPU (the counts are then kept beside the trace). */
static double
bound_seconds (WsTrace *trace)
{
  g_autoptr (GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  gint64 start = g_get_monotonic_time ();
  for (guint l = 0; l < ws_trace_get_n_launches (trace); l++)
    {
      char *digest = ws_trace_launch_digest (trace, l);
      if (!g_hash_table_add (seen, digest))
        continue;
      WsLaunchCounts counts;
      g_autoptr (GError) error = NULL;
      if (!ws_launch_counts_compute (trace, l, &counts, &error))
        {
          g_printerr ("counts of launch %u: %s\n", l, error->message);
          return -1;
        }
    }
  return (g_get_monotonic_time () - start) / 1e6;
}

/* Removes the bench's cache folders. */
static void
remove_tree (const char *path)
{
  if (g_file_test (path, G_FILE_TEST_IS_DIR))
    {
      g_autoptr (GDir) d = g_dir_open (path, 0, NULL);
      const char *n;
      while (d != NULL && (n = g_dir_read_name (d)) != NULL)
        {
          g_autofree char *child = g_build_filename (path, n, NULL);
          remove_tree (child);
        }
    }
  g_remove (path);
}

int
main (int argc, char **argv)
{
  g_autofree char *gpu_name = NULL;
  double seconds = 0.5;
  g_auto (GStrv) traces = NULL;
  gboolean vs_sim = FALSE;
  const GOptionEntry entries[] = {
    { "vs-sim", 0, 0, G_OPTION_ARG_NONE, &vs_sim, "Also time the detailed simulator (full and TBPoint) per trace",
      NULL },
    { "gpu", 0, 0, G_OPTION_ARG_STRING, &gpu_name, "Catalogue GPU (default GTX 970)", "NAME" },
    { "seconds", 0, 0, G_OPTION_ARG_DOUBLE, &seconds, "Time per measurement (default 0.5)", "S" },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &traces, NULL, "TRACE..." },
    { NULL }
  };
  g_autoptr (GOptionContext) oc = g_option_context_new ("[TRACE...] - predictions per second per plugin");
  g_option_context_add_main_entries (oc, entries, NULL);
  g_autoptr (GError) error = NULL;
  if (!g_option_context_parse (oc, &argc, &argv, &error))
    {
      g_printerr ("%s\n", error->message);
      return 2;
    }
  g_autoptr (WsGpu) gpu = load_catalogue_gpu (gpu_name ? gpu_name : "GTX 970", &error);
  if (gpu == NULL)
    {
      g_printerr ("%s\n", error->message);
      return 2;
    }
  g_autofree char *tmp = NULL, *synthetic = NULL;
  if (traces == NULL || traces[0] == NULL)
    {
      tmp = g_dir_make_tmp ("ws-predict-bench-XXXXXX", NULL);
      synthetic = write_synthetic (tmp);
      g_strfreev (traces);
      traces = g_new0 (char *, 2);
      traces[0] = g_strdup (synthetic);
    }

  g_autoptr (GPtrArray) plugins = ws_predictor_scan ();
  g_autofree char *caches = g_dir_make_tmp ("ws-predict-bench-cache-XXXXXX", NULL);
  printf ("GPU: %s; %.2f s per measurement; one prediction = one launch\n", gpu->name, seconds);
  printf ("model: analysis in memory; warm: analysis read from its cache file; cold: computed and stored "
          "(empty cache); worker: the plugin in its supervised worker, analysis from the cache file\n");
  printf ("%-28s %-10s %8s %14s %14s %14s %14s %14s\n", "trace", "plugin", "launches", "model pred/s", "warm pred/s",
          "cold pred/s", "worker pred/s", "isolation us");
  int rc = 0;
  g_autoptr (GArray) rows = g_array_new (FALSE, TRUE, sizeof (VsSim));
  for (guint t = 0; traces[t] != NULL; t++)
    {
      double full = -1, sampled = -1, bound = -1;
      g_autoptr (WsTrace) trace = ws_trace_open (traces[t], &error);
      if (trace == NULL)
        {
          g_printerr ("%s\n", error->message);
          g_clear_error (&error);
          rc = 1;
          continue;
        }
      g_autofree char *base = g_path_get_basename (traces[t]);
      guint n = ws_trace_get_n_launches (trace);
      Job job = { trace, gpu, NULL, NULL, NULL, n };
      guint calls = 0;
      /* one folder for every trace: files are named by content, and the
       * plugin workers keep the environment they were started with */
      g_autofree char *warm_cache = g_build_filename (caches, "warm", NULL);
      use_cache ("0");
      double arate = rate (run_analysis, &job, seconds, &calls);
      if (arate < 0)
        {
          rc = 1;
          continue;
        }
      printf ("%-28s %-10s %8u %14s %14.1f\n", base, "(analysis)", n, "", arate * n);
      if (vs_sim)
        {
          bound = bound_seconds (trace);
          full = simulate_trace (trace, gpu, FALSE);
          sampled = full < 0 ? -1 : simulate_trace (trace, gpu, TRUE);
          if (sampled < 0)
            rc = 1;
        }
      /* The bound's counts (every prediction checks against the bound) are
       * kept in this process from here on, as they are on disk after a
       * trace's first prediction: the columns below time the models. */
      for (guint l = 0; l < n; l++)
        {
          WsLaunchCounts counts;
          ws_launch_counts_cached (trace, l, &counts, NULL);
        }
      WsLaunchAnalysis **analyses = g_new0 (WsLaunchAnalysis *, MAX (n, 1));
      for (guint l = 0; l < n; l++)
        analyses[l] = ws_launch_analysis_new (trace, l, gpu, NULL);
      for (guint i = 0; i < plugins->len; i++)
        {
          WsPredictorPlugin *p = plugins->pdata[i];
          if (!p->ok || !p->descriptor->supports_trace)
            continue;
          gboolean was_in_process = p->in_process;
          job.plugin = p;
          job.analyses = analyses;
          p->in_process = TRUE;
          double model = rate (run_predictions, &job, seconds, NULL);
          job.analyses = NULL;
          g_autofree char *cold_root = g_strdup_printf ("%s/cold-%u-%u", caches, t, i);
          ColdJob cj = { &job, cold_root, 0 };
          double cold = model < 0 ? -1 : rate (run_cold, &cj, seconds, NULL);
          use_cache (warm_cache);
          double warm = cold < 0 || !run_predictions (&job) ? -1 : rate (run_predictions, &job, seconds, NULL);
          p->in_process = FALSE;
          double worker = warm < 0 ? -1 : rate (run_predictions, &job, seconds, NULL);
          p->in_process = TRUE;
          double error_pct = worker < 0 ? -1 : sampling_error (&job);
          p->in_process = was_in_process;
          remove_tree (cold_root);
          if (model < 0 || warm < 0 || cold < 0 || worker < 0 || error_pct < 0)
            {
              rc = 1;
              continue;
            }
          printf ("%-28s %-10s %8u %14.1f %14.1f %14.1f %14.1f %14.1f\n", base, p->name, n, model * n, warm * n,
                  cold * n, worker * n, 1e6 * (1 / (worker * n) - 1 / (warm * n)));
          if (sampled >= 0)
            {
              VsSim row = { g_strdup (base), g_strdup (p->name), 1 / model, 1 / warm, 1 / cold, full, sampled,
                            bound,           error_pct };
              g_array_append_val (rows, row);
            }
        }
      for (guint l = 0; l < n; l++)
        ws_launch_analysis_free (analyses[l]);
      g_free (analyses);
    }
  if (rows->len > 0)
    {
      printf ("\n%-24s %-8s %10s %10s %10s %10s %10s %10s %8s %8s %8s %8s  %s\n", "trace (all launches)", "plugin",
              "model s", "warm s", "cold s", "bound s", "full sim s", "TBPoint s", "x warm", "x cold", "x first",
              "sample %", "aim (100x warm, 10x cold)");
      for (guint i = 0; i < rows->len; i++)
        {
          VsSim *r = &g_array_index (rows, VsSim, i);
          double xw = r->full / r->warm, xc = r->full / r->cold, xf = r->full / (r->cold + r->bound);
          printf ("%-24s %-8s %10.4g %10.4g %10.4g %10.4g %10.4g %10.4g %8.1f %8.1f %8.1f %8.2f  %s\n", r->trace,
                  r->plugin, r->model, r->warm, r->cold, r->bound, r->full, r->tbpoint, xw, xc, xf, r->sample_error,
                  xw >= 100 && xc >= 10 ? "met" : "NOT met");
          g_free (r->trace);
          g_free (r->plugin);
        }
    }
  /* Analytic kernels: the plugin's long-lived worker against in process. */
  g_autoptr (WsAnalyticKernel) saxpy2 = ws_analytic_kernel_new ("saxpy2");
  const struct {
    const char *name;
    double v;
  } listing5[] = {
    { "grid_size", 4096 }, { "block_size", 256 },    { "cuda_core_instructions", 27 }, { "issued_instructions", 30 },
    { "gmem_bytes", 384 }, { "latency_bound", 966 }, { "occupancy_warps", 64 },        { "lambda", 0.703787 },
  };
  for (guint i = 0; i < G_N_ELEMENTS (listing5); i++)
    ws_analytic_kernel_set (saxpy2, listing5[i].name, listing5[i].v);
  printf ("\n%-28s %-10s %14s %14s %14s\n", "analytic kernel", "plugin", "worker pred/s", "in-proc pred/s",
          "isolation us");
  for (guint i = 0; i < plugins->len; i++)
    {
      WsPredictorPlugin *p = plugins->pdata[i];
      if (!p->ok || !p->descriptor->supports_analytic)
        continue;
      Job job = { NULL, gpu, p, saxpy2, NULL, 0 };
      gboolean was_in_process = p->in_process;
      p->in_process = FALSE;
      double worker = rate (run_analytic, &job, seconds, NULL);
      p->in_process = TRUE;
      double inproc = worker < 0 ? -1 : rate (run_analytic, &job, seconds, NULL);
      p->in_process = was_in_process;
      if (worker < 0 || inproc < 0)
        {
          rc = 1;
          continue;
        }
      printf ("%-28s %-10s %14.1f %14.1f %14.1f\n", "saxpy2 (Listing 5)", p->name, worker, inproc,
              1e6 * (1 / worker - 1 / inproc));
    }
  remove_tree (caches);
  if (synthetic != NULL)
    remove_tree (tmp);
  return rc;
}
