/* ws-app-editor-page.c: the application editor: application list, name,
 * variables table, process labels, live checks, saving and undo.  The
 * operation lists are built in ws-app-editor-ops.c.
 *
 * Text edits change the document in place and are committed (one undo step,
 * saved) after a short pause; structural edits (add, remove, move, drop)
 * are committed at once and rebuild the editor from the document. */
#define G_LOG_DOMAIN "ws-app-editor-page"

#include <glib/gi18n.h>
#include <string.h>

#include "ws-app-editor-page-private.h"
#include "ws-gui-drafts.h"
#include "ws-confirm.h"

#define EDIT_DEBOUNCE_MS 600

typedef struct {
  GtkWidget *widget;
  GtkLabel *error; /* may be NULL */
  WsAppEditKind kind;
  char *path;
  guint index;
  char *field;
  char *problem; /* what the error label shows */
} Field;

struct _WsAppEditorPage {
  GtkWidget parent_instance;

  WsStore *store; /* borrowed from the window */
  WsUndoStack *undo;
  WsAppDoc *doc;            /* the open application, or NULL */
  char *committed;          /* the document as of the last undo step */
  GHashTable *fields;       /* key -> Field* */
  guint pending_id;         /* debounce of text edits */
  guint rebuild_id;         /* widgets are rebuilt when idle: a change may come from one of them */
  gboolean committing_text; /* the step being pushed is a text edit: widgets are current */
  gboolean updating;        /* the page fills widgets, not the user */
  char *status;
  char *banner;

  /* Template children */
  GtkListBox *apps_list;
  GtkLabel *status_label;
  GtkLabel *banner_label;
  GtkStack *main_stack;
  GtkBox *palette_box;
  GtkScrolledWindow *scroller;
  AdwEntryRow *name_row;
  AdwEntryRow *description_row;
  GtkLabel *name_error;
  GtkBox *variables_box;
  GtkBox *processes_box;
};

G_DEFINE_FINAL_TYPE (WsAppEditorPage, ws_app_editor_page, GTK_TYPE_WIDGET)

enum { SIGNAL_SAVED, SIGNAL_DELETED, N_SIGNALS };
static guint signals[N_SIGNALS];

static void rebuild (WsAppEditorPage *self);
static void populate_apps (WsAppEditorPage *self, const char *select);
static void revalidate (WsAppEditorPage *self);

static void
field_free (Field *f)
{
  g_free (f->path);
  g_free (f->field);
  g_free (f->problem);
  g_free (f);
}

static void
set_status (WsAppEditorPage *self, const char *status, const char *banner)
{
  /* @status or @banner may be the current value itself: copy, then free. */
  char *new_status = g_strdup (status), *new_banner = g_strdup (banner);

  g_free (self->status);
  self->status = new_status;
  g_free (self->banner);
  self->banner = new_banner;
  gtk_label_set_text (self->status_label, new_status != NULL ? new_status : "");
  gtk_label_set_text (self->banner_label, new_banner != NULL ? new_banner : "");
  gtk_widget_set_visible (GTK_WIDGET (self->banner_label), new_banner != NULL);
}

/* ---- saving and undo -------------------------------------------------- */

static void
save_doc (WsAppEditorPage *self)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *problem = NULL;
  g_auto (GStrv) before = NULL;
  gboolean stored = FALSE, was_draft;

  if (self->store == NULL || self->doc == NULL)
    return;
  before = ws_system_store_list_apps (self->store, NULL);
  was_draft = ws_app_doc_has_draft (self->store, self->doc->name);
  if (!ws_app_doc_save (self->store, self->doc, &stored, &problem, &error))
    {
      set_status (self, _ ("Not saved"), error->message);
      g_message ("%s", error->message);
      return;
    }
  if (stored)
    {
      set_status (self, _ ("Saved"), NULL);
      g_signal_emit (self, signals[SIGNAL_SAVED], 0, self->doc->name,
                     before == NULL || !g_strv_contains ((const char *const *) before, self->doc->name));
    }
  else
    set_status (self, _ ("Saved as a draft: not usable in simulations until the problem is fixed"), problem);
  /* The list marks drafts. */
  if (was_draft != ws_app_doc_has_draft (self->store, self->doc->name))
    populate_apps (self, self->doc->name);
}

static gboolean
apply_text (WsAppEditorPage *self, const char *text, GError **error)
{
  g_autoptr (WsAppDoc) doc = ws_app_doc_from_text (text, error);
  gboolean other_app;

  if (doc == NULL)
    return FALSE;
  other_app = self->doc == NULL || g_strcmp0 (self->doc->name, doc->name) != 0;
  ws_app_doc_free (self->doc);
  self->doc = g_steal_pointer (&doc);
  g_free (self->committed);
  self->committed = g_strdup (text);
  save_doc (self);
  if (other_app)
    populate_apps (self, self->doc->name);
  /* A text edit's widgets already show the document. */
  if (!self->committing_text || other_app)
    rebuild (self);
  return TRUE;
}

/* Renaming: the model moves to the new name, so the record (and draft)
 * under the name it leaves goes; undo moves it back the same way. */
typedef struct {
  WsAppEditorPage *page; /* outlives the history: both belong to one window */
  char *before, *after;  /* ws_app_doc_to_text under the old and the new name */
  char *old_name, *new_name;
} Rename;

static void
rename_free (Rename *r)
{
  g_free (r->before);
  g_free (r->after);
  g_free (r->old_name);
  g_free (r->new_name);
  g_free (r);
}

static gboolean
rename_to (WsAppEditorPage *self, const char *text, const char *leave, GError **error)
{
  g_autoptr (GError) gone = NULL;

  if (!apply_text (self, text, error))
    return FALSE;
  /* Nothing stored under the old name (a rename before the first save) is fine. */
  if (!ws_gui_drafts_delete_model (self->store, WS_GUI_DRAFTS_APPS, leave, &gone)
      && !g_error_matches (gone, WS_ERROR, WS_ERROR_NOT_FOUND))
    {
      g_propagate_error (error, g_steal_pointer (&gone));
      return FALSE;
    }
  populate_apps (self, self->doc->name);
  g_signal_emit (self, signals[SIGNAL_DELETED], 0, leave);
  return TRUE;
}

