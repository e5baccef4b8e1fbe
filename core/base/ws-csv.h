/* ws-csv.h: comma-separated tables read by their header's column names.
 *
 * One reader for every CSV a user or a dataset gives us: the first
 * non-blank, non-'#' line names the columns, fields may be quoted
 * (RFC 4180, one record per line), a UTF-8 byte-order mark is skipped, and
 * every error names file:line:column. */
#pragma once

#include "base/ws-base.h"

G_BEGIN_DECLS

typedef struct _WsCsvTable WsCsvTable;

/* Splits one record of @len bytes into newly allocated fields; @columns_out
 * (may be NULL) gets the 1-based text column where each field starts. */
WS_EXPORT GPtrArray *ws_csv_split_record (const char *line, gsize len, GArray *columns_out, const char *filename,
                                          guint lineno, GError **error);

/* The next record line of @text from *pos on (advanced past it): blank lines
 * and '#' comments are skipped, a trailing CR dropped, a UTF-8 byte-order
 * mark at offset 0 skipped; *lineno counts every line.  FALSE at the end of
 * the text. */
WS_EXPORT gboolean ws_csv_next_line (const char *text, gsize length, gsize *pos, guint *lineno, const char **line,
                                     gsize *len);

WS_EXPORT WsCsvTable *ws_csv_table_parse (const char *text, gsize length, const char *filename, GError **error);
WS_EXPORT WsCsvTable *ws_csv_table_load (const char *path, GError **error);
WS_EXPORT void ws_csv_table_free (WsCsvTable *table);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsCsvTable, ws_csv_table_free)

WS_EXPORT const char *ws_csv_table_get_filename (const WsCsvTable *table);
WS_EXPORT guint ws_csv_table_get_n_columns (const WsCsvTable *table);
WS_EXPORT const char *ws_csv_table_get_column_name (const WsCsvTable *table, int column);
/* The line of the header (for messages about columns: FILE:LINE:1). */
WS_EXPORT guint ws_csv_table_get_header_line (const WsCsvTable *table);
WS_EXPORT guint ws_csv_table_get_n_rows (const WsCsvTable *table);
/* Index of the column named @name, or -1. */
WS_EXPORT int ws_csv_table_find_column (const WsCsvTable *table, const char *name);
/* Index of the column named @name; a missing column is an error naming
 * file:line:column of the header and the columns it has. */
WS_EXPORT int ws_csv_table_require_column (const WsCsvTable *table, const char *name, GError **error);
/* The text of a cell ("" when the row is shorter). */
WS_EXPORT const char *ws_csv_table_get (const WsCsvTable *table, guint row, int column);
/* A cell as a number: FALSE when it is empty; a cell that is not a number
 * is an error naming file:line:column. */
WS_EXPORT gboolean ws_csv_table_get_double (const WsCsvTable *table, guint row, int column, double *value,
                                            GError **error);
/* The source line of a row (for messages). */
WS_EXPORT guint ws_csv_table_get_line (const WsCsvTable *table, guint row);

G_END_DECLS
