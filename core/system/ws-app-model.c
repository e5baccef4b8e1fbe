/* ws-app-model.c: application models (seed 004 §5.4.2, Listing 5): variables
 * and, per process label, operations whose numbers are expressions.  Every
 * expression is compiled once here, so a sweep only evaluates. */
#include <math.h>
#include <string.h>
#include "system/ws-system-private.h"

static void
op_free (gpointer p)
{
  AppOp *op = p;
  g_free (op->where);
  g_clear_pointer (&op->bytes, ws_expr_free);
  g_clear_pointer (&op->device, ws_expr_free);
  g_clear_pointer (&op->seconds, ws_expr_free);
  g_clear_pointer (&op->operations, ws_expr_free);
  g_clear_pointer (&op->peer_rank, ws_expr_free);
  g_clear_pointer (&op->launch, ws_expr_free);
  g_clear_pointer (&op->count, ws_expr_free);
  g_clear_pointer (&op->cond, ws_expr_free);
  if (op->analytic != NULL)
    {
      guint n_params;
      ws_analytic_params (&n_params);
      for (guint i = 0; i < n_params; i++)
        g_clear_pointer (&op->analytic[i], ws_expr_free);
      g_free (op->analytic);
    }
  g_free (op->peer);
  g_free (op->name);
  g_free (op->trace);
  g_free (op->program);
  g_clear_pointer (&op->args, g_ptr_array_unref);
  g_free (op->loop_var);
  g_strfreev (op->barrier_labels);
  g_clear_pointer (&op->body, g_ptr_array_unref);
  g_clear_pointer (&op->else_body, g_ptr_array_unref);
  g_free (op);
}

static void
arg_piece_free (gpointer p)
{
  AppArgPiece *piece = p;
  g_free (piece->literal);
  g_clear_pointer (&piece->expr, ws_expr_free);
  g_free (piece);
}

static void
variable_free (gpointer p)
{
  AppVariable *v = p;
  g_free (v->name);
  g_clear_pointer (&v->derived, ws_expr_free);
  g_free (v);
}

static void
process_free (gpointer p)
{
  AppProcess *pr = p;
  g_free (pr->label);
  g_clear_pointer (&pr->count, ws_expr_free);
  g_ptr_array_unref (pr->ops);
  g_free (pr);
}

void
ws_app_model_free (WsAppModel *app)
{
  if (app == NULL)
    return;
  g_free (app->name);
  g_clear_pointer (&app->json, json_node_unref);
  g_ptr_array_unref (app->variables);
  g_ptr_array_unref (app->var_names);
  g_ptr_array_unref (app->processes);
  g_free (app);
}

const char *
ws_app_model_get_name (const WsAppModel *app)
{
  return app->name;
}

const char *const *
ws_app_model_get_variables (const WsAppModel *app)
{
  return (const char *const *) app->var_names->pdata;
}

gboolean
ws_app_model_get_default (const WsAppModel *app, const char *name, double *value)
{
  for (guint i = 0; i < app->variables->len; i++)
    {
      AppVariable *v = app->variables->pdata[i];
      if (strcmp (v->name, name) == 0 && v->derived == NULL)
        {
          *value = v->def;
          return TRUE;
        }
    }
  return FALSE;
}

JsonNode *
ws_app_model_to_json (const WsAppModel *app)
{
  return json_node_copy (app->json);
}

static void
collect_traces (GPtrArray *ops, GPtrArray *out)
{
  for (guint i = 0; ops != NULL && i < ops->len; i++)
    {
      AppOp *op = ops->pdata[i];
      if (op->trace != NULL && !g_ptr_array_find_with_equal_func (out, op->trace, g_str_equal, NULL))
        g_ptr_array_add (out, g_strdup (op->trace));
      collect_traces (op->body, out);
      collect_traces (op->else_body, out);
    }
}

char **
ws_app_model_get_traces (const WsAppModel *app)
{
  GPtrArray *out = g_ptr_array_new ();
  for (guint i = 0; i < app->processes->len; i++)
    collect_traces (((AppProcess *) app->processes->pdata[i])->ops, out);
  g_ptr_array_add (out, NULL);
  return (char **) g_ptr_array_free (out, FALSE);
}

