/* ws-app-editor-ops.c: the application editor's operation lists: rows with
 * their parameter fields, nested loop and if bodies, the palette, and drag
 * and drop (GtkDragSource on palette entries and row headers, a
 * GtkDropTarget on every list, as in GTK's dnd demo).  Dropped strings are
 * "new:KIND" (from the palette) or "move:PATH:INDEX" (a row). */
#define G_LOG_DOMAIN "ws-app-editor-ops"

#include <glib/gi18n.h>
#include <string.h>

#include "trace/ws-trace.h"
#include "ws-app-editor-page-private.h"

/* ---- drag and drop ---------------------------------------------------- */

static GdkContentProvider *
on_drag_prepare (GtkDragSource *source, double x, double y, const char *payload)
{
  return gdk_content_provider_new_typed (G_TYPE_STRING, payload);
}

static void
on_drag_begin (GtkDragSource *source, GdkDrag *drag, gpointer data)
{
  GtkWidget *widget = gtk_event_controller_get_widget (GTK_EVENT_CONTROLLER (source));
  g_autoptr (GdkPaintable) icon = gtk_widget_paintable_new (widget);

  gtk_drag_source_set_icon (source, icon, 0, 0);
}

static void
add_drag_source (GtkWidget *widget, const char *payload, GdkDragAction actions)
{
  GtkDragSource *source = gtk_drag_source_new ();

  gtk_drag_source_set_actions (source, actions);
  g_signal_connect_data (source, "prepare", G_CALLBACK (on_drag_prepare), g_strdup (payload),
                         (GClosureNotify) (void (*) (void)) g_free, 0);
  g_signal_connect (source, "drag-begin", G_CALLBACK (on_drag_begin), NULL);
  gtk_widget_add_controller (widget, GTK_EVENT_CONTROLLER (source));
}

GtkWidget *
ws_app_editor_build_palette_item (const char *kind)
{
  GtkWidget *item = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *handle = gtk_image_new_from_icon_name ("list-drag-handle-symbolic");
  GtkWidget *label = gtk_label_new (ws_app_op_kind_title (kind));
  g_autofree char *payload = g_strconcat ("new:", kind, NULL);
  const WsAppOpKind *info = ws_app_schema_op_kind_find (kind);
  /* Translators: tooltip of a palette entry; %s is the operation's JSON name ("h2d"). */
  g_autofree char *how = g_strdup_printf (_ ("“%s”: drag onto an operation list, or use a list’s Add menu"), kind);
  /* The schema's description of the kind first. */
  g_autofree char *tooltip = info != NULL
                               ? g_strdup_printf ("%s\n%s", ws_app_schema_text (info->context, info->help), how)
                               : g_strdup (how);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  g_object_set (handle, "margin-start", 6, NULL);
  g_object_set (label, "margin-top", 6, "margin-bottom", 6, "margin-end", 8, NULL);
  gtk_widget_add_css_class (handle, "dim-label");
  gtk_box_append (GTK_BOX (item), handle);
  gtk_box_append (GTK_BOX (item), label);
  gtk_widget_add_css_class (item, "card");
  gtk_widget_add_css_class (item, "ws-app-palette-item");
  g_object_set (item, "margin-top", 2, "margin-bottom", 2, NULL);
  gtk_widget_set_size_request (item, 130, -1);
  gtk_widget_set_tooltip_text (item, tooltip);
  gtk_widget_set_cursor_from_name (item, "grab");
  add_drag_source (item, payload, GDK_ACTION_COPY);
  return item;
}

/* Where a drop at @y lands: before the first row whose middle is below. */
static guint
drop_index (GtkWidget *list, double y)
{
  guint index = 0;

  for (GtkWidget *c = gtk_widget_get_first_child (list); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      graphene_rect_t r;

      if (!gtk_widget_has_css_class (c, "ws-app-op"))
        continue;
      if (gtk_widget_compute_bounds (c, list, &r) && y < r.origin.y + r.size.height / 2)
        return index;
      index++;
    }
  return index;
}

typedef struct {
  WsAppEditorPage *page;
  char *path;
  guint index;
  char *payload;
} DropJob;

/* The drop is carried out once the drag has ended: it rebuilds the lists,
 * including the widget the drop target belongs to. */
