/* test-trace.c: the trace writer and reader.
 *
 * Synthetic traces are generated from a seeded RNG per (launch, TB, warp), so
 * the expected records and counters can be regenerated at verification time
 * and compared exactly with what the reader decodes. */
#include <glib.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <string.h>
#include <math.h>
#include <sys/wait.h>
#include <zstd.h>

#include "trace/ws-trace.h"
#include "trace/ws-trace-writer.h"
#include "trace/ws-trace-format.h"
#include "ptx/ws-ptx.h"

/* ---- synthetic kernels ---------------------------------------------------- */

#define N_KERNELS 3
static const guint kernel_sizes[N_KERNELS] = { 40, 300, 8 };

/* Static instruction i of a synthetic kernel: its kind follows i % 8. */
static void
make_static (guint n, WsTraceStaticInst *insts)
{
  for (guint i = 0; i < n; i++)
    {
      WsTraceStaticInst *s = &insts[i];
      memset (s, 0, sizeof *s);
      s->ptx_line = 10 + i;
      s->src_line = i / 3;
      s->dst[0] = s->dst[1] = 0xffff;
      s->n_dst = 1;
      s->dst[0] = (uint16_t) (i % 13);
      s->n_src = 2;
      s->src[0] = (uint16_t) (i % 7);
      s->src[1] = (uint16_t) (i % 5);
      s->src[2] = s->src[3] = 0xffff;
      switch (i % 8)
        {
        case 1:
          s->op = WS_OP_LD;
          s->opclass = WS_OPCLASS_LD;
          s->space = WS_SPACE_GLOBAL;
          s->access_size = 4;
          break;
        case 2:
          s->op = WS_OP_ST;
          s->opclass = WS_OPCLASS_ST;
          s->space = WS_SPACE_GLOBAL;
          s->access_size = 8;
          break;
        case 3:
          s->op = WS_OP_LD;
          s->opclass = WS_OPCLASS_LD;
          s->space = WS_SPACE_SHARED;
          s->access_size = 4;
          break;
        case 5:
          s->op = WS_OP_LD;
          s->opclass = WS_OPCLASS_LD;
          s->space = WS_SPACE_LOCAL;
          s->access_size = 16;
          break;
        case 6:
          s->op = WS_OP_BAR;
          s->opclass = WS_OPCLASS_BARRIER;
          s->is_barrier = 1;
          break;
        case 7:
          s->op = WS_OP_LD;
          s->opclass = WS_OPCLASS_LD;
          s->space = WS_SPACE_GENERIC;
          s->access_size = 2;
          break;
        case 4:
          s->op = WS_OP_BRA;
          s->opclass = WS_OPCLASS_BRANCH;
          s->is_conditional_branch = 1;
          break;
        default:
          s->op = WS_OP_ADD;
          s->opclass = WS_OPCLASS_ALU;
          break;
        }
    }
}

static uint32_t
add_kernel (WsTraceWriter *w, guint k)
{
  g_autofree WsTraceStaticInst *insts = g_new (WsTraceStaticInst, kernel_sizes[k]);
  make_static (kernel_sizes[k], insts);
  g_autofree char *name = g_strdup_printf ("_Z7kernel%uPf", k);
  WsTraceKernelDesc d = {
    .name = name,
    .ptx = k == 2 ? NULL : (k == 0 ? ".version 9.0\n.entry k0 {}\n" : ".version 9.0\n.entry k1 {}\n"),
    .n_insts = kernel_sizes[k],
    .insts = insts,
    .regs_per_thread = 16 + k,
    .static_shared_bytes = 1024 * k,
    .local_bytes = 8 * k,
    .resources_from_ptxas = k == 1,
  };
  return ws_trace_writer_add_kernel (w, &d);
}

typedef struct {
  uint8_t kind;
  uint32_t id;
  uint32_t mask;
  uint8_t space;
  uint64_t addrs[32];
} GenRec;

typedef struct {
  uint32_t kernel;
  uint32_t grid[3], block[3];
  uint32_t dyn_shared;
} GenLaunch;

static const GenLaunch gen_launches[] = {
  { 0, { 3, 2, 1 }, { 64, 1, 1 }, 0 },
  { 1, { 5, 1, 1 }, { 48, 2, 1 }, 256 },
  { 0, { 2, 2, 2 }, { 33, 1, 1 }, 0 },
  { 2, { 1, 1, 1 }, { 32, 1, 1 }, 4096 },
};
#define N_LAUNCHES G_N_ELEMENTS (gen_launches)

static guint
launch_warps (const GenLaunch *l)
{
  return (l->block[0] * l->block[1] * l->block[2] + 31) / 32;
}

static uint64_t
launch_tbs (const GenLaunch *l)
{
  return (uint64_t) l->grid[0] * l->grid[1] * l->grid[2];
}

static uint32_t
warp_full_mask (const GenLaunch *l, guint warp)
{
  guint threads = l->block[0] * l->block[1] * l->block[2];
  guint left = threads - warp * 32;
  return left >= 32 ? 0xffffffffu : (1u << left) - 1;
}

/* One address pattern per memory record, covering every encoder path. */
static void
gen_addrs (GRand *r, uint64_t base, uint32_t mask, uint64_t *a)
{
  int pattern = g_rand_int_range (r, 0, 9);
  int64_t strides[] = { 4, 8, 0, -4, 256, 16, 3 };
  for (int l = 0; l < 32; l++)
    a[l] = 0xdeadbeefull; /* inactive lanes: garbage the writer must ignore */
  for (int l = 0; l < 32; l++)
    {
      if (!(mask & (1u << l)))
        continue;
      if (pattern < 7)
        a[l] = base + (uint64_t) ((int64_t) l * strides[pattern]);
      else if (pattern == 7)
        a[l] = base + (uint64_t) g_rand_int_range (r, 0, 1 << 20); /* gather */
      else
        a[l] = base + 4 * (uint64_t) l + (l == 17 ? 4096 : 0); /* one outlier */
    }
}

static GArray *
gen_warp (guint launch, uint64_t tb, guint warp)
{
  const GenLaunch *L = &gen_launches[launch];
  guint n_insts = kernel_sizes[L->kernel];
  g_autoptr (GRand) r = g_rand_new_with_seed ((guint32) (launch * 1000003u + tb * 1009u + warp));
  GArray *recs = g_array_new (FALSE, TRUE, sizeof (GenRec));
  guint n = (guint) g_rand_int_range (r, 0, 400);
  if (g_rand_int_range (r, 0, 10) == 0)
    n = 0;
  uint32_t full = warp_full_mask (L, warp);
  uint32_t mask = full;
  uint32_t id = 0;
  uint64_t bases[300];
  for (guint i = 0; i < n_insts; i++)
    bases[i] = 0x7f0000000000ull + (uint64_t) i * 0x100000 + tb * 0x1000 + warp * 128;
  for (guint i = 0; i < n; i++)
    {
      int act = g_rand_int_range (r, 0, 100);
      if (i == 0)
        id = 0;
      else if (act < 65)
        id = (id + 1) % n_insts;
      else if (act < 80)
        id = (uint32_t) g_rand_int_range (r, 0, (gint32) n_insts); /* any jump, incl. escapes */
      else if (act < 90)
        id = id > 3 ? id - 3 : id; /* short loop back */
      if (g_rand_int_range (r, 0, 100) < 12)
        {
          int m = g_rand_int_range (r, 0, 4);
          mask = m == 0 ? full : m == 1 ? (full & g_rand_int (r)) : m == 2 ? (full & 0x0000ffffu) : (full & 0x1u);
        }
      GenRec rec = { 0 };
      rec.id = id;
      rec.mask = mask;
      switch (id % 8)
        {
        case 1:
        case 2:
        case 3:
        case 5:
        case 7:
          {
            rec.kind = WS_TRACE_RECORD_MEM;
            rec.space = (id % 8 == 1 || id % 8 == 2) ? WS_SPACE_GLOBAL
                        : id % 8 == 3                ? WS_SPACE_SHARED
                        : id % 8 == 5                ? WS_SPACE_LOCAL
                                                     : (g_rand_boolean (r) ? WS_SPACE_GLOBAL : WS_SPACE_CONST);
            bases[id] += (uint64_t) g_rand_int_range (r, 0, 3) * 128;
            gen_addrs (r, bases[id], mask, rec.addrs);
            break;
          }
        case 6: rec.kind = WS_TRACE_RECORD_BARRIER; break;
        default: rec.kind = WS_TRACE_RECORD_INST;
        }
      g_array_append_val (recs, rec);
    }
  return recs;
}

/* Independent (slow) sector count: a set of 32-byte sector numbers. */
static uint64_t
naive_sectors (const GenRec *rec, uint32_t size)
{
  g_autoptr (GHashTable) set = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  for (int l = 0; l < 32; l++)
    {
      if (!(rec->mask & (1u << l)))
        continue;
      for (uint64_t b = rec->addrs[l]; b < rec->addrs[l] + size; b++)
        {
          gint64 *k = g_new (gint64, 1);
          *k = (gint64) (b >> 5);
          g_hash_table_add (set, k);
        }
    }
  return g_hash_table_size (set);
}

