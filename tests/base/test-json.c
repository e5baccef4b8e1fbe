/* JSON loading: text json-glib would crash on (nesting) or misread (whole
 * numbers beyond 64 bits) is refused with its line and column. */
#include "base/ws-json.h"

#include <glib/gstdio.h>
#include <string.h>

static char *
repeat (const char *s, guint n)
{
  GString *g = g_string_new (NULL);
  for (guint i = 0; i < n; i++)
    g_string_append (g, s);
  return g_string_free (g, FALSE);
}

static void
test_depth (void)
{
  /* 100 000 levels crashed json-glib (stack overflow). */
  g_autofree char *open = repeat ("[", 100000), *close = repeat ("]", 100000);
  g_autofree char *deep = g_strconcat (open, close, NULL);
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;
  g_assert_false (ws_json_parser_load_data (parser, deep, -1, &error));
  g_assert_error (error, WS_ERROR, WS_ERROR_PARSE);
  g_assert_true (g_str_has_prefix (error->message, "line 1, column 201: arrays and objects nest deeper than 200"));

  /* Objects count too, and the position is the bracket that goes too far. */
  g_autofree char *objs = repeat ("{\"a\":\n", 300);
  g_clear_error (&error);
  g_assert_false (ws_json_check_text (objs, -1, &error));
  g_assert_true (g_str_has_prefix (error->message, "line 201, column 1: "));

  /* Exactly the limit parses. */
  g_autofree char *o200 = repeat ("[", WS_JSON_MAX_DEPTH), *c200 = repeat ("]", WS_JSON_MAX_DEPTH);
  g_autofree char *ok = g_strconcat (o200, "1", c200, NULL);
  g_clear_error (&error);
  g_assert_true (ws_json_parser_load_data (parser, ok, -1, &error));
  g_assert_no_error (error);

  /* Brackets inside strings (escaped quotes included) are text. */
  g_autofree char *inner = repeat ("[{", 1000);
  g_autofree char *str = g_strdup_printf ("{\"a\\\"[\": \"%s\", \"b\": [1]}", inner);
  g_assert_true (ws_json_parser_load_data (parser, str, -1, &error));
  g_assert_no_error (error);
  JsonObject *o = json_node_get_object (json_parser_get_root (parser));
  g_assert_cmpuint (strlen (json_object_get_string_member (o, "a\"[")), ==, 2000);
}

static void
test_numbers (void)
{
  g_autoptr (GError) error = NULL;
  /* 10^30 written out read back as -1. */
  g_autoptr (JsonNode) big = ws_json_from_text ("{\"sms\": 1000000000000000000000000000000}", &error);
  g_assert_null (big);
  g_assert_error (error, WS_ERROR, WS_ERROR_PARSE);
  g_assert_nonnull (strstr (error->message, "line 1, column 9: the whole number 1000000000000000000000000000000 "
                                            "is too large"));
  g_clear_error (&error);
  g_assert_false (ws_json_check_text ("[9223372036854775808]", -1, &error));
  g_clear_error (&error);
  g_assert_false (ws_json_check_text ("[-9223372036854775809]", -1, &error));
  g_clear_error (&error);
  g_assert_false (ws_json_check_text ("[1e400]", -1, &error));
  g_assert_nonnull (strstr (error->message, "column 2: the number 1e400 is too large"));
  g_clear_error (&error);

  /* json-glib reads a leading zero as octal (042 as 34); JSON forbids it. */
  g_assert_false (ws_json_check_text ("{\"a\": [0, 0.5, -0, 042]}", -1, &error));
  g_assert_nonnull (strstr (error->message, "line 1, column 20: the number 042 starts with a zero"));
  g_clear_error (&error);

  /* The extremes that fit are read exactly; exponents are fine. */
  g_autoptr (JsonNode) fits = ws_json_from_text ("[9223372036854775807, -9223372036854775808, 1e30, 42, "
                                                 "-0.5e-300, 0]",
                                                 &error);
  g_assert_no_error (error);
  JsonArray *a = json_node_get_array (fits);
  g_assert_cmpint (json_array_get_int_element (a, 0), ==, G_MAXINT64);
  g_assert_cmpint (json_array_get_int_element (a, 1), ==, G_MININT64);
  g_assert_cmpfloat (json_array_get_double_element (a, 2), ==, 1e30);
  g_assert_cmpint (json_array_get_int_element (a, 3), ==, 42);

  /* Digits in strings and names are text. */
  g_assert_true (ws_json_check_text ("{\"100000000000000000000000\": \"99999999999999999999999999\"}", -1, &error));
  g_assert_no_error (error);
}

static void
test_files_named (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("ws-json-XXXXXX", &error);
  g_assert_no_error (error);
  g_autofree char *bad = g_build_filename (dir, "bad.json", NULL);
  g_autofree char *deep = g_build_filename (dir, "deep.json", NULL);
  g_autofree char *empty = g_build_filename (dir, "empty.json", NULL);
  g_autofree char *open = repeat ("[", 1000);
  g_assert_true (g_file_set_contents (bad, "{\"a\":\n 1,,}", -1, NULL));
  g_assert_true (g_file_set_contents (deep, open, -1, NULL));
  g_assert_true (g_file_set_contents (empty, "", 0, NULL));

  g_autoptr (JsonParser) parser = json_parser_new ();
  g_assert_false (ws_json_parser_load_file (parser, bad, &error));
  g_assert_true (error->domain == JSON_PARSER_ERROR);
  g_autofree char *want_bad = g_strconcat (bad, ":2:3: Parse error", NULL);
  g_assert_true (g_str_has_prefix (error->message, want_bad));
  g_clear_error (&error);

  g_assert_false (ws_json_parser_load_file (parser, deep, &error));
  g_autofree char *want_deep = g_strconcat (deep, ": line 1, column 201: arrays and objects nest deeper", NULL);
  g_assert_true (g_str_has_prefix (error->message, want_deep));
  g_clear_error (&error);

  /* An empty file gave a NULL root that callers then dereferenced. */
  g_assert_false (ws_json_parser_load_file (parser, empty, &error));
  g_autofree char *want_empty = g_strconcat (empty, ": no JSON value (the text is empty)", NULL);
  g_assert_cmpstr (error->message, ==, want_empty);
  g_clear_error (&error);

  g_assert_false (ws_json_parser_load_file (parser, "/nonexistent/x.json", &error));
  g_assert_error (error, G_FILE_ERROR, G_FILE_ERROR_NOENT);

  g_unlink (bad);
  g_unlink (deep);
  g_unlink (empty);
  g_rmdir (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/base/json/deep-nesting-refused", test_depth);
  g_test_add_func ("/base/json/whole-numbers-beyond-64-bits-refused", test_numbers);
  g_test_add_func ("/base/json/files-named-in-errors", test_files_named);
  return g_test_run ();
}
