/* test-bounds.c: every term of the physical lower bound (core/bounds) on
 * hand-made traces written with the real trace writer, to the exact value. */
#include "bounds-test-util.h"
#include "bounds/ws-bounds.h"
#include "ptx/ws-ptx.h"
#include "trace/ws-trace-writer.h"

#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

static char *tmp_dir;

/* 1000 MHz, so cycles and nanoseconds agree. */
static WsGpu *
test_gpu (int sms, int l2_size, int l2_slices, double dram_gbs)
{
  WsGpu *g = g_new0 (WsGpu, 1);
  g->name = g_strdup ("bounds test GPU");
  g->cc_major = 8;
  g->sms = sms;
  g->core_clock_mhz = 1000;
  g->warp_size = 32;
  g->warp_schedulers_per_sm = 2;
  g->issue_width = 1;
  g->cuda_cores_per_sm = 64;
  g->fp64_units_per_sm = 32;
  g->sfu_units_per_sm = 16;
  g->tensor_cores_per_sm = 4;
  g->l2_size = l2_size;
  g->l2_slices = l2_slices;
  g->dram_bandwidth_gbs = dram_gbs;
  return g;
}

static WsTraceStaticInst
inst (WsPtxOp op, WsOpClass cls, uint32_t line, uint8_t space, uint8_t size)
{
  return bounds_test_inst (op, cls, line, space, size, -1, -1);
}

static void
mem (WsTraceCta *cta, uint32_t warp, uint32_t id, uint8_t space, uint64_t base, int64_t stride)
{
  uint64_t a[32];
  for (int l = 0; l < 32; l++)
    a[l] = base + (uint64_t) (l * stride);
  ws_trace_cta_mem (cta, warp, id, 0xffffffffu, space, a);
}

static WsTrace *
open_trace (const char *path)
{
  GError *error = NULL;
  WsTrace *t = ws_trace_open (path, &error);
  g_assert_no_error (error);
  return t;
}

/* ---- arithmetic, issue and shared-memory terms -------------------------------- */

/* Line i + 3 holds static instruction i. */
static const char arith_ptx[] = ".visible .entry arith()\n"
                                "{\n"
                                "\tmul.f32 %f1, %f2, %f3;\n"         /* 0: may fuse */
                                "\tadd.f32 %f4, %f1, %f5;\n"         /* 1: may fuse */
                                "\tfma.rn.f32 %f6, %f4, %f4, %f4;\n" /* 2: one op */
                                "\tmul.rn.f32 %f7, %f6, %f6;\n"      /* 3: rounded: never fused */
                                "\tadd.f64 %fd1, %fd2, %fd3;\n"      /* 4: f64, may fuse (no f64 mul here) */
                                "\t@%p2 sin.approx.f32 %f8, %f7;\n"  /* 5: SFU (guarded) */
                                "\tsetp.lt.f32 %p1, %f8, %f7;\n"     /* 6: issue only */
                                "\tmov.f32 %f9, %f8;\n"              /* 7: may vanish */
                                "\tneg.f32 %f10, %f9;\n"             /* 8: operand modifier */
                                "\tadd.f16 %h1, %h2, %h3;\n"         /* 9: f16: not counted */
                                "\tld.shared.f32 %f11, [%r1];\n"     /* 10 */
                                "\tst.global.f32 [%rd1], %f11;\n"    /* 11 */
                                "\tbar.sync 0;\n"                    /* 12 */
                                "\tret;\n"                           /* 13 */
                                "}\n";

