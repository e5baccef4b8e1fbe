/* ws-chart-private.h: the chart's data and layout, shared by the model
 * (ws-chart.c) and the renderer (ws-chart-draw.c). */
#pragma once

#include "chart/ws-chart.h"

typedef struct {
  double x, y, rel_error;
  guint flags;
} WsChartPoint;

typedef struct {
  char *name;
  WsChartSeriesFlags flags;
  WsChartColor color;
  gboolean visible;
  guint marker;       /* marker shape, so series differ by more than colour */
  GArray *points;     /* WsChartPoint */
  GArray *bar_values; /* double per bar (stacked) */
} WsChartSeries;

typedef struct {
  guint row, series;
  double start, end;
  char *label;
} WsChartSpan;

struct _WsChart {
  WsChartKind kind;
  char *title, *subtitle, *value_title;
  char *axis_title[2];
  WsChartUnit unit[2];
  gboolean log[2];
  GPtrArray *series; /* WsChartSeries */
  GPtrArray *bars;   /* char *, stacked */
  GPtrArray *rows;   /* char *, Gantt */
  GArray *spans;     /* WsChartSpan */
  guint m_rows, m_cols;
  double *matrix;
  double view[4]; /* x_min, x_max, y_min, y_max; NaN = fit the data */
  guint n_auto_colors;
};

/* Geometry of one drawing at a given size. */
typedef struct {
  double w, h;
  double px, py, pw, ph;      /* plot area */
  double x0, x1, y0, y1;      /* visible data range */
  gboolean xlog, ylog, ydown; /* ydown: y grows downwards (rows) */
  GArray *xticks, *yticks;
  double xstep, ystep;
  gboolean rotate_xlabels;
  double legend_x, legend_y, legend_w, legend_row_h;
  guint legend_n;          /* entries, series ones first (in legend order) */
  double scale_x, scale_w; /* heat-map colour bar */
  double vmin, vmax;       /* heat-map value range */
  double title_y, subtitle_y;
} WsChartLayout;

#define WS_CHART_FONT "Sans"
#define WS_CHART_TITLE_SIZE 16.0
#define WS_CHART_LABEL_SIZE 12.0
#define WS_CHART_TICK_SIZE 11.0
#define WS_CHART_SMALL_SIZE 9.5

void ws_chart_layout_compute (WsChart *chart, cairo_t *cr, double width, double height, WsChartLayout *l);
void ws_chart_layout_clear (WsChartLayout *l);
double ws_chart_layout_x (const WsChartLayout *l, double x);
double ws_chart_layout_y (const WsChartLayout *l, double y);
/* Series index of legend entry @entry, or -1 for the TBPoint style entries. */
int ws_chart_legend_entry_series (const WsChart *chart, guint entry);
/* Total of a stacked bar over the visible series. */
double ws_chart_bar_total (const WsChart *chart, guint bar);
/* A tick label whose SI prefix is chosen from @reference (the largest tick
 * of the axis), so one axis uses one prefix. */
char *ws_chart_format_tick (double value, WsChartUnit unit, double step, double reference);
