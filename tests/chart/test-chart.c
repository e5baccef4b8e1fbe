/* Tests of the headless chart module: ticks, labels, hit testing, hidden
 * series, zoom/pan, CSV and PNG/SVG/PDF export of every kind. */
#include <math.h>
#include <string.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <cairo.h>

#include "chart/ws-chart.h"

#define W 640
#define H 400

static void
assert_ticks (GArray *t, const double *want, guint n)
{
  g_assert_cmpuint (t->len, ==, n);
  for (guint i = 0; i < n; i++)
    g_assert_cmpfloat_with_epsilon (g_array_index (t, double, i), want[i], fabs (want[i]) * 1e-12 + 1e-12);
  g_array_unref (t);
}

static void
test_ticks_linear (void)
{
  const double unit[] = { 0, 0.2, 0.4, 0.6, 0.8, 1.0 };
  assert_ticks (ws_chart_nice_ticks (0, 1, 6, FALSE), unit, 6);
  const double neg[] = { -2, 0, 2, 4, 6 };
  assert_ticks (ws_chart_nice_ticks (-3, 7, 6, FALSE), neg, 5);
  const double big[] = { 0, 5000, 10000, 15000, 20000 };
  assert_ticks (ws_chart_nice_ticks (0, 20000, 5, FALSE), big, 5);
  /* reversed bounds are the same range */
  assert_ticks (ws_chart_nice_ticks (1, 0, 6, FALSE), unit, 6);
}

static void
test_ticks_log (void)
{
  const double decades[] = { 1e3, 1e4, 1e5, 1e6, 1e7, 1e8 };
  assert_ticks (ws_chart_nice_ticks (1e3, 1e8, 10, TRUE), decades, 6);
  /* too many decades for the room: every third one */
  const double sparse[] = { 1e0, 1e3, 1e6, 1e9, 1e12 };
  assert_ticks (ws_chart_nice_ticks (1, 1e12, 6, TRUE), sparse, 5);
  /* inside one decade: 1-2-5 */
  const double short_range[] = { 2, 5 };
  assert_ticks (ws_chart_nice_ticks (1.5, 9, 6, TRUE), short_range, 2);
}

static void
assert_label (double v, WsChartUnit unit, double step, const char *want)
{
  g_autofree char *got = ws_chart_format_value (v, unit, step);
  g_assert_cmpstr (got, ==, want);
}

static void
test_format_units (void)
{
  assert_label (0.0025, WS_CHART_UNIT_SECONDS, 0.0005, "2.5 ms");
  assert_label (0.003, WS_CHART_UNIT_SECONDS, 0.001, "3 ms");
  assert_label (2e-7, WS_CHART_UNIT_SECONDS, 1e-7, "200 ns");
  assert_label (4e-5, WS_CHART_UNIT_SECONDS, 2e-5, "40 µs");
  assert_label (12, WS_CHART_UNIT_SECONDS, 2, "12 s");
  assert_label (1.5e6, WS_CHART_UNIT_BYTES, 5e5, "1.5 MB");
  assert_label (64, WS_CHART_UNIT_BYTES, 16, "64 B");
  assert_label (2e9, WS_CHART_UNIT_BYTES, 1e9, "2 GB");
  assert_label (20000, WS_CHART_UNIT_NONE, 5000, "20k");
  assert_label (2.5e6, WS_CHART_UNIT_NONE, 5e5, "2.5M");
  assert_label (0.2, WS_CHART_UNIT_NONE, 0.2, "0.2");
  assert_label (0.25, WS_CHART_UNIT_NONE, 0.25, "0.25");
  assert_label (0, WS_CHART_UNIT_NONE, 5000, "0");
  assert_label (-4, WS_CHART_UNIT_NONE, 2, "-4");
  assert_label (3.14159, WS_CHART_UNIT_NONE, 0, "3.14");
}

