/* ake: abstract kernel emulation with latency/gap resources (seed 002).
 *
 * Seed 002 §2 ("Abstract Kernel Emulation"): the thread blocks that fit on
 * one SM at once are emulated instruction by instruction, warps picked
 * greedy-then-oldest; every resource has a latency (cycles from entry to
 * exit of a request) and a gap (minimum cycles between two requests) and
 * keeps a "pipe_admit time", incremented by its gap when a request starts;
 * an instruction starts at the later of its dependences' completion and the
 * resource's admit time, and completes a latency later; when every
 * instruction is scheduled the clock is the latest completion.  §2's last
 * sentence lists what is modelled on top: conditionals (here: the warp's
 * recorded path and active masks), uncoalesced accesses (several requests),
 * caches (hit rates and AMAT of core's cache simulation), barriers and
 * shared-memory bank conflicts.  §4: the time of the emulated thread blocks
 * is extrapolated to the whole kernel.
 *
 * Everything the poster leaves open (which resources, their parameters from
 * the catalogue, issue width, the CPI stack, waves and tail) is decided and
 * explained in docs/models/ake.md. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ws-predictor.h"

/* CPI stack categories: cycles in which the SM issued (BASE), or in which it
 * issued nothing, charged to what the first warp to become ready again was
 * waiting for (LAUNCH: its block to be started). */
enum { CAT_BASE, CAT_DEP, CAT_SFU, CAT_FP64, CAT_MEM, CAT_SHARED, CAT_BARRIER, CAT_CONTROL, CAT_LAUNCH, N_CATS };
static const char *const cat_names[N_CATS] = { "BASE",   "DEP",     "SFU",     "FP64",  "MEM",
                                               "SHARED", "BARRIER", "CONTROL", "LAUNCH" };

/* Resources of one SM sub-partition (one warp scheduler each), except the
 * load/store pipeline, which is the SM's (machine_from_gpu). */
enum { UNIT_ALU, UNIT_FP32, UNIT_SFU, UNIT_FP64, UNIT_BRANCH, UNIT_LSU, N_UNITS };
static const char *const unit_pipes[N_UNITS] = { "int", "fp32", "sfu", "fp64", "branch", "global" };
static const double unit_default_latency[N_UNITS] = { 4, 4, 16, 8, 10, 0 };

/* How an instruction goes through the machine. */
enum { KIND_UNIT, KIND_GLOBAL, KIND_SHARED, KIND_BARRIER };

static const WsPredictorOption ake_options[] = {
  { "scheduler", WS_PREDICTOR_OPTION_CHOICE, "gto", "gto|rr",
    "Warp selection: greedy-then-oldest (seed 002 §2) or loose round-robin" },
  { "max_tbs", WS_PREDICTOR_OPTION_INT, "0", NULL,
    "Thread blocks emulated per SM: 0 = as many as fit (occupancy); a smaller number caps the "
    "resident blocks (faster emulation; the grid then needs more waves)" },
  { "caches", WS_PREDICTOR_OPTION_BOOL, "true", NULL,
    "Global accesses use the cache simulation's AMAT and hit rates (true) or all go to DRAM "
    "(false): seed 002 Fig. 2's runs with and without cache modelling" },
  { "bank_conflicts", WS_PREDICTOR_OPTION_BOOL, "true", NULL,
    "Shared accesses take their bank-conflict degree in wavefronts (true; one per distinct 128-byte "
    "row touched on hosts older than API 2) or the fewest wavefronts their sectors need (false)" },
};

typedef struct {
  uint8_t kind, unit, cat, control;
  uint8_t stores;  /* a store or atomic to global or local memory: its sectors are dirtied */
  uint8_t dirties; /* its DRAM cost includes the write-back of the sectors it dirties */
  uint8_t n_src, n_dst;
  uint32_t src[4], dst[2];
  double latency;         /* cycles from start to completion of (the last request of) one execution */
  double dram_per_sector; /* expected bytes that reach DRAM per 32-byte sector (global kind) */
  double l2_per_sector;   /* expected bytes the L2 serves per 32-byte sector (global kind) */
  double wavefronts;      /* the host's L1 / shared data-stage wavefronts per execution (NAN: none) */
} Inst;

typedef struct {
  double latency[N_UNITS], gap[N_UNITS]; /* per sub-partition; the LSU has only a gap */
  double shared_latency, shared_gap;     /* per SM, the gap per wavefront */
  double barrier_latency;
  double block_launch;         /* cycles between two block starts on the SM; 0 = at once */
  double dram_gbs;             /* the chip's DRAM bandwidth (catalogue); 0 = unknown */
  double l2_bytes_per_clk;     /* the chip's L2 bandwidth (host's l2_model_bytes_per_clk); 0 = unknown */
  double dram_bytes_per_cycle; /* per SM; 0 = unlimited */
  double l2_bytes_per_cycle;   /* per SM; 0 = unlimited (no published L2 bandwidth) */
  double writeback_per_sector; /* DRAM bytes a stored (dirtied) sector costs when written back */
  int schedulers, issue_width;
  int gto, bank_conflicts;
} Machine;

/* One record of a warp's stream as the emulation needs it. */
typedef struct {
  uint32_t static_id, sectors, lines;
} Rec;

/* The streams of the warps of some thread blocks, read once through the
 * host's cursors and kept as arrays.  Each record costs the host a decode
 * and a count of distinct sectors and lines (most of a prediction's time),
 * and the write-back estimate reads the same blocks as the first emulated
 * wave: reading them once and emulating from memory halves the reading
 * there and keeps the emulation's inner loop free of calls into the host.
 * Streams longer than KEPT_RECORDS_MAX in all are not kept (`kept` 0):
 * the emulation then reads them again through cursors, as memory allows. */
typedef struct {
  uint64_t *tbs;
  uint32_t n_tbs, warps_per_tb;
  Rec *recs;     /* the records of every warp, block by block, warp by warp */
  size_t *start; /* [n_tbs x warps_per_tb + 1]: warp k's records are recs[start[k]..start[k + 1]) */
  size_t n_recs;
  int kept;
  double read;    /* records read, those outside the static table included */
  double dirtied; /* sectors the stores and atomics to global/local memory touched */
} Streams;

#define KEPT_RECORDS_MAX ((size_t) 4 << 20) /* 48 MiB of Rec */

