/* The cycle-level simulator on tiny synthetic traces whose timing can be
 * worked out by hand (see the comment of each case). */
#include "sim/ws-sim.h"
#include "bounds/ws-bounds.h"
#include "sim-test-util.h"

#include <glib/gstdio.h>

static char *tmpdir;

static WsSimLaunchStats
run_one (const WsGpu *gpu, const char *path, WsSimScheduler sched)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WsTrace) trace = ws_trace_open (path, &error);
  g_assert_no_error (error);
  WsSimConfig cfg;
  ws_sim_config_init (&cfg);
  cfg.scheduler = sched;
  g_autoptr (WsSim) sim = ws_sim_new (gpu, &cfg, &error);
  g_assert_no_error (error);
  WsSimLaunchStats st;
  g_assert_true (ws_sim_run_launch (sim, trace, 0, NULL, &st, &error));
  g_assert_no_error (error);
  return st;
}

static uint64_t
stall_sum (const WsSimLaunchStats *st)
{
  uint64_t s = 0;
  for (int i = 0; i < WS_SIM_STALL_COUNT; i++)
    s += st->stalls[i];
  return s;
}

/* One warp, 100 instructions each reading the previous one's result:
 * every instruction waits the full 4-cycle latency, cycles = 100 x 4. */
static void
test_dependent_chain (void)
{
  SimTraceBuilder b;
  sim_trace_open (&b, tmpdir, "chain.wstrace");
  WsTraceStaticInst insts[1] = { sim_test_inst (WS_OPCLASS_ALU, 1, 1, -1) };
  uint32_t k = sim_trace_kernel (&b, "chain", insts, 1);
  sim_trace_launch (&b, k, 1, 32);
  WsTraceCta *cta = ws_trace_cta_begin (b.w, 0, 1);
  for (int i = 0; i < 100; i++)
    sim_rec_inst (cta, 0, 0);
  ws_trace_cta_end (cta);
  sim_trace_end_launch (&b);
  g_autofree char *path = sim_trace_close (&b);
  g_autoptr (WsGpu) gpu = sim_test_gpu (1);
  WsSimLaunchStats st = run_one (gpu, path, WS_SIM_SCHED_GTO);
  g_assert_cmpuint (st.cycles, ==, 400);
  g_assert_cmpuint (st.warp_instructions, ==, 100);
  g_assert_cmpuint (st.simulated_warp_instructions, ==, 100);
  g_assert_cmpfloat_with_epsilon (st.ipc, 0.25, 1e-12);
  /* 100 issue cycles, 300 cycles waiting on the dependency. */
  g_assert_cmpuint (st.stalls[WS_SIM_STALL_DEPENDENCY], ==, 300);
  g_assert_cmpuint (stall_sum (&st) + 100, ==, 400);
  g_assert_cmpuint (st.sm_instructions[0], ==, 100);
  g_assert_cmpuint (st.n_samples, ==, 1);
  g_assert_cmpuint (st.timeline[0], ==, 100);
  ws_sim_launch_stats_clear (&st);
}

/* Independent instructions (8 destination registers in turn, more than the
 * 4-cycle latency apart): one per cycle, so n instructions take n - 1 issue
 * cycles plus the last one's latency.  Four warps share the one
 * scheduler: 4n - 1 + 4. */
static void
test_independent_issue_limited (void)
{
  for (guint warps = 1; warps <= 4; warps += 3)
    {
      SimTraceBuilder b;
      g_autofree char *name = g_strdup_printf ("indep%u.wstrace", warps);
      sim_trace_open (&b, tmpdir, name);
      WsTraceStaticInst insts[8];
      for (int i = 0; i < 8; i++)
        insts[i] = sim_test_inst (WS_OPCLASS_ALU, i, -1, -1);
      uint32_t k = sim_trace_kernel (&b, "indep", insts, 8);
      sim_trace_launch (&b, k, 1, 32 * warps);
      WsTraceCta *cta = ws_trace_cta_begin (b.w, 0, warps);
      for (guint w = 0; w < warps; w++)
        for (int i = 0; i < 96; i++)
          sim_rec_inst (cta, w, (uint32_t) (i % 8));
      ws_trace_cta_end (cta);
      sim_trace_end_launch (&b);
      g_autofree char *path = sim_trace_close (&b);
      g_autoptr (WsGpu) gpu = sim_test_gpu (1);
      for (int sch = 0; sch < 2; sch++)
        {
          WsSimLaunchStats st = run_one (gpu, path, sch);
          g_assert_cmpuint (st.cycles, ==, 96 * warps - 1 + 4);
          ws_sim_launch_stats_clear (&st);
        }
      /* Two instructions per cycle (from different warps) when the ALU pipe
       * takes one every half cycle. */
      gpu->issue_width = 2;
      gpu->pipes[WS_ICLASS_INT].initiation_interval = 0.5;
      WsSimLaunchStats st = run_one (gpu, path, WS_SIM_SCHED_RR);
      if (warps == 4)
        g_assert_cmpuint (st.cycles, ==, 96 * 2 - 1 + 4);
      else
        g_assert_cmpuint (st.cycles, ==, 96 - 1 + 4);
      ws_sim_launch_stats_clear (&st);
    }
}

/* A streaming read of 2048 distinct 32-byte sectors (16 warps on 2 SMs,
 * 32 coalesced 128-byte loads each).  The single DRAM channel moves 16
 * bytes per cycle, i.e. one sector per 2 cycles, so the bus alone needs
 * T = 4096 cycles.  Upper bound: T plus one unloaded DRAM round trip (300)
 * for the first response, plus one row activation (at most 80 cycles; 27
 * since the row miss is the array's 27 ns at 1 GHz) for each of the 32
 * rows of 2 KiB that the stream opens, if none of them overlapped with
 * transfers: 4096 + 300 + 32 x 80 = 6956.  The open-row
 * policy should overlap most activations; we require the bandwidth used
 * to be at least 85 % of the peak. */
