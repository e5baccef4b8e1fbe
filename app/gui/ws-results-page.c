/* ws-results-page.c: sweep plots with measured overlays, and timelines. */
#define G_LOG_DOMAIN "ws-results-page"

#include <glib/gi18n.h>
#include <adwaita.h>
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "ws-results-page.h"
#include "measure/ws-measure.h"
#include "predict/ws-predict.h"
#include "tbpoint/ws-tbpoint.h"

struct _WsResultsPage {
  GtkWidget parent_instance;

  WsRunQueue *queue;
  WsStore *store; /* borrowed: measurement sets */
  gulong changed_id;
  GArray *measured; /* of WsMeasuredTime */
  char *measured_name;

  GtkWidget *box;
  GtkStack *stack;
  WsChartView *sweep_view;
  WsChartView *timeline_view;
  WsChartView *cpi_view;
  WsChartView *tbpoint_view;
  GtkDropDown *tbpoint_launch;
  GtkLabel *tbpoint_message;
  const WsRun *tbpoint_run; /* the run whose TBPoint views are listed */
  GtkLabel *message;
};

G_DEFINE_FINAL_TYPE (WsResultsPage, ws_results_page, GTK_TYPE_WIDGET)

static const WsRun *
latest_done (WsResultsPage *self)
{
  for (guint i = self->queue != NULL ? ws_run_queue_get_n_runs (self->queue) : 0; i > 0; i--)
    {
      const WsRun *run = ws_run_queue_get_run (self->queue, i - 1);

      if (run->state == WS_RUN_DONE)
        return run;
    }
  return NULL;
}

static gboolean
same_study (const WsRun *a, const WsRun *b)
{
  return g_str_equal (a->system, b->system) && g_str_equal (a->app, b->app)
         && g_strcmp0 (a->variable, b->variable) == 0;
}

static WsChart *
build_sweep (WsResultsPage *self, const WsRun *latest)
{
  WsChart *chart = ws_chart_new (WS_CHART_LINE);
  g_autofree char *title = g_strdup_printf (_ ("%s on %s"), latest->app, latest->system);
  g_autoptr (GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);

  ws_chart_set_title (chart, title);
  ws_chart_set_axis_title (chart, WS_CHART_AXIS_X, latest->variable != NULL ? latest->variable : _ ("run"));
  ws_chart_set_axis_title (chart, WS_CHART_AXIS_Y, _ ("total time"));
  ws_chart_set_axis_unit (chart, WS_CHART_AXIS_Y, WS_CHART_UNIT_SECONDS);

  /* Newest run per predictor (a re-run replaces the older one in the
   * plot), drawn in the order the runs were queued. */
  g_autoptr (GArray) picked = g_array_new (FALSE, FALSE, sizeof (guint));
  for (guint i = ws_run_queue_get_n_runs (self->queue); i > 0; i--)
    {
      const WsRun *run = ws_run_queue_get_run (self->queue, i - 1);
      guint index = i - 1;

      if (run->state != WS_RUN_DONE || !same_study (run, latest) || g_hash_table_contains (seen, run->predictor))
        continue;
      g_hash_table_add (seen, run->predictor);
      g_array_prepend_val (picked, index);
    }
  for (guint k = 0; k < picked->len; k++)
    {
      const WsRun *run = ws_run_queue_get_run (self->queue, g_array_index (picked, guint, k));
      guint series;

      series = ws_chart_add_series (chart, run->predictor, run->variable == NULL ? WS_CHART_SERIES_NO_LINE : 0);
      for (guint p = 0; p < run->results->len; p++)
        {
          const WsSystemResult *r = g_ptr_array_index (run->results, p);
          double x = run->variable != NULL ? g_array_index (run->values, double, p) : run->id;

          if (r->ok)
            ws_chart_series_add_point (chart, series, x, r->total_seconds);
        }
    }
  if (self->measured != NULL && self->measured->len > 0)
    ws_measure_times_add_series (chart, self->measured_name, self->measured);
  return chart;
}

/* CPI stacks (seed 001 Fig. 33): one bar per predictor and profiled
 * launch, one segment per CPI category the predictor reports. */
