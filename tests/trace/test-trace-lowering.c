/* The trace's lowering (core/trace/ws-trace-lowering.h): which recorded PTX
 * instructions issue nothing on the GPU, on a small PTX kernel with one
 * case per condition of the rules. */
#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>

#include "trace/ws-trace.h"
#include "trace/ws-trace-lowering.h"
#include "ptx/ws-ptx.h"
#include "trace-ptx-test-util.h"

static char *tmp_dir;

/* Each line after the declarations holds one instruction; the comment
 * names what the lowering must make of it. */
static const char lower_ptx[] = ".version 8.0\n"
                                ".target sm_80\n"
                                ".address_size 64\n"
                                "\n"
                                ".visible .entry lower(\n"
                                "\t.param .u64 lower_param_0,\n"
                                "\t.param .f32 lower_param_1\n"
                                ")\n"
                                "{\n"
                                "\t.reg .pred %p<3>;\n"
                                "\t.reg .f32 %f<40>;\n"
                                "\t.reg .f64 %fd<8>;\n"
                                "\t.reg .b64 %rd<4>;\n"
                                "\n"
                                "\tld.param.u64 %rd1, [lower_param_0];\n" /*  0 absorbed: constant-bank operand */
                                "\tld.param.f32 %f1, [lower_param_1];\n"  /*  1 absorbed */
                                "\tld.global.f32 %f2, [%rd1];\n"          /*  2 */
                                "\tmul.f32 %f3, %f2, %f1;\n"              /*  3 absorbed into 5 */
                                "\tsetp.gt.f32 %p1, %f2, %f1;\n"          /*  4 (in between, unrelated) */
                                "\tadd.f32 %f4, %f3, %f2;\n"              /*  5 FMA */
                                "\tmul.rn.f32 %f5, %f4, %f1;\n"           /*  6 rounded: kept */
                                "\tadd.f32 %f6, %f5, %f2;\n"              /*  7 */
                                "\tmul.f32 %f7, %f6, %f1;\n"              /*  8 add.rn: kept */
                                "\tadd.rn.f32 %f8, %f7, %f2;\n"           /*  9 */
                                "\tmul.f32 %f9, %f8, %f1;\n"              /* 10 absorbed into 11 (c - a*b) */
                                "\tsub.f32 %f10, %f2, %f9;\n"             /* 11 FMA */
                                "\tmul.f32 %f11, %f10, %f1;\n"            /* 12 read twice: kept */
                                "\tadd.f32 %f12, %f11, %f11;\n"           /* 13 */
                                "\tmul.f32 %f13, %f12, %f1;\n"            /* 14 read again later: kept */
                                "\tadd.f32 %f14, %f13, %f2;\n"            /* 15 */
                                "\tadd.f32 %f15, %f14, %f13;\n"           /* 16 */
                                "\tmul.f32 %f16, %f15, %f1;\n"            /* 17 read by a max: kept */
                                "\tcvt.f64.f32 %fd1, %f2;\n"              /* 18 */
                                "\tmul.f64 %fd2, %fd1, %fd1;\n"           /* 19 absorbed into 20 (f64) */
                                "\tadd.f64 %fd3, %fd2, %fd1;\n"           /* 20 FMA */
                                "\tcvt.rn.f32.f64 %f17, %fd3;\n"          /* 21 */
                                "\tmax.f32 %f18, %f16, %f17;\n"           /* 22 */
                                "\t@%p1 mul.f32 %f19, %f18, %f1;\n"       /* 23 guarded differently: kept */
                                "\tadd.f32 %f20, %f19, %f2;\n"            /* 24 */
                                "\tmul.f32 %f21, %f20, %f1;\n"            /* 25 source rewritten before the add: kept */
                                "\tmov.f32 %f20, %f2;\n"                  /* 26 */
                                "\tadd.f32 %f22, %f21, %f20;\n"           /* 27 */
                                "\tmul.f32 %f23, %f22, %f1;\n"            /* 28 other basic block: kept */
                                "\t@%p1 bra $L_next;\n"                   /* 29 */
                                "$L_next:\n"
                                "\tadd.f32 %f24, %f23, %f2;\n"     /* 30 */
                                "\tmul.ftz.f32 %f25, %f24, %f1;\n" /* 31 ftz differs: kept */
                                "\tadd.f32 %f26, %f25, %f2;\n"     /* 32 */
                                "\tmul.f32 %f27, %f26, %f1;\n"     /* 33 absorbed into 35 */
                                "\tmul.f32 %f28, %f26, %f2;\n"     /* 34 the add already took 33: kept */
                                "\tadd.f32 %f29, %f27, %f28;\n"    /* 35 FMA */
                                "\tst.global.f32 [%rd1], %f29;\n"  /* 36 */
                                "\tret;\n"                         /* 37 */
                                "}\n";

