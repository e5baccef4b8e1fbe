/* Runs the built warpscope-cli (path in $WS_CLI) against a temporary
 * database and checks `hw` output, files and exit codes. */
#include <glib.h>
#include <glib/gstdio.h>
#include <sys/wait.h>
#include <gio/gio.h>
#include <json-glib/json-glib.h>
#include <string.h>

#include "hw/ws-hw.h"

typedef struct {
  char *dir;
  char *db;
} Fixture;

typedef struct {
  int status;
  char *out;
  char *err;
} Run;

static void
run_clear (Run *r)
{
  g_free (r->out);
  g_free (r->err);
}
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Run, run_clear)

static void
fixture_setup (Fixture *f, gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  f->dir = g_dir_make_tmp ("ws-cli-hw-XXXXXX", &error);
  g_assert_no_error (error);
  f->db = g_build_filename (f->dir, "catalogue.db", NULL);
}

static void
fixture_teardown (Fixture *f, gconstpointer data)
{
  g_autoptr (GDir) d = g_dir_open (f->dir, 0, NULL);
  const char *e;
  while (d != NULL && (e = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *p = g_build_filename (f->dir, e, NULL);
      g_unlink (p);
    }
  g_rmdir (f->dir);
  g_free (f->dir);
  g_free (f->db);
}

/* Runs warpscope-cli --db DB ARGS...; NULL-terminated. */
static Run
cli (Fixture *f, ...)
{
  const char *exe = g_getenv ("WS_CLI");
  g_assert_nonnull (exe);
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_ptr_array_add (argv, (gpointer) exe);
  g_ptr_array_add (argv, (gpointer) "--db");
  g_ptr_array_add (argv, f->db);
  va_list ap;
  va_start (ap, f);
  const char *a;
  while ((a = va_arg (ap, const char *)) != NULL)
    g_ptr_array_add (argv, (gpointer) a);
  va_end (ap);
  g_ptr_array_add (argv, NULL);

  Run r = { 0 };
  int wait_status = 0;
  g_autoptr (GError) error = NULL;
  g_assert_true (g_spawn_sync (f->dir, (char **) argv->pdata, NULL, G_SPAWN_DEFAULT, NULL, NULL, &r.out, &r.err,
                               &wait_status, &error));
  g_assert_no_error (error);
  g_assert_true (WIFEXITED (wait_status));
  r.status = WEXITSTATUS (wait_status);
  return r;
}

static JsonNode *
parse (const char *text)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;
  if (!json_parser_load_from_data (parser, text, -1, &error))
    g_error ("not JSON (%s): %s", error->message, text);
  return json_node_copy (json_parser_get_root (parser));
}

static void
assert_has (const char *haystack, const char *needle)
{
  if (strstr (haystack, needle) == NULL)
    g_error ("\"%s\" not found in: %s", needle, haystack);
}

static JsonObject *
find_named (JsonArray *arr, const char *name)
{
  for (guint i = 0; i < json_array_get_length (arr); i++)
    {
      JsonObject *o = json_array_get_object_element (arr, i);
      if (g_strcmp0 (json_object_get_string_member (o, "name"), name) == 0)
        return o;
    }
  return NULL;
}