static char *
write_arith_trace (gboolean with_ptx)
{
  WsTraceStaticInst insts[] = {
    inst (WS_OP_MUL, WS_OPCLASS_FP32, 3, 0, 0),
    inst (WS_OP_ADD, WS_OPCLASS_FP32, 4, 0, 0),
    inst (WS_OP_FMA, WS_OPCLASS_FP32, 5, 0, 0),
    inst (WS_OP_MUL, WS_OPCLASS_FP32, 6, 0, 0),
    inst (WS_OP_ADD, WS_OPCLASS_FP64, 7, 0, 0),
    inst (WS_OP_SIN, WS_OPCLASS_SFU, 8, 0, 0),
    inst (WS_OP_SETP, WS_OPCLASS_FP32, 9, 0, 0),
    inst (WS_OP_MOV, WS_OPCLASS_ALU, 10, 0, 0),
    inst (WS_OP_NEG, WS_OPCLASS_FP32, 11, 0, 0),
    inst (WS_OP_ADD, WS_OPCLASS_FP32, 12, 0, 0),
    inst (WS_OP_LD, WS_OPCLASS_LD, 13, WS_SPACE_SHARED, 4),
    inst (WS_OP_ST, WS_OPCLASS_ST, 14, WS_SPACE_GLOBAL, 4),
    inst (WS_OP_BAR, WS_OPCLASS_BARRIER, 15, 0, 0),
    inst (WS_OP_RET, WS_OPCLASS_BRANCH, 16, 0, 0),
  };
  GError *error = NULL;
  char *path = g_build_filename (tmp_dir, with_ptx ? "arith.wstrace" : "arith-noptx.wstrace", NULL);
  WsTraceWriter *w = ws_trace_writer_new (path, &error);
  g_assert_no_error (error);
  WsTraceKernelDesc kd = { .name = "arith",
                           .ptx = with_ptx ? arith_ptx : NULL,
                           .n_insts = G_N_ELEMENTS (insts),
                           .insts = insts,
                           .regs_per_thread = 16 };
  uint32_t k = ws_trace_writer_add_kernel (w, &kd);
  const uint32_t grid[3] = { 2, 1, 1 }, block[3] = { 64, 1, 1 };
  ws_trace_writer_begin_launch (w, k, grid, block, 0);
  for (uint32_t t = 0; t < 2; t++)
    {
      WsTraceCta *cta = ws_trace_cta_begin (w, t, 2);
      for (uint32_t wp = 0; wp < 2; wp++)
        {
          const uint32_t all = 0xffffffffu;
          for (int i = 0; i < 3; i++)
            ws_trace_cta_inst (cta, wp, 0, all);
          for (int i = 0; i < 2; i++)
            ws_trace_cta_inst (cta, wp, 1, all);
          ws_trace_cta_inst (cta, wp, 2, all);
          if (t == 1 && wp == 1) /* the longest warp: 10 more FMAs */
            for (int i = 0; i < 10; i++)
              ws_trace_cta_inst (cta, wp, 2, all);
          ws_trace_cta_inst (cta, wp, 3, all);
          ws_trace_cta_inst (cta, wp, 4, all);
          ws_trace_cta_inst (cta, wp, 4, all);
          ws_trace_cta_inst (cta, wp, 5, all);
          ws_trace_cta_inst (cta, wp, 6, all);
          ws_trace_cta_inst (cta, wp, 7, all);
          ws_trace_cta_inst (cta, wp, 8, all);
          ws_trace_cta_inst (cta, wp, 9, all);
          mem (cta, wp, 10, WS_SPACE_SHARED, 0, 8);                             /* 2-way conflict */
          mem (cta, wp, 11, WS_SPACE_GLOBAL, 0x100000 + (t * 2 + wp) * 128, 4); /* 4 sectors */
          ws_trace_cta_barrier_mask (cta, wp, 12, all);
          ws_trace_cta_inst (cta, wp, 13, all);
        }
      ws_trace_cta_end (cta);
    }
  g_assert_true (ws_trace_writer_end_launch (w, &error));
  g_assert_true (ws_trace_writer_close (w, &error));
  g_assert_no_error (error);
  return path;
}

