/* ws-app-schema.h: the application-model schema (docs/system-modelling.md)
 * as data: the operation kinds, the three kinds of kernel and the fields of
 * each.  These tables are the schema's one owner: ws_app_model_from_json
 * reads and validates records by them and the GUI application editor builds
 * its forms, its record and its checks from them, so a field added here
 * appears in both.  An analytic kernel's parameters are core/predict's
 * (ws_analytic_params), taken row for row.
 *
 * Texts (label, unit, help) are untranslated, marked NC_() with the row's
 * context in the "warpscope" domain; views translate them with
 * ws_app_schema_text. */
#pragma once

#include "base/ws-base.h"

G_BEGIN_DECLS

typedef enum {
  WS_APP_FIELD_EXPR,    /* an expression (core/expr) or a JSON number */
  WS_APP_FIELD_TEXT,    /* free text (kernel name) */
  WS_APP_FIELD_IDENT,   /* a variable name (loop variable) */
  WS_APP_FIELD_LABEL,   /* a process label */
  WS_APP_FIELD_LABELS,  /* process labels: a JSON array of strings */
  WS_APP_FIELD_TRACE,   /* a trace file */
  WS_APP_FIELD_PROGRAM, /* an executable profiled on demand */
  WS_APP_FIELD_ARGS,    /* its arguments: a JSON array of strings with {EXPR} parts, or numbers */
} WsAppFieldType;

typedef struct {
  const char *key;    /* JSON member */
  const char *object; /* NULL: a member of the operation; else of its member object ("analytic") */
  WsAppFieldType type;
  gboolean required;
  double min, max;     /* EXPR: the range a point's value must lie in (checked when evaluated) */
  const char *unit;    /* "bytes", "s", ... or "" */
  const char *context; /* gettext context of unit, label and help */
  const char *label;   /* e.g. "Bytes" */
  const char *help;
} WsAppField;

typedef struct {
  const char *name; /* the "op" member: "h2d", "d2h", "kernel", ... */
  const char *context;
  const char *label; /* e.g. "Copy to GPU" */
  const char *help;
  const char *body; /* member holding the nested operations ("body", "then"), or NULL */
  gboolean body_required;
  const char *else_body; /* member holding the other branch ("else"), or NULL */
} WsAppOpKind;

/* A kernel is one of three kinds, told apart by which marker member its
 * record has (exactly one). */
typedef enum {
  WS_APP_KERNEL_ANALYTIC, /* "analytic": {parameters as expressions} */
  WS_APP_KERNEL_PROFILED, /* "trace" (+ "launch") */
  WS_APP_KERNEL_PROGRAM,  /* "program" (+ "args", "launch"): profiled on demand per point */
  WS_APP_KERNEL_N_KINDS
} WsAppKernelKind;

typedef struct {
  WsAppKernelKind kind;
  const char *name;   /* "analytic", "profiled", "program" */
  const char *marker; /* the member whose presence makes a kernel this kind */
  const char *context;
  const char *label; /* e.g. "Analytic" */
  const char *help;
} WsAppKernelKindInfo;

/* The operation kinds in palette order. */
WS_EXPORT const WsAppOpKind *ws_app_schema_op_kinds (guint *n_kinds);
/* Their names, NULL-terminated (static). */
WS_EXPORT const char *const *ws_app_schema_op_names (void);
WS_EXPORT const WsAppOpKind *ws_app_schema_op_kind_find (const char *name);
WS_EXPORT const WsAppKernelKindInfo *ws_app_schema_kernel_kinds (guint *n_kinds);
/* The fields an operation of kind @op has, in display order (@kernel
 * chooses among a kernel's three lists; ignored for other kinds); NULL
 * (and *n_fields 0) for an unknown kind. */
WS_EXPORT const WsAppField *ws_app_schema_fields (const char *op, WsAppKernelKind kernel, guint *n_fields);
/* The field @key of that list, or NULL. */
WS_EXPORT const WsAppField *ws_app_schema_field_find (const char *op, WsAppKernelKind kernel, const char *key);
/* The members a record of kind @op may have: "op", every field of every
 * kernel kind (members of sub-objects by the object's name), the markers
 * and the nested lists; NULL-terminated, newly allocated (free the array
 * only: the strings are the tables'). */
WS_EXPORT const char **ws_app_schema_members (const char *op);
/* The keys of the fields that live in the member object @object of an
 * @op/@kernel record, NULL-terminated, newly allocated (free the array only). */
WS_EXPORT const char **ws_app_schema_object_members (const char *op, WsAppKernelKind kernel, const char *object);
/* @msgid (a unit, label or help of these tables) translated in @context. */
WS_EXPORT const char *ws_app_schema_text (const char *context, const char *msgid);

G_END_DECLS
