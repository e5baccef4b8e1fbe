/* ws-cli-model.c: `warpscope-cli model list|run|import|export`: system and
 * application models (seed 004 §5.4), evaluated and swept. */
#define G_LOG_DOMAIN "ws-cli-model"
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "ws-cli.h"
#include "base/ws-json.h"
#include "system/ws-system.h"
#include "predict/ws-predict.h"

int ws_cli_cmd_model (WsCli *cli, int argc, char **argv);

static WsStore *
model_store (WsCli *cli)
{
  WsStore *store = ws_cli_store (cli);
  if (store == NULL)
    return NULL;
  g_autoptr (GError) error = NULL;
  if (!ws_system_store_ensure_demo (store, &error))
    {
      ws_cli_fail_error (cli, error);
      return NULL;
    }
  return store;
}

static int
model_list (WsCli *cli, int argc, char **argv)
{
  const GOptionEntry entries[] = { { NULL } };
  if (!ws_cli_parse_options (cli, &argc, &argv, entries, "list", _ ("Lists the stored system and application models.")))
    return WS_EXIT_USAGE;
  WsStore *store = model_store (cli);
  if (store == NULL)
    return WS_EXIT_FAILURE;
  g_autoptr (GError) error = NULL;
  g_auto (GStrv) systems = ws_system_store_list_systems (store, &error);
  g_auto (GStrv) apps = systems ? ws_system_store_list_apps (store, &error) : NULL;
  if (apps == NULL)
    return ws_cli_fail_error (cli, error);
  if (cli->json)
    {
      g_autoptr (JsonBuilder) b = json_builder_new ();
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "systems");
      json_builder_begin_array (b);
      for (guint i = 0; systems[i]; i++)
        json_builder_add_string_value (b, systems[i]);
      json_builder_end_array (b);
      json_builder_set_member_name (b, "applications");
      json_builder_begin_array (b);
      for (guint i = 0; apps[i]; i++)
        json_builder_add_string_value (b, apps[i]);
      json_builder_end_array (b);
      json_builder_end_object (b);
      g_autoptr (JsonNode) root = json_builder_get_root (b);
      ws_cli_print_json (cli, root);
      return WS_EXIT_OK;
    }
  printf ("%s\n", _ ("Systems:"));
  for (guint i = 0; systems[i]; i++)
    printf ("  %s\n", systems[i]);
  printf ("%s\n", _ ("Applications:"));
  for (guint i = 0; apps[i]; i++)
    printf ("  %s\n", apps[i]);
  return WS_EXIT_OK;
}

static gboolean
parse_set (const char *text, GHashTable *out, GError **error)
{
  const char *eq = strchr (text, '=');
  char *end = NULL;
  double v = eq ? g_ascii_strtod (eq + 1, &end) : 0;
  if (eq == NULL || eq == text || end == eq + 1 || *end != '\0')
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID, _ ("--set '%s': expected VAR=NUMBER"), text);
      return FALSE;
    }
  g_hash_table_insert (out, g_strndup (text, eq - text), g_memdup2 (&v, sizeof v));
  return TRUE;
}