typedef struct {
  WsPredictorWarpCursor *cur; /* the stream through the host (streams not kept) */
  const Rec *pos, *stop;      /* or the kept stream's next record and its end */
  Rec next;
  int live; /* has a next record */
  int at_barrier;
  uint32_t block, sched;
  double ready;         /* earliest issue of the next record */
  int reason;           /* the category of the constraint that sets `ready` */
  double control_ready; /* completion of the last branch */
  double *reg;          /* completion of the last writer of each register slot */
  uint8_t *reg_cat;
} Warp;

typedef struct {
  uint32_t first, n, arrived, exited;
  double last_arrival;
} Block;

typedef struct {
  double cycles;
  double launch_span; /* blocks x block_launch: the next wave starts no sooner */
  double cat[N_CATS];
  double insts;
  double gmem_busy, shared_busy, lsu_busy;
  double shared_insts, wavefronts, global_insts, global_requests, barriers_released;
} EmuResult;

typedef struct {
  const WsPredictorHost *h;
  WsPredictorContext *ctx;
  const Machine *m;
  const Inst *insts;
  uint32_t n_insts, n_slots;
  Warp *warps;
  uint32_t n_warps;
  Block *blocks;
  double *admit;                              /* [sched][unit] */
  double lsu_admit, gmem_admit, shared_admit; /* the SM's load/store pipeline, DRAM, banks */
  double end;                                 /* latest completion so far */
  int end_cat;
  EmuResult *r;
} Emu;

/* ---- the emulation (seed 002 §2) ------------------------------------------- */

/* §2: "the earliest schedulable time for an instruction is made later than
 * the completion times of all previously scheduled instructions it depends
 * on": the register scoreboard (true and output dependences), the branch it
 * follows (the next instruction of the recorded path is known when the
 * branch resolves) and in-order issue, one instruction per warp per cycle. */
static void
warp_fetch (Emu *e, Warp *w, double in_order)
{
  if (w->cur == NULL)
    {
      /* A kept stream holds only records of the static table. */
      if (w->pos == w->stop)
        {
          w->live = 0;
          return;
        }
      w->next = *w->pos++;
    }
  else
    for (;;)
      {
        WsPredictorWarpRecord r;
        if (!e->h->warp_next (w->cur, &r))
          {
            w->live = 0;
            return;
          }
        if (r.static_id < e->n_insts)
          {
            w->next = (Rec){ r.static_id, r.sectors, r.lines };
            break;
          }
      }
  w->live = 1;
  const Inst *in = &e->insts[w->next.static_id];
  double ready = in_order;
  int reason = CAT_BASE;
  if (w->control_ready > ready)
    {
      ready = w->control_ready;
      reason = CAT_CONTROL;
    }
  for (uint32_t k = 0; k < in->n_src; k++)
    if (w->reg[in->src[k]] > ready)
      {
        ready = w->reg[in->src[k]];
        reason = w->reg_cat[in->src[k]];
      }
  for (uint32_t k = 0; k < in->n_dst; k++)
    if (w->reg[in->dst[k]] > ready)
      {
        ready = w->reg[in->dst[k]];
        reason = w->reg_cat[in->dst[k]];
      }
  w->ready = ready;
  w->reason = reason;
}

/* §2 ("barrier synchronization"): a warp that reaches bar.sync waits until
 * every warp of its block has reached it or exited; all go on one barrier
 * latency after the last arrival. */
static void
block_try_release (Emu *e, Block *b, double now)
{
  if (b->arrived == 0 || b->arrived + b->exited < b->n)
    return;
  double release = fmax (b->last_arrival, now) + e->m->barrier_latency;
  for (uint32_t i = b->first; i < b->first + b->n; i++)
    {
      Warp *w = &e->warps[i];
      if (!w->at_barrier)
        continue;
      w->at_barrier = 0;
      if (release > w->ready)
        {
          w->ready = release;
          w->reason = CAT_BARRIER;
        }
    }
  b->arrived = 0;
  e->r->barriers_released++;
}

/* §2: a request on a resource starts at max(ready, pipe_admit); the admit
 * time then moves a gap further; the request completes a latency after its
 * start.  An execution of n identical requests (uncoalesced lines, bank
 * conflicts) occupies the resource for n gaps and completes with its last
 * request. */
static double
resource_request (double t, double *admit, double gap, double latency, double n)
{
  double start = fmax (t, *admit);
  *admit = start + n * gap;
  return start + (n - 1) * gap + latency;
}

/* A global/local/constant access passes two resources in series (§2: "the
 * completion timestamp ... adding the latency of the various resources it
 * goes through"): the SM's load/store pipeline (L1), then the global
 * memory, whose gap is the DRAM time of the bytes that miss both caches and
 * whose latency is the cache simulation's AMAT.  The memory takes one
 * request per 128-byte line (uncoalesced accesses as several requests).
 * The load/store pipeline takes a load's data-stage wavefronts (the host's
 * figure: bank-conflict degree, at least lanes x size / 128), one gap each;
 * where the host has none (stores, constant reads, older hosts) one per
 * line.  A line per wavefront made a float stride-15 load take 15 gaps on
 * H200, where the hardware needs 4.6 cycles (docs/models/ake.md).  Slot k
 * of n1 leaves the LSU at s1 + k g1 and request k of n2 enters memory at
 * x_k = max(departure, x_{k-1} + g2), which for identical requests ends at
 * max(x_0 + (n2 - 1) g2, s1 + (n1 - 1) g1). */
static double
global_request (Emu *e, Warp *w, const Inst *in, double t)
{
  const Machine *m = e->m;
  double n = w->next.lines > 0 ? w->next.lines : 1;
  double n1 = isfinite (in->wavefronts) && in->wavefronts > 0 ? in->wavefronts : n;
  double *lsu = &e->lsu_admit;
  double g1 = m->gap[UNIT_LSU];
  double s1 = fmax (t, *lsu);
  *lsu = s1 + n1 * g1;
  double bytes = w->next.sectors * in->dram_per_sector;
  double g2 = m->dram_bytes_per_cycle > 0 ? bytes / n / m->dram_bytes_per_cycle : 0;
  /* The L2 serves every sector the L1 does not, at its share of the chip's
   * L2 bandwidth; L2 and DRAM are pipelined, so the slower sets the gap. */
  if (m->l2_bytes_per_cycle > 0)
    g2 = fmax (g2, w->next.sectors * in->l2_per_sector / n / m->l2_bytes_per_cycle);
  double x0 = fmax (s1, e->gmem_admit);
  double xl = fmax (x0 + (n - 1) * g2, s1 + (n1 - 1) * g1);
  e->gmem_admit = xl + g2;
  e->r->gmem_busy += n * g2;
  e->r->lsu_busy += n1 * g1;
  e->r->global_insts++;
  e->r->global_requests += n;
  return xl + in->latency;
}