static WsChart *
build_cpi (WsResultsPage *self, const WsRun *latest)
{
  WsChart *chart = ws_chart_new (WS_CHART_STACKED);
  g_autofree char *title = g_strdup_printf (_ ("CPI stacks of %s on %s"), latest->app, latest->system);
  g_autoptr (GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);

  ws_chart_set_title (chart, title);
  ws_chart_set_axis_title (chart, WS_CHART_AXIS_X, _ ("predictor: launch"));
  ws_chart_set_axis_title (chart, WS_CHART_AXIS_Y, _ ("CPI"));
  for (guint i = ws_run_queue_get_n_runs (self->queue); i > 0; i--)
    {
      const WsRun *run = ws_run_queue_get_run (self->queue, i - 1);

      if (run->state != WS_RUN_DONE || !same_study (run, latest) || run->cpi == NULL
          || g_hash_table_contains (seen, run->predictor))
        continue;
      g_hash_table_add (seen, run->predictor);
      for (guint p = 0; p < run->cpi->len; p++)
        {
          const WsPrediction *pred = g_ptr_array_index (run->cpi, p);
          const char *config = run->cpi_labels != NULL && p < run->cpi_labels->len
                                 ? g_ptr_array_index (run->cpi_labels, p)
                                 : "";
          g_autofree char *label = config[0] != '\0'
                                     ? g_strdup_printf ("%s %s #%u", run->predictor, config, pred->index)
                                     : g_strdup_printf ("%s: %s #%u", run->predictor, pred->kernel, pred->index);
          guint bar = ws_chart_add_bar (chart, label);

          for (guint c = 0; c < pred->cpi_names->len; c++)
            {
              const char *name = g_array_index (pred->cpi_names, char *, c);
              int series = ws_chart_find_series (chart, name);

              if (series < 0)
                {
                  const char *hint = run->cpi_colours != NULL ? g_hash_table_lookup (run->cpi_colours, name) : NULL;
                  WsChartColor colour;

                  series = ws_chart_add_series (chart, name, 0);
                  /* the colour the plugin declares for the category (API 4) */
                  if (hint != NULL && ws_chart_color_parse (hint, &colour))
                    ws_chart_series_set_color (chart, (guint) series, colour);
                }
              ws_chart_set_bar_value (chart, bar, series, g_array_index (pred->cpi_values, double, c));
            }
        }
    }
  return chart;
}

static WsChart *
build_timeline (const WsRun *run)
{
  WsChart *chart = ws_chart_new (WS_CHART_GANTT);
  const WsSystemResult *r = run->results->len > 0 ? g_ptr_array_index (run->results, run->results->len - 1) : NULL;
  g_autoptr (GHashTable) kinds = g_hash_table_new (g_str_hash, g_str_equal);
  g_autofree char *title = NULL;

  if (run->variable != NULL && run->values->len > 0)
    title = g_strdup_printf (_ ("Operations of %s (%s = %g, %s)"), run->app, run->variable,
                             g_array_index (run->values, double, run->values->len - 1), run->predictor);
  else
    title = g_strdup_printf (_ ("Operations of %s (%s)"), run->app, run->predictor);
  ws_chart_set_title (chart, title);
  ws_chart_set_axis_title (chart, WS_CHART_AXIS_X, _ ("time"));
  ws_chart_set_axis_unit (chart, WS_CHART_AXIS_X, WS_CHART_UNIT_SECONDS);
  for (guint i = 0; r != NULL && r->operations != NULL && i < r->operations->len; i++)
    {
      const WsSystemOpRecord *op = g_ptr_array_index (r->operations, i);
      int series = ws_chart_find_series (chart, op->op);
      g_autofree char *label = g_strdup_printf ("%s%s%s (%s #%u)", op->op, op->name != NULL ? " " : "",
                                                op->name != NULL ? op->name : "", op->label, op->rank);

      if (series < 0)
        series = ws_chart_add_series (chart, op->op, 0);
      ws_chart_add_span (chart, op->component, series, op->start, op->end, label);
    }
  return chart;
}

