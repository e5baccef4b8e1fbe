/* ws-cli-hw.c: `warpscope-cli hw list|show|import|export|delete`. */
#define G_LOG_DOMAIN "ws-cli-hw"

#include "ws-config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "ws-cli.h"
#include "base/ws-json.h"

int ws_cli_cmd_hw (WsCli *cli, int argc, char **argv);

/* ------------------------------------------------------------------------ */
/* Formatting */

/* Like ws_cli_print_json(), with numbers in their shortest exact form. */
static void
print_json (JsonNode *node)
{
  g_autofree char *text = ws_hw_json_to_data (node, TRUE);
  fputs (text, stdout);
  fputc ('\n', stdout);
  fflush (stdout);
}

/* Prints @text indented by @indent, wrapped at 78 columns. */
static void
print_wrapped (const char *text, int indent)
{
  g_auto (GStrv) words = g_strsplit (text, " ", -1);
  int col = indent;
  printf ("%*s", indent, "");
  for (guint i = 0; words[i] != NULL; i++)
    {
      int len = (int) g_utf8_strlen (words[i], -1);
      if (col > indent && col + 1 + len > 78)
        {
          printf ("\n%*s", indent, "");
          col = indent;
        }
      else if (col > indent)
        {
          putchar (' ');
          col++;
        }
      fputs (words[i], stdout);
      col += len;
    }
  putchar ('\n');
}

static char *
format_double (double v)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];
  /* %.6g keeps 1253 as "1253" and 0.703787 as "0.703787". */
  return g_strdup (g_ascii_formatd (buf, sizeof buf, "%.6g", v));
}

static char *
format_bytes_hint (gint64 bytes)
{
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) == 0)
    return g_strdup_printf (" (%" G_GINT64_FORMAT " MiB)", bytes / (1024 * 1024));
  if (bytes >= 1024 && bytes % 1024 == 0)
    return g_strdup_printf (" (%" G_GINT64_FORMAT " KiB)", bytes / 1024);
  return g_strdup ("");
}

/* Renders core's display hint in the CLI's style: stored numbers exactly,
 * in the C locale, byte counts with their binary size as a hint; computed
 * figures (@decimals >= 0) rounded to the table's decimals. */
static char *
format_value (double v, WsHwFormat format, int decimals, const char *unit)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];
  g_autofree char *num = NULL;

  if (isnan (v))
    return g_strdup (_ ("unknown"));
  const char *u = ws_hw_text (unit);
  if (format == WS_HW_FORMAT_VERSION)
    return g_strdup (g_ascii_formatd (buf, sizeof buf, "%.1f", v));
  if (format == WS_HW_FORMAT_COUNT || format == WS_HW_FORMAT_BYTES)
    num = g_strdup_printf ("%.0f", v);
  else if (decimals >= 0)
    {
      char fmt[16];
      g_snprintf (fmt, sizeof fmt, "%%.%df", decimals);
      num = g_strdup (g_ascii_formatd (buf, sizeof buf, fmt, v));
      /* "4170.0" -> "4170", "0.050" -> "0.05" */
      if (strchr (num, '.') != NULL)
        {
          char *end = num + strlen (num) - 1;
          while (*end == '0')
            *end-- = '\0';
          if (*end == '.')
            *end = '\0';
        }
    }
  else
    num = format_double (v);
  g_autofree char *hint = format == WS_HW_FORMAT_BYTES ? format_bytes_hint ((gint64) v) : g_strdup ("");
  return g_strdup_printf ("%s%s%s%s", num, *u ? " " : "", u, hint);
}

static char *
format_field (const WsHwField *f, const void *rec)
{
  if (f->type == WS_HW_FIELD_STRING)
    {
      const char *s = ws_hw_field_get_string (f, rec);
      return g_strdup (s != NULL ? s : "");
    }
  /* Optional figures (peak L1/L2 bandwidth) use 0 for "no published
   * value"; printing "0 bytes/clock" would read as a real zero. */
  if (ws_hw_field_is_unknown (f, rec))
    return format_value (NAN, f->format, -1, f->unit);
  return format_value (ws_hw_field_get_number (f, rec), f->format, -1, f->unit);
}

/* ------------------------------------------------------------------------ */
/* hw list */

