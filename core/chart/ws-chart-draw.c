/* ws-chart-draw.c: layout, rendering, hit testing and zoom/pan of a WsChart.
 *
 * Everything geometric goes through ws_chart_layout_compute(), so drawing,
 * hit tests and zooming agree on where things are for a given size.  Text is
 * measured with hinted metrics off, which makes the layout identical on
 * image, SVG and PDF surfaces. */
#include <math.h>
#include <string.h>
#include <glib/gi18n-lib.h>

#include "chart/ws-chart-private.h"

#define MARGIN 14.0
#define LEGEND_SWATCH 24.0
#define LEGEND_ROW 18.0
/* The fitted view rounds to ticks of this density whatever the size, so the
 * data window (what zoom and pan change) does not depend on the size. */
#define BOUNDS_TICKS 7

/* ---- text helpers ------------------------------------------------------------ */

static void
set_font (cairo_t *cr, double size, gboolean bold)
{
  cairo_select_font_face (cr, WS_CHART_FONT, CAIRO_FONT_SLANT_NORMAL,
                          bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
  cairo_set_font_size (cr, size);
}

static double
text_width (cairo_t *cr, const char *text)
{
  cairo_text_extents_t e;
  cairo_text_extents (cr, text, &e);
  return e.x_advance;
}

/* The current font size (cairo keeps it in the font matrix). */
static double
font_size_of (cairo_t *cr)
{
  cairo_matrix_t m;
  cairo_get_font_matrix (cr, &m);
  return m.yy;
}

/* Draws @text with its anchor at (x, y): ax 0 left, 0.5 centre, 1 right;
 * ay 0 top, 0.5 middle, 1 baseline-ish bottom. */
static void
draw_text (cairo_t *cr, const char *text, double x, double y, double ax, double ay)
{
  double w = text_width (cr, text);
  /* the cap height is about 0.72 em: anchors align digits and capitals */
  double h = font_size_of (cr) * 0.72;
  cairo_move_to (cr, x - ax * w, y + (1 - ay) * h);
  cairo_show_text (cr, text);
}


static void
set_color (cairo_t *cr, WsChartColor c, double alpha)
{
  cairo_set_source_rgba (cr, c.r, c.g, c.b, alpha);
}

/* ---- layout ------------------------------------------------------------------ */

static WsChartSeries *
series_at (const WsChart *chart, guint i)
{
  return chart->series->pdata[i];
}

static double
fwd (double v, gboolean log)
{
  return log ? log10 (v) : v;
}

static double
inv (double v, gboolean log)
{
  return log ? pow (10, v) : v;
}

double
ws_chart_layout_x (const WsChartLayout *l, double x)
{
  double a = fwd (l->x0, l->xlog), b = fwd (l->x1, l->xlog);
  return l->px + (fwd (x, l->xlog) - a) / (b - a) * l->pw;
}

double
ws_chart_layout_y (const WsChartLayout *l, double y)
{
  double a = fwd (l->y0, l->ylog), b = fwd (l->y1, l->ylog);
  double t = (fwd (y, l->ylog) - a) / (b - a);
  return l->ydown ? l->py + t * l->ph : l->py + l->ph - t * l->ph;
}

static void
data_range (const WsChart *chart, gboolean xlog, gboolean ylog, double *x0, double *x1, double *y0, double *y1)
{
  *x0 = *y0 = INFINITY;
  *x1 = *y1 = -INFINITY;
  for (guint s = 0; s < chart->series->len; s++)
    {
      WsChartSeries *ser = series_at (chart, s);
      if (!ser->visible)
        continue;
      for (guint i = 0; i < ser->points->len; i++)
        {
          WsChartPoint *p = &g_array_index (ser->points, WsChartPoint, i);
          if (!isfinite (p->x) || !isfinite (p->y) || (xlog && p->x <= 0) || (ylog && p->y <= 0))
            continue;
          *x0 = fmin (*x0, p->x);
          *x1 = fmax (*x1, p->x);
          *y0 = fmin (*y0, p->y);
          *y1 = fmax (*y1, p->y);
        }
    }
}

/* Widens [lo, hi] to tick boundaries (decades on a log axis). */
static void
nice_bounds (double *lo, double *hi, gboolean log, guint max_ticks)
{
  if (!isfinite (*lo) || !isfinite (*hi))
    {
      *lo = log ? 1 : 0;
      *hi = log ? 10 : 1;
      return;
    }
  if (log)
    {
      double a = floor (log10 (*lo) + 1e-9), b = ceil (log10 (*hi) - 1e-9);
      if (b <= a)
        b = a + 1;
      *lo = pow (10, a);
      *hi = pow (10, b);
      return;
    }
  if (*hi <= *lo)
    {
      double pad = *lo != 0 ? fabs (*lo) * 0.1 : 1;
      *lo -= pad;
      *hi += pad;
    }
  GArray *t = ws_chart_nice_ticks (*lo, *hi, max_ticks, FALSE);
  double step = t->len >= 2 ? g_array_index (t, double, 1) - g_array_index (t, double, 0) : 1;
  g_array_unref (t);
  *lo = floor (*lo / step + 1e-9) * step;
  *hi = ceil (*hi / step - 1e-9) * step;
}

static void
pad_range (double *lo, double *hi, gboolean log, gboolean both)
{
  if (!isfinite (*lo) || !isfinite (*hi) || *hi <= *lo)
    return;
  if (log)
    {
      double f = pow (*hi / *lo, 0.04);
      *hi *= f;
      if (both)
        *lo /= f;
      return;
    }
  double pad = (*hi - *lo) * 0.04;
  gboolean non_negative = *lo >= 0;
  *hi += pad;
  if (both)
    *lo -= pad;
  if (non_negative && *lo < 0)
    *lo = 0; /* no negative sizes or times just for a margin */
}

static double
tick_step (GArray *ticks, gboolean log)
{
  if (log || ticks->len < 2)
    return 0;
  return g_array_index (ticks, double, 1) - g_array_index (ticks, double, 0);
}

static GArray *
integer_ticks (double lo, double hi, guint max_ticks)
{
  /* Index axes (heat map) step by whole numbers only. */
  GArray *t = ws_chart_nice_ticks (ceil (lo), floor (hi), max_ticks, FALSE);
  GArray *out = g_array_new (FALSE, FALSE, sizeof (double));
  for (guint i = 0; i < t->len; i++)
    {
      double v = g_array_index (t, double, i);
      if (v == floor (v))
        g_array_append_val (out, v);
    }
  g_array_unref (t);
  return out;
}

static double
ticks_reference (GArray *ticks, double step)
{
  double m = fabs (step);
  for (guint i = 0; i < ticks->len; i++)
    m = fmax (m, fabs (g_array_index (ticks, double, i)));
  return m;
}

static guint
legend_entries (const WsChart *chart)
{
  if (chart->kind == WS_CHART_HEATMAP || chart->series->len == 0)
    return 0;
  return chart->series->len + (chart->kind == WS_CHART_TBPOINT ? 2 : 0);
}

int
ws_chart_legend_entry_series (const WsChart *chart, guint entry)
{
  guint n = chart->series->len;
  if (entry >= n)
    return -1;
  /* Stacked bars list categories top-down as they are stacked. */
  return (int) (chart->kind == WS_CHART_STACKED ? n - 1 - entry : entry);
}

static const char *
legend_label (const WsChart *chart, guint entry)
{
  int s = ws_chart_legend_entry_series (chart, entry);
  if (s >= 0)
    return series_at (chart, s)->name;
  return entry == chart->series->len ? _ ("simulated") : _ ("skipped");
}

void
ws_chart_layout_clear (WsChartLayout *l)
{
  g_clear_pointer (&l->xticks, g_array_unref);
  g_clear_pointer (&l->yticks, g_array_unref);
}

void
ws_chart_layout_compute (WsChart *chart, cairo_t *cr, double width, double height, WsChartLayout *l)
{
  memset (l, 0, sizeof *l);
  l->w = width;
  l->h = height;
  l->xlog = chart->log[0] && (chart->kind == WS_CHART_LINE || chart->kind == WS_CHART_SCATTER);
  l->ylog = chart->log[1] && chart->kind != WS_CHART_HEATMAP && chart->kind != WS_CHART_GANTT;
  l->ydown = chart->kind == WS_CHART_HEATMAP || chart->kind == WS_CHART_GANTT;
  guint max_xt = (guint) CLAMP (width / 110, 3, 12), max_yt = (guint) CLAMP (height / 55, 3, 12);

  /* Data range, then the view window over it. */
  double x0, x1, y0, y1;
  switch (chart->kind)
    {
    case WS_CHART_STACKED:
      x0 = -0.5;
      x1 = MAX (chart->bars->len, 1) - 0.5;
      y0 = l->ylog ? INFINITY : 0;
      y1 = -INFINITY;
      for (guint b = 0; b < chart->bars->len; b++)
        {
          double t = ws_chart_bar_total (chart, b);
          y1 = fmax (y1, t);
          if (l->ylog)
            for (guint s = 0; s < chart->series->len; s++)
              if (series_at (chart, s)->visible && ws_chart_get_bar_value (chart, b, s) > 0)
                y0 = fmin (y0, ws_chart_get_bar_value (chart, b, s));
        }
      if (!(y1 > 0))
        y1 = 1;
      nice_bounds (&y0, &y1, l->ylog, BOUNDS_TICKS);
      break;
    case WS_CHART_HEATMAP:
      x0 = -0.5;
      x1 = MAX (chart->m_cols, 1) - 0.5;
      y0 = -0.5;
      y1 = MAX (chart->m_rows, 1) - 0.5;
      break;
    case WS_CHART_GANTT:
      x0 = INFINITY;
      x1 = -INFINITY;
      for (guint i = 0; i < chart->spans->len; i++)
        {
          WsChartSpan *sp = &g_array_index (chart->spans, WsChartSpan, i);
          if (!series_at (chart, sp->series)->visible)
            continue;
          x0 = fmin (x0, sp->start);
          x1 = fmax (x1, sp->end);
        }
      if (isfinite (x0) && x0 > 0 && x0 < (x1 - x0) * 0.5)
        x0 = 0;
      nice_bounds (&x0, &x1, FALSE, BOUNDS_TICKS);
      y0 = -0.5;
      y1 = MAX (chart->rows->len, 1) - 0.5;
      break;
    default:
      data_range (chart, l->xlog, l->ylog, &x0, &x1, &y0, &y1);
      if (chart->kind == WS_CHART_TBPOINT)
        {
          /* bars are one TB wide and start at zero */
          x0 -= 0.5;
          x1 += 0.5;
          if (!l->ylog && isfinite (y0))
            y0 = fmin (0, y0);
        }
      else
        {
          /* a margin keeps markers and error labels on the edge inside the plot */
          pad_range (&x0, &x1, l->xlog, TRUE);
          if (!l->ylog && isfinite (y0) && y0 >= 0 && chart->kind == WS_CHART_LINE)
            {
              pad_range (&y0, &y1, FALSE, FALSE);
              y0 = 0; /* times against a sweep read best from zero */
            }
          else
            pad_range (&y0, &y1, l->ylog, TRUE);
        }
      if (chart->kind != WS_CHART_TBPOINT)
        nice_bounds (&x0, &x1, l->xlog, BOUNDS_TICKS);
      else if (!isfinite (x0))
        x0 = -0.5, x1 = 0.5;
      nice_bounds (&y0, &y1, l->ylog, BOUNDS_TICKS);
      break;
    }
  if (isfinite (chart->view[0]) && isfinite (chart->view[1]) && chart->view[1] > chart->view[0])
    x0 = chart->view[0], x1 = chart->view[1];
  if (isfinite (chart->view[2]) && isfinite (chart->view[3]) && chart->view[3] > chart->view[2])
    y0 = chart->view[2], y1 = chart->view[3];
  if (l->xlog && !(x0 > 0))
    x0 = x1 > 0 ? x1 / 1000 : 1;
  if (l->ylog && !(y0 > 0))
    y0 = y1 > 0 ? y1 / 1000 : 1;
  l->x0 = x0;
  l->x1 = x1;
  l->y0 = y0;
  l->y1 = y1;

  /* Ticks (categorical axes have none: their labels are the bars/rows). */
  if (chart->kind == WS_CHART_HEATMAP)
    {
      l->xticks = integer_ticks (x0, x1, max_xt);
      l->yticks = integer_ticks (y0, y1, max_yt);
    }
  else
    {
      l->xticks = chart->kind == WS_CHART_STACKED ? g_array_new (FALSE, FALSE, sizeof (double))
                                                  : ws_chart_nice_ticks (x0, x1, max_xt, l->xlog);
      l->yticks = chart->kind == WS_CHART_GANTT ? g_array_new (FALSE, FALSE, sizeof (double))
                                                : ws_chart_nice_ticks (y0, y1, max_yt, l->ylog);
    }
  l->xstep = tick_step (l->xticks, l->xlog);
  l->ystep = tick_step (l->yticks, l->ylog);

  cairo_save (cr);
  cairo_font_options_t *fo = cairo_font_options_create ();
  cairo_font_options_set_hint_metrics (fo, CAIRO_HINT_METRICS_OFF);
  cairo_set_font_options (cr, fo);
  cairo_font_options_destroy (fo);

  /* Left: y tick labels (or row names) and the rotated y title. */
  double ylab_w = 0;
  set_font (cr, WS_CHART_TICK_SIZE, FALSE);
  if (chart->kind == WS_CHART_GANTT)
    for (guint r = 0; r < chart->rows->len; r++)
      ylab_w = fmax (ylab_w, text_width (cr, chart->rows->pdata[r]));
  else
    for (guint i = 0; i < l->yticks->len; i++)
      {
        g_autofree char *t = ws_chart_format_tick (
          g_array_index (l->yticks, double, i), chart->kind == WS_CHART_HEATMAP ? WS_CHART_UNIT_NONE : chart->unit[1],
          l->ystep, l->ylog ? fabs (g_array_index (l->yticks, double, i)) : ticks_reference (l->yticks, l->ystep));
        ylab_w = fmax (ylab_w, text_width (cr, t));
      }
  double left = MARGIN + ylab_w + 8 + (chart->axis_title[1] ? WS_CHART_LABEL_SIZE * 1.3 + 6 : 0);

  /* Top: title and subtitle. */
  double top = MARGIN;
  if (chart->title)
    {
      l->title_y = top;
      top += WS_CHART_TITLE_SIZE * 1.35;
    }
  if (chart->subtitle)
    {
      l->subtitle_y = top;
      top += WS_CHART_TICK_SIZE * 1.4;
    }
  top += chart->title || chart->subtitle ? 10 : 6;

  /* Right: legend or colour bar. */
  double right = MARGIN + 12;
  l->legend_n = legend_entries (chart);
  if (l->legend_n > 0)
    {
      double lw = 0;
      set_font (cr, WS_CHART_TICK_SIZE, FALSE);
      for (guint e = 0; e < l->legend_n; e++)
        lw = fmax (lw, text_width (cr, legend_label (chart, e)));
      l->legend_w = LEGEND_SWATCH + 6 + lw + 8;
      l->legend_row_h = LEGEND_ROW;
      right = MARGIN + l->legend_w + 14;
    }
  else if (chart->kind == WS_CHART_HEATMAP)
    {
      l->vmin = INFINITY;
      l->vmax = -INFINITY;
      for (gsize i = 0; i < (gsize) chart->m_rows * chart->m_cols; i++)
        if (isfinite (chart->matrix[i]))
          {
            l->vmin = fmin (l->vmin, chart->matrix[i]);
            l->vmax = fmax (l->vmax, chart->matrix[i]);
          }
      if (!isfinite (l->vmin))
        l->vmin = 0, l->vmax = 1;
      if (l->vmax <= l->vmin)
        l->vmax = l->vmin + 1;
      GArray *vt = ws_chart_nice_ticks (l->vmin, l->vmax, 6, FALSE);
      double vw = 0, vstep = tick_step (vt, FALSE);
      for (guint i = 0; i < vt->len; i++)
        {
          g_autofree char *t = ws_chart_format_tick (g_array_index (vt, double, i), WS_CHART_UNIT_NONE, vstep,
                                                     ticks_reference (vt, vstep));
          vw = fmax (vw, text_width (cr, t));
        }
      g_array_unref (vt);
      l->scale_w = 16;
      right = MARGIN + 18 + l->scale_w + 6 + vw + (chart->value_title ? WS_CHART_LABEL_SIZE * 1.3 + 6 : 0);
    }

  /* Bottom: x tick labels (rotated when bar labels do not fit) and x title. */
  double xlab_h = WS_CHART_TICK_SIZE * 1.3;
  double bottom = MARGIN + 6 + xlab_h + (chart->axis_title[0] ? WS_CHART_LABEL_SIZE * 1.3 + 8 : 0);
  l->pw = width - left - right;
  if (chart->kind == WS_CHART_STACKED && chart->bars->len > 0)
    {
      double bw = 0;
      for (guint b = 0; b < chart->bars->len; b++)
        bw = fmax (bw, text_width (cr, chart->bars->pdata[b]));
      double slot = l->pw / (x1 - x0);
      if (bw > slot - 6)
        {
          l->rotate_xlabels = TRUE;
          bottom += bw * 0.72;
        }
    }
  cairo_restore (cr);

  l->px = left;
  l->py = top;
  l->pw = fmax (width - left - right, 10);
  l->ph = fmax (height - top - bottom, 10);
  l->legend_x = l->px + l->pw + 14;
  l->legend_y = l->py;
  l->scale_x = l->px + l->pw + 18;
}

static void
layout_for (WsChart *chart, double width, double height, WsChartLayout *l)
{
  cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 1, 1);
  cairo_t *cr = cairo_create (s);
  ws_chart_layout_compute (chart, cr, width, height, l);
  cairo_destroy (cr);
  cairo_surface_destroy (s);
}

