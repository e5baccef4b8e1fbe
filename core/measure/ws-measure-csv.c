/* ws-measure-csv.c: the measurement CSV (docs/measurement.md), occurrence
 * indices and the median over runs. */
#include "measure/ws-measure.h"
#include "base/ws-csv.h"
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const direction_names[WS_MEMCPY_N_DIRECTIONS] = { "HtoD", "DtoH", "DtoD", "HtoH", "PtoP" };

const char *
ws_memcpy_direction_name (WsMemcpyDirection d)
{
  if (d < 0 || d >= WS_MEMCPY_N_DIRECTIONS)
    return "";
  return direction_names[d];
}

gboolean
ws_memcpy_direction_from_string (const char *s, WsMemcpyDirection *out)
{
  for (int i = 0; i < WS_MEMCPY_N_DIRECTIONS; i++)
    if (g_ascii_strcasecmp (s, direction_names[i]) == 0)
      {
        *out = i;
        return TRUE;
      }
  return FALSE;
}

void
ws_measurement_clear (WsMeasurement *m)
{
  g_clear_pointer (&m->name, g_free);
}

GArray *
ws_measurements_new (void)
{
  GArray *a = g_array_new (FALSE, TRUE, sizeof (WsMeasurement));
  g_array_set_clear_func (a, (GDestroyNotify) ws_measurement_clear);
  return a;
}

/* ------------------------------------------------------------------------ */
/* Columns */

/* clang-format off */
typedef enum {
  COL_KIND, COL_NAME, COL_OCCURRENCE,
  COL_GRID_X, COL_GRID_Y, COL_GRID_Z, COL_BLOCK_X, COL_BLOCK_Y, COL_BLOCK_Z,
  COL_SHARED, COL_REGISTERS, COL_DIRECTION, COL_BYTES, COL_RUNS, COL_DURATION,
  N_COLS
} Column;
/* clang-format on */

static const char *const column_names[N_COLS] = {
  "kind",    "name",         "occurrence", "grid_x",    "grid_y", "grid_z", "block_x",     "block_y",
  "block_z", "shared_bytes", "registers",  "direction", "bytes",  "runs",   "duration_ns",
};

/* Columns a file must have; the others default (runs 1, occurrence from the
 * order of the rows, kernel/memcpy fields that do not apply empty). */
static const gboolean column_required[N_COLS] = {
  [COL_KIND] = TRUE,
  [COL_NAME] = TRUE,
  [COL_DURATION] = TRUE,
};

static gboolean
parse_uint (const char *s, guint64 max, guint64 *out)
{
  if (*s == '\0' || !g_ascii_isdigit (*s))
    return FALSE;
  char *end = NULL;
  errno = 0;
  guint64 v = g_ascii_strtoull (s, &end, 10);
  if (errno != 0 || *end != '\0' || v > max)
    return FALSE;
  *out = v;
  return TRUE;
}

