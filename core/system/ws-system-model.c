/* ws-system-model.c: system models (seed 004 §5.4, Fig. 5.3): the component
 * tree, its JSON form and its validation. */
#include <string.h>
#include "system/ws-system.h"
#include "system/ws-system-private.h"

static const char *const kind_names[] = { "machine", "cpu", "gpu", "link" };

const char *
ws_component_kind_name (WsComponentKind kind)
{
  return kind <= WS_COMPONENT_LINK ? kind_names[kind] : "?";
}

static void
label_free (gpointer p)
{
  WsSystemLabel *l = p;
  g_free (l->name);
  g_free (l);
}

static void
component_free (gpointer p)
{
  WsComponent *c = p;
  g_free (c->name);
  g_free (c->hw);
  g_free (c->from);
  g_free (c->to);
  g_ptr_array_unref (c->labels);
  g_ptr_array_unref (c->children);
  g_free (c);
}

WsSystemModel *
ws_system_model_new (const char *name)
{
  WsSystemModel *s = g_new0 (WsSystemModel, 1);
  s->name = g_strdup (name);
  s->components = g_ptr_array_new_with_free_func (component_free);
  return s;
}

void
ws_system_model_free (WsSystemModel *system)
{
  if (system == NULL)
    return;
  g_free (system->name);
  g_free (system->description);
  g_ptr_array_unref (system->components);
  g_free (system);
}

WsComponent *
ws_system_model_add (WsSystemModel *system, WsComponent *parent, WsComponentKind kind, const char *name, const char *hw,
                     int count)
{
  g_return_val_if_fail (system != NULL && name != NULL, NULL);
  WsComponent *c = g_new0 (WsComponent, 1);
  c->kind = kind;
  c->name = g_strdup (name);
  c->hw = g_strdup (hw);
  c->count = count;
  c->labels = g_ptr_array_new_with_free_func (label_free);
  c->children = g_ptr_array_new_with_free_func (component_free);
  c->parent = parent;
  g_ptr_array_add (parent != NULL ? parent->children : system->components, c);
  return c;
}

void
ws_component_add_label (WsComponent *component, const char *label, int multiplicity)
{
  WsSystemLabel *l = g_new0 (WsSystemLabel, 1);
  l->name = g_strdup (label);
  l->multiplicity = multiplicity;
  g_ptr_array_add (component->labels, l);
}

void
ws_component_set_endpoints (WsComponent *link, const char *from, const char *to)
{
  g_free (link->from);
  g_free (link->to);
  link->from = g_strdup (from);
  link->to = g_strdup (to);
}

static WsComponent *
find_in (GPtrArray *list, const char *name)
{
  for (guint i = 0; i < list->len; i++)
    {
      WsComponent *c = list->pdata[i];
      if (g_strcmp0 (c->name, name) == 0)
        return c;
      WsComponent *found = find_in (c->children, name);
      if (found != NULL)
        return found;
    }
  return NULL;
}

WsComponent *
ws_system_model_find (const WsSystemModel *system, const char *name)
{
  return find_in (system->components, name);
}

void
ws_system_model_walk (GPtrArray *list, void (*fn) (WsComponent *c, gpointer data), gpointer data)
{
  for (guint i = 0; i < list->len; i++)
    {
      WsComponent *c = list->pdata[i];
      fn (c, data);
      ws_system_model_walk (c->children, fn, data);
    }
}

/* ---- JSON -------------------------------------------------------------- */

