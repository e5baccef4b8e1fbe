/* ws-application.c: command line handling and application actions. */
#define G_LOG_DOMAIN "ws-application"

#include <glib/gi18n.h>

#include "ws-config.h"
#include "ws-application.h"
#include "ws-window.h"

struct _WsApplication {
  AdwApplication parent_instance;
};

G_DEFINE_FINAL_TYPE (WsApplication, ws_application, ADW_TYPE_APPLICATION)

/* Each command line (also from a second invocation, forwarded to the running
 * instance) opens a window on the store it names, so two catalogues can be
 * looked at side by side. */
static int
ws_application_command_line (GApplication *application, GApplicationCommandLine *command_line)
{
  GVariantDict *options = g_application_command_line_get_options_dict (command_line);
  const char *db = NULL;
  g_autofree char *db_path = NULL;
  WsWindow *window;

  if (g_variant_dict_lookup (options, "db", "^&ay", &db))
    {
      /* Resolve against the caller's working directory, not ours. */
      g_autoptr (GFile) file = g_application_command_line_create_file_for_arg (command_line, db);
      db_path = g_file_get_path (file);
    }

  window = ws_window_new (GTK_APPLICATION (application), db_path);
  gtk_window_present (GTK_WINDOW (window));
  return 0;
}

static void
ws_application_activate (GApplication *application)
{
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (application));

  if (window == NULL)
    window = GTK_WINDOW (ws_window_new (GTK_APPLICATION (application), NULL));
  gtk_window_present (window);
}

static void
about_action (GSimpleAction *action, GVariant *parameter, gpointer user_data)
{
  GtkApplication *application = user_data;
  static const char *developers[] = { "Warpscope contributors", NULL };
  GtkWidget *about;

  about = g_object_new (ADW_TYPE_ABOUT_WINDOW, "transient-for", gtk_application_get_active_window (application),
                        "application-name", _ ("Warpscope"), "application-icon", WS_APPLICATION_ID, "developer-name",
                        _ ("Warpscope contributors"), "version", WS_VERSION, "comments",
                        _ ("A GPU performance-modelling workbench: profile CUDA programs without a GPU, "
                           "simulate them in detail, predict them with analytical models and compare "
                           "the results with measurements."),
                        "website", "https://github.com/warpscope/warpscope", "issue-url",
                        "https://github.com/warpscope/warpscope/issues", "license-type", GTK_LICENSE_GPL_3_0,
                        "copyright", _ ("© The Warpscope contributors"), "developers", developers,
                        /* Translators: replace with your names, one per line. */
                        "translator-credits", _ ("translator-credits"), NULL);
  gtk_window_present (GTK_WINDOW (about));
}

static void
quit_action (GSimpleAction *action, GVariant *parameter, gpointer user_data)
{
  GApplication *application = user_data;
  GList *windows = gtk_application_get_windows (GTK_APPLICATION (application));

  /* Destroy the windows so they close their stores cleanly before exit. */
  while (windows != NULL)
    {
      GList *next = windows->next;

      gtk_window_destroy (GTK_WINDOW (windows->data));
      windows = next;
    }
  g_application_quit (application);
}

static const GActionEntry app_actions[] = {
  { .name = "about", .activate = about_action },
  { .name = "quit", .activate = quit_action },
};

static void
ws_application_startup (GApplication *application)
{
  static const char *quit_accels[] = { "<Control>q", NULL };

  G_APPLICATION_CLASS (ws_application_parent_class)->startup (application);

  g_action_map_add_action_entries (G_ACTION_MAP (application), app_actions, G_N_ELEMENTS (app_actions), application);
  /* Also in the window's shortcut controller; here it reaches the menu label. */
  gtk_application_set_accels_for_action (GTK_APPLICATION (application), "app.quit", quit_accels);
}

static void
ws_application_class_init (WsApplicationClass *klass)
{
  GApplicationClass *app_class = G_APPLICATION_CLASS (klass);

  app_class->startup = ws_application_startup;
  app_class->activate = ws_application_activate;
  app_class->command_line = ws_application_command_line;
}

static void
ws_application_init (WsApplication *self)
{
  static const GOptionEntry entries[] = {
    { "db", 0, 0, G_OPTION_ARG_FILENAME, NULL,
      N_ ("Open the hardware catalogue and results in the SQLite database PATH"), N_ ("PATH") },
    { "version", 0, 0, G_OPTION_ARG_NONE, NULL, N_ ("Print the version and exit"), NULL },
    { NULL }
  };

  g_application_add_main_option_entries (G_APPLICATION (self), entries);
  g_application_set_option_context_summary (G_APPLICATION (self), _ ("A GPU performance-modelling workbench."));
}

static int
handle_local_options (GApplication *application, GVariantDict *options, gpointer user_data)
{
  if (g_variant_dict_contains (options, "version"))
    {
      g_print ("warpscope %s\n", WS_VERSION);
      return 0;
    }
  return -1;
}

WsApplication *
ws_application_new (void)
{
  WsApplication *self = g_object_new (WS_TYPE_APPLICATION, "application-id", WS_APPLICATION_ID, "flags",
                                      G_APPLICATION_HANDLES_COMMAND_LINE, NULL);

  g_signal_connect (self, "handle-local-options", G_CALLBACK (handle_local_options), NULL);
  return self;
}