static JsonNode *
gpu_summary (const WsGpu *g)
{
  g_autoptr (JsonBuilder) b = json_builder_new ();
  g_autofree char *cc = g_strdup_printf ("%d.%d", g->cc_major, g->cc_minor);
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "name");
  json_builder_add_string_value (b, g->name);
  json_builder_set_member_name (b, "kind");
  json_builder_add_string_value (b, "gpu");
  json_builder_set_member_name (b, "architecture");
  json_builder_add_string_value (b, g->architecture);
  json_builder_set_member_name (b, "compute_capability");
  json_builder_add_string_value (b, cc);
  json_builder_set_member_name (b, "sms");
  json_builder_add_int_value (b, g->sms);
  json_builder_set_member_name (b, "core_clock_mhz");
  json_builder_add_double_value (b, g->core_clock_mhz);
  json_builder_set_member_name (b, "memory_gb");
  json_builder_add_double_value (b, g->memory_gb);
  json_builder_set_member_name (b, "dram_bandwidth_gbs");
  json_builder_add_double_value (b, g->dram_bandwidth_gbs);
  json_builder_set_member_name (b, "peak_fp32_gflops");
  json_builder_add_double_value (b, ws_gpu_peak_fp32_gflops (g));
  json_builder_end_object (b);
  return json_builder_get_root (b);
}

static JsonNode *
cpu_summary (const WsCpu *c)
{
  g_autoptr (JsonBuilder) b = json_builder_new ();
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "name");
  json_builder_add_string_value (b, c->name);
  json_builder_set_member_name (b, "kind");
  json_builder_add_string_value (b, "cpu");
  json_builder_set_member_name (b, "vendor");
  json_builder_add_string_value (b, c->vendor);
  json_builder_set_member_name (b, "cores");
  json_builder_add_int_value (b, c->cores);
  json_builder_set_member_name (b, "clock_mhz");
  json_builder_add_double_value (b, c->clock_mhz);
  json_builder_set_member_name (b, "gflops");
  json_builder_add_double_value (b, c->gflops);
  json_builder_end_object (b);
  return json_builder_get_root (b);
}

static JsonNode *
link_summary (const WsLink *l)
{
  g_autoptr (JsonBuilder) b = json_builder_new ();
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "name");
  json_builder_add_string_value (b, l->name);
  json_builder_set_member_name (b, "kind");
  json_builder_add_string_value (b, "link");
  json_builder_set_member_name (b, "type");
  json_builder_add_string_value (b, l->type);
  json_builder_set_member_name (b, "h2d_bandwidth_gbs");
  json_builder_add_double_value (b, l->h2d_bandwidth_gbs);
  json_builder_set_member_name (b, "d2h_bandwidth_gbs");
  json_builder_add_double_value (b, l->d2h_bandwidth_gbs);
  json_builder_end_object (b);
  return json_builder_get_root (b);
}

static int hw_list_print (WsCli *cli, GPtrArray *gpus, GPtrArray *cpus, GPtrArray *links);

