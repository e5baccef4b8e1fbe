/* ws-app-schema.c: the application-model schema as data (see the header;
 * docs/system-modelling.md, the operation table, describes the same). */
#define G_LOG_DOMAIN "ws-app-schema"

#include "system/ws-app-schema.h"
#include "predict/ws-predict.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#define CTX "application model"

/* One row per field.  EXPR ranges are what the evaluator accepts for a
 * point (a byte count or a time is never negative, a device, rank, launch
 * or loop count is a whole number from 0). */
/* clang-format off */
#define EXPR(key, req, lo, hi, unit, label, help) \
  { key, NULL, WS_APP_FIELD_EXPR, req, lo, hi, unit, CTX, label, help }
#define OTHER(key, type, req, label, help) \
  { key, NULL, type, req, 0, 0, "", CTX, label, help }
/* clang-format on */

/* clang-format off */
#define F_DEVICE \
  EXPR ("device", FALSE, 0, HUGE_VAL, "", NC_("application model", "Device"), \
        NC_("application model", "Which of the GPUs linked to the process’s CPU (0-based, in system order); " \
            "by default the process’s slot modulo their number."))
#define F_KERNEL_NAME \
  OTHER ("name", WS_APP_FIELD_TEXT, FALSE, NC_("application model", "Name"), \
         NC_("application model", "The kernel’s name in results and timelines."))
#define F_LAUNCH \
  EXPR ("launch", FALSE, 0, HUGE_VAL, "", NC_("application model", "Launch"), \
        NC_("application model", "Which launch of the trace to predict (0-based; default 0)."))
/* clang-format on */

static const WsAppField f_copy[] = {
  EXPR ("bytes", TRUE, 0, HUGE_VAL, NC_ ("application model", "bytes"), NC_ ("application model", "Bytes"),
        NC_ ("application model", "Bytes copied between the process’s CPU and the GPU.")),
  F_DEVICE,
};
/* The analytic kernel's first rows; its parameters follow (see analytic_fields ()). */
static const WsAppField f_kernel_analytic_head[] = {
  F_KERNEL_NAME,
  F_DEVICE,
};
static const WsAppField f_kernel_profiled[] = {
  F_KERNEL_NAME,
  F_DEVICE,
  OTHER ("trace", WS_APP_FIELD_TRACE, TRUE, NC_ ("application model", "Trace"),
         NC_ ("application model", "The trace file whose launch is predicted (warpscope-cli profile -o TRACE).")),
  F_LAUNCH,
};
static const WsAppField f_kernel_program[] = {
  F_KERNEL_NAME,
  F_DEVICE,
  OTHER ("program", WS_APP_FIELD_PROGRAM, TRUE, NC_ ("application model", "Program"),
         NC_ ("application model", "A CUDA program profiled on the emulator for each point.")),
  OTHER ("args", WS_APP_FIELD_ARGS, FALSE, NC_ ("application model", "Arguments"),
         NC_ ("application model", "The program’s arguments; {EXPR} parts are replaced by their value at each "
                                   "point.")),
  F_LAUNCH,
};
static const WsAppField f_host[] = {
  EXPR ("seconds", FALSE, 0, HUGE_VAL, NC_ ("application model", "s"), NC_ ("application model", "Seconds"),
        NC_ ("application model", "Time the host computes (give this or operations).")),
  EXPR ("operations", FALSE, 0, HUGE_VAL, "", NC_ ("application model", "Operations"),
        NC_ ("application model", "Floating-point operations, run at one core’s share of the CPU’s peak (give "
                                  "this or seconds).")),
};
static const WsAppField f_send[] = {
  OTHER ("to", WS_APP_FIELD_LABEL, TRUE, NC_ ("application model", "To label"),
         NC_ ("application model", "The label of the receiving processes.")),
  EXPR ("rank", FALSE, 0, HUGE_VAL, "", NC_ ("application model", "Rank"),
        NC_ ("application model", "Which process of that label (default: this rank modulo their number).")),
  EXPR ("bytes", TRUE, 0, HUGE_VAL, NC_ ("application model", "bytes"), NC_ ("application model", "Bytes"),
        NC_ ("application model", "Size of the message.")),
};
static const WsAppField f_recv[] = {
  OTHER ("from", WS_APP_FIELD_LABEL, TRUE, NC_ ("application model", "From label"),
         NC_ ("application model", "The label of the sending processes.")),
  EXPR ("rank", FALSE, 0, HUGE_VAL, "", NC_ ("application model", "Rank"),
        NC_ ("application model", "Which process of that label (default: this rank modulo their number).")),
};
static const WsAppField f_barrier[] = {
  OTHER ("labels", WS_APP_FIELD_LABELS, FALSE, NC_ ("application model", "Labels"),
         NC_ ("application model", "The labels whose processes meet; every process when empty.")),
};
static const WsAppField f_sync[] = {
  F_DEVICE,
};
static const WsAppField f_loop[] = {
  EXPR ("count", TRUE, 0, HUGE_VAL, "", NC_ ("application model", "Count"),
        NC_ ("application model", "How many times the body runs (a whole number).")),
  OTHER ("variable", WS_APP_FIELD_IDENT, FALSE, NC_ ("application model", "Variable"),
         NC_ ("application model", "A variable that runs 0 … count − 1 inside the body.")),
};
static const WsAppField f_if[] = {
  EXPR ("condition", TRUE, -HUGE_VAL, HUGE_VAL, "", NC_ ("application model", "Condition"),
        NC_ ("application model", "The then branch runs when it is not zero, else the else branch.")),
};

