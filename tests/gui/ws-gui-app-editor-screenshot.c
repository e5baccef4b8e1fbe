/* ws-gui-app-editor-screenshot.c: renders the main window on the
 * Applications page with an application model open, for the documentation.
 * Run under a display (xvfb-run); docs/images/README.md.
 *
 *   ws-gui-app-editor-screenshot --db PATH [--app NAME] [--scroll PX] OUTPUT.png */
#include <adwaita.h>
#include <glib/gi18n.h>
#include <locale.h>

#include "ws-window-private.h"
#include "ws-app-editor-page-private.h"
#include "system/ws-system.h"
#include "gui-screenshot-util.h"

int
main (int argc, char **argv)
{
  g_autofree char *db = NULL, *app = NULL;
  int width = 1280, height = 800, scroll = 0;
  GOptionEntry entries[] = { { "db", 0, 0, G_OPTION_ARG_FILENAME, &db, "Workspace database", "PATH" },
                             { "app", 0, 0, G_OPTION_ARG_STRING, &app, "Application model (default saxpy2-analytic)",
                               "NAME" },
                             { "scroll", 0, 0, G_OPTION_ARG_INT, &scroll, "Scroll the editor down by PX", "PX" },
                             { "width", 0, 0, G_OPTION_ARG_INT, &width, "Window width", "PX" },
                             { "height", 0, 0, G_OPTION_ARG_INT, &height, "Window height", "PX" },
                             { NULL } };
  g_autoptr (GOptionContext) context = g_option_context_new ("OUTPUT.png");
  g_autoptr (GError) error = NULL;
  WsAppEditorPage *page;
  WsWindow *window;

  setlocale (LC_ALL, "");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error) || argc != 2 || db == NULL)
    {
      g_printerr ("usage: ws-gui-app-editor-screenshot --db PATH [--app NAME] OUTPUT.png\n");
      return 2;
    }
  gtk_init ();
  adw_init ();

  window = open_demo_window ("ws-gui-app-editor-screenshot", db, width, height);
  if (window == NULL)
    return 1;
  ws_window_show_page (window, "applications");
  page = WS_APP_EDITOR_PAGE (gtk_stack_get_child_by_name (ws_window_get_stack (window), "applications"));
  if (!ws_app_editor_page_open (page, app != NULL ? app : "saxpy2-analytic"))
    {
      g_printerr ("ws-gui-app-editor-screenshot: no application %s\n", app != NULL ? app : "saxpy2-analytic");
      return 1;
    }
  settle (800);
  if (scroll > 0)
    {
      GtkWidget *scroller = gtk_widget_get_ancestor (ws_app_editor_page_get_variables_box (page),
                                                     GTK_TYPE_SCROLLED_WINDOW);
      gtk_adjustment_set_value (gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scroller)), scroll);
      settle (500);
    }

  if (!save_window_png (GTK_WIDGET (window), argv[1]))
    {
      g_printerr ("ws-gui-app-editor-screenshot: cannot write %s\n", argv[1]);
      return 1;
    }
  gtk_window_destroy (GTK_WINDOW (window));
  return 0;
}
