/* ws-chart.c: the chart data model, ticks, value formatting, colours and
 * export (PNG, SVG, PDF through Cairo surfaces; CSV of the data). */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <cairo-pdf.h>
#include <cairo-svg.h>

#include "ws-config.h"
#include "chart/ws-chart-private.h"

static const char *const kind_names[] = { "line", "scatter", "stacked", "heatmap", "gantt", "tbpoint" };

const char *
ws_chart_kind_name (WsChartKind kind)
{
  return (guint) kind < G_N_ELEMENTS (kind_names) ? kind_names[kind] : "unknown";
}

gboolean
ws_chart_kind_from_name (const char *name, WsChartKind *kind)
{
  for (guint i = 0; name != NULL && i < G_N_ELEMENTS (kind_names); i++)
    if (strcmp (name, kind_names[i]) == 0)
      {
        *kind = (WsChartKind) i;
        return TRUE;
      }
  return FALSE;
}

/* ---- colours ---------------------------------------------------------------- */

static WsChartColor
rgb (guint32 hex)
{
  return (WsChartColor){ ((hex >> 16) & 0xff) / 255.0, ((hex >> 8) & 0xff) / 255.0, (hex & 0xff) / 255.0 };
}

WsChartColor
ws_chart_palette_color (guint index)
{
  /* Okabe & Ito's palette, ordered so the first colours read well as thin
   * lines on white (the yellow comes last). */
  static const guint32 palette[] = { 0x0072B2, 0xD55E00, 0x009E73, 0xE69F00, 0xCC79A7, 0x56B4E9, 0x000000, 0xF0E442 };
  return rgb (palette[index % G_N_ELEMENTS (palette)]);
}

gboolean
ws_chart_cpi_color (const char *category, WsChartColor *color)
{
  /* Fixed per category so CPI stacks of different runs compare at a glance;
   * stalls on memory are warm colours, compute ones cool. */
  static const struct {
    const char *name;
    guint32 hex;
  } cpi[] = {
    { "BASE", 0x0072B2 }, { "DEP", 0x56B4E9 },  { "L1", 0x009E73 },    { "L2", 0xF0E442 },
    { "DRAM", 0xD55E00 }, { "MSHR", 0xCC79A7 }, { "QUEUE", 0xE69F00 },
  };
  for (guint i = 0; category != NULL && i < G_N_ELEMENTS (cpi); i++)
    if (g_ascii_strcasecmp (category, cpi[i].name) == 0)
      {
        if (color != NULL)
          *color = rgb (cpi[i].hex);
        return TRUE;
      }
  return FALSE;
}

WsChartColor
ws_chart_scale_color (double t)
{
  /* Anchors of viridis: perceptually uniform and readable with colour-vision deficiencies. */
  static const guint32 anchors[] = { 0x440154, 0x482878, 0x3E4989, 0x31688E, 0x26828E,
                                     0x1F9E89, 0x35B779, 0x6DCD59, 0xB4DE2C, 0xFDE725 };
  const guint n = G_N_ELEMENTS (anchors);
  if (!(t > 0))
    t = 0;
  if (t > 1)
    t = 1;
  double f = t * (n - 1);
  guint i = (guint) floor (f);
  if (i >= n - 1)
    return rgb (anchors[n - 1]);
  double u = f - i;
  WsChartColor a = rgb (anchors[i]), b = rgb (anchors[i + 1]);
  return (WsChartColor){ a.r + (b.r - a.r) * u, a.g + (b.g - a.g) * u, a.b + (b.b - a.b) * u };
}

gboolean
ws_chart_color_parse (const char *text, WsChartColor *color)
{
  if (text == NULL || text[0] != '#' || strlen (text) != 7)
    return FALSE;
  for (guint i = 1; i < 7; i++)
    if (!g_ascii_isxdigit (text[i]))
      return FALSE;
  *color = rgb ((guint32) strtoul (text + 1, NULL, 16));
  return TRUE;
}

/* ---- model ------------------------------------------------------------------ */

WsChart *
ws_chart_new (WsChartKind kind)
{
  WsChart *c = g_new0 (WsChart, 1);
  c->kind = kind;
  c->series = g_ptr_array_new ();
  c->bars = g_ptr_array_new_with_free_func (g_free);
  c->rows = g_ptr_array_new_with_free_func (g_free);
  c->spans = g_array_new (FALSE, FALSE, sizeof (WsChartSpan));
  for (guint i = 0; i < 4; i++)
    c->view[i] = NAN;
  return c;
}

