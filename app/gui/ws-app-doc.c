/* ws-app-doc.c: the application editor's document, its live checks and storage. */
#define G_LOG_DOMAIN "ws-app-doc"

#include <errno.h>
#include <glib/gi18n.h>
#include <stdlib.h>
#include <string.h>

#include "base/ws-json.h"
#include "expr/ws-expr.h"
#include "ws-app-doc.h"
#include "ws-gui-drafts.h"

const char *
ws_app_op_kind_title (const char *kind)
{
  const WsAppOpKind *info = ws_app_schema_op_kind_find (kind);

  return info != NULL ? ws_app_schema_text (info->context, info->label) : kind;
}

const char *
ws_app_field_text (const WsAppField *field, const char *msgid)
{
  return ws_app_schema_text (field->context, msgid);
}

WsAppKernelKind
ws_app_op_kernel_kind (const WsAppOp *op)
{
  if (!g_str_equal (op->kind, "kernel"))
    return WS_APP_KERNEL_ANALYTIC;
  return op->on_demand ? WS_APP_KERNEL_PROGRAM : op->profiled ? WS_APP_KERNEL_PROFILED : WS_APP_KERNEL_ANALYTIC;
}

const WsAppField *
ws_app_op_fields (const WsAppOp *op, guint *n_fields)
{
  return ws_app_schema_fields (op->kind, ws_app_op_kernel_kind (op), n_fields);
}

/* ---- construction ----------------------------------------------------- */

WsAppOp *
ws_app_op_new (const char *kind)
{
  WsAppOp *op = g_new0 (WsAppOp, 1);

  const WsAppOpKind *info = ws_app_schema_op_kind_find (kind);

  op->kind = g_strdup (kind);
  op->fields = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  /* Nested lists where the schema has them (a loop's body, an if's branches). */
  if (info != NULL && info->body != NULL)
    op->body = g_ptr_array_new_with_free_func ((GDestroyNotify) ws_app_op_free);
  if (info != NULL && info->else_body != NULL)
    op->else_body = g_ptr_array_new_with_free_func ((GDestroyNotify) ws_app_op_free);
  return op;
}

void
ws_app_op_free (WsAppOp *op)
{
  if (op == NULL)
    return;
  g_free (op->kind);
  g_hash_table_unref (op->fields);
  g_clear_pointer (&op->body, g_ptr_array_unref);
  g_clear_pointer (&op->else_body, g_ptr_array_unref);
  g_free (op);
}

const char *
ws_app_op_get (const WsAppOp *op, const char *key)
{
  const char *text = g_hash_table_lookup (op->fields, key);
  return text != NULL ? text : "";
}

void
ws_app_op_set (WsAppOp *op, const char *key, const char *text)
{
  if (text == NULL || *text == '\0')
    g_hash_table_remove (op->fields, key);
  else
    g_hash_table_replace (op->fields, g_strdup (key), g_strdup (text));
}

static void
var_free (WsAppVar *v)
{
  g_free (v->name);
  g_free (v->value);
  g_free (v->description);
  g_free (v);
}

static void
proc_free (WsAppProc *p)
{
  g_free (p->label);
  g_free (p->count);
  g_ptr_array_unref (p->ops);
  g_free (p);
}

WsAppDoc *
ws_app_doc_new (const char *name)
{
  WsAppDoc *doc = g_new0 (WsAppDoc, 1);

  doc->name = g_strdup (name);
  doc->variables = g_ptr_array_new_with_free_func ((GDestroyNotify) var_free);
  doc->processes = g_ptr_array_new_with_free_func ((GDestroyNotify) proc_free);
  return doc;
}

void
ws_app_doc_free (WsAppDoc *doc)
{
  if (doc == NULL)
    return;
  g_free (doc->name);
  g_free (doc->description);
  g_ptr_array_unref (doc->variables);
  g_ptr_array_unref (doc->processes);
  g_free (doc);
}

WsAppDoc *
ws_app_doc_copy (const WsAppDoc *doc)
{
  g_autoptr (JsonNode) node = ws_app_doc_to_json (doc);
  return ws_app_doc_from_json (node, NULL);
}

WsAppVar *
ws_app_doc_add_variable (WsAppDoc *doc, const char *name, gboolean derived, const char *value)
{
  WsAppVar *v = g_new0 (WsAppVar, 1);

  v->name = g_strdup (name);
  v->derived = derived;
  v->value = g_strdup (value != NULL ? value : "");
  g_ptr_array_add (doc->variables, v);
  return v;
}

WsAppProc *
ws_app_doc_add_process (WsAppDoc *doc, const char *label, const char *count)
{
  WsAppProc *p = g_new0 (WsAppProc, 1);

  p->label = g_strdup (label);
  p->count = g_strdup (count != NULL ? count : "");
  p->ops = g_ptr_array_new_with_free_func ((GDestroyNotify) ws_app_op_free);
  g_ptr_array_add (doc->processes, p);
  return p;
}

