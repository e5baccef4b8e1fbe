/* warpscope-cli plot: draws a chart from JSON or CSV and exports it
 * (PNG, SVG, PDF or the chart's data as CSV) with the headless chart module,
 * so scripts get the same pictures the GUI shows.
 *
 * Inputs (docs/charts.md): the generic chart JSON (series, bars, matrix,
 * operations, tbs), the output of `predict --json` (CPI stacks) and of
 * `model run --json` (sweeps and operation timelines), or CSV tables. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <glib/gi18n.h>

#include "ws-cli.h"
#include "base/ws-json.h"
#include "chart/ws-chart.h"
#include "measure/ws-measure.h"

int ws_cli_cmd_plot (WsCli *cli, int argc, char **argv);

typedef struct {
  WsCli *cli;
  WsChart *chart;
  const char *x_var;   /* --x */
  int run;             /* --run */
  char *default_title; /* from the input, used when --title is absent */
  char *x_title, *y_title;
} PlotCtx;

static gboolean
fail (GError **error, const char *path, const char *what)
{
  g_set_error (error, WS_ERROR, WS_ERROR_INVALID, "%s: %s", path, what);
  return FALSE;
}

/* Members that may be absent (json-glib warns on a missing one). */
static JsonArray *
get_array (JsonObject *o, const char *name)
{
  JsonNode *n = o ? json_object_get_member (o, name) : NULL;
  return n && JSON_NODE_HOLDS_ARRAY (n) ? json_node_get_array (n) : NULL;
}

static JsonObject *
get_object (JsonObject *o, const char *name)
{
  JsonNode *n = o ? json_object_get_member (o, name) : NULL;
  return n && JSON_NODE_HOLDS_OBJECT (n) ? json_node_get_object (n) : NULL;
}

static JsonObject *
elem_object (JsonArray *a, guint i)
{
  JsonNode *n = a && i < json_array_get_length (a) ? json_array_get_element (a, i) : NULL;
  return n && JSON_NODE_HOLDS_OBJECT (n) ? json_node_get_object (n) : NULL;
}

static JsonArray *
elem_array (JsonArray *a, guint i)
{
  JsonNode *n = a && i < json_array_get_length (a) ? json_array_get_element (a, i) : NULL;
  return n && JSON_NODE_HOLDS_ARRAY (n) ? json_node_get_array (n) : NULL;
}

/* A number element, NaN for anything else. */
static double
elem_double (JsonArray *a, guint i)
{
  JsonNode *n = a && i < json_array_get_length (a) ? json_array_get_element (a, i) : NULL;
  if (n == NULL || !JSON_NODE_HOLDS_VALUE (n))
    return NAN;
  GType t = json_node_get_value_type (n);
  return t == G_TYPE_DOUBLE || t == G_TYPE_INT64 ? json_node_get_double (n) : NAN;
}

static WsChartUnit
unit_from_name (const char *name)
{
  if (g_strcmp0 (name, "seconds") == 0 || g_strcmp0 (name, "s") == 0)
    return WS_CHART_UNIT_SECONDS;
  if (g_strcmp0 (name, "bytes") == 0 || g_strcmp0 (name, "B") == 0)
    return WS_CHART_UNIT_BYTES;
  return WS_CHART_UNIT_NONE;
}

static double
member_double (JsonObject *o, const char *name, double fallback)
{
  JsonNode *n = json_object_get_member (o, name);
  if (n == NULL || JSON_NODE_TYPE (n) != JSON_NODE_VALUE)
    return fallback;
  GType t = json_node_get_value_type (n);
  if (t == G_TYPE_DOUBLE || t == G_TYPE_INT64 || t == G_TYPE_BOOLEAN)
    return json_node_get_double (n);
  return fallback;
}

static const char *
member_string (JsonObject *o, const char *name)
{
  JsonNode *n = json_object_get_member (o, name);
  if (n == NULL || JSON_NODE_TYPE (n) != JSON_NODE_VALUE || json_node_get_value_type (n) != G_TYPE_STRING)
    return NULL;
  return json_node_get_string (n);
}

/* A JSON scalar as text: region ids may be numbers or names. */
static char *
member_text (JsonObject *o, const char *name)
{
  JsonNode *n = json_object_get_member (o, name);
  if (n == NULL || JSON_NODE_TYPE (n) != JSON_NODE_VALUE)
    return NULL;
  if (json_node_get_value_type (n) == G_TYPE_STRING)
    return g_strdup (json_node_get_string (n));
  double v = json_node_get_double (n);
  return v == floor (v) ? g_strdup_printf ("%.0f", v) : g_strdup_printf ("%g", v);
}

static gboolean
kind_is (PlotCtx *ctx, WsChartKind k1, WsChartKind k2)
{
  WsChartKind k = ws_chart_get_kind (ctx->chart);
  return k == k1 || k == k2;
}