static int
hw_list (WsCli *cli, int argc, char **argv)
{
  g_autofree char *kind_arg = NULL;
  const GOptionEntry entries[] = {
    { "kind", 'k', 0, G_OPTION_ARG_STRING, &kind_arg, N_ ("List only one kind: gpu, cpu or link"), "KIND" }, { NULL }
  };
  if (!ws_cli_parse_options (cli, &argc, &argv, entries, "", _ ("List the hardware catalogue.")))
    return WS_EXIT_USAGE;
  if (argc > 1)
    return ws_cli_fail (cli, WS_EXIT_USAGE, _ ("hw list takes no arguments (got '%s')"), argv[1]);

  gboolean want[3] = { TRUE, TRUE, TRUE };
  if (kind_arg != NULL)
    {
      WsHwKind k;
      if (!ws_hw_kind_from_string (kind_arg, &k))
        return ws_cli_fail (cli, WS_EXIT_USAGE, _ ("unknown kind '%s'; use gpu, cpu or link"), kind_arg);
      want[WS_HW_GPU] = k == WS_HW_GPU;
      want[WS_HW_CPU] = k == WS_HW_CPU;
      want[WS_HW_LINK] = k == WS_HW_LINK;
    }

  WsStore *store = ws_cli_store (cli);
  if (store == NULL)
    return WS_EXIT_FAILURE;
  g_autoptr (GError) error = NULL;
  /* Damaged records are reported after the list, which shows the rest;
   * the exit code says that something could not be read. */
  g_autoptr (GPtrArray) damaged = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GPtrArray) gpus = want[WS_HW_GPU] ? ws_store_list_hw (store, WS_HW_GPU, damaged, &error)
                                               : g_ptr_array_new ();
  if (gpus == NULL)
    return ws_cli_fail_error (cli, error);
  g_autoptr (GPtrArray) cpus = want[WS_HW_CPU] ? ws_store_list_hw (store, WS_HW_CPU, damaged, &error)
                                               : g_ptr_array_new ();
  if (cpus == NULL)
    return ws_cli_fail_error (cli, error);
  g_autoptr (GPtrArray) links = want[WS_HW_LINK] ? ws_store_list_hw (store, WS_HW_LINK, damaged, &error)
                                                 : g_ptr_array_new ();
  if (links == NULL)
    return ws_cli_fail_error (cli, error);
  int rc = hw_list_print (cli, gpus, cpus, links);
  for (guint i = 0; i < damaged->len; i++)
    ws_cli_fail (cli, WS_EXIT_FAILURE, _ ("skipped a damaged record: %s"), (char *) damaged->pdata[i]);
  return damaged->len > 0 ? WS_EXIT_FAILURE : rc;
}

static int
hw_list_print (WsCli *cli, GPtrArray *gpus, GPtrArray *cpus, GPtrArray *links)
{
  if (cli->json)
    {
      g_autoptr (JsonArray) arr = json_array_new ();
      for (guint i = 0; i < gpus->len; i++)
        json_array_add_element (arr, gpu_summary (gpus->pdata[i]));
      for (guint i = 0; i < cpus->len; i++)
        json_array_add_element (arr, cpu_summary (cpus->pdata[i]));
      for (guint i = 0; i < links->len; i++)
        json_array_add_element (arr, link_summary (links->pdata[i]));
      g_autoptr (JsonNode) root = json_node_new (JSON_NODE_ARRAY);
      json_node_set_array (root, arr);
      print_json (root);
      return WS_EXIT_OK;
    }

  if (gpus->len > 0)
    {
      printf ("%-18s %-10s %4s %5s %9s %8s %10s %11s\n", _ ("GPU"), _ ("Arch"), _ ("CC"), _ ("SMs"), _ ("Clock/MHz"),
              _ ("Mem/GB"), _ ("DRAM GB/s"), _ ("FP32 GFLOP/s"));
      for (guint i = 0; i < gpus->len; i++)
        {
          const WsGpu *g = gpus->pdata[i];
          printf ("%-18s %-10s %2d.%d %5d %9.0f %8g %10.1f %11.0f\n", g->name, g->architecture, g->cc_major,
                  g->cc_minor, g->sms, g->core_clock_mhz, g->memory_gb, g->dram_bandwidth_gbs,
                  ws_gpu_peak_fp32_gflops (g));
        }
    }
  if (cpus->len > 0)
    {
      if (gpus->len > 0)
        printf ("\n");
      printf ("%-22s %-7s %6s %10s %9s\n", _ ("CPU"), _ ("Vendor"), _ ("Cores"), _ ("Clock/MHz"), _ ("GFLOP/s"));
      for (guint i = 0; i < cpus->len; i++)
        {
          const WsCpu *c = cpus->pdata[i];
          printf ("%-22s %-7s %6d %10.0f %9.1f\n", c->name, c->vendor, c->cores, c->clock_mhz, c->gflops);
        }
    }
  if (links->len > 0)
    {
      if (gpus->len + cpus->len > 0)
        printf ("\n");
      printf ("%-38s %-7s %12s %12s\n", _ ("Link"), _ ("Type"), _ ("H2D GB/s"), _ ("D2H GB/s"));
      for (guint i = 0; i < links->len; i++)
        {
          const WsLink *l = links->pdata[i];
          printf ("%-38s %-7s %12g %12g\n", l->name, l->type, l->h2d_bandwidth_gbs, l->d2h_bandwidth_gbs);
        }
    }
  return WS_EXIT_OK;
}

/* ------------------------------------------------------------------------ */
/* hw show / export */