static int
model_run (WsCli *cli, int argc, char **argv)
{
  g_autofree char *system_name = NULL, *app_name = NULL, *predictor = NULL;
  g_auto (GStrv) sets = NULL, sweeps = NULL, option_list = NULL;
  int threads = 0;
  gboolean no_store = FALSE, in_process = FALSE;
  double plugin_timeout = 0;
  const GOptionEntry entries[] = {
    { "system", 0, 0, G_OPTION_ARG_STRING, &system_name, N_ ("System model"), "NAME" },
    { "app", 0, 0, G_OPTION_ARG_STRING, &app_name, N_ ("Application model"), "NAME" },
    { "set", 0, 0, G_OPTION_ARG_STRING_ARRAY, &sets, N_ ("Set a variable (repeatable)"), "VAR=V" },
    { "sweep", 0, 0, G_OPTION_ARG_STRING_ARRAY, &sweeps,
      N_ ("Sweep a variable over a list or an inclusive range; several make a cartesian product"),
      "VAR=LIST|A:B:STEP" },
    { "predictor", 0, 0, G_OPTION_ARG_STRING, &predictor,
      N_ ("Kernel predictor plugin (default volkov), 'simulator' for the detailed simulator, or 'simulator-tbpoint' "
          "for the simulator with TBPoint sampling"),
      "NAME" },
    { "threads", 0, 0, G_OPTION_ARG_INT, &threads, N_ ("Threads for a sweep (default: all processors)"), "N" },
    { "no-store", 0, 0, G_OPTION_ARG_NONE, &no_store, N_ ("Do not store the run"), NULL },
    { "option", 0, 0, G_OPTION_ARG_STRING_ARRAY, &option_list, N_ ("Predictor plugin option (repeatable)"),
      "PLUGIN.KEY=VALUE" },
    { "in-process", 0, 0, G_OPTION_ARG_NONE, &in_process,
      N_ ("Load the predictor plugin into this process instead of a supervised worker (for debugging a plugin)"),
      NULL },
    { "plugin-timeout", 0, 0, G_OPTION_ARG_DOUBLE, &plugin_timeout,
      N_ ("Seconds the predictor plugin may take per prediction (default 600)"), "SECONDS" },
    { NULL }
  };
  if (!ws_cli_parse_options (cli, &argc, &argv, entries, "run",
                             _ ("Evaluates an application model on a system model (discrete-event simulation).")))
    return WS_EXIT_USAGE;
  if (system_name == NULL || app_name == NULL)
    return ws_cli_fail (cli, WS_EXIT_USAGE, "%s",
                        _ ("usage: model run --system NAME --app NAME [--set VAR=V]... [--sweep VAR=LIST|A:B:STEP]... "
                           "[--predictor NAME] [--option PLUGIN.KEY=VALUE]... [--in-process] "
                           "[--plugin-timeout SECONDS] [--threads N] [--no-store] [--json]"));
  if (threads < 0)
    return ws_cli_fail (cli, WS_EXIT_USAGE, "%s", _ ("--threads must be >= 0"));
  if (plugin_timeout < 0)
    return ws_cli_fail (cli, WS_EXIT_USAGE, "%s", _ ("--plugin-timeout must be positive"));
  ws_cli_plugin_isolation (in_process, plugin_timeout);
  WsStore *store = model_store (cli);
  if (store == NULL)
    return WS_EXIT_FAILURE;
  g_autoptr (GError) error = NULL;
  g_autoptr (GHashTable) fixed = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  for (guint i = 0; sets && sets[i]; i++)
    if (!parse_set (sets[i], fixed, &error))
      return ws_cli_fail_error (cli, error);
  g_autoptr (GPtrArray) axes = g_ptr_array_new_with_free_func ((GDestroyNotify) ws_sweep_axis_free);
  for (guint i = 0; sweeps && sweeps[i]; i++)
    {
      WsSweepAxis *ax = ws_sweep_axis_parse (sweeps[i], &error);
      if (ax == NULL)
        return ws_cli_fail_error (cli, error);
      g_ptr_array_add (axes, ax);
    }
  g_autoptr (WsSystemModel) system = ws_system_store_get_system (store, system_name, &error);
  if (system == NULL)
    return ws_cli_fail_error (cli, error);
  g_autoptr (WsAppModel) app = ws_system_store_get_app (store, app_name, &error);
  if (app == NULL)
    return ws_cli_fail_error (cli, error);
  g_autoptr (WsSystemEnv) env = ws_system_env_new (store, system, predictor, &error);
  if (env == NULL)
    return ws_cli_fail_error (cli, error);
  g_autoptr (GHashTable) run_options = NULL; /* stored with the sweep */
  if (option_list != NULL)
    {
      /* --option PLUGIN.KEY=VALUE: PLUGIN is the --predictor. */
      g_autoptr (GHashTable) per_plugin = ws_predictor_options_parse ((const char *const *) option_list, NULL, &error);
      if (per_plugin == NULL)
        return ws_cli_fail (cli, WS_EXIT_USAGE, "%s", error->message);
      const char *used = predictor ? predictor : "volkov";
      GHashTableIter it;
      gpointer name, options;
      g_hash_table_iter_init (&it, per_plugin);
      while (g_hash_table_iter_next (&it, &name, &options))
        if (g_ascii_strcasecmp (name, used) != 0)
          return ws_cli_fail (cli, WS_EXIT_USAGE, _ ("--option %s.…: the predictor of this run is '%s' (--predictor)"),
                              (char *) name, used);
      g_hash_table_iter_init (&it, per_plugin);
      if (g_hash_table_iter_next (&it, &name, &options))
        {
          if (!ws_system_env_set_predictor_options (env, options, &error))
            return ws_cli_fail (cli, WS_EXIT_USAGE, "--option: %s", error->message);
          run_options = g_hash_table_ref (options);
        }
    }

  double t0 = ws_now_seconds ();
  /* SIGINT/SIGTERM stop the sweep; the points that finished are stored, as a cancelled sweep. */
  g_autoptr (GCancellable) cancel = g_cancellable_new ();
  ws_system_env_set_cancellable (env, cancel);
  g_autoptr (WsSignalWatch) watch = ws_signal_watch_new (cancel);
  gboolean cancelled = FALSE;
  g_autoptr (GPtrArray)
    results = ws_system_sweep_partial (env, app, fixed, axes, (guint) threads, cancel, &cancelled, &error);
  if (results == NULL)
    return ws_cli_fail_error (cli, error);
  double wall = ws_now_seconds () - t0;
  /* The plugin's warnings, once each (stderr; "warnings" with --json). */
  g_auto (GStrv) warnings = ws_system_env_take_predictor_warnings (env);
  if (!cli->json)
    for (guint i = 0; warnings[i] != NULL; i++)
      ws_cli_info (cli, _ ("warning: %s"), warnings[i]);
  gint64 sweep_id = 0;
  if (!no_store)
    {
      sweep_id = ws_system_store_put_sweep (store, system, app, predictor ? predictor : "volkov", run_options, results,
                                            wall, &error);
      if (sweep_id == 0)
        return ws_cli_fail_error (cli, error);
    }
  if (cancelled)
    {
      guint done = 0;
      for (guint i = 0; i < results->len; i++)
        done += !((WsSystemResult *) results->pdata[i])->cancelled;
      g_autofree char *kept = sweep_id > 0
                                ? g_strdup_printf (_ ("stored as sweep %" PRId64 " with status 'cancelled'"), sweep_id)
                                : g_strdup (_ ("not stored (--no-store)"));
      int sig = ws_signal_watch_get_signal (watch);
      return ws_cli_fail (cli, sig > 0 ? 128 + sig : WS_EXIT_FAILURE,
                          _ ("model run stopped by signal %d: %u of %u "
                             "points finished, %s"),
                          sig, done, results->len, kept);
    }
  guint failed = 0;
  for (guint i = 0; i < results->len; i++)
    failed += !((WsSystemResult *) results->pdata[i])->ok;
  /* One point that fails is an error of the inputs; in a sweep the others still count. */
  if (results->len == 1 && failed == 1)
    return ws_cli_fail (cli, WS_EXIT_USAGE, "%s", ((WsSystemResult *) results->pdata[0])->error);

  if (cli->json)
    {
      g_autoptr (JsonBuilder) b = json_builder_new ();
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "system");
      json_builder_add_string_value (b, system->name);
      json_builder_set_member_name (b, "app");
      json_builder_add_string_value (b, ws_app_model_get_name (app));
      json_builder_set_member_name (b, "predictor");
      json_builder_add_string_value (b, predictor ? predictor : "volkov");
      json_builder_set_member_name (b, "predictor_options");
      json_builder_begin_object (b);
      ws_json_add_string_members (b, run_options);
      json_builder_end_object (b);
      json_builder_set_member_name (b, "sweep_id");
      if (sweep_id > 0)
        json_builder_add_int_value (b, sweep_id);
      else
        json_builder_add_null_value (b);
      json_builder_set_member_name (b, "wall_seconds");
      json_builder_add_double_value (b, wall);
      json_builder_set_member_name (b, "warnings");
      json_builder_begin_array (b);
      for (guint i = 0; warnings[i] != NULL; i++)
        json_builder_add_string_value (b, warnings[i]);
      json_builder_end_array (b);
      json_builder_set_member_name (b, "runs");
      json_builder_begin_array (b);
      for (guint i = 0; i < results->len; i++)
        json_builder_add_value (b, ws_system_result_to_json (results->pdata[i]));
      json_builder_end_array (b);
      json_builder_end_object (b);
      g_autoptr (JsonNode) root = json_builder_get_root (b);
      ws_cli_print_json (cli, root);
      return failed ? WS_EXIT_FAILURE : WS_EXIT_OK;
    }

  if (results->len == 1)
    {
      WsSystemResult *r = results->pdata[0];
      printf ("%-8s %-4s %-8s %-36s %14s %14s %14s\n", _ ("label"), _ ("rank"), _ ("op"), _ ("component"), _ ("bytes"),
              _ ("start [s]"), _ ("end [s]"));
      for (guint i = 0; i < r->operations->len; i++)
        {
          WsSystemOpRecord *o = r->operations->pdata[i];
          printf ("%-8s %-4u %-8s %-36s %14.0f %14.9f %14.9f\n", o->label, o->rank, o->op, o->component, o->bytes,
                  o->start, o->end);
        }
      printf ("\n%s\n", _ ("Busy time per component:"));
      for (guint i = 0; i < r->busy_components->len; i++)
        printf ("  %-36s %.9f s\n", (char *) r->busy_components->pdata[i], g_array_index (r->busy_seconds, double, i));
      printf ("\n%s %.9f s\n", _ ("Overall time:"), r->total_seconds);
      fflush (stdout);
    }
  else
    {
      /* Kernel and transfer columns: summed durations of those operations
       * (transfers: h2d, d2h and send, startup included). */
      for (guint a = 0; a < axes->len; a++)
        printf ("%16s ", ((WsSweepAxis *) axes->pdata[a])->variable);
      printf ("%16s %16s %16s\n", _ ("total [s]"), _ ("kernels [s]"), _ ("transfers [s]"));
      for (guint i = 0; i < results->len; i++)
        {
          WsSystemResult *r = results->pdata[i];
          for (guint a = 0; a < axes->len; a++)
            printf ("%16.10g ",
                    *(double *) g_hash_table_lookup (r->variables, ((WsSweepAxis *) axes->pdata[a])->variable));
          if (!r->ok)
            {
              printf ("%16s  %s\n", _ ("failed"), r->error);
              continue;
            }
          double kernels = 0, transfers = 0;
          for (guint k = 0; k < r->operations->len; k++)
            {
              WsSystemOpRecord *o = r->operations->pdata[k];
              if (strcmp (o->op, "kernel") == 0)
                kernels += o->end - o->start;
              else if (strcmp (o->op, "h2d") == 0 || strcmp (o->op, "d2h") == 0 || strcmp (o->op, "send") == 0)
                transfers += o->end - o->start;
            }
          printf ("%16.9f %16.9f %16.9f\n", r->total_seconds, kernels, transfers);
        }
      fflush (stdout);
    }
  if (sweep_id > 0)
    ws_cli_info (cli, _ ("stored as sweep %" PRId64 " (%u point(s), %.3f s)"), sweep_id, results->len, wall);
  return failed ? WS_EXIT_FAILURE : WS_EXIT_OK;
}

