/* gpumech: interval analysis of GPU kernels, GPUMech (seed 001 ch. 4).
 *
 * The host gives the single-warp model (§4.3): per-instruction latencies
 * (AMAT for memory instructions, §4.5), the representative warp chosen by
 * k-means on the eq. 14/15 features and its interval profile (eq. 11, built
 * by the interval algorithm of eq. 13).  This plugin is the multi-warp model
 * (§4.4) and the CPI stack (§4.7):
 *
 *   CPI_final = CPI_multithreading + CPI_rc_contention                  (12)
 *   CPI_multithreading: eqs. 16-18, RR eqs. 19-20, GTO eqs. 21-25
 *   CPI_rc_contention:  eq. 26 of MSHR delays (27-29) and DRAM M/D/1 (30-32)
 *
 * and the other models of Table 8: Naive_Interval (eq. 10) and the Markov
 * chain of Chen & Aamodt (§2.4.2), solved with GSL.
 *
 * Units: the seed's "core" issues one warp instruction per cycle.  A GPU SM
 * with several warp schedulers is modelled as that many such cores sharing
 * the SM's warps; the contention terms are per SM (the MSHRs are the SM's)
 * and per GPU (DRAM).  Every CPI here is cycles per warp instruction of one
 * SM unless its name says otherwise.  docs/models/gpumech.md explains every
 * decision the seed leaves open. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>

#include "ws-predictor.h"

typedef enum { VARIANT_NAIVE, VARIANT_MARKOV, VARIANT_MT, VARIANT_MT_MSHR, VARIANT_FULL, N_VARIANTS } Variant;
typedef enum { SCHED_RR, SCHED_GTO } Scheduler;

static const char *const variant_names[N_VARIANTS] = { "naive", "markov", "mt", "mt_mshr", "full" };

/* Compute pipes whose issue rate can be below the seed's 1.0 (eqs. 16, 25,
 * 32 write "1.0 (issue rate)"): §4.4.2 assumes a warp's FP units are "at
 * least 32 (or 16 if a warp takes two cycles to issue)", i.e. a pipe with
 * 16 lanes per scheduler accepts one warp instruction every 2 cycles: the
 * catalogue's initiation interval, warp_size / lanes per scheduler. */
enum { PIPE_FP32, PIPE_INT, PIPE_FP64, PIPE_SFU, N_PIPES };
static const char *const pipe_params[N_PIPES] = {
  "pipes.fp32.initiation_interval",
  "pipes.int.initiation_interval",
  "pipes.fp64.initiation_interval",
  "pipes.sfu.initiation_interval",
};

/* Table 9, and the time an SM waits to start its next block (LAUNCH) */
enum { CAT_BASE, CAT_DEP, CAT_L1, CAT_L2, CAT_DRAM, CAT_MSHR, CAT_QUEUE, CAT_LAUNCH, N_CATS };
static const char *const cat_names[N_CATS] = { "BASE", "DEP", "L1", "L2", "DRAM", "MSHR", "QUEUE", "LAUNCH" };

static const WsPredictorOption gpumech_options[] = {
  { "variant", WS_PREDICTOR_OPTION_CHOICE, "full", "naive|markov|mt|mt_mshr|full",
    "Model of seed 001 Table 8: naive (eq. 10), markov (Chen & Aamodt), mt (multithreading, eqs. 16-25), "
    "mt_mshr (+ MSHR contention, eqs. 27-29), full (+ DRAM bandwidth, eqs. 30-32: GPUMech)" },
  { "scheduler", WS_PREDICTOR_OPTION_CHOICE, "rr", "rr|gto",
    "Warp scheduling policy: round-robin (eqs. 19-20) or greedy-then-oldest (eqs. 21-25)" },
};

/* One interval of the representative warp (eq. 11) with what the
 * contention models need. */
typedef struct {
  double insts;     /* #interval_insts_i */
  double stall;     /* stall_cycles_i */
  double mem_insts; /* #warp_mem_insts_i (eq. 29): expected instructions that miss the L1 */
  double mem_waits; /* probability that at least one of them misses: the interval's MSHR waits (eq. 29) */
  double mem_reqs;  /* #warp_mem_reqs_i (eq. 27): expected L1-missing requests (MSHR entries) */
  double dram_reqs; /* the warp's requests that reach DRAM (eqs. 30-32), loads and stores */
} Interval;

typedef struct {
  Interval *iv;
  uint32_t n;
  double insts;             /* sum of #interval_insts_i */
  double cycles;            /* sum of (#interval_insts_i / 1.0 + stall_cycles_i) */
  double n_stalls;          /* intervals with stall cycles (Markov chain's stall events) */
  double stall_cat[N_CATS]; /* the representative warp's stall cycles by Table 9 category */
  /* the machine */
  double schedulers;          /* warp schedulers per SM, each a seed "core" issuing 1 instruction/cycle */
  double mshrs;               /* #MSHR per SM */
  double avg_miss_latency;    /* eq. 28 */
  double miss_l2, miss_dram;  /* the representative warp's L1-miss sectors served by L2 / DRAM */
  double dram_service;        /* s of eq. 31, cycles per 32-byte DRAM request */
  double pipe_insts[N_PIPES]; /* the representative warp's instructions per compute pipe */
  double l1_wavefronts;       /* the representative warp's L1 data-stage wavefronts (global loads, shared) */
  double pipe_ii[N_PIPES];    /* the pipe's initiation interval per scheduler (catalogue pipes.*) */
} Profile;

/* What one evaluation of the multi-warp model gives, for reporting. */
typedef struct {
  double warps; /* #warps of the SM */
  double active_schedulers;
  double warps_per_scheduler; /* #warps of eqs. 16-25 */
  double issue_prob;          /* eq. 18 */
  double nonoverlapped;       /* eq. 17, per scheduler */
  double cpi_eq16;            /* eq. 16 per scheduler, before the issue-rate bound */
  double cpi_pipe;            /* per scheduler: the busiest compute pipe's cycles per instruction */
  double cpi_l1;              /* per SM: the L1 data stage's cycles per instruction */
  double markov_p, markov_m, markov_ipc;
  double cpi_multithreading;            /* per SM */
  double cpi_mshr_warp, cpi_queue_warp; /* eq. 26, split: per instruction of the representative warp */
  double cpi_mshr, cpi_queue;           /* the same per instruction of the SM */
  double cpi;                           /* eq. 12 per SM */
} Eval;

/* ---- multithreading (§4.4.1) ---------------------------------------------- */

/* Eq. 18 (= eq. 14 of the representative warp): issue probability with an issue rate of 1. */
static double
issue_probability (const Profile *p)
{
  return p->cycles > 0 ? p->insts / p->cycles : 0;
}

/* Eq. 10: IPC_core = IPC_single-warp x #warps, as CPI of one scheduler;
 * a scheduler never issues more than one instruction per cycle. */
static double
naive_cpi (const Profile *p, double warps)
{
  double ipc = issue_probability (p) * warps;
  return ipc >= 1 ? 1 : 1 / ipc;
}

/* Eq. 19: #waiting_slots_i = #interval_insts_i - 1. */
static double
waiting_slots (const Interval *iv)
{
  return iv->insts > 1 ? iv->insts - 1 : 0;
}

