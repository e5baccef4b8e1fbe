/* ws-chart-view.h: a widget that shows one WsChart (core/chart).
 *
 * The chart module draws; this widget only forwards what the user does:
 * hovering asks the chart's hit test for a tooltip, a click on a legend entry
 * toggles that series, scrolling zooms around the pointer, dragging pans,
 * a double click fits the data again, and the menu in the corner exports the
 * picture (PNG, SVG, PDF) or its data (CSV) through ws_chart_export(), so the
 * files are the same as `warpscope-cli plot` writes. */
#pragma once

#include <gtk/gtk.h>
#include "chart/ws-chart.h"

G_BEGIN_DECLS

#define WS_TYPE_CHART_VIEW (ws_chart_view_get_type ())
G_DECLARE_FINAL_TYPE (WsChartView, ws_chart_view, WS, CHART_VIEW, GtkWidget)

/* Signals:
 *   series-toggled (guint series, gboolean visible)   after a legend click
 */

GtkWidget *ws_chart_view_new (void);
/* Takes @chart (may be NULL: the view shows nothing). */
void ws_chart_view_set_chart (WsChartView *self, WsChart *chart);
WsChart *ws_chart_view_get_chart (WsChartView *self);
/* Default file name (without extension) offered by the export dialog. */
void ws_chart_view_set_export_name (WsChartView *self, const char *name);

/* What the gestures do, callable directly (keyboard-free tests use them).
 * Coordinates are widget pixels. */
char *ws_chart_view_tooltip_at (WsChartView *self, double x, double y);
/* Toggles the series whose legend entry is under (@x, @y); returns it or -1. */
int ws_chart_view_toggle_legend_at (WsChartView *self, double x, double y);
void ws_chart_view_zoom_at (WsChartView *self, double x, double y, double factor);
void ws_chart_view_pan (WsChartView *self, double dx, double dy);
void ws_chart_view_reset_view (WsChartView *self);
/* Writes the chart to @path; the format comes from the extension.  Pictures
 * are written at the widget's size (or 900 x 560 before it is shown). */
gboolean ws_chart_view_export (WsChartView *self, const char *path, GError **error);

G_END_DECLS
