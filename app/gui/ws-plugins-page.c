/* ws-plugins-page.c: the predictor plugins Warpscope found (see the header). */
#define G_LOG_DOMAIN "ws-plugins-page"

#include <glib/gi18n.h>
#include <adwaita.h>

#include "ws-plugins-page.h"
#include "predict/ws-predict.h"

struct _WsPluginsPage {
  GtkWidget parent_instance;

  GtkWidget *scroller;
  AdwPreferencesGroup *list;
  GtkLabel *path_label;
  GPtrArray *rows;  /* of AdwExpanderRow, one per plugin */
  GPtrArray *texts; /* of char*: each row's text (ws_plugins_page_describe), parallel */
  GPtrArray *names; /* of char*, parallel */
};

G_DEFINE_FINAL_TYPE (WsPluginsPage, ws_plugins_page, GTK_TYPE_WIDGET)

enum { RESCANNED, N_SIGNALS };
static guint signals[N_SIGNALS];

static const char *
option_type_name (int type)
{
  switch (type)
    {
    case WS_PREDICTOR_OPTION_INT: return _ ("integer");
    case WS_PREDICTOR_OPTION_DOUBLE: return _ ("number");
    case WS_PREDICTOR_OPTION_BOOL: return _ ("true/false");
    case WS_PREDICTOR_OPTION_CHOICE: return _ ("choice");
    default: return _ ("text");
    }
}

/* A detail line under a plugin's row; @error styles it as one. */
static GtkWidget *
detail_row (GString *text, const char *title, const char *value, gboolean error)
{
  GtkWidget *row = adw_action_row_new ();

  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  adw_action_row_set_subtitle (ADW_ACTION_ROW (row), value);
  if (error)
    gtk_widget_add_css_class (row, "error");
  g_string_append_printf (text, "%s: %s\n", title, value);
  return row;
}

static void
add_plugin (WsPluginsPage *self, const WsPredictorPlugin *p)
{
  GtkWidget *row = adw_expander_row_new ();
  GtkWidget *status = gtk_image_new_from_icon_name (p->ok ? "emblem-ok-symbolic" : "dialog-warning-symbolic");
  g_autoptr (GString) text = g_string_new (NULL);
  g_autofree char *subtitle = NULL;
  const char *origin = p->builtin ? _ ("ships with Warpscope") : _ ("user plugin");
  const char *state;

  if (!p->ok && p->shadowed_by != NULL)
    state = _ ("not used: shadowed");
  else if (!p->ok)
    state = _ ("broken");
  else if (p->in_process)
    state = _ ("runs in process");
  else
    state = _ ("runs in a worker process");
  subtitle = p->version != NULL && p->version[0] != '\0' ? g_strdup_printf ("%s · %s · %s", p->version, origin, state)
                                                         : g_strdup_printf ("%s · %s", origin, state);
  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), p->name);
  adw_expander_row_set_subtitle (ADW_EXPANDER_ROW (row), subtitle);
  gtk_widget_set_tooltip_text (status, p->ok ? _ ("Usable") : _ ("Not usable"));
  adw_expander_row_add_prefix (ADW_EXPANDER_ROW (row), status);
  g_string_append_printf (text, "%s\n%s\n", p->name, subtitle);
  if (!p->ok)
    {
      gtk_widget_add_css_class (row, "error");
      adw_expander_row_set_expanded (ADW_EXPANDER_ROW (row), TRUE);
      adw_expander_row_add_row (ADW_EXPANDER_ROW (row), detail_row (text, _ ("Problem"), p->error, TRUE));
    }
  adw_expander_row_add_row (ADW_EXPANDER_ROW (row), detail_row (text, _ ("File"), p->path, FALSE));
  if (p->shadows != NULL)
    adw_expander_row_add_row (ADW_EXPANDER_ROW (row), detail_row (text, _ ("Hides"), p->shadows, !p->builtin));
  if (p->ok)
    {
      const WsPredictorDescriptor *d = p->descriptor;
      g_autofree char *abi = g_strdup_printf (
        _ ("ABI %d, API %d; %s%s"), p->abi, p->api, d->supports_trace ? _ ("traced launches") : "",
        d->supports_analytic ? (d->supports_trace ? _ (" and analytic kernels") : _ ("analytic kernels")) : "");

      if (p->description != NULL && p->description[0] != '\0')
        adw_expander_row_add_row (ADW_EXPANDER_ROW (row), detail_row (text, _ ("Model"), p->description, FALSE));
      adw_expander_row_add_row (ADW_EXPANDER_ROW (row), detail_row (text, _ ("Predicts"), abi, FALSE));
      for (guint i = 0; i < d->n_options; i++)
        {
          const WsPredictorOption *o = &d->options[i];
          g_autofree char *title = g_strdup_printf (_ ("Option %s"), o->name);
          g_autofree char *value = g_strdup_printf (_ ("%s, default %s%s%s"), option_type_name (o->type),
                                                    o->default_value != NULL ? o->default_value : "—",
                                                    o->help != NULL ? " — " : "", o->help != NULL ? o->help : "");

          adw_expander_row_add_row (ADW_EXPANDER_ROW (row), detail_row (text, title, value, FALSE));
        }
    }
  adw_preferences_group_add (self->list, row);
  g_ptr_array_add (self->rows, row);
  g_ptr_array_add (self->texts, g_string_free (g_steal_pointer (&text), FALSE));
  g_ptr_array_add (self->names, g_strdup (p->name));
}