static gboolean
rename_redo (gpointer data, GError **error)
{
  Rename *r = data;
  return rename_to (r->page, r->after, r->old_name, error);
}

static gboolean
rename_undo (gpointer data, GError **error)
{
  Rename *r = data;
  return rename_to (r->page, r->before, r->new_name, error);
}

/* Pushes the document as it is now as one undoable step. */
static void
commit (WsAppEditorPage *self, const char *label, gboolean text_edit)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *after = NULL;
  WsCommand *command;

  g_clear_handle_id (&self->pending_id, g_source_remove);
  if (self->doc == NULL)
    return;
  after = ws_app_doc_to_text (self->doc);
  if (g_strcmp0 (self->committed, after) == 0)
    {
      if (!text_edit)
        rebuild (self);
      return;
    }
  command = ws_command_new_text_change (label, self, (WsApplyTextFunc) apply_text, self->committed, after);
  if (self->undo == NULL)
    self->undo = ws_undo_stack_new ();
  self->committing_text = text_edit;
  if (!ws_undo_stack_push (self->undo, command, &error))
    {
      set_status (self, _ ("Not saved"), error->message);
      g_message ("%s", error->message);
    }
  self->committing_text = FALSE;
}

static gboolean
pending_cb (gpointer data)
{
  WsAppEditorPage *self = data;

  self->pending_id = 0;
  commit (self, _ ("Edit application"), TRUE);
  return G_SOURCE_REMOVE;
}

void
ws_app_editor_page_flush (WsAppEditorPage *self)
{
  g_return_if_fail (WS_IS_APP_EDITOR_PAGE (self));
  if (self->pending_id != 0)
    {
      /* The timeout must go too, or it fires later on a page that may be gone. */
      g_clear_handle_id (&self->pending_id, g_source_remove);
      commit (self, _ ("Edit application"), TRUE);
    }
}

void
ws_app_editor_page_commit_structure (WsAppEditorPage *self, const char *label)
{
  commit (self, label, FALSE);
}

/* ---- the application list ---------------------------------------------- */

static void
populate_apps (WsAppEditorPage *self, const char *select)
{
  g_autoptr (GError) error = NULL;
  g_auto (GStrv) names = NULL;
  GtkWidget *child;

  if (self->store == NULL)
    return;
  self->updating = TRUE;
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->apps_list))) != NULL)
    gtk_list_box_remove (self->apps_list, child);
  names = ws_app_doc_list (self->store, &error);
  if (names == NULL)
    set_status (self, NULL, error->message);
  for (guint i = 0; names != NULL && names[i] != NULL; i++)
    {
      GtkWidget *row = gtk_list_box_row_new ();
      GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
      GtkWidget *label = gtk_label_new (names[i]);

      gtk_label_set_xalign (GTK_LABEL (label), 0);
      gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
      gtk_widget_set_hexpand (label, TRUE);
      gtk_box_append (GTK_BOX (box), label);
      if (ws_app_doc_has_draft (self->store, names[i]))
        {
          GtkWidget *draft = gtk_label_new (_ ("draft"));
          gtk_widget_add_css_class (draft, "dim-label");
          gtk_widget_add_css_class (draft, "caption");
          gtk_widget_set_tooltip_text (draft, _ ("Kept as a draft: the model has a problem to fix"));
          gtk_box_append (GTK_BOX (box), draft);
        }
      gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), box);
      g_object_set_data_full (G_OBJECT (row), "ws-name", g_strdup (names[i]), g_free);
      gtk_list_box_append (self->apps_list, row);
      if (g_strcmp0 (names[i], select) == 0)
        gtk_list_box_select_row (self->apps_list, GTK_LIST_BOX_ROW (row));
    }
  self->updating = FALSE;
}

static gboolean
open_doc (WsAppEditorPage *self, const char *name)
{
  g_autoptr (GError) error = NULL;
  WsAppDoc *doc;

  ws_app_editor_page_flush (self);
  doc = ws_app_doc_load (self->store, name, &error);
  if (doc == NULL)
    {
      set_status (self, NULL, error->message);
      return FALSE;
    }
  ws_app_doc_free (self->doc);
  self->doc = doc;
  g_free (self->committed);
  self->committed = ws_app_doc_to_text (doc);
  rebuild (self);
  {
    g_autoptr (GPtrArray) problems = ws_app_doc_problems (doc);
    if (ws_app_doc_has_draft (self->store, name))
      set_status (self, _ ("Draft: not usable in simulations until the problem is fixed"),
                  problems->len > 0 ? problems->pdata[0] : NULL);
    else
      set_status (self, _ ("Saved"), NULL);
  }
  return TRUE;
}

static void
on_app_selected (WsAppEditorPage *self, GtkListBoxRow *row, GtkListBox *list)
{
  const char *name = row ? g_object_get_data (G_OBJECT (row), "ws-name") : NULL;

  if (self->updating || name == NULL || (self->doc != NULL && g_str_equal (self->doc->name, name)))
    return;
  open_doc (self, name);
}

static char *
unique_name (WsAppEditorPage *self, const char *base)
{
  g_auto (GStrv) names = ws_app_doc_list (self->store, NULL);

  if (names == NULL || !g_strv_contains ((const char *const *) names, base))
    return g_strdup (base);
  for (guint i = 2;; i++)
    {
      g_autofree char *name = g_strdup_printf ("%s-%u", base, i);
      if (!g_strv_contains ((const char *const *) names, name))
        return g_steal_pointer (&name);
    }
}