static gboolean
wrong_kind (const char *path, const char *shape, const char *kinds, GError **error)
{
  g_autofree char *msg = g_strdup_printf (_ ("holds %s, which plots as %s"), shape, kinds);
  return fail (error, path, msg);
}

/* ---- the generic chart JSON ------------------------------------------------ */

static gboolean
load_generic_series (PlotCtx *ctx, const char *path, JsonArray *series, GError **error)
{
  if (!kind_is (ctx, WS_CHART_LINE, WS_CHART_SCATTER))
    return wrong_kind (path, "\"series\"", "line or scatter", error);
  for (guint i = 0; i < json_array_get_length (series); i++)
    {
      JsonObject *so = elem_object (series, i);
      JsonArray *pts = so ? get_array (so, "points") : NULL;
      if (so == NULL || pts == NULL)
        return fail (error, path, _ ("every element of \"series\" needs \"name\" and \"points\""));
      gboolean measured = member_double (so, "measured", 0) != 0;
      const char *name = member_string (so, "name");
      g_autofree char *fallback = g_strdup_printf (_ ("series %u"), i + 1);
      guint s = ws_chart_add_series (ctx->chart, name ? name : fallback, measured ? WS_CHART_SERIES_MEASURED : 0);
      WsChartColor c;
      if (ws_chart_color_parse (member_string (so, "color"), &c))
        ws_chart_series_set_color (ctx->chart, s, c);
      for (guint j = 0; j < json_array_get_length (pts); j++)
        {
          JsonNode *pn = json_array_get_element (pts, j);
          double x, y, err = NAN;
          if (JSON_NODE_HOLDS_ARRAY (pn) && json_array_get_length (json_node_get_array (pn)) >= 2)
            {
              x = elem_double (json_node_get_array (pn), 0);
              y = elem_double (json_node_get_array (pn), 1);
            }
          else if (JSON_NODE_HOLDS_OBJECT (pn))
            {
              JsonObject *po = json_node_get_object (pn);
              x = member_double (po, "x", NAN);
              y = member_double (po, "y", NAN);
              err = member_double (po, "error", NAN);
            }
          else
            return fail (error, path, _ ("a point is [x, y] or {\"x\":…, \"y\":…, \"error\":…}"));
          if (!isfinite (x) || !isfinite (y))
            {
              g_autofree char *msg = g_strdup_printf (_ ("series \"%s\", point %u has no numeric x and y"),
                                                      ws_chart_series_get_name (ctx->chart, s), j);
              return fail (error, path, msg);
            }
          guint k = ws_chart_series_add_point (ctx->chart, s, x, y);
          if (isfinite (err))
            ws_chart_series_set_rel_error (ctx->chart, s, k, err);
        }
    }
  /* a measured series in the input annotates the others with their error */
  for (guint s = 0; s < ws_chart_get_n_series (ctx->chart); s++)
    if (ws_chart_series_get_flags (ctx->chart, s) & WS_CHART_SERIES_MEASURED)
      ws_chart_annotate_rel_errors (ctx->chart, s);
  return TRUE;
}

static guint
series_for (WsChart *chart, const char *name)
{
  int s = ws_chart_find_series (chart, name);
  return s >= 0 ? (guint) s : ws_chart_add_series (chart, name, 0);
}

static gboolean
load_bars (PlotCtx *ctx, const char *path, JsonObject *root, JsonArray *bars, GError **error)
{
  if (!kind_is (ctx, WS_CHART_STACKED, WS_CHART_STACKED))
    return wrong_kind (path, "\"bars\"", "stacked", error);
  JsonArray *cats = get_array (root, "categories");
  for (guint i = 0; cats != NULL && i < json_array_get_length (cats); i++)
    {
      JsonNode *n = json_array_get_element (cats, i);
      if (JSON_NODE_HOLDS_VALUE (n) && json_node_get_value_type (n) == G_TYPE_STRING)
        series_for (ctx->chart, json_node_get_string (n));
    }
  for (guint i = 0; i < json_array_get_length (bars); i++)
    {
      JsonObject *bo = elem_object (bars, i);
      JsonObject *vals = bo ? get_object (bo, "values") : NULL;
      if (vals == NULL)
        return fail (error, path, _ ("every element of \"bars\" needs \"label\" and \"values\""));
      const char *label = member_string (bo, "label");
      g_autofree char *fallback = g_strdup_printf ("%u", i + 1);
      guint b = ws_chart_add_bar (ctx->chart, label ? label : fallback);
      g_autoptr (GList) names = json_object_get_members (vals);
      for (GList *l = names; l; l = l->next)
        ws_chart_set_bar_value (ctx->chart, b, series_for (ctx->chart, l->data), member_double (vals, l->data, 0));
    }
  return TRUE;
}

