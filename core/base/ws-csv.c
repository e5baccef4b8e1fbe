/* ws-csv.c: CSV tables by column name (see ws-csv.h). */
#include "base/ws-csv.h"

#include <errno.h>
#include <math.h>
#include <string.h>

typedef struct {
  GPtrArray *fields; /* of char* */
  GArray *columns;   /* of guint: text column of each field */
  guint line;
} Row;

struct _WsCsvTable {
  char *filename;
  GPtrArray *header;      /* of char* */
  GArray *header_columns; /* of guint: text column of each name */
  guint header_line;
  GArray *rows; /* of Row */
};

GPtrArray *
ws_csv_split_record (const char *line, gsize len, GArray *columns_out, const char *filename, guint lineno,
                     GError **error)
{
  GPtrArray *fields = g_ptr_array_new_with_free_func (g_free);
  gsize i = 0;
  for (;;)
    {
      guint col = (guint) i + 1;
      if (columns_out != NULL)
        g_array_append_val (columns_out, col);
      GString *f = g_string_new (NULL);
      if (i < len && line[i] == '"')
        {
          i++;
          for (;;)
            {
              if (i >= len)
                {
                  g_set_error (error, WS_ERROR, WS_ERROR_PARSE, "%s:%u:%u: unterminated quoted field", filename, lineno,
                               col);
                  g_string_free (f, TRUE);
                  g_ptr_array_unref (fields);
                  return NULL;
                }
              if (line[i] == '"')
                {
                  if (i + 1 < len && line[i + 1] == '"')
                    {
                      g_string_append_c (f, '"');
                      i += 2;
                      continue;
                    }
                  i++;
                  break;
                }
              g_string_append_c (f, line[i++]);
            }
          if (i < len && line[i] != ',')
            {
              g_set_error (error, WS_ERROR, WS_ERROR_PARSE, "%s:%u:%u: text after a closing quote", filename, lineno,
                           (guint) i + 1);
              g_string_free (f, TRUE);
              g_ptr_array_unref (fields);
              return NULL;
            }
        }
      else
        while (i < len && line[i] != ',')
          g_string_append_c (f, line[i++]);
      g_ptr_array_add (fields, g_string_free (f, FALSE));
      if (i >= len)
        break;
      i++; /* the comma */
    }
  return fields;
}

gboolean
ws_csv_next_line (const char *text, gsize length, gsize *pos, guint *lineno, const char **line_out, gsize *len_out)
{
  /* A UTF-8 byte-order mark (spreadsheets write one) is not part of the
   * first column's name. */
  if (*pos == 0 && length >= 3 && memcmp (text, "\xEF\xBB\xBF", 3) == 0)
    *pos = 3;
  while (*pos < length)
    {
      const char *line = text + *pos;
      const char *nl = memchr (line, '\n', length - *pos);
      gsize len = nl ? (gsize) (nl - line) : length - *pos;
      *pos += len + (nl ? 1 : 0);
      (*lineno)++;
      if (len > 0 && line[len - 1] == '\r')
        len--;
      gsize k = 0;
      while (k < len && (line[k] == ' ' || line[k] == '\t'))
        k++;
      if (k == len || line[k] == '#')
        continue; /* blank lines and '#' comments (provenance notes) */
      *line_out = line;
      *len_out = len;
      return TRUE;
    }
  return FALSE;
}

static void
row_clear (gpointer data)
{
  Row *r = data;
  g_clear_pointer (&r->fields, g_ptr_array_unref);
  g_clear_pointer (&r->columns, g_array_unref);
}

void
ws_csv_table_free (WsCsvTable *table)
{
  if (table == NULL)
    return;
  g_free (table->filename);
  g_clear_pointer (&table->header, g_ptr_array_unref);
  g_clear_pointer (&table->header_columns, g_array_unref);
  g_clear_pointer (&table->rows, g_array_unref);
  g_free (table);
}

