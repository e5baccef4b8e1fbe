/* The gpumech predictor plugin (seed 001 ch. 4) on synthetic traces whose
 * interval profiles, cache behaviour and contention are worked out by hand. */
#include "predict/ws-predict.h"
#include "interval/ws-interval.h"
#include "trace/ws-trace.h"
#include "trace/ws-trace-writer.h"
#include "ptx/ws-ptx.h"

#include <math.h>
#include <string.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include "../test-tmp-dir.h"
#include "../test-gpu.h"

#define FP32_LAT 20.0
#define DRAM_LAT 500.0

/* One SM, one scheduler, issue 1/cycle: the seed's "core". */
static WsGpu *
test_gpu (void)
{
  WsGpu *g = test_gpu_cc80 ("gpumech test GPU", 1);
  g->l1_latency = 30;
  g->l1_mshrs = 32;
  g->l2_latency = 200;
  g->dram_latency = DRAM_LAT;
  g->dram_bandwidth_gbs = 1000;
  for (int c = 0; c < WS_ICLASS_COUNT; c++)
    g->pipes[c].latency = 1;
  g->pipes[WS_ICLASS_FP32].latency = FP32_LAT;
  g->pipes[WS_ICLASS_INT].latency = FP32_LAT;
  g->pipes[WS_ICLASS_SHARED].latency = 25;
  g->pipes[WS_ICLASS_GLOBAL].latency = DRAM_LAT;
  return g;
}

/* ---- synthetic traces ------------------------------------------------------ */

/* ADDR_REPEAT: the addresses of the warp's first step again (cache hits);
 * ADDR_STRIDE15 / ADDR_BROADCAST: the warp's own addresses at a stride of
 * 15 words (15 lines, lane l in bank 15 l mod 32) / one address for every
 * lane, the same at every step (cache hits after the first). */
enum { ADDR_NONE, ADDR_COALESCED, ADDR_SCATTER, ADDR_REPEAT, ADDR_STRIDE15, ADDR_BROADCAST };

typedef struct {
  const WsTraceStaticInst *insts;
  guint n_insts;
  const uint32_t *program; /* static ids every warp executes, in order */
  guint n_steps;
  const int *addr;                /* per step: ADDR_* */
  const uint32_t *block0_program; /* when set: what block 0's warps execute instead (no memory) */
  guint block0_steps;
} Kernel;