static const WsAppOpKind op_kinds[] = {
  { "h2d", CTX, NC_ ("application model", "Copy to GPU"),
    NC_ ("application model", "cudaMemcpy from the process’s CPU to a GPU linked to it."), NULL, FALSE, NULL },
  { "d2h", CTX, NC_ ("application model", "Copy from GPU"),
    NC_ ("application model", "cudaMemcpy from a GPU to the process’s CPU."), NULL, FALSE, NULL },
  { "kernel", CTX, NC_ ("application model", "Kernel"),
    NC_ ("application model", "A kernel launch: explicit parameters, a recorded trace, or a program profiled on "
                              "demand."),
    NULL, FALSE, NULL },
  { "host", CTX, NC_ ("application model", "Host work"), NC_ ("application model", "Host computation."), NULL, FALSE,
    NULL },
  { "send", CTX, NC_ ("application model", "Send"), NC_ ("application model", "A point-to-point message."), NULL, FALSE,
    NULL },
  { "recv", CTX, NC_ ("application model", "Receive"),
    NC_ ("application model", "Waits for the next message from that process."), NULL, FALSE, NULL },
  { "barrier", CTX, NC_ ("application model", "Barrier"),
    NC_ ("application model", "All processes (of those labels) meet."), NULL, FALSE, NULL },
  { "sync", CTX, NC_ ("application model", "Synchronise"), NC_ ("application model", "cudaDeviceSynchronize."), NULL,
    FALSE, NULL },
  { "loop", CTX, NC_ ("application model", "Loop"), NC_ ("application model", "Runs its body count times."), "body",
    TRUE, NULL },
  { "if", CTX, NC_ ("application model", "If"),
    NC_ ("application model", "Runs the then branch when the condition is not zero, else the else branch."), "then",
    TRUE, "else" },
};

static const WsAppKernelKindInfo kernel_kinds[] = {
  { WS_APP_KERNEL_ANALYTIC, "analytic", "analytic", CTX, NC_ ("application model", "Analytic"),
    NC_ ("application model", "The kernel’s parameters as expressions.") },
  { WS_APP_KERNEL_PROFILED, "profiled", "trace", CTX, NC_ ("application model", "Profiled"),
    NC_ ("application model", "A launch from a trace in the workspace.") },
  { WS_APP_KERNEL_PROGRAM, "program", "program", CTX, NC_ ("application model", "Program"),
    NC_ ("application model", "A CUDA program profiled on the emulator for each point, its arguments built from "
                              "the variables ({N}).") },
};
G_STATIC_ASSERT (G_N_ELEMENTS (kernel_kinds) == WS_APP_KERNEL_N_KINDS);

/* The analytic kernel's rows: its head, then one per core/predict
 * parameter (built once; the parameters' texts keep their own context). */
static const WsAppField *
analytic_fields (guint *n_fields)
{
  static WsAppField *fields;
  static guint n;

  if (g_once_init_enter (&fields))
    {
      guint n_params;
      const WsAnalyticParam *params = ws_analytic_params (&n_params);
      guint head = G_N_ELEMENTS (f_kernel_analytic_head);
      WsAppField *rows = g_new0 (WsAppField, head + n_params);

      memcpy (rows, f_kernel_analytic_head, sizeof f_kernel_analytic_head);
      for (guint i = 0; i < n_params; i++)
        rows[head + i] = (WsAppField){
          params[i].key, "analytic",     WS_APP_FIELD_EXPR, params[i].required, params[i].min,
          params[i].max, params[i].unit, params[i].context, params[i].label,    params[i].help,
        };
      n = head + n_params;
      g_once_init_leave (&fields, rows);
    }
  *n_fields = n;
  return fields;
}

const WsAppOpKind *
ws_app_schema_op_kinds (guint *n_kinds)
{
  g_return_val_if_fail (n_kinds != NULL, NULL);
  *n_kinds = G_N_ELEMENTS (op_kinds);
  return op_kinds;
}

