/* ws-instr-memdiv.c: memory-divergence profile (seed 003 §6, Fig. 6/7/8).
 *
 * Before every global-memory warp instruction (ld/st/atom whose addresses
 * are global, generic ones resolved per access): a = threads that execute
 * it (active and guard true), u = distinct 32-byte lines their accesses
 * touch (an access straddling a line boundary touches both lines; u is
 * capped at 32).  matrix[a-1][u-1] counts such warp instructions per kernel
 * (Fig. 6); per PC the executions and the mean u (Fig. 7/8). */
#define G_LOG_DOMAIN "ws-instrument"

#include "instrument/ws-instr-builtins.h"

#include <glib.h>
#include <json-glib/json-glib.h>

#include <string.h>

#define LINE_SHIFT 5 /* 32-byte lines */

typedef struct {
  char *name;
  guint n_insts;
  uint32_t *ptx_line;
  uint64_t matrix[32][32];
  uint64_t *exec, *lines; /* per id */
} KernelAcc;

typedef struct {
  const WsInstrHost *host;
  WsInstrHostContext *ctx;
  GMutex lock;
  GPtrArray *kernels;
  KernelAcc *cur;
} Memdiv;

typedef struct {
  KernelAcc *k;
  uint64_t matrix[32][32];
  uint64_t *exec, *lines;
} MemdivCta;

static void
kernel_acc_free (gpointer p)
{
  KernelAcc *k = p;
  g_free (k->name);
  g_free (k->ptx_line);
  g_free (k->exec);
  g_free (k->lines);
  g_free (k);
}

static void
memdiv_launch_begin (void *tool, const WsInstrLaunchInfo *launch)
{
  Memdiv *md = tool;
  for (guint i = 0; i < md->kernels->len; i++)
    {
      KernelAcc *k = g_ptr_array_index (md->kernels, i);
      if (strcmp (k->name, launch->kernel) == 0 && k->n_insts == launch->n_insts)
        {
          md->cur = k;
          return;
        }
    }
  KernelAcc *k = g_new0 (KernelAcc, 1);
  k->name = g_strdup (launch->kernel);
  k->n_insts = launch->n_insts;
  k->ptx_line = g_new0 (uint32_t, MAX (launch->n_insts, 1));
  for (guint i = 0; i < launch->n_insts; i++)
    {
      WsInstrStaticInfo si = { .size = sizeof si };
      if (md->host->inst_static (md->ctx, launch, i, &si) == 0)
        k->ptx_line[i] = si.ptx_line;
    }
  k->exec = g_new0 (uint64_t, MAX (launch->n_insts, 1));
  k->lines = g_new0 (uint64_t, MAX (launch->n_insts, 1));
  g_ptr_array_add (md->kernels, k);
  md->cur = k;
}

static void *
memdiv_cta_begin (void *tool, const WsInstrLaunchInfo *launch, uint64_t cta)
{
  Memdiv *md = tool;
  MemdivCta *mc = g_new0 (MemdivCta, 1);
  (void) cta;
  mc->k = md->cur;
  mc->exec = g_new0 (uint64_t, MAX (launch->n_insts, 1));
  mc->lines = g_new0 (uint64_t, MAX (launch->n_insts, 1));
  return mc;
}

static void
memdiv_cta_end (void *tool, const WsInstrLaunchInfo *launch, void *data)
{
  Memdiv *md = tool;
  MemdivCta *mc = data;
  g_mutex_lock (&md->lock);
  for (int a = 0; a < 32; a++)
    for (int u = 0; u < 32; u++)
      mc->k->matrix[a][u] += mc->matrix[a][u];
  for (guint i = 0; i < launch->n_insts; i++)
    {
      mc->k->exec[i] += mc->exec[i];
      mc->k->lines[i] += mc->lines[i];
    }
  g_mutex_unlock (&md->lock);
  g_free (mc->exec);
  g_free (mc->lines);
  g_free (mc);
}