static JsonNode *
component_to_json (const WsComponent *c)
{
  g_autoptr (JsonBuilder) b = json_builder_new ();
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "type");
  json_builder_add_string_value (b, ws_component_kind_name (c->kind));
  json_builder_set_member_name (b, "name");
  json_builder_add_string_value (b, c->name);
  if (c->hw != NULL)
    {
      json_builder_set_member_name (b, "hw");
      json_builder_add_string_value (b, c->hw);
    }
  json_builder_set_member_name (b, "count");
  json_builder_add_int_value (b, c->count);
  if (c->kind == WS_COMPONENT_LINK)
    {
      json_builder_set_member_name (b, "from");
      json_builder_add_string_value (b, c->from);
      json_builder_set_member_name (b, "to");
      json_builder_add_string_value (b, c->to);
    }
  if (c->labels->len > 0)
    {
      json_builder_set_member_name (b, "labels");
      json_builder_begin_array (b);
      for (guint i = 0; i < c->labels->len; i++)
        {
          WsSystemLabel *l = c->labels->pdata[i];
          json_builder_begin_object (b);
          json_builder_set_member_name (b, "name");
          json_builder_add_string_value (b, l->name);
          json_builder_set_member_name (b, "multiplicity");
          json_builder_add_int_value (b, l->multiplicity);
          json_builder_end_object (b);
        }
      json_builder_end_array (b);
    }
  if (c->kind == WS_COMPONENT_MACHINE)
    {
      json_builder_set_member_name (b, "components");
      json_builder_begin_array (b);
      for (guint i = 0; i < c->children->len; i++)
        json_builder_add_value (b, component_to_json (c->children->pdata[i]));
      json_builder_end_array (b);
    }
  json_builder_end_object (b);
  return json_builder_get_root (b);
}

JsonNode *
ws_system_model_to_json (const WsSystemModel *system)
{
  g_autoptr (JsonBuilder) b = json_builder_new ();
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "kind");
  json_builder_add_string_value (b, "system");
  json_builder_set_member_name (b, "name");
  json_builder_add_string_value (b, system->name);
  if (system->description != NULL)
    {
      json_builder_set_member_name (b, "description");
      json_builder_add_string_value (b, system->description);
    }
  json_builder_set_member_name (b, "components");
  json_builder_begin_array (b);
  for (guint i = 0; i < system->components->len; i++)
    json_builder_add_value (b, component_to_json (system->components->pdata[i]));
  json_builder_end_array (b);
  json_builder_end_object (b);
  return json_builder_get_root (b);
}

gboolean
ws_json_check_members (JsonObject *o, const char *const *allowed, const char *where, GError **error)
{
  g_autoptr (GList) members = json_object_get_members (o);
  for (GList *l = members; l != NULL; l = l->next)
    if (!g_strv_contains (allowed, l->data))
      {
        g_autofree char *close = ws_suggest_names (l->data, allowed, 2);
        g_set_error (error, WS_ERROR, WS_ERROR_INVALID, "%s: unknown field '%s'%s%s%s", where, (const char *) l->data,
                     close ? " (did you mean " : "", close ? close : "", close ? "?)" : "");
        return FALSE;
      }
  return TRUE;
}

const char *
ws_json_get_string (JsonObject *o, const char *member, gboolean required, const char *where, GError **error)
{
  JsonNode *n = json_object_get_member (o, member);
  if (n == NULL || JSON_NODE_HOLDS_NULL (n))
    {
      if (required)
        g_set_error (error, WS_ERROR, WS_ERROR_INVALID, "%s: missing field '%s'", where, member);
      return NULL;
    }
  if (!JSON_NODE_HOLDS_VALUE (n) || json_node_get_value_type (n) != G_TYPE_STRING)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID, "%s: field '%s' must be a string", where, member);
      return NULL;
    }
  return json_node_get_string (n);
}

gboolean
ws_json_get_number (JsonObject *o, const char *member, double *value, const char *where, GError **error)
{
  JsonNode *n = json_object_get_member (o, member);
  if (n == NULL || !JSON_NODE_HOLDS_VALUE (n)
      || (json_node_get_value_type (n) != G_TYPE_INT64 && json_node_get_value_type (n) != G_TYPE_DOUBLE))
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID, "%s: field '%s' must be a number", where, member);
      return FALSE;
    }
  *value = json_node_get_double (n);
  return TRUE;
}

