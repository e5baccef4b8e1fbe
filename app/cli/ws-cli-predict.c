/* warpscope-cli predict: kernel time, IPC and CPI stack from a predictor plugin. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <glib/gi18n.h>

#include "ws-cli.h"
#include "predict/ws-predict.h"
#include "interval/ws-interval.h"
#include "trace/ws-trace.h"
#include "measure/ws-measure.h"
#include "launchcost/ws-launch-cost.h"

int ws_cli_cmd_predict (WsCli *cli, int argc, char **argv);

void
ws_cli_plugin_isolation (gboolean in_process, double timeout)
{
  /* Read by the plugin loader; set before any plugin is loaded or thread
   * started. */
  if (in_process)
    g_setenv ("WARPSCOPE_PLUGIN_IN_PROCESS", "1", TRUE);
  if (timeout > 0)
    {
      char text[G_ASCII_DTOSTR_BUF_SIZE];
      g_setenv ("WARPSCOPE_PLUGIN_TIMEOUT", g_ascii_dtostr (text, sizeof text, timeout), TRUE);
    }
}

GHashTable *
ws_cli_plugin_options (WsCli *cli, char **list, GPtrArray *plugins, const char *default_plugin, int *rc)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GHashTable) per_plugin = ws_predictor_options_parse ((const char *const *) list, default_plugin, &error);
  if (per_plugin == NULL)
    {
      *rc = ws_cli_fail (cli, WS_EXIT_USAGE, "%s", error->message);
      return NULL;
    }
  GHashTableIter it;
  gpointer name, options;
  g_hash_table_iter_init (&it, per_plugin);
  while (g_hash_table_iter_next (&it, &name, &options))
    {
      WsPredictorPlugin *p = NULL;
      for (guint i = 0; i < plugins->len && p == NULL; i++)
        if (g_ascii_strcasecmp (((WsPredictorPlugin *) plugins->pdata[i])->name, name) == 0)
          p = plugins->pdata[i];
      if (p == NULL)
        {
          g_autoptr (GString) used = g_string_new (NULL);
          for (guint i = 0; i < plugins->len; i++)
            g_string_append_printf (used, "%s%s", i ? ", " : "", ((WsPredictorPlugin *) plugins->pdata[i])->name);
          *rc = ws_cli_fail (cli, WS_EXIT_USAGE,
                             _ ("--option %s.…: this command does not run predictor '%s' "
                                "(it runs %s)"),
                             (char *) name, (char *) name, used->str);
          return NULL;
        }
      if (!ws_predictor_check_options (p, options, &error))
        {
          *rc = ws_cli_fail (cli, WS_EXIT_USAGE, "--option: %s", error->message);
          return NULL;
        }
    }
  return g_steal_pointer (&per_plugin);
}

/* A user's plugin that hides one of Warpscope's own is worth a line. */
static void
ws_cli_report_shadowing (WsCli *cli, const WsPredictorPlugin *plugin)
{
  if (plugin->shadows != NULL && !plugin->builtin)
    ws_cli_info (cli,
                 _ ("note: predictor '%s' is %s, which shadows Warpscope's plugin %s "
                    "('warpscope-cli plugins list' shows both)"),
                 plugin->name, plugin->path, plugin->shadows);
}

/* The launch cost of a predicted launch issued back to back with the
 * others on one stream (core/launchcost); 0 when the prediction has no
 * usable time or the catalogue no launch data. */
static double
launch_overhead (const WsGpu *gpu, const WsPrediction *p)
{
  WsLaunchCost cost;
  if (!isfinite (p->seconds) || p->seconds < 0 || !ws_launch_cost (gpu, WS_LAUNCH_MODE_STREAM, p->seconds, &cost))
    return 0;
  return cost.overhead_seconds;
}

/* {"model":…, "gpu":…, "launches":[…, "launch_overhead_seconds":…], "total_seconds":…,
 *  "launch_mode":"stream", "launch_overhead_seconds":…, "program_seconds":…,
 *  "errors":[{"index":…, "error":…}] (launches it failed on, when any)}.  total_seconds is
 * the kernels' time; program_seconds adds each launch's cost when the
 * launches are issued back to back on one stream. */