static void
test_dram_bandwidth (void)
{
  SimTraceBuilder b;
  sim_trace_open (&b, tmpdir, "stream.wstrace");
  WsTraceStaticInst insts[8];
  sim_test_loads (insts, 8, WS_SPACE_GLOBAL);
  uint32_t k = sim_trace_kernel (&b, "stream", insts, 8);
  sim_trace_launch (&b, k, 2, 32 * 8);
  uint64_t base = 0x10000000;
  for (uint32_t tb = 0; tb < 2; tb++)
    {
      WsTraceCta *cta = ws_trace_cta_begin (b.w, tb, 8);
      for (uint32_t w = 0; w < 8; w++)
        for (uint32_t i = 0; i < 32; i++)
          {
            uint64_t idx = ((uint64_t) i * 16 + tb * 8 + w); /* interleaved: neighbouring warps, neighbouring lines */
            sim_rec_mem (cta, w, i % 8, WS_SPACE_GLOBAL, base + idx * 128, 4);
          }
      ws_trace_cta_end (cta);
    }
  sim_trace_end_launch (&b);
  g_autofree char *path = sim_trace_close (&b);
  g_autoptr (WsGpu) gpu = sim_test_gpu (2);
  WsSimLaunchStats st = run_one (gpu, path, WS_SIM_SCHED_GTO);
  g_test_message ("stream: %" G_GUINT64_FORMAT " cycles, %.2f GB/s, row hits %" G_GUINT64_FORMAT, st.cycles,
                  st.dram_bandwidth_gbs, st.dram_row_hits);
  g_assert_cmpuint (st.dram_reads, ==, 2048);
  g_assert_cmpuint (st.l1_hits, ==, 0);
  g_assert_cmpuint (st.cycles, >=, 4096);
  g_assert_cmpuint (st.cycles, <=, 6956);
  g_assert_cmpfloat (st.dram_bandwidth_gbs, >=, 0.85 * 16 * (double) 4096 / (double) (4096 + 300));
  g_assert_cmpfloat (st.dram_bandwidth_gbs, <=, 16.0);
  g_assert_cmpuint (st.stalls[WS_SIM_STALL_MEMORY], >, 0);
  ws_sim_launch_stats_clear (&st);
}

/* Row misses in one bank: one warp loads 16 lines (4 sectors each) of 16
 * different rows of the single channel's single bank.  At 1 GHz a row miss
 * costs 27 cycles (precharge + activate), each sector's burst 2, so the
 * bank takes its next row every 27 + 4 x 2 = 35 cycles: the last row's
 * miss starts at 15 x 35 = 525, its sectors come back 171 + 27 cycles
 * later (column access and row miss) plus the three row hits' bursts, and
 * then through the L2 (100 cycles, of which the request's way there lies
 * before the first start): 831 cycles.  One bank also checks dram_bank_of's
 * fold, which looped for ever on a record with one bank per channel. */
static void
test_dram_row_cycle (void)
{
  SimTraceBuilder b;
  sim_trace_open (&b, tmpdir, "row-cycle.wstrace");
  WsTraceStaticInst insts[16];
  sim_test_loads (insts, 16, WS_SPACE_GLOBAL);
  uint32_t k = sim_trace_kernel (&b, "rows", insts, 16);
  sim_trace_launch (&b, k, 1, 32);
  WsTraceCta *cta = ws_trace_cta_begin (b.w, 0, 1);
  for (uint32_t i = 0; i < 16; i++)
    sim_rec_mem (cta, 0, i, WS_SPACE_GLOBAL, 0x10000000 + (uint64_t) i * 2048, 4);
  ws_trace_cta_end (cta);
  sim_trace_end_launch (&b);
  g_autofree char *path = sim_trace_close (&b);
  g_autoptr (WsGpu) gpu = sim_test_gpu (1);
  gpu->dram_banks = 1;
  WsSimLaunchStats st = run_one (gpu, path, WS_SIM_SCHED_GTO);
  g_test_message ("16 rows in one bank: %" G_GUINT64_FORMAT " cycles, row hits %" G_GUINT64_FORMAT, st.cycles,
                  st.dram_row_hits);
  g_assert_cmpuint (st.dram_reads, ==, 64);
  g_assert_cmpuint (st.dram_row_hits, ==, 48);
  const double last_miss = 15 * 35;
  g_assert_cmpfloat ((double) st.cycles, >=, last_miss + 171 + 27 + 3 * 2);
  g_assert_cmpfloat ((double) st.cycles, <=, last_miss + 171 + 27 + 3 * 2 + 100 + 16 + 8);
  ws_sim_launch_stats_clear (&st);
}

/* A read stream whose 32-byte burst is shorter than a core cycle: one
 * channel of 48 bytes per cycle (48 GB/s at 1 GHz), burst 2/3 cycle.
 * 2 SMs, 2 TBs of 8 warps, 256 coalesced loads (4 sectors) per warp,
 * interleaved as in the stream above: 16 384 sectors, 512 KiB, i.e. 10 923 cycles of bus time.  Before, a
 * channel issued at most one command per whole cycle (32 bytes per cycle,
 * 67 % of the channel: 16 384 cycles); now it issues every command whose
 * slot falls in the cycle, so the bus is the limit: 12 602 cycles, 87 % of
 * the channel over the whole launch; the rest is the first round trip
 * (300 cycles) and the 256 row changes (98.4 % row hits) that FR-FCFS does
 * not fully hide.  Asserted: at least the bus time, and well below the
 * 16 384 cycles that one command per cycle needs. */
static void
test_dram_sub_cycle_burst (void)
{
  SimTraceBuilder b;
  sim_trace_open (&b, tmpdir, "fast-stream.wstrace");
  WsTraceStaticInst insts[8];
  sim_test_loads (insts, 8, WS_SPACE_GLOBAL);
  uint32_t k = sim_trace_kernel (&b, "stream", insts, 8);
  const uint32_t n_tbs = 2;
  sim_trace_launch (&b, k, n_tbs, 32 * 8);
  uint64_t base = 0x10000000;
  for (uint32_t tb = 0; tb < n_tbs; tb++)
    {
      WsTraceCta *cta = ws_trace_cta_begin (b.w, tb, 8);
      for (uint32_t w = 0; w < 8; w++)
        for (uint32_t i = 0; i < 256; i++)
          {
            uint64_t idx = (uint64_t) i * n_tbs * 8 + tb * 8 + w; /* neighbouring warps, neighbouring lines */
            sim_rec_mem (cta, w, i % 8, WS_SPACE_GLOBAL, base + idx * 128, 4);
          }
      ws_trace_cta_end (cta);
    }
  sim_trace_end_launch (&b);
  g_autofree char *path = sim_trace_close (&b);
  g_autoptr (WsGpu) gpu = sim_test_gpu (2);
  gpu->dram_bandwidth_gbs = 48;
  WsSimLaunchStats st = run_one (gpu, path, WS_SIM_SCHED_GTO);
  const double bus = 16384.0 * 32 / 48;
  g_test_message ("sub-cycle burst stream: %" G_GUINT64_FORMAT
                  " cycles (bus time %.0f), %.2f GB/s of 48, row hits %" G_GUINT64_FORMAT,
                  st.cycles, bus, st.dram_bandwidth_gbs, st.dram_row_hits);
  g_assert_cmpuint (st.dram_reads, ==, 16384);
  g_assert_cmpfloat ((double) st.cycles, >=, bus);
  g_assert_cmpfloat ((double) st.cycles, <, 0.8 * 16384);
  g_assert_cmpfloat (st.dram_bandwidth_gbs, >, 0.85 * 48);
  g_assert_cmpfloat (st.dram_bandwidth_gbs, <=, 48.0);
  ws_sim_launch_stats_clear (&st);
}