typedef struct {
  WsHwKind kind;
  void *rec;
} Component;

static void
component_clear (Component *c)
{
  if (c->rec == NULL)
    return;
  switch (c->kind)
    {
    case WS_HW_GPU: ws_gpu_free (c->rec); break;
    case WS_HW_CPU: ws_cpu_free (c->rec); break;
    case WS_HW_LINK: ws_link_free (c->rec); break;
    }
  c->rec = NULL;
}
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Component, component_clear)

/* Looks @name up among all kinds; prints the error (with suggestions) and
 * sets *exit_code when it is not there. */
static gboolean
lookup_component (WsCli *cli, const char *name, Component *out, int *exit_code)
{
  WsStore *store = ws_cli_store (cli);
  if (store == NULL)
    {
      *exit_code = WS_EXIT_FAILURE;
      return FALSE;
    }
  g_autoptr (GError) error = NULL;
  if (!ws_store_find_hw (store, name, &out->kind, &error))
    {
      *exit_code = ws_cli_fail_error (cli, error);
      return FALSE;
    }
  switch (out->kind)
    {
    case WS_HW_GPU: out->rec = ws_store_get_gpu (store, name, &error); break;
    case WS_HW_CPU: out->rec = ws_store_get_cpu (store, name, &error); break;
    case WS_HW_LINK: out->rec = ws_store_get_link (store, name, &error); break;
    }
  if (out->rec == NULL)
    {
      *exit_code = ws_cli_fail_error (cli, error);
      return FALSE;
    }
  return TRUE;
}

static JsonNode *
component_to_json (const Component *c)
{
  switch (c->kind)
    {
    case WS_HW_GPU: return ws_gpu_to_json (c->rec);
    case WS_HW_CPU: return ws_cpu_to_json (c->rec);
    case WS_HW_LINK: return ws_link_to_json (c->rec);
    }
  g_return_val_if_reached (NULL);
}

/* "  LABEL   VALUE", the value column at @width characters (not bytes:
 * labels may hold "λ" or umlauts). */
static void
print_row (int width, const char *label, const char *value)
{
  int pad = width - (int) g_utf8_strlen (label, -1);
  printf ("  %s%*s %s\n", label, MAX (pad, 0), "", value);
}

/* Every row comes from core's tables (ws_hw_fields, ws_hw_derived): the
 * groups, labels and units are the ones the GUI shows. */
static void
print_component_text (const Component *c)
{
  guint n, n_derived;
  const WsHwField *fields = ws_hw_fields (c->kind, &n);
  const WsHwDerived *derived = ws_hw_derived (c->kind, &n_derived);
  const char *group = NULL;
  g_autoptr (GPtrArray) paragraphs = g_ptr_array_new ();
  int width = 38;

  /* One value column for the whole record, past its longest label. */
  for (guint i = 0; i < n; i++)
    width = MAX (width, (int) g_utf8_strlen (ws_hw_text (fields[i].label), -1));
  for (guint i = 0; i < n_derived; i++)
    width = MAX (width, (int) g_utf8_strlen (ws_hw_text (derived[i].label), -1));

  for (guint i = 0; i < n; i++)
    {
      const WsHwField *f = &fields[i];
      if (f->format == WS_HW_FORMAT_PARAGRAPH)
        {
          g_ptr_array_add (paragraphs, (gpointer) f);
          continue;
        }
      if (group == NULL || strcmp (group, f->group) != 0)
        {
          group = f->group;
          printf ("%s%s\n", i > 0 ? "\n" : "", ws_hw_text (group));
        }
      g_autofree char *value = format_field (f, c->rec);
      print_row (width, ws_hw_text (f->label), value);
    }

  if (c->kind == WS_HW_GPU)
    {
      const WsGpu *g = c->rec;
      printf ("\n%s\n", _ ("Pipelines (latency / initiation interval, cycles)"));
      for (guint k = 0; k < WS_ICLASS_COUNT; k++)
        {
          g_autofree char *lat = format_double (g->pipes[k].latency);
          g_autofree char *ii = format_double (g->pipes[k].initiation_interval);
          g_autofree char *value = g_strdup_printf ("%s / %s", lat, ii);
          print_row (width, ws_hw_text (ws_iclass_label (k)), value);
        }
    }
  if (n_derived > 0)
    {
      printf ("\n%s\n", ws_hw_text (ws_hw_derived_group ()));
      for (guint i = 0; i < n_derived; i++)
        {
          g_autofree char *value = format_value (derived[i].compute (c->rec), derived[i].format,
                                                 (int) derived[i].decimals, derived[i].unit);
          print_row (width, ws_hw_text (derived[i].label), value);
        }
    }
  for (guint i = 0; i < paragraphs->len; i++)
    {
      const WsHwField *f = paragraphs->pdata[i];
      const char *text = ws_hw_field_get_string (f, c->rec);
      if (text != NULL && *text != '\0')
        {
          printf ("\n%s\n", ws_hw_text (f->label));
          print_wrapped (text, 2);
        }
    }
}

