/* ws-measure-times.c: measured times of a sweep, read from CSV by column
 * name, and their overlay on a sweep chart (ws-measure.h).  The one reader
 * behind `warpscope-cli plot --measured` and the GUI's Results page. */
#include "measure/ws-measure.h"
#include "base/ws-csv.h"

#include <glib/gi18n-lib.h>

/* Which column holds x: "x", else the swept variable's name, else in a
 * two-column file the one that is not "seconds".  -1 with an error naming
 * the header's file:line:column otherwise. */
static int
x_column (const WsCsvTable *t, int seconds, const char *x_name, GError **error)
{
  int c = ws_csv_table_find_column (t, "x");
  if (c < 0 && x_name != NULL && *x_name != '\0')
    c = ws_csv_table_find_column (t, x_name);
  if (c < 0 && ws_csv_table_get_n_columns (t) == 2)
    c = seconds == 0 ? 1 : 0;
  if (c < 0)
    {
      g_autoptr (GString) have = g_string_new (NULL);
      for (guint i = 0; i < ws_csv_table_get_n_columns (t); i++)
        g_string_append_printf (have, "%s%s", i ? ", " : "", ws_csv_table_get_column_name (t, (int) i));
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID, _ ("%s:%u:1: no x column: name it x%s%s (it has: %s)"),
                   ws_csv_table_get_filename (t), ws_csv_table_get_header_line (t),
                   x_name != NULL && *x_name ? " or " : "", x_name != NULL ? x_name : "", have->str);
    }
  return c;
}

GArray *
ws_measure_times_parse (const char *text, gsize length, const char *filename, const char *x_name, GError **error)
{
  g_return_val_if_fail (text != NULL, NULL);
  g_autoptr (WsCsvTable) t = ws_csv_table_parse (text, length, filename, error);
  if (t == NULL)
    return NULL;
  int cs = ws_csv_table_require_column (t, "seconds", error);
  if (cs < 0)
    return NULL;
  int cx = x_column (t, cs, x_name, error);
  if (cx < 0)
    return NULL;
  g_autoptr (GArray) times = g_array_new (FALSE, FALSE, sizeof (WsMeasuredTime));
  for (guint r = 0; r < ws_csv_table_get_n_rows (t); r++)
    {
      WsMeasuredTime m;
      GError *local = NULL;
      gboolean has_x = ws_csv_table_get_double (t, r, cx, &m.x, &local);
      gboolean has_s = local == NULL && ws_csv_table_get_double (t, r, cs, &m.seconds, &local);
      if (local != NULL)
        {
          g_propagate_error (error, local);
          return NULL;
        }
      if (!has_x || !has_s)
        {
          g_set_error (error, WS_ERROR, WS_ERROR_PARSE, _ ("%s:%u:1: the row has no %s value"),
                       ws_csv_table_get_filename (t), ws_csv_table_get_line (t, r),
                       ws_csv_table_get_column_name (t, has_x ? cs : cx));
          return NULL;
        }
      if (m.seconds < 0)
        {
          g_set_error (error, WS_ERROR, WS_ERROR_INVALID, _ ("%s:%u:1: a measured time cannot be negative (%g s)"),
                       ws_csv_table_get_filename (t), ws_csv_table_get_line (t, r), m.seconds);
          return NULL;
        }
      g_array_append_val (times, m);
    }
  if (times->len == 0)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID, _ ("%s has no measurements (rows under the header %s,seconds)"),
                   ws_csv_table_get_filename (t), ws_csv_table_get_column_name (t, cx));
      return NULL;
    }
  return g_steal_pointer (&times);
}

GArray *
ws_measure_times_load (const char *path, const char *x_name, GError **error)
{
  g_return_val_if_fail (path != NULL, NULL);
  g_autofree char *text = NULL;
  gsize length = 0;
  g_autoptr (GError) local = NULL;
  if (!g_file_get_contents (path, &text, &length, &local))
    {
      g_set_error (error, WS_ERROR, local->code == G_FILE_ERROR_NOENT ? WS_ERROR_NOT_FOUND : WS_ERROR_IO, "%s",
                   local->message);
      return NULL;
    }
  return ws_measure_times_parse (text, length, path, x_name, error);
}

guint
ws_measure_times_add_series (WsChart *chart, const char *name, const GArray *times)
{
  g_return_val_if_fail (chart != NULL && times != NULL, 0);
  guint s = ws_chart_add_series (chart, name != NULL ? name : _ ("measured"), WS_CHART_SERIES_MEASURED);
  for (guint i = 0; i < times->len; i++)
    {
      const WsMeasuredTime *m = &g_array_index (times, WsMeasuredTime, i);
      ws_chart_series_add_point (chart, s, m->x, m->seconds);
    }
  ws_chart_annotate_rel_errors (chart, s);
  return s;
}