/* ---- JSON ------------------------------------------------------------- */

static void
add_expression (JsonBuilder *b, const char *key, const char *text)
{
  if (text == NULL || *text == '\0')
    return;
  json_builder_set_member_name (b, key);
  json_builder_add_string_value (b, text);
}

static void ops_to_json (JsonBuilder *b, GPtrArray *ops);

static void
op_to_json (JsonBuilder *b, const WsAppOp *op)
{
  guint n;
  const WsAppField *fields = ws_app_op_fields (op, &n);

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "op");
  json_builder_add_string_value (b, op->kind);
  for (guint i = 0; i < n; i++)
    {
      const char *text = ws_app_op_get (op, fields[i].key);

      if (fields[i].object != NULL)
        continue; /* written below, in their object */
      if (fields[i].type == WS_APP_FIELD_LABELS)
        {
          g_auto (GStrv) parts = g_strsplit (text, ",", -1);

          if (*text == '\0')
            continue;
          json_builder_set_member_name (b, fields[i].key);
          json_builder_begin_array (b);
          for (guint j = 0; parts[j] != NULL; j++)
            if (*g_strstrip (parts[j]) != '\0')
              json_builder_add_string_value (b, parts[j]);
          json_builder_end_array (b);
        }
      else if (fields[i].type == WS_APP_FIELD_ARGS)
        {
          /* Shell words as typed; what does not parse is kept as one
           * word so the core reports it. */
          g_auto (GStrv) words = NULL;

          if (*text == '\0')
            continue;
          if (!g_shell_parse_argv (text, NULL, &words, NULL))
            words = g_strsplit (text, "\x01", 1);
          json_builder_set_member_name (b, fields[i].key);
          json_builder_begin_array (b);
          for (guint j = 0; words[j] != NULL; j++)
            json_builder_add_string_value (b, words[j]);
          json_builder_end_array (b);
        }
      else if (fields[i].type == WS_APP_FIELD_TRACE || fields[i].type == WS_APP_FIELD_PROGRAM)
        {
          /* Always written: it is what makes the kernel a profiled one. */
          json_builder_set_member_name (b, fields[i].key);
          json_builder_add_string_value (b, text);
        }
      else
        add_expression (b, fields[i].key, text);
    }
  /* Member objects (an analytic kernel's "analytic"): written whenever the
   * kind has one, even empty, since the object is what marks the kind. */
  for (guint i = 0; i < n; i++)
    {
      gboolean first = TRUE;

      if (fields[i].object == NULL)
        continue;
      for (guint j = 0; j < i && first; j++)
        first = g_strcmp0 (fields[j].object, fields[i].object) != 0;
      if (!first)
        continue;
      json_builder_set_member_name (b, fields[i].object);
      json_builder_begin_object (b);
      for (guint j = i; j < n; j++)
        if (g_strcmp0 (fields[j].object, fields[i].object) == 0)
          add_expression (b, fields[j].key, ws_app_op_get (op, fields[j].key));
      json_builder_end_object (b);
    }
  if (op->body != NULL)
    {
      json_builder_set_member_name (b, ws_app_schema_op_kind_find (op->kind)->body);
      ops_to_json (b, op->body);
    }
  if (op->else_body != NULL && op->else_body->len > 0)
    {
      json_builder_set_member_name (b, ws_app_schema_op_kind_find (op->kind)->else_body);
      ops_to_json (b, op->else_body);
    }
  json_builder_end_object (b);
}

static void
ops_to_json (JsonBuilder *b, GPtrArray *ops)
{
  json_builder_begin_array (b);
  for (guint i = 0; i < ops->len; i++)
    op_to_json (b, ops->pdata[i]);
  json_builder_end_array (b);
}

/* A default is a JSON number when it reads as one, else the text (which the
 * core then rejects, naming the variable). */
static void
add_default (JsonBuilder *b, const char *text)
{
  char *end = NULL;
  gint64 i;
  double d;

  errno = 0;
  i = g_ascii_strtoll (text, &end, 10);
  if (*text != '\0' && end != NULL && *end == '\0' && errno == 0)
    {
      json_builder_add_int_value (b, i);
      return;
    }
  d = g_ascii_strtod (text, &end);
  if (*text != '\0' && end != NULL && *end == '\0')
    json_builder_add_double_value (b, d);
  else
    json_builder_add_string_value (b, text);
}

