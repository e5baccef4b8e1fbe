/* ws-hardware-page-edit.c: editing, creating, duplicating, deleting,
 * importing, exporting and comparing catalogue components. */
#define G_LOG_DOMAIN "ws-hardware-page"

#include <glib/gi18n.h>

#include "base/ws-json.h"
#include "occupancy/ws-occupancy.h"
#include "ws-hardware-page-private.h"
#include "ws-hw-params.h"
#include "ws-hw-record.h"

/* ---- undoable catalogue changes -------------------------------------- */

typedef struct {
  WsHwKind kind;
  char *before, *after; /* JSON text; NULL: no record */
  char *before_name, *after_name;
} HwEntry;

typedef struct {
  WsHardwarePage *page; /* outlives the history: both belong to one window */
  GPtrArray *entries;   /* of HwEntry* */
} HwChange;

static void
hw_entry_free (HwEntry *entry)
{
  g_free (entry->before);
  g_free (entry->after);
  g_free (entry->before_name);
  g_free (entry->after_name);
  g_free (entry);
}

static void
hw_change_free (HwChange *change)
{
  g_ptr_array_unref (change->entries);
  g_free (change);
}

static HwChange *
hw_change_new (WsHardwarePage *page)
{
  HwChange *change = g_new0 (HwChange, 1);

  change->page = page;
  change->entries = g_ptr_array_new_with_free_func ((GDestroyNotify) hw_entry_free);
  return change;
}

static void
hw_change_add (HwChange *change, WsHwKind kind, JsonNode *before, JsonNode *after)
{
  HwEntry *entry = g_new0 (HwEntry, 1);

  entry->kind = kind;
  if (before != NULL)
    {
      entry->before = ws_hw_record_to_text (before);
      entry->before_name = g_strdup (
        json_object_get_string_member_with_default (json_node_get_object (before), "name", ""));
    }
  if (after != NULL)
    {
      entry->after = ws_hw_record_to_text (after);
      entry->after_name = g_strdup (
        json_object_get_string_member_with_default (json_node_get_object (after), "name", ""));
    }
  g_ptr_array_add (change->entries, entry);
}

static gboolean
hw_change_apply (HwChange *change, gboolean forward, GError **error)
{
  WsHardwarePage *self = change->page;
  const char *select = NULL;

  for (guint i = 0; i < change->entries->len; i++)
    {
      HwEntry *e = change->entries->pdata[i];
      const char *old_name = forward ? e->before_name : e->after_name;
      const char *new_name = forward ? e->after_name : e->before_name;
      const char *new_text = forward ? e->after : e->before;

      /* A rename is a delete of the old name and a put of the new one. */
      if (old_name != NULL && g_strcmp0 (old_name, new_name) != 0
          && !ws_store_delete_hw (self->store, e->kind, old_name, error))
        return FALSE;
      if (new_text != NULL)
        {
          g_autoptr (JsonNode) node = ws_hw_record_from_text (new_text);
          g_autofree char *name = ws_hw_record_put (self->store, e->kind, node, error);

          if (name == NULL)
            return FALSE;
        }
      if (select == NULL)
        select = new_name;
    }

  ws_hardware_page_load (self, self->store);
  if (select != NULL)
    ws_hardware_page_select (self, select);
  return TRUE;
}

static gboolean
hw_change_redo (gpointer data, GError **error)
{
  return hw_change_apply (data, TRUE, error);
}

static gboolean
hw_change_undo (gpointer data, GError **error)
{
  return hw_change_apply (data, FALSE, error);
}

static void
show_toast_error (WsHardwarePage *self, const GError *error)
{
  GtkWidget *dialog;
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));

  g_message ("%s", error->message);
  dialog = adw_message_dialog_new (GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL, _ ("The Catalogue Was Not Changed"),
                                   error->message);
  adw_message_dialog_add_response (ADW_MESSAGE_DIALOG (dialog), "close", _ ("_Close"));
  gtk_window_present (GTK_WINDOW (dialog));
}

