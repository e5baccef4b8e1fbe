/* ws-interval.c: GPUMech's single-warp model and representative warp (seed 001 §4.3). */
#include "interval/ws-interval.h"
#include "interval/ws-launch-analysis-private.h"
#include "bounds/ws-bounds.h"
#include "ptx/ws-ptx.h"

#include <math.h>
#include <string.h>

void
ws_interval_profile_free (WsIntervalProfile *p)
{
  if (p == NULL)
    return;
  g_array_unref (p->intervals);
  g_free (p);
}

WsIClass
ws_interval_inst_iclass (const WsTraceStaticInst *inst)
{
  switch (inst->opclass)
    {
    case WS_OPCLASS_FP32: return WS_ICLASS_FP32;
    case WS_OPCLASS_FP64: return WS_ICLASS_FP64;
    case WS_OPCLASS_SFU: return WS_ICLASS_SFU;
    case WS_OPCLASS_TENSOR: return WS_ICLASS_TENSOR; /* wmma.mma: the tensor pipe, as in the simulator */
    case WS_OPCLASS_LD:
    case WS_OPCLASS_ST:
    case WS_OPCLASS_ATOM: return inst->space == WS_SPACE_SHARED ? WS_ICLASS_SHARED : WS_ICLASS_GLOBAL;
    case WS_OPCLASS_BRANCH:
    case WS_OPCLASS_BARRIER: return WS_ICLASS_BRANCH;
    default: return WS_ICLASS_INT;
    }
}

/* Register slots in the trace's static table are 16-bit. */
#define MAX_SLOTS 65536

/* Per static instruction: data-stage wavefronts summed over the executions
 * that have a figure, those executions, and all executions. */
typedef struct {
  double sum;
  uint64_t counted, executed;
} WavefrontTally;

/* Adds memory record @r to @tally (ws_launch_analysis_get_wavefronts). */
static inline void
tally_record (const WsTraceKernel *k, const WsTraceRecord *r, int cc_major, WavefrontTally *tally)
{
  if (r->kind != WS_TRACE_RECORD_MEM || r->active_mask == 0 || r->static_id >= k->n_insts)
    return;
  const WsTraceStaticInst *si = &k->insts[r->static_id];
  WavefrontTally *t = &tally[r->static_id];
  t->executed++;
  /* The data stage serves loads from global and local memory (stores
   * are written through to L2) and every shared-memory access. */
  gboolean load = si->op == WS_OP_LD || si->op == WS_OP_LDU;
  if (r->space != WS_SPACE_SHARED && !(load && (r->space == WS_SPACE_GLOBAL || r->space == WS_SPACE_LOCAL)))
    return;
  double wf = ws_bounds_access_wavefronts (r, si->access_size, cc_major);
  if (isnan (wf))
    return;
  t->sum += wf;
  t->counted++;
}

/* Eq. 13 over warp @warp (ws_interval_profile_warp); with @tally, every
 * memory record of the warp is also added to it (tally_record), in the
 * same walk of the stream. */