/* Eq. 20: RR non-overlapped instructions = issue_prob x (#warps - 1) x #waiting_slots_i. */
static double
rr_nonoverlapped (const Interval *iv, double issue_prob, double warps)
{
  return issue_prob * (warps - 1) * waiting_slots (iv);
}

/* Eq. 22: avg_interval_insts = sum of #interval_insts_i / #intervals. */
static double
avg_interval_insts (const Profile *p)
{
  return p->n > 0 ? p->insts / p->n : 0;
}

/* Eq. 24: issue_prob_in_stall_i = min(issue_prob x stall_cycles_i, 1). */
static double
issue_prob_in_stall (const Interval *iv, double issue_prob)
{
  return fmin (issue_prob * iv->stall, 1);
}

/* Eq. 23: #issue_warps_in_stall_i = issue_prob_in_stall_i x (#warps - 1). */
static double
issue_warps_in_stall (const Interval *iv, double issue_prob, double warps)
{
  return issue_prob_in_stall (iv, issue_prob) * (warps - 1);
}

/* Eq. 21: #issue_insts_in_stall_i = avg_interval_insts x #issue_warps_in_stall_i. */
static double
issue_insts_in_stall (const Interval *iv, double avg_insts, double issue_prob, double warps)
{
  return avg_insts * issue_warps_in_stall (iv, issue_prob, warps);
}

/* Eqs. 25 and 17 for GTO: the non-overlapped instructions of the
 * representative warp's run, max(sum of #issue_insts_in_stall_i - (sum of
 * stall_cycles_i + delay) x 1.0, 0), delay being its queueing cycles
 * (eq. 26).
 *
 * Not the seed's per-interval max(#issue_insts_in_stall_i - stall_cycles_i,
 * 0) summed (eq. 25, then eq. 17).  That sum lets an interval whose stall
 * the other warps' instructions do not fill leave the scheduler idle even
 * when, over the run, those warps issue more instructions than the
 * representative warp stalls: eq. 24 gives each of them at most one
 * average interval per stall, and the instructions left over from a short
 * stall are charged as lost cycles.  They are not lost: GTO issues
 * whenever any warp is ready, so they are issued in the representative
 * warp's next stall, and over its run the scheduler is idle only for the
 * stall cycles the other warps' instructions cannot fill.  The seed's
 * reason to keep them apart (Figure 24(b): an older warp issues while the
 * representative warp is ready) delays that warp, not the scheduler, which
 * is busy all that time; eq. 16 takes the representative warp's time as
 * every warp's, so the scheduler's is what it must give.  The queueing
 * delays of eq. 26 lengthen the warp's memory stalls and are filled the
 * same way.  Per interval, an issue-bound launch (scan on the GPUMech
 * baseline: 32 warps, 2.4 instructions per interval) came out 13 % above
 * its issue rate, where the simulator's GTO runs it at 1.5 %
 * (docs/models/gpumech.md). */
static double
gto_nonoverlapped (const Profile *p, double issue_prob, double warps, double delay)
{
  double avg = avg_interval_insts (p), issued = 0, stall = delay;
  for (uint32_t i = 0; i < p->n; i++)
    {
      issued += issue_insts_in_stall (&p->iv[i], avg, issue_prob, warps);
      stall += p->iv[i].stall;
    }
  return fmax (issued - stall * 1.0, 0);
}

/* Eq. 17: #total_nonoverlapped_insts = sum over intervals of
 * #nonoverlapped_insts_i (RR), or GTO's over the run (above). */
static double
total_nonoverlapped (const Profile *p, Scheduler sched, double warps, double delay)
{
  double ip = issue_probability (p);
  if (sched == SCHED_GTO)
    return gto_nonoverlapped (p, ip, warps, delay);
  double sum = 0;
  for (uint32_t i = 0; i < p->n; i++)
    sum += rr_nonoverlapped (&p->iv[i], ip, warps);
  return sum;
}

/* Eq. 16: CPI_multithreading = (total_cycles + #total_nonoverlapped / 1.0) / (#warps x sum of #interval_insts_i). */
static double
cpi_multithreading_eq16 (const Profile *p, double nonoverlapped, double warps)
{
  return (p->cycles + nonoverlapped / 1.0) / (warps * p->insts);
}

/* Chen & Aamodt's Markov chain (seed 001 §2.4.2) for one scheduler with n
 * warps: a warp is active or suspended; the warp that issues in a cycle is
 * suspended with probability p, a suspended warp wakes with probability 1/M.
 * The chain's state is the number of suspended warps; its stationary
 * distribution (GSL LU solve) gives IPC = 1 - P(all warps suspended). */
static int
markov_chain_ipc (double p, double m, int n, double *ipc)
{
  if (p <= 0)
    {
      *ipc = 1;
      return 0;
    }
  double q = 1 / fmax (m, 1);
  int size = n + 1;
  gsl_matrix *a = gsl_matrix_calloc (size, size);
  gsl_vector *b = gsl_vector_calloc (size);
  gsl_vector *x = gsl_vector_alloc (size);
  gsl_permutation *perm = gsl_permutation_alloc (size);
  double *binom = malloc (sizeof (double) * size);
  for (int k = 0; k <= n; k++)
    {
      /* r of the k suspended warps wake: binomial(k, q) */
      binom[0] = pow (1 - q, k);
      for (int r = 1; r <= k; r++)
        binom[r] = q >= 1 ? (r == k ? 1 : 0) : binom[r - 1] * (double) (k - r + 1) / r * q / (1 - q);
      if (q >= 1)
        binom[0] = k == 0 ? 1 : 0;
      for (int r = 0; r <= k; r++)
        {
          if (binom[r] == 0)
            continue;
          int next = k - r;
          if (k < n)
            {
              /* T[k][next + 1] += binom p; T[k][next] += binom (1 - p); stored transposed */
              *gsl_matrix_ptr (a, next + 1, k) += binom[r] * p;
              *gsl_matrix_ptr (a, next, k) += binom[r] * (1 - p);
            }
          else
            *gsl_matrix_ptr (a, next, k) += binom[r];
        }
    }
  /* (T^T - I) pi = 0 with the last equation replaced by sum(pi) = 1 */
  for (int i = 0; i < size; i++)
    *gsl_matrix_ptr (a, i, i) -= 1;
  for (int j = 0; j < size; j++)
    gsl_matrix_set (a, size - 1, j, 1);
  gsl_vector_set (b, size - 1, 1);
  int signum = 0;
  gsl_error_handler_t *old = gsl_set_error_handler_off ();
  int rc = gsl_linalg_LU_decomp (a, perm, &signum);
  if (rc == 0)
    rc = gsl_linalg_LU_solve (a, perm, b, x);
  gsl_set_error_handler (old);
  if (rc == 0)
    *ipc = 1 - gsl_vector_get (x, n);
  free (binom);
  gsl_permutation_free (perm);
  gsl_vector_free (x);
  gsl_vector_free (b);
  gsl_matrix_free (a);
  return rc == 0 && isfinite (*ipc) ? 0 : -1;
}

/* ---- resource contention (§4.4.2) ---------------------------------------- */

/* Eq. 27: #core_reqs_i = #warp_mem_reqs_i x #warps. */
static double
core_reqs (double warp_reqs, double warps)
{
  return warp_reqs * warps;
}