static int
import_one (WsCli *cli, WsStore *store, JsonNode *node, const char *dir, gboolean replace)
{
  g_autoptr (GError) error = NULL;
  const char *kind = NULL;
  if (JSON_NODE_HOLDS_OBJECT (node))
    kind = json_object_get_string_member_with_default (json_node_get_object (node), "kind", NULL);
  if (g_strcmp0 (kind, "system") == 0)
    {
      g_autoptr (WsSystemModel) s = ws_system_model_from_json (node, &error);
      if (s == NULL || !ws_system_store_put_system (store, s, replace, &error))
        return ws_cli_fail_error (cli, error);
      ws_cli_info (cli, _ ("imported system '%s'"), s->name);
      return WS_EXIT_OK;
    }
  if (g_strcmp0 (kind, "application") == 0)
    {
      /* Relative trace paths are relative to the imported file. */
      g_autofree char *cwd = g_get_current_dir ();
      if (g_chdir (dir) != 0)
        return ws_cli_fail (cli, WS_EXIT_FAILURE, _ ("cannot enter '%s'"), dir);
      gboolean ok = ws_system_store_put_app (store, node, replace, &error);
      if (g_chdir (cwd) != 0)
        return ws_cli_fail (cli, WS_EXIT_FAILURE, _ ("cannot return to '%s'"), cwd);
      if (!ok)
        return ws_cli_fail_error (cli, error);
      ws_cli_info (cli, _ ("imported application '%s'"),
                   json_object_get_string_member (json_node_get_object (node), "name"));
      return WS_EXIT_OK;
    }
  return ws_cli_fail (cli, WS_EXIT_USAGE, "%s",
                      _ ("a model file needs \"kind\": \"system\" or \"application\" (or an array of such records)"));
}