static void
test_arith_terms (void)
{
  g_autofree char *path = write_arith_trace (TRUE);
  g_autoptr (WsTrace) trace = open_trace (path);
  g_autoptr (WsGpu) gpu = test_gpu (4, 1 << 20, 4, 100);
  GError *error = NULL;
  WsLaunchCounts c;
  g_assert_true (ws_launch_counts_compute (trace, 0, &c, &error));
  g_assert_no_error (error);
  /* Per warp: 2 scalar memory accesses (4 bytes each, of different spaces:
   * ptxas cannot merge them), 1 setp, 1 barrier, 1 exit, fma + mul.rn,
   * 3 muls and 2 adds fused into at least 3, 2 f64 adds, 1 sin = 13; one
   * warp has 10 more FMAs. */
  g_assert_cmpuint (c.warps, ==, 4);
  g_assert_cmpuint (c.warp_insts_issued_min, ==, 4 * 13 + 10);
  g_assert_cmpuint (c.tb_warp_insts_max, ==, 13 + 23);
  g_assert_cmpuint (c.warp_warp_insts_max, ==, 23);
  g_assert_cmpuint (c.fp32_thread_ops_min, ==, 4 * (2 + 3) * 32 + 10 * 32);
  g_assert_cmpuint (c.fp64_thread_ops_min, ==, 4 * 2 * 32);
  g_assert_cmpuint (c.sfu_thread_ops_min, ==, 4 * 32);
  g_assert_cmpuint (c.tensor_thread_ops_min, ==, 0);
  g_assert_cmpuint (c.shared_accesses, ==, 4);
  /* 2-way conflicts, nothing to merge with: weight 1 */
  g_assert_cmpfloat (c.shared_wavefronts_min, ==, 4 * 2);
  g_assert_cmpfloat (c.shared_wavefronts_8b_min, ==, 4 * 1);
  g_assert_cmpfloat (c.shared_data_wavefronts_min, ==, 4 * 2);
  g_assert_cmpfloat (c.tb_shared_wavefronts_max, ==, 2 * 2);
  g_assert_cmpfloat (c.tb_shared_data_wavefronts_max, ==, 2 * 2);
  g_assert_cmpfloat (c.store_sectors, ==, 16);
  g_assert_cmpuint (c.unique_store_sectors, ==, 16);
  g_assert_cmpfloat (c.l1_load_sectors, ==, 0);
  g_assert_cmpuint (c.unique_load_sectors, ==, 0);

  WsLaunchBound b;
  g_assert_true (ws_launch_bound_from_counts (&c, gpu, &b, &error));
  g_assert_no_error (error);
  g_assert_cmpfloat (b.sms_used, ==, 2);
  g_assert_cmpfloat (b.max_ipc, ==, 4);
  /* max (62 / (2 SMs x 2 schedulers), 36 / 2 for the largest block) */
  g_assert_cmpfloat_with_epsilon (b.issue, 18, 1e-12);
  g_assert_cmpfloat_with_epsilon (b.warp_issue, 23, 1e-12);
  g_assert_cmpfloat_with_epsilon (b.fp32, 960.0 / (64 * 2), 1e-12);
  g_assert_cmpfloat_with_epsilon (b.fp64, 256.0 / (32 * 2), 1e-12);
  g_assert_cmpfloat_with_epsilon (b.sfu, 128.0 / (16 * 2), 1e-12);
  g_assert_cmpfloat (b.tensor, ==, 0);
  /* 8 wavefronts over 2 SMs, and 4 of one block on its SM */
  g_assert_cmpfloat_with_epsilon (b.shared, 4, 1e-12);
  g_assert_cmpfloat (b.l1, ==, 0);
  /* the 16 distinct sectors stored, not the 4 of the merged view */
  g_assert_cmpfloat_with_epsilon (b.l2, 16 * 32.0 / (4 * 128), 1e-12);
  g_assert_cmpfloat (b.dram, ==, 0);
  g_assert_cmpfloat_with_epsilon (b.cycles, 23, 1e-12);
  g_assert_cmpstr (b.limiter, ==, "warp-issue");
  g_assert_cmpfloat_with_epsilon (b.seconds, 23e-9, 1e-20);

  /* Kepler may run shared memory with 8-byte banks: no conflict then. */
  gpu->cc_major = 3;
  g_assert_true (ws_launch_bound_from_counts (&c, gpu, &b, &error));
  g_assert_cmpfloat_with_epsilon (b.shared, 2, 1e-12);

  /* A GPU record without schedulers gives an error, not a bound. */
  gpu->warp_schedulers_per_sm = 0;
  g_assert_false (ws_launch_bound_from_counts (&c, gpu, &b, &error));
  g_assert_error (error, WS_ERROR, WS_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, "bounds test GPU"));
  g_clear_error (&error);
}

/* Without PTX text an FP32-class instruction may be f16 (packed two to an
 * instruction): neither the FP32 pipe nor the issue count includes it; f64
 * is known from the class and still counted. */