/* Stores @doc (taken) and opens it. */
static void
start_doc (WsAppEditorPage *self, WsAppDoc *doc)
{
  ws_app_editor_page_flush (self);
  ws_app_doc_free (self->doc);
  self->doc = doc;
  g_free (self->committed);
  self->committed = ws_app_doc_to_text (doc);
  save_doc (self);
  populate_apps (self, doc->name);
  rebuild (self);
}

const char *
ws_app_editor_page_new_app (WsAppEditorPage *self)
{
  g_autofree char *name = NULL;
  WsAppDoc *doc;

  g_return_val_if_fail (WS_IS_APP_EDITOR_PAGE (self), NULL);
  g_return_val_if_fail (self->store != NULL, NULL);
  /* Translators: the name a new application model gets (an identifier-like word). */
  name = unique_name (self, _ ("application"));
  doc = ws_app_doc_new (name);
  ws_app_doc_add_process (doc, "CPU", "1");
  start_doc (self, doc);
  return self->doc->name;
}

static void
new_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  ws_app_editor_page_new_app (WS_APP_EDITOR_PAGE (widget));
}

static void
duplicate_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  WsAppEditorPage *self = WS_APP_EDITOR_PAGE (widget);
  g_autofree char *base = NULL;
  WsAppDoc *copy;

  if (self->doc == NULL || self->store == NULL)
    return;
  ws_app_editor_page_flush (self);
  base = g_strdup_printf ("%s-copy", self->doc->name);
  copy = ws_app_doc_copy (self->doc);
  g_free (copy->name);
  copy->name = unique_name (self, base);
  start_doc (self, copy);
}

gboolean
ws_app_editor_page_delete (WsAppEditorPage *self, GError **error)
{
  g_autofree char *name = NULL;
  g_auto (GStrv) names = NULL;

  g_return_val_if_fail (WS_IS_APP_EDITOR_PAGE (self), FALSE);
  if (self->doc == NULL || self->store == NULL)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID, _ ("No application model is open."));
      return FALSE;
    }
  /* Typing not yet committed belongs to the model that goes away. */
  g_clear_handle_id (&self->pending_id, g_source_remove);
  name = g_strdup (self->doc->name);
  if (!ws_gui_drafts_delete_model (self->store, WS_GUI_DRAFTS_APPS, name, error))
    return FALSE;
  g_clear_pointer (&self->doc, ws_app_doc_free);
  g_clear_pointer (&self->committed, g_free);
  g_signal_emit (self, signals[SIGNAL_DELETED], 0, name);
  names = ws_app_doc_list (self->store, NULL);
  if (names != NULL && names[0] != NULL)
    ws_app_editor_page_open (self, names[0]);
  else
    {
      populate_apps (self, NULL);
      rebuild (self);
    }
  {
    g_autofree char *status = g_strdup_printf (_ ("Deleted “%s”"), name);
    set_status (self, status, NULL);
  }
  return TRUE;
}

static void
delete_confirmed (GtkWidget *widget)
{
  WsAppEditorPage *self = WS_APP_EDITOR_PAGE (widget);
  g_autoptr (GError) error = NULL;

  if (!ws_app_editor_page_delete (self, &error))
    set_status (self, _ ("Not deleted"), error->message);
}

static void
delete_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  WsAppEditorPage *self = WS_APP_EDITOR_PAGE (widget);

  if (self->doc != NULL && self->store != NULL)
    ws_confirm_delete (widget, self->doc->name,
                       _ ("The application model and its draft are removed from the workspace. Stored runs keep "
                          "the model they ran with."),
                       delete_confirmed);
}

static void
save_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  ws_app_editor_page_save (WS_APP_EDITOR_PAGE (widget));
}

gboolean
ws_app_editor_page_save (WsAppEditorPage *self)
{
  g_return_val_if_fail (WS_IS_APP_EDITOR_PAGE (self), FALSE);
  if (self->doc == NULL)
    return FALSE;
  ws_app_editor_page_flush (self);
  save_doc (self);
  populate_apps (self, self->doc->name);
  return self->banner == NULL;
}

/* ---- variables and processes ------------------------------------------ */

static void
add_variable_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  WsAppEditorPage *self = WS_APP_EDITOR_PAGE (widget);
  g_autofree char *name = NULL;

  if (self->doc == NULL)
    return;
  ws_app_editor_page_flush (self);
  for (guint i = self->doc->variables->len + 1;; i++)
    {
      gboolean taken = FALSE;
      g_free (name);
      name = g_strdup_printf ("v%u", i);
      for (guint j = 0; j < self->doc->variables->len; j++)
        taken |= g_str_equal (((WsAppVar *) self->doc->variables->pdata[j])->name, name);
      if (!taken)
        break;
    }
  ws_app_doc_add_variable (self->doc, name, FALSE, "1");
  commit (self, _ ("Add variable"), FALSE);
}

static void
add_process_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  WsAppEditorPage *self = WS_APP_EDITOR_PAGE (widget);
  const char *label = "GPU";

  if (self->doc == NULL)
    return;
  ws_app_editor_page_flush (self);
  for (guint i = 0; i < self->doc->processes->len; i++)
    if (g_str_equal (((WsAppProc *) self->doc->processes->pdata[i])->label, label))
      label = "";
  ws_app_doc_add_process (self->doc, label, "1");
  commit (self, _ ("Add process label"), FALSE);
}

static void
add_op_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  WsAppEditorPage *self = WS_APP_EDITOR_PAGE (widget);
  g_auto (GStrv) parts = g_strsplit (g_variant_get_string (parameter, NULL), " ", 2);
  GPtrArray *list;

  if (self->doc == NULL || g_strv_length (parts) != 2)
    return;
  list = ws_app_doc_get_list (self->doc, parts[0]);
  if (list != NULL)
    ws_app_editor_page_drop_operation (self, parts[0], list->len, parts[1]);
}