static gboolean
run_drop (gpointer data)
{
  DropJob *job = data;

  if (g_str_has_prefix (job->payload, "new:"))
    ws_app_editor_page_drop_operation (job->page, job->path, job->index, job->payload + 4);
  else if (g_str_has_prefix (job->payload, "move:"))
    {
      const char *colon = strrchr (job->payload, ':');
      g_autofree char *from = g_strndup (job->payload + 5, colon - (job->payload + 5));
      guint from_index = (guint) g_ascii_strtoull (colon + 1, NULL, 10);

      ws_app_editor_page_move_operation (job->page, from, from_index, job->path, job->index);
    }
  g_object_unref (job->page);
  g_free (job->path);
  g_free (job->payload);
  g_free (job);
  return G_SOURCE_REMOVE;
}

static gboolean
on_drop (GtkDropTarget *target, const GValue *value, double x, double y, WsAppEditorPage *self)
{
  GtkWidget *list = gtk_event_controller_get_widget (GTK_EVENT_CONTROLLER (target));
  const char *payload = G_VALUE_HOLDS_STRING (value) ? g_value_get_string (value) : NULL;
  DropJob *job;

  if (payload == NULL || !(g_str_has_prefix (payload, "new:") || g_str_has_prefix (payload, "move:")))
    return FALSE;
  job = g_new0 (DropJob, 1);
  job->page = g_object_ref (self);
  job->path = g_strdup (g_object_get_data (G_OBJECT (list), "ws-path"));
  job->index = drop_index (list, y);
  job->payload = g_strdup (payload);
  g_idle_add (run_drop, job);
  return TRUE;
}

/* ---- fields ----------------------------------------------------------- */

static GtkWidget *
field_box (const char *title, GtkWidget *input, GtkLabel **error_out)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  GtkWidget *label = gtk_label_new (title);
  GtkWidget *error = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_widget_add_css_class (label, "caption");
  gtk_widget_add_css_class (label, "dim-label");
  gtk_label_set_xalign (GTK_LABEL (error), 0);
  gtk_label_set_wrap (GTK_LABEL (error), TRUE);
  gtk_label_set_max_width_chars (GTK_LABEL (error), 30);
  gtk_widget_add_css_class (error, "error");
  gtk_widget_add_css_class (error, "caption");
  gtk_widget_set_visible (error, FALSE);
  gtk_box_append (GTK_BOX (box), label);
  gtk_box_append (GTK_BOX (box), input);
  gtk_box_append (GTK_BOX (box), error);
  if (error_out != NULL)
    *error_out = GTK_LABEL (error);
  return box;
}

typedef struct {
  WsAppEditorPage *page;
  char *path;
  guint index;
  GPtrArray *values; /* what each dropdown item stores, of char* */
} Choice;

static void
choice_free (Choice *c)
{
  g_free (c->path);
  g_ptr_array_unref (c->values);
  g_free (c);
}

static Choice *
choice_new (WsAppEditorPage *page, const char *path, guint index)
{
  Choice *c = g_new0 (Choice, 1);

  c->page = page;
  c->path = g_strdup (path);
  c->index = index;
  c->values = g_ptr_array_new_with_free_func (g_free);
  return c;
}

static void
on_mode_changed (GtkDropDown *dropdown, GParamSpec *pspec, Choice *c)
{
  WsAppOp *op;

  ws_app_editor_page_flush (c->page);
  op = ws_app_doc_get_op (ws_app_editor_page_get_doc_mut (c->page), c->path, c->index);
  guint mode = gtk_drop_down_get_selected (dropdown);

  if (op == NULL || mode == ws_app_op_kernel_kind (op))
    return;
  op->profiled = mode == WS_APP_KERNEL_PROFILED;
  op->on_demand = mode == WS_APP_KERNEL_PROGRAM;
  ws_app_editor_page_commit_structure (c->page, mode == WS_APP_KERNEL_PROFILED  ? _ ("Use a profiled kernel")
                                                : mode == WS_APP_KERNEL_PROGRAM ? _ ("Profile a program on demand")
                                                                                : _ ("Use an analytic kernel"));
}

/* Trace and launch choices: the item's value goes into the field named by
 * the dropdown's "ws-key". */