/* Machines inside machines deeper than this are refused: no real system
 * nests so far, and reading and evaluating the tree recurse once a level. */
#define MAX_MACHINE_NESTING 64

static gboolean
component_from_json (WsSystemModel *s, WsComponent *parent, JsonNode *node, guint index, guint level, GError **error)
{
  g_autofree char *where = g_strdup_printf ("system '%s', component %u", s->name, index + 1);
  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID, "%s: must be an object", where);
      return FALSE;
    }
  JsonObject *o = json_node_get_object (node);
  const char *name = ws_json_get_string (o, "name", TRUE, where, error);
  if (name == NULL)
    return FALSE;
  g_free (where);
  where = g_strdup_printf ("system '%s', component '%s'", s->name, name);
  const char *type = ws_json_get_string (o, "type", TRUE, where, error);
  if (type == NULL)
    return FALSE;
  int kind = -1;
  for (int k = 0; k <= WS_COMPONENT_LINK; k++)
    if (g_ascii_strcasecmp (type, kind_names[k]) == 0)
      kind = k;
  if (kind < 0)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID, "%s: unknown type '%s' (use machine, cpu, gpu or link)", where,
                   type);
      return FALSE;
    }
  static const char *const allowed[] = { "type", "name", "hw", "count", "labels", "from", "to", "components", NULL };
  if (!ws_json_check_members (o, allowed, where, error))
    return FALSE;
  const char *hw = ws_json_get_string (o, "hw", kind != WS_COMPONENT_MACHINE, where, error);
  if (hw == NULL && kind != WS_COMPONENT_MACHINE)
    return FALSE;
  double count = 1;
  if (json_object_has_member (o, "count") && !ws_json_get_number (o, "count", &count, where, error))
    return FALSE;
  if (count < 1 || count != (int) count || count > 1e6)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID, "%s: count must be a whole number >= 1 (got %g)", where, count);
      return FALSE;
    }
  WsComponent *c = ws_system_model_add (s, parent, kind, name, hw, (int) count);
  if (kind == WS_COMPONENT_LINK)
    {
      const char *from = ws_json_get_string (o, "from", TRUE, where, error);
      if (from == NULL)
        return FALSE;
      const char *to = ws_json_get_string (o, "to", TRUE, where, error);
      if (to == NULL)
        return FALSE;
      ws_component_set_endpoints (c, from, to);
    }
  else if (json_object_has_member (o, "from") || json_object_has_member (o, "to"))
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID, "%s: only links have 'from' and 'to'", where);
      return FALSE;
    }
  JsonNode *labels = json_object_get_member (o, "labels");
  if (labels != NULL)
    {
      if (!JSON_NODE_HOLDS_ARRAY (labels))
        {
          g_set_error (error, WS_ERROR, WS_ERROR_INVALID, "%s: 'labels' must be an array", where);
          return FALSE;
        }
      JsonArray *a = json_node_get_array (labels);
      for (guint i = 0; i < json_array_get_length (a); i++)
        {
          JsonNode *ln = json_array_get_element (a, i);
          const char *lname = NULL;
          double mult = 1;
          if (JSON_NODE_HOLDS_VALUE (ln) && json_node_get_value_type (ln) == G_TYPE_STRING)
            lname = json_node_get_string (ln);
          else if (JSON_NODE_HOLDS_OBJECT (ln))
            {
              JsonObject *lo = json_node_get_object (ln);
              static const char *const lallowed[] = { "name", "multiplicity", NULL };
              if (!ws_json_check_members (lo, lallowed, where, error))
                return FALSE;
              if ((lname = ws_json_get_string (lo, "name", TRUE, where, error)) == NULL)
                return FALSE;
              if (json_object_has_member (lo, "multiplicity")
                  && !ws_json_get_number (lo, "multiplicity", &mult, where, error))
                return FALSE;
            }
          else
            {
              g_set_error (error, WS_ERROR, WS_ERROR_INVALID,
                           "%s: a label is a name or {\"name\": …, \"multiplicity\": …}", where);
              return FALSE;
            }
          ws_component_add_label (c, lname, (int) mult);
          if (mult != (int) mult)
            {
              g_set_error (error, WS_ERROR, WS_ERROR_INVALID, "%s: label '%s' has a fractional multiplicity %g", where,
                           lname, mult);
              return FALSE;
            }
        }
    }
  JsonNode *children = json_object_get_member (o, "components");
  if (children != NULL)
    {
      if (kind != WS_COMPONENT_MACHINE || !JSON_NODE_HOLDS_ARRAY (children))
        {
          g_set_error (error, WS_ERROR, WS_ERROR_INVALID, "%s: only a machine has 'components' (an array)", where);
          return FALSE;
        }
      if (level + 1 >= MAX_MACHINE_NESTING && json_array_get_length (json_node_get_array (children)) > 0)
        {
          g_set_error (error, WS_ERROR, WS_ERROR_INVALID,
                       "%s: machines nest more than %d levels deep here; "
                       "flatten the system (a machine's count stands for identical machines)",
                       where, MAX_MACHINE_NESTING);
          return FALSE;
        }
      JsonArray *a = json_node_get_array (children);
      for (guint i = 0; i < json_array_get_length (a); i++)
        if (!component_from_json (s, c, json_array_get_element (a, i), i, level + 1, error))
          return FALSE;
    }
  return TRUE;
}