/* The newest run of the study with TBPoint views (simulator-tbpoint). */
static const WsRun *
latest_tbpoint (WsResultsPage *self, const WsRun *latest)
{
  for (guint i = ws_run_queue_get_n_runs (self->queue); i > 0; i--)
    {
      const WsRun *run = ws_run_queue_get_run (self->queue, i - 1);

      if (run->state == WS_RUN_DONE && same_study (run, latest) && run->tbpoint != NULL && run->tbpoint->len > 0)
        return run;
    }
  return NULL;
}

static void
show_tbpoint_launch (WsResultsPage *self, guint index)
{
  const WsTbpointView *view;
  g_autofree char *name = NULL;

  if (self->tbpoint_run == NULL || index >= self->tbpoint_run->tbpoint->len)
    {
      ws_chart_view_set_chart (self->tbpoint_view, NULL);
      return;
    }
  view = g_ptr_array_index (self->tbpoint_run->tbpoint, index);
  ws_chart_view_set_chart (self->tbpoint_view, ws_tbpoint_view_to_chart (view));
  name = g_strdup_printf ("tbpoint-%s-%u", view->kernel, view->launch);
  ws_chart_view_set_export_name (self->tbpoint_view, name);
}

static void
on_tbpoint_launch_selected (WsResultsPage *self, GParamSpec *pspec, GtkDropDown *drop_down)
{
  guint index = gtk_drop_down_get_selected (drop_down);

  if (index != GTK_INVALID_LIST_POSITION)
    show_tbpoint_launch (self, index);
}

static void
refresh_tbpoint (WsResultsPage *self, const WsRun *latest)
{
  g_autoptr (GtkStringList) launches = gtk_string_list_new (NULL);
  const WsRun *run = latest != NULL ? latest_tbpoint (self, latest) : NULL;

  self->tbpoint_run = run;
  for (guint i = 0; run != NULL && i < run->tbpoint->len; i++)
    {
      const WsTbpointView *view = g_ptr_array_index (run->tbpoint, i);
      const char *config = run->tbpoint_labels != NULL && i < run->tbpoint_labels->len
                             ? g_ptr_array_index (run->tbpoint_labels, i)
                             : "";
      g_autofree char *label = g_strdup_printf (_ ("%s%s%s, launch %u (%" PRIu64 " TBs)"), config,
                                                config[0] != '\0' ? " " : "", view->kernel, view->launch, view->n_tbs);

      gtk_string_list_append (launches, label);
    }
  g_signal_handlers_block_by_func (self->tbpoint_launch, on_tbpoint_launch_selected, self);
  gtk_drop_down_set_model (self->tbpoint_launch, G_LIST_MODEL (launches));
  gtk_drop_down_set_selected (self->tbpoint_launch, 0);
  g_signal_handlers_unblock_by_func (self->tbpoint_launch, on_tbpoint_launch_selected, self);
  gtk_widget_set_visible (GTK_WIDGET (self->tbpoint_launch), run != NULL && run->tbpoint->len > 1);
  gtk_widget_set_visible (GTK_WIDGET (self->tbpoint_message), run == NULL);
  show_tbpoint_launch (self, 0);
}

void
ws_results_page_refresh (WsResultsPage *self)
{
  const WsRun *latest;
  g_autofree char *name = NULL;

  g_return_if_fail (WS_IS_RESULTS_PAGE (self));
  latest = latest_done (self);
  if (latest == NULL)
    {
      ws_chart_view_set_chart (self->sweep_view, NULL);
      ws_chart_view_set_chart (self->timeline_view, NULL);
      ws_chart_view_set_chart (self->cpi_view, NULL);
      refresh_tbpoint (self, NULL);
      gtk_label_set_text (self->message, _ ("No finished runs yet: queue one on the Simulations page."));
      return;
    }
  gtk_label_set_text (self->message, "");
  ws_chart_view_set_chart (self->sweep_view, build_sweep (self, latest));
  ws_chart_view_set_chart (self->timeline_view, build_timeline (latest));
  ws_chart_view_set_chart (self->cpi_view, build_cpi (self, latest));
  ws_chart_view_set_export_name (self->cpi_view, "cpi-stacks");
  refresh_tbpoint (self, latest);
  name = g_strdup_printf ("%s-%s%s%s", latest->app, latest->system, latest->variable != NULL ? "-" : "",
                          latest->variable != NULL ? latest->variable : "");
  ws_chart_view_set_export_name (self->sweep_view, name);
  ws_chart_view_set_export_name (self->timeline_view, "timeline");
}