static void
test_palette (void)
{
  /* the first seven palette colours differ clearly from each other */
  for (guint i = 0; i < 7; i++)
    for (guint j = i + 1; j < 7; j++)
      {
        WsChartColor a = ws_chart_palette_color (i), b = ws_chart_palette_color (j);
        g_assert_cmpfloat (fabs (a.r - b.r) + fabs (a.g - b.g) + fabs (a.b - b.b), >, 0.25);
      }
  WsChartColor c;
  g_assert_true (ws_chart_cpi_color ("DRAM", &c));
  g_assert_cmpfloat_with_epsilon (c.r, 0xD5 / 255.0, 1e-9);
  g_assert_false (ws_chart_cpi_color ("FOO", &c));
  /* known categories get their fixed colour whatever their order */
  g_autoptr (WsChart) chart = ws_chart_new (WS_CHART_STACKED);
  ws_chart_add_series (chart, "QUEUE", 0);
  guint dram = ws_chart_add_series (chart, "DRAM", 0);
  WsChartColor got = ws_chart_series_get_color (chart, dram);
  g_assert_cmpfloat_with_epsilon (got.g, c.g, 1e-9);
  WsChartColor lo = ws_chart_scale_color (0), hi = ws_chart_scale_color (1);
  g_assert_cmpfloat (lo.r + lo.g + lo.b, <, hi.r + hi.g + hi.b);
}

static WsChart *
simple_line (void)
{
  WsChart *chart = ws_chart_new (WS_CHART_LINE);
  guint s = ws_chart_add_series (chart, "alpha", 0);
  ws_chart_series_add_point (chart, s, 0, 0);
  ws_chart_series_add_point (chart, s, 10, 10);
  guint t = ws_chart_add_series (chart, "beta", 0);
  ws_chart_series_add_point (chart, t, 2, 8);
  ws_chart_series_add_point (chart, t, 5, 3);
  ws_chart_series_add_point (chart, t, 8, 6);
  return chart;
}

static void
test_hit_test_nearest (void)
{
  g_autoptr (WsChart) chart = simple_line ();
  double px, py;
  g_assert_true (ws_chart_data_to_pixel (chart, W, H, 5, 3, &px, &py));
  WsChartHit hit;
  g_assert_true (ws_chart_hit_test (chart, W, H, px + 2, py - 1, 8, &hit));
  g_assert_cmpint (hit.series, ==, 1);
  g_assert_cmpint (hit.index, ==, 1);
  g_assert_cmpfloat (hit.x, ==, 5);
  g_assert_cmpfloat (hit.y, ==, 3);
  g_assert_cmpfloat_with_epsilon (hit.distance, sqrt (5), 1e-9);
  g_autofree char *tip = ws_chart_describe_hit (chart, &hit);
  g_assert_nonnull (strstr (tip, "beta"));
  /* far from every point: nothing */
  g_assert_false (ws_chart_hit_test (chart, W, H, px + 40, py - 40, 8, &hit));
  /* hidden series are not hit: the nearest visible point is too far */
  ws_chart_series_set_visible (chart, 1, FALSE);
  g_assert_false (ws_chart_hit_test (chart, W, H, px + 2, py - 1, 8, &hit));
  /* round trip pixel -> data */
  double x, y;
  ws_chart_series_set_visible (chart, 1, TRUE);
  g_assert_true (ws_chart_pixel_to_data (chart, W, H, px, py, &x, &y));
  g_assert_cmpfloat_with_epsilon (x, 5, 1e-9);
  g_assert_cmpfloat_with_epsilon (y, 3, 1e-9);
}

static void
test_hit_test_log_axes (void)
{
  g_autoptr (WsChart) chart = ws_chart_new (WS_CHART_SCATTER);
  guint s = ws_chart_add_series (chart, "p", 0);
  for (int k = 3; k <= 8; k++)
    ws_chart_series_add_point (chart, s, pow (10, k), pow (10, k - 6));
  ws_chart_set_axis_log (chart, WS_CHART_AXIS_X, TRUE);
  ws_chart_set_axis_log (chart, WS_CHART_AXIS_Y, TRUE);
  double px3, py3, px4, py4;
  ws_chart_data_to_pixel (chart, W, H, 1e3, 1e-3, &px3, &py3);
  ws_chart_data_to_pixel (chart, W, H, 1e4, 1e-2, &px4, &py4);
  double px5, py5;
  ws_chart_data_to_pixel (chart, W, H, 1e5, 1e-1, &px5, &py5);
  /* decades are evenly spaced on log axes */
  g_assert_cmpfloat_with_epsilon (px4 - px3, px5 - px4, 1e-6);
  g_assert_cmpfloat_with_epsilon (py4 - py3, py5 - py4, 1e-6);
  WsChartHit hit;
  g_assert_true (ws_chart_hit_test (chart, W, H, px4, py4, 5, &hit));
  g_assert_cmpint (hit.index, ==, 1);
}