const char *const *
ws_app_schema_op_names (void)
{
  static const char **names;

  if (g_once_init_enter (&names))
    {
      const char **list = g_new0 (const char *, G_N_ELEMENTS (op_kinds) + 1);

      for (guint i = 0; i < G_N_ELEMENTS (op_kinds); i++)
        list[i] = op_kinds[i].name;
      g_once_init_leave (&names, list);
    }
  return names;
}

const WsAppOpKind *
ws_app_schema_op_kind_find (const char *name)
{
  g_return_val_if_fail (name != NULL, NULL);
  for (guint i = 0; i < G_N_ELEMENTS (op_kinds); i++)
    if (strcmp (op_kinds[i].name, name) == 0)
      return &op_kinds[i];
  return NULL;
}

const WsAppKernelKindInfo *
ws_app_schema_kernel_kinds (guint *n_kinds)
{
  g_return_val_if_fail (n_kinds != NULL, NULL);
  *n_kinds = G_N_ELEMENTS (kernel_kinds);
  return kernel_kinds;
}

const WsAppField *
ws_app_schema_fields (const char *op, WsAppKernelKind kernel, guint *n_fields)
{
#define RET(a) \
  do \
    { \
      *n_fields = G_N_ELEMENTS (a); \
      return a; \
    } \
  while (0)
  g_return_val_if_fail (op != NULL && n_fields != NULL, NULL);
  if (strcmp (op, "h2d") == 0 || strcmp (op, "d2h") == 0)
    RET (f_copy);
  if (strcmp (op, "kernel") == 0)
    switch (kernel)
      {
      case WS_APP_KERNEL_PROFILED: RET (f_kernel_profiled);
      case WS_APP_KERNEL_PROGRAM: RET (f_kernel_program);
      case WS_APP_KERNEL_ANALYTIC:
      default: return analytic_fields (n_fields);
      }
  if (strcmp (op, "host") == 0)
    RET (f_host);
  if (strcmp (op, "send") == 0)
    RET (f_send);
  if (strcmp (op, "recv") == 0)
    RET (f_recv);
  if (strcmp (op, "barrier") == 0)
    RET (f_barrier);
  if (strcmp (op, "sync") == 0)
    RET (f_sync);
  if (strcmp (op, "loop") == 0)
    RET (f_loop);
  if (strcmp (op, "if") == 0)
    RET (f_if);
#undef RET
  *n_fields = 0;
  return NULL;
}

const WsAppField *
ws_app_schema_field_find (const char *op, WsAppKernelKind kernel, const char *key)
{
  guint n;
  const WsAppField *fields = ws_app_schema_fields (op, kernel, &n);

  g_return_val_if_fail (key != NULL, NULL);
  for (guint i = 0; i < n; i++)
    if (strcmp (fields[i].key, key) == 0)
      return &fields[i];
  return NULL;
}

static void
add_member (GPtrArray *out, const char *name)
{
  if (name != NULL && !g_ptr_array_find_with_equal_func (out, name, g_str_equal, NULL))
    g_ptr_array_add (out, (gpointer) name);
}

const char **
ws_app_schema_members (const char *op)
{
  const WsAppOpKind *info = ws_app_schema_op_kind_find (op);
  gboolean kernel = strcmp (op, "kernel") == 0;
  GPtrArray *out = g_ptr_array_new ();

  add_member (out, "op");
  for (guint k = 0; info != NULL && k < (kernel ? G_N_ELEMENTS (kernel_kinds) : 1); k++)
    {
      guint n;
      const WsAppField *fields = ws_app_schema_fields (op, (WsAppKernelKind) k, &n);

      if (kernel)
        add_member (out, kernel_kinds[k].marker);
      for (guint i = 0; i < n; i++)
        add_member (out, fields[i].object != NULL ? fields[i].object : fields[i].key);
    }
  if (info != NULL)
    {
      add_member (out, info->body);
      add_member (out, info->else_body);
    }
  g_ptr_array_add (out, NULL);
  return (const char **) g_ptr_array_free (out, FALSE);
}

const char **
ws_app_schema_object_members (const char *op, WsAppKernelKind kernel, const char *object)
{
  guint n;
  const WsAppField *fields = ws_app_schema_fields (op, kernel, &n);
  GPtrArray *out = g_ptr_array_new ();

  g_return_val_if_fail (object != NULL, NULL);
  for (guint i = 0; i < n; i++)
    if (g_strcmp0 (fields[i].object, object) == 0)
      g_ptr_array_add (out, (gpointer) fields[i].key);
  g_ptr_array_add (out, NULL);
  return (const char **) g_ptr_array_free (out, FALSE);
}

const char *
ws_app_schema_text (const char *context, const char *msgid)
{
  /* gettext ("") is the catalogue's header, never a text of the tables. */
  if (msgid == NULL || *msgid == '\0')
    return "";
  return g_dpgettext2 (GETTEXT_PACKAGE, context, msgid);
}