/* ---- drawing ------------------------------------------------------------------ */

static void
marker_path (cairo_t *cr, guint shape, double x, double y, double r)
{
  switch (shape % 5)
    {
    case 0:
      cairo_new_sub_path (cr);
      cairo_arc (cr, x, y, r, 0, 2 * G_PI);
      break;
    case 1: cairo_rectangle (cr, x - r * 0.9, y - r * 0.9, r * 1.8, r * 1.8); break;
    case 2:
      cairo_move_to (cr, x, y - r * 1.15);
      cairo_line_to (cr, x + r * 1.1, y + r * 0.8);
      cairo_line_to (cr, x - r * 1.1, y + r * 0.8);
      cairo_close_path (cr);
      break;
    case 3:
      cairo_move_to (cr, x, y - r * 1.25);
      cairo_line_to (cr, x + r * 1.1, y);
      cairo_line_to (cr, x, y + r * 1.25);
      cairo_line_to (cr, x - r * 1.1, y);
      cairo_close_path (cr);
      break;
    default:
      cairo_move_to (cr, x, y + r * 1.15);
      cairo_line_to (cr, x + r * 1.1, y - r * 0.8);
      cairo_line_to (cr, x - r * 1.1, y - r * 0.8);
      cairo_close_path (cr);
      break;
    }
}