JsonNode *
ws_app_doc_to_json (const WsAppDoc *doc)
{
  g_autoptr (JsonBuilder) b = json_builder_new ();

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "kind");
  json_builder_add_string_value (b, "application");
  json_builder_set_member_name (b, "name");
  json_builder_add_string_value (b, doc->name != NULL ? doc->name : "");
  if (doc->description != NULL && *doc->description != '\0')
    {
      json_builder_set_member_name (b, "description");
      json_builder_add_string_value (b, doc->description);
    }
  json_builder_set_member_name (b, "variables");
  json_builder_begin_array (b);
  for (guint i = 0; i < doc->variables->len; i++)
    {
      const WsAppVar *v = doc->variables->pdata[i];

      json_builder_begin_object (b);
      json_builder_set_member_name (b, "name");
      json_builder_add_string_value (b, v->name);
      json_builder_set_member_name (b, v->derived ? "expression" : "default");
      if (v->derived)
        json_builder_add_string_value (b, v->value);
      else
        add_default (b, v->value);
      if (v->description != NULL)
        {
          json_builder_set_member_name (b, "description");
          json_builder_add_string_value (b, v->description);
        }
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_set_member_name (b, "processes");
  json_builder_begin_array (b);
  for (guint i = 0; i < doc->processes->len; i++)
    {
      const WsAppProc *p = doc->processes->pdata[i];

      json_builder_begin_object (b);
      json_builder_set_member_name (b, "label");
      json_builder_add_string_value (b, p->label);
      add_expression (b, "count", p->count);
      json_builder_set_member_name (b, "operations");
      ops_to_json (b, p->ops);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_end_object (b);
  return json_builder_get_root (b);
}

/* A member as the text the editor shows: strings as they are, numbers
 * printed back the way JSON gave them. */
static char *
member_text_of_node (JsonNode *n)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  if (n == NULL || !JSON_NODE_HOLDS_VALUE (n))
    return NULL;
  switch (json_node_get_value_type (n))
    {
    case G_TYPE_STRING: return g_strdup (json_node_get_string (n));
    case G_TYPE_INT64: return g_strdup_printf ("%" G_GINT64_FORMAT, json_node_get_int (n));
    case G_TYPE_DOUBLE: return g_strdup (g_ascii_dtostr (buf, sizeof buf, json_node_get_double (n)));
    case G_TYPE_BOOLEAN: return g_strdup (json_node_get_boolean (n) ? "1" : "0");
    default: return NULL;
    }
}

static char *
member_text (JsonObject *o, const char *key)
{
  return member_text_of_node (o != NULL ? json_object_get_member (o, key) : NULL);
}

static GPtrArray *ops_from_json (JsonNode *node);

/* A kernel's "args" array as shell words: quoted only where needed. */
static char *
args_to_text (JsonNode *node)
{
  g_autoptr (GString) text = g_string_new (NULL);
  JsonArray *array;

  if (node == NULL || !JSON_NODE_HOLDS_ARRAY (node))
    return g_strdup ("");
  array = json_node_get_array (node);
  for (guint j = 0; j < json_array_get_length (array); j++)
    {
      JsonNode *e = json_array_get_element (array, j);
      g_autofree char *word = NULL;

      if (JSON_NODE_HOLDS_VALUE (e) && json_node_get_value_type (e) == G_TYPE_STRING)
        word = g_strdup (json_node_get_string (e));
      else if (JSON_NODE_HOLDS_VALUE (e))
        word = member_text_of_node (e);
      if (word == NULL)
        continue;
      if (text->len > 0)
        g_string_append_c (text, ' ');
      if (*word == '\0' || strpbrk (word, " \t\n'\"\\$`;&|<>()*?#~") != NULL)
        {
          g_autofree char *quoted = g_shell_quote (word);
          g_string_append (text, quoted);
        }
      else
        g_string_append (text, word);
    }
  return g_string_free (g_steal_pointer (&text), FALSE);
}

/* A member of @o, or of its member object @object ("analytic"). */
static JsonNode *
member_in (JsonObject *o, const char *object, const char *key)
{
  JsonNode *holder;

  if (object == NULL)
    return json_object_get_member (o, key);
  holder = json_object_get_member (o, object);
  if (holder == NULL || !JSON_NODE_HOLDS_OBJECT (holder))
    return NULL;
  return json_object_get_member (json_node_get_object (holder), key);
}