/* §2 ("bank conflicts"): the shared memory serves one 128-byte wavefront per
 * gap.  An access takes the host's wavefronts (its bank-conflict degree, at
 * least lanes x size / 128, by the physical bound's rule); on a host
 * without them, the distinct 128-byte rows it touches (exact for
 * power-of-two strides and broadcasts, an upper bound for padded strides,
 * docs/models/ake.md). */
static double
shared_request (Emu *e, Warp *w, const Inst *in, double t)
{
  double rows = isfinite (in->wavefronts) ? in->wavefronts : w->next.lines, least = ceil (w->next.sectors / 4.0);
  double d = e->m->bank_conflicts ? (isfinite (in->wavefronts) ? rows : fmax (rows, least)) : least;
  if (d < 1)
    d = 1;
  e->r->shared_busy += d * e->m->shared_gap;
  e->r->wavefronts += d;
  e->r->shared_insts++;
  return resource_request (t, &e->shared_admit, e->m->shared_gap, in->latency, d);
}

/* §2: issuing warp w's next record at cycle t: "the completion timestamp of
 * an instruction is computed by adding the latency of the various resources
 * it goes through"; its destinations become ready then.  Reads the record
 * after it. */
static void
warp_issue (Emu *e, Warp *w, double t)
{
  const Inst *in = &e->insts[w->next.static_id];
  double done = t;
  switch (in->kind)
    {
    case KIND_UNIT:
      done = resource_request (t, &e->admit[w->sched * N_UNITS + in->unit], e->m->gap[in->unit], in->latency, 1);
      break;
    case KIND_GLOBAL: done = global_request (e, w, in, t); break;
    case KIND_SHARED: done = shared_request (e, w, in, t); break;
    default: break;
    }
  for (uint32_t k = 0; k < in->n_dst; k++)
    {
      w->reg[in->dst[k]] = done;
      w->reg_cat[in->dst[k]] = in->cat;
    }
  if (in->control)
    w->control_ready = done;
  if (done > e->end)
    {
      e->end = done;
      e->end_cat = in->cat;
    }
  e->r->insts++;
  Block *b = &e->blocks[w->block];
  if (in->kind == KIND_BARRIER)
    {
      w->at_barrier = 1;
      b->arrived++;
      b->last_arrival = t;
    }
  warp_fetch (e, w, t + 1);
  if (!w->live)
    {
      /* An exited warp counts as arrived at every later barrier. */
      if (w->at_barrier)
        {
          w->at_barrier = 0;
          b->arrived--;
        }
      b->exited++;
    }
  block_try_release (e, b, t);
}

/* §2: an instruction is schedulable once its earliest time has come. */
static int
warp_can_issue (const Warp *w, double t)
{
  return w->live && !w->at_barrier && w->ready <= t;
}

/* §2: "ready instructions from the active warps are scheduled ... using a
 * Greedy Then Oldest (GTO) scheduling": the warp that issued last keeps
 * issuing while it can, otherwise the oldest ready warp (lowest block, then
 * warp index) issues.  RR starts after the warp that issued last. */
static int
pick_warp (Emu *e, const uint32_t *list, uint32_t n, int *last, double t)
{
  if (n == 0)
    return -1;
  if (e->m->gto)
    {
      if (*last >= 0 && warp_can_issue (&e->warps[list[*last]], t))
        return *last;
      for (uint32_t i = 0; i < n; i++)
        if (warp_can_issue (&e->warps[list[i]], t))
          return (int) i;
      return -1;
    }
  for (uint32_t k = 1; k <= n; k++)
    {
      uint32_t i = (uint32_t) ((*last + (int) k) % (int) n + (int) n) % n;
      if (warp_can_issue (&e->warps[list[i]], t))
        return (int) i;
    }
  return -1;
}

/* Emulates the first `n_tbs` thread blocks of `s`, resident together on
 * one SM (§2), and returns the SM's cycles with their breakdown.  The SM
 * starts one block at a time, block k at k x block_launch cycles
 * (docs/models/ake.md, "Block starts"). */