static gboolean
push_change (WsHardwarePage *self, HwChange *change, const char *label)
{
  g_autoptr (GError) error = NULL;
  WsCommand *command = g_new0 (WsCommand, 1);

  command->label = g_strdup (label);
  command->data = change;
  command->redo = hw_change_redo;
  command->undo = hw_change_undo;
  command->free_data = (GDestroyNotify) hw_change_free;
  if (self->undo == NULL)
    self->undo = ws_undo_stack_new ();
  if (!ws_undo_stack_push (self->undo, command, &error))
    {
      show_toast_error (self, error);
      return FALSE;
    }
  return TRUE;
}

/* ---- the editor ------------------------------------------------------ */

static void
clear_box (GtkWidget *box)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (box)) != NULL)
    gtk_box_remove (GTK_BOX (box), child);
}

static gboolean
commit_field (WsHardwarePage *self, GtkEntry *entry)
{
  const WsHwField *field = g_object_get_data (G_OBJECT (entry), "ws-field");
  GtkWidget *row = g_object_get_data (G_OBJECT (entry), "ws-row");
  g_autoptr (JsonNode) before = NULL;
  g_autoptr (JsonNode) after = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *old_text = NULL;
  g_autofree char *name = NULL;
  g_autofree char *label = NULL;
  HwChange *change;
  const char *text = gtk_editable_get_text (GTK_EDITABLE (entry));

  if (self->current == NULL || self->store == NULL)
    return FALSE;
  before = ws_hw_record_to_json (self->current);
  old_text = ws_hw_record_get_field (before, field);
  if (g_str_equal (old_text, text))
    {
      adw_action_row_set_subtitle (ADW_ACTION_ROW (row), "");
      gtk_widget_remove_css_class (row, "error");
      return TRUE;
    }

  {
    /* json_node_copy shares the object: edit a real copy. */
    g_autofree char *text_before = ws_hw_record_to_text (before);
    after = ws_hw_record_from_text (text_before);
  }
  ws_hw_record_set_field (after, field, text);
  name = ws_hw_record_put (NULL, ws_hw_item_get_kind (self->current), after, &error);
  if (name == NULL)
    {
      /* Inline, under the field, in the words the JSON import uses. */
      adw_action_row_set_subtitle (ADW_ACTION_ROW (row), error->message);
      gtk_widget_add_css_class (row, "error");
      gtk_widget_add_css_class (GTK_WIDGET (entry), "error");
      return FALSE;
    }

  change = hw_change_new (self);
  hw_change_add (change, ws_hw_item_get_kind (self->current), before, after);
  /* Translators: an undo entry, %s is a parameter name such as "Core clock". */
  label = g_strdup_printf (_ ("Edit %s"), ws_hw_text (field->label));
  return push_change (self, change, label);
}

static void
on_field_activate (GtkEntry *entry, WsHardwarePage *self)
{
  commit_field (self, entry);
}

static void
on_field_focus_leave (GtkEventControllerFocus *focus, WsHardwarePage *self)
{
  GtkWidget *entry = gtk_event_controller_get_widget (GTK_EVENT_CONTROLLER (focus));

  /* The editor is rebuilt after every stored change; a leave during that
   * rebuild must not commit a stale row. */
  if (gtk_widget_get_root (entry) != NULL && self->current != NULL
      && GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (entry), "ws-serial")) == self->editor_serial)
    commit_field (self, GTK_ENTRY (entry));
}

