/* ws-cli-measure.c: measured data on a real GPU and calibration.
 *
 *   warpscope-cli measure [-n RUNS] -o FILE.csv -- PROGRAM [ARGS]
 *   warpscope-cli measurements import FILE.csv --gpu NAME [--name SET] [--trace T] [--analytic F]... [--replace]
 *   warpscope-cli measurements list | show SET | export SET [-o FILE] | delete SET
 *   warpscope-cli calibrate --gpu NAME [--as NEW] [--keep DIR]
 *   warpscope-cli calibrate lambda --gpu NAME --set SET [--kernel K] [--link L] [--bandwidth GBS] [--update-link]
 *   warpscope-cli calibrate list
 *
 * `measure` and `calibrate --gpu` need an NVIDIA GPU; without one they exit
 * with WS_EXIT_NO_GPU (3) and say why (docs/measurement.md). */
#define G_LOG_DOMAIN "ws-cli-measure"

#include "ws-config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "ws-cli.h"
#include "measure/ws-measure.h"
#include "base/ws-paths.h"
#include "launch/ws-launch.h"

/* Exit code of the GPU-only commands on a machine without a usable GPU
 * (distinct from 1 = failed and 2 = bad usage, so scripts and CI can skip). */


int ws_cli_cmd_measure (WsCli *cli, int argc, char **argv);
int ws_cli_cmd_measurements (WsCli *cli, int argc, char **argv);
int ws_cli_cmd_calibrate (WsCli *cli, int argc, char **argv);

/* Checks for a GPU and the injection library; prints why not and returns
 * FALSE (exit code in *code). */
static gboolean
require_gpu (WsCli *cli, const char *what, gboolean need_injection, int *code)
{
  g_autofree char *why = NULL;
  if (!ws_measure_gpu_present (&why))
    {
      *code = ws_cli_fail (cli, WS_EXIT_NO_GPU, _ ("no NVIDIA GPU is present: %s needs one (%s)"), what, why);
      return FALSE;
    }
  if (need_injection)
    {
      g_autofree char *lib = ws_measure_injection_library (&why);
      if (lib == NULL)
        {
          *code = ws_cli_fail (cli, WS_EXIT_NO_GPU, _ ("no NVIDIA GPU is present: %s needs one (%s)"), what, why);
          return FALSE;
        }
    }
  return TRUE;
}

/* ------------------------------------------------------------------------ */
/* measure */

static int
program_index (int argc, char **argv)
{
  static const char *const with_value[] = { "-o", "--output", "-n", "--runs", NULL };
  for (int i = 1; i < argc; i++)
    {
      if (strcmp (argv[i], "--") == 0)
        return i + 1;
      if (argv[i][0] != '-')
        return i;
      if (g_strv_contains (with_value, argv[i]))
        i++;
    }
  return argc;
}