static void
on_choice_changed (GtkDropDown *dropdown, GParamSpec *pspec, Choice *c)
{
  const char *key = g_object_get_data (G_OBJECT (dropdown), "ws-key");
  guint selected = gtk_drop_down_get_selected (dropdown);
  WsAppOp *op;

  if (selected >= c->values->len)
    return;
  ws_app_editor_page_flush (c->page);
  op = ws_app_doc_get_op (ws_app_editor_page_get_doc_mut (c->page), c->path, c->index);
  if (op == NULL || g_strcmp0 (ws_app_op_get (op, key), c->values->pdata[selected]) == 0)
    return;
  ws_app_op_set (op, key, c->values->pdata[selected]);
  if (g_str_equal (key, "trace"))
    ws_app_op_set (op, "launch", "0");
  ws_app_editor_page_commit_structure (c->page, g_str_equal (key, "trace") ? _ ("Choose trace") : _ ("Choose launch"));
}

static GtkWidget *
trace_choice (WsAppEditorPage *self, const char *path, guint index, const WsAppOp *op)
{
  g_autofree char *dir = ws_system_store_trace_dir (ws_app_editor_page_get_store (self));
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GtkStringList) model = gtk_string_list_new (NULL);
  const char *current = ws_app_op_get (op, "trace");
  Choice *c = choice_new (self, path, index);
  GtkWidget *dropdown;
  const char *name;
  guint selected = 0;

  while (d != NULL && (name = g_dir_read_name (d)) != NULL)
    if (g_str_has_suffix (name, ".wstrace"))
      g_ptr_array_add (names, g_build_filename (dir, name, NULL));
  g_ptr_array_sort (names, ws_compare_string_ptrs);
  if (*current != '\0' && !g_ptr_array_find_with_equal_func (names, current, g_str_equal, NULL))
    g_ptr_array_insert (names, 0, g_strdup (current));
  if (*current == '\0')
    {
      gtk_string_list_append (model, _ ("Choose a trace…"));
      g_ptr_array_add (c->values, g_strdup (""));
    }
  for (guint i = 0; i < names->len; i++)
    {
      g_autofree char *base = g_path_get_basename (names->pdata[i]);

      if (g_str_equal (names->pdata[i], current))
        selected = c->values->len;
      gtk_string_list_append (model, base);
      g_ptr_array_add (c->values, g_strdup (names->pdata[i]));
    }
  dropdown = gtk_drop_down_new (G_LIST_MODEL (g_steal_pointer (&model)), NULL);
  gtk_drop_down_set_selected (GTK_DROP_DOWN (dropdown), selected);
  gtk_widget_set_tooltip_text (dropdown, *current != '\0' ? current : dir);
  g_object_set_data (G_OBJECT (dropdown), "ws-key", (gpointer) "trace");
  g_signal_connect_data (dropdown, "notify::selected", G_CALLBACK (on_choice_changed), c,
                         (GClosureNotify) (void (*) (void)) choice_free, 0);
  return dropdown;
}

/* The launches of the op's trace, or NULL when the trace cannot be read or
 * the launch is an expression rather than an index (an entry shows it). */
static GtkWidget *
launch_choice (WsAppEditorPage *self, const char *path, guint index, const WsAppOp *op)
{
  const char *launch = ws_app_op_get (op, "launch");
  g_autoptr (WsTrace) trace = NULL;
  g_autoptr (GtkStringList) model = NULL;
  char *end = NULL;
  guint64 current = *launch != '\0' ? g_ascii_strtoull (launch, &end, 10) : 0;
  Choice *c;
  GtkWidget *dropdown;

  if ((*launch != '\0' && *end != '\0') || *ws_app_op_get (op, "trace") == '\0'
      || (trace = ws_trace_open (ws_app_op_get (op, "trace"), NULL)) == NULL
      || current >= ws_trace_get_n_launches (trace))
    return NULL;
  model = gtk_string_list_new (NULL);
  c = choice_new (self, path, index);
  for (guint i = 0; i < ws_trace_get_n_launches (trace); i++)
    {
      const WsTraceLaunch *l = ws_trace_get_launch (trace, i);
      const WsTraceKernel *k = ws_trace_get_kernel (trace, l->kernel);
      /* Translators: a launch in a trace: index, kernel name, grid and block sizes. */
      g_autofree char *item = g_strdup_printf (_ ("%u: %s (grid %u×%u×%u, block %u×%u×%u)"), i, k->name, l->grid[0],
                                               l->grid[1], l->grid[2], l->block[0], l->block[1], l->block[2]);
      gtk_string_list_append (model, item);
      g_ptr_array_add (c->values, g_strdup_printf ("%u", i));
    }
  dropdown = gtk_drop_down_new (G_LIST_MODEL (g_steal_pointer (&model)), NULL);
  gtk_drop_down_set_selected (GTK_DROP_DOWN (dropdown), (guint) current);
  g_object_set_data (G_OBJECT (dropdown), "ws-key", (gpointer) "launch");
  g_signal_connect_data (dropdown, "notify::selected", G_CALLBACK (on_choice_changed), c,
                         (GClosureNotify) (void (*) (void)) choice_free, 0);
  return dropdown;
}