WsSystemModel *
ws_system_model_from_json (JsonNode *node, GError **error)
{
  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID, "a system model must be a JSON object");
      return NULL;
    }
  JsonObject *o = json_node_get_object (node);
  static const char *const allowed[] = { "kind", "name", "description", "components", NULL };
  if (!ws_json_check_members (o, allowed, "system model", error))
    return NULL;
  const char *kind = ws_json_get_string (o, "kind", FALSE, "system model", error);
  if (kind != NULL && g_strcmp0 (kind, "system") != 0)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID, "system model: \"kind\" is '%s', expected \"system\"", kind);
      return NULL;
    }
  const char *name = ws_json_get_string (o, "name", TRUE, "system model", error);
  if (name == NULL)
    return NULL;
  g_autoptr (WsSystemModel) s = ws_system_model_new (name);
  s->description = g_strdup (ws_json_get_string (o, "description", FALSE, "system model", NULL));
  JsonNode *comps = json_object_get_member (o, "components");
  if (comps == NULL || !JSON_NODE_HOLDS_ARRAY (comps))
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID, "system '%s': missing array 'components'", name);
      return NULL;
    }
  JsonArray *a = json_node_get_array (comps);
  for (guint i = 0; i < json_array_get_length (a); i++)
    if (!component_from_json (s, NULL, json_array_get_element (a, i), i, 0, error))
      return NULL;
  return g_steal_pointer (&s);
}

/* ---- validation -------------------------------------------------------- */

typedef struct {
  const WsSystemModel *system;
  WsStore *store;
  GHashTable *names;
  GError *error;
} Validate;

