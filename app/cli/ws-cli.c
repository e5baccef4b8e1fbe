/* warpscope-cli: the headless, scriptable front end. */
#include "ws-config.h"

#include <locale.h>
#include <stdio.h>
#include <string.h>
#include <glib/gi18n.h>

#include "ws-cli.h"

WsStore *
ws_cli_store (WsCli *cli)
{
  if (cli->store == NULL)
    {
      g_autoptr (GError) error = NULL;
      cli->store = ws_store_open (cli->db_path, &error);
      if (cli->store == NULL)
        ws_cli_fail_error (cli, error);
    }
  return cli->store;
}

void
ws_cli_print_json (WsCli *cli, JsonNode *node)
{
  g_autoptr (JsonGenerator) gen = json_generator_new ();
  json_generator_set_pretty (gen, TRUE);
  json_generator_set_root (gen, node);
  g_autofree char *text = json_generator_to_data (gen, NULL);
  fputs (text, stdout);
  fputc ('\n', stdout);
  fflush (stdout);
}

static void
vprint_message (WsCli *cli, const char *fmt, va_list ap)
{
  g_autofree char *msg = g_strdup_vprintf (fmt, ap);
  if (cli->command != NULL)
    fprintf (stderr, "warpscope-cli %s: %s\n", cli->command, msg);
  else
    fprintf (stderr, "warpscope-cli: %s\n", msg);
}

int
ws_cli_fail (WsCli *cli, int code, const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  vprint_message (cli, fmt, ap);
  va_end (ap);
  return code;
}

int
ws_cli_fail_error (WsCli *cli, const GError *error)
{
  int code = WS_EXIT_FAILURE;
  if (error->domain == WS_ERROR && (error->code == WS_ERROR_NOT_FOUND || error->code == WS_ERROR_INVALID))
    code = WS_EXIT_USAGE;
  return ws_cli_fail (cli, code, "%s", error->message);
}

void
ws_cli_info (WsCli *cli, const char *fmt, ...)
{
  if (cli->quiet)
    return;
  va_list ap;
  va_start (ap, fmt);
  g_autofree char *msg = g_strdup_vprintf (fmt, ap);
  va_end (ap);
  fprintf (stderr, "%s\n", msg);
}

WsGpu *
ws_cli_lookup_gpu (WsCli *cli, const char *name, int *exit_code)
{
  WsStore *store = ws_cli_store (cli);
  if (store == NULL)
    {
      *exit_code = WS_EXIT_FAILURE;
      return NULL;
    }
  g_autoptr (GError) error = NULL;
  WsGpu *gpu = ws_store_get_gpu (store, name, &error);
  if (gpu == NULL)
    *exit_code = ws_cli_fail_error (cli, error);
  return gpu;
}

WsTrace *
ws_cli_open_trace (WsCli *cli, const char *path, int *exit_code)
{
  g_autoptr (GError) error = NULL;
  WsTrace *trace = ws_trace_open (path, &error);
  if (trace == NULL)
    *exit_code = ws_cli_fail (cli, WS_EXIT_FAILURE, "%s", error->message);
  else
    ws_cli_warn_incomplete (cli, trace, path);
  return trace;
}

guint
ws_cli_warn_incomplete (WsCli *cli, const WsTrace *trace, const char *path)
{
  guint n = 0;
  for (guint l = 0; l < ws_trace_get_n_launches (trace); l++)
    {
      const WsTraceLaunch *launch = ws_trace_get_launch (trace, l);
      if (launch->complete)
        continue;
      n++;
      /* Not silenced by --quiet: results about this launch are partial. */
      fprintf (stderr,
               _ ("warning: %s: launch %u (kernel %s) is incomplete: it faulted or was stopped under the "
                  "emulator, so what is modelled for it covers only the part that ran\n"),
               path, l, ws_trace_get_kernel (trace, launch->kernel)->name);
    }
  return n;
}

gboolean
ws_cli_parse_options (WsCli *cli, int *argc, char ***argv, const GOptionEntry *entries, const char *parameter_string,
                      const char *description)
{
  g_autoptr (GOptionContext) ctx = g_option_context_new (parameter_string);
  g_autoptr (GError) error = NULL;
  g_option_context_add_main_entries (ctx, entries, GETTEXT_PACKAGE);
  if (description != NULL)
    g_option_context_set_summary (ctx, description);
  g_option_context_set_help_enabled (ctx, TRUE);
  if (!g_option_context_parse (ctx, argc, argv, &error))
    {
      ws_cli_fail (cli, WS_EXIT_USAGE, "%s", error->message);
      return FALSE;
    }
  return TRUE;
}