/* Eq. 28: exp_queuing_delay_i = (sum over j = 1..#core_reqs_i of avg_miss_latency x ceil(j / #MSHR))
 * / #core_reqs_i - avg_miss_latency.  The sum is taken in closed form
 * (#MSHR x q(q+1)/2 + r(q+1) with q = floor(R / #MSHR), r = R - q #MSHR), which
 * also interpolates linearly between integers for an expected (real) R. */
static double
exp_queuing_delay (double reqs, double mshrs, double avg_miss_latency)
{
  if (reqs <= 0 || mshrs <= 0)
    return 0;
  double q = floor (reqs / mshrs), r = reqs - q * mshrs;
  double sum = mshrs * q * (q + 1) / 2 + r * (q + 1);
  return avg_miss_latency * sum / reqs - avg_miss_latency;
}

/* Eq. 29: MSHR_delay_i = 0 if #core_reqs_i <= #MSHR, else exp_queuing_delay_i x #warp_mem_insts_i.
 *
 * The seed counts the delay once per memory instruction, not per request,
 * "since a divergent memory instruction has multiple memory requests issued
 * concurrently, thereby overlapping the queuing delay".  The memory
 * instructions of one interval are issued the same way: an interval ends at
 * the first stall, so its loads go out back to back, before any of their
 * data is waited for, and their queuing overlaps like the requests of one
 * instruction.  The delay is therefore counted once per interval that
 * misses (the probability that at least one of its loads misses the L1),
 * which is the seed's count when an interval holds one load, as in its
 * traces.  With the loads issued early (docs/trace-format.md, lowering rule
 * 3) an interval holds a whole unrolled group, and the per-instruction
 * count charged the group's queue k times over: the memory-bound roofline
 * points fell from -33 % to -42..-57 %. */
static double
mshr_delay (const Interval *iv, const Profile *p, double warps)
{
  double reqs = core_reqs (iv->mem_reqs, warps);
  if (reqs <= p->mshrs)
    return 0;
  return exp_queuing_delay (reqs, p->mshrs, p->avg_miss_latency) * iv->mem_waits;
}

/* Eq. 32: lambda_i = #core_reqs_i x #cores / (#interval_insts_i / 1.0 + stall_cycles_i). */
static double
arrival_rate (const Interval *iv, double warps, double cores)
{
  double cycles = iv->insts / 1.0 + iv->stall;
  return cycles > 0 ? core_reqs (iv->dram_reqs, warps) * cores / cycles : 0;
}

/* Eq. 31: rho = lambda_i s, s = freq_core x L / B. */
static double
utilization (double lambda, double s)
{
  return lambda * s;
}

/* Eq. 30: Bandwidth_delay_i = min(lambda s^2 / (2 (1 - rho)), s x #core_reqs_i x #cores / 2),
 * for rho < 1.  At rho >= 1 (eq. 31) the requests of the interval arrive
 * faster than the bus serves them: the interval is bandwidth bound and
 * lasts at least its bus time s x #core_reqs_i x #cores, the interval's
 * cycles of eq. 32 plus this delay.  The seed's cap alone (half that bus
 * time) let an interval move up to twice its bytes per bus cycle: vectoradd
 * on a V100 came out at 1.3x the DRAM peak. */
static double
bandwidth_delay (const Interval *iv, const Profile *p, double warps, double cores)
{
  double reqs = core_reqs (iv->dram_reqs, warps);
  if (reqs <= 0 || p->dram_service <= 0)
    return 0;
  double s = p->dram_service;
  double lambda = arrival_rate (iv, warps, cores);
  double rho = utilization (lambda, s);
  double bus = s * reqs * cores;
  double cap = bus / 2;
  if (rho >= 1)
    return fmax (cap, bus - (iv->insts / 1.0 + iv->stall));
  return fmin (lambda * s * s / (2 * (1 - rho)), cap);
}

/* Eq. 26: CPI_rc_contention = sum of (MSHR_delay_i + Bandwidth_delay_i) / sum of #interval_insts_i,
 * returned as its two parts.
 *
 * Not the seed's sum: within one interval the two delays are the same
 * wait seen twice.  A read holds its MSHR until the DRAM returns it, so
 * when the bus is the bottleneck the MSHRs drain at the bus rate and the
 * requests queued for them wait for the bus (the seed itself notes that
 * the MSHRs cap the reads and so bound the DRAM queue, §4.4.2); when the
 * MSHRs are the bottleneck the bus is idle part of the time.  An interval
 * is therefore delayed by the larger of the two, charged to its category
 * (MSHR or QUEUE).  The sum charged an L2-missing stream with 64 loads
 * per warp in flight (gpu-l2-cache past the L2, A100) its bus time plus
 * its MSHR queue: 1365 GB/s where the DRAM delivers 1869. */
static void
cpi_rc_contention (const Profile *p, double warps, double cores, int with_mshr, int with_band, double *cpi_mshr,
                   double *cpi_queue)
{
  double m = 0, b = 0;
  for (uint32_t i = 0; i < p->n; i++)
    {
      double mi = with_mshr ? mshr_delay (&p->iv[i], p, warps) : 0;
      double bi = with_band ? bandwidth_delay (&p->iv[i], p, warps, cores) : 0;
      if (mi >= bi)
        m += mi;
      else
        b += bi;
    }
  *cpi_mshr = m / p->insts;
  *cpi_queue = b / p->insts;
}