static int
emulate (const WsPredictorHost *h, WsPredictorContext *ctx, const Machine *m, const Inst *insts, uint32_t n_insts,
         uint32_t n_slots, const Streams *s, uint32_t n_tbs, EmuResult *r)
{
  uint32_t warps_per_tb = s->warps_per_tb;
  memset (r, 0, sizeof *r);
  Emu e = { .h = h, .ctx = ctx, .m = m, .insts = insts, .n_insts = n_insts, .n_slots = n_slots, .r = r };
  e.n_warps = n_tbs * warps_per_tb;
  e.warps = calloc (e.n_warps, sizeof (Warp));
  e.blocks = calloc (n_tbs, sizeof (Block));
  e.admit = calloc ((size_t) m->schedulers * N_UNITS, sizeof (double));
  double *regs = calloc ((size_t) e.n_warps * n_slots, sizeof (double));
  uint8_t *reg_cats = calloc ((size_t) e.n_warps * n_slots, 1);
  uint32_t *lists = malloc (sizeof (uint32_t) * (e.n_warps + 1));
  uint32_t *list_start = calloc ((size_t) m->schedulers + 1, sizeof (uint32_t));
  int *last = malloc (sizeof (int) * (size_t) m->schedulers);
  int rc = 0;
  if (!e.warps || !e.blocks || !e.admit || !regs || !reg_cats || !lists || !list_start || !last)
    {
      h->fail (ctx, "out of memory for the emulated SM");
      rc = -1;
      goto out;
    }

  uint32_t live = 0;
  for (uint32_t b = 0; b < n_tbs; b++)
    {
      e.blocks[b].first = b * warps_per_tb;
      e.blocks[b].n = warps_per_tb;
      for (uint32_t i = 0; i < warps_per_tb; i++)
        {
          uint32_t wi = b * warps_per_tb + i;
          Warp *w = &e.warps[wi];
          w->block = b;
          w->sched = wi % (uint32_t) m->schedulers; /* warp slots dealt to the sub-partitions */
          w->reg = regs + (size_t) wi * n_slots;
          w->reg_cat = reg_cats + (size_t) wi * n_slots;
          if (s->kept)
            {
              w->pos = s->recs + s->start[wi];
              w->stop = s->recs + s->start[wi + 1];
            }
          else
            w->cur = h->warp_open (ctx, s->tbs[b], i);
          double start = b * m->block_launch;
          warp_fetch (&e, w, start); /* a warp without a stream is not live */
          if (w->live && start > 0)
            w->reason = CAT_LAUNCH;
          if (w->live)
            live++;
          else
            e.blocks[b].exited++;
        }
    }
  /* Each scheduler's warps, oldest first. */
  uint32_t pos = 0;
  for (int s = 0; s < m->schedulers; s++)
    {
      list_start[s] = pos;
      for (uint32_t wi = 0; wi < e.n_warps; wi++)
        if (e.warps[wi].sched == (uint32_t) s)
          lists[pos++] = wi;
      last[s] = -1;
    }
  list_start[m->schedulers] = pos;

  double t = 0;
  while (live > 0)
    {
      int issued = 0;
      for (int s = 0; s < m->schedulers; s++)
        for (int k = 0; k < m->issue_width; k++)
          {
            const uint32_t *list = lists + list_start[s];
            uint32_t n = list_start[s + 1] - list_start[s];
            int i = pick_warp (&e, list, n, &last[s], t);
            if (i < 0)
              break;
            last[s] = i;
            Warp *w = &e.warps[list[i]];
            warp_issue (&e, w, t);
            if (!w->live)
              live--;
            issued++;
          }
      if (issued > 0)
        {
          r->cat[CAT_BASE] += 1;
          t += 1;
          continue;
        }
      /* Nothing issues at t: the clock jumps to the first warp that can
       * (§2, "the clock is advanced"), the wait charged to its reason. */
      double next = INFINITY;
      int reason = CAT_DEP;
      for (uint32_t wi = 0; wi < e.n_warps; wi++)
        {
          const Warp *w = &e.warps[wi];
          if (w->live && !w->at_barrier && w->ready < next)
            {
              next = w->ready;
              reason = w->reason;
            }
        }
      if (!isfinite (next))
        {
          h->fail (ctx, "the emulated warps deadlocked at a barrier (a block's warps disagree on its barriers)");
          rc = -1;
          goto out;
        }
      r->cat[reason] += next - t;
      t = next;
    }
  /* §2: "the clock is set to the latest finish time of the last completing
   * instruction among all warps". */
  if (e.end > t)
    {
      r->cat[e.end_cat] += e.end - t;
      t = e.end;
    }
  r->cycles = t;
  r->launch_span = n_tbs * m->block_launch;

out:
  for (uint32_t wi = 0; e.warps && wi < e.n_warps; wi++)
    if (e.warps[wi].cur)
      h->warp_close (e.warps[wi].cur);
  free (e.warps);
  free (e.blocks);
  free (e.admit);
  free (regs);
  free (reg_cats);
  free (lists);
  free (list_start);
  free (last);
  return rc;
}

/* ---- inputs ------------------------------------------------------------------ */

static void
fail_fmt (const WsPredictorHost *h, WsPredictorContext *ctx, const char *fmt, const char *arg)
{
  char msg[320];
  snprintf (msg, sizeof msg, fmt, arg);
  h->fail (ctx, msg);
}

/* One catalogue pipe parameter (§2: latency and gap per resource). */
static double
pipe_param (const WsPredictorHost *h, WsPredictorContext *ctx, const char *pipe, const char *field, double fallback)
{
  char name[64];
  snprintf (name, sizeof name, "pipes.%s.%s", pipe, field);
  return h->gpu_param (ctx, name, fallback);
}

/* The chip's DRAM bandwidth in GB/s: the catalogue's figure, or its
 * memory clock x bus width x data rate. */
static double
dram_gbs (const WsPredictorHost *h, WsPredictorContext *ctx)
{
  double gbs = h->gpu_param (ctx, "dram_bandwidth_gbs", 0);
  if (gbs <= 0)
    gbs = h->gpu_param (ctx, "dram_clock_mhz", 0) * 1e6 * h->gpu_param (ctx, "dram_bus_width_bits", 0) / 8
          * h->gpu_param (ctx, "dram_data_rate", 0) / 1e9;
  return gbs;
}

/* The global memory's gap (§2: "global memory gap" per request): DRAM bytes
 * per core cycle of one SM when `active` SMs share the DRAM. */
static double
dram_bytes_per_cycle (const Machine *m, double clock_mhz, double active)
{
  if (m->dram_gbs <= 0 || active <= 0)
    return 0;
  return m->dram_gbs * 1e9 / (active * clock_mhz * 1e6);
}

/* The L2's part of the global memory's gap: the chip's L2 bandwidth (the
 * host's l2_model_bytes_per_clk, per core clock: the catalogue's published
 * figure, else GA100's 64 B/clk per slice; 0 where the record has neither,
 * then no L2 limit) shared by the `active` SMs. */
static double
l2_bytes_per_cycle (const Machine *m, double active)
{
  return m->l2_bytes_per_clk > 0 && active > 0 ? m->l2_bytes_per_clk / active : 0;
}

/* Latency and gap of every resource from the catalogue (seed 002 §2: "the
 * algorithm uses parameters (latency and gap for each resource) that
 * characterize the target GPU architecture"). */
static void
machine_from_gpu (const WsPredictorHost *h, WsPredictorContext *ctx, Machine *m)
{
  m->schedulers = (int) h->gpu_param (ctx, "warp_schedulers_per_sm", 1);
  if (m->schedulers < 1)
    m->schedulers = 1;
  m->issue_width = (int) h->gpu_param (ctx, "issue_width", 1);
  if (m->issue_width < 1)
    m->issue_width = 1;
  for (int u = 0; u < N_UNITS; u++)
    {
      m->latency[u] = fmax (pipe_param (h, ctx, unit_pipes[u], "latency", unit_default_latency[u]), 1);
      m->gap[u] = fmax (pipe_param (h, ctx, unit_pipes[u], "initiation_interval", 1), 0);
    }
  m->latency[UNIT_LSU] = 0;
  /* The catalogue's intervals are per sub-partition (32 lanes over its
   * share of the load/store units); the L1 and the shared-memory banks
   * serve the whole SM, one line or wavefront per interval / schedulers. */
  m->gap[UNIT_LSU] /= m->schedulers;
  m->shared_latency = fmax (pipe_param (h, ctx, "shared", "latency", h->gpu_param (ctx, "l1_latency", 30)), 1);
  m->shared_gap = fmax (pipe_param (h, ctx, "shared", "initiation_interval", 1), 0) / m->schedulers;
  m->barrier_latency = m->latency[UNIT_BRANCH];
  m->block_launch = fmax (0, h->gpu_param (ctx, "block_launch_cycles", 0));
  /* Read once: every wave shares them out to its active SMs. */
  m->dram_gbs = dram_gbs (h, ctx);
  m->l2_bytes_per_clk = h->gpu_param (ctx, "l2_model_bytes_per_clk", 0);
}