static void
expected_tb (guint launch, uint64_t tb, WsTraceTbCounters *c)
{
  const GenLaunch *L = &gen_launches[launch];
  g_autofree WsTraceStaticInst *insts = g_new (WsTraceStaticInst, kernel_sizes[L->kernel]);
  make_static (kernel_sizes[L->kernel], insts);
  memset (c, 0, sizeof *c);
  c->n_warps = launch_warps (L);
  c->recorded = TRUE;
  for (guint w = 0; w < c->n_warps; w++)
    {
      g_autoptr (GArray) recs = gen_warp (launch, tb, w);
      for (guint i = 0; i < recs->len; i++)
        {
          const GenRec *r = &g_array_index (recs, GenRec, i);
          c->warp_instructions++;
          c->thread_instructions += (uint64_t) __builtin_popcount (r->mask);
          if (r->kind == WS_TRACE_RECORD_BARRIER)
            c->barriers++;
          if (r->kind != WS_TRACE_RECORD_MEM)
            continue;
          if (r->space == WS_SPACE_GLOBAL)
            {
              c->global_requests += naive_sectors (r, insts[r->id].access_size);
              c->memory_instructions++;
            }
          else if (r->space == WS_SPACE_LOCAL)
            {
              c->local_requests += naive_sectors (r, insts[r->id].access_size);
              c->memory_instructions++;
            }
          else if (r->space == WS_SPACE_SHARED)
            {
              c->shared_accesses++;
            }
        }
    }
}

/* Record plain instructions through the inline fast path. */
static gboolean use_fast;

static void
record_tb (WsTraceWriter *w, guint launch, uint64_t tb)
{
  const GenLaunch *L = &gen_launches[launch];
  guint nw = launch_warps (L);
  WsTraceCta *cta = ws_trace_cta_begin (w, tb, nw);
  g_assert_nonnull (cta);
  /* Interleave the warps as an emulator would (round-robin), which must not
   * matter for the per-warp streams. */
  GArray *recs[64];
  guint pos[64] = { 0 };
  for (guint i = 0; i < nw; i++)
    recs[i] = gen_warp (launch, tb, i);
  gboolean more = TRUE;
  while (more)
    {
      more = FALSE;
      for (guint i = 0; i < nw; i++)
        {
          for (guint k = 0; k < 3 && pos[i] < recs[i]->len; k++, pos[i]++)
            {
              const GenRec *r = &g_array_index (recs[i], GenRec, pos[i]);
              if (r->kind == WS_TRACE_RECORD_MEM)
                ws_trace_cta_mem (cta, i, r->id, r->mask, r->space, r->addrs);
              else if (r->kind == WS_TRACE_RECORD_BARRIER)
                ws_trace_cta_barrier_mask (cta, i, r->id, r->mask);
              else if (use_fast)
                ws_trace_cta_inst_fast (cta, i, r->id, r->mask);
              else
                ws_trace_cta_inst (cta, i, r->id, r->mask);
            }
          more |= pos[i] < recs[i]->len;
        }
    }
  for (guint i = 0; i < nw; i++)
    g_array_unref (recs[i]);
  ws_trace_cta_end (cta);
}

typedef struct {
  WsTraceWriter *w;
  guint launch;
  const uint64_t *order;
  uint64_t n;
  gint next;
} Work;

static gpointer
worker (gpointer data)
{
  Work *wk = data;
  for (;;)
    {
      gint i = g_atomic_int_add (&wk->next, 1);
      if ((uint64_t) i >= wk->n)
        break;
      record_tb (wk->w, wk->launch, wk->order[i]);
    }
  return NULL;
}

/* Writes the synthetic trace; @n_threads 0 = serial in TB order, otherwise
 * that many threads take TBs in a shuffled order (so they finish out of order). */
#define CHUNK_DEFAULT G_MAXSIZE

static void
write_synthetic_chunks (const char *path, guint n_threads, gsize chunk_bytes)
{
  g_autoptr (GError) error = NULL;
  WsTraceWriter *w = ws_trace_writer_new (path, &error);
  g_assert_no_error (error);
  if (chunk_bytes != CHUNK_DEFAULT)
    ws_trace_writer_set_chunk_bytes (w, chunk_bytes);
  uint32_t kidx[N_KERNELS];
  for (guint k = 0; k < N_KERNELS; k++)
    kidx[k] = add_kernel (w, k);
  g_assert_cmpuint (add_kernel (w, 0), ==, kidx[0]); /* same name -> same index */
  g_autoptr (GRand) r = g_rand_new_with_seed (42);
  for (guint l = 0; l < N_LAUNCHES; l++)
    {
      const GenLaunch *L = &gen_launches[l];
      ws_trace_writer_begin_launch (w, kidx[L->kernel], L->grid, L->block, L->dyn_shared);
      uint64_t n = launch_tbs (L);
      g_autofree uint64_t *order = g_new (uint64_t, n);
      for (uint64_t i = 0; i < n; i++)
        order[i] = n_threads ? n - 1 - i : i;
      if (n_threads)
        for (uint64_t i = n - 1; i > 0; i--)
          {
            uint64_t j = (uint64_t) g_rand_int_range (r, 0, (gint32) i + 1);
            uint64_t t = order[i];
            order[i] = order[j];
            order[j] = t;
          }
      Work wk = { w, l, order, n, 0 };
      if (n_threads == 0)
        {
          worker (&wk);
        }
      else
        {
          GThread *th[8];
          for (guint t = 0; t < n_threads; t++)
            th[t] = g_thread_new ("trace-worker", worker, &wk);
          for (guint t = 0; t < n_threads; t++)
            g_thread_join (th[t]);
        }
      g_assert_true (ws_trace_writer_end_launch (w, &error));
      g_assert_no_error (error);
    }
  g_assert_true (ws_trace_writer_close (w, &error));
  g_assert_no_error (error);
}

/* Writes a test file quickly (no fsync; replaces any previous file). */
static gboolean
put_file (const char *path, const char *data, gsize len)
{
  g_unlink (path);
  return g_file_set_contents_full (path, data, (gssize) len, G_FILE_SET_CONTENTS_NONE, 0644, NULL);
}

static void
write_synthetic (const char *path, guint n_threads)
{
  write_synthetic_chunks (path, n_threads, CHUNK_DEFAULT);
}

static char *
tmp_path (char **dir, const char *name)
{
  g_autoptr (GError) error = NULL;
  *dir = g_dir_make_tmp ("ws-trace-XXXXXX", &error);
  g_assert_no_error (error);
  return g_build_filename (*dir, name, NULL);
}

static void
rm_tmp (char *dir, char *path)
{
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;
  while (d && (name = g_dir_read_name (d)))
    {
      g_autofree char *p = g_build_filename (dir, name, NULL);
      g_unlink (p);
    }
  g_rmdir (dir);
  g_free (dir);
  g_free (path);
}

static double
cov_of (const double *v, guint n)
{
  double mean = 0, ss = 0;
  for (guint i = 0; i < n; i++)
    mean += v[i];
  mean /= n;
  if (mean == 0)
    return 0;
  for (guint i = 0; i < n; i++)
    ss += (v[i] - mean) * (v[i] - mean);
  return sqrt (ss / n) / mean;
}

static void
check_tb_records (WsTrace *t, guint l, uint64_t tb)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WsTraceTb) rtb = ws_trace_read_tb (t, l, tb, &error);
  g_assert_no_error (error);
  guint nw = launch_warps (&gen_launches[l]);
  g_assert_cmpuint (ws_trace_tb_get_n_warps (rtb), ==, nw);
  for (guint w = 0; w < nw; w++)
    {
      g_autoptr (GArray) exp = gen_warp (l, tb, w);
      g_assert_cmpuint (ws_trace_tb_get_n_records (rtb, w), ==, exp->len);
      WsTraceWarpIter it;
      WsTraceRecord rec;
      ws_trace_warp_iter_init (&it, rtb, w);
      guint i = 0;
      while (ws_trace_warp_iter_next (&it, &rec, &error))
        {
          g_assert_cmpuint (i, <, exp->len);
          const GenRec *e = &g_array_index (exp, GenRec, i);
          g_assert_cmpuint (rec.static_id, ==, e->id);
          g_assert_cmphex (rec.active_mask, ==, e->mask);
          g_assert_cmpuint (rec.kind, ==, e->kind);
          if (e->kind == WS_TRACE_RECORD_MEM)
            {
              g_assert_cmpuint (rec.space, ==, e->space);
              for (int lane = 0; lane < 32; lane++)
                if (e->mask & (1u << lane))
                  g_assert_cmphex (rec.addrs[lane], ==, e->addrs[lane]);
            }
          i++;
        }
      g_assert_no_error (error);
      g_assert_cmpuint (i, ==, exp->len);

      g_autoptr (WsTraceWarpStream) s = ws_trace_tb_decode_warp (rtb, w, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (s->n_records, ==, exp->len);
      for (i = 0; i < exp->len; i++)
        {
          const GenRec *e = &g_array_index (exp, GenRec, i);
          g_assert_cmpuint (s->static_ids[i], ==, e->id);
          g_assert_cmphex (s->active_masks[i], ==, e->mask);
          g_assert_cmpuint (s->kinds[i], ==, e->kind);
          uint64_t a = s->addr_start[i];
          if (e->kind == WS_TRACE_RECORD_MEM)
            {
              g_assert_cmpuint (s->spaces[i], ==, e->space);
              g_assert_cmpuint (s->addr_start[i + 1] - a, ==, (uint64_t) __builtin_popcount (e->mask));
              for (int lane = 0; lane < 32; lane++)
                if (e->mask & (1u << lane))
                  g_assert_cmphex (s->addrs[a++], ==, e->addrs[lane]);
            }
          g_assert_cmpuint (s->addr_start[i + 1], ==, a);
        }
      g_assert_cmpuint (s->addr_start[exp->len], ==, s->n_addrs);
    }
}