/* Eq. 12 for one SM holding `warps` warps, `cores` SMs busy on the GPU. */
static int
evaluate (const Profile *p, Variant v, Scheduler sched, double warps, double cores, Eval *e)
{
  memset (e, 0, sizeof *e);
  e->warps = warps;
  /* Schedulers without a warp issue nothing. */
  e->active_schedulers = fmax (1, fmin (p->schedulers, warps));
  e->warps_per_scheduler = warps / e->active_schedulers;
  e->issue_prob = issue_probability (p);
  cpi_rc_contention (p, warps, cores, v == VARIANT_MT_MSHR || v == VARIANT_FULL, v == VARIANT_FULL, &e->cpi_mshr_warp,
                     &e->cpi_queue_warp);
  e->nonoverlapped = total_nonoverlapped (p, sched, e->warps_per_scheduler,
                                          (e->cpi_mshr_warp + e->cpi_queue_warp) * p->insts);
  e->cpi_eq16 = cpi_multithreading_eq16 (p, e->nonoverlapped, e->warps_per_scheduler);
  e->markov_p = p->insts > 0 ? p->n_stalls / p->insts : 0;
  e->markov_m = p->n_stalls > 0 ? (p->cycles - p->insts) / p->n_stalls : 0;
  double cpi_sched;
  switch (v)
    {
    case VARIANT_NAIVE: cpi_sched = naive_cpi (p, e->warps_per_scheduler); break;
    case VARIANT_MARKOV:
      {
        int n = (int) lround (e->warps_per_scheduler);
        if (markov_chain_ipc (e->markov_p, e->markov_m, n < 1 ? 1 : n, &e->markov_ipc) != 0 || e->markov_ipc <= 0)
          return -1;
        cpi_sched = 1 / e->markov_ipc;
        break;
      }
    default: cpi_sched = e->cpi_eq16; break;
    }
  /* What the SM cannot beat whatever its warps wait for: one instruction
   * per cycle per scheduler (eq. 16 leaves this bound implicit), and the
   * issue rate of each pipe: eq. 16's issue rate 1.0 holds per pipe only
   * if the pipe takes a warp instruction every cycle; a scheduler cannot
   * retire its warps' FP32 (or INT, FP64, SFU) instructions faster than
   * one per initiation interval, whichever scheduling model (Table 8) is
   * used. */
  for (int c = 0; c < N_PIPES; c++)
    if (p->insts > 0)
      e->cpi_pipe = fmax (e->cpi_pipe, p->pipe_insts[c] * p->pipe_ii[c] / p->insts);
  /* The SM's L1 data stage (and shared memory's banks, one array from
   * Volta on) returns one wavefront per cycle for all its schedulers, so
   * the SM retires its warps' instructions no faster than their wavefronts
   * allow.  Eqs. 12-26 have no such term: an L1-resident kernel
   * (gpu-strides) came out at 0.73 cycles per warp load on H200, where the
   * hardware needs 1.0 (docs/bounds.md). */
  e->cpi_l1 = p->insts > 0 ? p->l1_wavefronts / p->insts : 0;
  double floor_cpi = fmax (fmax (1.0, e->cpi_pipe) / e->active_schedulers, e->cpi_l1);
  double latency_cpi = cpi_sched / e->active_schedulers;
  e->cpi_multithreading = fmax (latency_cpi, floor_cpi);
  /* Eq. 26 counts the representative warp's extra cycles per instruction of
   * that warp; eq. 16 turns the warp's time into the SM's CPI by dividing by
   * #warps x its instructions, and the queueing delays lengthen that same
   * time, so they are brought to the SM's CPI the same way.
   *
   * Not the seed's eq. 12 as written, which adds them to CPI_multithreading
   * after the issue bound: a queueing delay lengthens the representative
   * warp's memory stalls, and while the scheduler still has other warps'
   * instructions to issue those stalls cost the SM nothing, as eq. 16's
   * stall cycles do not.  The delays are therefore added to the warp's
   * latency-bound CPI and the throughput bounds apply to the sum; what the
   * bounds hide is charged to neither MSHR nor QUEUE.  Adding them after
   * the bound charged an issue-bound launch its full DRAM queue on top
   * (scan under GTO on the GPUMech baseline, docs/simulator.md). */
  double mshr = e->cpi_mshr_warp / warps, queue = e->cpi_queue_warp / warps;
  e->cpi = fmax (latency_cpi + mshr + queue, floor_cpi); /* eq. 12 */
  double shown = e->cpi - e->cpi_multithreading;
  e->cpi_mshr = mshr + queue > 0 ? shown * mshr / (mshr + queue) : 0;
  e->cpi_queue = mshr + queue > 0 ? shown * queue / (mshr + queue) : 0;
  return 0;
}

/* §4.7: the representative warp's CPI stack shrunk by CPI_multithreading /
 * CPI_repres.warp, plus the MSHR and QUEUE categories. */
static void
cpi_stack (const Profile *p, const Eval *e, double stack[N_CATS])
{
  double cpi_rep = p->cycles / p->insts;
  double shrink = e->cpi_multithreading / cpi_rep;
  stack[CAT_BASE] = p->insts / 1.0 / p->insts * shrink;
  for (int c = CAT_DEP; c <= CAT_DRAM; c++)
    stack[c] = p->stall_cat[c] / p->insts * shrink;
  stack[CAT_MSHR] = e->cpi_mshr;
  stack[CAT_QUEUE] = e->cpi_queue;
}

/* ---- blocks on SMs ---------------------------------------------------------- */

/* The multi-warp model at one residency: an SM holding k blocks. */
typedef struct {
  Eval e;
  double stack[N_CATS]; /* cpi_stack of e: adds up to e.cpi */
} Residency;

typedef struct {
  double makespan;   /* cycles until the last SM has finished its last block */
  double throughput; /* the same without the blocks' critical warps (work alone) */
  double critical;   /* the longest critical_warp_cycles of a block */
} Dispatch;

typedef struct {
  uint64_t tb;
  double work;     /* warp instructions not yet issued */
  double start_at; /* when the SM starts the block (block_launch_cycles after its previous start) */
  double done_at;  /* start + the block's critical_warp_cycles */
  int busy, working;
} Slot;

typedef struct {
  double next_start;    /* the SM starts its next block no sooner (block_launch_cycles) */
  double now;           /* time up to which the SM's slots are advanced */
  double next;          /* its next event: a block's work or critical warp done */
  double stack[N_CATS]; /* [0, now] by Table 9 category */
  double work_time;     /* time with blocks working, summed (throughput) */
} SmState;

static int
compare_u32 (const void *a, const void *b)
{
  uint32_t x = *(const uint32_t *) a, y = *(const uint32_t *) b;
  return x < y ? -1 : x > y;
}

/* The SM's next event: the working blocks share its issue throughput
 * equally, so the one with the least work left finishes first. */
static double
sm_next_event (const SmState *sm, const Slot *slots, int per_sm, const Residency *res)
{
  int n = 0;
  double least = INFINITY, next = INFINITY;
  double eps = 1e-9 * fmax (1, sm->now);
  for (int b = 0; b < per_sm; b++)
    if (slots[b].busy && slots[b].start_at > sm->now + eps)
      next = fmin (next, slots[b].start_at);
    else if (slots[b].busy)
      {
        if (slots[b].working)
          {
            n++;
            least = fmin (least, slots[b].work);
          }
        else
          next = fmin (next, slots[b].done_at);
      }
  if (n > 0)
    next = fmin (next, sm->now + least * res[n].e.cpi * n);
  return next;
}

/* A block in a slot counts from its start on (sm_next_event stops at every
 * start, so none starts inside an advance). */
static int
slot_started (const SmState *sm, const Slot *slot)
{
  return slot->busy && slot->start_at <= sm->now + 1e-9 * fmax (1, sm->now);
}

static void
sm_advance (SmState *sm, Slot *slots, int per_sm, const Residency *res, const double alone[N_CATS], double t)
{
  double dt = t - sm->now;
  int n = 0, started = 0;
  for (int b = 0; b < per_sm; b++)
    if (slot_started (sm, &slots[b]))
      {
        started++;
        n += slots[b].working;
      }
  if (dt > 0 && n > 0)
    {
      /* eq. 12 at residency n: the SM retires 1 / CPI instructions per cycle */
      for (int b = 0; b < per_sm; b++)
        if (slot_started (sm, &slots[b]) && slots[b].working)
          slots[b].work -= dt / (res[n].e.cpi * n);
      for (int c = 0; c < N_CATS; c++)
        sm->stack[c] += dt * res[n].stack[c] / res[n].e.cpi;
      sm->work_time += dt;
    }
  else if (dt > 0 && started > 0)
    for (int c = 0; c < N_CATS; c++)
      sm->stack[c] += dt * alone[c];
  else if (dt > 0)
    sm->stack[CAT_LAUNCH] += dt; /* no block started yet: waiting to start one */
  sm->now = t;
}