/* §2's resources per static instruction: which resource it goes through,
 * its latency (the AMAT from the cache simulation for global accesses, §2
 * "caches") and its register dependences. */
static Inst *
build_insts (const WsPredictorHost *h, WsPredictorContext *ctx, const Machine *m, int caches, uint32_t *n_slots_out)
{
  uint32_t n = h->n_insts (ctx);
  Inst *insts = calloc (n ? n : 1, sizeof (Inst));
  if (insts == NULL)
    return NULL;
  double dram_lat = pipe_param (h, ctx, "global", "latency", h->gpu_param (ctx, "dram_latency", 400));
  double l1_lat = h->gpu_param (ctx, "l1_latency", 30);
  uint32_t n_slots = 1;
  for (uint32_t i = 0; i < n; i++)
    {
      Inst *in = &insts[i];
      int cls = h->inst_class (ctx, i), space = h->inst_space (ctx, i);
      const char *op = h->inst_opcode (ctx, i);
      in->kind = KIND_UNIT;
      in->unit = UNIT_ALU;
      in->cat = CAT_DEP;
      in->stores = (cls == WS_PRED_CLASS_ST || cls == WS_PRED_CLASS_ATOM)
                   && (space == WS_PRED_SPACE_GLOBAL || space == WS_PRED_SPACE_LOCAL);
      switch (cls)
        {
        case WS_PRED_CLASS_FP32: in->unit = UNIT_FP32; break;
        case WS_PRED_CLASS_FP64:
          in->unit = UNIT_FP64;
          in->cat = CAT_FP64;
          break;
        case WS_PRED_CLASS_SFU:
          in->unit = UNIT_SFU;
          in->cat = CAT_SFU;
          break;
        case WS_PRED_CLASS_BRANCH:
          in->unit = UNIT_BRANCH;
          in->cat = CAT_CONTROL;
          in->control = 1;
          break;
        case WS_PRED_CLASS_BARRIER:
          if (op != NULL && (strcmp (op, "bar") == 0 || strcmp (op, "barrier") == 0))
            {
              in->kind = KIND_BARRIER;
              in->cat = CAT_BARRIER;
            }
          else
            {
              in->unit = UNIT_BRANCH; /* membar / fence */
              in->cat = CAT_CONTROL;
            }
          break;
        case WS_PRED_CLASS_WARP:
          /* shuffles and votes cross lanes through the shared-memory crossbar */
          in->kind = KIND_SHARED;
          in->cat = CAT_SHARED;
          break;
        case WS_PRED_CLASS_LD:
        case WS_PRED_CLASS_ST:
        case WS_PRED_CLASS_ATOM:
          if (space == WS_PRED_SPACE_SHARED)
            {
              in->kind = KIND_SHARED;
              in->cat = CAT_SHARED;
            }
          else if (space == WS_PRED_SPACE_PARAM)
            ; /* kernel parameters are constant-bank operands in SASS: an ALU move */
          else
            {
              in->kind = KIND_GLOBAL;
              in->cat = CAT_MEM;
            }
          break;
        default: break;
        }
      /* The host's data-stage wavefronts (API 2) of memory instructions;
       * NAN (lines / rows, see global_request and shared_request) without. */
      in->wavefronts = NAN;
      if ((cls == WS_PRED_CLASS_LD || cls == WS_PRED_CLASS_ST || cls == WS_PRED_CLASS_ATOM) && in->kind != KIND_UNIT
          && WS_PREDICTOR_HOST_HAS (h, inst_wavefronts))
        in->wavefronts = h->inst_wavefronts (ctx, i);
      if (in->kind == KIND_UNIT)
        in->latency = m->latency[in->unit];
      else if (in->kind == KIND_SHARED)
        in->latency = m->shared_latency;
      else if (in->kind == KIND_GLOBAL)
        {
          double l1 = 0, l2 = 0, amat = 0;
          int read_only = space == WS_PRED_SPACE_CONST;
          if (read_only)
            {
              in->latency = l1_lat;
              in->dram_per_sector = 0;
              in->l2_per_sector = 0;
            }
          else if (caches && h->inst_cache (ctx, i, &l1, &l2, &amat))
            {
              in->latency = fmax (amat, 1);
              /* The cache simulation counts a store as an L2 hit (the L2 is
               * write-back and takes it without a DRAM read), so its DRAM
               * cost is the later write-back of the sector it dirtied: that
               * is what goes through the global memory's gap.  Charging
               * only the reads left stores free of DRAM time (a store-only
               * stream ran at 3-4x the DRAM peak). */
              in->dram_per_sector = 32.0 * (1 - l1) * (1 - l2);
              in->l2_per_sector = 32.0 * (1 - l1);
              /* plus m->writeback_per_sector, known once the streams are read (ake_predict) */
              in->dirties = cls == WS_PRED_CLASS_ST || cls == WS_PRED_CLASS_ATOM;
            }
          else
            {
              in->latency = fmax (dram_lat, 1);
              in->dram_per_sector = 32.0;
              in->l2_per_sector = 32.0;
            }
        }
      uint32_t ns = h->inst_n_srcs (ctx, i), nd = h->inst_n_dsts (ctx, i);
      for (uint32_t k = 0; k < ns && k < 4; k++)
        {
          uint32_t s = h->inst_src (ctx, i, k);
          if (s == UINT32_MAX)
            continue;
          in->src[in->n_src++] = s;
          if (s + 1 > n_slots)
            n_slots = s + 1;
        }
      for (uint32_t k = 0; k < nd && k < 2; k++)
        {
          uint32_t d = h->inst_dst (ctx, i, k);
          if (d == UINT32_MAX)
            continue;
          in->dst[in->n_dst++] = d;
          if (d + 1 > n_slots)
            n_slots = d + 1;
        }
    }
  *n_slots_out = n_slots;
  return insts;
}

