/* Predictor plugins in supervised workers (issue 18): crashing, aborting,
 * hanging and runaway plugins are errors for one prediction, in the host
 * API, in `predict` and in `model run` sweeps; the thread contract; options
 * as PLUGIN.KEY=VALUE; init/teardown; shadowed plugins. */
#include "predict/ws-predict.h"
#include "trace/ws-trace.h"

#include <math.h>
#include <string.h>
#include <unistd.h>
#include <signal.h>
#include <sys/wait.h>
#include <glib/gstdio.h>
#include "../test-tmp-dir.h"

static WsGpu *
test_gpu (void)
{
  WsGpu *g = g_new0 (WsGpu, 1);
  g->name = g_strdup ("GTX 970 (test)");
  g->architecture = g_strdup ("Maxwell");
  g->cc_major = 5;
  g->cc_minor = 2;
  g->sms = 13;
  g->core_clock_mhz = 1000;
  g->cuda_cores_per_sm = 128;
  g->warp_schedulers_per_sm = 4;
  g->warp_size = 32;
  g->dram_clock_mhz = 1753;
  g->dram_bus_width_bits = 256;
  g->dram_data_rate = 4;
  g->max_warps_per_sm = 64;
  g->max_blocks_per_sm = 32;
  g->max_threads_per_block = 1024;
  g->registers_per_sm = 65536;
  g->max_registers_per_block = 65536;
  g->max_registers_per_thread = 255;
  g->register_alloc_unit = 256;
  g->shared_per_sm = 98304;
  g->shared_per_block = 49152;
  g->shared_alloc_unit = 256;
  g->l1_size = 24576;
  g->l1_line = 128;
  g->l1_sector = 32;
  g->l1_assoc = 4;
  g->l1_latency = 28;
  g->l2_size = 1835008;
  g->l2_line = 128;
  g->l2_assoc = 16;
  g->l2_latency = 194;
  g->dram_latency = 350;
  return g;
}

static WsPredictorPlugin *
load_probe (const char *name)
{
  g_autofree char *file = g_strconcat (name, ".", G_MODULE_SUFFIX, NULL);
  g_autofree char *path = g_build_filename (g_getenv ("WS_PROBE_PLUGIN_DIR"), file, NULL);
  WsPredictorPlugin *p = ws_predictor_plugin_load (path);
  g_assert_true (p->ok);
  g_assert_false (p->in_process); /* isolation is the default */
  g_assert_cmpfloat (p->timeout_seconds, ==, 600);
  return p;
}

static WsAnalyticKernel *
kernel_of_grid (double grid)
{
  g_autofree char *name = g_strdup_printf ("k%g", grid);
  WsAnalyticKernel *k = ws_analytic_kernel_new (name);
  ws_analytic_kernel_set (k, "grid_size", grid);
  ws_analytic_kernel_set (k, "block_size", 256);
  return k;
}

static WsPrediction *
predict_grid (WsPredictorPlugin *p, const WsGpu *gpu, double grid, GHashTable *options, GError **error)
{
  g_autoptr (WsAnalyticKernel) k = kernel_of_grid (grid);
  return ws_predict_analytic (p, gpu, k, options, error);
}

static double
metric (const WsPrediction *p, const char *name)
{
  for (guint i = 0; i < p->metric_names->len; i++)
    if (strcmp (g_array_index (p->metric_names, char *, i), name) == 0)
      return g_array_index (p->metric_values, double, i);
  g_assert_not_reached ();
}

static void
assert_has (const char *text, const char *part)
{
  if (text == NULL || strstr (text, part) == NULL)
    g_error ("expected '%s' in: %s", part, text ? text : "(null)");
}

/* ---- host API ------------------------------------------------------------ */

