/* volkov: kernel time by Little's law, as Volkov proposed and MERPSYS
 * implemented it (seed 004 §4.1, eqs. 4.1-4.5).
 *
 *   T_k  = W_L / (W_Th * SMs * SM_clock * lambda_k)                      (4.1)
 *   W_L  = grid size * ceil(block size / warp size)                      (4.2)
 *   W_Th = min(occupancy / Lat_bound, Th_bound)                          (4.3)
 *   Th_bound = 1 / max(W_sz*INS_CUDA/cores, INS_issued/schedulers,
 *                      GMem_bytes/GMem_bw, L1_wavefronts)                (4.4)
 *   GMem_bw  = GMem_clock * bus width/8 * data rate / (SMs * SM_clock)   (4.5)
 *
 * Occupancy is in warps per SM, Lat_bound in cycles per warp, INS_* and
 * GMem_bytes per warp.  An analytic kernel gives them explicitly (seed 004
 * Listing 5).  For a traced launch they are measured: the latency bound is
 * the critical path of the representative warp (its in-order schedule with
 * the GPU's latencies, loops already unrolled in the trace: a chain of
 * dependent loads costs the sum of their latencies), the
 * instruction counts come from that warp's stream (an uncoalesced access is
 * re-issued once per extra 128-byte line), GMem_bytes is the DRAM traffic of
 * the cache simulation per warp, and occupancy follows NVIDIA's rules.
 *
 * A block runs on one SM: eq. 4.1's SMs are those that receive a block,
 * min(SMs, blocks), and eq. 4.3's occupancy is at most the warps of the
 * blocks an SM receives (one block: that block's warps).  Spreading a
 * one-block launch over every SM made it up to SMs times too fast.
 *
 * Eq. 4.4 as published has no L2 term either: it takes GMem_bytes as DRAM
 * bytes, so a kernel whose data stays in the L2 was limited by issue and
 * L1 alone (gpu-l2-cache: 2-4x the measured bandwidth on A100 and H100).
 * It also takes L2_bytes / L2_bw, the sectors the L2 serves per warp
 * over the busy SMs' share of the chip's L2 bandwidth (the host's
 * l2_model_bytes_per_clk: the catalogue's published peak, else GA100's 64
 * B/clk per slice; where the record has neither the term is left out).
 *
 * Eq. 4.4 as published has no on-chip memory term, so an L1-resident
 * kernel (gpu-strides: one block, every load an L1 hit) was limited by
 * issue alone, 0.71 cycles per warp load on H200 where the hardware needs
 * 1.0: the SM's L1 data stage (shared memory's banks as well, from Volta
 * on one array) returns one 128-byte wavefront per cycle.  So eq. 4.4 also
 * takes L1_wavefronts, the data-stage wavefronts of a warp's global and
 * local loads and shared accesses: the host's inst_wavefronts (API 2), the
 * physical bound's per-access rule (bank-conflict degree, at least lanes x
 * size / 128; docs/bounds.md).  Counting one wavefront per distinct
 * 128-byte line instead made strided loads up to 3.4x too slow (H200 float
 * stride 15: 15 lines, measured 4.6 cycles per warp load): lines remain
 * the fallback on an older host or where the host has no figure.
 *
 * The latency bound is the critical path of seed 004 §5.1 from the start
 * node to the end node: a store's edge to the end node carries its memory
 * latency (saxpy2: 92 + 700 + 150 + 24a, the 700 being the load's and the
 * store's 350 cycles each), and the end node's inbound edge the terminated
 * block replacement latency (Table 4.1, 150 cycles; Volkov's thesis) where
 * the grid has more blocks than the SMs hold at once.  The
 * representative profile (the warp alone, GPUMech eq. 13) ended at its last
 * issue (it now waits for its memory accesses too, core/interval, and so
 * ends with the path): a warp of stores looked 43 cycles long on A100, so 2 one-warp
 * blocks per SM were predicted at DRAM peak (gpu-stream init, block 32:
 * 1555 GB/s predicted, 159 measured).  With both terms Little's law holds
 * for the bytes in flight: each warp keeps its loads and stores in flight
 * for a whole latency bound, occupancy x bytes per warp / latency bound
 * per SM and cycle.  Analytic kernels give their latency bound whole, as
 * the paper's Listing 5 does (it already contains both terms).
 *
 * Eq. 4.4 has no term for starting thread blocks, so a grid of small
 * blocks (gpu-small-kernels and gpu-stream at 32 threads) could retire
 * warps as fast as issue and memory allow, 2-6x faster than the hardware,
 * which starts blocks at a constant rate whatever their size.  An SM starts
 * one block at a time, one per block_launch_cycles (catalogue; Volkov's
 * 150-cycle replacement latency read as a per-SM interval, an assumption):
 * the busiest of the busy SMs starts ceil(B / SMs) blocks, so eq. 4.4 also
 * takes that many intervals spread over the SM's share of the warps, and
 * the launch takes at least ceil(B / SMs) x block_launch_cycles.  The
 * replacement latency stays on the critical path: it is the latency one
 * warp slot waits, the interval the SM's rate (docs/models/volkov.md). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include "ws-predictor.h"

static const WsPredictorOption volkov_options[] = {
  { "lambda", WS_PREDICTOR_OPTION_DOUBLE, "1", NULL,
    "Kernel scaling parameter lambda_k of eq. 4.1 (used when the kernel does not give one)" },
  { "block_replacement", WS_PREDICTOR_OPTION_DOUBLE, "150", NULL,
    "Terminated block replacement latency in cycles, added to a traced warp's latency bound "
    "(seed 004 Table 4.1, Maxwell; no figure for later GPUs was found)" },
};

typedef struct {
  double warps_launched; /* W_L */
  double sms_busy;       /* SMs of eq. 4.1 that do work: min(SMs, blocks) */
  double occupancy;      /* warps per SM */
  double latency_bound;  /* cycles per warp */
  double ins_cuda;       /* per warp */
  double ins_issued;     /* per warp */
  double gmem_bytes;     /* per warp */
  double l2_bytes;       /* per warp: what the L2 serves (every sector the L1 does not) */
  double l1_wavefronts;  /* per warp: L1 data-stage wavefronts */
  double blocks;         /* thread blocks launched */
  double lambda;
} VolkovInputs;

