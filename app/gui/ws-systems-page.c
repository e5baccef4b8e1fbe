/* ws-systems-page.c: the system designer: system list, palette, catalogue,
 * canvas, side panel and problem list.  Every edit replaces the document by
 * an edited copy through the window's undo history and saves it at once. */
#define G_LOG_DOMAIN "ws-systems-page"

#include <glib/gi18n.h>
#include <string.h>

#include "ws-systems-page-private.h"
#include "ws-gui-drafts.h"
#include "ws-confirm.h"

struct _WsSystemsPage {
  GtkWidget parent_instance;

  WsStore *store; /* borrowed from the window */
  WsUndoStack *undo;
  WsSystemDoc *doc; /* the open system, or NULL */
  GPtrArray *problems;
  gboolean updating; /* the page is filling widgets, not the user */

  /* Template children */
  GtkListBox *systems_list;
  GtkListBox *catalogue_list;
  GtkStack *main_stack;
  WsSystemCanvas *canvas;
  GtkListBox *problems_list;
  GtkLabel *status_label;
  GtkStack *panel_stack;
  AdwPreferencesGroup *panel_group;
  AdwEntryRow *name_row;
  AdwComboRow *hw_row;
  GtkSpinButton *count_spin;
  AdwEntryRow *labels_row;
  AdwComboRow *from_row;
  AdwComboRow *to_row;
  GtkWidget *palette_machine, *palette_cpu, *palette_gpu, *palette_link;
};

G_DEFINE_FINAL_TYPE (WsSystemsPage, ws_systems_page, GTK_TYPE_WIDGET)

enum { SIGNAL_MODELS_CHANGED, N_SIGNALS };
static guint signals[N_SIGNALS];

static void refresh (WsSystemsPage *self);

/* ---- undoable document changes --------------------------------------- */

static gboolean
apply_text (WsSystemsPage *self, const char *text, GError **error)
{
  g_autoptr (WsSystemDoc) doc = ws_system_doc_from_text (text, error);
  gboolean model_stored = FALSE;

  if (doc == NULL)
    return FALSE;
  /* Saved before it is shown: what the canvas shows is what is stored. */
  if (self->store != NULL && !ws_system_doc_save (self->store, doc, &model_stored, error))
    return FALSE;
  ws_system_doc_free (self->doc);
  self->doc = g_steal_pointer (&doc);
  {
    /* An undo may concern another system than the one open: follow it in the list. */
    GtkListBoxRow *selected = gtk_list_box_get_selected_row (self->systems_list);
    if (selected == NULL || g_strcmp0 (g_object_get_data (G_OBJECT (selected), "ws-name"), self->doc->name) != 0)
      for (int i = 0; (selected = gtk_list_box_get_row_at_index (self->systems_list, i)) != NULL; i++)
        if (g_strcmp0 (g_object_get_data (G_OBJECT (selected), "ws-name"), self->doc->name) == 0)
          {
            gtk_list_box_select_row (self->systems_list, selected);
            break;
          }
  }
  gtk_label_set_text (self->status_label,
                      model_stored ? _ ("Saved") : _ ("Saved as a draft until the problems are solved"));
  refresh (self);
  if (model_stored)
    g_signal_emit (self, signals[SIGNAL_MODELS_CHANGED], 0);
  return TRUE;
}

/* Replaces the open document by @next (taken) as one undoable step. */
static gboolean
commit (WsSystemsPage *self, WsSystemDoc *next, const char *label)
{
  g_autoptr (WsSystemDoc) owned = next;
  g_autoptr (GError) error = NULL;
  g_autofree char *before = NULL, *after = NULL;
  WsCommand *command;

  if (self->doc == NULL)
    return FALSE;
  before = ws_system_doc_to_text (self->doc);
  after = ws_system_doc_to_text (owned);
  if (g_str_equal (before, after))
    return TRUE;
  command = ws_command_new_text_change (label, self, (WsApplyTextFunc) apply_text, before, after);
  if (self->undo == NULL)
    self->undo = ws_undo_stack_new ();
  if (!ws_undo_stack_push (self->undo, command, &error))
    {
      gtk_label_set_text (self->status_label, error->message);
      g_message ("%s", error->message);
      return FALSE;
    }
  return TRUE;
}

static WsSystemDoc *
edit_copy (WsSystemsPage *self)
{
  return ws_system_doc_copy (self->doc);
}

/* ---- catalogue helpers ----------------------------------------------- */

static char **
catalogue_names (WsSystemsPage *self, WsComponentKind kind)
{
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GPtrArray) records = NULL;

  if (self->store == NULL)
    return g_new0 (char *, 1);
  switch (kind)
    {
    case WS_COMPONENT_CPU:
      if ((records = ws_store_list_cpus (self->store, NULL)) != NULL)
        for (guint i = 0; i < records->len; i++)
          g_ptr_array_add (names, g_strdup (((WsCpu *) records->pdata[i])->name));
      break;
    case WS_COMPONENT_GPU:
      if ((records = ws_store_list_gpus (self->store, NULL)) != NULL)
        for (guint i = 0; i < records->len; i++)
          g_ptr_array_add (names, g_strdup (((WsGpu *) records->pdata[i])->name));
      break;
    case WS_COMPONENT_LINK:
      if ((records = ws_store_list_links (self->store, NULL)) != NULL)
        for (guint i = 0; i < records->len; i++)
          g_ptr_array_add (names, g_strdup (((WsLink *) records->pdata[i])->name));
      break;
    default: break;
    }
  g_ptr_array_add (names, NULL);
  return (char **) g_ptr_array_free (g_steal_pointer (&names), FALSE);
}

