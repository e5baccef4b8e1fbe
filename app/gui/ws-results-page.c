/* ws-results-page.c: sweep plots with measured overlays, and timelines. */
#define G_LOG_DOMAIN "ws-results-page"

#include <glib/gi18n.h>
#include <adwaita.h>
#include <math.h>
#include <string.h>

#include "ws-results-page.h"
#include "predict/ws-predict.h"

struct _WsResultsPage
{
  GtkWidget parent_instance;

  WsRunQueue *queue;
  gulong changed_id;
  GArray *measured;              /* of double pairs (value, seconds) */
  char *measured_name;

  GtkWidget *box;
  GtkStack *stack;
  WsChartView *sweep_view;
  WsChartView *timeline_view;
  WsChartView *cpi_view;
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
  g_autofree char *title = g_strdup_printf (_("%s on %s"), latest->app, latest->system);
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);

  ws_chart_set_title (chart, title);
  ws_chart_set_axis_title (chart, WS_CHART_AXIS_X, latest->variable != NULL ? latest->variable : _("run"));
  ws_chart_set_axis_title (chart, WS_CHART_AXIS_Y, _("total time"));
  ws_chart_set_axis_unit (chart, WS_CHART_AXIS_Y, WS_CHART_UNIT_SECONDS);

  /* Newest run per predictor (a re-run replaces the older one in the
   * plot), drawn in the order the runs were queued. */
  g_autoptr(GArray) picked = g_array_new (FALSE, FALSE, sizeof (guint));
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
    {
      guint m = ws_chart_add_series (chart, self->measured_name != NULL ? self->measured_name : _("measured"),
                                     WS_CHART_SERIES_MEASURED);

      for (guint i = 0; i + 1 < self->measured->len; i += 2)
        ws_chart_series_add_point (chart, m, g_array_index (self->measured, double, i),
                                   g_array_index (self->measured, double, i + 1));
      ws_chart_annotate_rel_errors (chart, m);
    }
  return chart;
}

/* CPI stacks (seed 001 Fig. 33): one bar per predictor and profiled
 * launch, one segment per CPI category the predictor reports. */
static WsChart *
build_cpi (WsResultsPage *self, const WsRun *latest)
{
  WsChart *chart = ws_chart_new (WS_CHART_STACKED);
  g_autofree char *title = g_strdup_printf (_("CPI stacks of %s on %s"), latest->app, latest->system);
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);

  ws_chart_set_title (chart, title);
  ws_chart_set_axis_title (chart, WS_CHART_AXIS_X, _("predictor: launch"));
  ws_chart_set_axis_title (chart, WS_CHART_AXIS_Y, _("CPI"));
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
          g_autofree char *label = g_strdup_printf ("%s: %s #%u", run->predictor, pred->kernel, pred->index);
          guint bar = ws_chart_add_bar (chart, label);

          for (guint c = 0; c < pred->cpi_names->len; c++)
            {
              const char *name = g_array_index (pred->cpi_names, char *, c);
              int series = ws_chart_find_series (chart, name);

              if (series < 0)
                series = ws_chart_add_series (chart, name, 0);
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
  g_autoptr(GHashTable) kinds = g_hash_table_new (g_str_hash, g_str_equal);
  g_autofree char *title = NULL;

  if (run->variable != NULL && run->values->len > 0)
    title = g_strdup_printf (_("Operations of %s (%s = %g, %s)"), run->app, run->variable,
                             g_array_index (run->values, double, run->values->len - 1), run->predictor);
  else
    title = g_strdup_printf (_("Operations of %s (%s)"), run->app, run->predictor);
  ws_chart_set_title (chart, title);
  ws_chart_set_axis_title (chart, WS_CHART_AXIS_X, _("time"));
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
      gtk_label_set_text (self->message, _("No finished runs yet: queue one on the Simulations page."));
      return;
    }
  gtk_label_set_text (self->message, "");
  ws_chart_view_set_chart (self->sweep_view, build_sweep (self, latest));
  ws_chart_view_set_chart (self->timeline_view, build_timeline (latest));
  ws_chart_view_set_chart (self->cpi_view, build_cpi (self, latest));
  ws_chart_view_set_export_name (self->cpi_view, "cpi-stacks");
  name = g_strdup_printf ("%s-%s%s%s", latest->app, latest->system, latest->variable != NULL ? "-" : "",
                          latest->variable != NULL ? latest->variable : "");
  ws_chart_view_set_export_name (self->sweep_view, name);
  ws_chart_view_set_export_name (self->timeline_view, "timeline");
}