static cairo_surface_t *
render (WsChart *chart)
{
  cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, W, H);
  cairo_t *cr = cairo_create (s);
  ws_chart_draw (chart, cr, W, H);
  cairo_destroy (cr);
  cairo_surface_flush (s);
  return s;
}

static guint32
pixel_at (cairo_surface_t *s, int x, int y)
{
  unsigned char *data = cairo_image_surface_get_data (s);
  int stride = cairo_image_surface_get_stride (s);
  return *(guint32 *) (data + y * stride + x * 4) & 0xffffff;
}

static gboolean
close_to (guint32 px, WsChartColor c)
{
  int r = (px >> 16) & 0xff, g = (px >> 8) & 0xff, b = px & 0xff;
  return abs (r - (int) lround (c.r * 255)) < 40 && abs (g - (int) lround (c.g * 255)) < 40
         && abs (b - (int) lround (c.b * 255)) < 40;
}

static void
test_hidden_series_not_drawn (void)
{
  g_autoptr (WsChart) chart = ws_chart_new (WS_CHART_LINE);
  guint s = ws_chart_add_series (chart, "only", 0);
  ws_chart_series_add_point (chart, s, 0, 0);
  ws_chart_series_add_point (chart, s, 10, 10);
  /* a point on the line, away from markers and grid lines */
  double px, py;
  ws_chart_data_to_pixel (chart, W, H, 4.5, 4.5, &px, &py);
  int x = (int) floor (px), y = (int) floor (py);
  WsChartColor colour = ws_chart_series_get_color (chart, s);

  cairo_surface_t *shown = render (chart);
  g_assert_true (close_to (pixel_at (shown, x, y), colour));
  cairo_surface_destroy (shown);

  ws_chart_series_set_visible (chart, s, FALSE);
  cairo_surface_t *hidden = render (chart);
  g_assert_cmphex (pixel_at (hidden, x, y), ==, 0xffffff);
  cairo_surface_destroy (hidden);
}

static void
test_legend_hit_test (void)
{
  g_autoptr (WsChart) chart = simple_line ();
  double px, py, pw, ph;
  ws_chart_get_plot_area (chart, W, H, &px, &py, &pw, &ph);
  /* the legend sits right of the plot, one 18-pixel row per series */
  g_assert_cmpint (ws_chart_legend_hit_test (chart, W, H, px + pw + 30, py + 9), ==, 0);
  g_assert_cmpint (ws_chart_legend_hit_test (chart, W, H, px + pw + 30, py + 18 + 9), ==, 1);
  g_assert_cmpint (ws_chart_legend_hit_test (chart, W, H, px + pw + 30, py + 3 * 18 + 9), ==, -1);
  g_assert_cmpint (ws_chart_legend_hit_test (chart, W, H, px + pw / 2, py + 9), ==, -1);
  /* stacked bars list categories top-down */
  g_autoptr (WsChart) bars = ws_chart_new (WS_CHART_STACKED);
  ws_chart_add_series (bars, "BASE", 0);
  ws_chart_add_series (bars, "DRAM", 0);
  guint b = ws_chart_add_bar (bars, "cfg");
  ws_chart_set_bar_value (bars, b, 0, 1);
  ws_chart_get_plot_area (bars, W, H, &px, &py, &pw, &ph);
  g_assert_cmpint (ws_chart_legend_hit_test (bars, W, H, px + pw + 30, py + 9), ==, 1);
}