static void
verify_synthetic (const char *path)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WsTrace) t = ws_trace_open (path, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (ws_trace_get_version (t), ==, 1);
  g_assert_cmpuint (ws_trace_get_n_kernels (t), ==, N_KERNELS);
  for (guint k = 0; k < N_KERNELS; k++)
    {
      const WsTraceKernel *K = ws_trace_get_kernel (t, k);
      g_autofree char *name = g_strdup_printf ("_Z7kernel%uPf", k);
      g_assert_cmpstr (K->name, ==, name);
      g_assert_cmpuint (K->n_insts, ==, kernel_sizes[k]);
      g_assert_cmpuint (K->regs_per_thread, ==, 16 + k);
      g_assert_cmpuint (K->static_shared_bytes, ==, 1024 * k);
      g_assert_cmpuint (K->local_bytes, ==, 8 * k);
      g_assert_cmpint (K->resources_from_ptxas, ==, k == 1);
      if (k == 2)
        g_assert_null (K->ptx);
      else
        g_assert_cmpstr (K->ptx, ==, k == 0 ? ".version 9.0\n.entry k0 {}\n" : ".version 9.0\n.entry k1 {}\n");
      g_autofree WsTraceStaticInst *exp = g_new (WsTraceStaticInst, kernel_sizes[k]);
      make_static (kernel_sizes[k], exp);
      g_assert_cmpmem (K->insts, sizeof (WsTraceStaticInst) * K->n_insts, exp,
                       sizeof (WsTraceStaticInst) * kernel_sizes[k]);
    }
  g_assert_cmpuint (ws_trace_get_n_launches (t), ==, N_LAUNCHES);
  uint64_t total_warp = 0;
  for (guint l = 0; l < N_LAUNCHES; l++)
    {
      const GenLaunch *L = &gen_launches[l];
      const WsTraceLaunch *R = ws_trace_get_launch (t, l);
      g_assert_cmpuint (R->kernel, ==, L->kernel);
      for (int d = 0; d < 3; d++)
        {
          g_assert_cmpuint (R->grid[d], ==, L->grid[d]);
          g_assert_cmpuint (R->block[d], ==, L->block[d]);
        }
      g_assert_cmpuint (R->dynamic_shared_bytes, ==, L->dyn_shared);
      g_assert_cmpuint (R->warps_per_tb, ==, launch_warps (L));
      g_assert_true (R->complete);
      uint64_t n;
      const WsTraceTbCounters *tbs = ws_trace_get_tb_counters (t, l, &n);
      g_assert_cmpuint (n, ==, launch_tbs (L));
      g_assert_cmpuint (R->n_tbs, ==, n);
      WsTraceTbCounters sum = { 0 };
      g_autofree double *sizes_t = g_new (double, n);
      g_autofree double *sizes_w = g_new (double, n);
      for (uint64_t b = 0; b < n; b++)
        {
          WsTraceTbCounters e;
          expected_tb (l, b, &e);
          g_assert_cmpuint (tbs[b].thread_instructions, ==, e.thread_instructions);
          g_assert_cmpuint (tbs[b].warp_instructions, ==, e.warp_instructions);
          g_assert_cmpuint (tbs[b].global_requests, ==, e.global_requests);
          g_assert_cmpuint (tbs[b].local_requests, ==, e.local_requests);
          g_assert_cmpuint (tbs[b].shared_accesses, ==, e.shared_accesses);
          g_assert_cmpuint (tbs[b].barriers, ==, e.barriers);
          g_assert_cmpuint (tbs[b].memory_instructions, ==, e.memory_instructions);
          g_assert_cmpuint (tbs[b].n_warps, ==, e.n_warps);
          g_assert_true (tbs[b].recorded);
          sum.thread_instructions += e.thread_instructions;
          sum.warp_instructions += e.warp_instructions;
          sum.global_requests += e.global_requests;
          sum.local_requests += e.local_requests;
          sum.shared_accesses += e.shared_accesses;
          sum.barriers += e.barriers;
          sum.memory_instructions += e.memory_instructions;
          sizes_t[b] = (double) e.thread_instructions;
          sizes_w[b] = (double) e.warp_instructions;
          check_tb_records (t, l, b);
        }
      g_assert_cmpuint (R->thread_instructions, ==, sum.thread_instructions);
      g_assert_cmpuint (R->warp_instructions, ==, sum.warp_instructions);
      g_assert_cmpuint (R->memory_requests, ==, sum.global_requests + sum.local_requests);
      g_assert_cmpuint (R->global_requests, ==, sum.global_requests);
      g_assert_cmpuint (R->local_requests, ==, sum.local_requests);
      g_assert_cmpuint (R->shared_accesses, ==, sum.shared_accesses);
      g_assert_cmpuint (R->barriers, ==, sum.barriers);
      g_assert_cmpuint (R->memory_instructions, ==, sum.memory_instructions);
      g_assert_cmpfloat_with_epsilon (R->cov_tb_thread_instructions, cov_of (sizes_t, (guint) n), 1e-12);
      g_assert_cmpfloat_with_epsilon (R->cov_tb_warp_instructions, cov_of (sizes_w, (guint) n), 1e-12);
      g_assert_cmpuint (R->warp_instructions, >, 0);
      total_warp += R->warp_instructions;
    }
  g_assert_cmpuint (ws_trace_get_total_warp_instructions (t), ==, total_warp);
}

static void
test_roundtrip_threads (void)
{
  char *dir;
  char *path = tmp_path (&dir, "t.wstrace");
  write_synthetic (path, 4);
  verify_synthetic (path);
  rm_tmp (dir, path);
}

/* One TB per chunk, and several TBs per chunk with several chunks per
 * launch: the records read back are the same. */
static void
test_roundtrip_chunking (void)
{
  char *dir;
  char *path = tmp_path (&dir, "t.wstrace");
  write_synthetic_chunks (path, 3, 0);
  verify_synthetic (path);
  write_synthetic_chunks (path, 3, 3000);
  verify_synthetic (path);
  rm_tmp (dir, path);
}

static void
test_roundtrip_serial (void)
{
  char *dir;
  char *path = tmp_path (&dir, "t.wstrace");
  write_synthetic (path, 0);
  verify_synthetic (path);
  rm_tmp (dir, path);
}

static void
test_parallel_identical (void)
{
  char *dir;
  char *path = tmp_path (&dir, "serial.wstrace");
  g_autofree char *p2 = g_build_filename (dir, "parallel.wstrace", NULL);
  g_autofree char *p3 = g_build_filename (dir, "parallel2.wstrace", NULL);
  const gsize chunk_sizes[] = { CHUNK_DEFAULT, 0, 3000 };
  for (guint k = 0; k < G_N_ELEMENTS (chunk_sizes); k++)
    {
      write_synthetic_chunks (path, 0, chunk_sizes[k]);
      write_synthetic_chunks (p2, 4, chunk_sizes[k]);
      write_synthetic_chunks (p3, 2, chunk_sizes[k]);
      g_autofree char *a = NULL, *b = NULL, *c = NULL;
      gsize la, lb, lc;
      g_assert_true (g_file_get_contents (path, &a, &la, NULL));
      g_assert_true (g_file_get_contents (p2, &b, &lb, NULL));
      g_assert_true (g_file_get_contents (p3, &c, &lc, NULL));
      g_assert_cmpuint (la, >, 1000);
      g_assert_cmpmem (a, la, b, lb);
      g_assert_cmpmem (a, la, c, lc);
      /* the inline fast path writes the same bytes as the function */
      use_fast = TRUE;
      write_synthetic_chunks (p2, 2, chunk_sizes[k]);
      use_fast = FALSE;
      g_clear_pointer (&b, g_free);
      g_assert_true (g_file_get_contents (p2, &b, &lb, NULL));
      g_assert_cmpmem (a, la, b, lb);
    }
  rm_tmp (dir, path);
}

/* Damaging one TB's chunk must not affect reading another: the chunks are
 * independent and the reader decompresses only what it is asked for. */
static void
test_random_access_tb (void)
{
  char *dir;
  char *path = tmp_path (&dir, "t.wstrace");
  write_synthetic_chunks (path, 2, 0); /* one TB per chunk */
  g_autoptr (GError) error = NULL;
  uint64_t off0;
  {
    g_autoptr (WsTrace) t = ws_trace_open (path, &error);
    g_assert_no_error (error);
    /* TB 0 of launch 1: locate its chunk through the public counters: it is
     * the first chunk after launch 0's, which starts right after the header. */
    off0 = WS_TRACE_HEADER_SIZE + ws_trace_get_launch (t, 0)->stream_bytes;
  }
  g_autofree char *data = NULL;
  gsize len;
  g_assert_true (g_file_get_contents (path, &data, &len, NULL));
  data[off0 + 5] ^= 0x5a;
  g_assert_true (put_file (path, data, len));

  g_autoptr (WsTrace) t = ws_trace_open (path, &error);
  g_assert_no_error (error);  /* metadata intact: open succeeds */
  check_tb_records (t, 1, 3); /* a later TB of the same launch */
  check_tb_records (t, 0, 5);
  g_autoptr (WsTraceTb) bad = ws_trace_read_tb (t, 1, 0, &error);
  g_assert_null (bad);
  g_assert_error (error, WS_ERROR, WS_ERROR_CORRUPT);
  g_assert_nonnull (strstr (error->message, "thread block 0 of launch 1"));
  g_autofree char *offs = g_strdup_printf ("offset %" G_GUINT64_FORMAT, off0);
  g_assert_nonnull (strstr (error->message, offs));
  g_clear_error (&error);
  g_assert_null (ws_trace_read_tb (t, 1, 99, &error));
  g_assert_error (error, WS_ERROR, WS_ERROR_NOT_FOUND);
  rm_tmp (dir, path);
}