static WsAppOp *
op_from_json (JsonObject *o)
{
  const char *kind = json_object_get_string_member_with_default (o, "op", "host");
  const WsAppOpKind *info;
  WsAppOp *op;
  guint n;
  const WsAppField *fields;

  if (ws_app_schema_op_kind_find (kind) == NULL)
    kind = "host";
  info = ws_app_schema_op_kind_find (kind);
  op = ws_app_op_new (kind);
  if (g_str_equal (kind, "kernel"))
    {
      guint n_kinds;
      const WsAppKernelKindInfo *kinds = ws_app_schema_kernel_kinds (&n_kinds);
      WsAppKernelKind kernel = WS_APP_KERNEL_ANALYTIC;

      /* The kind whose marker the record has; a draft with several takes
       * the last (program over trace over analytic). */
      for (guint i = 0; i < n_kinds; i++)
        if (json_object_has_member (o, kinds[i].marker))
          kernel = kinds[i].kind;
      op->profiled = kernel == WS_APP_KERNEL_PROFILED;
      op->on_demand = kernel == WS_APP_KERNEL_PROGRAM;
    }
  fields = ws_app_op_fields (op, &n);
  for (guint i = 0; i < n; i++)
    {
      JsonNode *member = member_in (o, fields[i].object, fields[i].key);
      g_autofree char *text = NULL;

      if (fields[i].type == WS_APP_FIELD_LABELS)
        {
          g_autoptr (GPtrArray) parts = g_ptr_array_new ();

          if (member != NULL && JSON_NODE_HOLDS_ARRAY (member))
            for (guint j = 0; j < json_array_get_length (json_node_get_array (member)); j++)
              {
                const char *s = json_array_get_string_element (json_node_get_array (member), j);
                if (s != NULL)
                  g_ptr_array_add (parts, (gpointer) s);
              }
          g_ptr_array_add (parts, NULL);
          text = g_strjoinv (", ", (char **) parts->pdata);
        }
      else if (fields[i].type == WS_APP_FIELD_ARGS)
        text = args_to_text (member);
      else
        text = member_text_of_node (member);
      ws_app_op_set (op, fields[i].key, text);
    }
  if (op->body != NULL)
    {
      g_ptr_array_unref (op->body);
      op->body = ops_from_json (json_object_get_member (o, info->body));
    }
  if (op->else_body != NULL)
    {
      g_ptr_array_unref (op->else_body);
      op->else_body = ops_from_json (json_object_get_member (o, info->else_body));
    }
  return op;
}

static GPtrArray *
ops_from_json (JsonNode *node)
{
  GPtrArray *ops = g_ptr_array_new_with_free_func ((GDestroyNotify) ws_app_op_free);

  if (node != NULL && JSON_NODE_HOLDS_ARRAY (node))
    for (guint i = 0; i < json_array_get_length (json_node_get_array (node)); i++)
      {
        JsonNode *e = json_array_get_element (json_node_get_array (node), i);
        if (JSON_NODE_HOLDS_OBJECT (e))
          g_ptr_array_add (ops, op_from_json (json_node_get_object (e)));
      }
  return ops;
}

WsAppDoc *
ws_app_doc_from_json (JsonNode *node, GError **error)
{
  g_autoptr (WsAppDoc) doc = NULL;
  JsonObject *o;
  JsonNode *member;

  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID, "an application model must be a JSON object");
      return NULL;
    }
  o = json_node_get_object (node);
  doc = ws_app_doc_new (json_object_get_string_member_with_default (o, "name", ""));
  doc->description = g_strdup (json_object_get_string_member_with_default (o, "description", NULL));
  member = json_object_get_member (o, "variables");
  if (member != NULL && JSON_NODE_HOLDS_ARRAY (member))
    for (guint i = 0; i < json_array_get_length (json_node_get_array (member)); i++)
      {
        JsonNode *vn = json_array_get_element (json_node_get_array (member), i);
        JsonObject *vo = JSON_NODE_HOLDS_OBJECT (vn) ? json_node_get_object (vn) : NULL;
        gboolean derived = vo != NULL && json_object_has_member (vo, "expression");
        g_autofree char *value = vo ? member_text (vo, derived ? "expression" : "default") : NULL;
        WsAppVar *v;

        if (vo == NULL)
          continue;
        v = ws_app_doc_add_variable (doc, json_object_get_string_member_with_default (vo, "name", ""), derived, value);
        v->description = g_strdup (json_object_get_string_member_with_default (vo, "description", NULL));
      }
  member = json_object_get_member (o, "processes");
  if (member != NULL && JSON_NODE_HOLDS_ARRAY (member))
    for (guint i = 0; i < json_array_get_length (json_node_get_array (member)); i++)
      {
        JsonNode *pn = json_array_get_element (json_node_get_array (member), i);
        JsonObject *po = JSON_NODE_HOLDS_OBJECT (pn) ? json_node_get_object (pn) : NULL;
        g_autofree char *count = po ? member_text (po, "count") : NULL;
        WsAppProc *p;

        if (po == NULL)
          continue;
        p = ws_app_doc_add_process (doc, json_object_get_string_member_with_default (po, "label", ""), count);
        g_ptr_array_unref (p->ops);
        p->ops = ops_from_json (json_object_get_member (po, "operations"));
      }
  return g_steal_pointer (&doc);
}

char *
ws_app_doc_to_text (const WsAppDoc *doc)
{
  g_autoptr (JsonNode) node = ws_app_doc_to_json (doc);
  return json_to_string (node, FALSE);
}