static const char *
placeholder_for (const WsAppField *info)
{
  switch (info->type)
    {
    case WS_APP_FIELD_LABEL: return _ ("process label");
    case WS_APP_FIELD_LABELS: return _ ("all labels");
    case WS_APP_FIELD_IDENT: return _ ("none");
    case WS_APP_FIELD_TEXT: return _ ("optional");
    case WS_APP_FIELD_PROGRAM: return _ ("/path/to/program");
    case WS_APP_FIELD_ARGS: return _ ("e.g. {N} 16");
    default: return info->required ? _ ("expression") : _ ("optional");
    }
}

static GtkWidget *
build_fields (WsAppEditorPage *self, const char *path, guint index, const WsAppOp *op)
{
  GtkWidget *flow = gtk_flow_box_new ();
  guint n;
  const WsAppField *fields = ws_app_op_fields (op, &n);

  gtk_flow_box_set_selection_mode (GTK_FLOW_BOX (flow), GTK_SELECTION_NONE);
  gtk_flow_box_set_homogeneous (GTK_FLOW_BOX (flow), TRUE);
  gtk_flow_box_set_min_children_per_line (GTK_FLOW_BOX (flow), 1);
  gtk_flow_box_set_max_children_per_line (GTK_FLOW_BOX (flow), 4);
  gtk_flow_box_set_column_spacing (GTK_FLOW_BOX (flow), 12);
  gtk_flow_box_set_row_spacing (GTK_FLOW_BOX (flow), 4);
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *key = g_strdup_printf ("%s/%u:%s", path, index, fields[i].key);
      const char *label = ws_app_field_text (&fields[i], fields[i].label);
      const char *unit = ws_app_field_text (&fields[i], fields[i].unit);
      g_autofree char *title = fields[i].required ? g_strdup_printf ("%s *", label) : g_strdup (label);
      /* The JSON key first (what the record and error messages call it),
       * then the unit and the schema's help. */
      g_autofree char *tooltip = *unit != '\0' ? g_strdup_printf ("%s [%s]: %s", fields[i].key, unit,
                                                                  ws_app_field_text (&fields[i], fields[i].help))
                                               : g_strdup_printf ("%s: %s", fields[i].key,
                                                                  ws_app_field_text (&fields[i], fields[i].help));
      GtkWidget *input = NULL;
      GtkLabel *error = NULL;

      if (fields[i].type == WS_APP_FIELD_TRACE)
        input = trace_choice (self, path, index, op);
      else if (op->profiled && g_str_equal (fields[i].key, "launch"))
        input = launch_choice (self, path, index, op);
      if (input == NULL)
        {
          input = gtk_entry_new ();
          gtk_editable_set_text (GTK_EDITABLE (input), ws_app_op_get (op, fields[i].key));
          gtk_entry_set_placeholder_text (GTK_ENTRY (input), placeholder_for (&fields[i]));
          gtk_editable_set_width_chars (GTK_EDITABLE (input), 12);
        }
      gtk_widget_set_tooltip_text (input, tooltip);
      gtk_flow_box_append (GTK_FLOW_BOX (flow), field_box (title, input, &error));
      ws_app_editor_page_register (self, key, input, error, WS_APP_EDIT_OP_FIELD, path, index, fields[i].key);
    }
  return flow;
}

/* ---- rows ------------------------------------------------------------- */

static GtkWidget *
row_button (const char *icon, const char *tooltip, const char *what, const char *path, guint index)
{
  GtkWidget *b = gtk_button_new_from_icon_name (icon);
  g_autofree char *target = g_strdup_printf ("%s %s %u", what, path, index);

  gtk_widget_set_tooltip_text (b, tooltip);
  gtk_widget_add_css_class (b, "flat");
  gtk_actionable_set_action_name (GTK_ACTIONABLE (b), "appeditor.row");
  gtk_actionable_set_action_target (GTK_ACTIONABLE (b), "s", target);
  return b;
}