static void
test_zoom_pan (void)
{
  g_autoptr (WsChart) chart = simple_line ();
  double x0, x1, y0, y1;
  ws_chart_get_view (chart, &x0, &x1, &y0, &y1);
  g_assert_cmpfloat (x0, <=, 0);
  g_assert_cmpfloat (x1, >=, 10);
  double px, py, pw, ph;
  ws_chart_get_plot_area (chart, W, H, &px, &py, &pw, &ph);
  double cx, cy;
  ws_chart_pixel_to_data (chart, W, H, px + pw / 2, py + ph / 2, &cx, &cy);
  ws_chart_zoom (chart, W, H, px + pw / 2, py + ph / 2, 2);
  double a0, a1, b0, b1;
  ws_chart_get_view (chart, &a0, &a1, &b0, &b1);
  g_assert_cmpfloat_with_epsilon (a1 - a0, (x1 - x0) / 2, 1e-9);
  g_assert_cmpfloat_with_epsilon (b1 - b0, (y1 - y0) / 2, 1e-9);
  g_assert_cmpfloat_with_epsilon ((a0 + a1) / 2, cx, 1e-9);
  /* dragging right by a quarter of the plot shows smaller x (the plot
   * area depends on the tick labels, so measure it again) */
  ws_chart_get_plot_area (chart, W, H, &px, &py, &pw, &ph);
  ws_chart_pan (chart, W, H, pw / 4, 0);
  double c0, c1, d0, d1;
  ws_chart_get_view (chart, &c0, &c1, &d0, &d1);
  g_assert_cmpfloat_with_epsilon (c0, a0 - (a1 - a0) / 4, 1e-9);
  g_assert_cmpfloat_with_epsilon (d0, b0, 1e-9);
  ws_chart_reset_view (chart);
  ws_chart_get_view (chart, &c0, &c1, &d0, &d1);
  g_assert_cmpfloat (c0, ==, x0);
  g_assert_cmpfloat (c1, ==, x1);
}

static void
test_view_size_independent (void)
{
  /* the fitted data window is the same at any size, so zoom levels carry over */
  g_autoptr (WsChart) chart = simple_line ();
  const double sizes[][2] = { { 400, 300 }, { 1200, 800 } };
  double win[2][4];
  for (guint i = 0; i < 2; i++)
    {
      double px, py, pw, ph;
      ws_chart_get_plot_area (chart, sizes[i][0], sizes[i][1], &px, &py, &pw, &ph);
      ws_chart_pixel_to_data (chart, sizes[i][0], sizes[i][1], px, py + ph, &win[i][0], &win[i][2]);
      ws_chart_pixel_to_data (chart, sizes[i][0], sizes[i][1], px + pw, py, &win[i][1], &win[i][3]);
    }
  for (guint k = 0; k < 4; k++)
    g_assert_cmpfloat_with_epsilon (win[0][k], win[1][k], 1e-9);
  double x0, x1, y0, y1;
  ws_chart_get_view (chart, &x0, &x1, &y0, &y1);
  g_assert_cmpfloat_with_epsilon (x0, win[0][0], 1e-9);
  g_assert_cmpfloat_with_epsilon (y1, win[0][3], 1e-9);
}

static void
test_rel_errors (void)
{
  g_autoptr (WsChart) chart = ws_chart_new (WS_CHART_LINE);
  guint p = ws_chart_add_series (chart, "volkov", 0);
  ws_chart_series_add_point (chart, p, 1024, 1.1e-5);
  ws_chart_series_add_point (chart, p, 2048, 2e-5);
  ws_chart_series_add_point (chart, p, 4096, 3e-5);
  guint m = ws_chart_add_series (chart, "measured", WS_CHART_SERIES_MEASURED);
  ws_chart_series_add_point (chart, m, 1024, 1e-5);
  ws_chart_series_add_point (chart, m, 4096, 4e-5);
  g_assert_cmpuint (ws_chart_annotate_rel_errors (chart, m), ==, 2);
  g_assert_cmpfloat_with_epsilon (ws_chart_series_get_rel_error (chart, p, 0), 0.1, 1e-12);
  g_assert_true (isnan (ws_chart_series_get_rel_error (chart, p, 1)));
  g_assert_cmpfloat_with_epsilon (ws_chart_series_get_rel_error (chart, p, 2), -0.25, 1e-12);
  /* measured series are drawn black */
  WsChartColor c = ws_chart_series_get_color (chart, m);
  g_assert_cmpfloat (c.r + c.g + c.b, ==, 0);
  double px, py;
  ws_chart_data_to_pixel (chart, W, H, 4096, 3e-5, &px, &py);
  WsChartHit hit;
  g_assert_true (ws_chart_hit_test (chart, W, H, px, py, 4, &hit));
  g_assert_cmpfloat_with_epsilon (hit.rel_error, -0.25, 1e-12);
  g_autofree char *tip = ws_chart_describe_hit (chart, &hit);
  g_assert_nonnull (strstr (tip, "-25.0"));
}