/* Row buttons of variables and processes: "var-up", "var-down", "var-remove",
 * "proc-remove", "op-up", "op-down", "op-remove" with "path index". */
static void
row_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  WsAppEditorPage *self = WS_APP_EDITOR_PAGE (widget);
  g_auto (GStrv) parts = g_strsplit (g_variant_get_string (parameter, NULL), " ", 3);
  const char *what;
  guint index;
  GPtrArray *array = NULL;

  if (self->doc == NULL || g_strv_length (parts) != 3)
    return;
  ws_app_editor_page_flush (self);
  what = parts[0];
  index = (guint) g_ascii_strtoull (parts[2], NULL, 10);
  if (g_str_has_prefix (what, "var-"))
    array = self->doc->variables;
  else if (g_str_has_prefix (what, "proc-"))
    array = self->doc->processes;
  else
    array = ws_app_doc_get_list (self->doc, parts[1]);
  if (array == NULL || index >= array->len)
    return;
  if (g_str_has_suffix (what, "-remove"))
    {
      g_ptr_array_remove_index (array, index);
      commit (self,
              g_str_has_prefix (what, "var-")    ? _ ("Remove variable")
              : g_str_has_prefix (what, "proc-") ? _ ("Remove process label")
                                                 : _ ("Remove operation"),
              FALSE);
    }
  else if (g_str_has_suffix (what, "-up") && index > 0)
    {
      gpointer item = g_ptr_array_steal_index (array, index);
      g_ptr_array_insert (array, index - 1, item);
      commit (self, _ ("Move up"), FALSE);
    }
  else if (g_str_has_suffix (what, "-down") && index + 1 < array->len)
    {
      gpointer item = g_ptr_array_steal_index (array, index);
      g_ptr_array_insert (array, index + 1, item);
      commit (self, _ ("Move down"), FALSE);
    }
}

gboolean
ws_app_editor_page_drop_operation (WsAppEditorPage *self, const char *list_path, guint index, const char *kind)
{
  g_return_val_if_fail (WS_IS_APP_EDITOR_PAGE (self), FALSE);
  g_return_val_if_fail (kind != NULL, FALSE);

  if (self->doc == NULL || !g_strv_contains (ws_app_schema_op_names (), kind))
    return FALSE;
  ws_app_editor_page_flush (self);
  if (!ws_app_doc_insert (self->doc, list_path, index, ws_app_op_new (kind)))
    return FALSE;
  /* Translators: %s is an operation type ("Kernel"). */
  {
    g_autofree char *label = g_strdup_printf (_ ("Add %s"), ws_app_op_kind_title (kind));
    commit (self, label, FALSE);
  }
  return TRUE;
}

gboolean
ws_app_editor_page_move_operation (WsAppEditorPage *self, const char *from_path, guint from_index, const char *to_path,
                                   guint to_index)
{
  g_return_val_if_fail (WS_IS_APP_EDITOR_PAGE (self), FALSE);

  if (self->doc == NULL)
    return FALSE;
  ws_app_editor_page_flush (self);
  if (!ws_app_doc_move (self->doc, from_path, from_index, to_path, to_index))
    return FALSE;
  commit (self, _ ("Move operation"), FALSE);
  return TRUE;
}

/* ---- fields ----------------------------------------------------------- */

static void
show_problem (Field *f, char *problem)
{
  g_free (f->problem);
  f->problem = problem;
  if (f->error != NULL)
    {
      gtk_label_set_text (f->error, problem != NULL ? problem : "");
      gtk_widget_set_visible (GTK_WIDGET (f->error), problem != NULL);
    }
  if (problem != NULL)
    gtk_widget_add_css_class (f->widget, "error");
  else
    gtk_widget_remove_css_class (f->widget, "error");
}

static char *
field_problem (WsAppEditorPage *self, Field *f)
{
  WsAppDoc *doc = self->doc;

  switch (f->kind)
    {
    case WS_APP_EDIT_NAME: return *doc->name == '\0' ? g_strdup (_ ("The application needs a name")) : NULL;
    case WS_APP_EDIT_NONE:
    case WS_APP_EDIT_DESCRIPTION: return NULL;
    case WS_APP_EDIT_VAR_NAME:
      return f->index < doc->variables->len ? ws_app_doc_check_variable_name (doc, f->index) : NULL;
    case WS_APP_EDIT_VAR_VALUE:
      return f->index < doc->variables->len ? ws_app_doc_check_variable_value (doc, f->index) : NULL;
    case WS_APP_EDIT_PROC_LABEL: return f->index < doc->processes->len ? ws_app_doc_check_label (doc, f->index) : NULL;
    case WS_APP_EDIT_PROC_COUNT:
      if (f->index < doc->processes->len)
        {
          g_autofree char *path = g_strdup_printf ("p%u", f->index);
          g_auto (GStrv) scope = ws_app_doc_scope (doc, path);
          return ws_app_doc_check_expr (((WsAppProc *) doc->processes->pdata[f->index])->count, FALSE,
                                        (const char *const *) scope);
        }
      return NULL;
    case WS_APP_EDIT_OP_FIELD:
      {
        WsAppOp *op = ws_app_doc_get_op (doc, f->path, f->index);
        g_auto (GStrv) scope = NULL;
        const WsAppField *fields;
        guint n;

        if (op == NULL)
          return NULL;
        if (f->field == NULL)
          return ws_app_doc_check_op (doc, op);
        scope = ws_app_doc_scope (doc, f->path);
        fields = ws_app_op_fields (op, &n);
        for (guint i = 0; i < n; i++)
          if (g_str_equal (fields[i].key, f->field))
            return ws_app_doc_check_field (doc, &fields[i], ws_app_op_get (op, f->field), (const char *const *) scope);
        return NULL;
      }
    }
  return NULL;
}

