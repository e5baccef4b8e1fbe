/* ws-chart-view.c: shows a WsChart and turns gestures into chart view
 * changes; the chart module does all drawing and geometry. */
#define G_LOG_DOMAIN "ws-chart-view"

#include <glib/gi18n.h>
#include <adwaita.h>
#include <math.h>

#include "ws-chart-view.h"

#define EXPORT_DEFAULT_WIDTH 900
#define EXPORT_DEFAULT_HEIGHT 560
#define HIT_DISTANCE 12.0
/* One scroll step zooms by this factor; matches the systems canvas feel. */
#define ZOOM_STEP 1.25

struct _WsChartView {
  GtkWidget parent_instance;

  WsChart *chart;
  char *export_name;
  GtkWidget *menu_button;
  double pointer_x, pointer_y;
  double drag_last_x, drag_last_y;
};

G_DEFINE_FINAL_TYPE (WsChartView, ws_chart_view, GTK_TYPE_WIDGET)

enum { SERIES_TOGGLED, N_SIGNALS };
static guint signals[N_SIGNALS];

static void
widget_size (WsChartView *self, double *width, double *height)
{
  *width = MAX (gtk_widget_get_width (GTK_WIDGET (self)), 1);
  *height = MAX (gtk_widget_get_height (GTK_WIDGET (self)), 1);
}

static void
ws_chart_view_snapshot (GtkWidget *widget, GtkSnapshot *snapshot)
{
  WsChartView *self = WS_CHART_VIEW (widget);
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);

  if (self->chart != NULL && width > 0 && height > 0)
    {
      cairo_t *cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));

      ws_chart_draw (self->chart, cr, width, height);
      cairo_destroy (cr);
    }
  gtk_widget_snapshot_child (widget, self->menu_button, snapshot);
}

static void
ws_chart_view_measure (GtkWidget *widget, GtkOrientation orientation, int for_size, int *minimum, int *natural,
                       int *minimum_baseline, int *natural_baseline)
{
  WsChartView *self = WS_CHART_VIEW (widget);
  int child_min = 0, child_nat = 0;

  gtk_widget_measure (self->menu_button, orientation, -1, &child_min, &child_nat, NULL, NULL);
  /* Room for axes, legend and a few ticks; the chart scales to any size above. */
  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      *minimum = MAX (child_min, 320);
      *natural = MAX (child_nat, 640);
    }
  else
    {
      *minimum = MAX (child_min, 220);
      *natural = MAX (child_nat, 400);
    }
}

static void
ws_chart_view_size_allocate (GtkWidget *widget, int width, int height, int baseline)
{
  WsChartView *self = WS_CHART_VIEW (widget);
  GtkRequisition nat;

  /* The export menu sits in the top-right corner, above the legend area. */
  gtk_widget_get_preferred_size (self->menu_button, NULL, &nat);
  gtk_widget_size_allocate (self->menu_button,
                            &(GtkAllocation){ MAX (0, width - nat.width - 4), 4, nat.width, nat.height }, -1);
}

void
ws_chart_view_set_chart (WsChartView *self, WsChart *chart)
{
  g_return_if_fail (WS_IS_CHART_VIEW (self));

  if (self->chart != chart)
    g_clear_pointer (&self->chart, ws_chart_free);
  self->chart = chart;
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "chart.export", chart != NULL);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "chart.reset-view", chart != NULL);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

WsChart *
ws_chart_view_get_chart (WsChartView *self)
{
  g_return_val_if_fail (WS_IS_CHART_VIEW (self), NULL);
  return self->chart;
}

void
ws_chart_view_set_export_name (WsChartView *self, const char *name)
{
  g_return_if_fail (WS_IS_CHART_VIEW (self));
  g_free (self->export_name);
  self->export_name = g_strdup (name);
}

char *
ws_chart_view_tooltip_at (WsChartView *self, double x, double y)
{
  WsChartHit hit;
  double width, height;

  g_return_val_if_fail (WS_IS_CHART_VIEW (self), NULL);
  if (self->chart == NULL)
    return NULL;
  widget_size (self, &width, &height);
  if (!ws_chart_hit_test (self->chart, width, height, x, y, HIT_DISTANCE, &hit))
    return NULL;
  return ws_chart_describe_hit (self->chart, &hit);
}

int
ws_chart_view_toggle_legend_at (WsChartView *self, double x, double y)
{
  double width, height;
  int series;
  gboolean visible;

  g_return_val_if_fail (WS_IS_CHART_VIEW (self), -1);
  if (self->chart == NULL)
    return -1;
  widget_size (self, &width, &height);
  series = ws_chart_legend_hit_test (self->chart, width, height, x, y);
  if (series < 0)
    return -1;
  visible = !ws_chart_series_get_visible (self->chart, series);
  ws_chart_series_set_visible (self->chart, series, visible);
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_signal_emit (self, signals[SERIES_TOGGLED], 0, (guint) series, visible);
  return series;
}