static void
draw_marker (cairo_t *cr, const WsChartSeries *s, double x, double y, double r)
{
  marker_path (cr, (s->flags & WS_CHART_SERIES_MEASURED) ? 0 : s->marker, x, y,
               (s->flags & WS_CHART_SERIES_MEASURED) ? r + 1.5 : r);
  if (s->flags & WS_CHART_SERIES_MEASURED)
    {
      /* measured: hollow black ring over the predictions */
      cairo_set_source_rgb (cr, 1, 1, 1);
      cairo_fill_preserve (cr);
      set_color (cr, s->color, 1);
      cairo_set_line_width (cr, 1.8);
      cairo_stroke (cr);
      return;
    }
  set_color (cr, s->color, 1);
  cairo_fill_preserve (cr);
  cairo_set_source_rgb (cr, 1, 1, 1);
  cairo_set_line_width (cr, 0.8);
  cairo_stroke (cr);
}

static int
cmp_point_x (gconstpointer a, gconstpointer b)
{
  double x = ((const WsChartPoint *) a)->x, y = ((const WsChartPoint *) b)->x;
  return (x > y) - (x < y);
}

static gboolean
point_ok (const WsChartLayout *l, const WsChartPoint *p)
{
  return isfinite (p->x) && isfinite (p->y) && !(l->xlog && p->x <= 0) && !(l->ylog && p->y <= 0);
}