GArray *
ws_measure_csv_parse (const char *text, gsize length, const char *filename, GError **error)
{
  g_return_val_if_fail (text != NULL, NULL);
  if (filename == NULL)
    filename = "<csv>";
  if (!g_utf8_validate (text, length, NULL))
    {
      g_set_error (error, WS_ERROR, WS_ERROR_PARSE, "%s: not UTF-8 text", filename);
      return NULL;
    }
  g_autoptr (GArray) rows = ws_measurements_new ();
  int map[64];           /* field index -> column, -1 unused */
  guint header_cols[64]; /* field index -> text column (for messages) */
  guint n_header = 0;
  gboolean have_header = FALSE, have_occurrence = FALSE;
  guint lineno = 0;
  gsize pos = 0, len;
  const char *line;
  while (ws_csv_next_line (text, length, &pos, &lineno, &line, &len))
    {
      g_autoptr (GArray) cols = g_array_new (FALSE, FALSE, sizeof (guint));
      g_autoptr (GPtrArray) fields = ws_csv_split_record (line, len, cols, filename, lineno, error);
      if (fields == NULL)
        return NULL;

      if (!have_header)
        {
          if (fields->len > G_N_ELEMENTS (map))
            {
              g_set_error (error, WS_ERROR, WS_ERROR_PARSE, "%s:%u:1: too many columns (%u)", filename, lineno,
                           fields->len);
              return NULL;
            }
          gboolean seen[N_COLS] = { FALSE };
          for (guint f = 0; f < fields->len; f++)
            {
              const char *name = g_strstrip ((char *) g_ptr_array_index (fields, f));
              map[f] = -1;
              header_cols[f] = g_array_index (cols, guint, f);
              for (int c = 0; c < N_COLS; c++)
                if (strcmp (name, column_names[c]) == 0)
                  map[f] = c;
              if (map[f] < 0)
                {
                  g_set_error (error, WS_ERROR, WS_ERROR_PARSE,
                               "%s:%u:%u: unknown column \"%s\" (columns are: kind, name, occurrence, grid_x, "
                               "grid_y, grid_z, block_x, block_y, block_z, shared_bytes, registers, direction, "
                               "bytes, runs, duration_ns)",
                               filename, lineno, header_cols[f], name);
                  return NULL;
                }
              if (seen[map[f]])
                {
                  g_set_error (error, WS_ERROR, WS_ERROR_PARSE, "%s:%u:%u: column \"%s\" appears twice", filename,
                               lineno, header_cols[f], name);
                  return NULL;
                }
              seen[map[f]] = TRUE;
            }
          for (int c = 0; c < N_COLS; c++)
            if (column_required[c] && !seen[c])
              {
                g_set_error (error, WS_ERROR, WS_ERROR_PARSE, "%s:%u:1: the header lacks the column \"%s\"", filename,
                             lineno, column_names[c]);
                return NULL;
              }
          have_occurrence = seen[COL_OCCURRENCE];
          n_header = fields->len;
          have_header = TRUE;
          continue;
        }

      if (fields->len != n_header)
        {
          g_set_error (error, WS_ERROR, WS_ERROR_PARSE, "%s:%u:%u: %u fields where the header has %u", filename, lineno,
                       fields->len > n_header ? g_array_index (cols, guint, n_header) : (guint) len + 1, fields->len,
                       n_header);
          return NULL;
        }

      WsMeasurement m = { .direction = WS_MEMCPY_NONE, .runs = 1, .grid = { 1, 1, 1 }, .block = { 1, 1, 1 } };
      g_autofree char *name = NULL;
      const char *kind_text = NULL;
      const char *dir_text = NULL;
      guint dir_col = 0;
      gboolean have_duration = FALSE, have_bytes = FALSE;
      guint bytes_col = 0, launch_col = 0; /* columns of fields that belong to the other kind */
      const char *launch_name = NULL;
      for (guint f = 0; f < fields->len; f++)
        {
          char *v = g_ptr_array_index (fields, f);
          guint col = g_array_index (cols, guint, f);
          Column c = map[f];
          if (c != COL_NAME)
            g_strstrip (v);
          if (c == COL_KIND)
            {
              kind_text = v;
              continue;
            }
          if (c == COL_NAME)
            {
              name = g_strdup (v);
              continue;
            }
          if (c == COL_DIRECTION)
            {
              dir_text = v;
              dir_col = col;
              continue;
            }
          if (*v == '\0')
            {
              if (c == COL_DURATION || (c == COL_OCCURRENCE && have_occurrence))
                {
                  g_set_error (error, WS_ERROR, WS_ERROR_PARSE, "%s:%u:%u: %s is empty", filename, lineno, col,
                               column_names[c]);
                  return NULL;
                }
              continue; /* a field that does not apply to this kind */
            }
          if (c == COL_DURATION)
            {
              char *end = NULL;
              double d = g_ascii_strtod (v, &end);
              if (end == v || *end != '\0' || !isfinite (d) || d < 0)
                {
                  g_set_error (error, WS_ERROR, WS_ERROR_PARSE,
                               "%s:%u:%u: duration_ns \"%s\" is not a non-negative number", filename, lineno, col, v);
                  return NULL;
                }
              m.duration_ns = d;
              have_duration = TRUE;
              continue;
            }
          guint64 max = c == COL_BYTES ? G_MAXUINT64 : G_MAXUINT32;
          guint64 u;
          if (!parse_uint (v, max, &u) || ((c == COL_RUNS || (c >= COL_GRID_X && c <= COL_BLOCK_Z)) && u == 0))
            {
              g_set_error (error, WS_ERROR, WS_ERROR_PARSE, "%s:%u:%u: %s \"%s\" is not a %s integer", filename, lineno,
                           col, column_names[c], v,
                           (c == COL_RUNS || (c >= COL_GRID_X && c <= COL_BLOCK_Z)) ? "positive" : "non-negative");
              return NULL;
            }
          if (c >= COL_GRID_X && c <= COL_REGISTERS && launch_col == 0)
            {
              launch_col = col;
              launch_name = column_names[c];
            }
          switch (c)
            {
            case COL_OCCURRENCE: m.occurrence = (guint) u; break;
            case COL_GRID_X:
            case COL_GRID_Y:
            case COL_GRID_Z: m.grid[c - COL_GRID_X] = (guint32) u; break;
            case COL_BLOCK_X:
            case COL_BLOCK_Y:
            case COL_BLOCK_Z: m.block[c - COL_BLOCK_X] = (guint32) u; break;
            case COL_SHARED: m.shared_bytes = (guint32) u; break;
            case COL_REGISTERS: m.registers = (guint32) u; break;
            case COL_BYTES:
              m.bytes = u;
              have_bytes = TRUE;
              bytes_col = col;
              break;
            case COL_RUNS: m.runs = (guint) u; break;
            default: g_assert_not_reached ();
            }
        }
      guint kind_col = 1;
      for (guint f = 0; f < fields->len; f++)
        if (map[f] == COL_KIND)
          kind_col = g_array_index (cols, guint, f);
      if (g_strcmp0 (kind_text, "kernel") == 0)
        m.kind = WS_MEASURE_KERNEL;
      else if (g_strcmp0 (kind_text, "memcpy") == 0)
        m.kind = WS_MEASURE_MEMCPY;
      else
        {
          g_set_error (error, WS_ERROR, WS_ERROR_PARSE, "%s:%u:%u: kind \"%s\" is neither \"kernel\" nor \"memcpy\"",
                       filename, lineno, kind_col, kind_text);
          return NULL;
        }
      if (name == NULL || *name == '\0')
        {
          if (m.kind == WS_MEASURE_MEMCPY)
            {
              g_free (name);
              name = g_strdup ("memcpy");
            }
          else
            {
              g_set_error (error, WS_ERROR, WS_ERROR_PARSE, "%s:%u: a kernel row needs a name", filename, lineno);
              return NULL;
            }
        }
      if (!have_duration)
        {
          g_set_error (error, WS_ERROR, WS_ERROR_PARSE, "%s:%u: duration_ns is missing", filename, lineno);
          return NULL;
        }
      if (m.kind == WS_MEASURE_MEMCPY)
        {
          if (dir_text == NULL || !ws_memcpy_direction_from_string (dir_text, &m.direction))
            {
              g_set_error (error, WS_ERROR, WS_ERROR_PARSE,
                           "%s:%u:%u: direction \"%s\" is not one of HtoD, DtoH, DtoD, HtoH, PtoP", filename, lineno,
                           dir_col ? dir_col : 1, dir_text ? dir_text : "");
              return NULL;
            }
          if (!have_bytes)
            {
              g_set_error (error, WS_ERROR, WS_ERROR_PARSE, "%s:%u: a memcpy row needs bytes", filename, lineno);
              return NULL;
            }
          if (launch_col != 0)
            {
              g_set_error (error, WS_ERROR, WS_ERROR_PARSE, "%s:%u:%u: a memcpy row has no %s (leave it empty)",
                           filename, lineno, launch_col, launch_name);
              return NULL;
            }
          memset (m.grid, 0, sizeof m.grid);
          memset (m.block, 0, sizeof m.block);
        }
      else if (have_bytes)
        {
          g_set_error (error, WS_ERROR, WS_ERROR_PARSE, "%s:%u:%u: a kernel row has no bytes (leave it empty)",
                       filename, lineno, bytes_col);
          return NULL;
        }
      else if (dir_text != NULL && *dir_text != '\0')
        {
          g_set_error (error, WS_ERROR, WS_ERROR_PARSE, "%s:%u:%u: a kernel row has no direction (\"%s\")", filename,
                       lineno, dir_col, dir_text);
          return NULL;
        }
      m.name = g_steal_pointer (&name);
      g_array_append_val (rows, m);
    }
  if (!have_header)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_PARSE, "%s: no header line (expected \"kind,name,...\")", filename);
      return NULL;
    }
  if (!have_occurrence)
    ws_measure_assign_occurrences (rows);
  return g_steal_pointer (&rows);
}