enum { N_LOWER = 38 };

static const uint8_t expected[N_LOWER] = {
  [0] = WS_TRACE_LOWERING_ABSORBED_PARAM, [1] = WS_TRACE_LOWERING_ABSORBED_PARAM,
  [3] = WS_TRACE_LOWERING_ABSORBED_MUL,   [5] = WS_TRACE_LOWERING_FMA,
  [10] = WS_TRACE_LOWERING_ABSORBED_MUL,  [11] = WS_TRACE_LOWERING_FMA,
  [19] = WS_TRACE_LOWERING_ABSORBED_MUL,  [20] = WS_TRACE_LOWERING_FMA,
  [33] = WS_TRACE_LOWERING_ABSORBED_MUL,  [35] = WS_TRACE_LOWERING_FMA,
};

static WsPtxModule *
parse_lower (void)
{
  GError *error = NULL;
  WsPtxModule *m = ws_ptx_parse (lower_ptx, strlen (lower_ptx), "lower.ptx", &error);
  g_assert_no_error (error);
  g_assert_cmpint (ws_ptx_module_find_function (m, "lower"), ==, 0);
  g_assert_cmpuint (m->functions[0].n_insts, ==, N_LOWER);
  return m;
}

static gboolean
has_src (const WsTraceStaticInst *si, uint16_t slot)
{
  for (int k = 0; k < si->n_src; k++)
    if (si->src[k] == slot)
      return TRUE;
  return FALSE;
}

static void
test_rules (void)
{
  g_autoptr (WsPtxModule) m = parse_lower ();
  const WsPtxFunction *fn = &m->functions[0];
  g_autofree WsTraceStaticInst *insts = trace_test_static_insts (fn);
  uint8_t lowering[N_LOWER];
  WsTraceStaticInst machine[N_LOWER];
  guint absorbed = ws_trace_lowering_compute (m, "lower", insts, N_LOWER, 0, lowering, machine, NULL, NULL);
  for (guint i = 0; i < N_LOWER; i++)
    {
      if (lowering[i] != expected[i])
        g_test_message ("instruction %u (%s): %s, expected %s", i, ws_ptx_op_name (insts[i].op),
                        ws_trace_lowering_name (lowering[i]), ws_trace_lowering_name (expected[i]));
      g_assert_cmpuint (lowering[i], ==, expected[i]);
    }
  g_assert_cmpuint (absorbed, ==, 6);

  /* Absorbed instructions read and write nothing. */
  for (guint i = 0; i < N_LOWER; i++)
    if (!ws_trace_lowering_issues (lowering[i]))
      {
        g_assert_cmpuint (machine[i].n_src, ==, 0);
        g_assert_cmpuint (machine[i].n_dst, ==, 0);
      }
  /* The FMA at 5 is %f2 * %f1 + %f2: the mul's sources, not %f3. */
  uint16_t f1 = insts[1].dst[0], f2 = insts[2].dst[0], f3 = insts[3].dst[0];
  g_assert_cmpuint (machine[5].op, ==, WS_OP_FMA);
  g_assert_cmpuint (machine[5].n_src, ==, 3);
  g_assert_true (has_src (&machine[5], f1));
  g_assert_true (has_src (&machine[5], f2));
  g_assert_false (has_src (&machine[5], f3));
  g_assert_cmpuint (machine[5].dst[0], ==, insts[5].dst[0]);
  /* c - a * b keeps c */
  g_assert_cmpuint (machine[11].op, ==, WS_OP_FMA);
  g_assert_true (has_src (&machine[11], f2));
  g_assert_false (has_src (&machine[11], insts[10].dst[0]));
  /* Everything else as recorded. */
  g_assert_cmpuint (machine[7].op, ==, WS_OP_ADD);
  g_assert_cmpmem (&machine[9], sizeof machine[9], &insts[9], sizeof insts[9]);

  /* PTX that does not match the recorded instructions: nothing lowered. */
  insts[3].ptx_line++;
  g_assert_cmpuint (ws_trace_lowering_compute (m, "lower", insts, N_LOWER, 0, lowering, machine, NULL, NULL), ==, 0);
  for (guint i = 0; i < N_LOWER; i++)
    g_assert_cmpuint (lowering[i], ==, WS_TRACE_LOWERING_ISSUE);
  insts[3].ptx_line--;
  g_assert_cmpuint (ws_trace_lowering_compute (NULL, "lower", insts, N_LOWER, 0, lowering, machine, NULL, NULL), ==, 0);
  g_assert_cmpuint (ws_trace_lowering_compute (m, "other", insts, N_LOWER, 0, lowering, machine, NULL, NULL), ==, 0);
}