gboolean
ws_results_page_import_measured (WsResultsPage *self, const char *path, GError **error)
{
  const WsRun *latest;
  g_autoptr (GArray) times = NULL;

  g_return_val_if_fail (WS_IS_RESULTS_PAGE (self), FALSE);
  /* Columns by name (core/measure, as `warpscope-cli plot --measured`):
   * seconds, and x or the swept variable's name. */
  latest = latest_done (self);
  times = ws_measure_times_load (path, latest != NULL ? latest->variable : NULL, error);
  if (times == NULL)
    return FALSE;
  g_clear_pointer (&self->measured, g_array_unref);
  self->measured = g_steal_pointer (&times);
  g_free (self->measured_name);
  {
    /* Named after the file, so the legend says which measurements these are. */
    g_autofree char *base = g_path_get_basename (path);
    char *dot = strrchr (base, '.');

    if (dot != NULL && dot != base)
      *dot = '\0';
    self->measured_name = g_strdup_printf (_ ("measured: %s"), base);
  }
  ws_results_page_refresh (self);
  return TRUE;
}

/* The value of @variable in a set's name: "saxpy2 N=1048576", "saxpy2-N1048576". */
static gboolean
value_in_name (const char *name, const char *variable, double *value)
{
  gsize len = strlen (variable);

  for (const char *p = strstr (name, variable); p != NULL; p = strstr (p + 1, variable))
    {
      const char *q = p + len;
      char *end = NULL;

      if (p > name && (g_ascii_isalnum (p[-1]) || p[-1] == '_'))
        continue;
      while (*q == ' ' || *q == '=' || *q == '_' || *q == '-' || *q == ':')
        q++;
      if (!g_ascii_isdigit (*q) && *q != '.')
        continue;
      *value = g_ascii_strtod (q, &end);
      if (end != q)
        return TRUE;
    }
  return FALSE;
}

gboolean
ws_results_page_use_measurement_sets (WsResultsPage *self, const char *const *names, gboolean kernels_only,
                                      GError **error)
{
  g_autoptr (GArray) times = g_array_new (FALSE, FALSE, sizeof (WsMeasuredTime));
  const WsRun *latest;

  g_return_val_if_fail (WS_IS_RESULTS_PAGE (self), FALSE);
  latest = latest_done (self);
  if (self->store == NULL)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID, _ ("No workspace is open."));
      return FALSE;
    }
  if (latest == NULL || latest->variable == NULL)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID,
                   _ ("Run a sweep first: a measurement set is placed at the swept variable's value in its name."));
      return FALSE;
    }
  if (names == NULL || names[0] == NULL)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID, _ ("Choose at least one measurement set."));
      return FALSE;
    }
  for (guint i = 0; names[i] != NULL; i++)
    {
      g_autoptr (WsMeasurementSet) set = ws_measure_store_get (self->store, names[i], error);
      WsMeasuredTime m = { 0, 0 };

      if (set == NULL)
        return FALSE;
      if (!value_in_name (set->name, latest->variable, &m.x))
        {
          g_set_error (error, WS_ERROR, WS_ERROR_INVALID,
                       _ ("The name of measurement set “%s” gives no value of %s: name sets like “%s %s=1048576”."),
                       set->name, latest->variable, latest->app, latest->variable);
          return FALSE;
        }
      for (guint r = 0; set->rows != NULL && r < set->rows->len; r++)
        {
          const WsMeasurement *row = &g_array_index (set->rows, WsMeasurement, r);

          if (!kernels_only || row->kind == WS_MEASURE_KERNEL)
            m.seconds += row->duration_ns * 1e-9;
        }
      g_array_append_val (times, m);
    }
  g_clear_pointer (&self->measured, g_array_unref);
  self->measured = g_steal_pointer (&times);
  g_free (self->measured_name);
  self->measured_name = g_strdup (kernels_only ? _ ("measured (kernels)") : _ ("measured"));
  ws_results_page_refresh (self);
  return TRUE;
}