static void
draw_points (WsChart *chart, cairo_t *cr, const WsChartLayout *l)
{
  gboolean lines = chart->kind == WS_CHART_LINE;
  g_autoptr (GArray) boxes = g_array_new (FALSE, FALSE, sizeof (double)); /* placed labels: x0,y0,x1,y1 */
  /* markers count as occupied, so labels do not cover measured points */
  for (guint s = 0; s < chart->series->len; s++)
    {
      WsChartSeries *ser = series_at (chart, s);
      for (guint i = 0; ser->visible && i < ser->points->len; i++)
        {
          WsChartPoint *p = &g_array_index (ser->points, WsChartPoint, i);
          if (!point_ok (l, p))
            continue;
          double x = ws_chart_layout_x (l, p->x), y = ws_chart_layout_y (l, p->y);
          double box[4] = { x - 5, y - 5, x + 5, y + 5 };
          g_array_append_vals (boxes, box, 4);
        }
      /* and so do the lines, sampled every few pixels */
      if (!lines || !ser->visible || (ser->flags & (WS_CHART_SERIES_MEASURED | WS_CHART_SERIES_NO_LINE)))
        continue;
      g_autoptr (GArray) sorted = g_array_sized_new (FALSE, FALSE, sizeof (WsChartPoint), ser->points->len);
      g_array_append_vals (sorted, ser->points->data, ser->points->len);
      g_array_sort (sorted, cmp_point_x);
      for (guint i = 0; i + 1 < sorted->len; i++)
        {
          WsChartPoint *a = &g_array_index (sorted, WsChartPoint, i), *b = a + 1;
          if (!point_ok (l, a) || !point_ok (l, b))
            continue;
          double ax = ws_chart_layout_x (l, a->x), ay = ws_chart_layout_y (l, a->y);
          double bx = ws_chart_layout_x (l, b->x), by = ws_chart_layout_y (l, b->y);
          guint n = (guint) fmin (ceil (hypot (bx - ax, by - ay) / 4), 2000);
          for (guint k = 1; k < n; k++)
            {
              double t = (double) k / n, x = ax + (bx - ax) * t, y = ay + (by - ay) * t;
              double box[4] = { x - 2, y - 2, x + 2, y + 2 };
              g_array_append_vals (boxes, box, 4);
            }
        }
    }
  for (guint s = 0; s < chart->series->len; s++)
    {
      WsChartSeries *ser = series_at (chart, s);
      if (!ser->visible || ser->points->len == 0)
        continue;
      g_autoptr (GArray) pts = g_array_sized_new (FALSE, FALSE, sizeof (WsChartPoint), ser->points->len);
      g_array_append_vals (pts, ser->points->data, ser->points->len);
      if (lines)
        g_array_sort (pts, cmp_point_x);
      if (lines && !(ser->flags & (WS_CHART_SERIES_MEASURED | WS_CHART_SERIES_NO_LINE)))
        {
          gboolean pen = FALSE;
          for (guint i = 0; i < pts->len; i++)
            {
              WsChartPoint *p = &g_array_index (pts, WsChartPoint, i);
              if (!point_ok (l, p))
                {
                  pen = FALSE;
                  continue;
                }
              double x = ws_chart_layout_x (l, p->x), y = ws_chart_layout_y (l, p->y);
              if (pen)
                cairo_line_to (cr, x, y);
              else
                cairo_move_to (cr, x, y);
              pen = TRUE;
            }
          set_color (cr, ser->color, 1);
          cairo_set_line_width (cr, 2.0);
          cairo_set_line_join (cr, CAIRO_LINE_JOIN_ROUND);
          cairo_stroke (cr);
        }
      double r = lines ? (pts->len > 60 ? 0 : 3.6) : 4.0;
      if (r > 0)
        for (guint i = 0; i < pts->len; i++)
          {
            WsChartPoint *p = &g_array_index (pts, WsChartPoint, i);
            if (point_ok (l, p))
              draw_marker (cr, ser, ws_chart_layout_x (l, p->x), ws_chart_layout_y (l, p->y), r);
          }
      /* Relative errors, stacked by series so several predictors stay readable. */
      set_font (cr, WS_CHART_SMALL_SIZE, TRUE);
      for (guint i = 0; i < pts->len; i++)
        {
          WsChartPoint *p = &g_array_index (pts, WsChartPoint, i);
          if (!isfinite (p->rel_error) || !point_ok (l, p))
            continue;
          char buf[32];
          g_snprintf (buf, sizeof buf, "%+.1f%%", p->rel_error * 100);
          double x = ws_chart_layout_x (l, p->x), y = ws_chart_layout_y (l, p->y);
          /* Prefer the side the curve leaves free (below a rising curve,
           * above a falling one), then other spots; a label that fits
           * nowhere is left out (tooltips and CSV still carry it). */
          gboolean rising = TRUE;
          if (i + 1 < pts->len && point_ok (l, &g_array_index (pts, WsChartPoint, i + 1)))
            rising = ws_chart_layout_y (l, g_array_index (pts, WsChartPoint, i + 1).y) <= y;
          else if (i > 0 && point_ok (l, &g_array_index (pts, WsChartPoint, i - 1)))
            rising = ws_chart_layout_y (l, g_array_index (pts, WsChartPoint, i - 1).y) >= y;
          double tw = text_width (cr, buf), th = WS_CHART_SMALL_SIZE;
          static const double dys[] = { 15, -7, 26, -18, 37, -29 };
          double tx = 0, dy = 0;
          gboolean placed = FALSE;
          for (guint k = 0; k < 2 * G_N_ELEMENTS (dys) && !placed; k++)
            {
              dy = dys[k % G_N_ELEMENTS (dys)] * (rising ? 1 : -1) + (rising ? 0 : 8);
              tx = k < G_N_ELEMENTS (dys) ? x + 6 : x - 6 - tw;
              double top = y + dy - th;
              if (tx < l->px || tx + tw > l->px + l->pw || top < l->py || y + dy + 2 > l->py + l->ph)
                continue;
              placed = TRUE;
              for (guint q = 0; q < boxes->len && placed; q++)
                {
                  const double *b = &g_array_index (boxes, double, q);
                  if (q % 4 == 0 && tx < b[2] && tx + tw > b[0] && top < b[3] && y + dy + 2 > b[1])
                    placed = FALSE;
                }
            }
          if (!placed)
            continue;
          double box[4] = { tx - 1, y + dy - th - 1, tx + tw + 1, y + dy + 2 };
          g_array_append_vals (boxes, box, 4);
          /* a white halo keeps the label legible over lines */
          cairo_move_to (cr, tx, y + dy);
          cairo_text_path (cr, buf);
          cairo_set_source_rgb (cr, 1, 1, 1);
          cairo_set_line_width (cr, 2.5);
          cairo_stroke (cr);
          set_color (cr, ser->color, 1);
          cairo_move_to (cr, tx, y + dy);
          cairo_show_text (cr, buf);
        }
    }
}

static void
draw_tbpoint (WsChart *chart, cairo_t *cr, const WsChartLayout *l)
{
  double base = ws_chart_layout_y (l, l->ylog ? l->y0 : fmax (l->y0, 0));
  double unit = l->pw / (l->x1 - l->x0);
  double bw = fmax (unit * 0.9, 1.0);
  for (guint s = 0; s < chart->series->len; s++)
    {
      WsChartSeries *ser = series_at (chart, s);
      if (!ser->visible)
        continue;
      for (guint i = 0; i < ser->points->len; i++)
        {
          WsChartPoint *p = &g_array_index (ser->points, WsChartPoint, i);
          if (!point_ok (l, p))
            continue;
          double x = ws_chart_layout_x (l, p->x), y = ws_chart_layout_y (l, p->y);
          gboolean skipped = p->flags & WS_CHART_POINT_SKIPPED;
          cairo_rectangle (cr, x - bw / 2, y, bw, base - y);
          set_color (cr, ser->color, skipped ? 0.28 : 1.0);
          cairo_fill (cr);
          if (!skipped && bw >= 2)
            {
              /* simulated TBs get a dark cap so they read even where bars are thin */
              cairo_rectangle (cr, x - bw / 2, y, bw, 2);
              cairo_set_source_rgba (cr, 0, 0, 0, 0.75);
              cairo_fill (cr);
            }
        }
    }
}

