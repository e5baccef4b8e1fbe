/* ws-hardware-page.c: catalogue list with search and a parameter view. */
#define G_LOG_DOMAIN "ws-hardware-page"

#include <glib/gi18n.h>

#include "ws-hardware-page-private.h"
#include "ws-hw-item.h"
#include "ws-hw-params.h"


G_DEFINE_FINAL_TYPE (WsHardwarePage, ws_hardware_page, GTK_TYPE_WIDGET)

static gboolean
filter_item (gpointer item, gpointer user_data)
{
  WsHardwarePage *self = user_data;

  return ws_hw_item_matches (WS_HW_ITEM (item), self->needle);
}

static GtkWidget *
create_row (gpointer item, gpointer user_data)
{
  GtkWidget *row = adw_action_row_new ();

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), ws_hw_item_get_name (item));
  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
  adw_action_row_set_subtitle (ADW_ACTION_ROW (row), ws_hw_item_get_summary (item));
  g_object_set_data_full (G_OBJECT (row), "ws-hw-item", g_object_ref (item), g_object_unref);
  return row;
}

WsHwItem *
ws_hardware_page_row_item (GtkListBoxRow *row)
{
  return row ? g_object_get_data (G_OBJECT (row), "ws-hw-item") : NULL;
}

/* Two rows share a header when they are the same kind and, for GPUs, the
 * same architecture: the list reads as "GPUs · Fermi", "GPUs · Kepler"... */
static char *
group_title (WsHwItem *item)
{
  switch (ws_hw_item_get_kind (item))
    {
    /* Translators: list header over the GPUs of one architecture, e.g. "GPUs · Maxwell". */
    case WS_HW_GPU: return g_strdup_printf (_ ("GPUs · %s"), ws_hw_item_get_family (item));
    case WS_HW_CPU: return g_strdup (_ ("CPUs"));
    case WS_HW_LINK: return g_strdup (_ ("Links"));
    default: g_assert_not_reached ();
    }
}

static void
update_header (GtkListBoxRow *row, GtkListBoxRow *before, gpointer user_data)
{
  g_autofree char *title = group_title (ws_hardware_page_row_item (row));
  g_autofree char *before_title = before ? group_title (ws_hardware_page_row_item (before)) : NULL;
  GtkWidget *header;

  if (g_strcmp0 (title, before_title) == 0)
    {
      gtk_list_box_row_set_header (row, NULL);
      return;
    }

  header = gtk_list_box_row_get_header (row);
  if (header == NULL)
    {
      header = gtk_label_new (NULL);
      gtk_label_set_xalign (GTK_LABEL (header), 0.0f);
      gtk_widget_add_css_class (header, "heading");
      gtk_widget_add_css_class (header, "ws-list-header");
      gtk_list_box_row_set_header (row, header);
    }
  gtk_label_set_text (GTK_LABEL (header), title);
}

static void
clear_groups (WsHardwarePage *self)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (self->groups_box)) != NULL)
    gtk_box_remove (GTK_BOX (self->groups_box), child);
}

void
ws_hardware_page_show_item (WsHardwarePage *self, WsHwItem *item)
{
  g_autoptr (GPtrArray) groups = NULL;

  clear_groups (self);
  if (item == NULL)
    {
      gtk_stack_set_visible_child_name (self->detail_stack, "empty");
      return;
    }

  gtk_label_set_text (self->title_label, ws_hw_item_get_name (item));
  gtk_label_set_text (self->summary_label, ws_hw_item_get_summary (item));

  groups = ws_hw_params_for_item (item);
  for (guint i = 0; i < groups->len; i++)
    {
      WsHwParamGroup *group = g_ptr_array_index (groups, i);
      GtkWidget *pref_group = adw_preferences_group_new ();

      adw_preferences_group_set_title (ADW_PREFERENCES_GROUP (pref_group), group->title);
      gtk_widget_add_css_class (pref_group, "ws-param-group");
      for (guint j = 0; j < group->params->len; j++)
        {
          WsHwParam *param = g_ptr_array_index (group->params, j);
          GtkWidget *row = adw_action_row_new ();
          GtkWidget *value = gtk_label_new (param->value);

          adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
          adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), param->label);
          gtk_widget_set_name (row, param->id);
          if (param->help != NULL && *param->help != '\0')
            gtk_widget_set_tooltip_text (row, param->help);
          gtk_label_set_xalign (GTK_LABEL (value), 1.0f);
          /* Values are short; wrapping would break "1253 MHz" in two. */
          gtk_label_set_wrap (GTK_LABEL (value), FALSE);
          gtk_label_set_selectable (GTK_LABEL (value), TRUE);
          gtk_widget_add_css_class (value, "ws-param-value");
          gtk_widget_add_css_class (value, "numeric");
          adw_action_row_add_suffix (ADW_ACTION_ROW (row), value);
          adw_preferences_group_add (ADW_PREFERENCES_GROUP (pref_group), row);
        }
      gtk_box_append (GTK_BOX (self->groups_box), pref_group);
    }

  gtk_label_set_text (self->sources_label, ws_hw_item_get_sources (item));
  gtk_widget_set_visible (GTK_WIDGET (self->sources_group), *ws_hw_item_get_sources (item) != '\0');
  gtk_stack_set_visible_child_name (self->detail_stack, "details");
}