/* §2: "a maximal set of thread-blocks that can be concurrently loaded on
 * one SM": the first `want` thread blocks at or after `from` whose streams were
 * recorded (a sampled trace leaves some out), continuing from block 0 when
 * the range runs out; returns how many were found. */
static uint32_t
pick_blocks (const WsPredictorHost *h, WsPredictorContext *ctx, uint64_t n_tbs, uint64_t from, uint32_t want,
             uint64_t *out)
{
  uint32_t got = 0;
  for (uint64_t k = 0; k < n_tbs && got < want; k++)
    {
      uint64_t tb = (from + k) % n_tbs;
      /* Every recorded warp retires at least its exit: no instructions, no stream. */
      if (h->tb_counter (ctx, tb, "warp_instructions") > 0)
        out[got++] = tb;
    }
  return got;
}

/* Reads the streams of every warp of the blocks `tbs` once (see Streams),
 * counting on the way what writeback_per_sector needs. */
static int
load_streams (const WsPredictorHost *h, WsPredictorContext *ctx, const Inst *insts, uint32_t n_insts,
              const uint64_t *tbs, uint32_t n, uint32_t warps_per_tb, Streams *s)
{
  memset (s, 0, sizeof *s);
  s->n_tbs = n;
  s->warps_per_tb = warps_per_tb;
  s->kept = 1;
  /* The blocks' machine instructions are what the streams hold: the array
   * is allocated once in the common case. */
  double expect = 0;
  for (uint32_t b = 0; b < n; b++)
    expect += (double) h->tb_counter (ctx, tbs[b], "warp_instructions");
  size_t cap = expect < (double) KEPT_RECORDS_MAX ? (size_t) expect + 1 : KEPT_RECORDS_MAX;
  s->tbs = malloc (sizeof (uint64_t) * (n ? n : 1));
  s->start = malloc (sizeof (size_t) * ((size_t) n * warps_per_tb + 1));
  s->recs = malloc (sizeof (Rec) * cap);
  if (s->tbs == NULL || s->start == NULL || s->recs == NULL)
    {
      free (s->tbs);
      free (s->start);
      free (s->recs);
      memset (s, 0, sizeof *s);
      h->fail (ctx, "out of memory for the emulated warps' streams");
      return -1;
    }
  memcpy (s->tbs, tbs, sizeof (uint64_t) * n);
  size_t k = 0;
  for (uint32_t b = 0; b < n; b++)
    for (uint32_t w = 0; w < warps_per_tb; w++)
      {
        s->start[k++] = s->n_recs;
        WsPredictorWarpCursor *c = h->warp_open (ctx, tbs[b], w);
        if (c == NULL)
          continue;
        WsPredictorWarpRecord r;
        while (h->warp_next (c, &r))
          {
            s->read++;
            if (r.static_id >= n_insts)
              continue;
            if (insts[r.static_id].stores)
              s->dirtied += r.sectors;
            if (!s->kept)
              continue;
            if (s->n_recs == cap)
              {
                /* Longer than announced: grow, up to the limit; beyond it
                 * the emulation reads through cursors again. */
                Rec *more = NULL;
                if (cap < KEPT_RECORDS_MAX)
                  {
                    cap = 2 * cap < KEPT_RECORDS_MAX ? 2 * cap : KEPT_RECORDS_MAX;
                    more = realloc (s->recs, sizeof (Rec) * cap);
                  }
                if (more == NULL)
                  {
                    free (s->recs);
                    s->recs = NULL;
                    s->kept = 0;
                    continue;
                  }
                s->recs = more;
              }
            s->recs[s->n_recs++] = (Rec){ r.static_id, r.sectors, r.lines };
          }
        h->warp_close (c);
      }
  s->start[k] = s->n_recs;
  return 0;
}

static void
streams_clear (Streams *s)
{
  free (s->tbs);
  free (s->start);
  free (s->recs);
  memset (s, 0, sizeof *s);
}

/* Sectors the launch wrote back to DRAM: the cache simulation's DRAM bytes
 * less its DRAM reads (evictions of dirty sectors plus the final flush). */
static double
launch_writeback_sectors (const WsPredictorHost *h, WsPredictorContext *ctx)
{
  return (double) h->launch_counter (ctx, "dram_bytes") / 32.0 - (double) h->launch_counter (ctx, "dram_sectors");
}

/* DRAM bytes per sector a store or atomic dirties.  The cache simulation
 * gives the launch's write-back sectors W (launch_writeback_sectors) but
 * not the stores per instruction; the sectors S the launch dirties are
 * estimated from the blocks of `sample` (their stored sectors per warp
 * instruction x the launch's warp instructions).  Each write-back comes
 * from one dirtied sector, so W / S <= 1; it is below 1 when a sector is
 * stored to repeatedly while it stays in the L2 (a histogram's counters). */
static double
writeback_per_sector (const WsPredictorHost *h, WsPredictorContext *ctx, double writeback, const Streams *sample)
{
  double launch_insts = (double) h->launch_counter (ctx, "warp_instructions");
  double dirtied = sample->dirtied, insts = sample->read;
  if (dirtied <= 0 || insts <= 0 || launch_insts <= 0)
    return 0;
  return 32.0 * fmin (1.0, writeback / (dirtied * launch_insts / insts));
}

/* §4 extrapolation from "a small number of thread blocks": the mean warp
 * instructions per recorded block over [from, to). */
static double
mean_block_insts (const WsPredictorHost *h, WsPredictorContext *ctx, uint64_t from, uint64_t to)
{
  double sum = 0, n = 0;
  for (uint64_t tb = from; tb < to; tb++)
    {
      uint64_t c = h->tb_counter (ctx, tb, "warp_instructions");
      if (c > 0)
        {
          sum += (double) c;
          n++;
        }
    }
  return n > 0 ? sum / n : 0;
}

/* The same mean over the emulated blocks. */
static double
mean_of (const WsPredictorHost *h, WsPredictorContext *ctx, const uint64_t *tbs, uint32_t n)
{
  double sum = 0;
  for (uint32_t i = 0; i < n; i++)
    sum += (double) h->tb_counter (ctx, tbs[i], "warp_instructions");
  return n > 0 ? sum / n : 0;
}

