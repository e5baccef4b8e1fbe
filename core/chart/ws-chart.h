/* ws-chart.h: headless charts drawn with Cairo (line, scatter, stacked bars,
 * heat map, Gantt timeline, TBPoint view).
 *
 * One WsChart holds the data (series of points, bars, a matrix or spans), the
 * axes (titles, units, log/linear) and the view window.  ws_chart_draw()
 * paints it on any cairo_t, so the GUI (in snapshot) and warpscope-cli plot
 * (through ws_chart_export) show the same picture.  Geometry queries
 * (hit test, legend hit test, zoom/pan) take the same width/height the chart
 * is drawn at, so the layout is recomputed identically.
 *
 * Series double as legend entries for every kind: predictors (line), point
 * sets (scatter), CPI categories (stacked), operation kinds (Gantt) and
 * homogeneous regions (TBPoint).  A hidden series keeps its legend entry
 * (greyed) but is not drawn and is ignored by the hit test and autoscale. */
#pragma once

#include <glib.h>
#include <cairo.h>
#include "base/ws-base.h"

G_BEGIN_DECLS

typedef enum {
  WS_CHART_LINE,    /* y against a swept x, one series per predictor (seed 004 Fig. 6.1-6.5) */
  WS_CHART_SCATTER, /* markers only */
  WS_CHART_STACKED, /* stacked bars per configuration (CPI stacks, seed 001 Fig. 33) */
  WS_CHART_HEATMAP, /* a rows x columns matrix with a colour scale (seed 003 Fig. 8) */
  WS_CHART_GANTT,   /* spans per component against time */
  WS_CHART_TBPOINT, /* TB size by TB id, coloured by region, simulated/skipped (seed 000 Fig. 8) */
} WsChartKind;

typedef enum { WS_CHART_AXIS_X, WS_CHART_AXIS_Y } WsChartAxis;

/* How tick labels are written: plain numbers with engineering suffixes
 * (k, M, G), seconds (ns, µs, ms, s) or bytes (B, kB, MB, GB, decimal). */
typedef enum { WS_CHART_UNIT_NONE, WS_CHART_UNIT_SECONDS, WS_CHART_UNIT_BYTES } WsChartUnit;

typedef enum { WS_CHART_FORMAT_PNG, WS_CHART_FORMAT_SVG, WS_CHART_FORMAT_PDF, WS_CHART_FORMAT_CSV } WsChartFormat;

/* Series flags. */
typedef enum {
  WS_CHART_SERIES_MEASURED = 1 << 0, /* drawn black with hollow markers and no line: the measured overlay */
  WS_CHART_SERIES_NO_LINE = 1 << 1,  /* markers only in a line chart */
} WsChartSeriesFlags;

/* Point flags. */
typedef enum {
  WS_CHART_POINT_SKIPPED = 1 << 0, /* TBPoint: the TB was skipped (not simulated) */
} WsChartPointFlags;

typedef struct {
  double r, g, b;
} WsChartColor;

typedef struct _WsChart WsChart;

/* What ws_chart_hit_test() found. */
typedef struct {
  int series;       /* series (category, operation kind, region); -1 for a heat-map cell */
  int index;        /* point index in the series; bar index (stacked); span index (Gantt) */
  int row, column;  /* heat map cell; Gantt row; else -1 */
  double x, y;      /* data coordinates of the point (stacked: bar index and segment value; Gantt: start and end) */
  double value;     /* heat map cell value, else y */
  double rel_error; /* relative error annotation, NaN if none */
  double distance;  /* pixels from the query position */
} WsChartHit;

WS_EXPORT WsChart *ws_chart_new (WsChartKind kind);
WS_EXPORT void ws_chart_free (WsChart *chart);
WS_EXPORT WsChartKind ws_chart_get_kind (const WsChart *chart);
/* "line", "scatter", "stacked", "heatmap", "gantt", "tbpoint". */
WS_EXPORT const char *ws_chart_kind_name (WsChartKind kind);
WS_EXPORT gboolean ws_chart_kind_from_name (const char *name, WsChartKind *kind);

