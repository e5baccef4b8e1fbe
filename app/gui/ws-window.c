/* ws-window.c: the main window, its navigation and window-level actions. */
#define G_LOG_DOMAIN "ws-window"

#include <glib/gi18n.h>

#include "ws-window-private.h"
#include "ws-hardware-page.h"
#include "ws-systems-page.h"
#include "ws-app-editor-page.h"
#include "ws-profiles-page.h"
#include "ws-simulations-page.h"
#include "ws-results-page.h"
#include "ws-plugins-page.h"

struct _WsWindow {
  AdwApplicationWindow parent_instance;

  char *db_path;
  WsStore *store;
  WsUndoStack *undo; /* one history for every page's edits */

  /* Template children */
  AdwLeaflet *leaflet;
  GtkListBox *sidebar;
  GtkStack *stack;
  AdwWindowTitle *page_title;
  WsHardwarePage *hardware_page;
  WsSystemsPage *systems_page;
  WsAppEditorPage *app_editor_page;
  WsProfilesPage *profiles_page;
  WsSimulationsPage *simulations_page;
  WsResultsPage *results_page;
  WsPluginsPage *plugins_page;
};

G_DEFINE_FINAL_TYPE (WsWindow, ws_window, ADW_TYPE_APPLICATION_WINDOW)

enum { PROP_0, PROP_DB_PATH, N_PROPS };

static GParamSpec *properties[N_PROPS];

/* Sidebar rows and stack pages are in this order (ws-window.ui). */
const char *const ws_window_page_names[] = { "hardware",    "systems", "applications", "profiles",
                                             "simulations", "results", "plugins",      NULL };

static int
page_index (const char *name)
{
  for (int i = 0; name != NULL && ws_window_page_names[i] != NULL; i++)
    if (g_str_equal (ws_window_page_names[i], name))
      return i;
  return -1;
}

static void
on_sidebar_row_selected (WsWindow *self, GtkListBoxRow *row, GtkListBox *sidebar)
{
  if (row == NULL)
    return;
  gtk_stack_set_visible_child_name (self->stack, ws_window_page_names[gtk_list_box_row_get_index (row)]);
}

static void
on_sidebar_row_activated (WsWindow *self, GtkListBoxRow *row, GtkListBox *sidebar)
{
  /* On a narrow window only one pane shows; activating a row means "go there". */
  adw_leaflet_navigate (self->leaflet, ADW_NAVIGATION_DIRECTION_FORWARD);
}

static void
on_visible_page_changed (WsWindow *self, GParamSpec *pspec, GtkStack *stack)
{
  const char *name = gtk_stack_get_visible_child_name (stack);
  GtkWidget *child = gtk_stack_get_visible_child (stack);
  int index = page_index (name);
  GtkListBoxRow *row;

  if (child == NULL || index < 0)
    return;

  adw_window_title_set_title (self->page_title, gtk_stack_page_get_title (gtk_stack_get_page (stack, child)));
  row = gtk_list_box_get_row_at_index (self->sidebar, index);
  if (row != gtk_list_box_get_selected_row (self->sidebar))
    gtk_list_box_select_row (self->sidebar, row);
}

static void
on_back_clicked (WsWindow *self, GtkButton *button)
{
  adw_leaflet_navigate (self->leaflet, ADW_NAVIGATION_DIRECTION_BACK);
}

static void
show_page_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  WsWindow *self = WS_WINDOW (widget);
  const char *name = g_variant_get_string (parameter, NULL);

  if (!ws_window_show_page (self, name))
    g_warning ("No page called “%s” in the main window", name);
}

static void
search_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  WsWindow *self = WS_WINDOW (widget);

  /* Search means catalogue search until later pages bring their own. */
  ws_window_show_page (self, "hardware");
  ws_hardware_page_focus_search (self->hardware_page);
}

static void
report_undo_error (WsWindow *self, const GError *error)
{
  GtkWidget *dialog = adw_message_dialog_new (GTK_WINDOW (self), _ ("Could Not Undo or Redo"), error->message);

  adw_message_dialog_add_response (ADW_MESSAGE_DIALOG (dialog), "close", _ ("_Close"));
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
undo_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  WsWindow *self = WS_WINDOW (widget);
  g_autoptr (GError) error = NULL;
  gboolean ok = g_str_equal (action_name, "win.undo") ? ws_undo_stack_undo (self->undo, &error)
                                                      : ws_undo_stack_redo (self->undo, &error);

  if (!ok)
    report_undo_error (self, error);
}

