/* Kernels profiled on demand: an application's kernel names a program and
 * its arguments ("{N}"), each distinct argument list is profiled once on the
 * emulator, the trace is kept in the workspace and reused, and errors and
 * cancellation name the operation. */
#include "system/ws-system.h"
#include "predict/ws-predict.h"
#include "trace/ws-trace.h"
#include "launch/ws-launch.h"
#include "system-test-util.h"

#include <math.h>
#include <string.h>
#include <sys/stat.h>
#include <glib/gstdio.h>

typedef struct {
  char *dir;
  WsStore *store;
  WsSystemModel *system;
} Fixture;

static void
fixture_set_up (Fixture *f, gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  f->store = system_test_workspace (&f->dir);
  f->system = ws_system_store_get_system (f->store, "testbed-gtx970", &error);
  g_assert_no_error (error);
}

static void
fixture_tear_down (Fixture *f, gconstpointer data)
{
  ws_system_model_free (f->system);
  ws_store_close (f->store);
  system_test_rm_rf (f->dir);
  g_free (f->dir);
}

/* The example program, or NULL (and the test skipped) without nvcc. */
static const char *
example (void)
{
  const char *e = g_getenv ("WS_SAXPY2_EXAMPLE");
  if (e == NULL || !g_file_test (e, G_FILE_TEST_IS_EXECUTABLE))
    {
      g_test_skip ("examples/saxpy2.cu was not built (no nvcc)");
      return NULL;
    }
  return e;
}

/* FALSE (and the test skipped) where Warpscope's CUDA runtime was not
 * built (no CUDA headers): no program can be profiled there. */
static gboolean
runtime_built (void)
{
  g_autofree char *dir = ws_launch_find_runtime (NULL);
  if (dir == NULL)
    g_test_skip ("the Warpscope CUDA runtime was not built (no CUDA headers)");
  return dir != NULL;
}

/* saxpy2 (seed 004 Listing 6) with its kernel run by @program with @args (JSON). */
static char *
app_json (const char *name, const char *program, const char *args, const char *extra)
{
  return g_strdup_printf ("{\"kind\":\"application\",\"name\":\"%s\",\"variables\":[{\"name\":\"N\",\"default\":16384},"
                          "{\"name\":\"computeIntensity\",\"default\":16},{\"name\":\"blockSize\",\"default\":256},"
                          "{\"name\":\"copies\",\"default\":1}],"
                          "\"processes\":[{\"label\":\"CPU\",\"operations\":[{\"op\":\"h2d\",\"bytes\":\"4*N*copies\"},"
                          "{\"op\":\"kernel\",\"name\":\"saxpy2\",\"program\":\"%s\",\"args\":%s%s},"
                          "{\"op\":\"d2h\",\"bytes\":\"4*N\"}]}]}",
                          name, program, args, extra ? extra : "");
}

static WsAppModel *
import (Fixture *f, const char *json)
{
  g_autoptr (JsonNode) node = system_test_parse (json);
  g_autoptr (GError) error = NULL;
  g_assert_true (ws_system_store_put_app (f->store, node, TRUE, &error));
  g_assert_no_error (error);
  const char *name = json_object_get_string_member (json_node_get_object (node), "name");
  WsAppModel *app = ws_system_store_get_app (f->store, name, &error);
  g_assert_no_error (error);
  return app;
}

static double
kernel_seconds (const WsSystemResult *r)
{
  for (guint i = 0; i < r->operations->len; i++)
    {
      const WsSystemOpRecord *o = r->operations->pdata[i];
      if (strcmp (o->op, "kernel") == 0)
        return o->end - o->start;
    }
  g_assert_not_reached ();
  return 0;
}