static gpointer
read_all_tbs (gpointer data)
{
  WsTrace *t = data;
  for (guint l = 0; l < N_LAUNCHES; l++)
    for (uint64_t b = 0; b < launch_tbs (&gen_launches[l]); b++)
      check_tb_records (t, l, (b * 7 + l) % launch_tbs (&gen_launches[l]));
  return NULL;
}

/* One WsTrace shared by threads (its chunk cache included). */
static void
test_concurrent_readers (void)
{
  char *dir;
  char *path = tmp_path (&dir, "t.wstrace");
  write_synthetic_chunks (path, 2, 3000);
  g_autoptr (GError) error = NULL;
  g_autoptr (WsTrace) t = ws_trace_open (path, &error);
  g_assert_no_error (error);
  GThread *th[4];
  for (int i = 0; i < 4; i++)
    th[i] = g_thread_new ("reader", read_all_tbs, t);
  for (int i = 0; i < 4; i++)
    g_thread_join (th[i]);
  rm_tmp (dir, path);
}

static void
expect_corrupt (const char *path, const char *data, gsize len, const char *needle)
{
  g_assert_true (put_file (path, data, len));
  g_autoptr (GError) error = NULL;
  g_autoptr (WsTrace) t = ws_trace_open (path, &error);
  g_assert_null (t);
  g_assert_error (error, WS_ERROR, WS_ERROR_CORRUPT);
  if (needle && !strstr (error->message, needle))
    g_error ("message '%s' does not mention '%s'", error->message, needle);
}

static void
test_corrupt_files (void)
{
  char *dir;
  char *path = tmp_path (&dir, "good.wstrace");
  g_autofree char *bad = g_build_filename (dir, "bad.wstrace", NULL);
  write_synthetic (path, 0);
  g_autofree char *data = NULL;
  gsize len;
  g_assert_true (g_file_get_contents (path, &data, &len, NULL));
  g_autofree char *copy = g_memdup2 (data, len);
  g_autoptr (GError) error = NULL;

  /* bad magic */
  copy[1] = 'X';
  expect_corrupt (bad, copy, len, "magic");
  memcpy (copy, data, len);
  /* not a trace at all */
  expect_corrupt (bad, "hello world, not a trace", 24, "magic");
  /* newer version */
  copy[8] = 9;
  g_assert_true (put_file (bad, copy, len));
  g_assert_null (ws_trace_open (bad, &error));
  g_assert_error (error, WS_ERROR, WS_ERROR_UNSUPPORTED);
  g_clear_error (&error);
  memcpy (copy, data, len);
  /* truncated at many points, including inside the trailer */
  for (gsize cut = 1; cut < len; cut += 1 + cut / 3)
    expect_corrupt (bad, data, len - cut, NULL);
  expect_corrupt (bad, data, len - 1, "truncated");
  expect_corrupt (bad, data, WS_TRACE_HEADER_SIZE, "truncated");
  /* each section's checksum: flip a byte in the section body */
  {
    g_autoptr (WsTrace) t = ws_trace_open (path, &error);
    g_assert_no_error (error);
  }
  const uint8_t *tr = (const uint8_t *) data + len - WS_TRACE_TRAILER_SIZE;
  const char *names[4] = { "kernels", "launches", "thread-block counters", "chunk index" };
  for (int s = 0; s < 4; s++)
    {
      uint64_t off = ws_trace_u64 (tr + 8 * s);
      memcpy (copy, data, len);
      copy[off + WS_TRACE_SECTION_HEADER_SIZE + 2] ^= 0x01;
      g_autofree char *needle = g_strdup_printf ("%s section checksum mismatch at offset %" G_GUINT64_FORMAT, names[s],
                                                 off);
      expect_corrupt (bad, copy, len, needle);
      /* a decoded size in the (unchecksummed) section header claiming 128 TiB:
     * an error, not an attempt to allocate it */
      memcpy (copy, data, len);
      copy[off + 8 + 5] = 0x7f;
      g_autofree char *needle2 = g_strdup_printf (
        "%s section size does not match its data at offset %" G_GUINT64_FORMAT, names[s], off);
      expect_corrupt (bad, copy, len, needle2);
    }
  /* trailer damage */
  memcpy (copy, data, len);
  copy[len - WS_TRACE_TRAILER_SIZE + 3] ^= 0x10;
  expect_corrupt (bad, copy, len, "trailer checksum");
  /* appended garbage: size no longer matches */
  g_autofree char *longer = g_malloc (len + 10);
  memcpy (longer, data, len);
  memcpy (longer + len, data + len - 10, 10);
  memcpy (longer + len - 10, "0123456789", 10);
  expect_corrupt (bad, longer, len + 10, NULL);

  /* Random single-byte damage anywhere: open and full decoding either
   * succeed or fail with WS_ERROR, never crash. */
  g_autoptr (GRand) r = g_rand_new_with_seed (7);
  guint failures = 0;
  for (int k = 0; k < 150; k++)
    {
      memcpy (copy, data, len);
      gsize at = (gsize) g_rand_int_range (r, 0, (gint32) len);
      copy[at] ^= (char) (1 + g_rand_int_range (r, 0, 255));
      g_assert_true (put_file (bad, copy, len));
      g_autoptr (WsTrace) t = ws_trace_open (bad, &error);
      gboolean failed = t == NULL;
      if (t)
        {
          for (guint l = 0; l < ws_trace_get_n_launches (t) && !failed; l++)
            for (uint64_t b = 0; b < ws_trace_get_launch (t, l)->n_tbs && !failed; b++)
              {
                g_autoptr (WsTraceTb) tb = ws_trace_read_tb (t, l, b, &error);
                failed = tb == NULL;
              }
        }
      if (failed)
        {
          g_assert_nonnull (error);
          g_assert_true (error->domain == WS_ERROR);
          failures++;
        }
      g_clear_error (&error);
    }
  /* Only the header's reserved flag bytes are unprotected. */
  g_assert_cmpuint (failures, >, 140);

  /* missing file */
  g_autofree char *missing = g_build_filename (dir, "nope.wstrace", NULL);
  g_assert_null (ws_trace_open (missing, &error));
  g_assert_error (error, WS_ERROR, WS_ERROR_NOT_FOUND);
  g_clear_error (&error);
  g_unlink (bad);
  rm_tmp (dir, path);
}

/* A copy of the trace @data with the u32 at @at of the decoded section
 * @section (0 kernels, 1 launches, 2 TB counters, 3 index) set to @value,
 * the section stored raw and checksummed again, the later sections moved
 * and the trailer rewritten: damage that every checksum agrees with, as a
 * buggy or hostile writer would make it. */
static char *
rewrite_section_u32 (const char *data, gsize len, int section, gsize at, uint32_t value, gsize *out_len)
{
  const uint8_t *tr = (const uint8_t *) data + len - WS_TRACE_TRAILER_SIZE;
  uint64_t off[4];
  for (int i = 0; i < 4; i++)
    off[i] = ws_trace_u64 (tr + 8 * i);
  const uint8_t *h = (const uint8_t *) data + off[section];
  uint32_t enc = ws_trace_u32 (h + 4);
  uint64_t rlen = ws_trace_u64 (h + 8), slen = ws_trace_u64 (h + 16);
  g_autofree uint8_t *raw = g_malloc (rlen);
  if (enc == WS_TRACE_ENC_ZSTD)
    g_assert_cmpuint (ZSTD_decompress (raw, rlen, h + WS_TRACE_SECTION_HEADER_SIZE, slen), ==, rlen);
  else
    memcpy (raw, h + WS_TRACE_SECTION_HEADER_SIZE, rlen);
  g_assert_cmpuint (at + 4, <=, rlen);
  memcpy (raw + at, &value, 4);
  gsize old_end = off[section] + WS_TRACE_SECTION_HEADER_SIZE + slen;
  int64_t delta = (int64_t) rlen - (int64_t) slen;
  gsize n = len + delta;
  char *o = g_malloc (n);
  memcpy (o, data, off[section]);
  uint8_t header[WS_TRACE_SECTION_HEADER_SIZE];
  memcpy (header, h, sizeof header);
  uint32_t raw_enc = WS_TRACE_ENC_RAW;
  uint64_t sum = ws_trace_fnv1a64 (raw, rlen);
  memcpy (header + 4, &raw_enc, 4);
  memcpy (header + 16, &rlen, 8);
  memcpy (header + 24, &sum, 8);
  memcpy (o + off[section], header, sizeof header);
  memcpy (o + off[section] + WS_TRACE_SECTION_HEADER_SIZE, raw, rlen);
  memcpy (o + off[section] + WS_TRACE_SECTION_HEADER_SIZE + rlen, data + old_end,
          len - WS_TRACE_TRAILER_SIZE - old_end);
  uint8_t *t = (uint8_t *) o + n - WS_TRACE_TRAILER_SIZE;
  memcpy (t, tr, WS_TRACE_TRAILER_SIZE);
  for (int i = section + 1; i < 4; i++)
    {
      uint64_t moved = off[i] + delta;
      memcpy (t + 8 * i, &moved, 8);
    }
  uint64_t size = n;
  memcpy (t + 32, &size, 8);
  uint64_t tsum = ws_trace_fnv1a64 (t, 48);
  memcpy (t + 48, &tsum, 8);
  *out_len = n;
  return o;
}

/* Launch and block records that agree with their checksums but not with
 * what CUDA allows or with each other are refused at open, naming the
 * launch (before: accepted, and gpumech hung, ake asked for 343 GB, the
 * simulator reported a doubled IPC from an overflowing grid product). */