/* Labels given by callers are drawn as given (callers translate them). */
WS_EXPORT void ws_chart_set_title (WsChart *chart, const char *title);
WS_EXPORT const char *ws_chart_get_title (const WsChart *chart);
/* A second line under the title (e.g. "error 1.2 %, sample 8 %"). */
WS_EXPORT void ws_chart_set_subtitle (WsChart *chart, const char *subtitle);
WS_EXPORT void ws_chart_set_axis_title (WsChart *chart, WsChartAxis axis, const char *title);
WS_EXPORT void ws_chart_set_axis_unit (WsChart *chart, WsChartAxis axis, WsChartUnit unit);
/* Logarithmic axis (base 10); values <= 0 are left out of a log axis. */
WS_EXPORT void ws_chart_set_axis_log (WsChart *chart, WsChartAxis axis, gboolean log);
WS_EXPORT gboolean ws_chart_get_axis_log (const WsChart *chart, WsChartAxis axis);

/* ---- series (every kind but the heat map) --------------------------------- */

/* Adds a series and returns its index.  Its colour comes from the palette
 * (ws_chart_palette_color) unless the name is a known CPI category
 * (BASE, DEP, L1, L2, DRAM, MSHR, QUEUE), which have fixed colours. */
WS_EXPORT guint ws_chart_add_series (WsChart *chart, const char *name, WsChartSeriesFlags flags);
WS_EXPORT int ws_chart_find_series (const WsChart *chart, const char *name);
WS_EXPORT guint ws_chart_get_n_series (const WsChart *chart);
WS_EXPORT const char *ws_chart_series_get_name (const WsChart *chart, guint series);
WS_EXPORT WsChartSeriesFlags ws_chart_series_get_flags (const WsChart *chart, guint series);
WS_EXPORT void ws_chart_series_set_color (WsChart *chart, guint series, WsChartColor color);
WS_EXPORT WsChartColor ws_chart_series_get_color (const WsChart *chart, guint series);
/* Legend toggle: a hidden series is not drawn. */
WS_EXPORT void ws_chart_series_set_visible (WsChart *chart, guint series, gboolean visible);
WS_EXPORT gboolean ws_chart_series_get_visible (const WsChart *chart, guint series);

/* Line, scatter, TBPoint: appends a point; returns its index. */
WS_EXPORT guint ws_chart_series_add_point (WsChart *chart, guint series, double x, double y);
WS_EXPORT guint ws_chart_series_add_point_full (WsChart *chart, guint series, double x, double y,
                                                WsChartPointFlags flags);
WS_EXPORT guint ws_chart_series_get_n_points (const WsChart *chart, guint series);
WS_EXPORT gboolean ws_chart_series_get_point (const WsChart *chart, guint series, guint index, double *x, double *y);
/* Relative-error annotation of one point ((predicted - measured) / measured),
 * drawn next to the point as a percentage. */
WS_EXPORT void ws_chart_series_set_rel_error (WsChart *chart, guint series, guint index, double rel_error);
WS_EXPORT double ws_chart_series_get_rel_error (const WsChart *chart, guint series, guint index);
/* Annotates every point of every other series whose x equals (within 1e-9
 * relative) an x of @measured with its relative error against @measured;
 * returns the number of points annotated. */
WS_EXPORT guint ws_chart_annotate_rel_errors (WsChart *chart, guint measured);

/* ---- stacked bars ---------------------------------------------------------- */

/* Adds a bar (one configuration); returns its index. */
WS_EXPORT guint ws_chart_add_bar (WsChart *chart, const char *label);
WS_EXPORT guint ws_chart_get_n_bars (const WsChart *chart);
/* The segment of @series (a category) in @bar. */
WS_EXPORT void ws_chart_set_bar_value (WsChart *chart, guint bar, guint series, double value);
WS_EXPORT double ws_chart_get_bar_value (const WsChart *chart, guint bar, guint series);

/* ---- heat map -------------------------------------------------------------- */

/* Copies a row-major @rows x @columns matrix.  Row 0 is drawn at the top. */
WS_EXPORT void ws_chart_set_matrix (WsChart *chart, guint rows, guint columns, const double *values);
/* Title of the colour scale (e.g. "accesses"). */
WS_EXPORT void ws_chart_set_value_title (WsChart *chart, const char *title);

/* ---- Gantt ----------------------------------------------------------------- */

/* Adds a span on row @row (created on first use, in order of appearance)
 * coloured by @series; @label is shown in tooltips and inside wide spans.
 * Returns the span index. */
WS_EXPORT guint ws_chart_add_span (WsChart *chart, const char *row, guint series, double start, double end,
                                   const char *label);
WS_EXPORT guint ws_chart_get_n_spans (const WsChart *chart);
WS_EXPORT guint ws_chart_get_n_rows (const WsChart *chart);