static GPtrArray *
sweep (WsSystemEnv *env, const WsAppModel *app, const char *const *axes_text, guint threads)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) axes = g_ptr_array_new_with_free_func ((GDestroyNotify) ws_sweep_axis_free);
  for (guint i = 0; axes_text[i] != NULL; i++)
    {
      WsSweepAxis *a = ws_sweep_axis_parse (axes_text[i], &error);
      g_assert_no_error (error);
      g_ptr_array_add (axes, a);
    }
  GPtrArray *results = ws_system_sweep (env, app, NULL, axes, threads, NULL, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < results->len; i++)
    {
      WsSystemResult *r = results->pdata[i];
      if (!r->ok)
        g_error ("point %u failed: %s", i, r->error);
    }
  return results;
}

static char *
ondemand_dir (Fixture *f)
{
  g_autofree char *dir = ws_system_store_trace_dir (f->store);
  return g_build_filename (dir, "on-demand", NULL);
}

static int
compare_paths (gconstpointer a, gconstpointer b)
{
  return strcmp (*(char *const *) a, *(char *const *) b);
}

/* The finished traces in the on-demand folder (partial files excluded), by name. */
static GPtrArray *
trace_files (Fixture *f)
{
  g_autofree char *dir = ondemand_dir (f);
  GPtrArray *out = g_ptr_array_new_with_free_func (g_free);
  GDir *d = g_dir_open (dir, 0, NULL);
  const char *n;
  while (d != NULL && (n = g_dir_read_name (d)) != NULL)
    if (g_str_has_suffix (n, ".wstrace"))
      g_ptr_array_add (out, g_build_filename (dir, n, NULL));
  if (d != NULL)
    g_dir_close (d);
  g_ptr_array_sort (out, compare_paths);
  return out;
}

static gint64
mtime_ns (const char *path)
{
  struct stat st;
  g_assert_cmpint (stat (path, &st), ==, 0);
  return (gint64) st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec;
}

static guint
count_lines (const char *path)
{
  g_autofree char *text = NULL;
  if (!g_file_get_contents (path, &text, NULL, NULL))
    return 0;
  guint n = 0;
  for (const char *p = text; *p; p++)
    n += *p == '\n';
  return n;
}

/* A script that records each run in @counter and then runs the example. */
static char *
counting_wrapper (Fixture *f, const char *program, const char *counter)
{
  g_autofree char *script = g_strdup_printf ("#!/bin/sh\necho run >> '%s'\nexec '%s' \"$@\"\n", counter, program);
  char *path = g_build_filename (f->dir, "saxpy2-counted", NULL);
  g_assert_true (g_file_set_contents (path, script, -1, NULL));
  g_assert_cmpint (g_chmod (path, 0755), ==, 0);
  return path;
}

/* ---- a sweep over N follows N, each N profiled once ------------------------ */