static gboolean
load_matrix (PlotCtx *ctx, const char *path, JsonArray *m, GError **error)
{
  if (!kind_is (ctx, WS_CHART_HEATMAP, WS_CHART_HEATMAP))
    return wrong_kind (path, "\"matrix\"", "heatmap", error);
  guint rows = json_array_get_length (m), cols = 0;
  for (guint r = 0; r < rows; r++)
    {
      JsonArray *row = elem_array (m, r);
      if (row == NULL)
        return fail (error, path, _ ("\"matrix\" is an array of rows of numbers"));
      cols = MAX (cols, json_array_get_length (row));
    }
  if (rows == 0 || cols == 0)
    return fail (error, path, _ ("\"matrix\" is empty"));
  g_autofree double *v = g_new (double, (gsize) rows *cols);
  for (guint r = 0; r < rows; r++)
    {
      JsonArray *row = elem_array (m, r);
      for (guint c = 0; c < cols; c++)
        {
          v[(gsize) r * cols + c] = elem_double (row, c);
        }
    }
  ws_chart_set_matrix (ctx->chart, rows, cols, v);
  return TRUE;
}

/* Operations of `model run` ({label, op, component, name?, start, end}). */
static gboolean
load_operations (PlotCtx *ctx, const char *path, JsonArray *ops, GError **error)
{
  if (!kind_is (ctx, WS_CHART_GANTT, WS_CHART_GANTT))
    return wrong_kind (path, "\"operations\"", "gantt", error);
  ws_chart_set_axis_unit (ctx->chart, WS_CHART_AXIS_X, WS_CHART_UNIT_SECONDS);
  for (guint i = 0; i < json_array_get_length (ops); i++)
    {
      JsonObject *o = elem_object (ops, i);
      const char *component = o ? member_string (o, "component") : NULL;
      double start = o ? member_double (o, "start", NAN) : NAN, end = o ? member_double (o, "end", NAN) : NAN;
      if (component == NULL || !isfinite (start) || !isfinite (end))
        {
          g_autofree char *msg = g_strdup_printf (_ ("operation %u needs \"component\", \"start\" and \"end\""), i);
          return fail (error, path, msg);
        }
      const char *op = member_string (o, "op");
      const char *label = member_string (o, "label"), *name = member_string (o, "name");
      g_autofree char *text = name && label ? g_strdup_printf ("%s %s", label, name) : g_strdup (name ? name : label);
      ws_chart_add_span (ctx->chart, component, series_for (ctx->chart, op ? op : _ ("operation")), start, end, text);
    }
  if (ctx->x_title == NULL)
    ctx->x_title = g_strdup (_ ("Time"));
  return TRUE;
}

static gboolean
load_tbs (PlotCtx *ctx, const char *path, JsonObject *root, JsonArray *tbs, GError **error)
{
  if (!kind_is (ctx, WS_CHART_TBPOINT, WS_CHART_TBPOINT))
    return wrong_kind (path, "\"tbs\"", "tbpoint", error);
  guint simulated = 0;
  for (guint i = 0; i < json_array_get_length (tbs); i++)
    {
      JsonObject *o = elem_object (tbs, i);
      double id = o ? member_double (o, "id", i) : NAN, size = o ? member_double (o, "size", NAN) : NAN;
      if (!isfinite (size))
        {
          g_autofree char *msg = g_strdup_printf (_ ("TB record %u needs \"size\""), i);
          return fail (error, path, msg);
        }
      g_autofree char *region = member_text (o, "region");
      /* Region -1 (the view's outliers, in no region) gets a name of its own. */
      g_autofree char *name = region != NULL && region[0] == '-'
                                ? g_strdup (_ ("no region"))
                                : g_strdup_printf (_ ("region %s"), region ? region : "0");
      gboolean sim = !json_object_has_member (o, "simulated") || member_double (o, "simulated", 1) != 0;
      simulated += sim;
      ws_chart_series_add_point_full (ctx->chart, series_for (ctx->chart, name), id, size,
                                      sim ? 0 : WS_CHART_POINT_SKIPPED);
    }
  /* "sample_fraction" is in warp instructions (simulate, tbpoint view);
   * without it the share of simulated TBs is given. */
  double err = member_double (root, "error", NAN), frac = member_double (root, "sample_fraction", NAN);
  gboolean of_tbs = !isfinite (frac);
  if (of_tbs)
    frac = json_array_get_length (tbs) > 0 ? (double) simulated / json_array_get_length (tbs) : 0;
  g_autofree char *sub = NULL;
  if (isfinite (err))
    sub = of_tbs ? g_strdup_printf (_ ("error %.2f %%, sample size %.1f %% of TBs"), fabs (err) * 100, frac * 100)
                 : g_strdup_printf (_ ("error %.2f %%, sample size %.1f %% of warp instructions"), fabs (err) * 100,
                                    frac * 100);
  else
    sub = of_tbs ? g_strdup_printf (_ ("sample size %.1f %% of TBs"), frac * 100)
                 : g_strdup_printf (_ ("sample size %.1f %% of warp instructions"), frac * 100);
  if (member_string (root, "subtitle") == NULL)
    ws_chart_set_subtitle (ctx->chart, sub);
  if (ctx->x_title == NULL)
    ctx->x_title = g_strdup (_ ("TB id"));
  if (ctx->y_title == NULL)
    ctx->y_title = g_strdup (_ ("TB size (warp instructions)"));
  return TRUE;
}