static void
build_editor (WsHardwarePage *self)
{
  g_autoptr (JsonNode) node = NULL;
  const WsHwField *fields;
  GtkWidget *group = NULL;
  const char *group_name = NULL;
  guint n_fields;

  self->editor_serial++;
  clear_box (self->editor_box);
  if (self->current == NULL)
    return;

  gtk_label_set_text (self->edit_title_label, ws_hw_item_get_name (self->current));
  node = ws_hw_record_to_json (self->current);
  fields = ws_hw_fields (ws_hw_item_get_kind (self->current), &n_fields);
  for (guint i = 0; i < n_fields; i++)
    {
      const WsHwField *field = &fields[i];
      g_autofree char *value = ws_hw_record_get_field (node, field);
      GtkWidget *row, *entry;
      GtkEventController *focus;

      if (group == NULL || g_strcmp0 (group_name, field->group) != 0)
        {
          group = adw_preferences_group_new ();
          adw_preferences_group_set_title (ADW_PREFERENCES_GROUP (group), ws_hw_text (field->group));
          gtk_widget_add_css_class (group, "ws-param-group");
          gtk_box_append (GTK_BOX (self->editor_box), group);
          group_name = field->group;
        }

      row = adw_action_row_new ();
      adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), ws_hw_text (field->label));
      gtk_widget_set_name (row, field->name);
      gtk_widget_set_tooltip_text (row, ws_hw_text (field->help));
      gtk_widget_add_css_class (row, "ws-field-row");

      entry = gtk_entry_new ();
      gtk_editable_set_text (GTK_EDITABLE (entry), value);
      gtk_editable_set_width_chars (GTK_EDITABLE (entry), field->type == WS_HW_FIELD_STRING ? 20 : 10);
      gtk_widget_set_valign (entry, GTK_ALIGN_CENTER);
      if (field->type != WS_HW_FIELD_STRING)
        {
          gtk_entry_set_alignment (GTK_ENTRY (entry), 1.0f);
          gtk_entry_set_input_purpose (GTK_ENTRY (entry), GTK_INPUT_PURPOSE_NUMBER);
        }
      gtk_accessible_update_property (GTK_ACCESSIBLE (entry), GTK_ACCESSIBLE_PROPERTY_LABEL, ws_hw_text (field->label),
                                      -1);
      g_object_set_data (G_OBJECT (entry), "ws-field", (gpointer) field);
      g_object_set_data (G_OBJECT (entry), "ws-row", row);
      /* Only the item the row was built for (not an undo's reload) takes its text. */
      g_object_set_data (G_OBJECT (entry), "ws-serial", GUINT_TO_POINTER (self->editor_serial));
      g_signal_connect (entry, "activate", G_CALLBACK (on_field_activate), self);
      focus = gtk_event_controller_focus_new ();
      g_signal_connect (focus, "leave", G_CALLBACK (on_field_focus_leave), self);
      gtk_widget_add_controller (entry, focus);
      adw_action_row_add_suffix (ADW_ACTION_ROW (row), entry);
      {
        /* Always present, empty for unitless fields, so entries line up. */
        GtkWidget *unit = gtk_label_new (ws_hw_text (field->unit));
        gtk_widget_add_css_class (unit, "dim-label");
        gtk_label_set_width_chars (GTK_LABEL (unit), 6);
        gtk_label_set_xalign (GTK_LABEL (unit), 0.0f);
        adw_action_row_add_suffix (ADW_ACTION_ROW (row), unit);
      }
      adw_preferences_group_add (ADW_PREFERENCES_GROUP (group), row);
    }
}

/* ---- comparison ------------------------------------------------------ */

/* The grid's rows: the key figures of core's field and derived tables, in
 * their order, then one occupancy example computed by the occupancy
 * calculator.  Labels, units and ids (JSON keys) are core's. */
typedef struct {
  const char *id;
  const char *label;      /* translated */
  const WsHwField *field; /* one of field, derived or neither (occupancy) */
  const WsHwDerived *derived;
} CompareRow;

static GArray *
compare_rows (void)
{
  GArray *rows = g_array_new (FALSE, TRUE, sizeof (CompareRow));
  guint n_fields, n_derived;
  const WsHwField *fields = ws_hw_fields (WS_HW_GPU, &n_fields);
  const WsHwDerived *derived = ws_hw_derived (WS_HW_GPU, &n_derived);

  for (guint i = 0; i < n_fields; i++)
    if (fields[i].flags & WS_HW_FIELD_KEY_FIGURE)
      {
        CompareRow row = { fields[i].name, ws_hw_text (fields[i].label), &fields[i], NULL };
        g_array_append_val (rows, row);
      }
  for (guint i = 0; i < n_derived; i++)
    if (derived[i].flags & WS_HW_FIELD_KEY_FIGURE)
      {
        CompareRow row = { derived[i].name, ws_hw_text (derived[i].label), NULL, &derived[i] };
        g_array_append_val (rows, row);
      }
  {
    /* Not a hardware property but a result of core/occupancy for one
     * launch shape, which this page picks as its example. */
    CompareRow row = { "occupancy_256_32", _ ("Occupancy, 256 threads × 32 registers"), NULL, NULL };
    g_array_append_val (rows, row);
  }
  return rows;
}