/* Opening a trace computes the lowering of each kernel from its PTX text;
 * a kernel recorded without PTX text keeps every instruction. */
static void
test_open (void)
{
  g_autoptr (WsPtxModule) m = parse_lower ();
  g_autofree WsTraceStaticInst *insts = trace_test_static_insts (&m->functions[0]);
  GError *error = NULL;
  g_autofree char *path = g_build_filename (tmp_dir, "lower.wstrace", NULL);
  WsTraceWriter *w = ws_trace_writer_new (path, &error);
  g_assert_no_error (error);
  WsTraceKernelDesc kd = {
    .name = "lower", .ptx = lower_ptx, .n_insts = N_LOWER, .insts = insts, .regs_per_thread = 16
  };
  WsTraceKernelDesc bare = kd;
  bare.name = "bare";
  bare.ptx = NULL;
  uint32_t k = ws_trace_writer_add_kernel (w, &kd);
  uint32_t kb = ws_trace_writer_add_kernel (w, &bare);
  const uint32_t grid[3] = { 1, 1, 1 }, block[3] = { 32, 1, 1 };
  ws_trace_writer_begin_launch (w, k, grid, block, 0);
  WsTraceCta *cta = ws_trace_cta_begin (w, 0, 1);
  for (uint32_t i = 0; i < N_LOWER; i++)
    ws_trace_cta_inst (cta, 0, i, 0xffffffffu);
  ws_trace_cta_end (cta);
  g_assert_true (ws_trace_writer_end_launch (w, &error));
  g_assert_true (ws_trace_writer_close (w, &error));
  g_assert_no_error (error);

  g_autoptr (WsTrace) t = ws_trace_open (path, &error);
  g_assert_no_error (error);
  const WsTraceKernel *kl = ws_trace_get_kernel (t, k);
  g_assert_cmpuint (kl->n_absorbed, ==, 6);
  g_assert_cmpmem (kl->lowering, N_LOWER, expected, N_LOWER);
  g_assert_cmpuint (kl->machine[35].op, ==, WS_OP_FMA);
  g_assert_false (ws_trace_kernel_issues (kl, 0));
  g_assert_true (ws_trace_kernel_issues (kl, 2));
  /* the recorded table stays PTX, as do the launch's counters */
  g_assert_cmpuint (kl->insts[35].op, ==, WS_OP_ADD);
  g_assert_cmpuint (ws_trace_get_launch (t, 0)->warp_instructions, ==, N_LOWER);
  const WsTraceKernel *kbare = ws_trace_get_kernel (t, kb);
  g_assert_cmpuint (kbare->n_absorbed, ==, 0);
  for (guint i = 0; i < N_LOWER; i++)
    g_assert_true (ws_trace_kernel_issues (kbare, i));
  g_unlink (path);
}

/* Rule 3: loads issued early.  Each instruction's comment says what the
 * schedule makes of it; `order` is the machine order of one warp that
 * runs them all. */
