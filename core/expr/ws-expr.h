/* ws-expr.h: expressions of application models (sizes, grid dimensions,
 * loop counts, conditions), compiled once and evaluated many times (sweeps).
 *
 * Syntax: numbers (1, 2.5, 1e6, 0x10), variables (letters, digits, '_',
 * starting with a letter or '_'), parentheses, unary - + !, binary
 * ^ (power, right-associative), * / %, + -, < <= > >=, == !=, && ||, and the
 * conditional c ? a : b.  Functions: min(a, b, ...), max(a, b, ...), ceil,
 * floor, round, abs, sqrt, log2, log, exp, pow(a, b).  Comparisons and logic
 * give 1 or 0; any non-zero value is true.
 *
 * Errors say what was expected and where: "column 7: expected ')' after the
 * arguments of min", "column 3: unknown variable 'Nn' (did you mean N?)". */
#pragma once

#include "base/ws-base.h"

G_BEGIN_DECLS

typedef struct _WsExpr WsExpr;

/* How deeply an expression may nest: parentheses, function calls, prefix
 * operators, '^' and '?:' each count one level.  Deeper text is refused at
 * parse time (WS_ERROR_PARSE naming the column), so evaluating a parsed
 * expression never exhausts a thread's stack.  Runs of left-associative
 * operators (a + b + c + ...) do not nest and have no limit. */
#define WS_EXPR_MAX_DEPTH 256

/* Variable lookup while evaluating: returns FALSE when @name is unknown. */
typedef gboolean (*WsExprLookup) (const char *name, double *value, gpointer user_data);

/* Parses @text.  WS_ERROR_PARSE with the column (1-based) on a syntax error. */
WS_EXPORT WsExpr *ws_expr_parse (const char *text, GError **error);
/* TRUE when @name can be a variable of an expression: a letter or '_',
 * then letters, digits and '_'. */
WS_EXPORT gboolean ws_expr_is_identifier (const char *name);
WS_EXPORT void ws_expr_free (WsExpr *expr);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsExpr, ws_expr_free)
WS_EXPORT const char *ws_expr_get_text (const WsExpr *expr);

/* The variables the expression reads, in order of first use (NULL-terminated, owned by @expr). */
WS_EXPORT const char *const *ws_expr_get_variables (const WsExpr *expr);

/* Evaluates.  An unknown variable or a domain error (division by zero,
 * sqrt of a negative, log of a non-positive number) is WS_ERROR_INVALID
 * naming the column. */
WS_EXPORT gboolean ws_expr_eval (const WsExpr *expr, WsExprLookup lookup, gpointer user_data, double *value,
                                 GError **error);

/* Evaluates with variables from a GHashTable (char* -> double*); @known,
 * if given, lists names to suggest when a variable is unknown. */
WS_EXPORT gboolean ws_expr_eval_with_table (const WsExpr *expr, GHashTable *variables, double *value, GError **error);

/* Convenience: parse and evaluate at once; errors are prefixed with @what
 * (e.g. "operation 3, bytes") when given. */
WS_EXPORT gboolean ws_expr_evaluate_text (const char *text, GHashTable *variables, const char *what, double *value,
                                          GError **error);

G_END_DECLS
