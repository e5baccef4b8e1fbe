/* The trace's lowering (core/trace/ws-trace-lowering.h) as the simulator,
 * the interval analysis and the physical bound see it: the same machine
 * instruction count everywhere, an FMA chain twice as fast as mul + sub,
 * and still no faster than the bound. */
#include <glib.h>
#include <glib/gstdio.h>

#include "sim/ws-sim.h"
#include "bounds/ws-bounds.h"
#include "interval/ws-interval.h"
#include "sim-test-util.h"
#include "../trace/trace-ptx-test-util.h"

static char *tmpdir;

static WsSimLaunchStats
run_one_trace (const WsGpu *gpu, const char *path)
{
  GError *error = NULL;
  g_autoptr (WsTrace) trace = ws_trace_open (path, &error);
  g_assert_no_error (error);
  WsSimConfig cfg;
  ws_sim_config_init (&cfg);
  g_autoptr (WsSim) sim = ws_sim_new (gpu, &cfg, &error);
  g_assert_no_error (error);
  WsSimLaunchStats st;
  g_assert_true (ws_sim_run_launch (sim, trace, 0, NULL, &st, &error));
  g_assert_no_error (error);
  return st;
}

#define CHAIN 8

/* v = a - b, then CHAIN dependent iterations of v = v * a - b (the
 * gpu-roofline kernel's inner loop as nvcc's PTX has it: mul + sub). */
static char *
chain_ptx (void)
{
  GString *s = g_string_new (".version 8.0\n.target sm_80\n.address_size 64\n\n"
                             ".visible .entry chain(\n\t.param .u64 chain_param_0\n)\n{\n"
                             "\t.reg .f32 %f<64>;\n\t.reg .b64 %rd<4>;\n\n"
                             "\tld.param.u64 %rd1, [chain_param_0];\n"
                             "\tld.global.f32 %f1, [%rd1];\n"
                             "\tld.global.f32 %f2, [%rd1+4];\n"
                             "\tsub.f32 %f3, %f1, %f2;\n");
  guint v = 3;
  for (guint i = 0; i < CHAIN; i++)
    {
      g_string_append_printf (s, "\tmul.f32 %%f%u, %%f%u, %%f1;\n", v + 1, v);
      g_string_append_printf (s, "\tsub.f32 %%f%u, %%f%u, %%f2;\n", v + 2, v + 1);
      v += 2;
    }
  g_string_append_printf (s, "\tst.global.f32 [%%rd1], %%f%u;\n\tret;\n}\n", v);
  return g_string_free (s, FALSE);
}

/* Two TBs of two warps each running the kernel once; @with_ptx: record
 * the PTX text (lowered) or not (every PTX instruction issues). */
static char *
write_chain (gboolean with_ptx, guint *n_insts)
{
  g_autofree char *ptx = chain_ptx ();
  GError *error = NULL;
  g_autoptr (WsPtxModule) m = ws_ptx_parse (ptx, strlen (ptx), "chain.ptx", &error);
  g_assert_no_error (error);
  const WsPtxFunction *fn = &m->functions[0];
  g_autofree WsTraceStaticInst *insts = trace_test_static_insts (fn);
  *n_insts = fn->n_insts;
  SimTraceBuilder b;
  sim_trace_open (&b, tmpdir, with_ptx ? "chain.wstrace" : "chain-noptx.wstrace");
  WsTraceKernelDesc kd = {
    .name = "chain", .ptx = with_ptx ? ptx : NULL, .n_insts = fn->n_insts, .insts = insts, .regs_per_thread = 16
  };
  uint32_t k = ws_trace_writer_add_kernel (b.w, &kd);
  sim_trace_launch (&b, k, 2, 64);
  for (uint32_t t = 0; t < 2; t++)
    {
      WsTraceCta *cta = ws_trace_cta_begin (b.w, t, 2);
      for (uint32_t w = 0; w < 2; w++)
        {
          uint64_t base = 0x10000 + (t * 2 + w) * 256;
          for (uint32_t i = 0; i < fn->n_insts; i++)
            if (insts[i].op == WS_OP_LD && insts[i].space == WS_SPACE_GLOBAL)
              sim_rec_mem (cta, w, i, WS_SPACE_GLOBAL, base + (i == 1 ? 0 : 128), 4);
            else if (insts[i].op == WS_OP_ST)
              sim_rec_mem (cta, w, i, WS_SPACE_GLOBAL, base, 4);
            else
              sim_rec_inst (cta, w, i);
        }
      ws_trace_cta_end (cta);
    }
  sim_trace_end_launch (&b);
  return sim_trace_close (&b);
}

typedef struct {
  WsLaunchCounts counts;
  WsLaunchBound bound;
  uint64_t cycles, sm_insts, ptx_insts, profile_insts;
} Seen;

