/* TBPoint: clustering, homogeneous regions, region sampling, Markov chain. */
#include "tbpoint/ws-tbpoint.h"
#include "../sim/sim-test-util.h"

#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

static char *tmpdir;

/* Complete linkage: a cluster's diameter never exceeds the threshold. */
static void
test_cluster_known (void)
{
  const double pts[] = { 0, 0, 0.05, 0, 0, 0.05, 1, 1, 1.05, 1, 5, 5 };
  int c[6];
  guint k = ws_tbpoint_cluster (pts, 6, 2, 0.1, c);
  g_assert_cmpuint (k, ==, 3);
  const int expect[] = { 0, 0, 0, 1, 1, 2 };
  for (int i = 0; i < 6; i++)
    g_assert_cmpint (c[i], ==, expect[i]);
  /* A chain 0, 0.08, 0.16: single linkage would join all three; the
   * diameter rule keeps 0.16 apart. */
  const double chain[] = { 0, 0.08, 0.16 };
  int cc[3];
  g_assert_cmpuint (ws_tbpoint_cluster (chain, 3, 1, 0.1, cc), ==, 2);
  g_assert_cmpint (cc[0], ==, cc[1]);
  g_assert_cmpint (cc[2], !=, cc[1]);
  /* A large threshold: one cluster; zero: every distinct point alone. */
  g_assert_cmpuint (ws_tbpoint_cluster (pts, 6, 2, 100, c), ==, 1);
  g_assert_cmpuint (ws_tbpoint_cluster (pts, 6, 2, 0, c), ==, 6);
}

/* Static instructions used by the synthetic kernels: 8 independent ALU
 * (ids 0-7) and 8 global loads (ids 8-15). */
static uint32_t
add_kernel (SimTraceBuilder *b, const char *name)
{
  WsTraceStaticInst insts[16];
  for (int i = 0; i < 8; i++)
    insts[i] = sim_test_inst (WS_OPCLASS_ALU, i, -1, -1);
  for (int i = 8; i < 16; i++)
    {
      insts[i] = sim_test_inst (WS_OPCLASS_LD, i, -1, -1);
      insts[i].space = WS_SPACE_GLOBAL;
    }
  return sim_trace_kernel (b, name, insts, 16);
}

/* One TB of @warps warps, each @alu ALU instructions and @loads coalesced
 * loads (4 sectors each) of fresh addresses. */
static void
write_tb (SimTraceBuilder *b, uint64_t tb, guint warps, guint alu, guint loads, uint64_t *next_addr)
{
  WsTraceCta *cta = ws_trace_cta_begin (b->w, tb, warps);
  for (guint w = 0; w < warps; w++)
    {
      guint total = alu + loads;
      for (guint i = 0; i < total; i++)
        {
          /* spread the loads evenly over the stream */
          if (loads > 0 && (i * loads) / total != ((i + 1) * loads) / total)
            {
              sim_rec_mem (cta, w, 8 + i % 8, WS_SPACE_GLOBAL, *next_addr, 4);
              *next_addr += 128;
            }
          else
            sim_rec_inst (cta, w, i % 8);
        }
    }
  ws_trace_cta_end (cta);
}

/* A trace of one launch of @n_tbs TBs of 4 warps: TBs below @split have
 * @alu0 ALU instructions and @loads0 loads per warp, the others @alu1 and
 * @loads1 (@split = @n_tbs: one phase). */
static WsTrace *
one_launch_trace (const char *file, const char *kernel, guint n_tbs, guint split, guint alu0, guint loads0, guint alu1,
                  guint loads1)
{
  SimTraceBuilder b;
  uint64_t addr = 0x1000000;
  g_autoptr (GError) error = NULL;
  g_autofree char *path = NULL;
  WsTrace *trace;

  sim_trace_open (&b, tmpdir, file);
  sim_trace_launch (&b, add_kernel (&b, kernel), n_tbs, 128);
  for (guint t = 0; t < n_tbs; t++)
    write_tb (&b, t, 4, t < split ? alu0 : alu1, t < split ? loads0 : loads1, &addr);
  sim_trace_end_launch (&b);
  path = sim_trace_close (&b);
  trace = ws_trace_open (path, &error);
  g_assert_no_error (error);
  return trace;
}

/* A trace of one kernel's launches of @sizes[l] TBs (@n launches; TBs of
 * write_tb (2 warps, 20 ALU instructions, 4 loads)), opened; with
 * @same_buffer every launch reads the same addresses, else fresh ones. */