/* Fills @slot of SM @sm at time @t with the next block (from *@next_tb on)
 * that has any work; leaves it empty when none is left.  The SM starts one
 * block at a time and a start takes @launch cycles: the block starts @launch
 * cycles after the SM's previous start at the earliest, and, @replacing a
 * block that terminated at @t, @launch cycles after @t (Volkov's figure is
 * that replacement latency; the launch's first fill starts at @t). */
static void
dispatch_next (const WsPredictorHost *h, WsPredictorContext *ctx, uint64_t *next_tb, SmState *sm, Slot *slot, double t,
               int replacing, double launch, Dispatch *d)
{
  uint64_t n_tbs = h->n_tbs (ctx);
  while (*next_tb < n_tbs)
    {
      uint64_t tb = (*next_tb)++;
      double work = (double) h->tb_counter (ctx, tb, "warp_instructions");
      double crit = (double) h->tb_counter (ctx, tb, "critical_warp_cycles");
      if (work <= 0 && crit <= 0)
        continue;
      d->critical = fmax (d->critical, crit);
      double start = fmax (replacing ? t + launch : t, sm->next_start);
      sm->next_start = start + launch;
      *slot = (Slot){ tb, work, start, start + crit, 1, work > 0 };
      return;
    }
}

/* Thread blocks on SMs, as the hardware runs them: a block runs on one SM;
 * blocks are dispatched in id order, one per SM in turn while every SM has
 * room (up to the occupancy's blocks per SM), then each into the slot an
 * earlier block frees; the launch ends when the last SM has finished.
 * A block's warp instructions are the host's per-TB counter; the SM issues
 * them at eq. 12's CPI for the number of blocks working on it, shared
 * equally between them; a block ends once its work is done and no sooner
 * than its longest warp alone would (its critical_warp_cycles: eq. 13's
 * in-order issue with the host's latencies).  Seed 001 §4.4 evaluates one
 * SM with the representative warp and assumes similar warps; with uniform
 * blocks this gives its figure wave by wave (every SM holds the same blocks,
 * which finish together), and with imbalanced launches the time the seed
 * leaves out: SMs idle while a few long blocks finish (bfs, sssp,
 * mri_gridding).  An SM starts one block at a time, @launch cycles
 * (block_launch_cycles; 0: at once) after its previous start, in the first
 * wave too, and a replacing block @launch cycles after the block it
 * replaces ended (dispatch_next): a block is resident, holding its slot,
 * from its dispatch and works from its start.  Writes the stack of the SM
 * that finishes last, which adds up to the makespan. */
static void
dispatch_blocks (const WsPredictorHost *h, WsPredictorContext *ctx, uint32_t sms, int per_sm, double launch,
                 const Residency *res, const double alone[N_CATS], Dispatch *d, double stack[N_CATS])
{
  uint64_t next_tb = 0;
  Slot *slots = calloc ((size_t) sms * per_sm, sizeof (Slot));
  SmState *sm = calloc (sms, sizeof (SmState));
  uint32_t *freed = malloc (sizeof (uint32_t) * sms * per_sm);
  memset (d, 0, sizeof *d);
  for (int b = 0; b < per_sm; b++)
    for (uint32_t m = 0; m < sms; m++)
      dispatch_next (h, ctx, &next_tb, &sm[m], &slots[(size_t) m * per_sm + b], 0.0, 0, launch, d);
  for (uint32_t m = 0; m < sms; m++)
    sm[m].next = sm_next_event (&sm[m], &slots[(size_t) m * per_sm], per_sm, res);
  for (;;)
    {
      double t = INFINITY;
      for (uint32_t m = 0; m < sms; m++)
        t = fmin (t, sm[m].next);
      if (!isfinite (t))
        break;
      /* Every SM with an event now (within rounding) frees its slots
       * first; the freed slots then take the next blocks slot by slot
       * across SMs, as at the start. */
      double eps = 1e-9 * fmax (1, t);
      uint32_t n_freed = 0;
      for (uint32_t m = 0; m < sms; m++)
        {
          if (sm[m].next > t + eps)
            continue;
          Slot *sl = &slots[(size_t) m * per_sm];
          sm_advance (&sm[m], sl, per_sm, res, alone, t);
          for (int b = 0; b < per_sm; b++)
            if (sl[b].busy && sl[b].working && sl[b].work <= eps)
              sl[b].working = 0;
          for (int b = 0; b < per_sm; b++)
            if (sl[b].busy && !sl[b].working && sl[b].done_at <= t + eps)
              {
                sl[b].busy = 0;
                freed[n_freed++] = (uint32_t) b * sms + m;
                d->makespan = fmax (d->makespan, t);
              }
        }
      /* slot-major order, as the initial dispatch */
      qsort (freed, n_freed, sizeof *freed, compare_u32);
      for (uint32_t i = 0; i < n_freed; i++)
        {
          uint32_t b = freed[i] / sms, m = freed[i] % sms;
          dispatch_next (h, ctx, &next_tb, &sm[m], &slots[(size_t) m * per_sm + b], t, 1, launch, d);
        }
      for (uint32_t m = 0; m < sms; m++)
        if (sm[m].next <= t + eps)
          sm[m].next = sm_next_event (&sm[m], &slots[(size_t) m * per_sm], per_sm, res);
    }
  uint32_t last = 0;
  for (uint32_t m = 0; m < sms; m++)
    {
      if (sm[m].now > sm[last].now)
        last = m;
      d->throughput = fmax (d->throughput, sm[m].work_time);
    }
  for (int c = 0; c < N_CATS; c++)
    stack[c] = sm[last].stack[c];
  free (freed);
  free (sm);
  free (slots);
}

/* ---- inputs --------------------------------------------------------------- */

/* Per static instruction. */
typedef struct {
  int cls, space;
  int has_cache;
  double l1, l2;     /* sector hit rates at L1 and (of L1 misses) at L2 */
  double ev[3];      /* distribution of miss events (L1 hit, L2 hit, DRAM), §4.5.2 */
  double wavefronts; /* the host's data-stage wavefronts per execution (NAN: none) */
} PcInfo;

/* §4.5.2's distribution of miss events of a memory instruction (slowest
 * request decides), recovered from what the host gives: sector hit rates
 * l1, l2 and the AMAT.  With n independent requests per execution the
 * events are (a^n, b^n - a^n, 1 - b^n), a = l1, b = l1 + (1 - l1) l2; n is
 * the real number in [0, 64] for which the events' AMAT equals the host's. */
static void
miss_event_distribution (double l1, double l2, double amat, const double lat[3], double ev[3])
{
  double a = l1, b = l1 + (1 - l1) * l2;
  double lo = 0, hi = 64, n = 1;
  for (int it = 0; it < 60; it++)
    {
      n = (lo + hi) / 2;
      double an = pow (a, n), bn = pow (b, n);
      double t = lat[0] * an + lat[1] * (bn - an) + lat[2] * (1 - bn);
      if (t < amat)
        lo = n;
      else
        hi = n;
    }
  double an = pow (a, n), bn = pow (b, n);
  ev[0] = an;
  ev[1] = bn - an;
  ev[2] = 1 - bn;
}

static int
is_global_mem (const PcInfo *pc)
{
  return (pc->cls == WS_PRED_CLASS_LD || pc->cls == WS_PRED_CLASS_ST || pc->cls == WS_PRED_CLASS_ATOM)
         && (pc->space == WS_PRED_SPACE_GLOBAL || pc->space == WS_PRED_SPACE_LOCAL) && pc->has_cache;
}

