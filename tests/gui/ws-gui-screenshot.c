/* ws-gui-screenshot.c: renders the main window on the Hardware page, with a
 * component selected, to a PNG for the documentation.  Run under a display
 * (xvfb-run); see docs/images/README.md.
 *
 *   ws-gui-screenshot [--db PATH] [--select NAME] [--compare NAME] [--edit]
 *                     [--page NAME] [--system NAME] [--component NAME] OUTPUT.png */
#include <adwaita.h>
#include <glib/gi18n.h>
#include <locale.h>

#include "ws-window-private.h"
#include "ws-hardware-page-private.h"
#include "ws-systems-page-private.h"
#include "system/ws-system.h"
#include "gui-screenshot-util.h"

int
main (int argc, char **argv)
{
  g_autofree char *db = NULL;
  g_autofree char *select = NULL;
  g_autofree char *page = NULL;
  g_autofree char *compare = NULL;
  g_autofree char *system = NULL;
  g_autofree char *component = NULL;
  gboolean edit = FALSE;
  g_auto (GStrv) drops = NULL;
  int width = 1100, height = 720;
  GOptionEntry entries[] = {
    { "db", 0, 0, G_OPTION_ARG_FILENAME, &db, "Store to open", "PATH" },
    { "select", 0, 0, G_OPTION_ARG_STRING, &select, "Component to select (default GTX 970)", "NAME" },
    { "page", 0, 0, G_OPTION_ARG_STRING, &page, "Page to show (default hardware)", "NAME" },
    { "compare", 0, 0, G_OPTION_ARG_STRING, &compare, "Second GPU to compare with the selected one", "NAME" },
    { "edit", 0, 0, G_OPTION_ARG_NONE, &edit, "Show the parameter editor", NULL },
    { "system", 0, 0, G_OPTION_ARG_STRING, &system,
      "System to open on the Systems page (the demo test beds are created)", "NAME" },
    { "drop", 0, 0, G_OPTION_ARG_STRING_ARRAY, &drops,
      "Drop a palette or catalogue payload on the canvas (\"X,Y,gpu:GTX 1070\"); repeatable", "X,Y,PAYLOAD" },
    { "component", 0, 0, G_OPTION_ARG_STRING, &component, "Component to select on the canvas", "NAME" },
    { "width", 0, 0, G_OPTION_ARG_INT, &width, "Window width", "PX" },
    { "height", 0, 0, G_OPTION_ARG_INT, &height, "Window height", "PX" },
    { NULL }
  };
  g_autoptr (GOptionContext) context = g_option_context_new ("OUTPUT.png");
  g_autoptr (GError) error = NULL;
  WsWindow *window;

  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, WS_LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error) || argc != 2)
    {
      g_printerr ("ws-gui-screenshot: %s\n", error ? error->message : "give one OUTPUT.png");
      return 2;
    }
  if (!gtk_init_check ())
    {
      g_printerr ("ws-gui-screenshot: no display; run under xvfb-run\n");
      return 1;
    }
  adw_init ();
  /* A picture taken mid-crossfade shows two pages at once. */
  g_object_set (gtk_settings_get_default (), "gtk-enable-animations", FALSE, NULL);
  {
    /* AdwApplication loads the style sheet for the real app; do it here. */
    g_autoptr (GtkCssProvider) css = gtk_css_provider_new ();
    gtk_css_provider_load_from_resource (css, "/io/github/warpscope/Warpscope/style.css");
    gtk_style_context_add_provider_for_display (gdk_display_get_default (), GTK_STYLE_PROVIDER (css),
                                                GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);
  }

  if (system != NULL && db != NULL)
    {
      /* The seed's test beds as the CLI's demo workspace stores them. */
      g_autoptr (GError) demo_error = NULL;
      WsStore *store = ws_store_open (db, &demo_error);

      if (store == NULL || !ws_system_store_ensure_demo (store, &demo_error))
        g_printerr ("ws-gui-screenshot: %s\n", demo_error->message);
      g_clear_pointer (&store, ws_store_close);
    }

  window = ws_window_new (NULL, db);
  gtk_window_set_default_size (GTK_WINDOW (window), width, height);
  gtk_window_present (GTK_WINDOW (window));
  settle (500);

  ws_window_show_page (window, page ? page : "hardware");
  if (!ws_hardware_page_select (ws_window_get_hardware_page (window), select ? select : "GTX 970"))
    g_printerr ("ws-gui-screenshot: no component called %s\n", select ? select : "GTX 970");
  if (compare != NULL)
    {
      /* What a Ctrl+click on a second row does. */
      GtkListBox *list = ws_hardware_page_get_list_box (ws_window_get_hardware_page (window));
      GtkListBoxRow *row;

      for (int i = 0; (row = gtk_list_box_get_row_at_index (list, i)) != NULL; i++)
        if (g_str_equal (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (row)), compare))
          gtk_list_box_select_row (list, row);
    }
  if (edit)
    gtk_widget_activate_action (GTK_WIDGET (ws_window_get_hardware_page (window)), "hardware.edit", NULL);
  if (system != NULL)
    {
      WsSystemsPage *systems = ws_window_get_systems_page (window);
      if (!ws_systems_page_open (systems, system))
        g_printerr ("ws-gui-screenshot: no system called %s\n", system);
      settle (300);
      for (guint i = 0; drops != NULL && drops[i] != NULL; i++)
        {
          g_auto (GStrv) parts = g_strsplit (drops[i], ",", 3);
          if (g_strv_length (parts) == 3)
            ws_system_canvas_drop (ws_systems_page_get_canvas (systems), parts[2], g_ascii_strtod (parts[0], NULL),
                                   g_ascii_strtod (parts[1], NULL));
        }
      if (component != NULL)
        ws_system_canvas_select (ws_systems_page_get_canvas (systems), component);
    }
  settle (1000);

  if (!save_window_png (GTK_WIDGET (window), argv[1]))
    {
      g_printerr ("ws-gui-screenshot: cannot write %s\n", argv[1]);
      return 1;
    }
  gtk_window_destroy (GTK_WINDOW (window));
  return 0;
}
