/* test-validate.c: the validation suite (core/validate, warpscope-cli
 * validate) and the CSV reader it uses (core/base/ws-csv).
 *
 * Command line (after GLib's test options): --programs DIR (the built
 * examples/validation, or "-" without nvcc) --cli PATH --dataset DIR (the
 * public ground truth, may be missing). */
#include <math.h>
#include <string.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "base/ws-csv.h"
#include "launchcost/ws-launch-cost.h"
#include "store/ws-store.h"
#include "validate/ws-validate.h"

static const char *programs_dir;
static const char *cli_path;
static const char *dataset_dir;

/* ---- CSV ------------------------------------------------------------------ */

static void
test_csv_by_header (void)
{
  const char text[] = "\xEF\xBB\xBF# provenance note\n"
                      "name, value ,\"quoted, col\"\n"
                      "\n"
                      "a,1.5,\"x \"\"y\"\"\"\n"
                      "b,,z\n"
                      "c,2e3\n";
  g_autoptr (GError) error = NULL;
  g_autoptr (WsCsvTable) t = ws_csv_table_parse (text, sizeof text - 1, "t.csv", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (ws_csv_table_get_n_rows (t), ==, 3);
  int name = ws_csv_table_find_column (t, "name"), value = ws_csv_table_find_column (t, "value");
  int quoted = ws_csv_table_find_column (t, "quoted, col");
  g_assert_cmpint (name, ==, 0);
  g_assert_cmpint (value, ==, 1); /* header fields are trimmed */
  g_assert_cmpint (quoted, ==, 2);
  g_assert_cmpstr (ws_csv_table_get (t, 0, quoted), ==, "x \"y\"");
  double v = 0;
  g_assert_true (ws_csv_table_get_double (t, 0, value, &v, &error));
  g_assert_cmpfloat (v, ==, 1.5);
  g_assert_false (ws_csv_table_get_double (t, 1, value, &v, &error)); /* empty: not measured */
  g_assert_no_error (error);
  g_assert_true (ws_csv_table_get_double (t, 2, value, &v, &error));
  g_assert_cmpfloat (v, ==, 2000);
  g_assert_cmpstr (ws_csv_table_get (t, 2, quoted), ==, ""); /* short row */
  g_assert_cmpuint (ws_csv_table_get_line (t, 2), ==, 6);
  g_assert_false (ws_csv_table_get_double (t, 1, quoted, &v, &error));
  g_assert_error (error, WS_ERROR, WS_ERROR_PARSE);
  g_assert_nonnull (strstr (error->message, "t.csv:5:4"));
  g_clear_error (&error);
  g_assert_cmpint (ws_csv_table_require_column (t, "seconds", &error), ==, -1);
  g_assert_error (error, WS_ERROR, WS_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, "no column 'seconds' (it has: name, value, quoted, col)"));
}

static void
test_csv_errors (void)
{
  g_autoptr (GError) error = NULL;
  g_assert_null (ws_csv_table_parse ("a,b\n1,\"2\n", 9, "u.csv", &error));
  g_assert_error (error, WS_ERROR, WS_ERROR_PARSE);
  g_assert_nonnull (strstr (error->message, "u.csv:2:3: unterminated quoted field"));
  g_clear_error (&error);
  g_assert_null (ws_csv_table_parse ("# only a comment\n", 17, "e.csv", &error));
  g_assert_error (error, WS_ERROR, WS_ERROR_PARSE);
  g_clear_error (&error);
  g_assert_null (ws_csv_table_load ("/nonexistent/x.csv", &error));
  g_assert_error (error, WS_ERROR, WS_ERROR_NOT_FOUND);
}

/* ---- The suite on a small dataset made here --------------------------------- */

typedef struct {
  char *dir;
  WsStore *store;
} Fixture;