static WsChart *
make_chart (WsChartKind kind)
{
  WsChart *chart = ws_chart_new (kind);
  ws_chart_set_title (chart, "Chart title");
  switch (kind)
    {
    case WS_CHART_LINE:
    case WS_CHART_SCATTER:
      {
        guint s = ws_chart_add_series (chart, "volkov", 0);
        guint m = ws_chart_add_series (chart, "measured", WS_CHART_SERIES_MEASURED);
        for (int i = 1; i <= 5; i++)
          {
            ws_chart_series_add_point (chart, s, i * 1000, i * 1e-5);
            ws_chart_series_add_point (chart, m, i * 1000, i * 1.1e-5);
          }
        ws_chart_annotate_rel_errors (chart, m);
        ws_chart_set_axis_unit (chart, WS_CHART_AXIS_Y, WS_CHART_UNIT_SECONDS);
        ws_chart_set_axis_title (chart, WS_CHART_AXIS_X, "N");
        break;
      }
    case WS_CHART_STACKED:
      {
        const char *cats[] = { "BASE", "DEP", "L1", "L2", "DRAM", "MSHR", "QUEUE" };
        for (guint c = 0; c < G_N_ELEMENTS (cats); c++)
          ws_chart_add_series (chart, cats[c], 0);
        for (guint b = 0; b < 3; b++)
          {
            g_autofree char *label = g_strdup_printf ("config %u", b);
            guint bar = ws_chart_add_bar (chart, label);
            for (guint c = 0; c < G_N_ELEMENTS (cats); c++)
              ws_chart_set_bar_value (chart, bar, c, 0.5 + 0.1 * c + b);
          }
        break;
      }
    case WS_CHART_HEATMAP:
      {
        double m[32 * 32];
        for (guint i = 0; i < 32 * 32; i++)
          m[i] = (i / 32) * (i % 32);
        ws_chart_set_matrix (chart, 32, 32, m);
        ws_chart_set_value_title (chart, "accesses");
        break;
      }
    case WS_CHART_GANTT:
      {
        guint k = ws_chart_add_series (chart, "kernel", 0), c = ws_chart_add_series (chart, "memcpy", 0);
        ws_chart_add_span (chart, "pcie0", c, 0, 1e-3, "copy in");
        ws_chart_add_span (chart, "gpu0", k, 1e-3, 3e-3, "saxpy");
        ws_chart_add_span (chart, "pcie0", c, 3e-3, 3.5e-3, "copy out");
        ws_chart_set_axis_unit (chart, WS_CHART_AXIS_X, WS_CHART_UNIT_SECONDS);
        break;
      }
    case WS_CHART_TBPOINT:
      {
        guint r0 = ws_chart_add_series (chart, "region 0", 0), r1 = ws_chart_add_series (chart, "region 1", 0);
        for (guint tb = 0; tb < 100; tb++)
          ws_chart_series_add_point_full (chart, tb < 50 ? r0 : r1, tb, tb < 50 ? 3000 : 5000,
                                          tb % 50 < 5 ? 0 : WS_CHART_POINT_SKIPPED);
        break;
      }
    }
  return chart;
}