/* One warp, 64 independent shared loads (16 destination registers in turn,
 * so no write-after-write wait) of 4 bytes, lane l at l x @stride. */
static WsSimLaunchStats
run_shared (int cc_major, int stride)
{
  SimTraceBuilder b;
  g_autofree char *name = g_strdup_printf ("shared-cc%d-%d.wstrace", cc_major, stride);
  sim_trace_open (&b, tmpdir, name);
  WsTraceStaticInst insts[16];
  sim_test_loads (insts, 16, WS_SPACE_SHARED);
  uint32_t k = sim_trace_kernel (&b, "shared", insts, 16);
  sim_trace_launch (&b, k, 1, 32);
  WsTraceCta *cta = ws_trace_cta_begin (b.w, 0, 1);
  for (int i = 0; i < 64; i++)
    sim_rec_mem (cta, 0, (uint32_t) (i % 16), WS_SPACE_SHARED, 0, stride);
  ws_trace_cta_end (cta);
  sim_trace_end_launch (&b);
  g_autofree char *path = sim_trace_close (&b);
  g_autoptr (WsGpu) gpu = sim_test_gpu (1);
  gpu->cc_major = cc_major;
  WsSimLaunchStats st = run_one (gpu, path, WS_SIM_SCHED_GTO);
  g_assert_cmpuint (st.shared_accesses, ==, 64);
  return st;
}

/* Before Volta (cc 6 here) a bank conflict is replayed through the
 * scheduler's shared pipe.  Stride 4 bytes: every lane its own bank; the
 * pipe (interval 2) takes one access every 2 cycles, the last result
 * comes 20 cycles after its issue: 2 x 63 + 20.  Stride 8 bytes: lanes l
 * and l + 16 hit the same bank (2-way conflict), the pipe is held 4 cycles
 * per access and each result comes 2 cycles later: 4 x 63 + 20 + 2, and
 * the shared access time per instruction doubles. */
static void
test_shared_bank_conflict (void)
{
  uint64_t cycles[2];
  for (int conflict = 0; conflict < 2; conflict++)
    {
      WsSimLaunchStats st = run_shared (6, conflict ? 8 : 4);
      cycles[conflict] = st.cycles;
      g_assert_cmpuint (st.shared_conflict_cycles, ==, conflict ? 64 * 2 : 0);
      ws_sim_launch_stats_clear (&st);
    }
  g_assert_cmpuint (cycles[0], ==, 2 * 63 + 20);
  g_assert_cmpuint (cycles[1], ==, 4 * 63 + 20 + 2);
  /* Per-access pipe time: (last issue) / 63 = 2 vs 4. */
  g_assert_cmpuint ((cycles[1] - 22) / 63, ==, 2 * ((cycles[0] - 20) / 63));
}

/* From Volta on (cc 8 here) a conflict holds the SM's L1 data pipe, one
 * wavefront a cycle, and the scheduler's shared pipe only its interval (2).
 * Stride 4: 1 wavefront, 2 x 63 + 20 as before.  Stride 8: 2 wavefronts,
 * hidden by the interval of 2; the result comes 1 cycle later:
 * 2 x 63 + 20 + 1.  Stride 16: lanes l, l + 8, l + 16, l + 24 share a bank,
 * 4 wavefronts: one access every 4 cycles, 4 x 63 + 20 + 3. */
static void
test_shared_data_pipe (void)
{
  static const struct {
    int stride;
    uint64_t cycles, conflict;
  } cases[] = {
    { 4, 2 * 63 + 20, 0 },
    { 8, 2 * 63 + 20 + 1, 64 * 1 },
    { 16, 4 * 63 + 20 + 3, 64 * 3 },
  };
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      WsSimLaunchStats st = run_shared (8, cases[i].stride);
      g_assert_cmpuint (st.cycles, ==, cases[i].cycles);
      g_assert_cmpuint (st.shared_conflict_cycles, ==, cases[i].conflict);
      ws_sim_launch_stats_clear (&st);
    }
}

/* The L1 data pipe bounds global loads (gpu-strides, docs/bounds.md's l1
 * term): 32 warps (one 1024-thread TB) of 64 independent loads each, every
 * warp reading the same addresses, on a cc 9 GPU whose 4 schedulers could
 * issue 4 loads a cycle (global interval 1).  All but the first touch of
 * each sector hit in the L1, so the pipe alone sets the time: the 2048
 * loads need 2048 x w cycles, w = ws_bounds_access_wavefronts of one load,
 * plus at most one DRAM round trip (300), the hit latency (30) and the last
 * load's wavefronts.  Patterns: a double broadcast (every lane the same
 * 8 bytes, one bank pair, but 32 x 8 bytes to return at 128 a cycle:
 * w = 2, as measured on A100 and H200); float stride 15 (15 is odd, so the 32
 * lanes fall into 32 banks, but they touch 15 lines and the tag stage
 * resolves 4 a cycle: w = 4, H200 measures 4.6); float stride 4 (8 banks
 * of 4 words, w = 4);
 * float stride 0 (a broadcast, w = 1). */