void
ws_chart_view_zoom_at (WsChartView *self, double x, double y, double factor)
{
  double width, height;

  g_return_if_fail (WS_IS_CHART_VIEW (self));
  if (self->chart == NULL || !(factor > 0))
    return;
  widget_size (self, &width, &height);
  ws_chart_zoom (self->chart, width, height, x, y, factor);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
ws_chart_view_pan (WsChartView *self, double dx, double dy)
{
  double width, height;

  g_return_if_fail (WS_IS_CHART_VIEW (self));
  if (self->chart == NULL)
    return;
  widget_size (self, &width, &height);
  ws_chart_pan (self->chart, width, height, dx, dy);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
ws_chart_view_reset_view (WsChartView *self)
{
  g_return_if_fail (WS_IS_CHART_VIEW (self));
  if (self->chart == NULL)
    return;
  ws_chart_reset_view (self->chart);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

gboolean
ws_chart_view_export (WsChartView *self, const char *path, GError **error)
{
  WsChartFormat format;
  int width = gtk_widget_get_width (GTK_WIDGET (self));
  int height = gtk_widget_get_height (GTK_WIDGET (self));

  g_return_val_if_fail (WS_IS_CHART_VIEW (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  if (self->chart == NULL)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID, _ ("There is no chart to export to “%s”."), path);
      return FALSE;
    }
  if (!ws_chart_format_from_path (path, &format))
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID,
                   _ ("Cannot tell the format of “%s”: name the file .png, .svg, .pdf or .csv."), path);
      return FALSE;
    }
  if (width < 50 || height < 50)
    {
      width = EXPORT_DEFAULT_WIDTH;
      height = EXPORT_DEFAULT_HEIGHT;
    }
  return ws_chart_export (self->chart, path, format, width, height, error);
}

/* ---- gestures ----------------------------------------------------------- */

static gboolean
on_query_tooltip (WsChartView *self, int x, int y, gboolean keyboard, GtkTooltip *tooltip, GtkWidget *widget)
{
  g_autofree char *text = NULL;

  if (keyboard)
    return FALSE;
  text = ws_chart_view_tooltip_at (self, x, y);
  if (text == NULL)
    return FALSE;
  gtk_tooltip_set_text (tooltip, text);
  return TRUE;
}

static void
on_click_pressed (WsChartView *self, int n_press, double x, double y, GtkGestureClick *gesture)
{
  if (n_press == 2)
    {
      ws_chart_view_reset_view (self);
      return;
    }
  ws_chart_view_toggle_legend_at (self, x, y);
}

static void
on_motion (WsChartView *self, double x, double y, GtkEventControllerMotion *motion)
{
  self->pointer_x = x;
  self->pointer_y = y;
}

static gboolean
on_scroll (WsChartView *self, double dx, double dy, GtkEventControllerScroll *scroll)
{
  if (self->chart == NULL || dy == 0)
    return FALSE;
  /* Scrolling up (negative dy) zooms in around the pointer. */
  ws_chart_view_zoom_at (self, self->pointer_x, self->pointer_y, pow (ZOOM_STEP, -dy));
  return TRUE;
}

static void
on_drag_begin (WsChartView *self, double x, double y, GtkGestureDrag *drag)
{
  self->drag_last_x = 0;
  self->drag_last_y = 0;
}

static void
on_drag_update (WsChartView *self, double offset_x, double offset_y, GtkGestureDrag *drag)
{
  ws_chart_view_pan (self, offset_x - self->drag_last_x, offset_y - self->drag_last_y);
  self->drag_last_x = offset_x;
  self->drag_last_y = offset_y;
}

/* ---- export ------------------------------------------------------------- */

static void
show_error (WsChartView *self, const char *heading, const char *message)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  GtkWidget *dialog = adw_message_dialog_new (GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL, heading, message);

  adw_message_dialog_add_response (ADW_MESSAGE_DIALOG (dialog), "close", _ ("_Close"));
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
on_export_response (GtkNativeDialog *native, int response, gpointer user_data)
{
  g_autoptr (WsChartView) self = user_data;

  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr (GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (native));
      g_autofree char *path = file != NULL ? g_file_get_path (file) : NULL;
      g_autoptr (GError) error = NULL;

      if (path == NULL)
        show_error (self, _ ("Could Not Export the Chart"), _ ("Choose a local file to export to."));
      else if (!ws_chart_view_export (self, path, &error))
        show_error (self, _ ("Could Not Export the Chart"), error->message);
    }
  g_object_unref (native);
}