static void
draw_stacked (WsChart *chart, cairo_t *cr, const WsChartLayout *l)
{
  double slot = l->pw / (l->x1 - l->x0);
  double bw = fmin (slot * 0.62, 90);
  for (guint b = 0; b < chart->bars->len; b++)
    {
      double cx = ws_chart_layout_x (l, b);
      double acc = l->ylog ? l->y0 : 0;
      for (guint s = 0; s < chart->series->len; s++)
        {
          WsChartSeries *ser = series_at (chart, s);
          double v = ws_chart_get_bar_value (chart, b, s);
          if (!ser->visible || !(v > 0))
            continue;
          double lo = ws_chart_layout_y (l, acc), hi = ws_chart_layout_y (l, acc + v);
          cairo_rectangle (cr, cx - bw / 2, hi, bw, lo - hi);
          set_color (cr, ser->color, 1);
          cairo_fill_preserve (cr);
          cairo_set_source_rgb (cr, 1, 1, 1);
          cairo_set_line_width (cr, 1);
          cairo_stroke (cr);
          acc += v;
        }
      /* total above the bar */
      double total = ws_chart_bar_total (chart, b);
      if (total > 0)
        {
          g_autofree char *t = ws_chart_format_value (total, chart->unit[1], 0);
          set_font (cr, WS_CHART_SMALL_SIZE, FALSE);
          cairo_set_source_rgb (cr, 0.2, 0.2, 0.2);
          draw_text (cr, t, cx, ws_chart_layout_y (l, (l->ylog ? l->y0 : 0) + total) - 4, 0.5, 1);
        }
    }
}

static void
draw_heatmap (WsChart *chart, cairo_t *cr, const WsChartLayout *l)
{
  cairo_save (cr);
  cairo_set_antialias (cr, CAIRO_ANTIALIAS_NONE);
  for (guint r = 0; r < chart->m_rows; r++)
    for (guint c = 0; c < chart->m_cols; c++)
      {
        double v = chart->matrix[(gsize) r * chart->m_cols + c];
        /* whole-pixel edges, so neighbouring cells meet without seams */
        double x0 = round (ws_chart_layout_x (l, c - 0.5)), x1 = round (ws_chart_layout_x (l, c + 0.5));
        double y0 = round (ws_chart_layout_y (l, r - 0.5)), y1 = round (ws_chart_layout_y (l, r + 0.5));
        cairo_rectangle (cr, x0, y0, x1 - x0, y1 - y0);
        if (isfinite (v))
          set_color (cr, ws_chart_scale_color ((v - l->vmin) / (l->vmax - l->vmin)), 1);
        else
          cairo_set_source_rgb (cr, 0.85, 0.85, 0.85);
        cairo_fill (cr);
      }
  cairo_restore (cr);
}

static void
draw_colour_scale (WsChart *chart, cairo_t *cr, const WsChartLayout *l)
{
  double x = l->scale_x, y = l->py, h = l->ph;
  cairo_pattern_t *pat = cairo_pattern_create_linear (0, y + h, 0, y);
  for (guint i = 0; i <= 10; i++)
    {
      WsChartColor c = ws_chart_scale_color (i / 10.0);
      cairo_pattern_add_color_stop_rgb (pat, i / 10.0, c.r, c.g, c.b);
    }
  cairo_rectangle (cr, x, y, l->scale_w, h);
  cairo_set_source (cr, pat);
  cairo_fill (cr);
  cairo_pattern_destroy (pat);
  cairo_rectangle (cr, x + 0.5, y + 0.5, l->scale_w - 1, h - 1);
  cairo_set_source_rgb (cr, 0.4, 0.4, 0.4);
  cairo_set_line_width (cr, 1);
  cairo_stroke (cr);
  GArray *vt = ws_chart_nice_ticks (l->vmin, l->vmax, 6, FALSE);
  double step = tick_step (vt, FALSE), tw = 0;
  set_font (cr, WS_CHART_TICK_SIZE, FALSE);
  for (guint i = 0; i < vt->len; i++)
    {
      double v = g_array_index (vt, double, i);
      double ty = y + h - (v - l->vmin) / (l->vmax - l->vmin) * h;
      cairo_move_to (cr, x + l->scale_w, ty);
      cairo_line_to (cr, x + l->scale_w + 4, ty);
      cairo_set_source_rgb (cr, 0.4, 0.4, 0.4);
      cairo_stroke (cr);
      g_autofree char *t = ws_chart_format_tick (v, WS_CHART_UNIT_NONE, step, ticks_reference (vt, step));
      cairo_set_source_rgb (cr, 0.2, 0.2, 0.2);
      draw_text (cr, t, x + l->scale_w + 6, ty, 0, 0.5);
      tw = fmax (tw, text_width (cr, t));
    }
  g_array_unref (vt);
  if (chart->value_title)
    {
      set_font (cr, WS_CHART_LABEL_SIZE, FALSE);
      cairo_save (cr);
      cairo_translate (cr, x + l->scale_w + 6 + tw + 6 + WS_CHART_LABEL_SIZE, y + h / 2);
      cairo_rotate (cr, -G_PI / 2);
      draw_text (cr, chart->value_title, 0, 0, 0.5, 1);
      cairo_restore (cr);
    }
}

/* Vertical extent of a span on @row: most of the row, but no taller than
 * 30 pixels so a timeline with few rows does not turn into slabs. */
static void
span_rows (const WsChartLayout *l, guint row, double *y0, double *y1)
{
  double c = ws_chart_layout_y (l, row);
  double half = fmin (fabs (ws_chart_layout_y (l, row + 0.34) - c), 15);
  *y0 = c - half;
  *y1 = c + half;
}

static void
draw_gantt (WsChart *chart, cairo_t *cr, const WsChartLayout *l)
{
  for (guint i = 0; i < chart->spans->len; i++)
    {
      WsChartSpan *sp = &g_array_index (chart->spans, WsChartSpan, i);
      WsChartSeries *ser = series_at (chart, sp->series);
      if (!ser->visible)
        continue;
      double x0 = ws_chart_layout_x (l, sp->start), x1 = ws_chart_layout_x (l, sp->end);
      double y0, y1;
      span_rows (l, sp->row, &y0, &y1);
      double w = fmax (x1 - x0, 1.0);
      cairo_rectangle (cr, x0, y0, w, y1 - y0);
      set_color (cr, ser->color, 1);
      cairo_fill_preserve (cr);
      cairo_set_source_rgba (cr, 1, 1, 1, 0.9);
      cairo_set_line_width (cr, 1);
      cairo_stroke (cr);
      if (sp->label != NULL)
        {
          set_font (cr, WS_CHART_SMALL_SIZE, FALSE);
          if (text_width (cr, sp->label) + 8 < w && y1 - y0 > WS_CHART_SMALL_SIZE + 2)
            {
              double lum = 0.299 * ser->color.r + 0.587 * ser->color.g + 0.114 * ser->color.b;
              if (lum > 0.55)
                cairo_set_source_rgb (cr, 0, 0, 0);
              else
                cairo_set_source_rgb (cr, 1, 1, 1);
              draw_text (cr, sp->label, x0 + 4, (y0 + y1) / 2, 0, 0.5);
            }
        }
    }
}