static WsIntervalProfile *
profile_warp (const WsTraceKernel *k, const WsTraceTb *tb, guint warp, const double *latency, int cc_major,
              WavefrontTally *tally, GError **error)
{
  WsIntervalProfile *p = g_new0 (WsIntervalProfile, 1);
  p->intervals = g_array_new (FALSE, FALSE, sizeof (WsInterval));
  /* done cycle of the last writer of each register slot, and who wrote it;
   * sized by the kernel's highest slot (zeroing all 65536 slots for every
   * warp dominated the launch analysis) */
  guint n_slots = 1;
  for (guint i = 0; i < k->n_insts; i++)
    {
      const WsTraceStaticInst *mi = &k->machine[i];
      for (int s = 0; s < mi->n_src && s < 4; s++)
        if (mi->src[s] != 0xffff)
          n_slots = MAX (n_slots, (guint) mi->src[s] + 1);
      for (int d = 0; d < mi->n_dst && d < 2; d++)
        if (mi->dst[d] != 0xffff)
          n_slots = MAX (n_slots, (guint) mi->dst[d] + 1);
    }
  g_assert (n_slots <= MAX_SLOTS);
  g_autofree double *ready = g_new0 (double, n_slots);
  g_autofree uint32_t *writer = g_new0 (uint32_t, n_slots);

  WsTraceWarpIter it;
  ws_trace_warp_iter_init (&it, tb, warp);
  WsTraceRecord r;
  GError *e = NULL;
  double issue = -1, start = 0;
  /* The latest done cycle of the warp's memory accesses, and whose. */
  double mem_done = -1;
  uint32_t mem_inst = G_MAXUINT32;
  WsInterval cur = { 0 };
  while (ws_trace_warp_iter_next (&it, &r, &e))
    {
      if (tally != NULL)
        tally_record (k, &r, cc_major, tally);
      /* Machine instructions only (ws-trace-lowering.h): an absorbed one
       * issues nothing, and an FMA waits for its absorbed mul's sources. */
      if (r.static_id >= k->n_insts || !ws_trace_kernel_issues (k, r.static_id))
        continue;
      const WsTraceStaticInst *si = &k->machine[r.static_id];
      p->thread_insts += (uint64_t) __builtin_popcount (r.active_mask);
      double earliest = issue + 1; /* eq. 13: one instruction per cycle */
      uint32_t awaited = G_MAXUINT32;
      for (int s = 0; s < si->n_src && s < 4; s++)
        {
          uint16_t slot = si->src[s];
          if (slot == 0xffff)
            continue;
          if (ready[slot] + 1 > earliest) /* eq. 13: done(source) + 1 */
            {
              earliest = ready[slot] + 1;
              awaited = writer[slot];
            }
        }
      if (issue >= 0 && earliest > issue + 1)
        {
          /* The issue cycle jumps: close the interval, stalls charged to it. */
          cur.stall_cycles = earliest - issue - 1;
          cur.stall_inst = awaited;
          g_array_append_val (p->intervals, cur);
          memset (&cur, 0, sizeof cur);
        }
      issue = earliest;
      if (p->insts == 0)
        start = issue;
      cur.insts++;
      p->insts++;
      double done = issue + latency[r.static_id];
      if ((si->opclass == WS_OPCLASS_LD || si->opclass == WS_OPCLASS_ST || si->opclass == WS_OPCLASS_ATOM)
          && done > mem_done)
        {
          mem_done = done;
          mem_inst = r.static_id;
        }
      for (int d = 0; d < si->n_dst && d < 2; d++)
        if (si->dst[d] != 0xffff)
          {
            ready[si->dst[d]] = done;
            writer[si->dst[d]] = r.static_id;
          }
    }
  if (e != NULL)
    {
      g_propagate_error (error, e);
      ws_interval_profile_free (p);
      return NULL;
    }
  /* The warp ends once every memory access it issued has completed, not at
   * its last issue: a warp (and its block's slot) is retired only when the
   * L2 has accepted its stores and its loads have returned.  Seed 001
   * §4.3.2 says nothing of the warp's end; seed 004 §5.1 puts the memory
   * accesses' latency on the path to the kernel graph's end node, and
   * GPGPU-Sim keeps a warp until its stores are acknowledged.  As that
   * graph's end node (and the Volkov plugin's critical path), the warp ends
   * at the later of issue + 1 and the latest access' done cycle (issue +
   * latency, eq. 13's done): the last interval stalls the difference,
   * charged to that access.  A store is done when the L2 takes it (the
   * cache simulation's latency for stores is the L2's). */
  if (cur.insts > 0 && mem_done > issue + 1)
    {
      cur.stall_cycles = mem_done - issue - 1;
      cur.stall_inst = mem_inst;
    }
  if (cur.insts > 0)
    g_array_append_val (p->intervals, cur);
  double stalls = 0;
  for (guint i = 0; i < p->intervals->len; i++)
    stalls += g_array_index (p->intervals, WsInterval, i).stall_cycles;
  /* eq. 14 with an issue rate of one instruction per cycle */
  p->cycles = p->insts + stalls;
  p->perf = p->cycles > 0 ? p->insts / p->cycles : 0;
  (void) start;
  return p;
}

WsIntervalProfile *
ws_interval_profile_warp (const WsTraceKernel *k, const WsTraceTb *tb, guint warp, const double *latency,
                          GError **error)
{
  return profile_warp (k, tb, warp, latency, 0, NULL, error);
}

/* ---- per-launch analysis ------------------------------------------------------ */

void
ws_launch_analysis_free (WsLaunchAnalysis *a)
{
  if (a == NULL)
    return;
  ws_gpu_free (a->gpu);
  ws_cache_stats_free (a->cache);
  g_free (a->latency);
  g_free (a->wavefronts);
  g_free (a->tb_issued);
  g_free (a->tb_thread_issued);
  g_free (a->tb_critical);
  ws_interval_profile_free (a->rep);
  g_free (a);
}