int
ws_cli_cmd_measure (WsCli *cli, int argc, char **argv)
{
  g_autofree char *output = NULL;
  int runs = 1;
  const GOptionEntry entries[] = { { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output,
                                     N_ ("Write the measurements to FILE.csv"), "FILE.csv" },
                                   { "runs", 'n', 0, G_OPTION_ARG_INT, &runs,
                                     N_ ("Run the program RUNS times and keep the median (default 1)"), "RUNS" },
                                   { NULL } };
  int prog = program_index (argc, argv);
  int opt_argc = MIN (prog, argc);
  if (opt_argc > 1 && strcmp (argv[opt_argc - 1], "--") == 0)
    opt_argc--;
  g_autofree char **opt_argv = g_new0 (char *, opt_argc + 1);
  for (int i = 0; i < opt_argc; i++)
    opt_argv[i] = argv[i];
  char **parse_argv = opt_argv;
  if (!ws_cli_parse_options (cli, &opt_argc, &parse_argv, entries, _ ("-o FILE.csv [--] PROGRAM [ARGS...]"),
                             _ ("Run a CUDA program on the real GPU and record its kernels and copies with CUPTI")))
    return WS_EXIT_USAGE;
  if (opt_argc > 1)
    return ws_cli_fail (cli, WS_EXIT_USAGE, _ ("unexpected argument '%s' before the program"), parse_argv[1]);
  if (prog >= argc)
    return ws_cli_fail (cli, WS_EXIT_USAGE,
                        _ ("no program given: warpscope-cli measure -o FILE.csv -- PROGRAM [ARGS]"));
  if (output == NULL)
    return ws_cli_fail (cli, WS_EXIT_USAGE, _ ("give the output file with -o FILE.csv"));
  if (runs < 1 || runs > 1000)
    return ws_cli_fail (cli, WS_EXIT_USAGE, _ ("-n must be between 1 and 1000"));

  int code;
  if (!require_gpu (cli, "measure", TRUE, &code))
    return code;
  g_autofree char *lib = ws_measure_injection_library (NULL);

  g_autoptr (GError) error = NULL;
  g_autofree char *tmpdir = g_dir_make_tmp ("warpscope-measure-XXXXXX", &error);
  if (tmpdir == NULL)
    return ws_cli_fail (cli, WS_EXIT_FAILURE, "%s", error->message);
  g_autoptr (GPtrArray) all = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
  int rc = WS_EXIT_OK;
  for (int r = 0; r < runs && rc == WS_EXIT_OK; r++)
    {
      g_autofree char *name = g_strdup_printf ("run-%d.csv", r);
      g_autofree char *raw = g_build_filename (tmpdir, name, NULL);
      g_auto (GStrv) env = g_get_environ ();
      env = g_environ_setenv (env, "CUDA_INJECTION64_PATH", lib, TRUE);
      env = g_environ_setenv (env, "WS_CUPTI_OUTPUT", raw, TRUE);
      int status = 0;
      ws_cli_info (cli, _ ("run %d of %d: %s"), r + 1, runs, argv[prog]);
      if (!g_spawn_sync (NULL, argv + prog, env, G_SPAWN_SEARCH_PATH | G_SPAWN_CHILD_INHERITS_STDIN, NULL, NULL, NULL,
                         NULL, &status, &error))
        rc = ws_cli_fail (cli, WS_EXIT_FAILURE, _ ("cannot run %s: %s"), argv[prog], error->message);
      else if (!g_spawn_check_wait_status (status, &error))
        rc = ws_cli_fail (cli, WS_EXIT_FAILURE, _ ("%s failed in run %d (%s); its times are not recorded"), argv[prog],
                          r + 1, error->message);
      else if (!g_file_test (raw, G_FILE_TEST_EXISTS))
        rc = ws_cli_fail (cli, WS_EXIT_FAILURE,
                          _ ("run %d of %s recorded no CUDA activity: the program made no CUDA calls, or the driver "
                             "did not load the injection library %s"),
                          r + 1, argv[prog], lib);
      else
        {
          GArray *rows = ws_measure_csv_load (raw, &error);
          if (rows == NULL)
            rc = ws_cli_fail (cli, WS_EXIT_FAILURE,
                              _ ("run %d recorded nothing readable (%s); was the program built for this GPU?"), r + 1,
                              error->message);
          else
            g_ptr_array_add (all, rows);
        }
      g_unlink (raw);
    }
  g_rmdir (tmpdir);
  if (rc != WS_EXIT_OK)
    return rc;

  g_autoptr (GArray) median = ws_measure_median (all);
  g_autofree char *body = ws_measure_csv_format (median);
  g_autoptr (GDateTime) now = g_date_time_new_now_utc ();
  g_autofree char *when = g_date_time_format_iso8601 (now);
  g_autofree char *cmdline = g_strjoinv (" ", argv + prog);
  g_autofree char *text = g_strdup_printf ("# measured by warpscope-cli measure (%s) with CUPTI: median of %d run%s "
                                           "of `%s` on %s\n%s",
                                           WS_VERSION, runs, runs == 1 ? "" : "s", cmdline, when, body);
  if (!g_file_set_contents (output, text, -1, &error))
    return ws_cli_fail (cli, WS_EXIT_FAILURE, "%s", error->message);
  guint kernels = 0;
  for (guint i = 0; i < median->len; i++)
    kernels += g_array_index (median, WsMeasurement, i).kind == WS_MEASURE_KERNEL;
  if (cli->json)
    {
      g_autoptr (JsonBuilder) b = json_builder_new ();
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "output");
      json_builder_add_string_value (b, output);
      json_builder_set_member_name (b, "runs");
      json_builder_add_int_value (b, runs);
      json_builder_set_member_name (b, "kernels");
      json_builder_add_int_value (b, kernels);
      json_builder_set_member_name (b, "memcpys");
      json_builder_add_int_value (b, median->len - kernels);
      json_builder_end_object (b);
      g_autoptr (JsonNode) root = json_builder_get_root (b);
      ws_cli_print_json (cli, root);
    }
  else
    ws_cli_info (cli, _ ("%s: %u kernel launches and %u copies, median of %d runs"), output, kernels,
                 median->len - kernels, runs);
  return WS_EXIT_OK;
}