WsAppDoc *
ws_app_doc_from_text (const char *text, GError **error)
{
  g_autoptr (JsonNode) node = ws_json_from_text (text, error);
  return node != NULL ? ws_app_doc_from_json (node, error) : NULL;
}

/* ---- paths ------------------------------------------------------------ */

/* Walks @path; returns the list and, through @loop_vars (may be NULL), adds
 * the variables of the loops it passes through. */
static GPtrArray *
walk (const WsAppDoc *doc, const char *path, GPtrArray *loop_vars)
{
  g_auto (GStrv) parts = NULL;
  GPtrArray *list;
  char *end = NULL;
  guint64 p;

  if (path == NULL || path[0] != 'p')
    return NULL;
  parts = g_strsplit (path + 1, "/", -1);
  p = g_ascii_strtoull (parts[0], &end, 10);
  if (end == parts[0] || *end != '\0' || p >= doc->processes->len)
    return NULL;
  list = ((WsAppProc *) doc->processes->pdata[p])->ops;
  for (guint i = 1; parts[i] != NULL; i++)
    {
      guint64 index = g_ascii_strtoull (parts[i], &end, 10);
      WsAppOp *op;

      if (end == parts[i] || (g_strcmp0 (end, "b") != 0 && g_strcmp0 (end, "e") != 0) || index >= list->len)
        return NULL;
      op = list->pdata[index];
      if (loop_vars != NULL && g_str_equal (op->kind, "loop") && *ws_app_op_get (op, "variable") != '\0')
        g_ptr_array_add (loop_vars, g_strdup (ws_app_op_get (op, "variable")));
      list = end[0] == 'b' ? op->body : op->else_body;
      if (list == NULL)
        return NULL;
    }
  return list;
}

GPtrArray *
ws_app_doc_get_list (const WsAppDoc *doc, const char *path)
{
  return walk (doc, path, NULL);
}

WsAppOp *
ws_app_doc_get_op (const WsAppDoc *doc, const char *list_path, guint index)
{
  GPtrArray *list = walk (doc, list_path, NULL);
  return list != NULL && index < list->len ? list->pdata[index] : NULL;
}

char *
ws_app_doc_child_path (const char *list_path, guint index, gboolean else_branch)
{
  return g_strdup_printf ("%s/%u%c", list_path, index, else_branch ? 'e' : 'b');
}

gboolean
ws_app_doc_insert (WsAppDoc *doc, const char *path, guint index, WsAppOp *op)
{
  GPtrArray *list = walk (doc, path, NULL);

  if (list == NULL)
    {
      ws_app_op_free (op);
      return FALSE;
    }
  g_ptr_array_insert (list, MIN (index, list->len), op);
  return TRUE;
}

WsAppOp *
ws_app_doc_remove (WsAppDoc *doc, const char *path, guint index)
{
  GPtrArray *list = walk (doc, path, NULL);
  return list != NULL && index < list->len ? g_ptr_array_steal_index (list, index) : NULL;
}

gboolean
ws_app_doc_move (WsAppDoc *doc, const char *from_path, guint from_index, const char *to_path, guint to_index)
{
  g_autofree char *moved_prefix = g_strdup_printf ("%s/%u", from_path, from_index);
  GPtrArray *from = walk (doc, from_path, NULL);
  GPtrArray *to = walk (doc, to_path, NULL);
  WsAppOp *op;

  if (from == NULL || to == NULL || from_index >= from->len)
    return FALSE;
  /* Into its own body (at any depth): refused. */
  if (g_str_has_prefix (to_path, moved_prefix)
      && (to_path[strlen (moved_prefix)] == 'b' || to_path[strlen (moved_prefix)] == 'e'))
    return FALSE;
  /* Taking the operation out shifts later siblings and, when the target
   * lies inside a later sibling, that sibling's path: resolve the target
   * list first (it is a pointer, unaffected), then adjust the index. */
  op = g_ptr_array_steal_index (from, from_index);
  if (from == to && to_index > from_index)
    to_index--;
  g_ptr_array_insert (to, MIN (to_index, to->len), op);
  return TRUE;
}

static char **
names_to_strv (GPtrArray *names)
{
  g_ptr_array_add (names, NULL);
  return (char **) g_ptr_array_free (names, FALSE);
}

char **
ws_app_doc_scope (const WsAppDoc *doc, const char *list_path)
{
  GPtrArray *names = g_ptr_array_new ();

  for (guint i = 0; i < doc->variables->len; i++)
    g_ptr_array_add (names, g_strdup (((WsAppVar *) doc->variables->pdata[i])->name));
  g_ptr_array_add (names, g_strdup ("rank"));
  walk (doc, list_path, names);
  return names_to_strv (names);
}

char **
ws_app_doc_variable_scope (const WsAppDoc *doc, guint index)
{
  GPtrArray *names = g_ptr_array_new ();

  for (guint i = 0; i < index && i < doc->variables->len; i++)
    g_ptr_array_add (names, g_strdup (((WsAppVar *) doc->variables->pdata[i])->name));
  return names_to_strv (names);
}