static void
revalidate (WsAppEditorPage *self)
{
  GHashTableIter it;
  gpointer value;

  if (self->doc == NULL)
    return;
  g_hash_table_iter_init (&it, self->fields);
  while (g_hash_table_iter_next (&it, NULL, &value))
    show_problem (value, field_problem (self, value));
}

static const char *
widget_text (GtkWidget *widget)
{
  return GTK_IS_EDITABLE (widget) ? gtk_editable_get_text (GTK_EDITABLE (widget)) : "";
}

static void
on_field_changed (GtkWidget *widget, WsAppEditorPage *self)
{
  Field *f = g_object_get_data (G_OBJECT (widget), "ws-field");
  WsAppDoc *doc = self->doc;
  const char *text = widget_text (widget);

  if (self->updating || f == NULL || doc == NULL)
    return;
  /* A structural edit's rebuild is pending: these widgets are on their way out. */
  if (self->rebuild_id != 0)
    return;
  switch (f->kind)
    {
    case WS_APP_EDIT_NONE:
    case WS_APP_EDIT_NAME: return; /* the name is applied with Enter: see on_name_apply */
    case WS_APP_EDIT_DESCRIPTION:
      g_free (doc->description);
      doc->description = g_strdup (text);
      break;
    case WS_APP_EDIT_VAR_NAME:
      g_free (((WsAppVar *) doc->variables->pdata[f->index])->name);
      ((WsAppVar *) doc->variables->pdata[f->index])->name = g_strdup (text);
      break;
    case WS_APP_EDIT_VAR_VALUE:
      g_free (((WsAppVar *) doc->variables->pdata[f->index])->value);
      ((WsAppVar *) doc->variables->pdata[f->index])->value = g_strdup (text);
      break;
    case WS_APP_EDIT_PROC_LABEL:
      g_free (((WsAppProc *) doc->processes->pdata[f->index])->label);
      ((WsAppProc *) doc->processes->pdata[f->index])->label = g_strdup (text);
      break;
    case WS_APP_EDIT_PROC_COUNT:
      g_free (((WsAppProc *) doc->processes->pdata[f->index])->count);
      ((WsAppProc *) doc->processes->pdata[f->index])->count = g_strdup (text);
      break;
    case WS_APP_EDIT_OP_FIELD:
      {
        WsAppOp *op = ws_app_doc_get_op (doc, f->path, f->index);
        if (op == NULL || f->field == NULL)
          return;
        ws_app_op_set (op, f->field, text);
      }
      break;
    }
  revalidate (self);
  set_status (self, _ ("Editing…"), self->banner);
  g_clear_handle_id (&self->pending_id, g_source_remove);
  self->pending_id = g_timeout_add (EDIT_DEBOUNCE_MS, pending_cb, self);
}

void
ws_app_editor_page_register (WsAppEditorPage *self, const char *key, GtkWidget *widget, GtkLabel *error,
                             WsAppEditKind kind, const char *path, guint index, const char *field)
{
  Field *f = g_new0 (Field, 1);

  f->widget = widget;
  f->error = error;
  f->kind = kind;
  f->path = g_strdup (path);
  f->index = index;
  f->field = g_strdup (field);
  g_hash_table_replace (self->fields, g_strdup (key), f);
  if (GTK_IS_EDITABLE (widget))
    {
      g_object_set_data (G_OBJECT (widget), "ws-field", f);
      /* The name and description rows outlive rebuilds: connected once. */
      if (g_object_get_data (G_OBJECT (widget), "ws-connected") == NULL)
        {
          g_signal_connect (widget, "changed", G_CALLBACK (on_field_changed), self);
          g_object_set_data (G_OBJECT (widget), "ws-connected", GINT_TO_POINTER (1));
        }
    }
}

static void
on_name_apply (WsAppEditorPage *self, AdwEntryRow *row)
{
  const char *name = gtk_editable_get_text (GTK_EDITABLE (row));
  g_auto (GStrv) names = NULL;
  Field *f = g_hash_table_lookup (self->fields, "name");

  if (self->doc == NULL || self->updating || g_strcmp0 (name, self->doc->name) == 0)
    return;
  names = ws_app_doc_list (self->store, NULL);
  if (*name == '\0' || (names != NULL && g_strv_contains ((const char *const *) names, name)))
    {
      if (f != NULL)
        show_problem (f, *name == '\0' ? g_strdup (_ ("The application needs a name"))
                                       : g_strdup_printf (_ ("“%s” already exists: choose another name"), name));
      return;
    }
  ws_app_editor_page_flush (self);
  {
    g_autoptr (GError) error = NULL;
    Rename *r = g_new0 (Rename, 1);
    WsCommand *command = g_new0 (WsCommand, 1);

    r->page = self;
    r->old_name = g_strdup (self->doc->name);
    r->new_name = g_strdup (name);
    r->before = g_strdup (self->committed);
    g_free (self->doc->name);
    self->doc->name = g_strdup (name);
    r->after = ws_app_doc_to_text (self->doc);
    command->label = g_strdup (_ ("Rename application"));
    command->data = r;
    command->redo = rename_redo;
    command->undo = rename_undo;
    command->free_data = (GDestroyNotify) rename_free;
    if (self->undo == NULL)
      self->undo = ws_undo_stack_new ();
    if (!ws_undo_stack_push (self->undo, command, &error))
      {
        g_autoptr (WsAppDoc) back = ws_app_doc_from_text (self->committed, NULL);

        /* The store refused: the page goes on showing what is stored. */
        if (back != NULL)
          {
            ws_app_doc_free (self->doc);
            self->doc = g_steal_pointer (&back);
            rebuild (self);
          }
        set_status (self, _ ("Not renamed"), error->message);
      }
  }
}

static GtkWidget *
small_button (const char *icon, const char *tooltip, const char *action, const char *target)
{
  GtkWidget *b = gtk_button_new_from_icon_name (icon);

  gtk_widget_set_tooltip_text (b, tooltip);
  gtk_widget_add_css_class (b, "flat");
  gtk_actionable_set_action_name (GTK_ACTIONABLE (b), action);
  gtk_actionable_set_action_target (GTK_ACTIONABLE (b), "s", target);
  gtk_widget_set_valign (b, GTK_ALIGN_START);
  return b;
}