void
ws_chart_free (WsChart *chart)
{
  if (chart == NULL)
    return;
  for (guint i = 0; i < chart->series->len; i++)
    {
      WsChartSeries *s = chart->series->pdata[i];
      g_free (s->name);
      g_array_unref (s->points);
      g_array_unref (s->bar_values);
      g_free (s);
    }
  g_ptr_array_unref (chart->series);
  g_ptr_array_unref (chart->bars);
  g_ptr_array_unref (chart->rows);
  for (guint i = 0; i < chart->spans->len; i++)
    g_free (g_array_index (chart->spans, WsChartSpan, i).label);
  g_array_unref (chart->spans);
  g_free (chart->matrix);
  g_free (chart->title);
  g_free (chart->subtitle);
  g_free (chart->value_title);
  g_free (chart->axis_title[0]);
  g_free (chart->axis_title[1]);
  g_free (chart);
}

WsChartKind
ws_chart_get_kind (const WsChart *chart)
{
  return chart->kind;
}

void
ws_chart_set_title (WsChart *chart, const char *title)
{
  g_free (chart->title);
  chart->title = g_strdup (title);
}

const char *
ws_chart_get_title (const WsChart *chart)
{
  return chart->title;
}

void
ws_chart_set_subtitle (WsChart *chart, const char *subtitle)
{
  g_free (chart->subtitle);
  chart->subtitle = g_strdup (subtitle);
}

void
ws_chart_set_axis_title (WsChart *chart, WsChartAxis axis, const char *title)
{
  g_return_if_fail (axis <= WS_CHART_AXIS_Y);
  g_free (chart->axis_title[axis]);
  chart->axis_title[axis] = g_strdup (title);
}

void
ws_chart_set_axis_unit (WsChart *chart, WsChartAxis axis, WsChartUnit unit)
{
  g_return_if_fail (axis <= WS_CHART_AXIS_Y);
  chart->unit[axis] = unit;
}

void
ws_chart_set_axis_log (WsChart *chart, WsChartAxis axis, gboolean log)
{
  g_return_if_fail (axis <= WS_CHART_AXIS_Y);
  chart->log[axis] = log;
}

gboolean
ws_chart_get_axis_log (const WsChart *chart, WsChartAxis axis)
{
  return axis <= WS_CHART_AXIS_Y && chart->log[axis];
}

void
ws_chart_set_value_title (WsChart *chart, const char *title)
{
  g_free (chart->value_title);
  chart->value_title = g_strdup (title);
}

static WsChartSeries *
get_series (const WsChart *chart, guint series)
{
  g_return_val_if_fail (series < chart->series->len, NULL);
  return chart->series->pdata[series];
}

guint
ws_chart_add_series (WsChart *chart, const char *name, WsChartSeriesFlags flags)
{
  WsChartSeries *s = g_new0 (WsChartSeries, 1);
  s->name = g_strdup (name != NULL ? name : "");
  s->flags = flags;
  s->visible = TRUE;
  s->points = g_array_new (FALSE, FALSE, sizeof (WsChartPoint));
  s->bar_values = g_array_new (FALSE, TRUE, sizeof (double));
  if (flags & WS_CHART_SERIES_MEASURED)
    s->color = rgb (0x000000);
  else if (!ws_chart_cpi_color (s->name, &s->color))
    s->color = ws_chart_palette_color (chart->n_auto_colors++);
  s->marker = chart->series->len;
  g_ptr_array_add (chart->series, s);
  return chart->series->len - 1;
}

int
ws_chart_find_series (const WsChart *chart, const char *name)
{
  for (guint i = 0; i < chart->series->len; i++)
    if (g_strcmp0 (((WsChartSeries *) chart->series->pdata[i])->name, name) == 0)
      return (int) i;
  return -1;
}

guint
ws_chart_get_n_series (const WsChart *chart)
{
  return chart->series->len;
}

const char *
ws_chart_series_get_name (const WsChart *chart, guint series)
{
  WsChartSeries *s = get_series (chart, series);
  return s ? s->name : NULL;
}