/* ---- checks ----------------------------------------------------------- */

/* 1-based column of the first whole-word use of @name in @text. */
static guint
column_of (const char *text, const char *name)
{
  size_t len = strlen (name);

  for (const char *p = strstr (text, name); p != NULL; p = strstr (p + 1, name))
    {
      gboolean before = p == text || !(g_ascii_isalnum (p[-1]) || p[-1] == '_' || p[-1] == '.');
      gboolean after = !(g_ascii_isalnum (p[len]) || p[len] == '_');
      if (before && after)
        return (guint) (p - text) + 1;
    }
  return 1;
}

char *
ws_app_doc_check_expr (const char *text, gboolean required, const char *const *scope)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WsExpr) expr = NULL;
  const char *const *used;

  g_autofree char *trimmed = g_strstrip (g_strdup (text != NULL ? text : ""));

  if (*trimmed == '\0')
    return required ? g_strdup (_ ("Required: enter an expression")) : NULL;
  expr = ws_expr_parse (text, &error);
  if (expr == NULL)
    return g_strdup (error->message);
  used = ws_expr_get_variables (expr);
  for (guint i = 0; used != NULL && used[i] != NULL; i++)
    if (scope == NULL || !g_strv_contains (scope, used[i]))
      {
        g_autofree char *close = scope ? ws_suggest_names (used[i], scope, 2) : NULL;

        if (close != NULL)
          /* Translators: column number, a variable name, suggested names. */
          return g_strdup_printf (_ ("column %u: unknown variable “%s” (did you mean %s?)"), column_of (text, used[i]),
                                  used[i], close);
        return g_strdup_printf (_ ("column %u: unknown variable “%s”"), column_of (text, used[i]), used[i]);
      }
  return NULL;
}

static gboolean
has_label (const WsAppDoc *doc, const char *label)
{
  for (guint i = 0; i < doc->processes->len; i++)
    if (g_strcmp0 (((WsAppProc *) doc->processes->pdata[i])->label, label) == 0)
      return TRUE;
  return FALSE;
}

static char *
unknown_label (const WsAppDoc *doc, const char *label)
{
  g_autoptr (GPtrArray) labels = g_ptr_array_new ();
  g_autofree char *close = NULL;

  for (guint i = 0; i < doc->processes->len; i++)
    g_ptr_array_add (labels, ((WsAppProc *) doc->processes->pdata[i])->label);
  g_ptr_array_add (labels, NULL);
  close = ws_suggest_names (label, (const char *const *) labels->pdata, 2);
  if (close != NULL)
    return g_strdup_printf (_ ("No process has the label “%s” (did you mean %s?)"), label, close);
  return g_strdup_printf (_ ("No process has the label “%s”"), label);
}

/* Arguments: shell words whose {EXPR} parts are expressions in scope. */
static char *
check_args (const char *text, const char *const *scope)
{
  g_auto (GStrv) words = NULL;
  g_autoptr (GError) error = NULL;

  if (*text == '\0')
    return NULL;
  if (!g_shell_parse_argv (text, NULL, &words, &error))
    return g_strdup_printf (_ ("Not valid shell words: %s"), error->message);
  for (guint i = 0; words[i] != NULL; i++)
    for (const char *p = words[i]; *p != '\0'; p++)
      {
        const char *close;
        g_autofree char *expr = NULL, *problem = NULL;

        if (p[0] == '{' && p[1] == '{')
          {
            p++;
            continue;
          }
        if (*p != '{')
          continue;
        close = strchr (p, '}');
        if (close == NULL)
          return g_strdup_printf (_ ("Argument %u: “{” without its “}”"), i + 1);
        expr = g_strndup (p + 1, close - p - 1);
        problem = ws_app_doc_check_expr (expr, TRUE, scope);
        if (problem != NULL)
          return g_strdup_printf (_ ("Argument %u, {%s}: %s"), i + 1, expr, problem);
        p = close;
      }
  return NULL;
}