static int
hw_show (WsCli *cli, int argc, char **argv)
{
  const GOptionEntry entries[] = { { NULL } };
  if (!ws_cli_parse_options (cli, &argc, &argv, entries, _ ("NAME"), _ ("Show every parameter of a GPU, CPU or link.")))
    return WS_EXIT_USAGE;
  if (argc != 2)
    return ws_cli_fail (cli, WS_EXIT_USAGE, _ ("usage: hw show NAME (quote names with spaces)"));

  int rc = WS_EXIT_OK;
  g_auto (Component) c = { 0 };
  if (!lookup_component (cli, argv[1], &c, &rc))
    return rc;
  if (cli->json)
    {
      g_autoptr (JsonNode) node = component_to_json (&c);
      print_json (node);
    }
  else
    print_component_text (&c);
  return WS_EXIT_OK;
}

static int
hw_export (WsCli *cli, int argc, char **argv)
{
  g_autofree char *output = NULL;
  const GOptionEntry entries[] = { { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output,
                                     N_ ("Write to FILE instead of standard output"), "FILE" },
                                   { NULL } };
  if (!ws_cli_parse_options (cli, &argc, &argv, entries, _ ("NAME"),
                             _ ("Export a catalogue record as JSON (the format hw import reads).")))
    return WS_EXIT_USAGE;
  if (argc != 2)
    return ws_cli_fail (cli, WS_EXIT_USAGE, _ ("usage: hw export NAME [-o FILE]"));

  int rc = WS_EXIT_OK;
  g_auto (Component) c = { 0 };
  if (!lookup_component (cli, argv[1], &c, &rc))
    return rc;
  g_autoptr (JsonNode) node = component_to_json (&c);
  if (output == NULL)
    {
      print_json (node);
      return WS_EXIT_OK;
    }
  g_autofree char *text = ws_hw_json_to_data (node, TRUE);
  g_autofree char *with_nl = g_strconcat (text, "\n", NULL);
  g_autoptr (GError) error = NULL;
  if (!g_file_set_contents (output, with_nl, -1, &error))
    return ws_cli_fail (cli, WS_EXIT_FAILURE, _ ("cannot write %s: %s"), output, error->message);
  ws_cli_info (cli, _ ("exported %s '%s' to %s"), ws_hw_kind_name (c.kind), argv[1], output);
  return WS_EXIT_OK;
}

/* ------------------------------------------------------------------------ */
/* hw import */