static void
test_list_json (Fixture *f, gconstpointer data)
{
  g_auto (Run) r = cli (f, "hw", "list", "--json", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_autoptr (JsonNode) root = parse (r.out);
  g_assert_true (JSON_NODE_HOLDS_ARRAY (root));
  JsonArray *arr = json_node_get_array (root);
  guint gpus = 0, cpus = 0, links = 0;
  g_autoptr (GRegex) cc_re = g_regex_new ("^[0-9]+\\.[0-9]$", 0, 0, NULL);
  for (guint i = 0; i < json_array_get_length (arr); i++)
    {
      JsonObject *o = json_array_get_object_element (arr, i);
      g_assert_true (json_object_has_member (o, "name"));
      const char *kind = json_object_get_string_member (o, "kind");
      if (g_str_equal (kind, "gpu"))
        {
          gpus++;
          g_assert_true (strlen (json_object_get_string_member (o, "architecture")) > 0);
          g_assert_true (g_regex_match (cc_re, json_object_get_string_member (o, "compute_capability"), 0, NULL));
          g_assert_cmpint (json_object_get_int_member (o, "sms"), >, 0);
          g_assert_cmpfloat (json_object_get_double_member (o, "core_clock_mhz"), >, 0);
        }
      else if (g_str_equal (kind, "cpu"))
        cpus++;
      else if (g_str_equal (kind, "link"))
        links++;
      else
        g_error ("unexpected kind %s", kind);
    }
  g_assert_cmpuint (gpus, >=, 14);
  g_assert_cmpuint (cpus, >=, 2);
  g_assert_cmpuint (links, ==, 3);

  JsonObject *a100 = find_named (arr, "A100");
  g_assert_nonnull (a100);
  g_assert_cmpstr (json_object_get_string_member (a100, "compute_capability"), ==, "8.0");
  g_assert_cmpstr (json_object_get_string_member (a100, "architecture"), ==, "Ampere");
  g_assert_cmpint (json_object_get_int_member (a100, "sms"), ==, 108);
  JsonObject *g970 = find_named (arr, "GTX 970");
  g_assert_nonnull (g970);
  g_assert_cmpstr (json_object_get_string_member (g970, "compute_capability"), ==, "5.2");
  g_assert_cmpfloat (json_object_get_double_member (g970, "core_clock_mhz"), ==, 1253);
  g_assert_nonnull (find_named (arr, "H100 SXM"));
  g_assert_nonnull (find_named (arr, "GPUMech baseline"));

  g_auto (Run) rl = cli (f, "hw", "list", "--kind", "link", "--json", NULL);
  g_assert_cmpint (rl.status, ==, 0);
  g_autoptr (JsonNode) lroot = parse (rl.out);
  JsonArray *larr = json_node_get_array (lroot);
  g_assert_cmpuint (json_array_get_length (larr), ==, 3);
  for (guint i = 0; i < 3; i++)
    g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (larr, i), "kind"), ==, "link");

  g_auto (Run) bad = cli (f, "hw", "list", "--kind", "fpga", NULL);
  g_assert_cmpint (bad.status, ==, 2);
  assert_has (bad.err, "fpga");
}

static void
test_list_and_show_text (Fixture *f, gconstpointer data)
{
  g_auto (Run) r = cli (f, "hw", "list", NULL);
  g_assert_cmpint (r.status, ==, 0);
  assert_has (r.out, "GTX TITAN X");
  assert_has (r.out, "Maxwell");
  assert_has (r.out, "PCIe 2.0 x4 (GTX TITAN X test bed)");

  g_auto (Run) s = cli (f, "hw", "show", "gtx 970", NULL);
  g_assert_cmpint (s.status, ==, 0);
  assert_has (s.out, "Core clock");
  assert_has (s.out, "1253 MHz");
  assert_has (s.out, "98304 bytes (96 KiB)");
  assert_has (s.out, "Table 6.1");
}