static WsTrace *
open_launches_trace (const char *file, const char *kernel, const guint *sizes, guint n, gboolean same_buffer)
{
  SimTraceBuilder b;
  sim_trace_open (&b, tmpdir, file);
  uint32_t k = add_kernel (&b, kernel);
  uint64_t addr = 0x1000000;
  for (guint l = 0; l < n; l++)
    {
      if (same_buffer)
        addr = 0x1000000;
      sim_trace_launch (&b, k, sizes[l], 64);
      for (guint t = 0; t < sizes[l]; t++)
        write_tb (&b, t, 2, 20, 4, &addr);
      sim_trace_end_launch (&b);
    }
  g_autofree char *path = sim_trace_close (&b);
  g_autoptr (GError) error = NULL;
  WsTrace *trace = ws_trace_open (path, &error);
  g_assert_no_error (error);
  return trace;
}

/* Four launches: three of the same size and one twice as large: two
 * clusters; the large launch is its own representative. */
static void
test_inter_launch (void)
{
  static const guint sizes[] = { 8, 8, 16, 8 };
  g_autoptr (WsTrace) trace = open_launches_trace ("inter.wstrace", "inter", sizes, G_N_ELEMENTS (sizes), FALSE);
  g_autoptr (GError) error = NULL;
  g_autoptr (WsTbpointInter) inter = ws_tbpoint_inter_launch (trace, 0.1);
  g_assert_cmpuint (inter->n_clusters, ==, 2);
  g_assert_cmpint (inter->cluster[0], ==, inter->cluster[1]);
  g_assert_cmpint (inter->cluster[0], ==, inter->cluster[3]);
  g_assert_cmpint (inter->cluster[2], !=, inter->cluster[0]);
  g_assert_cmpuint (inter->representative[inter->cluster[2]], ==, 2);
  /* Identical launches 0, 1, 3: the middle one stands for them, not the
   * cold first one. */
  g_assert_cmpuint (inter->representative[inter->cluster[0]], ==, 1);
  /* Table IV weights: 24 of 40 TBs' worth of instructions, and 16 of 40. */
  g_assert_cmpfloat_with_epsilon (inter->weight[inter->cluster[0]], 24.0 / 40, 1e-12);
  g_assert_cmpfloat_with_epsilon (inter->weight[inter->cluster[2]], 16.0 / 40, 1e-12);
  /* Eq. 2 feature: the large launch has twice the average's... 16 / 10. */
  g_assert_cmpfloat_with_epsilon (inter->features[2].warp_instructions, 1.6, 1e-12);

  /* TBPoint over the whole trace: two launches simulated, the others
   * charged their representative's CPI. */
  g_autoptr (WsGpu) gpu = sim_test_gpu (1);
  WsTbpointOptions o;
  ws_tbpoint_options_init (&o);
  o.sampling = WS_SAMPLING_TBPOINT;
  g_autoptr (WsTbpointResult) r = ws_tbpoint_simulate (trace, gpu, &o, &error);
  g_assert_no_error (error);
  guint simulated = 0;
  for (guint i = 0; i < 4; i++)
    simulated += r->launches[i].simulated;
  g_assert_cmpuint (simulated, ==, 2);
  g_assert_cmpuint (r->n_clusters, ==, 2);
  g_assert_cmpuint (r->warp_instructions, ==, 40 * 2 * 24);
  g_assert_cmpfloat (r->sample_fraction, <, 0.75);
}

/* Four equal launches over one 8 KiB buffer: eq. 2 cannot tell them apart,
 * but the first finds the L2 cold and the others find the buffer in it
 * (the test GPU's 1 MiB L2).  With the cache state as a coordinate the
 * first is its own cluster and the warm ones are represented by the middle
 * one; with an L2 too small to keep the buffer every launch starts cold
 * and they are one cluster again. */