/* An expression field: a JSON string (the expression) or a number. */
static gboolean
compile_field (JsonObject *o, const char *member, gboolean required, const char *where, WsExpr **out, GError **error)
{
  *out = NULL;
  JsonNode *n = json_object_get_member (o, member);
  if (n == NULL || JSON_NODE_HOLDS_NULL (n))
    {
      if (required)
        g_set_error (error, WS_ERROR, WS_ERROR_INVALID, "%s: missing field '%s'", where, member);
      return !required;
    }
  g_autofree char *text = NULL;
  if (JSON_NODE_HOLDS_VALUE (n) && json_node_get_value_type (n) == G_TYPE_STRING)
    text = g_strdup (json_node_get_string (n));
  else if (JSON_NODE_HOLDS_VALUE (n)
           && (json_node_get_value_type (n) == G_TYPE_INT64 || json_node_get_value_type (n) == G_TYPE_DOUBLE))
    {
      char buf[G_ASCII_DTOSTR_BUF_SIZE];
      text = g_strdup (g_ascii_dtostr (buf, sizeof buf, json_node_get_double (n)));
    }
  else
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID, "%s: field '%s' must be an expression (a string) or a number",
                   where, member);
      return FALSE;
    }
  *out = ws_expr_parse (text, error);
  if (*out == NULL)
    {
      g_prefix_error (error, "%s, field '%s': ", where, member);
      return FALSE;
    }
  return TRUE;
}

gboolean
ws_app_eval (const WsExpr *e, GHashTable *vars, const char *where, const char *field, double *value, GError **error)
{
  if (!ws_expr_eval_with_table (e, vars, value, error))
    {
      g_prefix_error (error, "%s, field '%s': ", where, field);
      return FALSE;
    }
  if (!isfinite (*value))
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID, "%s, field '%s': '%s' is not a finite number", where, field,
                   ws_expr_get_text (e));
      return FALSE;
    }
  return TRUE;
}

/* A value as a program argument: integral values without decimals. */
static char *
format_arg_value (double v)
{
  if (v == floor (v) && fabs (v) < 1e300)
    return g_strdup_printf ("%.0f", v == 0 ? 0.0 : v);
  return g_strdup_printf ("%.17g", v);
}

/* Expression errors say "column C: …" relative to the expression; make C
 * relative to the whole argument, whose expression starts at @column. */
static void
shift_error_column (GError *error, int column)
{
  if (error == NULL || !g_str_has_prefix (error->message, "column "))
    return;
  char *end = NULL;
  gint64 c = g_ascii_strtoll (error->message + 7, &end, 10);
  if (end == error->message + 7)
    return;
  char *msg = g_strdup_printf ("column %" G_GINT64_FORMAT "%s", c + column - 1, end);
  g_free (error->message);
  error->message = msg;
}

/* "text {EXPR} text": literal pieces and compiled expressions; "{{" and
 * "}}" stand for literal braces. */