static char *
compare_value (const WsGpu *gpu, const CompareRow *row)
{
  WsOccupancy occ;
  g_autofree char *n = NULL;

  if (row->field != NULL)
    return ws_hw_format_field (row->field, gpu);
  if (row->derived != NULL)
    return ws_hw_format_derived (row->derived, gpu);
  if (!ws_occupancy_compute (gpu, 256, 32, 0, &occ, NULL))
    return g_strdup ("—");
  n = ws_hw_format_number (100.0 * occ.occupancy, 1);
  /* Translators: occupancy in percent and the limiting resource. */
  return g_strdup_printf (_ ("%s %% (%d blocks)"), n, occ.blocks_per_sm);
}

static void
build_comparison (WsHardwarePage *self, GPtrArray *gpus)
{
  g_autoptr (GArray) rows = compare_rows ();
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->compare_grid))) != NULL)
    gtk_grid_remove (self->compare_grid, child);

  for (guint c = 0; c < gpus->len; c++)
    {
      WsHwItem *item = gpus->pdata[c];
      GtkWidget *head = gtk_label_new (ws_hw_item_get_name (item));

      gtk_widget_add_css_class (head, "heading");
      gtk_label_set_xalign (GTK_LABEL (head), 1.0f);
      gtk_grid_attach (self->compare_grid, head, c + 1, 0, 1, 1);
    }
  for (guint r = 0; r < rows->len; r++)
    {
      const CompareRow *row = &g_array_index (rows, CompareRow, r);
      GtkWidget *label = gtk_label_new (row->label);

      gtk_label_set_xalign (GTK_LABEL (label), 0.0f);
      gtk_widget_add_css_class (label, "dim-label");
      gtk_widget_set_name (label, row->id);
      gtk_grid_attach (self->compare_grid, label, 0, r + 1, 1, 1);
      for (guint c = 0; c < gpus->len; c++)
        {
          g_autofree char *text = compare_value (ws_hw_item_get_gpu (gpus->pdata[c]), row);
          g_autofree char *name = g_strdup_printf ("%s:%u", row->id, c);
          GtkWidget *value = gtk_label_new (text);

          gtk_widget_set_name (value, name);
          gtk_label_set_xalign (GTK_LABEL (value), 1.0f);
          gtk_label_set_selectable (GTK_LABEL (value), TRUE);
          gtk_widget_add_css_class (value, "numeric");
          gtk_grid_attach (self->compare_grid, value, c + 1, r + 1, 1, 1);
        }
    }
}

/* ---- selection ------------------------------------------------------- */

static GPtrArray *
selected_items (WsHardwarePage *self)
{
  g_autoptr (GList) rows = gtk_list_box_get_selected_rows (self->list_box);
  GPtrArray *items = g_ptr_array_new ();

  for (GList *l = rows; l != NULL; l = l->next)
    g_ptr_array_add (items, ws_hardware_page_row_item (l->data));
  return items;
}

void
ws_hardware_page_update_actions (WsHardwarePage *self)
{
  g_autoptr (GPtrArray) items = selected_items (self);
  gboolean have_store = self->store != NULL;

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "hardware.new", have_store);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "hardware.import", have_store);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "hardware.duplicate", have_store && items->len == 1);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "hardware.delete", have_store && items->len >= 1);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "hardware.export", have_store && items->len >= 1);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "hardware.edit", items->len == 1);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "hardware.view", items->len == 1);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "hardware.toggle-edit", items->len == 1);
}