/* The catalogue entry a new component of @kind gets: the one selected in
 * the page's catalogue list when it is of that kind, else the first. */
static char *
default_hw (WsSystemsPage *self, WsComponentKind kind)
{
  GtkListBoxRow *row = gtk_list_box_get_selected_row (self->catalogue_list);
  const char *payload = row ? g_object_get_data (G_OBJECT (row), "ws-payload") : NULL;
  const char *kind_name = ws_component_kind_name (kind);
  g_auto (GStrv) names = NULL;

  if (payload != NULL && g_str_has_prefix (payload, kind_name) && payload[strlen (kind_name)] == ':')
    return g_strdup (payload + strlen (kind_name) + 1);
  names = catalogue_names (self, kind);
  return names[0] ? g_strdup (names[0]) : NULL;
}

static gboolean
kind_from_string (const char *s, WsComponentKind *kind)
{
  for (int k = WS_COMPONENT_MACHINE; k <= WS_COMPONENT_LINK; k++)
    if (g_str_equal (s, ws_component_kind_name (k)))
      {
        *kind = k;
        return TRUE;
      }
  return FALSE;
}

/* ---- edits ----------------------------------------------------------- */

static WsDesignNode *
add_node (WsSystemsPage *self, WsSystemDoc *doc, WsComponentKind kind, const char *hw, double x, double y,
          gboolean centred, const char *into)
{
  /* @into: the machine the keyboard path chose; else the one under the point. */
  WsDesignNode *machine = into ? ws_system_doc_find (doc, into) : ws_system_doc_machine_at (doc, x, y, NULL);
  g_autofree char *name = ws_system_doc_unique_name (doc, ws_component_kind_name (kind));
  g_autofree char *chosen = hw ? g_strdup (hw) : kind == WS_COMPONENT_MACHINE ? NULL : default_hw (self, kind);
  double px = 0, py = 0;
  double w = kind == WS_COMPONENT_LINK ? WS_LINK_WIDTH : WS_NODE_WIDTH;
  double h = kind == WS_COMPONENT_LINK ? WS_LINK_HEIGHT : WS_NODE_HEIGHT;

  if (machine != NULL)
    ws_system_doc_node_origin (doc, machine, &px, &py);
  if (centred)
    {
      x -= w / 2;
      y -= h / 2;
    }
  return ws_system_doc_add (doc, kind, name, chosen, machine ? machine->name : NULL, x - px, y - py);
}

static void
add_at (WsSystemsPage *self, WsComponentKind kind, const char *hw, double x, double y, gboolean centred,
        const char *into)
{
  g_autoptr (WsSystemDoc) next = NULL;
  g_autofree char *name = NULL;

  if (self->doc == NULL)
    return;
  next = edit_copy (self);
  name = g_strdup (add_node (self, next, kind, hw, x, y, centred, into)->name);
  if (commit (self, g_steal_pointer (&next), _ ("Add Component")))
    ws_system_canvas_select (self->canvas, name);
}

/* Where the keyboard path puts a new component: inside the selected machine
 * (or the selected component's machine) next to what is there, else to the
 * right of everything. */
static const char *
free_spot (WsSystemsPage *self, WsComponentKind kind, double *x, double *y)
{
  const WsDesignNode *sel = ws_system_doc_find (self->doc, ws_system_canvas_get_selected (self->canvas));
  const WsDesignNode *machine = NULL;
  double right = 20, mx, my, mw, mh;

  if (sel != NULL)
    machine = sel->kind == WS_COMPONENT_MACHINE ? sel : ws_system_doc_find (self->doc, sel->parent);
  if (kind == WS_COMPONENT_MACHINE)
    machine = NULL;
  for (guint i = 0; i < self->doc->nodes->len; i++)
    {
      const WsDesignNode *n = self->doc->nodes->pdata[i];
      double nx, ny, nw, nh;

      if (g_strcmp0 (n->parent, machine ? machine->name : NULL) != 0 || n->kind == WS_COMPONENT_LINK)
        continue;
      ws_system_doc_node_bounds (self->doc, n, &nx, &ny, &nw, &nh);
      right = MAX (right, nx + nw + 100);
    }
  if (machine != NULL)
    {
      ws_system_doc_node_bounds (self->doc, machine, &mx, &my, &mw, &mh);
      *x = MAX (right, mx + 20);
      *y = my + 40;
      return machine->name;
    }
  *x = right;
  *y = 40;
  return NULL;
}

static void
on_canvas_drop (WsSystemsPage *self, const char *payload, double x, double y, WsSystemCanvas *canvas)
{
  g_auto (GStrv) parts = g_strsplit (payload, ":", 2);
  WsComponentKind kind;

  if (!kind_from_string (parts[0], &kind))
    return;
  add_at (self, kind, parts[1], x, y, TRUE, NULL);
}

static void
on_canvas_move (WsSystemsPage *self, const char *name, double x, double y, const char *parent, WsSystemCanvas *canvas)
{
  g_autoptr (WsSystemDoc) next = edit_copy (self);
  WsDesignNode *n = ws_system_doc_find (next, name);

  if (n == NULL)
    return;
  n->x = x;
  n->y = y;
  g_free (n->parent);
  n->parent = g_strdup (parent);
  commit (self, g_steal_pointer (&next), _ ("Move Component"));
}

