/* ws-plugin-options.c: a predictor plugin's options as rows.
 *
 * One row per WsPredictorOption of the plugin's descriptor: a switch for a
 * bool, a drop-down for a choice, an entry for an int, a double or a
 * string (checked as typed, by the same check `--option` goes through). */
#define G_LOG_DOMAIN "ws-plugin-options"

#include <glib/gi18n.h>
#include <string.h>

#include "ws-plugin-options.h"

typedef struct {
  const WsPredictorOption *option;
  GtkWidget *row;    /* AdwActionRow (bool), AdwComboRow (choice), AdwEntryRow */
  GtkSwitch *toggle; /* bool */
  GStrv choices;     /* choice */
} OptionRow;

struct _WsPluginOptions {
  const WsPredictorPlugin *plugin;
  GArray *rows; /* of OptionRow */
};

static gboolean
text_is_true (const char *text)
{
  return text != NULL
         && (g_ascii_strcasecmp (text, "true") == 0 || g_ascii_strcasecmp (text, "yes") == 0
             || strcmp (text, "1") == 0);
}

/* Checks @text as the value of @o alone; sets or clears the row's error style. */
static gboolean
check_value (WsPluginOptions *self, OptionRow *r, const char *text, GError **error)
{
  g_autoptr (GHashTable) one = g_hash_table_new (g_str_hash, g_str_equal);
  g_hash_table_insert (one, (gpointer) r->option->name, (gpointer) text);
  gboolean ok = ws_predictor_check_options (self->plugin, one, error);

  if (ok)
    gtk_widget_remove_css_class (r->row, "error");
  else
    gtk_widget_add_css_class (r->row, "error");
  return ok;
}

static void
on_entry_changed (GtkEditable *editable, WsPluginOptions *self)
{
  for (guint i = 0; i < self->rows->len; i++)
    {
      OptionRow *r = &g_array_index (self->rows, OptionRow, i);

      if (r->row == GTK_WIDGET (editable))
        check_value (self, r, gtk_editable_get_text (editable), NULL);
    }
}

WsPluginOptions *
ws_plugin_options_new (const WsPredictorPlugin *plugin)
{
  WsPluginOptions *self = g_new0 (WsPluginOptions, 1);
  const WsPredictorDescriptor *d = plugin != NULL && plugin->ok ? plugin->descriptor : NULL;

  self->plugin = plugin;
  self->rows = g_array_new (FALSE, TRUE, sizeof (OptionRow));
  for (guint i = 0; d != NULL && i < d->n_options; i++)
    {
      const WsPredictorOption *o = &d->options[i];
      OptionRow r = { o, NULL, NULL, NULL };

      switch (o->type)
        {
        case WS_PREDICTOR_OPTION_BOOL:
          r.row = adw_action_row_new ();
          r.toggle = GTK_SWITCH (gtk_switch_new ());
          gtk_widget_set_valign (GTK_WIDGET (r.toggle), GTK_ALIGN_CENTER);
          gtk_switch_set_active (r.toggle, text_is_true (o->default_value));
          adw_action_row_add_suffix (ADW_ACTION_ROW (r.row), GTK_WIDGET (r.toggle));
          adw_action_row_set_activatable_widget (ADW_ACTION_ROW (r.row), GTK_WIDGET (r.toggle));
          break;
        case WS_PREDICTOR_OPTION_CHOICE:
          {
            guint selected = 0;

            r.row = adw_combo_row_new ();
            r.choices = g_strsplit (o->choices != NULL ? o->choices : "", "|", -1);
            adw_combo_row_set_model (ADW_COMBO_ROW (r.row),
                                     G_LIST_MODEL (gtk_string_list_new ((const char *const *) r.choices)));
            for (guint k = 0; r.choices[k] != NULL; k++)
              if (g_strcmp0 (r.choices[k], o->default_value) == 0)
                selected = k;
            adw_combo_row_set_selected (ADW_COMBO_ROW (r.row), selected);
          }
          break;
        default:
          r.row = adw_entry_row_new ();
          gtk_editable_set_text (GTK_EDITABLE (r.row), o->default_value != NULL ? o->default_value : "");
          g_signal_connect (r.row, "changed", G_CALLBACK (on_entry_changed), self);
          break;
        }
      adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (r.row), FALSE);
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (r.row), o->name);
      /* The help text (entry rows show no subtitle: a tooltip there). */
      if (o->help != NULL && ADW_IS_ACTION_ROW (r.row))
        adw_action_row_set_subtitle (ADW_ACTION_ROW (r.row), o->help);
      if (o->help != NULL)
        gtk_widget_set_tooltip_text (r.row, o->help);
      g_object_ref_sink (r.row);
      g_array_append_val (self->rows, r);
    }
  return self;
}