static JsonNode *
model_result_json (const char *model, const WsGpu *gpu, GPtrArray *predictions, GPtrArray *failures)
{
  g_autoptr (JsonBuilder) b = json_builder_new ();
  double total = 0, overhead = 0;
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "model");
  json_builder_add_string_value (b, model);
  json_builder_set_member_name (b, "gpu");
  json_builder_add_string_value (b, gpu->name);
  json_builder_set_member_name (b, "launches");
  json_builder_begin_array (b);
  for (guint i = 0; i < predictions->len; i++)
    {
      WsPrediction *p = predictions->pdata[i];
      JsonNode *node = ws_prediction_to_json (p);
      double o = launch_overhead (gpu, p);
      json_object_set_double_member (json_node_get_object (node), "launch_overhead_seconds", o);
      json_builder_add_value (b, node);
      total += p->seconds;
      overhead += o;
    }
  json_builder_end_array (b);
  json_builder_set_member_name (b, "total_seconds");
  json_builder_add_double_value (b, total);
  json_builder_set_member_name (b, "launch_mode");
  json_builder_add_string_value (b, ws_launch_mode_name (WS_LAUNCH_MODE_STREAM));
  json_builder_set_member_name (b, "launch_overhead_seconds");
  json_builder_add_double_value (b, overhead);
  json_builder_set_member_name (b, "program_seconds");
  json_builder_add_double_value (b, total + overhead);
  if (failures->len > 0)
    {
      /* "launch<TAB>message" */
      json_builder_set_member_name (b, "errors");
      json_builder_begin_array (b);
      for (guint i = 0; i < failures->len; i++)
        {
          const char *f = failures->pdata[i], *tab = strchr (f, '\t');
          json_builder_begin_object (b);
          json_builder_set_member_name (b, "index");
          json_builder_add_int_value (b, g_ascii_strtoll (f, NULL, 10));
          json_builder_set_member_name (b, "error");
          json_builder_add_string_value (b, tab + 1);
          json_builder_end_object (b);
        }
      json_builder_end_array (b);
    }
  json_builder_end_object (b);
  return json_builder_get_root (b);
}

static void
print_prediction_text (const WsGpu *gpu, const WsPrediction *p)
{
  printf (_ ("%s on %s, launch %u, kernel %s\n"), p->model, p->gpu, p->index, p->kernel);
  printf (_ ("  time:    %.6g s\n"), p->seconds);
  WsLaunchCost cost;
  if (isfinite (p->seconds) && p->seconds >= 0 && ws_launch_cost (gpu, WS_LAUNCH_MODE_STREAM, p->seconds, &cost))
    printf (_ ("  launch:  +%.3g us when launched back to back on one stream (limited by %s)\n"),
            cost.overhead_seconds * 1e6, cost.limiter);
  printf (_ ("  cycles:  %.6g\n"), p->cycles);
  printf (_ ("  IPC:     %.4g warp instructions per cycle\n"), p->ipc);
  if (isfinite (p->bound_cycles))
    printf (_ ("  bound:   %.6g cycles (physical lower bound, limited by %s)\n"), p->bound_cycles, p->bound_limiter);
  if (p->analysis_sampled_waves < p->analysis_waves)
    printf (_ ("  analysis: caches simulated on %" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT
               " waves (WARPSCOPE_ANALYSIS_SAMPLE=0 for all)\n"),
            p->analysis_sampled_waves, p->analysis_waves);
  if (p->cpi_names->len > 0)
    {
      printf ("  %s", _ ("CPI stack:"));
      for (guint i = 0; i < p->cpi_names->len; i++)
        printf (" %s %.4g", g_array_index (p->cpi_names, char *, i), g_array_index (p->cpi_values, double, i));
      printf (_ (" (total %.4g)\n"), ws_prediction_cpi_total (p));
    }
  for (guint i = 0; i < p->warnings->len; i++)
    printf (_ ("  warning: %s\n"), (char *) p->warnings->pdata[i]);
}