static void
on_canvas_connect (WsSystemsPage *self, const char *a, const char *b, WsSystemCanvas *canvas)
{
  g_autoptr (WsSystemDoc) next = edit_copy (self);
  WsDesignNode *na = ws_system_doc_find (next, a);
  WsDesignNode *nb = ws_system_doc_find (next, b);
  WsDesignNode *link;
  g_autofree char *name = NULL;
  g_autofree char *hw = NULL;
  double ax, ay, bx, by;

  if (na == NULL || nb == NULL)
    return;
  /* A host link reads CPU to GPU, whichever end the drag started from. */
  if (nb->kind == WS_COMPONENT_CPU && na->kind == WS_COMPONENT_GPU)
    {
      WsDesignNode *t = na;
      na = nb;
      nb = t;
    }
  ws_system_doc_node_origin (next, na, &ax, &ay);
  ws_system_doc_node_origin (next, nb, &bx, &by);
  hw = default_hw (self, WS_COMPONENT_LINK);
  {
    /* Unless a link is picked in the catalogue list, prefer one the
     * catalogue measured for this GPU ("PCIe 3.1 x16 (GTX 970 test bed)"). */
    GtkListBoxRow *row = gtk_list_box_get_selected_row (self->catalogue_list);
    const char *payload = row ? g_object_get_data (G_OBJECT (row), "ws-payload") : NULL;
    const char *gpu_hw = nb->kind == WS_COMPONENT_GPU ? nb->hw : na->kind == WS_COMPONENT_GPU ? na->hw : NULL;

    if (gpu_hw != NULL && !(payload && g_str_has_prefix (payload, "link:")))
      {
        g_auto (GStrv) links = catalogue_names (self, WS_COMPONENT_LINK);
        g_autofree char *needle = g_strdup_printf ("(%s ", gpu_hw);

        for (guint i = 0; links[i] != NULL; i++)
          if (strstr (links[i], needle) != NULL)
            {
              g_free (hw);
              hw = g_strdup (links[i]);
              break;
            }
      }
  }
  link = add_node (self, next, WS_COMPONENT_LINK, hw, (ax + bx) / 2, (ay + by) / 2 + WS_NODE_HEIGHT + 20, FALSE,
                   g_strcmp0 (na->parent, nb->parent) == 0 ? na->parent : NULL);
  /* The link lives where its ends live (the machine for CPU-GPU links). */
  g_free (link->parent);
  link->parent = g_strcmp0 (na->parent, nb->parent) == 0 ? g_strdup (na->parent) : NULL;
  link->from = g_strdup (na->name);
  link->to = g_strdup (nb->name);
  name = g_strdup (link->name);
  if (commit (self, g_steal_pointer (&next), _ ("Connect Components")))
    ws_system_canvas_select (self->canvas, name);
}

static void
delete_node (WsSystemsPage *self, const char *name)
{
  g_autoptr (WsSystemDoc) next = NULL;

  if (self->doc == NULL || ws_system_doc_find (self->doc, name) == NULL)
    return;
  next = edit_copy (self);
  ws_system_doc_remove (next, name);
  commit (self, g_steal_pointer (&next), _ ("Delete Component"));
}

static void
on_canvas_delete (WsSystemsPage *self, const char *name, WsSystemCanvas *canvas)
{
  delete_node (self, name);
}

static void
copy_subtree (WsSystemDoc *doc, const WsSystemDoc *source, const WsDesignNode *node, const char *parent, double dx,
              GHashTable *renames)
{
  g_autofree char *name = ws_system_doc_unique_name (doc, node->name);
  WsDesignNode *copy = ws_system_doc_add (doc, node->kind, name, node->hw, parent, node->x + dx, node->y + dx);

  copy->count = node->count;
  g_free (copy->labels);
  copy->labels = g_strdup (node->labels);
  copy->from = g_strdup (node->from);
  copy->to = g_strdup (node->to);
  g_hash_table_insert (renames, g_strdup (node->name), g_strdup (name));
  for (guint i = 0; i < source->nodes->len; i++)
    {
      const WsDesignNode *child = source->nodes->pdata[i];
      if (g_strcmp0 (child->parent, node->name) == 0)
        copy_subtree (doc, source, child, name, 0, renames);
    }
}

static void
duplicate_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  WsSystemsPage *self = WS_SYSTEMS_PAGE (widget);
  const WsDesignNode *node;
  g_autoptr (WsSystemDoc) next = NULL;
  g_autoptr (GHashTable) renames = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  guint first;
  const char *select;
  g_autofree char *name = NULL;

  if (self->doc == NULL
      || (node = ws_system_doc_find (self->doc, ws_system_canvas_get_selected (self->canvas))) == NULL)
    return;
  next = edit_copy (self);
  first = next->nodes->len;
  copy_subtree (next, self->doc, node, node->parent, 30, renames);
  /* Links inside a duplicated machine join the copies, not the originals. */
  for (guint i = first; i < next->nodes->len; i++)
    {
      WsDesignNode *n = next->nodes->pdata[i];
      const char *from = n->from ? g_hash_table_lookup (renames, n->from) : NULL;
      const char *to = n->to ? g_hash_table_lookup (renames, n->to) : NULL;

      if (from != NULL && i != first)
        g_free (n->from), n->from = g_strdup (from);
      if (to != NULL && i != first)
        g_free (n->to), n->to = g_strdup (to);
    }
  select = ((WsDesignNode *) next->nodes->pdata[first])->name;
  name = g_strdup (select);
  if (commit (self, g_steal_pointer (&next), _ ("Duplicate Component")))
    ws_system_canvas_select (self->canvas, name);
}