GArray *
ws_measure_csv_load (const char *path, GError **error)
{
  g_autofree char *text = NULL;
  gsize len = 0;
  if (!g_file_get_contents (path, &text, &len, error))
    return NULL;
  return ws_measure_csv_parse (text, len, path, error);
}

static void
append_field (GString *s, const char *v)
{
  if (strpbrk (v, ",\"\n\r") == NULL && v[0] != ' ' && v[0] != '#')
    {
      g_string_append (s, v);
      return;
    }
  g_string_append_c (s, '"');
  for (const char *p = v; *p; p++)
    {
      if (*p == '"')
        g_string_append_c (s, '"');
      g_string_append_c (s, *p);
    }
  g_string_append_c (s, '"');
}

char *
ws_measure_csv_format (const GArray *rows)
{
  GString *s = g_string_new (NULL);
  for (int c = 0; c < N_COLS; c++)
    g_string_append_printf (s, "%s%s", c ? "," : "", column_names[c]);
  g_string_append_c (s, '\n');
  for (guint i = 0; i < rows->len; i++)
    {
      const WsMeasurement *m = &g_array_index (rows, WsMeasurement, i);
      g_string_append (s, m->kind == WS_MEASURE_KERNEL ? "kernel," : "memcpy,");
      append_field (s, m->name);
      g_string_append_printf (s, ",%u,", m->occurrence);
      if (m->kind == WS_MEASURE_KERNEL)
        g_string_append_printf (s, "%u,%u,%u,%u,%u,%u,%u,%u,,,", m->grid[0], m->grid[1], m->grid[2], m->block[0],
                                m->block[1], m->block[2], m->shared_bytes, m->registers);
      else
        g_string_append_printf (s, ",,,,,,,,%s,%" G_GUINT64_FORMAT ",", ws_memcpy_direction_name (m->direction),
                                m->bytes);
      /* %.17g keeps every bit of a median that is a mean of two values. */
      char buf[G_ASCII_DTOSTR_BUF_SIZE];
      g_string_append_printf (s, "%u,%s\n", m->runs, g_ascii_formatd (buf, sizeof buf, "%.17g", m->duration_ns));
    }
  return g_string_free (s, FALSE);
}