typedef struct {
  uint64_t tb;
  uint32_t warp;
  double perf, insts;
} WarpPoint;

/* k-means, k = 2, on the eq. 15 features (each normalised by its mean).
 * Deterministic seeds: the points with the smallest and the largest
 * performance. */
static guint
pick_representative (const WarpPoint *pts, guint n)
{
  if (n == 1)
    return 0;
  double mean_perf = 0, mean_insts = 0;
  for (guint i = 0; i < n; i++)
    {
      mean_perf += pts[i].perf;
      mean_insts += pts[i].insts;
    }
  mean_perf /= n;
  mean_insts /= n;
  g_autofree double *fx = g_new (double, n);
  g_autofree double *fy = g_new (double, n);
  g_autofree guint8 *cl = g_new0 (guint8, n);
  guint lo = 0, hi = 0;
  for (guint i = 0; i < n; i++)
    {
      fx[i] = mean_perf > 0 ? pts[i].perf / mean_perf : 0; /* eq. 15 */
      fy[i] = mean_insts > 0 ? pts[i].insts / mean_insts : 0;
      if (fx[i] + fy[i] < fx[lo] + fy[lo])
        lo = i;
      if (fx[i] + fy[i] > fx[hi] + fy[hi])
        hi = i;
    }
  double cx[2] = { fx[lo], fx[hi] }, cy[2] = { fy[lo], fy[hi] };
  guint size[2] = { 0, 0 };
  for (int iter = 0; iter < 100; iter++)
    {
      gboolean changed = FALSE;
      for (guint i = 0; i < n; i++)
        {
          double d0 = (fx[i] - cx[0]) * (fx[i] - cx[0]) + (fy[i] - cy[0]) * (fy[i] - cy[0]);
          double d1 = (fx[i] - cx[1]) * (fx[i] - cx[1]) + (fy[i] - cy[1]) * (fy[i] - cy[1]);
          guint8 c = d1 < d0 ? 1 : 0;
          if (c != cl[i] || iter == 0)
            changed = TRUE;
          cl[i] = c;
        }
      double sx[2] = { 0, 0 }, sy[2] = { 0, 0 };
      size[0] = size[1] = 0;
      for (guint i = 0; i < n; i++)
        {
          sx[cl[i]] += fx[i];
          sy[cl[i]] += fy[i];
          size[cl[i]]++;
        }
      for (int c = 0; c < 2; c++)
        if (size[c] > 0)
          {
            cx[c] = sx[c] / size[c];
            cy[c] = sy[c] / size[c];
          }
      if (!changed)
        break;
    }
  guint8 big = size[1] > size[0] ? 1 : 0;
  guint best = 0;
  double best_d = INFINITY;
  for (guint i = 0; i < n; i++)
    if (cl[i] == big)
      {
        double d = (fx[i] - cx[big]) * (fx[i] - cx[big]) + (fy[i] - cy[big]) * (fy[i] - cy[big]);
        if (d < best_d)
          {
            best_d = d;
            best = i;
          }
      }
  return best;
}

/* ---- sampling ------------------------------------------------------------------ */

/* A launch of more than twice this many waves is analysed on this many of
 * them, spread evenly over the launch (the first always among them). */
#define SAMPLE_WAVES 4

gboolean
ws_launch_analysis_samples (void)
{
  const char *env = g_getenv ("WARPSCOPE_ANALYSIS_SAMPLE");
  return env == NULL || (strcmp (env, "0") != 0 && g_ascii_strcasecmp (env, "off") != 0);
}

/* A well-spread pseudo-random pick per stratum (splitmix64's step). */
static uint64_t
stratum_pick (uint64_t stratum)
{
  return ws_mix64 (stratum + 0x9e3779b97f4a7c15ull);
}

/* Which blocks the analysis simulates and which it profiles.  Both are
 * NULL for every block, else a flag per block:
 *  - @in_simulated: the blocks of the sampled waves (a wave: SMs x
 *    resident blocks, the cache simulation's block slots), run as
 *    consecutive waves, so each meets about the neighbours in the L2 it
 *    has in the whole launch, less the skipped waves' footprint;
 *  - @in_profiled: as many blocks, one drawn (deterministically) from each
 *    of as many equal strata of the launch: the interval profiles, the
 *    representative warp and the wavefronts see the whole grid, not a few
 *    rows of it (a convolution's edge blocks issue fewer instructions than
 *    its inner ones, and four waves of a 64 x 64 grid on a GTX 970 hold the
 *    whole top edge). */