static GPtrArray *
compile_arg (JsonNode *n, const char *where, guint index, GError **error)
{
  g_autoptr (GPtrArray) pieces = g_ptr_array_new_with_free_func (arg_piece_free);
  if (JSON_NODE_HOLDS_VALUE (n)
      && (json_node_get_value_type (n) == G_TYPE_INT64 || json_node_get_value_type (n) == G_TYPE_DOUBLE))
    {
      AppArgPiece *piece = g_new0 (AppArgPiece, 1);
      piece->literal = format_arg_value (json_node_get_double (n));
      g_ptr_array_add (pieces, piece);
      return g_steal_pointer (&pieces);
    }
  if (!JSON_NODE_HOLDS_VALUE (n) || json_node_get_value_type (n) != G_TYPE_STRING)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID,
                   "%s, field 'args[%u]': an argument is a string (with {EXPR} parts) or a number", where, index);
      return NULL;
    }
  const char *text = json_node_get_string (n);
  GString *lit = g_string_new (NULL);
  for (const char *p = text; *p;)
    {
      int column = (int) g_utf8_pointer_to_offset (text, p) + 1;
      if ((p[0] == '{' && p[1] == '{') || (p[0] == '}' && p[1] == '}'))
        {
          g_string_append_c (lit, p[0]);
          p += 2;
          continue;
        }
      if (*p == '}')
        {
          g_set_error (error, WS_ERROR, WS_ERROR_PARSE,
                       "%s, field 'args[%u]': column %d: '}' without '{' (write '}}' for a literal brace)", where,
                       index, column);
          g_string_free (lit, TRUE);
          return NULL;
        }
      if (*p != '{')
        {
          g_string_append_c (lit, *p++);
          continue;
        }
      const char *close = strchr (p + 1, '}');
      if (close == NULL)
        {
          g_set_error (error, WS_ERROR, WS_ERROR_PARSE,
                       "%s, field 'args[%u]': column %d: '{' without a closing '}' (write '{{' for a literal brace)",
                       where, index, column);
          g_string_free (lit, TRUE);
          return NULL;
        }
      g_autofree char *expr_text = g_strndup (p + 1, (gsize) (close - p - 1));
      if (lit->len > 0)
        {
          AppArgPiece *piece = g_new0 (AppArgPiece, 1);
          piece->literal = g_strdup (lit->str);
          g_ptr_array_add (pieces, piece);
          g_string_truncate (lit, 0);
        }
      AppArgPiece *piece = g_new0 (AppArgPiece, 1);
      piece->column = column + 1;
      g_ptr_array_add (pieces, piece);
      piece->expr = ws_expr_parse (expr_text, error);
      if (piece->expr == NULL)
        {
          shift_error_column (*error, piece->column);
          g_prefix_error (error, "%s, field 'args[%u]': ", where, index);
          g_string_free (lit, TRUE);
          return NULL;
        }
      p = close + 1;
    }
  if (lit->len > 0 || pieces->len == 0)
    {
      AppArgPiece *piece = g_new0 (AppArgPiece, 1);
      piece->literal = g_strdup (lit->str);
      g_ptr_array_add (pieces, piece);
    }
  g_string_free (lit, TRUE);
  return g_steal_pointer (&pieces);
}

char **
ws_app_op_eval_args (const AppOp *op, GHashTable *vars, GError **error)
{
  guint n = op->args != NULL ? op->args->len : 0;
  g_auto (GStrv) out = g_new0 (char *, n + 1);
  for (guint i = 0; i < n; i++)
    {
      GPtrArray *pieces = op->args->pdata[i];
      GString *s = g_string_new (NULL);
      for (guint j = 0; j < pieces->len; j++)
        {
          AppArgPiece *piece = pieces->pdata[j];
          if (piece->literal != NULL)
            {
              g_string_append (s, piece->literal);
              continue;
            }
          double v;
          if (!ws_expr_eval_with_table (piece->expr, vars, &v, error) || !isfinite (v))
            {
              if (error != NULL && *error == NULL)
                g_set_error (error, WS_ERROR, WS_ERROR_INVALID, "column %d: '%s' is not a finite number", 1,
                             ws_expr_get_text (piece->expr));
              shift_error_column (error != NULL ? *error : NULL, piece->column);
              g_prefix_error (error, "%s, field 'args[%u]': ", op->where, i);
              g_string_free (s, TRUE);
              return NULL;
            }
          g_autofree char *text = format_arg_value (v);
          g_string_append (s, text);
        }
      out[i] = g_string_free (s, FALSE);
    }
  return g_steal_pointer (&out);
}

/* Loops and conditionals inside each other deeper than this are refused. */
#define MAX_OP_NESTING 64

static GPtrArray *ops_from_json (JsonNode *node, const char *app, const char *label, const char *prefix,
                                 const char *field, GError **error);

/* The evaluator's kind of operation @name: its row in the schema, whose
 * order AppOpKind follows; -1 when the schema has no such kind. */