static WsTraceStaticInst
inst_fp32 (int dst, int src)
{
  WsTraceStaticInst i = { 0 };
  i.op = WS_OP_ADD;
  i.opclass = WS_OPCLASS_FP32;
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
inst_mem (int opclass, int dst, int src)
{
  WsTraceStaticInst i = inst_fp32 (dst, src);
  i.op = opclass == WS_OPCLASS_ST ? WS_OP_ST : WS_OP_LD;
  i.opclass = (uint8_t) opclass;
  i.space = WS_SPACE_GLOBAL;
  i.access_size = 4;
  return i;
}

/* Every warp of @blocks blocks of @warps_per_block warps runs the program
 * (block 0 its own, if the kernel has one); every memory access touches addresses no other access touches (first
 * touch: DRAM), coalesced (4 sectors, 1 line) or scattered (32 lines).  With @n_launches > 1 the same launch is
 * recorded again (the kernel run again on the same data). */
static char *
write_trace_launches (const char *dir, const char *name, const Kernel *kern, uint32_t blocks, uint32_t warps_per_block,
                      guint n_launches)
{
  g_autofree char *file = g_strconcat (name, ".wstrace", NULL);
  g_autofree char *path = g_build_filename (dir, file, NULL);
  g_autoptr (GError) error = NULL;
  WsTraceWriter *w = ws_trace_writer_new (path, &error);
  g_assert_no_error (error);
  WsTraceKernelDesc kd = { .name = name, .n_insts = kern->n_insts, .insts = kern->insts, .regs_per_thread = 16 };
  uint32_t kernel = ws_trace_writer_add_kernel (w, &kd);
  const uint32_t grid[3] = { blocks, 1, 1 }, block[3] = { 32 * warps_per_block, 1, 1 };
  for (guint launch = 0; launch < n_launches; launch++)
    {
      ws_trace_writer_begin_launch (w, kernel, grid, block, 0);
      for (uint64_t b = 0; b < blocks; b++)
        {
          WsTraceCta *cta = ws_trace_cta_begin (w, b, warps_per_block);
          gboolean own = b == 0 && kern->block0_program != NULL;
          for (uint32_t warp = 0; warp < warps_per_block; warp++)
            for (guint s = 0; s < (own ? kern->block0_steps : kern->n_steps); s++)
              {
                if (own)
                  {
                    ws_trace_cta_inst (cta, warp, kern->block0_program[s], 0xffffffffu);
                    continue;
                  }
                uint64_t gw = b * warps_per_block + warp, a[32];
                uint64_t slot = gw * kern->n_steps + (kern->addr[s] == ADDR_REPEAT ? 0 : s);
                for (int l = 0; l < 32; l++)
                  switch (kern->addr[s])
                    {
                    case ADDR_SCATTER: a[l] = 0x7e0000000000ull + (slot * 32 + l) * 128; break;
                    case ADDR_STRIDE15: a[l] = 0x7d0000000000ull + gw * 4096 + 60 * l; break;
                    case ADDR_BROADCAST: a[l] = 0x7d0000000000ull + gw * 4096; break;
                    default: a[l] = 0x7f0000000000ull + slot * 128 + 4 * l; break;
                    }
                if (kern->addr[s] == ADDR_NONE)
                  ws_trace_cta_inst (cta, warp, kern->program[s], 0xffffffffu);
                else
                  ws_trace_cta_mem (cta, warp, kern->program[s], 0xffffffffu, WS_SPACE_GLOBAL, a);
              }
          ws_trace_cta_end (cta);
        }
      g_assert_true (ws_trace_writer_end_launch (w, &error));
    }
  g_assert_true (ws_trace_writer_close (w, &error));
  g_assert_no_error (error);
  return g_steal_pointer (&path);
}

static char *
write_trace (const char *dir, const char *name, const Kernel *kern, uint32_t blocks, uint32_t warps_per_block)
{
  return write_trace_launches (dir, name, kern, blocks, warps_per_block, 1);
}

/* Compute kernel: 8 independent FP32 instructions, then one that needs the
 * 8th.  Eq. 13: i0..i7 issue at 0..7, i7 is done at 27, i8 issues at 28:
 * intervals [8 insts, 20 stall cycles] and [1 inst, 0]: 9 insts, 29 cycles. */
static char *
write_compute_trace (const char *dir, uint32_t blocks, uint32_t warps_per_block)
{
  WsTraceStaticInst insts[9];
  uint32_t program[9];
  int addr[9] = { 0 };
  for (int i = 0; i < 8; i++)
    {
      insts[i] = inst_fp32 (1 + i, -1);
      program[i] = i;
    }
  insts[8] = inst_fp32 (20, 8);
  program[8] = 8;
  Kernel k = { insts, 9, program, 9, addr };
  return write_trace (dir, "compute", &k, blocks, warps_per_block);
}

/* Memory kernel: a scattered load (32 sectors in 32 lines, all from DRAM)
 * and its consumer: intervals [1 inst, 500 stall cycles on the load], [1, 0]. */
static char *
write_gather_trace (const char *dir, uint32_t blocks, uint32_t warps_per_block)
{
  WsTraceStaticInst insts[2] = { inst_mem (WS_OPCLASS_LD, 1, -1), inst_fp32 (2, 1) };
  uint32_t program[2] = { 0, 1 };
  int addr[2] = { ADDR_SCATTER, ADDR_NONE };
  Kernel k = { insts, 2, program, 2, addr };
  return write_trace (dir, "gather", &k, blocks, warps_per_block);
}

/* Store kernel: a scattered store (32 DRAM writes, no MSHR), then a
 * dependent FP32 pair: intervals [2 insts, 20 stall cycles], [1, 0]. */
static char *
write_scatter_store_trace (const char *dir, uint32_t blocks, uint32_t warps_per_block)
{
  WsTraceStaticInst insts[3] = { inst_mem (WS_OPCLASS_ST, -1, -1), inst_fp32 (1, -1), inst_fp32 (2, 1) };
  uint32_t program[3] = { 0, 1, 2 };
  int addr[3] = { ADDR_SCATTER, ADDR_NONE, ADDR_NONE };
  Kernel k = { insts, 3, program, 3, addr };
  return write_trace (dir, "scatter_store", &k, blocks, warps_per_block);
}

/* Reuse kernel: a coalesced load from DRAM and its consumer, then the same
 * load again (an L1 hit, 30 cycles) and its consumer.  Eq. 13: i0 at 0
 * (done 500), i1 at 501, i2 at 502 (done 532), i3 at 533: intervals
 * [1, 500 on DRAM], [2, 30 on L1], [1, 0]: 4 insts, 534 cycles. */
static char *
write_reuse_trace (const char *dir, uint32_t blocks, uint32_t warps_per_block)
{
  WsTraceStaticInst insts[4] = { inst_mem (WS_OPCLASS_LD, 1, -1), inst_fp32 (2, 1), inst_mem (WS_OPCLASS_LD, 3, -1),
                                 inst_fp32 (4, 3) };
  uint32_t program[4] = { 0, 1, 2, 3 };
  int addr[4] = { ADDR_COALESCED, ADDR_NONE, ADDR_REPEAT, ADDR_NONE };
  Kernel k = { insts, 4, program, 4, addr };
  return write_trace (dir, "reuse", &k, blocks, warps_per_block);
}

/* ---- running the plugin ---------------------------------------------------- */

static WsPredictorPlugin *
load_gpumech (void)
{
  const char *path = g_getenv ("WS_GPUMECH_PLUGIN");
  g_assert_nonnull (path);
  WsPredictorPlugin *p = ws_predictor_plugin_load (path);
  if (!p->ok)
    g_error ("%s", p->error);
  g_assert_cmpstr (p->name, ==, "gpumech");
  g_assert_true (p->descriptor->supports_trace);
  return p;
}

static WsPrediction *
predict (const char *trace_path, const WsGpu *gpu, const char *variant, const char *scheduler)
{
  g_autoptr (WsPredictorPlugin) plugin = load_gpumech ();
  g_autoptr (GError) error = NULL;
  g_autoptr (WsTrace) trace = ws_trace_open (trace_path, &error);
  g_assert_no_error (error);
  g_autoptr (GHashTable) options = g_hash_table_new (g_str_hash, g_str_equal);
  if (variant)
    g_hash_table_insert (options, "variant", (gpointer) variant);
  if (scheduler)
    g_hash_table_insert (options, "scheduler", (gpointer) scheduler);
  WsPrediction *p = ws_predict_trace (plugin, gpu, trace, 0, NULL, options, &error);
  g_assert_no_error (error);
  g_assert_nonnull (p);
  return p;
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

/* The Table 9 categories are all there and add up to cycles per warp
 * instruction of the launch (the reciprocal of the reported IPC). */
static void
assert_stack_sums (const WsPrediction *p, double warp_insts)
{
  static const char *cats[] = { "BASE", "DEP", "L1", "L2", "DRAM", "MSHR", "QUEUE", "LAUNCH" };
  g_assert_cmpuint (p->cpi_names->len, ==, G_N_ELEMENTS (cats));
  double sum = 0;
  for (guint i = 0; i < G_N_ELEMENTS (cats); i++)
    {
      double v = cpi (p, cats[i]);
      g_assert_cmpfloat (v, >=, 0);
      sum += v;
    }
  assert_close (sum, p->cycles / warp_insts);
  assert_close (ws_prediction_cpi_total (p), 1 / p->ipc);
}

typedef struct {
  char *dir;
  WsGpu *gpu;
} Fixture;

static void
fixture_setup (Fixture *f, gconstpointer data)
{
  (void) data;
  f->dir = g_dir_make_tmp ("ws-gpumech-XXXXXX", NULL);
  g_assert_nonnull (f->dir);
  f->gpu = test_gpu ();
}

static void
fixture_teardown (Fixture *f, gconstpointer data)
{
  (void) data;
  remove_tmp_tree (f->dir);
  g_free (f->dir);
  ws_gpu_free (f->gpu);
}

/* ---- tests ---------------------------------------------------------------- */

/* The host's interval profile (eq. 13) of the compute kernel, which every
 * hand computation below starts from. */
static void
test_interval_profile (Fixture *f, gconstpointer data)
{
  (void) data;
  g_autofree char *path = write_compute_trace (f->dir, 1, 2);
  g_autoptr (WsPrediction) p = predict (path, f->gpu, "mt", "rr");
  g_assert_cmpfloat (metric (p, "intervals"), ==, 2);
  g_assert_cmpfloat (metric (p, "representative_insts"), ==, 9);
  g_assert_cmpfloat (metric (p, "representative_cycles"), ==, 29);
  assert_close (metric (p, "issue_prob"), 9.0 / 29); /* eq. 18 */
  g_assert_cmpfloat (metric (p, "warps_per_sm"), ==, 2);
}

/* A warp that ends in a store ends when the L2 has accepted the store, not
 * when the store issues (seed 004 §5.1: the access's latency lies on the
 * path to the end node).  FP32 -> dependent coalesced store: i0 at 0 (done
 * 20), the store at 21, taken by the L2 at 21 + 200 (the cache simulation's
 * store latency: an L2 access): intervals [1, 20 on the FP32] and [1, 199
 * on the store], 221 cycles; ending after the last issue gave 22.  The
 * store's wait is an L2 stall in the CPI stack. */
static void
test_store_at_end (Fixture *f, gconstpointer data)
{
  (void) data;
  WsTraceStaticInst insts[2] = { inst_fp32 (1, -1), inst_mem (WS_OPCLASS_ST, -1, 1) };
  const uint32_t program[2] = { 0, 1 };
  const int addr[2] = { ADDR_NONE, ADDR_COALESCED };
  const Kernel kern = { insts, 2, program, 2, addr };
  g_autofree char *path = write_trace (f->dir, "store_end", &kern, 1, 1);

  g_autoptr (GError) error = NULL;
  g_autoptr (WsTrace) trace = ws_trace_open (path, &error);
  g_assert_no_error (error);
  g_autoptr (WsLaunchAnalysis) a = ws_launch_analysis_new (trace, 0, f->gpu, &error);
  g_assert_no_error (error);
  assert_close (ws_launch_analysis_get_latencies (a)[1], 200);
  const WsIntervalProfile *rep = ws_launch_analysis_get_representative (a, NULL, NULL);
  g_assert_cmpuint (rep->intervals->len, ==, 2);
  const WsInterval *last = &g_array_index (rep->intervals, WsInterval, 1);
  g_assert_cmpuint (last->insts, ==, 1);
  assert_close (last->stall_cycles, 199);
  g_assert_cmpuint (last->stall_inst, ==, 1);
  assert_close (rep->cycles, 221);
  assert_close (rep->perf, 2.0 / 221);

  g_autoptr (WsPrediction) p = predict (path, f->gpu, "mt", "rr");
  g_assert_cmpfloat (metric (p, "representative_cycles"), ==, 221);
  g_assert_cmpfloat (metric (p, "intervals"), ==, 2);
  /* One warp alone: its 221 cycles for 2 instructions, 199 of them L2. */
  assert_close (metric (p, "cpi_sm"), 110.5);
  assert_close (cpi (p, "L2"), 99.5);
  assert_close (cpi (p, "DEP"), 10);
  assert_stack_sums (p, 2);
}

/* A kernel parameter read (ld.param: no addresses in the trace, no cache
 * simulation) costs an integer op (FP32_LAT here), as in the detailed
 * simulator, not the global-memory latency: ld.param -> add gives
 * intervals [1, FP32_LAT] and [1, 0], 2 + FP32_LAT cycles. */
static void
test_param_load_latency (Fixture *f, gconstpointer data)
{
  (void) data;
  WsTraceStaticInst insts[2] = { inst_mem (WS_OPCLASS_LD, 1, -1), inst_fp32 (2, 1) };
  insts[0].space = WS_SPACE_PARAM;
  const uint32_t program[2] = { 0, 1 };
  const int addr[2] = { ADDR_NONE, ADDR_NONE };
  const Kernel kern = { insts, 2, program, 2, addr };
  g_autofree char *path = write_trace (f->dir, "param", &kern, 1, 1);
  g_autoptr (WsPrediction) p = predict (path, f->gpu, "mt", "rr");
  g_assert_cmpfloat (metric (p, "representative_insts"), ==, 2);
  g_assert_cmpfloat (metric (p, "representative_cycles"), ==, 2 + FP32_LAT);
}

/* Two warps on the scheduler.  RR (eqs. 19-20): 9/29 x (2-1) x (8-1)
 * non-overlapped instructions; GTO (eqs. 21-25): 4.5 x min(9/29 x 20, 1)
 * x (2-1) = 4.5 < 20 stall cycles, so none.  Eq. 16 then gives the CPI. */
static void
test_rr_vs_gto (Fixture *f, gconstpointer data)
{
  (void) data;
  g_autofree char *path = write_compute_trace (f->dir, 1, 2);
  g_autoptr (WsPrediction) rr = predict (path, f->gpu, "mt", "rr");
  g_autoptr (WsPrediction) gto = predict (path, f->gpu, "mt", "gto");
  double rr_non = 9.0 / 29 * 1 * 7;
  assert_close (metric (rr, "nonoverlapped_insts"), rr_non);
  assert_close (metric (gto, "nonoverlapped_insts"), 0);
  double rr_cpi = (29 + rr_non) / (2 * 9), gto_cpi = 29.0 / (2 * 9);
  assert_close (metric (rr, "cpi_eq16"), rr_cpi);
  assert_close (metric (gto, "cpi_eq16"), gto_cpi);
  /* 18 warp instructions on the only SM */
  assert_close (rr->cycles, 18 * rr_cpi);
  assert_close (gto->cycles, 18 * gto_cpi);
  assert_close (rr->seconds, 18 * rr_cpi / 1e9);
  assert_close (rr->ipc, 1 / rr_cpi);
  /* §4.7: BASE and DEP of the warp alone (9 and 20 of 29 cycles) shrunk to the CPI */
  assert_close (cpi (rr, "BASE"), rr_cpi * 9 / 29);
  assert_close (cpi (rr, "DEP"), rr_cpi * 20 / 29);
  assert_close (cpi (rr, "DRAM"), 0);
  assert_stack_sums (rr, 18);
  assert_stack_sums (gto, 18);
}

/* §4.7: stalls on memory instructions go to the level their miss events
 * reached (DRAM 500, L1 30 cycles), the issue cycles to BASE. */
static void
test_stack_levels (Fixture *f, gconstpointer data)
{
  (void) data;
  g_autofree char *path = write_reuse_trace (f->dir, 1, 2);
  g_autoptr (WsPrediction) p = predict (path, f->gpu, "full", "rr");
  g_assert_cmpfloat (metric (p, "intervals"), ==, 3);
  g_assert_cmpfloat (metric (p, "representative_cycles"), ==, 534);
  double c = metric (p, "cpi_multithreading");
  assert_close (cpi (p, "DRAM"), c * 500 / 534);
  assert_close (cpi (p, "L1"), c * 30 / 534);
  assert_close (cpi (p, "BASE"), c * 4 / 534);
  assert_close (cpi (p, "DEP"), 0);
  assert_close (cpi (p, "L2"), 0);
  assert_stack_sums (p, 8);
}

/* Eight warps: GTO's remaining warps issue 4.5 x 7 = 31.5 instructions in
 * the 20 stall cycles, 11.5 of them not overlapped (eq. 25); RR gives
 * 9/29 x 7 x 7.  Both eq. 16 values are below one cycle per instruction,
 * which the scheduler cannot beat: the CPI is 1. */
static void
test_gto_nonoverlapped_and_issue_bound (Fixture *f, gconstpointer data)
{
  (void) data;
  g_autofree char *path = write_compute_trace (f->dir, 1, 8);
  g_autoptr (WsPrediction) rr = predict (path, f->gpu, "mt", "rr");
  g_autoptr (WsPrediction) gto = predict (path, f->gpu, "mt", "gto");
  assert_close (metric (gto, "nonoverlapped_insts"), 11.5);
  assert_close (metric (gto, "cpi_eq16"), (29 + 11.5) / 72);
  assert_close (metric (rr, "nonoverlapped_insts"), 9.0 / 29 * 7 * 7);
  assert_close (metric (rr, "cpi_eq16"), (29 + 9.0 / 29 * 49) / 72);
  assert_close (metric (rr, "cpi_sm"), 1);
  assert_close (gto->cycles, 72);
  /* naive (eq. 10): 9/29 x 8 > 1 instruction per cycle, bounded too */
  g_autoptr (WsPrediction) naive = predict (path, f->gpu, "naive", "rr");
  assert_close (naive->cycles, 72);
  assert_stack_sums (naive, 72);
}

/* Kernel of n independent FP32 instructions, then (with `wait_last`) one
 * that waits for the last of them, then a coalesced load from DRAM and
 * its consumer.  n = 14 with the wait: intervals [14, 20 stall cycles],
 * [2, 500], [1, 0] (537 cycles); n = 30 without: [31, 500], [1, 0] (532). */
static char *
write_fp32_then_load_trace (const char *dir, const char *name, int n, gboolean wait_last, uint32_t warps_per_block)
{
  WsTraceStaticInst insts[40];
  uint32_t program[40];
  int addr[40] = { 0 };
  int k = 0;
  g_assert_cmpint (n + 3, <=, (int) G_N_ELEMENTS (insts));
  for (; k < n; k++)
    insts[k] = inst_fp32 (1 + k, -1);
  if (wait_last)
    insts[k++] = inst_fp32 (n + 1, n);
  addr[k] = ADDR_COALESCED;
  insts[k++] = inst_mem (WS_OPCLASS_LD, n + 2, -1);
  insts[k++] = inst_fp32 (n + 3, n + 2);
  for (int i = 0; i < k; i++)
    program[i] = (uint32_t) i;
  Kernel kern = { insts, (guint) k, program, (guint) k, addr };
  return write_trace (dir, name, &kern, 1, warps_per_block);
}

/* GTO with 32 warps: eqs. 21-24 give the 31 other warps (17/3) x 31 x
 * min(17/537 x 20, 1) = 111.2 instructions in the 20-cycle stall and
 * (17/3) x 31 = 175.7 in the 500-cycle one.  The seed's per-interval
 * eq. 25 would charge max(111.2 - 20, 0) = 91.2 non-overlapped
 * instructions although the 286.9 instructions fill only 287 of the 520
 * stall cycles; GTO issues the surplus of the short stall in the long one,
 * so none is lost (docs/models/gpumech.md), and the SM is issue bound. */
static void
test_gto_surplus_fills_later_stall (Fixture *f, gconstpointer data)
{
  (void) data;
  g_autofree char *path = write_fp32_then_load_trace (f->dir, "short-long", 14, TRUE, 32);
  g_autoptr (WsPrediction) gto = predict (path, f->gpu, "mt", "gto");
  g_assert_cmpfloat (metric (gto, "intervals"), ==, 3);
  g_assert_cmpfloat (metric (gto, "representative_insts"), ==, 17);
  g_assert_cmpfloat (metric (gto, "representative_cycles"), ==, 537);
  double ip = 17.0 / 537, avg = 17.0 / 3;
  double seed = fmax (avg * 31 * fmin (ip * 20, 1) - 20, 0) + fmax (avg * 31 * fmin (ip * 500, 1) - 500, 0);
  g_assert_cmpfloat (seed, >, 91);
  assert_close (metric (gto, "nonoverlapped_insts"), 0);
  assert_close (metric (gto, "cpi_eq16"), 537.0 / (32 * 17));
  assert_close (gto->cycles, 32 * 17);
  assert_stack_sums (gto, 32 * 17);
}

/* 32 warps of 32 instructions: the scheduler needs 1024 cycles to issue
 * them, the representative warp's run (532 cycles + RR's (32/532) x 31 x 30
 * non-overlapped instructions) fits in 575 of them.  The DRAM queue of the
 * warps' 128 sectors (eq. 30) lengthens the warp's load stall; while that
 * fits in the scheduler's idle time it costs nothing and is charged to no
 * category (eq. 12 as the plugin applies it, docs/models/gpumech.md), and
 * only what exceeds it shows, as QUEUE. */
static void
test_queue_hidden_by_issue_bound (Fixture *f, gconstpointer data)
{
  (void) data;
  f->gpu->l1_mshrs = 256; /* no MSHR wait: the 128 requests fit */
  f->gpu->dram_bandwidth_gbs = 10;
  g_autofree char *path = write_fp32_then_load_trace (f->dir, "issue-bound-load", 30, FALSE, 32);
  g_autoptr (WsPrediction) fast = predict (path, f->gpu, "full", "rr");
  g_assert_cmpfloat (metric (fast, "representative_cycles"), ==, 532);
  double eq16 = (532 + 32.0 / 532 * 31 * 30) / 1024;
  assert_close (metric (fast, "cpi_eq16"), eq16);
  double q = metric (fast, "cpi_rc_queue_eq26") / 32;
  g_assert_cmpfloat (q, >, 0);
  g_assert_cmpfloat (eq16 + q, <, 1);
  assert_close (metric (fast, "cpi_rc_mshr_eq26"), 0);
  assert_close (fast->cycles, 1024);
  assert_close (cpi (fast, "QUEUE"), 0);
  assert_stack_sums (fast, 1024);

  f->gpu->dram_bandwidth_gbs = 1;
  g_autoptr (WsPrediction) slow = predict (path, f->gpu, "full", "rr");
  double qs = metric (slow, "cpi_rc_queue_eq26") / 32;
  g_assert_cmpfloat (eq16 + qs, >, 1);
  assert_close (metric (slow, "cpi_sm"), eq16 + qs);
  assert_close (cpi (slow, "QUEUE"), eq16 + qs - 1);
  assert_close (slow->cycles, 1024 * (eq16 + qs));
  assert_stack_sums (slow, 1024);
}

/* Stationary distribution by power iteration of the same chain, written
 * independently of the plugin's LU solve. */
static double
markov_power_ipc (double p, double m, int n)
{
  double q = 1 / m;
  double pi[65] = { 1 }, next[65];
  for (int it = 0; it < 200000; it++)
    {
      memset (next, 0, sizeof next);
      for (int k = 0; k <= n; k++)
        for (int r = 0; r <= k; r++)
          {
            double b = pi[k];
            for (int j = 0; j < r; j++)
              b *= (double) (k - j) / (j + 1) * q;
            b *= pow (1 - q, k - r);
            if (k < n)
              {
                next[k - r + 1] += b * p;
                next[k - r] += b * (1 - p);
              }
            else
              next[k - r] += b;
          }
      memcpy (pi, next, sizeof pi);
    }
  return 1 - pi[n];
}

/* Chen & Aamodt: one stall event per 9 instructions (p = 1/9) of M = 20
 * cycles; three warps. */
static void
test_markov (Fixture *f, gconstpointer data)
{
  (void) data;
  g_autofree char *path = write_compute_trace (f->dir, 1, 3);
  g_autoptr (WsPrediction) m = predict (path, f->gpu, "markov", "rr");
  assert_close (metric (m, "markov_p"), 1.0 / 9);
  assert_close (metric (m, "markov_m"), 20);
  double ipc = markov_power_ipc (1.0 / 9, 20, 3);
  g_assert_cmpfloat_with_epsilon (metric (m, "markov_ipc"), ipc, 1e-9);
  /* Each warp alone issues 9/29 of the cycles: three can't reach 1. */
  g_assert_cmpfloat (ipc, <, 3 * 9.0 / 29);
  g_assert_cmpfloat (ipc, >, 9.0 / 29);
  assert_close (m->cycles, 27 / ipc);
  assert_stack_sums (m, 27);
}

/* Eight warps each gathering 32 sectors from DRAM with 4 MSHRs per SM.
 * Eq. 27: 8 x 32 = 256 requests; eq. 28: sum of ceil(j/4) for j = 1..256 is
 * 4 x 64 x 65 / 2 = 8320, so 500 x (8320/256 - 1) = 15750 cycles per
 * memory instruction (eq. 29), 15750 / 2 per instruction of the warp
 * (eq. 26), / 8 warps per instruction of the SM. */
static void
test_mshr_limited (Fixture *f, gconstpointer data)
{
  (void) data;
  f->gpu->l1_mshrs = 4;
  g_autofree char *path = write_gather_trace (f->dir, 1, 8);
  g_autoptr (WsPrediction) mt = predict (path, f->gpu, "mt", "rr");
  g_autoptr (WsPrediction) mshr = predict (path, f->gpu, "mt_mshr", "rr");
  g_autoptr (WsPrediction) full = predict (path, f->gpu, "full", "rr");
  g_assert_cmpfloat (metric (mt, "representative_cycles"), ==, 502);
  assert_close (metric (mt, "avg_miss_latency"), DRAM_LAT);
  double cpi_mt = 502.0 / (8 * 2); /* eq. 16: no waiting slots, no non-overlap */
  assert_close (metric (mt, "cpi_sm"), cpi_mt);
  assert_close (metric (mt, "cpi_mshr"), 0);
  double eq26 = 500.0 * (8320.0 / 256 - 1) / 2, cpi_mshr = eq26 / 8;
  assert_close (metric (mshr, "cpi_rc_mshr_eq26"), eq26);
  assert_close (metric (mshr, "cpi_mshr"), cpi_mshr);
  assert_close (metric (mshr, "cpi_sm"), cpi_mt + cpi_mshr);
  assert_close (metric (mshr, "cpi_queue"), 0);
  /* The DRAM stall (500 of 502 cycles) is all DRAM in the stack. */
  assert_close (cpi (mshr, "DRAM"), cpi_mt * 500 / 502);
  assert_close (cpi (mshr, "MSHR"), cpi_mshr);
  g_assert_cmpfloat (cpi (mshr, "MSHR"), >, cpi (mshr, "DRAM"));
  /* Eqs. 30-32 at 1000 GB/s: s = 0.032 cycles, lambda = 256 / 501, a
   * bus queue of lambda s^2 / (2 (1 - rho)) cycles.  The reads hold their
   * MSHRs until the DRAM returns them, so the MSHR wait and the bus queue
   * are one wait: the interval is charged the larger, the MSHRs' 15750
   * cycles, and no queue. */
  double s = 32.0 / 1000, lambda = 256.0 / 501, rho = lambda * s;
  assert_close (metric (full, "dram_service_cycles"), s);
  g_assert_cmpfloat (lambda * s * s / (2 * (1 - rho)), <, 15750);
  assert_close (metric (full, "cpi_rc_mshr_eq26"), eq26);
  assert_close (metric (full, "cpi_rc_queue_eq26"), 0);
  assert_close (metric (full, "cpi_queue"), 0);
  assert_close (metric (full, "cpi_sm"), cpi_mt + cpi_mshr);
  assert_stack_sums (mt, 16);
  assert_stack_sums (mshr, 16);
  assert_stack_sums (full, 16);
  /* At 0.5 GB/s (s = 64 cycles) the bus needs 256 x 64 = 16384 cycles for
   * the interval's requests (rho >= 1: 16384 - 501 beyond the interval's
   * own cycles, eq. 30 as bounded here), more than the MSHR wait: the
   * queue is charged and the MSHRs are not. */
  f->gpu->dram_bandwidth_gbs = 0.5;
  g_autoptr (WsPrediction) slow = predict (path, f->gpu, "full", "rr");
  assert_close (metric (slow, "cpi_rc_mshr_eq26"), 0);
  assert_close (metric (slow, "cpi_rc_queue_eq26"), (16384.0 - 501) / 2);
  assert_close (metric (slow, "cpi_sm"), cpi_mt + (16384.0 - 501) / 2 / 8);
  f->gpu->dram_bandwidth_gbs = 1000;

  /* With 256 MSHRs the requests all fit: no MSHR delay (eq. 29). */
  f->gpu->l1_mshrs = 256;
  g_autoptr (WsPrediction) roomy = predict (path, f->gpu, "mt_mshr", "rr");
  assert_close (metric (roomy, "cpi_mshr"), 0);
}

/* Stores do not take MSHRs but load the DRAM: at 1 GB/s a 32-byte request
 * takes s = 1e9 x 32 / 1e9 = 32 cycles; 8 warps x 32 requests in a 22-cycle
 * interval give rho = 8192 / 22 >> 1: the interval is bandwidth bound, its
 * 256 requests need the bus for s x 256 = 8192 cycles, 8192 - 22 more than
 * the interval's own (eq. 30 at rho >= 1), per instruction of the warp
 * 8170 / 3 (eq. 26), / 8 for the SM.  (This test asserted eq. 30's cap,
 * s x 256 / 2 = 4096 cycles, before: the launch then moved its 8 KiB in
 * 4120 cycles, twice the DRAM bandwidth.) */
static void
test_dram_queue_dominates (Fixture *f, gconstpointer data)
{
  (void) data;
  f->gpu->dram_bandwidth_gbs = 1;
  g_autofree char *path = write_scatter_store_trace (f->dir, 1, 8);
  g_autoptr (WsPrediction) mshr = predict (path, f->gpu, "mt_mshr", "gto");
  g_autoptr (WsPrediction) full = predict (path, f->gpu, "full", "gto");
  /* [2, 20] and [1, 177]: the warp ends when the L2 has taken its store
   * (issued at 0, done at the L2 latency, 200), not after its last issue
   * (at 22, 23 cycles). */
  g_assert_cmpfloat (metric (full, "representative_cycles"), ==, 200);
  assert_close (metric (full, "dram_service_cycles"), 32);
  assert_close (metric (mshr, "cpi_mshr"), 0);
  assert_close (metric (full, "cpi_mshr"), 0);
  assert_close (metric (full, "cpi_rc_queue_eq26"), 8170.0 / 3);
  assert_close (metric (full, "cpi_queue"), 8170.0 / 3 / 8);
  assert_close (metric (full, "cpi_sm"), metric (mshr, "cpi_sm") + 8170.0 / 3 / 8);
  /* The 256 written-back sectors take 8192 bus cycles: no faster. */
  assert_close (metric (full, "dram_bus_cycles"), 8192);
  g_assert_cmpfloat (full->cycles, >=, 8192);
  /* The largest other category is the warps' wait for the L2 to take their
   * stores, 177 of the representative warp's 200 cycles, shared by its 8
   * warps (§4.7's shrink, 1 / 8): 177 / 3 / 8, a 46th of the queue's
   * 8170 / 3 / 8. */
  assert_close (cpi (full, "L2"), 177.0 / 3 / 8);
  const char *cats[] = { "BASE", "DEP", "L1", "L2", "DRAM", "MSHR" };
  for (guint i = 0; i < G_N_ELEMENTS (cats); i++)
    g_assert_cmpfloat (cpi (full, "QUEUE"), >, 40 * cpi (full, cats[i]));
  assert_stack_sums (full, 24);
}

/* 16 blocks of 4 warps, each warp a coalesced load (4 sectors) and its
 * consumer: 256 sectors in all. */
static char *
write_load_use_stream (const char *dir, const char *name)
{
  WsTraceStaticInst insts[2] = { inst_mem (WS_OPCLASS_LD, 1, -1), inst_fp32 (2, 1) };
  uint32_t program[2] = { 0, 1 };
  int addr[2] = { ADDR_COALESCED, ADDR_NONE };
  Kernel k = { insts, 2, program, 2, addr };
  return write_trace (dir, name, &k, 16, 4);
}

/* A DRAM stream that each interval's M/D/1 queue sees as lightly loaded
 * but the launch as a whole does not: 64 warps on 16 SMs, each a coalesced
 * load (4 sectors) and its consumer, at 1 GB/s (s = 32 cycles per sector).
 * Per interval eq. 32 gives lambda = 4 x 4 x 16 / 501 (rho = 1.02): the
 * bus needs 2048 cycles for the interval's 256 sectors while the interval
 * lasts 501, and the launch cannot end before s x 256 = 8192 bus cycles
 * (eq. 31 over the launch's 256 DRAM sectors).  Before, eq. 30's cap let it
 * end after about 1500 cycles: 5x the DRAM bandwidth. */
static void
test_dram_bandwidth_floor (Fixture *f, gconstpointer data)
{
  (void) data;
  f->gpu->sms = 16;
  f->gpu->dram_bandwidth_gbs = 1;
  f->gpu->l2_size = 0; /* every sector from DRAM */
  g_autofree char *path = write_load_use_stream (f->dir, "stream");
  g_autoptr (WsPrediction) full = predict (path, f->gpu, "full", "rr");
  assert_close (metric (full, "dram_service_cycles"), 32);
  assert_close (metric (full, "dram_bus_cycles"), 64 * 4 * 32);
  g_assert_cmpfloat (full->cycles, >=, 64 * 4 * 32);
  /* 8 KiB at 1 GB/s is 8.192 us: the launch takes at least that. */
  g_assert_cmpfloat (full->seconds, >=, 8192e-9 * (1 - 1e-12));
  assert_stack_sums (full, 128);
}

/* The L2's bandwidth as a launch floor (not in the seed): the stream above
 * with a fast DRAM (1000 GB/s: its bus floor is 8 cycles) and an L2 of 1
 * byte a cycle: its 256 sectors (every load misses the L1) need 256 x 32 =
 * 8192 cycles of L2, which the full model's launch takes; the mt variant
 * (no contention) ignores it. */
static void
test_l2_bandwidth_floor (Fixture *f, gconstpointer data)
{
  (void) data;
  f->gpu->sms = 16;
  f->gpu->dram_bandwidth_gbs = 1000;
  f->gpu->l2_bandwidth_bytes_per_clk = 1;
  g_autofree char *path = write_load_use_stream (f->dir, "l2-stream");
  g_autoptr (WsPrediction) full = predict (path, f->gpu, "full", "rr");
  assert_close (metric (full, "l2_bus_cycles"), 64 * 4 * 32);
  assert_close (full->cycles, 64 * 4 * 32);
  g_assert_cmpfloat (cpi (full, "L2"), >, 0.9 * full->cycles / 128);
  assert_stack_sums (full, 128);
  g_autoptr (WsPrediction) mt = predict (path, f->gpu, "mt", "rr");
  g_assert_cmpfloat (mt->cycles, <, 8192 / 4);
}

/* FP32 on a pipe with 16 lanes per scheduler (initiation interval 2,
 * Volta/Ampere: 64 FP32 lanes / 4 schedulers) takes a warp instruction
 * every 2 cycles.  The compute kernel is all FP32: 8 warps x 9 = 72 of them
 * on one scheduler need 144 cycles, not the 72 of an issue rate of 1.0
 * (which gave an A100 32 TFLOP/s of its 19.5). */
static void
test_fp32_initiation_interval (Fixture *f, gconstpointer data)
{
  (void) data;
  f->gpu->pipes[WS_ICLASS_FP32].initiation_interval = 2;
  g_autofree char *path = write_compute_trace (f->dir, 1, 8);
  const char *variants[] = { "naive", "mt", "full" };
  for (guint v = 0; v < G_N_ELEMENTS (variants); v++)
    {
      g_autoptr (WsPrediction) p = predict (path, f->gpu, variants[v], "gto");
      assert_close (metric (p, "cpi_pipe"), 2);
      assert_close (p->cycles, 144);
      assert_stack_sums (p, 72);
    }
  /* One warp alone is latency bound (29 cycles for 9 instructions > 18). */
  g_autofree char *one = write_compute_trace (f->dir, 1, 1);
  g_autoptr (WsPrediction) p1 = predict (one, f->gpu, "mt", "gto");
  assert_close (p1->cycles, 29);
}

/* The SM's L1 data stage returns one wavefront per cycle for all its
 * schedulers: 32 warps x 32 independent loads (L1 hits after the first)
 * need their wavefronts in cycles however many schedulers issue them.  The
 * wavefronts are the host's (the bank-conflict degree, at least lanes x
 * size / 128), not lines:
 *  - coalesced floats: one wavefront, 1024 cycles (gpu-strides stride 0:
 *    1.0 cycle per warp load on A100 and H200; issue alone gave 0.73);
 *  - floats at a stride of 15 words (15 lines each): no bank conflict,
 *    but the tag stage resolves 4 lines a cycle: four wavefronts, 4.0
 *    cycles per warp load (a line each: 15; H200 measures 4.6);
 *  - double broadcasts (one line): two wavefronts, 2.0 (A100 and H200
 *    measure 2.0; a line each gave 1.0, below the physical bound). */
static void
test_l1_wavefront_floor (Fixture *f, gconstpointer data)
{
  (void) data;
  f->gpu->warp_schedulers_per_sm = 4;
  const struct {
    const char *name;
    int first, rest;
    uint8_t size;
    double wavefronts;
  } cases[] = {
    { "l1_resident", ADDR_COALESCED, ADDR_REPEAT, 4, 32 },
    { "stride15", ADDR_STRIDE15, ADDR_STRIDE15, 4, 128 },
    { "broadcast64", ADDR_BROADCAST, ADDR_BROADCAST, 8, 64 },
  };
  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      WsTraceStaticInst insts[32];
      uint32_t program[32];
      int addr[32];
      for (int i = 0; i < 32; i++)
        {
          insts[i] = inst_mem (WS_OPCLASS_LD, 1 + i, -1);
          insts[i].access_size = cases[c].size;
          program[i] = (uint32_t) i;
          addr[i] = i == 0 ? cases[c].first : cases[c].rest;
        }
      Kernel k = { insts, 32, program, 32, addr };
      g_autofree char *path = write_trace (f->dir, cases[c].name, &k, 1, 32);
      g_autoptr (WsPrediction) p = predict (path, f->gpu, "full", "gto");
      double cpi_l1 = cases[c].wavefronts / 32;
      assert_close (metric (p, "l1_wavefronts"), cases[c].wavefronts);
      assert_close (metric (p, "cpi_l1"), cpi_l1);
      assert_close (metric (p, "cpi_multithreading"), cpi_l1);
      g_assert_cmpfloat (p->cycles, >=, cpi_l1 * 32 * 32);
    }
}

/* Every variant and scheduler: the stack adds up, and on a memory-bound
 * kernel the models order as their equations imply: eq. 10 is the optimistic
 * bound of eq. 16 (non-overlapped instructions are >= 0) and of the Markov
 * chain (a warp among others issues no more often than alone), MT_MSHR
 * adds a positive delay, and MT_MSHR_BAND charges each interval the larger
 * of the MSHR wait and the bus queue, so it is never below MT_MSHR (here
 * the MSHR wait is the larger: the same). */
static void
test_variants_order (Fixture *f, gconstpointer data)
{
  (void) data;
  f->gpu->l1_mshrs = 16;
  f->gpu->dram_bandwidth_gbs = 50;
  g_autofree char *path = write_gather_trace (f->dir, 2, 4);
  const char *scheds[] = { "rr", "gto" };
  for (guint s = 0; s < 2; s++)
    {
      double c[5];
      const char *variants[] = { "naive", "markov", "mt", "mt_mshr", "full" };
      for (guint v = 0; v < 5; v++)
        {
          g_autoptr (WsPrediction) p = predict (path, f->gpu, variants[v], scheds[s]);
          assert_stack_sums (p, 16);
          c[v] = p->cycles;
          g_autofree char *name = g_strconcat ("cpi_sm_", variants[v], NULL);
          assert_close (metric (p, name), metric (p, "cpi_sm"));
        }
      g_assert_cmpfloat (c[0], <=, c[1]);
      g_assert_cmpfloat (c[0], <=, c[2]);
      g_assert_cmpfloat (c[2], <, c[3]);
      g_assert_cmpfloat (c[3], <=, c[4]);
    }
}

/* Waves: 2 SMs holding at most 2 one-warp blocks each; 5 blocks make one full
 * wave (2 warps per SM, eq. 16 with RR: (29 + 9/29 x 7) / 18) and a tail of
 * one block (1 warp: 29 / 9).  Dispatched block by block, the first four end
 * together and the fifth runs alone on SM 0: the same figure. */
static void
test_waves (Fixture *f, gconstpointer data)
{
  (void) data;
  f->gpu->sms = 2;
  f->gpu->max_blocks_per_sm = 2;
  g_autofree char *path = write_compute_trace (f->dir, 5, 1);
  g_autoptr (WsPrediction) p = predict (path, f->gpu, "full", "rr");
  g_assert_cmpfloat (metric (p, "waves"), ==, 2);
  g_assert_cmpfloat (metric (p, "warps_per_sm"), ==, 2);
  g_assert_cmpfloat (metric (p, "tail_warps_per_sm"), ==, 1);
  double full = (29 + 9.0 / 29 * 7) / 18, tail = 29.0 / 9;
  assert_close (p->cycles, 2 * 9 * full + 9 * tail);
  assert_close (p->ipc, 45 / p->cycles);
  assert_stack_sums (p, 45);
}

/* An imbalanced launch: block 0's warp is a chain of 50 dependent FP32
 * instructions (eq. 13: 50 issue cycles + 49 x 20 stall cycles = 1030),
 * blocks 1-3 run the compute kernel (9 instructions, 29 cycles).  Two SMs
 * hold one block each.  Block 0 goes to SM 0, blocks 1, 2, 3 one after the
 * other to SM 1 (29 cycles each, eq. 16 with one warp: 9 x 29 / 9), while
 * SM 0 issues block 0's 50 instructions in 50 x 29 / 9 = 161 cycles of the
 * representative warp's CPI (the representative is a short warp: the
 * larger k-means cluster) but cannot end it before its chain: 1030 cycles.
 * The waves of the seed's single SM gave 77 instructions / 2 SMs x 29 / 9
 * = 124 cycles.  The time SM 0 only waits for the chain is stacked like
 * the representative warp alone: 9/29 BASE, 20/29 DEP. */
static void
test_long_block_ends_last (Fixture *f, gconstpointer data)
{
  (void) data;
  f->gpu->sms = 2;
  f->gpu->max_blocks_per_sm = 1;
  WsTraceStaticInst insts[10];
  uint32_t program[9], chain[50];
  int addr[9] = { 0 };
  for (int i = 0; i < 8; i++)
    insts[i] = inst_fp32 (1 + i, -1);
  insts[8] = inst_fp32 (20, 8);
  insts[9] = inst_fp32 (30, 30);
  for (int i = 0; i < 9; i++)
    program[i] = (uint32_t) i;
  for (int k = 0; k < 50; k++)
    chain[k] = 9;
  Kernel kern = { insts, 10, program, 9, addr, chain, 50 };
  g_autofree char *path = write_trace (f->dir, "imbalanced", &kern, 4, 1);
  g_autoptr (GError) error = NULL;

  /* The host's per-block critical warp (eq. 13 of each block's longest warp). */
  g_autoptr (WsTrace) trace = ws_trace_open (path, &error);
  g_assert_no_error (error);
  g_autoptr (WsLaunchAnalysis) a = ws_launch_analysis_new (trace, 0, f->gpu, &error);
  g_assert_no_error (error);
  const double *crit = ws_launch_analysis_get_tb_critical_cycles (a);
  g_assert_cmpfloat (crit[0], ==, 1030);
  for (int b = 1; b < 4; b++)
    g_assert_cmpfloat (crit[b], ==, 29);

  for (int s = 0; s < 2; s++)
    {
      g_autoptr (WsPrediction) p = predict (path, f->gpu, "full", s == 0 ? "rr" : "gto");
      g_assert_cmpfloat (metric (p, "representative_insts"), ==, 9);
      g_assert_cmpfloat (metric (p, "critical_warp_cycles"), ==, 1030);
      assert_close (p->cycles, 1030);
      assert_close (p->ipc, 77 / 1030.0);
      assert_close (cpi (p, "BASE"), 1030 * 9.0 / 29 / 77);
      assert_close (cpi (p, "DEP"), 1030 * 20.0 / 29 / 77);
      assert_stack_sums (p, 77);
    }
}

/* Block starts: an SM starts a block no sooner than block_launch_cycles
 * (L = 100) after its previous start.  test_waves' launch (5 one-warp
 * compute blocks, 9 instructions, 29 cycles alone; 2 SMs of 2 blocks):
 * blocks 0 and 1 start at 0 on SMs 0 and 1, blocks 2 and 3 are dispatched
 * to the second slots and start at 100.  Blocks 0 and 1 end at 29, block 4
 * takes SM 0's freed slot but starts at 200, ends at 229: the launch ends
 * at 229 = (ceil(5 / 2) - 1) x 100 + 29 (each block runs alone: 29 / 9
 * per instruction).  SM 0 waits for a start from 29 to 100 and from 129
 * to 200: LAUNCH 142 cycles, the rest stacked as one warp alone (9/29
 * BASE, 20/29 DEP).  L = 0 gives test_waves' figure exactly. */
static void
test_block_starts (Fixture *f, gconstpointer data)
{
  (void) data;
  f->gpu->sms = 2;
  f->gpu->max_blocks_per_sm = 2;
  g_autofree char *path = write_compute_trace (f->dir, 5, 1);
  g_autoptr (WsPrediction) old = predict (path, f->gpu, "full", "rr");
  double full = (29 + 9.0 / 29 * 7) / 18, tail = 29.0 / 9;
  g_assert_cmpfloat (old->cycles, ==, 2 * 9 * full + 9 * tail);
  g_assert_cmpfloat (cpi (old, "LAUNCH"), ==, 0);

  f->gpu->block_launch_cycles = 100;
  g_autoptr (WsPrediction) p = predict (path, f->gpu, "full", "rr");
  assert_close (metric (p, "block_launch_cycles"), 100);
  assert_close (p->cycles, 229);
  assert_close (cpi (p, "LAUNCH"), 142.0 / 45);
  assert_close (cpi (p, "BASE"), 87 * 9.0 / 29 / 45);
  assert_close (cpi (p, "DEP"), 87 * 20.0 / 29 / 45);
  assert_stack_sums (p, 45);

  /* L = 20: blocks 2 and 3 start at 20; block 4 replaces block 0, which
   * ends a little after 29 (it shares SM 0 with block 2 from 20 on), so it
   * starts 20 cycles after that (the replacement latency), later than SM
   * 0's previous start + 20 = 40, and runs alone for 29: the launch ends
   * just after 29 + 20 + 29 = 78 (at 69 if only the interval counted). */
  f->gpu->block_launch_cycles = 20;
  g_autoptr (WsPrediction) short_starts = predict (path, f->gpu, "full", "rr");
  g_assert_cmpfloat (short_starts->cycles, >=, 78);
  g_assert_cmpfloat (short_starts->cycles, <, 79);

  f->gpu->block_launch_cycles = 0;
  g_autoptr (WsPrediction) again = predict (path, f->gpu, "full", "rr");
  g_assert_cmpfloat (again->cycles, ==, old->cycles);
}

/* Several schedulers split the SM's warps: 8 warps on 4 schedulers are 4
 * cores of 2 warps, each at eq. 16's CPI; the SM retires 4 times as fast. */
static void
test_schedulers (Fixture *f, gconstpointer data)
{
  (void) data;
  f->gpu->warp_schedulers_per_sm = 4;
  g_autofree char *path = write_compute_trace (f->dir, 1, 8);
  g_autoptr (WsPrediction) p = predict (path, f->gpu, "mt", "rr");
  g_assert_cmpfloat (metric (p, "warps_per_scheduler"), ==, 2);
  double per_sched = (29 + 9.0 / 29 * 7) / 18;
  assert_close (metric (p, "cpi_sm"), per_sched / 4);
  assert_close (p->cycles, 72 * per_sched / 4);
}

static void
test_bad_options (Fixture *f, gconstpointer data)
{
  (void) data;
  g_autofree char *path = write_compute_trace (f->dir, 1, 1);
  g_autoptr (WsPredictorPlugin) plugin = load_gpumech ();
  g_autoptr (GError) error = NULL;
  g_autoptr (WsTrace) trace = ws_trace_open (path, &error);
  g_assert_no_error (error);
  const char *bad[][2] = { { "variant", "mt_band" }, { "scheduler", "lrr" }, { "warps", "4" } };
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
  /* Defaults: full, rr */
  const WsPredictorDescriptor *d = plugin->descriptor;
  g_assert_cmpuint (d->n_options, ==, 2);
  g_assert_cmpstr (d->options[0].default_value, ==, "full");
  g_assert_cmpstr (d->options[1].default_value, ==, "rr");
  /* An analytic kernel is refused. */
  g_autoptr (WsAnalyticKernel) k = ws_analytic_kernel_new ("k");
  ws_analytic_kernel_set (k, "grid_size", 1);
  ws_analytic_kernel_set (k, "block_size", 32);
  g_assert_null (ws_predict_analytic (plugin, f->gpu, k, NULL, &error));
  g_assert_error (error, WS_ERROR, WS_ERROR_UNSUPPORTED);
}

/* warpscope-cli predict --trace with the catalogue's GPUMech baseline. */
static void
test_cli (Fixture *f, gconstpointer data)
{
  (void) data;
  const char *cli = g_getenv ("WS_CLI");
  g_assert_nonnull (cli);
  g_autofree char *path = write_gather_trace (f->dir, 4, 4);
  g_autofree char *db = g_build_filename (f->dir, "ws.db", NULL);
  const char *argv[] = {
    cli,       "--db",    db,         "--json",        "predict", "--trace", path, "--gpu", "GPUMech baseline",
    "--model", "gpumech", "--option", "scheduler=gto", NULL
  };
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
  g_assert_cmpstr (json_object_get_string_member (o, "model"), ==, "gpumech");
  g_assert_cmpstr (json_object_get_string_member (o, "gpu"), ==, "GPUMech baseline");
  JsonArray *launches = json_object_get_array_member (o, "launches");
  g_assert_cmpuint (json_array_get_length (launches), ==, 1);
  JsonObject *l = json_array_get_object_element (launches, 0);
  double cycles = json_object_get_double_member (l, "cycles");
  double ipc = json_object_get_double_member (l, "ipc");
  g_assert_cmpfloat (cycles, >, 500);
  assert_close (ipc, 32 / cycles); /* 16 warps x 2 instructions */
  JsonObject *stack = json_object_get_object_member (l, "cpi_stack");
  g_assert_cmpuint (json_object_get_size (stack), ==, 8);
  double sum = 0;
  g_autoptr (GList) members = json_object_get_members (stack);
  for (GList *m = members; m; m = m->next)
    sum += json_object_get_double_member (stack, m->data);
  assert_close (sum, 1 / ipc);
  assert_close (json_object_get_double_member (o, "total_seconds"), cycles / 1e9); /* 1 GHz */
}

/* ---- the shared analysis' cache ------------------------------------------------ */

static void
assert_same_doubles (const double *a, const double *b, gsize n)
{
  for (gsize i = 0; i < n; i++)
    if (isnan (a[i]) || isnan (b[i]))
      g_assert_true (isnan (a[i]) && isnan (b[i]));
    else
      g_assert_cmpfloat (a[i], ==, b[i]);
}

/* Every figure a plugin can read of analysis @a equals @b's. */
static void
assert_same_analysis (WsLaunchAnalysis *a, WsLaunchAnalysis *b, guint n_insts, uint64_t n_tbs)
{
  const WsCacheStats *ca = ws_launch_analysis_get_cache (a), *cb = ws_launch_analysis_get_cache (b);
  g_assert_cmpmem (ca->pcs, n_insts * sizeof (WsCachePcStats), cb->pcs, n_insts * sizeof (WsCachePcStats));
  g_assert_cmpuint (ca->dram_bytes, ==, cb->dram_bytes);
  g_assert_cmpuint (ca->sectors, ==, cb->sectors);
  g_assert_cmpuint (ca->l2_hits, ==, cb->l2_hits);
  g_assert_cmpfloat (ca->l1_hit_rate, ==, cb->l1_hit_rate);
  g_assert_cmpint (ca->blocks_per_sm, ==, cb->blocks_per_sm);
  g_assert_cmpstr (ca->gpu, ==, cb->gpu);
  assert_same_doubles (ws_launch_analysis_get_latencies (a), ws_launch_analysis_get_latencies (b), n_insts);
  assert_same_doubles (ws_launch_analysis_get_wavefronts (a), ws_launch_analysis_get_wavefronts (b), n_insts);
  assert_same_doubles (ws_launch_analysis_get_tb_critical_cycles (a), ws_launch_analysis_get_tb_critical_cycles (b),
                       n_tbs);
  const uint64_t *ta, *tb;
  const uint64_t *ia = ws_launch_analysis_get_tb_issued (a, &ta), *ib = ws_launch_analysis_get_tb_issued (b, &tb);
  g_assert_cmpmem (ia, n_tbs * 8, ib, n_tbs * 8);
  g_assert_cmpmem (ta, n_tbs * 8, tb, n_tbs * 8);
  uint64_t wa, wb, tha, thb;
  ws_launch_analysis_get_issued (a, &wa, &tha);
  ws_launch_analysis_get_issued (b, &wb, &thb);
  g_assert_cmpuint (wa, ==, wb);
  g_assert_cmpuint (tha, ==, thb);
  g_assert_cmpuint (ws_launch_analysis_get_n_warps_profiled (a), ==, ws_launch_analysis_get_n_warps_profiled (b));
  uint64_t rta, rtb;
  uint32_t rwa, rwb;
  const WsIntervalProfile *pa = ws_launch_analysis_get_representative (a, &rta, &rwa);
  const WsIntervalProfile *pb = ws_launch_analysis_get_representative (b, &rtb, &rwb);
  g_assert_cmpuint (rta, ==, rtb);
  g_assert_cmpuint (rwa, ==, rwb);
  g_assert_cmpuint (pa->insts, ==, pb->insts);
  g_assert_cmpfloat (pa->cycles, ==, pb->cycles);
  g_assert_cmpfloat (pa->perf, ==, pb->perf);
  g_assert_cmpuint (pa->intervals->len, ==, pb->intervals->len);
  for (guint i = 0; i < pa->intervals->len; i++)
    {
      const WsInterval *x = &g_array_index (pa->intervals, WsInterval, i);
      const WsInterval *y = &g_array_index (pb->intervals, WsInterval, i);
      g_assert_cmpuint (x->insts, ==, y->insts);
      g_assert_cmpfloat (x->stall_cycles, ==, y->stall_cycles);
      g_assert_cmpuint (x->stall_inst, ==, y->stall_inst);
    }
}

/* The files of @folder ending in .wsa. */
static guint
count_cache_files (const char *folder)
{
  guint n = 0;
  g_autoptr (GDir) d = g_dir_open (folder, 0, NULL);
  const char *name;
  while (d != NULL && (name = g_dir_read_name (d)) != NULL)
    n += g_str_has_suffix (name, ".wsa");
  return n;
}

/* A kernel with loads (reuse, scatter) and dependent arithmetic: every part
 * of the analysis has figures. */
static char *
write_mixed_trace (const char *dir, const char *name, uint32_t blocks, guint n_launches)
{
  WsTraceStaticInst insts[5] = { inst_mem (WS_OPCLASS_LD, 1, -1), inst_fp32 (2, 1), inst_mem (WS_OPCLASS_LD, 3, -1),
                                 inst_fp32 (4, 3), inst_mem (WS_OPCLASS_ST, -1, 4) };
  uint32_t program[5] = { 0, 1, 2, 3, 4 };
  int addr[5] = { ADDR_COALESCED, ADDR_NONE, ADDR_SCATTER, ADDR_NONE, ADDR_REPEAT };
  Kernel k = { insts, 5, program, 5, addr };
  return write_trace_launches (dir, name, &k, blocks, 2, n_launches);
}

/* Launches with the same recorded streams have one digest (in one trace and
 * in another file); other streams, another digest. */
static void
test_analysis_digest (Fixture *f, gconstpointer data)
{
  (void) data;
  g_autofree char *p3 = write_mixed_trace (f->dir, "three", 4, 3);
  g_autofree char *p1 = write_mixed_trace (f->dir, "one", 4, 1);
  g_autofree char *p5 = write_mixed_trace (f->dir, "five_blocks", 5, 1);
  g_autoptr (GError) error = NULL;
  g_autoptr (WsTrace) t3 = ws_trace_open (p3, &error);
  g_autoptr (WsTrace) t1 = ws_trace_open (p1, &error);
  g_autoptr (WsTrace) t5 = ws_trace_open (p5, &error);
  g_assert_no_error (error);
  g_autofree char *d0 = ws_trace_launch_digest (t3, 0);
  g_autofree char *d2 = ws_trace_launch_digest (t3, 2);
  g_autofree char *other_file = ws_trace_launch_digest (t1, 0);
  g_autofree char *other_launch = ws_trace_launch_digest (t5, 0);
  g_assert_cmpuint (strlen (d0), ==, 32);
  g_assert_cmpstr (d0, ==, d2);
  g_assert_cmpstr (d0, !=, other_launch);
  /* the kernel's name is part of it: "one" is another kernel */
  g_assert_cmpstr (d0, !=, other_file);
}

/* The analysis read from the cache equals the computed one, field by field;
 * the second of two identical launches is read; a damaged or truncated file
 * is recomputed (and rewritten), another GPU record gets a file of its own,
 * and WARPSCOPE_ANALYSIS_CACHE=0 writes nothing. */
static void
test_analysis_cache (Fixture *f, gconstpointer data)
{
  (void) data;
  g_autofree char *path = write_mixed_trace (f->dir, "mixed", 6, 2);
  g_autoptr (GError) error = NULL;
  g_autoptr (WsTrace) trace = ws_trace_open (path, &error);
  g_assert_no_error (error);
  const WsTraceKernel *k = ws_trace_get_kernel (trace, 0);
  uint64_t n_tbs = 0;
  ws_trace_get_tb_counters (trace, 0, &n_tbs);
  g_autoptr (WsLaunchAnalysis) truth = ws_launch_analysis_new (trace, 0, f->gpu, &error);
  g_assert_no_error (error);

  /* default: a folder beside the trace */
  g_unsetenv ("WARPSCOPE_ANALYSIS_CACHE");
  g_autofree char *beside = g_strconcat (path, ".analysis", NULL);
  gboolean cached = TRUE;
  g_autoptr (WsLaunchAnalysis) a0 = ws_launch_analysis_get (trace, 0, f->gpu, &cached, &error);
  g_assert_no_error (error);
  g_assert_false (cached);
  g_assert_cmpuint (count_cache_files (beside), ==, 1);
  g_autoptr (WsLaunchAnalysis) a1 = ws_launch_analysis_get (trace, 1, f->gpu, &cached, &error);
  g_assert_no_error (error);
  g_assert_true (cached); /* launch 1 repeats launch 0 */
  assert_same_analysis (a0, truth, k->n_insts, n_tbs);
  assert_same_analysis (a1, truth, k->n_insts, n_tbs);
  g_assert_cmpuint (count_cache_files (beside), ==, 1);

  /* damage: every byte position class (header, payload, checksum) */
  g_autoptr (GDir) d = g_dir_open (beside, 0, NULL);
  g_autofree char *file = g_build_filename (beside, g_dir_read_name (d), NULL);
  g_autofree char *good = NULL;
  gsize len = 0;
  g_assert_true (g_file_get_contents (file, &good, &len, NULL));
  const gsize spots[] = { 0, 12, 40, len / 2, len - 1 };
  for (guint i = 0; i < G_N_ELEMENTS (spots); i++)
    {
      g_autofree char *bad = g_memdup2 (good, len);
      bad[spots[i]] ^= 0x40;
      g_assert_true (g_file_set_contents (file, bad, (gssize) len, NULL));
      g_autoptr (WsLaunchAnalysis) again = ws_launch_analysis_get (trace, 0, f->gpu, &cached, &error);
      g_assert_no_error (error);
      g_assert_false (cached);
      assert_same_analysis (again, truth, k->n_insts, n_tbs);
      g_autofree char *rewritten = NULL;
      gsize n = 0;
      g_assert_true (g_file_get_contents (file, &rewritten, &n, NULL));
      g_assert_cmpmem (rewritten, n, good, len);
    }
  g_assert_true (g_file_set_contents (file, good, (gssize) (len - 9), NULL));
  g_autoptr (WsLaunchAnalysis) truncated = ws_launch_analysis_get (trace, 0, f->gpu, &cached, &error);
  g_assert_false (cached);
  assert_same_analysis (truncated, truth, k->n_insts, n_tbs);

  /* another GPU record: another key */
  g_autoptr (WsGpu) slower = ws_gpu_copy (f->gpu);
  slower->dram_latency += 1;
  g_autoptr (WsLaunchAnalysis) s = ws_launch_analysis_get (trace, 0, slower, &cached, &error);
  g_assert_no_error (error);
  g_assert_false (cached);
  g_assert_cmpuint (count_cache_files (beside), ==, 2);
  assert_close (ws_launch_analysis_get_latencies (s)[0], DRAM_LAT + 1);

  /* a folder given, and the cache turned off */
  g_autofree char *elsewhere = g_build_filename (f->dir, "elsewhere", NULL);
  g_setenv ("WARPSCOPE_ANALYSIS_CACHE", elsewhere, TRUE);
  g_autoptr (WsLaunchAnalysis) e = ws_launch_analysis_get (trace, 0, f->gpu, &cached, &error);
  g_assert_false (cached);
  g_assert_cmpuint (count_cache_files (elsewhere), ==, 1);
  g_setenv ("WARPSCOPE_ANALYSIS_CACHE", "0", TRUE);
  remove_tmp_tree (beside);
  for (int i = 0; i < 2; i++)
    {
      g_autoptr (WsLaunchAnalysis) off = ws_launch_analysis_get (trace, 0, f->gpu, &cached, &error);
      g_assert_no_error (error);
      g_assert_false (cached);
      assert_same_analysis (off, truth, k->n_insts, n_tbs);
    }
  g_assert_false (g_file_test (beside, G_FILE_TEST_EXISTS));
  g_unsetenv ("WARPSCOPE_ANALYSIS_CACHE");
}

/* A launch of 13 waves (400 blocks, 32 resident on the test GPU's one SM)
 * is analysed on 4 waves and 128 profiled blocks; its blocks all run the
 * same code on addresses of their own, so what is extrapolated must equal
 * what every block analysed gives: instructions per block, the longest
 * warp's cycles, the cache totals.  Off (WARPSCOPE_ANALYSIS_SAMPLE=0),
 * every block is analysed; a launch of 8 waves is never sampled. */
static void
test_analysis_sampled (Fixture *f, gconstpointer data)
{
  (void) data;
  g_autofree char *path = write_mixed_trace (f->dir, "waves13", 400, 1);
  g_autofree char *small = write_mixed_trace (f->dir, "waves8", 256, 1);
  g_autoptr (GError) error = NULL;
  g_autoptr (WsTrace) trace = ws_trace_open (path, &error);
  g_autoptr (WsTrace) small_trace = ws_trace_open (small, &error);
  g_assert_no_error (error);
  g_setenv ("WARPSCOPE_ANALYSIS_SAMPLE", "0", TRUE);
  g_autoptr (WsLaunchAnalysis) exact = ws_launch_analysis_new (trace, 0, f->gpu, &error);
  g_assert_no_error (error);
  g_unsetenv ("WARPSCOPE_ANALYSIS_SAMPLE");
  g_autoptr (WsLaunchAnalysis) sampled = ws_launch_analysis_new (trace, 0, f->gpu, &error);
  g_assert_no_error (error);
  g_autoptr (WsLaunchAnalysis) whole = ws_launch_analysis_new (small_trace, 0, f->gpu, &error);
  g_assert_no_error (error);

  uint64_t profiled, simulated, recorded, waves;
  guint sample_waves;
  ws_launch_analysis_get_sample (exact, &profiled, &simulated, &recorded, &sample_waves, &waves);
  g_assert_cmpuint (profiled, ==, 400);
  g_assert_cmpuint (simulated, ==, 400);
  g_assert_cmpuint (sample_waves, ==, 13);
  g_assert_cmpuint (waves, ==, 13);
  ws_launch_analysis_get_sample (sampled, &profiled, &simulated, &recorded, &sample_waves, &waves);
  g_assert_cmpuint (recorded, ==, 400);
  g_assert_cmpuint (simulated, ==, 4 * 32);
  g_assert_cmpuint (profiled, ==, 4 * 32);
  g_assert_cmpuint (sample_waves, ==, 4);
  g_assert_cmpuint (waves, ==, 13);
  ws_launch_analysis_get_sample (whole, &profiled, &simulated, &recorded, &sample_waves, &waves);
  g_assert_cmpuint (profiled, ==, 256);
  g_assert_cmpuint (sample_waves, ==, 8);
  guint plan_sampled = 0;
  uint64_t plan_waves = 0;
  g_assert_true (ws_launch_analysis_plan (trace, 0, f->gpu, &plan_sampled, &plan_waves, &error));
  g_assert_cmpuint (plan_sampled, ==, 4);
  g_assert_cmpuint (plan_waves, ==, 13);

  const uint64_t *te, *ts;
  const uint64_t *ie = ws_launch_analysis_get_tb_issued (exact, &te);
  const uint64_t *is = ws_launch_analysis_get_tb_issued (sampled, &ts);
  g_assert_cmpmem (ie, 400 * 8, is, 400 * 8);
  g_assert_cmpmem (te, 400 * 8, ts, 400 * 8);
  const double *ce = ws_launch_analysis_get_tb_critical_cycles (exact);
  const double *cs = ws_launch_analysis_get_tb_critical_cycles (sampled);
  for (guint t = 0; t < 400; t++)
    assert_close (cs[t], ce[t]);
  const WsCacheStats *xe = ws_launch_analysis_get_cache (exact), *xs = ws_launch_analysis_get_cache (sampled);
  g_assert_cmpuint (xs->sectors, ==, xe->sectors);
  g_assert_cmpuint (xs->dram_sectors, ==, xe->dram_sectors);
  g_assert_cmpuint (xs->l1_hits, ==, xe->l1_hits);
  g_assert_cmpuint (xs->dram_bytes, ==, xe->dram_bytes);
  assert_same_doubles (ws_launch_analysis_get_latencies (sampled), ws_launch_analysis_get_latencies (exact), 5);

  /* the CLI says what was sampled */
  g_autoptr (WsPredictorPlugin) p = load_gpumech ();
  g_autoptr (WsPrediction) pred = ws_predict_trace (p, f->gpu, trace, 0, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (pred->analysis_waves, ==, 13);
  g_assert_cmpuint (pred->analysis_sampled_waves, ==, 4);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
#define ADD(name, fn) g_test_add (name, Fixture, NULL, fixture_setup, fn, fixture_teardown)
  ADD ("/gpumech/interval/host-profile", test_interval_profile);
  ADD ("/gpumech/interval/param-load-latency", test_param_load_latency);
  ADD ("/gpumech/interval/store-at-end", test_store_at_end);
  ADD ("/gpumech/mt/rr-vs-gto-nonoverlapped", test_rr_vs_gto);
  ADD ("/gpumech/mt/gto-eq25-and-issue-bound", test_gto_nonoverlapped_and_issue_bound);
  ADD ("/gpumech/mt/gto-surplus-fills-later-stall", test_gto_surplus_fills_later_stall);
  ADD ("/gpumech/contention/queue-hidden-by-issue-bound", test_queue_hidden_by_issue_bound);
  ADD ("/gpumech/markov/chen-aamodt-stationary", test_markov);
  ADD ("/gpumech/stack/stall-levels", test_stack_levels);
  ADD ("/gpumech/contention/mshr-limited", test_mshr_limited);
  ADD ("/gpumech/contention/dram-queue-dominates", test_dram_queue_dominates);
  ADD ("/gpumech/contention/dram-bandwidth-floor", test_dram_bandwidth_floor);
  ADD ("/gpumech/contention/l2-bandwidth-floor", test_l2_bandwidth_floor);
  ADD ("/gpumech/mt/fp32-initiation-interval", test_fp32_initiation_interval);
  ADD ("/gpumech/contention/l1-wavefront-floor", test_l1_wavefront_floor);
  ADD ("/gpumech/variants/order-and-stack-sums", test_variants_order);
  ADD ("/gpumech/launch/waves-and-tail", test_waves);
  ADD ("/gpumech/launch/schedulers-split-warps", test_schedulers);
  ADD ("/gpumech/launch/long-block-ends-last", test_long_block_ends_last);
  ADD ("/gpumech/launch/block-starts", test_block_starts);
  ADD ("/gpumech/options/validated", test_bad_options);
  ADD ("/gpumech/cli/predict-trace-json", test_cli);
  ADD ("/gpumech/analysis/digest", test_analysis_digest);
  ADD ("/gpumech/analysis/cache", test_analysis_cache);
  ADD ("/gpumech/analysis/sampled", test_analysis_sampled);
  return g_test_run ();
}