static void
validate_one (WsComponent *c, gpointer data)
{
  Validate *v = data;
  if (v->error != NULL)
    return;
  const char *sys = v->system->name;
  if (c->name[0] == '\0' || strchr (c->name, '/') != NULL || strchr (c->name, '[') != NULL)
    {
      g_set_error (&v->error, WS_ERROR, WS_ERROR_INVALID,
                   "system '%s': component name '%s' must be non-empty and contain no '/' or '['", sys, c->name);
      return;
    }
  if (!g_hash_table_add (v->names, c->name))
    {
      g_set_error (&v->error, WS_ERROR, WS_ERROR_INVALID,
                   "system '%s': two components are called '%s'; names must be unique", sys, c->name);
      return;
    }
  if (c->count < 1)
    {
      g_set_error (&v->error, WS_ERROR, WS_ERROR_INVALID, "system '%s', component '%s': count must be >= 1", sys,
                   c->name);
      return;
    }
  for (guint i = 0; i < c->labels->len; i++)
    {
      WsSystemLabel *l = c->labels->pdata[i];
      if (l->multiplicity < 1 || l->name == NULL || l->name[0] == '\0')
        {
          g_set_error (&v->error, WS_ERROR, WS_ERROR_INVALID,
                       "system '%s', component '%s': label '%s' needs a name and a multiplicity >= 1", sys, c->name,
                       l->name ? l->name : "");
          return;
        }
    }
  if (c->kind == WS_COMPONENT_LINK && c->labels->len > 0)
    {
      g_set_error (&v->error, WS_ERROR, WS_ERROR_INVALID,
                   "system '%s', link '%s': links carry no labels (processes run on machines, CPUs and GPUs)", sys,
                   c->name);
      return;
    }
  if (c->kind == WS_COMPONENT_LINK)
    {
      const char *ends[2] = { c->from, c->to };
      WsComponent *e[2];
      for (int i = 0; i < 2; i++)
        {
          e[i] = ws_system_model_find (v->system, ends[i]);
          if (e[i] == NULL)
            {
              g_autoptr (GPtrArray) all = g_ptr_array_new ();
              GHashTableIter it;
              gpointer key;
              g_hash_table_iter_init (&it, v->names);
              while (g_hash_table_iter_next (&it, &key, NULL))
                g_ptr_array_add (all, key);
              g_ptr_array_add (all, NULL);
              g_autofree char *close = ws_suggest_names (ends[i], (const char *const *) all->pdata, 2);
              g_set_error (&v->error, WS_ERROR, WS_ERROR_INVALID,
                           "system '%s': dangling link '%s': its '%s' end '%s' names no component%s%s%s", sys, c->name,
                           i == 0 ? "from" : "to", ends[i], close ? " (did you mean " : "", close ? close : "",
                           close ? "?)" : "");
              return;
            }
          if (e[i]->kind == WS_COMPONENT_LINK)
            {
              g_set_error (&v->error, WS_ERROR, WS_ERROR_INVALID,
                           "system '%s': link '%s' ends at link '%s'; a link joins CPUs, GPUs or machines", sys,
                           c->name, ends[i]);
              return;
            }
        }
      gboolean host_dev = (e[0]->kind == WS_COMPONENT_CPU && e[1]->kind == WS_COMPONENT_GPU)
                          || (e[0]->kind == WS_COMPONENT_GPU && e[1]->kind == WS_COMPONENT_CPU)
                          || (e[0]->kind == WS_COMPONENT_GPU && e[1]->kind == WS_COMPONENT_GPU);
      gboolean network = e[0]->kind == WS_COMPONENT_MACHINE && e[1]->kind == WS_COMPONENT_MACHINE;
      if (!host_dev && !network)
        {
          g_set_error (&v->error, WS_ERROR, WS_ERROR_INVALID,
                       "system '%s': link '%s' joins a %s and a %s; a link joins a CPU and a GPU (PCIe, NVLink), "
                       "two GPUs (NVLink) or two machines (network)",
                       sys, c->name, ws_component_kind_name (e[0]->kind), ws_component_kind_name (e[1]->kind));
          return;
        }
      if (host_dev && e[0]->parent != e[1]->parent)
        {
          g_set_error (&v->error, WS_ERROR, WS_ERROR_INVALID,
                       "system '%s': link '%s' joins '%s' and '%s', which are in different machines; "
                       "join machines with a network link instead",
                       sys, c->name, c->from, c->to);
          return;
        }
      if (e[0] == e[1] && !network)
        {
          g_set_error (&v->error, WS_ERROR, WS_ERROR_INVALID, "system '%s': link '%s' joins '%s' to itself", sys,
                       c->name, c->from);
          return;
        }
    }
  if (v->store != NULL && c->kind != WS_COMPONENT_MACHINE)
    {
      WsHwKind want = c->kind == WS_COMPONENT_CPU ? WS_HW_CPU : c->kind == WS_COMPONENT_GPU ? WS_HW_GPU : WS_HW_LINK;
      WsHwKind got;
      g_autoptr (GError) e = NULL;
      if (!ws_store_find_hw (v->store, c->hw, &got, &e))
        {
          g_set_error (&v->error, WS_ERROR, WS_ERROR_INVALID, "system '%s', %s '%s': %s", sys,
                       ws_component_kind_name (c->kind), c->name, e->message);
          return;
        }
      if (got != want)
        {
          g_set_error (&v->error, WS_ERROR, WS_ERROR_INVALID,
                       "system '%s', %s '%s': catalogue entry '%s' is a %s, not a %s", sys,
                       ws_component_kind_name (c->kind), c->name, c->hw, ws_hw_kind_name (got), ws_hw_kind_name (want));
          return;
        }
    }
}

