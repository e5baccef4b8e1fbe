/* ws-instr-branch.c: per-branch divergence statistics (seed 003 §5, Fig. 4/5,
 * Table 1).
 *
 * Before every conditional branch: one warp-level execution; active
 * threads = lanes active at the branch; taken threads = active lanes whose
 * guard is true; not-taken = the others; the execution is divergent when
 * both are non-zero.  Per kernel, static divergence = executed conditional
 * branches that diverged at least once / executed conditional branches;
 * dynamic divergence = divergent executions / executions (Table 1). */
#define G_LOG_DOMAIN "ws-instrument"

#include "instrument/ws-instr-builtins.h"

#include <glib.h>
#include <json-glib/json-glib.h>
#include <string.h>

enum { B_EXEC, B_DIV, B_ACTIVE, B_TAKEN, B_NOT_TAKEN, B_N };

typedef struct {
  char *name;
  guint n_insts;
  uint32_t *ptx_line, *src_line;
  uint8_t *cond; /* per id: is a conditional branch */
  uint64_t *acc; /* [n_insts][B_N] */
} KernelAcc;

typedef struct {
  const WsInstrHost *host;
  WsInstrHostContext *ctx;
  GMutex lock;
  GPtrArray *kernels; /* KernelAcc*, in first-launch order */
  KernelAcc *cur;     /* the kernel of the running launch */
} Branch;

typedef struct {
  KernelAcc *k;
  uint64_t acc[];
} BranchCta;

static inline double
percent (double num, double den)
{
  return den > 0 ? 100.0 * num / den : 0.0;
}

static void
kernel_acc_free (gpointer p)
{
  KernelAcc *k = p;
  g_free (k->name);
  g_free (k->ptx_line);
  g_free (k->src_line);
  g_free (k->cond);
  g_free (k->acc);
  g_free (k);
}

static KernelAcc *
kernel_acc_get (Branch *b, const WsInstrLaunchInfo *launch)
{
  GPtrArray *kernels = b->kernels;
  for (guint i = 0; i < kernels->len; i++)
    {
      KernelAcc *k = g_ptr_array_index (kernels, i);
      if (strcmp (k->name, launch->kernel) == 0 && k->n_insts == launch->n_insts)
        return k;
    }
  KernelAcc *k = g_new0 (KernelAcc, 1);
  k->name = g_strdup (launch->kernel);
  k->n_insts = launch->n_insts;
  k->ptx_line = g_new0 (uint32_t, MAX (launch->n_insts, 1));
  k->src_line = g_new0 (uint32_t, MAX (launch->n_insts, 1));
  k->cond = g_new0 (uint8_t, MAX (launch->n_insts, 1));
  for (guint i = 0; i < launch->n_insts; i++)
    {
      WsInstrStaticInfo si = { .size = sizeof si };
      if (b->host->inst_static (b->ctx, launch, i, &si) != 0)
        continue;
      k->ptx_line[i] = si.ptx_line;
      k->src_line[i] = si.source_line;
      k->cond[i] = (si.flags & WS_INSTR_SDK_AT_COND_BRANCH) != 0;
    }
  k->acc = g_new0 (uint64_t, (gsize) MAX (launch->n_insts, 1) * B_N);
  g_ptr_array_add (kernels, k);
  return k;
}

static void
branch_launch_begin (void *tool, const WsInstrLaunchInfo *launch)
{
  Branch *b = tool;
  b->cur = kernel_acc_get (b, launch);
}

static void *
branch_cta_begin (void *tool, const WsInstrLaunchInfo *launch, uint64_t cta)
{
  Branch *b = tool;
  BranchCta *bc = g_malloc0 (sizeof (BranchCta) + sizeof (uint64_t) * (gsize) MAX (launch->n_insts, 1) * B_N);
  (void) cta;
  bc->k = b->cur;
  return bc;
}

static void
branch_cta_end (void *tool, const WsInstrLaunchInfo *launch, void *data)
{
  Branch *b = tool;
  BranchCta *bc = data;
  g_mutex_lock (&b->lock);
  for (gsize i = 0; i < (gsize) launch->n_insts * B_N; i++)
    bc->k->acc[i] += bc->acc[i];
  g_mutex_unlock (&b->lock);
  g_free (bc);
}

static void
branch_before (void *tool, void *data, const WsInstrSite *x)
{
  BranchCta *bc = data;
  uint64_t *a = bc->acc + (gsize) x->id * B_N;
  uint32_t active = (uint32_t) __builtin_popcount (x->active);
  uint32_t taken = (uint32_t) __builtin_popcount (x->taken & x->active);
  (void) tool;
  if (x->active == 0)
    return;
  a[B_EXEC]++;
  a[B_ACTIVE] += active;
  a[B_TAKEN] += taken;
  a[B_NOT_TAKEN] += active - taken;
  if (taken != 0 && taken != active)
    a[B_DIV]++;
}

