/* The ake predictor plugin (seed 002, abstract kernel emulation) on
 * synthetic traces whose emulated schedules are worked out by hand in the
 * comments.  Times: an instruction issues at t, starts at max(t, admit),
 * completes at start + latency; a consumer issues at its producer's
 * completion; the kernel ends at the latest completion. */
#include "predict/ws-predict.h"
#include "trace/ws-trace.h"
#include "trace/ws-trace-writer.h"
#include "ptx/ws-ptx.h"

#include <math.h>
#include <string.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include "../test-gpu.h"

#define INT_LAT 6.0
#define FP32_LAT 4.0
#define FP32_II 3.0
#define SFU_LAT 16.0
#define SFU_II 4.0
#define FP64_LAT 10.0
#define FP64_II 8.0
#define SHARED_LAT 20.0
#define SHARED_II 2.0
#define GLOBAL_LAT 400.0
#define L1_LAT 30.0
#define BRANCH_LAT 8.0

/* One SM, one scheduler issuing one instruction per cycle, 1 GHz, DRAM at
 * 16 GB/s = 16 bytes per cycle of the SM. */
static WsGpu *
test_gpu (void)
{
  WsGpu *g = test_gpu_cc80 ("ake test GPU", 1);
  g->l1_latency = L1_LAT;
  g->l1_mshrs = 32;
  g->l2_latency = 200;
  g->dram_latency = GLOBAL_LAT;
  g->dram_bandwidth_gbs = 16;
  for (int c = 0; c < WS_ICLASS_COUNT; c++)
    {
      g->pipes[c].latency = 1;
      g->pipes[c].initiation_interval = 1;
    }
  g->pipes[WS_ICLASS_INT] = (WsPipe){ INT_LAT, 1 };
  g->pipes[WS_ICLASS_FP32] = (WsPipe){ FP32_LAT, FP32_II };
  g->pipes[WS_ICLASS_SFU] = (WsPipe){ SFU_LAT, SFU_II };
  g->pipes[WS_ICLASS_FP64] = (WsPipe){ FP64_LAT, FP64_II };
  g->pipes[WS_ICLASS_SHARED] = (WsPipe){ SHARED_LAT, SHARED_II };
  g->pipes[WS_ICLASS_GLOBAL] = (WsPipe){ GLOBAL_LAT, 1 };
  g->pipes[WS_ICLASS_BRANCH] = (WsPipe){ BRANCH_LAT, 1 };
  return g;
}

/* ---- synthetic traces ------------------------------------------------------ */

/* Addresses of a memory step: a fresh coalesced 128-byte line; 32 fresh
 * lines (uncoalesced); the warp's first step's line again; shared memory
 * with a stride of one word (conflict-free), of 32 words (32-way) or of 33
 * words (32 rows, conflict-free); global memory at a stride of 15 words
 * (15 lines, 32 sectors, conflict-free) or one address for every lane. */
enum {
  ADDR_NONE,
  ADDR_COALESCED,
  ADDR_SCATTER,
  ADDR_REPEAT,
  ADDR_SH_STRIDE1,
  ADDR_SH_STRIDE32,
  ADDR_SH_STRIDE33,
  ADDR_STRIDE15,
  ADDR_BROADCAST
};

typedef struct {
  uint32_t id;
  int addr;
} Step;

typedef struct {
  const Step *steps;
  guint n;
} Program;

static WsTraceStaticInst
inst_op (int opclass, int op, int dst, int src)
{
  WsTraceStaticInst i = { 0 };
  i.op = (uint8_t) op;
  i.opclass = (uint8_t) opclass;
  i.dst[0] = i.dst[1] = 0xffff;
  for (int k = 0; k < 4; k++)
    i.src[k] = 0xffff;
  if (dst >= 0)
    {
      i.n_dst = 1;
      i.dst[0] = (uint16_t) dst;
    }
  if (src >= 0)
    {
      i.n_src = 1;
      i.src[0] = (uint16_t) src;
    }
  return i;
}

static WsTraceStaticInst
inst_alu (int dst, int src)
{
  return inst_op (WS_OPCLASS_ALU, WS_OP_ADD, dst, src);
}
static WsTraceStaticInst
inst_fp32 (int dst, int src)
{
  return inst_op (WS_OPCLASS_FP32, WS_OP_ADD, dst, src);
}

static WsTraceStaticInst
inst_mem (int opclass, int space, int dst, int src)
{
  WsTraceStaticInst i = inst_op (opclass, opclass == WS_OPCLASS_ST ? WS_OP_ST : WS_OP_LD, dst, src);
  i.space = (uint8_t) space;
  i.access_size = 4;
  return i;
}

/* Warp w of every block runs programs[w % n_programs]. */
static char *
write_trace (const char *dir, const char *name, const WsTraceStaticInst *insts, guint n_insts, uint32_t blocks,
             uint32_t warps_per_block, const Program *programs, guint n_programs)
{
  g_autofree char *file = g_strconcat (name, ".wstrace", NULL);
  g_autofree char *path = g_build_filename (dir, file, NULL);
  g_autoptr (GError) error = NULL;
  WsTraceWriter *w = ws_trace_writer_new (path, &error);
  g_assert_no_error (error);
  WsTraceKernelDesc kd = { .name = name, .n_insts = n_insts, .insts = insts, .regs_per_thread = 16 };
  uint32_t kernel = ws_trace_writer_add_kernel (w, &kd);
  const uint32_t grid[3] = { blocks, 1, 1 }, block[3] = { 32 * warps_per_block, 1, 1 };
  ws_trace_writer_begin_launch (w, kernel, grid, block, 0);
  for (uint64_t b = 0; b < blocks; b++)
    {
      WsTraceCta *cta = ws_trace_cta_begin (w, b, warps_per_block);
      for (uint32_t warp = 0; warp < warps_per_block; warp++)
        {
          const Program *p = &programs[warp % n_programs];
          for (guint s = 0; s < p->n; s++)
            {
              const Step *st = &p->steps[s];
              uint64_t gw = b * warps_per_block + warp, a[32];
              uint64_t slot = gw * 64 + (st->addr == ADDR_REPEAT ? 0 : s);
              uint8_t space = WS_SPACE_GLOBAL;
              for (int l = 0; l < 32; l++)
                switch (st->addr)
                  {
                  case ADDR_SCATTER: a[l] = 0x7e0000000000ull + (slot * 32 + l) * 128; break;
                  case ADDR_SH_STRIDE1:
                    a[l] = 4 * l;
                    space = WS_SPACE_SHARED;
                    break;
                  case ADDR_SH_STRIDE32:
                    a[l] = 128 * l;
                    space = WS_SPACE_SHARED;
                    break;
                  case ADDR_SH_STRIDE33:
                    a[l] = 132 * l;
                    space = WS_SPACE_SHARED;
                    break;
                  case ADDR_STRIDE15: a[l] = 0x7d0000000000ull + slot * 4096 + 60 * l; break;
                  case ADDR_BROADCAST: a[l] = 0x7d0000000000ull + slot * 4096; break;
                  default: a[l] = 0x7f0000000000ull + slot * 128 + 4 * l; break;
                  }
              if (st->addr == ADDR_NONE)
                {
                  if (insts[st->id].opclass == WS_OPCLASS_BARRIER)
                    ws_trace_cta_barrier_mask (cta, warp, st->id, 0xffffffffu);
                  else
                    ws_trace_cta_inst (cta, warp, st->id, 0xffffffffu);
                }
              else
                ws_trace_cta_mem (cta, warp, st->id, 0xffffffffu, space, a);
            }
        }
      ws_trace_cta_end (cta);
    }
  g_assert_true (ws_trace_writer_end_launch (w, &error));
  g_assert_true (ws_trace_writer_close (w, &error));
  g_assert_no_error (error);
  return g_steal_pointer (&path);
}

