/* Application-model expressions: values, precedence, errors with columns. */
#include "expr/ws-expr.h"

#include <math.h>
#include <string.h>

static GHashTable *
vars (void)
{
  GHashTable *t = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  const struct {
    const char *n;
    double v;
  } v[] = { { "N", 1048576 }, { "blockSize", 256 }, { "computeIntensity", 4 }, { "zero", 0 } };
  for (guint i = 0; i < G_N_ELEMENTS (v); i++)
    {
      double *d = g_new (double, 1);
      *d = v[i].v;
      g_hash_table_insert (t, g_strdup (v[i].n), d);
    }
  return t;
}

static double
eval (const char *text)
{
  g_autoptr (GHashTable) t = vars ();
  g_autoptr (GError) error = NULL;
  double v = NAN;
  if (!ws_expr_evaluate_text (text, t, NULL, &v, &error))
    g_error ("%s: %s", text, error->message);
  return v;
}

static char *
error_of (const char *text)
{
  g_autoptr (GHashTable) t = vars ();
  GError *error = NULL;
  double v;
  g_assert_false (ws_expr_evaluate_text (text, t, "bytes", &v, &error));
  char *m = g_strdup (error->message);
  g_error_free (error);
  return m;
}

static void
test_values (void)
{
  g_assert_cmpfloat (eval ("1 + 2 * 3"), ==, 7);
  g_assert_cmpfloat (eval ("(1 + 2) * 3"), ==, 9);
  g_assert_cmpfloat (eval ("2 ^ 3 ^ 2"), ==, 512);
  g_assert_cmpfloat (eval ("-2 ^ 2"), ==, 4);
  g_assert_cmpfloat (eval ("10 % 4"), ==, 2);
  g_assert_cmpfloat (eval ("4 * N"), ==, 4194304);
  g_assert_cmpfloat (eval ("(N + blockSize - 1) / blockSize"), ==, (1048576 + 255) / 256.0);
  g_assert_cmpfloat (eval ("ceil(N / blockSize)"), ==, 4096);
  g_assert_cmpfloat (eval ("floor(7.9)"), ==, 7);
  g_assert_cmpfloat (eval ("23 + 4 * computeIntensity"), ==, 39);
  g_assert_cmpfloat (eval ("min(3, 1, 2) + max(4, 9)"), ==, 10);
  g_assert_cmpfloat (eval ("log2(blockSize)"), ==, 8);
  g_assert_cmpfloat (eval ("sqrt(16) + abs(-2) + pow(2, 10)"), ==, 1030);
  g_assert_cmpfloat (eval ("1e3 + 0x10 + .5"), ==, 1016.5);
  g_assert_cmpfloat (eval ("N > 1000 && blockSize <= 256"), ==, 1);
  g_assert_cmpfloat (eval ("N == 5 || !(zero != 0)"), ==, 1);
  g_assert_cmpfloat (eval ("blockSize >= 512 ? 2 : 3"), ==, 3);
  g_assert_cmpfloat (eval ("zero != 0 && 1 / zero"), ==, 0); /* short-circuit */
}

static void
test_variables_listed (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WsExpr) e = ws_expr_parse ("N * blockSize + N / x", &error);
  g_assert_no_error (error);
  const char *const *v = ws_expr_get_variables (e);
  g_assert_cmpstr (v[0], ==, "N");
  g_assert_cmpstr (v[1], ==, "blockSize");
  g_assert_cmpstr (v[2], ==, "x");
  g_assert_null (v[3]);
}

static void
test_errors (void)
{
  const struct {
    const char *text;
    const char *expect;
  } cases[] = {
    { "4 * (N + 1", "bytes: column 11: expected ')' to close the '(' at column 5" },
    { "4 * ", "bytes: column 5: expected a number" },
    { "", "column 1: the expression is empty" },
    { "N +* 2", "column 4: expected a number" },
    { "N = 2", "column 3: unexpected '=' after the expression (use '==' to compare)" },
    { "sqr(N)", "column 1: unknown function 'sqr'" },
    { "min()", "column 1: min takes at least 1 argument, not 0" },
    { "pow(2)", "column 1: pow takes 2 arguments, not 1" },
    { "4 * Nn", "column 5: unknown variable 'Nn' in '4 * Nn' (did you mean N?)" },
    { "N / zero", "column 3: division by zero" },
    { "sqrt(zero - 1)", "column 1: square root of a negative number" },
    { "log2(zero)", "column 1: logarithm" },
    { "3N", "column 2: unexpected 'N' after the number" },
    { "N ? 1", "column 6: expected ':' of the '?' at column 3" },
  };
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *m = error_of (cases[i].text);
      if (strstr (m, cases[i].expect) == NULL)
        g_error ("'%s': expected '%s' in '%s'", cases[i].text, cases[i].expect, m);
    }
}

/* What may name a variable, as the parser reads names. */
static void
test_identifiers (void)
{
  const char *good[] = { "N", "_x", "blockSize", "a1_b2", NULL };
  const char *bad[] = { "", "1N", "block-size", "a b", "N=", NULL };

  for (guint i = 0; good[i] != NULL; i++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (WsExpr) e = ws_expr_parse (good[i], &error);

      g_assert_true (ws_expr_is_identifier (good[i]));
      g_assert_no_error (error);
      g_assert_cmpstr (ws_expr_get_variables (e)[0], ==, good[i]); /* the parser reads it as one variable */
    }
  for (guint i = 0; bad[i] != NULL; i++)
    g_assert_false (ws_expr_is_identifier (bad[i]));
  g_assert_false (ws_expr_is_identifier (NULL));
}