static void
draw_axes (WsChart *chart, cairo_t *cr, const WsChartLayout *l)
{
  gboolean heat = chart->kind == WS_CHART_HEATMAP;
  WsChartUnit xu = heat ? WS_CHART_UNIT_NONE : chart->unit[0], yu = heat ? WS_CHART_UNIT_NONE : chart->unit[1];
  cairo_set_line_width (cr, 1);
  set_font (cr, WS_CHART_TICK_SIZE, FALSE);
  /* grid (not on the heat map: it would hide cells) */
  if (!heat)
    {
      cairo_set_source_rgb (cr, 0.89, 0.89, 0.89);
      for (guint i = 0; i < l->xticks->len; i++)
        {
          double x = round (ws_chart_layout_x (l, g_array_index (l->xticks, double, i))) + 0.5;
          if (x < l->px - 0.5 || x > l->px + l->pw + 0.5)
            continue;
          cairo_move_to (cr, x, l->py);
          cairo_line_to (cr, x, l->py + l->ph);
        }
      for (guint i = 0; i < l->yticks->len; i++)
        {
          double y = round (ws_chart_layout_y (l, g_array_index (l->yticks, double, i))) + 0.5;
          if (y < l->py - 0.5 || y > l->py + l->ph + 0.5)
            continue;
          cairo_move_to (cr, l->px, y);
          cairo_line_to (cr, l->px + l->pw, y);
        }
      cairo_stroke (cr);
    }
  /* frame: left and bottom axis lines */
  cairo_set_source_rgb (cr, 0.3, 0.3, 0.3);
  cairo_move_to (cr, round (l->px) - 0.5, l->py);
  cairo_line_to (cr, round (l->px) - 0.5, l->py + l->ph);
  cairo_line_to (cr, l->px + l->pw, l->py + l->ph);
  cairo_stroke (cr);

  for (guint i = 0; i < l->xticks->len; i++)
    {
      double v = g_array_index (l->xticks, double, i);
      double x = ws_chart_layout_x (l, v);
      if (x < l->px - 0.5 || x > l->px + l->pw + 0.5)
        continue;
      cairo_set_source_rgb (cr, 0.3, 0.3, 0.3);
      cairo_move_to (cr, round (x) + 0.5, l->py + l->ph);
      cairo_line_to (cr, round (x) + 0.5, l->py + l->ph + 4);
      cairo_stroke (cr);
      /* log axes span prefixes on purpose; linear ones share the largest tick's */
      g_autofree char *t = ws_chart_format_tick (v, xu, l->xstep,
                                                 l->xlog ? fabs (v) : ticks_reference (l->xticks, l->xstep));
      cairo_set_source_rgb (cr, 0.2, 0.2, 0.2);
      draw_text (cr, t, x, l->py + l->ph + 6, 0.5, 0);
    }
  for (guint i = 0; i < l->yticks->len; i++)
    {
      double v = g_array_index (l->yticks, double, i);
      double y = ws_chart_layout_y (l, v);
      if (y < l->py - 0.5 || y > l->py + l->ph + 0.5)
        continue;
      cairo_set_source_rgb (cr, 0.3, 0.3, 0.3);
      cairo_move_to (cr, l->px - 4, round (y) + 0.5);
      cairo_line_to (cr, l->px, round (y) + 0.5);
      cairo_stroke (cr);
      g_autofree char *t = ws_chart_format_tick (v, yu, l->ystep,
                                                 l->ylog ? fabs (v) : ticks_reference (l->yticks, l->ystep));
      cairo_set_source_rgb (cr, 0.2, 0.2, 0.2);
      draw_text (cr, t, l->px - 7, y, 1, 0.5);
    }
  /* categorical labels */
  cairo_set_source_rgb (cr, 0.2, 0.2, 0.2);
  if (chart->kind == WS_CHART_STACKED)
    for (guint b = 0; b < chart->bars->len; b++)
      {
        double x = ws_chart_layout_x (l, b);
        if (x < l->px || x > l->px + l->pw)
          continue;
        if (l->rotate_xlabels)
          {
            cairo_save (cr);
            cairo_translate (cr, x + 3, l->py + l->ph + 8);
            cairo_rotate (cr, -G_PI / 4);
            draw_text (cr, chart->bars->pdata[b], 0, 0, 1, 0);
            cairo_restore (cr);
          }
        else
          draw_text (cr, chart->bars->pdata[b], x, l->py + l->ph + 6, 0.5, 0);
      }
  if (chart->kind == WS_CHART_GANTT)
    for (guint r = 0; r < chart->rows->len; r++)
      {
        double y = ws_chart_layout_y (l, r);
        if (y < l->py || y > l->py + l->ph)
          continue;
        draw_text (cr, chart->rows->pdata[r], l->px - 7, y, 1, 0.5);
      }

  /* axis titles */
  set_font (cr, WS_CHART_LABEL_SIZE, FALSE);
  cairo_set_source_rgb (cr, 0.1, 0.1, 0.1);
  if (chart->axis_title[0])
    {
      double y = l->h - MARGIN;
      draw_text (cr, chart->axis_title[0], l->px + l->pw / 2, y, 0.5, 1);
    }
  if (chart->axis_title[1])
    {
      cairo_save (cr);
      cairo_translate (cr, MARGIN + WS_CHART_LABEL_SIZE * 0.8, l->py + l->ph / 2);
      cairo_rotate (cr, -G_PI / 2);
      draw_text (cr, chart->axis_title[1], 0, 0, 0.5, 0.5);
      cairo_restore (cr);
    }
}

static void
legend_swatch (WsChart *chart, cairo_t *cr, guint entry, double x, double y, gboolean visible)
{
  int s = ws_chart_legend_entry_series (chart, entry);
  double cy = y + LEGEND_ROW / 2;
  if (s < 0)
    {
      /* TBPoint style entries: solid (simulated) versus faded (skipped) grey bars */
      gboolean skipped = entry > chart->series->len;
      cairo_rectangle (cr, x + 6, cy - 6, 12, 12);
      cairo_set_source_rgba (cr, 0.35, 0.35, 0.35, skipped ? 0.28 : 1);
      cairo_fill (cr);
      if (!skipped)
        {
          cairo_rectangle (cr, x + 6, cy - 6, 12, 2);
          cairo_set_source_rgb (cr, 0, 0, 0);
          cairo_fill (cr);
        }
      return;
    }
  WsChartSeries *ser = series_at (chart, s);
  WsChartColor c = visible ? ser->color : (WsChartColor){ 0.75, 0.75, 0.75 };
  if (chart->kind == WS_CHART_LINE || chart->kind == WS_CHART_SCATTER)
    {
      if (chart->kind == WS_CHART_LINE && !(ser->flags & (WS_CHART_SERIES_MEASURED | WS_CHART_SERIES_NO_LINE)))
        {
          cairo_move_to (cr, x, cy);
          cairo_line_to (cr, x + LEGEND_SWATCH, cy);
          set_color (cr, c, 1);
          cairo_set_line_width (cr, 2);
          cairo_stroke (cr);
        }
      WsChartSeries tmp = *ser;
      tmp.color = c;
      draw_marker (cr, &tmp, x + LEGEND_SWATCH / 2, cy, 3.6);
      return;
    }
  cairo_rectangle (cr, x + 6, cy - 6, 12, 12);
  set_color (cr, c, 1);
  cairo_fill (cr);
}