static int
op_kind_of (const char *name)
{
  guint n;
  const WsAppOpKind *kinds = ws_app_schema_op_kinds (&n);

  g_assert (n == APP_OP_IF + 1 && strcmp (kinds[APP_OP_KERNEL].name, "kernel") == 0
            && strcmp (kinds[APP_OP_IF].name, "if") == 0);
  for (guint i = 0; i < n; i++)
    if (strcmp (kinds[i].name, name) == 0)
      return (int) i;
  return -1;
}

/* Where the evaluator keeps a schema field of an operation: a WsExpr * for
 * an EXPR field, a char * for the others.  A field the schema gains needs
 * its place here (and its meaning in ws-system-eval.c); reading a record
 * with a field that has none stops at the assertion in read_field, which
 * tests/system/test-app-schema.c reaches for every row. */
static gpointer
field_slot (AppOp *op, const char *key)
{
  static const struct {
    const char *key;
    gsize offset;
  } slots[] = {
    { "bytes", G_STRUCT_OFFSET (AppOp, bytes) },     { "device", G_STRUCT_OFFSET (AppOp, device) },
    { "seconds", G_STRUCT_OFFSET (AppOp, seconds) }, { "operations", G_STRUCT_OFFSET (AppOp, operations) },
    { "rank", G_STRUCT_OFFSET (AppOp, peer_rank) },  { "launch", G_STRUCT_OFFSET (AppOp, launch) },
    { "count", G_STRUCT_OFFSET (AppOp, count) },     { "condition", G_STRUCT_OFFSET (AppOp, cond) },
    { "name", G_STRUCT_OFFSET (AppOp, name) },       { "variable", G_STRUCT_OFFSET (AppOp, loop_var) },
    { "to", G_STRUCT_OFFSET (AppOp, peer) },         { "from", G_STRUCT_OFFSET (AppOp, peer) },
    { "trace", G_STRUCT_OFFSET (AppOp, trace) },     { "program", G_STRUCT_OFFSET (AppOp, program) },
  };
  for (guint i = 0; i < G_N_ELEMENTS (slots); i++)
    if (strcmp (slots[i].key, key) == 0)
      return G_STRUCT_MEMBER_P (op, slots[i].offset);
  return NULL;
}

/* One field of the operation's record (not of a member object), by its
 * schema row. */
static gboolean
read_field (JsonObject *o, const WsAppField *f, AppOp *op, GError **error)
{
  const char *w = op->where;

  switch (f->type)
    {
    case WS_APP_FIELD_EXPR:
      {
        WsExpr **slot = field_slot (op, f->key);
        g_assert (slot != NULL);
        return compile_field (o, f->key, f->required, w, slot, error);
      }
    case WS_APP_FIELD_TEXT:
    case WS_APP_FIELD_IDENT:
      {
        /* Descriptive: a value that is not a string is ignored, as it
         * always was (a kernel's name, a loop's variable). */
        char **slot = field_slot (op, f->key);
        g_assert (slot != NULL);
        *slot = g_strdup (ws_json_get_string (o, f->key, FALSE, w, NULL));
        return TRUE;
      }
    case WS_APP_FIELD_LABEL:
    case WS_APP_FIELD_TRACE:
    case WS_APP_FIELD_PROGRAM:
      {
        char **slot = field_slot (op, f->key);
        GError *local = NULL;
        const char *text = ws_json_get_string (o, f->key, f->required, w, &local);

        g_assert (slot != NULL);
        if (local != NULL)
          {
            g_propagate_error (error, local);
            return FALSE;
          }
        if (f->type == WS_APP_FIELD_PROGRAM && text != NULL && *text == '\0')
          {
            g_set_error (error, WS_ERROR, WS_ERROR_INVALID, "%s: '%s' is empty", w, f->key);
            return FALSE;
          }
        *slot = g_strdup (text);
        return TRUE;
      }
    case WS_APP_FIELD_LABELS:
      {
        JsonNode *ln = json_object_get_member (o, f->key);
        if (ln == NULL)
          return TRUE;
        if (!JSON_NODE_HOLDS_ARRAY (ln))
          {
            g_set_error (error, WS_ERROR, WS_ERROR_INVALID, "%s: '%s' must be an array of label names", w, f->key);
            return FALSE;
          }
        JsonArray *a = json_node_get_array (ln);
        GPtrArray *labels = g_ptr_array_new ();
        for (guint i = 0; i < json_array_get_length (a); i++)
          {
            const char *s = json_array_get_string_element (a, i);
            if (s != NULL)
              g_ptr_array_add (labels, g_strdup (s));
          }
        g_ptr_array_add (labels, NULL);
        op->barrier_labels = (char **) g_ptr_array_free (labels, FALSE);
        return TRUE;
      }
    case WS_APP_FIELD_ARGS:
      {
        JsonNode *args = json_object_get_member (o, f->key);
        op->args = g_ptr_array_new_with_free_func ((GDestroyNotify) g_ptr_array_unref);
        if (args != NULL && !JSON_NODE_HOLDS_ARRAY (args))
          {
            g_set_error (error, WS_ERROR, WS_ERROR_INVALID,
                         "%s: '%s' must be an array of strings (with {EXPR} parts) or numbers", w, f->key);
            return FALSE;
          }
        JsonArray *aa = args != NULL ? json_node_get_array (args) : NULL;
        for (guint i = 0; aa != NULL && i < json_array_get_length (aa); i++)
          {
            GPtrArray *pieces = compile_arg (json_array_get_element (aa, i), w, i, error);
            if (pieces == NULL)
              return FALSE;
            g_ptr_array_add (op->args, pieces);
          }
        return TRUE;
      }
    }
  g_assert_not_reached ();
}

