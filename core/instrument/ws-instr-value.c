/* ws-instr-value.c: value profiling (seed 003 §7, Fig. 9, Table 2).
 *
 * After every instruction that writes general registers, for the lanes
 * that executed it: a bit is constant-one when it was 1 in every lane of
 * every execution, constant-zero when it was always 0; the instruction is
 * scalar when, in every execution, all executing lanes wrote the same
 * value.  Only the destination's meaningful bits count (32 for .u32, 64
 * for .u64 and mul.wide).  Per kernel (Table 2): static = over executed
 * register-writing instructions, dynamic = weighted by executions. */
#define G_LOG_DOMAIN "ws-instrument"

#include "instrument/ws-instr-builtins.h"

#include <glib.h>
#include <json-glib/json-glib.h>

#include <string.h>

typedef struct {
  uint64_t exec;
  uint64_t ones[4], zeros[4];
  uint8_t bits[4], ndst;
  uint8_t scalar;
} ValAcc;

typedef struct {
  char *name;
  guint n_insts;
  uint32_t *ptx_line, *src_line;
  ValAcc *acc;
} KernelAcc;

typedef struct {
  const WsInstrHost *host;
  WsInstrHostContext *ctx;
  GMutex lock;
  GPtrArray *kernels;
  KernelAcc *cur;
} Value;

static inline double
percent (double num, double den)
{
  return den > 0 ? 100.0 * num / den : 0.0;
}

typedef struct {
  KernelAcc *k;
  ValAcc acc[];
} ValueCta;

static void
init_acc (ValAcc *a, guint n)
{
  for (guint i = 0; i < n; i++)
    {
      memset (&a[i], 0, sizeof a[i]);
      for (int j = 0; j < 4; j++)
        a[i].ones[j] = a[i].zeros[j] = ~0ull;
      a[i].scalar = 1;
    }
}

static void
kernel_acc_free (gpointer p)
{
  KernelAcc *k = p;
  g_free (k->name);
  g_free (k->ptx_line);
  g_free (k->src_line);
  g_free (k->acc);
  g_free (k);
}

static void
value_launch_begin (void *tool, const WsInstrLaunchInfo *launch)
{
  Value *v = tool;
  for (guint i = 0; i < v->kernels->len; i++)
    {
      KernelAcc *k = g_ptr_array_index (v->kernels, i);
      if (strcmp (k->name, launch->kernel) == 0 && k->n_insts == launch->n_insts)
        {
          v->cur = k;
          return;
        }
    }
  KernelAcc *k = g_new0 (KernelAcc, 1);
  k->name = g_strdup (launch->kernel);
  k->n_insts = launch->n_insts;
  k->ptx_line = g_new0 (uint32_t, MAX (launch->n_insts, 1));
  k->src_line = g_new0 (uint32_t, MAX (launch->n_insts, 1));
  for (guint i = 0; i < launch->n_insts; i++)
    {
      WsInstrStaticInfo si = { .size = sizeof si };
      if (v->host->inst_static (v->ctx, launch, i, &si) != 0)
        continue;
      k->ptx_line[i] = si.ptx_line;
      k->src_line[i] = si.source_line;
    }
  k->acc = g_new (ValAcc, MAX (launch->n_insts, 1));
  init_acc (k->acc, MAX (launch->n_insts, 1));
  g_ptr_array_add (v->kernels, k);
  v->cur = k;
}

static void *
value_cta_begin (void *tool, const WsInstrLaunchInfo *launch, uint64_t cta)
{
  Value *v = tool;
  ValueCta *vc = g_malloc (sizeof (ValueCta) + sizeof (ValAcc) * MAX (launch->n_insts, 1));
  (void) cta;
  vc->k = v->cur;
  init_acc (vc->acc, MAX (launch->n_insts, 1));
  return vc;
}

static void
value_cta_end (void *tool, const WsInstrLaunchInfo *launch, void *data)
{
  Value *v = tool;
  ValueCta *vc = data;
  g_mutex_lock (&v->lock);
  for (guint i = 0; i < launch->n_insts; i++)
    {
      ValAcc *d = &vc->k->acc[i], *s = &vc->acc[i];
      if (s->exec == 0)
        continue;
      d->exec += s->exec;
      d->scalar &= s->scalar;
      d->ndst = s->ndst;
      for (int j = 0; j < 4; j++)
        {
          d->ones[j] &= s->ones[j];
          d->zeros[j] &= s->zeros[j];
          d->bits[j] = s->bits[j];
        }
    }
  g_mutex_unlock (&v->lock);
  g_free (vc);
}

static void
value_after (void *tool, void *data, WsInstrSite *x)
{
  ValueCta *vc = data;
  ValAcc *a = &vc->acc[x->id];
  uint32_t m = x->will_execute;
  (void) tool;
  if (m == 0 || x->n_dst == 0)
    return;
  a->exec++;
  a->ndst = (uint8_t) x->n_dst;
  for (guint j = 0; j < x->n_dst; j++)
    {
      const uint64_t *D = x->dst[j];
      uint64_t first = D[__builtin_ctz (m)], o = ~0ull, z = ~0ull;
      gboolean same = TRUE;
      for (int l = 0; l < 32; l++)
        if (m >> l & 1)
          {
            o &= D[l];
            z &= ~D[l];
            same &= D[l] == first;
          }
      a->ones[j] &= o;
      a->zeros[j] &= z;
      a->bits[j] = (uint8_t) x->dst_bits[j];
      if (!same)
        a->scalar = 0;
    }
}

static inline int
bits_in (uint64_t v, int bits)
{
  return __builtin_popcountll (bits >= 64 ? v : v & ((1ull << bits) - 1));
}