static void
draw_legend (WsChart *chart, cairo_t *cr, const WsChartLayout *l)
{
  set_font (cr, WS_CHART_TICK_SIZE, FALSE);
  for (guint e = 0; e < l->legend_n; e++)
    {
      int s = ws_chart_legend_entry_series (chart, e);
      gboolean visible = s < 0 || series_at (chart, s)->visible;
      double y = l->legend_y + e * l->legend_row_h + (s < 0 ? 8 : 0);
      legend_swatch (chart, cr, e, l->legend_x, y, visible);
      if (visible)
        cairo_set_source_rgb (cr, 0.1, 0.1, 0.1);
      else
        cairo_set_source_rgb (cr, 0.62, 0.62, 0.62);
      draw_text (cr, legend_label (chart, e), l->legend_x + LEGEND_SWATCH + 6, y + LEGEND_ROW / 2, 0, 0.5);
    }
}

void
ws_chart_draw (WsChart *chart, cairo_t *cr, double width, double height)
{
  WsChartLayout l;
  cairo_save (cr);
  cairo_font_options_t *fo = cairo_font_options_create ();
  cairo_font_options_set_hint_metrics (fo, CAIRO_HINT_METRICS_OFF);
  cairo_font_options_set_antialias (fo, CAIRO_ANTIALIAS_GRAY);
  cairo_set_font_options (cr, fo);
  cairo_font_options_destroy (fo);
  ws_chart_layout_compute (chart, cr, width, height, &l);

  cairo_rectangle (cr, 0, 0, width, height);
  cairo_set_source_rgb (cr, 1, 1, 1);
  cairo_fill (cr);

  if (chart->title)
    {
      set_font (cr, WS_CHART_TITLE_SIZE, TRUE);
      cairo_set_source_rgb (cr, 0.05, 0.05, 0.05);
      draw_text (cr, chart->title, width / 2, l.title_y, 0.5, 0);
    }
  if (chart->subtitle)
    {
      set_font (cr, WS_CHART_TICK_SIZE, FALSE);
      cairo_set_source_rgb (cr, 0.35, 0.35, 0.35);
      draw_text (cr, chart->subtitle, width / 2, l.subtitle_y + 2, 0.5, 0);
    }

  draw_axes (chart, cr, &l);

  cairo_save (cr);
  /* markers on the edge of the view stay whole */
  double slack = chart->kind == WS_CHART_LINE || chart->kind == WS_CHART_SCATTER ? 6 : 0;
  cairo_rectangle (cr, l.px - slack, l.py - 1 - slack, l.pw + 1 + 2 * slack, l.ph + 1 + 2 * slack);
  cairo_clip (cr);
  switch (chart->kind)
    {
    case WS_CHART_LINE:
    case WS_CHART_SCATTER: draw_points (chart, cr, &l); break;
    case WS_CHART_TBPOINT: draw_tbpoint (chart, cr, &l); break;
    case WS_CHART_STACKED: draw_stacked (chart, cr, &l); break;
    case WS_CHART_HEATMAP: draw_heatmap (chart, cr, &l); break;
    case WS_CHART_GANTT: draw_gantt (chart, cr, &l); break;
    }
  cairo_restore (cr);

  if (chart->kind == WS_CHART_HEATMAP)
    draw_colour_scale (chart, cr, &l);
  draw_legend (chart, cr, &l);
  if ((chart->kind == WS_CHART_LINE || chart->kind == WS_CHART_SCATTER) && chart->series->len == 0)
    {
      set_font (cr, WS_CHART_LABEL_SIZE, FALSE);
      cairo_set_source_rgb (cr, 0.5, 0.5, 0.5);
      draw_text (cr, _ ("No data"), l.px + l.pw / 2, l.py + l.ph / 2, 0.5, 0.5);
    }
  ws_chart_layout_clear (&l);
  cairo_restore (cr);
}

/* ---- geometry queries ---------------------------------------------------------- */

void
ws_chart_get_plot_area (WsChart *chart, double width, double height, double *x, double *y, double *w, double *h)
{
  WsChartLayout l;
  layout_for (chart, width, height, &l);
  *x = l.px;
  *y = l.py;
  *w = l.pw;
  *h = l.ph;
  ws_chart_layout_clear (&l);
}

gboolean
ws_chart_data_to_pixel (WsChart *chart, double width, double height, double x, double y, double *px, double *py)
{
  WsChartLayout l;
  layout_for (chart, width, height, &l);
  *px = ws_chart_layout_x (&l, x);
  *py = ws_chart_layout_y (&l, y);
  ws_chart_layout_clear (&l);
  return isfinite (*px) && isfinite (*py);
}

gboolean
ws_chart_pixel_to_data (WsChart *chart, double width, double height, double px, double py, double *x, double *y)
{
  WsChartLayout l;
  layout_for (chart, width, height, &l);
  double tx = (px - l.px) / l.pw, ty = l.ydown ? (py - l.py) / l.ph : (l.py + l.ph - py) / l.ph;
  *x = inv (fwd (l.x0, l.xlog) + tx * (fwd (l.x1, l.xlog) - fwd (l.x0, l.xlog)), l.xlog);
  *y = inv (fwd (l.y0, l.ylog) + ty * (fwd (l.y1, l.ylog) - fwd (l.y0, l.ylog)), l.ylog);
  ws_chart_layout_clear (&l);
  return isfinite (*x) && isfinite (*y);
}

void
ws_chart_get_view (WsChart *chart, double *x_min, double *x_max, double *y_min, double *y_max)
{
  /* The effective window (fitted when no view is set); the size does not
   * change it (BOUNDS_TICKS). */
  WsChartLayout l;
  layout_for (chart, 640, 480, &l);
  *x_min = l.x0;
  *x_max = l.x1;
  *y_min = l.y0;
  *y_max = l.y1;
  ws_chart_layout_clear (&l);
}

void
ws_chart_zoom (WsChart *chart, double width, double height, double px, double py, double factor)
{
  g_return_if_fail (factor > 0);
  WsChartLayout l;
  layout_for (chart, width, height, &l);
  double cx, cy;
  ws_chart_pixel_to_data (chart, width, height, px, py, &cx, &cy);
  double a = fwd (l.x0, l.xlog), b = fwd (l.x1, l.xlog), c = fwd (cx, l.xlog);
  double d = fwd (l.y0, l.ylog), e = fwd (l.y1, l.ylog), f = fwd (cy, l.ylog);
  ws_chart_set_view (chart, inv (c - (c - a) / factor, l.xlog), inv (c + (b - c) / factor, l.xlog),
                     inv (f - (f - d) / factor, l.ylog), inv (f + (e - f) / factor, l.ylog));
  ws_chart_layout_clear (&l);
}

void
ws_chart_pan (WsChart *chart, double width, double height, double dx, double dy)
{
  WsChartLayout l;
  layout_for (chart, width, height, &l);
  double sx = (fwd (l.x1, l.xlog) - fwd (l.x0, l.xlog)) / l.pw * dx;
  double sy = (fwd (l.y1, l.ylog) - fwd (l.y0, l.ylog)) / l.ph * dy * (l.ydown ? -1 : 1);
  ws_chart_set_view (chart, inv (fwd (l.x0, l.xlog) - sx, l.xlog), inv (fwd (l.x1, l.xlog) - sx, l.xlog),
                     inv (fwd (l.y0, l.ylog) + sy, l.ylog), inv (fwd (l.y1, l.ylog) + sy, l.ylog));
  ws_chart_layout_clear (&l);
}