/* One wave: `per_sm` blocks on the busiest SM, `active` SMs sharing DRAM,
 * emulated from the blocks of [from, to) and scaled by the ratio of their
 * mean length to that of the emulated blocks (§4: "emulation of a small
 * number of thread blocks"; docs/models/ake.md, "Waves and the tail").
 * Blocks that begin `sample` (the streams the write-back estimate read)
 * are emulated from there; others are read now. */
static int
emulate_wave (const WsPredictorHost *h, WsPredictorContext *ctx, Machine *m, const Inst *insts, uint32_t n_insts,
              uint32_t n_slots, uint64_t n_tbs, uint64_t from, uint64_t to, uint32_t per_sm, double active,
              double clock_mhz, uint32_t warps_per_tb, const Streams *sample, EmuResult *r, double *scale)
{
  uint64_t *tbs = calloc (per_sm, sizeof (uint64_t));
  if (tbs == NULL)
    return -1;
  uint32_t got = pick_blocks (h, ctx, n_tbs, from, per_sm, tbs);
  if (got == 0)
    {
      free (tbs);
      h->fail (ctx, "no thread block of the launch was recorded in the trace");
      return -1;
    }
  if (got < per_sm)
    h->warn (ctx, "fewer recorded thread blocks than fit on an SM: the emulated SM holds only those");
  m->dram_bytes_per_cycle = dram_bytes_per_cycle (m, clock_mhz, active);
  m->l2_bytes_per_cycle = l2_bytes_per_cycle (m, active);
  int in_sample = sample->n_tbs >= got && sample->warps_per_tb == warps_per_tb;
  for (uint32_t i = 0; in_sample && i < got; i++)
    in_sample = sample->tbs[i] == tbs[i];
  Streams own = { 0 };
  int rc = in_sample ? 0 : load_streams (h, ctx, insts, n_insts, tbs, got, warps_per_tb, &own);
  if (rc == 0)
    rc = emulate (h, ctx, m, insts, n_insts, n_slots, in_sample ? sample : &own, got, r);
  streams_clear (&own);
  double emulated = mean_of (h, ctx, tbs, got), range = mean_block_insts (h, ctx, from, to);
  *scale = emulated > 0 && range > 0 ? range / emulated : 1;
  free (tbs);
  return rc;
}

/* The whole model: §2's emulation of one SM's resident blocks for a full
 * wave and the tail, §4's extrapolation to the grid, and the CPI stack. */