/* ------------------------------------------------------------------------ */
/* measurements */

static int
measurements_import (WsCli *cli, int argc, char **argv)
{
  g_autofree char *gpu_name = NULL, *set_name = NULL, *trace = NULL;
  g_auto (GStrv) analytic = NULL;
  gboolean replace = FALSE;
  const GOptionEntry entries[] = {
    { "gpu", 0, 0, G_OPTION_ARG_STRING, &gpu_name, N_ ("Catalogue GPU the data were measured on"), "NAME" },
    { "name", 0, 0, G_OPTION_ARG_STRING, &set_name, N_ ("Name of the set (default: the file's base name)"), "SET" },
    { "trace", 0, 0, G_OPTION_ARG_FILENAME, &trace, N_ ("Trace of the same program, for modelled kernel times"),
      "TRACE" },
    { "analytic", 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &analytic, N_ ("Analytic kernel (JSON) for modelled times"),
      "FILE" },
    { "replace", 0, 0, G_OPTION_ARG_NONE, &replace, N_ ("Replace a set of the same name"), NULL },
    { NULL }
  };
  if (!ws_cli_parse_options (cli, &argc, &argv, entries, "FILE.csv", _ ("Store a measurement CSV as a set")))
    return WS_EXIT_USAGE;
  if (argc != 2)
    return ws_cli_fail (cli, WS_EXIT_USAGE, _ ("give one CSV file: measurements import FILE.csv --gpu NAME"));
  if (gpu_name == NULL)
    return ws_cli_fail (cli, WS_EXIT_USAGE, _ ("say which GPU the data were measured on with --gpu NAME"));
  WsStore *store = ws_cli_store (cli);
  if (store == NULL)
    return WS_EXIT_FAILURE;
  int code;
  g_autoptr (WsGpu) gpu = ws_cli_lookup_gpu (cli, gpu_name, &code);
  if (gpu == NULL)
    return code;
  g_autoptr (GError) error = NULL;
  g_autoptr (GArray) rows = ws_measure_csv_load (argv[1], &error);
  if (rows == NULL)
    return ws_cli_fail (cli, g_error_matches (error, WS_ERROR, WS_ERROR_PARSE) ? WS_EXIT_USAGE : WS_EXIT_FAILURE, "%s",
                        error->message);
  g_autofree char *base = g_path_get_basename (argv[1]);
  if (set_name == NULL)
    {
      char *dot = strrchr (base, '.');
      if (dot != NULL && dot != base)
        *dot = '\0';
      set_name = g_strdup (base);
    }
  g_autoptr (WsMeasurementSet) set = ws_measurement_set_new (set_name, gpu->name);
  set->source = g_canonicalize_filename (argv[1], NULL);
  if (trace != NULL)
    {
      if (!g_file_test (trace, G_FILE_TEST_IS_REGULAR))
        return ws_cli_fail (cli, WS_EXIT_USAGE, _ ("--trace %s: no such file"), trace);
      set->trace = g_canonicalize_filename (trace, NULL);
    }
  for (guint i = 0; analytic && analytic[i]; i++)
    {
      if (!g_file_test (analytic[i], G_FILE_TEST_IS_REGULAR))
        return ws_cli_fail (cli, WS_EXIT_USAGE, _ ("--analytic %s: no such file"), analytic[i]);
      g_ptr_array_add (set->analytic, g_canonicalize_filename (analytic[i], NULL));
    }
  set->rows = g_steal_pointer (&rows);
  if (!ws_measure_store_put (store, set, replace, &error))
    return ws_cli_fail_error (cli, error);
  if (cli->json)
    {
      g_autoptr (WsMeasurementSet) stored = ws_measure_store_get (store, set->name, &error);
      if (stored == NULL)
        return ws_cli_fail_error (cli, error);
      g_autoptr (JsonNode) node = ws_measurement_set_to_json (stored, FALSE);
      ws_cli_print_json (cli, node);
    }
  else
    ws_cli_info (cli, _ ("stored measurement set \"%s\" (%u rows, GPU %s)"), set->name, set->rows->len, gpu->name);
  return WS_EXIT_OK;
}

