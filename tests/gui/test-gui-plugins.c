/* test-gui-plugins.c: predictor plugins in the GUI (issue 18), in a real
 * window under Xvfb, with copies of probe plugins of tests/predict on the
 * plugin path (WARPSCOPE_PLUGIN_PATH, a folder of the test's own):
 *  - the Simulations page builds option rows from each plugin's option
 *    descriptors, refuses a bad value with the option named, and the values
 *    set there reach the plugin (the probe's predicted cycles are
 *    scale x grid) and are kept with the run;
 *  - the Plugins page lists every plugin found, usable, broken or shadowed,
 *    with the reason; Rescan finds a plugin added while the app runs and
 *    the Simulations page offers it at once;
 *  - a plugin that crashes fails its run with the signal named, and the app
 *    and the queue go on. */
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <adwaita.h>
#include <string.h>

#include "ws-config.h"
#include "ws-simulations-page.h"
#include "ws-plugins-page.h"
#include "ws-plugin-options.h"
#include "system/ws-system.h"
#include "predict/ws-predict.h"
#include "gui-test-util.h"

typedef struct {
  char *tmpdir;
  WsStore *store;
  char *system;
  WsSimulationsPage *sims;
  WsPluginsPage *plugins;
  GtkWindow *window;
} Fixture;

static void
setup (Fixture *f, gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *db = NULL;
  g_auto (GStrv) systems = NULL;
  GtkWidget *paned;

  if (!have_display)
    return;
  f->tmpdir = g_dir_make_tmp ("ws-test-plugins-XXXXXX", &error);
  g_assert_no_error (error);
  db = g_build_filename (f->tmpdir, "ws.db", NULL);
  f->store = ws_store_open (db, &error);
  g_assert_no_error (error);
  g_assert_true (ws_system_store_ensure_demo (f->store, &error));
  systems = ws_system_store_list_systems (f->store, &error);
  g_assert_no_error (error);
  g_assert_nonnull (systems[0]);
  f->system = g_strdup (systems[0]);
  f->sims = WS_SIMULATIONS_PAGE (ws_simulations_page_new ());
  ws_simulations_page_load (f->sims, f->store);
  f->plugins = WS_PLUGINS_PAGE (ws_plugins_page_new ());
  g_signal_connect_swapped (f->plugins, "rescanned", G_CALLBACK (ws_simulations_page_rescan_plugins), f->sims);
  paned = gtk_paned_new (GTK_ORIENTATION_HORIZONTAL);
  gtk_paned_set_start_child (GTK_PANED (paned), GTK_WIDGET (f->sims));
  gtk_paned_set_end_child (GTK_PANED (paned), GTK_WIDGET (f->plugins));
  gtk_paned_set_position (GTK_PANED (paned), 620);
  f->window = show_in_window (paned, 1280, 780);
}

static void
teardown (Fixture *f, gconstpointer data)
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

/* Queues one run of the probe with the form as it is; waits for its end. */
static const WsRun *
run_probe (Fixture *f)
{
  WsRunQueue *queue = ws_simulations_page_get_queue (f->sims);
  RunWait wait = { queue, ws_run_queue_get_n_runs (queue) };

  g_assert_cmpuint (ws_simulations_page_run (f->sims), ==, 1);
  g_assert_true (iterate_until (run_finished, &wait, 60000));
  return ws_run_queue_get_run (queue, wait.index);
}

/* The kernel operation's time in the run's only point. */
static double
kernel_seconds (const WsRun *run)
{
  const WsSystemResult *r = g_ptr_array_index (run->results, 0);

  for (guint i = 0; i < r->operations->len; i++)
    {
      const WsSystemOpRecord *op = g_ptr_array_index (r->operations, i);

      if (g_str_equal (op->op, "kernel"))
        return op->end - op->start;
    }
  g_assert_not_reached ();
}