static int
ake_predict (const WsPredictorHost *h, WsPredictorContext *ctx)
{
  if (h->is_analytic (ctx))
    {
      h->fail (ctx, "ake emulates traced launches only");
      return -1;
    }
  Machine m = { 0 };
  const char *sched = h->option_string (ctx, "scheduler");
  if (sched != NULL && strcmp (sched, "gto") == 0)
    m.gto = 1;
  else if (sched != NULL && strcmp (sched, "rr") == 0)
    m.gto = 0;
  else
    {
      fail_fmt (h, ctx, "unknown scheduler '%s' (gto or rr)", sched ? sched : "");
      return -1;
    }
  double max_tbs = h->option_double (ctx, "max_tbs");
  if (!(max_tbs >= 0) || max_tbs != floor (max_tbs) || max_tbs > 1e6)
    {
      h->fail (ctx, "option max_tbs must be a whole number >= 0 (0 = as many blocks as fit on an SM)");
      return -1;
    }
  int caches = h->option_double (ctx, "caches") != 0;
  m.bank_conflicts = h->option_double (ctx, "bank_conflicts") != 0;

  double sms = h->gpu_param (ctx, "sms", 0);
  double clock_mhz = h->gpu_param (ctx, "core_clock_mhz", 0);
  if (sms < 1 || clock_mhz <= 0)
    {
      fail_fmt (h, ctx, "GPU '%s' lacks sms or core_clock_mhz", h->gpu_name (ctx));
      return -1;
    }
  int blocks_per_sm = 0, occ_warps = 0;
  h->occupancy (ctx, &blocks_per_sm, &occ_warps, NULL);
  uint64_t n_tbs = h->n_tbs (ctx);
  uint32_t warps_per_tb = h->warps_per_tb (ctx);
  if (blocks_per_sm < 1 || warps_per_tb < 1 || n_tbs < 1)
    {
      fail_fmt (h, ctx,
                "kernel '%s' cannot run on this GPU: no thread block fits on an SM "
                "(check its block size, registers and shared memory)",
                h->kernel_name (ctx));
      return -1;
    }
  uint32_t per_sm = (uint32_t) blocks_per_sm;
  if (max_tbs > 0 && max_tbs < per_sm)
    per_sm = (uint32_t) max_tbs;

  machine_from_gpu (h, ctx, &m);
  uint32_t n_insts = h->n_insts (ctx), n_slots = 1;
  Inst *insts = build_insts (h, ctx, &m, caches, &n_slots);
  if (insts == NULL)
    {
      h->fail (ctx, "out of memory for the static instruction table");
      return -1;
    }
  /* The write-back estimate samples the first blocks that fit on an SM,
   * which are also the first emulated wave's (or begin them, for a tail
   * of fewer blocks per SM): their streams are read once, here. */
  Streams sample = { 0 };
  double writeback = caches ? launch_writeback_sectors (h, ctx) : 0;
  if (writeback > 0)
    {
      uint64_t *tbs = calloc (per_sm, sizeof (uint64_t));
      if (tbs == NULL)
        {
          free (insts);
          h->fail (ctx, "out of memory for the emulated blocks");
          return -1;
        }
      uint32_t got = pick_blocks (h, ctx, n_tbs, 0, per_sm, tbs);
      int loaded = load_streams (h, ctx, insts, n_insts, tbs, got, warps_per_tb, &sample);
      free (tbs);
      if (loaded != 0)
        {
          free (insts);
          return -1;
        }
      m.writeback_per_sector = writeback_per_sector (h, ctx, writeback, &sample);
    }
  for (uint32_t i = 0; i < n_insts; i++)
    if (insts[i].dirties)
      insts[i].dram_per_sector += m.writeback_per_sector;

  /* §4: the emulated blocks stand for a wave of sms x per_sm blocks; the
   * grid takes full waves and a tail wave whose busiest SM holds
   * ceil(tail / sms) blocks and shares DRAM with min(sms, tail) SMs. */
  uint64_t wave = (uint64_t) sms * per_sm;
  uint64_t full_waves = n_tbs / wave, tail = n_tbs % wave;
  EmuResult full = { 0 }, tail_r = { 0 };
  double full_scale = 1, tail_scale = 1;
  uint32_t tail_per_sm = 0;
  int rc = 0;
  if (full_waves > 0)
    rc = emulate_wave (h, ctx, &m, insts, n_insts, n_slots, n_tbs, 0, full_waves * wave, per_sm, sms, clock_mhz,
                       warps_per_tb, &sample, &full, &full_scale);
  if (rc == 0 && tail > 0)
    {
      tail_per_sm = (uint32_t) ((tail + (uint64_t) sms - 1) / (uint64_t) sms);
      rc = emulate_wave (h, ctx, &m, insts, n_insts, n_slots, n_tbs, full_waves * wave, n_tbs, tail_per_sm,
                         fmin (sms, (double) tail), clock_mhz, warps_per_tb, &sample, &tail_r, &tail_scale);
    }
  streams_clear (&sample);
  free (insts);
  if (rc != 0)
    return -1;

  double fw = (double) full_waves * full_scale, tw = tail > 0 ? tail_scale : 0;
  /* The SM starts the next wave's first block block_launch after this
   * wave's last: a wave followed by another lasts at least its blocks x
   * block_launch (the launch's last wave ends with its blocks). */
  double followed = (double) (tail > 0 ? full_waves : full_waves - (full_waves > 0)) * full_scale;
  double launch_wait = fmax (0, full.launch_span - full.cycles);
  double cycles = fw * full.cycles + followed * launch_wait + tw * tail_r.cycles;
  double warp_insts = (double) h->launch_counter (ctx, "warp_instructions");
  if (warp_insts <= 0 || cycles <= 0)
    {
      h->fail (ctx, "the launch recorded no warp instructions");
      return -1;
    }
  h->set_cycles (ctx, cycles);
  h->set_seconds (ctx, cycles / (clock_mhz * 1e6));
  h->set_ipc (ctx, warp_insts / cycles);
  /* The stack adds up to cycles per warp instruction of the launch (1 / IPC). */
  for (int c = 0; c < N_CATS; c++)
    h->add_cpi (ctx, cat_names[c],
                (fw * full.cat[c] + tw * tail_r.cat[c] + (c == CAT_LAUNCH ? followed * launch_wait : 0)) / warp_insts);

  const EmuResult *main_r = full_waves > 0 ? &full : &tail_r;
  h->set_metric (ctx, "writeback_bytes_per_stored_sector", m.writeback_per_sector);
  h->set_metric (ctx, "tbs_per_sm", full_waves > 0 ? per_sm : tail_per_sm);
  h->set_metric (ctx, "warps_per_sm", (double) (full_waves > 0 ? per_sm : tail_per_sm) * warps_per_tb);
  h->set_metric (ctx, "occupancy_warps", occ_warps);
  h->set_metric (ctx, "waves", (double) full_waves + (tail > 0 ? 1 : 0));
  h->set_metric (ctx, "full_waves", (double) full_waves);
  h->set_metric (ctx, "tail_tbs_per_sm", tail_per_sm);
  h->set_metric (ctx, "block_launch_cycles", m.block_launch);
  h->set_metric (ctx, "wave_cycles", full.cycles);
  h->set_metric (ctx, "tail_cycles", tail_r.cycles);
  h->set_metric (ctx, "wave_scale", full_scale);
  h->set_metric (ctx, "tail_scale", tail > 0 ? tail_scale : 0);
  h->set_metric (ctx, "emulated_instructions", full.insts + tail_r.insts);
  h->set_metric (ctx, "sm_ipc", main_r->cycles > 0 ? main_r->insts / main_r->cycles : 0);
  h->set_metric (ctx, "dram_bytes_per_cycle_per_sm", dram_bytes_per_cycle (&m, clock_mhz, sms));
  h->set_metric (ctx, "gmem_utilization", main_r->cycles > 0 ? main_r->gmem_busy / main_r->cycles : 0);
  h->set_metric (ctx, "shared_utilization", main_r->cycles > 0 ? main_r->shared_busy / main_r->cycles : 0);
  h->set_metric (ctx, "lsu_utilization", main_r->cycles > 0 ? main_r->lsu_busy / main_r->cycles : 0);
  h->set_metric (ctx, "global_requests_per_inst",
                 main_r->global_insts > 0 ? main_r->global_requests / main_r->global_insts : 0);
  h->set_metric (ctx, "shared_wavefronts_per_inst",
                 main_r->shared_insts > 0 ? main_r->wavefronts / main_r->shared_insts : 0);
  h->set_metric (ctx, "barriers_released", full.barriers_released + tail_r.barriers_released);
  return 0;
}

/* The reasons an emulated warp waits (seed 002 §2.3), in cat_names order. */
static const WsPredictorCpiCategory ake_cpi[N_CATS] = {
  { "BASE", NULL, "issue cycles" },
  { "DEP", NULL, "waiting on an ALU/FP32 result (the pipe's latency)" },
  { "SFU", NULL, "waiting on the special-function unit" },
  { "FP64", NULL, "waiting on the double-precision unit" },
  { "MEM", NULL, "waiting on global or local memory (L1, L2 or DRAM as the cache simulation says)" },
  { "SHARED", NULL, "waiting on shared memory, bank conflicts included" },
  { "BARRIER", NULL, "waiting at __syncthreads for the block's other warps" },
  { "CONTROL", NULL, "branches and warp-level control" },
  { "LAUNCH", "#999999", "waiting for the SM to start the warp's thread block (block_launch_cycles)" },
};

static const WsPredictorDescriptor ake_descriptor = {
  .abi_version = WS_PREDICTOR_ABI_VERSION,
  .api_version = WS_PREDICTOR_API_VERSION,
  .name = "ake",
  .version = "1.0",
  .description = "Abstract kernel emulation (seed 002): one SM's resident blocks emulated with GTO and "
                 "latency/gap resources, extrapolated over waves",
  .n_options = sizeof ake_options / sizeof ake_options[0],
  .options = ake_options,
  .supports_trace = 1,
  .supports_analytic = 0,
  .predict = ake_predict,
  /* No global state: everything lives in the call and its context. */
  .flags = WS_PREDICTOR_FLAG_THREAD_SAFE,
  .n_cpi_categories = N_CATS,
  .cpi_categories = ake_cpi,
};

WS_PREDICTOR_EXPORT const WsPredictorDescriptor *ws_predictor_query (void);

const WsPredictorDescriptor *
ws_predictor_query (void)
{
  return &ake_descriptor;
}
