/* ws-system-private.h: internals shared by the files of core/system. */
#pragma once

#include "system/ws-system.h"
#include "system/ws-app-schema.h"
#include "expr/ws-expr.h"
#include "predict/ws-predict.h"

G_BEGIN_DECLS

/* In the order of ws_app_schema_op_kinds (ws-app-model.c checks it). */
typedef enum {
  APP_OP_H2D,
  APP_OP_D2H,
  APP_OP_KERNEL,
  APP_OP_HOST,
  APP_OP_SEND,
  APP_OP_RECV,
  APP_OP_BARRIER,
  APP_OP_SYNC,
  APP_OP_LOOP,
  APP_OP_IF,
} AppOpKind;

/* One piece of an on-demand kernel's argument: literal text, or an
 * expression (the text between '{' and '}') at @column of the argument. */
typedef struct {
  char *literal; /* NULL for an expression */
  WsExpr *expr;
  int column; /* 1-based column of the expression's first character */
} AppArgPiece;

typedef struct _AppOp AppOp;
struct _AppOp {
  AppOpKind kind;
  char *where;                  /* "application 'A', label 'L', operation 2.1 (kernel)" */
  WsExpr *bytes;                /* h2d, d2h, send */
  WsExpr *device;               /* h2d, d2h, kernel, sync: which linked GPU (optional) */
  WsExpr *seconds, *operations; /* host */
  char *peer;                   /* send/recv: the other label */
  WsExpr *peer_rank;            /* optional */
  char *name;                   /* kernel name */
  WsExpr **analytic;            /* analytic kernel: per ws_analytic_params entry, NULL when absent */
  char *trace;                  /* profiled kernel: trace file */
  WsExpr *launch;               /* profiled or on-demand kernel: launch index (default 0) */
  char *program;                /* on-demand kernel: the program profiled for each distinct argument list */
  GPtrArray *args;              /* on-demand kernel: per argument, a GPtrArray of AppArgPiece* */
  char **barrier_labels;        /* NULL: every process */
  WsExpr *count;                /* loop */
  char *loop_var;
  GPtrArray *body; /* loop body / then-branch, of AppOp* */
  WsExpr *cond;    /* if */
  GPtrArray *else_body;
};

typedef struct {
  char *name;
  double def;
  WsExpr *derived; /* NULL for an input variable */
} AppVariable;

typedef struct {
  char *label;
  WsExpr *count;  /* processes with this label (default 1) */
  GPtrArray *ops; /* of AppOp* */
} AppProcess;

struct _WsAppModel {
  char *name;
  JsonNode *json;       /* the record as imported (exported unchanged) */
  GPtrArray *variables; /* of AppVariable* */
  GPtrArray *var_names; /* of char*, NULL-terminated */
  GPtrArray *processes; /* of AppProcess* */
};

/* JSON helpers (ws-system-model.c). */
gboolean ws_json_check_members (JsonObject *o, const char *const *allowed, const char *where, GError **error);
const char *ws_json_get_string (JsonObject *o, const char *member, gboolean required, const char *where,
                                GError **error);
gboolean ws_json_get_number (JsonObject *o, const char *member, double *value, const char *where, GError **error);
void ws_system_op_record_free (gpointer p);
void ws_system_model_walk (GPtrArray *list, void (*fn) (WsComponent *c, gpointer data), gpointer data);

/* Evaluates @e with @vars; errors are prefixed with "@where, field '@field': ". */
gboolean ws_app_eval (const WsExpr *e, GHashTable *vars, const char *where, const char *field, double *value,
                      GError **error);
/* Fills @vars (char* -> double*, newly allocated values) with defaults, @overrides and derived values. */
gboolean ws_app_bind_variables (const WsAppModel *app, GHashTable *overrides, GHashTable *vars, GError **error);

/* The arguments of on-demand kernel @op with @vars (NULL-terminated, newly
 * allocated); errors name the operation and the field (args[i]). */
char **ws_app_op_eval_args (const AppOp *op, GHashTable *vars, GError **error);

/* On-demand profiling (ws-system-ondemand.c): each distinct program and
 * argument list is profiled once per cache, the trace kept in
 * TRACE_DIR/on-demand/ and reused while it is newer than the program. */
typedef struct _AppOnDemand AppOnDemand;
typedef struct {
  char *trace;       /* the trace file */
  char *command;     /* the command line, for messages */
  char *stderr_tail; /* of the run that made the trace; NULL when reused from an earlier run */
} AppOnDemandTrace;
AppOnDemand *ws_app_ondemand_new (const char *trace_dir, const char *db);
void ws_app_ondemand_free (AppOnDemand *od);
/* The trace of @op run with its arguments in @vars (owned by @od); profiles
 * it unless it has been (by this cache or, on disk, since the program last
 * changed).  @cancellable kills a running profile. */
const AppOnDemandTrace *ws_app_ondemand_get (AppOnDemand *od, const AppOp *op, GHashTable *vars,
                                             GCancellable *cancellable, GError **error);
/* Every trace this cache has made or reused (NULL-terminated, newly allocated). */
char **ws_app_ondemand_list (AppOnDemand *od);

G_END_DECLS