/* eq. 4.5: bytes per SM cycle the DRAM delivers. */
static double
gmem_bandwidth_per_sm_cycle (const WsPredictorHost *h, WsPredictorContext *ctx, double sms, double clock_mhz)
{
  double mem_clock = h->gpu_param (ctx, "dram_clock_mhz", 0);
  double bus = h->gpu_param (ctx, "dram_bus_width_bits", 0);
  double rate = h->gpu_param (ctx, "dram_data_rate", 0);
  if (mem_clock > 0 && bus > 0 && rate > 0)
    return mem_clock * 1e6 * (bus / 8.0) * rate / (sms * clock_mhz * 1e6);
  /* A GPU described by its bandwidth alone. */
  double gbs = h->gpu_param (ctx, "dram_bandwidth_gbs", 0);
  return gbs * 1e9 / (sms * clock_mhz * 1e6);
}

static int
analytic_inputs (const WsPredictorHost *h, WsPredictorContext *ctx, VolkovInputs *in, double warp_size)
{
  static const char *required[] = { "cuda_core_instructions", "issued_instructions", "gmem_bytes", "latency_bound" };
  for (unsigned i = 0; i < sizeof required / sizeof required[0]; i++)
    if (isnan (h->analytic_param (ctx, required[i], NAN)))
      {
        char msg[160];
        snprintf (msg, sizeof msg, "the analytic kernel lacks '%s', which the volkov model needs", required[i]);
        h->fail (ctx, msg);
        return -1;
      }
  double grid = h->analytic_param (ctx, "grid_size", 1);
  double block = h->analytic_param (ctx, "block_size", 1);
  in->warps_launched = grid * ceil (block / warp_size); /* eq. 4.2 */
  in->blocks = fmax (1, grid);
  in->sms_busy = fmin (h->gpu_param (ctx, "sms", 1), fmax (1, grid)); /* eq. 4.1: SMs with a block */
  in->ins_cuda = h->analytic_param (ctx, "cuda_core_instructions", 0);
  in->ins_issued = h->analytic_param (ctx, "issued_instructions", 0);
  in->gmem_bytes = h->analytic_param (ctx, "gmem_bytes", 0);
  in->l2_bytes = h->analytic_param (ctx, "l2_bytes", 0);
  in->l1_wavefronts = h->analytic_param (ctx, "l1_wavefronts", 0);
  in->latency_bound = h->analytic_param (ctx, "latency_bound", 1);
  in->occupancy = h->analytic_param (ctx, "occupancy_warps", NAN);
  if (isnan (in->occupancy))
    {
      int warps = 0;
      h->occupancy (ctx, NULL, &warps, NULL);
      if (warps <= 0)
        {
          h->fail (ctx, "the analytic kernel gives no occupancy_warps and its occupancy cannot be computed "
                        "(give registers_per_thread, or occupancy_warps)");
          return -1;
        }
      in->occupancy = warps;
    }
  in->lambda = h->analytic_param (ctx, "lambda", h->option_double (ctx, "lambda"));
  return 0;
}