static void
delete_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  WsSystemsPage *self = WS_SYSTEMS_PAGE (widget);
  const char *selected = ws_system_canvas_get_selected (self->canvas);

  if (selected != NULL)
    {
      g_autofree char *name = g_strdup (selected);
      delete_node (self, name);
    }
}

static void
add_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  WsSystemsPage *self = WS_SYSTEMS_PAGE (widget);
  WsComponentKind kind;
  double x, y;

  if (self->doc == NULL || !kind_from_string (g_variant_get_string (parameter, NULL), &kind))
    return;
  {
    g_autofree char *into = g_strdup (free_spot (self, kind, &x, &y));
    add_at (self, kind, NULL, x, y, FALSE, into);
  }
  gtk_widget_grab_focus (GTK_WIDGET (self->canvas));
}

static void
zoom_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  WsSystemsPage *self = WS_SYSTEMS_PAGE (widget);
  const char *how = g_variant_get_string (parameter, NULL);
  double zoom = ws_system_canvas_get_zoom (self->canvas);

  ws_system_canvas_set_zoom (self->canvas, g_str_equal (how, "in")    ? zoom * 1.25
                                           : g_str_equal (how, "out") ? zoom / 1.25
                                                                      : 1.0);
}

static void populate_systems (WsSystemsPage *self, const char *select);

gboolean
ws_systems_page_delete_system (WsSystemsPage *self, GError **error)
{
  g_autofree char *name = NULL;
  g_auto (GStrv) names = NULL;

  g_return_val_if_fail (WS_IS_SYSTEMS_PAGE (self), FALSE);
  if (self->doc == NULL || self->store == NULL)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID, _ ("No system is open."));
      return FALSE;
    }
  name = g_strdup (self->doc->name);
  if (!ws_gui_drafts_delete_model (self->store, WS_GUI_DRAFTS_SYSTEMS, name, error))
    return FALSE;
  g_clear_pointer (&self->doc, ws_system_doc_free);
  ws_system_canvas_select (self->canvas, NULL);
  names = ws_system_doc_list (self->store, NULL);
  populate_systems (self, names != NULL ? names[0] : NULL);
  if (self->doc == NULL)
    refresh (self);
  {
    g_autofree char *status = g_strdup_printf (_ ("Deleted “%s”"), name);
    gtk_label_set_text (self->status_label, status);
  }
  g_signal_emit (self, signals[SIGNAL_MODELS_CHANGED], 0);
  return TRUE;
}

static void
delete_system_confirmed (GtkWidget *widget)
{
  WsSystemsPage *self = WS_SYSTEMS_PAGE (widget);
  g_autoptr (GError) error = NULL;

  if (!ws_systems_page_delete_system (self, &error))
    gtk_label_set_text (self->status_label, error->message);
}

static void
delete_system_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  WsSystemsPage *self = WS_SYSTEMS_PAGE (widget);

  if (self->doc != NULL && self->store != NULL)
    ws_confirm_delete (widget, self->doc->name,
                       _ ("The system and its design are removed from the workspace. Stored runs keep the system "
                          "they ran on."),
                       delete_system_confirmed);
}

static void
new_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  WsSystemsPage *self = WS_SYSTEMS_PAGE (widget);
  g_auto (GStrv) names = NULL;
  g_autofree char *name = NULL;
  g_autoptr (WsSystemDoc) doc = NULL;
  g_autoptr (GError) error = NULL;

  if (self->store == NULL || (names = ws_system_doc_list (self->store, &error)) == NULL)
    return;
  for (int i = 1; name == NULL || g_strv_contains ((const char *const *) names, name); i++)
    {
      g_free (name);
      name = g_strdup_printf ("system-%d", i);
    }
  /* A new, empty system is a draft until it has valid components. */
  doc = ws_system_doc_new (name);
  if (!ws_system_doc_save (self->store, doc, NULL, &error))
    {
      gtk_label_set_text (self->status_label, error->message);
      return;
    }
  populate_systems (self, name);
  gtk_widget_grab_focus (GTK_WIDGET (self->canvas));
}

/* ---- side panel ------------------------------------------------------ */

static WsDesignNode *
selected_in (WsSystemsPage *self, WsSystemDoc *doc)
{
  return doc ? ws_system_doc_find (doc, ws_system_canvas_get_selected (self->canvas)) : NULL;
}