static void
test_no_ptx_text (void)
{
  g_autofree char *path = write_arith_trace (FALSE);
  g_autoptr (WsTrace) trace = open_trace (path);
  GError *error = NULL;
  WsLaunchCounts c;
  g_assert_true (ws_launch_counts_compute (trace, 0, &c, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (c.fp32_thread_ops_min, ==, 0);
  g_assert_cmpuint (c.fp64_thread_ops_min, ==, 4 * 2 * 32);
  g_assert_cmpuint (c.sfu_thread_ops_min, ==, 4 * 32);
  /* 2 memory + barrier + exit + 2 f64 adds + sin = 7 per warp */
  g_assert_cmpuint (c.warp_insts_issued_min, ==, 4 * 7);
}

/* ---- memory terms ---------------------------------------------------------------- */

#define MIB (1024u * 1024u)

/* One launch per mode over 64 MiB with 16-byte (v4) accesses, 512 bytes per
 * warp instruction: 0 = store only, 1 = load only, 2 = load then store of
 * the same data. */
static char *
write_stream_trace (void)
{
  static const char ptx[] = ".visible .entry stream()\n{\n"
                            "\tld.global.v4.f32 {%f1, %f2, %f3, %f4}, [%rd1];\n"
                            "\tst.global.v4.f32 [%rd2], {%f1, %f2, %f3, %f4};\n"
                            "\tret;\n}\n";
  WsTraceStaticInst insts[] = {
    inst (WS_OP_LD, WS_OPCLASS_LD, 3, WS_SPACE_GLOBAL, 16),
    inst (WS_OP_ST, WS_OPCLASS_ST, 4, WS_SPACE_GLOBAL, 16),
    inst (WS_OP_RET, WS_OPCLASS_BRANCH, 5, 0, 0),
  };
  GError *error = NULL;
  char *path = g_build_filename (tmp_dir, "stream.wstrace", NULL);
  WsTraceWriter *w = ws_trace_writer_new (path, &error);
  g_assert_no_error (error);
  WsTraceKernelDesc kd = { .name = "stream", .ptx = ptx, .n_insts = 3, .insts = insts, .regs_per_thread = 16 };
  uint32_t k = ws_trace_writer_add_kernel (w, &kd);
  const uint32_t n_tbs = 256, warps = 4, per_warp = 128; /* 256 x 4 x 128 x 512 B = 64 MiB */
  const uint32_t grid[3] = { n_tbs, 1, 1 }, block[3] = { warps * 32, 1, 1 };
  for (int mode = 0; mode < 3; mode++)
    {
      ws_trace_writer_begin_launch (w, k, grid, block, 0);
      for (uint32_t t = 0; t < n_tbs; t++)
        {
          WsTraceCta *cta = ws_trace_cta_begin (w, t, warps);
          for (uint32_t wp = 0; wp < warps; wp++)
            {
              for (uint32_t i = 0; i < per_warp; i++)
                {
                  uint64_t base = 0x10000000ull + (((uint64_t) t * warps + wp) * per_warp + i) * 512;
                  if (mode != 0)
                    mem (cta, wp, 0, WS_SPACE_GLOBAL, base, 16);
                  if (mode != 1)
                    mem (cta, wp, 1, WS_SPACE_GLOBAL, base, 16);
                }
              ws_trace_cta_inst (cta, wp, 2, 0xffffffffu);
            }
          ws_trace_cta_end (cta);
        }
      g_assert_true (ws_trace_writer_end_launch (w, &error));
    }
  g_assert_true (ws_trace_writer_close (w, &error));
  g_assert_no_error (error);
  return path;
}

static void
test_memory_terms (void)
{
  g_autofree char *path = write_stream_trace ();
  g_autoptr (WsTrace) trace = open_trace (path);
  /* A100-like: 108 SMs, 40 MiB of L2 in 80 slices (no L2 bandwidth in the
   * record: 128 B/clk per slice), 1000 GB/s = 1000 bytes per cycle at
   * 1000 MHz. */
  g_autoptr (WsGpu) gpu = test_gpu (108, 40 * MIB, 80, 1000);
  GError *error = NULL;
  const double sectors = 64.0 * MIB / 32, warps = 256 * 4;

  /* Store only: 64 MiB written, at most 40 MiB may stay in the L2, so
   * 24 MiB must reach DRAM. */
  WsLaunchCounts c;
  WsLaunchBound b;
  g_assert_true (ws_launch_counts_compute (trace, 0, &c, &error));
  g_assert_no_error (error);
  g_assert_cmpfloat (c.store_sectors, ==, sectors);
  g_assert_cmpuint (c.unique_store_sectors, ==, (uint64_t) sectors);
  g_assert_cmpuint (c.unique_load_sectors, ==, 0);
  g_assert_false (c.unique_truncated);
  g_assert_true (ws_launch_bound_from_counts (&c, gpu, &b, &error));
  g_assert_cmpfloat_with_epsilon (b.dram, 24.0 * MIB / 1000, 1e-9);
  g_assert_cmpuint (b.dram_bytes_min, ==, 24 * MIB);
  g_assert_cmpfloat_with_epsilon (b.l2, 64.0 * MIB / (80 * 128), 1e-9);
  g_assert_cmpfloat (b.l1, ==, 0);
  g_assert_cmpfloat_with_epsilon (b.issue, warps * 129 / (108.0 * 2), 1e-9);
  g_assert_cmpstr (b.limiter, ==, "dram");
  g_assert_cmpfloat_with_epsilon (b.cycles, 24.0 * MIB / 1000, 1e-9);
  g_assert_cmpfloat_with_epsilon (b.max_ipc, 216, 1e-12);

  /* Load only: the same through L1 (128 B/clk per SM), L2 and DRAM. */
  g_assert_true (ws_launch_counts_compute (trace, 1, &c, &error));
  g_assert_cmpfloat (c.l1_load_sectors, ==, sectors);
  g_assert_cmpuint (c.unique_load_only_sectors, ==, (uint64_t) sectors);
  g_assert_cmpfloat (c.store_sectors, ==, 0);
  g_assert_true (ws_launch_bound_from_counts (&c, gpu, &b, &error));
  g_assert_cmpfloat_with_epsilon (b.l1, 64.0 * MIB / (128.0 * 108), 1e-9);
  g_assert_cmpfloat_with_epsilon (b.l2, 64.0 * MIB / (80 * 128), 1e-9);
  g_assert_cmpfloat_with_epsilon (b.dram, 24.0 * MIB / 1000, 1e-9);

  /* Load then store of the same data: the loads may have been served by the
   * stores' own sectors (none is load-only), the writes must leave. */
  g_assert_true (ws_launch_counts_compute (trace, 2, &c, &error));
  g_assert_cmpuint (c.unique_load_sectors, ==, (uint64_t) sectors);
  g_assert_cmpuint (c.unique_load_only_sectors, ==, 0);
  g_assert_true (ws_launch_bound_from_counts (&c, gpu, &b, &error));
  g_assert_cmpfloat_with_epsilon (b.dram, 24.0 * MIB / 1000, 1e-9);
  g_assert_cmpfloat_with_epsilon (b.l2, 64.0 * MIB / (80 * 128), 1e-9);

  /* A bigger L2 holds everything: no DRAM term. */
  gpu->l2_size = 64 * MIB;
  g_assert_true (ws_launch_bound_from_counts (&c, gpu, &b, &error));
  g_assert_cmpfloat (b.dram, ==, 0);
  g_assert_cmpstr (b.limiter, ==, "l2");

  /* The catalogue's L1 and L2 peak bandwidths, when the record has them. */
  gpu->l1_bandwidth_bytes_per_clk = 64;
  gpu->l2_bandwidth_bytes_per_clk = 2048;
  WsLaunchCounts loads;
  g_assert_true (ws_launch_counts_compute (trace, 1, &loads, &error));
  g_assert_true (ws_launch_bound_from_counts (&loads, gpu, &b, &error));
  g_assert_cmpfloat_with_epsilon (b.l1, 64.0 * MIB / (64.0 * 108), 1e-9);
  g_assert_cmpfloat_with_epsilon (b.l2, 64.0 * MIB / 2048, 1e-9);
  g_assert_cmpstr (b.limiter, ==, "l2");

  /* The cached counts are the computed ones. */
  WsLaunchCounts cached;
  g_assert_true (ws_launch_counts_cached (trace, 2, &cached, &error));
  g_assert_true (ws_launch_counts_cached (trace, 2, &cached, &error));
  g_assert_cmpmem (&cached, sizeof cached, &c, sizeof c);
  g_assert_false (ws_launch_counts_cached (trace, 3, &cached, &error));
  g_assert_error (error, WS_ERROR, WS_ERROR_NOT_FOUND);
  g_clear_error (&error);
}

/* Bank conflicts of one access, from its lane addresses. */
static void
test_shared_ways (void)
{
  static const char ptx[] =
    ".visible .entry sh()\n{\n\tld.shared.f32 %f1, [%r1];\n"
    "\tld.shared.v2.f32 {%f1, %f2}, [%r1];\n\tld.shared.v4.f32 {%f1, %f2, %f3, %f4}, [%r1];\n}\n";
  WsTraceStaticInst insts[] = {
    inst (WS_OP_LD, WS_OPCLASS_LD, 3, WS_SPACE_SHARED, 4),
    inst (WS_OP_LD, WS_OPCLASS_LD, 4, WS_SPACE_SHARED, 8),
    inst (WS_OP_LD, WS_OPCLASS_LD, 5, WS_SPACE_SHARED, 16),
  };
  /* (instruction, stride, bank-conflict ways with 4-byte banks, data-stage
   * wavefronts: at least lanes x size / 128); one access alone is never
   * merged (weight 1). */
  const struct {
    uint32_t id;
    int64_t stride;
    double ways, data;
  } cases[] = {
    { 0, 4, 1, 1 },   { 0, 0, 1, 1 } /* broadcast */,
    { 0, 8, 2, 2 },   { 0, 128, 32, 32 },
    { 0, 132, 1, 1 }, { 1, 8, 2, 2 } /* 256 bytes need two wavefronts */,
    { 2, 16, 4, 4 },  { 1, 0, 1, 2 } /* a 64-bit broadcast still returns 256 bytes */,
    { 2, 0, 1, 4 },
  };
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      GError *error = NULL;
      g_autofree char *name = g_strdup_printf ("shared-%u.wstrace", i);
      g_autofree char *path = g_build_filename (tmp_dir, name, NULL);
      WsTraceWriter *w = ws_trace_writer_new (path, &error);
      g_assert_no_error (error);
      WsTraceKernelDesc kd = { .name = "sh", .ptx = ptx, .n_insts = 3, .insts = insts, .regs_per_thread = 16 };
      uint32_t k = ws_trace_writer_add_kernel (w, &kd);
      const uint32_t grid[3] = { 1, 1, 1 }, block[3] = { 32, 1, 1 };
      ws_trace_writer_begin_launch (w, k, grid, block, 0);
      WsTraceCta *cta = ws_trace_cta_begin (w, 0, 1);
      mem (cta, 0, cases[i].id, WS_SPACE_SHARED, 0, cases[i].stride);
      ws_trace_cta_end (cta);
      g_assert_true (ws_trace_writer_end_launch (w, &error));
      g_assert_true (ws_trace_writer_close (w, &error));
      g_autoptr (WsTrace) trace = open_trace (path);
      WsLaunchCounts c;
      g_assert_true (ws_launch_counts_compute (trace, 0, &c, &error));
      g_assert_no_error (error);
      g_assert_cmpfloat (c.shared_wavefronts_min, ==, cases[i].ways);
      g_assert_cmpfloat (c.shared_data_wavefronts_min, ==, cases[i].data);
    }
}

/* ---- access merging and L1 wavefronts ------------------------------------------ */

/* Line i + 3 holds static instruction i. */
static const char merge_ptx[] = ".visible .entry mg()\n{\n"
                                "\tld.global.f32 %f1, [%rd1];\n"                     /* 0 */
                                "\tld.global.f32 %f2, [%rd1+4];\n"                   /* 1 */
                                "\tld.global.f32 %f3, [%rd1+8];\n"                   /* 2 */
                                "\tld.global.f32 %f4, [%rd1+12];\n"                  /* 3 */
                                "\tst.global.f32 [%rd2], %f1;\n"                     /* 4 */
                                "\tld.global.v4.f32 {%f1, %f2, %f3, %f4}, [%rd1];\n" /* 5 */
                                "\tld.global.f64 %fd1, [%rd1];\n"                    /* 6 */
                                "\tbar.sync 0;\n"                                    /* 7 */
                                "\tld.shared.f32 %f5, [%r1];\n"                      /* 8 */
                                "\tld.shared.f32 %f6, [%r1+4];\n"                    /* 9 */
                                "}\n";

typedef struct {
  uint32_t id;
  uint64_t base;  /* lane 0's address */
  int64_t stride; /* bytes between neighbouring lanes */
} MergeRec;

/* One block of one warp making @n accesses; returns its counts. */
static void
merge_counts (const char *name, const MergeRec *recs, guint n, WsLaunchCounts *c)
{
  WsTraceStaticInst insts[] = {
    inst (WS_OP_LD, WS_OPCLASS_LD, 3, WS_SPACE_GLOBAL, 4),  inst (WS_OP_LD, WS_OPCLASS_LD, 4, WS_SPACE_GLOBAL, 4),
    inst (WS_OP_LD, WS_OPCLASS_LD, 5, WS_SPACE_GLOBAL, 4),  inst (WS_OP_LD, WS_OPCLASS_LD, 6, WS_SPACE_GLOBAL, 4),
    inst (WS_OP_ST, WS_OPCLASS_ST, 7, WS_SPACE_GLOBAL, 4),  inst (WS_OP_LD, WS_OPCLASS_LD, 8, WS_SPACE_GLOBAL, 16),
    inst (WS_OP_LD, WS_OPCLASS_LD, 9, WS_SPACE_GLOBAL, 8),  inst (WS_OP_BAR, WS_OPCLASS_BARRIER, 10, 0, 0),
    inst (WS_OP_LD, WS_OPCLASS_LD, 11, WS_SPACE_SHARED, 4), inst (WS_OP_LD, WS_OPCLASS_LD, 12, WS_SPACE_SHARED, 4),
  };
  GError *error = NULL;
  g_autofree char *file = g_strdup_printf ("merge-%s.wstrace", name);
  g_autofree char *path = g_build_filename (tmp_dir, file, NULL);
  WsTraceWriter *w = ws_trace_writer_new (path, &error);
  g_assert_no_error (error);
  WsTraceKernelDesc kd = {
    .name = "mg", .ptx = merge_ptx, .n_insts = G_N_ELEMENTS (insts), .insts = insts, .regs_per_thread = 16
  };
  uint32_t k = ws_trace_writer_add_kernel (w, &kd);
  const uint32_t grid[3] = { 1, 1, 1 }, block[3] = { 32, 1, 1 };
  ws_trace_writer_begin_launch (w, k, grid, block, 0);
  WsTraceCta *cta = ws_trace_cta_begin (w, 0, 1);
  for (guint i = 0; i < n; i++)
    if (recs[i].id == 7)
      ws_trace_cta_barrier_mask (cta, 0, 7, 0xffffffffu);
    else
      mem (cta, 0, recs[i].id, insts[recs[i].id].space, recs[i].base, recs[i].stride);
  ws_trace_cta_end (cta);
  g_assert_true (ws_trace_writer_end_launch (w, &error));
  g_assert_true (ws_trace_writer_close (w, &error));
  g_assert_no_error (error);
  g_autoptr (WsTrace) trace = open_trace (path);
  g_assert_true (ws_launch_counts_compute (trace, 0, c, &error));
  g_assert_no_error (error);
}

/* ptxas may merge accesses of a thread only where every lane's addresses
 * are contiguous within one aligned chunk of at most 16 bytes; each
 * access's figures count s / M of a merged M-byte access, else fully. */
static void
test_merge_rule (void)
{
  const uint64_t A = 0x100000; /* 128-byte aligned */
  const struct {
    const char *name;
    MergeRec recs[8];
    guint n;
    double mem;        /* memory warp instructions (weighted) */
    double wavefronts; /* L1 data-stage wavefronts */
    double sectors;    /* L1 load sectors */
  } cases[] = {
    /* p[2l], p[2l + 1]: may be one LDG.64 per lane: 1/2 each.  Each 4-byte
     * access alone has a 2-way bank conflict (lanes 8 bytes apart). */
    { "pair", { { 0, A, 8 }, { 1, A + 4, 8 } }, 2, 1, 2 * 0.5 * 2, 2 * 0.5 * 8 },
    /* the same pair in the other order */
    { "pair-reversed", { { 1, A + 4, 8 }, { 0, A, 8 } }, 2, 1, 2, 8 },
    /* gpu-strides: p[0], p[4] are 16 bytes apart: never merged */
    { "16-apart", { { 0, A, 4 }, { 1, A + 16, 4 } }, 2, 2, 2, 4 + 5 },
    /* contiguous but the 8-byte chunk is not aligned: no LDG.64 */
    { "unaligned", { { 0, A + 4, 8 }, { 1, A + 8, 8 } }, 2, 2, 4, 8 + 9 },
    /* p[4l .. 4l + 3]: one LDG.128 per lane at most: 1/4 each; a v4 load of
     * the same 512 bytes needs 4 wavefronts */
    { "quad", { { 0, A, 16 }, { 1, A + 4, 16 }, { 2, A + 8, 16 }, { 3, A + 12, 16 } }, 4, 1, 4, 16 },
    { "v4", { { 5, A, 16 } }, 1, 1, 4, 16 },
    /* a store between the two loads keeps them apart */
    { "store-between", { { 0, A, 8 }, { 4, A + 4096, 4 }, { 1, A + 4, 8 } }, 3, 2 + 1, 4, 16 },
    /* so does a barrier */
    { "barrier-between", { { 0, A, 8 }, { 7, 0, 0 }, { 1, A + 4, 8 } }, 3, 2, 4, 16 },
    /* a load of the same bytes by another instruction is issued again
     * (NVVM removed what could be proven redundant) */
    { "repeat-other", { { 0, A, 4 }, { 1, A, 4 } }, 2, 2, 2, 8 },
    /* the same instruction again (a loop) is issued again */
    { "repeat-same", { { 0, A, 0 }, { 0, A, 0 }, { 0, A, 0 } }, 3, 3, 3, 3 },
    /* a stride-0 warp load: one wavefront; 64-bit: 256 bytes, two */
    { "broadcast", { { 0, A, 0 } }, 1, 1, 1, 1 },
    { "broadcast-64", { { 6, A, 0 } }, 1, 1, 2, 1 },
    /* 4 lines, 4-way bank conflict: 4 wavefronts */
    { "4-lines", { { 0, A, 16 } }, 1, 1, 4, 16 },
    /* gpu-strides' stride 3: 3 lines but no bank conflict: 1 wavefront
     * (A100 and H200 measure 1.0 data wavefronts, 1.63 cycles per load) */
    { "3-lines", { { 0, A, 12 } }, 1, 1, 1, 12 },
    /* The tag stage resolves 4 lines a cycle: stride 7 (7 lines, no bank
     * conflict) needs 2 wavefronts, stride 30 (30 lines, 2-way banks) 8
     * (A100 measures 2.67 and 8.0 cycles per warp load) */
    { "7-lines", { { 0, A, 28 } }, 1, 1, 2, 28 },
    { "30-lines", { { 0, A, 120 } }, 1, 1, 8, 32 },
  };
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      WsLaunchCounts c;
      merge_counts (cases[i].name, cases[i].recs, cases[i].n, &c);
      g_test_message ("%s", cases[i].name);
      guint barriers = 0;
      for (guint j = 0; j < cases[i].n; j++)
        barriers += cases[i].recs[j].id == 7;
      /* memory instructions rounded up, one EXIT, the barriers */
      g_assert_cmpuint (c.warp_insts_issued_min, ==, (uint64_t) ceil (cases[i].mem) + 1 + barriers);
      g_assert_cmpfloat_with_epsilon (c.l1_wavefronts_min, cases[i].wavefronts, 1e-12);
      g_assert_cmpfloat_with_epsilon (c.tb_l1_wavefronts_max, cases[i].wavefronts, 1e-12);
      g_assert_cmpfloat_with_epsilon (c.l1_load_sectors, cases[i].sectors, 1e-12);
    }
  /* Distinct bytes, not sectors: 32 words 12 bytes apart. */
  const MergeRec bytes[] = { { 0, A, 12 } };
  WsLaunchCounts cb;
  merge_counts ("bytes", bytes, 1, &cb);
  g_assert_cmpfloat (cb.l1_load_bytes, ==, 32 * 4);
  g_assert_cmpfloat (cb.l1_load_sectors, ==, 12);

  /* Shared loads follow the same rule. */
  MergeRec sh[] = { { 8, 0, 8 }, { 9, 4, 8 } };
  WsLaunchCounts c;
  merge_counts ("shared-pair", sh, 2, &c);
  g_assert_cmpfloat (c.shared_wavefronts_min, ==, 2 * 0.5 * 2);
  g_assert_cmpfloat (c.shared_data_wavefronts_min, ==, 2 * 0.5 * 2);
  MergeRec sh_apart[] = { { 8, 0, 4 }, { 9, 16, 4 } };
  merge_counts ("shared-apart", sh_apart, 2, &c);
  g_assert_cmpfloat (c.shared_wavefronts_min, ==, 2);
  g_assert_cmpuint (c.warp_insts_issued_min, ==, 3);
}