static int
measurements_list (WsCli *cli, int argc, char **argv)
{
  if (argc != 1)
    return ws_cli_fail (cli, WS_EXIT_USAGE, _ ("measurements list takes no arguments"));
  WsStore *store = ws_cli_store (cli);
  if (store == NULL)
    return WS_EXIT_FAILURE;
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) sets = ws_measure_store_list (store, &error);
  if (sets == NULL)
    return ws_cli_fail_error (cli, error);
  if (cli->json)
    {
      g_autoptr (JsonArray) a = json_array_new ();
      for (guint i = 0; i < sets->len; i++)
        {
          g_autoptr (WsMeasurementSet)
            full = ws_measure_store_get (store, ((WsMeasurementSet *) sets->pdata[i])->name, &error);
          if (full == NULL)
            return ws_cli_fail_error (cli, error);
          json_array_add_element (a, ws_measurement_set_to_json (full, FALSE));
        }
      g_autoptr (JsonNode) node = json_node_init_array (json_node_alloc (), a);
      ws_cli_print_json (cli, node);
      return WS_EXIT_OK;
    }
  if (sets->len == 0)
    {
      ws_cli_info (cli,
                   _ ("no measurement sets; import one with `warpscope-cli measurements import FILE.csv --gpu NAME`"));
      return WS_EXIT_OK;
    }
  printf ("%-24s %-20s %s\n", _ ("NAME"), _ ("GPU"), _ ("CREATED"));
  for (guint i = 0; i < sets->len; i++)
    {
      const WsMeasurementSet *s = sets->pdata[i];
      printf ("%-24s %-20s %s\n", s->name, s->gpu, s->created);
    }
  return WS_EXIT_OK;
}