/* n dependent ALU instructions: r1 = r1 + ... (the first has no source). */
static char *
write_chain_trace (const char *dir, guint n, uint32_t blocks, uint32_t warps_per_block)
{
  WsTraceStaticInst insts[2] = { inst_alu (1, -1), inst_alu (1, 1) };
  Step steps[64];
  g_assert_cmpuint (n, <=, 64);
  for (guint i = 0; i < n; i++)
    steps[i] = (Step){ i == 0 ? 0 : 1, ADDR_NONE };
  Program p = { steps, n };
  g_autofree char *name = g_strdup_printf ("chain_%u_%u_%u", n, blocks, warps_per_block);
  return write_trace (dir, name, insts, 2, blocks, warps_per_block, &p, 1);
}

/* n independent FP32 instructions. */
static char *
write_independent_trace (const char *dir, guint n, uint32_t warps_per_block)
{
  WsTraceStaticInst insts[16];
  Step steps[16];
  for (guint i = 0; i < n; i++)
    {
      insts[i] = inst_fp32 ((int) i + 1, -1);
      steps[i] = (Step){ i, ADDR_NONE };
    }
  Program p = { steps, n };
  return write_trace (dir, "independent", insts, n, 1, warps_per_block, &p, 1);
}

/* n independent loads, each of its own coalesced line (or 32 lines). */
static char *
write_stream_trace (const char *dir, guint n, int addr, uint32_t blocks)
{
  WsTraceStaticInst insts[16];
  Step steps[16];
  for (guint i = 0; i < n; i++)
    {
      insts[i] = inst_mem (WS_OPCLASS_LD, WS_SPACE_GLOBAL, (int) i + 1, -1);
      steps[i] = (Step){ i, addr };
    }
  Program p = { steps, n };
  g_autofree char *name = g_strdup_printf ("stream_%u_%d_%u", n, addr, blocks);
  return write_trace (dir, name, insts, n, blocks, 1, &p, 1);
}

/* ---- running the plugin ---------------------------------------------------- */

static WsPredictorPlugin *
load_ake (void)
{
  const char *path = g_getenv ("WS_AKE_PLUGIN");
  g_assert_nonnull (path);
  WsPredictorPlugin *p = ws_predictor_plugin_load (path);
  if (!p->ok)
    g_error ("%s", p->error);
  g_assert_cmpstr (p->name, ==, "ake");
  g_assert_true (p->descriptor->supports_trace);
  g_assert_false (p->descriptor->supports_analytic);
  return p;
}

/* Options as "name=value" pairs, NULL-terminated. */
static WsPrediction *
predict_opts (const char *trace_path, const WsGpu *gpu, const char *const *opts)
{
  g_autoptr (WsPredictorPlugin) plugin = load_ake ();
  g_autoptr (GError) error = NULL;
  g_autoptr (WsTrace) trace = ws_trace_open (trace_path, &error);
  g_assert_no_error (error);
  g_autoptr (GHashTable) options = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  for (guint i = 0; opts && opts[i]; i++)
    {
      g_auto (GStrv) kv = g_strsplit (opts[i], "=", 2);
      g_hash_table_insert (options, g_strdup (kv[0]), g_strdup (kv[1]));
    }
  WsPrediction *p = ws_predict_trace (plugin, gpu, trace, 0, NULL, options, &error);
  g_assert_no_error (error);
  g_assert_nonnull (p);
  return p;
}

static WsPrediction *
predict (const char *trace_path, const WsGpu *gpu)
{
  return predict_opts (trace_path, gpu, NULL);
}

static double
metric (const WsPrediction *p, const char *name)
{
  for (guint i = 0; i < p->metric_names->len; i++)
    if (strcmp (g_array_index (p->metric_names, char *, i), name) == 0)
      return g_array_index (p->metric_values, double, i);
  g_error ("no metric %s", name);
  return NAN;
}

static double
cpi (const WsPrediction *p, const char *category)
{
  for (guint i = 0; i < p->cpi_names->len; i++)
    if (strcmp (g_array_index (p->cpi_names, char *, i), category) == 0)
      return g_array_index (p->cpi_values, double, i);
  g_error ("no CPI category %s", category);
  return NAN;
}

#define assert_close(a, b) g_assert_cmpfloat_with_epsilon ((a), (double) (b), 1e-9 * fmax (1, fabs ((double) (b))))

static const char *const all_cats[] = { "BASE", "DEP", "SFU", "FP64", "MEM", "SHARED", "BARRIER", "CONTROL", "LAUNCH" };

/* Every category is there, none negative, and they add up to cycles per
 * warp instruction of the launch (the reciprocal of the IPC). */
static void
assert_stack_sums (const WsPrediction *p, double warp_insts)
{
  g_assert_cmpuint (p->cpi_names->len, ==, G_N_ELEMENTS (all_cats));
  double sum = 0;
  for (guint i = 0; i < G_N_ELEMENTS (all_cats); i++)
    {
      double v = cpi (p, all_cats[i]);
      g_assert_cmpfloat (v, >=, 0);
      sum += v;
    }
  assert_close (sum, p->cycles / warp_insts);
  assert_close (ws_prediction_cpi_total (p), 1 / p->ipc);
  assert_close (p->ipc, warp_insts / p->cycles);
}