static void
on_sets_response (AdwMessageDialog *dialog, const char *response, gpointer user_data)
{
  WsResultsPage *self = user_data;
  GtkWidget *list = adw_message_dialog_get_extra_child (dialog);
  g_autoptr (GStrvBuilder) names = g_strv_builder_new ();
  g_auto (GStrv) chosen = NULL;
  g_autoptr (GError) error = NULL;

  if (!g_str_equal (response, "import") && !g_str_equal (response, "kernels"))
    return;
  for (GtkWidget *row = gtk_widget_get_first_child (list); row != NULL; row = gtk_widget_get_next_sibling (row))
    {
      GtkWidget *check = g_object_get_data (G_OBJECT (row), "ws-check");

      if (check != NULL && gtk_check_button_get_active (GTK_CHECK_BUTTON (check)))
        g_strv_builder_add (names, adw_preferences_row_get_title (ADW_PREFERENCES_ROW (row)));
    }
  chosen = g_strv_builder_end (names);
  if (!ws_results_page_use_measurement_sets (self, (const char *const *) chosen, g_str_equal (response, "kernels"),
                                             &error))
    gtk_label_set_text (self->message, error->message);
}

static void
import_sets_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  WsResultsPage *self = WS_RESULTS_PAGE (widget);
  GtkRoot *root = gtk_widget_get_root (widget);
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) sets = self->store != NULL ? ws_measure_store_list (self->store, &error) : NULL;
  GtkWidget *dialog, *list;

  if (sets == NULL || sets->len == 0)
    {
      gtk_label_set_text (self->message,
                          error != NULL ? error->message
                                        : _ ("No measurement sets are stored: take them with `warpscope-cli measure` "
                                             "and `warpscope-cli measurements import`."));
      return;
    }
  dialog = adw_message_dialog_new (GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL, _ ("Overlay Measurement Sets"),
                                   _ ("Each set is one measured run; its total time (or its kernels' time) is "
                                      "placed at the swept variable's value in the set's name."));
  list = gtk_list_box_new ();
  gtk_list_box_set_selection_mode (GTK_LIST_BOX (list), GTK_SELECTION_NONE);
  gtk_widget_add_css_class (list, "boxed-list");
  for (guint i = 0; i < sets->len; i++)
    {
      const WsMeasurementSet *set = g_ptr_array_index (sets, i);
      GtkWidget *row = adw_action_row_new ();
      GtkWidget *check = gtk_check_button_new ();

      adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), set->name);
      adw_action_row_set_subtitle (ADW_ACTION_ROW (row), set->gpu);
      adw_action_row_add_prefix (ADW_ACTION_ROW (row), check);
      adw_action_row_set_activatable_widget (ADW_ACTION_ROW (row), check);
      g_object_set_data (G_OBJECT (row), "ws-check", check);
      gtk_list_box_append (GTK_LIST_BOX (list), row);
    }
  adw_message_dialog_set_extra_child (ADW_MESSAGE_DIALOG (dialog), list);
  adw_message_dialog_add_responses (ADW_MESSAGE_DIALOG (dialog), "cancel", _ ("_Cancel"), "kernels",
                                    _ ("_Kernels Only"), "import", _ ("_Total Time"), NULL);
  adw_message_dialog_set_default_response (ADW_MESSAGE_DIALOG (dialog), "import");
  adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (dialog), "import", ADW_RESPONSE_SUGGESTED);
  g_signal_connect_object (dialog, "response", G_CALLBACK (on_sets_response), self, 0);
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
on_import_response (GtkNativeDialog *native, int response, gpointer user_data)
{
  g_autoptr (WsResultsPage) self = user_data;

  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr (GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (native));
      g_autofree char *path = file != NULL ? g_file_get_path (file) : NULL;
      g_autoptr (GError) error = NULL;

      if (path != NULL && !ws_results_page_import_measured (self, path, &error))
        gtk_label_set_text (self->message, error->message);
    }
  g_object_unref (native);
}