static void
print_usage (FILE *out)
{
  fprintf (out, "%s\n\n", _ ("Usage: warpscope-cli [--db PATH] [--json] [--quiet] COMMAND [ARGS...]"));
  fprintf (out, "%s\n", _ ("Commands:"));
  for (const WsCliCommand *c = ws_cli_commands; c->name != NULL; c++)
    fprintf (out, "  %-12s %s\n", c->name, _ (c->summary));
  fprintf (out, "\n%s\n", _ ("Run 'warpscope-cli COMMAND --help' for a command's options."));
}

/* Global options may stand before or after the subcommand; they are removed
 * from argv here so subcommands never see them.  Everything after a literal
 * "--" belongs to the subcommand (e.g. the program under `profile`). */
static gboolean
extract_global_options (WsCli *cli, int *argc, char **argv)
{
  int out = 1;
  gboolean passthrough = FALSE;
  for (int i = 1; i < *argc; i++)
    {
      const char *a = argv[i];
      if (!passthrough && strcmp (a, "--") == 0)
        passthrough = TRUE;
      if (passthrough)
        {
          argv[out++] = argv[i];
          continue;
        }
      if (strcmp (a, "--json") == 0)
        cli->json = TRUE;
      else if (strcmp (a, "--quiet") == 0 || strcmp (a, "-q") == 0)
        cli->quiet = TRUE;
      else if (strcmp (a, "--db") == 0)
        {
          if (i + 1 >= *argc)
            {
              fprintf (stderr, "warpscope-cli: %s\n", _ ("--db needs a PATH"));
              return FALSE;
            }
          g_free (cli->db_path);
          cli->db_path = g_strdup (argv[++i]);
        }
      else if (g_str_has_prefix (a, "--db="))
        {
          g_free (cli->db_path);
          cli->db_path = g_strdup (a + 5);
        }
      else
        argv[out++] = argv[i];
    }
  *argc = out;
  argv[out] = NULL;
  return TRUE;
}

int
main (int argc, char **argv)
{
  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, WS_LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);
  /* Numbers in JSON and reports always use '.' as the decimal point. */
  setlocale (LC_NUMERIC, "C");

  WsCli cli = { 0 };
  if (!extract_global_options (&cli, &argc, argv))
    return WS_EXIT_USAGE;

  if (argc < 2 || strcmp (argv[1], "--help") == 0 || strcmp (argv[1], "-h") == 0 || strcmp (argv[1], "help") == 0)
    {
      print_usage (argc < 2 ? stderr : stdout);
      return argc < 2 ? WS_EXIT_USAGE : WS_EXIT_OK;
    }
  if (strcmp (argv[1], "--version") == 0)
    {
      printf ("warpscope-cli %s\n", WS_VERSION);
      return WS_EXIT_OK;
    }

  int rc = -1;
  for (const WsCliCommand *c = ws_cli_commands; c->name != NULL; c++)
    if (strcmp (c->name, argv[1]) == 0)
      {
        cli.command = c->name;
        rc = c->func (&cli, argc - 1, argv + 1);
        break;
      }
  if (rc < 0)
    {
      g_autoptr (GPtrArray) names = g_ptr_array_new ();
      for (const WsCliCommand *c = ws_cli_commands; c->name != NULL; c++)
        g_ptr_array_add (names, (gpointer) c->name);
      g_ptr_array_add (names, NULL);
      g_autofree char *close = ws_suggest_names (argv[1], (const char *const *) names->pdata, 3);
      if (close != NULL)
        fprintf (stderr, _ ("warpscope-cli: unknown command '%s'; did you mean %s?\n"), argv[1], close);
      else
        fprintf (stderr, _ ("warpscope-cli: unknown command '%s'\n"), argv[1]);
      rc = WS_EXIT_USAGE;
    }
  g_clear_pointer (&cli.store, ws_store_close);
  g_free (cli.db_path);
  return rc;
}
