/* ws-system-doc.c: the system designer's document, its checks and storage. */
#define G_LOG_DOMAIN "ws-system-doc"

#include <glib/gi18n.h>
#include <string.h>

#include "base/ws-json.h"
#include "ws-system-doc.h"
#include "ws-gui-drafts.h"

static void
node_free (WsDesignNode *node)
{
  g_free (node->name);
  g_free (node->hw);
  g_free (node->labels);
  g_free (node->from);
  g_free (node->to);
  g_free (node->parent);
  g_free (node);
}

static WsDesignNode *
node_copy (const WsDesignNode *node)
{
  WsDesignNode *copy = g_memdup2 (node, sizeof *node);

  copy->name = g_strdup (node->name);
  copy->hw = g_strdup (node->hw);
  copy->labels = g_strdup (node->labels);
  copy->from = g_strdup (node->from);
  copy->to = g_strdup (node->to);
  copy->parent = g_strdup (node->parent);
  return copy;
}

WsSystemDoc *
ws_system_doc_new (const char *name)
{
  WsSystemDoc *doc = g_new0 (WsSystemDoc, 1);

  doc->name = g_strdup (name);
  doc->nodes = g_ptr_array_new_with_free_func ((GDestroyNotify) node_free);
  return doc;
}

void
ws_system_doc_free (WsSystemDoc *doc)
{
  if (doc == NULL)
    return;
  g_free (doc->name);
  g_free (doc->description);
  g_ptr_array_unref (doc->nodes);
  g_free (doc);
}

WsSystemDoc *
ws_system_doc_copy (const WsSystemDoc *doc)
{
  WsSystemDoc *copy = ws_system_doc_new (doc->name);

  copy->description = g_strdup (doc->description);
  for (guint i = 0; i < doc->nodes->len; i++)
    g_ptr_array_add (copy->nodes, node_copy (doc->nodes->pdata[i]));
  return copy;
}

static gboolean
kind_from_name (const char *name, WsComponentKind *kind)
{
  for (int k = WS_COMPONENT_MACHINE; k <= WS_COMPONENT_LINK; k++)
    if (g_strcmp0 (name, ws_component_kind_name (k)) == 0)
      {
        *kind = k;
        return TRUE;
      }
  return FALSE;
}

/* {"kind":"system-design","name":…,"description":…,"nodes":[{"type","name","hw","count","labels","from","to","parent","x","y"}]} */
char *
ws_system_doc_to_text (const WsSystemDoc *doc)
{
  g_autoptr (JsonBuilder) b = json_builder_new ();
  g_autoptr (JsonNode) root = NULL;

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "kind");
  json_builder_add_string_value (b, "system-design");
  json_builder_set_member_name (b, "name");
  json_builder_add_string_value (b, doc->name);
  if (doc->description != NULL)
    {
      json_builder_set_member_name (b, "description");
      json_builder_add_string_value (b, doc->description);
    }
  json_builder_set_member_name (b, "nodes");
  json_builder_begin_array (b);
  for (guint i = 0; i < doc->nodes->len; i++)
    {
      const WsDesignNode *n = doc->nodes->pdata[i];
      const char *strings[][2] = {
        { "type", ws_component_kind_name (n->kind) },
        { "name", n->name },
        { "hw", n->hw },
        { "labels", n->labels },
        { "from", n->from },
        { "to", n->to },
        { "parent", n->parent },
      };

      json_builder_begin_object (b);
      for (guint s = 0; s < G_N_ELEMENTS (strings); s++)
        if (strings[s][1] != NULL)
          {
            json_builder_set_member_name (b, strings[s][0]);
            json_builder_add_string_value (b, strings[s][1]);
          }
      json_builder_set_member_name (b, "count");
      json_builder_add_int_value (b, n->count);
      json_builder_set_member_name (b, "x");
      json_builder_add_double_value (b, n->x);
      json_builder_set_member_name (b, "y");
      json_builder_add_double_value (b, n->y);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_end_object (b);
  root = json_builder_get_root (b);
  return json_to_string (root, FALSE);
}

static char *
dup_member (JsonObject *o, const char *name)
{
  const char *s = json_object_get_string_member_with_default (o, name, NULL);
  return s != NULL ? g_strdup (s) : NULL;
}