static void
set_combo (AdwComboRow *row, char **items, const char *current, gboolean with_none)
{
  GtkStringList *list = gtk_string_list_new (NULL);
  guint selected = GTK_INVALID_LIST_POSITION;
  guint index = 0;

  if (with_none)
    gtk_string_list_append (list, _ ("(not connected)")), index++;
  if (with_none && current == NULL)
    selected = 0;
  for (guint i = 0; items[i] != NULL; i++, index++)
    {
      gtk_string_list_append (list, items[i]);
      if (g_strcmp0 (items[i], current) == 0)
        selected = index;
    }
  if (current != NULL && selected == GTK_INVALID_LIST_POSITION)
    {
      /* A name the catalogue lacks stays visible so the user sees what is wrong. */
      gtk_string_list_append (list, current);
      selected = index;
    }
  /* Keep the model when its items are unchanged: this runs from inside the
   * row's own selection change, and replacing the model there frees it under
   * GTK's feet. */
  {
    GListModel *old = adw_combo_row_get_model (row);
    gboolean same = old != NULL && g_list_model_get_n_items (old) == g_list_model_get_n_items (G_LIST_MODEL (list));

    for (guint i = 0; same && i < g_list_model_get_n_items (old); i++)
      same = g_strcmp0 (gtk_string_list_get_string (GTK_STRING_LIST (old), i), gtk_string_list_get_string (list, i))
             == 0;
    if (!same)
      adw_combo_row_set_model (row, G_LIST_MODEL (list));
    if (adw_combo_row_get_selected (row) != selected)
      adw_combo_row_set_selected (row, selected);
  }
  g_object_unref (list);
}

static void
update_panel (WsSystemsPage *self)
{
  const WsDesignNode *n = selected_in (self, self->doc);
  g_auto (GStrv) hw = NULL;
  g_autoptr (GPtrArray) ends = g_ptr_array_new ();

  self->updating = TRUE;
  gtk_stack_set_visible_child_name (self->panel_stack, n ? "component" : "none");
  if (n != NULL)
    {
      const char *kind = n->kind == WS_COMPONENT_MACHINE ? _ ("Machine")
                         : n->kind == WS_COMPONENT_CPU   ? _ ("CPU")
                         : n->kind == WS_COMPONENT_GPU   ? _ ("GPU")
                                                         : _ ("Link");

      adw_preferences_group_set_title (self->panel_group, kind);
      gtk_editable_set_text (GTK_EDITABLE (self->name_row), n->name);
      gtk_widget_remove_css_class (GTK_WIDGET (self->name_row), "error");
      gtk_widget_set_visible (GTK_WIDGET (self->hw_row), n->kind != WS_COMPONENT_MACHINE);
      if (n->kind != WS_COMPONENT_MACHINE)
        {
          hw = catalogue_names (self, n->kind);
          set_combo (self->hw_row, hw, n->hw, FALSE);
        }
      gtk_spin_button_set_value (self->count_spin, n->count);
      gtk_editable_set_text (GTK_EDITABLE (self->labels_row), n->labels ? n->labels : "");
      gtk_widget_set_visible (GTK_WIDGET (self->labels_row), n->kind != WS_COMPONENT_LINK);
      gtk_widget_set_visible (GTK_WIDGET (self->from_row), n->kind == WS_COMPONENT_LINK);
      gtk_widget_set_visible (GTK_WIDGET (self->to_row), n->kind == WS_COMPONENT_LINK);
      if (n->kind == WS_COMPONENT_LINK)
        {
          for (guint i = 0; i < self->doc->nodes->len; i++)
            {
              const WsDesignNode *o = self->doc->nodes->pdata[i];
              if (o->kind != WS_COMPONENT_LINK)
                g_ptr_array_add (ends, o->name);
            }
          g_ptr_array_add (ends, NULL);
          set_combo (self->from_row, (char **) ends->pdata, n->from, TRUE);
          set_combo (self->to_row, (char **) ends->pdata, n->to, TRUE);
        }
    }
  self->updating = FALSE;
}

static void
on_name_apply (WsSystemsPage *self, AdwEntryRow *row)
{
  g_autoptr (WsSystemDoc) next = NULL;
  g_autofree char *text = g_strstrip (g_strdup (gtk_editable_get_text (GTK_EDITABLE (row))));
  WsDesignNode *n;
  g_autofree char *old = NULL;

  if (self->updating || self->doc == NULL)
    return;
  next = edit_copy (self);
  if ((n = selected_in (self, next)) == NULL || g_str_equal (n->name, text))
    return;
  if (*text == '\0' || ws_system_doc_find (next, text) != NULL)
    {
      gtk_widget_add_css_class (GTK_WIDGET (row), "error");
      gtk_label_set_text (self->status_label, *text == '\0'
                                                ? _ ("A component needs a name.")
                                                : _ ("Another component has this name; names are unique in a system."));
      return;
    }
  old = g_strdup (n->name);
  ws_system_doc_rename (next, old, text);
  if (commit (self, g_steal_pointer (&next), _ ("Rename Component")))
    ws_system_canvas_select (self->canvas, text);
}

static void
on_labels_apply (WsSystemsPage *self, AdwEntryRow *row)
{
  g_autoptr (WsSystemDoc) next = NULL;
  WsDesignNode *n;

  if (self->updating || self->doc == NULL)
    return;
  next = edit_copy (self);
  if ((n = selected_in (self, next)) == NULL)
    return;
  g_free (n->labels);
  n->labels = g_strstrip (g_strdup (gtk_editable_get_text (GTK_EDITABLE (row))));
  commit (self, g_steal_pointer (&next), _ ("Change Labels"));
}

static void
on_count_changed (WsSystemsPage *self, GtkSpinButton *spin)
{
  g_autoptr (WsSystemDoc) next = NULL;
  WsDesignNode *n;

  if (self->updating || self->doc == NULL)
    return;
  next = edit_copy (self);
  if ((n = selected_in (self, next)) == NULL)
    return;
  n->count = gtk_spin_button_get_value_as_int (spin);
  commit (self, g_steal_pointer (&next), _ ("Change Count"));
}