static int
model_import (WsCli *cli, int argc, char **argv)
{
  gboolean replace = FALSE;
  const GOptionEntry entries[] = {
    { "replace", 0, 0, G_OPTION_ARG_NONE, &replace, N_ ("Replace models with the same name"), NULL }, { NULL }
  };
  if (!ws_cli_parse_options (cli, &argc, &argv, entries, "import FILE.json",
                             _ ("Imports system and application models (the format model export writes).")))
    return WS_EXIT_USAGE;
  if (argc != 3)
    return ws_cli_fail (cli, WS_EXIT_USAGE, "%s", _ ("usage: model import [--replace] FILE.json"));
  WsStore *store = model_store (cli);
  if (store == NULL)
    return WS_EXIT_FAILURE;
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;
  if (!ws_json_parser_load_file (parser, argv[2], &error))
    {
      /* The loader names the file in every message about its content. */
      if (error->domain == G_FILE_ERROR)
        return ws_cli_fail (cli, WS_EXIT_USAGE, _ ("cannot read %s: %s"), argv[2], error->message);
      return ws_cli_fail (cli, WS_EXIT_USAGE, "%s", error->message);
    }
  JsonNode *root = json_parser_get_root (parser);
  g_autofree char *dir = g_path_get_dirname (argv[2]);
  if (root != NULL && JSON_NODE_HOLDS_ARRAY (root))
    {
      JsonArray *a = json_node_get_array (root);
      for (guint i = 0; i < json_array_get_length (a); i++)
        {
          int rc = import_one (cli, store, json_array_get_element (a, i), dir, replace);
          if (rc != WS_EXIT_OK)
            return rc;
        }
      return WS_EXIT_OK;
    }
  return import_one (cli, store, root, dir, replace);
}