static int
measurements_show (WsCli *cli, int argc, char **argv)
{
  if (argc != 2)
    return ws_cli_fail (cli, WS_EXIT_USAGE, _ ("give one set: measurements show SET"));
  WsStore *store = ws_cli_store (cli);
  if (store == NULL)
    return WS_EXIT_FAILURE;
  g_autoptr (GError) error = NULL;
  g_autoptr (WsMeasurementSet) set = ws_measure_store_get (store, argv[1], &error);
  if (set == NULL)
    return ws_cli_fail_error (cli, error);
  if (cli->json)
    {
      g_autoptr (JsonNode) node = ws_measurement_set_to_json (set, TRUE);
      ws_cli_print_json (cli, node);
      return WS_EXIT_OK;
    }
  printf ("%s: %s\n", _ ("Set"), set->name);
  printf ("%s: %s\n", _ ("GPU"), set->gpu);
  printf ("%s: %s\n", _ ("Source"), set->source ? set->source : "-");
  if (set->trace)
    printf ("%s: %s\n", _ ("Trace"), set->trace);
  for (guint i = 0; i < set->analytic->len; i++)
    printf ("%s: %s\n", _ ("Analytic"), (char *) set->analytic->pdata[i]);
  printf ("%s: %s\n\n", _ ("Created"), set->created);
  printf ("%-7s %-32s %4s %-22s %-12s %4s %14s\n", _ ("KIND"), _ ("NAME"), _ ("OCC"), _ ("CONFIG"), _ ("BYTES"),
          _ ("RUNS"), _ ("DURATION_NS"));
  for (guint i = 0; i < set->rows->len; i++)
    {
      const WsMeasurement *m = &g_array_index (set->rows, WsMeasurement, i);
      g_autofree char *config = m->kind == WS_MEASURE_KERNEL
                                  ? g_strdup_printf ("%ux%ux%u/%ux%ux%u", m->grid[0], m->grid[1], m->grid[2],
                                                     m->block[0], m->block[1], m->block[2])
                                  : g_strdup (ws_memcpy_direction_name (m->direction));
      g_autofree char *bytes = m->kind == WS_MEASURE_MEMCPY ? g_strdup_printf ("%" G_GUINT64_FORMAT, m->bytes)
                                                            : g_strdup ("-");
      printf ("%-7s %-32s %4u %-22s %-12s %4u %14.1f\n", m->kind == WS_MEASURE_KERNEL ? "kernel" : "memcpy", m->name,
              m->occurrence, config, bytes, m->runs, m->duration_ns);
    }
  return WS_EXIT_OK;
}

static int
measurements_export (WsCli *cli, int argc, char **argv)
{
  g_autofree char *output = NULL;
  const GOptionEntry entries[] = { { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output,
                                     N_ ("Write to FILE (default: standard output)"), "FILE" },
                                   { NULL } };
  if (!ws_cli_parse_options (cli, &argc, &argv, entries, "SET", _ ("Write a measurement set as CSV")))
    return WS_EXIT_USAGE;
  if (argc != 2)
    return ws_cli_fail (cli, WS_EXIT_USAGE, _ ("give one set: measurements export SET [-o FILE]"));
  WsStore *store = ws_cli_store (cli);
  if (store == NULL)
    return WS_EXIT_FAILURE;
  g_autoptr (GError) error = NULL;
  g_autoptr (WsMeasurementSet) set = ws_measure_store_get (store, argv[1], &error);
  if (set == NULL)
    return ws_cli_fail_error (cli, error);
  g_autofree char *text = ws_measure_csv_format (set->rows);
  if (output == NULL)
    {
      fputs (text, stdout);
      return WS_EXIT_OK;
    }
  if (!g_file_set_contents (output, text, -1, &error))
    return ws_cli_fail (cli, WS_EXIT_FAILURE, "%s", error->message);
  return WS_EXIT_OK;
}

static int
measurements_delete (WsCli *cli, int argc, char **argv)
{
  if (argc != 2)
    return ws_cli_fail (cli, WS_EXIT_USAGE, _ ("give one set: measurements delete SET"));
  WsStore *store = ws_cli_store (cli);
  if (store == NULL)
    return WS_EXIT_FAILURE;
  g_autoptr (GError) error = NULL;
  if (!ws_measure_store_delete (store, argv[1], &error))
    return ws_cli_fail_error (cli, error);
  return WS_EXIT_OK;
}

int
ws_cli_cmd_measurements (WsCli *cli, int argc, char **argv)
{
  static const struct {
    const char *name;
    int (*func) (WsCli *, int, char **);
  } subs[] = {
    { "import", measurements_import }, { "list", measurements_list },     { "show", measurements_show },
    { "export", measurements_export }, { "delete", measurements_delete },
  };
  if (argc < 2)
    return ws_cli_fail (cli, WS_EXIT_USAGE, _ ("usage: warpscope-cli measurements import|list|show|export|delete ..."));
  for (guint i = 0; i < G_N_ELEMENTS (subs); i++)
    if (strcmp (argv[1], subs[i].name) == 0)
      return subs[i].func (cli, argc - 1, argv + 1);
  return ws_cli_fail (cli, WS_EXIT_USAGE, _ ("unknown measurements command '%s' (import, list, show, export, delete)"),
                      argv[1]);
}