static const char *
combo_text (AdwComboRow *row)
{
  GObject *item = adw_combo_row_get_selected_item (row);
  return item ? gtk_string_object_get_string (GTK_STRING_OBJECT (item)) : NULL;
}

static void
on_panel_combo_changed (WsSystemsPage *self, GParamSpec *pspec, AdwComboRow *row)
{
  g_autoptr (WsSystemDoc) next = NULL;
  WsDesignNode *n;
  const char *text = combo_text (row);
  char **field;

  if (self->updating || self->doc == NULL || text == NULL)
    return;
  next = edit_copy (self);
  if ((n = selected_in (self, next)) == NULL)
    return;
  field = row == self->hw_row ? &n->hw : row == self->from_row ? &n->from : &n->to;
  g_free (*field);
  /* Position 0 of From and To is "(not connected)". */
  *field = (row != self->hw_row && adw_combo_row_get_selected (row) == 0) ? NULL : g_strdup (text);
  commit (self, g_steal_pointer (&next), row == self->hw_row ? _ ("Change Catalogue Entry") : _ ("Connect Link"));
}

/* ---- refresh --------------------------------------------------------- */

static void
update_actions (WsSystemsPage *self)
{
  gboolean open = self->doc != NULL;
  gboolean selected = open && ws_system_canvas_get_selected (self->canvas) != NULL;

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "systems.new", self->store != NULL);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "systems.add", open);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "systems.zoom", open);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "systems.duplicate", selected);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "systems.delete", selected);
}

static void
refresh (WsSystemsPage *self)
{
  GtkWidget *child;

  g_clear_pointer (&self->problems, g_ptr_array_unref);
  if (self->doc != NULL)
    {
      self->problems = ws_system_doc_problems (self->doc);
      /* The system model's own checks (links across machines, catalogue
       * kinds, ...) once the designer's per-component checks pass. */
      if (self->problems->len == 0 && self->doc->nodes->len > 0 && self->store != NULL)
        {
          g_autoptr (WsSystemModel) model = ws_system_doc_to_model (self->doc);
          g_autoptr (GError) error = NULL;

          if (!ws_system_model_validate (model, self->store, &error))
            {
              WsDesignProblem *p = g_new0 (WsDesignProblem, 1);
              p->message = g_strdup (error->message);
              g_ptr_array_add (self->problems, p);
            }
        }
    }
  ws_system_canvas_set_doc (self->canvas, self->doc, self->problems);
  gtk_stack_set_visible_child_name (self->main_stack, self->doc ? "design" : "empty");

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->problems_list))) != NULL)
    gtk_list_box_remove (self->problems_list, child);
  gtk_widget_set_visible (GTK_WIDGET (self->problems_list), self->problems && self->problems->len > 0);
  for (guint i = 0; self->problems && i < self->problems->len; i++)
    {
      const WsDesignProblem *p = self->problems->pdata[i];
      GtkWidget *row = adw_action_row_new ();
      GtkWidget *icon = gtk_image_new_from_icon_name ("dialog-warning-symbolic");

      adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), p->message);
      adw_action_row_set_title_lines (ADW_ACTION_ROW (row), 3);
      gtk_widget_add_css_class (icon, "error");
      adw_action_row_add_prefix (ADW_ACTION_ROW (row), icon);
      gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), p->node != NULL);
      g_object_set_data_full (G_OBJECT (row), "ws-node", g_strdup (p->node), g_free);
      gtk_list_box_append (self->problems_list, row);
    }
  update_panel (self);
  update_actions (self);
}

static void
on_problem_activated (WsSystemsPage *self, GtkListBoxRow *row, GtkListBox *list)
{
  const char *node = g_object_get_data (G_OBJECT (row), "ws-node");

  if (node != NULL)
    {
      ws_system_canvas_select (self->canvas, node);
      gtk_widget_grab_focus (GTK_WIDGET (self->canvas));
    }
}

static void
on_canvas_selection_changed (WsSystemsPage *self, WsSystemCanvas *canvas)
{
  update_panel (self);
  update_actions (self);
}

/* ---- lists ----------------------------------------------------------- */

static void
on_system_selected (WsSystemsPage *self, GtkListBoxRow *row, GtkListBox *list)
{
  g_autoptr (GError) error = NULL;
  const char *name = row ? g_object_get_data (G_OBJECT (row), "ws-name") : NULL;
  WsSystemDoc *doc;

  if (name == NULL || self->store == NULL || (self->doc && g_str_equal (self->doc->name, name)))
    return;
  doc = ws_system_doc_load (self->store, name, &error);
  if (doc == NULL)
    {
      gtk_label_set_text (self->status_label, error->message);
      return;
    }
  ws_system_doc_free (self->doc);
  self->doc = doc;
  gtk_label_set_text (self->status_label, "");
  ws_system_canvas_select (self->canvas, NULL);
  refresh (self);
}

static void
populate_systems (WsSystemsPage *self, const char *select)
{
  g_auto (GStrv) names = NULL;
  g_autoptr (GError) error = NULL;
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->systems_list))) != NULL)
    gtk_list_box_remove (self->systems_list, child);
  if ((names = ws_system_doc_list (self->store, &error)) == NULL)
    {
      gtk_label_set_text (self->status_label, error->message);
      return;
    }
  for (guint i = 0; names[i] != NULL; i++)
    {
      GtkWidget *row = gtk_list_box_row_new ();
      GtkWidget *label = gtk_label_new (names[i]);

      gtk_label_set_xalign (GTK_LABEL (label), 0.0f);
      gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
      gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), label);
      g_object_set_data_full (G_OBJECT (row), "ws-name", g_strdup (names[i]), g_free);
      gtk_list_box_append (self->systems_list, row);
      if (g_strcmp0 (names[i], select) == 0)
        gtk_list_box_select_row (self->systems_list, GTK_LIST_BOX_ROW (row));
    }
}