typedef struct {
  const WsSystemModel *system;
  WsComponent *gpu;
  gboolean linked;
} GpuLink;

static void
find_host_link (WsComponent *c, gpointer data)
{
  GpuLink *g = data;
  if (c->kind != WS_COMPONENT_LINK)
    return;
  const char *other = NULL;
  if (g_strcmp0 (c->from, g->gpu->name) == 0)
    other = c->to;
  else if (g_strcmp0 (c->to, g->gpu->name) == 0)
    other = c->from;
  WsComponent *o = other ? ws_system_model_find (g->system, other) : NULL;
  if (o != NULL && o->kind == WS_COMPONENT_CPU)
    g->linked = TRUE;
}

static void
check_gpu_host (WsComponent *c, gpointer data)
{
  Validate *v = data;
  if (v->error != NULL || c->kind != WS_COMPONENT_GPU)
    return;
  GpuLink g = { v->system, c, FALSE };
  ws_system_model_walk (v->system->components, find_host_link, &g);
  if (!g.linked)
    g_set_error (&v->error, WS_ERROR, WS_ERROR_INVALID,
                 "system '%s': GPU '%s' has no link to a host CPU; add a link (PCIe or NVLink) from a CPU in "
                 "the same machine to it",
                 v->system->name, c->name);
}

/* The first machine whose children sit MAX_MACHINE_NESTING levels deep
 * (the recursion stops there), or NULL. */
static const WsComponent *
nested_too_deep (GPtrArray *components, guint level)
{
  for (guint i = 0; i < components->len; i++)
    {
      const WsComponent *c = components->pdata[i];
      if (c->children == NULL || c->children->len == 0)
        continue;
      if (level + 1 >= MAX_MACHINE_NESTING)
        return c;
      const WsComponent *deep = nested_too_deep (c->children, level + 1);
      if (deep != NULL)
        return deep;
    }
  return NULL;
}

gboolean
ws_system_model_validate (const WsSystemModel *system, WsStore *store, GError **error)
{
  g_return_val_if_fail (system != NULL, FALSE);
  if (system->name == NULL || system->name[0] == '\0')
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID, "a system model needs a name");
      return FALSE;
    }
  if (system->components->len == 0)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID, "system '%s' has no components", system->name);
      return FALSE;
    }
  const WsComponent *deep = nested_too_deep (system->components, 0);
  if (deep != NULL)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID,
                   "system '%s', component '%s': machines nest more than %d "
                   "levels deep here; flatten the system (a machine's count stands for identical machines)",
                   system->name, deep->name, MAX_MACHINE_NESTING);
      return FALSE;
    }
  Validate v = { system, store, g_hash_table_new (g_str_hash, g_str_equal), NULL };
  /* Names first, so link ends can be suggested from the full list. */
  ws_system_model_walk (system->components, validate_one, &v);
  if (v.error == NULL)
    ws_system_model_walk (system->components, check_gpu_host, &v);
  g_hash_table_unref (v.names);
  if (v.error != NULL)
    {
      g_propagate_error (error, v.error);
      return FALSE;
    }
  return TRUE;
}