/* ------------------------------------------------------------------------ */
/* calibrate */

static void
print_lambda_rows (JsonNode *node)
{
  JsonArray *a = json_node_get_array (node);
  for (guint i = 0; i < json_array_get_length (a); i++)
    {
      JsonObject *o = json_array_get_object_element (a, i);
      if (strcmp (json_object_get_string_member (o, "kind"), "kernel") == 0)
        printf ("lambda_k  %-32s %-10s %.6g  (%" G_GINT64_FORMAT " launches, rms rel. error %.3g)\n",
                json_object_get_string_member (o, "kernel"), json_object_get_string_member (o, "architecture"),
                json_object_get_double_member (o, "lambda"), json_object_get_int_member (o, "n_points"),
                json_object_get_double_member (o, "rms_rel_error"));
      else
        printf ("lambda_c  %-32s %-10s %.6g  t_s %.6g ms  bw %.6g GB/s  (%" G_GINT64_FORMAT
                " copies, rms rel. error %.3g)\n",
                json_object_get_string_member (o, "link"), json_object_get_string_member (o, "direction"),
                json_object_get_double_member (o, "lambda"), json_object_get_double_member (o, "startup_s") * 1e3,
                json_object_get_double_member (o, "bandwidth_gbs"), json_object_get_int_member (o, "n_points"),
                json_object_get_double_member (o, "rms_rel_error"));
    }
}

static int
calibrate_lambda (WsCli *cli, int argc, char **argv)
{
  g_autofree char *gpu_name = NULL, *set_name = NULL, *kernel = NULL, *link = NULL;
  double bandwidth = 0;
  gboolean update_link = FALSE;
  const GOptionEntry entries[] = {
    { "gpu", 0, 0, G_OPTION_ARG_STRING, &gpu_name, N_ ("GPU the set was measured on"), "NAME" },
    { "set", 0, 0, G_OPTION_ARG_STRING, &set_name, N_ ("Measurement set"), "SET" },
    { "kernel", 0, 0, G_OPTION_ARG_STRING, &kernel, N_ ("Calibrate lambda_k of this kernel only"), "NAME" },
    { "link", 0, 0, G_OPTION_ARG_STRING, &link, N_ ("Catalogue link the copies went over (bw of eq. 4.6)"), "NAME" },
    { "bandwidth", 0, 0, G_OPTION_ARG_DOUBLE, &bandwidth, N_ ("Link bandwidth bw of eq. 4.6 in GB/s"), "GBS" },
    { "update-link", 0, 0, G_OPTION_ARG_NONE, &update_link,
      N_ ("Write the fitted startup and lambda_c into the --link record"), NULL },
    { NULL }
  };
  if (!ws_cli_parse_options (cli, &argc, &argv, entries, "",
                             _ ("Fit lambda_k (eq. 4.1) and t_s, lambda_c (eq. 4.6) to a measurement set")))
    return WS_EXIT_USAGE;
  if (argc != 1)
    return ws_cli_fail (cli, WS_EXIT_USAGE, _ ("unexpected argument '%s'"), argv[1]);
  if (gpu_name == NULL || set_name == NULL)
    return ws_cli_fail (cli, WS_EXIT_USAGE, _ ("usage: calibrate lambda --gpu NAME --set SET [--kernel NAME]"));
  if (bandwidth < 0)
    return ws_cli_fail (cli, WS_EXIT_USAGE, _ ("--bandwidth must be positive"));
  if (update_link && link == NULL)
    return ws_cli_fail (cli, WS_EXIT_USAGE, _ ("--update-link needs --link NAME"));
  WsStore *store = ws_cli_store (cli);
  if (store == NULL)
    return WS_EXIT_FAILURE;
  int code;
  g_autoptr (WsGpu) gpu = ws_cli_lookup_gpu (cli, gpu_name, &code);
  if (gpu == NULL)
    return code;
  g_autoptr (GError) error = NULL;
  g_autoptr (WsMeasurementSet) set = ws_measure_store_get (store, set_name, &error);
  if (set == NULL)
    return ws_cli_fail_error (cli, error);
  if (g_ascii_strcasecmp (set->gpu, gpu->name) != 0)
    return ws_cli_fail (cli, WS_EXIT_USAGE, _ ("measurement set \"%s\" was measured on %s, not on %s"), set->name,
                        set->gpu, gpu->name);
  WsCalibrateOptions o = { .kernel = kernel, .link = link, .bandwidth_gbs = bandwidth, .update_link = update_link };
  g_autoptr (JsonNode) result = ws_measure_calibrate_lambda (store, set->name, &o, &error);
  if (result == NULL)
    return ws_cli_fail_error (cli, error);
  if (cli->json)
    ws_cli_print_json (cli, result);
  else
    print_lambda_rows (result);
  return WS_EXIT_OK;
}