static int
hw_import (WsCli *cli, int argc, char **argv)
{
  gboolean replace = FALSE;
  const GOptionEntry entries[] = { { "replace", 'r', 0, G_OPTION_ARG_NONE, &replace,
                                     N_ ("Overwrite records whose name already exists"), NULL },
                                   { NULL } };
  if (!ws_cli_parse_options (cli, &argc, &argv, entries, _ ("FILE.json"),
                             _ ("Import GPUs, CPUs or links from a JSON object or an array of them.")))
    return WS_EXIT_USAGE;
  if (argc != 2)
    return ws_cli_fail (cli, WS_EXIT_USAGE, _ ("usage: hw import [--replace] FILE.json"));
  const char *file = argv[1];

  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;
  if (!ws_json_parser_load_file (parser, file, &error))
    {
      /* Both are the user's input being wrong, hence exit code 2.  The
       * loader's messages about the content name the file. */
      if (error->domain == JSON_PARSER_ERROR)
        return ws_cli_fail (cli, WS_EXIT_USAGE, _ ("not valid JSON: %s"), error->message);
      if (error->domain == WS_ERROR)
        return ws_cli_fail (cli, WS_EXIT_USAGE, "%s", error->message);
      return ws_cli_fail (cli, WS_EXIT_USAGE, _ ("cannot read %s: %s"), file, error->message);
    }
  JsonNode *root = json_parser_get_root (parser);
  g_autoptr (GPtrArray) nodes = g_ptr_array_new ();
  gboolean is_array = root != NULL && JSON_NODE_HOLDS_ARRAY (root);
  if (is_array)
    {
      JsonArray *arr = json_node_get_array (root);
      for (guint i = 0; i < json_array_get_length (arr); i++)
        g_ptr_array_add (nodes, json_array_get_element (arr, i));
    }
  else if (root != NULL && JSON_NODE_HOLDS_OBJECT (root))
    g_ptr_array_add (nodes, root);
  else
    return ws_cli_fail (cli, WS_EXIT_USAGE, _ ("%s: expected a JSON object (one GPU, CPU or link) or an array of them"),
                        file);
  if (nodes->len == 0)
    return ws_cli_fail (cli, WS_EXIT_USAGE, _ ("%s: the array is empty; nothing to import"), file);

  WsStore *store = ws_cli_store (cli);
  if (store == NULL)
    return WS_EXIT_FAILURE;

  /* Validate everything before writing anything, so a bad element in the
   * middle of a file does not leave half of it imported. */
  g_autoptr (GArray) comps = g_array_new (FALSE, TRUE, sizeof (Component));
  g_array_set_clear_func (comps, (GDestroyNotify) component_clear);
  for (guint i = 0; i < nodes->len; i++)
    {
      g_autofree char *where = is_array ? g_strdup_printf ("%s: element %u", file, i + 1) : g_strdup (file);
      Component c = { 0 };
      if (!ws_hw_json_get_kind (nodes->pdata[i], &c.kind, &error))
        return ws_cli_fail (cli, WS_EXIT_USAGE, "%s: %s", where, error->message);
      switch (c.kind)
        {
        case WS_HW_GPU: c.rec = ws_gpu_from_json (nodes->pdata[i], &error); break;
        case WS_HW_CPU: c.rec = ws_cpu_from_json (nodes->pdata[i], &error); break;
        case WS_HW_LINK: c.rec = ws_link_from_json (nodes->pdata[i], &error); break;
        }
      if (c.rec == NULL)
        return ws_cli_fail (cli, WS_EXIT_USAGE, "%s: %s", where, error->message);
      g_array_append_val (comps, c);
      const char *name = *(char *const *) c.rec;

      for (guint j = 0; j + 1 < comps->len; j++)
        if (g_ascii_strcasecmp (*(char *const *) g_array_index (comps, Component, j).rec, name) == 0)
          return ws_cli_fail (cli, WS_EXIT_FAILURE, _ ("%s: duplicate name '%s' (also element %u of the file)"), where,
                              name, j + 1);
      WsHwKind existing;
      if (ws_store_find_hw (store, name, &existing, NULL) && (!replace || existing != c.kind))
        {
          if (existing != c.kind)
            return ws_cli_fail (cli, WS_EXIT_FAILURE,
                                _ ("%s: duplicate name '%s': the catalogue already has a %s of that name"), where, name,
                                ws_hw_kind_name (existing));
          return ws_cli_fail (cli, WS_EXIT_FAILURE,
                              _ ("%s: duplicate name: %s '%s' already exists in the catalogue; "
                                 "use --replace to overwrite it"),
                              where, ws_hw_kind_name (c.kind), name);
        }
    }

  /* One transaction: a failure, or a kill before the commit, leaves the
   * catalogue as it was rather than half of the file imported. */
  g_autofree WsHwPut *puts = g_new0 (WsHwPut, comps->len);
  for (guint i = 0; i < comps->len; i++)
    {
      Component *c = &g_array_index (comps, Component, i);
      puts[i].kind = c->kind;
      puts[i].record = c->rec;
    }
  if (!ws_store_put_hw_many (store, puts, comps->len, replace, &error))
    {
      g_prefix_error (&error, "%s: ", file);
      return ws_cli_fail_error (cli, error);
    }
  g_autoptr (JsonArray) done = json_array_new ();
  for (guint i = 0; i < comps->len; i++)
    {
      Component *c = &g_array_index (comps, Component, i);
      const char *name = *(char *const *) c->rec;
      g_autoptr (JsonObject) o = json_object_new ();
      json_object_set_string_member (o, "name", name);
      json_object_set_string_member (o, "kind", ws_hw_kind_name (c->kind));
      json_array_add_object_element (done, g_steal_pointer (&o));
      if (!cli->json)
        ws_cli_info (cli, _ ("imported %s '%s'"), ws_hw_kind_name (c->kind), name);
    }
  if (cli->json)
    {
      g_autoptr (JsonBuilder) b = json_builder_new ();
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "imported");
      JsonNode *arr = json_node_new (JSON_NODE_ARRAY);
      json_node_set_array (arr, done);
      json_builder_add_value (b, arr);
      json_builder_end_object (b);
      g_autoptr (JsonNode) out = json_builder_get_root (b);
      print_json (out);
    }
  return WS_EXIT_OK;
}