static void
test_sweep_follows_n (Fixture *f, gconstpointer data)
{
  const char *program = example ();
  if (program == NULL)
    return;
  g_autofree char *counter = g_build_filename (f->dir, "runs.txt", NULL);
  g_autofree char *wrapper = counting_wrapper (f, program, counter);
  g_autofree char *json = app_json ("saxpy2-ondemand", wrapper, "[\"{N}\", \"{computeIntensity}\", \"{blockSize}\"]",
                                    NULL);
  g_autoptr (WsAppModel) app = import (f, json);
  g_autoptr (GError) error = NULL;

  /* N × copies: 6 points on 4 threads, but only 3 distinct argument lists
   * (copies is not an argument), so the program runs 3 times. */
  static const char *const axes[] = { "N=4096,16384,65536", "copies=1,2", NULL };
  g_autoptr (WsSystemEnv) env = ws_system_env_new (f->store, f->system, "volkov", &error);
  g_assert_no_error (error);
  g_auto (GStrv) none = ws_system_env_get_profiled_traces (env);
  g_assert_cmpuint (g_strv_length (none), ==, 0);
  double t0 = g_get_monotonic_time ();
  g_autoptr (GPtrArray) rv = sweep (env, app, axes, 4);
  double profile_s = (g_get_monotonic_time () - t0) / 1e6;
  g_assert_cmpuint (rv->len, ==, 6);
  g_assert_cmpuint (count_lines (counter), ==, 3);
  g_autoptr (GPtrArray) files = trace_files (f);
  g_assert_cmpuint (files->len, ==, 3);
  g_auto (GStrv) profiled = ws_system_env_get_profiled_traces (env);
  g_assert_cmpuint (g_strv_length (profiled), ==, 3);
  for (guint i = 0; i < 3; i++)
    g_assert_true (g_ptr_array_find_with_equal_func (files, profiled[i], g_str_equal, NULL));

  /* Kernel times grow with N (points 0, 2, 4 have copies = 1), and a point
   * with the same N but other copies has the same kernel time. */
  double kv[3];
  for (guint i = 0; i < 3; i++)
    {
      kv[i] = kernel_seconds (rv->pdata[2 * i]);
      /* (end - start at another start: equal up to rounding) */
      g_assert_cmpfloat_with_epsilon (kernel_seconds (rv->pdata[2 * i + 1]), kv[i], kv[i] * 1e-9);
    }
  g_assert_cmpfloat (kv[0], >, 0);
  g_assert_cmpfloat (kv[1], >, kv[0]);
  g_assert_cmpfloat (kv[2], >, kv[1]);

  /* Each is volkov's prediction for the trace of that N, which the program
   * wrote with N as its first argument (N / blockSize thread blocks). */
  g_autoptr (GPtrArray) plugins = ws_predictor_scan ();
  WsPredictorPlugin *volkov = ws_predictor_find (plugins, "volkov", &error);
  g_assert_no_error (error);
  g_autoptr (WsGpu) gpu = ws_store_get_gpu (f->store, "GTX 970", &error);
  g_assert_no_error (error);
  static const guint n_values[] = { 4096, 16384, 65536 };
  for (guint i = 0; i < 3; i++)
    {
      g_autoptr (WsTrace) trace = ws_trace_open (profiled[i], &error);
      g_assert_no_error (error);
      g_assert_cmpuint (ws_trace_get_n_launches (trace), ==, 1);
      g_autoptr (WsPrediction) p = ws_predict_trace (volkov, gpu, trace, 0, NULL, NULL, &error);
      g_assert_no_error (error);
      const WsTraceLaunch *launch = ws_trace_get_launch (trace, 0);
      guint k = 0;
      while (k < 3 && n_values[k] != launch->grid[0] * 256)
        k++;
      g_assert_cmpuint (k, <, 3);
      g_assert_cmpfloat_with_epsilon (p->seconds, kv[k], kv[k] * 1e-9);
    }

  /* A later environment (a later run) with the detailed simulator reuses
   * the traces: the program does not run again, the files are untouched. */
  gint64 before[3];
  for (guint i = 0; i < 3; i++)
    before[i] = mtime_ns (files->pdata[i]);
  g_autoptr (WsSystemEnv) senv = ws_system_env_new (f->store, f->system, WS_SYSTEM_PREDICTOR_SIMULATOR, &error);
  g_assert_no_error (error);
  static const char *const n_only[] = { "N=4096,16384,65536", NULL };
  t0 = g_get_monotonic_time ();
  g_autoptr (GPtrArray) rs = sweep (senv, app, n_only, 2);
  double reuse_s = (g_get_monotonic_time () - t0) / 1e6;
  g_assert_cmpuint (count_lines (counter), ==, 3);
  g_autoptr (GPtrArray) files2 = trace_files (f);
  g_assert_cmpuint (files2->len, ==, 3);
  for (guint i = 0; i < 3; i++)
    g_assert_cmpint (mtime_ns (files2->pdata[i]), ==, before[i]);
  g_auto (GStrv) reused = ws_system_env_get_profiled_traces (senv);
  g_assert_cmpuint (g_strv_length (reused), ==, 3);
  double ks[3];
  for (guint i = 0; i < 3; i++)
    ks[i] = kernel_seconds (rs->pdata[i]);
  g_assert_cmpfloat (ks[0], >, 0);
  g_assert_cmpfloat (ks[1], >, ks[0]);
  g_assert_cmpfloat (ks[2], >, ks[1]);
  g_test_message ("volkov sweep with 3 profiles: %.3f s; simulator sweep reusing them: %.3f s", profile_s, reuse_s);
  g_test_message ("kernel seconds, volkov: %g %g %g; simulator: %g %g %g", kv[0], kv[1], kv[2], ks[0], ks[1], ks[2]);

  /* A program newer than its traces is profiled again. */
  g_autoptr (GFile) wf = g_file_new_for_path (wrapper);
  guint64 now = (guint64) g_get_real_time () / G_USEC_PER_SEC + 10;
  g_assert_true (
    g_file_set_attribute_uint64 (wf, G_FILE_ATTRIBUTE_TIME_MODIFIED, now, G_FILE_QUERY_INFO_NONE, NULL, &error));
  g_assert_no_error (error);
  g_autoptr (WsSystemEnv) env3 = ws_system_env_new (f->store, f->system, "volkov", &error);
  g_autoptr (WsSystemResult) r3 = ws_system_evaluate (env3, app, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (count_lines (counter), ==, 4);
  g_assert_cmpfloat_with_epsilon (kernel_seconds (r3), kv[1], kv[1] * 1e-9); /* N = 16384, the default */
}

/* ---- the demo's saxpy2-profiled ------------------------------------------ */

static void
test_demo_profiled (Fixture *f, gconstpointer data)
{
  const char *program = example ();
  if (program == NULL)
    return;
  g_autoptr (GError) error = NULL;
  g_auto (GStrv) before = ws_system_store_list_apps (f->store, &error);
  g_assert_false (g_strv_contains ((const char *const *) before, "saxpy2-profiled"));
  g_setenv ("WARPSCOPE_DEMO_PROGRAM", program, TRUE);
  gboolean ok = ws_system_store_ensure_demo (f->store, &error);
  g_setenv ("WARPSCOPE_DEMO_PROGRAM", "/nonexistent/saxpy2", TRUE);
  g_assert_no_error (error);
  g_assert_true (ok);
  g_autoptr (WsAppModel) app = ws_system_store_get_app (f->store, "saxpy2-profiled", &error);
  g_assert_no_error (error);
  g_autoptr (JsonNode) node = ws_app_model_to_json (app);
  g_autofree char *canon = g_canonicalize_filename (program, NULL);
  JsonObject *kernel = json_array_get_object_element (
    json_object_get_array_member (
      json_array_get_object_element (json_object_get_array_member (json_node_get_object (node), "processes"), 0),
      "operations"),
    2);
  g_assert_cmpstr (json_object_get_string_member (kernel, "program"), ==, canon);
  JsonArray *args = json_object_get_array_member (kernel, "args");
  g_assert_cmpstr (json_array_get_string_element (args, 0), ==, "{N}");
  g_assert_cmpstr (json_array_get_string_element (args, 1), ==, "{computeIntensity}");
  g_assert_cmpstr (json_array_get_string_element (args, 2), ==, "{blockSize}");

  /* computeIntensity and blockSize are real inputs too. */
  g_autoptr (WsSystemEnv) env = ws_system_env_new (f->store, f->system, NULL, &error);
  g_assert_no_error (error);
  static const char *const axes[] = { "computeIntensity=1,64", NULL };
  g_autoptr (GPtrArray) r = sweep (env, app, axes, 0);
  g_assert_cmpfloat (kernel_seconds (r->pdata[1]), >, kernel_seconds (r->pdata[0]));
}

/* ---- arguments: literal text, {EXPR}, numbers, round trip ----------------- */

/* A program that fails and prints its arguments: the error shows the
 * command line with the evaluated arguments and the end of its stderr. */
static void
test_args_and_failure_message (Fixture *f, gconstpointer data)
{
  if (!runtime_built ())
    return;
  g_autofree char *script = g_build_filename (f->dir, "echo-fail", NULL);
  g_assert_true (
    g_file_set_contents (script, "#!/bin/sh\necho \"first line\" >&2\necho \"got $*\" >&2\nexit 3\n", -1, NULL));
  g_assert_cmpint (g_chmod (script, 0755), ==, 0);
  g_autofree char *json = app_json ("echo", script,
                                    "[\"--n={N*2}\", \"{N/3}\", 7, 0.25, \"{{literal}}\", \"plain\", \"a b\"]", NULL);
  g_autoptr (WsAppModel) app = import (f, json);

  /* The stored model round-trips the arguments as written. */
  g_autoptr (JsonNode) node = ws_app_model_to_json (app);
  JsonObject *kernel = json_array_get_object_element (
    json_object_get_array_member (
      json_array_get_object_element (json_object_get_array_member (json_node_get_object (node), "processes"), 0),
      "operations"),
    1);
  JsonArray *args = json_object_get_array_member (kernel, "args");
  g_assert_cmpuint (json_array_get_length (args), ==, 7);
  g_assert_cmpstr (json_array_get_string_element (args, 0), ==, "--n={N*2}");
  g_assert_cmpint (json_array_get_int_element (args, 2), ==, 7);
  g_assert_cmpfloat (json_array_get_double_element (args, 3), ==, 0.25);
  g_autoptr (WsAppModel) again = ws_app_model_from_json (node, NULL);
  g_assert_nonnull (again);

  g_autoptr (GError) error = NULL;
  g_autoptr (WsSystemEnv) env = ws_system_env_new (f->store, f->system, NULL, &error);
  g_autoptr (WsSystemResult) r = ws_system_evaluate (env, app, NULL, &error);
  g_assert_null (r);
  g_assert_nonnull (error);
  g_autofree char *third = g_strdup_printf ("%.17g", 16384.0 / 3);
  g_autofree char *expected = g_strdup_printf (
    "application 'echo', label 'CPU', operation 2 (kernel): profiling `%s --n=32768 %s 7 0.25 "
    "'{literal}' plain 'a b'`: it exited with status 3; the end of its standard error:\nfirst line\n"
    "got --n=32768 %s 7 0.25 {literal} plain a b",
    script, third, third);
  g_assert_cmpstr (error->message, ==, expected);
  g_auto (GStrv) traces = ws_system_env_get_profiled_traces (env);
  g_assert_cmpuint (g_strv_length (traces), ==, 0);
  g_autoptr (GPtrArray) files = trace_files (f);
  g_assert_cmpuint (files->len, ==, 0); /* no partial trace left behind */
}

/* ---- errors name the operation -------------------------------------------- */

static char *
import_error (const char *json)
{
  g_autoptr (JsonNode) node = system_test_parse (json);
  g_autoptr (GError) error = NULL;
  g_autoptr (WsAppModel) app = ws_app_model_from_json (node, &error);
  g_assert_null (app);
  g_assert_nonnull (error);
  return g_strdup (error->message);
}

static char *
run_error (Fixture *f, const char *json)
{
  g_autoptr (WsAppModel) app = import (f, json);
  g_autoptr (GError) error = NULL;
  g_autoptr (WsSystemEnv) env = ws_system_env_new (f->store, f->system, NULL, &error);
  g_assert_no_error (error);
  g_autoptr (WsSystemResult) r = ws_system_evaluate (env, app, NULL, &error);
  g_assert_null (r);
  g_assert_nonnull (error);
  return g_strdup (error->message);
}

static void
test_errors_name_operation (Fixture *f, gconstpointer data)
{
  /* At import: expressions in arguments are compiled, columns count from
   * the start of the argument. */
  g_autofree char *j1 = app_json ("bad", "/bin/true", "[\"{N}\", \"x={N +}\"]", NULL);
  g_autofree char *e1 = import_error (j1);
  g_assert_true (g_str_has_prefix (e1, "application 'bad', label 'CPU', operation 2 (kernel), field 'args[1]': "
                                       "column 7: "));
  g_autofree char *j2 = app_json ("bad", "/bin/true", "[\"{N\"]", NULL);
  g_autofree char *e2 = import_error (j2);
  g_assert_cmpstr (e2, ==,
                   "application 'bad', label 'CPU', operation 2 (kernel), field 'args[0]': column 1: "
                   "'{' without a closing '}' (write '{{' for a literal brace)");
  g_autofree char *j3 = app_json ("bad", "/bin/true", "[true]", NULL);
  g_autofree char *e3 = import_error (j3);
  g_assert_nonnull (strstr (e3, "operation 2 (kernel), field 'args[0]': an argument is a string"));
  g_autofree char *j4 = app_json ("bad", "/bin/true", "[]", ",\"trace\":\"x.wstrace\"");
  g_autofree char *e4 = import_error (j4);
  g_assert_nonnull (strstr (e4, "operation 2 (kernel): a kernel has exactly one of 'analytic'"));

  /* When the application runs: an unknown variable (with a suggestion). */
  g_autofree char *j5 = app_json ("typo", "/bin/true", "[\"n={Nn}\"]", NULL);
  g_autofree char *e5 = run_error (f, j5);
  g_assert_cmpstr (e5, ==,
                   "application 'typo', label 'CPU', operation 2 (kernel), field 'args[0]': column 4: "
                   "unknown variable 'Nn' in 'Nn' (did you mean N?)");

  /* A missing program, and one that is not executable. */
  g_autofree char *j6 = app_json ("missing", "/nonexistent/saxpy2", "[\"{N}\"]", NULL);
  g_autofree char *e6 = run_error (f, j6);
  g_assert_true (g_str_has_prefix (e6, "application 'missing', label 'CPU', operation 2 (kernel), field "
                                       "'program': '/nonexistent/saxpy2' does not exist"));
  g_autofree char *plain = g_build_filename (f->dir, "not-executable", NULL);
  g_assert_true (g_file_set_contents (plain, "data", -1, NULL));
  g_autofree char *j7 = app_json ("noexec", plain, "[]", NULL);
  g_autofree char *e7 = run_error (f, j7);
  g_assert_nonnull (strstr (e7, "operation 2 (kernel), field 'program': "));
  g_assert_true (g_str_has_suffix (e7, "is not executable"));

  /* A relative program is relative to the imported file: the stored model
   * has the absolute path. */
  g_autofree char *cwd = g_get_current_dir ();
  g_assert_cmpint (g_chdir (f->dir), ==, 0);
  g_autofree char *j9 = app_json ("relative", "sub/prog", "[]", NULL);
  g_autoptr (WsAppModel) rel = import (f, j9);
  g_assert_cmpint (g_chdir (cwd), ==, 0);
  g_autoptr (JsonNode) rn = ws_app_model_to_json (rel);
  g_autofree char *text = json_to_string (rn, FALSE);
  g_autofree char *abs = g_build_filename (f->dir, "sub", "prog", NULL);
  g_assert_nonnull (strstr (text, abs));

  if (!runtime_built ())
    return;
  /* A program that exits 1. */
  g_autofree char *j8 = app_json ("false", "/bin/false", "[\"{N}\"]", NULL);
  g_autofree char *e8 = run_error (f, j8);
  g_assert_cmpstr (e8, ==,
                   "application 'false', label 'CPU', operation 2 (kernel): profiling `/bin/false 16384`: "
                   "it exited with status 1; it wrote nothing on standard error");

  /* A launch the program did not make. */
  const char *program = example ();
  if (program == NULL)
    return;
  g_autofree char *j10 = app_json ("launch", program, "[\"{N}\"]", ",\"launch\":\"3\"");
  g_autofree char *e10 = run_error (f, j10);
  g_autofree char *want = g_strdup_printf ("application 'launch', label 'CPU', operation 2 (kernel): launch 3 is not "
                                           "in the trace of `%s 16384` (it made 1 launches)",
                                           program);
  g_assert_true (g_str_has_prefix (e10, want));
}

/* ---- cancellation ----------------------------------------------------------- */

static gboolean
cancel_later (gpointer data)
{
  g_cancellable_cancel (data);
  return G_SOURCE_REMOVE;
}

static gpointer
cancel_thread (gpointer data)
{
  g_usleep (300 * 1000);
  cancel_later (data);
  return NULL;
}

static void
test_cancel_stops_profile (Fixture *f, gconstpointer data)
{
  if (!runtime_built ())
    return;
  g_autofree char *script = g_build_filename (f->dir, "slow", NULL);
  g_autofree char *marker = g_build_filename (f->dir, "started", NULL);
  g_autofree char *body = g_strdup_printf ("#!/bin/sh\ntouch '%s'\nexec sleep 60\n", marker);
  g_assert_true (g_file_set_contents (script, body, -1, NULL));
  g_assert_cmpint (g_chmod (script, 0755), ==, 0);
  g_autofree char *json = app_json ("slow", script, "[\"{N}\"]", NULL);
  g_autoptr (WsAppModel) app = import (f, json);
  g_autoptr (GError) error = NULL;

  /* Cancelled before: the program never starts. */
  g_autoptr (WsSystemEnv) env = ws_system_env_new (f->store, f->system, NULL, &error);
  g_autoptr (GCancellable) before = g_cancellable_new ();
  g_cancellable_cancel (before);
  ws_system_env_set_cancellable (env, before);
  g_autoptr (WsSystemResult) r0 = ws_system_evaluate (env, app, NULL, &error);
  g_assert_null (r0);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_nonnull (strstr (error->message, "operation 2 (kernel): profiling `"));
  g_assert_false (g_file_test (marker, G_FILE_TEST_EXISTS));
  g_clear_error (&error);

  /* Cancelled from another thread while it runs: it is killed at once. */
  g_autoptr (GCancellable) during = g_cancellable_new ();
  ws_system_env_set_cancellable (env, during);
  GThread *t = g_thread_new ("cancel", cancel_thread, during);
  gint64 t0 = g_get_monotonic_time ();
  g_autoptr (WsSystemResult) r1 = ws_system_evaluate (env, app, NULL, &error);
  double waited = (g_get_monotonic_time () - t0) / 1e6;
  g_thread_join (t);
  g_assert_null (r1);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_true (g_file_test (marker, G_FILE_TEST_EXISTS));
  g_assert_cmpfloat (waited, <, 10);
  g_clear_error (&error);
  g_autoptr (GPtrArray) files = trace_files (f);
  g_assert_cmpuint (files->len, ==, 0);
  g_autofree char *dir = ondemand_dir (f);
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  g_assert_null (d != NULL ? g_dir_read_name (d) : NULL); /* no partial file either */

  /* A cancelled profile is not remembered as a failure: with a fresh
   * cancellable the same environment tries again (and is cancelled again). */
  g_autoptr (GCancellable) third = g_cancellable_new ();
  ws_system_env_set_cancellable (env, third);
  g_remove (marker);
  t = g_thread_new ("cancel", cancel_thread, third);
  g_autoptr (WsSystemResult) r2 = ws_system_evaluate (env, app, NULL, &error);
  g_thread_join (t);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_true (g_file_test (marker, G_FILE_TEST_EXISTS));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  /* The demo must not pick up programs or traces from the build tree here. */
  g_setenv ("WARPSCOPE_DEMO_TRACE", "/nonexistent/saxpy2.wstrace", TRUE);
  g_setenv ("WARPSCOPE_DEMO_PROGRAM", "/nonexistent/saxpy2", TRUE);
#define ADD(path, fn) g_test_add (path, Fixture, NULL, fixture_set_up, fn, fixture_tear_down)
  ADD ("/system/ondemand/sweep-follows-n-each-n-profiled-once", test_sweep_follows_n);
  ADD ("/system/ondemand/demo-saxpy2-profiled", test_demo_profiled);
  ADD ("/system/ondemand/args-in-command-line-and-stderr-tail", test_args_and_failure_message);
  ADD ("/system/ondemand/errors-name-operation", test_errors_name_operation);
  ADD ("/system/ondemand/cancel-kills-profile", test_cancel_stops_profile);
  return g_test_run ();
}