static void
value_result (void *tool)
{
  Value *v = tool;
  g_autoptr (JsonBuilder) jb = json_builder_new ();
  json_builder_begin_object (jb);
  json_builder_set_member_name (jb, "instructions");
  json_builder_begin_array (jb);
  for (guint i = 0; i < v->kernels->len; i++)
    {
      KernelAcc *k = g_ptr_array_index (v->kernels, i);
      for (guint id = 0; id < k->n_insts; id++)
        {
          ValAcc *a = &k->acc[id];
          int ones = 0, zeros = 0, bits = 0;
          if (a->exec == 0)
            continue;
          for (int j = 0; j < a->ndst; j++)
            {
              ones += bits_in (a->ones[j], a->bits[j]);
              zeros += bits_in (a->zeros[j], a->bits[j]);
              bits += a->bits[j];
            }
          json_builder_begin_object (jb);
          json_builder_set_member_name (jb, "kernel");
          json_builder_add_string_value (jb, k->name);
          json_builder_set_member_name (jb, "ptx_line");
          json_builder_add_int_value (jb, k->ptx_line[id]);
          json_builder_set_member_name (jb, "source_line");
          json_builder_add_int_value (jb, k->src_line[id]);
          json_builder_set_member_name (jb, "executions");
          json_builder_add_int_value (jb, (gint64) a->exec);
          json_builder_set_member_name (jb, "bits");
          json_builder_add_int_value (jb, bits);
          json_builder_set_member_name (jb, "constant_one_bits");
          json_builder_add_int_value (jb, ones);
          json_builder_set_member_name (jb, "constant_zero_bits");
          json_builder_add_int_value (jb, zeros);
          json_builder_set_member_name (jb, "scalar");
          json_builder_add_boolean_value (jb, a->scalar != 0);
          json_builder_end_object (jb);
        }
    }
  json_builder_end_array (jb);
  json_builder_set_member_name (jb, "kernels");
  json_builder_begin_array (jb);
  for (guint i = 0; i < v->kernels->len; i++)
    {
      KernelAcc *k = g_ptr_array_index (v->kernels, i);
      double st = 0, st_scalar = 0, st_bits = 0, st_const = 0;
      double dyn = 0, dyn_scalar = 0, dyn_bits = 0, dyn_const = 0;
      for (guint id = 0; id < k->n_insts; id++)
        {
          ValAcc *a = &k->acc[id];
          double bits = 0, cbits = 0;
          if (a->exec == 0)
            continue;
          for (int j = 0; j < a->ndst; j++)
            {
              bits += a->bits[j];
              cbits += bits_in (a->ones[j], a->bits[j]) + bits_in (a->zeros[j], a->bits[j]);
            }
          st++;
          st_scalar += a->scalar;
          st_bits += bits;
          st_const += cbits;
          dyn += (double) a->exec;
          dyn_scalar += a->scalar ? (double) a->exec : 0;
          dyn_bits += bits * (double) a->exec;
          dyn_const += cbits * (double) a->exec;
        }
      json_builder_begin_object (jb);
      json_builder_set_member_name (jb, "kernel");
      json_builder_add_string_value (jb, k->name);
      json_builder_set_member_name (jb, "static_instructions");
      json_builder_add_int_value (jb, (gint64) st);
      json_builder_set_member_name (jb, "dynamic_instructions");
      json_builder_add_int_value (jb, (gint64) dyn);
      json_builder_set_member_name (jb, "static_scalar_percent");
      json_builder_add_double_value (jb, percent (st_scalar, st));
      json_builder_set_member_name (jb, "dynamic_scalar_percent");
      json_builder_add_double_value (jb, percent (dyn_scalar, dyn));
      json_builder_set_member_name (jb, "static_constant_bits_percent");
      json_builder_add_double_value (jb, percent (st_const, st_bits));
      json_builder_set_member_name (jb, "dynamic_constant_bits_percent");
      json_builder_add_double_value (jb, percent (dyn_const, dyn_bits));
      json_builder_end_object (jb);
    }
  json_builder_end_array (jb);
  json_builder_end_object (jb);
  g_autoptr (JsonNode) root = json_builder_get_root (jb);
  g_autofree char *text = json_to_string (root, FALSE);
  v->host->set_result_json (v->ctx, text);
}

static void
value_free (void *tool)
{
  Value *v = tool;
  g_ptr_array_free (v->kernels, TRUE);
  g_mutex_clear (&v->lock);
  g_free (v);
}

static void *
value_init (const WsInstrHost *host, WsInstrHostContext *ctx, const char *args)
{
  Value *v = g_new0 (Value, 1);
  (void) args;
  v->host = host;
  v->ctx = ctx;
  g_mutex_init (&v->lock);
  v->kernels = g_ptr_array_new_with_free_func (kernel_acc_free);
  return v;
}

const WsInstrHandler *
ws_instr_value_handler (void)
{
  static const WsInstrHandler h = {
    .abi_version = WS_INSTR_SDK_ABI_VERSION,
    .size = sizeof (WsInstrHandler),
    .api_version = WS_INSTR_SDK_API_VERSION,
    .name = "value",
    .version = "1",
    .description = "value profile: constant bits and scalar instructions (seed 003 section 7, Table 2)",
    .after_where = WS_INSTR_SDK_AT_REG_WRITE,
    .init = value_init,
    .launch_begin = value_launch_begin,
    .cta_begin = value_cta_begin,
    .cta_end = value_cta_end,
    .after = value_after,
    .result = value_result,
    .teardown = value_free,
  };
  return &h;
}