static void
test_global_data_pipe (void)
{
  static const struct {
    const char *name;
    guint size, stride;
    double wavefronts;
  } cases[] = {
    { "double-broadcast", 8, 0, 2 },
    { "float-stride-15", 4, 15 * 4, 4 },
    { "float-stride-4", 4, 4 * 4, 4 },
    { "float-broadcast", 4, 0, 1 },
  };
  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      SimTraceBuilder b;
      g_autofree char *name = g_strdup_printf ("l1pipe-%s.wstrace", cases[c].name);
      sim_trace_open (&b, tmpdir, name);
      WsTraceStaticInst insts[16];
      sim_test_loads (insts, 16, WS_SPACE_GLOBAL);
      for (int i = 0; i < 16; i++)
        insts[i].access_size = (uint8_t) cases[c].size;
      uint32_t k = sim_trace_kernel (&b, "l1pipe", insts, 16);
      sim_trace_launch (&b, k, 1, 1024);
      WsTraceCta *cta = ws_trace_cta_begin (b.w, 0, 32);
      for (uint32_t w = 0; w < 32; w++)
        for (uint32_t i = 0; i < 64; i++)
          sim_rec_mem (cta, w, i % 16, WS_SPACE_GLOBAL, 0x4000000 + (i % 8) * 4096, cases[c].stride);
      ws_trace_cta_end (cta);
      sim_trace_end_launch (&b);
      g_autofree char *path = sim_trace_close (&b);

      /* The wavefronts by the bound's rule, for the record as written. */
      WsTraceRecord r;
      memset (&r, 0, sizeof r);
      r.kind = WS_TRACE_RECORD_MEM;
      r.space = WS_SPACE_GLOBAL;
      r.active_mask = 0xffffffffu;
      for (int l = 0; l < 32; l++)
        r.addrs[l] = 0x4000000 + (uint64_t) l * cases[c].stride;
      double wf = ws_bounds_access_wavefronts (&r, cases[c].size, 9);
      g_assert_cmpfloat (wf, ==, cases[c].wavefronts);

      g_autoptr (WsGpu) gpu = sim_test_gpu (1);
      gpu->cc_major = 9;
      gpu->warp_schedulers_per_sm = 4;
      gpu->max_threads_per_block = 1024;
      WsSimLaunchStats st = run_one (gpu, path, WS_SIM_SCHED_GTO);
      g_test_message ("%s: %" G_GUINT64_FORMAT " cycles, %.3f per warp load (%g wavefronts)", cases[c].name, st.cycles,
                      st.cycles / 2048.0, wf);
      g_assert_cmpuint (st.cycles, >=, (uint64_t) (2048 * wf));
      g_assert_cmpuint (st.cycles, <=, (uint64_t) (2048 * wf + 300 + 30 + wf));
      ws_sim_launch_stats_clear (&st);

      /* Before Volta there is no published rule: the 4 schedulers issue
       * up to 4 loads a cycle, as before the pipe was modelled. */
      gpu->cc_major = 6;
      st = run_one (gpu, path, WS_SIM_SCHED_GTO);
      g_assert_cmpuint (st.cycles, <, 2048 * wf);
      ws_sim_launch_stats_clear (&st);
    }
}

/* Two warps, each: 100 independent ALU, a constant load (30-cycle L1
 * latency here set to 100) into r20, a use of r20, 100 more ALU, a load into
 * r21, a use.  RR interleaves the warps, so both reach each load late and
 * wait for it together: the last use issues at 603, done at 607.  GTO runs
 * warp 0 ahead and hides its load behind warp 1's ALU work: the last use
 * issues at 505, done at 509 (worked out in docs/simulator.md). */
static void
test_rr_vs_gto (void)
{
  SimTraceBuilder b;
  sim_trace_open (&b, tmpdir, "sched.wstrace");
  WsTraceStaticInst insts[12];
  for (int i = 0; i < 8; i++)
    insts[i] = sim_test_inst (WS_OPCLASS_ALU, i, -1, -1);
  insts[8] = sim_test_inst (WS_OPCLASS_LD, 20, -1, -1);
  insts[8].space = WS_SPACE_CONST;
  insts[9] = sim_test_inst (WS_OPCLASS_ALU, 9, 20, -1);
  insts[10] = sim_test_inst (WS_OPCLASS_LD, 21, -1, -1);
  insts[10].space = WS_SPACE_CONST;
  insts[11] = sim_test_inst (WS_OPCLASS_ALU, 11, 21, -1);
  uint32_t k = sim_trace_kernel (&b, "sched", insts, 12);
  sim_trace_launch (&b, k, 1, 64);
  WsTraceCta *cta = ws_trace_cta_begin (b.w, 0, 2);
  for (uint32_t w = 0; w < 2; w++)
    for (int phase = 0; phase < 2; phase++)
      {
        for (int i = 0; i < 100; i++)
          sim_rec_inst (cta, w, (uint32_t) (i % 8));
        sim_rec_mem (cta, w, phase ? 10 : 8, WS_SPACE_CONST, 0x100, 0);
        sim_rec_inst (cta, w, phase ? 11 : 9);
      }
  ws_trace_cta_end (cta);
  sim_trace_end_launch (&b);
  g_autofree char *path = sim_trace_close (&b);
  g_autoptr (WsGpu) gpu = sim_test_gpu (1);
  gpu->l1_latency = 100;
  WsSimLaunchStats rr = run_one (gpu, path, WS_SIM_SCHED_RR);
  WsSimLaunchStats gto = run_one (gpu, path, WS_SIM_SCHED_GTO);
  g_assert_cmpuint (rr.cycles, ==, 607);
  g_assert_cmpuint (gto.cycles, ==, 509);
  g_assert_cmpuint (rr.warp_instructions, ==, gto.warp_instructions);
  ws_sim_launch_stats_clear (&rr);
  ws_sim_launch_stats_clear (&gto);
}

/* Six TBs of one warp, each a 10-instruction dependent chain (40 cycles).
 * With at most 2 resident TBs per SM, one SM runs them in 3 waves; the
 * second resident TB issues one cycle behind the first (one instruction
 * per cycle), so the last ends at 3 x 40 + 1.  Two SMs: 2 waves, the last
 * TB alone on its SM: 80 cycles. */