static void
fixture_setup (Fixture *f, gconstpointer data)
{
  f->dir = g_dir_make_tmp ("ws-validate-XXXXXX", NULL);
  g_assert_nonnull (f->dir);
  g_autofree char *db = g_build_filename (f->dir, "ws.db", NULL);
  g_autoptr (GError) error = NULL;
  f->store = ws_store_open (db, &error);
  g_assert_no_error (error);
}

static void
remove_tree (const char *path)
{
  if (g_file_test (path, G_FILE_TEST_IS_DIR) && !g_file_test (path, G_FILE_TEST_IS_SYMLINK))
    {
      g_autoptr (GDir) d = g_dir_open (path, 0, NULL);
      const char *n;
      while (d && (n = g_dir_read_name (d)))
        {
          g_autofree char *c = g_build_filename (path, n, NULL);
          remove_tree (c);
        }
      g_rmdir (path);
    }
  else
    g_unlink (path);
}

static void
fixture_teardown (Fixture *f, gconstpointer data)
{
  ws_store_close (f->store);
  remove_tree (f->dir);
  g_free (f->dir);
}

/* Three gpu-strides rows for h200 with made-up measurements (the mechanics
 * are under test here, not the hardware). */
static char *
make_dataset (Fixture *f)
{
  g_autofree char *dir = g_build_filename (f->dir, "gt", "gpu-strides", NULL);
  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
  g_autofree char *csv = g_build_filename (dir, "h200.csv", NULL);
  const char *text = "gpu,source_file,data_type,element_bytes,pattern,arg,cycles_per_warp_load,reported_clock_MHz\n"
                     "h200,made-up,float,4,stride,0,1.0,1980\n"
                     "h200,made-up,float,4,stride,1,2.0,1980\n"
                     "h200,made-up,float,4,stride,2,4.0,1980\n";
  g_assert_true (g_file_set_contents (csv, text, -1, NULL));
  return g_build_filename (f->dir, "gt", NULL);
}

static void
test_suite_mechanics (Fixture *f, gconstpointer data)
{
  if (programs_dir == NULL)
    {
      g_test_skip ("the validation programs were not built (no nvcc)");
      return;
    }
  g_autofree char *gt = make_dataset (f);
  const char *sources[] = { "volkov", "simulator", NULL };
  WsValidateOptions o;
  ws_validate_options_init (&o);
  o.dataset_dir = gt;
  o.programs_dir = programs_dir;
  o.cache_dir = "";
  o.sources = sources;
  g_autoptr (GError) error = NULL;
  g_autoptr (WsValidateReport) r = ws_validate_run (f->store, &o, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (r->sources->len, ==, 2);
  g_assert_cmpstr (r->sources->pdata[0], ==, "volkov");
  g_assert_cmpstr (r->sources->pdata[1], ==, "simulator");
  g_assert_cmpuint (r->points->len, ==, 3);
  double sum[2] = { 0, 0 };
  for (guint i = 0; i < 3; i++)
    {
      const WsValidatePoint *p = r->points->pdata[i];
      g_assert_cmpstr (p->family, ==, "gpu-strides");
      g_assert_cmpstr (p->dataset_gpu, ==, "h200");
      g_assert_cmpstr (p->gpu, ==, "H200");
      g_assert_cmpstr (p->series, ==, "float stride");
      g_assert_cmpfloat (p->x, ==, i);
      g_assert_cmpfloat (p->measured, ==, 1 << i);
      g_assert_nonnull (strstr (p->program, "vstrides pattern=stride type=float args=0,1,2 loads=1024"));
      for (guint s = 0; s < 2; s++)
        {
          /* Finite and positive; the physical bound is checked below. */
          g_assert_cmpfloat (p->predicted[s], >, 0.1);
          g_assert_cmpfloat (p->predicted[s], <, 100.0);
          double e = ws_validate_point_error (p, s);
          g_assert_cmpfloat_with_epsilon (e, (p->predicted[s] - p->measured) / p->measured, 1e-12);
          sum[s] += fabs (e);
        }
    }
  for (guint s = 0; s < 2; s++)
    {
      guint n = 0;
      g_assert_cmpfloat_with_epsilon (ws_validate_mape (r, s, NULL, NULL, &n), 100 * sum[s] / 3, 1e-9);
      g_assert_cmpuint (n, ==, 3);
      g_assert_cmpfloat_with_epsilon (ws_validate_mape (r, s, "gpu-strides", "h200", &n), 100 * sum[s] / 3, 1e-9);
      g_assert_true (isnan (ws_validate_mape (r, s, "gpu-stream", NULL, &n)));
      g_assert_cmpuint (n, ==, 0);
      g_assert_cmpuint (r->bound_violations[s], ==, 0);
    }
  g_assert_cmpuint (r->bound_checks, ==, 3);

  g_autoptr (JsonNode) node = ws_validate_report_to_json (r);
  JsonObject *root = json_node_get_object (node);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (root, "points")), ==, 3);
  JsonObject *mape = json_object_get_object_member (json_object_get_object_member (root, "mape"), "by_source");
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (mape, "volkov"), 100 * sum[0] / 3, 1e-9);
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (root, "bound_violations"), "simulator"),
                   ==, 0);
  g_autofree char *md = ws_validate_report_to_markdown (r, "plots");
  g_assert_nonnull (strstr (md, "| h200 / gpu-strides |"));
  g_assert_nonnull (strstr (md, "![gpu-strides h200 float stride](plots/gpu-strides-h200-float_stride.png)"));
  g_assert_nonnull (strstr (md, "0 predictions below the bound"));
  g_autofree char *plots = g_build_filename (f->dir, "plots", NULL);
  g_assert_cmpint (ws_validate_report_write_plots (r, plots, &error), ==, 1);
  g_assert_no_error (error);
  g_autofree char *png = g_build_filename (plots, "gpu-strides-h200-float_stride.png", NULL);
  g_assert_true (g_file_test (png, G_FILE_TEST_IS_REGULAR));
}