static int
model_export (WsCli *cli, int argc, char **argv)
{
  g_autofree char *output = NULL;
  const GOptionEntry entries[] = {
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output, N_ ("Write to FILE instead of stdout"), "FILE" }, { NULL }
  };
  if (!ws_cli_parse_options (cli, &argc, &argv, entries, "export NAME",
                             _ ("Exports a system or application model as readable JSON (for version control).")))
    return WS_EXIT_USAGE;
  if (argc != 3)
    return ws_cli_fail (cli, WS_EXIT_USAGE, "%s", _ ("usage: model export NAME [-o FILE]"));
  WsStore *store = model_store (cli);
  if (store == NULL)
    return WS_EXIT_FAILURE;
  g_autoptr (GError) e1 = NULL, e2 = NULL;
  g_autoptr (JsonNode) node = NULL;
  g_autoptr (WsSystemModel) s = ws_system_store_get_system (store, argv[2], &e1);
  if (s != NULL)
    node = ws_system_model_to_json (s);
  else
    {
      g_autoptr (WsAppModel) a = ws_system_store_get_app (store, argv[2], &e2);
      if (a == NULL)
        return ws_cli_fail (cli, WS_EXIT_USAGE, "%s; %s", e1->message, e2->message);
      node = ws_app_model_to_json (a);
    }
  g_autofree char *text = ws_hw_json_to_data (node, TRUE);
  if (output == NULL)
    {
      printf ("%s\n", text);
      return WS_EXIT_OK;
    }
  g_autofree char *with_nl = g_strconcat (text, "\n", NULL);
  g_autoptr (GError) error = NULL;
  if (!g_file_set_contents (output, with_nl, -1, &error))
    return ws_cli_fail (cli, WS_EXIT_FAILURE, "%s", error->message);
  ws_cli_info (cli, _ ("exported '%s' to %s"), argv[2], output);
  return WS_EXIT_OK;
}