static void
test_dispatch_occupancy (void)
{
  SimTraceBuilder b;
  sim_trace_open (&b, tmpdir, "waves.wstrace");
  WsTraceStaticInst insts[1] = { sim_test_inst (WS_OPCLASS_ALU, 1, 1, -1) };
  uint32_t k = sim_trace_kernel (&b, "waves", insts, 1);
  sim_trace_launch (&b, k, 6, 32);
  for (uint32_t tb = 0; tb < 6; tb++)
    {
      WsTraceCta *cta = ws_trace_cta_begin (b.w, tb, 1);
      for (int i = 0; i < 10; i++)
        sim_rec_inst (cta, 0, 0);
      ws_trace_cta_end (cta);
    }
  sim_trace_end_launch (&b);
  g_autofree char *path = sim_trace_close (&b);
  for (int sms = 1; sms <= 2; sms++)
    {
      g_autoptr (WsGpu) gpu = sim_test_gpu (sms);
      gpu->max_blocks_per_sm = 2;
      WsSimLaunchStats st = run_one (gpu, path, WS_SIM_SCHED_GTO);
      g_assert_cmpint (st.blocks_per_sm, ==, 2);
      g_assert_cmpuint (st.cycles, ==, sms == 1 ? 121 : 80);
      g_assert_cmpuint (st.simulated_tbs, ==, 6);
      if (sms == 2)
        {
          /* Greedy by id: TBs 0, 2, 4 on SM 0 and 1, 3, 5 on SM 1. */
          g_assert_cmpuint (st.sm_instructions[0], ==, 30);
          g_assert_cmpuint (st.sm_instructions[1], ==, 30);
        }
      ws_sim_launch_stats_clear (&st);
    }
}

/* Thread-block start (block_launch_cycles): an SM starts one block at a
 * time.  Six one-warp blocks of a 10-long dependent chain (40 cycles each)
 * on one SM holding two: with 100 cycles per start, block i starts at
 * 100 i (the slots free long before), so the last one starts at 500 and
 * ends at 540; with 0, the old waves (121 cycles: the two warps of a wave
 * share the one scheduler, so the second issues a cycle later).  On two
 * SMs the blocks alternate, 3 per SM: the last starts at 200 and ends at
 * 240.  With 30 cycles a start waits for the SM's previous start + 30
 * and, replacing a block, for that block's end + 30 (the replacement
 * latency): 0, 30, then blocks 0..3 end at 40, 70, 110, 140, so
 * max (70, 60), max (100, 100), max (140, 130), max (170, 170) = 170, which
 * ends at 210. */
static void
test_block_launch_interval (void)
{
  SimTraceBuilder b;
  sim_trace_open (&b, tmpdir, "block-start.wstrace");
  WsTraceStaticInst insts[1] = { sim_test_inst (WS_OPCLASS_ALU, 1, 1, -1) };
  uint32_t k = sim_trace_kernel (&b, "starts", insts, 1);
  sim_trace_launch (&b, k, 6, 32);
  for (uint32_t tb = 0; tb < 6; tb++)
    {
      WsTraceCta *cta = ws_trace_cta_begin (b.w, tb, 1);
      for (int i = 0; i < 10; i++)
        sim_rec_inst (cta, 0, 0);
      ws_trace_cta_end (cta);
    }
  sim_trace_end_launch (&b);
  g_autofree char *path = sim_trace_close (&b);
  const struct {
    int sms;
    double launch;
    uint64_t cycles;
  } cases[] = {
    { 1, 0, 121 },
    { 1, 100, 540 },
    { 2, 100, 240 },
    { 1, 30, 210 },
  };
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (WsGpu) gpu = sim_test_gpu (cases[i].sms);
      gpu->max_blocks_per_sm = 2;
      gpu->block_launch_cycles = cases[i].launch;
      WsSimLaunchStats st = run_one (gpu, path, WS_SIM_SCHED_GTO);
      if (st.cycles != cases[i].cycles)
        g_error ("%d SMs, %g cycles per block start: %" G_GUINT64_FORMAT " cycles, want %" G_GUINT64_FORMAT,
                 cases[i].sms, cases[i].launch, st.cycles, cases[i].cycles);
      ws_sim_launch_stats_clear (&st);
    }
}

/* Warp 0: a 10-long dependent chain (issues at 0, 4, ..., 36), a barrier,
 * one instruction.  Warp 1: a barrier (issued at cycle 1), one instruction.
 * Warp 1 waits until warp 0 arrives: the barrier has no register operand,
 * so warp 0 issues it at 37; both continue at 38 and 39 and the last
 * instruction finishes at 39 + 4. */
static void
test_barrier (void)
{
  SimTraceBuilder b;
  sim_trace_open (&b, tmpdir, "barrier.wstrace");
  WsTraceStaticInst insts[3] = {
    sim_test_inst (WS_OPCLASS_ALU, 1, 1, -1),
    sim_test_inst (WS_OPCLASS_BARRIER, -1, -1, -1),
    sim_test_inst (WS_OPCLASS_ALU, 2, -1, -1),
  };
  insts[1].is_barrier = 1;
  uint32_t k = sim_trace_kernel (&b, "barrier", insts, 3);
  sim_trace_launch (&b, k, 1, 64);
  WsTraceCta *cta = ws_trace_cta_begin (b.w, 0, 2);
  for (int i = 0; i < 10; i++)
    sim_rec_inst (cta, 0, 0);
  ws_trace_cta_barrier_mask (cta, 0, 1, 0xffffffffu);
  sim_rec_inst (cta, 0, 2);
  ws_trace_cta_barrier_mask (cta, 1, 1, 0xffffffffu);
  sim_rec_inst (cta, 1, 2);
  ws_trace_cta_end (cta);
  sim_trace_end_launch (&b);
  g_autofree char *path = sim_trace_close (&b);
  g_autoptr (WsGpu) gpu = sim_test_gpu (1);
  WsSimLaunchStats st = run_one (gpu, path, WS_SIM_SCHED_RR);
  g_assert_cmpuint (st.cycles, ==, 43);
  g_assert_cmpuint (st.stalls[WS_SIM_STALL_BARRIER], ==, 0); /* warp 0 was never at the barrier while waiting */
  g_assert_cmpuint (st.warp_instructions, ==, 14);
  ws_sim_launch_stats_clear (&st);
}

/* The emulator records parameter reads as plain instructions: a ld.param
 * and a dependent add take 4 + 4 cycles (integer pipe), not a DRAM trip.
 * A global load recorded without addresses (no active lane) has no memory
 * latency either. */
