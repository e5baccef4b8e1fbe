/* ws-expr.c: a recursive-descent parser to a small tree, evaluated directly.
 *
 * Both recursions are bounded, so no text can exhaust the stack of the
 * thread that parses or evaluates it (a sweep's worker threads included):
 * the parser refuses nesting deeper than WS_EXPR_MAX_DEPTH, and a run of
 * left-associative operators of one precedence level (a 20 000-term sum)
 * becomes one N_CHAIN node evaluated in a loop instead of a left-deep tree. */
#include "expr/ws-expr.h"

#include <math.h>
#include <string.h>

/* clang-format off */
typedef enum {
  N_NUM, N_VAR, N_NEG, N_NOT, N_BIN, N_CHAIN, N_COND, N_CALL,
} NodeKind;
/* clang-format on */

/* clang-format off */
typedef enum {
  OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_MOD, OP_POW,
  OP_LT, OP_LE, OP_GT, OP_GE, OP_EQ, OP_NE, OP_AND, OP_OR,
} BinOp;
/* clang-format on */

/* clang-format off */
typedef enum {
  F_MIN, F_MAX, F_CEIL, F_FLOOR, F_ROUND, F_ABS, F_SQRT, F_LOG2, F_LOG, F_EXP, F_POW,
} Func;
/* clang-format on */

static const struct {
  const char *name;
  int min_args, max_args; /* -1: any number */
} funcs[] = {
  [F_MIN] = { "min", 1, -1 },    [F_MAX] = { "max", 1, -1 }, [F_CEIL] = { "ceil", 1, 1 }, [F_FLOOR] = { "floor", 1, 1 },
  [F_ROUND] = { "round", 1, 1 }, [F_ABS] = { "abs", 1, 1 },  [F_SQRT] = { "sqrt", 1, 1 }, [F_LOG2] = { "log2", 1, 1 },
  [F_LOG] = { "log", 1, 1 },     [F_EXP] = { "exp", 1, 1 },  [F_POW] = { "pow", 2, 2 },
};

typedef struct Node Node;
struct Node {
  NodeKind kind;
  int column;
  double num; /* N_NUM */
  guint var;  /* N_VAR: index into variables */
  int op;     /* N_BIN: BinOp, N_CALL: Func */
  guint n_kids;
  Node **kids;
  /* N_CHAIN: kids[0] ops[1] kids[1] ops[2] kids[2] ..., left to right;
   * ops[i] and op_columns[i] belong to the operator before kids[i]. */
  guint8 *ops;
  int *op_columns;
};

struct _WsExpr {
  char *text;
  Node *root;
  GPtrArray *variables; /* char*, NULL-terminated */
};

typedef struct {
  const char *text;
  const char *p;
  WsExpr *expr;
  GError **error;
  guint depth; /* nesting of parse_unary, through which every recursion passes */
} Parser;

static void
node_free (Node *n)
{
  if (n == NULL)
    return;
  for (guint i = 0; i < n->n_kids; i++)
    node_free (n->kids[i]);
  g_free (n->kids);
  g_free (n->ops);
  g_free (n->op_columns);
  g_free (n);
}

static Node *
node_new (NodeKind kind, int column, guint n_kids)
{
  Node *n = g_new0 (Node, 1);
  n->kind = kind;
  n->column = column;
  n->n_kids = n_kids;
  if (n_kids > 0)
    n->kids = g_new0 (Node *, n_kids);
  return n;
}

static int
column_of (Parser *ps, const char *at)
{
  return (int) (at - ps->text) + 1;
}