WsSystemDoc *
ws_system_doc_from_text (const char *text, GError **error)
{
  g_autoptr (JsonNode) root = ws_json_from_text (text, error);
  g_autoptr (WsSystemDoc) doc = NULL;
  JsonObject *o;
  JsonArray *nodes;

  if (root == NULL)
    return NULL;
  if (!JSON_NODE_HOLDS_OBJECT (root) || (o = json_node_get_object (root)) == NULL
      || !json_object_has_member (o, "nodes") || !JSON_NODE_HOLDS_ARRAY (json_object_get_member (o, "nodes")))
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID, "a system design needs a \"nodes\" array");
      return NULL;
    }
  doc = ws_system_doc_new (json_object_get_string_member_with_default (o, "name", ""));
  doc->description = dup_member (o, "description");
  nodes = json_object_get_array_member (o, "nodes");
  for (guint i = 0; i < json_array_get_length (nodes); i++)
    {
      JsonObject *no = json_array_get_object_element (nodes, i);
      WsDesignNode *n = g_new0 (WsDesignNode, 1);

      if (no == NULL || !kind_from_name (json_object_get_string_member_with_default (no, "type", ""), &n->kind))
        {
          g_free (n);
          g_set_error (error, WS_ERROR, WS_ERROR_INVALID, "system design '%s': node %u has no valid \"type\"",
                       doc->name, i + 1);
          return NULL;
        }
      n->name = dup_member (no, "name");
      n->hw = dup_member (no, "hw");
      n->labels = dup_member (no, "labels");
      n->from = dup_member (no, "from");
      n->to = dup_member (no, "to");
      n->parent = dup_member (no, "parent");
      n->count = json_object_get_int_member_with_default (no, "count", 1);
      n->x = json_object_get_double_member_with_default (no, "x", 0);
      n->y = json_object_get_double_member_with_default (no, "y", 0);
      g_ptr_array_add (doc->nodes, n);
    }
  return g_steal_pointer (&doc);
}

static char *
labels_text (const WsComponent *c)
{
  GString *s = g_string_new (NULL);

  for (guint i = 0; i < c->labels->len; i++)
    {
      const WsSystemLabel *l = c->labels->pdata[i];
      g_string_append_printf (s, "%s%s:%d", i ? ", " : "", l->name, l->multiplicity);
    }
  return g_string_free (s, FALSE);
}

static void
add_from_component (WsSystemDoc *doc, const WsComponent *c, const char *parent, double x, double y)
{
  WsDesignNode *n = ws_system_doc_add (doc, c->kind, c->name, c->hw, parent, x, y);
  guint column = 0;

  n->count = c->count;
  g_clear_pointer (&n->labels, g_free);
  n->labels = labels_text (c);
  n->from = g_strdup (c->from);
  n->to = g_strdup (c->to);
  for (guint i = 0; i < c->children->len; i++)
    {
      const WsComponent *child = c->children->pdata[i];
      /* Boxes in a row inside the machine; links are drawn between their ends. */
      if (child->kind == WS_COMPONENT_LINK)
        add_from_component (doc, child, c->name, 20, WS_NODE_HEIGHT + 70);
      else
        add_from_component (doc, child, c->name, 20 + (WS_NODE_WIDTH + 100) * column++, 40);
    }
}

WsSystemDoc *
ws_system_doc_from_model (const WsSystemModel *model)
{
  WsSystemDoc *doc = ws_system_doc_new (model->name);
  double x = 40;

  doc->description = g_strdup (model->description);
  for (guint i = 0; i < model->components->len; i++)
    {
      const WsComponent *c = model->components->pdata[i];
      double w, h, bx, by;

      add_from_component (doc, c, NULL, x, 40);
      ws_system_doc_node_bounds (doc, ws_system_doc_find (doc, c->name), &bx, &by, &w, &h);
      x += w + 60;
    }
  return doc;
}

static void
parse_labels (WsComponent *c, const char *text)
{
  g_auto (GStrv) parts = g_strsplit (text ? text : "", ",", -1);

  for (guint i = 0; parts[i] != NULL; i++)
    {
      g_autofree char *part = g_strstrip (g_strdup (parts[i]));
      char *colon = strchr (part, ':');
      int multiplicity = 1;

      if (*part == '\0')
        continue;
      if (colon != NULL)
        {
          *colon = '\0';
          multiplicity = (int) g_ascii_strtoll (colon + 1, NULL, 10);
          g_strstrip (part);
        }
      ws_component_add_label (c, part, multiplicity);
    }
}