static int
trace_inputs (const WsPredictorHost *h, WsPredictorContext *ctx, VolkovInputs *in)
{
  uint32_t grid[3], block[3], dyn;
  h->launch_dims (ctx, grid, block, &dyn);
  in->warps_launched = (double) h->n_tbs (ctx) * h->warps_per_tb (ctx); /* eq. 4.2 */
  if (in->warps_launched <= 0)
    {
      h->fail (ctx, "the launch recorded no warps");
      return -1;
    }
  uint64_t tb;
  uint32_t warp;
  h->representative_warp (ctx, &tb, &warp);
  double cycles = 0;
  uint64_t insts = 0;
  uint32_t n_intervals = 0;
  h->representative_profile (ctx, &insts, &cycles, &n_intervals);
  if (insts == 0)
    {
      h->fail (ctx, "the representative warp could not be analysed (see the warnings)");
      return -1;
    }
  WsPredictorWarpCursor *c = h->warp_open (ctx, tb, warp);
  if (c == NULL)
    {
      h->fail (ctx, "cannot read the representative warp's stream");
      return -1;
    }
  WsPredictorWarpRecord r;
  double cuda = 0, issued = 0, wavefronts = 0;
  int host_wavefronts = WS_PREDICTOR_HOST_HAS (h, inst_wavefronts);
  /* The critical path (seed 004 §5.1): in-order issue, one instruction
   * per cycle, each waiting for its source registers; a register is ready
   * its instruction's latency (the host's: pipeline latency, AMAT for
   * memory accesses) after issue, and a store ends its path at the end
   * node its memory latency after issue. */
  double clock = 0, path_end = 0;
  double *ready = NULL;
  uint32_t n_ready = 0;
  while (h->warp_next (c, &r))
    {
      int cls = h->inst_class (ctx, r.static_id);
      double start = clock;
      for (uint32_t k = 0; k < h->inst_n_srcs (ctx, r.static_id); k++)
        {
          uint32_t reg = h->inst_src (ctx, r.static_id, k);
          if (reg < n_ready && ready[reg] + 1 > start)
            start = ready[reg] + 1; /* the host's schedule: issue the cycle after the result */
        }
      double lat = h->inst_latency (ctx, r.static_id);
      if (!isfinite (lat) || lat < 1)
        lat = 1;
      for (uint32_t k = 0; k < h->inst_n_dsts (ctx, r.static_id); k++)
        {
          uint32_t reg = h->inst_dst (ctx, r.static_id, k);
          if (reg >= 65536)
            continue;
          if (reg >= n_ready)
            {
              uint32_t n = reg + 64;
              ready = realloc (ready, n * sizeof *ready);
              for (uint32_t i = n_ready; i < n; i++)
                ready[i] = 0;
              n_ready = n;
            }
          ready[reg] = start + lat;
          path_end = fmax (path_end, start + lat);
        }
      if (cls == WS_PRED_CLASS_ST || cls == WS_PRED_CLASS_ATOM)
        path_end = fmax (path_end, start + lat);
      clock = start + 1;
      path_end = fmax (path_end, clock);
      issued += 1;
      switch (cls)
        {
        case WS_PRED_CLASS_ALU:
        case WS_PRED_CLASS_FP32:
        case WS_PRED_CLASS_BRANCH:
        case WS_PRED_CLASS_WARP: cuda += 1; break;
        case WS_PRED_CLASS_LD:
        case WS_PRED_CLASS_ST:
        case WS_PRED_CLASS_ATOM:
          {
            if (r.lines > 1)
              issued += r.lines - 1; /* re-issues of an uncoalesced access */
            int space = h->inst_space (ctx, r.static_id);
            if ((cls == WS_PRED_CLASS_LD && (space == WS_PRED_SPACE_GLOBAL || space == WS_PRED_SPACE_LOCAL))
                || space == WS_PRED_SPACE_SHARED)
              {
                double wf = host_wavefronts ? h->inst_wavefronts (ctx, r.static_id) : NAN;
                wavefronts += isfinite (wf) ? wf : r.lines > 1 ? r.lines : 1;
              }
            break;
          }
        default: break;
        }
    }
  h->warp_close (c);
  free (ready);
  in->ins_cuda = cuda;
  in->ins_issued = issued;
  in->l1_wavefronts = wavefronts;
  /* The profile's interval model may see more (a dependent chain's
   * stalls); the path adds what it ends before (stores). */
  in->latency_bound = fmax (cycles, path_end);
  h->set_metric (ctx, "critical_path", path_end);
  h->set_metric (ctx, "profile_cycles", cycles);
  in->gmem_bytes = (double) h->launch_counter (ctx, "dram_bytes") / in->warps_launched;
  in->l2_bytes = 32.0 * (double) (h->launch_counter (ctx, "l2_hits") + h->launch_counter (ctx, "dram_sectors"))
                 / in->warps_launched;
  int warps = 0, blocks_per_sm = 0;
  h->occupancy (ctx, &blocks_per_sm, &warps, NULL);
  if (warps <= 0)
    {
      h->fail (ctx, "the launch's blocks do not fit on an SM of this GPU (occupancy 0)");
      return -1;
    }
  /* A grid smaller than one full wave leaves fewer warps resident than the
   * occupancy limit: Little's law needs the warps actually in flight, and
   * warps arrive a block at a time on one SM each.  With B blocks, min(SMs,
   * B) SMs work (eq. 4.1) and the busiest holds ceil(B / SMs) blocks.  (The
   * analytic path keeps the paper's occupancy as given, so Listing 5
   * reproduces exactly; the paper notes its error for small data sizes.) */
  double sms = fmax (1, h->gpu_param (ctx, "sms", 1));
  double blocks = (double) h->n_tbs (ctx);
  in->blocks = blocks;
  in->sms_busy = fmin (sms, blocks);
  double available = ceil (blocks / in->sms_busy) * h->warps_per_tb (ctx);
  in->occupancy = fmin ((double) warps, available);
  /* The end node's replacement edge (seed 004 Table 4.1) costs only where
   * a terminated block is replaced: when the grid has more blocks than the
   * busy SMs hold at once.  A single wave ends with its blocks. */
  double replacement = blocks > in->sms_busy * fmax (1, blocks_per_sm) ? h->option_double (ctx, "block_replacement")
                                                                       : 0;
  in->latency_bound += replacement;
  h->set_metric (ctx, "block_replacement", replacement);
  in->lambda = h->option_double (ctx, "lambda");
  h->set_metric (ctx, "representative_tb", (double) tb);
  h->set_metric (ctx, "representative_warp", warp);
  return 0;
}