static void
memdiv_before (void *tool, void *data, const WsInstrSite *x)
{
  MemdivCta *mc = data;
  uint64_t lines[64];
  guint n = 0, u = 0;
  uint32_t m = x->will_execute;
  (void) tool;
  if (m == 0 || x->mem_space != WS_INSTR_SDK_SPACE_GLOBAL)
    return;
  for (int l = 0; l < 32; l++)
    if (m >> l & 1)
      {
        uint64_t first = x->addr[l] >> LINE_SHIFT;
        uint64_t last = (x->addr[l] + (x->mem_width ? x->mem_width : 1) - 1) >> LINE_SHIFT;
        lines[n++] = first;
        if (last != first)
          lines[n++] = last;
      }
  /* distinct values by insertion into a sorted prefix (n <= 64) */
  for (guint i = 0; i < n; i++)
    {
      uint64_t v = lines[i];
      guint j = 0;
      while (j < u && lines[j] < v)
        j++;
      if (j < u && lines[j] == v)
        continue;
      memmove (lines + j + 1, lines + j, (u - j) * sizeof (uint64_t));
      lines[j] = v;
      u++;
    }
  guint a = (guint) __builtin_popcount (m);
  mc->matrix[a - 1][MIN (u, 32u) - 1]++;
  mc->exec[x->id]++;
  mc->lines[x->id] += u;
}

static void
memdiv_result (void *tool)
{
  Memdiv *md = tool;
  g_autoptr (JsonBuilder) jb = json_builder_new ();
  json_builder_begin_object (jb);
  json_builder_set_member_name (jb, "kernels");
  json_builder_begin_array (jb);
  for (guint i = 0; i < md->kernels->len; i++)
    {
      KernelAcc *k = g_ptr_array_index (md->kernels, i);
      json_builder_begin_object (jb);
      json_builder_set_member_name (jb, "kernel");
      json_builder_add_string_value (jb, k->name);
      json_builder_set_member_name (jb, "matrix");
      json_builder_begin_array (jb);
      for (int a = 0; a < 32; a++)
        {
          json_builder_begin_array (jb);
          for (int u = 0; u < 32; u++)
            json_builder_add_int_value (jb, (gint64) k->matrix[a][u]);
          json_builder_end_array (jb);
        }
      json_builder_end_array (jb);
      json_builder_set_member_name (jb, "per_pc");
      json_builder_begin_array (jb);
      for (guint id = 0; id < k->n_insts; id++)
        {
          if (k->exec[id] == 0)
            continue;
          json_builder_begin_object (jb);
          json_builder_set_member_name (jb, "ptx_line");
          json_builder_add_int_value (jb, k->ptx_line[id]);
          json_builder_set_member_name (jb, "executions");
          json_builder_add_int_value (jb, (gint64) k->exec[id]);
          json_builder_set_member_name (jb, "mean_unique_lines");
          json_builder_add_double_value (jb, (double) k->lines[id] / (double) k->exec[id]);
          json_builder_end_object (jb);
        }
      json_builder_end_array (jb);
      json_builder_end_object (jb);
    }
  json_builder_end_array (jb);
  json_builder_end_object (jb);
  g_autoptr (JsonNode) root = json_builder_get_root (jb);
  g_autofree char *text = json_to_string (root, FALSE);
  md->host->set_result_json (md->ctx, text);
}

static void
memdiv_free (void *tool)
{
  Memdiv *md = tool;
  g_ptr_array_free (md->kernels, TRUE);
  g_mutex_clear (&md->lock);
  g_free (md);
}

static void *
memdiv_init (const WsInstrHost *host, WsInstrHostContext *ctx, const char *args)
{
  Memdiv *md = g_new0 (Memdiv, 1);
  (void) args;
  md->host = host;
  md->ctx = ctx;
  g_mutex_init (&md->lock);
  md->kernels = g_ptr_array_new_with_free_func (kernel_acc_free);
  return md;
}

const WsInstrHandler *
ws_instr_memdiv_handler (void)
{
  static const WsInstrHandler h = {
    .abi_version = WS_INSTR_SDK_ABI_VERSION,
    .size = sizeof (WsInstrHandler),
    .api_version = WS_INSTR_SDK_API_VERSION,
    .name = "memdiv",
    .version = "1",
    .description = "memory divergence: threads x distinct 32-byte lines (seed 003 section 6)",
    .before_where = WS_INSTR_SDK_AT_MEMORY,
    .init = memdiv_init,
    .launch_begin = memdiv_launch_begin,
    .cta_begin = memdiv_cta_begin,
    .cta_end = memdiv_cta_end,
    .before = memdiv_before,
    .result = memdiv_result,
    .teardown = memdiv_free,
  };
  return &h;
}