static void
test_export_all_kinds (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("ws-chart-XXXXXX", &error);
  g_assert_no_error (error);
  for (WsChartKind k = WS_CHART_LINE; k <= WS_CHART_TBPOINT; k++)
    {
      g_autoptr (WsChart) chart = make_chart (k);
      g_autofree char *png = g_strdup_printf ("%s/%s.png", dir, ws_chart_kind_name (k));
      g_autofree char *svg = g_strdup_printf ("%s/%s.svg", dir, ws_chart_kind_name (k));
      g_autofree char *pdf = g_strdup_printf ("%s/%s.pdf", dir, ws_chart_kind_name (k));
      WsChartFormat f;
      g_assert_true (ws_chart_format_from_path (png, &f) && f == WS_CHART_FORMAT_PNG);
      g_assert_true (ws_chart_export (chart, png, WS_CHART_FORMAT_PNG, 700, 420, &error));
      g_assert_no_error (error);
      g_assert_true (ws_chart_export (chart, svg, WS_CHART_FORMAT_SVG, 700, 420, &error));
      g_assert_no_error (error);
      g_assert_true (ws_chart_export (chart, pdf, WS_CHART_FORMAT_PDF, 700, 420, &error));
      g_assert_no_error (error);

      cairo_surface_t *img = cairo_image_surface_create_from_png (png);
      g_assert_cmpint (cairo_surface_status (img), ==, CAIRO_STATUS_SUCCESS);
      g_assert_cmpint (cairo_image_surface_get_width (img), ==, 700);
      g_assert_cmpint (cairo_image_surface_get_height (img), ==, 420);
      /* something besides the white background was drawn */
      guint non_white = 0;
      unsigned char *data = cairo_image_surface_get_data (img);
      for (int y = 0; y < 420; y++)
        for (int x = 0; x < 700; x++)
          non_white += (*(guint32 *) (data + y * cairo_image_surface_get_stride (img) + x * 4) & 0xffffff) != 0xffffff;
      g_assert_cmpuint (non_white, >, 2000);
      cairo_surface_destroy (img);

      g_autofree char *text = NULL;
      g_assert_true (g_file_get_contents (svg, &text, NULL, NULL));
      g_assert_true (g_str_has_prefix (text, "<?xml"));
      g_assert_nonnull (strstr (text, "<title>Chart title</title>"));
      for (guint s = 0; s < ws_chart_get_n_series (chart); s++)
        g_assert_nonnull (strstr (text, ws_chart_series_get_name (chart, s)));
      g_assert_nonnull (strstr (text, "</svg>"));
      g_free (g_steal_pointer (&text));
      gsize len;
      g_assert_true (g_file_get_contents (pdf, &text, &len, NULL));
      g_assert_cmpuint (len, >, 500);
      g_assert_true (g_str_has_prefix (text, "%PDF-"));
      g_remove (png);
      g_remove (svg);
      g_remove (pdf);
    }
  g_rmdir (dir);
}

static void
test_export_errors (void)
{
  g_autoptr (WsChart) chart = simple_line ();
  g_autoptr (GError) error = NULL;
  g_assert_false (ws_chart_export (chart, "/nonexistent-dir/x.png", WS_CHART_FORMAT_PNG, 400, 300, &error));
  g_assert_error (error, WS_ERROR, WS_ERROR_IO);
  g_assert_nonnull (strstr (error->message, "/nonexistent-dir/x.png"));
  g_clear_error (&error);
  g_assert_false (ws_chart_export (chart, "x.png", WS_CHART_FORMAT_PNG, 10, 300, &error));
  g_assert_error (error, WS_ERROR, WS_ERROR_INVALID);
  WsChartFormat f;
  g_assert_false (ws_chart_format_from_path ("chart.jpeg", &f));
  g_assert_true (ws_chart_format_from_path ("CHART.PDF", &f) && f == WS_CHART_FORMAT_PDF);
}