static gboolean
plan_sample (WsTrace *trace, guint launch, const WsGpu *gpu, guint8 **in_simulated, guint8 **in_profiled,
             guint *sample_waves, uint64_t *waves, GError **error)
{
  *in_simulated = *in_profiled = NULL;
  uint64_t n_tbs = 0, wave = 1;
  ws_trace_get_tb_counters (trace, launch, &n_tbs);
  if (!ws_launch_analysis_plan (trace, launch, gpu, sample_waves, waves, error)
      || !ws_cachesim_wave_blocks (trace, launch, gpu, &wave, error))
    return FALSE;
  if (*sample_waves == *waves)
    return TRUE;
  *in_simulated = g_new0 (guint8, n_tbs);
  for (uint64_t j = 0; j < SAMPLE_WAVES; j++)
    {
      uint64_t w = j * *waves / SAMPLE_WAVES;
      for (uint64_t t = w * wave; t < MIN ((w + 1) * wave, n_tbs); t++)
        (*in_simulated)[t] = 1;
    }
  *in_profiled = g_new0 (guint8, n_tbs);
  uint64_t strata = SAMPLE_WAVES * wave;
  for (uint64_t j = 0; j < strata; j++)
    {
      uint64_t lo = j * n_tbs / strata, hi = (j + 1) * n_tbs / strata;
      if (hi > lo)
        (*in_profiled)[lo + stratum_pick (j) % (hi - lo)] = 1;
    }
  return TRUE;
}

gboolean
ws_launch_analysis_plan (WsTrace *trace, guint launch, const WsGpu *gpu, guint *sample_waves, uint64_t *waves,
                         GError **error)
{
  uint64_t n_tbs = 0, wave = 1;
  if (launch >= ws_trace_get_n_launches (trace))
    {
      g_set_error (error, WS_ERROR, WS_ERROR_NOT_FOUND, "%s has no launch %u", ws_trace_get_path (trace), launch);
      return FALSE;
    }
  ws_trace_get_tb_counters (trace, launch, &n_tbs);
  if (!ws_cachesim_wave_blocks (trace, launch, gpu, &wave, error))
    return FALSE;
  *waves = (n_tbs + wave - 1) / MAX (wave, 1);
  *sample_waves = ws_launch_analysis_samples () && *waves > 2 * SAMPLE_WAVES ? SAMPLE_WAVES
                                                                             : (guint) MIN (*waves, G_MAXUINT);
  return TRUE;
}

/* The figures of the blocks left out of the sample, from what the trace
 * records of every block: a block issues as many machine instructions per
 * recorded PTX instruction (and lane-instructions per thread-instruction)
 * as the sampled blocks together, and its longest warp takes as many
 * cycles per PTX instruction of its average warp; the cache simulation's
 * totals grow by the ratio of all global and local requests (32-byte
 * sectors, counted for every block) to the sample's.  Rates and per-
 * instruction figures (hit rates, AMAT, wavefronts, latencies, the
 * representative warp) are the sample's. */
static void
extrapolate_sample (WsLaunchAnalysis *a, const WsTraceTbCounters *tbc, uint64_t n_tbs, const guint8 *in_simulated,
                    const guint8 *in_profiled)
{
  double ptx = 0, ptx_threads = 0, issued = 0, threads = 0, critical = 0, warp_ptx = 0;
  double requests_all = 0, requests_sample = 0;
  for (uint64_t t = 0; t < n_tbs; t++)
    {
      if (!tbc[t].recorded)
        continue;
      double requests = (double) tbc[t].global_requests + (double) tbc[t].local_requests;
      requests_all += requests;
      if (in_simulated[t])
        requests_sample += requests;
      if (!in_profiled[t])
        continue;
      ptx += (double) tbc[t].warp_instructions;
      ptx_threads += (double) tbc[t].thread_instructions;
      issued += (double) a->tb_issued[t];
      threads += (double) a->tb_thread_issued[t];
      critical += a->tb_critical[t];
      warp_ptx += (double) tbc[t].warp_instructions / MAX (tbc[t].n_warps, 1);
    }
  double per_inst = ptx > 0 ? issued / ptx : 1;
  double per_thread_inst = ptx_threads > 0 ? threads / ptx_threads : 1;
  double cycles_per_warp_inst = warp_ptx > 0 ? critical / warp_ptx : 0;
  for (uint64_t t = 0; t < n_tbs; t++)
    {
      if (!tbc[t].recorded || in_profiled[t])
        continue;
      a->tb_issued[t] = (uint64_t) llround ((double) tbc[t].warp_instructions * per_inst);
      a->tb_thread_issued[t] = (uint64_t) llround ((double) tbc[t].thread_instructions * per_thread_inst);
      a->tb_critical[t] = cycles_per_warp_inst * (double) tbc[t].warp_instructions / MAX (tbc[t].n_warps, 1);
      a->issued += a->tb_issued[t];
      a->thread_issued += a->tb_thread_issued[t];
    }
  double scale = requests_sample > 0 ? requests_all / requests_sample
                                     : (double) a->recorded_tbs / (double) MAX (a->simulated_tbs, 1);
  WsCacheStats *c = a->cache;
  c->sectors = (uint64_t) llround ((double) c->sectors * scale);
  c->l1_hits = (uint64_t) llround ((double) c->l1_hits * scale);
  c->l2_hits = (uint64_t) llround ((double) c->l2_hits * scale);
  c->dram_sectors = (uint64_t) llround ((double) c->dram_sectors * scale);
  c->writeback_sectors = (uint64_t) llround ((double) c->writeback_sectors * scale);
  c->dram_bytes = (c->dram_sectors + c->writeback_sectors) * 32;
}