static GdkContentProvider *
on_drag_prepare (GtkDragSource *source, double x, double y, const char *payload)
{
  return gdk_content_provider_new_typed (G_TYPE_STRING, payload);
}

static void
free_payload (gpointer data, GClosure *closure)
{
  g_free (data);
}

/* The palette and catalogue rows carry their payload to the canvas's drop target. */
static void
add_drag_source (GtkWidget *widget, const char *payload)
{
  GtkDragSource *source = gtk_drag_source_new ();
  char *owned = g_strdup (payload);

  gtk_drag_source_set_actions (source, GDK_ACTION_COPY);
  g_signal_connect_data (source, "prepare", G_CALLBACK (on_drag_prepare), owned, free_payload, 0);
  gtk_widget_add_controller (widget, GTK_EVENT_CONTROLLER (source));
  g_object_set_data_full (G_OBJECT (widget), "ws-payload", g_strdup (payload), g_free);
}

static void
populate_catalogue (WsSystemsPage *self)
{
  static const WsComponentKind kinds[] = { WS_COMPONENT_CPU, WS_COMPONENT_GPU, WS_COMPONENT_LINK };
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->catalogue_list))) != NULL)
    gtk_list_box_remove (self->catalogue_list, child);
  for (guint k = 0; k < G_N_ELEMENTS (kinds); k++)
    {
      g_auto (GStrv) names = catalogue_names (self, kinds[k]);

      for (guint i = 0; names[i] != NULL; i++)
        {
          GtkWidget *row = adw_action_row_new ();
          g_autofree char *payload = g_strdup_printf ("%s:%s", ws_component_kind_name (kinds[k]), names[i]);

          adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
          adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), names[i]);
          adw_action_row_set_subtitle (ADW_ACTION_ROW (row), kinds[k] == WS_COMPONENT_CPU   ? _ ("CPU")
                                                             : kinds[k] == WS_COMPONENT_GPU ? _ ("GPU")
                                                                                            : _ ("Link"));
          gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), TRUE);
          add_drag_source (row, payload);
          gtk_list_box_append (self->catalogue_list, row);
        }
    }
}

static void
on_catalogue_activated (WsSystemsPage *self, GtkListBoxRow *row, GtkListBox *list)
{
  const char *payload = g_object_get_data (G_OBJECT (row), "ws-payload");
  g_auto (GStrv) parts = payload ? g_strsplit (payload, ":", 2) : NULL;
  WsComponentKind kind;
  double x, y;

  if (parts == NULL || self->doc == NULL || !kind_from_string (parts[0], &kind))
    return;
  {
    g_autofree char *into = g_strdup (free_spot (self, kind, &x, &y));
    add_at (self, kind, parts[1], x, y, FALSE, into);
  }
}

static void
on_map (WsSystemsPage *self)
{
  /* The Hardware page may have added or renamed components meanwhile. */
  if (self->store != NULL)
    populate_catalogue (self);
}

/* ---- object ---------------------------------------------------------- */

static void
ws_systems_page_dispose (GObject *object)
{
  WsSystemsPage *self = WS_SYSTEMS_PAGE (object);

  GtkWidget *child;

  gtk_widget_dispose_template (GTK_WIDGET (self), WS_TYPE_SYSTEMS_PAGE);
  /* The template's top-level paned has no id, so dispose_template leaves it. */
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);
  g_clear_pointer (&self->doc, ws_system_doc_free);
  g_clear_pointer (&self->problems, g_ptr_array_unref);
  g_clear_object (&self->undo);
  G_OBJECT_CLASS (ws_systems_page_parent_class)->dispose (object);
}