static void
on_search_changed (WsHardwarePage *self, GtkSearchEntry *entry)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (entry));

  g_free (self->needle);
  self->needle = g_utf8_strdown (text, -1);
  gtk_filter_changed (GTK_FILTER (self->filter), GTK_FILTER_CHANGE_DIFFERENT);
}

/* Enter in the search entry opens the first match, so a user can type a
 * name and press Enter without reaching for the mouse. */
static void
on_search_activate (WsHardwarePage *self, GtkSearchEntry *entry)
{
  GtkListBoxRow *row = gtk_list_box_get_row_at_index (self->list_box, 0);

  if (row != NULL)
    {
      gtk_list_box_unselect_all (self->list_box);
      gtk_list_box_select_row (self->list_box, row);
      gtk_widget_grab_focus (GTK_WIDGET (row));
    }
}

static void
on_stop_search (WsHardwarePage *self, GtkSearchEntry *entry)
{
  gtk_editable_set_text (GTK_EDITABLE (entry), "");
}

static void
ws_hardware_page_dispose (GObject *object)
{
  WsHardwarePage *self = WS_HARDWARE_PAGE (object);

  /* Unbinding removes the rows (emitting row-selected) while the details
   * pane still exists; disposing the template first would leave it dangling. */
  if (self->list_box != NULL)
    gtk_list_box_bind_model (self->list_box, NULL, NULL, NULL, NULL);
  gtk_widget_dispose_template (GTK_WIDGET (self), WS_TYPE_HARDWARE_PAGE);
  g_clear_object (&self->current);
  g_clear_object (&self->undo);
  g_clear_object (&self->filtered);
  g_clear_object (&self->filter);
  g_clear_object (&self->items);
  g_clear_pointer (&self->needle, g_free);

  G_OBJECT_CLASS (ws_hardware_page_parent_class)->dispose (object);
}

static void
ws_hardware_page_class_init (WsHardwarePageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = ws_hardware_page_dispose;

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/warpscope/Warpscope/ui/ws-hardware-page.ui");
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_bind_template_child (widget_class, WsHardwarePage, state_stack);
  gtk_widget_class_bind_template_child (widget_class, WsHardwarePage, search_entry);
  gtk_widget_class_bind_template_child (widget_class, WsHardwarePage, list_box);
  gtk_widget_class_bind_template_child (widget_class, WsHardwarePage, detail_stack);
  gtk_widget_class_bind_template_child (widget_class, WsHardwarePage, title_label);
  gtk_widget_class_bind_template_child (widget_class, WsHardwarePage, summary_label);
  gtk_widget_class_bind_template_child (widget_class, WsHardwarePage, groups_box);
  gtk_widget_class_bind_template_child (widget_class, WsHardwarePage, sources_group);
  gtk_widget_class_bind_template_child (widget_class, WsHardwarePage, sources_label);
  gtk_widget_class_bind_template_child (widget_class, WsHardwarePage, error_page);
  gtk_widget_class_bind_template_child (widget_class, WsHardwarePage, edit_title_label);
  gtk_widget_class_bind_template_child (widget_class, WsHardwarePage, editor_box);
  gtk_widget_class_bind_template_child (widget_class, WsHardwarePage, compare_grid);
  gtk_widget_class_bind_template_callback_full (widget_class, "on_selection_changed",
                                                G_CALLBACK (ws_hardware_page_on_selection_changed));
  ws_hardware_page_install_actions (widget_class);
  gtk_widget_class_bind_template_callback (widget_class, on_search_changed);
  gtk_widget_class_bind_template_callback (widget_class, on_search_activate);
  gtk_widget_class_bind_template_callback (widget_class, on_stop_search);
}

static void
ws_hardware_page_init (WsHardwarePage *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  self->items = g_list_store_new (WS_TYPE_HW_ITEM);
  self->filter = gtk_custom_filter_new (filter_item, self, NULL);
  self->filtered = gtk_filter_list_model_new (G_LIST_MODEL (g_object_ref (self->items)),
                                              GTK_FILTER (g_object_ref (self->filter)));
  gtk_list_box_bind_model (self->list_box, G_LIST_MODEL (self->filtered), create_row, self, NULL);
  gtk_list_box_set_header_func (self->list_box, update_header, self, NULL);
  gtk_search_entry_set_key_capture_widget (self->search_entry, GTK_WIDGET (self));
  ws_hardware_page_init_edit (self);
}