static void
export_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  WsChartView *self = WS_CHART_VIEW (widget);
  const char *ext = g_variant_get_string (parameter, NULL);
  GtkRoot *root = gtk_widget_get_root (widget);
  GtkFileChooserNative *native;
  g_autofree char *name = g_strdup_printf ("%s.%s", self->export_name != NULL ? self->export_name : "chart", ext);
  g_autoptr (GtkFileFilter) filter = gtk_file_filter_new ();
  g_autofree char *pattern = g_strdup_printf ("*.%s", ext);
  g_autofree char *upper = g_ascii_strup (ext, -1);

  native = gtk_file_chooser_native_new (_ ("Export Chart"), GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                        GTK_FILE_CHOOSER_ACTION_SAVE, _ ("_Export"), _ ("_Cancel"));
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (native), name);
  gtk_file_filter_set_name (filter, upper);
  gtk_file_filter_add_pattern (filter, pattern);
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (native), filter);
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (native), TRUE);
  g_signal_connect (native, "response", G_CALLBACK (on_export_response), g_object_ref (self));
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (native));
}

static void
reset_view_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  ws_chart_view_reset_view (WS_CHART_VIEW (widget));
}

static GMenuModel *
build_menu (void)
{
  GMenu *menu = g_menu_new ();
  GMenu *export = g_menu_new ();

  g_menu_append (menu, _ ("_Fit Data"), "chart.reset-view");
  g_menu_append (export, _ ("Export as _PNG…"), "chart.export::png");
  g_menu_append (export, _ ("Export as _SVG…"), "chart.export::svg");
  g_menu_append (export, _ ("Export as P_DF…"), "chart.export::pdf");
  g_menu_append (export, _ ("Export Data as _CSV…"), "chart.export::csv");
  g_menu_append_section (menu, NULL, G_MENU_MODEL (export));
  g_object_unref (export);
  return G_MENU_MODEL (menu);
}

/* ---- object ------------------------------------------------------------- */

static void
ws_chart_view_dispose (GObject *object)
{
  WsChartView *self = WS_CHART_VIEW (object);

  g_clear_pointer (&self->menu_button, gtk_widget_unparent);
  G_OBJECT_CLASS (ws_chart_view_parent_class)->dispose (object);
}

static void
ws_chart_view_finalize (GObject *object)
{
  WsChartView *self = WS_CHART_VIEW (object);

  g_clear_pointer (&self->chart, ws_chart_free);
  g_free (self->export_name);
  G_OBJECT_CLASS (ws_chart_view_parent_class)->finalize (object);
}

static void
ws_chart_view_class_init (WsChartViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = ws_chart_view_dispose;
  object_class->finalize = ws_chart_view_finalize;
  widget_class->snapshot = ws_chart_view_snapshot;
  widget_class->measure = ws_chart_view_measure;
  widget_class->size_allocate = ws_chart_view_size_allocate;

  signals[SERIES_TOGGLED] = g_signal_new ("series-toggled", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                                          NULL, G_TYPE_NONE, 2, G_TYPE_UINT, G_TYPE_BOOLEAN);

  gtk_widget_class_install_action (widget_class, "chart.export", "s", export_action);
  gtk_widget_class_install_action (widget_class, "chart.reset-view", NULL, reset_view_action);
  gtk_widget_class_set_css_name (widget_class, "chartview");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
ws_chart_view_init (WsChartView *self)
{
  GtkWidget *widget = GTK_WIDGET (self);
  GtkGesture *click = gtk_gesture_click_new ();
  GtkGesture *drag = gtk_gesture_drag_new ();
  GtkEventController *motion = gtk_event_controller_motion_new ();
  GtkEventController *scroll = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_VERTICAL);
  g_autoptr (GMenuModel) menu = build_menu ();

  self->menu_button = gtk_menu_button_new ();
  gtk_menu_button_set_icon_name (GTK_MENU_BUTTON (self->menu_button), "view-more-symbolic");
  gtk_menu_button_set_menu_model (GTK_MENU_BUTTON (self->menu_button), menu);
  gtk_widget_set_tooltip_text (self->menu_button, _ ("Export and View"));
  gtk_widget_add_css_class (self->menu_button, "flat");
  gtk_widget_set_parent (self->menu_button, widget);

  gtk_widget_set_has_tooltip (widget, TRUE);
  g_signal_connect_swapped (widget, "query-tooltip", G_CALLBACK (on_query_tooltip), self);

  g_signal_connect_swapped (click, "pressed", G_CALLBACK (on_click_pressed), self);
  gtk_widget_add_controller (widget, GTK_EVENT_CONTROLLER (click));

  g_signal_connect_swapped (drag, "drag-begin", G_CALLBACK (on_drag_begin), self);
  g_signal_connect_swapped (drag, "drag-update", G_CALLBACK (on_drag_update), self);
  gtk_widget_add_controller (widget, GTK_EVENT_CONTROLLER (drag));

  g_signal_connect_swapped (motion, "motion", G_CALLBACK (on_motion), self);
  gtk_widget_add_controller (widget, motion);

  g_signal_connect_swapped (scroll, "scroll", G_CALLBACK (on_scroll), self);
  gtk_widget_add_controller (widget, scroll);

  gtk_widget_action_set_enabled (widget, "chart.export", FALSE);
  gtk_widget_action_set_enabled (widget, "chart.reset-view", FALSE);
}

GtkWidget *
ws_chart_view_new (void)
{
  return g_object_new (WS_TYPE_CHART_VIEW, NULL);
}