/* A kernel's "analytic" object: core/predict's parameters as expressions. */
static gboolean
read_analytic (JsonObject *o, AppOp *op, GError **error)
{
  const char *w = op->where;
  JsonNode *an = json_object_get_member (o, "analytic");
  guint n_fields, n_params;
  const WsAppField *fields = ws_app_schema_fields ("kernel", WS_APP_KERNEL_ANALYTIC, &n_fields);
  const WsAnalyticParam *params = ws_analytic_params (&n_params);

  if (!JSON_NODE_HOLDS_OBJECT (an))
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID, "%s: 'analytic' must be an object of expressions", w);
      return FALSE;
    }
  JsonObject *ao = json_node_get_object (an);
  g_autofree const char **members = ws_app_schema_object_members ("kernel", WS_APP_KERNEL_ANALYTIC, "analytic");
  if (!ws_json_check_members (ao, members, w, error))
    return FALSE;
  op->analytic = g_new0 (WsExpr *, n_params);
  for (guint i = 0; i < n_fields; i++)
    if (g_strcmp0 (fields[i].object, "analytic") == 0)
      {
        const WsAnalyticParam *param = ws_analytic_param_find (fields[i].key);
        g_assert (param != NULL);
        if (!compile_field (ao, fields[i].key, fields[i].required, w, &op->analytic[param - params], error))
          return FALSE;
      }
  return TRUE;
}

/* Which kind a kernel record is: it has exactly one kind's marker member. */
static gboolean
kernel_kind_of (JsonObject *o, const char *w, WsAppKernelKind *out, GError **error)
{
  guint n, found = 0;
  const WsAppKernelKindInfo *kinds = ws_app_schema_kernel_kinds (&n);

  for (guint i = 0; i < n; i++)
    if (json_object_has_member (o, kinds[i].marker))
      {
        *out = kinds[i].kind;
        found++;
      }
  if (found != 1)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID,
                   "%s: a kernel has exactly one of 'analytic' (explicit parameters), 'trace' (a profiled "
                   "kernel) or 'program' with 'args' (profiled on demand for each argument list)",
                   w);
      return FALSE;
    }
  if (*out != WS_APP_KERNEL_PROGRAM && json_object_has_member (o, "args"))
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID, "%s: 'args' goes with 'program'", w);
      return FALSE;
    }
  return TRUE;
}

/* Reads one operation by the schema (ws-app-schema.c): its members, its
 * fields by type, its nested lists; then the rules that tie fields
 * together. */