static void
skip_space (Parser *ps)
{
  while (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\n' || *ps->p == '\r')
    ps->p++;
}

static Node *fail (Parser *ps, const char *at, const char *fmt, ...) G_GNUC_PRINTF (3, 4);

static Node *
fail (Parser *ps, const char *at, const char *fmt, ...)
{
  if (ps->error != NULL && *ps->error != NULL)
    return NULL;
  va_list ap;
  va_start (ap, fmt);
  g_autofree char *msg = g_strdup_vprintf (fmt, ap);
  va_end (ap);
  g_set_error (ps->error, WS_ERROR, WS_ERROR_PARSE, "column %d: %s", column_of (ps, at), msg);
  return NULL;
}

static const char *
describe_here (Parser *ps)
{
  static __thread char buf[32];
  if (*ps->p == '\0')
    return "the end";
  g_snprintf (buf, sizeof buf, "'%c'", *ps->p);
  return buf;
}

static Node *parse_cond (Parser *ps);

static guint
intern_variable (WsExpr *e, const char *name, gsize len)
{
  for (guint i = 0; i + 1 < e->variables->len; i++)
    if (strlen (e->variables->pdata[i]) == len && strncmp (e->variables->pdata[i], name, len) == 0)
      return i;
  g_ptr_array_insert (e->variables, e->variables->len - 1, g_strndup (name, len));
  return e->variables->len - 2;
}

static Node *
parse_primary (Parser *ps)
{
  skip_space (ps);
  const char *start = ps->p;
  if (g_ascii_isdigit (*ps->p) || (*ps->p == '.' && g_ascii_isdigit (ps->p[1])))
    {
      char *end = NULL;
      double v;
      if (ps->p[0] == '0' && (ps->p[1] == 'x' || ps->p[1] == 'X'))
        {
          v = (double) g_ascii_strtoull (ps->p + 2, &end, 16);
          if (end == ps->p + 2)
            return fail (ps, start, "malformed hexadecimal number");
        }
      else
        v = g_ascii_strtod (ps->p, &end);
      if (end == ps->p)
        return fail (ps, start, "malformed number");
      ps->p = end;
      if (g_ascii_isalpha (*ps->p) || *ps->p == '_')
        return fail (ps, ps->p, "unexpected '%c' after the number", *ps->p);
      Node *n = node_new (N_NUM, column_of (ps, start), 0);
      n->num = v;
      return n;
    }
  if (g_ascii_isalpha (*ps->p) || *ps->p == '_')
    {
      while (g_ascii_isalnum (*ps->p) || *ps->p == '_')
        ps->p++;
      gsize len = ps->p - start;
      skip_space (ps);
      if (*ps->p == '(')
        {
          int f = -1;
          for (guint i = 0; i < G_N_ELEMENTS (funcs); i++)
            if (strlen (funcs[i].name) == len && strncmp (funcs[i].name, start, len) == 0)
              f = (int) i;
          if (f < 0)
            return fail (ps, start,
                         "unknown function '%.*s' (functions: min, max, ceil, floor, round, abs, "
                         "sqrt, log2, log, exp, pow)",
                         (int) len, start);
          ps->p++;
          g_autoptr (GPtrArray) args = g_ptr_array_new_with_free_func ((GDestroyNotify) node_free);
          skip_space (ps);
          if (*ps->p != ')')
            for (;;)
              {
                Node *a = parse_cond (ps);
                if (a == NULL)
                  return NULL;
                g_ptr_array_add (args, a);
                skip_space (ps);
                if (*ps->p == ',')
                  {
                    ps->p++;
                    continue;
                  }
                if (*ps->p == ')')
                  break;
                return fail (ps, ps->p, "expected ',' or ')' in the arguments of %s, found %s", funcs[f].name,
                             describe_here (ps));
              }
          ps->p++;
          if ((int) args->len < funcs[f].min_args || (funcs[f].max_args >= 0 && (int) args->len > funcs[f].max_args))
            return fail (ps, start, "%s takes %s%d argument%s, not %u", funcs[f].name,
                         funcs[f].max_args < 0 ? "at least " : "", funcs[f].min_args, funcs[f].min_args == 1 ? "" : "s",
                         args->len);
          Node *n = node_new (N_CALL, column_of (ps, start), args->len);
          n->op = f;
          for (guint i = 0; i < args->len; i++)
            n->kids[i] = g_steal_pointer (&args->pdata[i]);
          return n;
        }
      Node *n = node_new (N_VAR, column_of (ps, start), 0);
      n->var = intern_variable (ps->expr, start, len);
      return n;
    }
  if (*ps->p == '(')
    {
      ps->p++;
      Node *n = parse_cond (ps);
      if (n == NULL)
        return NULL;
      skip_space (ps);
      if (*ps->p != ')')
        {
          node_free (n);
          return fail (ps, ps->p, "expected ')' to close the '(' at column %d, found %s", column_of (ps, start),
                       describe_here (ps));
        }
      ps->p++;
      return n;
    }
  return fail (ps, ps->p, "expected a number, a variable, a function or '(', found %s", describe_here (ps));
}

/* Every recursion of the grammar (parentheses, arguments, prefix operators,
 * '^' and '?:') enters here first, so the count bounds both the stack the
 * parser uses and the depth of the tree it builds. */
static gboolean
enter (Parser *ps, const char *at)
{
  if (ps->depth >= WS_EXPR_MAX_DEPTH)
    {
      fail (ps, at,
            "the expression nests deeper than %d levels (parentheses, function calls, prefix operators, "
            "'^' and '?:' count); split it with derived variables",
            WS_EXPR_MAX_DEPTH);
      return FALSE;
    }
  ps->depth++;
  return TRUE;
}

static Node *
parse_unary (Parser *ps)
{
  skip_space (ps);
  const char *at = ps->p;
  if (!enter (ps, at))
    return NULL;
  Node *result;
  if (*ps->p == '-' || *ps->p == '!' || *ps->p == '+')
    {
      char c = *ps->p++;
      Node *k = parse_unary (ps);
      if (k == NULL || c == '+')
        result = k;
      else
        {
          result = node_new (c == '-' ? N_NEG : N_NOT, column_of (ps, at), 1);
          result->kids[0] = k;
        }
    }
  else
    result = parse_primary (ps);
  ps->depth--;
  return result;
}

static Node *
binary (int op, Node *a, Node *b, int column)
{
  Node *n = node_new (N_BIN, column, 2);
  n->op = op;
  n->kids[0] = a;
  n->kids[1] = b;
  return n;
}

static Node *
parse_power (Parser *ps)
{
  Node *base = parse_unary (ps);
  if (base == NULL)
    return NULL;
  skip_space (ps);
  if (*ps->p == '^')
    {
      const char *at = ps->p++;
      if (!enter (ps, at))
        {
          node_free (base);
          return NULL;
        }
      Node *exp = parse_power (ps); /* right-associative */
      ps->depth--;
      if (exp == NULL)
        {
          node_free (base);
          return NULL;
        }
      return binary (OP_POW, base, exp, column_of (ps, at));
    }
  return base;
}

/* One precedence level of left-associative binary operators. */
typedef Node *(*ParseFn) (Parser *ps);

static Node *
parse_level (Parser *ps, ParseFn next, const char *const *tokens, const int *ops)
{
  Node *first = next (ps);
  if (first == NULL)
    return NULL;
  /* Operands and operators of the level are collected in arrays: one chain
   * node however long the run is (see the comment at the top). */
  g_autoptr (GPtrArray) kids = NULL;
  g_autoptr (GArray) kid_ops = NULL, columns = NULL;
  for (;;)
    {
      skip_space (ps);
      int found = -1;
      gsize len = 0;
      for (guint i = 0; tokens[i] != NULL; i++)
        {
          gsize l = strlen (tokens[i]);
          if (strncmp (ps->p, tokens[i], l) == 0 && l > len)
            {
              found = (int) i;
              len = l;
            }
        }
      /* '<' must not swallow the first character of '<=' etc.; handled by
       * longest match above.  A lone '=' or '&'/'|' is a mistake. */
      if (found < 0)
        break;
      const char *at = ps->p;
      ps->p += len;
      Node *right = next (ps);
      if (right == NULL)
        {
          node_free (first);
          return NULL;
        }
      if (kids == NULL)
        {
          kids = g_ptr_array_new_with_free_func ((GDestroyNotify) node_free);
          kid_ops = g_array_new (FALSE, FALSE, sizeof (guint8));
          columns = g_array_new (FALSE, FALSE, sizeof (int));
          guint8 none = 0;
          int zero = 0;
          g_ptr_array_add (kids, first);
          g_array_append_val (kid_ops, none);
          g_array_append_val (columns, zero);
          first = NULL;
        }
      guint8 op = (guint8) ops[found];
      int column = column_of (ps, at);
      g_ptr_array_add (kids, right);
      g_array_append_val (kid_ops, op);
      g_array_append_val (columns, column);
    }
  if (kids == NULL)
    return first;
  if (kids->len == 2)
    {
      int column = g_array_index (columns, int, 1);
      int op = g_array_index (kid_ops, guint8, 1);
      Node *a = g_steal_pointer (&kids->pdata[0]), *b = g_steal_pointer (&kids->pdata[1]);
      return binary (op, a, b, column);
    }
  Node *n = node_new (N_CHAIN, g_array_index (columns, int, 1), kids->len);
  for (guint i = 0; i < kids->len; i++)
    n->kids[i] = g_steal_pointer (&kids->pdata[i]);
  n->ops = (guint8 *) g_array_free (g_steal_pointer (&kid_ops), FALSE);
  n->op_columns = (int *) g_array_free (g_steal_pointer (&columns), FALSE);
  return n;
}

static Node *
parse_mul (Parser *ps)
{
  static const char *const t[] = { "*", "/", "%", NULL };
  static const int o[] = { OP_MUL, OP_DIV, OP_MOD };
  return parse_level (ps, parse_power, t, o);
}

static Node *
parse_add (Parser *ps)
{
  static const char *const t[] = { "+", "-", NULL };
  static const int o[] = { OP_ADD, OP_SUB };
  return parse_level (ps, parse_mul, t, o);
}

static Node *
parse_rel (Parser *ps)
{
  static const char *const t[] = { "<", "<=", ">", ">=", NULL };
  static const int o[] = { OP_LT, OP_LE, OP_GT, OP_GE };
  return parse_level (ps, parse_add, t, o);
}

static Node *
parse_eq (Parser *ps)
{
  static const char *const t[] = { "==", "!=", NULL };
  static const int o[] = { OP_EQ, OP_NE };
  return parse_level (ps, parse_rel, t, o);
}

static Node *
parse_and (Parser *ps)
{
  static const char *const t[] = { "&&", NULL };
  static const int o[] = { OP_AND };
  return parse_level (ps, parse_eq, t, o);
}

static Node *
parse_or (Parser *ps)
{
  static const char *const t[] = { "||", NULL };
  static const int o[] = { OP_OR };
  return parse_level (ps, parse_and, t, o);
}

static Node *
parse_cond (Parser *ps)
{
  Node *c = parse_or (ps);
  if (c == NULL)
    return NULL;
  skip_space (ps);
  if (*ps->p != '?')
    return c;
  const char *at = ps->p++;
  if (!enter (ps, at))
    {
      node_free (c);
      return NULL;
    }
  Node *a = parse_cond (ps);
  if (a == NULL)
    {
      ps->depth--;
      node_free (c);
      return NULL;
    }
  skip_space (ps);
  if (*ps->p != ':')
    {
      ps->depth--;
      node_free (c);
      node_free (a);
      return fail (ps, ps->p, "expected ':' of the '?' at column %d, found %s", column_of (ps, at), describe_here (ps));
    }
  ps->p++;
  Node *b = parse_cond (ps);
  ps->depth--;
  if (b == NULL)
    {
      node_free (c);
      node_free (a);
      return NULL;
    }
  Node *n = node_new (N_COND, column_of (ps, at), 3);
  n->kids[0] = c;
  n->kids[1] = a;
  n->kids[2] = b;
  return n;
}

WsExpr *
ws_expr_parse (const char *text, GError **error)
{
  g_return_val_if_fail (text != NULL, NULL);
  WsExpr *e = g_new0 (WsExpr, 1);
  e->text = g_strdup (text);
  e->variables = g_ptr_array_new_with_free_func (g_free);
  g_ptr_array_add (e->variables, NULL);
  Parser ps = { e->text, e->text, e, error };
  skip_space (&ps);
  if (*ps.p == '\0')
    {
      fail (&ps, ps.p, "the expression is empty");
      ws_expr_free (e);
      return NULL;
    }
  e->root = parse_cond (&ps);
  if (e->root != NULL)
    {
      skip_space (&ps);
      if (*ps.p != '\0')
        {
          const char *hint = "";
          if (*ps.p == '=')
            hint = " (use '==' to compare)";
          else if (*ps.p == '&' || *ps.p == '|')
            hint = " (use '&&' or '||')";
          fail (&ps, ps.p, "unexpected %s after the expression%s", describe_here (&ps), hint);
          node_free (e->root);
          e->root = NULL;
        }
    }
  if (e->root == NULL)
    {
      ws_expr_free (e);
      return NULL;
    }
  return e;
}

void
ws_expr_free (WsExpr *e)
{
  if (e == NULL)
    return;
  node_free (e->root);
  g_ptr_array_unref (e->variables);
  g_free (e->text);
  g_free (e);
}

const char *
ws_expr_get_text (const WsExpr *e)
{
  return e->text;
}

const char *const *
ws_expr_get_variables (const WsExpr *e)
{
  return (const char *const *) e->variables->pdata;
}

typedef struct {
  const WsExpr *expr;
  WsExprLookup lookup;
  gpointer data;
  GError **error;
  double *cache; /* per variable, looked up once */
  gboolean *cached;
} Eval;

static gboolean
domain_error (Eval *ev, int column, const char *what)
{
  g_set_error (ev->error, WS_ERROR, WS_ERROR_INVALID, "column %d: %s in '%s'", column, what, ev->expr->text);
  return FALSE;
}

/* @op applied to @a and @b (the operator at @column). */
static gboolean
apply_binary (Eval *ev, int op, int column, double a, double b, double *out)
{
  switch (op)
    {
    case OP_ADD: *out = a + b; break;
    case OP_SUB: *out = a - b; break;
    case OP_MUL: *out = a * b; break;
    case OP_DIV:
      if (b == 0)
        return domain_error (ev, column, "division by zero");
      *out = a / b;
      break;
    case OP_MOD:
      if (b == 0)
        return domain_error (ev, column, "remainder of a division by zero");
      *out = fmod (a, b);
      break;
    case OP_POW: *out = pow (a, b); break;
    case OP_LT: *out = a < b; break;
    case OP_LE: *out = a <= b; break;
    case OP_GT: *out = a > b; break;
    case OP_GE: *out = a >= b; break;
    case OP_EQ: *out = a == b; break;
    case OP_NE: *out = a != b; break;
    case OP_AND: *out = b != 0; break;
    case OP_OR: *out = b != 0; break;
    default: g_assert_not_reached ();
    }
  if (!isfinite (*out))
    return domain_error (ev, column, "the result is not a finite number");
  return TRUE;
}

static gboolean
eval_node (Eval *ev, const Node *n, double *out)
{
  double a, b;
  switch (n->kind)
    {
    case N_NUM: *out = n->num; return TRUE;
    case N_VAR:
      if (!ev->cached[n->var])
        {
          const char *name = ev->expr->variables->pdata[n->var];
          if (!ev->lookup (name, &ev->cache[n->var], ev->data))
            {
              g_set_error (ev->error, WS_ERROR, WS_ERROR_INVALID, "column %d: unknown variable '%s' in '%s'", n->column,
                           name, ev->expr->text);
              return FALSE;
            }
          ev->cached[n->var] = TRUE;
        }
      *out = ev->cache[n->var];
      return TRUE;
    case N_NEG:
      if (!eval_node (ev, n->kids[0], &a))
        return FALSE;
      *out = -a;
      return TRUE;
    case N_NOT:
      if (!eval_node (ev, n->kids[0], &a))
        return FALSE;
      *out = a == 0;
      return TRUE;
    case N_COND:
      if (!eval_node (ev, n->kids[0], &a))
        return FALSE;
      return eval_node (ev, n->kids[a != 0 ? 1 : 2], out);
    case N_BIN:
      if (!eval_node (ev, n->kids[0], &a))
        return FALSE;
      /* && and || short-circuit: the right side may be invalid when unused */
      if (n->op == OP_AND && a == 0)
        {
          *out = 0;
          return TRUE;
        }
      if (n->op == OP_OR && a != 0)
        {
          *out = 1;
          return TRUE;
        }
      if (!eval_node (ev, n->kids[1], &b))
        return FALSE;
      return apply_binary (ev, n->op, n->column, a, b, out);
    case N_CHAIN:
      /* Left to right, as the left-deep tree it stands for would be. */
      if (!eval_node (ev, n->kids[0], &a))
        return FALSE;
      for (guint i = 1; i < n->n_kids; i++)
        {
          if (n->ops[i] == OP_AND && a == 0)
            {
              *out = 0;
              return TRUE;
            }
          if (n->ops[i] == OP_OR && a != 0)
            {
              *out = 1;
              return TRUE;
            }
          if (!eval_node (ev, n->kids[i], &b) || !apply_binary (ev, n->ops[i], n->op_columns[i], a, b, &a))
            return FALSE;
        }
      *out = a;
      return TRUE;
    case N_CALL:
      {
        /* Arguments one at a time (min and max take any number of them). */
        double v0, v1 = 0;
        if (!eval_node (ev, n->kids[0], &v0))
          return FALSE;
        switch (n->op)
          {
          case F_MIN:
          case F_MAX:
            *out = v0;
            for (guint i = 1; i < n->n_kids; i++)
              {
                if (!eval_node (ev, n->kids[i], &v1))
                  return FALSE;
                *out = n->op == F_MIN ? MIN (*out, v1) : MAX (*out, v1);
              }
            break;
          case F_CEIL: *out = ceil (v0); break;
          case F_FLOOR: *out = floor (v0); break;
          case F_ROUND: *out = round (v0); break;
          case F_ABS: *out = fabs (v0); break;
          case F_SQRT:
            if (v0 < 0)
              return domain_error (ev, n->column, "square root of a negative number");
            *out = sqrt (v0);
            break;
          case F_LOG2:
          case F_LOG:
            if (v0 <= 0)
              return domain_error (ev, n->column, "logarithm of a number that is not positive");
            *out = n->op == F_LOG2 ? log2 (v0) : log (v0);
            break;
          case F_EXP: *out = exp (v0); break;
          case F_POW:
            if (!eval_node (ev, n->kids[1], &v1))
              return FALSE;
            *out = pow (v0, v1);
            break;
          default: g_assert_not_reached ();
          }
        if (!isfinite (*out))
          return domain_error (ev, n->column, "the result is not a finite number");
        return TRUE;
      }
    }
  g_assert_not_reached ();
  return FALSE;
}

gboolean
ws_expr_eval (const WsExpr *expr, WsExprLookup lookup, gpointer user_data, double *value, GError **error)
{
  g_return_val_if_fail (expr != NULL && lookup != NULL && value != NULL, FALSE);
  guint nv = expr->variables->len - 1;
  double cache[32];
  gboolean cached[32] = { 0 };
  g_autofree double *heap_cache = nv > 32 ? g_new (double, nv) : NULL;
  g_autofree gboolean *heap_cached = nv > 32 ? g_new0 (gboolean, nv) : NULL;
  Eval ev = { expr, lookup, user_data, error, heap_cache ? heap_cache : cache, heap_cached ? heap_cached : cached };
  return eval_node (&ev, expr->root, value);
}

typedef struct {
  GHashTable *table;
} TableLookup;

static gboolean
lookup_table (const char *name, double *value, gpointer data)
{
  double *v = g_hash_table_lookup (((TableLookup *) data)->table, name);
  if (v == NULL)
    return FALSE;
  *value = *v;
  return TRUE;
}

gboolean
ws_expr_eval_with_table (const WsExpr *expr, GHashTable *variables, double *value, GError **error)
{
  TableLookup tl = { variables };
  g_autoptr (GError) e = NULL;
  if (ws_expr_eval (expr, lookup_table, &tl, value, &e))
    return TRUE;
  /* An unknown variable: suggest a defined one with a close name. */
  for (guint i = 0; variables != NULL && expr->variables->pdata[i] != NULL; i++)
    {
      const char *name = expr->variables->pdata[i];
      if (g_hash_table_contains (variables, name))
        continue;
      g_autofree gpointer *keys = g_hash_table_get_keys_as_array (variables, NULL);
      g_autofree char *close = ws_suggest_names (name, (const char *const *) keys, 2);
      if (close != NULL)
        {
          g_set_error (error, e->domain, e->code, "%s (did you mean %s?)", e->message, close);
          return FALSE;
        }
      break;
    }
  g_propagate_error (error, g_steal_pointer (&e));
  return FALSE;
}

gboolean
ws_expr_evaluate_text (const char *text, GHashTable *variables, const char *what, double *value, GError **error)
{
  g_autoptr (WsExpr) e = ws_expr_parse (text, error);
  if (e == NULL || !ws_expr_eval_with_table (e, variables, value, error))
    {
      if (what != NULL)
        g_prefix_error (error, "%s: ", what);
      return FALSE;
    }
  return TRUE;
}

gboolean
ws_expr_is_identifier (const char *name)
{
  if (name == NULL || !(g_ascii_isalpha (name[0]) || name[0] == '_'))
    return FALSE;
  for (const char *p = name; *p; p++)
    if (!(g_ascii_isalnum (*p) || *p == '_'))
      return FALSE;
  return TRUE;
}