typedef struct {
  char *dir;
  WsGpu *gpu;
} Fixture;

static void
fixture_setup (Fixture *f, gconstpointer data)
{
  (void) data;
  f->dir = g_dir_make_tmp ("ws-ake-XXXXXX", NULL);
  g_assert_nonnull (f->dir);
  f->gpu = test_gpu ();
}

static void
fixture_teardown (Fixture *f, gconstpointer data)
{
  (void) data;
  g_autoptr (GDir) d = g_dir_open (f->dir, 0, NULL);
  const char *n;
  while (d && (n = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *p = g_build_filename (f->dir, n, NULL);
      g_remove (p);
    }
  g_rmdir (f->dir);
  g_free (f->dir);
  ws_gpu_free (f->gpu);
}

/* ---- tests ---------------------------------------------------------------- */

/* Ten dependent ALU instructions of one warp: issued at 0, 6, ..., 54, the
 * last done at 60 = n x latency.  Ten issue cycles are BASE, the 50 others
 * wait on ALU results (DEP). */
static void
test_dependent_chain (Fixture *f, gconstpointer data)
{
  (void) data;
  g_autofree char *path = write_chain_trace (f->dir, 10, 1, 1);
  g_autoptr (WsPrediction) p = predict (path, f->gpu);
  assert_close (p->cycles, 10 * INT_LAT);
  assert_close (p->seconds, 60e-9);
  assert_close (cpi (p, "BASE"), 1);
  assert_close (cpi (p, "DEP"), 5);
  assert_close (cpi (p, "MEM"), 0);
  assert_stack_sums (p, 10);
  g_assert_cmpfloat (metric (p, "tbs_per_sm"), ==, 1);
  g_assert_cmpfloat (metric (p, "waves"), ==, 1);
  g_assert_cmpfloat (metric (p, "emulated_instructions"), ==, 10);
}

/* Eight independent FP32 instructions (latency 4, gap 3): issued at 0..7,
 * they start at 0, 3, ..., 21 as the pipe admits them; the last is done at
 * 21 + 4 = 25.  Two warps on the one scheduler share its pipe: 16 starts,
 * 15 x 3 + 4 = 49.  With two schedulers each warp has a pipe of its own: 25. */
static void
test_gap_limited (Fixture *f, gconstpointer data)
{
  (void) data;
  g_autofree char *one = write_independent_trace (f->dir, 8, 1);
  g_autoptr (WsPrediction) p = predict (one, f->gpu);
  assert_close (p->cycles, 7 * FP32_II + FP32_LAT);
  assert_close (cpi (p, "BASE"), 1);
  assert_stack_sums (p, 8);

  g_autofree char *two = write_independent_trace (f->dir, 8, 2);
  g_autoptr (WsPrediction) shared_pipe = predict (two, f->gpu);
  assert_close (shared_pipe->cycles, 15 * FP32_II + FP32_LAT);
  assert_stack_sums (shared_pipe, 16);
  f->gpu->warp_schedulers_per_sm = 2;
  g_autoptr (WsPrediction) split = predict (two, f->gpu);
  assert_close (split->cycles, 7 * FP32_II + FP32_LAT);
  assert_stack_sums (split, 16);
}

/* Ten independent coalesced loads from DRAM (caches off: latency 400), 128
 * bytes each at 16 bytes per cycle: a gap of 8 cycles, so the last enters
 * memory at 72 and is done at 472; memory was busy 80 of those cycles.  At
 * 32 GB/s the gap halves: 36 + 400. */
static void
test_bandwidth_limited (Fixture *f, gconstpointer data)
{
  (void) data;
  g_autofree char *path = write_stream_trace (f->dir, 10, ADDR_COALESCED, 1);
  const char *const no_caches[] = { "caches=false", NULL };
  g_autoptr (WsPrediction) p = predict_opts (path, f->gpu, no_caches);
  assert_close (p->cycles, 9 * 8 + GLOBAL_LAT);
  assert_close (metric (p, "dram_bytes_per_cycle_per_sm"), 16);
  assert_close (metric (p, "gmem_utilization"), 80 / p->cycles);
  assert_close (metric (p, "global_requests_per_inst"), 1);
  /* ten issue cycles, the rest drains the last load */
  assert_close (cpi (p, "BASE"), 1);
  assert_close (cpi (p, "MEM"), (p->cycles - 10) / 10);
  assert_stack_sums (p, 10);

  f->gpu->dram_bandwidth_gbs = 32;
  g_autoptr (WsPrediction) fast = predict_opts (path, f->gpu, no_caches);
  assert_close (fast->cycles, 9 * 4 + GLOBAL_LAT);

  /* With the cache simulation every line is a first touch: DRAM, AMAT 400. */
  f->gpu->dram_bandwidth_gbs = 16;
  g_autoptr (WsPrediction) cached = predict (path, f->gpu);
  assert_close (cached->cycles, 9 * 8 + GLOBAL_LAT);
}

/* Stores cost DRAM bandwidth too: 8 one-warp blocks each store 16 fresh
 * coalesced lines (16 KiB).  The cache simulation takes them into the
 * write-back L2 as hits and writes all 512 dirty sectors back (final
 * flush), one per stored sector: 32 bytes each, a gap of 128 / 16 = 8
 * cycles per store at the DRAM's 16 bytes per cycle, so the 128 stores
 * need the memory for 1024 cycles; the last enters it at 127 x 8 and
 * completes a store latency (the AMAT) later.  Before, the stores cost no
 * DRAM time: about 330 cycles, 3x the DRAM bandwidth. */
static void
test_store_bandwidth (Fixture *f, gconstpointer data)
{
  (void) data;
  WsTraceStaticInst insts[1] = { inst_mem (WS_OPCLASS_ST, WS_SPACE_GLOBAL, -1, -1) };
  Step steps[16];
  for (guint i = 0; i < 16; i++)
    steps[i] = (Step){ 0, ADDR_COALESCED };
  Program prog = { steps, 16 };
  g_autofree char *path = write_trace (f->dir, "stores", insts, 1, 8, 1, &prog, 1);
  g_autoptr (WsPrediction) p = predict (path, f->gpu);
  assert_close (metric (p, "writeback_bytes_per_stored_sector"), 32);
  assert_close (metric (p, "gmem_utilization"), 1024 / p->cycles);
  g_assert_cmpfloat (p->cycles, >=, 16384.0 / 16);
  g_assert_cmpfloat (p->cycles, <=, 127 * 8 + GLOBAL_LAT + 1);
  assert_stack_sums (p, 128);
}

/* One uncoalesced load touching 32 lines: 32 requests through the load/store
 * pipeline (gap 1) and the memory (32 bytes each: gap 2); the last enters
 * memory at max(0 + 31 x 2, 0 + 31 x 1) = 62 and is done at 462. */
static void
test_uncoalesced_requests (Fixture *f, gconstpointer data)
{
  (void) data;
  g_autofree char *path = write_stream_trace (f->dir, 1, ADDR_SCATTER, 1);
  const char *const no_caches[] = { "caches=false", NULL };
  g_autoptr (WsPrediction) p = predict_opts (path, f->gpu, no_caches);
  assert_close (metric (p, "global_requests_per_inst"), 32);
  assert_close (p->cycles, 31 * 2 + GLOBAL_LAT);
  /* With a slow load/store pipeline (gap 3) the L1 side sets the pace: 93 + 400. */
  f->gpu->pipes[WS_ICLASS_GLOBAL].initiation_interval = 3;
  g_autoptr (WsPrediction) slow = predict_opts (path, f->gpu, no_caches);
  assert_close (slow->cycles, 31 * 3 + GLOBAL_LAT);
  assert_close (metric (slow, "lsu_utilization"), 96 / slow->cycles);
  assert_stack_sums (slow, 1);
  /* The L1 pipeline is the SM's: an interval of 4 per sub-partition with two
   * schedulers is one line per 2 cycles (DRAM at 160 bytes per cycle no
   * longer limits): 31 x 2 + 400 against 31 x 4 + 400 with one scheduler. */
  f->gpu->pipes[WS_ICLASS_GLOBAL].initiation_interval = 4;
  f->gpu->dram_bandwidth_gbs = 160;
  g_autoptr (WsPrediction) one = predict_opts (path, f->gpu, no_caches);
  assert_close (one->cycles, 31 * 4 + GLOBAL_LAT);
  f->gpu->warp_schedulers_per_sm = 2;
  g_autoptr (WsPrediction) two = predict_opts (path, f->gpu, no_caches);
  assert_close (two->cycles, 31 * 2 + GLOBAL_LAT);
}

/* A load from DRAM, its consumer, the same load again (an L1 hit in the
 * cache simulation: 30 cycles, no DRAM bytes) and its consumer.  i0 at 0,
 * done 400; i1 at 400, done 404; i2 at 401, done 431; i3 at 431, done 435.
 * Without cache modelling the second load takes 400 too: i3 at 801, 805. */
static void
test_cache_hits (Fixture *f, gconstpointer data)
{
  (void) data;
  WsTraceStaticInst insts[4] = { inst_mem (WS_OPCLASS_LD, WS_SPACE_GLOBAL, 1, -1), inst_fp32 (2, 1),
                                 inst_mem (WS_OPCLASS_LD, WS_SPACE_GLOBAL, 3, -1), inst_fp32 (4, 3) };
  Step steps[4] = { { 0, ADDR_COALESCED }, { 1, ADDR_NONE }, { 2, ADDR_REPEAT }, { 3, ADDR_NONE } };
  Program prog = { steps, 4 };
  g_autofree char *path = write_trace (f->dir, "reuse", insts, 4, 1, 1, &prog, 1);
  g_autoptr (WsPrediction) p = predict (path, f->gpu);
  assert_close (p->cycles, 435);
  const char *const no_caches[] = { "caches=false", NULL };
  g_autoptr (WsPrediction) q = predict_opts (path, f->gpu, no_caches);
  assert_close (q->cycles, 805);
  assert_stack_sums (p, 4);
  assert_stack_sums (q, 4);
}

/* Shared loads: stride one word touches one 128-byte row (one wavefront,
 * done at 20); stride 32 words touches 32 rows, 32 wavefronts 2 cycles
 * apart (done at 62 + 20).  Without bank conflicts the 32 sectors need 8
 * wavefronts: 14 + 20. */
static void
test_bank_conflicts (Fixture *f, gconstpointer data)
{
  (void) data;
  WsTraceStaticInst insts[1] = { inst_mem (WS_OPCLASS_LD, WS_SPACE_SHARED, 1, -1) };
  Step s1[1] = { { 0, ADDR_SH_STRIDE1 } }, s32[1] = { { 0, ADDR_SH_STRIDE32 } };
  Program p1 = { s1, 1 }, p32 = { s32, 1 };
  g_autofree char *a = write_trace (f->dir, "sh1", insts, 1, 1, 1, &p1, 1);
  g_autofree char *b = write_trace (f->dir, "sh32", insts, 1, 1, 1, &p32, 1);
  g_autoptr (WsPrediction) free_p = predict (a, f->gpu);
  g_autoptr (WsPrediction) conflict = predict (b, f->gpu);
  assert_close (free_p->cycles, SHARED_LAT);
  assert_close (conflict->cycles, 31 * SHARED_II + SHARED_LAT);
  assert_close (metric (conflict, "shared_wavefronts_per_inst"), 32);
  assert_close (cpi (conflict, "SHARED"), conflict->cycles - 1);
  const char *const off[] = { "bank_conflicts=false", NULL };
  g_autoptr (WsPrediction) ignored = predict_opts (b, f->gpu, off);
  assert_close (ignored->cycles, 7 * SHARED_II + SHARED_LAT);
  assert_stack_sums (conflict, 1);
}

/* Shared loads at a stride of 33 words touch 32 rows but every lane has a
 * bank of its own: the host's wavefronts (its bank-conflict degree) give
 * one wavefront, done at 20.  Rows as the degree (an API 1 host) gave 32:
 * 31 x 2 + 20. */
static void
test_padded_stride_no_conflict (Fixture *f, gconstpointer data)
{
  (void) data;
  WsTraceStaticInst insts[1] = { inst_mem (WS_OPCLASS_LD, WS_SPACE_SHARED, 1, -1) };
  Step s33[1] = { { 0, ADDR_SH_STRIDE33 } };
  Program p33 = { s33, 1 };
  g_autofree char *path = write_trace (f->dir, "sh33", insts, 1, 1, 1, &p33, 1);
  g_autoptr (WsPrediction) p = predict (path, f->gpu);
  assert_close (metric (p, "shared_wavefronts_per_inst"), 1);
  assert_close (p->cycles, SHARED_LAT);
}

/* The load/store pipeline takes a load's data-stage wavefronts, the memory
 * its lines.  Load/store interval 4 (one scheduler), DRAM at 1600 bytes a
 * cycle, no caches:
 *  - a float load at a stride of 15 words: 15 lines, 32 sectors (1024
 *    bytes: 1024 / 15 / 1600 cycles a request), no bank conflict (lane l
 *    in bank 15 l mod 32) but 4 wavefronts (the tag stage resolves 4 of
 *    the 15 lines a cycle): it leaves the pipeline at 3 x 4 = 12, its
 *    last request entered memory at 14 x 1024 / 15 / 1600 = 0.597, done
 *    412.  A slot per line gave 14 x 4 + 400 = 456, as gpu-strides' 15.5
 *    cycles per warp load where H200 takes 4.6.
 *  - a double broadcast: one line, two wavefronts (256 bytes, 128 a
 *    cycle): it leaves the pipeline at 4, done 404 (400 with a slot per
 *    line, 2.0 cycles per warp load measured on A100 and H200). */
static void
test_lsu_data_stage_wavefronts (Fixture *f, gconstpointer data)
{
  (void) data;
  f->gpu->pipes[WS_ICLASS_GLOBAL].initiation_interval = 4;
  f->gpu->dram_bandwidth_gbs = 1600;
  const char *const no_caches[] = { "caches=false", NULL };
  WsTraceStaticInst insts[1] = { inst_mem (WS_OPCLASS_LD, WS_SPACE_GLOBAL, 1, -1) };
  Step s15[1] = { { 0, ADDR_STRIDE15 } };
  Program p15 = { s15, 1 };
  g_autofree char *strided = write_trace (f->dir, "stride15", insts, 1, 1, 1, &p15, 1);
  g_autoptr (WsPrediction) p = predict_opts (strided, f->gpu, no_caches);
  assert_close (metric (p, "global_requests_per_inst"), 15);
  assert_close (p->cycles, 3 * 4 + GLOBAL_LAT);
  assert_close (metric (p, "lsu_utilization"), 16 / p->cycles);

  insts[0].access_size = 8;
  Step sb[1] = { { 0, ADDR_BROADCAST } };
  Program pb = { sb, 1 };
  g_autofree char *broadcast = write_trace (f->dir, "broadcast64", insts, 1, 1, 1, &pb, 1);
  g_autoptr (WsPrediction) b = predict_opts (broadcast, f->gpu, no_caches);
  assert_close (metric (b, "global_requests_per_inst"), 1);
  assert_close (b->cycles, 4 + GLOBAL_LAT);
  assert_close (metric (b, "lsu_utilization"), 8 / b->cycles);
}

/* A block of two warps: warp 0 runs i0, bar, i3; warp 1 runs i0, i1, i1
 * (a chain on r1), bar, i3.  GTO: w0 i0 at 0, w0 bar at 1 (waits), w1 i0
 * at 2 (done 8), i1 at 8 (done 14), i1 at 14, bar at 15: the last arrival,
 * both go on at 15 + 8 = 23; w1 (greedy) issues i3 at 23, w0 at 24, done
 * 30.  BASE 8 cycles, DEP 5 + 5 + 5 (drain), BARRIER 16..23 = 7. */
static void
test_barrier (Fixture *f, gconstpointer data)
{
  (void) data;
  WsTraceStaticInst insts[4] = { inst_alu (1, -1), inst_alu (1, 1), inst_op (WS_OPCLASS_BARRIER, WS_OP_BAR, -1, -1),
                                 inst_alu (2, -1) };
  Step w0[3] = { { 0, ADDR_NONE }, { 2, ADDR_NONE }, { 3, ADDR_NONE } };
  Step w1[5] = { { 0, ADDR_NONE }, { 1, ADDR_NONE }, { 1, ADDR_NONE }, { 2, ADDR_NONE }, { 3, ADDR_NONE } };
  Program progs[2] = { { w0, 3 }, { w1, 5 } };
  g_autofree char *path = write_trace (f->dir, "barrier", insts, 4, 1, 2, progs, 2);
  g_autoptr (WsPrediction) p = predict (path, f->gpu);
  assert_close (p->cycles, 30);
  assert_close (cpi (p, "BASE"), 8.0 / 8);
  assert_close (cpi (p, "DEP"), 15.0 / 8);
  assert_close (cpi (p, "BARRIER"), 7.0 / 8);
  g_assert_cmpfloat (metric (p, "barriers_released"), ==, 1);
  assert_stack_sums (p, 8);

  /* Without the barrier instruction warp 0 would finish at once: the
   * barrier is what holds its last instruction back to 24. */
  Step w0_free[2] = { { 0, ADDR_NONE }, { 3, ADDR_NONE } };
  Step w1_free[4] = { { 0, ADDR_NONE }, { 1, ADDR_NONE }, { 1, ADDR_NONE }, { 3, ADDR_NONE } };
  Program free_progs[2] = { { w0_free, 2 }, { w1_free, 4 } };
  g_autofree char *path2 = write_trace (f->dir, "nobarrier", insts, 4, 1, 2, free_progs, 2);
  g_autoptr (WsPrediction) q = predict (path2, f->gpu);
  /* w0 i0 0, w0 i3 1, w1 i0 2 (8), i1 8 (14), i1 14 (20), i3 15 (21) */
  assert_close (q->cycles, 21);
  assert_close (cpi (q, "BARRIER"), 0);
}

/* Waves: 2 SMs holding at most 2 blocks each, 5 one-warp blocks running the
 * 10-instruction chain.  A full wave (4 blocks) puts two warps on an SM,
 * interleaved: issues 0/1, 6/7, ..., 54/55, done at 61.  The tail's block
 * runs alone: 60.  1 x 61 + 60 = 121 cycles for 50 warp instructions. */
static void
test_waves_and_tail (Fixture *f, gconstpointer data)
{
  (void) data;
  f->gpu->sms = 2;
  f->gpu->max_blocks_per_sm = 2;
  g_autofree char *path = write_chain_trace (f->dir, 10, 5, 1);
  g_autoptr (WsPrediction) p = predict (path, f->gpu);
  g_assert_cmpfloat (metric (p, "waves"), ==, 2);
  g_assert_cmpfloat (metric (p, "full_waves"), ==, 1);
  g_assert_cmpfloat (metric (p, "tbs_per_sm"), ==, 2);
  g_assert_cmpfloat (metric (p, "tail_tbs_per_sm"), ==, 1);
  assert_close (metric (p, "wave_cycles"), 61);
  assert_close (metric (p, "tail_cycles"), 60);
  assert_close (metric (p, "wave_scale"), 1);
  assert_close (p->cycles, 121);
  assert_close (p->ipc, 50.0 / 121);
  assert_stack_sums (p, 50);

  /* 9 blocks: two full waves and a tail of one: 2 x 61 + 60. */
  g_autofree char *path9 = write_chain_trace (f->dir, 10, 9, 1);
  g_autoptr (WsPrediction) p9 = predict (path9, f->gpu);
  g_assert_cmpfloat (metric (p9, "waves"), ==, 3);
  assert_close (p9->cycles, 2 * 61 + 60);
  /* 4 blocks: one full wave, no tail. */
  g_autofree char *path4 = write_chain_trace (f->dir, 10, 4, 1);
  g_autoptr (WsPrediction) p4 = predict (path4, f->gpu);
  g_assert_cmpfloat (metric (p4, "waves"), ==, 1);
  assert_close (p4->cycles, 61);
  /* max_tbs=1 caps the resident blocks: 5 blocks on 2 SMs take 3 waves of 60. */
  const char *const cap[] = { "max_tbs=1", NULL };
  g_autoptr (WsPrediction) capped = predict_opts (path, f->gpu, cap);
  g_assert_cmpfloat (metric (capped, "waves"), ==, 3);
  assert_close (capped->cycles, 3 * 60);
  assert_stack_sums (capped, 50);
}

/* Block starts (block_launch_cycles L): the SM starts block k of a wave at
 * k x L and the next wave's first block L after the last, so a wave that
 * another follows lasts at least its blocks x L.  The launch of
 * test_waves_and_tail (5 one-warp blocks running the 10-instruction chain,
 * 2 SMs of 2 blocks):
 *  - L = 4: block 0 issues at 0, 6, ..., 54 (done 60), block 1 at 4, 10,
 *    ..., 58 (done 64): the wave takes 64 (above 2 x 4); the tail's block
 *    alone 60: 124.
 *  - L = 100: block 1 starts at 100 and is done at 160; the tail's block
 *    can start 2 x 100 after the wave's first: 200 + 60 = 260 =
 *    (ceil(5 / 2) - 1) x 100 + 60, the busiest SM's last block started
 *    at its rate.  LAUNCH: the wave waits from 55 (block 0's last issue)
 *    to 100 and from 160 to 200: 85 cycles.  With 4 blocks (one wave, the
 *    last) 160.
 *  - L = 0 (not modelled): exactly test_waves_and_tail's 121. */
static void
test_block_starts (Fixture *f, gconstpointer data)
{
  (void) data;
  f->gpu->sms = 2;
  f->gpu->max_blocks_per_sm = 2;
  g_autofree char *path = write_chain_trace (f->dir, 10, 5, 1);
  f->gpu->block_launch_cycles = 4;
  g_autoptr (WsPrediction) p4 = predict (path, f->gpu);
  assert_close (metric (p4, "block_launch_cycles"), 4);
  assert_close (metric (p4, "wave_cycles"), 64);
  assert_close (metric (p4, "tail_cycles"), 60);
  assert_close (p4->cycles, 124);
  assert_stack_sums (p4, 50);

  f->gpu->block_launch_cycles = 100;
  g_autoptr (WsPrediction) p100 = predict (path, f->gpu);
  assert_close (metric (p100, "wave_cycles"), 160);
  assert_close (metric (p100, "tail_cycles"), 60);
  assert_close (p100->cycles, 260);
  assert_close (cpi (p100, "LAUNCH"), 85.0 / 50);
  assert_stack_sums (p100, 50);
  g_autofree char *path4 = write_chain_trace (f->dir, 10, 4, 1);
  g_autoptr (WsPrediction) one_wave = predict (path4, f->gpu);
  assert_close (one_wave->cycles, 160);
  assert_stack_sums (one_wave, 40);

  f->gpu->block_launch_cycles = 0;
  g_autoptr (WsPrediction) p0 = predict (path, f->gpu);
  g_assert_cmpfloat (p0->cycles, ==, 121);
  g_assert_cmpfloat (cpi (p0, "LAUNCH"), ==, 0);
  assert_stack_sums (p0, 50);
}

/* The DRAM is shared by the SMs that are busy: 2 SMs of one block each at
 * 16 GB/s give 8 bytes per cycle and SM in a full wave (10 loads of 128
 * bytes: 9 x 16 + 400 = 544); the tail's single block has the DRAM to
 * itself (9 x 8 + 400 = 472). */
static void
test_tail_bandwidth (Fixture *f, gconstpointer data)
{
  (void) data;
  f->gpu->sms = 2;
  f->gpu->max_blocks_per_sm = 1;
  g_autofree char *path = write_stream_trace (f->dir, 10, ADDR_COALESCED, 3);
  const char *const no_caches[] = { "caches=false", NULL };
  g_autoptr (WsPrediction) p = predict_opts (path, f->gpu, no_caches);
  assert_close (metric (p, "dram_bytes_per_cycle_per_sm"), 8);
  assert_close (metric (p, "wave_cycles"), 9 * 16 + GLOBAL_LAT);
  assert_close (metric (p, "tail_cycles"), 9 * 8 + GLOBAL_LAT);
  assert_close (p->cycles, 544 + 472);
  assert_stack_sums (p, 30);
}

/* Blocks of different lengths: the emulated blocks of a wave stand for the
 * wave by the ratio of mean lengths.  One SM, 1 block resident: blocks of
 * 10, 10 and 20 instructions are 3 waves; the emulated block 0 (60 cycles,
 * 10 instructions) is scaled by the mean of the full waves (40/3 / 10). */
static void
test_wave_scaling (Fixture *f, gconstpointer data)
{
  (void) data;
  f->gpu->max_blocks_per_sm = 1;
  WsTraceStaticInst insts[2] = { inst_alu (1, -1), inst_alu (1, 1) };
  Step steps[20];
  for (guint i = 0; i < 20; i++)
    steps[i] = (Step){ i == 0 ? 0 : 1, ADDR_NONE };
  /* block b's single warp: 10, 10, 20 instructions; written block by block */
  g_autofree char *path = g_build_filename (f->dir, "uneven.wstrace", NULL);
  g_autoptr (GError) error = NULL;
  WsTraceWriter *w = ws_trace_writer_new (path, &error);
  g_assert_no_error (error);
  WsTraceKernelDesc kd = { .name = "uneven", .n_insts = 2, .insts = insts, .regs_per_thread = 16 };
  uint32_t kernel = ws_trace_writer_add_kernel (w, &kd);
  const uint32_t grid[3] = { 3, 1, 1 }, block[3] = { 32, 1, 1 };
  ws_trace_writer_begin_launch (w, kernel, grid, block, 0);
  const guint len[3] = { 10, 10, 20 };
  for (uint64_t b = 0; b < 3; b++)
    {
      WsTraceCta *cta = ws_trace_cta_begin (w, b, 1);
      for (guint s = 0; s < len[b]; s++)
        ws_trace_cta_inst (cta, 0, steps[s].id, 0xffffffffu);
      ws_trace_cta_end (cta);
    }
  g_assert_true (ws_trace_writer_end_launch (w, &error));
  g_assert_true (ws_trace_writer_close (w, &error));
  g_autoptr (WsPrediction) p = predict (path, f->gpu);
  g_assert_cmpfloat (metric (p, "full_waves"), ==, 3);
  assert_close (metric (p, "wave_scale"), (40.0 / 3) / 10);
  assert_close (p->cycles, 3 * 60 * (40.0 / 3) / 10);
  assert_stack_sums (p, 40);
}

/* GTO keeps issuing the greedy warp; RR alternates.  Two warps of three
 * independent ALU instructions then one that needs the third (latency 6):
 * GTO: w0 at 0,1,2, w1 at 3,4,5, w0's 4th at 8 (done 14), w1's at 11 (17).
 * RR: w0 0, w1 1, w0 2, w1 3, w0 4, w1 5, w0's 4th at 10 (16), w1's at 11 (17). */
static void
test_gto_vs_rr (Fixture *f, gconstpointer data)
{
  (void) data;
  WsTraceStaticInst insts[4] = { inst_alu (1, -1), inst_alu (2, -1), inst_alu (3, -1), inst_alu (4, 3) };
  Step steps[4] = { { 0, ADDR_NONE }, { 1, ADDR_NONE }, { 2, ADDR_NONE }, { 3, ADDR_NONE } };
  Program prog = { steps, 4 };
  g_autofree char *path = write_trace (f->dir, "sched", insts, 4, 1, 2, &prog, 1);
  g_autoptr (WsPrediction) gto = predict (path, f->gpu);
  const char *const rr_opt[] = { "scheduler=rr", NULL };
  g_autoptr (WsPrediction) rr = predict_opts (path, f->gpu, rr_opt);
  assert_close (gto->cycles, 17);
  assert_close (rr->cycles, 17);
  /* GTO: stall 6..8 (DEP), issue 8, stall 9..11, issue 11, drain 12..17: BASE 8, DEP 9 */
  assert_close (cpi (gto, "BASE"), 1);
  assert_close (cpi (gto, "DEP"), 9.0 / 8);
  /* RR: issues 0..5, stall 6..10, issue 10, 11, drain 12..17: BASE 8, DEP 9 */
  assert_close (cpi (rr, "BASE"), 1);
  assert_stack_sums (gto, 8);
  assert_stack_sums (rr, 8);
}

/* A kernel with every resource: the stack has all categories, adds up for
 * both schedulers, and charges the waits to the resources they were on. */
static void
test_stack_sums_mixed (Fixture *f, gconstpointer data)
{
  (void) data;
  WsTraceStaticInst insts[8] = {
    inst_mem (WS_OPCLASS_LD, WS_SPACE_GLOBAL, 1, -1), /* 0 */
    inst_op (WS_OPCLASS_SFU, WS_OP_SIN, 2, 1),        /* 1 */
    inst_op (WS_OPCLASS_FP64, WS_OP_ADD, 3, 2),       /* 2 */
    inst_mem (WS_OPCLASS_ST, WS_SPACE_SHARED, -1, 3), /* 3 */
    inst_op (WS_OPCLASS_BARRIER, WS_OP_BAR, -1, -1),  /* 4 */
    inst_mem (WS_OPCLASS_LD, WS_SPACE_SHARED, 4, -1), /* 5 */
    inst_fp32 (5, 4),                                 /* 6 */
    inst_op (WS_OPCLASS_BRANCH, WS_OP_BRA, -1, 5),    /* 7 */
  };
  Step steps[9] = { { 0, ADDR_SCATTER },     { 1, ADDR_NONE }, { 2, ADDR_NONE },
                    { 3, ADDR_SH_STRIDE32 }, { 4, ADDR_NONE }, { 5, ADDR_SH_STRIDE1 },
                    { 6, ADDR_NONE },        { 7, ADDR_NONE }, { 6, ADDR_NONE } };
  Program prog = { steps, 9 };
  g_autofree char *path = write_trace (f->dir, "mixed", insts, 8, 3, 4, &prog, 1);
  const char *scheds[] = { "scheduler=gto", "scheduler=rr" };
  for (guint s = 0; s < 2; s++)
    {
      const char *const opts[] = { scheds[s], NULL };
      g_autoptr (WsPrediction) p = predict_opts (path, f->gpu, opts);
      assert_stack_sums (p, 3 * 4 * 9);
      g_assert_cmpfloat (cpi (p, "MEM"), >, 0);
      g_assert_cmpfloat (cpi (p, "SFU"), >, 0);
      g_assert_cmpfloat (cpi (p, "FP64"), >, 0);
      g_assert_cmpfloat (cpi (p, "SHARED"), >, 0);
      g_assert_cmpfloat (cpi (p, "CONTROL"), >, 0);
      g_assert_cmpfloat (metric (p, "barriers_released"), ==, 3);
      /* every warp's chain load -> sin -> fp64 alone takes 462 + 16 + 10 cycles */
      g_assert_cmpfloat (p->cycles, >, 462 + SFU_LAT + FP64_LAT);
    }
}

static void
test_options (Fixture *f, gconstpointer data)
{
  (void) data;
  g_autofree char *path = write_chain_trace (f->dir, 4, 1, 1);
  g_autoptr (WsPredictorPlugin) plugin = load_ake ();
  g_autoptr (GError) error = NULL;
  g_autoptr (WsTrace) trace = ws_trace_open (path, &error);
  g_assert_no_error (error);
  /* Refused by the host against the descriptor. */
  const char *bad[][2] = { { "scheduler", "lrr" },
                           { "max_tbs", "two" },
                           { "caches", "maybe" },
                           { "bank_conflicts", "2" },
                           { "variant", "full" } };
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr (GHashTable) options = g_hash_table_new (g_str_hash, g_str_equal);
      g_hash_table_insert (options, (gpointer) bad[i][0], (gpointer) bad[i][1]);
      WsPrediction *p = ws_predict_trace (plugin, f->gpu, trace, 0, NULL, options, &error);
      g_assert_null (p);
      g_assert_error (error, WS_ERROR, WS_ERROR_INVALID);
      g_assert_nonnull (strstr (error->message, bad[i][0]));
      g_clear_error (&error);
    }
  /* A negative cap passes the integer check and is refused by the plugin. */
  g_autoptr (GHashTable) neg = g_hash_table_new (g_str_hash, g_str_equal);
  g_hash_table_insert (neg, "max_tbs", "-1");
  g_assert_null (ws_predict_trace (plugin, f->gpu, trace, 0, NULL, neg, &error));
  g_assert_error (error, WS_ERROR, WS_ERROR_FAILED);
  g_assert_nonnull (strstr (error->message, "max_tbs"));
  g_clear_error (&error);
  /* Defaults. */
  const WsPredictorDescriptor *d = plugin->descriptor;
  g_assert_cmpuint (d->n_options, ==, 4);
  g_assert_cmpstr (d->options[0].name, ==, "scheduler");
  g_assert_cmpstr (d->options[0].default_value, ==, "gto");
  g_assert_cmpstr (d->options[1].name, ==, "max_tbs");
  g_assert_cmpstr (d->options[1].default_value, ==, "0");
  g_assert_cmpstr (d->options[2].default_value, ==, "true");
  g_assert_cmpstr (d->options[3].default_value, ==, "true");
  /* A block that does not fit (512 registers per warp, 256 per SM) is an error naming the kernel. */
  f->gpu->registers_per_sm = 256;
  g_assert_null (ws_predict_trace (plugin, f->gpu, trace, 0, NULL, NULL, &error));
  g_assert_error (error, WS_ERROR, WS_ERROR_FAILED);
  g_assert_nonnull (strstr (error->message, "chain"));
  g_clear_error (&error);
  /* An analytic kernel is refused. */
  g_autoptr (WsAnalyticKernel) k = ws_analytic_kernel_new ("k");
  ws_analytic_kernel_set (k, "grid_size", 1);
  ws_analytic_kernel_set (k, "block_size", 32);
  g_assert_null (ws_predict_analytic (plugin, f->gpu, k, NULL, &error));
  g_assert_error (error, WS_ERROR, WS_ERROR_UNSUPPORTED);
}