/* ------------------------------------------------------------------------ */
/* hw delete */

static int
hw_delete (WsCli *cli, int argc, char **argv)
{
  const GOptionEntry entries[] = { { NULL } };
  if (!ws_cli_parse_options (cli, &argc, &argv, entries, _ ("NAME"),
                             _ ("Remove a GPU, CPU or link from the catalogue.")))
    return WS_EXIT_USAGE;
  if (argc != 2)
    return ws_cli_fail (cli, WS_EXIT_USAGE, _ ("usage: hw delete NAME"));
  WsStore *store = ws_cli_store (cli);
  if (store == NULL)
    return WS_EXIT_FAILURE;
  g_autoptr (GError) error = NULL;
  WsHwKind kind;
  if (!ws_store_find_hw (store, argv[1], &kind, &error) || !ws_store_delete_hw (store, kind, argv[1], &error))
    return ws_cli_fail_error (cli, error);
  ws_cli_info (cli, _ ("deleted %s '%s'"), ws_hw_kind_name (kind), argv[1]);
  return WS_EXIT_OK;
}

/* ------------------------------------------------------------------------ */

static const struct {
  const char *name;
  int (*func) (WsCli *cli, int argc, char **argv);
  const char *usage;
} hw_actions[] = {
  { "list", hw_list, N_ ("hw list [--kind gpu|cpu|link]") },
  { "show", hw_show, N_ ("hw show NAME") },
  { "import", hw_import, N_ ("hw import [--replace] FILE.json") },
  { "export", hw_export, N_ ("hw export NAME [-o FILE]") },
  { "delete", hw_delete, N_ ("hw delete NAME") },
};

static void
print_hw_usage (FILE *out)
{
  fprintf (out, "%s\n", _ ("Usage:"));
  for (guint i = 0; i < G_N_ELEMENTS (hw_actions); i++)
    fprintf (out, "  warpscope-cli %s\n", _ (hw_actions[i].usage));
}

int
ws_cli_cmd_hw (WsCli *cli, int argc, char **argv)
{
  if (argc < 2)
    {
      print_hw_usage (stderr);
      return WS_EXIT_USAGE;
    }
  if (strcmp (argv[1], "--help") == 0 || strcmp (argv[1], "-h") == 0 || strcmp (argv[1], "help") == 0)
    {
      print_hw_usage (stdout);
      return WS_EXIT_OK;
    }
  for (guint i = 0; i < G_N_ELEMENTS (hw_actions); i++)
    if (strcmp (argv[1], hw_actions[i].name) == 0)
      return hw_actions[i].func (cli, argc - 1, argv + 1);

  const char *names[G_N_ELEMENTS (hw_actions) + 1] = { NULL };
  for (guint i = 0; i < G_N_ELEMENTS (hw_actions); i++)
    names[i] = hw_actions[i].name;
  g_autofree char *close = ws_suggest_names (argv[1], names, 2);
  if (close != NULL)
    return ws_cli_fail (cli, WS_EXIT_USAGE, _ ("unknown action '%s'; did you mean %s?"), argv[1], close);
  ws_cli_fail (cli, WS_EXIT_USAGE, _ ("unknown action '%s'"), argv[1]);
  print_hw_usage (stderr);
  return WS_EXIT_USAGE;
}