static void
fill (WsPluginsPage *self)
{
  g_autoptr (GPtrArray) plugins = ws_predictor_scan ();
  g_auto (GStrv) path = ws_predictor_search_path ();
  g_autofree char *folders = g_strjoinv ("\n", path);
  g_autofree char *where = g_strdup_printf (_ ("Searched, in this order (the first plugin of a name wins; "
                                               "WARPSCOPE_PLUGIN_PATH comes first):\n%s"),
                                            folders);

  for (guint i = 0; i < self->rows->len; i++)
    adw_preferences_group_remove (self->list, g_ptr_array_index (self->rows, i));
  g_ptr_array_set_size (self->rows, 0);
  g_ptr_array_set_size (self->texts, 0);
  g_ptr_array_set_size (self->names, 0);
  gtk_label_set_text (self->path_label, where);
  for (guint i = 0; i < plugins->len; i++)
    add_plugin (self, g_ptr_array_index (plugins, i));
  if (plugins->len == 0)
    adw_preferences_group_set_description (self->list, _ ("No predictor plugin was found."));
  else
    adw_preferences_group_set_description (self->list, NULL);
}

void
ws_plugins_page_rescan (WsPluginsPage *self)
{
  g_return_if_fail (WS_IS_PLUGINS_PAGE (self));
  fill (self);
  g_signal_emit (self, signals[RESCANNED], 0);
}

guint
ws_plugins_page_get_n_plugins (WsPluginsPage *self)
{
  g_return_val_if_fail (WS_IS_PLUGINS_PAGE (self), 0);
  return self->rows->len;
}

static gint
find (WsPluginsPage *self, const char *name)
{
  for (guint i = 0; i < self->names->len; i++)
    if (g_str_equal (g_ptr_array_index (self->names, i), name))
      return (gint) i;
  return -1;
}

GtkWidget *
ws_plugins_page_get_row (WsPluginsPage *self, const char *name)
{
  gint i = find (self, name);

  return i >= 0 ? g_ptr_array_index (self->rows, i) : NULL;
}

char *
ws_plugins_page_describe (WsPluginsPage *self, const char *name)
{
  gint i = find (self, name);

  return i >= 0 ? g_strdup (g_ptr_array_index (self->texts, i)) : NULL;
}

static void
rescan_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  ws_plugins_page_rescan (WS_PLUGINS_PAGE (widget));
}

static void
ws_plugins_page_dispose (GObject *object)
{
  WsPluginsPage *self = WS_PLUGINS_PAGE (object);

  g_clear_pointer (&self->scroller, gtk_widget_unparent);
  G_OBJECT_CLASS (ws_plugins_page_parent_class)->dispose (object);
}

static void
ws_plugins_page_finalize (GObject *object)
{
  WsPluginsPage *self = WS_PLUGINS_PAGE (object);

  g_ptr_array_unref (self->rows);
  g_ptr_array_unref (self->texts);
  g_ptr_array_unref (self->names);
  G_OBJECT_CLASS (ws_plugins_page_parent_class)->finalize (object);
}

static void
ws_plugins_page_class_init (WsPluginsPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = ws_plugins_page_dispose;
  object_class->finalize = ws_plugins_page_finalize;
  signals[RESCANNED] = g_signal_new ("rescanned", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                     G_TYPE_NONE, 0);
  gtk_widget_class_install_action (widget_class, "plugins.rescan", NULL, rescan_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_F5, 0, "plugins.rescan", NULL);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
}

static void
ws_plugins_page_init (WsPluginsPage *self)
{
  GtkWidget *clamp = adw_clamp_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 18);
  GtkWidget *rescan = gtk_button_new_with_mnemonic (_ ("_Rescan"));

  self->rows = g_ptr_array_new ();
  self->texts = g_ptr_array_new_with_free_func (g_free);
  self->names = g_ptr_array_new_with_free_func (g_free);
  self->list = ADW_PREFERENCES_GROUP (adw_preferences_group_new ());
  adw_preferences_group_set_title (self->list, _ ("Predictor plugins"));
  gtk_actionable_set_action_name (GTK_ACTIONABLE (rescan), "plugins.rescan");
  gtk_widget_set_tooltip_text (rescan, _ ("Read the plugin folders again (F5)"));
  gtk_widget_set_valign (rescan, GTK_ALIGN_CENTER);
  adw_preferences_group_set_header_suffix (self->list, rescan);
  self->path_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_wrap (self->path_label, TRUE);
  gtk_label_set_selectable (self->path_label, TRUE);
  gtk_label_set_xalign (self->path_label, 0);
  gtk_widget_add_css_class (GTK_WIDGET (self->path_label), "dim-label");
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->list));
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->path_label));
  gtk_widget_set_margin_top (box, 24);
  gtk_widget_set_margin_bottom (box, 24);
  gtk_widget_set_margin_start (box, 12);
  gtk_widget_set_margin_end (box, 12);
  adw_clamp_set_maximum_size (ADW_CLAMP (clamp), 720);
  adw_clamp_set_child (ADW_CLAMP (clamp), box);
  self->scroller = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (self->scroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (self->scroller), clamp);
  gtk_widget_set_parent (self->scroller, GTK_WIDGET (self));
  fill (self);
}

GtkWidget *
ws_plugins_page_new (void)
{
  return g_object_new (WS_TYPE_PLUGINS_PAGE, NULL);
}