/* ---- drawing and geometry -------------------------------------------------- */

/* Paints the whole chart into the rectangle (0,0)-(width,height) of @cr. */
WS_EXPORT void ws_chart_draw (WsChart *chart, cairo_t *cr, double width, double height);

/* Nearest item to pixel (@px, @py) within @max_distance pixels (points: the
 * marker centre; bars, cells and spans: the pixel must be inside).  Fills
 * @hit and returns TRUE when something is found. */
WS_EXPORT gboolean ws_chart_hit_test (WsChart *chart, double width, double height, double px, double py,
                                      double max_distance, WsChartHit *hit);
/* Tooltip text for a hit (newly allocated, translated). */
WS_EXPORT char *ws_chart_describe_hit (const WsChart *chart, const WsChartHit *hit);
/* The series whose legend entry contains (@px, @py), or -1: the GUI toggles it. */
WS_EXPORT int ws_chart_legend_hit_test (WsChart *chart, double width, double height, double px, double py);
/* The plot area (inside the axes) in pixels. */
WS_EXPORT void ws_chart_get_plot_area (WsChart *chart, double width, double height, double *x, double *y, double *w,
                                       double *h);
/* Data <-> pixel mapping for the current view (FALSE for the heat map). */
WS_EXPORT gboolean ws_chart_data_to_pixel (WsChart *chart, double width, double height, double x, double y, double *px,
                                           double *py);
WS_EXPORT gboolean ws_chart_pixel_to_data (WsChart *chart, double width, double height, double px, double py, double *x,
                                           double *y);

/* View window (zoom/pan).  NaN bounds mean "fit the data".  For stacked bars
 * x is the bar index, for the heat map the view is fixed. */
WS_EXPORT void ws_chart_set_view (WsChart *chart, double x_min, double x_max, double y_min, double y_max);
WS_EXPORT void ws_chart_get_view (WsChart *chart, double *x_min, double *x_max, double *y_min, double *y_max);
WS_EXPORT void ws_chart_reset_view (WsChart *chart);
/* Zooms by @factor (> 1 zooms in) around pixel (@px, @py), keeping that data point fixed. */
WS_EXPORT void ws_chart_zoom (WsChart *chart, double width, double height, double px, double py, double factor);
/* Moves the view by (@dx, @dy) pixels (dragging right shows smaller x). */
WS_EXPORT void ws_chart_pan (WsChart *chart, double width, double height, double dx, double dy);

/* ---- export ---------------------------------------------------------------- */

/* From the file name's extension (.png, .svg, .pdf, .csv). */
WS_EXPORT gboolean ws_chart_format_from_path (const char *path, WsChartFormat *format);
/* Writes the chart (PNG/SVG/PDF at @width x @height; pixels for PNG, points
 * for SVG/PDF) or its data (CSV). */
WS_EXPORT gboolean ws_chart_export (WsChart *chart, const char *path, WsChartFormat format, int width, int height,
                                    GError **error);
/* The underlying data as CSV text (newly allocated).  Columns per kind are in docs/charts.md. */
WS_EXPORT char *ws_chart_to_csv (const WsChart *chart);

/* ---- helpers (public for tests and the GUI) -------------------------------- */

/* Ticks covering [@min, @max]: 1-2-5 steps for a linear axis (about
 * @max_ticks of them), decades (or 1-2-5 within a decade when the range is
 * short) for a log axis.  Returns an array of double. */
WS_EXPORT GArray *ws_chart_nice_ticks (double min, double max, guint max_ticks, gboolean log);
/* A tick label: "250 ms", "1.5 MB", "20k", "0.2".  @step is the tick step
 * (decides the precision; 0 for "as short as possible"). */
WS_EXPORT char *ws_chart_format_value (double value, WsChartUnit unit, double step);
/* The colour-blind-safe palette (Okabe & Ito), cycling. */
WS_EXPORT WsChartColor ws_chart_palette_color (guint index);
/* Fixed CPI-category colour; FALSE for an unknown category. */
WS_EXPORT gboolean ws_chart_cpi_color (const char *category, WsChartColor *color);
/* Colour scale of the heat map (viridis-like, 0 <= t <= 1). */
WS_EXPORT WsChartColor ws_chart_scale_color (double t);
/* "#rrggbb" -> colour. */
WS_EXPORT gboolean ws_chart_color_parse (const char *text, WsChartColor *color);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsChart, ws_chart_free)

G_END_DECLS
