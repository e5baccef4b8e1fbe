/* ws-json.h: loading JSON that a user or a file gives us.
 *
 * json-glib parses recursively and reads whole numbers into 64 bits without
 * checking: a file nested 100 000 deep overflows the stack, and an integer
 * literal above 2^63 comes back as a different number (1e30 written out in
 * digits reads as -1).  These loaders scan the text first, without
 * recursion, and refuse both with the line and column, so json-glib only
 * ever sees text it handles correctly. */
#pragma once

#include "base/ws-base.h"
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/* Arrays and objects nested deeper than this are refused.  Every Warpscope
 * format stays far below it; it also keeps stored records inside SQLite's
 * json_valid() depth limit. */
#define WS_JSON_MAX_DEPTH 200

/* Scans @length bytes of @data (-1: NUL-terminated): WS_ERROR_PARSE
 * "line L, column C: ..." when arrays and objects nest deeper than
 * WS_JSON_MAX_DEPTH or a whole number does not fit in 64 bits.  It does not
 * check the rest of the syntax: json-glib does that. */
WS_EXPORT gboolean ws_json_check_text (const char *data, gssize length, GError **error);

/* json_parser_load_from_data after ws_json_check_text. */
WS_EXPORT gboolean ws_json_parser_load_data (JsonParser *parser, const char *data, gssize length, GError **error);

/* Reads @path and loads it as ws_json_parser_load_data does; errors from the
 * check are prefixed with @path. */
WS_EXPORT gboolean ws_json_parser_load_file (JsonParser *parser, const char *path, GError **error);

/* Like json_from_string, after ws_json_check_text; empty text is an error
 * too.  Returns the root (newly allocated). */
WS_EXPORT JsonNode *ws_json_from_text (const char *text, GError **error);

/* Adds the entries of @strings (char* -> char*; may be NULL) to the object
 * @b is building, as string members sorted by name. */
WS_EXPORT void ws_json_add_string_members (JsonBuilder *b, GHashTable *strings);

G_END_DECLS