static void
test_param_load (void)
{
  SimTraceBuilder b;
  sim_trace_open (&b, tmpdir, "param.wstrace");
  WsTraceStaticInst insts[4] = {
    sim_test_inst (WS_OPCLASS_LD, 1, -1, -1),
    sim_test_inst (WS_OPCLASS_ALU, 2, 1, -1),
    sim_test_inst (WS_OPCLASS_LD, 3, 2, -1),
    sim_test_inst (WS_OPCLASS_ALU, 4, 3, -1),
  };
  insts[0].space = WS_SPACE_PARAM;
  insts[2].space = WS_SPACE_GLOBAL;
  uint32_t k = sim_trace_kernel (&b, "param", insts, 4);
  sim_trace_launch (&b, k, 1, 32);
  WsTraceCta *cta = ws_trace_cta_begin (b.w, 0, 1);
  for (uint32_t i = 0; i < 4; i++)
    sim_rec_inst (cta, 0, i);
  ws_trace_cta_end (cta);
  sim_trace_end_launch (&b);
  g_autofree char *path = sim_trace_close (&b);
  g_autoptr (WsGpu) gpu = sim_test_gpu (1);
  WsSimLaunchStats st = run_one (gpu, path, WS_SIM_SCHED_GTO);
  g_assert_cmpuint (st.cycles, ==, 16);
  g_assert_cmpuint (st.dram_reads, ==, 0);
  ws_sim_launch_stats_clear (&st);
}

/* Two launches reading the same 64 lines: the second finds them in the L2
 * (kept across launches) but not in its L1 (invalidated at a launch).
 * Functional warming with the first launch has the same effect on the L2
 * as simulating it. */
static void
test_caches_across_launches (void)
{
  SimTraceBuilder b;
  sim_trace_open (&b, tmpdir, "twice.wstrace");
  WsTraceStaticInst insts[8];
  sim_test_loads (insts, 8, WS_SPACE_GLOBAL);
  uint32_t k = sim_trace_kernel (&b, "twice", insts, 8);
  for (int l = 0; l < 2; l++)
    {
      sim_trace_launch (&b, k, 1, 32);
      WsTraceCta *cta = ws_trace_cta_begin (b.w, 0, 1);
      for (uint32_t i = 0; i < 64; i++)
        sim_rec_mem (cta, 0, i % 8, WS_SPACE_GLOBAL, 0x4000000 + i * 128, 4);
      ws_trace_cta_end (cta);
      sim_trace_end_launch (&b);
    }
  g_autofree char *path = sim_trace_close (&b);
  g_autoptr (GError) error = NULL;
  g_autoptr (WsTrace) trace = ws_trace_open (path, &error);
  g_assert_no_error (error);
  g_autoptr (WsGpu) gpu = sim_test_gpu (1);
  g_autoptr (WsSim) sim = ws_sim_new (gpu, NULL, &error);
  g_assert_no_error (error);
  WsSimLaunchStats st[2];
  for (guint l = 0; l < 2; l++)
    {
      g_assert_true (ws_sim_run_launch (sim, trace, l, NULL, &st[l], &error));
      g_assert_no_error (error);
    }
  g_assert_cmpuint (st[0].l2_hits, ==, 0);
  g_assert_cmpuint (st[0].dram_reads, ==, 256);
  g_assert_cmpuint (st[1].l1_hits, ==, 0);
  g_assert_cmpuint (st[1].l2_hits, ==, 256);
  g_assert_cmpuint (st[1].dram_reads, ==, 0);
  g_assert_cmpuint (st[1].cycles, <, st[0].cycles);
  g_assert_cmpuint (ws_sim_get_elapsed_cycles (sim), ==, st[0].cycles + st[1].cycles);
  g_autoptr (WsSim) warmed = ws_sim_new (gpu, NULL, &error);
  g_assert_true (ws_sim_warm_launch (warmed, trace, 0, &error));
  g_assert_no_error (error);
  WsSimLaunchStats w;
  g_assert_true (ws_sim_run_launch (warmed, trace, 1, NULL, &w, &error));
  g_assert_cmpuint (w.l2_hits, ==, 256);
  g_assert_cmpuint (w.cycles, ==, st[1].cycles);
  for (int l = 0; l < 2; l++)
    ws_sim_launch_stats_clear (&st[l]);
  ws_sim_launch_stats_clear (&w);
}

/* A warp loads 128 bytes, stores them back twice, then loads another line.
 * The L2 is write-back: the first store hits the sectors the load brought
 * in and dirties them, the second finds them dirty; nothing is evicted
 * from the 1 MiB L2, so DRAM sees the 8 sector reads and no write (the
 * dirty line is written back when a later access evicts it; this test
 * asserted 4 writes when each first dirtying was charged at once). */