static void
test_inconsistent_records (void)
{
  char *dir;
  char *path = tmp_path (&dir, "good.wstrace");
  g_autofree char *bad = g_build_filename (dir, "bad.wstrace", NULL);
  write_synthetic (path, 0);
  g_autofree char *data = NULL;
  gsize len;
  g_assert_true (g_file_get_contents (path, &data, &len, NULL));
  const GenLaunch *L = &gen_launches[1];
  /* the rewriting itself leaves a valid trace */
  {
    gsize n;
    g_autofree char *same = rewrite_section_u32 (data, len, 1, 8 + WS_TRACE_LAUNCH_SIZE + WS_TRACE_L_WARPS_PER_TB,
                                                 launch_warps (L), &n);
    g_assert_true (put_file (bad, same, n));
    g_autoptr (GError) error = NULL;
    g_autoptr (WsTrace) t = ws_trace_open (bad, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (ws_trace_get_launch (t, 1)->warps_per_tb, ==, launch_warps (L));
  }
  const struct {
    int section;
    gsize at;
    uint32_t value;
    const char *needle;
  } cases[] = {
    /* warps per block against the block size */
    { 1, 8 + WS_TRACE_LAUNCH_SIZE + WS_TRACE_L_WARPS_PER_TB, 1000000,
      "launch 1 records 1000000 warps per block for blocks of" },
    { 1, 8 + WS_TRACE_LAUNCH_SIZE + WS_TRACE_L_WARPS_PER_TB, 0, "launch 1 records 0 warps per block" },
    /* blocks CUDA cannot launch */
    { 1, 8 + WS_TRACE_LAUNCH_SIZE + WS_TRACE_L_BLOCK, 4096, "launch 1 has an impossible block of 4096 x" },
    { 1, 8 + WS_TRACE_LAUNCH_SIZE + WS_TRACE_L_BLOCK + 4, 0, "launch 1 has an impossible block of" },
    /* grids whose product overflows, or CUDA refuses */
    { 1, 8 + WS_TRACE_L_GRID, 0xffffffffu, "launch 0 has an impossible grid of 4294967295 x" },
    { 1, 8 + WS_TRACE_L_GRID + 4, 65536, "launch 0 has an impossible grid of" },
    { 1, 8 + WS_TRACE_L_GRID + 8, 0, "launch 0 has an impossible grid of" },
    /* a block record with more warps than its launch's blocks */
    { 2, 8 + WS_TRACE_TB_N_WARPS, 1000, "thread block 0 of launch 0 records 1000 warps" },
  };
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      gsize n;
      g_autofree char *copy = rewrite_section_u32 (data, len, cases[i].section, cases[i].at, cases[i].value, &n);
      expect_corrupt (bad, copy, n, cases[i].needle);
    }
  g_unlink (bad);
  rm_tmp (dir, path);
}

/* A damaged chunk passes the open (chunks are checked when a block is
 * read); ws_trace_verify and `trace info` find it, naming launch, block
 * and offset. */
static void
test_verify_chunks (void)
{
  char *dir;
  char *path = tmp_path (&dir, "t.wstrace");
  write_synthetic (path, 0);
  g_autoptr (GError) error = NULL;
  uint64_t chunks = 0;
  {
    g_autoptr (WsTrace) t = ws_trace_open (path, &error);
    g_assert_no_error (error);
    g_assert_true (ws_trace_verify (t, &chunks, &error));
    g_assert_cmpuint (chunks, >, 1);
  }
  g_autofree char *data = NULL;
  gsize len;
  g_assert_true (g_file_get_contents (path, &data, &len, NULL));
  /* the first chunk starts right after the header */
  data[WS_TRACE_HEADER_SIZE + 5] ^= 0x40;
  g_assert_true (put_file (path, data, len));
  g_autoptr (WsTrace) t = ws_trace_open (path, &error);
  g_assert_no_error (error);
  g_assert_false (ws_trace_verify (t, NULL, &error));
  g_assert_error (error, WS_ERROR, WS_ERROR_CORRUPT);
  g_assert_nonnull (strstr (error->message, "chunk of thread block 0 of launch 0: checksum mismatch at offset 16"));
  g_assert_nonnull (strstr (error->message, path));
  rm_tmp (dir, path);
}

/* A damaged stream inside a valid chunk (bad record) is caught by the
 * decoder with the position, not by a crash. */
static void
test_corrupt_stream (void)
{
  char *dir;
  char *path = tmp_path (&dir, "t.wstrace");
  g_autoptr (GError) error = NULL;
  WsTraceWriter *w = ws_trace_writer_new (path, &error);
  g_assert_no_error (error);
  WsTraceStaticInst insts[4];
  make_static (4, insts);
  WsTraceKernelDesc d = { .name = "k", .n_insts = 4, .insts = insts };
  uint32_t k = ws_trace_writer_add_kernel (w, &d);
  uint32_t grid[3] = { 1, 1, 1 }, block[3] = { 32, 1, 1 };
  ws_trace_writer_begin_launch (w, k, grid, block, 0);
  WsTraceCta *cta = ws_trace_cta_begin (w, 0, 1);
  ws_trace_cta_inst (cta, 0, 0, 0xffffffffu);
  ws_trace_cta_inst (cta, 0, 3, 0xffffffffu);
  /* a static id outside the kernel: decoded as damage */
  ws_trace_cta_inst (cta, 0, 7, 0xffffffffu);
  ws_trace_cta_end (cta);
  g_assert_true (ws_trace_writer_end_launch (w, &error));
  g_assert_true (ws_trace_writer_close (w, &error));
  g_autoptr (WsTrace) t = ws_trace_open (path, &error);
  g_assert_no_error (error);
  g_autoptr (WsTraceTb) tb = ws_trace_read_tb (t, 0, 0, &error);
  g_assert_no_error (error);
  g_autoptr (WsTraceWarpStream) s = ws_trace_tb_decode_warp (tb, 0, &error);
  g_assert_null (s);
  g_assert_error (error, WS_ERROR, WS_ERROR_CORRUPT);
  g_assert_nonnull (strstr (error->message, "at byte 2"));
  g_assert_nonnull (strstr (error->message, "instruction id 7"));
  rm_tmp (dir, path);
}

static void
test_incomplete_launch (void)
{
  char *dir;
  char *path = tmp_path (&dir, "t.wstrace");
  g_autoptr (GError) error = NULL;
  WsTraceWriter *w = ws_trace_writer_new (path, &error);
  WsTraceStaticInst insts[4];
  make_static (4, insts);
  WsTraceKernelDesc d = { .name = "faulty", .n_insts = 4, .insts = insts };
  uint32_t k = ws_trace_writer_add_kernel (w, &d);
  uint32_t grid[3] = { 4, 1, 1 }, block[3] = { 32, 1, 1 };
  ws_trace_writer_begin_launch (w, k, grid, block, 0);
  for (uint64_t b = 0; b < 4; b++)
    {
      if (b == 1)
        continue; /* TB 1 faulted and never ended */
      WsTraceCta *cta = ws_trace_cta_begin (w, b, 1);
      ws_trace_cta_inst (cta, 0, 0, 0xffffffffu);
      ws_trace_cta_end (cta);
    }
  g_assert_false (ws_trace_writer_end_launch (w, &error));
  g_assert_error (error, WS_ERROR, WS_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, "1 of 4 thread blocks"));
  g_clear_error (&error);
  g_assert_true (ws_trace_writer_close (w, &error));
  g_assert_no_error (error);

  g_autoptr (WsTrace) t = ws_trace_open (path, &error);
  g_assert_no_error (error);
  const WsTraceLaunch *L = ws_trace_get_launch (t, 0);
  g_assert_false (L->complete);
  g_assert_cmpuint (L->warp_instructions, ==, 3);
  const WsTraceTbCounters *tbs = ws_trace_get_tb_counters (t, 0, NULL);
  g_assert_false (tbs[1].recorded);
  g_assert_true (tbs[2].recorded);
  g_assert_null (ws_trace_read_tb (t, 0, 1, &error));
  g_assert_error (error, WS_ERROR, WS_ERROR_NOT_FOUND);
  g_clear_error (&error);
  g_autoptr (WsTraceTb) tb = ws_trace_read_tb (t, 0, 3, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (ws_trace_tb_get_n_records (tb, 0), ==, 1);
  rm_tmp (dir, path);
}

/* ---- sector counting and the stream encoding, on hand-made accesses ---- */

static void
test_sector_counting (void)
{
  uint64_t a[32];
  for (int l = 0; l < 32; l++)
    a[l] = 0x1000 + 4 * (uint64_t) l; /* 128 aligned bytes */
  g_assert_cmpuint (ws_trace_count_sectors (a, 0xffffffffu, 4), ==, 4);
  g_assert_cmpuint (ws_trace_count_sectors (a, 0x0000ffffu, 4), ==, 2);
  g_assert_cmpuint (ws_trace_count_sectors (a, 0x80000001u, 4), ==, 2);
  g_assert_cmpuint (ws_trace_count_sectors (a, 0xffffffffu, 8), ==, 5); /* overlapping 8-byte accesses */
  for (int l = 0; l < 32; l++)
    a[l] = 0x1002 + 4 * (uint64_t) l; /* misaligned: 4 sectors + 1 */
  g_assert_cmpuint (ws_trace_count_sectors (a, 0xffffffffu, 4), ==, 5);
  for (int l = 0; l < 32; l++)
    a[l] = 0x1000 + 128 * (uint64_t) (31 - l); /* one sector per lane, reverse order */
  g_assert_cmpuint (ws_trace_count_sectors (a, 0xffffffffu, 4), ==, 32);
  for (int l = 0; l < 32; l++)
    a[l] = 0x2000; /* broadcast */
  g_assert_cmpuint (ws_trace_count_sectors (a, 0xffffffffu, 16), ==, 1);
  g_assert_cmpuint (ws_trace_count_sectors (a, 0, 4), ==, 0);
}