WsChartSeriesFlags
ws_chart_series_get_flags (const WsChart *chart, guint series)
{
  WsChartSeries *s = get_series (chart, series);
  return s ? s->flags : 0;
}

void
ws_chart_series_set_color (WsChart *chart, guint series, WsChartColor color)
{
  WsChartSeries *s = get_series (chart, series);
  if (s)
    s->color = color;
}

WsChartColor
ws_chart_series_get_color (const WsChart *chart, guint series)
{
  WsChartSeries *s = get_series (chart, series);
  return s ? s->color : (WsChartColor){ 0, 0, 0 };
}

void
ws_chart_series_set_visible (WsChart *chart, guint series, gboolean visible)
{
  WsChartSeries *s = get_series (chart, series);
  if (s)
    s->visible = visible;
}

gboolean
ws_chart_series_get_visible (const WsChart *chart, guint series)
{
  WsChartSeries *s = get_series (chart, series);
  return s && s->visible;
}

guint
ws_chart_series_add_point_full (WsChart *chart, guint series, double x, double y, WsChartPointFlags flags)
{
  WsChartSeries *s = get_series (chart, series);
  g_return_val_if_fail (s != NULL, 0);
  WsChartPoint p = { x, y, NAN, flags };
  g_array_append_val (s->points, p);
  return s->points->len - 1;
}

guint
ws_chart_series_add_point (WsChart *chart, guint series, double x, double y)
{
  return ws_chart_series_add_point_full (chart, series, x, y, 0);
}

guint
ws_chart_series_get_n_points (const WsChart *chart, guint series)
{
  WsChartSeries *s = get_series (chart, series);
  return s ? s->points->len : 0;
}

gboolean
ws_chart_series_get_point (const WsChart *chart, guint series, guint index, double *x, double *y)
{
  WsChartSeries *s = get_series (chart, series);
  if (s == NULL || index >= s->points->len)
    return FALSE;
  WsChartPoint *p = &g_array_index (s->points, WsChartPoint, index);
  if (x)
    *x = p->x;
  if (y)
    *y = p->y;
  return TRUE;
}

void
ws_chart_series_set_rel_error (WsChart *chart, guint series, guint index, double rel_error)
{
  WsChartSeries *s = get_series (chart, series);
  g_return_if_fail (s != NULL && index < s->points->len);
  g_array_index (s->points, WsChartPoint, index).rel_error = rel_error;
}

double
ws_chart_series_get_rel_error (const WsChart *chart, guint series, guint index)
{
  WsChartSeries *s = get_series (chart, series);
  if (s == NULL || index >= s->points->len)
    return NAN;
  return g_array_index (s->points, WsChartPoint, index).rel_error;
}

static gboolean
same_x (double a, double b)
{
  return fabs (a - b) <= 1e-9 * fmax (fabs (a), fabs (b)) || a == b;
}

guint
ws_chart_annotate_rel_errors (WsChart *chart, guint measured)
{
  WsChartSeries *m = get_series (chart, measured);
  g_return_val_if_fail (m != NULL, 0);
  guint n = 0;
  for (guint s = 0; s < chart->series->len; s++)
    {
      WsChartSeries *p = chart->series->pdata[s];
      if (s == measured || (p->flags & WS_CHART_SERIES_MEASURED))
        continue;
      for (guint i = 0; i < p->points->len; i++)
        {
          WsChartPoint *pt = &g_array_index (p->points, WsChartPoint, i);
          for (guint j = 0; j < m->points->len; j++)
            {
              const WsChartPoint *mp = &g_array_index (m->points, WsChartPoint, j);
              if (same_x (pt->x, mp->x) && mp->y != 0 && isfinite (mp->y))
                {
                  pt->rel_error = (pt->y - mp->y) / mp->y;
                  n++;
                  break;
                }
            }
        }
    }
  return n;
}

guint
ws_chart_add_bar (WsChart *chart, const char *label)
{
  g_ptr_array_add (chart->bars, g_strdup (label != NULL ? label : ""));
  return chart->bars->len - 1;
}

guint
ws_chart_get_n_bars (const WsChart *chart)
{
  return chart->bars->len;
}