WsLaunchAnalysis *
ws_launch_analysis_new (WsTrace *trace, guint launch, const WsGpu *gpu, GError **error)
{
  g_autoptr (WsLaunchAnalysis) a = g_new0 (WsLaunchAnalysis, 1);
  a->trace = trace;
  a->launch = launch;
  a->gpu = ws_gpu_copy (gpu);
  if (launch >= ws_trace_get_n_launches (trace))
    {
      g_set_error (error, WS_ERROR, WS_ERROR_NOT_FOUND, "%s has no launch %u", ws_trace_get_path (trace), launch);
      return NULL;
    }
  g_autofree guint8 *in_simulated = NULL;
  g_autofree guint8 *in_profiled = NULL;
  if (!plan_sample (trace, launch, gpu, &in_simulated, &in_profiled, &a->sample_waves, &a->waves, error))
    return NULL;
  a->cache = ws_cachesim_run_launch_sample (trace, launch, gpu, in_simulated, error);
  if (a->cache == NULL)
    return NULL;

  const WsTraceLaunch *l = ws_trace_get_launch (trace, launch);
  const WsTraceKernel *k = ws_trace_get_kernel (trace, l->kernel);
  a->latency = g_new0 (double, MAX (k->n_insts, 1));
  for (guint i = 0; i < k->n_insts; i++)
    {
      const WsTraceStaticInst *si = &k->insts[i];
      WsIClass c = ws_interval_inst_iclass (si);
      if ((c == WS_ICLASS_GLOBAL || c == WS_ICLASS_SHARED) && a->cache->pcs[i].executions > 0)
        a->latency[i] = a->cache->pcs[i].amat; /* seed 001 §4.5.2 */
      else if (c == WS_ICLASS_GLOBAL && (si->space == WS_SPACE_PARAM || si->space == WS_SPACE_FUNC_PARAM))
        /* Parameter reads (the trace records no addresses for them) are
         * constant-bank operands on the hardware: integer-pipe work, as the
         * detailed simulator takes them; not a DRAM access. */
        a->latency[i] = gpu->pipes[WS_ICLASS_INT].latency;
      else if (c == WS_ICLASS_GLOBAL && si->space == WS_SPACE_CONST)
        a->latency[i] = gpu->l1_latency; /* constant-cache hit */
      else if (c == WS_ICLASS_GLOBAL)
        /* A global access that never executed with an active lane: it
         * reaches no memory (the detailed simulator charges an integer op). */
        a->latency[i] = gpu->pipes[WS_ICLASS_INT].latency;
      else
        a->latency[i] = gpu->pipes[c].latency;
      if (a->latency[i] < 1)
        a->latency[i] = 1;
    }

  uint64_t n_tbs = 0;
  const WsTraceTbCounters *tbc = ws_trace_get_tb_counters (trace, launch, &n_tbs);
  g_autoptr (GArray) pts = g_array_new (FALSE, FALSE, sizeof (WarpPoint));
  g_autofree WavefrontTally *tally = g_new0 (WavefrontTally, MAX (k->n_insts, 1));
  a->tb_issued = g_new0 (uint64_t, MAX (n_tbs, 1));
  a->tb_thread_issued = g_new0 (uint64_t, MAX (n_tbs, 1));
  a->tb_critical = g_new0 (double, MAX (n_tbs, 1));
  for (uint64_t t = 0; t < n_tbs; t++)
    {
      if (!tbc[t].recorded)
        continue;
      a->recorded_tbs++;
      if (in_simulated != NULL && in_simulated[t])
        a->simulated_tbs++;
      if (in_profiled != NULL && !in_profiled[t])
        continue;
      a->profiled_tbs++;
      g_autoptr (WsTraceTb) tb = ws_trace_read_tb (trace, launch, t, error);
      if (tb == NULL)
        return NULL;
      for (guint w = 0; w < ws_trace_tb_get_n_warps (tb); w++)
        {
          g_autoptr (WsIntervalProfile) p = profile_warp (k, tb, w, a->latency, gpu->cc_major, tally, error);
          if (p == NULL)
            return NULL;
          a->tb_issued[t] += p->insts;
          a->tb_thread_issued[t] += p->thread_insts;
          a->issued += p->insts;
          a->thread_issued += p->thread_insts;
          a->tb_critical[t] = MAX (a->tb_critical[t], p->cycles);
          if (p->insts == 0)
            continue;
          WarpPoint pt = { t, w, p->perf, (double) p->insts };
          g_array_append_val (pts, pt);
        }
    }
  if (in_simulated == NULL)
    a->simulated_tbs = a->recorded_tbs;
  else
    extrapolate_sample (a, tbc, n_tbs, in_simulated, in_profiled);
  a->wavefronts = g_new0 (double, MAX (k->n_insts, 1));
  for (guint i = 0; i < k->n_insts; i++)
    a->wavefronts[i] = tally[i].counted > 0    ? tally[i].sum / (double) tally[i].counted
                       : tally[i].executed > 0 ? NAN
                                               : 0;
  a->n_profiled = pts->len;
  if (pts->len == 0)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID, "launch %u (%s) recorded no warp instructions", launch, k->name);
      return NULL;
    }
  guint rep = pick_representative ((const WarpPoint *) pts->data, pts->len);
  const WarpPoint *r = &g_array_index (pts, WarpPoint, rep);
  a->rep_tb = r->tb;
  a->rep_warp = r->warp;
  g_autoptr (WsTraceTb) tb = ws_trace_read_tb (trace, launch, r->tb, error);
  if (tb == NULL)
    return NULL;
  a->rep = ws_interval_profile_warp (k, tb, r->warp, a->latency, error);
  if (a->rep == NULL)
    return NULL;
  return g_steal_pointer (&a);
}