static void
fail_fmt (const WsPredictorHost *h, WsPredictorContext *ctx, const char *fmt, const char *arg)
{
  char msg[256];
  snprintf (msg, sizeof msg, fmt, arg);
  h->fail (ctx, msg);
}

/* Reads the representative warp's interval profile from the host and walks
 * its stream once to count, per interval, its memory instructions and
 * requests (the host's intervals are consecutive runs of the stream). */
static int
build_profile (const WsPredictorHost *h, WsPredictorContext *ctx, Profile *p, uint64_t *rep_tb, uint32_t *rep_warp)
{
  uint64_t insts = 0;
  double cycles = 0;
  uint32_t n = 0;
  h->representative_profile (ctx, &insts, &cycles, &n);
  if (n == 0 || insts == 0)
    {
      h->fail (ctx, "the launch has no representative warp (no warp instruction was recorded, or the "
                    "cache simulation failed)");
      return -1;
    }
  h->representative_warp (ctx, rep_tb, rep_warp);

  uint32_t n_pcs = h->n_insts (ctx);
  PcInfo *pcs = calloc (n_pcs ? n_pcs : 1, sizeof (PcInfo));
  const double lat[3] = { h->gpu_param (ctx, "l1_latency", 1), h->gpu_param (ctx, "l2_latency", 1),
                          h->gpu_param (ctx, "dram_latency", 1) };
  for (uint32_t i = 0; i < n_pcs; i++)
    {
      PcInfo *pc = &pcs[i];
      pc->cls = h->inst_class (ctx, i);
      pc->space = h->inst_space (ctx, i);
      double amat = 0;
      pc->wavefronts = NAN;
      if (pc->cls == WS_PRED_CLASS_LD || pc->cls == WS_PRED_CLASS_ST || pc->cls == WS_PRED_CLASS_ATOM)
        {
          pc->has_cache = h->inst_cache (ctx, i, &pc->l1, &pc->l2, &amat);
          if (WS_PREDICTOR_HOST_HAS (h, inst_wavefronts))
            pc->wavefronts = h->inst_wavefronts (ctx, i);
        }
      if (is_global_mem (pc))
        miss_event_distribution (pc->l1, pc->l2, amat, lat, pc->ev);
      else
        pc->ev[0] = 1;
    }

  p->n = n;
  p->iv = calloc (n, sizeof (Interval));
  p->insts = 0;
  p->cycles = 0;
  for (uint32_t i = 0; i < n; i++)
    {
      uint32_t ni = 0, stall_inst = UINT32_MAX;
      double stall = 0;
      h->representative_interval (ctx, i, &ni, &stall, &stall_inst);
      p->iv[i].insts = ni;
      p->iv[i].stall = stall;
      p->insts += ni;
      p->cycles += ni / 1.0 + stall;
      if (stall > 0)
        p->n_stalls++;
      /* §4.7: a stall waits on a compute instruction (DEP) or on a memory
       * instruction, whose stall is split by its distribution of miss
       * events.  On-chip shared/constant/parameter accesses count as L1. */
      if (stall_inst < n_pcs && is_global_mem (&pcs[stall_inst]))
        for (int c = 0; c < 3; c++)
          p->stall_cat[CAT_L1 + c] += stall * pcs[stall_inst].ev[c];
      else if (stall_inst < n_pcs
               && (pcs[stall_inst].cls == WS_PRED_CLASS_LD || pcs[stall_inst].cls == WS_PRED_CLASS_ATOM))
        p->stall_cat[CAT_L1] += stall;
      else
        p->stall_cat[CAT_DEP] += stall;
    }

  double l1_sector = h->gpu_param (ctx, "l1_sector", 32);
  if (l1_sector < 32)
    l1_sector = 32;
  WsPredictorWarpCursor *cur = h->warp_open (ctx, *rep_tb, *rep_warp);
  if (cur == NULL)
    {
      free (pcs);
      h->fail (ctx, "cannot read the representative warp's instruction stream");
      return -1;
    }
  WsPredictorWarpRecord r;
  uint32_t iv = 0;
  double in_iv = 0;
  uint64_t walked = 0;
  while (h->warp_next (cur, &r))
    {
      if (r.static_id >= n_pcs)
        continue; /* the interval algorithm skips them too */
      while (iv < n && in_iv >= p->iv[iv].insts)
        {
          iv++;
          in_iv = 0;
        }
      if (iv >= n)
        break;
      in_iv++;
      walked++;
      const PcInfo *pc = &pcs[r.static_id];
      switch (pc->cls)
        {
        case WS_PRED_CLASS_FP32: p->pipe_insts[PIPE_FP32]++; break;
        case WS_PRED_CLASS_ALU: p->pipe_insts[PIPE_INT]++; break;
        case WS_PRED_CLASS_FP64: p->pipe_insts[PIPE_FP64]++; break;
        case WS_PRED_CLASS_SFU: p->pipe_insts[PIPE_SFU]++; break;
        default: break;
        }
      /* The data stage's wavefronts of global and local loads and shared
       * accesses: the host's figure (the bound's bank-conflict rule), else
       * one per distinct 128-byte line (shared row), which overcharges
       * strided loads (H200 float stride 15: 15 lines, 4.6 cycles). */
      if ((pc->cls == WS_PRED_CLASS_LD && (pc->space == WS_PRED_SPACE_GLOBAL || pc->space == WS_PRED_SPACE_LOCAL))
          || (pc->space == WS_PRED_SPACE_SHARED
              && (pc->cls == WS_PRED_CLASS_LD || pc->cls == WS_PRED_CLASS_ST || pc->cls == WS_PRED_CLASS_ATOM)))
        p->l1_wavefronts += isfinite (pc->wavefronts) ? pc->wavefronts : r.lines > 1 ? r.lines : 1;
      if (!is_global_mem (pc))
        continue;
      Interval *x = &p->iv[iv];
      double miss = 1 - pc->l1;
      /* DRAM traffic counts 32-byte sectors: every stored sector once (the
       * L2 is write-back: the store is absorbed and its sector written to
       * DRAM later), and for loads the sectors an L1 miss fetches (a whole
       * L1 fill unit, l1_sector bytes) that also miss the L2. */
      if (pc->cls == WS_PRED_CLASS_ST)
        x->dram_reqs += r.sectors;
      /* Stores do not allocate MSHRs (seed §4.6.2); an MSHR holds one L1 fill unit. */
      else
        {
          double units = fmax ((double) r.lines, r.sectors * 32.0 / l1_sector);
          double fetched = units * l1_sector / 32.0 * miss;
          x->dram_reqs += fetched * (1 - pc->l2);
          x->mem_reqs += units * miss;
          x->mem_insts += 1 - pc->ev[0];
          x->mem_waits += (1 - pc->ev[0]) * (1 - x->mem_waits);
          /* Eq. 28's avg_miss_latency: over the requests that hold MSHRs. */
          p->miss_l2 += fetched * pc->l2;
          p->miss_dram += fetched * (1 - pc->l2);
        }
    }
  h->warp_close (cur);
  free (pcs);
  if (walked != insts)
    {
      char msg[200];
      snprintf (msg, sizeof msg, "the representative warp's stream has %llu instructions but its interval profile %llu",
                (unsigned long long) walked, (unsigned long long) insts);
      h->fail (ctx, msg);
      return -1;
    }
  return 0;
}