void
ws_hardware_page_on_selection_changed (WsHardwarePage *self, GtkListBox *list_box)
{
  g_autoptr (GPtrArray) items = selected_items (self);
  g_autoptr (GPtrArray) gpus = g_ptr_array_new ();

  for (guint i = 0; i < items->len; i++)
    if (ws_hw_item_get_kind (items->pdata[i]) == WS_HW_GPU)
      g_ptr_array_add (gpus, items->pdata[i]);

  self->editor_serial++;
  g_clear_object (&self->current);
  if (items->len == 1)
    self->current = g_object_ref (items->pdata[0]);

  ws_hardware_page_show_item (self, self->current);
  if (self->current != NULL)
    {
      build_editor (self);
      if (self->editing)
        gtk_stack_set_visible_child_name (self->detail_stack, "edit");
    }
  else if (gpus->len >= 2)
    {
      build_comparison (self, gpus);
      gtk_stack_set_visible_child_name (self->detail_stack, "compare");
    }
  ws_hardware_page_update_actions (self);
}

/* ---- actions --------------------------------------------------------- */

static void
edit_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  WsHardwarePage *self = WS_HARDWARE_PAGE (widget);
  gboolean edit = g_str_equal (action_name, "hardware.edit")
                  || (g_str_equal (action_name, "hardware.toggle-edit") && !self->editing);

  if (self->current == NULL)
    return;
  self->editing = edit;
  gtk_stack_set_visible_child_name (self->detail_stack, edit ? "edit" : "details");
  if (edit)
    {
      GtkWidget *first = gtk_widget_get_first_child (self->editor_box);
      (void) first;
      gtk_widget_child_focus (self->editor_box, GTK_DIR_TAB_FORWARD);
    }
}

static char *
unique_name (WsHardwarePage *self, const char *base)
{
  char *name = g_strdup (base);
  WsHwKind kind;

  for (int i = 2; ws_store_find_hw (self->store, name, &kind, NULL); i++)
    {
      g_free (name);
      /* Translators: a duplicate's name, e.g. "GTX 970 (2)". */
      name = g_strdup_printf (_ ("%s (%d)"), base, i);
    }
  return name;
}

/* A new record starts as a copy of the first catalogue record of its kind
 * under a fresh name: every field then holds a value the validation accepts,
 * which an all-zero record would not. */
static WsHwItem *
first_of_kind (WsHardwarePage *self, WsHwKind kind)
{
  GListModel *model = G_LIST_MODEL (self->items);

  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr (WsHwItem) item = g_list_model_get_item (model, i);
      if (ws_hw_item_get_kind (item) == kind)
        return g_steal_pointer (&item);
    }
  return NULL;
}

static void
add_copy (WsHardwarePage *self, WsHwItem *source, const char *base, const char *label)
{
  g_autoptr (JsonNode) node = ws_hw_record_to_json (source);
  g_autofree char *name = unique_name (self, base);
  HwChange *change = hw_change_new (self);

  json_object_set_string_member (json_node_get_object (node), "name", name);
  hw_change_add (change, ws_hw_item_get_kind (source), NULL, node);
  if (push_change (self, change, label) && ws_hardware_page_select (self, name))
    {
      self->editing = TRUE;
      gtk_stack_set_visible_child_name (self->detail_stack, "edit");
    }
}

static void
new_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  WsHardwarePage *self = WS_HARDWARE_PAGE (widget);
  WsHwKind kind;
  g_autoptr (WsHwItem) template = NULL;
  const char *base;

  if (!ws_hw_kind_from_string (g_variant_get_string (parameter, NULL), &kind))
    return;
  template = first_of_kind (self, kind);
  if (template == NULL)
    {
      g_autoptr (GError) error = g_error_new (
        WS_ERROR, WS_ERROR_NOT_FOUND, _ ("There is no %s in the catalogue to start from; import one with Ctrl+O."),
        ws_hw_kind_name (kind));
      show_toast_error (self, error);
      return;
    }
  base = kind == WS_HW_GPU ? _ ("New GPU") : kind == WS_HW_CPU ? _ ("New CPU") : _ ("New Link");
  add_copy (self, template, base, _ ("New Component"));
}

static void
duplicate_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  WsHardwarePage *self = WS_HARDWARE_PAGE (widget);

  if (self->current != NULL)
    add_copy (self, self->current, ws_hw_item_get_name (self->current), _ ("Duplicate Component"));
}