const WsCacheStats *
ws_launch_analysis_get_cache (WsLaunchAnalysis *a)
{
  return a->cache;
}

const double *
ws_launch_analysis_get_latencies (WsLaunchAnalysis *a)
{
  return a->latency;
}

const WsIntervalProfile *
ws_launch_analysis_get_representative (WsLaunchAnalysis *a, uint64_t *tb, uint32_t *warp)
{
  if (tb)
    *tb = a->rep_tb;
  if (warp)
    *warp = a->rep_warp;
  return a->rep;
}

guint
ws_launch_analysis_get_n_warps_profiled (WsLaunchAnalysis *a)
{
  return a->n_profiled;
}

const double *
ws_launch_analysis_get_wavefronts (WsLaunchAnalysis *a)
{
  return a->wavefronts;
}

const uint64_t *
ws_launch_analysis_get_tb_issued (WsLaunchAnalysis *a, const uint64_t **thread_insts)
{
  if (thread_insts)
    *thread_insts = a->tb_thread_issued;
  return a->tb_issued;
}

void
ws_launch_analysis_get_sample (WsLaunchAnalysis *a, uint64_t *profiled_tbs, uint64_t *simulated_tbs,
                               uint64_t *recorded_tbs, guint *sample_waves, uint64_t *waves)
{
  if (profiled_tbs)
    *profiled_tbs = a->profiled_tbs;
  if (simulated_tbs)
    *simulated_tbs = a->simulated_tbs;
  if (recorded_tbs)
    *recorded_tbs = a->recorded_tbs;
  if (sample_waves)
    *sample_waves = a->sample_waves;
  if (waves)
    *waves = a->waves;
}

const double *
ws_launch_analysis_get_tb_critical_cycles (WsLaunchAnalysis *a)
{
  return a->tb_critical;
}

void
ws_launch_analysis_get_issued (WsLaunchAnalysis *a, uint64_t *warp_insts, uint64_t *thread_insts)
{
  if (warp_insts)
    *warp_insts = a->issued;
  if (thread_insts)
    *thread_insts = a->thread_issued;
}
