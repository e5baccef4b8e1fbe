/* test-gui-pages.c: the chart widget and the Profiles page, shown in a real
 * window under Xvfb.  Values asserted come from the core APIs (chart
 * geometry, trace reader) so the widgets are checked against the data they
 * show. */
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <adwaita.h>
#include <string.h>

#include "ws-config.h"
#include "ws-chart-view.h"
#include "ws-profiles-page.h"
#include "launch/ws-launch.h"
#include "trace/ws-trace.h"
#include "ws-simulations-page.h"
#include "ws-results-page.h"
#include "system/ws-system.h"
#include "predict/ws-predict.h"
#include "measure/ws-measure.h"
#include "tbpoint/ws-tbpoint.h"
#include "../sim/sim-test-util.h"
#include "gui-test-util.h"

/* ---- chart view ------------------------------------------------------------ */

static void
test_chart_view_interactions (void)
{
  SKIP_WITHOUT_DISPLAY ();

  g_autofree char *tmpdir = g_dir_make_tmp ("ws-test-chart-view-XXXXXX", NULL);
  WsChart *chart = ws_chart_new (WS_CHART_LINE);
  guint volkov = ws_chart_add_series (chart, "volkov", 0);
  guint measured = ws_chart_add_series (chart, "measured", WS_CHART_SERIES_MEASURED);
  GtkWidget *view = ws_chart_view_new ();
  GtkWindow *window;
  double w, h, px, py, x0, x1, y0, y1, zx0, zx1, zy0, zy1, nx0, nx1;
  g_autofree char *tooltip = NULL;
  int legend_series = -1;
  double legend_x = 0, legend_y = 0;
  g_autofree char *png = NULL, *csv = NULL, *contents = NULL;
  g_autoptr (GError) error = NULL;
  gsize length;
  guint toggled = 0;

  for (int n = 1; n <= 8; n++)
    {
      ws_chart_series_add_point (chart, volkov, n * 1e6, n * 1.0e-3);
      ws_chart_series_add_point (chart, measured, n * 1e6, n * 1.1e-3);
    }
  ws_chart_set_axis_unit (chart, WS_CHART_AXIS_Y, WS_CHART_UNIT_SECONDS);
  g_assert_cmpuint (ws_chart_annotate_rel_errors (chart, measured), ==, 8);
  ws_chart_view_set_chart (WS_CHART_VIEW (view), chart);
  window = show_in_window (view, 700, 450);
  w = gtk_widget_get_width (view);
  h = gtk_widget_get_height (view);

  /* Tooltip: the chart's own description of the point under the pointer. */
  g_assert_true (ws_chart_data_to_pixel (chart, w, h, 4e6, 4e-3, &px, &py));
  tooltip = ws_chart_view_tooltip_at (WS_CHART_VIEW (view), px, py);
  g_assert_nonnull (tooltip);
  g_assert_nonnull (strstr (tooltip, "volkov"));
  g_assert_null (ws_chart_view_tooltip_at (WS_CHART_VIEW (view), 1, h - 1));

  /* Legend click toggles the series it lands on. */
  for (double y = 0; y < h && legend_series < 0; y += 2)
    for (double x = 0; x < w && legend_series < 0; x += 2)
      if ((legend_series = ws_chart_legend_hit_test (chart, w, h, x, y)) >= 0)
        {
          legend_x = x;
          legend_y = y;
        }
  g_assert_cmpint (legend_series, >=, 0);
  g_signal_connect_swapped (view, "series-toggled", G_CALLBACK (g_atomic_int_inc), &toggled);
  g_assert_cmpint (ws_chart_view_toggle_legend_at (WS_CHART_VIEW (view), legend_x, legend_y), ==, legend_series);
  g_assert_false (ws_chart_series_get_visible (chart, legend_series));
  g_assert_cmpuint (toggled, ==, 1);
  ws_chart_view_toggle_legend_at (WS_CHART_VIEW (view), legend_x, legend_y);
  g_assert_true (ws_chart_series_get_visible (chart, legend_series));
  g_assert_cmpint (ws_chart_view_toggle_legend_at (WS_CHART_VIEW (view), px, py), ==, -1);

  /* Zooming in by 2 around the plot's centre halves the visible x range. */
  ws_chart_get_view (chart, &x0, &x1, &y0, &y1);
  {
    double ax, ay, aw, ah;
    ws_chart_get_plot_area (chart, w, h, &ax, &ay, &aw, &ah);
    ws_chart_view_zoom_at (WS_CHART_VIEW (view), ax + aw / 2, ay + ah / 2, 2.0);
  }
  ws_chart_get_view (chart, &zx0, &zx1, &zy0, &zy1);
  g_assert_cmpfloat_with_epsilon ((zx1 - zx0) / (x1 - x0), 0.5, 1e-6);
  g_assert_cmpfloat_with_epsilon ((zy1 - zy0) / (y1 - y0), 0.5, 1e-6);
  /* Dragging right shows smaller x. */
  ws_chart_view_pan (WS_CHART_VIEW (view), 50, 0);
  ws_chart_get_view (chart, &nx0, &nx1, &zy0, &zy1);
  g_assert_cmpfloat (nx0, <, zx0);
  g_assert_cmpfloat_with_epsilon (nx1 - nx0, zx1 - zx0, 1e-6 * (zx1 - zx0));
  gtk_widget_activate_action (view, "chart.reset-view", NULL);
  ws_chart_get_view (chart, &nx0, &nx1, &zy0, &zy1);
  g_assert_cmpfloat_with_epsilon (nx0, x0, 1e-9 * (x1 - x0));
  g_assert_cmpfloat_with_epsilon (nx1, x1, 1e-9 * (x1 - x0));

  /* Export: a PNG picture and the data as CSV; a bad extension is refused. */
  png = g_build_filename (tmpdir, "sweep.png", NULL);
  g_assert_true (ws_chart_view_export (WS_CHART_VIEW (view), png, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (png, &contents, &length, NULL));
  g_assert_cmpuint (length, >, 8);
  g_assert_cmpmem (contents, 4, "\x89PNG", 4);
  g_clear_pointer (&contents, g_free);
  csv = g_build_filename (tmpdir, "sweep.csv", NULL);
  g_assert_true (ws_chart_view_export (WS_CHART_VIEW (view), csv, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (csv, &contents, NULL, NULL));
  g_assert_nonnull (strstr (contents, "volkov"));
  g_assert_nonnull (strstr (contents, "measured"));
  {
    g_autofree char *bad = g_build_filename (tmpdir, "sweep.xyz", NULL);
    g_assert_false (ws_chart_view_export (WS_CHART_VIEW (view), bad, &error));
    g_assert_error (error, WS_ERROR, WS_ERROR_INVALID);
    g_assert_false (g_file_test (bad, G_FILE_TEST_EXISTS));
  }

  gtk_window_destroy (window);
  drain ();
  remove_tree (tmpdir);
}

/* ---- profiles page --------------------------------------------------------- */

static const char branch_json[] =
  "{\"branches\":["
  "{\"kernel\":\"k\",\"ptx_line\":12,\"source_line\":3,\"executions\":100,\"divergent\":25,"
  "\"active_threads\":3200,\"taken_threads\":1000,\"not_taken_threads\":2200},"
  "{\"kernel\":\"k\",\"ptx_line\":30,\"source_line\":7,\"executions\":40,\"divergent\":0,"
  "\"active_threads\":1280,\"taken_threads\":1280,\"not_taken_threads\":0}],"
  "\"kernels\":[]}";

static const char value_json[] =
  "{\"instructions\":[{\"kernel\":\"k\",\"ptx_line\":14,\"source_line\":4,\"executions\":64,\"bits\":32,"
  "\"constant_one_bits\":2,\"constant_zero_bits\":20,\"scalar\":true}],\"kernels\":[]}";

typedef struct {
  char *folder;
  char *trace;
  WsProfilesPage *page;
  GtkWindow *window;
} ProfilesFixture;

static void
profiles_setup (ProfilesFixture *f, gconstpointer data)
{
  g_autofree char *demo = g_build_filename (g_getenv ("WS_SOURCE_DIR") != NULL ? g_getenv ("WS_SOURCE_DIR")
                                                                               : WS_SOURCE_DIR,
                                            "db", "workspace", "saxpy2.wstrace", NULL);
  g_autofree char *contents = NULL;
  gsize length;

  if (!have_display)
    return;
  f->folder = g_dir_make_tmp ("ws-test-profiles-XXXXXX", NULL);
  g_assert_nonnull (f->folder);
  f->trace = g_build_filename (f->folder, "saxpy2.wstrace", NULL);
  g_assert_true (g_file_get_contents (demo, &contents, &length, NULL));
  g_assert_true (g_file_set_contents (f->trace, contents, length, NULL));

  f->page = WS_PROFILES_PAGE (ws_profiles_page_new ());
  f->window = show_in_window (GTK_WIDGET (f->page), 1100, 750);
}

static void
profiles_teardown (ProfilesFixture *f, gconstpointer data)
{
  if (!have_display)
    return;
  gtk_window_destroy (f->window);
  drain ();
  remove_tree (f->folder);
  g_free (f->folder);
  g_free (f->trace);
}

static void
test_profiles_lists_trace (ProfilesFixture *f, gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *branch_path = NULL, *value_path = NULL;
  WsTrace *trace;
  WsChart *chart;
  guint n_kernels, n_launches;

  SKIP_WITHOUT_DISPLAY ();

  trace = ws_trace_open (f->trace, &error);
  g_assert_no_error (error);
  n_kernels = ws_trace_get_n_kernels (trace);
  n_launches = ws_trace_get_n_launches (trace);
  ws_trace_free (trace);
  g_assert_cmpuint (n_kernels, >, 0);

  /* Without tool results: kernels and launches, no charts. */
  ws_profiles_page_set_folder (f->page, f->folder);
  drain ();
  g_assert_cmpuint (ws_profiles_page_get_n_traces (f->page), ==, 1);
  g_assert_true (ws_profiles_page_select (f->page, 0));
  drain ();
  g_assert_cmpstr (ws_profiles_page_get_selected_path (f->page), ==, f->trace);
  g_assert_cmpuint (ws_profiles_page_get_n_kernel_rows (f->page), ==, n_kernels);
  g_assert_cmpuint (ws_profiles_page_get_n_launch_rows (f->page), ==, n_launches);
  g_assert_null (ws_profiles_page_get_branch_chart (f->page));
  g_assert_null (ws_profiles_page_get_memdiv_chart (f->page));
  g_assert_cmpuint (ws_profiles_page_get_n_value_rows (f->page), ==, 0);
  g_assert_false (ws_profiles_page_select (f->page, 1));

  /* With branch and value results next to the trace. */
  branch_path = g_strdup_printf ("%s.branch.json", f->trace);
  value_path = g_strdup_printf ("%s.value.json", f->trace);
  g_assert_true (g_file_set_contents (branch_path, branch_json, -1, NULL));
  g_assert_true (g_file_set_contents (value_path, value_json, -1, NULL));
  g_assert_true (ws_profiles_page_select (f->page, 0));
  drain ();
  g_assert_nonnull (ws_profiles_page_get_branch_chart (f->page));
  chart = ws_chart_view_get_chart (ws_profiles_page_get_branch_chart (f->page));
  g_assert_cmpint (ws_chart_get_kind (chart), ==, WS_CHART_STACKED);
  g_assert_cmpuint (ws_chart_get_n_bars (chart), ==, 2);
  g_assert_cmpfloat (ws_chart_get_bar_value (chart, 0, 0), ==, 25); /* divergent */
  g_assert_cmpfloat (ws_chart_get_bar_value (chart, 0, 1), ==, 75); /* uniform */
  g_assert_cmpfloat (ws_chart_get_bar_value (chart, 1, 0), ==, 0);
  g_assert_cmpfloat (ws_chart_get_bar_value (chart, 1, 1), ==, 40);
  g_assert_null (ws_profiles_page_get_memdiv_chart (f->page));
  g_assert_cmpuint (ws_profiles_page_get_n_value_rows (f->page), ==, 1);
  /* Kernel rows are rebuilt, not appended to. */
  g_assert_cmpuint (ws_profiles_page_get_n_kernel_rows (f->page), ==, n_kernels);
}

static void
test_profiles_memdiv (ProfilesFixture *f, gconstpointer data)
{
  g_autofree char *path = g_strdup_printf ("%s.memdiv.json", f->trace);
  g_autoptr (GString) json = NULL;
  WsChart *pmf;
  guint n;
  double x, y;

  SKIP_WITHOUT_DISPLAY ();

  /* 32 threads touching 1 line 30 times and 4 lines 10 times. */
  json = g_string_new ("{\"kernels\":[{\"kernel\":\"k\",\"matrix\":[");
  for (int a = 0; a < 32; a++)
    {
      g_string_append (json, a ? ",[" : "[");
      for (int u = 0; u < 32; u++)
        g_string_append_printf (json, "%s%d", u ? "," : "", a == 31 && u == 0 ? 30 : a == 31 && u == 3 ? 10 : 0);
      g_string_append (json, "]");
    }
  g_string_append (json, "],\"per_pc\":[]}]}");
  g_assert_true (g_file_set_contents (path, json->str, -1, NULL));

  ws_profiles_page_set_folder (f->page, f->folder);
  g_assert_true (ws_profiles_page_select (f->page, 0));
  drain ();
  g_assert_nonnull (ws_profiles_page_get_memdiv_chart (f->page));
  g_assert_cmpint (ws_chart_get_kind (ws_chart_view_get_chart (ws_profiles_page_get_memdiv_chart (f->page))), ==,
                   WS_CHART_HEATMAP);
  pmf = ws_chart_view_get_chart (ws_profiles_page_get_memdiv_pmf_chart (f->page));
  n = ws_chart_series_get_n_points (pmf, 0);
  g_assert_cmpuint (n, ==, 32);
  g_assert_true (ws_chart_series_get_point (pmf, 0, 0, &x, &y));
  g_assert_cmpfloat (x, ==, 1);
  g_assert_cmpfloat_with_epsilon (y, 0.75, 1e-12);
  g_assert_true (ws_chart_series_get_point (pmf, 0, 3, &x, &y));
  g_assert_cmpfloat (x, ==, 4);
  g_assert_cmpfloat_with_epsilon (y, 0.25, 1e-12);
}

static void
on_finished (gboolean *done, gboolean ok)
{
  done[0] = TRUE;
  done[1] = ok;
}

static gboolean
is_true (gpointer data)
{
  return *(gboolean *) data;
}

static void
test_profiles_failed_run (ProfilesFixture *f, gconstpointer data)
{
  gboolean done[2] = { FALSE, TRUE };
  g_autofree char *missing = NULL;

  SKIP_WITHOUT_DISPLAY ();

  ws_profiles_page_set_folder (f->page, f->folder);
  g_signal_connect_swapped (f->page, "profile-finished", G_CALLBACK (on_finished), done);
  missing = g_build_filename (f->folder, "no-such-program", NULL);
  g_assert_true (ws_profiles_page_profile (f->page, missing, NULL));
  g_assert_true (ws_profiles_page_is_running (f->page));
  /* One run at a time. */
  g_assert_false (ws_profiles_page_profile (f->page, missing, NULL));
  g_assert_true (iterate_until (is_true, done, 60000));
  g_assert_false (done[1]);
  g_assert_false (ws_profiles_page_is_running (f->page));
  g_assert_nonnull (strstr (ws_profiles_page_get_status (f->page), "not found"));
  /* Nothing lost, nothing half-written. */
  g_assert_cmpuint (ws_profiles_page_get_n_traces (f->page), ==, 1);
  g_assert_true (g_file_test (f->trace, G_FILE_TEST_IS_REGULAR));
}

static void
test_profiles_cancel (ProfilesFixture *f, gconstpointer data)
{
  gboolean done[2] = { FALSE, TRUE };
  g_autofree char *fake = NULL, *runtime = NULL, *lib = NULL;
  gint64 started;

  SKIP_WITHOUT_DISPLAY ();

  /* A program that takes long, run through core/launch: cancel must end
   * it, not wait for it.  A stand-in runtime folder lets it start where
   * the CUDA runtime was not built (the script never loads it). */
  runtime = g_build_filename (f->folder, "runtime", NULL);
  lib = g_build_filename (runtime, "libcudart.so.13", NULL);
  g_assert_cmpint (g_mkdir (runtime, 0755), ==, 0);
  g_assert_true (g_file_set_contents (lib, "", 0, NULL));
  g_setenv ("WARPSCOPE_CUDART_DIR", runtime, TRUE);
  fake = g_build_filename (f->folder, "slow-program", NULL);
  g_assert_true (g_file_set_contents (fake, "#!/bin/sh\nexec sleep 30\n", -1, NULL));
  g_assert_cmpint (g_chmod (fake, 0755), ==, 0);
  ws_profiles_page_set_folder (f->page, f->folder);
  g_signal_connect_swapped (f->page, "profile-finished", G_CALLBACK (on_finished), done);
  started = g_get_monotonic_time ();
  g_assert_true (ws_profiles_page_profile (f->page, fake, NULL));
  g_assert_true (ws_profiles_page_is_running (f->page));
  g_usleep (200000); /* let the worker thread start the program */
  gtk_widget_activate_action (GTK_WIDGET (f->page), "profiles.cancel", NULL);
  g_assert_true (iterate_until (is_true, done, 10000));
  g_assert_cmpint (g_get_monotonic_time () - started, <, 10 * G_USEC_PER_SEC);
  g_unsetenv ("WARPSCOPE_CUDART_DIR");
  g_assert_false (done[1]);
  g_assert_cmpstr (ws_profiles_page_get_status (f->page), ==, "Profiling cancelled.");
  g_assert_false (ws_profiles_page_is_running (f->page));
  g_assert_cmpuint (ws_profiles_page_get_n_traces (f->page), ==, 1);
}

/* The page profiles through core/launch (no warpscope-cli child): a real
 * CUDA program's trace lands in the folder and is shown with its tool
 * results. */
static void
test_profiles_runs_program (ProfilesFixture *f, gconstpointer data)
{
  gboolean done[2] = { FALSE, FALSE };
  g_autofree char *program = ws_system_demo_program_path ();
  g_autofree char *runtime = ws_launch_find_runtime (NULL);
  static const char *const tools[] = { "branch", NULL };

  SKIP_WITHOUT_DISPLAY ();
  if (!g_file_test (program, G_FILE_TEST_IS_EXECUTABLE) || runtime == NULL)
    {
      g_test_skip ("examples/saxpy2 or the CUDA runtime was not built (no CUDA toolkit)");
      return;
    }
  ws_profiles_page_set_folder (f->page, f->folder);
  ws_profiles_page_set_tools (f->page, tools);
  g_signal_connect_swapped (f->page, "profile-finished", G_CALLBACK (on_finished), done);
  g_assert_true (ws_profiles_page_profile (f->page, program, NULL));
  g_assert_true (iterate_until (is_true, done, 120000));
  g_test_message ("status: %s", ws_profiles_page_get_status (f->page));
  g_assert_true (done[1]);
  g_assert_true (g_str_has_prefix (ws_profiles_page_get_status (f->page), "Profiled into saxpy2-2.wstrace")
                 || g_str_has_prefix (ws_profiles_page_get_status (f->page), "Profiled into saxpy2.wstrace"));
  g_assert_cmpuint (ws_profiles_page_get_n_traces (f->page), ==, 2);
  g_assert_true (g_str_has_suffix (ws_profiles_page_get_selected_path (f->page), "saxpy2-2.wstrace"));
  g_assert_cmpuint (ws_profiles_page_get_n_launch_rows (f->page), >, 0);
  g_assert_nonnull (ws_profiles_page_get_branch_chart (f->page));
}

/* ---- simulations and results -------------------------------------------------- */

typedef struct {
  char *tmpdir;
  WsStore *store;
  char *system;
  WsSimulationsPage *sims;
  WsResultsPage *results;
  GtkWindow *window;
} SimFixture;

static void
sim_setup (SimFixture *f, gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *db = NULL;
  g_auto (GStrv) systems = NULL;
  GtkWidget *paned;

  if (!have_display)
    return;
  f->tmpdir = g_dir_make_tmp ("ws-test-sims-XXXXXX", NULL);
  db = g_build_filename (f->tmpdir, "ws.db", NULL);
  f->store = ws_store_open (db, &error);
  g_assert_no_error (error);
  g_assert_true (ws_system_store_ensure_demo (f->store, &error));
  g_assert_no_error (error);
  systems = ws_system_store_list_systems (f->store, &error);
  g_assert_no_error (error);
  g_assert_nonnull (systems[0]);
  f->system = g_strdup (systems[0]);

  f->sims = WS_SIMULATIONS_PAGE (ws_simulations_page_new ());
  f->results = WS_RESULTS_PAGE (ws_results_page_new ());
  ws_simulations_page_load (f->sims, f->store);
  ws_results_page_set_queue (f->results, ws_simulations_page_get_queue (f->sims));
  ws_results_page_set_store (f->results, f->store);
  paned = gtk_paned_new (GTK_ORIENTATION_HORIZONTAL);
  gtk_paned_set_start_child (GTK_PANED (paned), GTK_WIDGET (f->sims));
  gtk_paned_set_end_child (GTK_PANED (paned), GTK_WIDGET (f->results));
  gtk_paned_set_position (GTK_PANED (paned), 560);
  f->window = show_in_window (paned, 1280, 780);
}

static void
sim_teardown (SimFixture *f, gconstpointer data)
{
  WsRunQueue *queue;

  if (!have_display)
    return;
  queue = ws_simulations_page_get_queue (f->sims);
  for (guint i = 0; i < ws_run_queue_get_n_runs (queue); i++)
    ws_run_queue_cancel (queue, i);
  while (ws_run_queue_is_busy (queue))
    g_main_context_iteration (NULL, TRUE);
  gtk_window_destroy (f->window);
  drain ();
  ws_store_close (f->store);
  remove_tree (f->tmpdir);
  g_free (f->tmpdir);
  g_free (f->system);
}

static const char *
first_plugin (WsSimulationsPage *page)
{
  const char *const *names = ws_simulations_page_get_predictors (page);

  /* Volkov predicts analytic kernels too (saxpy2-analytic has no trace). */
  return g_strv_contains (names, "volkov") ? "volkov" : NULL;
}

static void
test_sim_sweep_results (SimFixture *f, gconstpointer data)
{
  const double ns[] = { 1048576, 2097152, 4194304 };
  RunWait wait;
  const WsRun *run;
  const char *predictor;
  WsChart *chart, *timeline;
  g_autoptr (GError) error = NULL;
  g_autoptr (WsSystemModel) system = NULL;
  g_autoptr (WsAppModel) app = NULL;
  g_autoptr (WsSystemEnv) env = NULL;
  g_autoptr (WsSystemResult) reference = NULL;
  g_autoptr (GHashTable) overrides = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, g_free);
  g_autoptr (GString) csv = g_string_new ("N,seconds\n");
  g_autofree char *csv_path = NULL;
  double x, y, measured[3];
  int m;

  SKIP_WITHOUT_DISPLAY ();
  predictor = first_plugin (f->sims);
  if (predictor == NULL)
    {
      g_test_skip ("no predictor plugin built");
      return;
    }

  g_assert_true (ws_simulations_page_select_system (f->sims, f->system));
  g_assert_true (ws_simulations_page_select_app (f->sims, "saxpy2-analytic"));
  g_assert_false (ws_simulations_page_select_app (f->sims, "no-such-app"));

  /* Live validation refuses a malformed sweep and queues nothing. */
  ws_simulations_page_set_sweep (f->sims, "N=");
  g_assert_cmpstr (ws_simulations_page_get_message (f->sims), !=, "");
  g_assert_cmpuint (ws_simulations_page_run (f->sims), ==, 0);
  g_assert_cmpuint (ws_run_queue_get_n_runs (ws_simulations_page_get_queue (f->sims)), ==, 0);

  ws_simulations_page_set_sweep (f->sims, "N=1048576,2097152,4194304");
  g_assert_cmpstr (ws_simulations_page_get_message (f->sims), ==, "");
  g_assert_true (ws_simulations_page_set_predictor (f->sims, predictor, TRUE));
  g_assert_cmpuint (ws_simulations_page_run (f->sims), ==, 1);
  wait.queue = ws_simulations_page_get_queue (f->sims);
  wait.index = 0;
  g_assert_true (iterate_until (run_finished, &wait, 60000));
  run = ws_run_queue_get_run (wait.queue, 0);
  if (run->state == WS_RUN_FAILED)
    g_test_message ("run failed: %s", run->error);
  g_assert_cmpint (run->state, ==, WS_RUN_DONE);
  g_assert_cmpuint (run->results->len, ==, 3);
  g_assert_cmpint (run->sweep_id, >, 0);

  /* The plot's middle point is what the system API computes for N = 2^21. */
  system = ws_system_store_get_system (f->store, f->system, &error);
  g_assert_no_error (error);
  app = ws_system_store_get_app (f->store, "saxpy2-analytic", &error);
  g_assert_no_error (error);
  env = ws_system_env_new (f->store, system, predictor, &error);
  g_assert_no_error (error);
  g_hash_table_insert (overrides, (gpointer) "N", g_memdup2 (&ns[1], sizeof (double)));
  reference = ws_system_evaluate (env, app, overrides, &error);
  g_assert_no_error (error);

  drain ();
  chart = ws_chart_view_get_chart (ws_results_page_get_sweep_view (f->results));
  g_assert_nonnull (chart);
  g_assert_cmpint (ws_chart_find_series (chart, predictor), ==, 0);
  g_assert_cmpuint (ws_chart_series_get_n_points (chart, 0), ==, 3);
  for (guint i = 0; i < 3; i++)
    {
      g_assert_true (ws_chart_series_get_point (chart, 0, i, &x, &y));
      g_assert_cmpfloat (x, ==, ns[i]);
      g_assert_cmpfloat (y, >, 0);
      measured[i] = y * 1.25;
      g_string_append_printf (csv, "%.0f,%.17g\n", ns[i], measured[i]);
    }
  g_assert_true (ws_chart_series_get_point (chart, 0, 1, &x, &y));
  g_assert_cmpfloat_with_epsilon (y, reference->total_seconds, 1e-12 * reference->total_seconds);

  /* Measurements overlay with relative errors (predicted - measured) / measured. */
  csv_path = g_build_filename (f->tmpdir, "measured.csv", NULL);
  g_assert_true (g_file_set_contents (csv_path, csv->str, -1, NULL));
  g_assert_true (ws_results_page_import_measured (f->results, csv_path, &error));
  g_assert_no_error (error);
  chart = ws_chart_view_get_chart (ws_results_page_get_sweep_view (f->results));
  m = ws_chart_find_series (chart, "measured: measured"); /* named after the file */
  g_assert_cmpint (m, ==, 1);
  g_assert_cmpuint (ws_chart_series_get_flags (chart, m) & WS_CHART_SERIES_MEASURED, !=, 0);
  g_assert_cmpfloat_with_epsilon (ws_chart_series_get_rel_error (chart, 0, 2), 1 / 1.25 - 1, 1e-9);
  g_assert_true (g_file_set_contents (csv_path, "N,seconds\n1048576,fast\n", -1, NULL));
  g_assert_false (ws_results_page_import_measured (f->results, csv_path, &error));
  g_assert_error (error, WS_ERROR, WS_ERROR_PARSE);
  g_assert_nonnull (strstr (error->message, "measured.csv:2:9:")); /* file:line:column of "fast" */
  g_clear_error (&error);
  /* A bad file keeps the earlier overlay. */
  g_assert_cmpint (
    ws_chart_find_series (ws_chart_view_get_chart (ws_results_page_get_sweep_view (f->results)), "measured: measured"),
    ==, 1);

  /* Columns are read by name (issue 16): seconds first, then x, is still
   * plotted with x on the x axis. */
  {
    g_autoptr (GString) swapped = g_string_new ("seconds,x\n");
    g_autofree char *swapped_path = g_build_filename (f->tmpdir, "swapped.csv", NULL);

    for (guint i = 0; i < 3; i++)
      g_string_append_printf (swapped, "%.17g,%.0f\n", measured[i], ns[i]);
    g_assert_true (g_file_set_contents (swapped_path, swapped->str, -1, NULL));
    g_assert_true (ws_results_page_import_measured (f->results, swapped_path, &error));
    g_assert_no_error (error);
    chart = ws_chart_view_get_chart (ws_results_page_get_sweep_view (f->results));
    m = ws_chart_find_series (chart, "measured: swapped");
    g_assert_cmpint (m, ==, 1);
    g_assert_cmpuint (ws_chart_series_get_n_points (chart, m), ==, 3);
    for (guint i = 0; i < 3; i++)
      {
        g_assert_true (ws_chart_series_get_point (chart, m, i, &x, &y));
        g_assert_cmpfloat (x, ==, ns[i]);
        g_assert_cmpfloat (y, ==, measured[i]);
      }
    g_assert_cmpfloat_with_epsilon (ws_chart_series_get_rel_error (chart, 0, 2), 1 / 1.25 - 1, 1e-9);
  }

  /* The timeline shows every operation of the last point. */
  timeline = ws_chart_view_get_chart (ws_results_page_get_timeline_view (f->results));
  g_assert_cmpint (ws_chart_get_kind (timeline), ==, WS_CHART_GANTT);
  g_assert_cmpuint (ws_chart_get_n_spans (timeline), ==,
                    ((WsSystemResult *) g_ptr_array_index (run->results, 2))->operations->len);
  g_assert_cmpuint (ws_chart_get_n_spans (timeline), >, 0);
}

static void
test_sim_failure_and_cancel (SimFixture *f, gconstpointer data)
{
  RunWait wait;
  const WsRun *run;
  const char *predictor;
  WsRunQueue *queue;

  SKIP_WITHOUT_DISPLAY ();
  predictor = first_plugin (f->sims);
  if (predictor == NULL)
    {
      g_test_skip ("no predictor plugin built");
      return;
    }
  queue = ws_simulations_page_get_queue (f->sims);
  g_assert_true (ws_simulations_page_select_system (f->sims, f->system));
  g_assert_true (ws_simulations_page_select_app (f->sims, "saxpy2-analytic"));
  ws_simulations_page_set_predictor (f->sims, predictor, TRUE);

  /* A good single point, then a run that fails: the first keeps its result. */
  g_assert_cmpuint (ws_simulations_page_run (f->sims), ==, 1);
  ws_simulations_page_set_fixed (f->sims, "noSuchVariable=3");
  g_assert_cmpuint (ws_simulations_page_run (f->sims), ==, 1);
  wait.queue = queue;
  wait.index = 1;
  g_assert_true (iterate_until (run_finished, &wait, 60000));
  run = ws_run_queue_get_run (queue, 1);
  g_assert_cmpint (run->state, ==, WS_RUN_FAILED);
  g_assert_nonnull (run->error);
  g_assert_nonnull (strstr (run->error, "noSuchVariable"));
  run = ws_run_queue_get_run (queue, 0);
  g_assert_cmpint (run->state, ==, WS_RUN_DONE);
  g_assert_cmpuint (run->results->len, ==, 1);

  /* Cancelling a long sweep stops it between points. */
  ws_simulations_page_set_fixed (f->sims, "");
  ws_simulations_page_set_sweep (f->sims, "N=1024:4194304:1024");
  g_assert_cmpuint (ws_simulations_page_run (f->sims), ==, 1);
  ws_run_queue_cancel (queue, 2);
  wait.index = 2;
  g_assert_true (iterate_until (run_finished, &wait, 60000));
  run = ws_run_queue_get_run (queue, 2);
  g_assert_cmpint (run->state, ==, WS_RUN_CANCELLED);
  g_assert_cmpuint (run->n_done, <, run->values->len);
  g_assert_null (run->results);
  /* Earlier runs are untouched. */
  g_assert_cmpint (ws_run_queue_get_run (queue, 0)->state, ==, WS_RUN_DONE);
}

static void
test_sim_cpi_stacks (SimFixture *f, gconstpointer data)
{
  RunWait wait;
  const WsRun *run;
  WsChart *chart, *sweep;
  g_autoptr (GError) error = NULL;
  g_autoptr (WsAppModel) app = NULL;
  g_auto (GStrv) traces = NULL;
  g_autoptr (WsTrace) trace = NULL;
  double total = 0;

  SKIP_WITHOUT_DISPLAY ();
  if (first_plugin (f->sims) == NULL)
    {
      g_test_skip ("no predictor plugin built");
      return;
    }
  app = ws_system_store_get_app (f->store, "saxpy2", &error);
  if (app == NULL)
    {
      g_test_skip ("the demo trace of saxpy2 is not available");
      return;
    }
  traces = ws_app_model_get_traces (app);
  g_assert_nonnull (traces[0]);
  trace = ws_trace_open (traces[0], &error);
  g_assert_no_error (error);

  g_assert_true (ws_simulations_page_select_system (f->sims, f->system));
  g_assert_true (ws_simulations_page_select_app (f->sims, "saxpy2"));
  ws_simulations_page_set_predictor (f->sims, "volkov", TRUE);
  ws_simulations_page_set_sweep (f->sims, "");
  g_assert_cmpuint (ws_simulations_page_run (f->sims), ==, 1);
  wait.queue = ws_simulations_page_get_queue (f->sims);
  wait.index = 0;
  g_assert_true (iterate_until (run_finished, &wait, 60000));
  run = ws_run_queue_get_run (wait.queue, 0);
  g_assert_cmpint (run->state, ==, WS_RUN_DONE);
  g_assert_null (run->variable);
  g_assert_cmpuint (run->cpi->len, ==, ws_trace_get_n_launches (trace));

  /* One bar per launch; its segments are the prediction's CPI stack. */
  drain ();
  chart = ws_chart_view_get_chart (ws_results_page_get_cpi_view (f->results));
  g_assert_cmpint (ws_chart_get_kind (chart), ==, WS_CHART_STACKED);
  g_assert_cmpuint (ws_chart_get_n_bars (chart), ==, ws_trace_get_n_launches (trace));
  for (guint s = 0; s < ws_chart_get_n_series (chart); s++)
    total += ws_chart_get_bar_value (chart, 0, s);
  g_assert_cmpfloat (total, >, 0);
  g_assert_cmpfloat_with_epsilon (total, ws_prediction_cpi_total (g_ptr_array_index (run->cpi, 0)), 1e-12 * total);
  /* A single point plots as one marker at the run's number. */
  sweep = ws_chart_view_get_chart (ws_results_page_get_sweep_view (f->results));
  g_assert_cmpuint (ws_chart_series_get_n_points (sweep, 0), ==, 1);
}

/* The detailed simulator with TBPoint: the TBPoint view shows every TB of
 * each profiled launch, and exports. */
static void
test_sim_tbpoint_view (SimFixture *f, gconstpointer data)
{
  RunWait wait;
  const WsRun *run;
  WsChart *chart;
  g_autoptr (GError) error = NULL;
  g_autoptr (WsAppModel) app = NULL;
  g_auto (GStrv) traces = NULL;
  g_autoptr (WsTrace) trace = NULL;
  g_autofree char *png = NULL;
  uint64_t n_tbs = 0;
  guint points = 0;
  const WsTbpointView *view;

  SKIP_WITHOUT_DISPLAY ();
  app = ws_system_store_get_app (f->store, "saxpy2", &error);
  if (app == NULL)
    {
      g_test_skip ("the demo trace of saxpy2 is not available");
      return;
    }
  traces = ws_app_model_get_traces (app);
  trace = ws_trace_open (traces[0], &error);
  g_assert_no_error (error);
  ws_trace_get_tb_counters (trace, 0, &n_tbs);

  /* No TBPoint run yet: the view says how to get one. */
  g_assert_cmpuint (ws_results_page_get_n_tbpoint_launches (f->results), ==, 0);
  g_assert_null (ws_chart_view_get_chart (ws_results_page_get_tbpoint_view (f->results)));

  g_assert_true (ws_simulations_page_select_system (f->sims, f->system));
  g_assert_true (ws_simulations_page_select_app (f->sims, "saxpy2"));
  g_assert_true (ws_simulations_page_set_predictor (f->sims, "volkov", FALSE));
  g_assert_true (ws_simulations_page_set_predictor (f->sims, WS_SYSTEM_PREDICTOR_SIMULATOR_TBPOINT, TRUE));
  ws_simulations_page_set_sweep (f->sims, "");
  g_assert_cmpuint (ws_simulations_page_run (f->sims), ==, 1);
  wait.queue = ws_simulations_page_get_queue (f->sims);
  wait.index = 0;
  g_assert_true (iterate_until (run_finished, &wait, 120000));
  run = ws_run_queue_get_run (wait.queue, 0);
  if (run->state == WS_RUN_FAILED)
    g_test_message ("run failed: %s", run->error);
  g_assert_cmpint (run->state, ==, WS_RUN_DONE);
  g_assert_cmpuint (run->tbpoint->len, ==, ws_trace_get_n_launches (trace));
  view = g_ptr_array_index (run->tbpoint, 0);
  g_assert_cmpuint (view->n_tbs, ==, n_tbs);

  drain ();
  ws_results_page_show (f->results, "tbpoint");
  g_assert_cmpuint (ws_results_page_get_n_tbpoint_launches (f->results), ==, run->tbpoint->len);
  chart = ws_chart_view_get_chart (ws_results_page_get_tbpoint_view (f->results));
  g_assert_nonnull (chart);
  g_assert_cmpint (ws_chart_get_kind (chart), ==, WS_CHART_TBPOINT);
  for (guint s = 0; s < ws_chart_get_n_series (chart); s++)
    points += ws_chart_series_get_n_points (chart, s);
  g_assert_cmpuint (points, ==, n_tbs);
  g_assert_cmpuint (ws_chart_get_n_series (chart), >=, view->n_regions);
  png = g_build_filename (f->tmpdir, "tbpoint.png", NULL);
  g_assert_true (ws_chart_view_export (ws_results_page_get_tbpoint_view (f->results), png, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_test (png, G_FILE_TEST_IS_REGULAR));
}

/* Cancelling stops a run inside its single simulator point, not after it. */
static void
test_sim_cancel_inside_point (SimFixture *f, gconstpointer data)
{
  SimTraceBuilder b;
  WsTraceStaticInst insts[9];
  uint64_t addr = 0x1000000;
  g_autofree char *path = NULL, *json = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (JsonParser) parser = json_parser_new ();
  RunWait wait;
  const WsRun *run;
  gint64 cancelled_at, t0, full_us, stopped_us;

  SKIP_WITHOUT_DISPLAY ();
  sim_trace_open (&b, f->tmpdir, "long.wstrace");
  for (int i = 0; i < 8; i++)
    insts[i] = sim_test_inst (WS_OPCLASS_ALU, i, -1, -1);
  insts[8] = sim_test_inst (WS_OPCLASS_LD, 8, -1, -1);
  insts[8].space = WS_SPACE_GLOBAL;
  sim_trace_launch (&b, sim_trace_kernel (&b, "long_kernel", insts, 9), 2000, 256);
  for (guint t = 0; t < 2000; t++)
    {
      WsTraceCta *cta = ws_trace_cta_begin (b.w, t, 8);
      for (uint32_t w = 0; w < 8; w++)
        for (int i = 0; i < 200; i++)
          if (i % 10 == 9)
            {
              sim_rec_mem (cta, w, 8, WS_SPACE_GLOBAL, addr, 4);
              addr += 128;
            }
          else
            sim_rec_inst (cta, w, (uint32_t) (i % 8));
      ws_trace_cta_end (cta);
    }
  sim_trace_end_launch (&b);
  path = sim_trace_close (&b);
  json = g_strdup_printf ("{\"kind\":\"application\",\"name\":\"long-sim\",\"processes\":[{\"label\":\"CPU\","
                          "\"operations\":[{\"op\":\"kernel\",\"name\":\"long\",\"trace\":\"%s\"}]}]}",
                          path);
  g_assert_true (json_parser_load_from_data (parser, json, -1, &error));
  g_assert_true (ws_system_store_put_app (f->store, json_parser_get_root (parser), TRUE, &error));
  g_assert_no_error (error);
  ws_simulations_page_load (f->sims, f->store);

  /* How long the point takes when nobody cancels it (the same evaluation
   * the queue runs), so the check below scales with the machine. */
  {
    g_autoptr (WsSystemModel) system = ws_system_store_get_system (f->store, f->system, &error);
    g_autoptr (WsAppModel) app = ws_system_store_get_app (f->store, "long-sim", &error);
    g_autoptr (WsSystemEnv) env = ws_system_env_new (f->store, system, WS_SYSTEM_PREDICTOR_SIMULATOR, &error);
    g_autoptr (WsSystemResult) full = NULL;

    g_assert_no_error (error);
    t0 = g_get_monotonic_time ();
    full = ws_system_evaluate (env, app, NULL, &error);
    g_assert_no_error (error);
    full_us = g_get_monotonic_time () - t0;
  }

  g_assert_true (ws_simulations_page_select_system (f->sims, f->system));
  g_assert_true (ws_simulations_page_select_app (f->sims, "long-sim"));
  ws_simulations_page_set_predictor (f->sims, "volkov", FALSE);
  ws_simulations_page_set_predictor (f->sims, WS_SYSTEM_PREDICTOR_SIMULATOR, TRUE);
  ws_simulations_page_set_sweep (f->sims, "");
  g_assert_cmpuint (ws_simulations_page_run (f->sims), ==, 1);
  wait.queue = ws_simulations_page_get_queue (f->sims);
  wait.index = 0;
  /* Let the simulation get going (a tenth of its time), then cancel. */
  t0 = g_get_monotonic_time ();
  while (g_get_monotonic_time () - t0 < full_us / 10)
    g_main_context_iteration (NULL, FALSE);
  run = ws_run_queue_get_run (wait.queue, 0);
  g_assert_cmpint (run->state, ==, WS_RUN_RUNNING);
  cancelled_at = g_get_monotonic_time ();
  ws_run_queue_cancel (wait.queue, 0);
  g_assert_true (iterate_until (run_finished, &wait, 60000));
  run = ws_run_queue_get_run (wait.queue, 0);
  stopped_us = g_get_monotonic_time () - cancelled_at;
  g_test_message ("the point takes %.3f s; the run stopped %.3f s after cancelling", full_us / 1e6, stopped_us / 1e6);
  g_assert_cmpint (run->state, ==, WS_RUN_CANCELLED);
  g_assert_cmpuint (run->n_done, ==, 0);
  /* Stopped inside the point: well before the 90 % of it that was left. */
  g_assert_cmpint (stopped_us, <, full_us / 2);
}

/* Measured data from stored measurement sets (warpscope-cli measurements
 * import): one set per measured run, placed by the N in its name. */
static void
test_results_measurement_sets (SimFixture *f, gconstpointer data)
{
  const double ns[] = { 1048576, 2097152, 4194304 };
  RunWait wait;
  WsChart *chart;
  int m;
  double x, y;
  g_autoptr (GError) error = NULL;
  const char *names[] = { "saxpy2 N=1048576", "saxpy2 N=2097152", "saxpy2-N4194304", NULL };
  const char *bad[] = { "no number here", NULL };

  SKIP_WITHOUT_DISPLAY ();
  if (first_plugin (f->sims) == NULL)
    {
      g_test_skip ("no predictor plugin built");
      return;
    }
  /* Before any sweep the sets have nowhere to go. */
  g_assert_false (ws_results_page_use_measurement_sets (f->results, names, FALSE, &error));
  g_assert_nonnull (strstr (error->message, "sweep"));
  g_clear_error (&error);

  for (guint i = 0; i < 3; i++)
    {
      g_autoptr (WsMeasurementSet) set = ws_measurement_set_new (i < 3 ? names[i] : bad[0], "GTX 970");
      WsMeasurement k = { .kind = WS_MEASURE_KERNEL,
                          .name = g_strdup ("_Z6saxpy2iiPfS_"),
                          .grid = { 4096, 1, 1 },
                          .block = { 256, 1, 1 },
                          .runs = 1,
                          .duration_ns = 100000.0 * (i + 1) };
      WsMeasurement c = { .kind = WS_MEASURE_MEMCPY,
                          .name = g_strdup ("memcpy"),
                          .direction = WS_MEMCPY_HTOD,
                          .bytes = (guint64) ns[i] * 4,
                          .runs = 1,
                          .duration_ns = 50000.0 * (i + 1) };

      set->rows = ws_measurements_new ();
      g_array_append_val (set->rows, k);
      g_array_append_val (set->rows, c);
      ws_measure_assign_occurrences (set->rows);
      g_assert_true (ws_measure_store_put (f->store, set, TRUE, &error));
      g_assert_no_error (error);
    }
  {
    g_autoptr (WsMeasurementSet) set = ws_measurement_set_new (bad[0], "GTX 970");
    WsMeasurement k = { .kind = WS_MEASURE_KERNEL,
                        .name = g_strdup ("k"),
                        .grid = { 1, 1, 1 },
                        .block = { 32, 1, 1 },
                        .runs = 1,
                        .duration_ns = 1000 };
    set->rows = ws_measurements_new ();
    g_array_append_val (set->rows, k);
    g_assert_true (ws_measure_store_put (f->store, set, TRUE, &error));
  }

  g_assert_true (ws_simulations_page_select_system (f->sims, f->system));
  g_assert_true (ws_simulations_page_select_app (f->sims, "saxpy2-analytic"));
  ws_simulations_page_set_predictor (f->sims, "volkov", TRUE);
  ws_simulations_page_set_sweep (f->sims, "N=1048576,2097152,4194304");
  g_assert_cmpuint (ws_simulations_page_run (f->sims), ==, 1);
  wait.queue = ws_simulations_page_get_queue (f->sims);
  wait.index = 0;
  g_assert_true (iterate_until (run_finished, &wait, 60000));
  g_assert_cmpint (ws_run_queue_get_run (wait.queue, 0)->state, ==, WS_RUN_DONE);

  g_assert_true (ws_results_page_use_measurement_sets (f->results, names, FALSE, &error));
  g_assert_no_error (error);
  chart = ws_chart_view_get_chart (ws_results_page_get_sweep_view (f->results));
  m = ws_chart_find_series (chart, "measured");
  g_assert_cmpint (m, >=, 0);
  g_assert_cmpuint (ws_chart_series_get_n_points (chart, m), ==, 3);
  for (guint i = 0; i < 3; i++)
    {
      g_assert_true (ws_chart_series_get_point (chart, m, i, &x, &y));
      g_assert_cmpfloat (x, ==, ns[i]);
      g_assert_cmpfloat_with_epsilon (y, 150e-6 * (i + 1), 1e-15);
      g_assert_true (isfinite (ws_chart_series_get_rel_error (chart, 0, i)));
    }
  /* Kernels only. */
  g_assert_true (ws_results_page_use_measurement_sets (f->results, names, TRUE, &error));
  chart = ws_chart_view_get_chart (ws_results_page_get_sweep_view (f->results));
  m = ws_chart_find_series (chart, "measured (kernels)");
  g_assert_cmpint (m, >=, 0);
  g_assert_true (ws_chart_series_get_point (chart, m, 1, &x, &y));
  g_assert_cmpfloat_with_epsilon (y, 200e-6, 1e-15);
  /* A set whose name gives no N is refused by name; the overlay stays. */
  g_assert_false (ws_results_page_use_measurement_sets (f->results, bad, FALSE, &error));
  g_assert_nonnull (strstr (error->message, "no number here"));
  g_assert_cmpint (
    ws_chart_find_series (ws_chart_view_get_chart (ws_results_page_get_sweep_view (f->results)), "measured (kernels)"),
    >=, 0);
}

/* The walk-through on the demo workspace: sweep N for saxpy2 (its
 * kernel profiled on demand for every N) with every predictor and the
 * simulator (plain and TBPoint) in one plot, measured data overlaid, a
 * CPI stack per configuration and a TBPoint view, all exported. */
static void
test_demo_walkthrough (SimFixture *f, gconstpointer data)
{
  const double ns[] = { 16384, 65536, 262144 };
  const char *const *names;
  g_autoptr (GPtrArray) chosen = g_ptr_array_new ();
  g_autoptr (GError) error = NULL;
  g_autoptr (WsAppModel) app = NULL;
  g_autoptr (GString) csv = g_string_new ("N,seconds\n");
  g_autofree char *csv_path = NULL;
  WsRunQueue *queue;
  WsChart *chart;
  guint n_plugins = 0, points = 0;
  int volkov = -1, m;
  double x, y, prev;

  SKIP_WITHOUT_DISPLAY ();
  app = ws_system_store_get_app (f->store, "saxpy2-profiled", &error);
  if (app == NULL)
    {
      g_test_skip ("examples/saxpy2 was not built (no CUDA): no saxpy2-profiled in the demo");
      return;
    }
  queue = ws_simulations_page_get_queue (f->sims);
  g_assert_true (ws_simulations_page_select_system (f->sims, "testbed-gtx970"));
  g_assert_true (ws_simulations_page_select_app (f->sims, "saxpy2-profiled"));
  names = ws_simulations_page_get_predictors (f->sims);
  for (guint i = 0; names[i] != NULL; i++)
    {
      g_assert_true (ws_simulations_page_set_predictor (f->sims, names[i], TRUE));
      g_ptr_array_add (chosen, (gpointer) names[i]);
      if (!g_str_has_prefix (names[i], WS_SYSTEM_PREDICTOR_SIMULATOR))
        n_plugins++;
    }
  g_assert_true (g_strv_contains (names, WS_SYSTEM_PREDICTOR_SIMULATOR));
  g_assert_true (g_strv_contains (names, WS_SYSTEM_PREDICTOR_SIMULATOR_TBPOINT));
  ws_simulations_page_set_sweep (f->sims, "N=16384,65536,262144");
  g_assert_cmpuint (ws_simulations_page_run (f->sims), ==, chosen->len);
  while (ws_run_queue_is_busy (queue))
    g_main_context_iteration (NULL, TRUE);
  for (guint i = 0; i < ws_run_queue_get_n_runs (queue); i++)
    {
      const WsRun *run = ws_run_queue_get_run (queue, i);

      if (run->state != WS_RUN_DONE)
        g_test_message ("%s: %s", run->predictor, run->error ? run->error : ws_run_state_name (run->state));
      g_assert_cmpint (run->state, ==, WS_RUN_DONE);
      g_assert_cmpuint (run->results->len, ==, 3);
      /* Every source sees the kernel grow with N: the profile follows N. */
      for (guint p = 1; p < 3; p++)
        {
          const WsSystemResult *a = g_ptr_array_index (run->results, p - 1);
          const WsSystemResult *b = g_ptr_array_index (run->results, p);
          double ka = 0, kb = 0;

          for (guint o = 0; o < a->operations->len; o++)
            if (g_str_equal (((WsSystemOpRecord *) g_ptr_array_index (a->operations, o))->op, "kernel"))
              ka += ((WsSystemOpRecord *) g_ptr_array_index (a->operations, o))->end
                    - ((WsSystemOpRecord *) g_ptr_array_index (a->operations, o))->start;
          for (guint o = 0; o < b->operations->len; o++)
            if (g_str_equal (((WsSystemOpRecord *) g_ptr_array_index (b->operations, o))->op, "kernel"))
              kb += ((WsSystemOpRecord *) g_ptr_array_index (b->operations, o))->end
                    - ((WsSystemOpRecord *) g_ptr_array_index (b->operations, o))->start;
          g_assert_cmpfloat (kb, >, ka);
        }
    }

  /* One plot: a series per source, three points each. */
  drain ();
  chart = ws_chart_view_get_chart (ws_results_page_get_sweep_view (f->results));
  g_assert_cmpuint (ws_chart_get_n_series (chart), ==, chosen->len);
  for (guint i = 0; i < chosen->len; i++)
    {
      int series = ws_chart_find_series (chart, g_ptr_array_index (chosen, i));

      g_assert_cmpint (series, >=, 0);
      g_assert_cmpuint (ws_chart_series_get_n_points (chart, series), ==, 3);
      prev = 0;
      for (guint p = 0; p < 3; p++)
        {
          g_assert_true (ws_chart_series_get_point (chart, series, p, &x, &y));
          g_assert_cmpfloat (x, ==, ns[p]);
          g_assert_cmpfloat (y, >, prev);
          prev = y;
        }
    }

  /* Measured data (here: the volkov times + 10 %, a stand-in for a CSV of
   * real measurements) overlaid with relative errors. */
  volkov = ws_chart_find_series (chart, "volkov");
  g_assert_cmpint (volkov, >=, 0);
  for (guint p = 0; p < 3; p++)
    {
      g_assert_true (ws_chart_series_get_point (chart, volkov, p, &x, &y));
      g_string_append_printf (csv, "%.0f,%.17g\n", x, y * 1.1);
    }
  csv_path = g_build_filename (f->tmpdir, "saxpy2-measured.csv", NULL);
  g_assert_true (g_file_set_contents (csv_path, csv->str, -1, NULL));
  g_assert_true (ws_results_page_import_measured (f->results, csv_path, &error));
  g_assert_no_error (error);
  chart = ws_chart_view_get_chart (ws_results_page_get_sweep_view (f->results));
  m = ws_chart_find_series (chart, "measured: saxpy2-measured");
  g_assert_cmpint (m, >=, 0);
  volkov = ws_chart_find_series (chart, "volkov");
  for (guint p = 0; p < 3; p++)
    g_assert_cmpfloat_with_epsilon (ws_chart_series_get_rel_error (chart, volkov, p), 1 / 1.1 - 1, 1e-9);

  /* CPI stacks: a bar per plugin predictor and N (each N has its own profile). */
  chart = ws_chart_view_get_chart (ws_results_page_get_cpi_view (f->results));
  g_assert_cmpint (ws_chart_get_kind (chart), ==, WS_CHART_STACKED);
  g_assert_cmpuint (ws_chart_get_n_bars (chart), ==, n_plugins * 3);

  /* TBPoint view of the last point's launch: every one of its TBs. */
  ws_results_page_show (f->results, "tbpoint");
  g_assert_cmpuint (ws_results_page_get_n_tbpoint_launches (f->results), ==, 1);
  chart = ws_chart_view_get_chart (ws_results_page_get_tbpoint_view (f->results));
  for (guint s2 = 0; s2 < ws_chart_get_n_series (chart); s2++)
    points += ws_chart_series_get_n_points (chart, s2);
  g_assert_cmpuint (points, ==, 262144 / 256);

  /* Export: every format of the sweep, the CPI stacks and the TBPoint view. */
  {
    const char *files[] = { "sweep.png", "sweep.svg", "sweep.pdf", "sweep.csv", "cpi.svg", "tbpoint.png", NULL };
    const char *magic[] = { "\x89PNG", "<?xml", "%PDF", "", "<?xml", "\x89PNG" };

    for (guint i = 0; files[i] != NULL; i++)
      {
        g_autofree char *path = g_build_filename (f->tmpdir, files[i], NULL);
        g_autofree char *contents = NULL;
        WsChartView *view = i < 4    ? ws_results_page_get_sweep_view (f->results)
                            : i == 4 ? ws_results_page_get_cpi_view (f->results)
                                     : ws_results_page_get_tbpoint_view (f->results);
        gsize len = 0;

        g_assert_true (ws_chart_view_export (view, path, &error));
        g_assert_no_error (error);
        g_assert_true (g_file_get_contents (path, &contents, &len, NULL));
        g_assert_cmpuint (len, >, 200);
        g_assert_true (g_str_has_prefix (contents, magic[i]));
        if (i == 3)
          g_assert_nonnull (strstr (contents, "measured: saxpy2-measured"));
      }
  }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  have_display = gtk_init_check ();
  if (have_display)
    adw_init ();

  g_test_add_func ("/gui/chart-view/tooltip-legend-zoom-pan-export", test_chart_view_interactions);
  g_test_add ("/gui/profiles/lists-trace-kernels-launches-tools", ProfilesFixture, NULL, profiles_setup,
              test_profiles_lists_trace, profiles_teardown);
  g_test_add ("/gui/profiles/memdiv-heatmap-and-pmf", ProfilesFixture, NULL, profiles_setup, test_profiles_memdiv,
              profiles_teardown);
  g_test_add ("/gui/profiles/failed-run-shows-message", ProfilesFixture, NULL, profiles_setup, test_profiles_failed_run,
              profiles_teardown);
  g_test_add ("/gui/profiles/cancel-ends-run", ProfilesFixture, NULL, profiles_setup, test_profiles_cancel,
              profiles_teardown);
  g_test_add ("/gui/profiles/profiles-through-core-launch", ProfilesFixture, NULL, profiles_setup,
              test_profiles_runs_program, profiles_teardown);

  g_test_add ("/gui/simulations/sweep-plots-with-measured-overlay", SimFixture, NULL, sim_setup, test_sim_sweep_results,
              sim_teardown);
  g_test_add ("/gui/simulations/failure-kept-and-cancel", SimFixture, NULL, sim_setup, test_sim_failure_and_cancel,
              sim_teardown);

  g_test_add ("/gui/simulations/cpi-stacks-per-launch", SimFixture, NULL, sim_setup, test_sim_cpi_stacks, sim_teardown);
  g_test_add ("/gui/simulations/tbpoint-view", SimFixture, NULL, sim_setup, test_sim_tbpoint_view, sim_teardown);
  g_test_add ("/gui/simulations/cancel-inside-a-point", SimFixture, NULL, sim_setup, test_sim_cancel_inside_point,
              sim_teardown);
  g_test_add ("/gui/results/measurement-sets-overlay", SimFixture, NULL, sim_setup, test_results_measurement_sets,
              sim_teardown);
  g_test_add ("/gui/demo/saxpy2-sweep-all-sources-measured-cpi-tbpoint-export", SimFixture, NULL, sim_setup,
              test_demo_walkthrough, sim_teardown);

  return g_test_run ();
}