static void
test_store_hit_writes_dram (void)
{
  SimTraceBuilder b;
  sim_trace_open (&b, tmpdir, "rmw.wstrace");
  WsTraceStaticInst insts[4] = {
    sim_test_inst (WS_OPCLASS_LD, 1, -1, -1),
    sim_test_inst (WS_OPCLASS_ST, -1, 1, -1),
    sim_test_inst (WS_OPCLASS_LD, 2, -1, -1),
    sim_test_inst (WS_OPCLASS_ALU, 3, 2, -1),
  };
  insts[0].space = insts[1].space = insts[2].space = WS_SPACE_GLOBAL;
  uint32_t k = sim_trace_kernel (&b, "rmw", insts, 4);
  sim_trace_launch (&b, k, 1, 32);
  WsTraceCta *cta = ws_trace_cta_begin (b.w, 0, 1);
  sim_rec_mem (cta, 0, 0, WS_SPACE_GLOBAL, 0x4000000, 4);
  sim_rec_mem (cta, 0, 1, WS_SPACE_GLOBAL, 0x4000000, 4);
  sim_rec_mem (cta, 0, 1, WS_SPACE_GLOBAL, 0x4000000, 4);
  sim_rec_mem (cta, 0, 2, WS_SPACE_GLOBAL, 0x4100000, 4);
  sim_rec_inst (cta, 0, 3);
  ws_trace_cta_end (cta);
  sim_trace_end_launch (&b);
  g_autofree char *path = sim_trace_close (&b);
  g_autoptr (GError) error = NULL;
  g_autoptr (WsTrace) trace = ws_trace_open (path, &error);
  g_assert_no_error (error);
  g_autoptr (WsGpu) gpu = sim_test_gpu (1);
  g_autoptr (WsSim) sim = ws_sim_new (gpu, NULL, &error);
  g_assert_no_error (error);
  WsSimLaunchStats st;
  g_assert_true (ws_sim_run_launch (sim, trace, 0, NULL, &st, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (st.dram_reads, ==, 8);
  g_assert_cmpuint (st.l2_hits, ==, 8);
  g_assert_cmpuint (st.dram_writes, ==, 0);
  ws_sim_launch_stats_clear (&st);
  g_remove (path);
}

/* A store-only stream of 2 MiB (65536 sectors) through the 1 MiB L2 of the
 * test GPU: 64 TBs x 4 warps, 64 coalesced 128-byte stores per warp.  The
 * first 1 MiB fills the L2 with dirty lines; from then on every new line
 * evicts a dirty one, whose 4 sectors must be written to DRAM before the
 * L2 can accept the store.  The launch ends when every store is accepted,
 * so the 32768 write-backs (1 MiB) bound it from below: at 16 bytes per
 * cycle, 1 MiB / 16 = 65536 cycles.  The warps alone issue in 16384
 * cycles; ending the launch then (as the simulator did, dropping what was
 * in flight) gave 16 GB/s x 8 of stored bytes per second. */
static void
test_store_stream_dram_bound (void)
{
  SimTraceBuilder b;
  sim_trace_open (&b, tmpdir, "stores.wstrace");
  WsTraceStaticInst insts[1] = { sim_test_inst (WS_OPCLASS_ST, -1, -1, -1) };
  insts[0].space = WS_SPACE_GLOBAL;
  uint32_t k = sim_trace_kernel (&b, "init", insts, 1);
  sim_trace_launch (&b, k, 64, 32 * 4);
  uint64_t base = 0x20000000;
  for (uint32_t tb = 0; tb < 64; tb++)
    {
      WsTraceCta *cta = ws_trace_cta_begin (b.w, tb, 4);
      for (uint32_t w = 0; w < 4; w++)
        for (uint32_t i = 0; i < 64; i++)
          {
            uint64_t line = ((uint64_t) tb * 4 + w) * 64 + i;
            sim_rec_mem (cta, w, 0, WS_SPACE_GLOBAL, base + line * 128, 4);
          }
      ws_trace_cta_end (cta);
    }
  sim_trace_end_launch (&b);
  g_autofree char *path = sim_trace_close (&b);
  g_autoptr (WsGpu) gpu = sim_test_gpu (1);
  WsSimLaunchStats st = run_one (gpu, path, WS_SIM_SCHED_GTO);
  double stored = 65536.0 * 32, written = (double) st.dram_writes * 32;
  g_test_message ("store stream: %" G_GUINT64_FORMAT " cycles, %.2f GB/s at DRAM, %.2f GB/s stored", st.cycles,
                  st.dram_bandwidth_gbs, stored / (double) st.cycles);
  g_assert_cmpuint (st.dram_reads, ==, 0);
  g_assert_cmpuint (st.dram_writes, ==, 32768);
  g_assert_cmpuint (st.cycles, >=, 65536);
  /* Not much more: the write-backs stream at nearly the bus rate. */
  g_assert_cmpuint (st.cycles, <=, 65536 + 16384 + 2000);
  g_assert_cmpfloat (written / (double) st.cycles, <=, 16.0);
  g_assert_cmpfloat (st.dram_bandwidth_gbs, <=, 16.0);
  ws_sim_launch_stats_clear (&st);
  g_remove (path);
}

/* Eight one-warp blocks, each storing one 128-byte line (4 sectors) to an
 * empty L2, two blocks per SM.  A warp retires once the L2 has accepted its
 * stores (an L2 round trip, the test GPU's 100 cycles), so the blocks run
 * in 4 rounds of one round trip each: at least 400 cycles.  Retiring at
 * issue (stores posted and forgotten) let the slots turn over every few
 * cycles and the launch ended one round trip after the last issue (about
 * 110 cycles): gpu-stream's init with 32-thread blocks then streamed at
 * DRAM peak from 2 warps per SM. */
static void
test_block_retires_after_stores (void)
{
  SimTraceBuilder b;
  sim_trace_open (&b, tmpdir, "store-blocks.wstrace");
  WsTraceStaticInst insts[1] = { sim_test_inst (WS_OPCLASS_ST, -1, -1, -1) };
  insts[0].space = WS_SPACE_GLOBAL;
  uint32_t k = sim_trace_kernel (&b, "init", insts, 1);
  sim_trace_launch (&b, k, 8, 32);
  for (uint32_t tb = 0; tb < 8; tb++)
    {
      WsTraceCta *cta = ws_trace_cta_begin (b.w, tb, 1);
      sim_rec_mem (cta, 0, 0, WS_SPACE_GLOBAL, 0x30000000 + (uint64_t) tb * 128, 4);
      ws_trace_cta_end (cta);
    }
  sim_trace_end_launch (&b);
  g_autofree char *path = sim_trace_close (&b);
  g_autoptr (WsGpu) gpu = sim_test_gpu (1);
  gpu->max_blocks_per_sm = 2;
  WsSimLaunchStats st = run_one (gpu, path, WS_SIM_SCHED_GTO);
  g_test_message ("8 store blocks, 2 per SM: %" G_GUINT64_FORMAT " cycles", st.cycles);
  g_assert_cmpint (st.blocks_per_sm, ==, 2);
  g_assert_cmpuint (st.dram_writes, ==, 0);
  g_assert_cmpuint (st.cycles, >=, 4 * 100);
  /* Each round: the issue, the 4 sectors through one slice, the round trip. */
  g_assert_cmpuint (st.cycles, <=, 4 * (100 + 4 + 4));
  ws_sim_launch_stats_clear (&st);
  g_remove (path);
}

typedef enum { CHASE_L1, CHASE_L2, CHASE_DRAM } ChaseLevel;

/* Address of the @i-th load of a pointer chase whose data lies in @level
 * of @gpu.  L1: 16 lines, reused.  L2: a cycle over twice as many lines as
 * the L1 holds (every set sees twice its ways in LRU order, so every access
 * misses the L1) and far fewer than the L2 holds.  DRAM: every load a new
 * line, each in the same channel and bank as the last but in the next row,
 * so each one misses both caches and opens a DRAM row, as a random chase
 * over a large footprint does. */
static uint64_t
chase_addr (const WsGpu *gpu, ChaseLevel level, guint i)
{
  const uint64_t base = 0x40000000;
  switch (level)
    {
    case CHASE_L1: return base + (uint64_t) (i % 16) * 128;
    case CHASE_L2: return base + (uint64_t) (i % (2 * (guint) gpu->l1_size / 128)) * 128;
    case CHASE_DRAM:
    default:
      /* The simulator's mapping (dram_enqueue): 128-byte lines interleave
       * over the channels, 16 lines of a channel form a 2 KiB row, rows
       * interleave over the banks. */
      return base + (uint64_t) i * 128 * (uint64_t) gpu->dram_channels * 16 * (uint64_t) gpu->dram_banks;
    }
}

/* Cycles of one warp chasing @n_loads dependent 8-byte loads (all 32 lanes
 * at the address the previous load returned, as gpu-latency's chase does). */
static uint64_t
chase_cycles (const WsGpu *gpu, ChaseLevel level, guint n_loads)
{
  SimTraceBuilder b;
  g_autofree char *name = g_strdup_printf ("chase-%d-%u.wstrace", (int) level, n_loads);
  sim_trace_open (&b, tmpdir, name);
  WsTraceStaticInst insts[1] = { sim_test_inst (WS_OPCLASS_LD, 1, 1, -1) };
  insts[0].space = WS_SPACE_GLOBAL;
  insts[0].access_size = 8;
  uint32_t k = sim_trace_kernel (&b, "chase", insts, 1);
  sim_trace_launch (&b, k, 1, 32);
  WsTraceCta *cta = ws_trace_cta_begin (b.w, 0, 1);
  for (guint i = 0; i < n_loads; i++)
    sim_rec_mem (cta, 0, 0, WS_SPACE_GLOBAL, chase_addr (gpu, level, i), 0);
  ws_trace_cta_end (cta);
  sim_trace_end_launch (&b);
  g_autofree char *path = sim_trace_close (&b);
  WsSimLaunchStats st = run_one (gpu, path, WS_SIM_SCHED_GTO);
  uint64_t cycles = st.cycles;
  ws_sim_launch_stats_clear (&st);
  g_remove (path);
  return cycles;
}

/* The catalogue's l1_latency, l2_latency and dram_latency are the unloaded
 * load-to-use time of a dependent load served by that level (ws-hw.h):
 * one warp chasing pointers through an L1-, an L2- and a DRAM-resident
 * footprint must take that long per load.  Steady state: two chases of
 * w + n and w + 2n loads, the difference over n (the first pass's cold
 * misses, the launch and its end cancel).  The 8-byte broadcast holds the
 * L1 data pipe for 2 wavefronts (one cycle more than the catalogue's
 * one-wavefront figure) and latencies round up to whole cycles, hence the
 * 2-cycle tolerance.  The old composition added the interconnect and the
 * DRAM row miss on top of the catalogue figures (A100: DRAM +82). */
static void
test_pointer_chase_latency (void)
{
  static const char *files[] = { "a100.json", "h100-pcie.json", "tesla-v100-pcie.json" };
  for (guint f = 0; f < G_N_ELEMENTS (files); f++)
    {
      g_autoptr (WsGpu) gpu = catalogue_gpu (files[f]);
      struct {
        ChaseLevel level;
        double want;
        guint warm, n;
      } cases[] = {
        { CHASE_L1, gpu->l1_latency, 16, 256 },
        { CHASE_L2, gpu->l2_latency, 2 * (guint) gpu->l1_size / 128, 2 * (guint) gpu->l1_size / 128 },
        { CHASE_DRAM, gpu->dram_latency, 0, 64 },
      };
      for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
        {
          uint64_t t1 = chase_cycles (gpu, cases[c].level, cases[c].warm + cases[c].n);
          uint64_t t2 = chase_cycles (gpu, cases[c].level, cases[c].warm + 2 * cases[c].n);
          double per_load = (double) (t2 - t1) / cases[c].n;
          g_test_message ("%s, level %d: %.2f cycles per load, catalogue %.1f", gpu->name, (int) cases[c].level,
                          per_load, cases[c].want);
          g_assert_cmpfloat (per_load, >=, cases[c].want - 0.01);
          g_assert_cmpfloat (per_load, <=, cases[c].want + 2.0);
        }
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  tmpdir = g_dir_make_tmp ("ws-sim-XXXXXX", NULL);
  g_test_add_func ("/sim/timing/dependent-chain", test_dependent_chain);
  g_test_add_func ("/sim/timing/independent-issue-limited", test_independent_issue_limited);
  g_test_add_func ("/sim/memory/dram-bandwidth-bound", test_dram_bandwidth);
  g_test_add_func ("/sim/memory/dram-row-cycle", test_dram_row_cycle);
  g_test_add_func ("/sim/memory/dram-sub-cycle-burst-reaches-bus-bandwidth", test_dram_sub_cycle_burst);
  g_test_add_func ("/sim/memory/store-stream-waits-for-write-backs", test_store_stream_dram_bound);
  g_test_add_func ("/sim/shared/bank-conflict-doubles-time", test_shared_bank_conflict);
  g_test_add_func ("/sim/shared/bank-conflict-holds-data-pipe", test_shared_data_pipe);
  g_test_add_func ("/sim/l1/data-pipe-bounds-global-loads", test_global_data_pipe);
  g_test_add_func ("/sim/scheduler/rr-vs-gto", test_rr_vs_gto);
  g_test_add_func ("/sim/dispatch/occupancy-waves", test_dispatch_occupancy);
  g_test_add_func ("/sim/dispatch/one-block-start-at-a-time", test_block_launch_interval);
  g_test_add_func ("/sim/dispatch/block-retires-after-its-stores", test_block_retires_after_stores);
  g_test_add_func ("/sim/barrier/waits-for-all-warps", test_barrier);
  g_test_add_func ("/sim/timing/param-load-is-alu", test_param_load);
  g_test_add_func ("/sim/memory/caches-across-launches", test_caches_across_launches);
  g_test_add_func ("/sim/memory/store-hit-writes-dram", test_store_hit_writes_dram);
  g_test_add_func ("/sim/memory/pointer-chase-takes-catalogue-latency", test_pointer_chase_latency);
  int rc = g_test_run ();
  g_autoptr (GDir) d = g_dir_open (tmpdir, 0, NULL);
  const char *n;
  while (d && (n = g_dir_read_name (d)))
    {
      g_autofree char *p = g_build_filename (tmpdir, n, NULL);
      g_unlink (p);
    }
  g_rmdir (tmpdir);
  g_free (tmpdir);
  return rc;
}