static GtkWidget *
body_section (WsAppEditorPage *self, const char *title, const char *child_path, GPtrArray *ops, int depth)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);
  GtkWidget *label = gtk_label_new (title);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_widget_add_css_class (label, "caption-heading");
  gtk_box_append (GTK_BOX (box), label);
  gtk_box_append (GTK_BOX (box), ws_app_editor_build_list (self, child_path, ops, depth + 1));
  gtk_widget_set_margin_start (box, 18);
  return box;
}

static GtkWidget *
build_op_row (WsAppEditorPage *self, const char *path, guint index, WsAppOp *op, int depth)
{
  GtkWidget *row = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  GtkWidget *header = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *handle = gtk_image_new_from_icon_name ("list-drag-handle-symbolic");
  g_autofree char *number = g_strdup_printf ("%u", index + 1);
  GtkWidget *num = gtk_label_new (number);
  GtkWidget *title = gtk_label_new (ws_app_op_kind_title (op->kind));
  GtkWidget *kind = gtk_label_new (op->kind);
  GtkWidget *spacer = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0);
  g_autofree char *payload = g_strdup_printf ("move:%s:%u", path, index);
  g_autofree char *whole_key = g_strdup_printf ("%s/%u:", path, index);
  GtkWidget *whole_error = gtk_label_new (NULL);

  gtk_widget_add_css_class (row, "ws-app-op");
  gtk_widget_add_css_class (row, "card");
  g_object_set (row, "margin-top", 2, "margin-bottom", 2, NULL);
  g_object_set (header, "margin-start", 8, "margin-end", 4, "margin-top", 4, NULL);
  gtk_widget_set_tooltip_text (header, _ ("Drag to reorder, or into and out of a loop or if"));
  gtk_widget_set_cursor_from_name (header, "grab");
  gtk_widget_add_css_class (num, "dim-label");
  gtk_widget_add_css_class (num, "numeric");
  gtk_widget_add_css_class (title, "heading");
  gtk_widget_add_css_class (kind, "dim-label");
  gtk_widget_add_css_class (kind, "caption");
  gtk_widget_set_hexpand (spacer, TRUE);
  gtk_box_append (GTK_BOX (header), handle);
  gtk_box_append (GTK_BOX (header), num);
  gtk_box_append (GTK_BOX (header), title);
  gtk_box_append (GTK_BOX (header), kind);
  if (g_str_equal (op->kind, "kernel"))
    {
      guint n_kinds;
      const WsAppKernelKindInfo *kinds = ws_app_schema_kernel_kinds (&n_kinds);
      g_autoptr (GtkStringList) labels = gtk_string_list_new (NULL);
      g_autoptr (GString) tooltip = g_string_new (NULL);
      GtkWidget *mode;
      g_autofree char *mode_key = g_strdup_printf ("%s/%u:mode", path, index);

      /* One choice per kernel kind of the schema, in its order (the
       * dropdown's position is the WsAppKernelKind). */
      for (guint k = 0; k < n_kinds; k++)
        {
          const char *label = ws_app_schema_text (kinds[k].context, kinds[k].label);

          gtk_string_list_append (labels, label);
          g_string_append_printf (tooltip, "%s%s: %s", k > 0 ? "\n" : "", label,
                                  ws_app_schema_text (kinds[k].context, kinds[k].help));
        }
      mode = gtk_drop_down_new (G_LIST_MODEL (g_steal_pointer (&labels)), NULL);
      gtk_drop_down_set_selected (GTK_DROP_DOWN (mode), ws_app_op_kernel_kind (op));
      gtk_widget_set_tooltip_text (mode, tooltip->str);
      g_signal_connect_data (mode, "notify::selected", G_CALLBACK (on_mode_changed), choice_new (self, path, index),
                             (GClosureNotify) (void (*) (void)) choice_free, 0);
      gtk_box_append (GTK_BOX (header), mode);
      ws_app_editor_page_register (self, mode_key, mode, NULL, WS_APP_EDIT_NONE, path, index, NULL);
    }
  gtk_box_append (GTK_BOX (header), spacer);
  gtk_box_append (GTK_BOX (header), row_button ("go-up-symbolic", _ ("Move up"), "op-up", path, index));
  gtk_box_append (GTK_BOX (header), row_button ("go-down-symbolic", _ ("Move down"), "op-down", path, index));
  gtk_box_append (GTK_BOX (header),
                  row_button ("user-trash-symbolic", _ ("Remove operation"), "op-remove", path, index));
  add_drag_source (header, payload, GDK_ACTION_MOVE);
  gtk_box_append (GTK_BOX (row), header);

  {
    GtkWidget *fields = build_fields (self, path, index, op);
    g_object_set (fields, "margin-start", 8, "margin-end", 8, NULL);
    gtk_box_append (GTK_BOX (row), fields);
  }
  gtk_label_set_xalign (GTK_LABEL (whole_error), 0);
  gtk_widget_add_css_class (whole_error, "error");
  gtk_widget_add_css_class (whole_error, "caption");
  gtk_widget_set_margin_start (whole_error, 8);
  gtk_widget_set_visible (whole_error, FALSE);
  gtk_box_append (GTK_BOX (row), whole_error);
  ws_app_editor_page_register (self, whole_key, row, GTK_LABEL (whole_error), WS_APP_EDIT_OP_FIELD, path, index, NULL);

  if (op->body != NULL)
    {
      g_autofree char *child = ws_app_doc_child_path (path, index, FALSE);
      gtk_box_append (GTK_BOX (row), body_section (self, g_str_equal (op->kind, "loop") ? _ ("Body") : _ ("Then"),
                                                   child, op->body, depth));
    }
  if (op->else_body != NULL)
    {
      g_autofree char *child = ws_app_doc_child_path (path, index, TRUE);
      gtk_box_append (GTK_BOX (row), body_section (self, _ ("Else"), child, op->else_body, depth));
    }
  gtk_widget_set_margin_bottom (gtk_widget_get_last_child (row), 8);
  return row;
}