static void
on_undo_changed (WsWindow *self, WsUndoStack *undo)
{
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.undo", ws_undo_stack_can_undo (undo));
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.redo", ws_undo_stack_can_redo (undo));
}

/* A plugin built or removed while the app runs: the run form lists what
 * the Plugins page now shows. */
static void
on_plugins_rescanned (WsWindow *self, WsPluginsPage *page)
{
  ws_simulations_page_rescan_plugins (self->simulations_page);
}

static void
on_app_saved (WsWindow *self, const char *name, gboolean new_model, WsAppEditorPage *page)
{
  /* The Simulations page reads a model when it runs it: only a new name
   * needs its list reloaded (it keeps its choices). */
  if (new_model && self->store != NULL)
    ws_simulations_page_load (self->simulations_page, self->store);
}

static void
on_system_models_changed (WsWindow *self, WsSystemsPage *page)
{
  if (self->store != NULL)
    ws_simulations_page_load (self->simulations_page, self->store);
}

static void
on_app_deleted (WsWindow *self, const char *name, WsAppEditorPage *page)
{
  if (self->store != NULL)
    ws_simulations_page_load (self->simulations_page, self->store);
}

static void
ws_window_constructed (GObject *object)
{
  WsWindow *self = WS_WINDOW (object);
  g_autoptr (GError) error = NULL;
  g_autofree char *basename = NULL;

  G_OBJECT_CLASS (ws_window_parent_class)->constructed (object);

  if (self->db_path == NULL)
    self->db_path = ws_store_default_path ();

  basename = g_path_get_basename (self->db_path);
  adw_window_title_set_subtitle (self->page_title, basename);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->page_title), self->db_path);

  self->store = ws_store_open (self->db_path, &error);
  if (self->store == NULL)
    {
      g_message ("Cannot open the store %s: %s", self->db_path, error->message);
      ws_hardware_page_show_error (self->hardware_page, error);
    }
  else
    {
      ws_hardware_page_load (self->hardware_page, self->store);
      ws_systems_page_load (self->systems_page, self->store);
      ws_app_editor_page_load (self->app_editor_page, self->store);
      ws_profiles_page_load (self->profiles_page, self->store);
      ws_simulations_page_load (self->simulations_page, self->store);
      ws_results_page_set_store (self->results_page, self->store);
    }

  on_visible_page_changed (self, NULL, self->stack);
}

static void
ws_window_dispose (GObject *object)
{
  WsWindow *self = WS_WINDOW (object);

  /* Pages borrow the store: drop them before closing it. */
  gtk_widget_dispose_template (GTK_WIDGET (self), WS_TYPE_WINDOW);
  g_clear_pointer (&self->store, ws_store_close);
  g_clear_object (&self->undo);

  G_OBJECT_CLASS (ws_window_parent_class)->dispose (object);
}

static void
ws_window_finalize (GObject *object)
{
  WsWindow *self = WS_WINDOW (object);

  g_clear_pointer (&self->db_path, g_free);

  G_OBJECT_CLASS (ws_window_parent_class)->finalize (object);
}