/* warpscope-cli predict --trace --model ake with a catalogue GPU. */
static void
test_cli (Fixture *f, gconstpointer data)
{
  (void) data;
  const char *cli = g_getenv ("WS_CLI");
  g_assert_nonnull (cli);
  g_autofree char *path = write_chain_trace (f->dir, 10, 4, 2);
  g_autofree char *db = g_build_filename (f->dir, "ws.db", NULL);
  const char *argv[] = { cli,     "--db", db,        "--json", "predict",  "--trace",      path,
                         "--gpu", "A100", "--model", "ake",    "--option", "scheduler=rr", NULL };
  g_autofree char *out = NULL, *err = NULL;
  int status = 0;
  g_autoptr (GError) error = NULL;
  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, 0, NULL, NULL, &out, &err, &status, &error));
  g_assert_no_error (error);
  if (!g_spawn_check_wait_status (status, NULL))
    g_error ("warpscope-cli failed: %s", err);
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_assert_true (json_parser_load_from_data (parser, out, -1, &error));
  JsonObject *o = json_node_get_object (json_parser_get_root (parser));
  g_assert_cmpstr (json_object_get_string_member (o, "model"), ==, "ake");
  g_assert_cmpstr (json_object_get_string_member (o, "gpu"), ==, "A100");
  JsonArray *launches = json_object_get_array_member (o, "launches");
  g_assert_cmpuint (json_array_get_length (launches), ==, 1);
  JsonObject *l = json_array_get_object_element (launches, 0);
  double cycles = json_object_get_double_member (l, "cycles");
  double ipc = json_object_get_double_member (l, "ipc");
  /* 4 blocks on 108 SMs: a tail wave of one block per SM, its two warps on
   * two sub-partitions, each a chain of 10 at the A100's integer latency 4. */
  assert_close (cycles, 10 * 4);
  assert_close (ipc, 80 / cycles);
  JsonObject *stack = json_object_get_object_member (l, "cpi_stack");
  g_assert_cmpuint (json_object_get_size (stack), ==, G_N_ELEMENTS (all_cats));
  double sum = 0;
  g_autoptr (GList) members = json_object_get_members (stack);
  for (GList *m = members; m; m = m->next)
    sum += json_object_get_double_member (stack, m->data);
  assert_close (sum, 1 / ipc);
  assert_close (json_object_get_double_member (o, "total_seconds"), cycles / 1410e6);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