static AppOp *
op_from_json (JsonNode *node, const char *app, const char *label, const char *number, GError **error)
{
  g_autofree char *where0 = g_strdup_printf ("application '%s', label '%s', operation %s", app, label, number);
  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID, "%s: an operation is a JSON object", where0);
      return NULL;
    }
  JsonObject *o = json_node_get_object (node);
  const char *kind = ws_json_get_string (o, "op", TRUE, where0, error);
  if (kind == NULL)
    return NULL;
  int k = op_kind_of (kind);
  if (k < 0)
    {
      const char *const *names = ws_app_schema_op_names ();
      g_autofree char *close = ws_suggest_names (kind, names, 2);
      g_autofree char *all = g_strjoinv (", ", (char **) names);
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID, "%s: unknown operation '%s'%s%s%s (operations: %s)", where0, kind,
                   close ? " (did you mean " : "", close ? close : "", close ? "?)" : "", all);
      return NULL;
    }
  const WsAppOpKind *info = ws_app_schema_op_kind_find (kind);
  g_autoptr (GPtrArray) holder = g_ptr_array_new_with_free_func (op_free);
  AppOp *op = g_new0 (AppOp, 1);
  g_ptr_array_add (holder, op);
  op->kind = k;
  op->where = g_strdup_printf ("%s (%s)", where0, kind);
  const char *w = op->where;
  g_autofree const char **allowed = ws_app_schema_members (kind);
  if (!ws_json_check_members (o, allowed, w, error))
    return NULL;

  WsAppKernelKind kernel = WS_APP_KERNEL_ANALYTIC;
  if (op->kind == APP_OP_KERNEL && !kernel_kind_of (o, w, &kernel, error))
    return NULL;
  guint n;
  const WsAppField *fields = ws_app_schema_fields (kind, kernel, &n);
  for (guint i = 0; i < n; i++)
    if (fields[i].object == NULL && !read_field (o, &fields[i], op, error))
      return NULL;
  if (op->kind == APP_OP_KERNEL && kernel == WS_APP_KERNEL_ANALYTIC && !read_analytic (o, op, error))
    return NULL;
  if (info->body != NULL)
    {
      op->body = ops_from_json (json_object_get_member (o, info->body), app, label, number, info->body, error);
      if (op->body == NULL)
        return NULL;
    }
  if (info->else_body != NULL && json_object_has_member (o, info->else_body))
    {
      g_autofree char *p = g_strconcat (number, "e", NULL);
      op->else_body = ops_from_json (json_object_get_member (o, info->else_body), app, label, p, info->else_body,
                                     error);
      if (op->else_body == NULL)
        return NULL;
    }

  if (op->kind == APP_OP_HOST && (op->seconds == NULL) == (op->operations == NULL))
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID,
                   "%s: host computation gives either 'seconds' or 'operations' (at the CPU's rate)", w);
      return NULL;
    }
  return g_ptr_array_steal_index (holder, 0);
}

static GPtrArray *
ops_from_json (JsonNode *node, const char *app, const char *label, const char *prefix, const char *field,
               GError **error)
{
  if (node == NULL || !JSON_NODE_HOLDS_ARRAY (node))
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID,
                   "application '%s', label '%s'%s%s: '%s' must be an array of operations", app, label,
                   prefix ? ", operation " : "", prefix ? prefix : "", field);
      return NULL;
    }
  /* @prefix numbers the enclosing operations ("2.1.3"): one more level per
   * '.'.  Reading, storing and evaluating recurse once a level. */
  guint level = 0;
  for (const char *p = prefix; p != NULL && *p != '\0'; p++)
    level += *p == '.';
  if (prefix != NULL && level + 1 >= MAX_OP_NESTING)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID,
                   "application '%s', label '%s', operation %s: loops and "
                   "conditionals nest more than %d levels deep here; flatten the model (a loop's count can "
                   "multiply)",
                   app, label, prefix, MAX_OP_NESTING);
      return NULL;
    }
  JsonArray *a = json_node_get_array (node);
  g_autoptr (GPtrArray) ops = g_ptr_array_new_with_free_func (op_free);
  for (guint i = 0; i < json_array_get_length (a); i++)
    {
      g_autofree char *number = prefix ? g_strdup_printf ("%s.%u", prefix, i + 1) : g_strdup_printf ("%u", i + 1);
      AppOp *op = op_from_json (json_array_get_element (a, i), app, label, number, error);
      if (op == NULL)
        return NULL;
      g_ptr_array_add (ops, op);
    }
  return g_steal_pointer (&ops);
}