static void
test_show_json (Fixture *f, gconstpointer data)
{
  g_auto (Run) r = cli (f, "--json", "hw", "show", "GTX 970", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_autoptr (JsonNode) root = parse (r.out);
  JsonObject *o = json_node_get_object (root);
  g_assert_cmpstr (json_object_get_string_member (o, "kind"), ==, "gpu");
  g_assert_cmpstr (json_object_get_string_member (o, "name"), ==, "GTX 970");
  g_assert_cmpint (json_object_get_int_member (o, "sms"), ==, 13);
  g_assert_cmpint (json_object_get_int_member (o, "dram_bus_width_bits"), ==, 256);
  g_assert_cmpfloat (json_object_get_double_member (o, "dram_bandwidth_gbs"), ==, 224.384);
  JsonObject *pipes = json_object_get_object_member (o, "pipes");
  g_assert_cmpfloat (json_object_get_double_member (json_object_get_object_member (pipes, "global"), "latency"), ==,
                     350);

  g_auto (Run) l = cli (f, "hw", "show", "--json", "PCIe 2.0 x4 (GTX TITAN X test bed)", NULL);
  g_assert_cmpint (l.status, ==, 0);
  g_autoptr (JsonNode) lroot = parse (l.out);
  JsonObject *lo = json_node_get_object (lroot);
  g_assert_cmpfloat (json_object_get_double_member (lo, "h2d_lambda"), ==, 0.844);
  g_assert_cmpfloat (json_object_get_double_member (lo, "d2h_startup_us"), ==, 11.68);
}

static void
test_unknown_gpu_exit_2 (Fixture *f, gconstpointer data)
{
  g_auto (Run) r = cli (f, "hw", "show", "GTX 907", NULL);
  g_assert_cmpint (r.status, ==, 2);
  g_assert_cmpstr (r.out, ==, "");
  assert_has (r.err, "'GTX 907'");
  assert_has (r.err, "did you mean");
  assert_has (r.err, "GTX 970");

  g_auto (Run) e = cli (f, "hw", "export", "H10", NULL);
  g_assert_cmpint (e.status, ==, 2);
  assert_has (e.err, "H100 SXM");

  g_auto (Run) u = cli (f, "hw", "lst", NULL);
  g_assert_cmpint (u.status, ==, 2);
  assert_has (u.err, "did you mean list");
}

static char *
write_file (Fixture *f, const char *name, const char *text)
{
  char *path = g_build_filename (f->dir, name, NULL);
  g_assert_true (g_file_set_contents (path, text, -1, NULL));
  return path;
}

static void
test_export_import_round_trip (Fixture *f, gconstpointer data)
{
  g_autofree char *exported = g_build_filename (f->dir, "a100.json", NULL);
  g_auto (Run) e = cli (f, "hw", "export", "A100", "-o", exported, NULL);
  g_assert_cmpint (e.status, ==, 0);
  g_auto (Run) e2 = cli (f, "hw", "export", "A100", NULL);
  g_assert_cmpint (e2.status, ==, 0);
  g_autofree char *file_text = NULL;
  g_assert_true (g_file_get_contents (exported, &file_text, NULL, NULL));
  g_assert_cmpstr (file_text, ==, e2.out);

  /* Rename and re-import; every field must come back identical. */
  g_autoptr (JsonNode) node = parse (file_text);
  json_object_set_string_member (json_node_get_object (node), "name", "A100 copy");
  g_autoptr (JsonGenerator) gen = json_generator_new ();
  json_generator_set_root (gen, node);
  g_autofree char *renamed = json_generator_to_data (gen, NULL);
  g_autofree char *copy_path = write_file (f, "copy.json", renamed);
  g_auto (Run) i = cli (f, "hw", "import", copy_path, NULL);
  g_assert_cmpint (i.status, ==, 0);
  assert_has (i.err, "imported gpu 'A100 copy'");

  g_auto (Run) s = cli (f, "--json", "hw", "show", "A100 copy", NULL);
  g_assert_cmpint (s.status, ==, 0);
  g_autoptr (JsonNode) back = parse (s.out);
  g_assert_true (json_node_equal (back, node));
}

static void
test_import_duplicate (Fixture *f, gconstpointer data)
{
  g_autofree char *path = g_build_filename (f->dir, "970.json", NULL);
  g_auto (Run) e = cli (f, "hw", "export", "GTX 970", "--output", path, NULL);
  g_assert_cmpint (e.status, ==, 0);

  g_auto (Run) d = cli (f, "hw", "import", path, NULL);
  g_assert_cmpint (d.status, ==, 1);
  assert_has (d.err, path);
  assert_has (d.err, "duplicate name");
  assert_has (d.err, "GTX 970");
  assert_has (d.err, "--replace");

  g_auto (Run) r = cli (f, "hw", "import", "--replace", path, NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_auto (Run) l = cli (f, "--json", "hw", "list", "--kind", "gpu", NULL);
  g_autoptr (JsonNode) root = parse (l.out);
  guint n = 0;
  JsonArray *arr = json_node_get_array (root);
  for (guint i = 0; i < json_array_get_length (arr); i++)
    n += g_str_equal (json_object_get_string_member (json_array_get_object_element (arr, i), "name"), "GTX 970");
  g_assert_cmpuint (n, ==, 1);
}

static void
test_import_invalid (Fixture *f, gconstpointer data)
{
  g_auto (Run) e = cli (f, "--json", "hw", "show", "Core i7-4790K", NULL);
  g_assert_cmpint (e.status, ==, 0);
  g_autoptr (JsonNode) node = parse (e.out);
  JsonObject *o = json_node_get_object (node);
  json_object_set_string_member (o, "name", "Test CPU");
  json_object_set_int_member (o, "coers", 8);
  g_autoptr (JsonGenerator) gen = json_generator_new ();
  json_generator_set_root (gen, node);
  g_autofree char *text = json_generator_to_data (gen, NULL);
  g_autofree char *path = write_file (f, "bad-cpu.json", text);

  g_auto (Run) r = cli (f, "hw", "import", path, NULL);
  g_assert_cmpint (r.status, ==, 2);
  assert_has (r.err, "bad-cpu.json");
  assert_has (r.err, "unknown field 'coers'");
  assert_has (r.err, "did you mean 'cores'?");

  g_autofree char *path2 = write_file (
    f, "range.json",
    "[{\"kind\":\"link\",\"name\":\"L1\",\"type\":\"PCIe\",\"h2d_bandwidth_gbs\":1,\"h2d_startup_us\":1,"
    "\"h2d_lambda\":0.5,\"d2h_bandwidth_gbs\":1,\"d2h_startup_us\":1,\"d2h_lambda\":0.5},"
    " {\"kind\":\"link\",\"name\":\"L2\",\"type\":\"PCIe\",\"h2d_bandwidth_gbs\":1,\"h2d_startup_us\":1,"
    "\"h2d_lambda\":2,\"d2h_bandwidth_gbs\":1,\"d2h_startup_us\":1,\"d2h_lambda\":0.5}]");
  g_auto (Run) r2 = cli (f, "hw", "import", path2, NULL);
  g_assert_cmpint (r2.status, ==, 2);
  assert_has (r2.err, "range.json: element 2: link 'L2': value 2 of field 'h2d_lambda' is out of range");
  /* Nothing of a rejected file is imported. */
  g_auto (Run) s = cli (f, "hw", "show", "L1", NULL);
  g_assert_cmpint (s.status, ==, 2);

  g_autofree char *path3 = write_file (
    f, "missing.json", "{\"kind\":\"cpu\",\"name\":\"C\",\"vendor\":\"V\",\"model\":\"M\",\"cores\":4,\"gflops\":10}");
  g_auto (Run) r3 = cli (f, "hw", "import", path3, NULL);
  g_assert_cmpint (r3.status, ==, 2);
  assert_has (r3.err, "missing.json: CPU 'C': missing required field 'clock_mhz'");

  g_autofree char *path4 = write_file (f, "type.json",
                                       "{\"kind\":\"cpu\",\"name\":\"C\",\"vendor\":\"V\",\"model\":\"M\",\"cores\":"
                                       "\"four\",\"clock_mhz\":1,\"gflops\":10}");
  g_auto (Run) r4 = cli (f, "hw", "import", path4, NULL);
  g_assert_cmpint (r4.status, ==, 2);
  assert_has (r4.err, "field 'cores' has the wrong type");

  g_autofree char *path5 = write_file (f, "syntax.json", "{\"kind\": \"cpu\",, }");
  g_auto (Run) r5 = cli (f, "hw", "import", path5, NULL);
  g_assert_cmpint (r5.status, ==, 2);
  assert_has (r5.err, "syntax.json");

  g_auto (Run) r6 = cli (f, "hw", "import", "no-such-file.json", NULL);
  g_assert_cmpint (r6.status, ==, 2);
  assert_has (r6.err, "no-such-file.json");
}

static void
test_import_array_of_kinds (Fixture *f, gconstpointer data)
{
  g_autofree char *path = write_file (
    f, "two.json",
    "[{\"kind\":\"cpu\",\"name\":\"Lab CPU\",\"vendor\":\"V\",\"model\":\"M\",\"cores\":8,\"clock_mhz\":3000,"
    "\"gflops\":384.5},"
    " {\"kind\":\"link\",\"name\":\"Lab link\",\"type\":\"NVLink\",\"h2d_bandwidth_gbs\":25,\"h2d_startup_us\":2.5,"
    "\"h2d_lambda\":0.9,\"d2h_bandwidth_gbs\":25,\"d2h_startup_us\":2.75,\"d2h_lambda\":0.875}]");
  g_auto (Run) r = cli (f, "--json", "hw", "import", path, NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_autoptr (JsonNode) out = parse (r.out);
  JsonArray *imported = json_object_get_array_member (json_node_get_object (out), "imported");
  g_assert_cmpuint (json_array_get_length (imported), ==, 2);

  g_auto (Run) s = cli (f, "--json", "hw", "show", "lab link", NULL);
  g_assert_cmpint (s.status, ==, 0);
  g_autoptr (JsonNode) link = parse (s.out);
  g_assert_cmpfloat (json_object_get_double_member (json_node_get_object (link), "d2h_lambda"), ==, 0.875);

  g_auto (Run) d = cli (f, "hw", "delete", "Lab CPU", NULL);
  g_assert_cmpint (d.status, ==, 0);
  g_auto (Run) s2 = cli (f, "hw", "show", "Lab CPU", NULL);
  g_assert_cmpint (s2.status, ==, 2);
}

/* `hw show` as (group, label, value) rows: the value column is where the
 * "Name" row's value starts. */
typedef struct {
  char *group;
  char *label;
  char *value;
} ShowRow;

static void
show_row_free (ShowRow *row)
{
  g_free (row->group);
  g_free (row->label);
  g_free (row->value);
  g_free (row);
}

static GPtrArray *
parse_show (const char *out, const char *name)
{
  GPtrArray *rows = g_ptr_array_new_with_free_func ((GDestroyNotify) show_row_free);
  g_auto (GStrv) lines = g_strsplit (out, "\n", -1);
  g_autofree char *group = NULL;
  glong column = -1;

  for (guint i = 0; lines[i] != NULL; i++)
    if (g_str_has_prefix (lines[i], "  Name ") && g_str_has_suffix (lines[i], name))
      column = g_utf8_strlen (lines[i], -1) - g_utf8_strlen (name, -1);
  g_assert_cmpint (column, >, 2);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *line = lines[i];
      if (*line == '\0')
        continue;
      if (*line != ' ')
        {
          /* The sources come last, as wrapped text. */
          if (g_str_equal (line, "Sources"))
            break;
          g_free (group);
          group = g_strdup (line);
          continue;
        }
      g_assert_cmpint (g_utf8_strlen (line, -1), >, column);
      ShowRow *row = g_new0 (ShowRow, 1);
      const char *at = g_utf8_offset_to_pointer (line, column);
      row->group = g_strdup (group);
      row->label = g_strstrip (g_strndup (line + 2, at - line - 2));
      row->value = g_strdup (at);
      g_ptr_array_add (rows, row);
    }
  return rows;
}

/* The row labelled @label in group @group, asserting there is exactly one. */
static const ShowRow *
show_row_once (GPtrArray *rows, const char *group, const char *label)
{
  const ShowRow *found = NULL;
  for (guint i = 0; i < rows->len; i++)
    {
      const ShowRow *row = rows->pdata[i];
      if (g_strcmp0 (row->group, group) == 0 && g_str_equal (row->label, label))
        {
          if (found != NULL)
            g_error ("'%s' / '%s' is shown twice", group, label);
          found = row;
        }
    }
  if (found == NULL)
    g_error ("core's row '%s' / '%s' is not shown", group, label);
  return found;
}

/* Every row of `hw show` is one of core's table (ws_hw_fields,
 * ws_hw_derived), under core's group and label, each exactly once. */
static void
test_show_rows_from_core_table (Fixture *f, gconstpointer data)
{
  static const struct {
    const char *name;
    WsHwKind kind;
  } records[] = {
    { "GTX 970", WS_HW_GPU },
    { "PCIe 2.0 x4 (GTX TITAN X test bed)", WS_HW_LINK },
  };
  for (guint r = 0; r < G_N_ELEMENTS (records); r++)
    {
      g_auto (Run) s = cli (f, "hw", "show", records[r].name, NULL);
      g_assert_cmpint (s.status, ==, 0);
      g_autoptr (GPtrArray) rows = parse_show (s.out, records[r].name);
      guint n_fields, n_derived, expected = 0;
      const WsHwField *fields = ws_hw_fields (records[r].kind, &n_fields);
      const WsHwDerived *derived = ws_hw_derived (records[r].kind, &n_derived);

      for (guint i = 0; i < n_fields; i++)
        {
          if (fields[i].format == WS_HW_FORMAT_PARAGRAPH)
            {
              /* Sources: a heading of their own over the wrapped text. */
              g_autofree char *heading = g_strdup_printf ("\n%s\n  ", fields[i].label);
              assert_has (s.out, heading);
              continue;
            }
          show_row_once (rows, fields[i].group, fields[i].label);
          expected++;
        }
      for (guint i = 0; i < n_derived; i++)
        show_row_once (rows, ws_hw_derived_group (), derived[i].label);
      expected += n_derived;
      if (records[r].kind == WS_HW_GPU)
        expected += WS_ICLASS_COUNT;
      g_assert_cmpuint (rows->len, ==, expected);
      if (records[r].kind == WS_HW_GPU)
        {
          g_assert_cmpstr (show_row_once (rows, "General", "Die area")->value, ==, "398 mm²");
          g_assert_cmpstr (show_row_once (rows, "Compute", "Core clock")->value, ==, "1253 MHz");
          g_assert_cmpstr (show_row_once (rows, "Derived", "Peak FP32 throughput")->value, ==, "4170 GFLOP/s");
        }
    }
}

/* die_area_mm2, the field added as one row of core's table: exported,
 * imported, validated and shown with no code of its own in the CLI. */
static void
test_new_field_round_trip (Fixture *f, gconstpointer data)
{
  g_autofree char *out = g_build_filename (f->dir, "h100.json", NULL);
  g_auto (Run) e = cli (f, "hw", "export", "H100 SXM", "-o", out, NULL);
  g_assert_cmpint (e.status, ==, 0);
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_assert_true (json_parser_load_from_file (parser, out, NULL));
  JsonObject *o = json_node_get_object (json_parser_get_root (parser));
  /* GH100, NVIDIA H100 whitepaper. */
  g_assert_cmpfloat (json_object_get_double_member (o, "die_area_mm2"), ==, 814);

  json_object_set_string_member (o, "name", "H100 die");
  json_object_set_double_member (o, "die_area_mm2", 815.5);
  g_autoptr (JsonGenerator) gen = json_generator_new ();
  json_generator_set_root (gen, json_parser_get_root (parser));
  g_assert_true (json_generator_to_file (gen, out, NULL));
  g_auto (Run) i = cli (f, "hw", "import", out, NULL);
  g_assert_cmpint (i.status, ==, 0);
  g_auto (Run) j = cli (f, "--json", "hw", "show", "H100 die", NULL);
  g_assert_cmpint (j.status, ==, 0);
  g_autoptr (JsonNode) back = parse (j.out);
  g_assert_cmpfloat (json_object_get_double_member (json_node_get_object (back), "die_area_mm2"), ==, 815.5);
  g_auto (Run) t = cli (f, "hw", "show", "H100 die", NULL);
  assert_has (t.out, "815.5 mm²");

  /* Optional: a file from before the field imports, and reads "unknown". */
  json_object_remove_member (o, "die_area_mm2");
  json_object_set_string_member (o, "name", "H100 old file");
  g_assert_true (json_generator_to_file (gen, out, NULL));
  g_auto (Run) i2 = cli (f, "hw", "import", out, NULL);
  g_assert_cmpint (i2.status, ==, 0);
  g_auto (Run) t2 = cli (f, "hw", "show", "H100 old file", NULL);
  g_autoptr (GPtrArray) rows = parse_show (t2.out, "H100 old file");
  g_assert_cmpstr (show_row_once (rows, "General", "Die area")->value, ==, "unknown");

  /* Validated against the table's range, by name. */
  json_object_set_double_member (o, "die_area_mm2", -3);
  json_object_set_string_member (o, "name", "H100 bad");
  g_assert_true (json_generator_to_file (gen, out, NULL));
  g_auto (Run) i3 = cli (f, "hw", "import", out, NULL);
  g_assert_cmpint (i3.status, ==, 2);
  assert_has (i3.err, "value -3 of field 'die_area_mm2' is out of range");
}

/* Several processes meeting a database that does not exist yet: all of them
 * succeed and the catalogue is seeded once (the busy timeout, the retried
 * switch to WAL, which SQLite answers "database is locked" at once to all
 * but one of them (1 run in 40 failed with 4 processes before), and the
 * re-check of user_version under the write lock). */
static void
test_parallel_first_use (Fixture *f, gconstpointer data)
{
  const char *exe = g_getenv ("WS_CLI");
  GSubprocess *procs[8];
  for (guint i = 0; i < G_N_ELEMENTS (procs); i++)
    {
      g_autoptr (GError) error = NULL;
      procs[i] = g_subprocess_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE, &error, exe, "--db",
                                   f->db, "--json", "hw", "list", "--kind", "gpu", NULL);
      g_assert_no_error (error);
    }
  gint64 count = -1;
  for (guint i = 0; i < G_N_ELEMENTS (procs); i++)
    {
      g_autoptr (GError) error = NULL;
      g_autofree char *out = NULL, *err = NULL;
      g_assert_true (g_subprocess_communicate_utf8 (procs[i], NULL, NULL, &out, &err, &error));
      g_assert_no_error (error);
      if (g_subprocess_get_exit_status (procs[i]) != 0)
        g_error ("process %u failed: %s", i, err);
      g_autoptr (JsonNode) root = parse (out);
      gint64 n = json_array_get_length (json_node_get_array (root));
      g_assert_cmpint (n, >=, 14);
      if (count >= 0)
        g_assert_cmpint (n, ==, count);
      count = n;
      g_object_unref (procs[i]);
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
#define ADD(path, fn) g_test_add (path, Fixture, NULL, fixture_setup, fn, fixture_teardown)
  ADD ("/cli/hw/list-json-fields", test_list_json);
  ADD ("/cli/hw/list-and-show-text", test_list_and_show_text);
  ADD ("/cli/hw/show-json-full-record", test_show_json);
  ADD ("/cli/hw/show-rows-from-core-table", test_show_rows_from_core_table);
  ADD ("/cli/hw/new-field-export-import-show", test_new_field_round_trip);
  ADD ("/cli/hw/unknown-name-exit-2-suggests", test_unknown_gpu_exit_2);
  ADD ("/cli/hw/export-import-round-trip", test_export_import_round_trip);
  ADD ("/cli/hw/import-duplicate-needs-replace", test_import_duplicate);
  ADD ("/cli/hw/import-invalid-names-file-and-field", test_import_invalid);
  ADD ("/cli/hw/import-array-of-kinds", test_import_array_of_kinds);
  ADD ("/cli/hw/parallel-first-use-seeds-once", test_parallel_first_use);
  return g_test_run ();
}