static const char sched_ptx[] =
  ".version 8.0\n"
  ".target sm_80\n"
  ".address_size 64\n"
  "\n"
  ".visible .entry sched(\n"
  "\t.param .u64 sched_param_0,\n"
  "\t.param .u32 sched_param_1\n"
  ")\n"
  "{\n"
  "\t.reg .pred %p<3>;\n"
  "\t.reg .f64 %fd<20>;\n"
  "\t.reg .b64 %rd<12>;\n"
  "\t.reg .b32 %r<4>;\n"
  "\n"
  "\tld.param.u64 %rd1, [sched_param_0];\n" /*  0 absorbed */
  "\tld.param.u32 %r1, [sched_param_1];\n"  /*  1 absorbed */
  "\tmov.f64 %fd1, 0d0000000000000000;\n"   /*  2 waits */
  "\tld.global.f64 %fd2, [%rd1];\n"         /*  3 ahead of 2 */
  "\tadd.f64 %fd3, %fd1, %fd2;\n"           /*  4 waits */
  "\tadd.s64 %rd2, %rd1, 8;\n"              /*  5 an address: goes with the loads */
  "\tld.global.f64 %fd4, [%rd2];\n"         /*  6 ahead of 2, 4 */
  "\tadd.f64 %fd5, %fd3, %fd4;\n"           /*  7 waits */
  "\tld.global.f64 %fd6, [%rd1+16];\n"      /*  8 ahead of 2, 4, 7 */
  "\tadd.f64 %fd7, %fd5, %fd6;\n"           /*  9 waits */
  "\tcvt.rzi.s64.f64 %rd3, %fd6;\n"         /* 10 an address from a loaded value */
  "\tadd.s64 %rd4, %rd1, %rd3;\n"           /* 11 an address */
  "\tld.global.f64 %fd8, [%rd4];\n"         /* 12 ahead of 2, 4, 7, 9 */
  "\tadd.f64 %fd9, %fd8, %fd7;\n"           /* 13 waits */
  "\tst.global.f64 [%rd1], %fd9;\n"         /* 14 a store: 2, 4, 7, 9, 13 issue first */
  "\tsetp.ne.s32 %p1, %r1, 0;\n"            /* 15 waits */
  "\t@%p1 bra $L_end;\n"                    /* 16 a branch: 15 issues first */
  "\tld.global.f64 %fd10, [%rd1+24];\n"     /* 17 a new block */
  "\tadd.f64 %fd11, %fd10, %fd9;\n"         /* 18 waits */
  "\tld.global.f64 %fd12, [%rd1+32];\n"     /* 19 ahead of 18 */
  "\tadd.f64 %fd13, %fd11, %fd12;\n"        /* 20 waits */
  "\tld.global.f64 %fd12, [%rd1+40];\n"     /* 21 overwrites what 20 reads: 18, 20 issue first */
  "\tadd.f64 %fd14, %fd13, %fd12;\n"        /* 22 waits */
  "\tst.global.f64 [%rd1+8], %fd14;\n"      /* 23 */
  "$L_end:\n"
  "\tret;\n" /* 24 */
  "}\n";

enum { N_SCHED = 25 };

static const uint32_t sched_order[N_SCHED] = {
  0, 1, 3, 5, 6, 8, 10, 11, 12, 2, 4, 7, 9, 13, 14, 15, 16, 17, 19, 18, 20, 21, 22, 23, 24,
};

/* With 4 registers per thread (block 0 has nothing live at entry): a
 * third loaded double does not fit beside the two waiting ones, so the
 * oldest waiting arithmetic issues first until one is consumed (2 and 4
 * before 8); the address computed from 8's value consumes it, so 12 moves
 * ahead again.  In block 1, %rd1 and %fd9 (4 units) are live at entry:
 * no loaded value may wait, and only the arithmetic's order is kept. */
static const uint32_t sched_order_4regs[N_SCHED] = {
  0, 1, 3, 5, 6, 2, 4, 8, 10, 11, 12, 7, 9, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24,
};

/* A trace of one warp running every instruction of `sched` once, loads and
 * stores as memory records; opened, the iterator's order is returned. */