WsAppModel *
ws_app_model_from_json (JsonNode *node, GError **error)
{
  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID, "an application model must be a JSON object");
      return NULL;
    }
  JsonObject *o = json_node_get_object (node);
  static const char *const allowed[] = { "kind", "name", "description", "variables", "processes", NULL };
  if (!ws_json_check_members (o, allowed, "application model", error))
    return NULL;
  const char *kind = ws_json_get_string (o, "kind", FALSE, "application model", error);
  if (kind != NULL && strcmp (kind, "application") != 0)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID, "application model: \"kind\" is '%s', expected \"application\"",
                   kind);
      return NULL;
    }
  const char *name = ws_json_get_string (o, "name", TRUE, "application model", error);
  if (name == NULL)
    return NULL;
  g_autoptr (WsAppModel) app = g_new0 (WsAppModel, 1);
  app->name = g_strdup (name);
  app->json = json_node_copy (node);
  app->variables = g_ptr_array_new_with_free_func (variable_free);
  app->var_names = g_ptr_array_new ();
  app->processes = g_ptr_array_new_with_free_func (process_free);

  JsonNode *vars = json_object_get_member (o, "variables");
  if (vars != NULL)
    {
      if (!JSON_NODE_HOLDS_ARRAY (vars))
        {
          g_set_error (error, WS_ERROR, WS_ERROR_INVALID, "application '%s': 'variables' must be an array", name);
          return NULL;
        }
      JsonArray *a = json_node_get_array (vars);
      for (guint i = 0; i < json_array_get_length (a); i++)
        {
          g_autofree char *where = g_strdup_printf ("application '%s', variable %u", name, i + 1);
          JsonNode *vn = json_array_get_element (a, i);
          if (!JSON_NODE_HOLDS_OBJECT (vn))
            {
              g_set_error (error, WS_ERROR, WS_ERROR_INVALID, "%s: must be an object", where);
              return NULL;
            }
          JsonObject *vo = json_node_get_object (vn);
          static const char *const vallowed[] = { "name", "default", "expression", "description", NULL };
          if (!ws_json_check_members (vo, vallowed, where, error))
            return NULL;
          const char *vname = ws_json_get_string (vo, "name", TRUE, where, error);
          if (vname == NULL)
            return NULL;
          if (!ws_expr_is_identifier (vname))
            {
              g_set_error (error, WS_ERROR, WS_ERROR_INVALID, "%s: '%s' is not a valid variable name", where, vname);
              return NULL;
            }
          if (g_ptr_array_find_with_equal_func (app->var_names, vname, g_str_equal, NULL))
            {
              g_set_error (error, WS_ERROR, WS_ERROR_INVALID, "%s: variable '%s' is defined twice", where, vname);
              return NULL;
            }
          g_free (where);
          where = g_strdup_printf ("application '%s', variable '%s'", name, vname);
          AppVariable *v = g_new0 (AppVariable, 1);
          v->name = g_strdup (vname);
          g_ptr_array_add (app->variables, v);
          g_ptr_array_add (app->var_names, v->name);
          gboolean has_def = json_object_has_member (vo, "default");
          gboolean has_expr = json_object_has_member (vo, "expression");
          if (has_def == has_expr)
            {
              g_set_error (error, WS_ERROR, WS_ERROR_INVALID,
                           "%s: give either 'default' (an input) or 'expression' (a derived value)", where);
              return NULL;
            }
          if (has_def && !ws_json_get_number (vo, "default", &v->def, where, error))
            return NULL;
          if (has_expr && !compile_field (vo, "expression", TRUE, where, &v->derived, error))
            return NULL;
        }
    }
  g_ptr_array_add (app->var_names, NULL);

  JsonNode *procs = json_object_get_member (o, "processes");
  if (procs == NULL || !JSON_NODE_HOLDS_ARRAY (procs) || json_array_get_length (json_node_get_array (procs)) == 0)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID,
                   "application '%s': 'processes' must be a non-empty array of {\"label\", \"count\", \"operations\"}",
                   name);
      return NULL;
    }
  JsonArray *pa = json_node_get_array (procs);
  for (guint i = 0; i < json_array_get_length (pa); i++)
    {
      g_autofree char *where = g_strdup_printf ("application '%s', process %u", name, i + 1);
      JsonNode *pn = json_array_get_element (pa, i);
      if (!JSON_NODE_HOLDS_OBJECT (pn))
        {
          g_set_error (error, WS_ERROR, WS_ERROR_INVALID, "%s: must be an object", where);
          return NULL;
        }
      JsonObject *po = json_node_get_object (pn);
      static const char *const pallowed[] = { "label", "count", "operations", NULL };
      if (!ws_json_check_members (po, pallowed, where, error))
        return NULL;
      const char *label = ws_json_get_string (po, "label", TRUE, where, error);
      if (label == NULL)
        return NULL;
      for (guint j = 0; j < app->processes->len; j++)
        if (strcmp (((AppProcess *) app->processes->pdata[j])->label, label) == 0)
          {
            g_set_error (error, WS_ERROR, WS_ERROR_INVALID,
                         "application '%s': label '%s' has two process entries; merge them", name, label);
            return NULL;
          }
      g_free (where);
      where = g_strdup_printf ("application '%s', label '%s'", name, label);
      AppProcess *pr = g_new0 (AppProcess, 1);
      pr->label = g_strdup (label);
      pr->ops = g_ptr_array_new_with_free_func (op_free);
      g_ptr_array_add (app->processes, pr);
      if (!compile_field (po, "count", FALSE, where, &pr->count, error))
        return NULL;
      g_ptr_array_unref (pr->ops);
      pr->ops = ops_from_json (json_object_get_member (po, "operations"), name, label, NULL, "operations", error);
      if (pr->ops == NULL)
        {
          pr->ops = g_ptr_array_new ();
          return NULL;
        }
    }
  return g_steal_pointer (&app);
}

