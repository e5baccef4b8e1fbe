/* ws-gui-pages-screenshot.c: renders the main window on the Profiles,
 * Simulations or Results page for the documentation, after really running
 * the sweep it shows.  Run under a display (xvfb-run); docs/images/README.md.
 *
 *   ws-gui-pages-screenshot --db PATH --page profiles|simulations|results|cpi|timeline|tbpoint
 *        [--app NAME] [--system NAME] [--sweep N=…] [--predictors a,b] [--measured CSV] OUTPUT.png */
#include <adwaita.h>
#include <glib/gi18n.h>
#include <locale.h>

#include "ws-window-private.h"
#include "ws-profiles-page.h"
#include "ws-simulations-page.h"
#include "ws-results-page.h"
#include "system/ws-system.h"
#include "gui-screenshot-util.h"

int
main (int argc, char **argv)
{
  g_autofree char *profile = NULL, *profile_args = NULL;
  g_autofree char *db = NULL, *page = NULL, *app = NULL, *system = NULL, *sweep = NULL, *predictors = NULL;
  g_autofree char *measured = NULL;
  int width = 1280, height = 800;
  GOptionEntry entries[] = {
    { "db", 0, 0, G_OPTION_ARG_FILENAME, &db, "Workspace database", "PATH" },
    { "page", 0, 0, G_OPTION_ARG_STRING, &page, "profiles, simulations, results, cpi, timeline or tbpoint", "NAME" },
    { "measured", 0, 0, G_OPTION_ARG_FILENAME, &measured,
      "Measured CSV (columns x or the swept variable, and seconds) to overlay on the sweep", "CSV" },
    { "app", 0, 0, G_OPTION_ARG_STRING, &app, "Application model (default saxpy2-analytic)", "NAME" },
    { "system", 0, 0, G_OPTION_ARG_STRING, &system, "System (default testbed-gtx970)", "NAME" },
    { "sweep", 0, 0, G_OPTION_ARG_STRING, &sweep, "Sweep (default N=1048576:16777216:1048576)", "VAR=…" },
    { "predictors", 0, 0, G_OPTION_ARG_STRING, &predictors, "Comma-separated (default volkov)", "LIST" },
    { "profile", 0, 0, G_OPTION_ARG_FILENAME, &profile, "Profile PROGRAM (all tools) on the Profiles page first",
      "PROGRAM" },
    { "args", 0, 0, G_OPTION_ARG_STRING, &profile_args, "Arguments for --profile", "TEXT" },
    { "width", 0, 0, G_OPTION_ARG_INT, &width, "Window width", "PX" },
    { "height", 0, 0, G_OPTION_ARG_INT, &height, "Window height", "PX" },
    { NULL }
  };
  g_autoptr (GOptionContext) context = g_option_context_new ("OUTPUT.png");
  g_autoptr (GError) error = NULL;
  GtkStack *stack;
  WsWindow *window;

  setlocale (LC_ALL, "");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error) || argc != 2 || db == NULL || page == NULL)
    {
      g_printerr ("usage: ws-gui-pages-screenshot --db PATH --page NAME OUTPUT.png\n");
      return 2;
    }
  gtk_init ();
  adw_init ();

  window = open_demo_window ("ws-gui-pages-screenshot", db, width, height);
  if (window == NULL)
    return 1;
  stack = ws_window_get_stack (window);

  if (g_str_equal (page, "profiles"))
    {
      WsProfilesPage *profiles = WS_PROFILES_PAGE (gtk_stack_get_child_by_name (stack, "profiles"));

      ws_window_show_page (window, "profiles");
      if (profile != NULL)
        {
          static const char *const tools[] = { "branch", "memdiv", "value", NULL };
          g_auto (GStrv) args = NULL;

          if (profile_args != NULL && !g_shell_parse_argv (profile_args, NULL, &args, &error))
            {
              g_printerr ("ws-gui-pages-screenshot: %s\n", error->message);
              return 1;
            }
          ws_profiles_page_set_tools (profiles, tools);
          ws_profiles_page_profile (profiles, profile, (const char *const *) args);
          while (ws_profiles_page_is_running (profiles))
            g_main_context_iteration (NULL, TRUE);
          g_print ("%s\n", ws_profiles_page_get_status (profiles));
        }
      else if (ws_profiles_page_get_n_traces (profiles) > 0)
        ws_profiles_page_select (profiles, 0);
    }
  else
    {
      WsSimulationsPage *sims = WS_SIMULATIONS_PAGE (gtk_stack_get_child_by_name (stack, "simulations"));
      WsResultsPage *results = WS_RESULTS_PAGE (gtk_stack_get_child_by_name (stack, "results"));
      WsRunQueue *queue = ws_simulations_page_get_queue (sims);
      g_auto (GStrv) names = g_strsplit (predictors != NULL ? predictors : "volkov", ",", -1);

      ws_window_show_page (window, "simulations");
      if (!ws_simulations_page_select_system (sims, system != NULL ? system : "testbed-gtx970")
          || !ws_simulations_page_select_app (sims, app != NULL ? app : "saxpy2-analytic"))
        {
          g_printerr ("ws-gui-pages-screenshot: no such system or application\n");
          return 1;
        }
      ws_simulations_page_set_predictor (sims, "volkov", FALSE);
      for (guint i = 0; names[i] != NULL; i++)
        ws_simulations_page_set_predictor (sims, names[i], TRUE);
      ws_simulations_page_set_sweep (sims, sweep != NULL ? sweep : "N=1048576:16777216:1048576");
      if (ws_simulations_page_run (sims) == 0)
        {
          g_printerr ("ws-gui-pages-screenshot: %s\n", ws_simulations_page_get_message (sims));
          return 1;
        }
      while (ws_run_queue_is_busy (queue))
        g_main_context_iteration (NULL, TRUE);
      for (guint i = 0; i < ws_run_queue_get_n_runs (queue); i++)
        {
          const WsRun *run = ws_run_queue_get_run (queue, i);
          g_print ("%s: %s%s%s\n", run->predictor, ws_run_state_name (run->state), run->error ? ": " : "",
                   run->error ? run->error : "");
        }
      if (measured != NULL && !ws_results_page_import_measured (results, measured, &error))
        {
          g_printerr ("ws-gui-pages-screenshot: %s\n", error->message);
          return 1;
        }
      if (g_str_equal (page, "results") || g_str_equal (page, "timeline") || g_str_equal (page, "cpi")
          || g_str_equal (page, "tbpoint"))
        {
          ws_window_show_page (window, "results");
          ws_results_page_show (results, g_str_equal (page, "results") ? "sweep" : page);
        }
    }
  settle (1000);

  if (!save_window_png (GTK_WIDGET (window), argv[1]))
    {
      g_printerr ("ws-gui-pages-screenshot: cannot write %s\n", argv[1]);
      return 1;
    }
  gtk_window_destroy (GTK_WINDOW (window));
  return 0;
}