void
ws_chart_set_bar_value (WsChart *chart, guint bar, guint series, double value)
{
  WsChartSeries *s = get_series (chart, series);
  g_return_if_fail (s != NULL && bar < chart->bars->len);
  if (s->bar_values->len <= bar)
    g_array_set_size (s->bar_values, chart->bars->len);
  g_array_index (s->bar_values, double, bar) = value;
}

double
ws_chart_get_bar_value (const WsChart *chart, guint bar, guint series)
{
  WsChartSeries *s = get_series (chart, series);
  if (s == NULL || bar >= s->bar_values->len)
    return 0;
  return g_array_index (s->bar_values, double, bar);
}

double
ws_chart_bar_total (const WsChart *chart, guint bar)
{
  double total = 0;
  for (guint s = 0; s < chart->series->len; s++)
    if (((WsChartSeries *) chart->series->pdata[s])->visible)
      {
        double v = ws_chart_get_bar_value (chart, bar, s);
        if (v > 0)
          total += v;
      }
  return total;
}

void
ws_chart_set_matrix (WsChart *chart, guint rows, guint columns, const double *values)
{
  g_free (chart->matrix);
  chart->matrix = g_memdup2 (values, (gsize) rows * columns * sizeof (double));
  chart->m_rows = rows;
  chart->m_cols = columns;
}

guint
ws_chart_add_span (WsChart *chart, const char *row, guint series, double start, double end, const char *label)
{
  g_return_val_if_fail (series < chart->series->len, 0);
  guint r;
  for (r = 0; r < chart->rows->len; r++)
    if (g_strcmp0 (chart->rows->pdata[r], row) == 0)
      break;
  if (r == chart->rows->len)
    g_ptr_array_add (chart->rows, g_strdup (row != NULL ? row : ""));
  WsChartSpan span = { r, series, fmin (start, end), fmax (start, end), g_strdup (label) };
  g_array_append_val (chart->spans, span);
  return chart->spans->len - 1;
}

guint
ws_chart_get_n_spans (const WsChart *chart)
{
  return chart->spans->len;
}

guint
ws_chart_get_n_rows (const WsChart *chart)
{
  return chart->rows->len;
}

void
ws_chart_set_view (WsChart *chart, double x_min, double x_max, double y_min, double y_max)
{
  chart->view[0] = x_min;
  chart->view[1] = x_max;
  chart->view[2] = y_min;
  chart->view[3] = y_max;
}

void
ws_chart_reset_view (WsChart *chart)
{
  ws_chart_set_view (chart, NAN, NAN, NAN, NAN);
}

/* ---- ticks and labels ------------------------------------------------------- */

static double
nice_step (double range, guint max_ticks)
{
  double rough = range / MAX (max_ticks - 1, 1);
  double mag = pow (10, floor (log10 (rough)));
  double norm = rough / mag;
  return (norm <= 1.0 + 1e-9 ? 1 : norm <= 2.0 + 1e-9 ? 2 : norm <= 5.0 + 1e-9 ? 5 : 10) * mag;
}

static GArray *
linear_ticks (double min, double max, guint max_ticks, double *step_out)
{
  GArray *ticks = g_array_new (FALSE, FALSE, sizeof (double));
  if (!(max > min))
    {
      g_array_append_val (ticks, min);
      return ticks;
    }
  double step = nice_step (max - min, max_ticks);
  double first = ceil (min / step - 1e-9);
  for (double k = first; k * step <= max + step * 1e-9; k++)
    {
      double v = k * step;
      if (fabs (v) < step * 1e-9)
        v = 0;
      g_array_append_val (ticks, v);
    }
  if (step_out)
    *step_out = step;
  return ticks;
}