/* The L1 term: one data-stage wavefront per cycle per SM from Volta on,
 * bytes only before. */
static void
test_l1_wavefront_term (void)
{
  /* gpu-strides, stride 0: 8 loads of one static instruction each at one
   * address for the whole warp. */
  MergeRec recs[8];
  for (guint i = 0; i < 8; i++)
    recs[i] = (MergeRec){ i % 4, 0x100000 + 16 * i, 0 };
  WsLaunchCounts c;
  merge_counts ("strides-0", recs, 8, &c);
  g_assert_cmpfloat (c.l1_wavefronts_min, ==, 8);
  g_autoptr (WsGpu) gpu = test_gpu (4, 1 << 20, 4, 100);
  GError *error = NULL;
  WsLaunchBound b;
  g_assert_true (ws_launch_bound_from_counts (&c, gpu, &b, &error));
  g_assert_no_error (error);
  /* one block on one SM: 8 wavefronts = 8 cycles, 1 per warp load */
  g_assert_cmpfloat (b.sms_used, ==, 1);
  g_assert_cmpfloat_with_epsilon (b.l1, 8, 1e-12);
  g_assert_cmpfloat_with_epsilon (b.l1_wavefronts_min, 8, 1e-12);
  /* (one warp alone: its 9 instructions limit it) */
  g_assert_cmpstr (b.limiter, ==, "warp-issue");
  /* A record with a 256 B/clk L1 halves it. */
  gpu->l1_bandwidth_bytes_per_clk = 256;
  g_assert_true (ws_launch_bound_from_counts (&c, gpu, &b, &error));
  g_assert_cmpfloat_with_epsilon (b.l1, 4, 1e-12);
  /* Pascal: only the distinct bytes, 8 loads x 4 bytes, at 128 B/clk. */
  gpu->l1_bandwidth_bytes_per_clk = 128;
  gpu->cc_major = 6;
  g_assert_true (ws_launch_bound_from_counts (&c, gpu, &b, &error));
  g_assert_cmpfloat_with_epsilon (b.l1, 8 * 4 / 128.0, 1e-12);
  g_assert_cmpfloat (b.l1_bytes_min, ==, 32);
  g_assert_cmpfloat (b.l1_wavefronts_min, ==, 0);
}