static void
test_options_reach_the_plugin (Fixture *f, gconstpointer data)
{
  WsPluginOptions *probe, *volkov;
  const WsRun *run;
  double default_seconds, scaled_seconds;
  g_autofree char *title = NULL;

  SKIP_WITHOUT_DISPLAY ();
  /* Rows come from the descriptors: probe_crash declares a choice and an
   * integer, volkov two numbers, the simulator none. */
  probe = ws_simulations_page_get_options (f->sims, "probe_crash");
  g_assert_nonnull (probe);
  g_assert_cmpuint (ws_plugin_options_get_n (probe), ==, 2);
  g_assert_true (ADW_IS_COMBO_ROW (ws_plugin_options_get_row (probe, "mode")));
  g_assert_true (ADW_IS_ENTRY_ROW (ws_plugin_options_get_row (probe, "scale")));
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (ws_plugin_options_get_row (probe, "scale"))), ==, "1000");
  volkov = ws_simulations_page_get_options (f->sims, "volkov");
  g_assert_nonnull (volkov);
  g_assert_cmpuint (ws_plugin_options_get_n (volkov), ==, 2);
  g_assert_null (ws_simulations_page_get_options (f->sims, WS_SYSTEM_PREDICTOR_SIMULATOR));

  g_assert_true (ws_simulations_page_select_system (f->sims, f->system));
  g_assert_true (ws_simulations_page_select_app (f->sims, "saxpy2-analytic"));
  ws_simulations_page_set_predictor (f->sims, "volkov", FALSE);
  ws_simulations_page_set_predictor (f->sims, "probe_crash", TRUE);
  g_assert_true (ws_plugin_options_set_value (probe, "mode", "ok"));

  /* At the defaults: scale 1000 cycles per block. */
  run = run_probe (f);
  g_assert_cmpint (run->state, ==, WS_RUN_DONE);
  g_assert_cmpstr (g_hash_table_lookup (run->options, "scale"), ==, "1000");
  default_seconds = kernel_seconds (run);
  g_assert_cmpfloat (default_seconds, >, 0);

  /* A bad value, typed: the row is marked and nothing is queued. */
  gtk_editable_set_text (GTK_EDITABLE (ws_plugin_options_get_row (probe, "scale")), "seven");
  drain ();
  g_assert_true (gtk_widget_has_css_class (ws_plugin_options_get_row (probe, "scale"), "error"));
  g_assert_cmpuint (ws_simulations_page_run (f->sims), ==, 0);
  g_assert_nonnull (strstr (ws_simulations_page_get_message (f->sims), "Options of probe_crash"));
  g_assert_nonnull (strstr (ws_simulations_page_get_message (f->sims), "scale"));
  g_assert_cmpuint (ws_run_queue_get_n_runs (ws_simulations_page_get_queue (f->sims)), ==, 1);

  /* scale = 7: the kernel takes 7/1000 of the time, so the value reached the
   * plugin in its worker; the run keeps its options. */
  gtk_editable_set_text (GTK_EDITABLE (ws_plugin_options_get_row (probe, "scale")), "7");
  drain ();
  g_assert_false (gtk_widget_has_css_class (ws_plugin_options_get_row (probe, "scale"), "error"));
  run = run_probe (f);
  g_assert_cmpint (run->state, ==, WS_RUN_DONE);
  g_assert_cmpstr (g_hash_table_lookup (run->options, "scale"), ==, "7");
  g_assert_cmpstr (g_hash_table_lookup (run->options, "mode"), ==, "ok");
  /* the colour the plugin declares for a CPI category (API 4) comes with the run */
  g_assert_nonnull (run->cpi_colours);
  g_assert_cmpstr (g_hash_table_lookup (run->cpi_colours, "BASE"), ==, "#112233");
  scaled_seconds = kernel_seconds (run);
  {
    /* ...and the stored sweep keeps them */
    g_autoptr (GError) error = NULL;
    g_autoptr (GHashTable) stored = NULL;

    g_assert_cmpint (run->sweep_id, >, 0);
    stored = ws_system_store_get_sweep_options (f->store, run->sweep_id, &error);
    g_assert_no_error (error);
    g_assert_cmpstr (g_hash_table_lookup (stored, "scale"), ==, "7");
  }
  g_assert_cmpfloat_with_epsilon (scaled_seconds / default_seconds, 7.0 / 1000.0, 1e-9);
  /* The queue row says which options differ from the defaults. */
  {
    const WsPredictorPlugin *plugin = NULL;
    g_autoptr (GPtrArray) scan = ws_predictor_scan ();

    for (guint i = 0; i < scan->len; i++)
      if (g_str_equal (((WsPredictorPlugin *) scan->pdata[i])->name, "probe_crash"))
        plugin = scan->pdata[i];
    g_assert_nonnull (plugin);
    title = ws_plugin_options_describe (plugin, run->options);
    g_assert_cmpstr (title, ==, "mode=ok, scale=7");
  }

  /* A crashing plugin fails its own run, named; the queue goes on. */
  g_assert_true (ws_plugin_options_set_value (probe, "mode", "segv"));
  run = run_probe (f);
  g_assert_cmpint (run->state, ==, WS_RUN_FAILED);
  g_assert_nonnull (strstr (run->error, "predictor 'probe_crash' crashed"));
  g_assert_nonnull (strstr (run->error, "signal 11"));
  g_assert_true (ws_plugin_options_set_value (probe, "mode", "ok"));
  run = run_probe (f);
  g_assert_cmpint (run->state, ==, WS_RUN_DONE);
}