GArray *
ws_chart_nice_ticks (double min, double max, guint max_ticks, gboolean log)
{
  if (max_ticks < 2)
    max_ticks = 2;
  if (min > max)
    {
      double t = min;
      min = max;
      max = t;
    }
  if (!log || !(min > 0))
    return linear_ticks (min, max, max_ticks, NULL);
  GArray *ticks = g_array_new (FALSE, FALSE, sizeof (double));
  double lo = log10 (min), hi = log10 (max);
  int d0 = (int) ceil (lo - 1e-9), d1 = (int) floor (hi + 1e-9);
  if (d1 - d0 >= 1)
    {
      /* Decades, every k-th when there are too many. */
      int k = (d1 - d0) / (int) max_ticks + 1;
      for (int d = d0; d <= d1; d++)
        if ((d - d0) % k == 0)
          {
            double v = pow (10, d);
            g_array_append_val (ticks, v);
          }
      return ticks;
    }
  /* Less than two decades boundaries inside: 1-2-5 within the decades. */
  static const double mult[] = { 1, 2, 5 };
  for (int d = (int) floor (lo); d <= (int) ceil (hi); d++)
    for (guint m = 0; m < G_N_ELEMENTS (mult); m++)
      {
        double v = mult[m] * pow (10, d);
        if (v >= min * (1 - 1e-9) && v <= max * (1 + 1e-9))
          g_array_append_val (ticks, v);
      }
  if (ticks->len < 2)
    {
      g_array_unref (ticks);
      return linear_ticks (min, max, max_ticks, NULL);
    }
  return ticks;
}

char *
ws_chart_format_value (double value, WsChartUnit unit, double step)
{
  return ws_chart_format_tick (value, unit, step, fmax (fabs (value), fabs (step)));
}

char *
ws_chart_format_tick (double value, WsChartUnit unit, double step, double reference)
{
  typedef struct {
    double scale;
    const char *suffix;
  } Prefix;
  static const Prefix seconds[] = {
    { 1e-9, "ns" }, { 1e-6, "µs" }, { 1e-3, "ms" }, { 1, "s" },
  }, bytes[] = {
    { 1, "B" }, { 1e3, "kB" }, { 1e6, "MB" }, { 1e9, "GB" }, { 1e12, "TB" }, { 1e15, "PB" },
  }, plain[] = {
    { 1, "" }, { 1e3, "k" }, { 1e6, "M" }, { 1e9, "G" }, { 1e12, "T" },
  };
  const Prefix *t;
  guint n;
  switch (unit)
    {
    case WS_CHART_UNIT_SECONDS:
      t = seconds;
      n = G_N_ELEMENTS (seconds);
      break;
    case WS_CHART_UNIT_BYTES:
      t = bytes;
      n = G_N_ELEMENTS (bytes);
      break;
    default:
      t = plain;
      n = G_N_ELEMENTS (plain);
      break;
    }
  if (!isfinite (value))
    return g_strdup (isnan (value) ? "–" : value > 0 ? "∞" : "−∞");
  if (value == 0 && unit == WS_CHART_UNIT_NONE)
    return g_strdup ("0");
  double mag = reference;
  guint pick = 0;
  for (guint i = 0; i < n; i++)
    if (mag >= t[i].scale * (1 - 1e-9))
      pick = i;
  /* Plain numbers below 1 keep their decimals (0.25) rather than milli. */
  double scale = t[pick].scale;
  double v = value / scale;
  char buf[64];
  if (step > 0)
    {
      double s = step / scale;
      int decimals = (int) MAX (0, -floor (log10 (s) + 1e-9));
      /* a step like 0.25 needs two decimals, 2.5 one */
      double r = s * pow (10, decimals);
      if (fabs (r - round (r)) > 1e-6)
        decimals++;
      decimals = MIN (decimals, 9);
      g_snprintf (buf, sizeof buf, "%.*f", decimals, v);
    }
  else
    g_snprintf (buf, sizeof buf, "%.3g", v);
  if (buf[0] == '-' && strspn (buf + 1, "0.") == strlen (buf + 1))
    memmove (buf, buf + 1, strlen (buf));
  if (t[pick].suffix[0] == '\0')
    return g_strdup (buf);
  return g_strdup_printf (unit == WS_CHART_UNIT_NONE ? "%s%s" : "%s %s", buf, t[pick].suffix);
}

/* ---- export ----------------------------------------------------------------- */

gboolean
ws_chart_format_from_path (const char *path, WsChartFormat *format)
{
  static const struct {
    const char *ext;
    WsChartFormat f;
  } exts[] = {
    { ".png", WS_CHART_FORMAT_PNG },
    { ".svg", WS_CHART_FORMAT_SVG },
    { ".pdf", WS_CHART_FORMAT_PDF },
    { ".csv", WS_CHART_FORMAT_CSV },
  };
  g_autofree char *lower = g_ascii_strdown (path, -1);
  for (guint i = 0; i < G_N_ELEMENTS (exts); i++)
    if (g_str_has_suffix (lower, exts[i].ext))
      {
        *format = exts[i].f;
        return TRUE;
      }
  return FALSE;
}