static GtkLabel *
error_label (void)
{
  GtkWidget *l = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (l), 0);
  gtk_label_set_wrap (GTK_LABEL (l), TRUE);
  gtk_widget_add_css_class (l, "error");
  gtk_widget_add_css_class (l, "caption");
  gtk_widget_set_visible (l, FALSE);
  return GTK_LABEL (l);
}

static GtkWidget *
entry_with_error (WsAppEditorPage *self, const char *key, const char *text, const char *placeholder, WsAppEditKind kind,
                  guint index, int width)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  GtkWidget *entry = gtk_entry_new ();
  GtkLabel *error = error_label ();

  gtk_editable_set_text (GTK_EDITABLE (entry), text);
  gtk_entry_set_placeholder_text (GTK_ENTRY (entry), placeholder);
  gtk_editable_set_width_chars (GTK_EDITABLE (entry), width);
  gtk_box_append (GTK_BOX (box), entry);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (error));
  ws_app_editor_page_register (self, key, entry, error, kind, NULL, index, NULL);
  return box;
}

static void
on_var_kind_changed (GtkDropDown *dropdown, GParamSpec *pspec, WsAppEditorPage *self)
{
  guint index = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (dropdown), "ws-index"));
  WsAppVar *v;

  if (self->updating || self->doc == NULL || index >= self->doc->variables->len)
    return;
  ws_app_editor_page_flush (self);
  v = self->doc->variables->pdata[index];
  v->derived = gtk_drop_down_get_selected (dropdown) == 1;
  commit (self, _ ("Change variable kind"), FALSE);
}

static GtkWidget *
build_variable_row (WsAppEditorPage *self, guint index)
{
  const WsAppVar *v = self->doc->variables->pdata[index];
  const char *kinds[] = { _ ("Input"), _ ("Derived"), NULL };
  GtkWidget *row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *kind = gtk_drop_down_new_from_strings (kinds);
  GtkWidget *value;
  g_autofree char *name_key = g_strdup_printf ("var/%u/name", index);
  g_autofree char *value_key = g_strdup_printf ("var/%u/value", index);
  g_autofree char *kind_key = g_strdup_printf ("var/%u/kind", index);
  g_autofree char *target = g_strdup_printf ("var %u", index);
  g_autofree char *up = g_strconcat ("var-up ", target, NULL);
  g_autofree char *down = g_strconcat ("var-down ", target, NULL);
  g_autofree char *remove = g_strconcat ("var-remove ", target, NULL);

  gtk_widget_add_css_class (row, "ws-app-variable");
  gtk_box_append (GTK_BOX (row),
                  entry_with_error (self, name_key, v->name, _ ("Name"), WS_APP_EDIT_VAR_NAME, index, 16));
  gtk_drop_down_set_selected (GTK_DROP_DOWN (kind), v->derived ? 1 : 0);
  gtk_widget_set_size_request (kind, 120, -1);
  gtk_widget_set_valign (kind, GTK_ALIGN_START);
  gtk_widget_set_tooltip_text (kind, _ ("An input has a default value (changed by sweeps); a derived variable "
                                        "is an expression over the variables above it"));
  g_object_set_data (G_OBJECT (kind), "ws-index", GUINT_TO_POINTER (index));
  g_signal_connect (kind, "notify::selected", G_CALLBACK (on_var_kind_changed), self);
  ws_app_editor_page_register (self, kind_key, kind, NULL, WS_APP_EDIT_NONE, NULL, index, NULL);
  gtk_box_append (GTK_BOX (row), kind);
  value = entry_with_error (self, value_key, v->value, v->derived ? _ ("Expression") : _ ("Default value"),
                            WS_APP_EDIT_VAR_VALUE, index, 28);
  gtk_widget_set_hexpand (value, TRUE);
  gtk_box_append (GTK_BOX (row), value);
  gtk_box_append (GTK_BOX (row), small_button ("go-up-symbolic", _ ("Move up"), "appeditor.row", up));
  gtk_box_append (GTK_BOX (row), small_button ("go-down-symbolic", _ ("Move down"), "appeditor.row", down));
  gtk_box_append (GTK_BOX (row), small_button ("user-trash-symbolic", _ ("Remove variable"), "appeditor.row", remove));
  if (v->description != NULL)
    gtk_widget_set_tooltip_text (row, v->description);
  return row;
}

static GtkWidget *
build_process (WsAppEditorPage *self, guint index)
{
  const WsAppProc *p = self->doc->processes->pdata[index];
  GtkWidget *frame = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  GtkWidget *header = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *title = gtk_label_new (_ ("Label"));
  GtkWidget *count_title = gtk_label_new (_ ("Processes"));
  g_autofree char *path = g_strdup_printf ("p%u", index);
  g_autofree char *label_key = g_strdup_printf ("proc/%u/label", index);
  g_autofree char *count_key = g_strdup_printf ("proc/%u/count", index);
  g_autofree char *remove = g_strdup_printf ("proc-remove proc %u", index);

  gtk_widget_add_css_class (frame, "card");
  gtk_widget_add_css_class (frame, "ws-app-process");
  gtk_widget_set_margin_bottom (header, 0);
  g_object_set (header, "margin-start", 12, "margin-end", 6, "margin-top", 8, NULL);
  gtk_widget_add_css_class (title, "heading");
  gtk_widget_set_valign (title, GTK_ALIGN_START);
  gtk_widget_set_margin_top (title, 6);
  gtk_box_append (GTK_BOX (header), title);
  gtk_box_append (GTK_BOX (header),
                  entry_with_error (self, label_key, p->label, _ ("e.g. CPU"), WS_APP_EDIT_PROC_LABEL, index, 10));
  gtk_widget_set_valign (count_title, GTK_ALIGN_START);
  gtk_widget_set_margin_top (count_title, 6);
  gtk_widget_set_tooltip_text (count_title, _ ("How many processes carry this label (an expression; default 1)"));
  gtk_box_append (GTK_BOX (header), count_title);
  {
    GtkWidget *count = entry_with_error (self, count_key, p->count, "1", WS_APP_EDIT_PROC_COUNT, index, 10);
    gtk_widget_set_hexpand (count, TRUE);
    gtk_box_append (GTK_BOX (header), count);
  }
  gtk_box_append (GTK_BOX (header), small_button ("user-trash-symbolic", _ ("Remove this label and its operations"),
                                                  "appeditor.row", remove));
  gtk_box_append (GTK_BOX (frame), header);
  {
    GtkWidget *list = ws_app_editor_build_list (self, path, p->ops, 0);
    g_object_set (list, "margin-start", 12, "margin-end", 12, "margin-bottom", 12, NULL);
    gtk_box_append (GTK_BOX (frame), list);
  }
  return frame;
}