static void
ws_systems_page_class_init (WsSystemsPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = ws_systems_page_dispose;

  g_type_ensure (WS_TYPE_SYSTEM_CANVAS);
  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/warpscope/Warpscope/ui/ws-systems-page.ui");
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_bind_template_child (widget_class, WsSystemsPage, systems_list);
  gtk_widget_class_bind_template_child (widget_class, WsSystemsPage, catalogue_list);
  gtk_widget_class_bind_template_child (widget_class, WsSystemsPage, main_stack);
  gtk_widget_class_bind_template_child (widget_class, WsSystemsPage, canvas);
  gtk_widget_class_bind_template_child (widget_class, WsSystemsPage, problems_list);
  gtk_widget_class_bind_template_child (widget_class, WsSystemsPage, status_label);
  gtk_widget_class_bind_template_child (widget_class, WsSystemsPage, panel_stack);
  gtk_widget_class_bind_template_child (widget_class, WsSystemsPage, panel_group);
  gtk_widget_class_bind_template_child (widget_class, WsSystemsPage, name_row);
  gtk_widget_class_bind_template_child (widget_class, WsSystemsPage, hw_row);
  gtk_widget_class_bind_template_child (widget_class, WsSystemsPage, count_spin);
  gtk_widget_class_bind_template_child (widget_class, WsSystemsPage, labels_row);
  gtk_widget_class_bind_template_child (widget_class, WsSystemsPage, from_row);
  gtk_widget_class_bind_template_child (widget_class, WsSystemsPage, to_row);
  gtk_widget_class_bind_template_child (widget_class, WsSystemsPage, palette_machine);
  gtk_widget_class_bind_template_child (widget_class, WsSystemsPage, palette_cpu);
  gtk_widget_class_bind_template_child (widget_class, WsSystemsPage, palette_gpu);
  gtk_widget_class_bind_template_child (widget_class, WsSystemsPage, palette_link);
  gtk_widget_class_bind_template_callback (widget_class, on_system_selected);
  gtk_widget_class_bind_template_callback (widget_class, on_catalogue_activated);
  gtk_widget_class_bind_template_callback (widget_class, on_canvas_selection_changed);
  gtk_widget_class_bind_template_callback (widget_class, on_canvas_move);
  gtk_widget_class_bind_template_callback (widget_class, on_canvas_connect);
  gtk_widget_class_bind_template_callback (widget_class, on_canvas_drop);
  gtk_widget_class_bind_template_callback (widget_class, on_canvas_delete);
  gtk_widget_class_bind_template_callback (widget_class, on_problem_activated);
  gtk_widget_class_bind_template_callback (widget_class, on_name_apply);
  gtk_widget_class_bind_template_callback (widget_class, on_labels_apply);
  gtk_widget_class_bind_template_callback (widget_class, on_count_changed);
  gtk_widget_class_bind_template_callback (widget_class, on_panel_combo_changed);

  gtk_widget_class_install_action (widget_class, "systems.new", NULL, new_action);
  gtk_widget_class_install_action (widget_class, "systems.add", "s", add_action);
  gtk_widget_class_install_action (widget_class, "systems.duplicate", NULL, duplicate_action);
  gtk_widget_class_install_action (widget_class, "systems.delete", NULL, delete_action);
  gtk_widget_class_install_action (widget_class, "systems.delete-system", NULL, delete_system_action);
  /* A system model was stored (valid design) or deleted: lists elsewhere
   * (the Simulations page) should reload. */
  signals[SIGNAL_MODELS_CHANGED] = g_signal_new ("models-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                                 NULL, NULL, NULL, G_TYPE_NONE, 0);
  gtk_widget_class_install_action (widget_class, "systems.zoom", "s", zoom_action);
}

static void
ws_systems_page_init (WsSystemsPage *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  add_drag_source (self->palette_machine, "machine");
  add_drag_source (self->palette_cpu, "cpu");
  add_drag_source (self->palette_gpu, "gpu");
  add_drag_source (self->palette_link, "link");
  g_signal_connect (self, "map", G_CALLBACK (on_map), NULL);
  refresh (self);
}

void
ws_systems_page_load (WsSystemsPage *self, WsStore *store)
{
  g_return_if_fail (WS_IS_SYSTEMS_PAGE (self));
  g_return_if_fail (store != NULL);

  self->store = store;
  populate_systems (self, NULL);
  populate_catalogue (self);
  update_actions (self);
}

void
ws_systems_page_set_undo_stack (WsSystemsPage *self, WsUndoStack *undo)
{
  g_return_if_fail (WS_IS_SYSTEMS_PAGE (self));
  g_set_object (&self->undo, undo);
}

gboolean
ws_systems_page_open (WsSystemsPage *self, const char *name)
{
  g_return_val_if_fail (WS_IS_SYSTEMS_PAGE (self), FALSE);

  for (int i = 0;; i++)
    {
      GtkListBoxRow *row = gtk_list_box_get_row_at_index (self->systems_list, i);

      if (row == NULL)
        return FALSE;
      if (g_strcmp0 (g_object_get_data (G_OBJECT (row), "ws-name"), name) == 0)
        {
          gtk_list_box_select_row (self->systems_list, row);
          return self->doc != NULL && g_str_equal (self->doc->name, name);
        }
    }
}

WsSystemCanvas *
ws_systems_page_get_canvas (WsSystemsPage *self)
{
  return self->canvas;
}
const WsSystemDoc *
ws_systems_page_get_doc (WsSystemsPage *self)
{
  return self->doc;
}
GtkListBox *
ws_systems_page_get_systems_list (WsSystemsPage *self)
{
  return self->systems_list;
}
GtkListBox *
ws_systems_page_get_catalogue_list (WsSystemsPage *self)
{
  return self->catalogue_list;
}
GtkListBox *
ws_systems_page_get_problems_list (WsSystemsPage *self)
{
  return self->problems_list;
}
AdwEntryRow *
ws_systems_page_get_name_row (WsSystemsPage *self)
{
  return self->name_row;
}
AdwComboRow *
ws_systems_page_get_hw_row (WsSystemsPage *self)
{
  return self->hw_row;
}
GtkSpinButton *
ws_systems_page_get_count_spin (WsSystemsPage *self)
{
  return self->count_spin;
}
AdwEntryRow *
ws_systems_page_get_labels_row (WsSystemsPage *self)
{
  return self->labels_row;
}
AdwComboRow *
ws_systems_page_get_from_row (WsSystemsPage *self)
{
  return self->from_row;
}
AdwComboRow *
ws_systems_page_get_to_row (WsSystemsPage *self)
{
  return self->to_row;
}
GtkLabel *
ws_systems_page_get_status_label (WsSystemsPage *self)
{
  return self->status_label;
}