/* The encoder's choices are visible in the decoded records: stride mode for
 * regular accesses (with the stride), per-lane mode otherwise; and a
 * sequential full-mask instruction costs exactly one byte. */
static void
test_stream_encoding (void)
{
  char *dir;
  char *path = tmp_path (&dir, "t.wstrace");
  g_autoptr (GError) error = NULL;
  WsTraceWriter *w = ws_trace_writer_new (path, &error);
  ws_trace_writer_set_level (w, 1);
  WsTraceStaticInst insts[64];
  make_static (64, insts);
  WsTraceKernelDesc d = { .name = "enc", .n_insts = 64, .insts = insts };
  uint32_t k = ws_trace_writer_add_kernel (w, &d);
  uint32_t grid[3] = { 1, 1, 1 }, block[3] = { 64, 1, 1 };
  ws_trace_writer_begin_launch (w, k, grid, block, 0);
  WsTraceCta *cta = ws_trace_cta_begin (w, 0, 2);
  uint64_t reg[32], neg[32], irr[32], out[32];
  for (int l = 0; l < 32; l++)
    {
      out[l] = 0x40000 + 4 * (uint64_t) l + (l == 17 ? 4096 : 0);
      reg[l] = 0x10000 + 4 * (uint64_t) l;
      neg[l] = 0x20000 - 8 * (uint64_t) l;
      irr[l] = 0x30000 + (uint64_t) ((l * 7919) % 613) * 4;
    }
  /* warp 0: 100 sequential instructions, 1 byte each */
  for (uint32_t i = 0; i < 100; i++)
    ws_trace_cta_inst_fast (cta, 0, i % 64, 0xffffffffu);
  /* warp 1: a regular, a negative-stride, an irregular access, a barrier */
  ws_trace_cta_mem (cta, 1, 1, 0xffffffffu, WS_SPACE_GLOBAL, reg);
  ws_trace_cta_mem (cta, 1, 9, 0x0000ff00u, WS_SPACE_GLOBAL, neg);
  ws_trace_cta_mem (cta, 1, 17, 0xffffffffu, WS_SPACE_GLOBAL, irr);
  ws_trace_cta_mem (cta, 1, 25, 0xfffffffeu, WS_SPACE_SHARED, out);
  ws_trace_cta_barrier (cta, 1, 6);
  ws_trace_cta_inst (cta, 1, 7, 0x1u);
  ws_trace_cta_barrier (cta, 1, 14);
  ws_trace_cta_end (cta);
  g_assert_true (ws_trace_writer_end_launch (w, &error));
  g_assert_true (ws_trace_writer_close (w, &error));

  g_autoptr (WsTrace) t = ws_trace_open (path, &error);
  g_assert_no_error (error);
  g_autoptr (WsTraceTb) tb = ws_trace_read_tb (t, 0, 0, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (ws_trace_tb_get_n_records (tb, 0), ==, 100);
  WsTraceWarpIter it;
  WsTraceRecord r;
  ws_trace_warp_iter_init (&it, tb, 0);
  guint n = 0;
  while (ws_trace_warp_iter_next (&it, &r, &error))
    n++;
  g_assert_no_error (error);
  g_assert_cmpuint (n, ==, 100);
  /* 100 records, all one byte except the wrap from 63 to 0 (escape) */
  g_assert_cmpuint ((guint) (it.end - it.start), ==, 100 + 1);

  ws_trace_warp_iter_init (&it, tb, 1);
  g_assert_true (ws_trace_warp_iter_next (&it, &r, &error));
  g_assert_cmpuint (r.kind, ==, WS_TRACE_RECORD_MEM);
  g_assert_cmpuint (r.addr_mode, ==, WS_TRACE_ADDR_MODE_STRIDE);
  g_assert_cmpint (r.stride, ==, 4);
  g_assert_cmphex (r.addrs[31], ==, reg[31]);
  g_assert_true (ws_trace_warp_iter_next (&it, &r, &error));
  g_assert_cmpuint (r.addr_mode, ==, WS_TRACE_ADDR_MODE_STRIDE);
  g_assert_cmpint (r.stride, ==, -8);
  g_assert_cmphex (r.active_mask, ==, 0x0000ff00u);
  g_assert_cmphex (r.addrs[8], ==, neg[8]);
  g_assert_cmphex (r.addrs[15], ==, neg[15]);
  g_assert_true (ws_trace_warp_iter_next (&it, &r, &error));
  g_assert_cmpuint (r.addr_mode, ==, WS_TRACE_ADDR_MODE_PACKED); /* scattered: bit-packed */
  g_assert_cmpmem (r.addrs, sizeof irr, irr, sizeof irr);
  g_assert_true (ws_trace_warp_iter_next (&it, &r, &error));
  g_assert_cmpuint (r.addr_mode, ==, WS_TRACE_ADDR_MODE_LANES); /* one outlier: deltas */
  g_assert_cmphex (r.active_mask, ==, 0xfffffffeu);
  for (int l = 1; l < 32; l++)
    g_assert_cmphex (r.addrs[l], ==, out[l]);
  g_assert_true (ws_trace_warp_iter_next (&it, &r, &error));
  g_assert_cmpuint (r.kind, ==, WS_TRACE_RECORD_BARRIER);
  g_assert_cmpuint (r.static_id, ==, 6);
  g_assert_cmphex (r.active_mask, ==, 0xfffffffeu); /* the previous mask */
  g_assert_true (ws_trace_warp_iter_next (&it, &r, &error));
  g_assert_cmpuint (r.kind, ==, WS_TRACE_RECORD_INST);
  g_assert_true (ws_trace_warp_iter_next (&it, &r, &error));
  g_assert_cmpuint (r.kind, ==, WS_TRACE_RECORD_BARRIER);
  g_assert_cmphex (r.active_mask, ==, 0x1u);
  g_assert_false (ws_trace_warp_iter_next (&it, &r, &error));
  g_assert_no_error (error);

  const WsTraceTbCounters *c = ws_trace_get_tb_counters (t, 0, NULL);
  g_assert_cmpuint (c->warp_instructions, ==, 107);
  g_assert_cmpuint (c->thread_instructions, ==, 100 * 32 + 32 + 8 + 32 + 31 + 31 + 1 + 1);
  g_assert_cmpuint (c->shared_accesses, ==, 1);
  /* reg: 4 sectors; neg: lanes 8..15 at 0x1ff88 .. 0x1ffc0 (4 bytes) -> 3
   * sectors; irr: the distinct sectors of its 32 lanes */
  g_assert_cmpuint (c->global_requests, ==, 4 + 3 + ws_trace_count_sectors (irr, 0xffffffffu, 4));
  g_assert_cmpuint (ws_trace_count_sectors (neg, 0x0000ff00u, 4), ==, 3);
  g_assert_cmpuint (c->barriers, ==, 2);
  g_assert_cmpuint (c->memory_instructions, ==, 3);
  rm_tmp (dir, path);
}

/* ---- TBPoint features (seed 000 eq. 2, 4, 5) ---------------------------- */

/* One warp per TB executing @full full-mask instructions, then one with
 * @tail lanes, then @mem global loads of 32 lanes with @stride bytes. */
static void
record_simple_tb (WsTraceWriter *w, uint64_t b, guint full, guint tail, guint mem, uint64_t stride)
{
  WsTraceCta *cta = ws_trace_cta_begin (w, b, 1);
  for (guint i = 0; i < full; i++)
    ws_trace_cta_inst (cta, 0, 0, 0xffffffffu);
  if (tail)
    ws_trace_cta_inst (cta, 0, 0, (tail == 32) ? 0xffffffffu : (1u << tail) - 1);
  uint64_t a[32];
  for (int l = 0; l < 32; l++)
    a[l] = 0x100000 + (uint64_t) l * stride;
  for (guint i = 0; i < mem; i++)
    ws_trace_cta_mem (cta, 0, 1, 0xffffffffu, WS_SPACE_GLOBAL, a);
  ws_trace_cta_end (cta);
}

static void
test_features (void)
{
  char *dir;
  char *path = tmp_path (&dir, "t.wstrace");
  g_autoptr (GError) error = NULL;
  WsTraceWriter *w = ws_trace_writer_new (path, &error);
  WsTraceStaticInst insts[8];
  make_static (8, insts); /* id 1: 4-byte global load */
  WsTraceKernelDesc d = { .name = "feat", .n_insts = 8, .insts = insts };
  uint32_t k = ws_trace_writer_add_kernel (w, &d);
  uint32_t block[3] = { 32, 1, 1 };
  /* The paper's example (seed 000 §III): launch 1 has TBs of 100 and 100
   * thread instructions, launch 2 of 160 and 40. */
  uint32_t g2[3] = { 2, 1, 1 };
  ws_trace_writer_begin_launch (w, k, g2, block, 0);
  record_simple_tb (w, 0, 3, 4, 0, 4); /* 100 thread, 4 warp insts */
  record_simple_tb (w, 1, 3, 4, 0, 4);
  g_assert_true (ws_trace_writer_end_launch (w, &error));
  ws_trace_writer_begin_launch (w, k, g2, block, 0);
  record_simple_tb (w, 0, 5, 0, 0, 4); /* 160 thread, 5 warp insts */
  record_simple_tb (w, 1, 1, 8, 0, 4); /* 40 thread, 2 warp insts */
  g_assert_true (ws_trace_writer_end_launch (w, &error));
  /* A launch of 6 TBs with memory: coalesced (4 sectors per load) or
   * uncoalesced (32 sectors per load). */
  uint32_t g6[3] = { 6, 1, 1 };
  ws_trace_writer_begin_launch (w, k, g6, block, 0);
  record_simple_tb (w, 0, 6, 0, 2, 4); /* 8 warp insts, 8 requests */
  record_simple_tb (w, 1, 6, 0, 2, 4);
  record_simple_tb (w, 2, 6, 0, 2, 4);
  record_simple_tb (w, 3, 6, 0, 2, 128); /* 8 warp insts, 64 requests */
  record_simple_tb (w, 4, 2, 0, 2, 128); /* 4 warp insts, 64 requests */
  record_simple_tb (w, 5, 2, 0, 2, 128);
  g_assert_true (ws_trace_writer_end_launch (w, &error));
  g_assert_true (ws_trace_writer_close (w, &error));
  g_assert_no_error (error);

  g_autoptr (WsTrace) t = ws_trace_open (path, &error);
  g_assert_no_error (error);
  const WsTraceLaunch *l0 = ws_trace_get_launch (t, 0), *l1 = ws_trace_get_launch (t, 1),
                      *l2 = ws_trace_get_launch (t, 2);
  g_assert_cmpuint (l0->thread_instructions, ==, 200);
  g_assert_cmpuint (l1->thread_instructions, ==, 200);
  g_assert_cmpuint (l0->warp_instructions, ==, 8);
  g_assert_cmpuint (l1->warp_instructions, ==, 7);
  g_assert_cmpfloat_with_epsilon (l0->cov_tb_thread_instructions, 0.0, 1e-12);
  g_assert_cmpfloat_with_epsilon (l1->cov_tb_thread_instructions, 0.6, 1e-12);
  g_assert_cmpuint (l2->memory_requests, ==, 3 * 8 + 3 * 64);
  g_assert_cmpuint (l2->thread_instructions, ==, 40 * 32);
  g_assert_cmpuint (l2->warp_instructions, ==, 3 * 8 + 8 + 2 * 4);

  WsTraceInterFeatures f[3];
  ws_trace_get_inter_launch_features (t, f);
  double avg_t = (200.0 + 200.0 + 1280.0) / 3, avg_w = (8.0 + 7.0 + 40.0) / 3, avg_m = 216.0 / 3;
  g_assert_cmpfloat_with_epsilon (f[0].thread_instructions, 200.0 / avg_t, 1e-12);
  g_assert_cmpfloat_with_epsilon (f[1].thread_instructions, 200.0 / avg_t, 1e-12);
  g_assert_cmpfloat_with_epsilon (f[2].thread_instructions, 1280.0 / avg_t, 1e-12);
  g_assert_cmpfloat_with_epsilon (f[0].warp_instructions, 8.0 / avg_w, 1e-12);
  g_assert_cmpfloat_with_epsilon (f[1].warp_instructions, 7.0 / avg_w, 1e-12);
  g_assert_cmpfloat_with_epsilon (f[2].warp_instructions, 40.0 / avg_w, 1e-12);
  g_assert_cmpfloat_with_epsilon (f[0].memory_requests, 0.0, 1e-12);
  g_assert_cmpfloat_with_epsilon (f[2].memory_requests, 216.0 / avg_m, 1e-12);
  g_assert_cmpfloat_with_epsilon (f[0].cov_tb_size, 0.0, 1e-12);
  g_assert_cmpfloat_with_epsilon (f[1].cov_tb_size, 0.6, 1e-12);

  uint64_t n;
  const WsTraceTbCounters *tbs = ws_trace_get_tb_counters (t, 2, &n);
  g_assert_cmpuint (n, ==, 6);
  g_assert_cmpfloat_with_epsilon (ws_trace_tb_stall_probability (&tbs[0]), 8.0 / 8.0, 1e-12);
  g_assert_cmpfloat_with_epsilon (ws_trace_tb_stall_probability (&tbs[3]), 64.0 / 8.0, 1e-12);
  g_assert_cmpfloat_with_epsilon (ws_trace_tb_stall_probability (&tbs[4]), 64.0 / 4.0, 1e-12);
  g_assert_cmpfloat_with_epsilon (ws_trace_tb_memory_fraction (&tbs[0]), 2.0 / 8.0, 1e-12);
  g_assert_cmpfloat_with_epsilon (ws_trace_tb_memory_fraction (&tbs[4]), 2.0 / 4.0, 1e-12);

  /* eq. 4: occupancy 4 -> epochs {0..3}, {4, 5} */
  g_autofree WsTraceEpoch *e = NULL;
  g_assert_cmpuint (ws_trace_get_epochs (t, 2, 4, FALSE, &e), ==, 2);
  g_assert_cmpuint (e[0].first_tb, ==, 0);
  g_assert_cmpuint (e[0].n_tbs, ==, 4);
  g_assert_cmpuint (e[1].first_tb, ==, 4);
  g_assert_cmpuint (e[1].n_tbs, ==, 2);
  g_assert_cmpfloat_with_epsilon (e[0].stall_probability, (1.0 + 1.0 + 1.0 + 8.0) / 4, 1e-12);
  g_assert_cmpfloat_with_epsilon (e[1].stall_probability, 16.0, 1e-12);
  /* X = {8, 8, 8, 64}: mean 22, sd sqrt(3*196 + 1764)/2 = sqrt(588)... */
  double x[4] = { 8, 8, 8, 64 };
  g_assert_cmpfloat_with_epsilon (e[0].variation_factor, cov_of (x, 4), 1e-12);
  g_assert_cmpfloat_with_epsilon (e[0].variation_factor, sqrt ((3 * 14.0 * 14.0 + 42.0 * 42.0) / 4) / 22.0, 1e-12);
  g_assert_cmpfloat_with_epsilon (e[1].variation_factor, 0.0, 1e-12);
  g_autofree WsTraceEpoch *e2 = NULL;
  g_assert_cmpuint (ws_trace_get_epochs (t, 2, 4, TRUE, &e2), ==, 2);
  g_assert_cmpfloat_with_epsilon (e2[0].stall_probability, 0.25, 1e-12);
  g_assert_cmpfloat_with_epsilon (e2[1].stall_probability, 0.5, 1e-12);
  rm_tmp (dir, path);
}

/* ---- size on realistic streams ------------------------------------------- */

typedef enum { PAT_COMPUTE, PAT_MEMORY, PAT_DIVERGENT, PAT_GATHER, PAT_COUNT } Pattern;
static const char *pat_names[] = { "compute-bound (saxpy2, a=16)", "memory-bound (vector add, grid-stride)",
                                   "divergent (tid % 4 branches)", "irregular (CSR SpMV gather)" };

/* Emulates what the emulator would record for a few example kernels:
 * instruction ids follow the kernels' control flow, addresses their data
 * layout (grid of 256 TBs x 256 threads). */
static uint64_t
record_pattern (WsTraceWriter *w, Pattern pat, GRand *r)
{
  const uint32_t nblocks = 256, nthreads = 256;
  uint32_t grid[3] = { nblocks, 1, 1 }, block[3] = { nthreads, 1, 1 };
  WsTraceStaticInst insts[64];
  make_static (64, insts);
  for (int i = 0; i < 64; i++)
    insts[i].access_size = 4;
  g_autofree char *name = g_strdup_printf ("pattern%d", pat);
  WsTraceKernelDesc d = { .name = name, .n_insts = 64, .insts = insts };
  uint32_t k = ws_trace_writer_add_kernel (w, &d);
  ws_trace_writer_begin_launch (w, k, grid, block, 0);
  uint64_t X = 0x7f0000000000ull, Y = 0x7f0001000000ull, Z = 0x7f0002000000ull;
  uint64_t a[32];
  uint64_t n = 0;
  for (uint32_t b = 0; b < nblocks; b++)
    {
      WsTraceCta *cta = ws_trace_cta_begin (w, b, nthreads / 32);
      for (uint32_t wp = 0; wp < nthreads / 32; wp++)
        {
          uint64_t tid0 = (uint64_t) b * nthreads + wp * 32;
          uint32_t id = 0;
#define INST(m) \
  do \
    { \
      ws_trace_cta_inst (cta, wp, id++, (m)); \
      n++; \
    } \
  while (0)
/* clang-format off */
#define MEM(m, base, stride) do { for (int l = 0; l < 32; l++) a[l] = (base) + (uint64_t) l * (stride); \
        ws_trace_cta_mem (cta, wp, id++, (m), WS_SPACE_GLOBAL, a); n++; } while (0)
          /* clang-format on */
          for (int i = 0; i < 6; i++)
            INST (0xffffffffu); /* index computation, ld.param folded in */
          switch (pat)
            {
            case PAT_COMPUTE:
              {
                MEM (0xffffffffu, X + tid0 * 4, 4);
                MEM (0xffffffffu, Y + tid0 * 4, 4);
                uint32_t loop = id;
                for (int it = 0; it < 16; it++)
                  {
                    id = loop;
                    for (int i = 0; i < 4; i++)
                      INST (0xffffffffu); /* fma, add, setp, bra */
                  }
                MEM (0xffffffffu, Y + tid0 * 4, 4);
                break;
              }
            case PAT_MEMORY:
              {
                uint32_t loop = id;
                for (int it = 0; it < 8; it++)
                  {
                    id = loop;
                    uint64_t i0 = tid0 + (uint64_t) it * nblocks * nthreads;
                    MEM (0xffffffffu, X + i0 * 4, 4);
                    MEM (0xffffffffu, Y + i0 * 4, 4);
                    INST (0xffffffffu);
                    MEM (0xffffffffu, Z + i0 * 4, 4);
                    for (int i = 0; i < 4; i++)
                      INST (0xffffffffu);
                  }
                break;
              }
            case PAT_DIVERGENT:
              {
                uint32_t loop = id;
                for (int it = 0; it < 8; it++)
                  {
                    id = loop;
                    INST (0xffffffffu);
                    INST (0xffffffffu); /* setp, @p bra */
                    MEM (0x11111111u, X + (tid0 + (uint64_t) it * 65536) * 4, 4);
                    INST (0x11111111u);
                    INST (0x11111111u);
                    id = loop + 10;
                    MEM (0xeeeeeeeeu, Y + (tid0 + (uint64_t) it * 65536) * 8, 8);
                    INST (0xeeeeeeeeu);
                    INST (0xffffffffu); /* reconverged */
                    INST (0xffffffffu);
                  }
                break;
              }
            default:
              {
                /* each lane a row of ~8 nonzeros; gathers x[col] from 1M columns */
                MEM (0xffffffffu, X + tid0 * 4, 4); /* row_ptr */
                uint32_t loop = id;
                for (int it = 0; it < 8; it++)
                  {
                    id = loop;
                    uint32_t mask = it < 6 ? 0xffffffffu : (uint32_t) g_rand_int (r) | 1u;
                    MEM (mask, Y + (tid0 * 8 + (uint64_t) it) * 4, 32); /* col[j]: lanes 32 B apart */
                    MEM (mask, Z + (tid0 * 8 + (uint64_t) it) * 4, 32); /* val[j] */
                    for (int l = 0; l < 32; l++)
                      a[l] = X + 0x4000000 + (uint64_t) g_rand_int_range (r, 0, 1 << 20) * 4;
                    ws_trace_cta_mem (cta, wp, id++, mask, WS_SPACE_GLOBAL, a);
                    n++;
                    for (int i = 0; i < 4; i++)
                      INST (mask);
                  }
                MEM (0xffffffffu, Z + 0x100000 + tid0 * 4, 4);
                break;
              }
            }
          INST (0xffffffffu); /* exit */
#undef INST
#undef MEM
        }
      ws_trace_cta_end (cta);
    }
  g_autoptr (GError) error = NULL;
  g_assert_true (ws_trace_writer_end_launch (w, &error));
  return n;
}