static void
clear_box (GtkBox *box)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (box))) != NULL)
    gtk_box_remove (box, child);
}

static gboolean
restore_scroll (gpointer data)
{
  g_autoptr (WsAppEditorPage) self = data;
  double *value = g_object_get_data (G_OBJECT (self), "ws-scroll");

  if (value != NULL)
    gtk_adjustment_set_value (gtk_scrolled_window_get_vadjustment (self->scroller), *value);
  return G_SOURCE_REMOVE;
}

static void rebuild_now (WsAppEditorPage *self);

static gboolean
rebuild_cb (gpointer data)
{
  WsAppEditorPage *self = data;

  self->rebuild_id = 0;
  rebuild_now (self);
  return G_SOURCE_REMOVE;
}

/* The editor is rebuilt from the document once the current signal (a
 * dropdown's, a button's, a drop's) has returned: its widget goes away. */
static void
rebuild (WsAppEditorPage *self)
{
  if (self->rebuild_id == 0)
    self->rebuild_id = g_idle_add_full (G_PRIORITY_HIGH_IDLE, rebuild_cb, self, NULL);
}

static void
ensure_built (WsAppEditorPage *self)
{
  if (self->rebuild_id != 0)
    {
      g_clear_handle_id (&self->rebuild_id, g_source_remove);
      rebuild_now (self);
    }
}

static void
rebuild_now (WsAppEditorPage *self)
{
  double *scroll = g_new (double, 1);

  *scroll = gtk_adjustment_get_value (gtk_scrolled_window_get_vadjustment (self->scroller));
  g_object_set_data_full (G_OBJECT (self), "ws-scroll", scroll, g_free);
  self->updating = TRUE;
  g_hash_table_remove_all (self->fields);
  clear_box (self->variables_box);
  clear_box (self->processes_box);
  if (self->doc == NULL)
    {
      gtk_stack_set_visible_child_name (self->main_stack, "empty");
      self->updating = FALSE;
      return;
    }
  gtk_stack_set_visible_child_name (self->main_stack, "editor");
  gtk_editable_set_text (GTK_EDITABLE (self->name_row), self->doc->name);
  gtk_editable_set_text (GTK_EDITABLE (self->description_row),
                         self->doc->description != NULL ? self->doc->description : "");
  ws_app_editor_page_register (self, "name", GTK_WIDGET (self->name_row), self->name_error, WS_APP_EDIT_NAME, NULL, 0,
                               NULL);
  ws_app_editor_page_register (self, "description", GTK_WIDGET (self->description_row), NULL, WS_APP_EDIT_DESCRIPTION,
                               NULL, 0, NULL);
  if (self->doc->variables->len == 0)
    {
      GtkWidget *none = gtk_label_new (_ ("No variables: add one with +."));
      gtk_widget_add_css_class (none, "dim-label");
      gtk_label_set_xalign (GTK_LABEL (none), 0);
      gtk_box_append (self->variables_box, none);
    }
  for (guint i = 0; i < self->doc->variables->len; i++)
    gtk_box_append (self->variables_box, build_variable_row (self, i));
  for (guint i = 0; i < self->doc->processes->len; i++)
    gtk_box_append (self->processes_box, build_process (self, i));
  self->updating = FALSE;
  revalidate (self);
  g_idle_add (restore_scroll, g_object_ref (self));
}

/* ---- object ----------------------------------------------------------- */

static void
ws_app_editor_page_dispose (GObject *object)
{
  WsAppEditorPage *self = WS_APP_EDITOR_PAGE (object);
  GtkWidget *child;

  g_clear_handle_id (&self->pending_id, g_source_remove);
  g_clear_handle_id (&self->rebuild_id, g_source_remove);
  gtk_widget_dispose_template (GTK_WIDGET (self), WS_TYPE_APP_EDITOR_PAGE);
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);
  /* Tearing the widgets down may have emitted "changed" and queued a
   * commit again: nothing may outlive the page. */
  g_clear_handle_id (&self->pending_id, g_source_remove);
  g_clear_handle_id (&self->rebuild_id, g_source_remove);
  g_clear_pointer (&self->fields, g_hash_table_unref);
  g_clear_pointer (&self->doc, ws_app_doc_free);
  g_clear_pointer (&self->committed, g_free);
  g_clear_pointer (&self->status, g_free);
  g_clear_pointer (&self->banner, g_free);
  g_clear_object (&self->undo);
  G_OBJECT_CLASS (ws_app_editor_page_parent_class)->dispose (object);
}

/* Leaving the page or closing the window (which hides it before the store
 * closes) saves what was typed last. */