char *
ws_app_doc_check_field (const WsAppDoc *doc, const WsAppField *info, const char *text, const char *const *scope)
{
  text = text != NULL ? text : "";
  switch (info->type)
    {
    case WS_APP_FIELD_EXPR: return ws_app_doc_check_expr (text, info->required, scope);
    case WS_APP_FIELD_IDENT:
      if (*text != '\0' && !ws_expr_is_identifier (text))
        return g_strdup (_ ("A variable name: letters, digits and “_”, not starting with a digit"));
      return NULL;
    case WS_APP_FIELD_LABEL:
      if (*text == '\0')
        return g_strdup (_ ("Required: enter a process label"));
      return has_label (doc, text) ? NULL : unknown_label (doc, text);
    case WS_APP_FIELD_LABELS:
      {
        g_auto (GStrv) parts = g_strsplit (text, ",", -1);
        for (guint i = 0; parts[i] != NULL; i++)
          if (*g_strstrip (parts[i]) != '\0' && !has_label (doc, parts[i]))
            return unknown_label (doc, parts[i]);
        return NULL;
      }
    case WS_APP_FIELD_TRACE: return *text == '\0' ? g_strdup (_ ("Required: choose a profiled trace")) : NULL;
    case WS_APP_FIELD_PROGRAM:
      if (*text == '\0')
        return g_strdup (_ ("Required: the CUDA program to profile for each point"));
      if (!g_path_is_absolute (text))
        return g_strdup (_ ("Give the program’s full path"));
      if (!g_file_test (text, G_FILE_TEST_IS_EXECUTABLE) || g_file_test (text, G_FILE_TEST_IS_DIR))
        return g_strdup_printf (_ ("No executable program at “%s”"), text);
      return NULL;
    case WS_APP_FIELD_ARGS: return check_args (text, scope);
    case WS_APP_FIELD_TEXT:
    default: return NULL;
    }
}

char *
ws_app_doc_check_variable_name (const WsAppDoc *doc, guint index)
{
  const WsAppVar *v = doc->variables->pdata[index];

  if (!ws_expr_is_identifier (v->name))
    return g_strdup (_ ("A variable name: letters, digits and “_”, not starting with a digit"));
  for (guint i = 0; i < index; i++)
    if (g_str_equal (((WsAppVar *) doc->variables->pdata[i])->name, v->name))
      return g_strdup_printf (_ ("“%s” is already defined above"), v->name);
  return NULL;
}

char *
ws_app_doc_check_variable_value (const WsAppDoc *doc, guint index)
{
  const WsAppVar *v = doc->variables->pdata[index];
  char *end = NULL;

  if (v->derived)
    {
      g_auto (GStrv) scope = ws_app_doc_variable_scope (doc, index);
      return ws_app_doc_check_expr (v->value, TRUE, (const char *const *) scope);
    }
  g_ascii_strtod (v->value, &end);
  if (*v->value == '\0' || end == NULL || *end != '\0')
    return g_strdup (_ ("The default must be a number"));
  return NULL;
}

char *
ws_app_doc_check_op (const WsAppDoc *doc, const WsAppOp *op)
{
  if (g_str_equal (op->kind, "host")
      && (*ws_app_op_get (op, "seconds") == '\0') == (*ws_app_op_get (op, "operations") == '\0'))
    return g_strdup (_ ("Give either seconds or operations (at the CPU’s rate), not both"));
  return NULL;
}

char *
ws_app_doc_check_label (const WsAppDoc *doc, guint index)
{
  const WsAppProc *p = doc->processes->pdata[index];

  if (*p->label == '\0')
    return g_strdup (_ ("Required: enter the label of the components that run these processes"));
  for (guint i = 0; i < index; i++)
    if (g_str_equal (((WsAppProc *) doc->processes->pdata[i])->label, p->label))
      return g_strdup_printf (_ ("Label “%s” already has a process list above"), p->label);
  return NULL;
}

static void
ops_problems (const WsAppDoc *doc, GPtrArray *ops, const char *path, const char *label, const char *number,
              GPtrArray *out)
{
  for (guint i = 0; i < ops->len; i++)
    {
      const WsAppOp *op = ops->pdata[i];
      g_autofree char *num = number ? g_strdup_printf ("%s.%u", number, i + 1) : g_strdup_printf ("%u", i + 1);
      g_auto (GStrv) scope = ws_app_doc_scope (doc, path);
      g_autofree char *whole = ws_app_doc_check_op (doc, op);
      guint n;
      const WsAppField *fields = ws_app_op_fields (op, &n);

      if (whole != NULL)
        /* Translators: label, operation number (2.1), operation type, problem. */
        g_ptr_array_add (out, g_strdup_printf (_ ("Label “%s”, operation %s (%s): %s"), label, num, op->kind, whole));
      for (guint f = 0; f < n; f++)
        {
          g_autofree char *problem = ws_app_doc_check_field (doc, &fields[f], ws_app_op_get (op, fields[f].key),
                                                             (const char *const *) scope);
          if (problem != NULL)
            /* Translators: label, operation number, operation type, field, problem. */
            g_ptr_array_add (out, g_strdup_printf (_ ("Label “%s”, operation %s (%s), %s: %s"), label, num, op->kind,
                                                   ws_app_field_text (&fields[f], fields[f].label), problem));
        }
      if (op->body != NULL)
        {
          g_autofree char *child = ws_app_doc_child_path (path, i, FALSE);
          ops_problems (doc, op->body, child, label, num, out);
        }
      if (op->else_body != NULL)
        {
          g_autofree char *child = ws_app_doc_child_path (path, i, TRUE);
          g_autofree char *enumber = g_strconcat (num, "e", NULL);
          ops_problems (doc, op->else_body, child, label, enumber, out);
        }
    }
}