WsCsvTable *
ws_csv_table_parse (const char *text, gsize length, const char *filename, GError **error)
{
  g_return_val_if_fail (text != NULL, NULL);
  if (filename == NULL)
    filename = "<csv>";
  if (!g_utf8_validate (text, length, NULL))
    {
      g_set_error (error, WS_ERROR, WS_ERROR_PARSE, "%s: not UTF-8 text", filename);
      return NULL;
    }
  if (length >= 3 && memcmp (text, "\xEF\xBB\xBF", 3) == 0)
    {
      text += 3;
      length -= 3;
    }
  g_autoptr (WsCsvTable) t = g_new0 (WsCsvTable, 1);
  t->filename = g_strdup (filename);
  t->rows = g_array_new (FALSE, TRUE, sizeof (Row));
  g_array_set_clear_func (t->rows, row_clear);
  guint lineno = 0;
  gsize pos = 0, len;
  const char *line;
  while (ws_csv_next_line (text, length, &pos, &lineno, &line, &len))
    {
      Row row = { .columns = g_array_new (FALSE, FALSE, sizeof (guint)), .line = lineno };
      row.fields = ws_csv_split_record (line, len, row.columns, filename, lineno, error);
      if (row.fields == NULL)
        {
          g_array_unref (row.columns);
          return NULL;
        }
      if (t->header == NULL)
        {
          for (guint i = 0; i < row.fields->len; i++)
            g_strstrip ((char *) row.fields->pdata[i]);
          t->header = g_steal_pointer (&row.fields);
          t->header_columns = row.columns;
          t->header_line = lineno;
          continue;
        }
      g_array_append_val (t->rows, row);
    }
  if (t->header == NULL)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_PARSE, "%s: no header line (the first line names the columns)", filename);
      return NULL;
    }
  return g_steal_pointer (&t);
}

WsCsvTable *
ws_csv_table_load (const char *path, GError **error)
{
  g_autofree char *text = NULL;
  gsize length = 0;
  g_autoptr (GError) local = NULL;
  if (!g_file_get_contents (path, &text, &length, &local))
    {
      g_set_error (error, WS_ERROR, local->code == G_FILE_ERROR_NOENT ? WS_ERROR_NOT_FOUND : WS_ERROR_IO, "%s",
                   local->message);
      return NULL;
    }
  return ws_csv_table_parse (text, length, path, error);
}

guint
ws_csv_table_get_n_columns (const WsCsvTable *table)
{
  return table->header->len;
}

const char *
ws_csv_table_get_column_name (const WsCsvTable *table, int column)
{
  g_return_val_if_fail (column >= 0 && (guint) column < table->header->len, NULL);
  return table->header->pdata[column];
}

guint
ws_csv_table_get_header_line (const WsCsvTable *table)
{
  return table->header_line;
}

const char *
ws_csv_table_get_filename (const WsCsvTable *table)
{
  return table->filename;
}

guint
ws_csv_table_get_n_rows (const WsCsvTable *table)
{
  return table->rows->len;
}

guint
ws_csv_table_get_line (const WsCsvTable *table, guint row)
{
  g_return_val_if_fail (row < table->rows->len, 0);
  return g_array_index (table->rows, Row, row).line;
}

int
ws_csv_table_find_column (const WsCsvTable *table, const char *name)
{
  for (guint i = 0; i < table->header->len; i++)
    if (strcmp (table->header->pdata[i], name) == 0)
      return (int) i;
  return -1;
}

int
ws_csv_table_require_column (const WsCsvTable *table, const char *name, GError **error)
{
  int c = ws_csv_table_find_column (table, name);
  if (c < 0)
    {
      g_autoptr (GString) have = g_string_new (NULL);
      for (guint i = 0; i < table->header->len; i++)
        g_string_append_printf (have, "%s%s", i ? ", " : "", (const char *) table->header->pdata[i]);
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID, "%s:%u:1: no column '%s' (it has: %s)", table->filename,
                   table->header_line, name, have->str);
    }
  return c;
}

const char *
ws_csv_table_get (const WsCsvTable *table, guint row, int column)
{
  g_return_val_if_fail (row < table->rows->len, "");
  const Row *r = &g_array_index (table->rows, Row, row);
  if (column < 0 || (guint) column >= r->fields->len)
    return "";
  return r->fields->pdata[column];
}

gboolean
ws_csv_table_get_double (const WsCsvTable *table, guint row, int column, double *value, GError **error)
{
  const char *s = ws_csv_table_get (table, row, column);
  while (*s == ' ')
    s++;
  if (*s == '\0')
    return FALSE;
  char *end = NULL;
  errno = 0;
  double v = g_ascii_strtod (s, &end);
  while (end && *end == ' ')
    end++;
  if (errno != 0 || end == s || *end != '\0' || !isfinite (v))
    {
      const Row *r = &g_array_index (table->rows, Row, row);
      guint col = (guint) column < r->columns->len ? g_array_index (r->columns, guint, column) : 1;
      g_set_error (error, WS_ERROR, WS_ERROR_PARSE, "%s:%u:%u: '%s' in column %s is not a number", table->filename,
                   r->line, col, s, (const char *) table->header->pdata[column]);
      return FALSE;
    }
  *value = v;
  return TRUE;
}