static void
delete_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  WsHardwarePage *self = WS_HARDWARE_PAGE (widget);
  g_autoptr (GPtrArray) items = selected_items (self);
  HwChange *change;

  if (items->len == 0)
    return;
  change = hw_change_new (self);
  for (guint i = 0; i < items->len; i++)
    {
      g_autoptr (JsonNode) before = ws_hw_record_to_json (items->pdata[i]);
      hw_change_add (change, ws_hw_item_get_kind (items->pdata[i]), before, NULL);
    }
  /* No confirmation: Ctrl+Z brings the records back. */
  push_change (self, change, _ ("Delete Component"));
}

static void
on_import_response (GtkNativeDialog *dialog, int response, WsHardwarePage *self)
{
  g_autoptr (GFile) file = NULL;
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;
  g_autofree char *path = NULL;

  if (response == GTK_RESPONSE_ACCEPT)
    {
      file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      path = g_file_get_path (file);
      if (!ws_hardware_page_import_file (self, path, &error))
        show_toast_error (self, error);
    }
  g_object_unref (dialog);
}

static void
import_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  WsHardwarePage *self = WS_HARDWARE_PAGE (widget);
  GtkRoot *root = gtk_widget_get_root (widget);
  GtkFileChooserNative *chooser;
  g_autoptr (GtkFileFilter) filter = gtk_file_filter_new ();

  chooser = gtk_file_chooser_native_new (_ ("Import Components"), GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                         GTK_FILE_CHOOSER_ACTION_OPEN, _ ("_Import"), _ ("_Cancel"));
  gtk_file_filter_set_name (filter, _ ("JSON files"));
  gtk_file_filter_add_pattern (filter, "*.json");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (chooser), filter);
  g_signal_connect (chooser, "response", G_CALLBACK (on_import_response), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

static void
on_export_response (GtkNativeDialog *dialog, int response, WsHardwarePage *self)
{
  g_autoptr (GError) error = NULL;

  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr (GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      g_autofree char *path = g_file_get_path (file);

      if (!ws_hardware_page_export_file (self, path, &error))
        show_toast_error (self, error);
    }
  g_object_unref (dialog);
}

static void
export_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  WsHardwarePage *self = WS_HARDWARE_PAGE (widget);
  GtkRoot *root = gtk_widget_get_root (widget);
  GtkFileChooserNative *chooser;
  g_autofree char *suggested = NULL;

  chooser = gtk_file_chooser_native_new (_ ("Export Components"), GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                         GTK_FILE_CHOOSER_ACTION_SAVE, _ ("_Export"), _ ("_Cancel"));
  suggested = g_strdup_printf ("%s.json", self->current ? ws_hw_item_get_name (self->current) : "components");
  g_strdelimit (suggested, "/\\ ", '-');
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (chooser), suggested);
  g_signal_connect (chooser, "response", G_CALLBACK (on_export_response), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

static gboolean
on_list_key_pressed (GtkEventControllerKey *key, guint keyval, guint keycode, GdkModifierType state,
                     WsHardwarePage *self)
{
  if (keyval == GDK_KEY_Delete || keyval == GDK_KEY_KP_Delete)
    {
      gtk_widget_activate_action (GTK_WIDGET (self), "hardware.delete", NULL);
      return TRUE;
    }
  return FALSE;
}

void
ws_hardware_page_install_actions (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "hardware.new", "s", new_action);
  gtk_widget_class_install_action (widget_class, "hardware.duplicate", NULL, duplicate_action);
  gtk_widget_class_install_action (widget_class, "hardware.delete", NULL, delete_action);
  gtk_widget_class_install_action (widget_class, "hardware.import", NULL, import_action);
  gtk_widget_class_install_action (widget_class, "hardware.export", NULL, export_action);
  gtk_widget_class_install_action (widget_class, "hardware.edit", NULL, edit_action);
  gtk_widget_class_install_action (widget_class, "hardware.view", NULL, edit_action);
  gtk_widget_class_install_action (widget_class, "hardware.toggle-edit", NULL, edit_action);
}

