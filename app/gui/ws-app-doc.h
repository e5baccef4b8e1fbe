/* ws-app-doc.h: what the application-model editor edits: one application
 * model (docs/system-modelling.md) held as the texts the user typed, so a
 * half-written expression is kept as it is.  Operation lists are addressed
 * by paths: "p0" is the first process's list, "p0/3b" the body (or then
 * branch) of its fourth operation, "p0/3e" that operation's else branch.
 *
 * The editor saves as the user works: the document (its JSON record, even
 * when the model would be rejected) goes into the store's `gui_app_draft`
 * table, and whenever it is valid the record also goes to the application
 * models through ws_system_store_put_app and the draft is dropped. */
#pragma once

#include "system/ws-app-schema.h"
#include "system/ws-system.h"

G_BEGIN_DECLS

typedef struct _WsAppOp WsAppOp;
struct _WsAppOp {
  char *kind;           /* "h2d", "d2h", "kernel", "host", "send", "recv", "barrier", "sync", "loop", "if" */
  GHashTable *fields;   /* key -> text; an absent or empty text is a field not given */
  gboolean profiled;    /* kernel: trace + launch instead of analytic */
  gboolean on_demand;   /* kernel: program + args + launch, profiled on demand per point */
  GPtrArray *body;      /* loop body or if's then branch, of WsAppOp*; NULL for the others */
  GPtrArray *else_body; /* if's else branch (may be empty); NULL for the others */
};

typedef struct {
  char *name;
  gboolean derived;  /* expression (derived) or default (input) */
  char *value;       /* the default or the expression, as typed */
  char *description; /* kept from the record, not edited */
} WsAppVar;

typedef struct {
  char *label;
  char *count;    /* expression; empty: 1 */
  GPtrArray *ops; /* of WsAppOp* */
} WsAppProc;

typedef struct {
  char *name;
  char *description;
  GPtrArray *variables; /* of WsAppVar* */
  GPtrArray *processes; /* of WsAppProc* */
} WsAppDoc;

/* What the editor shows and writes is core's application-model schema
 * (system/ws-app-schema.h): the operation kinds (palette order:
 * ws_app_schema_op_names), the kernel kinds and every field with its
 * label, type and required flag.  Nothing here lists a field. */
const char *ws_app_op_kind_title (const char *kind); /* translated */
/* A schema text of @field (its label, unit or help) translated. */
const char *ws_app_field_text (const WsAppField *field, const char *msgid);

WsAppDoc *ws_app_doc_new (const char *name);
void ws_app_doc_free (WsAppDoc *doc);
WsAppDoc *ws_app_doc_copy (const WsAppDoc *doc);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsAppDoc, ws_app_doc_free)

WsAppOp *ws_app_op_new (const char *kind);
void ws_app_op_free (WsAppOp *op);
const char *ws_app_op_get (const WsAppOp *op, const char *key); /* "" when not given */
void ws_app_op_set (WsAppOp *op, const char *key, const char *text);
/* Which of the schema's kernel kinds @op is (analytic for other kinds). */
WsAppKernelKind ws_app_op_kernel_kind (const WsAppOp *op);
/* The fields an operation shows, in order: the schema's for its kind (a
 * kernel's depend on profiled and on_demand). */
const WsAppField *ws_app_op_fields (const WsAppOp *op, guint *n_fields);

WsAppVar *ws_app_doc_add_variable (WsAppDoc *doc, const char *name, gboolean derived, const char *value);
WsAppProc *ws_app_doc_add_process (WsAppDoc *doc, const char *label, const char *count);

/* The JSON record (the application-model format).  Texts are written as
 * typed, so an invalid document gives a record the core rejects with the
 * reason; from_json reads any record the core accepts, and drafts. */
JsonNode *ws_app_doc_to_json (const WsAppDoc *doc);
WsAppDoc *ws_app_doc_from_json (JsonNode *node, GError **error);
char *ws_app_doc_to_text (const WsAppDoc *doc);
WsAppDoc *ws_app_doc_from_text (const char *text, GError **error);

/* Operation lists by path (see above); NULL when the path names none. */
GPtrArray *ws_app_doc_get_list (const WsAppDoc *doc, const char *path);
WsAppOp *ws_app_doc_get_op (const WsAppDoc *doc, const char *list_path, guint index);
char *ws_app_doc_child_path (const char *list_path, guint index, gboolean else_branch);
/* Inserts @op (taken) at @index (clamped) of the list at @path. */
gboolean ws_app_doc_insert (WsAppDoc *doc, const char *path, guint index, WsAppOp *op);
/* Moves an operation; @to_index counts in the list as it is before the
 * move.  FALSE when a path is wrong or the target lies inside the moved
 * operation. */
gboolean ws_app_doc_move (WsAppDoc *doc, const char *from_path, guint from_index, const char *to_path, guint to_index);
WsAppOp *ws_app_doc_remove (WsAppDoc *doc, const char *path, guint index); /* returned, owned */

/* Names an expression at @list_path may read: the variables, `rank` and
 * the enclosing loops' variables (NULL-terminated, newly allocated). */
char **ws_app_doc_scope (const WsAppDoc *doc, const char *list_path);
/* Names a variable's expression may read: the variables above it. */
char **ws_app_doc_variable_scope (const WsAppDoc *doc, guint index);

/* Live checks.  NULL when fine, else a translated message; expression
 * problems start with the column ("column 7: …"). */
char *ws_app_doc_check_expr (const char *text, gboolean required, const char *const *scope);
char *ws_app_doc_check_field (const WsAppDoc *doc, const WsAppField *info, const char *text, const char *const *scope);
char *ws_app_doc_check_variable_name (const WsAppDoc *doc, guint index);
char *ws_app_doc_check_variable_value (const WsAppDoc *doc, guint index);
char *ws_app_doc_check_op (const WsAppDoc *doc, const WsAppOp *op); /* whole-op rules */
char *ws_app_doc_check_label (const WsAppDoc *doc, guint index);
/* Every problem of the document, each "where: what" (translated). */
GPtrArray *ws_app_doc_problems (const WsAppDoc *doc);

/* Store: drafts in `gui_app_draft`, valid models in the core store. */
gboolean ws_app_doc_save (WsStore *store, const WsAppDoc *doc, gboolean *model_stored, char **problem, GError **error);
/* The draft when there is one, else the stored model. */
WsAppDoc *ws_app_doc_load (WsStore *store, const char *name, GError **error);
/* Stored models and drafts, sorted, NULL-terminated. */
char **ws_app_doc_list (WsStore *store, GError **error);
gboolean ws_app_doc_has_draft (WsStore *store, const char *name);

G_END_DECLS