static void
test_bytes_per_warp_instruction (void)
{
  double sum = 0;
  for (int p = 0; p < PAT_COUNT; p++)
    {
      char *dir;
      char *path = tmp_path (&dir, "t.wstrace");
      g_autoptr (GError) error = NULL;
      g_autoptr (GRand) r = g_rand_new_with_seed (3);
      WsTraceWriter *w = ws_trace_writer_new (path, &error);
      uint64_t n = record_pattern (w, (Pattern) p, r);
      g_assert_true (ws_trace_writer_close (w, &error));
      g_autoptr (WsTrace) t = ws_trace_open (path, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (ws_trace_get_total_warp_instructions (t), ==, n);
      double bpi = (double) ws_trace_get_file_size (t) / (double) n;
      g_test_message ("bytes per warp instruction, %s: %.3f (%" G_GUINT64_FORMAT
                      " warp instructions, %" G_GUINT64_FORMAT " bytes)",
                      pat_names[p], bpi, n, ws_trace_get_file_size (t));
      if (p != PAT_GATHER)
        g_assert_cmpfloat (bpi, <=, 4.0);
      sum += bpi;
      rm_tmp (dir, path);
    }
  g_test_message ("bytes per warp instruction, average of the four: %.3f", sum / PAT_COUNT);
  g_assert_cmpfloat (sum / PAT_COUNT, <=, 4.0);
}

/* ---- warpscope-cli trace info ------------------------------------------ */

static void
test_cli_info (void)
{
  const char *build = g_getenv ("WS_BUILD_DIR");
  if (build == NULL)
    {
      g_test_skip ("WS_BUILD_DIR not set (run through meson test)");
      return;
    }
  g_autofree char *cli = g_build_filename (build, "app", "cli", "warpscope-cli", NULL);
  if (!g_file_test (cli, G_FILE_TEST_IS_EXECUTABLE))
    {
      g_test_skip ("warpscope-cli not built");
      return;
    }
  char *dir;
  char *path = tmp_path (&dir, "t.wstrace");
  write_synthetic (path, 0);
  g_autoptr (GError) error = NULL;
  g_autofree char *out = NULL, *err = NULL;
  int status;
  const char *argv[] = { cli, "trace", "info", path, "--json", NULL };
  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, &err, &status, &error));
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_assert_true (json_parser_load_from_data (parser, out, -1, &error));
  JsonObject *root = json_node_get_object (json_parser_get_root (parser));
  JsonArray *launches = json_object_get_array_member (root, "launches");
  g_assert_cmpuint (json_array_get_length (launches), ==, N_LAUNCHES);
  g_autoptr (WsTrace) t = ws_trace_open (path, &error);
  g_assert_no_error (error);
  for (guint l = 0; l < N_LAUNCHES; l++)
    {
      JsonObject *o = json_array_get_object_element (launches, l);
      const WsTraceLaunch *L = ws_trace_get_launch (t, l);
      g_assert_cmpint (json_object_get_int_member (o, "index"), ==, l);
      g_assert_cmpstr (json_object_get_string_member (o, "kernel"), ==, ws_trace_get_kernel (t, L->kernel)->name);
      JsonArray *g = json_object_get_array_member (o, "grid");
      JsonArray *b = json_object_get_array_member (o, "block");
      for (guint d = 0; d < 3; d++)
        {
          g_assert_cmpint (json_array_get_int_element (g, d), ==, L->grid[d]);
          g_assert_cmpint (json_array_get_int_element (b, d), ==, L->block[d]);
        }
      g_assert_cmpint (json_object_get_int_member (o, "warp_instructions"), ==, (gint64) L->warp_instructions);
      g_assert_cmpint (json_object_get_int_member (o, "thread_instructions"), ==, (gint64) L->thread_instructions);
      g_assert_cmpint (json_object_get_int_member (o, "memory_requests"), ==, (gint64) L->memory_requests);
    }

  /* text mode: a table naming the kernels */
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  const char *argv_text[] = { cli, "trace", "info", path, NULL };
  g_assert_true (
    g_spawn_sync (NULL, (char **) argv_text, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, &err, &status, &error));
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  g_assert_nonnull (strstr (out, "_Z7kernel1Pf"));

  g_assert_nonnull (strstr (out, "chunks (checksums and sizes)"));
  g_assert_cmpint (json_object_get_int_member (root, "chunks_verified"), >, 1);

  /* a damaged chunk (the open does not read chunks): exit 1, named */
  {
    g_autofree char *orig = NULL;
    gsize olen;
    g_assert_true (g_file_get_contents (path, &orig, &olen, NULL));
    orig[WS_TRACE_HEADER_SIZE + 5] ^= 0x40;
    g_assert_true (put_file (path, orig, olen));
    g_clear_pointer (&out, g_free);
    g_clear_pointer (&err, g_free);
    g_assert_true (
      g_spawn_sync (NULL, (char **) argv_text, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, &err, &status, &error));
    g_assert_true (WIFEXITED (status));
    g_assert_cmpint (WEXITSTATUS (status), ==, 1);
    g_assert_nonnull (strstr (err, "checksum mismatch"));
    orig[WS_TRACE_HEADER_SIZE + 5] ^= 0x40;
    g_assert_true (put_file (path, orig, olen));
  }

  /* corrupt: exit 1 with the reader's message */
  g_autofree char *data = NULL;
  gsize len;
  g_assert_true (g_file_get_contents (path, &data, &len, NULL));
  g_assert_true (put_file (path, data, len - 7));
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, &err, &status, &error));
  g_assert_true (WIFEXITED (status));
  g_assert_cmpint (WEXITSTATUS (status), ==, 1);
  g_assert_nonnull (strstr (err, "damaged"));
  g_assert_cmpstr (out, ==, "");
  rm_tmp (dir, path);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/trace/roundtrip/serial-counters-and-records", test_roundtrip_serial);
  g_test_add_func ("/trace/roundtrip/threads-out-of-order", test_roundtrip_threads);
  g_test_add_func ("/trace/roundtrip/chunk-sizes", test_roundtrip_chunking);
  g_test_add_func ("/trace/writer/parallel-identical-to-serial", test_parallel_identical);
  g_test_add_func ("/trace/writer/incomplete-launch", test_incomplete_launch);
  g_test_add_func ("/trace/writer/sector-counting", test_sector_counting);
  g_test_add_func ("/trace/writer/stream-encoding", test_stream_encoding);
  g_test_add_func ("/trace/reader/random-access-tb", test_random_access_tb);
  g_test_add_func ("/trace/reader/concurrent-readers", test_concurrent_readers);
  g_test_add_func ("/trace/reader/corrupt-files", test_corrupt_files);
  g_test_add_func ("/trace/reader/corrupt-stream", test_corrupt_stream);
  g_test_add_func ("/trace/reader/inconsistent-records", test_inconsistent_records);
  g_test_add_func ("/trace/reader/verify-chunks", test_verify_chunks);
  g_test_add_func ("/trace/features/tbpoint-eq2-eq5", test_features);
  g_test_add_func ("/trace/size/bytes-per-warp-instruction", test_bytes_per_warp_instruction);
  g_test_add_func ("/trace/cli/info", test_cli_info);
  return g_test_run ();
}