/* ---- outputs of other commands ----------------------------------------------- */

/* `predict --json`: one model object or an array of them; one bar per launch. */
static gboolean
load_predict (PlotCtx *ctx, const char *path, JsonArray *models, GError **error)
{
  if (!kind_is (ctx, WS_CHART_STACKED, WS_CHART_STACKED))
    return wrong_kind (path, _ ("predictions"), "stacked", error);
  guint n = json_array_get_length (models);
  for (guint m = 0; m < n; m++)
    {
      JsonObject *mo = elem_object (models, m);
      JsonArray *launches = mo ? get_array (mo, "launches") : NULL;
      if (launches == NULL)
        return fail (error, path, _ ("a prediction needs \"launches\""));
      const char *model = member_string (mo, "model");
      if (ctx->default_title == NULL && member_string (mo, "gpu"))
        ctx->default_title = g_strdup_printf (_ ("CPI stack on %s"), member_string (mo, "gpu"));
      guint nl = json_array_get_length (launches);
      for (guint i = 0; i < nl; i++)
        {
          JsonObject *lo = elem_object (launches, i);
          JsonObject *stack = lo ? get_object (lo, "cpi_stack") : NULL;
          if (stack == NULL)
            continue;
          const char *kernel = member_string (lo, "kernel");
          g_autofree char *label = NULL;
          if (n > 1 && nl > 1)
            label = g_strdup_printf ("%s #%.0f", model ? model : "?", member_double (lo, "index", i));
          else if (n > 1)
            label = g_strdup (model ? model : "?");
          else
            label = g_strdup_printf ("#%.0f %s", member_double (lo, "index", i), kernel ? kernel : "");
          guint b = ws_chart_add_bar (ctx->chart, label);
          g_autoptr (GList) names = json_object_get_members (stack);
          for (GList *l = names; l; l = l->next)
            ws_chart_set_bar_value (ctx->chart, b, series_for (ctx->chart, l->data), member_double (stack, l->data, 0));
        }
    }
  if (ws_chart_get_n_bars (ctx->chart) == 0)
    return fail (error, path, _ ("no launch has a \"cpi_stack\""));
  if (ctx->y_title == NULL)
    ctx->y_title = g_strdup (_ ("Cycles per warp instruction"));
  return TRUE;
}

/* `model run --json`: line of total_seconds against --x, or a Gantt of run --run. */
static gboolean
load_model_run (PlotCtx *ctx, const char *path, JsonObject *root, JsonArray *runs, GError **error)
{
  const char *app = member_string (root, "app"), *system = member_string (root, "system");
  if (ctx->default_title == NULL && app && system)
    ctx->default_title = g_strdup_printf (_ ("%s on %s"), app, system);
  guint n = json_array_get_length (runs);
  if (kind_is (ctx, WS_CHART_GANTT, WS_CHART_GANTT))
    {
      if (ctx->run < 0 || (guint) ctx->run >= n)
        {
          g_autofree char *msg = g_strdup_printf (_ ("has %u runs; there is no run %d (--run)"), n, ctx->run);
          return fail (error, path, msg);
        }
      JsonObject *ro = elem_object (runs, ctx->run);
      JsonArray *ops = ro ? get_array (ro, "operations") : NULL;
      if (ops == NULL)
        return fail (error, path, _ ("the chosen run has no \"operations\" (did it fail?)"));
      return load_operations (ctx, path, ops, error);
    }
  if (!kind_is (ctx, WS_CHART_LINE, WS_CHART_SCATTER))
    return wrong_kind (path, _ ("model runs"), "line, scatter or gantt", error);
  const char *var = ctx->x_var;
  if (var == NULL)
    {
      /* the one variable that takes more than one value */
      JsonObject *v0 = n ? get_object (elem_object (runs, 0), "variables") : NULL;
      g_autoptr (GList) names = v0 ? json_object_get_members (v0) : NULL;
      guint varying = 0;
      for (GList *l = names; l; l = l->next)
        for (guint i = 1; i < n; i++)
          {
            JsonObject *vi = get_object (elem_object (runs, i), "variables");
            if (vi && member_double (vi, l->data, NAN) != member_double (v0, l->data, NAN))
              {
                var = l->data;
                varying++;
                break;
              }
          }
      if (varying != 1)
        return fail (error, path, _ ("choose the swept variable with --x VAR"));
      var = g_intern_string (var);
    }
  const char *pred = member_string (root, "predictor");
  g_autofree char *base = g_path_get_basename (path);
  guint s = series_for (ctx->chart, pred ? pred : base);
  for (guint i = 0; i < n; i++)
    {
      JsonObject *ro = elem_object (runs, i);
      JsonObject *vars = ro ? get_object (ro, "variables") : NULL;
      if (ro == NULL || member_double (ro, "ok", 1) == 0)
        continue;
      double x = vars ? member_double (vars, var, NAN) : NAN, y = member_double (ro, "total_seconds", NAN);
      if (!isfinite (x))
        {
          g_autofree char *msg = g_strdup_printf (_ ("run %u has no variable '%s' (--x)"), i, var);
          return fail (error, path, msg);
        }
      if (isfinite (y))
        ws_chart_series_add_point (ctx->chart, s, x, y);
    }
  ws_chart_set_axis_unit (ctx->chart, WS_CHART_AXIS_Y, WS_CHART_UNIT_SECONDS);
  if (ctx->x_title == NULL)
    ctx->x_title = g_strdup (var);
  if (ctx->y_title == NULL)
    ctx->y_title = g_strdup (_ ("Time"));
  return TRUE;
}