GtkWidget *
ws_hardware_page_new (void)
{
  return g_object_new (WS_TYPE_HARDWARE_PAGE, NULL);
}

static int
compare_items (gconstpointer a, gconstpointer b, gpointer user_data)
{
  return ws_hw_item_compare ((WsHwItem *) a, (WsHwItem *) b);
}

void
ws_hardware_page_load (WsHardwarePage *self, WsStore *store)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) gpus = NULL;
  g_autoptr (GPtrArray) cpus = NULL;
  g_autoptr (GPtrArray) links = NULL;
  g_autoptr (GPtrArray) items = NULL;

  g_return_if_fail (WS_IS_HARDWARE_PAGE (self));
  g_return_if_fail (store != NULL);

  self->store = store;
  if ((gpus = ws_store_list_gpus (store, &error)) == NULL || (cpus = ws_store_list_cpus (store, &error)) == NULL
      || (links = ws_store_list_links (store, &error)) == NULL)
    {
      ws_hardware_page_show_error (self, error);
      return;
    }

  /* The arrays own their records; the items take them over. */
  items = g_ptr_array_new_with_free_func (g_object_unref);
  g_ptr_array_set_free_func (gpus, NULL);
  g_ptr_array_set_free_func (cpus, NULL);
  g_ptr_array_set_free_func (links, NULL);
  for (guint i = 0; i < gpus->len; i++)
    g_ptr_array_add (items, ws_hw_item_new_gpu (g_ptr_array_index (gpus, i)));
  for (guint i = 0; i < cpus->len; i++)
    g_ptr_array_add (items, ws_hw_item_new_cpu (g_ptr_array_index (cpus, i)));
  for (guint i = 0; i < links->len; i++)
    g_ptr_array_add (items, ws_hw_item_new_link (g_ptr_array_index (links, i)));
  g_list_store_splice (self->items, 0, g_list_model_get_n_items (G_LIST_MODEL (self->items)), items->pdata, items->len);
  g_list_store_sort (self->items, compare_items, NULL);

  gtk_stack_set_visible_child_name (self->state_stack, "catalogue");
  ws_hardware_page_show_item (self, NULL);
  ws_hardware_page_update_actions (self);
}

void
ws_hardware_page_show_error (WsHardwarePage *self, const GError *error)
{
  g_autofree char *description = NULL;
  g_autofree char *message = NULL;

  g_return_if_fail (WS_IS_HARDWARE_PAGE (self));
  g_return_if_fail (error != NULL);

  /* The status page's description is markup; a path may hold '&' or '<'. */
  message = g_markup_escape_text (error->message, -1);

  /* Translators: %s is the store's error message, which names the file. */
  description = g_strdup_printf (_ ("%s\n\nStart Warpscope with --db PATH to use another database, "
                                    "or check that the file is a Warpscope database."),
                                 message);
  adw_status_page_set_description (self->error_page, description);
  g_list_store_remove_all (self->items);
  gtk_stack_set_visible_child_name (self->state_stack, "error");
}

void
ws_hardware_page_focus_search (WsHardwarePage *self)
{
  g_return_if_fail (WS_IS_HARDWARE_PAGE (self));

  gtk_widget_grab_focus (GTK_WIDGET (self->search_entry));
}

gboolean
ws_hardware_page_select (WsHardwarePage *self, const char *name)
{
  g_return_val_if_fail (WS_IS_HARDWARE_PAGE (self), FALSE);
  g_return_val_if_fail (name != NULL, FALSE);

  for (int i = 0;; i++)
    {
      GtkListBoxRow *row = gtk_list_box_get_row_at_index (self->list_box, i);

      if (row == NULL)
        return FALSE;
      if (g_ascii_strcasecmp (ws_hw_item_get_name (ws_hardware_page_row_item (row)), name) == 0)
        {
          gtk_list_box_unselect_all (self->list_box);
          gtk_list_box_select_row (self->list_box, row);
          return TRUE;
        }
    }
}

GtkListBox *
ws_hardware_page_get_list_box (WsHardwarePage *self)
{
  return self->list_box;
}

GtkEditable *
ws_hardware_page_get_search_entry (WsHardwarePage *self)
{
  return GTK_EDITABLE (self->search_entry);
}

GtkWidget *
ws_hardware_page_get_groups_box (WsHardwarePage *self)
{
  return self->groups_box;
}

GtkLabel *
ws_hardware_page_get_title_label (WsHardwarePage *self)
{
  return self->title_label;
}

const char *
ws_hardware_page_get_state (WsHardwarePage *self)
{
  return gtk_stack_get_visible_child_name (self->state_stack);
}

AdwStatusPage *
ws_hardware_page_get_error_page (WsHardwarePage *self)
{
  return self->error_page;
}