static void
branch_result (void *tool)
{
  Branch *b = tool;
  g_autoptr (JsonBuilder) jb = json_builder_new ();
  json_builder_begin_object (jb);
  json_builder_set_member_name (jb, "branches");
  json_builder_begin_array (jb);
  for (guint i = 0; i < b->kernels->len; i++)
    {
      KernelAcc *k = g_ptr_array_index (b->kernels, i);
      for (guint id = 0; id < k->n_insts; id++)
        {
          const uint64_t *a = k->acc + (gsize) id * B_N;
          if (!k->cond[id])
            continue;
          json_builder_begin_object (jb);
          json_builder_set_member_name (jb, "kernel");
          json_builder_add_string_value (jb, k->name);
          json_builder_set_member_name (jb, "ptx_line");
          json_builder_add_int_value (jb, k->ptx_line[id]);
          json_builder_set_member_name (jb, "source_line");
          json_builder_add_int_value (jb, k->src_line[id]);
          json_builder_set_member_name (jb, "executions");
          json_builder_add_int_value (jb, (gint64) a[B_EXEC]);
          json_builder_set_member_name (jb, "divergent");
          json_builder_add_int_value (jb, (gint64) a[B_DIV]);
          json_builder_set_member_name (jb, "active_threads");
          json_builder_add_int_value (jb, (gint64) a[B_ACTIVE]);
          json_builder_set_member_name (jb, "taken_threads");
          json_builder_add_int_value (jb, (gint64) a[B_TAKEN]);
          json_builder_set_member_name (jb, "not_taken_threads");
          json_builder_add_int_value (jb, (gint64) a[B_NOT_TAKEN]);
          json_builder_end_object (jb);
        }
    }
  json_builder_end_array (jb);
  json_builder_set_member_name (jb, "kernels");
  json_builder_begin_array (jb);
  for (guint i = 0; i < b->kernels->len; i++)
    {
      KernelAcc *k = g_ptr_array_index (b->kernels, i);
      uint64_t st = 0, st_div = 0, dyn = 0, dyn_div = 0;
      for (guint id = 0; id < k->n_insts; id++)
        {
          const uint64_t *a = k->acc + (gsize) id * B_N;
          if (!k->cond[id] || a[B_EXEC] == 0)
            continue;
          st++;
          st_div += a[B_DIV] > 0;
          dyn += a[B_EXEC];
          dyn_div += a[B_DIV];
        }
      json_builder_begin_object (jb);
      json_builder_set_member_name (jb, "kernel");
      json_builder_add_string_value (jb, k->name);
      json_builder_set_member_name (jb, "static_branches");
      json_builder_add_int_value (jb, (gint64) st);
      json_builder_set_member_name (jb, "static_divergent");
      json_builder_add_int_value (jb, (gint64) st_div);
      json_builder_set_member_name (jb, "static_divergence_percent");
      json_builder_add_double_value (jb, percent ((double) st_div, (double) st));
      json_builder_set_member_name (jb, "dynamic_branches");
      json_builder_add_int_value (jb, (gint64) dyn);
      json_builder_set_member_name (jb, "dynamic_divergent");
      json_builder_add_int_value (jb, (gint64) dyn_div);
      json_builder_set_member_name (jb, "dynamic_divergence_percent");
      json_builder_add_double_value (jb, percent ((double) dyn_div, (double) dyn));
      json_builder_end_object (jb);
    }
  json_builder_end_array (jb);
  json_builder_end_object (jb);
  g_autoptr (JsonNode) root = json_builder_get_root (jb);
  g_autofree char *text = json_to_string (root, FALSE);
  b->host->set_result_json (b->ctx, text);
}

static void
branch_free (void *tool)
{
  Branch *b = tool;
  g_ptr_array_free (b->kernels, TRUE);
  g_mutex_clear (&b->lock);
  g_free (b);
}

static void *
branch_init (const WsInstrHost *host, WsInstrHostContext *ctx, const char *args)
{
  Branch *b = g_new0 (Branch, 1);
  (void) args;
  b->host = host;
  b->ctx = ctx;
  g_mutex_init (&b->lock);
  b->kernels = g_ptr_array_new_with_free_func (kernel_acc_free);
  return b;
}

const WsInstrHandler *
ws_instr_branch_handler (void)
{
  static const WsInstrHandler h = {
    .abi_version = WS_INSTR_SDK_ABI_VERSION,
    .size = sizeof (WsInstrHandler),
    .api_version = WS_INSTR_SDK_API_VERSION,
    .name = "branch",
    .version = "1",
    .description = "per-branch divergence (seed 003 section 5, Table 1)",
    .before_where = WS_INSTR_SDK_AT_COND_BRANCH,
    .init = branch_init,
    .launch_begin = branch_launch_begin,
    .cta_begin = branch_cta_begin,
    .cta_end = branch_cta_end,
    .before = branch_before,
    .result = branch_result,
    .teardown = branch_free,
  };
  return &h;
}