void
ws_plugin_options_free (WsPluginOptions *self)
{
  if (self == NULL)
    return;
  for (guint i = 0; i < self->rows->len; i++)
    {
      OptionRow *r = &g_array_index (self->rows, OptionRow, i);

      g_signal_handlers_disconnect_by_data (r->row, self);
      g_object_unref (r->row);
      g_strfreev (r->choices);
    }
  g_array_unref (self->rows);
  g_free (self);
}

guint
ws_plugin_options_get_n (const WsPluginOptions *self)
{
  return self != NULL ? self->rows->len : 0;
}

void
ws_plugin_options_add_to (WsPluginOptions *self, AdwExpanderRow *row)
{
  for (guint i = 0; i < self->rows->len; i++)
    adw_expander_row_add_row (row, g_array_index (self->rows, OptionRow, i).row);
}

static OptionRow *
find_row (WsPluginOptions *self, const char *name)
{
  for (guint i = 0; self != NULL && i < self->rows->len; i++)
    if (g_str_equal (g_array_index (self->rows, OptionRow, i).option->name, name))
      return &g_array_index (self->rows, OptionRow, i);
  return NULL;
}

static char *
row_text (const OptionRow *r)
{
  if (r->toggle != NULL)
    return g_strdup (gtk_switch_get_active (r->toggle) ? "true" : "false");
  if (r->choices != NULL)
    {
      guint i = adw_combo_row_get_selected (ADW_COMBO_ROW (r->row));

      return g_strdup (i < g_strv_length (r->choices) ? r->choices[i] : "");
    }
  return g_strdup (gtk_editable_get_text (GTK_EDITABLE (r->row)));
}

GHashTable *
ws_plugin_options_get_values (WsPluginOptions *self, GError **error)
{
  g_autoptr (GHashTable) values = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);

  for (guint i = 0; self != NULL && i < self->rows->len; i++)
    {
      OptionRow *r = &g_array_index (self->rows, OptionRow, i);
      g_autofree char *text = row_text (r);

      if (!check_value (self, r, text, error))
        return NULL;
      g_hash_table_insert (values, g_strdup (r->option->name), g_steal_pointer (&text));
    }
  return g_steal_pointer (&values);
}

gboolean
ws_plugin_options_set_value (WsPluginOptions *self, const char *name, const char *text)
{
  OptionRow *r = find_row (self, name);

  if (r == NULL || text == NULL || !check_value (self, r, text, NULL))
    return FALSE;
  if (r->toggle != NULL)
    gtk_switch_set_active (r->toggle, text_is_true (text));
  else if (r->choices != NULL)
    {
      for (guint k = 0; r->choices[k] != NULL; k++)
        if (g_str_equal (r->choices[k], text))
          adw_combo_row_set_selected (ADW_COMBO_ROW (r->row), k);
    }
  else
    gtk_editable_set_text (GTK_EDITABLE (r->row), text);
  return TRUE;
}

GtkWidget *
ws_plugin_options_get_row (WsPluginOptions *self, const char *name)
{
  OptionRow *r = find_row (self, name);

  return r != NULL ? r->row : NULL;
}

char *
ws_plugin_options_describe (const WsPredictorPlugin *plugin, GHashTable *values)
{
  const WsPredictorDescriptor *d = plugin != NULL && plugin->ok ? plugin->descriptor : NULL;
  g_autoptr (GPtrArray) parts = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; d != NULL && values != NULL && i < d->n_options; i++)
    {
      const WsPredictorOption *o = &d->options[i];
      const char *v = g_hash_table_lookup (values, o->name);
      gboolean same = v == NULL || g_strcmp0 (v, o->default_value) == 0
                      || (o->type == WS_PREDICTOR_OPTION_BOOL && text_is_true (v) == text_is_true (o->default_value))
                      || ((o->type == WS_PREDICTOR_OPTION_DOUBLE || o->type == WS_PREDICTOR_OPTION_INT)
                          && o->default_value != NULL
                          && g_ascii_strtod (v, NULL) == g_ascii_strtod (o->default_value, NULL));

      if (!same)
        g_ptr_array_add (parts, g_strdup_printf ("%s=%s", o->name, v));
    }
  g_ptr_array_sort (parts, ws_compare_string_ptrs);
  g_ptr_array_add (parts, NULL);
  return g_strjoinv (", ", (char **) parts->pdata);
}