static int
parse_options (const WsPredictorHost *h, WsPredictorContext *ctx, Variant *v, Scheduler *s)
{
  const char *variant = h->option_string (ctx, "variant");
  const char *sched = h->option_string (ctx, "scheduler");
  *v = N_VARIANTS;
  for (int i = 0; i < N_VARIANTS; i++)
    if (variant != NULL && strcmp (variant, variant_names[i]) == 0)
      *v = (Variant) i;
  if (*v == N_VARIANTS)
    {
      fail_fmt (h, ctx, "unknown variant '%s' (naive, markov, mt, mt_mshr or full)", variant ? variant : "");
      return -1;
    }
  if (sched != NULL && strcmp (sched, "rr") == 0)
    *s = SCHED_RR;
  else if (sched != NULL && strcmp (sched, "gto") == 0)
    *s = SCHED_GTO;
  else
    {
      fail_fmt (h, ctx, "unknown scheduler '%s' (rr or gto)", sched ? sched : "");
      return -1;
    }
  return 0;
}

static int
gpumech_predict (const WsPredictorHost *h, WsPredictorContext *ctx)
{
  if (h->is_analytic (ctx))
    {
      h->fail (ctx, "gpumech predicts traced launches only");
      return -1;
    }
  Variant variant;
  Scheduler sched;
  if (parse_options (h, ctx, &variant, &sched) != 0)
    return -1;

  double sms = h->gpu_param (ctx, "sms", 0);
  double clock_mhz = h->gpu_param (ctx, "core_clock_mhz", 0);
  if (sms < 1 || clock_mhz <= 0)
    {
      fail_fmt (h, ctx, "GPU '%s' lacks sms or core_clock_mhz", h->gpu_name (ctx));
      return -1;
    }
  int blocks_per_sm = 0, occ_warps = 0;
  h->occupancy (ctx, &blocks_per_sm, &occ_warps, NULL);
  uint32_t warps_per_tb = h->warps_per_tb (ctx);
  uint64_t n_tbs = h->n_tbs (ctx);
  if (blocks_per_sm < 1 || warps_per_tb < 1 || n_tbs < 1)
    {
      fail_fmt (h, ctx,
                "kernel '%s' cannot run on this GPU: no thread block fits on an SM "
                "(check its block size, registers and shared memory)",
                h->kernel_name (ctx));
      return -1;
    }

  Profile p = { 0 };
  uint64_t rep_tb = 0;
  uint32_t rep_warp = 0;
  if (build_profile (h, ctx, &p, &rep_tb, &rep_warp) != 0)
    {
      free (p.iv);
      return -1;
    }
  p.schedulers = h->gpu_param (ctx, "warp_schedulers_per_sm", 1);
  if (p.schedulers < 1)
    p.schedulers = 1;
  for (int c = 0; c < N_PIPES; c++)
    p.pipe_ii[c] = fmax (1.0, h->gpu_param (ctx, pipe_params[c], 1.0));
  p.mshrs = h->gpu_param (ctx, "l1_mshrs", 0);
  if (p.mshrs < 1)
    {
      p.mshrs = 32;
      h->warn (ctx, "the GPU gives no l1_mshrs; 32 MSHRs per SM assumed (seed 001 Table 7)");
    }
  /* Eq. 28: the average L2/DRAM latency of the loads' L1 misses (the
   * requests that hold MSHRs; stores, absorbed by the L2, hold none), from
   * the representative warp's loads, else the launch's sectors. */
  double l2_lat = h->gpu_param (ctx, "l2_latency", 1), dram_lat = h->gpu_param (ctx, "dram_latency", 1);
  double l2_hits = p.miss_l2, dram_sectors = p.miss_dram;
  if (l2_hits + dram_sectors <= 0)
    {
      l2_hits = (double) h->launch_counter (ctx, "l2_hits");
      dram_sectors = (double) h->launch_counter (ctx, "dram_sectors");
    }
  p.avg_miss_latency = l2_hits + dram_sectors > 0
                         ? (l2_hits * l2_lat + dram_sectors * dram_lat) / (l2_hits + dram_sectors)
                         : dram_lat;
  double gbs = h->gpu_param (ctx, "dram_bandwidth_gbs", 0);
  if (gbs <= 0)
    gbs = h->gpu_param (ctx, "dram_clock_mhz", 0) * 1e6 * h->gpu_param (ctx, "dram_bus_width_bits", 0) / 8
          * h->gpu_param (ctx, "dram_data_rate", 0) / 1e9;
  if (gbs > 0)
    p.dram_service = clock_mhz * 1e6 * 32.0 / (gbs * 1e9); /* eq. 31: freq_core x L / B, L = 32-byte request */
  else if (variant == VARIANT_FULL)
    h->warn (ctx, "the GPU gives no DRAM bandwidth; the DRAM queue (eqs. 30-32) is left out");

  /* Eq. 12 for an SM holding k blocks, k = 1 .. blocks_per_sm, with the
   * launch's busy SMs sharing the DRAM (eqs. 30-32's #cores). */
  double warp_insts = (double) h->launch_counter (ctx, "warp_instructions");
  uint64_t wave = (uint64_t) sms * (uint64_t) blocks_per_sm;
  uint64_t full_waves = n_tbs / wave, tail = n_tbs % wave;
  double cores = fmin (sms, (double) n_tbs);
  Residency *res = calloc ((size_t) blocks_per_sm + 1, sizeof (Residency));
  for (int k = 1; k <= blocks_per_sm; k++)
    {
      if (evaluate (&p, variant, sched, (double) k * warps_per_tb, cores, &res[k].e) != 0)
        {
          free (res);
          free (p.iv);
          h->fail (ctx, "the Markov chain of Chen & Aamodt could not be solved (singular transition matrix)");
          return -1;
        }
      cpi_stack (&p, &res[k].e, res[k].stack);
    }
  /* The representative warp alone, for the time an SM only waits for the
   * slowest warps of its blocks: its issue cycles and stalls by category. */
  double alone[N_CATS] = { 0 };
  alone[CAT_BASE] = p.insts / p.cycles;
  for (int c = CAT_DEP; c <= CAT_DRAM; c++)
    alone[c] = p.stall_cat[c] / p.cycles;
  Dispatch d = { 0 };
  double stack[N_CATS] = { 0 };
  /* An SM starts one block per block_launch_cycles (catalogue; 0: not
   * modelled; docs/models/gpumech.md, "Whole launch"). */
  double launch = fmax (0, h->gpu_param (ctx, "block_launch_cycles", 0));
  dispatch_blocks (h, ctx, (uint32_t) sms, blocks_per_sm, launch, res, alone, &d, stack);
  double cycles = d.makespan;
  /* For reporting: the full waves' residency (or the only, partial, wave's)
   * and the tail's busiest SM. */
  int tail_k = tail > 0 ? (int) ceil ((double) tail / sms) : 0;
  const Eval *main_e = &res[full_waves > 0 ? blocks_per_sm : tail_k].e;

  /* Eq. 31 at the launch: the DRAM bus is busy s cycles per 32-byte request,
   * so the launch cannot end before s x its DRAM requests (the cache
   * simulation's read and write-back sectors).  The per-interval terms use
   * the representative warp's requests, which may be fewer than the
   * average warp's; what is missing is queueing (QUEUE). */
  double launch_dram_reqs = (double) h->launch_counter (ctx, "dram_bytes") / 32.0;
  double bus_cycles = variant == VARIANT_FULL ? launch_dram_reqs * p.dram_service : 0;
  if (bus_cycles > cycles)
    {
      stack[CAT_QUEUE] += bus_cycles - cycles;
      cycles = bus_cycles;
    }
  /* Not in the seed (§4.4's contention is MSHRs and DRAM): the L2 serves
   * the chip's L2 bandwidth at most (the host's l2_model_bytes_per_clk), so
   * the launch cannot end before its L2 sectors (loads that miss the L1,
   * every store) have crossed it; the excess is the L2 loads' wait (L2).
   * Without it an L2-resident stream ran at the L1s' rate (gpu-l2-cache on
   * H200: +58..+65 %). */
  double l2_per_clk = variant == VARIANT_FULL ? h->gpu_param (ctx, "l2_model_bytes_per_clk", 0) : 0;
  double l2_sectors = (double) h->launch_counter (ctx, "l2_hits") + (double) h->launch_counter (ctx, "dram_sectors");
  double l2_cycles = l2_per_clk > 0 ? l2_sectors * 32.0 / l2_per_clk : 0;
  if (l2_cycles > cycles)
    {
      stack[CAT_L2] += l2_cycles - cycles;
      cycles = l2_cycles;
    }

  /* The stack adds up to cycles per warp instruction of the launch (1 / IPC). */
  h->set_cycles (ctx, cycles);
  h->set_seconds (ctx, cycles / (clock_mhz * 1e6));
  h->set_ipc (ctx, cycles > 0 ? warp_insts / cycles : 0);
  for (int c = 0; c < N_CATS; c++)
    h->add_cpi (ctx, cat_names[c], stack[c] / warp_insts);

  h->set_metric (ctx, "warps_per_sm", main_e->warps);
  h->set_metric (ctx, "warps_per_scheduler", main_e->warps_per_scheduler);
  h->set_metric (ctx, "occupancy_warps", occ_warps);
  h->set_metric (ctx, "waves", (double) full_waves + (tail > 0 ? 1 : 0));
  h->set_metric (ctx, "tail_warps_per_sm", tail_k > 0 ? res[tail_k].e.warps : 0);
  h->set_metric (ctx, "critical_warp_cycles", d.critical);
  h->set_metric (ctx, "throughput_cycles", d.throughput);
  h->set_metric (ctx, "block_launch_cycles", launch);
  h->set_metric (ctx, "representative_tb", (double) rep_tb);
  h->set_metric (ctx, "representative_warp", rep_warp);
  h->set_metric (ctx, "representative_insts", p.insts);
  h->set_metric (ctx, "representative_cycles", p.cycles);
  h->set_metric (ctx, "intervals", p.n);
  h->set_metric (ctx, "issue_prob", main_e->issue_prob);
  h->set_metric (ctx, "nonoverlapped_insts", main_e->nonoverlapped);
  h->set_metric (ctx, "cpi_eq16", main_e->cpi_eq16);
  h->set_metric (ctx, "cpi_pipe", main_e->cpi_pipe);
  h->set_metric (ctx, "cpi_l1", main_e->cpi_l1);
  h->set_metric (ctx, "l1_wavefronts", p.l1_wavefronts);
  h->set_metric (ctx, "dram_bus_cycles", bus_cycles);
  h->set_metric (ctx, "l2_bus_cycles", l2_cycles);
  h->set_metric (ctx, "cpi_multithreading", main_e->cpi_multithreading);
  h->set_metric (ctx, "cpi_mshr", main_e->cpi_mshr);
  h->set_metric (ctx, "cpi_queue", main_e->cpi_queue);
  h->set_metric (ctx, "cpi_rc_mshr_eq26", main_e->cpi_mshr_warp);
  h->set_metric (ctx, "cpi_rc_queue_eq26", main_e->cpi_queue_warp);
  h->set_metric (ctx, "cpi_sm", main_e->cpi);
  h->set_metric (ctx, "mshrs", p.mshrs);
  h->set_metric (ctx, "avg_miss_latency", p.avg_miss_latency);
  h->set_metric (ctx, "dram_service_cycles", p.dram_service);
  if (variant == VARIANT_MARKOV)
    {
      h->set_metric (ctx, "markov_p", main_e->markov_p);
      h->set_metric (ctx, "markov_m", main_e->markov_m);
      h->set_metric (ctx, "markov_ipc", main_e->markov_ipc);
    }
  /* Every variant's per-SM CPI of the main wave, for comparing Table 8's models. */
  for (int v = 0; v < N_VARIANTS; v++)
    {
      Eval e;
      char name[32];
      snprintf (name, sizeof name, "cpi_sm_%s", variant_names[v]);
      if (evaluate (&p, (Variant) v, sched, main_e->warps, cores, &e) == 0)
        h->set_metric (ctx, name, e.cpi);
    }
  free (res);
  free (p.iv);
  return 0;
}