gboolean
ws_measure_csv_save (const GArray *rows, const char *path, GError **error)
{
  g_autofree char *text = ws_measure_csv_format (rows);
  if (!g_file_set_contents (path, text, -1, error))
    return FALSE;
  return TRUE;
}

/* ------------------------------------------------------------------------ */
/* Occurrences and medians */

/* The identity of a row without its occurrence, as a string key. */
static char *
config_key (const WsMeasurement *m)
{
  if (m->kind == WS_MEASURE_KERNEL)
    return g_strdup_printf ("k|%s|%u,%u,%u|%u,%u,%u|%u|%u", m->name, m->grid[0], m->grid[1], m->grid[2], m->block[0],
                            m->block[1], m->block[2], m->shared_bytes, m->registers);
  return g_strdup_printf ("m|%s|%d|%" G_GUINT64_FORMAT, m->name, m->direction, m->bytes);
}

void
ws_measure_assign_occurrences (GArray *rows)
{
  g_autoptr (GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  for (guint i = 0; i < rows->len; i++)
    {
      WsMeasurement *m = &g_array_index (rows, WsMeasurement, i);
      char *key = config_key (m);
      guint n = GPOINTER_TO_UINT (g_hash_table_lookup (seen, key));
      m->occurrence = n;
      g_hash_table_replace (seen, key, GUINT_TO_POINTER (n + 1));
    }
}

static int
compare_double (gconstpointer a, gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return x < y ? -1 : x > y;
}

GArray *
ws_measure_median (GPtrArray *runs)
{
  GArray *out = ws_measurements_new ();
  g_autoptr (GHashTable) index = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr (GPtrArray) samples = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
  for (guint r = 0; r < runs->len; r++)
    {
      GArray *rows = g_ptr_array_index (runs, r);
      for (guint i = 0; i < rows->len; i++)
        {
          const WsMeasurement *m = &g_array_index (rows, WsMeasurement, i);
          g_autofree char *base = config_key (m);
          char *key = g_strdup_printf ("%s#%u", base, m->occurrence);
          gpointer slot;
          GArray *values;
          if (g_hash_table_lookup_extended (index, key, NULL, &slot))
            {
              g_free (key);
              values = g_ptr_array_index (samples, GPOINTER_TO_UINT (slot));
            }
          else
            {
              g_hash_table_insert (index, key, GUINT_TO_POINTER (out->len));
              WsMeasurement copy = *m;
              copy.name = g_strdup (m->name);
              g_array_append_val (out, copy);
              values = g_array_new (FALSE, FALSE, sizeof (double));
              g_ptr_array_add (samples, values);
            }
          g_array_append_val (values, m->duration_ns);
        }
    }
  for (guint i = 0; i < out->len; i++)
    {
      GArray *v = g_ptr_array_index (samples, i);
      g_array_sort (v, compare_double);
      double *d = (double *) v->data;
      WsMeasurement *m = &g_array_index (out, WsMeasurement, i);
      m->runs = v->len;
      m->duration_ns = v->len % 2 ? d[v->len / 2] : 0.5 * (d[v->len / 2 - 1] + d[v->len / 2]);
    }
  return out;
}