static gboolean
load_json (PlotCtx *ctx, const char *path, GError **error)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  if (!ws_json_parser_load_file (parser, path, error))
    return FALSE;
  JsonNode *root = json_parser_get_root (parser);
  if (root != NULL && JSON_NODE_HOLDS_ARRAY (root))
    return load_predict (ctx, path, json_node_get_array (root), error);
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    return fail (error, path, _ ("expected a JSON object"));
  JsonObject *o = json_node_get_object (root);
  WsChart *chart = ctx->chart;
  if (member_string (o, "title") && ctx->default_title == NULL)
    ctx->default_title = g_strdup (member_string (o, "title"));
  if (member_string (o, "subtitle"))
    ws_chart_set_subtitle (chart, member_string (o, "subtitle"));
  if (member_string (o, "x_title") && ctx->x_title == NULL)
    ctx->x_title = g_strdup (member_string (o, "x_title"));
  if (member_string (o, "y_title") && ctx->y_title == NULL)
    ctx->y_title = g_strdup (member_string (o, "y_title"));
  if (member_string (o, "value_title"))
    ws_chart_set_value_title (chart, member_string (o, "value_title"));
  if (member_string (o, "x_unit"))
    ws_chart_set_axis_unit (chart, WS_CHART_AXIS_X, unit_from_name (member_string (o, "x_unit")));
  if (member_string (o, "y_unit"))
    ws_chart_set_axis_unit (chart, WS_CHART_AXIS_Y, unit_from_name (member_string (o, "y_unit")));
  if (member_double (o, "log_x", 0) != 0)
    ws_chart_set_axis_log (chart, WS_CHART_AXIS_X, TRUE);
  if (member_double (o, "log_y", 0) != 0)
    ws_chart_set_axis_log (chart, WS_CHART_AXIS_Y, TRUE);

  JsonArray *a;
  if ((a = get_array (o, "runs")) != NULL)
    return load_model_run (ctx, path, o, a, error);
  if ((a = get_array (o, "launches")) != NULL)
    {
      g_autoptr (JsonArray) one = json_array_new ();
      json_array_add_object_element (one, json_object_ref (o));
      return load_predict (ctx, path, one, error);
    }
  if ((a = get_array (o, "series")) != NULL)
    return load_generic_series (ctx, path, a, error);
  if ((a = get_array (o, "bars")) != NULL)
    return load_bars (ctx, path, o, a, error);
  if ((a = get_array (o, "matrix")) != NULL)
    return load_matrix (ctx, path, a, error);
  if ((a = get_array (o, "operations")) != NULL)
    return load_operations (ctx, path, a, error);
  if ((a = get_array (o, "tbs")) != NULL)
    return load_tbs (ctx, path, o, a, error);
  return fail (error, path,
               _ ("has none of \"series\", \"bars\", \"matrix\", \"operations\", \"tbs\", \"runs\", \"launches\""));
}

/* ---- CSV ------------------------------------------------------------------------ */

/* Splits one CSV line (RFC 4180 quotes, no embedded newlines). */
static GPtrArray *
csv_split (const char *line)
{
  GPtrArray *f = g_ptr_array_new_with_free_func (g_free);
  GString *cur = g_string_new (NULL);
  gboolean quoted = FALSE;
  for (const char *p = line;; p++)
    {
      if (quoted)
        {
          if (*p == '\0')
            break;
          if (*p == '"' && p[1] == '"')
            g_string_append_c (cur, '"'), p++;
          else if (*p == '"')
            quoted = FALSE;
          else
            g_string_append_c (cur, *p);
          continue;
        }
      if (*p == '"')
        quoted = TRUE;
      else if (*p == ',' || *p == '\0')
        {
          g_ptr_array_add (f, g_strdup (g_strstrip (cur->str)));
          g_string_truncate (cur, 0);
          if (*p == '\0')
            break;
        }
      else if (*p != '\r')
        g_string_append_c (cur, *p);
    }
  g_string_free (cur, TRUE);
  return f;
}