WsSystemModel *
ws_system_doc_to_model (const WsSystemDoc *doc)
{
  WsSystemModel *model = ws_system_model_new (doc->name);

  model->description = g_strdup (doc->description);
  g_autofree gboolean *added = g_new0 (gboolean, doc->nodes->len + 1);
  gboolean progress = TRUE;

  /* A node moved into a machine may come before it in the list: add each
   * node once its parent is in the model. */
  while (progress)
    {
      progress = FALSE;
      for (guint i = 0; i < doc->nodes->len; i++)
        {
          const WsDesignNode *n = doc->nodes->pdata[i];
          WsComponent *parent = n->parent ? ws_system_model_find (model, n->parent) : NULL;
          WsComponent *c;

          if (added[i] || (n->parent != NULL && ws_system_doc_find (doc, n->parent) != NULL && parent == NULL))
            continue;
          c = ws_system_model_add (model, parent, n->kind, n->name, n->hw, n->count);
          parse_labels (c, n->labels);
          if (n->kind == WS_COMPONENT_LINK)
            ws_component_set_endpoints (c, n->from, n->to);
          added[i] = progress = TRUE;
        }
    }
  return model;
}

WsDesignNode *
ws_system_doc_find (const WsSystemDoc *doc, const char *name)
{
  for (guint i = 0; name != NULL && i < doc->nodes->len; i++)
    {
      WsDesignNode *n = doc->nodes->pdata[i];
      if (g_strcmp0 (n->name, name) == 0)
        return n;
    }
  return NULL;
}

char *
ws_system_doc_unique_name (const WsSystemDoc *doc, const char *base)
{
  char *name = g_strdup (base);

  for (int i = 2; ws_system_doc_find (doc, name) != NULL; i++)
    {
      g_free (name);
      name = g_strdup_printf ("%s%d", base, i);
    }
  return name;
}

WsDesignNode *
ws_system_doc_add (WsSystemDoc *doc, WsComponentKind kind, const char *name, const char *hw, const char *parent,
                   double x, double y)
{
  WsDesignNode *n = g_new0 (WsDesignNode, 1);

  n->kind = kind;
  n->name = g_strdup (name);
  n->hw = kind == WS_COMPONENT_MACHINE ? NULL : g_strdup (hw);
  n->count = 1;
  /* Seed 004 Fig. 5.3: a CPU and a GPU each carry the label of the processes they run. */
  n->labels = g_strdup (kind == WS_COMPONENT_CPU ? "CPU:1" : kind == WS_COMPONENT_GPU ? "GPU:1" : "");
  n->parent = g_strdup (parent);
  n->x = x;
  n->y = y;
  g_ptr_array_add (doc->nodes, n);
  return n;
}

gboolean
ws_system_doc_is_within (const WsSystemDoc *doc, const char *name, const char *ancestor)
{
  const WsDesignNode *n = ws_system_doc_find (doc, name);

  while (n != NULL)
    {
      if (g_strcmp0 (n->name, ancestor) == 0)
        return TRUE;
      n = ws_system_doc_find (doc, n->parent);
    }
  return FALSE;
}

void
ws_system_doc_remove (WsSystemDoc *doc, const char *name)
{
  g_autofree char *victim = g_strdup (name);

  for (guint i = doc->nodes->len; i-- > 0;)
    {
      WsDesignNode *n = doc->nodes->pdata[i];
      if (ws_system_doc_is_within (doc, n->name, victim) && g_strcmp0 (n->name, victim) != 0)
        g_ptr_array_remove_index (doc->nodes, i);
    }
  for (guint i = 0; i < doc->nodes->len; i++)
    if (g_strcmp0 (((WsDesignNode *) doc->nodes->pdata[i])->name, victim) == 0)
      {
        g_ptr_array_remove_index (doc->nodes, i);
        break;
      }
}

static void
replace_str (char **field, const char *old_name, const char *new_name)
{
  if (g_strcmp0 (*field, old_name) == 0)
    {
      g_free (*field);
      *field = g_strdup (new_name);
    }
}

void
ws_system_doc_rename (WsSystemDoc *doc, const char *old_name, const char *new_name)
{
  g_autofree char *old_copy = g_strdup (old_name);

  for (guint i = 0; i < doc->nodes->len; i++)
    {
      WsDesignNode *n = doc->nodes->pdata[i];
      replace_str (&n->name, old_copy, new_name);
      replace_str (&n->from, old_copy, new_name);
      replace_str (&n->to, old_copy, new_name);
      replace_str (&n->parent, old_copy, new_name);
    }
}

/* ---- geometry -------------------------------------------------------- */