/* Copies plugin @name (its shared object) from the probe plugins' build
 * folder into @dir. */
static void
copy_plugin (const char *name, const char *dir)
{
  g_autofree char *file = g_strconcat (name, ".so", NULL);
  g_autofree char *from = g_build_filename (g_getenv ("WS_PROBE_PLUGIN_DIR"), file, NULL);
  g_autofree char *to = g_build_filename (dir, file, NULL);
  g_autofree char *contents = NULL;
  gsize len;

  g_assert_true (g_file_get_contents (from, &contents, &len, NULL));
  g_assert_true (g_file_set_contents (to, contents, (gssize) len, NULL));
}

static void
test_plugins_view_and_rescan (Fixture *f, gconstpointer data)
{
  g_autofree char *probe = NULL;
  g_autofree char *future = NULL;
  g_autofree char *volkov = NULL;
  g_autofree char *serial = NULL;
  g_autofree char *second = NULL;
  const char *plugin_dir = g_getenv ("WARPSCOPE_PLUGIN_PATH");
  guint before;

  SKIP_WITHOUT_DISPLAY ();
  /* Every plugin found, with what it is and how it runs. */
  probe = ws_plugins_page_describe (f->plugins, "probe_crash");
  g_assert_nonnull (probe);
  g_assert_nonnull (strstr (probe, "user plugin · runs in a worker process"));
  g_assert_nonnull (strstr (probe, "Option scale: integer, default 1000"));
  g_assert_nonnull (strstr (probe, "probe_crash.so"));
  volkov = ws_plugins_page_describe (f->plugins, "volkov");
  g_assert_nonnull (volkov);
  g_assert_nonnull (strstr (volkov, "ships with Warpscope · runs in process"));
  /* A broken one is listed with the reason, styled as an error, and not
   * offered as a predictor. */
  future = ws_plugins_page_describe (f->plugins, "broken_future_abi");
  g_assert_nonnull (future);
  g_assert_nonnull (strstr (future, "broken"));
  g_assert_nonnull (strstr (future, "please rebuild the plugin"));
  g_assert_true (gtk_widget_has_css_class (ws_plugins_page_get_row (f->plugins, "broken_future_abi"), "error"));
  g_assert_false (g_strv_contains (ws_simulations_page_get_predictors (f->sims), "broken_future_abi"));

  /* A plugin built while the app runs: Rescan lists it and the Simulations
   * page offers it without a restart, keeping the predictors checked. */
  g_assert_null (ws_plugins_page_get_row (f->plugins, "probe_serial"));
  g_assert_false (g_strv_contains (ws_simulations_page_get_predictors (f->sims), "probe_serial"));
  ws_simulations_page_set_predictor (f->sims, "volkov", FALSE);
  ws_simulations_page_set_predictor (f->sims, "probe_crash", TRUE);
  before = ws_plugins_page_get_n_plugins (f->plugins);
  copy_plugin ("probe_serial", plugin_dir);
  /* ...and a second probe_crash further down the path: shadowed. */
  second = g_build_filename (f->tmpdir, "later", NULL);
  g_assert_cmpint (g_mkdir (second, 0755), ==, 0);
  copy_plugin ("probe_crash", second);
  {
    g_autofree char *path = g_strconcat (plugin_dir, G_SEARCHPATH_SEPARATOR_S, second, NULL);
    g_autofree char *kept = g_strdup (plugin_dir);

    g_setenv ("WARPSCOPE_PLUGIN_PATH", path, TRUE);
    g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->plugins), "plugins.rescan", NULL));
    drain ();
    g_setenv ("WARPSCOPE_PLUGIN_PATH", kept, TRUE);
  }
  g_assert_cmpuint (ws_plugins_page_get_n_plugins (f->plugins), ==, before + 2);
  serial = ws_plugins_page_describe (f->plugins, "probe_serial");
  g_assert_nonnull (serial);
  g_assert_nonnull (strstr (serial, "runs in a worker process"));
  g_assert_true (g_strv_contains (ws_simulations_page_get_predictors (f->sims), "probe_serial"));
  g_assert_nonnull (ws_simulations_page_get_options (f->sims, "probe_crash"));
  {
    /* the first probe_crash is used and says what it hides */
    g_autofree char *first = ws_plugins_page_describe (f->plugins, "probe_crash");
    g_assert_nonnull (strstr (first, "Hides: "));
    g_assert_nonnull (strstr (first, second));
  }
  g_assert_true (ws_simulations_page_select_system (f->sims, f->system));
  g_assert_true (ws_simulations_page_select_app (f->sims, "saxpy2-analytic"));
  /* the choice survived the rebuild: one run, of probe_crash */
  g_assert_cmpuint (ws_simulations_page_run (f->sims), ==, 1);
  g_assert_cmpstr (ws_run_queue_get_run (ws_simulations_page_get_queue (f->sims), 0)->predictor, ==, "probe_crash");
  {
    g_autofree char *a = g_build_filename (plugin_dir, "probe_serial.so", NULL);
    g_autofree char *b = g_build_filename (second, "probe_crash.so", NULL);
    g_unlink (a);
    g_unlink (b);
    g_rmdir (second);
  }
}

int
main (int argc, char **argv)
{
  g_autofree char *plugin_dir = NULL;
  int rc;

  /* The plugin path: a folder of this test's with two probes, one working
   * (options, crashes on demand) and one built for a future ABI. */
  if (g_getenv ("WS_PROBE_PLUGIN_DIR") != NULL)
    {
      plugin_dir = g_dir_make_tmp ("ws-test-plugin-path-XXXXXX", NULL);
      g_assert_nonnull (plugin_dir);
      copy_plugin ("probe_crash", plugin_dir);
      copy_plugin ("broken_future_abi", plugin_dir);
      g_setenv ("WARPSCOPE_PLUGIN_PATH", plugin_dir, TRUE);
    }
  gtk_test_init (&argc, &argv, NULL);
  have_display = gdk_display_get_default () != NULL;
  if (have_display)
    adw_init ();
  g_test_add ("/gui/plugins/options-reach-the-plugin", Fixture, NULL, setup, test_options_reach_the_plugin, teardown);
  g_test_add ("/gui/plugins/view-lists-broken-and-rescans", Fixture, NULL, setup, test_plugins_view_and_rescan,
              teardown);
  rc = g_test_run ();
  if (plugin_dir != NULL)
    remove_tree (plugin_dir);
  return rc;
}