void
ws_hardware_page_init_edit (WsHardwarePage *self)
{
  GtkEventController *key = gtk_event_controller_key_new ();

  g_signal_connect (key, "key-pressed", G_CALLBACK (on_list_key_pressed), self);
  gtk_widget_add_controller (GTK_WIDGET (self->list_box), key);
  ws_hardware_page_update_actions (self);
}

/* ---- public ---------------------------------------------------------- */

void
ws_hardware_page_set_undo_stack (WsHardwarePage *self, WsUndoStack *undo)
{
  g_return_if_fail (WS_IS_HARDWARE_PAGE (self));
  g_set_object (&self->undo, undo);
}

gboolean
ws_hardware_page_import_file (WsHardwarePage *self, const char *path, GError **error)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GPtrArray) nodes = g_ptr_array_new ();
  g_autofree char *label = NULL;
  HwChange *change;
  JsonNode *root;

  g_return_val_if_fail (WS_IS_HARDWARE_PAGE (self), FALSE);
  if (!ws_json_parser_load_file (parser, path, error))
    return FALSE;
  root = json_parser_get_root (parser);
  if (JSON_NODE_HOLDS_ARRAY (root))
    {
      JsonArray *array = json_node_get_array (root);
      for (guint i = 0; i < json_array_get_length (array); i++)
        g_ptr_array_add (nodes, json_array_get_element (array, i));
    }
  else
    g_ptr_array_add (nodes, root);

  change = hw_change_new (self);
  /* Every record is checked before anything is stored, as `hw import` does. */
  for (guint i = 0; i < nodes->len; i++)
    {
      WsHwKind kind;
      g_autoptr (GError) local = NULL;
      g_autofree char *name = NULL;
      WsHwItem *existing = NULL;
      g_autoptr (JsonNode) before = NULL;

      if (!ws_hw_json_get_kind (nodes->pdata[i], &kind, &local)
          || (name = ws_hw_record_put (NULL, kind, nodes->pdata[i], &local)) == NULL)
        {
          g_set_error (error, WS_ERROR, WS_ERROR_INVALID, "%s: record %u: %s", path, i + 1,
                       local ? local->message : "no \"kind\" member (gpu, cpu or link)");
          hw_change_free (change);
          return FALSE;
        }
      for (guint j = 0; j < g_list_model_get_n_items (G_LIST_MODEL (self->items)) && existing == NULL; j++)
        {
          g_autoptr (WsHwItem) item = g_list_model_get_item (G_LIST_MODEL (self->items), j);
          if (g_str_equal (ws_hw_item_get_name (item), name))
            existing = item;
        }
      if (existing != NULL)
        before = ws_hw_record_to_json (existing);
      hw_change_add (change, kind, before, nodes->pdata[i]);
    }
  /* Translators: an undo entry. */
  label = g_strdup (_ ("Import Components"));
  return push_change (self, change, label);
}

gboolean
ws_hardware_page_export_file (WsHardwarePage *self, const char *path, GError **error)
{
  g_autoptr (GPtrArray) items = selected_items (self);
  g_autoptr (JsonNode) root = NULL;
  g_autofree char *text = NULL;

  g_return_val_if_fail (WS_IS_HARDWARE_PAGE (self), FALSE);
  if (items->len == 1)
    root = ws_hw_record_to_json (items->pdata[0]);
  else
    {
      JsonArray *array = json_array_new ();
      for (guint i = 0; i < items->len; i++)
        json_array_add_element (array, ws_hw_record_to_json (items->pdata[i]));
      root = json_node_init_array (json_node_alloc (), array);
      json_array_unref (array);
    }
  text = ws_hw_json_to_data (root, TRUE);
  return g_file_set_contents (path, text, -1, error);
}

GtkWidget *
ws_hardware_page_get_editor_box (WsHardwarePage *self)
{
  return self->editor_box;
}

GtkGrid *
ws_hardware_page_get_compare_grid (WsHardwarePage *self)
{
  return self->compare_grid;
}

const char *
ws_hardware_page_get_detail_state (WsHardwarePage *self)
{
  return gtk_stack_get_visible_child_name (self->detail_stack);
}