static Seen
run_chain (gboolean with_ptx)
{
  guint n_insts;
  g_autofree char *path = write_chain (with_ptx, &n_insts);
  GError *error = NULL;
  g_autoptr (WsTrace) trace = ws_trace_open (path, &error);
  g_assert_no_error (error);
  g_autoptr (WsGpu) gpu = sim_test_gpu (1);
  gpu->cuda_cores_per_sm = 64;
  Seen s = { 0 };
  g_assert_true (ws_launch_counts_compute (trace, 0, &s.counts, &error));
  g_assert_true (ws_launch_bound_from_counts (&s.counts, gpu, &s.bound, &error));
  g_assert_no_error (error);

  WsSimConfig cfg;
  ws_sim_config_init (&cfg);
  g_autoptr (WsSim) sim = ws_sim_new (gpu, &cfg, &error);
  g_assert_no_error (error);
  WsSimLaunchStats st;
  g_assert_true (ws_sim_run_launch (sim, trace, 0, NULL, &st, &error));
  g_assert_no_error (error);
  s.cycles = st.cycles;
  s.ptx_insts = st.warp_instructions;
  for (guint i = 0; i < st.n_sms; i++)
    s.sm_insts += st.sm_instructions[i];
  /* IPC counts machine instructions, as the bound's max IPC does */
  g_assert_cmpfloat_with_epsilon (st.ipc, (double) s.sm_insts / (double) st.cycles, 1e-12);
  ws_sim_launch_stats_clear (&st);

  g_autoptr (WsLaunchAnalysis) a = ws_launch_analysis_new (trace, 0, gpu, &error);
  g_assert_no_error (error);
  ws_launch_analysis_get_issued (a, &s.profile_insts, NULL);
  const uint64_t *tb = ws_launch_analysis_get_tb_issued (a, NULL);
  g_assert_cmpuint (tb[0] + tb[1], ==, s.profile_insts);
  g_unlink (path);
  return s;
}

static void
test_counts_agree (void)
{
  Seen ptx = run_chain (FALSE), low = run_chain (TRUE);
  /* Per warp: ld.param, 2 loads, sub, CHAIN x (mul + sub), st, ret. */
  const uint64_t per_warp = 4 + 2 * CHAIN + 2;
  g_assert_cmpuint (ptx.ptx_insts, ==, 4 * per_warp);
  g_assert_cmpuint (low.ptx_insts, ==, 4 * per_warp);
  /* Without PTX text nothing is lowered; with it, ld.param and every mul
   * issue nothing. */
  g_assert_cmpuint (ptx.counts.warp_insts_lowered, ==, 4 * per_warp);
  g_assert_cmpuint (low.counts.warp_insts_lowered, ==, 4 * (per_warp - 1 - CHAIN));
  /* The simulator issues exactly what the lowering counts, so does the
   * interval analysis, and the bound stays below. */
  for (int i = 0; i < 2; i++)
    {
      const Seen *s = i ? &low : &ptx;
      g_assert_cmpuint (s->sm_insts, ==, s->counts.warp_insts_lowered);
      g_assert_cmpuint (s->profile_insts, ==, s->counts.warp_insts_lowered);
      g_assert_cmpuint (s->counts.warp_insts_issued_min, <=, s->counts.warp_insts_lowered);
      g_assert_cmpfloat (s->bound.cycles, <=, (double) s->cycles);
    }
  /* FP32 work the bound counts: the first sub and CHAIN FMAs per thread,
   * as its own pairing of fusable muls and adds gave before the lowering
   * (without PTX text the type is unknown and nothing is counted). */
  g_assert_cmpuint (low.counts.fp32_thread_ops_min, ==, 4 * 32 * (1 + CHAIN));
  g_assert_cmpuint (ptx.counts.fp32_thread_ops_min, ==, 0);
}

/* One warp: the dependent chain costs one FMA latency per iteration
 * instead of a mul's and a sub's, and the loads no longer wait for the
 * ld.param (a constant-bank operand). */
static void
test_chain_latency (void)
{
  guint n_insts;
  g_autoptr (WsGpu) gpu = sim_test_gpu (1);
  uint64_t cycles[2];
  for (int with_ptx = 0; with_ptx < 2; with_ptx++)
    {
      g_autofree char *path = NULL;
      {
        g_autofree char *ptx = chain_ptx ();
        GError *error = NULL;
        g_autoptr (WsPtxModule) m = ws_ptx_parse (ptx, strlen (ptx), "chain.ptx", &error);
        g_assert_no_error (error);
        g_autofree WsTraceStaticInst *insts = trace_test_static_insts (&m->functions[0]);
        n_insts = m->functions[0].n_insts;
        SimTraceBuilder b;
        sim_trace_open (&b, tmpdir, "one.wstrace");
        WsTraceKernelDesc kd = {
          .name = "chain", .ptx = with_ptx ? ptx : NULL, .n_insts = n_insts, .insts = insts, .regs_per_thread = 16
        };
        uint32_t k = ws_trace_writer_add_kernel (b.w, &kd);
        sim_trace_launch (&b, k, 1, 32);
        WsTraceCta *cta = ws_trace_cta_begin (b.w, 0, 1);
        /* no memory records: every instruction takes its pipe latency (4) */
        for (uint32_t i = 0; i < n_insts; i++)
          sim_rec_inst (cta, 0, i);
        ws_trace_cta_end (cta);
        sim_trace_end_launch (&b);
        path = sim_trace_close (&b);
      }
      WsSimLaunchStats st = run_one_trace (gpu, path);
      cycles[with_ptx] = st.cycles;
      ws_sim_launch_stats_clear (&st);
      g_unlink (path);
    }
  /* CHAIN muls of 4 cycles leave the critical path, and so do the 4
   * cycles the first load waited for the ld.param's result. */
  g_assert_cmpuint (cycles[0] - cycles[1], ==, 4 * CHAIN + 4);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_autoptr (GError) error = NULL;
  tmpdir = g_dir_make_tmp ("ws-sim-lowering-XXXXXX", &error);
  g_assert_no_error (error);
  g_test_add_func ("/sim/lowering/counts-agree-with-bound", test_counts_agree);
  g_test_add_func ("/sim/lowering/fma-chain-latency", test_chain_latency);
  int rc = g_test_run ();
  g_rmdir (tmpdir);
  g_free (tmpdir);
  return rc;
}