static void
import_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  GtkRoot *root = gtk_widget_get_root (widget);
  GtkFileChooserNative *native = gtk_file_chooser_native_new (
    _ ("Import Measurements (CSV with columns x,seconds)"), GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
    GTK_FILE_CHOOSER_ACTION_OPEN, _ ("_Import"), _ ("_Cancel"));

  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (native), TRUE);
  g_signal_connect (native, "response", G_CALLBACK (on_import_response), g_object_ref (widget));
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (native));
}

static void
on_run_changed (WsResultsPage *self, guint index, WsRunQueue *queue)
{
  const WsRun *run = ws_run_queue_get_run (queue, index);

  if (run != NULL && run->state == WS_RUN_DONE)
    ws_results_page_refresh (self);
}

void
ws_results_page_set_queue (WsResultsPage *self, WsRunQueue *queue)
{
  g_return_if_fail (WS_IS_RESULTS_PAGE (self));
  if (self->queue != NULL)
    {
      g_clear_signal_handler (&self->changed_id, self->queue);
      g_clear_object (&self->queue);
    }
  self->queue = g_object_ref (queue);
  self->changed_id = g_signal_connect_swapped (queue, "run-changed", G_CALLBACK (on_run_changed), self);
  ws_results_page_refresh (self);
}

WsChartView *
ws_results_page_get_sweep_view (WsResultsPage *self)
{
  return self->sweep_view;
}

WsChartView *
ws_results_page_get_cpi_view (WsResultsPage *self)
{
  return self->cpi_view;
}

WsChartView *
ws_results_page_get_timeline_view (WsResultsPage *self)
{
  return self->timeline_view;
}

WsChartView *
ws_results_page_get_tbpoint_view (WsResultsPage *self)
{
  return self->tbpoint_view;
}

guint
ws_results_page_get_n_tbpoint_launches (WsResultsPage *self)
{
  return self->tbpoint_run != NULL ? self->tbpoint_run->tbpoint->len : 0;
}

void
ws_results_page_select_tbpoint_launch (WsResultsPage *self, guint index)
{
  gtk_drop_down_set_selected (self->tbpoint_launch, index);
  show_tbpoint_launch (self, index);
}

void
ws_results_page_set_store (WsResultsPage *self, WsStore *store)
{
  g_return_if_fail (WS_IS_RESULTS_PAGE (self));
  self->store = store;
}

void
ws_results_page_show (WsResultsPage *self, const char *name)
{
  gtk_stack_set_visible_child_name (self->stack, name);
}

static void
ws_results_page_dispose (GObject *object)
{
  WsResultsPage *self = WS_RESULTS_PAGE (object);

  if (self->queue != NULL)
    {
      g_clear_signal_handler (&self->changed_id, self->queue);
      g_clear_object (&self->queue);
    }
  g_clear_pointer (&self->box, gtk_widget_unparent);
  G_OBJECT_CLASS (ws_results_page_parent_class)->dispose (object);
}

static void
ws_results_page_finalize (GObject *object)
{
  WsResultsPage *self = WS_RESULTS_PAGE (object);

  g_clear_pointer (&self->measured, g_array_unref);
  g_free (self->measured_name);
  G_OBJECT_CLASS (ws_results_page_parent_class)->finalize (object);
}

static void
ws_results_page_class_init (WsResultsPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = ws_results_page_dispose;
  object_class->finalize = ws_results_page_finalize;
  gtk_widget_class_install_action (widget_class, "results.import-measured", NULL, import_action);
  gtk_widget_class_install_action (widget_class, "results.import-sets", NULL, import_sets_action);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
}