static void
test_inter_launch_cold_start (void)
{
  static const guint sizes[] = { 8, 8, 8, 8 };
  g_autoptr (WsTrace) trace = open_launches_trace ("inter-cold.wstrace", "cold", sizes, G_N_ELEMENTS (sizes), TRUE);
  g_autoptr (GError) error = NULL;
  g_autoptr (WsTbpointInter) counts = ws_tbpoint_inter_launch (trace, 0.1);
  g_assert_cmpuint (counts->n_clusters, ==, 1);
  g_assert_null (counts->l2_hit_rate);

  g_autoptr (WsGpu) gpu = sim_test_gpu (1);
  g_autoptr (WsTbpointInter) inter = ws_tbpoint_inter_launch_on_gpu (trace, gpu, 0.1, &error);
  g_assert_no_error (error);
  g_assert_cmpfloat (inter->l2_hit_rate[0], ==, 0);
  for (guint i = 1; i < 4; i++)
    g_assert_cmpfloat (inter->l2_hit_rate[i], ==, 1);
  g_assert_cmpuint (inter->n_clusters, ==, 2);
  g_assert_cmpint (inter->cluster[1], ==, inter->cluster[2]);
  g_assert_cmpint (inter->cluster[1], ==, inter->cluster[3]);
  g_assert_cmpint (inter->cluster[0], !=, inter->cluster[1]);
  g_assert_cmpuint (inter->representative[inter->cluster[0]], ==, 0);
  g_assert_cmpuint (inter->representative[inter->cluster[1]], ==, 2);
  g_assert_cmpfloat_with_epsilon (inter->weight[inter->cluster[1]], 0.75, 1e-12);

  /* 4 KiB of L2 (32 lines) for the 64-line buffer: LRU evicts every line
   * before its next use. */
  gpu->l2_size = 4096;
  g_autoptr (WsTbpointInter) small = ws_tbpoint_inter_launch_on_gpu (trace, gpu, 0.1, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < 4; i++)
    g_assert_cmpfloat (small->l2_hit_rate[i], ==, 0);
  g_assert_cmpuint (small->n_clusters, ==, 1);
}

/* Two large launches (400 TBs) and two small ones (8 TBs and 1 TB): eq. 2
 * normalises by the average launch, so the small ones are within 0.1 of
 * each other and share a cluster.  The representative is the one nearest
 * the instruction-weighted centre (Table IV charges its CPI to every
 * instruction of the cluster): the 8-TB launch, which holds 8/9 of them,
 * not the 1-TB launch whose CPI is set by one TB's latency. */
static void
test_inter_launch_weighted_centre (void)
{
  static const guint sizes[] = { 400, 400, 8, 1 };
  g_autoptr (WsTrace) trace = open_launches_trace ("inter-small.wstrace", "small", sizes, G_N_ELEMENTS (sizes), FALSE);
  g_autoptr (WsTbpointInter) inter = ws_tbpoint_inter_launch (trace, 0.1);
  g_assert_cmpuint (inter->n_clusters, ==, 2);
  g_assert_cmpint (inter->cluster[2], ==, inter->cluster[3]);
  g_assert_cmpint (inter->cluster[2], !=, inter->cluster[0]);
  g_assert_cmpuint (inter->representative[inter->cluster[2]], ==, 2);
  g_assert_cmpfloat_with_epsilon (inter->weight[inter->cluster[2]], 9.0 / 809, 1e-12);
  /* The two equal large launches: the middle-in-order rule still applies
   * (the later of two, seen = ties / 2 = 1). */
  g_assert_cmpuint (inter->representative[inter->cluster[0]], ==, 1);
}

/* A launch in two phases on a GPU with 8 resident TBs (epochs of 8 TBs):
 * TBs 0-31 compute only (stall probability 0), TBs 32-63 load every other
 * instruction (4 sectors per load: eq. 5 gives 2).  TB 44 is three times
 * as long as its neighbours, so epoch 5 (TBs 40-47) has a variation factor
 * above 0.3 and is left out of every region. */