static void
sched_trace_order (uint32_t regs_per_thread, uint32_t *order, guint *n_hoisted)
{
  GError *error = NULL;
  g_autoptr (WsPtxModule) m = ws_ptx_parse (sched_ptx, strlen (sched_ptx), "sched.ptx", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (m->functions[0].n_insts, ==, N_SCHED);
  g_autofree WsTraceStaticInst *insts = trace_test_static_insts (&m->functions[0]);
  g_autofree char *path = g_build_filename (tmp_dir, "sched.wstrace", NULL);
  WsTraceWriter *w = ws_trace_writer_new (path, &error);
  g_assert_no_error (error);
  WsTraceKernelDesc kd = {
    .name = "sched", .ptx = sched_ptx, .n_insts = N_SCHED, .insts = insts, .regs_per_thread = regs_per_thread
  };
  uint32_t k = ws_trace_writer_add_kernel (w, &kd);
  const uint32_t grid[3] = { 1, 1, 1 }, block[3] = { 32, 1, 1 };
  ws_trace_writer_begin_launch (w, k, grid, block, 0);
  WsTraceCta *cta = ws_trace_cta_begin (w, 0, 1);
  uint64_t addrs[32];
  for (uint32_t i = 0; i < N_SCHED; i++)
    {
      const WsPtxInst *in = &m->functions[0].insts[i];
      if ((in->op == WS_OP_LD || in->op == WS_OP_ST) && in->space == WS_SPACE_GLOBAL)
        {
          for (int l = 0; l < 32; l++)
            addrs[l] = 0x10000 + 4096 * i + 8 * l;
          ws_trace_cta_mem (cta, 0, i, 0xffffffffu, WS_SPACE_GLOBAL, addrs);
        }
      else
        ws_trace_cta_inst (cta, 0, i, 0xffffffffu);
    }
  ws_trace_cta_end (cta);
  g_assert_true (ws_trace_writer_end_launch (w, &error));
  g_assert_true (ws_trace_writer_close (w, &error));
  g_assert_no_error (error);

  g_autoptr (WsTrace) t = ws_trace_open (path, &error);
  g_assert_no_error (error);
  *n_hoisted = ws_trace_get_kernel (t, k)->n_hoisted;
  g_autoptr (WsTraceTb) tb = ws_trace_read_tb (t, 0, 0, &error);
  g_assert_no_error (error);
  WsTraceWarpIter it;
  WsTraceRecord r;
  ws_trace_warp_iter_init (&it, tb, 0);
  guint n = 0;
  while (ws_trace_warp_iter_next (&it, &r, &error))
    {
      g_assert_cmpuint (n, <, N_SCHED);
      order[n++] = r.static_id;
      /* a memory record keeps its addresses wherever it moves */
      if (r.kind == WS_TRACE_RECORD_MEM)
        g_assert_cmpuint (r.addrs[31], ==, 0x10000 + 4096 * r.static_id + 8 * 31);
      else
        g_assert_cmpuint (r.active_mask, ==, 0xffffffffu);
    }
  g_assert_no_error (error);
  g_assert_cmpuint (n, ==, N_SCHED);
  g_unlink (path);
}

static void
test_schedule (void)
{
  uint32_t order[N_SCHED];
  guint hoisted;
  /* registers unknown: the architectural 255 bound nothing here */
  sched_trace_order (0, order, &hoisted);
  g_assert_cmpuint (hoisted, ==, 5);
  g_assert_cmpmem (order, sizeof order, sched_order, sizeof sched_order);

  sched_trace_order (4, order, &hoisted);
  g_assert_cmpuint (hoisted, ==, 4);
  g_assert_cmpmem (order, sizeof order, sched_order_4regs, sizeof sched_order_4regs);

  /* one register per thread: no loaded value can wait, nothing moves */
  sched_trace_order (1, order, &hoisted);
  g_assert_cmpuint (hoisted, ==, 0);
  for (guint i = 0; i < N_SCHED; i++)
    g_assert_cmpuint (order[i], ==, i);

  /* WARPSCOPE_PTX_ORDER=1: the recorded order */
  g_setenv ("WARPSCOPE_PTX_ORDER", "1", TRUE);
  sched_trace_order (0, order, &hoisted);
  g_unsetenv ("WARPSCOPE_PTX_ORDER");
  g_assert_cmpuint (hoisted, ==, 0);
  for (guint i = 0; i < N_SCHED; i++)
    g_assert_cmpuint (order[i], ==, i);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_autoptr (GError) error = NULL;
  tmp_dir = g_dir_make_tmp ("ws-lowering-XXXXXX", &error);
  g_assert_no_error (error);
  g_test_add_func ("/trace/lowering/rules", test_rules);
  g_test_add_func ("/trace/lowering/computed-at-open", test_open);
  g_test_add_func ("/trace/lowering/loads-issued-early", test_schedule);
  int rc = g_test_run ();
  g_rmdir (tmp_dir);
  g_free (tmp_dir);
  return rc;
}