int
ws_chart_legend_hit_test (WsChart *chart, double width, double height, double px, double py)
{
  WsChartLayout l;
  layout_for (chart, width, height, &l);
  int found = -1;
  if (px >= l.legend_x && px <= l.legend_x + l.legend_w && py >= l.legend_y)
    {
      guint e = (guint) ((py - l.legend_y) / l.legend_row_h);
      if (e < chart->series->len)
        found = ws_chart_legend_entry_series (chart, e);
    }
  ws_chart_layout_clear (&l);
  return found;
}

gboolean
ws_chart_hit_test (WsChart *chart, double width, double height, double px, double py, double max_distance,
                   WsChartHit *hit)
{
  WsChartLayout l;
  layout_for (chart, width, height, &l);
  WsChartHit best = { -1, -1, -1, -1, NAN, NAN, NAN, NAN, INFINITY };
  gboolean inside = px >= l.px - max_distance && px <= l.px + l.pw + max_distance && py >= l.py - max_distance
                    && py <= l.py + l.ph + max_distance;
  if (!inside)
    goto out;
  switch (chart->kind)
    {
    case WS_CHART_LINE:
    case WS_CHART_SCATTER:
    case WS_CHART_TBPOINT:
      for (guint s = 0; s < chart->series->len; s++)
        {
          WsChartSeries *ser = series_at (chart, s);
          if (!ser->visible)
            continue;
          for (guint i = 0; i < ser->points->len; i++)
            {
              WsChartPoint *p = &g_array_index (ser->points, WsChartPoint, i);
              if (!point_ok (&l, p))
                continue;
              double x = ws_chart_layout_x (&l, p->x), y = ws_chart_layout_y (&l, p->y), d;
              if (chart->kind == WS_CHART_TBPOINT)
                {
                  /* a bar: anywhere in its column counts, measured horizontally */
                  double base = ws_chart_layout_y (&l, l.ylog ? l.y0 : fmax (l.y0, 0));
                  d = py >= y - max_distance && py <= base ? fabs (px - x) : INFINITY;
                }
              else
                d = hypot (px - x, py - y);
              if (d <= max_distance && d < best.distance)
                best = (WsChartHit){ (int) s, (int) i, -1, -1, p->x, p->y, p->y, p->rel_error, d };
            }
        }
      break;
    case WS_CHART_STACKED:
      {
        double slot = l.pw / (l.x1 - l.x0), bw = fmin (slot * 0.62, 90);
        for (guint b = 0; b < chart->bars->len; b++)
          {
            double cx = ws_chart_layout_x (&l, b);
            if (fabs (px - cx) > bw / 2)
              continue;
            double acc = l.ylog ? l.y0 : 0;
            for (guint s = 0; s < chart->series->len; s++)
              {
                double v = ws_chart_get_bar_value (chart, b, s);
                if (!series_at (chart, s)->visible || !(v > 0))
                  continue;
                double lo = ws_chart_layout_y (&l, acc), hi = ws_chart_layout_y (&l, acc + v);
                if (py >= hi && py <= lo)
                  best = (WsChartHit){ (int) s, (int) b, -1, -1, b, v, v, NAN, 0 };
                acc += v;
              }
          }
        break;
      }
    case WS_CHART_HEATMAP:
      {
        double x, y;
        ws_chart_pixel_to_data (chart, width, height, px, py, &x, &y);
        int c = (int) floor (x + 0.5), r = (int) floor (y + 0.5);
        if (px >= l.px && px <= l.px + l.pw && py >= l.py && py <= l.py + l.ph && r >= 0 && c >= 0
            && (guint) r < chart->m_rows && (guint) c < chart->m_cols)
          {
            double v = chart->matrix[(gsize) r * chart->m_cols + c];
            best = (WsChartHit){ -1, -1, r, c, c, r, v, NAN, 0 };
          }
        break;
      }
    case WS_CHART_GANTT:
      for (guint i = 0; i < chart->spans->len; i++)
        {
          WsChartSpan *sp = &g_array_index (chart->spans, WsChartSpan, i);
          if (!series_at (chart, sp->series)->visible)
            continue;
          double x0 = ws_chart_layout_x (&l, sp->start), x1 = fmax (ws_chart_layout_x (&l, sp->end), x0 + 1);
          double y0, y1;
          span_rows (&l, sp->row, &y0, &y1);
          if (py < y0 || py > y1)
            continue;
          double d = px < x0 ? x0 - px : px > x1 ? px - x1 : 0;
          if (d <= max_distance && d < best.distance)
            best = (WsChartHit){
              (int) sp->series, (int) i, (int) sp->row, -1, sp->start, sp->end, sp->end - sp->start, NAN, d
            };
        }
      break;
    }
out:
  ws_chart_layout_clear (&l);
  if (!isfinite (best.distance))
    return FALSE;
  if (hit)
    *hit = best;
  return TRUE;
}

char *
ws_chart_describe_hit (const WsChart *chart, const WsChartHit *hit)
{
  g_autofree char *x = NULL, *y = NULL;
  const char *name = hit->series >= 0 && (guint) hit->series < chart->series->len ? series_at (chart, hit->series)->name
                                                                                  : "";
  switch (chart->kind)
    {
    case WS_CHART_HEATMAP:
      y = ws_chart_format_value (hit->value, WS_CHART_UNIT_NONE, 0);
      /* TRANSLATORS: heat-map tooltip: row, column, value */
      return g_strdup_printf (_ ("row %d, column %d: %s"), hit->row, hit->column, y);
    case WS_CHART_STACKED:
      y = ws_chart_format_value (hit->value, chart->unit[1], 0);
      return g_strdup_printf ("%s — %s: %s", (char *) chart->bars->pdata[hit->index], name, y);
    case WS_CHART_GANTT:
      {
        const WsChartSpan *sp = &g_array_index (chart->spans, WsChartSpan, hit->index);
        x = ws_chart_format_value (hit->x, chart->unit[0], 0);
        y = ws_chart_format_value (hit->y, chart->unit[0], 0);
        g_autofree char *d = ws_chart_format_value (hit->value, chart->unit[0], 0);
        /* TRANSLATORS: timeline tooltip: label (kind) on component, start to end, duration */
        return g_strdup_printf (_ ("%s (%s) on %s: %s to %s (%s)"), sp->label ? sp->label : name, name,
                                (char *) chart->rows->pdata[sp->row], x, y, d);
      }
    case WS_CHART_TBPOINT:
      {
        const WsChartPoint *p = &g_array_index (series_at (chart, hit->series)->points, WsChartPoint, hit->index);
        y = ws_chart_format_value (hit->y, chart->unit[1], 0);
        return g_strdup_printf (_ ("TB %.0f: size %s, region %s, %s"), hit->x, y, name,
                                (p->flags & WS_CHART_POINT_SKIPPED) ? _ ("skipped") : _ ("simulated"));
      }
    default:
      x = ws_chart_format_value (hit->x, chart->unit[0], 0);
      y = ws_chart_format_value (hit->y, chart->unit[1], 0);
      if (isfinite (hit->rel_error))
        /* TRANSLATORS: chart tooltip: series, x, y, relative error in percent */
        return g_strdup_printf (_ ("%s: %s, %s (error %+.1f %%)"), name, x, y, hit->rel_error * 100);
      return g_strdup_printf ("%s: %s, %s", name, x, y);
    }
}