GPtrArray *
ws_app_doc_problems (const WsAppDoc *doc)
{
  GPtrArray *out = g_ptr_array_new_with_free_func (g_free);

  if (doc->name == NULL || *doc->name == '\0')
    g_ptr_array_add (out, g_strdup (_ ("The application needs a name")));
  for (guint i = 0; i < doc->variables->len; i++)
    {
      const WsAppVar *v = doc->variables->pdata[i];
      g_autofree char *name = ws_app_doc_check_variable_name (doc, i);
      g_autofree char *value = ws_app_doc_check_variable_value (doc, i);

      if (name != NULL)
        /* Translators: variable number, problem. */
        g_ptr_array_add (out, g_strdup_printf (_ ("Variable %u: %s"), i + 1, name));
      if (value != NULL)
        /* Translators: variable name, problem. */
        g_ptr_array_add (out, g_strdup_printf (_ ("Variable “%s”: %s"), v->name, value));
    }
  if (doc->processes->len == 0)
    g_ptr_array_add (out, g_strdup (_ ("Add a process label: an application needs at least one")));
  for (guint i = 0; i < doc->processes->len; i++)
    {
      const WsAppProc *p = doc->processes->pdata[i];
      g_autofree char *path = g_strdup_printf ("p%u", i);
      g_autofree char *label = ws_app_doc_check_label (doc, i);
      g_auto (GStrv) scope = ws_app_doc_scope (doc, path);
      g_autofree char *count = ws_app_doc_check_expr (p->count, FALSE, (const char *const *) scope);

      if (label != NULL)
        g_ptr_array_add (out, g_strdup_printf (_ ("Process %u: %s"), i + 1, label));
      if (count != NULL)
        /* Translators: label, problem. */
        g_ptr_array_add (out, g_strdup_printf (_ ("Label “%s”, count: %s"), p->label, count));
      ops_problems (doc, p->ops, path, p->label, NULL, out);
    }
  return out;
}

/* ---- store ------------------------------------------------------------ */

gboolean
ws_app_doc_save (WsStore *store, const WsAppDoc *doc, gboolean *model_stored, char **problem, GError **error)
{
  g_autoptr (JsonNode) record = ws_app_doc_to_json (doc);
  g_autofree char *text = json_to_string (record, FALSE);
  g_autoptr (GPtrArray) problems = ws_app_doc_problems (doc);
  g_autoptr (WsAppModel) model = NULL;
  g_autoptr (GError) rejected = NULL;

  if (model_stored != NULL)
    *model_stored = FALSE;
  if (problem != NULL)
    *problem = NULL;

  /* The editor's checks first (they also catch unknown variables, which the
   * core only finds when a point is evaluated), then the core's own. */
  if (problems->len == 0)
    model = ws_app_model_from_json (record, &rejected);
  if (model != NULL && ws_system_store_put_app (store, record, TRUE, &rejected))
    {
      if (model_stored != NULL)
        *model_stored = TRUE;
      /* The model is the user's work now: no stale draft may shadow it. */
      return ws_gui_drafts_delete (store, WS_GUI_DRAFTS_APPS, doc->name, error);
    }
  if (problem != NULL)
    *problem = g_strdup (problems->len > 0 ? problems->pdata[0] : rejected->message);
  return ws_gui_drafts_put (store, WS_GUI_DRAFTS_APPS, doc->name, text, error);
}

gboolean
ws_app_doc_has_draft (WsStore *store, const char *name)
{
  g_autofree char *text = ws_gui_drafts_get (store, WS_GUI_DRAFTS_APPS, name, NULL);

  return text != NULL;
}

WsAppDoc *
ws_app_doc_load (WsStore *store, const char *name, GError **error)
{
  g_autoptr (GError) local = NULL;
  g_autofree char *text = ws_gui_drafts_get (store, WS_GUI_DRAFTS_APPS, name, &local);
  g_autoptr (WsAppModel) model = NULL;
  g_autoptr (JsonNode) node = NULL;

  if (local != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&local));
      return NULL;
    }
  if (text != NULL)
    return ws_app_doc_from_text (text, error);
  model = ws_system_store_get_app (store, name, error);
  if (model == NULL)
    return NULL;
  node = ws_app_model_to_json (model);
  return ws_app_doc_from_json (node, error);
}

char **
ws_app_doc_list (WsStore *store, GError **error)
{
  g_auto (GStrv) apps = ws_system_store_list_apps (store, error);

  if (apps == NULL)
    return NULL;
  return ws_gui_drafts_merge_names (store, WS_GUI_DRAFTS_APPS, (const char *const *) apps, error);
}