static void
csv_field (GString *out, const char *text)
{
  if (text != NULL && strpbrk (text, ",\"\n\r") != NULL)
    {
      g_string_append_c (out, '"');
      for (const char *p = text; *p; p++)
        {
          if (*p == '"')
            g_string_append_c (out, '"');
          g_string_append_c (out, *p);
        }
      g_string_append_c (out, '"');
    }
  else if (text != NULL)
    g_string_append (out, text);
}

static void
csv_number (GString *out, double v)
{
  if (isfinite (v))
    {
      char buf[G_ASCII_DTOSTR_BUF_SIZE];
      g_string_append (out, g_ascii_formatd (buf, sizeof buf, "%.10g", v));
    }
}

char *
ws_chart_to_csv (const WsChart *chart)
{
  GString *out = g_string_new (NULL);
  switch (chart->kind)
    {
    case WS_CHART_LINE:
    case WS_CHART_SCATTER:
      g_string_append (out, "series,x,y,rel_error\n");
      for (guint s = 0; s < chart->series->len; s++)
        {
          WsChartSeries *ser = chart->series->pdata[s];
          for (guint i = 0; i < ser->points->len; i++)
            {
              WsChartPoint *p = &g_array_index (ser->points, WsChartPoint, i);
              csv_field (out, ser->name);
              g_string_append_c (out, ',');
              csv_number (out, p->x);
              g_string_append_c (out, ',');
              csv_number (out, p->y);
              g_string_append_c (out, ',');
              csv_number (out, p->rel_error);
              g_string_append_c (out, '\n');
            }
        }
      break;
    case WS_CHART_TBPOINT:
      g_string_append (out, "tb,size,region,simulated\n");
      for (guint s = 0; s < chart->series->len; s++)
        {
          WsChartSeries *ser = chart->series->pdata[s];
          for (guint i = 0; i < ser->points->len; i++)
            {
              WsChartPoint *p = &g_array_index (ser->points, WsChartPoint, i);
              csv_number (out, p->x);
              g_string_append_c (out, ',');
              csv_number (out, p->y);
              g_string_append_c (out, ',');
              csv_field (out, ser->name);
              g_string_append (out, (p->flags & WS_CHART_POINT_SKIPPED) ? ",0\n" : ",1\n");
            }
        }
      break;
    case WS_CHART_STACKED:
      g_string_append (out, "bar");
      for (guint s = 0; s < chart->series->len; s++)
        {
          g_string_append_c (out, ',');
          csv_field (out, ((WsChartSeries *) chart->series->pdata[s])->name);
        }
      g_string_append (out, ",total\n");
      for (guint b = 0; b < chart->bars->len; b++)
        {
          double total = 0;
          csv_field (out, chart->bars->pdata[b]);
          for (guint s = 0; s < chart->series->len; s++)
            {
              double v = ws_chart_get_bar_value (chart, b, s);
              total += v;
              g_string_append_c (out, ',');
              csv_number (out, v);
            }
          g_string_append_c (out, ',');
          csv_number (out, total);
          g_string_append_c (out, '\n');
        }
      break;
    case WS_CHART_HEATMAP:
      g_string_append (out, "row,column,value\n");
      for (guint r = 0; r < chart->m_rows; r++)
        for (guint c = 0; c < chart->m_cols; c++)
          {
            g_string_append_printf (out, "%u,%u,", r, c);
            csv_number (out, chart->matrix[(gsize) r * chart->m_cols + c]);
            g_string_append_c (out, '\n');
          }
      break;
    case WS_CHART_GANTT:
      g_string_append (out, "row,series,label,start,end\n");
      for (guint i = 0; i < chart->spans->len; i++)
        {
          WsChartSpan *sp = &g_array_index (chart->spans, WsChartSpan, i);
          csv_field (out, chart->rows->pdata[sp->row]);
          g_string_append_c (out, ',');
          csv_field (out, ((WsChartSeries *) chart->series->pdata[sp->series])->name);
          g_string_append_c (out, ',');
          csv_field (out, sp->label);
          g_string_append_c (out, ',');
          csv_number (out, sp->start);
          g_string_append_c (out, ',');
          csv_number (out, sp->end);
          g_string_append_c (out, '\n');
        }
      break;
    }
  return g_string_free (out, FALSE);
}