int
ws_cli_cmd_predict (WsCli *cli, int argc, char **argv)
{
  g_autofree char *gpu_name = NULL, *model = NULL, *analytic = NULL, *trace_path = NULL;
  g_auto (GStrv) option_list = NULL;
  int only_launch = -1;
  gboolean in_process = FALSE;
  double plugin_timeout = 0;
  const GOptionEntry entries[] = {
    { "trace", 0, 0, G_OPTION_ARG_FILENAME, &trace_path, N_ ("Trace recorded by 'warpscope-cli profile'"), "TRACE" },
    { "launch", 0, 0, G_OPTION_ARG_INT, &only_launch, N_ ("Only this launch of the trace (default: all)"), "N" },
    { "analytic", 0, 0, G_OPTION_ARG_FILENAME, &analytic, N_ ("Analytic kernel description (JSON)"), "FILE" },
    { "gpu", 0, 0, G_OPTION_ARG_STRING, &gpu_name, N_ ("Catalogue GPU"), "NAME" },
    { "model", 0, 0, G_OPTION_ARG_STRING, &model, N_ ("Predictor plugin, or 'all'"), "NAME" },
    { "option", 0, 0, G_OPTION_ARG_STRING_ARRAY, &option_list,
      N_ ("Plugin option (repeatable); KEY=VALUE alone with a single --model"), "PLUGIN.KEY=VALUE" },
    { "in-process", 0, 0, G_OPTION_ARG_NONE, &in_process,
      N_ ("Load plugins into this process instead of a supervised worker (for debugging a plugin)"), NULL },
    { "plugin-timeout", 0, 0, G_OPTION_ARG_DOUBLE, &plugin_timeout,
      N_ ("Seconds a plugin may take per prediction (default 600)"), "SECONDS" },
    { NULL }
  };
  if (!ws_cli_parse_options (cli, &argc, &argv, entries, "",
                             _ ("Predicts kernel time, IPC and CPI stack with a predictor plugin.")))
    return WS_EXIT_USAGE;
  if (argc > 1)
    return ws_cli_fail (cli, WS_EXIT_USAGE, _ ("unexpected argument '%s'"), argv[1]);
  if (gpu_name == NULL || model == NULL || (analytic == NULL) == (trace_path == NULL))
    return ws_cli_fail (cli, WS_EXIT_USAGE, "%s",
                        _ ("--gpu NAME, --model NAME and one of --trace TRACE or --analytic FILE are required"));

  if (plugin_timeout < 0)
    return ws_cli_fail (cli, WS_EXIT_USAGE, "%s", _ ("--plugin-timeout must be positive"));
  ws_cli_plugin_isolation (in_process, plugin_timeout);
  int rc = WS_EXIT_OK;
  g_autoptr (GError) error = NULL;
  g_autoptr (WsAnalyticKernel) kernel = NULL;
  g_autoptr (WsTrace) trace = NULL;
  if (analytic != NULL && (kernel = ws_analytic_kernel_load (analytic, &error)) == NULL)
    return ws_cli_fail_error (cli, error);
  if (trace_path != NULL && (trace = ws_cli_open_trace (cli, trace_path, &rc)) == NULL)
    return rc;
  if (trace != NULL && only_launch >= (int) ws_trace_get_n_launches (trace))
    return ws_cli_fail (cli, WS_EXIT_USAGE, _ ("%s has %u launches; there is no launch %d"), trace_path,
                        ws_trace_get_n_launches (trace), only_launch);
  g_autoptr (WsGpu) gpu = ws_cli_lookup_gpu (cli, gpu_name, &rc);
  if (gpu == NULL)
    return rc;

  g_autoptr (GPtrArray) plugins = ws_predictor_scan ();
  g_autoptr (GPtrArray) chosen = g_ptr_array_new ();
  gboolean all = strcmp (model, "all") == 0;
  if (all)
    {
      for (guint i = 0; i < plugins->len; i++)
        {
          WsPredictorPlugin *p = plugins->pdata[i];
          if (p->ok && (trace ? p->descriptor->supports_trace : p->descriptor->supports_analytic))
            g_ptr_array_add (chosen, p);
        }
      if (chosen->len == 0)
        return ws_cli_fail (cli, WS_EXIT_FAILURE, "%s",
                            trace ? _ ("no usable plugin predicts traced launches")
                                  : _ ("no usable plugin predicts analytic kernels"));
    }
  else
    {
      WsPredictorPlugin *p = ws_predictor_find (plugins, model, &error);
      if (p == NULL)
        return ws_cli_fail_error (cli, error);
      g_ptr_array_add (chosen, p);
    }
  g_autoptr (GHashTable) options = ws_cli_plugin_options (cli, option_list, chosen, all ? NULL : model, &rc);
  if (options == NULL)
    return rc;
  for (guint m = 0; m < chosen->len; m++)
    ws_cli_report_shadowing (cli, chosen->pdata[m]);

  /* One analysis (cache simulation, latencies, representative warp) per
   * launch, shared by every plugin. */
  guint first = 0, last = 1;
  if (trace != NULL)
    {
      first = only_launch >= 0 ? (guint) only_launch : 0;
      last = only_launch >= 0 ? (guint) only_launch + 1 : ws_trace_get_n_launches (trace);
    }
  g_autoptr (GPtrArray) per_model = g_ptr_array_new_with_free_func ((GDestroyNotify) g_ptr_array_unref);
  g_autoptr (GPtrArray) failures = g_ptr_array_new_with_free_func ((GDestroyNotify) g_ptr_array_unref);
  guint n_failed = 0;
  for (guint m = 0; m < chosen->len; m++)
    {
      g_ptr_array_add (per_model, g_ptr_array_new_with_free_func ((GDestroyNotify) ws_prediction_free));
      g_ptr_array_add (failures, g_ptr_array_new_with_free_func (g_free));
    }
  for (guint l = first; l < last; l++)
    {
      g_autoptr (WsLaunchAnalysis) analysis = NULL;
      for (guint m = 0; m < chosen->len; m++)
        {
          WsPredictorPlugin *p = chosen->pdata[m];
          WsPrediction *pred;
          /* volkov with no lambda given: use a λk calibrated for this kernel
           * and architecture (`calibrate lambda`), if the store has one.  A
           * copy per call, so one kernel's λk is never used for another. */
          g_autoptr (GHashTable) call_options = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
          GHashTable *given = NULL;
          GHashTableIter it;
          gpointer key, value;
          g_hash_table_iter_init (&it, options);
          while (given == NULL && g_hash_table_iter_next (&it, &key, &value))
            if (g_ascii_strcasecmp (key, p->name) == 0)
              given = value;
          if (given != NULL)
            {
              g_hash_table_iter_init (&it, given);
              while (g_hash_table_iter_next (&it, &key, &value))
                g_hash_table_insert (call_options, g_strdup (key), g_strdup (value));
            }
          const char *kname = trace != NULL ? ws_trace_get_kernel (trace, ws_trace_get_launch (trace, l)->kernel)->name
                                            : kernel->name;
          if (strcmp (p->name, "volkov") == 0 && ws_cli_store (cli) != NULL
              && !ws_measure_apply_lambda (ws_cli_store (cli), kname, gpu->architecture, call_options, &error)
              && error != NULL)
            return ws_cli_fail_error (cli, error);
          if (trace != NULL)
            {
              if (analysis == NULL && (analysis = ws_launch_analysis_get (trace, l, gpu, NULL, &error)) == NULL)
                return ws_cli_fail (cli, WS_EXIT_FAILURE, _ ("launch %u: %s"), l, error->message);
              pred = ws_predict_trace (p, gpu, trace, l, analysis, call_options, &error);
            }
          else
            pred = ws_predict_analytic (p, gpu, kernel, call_options, &error);
          if (pred == NULL && chosen->len == 1 && last - first == 1)
            return ws_cli_fail_error (cli, error);
          if (pred == NULL)
            {
              /* A crashed or failed plugin costs its own predictions only:
               * the other launches and models go on; the exit status says. */
              ws_cli_fail (cli, WS_EXIT_FAILURE, "%s", error->message);
              g_ptr_array_add (failures->pdata[m], g_strdup_printf ("%u\t%s", l, error->message));
              g_clear_error (&error);
              n_failed++;
              continue;
            }
          g_ptr_array_add (per_model->pdata[m], pred);
        }
    }

  if (!cli->json)
    {
      for (guint m = 0; m < chosen->len; m++)
        {
          GPtrArray *preds = per_model->pdata[m];
          double total = 0, overhead = 0;
          for (guint i = 0; i < preds->len; i++)
            {
              print_prediction_text (gpu, preds->pdata[i]);
              total += ((WsPrediction *) preds->pdata[i])->seconds;
              overhead += launch_overhead (gpu, preds->pdata[i]);
            }
          if (preds->len > 1)
            printf (_ ("%s: total %.6g s over %u launches; with their launch cost back to back on one stream "
                       "(+%.6g s) %.6g s\n"),
                    ((WsPredictorPlugin *) chosen->pdata[m])->name, total, preds->len, overhead, total + overhead);
        }
      return n_failed ? WS_EXIT_FAILURE : WS_EXIT_OK;
    }
  g_autoptr (JsonNode) root = NULL;
  if (all)
    {
      g_autoptr (JsonBuilder) b = json_builder_new ();
      json_builder_begin_array (b);
      for (guint m = 0; m < chosen->len; m++)
        json_builder_add_value (b, model_result_json (((WsPredictorPlugin *) chosen->pdata[m])->name, gpu,
                                                      per_model->pdata[m], failures->pdata[m]));
      json_builder_end_array (b);
      root = json_builder_get_root (b);
    }
  else
    root = model_result_json (((WsPredictorPlugin *) chosen->pdata[0])->name, gpu, per_model->pdata[0],
                              failures->pdata[0]);
  ws_cli_print_json (cli, root);
  return n_failed ? WS_EXIT_FAILURE : WS_EXIT_OK;
}