static void
test_worker_kept_and_restarted (void)
{
  g_autoptr (WsGpu) gpu = test_gpu ();
  g_autoptr (WsPredictorPlugin) p = load_probe ("probe_crash");
  g_autoptr (GError) error = NULL;
  g_autoptr (WsPrediction) a = predict_grid (p, gpu, 4, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpfloat (a->cycles, ==, 4000);        /* scale 1000 (its default) x grid 4 */
  g_assert_cmpfloat (a->seconds, ==, 4000 / 1e9); /* 1000 MHz */
  g_assert_cmpfloat (metric (a, "calls"), ==, 1);
  g_assert_cmpfloat (metric (a, "inited"), ==, 1); /* init ran before the first predict */
  g_assert_cmpuint (a->warnings->len, ==, 1);
  g_assert_cmpstr (a->warnings->pdata[0], ==, "probe saw size 4");
  int pid = (int) metric (a, "pid");
  g_assert_cmpint (pid, !=, getpid ());
  g_assert_cmpint (pid, ==, ws_predictor_plugin_worker_pid (p));

  /* kept alive: the same process counts on */
  g_autoptr (WsPrediction) b = predict_grid (p, gpu, 5, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpfloat (b->cycles, ==, 5000);
  g_assert_cmpfloat (metric (b, "calls"), ==, 2);
  g_assert_cmpint ((int) metric (b, "pid"), ==, pid);

  /* a segfault is this prediction's error, naming plugin, kernel, signal */
  g_assert_null (predict_grid (p, gpu, 13, NULL, &error));
  g_assert_error (error, WS_ERROR, WS_ERROR_FAILED);
  assert_has (error->message, "predictor 'probe_crash' crashed on kernel 'k13' for GTX 970 (test)");
  assert_has (error->message, "signal 11");
  assert_has (error->message, "--in-process");
  g_clear_error (&error);
  g_assert_cmpint (ws_predictor_plugin_worker_pid (p), ==, 0);

  /* ... and the next one runs in a new worker */
  g_autoptr (WsPrediction) c = predict_grid (p, gpu, 6, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpfloat (c->cycles, ==, 6000);
  g_assert_cmpfloat (metric (c, "calls"), ==, 1);
  g_assert_cmpint ((int) metric (c, "pid"), !=, pid);

  /* abort() */
  g_assert_null (predict_grid (p, gpu, 14, NULL, &error));
  assert_has (error->message, "crashed on kernel 'k14'");
  assert_has (error->message, "signal 6");
  g_clear_error (&error);

  /* options reach the worker: option_int */
  g_autoptr (GHashTable) opts = g_hash_table_new (g_str_hash, g_str_equal);
  g_hash_table_insert (opts, "scale", "7");
  g_autoptr (WsPrediction) d = predict_grid (p, gpu, 4, opts, &error);
  g_assert_no_error (error);
  g_assert_cmpfloat (d->cycles, ==, 28);

  /* a worker killed from outside between two predictions costs nothing */
  int old = ws_predictor_plugin_worker_pid (p);
  g_assert_cmpint (old, >, 0);
  kill (old, SIGKILL);
  g_usleep (100000);
  g_autoptr (WsPrediction) e = predict_grid (p, gpu, 9, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpfloat (e->cycles, ==, 9000);
  g_assert_cmpint ((int) metric (e, "pid"), !=, old);
}

static void
test_hang_times_out (void)
{
  g_autoptr (WsGpu) gpu = test_gpu ();
  g_autoptr (WsPredictorPlugin) p = load_probe ("probe_crash");
  p->timeout_seconds = 1;
  g_autoptr (GError) error = NULL;
  gint64 t0 = g_get_monotonic_time ();
  g_assert_null (predict_grid (p, gpu, 15, NULL, &error));
  double took = (g_get_monotonic_time () - t0) / 1e6;
  g_assert_cmpfloat (took, >=, 1);
  g_assert_cmpfloat (took, <, 5);
  assert_has (error->message, "predictor 'probe_crash' on kernel 'k15' for GTX 970 (test): no answer within 1 s");
  assert_has (error->message, "--plugin-timeout");
  g_clear_error (&error);
  g_autoptr (WsPrediction) ok = predict_grid (p, gpu, 3, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpfloat (ok->cycles, ==, 3000);
}

static void
test_memory_limit (void)
{
  g_autoptr (WsGpu) gpu = test_gpu ();
  g_autoptr (WsPredictorPlugin) p = load_probe ("probe_crash");
  p->memory_limit_mb = 256;
  p->timeout_seconds = 60;
  g_autoptr (GError) error = NULL;
  g_assert_null (predict_grid (p, gpu, 16, NULL, &error));
  assert_has (error->message, "crashed on kernel 'k16'");
  assert_has (error->message, "signal 6"); /* malloc failed at the limit: the plugin aborts */
  assert_has (error->message, "256 MiB");
  g_clear_error (&error);
  g_autoptr (WsPrediction) ok = predict_grid (p, gpu, 2, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpfloat (ok->cycles, ==, 2000);
}

/* A traced launch: the worker opens the trace itself; the same numbers as
 * in process. */
static void
test_trace_launch (void)
{
  g_autoptr (WsGpu) gpu = test_gpu ();
  g_autoptr (GError) error = NULL;
  g_autoptr (WsTrace) trace = ws_trace_open (g_getenv ("WS_TRACE_SAXPY2"), &error);
  g_assert_no_error (error);
  g_autoptr (WsPredictorPlugin) p = load_probe ("probe_crash");
  g_autoptr (GHashTable) opts = g_hash_table_new (g_str_hash, g_str_equal);
  g_hash_table_insert (opts, "mode", "ok");
  g_autoptr (WsPrediction) iso = ws_predict_trace (p, gpu, trace, 0, NULL, opts, &error);
  g_assert_no_error (error);
  p->in_process = TRUE;
  g_autoptr (WsPrediction) inproc = ws_predict_trace (p, gpu, trace, 0, NULL, opts, &error);
  g_assert_no_error (error);
  p->in_process = FALSE;
  g_assert_cmpfloat (iso->cycles, >, 0);
  g_assert_cmpfloat (iso->cycles, ==, inproc->cycles); /* 1000 x the kernel's instructions */
  g_assert_cmpfloat (fmod (iso->cycles, 1000), ==, 0);
  g_assert_true (iso->bound_cycles == inproc->bound_cycles
                 || (isnan (iso->bound_cycles) && isnan (inproc->bound_cycles)));
  g_assert_cmpuint (iso->warnings->len, ==, inproc->warnings->len);
  g_assert_cmpint ((int) metric (iso, "pid"), !=, getpid ());
  g_assert_cmpint ((int) metric (inproc, "pid"), ==, getpid ());

  g_hash_table_insert (opts, "mode", "segv");
  g_assert_null (ws_predict_trace (p, gpu, trace, 0, NULL, opts, &error));
  assert_has (error->message, "predictor 'probe_crash' crashed on kernel '_Z6saxpy2iiPfS_'");
  assert_has (error->message, "signal 11");
  g_clear_error (&error);
  g_hash_table_insert (opts, "mode", "abort");
  g_assert_null (ws_predict_trace (p, gpu, trace, 0, NULL, opts, &error));
  assert_has (error->message, "signal 6");
}

/* ---- the thread contract --------------------------------------------------- */

typedef struct {
  WsPredictorPlugin *plugin;
  const WsGpu *gpu;
  guint n;
  double max_overlaps;
  int pids[8];
} Caller;

static gpointer
call_plugin (gpointer data)
{
  Caller *c = data;
  for (guint i = 0; i < c->n; i++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (WsPrediction) p = predict_grid (c->plugin, c->gpu, 1, NULL, &error);
      g_assert_no_error (error);
      c->max_overlaps = MAX (c->max_overlaps, metric (p, "overlaps"));
      c->pids[i] = (int) metric (p, "pid");
    }
  return NULL;
}

/* @n_threads threads, @n calls each; the most overlaps the plugin saw (in
 * one instance: one process), and in @pids the processes that answered. */
static double
hammer (WsPredictorPlugin *plugin, guint n_threads, guint n, GHashTable *pids)
{
  g_autoptr (WsGpu) gpu = test_gpu ();
  Caller callers[4] = { 0 };
  GThread *threads[4];
  for (guint t = 0; t < n_threads; t++)
    {
      callers[t] = (Caller){ plugin, gpu, n, 0, { 0 } };
      threads[t] = g_thread_new ("caller", call_plugin, &callers[t]);
    }
  double most = 0;
  for (guint t = 0; t < n_threads; t++)
    {
      g_thread_join (threads[t]);
      most = MAX (most, callers[t].max_overlaps);
      for (guint i = 0; i < n; i++)
        g_hash_table_add (pids, GINT_TO_POINTER (callers[t].pids[i]));
    }
  return most;
}

static void
test_thread_contract (void)
{
  /* in process: one predict() at a time unless the plugin says otherwise */
  g_autoptr (WsPredictorPlugin) serial = load_probe ("probe_serial");
  serial->in_process = TRUE;
  g_autoptr (GHashTable) pids = g_hash_table_new (NULL, NULL);
  g_assert_cmpfloat (hammer (serial, 4, 3, pids), ==, 0);
  g_assert_cmpuint (g_hash_table_size (pids), ==, 1);
  g_assert_true (g_hash_table_contains (pids, GINT_TO_POINTER (getpid ())));
  g_autoptr (WsPredictorPlugin) parallel = load_probe ("probe_parallel");
  parallel->in_process = TRUE;
  g_hash_table_remove_all (pids);
  g_assert_cmpfloat (hammer (parallel, 2, 1, pids), >=, 1); /* the probe does see overlapping calls */

  /* in workers: never two calls at once in one process; the callers share
   * the plugin's pool of kept-alive workers (at most one per CPU) */
  g_autoptr (WsPredictorPlugin) isolated = load_probe ("probe_serial");
  g_hash_table_remove_all (pids);
  g_assert_cmpfloat (hammer (isolated, 4, 2, pids), ==, 0);
  g_assert_false (g_hash_table_contains (pids, GINT_TO_POINTER (getpid ())));
  g_assert_cmpuint (g_hash_table_size (pids), >=, 1);
  g_assert_cmpuint (g_hash_table_size (pids), <=, MIN (4, g_get_num_processors ()));
}

static void
test_teardown (void)
{
  g_autofree char *dir = make_tmp_dir ("ws-isolation-XXXXXX");
  g_autofree char *file = g_build_filename (dir, "teardown.txt", NULL);
  g_setenv ("WS_PROBE_TEARDOWN_FILE", file, TRUE);
  g_autoptr (WsGpu) gpu = test_gpu ();
  WsPredictorPlugin *p = load_probe ("probe_crash");
  g_autoptr (GError) error = NULL;
  g_autoptr (WsPrediction) a = predict_grid (p, gpu, 1, NULL, &error);
  g_autoptr (WsPrediction) b = predict_grid (p, gpu, 2, NULL, &error);
  g_assert_no_error (error);
  int pid = (int) metric (b, "pid");
  ws_predictor_plugin_free (p); /* closes the worker: teardown, exit */
  g_autofree char *text = NULL;
  g_assert_true (g_file_get_contents (file, &text, NULL, NULL));
  /* (one worker served both) */
  g_assert_cmpfloat (metric (b, "calls"), ==, metric (a, "calls") + 1);
  g_autofree char *expected = g_strdup_printf ("teardown %d after %d calls\n", pid, (int) metric (b, "calls"));
  g_assert_cmpstr (text, ==, expected);
  g_unsetenv ("WS_PROBE_TEARDOWN_FILE");
  g_unlink (file);
  g_rmdir (dir);
}

static void
test_option_spelling (void)
{
  g_autoptr (GError) error = NULL;
  const char *list[] = { "volkov.lambda=0.5", "gpumech.variant=full", "volkov.block_replacement=true", NULL };
  g_autoptr (GHashTable) t = ws_predictor_options_parse (list, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_hash_table_size (t), ==, 2);
  GHashTable *v = g_hash_table_lookup (t, "volkov");
  g_assert_cmpstr (g_hash_table_lookup (v, "lambda"), ==, "0.5");
  g_assert_cmpstr (g_hash_table_lookup (v, "block_replacement"), ==, "true");
  g_assert_cmpstr (g_hash_table_lookup (g_hash_table_lookup (t, "gpumech"), "variant"), ==, "full");
  /* KEY=VALUE alone: only with one model */
  const char *bare[] = { "lambda=0.5", NULL };
  g_assert_null (ws_predictor_options_parse (bare, NULL, &error));
  assert_has (error->message, "--option takes PLUGIN.KEY=VALUE");
  g_clear_error (&error);
  g_autoptr (GHashTable) one = ws_predictor_options_parse (bare, "volkov", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (g_hash_table_lookup (g_hash_table_lookup (one, "volkov"), "lambda"), ==, "0.5");
  const char *no_value[] = { "volkov.lambda", NULL };
  g_assert_null (ws_predictor_options_parse (no_value, "volkov", &error));
}

/* ---- the CLI --------------------------------------------------------------- */

typedef struct {
  int status;
  char *out, *err;
} Run;

static void
run_clear (Run *r)
{
  g_free (r->out);
  g_free (r->err);
}

static Run
cli (const char *db, const char *first, ...)
{
  g_autoptr (GPtrArray) args = g_ptr_array_new ();
  g_ptr_array_add (args, (gpointer) g_getenv ("WS_CLI"));
  g_ptr_array_add (args, (gpointer) "--db");
  g_ptr_array_add (args, (gpointer) db);
  va_list ap;
  va_start (ap, first);
  for (const char *a = first; a != NULL; a = va_arg (ap, const char *))
    g_ptr_array_add (args, (gpointer) a);
  va_end (ap);
  g_ptr_array_add (args, NULL);
  Run r = { 0 };
  g_autoptr (GError) error = NULL;
  g_spawn_sync (NULL, (char **) args->pdata, NULL, G_SPAWN_DEFAULT, NULL, NULL, &r.out, &r.err, &r.status, &error);
  g_assert_no_error (error);
  return r;
}

static int
exit_code (const Run *r)
{
  return WIFEXITED (r->status) ? WEXITSTATUS (r->status) : -1;
}

static JsonObject *
parse_object (const char *text, JsonParser *parser)
{
  g_autoptr (GError) error = NULL;
  g_assert_true (json_parser_load_from_data (parser, text, -1, &error));
  return json_node_get_object (json_parser_get_root (parser));
}

static void
test_cli_predict (void)
{
  g_autofree char *dir = make_tmp_dir ("ws-isolation-XXXXXX");
  g_setenv ("XDG_DATA_HOME", dir, TRUE);
  g_setenv ("WARPSCOPE_PLUGIN_PATH", g_getenv ("WS_PROBE_PLUGIN_DIR"), TRUE);
  g_autofree char *db = g_build_filename (dir, "ws.db", NULL);
  g_autofree char *k13 = g_build_filename (dir, "k13.json", NULL), *k4 = g_build_filename (dir, "k4.json", NULL);
  g_assert_true (g_file_set_contents (k13, "{\"name\":\"crashy\",\"grid_size\":13,\"block_size\":32}", -1, NULL));
  g_assert_true (g_file_set_contents (k4, "{\"name\":\"fine\",\"grid_size\":4,\"block_size\":32}", -1, NULL));

  Run r = cli (db, "predict", "--analytic", k13, "--gpu", "GTX 970", "--model", "probe_crash", NULL);
  g_assert_cmpint (exit_code (&r), ==, 1);
  assert_has (r.err, "predictor 'probe_crash' crashed on kernel 'crashy' for GTX 970");
  assert_has (r.err, "signal 11 (Segmentation fault)");
  run_clear (&r);

  r = cli (db, "--json", "predict", "--analytic", k4, "--gpu", "GTX 970", "--model", "probe_crash", "--option",
           "probe_crash.scale=7", NULL);
  g_assert_cmpint (exit_code (&r), ==, 0);
  g_autoptr (JsonParser) parser = json_parser_new ();
  JsonObject *o = parse_object (r.out, parser);
  JsonObject *l0 = json_array_get_object_element (json_object_get_array_member (o, "launches"), 0);
  g_assert_cmpfloat (json_object_get_double_member (l0, "cycles"), ==, 28);
  run_clear (&r);

  /* the old spelling with a single model, and mistakes */
  r = cli (db, "--json", "predict", "--analytic", k4, "--gpu", "GTX 970", "--model", "probe_crash", "--option",
           "scale=3", NULL);
  g_assert_cmpint (exit_code (&r), ==, 0);
  o = parse_object (r.out, parser);
  l0 = json_array_get_object_element (json_object_get_array_member (o, "launches"), 0);
  g_assert_cmpfloat (json_object_get_double_member (l0, "cycles"), ==, 12);
  run_clear (&r);
  r = cli (db, "predict", "--analytic", k4, "--gpu", "GTX 970", "--model", "probe_crash", "--option",
           "probe_crash.nope=1", NULL);
  g_assert_cmpint (exit_code (&r), ==, 2);
  assert_has (r.err, "predictor 'probe_crash' has no option 'nope' (its options: mode, scale)");
  run_clear (&r);
  r = cli (db, "predict", "--analytic", k4, "--gpu", "GTX 970", "--model", "probe_crash", "--option", "volkov.lambda=1",
           NULL);
  g_assert_cmpint (exit_code (&r), ==, 2);
  assert_has (r.err, "this command does not run predictor 'volkov'");
  run_clear (&r);

  /* a traced launch that hangs: stopped after --plugin-timeout */
  gint64 t0 = g_get_monotonic_time ();
  r = cli (db, "predict", "--trace", g_getenv ("WS_TRACE_SAXPY2"), "--gpu", "GTX 970", "--model", "probe_crash",
           "--option", "probe_crash.mode=hang", "--plugin-timeout", "1", NULL);
  g_assert_cmpfloat ((g_get_monotonic_time () - t0) / 1e6, <, 10);
  g_assert_cmpint (exit_code (&r), ==, 1);
  assert_has (r.err, "predictor 'probe_crash' on kernel '_Z6saxpy2iiPfS_' for GTX 970: no answer within 1 s");
  run_clear (&r);
  r = cli (db, "predict", "--trace", g_getenv ("WS_TRACE_SAXPY2"), "--gpu", "GTX 970", "--model", "probe_crash",
           "--option", "probe_crash.mode=abort", NULL);
  g_assert_cmpint (exit_code (&r), ==, 1);
  assert_has (r.err, "signal 6 (Aborted)");
  run_clear (&r);

  /* --model all: the crashing plugin fails its launch, the others go on */
  r = cli (db, "--json", "predict", "--trace", g_getenv ("WS_TRACE_SAXPY2"), "--gpu", "GTX 970", "--model", "all",
           "--option", "probe_crash.mode=segv", NULL);
  g_assert_cmpint (exit_code (&r), ==, 1);
  assert_has (r.err, "predictor 'probe_crash' crashed on kernel '_Z6saxpy2iiPfS_' for GTX 970");
  g_autoptr (JsonParser) all_parser = json_parser_new ();
  g_assert_true (json_parser_load_from_data (all_parser, r.out, -1, NULL));
  JsonArray *models = json_node_get_array (json_parser_get_root (all_parser));
  gboolean crash_seen = FALSE, volkov_seen = FALSE;
  for (guint i = 0; i < json_array_get_length (models); i++)
    {
      JsonObject *m = json_array_get_object_element (models, i);
      const char *name = json_object_get_string_member (m, "model");
      JsonArray *launches = json_object_get_array_member (m, "launches");
      if (strcmp (name, "probe_crash") == 0)
        {
          crash_seen = TRUE;
          g_assert_cmpuint (json_array_get_length (launches), ==, 0);
          JsonObject *e = json_array_get_object_element (json_object_get_array_member (m, "errors"), 0);
          g_assert_cmpint (json_object_get_int_member (e, "index"), ==, 0);
          assert_has (json_object_get_string_member (e, "error"), "signal 11");
        }
      else if (strcmp (name, "volkov") == 0)
        {
          volkov_seen = TRUE;
          g_assert_cmpuint (json_array_get_length (launches), ==, 1);
          g_assert_cmpfloat (json_object_get_double_member (json_array_get_object_element (launches, 0), "cycles"), >,
                             0);
          g_assert_false (json_object_has_member (m, "errors"));
        }
    }
  g_assert_true (crash_seen && volkov_seen);
  run_clear (&r);

  /* --in-process: the plugin shares the CLI's fate (for debugging) */
  r = cli (db, "predict", "--analytic", k13, "--gpu", "GTX 970", "--model", "probe_crash", "--in-process", NULL);
  g_assert_true (WIFSIGNALED (r.status) && WTERMSIG (r.status) == SIGSEGV);
  run_clear (&r);
  g_unsetenv ("WARPSCOPE_PLUGIN_PATH");
}

/* A sweep over grid sizes: the points whose prediction crashes, aborts or
 * hangs fail with the reason, the others carry on with their values. */
static void
test_cli_sweep (void)
{
  g_autofree char *dir = make_tmp_dir ("ws-isolation-XXXXXX");
  g_setenv ("XDG_DATA_HOME", dir, TRUE);
  g_setenv ("WARPSCOPE_PLUGIN_PATH", g_getenv ("WS_PROBE_PLUGIN_DIR"), TRUE);
  g_autofree char *db = g_build_filename (dir, "ws.db", NULL);
  g_autofree char *app = g_build_filename (dir, "app.json", NULL);
  g_assert_true (g_file_set_contents (
    app,
    "{\"kind\":\"application\",\"name\":\"gridsweep\",\"variables\":[{\"name\":\"g\",\"default\":4}],"
    "\"processes\":[{\"label\":\"CPU\",\"operations\":[{\"op\":\"kernel\",\"name\":\"k\",\"analytic\":{"
    "\"grid_size\":\"g\",\"block_size\":\"256\",\"cuda_core_instructions\":\"1\",\"issued_instructions\":\"1\","
    "\"gmem_bytes\":\"0\",\"latency_bound\":\"1\",\"occupancy_warps\":\"64\",\"lambda\":\"1\"}}]}]}",
    -1, NULL));
  Run r = cli (db, "model", "list", NULL);
  g_assert_cmpint (exit_code (&r), ==, 0);
  run_clear (&r);
  r = cli (db, "model", "import", app, NULL);
  g_assert_cmpint (exit_code (&r), ==, 0);
  run_clear (&r);

  r = cli (db, "--json", "model", "run", "--system", "testbed-gtx970", "--app", "gridsweep", "--predictor",
           "probe_crash", "--sweep", "g=4,13,14,15,20", "--threads", "2", "--plugin-timeout", "2", "--option",
           "probe_crash.scale=7", "--no-store", NULL);
  g_assert_cmpint (exit_code (&r), ==, 1); /* some points failed */
  g_autoptr (JsonParser) parser = json_parser_new ();
  JsonObject *o = parse_object (r.out, parser);
  JsonArray *runs = json_object_get_array_member (o, "runs");
  g_assert_cmpuint (json_array_get_length (runs), ==, 5);
  /* the options the sweep ran with are part of its record */
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (o, "predictor_options"), "scale"), ==,
                   "7");
  static const char *const why[] = { NULL, "signal 11", "signal 6", "no answer within 2 s", NULL };
  double kernel_seconds[5] = { 0 };
  for (guint i = 0; i < 5; i++)
    {
      JsonObject *run = json_array_get_object_element (runs, i);
      if (why[i] != NULL)
        {
          g_assert_false (json_object_get_boolean_member (run, "ok"));
          assert_has (json_object_get_string_member (run, "error"), "predictor 'probe_crash'");
          assert_has (json_object_get_string_member (run, "error"), why[i]);
          continue;
        }
      g_assert_true (json_object_get_boolean_member (run, "ok"));
      JsonArray *ops = json_object_get_array_member (run, "operations");
      for (guint k = 0; k < json_array_get_length (ops); k++)
        {
          JsonObject *op = json_array_get_object_element (ops, k);
          if (strcmp (json_object_get_string_member (op, "op"), "kernel") == 0)
            kernel_seconds[i] = json_object_get_double_member (op, "end") - json_object_get_double_member (op, "start");
        }
    }
  /* 7 cycles per block (--option reached the plugin): 28 and 140 cycles */
  g_assert_cmpfloat (kernel_seconds[0], >, 0);
  g_assert_cmpfloat_with_epsilon (kernel_seconds[4] / kernel_seconds[0], 5, 1e-9);
  /* the plugin's warnings, once each */
  JsonArray *warnings = json_object_get_array_member (o, "warnings");
  g_autoptr (GString) all = g_string_new (NULL);
  for (guint i = 0; i < json_array_get_length (warnings); i++)
    g_string_append_printf (all, "%s\n", json_array_get_string_element (warnings, i));
  assert_has (all->str, "predictor 'probe_crash': probe saw size 4");
  assert_has (all->str, "predictor 'probe_crash': probe saw size 20");
  run_clear (&r);

  r = cli (db, "model", "run", "--system", "testbed-gtx970", "--app", "gridsweep", "--predictor", "probe_crash",
           "--option", "probe_crash.scale=x", "--no-store", NULL);
  g_assert_cmpint (exit_code (&r), ==, 2);
  assert_has (r.err, "option 'scale' takes an integer number, not 'x'");
  run_clear (&r);
  r = cli (db, "model", "run", "--system", "testbed-gtx970", "--app", "gridsweep", "--predictor", "probe_crash",
           "--option", "scale=3", "--no-store", NULL);
  g_assert_cmpint (exit_code (&r), ==, 2);
  assert_has (r.err, "--option takes PLUGIN.KEY=VALUE");
  run_clear (&r);
  g_unsetenv ("WARPSCOPE_PLUGIN_PATH");
}

/* A user plugin named like a built-in one hides it, and says so. */
static void
test_cli_shadowing (void)
{
  g_autofree char *dir = make_tmp_dir ("ws-isolation-XXXXXX");
  g_setenv ("XDG_DATA_HOME", dir, TRUE);
  g_unsetenv ("WARPSCOPE_PLUGIN_PATH");
  g_autofree char *plugins = g_build_filename (dir, "warpscope", "plugins", NULL);
  g_assert_cmpint (g_mkdir_with_parents (plugins, 0700), ==, 0);
  g_autofree char *mine = g_build_filename (plugins, "volkov." G_MODULE_SUFFIX, NULL);
  g_autofree char *builtin = g_build_filename (g_getenv ("WS_BUILD_DIR"), "plugins", "volkov",
                                               "volkov." G_MODULE_SUFFIX, NULL);
  g_autofree char *content = NULL;
  gsize len;
  g_assert_true (g_file_get_contents (builtin, &content, &len, NULL));
  g_assert_true (g_file_set_contents (mine, content, (gssize) len, NULL));
  g_autofree char *db = g_build_filename (dir, "ws.db", NULL);
  Run r = cli (db, "--json", "plugins", "list", NULL);
  g_assert_cmpint (exit_code (&r), ==, 0);
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_assert_true (json_parser_load_from_data (parser, r.out, -1, NULL));
  JsonArray *list = json_node_get_array (json_parser_get_root (parser));
  gboolean seen_mine = FALSE, seen_builtin = FALSE;
  for (guint i = 0; i < json_array_get_length (list); i++)
    {
      JsonObject *p = json_array_get_object_element (list, i);
      const char *path = json_object_get_string_member (p, "path");
      if (strcmp (path, mine) == 0)
        {
          seen_mine = TRUE;
          g_assert_cmpstr (json_object_get_string_member (p, "status"), ==, "ok");
          g_assert_false (json_object_get_boolean_member (p, "builtin"));
          g_assert_cmpstr (json_object_get_string_member (p, "shadows"), ==, builtin);
        }
      else if (strcmp (path, builtin) == 0)
        {
          seen_builtin = TRUE;
          g_assert_cmpstr (json_object_get_string_member (p, "status"), ==, "shadowed");
          g_assert_true (json_object_get_boolean_member (p, "builtin"));
          g_assert_cmpstr (json_object_get_string_member (p, "shadowed_by"), ==, mine);
        }
    }
  g_assert_true (seen_mine && seen_builtin);
  assert_has (r.err, "hides Warpscope's plugin 'volkov'");
  run_clear (&r);
  g_unlink (mine);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/predict/isolation/worker-kept-alive-and-restarted-after-crash", test_worker_kept_and_restarted);
  g_test_add_func ("/predict/isolation/hang-stopped-at-timeout", test_hang_times_out);
  g_test_add_func ("/predict/isolation/memory-blow-up-stopped-at-limit", test_memory_limit);
  g_test_add_func ("/predict/isolation/traced-launch-same-as-in-process", test_trace_launch);
  g_test_add_func ("/predict/threads/serialised-unless-thread-safe", test_thread_contract);
  g_test_add_func ("/predict/plugin/teardown-after-last-prediction", test_teardown);
  g_test_add_func ("/predict/options/plugin-key-value-spelling", test_option_spelling);
  g_test_add_func ("/predict/cli/crash-hang-abort-are-errors", test_cli_predict);
  g_test_add_func ("/predict/cli/sweep-goes-on-past-crashes", test_cli_sweep);
  g_test_add_func ("/predict/cli/user-plugin-shadowing-builtin-reported", test_cli_shadowing);
  return g_test_run ();
}