static GtkWidget *
add_menu_button (const char *path)
{
  GtkWidget *button = gtk_menu_button_new ();
  g_autoptr (GMenu) menu = g_menu_new ();

  const char *const *kinds = ws_app_schema_op_names ();

  for (guint i = 0; kinds[i] != NULL; i++)
    {
      g_autofree char *target = g_strdup_printf ("%s %s", path, kinds[i]);
      g_autoptr (GMenuItem) item = g_menu_item_new (ws_app_op_kind_title (kinds[i]), NULL);

      g_menu_item_set_action_and_target_value (item, "appeditor.add-op", g_variant_new_string (target));
      g_menu_append_item (menu, item);
    }
  gtk_menu_button_set_menu_model (GTK_MENU_BUTTON (button), G_MENU_MODEL (menu));
  gtk_menu_button_set_label (GTK_MENU_BUTTON (button), _ ("Add operation"));
  gtk_widget_set_tooltip_text (button, _ ("Add an operation at the end of this list"));
  gtk_widget_set_halign (button, GTK_ALIGN_START);
  gtk_widget_add_css_class (button, "flat");
  return button;
}

GtkWidget *
ws_app_editor_build_list (WsAppEditorPage *self, const char *path, GPtrArray *ops, int depth)
{
  GtkWidget *list = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);
  GtkDropTarget *target = gtk_drop_target_new (G_TYPE_STRING, GDK_ACTION_COPY | GDK_ACTION_MOVE);

  gtk_widget_add_css_class (list, "ws-app-op-list");
  g_object_set_data_full (G_OBJECT (list), "ws-path", g_strdup (path), g_free);
  for (guint i = 0; i < ops->len; i++)
    gtk_box_append (GTK_BOX (list), build_op_row (self, path, i, ops->pdata[i], depth));
  if (ops->len == 0)
    {
      GtkWidget *hint = gtk_label_new (_ ("Drop operations here"));
      gtk_widget_add_css_class (hint, "dim-label");
      gtk_label_set_xalign (GTK_LABEL (hint), 0);
      gtk_widget_set_margin_top (hint, 6);
      gtk_box_append (GTK_BOX (list), hint);
    }
  gtk_box_append (GTK_BOX (list), add_menu_button (path));
  g_signal_connect (target, "drop", G_CALLBACK (on_drop), self);
  gtk_widget_add_controller (list, GTK_EVENT_CONTROLLER (target));
  ws_app_editor_page_register (self, path, list, NULL, WS_APP_EDIT_NONE, path, 0, NULL);
  return list;
}