static gboolean
parse_number (const char *s, double *v)
{
  char *end;
  if (s == NULL || *s == '\0')
    return FALSE;
  *v = g_ascii_strtod (s, &end);
  return *end == '\0';
}

/* Rows of fields; the first is the header unless @numeric_only. */
static GPtrArray *
csv_read (const char *path, GError **error)
{
  g_autofree char *text = NULL;
  if (!g_file_get_contents (path, &text, NULL, error))
    return NULL;
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
  GPtrArray *rows = g_ptr_array_new_with_free_func ((GDestroyNotify) g_ptr_array_unref);
  for (guint i = 0; lines[i]; i++)
    {
      g_strstrip (lines[i]);
      if (lines[i][0] == '\0' || lines[i][0] == '#')
        continue;
      g_ptr_array_add (rows, csv_split (lines[i]));
    }
  if (rows->len == 0)
    {
      g_ptr_array_unref (rows);
      fail (error, path, _ ("the CSV file is empty"));
      return NULL;
    }
  return rows;
}

static int
csv_column (GPtrArray *header, const char *name)
{
  for (guint i = 0; i < header->len; i++)
    if (g_ascii_strcasecmp (header->pdata[i], name) == 0)
      return (int) i;
  return -1;
}

#define CELL(row, c) ((c) >= 0 && (guint) (c) < (row)->len ? (const char *) (row)->pdata[c] : NULL)

static gboolean
csv_bad_cell (const char *path, guint line, const char *what, GError **error)
{
  g_autofree char *msg = g_strdup_printf (_ ("row %u: %s"), line, what);
  return fail (error, path, msg);
}

static gboolean
load_csv (PlotCtx *ctx, const char *path, GError **error)
{
  g_autoptr (GPtrArray) rows = csv_read (path, error);
  if (rows == NULL)
    return FALSE;
  WsChart *chart = ctx->chart;
  GPtrArray *head = rows->pdata[0];
  double v;
  switch (ws_chart_get_kind (chart))
    {
    case WS_CHART_HEATMAP:
      {
        guint first = parse_number (CELL (head, 0), &v) ? 0 : 1, cols = 0, nrows = rows->len - first;
        for (guint r = first; r < rows->len; r++)
          cols = MAX (cols, ((GPtrArray *) rows->pdata[r])->len);
        if (nrows == 0 || cols == 0)
          return fail (error, path, _ ("no matrix rows"));
        g_autofree double *m = g_new (double, (gsize) nrows *cols);
        for (guint r = 0; r < nrows; r++)
          for (guint c = 0; c < cols; c++)
            if (!parse_number (CELL ((GPtrArray *) rows->pdata[r + first], (int) c), &m[(gsize) r * cols + c]))
              m[(gsize) r * cols + c] = NAN;
        ws_chart_set_matrix (chart, nrows, cols, m);
        return TRUE;
      }
    case WS_CHART_STACKED:
      for (guint r = 1; r < rows->len; r++)
        {
          GPtrArray *row = rows->pdata[r];
          guint b = ws_chart_add_bar (chart, CELL (row, 0));
          for (guint c = 1; c < head->len; c++)
            if (parse_number (CELL (row, (int) c), &v))
              ws_chart_set_bar_value (chart, b, series_for (chart, head->pdata[c]), v);
        }
      return TRUE;
    case WS_CHART_GANTT:
      {
        int cc = csv_column (head, "component"), cs = csv_column (head, "start"), ce = csv_column (head, "end");
        int co = csv_column (head, "op"), cl = csv_column (head, "label");
        if (cc < 0 || cs < 0 || ce < 0)
          return fail (error, path, _ ("a timeline CSV needs columns component,start,end (op and label optional)"));
        ws_chart_set_axis_unit (chart, WS_CHART_AXIS_X, WS_CHART_UNIT_SECONDS);
        for (guint r = 1; r < rows->len; r++)
          {
            GPtrArray *row = rows->pdata[r];
            double s, e;
            if (!parse_number (CELL (row, cs), &s) || !parse_number (CELL (row, ce), &e))
              return csv_bad_cell (path, r + 1, _ ("start and end must be numbers"), error);
            const char *op = CELL (row, co);
            ws_chart_add_span (chart, CELL (row, cc), series_for (chart, op && *op ? op : _ ("operation")), s, e,
                               CELL (row, cl));
          }
        return TRUE;
      }
    case WS_CHART_TBPOINT:
      {
        int ci = csv_column (head, "id"), cz = csv_column (head, "size"), cr = csv_column (head, "region");
        int cm = csv_column (head, "simulated");
        if (ci < 0 || cz < 0)
          return fail (error, path, _ ("a TBPoint CSV needs columns id,size (region and simulated optional)"));
        for (guint r = 1; r < rows->len; r++)
          {
            GPtrArray *row = rows->pdata[r];
            double id, size, sim = 1;
            if (!parse_number (CELL (row, ci), &id) || !parse_number (CELL (row, cz), &size))
              return csv_bad_cell (path, r + 1, _ ("id and size must be numbers"), error);
            if (cm >= 0 && !parse_number (CELL (row, cm), &sim))
              sim = g_ascii_strcasecmp (CELL (row, cm) ? CELL (row, cm) : "", "true") == 0;
            const char *region = CELL (row, cr);
            g_autofree char *name = g_strdup_printf (_ ("region %s"), region && *region ? region : "0");
            ws_chart_series_add_point_full (chart, series_for (chart, name), id, size,
                                            sim != 0 ? 0 : WS_CHART_POINT_SKIPPED);
          }
        if (ctx->x_title == NULL)
          ctx->x_title = g_strdup (_ ("TB id"));
        if (ctx->y_title == NULL)
          ctx->y_title = g_strdup (_ ("TB size (warp instructions)"));
        return TRUE;
      }
    default:
      /* x, then one column per series */
      if (head->len < 2)
        return fail (error, path, _ ("a line or scatter CSV has a header x,SERIES[,SERIES…]"));
      for (guint c = 1; c < head->len; c++)
        series_for (chart, head->pdata[c]);
      for (guint r = 1; r < rows->len; r++)
        {
          GPtrArray *row = rows->pdata[r];
          double x;
          if (!parse_number (CELL (row, 0), &x))
            return csv_bad_cell (path, r + 1, _ ("the first column must be a number"), error);
          for (guint c = 1; c < head->len; c++)
            if (parse_number (CELL (row, (int) c), &v))
              ws_chart_series_add_point (chart, (guint) ws_chart_find_series (chart, head->pdata[c]), x, v);
        }
      if (ctx->x_title == NULL)
        ctx->x_title = g_strdup (head->pdata[0]);
      return TRUE;
    }
}