static void
test_suite_bad_input (Fixture *f, gconstpointer data)
{
  g_autofree char *gt = make_dataset (f);
  WsValidateOptions o;
  ws_validate_options_init (&o);
  o.dataset_dir = "/nonexistent/ground-truth";
  o.programs_dir = programs_dir ? programs_dir : f->dir;
  g_autoptr (GError) error = NULL;
  g_assert_null (ws_validate_run (f->store, &o, &error));
  g_assert_error (error, WS_ERROR, WS_ERROR_NOT_FOUND);
  g_assert_nonnull (strstr (error->message, "/nonexistent/ground-truth"));
  g_clear_error (&error);

  const char *bench[] = { "gpu-streams", NULL };
  o.dataset_dir = gt;
  o.benchmarks = bench;
  g_assert_null (ws_validate_run (f->store, &o, &error));
  g_assert_error (error, WS_ERROR, WS_ERROR_NOT_FOUND);
  g_assert_nonnull (strstr (error->message, "unknown benchmark 'gpu-streams' (known: gpu-stream, gpu-latency"));
  g_clear_error (&error);

  /* A dataset GPU with no catalogue record and a missing program are notes. */
  g_autofree char *odd = g_build_filename (gt, "gpu-strides", "mi100.csv", NULL);
  g_assert_true (g_file_set_contents (odd, "gpu,arg\nmi100,1\n", -1, NULL));
  const char *strides[] = { "strides", NULL };
  o.benchmarks = strides;
  o.programs_dir = f->dir; /* no vstrides here */
  o.cache_dir = "";
  g_autoptr (WsValidateReport) r = ws_validate_run (f->store, &o, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (r->points->len, ==, 0);
  gboolean saw_gpu = FALSE, saw_program = FALSE;
  for (guint i = 0; i < r->notes->len; i++)
    {
      const char *n = r->notes->pdata[i];
      saw_gpu |= strstr (n, "no catalogue record is known for dataset GPU 'mi100'") != NULL;
      saw_program |= strstr (n, "benchmark program") != NULL && strstr (n, "vstrides is missing") != NULL;
    }
  g_assert_true (saw_gpu);
  g_assert_true (saw_program);
  g_assert_cmpstr (ws_validate_catalogue_gpu ("h100_pcie"), ==, "H100 PCIe");
  g_assert_cmpstr (ws_validate_family_find ("l2-cache")->name, ==, "gpu-l2-cache");
}

/* gpu-small-kernels: a stream, a graph and a persistent-thread row for h200
 * (made-up measurements).  The predicted time per kernel is the launch's
 * execution turned into its time in a back-to-back sequence by
 * core/launchcost, with the catalogue record's values, for every source. */
static void
test_suite_small_kernels_launch_cost (Fixture *f, gconstpointer data)
{
  if (programs_dir == NULL)
    {
      g_test_skip ("the validation programs were not built (no nvcc)");
      return;
    }
  g_autofree char *dir = g_build_filename (f->dir, "gt", "gpu-small-kernels", NULL);
  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
  g_autofree char *csv = g_build_filename (dir, "h200.csv", NULL);
  const char *text = "gpu,source_file,launch_mode,elements,bw_GBps_block32\n"
                     "h200,made-up,stream_launches,4096,20\n"
                     "h200,made-up,cuda_graph,4096,30\n"
                     "h200,made-up,persistent_threads_grid_sync,4096,40\n";
  g_assert_true (g_file_set_contents (csv, text, -1, NULL));
  g_autofree char *gt = g_build_filename (f->dir, "gt", NULL);
  const char *sources[] = { "volkov", "simulator", NULL };
  WsValidateOptions o;
  ws_validate_options_init (&o);
  o.dataset_dir = gt;
  o.programs_dir = programs_dir;
  o.cache_dir = "";
  o.sources = sources;
  const double bytes = 16.0 * 4096;
  g_autoptr (GError) error = NULL;
  g_autoptr (WsGpu) gpu = ws_store_get_gpu (f->store, "H200", &error);
  g_assert_no_error (error);
  /* With the catalogue's values: never faster than the mode's interval. */
  {
    g_autoptr (WsValidateReport) r = ws_validate_run (f->store, &o, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (r->points->len, ==, 2);
    const WsValidatePoint *ps = r->points->pdata[0], *pg = r->points->pdata[1];
    g_assert_cmpstr (ps->series, ==, "block 32");
    g_assert_cmpstr (pg->series, ==, "graph block 32");
    g_assert_nonnull (strstr (pg->program, "mode=graph"));
    g_assert_null (strstr (ps->program, "mode="));
    for (guint s = 0; s < 2; s++)
      {
        double ts = bytes / 1e9 / ps->predicted[s], tg = bytes / 1e9 / pg->predicted[s];
        g_assert_cmpfloat (ts, >=, gpu->launch_interval_us * 1e-6 * (1 - 1e-9));
        g_assert_cmpfloat (tg, >=, gpu->graph_launch_interval_us * 1e-6 * (1 - 1e-9));
        g_assert_cmpfloat (ts, >, tg);
      }
    gboolean noted = FALSE;
    for (guint i = 0; i < r->notes->len; i++)
      noted |= strstr (r->notes->pdata[i], "persistent-thread") != NULL;
    g_assert_true (noted);
  }
  /* The values come from the record: an interval far above the kernel's
   * time is exactly the time per kernel. */
  gpu->launch_interval_us = 50;
  gpu->graph_launch_interval_us = 30;
  g_assert_true (ws_store_put_gpu (f->store, gpu, TRUE, &error));
  g_assert_no_error (error);
  g_autoptr (WsValidateReport) r = ws_validate_run (f->store, &o, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (r->points->len, ==, 2);
  for (guint s = 0; s < 2; s++)
    {
      const WsValidatePoint *ps = r->points->pdata[0], *pg = r->points->pdata[1];
      g_assert_cmpfloat_with_epsilon (bytes / 1e9 / ps->predicted[s] / 50e-6, 1, 1e-9);
      g_assert_cmpfloat_with_epsilon (bytes / 1e9 / pg->predicted[s] / 30e-6, 1, 1e-9);
      g_assert_cmpfloat_with_epsilon (ws_launch_cost_wall_seconds (gpu, WS_LAUNCH_MODE_STREAM, 1e-6), 50e-6, 1e-15);
    }
}

/* The published dataset, one small benchmark end to end through the CLI:
 * every point compared, no result beats its physical bound. */
static void
test_cli_published_strides (void)
{
  g_autofree char *csv = dataset_dir ? g_build_filename (dataset_dir, "gpu-strides", "h200.csv", NULL) : NULL;
  if (programs_dir == NULL || csv == NULL || !g_file_test (csv, G_FILE_TEST_EXISTS))
    {
      g_test_skip ("needs the built programs and shared/ground-truth");
      return;
    }
  g_autofree char *tmp = g_dir_make_tmp ("ws-validate-cli-XXXXXX", NULL);
  g_autofree char *db = g_build_filename (tmp, "ws.db", NULL);
  g_autofree char *out = NULL, *err = NULL;
  int status = 0;
  const char *argv[] = { cli_path,    "--db",      db,           "validate",   "--benchmark", "gpu-strides",
                         "--gpu",     "H200",      "--source",   "gpumech",    "--source",    "simulator",
                         "--dataset", dataset_dir, "--programs", programs_dir, "--no-cache",  "--all-points",
                         "--json",    NULL };
  g_autoptr (GError) error = NULL;
  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, &err, &status, &error));
  g_assert_no_error (error);
  if (!g_spawn_check_wait_status (status, NULL))
    g_error ("validate failed: %s", err);
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_assert_true (json_parser_load_from_data (parser, out, -1, &error));
  JsonObject *root = json_node_get_object (json_parser_get_root (parser));
  /* --all-points: the 46 published h200 points (float and double, stride
   * 0-15 and block 1-64); the default selection keeps 38. */
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (root, "points")), ==, 46);
  JsonObject *v = json_object_get_object_member (root, "bound_violations");
  g_assert_cmpint (json_object_get_int_member (v, "gpumech"), ==, 0);
  g_assert_cmpint (json_object_get_int_member (v, "simulator"), ==, 0);
  g_assert_cmpint (json_object_get_int_member (root, "bound_checks"), ==, 46);
  remove_tree (tmp);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  for (int i = 1; i + 1 < argc; i += 2)
    {
      if (strcmp (argv[i], "--programs") == 0)
        programs_dir = strcmp (argv[i + 1], "-") == 0 ? NULL : argv[i + 1];
      else if (strcmp (argv[i], "--cli") == 0)
        cli_path = argv[i + 1];
      else if (strcmp (argv[i], "--dataset") == 0)
        dataset_dir = argv[i + 1];
    }
  g_test_add_func ("/validate/csv/by-header-name", test_csv_by_header);
  g_test_add_func ("/validate/csv/errors-name-file-line-column", test_csv_errors);
  g_test_add ("/validate/suite/points-errors-mape-json-markdown-plots", Fixture, NULL, fixture_setup,
              test_suite_mechanics, fixture_teardown);
  g_test_add ("/validate/suite/bad-input-is-an-error-or-a-note", Fixture, NULL, fixture_setup, test_suite_bad_input,
              fixture_teardown);
  g_test_add ("/validate/suite/small-kernels-time-per-launch-includes-launch-cost", Fixture, NULL, fixture_setup,
              test_suite_small_kernels_launch_cost, fixture_teardown);
  g_test_add_func ("/validate/cli/published-strides-h200-within-bounds", test_cli_published_strides);
  return g_test_run ();
}