static void
ws_window_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  WsWindow *self = WS_WINDOW (object);

  switch (prop_id)
    {
    case PROP_DB_PATH: g_value_set_string (value, self->db_path); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ws_window_set_property (GObject *object, guint prop_id, const GValue *value, GParamSpec *pspec)
{
  WsWindow *self = WS_WINDOW (object);

  switch (prop_id)
    {
    case PROP_DB_PATH:
      g_free (self->db_path);
      self->db_path = g_value_dup_string (value);
      break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ws_window_class_init (WsWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->constructed = ws_window_constructed;
  object_class->dispose = ws_window_dispose;
  object_class->finalize = ws_window_finalize;
  object_class->get_property = ws_window_get_property;
  object_class->set_property = ws_window_set_property;

  properties[PROP_DB_PATH] = g_param_spec_string ("db-path", NULL, NULL, NULL,
                                                  G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /* The page types must exist before the template names them. */
  g_type_ensure (WS_TYPE_HARDWARE_PAGE);
  g_type_ensure (WS_TYPE_SYSTEMS_PAGE);
  g_type_ensure (WS_TYPE_APP_EDITOR_PAGE);
  g_type_ensure (WS_TYPE_PROFILES_PAGE);
  g_type_ensure (WS_TYPE_SIMULATIONS_PAGE);
  g_type_ensure (WS_TYPE_RESULTS_PAGE);
  g_type_ensure (WS_TYPE_PLUGINS_PAGE);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/warpscope/Warpscope/ui/ws-window.ui");
  gtk_widget_class_bind_template_child (widget_class, WsWindow, leaflet);
  gtk_widget_class_bind_template_child (widget_class, WsWindow, sidebar);
  gtk_widget_class_bind_template_child (widget_class, WsWindow, stack);
  gtk_widget_class_bind_template_child (widget_class, WsWindow, page_title);
  gtk_widget_class_bind_template_child (widget_class, WsWindow, hardware_page);
  gtk_widget_class_bind_template_child (widget_class, WsWindow, systems_page);
  gtk_widget_class_bind_template_child (widget_class, WsWindow, app_editor_page);
  gtk_widget_class_bind_template_child (widget_class, WsWindow, profiles_page);
  gtk_widget_class_bind_template_child (widget_class, WsWindow, simulations_page);
  gtk_widget_class_bind_template_child (widget_class, WsWindow, results_page);
  gtk_widget_class_bind_template_child (widget_class, WsWindow, plugins_page);
  gtk_widget_class_bind_template_callback (widget_class, on_sidebar_row_selected);
  gtk_widget_class_bind_template_callback (widget_class, on_sidebar_row_activated);
  gtk_widget_class_bind_template_callback (widget_class, on_visible_page_changed);
  gtk_widget_class_bind_template_callback (widget_class, on_back_clicked);
  gtk_widget_class_bind_template_callback (widget_class, on_plugins_rescanned);

  /* Keyboard shortcuts for these live in the template's shortcut controller. */
  gtk_widget_class_install_action (widget_class, "win.show-page", "s", show_page_action);
  gtk_widget_class_install_action (widget_class, "win.search", NULL, search_action);
  gtk_widget_class_install_action (widget_class, "win.undo", NULL, undo_action);
  gtk_widget_class_install_action (widget_class, "win.redo", NULL, undo_action);
}

static void
ws_window_init (WsWindow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  self->undo = ws_undo_stack_new ();
  g_signal_connect_object (self->undo, "changed", G_CALLBACK (on_undo_changed), self, G_CONNECT_SWAPPED);
  on_undo_changed (self, self->undo);
  ws_hardware_page_set_undo_stack (self->hardware_page, self->undo);
  ws_systems_page_set_undo_stack (self->systems_page, self->undo);
  ws_app_editor_page_set_undo_stack (self->app_editor_page, self->undo);
  /* A model saved on the Applications page can be run at once. */
  g_signal_connect_object (self->app_editor_page, "saved", G_CALLBACK (on_app_saved), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->app_editor_page, "deleted", G_CALLBACK (on_app_deleted), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->systems_page, "models-changed", G_CALLBACK (on_system_models_changed), self,
                           G_CONNECT_SWAPPED);
  /* Runs queued on the Simulations page are plotted on the Results page. */
  ws_results_page_set_queue (self->results_page, ws_simulations_page_get_queue (self->simulations_page));
}

WsWindow *
ws_window_new (GtkApplication *application, const char *db_path)
{
  g_return_val_if_fail (application == NULL || GTK_IS_APPLICATION (application), NULL);

  return g_object_new (WS_TYPE_WINDOW, "application", application, "db-path", db_path, NULL);
}

const char *
ws_window_get_db_path (WsWindow *self)
{
  g_return_val_if_fail (WS_IS_WINDOW (self), NULL);
  return self->db_path;
}

gboolean
ws_window_show_page (WsWindow *self, const char *name)
{
  g_return_val_if_fail (WS_IS_WINDOW (self), FALSE);

  if (page_index (name) < 0)
    return FALSE;
  gtk_stack_set_visible_child_name (self->stack, name);
  /* Coming from a shortcut on a narrow window, show the page, not the sidebar. */
  adw_leaflet_set_visible_child_name (self->leaflet, "content");
  return TRUE;
}

WsHardwarePage *
ws_window_get_hardware_page (WsWindow *self)
{
  return self->hardware_page;
}

WsSimulationsPage *
ws_window_get_simulations_page (WsWindow *self)
{
  return self->simulations_page;
}

WsPluginsPage *
ws_window_get_plugins_page (WsWindow *self)
{
  return self->plugins_page;
}

GtkStack *
ws_window_get_stack (WsWindow *self)
{
  return self->stack;
}

GtkListBox *
ws_window_get_sidebar (WsWindow *self)
{
  return self->sidebar;
}

WsStore *
ws_window_get_store (WsWindow *self)
{
  return self->store;
}

WsSystemsPage *
ws_window_get_systems_page (WsWindow *self)
{
  return self->systems_page;
}

WsUndoStack *
ws_window_get_undo_stack (WsWindow *self)
{
  return self->undo;
}