static void
test_regions_two_phases (void)
{
  SimTraceBuilder b;
  sim_trace_open (&b, tmpdir, "phases.wstrace");
  uint32_t k = add_kernel (&b, "phases");
  sim_trace_launch (&b, k, 64, 64);
  uint64_t addr = 0x1000000;
  for (guint t = 0; t < 64; t++)
    {
      if (t < 32)
        write_tb (&b, t, 2, 40, 0, &addr);
      else if (t == 44)
        write_tb (&b, t, 2, 60, 60, &addr);
      else
        write_tb (&b, t, 2, 20, 20, &addr);
    }
  sim_trace_end_launch (&b);
  g_autofree char *path = sim_trace_close (&b);
  g_autoptr (GError) error = NULL;
  g_autoptr (WsTrace) trace = ws_trace_open (path, &error);
  g_assert_no_error (error);
  g_autoptr (WsGpu) gpu = sim_test_gpu (1);
  g_autoptr (WsTbpointRegions) r = ws_tbpoint_regions (trace, 0, gpu, 0.2, 0.3, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (r->epoch_size, ==, 8);
  g_assert_cmpuint (r->n_epochs, ==, 8);
  g_assert_cmpint (r->epoch_cluster[5], ==, -1);
  g_assert_cmpuint (r->n_regions, ==, 3);
  g_assert_cmpuint (r->regions[0].first_tb, ==, 0);
  g_assert_cmpuint (r->regions[0].last_tb, ==, 31);
  g_assert_cmpuint (r->regions[1].first_tb, ==, 32);
  g_assert_cmpuint (r->regions[1].last_tb, ==, 39);
  g_assert_cmpuint (r->regions[2].first_tb, ==, 48);
  g_assert_cmpuint (r->regions[2].last_tb, ==, 63);
  g_assert_cmpint (r->regions[1].cluster, ==, r->regions[2].cluster);
  g_assert_cmpint (r->regions[0].cluster, !=, r->regions[1].cluster);
  g_assert_cmpint (r->tb_region[44], ==, -1);
  g_assert_cmpint (r->tb_region[50], ==, 2);
  g_assert_cmpfloat_with_epsilon (r->regions[0].stall_probability, 0.0, 1e-12);
  g_assert_cmpfloat_with_epsilon (r->regions[2].stall_probability, 2.0, 1e-12);
  /* Per GPU configuration: with 2 SMs the epochs are 16 TBs long. */
  g_autoptr (WsGpu) gpu2 = sim_test_gpu (2);
  g_autoptr (WsTbpointRegions) r2 = ws_tbpoint_regions (trace, 0, gpu2, 0.2, 0.3, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (r2->epoch_size, ==, 16);
  g_assert_cmpuint (r2->n_epochs, ==, 4);
}

/* A homogeneous launch of 600 identical TBs: TBPoint enters the region,
 * warms up, fast-forwards; its IPC must be within 1 % of the full
 * simulation with a fraction of the instructions simulated. */
static void
test_sampling_homogeneous (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WsTrace) trace = one_launch_trace ("homog.wstrace", "homog", 600, 600, 40, 8, 40, 8);
  g_autoptr (WsGpu) gpu = sim_test_gpu (2);
  gpu->dram_channels = 4;
  gpu->dram_bandwidth_gbs = 64;
  WsTbpointOptions o;
  ws_tbpoint_options_init (&o);
  g_autoptr (WsTbpointResult) full = ws_tbpoint_simulate (trace, gpu, &o, &error);
  g_assert_no_error (error);
  o.sampling = WS_SAMPLING_TBPOINT;
  g_autoptr (WsTbpointResult) tbp = ws_tbpoint_simulate (trace, gpu, &o, &error);
  g_assert_no_error (error);
  double err = fabs (tbp->ipc - full->ipc) / full->ipc;
  g_test_message (
    "full IPC %.4f, TBPoint IPC %.4f (error %.3f %%), sample %.1f %%, regions %u, skipped TBs %" G_GUINT64_FORMAT,
    full->ipc, tbp->ipc, 100 * err, 100 * tbp->sample_fraction, tbp->launches[0].n_regions,
    tbp->launches[0].stats.skipped_tbs);
  g_assert_cmpfloat (full->sample_fraction, ==, 1.0);
  g_assert_cmpuint (full->simulated_warp_instructions, ==, full->warp_instructions);
  g_assert_cmpuint (tbp->launches[0].n_regions, ==, 1);
  g_assert_cmpuint (tbp->launches[0].stats.regions_fast_forwarded, ==, 1);
  g_assert_cmpfloat (err, <, 0.01);
  g_assert_cmpfloat (tbp->sample_fraction, <, 0.5);
  g_assert_cmpuint (tbp->warp_instructions, ==, full->warp_instructions);

  /* Random sampling: 10 % of 100 units. */
  o.sampling = WS_SAMPLING_RANDOM;
  g_autoptr (WsTbpointResult) rnd = ws_tbpoint_simulate (trace, gpu, &o, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (rnd->random_units, >=, 99);
  g_assert_cmpuint (rnd->random_selected, ==, (guint) llround (0.1 * rnd->random_units));
  g_assert_cmpfloat_with_epsilon (rnd->sample_fraction, 0.1, 0.01);
  g_assert_cmpfloat (fabs (rnd->ipc - full->ipc) / full->ipc, <, 0.2);
}

/* Functional warming of skipped TBs: launch 0 is homogeneous (600 TBs,
 * region sampling skips most of them), launch 1 reads exactly the lines of
 * launch 0's last TB.  With warm_skipped the skipped TB's accesses went
 * through the L2 tags, so launch 1 hits on every sector; without it the
 * L2 never saw them and every sector misses. */
static void
test_sampling_warms_skipped (void)
{
  SimTraceBuilder b;
  sim_trace_open (&b, tmpdir, "warm-skipped.wstrace");
  uint32_t k = add_kernel (&b, "warm");
  sim_trace_launch (&b, k, 600, 128);
  uint64_t addr = 0x1000000;
  for (guint t = 0; t < 600; t++)
    write_tb (&b, t, 4, 40, 8, &addr);
  sim_trace_end_launch (&b);
  sim_trace_launch (&b, k, 1, 128);
  uint64_t last = 0x1000000 + 599 * 4 * 8 * 128; /* TB 599's first line: 32 lines per TB */
  write_tb (&b, 0, 4, 40, 8, &last);
  sim_trace_end_launch (&b);
  g_autofree char *path = sim_trace_close (&b);
  g_autoptr (GError) error = NULL;
  g_autoptr (WsTrace) trace = ws_trace_open (path, &error);
  g_assert_no_error (error);
  g_autoptr (WsGpu) gpu = sim_test_gpu (2);
  g_autoptr (WsTbpointRegions) regions = ws_tbpoint_regions (trace, 0, gpu, 0.2, 0.3, &error);
  g_assert_no_error (error);
  for (int warm = 0; warm < 2; warm++)
    {
      g_autoptr (WsSim) sim = ws_sim_new (gpu, NULL, &error);
      g_assert_no_error (error);
      WsSimRegionSampling rs = { regions->tb_region, regions->n_tbs, 0.1, warm };
      WsSimLaunchStats st0, st1;
      g_assert_true (ws_sim_run_launch (sim, trace, 0, &rs, &st0, &error));
      g_assert_no_error (error);
      g_assert_cmpuint (st0.skipped_tbs, >, 300);
      g_assert_true (ws_sim_run_launch (sim, trace, 1, NULL, &st1, &error));
      g_assert_no_error (error);
      g_assert_cmpuint (st1.l2_accesses, ==, 32 * 4);
      g_assert_cmpuint (st1.l2_hits, ==, warm ? 32 * 4 : 0);
      ws_sim_launch_stats_clear (&st0);
      ws_sim_launch_stats_clear (&st1);
    }
}


/* A store stream four times the L2 (256 KiB here): 512 TBs of 4 warps, each
 * warp one ALU instruction and 4 coalesced 128-byte stores of fresh lines
 * (2 KiB per TB, 1 MiB in all; 2 SMs issue up to 2 x 128 bytes per cycle,
 * so the DRAM, not the issue, is the limit).  The write-back L2 absorbs the first
 * 256 KiB; after that every store evicts a dirty sector, so at least
 * 768 KiB cross the DRAM's 64 bytes per cycle: 12 288 cycles.  The warming
 * units run while the L2 still absorbs (no DRAM traffic: the transient
 * IPC), so before the fix TBPoint charged the skipped TBs insts / that IPC
 * and finished below the floor; now functional warming counts the dirty
 * evictions, stops fast-forwarding when the traffic per instruction
 * changes, and charges at least traffic / bandwidth. */
static void
test_sampling_store_stream_dram_floor (void)
{
  SimTraceBuilder b;
  sim_trace_open (&b, tmpdir, "store-stream.wstrace");
  WsTraceStaticInst insts[16];
  for (int i = 0; i < 8; i++)
    insts[i] = sim_test_inst (WS_OPCLASS_ALU, i, -1, -1);
  for (int i = 8; i < 16; i++)
    {
      insts[i] = sim_test_inst (WS_OPCLASS_ST, -1, i - 8, -1);
      insts[i].space = WS_SPACE_GLOBAL;
    }
  uint32_t k = sim_trace_kernel (&b, "store", insts, 16);
  const guint n_tbs = 512;
  sim_trace_launch (&b, k, n_tbs, 128);
  uint64_t addr = 0x1000000;
  for (guint t = 0; t < n_tbs; t++)
    {
      WsTraceCta *cta = ws_trace_cta_begin (b.w, t, 4);
      for (guint w = 0; w < 4; w++)
        {
          sim_rec_inst (cta, w, 0);
          for (guint i = 0; i < 4; i++)
            {
              sim_rec_mem (cta, w, 8 + i, WS_SPACE_GLOBAL, addr, 4);
              addr += 128;
            }
        }
      ws_trace_cta_end (cta);
    }
  sim_trace_end_launch (&b);
  g_autofree char *path = sim_trace_close (&b);
  g_autoptr (GError) error = NULL;
  g_autoptr (WsTrace) trace = ws_trace_open (path, &error);
  g_assert_no_error (error);
  g_autoptr (WsGpu) gpu = sim_test_gpu (2);
  gpu->dram_channels = 4;
  gpu->dram_bandwidth_gbs = 64; /* 64 bytes per cycle at 1 GHz */
  gpu->l2_size = 256 << 10;
  const double floor_cycles = (double) ((1 << 20) - (256 << 10)) / 64; /* 12 288 */

  WsTbpointOptions o;
  ws_tbpoint_options_init (&o);
  g_autoptr (WsTbpointResult) full = ws_tbpoint_simulate (trace, gpu, &o, &error);
  g_assert_no_error (error);
  o.sampling = WS_SAMPLING_TBPOINT;
  g_autoptr (WsTbpointResult) tbp = ws_tbpoint_simulate (trace, gpu, &o, &error);
  g_assert_no_error (error);
  const WsSimLaunchStats *st = &tbp->launches[0].stats;
  double err = ((double) tbp->cycles - (double) full->cycles) / (double) full->cycles;
  g_test_message ("store stream: full %" G_GUINT64_FORMAT " cycles (%" G_GUINT64_FORMAT
                  " DRAM writes), TBPoint %" G_GUINT64_FORMAT
                  " (error %.2f %%, sample %.1f %%, %u fast-forwards, skipped TBs %" G_GUINT64_FORMAT
                  " with %" G_GUINT64_FORMAT " DRAM sectors), floor %.0f",
                  full->cycles, full->launches[0].stats.dram_writes, tbp->cycles, 100 * err, 100 * tbp->sample_fraction,
                  st->regions_fast_forwarded, st->skipped_tbs, st->skipped_dram_sectors, floor_cycles);
  g_test_message ("simulated %" G_GUINT64_FORMAT " + skipped %.0f cycles, %" G_GUINT64_FORMAT " simulated DRAM writes",
                  st->simulated_cycles, st->skipped_cycles, st->dram_writes);
  /* Every sector beyond the L2's 8192 is written back: 24 576 writes. */
  g_assert_cmpuint (full->launches[0].stats.dram_writes, ==, ((1 << 20) - (256 << 10)) / 32);
  g_assert_cmpfloat ((double) full->cycles, >=, floor_cycles);
  g_assert_cmpuint (st->skipped_tbs, >, n_tbs / 2);
  g_assert_cmpfloat ((double) tbp->cycles, >=, floor_cycles);
  /* +3.2 % since the slices serve 64 bytes a cycle (GA100's rate, where
   * the record gives none): the full run got 5 % faster (13 793 cycles
   * against 14 561 at 32 bytes), the TBPoint run less (14 233 against
   * 14 315: its warming units ran before the L2 filled; -1.7 % before). */
  g_assert_cmpfloat (fabs (err), <, 0.05);
  /* The skipped TBs' write-backs, counted by functional warming, plus the
   * simulated ones are all the stream's. */
  g_assert_cmpuint (st->skipped_dram_sectors, <=, ((1 << 20) - (256 << 10)) / 32);
  g_assert_cmpuint (st->skipped_dram_sectors + st->dram_writes, >=, ((1 << 20) - (256 << 10)) / 32 * 95 / 100);
}


/* The TBPoint view (seed 000 Fig. 8): a launch of two phases (TBs 0-299
 * compute-bound, 300-599 memory-bound).  Every number is checked against
 * the trace, the region analysis and separate full and sampled runs. */
static void
test_view (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WsTrace) trace = one_launch_trace ("view.wstrace", "view", 600, 300, 60, 2, 20, 12);
  g_autoptr (WsGpu) gpu = sim_test_gpu (2);

  g_autoptr (WsTbpointView) view = ws_tbpoint_view_compute (trace, 0, gpu, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (view->n_tbs, ==, 600);
  g_assert_cmpstr (view->kernel, ==, "view");
  /* Sizes are the trace's per-TB counts: 4 warps x (alu + loads). */
  g_assert_cmpuint (view->tb_size[0], ==, 4 * 62);
  g_assert_cmpuint (view->tb_size[599], ==, 4 * 32);
  uint64_t total = 0, simulated = 0, n_sim = 0;
  for (uint64_t t = 0; t < view->n_tbs; t++)
    {
      total += view->tb_size[t];
      if (view->tb_simulated[t])
        {
          simulated += view->tb_size[t];
          n_sim++;
        }
    }
  g_assert_cmpuint (total, ==, view->warp_instructions);
  g_assert_cmpuint (simulated, ==, view->simulated_warp_instructions);
  g_assert_cmpuint (n_sim, ==, view->simulated_tbs);
  g_assert_cmpfloat_with_epsilon (view->sample_fraction, (double) simulated / total, 1e-12);
  g_assert_cmpuint (n_sim, <, 600); /* region sampling skipped TBs */
  g_assert_cmpfloat (view->sample_fraction, <, 0.8);

  /* Regions are the ones ws_tbpoint_regions finds. */
  g_autoptr (WsTbpointRegions) regions = ws_tbpoint_regions (trace, 0, gpu, 0.2, 0.3, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (view->n_regions, ==, regions->n_regions);
  g_assert_cmpuint (view->n_regions, >=, 2);
  for (uint64_t t = 0; t < view->n_tbs; t++)
    g_assert_cmpint (view->tb_region[t], ==, regions->tb_region[t]);
  /* A skipped TB is always inside a region. */
  for (uint64_t t = 0; t < view->n_tbs; t++)
    if (!view->tb_simulated[t])
      g_assert_cmpint (view->tb_region[t], >=, 0);

  /* Full and sampled cycles are those of separate runs. */
  WsTbpointOptions o;
  ws_tbpoint_options_init (&o);
  WsSimLaunchStats st;
  {
    g_autoptr (WsSim) sim = ws_sim_new (gpu, NULL, &error);
    g_assert_true (ws_tbpoint_simulate_launch (sim, trace, 0, &o, &st, NULL, NULL, &error));
    g_assert_null (st.tb_simulated);
    g_assert_cmpuint (st.cycles, ==, view->full_cycles);
    ws_sim_launch_stats_clear (&st);
  }
  o.sampling = WS_SAMPLING_TBPOINT;
  {
    g_autoptr (WsSim) sim = ws_sim_new (gpu, NULL, &error);
    guint n_regions = 0;
    g_assert_true (ws_tbpoint_simulate_launch (sim, trace, 0, &o, &st, &n_regions, NULL, &error));
    g_assert_cmpuint (st.cycles, ==, view->sampled_cycles);
    g_assert_cmpuint (n_regions, ==, view->n_regions);
    g_assert_cmpuint (st.skipped_tbs, ==, 600 - view->simulated_tbs);
    ws_sim_launch_stats_clear (&st);
  }
  g_assert_cmpfloat_with_epsilon (view->error, ((double) view->sampled_cycles - view->full_cycles) / view->full_cycles,
                                  1e-12);
  g_assert_cmpfloat (fabs (view->error), <, 0.05);
  g_test_message ("view: %u regions, %" G_GUINT64_FORMAT " of 600 TBs simulated, sample %.1f %%, error %.2f %%",
                  view->n_regions, view->simulated_tbs, 100 * view->sample_fraction, 100 * view->error);

  /* JSON: the input of `plot tbpoint`. */
  g_autoptr (JsonNode) node = ws_tbpoint_view_to_json (view);
  JsonObject *root = json_node_get_object (node);
  JsonArray *tbs = json_object_get_array_member (root, "tbs");
  g_assert_cmpuint (json_array_get_length (tbs), ==, 600);
  guint skipped_json = 0;
  for (guint t = 0; t < 600; t++)
    {
      JsonObject *o2 = json_array_get_object_element (tbs, t);
      g_assert_cmpint (json_object_get_int_member (o2, "id"), ==, t);
      g_assert_cmpint (json_object_get_int_member (o2, "size"), ==, (gint64) view->tb_size[t]);
      g_assert_cmpint (json_object_get_int_member (o2, "region"), ==, view->tb_region[t]);
      skipped_json += !json_object_get_boolean_member (o2, "simulated");
    }
  g_assert_cmpuint (skipped_json, ==, 600 - view->simulated_tbs);
  g_assert_cmpfloat (json_object_get_double_member (root, "error"), ==, view->error);

  /* The chart: one series per region (plus "no region" for outliers), one
   * point per TB, skipped points flagged. */
  WsChart *chart = ws_tbpoint_view_to_chart (view);
  g_assert_cmpint (ws_chart_get_kind (chart), ==, WS_CHART_TBPOINT);
  guint points = 0, outliers = 0;
  for (uint64_t t = 0; t < view->n_tbs; t++)
    outliers += view->tb_region[t] < 0;
  g_assert_cmpuint (ws_chart_get_n_series (chart), ==, view->n_regions + (outliers > 0));
  for (guint s = 0; s < ws_chart_get_n_series (chart); s++)
    points += ws_chart_series_get_n_points (chart, s);
  g_assert_cmpuint (points, ==, 600);
  ws_chart_free (chart);
}

static gpointer
cancel_later (gpointer data)
{
  g_usleep (20000);
  g_cancellable_cancel (data);
  return NULL;
}

/* Cancelling stops a simulation in the middle of a launch. */
static void
test_cancel (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WsTrace) trace = one_launch_trace ("cancel.wstrace", "long", 2000, 2000, 200, 16, 200, 16);
  g_autoptr (WsGpu) gpu = sim_test_gpu (2);
  g_autoptr (GCancellable) cancellable = g_cancellable_new ();
  WsTbpointOptions o;
  ws_tbpoint_options_init (&o);
  o.cancellable = cancellable;

  /* Uncancelled: how long the whole launch takes. */
  g_autoptr (WsSim) sim = ws_sim_new (gpu, NULL, &error);
  WsSimLaunchStats st;
  gint64 t0 = g_get_monotonic_time ();
  g_assert_true (ws_tbpoint_simulate_launch (sim, trace, 0, &o, &st, NULL, NULL, &error));
  gint64 full_us = g_get_monotonic_time () - t0;
  uint64_t full_cycles = st.cycles;
  ws_sim_launch_stats_clear (&st);

  /* Cancelled before: fails at the first check. */
  g_cancellable_cancel (cancellable);
  g_assert_false (ws_tbpoint_simulate_launch (sim, trace, 0, &o, &st, NULL, NULL, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_nonnull (strstr (error->message, "kernel 'long'"));
  g_clear_error (&error);

  /* Cancelled 20 ms in, from another thread: stops well before the end. */
  g_cancellable_reset (cancellable);
  g_autoptr (WsSim) sim2 = ws_sim_new (gpu, NULL, &error);
  GThread *thread = g_thread_new ("cancel", cancel_later, cancellable);
  t0 = g_get_monotonic_time ();
  gboolean ok = ws_tbpoint_simulate_launch (sim2, trace, 0, &o, &st, NULL, NULL, &error);
  gint64 cancelled_us = g_get_monotonic_time () - t0;
  g_thread_join (thread);
  g_test_message ("full launch %" G_GUINT64_FORMAT " cycles in %.3f s; cancelled after %.3f s", full_cycles,
                  full_us / 1e6, cancelled_us / 1e6);
  if (full_us > 200000)
    {
      g_assert_false (ok);
      g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
      g_assert_cmpint (cancelled_us, <, full_us / 2);
    }
  else
    g_test_message ("launch too fast on this machine to cancel midway; checked the pre-cancelled case only");
}

/* Eq. 3 on cases with a known answer. */
static void
test_markov (void)
{
  /* One warp: P(stalled) = p / (p + 1/M), IPC = 1 / (1 + p M). */
  double m1 = 100;
  g_assert_cmpfloat_with_epsilon (ws_tbpoint_markov_ipc (0.1, &m1, 1), 1.0 / 11, 1e-12);
  g_assert_cmpfloat_with_epsilon (ws_tbpoint_markov_ipc_matrix (0.1, &m1, 1), 1.0 / 11, 1e-9);
  /* Several warps with different M: the explicit 2^N chain agrees with the
   * product form. */
  const double m[4] = { 80, 100, 120, 400 };
  for (guint n = 2; n <= 4; n++)
    g_assert_cmpfloat_with_epsilon (ws_tbpoint_markov_ipc_matrix (0.05, m, n), ws_tbpoint_markov_ipc (0.05, m, n),
                                    1e-9);
  double m4[4] = { 100, 100, 100, 100 };
  double r0 = pow (0.05 / (0.05 + 0.01), 4);
  g_assert_cmpfloat_with_epsilon (ws_tbpoint_markov_ipc_matrix (0.05, m4, 4), 1 - r0, 1e-9);
  /* Lemma 4.1 / Fig. 5: p = 0.05, M = 100, N = 4: more than 95 % of the
   * samples lie within 10 % of the mean IPC. */
  WsTbpointMarkovStats st;
  ws_tbpoint_markov_monte_carlo (0.05, 100, 4, 10000, 1, &st);
  g_assert_cmpuint (st.samples, ==, 10000);
  g_assert_cmpfloat (st.within_10, >, 0.95);
  g_assert_cmpfloat_with_epsilon (st.mean_ipc, 1 - r0, 0.01);
  guint hsum = 0;
  for (int i = 0; i < 21; i++)
    hsum += st.histogram[i];
  g_assert_cmpuint (hsum, ==, 10000);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  tmpdir = g_dir_make_tmp ("ws-tbpoint-XXXXXX", NULL);
  g_test_add_func ("/tbpoint/cluster/known-clusters", test_cluster_known);
  g_test_add_func ("/tbpoint/inter-launch/cold-start-apart", test_inter_launch_cold_start);
  g_test_add_func ("/tbpoint/inter-launch/clusters-and-weights", test_inter_launch);
  g_test_add_func ("/tbpoint/inter-launch/representative-weighted-centre", test_inter_launch_weighted_centre);
  g_test_add_func ("/tbpoint/regions/two-phases-and-outlier", test_regions_two_phases);
  g_test_add_func ("/tbpoint/sampling/homogeneous-launch-error", test_sampling_homogeneous);
  g_test_add_func ("/tbpoint/sampling/skipped-tbs-warm-l2", test_sampling_warms_skipped);
  g_test_add_func ("/tbpoint/sampling/store-stream-dram-floor", test_sampling_store_stream_dram_floor);
  g_test_add_func ("/tbpoint/markov/known-cases", test_markov);
  g_test_add_func ("/tbpoint/view/two-phases", test_view);
  g_test_add_func ("/tbpoint/cancel/midway", test_cancel);
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