#define ADD(name, fn) g_test_add (name, Fixture, NULL, fixture_setup, fn, fixture_teardown)
  ADD ("/ake/latency/dependent-chain", test_dependent_chain);
  ADD ("/ake/gap/independent-ops-pipe-limited", test_gap_limited);
  ADD ("/ake/gap/dram-bandwidth-limited", test_bandwidth_limited);
  ADD ("/ake/gap/stores-written-back-through-dram", test_store_bandwidth);
  ADD ("/ake/memory/uncoalesced-requests", test_uncoalesced_requests);
  ADD ("/ake/memory/lsu-takes-data-stage-wavefronts", test_lsu_data_stage_wavefronts);
  ADD ("/ake/memory/padded-shared-stride-conflict-free", test_padded_stride_no_conflict);
  ADD ("/ake/memory/cache-hits-from-simulation", test_cache_hits);
  ADD ("/ake/shared/bank-conflicts", test_bank_conflicts);
  ADD ("/ake/barrier/block-waits-for-last-warp", test_barrier);
  ADD ("/ake/scheduler/gto-vs-rr", test_gto_vs_rr);
  ADD ("/ake/launch/waves-and-tail", test_waves_and_tail);
  ADD ("/ake/launch/block-starts", test_block_starts);
  ADD ("/ake/launch/wave-scaling-uneven-blocks", test_wave_scaling);
  ADD ("/ake/launch/tail-shares-dram-among-fewer-sms", test_tail_bandwidth);
  ADD ("/ake/stack/sums-mixed-kernel", test_stack_sums_mixed);
  ADD ("/ake/options/validated", test_options);
  ADD ("/ake/cli/predict-trace-json", test_cli);
  return g_test_run ();
}
