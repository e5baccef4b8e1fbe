/* warpscope-cli predict: kernel time, IPC and CPI stack from a predictor plugin. */
#include <stdio.h>
#include <string.h>
#include <glib/gi18n.h>

#include "ws-cli.h"
#include "predict/ws-predict.h"

int ws_cli_cmd_predict (WsCli *cli, int argc, char **argv);

static GHashTable *
parse_option_list (WsCli *cli, char **list, int *rc)
{
  GHashTable *options = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  for (guint i = 0; list != NULL && list[i] != NULL; i++)
    {
      const char *eq = strchr (list[i], '=');
      if (eq == NULL || eq == list[i])
        {
          *rc = ws_cli_fail (cli, WS_EXIT_USAGE, _("--option takes KEY=VALUE, not '%s'"), list[i]);
          g_hash_table_unref (options);
          return NULL;
        }
      g_hash_table_replace (options, g_strndup (list[i], eq - list[i]), g_strdup (eq + 1));
    }
  return options;
}

static JsonNode *
model_result_json (const char *model, const char *gpu, WsPrediction *p)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "model");
  json_builder_add_string_value (b, model);
  json_builder_set_member_name (b, "gpu");
  json_builder_add_string_value (b, gpu);
  json_builder_set_member_name (b, "launches");
  json_builder_begin_array (b);
  json_builder_add_value (b, ws_prediction_to_json (p));
  json_builder_end_array (b);
  json_builder_set_member_name (b, "total_seconds");
  json_builder_add_double_value (b, p->seconds);
  json_builder_end_object (b);
  return json_builder_get_root (b);
}

static void
print_prediction_text (const WsPrediction *p)
{
  printf (_("%s on %s, kernel %s\n"), p->model, p->gpu, p->kernel);
  printf (_("  time:    %.6g s\n"), p->seconds);
  printf (_("  cycles:  %.6g\n"), p->cycles);
  printf (_("  IPC:     %.4g warp instructions per cycle\n"), p->ipc);
  if (p->cpi_names->len > 0)
    {
      printf ("  %s", _("CPI stack:"));
      for (guint i = 0; i < p->cpi_names->len; i++)
        printf (" %s %.4g", g_array_index (p->cpi_names, char *, i), g_array_index (p->cpi_values, double, i));
      printf (_(" (total %.4g)\n"), ws_prediction_cpi_total (p));
    }
  for (guint i = 0; i < p->warnings->len; i++)
    printf (_("  warning: %s\n"), (char *) p->warnings->pdata[i]);
}

int
ws_cli_cmd_predict (WsCli *cli, int argc, char **argv)
{
  g_autofree char *gpu_name = NULL, *model = NULL, *analytic = NULL;
  g_auto(GStrv) option_list = NULL;
  const GOptionEntry entries[] = {
    { "analytic", 0, 0, G_OPTION_ARG_FILENAME, &analytic, N_("Analytic kernel description (JSON)"), "FILE" },
    { "gpu", 0, 0, G_OPTION_ARG_STRING, &gpu_name, N_("Catalogue GPU"), "NAME" },
    { "model", 0, 0, G_OPTION_ARG_STRING, &model, N_("Predictor plugin, or 'all'"), "NAME" },
    { "option", 0, 0, G_OPTION_ARG_STRING_ARRAY, &option_list, N_("Plugin option (repeatable)"), "KEY=VALUE" },
    { NULL }
  };
  if (!ws_cli_parse_options (cli, &argc, &argv, entries, "",
                             _("Predicts kernel time, IPC and CPI stack with a predictor plugin.")))
    return WS_EXIT_USAGE;
  if (argc > 1)
    return ws_cli_fail (cli, WS_EXIT_USAGE, _("unexpected argument '%s'"), argv[1]);
  if (gpu_name == NULL || model == NULL || analytic == NULL)
    return ws_cli_fail (cli, WS_EXIT_USAGE, "%s", _("--analytic FILE, --gpu NAME and --model NAME are required"));

  int rc = WS_EXIT_OK;
  g_autoptr(GHashTable) options = parse_option_list (cli, option_list, &rc);
  if (options == NULL)
    return rc;
  g_autoptr(GError) error = NULL;
  g_autoptr(WsAnalyticKernel) kernel = ws_analytic_kernel_load (analytic, &error);
  if (kernel == NULL)
    return ws_cli_fail_error (cli, error);
  g_autoptr(WsGpu) gpu = ws_cli_lookup_gpu (cli, gpu_name, &rc);
  if (gpu == NULL)
    return rc;

  g_autoptr(GPtrArray) plugins = ws_predictor_scan ();
  g_autoptr(GPtrArray) chosen = g_ptr_array_new ();
  if (strcmp (model, "all") == 0)
    {
      for (guint i = 0; i < plugins->len; i++)
        {
          WsPredictorPlugin *p = plugins->pdata[i];
          if (p->ok && p->descriptor->supports_analytic)
            g_ptr_array_add (chosen, p);
        }
      if (chosen->len == 0)
        return ws_cli_fail (cli, WS_EXIT_FAILURE, "%s", _("no usable plugin predicts analytic kernels"));
      if (g_hash_table_size (options) > 0)
        return ws_cli_fail (cli, WS_EXIT_USAGE, "%s", _("--option needs a single --model"));
    }
  else
    {
      WsPredictorPlugin *p = ws_predictor_find (plugins, model, &error);
      if (p == NULL)
        return ws_cli_fail_error (cli, error);
      g_ptr_array_add (chosen, p);
    }

  g_autoptr(JsonBuilder) all = json_builder_new ();
  json_builder_begin_array (all);
  JsonNode *single = NULL;
  for (guint i = 0; i < chosen->len; i++)
    {
      WsPredictorPlugin *p = chosen->pdata[i];
      g_autoptr(WsPrediction) pred = ws_predict_analytic (p, gpu, kernel, options, &error);
      if (pred == NULL)
        return ws_cli_fail_error (cli, error);
      if (cli->json)
        {
          JsonNode *node = model_result_json (p->name, gpu->name, pred);
          if (strcmp (model, "all") == 0)
            json_builder_add_value (all, node);
          else
            single = node;
        }
      else
        print_prediction_text (pred);
    }
  json_builder_end_array (all);
  if (cli->json)
    {
      g_autoptr(JsonNode) root = single ? single : json_builder_get_root (all);
      ws_cli_print_json (cli, root);
    }
  return WS_EXIT_OK;
}
