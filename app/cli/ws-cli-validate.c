/* warpscope-cli validate: our predictions against published measurements of
 * real GPUs (core/validate; docs/validation.md). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <glib/gi18n.h>

#include "ws-cli.h"
#include "validate/ws-validate.h"

int ws_cli_cmd_validate (WsCli *cli, int argc, char **argv);

static void
on_progress (const char *message, gpointer user_data)
{
  WsCli *cli = user_data;
  ws_cli_info (cli, "%s", message);
}

static void
print_table (FILE *f, const WsValidateReport *r)
{
  guint nsrc = r->sources->len;
  fprintf (f, "%-10s %-18s %-16s %12s %12s", _ ("GPU"), _ ("benchmark"), _ ("series"), _ ("x"), _ ("measured"));
  for (guint s = 0; s < nsrc; s++)
    fprintf (f, " %17s", (const char *) r->sources->pdata[s]);
  fprintf (f, "\n");
  for (guint i = 0; i < r->points->len; i++)
    {
      const WsValidatePoint *p = r->points->pdata[i];
      fprintf (f, "%-10s %-18s %-16s %12.6g %12.5g", p->dataset_gpu, p->family, p->series, p->x, p->measured);
      for (guint s = 0; s < nsrc; s++)
        {
          double e = ws_validate_point_error (p, s);
          if (isfinite (e))
            fprintf (f, " %9.4g (%+4.0f%%)", p->predicted[s], 100 * e);
          else
            fprintf (f, " %17s", "–");
        }
      fprintf (f, "\n");
    }
  fprintf (f, "\n%s\n", _ ("MAPE (%) per source"));
  fprintf (f, "%-30s", "");
  for (guint s = 0; s < nsrc; s++)
    fprintf (f, " %17s", (const char *) r->sources->pdata[s]);
  fprintf (f, "\n");
  g_autoptr (GPtrArray) keys = NULL;
  g_autoptr (GPtrArray) gpus = NULL;
  ws_validate_report_keys (r, &keys, &gpus);
  for (int pass = 0; pass < 3; pass++)
    {
      GPtrArray *list = pass == 1 ? keys : gpus;
      guint count = pass == 0 ? 1 : list->len;
      for (guint k = 0; k < count; k++)
        {
          const char *fam = pass == 1 ? list->pdata[k] : NULL;
          const char *gpu = pass == 2 ? list->pdata[k] : NULL;
          fprintf (f, "%-30s", pass == 0 ? _ ("all") : (const char *) list->pdata[k]);
          for (guint s = 0; s < nsrc; s++)
            {
              guint n;
              double m = ws_validate_mape (r, s, fam, gpu, &n);
              if (n)
                fprintf (f, " %16.1f%%", m);
              else
                fprintf (f, " %17s", "–");
            }
          fprintf (f, "\n");
        }
    }
  fprintf (f, "\n%s", _ ("physical-bound violations:"));
  for (guint s = 0; s < nsrc; s++)
    fprintf (f, " %s %u", (const char *) r->sources->pdata[s], r->bound_violations[s]);
  fprintf (f, _ (" (%u launches checked)\n"), r->bound_checks);
  fprintf (f, _ ("time: %.0f s, emulation %.0f s"), r->wall_seconds, r->emulation_seconds);
  for (guint s = 0; s < nsrc; s++)
    fprintf (f, ", %s %.1f s", (const char *) r->sources->pdata[s], r->source_seconds[s]);
  fprintf (f, "\n");
  for (guint i = 0; i < r->notes->len; i++)
    fprintf (f, "%s %s\n", _ ("note:"), (const char *) r->notes->pdata[i]);
}

int
ws_cli_cmd_validate (WsCli *cli, int argc, char **argv)
{
  g_auto (GStrv) gpus = NULL, benchmarks = NULL, sources = NULL;
  g_autofree char *dataset = NULL, *programs = NULL, *cache = NULL, *plot = NULL, *output = NULL;
  gboolean markdown = FALSE, no_cache = FALSE, all_points = FALSE;
  const GOptionEntry entries[] = {
    { "gpu", 0, 0, G_OPTION_ARG_STRING_ARRAY, &gpus, N_ ("Only this GPU (catalogue or dataset name; repeatable)"),
      "NAME" },
    { "benchmark", 0, 0, G_OPTION_ARG_STRING_ARRAY, &benchmarks,
      N_ ("Only this benchmark family, e.g. gpu-stream (repeatable)"), "NAME" },
    { "source", 0, 0, G_OPTION_ARG_STRING_ARRAY, &sources,
      N_ ("Only this source: a plugin, simulator or simulator-tbpoint (repeatable)"), "NAME" },
    { "markdown", 0, 0, G_OPTION_ARG_NONE, &markdown, N_ ("Print the report as Markdown tables"), NULL },
    { "plot", 0, 0, G_OPTION_ARG_FILENAME, &plot, N_ ("Draw predicted against measured curves (PNG) into DIR"), "DIR" },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output, N_ ("Write the report (text, Markdown or JSON) to FILE"),
      "FILE" },
    { "dataset", 0, 0, G_OPTION_ARG_FILENAME, &dataset,
      N_ ("Ground-truth folder (default: $WARPSCOPE_GROUND_TRUTH or shared/ground-truth beside the sources)"), "DIR" },
    { "programs", 0, 0, G_OPTION_ARG_FILENAME, &programs,
      N_ ("Folder of the built validation programs (default: the build tree's examples/validation)"), "DIR" },
    { "cache", 0, 0, G_OPTION_ARG_FILENAME, &cache,
      N_ ("Keep traces in DIR between runs (default ~/.cache/warpscope/validate)"), "DIR" },
    { "no-cache", 0, 0, G_OPTION_ARG_NONE, &no_cache, N_ ("Emulate every program again"), NULL },
    { "all-points", 0, 0, G_OPTION_ARG_NONE, &all_points,
      N_ ("Every point of the dataset instead of the default selection (slow)"), NULL },
    { NULL }
  };
  if (!ws_cli_parse_options (cli, &argc, &argv, entries, "",
                             _ ("Runs the validation benchmarks on the emulator, predicts them with every predictor "
                                "plugin, the simulator and the simulator with TBPoint, and compares with published "
                                "measurements of real GPUs (MAPE per source, benchmark and GPU).")))
    return WS_EXIT_USAGE;
  if (argc > 1)
    return ws_cli_fail (cli, WS_EXIT_USAGE, _ ("unexpected argument '%s'"), argv[1]);
  if (markdown && cli->json)
    return ws_cli_fail (cli, WS_EXIT_USAGE, "%s", _ ("--markdown and --json exclude each other"));
  WsStore *store = ws_cli_store (cli);
  if (store == NULL)
    return WS_EXIT_FAILURE;

  WsValidateOptions o;
  ws_validate_options_init (&o);
  o.gpus = (const char *const *) gpus;
  o.benchmarks = (const char *const *) benchmarks;
  o.sources = (const char *const *) sources;
  o.dataset_dir = dataset;
  o.programs_dir = programs;
  o.cache_dir = no_cache ? "" : cache;
  o.all_points = all_points;
  o.progress = on_progress;
  o.progress_data = cli;
  g_autoptr (GError) error = NULL;
  g_autoptr (WsValidateReport) r = ws_validate_run (store, &o, &error);
  if (r == NULL)
    return ws_cli_fail_error (cli, error);

  if (plot != NULL)
    {
      int n = ws_validate_report_write_plots (r, plot, &error);
      if (n < 0)
        return ws_cli_fail_error (cli, error);
      ws_cli_info (cli, _ ("%d plots in %s"), n, plot);
    }
  FILE *f = stdout;
  if (output != NULL && (f = fopen (output, "w")) == NULL)
    return ws_cli_fail (cli, WS_EXIT_FAILURE, _ ("cannot write %s: %s"), output, g_strerror (errno));
  if (cli->json)
    {
      g_autoptr (JsonNode) node = ws_validate_report_to_json (r);
      g_autofree char *text = json_to_string (node, TRUE);
      fprintf (f, "%s\n", text);
    }
  else if (markdown)
    {
      g_autofree char *md = ws_validate_report_to_markdown (r, plot);
      fputs (md, f);
    }
  else
    print_table (f, r);
  if (f != stdout && fclose (f) != 0)
    return ws_cli_fail (cli, WS_EXIT_FAILURE, _ ("cannot write %s: %s"), output, g_strerror (errno));
  return r->points->len > 0 ? WS_EXIT_OK : WS_EXIT_FAILURE;
}
