/* libFuzzer target: the expression parser and evaluator (core/expr). */
#include "expr/ws-expr.h"

#include <string.h>

static gboolean
lookup_any (const char *name, double *value, gpointer data)
{
  *value = (double) strlen (name); /* every variable is known */
  return TRUE;
}

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  g_autofree char *text = g_strndup ((const char *) data, size);
  GError *error = NULL;
  WsExpr *e = ws_expr_parse (text, &error);
  if (e == NULL)
    {
      g_assert (error != NULL);
      g_error_free (error);
      return 0;
    }
  double v;
  if (!ws_expr_eval (e, lookup_any, NULL, &v, &error))
    g_error_free (error);
  ws_expr_free (e);
  return 0;
}