/* @n copies of @open, @middle, @n copies of @close. */
static char *
nested (guint n, const char *open, const char *middle, const char *close)
{
  GString *s = g_string_new (NULL);
  for (guint i = 0; i < n; i++)
    g_string_append (s, open);
  g_string_append (s, middle);
  for (guint i = 0; i < n; i++)
    g_string_append (s, close);
  return g_string_free (s, FALSE);
}

/* Nesting deeper than WS_EXPR_MAX_DEPTH is refused with the column where
 * the limit is crossed (a fault campaign crashed the parser with 10 000
 * parentheses); every kind of nesting counts, up to the limit it parses. */
static void
test_depth_refused (void)
{
  const struct {
    const char *open, *middle, *close;
    guint per_level;
  } kinds[] = {
    { "(", "1", ")", 1 },    { "-", "1", "", 1 }, { "1^", "1", "", 2 }, /* the exponent, and its operand */
    { "1?", "1", ":1", 2 },                                             /* the branch, and its operand */
    { "min(", "1", ")", 1 },
  };
  for (guint k = 0; k < G_N_ELEMENTS (kinds); k++)
    {
      g_autofree char *deep = nested (10000, kinds[k].open, kinds[k].middle, kinds[k].close);
      g_autoptr (GError) error = NULL;
      g_autoptr (WsExpr) e = ws_expr_parse (deep, &error);
      g_assert_null (e);
      g_assert_error (error, WS_ERROR, WS_ERROR_PARSE);
      g_assert_nonnull (strstr (error->message, "nests deeper than 256 levels"));
      g_assert_true (g_str_has_prefix (error->message, "column "));

      /* Well inside the limit it still parses and evaluates. */
      guint ok_levels = WS_EXPR_MAX_DEPTH / kinds[k].per_level - 2;
      g_autofree char *fine = nested (ok_levels, kinds[k].open, kinds[k].middle, kinds[k].close);
      g_autoptr (GError) e2 = NULL;
      g_autoptr (WsExpr) f = ws_expr_parse (fine, &e2);
      g_assert_no_error (e2);
      double v = NAN;
      g_autoptr (GHashTable) t = vars ();
      g_assert_true (ws_expr_eval_with_table (f, t, &v, &e2));
      g_assert_no_error (e2);
      g_assert_true (isfinite (v));
    }
  /* The column is where the limit is crossed: after the 256th '('. */
  g_autofree char *parens = nested (300, "(", "N", "");
  g_autofree char *m = error_of (parens);
  g_assert_nonnull (strstr (m, "bytes: column 257: the expression nests deeper than 256 levels"));
}

/* A long run of one precedence level does not nest: a 20 000-term sum
 * (which used to be stored and then crash every evaluation) evaluates, left
 * to right, with the operators' semantics and columns kept. */
static void
test_long_runs (void)
{
  GString *sum = g_string_new ("1");
  for (guint i = 1; i < 20000; i++)
    g_string_append (sum, " + 1");
  g_assert_cmpfloat (eval (sum->str), ==, 20000);
  g_string_free (sum, TRUE);

  GString *mixed = g_string_new ("N");
  for (guint i = 0; i < 5000; i++)
    g_string_append (mixed, " - 2 + 1"); /* left to right: N - 5000 */
  g_assert_cmpfloat (eval (mixed->str), ==, 1048576 - 5000);
  g_string_free (mixed, TRUE);

  g_assert_cmpfloat (eval ("100 / 10 / 5"), ==, 2);
  g_assert_cmpfloat (eval ("2 * 3 % 4 * 5"), ==, 10);
  g_assert_cmpfloat (eval ("1 < 2 < 3"), ==, 1);
  g_assert_cmpfloat (eval ("3 > 2 > 1"), ==, 0); /* (3 > 2) > 1 */
  g_assert_cmpfloat (eval ("1 && 2 && 3"), ==, 1);
  g_assert_cmpfloat (eval ("1 && zero && 1 / zero"), ==, 0); /* short-circuit inside a run */
  g_assert_cmpfloat (eval ("zero || zero || 5 || 1 / zero"), ==, 1);
  g_assert_cmpfloat (eval ("zero || zero || zero"), ==, 0);

  /* Errors still name the operator's column within a run. */
  g_autofree char *m = error_of ("1 + 2 + N / zero + 4");
  g_assert_nonnull (strstr (m, "column 11: division by zero"));

  /* min and max read every argument, not only the first 64. */
  GString *args = g_string_new ("min(");
  for (guint i = 0; i < 100; i++)
    g_string_append_printf (args, "%s%u", i ? ", " : "", 1000 - i);
  g_string_append (args, ")");
  g_assert_cmpfloat (eval (args->str), ==, 901);
  g_string_free (args, TRUE);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/expr/values-and-precedence", test_values);
  g_test_add_func ("/expr/variables-listed", test_variables_listed);
  g_test_add_func ("/expr/errors-name-the-column", test_errors);
  g_test_add_func ("/expr/identifiers", test_identifiers);
  g_test_add_func ("/expr/depth/refused-at-parse", test_depth_refused);
  g_test_add_func ("/expr/depth/long-runs-evaluate", test_long_runs);
  return g_test_run ();
}