static void
ws_app_editor_page_unmap (GtkWidget *widget)
{
  WsAppEditorPage *self = WS_APP_EDITOR_PAGE (widget);

  if (self->store != NULL)
    ws_app_editor_page_flush (self);
  GTK_WIDGET_CLASS (ws_app_editor_page_parent_class)->unmap (widget);
}

static void
ws_app_editor_page_class_init (WsAppEditorPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = ws_app_editor_page_dispose;
  widget_class->unmap = ws_app_editor_page_unmap;

  /* Emitted with the application's name whenever a valid model was stored,
   * and whether no model of that name was stored before. */
  signals[SIGNAL_SAVED] = g_signal_new ("saved", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                        G_TYPE_NONE, 2, G_TYPE_STRING, G_TYPE_BOOLEAN);
  /* Emitted with the name of an application model that was deleted. */
  signals[SIGNAL_DELETED] = g_signal_new ("deleted", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                          G_TYPE_NONE, 1, G_TYPE_STRING);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/warpscope/Warpscope/ui/ws-app-editor-page.ui");
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_bind_template_child (widget_class, WsAppEditorPage, apps_list);
  gtk_widget_class_bind_template_child (widget_class, WsAppEditorPage, status_label);
  gtk_widget_class_bind_template_child (widget_class, WsAppEditorPage, banner_label);
  gtk_widget_class_bind_template_child (widget_class, WsAppEditorPage, main_stack);
  gtk_widget_class_bind_template_child (widget_class, WsAppEditorPage, palette_box);
  gtk_widget_class_bind_template_child (widget_class, WsAppEditorPage, scroller);
  gtk_widget_class_bind_template_child (widget_class, WsAppEditorPage, name_row);
  gtk_widget_class_bind_template_child (widget_class, WsAppEditorPage, description_row);
  gtk_widget_class_bind_template_child (widget_class, WsAppEditorPage, name_error);
  gtk_widget_class_bind_template_child (widget_class, WsAppEditorPage, variables_box);
  gtk_widget_class_bind_template_child (widget_class, WsAppEditorPage, processes_box);
  gtk_widget_class_bind_template_callback (widget_class, on_app_selected);
  gtk_widget_class_bind_template_callback (widget_class, on_name_apply);

  gtk_widget_class_install_action (widget_class, "appeditor.new", NULL, new_action);
  gtk_widget_class_install_action (widget_class, "appeditor.duplicate", NULL, duplicate_action);
  gtk_widget_class_install_action (widget_class, "appeditor.delete", NULL, delete_action);
  gtk_widget_class_install_action (widget_class, "appeditor.save", NULL, save_action);
  gtk_widget_class_install_action (widget_class, "appeditor.add-variable", NULL, add_variable_action);
  gtk_widget_class_install_action (widget_class, "appeditor.add-process", NULL, add_process_action);
  gtk_widget_class_install_action (widget_class, "appeditor.add-op", "s", add_op_action);
  gtk_widget_class_install_action (widget_class, "appeditor.row", "s", row_action);
}

static void
ws_app_editor_page_init (WsAppEditorPage *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  self->fields = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) field_free);
  for (const char *const *kind = ws_app_schema_op_names (); *kind != NULL; kind++)
    gtk_box_append (self->palette_box, ws_app_editor_build_palette_item (*kind));
  rebuild_now (self);
}

void
ws_app_editor_page_load (WsAppEditorPage *self, WsStore *store)
{
  g_return_if_fail (WS_IS_APP_EDITOR_PAGE (self));
  g_return_if_fail (store != NULL);

  self->store = store;
  populate_apps (self, self->doc != NULL ? self->doc->name : NULL);
}

void
ws_app_editor_page_set_undo_stack (WsAppEditorPage *self, WsUndoStack *undo)
{
  g_return_if_fail (WS_IS_APP_EDITOR_PAGE (self));
  g_set_object (&self->undo, undo);
}

gboolean
ws_app_editor_page_open (WsAppEditorPage *self, const char *name)
{
  g_return_val_if_fail (WS_IS_APP_EDITOR_PAGE (self), FALSE);
  g_return_val_if_fail (name != NULL, FALSE);

  if (self->store == NULL)
    return FALSE;
  if (self->doc != NULL && g_str_equal (self->doc->name, name))
    return TRUE;
  if (!open_doc (self, name))
    return FALSE;
  populate_apps (self, name);
  return TRUE;
}

GtkWidget *
ws_app_editor_page_get_widget (WsAppEditorPage *self, const char *key)
{
  Field *f;

  ensure_built (self);
  f = g_hash_table_lookup (self->fields, key);
  return f != NULL ? f->widget : NULL;
}

const char *
ws_app_editor_page_get_problem (WsAppEditorPage *self, const char *key)
{
  Field *f;

  ensure_built (self);
  f = g_hash_table_lookup (self->fields, key);
  return f != NULL ? f->problem : NULL;
}

GtkWidget *
ws_app_editor_page_get_list_widget (WsAppEditorPage *self, const char *path)
{
  Field *f;

  ensure_built (self);
  f = g_hash_table_lookup (self->fields, path);
  return f != NULL ? f->widget : NULL;
}

GtkWidget *
ws_app_editor_page_get_variables_box (WsAppEditorPage *self)
{
  ensure_built (self);
  return GTK_WIDGET (self->variables_box);
}

const WsAppDoc *
ws_app_editor_page_get_doc (WsAppEditorPage *self)
{
  return self->doc;
}
WsAppDoc *
ws_app_editor_page_get_doc_mut (WsAppEditorPage *self)
{
  return self->doc;
}
WsStore *
ws_app_editor_page_get_store (WsAppEditorPage *self)
{
  return self->store;
}
const char *
ws_app_editor_page_get_status (WsAppEditorPage *self)
{
  return self->status;
}
const char *
ws_app_editor_page_get_banner (WsAppEditorPage *self)
{
  return self->banner;
}
GtkListBox *
ws_app_editor_page_get_apps_list (WsAppEditorPage *self)
{
  return self->apps_list;
}