void
ws_system_doc_node_origin (const WsSystemDoc *doc, const WsDesignNode *node, double *x, double *y)
{
  *x = 0;
  *y = 0;
  for (const WsDesignNode *n = node; n != NULL; n = ws_system_doc_find (doc, n->parent))
    {
      *x += n->x;
      *y += n->y;
    }
}

static gboolean
link_connected (const WsSystemDoc *doc, const WsDesignNode *link)
{
  return ws_system_doc_find (doc, link->from) != NULL && ws_system_doc_find (doc, link->to) != NULL
         && g_strcmp0 (link->from, link->to) != 0;
}

static void
center_of (const WsSystemDoc *doc, const WsDesignNode *n, double *cx, double *cy)
{
  double x, y, w, h;

  ws_system_doc_node_bounds (doc, n, &x, &y, &w, &h);
  *cx = x + w / 2;
  *cy = y + h / 2;
}

void
ws_system_doc_node_bounds (const WsSystemDoc *doc, const WsDesignNode *node, double *x, double *y, double *w, double *h)
{
  ws_system_doc_node_origin (doc, node, x, y);
  switch (node->kind)
    {
    case WS_COMPONENT_MACHINE:
      {
        /* A machine grows to hold what is inside it. */
        double right = 2 * WS_NODE_WIDTH, bottom = 2 * WS_NODE_HEIGHT + 40;

        for (guint i = 0; i < doc->nodes->len; i++)
          {
            const WsDesignNode *c = doc->nodes->pdata[i];
            double cx, cy, cw, ch;

            if (g_strcmp0 (c->parent, node->name) != 0)
              continue;
            if (c->kind == WS_COMPONENT_LINK && link_connected (doc, c))
              continue;
            ws_system_doc_node_bounds (doc, c, &cx, &cy, &cw, &ch);
            right = MAX (right, cx - *x + cw + 20);
            bottom = MAX (bottom, cy - *y + ch + 20);
          }
        *w = right;
        *h = bottom;
        break;
      }
    case WS_COMPONENT_LINK:
      if (link_connected (doc, node))
        {
          double ax, ay, bx, by;

          /* A connected link is drawn as a tag halfway between its ends. */
          center_of (doc, ws_system_doc_find (doc, node->from), &ax, &ay);
          center_of (doc, ws_system_doc_find (doc, node->to), &bx, &by);
          /* Below the line between the ends, so the tag never covers a box. */
          *x = (ax + bx) / 2 - WS_LINK_WIDTH / 2;
          *y = MAX (ay, by) + WS_NODE_HEIGHT / 2 + 16;
        }
      *w = WS_LINK_WIDTH;
      *h = WS_LINK_HEIGHT;
      break;
    default: *w = WS_NODE_WIDTH; *h = WS_NODE_HEIGHT;
    }
}

static int
depth_of (const WsSystemDoc *doc, const WsDesignNode *n)
{
  int depth = 0;

  while ((n = ws_system_doc_find (doc, n->parent)) != NULL)
    depth++;
  return depth;
}

static gboolean
inside (const WsSystemDoc *doc, const WsDesignNode *n, double px, double py)
{
  double x, y, w, h;

  ws_system_doc_node_bounds (doc, n, &x, &y, &w, &h);
  return px >= x && px <= x + w && py >= y && py <= y + h;
}

WsDesignNode *
ws_system_doc_hit (const WsSystemDoc *doc, double x, double y)
{
  WsDesignNode *best = NULL;
  int best_rank = -1;

  for (guint i = 0; i < doc->nodes->len; i++)
    {
      WsDesignNode *n = doc->nodes->pdata[i];
      /* Links lie on top, then components, then machines, deepest first. */
      int rank = (n->kind == WS_COMPONENT_LINK ? 2000 : n->kind == WS_COMPONENT_MACHINE ? 0 : 1000) + depth_of (doc, n);

      if (rank > best_rank && inside (doc, n, x, y))
        {
          best = n;
          best_rank = rank;
        }
    }
  return best;
}

WsDesignNode *
ws_system_doc_machine_at (const WsSystemDoc *doc, double x, double y, const char *except)
{
  WsDesignNode *best = NULL;
  int best_depth = -1;

  for (guint i = 0; i < doc->nodes->len; i++)
    {
      WsDesignNode *n = doc->nodes->pdata[i];
      int depth;

      if (n->kind != WS_COMPONENT_MACHINE || (except != NULL && ws_system_doc_is_within (doc, n->name, except)))
        continue;
      depth = depth_of (doc, n);
      if (depth > best_depth && inside (doc, n, x, y))
        {
          best = n;
          best_depth = depth;
        }
    }
  return best;
}