static void
ws_results_page_init (WsResultsPage *self)
{
  GtkWidget *bar = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *switcher = gtk_stack_switcher_new ();
  GtkWidget *import = gtk_menu_button_new ();
  GtkWidget *tbpoint_box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  g_autoptr (GMenu) menu = g_menu_new ();

  self->box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  gtk_widget_set_margin_top (self->box, 6);
  gtk_widget_set_margin_bottom (self->box, 6);
  gtk_widget_set_margin_start (self->box, 6);
  gtk_widget_set_margin_end (self->box, 6);
  self->stack = GTK_STACK (gtk_stack_new ());
  self->sweep_view = WS_CHART_VIEW (ws_chart_view_new ());
  self->timeline_view = WS_CHART_VIEW (ws_chart_view_new ());
  self->cpi_view = WS_CHART_VIEW (ws_chart_view_new ());
  gtk_widget_set_vexpand (GTK_WIDGET (self->stack), TRUE);
  gtk_stack_add_titled (self->stack, GTK_WIDGET (self->sweep_view), "sweep", _ ("Sweep"));
  gtk_stack_add_titled (self->stack, GTK_WIDGET (self->cpi_view), "cpi", _ ("CPI Stacks"));
  gtk_stack_add_titled (self->stack, GTK_WIDGET (self->timeline_view), "timeline", _ ("Timeline"));
  self->tbpoint_view = WS_CHART_VIEW (ws_chart_view_new ());
  self->tbpoint_launch = GTK_DROP_DOWN (gtk_drop_down_new (NULL, NULL));
  gtk_widget_set_halign (GTK_WIDGET (self->tbpoint_launch), GTK_ALIGN_START);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->tbpoint_launch), _ ("Profiled launch to show"));
  g_signal_connect_swapped (self->tbpoint_launch, "notify::selected", G_CALLBACK (on_tbpoint_launch_selected), self);
  self->tbpoint_message = GTK_LABEL (gtk_label_new (
    _ ("Run the application with “simulator-tbpoint” to see which thread blocks TBPoint simulated and skipped, its "
       "homogeneous regions, and its error against the full simulation.")));
  gtk_label_set_wrap (self->tbpoint_message, TRUE);
  gtk_widget_add_css_class (GTK_WIDGET (self->tbpoint_message), "dim-label");
  gtk_widget_set_vexpand (GTK_WIDGET (self->tbpoint_view), TRUE);
  gtk_box_append (GTK_BOX (tbpoint_box), GTK_WIDGET (self->tbpoint_launch));
  gtk_box_append (GTK_BOX (tbpoint_box), GTK_WIDGET (self->tbpoint_message));
  gtk_box_append (GTK_BOX (tbpoint_box), GTK_WIDGET (self->tbpoint_view));
  gtk_stack_add_titled (self->stack, tbpoint_box, "tbpoint", _ ("TBPoint"));
  gtk_stack_switcher_set_stack (GTK_STACK_SWITCHER (switcher), self->stack);
  g_menu_append (menu, _ ("From a _CSV File (x,seconds)…"), "results.import-measured");
  g_menu_append (menu, _ ("From Stored _Measurement Sets…"), "results.import-sets");
  gtk_menu_button_set_menu_model (GTK_MENU_BUTTON (import), G_MENU_MODEL (menu));
  gtk_menu_button_set_label (GTK_MENU_BUTTON (import), _ ("_Measured Data"));
  gtk_menu_button_set_use_underline (GTK_MENU_BUTTON (import), TRUE);
  gtk_widget_set_tooltip_text (import, _ ("Overlay measured times from a CSV file or from measurement sets taken "
                                          "with warpscope-cli measure"));
  self->message = GTK_LABEL (gtk_label_new (_ ("No finished runs yet: queue one on the Simulations page.")));
  gtk_label_set_wrap (self->message, TRUE);
  gtk_label_set_xalign (self->message, 0);
  gtk_widget_set_hexpand (GTK_WIDGET (self->message), TRUE);
  gtk_widget_add_css_class (GTK_WIDGET (self->message), "dim-label");
  gtk_box_append (GTK_BOX (bar), switcher);
  gtk_box_append (GTK_BOX (bar), GTK_WIDGET (self->message));
  gtk_box_append (GTK_BOX (bar), import);
  gtk_box_append (GTK_BOX (self->box), bar);
  gtk_box_append (GTK_BOX (self->box), GTK_WIDGET (self->stack));
  gtk_widget_set_parent (self->box, GTK_WIDGET (self));
}

GtkWidget *
ws_results_page_new (void)
{
  return g_object_new (WS_TYPE_RESULTS_PAGE, NULL);
}