static void
test_csv_content (void)
{
  g_autoptr (WsChart) line = ws_chart_new (WS_CHART_LINE);
  guint p = ws_chart_add_series (line, "a,b", 0);
  ws_chart_series_add_point (line, p, 1, 2.5);
  ws_chart_series_add_point (line, p, 2, 4);
  guint m = ws_chart_add_series (line, "measured", WS_CHART_SERIES_MEASURED);
  ws_chart_series_add_point (line, m, 2, 5);
  ws_chart_annotate_rel_errors (line, m);
  g_autofree char *csv = ws_chart_to_csv (line);
  g_assert_cmpstr (csv, ==, "series,x,y,rel_error\n\"a,b\",1,2.5,\n\"a,b\",2,4,-0.2\nmeasured,2,5,\n");

  g_autoptr (WsChart) bars = ws_chart_new (WS_CHART_STACKED);
  ws_chart_add_series (bars, "BASE", 0);
  ws_chart_add_series (bars, "DRAM", 0);
  guint b0 = ws_chart_add_bar (bars, "gpumech #0"), b1 = ws_chart_add_bar (bars, "ake #0");
  ws_chart_set_bar_value (bars, b0, 0, 1);
  ws_chart_set_bar_value (bars, b0, 1, 2.5);
  ws_chart_set_bar_value (bars, b1, 0, 1.5);
  g_autofree char *bcsv = ws_chart_to_csv (bars);
  g_assert_cmpstr (bcsv, ==, "bar,BASE,DRAM,total\ngpumech #0,1,2.5,3.5\nake #0,1.5,0,1.5\n");

  g_autoptr (WsChart) heat = ws_chart_new (WS_CHART_HEATMAP);
  const double mat[] = { 1, 2, 3, 4, 5, 6 };
  ws_chart_set_matrix (heat, 2, 3, mat);
  g_autofree char *hcsv = ws_chart_to_csv (heat);
  g_assert_cmpstr (hcsv, ==, "row,column,value\n0,0,1\n0,1,2\n0,2,3\n1,0,4\n1,1,5\n1,2,6\n");

  g_autoptr (WsChart) gantt = ws_chart_new (WS_CHART_GANTT);
  guint k = ws_chart_add_series (gantt, "kernel", 0);
  ws_chart_add_span (gantt, "gpu0", k, 0.001, 0.0025, "saxpy");
  g_autofree char *gcsv = ws_chart_to_csv (gantt);
  g_assert_cmpstr (gcsv, ==, "row,series,label,start,end\ngpu0,kernel,saxpy,0.001,0.0025\n");

  g_autoptr (WsChart) tb = ws_chart_new (WS_CHART_TBPOINT);
  guint r = ws_chart_add_series (tb, "region 0", 0);
  ws_chart_series_add_point_full (tb, r, 0, 3000, 0);
  ws_chart_series_add_point_full (tb, r, 1, 3100, WS_CHART_POINT_SKIPPED);
  g_autofree char *tcsv = ws_chart_to_csv (tb);
  g_assert_cmpstr (tcsv, ==, "tb,size,region,simulated\n0,3000,region 0,1\n1,3100,region 0,0\n");
}

static void
test_stacked_hit_test (void)
{
  g_autoptr (WsChart) chart = make_chart (WS_CHART_STACKED);
  /* bar 1: BASE 1.5, DEP 1.6, ...: a pixel at y = 2.0 is inside DEP */
  double px, py;
  ws_chart_data_to_pixel (chart, W, H, 1, 2.0, &px, &py);
  WsChartHit hit;
  g_assert_true (ws_chart_hit_test (chart, W, H, px, py, 0, &hit));
  g_assert_cmpint (hit.index, ==, 1);
  g_assert_cmpstr (ws_chart_series_get_name (chart, hit.series), ==, "DEP");
  g_assert_cmpfloat_with_epsilon (hit.value, 1.6, 1e-12);
  /* between bars: nothing */
  ws_chart_data_to_pixel (chart, W, H, 1.5, 2.0, &px, &py);
  g_assert_false (ws_chart_hit_test (chart, W, H, px, py, 0, &hit));
}