/* ---- checks ---------------------------------------------------------- */

void
ws_design_problem_free (WsDesignProblem *problem)
{
  g_free (problem->node);
  g_free (problem->message);
  g_free (problem);
}

static void
add_problem (GPtrArray *problems, const char *node, char *message)
{
  WsDesignProblem *p = g_new0 (WsDesignProblem, 1);

  p->node = g_strdup (node);
  p->message = message;
  g_ptr_array_add (problems, p);
}

GPtrArray *
ws_system_doc_problems (const WsSystemDoc *doc)
{
  GPtrArray *problems = g_ptr_array_new_with_free_func ((GDestroyNotify) ws_design_problem_free);

  for (guint i = 0; i < doc->nodes->len; i++)
    {
      const WsDesignNode *n = doc->nodes->pdata[i];

      if (n->kind == WS_COMPONENT_LINK && !link_connected (doc, n))
        add_problem (problems, n->name,
                     /* Translators: %s is a link's name. */
                     g_strdup_printf (_ ("Link “%s” is dangling: it must join two components. Drag from one "
                                         "component’s handle to another, or choose From and To in the side panel."),
                                      n->name));
      if (n->kind == WS_COMPONENT_GPU)
        {
          gboolean hosted = FALSE;

          for (guint j = 0; j < doc->nodes->len && !hosted; j++)
            {
              const WsDesignNode *l = doc->nodes->pdata[j];
              const WsDesignNode *other = NULL;

              if (l->kind != WS_COMPONENT_LINK)
                continue;
              if (g_strcmp0 (l->from, n->name) == 0)
                other = ws_system_doc_find (doc, l->to);
              else if (g_strcmp0 (l->to, n->name) == 0)
                other = ws_system_doc_find (doc, l->from);
              hosted = other != NULL && other->kind == WS_COMPONENT_CPU;
            }
          if (!hosted)
            add_problem (
              problems, n->name,
              /* Translators: %s is a GPU's name. */
              g_strdup_printf (_ ("GPU “%s” has no host link: connect a CPU in the same machine to it."), n->name));
        }
      if (n->kind != WS_COMPONENT_MACHINE && (n->hw == NULL || *n->hw == '\0'))
        add_problem (problems, n->name,
                     g_strdup_printf (_ ("“%s” names no catalogue component: choose one in the side panel."), n->name));
    }
  return problems;
}

/* ---- store ----------------------------------------------------------- */

gboolean
ws_system_doc_save (WsStore *store, const WsSystemDoc *doc, gboolean *model_stored, GError **error)
{
  g_autofree char *text = ws_system_doc_to_text (doc);
  g_autoptr (WsSystemModel) model = NULL;
  g_autoptr (GPtrArray) problems = NULL;

  if (model_stored != NULL)
    *model_stored = FALSE;
  if (!ws_gui_drafts_put (store, WS_GUI_DRAFTS_SYSTEMS, doc->name, text, error))
    return FALSE;

  /* The system model proper is stored whenever it is valid; an invalid
   * draft leaves the last valid model in place. */
  model = ws_system_doc_to_model (doc);
  problems = ws_system_doc_problems (doc);
  /* The designer's checks first: the model's validation expects both ends
   * of every link to be named. */
  if (doc->nodes->len > 0 && problems->len == 0 && ws_system_model_validate (model, store, NULL))
    {
      if (!ws_system_store_put_system (store, model, TRUE, error))
        return FALSE;
      if (model_stored != NULL)
        *model_stored = TRUE;
    }
  return TRUE;
}

WsSystemDoc *
ws_system_doc_load (WsStore *store, const char *name, GError **error)
{
  g_autoptr (GError) local = NULL;
  g_autofree char *text = ws_gui_drafts_get (store, WS_GUI_DRAFTS_SYSTEMS, name, &local);
  g_autoptr (WsSystemModel) model = NULL;

  if (local != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&local));
      return NULL;
    }
  if (text != NULL)
    return ws_system_doc_from_text (text, error);

  model = ws_system_store_get_system (store, name, error);
  return model ? ws_system_doc_from_model (model) : NULL;
}

char **
ws_system_doc_list (WsStore *store, GError **error)
{
  g_auto (GStrv) systems = ws_system_store_list_systems (store, error);

  if (systems == NULL)
    return NULL;
  return ws_gui_drafts_merge_names (store, WS_GUI_DRAFTS_SYSTEMS, (const char *const *) systems, error);
}