static int
volkov_predict (const WsPredictorHost *h, WsPredictorContext *ctx)
{
  double warp_size = h->gpu_param (ctx, "warp_size", 32);
  double sms = h->gpu_param (ctx, "sms", 0);
  double clock_mhz = h->gpu_param (ctx, "core_clock_mhz", 0);
  double cores = h->gpu_param (ctx, "cuda_cores_per_sm", 0);
  double schedulers = h->gpu_param (ctx, "warp_schedulers_per_sm", 0);
  if (sms <= 0 || clock_mhz <= 0 || cores <= 0 || schedulers <= 0)
    {
      h->fail (ctx, "the GPU lacks sms, core_clock_mhz, cuda_cores_per_sm or warp_schedulers_per_sm");
      return -1;
    }

  VolkovInputs in;
  if (h->is_analytic (ctx) ? analytic_inputs (h, ctx, &in, warp_size) : trace_inputs (h, ctx, &in))
    return -1;
  if (in.lambda <= 0 || isnan (in.lambda))
    {
      h->fail (ctx, "lambda must be positive");
      return -1;
    }

  double gmem_bw = gmem_bandwidth_per_sm_cycle (h, ctx, sms, clock_mhz); /* eq. 4.5 */
  if (gmem_bw <= 0)
    {
      h->fail (ctx, "the GPU has no DRAM clock, bus width and data rate (or bandwidth)");
      return -1;
    }
  double t_cores = warp_size * in.ins_cuda / cores;
  double t_issue = in.ins_issued / schedulers;
  double t_mem = in.gmem_bytes / gmem_bw;
  double t_l1 = in.l1_wavefronts; /* one wavefront per SM cycle */
  /* The L2's share of the chip's bandwidth per busy SM (the host's
   * l2_model_bytes_per_clk; none where the record gives no way to it). */
  double l2_per_clk = h->gpu_param (ctx, "l2_model_bytes_per_clk", 0);
  double t_l2 = l2_per_clk > 0 ? in.l2_bytes / (l2_per_clk / in.sms_busy) : 0;
  /* Block starts: the busiest SM starts ceil(B / SMs) blocks, one per
   * block_launch_cycles (0: not modelled), while it retires its share of
   * the warps, W_L / SMs: cycles per warp of that. */
  double launch_interval = h->gpu_param (ctx, "block_launch_cycles", 0);
  double launch_bound = launch_interval > 0 ? ceil (in.blocks / in.sms_busy) * launch_interval : 0;
  double t_launch = launch_bound / (in.warps_launched / in.sms_busy);
  double t_throughput = fmax (fmax (fmax (t_cores, t_l1), fmax (t_issue, t_mem)), fmax (t_l2, t_launch));
  double th_bound = 1.0 / t_throughput; /* eq. 4.4 */
  double lat_rate = in.occupancy / in.latency_bound;
  double w_th = fmin (lat_rate, th_bound); /* eq. 4.3 */
  double clock_hz = clock_mhz * 1e6;
  double seconds = in.warps_launched / (w_th * in.sms_busy * clock_hz * in.lambda); /* eq. 4.1 */
  double cycles = seconds * clock_hz;

  h->set_seconds (ctx, seconds);
  h->set_cycles (ctx, cycles);
  double warp_insts = in.warps_launched * in.ins_issued;
  if (warp_insts > 0)
    {
      h->set_ipc (ctx, warp_insts / cycles);
      /* CPI stack: the SM spends 1/W_Th cycles per warp; issuing takes
       * INS_issued/schedulers of them (BASE), the rest goes to whichever
       * bound sets W_Th.  Divided by the warp instructions the whole GPU
       * retires per such period, the parts sum to cycles / warp instructions. */
      double per_warp = 1.0 / w_th;
      double norm = 1.0 / (in.sms_busy * in.lambda * in.ins_issued);
      double base = fmin (per_warp, t_issue);
      double rest = per_warp - base;
      const char *limiter;
      if (lat_rate < th_bound)
        limiter = "LATENCY";
      else if (t_launch > 0 && t_launch >= t_cores && t_launch >= t_issue && t_launch >= t_l1 && t_launch >= t_l2
               && t_launch >= t_mem)
        limiter = "LAUNCH";
      else if (t_mem >= t_cores && t_mem >= t_issue && t_mem >= t_l1 && t_mem >= t_l2)
        limiter = "DRAM";
      else if (t_l2 >= t_cores && t_l2 >= t_issue && t_l2 >= t_l1)
        limiter = "L2";
      else if (t_l1 >= t_cores && t_l1 >= t_issue)
        limiter = "L1";
      else if (t_cores >= t_issue)
        limiter = "COMPUTE";
      else
        limiter = "BASE";
      h->add_cpi (ctx, "BASE", base * norm);
      if (strcmp (limiter, "BASE") != 0)
        h->add_cpi (ctx, limiter, rest * norm);
      h->set_metric (ctx, "limiter_is_latency", lat_rate < th_bound);
    }
  h->set_metric (ctx, "warps_launched", in.warps_launched);
  h->set_metric (ctx, "sms_busy", in.sms_busy);
  h->set_metric (ctx, "warp_throughput_per_cycle", w_th);
  h->set_metric (ctx, "throughput_bound", th_bound);
  h->set_metric (ctx, "latency_rate", lat_rate);
  h->set_metric (ctx, "gmem_bytes_per_cycle_per_sm", gmem_bw);
  h->set_metric (ctx, "occupancy_warps", in.occupancy);
  h->set_metric (ctx, "lambda", in.lambda);
  h->set_metric (ctx, "latency_bound", in.latency_bound);
  h->set_metric (ctx, "cuda_core_instructions", in.ins_cuda);
  h->set_metric (ctx, "issued_instructions", in.ins_issued);
  h->set_metric (ctx, "gmem_bytes", in.gmem_bytes);
  h->set_metric (ctx, "l2_bytes", in.l2_bytes);
  h->set_metric (ctx, "l1_wavefronts", in.l1_wavefronts);
  h->set_metric (ctx, "block_launch_bound", launch_bound);
  return 0;
}