static void
test_json (void)
{
  g_autofree char *path = write_arith_trace (TRUE);
  g_autoptr (WsTrace) trace = open_trace (path);
  g_autoptr (WsGpu) gpu = test_gpu (4, 1 << 20, 4, 100);
  GError *error = NULL;
  WsLaunchBound b;
  g_assert_true (ws_launch_bound_compute (trace, 0, gpu, &b, &error));
  g_assert_no_error (error);
  g_autoptr (JsonNode) node = ws_launch_bound_to_json (&b);
  JsonObject *o = json_node_get_object (node);
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (o, "cycles"), 23, 1e-12);
  g_assert_cmpstr (json_object_get_string_member (o, "limiter"), ==, "warp-issue");
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (o, "max_ipc"), 4, 1e-12);
  JsonObject *terms = json_object_get_object_member (o, "terms");
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (terms, "issue"), 18, 1e-12);
  JsonObject *counts = json_object_get_object_member (o, "counts");
  g_assert_cmpint (json_object_get_int_member (counts, "warp_insts_issued_min"), ==, 62);
  g_assert_false (ws_launch_bound_compute (trace, 1, gpu, &b, &error));
  g_assert_error (error, WS_ERROR, WS_ERROR_NOT_FOUND);
  g_clear_error (&error);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  GError *error = NULL;
  tmp_dir = g_dir_make_tmp ("ws-bounds-XXXXXX", &error);
  g_assert_no_error (error);
  g_test_add_func ("/bounds/terms/arithmetic-issue-shared", test_arith_terms);
  g_test_add_func ("/bounds/terms/no-ptx-text", test_no_ptx_text);
  g_test_add_func ("/bounds/terms/memory-l1-l2-dram", test_memory_terms);
  g_test_add_func ("/bounds/terms/shared-bank-ways", test_shared_ways);
  g_test_add_func ("/bounds/merge/contiguous-aligned-only", test_merge_rule);
  g_test_add_func ("/bounds/terms/l1-wavefronts", test_l1_wavefront_term);
  g_test_add_func ("/bounds/json", test_json);
  int rc = g_test_run ();
  g_autoptr (GDir) dir = g_dir_open (tmp_dir, 0, NULL);
  for (const char *n; dir != NULL && (n = g_dir_read_name (dir)) != NULL;)
    {
      g_autofree char *p = g_build_filename (tmp_dir, n, NULL);
      g_unlink (p);
    }
  g_rmdir (tmp_dir);
  g_free (tmp_dir);
  return rc;
}
