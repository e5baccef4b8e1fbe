/* warpscope-cli plugins list: the predictor plugins found, usable or not. */
#include <stdio.h>
#include <string.h>
#include <glib/gi18n.h>

#include "ws-cli.h"
#include "predict/ws-predict.h"

int ws_cli_cmd_plugins (WsCli *cli, int argc, char **argv);

int
ws_cli_cmd_plugins (WsCli *cli, int argc, char **argv)
{
  const GOptionEntry entries[] = { { NULL } };
  if (!ws_cli_parse_options (cli, &argc, &argv, entries, "list",
                             _ ("Lists predictor plugins from the plugin search path.")))
    return WS_EXIT_USAGE;
  if (argc < 2 || strcmp (argv[1], "list") != 0)
    return ws_cli_fail (cli, WS_EXIT_USAGE, "%s", _ ("usage: warpscope-cli plugins list [--json]"));

  g_autoptr (GPtrArray) plugins = ws_predictor_scan ();
  for (guint i = 0; i < plugins->len; i++)
    {
      WsPredictorPlugin *p = plugins->pdata[i];
      if (p->ok && p->shadows != NULL && !p->builtin)
        ws_cli_info (cli,
                     _ ("warning: the user plugin %s hides Warpscope's plugin '%s' (%s); rename or remove it "
                        "to use the built-in model"),
                     p->path, p->name, p->shadows);
    }
  if (cli->json)
    {
      g_autoptr (JsonBuilder) b = json_builder_new ();
      json_builder_begin_array (b);
      for (guint i = 0; i < plugins->len; i++)
        {
          WsPredictorPlugin *p = plugins->pdata[i];
          json_builder_begin_object (b);
          json_builder_set_member_name (b, "name");
          json_builder_add_string_value (b, p->name);
          json_builder_set_member_name (b, "version");
          if (p->version)
            json_builder_add_string_value (b, p->version);
          else
            json_builder_add_null_value (b);
          json_builder_set_member_name (b, "abi");
          json_builder_add_int_value (b, p->abi);
          json_builder_set_member_name (b, "path");
          json_builder_add_string_value (b, p->path);
          json_builder_set_member_name (b, "status");
          json_builder_add_string_value (b, p->ok ? "ok" : p->shadowed_by ? "shadowed" : "error");
          json_builder_set_member_name (b, "builtin");
          json_builder_add_boolean_value (b, p->builtin);
          /* the CPI categories it declares (API 4), in its order */
          guint n_cpi = 0;
          const WsPredictorCpiCategory *cpi = ws_predictor_plugin_cpi_categories (p, &n_cpi);
          json_builder_set_member_name (b, "cpi_categories");
          json_builder_begin_array (b);
          for (guint c = 0; c < n_cpi; c++)
            {
              json_builder_begin_object (b);
              json_builder_set_member_name (b, "name");
              json_builder_add_string_value (b, cpi[c].name);
              json_builder_set_member_name (b, "colour");
              if (cpi[c].colour)
                json_builder_add_string_value (b, cpi[c].colour);
              else
                json_builder_add_null_value (b);
              json_builder_set_member_name (b, "help");
              if (cpi[c].help)
                json_builder_add_string_value (b, cpi[c].help);
              else
                json_builder_add_null_value (b);
              json_builder_end_object (b);
            }
          json_builder_end_array (b);
          /* the plugin found first that hides this one / the one this one hides */
          json_builder_set_member_name (b, "shadowed_by");
          if (p->shadowed_by)
            json_builder_add_string_value (b, p->shadowed_by);
          else
            json_builder_add_null_value (b);
          json_builder_set_member_name (b, "shadows");
          if (p->shadows)
            json_builder_add_string_value (b, p->shadows);
          else
            json_builder_add_null_value (b);
          json_builder_set_member_name (b, "error");
          if (p->error)
            json_builder_add_string_value (b, p->error);
          else
            json_builder_add_null_value (b);
          if (p->ok)
            {
              json_builder_set_member_name (b, "description");
              json_builder_add_string_value (b, p->description);
              json_builder_set_member_name (b, "options");
              json_builder_begin_array (b);
              for (guint k = 0; k < p->descriptor->n_options; k++)
                {
                  const WsPredictorOption *o = &p->descriptor->options[k];
                  static const char *types[] = { "string", "int", "double", "bool", "choice" };
                  json_builder_begin_object (b);
                  json_builder_set_member_name (b, "name");
                  json_builder_add_string_value (b, o->name);
                  json_builder_set_member_name (b, "type");
                  json_builder_add_string_value (b, types[o->type]);
                  json_builder_set_member_name (b, "default");
                  json_builder_add_string_value (b, o->default_value ? o->default_value : "");
                  if (o->choices)
                    {
                      json_builder_set_member_name (b, "choices");
                      json_builder_add_string_value (b, o->choices);
                    }
                  json_builder_set_member_name (b, "help");
                  json_builder_add_string_value (b, o->help ? o->help : "");
                  json_builder_end_object (b);
                }
              json_builder_end_array (b);
            }
          json_builder_end_object (b);
        }
      json_builder_end_array (b);
      g_autoptr (JsonNode) root = json_builder_get_root (b);
      ws_cli_print_json (cli, root);
      return WS_EXIT_OK;
    }
  if (plugins->len == 0)
    {
      g_auto (GStrv) dirs = ws_predictor_search_path ();
      g_autofree char *joined = g_strjoinv (":", dirs);
      printf (_ ("No predictor plugins found (searched %s).\n"), joined);
      return WS_EXIT_OK;
    }
  for (guint i = 0; i < plugins->len; i++)
    {
      WsPredictorPlugin *p = plugins->pdata[i];
      if (p->ok)
        printf ("%-12s %-6s ok     %s\n             %s\n", p->name, p->version, p->description, p->path);
      else if (p->shadowed_by)
        printf (_ ("%-12s %-6s shadowed  %s\n             by %s\n"), p->name, p->version, p->path, p->shadowed_by);
      else
        printf ("%-12s %-6s error  %s\n", p->name, "", p->error);
      if (p->ok && p->shadows != NULL)
        printf (_ ("             shadows %s%s\n"), p->shadows,
                p->builtin ? "" : _ (" (a user plugin in place of Warpscope's own)"));
    }
  return WS_EXIT_OK;
}