/* Seed 001 §4.6's CPI stack categories (Table 10). */
static const WsPredictorCpiCategory gpumech_cpi[] = {
  { "BASE", NULL, "issue cycles: one instruction per cycle of the warp's scheduler" },
  { "DEP", NULL, "stalls on a compute instruction's result" },
  { "L1", NULL, "stalls on loads that hit the L1" },
  { "L2", NULL, "stalls on loads that miss the L1 and hit the L2, and the L2's bandwidth (a launch floor)" },
  { "DRAM", NULL, "stalls on loads that go to DRAM" },
  { "MSHR", NULL, "queuing for the SM's miss status holding registers (eqs. 27-29)" },
  { "QUEUE", NULL, "queuing for DRAM bandwidth (eqs. 30-32)" },
  { "LAUNCH", "#999999", "waiting for the SM to start a thread block (block_launch_cycles)" },
};

static const WsPredictorDescriptor gpumech_descriptor = {
  .abi_version = WS_PREDICTOR_ABI_VERSION,
  .api_version = WS_PREDICTOR_API_VERSION,
  .name = "gpumech",
  .version = "1.0",
  .description =
    "GPUMech interval analysis (seed 001 ch. 4): multithreading (RR/GTO), MSHR and DRAM contention, CPI stack",
  .n_options = sizeof gpumech_options / sizeof gpumech_options[0],
  .options = gpumech_options,
  .supports_trace = 1,
  .supports_analytic = 0,
  .predict = gpumech_predict,
  /* No global state: everything lives in the call and its context. */
  .flags = WS_PREDICTOR_FLAG_THREAD_SAFE,
  .n_cpi_categories = sizeof gpumech_cpi / sizeof gpumech_cpi[0],
  .cpi_categories = gpumech_cpi,
};

WS_PREDICTOR_EXPORT const WsPredictorDescriptor *ws_predictor_query (void);

const WsPredictorDescriptor *
ws_predictor_query (void)
{
  return &gpumech_descriptor;
}