/* --measured FILE.csv: columns x (or the swept variable's name) and
 * seconds, by name, in any order (core/measure reads them, as the GUI does). */
static gboolean
load_measured (PlotCtx *ctx, const char *path, GError **error)
{
  g_autoptr (GArray) times = ws_measure_times_load (path, ctx->x_var != NULL ? ctx->x_var : ctx->x_title, error);
  if (times == NULL)
    return FALSE;
  ws_measure_times_add_series (ctx->chart, _ ("measured"), times);
  return TRUE;
}

int
ws_cli_cmd_plot (WsCli *cli, int argc, char **argv)
{
  g_auto (GStrv) inputs = NULL, hide = NULL;
  g_autofree char *output = NULL, *title = NULL, *subtitle = NULL, *x_var = NULL, *measured = NULL;
  g_autofree char *x_title = NULL, *y_title = NULL;
  gboolean log_x = FALSE, log_y = FALSE;
  int width = 900, height = 560, run = 0;
  const GOptionEntry entries[] = {
    { "input", 'i', 0, G_OPTION_ARG_FILENAME_ARRAY, &inputs,
      N_ ("Data: chart JSON, predict/model run --json output, or CSV (repeatable)"), "FILE" },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output, N_ ("Output file: .png, .svg, .pdf or .csv"), "OUT" },
    { "title", 0, 0, G_OPTION_ARG_STRING, &title, N_ ("Chart title"), "T" },
    { "subtitle", 0, 0, G_OPTION_ARG_STRING, &subtitle, N_ ("Line under the title"), "S" },
    { "x-title", 0, 0, G_OPTION_ARG_STRING, &x_title, N_ ("X axis title"), "T" },
    { "y-title", 0, 0, G_OPTION_ARG_STRING, &y_title, N_ ("Y axis title"), "T" },
    { "log-x", 0, 0, G_OPTION_ARG_NONE, &log_x, N_ ("Logarithmic x axis"), NULL },
    { "log-y", 0, 0, G_OPTION_ARG_NONE, &log_y, N_ ("Logarithmic y axis"), NULL },
    { "width", 0, 0, G_OPTION_ARG_INT, &width, N_ ("Width in pixels (PNG) or points (SVG, PDF); default 900"), "W" },
    { "height", 0, 0, G_OPTION_ARG_INT, &height, N_ ("Height; default 560"), "H" },
    { "x", 0, 0, G_OPTION_ARG_STRING, &x_var, N_ ("model run input: the swept variable on the x axis"), "VAR" },
    { "run", 0, 0, G_OPTION_ARG_INT, &run, N_ ("model run input, gantt: which run (default 0)"), "N" },
    { "measured", 0, 0, G_OPTION_ARG_FILENAME, &measured,
      N_ ("Measured times (CSV with columns x or the swept variable, and seconds) overlaid with relative errors"),
      "FILE.csv" },
    { "hide", 0, 0, G_OPTION_ARG_STRING_ARRAY, &hide, N_ ("Hide a series (legend entry stays, greyed; repeatable)"),
      "NAME" },
    { NULL }
  };
  if (!ws_cli_parse_options (cli, &argc, &argv, entries, "KIND",
                             _ ("Draws a chart and exports it. KIND is line, scatter, stacked, heatmap, gantt or "
                                "tbpoint. Input formats are described in docs/charts.md.")))
    return WS_EXIT_USAGE;
  if (argc < 2)
    return ws_cli_fail (cli, WS_EXIT_USAGE, "%s",
                        _ ("KIND is required: line, scatter, stacked, heatmap, gantt or tbpoint"));
  if (argc > 2)
    return ws_cli_fail (cli, WS_EXIT_USAGE, _ ("unexpected argument '%s'"), argv[2]);
  WsChartKind kind;
  if (!ws_chart_kind_from_name (argv[1], &kind))
    return ws_cli_fail (cli, WS_EXIT_USAGE,
                        _ ("unknown chart kind '%s'; use line, scatter, stacked, heatmap, gantt or tbpoint"), argv[1]);
  if (inputs == NULL || output == NULL)
    return ws_cli_fail (cli, WS_EXIT_USAGE, "%s", _ ("--input FILE and -o OUT are required"));
  WsChartFormat format;
  if (!ws_chart_format_from_path (output, &format))
    return ws_cli_fail (cli, WS_EXIT_USAGE, _ ("cannot tell the format of '%s': use .png, .svg, .pdf or .csv"), output);
  if (measured != NULL && kind != WS_CHART_LINE && kind != WS_CHART_SCATTER)
    return ws_cli_fail (cli, WS_EXIT_USAGE, "%s", _ ("--measured applies to line and scatter charts"));

  g_autoptr (WsChart) chart = ws_chart_new (kind);
  PlotCtx ctx = { cli, chart, x_var, run, NULL, g_steal_pointer (&x_title), g_steal_pointer (&y_title) };
  g_autoptr (GError) error = NULL;
  gboolean ok = TRUE;
  for (guint i = 0; ok && inputs[i]; i++)
    {
      g_autofree char *lower = g_ascii_strdown (inputs[i], -1);
      ok = g_str_has_suffix (lower, ".csv") ? load_csv (&ctx, inputs[i], &error) : load_json (&ctx, inputs[i], &error);
    }
  if (ok && measured != NULL)
    ok = load_measured (&ctx, measured, &error);
  int rc = WS_EXIT_OK;
  if (!ok)
    rc = ws_cli_fail_error (cli, error);
  else
    {
      for (guint i = 0; hide && hide[i]; i++)
        {
          int s = ws_chart_find_series (chart, hide[i]);
          if (s < 0)
            {
              rc = ws_cli_fail (cli, WS_EXIT_USAGE, _ ("--hide: there is no series '%s'"), hide[i]);
              break;
            }
          ws_chart_series_set_visible (chart, s, FALSE);
        }
    }
  if (rc == WS_EXIT_OK)
    {
      ws_chart_set_title (chart, title ? title : ctx.default_title);
      if (subtitle)
        ws_chart_set_subtitle (chart, subtitle);
      ws_chart_set_axis_title (chart, WS_CHART_AXIS_X, ctx.x_title);
      ws_chart_set_axis_title (chart, WS_CHART_AXIS_Y, ctx.y_title);
      if (log_x)
        ws_chart_set_axis_log (chart, WS_CHART_AXIS_X, TRUE);
      if (log_y)
        ws_chart_set_axis_log (chart, WS_CHART_AXIS_Y, TRUE);
      if (!ws_chart_export (chart, output, format, width, height, &error))
        rc = ws_cli_fail_error (cli, error);
    }
  if (rc == WS_EXIT_OK && cli->json)
    {
      g_autoptr (JsonBuilder) b = json_builder_new ();
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "output");
      json_builder_add_string_value (b, output);
      json_builder_set_member_name (b, "kind");
      json_builder_add_string_value (b, ws_chart_kind_name (kind));
      json_builder_set_member_name (b, "series");
      json_builder_begin_array (b);
      for (guint s = 0; s < ws_chart_get_n_series (chart); s++)
        json_builder_add_string_value (b, ws_chart_series_get_name (chart, s));
      json_builder_end_array (b);
      json_builder_end_object (b);
      g_autoptr (JsonNode) node = json_builder_get_root (b);
      ws_cli_print_json (cli, node);
    }
  else if (rc == WS_EXIT_OK)
    ws_cli_info (cli, _ ("wrote %s"), output);
  g_free (ctx.default_title);
  g_free (ctx.x_title);
  g_free (ctx.y_title);
  return rc;
}