gboolean
ws_app_bind_variables (const WsAppModel *app, GHashTable *overrides, GHashTable *vars, GError **error)
{
  if (overrides != NULL)
    {
      GHashTableIter it;
      gpointer key;
      g_hash_table_iter_init (&it, overrides);
      while (g_hash_table_iter_next (&it, &key, NULL))
        {
          AppVariable *found = NULL;
          for (guint i = 0; i < app->variables->len; i++)
            if (strcmp (((AppVariable *) app->variables->pdata[i])->name, key) == 0)
              found = app->variables->pdata[i];
          if (found == NULL)
            {
              g_autofree char *close = ws_suggest_names (key, ws_app_model_get_variables (app), 2);
              g_set_error (error, WS_ERROR, WS_ERROR_INVALID, "application '%s' has no variable '%s'%s%s%s", app->name,
                           (const char *) key, close ? " (did you mean " : "", close ? close : "", close ? "?)" : "");
              return FALSE;
            }
          if (found->derived != NULL)
            {
              g_set_error (error, WS_ERROR, WS_ERROR_INVALID,
                           "application '%s': variable '%s' is derived ('%s') and cannot be set", app->name,
                           found->name, ws_expr_get_text (found->derived));
              return FALSE;
            }
        }
    }
  /* In order, so a derived variable sees the ones defined before it. */
  for (guint i = 0; i < app->variables->len; i++)
    {
      AppVariable *v = app->variables->pdata[i];
      double *value = g_new (double, 1);
      double *over = overrides ? g_hash_table_lookup (overrides, v->name) : NULL;
      *value = over ? *over : v->def;
      if (v->derived != NULL)
        {
          g_autofree char *where = g_strdup_printf ("application '%s', variable '%s'", app->name, v->name);
          if (!ws_app_eval (v->derived, vars, where, "expression", value, error))
            {
              g_free (value);
              return FALSE;
            }
        }
      g_hash_table_insert (vars, g_strdup (v->name), value);
    }
  return TRUE;
}