gboolean
ws_results_page_import_measured (WsResultsPage *self, const char *path, GError **error)
{
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;
  g_autoptr(GArray) pairs = g_array_new (FALSE, FALSE, sizeof (double));

  g_return_val_if_fail (WS_IS_RESULTS_PAGE (self), FALSE);
  if (!g_file_get_contents (path, &text, NULL, error))
    return FALSE;
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_auto(GStrv) fields = NULL;
      char *end0 = NULL, *end1 = NULL;
      double v, s;

      g_strstrip (lines[i]);
      if (lines[i][0] == '\0' || lines[i][0] == '#')
        continue;
      fields = g_strsplit (lines[i], ",", -1);
      v = g_ascii_strtod (g_strstrip (fields[0]), &end0);
      if (end0 == fields[0] && pairs->len == 0)
        continue; /* the header */
      if (g_strv_length (fields) < 2 || end0 == fields[0] || *end0 != '\0'
          || (s = g_ascii_strtod (g_strstrip (fields[1]), &end1), end1 == fields[1] || *end1 != '\0') || !(s >= 0))
        {
          g_set_error (error, WS_ERROR, WS_ERROR_PARSE,
                       _("%s:%u: expected VALUE,SECONDS (two numbers), found “%s”."), path, i + 1, lines[i]);
          return FALSE;
        }
      g_array_append_val (pairs, v);
      g_array_append_val (pairs, s);
    }
  if (pairs->len == 0)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID, _("%s has no measurements (lines VALUE,SECONDS)."), path);
      return FALSE;
    }
  g_clear_pointer (&self->measured, g_array_unref);
  self->measured = g_steal_pointer (&pairs);
  g_free (self->measured_name);
  self->measured_name = g_strdup (_("measured"));
  ws_results_page_refresh (self);
  return TRUE;
}

static void
on_import_response (GtkNativeDialog *native, int response, gpointer user_data)
{
  g_autoptr(WsResultsPage) self = user_data;

  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (native));
      g_autofree char *path = file != NULL ? g_file_get_path (file) : NULL;
      g_autoptr(GError) error = NULL;

      if (path != NULL && !ws_results_page_import_measured (self, path, &error))
        gtk_label_set_text (self->message, error->message);
    }
  g_object_unref (native);
}

static void
import_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  GtkRoot *root = gtk_widget_get_root (widget);
  GtkFileChooserNative *native =
    gtk_file_chooser_native_new (_("Import Measurements (VALUE,SECONDS CSV)"),
                                 GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL, GTK_FILE_CHOOSER_ACTION_OPEN,
                                 _("_Import"), _("_Cancel"));

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
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
}

static void
ws_results_page_init (WsResultsPage *self)
{
  GtkWidget *bar = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *switcher = gtk_stack_switcher_new ();
  GtkWidget *import = gtk_button_new_with_mnemonic (_("_Import Measurements…"));

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
  gtk_stack_add_titled (self->stack, GTK_WIDGET (self->sweep_view), "sweep", _("Sweep"));
  gtk_stack_add_titled (self->stack, GTK_WIDGET (self->cpi_view), "cpi", _("CPI Stacks"));
  gtk_stack_add_titled (self->stack, GTK_WIDGET (self->timeline_view), "timeline", _("Timeline"));
  gtk_stack_switcher_set_stack (GTK_STACK_SWITCHER (switcher), self->stack);
  gtk_actionable_set_action_name (GTK_ACTIONABLE (import), "results.import-measured");
  gtk_widget_set_tooltip_text (import, _("Overlay measured times from a CSV file of VALUE,SECONDS lines"));
  self->message = GTK_LABEL (gtk_label_new (_("No finished runs yet: queue one on the Simulations page.")));
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