static int
model_delete (WsCli *cli, int argc, char **argv)
{
  gboolean system = FALSE, app = FALSE;
  const GOptionEntry entries[] = {
    { "system", 0, 0, G_OPTION_ARG_NONE, &system, N_ ("Delete the system model NAME"), NULL },
    { "app", 0, 0, G_OPTION_ARG_NONE, &app, N_ ("Delete the application model NAME"), NULL },
    { NULL }
  };
  if (!ws_cli_parse_options (cli, &argc, &argv, entries, "delete NAME",
                             _ ("Deletes a system or application model; stored runs keep the models they ran "
                                "with.")))
    return WS_EXIT_USAGE;
  if (argc != 3 || (system && app))
    return ws_cli_fail (cli, WS_EXIT_USAGE, "%s", _ ("usage: model delete [--system|--app] NAME"));
  WsStore *store = model_store (cli);
  if (store == NULL)
    return WS_EXIT_FAILURE;
  const char *name = argv[2];
  g_auto (GStrv) systems = ws_system_store_list_systems (store, NULL);
  g_auto (GStrv) apps = ws_system_store_list_apps (store, NULL);
  gboolean is_system = systems != NULL && g_strv_contains ((const char *const *) systems, name);
  gboolean is_app = apps != NULL && g_strv_contains ((const char *const *) apps, name);
  if (!system && !app)
    {
      if (is_system && is_app)
        return ws_cli_fail (cli, WS_EXIT_USAGE,
                            _ ("both a system and an application are called '%s': say which with --system or --app"),
                            name);
      system = is_system;
      app = !is_system;
    }
  g_autoptr (GError) error = NULL;
  if (!(system ? ws_system_store_delete_system (store, name, &error)
               : ws_system_store_delete_app (store, name, &error)))
    return ws_cli_fail_error (cli, error);
  if (cli->json)
    {
      g_autoptr (JsonBuilder) b = json_builder_new ();
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "deleted");
      json_builder_add_string_value (b, name);
      json_builder_set_member_name (b, "kind");
      json_builder_add_string_value (b, system ? "system" : "application");
      json_builder_end_object (b);
      g_autoptr (JsonNode) node = json_builder_get_root (b);
      ws_cli_print_json (cli, node);
      return WS_EXIT_OK;
    }
  ws_cli_info (cli, system ? _ ("deleted the system model '%s'") : _ ("deleted the application model '%s'"), name);
  return WS_EXIT_OK;
}

int
ws_cli_cmd_model (WsCli *cli, int argc, char **argv)
{
  static const char *usage = N_ ("usage: warpscope-cli model list | run --system NAME --app NAME [--set VAR=V]... "
                                 "[--sweep VAR=LIST|A:B:STEP]... [--predictor NAME] [--option PLUGIN.KEY=VALUE]... "
                                 "[--in-process] [--plugin-timeout SECONDS] [--threads N] [--no-store] | "
                                 "import [--replace] FILE | export NAME [-o FILE] | delete [--system|--app] NAME");
  if (argc < 2)
    return ws_cli_fail (cli, WS_EXIT_USAGE, "%s", _ (usage));
  /* argv[1] is the action; the option parser sees "model ACTION ARGS...". */
  if (strcmp (argv[1], "list") == 0)
    return model_list (cli, argc, argv);
  if (strcmp (argv[1], "run") == 0)
    return model_run (cli, argc, argv);
  if (strcmp (argv[1], "import") == 0)
    return model_import (cli, argc, argv);
  if (strcmp (argv[1], "export") == 0)
    return model_export (cli, argc, argv);
  if (strcmp (argv[1], "delete") == 0)
    return model_delete (cli, argc, argv);
  if (strcmp (argv[1], "--help") == 0 || strcmp (argv[1], "-h") == 0)
    {
      printf ("%s\n", _ (usage));
      return WS_EXIT_OK;
    }
  return ws_cli_fail (cli, WS_EXIT_USAGE, _ ("unknown action '%s'; %s"), argv[1], _ (usage));
}