/* Cairo draws SVG text as glyph outlines; a <title> and <desc> keep the
 * chart's words searchable and readable by screen readers. */
static gboolean
svg_add_description (WsChart *chart, const char *path, GError **error)
{
  g_autofree char *svg = NULL;
  gsize len;
  if (!g_file_get_contents (path, &svg, &len, error))
    return FALSE;
  char *open = strstr (svg, "<svg");
  char *end = open ? strchr (open, '>') : NULL;
  if (end == NULL)
    return g_set_error (error, WS_ERROR, WS_ERROR_IO, _ ("%s: Cairo wrote no <svg> element"), path), FALSE;
  GString *desc = g_string_new (NULL);
  for (guint s = 0; s < chart->series->len; s++)
    {
      g_autofree char *e = g_markup_escape_text (((WsChartSeries *) chart->series->pdata[s])->name, -1);
      g_string_append_printf (desc, "%s%s", s ? ", " : "", e);
    }
  for (guint a = 0; a < 2; a++)
    if (chart->axis_title[a] != NULL)
      {
        g_autofree char *e = g_markup_escape_text (chart->axis_title[a], -1);
        g_string_append_printf (desc, "%s%s", desc->len ? "; " : "", e);
      }
  g_autofree char *title = g_markup_escape_text (chart->title ? chart->title : ws_chart_kind_name (chart->kind), -1);
  g_autofree char *desc_text = g_string_free (desc, FALSE);
  g_autofree char *head = g_strndup (svg, end + 1 - svg);
  g_autofree char *out = g_strdup_printf ("%s\n<title>%s</title>\n<desc>%s</desc>%s", head, title, desc_text, end + 1);
  return g_file_set_contents (path, out, -1, error);
}

static gboolean
check_surface (cairo_surface_t *surface, const char *path, GError **error)
{
  cairo_status_t st = cairo_surface_status (surface);
  if (st != CAIRO_STATUS_SUCCESS)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_IO, _ ("cannot write chart to %s: %s"), path, cairo_status_to_string (st));
      return FALSE;
    }
  return TRUE;
}

gboolean
ws_chart_export (WsChart *chart, const char *path, WsChartFormat format, int width, int height, GError **error)
{
  if (format == WS_CHART_FORMAT_CSV)
    {
      g_autofree char *csv = ws_chart_to_csv (chart);
      return g_file_set_contents (path, csv, -1, error);
    }
  if (width < 50 || height < 50 || width > 20000 || height > 20000)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID, _ ("chart size %d×%d is out of range (50 to 20000)"), width,
                   height);
      return FALSE;
    }
  cairo_surface_t *surface;
  switch (format)
    {
    case WS_CHART_FORMAT_PNG: surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width, height); break;
    case WS_CHART_FORMAT_SVG: surface = cairo_svg_surface_create (path, width, height); break;
    default:
      surface = cairo_pdf_surface_create (path, width, height);
      if (chart->title != NULL)
        cairo_pdf_surface_set_metadata (surface, CAIRO_PDF_METADATA_TITLE, chart->title);
      cairo_pdf_surface_set_metadata (surface, CAIRO_PDF_METADATA_CREATOR, "Warpscope " WS_VERSION);
      break;
    }
  if (!check_surface (surface, path, error))
    {
      cairo_surface_destroy (surface);
      return FALSE;
    }
  cairo_t *cr = cairo_create (surface);
  ws_chart_draw (chart, cr, width, height);
  cairo_destroy (cr);
  gboolean ok = TRUE;
  if (format == WS_CHART_FORMAT_PNG)
    {
      cairo_status_t st = cairo_surface_write_to_png (surface, path);
      if (st != CAIRO_STATUS_SUCCESS)
        {
          g_set_error (error, WS_ERROR, WS_ERROR_IO, _ ("cannot write chart to %s: %s"), path,
                       cairo_status_to_string (st));
          ok = FALSE;
        }
    }
  else
    {
      cairo_surface_finish (surface);
      ok = check_surface (surface, path, error);
    }
  cairo_surface_destroy (surface);
  if (ok && format == WS_CHART_FORMAT_SVG)
    ok = svg_add_description (chart, path, error);
  return ok;
}