static int
calibrate_list (WsCli *cli, int argc, char **argv)
{
  if (argc != 1)
    return ws_cli_fail (cli, WS_EXIT_USAGE, _ ("calibrate list takes no arguments"));
  WsStore *store = ws_cli_store (cli);
  if (store == NULL)
    return WS_EXIT_FAILURE;
  g_autoptr (GError) error = NULL;
  g_autoptr (JsonNode) all = ws_measure_list_lambdas (store, &error);
  if (all == NULL)
    return ws_cli_fail_error (cli, error);
  if (cli->json)
    ws_cli_print_json (cli, all);
  else
    print_lambda_rows (all);
  return WS_EXIT_OK;
}

/* The micro-benchmarks (bench/calibration/ws-calibrate.cu), from the source
 * tree when running uninstalled, else from the installed data dir. */
static char *
find_benchmark_source (void)
{
  g_autofree char *src = ws_paths_get (WS_PATH_CALIBRATION_SOURCE);
  return g_file_test (src, G_FILE_TEST_IS_REGULAR) ? g_steal_pointer (&src) : NULL;
}

static int
calibrate_gpu (WsCli *cli, int argc, char **argv)
{
  g_autofree char *gpu_name = NULL, *as_name = NULL, *keep = NULL;
  const GOptionEntry entries[] = { { "gpu", 0, 0, G_OPTION_ARG_STRING, &gpu_name,
                                     N_ ("Catalogue GPU to update (or to start the new entry from)"), "NAME" },
                                   { "as", 0, 0, G_OPTION_ARG_STRING, &as_name,
                                     N_ ("Write a new catalogue entry NEW instead of updating NAME"), "NEW" },
                                   { "keep", 0, 0, G_OPTION_ARG_FILENAME, &keep,
                                     N_ ("Keep the benchmark binary and its output in DIR"), "DIR" },
                                   { NULL } };
  if (!ws_cli_parse_options (cli, &argc, &argv, entries, "",
                             _ ("Measure latencies, throughputs and PCIe parameters of the present GPU")))
    return WS_EXIT_USAGE;
  if (argc != 1)
    return ws_cli_fail (cli, WS_EXIT_USAGE, _ ("unexpected argument '%s' (calibrate --gpu NAME, calibrate lambda ...)"),
                        argv[1]);
  if (gpu_name == NULL)
    return ws_cli_fail (cli, WS_EXIT_USAGE, _ ("usage: calibrate --gpu NAME [--as NEW]"));
  WsStore *store = ws_cli_store (cli);
  if (store == NULL)
    return WS_EXIT_FAILURE;
  int code;
  g_autoptr (WsGpu) gpu = ws_cli_lookup_gpu (cli, gpu_name, &code);
  if (gpu == NULL)
    return code;
  if (!require_gpu (cli, "calibrate", FALSE, &code))
    return code;
  g_autofree char *nvcc = ws_launch_find_nvcc ();
  if (nvcc == NULL)
    return ws_cli_fail (cli, WS_EXIT_FAILURE,
                        _ ("calibrate compiles its micro-benchmarks with nvcc, which was not "
                           "found (install the CUDA toolkit, put nvcc in PATH or set NVCC)"));
  g_autofree char *source = find_benchmark_source ();
  if (source == NULL)
    return ws_cli_fail (cli, WS_EXIT_FAILURE, _ ("the micro-benchmark source ws-calibrate.cu is not installed"));

  g_autoptr (GError) error = NULL;
  g_autofree char *dir = keep ? g_strdup (keep) : g_dir_make_tmp ("warpscope-calibrate-XXXXXX", &error);
  if (dir == NULL || g_mkdir_with_parents (dir, 0700) != 0)
    return ws_cli_fail (cli, WS_EXIT_FAILURE, _ ("cannot create a work folder: %s"),
                        error ? error->message : g_strerror (errno));
  g_autofree char *binary = g_build_filename (dir, "ws-calibrate", NULL);
  const char *nvcc_argv[] = { nvcc, "-O2", "-arch=native", "-o", binary, source, NULL };
  g_autofree char *nvcc_err = NULL;
  int status = 0;
  ws_cli_info (cli, _ ("compiling %s"), source);
  if (!g_spawn_sync (NULL, (char **) nvcc_argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, NULL, &nvcc_err, &status, &error)
      || !g_spawn_check_wait_status (status, &error))
    return ws_cli_fail (cli, WS_EXIT_FAILURE, _ ("compiling the micro-benchmarks failed: %s\n%s"), error->message,
                        nvcc_err ? nvcc_err : "");
  ws_cli_info (cli, _ ("running the micro-benchmarks (about a minute)"));
  g_autofree char *out = NULL, *err = NULL;
  const char *run_argv[] = { binary, NULL };
  if (!g_spawn_sync (NULL, (char **) run_argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, &err, &status, &error)
      || !g_spawn_check_wait_status (status, &error))
    return ws_cli_fail (cli, WS_EXIT_FAILURE, _ ("the micro-benchmarks failed: %s\n%s"), error->message,
                        err ? err : "");
  if (keep)
    {
      g_autofree char *log = g_build_filename (dir, "ws-calibrate.out", NULL);
      g_file_set_contents (log, out, -1, NULL);
    }
  else
    {
      g_unlink (binary);
      g_rmdir (dir);
    }

  g_autoptr (GDateTime) now = g_date_time_new_now_utc ();
  g_autofree char *when = g_date_time_format_iso8601 (now);
  double bank = 0;
  if (as_name != NULL)
    {
      g_free (gpu->name);
      gpu->name = g_strdup (as_name);
    }
  g_autoptr (WsLink) link = ws_measure_apply_benchmark (gpu, out, when, &bank, &error);
  if (link == NULL)
    return ws_cli_fail (cli, WS_EXIT_FAILURE, _ ("%s (the raw output is kept with --keep DIR)"), error->message);
  if (!ws_store_put_gpu (store, gpu, TRUE, &error) || !ws_store_put_link (store, link, TRUE, &error))
    return ws_cli_fail_error (cli, error);
  if (cli->json)
    {
      g_autoptr (JsonBuilder) b = json_builder_new ();
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "gpu");
      json_builder_add_value (b, ws_gpu_to_json (gpu));
      json_builder_set_member_name (b, "link");
      json_builder_add_value (b, ws_link_to_json (link));
      json_builder_set_member_name (b, "shared_bank_conflict_cycles_per_way");
      json_builder_add_double_value (b, bank);
      json_builder_end_object (b);
      g_autoptr (JsonNode) root = json_builder_get_root (b);
      ws_cli_print_json (cli, root);
    }
  else
    ws_cli_info (cli, _ ("catalogue entry \"%s\" and link \"%s\" written"), gpu->name, link->name);
  return WS_EXIT_OK;
}

int
ws_cli_cmd_calibrate (WsCli *cli, int argc, char **argv)
{
  if (argc >= 2 && strcmp (argv[1], "lambda") == 0)
    return calibrate_lambda (cli, argc - 1, argv + 1);
  if (argc >= 2 && strcmp (argv[1], "list") == 0)
    return calibrate_list (cli, argc - 1, argv + 1);
  return calibrate_gpu (cli, argc, argv);
}