static void
test_heatmap_hit_test (void)
{
  g_autoptr (WsChart) chart = make_chart (WS_CHART_HEATMAP);
  double px, py;
  ws_chart_data_to_pixel (chart, W, H, 7, 3, &px, &py);
  WsChartHit hit;
  g_assert_true (ws_chart_hit_test (chart, W, H, px + 1, py - 1, 0, &hit));
  g_assert_cmpint (hit.row, ==, 3);
  g_assert_cmpint (hit.column, ==, 7);
  g_assert_cmpfloat (hit.value, ==, 21);
  /* row 0 is at the top */
  double px0, py0;
  ws_chart_data_to_pixel (chart, W, H, 7, 0, &px0, &py0);
  g_assert_cmpfloat (py0, <, py);
}

static void
test_gantt_hit_test (void)
{
  g_autoptr (WsChart) chart = make_chart (WS_CHART_GANTT);
  g_assert_cmpuint (ws_chart_get_n_rows (chart), ==, 2);
  g_assert_cmpuint (ws_chart_get_n_spans (chart), ==, 3);
  double px, py;
  ws_chart_data_to_pixel (chart, W, H, 3.2e-3, 0, &px, &py); /* row 0 = pcie0 */
  WsChartHit hit;
  g_assert_true (ws_chart_hit_test (chart, W, H, px, py, 0, &hit));
  g_assert_cmpint (hit.index, ==, 2);
  g_assert_cmpint (hit.row, ==, 0);
  g_autofree char *tip = ws_chart_describe_hit (chart, &hit);
  g_assert_nonnull (strstr (tip, "copy out"));
  g_assert_nonnull (strstr (tip, "pcie0"));
  ws_chart_data_to_pixel (chart, W, H, 2e-3, 0, &px, &py); /* pcie0 idle at 2 ms */
  g_assert_false (ws_chart_hit_test (chart, W, H, px, py, 0, &hit));
}

static void
test_tbpoint_hit_test (void)
{
  g_autoptr (WsChart) chart = make_chart (WS_CHART_TBPOINT);
  double px, py;
  ws_chart_data_to_pixel (chart, W, H, 52, 1000, &px, &py);
  WsChartHit hit;
  g_assert_true (ws_chart_hit_test (chart, W, H, px, py, 2, &hit));
  g_assert_cmpstr (ws_chart_series_get_name (chart, hit.series), ==, "region 1");
  g_assert_cmpfloat (hit.x, ==, 52);
  g_assert_cmpfloat (hit.y, ==, 5000);
  g_autofree char *tip = ws_chart_describe_hit (chart, &hit);
  g_assert_nonnull (strstr (tip, "simulated"));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/chart/ticks/linear-1-2-5", test_ticks_linear);
  g_test_add_func ("/chart/ticks/log-decades", test_ticks_log);
  g_test_add_func ("/chart/format/si-suffixes", test_format_units);
  g_test_add_func ("/chart/colour/palette-and-cpi", test_palette);
  g_test_add_func ("/chart/hit-test/nearest-point", test_hit_test_nearest);
  g_test_add_func ("/chart/hit-test/log-axes", test_hit_test_log_axes);
  g_test_add_func ("/chart/hit-test/stacked-segment", test_stacked_hit_test);
  g_test_add_func ("/chart/hit-test/heatmap-cell", test_heatmap_hit_test);
  g_test_add_func ("/chart/hit-test/gantt-span", test_gantt_hit_test);
  g_test_add_func ("/chart/hit-test/tbpoint-bar", test_tbpoint_hit_test);
  g_test_add_func ("/chart/legend/hit-test", test_legend_hit_test);
  g_test_add_func ("/chart/draw/hidden-series-not-drawn", test_hidden_series_not_drawn);
  g_test_add_func ("/chart/view/zoom-pan", test_zoom_pan);
  g_test_add_func ("/chart/view/size-independent", test_view_size_independent);
  g_test_add_func ("/chart/annotate/relative-error", test_rel_errors);
  g_test_add_func ("/chart/export/png-svg-pdf-every-kind", test_export_all_kinds);
  g_test_add_func ("/chart/export/errors", test_export_errors);
  g_test_add_func ("/chart/export/csv-content", test_csv_content);
  return g_test_run ();
}