/* The stack: BASE and the limiter of eq. 4.5 (the term that bounds the
 * throughput). */
static const WsPredictorCpiCategory volkov_cpi[] = {
  { "BASE", NULL, "the issue-limited part of the time" },
  { "LATENCY", "#8e6c8a", "the rest, when latency (too few warps in flight) limits" },
  { "COMPUTE", "#3b7dd8", "the rest, when the CUDA cores limit" },
  { "L1", NULL, "the rest, when the L1 data path limits" },
  { "L2", NULL, "the rest, when L2 bandwidth limits" },
  { "DRAM", NULL, "the rest, when DRAM bandwidth limits" },
  { "LAUNCH", "#999999", "the rest, when the SMs' rate of starting thread blocks limits" },
};

static const WsPredictorDescriptor volkov_descriptor = {
  .abi_version = WS_PREDICTOR_ABI_VERSION,
  .api_version = WS_PREDICTOR_API_VERSION,
  .name = "volkov",
  .version = "1.0",
  .description = "Little's law model of Volkov as in MERPSYS (seed 004 eqs. 4.1-4.5)",
  .n_options = sizeof volkov_options / sizeof volkov_options[0],
  .options = volkov_options,
  .supports_trace = 1,
  .supports_analytic = 1,
  .predict = volkov_predict,
  /* No global state: everything lives in the call and its context. */
  .flags = WS_PREDICTOR_FLAG_THREAD_SAFE,
  .n_cpi_categories = sizeof volkov_cpi / sizeof volkov_cpi[0],
  .cpi_categories = volkov_cpi,
};

WS_PREDICTOR_EXPORT const WsPredictorDescriptor *ws_predictor_query (void);

const WsPredictorDescriptor *
ws_predictor_query (void)
{
  return &volkov_descriptor;
}
