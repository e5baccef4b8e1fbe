/* ws-sim.c: the cycle-level simulator (see ws-sim.h and docs/simulator.md).
 *
 * One global clock.  Each simulated cycle first handles the events due at
 * that cycle (warp wake-ups, memory responses, L2 and DRAM steps), then lets
 * every SM that has a ready warp issue.  When no warp anywhere is ready the
 * clock jumps to the next event.  Ready warps are bits in a per-scheduler
 * mask; waiting warps sit in the event queue (dependency) or are woken by the
 * load that they wait for (memory), so no cycle ever scans all warps. */
#include "sim/ws-sim.h"
#include "bounds/ws-bounds.h"
#include "occupancy/ws-occupancy.h"
#include "cachesim/ws-cachesim.h"
#include "ptx/ws-ptx.h"
#include "sim/ws-sim-events.h"

#include <math.h>
#include <string.h>

#define INF_TIME UINT64_MAX
#define NO_REG 0xffffu
#define MSHR_MAX_WAITERS 32
#define SECTOR 32u

/* The simulator's fall-backs and modelling constants, named once.  Where a
 * GPU record gives the hardware property, the record wins. */
/* A row miss costs a precharge and an activate (tRP + tRCD) more than a row
 * hit.  The DRAM array's timings are set by its cells, not its interface,
 * and are about the same in every GDDR5/GDDR6/HBM generation: 12-14 ns each
 * (JEDEC JESD235 HBM; gem5's datasheet-derived HBM_1000_4H_1x128 tRCD = tRP =
 * 12-14 ns; GPGPU-Sim's GDDR5 configurations RCD = RP = 12 cycles of 924 MHz
 * = 13 ns; Accel-Sim's V100 HBM2 RCD = RP = 12 cycles of 850 MHz = 14 ns).
 * The rest of the catalogue's pointer-chase latency past the L2 is the
 * memory partition's queues, the controller and the column access, which a
 * row hit pays too. */
#define DRAM_ROW_MISS_NS 27.0
/* DRAM cycles past the L2 when the record's dram_latency is not above its
 * L2 latency (an incomplete record). */
#define DRAM_ACCESS_FALLBACK 100.0
/* Requests an FR-FCFS channel scheduler looks at (its command queue):
 * row hits further back wait.  GPGPU-Sim's GDDR models use queues of this
 * order (frfcfs_dram_sched_queue_size 64 in its configurations). */
#define DRAM_SCHED_WINDOW 64u
/* MSHRs per SM when the record has no l1_mshrs: the Fermi-Pascal records'
 * figure (GPUMech's baseline, seed 001 Table 7: 32 MSHR entries). */
#define L1_MSHRS_FALLBACK 32

/* ---- small helpers ------------------------------------------------------- */

const char *
ws_sim_scheduler_name (WsSimScheduler s)
{
  return s == WS_SIM_SCHED_GTO ? "gto" : "rr";
}

gboolean
ws_sim_scheduler_from_string (const char *s, WsSimScheduler *out)
{
  if (g_ascii_strcasecmp (s, "rr") == 0)
    *out = WS_SIM_SCHED_RR;
  else if (g_ascii_strcasecmp (s, "gto") == 0)
    *out = WS_SIM_SCHED_GTO;
  else
    return FALSE;
  return TRUE;
}

const char *
ws_sim_stall_name (WsSimStall s)
{
  static const char *names[] = { "idle", "dependency", "memory", "structural", "barrier" };
  return s < WS_SIM_STALL_COUNT ? names[s] : "?";
}

void
ws_sim_config_init (WsSimConfig *config)
{
  memset (config, 0, sizeof *config);
  config->scheduler = WS_SIM_SCHED_GTO;
  config->interconnect_latency = 10;
  config->timeline_interval = 1000;
}

void
ws_sim_launch_stats_clear (WsSimLaunchStats *stats)
{
  g_free (stats->sm_instructions);
  g_free (stats->timeline);
  g_free (stats->tb_simulated);
  memset (stats, 0, sizeof *stats);
}

/* ---- events (ws-sim-events.h) --------------------------------------------- */

enum {
  EV_WARP_WAKE,   /* a: sm, b: warp slot */
  EV_WARP_FINISH, /* a: sm, b: warp slot */
  EV_LOAD_PART,   /* b: load token: one part of a load completed (L1 hit, const) */
  EV_L2_ARRIVE,   /* b: request */
  EV_L1_FILL,     /* b: request: response reached the SM */
  EV_DRAM_SCHED,  /* a: channel */
  EV_STORE_ACK,   /* b: store request: the L2 accepted it and the SM heard so */
};

/* ---- state ----------------------------------------------------------------- */

enum {
  W_FREE,
  W_READY, /* bit set in the scheduler's ready mask */
  W_DEP,   /* waiting for a pipeline result: a wake event is queued */
  W_MEM,   /* waiting for a load */
  W_BARRIER,
  W_DRAIN,     /* stream finished, loads outstanding */
  W_FINISHING, /* stream finished, waiting for the last result: finish event queued */
  W_MSHR,      /* its load needs more MSHRs than are free: retried when one frees */
  W_DONE,
};

typedef struct {
  WsTraceWarpIter it;
  WsTraceRecord rec; /* the next instruction */
  gboolean has_rec;
  uint64_t *reg_ready; /* ready cycle per register slot; INF_TIME = pending load */
  uint64_t last_complete;
  uint64_t wake;
  uint64_t age;
  uint32_t outstanding;
  uint32_t absorbed; /* records skipped just before rec: they issue nothing (ws-trace-lowering.h) */
  uint16_t tb_slot;
  uint8_t state;
} Warp;

typedef struct {
  WsTraceTb *data;
  uint64_t tb;
  uint32_t n_warps, live, arrived, done;
  gboolean busy;
} TbSlot;

typedef struct {
  uint64_t ready; /* bit = local warp index (slot / n_sched) */
  double pipe_free[WS_ICLASS_COUNT];
  int last;               /* local index last issued (RR, GTO greedy) */
  uint64_t blocked_until; /* every ready warp's pipe is busy before this cycle */
  uint32_t n_live, n_mem, n_dep, n_barrier;
  uint64_t last_acc; /* stall accounting: cycles before this are accounted */
} Sched;

typedef struct {
  uint64_t line;     /* request address (L1-sector granularity) */
  gboolean findable; /* in the SM's lookup table: in use and not yet full of waiters */
  uint32_t n_waiters;
  uint32_t waiters[MSHR_MAX_WAITERS]; /* load tokens */
} Mshr;

typedef struct {
  Warp *warps;
  TbSlot *tbs;
  Sched *sched;
  WsCache *l1;
  Mshr *mshrs;
  uint32_t *mshr_free; /* stack of free MSHR indices */
  uint32_t n_mshr_free;
  uint32_t *mshr_used; /* indices in use (unordered) */
  uint32_t n_mshr_used;
  uint32_t *mshr_pos;  /* index -> its position in mshr_used */
  uint32_t *mshr_hash; /* open addressing by line: MSHR index + 1, 0 = empty */
  uint64_t *mshr_line; /* line of each MSHR, dense beside the table (probes touch no Mshr) */
  uint32_t mshr_hash_mask;
  uint32_t n_mshrs;
  uint32_t *mshr_wait;      /* warp slots parked in W_MSHR, in the order they parked */
  uint32_t *mshr_wait_need; /* the entries each parked load needs (beside, so a fill scans no Warp) */
  uint32_t n_mshr_wait;
  double data_free;          /* the L1 data pipe (shared by the schedulers) is busy before this cycle */
  uint64_t next_block_start; /* the SM starts one block at a time: not before this cycle (block_launch_cycles) */
  uint64_t insts;
} Sm;

static void mshr_release (Sm *sm, uint32_t idx);

typedef struct {
  uint32_t sm, slot;
  uint16_t dst[2];
  uint32_t parts;
  uint32_t next_free;
} LoadTok;

typedef struct {
  uint64_t addr; /* first byte */
  uint32_t sm;
  int32_t mshr;       /* -1: none (store, atomic) */
  uint32_t tok;       /* atomics: the load token; else unused */
  uint32_t n_sectors; /* 32-byte sectors in the request */
  uint32_t pending;   /* loads: sectors still at DRAM; stores: victim write-backs not yet sent */
  uint8_t is_write, is_atomic;
  uint32_t next_free;
} Req;

typedef struct {
  uint32_t req;    /* parent request (G_MAXUINT32 for writes without one) */
  uint64_t sector; /* 32-byte sector address (addr >> 5) */
  uint32_t bank;
  uint64_t row;
  uint8_t is_write;
} DramReq;

typedef struct {
  DramReq *q; /* FIFO in arrival order: q[head .. head + n) */
  guint head, n, cap;
  double bus_free;
  double next_cmd;
  gboolean scheduled;
  double *bank_ready;
  int64_t *open_row;
} Channel;

struct _WsSim {
  WsGpu *gpu;
  WsSimConfig config;
  guint n_sms, n_sched, width, max_warps, warps_per_sched;
  double icnt, l2_tag, dram_cas, dram_rowmiss, dram_burst;
  double dram_bytes_per_cycle;  /* catalogue peak, all channels; 0 unknown */
  uint64_t dram_enqueued;       /* 32-byte DRAM transfers queued since the simulator was made */
  uint32_t l1_granule;          /* coalescing granularity of L1-cached loads */
  uint64_t block_launch_cycles; /* catalogue block_launch_cycles, whole cycles (0: blocks start at once) */
  gboolean data_pipe;           /* model the L1 data pipe (Volta and later, see uses_data_pipe) */
  uint64_t miss_min;            /* the fastest L1-miss round trip (an L2 hit), whole cycles */
  double blocked_free;          /* try_issue's ISSUE_BLOCKED: when the resource that blocked frees */
  uint32_t lat[WS_ICLASS_COUNT];
  double ii[WS_ICLASS_COUNT];
  Sm *sms;
  WsCache *l2;
  double *slice_free;
  double slice_sectors_per_clk; /* what one L2 slice serves per cycle */
  guint n_slices;
  Channel *channels;
  guint n_channels, n_banks;
  EventQueue events;
  LoadTok *toks;
  uint32_t n_toks, tok_free;
  Req *reqs;
  uint32_t n_reqs, req_free;
  uint64_t elapsed; /* cycles of earlier launches */
  uint64_t now;     /* the cycle being simulated */
  uint64_t age;
  /* unit observer */
  uint64_t unit_insts, unit_count;
  WsSimUnitFunc unit_func;
  gpointer unit_data;
  GCancellable *cancellable;

  /* per-launch */
  const WsTraceKernel *kernel;
  const WsTraceTbCounters *counters;
  uint8_t *iclass; /* per static instruction */
  uint32_t n_slots;
  uint64_t *reg_pool; /* register-ready times of every warp slot; kept between launches */
  gsize reg_pool_len;
  uint64_t *active_sms; /* bit per SM with a ready warp */
  guint active_words;
  WsTrace *trace;
  guint launch;
  uint64_t n_tbs, next_tb, running;
  int blocks_per_sm, warps_per_tb;
  WsSimLaunchStats *st;
  GError *error;
  uint64_t issued;         /* trace warp instructions retired this launch (issued + absorbed) */
  uint64_t stores_unacked; /* store requests sent and not yet accepted by the L2 */
  uint32_t *timeline;
  guint tl_cap;
  uint64_t tl_interval;
  guint tl_n;
  /* region sampling */
  const WsSimRegionSampling *rs;
  int rs_state; /* 0 normal, 1 warming, 2 fast-forward */
  int32_t rs_region;
  int64_t rs_designated; /* TB id of the sampling unit, -1 none, -2 pick next dispatched */
  uint64_t rs_unit_start, rs_unit_insts;
  double rs_prev_ipc, rs_region_ipc;
  uint64_t rs_prev_backlog; /* DRAM requests queued when the previous unit ended */
  uint64_t rs_unit_dram;    /* dram_enqueued when the unit started */
  double rs_unit_spi;       /* DRAM sectors per warp instruction of the last unit */
  double rs_region_spi;     /* ... of the unit that ended warming */
  /* the current fast-forward: Table IV charge and DRAM traffic of its TBs,
   * all of them and those of the window (one epoch) being checked */
  double rs_ff_table4;
  uint64_t rs_ff_sectors, rs_ff_l2;
  uint64_t rs_win_tbs, rs_win_insts, rs_win_sectors;
};

/* ---- construction ---------------------------------------------------------- */

static void
init_channel (Channel *c, guint n_banks)
{
  c->cap = 64;
  c->q = g_new (DramReq, c->cap);
  c->bank_ready = g_new0 (double, n_banks);
  c->open_row = g_new (int64_t, n_banks);
  for (guint b = 0; b < n_banks; b++)
    c->open_row[b] = -1;
}

WsSim *
ws_sim_new (const WsGpu *gpu, const WsSimConfig *config, GError **error)
{
  if (gpu->sms <= 0 || gpu->max_warps_per_sm <= 0 || gpu->warp_schedulers_per_sm <= 0)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID,
                   "GPU '%s' cannot be simulated: it needs sms, max_warps_per_sm and warp_schedulers_per_sm > 0 "
                   "(set them with `warpscope-cli hw import`)",
                   gpu->name);
      return NULL;
    }
  int warps_per_sched = (gpu->max_warps_per_sm + gpu->warp_schedulers_per_sm - 1) / gpu->warp_schedulers_per_sm;
  if (warps_per_sched > 64)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_UNSUPPORTED,
                   "GPU '%s': %d warps per scheduler; the simulator supports at most 64", gpu->name, warps_per_sched);
      return NULL;
    }
  WsSim *s = g_new0 (WsSim, 1);
  s->gpu = ws_gpu_copy (gpu);
  evq_init (&s->events);
  if (config)
    s->config = *config;
  else
    ws_sim_config_init (&s->config);
  if (s->config.interconnect_latency <= 0)
    s->config.interconnect_latency = 10;
  if (s->config.timeline_interval == 0)
    s->config.timeline_interval = 1000;
  s->n_sms = (guint) gpu->sms;
  s->n_sched = (guint) gpu->warp_schedulers_per_sm;
  s->width = gpu->issue_width > 0 ? (guint) gpu->issue_width : 1;
  s->max_warps = (guint) gpu->max_warps_per_sm;
  s->warps_per_sched = (guint) warps_per_sched;
  for (int c = 0; c < WS_ICLASS_COUNT; c++)
    {
      double l = gpu->pipes[c].latency;
      s->lat[c] = l >= 1 ? (uint32_t) ceil (l) : 1;
      s->ii[c] = gpu->pipes[c].initiation_interval > 0 ? gpu->pipes[c].initiation_interval : 0;
    }
  /* Unloaded latencies from the catalogue are round trips seen by the SM:
   * L2 hit = icnt + tag/data + icnt; DRAM = that + the DRAM access. */
  s->icnt = s->config.interconnect_latency;
  double l2 = gpu->l2_latency > 0 ? gpu->l2_latency : 2 * s->icnt + 20;
  if (l2 < 2 * s->icnt + 1)
    s->icnt = MAX (0.0, (l2 - 1) / 2);
  s->l2_tag = l2 - 2 * s->icnt;
  s->n_channels = gpu->dram_channels > 0 ? (guint) gpu->dram_channels : 1;
  s->n_banks = gpu->dram_banks > 0 ? (guint) gpu->dram_banks : 1;
  double bytes_per_cycle = 0;
  if (gpu->dram_bandwidth_gbs > 0 && gpu->core_clock_mhz > 0)
    bytes_per_cycle = gpu->dram_bandwidth_gbs * 1e9 / (gpu->core_clock_mhz * 1e6);
  s->dram_burst = bytes_per_cycle > 0 ? SECTOR / (bytes_per_cycle / s->n_channels) : 1;
  s->dram_bytes_per_cycle = bytes_per_cycle;
  double access = gpu->dram_latency > l2 ? gpu->dram_latency - l2 : DRAM_ACCESS_FALLBACK;
  /* The catalogue's dram_latency is a pointer chase's (ws-hw.h): every
   * load opens a new row, so the unloaded row-miss path (L2 round trip +
   * precharge/activate + column access + burst) sums to it and a row hit is
   * faster by the precharge + activate (DRAM_ROW_MISS_NS at the core clock,
   * at most half the DRAM part).  Until 2026-11-28 the row miss was taken
   * as 40 % of the DRAM part (135 cycles on an A100, ~96 ns): it made
   * every stream's loads 100 cycles faster than the hardware's and a bank
   * that changes row busy three times too long (docs/validation.md). */
  s->dram_rowmiss = MIN (DRAM_ROW_MISS_NS * MAX (gpu->core_clock_mhz, 0.0) / 1000.0, access / 2);
  s->dram_cas = MAX (1.0, access - s->dram_rowmiss - s->dram_burst);
  s->l1_granule = gpu->l1_sector >= (int) SECTOR ? (uint32_t) gpu->l1_sector : SECTOR;
  s->block_launch_cycles = gpu->block_launch_cycles > 0 ? (uint64_t) llround (gpu->block_launch_cycles) : 0;
  if (gpu->l1_size <= 0)
    s->l1_granule = SECTOR;
  s->data_pipe = gpu->cc_major >= 7;
  s->miss_min = (uint64_t) floor (2 * s->icnt + s->l2_tag);
  s->n_slices = gpu->l2_slices > 0 ? (guint) gpu->l2_slices : 1;
  s->slice_free = g_new0 (double, s->n_slices);
  /* The chip-wide L2 bandwidth spread over the slices (A100 whitepaper:
   * 5120 B/clk = 64 B/clk on each of 80 slices; where the record has no
   * figure, GA100's 64 B/clk per slice, ws_gpu_l2_model_bytes_per_clk);
   * no slice count: one 32-byte sector per cycle.  Until 2026-11-28 an
   * unknown width was one sector per cycle per slice (V100's rate), which
   * put H100 and H200 at half their measured L2 plateau. */
  s->slice_sectors_per_clk = gpu->l2_slices > 0 ? ws_gpu_l2_model_bytes_per_clk (gpu) / gpu->l2_slices / SECTOR : 1.0;
  s->l2 = ws_cache_new (gpu->l2_size > 0 ? (uint32_t) gpu->l2_size : 0,
                        gpu->l2_line > 0 ? (uint32_t) gpu->l2_line : 128, SECTOR,
                        gpu->l2_assoc > 0 ? (uint32_t) gpu->l2_assoc : 8);
  s->channels = g_new0 (Channel, s->n_channels);
  for (guint c = 0; c < s->n_channels; c++)
    init_channel (&s->channels[c], s->n_banks);
  guint n_mshrs = gpu->l1_mshrs > 0 ? (guint) gpu->l1_mshrs : L1_MSHRS_FALLBACK;
  s->sms = g_new0 (Sm, s->n_sms);
  for (guint i = 0; i < s->n_sms; i++)
    {
      Sm *sm = &s->sms[i];
      sm->warps = g_new0 (Warp, s->max_warps);
      sm->sched = g_new0 (Sched, s->n_sched);
      sm->l1 = ws_cache_new (gpu->l1_size > 0 ? (uint32_t) gpu->l1_size : 0,
                             gpu->l1_line > 0 ? (uint32_t) gpu->l1_line : 128, s->l1_granule,
                             gpu->l1_assoc > 0 ? (uint32_t) gpu->l1_assoc : 4);
      sm->mshrs = g_new0 (Mshr, n_mshrs);
      sm->mshr_free = g_new (uint32_t, n_mshrs);
      sm->mshr_used = g_new (uint32_t, n_mshrs);
      sm->mshr_pos = g_new0 (uint32_t, n_mshrs);
      /* A table at most a quarter full keeps probe chains short. */
      guint cap = 16;
      while (cap < 4 * n_mshrs)
        cap *= 2;
      sm->mshr_hash = g_new0 (uint32_t, cap);
      sm->mshr_line = g_new0 (uint64_t, n_mshrs);
      sm->mshr_hash_mask = cap - 1;
      for (guint m = 0; m < n_mshrs; m++)
        sm->mshr_free[m] = n_mshrs - 1 - m;
      sm->n_mshr_free = n_mshrs;
      sm->n_mshrs = n_mshrs;
      sm->mshr_wait = g_new (uint32_t, s->max_warps);
      sm->mshr_wait_need = g_new (uint32_t, s->max_warps);
    }
  s->active_words = (s->n_sms + 63) / 64;
  s->active_sms = g_new0 (uint64_t, s->active_words);
  s->tok_free = G_MAXUINT32;
  s->req_free = G_MAXUINT32;
  return s;
}

void
ws_sim_free (WsSim *s)
{
  if (s == NULL)
    return;
  g_clear_object (&s->cancellable);
  for (guint i = 0; i < s->n_sms; i++)
    {
      Sm *sm = &s->sms[i];
      g_free (sm->warps);
      g_free (sm->tbs);
      g_free (sm->sched);
      ws_cache_free (sm->l1);
      g_free (sm->mshrs);
      g_free (sm->mshr_free);
      g_free (sm->mshr_used);
      g_free (sm->mshr_pos);
      g_free (sm->mshr_hash);
      g_free (sm->mshr_line);
      g_free (sm->mshr_wait);
      g_free (sm->mshr_wait_need);
    }
  for (guint c = 0; c < s->n_channels; c++)
    {
      g_free (s->channels[c].q);
      g_free (s->channels[c].bank_ready);
      g_free (s->channels[c].open_row);
    }
  g_free (s->channels);
  g_free (s->sms);
  g_free (s->slice_free);
  ws_cache_free (s->l2);
  evq_free (&s->events);
  g_free (s->toks);
  g_free (s->reqs);
  g_free (s->active_sms);
  g_free (s->reg_pool);
  ws_gpu_free (s->gpu);
  g_free (s);
}

const WsGpu *
ws_sim_get_gpu (const WsSim *sim)
{
  return sim->gpu;
}

void
ws_sim_set_cancellable (WsSim *sim, GCancellable *cancellable)
{
  g_set_object (&sim->cancellable, cancellable);
}

uint64_t
ws_sim_get_elapsed_cycles (const WsSim *sim)
{
  return sim->elapsed;
}

void
ws_sim_set_unit_observer (WsSim *sim, uint64_t unit_instructions, WsSimUnitFunc func, gpointer user_data)
{
  sim->unit_insts = unit_instructions;
  sim->unit_count = 0;
  sim->unit_func = func;
  sim->unit_data = user_data;
}

/* ---- pools (grow by doubling; steady state allocates nothing) -------------- */

static uint32_t
tok_alloc (WsSim *s)
{
  if (s->tok_free == G_MAXUINT32)
    {
      uint32_t old = s->n_toks;
      s->n_toks = old ? old * 2 : 1024;
      s->toks = g_renew (LoadTok, s->toks, s->n_toks);
      for (uint32_t i = s->n_toks; i-- > old;)
        {
          s->toks[i].next_free = s->tok_free;
          s->tok_free = i;
        }
    }
  uint32_t t = s->tok_free;
  s->tok_free = s->toks[t].next_free;
  return t;
}

static void
tok_release (WsSim *s, uint32_t t)
{
  s->toks[t].next_free = s->tok_free;
  s->tok_free = t;
}

static uint32_t
req_alloc (WsSim *s)
{
  if (s->req_free == G_MAXUINT32)
    {
      uint32_t old = s->n_reqs;
      s->n_reqs = old ? old * 2 : 1024;
      s->reqs = g_renew (Req, s->reqs, s->n_reqs);
      for (uint32_t i = s->n_reqs; i-- > old;)
        {
          s->reqs[i].next_free = s->req_free;
          s->req_free = i;
        }
    }
  uint32_t r = s->req_free;
  s->req_free = s->reqs[r].next_free;
  return r;
}

static void
req_release (WsSim *s, uint32_t r)
{
  s->reqs[r].next_free = s->req_free;
  s->req_free = r;
}

/* ---- scheduler bookkeeping ----------------------------------------------- */

static inline Sched *
warp_sched (WsSim *s, Sm *sm, uint32_t slot)
{
  return &sm->sched[slot % s->n_sched];
}

static inline WsSimStall
sched_reason (const Sched *sc)
{
  if (sc->ready)
    return WS_SIM_STALL_STRUCTURAL;
  if (sc->n_live == 0)
    return WS_SIM_STALL_IDLE;
  if (sc->n_mem > 0)
    return WS_SIM_STALL_MEMORY;
  if (sc->n_dep > 0)
    return WS_SIM_STALL_DEPENDENCY;
  return WS_SIM_STALL_BARRIER;
}

/* Accounts the scheduler's cycles up to @now with its state so far; call
 * before every change of that state. */
static inline void
sched_touch_at (WsSim *s, Sched *sc, uint64_t now)
{
  if (now > sc->last_acc)
    {
      s->st->stalls[sched_reason (sc)] += now - sc->last_acc;
      sc->last_acc = now;
    }
}

/* Cycles before the current one are settled whatever happens now. */
static inline void
sched_touch (WsSim *s, Sched *sc)
{
  sched_touch_at (s, sc, s->now);
}

static inline void
sm_mark_active (WsSim *s, uint32_t smi)
{
  s->active_sms[smi >> 6] |= 1ull << (smi & 63);
}

/* Leaves warp state @from (counters only). */
static inline void
state_leave (Sched *sc, uint8_t from, uint32_t local)
{
  switch (from)
    {
    case W_READY: sc->ready &= ~(1ull << local); break;
    case W_DEP:
    case W_FINISHING: sc->n_dep--; break;
    case W_MEM:
    case W_DRAIN:
    case W_MSHR: sc->n_mem--; break;
    case W_BARRIER: sc->n_barrier--; break;
    default: break;
    }
}

static inline void
state_enter (WsSim *s, uint32_t smi, Sched *sc, Warp *w, uint8_t to, uint32_t local)
{
  w->state = to;
  switch (to)
    {
    case W_READY:
      sc->ready |= 1ull << local;
      sc->blocked_until = 0;
      sm_mark_active (s, smi);
      break;
    case W_DEP:
    case W_FINISHING: sc->n_dep++; break;
    case W_MEM:
    case W_DRAIN:
    case W_MSHR: sc->n_mem++; break;
    case W_BARRIER: sc->n_barrier++; break;
    default: break;
    }
}

static void set_state (WsSim *s, uint32_t smi, uint32_t slot, uint8_t to, uint64_t now);

static inline void
set_state (WsSim *s, uint32_t smi, uint32_t slot, uint8_t to, uint64_t now)
{
  Sm *sm = &s->sms[smi];
  Warp *w = &sm->warps[slot];
  Sched *sc = warp_sched (s, sm, slot);
  uint32_t local = slot / s->n_sched;
  (void) now;
  sched_touch (s, sc);
  state_leave (sc, w->state, local);
  if (to == W_FREE || to == W_DONE)
    {
      if (w->state != W_FREE && w->state != W_DONE)
        sc->n_live--;
    }
  else if (w->state == W_FREE || w->state == W_DONE)
    sc->n_live++;
  state_enter (s, smi, sc, w, to, local);
}

/* ---- warp progress --------------------------------------------------------- */

static void warp_finished (WsSim *s, uint32_t smi, uint32_t slot, uint64_t now);

static inline void
warp_fetch (WsSim *s, Warp *w)
{
  if (s->error)
    {
      w->has_rec = FALSE;
      return;
    }
  /* The next machine instruction: records the trace's lowering absorbs
   * (into an FMA or a constant-bank operand) take no issue slot and no
   * pipe; they are counted with the instruction that follows them. */
  w->absorbed = 0;
  while ((w->has_rec = ws_trace_warp_iter_next (&w->it, &w->rec, &s->error)) && w->rec.static_id < s->kernel->n_insts
         && !ws_trace_lowering_issues (s->kernel->lowering[w->rec.static_id]))
    w->absorbed++;
  if (w->has_rec && w->rec.static_id >= s->kernel->n_insts)
    {
      g_set_error (&s->error, WS_ERROR, WS_ERROR_CORRUPT,
                   "trace '%s': launch %u, warp record with instruction %u beyond kernel '%s' (%u instructions)",
                   ws_trace_get_path (s->trace), s->launch, w->rec.static_id, s->kernel->name, s->kernel->n_insts);
      w->has_rec = FALSE;
    }
}

/* Decides what warp @slot does next; its next instruction could issue at
 * cycle @now at the earliest.  The warp joins the ready mask only when it
 * can issue in the cycle being simulated (or, for the warp that has just
 * issued, the next one: its scheduler will not pick it twice); any later
 * time goes through a wake-up event, so no warp ever issues early. */
static void
warp_next_from (WsSim *s, uint32_t smi, uint32_t slot, uint64_t now, gboolean self)
{
  Sm *sm = &s->sms[smi];
  Warp *w = &sm->warps[slot];
  if (!w->has_rec)
    {
      if (w->outstanding > 0)
        set_state (s, smi, slot, W_DRAIN, now);
      else if (w->last_complete > s->now)
        {
          set_state (s, smi, slot, W_FINISHING, now);
          evq_push (&s->events, w->last_complete, EV_WARP_FINISH, smi, slot);
        }
      else
        warp_finished (s, smi, slot, now);
      return;
    }
  const WsTraceStaticInst *si = &s->kernel->machine[w->rec.static_id];
  uint64_t t = now;
  for (int i = 0; i < si->n_src && i < 4; i++)
    if (si->src[i] != NO_REG && si->src[i] < s->n_slots && w->reg_ready[si->src[i]] > t)
      t = w->reg_ready[si->src[i]];
  for (int i = 0; i < si->n_dst && i < 2; i++)
    if (si->dst[i] != NO_REG && si->dst[i] < s->n_slots && w->reg_ready[si->dst[i]] > t)
      t = w->reg_ready[si->dst[i]];
  if (t == INF_TIME)
    set_state (s, smi, slot, W_MEM, now);
  else if (t <= s->now || (self && t == s->now + 1))
    set_state (s, smi, slot, W_READY, now);
  else
    {
      set_state (s, smi, slot, W_DEP, now);
      w->wake = t;
      evq_push (&s->events, t, EV_WARP_WAKE, smi, slot);
    }
}

static inline void
warp_next (WsSim *s, uint32_t smi, uint32_t slot, uint64_t now)
{
  warp_next_from (s, smi, slot, now, FALSE);
}

/* ---- TB dispatch and completion ------------------------------------------- */

static int32_t
tb_region (WsSim *s, uint64_t tb)
{
  if (s->rs == NULL || tb >= s->rs->n_tbs)
    return -1;
  return s->rs->region[tb];
}

/* All running TBs in region @r? */
static gboolean
all_running_in (WsSim *s, int32_t r)
{
  if (r < 0)
    return FALSE;
  for (guint i = 0; i < s->n_sms; i++)
    for (int b = 0; b < s->blocks_per_sm; b++)
      if (s->sms[i].tbs[b].busy && tb_region (s, s->sms[i].tbs[b].tb) != r)
        return FALSE;
  return TRUE;
}

static void tb_complete (WsSim *s, uint32_t smi, uint32_t b, uint64_t now);
/* What a TB's functional warming did: DRAM sectors (load and atomic
 * misses, dirty write-backs), L2 sectors it surely moved, and its load and
 * atomic sectors and how many of them hit. */
typedef struct {
  WsSim *s;
  uint64_t traffic, l2;
  uint64_t load_sectors, load_hits;
} WarmTally;

static gboolean warm_tb (WsSim *s, const WsTraceKernel *k, WsTraceTb *tb, WarmTally *tally, GError **error);

/* Ends a fast-forward: its TBs are charged the largest of seed 000 Table
 * IV's insts / region IPC, the time the DRAM needs for the bytes they move
 * (their load misses and the dirty lines their stores evict, counted by the
 * functional warming) at the catalogue's peak bandwidth, and the time the
 * L2 slices need for the sectors that surely reach them (stores, atomics,
 * load misses; one sector per slice per cycle, as in l2_arrive).  Table IV
 * assumes the skipped TBs run like the warming units; the bounds hold
 * whatever the units saw: the hardware cannot retire the skipped work
 * before its traffic has crossed the L2 and the DRAM bus (the roofline's
 * memory bounds, Williams et al., CACM 52(4), 2009).  Stores are posted, so
 * a unit's IPC (one TB's lifetime) does not show either: with the region's
 * IPC alone a store stream beat the DRAM (A100, 128 MiB init: 38 743
 * cycles against a floor of 83 600; full simulation 100 291, 16 k of them
 * while the L2 absorbs the first 40 MiB at 80 sectors per cycle). */
static void
ff_end (WsSim *s)
{
  if (s->rs_state != 2)
    return;
  double floor_cycles = s->dram_bytes_per_cycle > 0 ? (double) s->rs_ff_sectors * SECTOR / s->dram_bytes_per_cycle : 0;
  double l2_cycles = (double) s->rs_ff_l2 / s->n_slices;
  s->st->skipped_cycles += MAX (s->rs_ff_table4, MAX (floor_cycles, l2_cycles));
  s->st->skipped_dram_sectors += s->rs_ff_sectors;
  s->rs_ff_table4 = 0;
  s->rs_ff_sectors = 0;
  s->rs_ff_l2 = 0;
  s->rs_state = 0;
}

/* Does the window of skipped TBs just completed move DRAM traffic unlike the
 * warming unit did, by more than the IPC tolerance would allow in time?
 * Then the region's IPC was that of another memory state.  The case: the
 * warming units of a store stream ran while the L2 still had room for the
 * dirty lines (the first 40 MiB on an A100 cause no DRAM write), so their
 * IPC, two units in a row within 10 %, is a transient's; once the skipped
 * TBs have filled the L2 (functionally), each of their stores evicts a
 * dirty sector.  The seed's criterion means "the cache state is stable";
 * a change of the traffic per instruction says it was not. */
static gboolean
ff_traffic_changed (WsSim *s)
{
  if (!s->rs->warm_skipped || s->rs_win_insts == 0 || s->dram_bytes_per_cycle <= 0)
    return FALSE; /* without warming the skipped traffic is unknown */
  double spi = (double) s->rs_win_sectors / (double) s->rs_win_insts;
  double dram_cpi = fabs (spi - s->rs_region_spi) * SECTOR / s->dram_bytes_per_cycle;
  return dram_cpi > s->rs->ipc_tolerance / s->rs_region_ipc;
}

/* Starts the next TB (in id order) in slot @b of SM @smi, skipping TBs of a
 * fast-forwarded region; @replacing: the slot's previous TB terminated at
 * @now (FALSE: the launch's first fill).  Returns FALSE when none is left. */
static gboolean
dispatch (WsSim *s, uint32_t smi, uint32_t b, uint64_t now, gboolean replacing)
{
  while (s->next_tb < s->n_tbs && s->error == NULL)
    {
      uint64_t id = s->next_tb++;
      if (!s->counters[id].recorded)
        continue; /* never finished in the emulator (a faulted launch): nothing to replay */
      int32_t r = tb_region (s, id);
      if (s->rs_state != 0 && r != s->rs_region)
        {
          ff_end (s);
          s->rs_state = 0; /* exit: a TB of another region */
        }
      if (s->rs_state == 2 && s->rs_win_tbs >= (uint64_t) s->blocks_per_sm * s->n_sms)
        {
          /* Checked once per epoch (eq. 4's system-occupancy TBs). */
          if (ff_traffic_changed (s))
            ff_end (s); /* simulate from here: warming starts again */
          s->rs_win_tbs = s->rs_win_insts = s->rs_win_sectors = 0;
        }
      if (s->rs_state == 2)
        {
          /* Fast-forward (seed 000 Table IV): insts / region IPC, bounded
           * below by the DRAM time of the skipped traffic (ff_end). */
          uint64_t wi = s->counters[id].warp_instructions;
          s->st->skipped_tbs++;
          s->rs_ff_table4 += (double) wi / s->rs_region_ipc;
          s->rs_win_tbs++;
          s->rs_win_insts += wi;
          if (s->rs->warm_skipped)
            {
              /* Functional warming: the skipped TB's accesses still go
               * through the L2's tags, so that the launches after this one
               * find the L2 as the whole launch would have left it.
               * Without it the L2 holds the data of the few simulated
               * (first) TBs, which is what the next launch reads first:
               * scan's add_offsets then hit in the L2 throughout its
               * warming units and was charged at 14.0 instead of 8.6 IPC. */
              g_autoptr (GError) e = NULL;
              WsTraceTb *data = ws_trace_read_tb (s->trace, s->launch, id, &e);
              WarmTally w = { 0 };
              if (data == NULL || !warm_tb (s, s->kernel, data, &w, &e))
                {
                  if (data)
                    ws_trace_tb_free (data);
                  s->error = g_steal_pointer (&e);
                  return FALSE;
                }
              ws_trace_tb_free (data);
              s->rs_ff_sectors += w.traffic;
              s->rs_ff_l2 += w.l2;
              s->rs_win_sectors += w.traffic;
            }
          continue;
        }
      g_autoptr (GError) e = NULL;
      WsTraceTb *data = ws_trace_read_tb (s->trace, s->launch, id, &e);
      if (data == NULL)
        {
          s->error = g_steal_pointer (&e);
          return FALSE;
        }
      Sm *sm = &s->sms[smi];
      TbSlot *ts = &sm->tbs[b];
      /* Thread-block start: the SM starts one block at a time, and starting
       * one takes block_launch_cycles (catalogue; docs/simulator.md): a
       * block waits for the previous start to finish, and a block that
       * replaces a terminated one starts block_launch_cycles after the
       * termination at the earliest (Volkov's figure is that replacement
       * latency).  The launch's first fill starts at once, one block per
       * interval (the start of the first is the kernel launch's cost).  Its
       * warps are woken at the start. */
      uint64_t start = MAX (replacing ? now + s->block_launch_cycles : now, sm->next_block_start);
      sm->next_block_start = start + s->block_launch_cycles;
      ts->data = data;
      ts->tb = id;
      ts->busy = TRUE;
      ts->n_warps = MIN (ws_trace_tb_get_n_warps (data), (guint) s->warps_per_tb);
      ts->live = ts->n_warps;
      ts->arrived = 0;
      ts->done = 0;
      s->running++;
      s->st->simulated_tbs++;
      if (s->st->tb_simulated != NULL)
        s->st->tb_simulated[id] = 1;
      s->st->thread_instructions += s->counters[id].thread_instructions;
      s->st->simulated_warp_instructions += s->counters[id].warp_instructions;
      if (s->rs && s->rs_designated == -2)
        {
          /* A new sampling unit: this TB's lifetime. */
          s->rs_designated = (int64_t) id;
          s->rs_unit_start = now;
          s->rs_unit_insts = s->issued;
          s->rs_unit_dram = s->dram_enqueued;
          if (s->rs_state == 0 && all_running_in (s, r))
            {
              s->rs_state = 1; /* enter: every running TB is in region r */
              s->rs_region = r;
              s->rs_prev_ipc = -1;
            }
        }
      if (ts->n_warps == 0)
        {
          tb_complete (s, smi, b, now);
          return TRUE;
        }
      for (uint32_t wi = 0; wi < ts->n_warps; wi++)
        {
          uint32_t slot = b * (uint32_t) s->warps_per_tb + wi;
          Warp *w = &sm->warps[slot];
          ws_trace_warp_iter_init (&w->it, data, wi);
          w->reg_ready = s->reg_pool + ((gsize) smi * s->max_warps + slot) * s->n_slots;
          memset (w->reg_ready, 0, sizeof (uint64_t) * s->n_slots);
          w->last_complete = start;
          w->outstanding = 0;
          w->tb_slot = (uint16_t) b;
          w->age = s->age++;
          warp_fetch (s, w);
        }
      for (uint32_t wi = 0; wi < ts->n_warps; wi++)
        warp_next (s, smi, b * (uint32_t) s->warps_per_tb + wi, start);
      return TRUE;
    }
  return FALSE;
}

static void
barrier_release (WsSim *s, uint32_t smi, uint32_t b, uint64_t now)
{
  Sm *sm = &s->sms[smi];
  TbSlot *ts = &sm->tbs[b];
  ts->arrived = 0;
  for (uint32_t wi = 0; wi < ts->n_warps; wi++)
    {
      uint32_t slot = b * (uint32_t) s->warps_per_tb + wi;
      if (sm->warps[slot].state == W_BARRIER)
        warp_next (s, smi, slot, now);
    }
}

static void
tb_complete (WsSim *s, uint32_t smi, uint32_t b, uint64_t now)
{
  Sm *sm = &s->sms[smi];
  TbSlot *ts = &sm->tbs[b];
  uint64_t id = ts->tb;
  ws_trace_tb_free (ts->data);
  ts->data = NULL;
  ts->busy = FALSE;
  s->running--;
  for (uint32_t wi = 0; wi < ts->n_warps; wi++)
    set_state (s, smi, b * (uint32_t) s->warps_per_tb + wi, W_FREE, now);
  if (s->rs && (int64_t) id == s->rs_designated)
    {
      /* End of a sampling unit (seed 000 §IV-B2). */
      double cyc = (double) (now - s->rs_unit_start);
      double ipc = cyc > 0 ? (double) (s->issued - s->rs_unit_insts) / cyc : 0;
      s->rs_unit_spi = s->issued > s->rs_unit_insts
                         ? (double) (s->dram_enqueued - s->rs_unit_dram) / (double) (s->issued - s->rs_unit_insts)
                         : 0;
      if (s->rs_state == 1 && ipc > 0)
        {
          /* Warming also waits for the DRAM queues to stop growing: stores
           * are posted, so units shorter than the time the write backlog
           * takes to build up show the unloaded IPC twice in a row (scan's
           * add_offsets: 14.0 in its first two units, 8.6 once the queues
           * have filled).  The seed's criterion stands for "the memory
           * state is stable"; a growing backlog says it is not yet. */
          uint64_t backlog = 0;
          for (guint c = 0; c < s->n_channels; c++)
            backlog += s->channels[c].n;
          gboolean queues_stable = (double) backlog
                                   <= (double) s->rs_prev_backlog * (1 + s->rs->ipc_tolerance) + s->n_channels;
          s->rs_prev_backlog = backlog;
          if (s->rs_prev_ipc > 0 && queues_stable
              && fabs (ipc - s->rs_prev_ipc) / s->rs_prev_ipc < s->rs->ipc_tolerance)
            {
              s->rs_state = 2;
              s->rs_region_ipc = ipc;
              s->rs_region_spi = s->rs_unit_spi;
              s->rs_ff_table4 = 0;
              s->rs_ff_sectors = 0;
              s->rs_ff_l2 = 0;
              s->rs_win_tbs = s->rs_win_insts = s->rs_win_sectors = 0;
              s->st->regions_fast_forwarded++;
            }
          else
            s->rs_prev_ipc = ipc;
        }
      s->rs_designated = -2;
    }
  dispatch (s, smi, b, now, TRUE);
}

static void
warp_finished (WsSim *s, uint32_t smi, uint32_t slot, uint64_t now)
{
  Sm *sm = &s->sms[smi];
  Warp *w = &sm->warps[slot];
  TbSlot *ts = &sm->tbs[w->tb_slot];
  set_state (s, smi, slot, W_DONE, now);
  ts->live--;
  ts->done++;
  if (ts->done == ts->n_warps)
    tb_complete (s, smi, w->tb_slot, now);
  else if (ts->arrived > 0 && ts->arrived == ts->live)
    barrier_release (s, smi, w->tb_slot, now);
}

/* ---- memory system --------------------------------------------------------- */

static void
load_part_done (WsSim *s, uint32_t t, uint64_t now)
{
  LoadTok *k = &s->toks[t];
  if (--k->parts > 0)
    return;
  Sm *sm = &s->sms[k->sm];
  Warp *w = &sm->warps[k->slot];
  for (int i = 0; i < 2; i++)
    if (k->dst[i] != NO_REG && k->dst[i] < s->n_slots)
      w->reg_ready[k->dst[i]] = now;
  if (now > w->last_complete)
    w->last_complete = now;
  w->outstanding--;
  uint32_t smi = k->sm, slot = k->slot;
  tok_release (s, t);
  if (w->state == W_MEM || (w->state == W_DRAIN && w->outstanding == 0))
    warp_next (s, smi, slot, now);
}

static inline uint32_t
slice_of (WsSim *s, uint64_t addr)
{
  uint64_t line = addr >> 7;
  return (uint32_t) ((line ^ (line >> 7) ^ (line >> 13)) % s->n_slices);
}

static void dram_enqueue (WsSim *s, uint32_t req, uint64_t sector, gboolean is_write, uint64_t now);

static void
send_to_l2 (WsSim *s, uint32_t r, uint64_t now)
{
  if (s->reqs[r].is_write)
    s->stores_unacked++;
  evq_push (&s->events, now + (uint64_t) ceil (s->icnt), EV_L2_ARRIVE, 0, r);
}

static void
l2_arrive (WsSim *s, uint32_t r, uint64_t now)
{
  Req *q = &s->reqs[r];
  uint32_t sl = slice_of (s, q->addr);
  double start = MAX ((double) now, s->slice_free[sl]);
  s->slice_free[sl] = start + q->n_sectors / s->slice_sectors_per_clk;
  uint64_t done = (uint64_t) ceil (start + (q->n_sectors - 1) / s->slice_sectors_per_clk + s->l2_tag + s->icnt);
  uint32_t misses = 0, victims = 0;
  for (uint32_t i = 0; i < q->n_sectors; i++)
    {
      uint64_t a = q->addr + (uint64_t) i * SECTOR;
      s->st->l2_accesses++;
      /* The L2 is write-back with write allocation: stores (and atomics,
       * performed here) dirty their sector; DRAM is written only when a
       * line with dirty sectors is evicted, one 32-byte write per dirty
       * sector.  A full-sector store miss needs no DRAM read.  The cache
       * model reports how many dirty sectors the eviction wrote back but
       * not the victim's address; the victim lies in the same set, and
       * with sets a multiple of the channels (V100: 3072 sets, 32
       * channels; A100: 20480, 40) in the same DRAM channel, so its write
       * is queued at this sector's address (its bank and row are a
       * stand-in: the victim's are unknown). */
      guint wb = 0;
      gboolean hit = ws_cache_access_wb (s->l2, a, q->is_write || q->is_atomic, &wb);
      if (hit)
        s->st->l2_hits++;
      else if (!q->is_write)
        {
          misses++;
          dram_enqueue (s, r, a >> 5, FALSE, (uint64_t) ceil (start));
        }
      /* A store cannot be accepted before the dirty data it displaces has
       * left for DRAM, so its victims' writes carry the request and
       * acknowledge it (dram_schedule); a load's victims hold nothing up. */
      for (guint j = 0; j < wb; j++)
        dram_enqueue (s, q->is_write ? r : G_MAXUINT32, a >> 5, TRUE, (uint64_t) ceil (start));
      if (q->is_write)
        victims += wb;
    }
  if (q->is_write)
    {
      /* Without victims the store is accepted at once; the acknowledgement
       * travels back through the interconnect (done includes it). */
      q->pending = victims;
      if (victims == 0)
        evq_push (&s->events, MAX (done, now + 1), EV_STORE_ACK, 0, r);
      return;
    }
  q->pending = misses;
  if (misses == 0)
    evq_push (&s->events, MAX (done, now + 1), EV_L1_FILL, 0, r);
}

static void
store_ack (WsSim *s, uint32_t r, uint64_t now)
{
  g_assert (s->stores_unacked > 0);
  s->stores_unacked--;
  uint32_t t = s->reqs[r].tok;
  req_release (s, r);
  if (t != G_MAXUINT32)
    load_part_done (s, t, now); /* one sector of the warp's store accepted */
}

/* Permutation-based bank interleaving (Zhang, Zhu and Zhang, "A
 * permutation-based page interleaving scheme to reduce row-buffer conflicts
 * and exploit data locality", MICRO 2000): the bank index is combined with
 * the row's bits, folded in bank-sized digits, so that addresses a
 * multiple of (channels x banks x row size) apart (arrays allocated at
 * power-of-two distances: gpu-stream's B, C and A are 16 MiB apart) fall
 * in different banks instead of thrashing one bank's row buffer, while the
 * lines of one row stay in one bank (a permutation of the banks per row).
 * With the plain modulo mapping, V100 triad (32 channels x 16 banks x 2 KiB)
 * opened a row for every access: 244 GB/s simulated, 545 measured. */
static inline uint32_t
dram_bank_of (uint64_t bank, uint64_t row, guint n_banks)
{
  if (n_banks <= 1)
    return 0; /* one bank: nothing to permute (the fold below never ends) */
  uint64_t fold = 0;
  for (uint64_t r = row; r > 0; r /= n_banks)
    fold += r % n_banks;
  return (uint32_t) ((bank + fold) % n_banks);
}

static void
dram_enqueue (WsSim *s, uint32_t req, uint64_t sector, gboolean is_write, uint64_t now)
{
  uint64_t line = sector >> 2; /* 128-byte interleave between channels */
  uint32_t ch = (uint32_t) (line % s->n_channels);
  uint64_t rest = line / s->n_channels;
  /* 2 KiB rows: 16 consecutive 128-byte lines of a channel share a row. */
  uint64_t page = rest >> 4;
  Channel *c = &s->channels[ch];
  if (c->head + c->n == c->cap)
    {
      /* Move the live requests to the front, or grow when at least half
       * full, so appending stays amortised O(1). */
      if (c->head > 0 && c->n < c->cap / 2)
        memmove (c->q, &c->q[c->head], sizeof (DramReq) * c->n);
      else
        {
          DramReq *nq = g_new (DramReq, c->cap * 2);
          memcpy (nq, &c->q[c->head], sizeof (DramReq) * c->n);
          g_free (c->q);
          c->q = nq;
          c->cap *= 2;
        }
      c->head = 0;
    }
  s->dram_enqueued++;
  DramReq *d = &c->q[c->head + c->n++];
  d->req = req;
  d->sector = sector;
  d->row = page / s->n_banks;
  d->bank = dram_bank_of (page % s->n_banks, d->row, s->n_banks);
  d->is_write = (uint8_t) is_write;
  if (!c->scheduled)
    {
      c->scheduled = TRUE;
      evq_push (&s->events, MAX (now, (uint64_t) floor (c->next_cmd)), EV_DRAM_SCHED, ch, 0);
    }
}

/* FR-FCFS: the oldest row hit to a ready bank, else the oldest request to a
 * ready bank, else the oldest request.  One column command per burst slot,
 * so the data bus never exceeds the channel's bandwidth.  Command times are
 * kept fractional: when a burst is shorter than a core cycle (HBM2 channels
 * of the A100: 32 B / 27.6 B per cycle = 1.16 cycles; V100: 1.74) the
 * channel issues every command whose slot falls inside this cycle
 * ([now, now + 1)), so that rounding a slot up to a whole cycle never caps
 * the bandwidth (it did: one command per 2 cycles, 58 % of the A100's peak
 * and 87 % of the V100's).
 *
 * What limits the sustained bandwidth in this model, and nothing else:
 *  - the data bus: one burst per dram_burst cycles per channel (the peak);
 *  - row misses: a bank that changes row is busy dram_rowmiss (precharge +
 *    activate) before its next column command; FR-FCFS hides that behind
 *    the other banks' row hits when the DRAM_SCHED_WINDOW requests it looks
 *    at hold them;
 *  - the request window itself (few requests queued: latency-bound).
 * Refresh, read/write turnaround (tWTR/tRTW), tFAW and tRAS are not
 * modelled (tRAS, a row open at least 31 ns before the bank may change row,
 * was tried on 2026-11-28: it made the roofline's memory-bound streams 8 %
 * slower, from -16 to -25 % on A100 40GB, because this 64-request window
 * and bank mapping leave more row changes to one bank than the hardware's
 * controllers do; kept out until their queueing is modelled), so a
 * long stream of row hits reaches the peak; the hardware's 87-96 % of peak
 * (gpu-benches stream on V100/A100) is not reproduced by any fitted factor. */
static void
dram_issue (WsSim *s, Channel *c, double t)
{
  guint pick = G_MAXUINT, window = MIN (c->n, DRAM_SCHED_WINDOW);
  DramReq *q0 = &c->q[c->head];
  for (guint i = 0; i < window; i++)
    {
      DramReq *d = &q0[i];
      if (c->bank_ready[d->bank] <= t && c->open_row[d->bank] == (int64_t) d->row)
        {
          pick = i;
          break;
        }
    }
  if (pick == G_MAXUINT)
    for (guint i = 0; i < window; i++)
      if (c->bank_ready[q0[i].bank] <= t)
        {
          pick = i;
          break;
        }
  if (pick == G_MAXUINT)
    pick = 0;
  /* Remove it by shifting the (at most DRAM_SCHED_WINDOW) older requests up one slot: a
   * store stream leaves millions queued behind the window, which moving
   * the tail instead made quadratic. */
  DramReq d = q0[pick];
  memmove (&q0[1], &q0[0], sizeof (DramReq) * pick);
  c->head++;
  c->n--;
  if (c->n == 0)
    c->head = 0;
  double start = MAX (t, c->bank_ready[d.bank]);
  gboolean row_hit = c->open_row[d.bank] == (int64_t) d.row;
  double data = start + s->dram_cas + (row_hit ? 0 : s->dram_rowmiss);
  double bus = MAX (data, c->bus_free);
  c->bus_free = bus + s->dram_burst;
  c->bank_ready[d.bank] = row_hit ? start + s->dram_burst : start + s->dram_rowmiss + s->dram_burst;
  c->open_row[d.bank] = (int64_t) d.row;
  c->next_cmd = t + s->dram_burst;
  if (row_hit)
    s->st->dram_row_hits++;
  if (d.is_write)
    {
      s->st->dram_writes++;
      /* The L2 accepts the store that evicted this dirty data once the
       * data is on its way out: when its burst has crossed the bus. */
      if (d.req != G_MAXUINT32)
        {
          Req *q = &s->reqs[d.req];
          if (--q->pending == 0)
            evq_push (&s->events, (uint64_t) ceil (bus + s->dram_burst + s->icnt), EV_STORE_ACK, 0, d.req);
        }
    }
  else
    {
      s->st->dram_reads++;
      Req *q = &s->reqs[d.req];
      if (--q->pending == 0)
        evq_push (&s->events, (uint64_t) ceil (bus + s->dram_burst + s->l2_tag + s->icnt), EV_L1_FILL, 0, d.req);
    }
}

static void
dram_schedule (WsSim *s, uint32_t ch, uint64_t now)
{
  Channel *c = &s->channels[ch];
  c->scheduled = FALSE;
  while (c->n > 0 && c->next_cmd < (double) now + 1)
    dram_issue (s, c, MAX ((double) now, c->next_cmd));
  if (c->n > 0)
    {
      /* The next slot lies in a later cycle: wake up in the cycle that
       * contains it (floor, not ceil: the slot is used at its exact time). */
      c->scheduled = TRUE;
      evq_push (&s->events, MAX (now + 1, (uint64_t) floor (c->next_cmd)), EV_DRAM_SCHED, ch, 0);
    }
}

static void
l1_fill (WsSim *s, uint32_t r, uint64_t now)
{
  Req *q = &s->reqs[r];
  if (q->mshr < 0)
    {
      uint32_t t = q->tok;
      req_release (s, r);
      load_part_done (s, t, now);
      return;
    }
  Sm *sm = &s->sms[q->sm];
  Mshr *m = &sm->mshrs[q->mshr];
  uint32_t idx = (uint32_t) q->mshr;
  req_release (s, r);
  mshr_release (sm, idx);
  if (sm->n_mshr_wait > 0)
    {
      /* Parked loads retry now that an entry is free, in the order they
       * parked, as many as the free entries can serve: waking every parked
       * warp on each fill would have all but the first fail their retry
       * and park again (and cost a lookup per request each time). */
      uint32_t smi = (uint32_t) (sm - s->sms);
      uint32_t nw = sm->n_mshr_wait, kept = 0;
      uint32_t budget = sm->n_mshr_free;
      gboolean all_free = sm->n_mshr_free == sm->n_mshrs;
      sm->n_mshr_wait = 0;
      for (uint32_t i = 0; i < nw; i++)
        {
          uint32_t need = sm->mshr_wait_need[i];
          if (need <= budget || all_free)
            {
              if (sm->warps[sm->mshr_wait[i]].state == W_MSHR)
                {
                  set_state (s, smi, sm->mshr_wait[i], W_READY, now);
                  budget -= MIN (budget, need);
                }
            }
          else
            {
              sm->mshr_wait_need[kept] = need;
              sm->mshr_wait[kept++] = sm->mshr_wait[i];
            }
        }
      sm->n_mshr_wait = kept;
    }
  uint32_t n = m->n_waiters;
  uint32_t waiters[MSHR_MAX_WAITERS];
  memcpy (waiters, m->waiters, n * sizeof (uint32_t));
  m->n_waiters = 0;
  for (uint32_t i = 0; i < n; i++)
    load_part_done (s, waiters[i], now);
}

/* Unique request addresses of a memory record at granularity @g. */
static guint
coalesce (const WsTraceRecord *rec, uint32_t size, uint32_t g, uint64_t *out)
{
  guint n = 0;
  uint32_t mask = rec->active_mask;
  uint64_t gm = ~((uint64_t) g - 1);
  if (size == 0)
    size = 4;
  while (mask)
    {
      int lane = __builtin_ctz (mask);
      mask &= mask - 1;
      uint64_t a0 = rec->addrs[lane] & gm, a1 = (rec->addrs[lane] + size - 1) & gm;
      for (uint64_t a = a0; a <= a1; a += g)
        {
          gboolean seen = FALSE;
          /* Neighbouring lanes usually share the last request. */
          for (guint i = n; i-- > 0;)
            if (out[i] == a)
              {
                seen = TRUE;
                break;
              }
          if (!seen && n < 128)
            out[n++] = a;
        }
    }
  return n;
}

/* Bank-conflict degree of a shared access before Volta: the most distinct
 * 4-byte words that fall into one of the 32 banks (same word = broadcast). */
static guint
shared_degree (const WsTraceRecord *rec, uint32_t size)
{
  if (size == 0)
    size = 4;
  if (rec->addr_mode == WS_TRACE_ADDR_MODE_STRIDE && size <= 4 && (rec->stride == 0 || rec->stride == 4))
    return 1;
  uint64_t words[128];
  guint n = 0;
  uint32_t mask = rec->active_mask;
  while (mask)
    {
      int lane = __builtin_ctz (mask);
      mask &= mask - 1;
      for (uint32_t b = 0; b < size && n < 128; b += 4)
        {
          uint64_t w = (rec->addrs[lane] + b) >> 2;
          gboolean seen = FALSE;
          for (guint i = 0; i < n; i++)
            if (words[i] == w)
              {
                seen = TRUE;
                break;
              }
          if (!seen)
            words[n++] = w;
        }
    }
  guint count[32] = { 0 }, deg = 1;
  for (guint i = 0; i < n; i++)
    {
      guint c = ++count[words[i] & 31];
      if (c > deg)
        deg = c;
    }
  return deg;
}

/* Whether memory record @rec goes through its SM's L1 data pipe.  From
 * Volta on the L1 data stage (the same array as shared memory) returns one
 * wavefront a cycle per SM: 32 banks of 4 bytes, so an access needs its
 * bank-conflict degree (same word = broadcast) and at least active lanes x
 * size / 128 (Nsight Compute's l1tex__data_pipe_lsu_wavefronts;
 * gpu-strides measures 1.0 cycles per warp load for a float broadcast, 2.0
 * for a double one).  The count is the physical bound's
 * (ws_bounds_access_wavefronts, docs/bounds.md), so a simulated launch
 * never beats the bound's shared and l1 terms.  Global stores and atomics
 * go to the L2 without returning data through the stage.
 * Before Volta the pipe is not modelled: global and local loads take the
 * L1/texture path, whose per-access rule is not published (the bound has
 * none either), and keep the issue interval and MSHR limits alone; a
 * shared bank conflict is replayed by the scheduler (nvprof's
 * shared_replay_overhead, compute capability 3.x-6.x), which the shared
 * pipe held degree x interval models, within the bank bound because every
 * pre-Volta record's shared interval is at least its schedulers per SM. */
static inline gboolean
uses_data_pipe (const WsSim *s, const WsTraceRecord *rec, gboolean is_load)
{
  return s->data_pipe && rec->kind == WS_TRACE_RECORD_MEM
         && (rec->space == WS_SPACE_SHARED
             || (is_load && (rec->space == WS_SPACE_GLOBAL || rec->space == WS_SPACE_LOCAL)));
}

/* Occupies SM @sm's data pipe with record @rec's wavefronts, one a cycle,
 * from @now (the caller checked that it is free).  Returns the cycles it
 * holds the pipe beyond the first wavefront: the catalogue's unloaded
 * latencies (shared, L1 hit) include one. */
static inline double
data_pipe_take (WsSim *s, Sm *sm, const WsTraceRecord *rec, uint32_t size, uint64_t now)
{
  double wf = ws_bounds_access_wavefronts (rec, size ? size : 4, s->gpu->cc_major);
  if (!(wf > 0)) /* none, or NaN: no published rule */
    return 0;
  double start = MAX (sm->data_free, (double) now);
  sm->data_free = start + wf;
  return sm->data_free - 1 - (double) now;
}

/* MSHRs in use are found by line through a small open-addressing table
 * (linear probing, backward-shift deletion): a linear scan over up to 256
 * entries per request made bandwidth-bound launches spend two thirds of
 * the simulation in the lookup. */
static inline uint32_t
mshr_hash_slot (const Sm *sm, uint64_t line)
{
  return (uint32_t) ((line * 0x9E3779B97F4A7C15ull) >> 32) & sm->mshr_hash_mask;
}

static Mshr *
mshr_find (Sm *sm, uint64_t line)
{
  for (uint32_t h = mshr_hash_slot (sm, line);; h = (h + 1) & sm->mshr_hash_mask)
    {
      uint32_t v = sm->mshr_hash[h];
      if (v == 0)
        return NULL;
      if (sm->mshr_line[v - 1] == line && sm->mshrs[v - 1].n_waiters < MSHR_MAX_WAITERS)
        return &sm->mshrs[v - 1];
    }
}

static void
mshr_take (Sm *sm, uint32_t idx)
{
  sm->mshr_pos[idx] = sm->n_mshr_used;
  sm->mshr_used[sm->n_mshr_used++] = idx;
  sm->mshr_line[idx] = sm->mshrs[idx].line;
  uint32_t h = mshr_hash_slot (sm, sm->mshr_line[idx]);
  while (sm->mshr_hash[h] != 0)
    h = (h + 1) & sm->mshr_hash_mask;
  sm->mshr_hash[h] = idx + 1;
  sm->mshrs[idx].findable = TRUE;
}

/* Takes an MSHR out of the lookup table: when it is released, and as soon
 * as it is full of waiters (it can take no more, and a hot line's full
 * entries would otherwise lengthen every probe for that line). */
static void
mshr_unfind (Sm *sm, uint32_t idx)
{
  if (!sm->mshrs[idx].findable)
    return;
  sm->mshrs[idx].findable = FALSE;
  uint32_t mask = sm->mshr_hash_mask;
  uint32_t h = mshr_hash_slot (sm, sm->mshr_line[idx]);
  while (sm->mshr_hash[h] != idx + 1)
    h = (h + 1) & mask;
  /* Backward-shift: move later entries of the chain into the hole when
   * their home slot does not lie (cyclically) after the hole. */
  for (uint32_t j = (h + 1) & mask;; j = (j + 1) & mask)
    {
      uint32_t v = sm->mshr_hash[j];
      if (v == 0)
        break;
      uint32_t home = mshr_hash_slot (sm, sm->mshr_line[v - 1]);
      if (((j - home) & mask) >= ((j - h) & mask))
        {
          sm->mshr_hash[h] = v;
          h = j;
        }
    }
  sm->mshr_hash[h] = 0;
}

static void
mshr_release (Sm *sm, uint32_t idx)
{
  uint32_t pos = sm->mshr_pos[idx], last = sm->mshr_used[--sm->n_mshr_used];
  sm->mshr_used[pos] = last;
  sm->mshr_pos[last] = pos;
  mshr_unfind (sm, idx);
  sm->mshr_free[sm->n_mshr_free++] = idx;
}

/* ---- issue ------------------------------------------------------------------ */

enum { ISSUE_BLOCKED, ISSUE_OK, ISSUE_PARKED };

/* Tries to issue warp @slot's next instruction at @now.  Returns
 * ISSUE_BLOCKED when its pipe is busy, ISSUE_PARKED when its load needs
 * more MSHRs than are free (the warp leaves the ready mask until an MSHR
 * frees, so it is not retried every cycle).
 *
 * Long (about 250 lines) on purpose: it is the simulator's hottest function
 * (15 % of a simulation's time), and the register, pipe, MSHR and L1 steps
 * share the decoded instruction and the warp's state; splitting it is
 * worth doing only with sim-bench numbers before and after. */
static int
try_issue (WsSim *s, uint32_t smi, uint32_t slot, uint64_t now)
{
  Sm *sm = &s->sms[smi];
  Sched *sc = warp_sched (s, sm, slot);
  Warp *w = &sm->warps[slot];
  const WsTraceRecord *rec = &w->rec;
  const WsTraceStaticInst *si = &s->kernel->machine[rec->static_id];
  int cls = s->iclass[rec->static_id];
  /* A pipe with a fractional interval accepts several instructions in one
   * cycle (e.g. 0.5: two per cycle). */
  if (sc->pipe_free[cls] >= (double) now + 1)
    {
      s->blocked_free = sc->pipe_free[cls];
      return ISSUE_BLOCKED;
    }
  gboolean is_mem = rec->kind == WS_TRACE_RECORD_MEM;
  uint8_t space = rec->space;
  gboolean is_load = si->opclass != WS_OPCLASS_ST && si->opclass != WS_OPCLASS_ATOM;
  /* The SM's L1 data pipe: an access that goes through it starts only once
   * the previous one has left (checked before its wavefronts are counted,
   * so a blocked warp costs no count). */
  gboolean data_pipe = uses_data_pipe (s, rec, is_load);
  if (data_pipe && sm->data_free >= (double) now + 1)
    {
      s->blocked_free = sm->data_free;
      return ISSUE_BLOCKED;
    }

  uint64_t result = INF_TIME; /* when the destination registers are ready */
  double occupancy = s->ii[cls];
  if (is_mem && space == WS_SPACE_SHARED && data_pipe)
    {
      /* Bank conflicts hold the SM's data pipe; the scheduler's shared
       * pipe only takes its issue interval. */
      double wf_extra = data_pipe_take (s, sm, rec, si->access_size, now);
      result = now + s->lat[cls] + (uint64_t) ceil (wf_extra);
      s->st->shared_accesses++;
      s->st->shared_conflict_cycles += (uint64_t) ceil (wf_extra);
    }
  else if (is_mem && space == WS_SPACE_SHARED)
    {
      guint deg = shared_degree (rec, si->access_size);
      occupancy = s->ii[cls] * deg;
      result = now + s->lat[cls] + (uint64_t) ceil (s->ii[cls] * (deg - 1));
      s->st->shared_accesses++;
      s->st->shared_conflict_cycles += (uint64_t) ceil (s->ii[cls] * (deg - 1));
    }
  else if (is_mem && (space == WS_SPACE_GLOBAL || space == WS_SPACE_LOCAL || space == WS_SPACE_GENERIC))
    {
      gboolean is_store = si->opclass == WS_OPCLASS_ST;
      gboolean is_atomic = si->opclass == WS_OPCLASS_ATOM;
      uint64_t reqs[128];
      if (is_store || is_atomic)
        {
          guint n = coalesce (rec, si->access_size, SECTOR, reqs);
          /* Stores are posted: the warp goes on at once, but it retires
           * (and its block's slot frees) only once the L2 has accepted
           * every sector it stored, as an atomic waits for its result.  A
           * warp's critical path ends at its stores' completion (seed 004
           * §5.1: the store's memory latency lies on the path to the end
           * node; GPGPU-Sim, Bakhoda et al. ISPASS 2009, likewise keeps a
           * warp until its outstanding stores are acknowledged).  Without
           * it a block of stores retired at issue, so an SM with 2 one-warp
           * blocks replaced them as fast as it issued and a store stream
           * reached DRAM peak at 3 % occupancy (gpu-stream init, block 32:
           * 1414 GB/s predicted on A100, 159 measured). */
          uint32_t t = tok_alloc (s);
          LoadTok *k = &s->toks[t];
          k->sm = smi;
          k->slot = slot;
          k->parts = n;
          k->dst[0] = is_atomic && si->n_dst > 0 ? si->dst[0] : NO_REG;
          k->dst[1] = is_atomic && si->n_dst > 1 ? si->dst[1] : NO_REG;
          if (n == 0)
            {
              k->parts = 1;
              evq_push (&s->events, now + 1, EV_LOAD_PART, 0, t);
            }
          w->outstanding++;
          for (guint i = 0; i < n; i++)
            {
              if (is_store)
                ws_cache_invalidate (sm->l1, reqs[i]);
              uint32_t r = req_alloc (s);
              Req *q = &s->reqs[r];
              q->addr = reqs[i];
              q->sm = smi;
              q->mshr = -1;
              q->tok = t;
              q->n_sectors = 1;
              q->is_write = (uint8_t) is_store;
              q->is_atomic = (uint8_t) is_atomic;
              send_to_l2 (s, r, now);
            }
          if (is_atomic)
            for (int i = 0; i < si->n_dst && i < 2; i++)
              if (si->dst[i] != NO_REG && si->dst[i] < s->n_slots)
                w->reg_ready[si->dst[i]] = INF_TIME;
          result = now + 1;
          if (is_atomic)
            result = INF_TIME;
        }
      else
        {
          /* Loads: the MSHRs decide whether it issues; the data pipe
           * (above) when its data can return. */
          guint n = coalesce (rec, si->access_size, s->l1_granule, reqs);
          /* MSHR check first: the instruction issues only if every miss can
           * get an entry (or merge into one). */
          guint need = 0;
          for (guint i = 0; i < n; i++)
            if (mshr_find (sm, reqs[i]) == NULL && !ws_cache_access (sm->l1, reqs[i], FALSE))
              need++;
          /* A load needing more entries than exist waits until all are
           * free and sends the excess without an entry. */
          if (need > sm->n_mshr_free && sm->n_mshr_free < sm->n_mshrs)
            {
              set_state (s, smi, slot, W_MSHR, now);
              sm->mshr_wait_need[sm->n_mshr_wait] = need;
              sm->mshr_wait[sm->n_mshr_wait++] = slot;
              return ISSUE_PARKED;
            }
          double wf_extra = data_pipe ? data_pipe_take (s, sm, rec, si->access_size, now) : 0;
          uint32_t t = tok_alloc (s);
          LoadTok *k = &s->toks[t];
          k->sm = smi;
          k->slot = slot;
          k->parts = 0;
          k->dst[0] = si->n_dst > 0 ? si->dst[0] : NO_REG;
          k->dst[1] = si->n_dst > 1 ? si->dst[1] : NO_REG;
          gboolean any_hit = FALSE, any_merged = FALSE;
          for (guint i = 0; i < n; i++)
            {
              s->st->l1_accesses++;
              Mshr *m = mshr_find (sm, reqs[i]);
              if (m)
                {
                  any_merged = TRUE;
                  m->waiters[m->n_waiters++] = t;
                  if (m->n_waiters == MSHR_MAX_WAITERS)
                    mshr_unfind (sm, (uint32_t) (m - sm->mshrs));
                  k->parts++;
                  continue;
                }
              if (ws_cache_access (sm->l1, reqs[i], TRUE))
                {
                  s->st->l1_hits++;
                  any_hit = TRUE;
                  continue;
                }
              int32_t mi = -1;
              if (sm->n_mshr_free > 0)
                {
                  mi = (int32_t) sm->mshr_free[--sm->n_mshr_free];
                  m = &sm->mshrs[mi];
                  m->line = reqs[i];
                  m->n_waiters = 1;
                  m->waiters[0] = t;
                  mshr_take (sm, (uint32_t) mi);
                }
              k->parts++;
              uint32_t r = req_alloc (s);
              Req *q = &s->reqs[r];
              q->addr = reqs[i];
              q->sm = smi;
              q->mshr = mi;
              q->tok = t;
              q->n_sectors = s->l1_granule / SECTOR;
              q->is_write = 0;
              q->is_atomic = 0;
              send_to_l2 (s, r, now);
            }
          /* Hits return after the data pipe's time plus the hit latency;
           * the data of misses cannot return earlier either, which needs an
           * event only when the pipe may outlast a miss: the fastest new
           * one, or one merged into a miss already under way. */
          uint64_t pipe_done = now + (uint64_t) ceil (wf_extra) + (uint64_t) MAX (1.0, ceil (s->gpu->l1_latency));
          if (any_hit || n == 0 || pipe_done > now + s->miss_min || (any_merged && wf_extra > 0))
            {
              k->parts++;
              evq_push (&s->events, pipe_done, EV_LOAD_PART, 0, t);
            }
          w->outstanding++;
          for (int i = 0; i < si->n_dst && i < 2; i++)
            if (si->dst[i] != NO_REG && si->dst[i] < s->n_slots)
              w->reg_ready[si->dst[i]] = INF_TIME;
        }
    }
  else if (is_mem)
    /* Constant, parameter, texture: served by their own caches; modelled as
     * an L1 hit without traffic. */
    result = now + (uint64_t) MAX (1.0, ceil (s->gpu->l1_latency));
  else if (cls == WS_ICLASS_GLOBAL || cls == WS_ICLASS_SHARED)
    /* A memory instruction recorded without addresses (no active lane, or
     * a space the trace does not record): it occupies its pipe but has no
     * memory latency. */
    result = now + s->lat[WS_ICLASS_INT];
  else
    result = now + s->lat[cls];

  if (occupancy > 0)
    sc->pipe_free[cls] = MAX (sc->pipe_free[cls], (double) now) + occupancy;
  if (result != INF_TIME)
    {
      for (int i = 0; i < si->n_dst && i < 2; i++)
        if (si->dst[i] != NO_REG && si->dst[i] < s->n_slots)
          w->reg_ready[si->dst[i]] = result;
      if (result > w->last_complete)
        w->last_complete = result;
    }

  /* statistics: sm->insts counts machine instructions, s->issued and the
   * sampling units the trace's (PTX) instructions, absorbed ones included,
   * like the TB counters the sampling charges skipped TBs with */
  sm->insts++;
  s->issued += 1 + w->absorbed;
  if (s->unit_func && s->unit_insts > 0 && (s->unit_count += 1 + w->absorbed) >= s->unit_insts)
    {
      s->unit_count -= s->unit_insts;
      s->unit_func (s->elapsed + now + 1, s->unit_data);
    }
  uint64_t bucket = now / s->tl_interval;
  while (bucket >= 4096)
    {
      /* Too many samples: halve the resolution. */
      guint half = (s->tl_n + 1) / 2;
      for (guint i = 0; i < half; i++)
        for (guint k2 = 0; k2 < s->n_sms; k2++)
          {
            uint32_t v = s->timeline[(2 * i) * s->n_sms + k2];
            if (2 * i + 1 < s->tl_n)
              v += s->timeline[(2 * i + 1) * s->n_sms + k2];
            s->timeline[i * s->n_sms + k2] = v;
          }
      memset (s->timeline + (gsize) half * s->n_sms, 0, sizeof (uint32_t) * (s->tl_cap - half) * s->n_sms);
      s->tl_n = half;
      s->tl_interval *= 2;
      bucket = now / s->tl_interval;
    }
  if (bucket >= s->tl_cap)
    {
      guint cap = s->tl_cap;
      while (cap <= bucket)
        cap *= 2;
      s->timeline = g_renew (uint32_t, s->timeline, (gsize) cap * s->n_sms);
      memset (s->timeline + (gsize) s->tl_cap * s->n_sms, 0, sizeof (uint32_t) * (cap - s->tl_cap) * s->n_sms);
      s->tl_cap = cap;
    }
  s->timeline[bucket * s->n_sms + smi]++;
  if (bucket + 1 > s->tl_n)
    s->tl_n = (guint) bucket + 1;

  /* the warp moves on */
  gboolean barrier = rec->kind == WS_TRACE_RECORD_BARRIER;
  warp_fetch (s, w);
  if (barrier)
    {
      TbSlot *ts = &sm->tbs[w->tb_slot];
      set_state (s, smi, slot, W_BARRIER, now);
      ts->arrived++;
      if (ts->arrived == ts->live)
        barrier_release (s, smi, w->tb_slot, now + 1);
    }
  else
    warp_next_from (s, smi, slot, now + 1, TRUE);
  return ISSUE_OK;
}

/* One cycle of scheduler @k of SM @smi. */
static void
sched_cycle (WsSim *s, uint32_t smi, guint k, uint64_t now)
{
  Sm *sm = &s->sms[smi];
  Sched *sc = &sm->sched[k];
  uint64_t tried = 0;
  guint issued = 0;
  double pipe_min = INFINITY;
  gboolean other = FALSE; /* a candidate failed for another reason than its pipe */
  while (issued < s->width)
    {
      uint64_t cand = sc->ready & ~tried;
      if (!cand)
        break;
      int pick;
      if (s->config.scheduler == WS_SIM_SCHED_RR)
        {
          /* The first ready warp after the last one issued. */
          int start = (sc->last + 1) & 63;
          uint64_t rot = start ? (cand >> start) | (cand << (64 - start)) : cand;
          pick = (__builtin_ctzll (rot) + start) & 63;
        }
      else
        {
          /* Greedy: the last issued warp while it stays ready; else the oldest. */
          if (sc->last >= 0 && (cand >> sc->last) & 1)
            pick = sc->last;
          else
            {
              uint64_t best_age = UINT64_MAX;
              pick = -1;
              for (uint64_t m = cand; m; m &= m - 1)
                {
                  int l = __builtin_ctzll (m);
                  uint64_t a = sm->warps[(uint32_t) l * s->n_sched + k].age;
                  if (a < best_age)
                    best_age = a, pick = l;
                }
            }
        }
      tried |= 1ull << pick;
      uint32_t slot = (uint32_t) pick * s->n_sched + k;
      sched_touch (s, sc);
      uint64_t saved = sc->last_acc;
      sc->last_acc = now + 1; /* an issue cycle is no stall */
      int res = try_issue (s, smi, slot, now);
      if (res == ISSUE_OK)
        {
          sc->last = pick;
          issued++;
        }
      else
        {
          if (issued == 0)
            sc->last_acc = saved;
          if (res == ISSUE_BLOCKED)
            {
              if (s->blocked_free < pipe_min)
                pipe_min = s->blocked_free;
            }
          else
            other = TRUE;
        }
      if (s->error)
        return;
    }
  /* Nothing issued and every ready warp waits for its pipe: no need to
   * look again before the earliest pipe frees (a pipe busy until f
   * accepts at cycle floor (f)). */
  if (issued == 0 && !other && sc->ready && pipe_min < INFINITY)
    sc->blocked_until = MAX (now + 1, (uint64_t) floor (pipe_min));
}

/* ---- the run --------------------------------------------------------------- */

static void
handle_event (WsSim *s, const Event *e, uint64_t now)
{
  switch (e->type)
    {
    case EV_WARP_WAKE:
      {
        Warp *w = &s->sms[e->a].warps[e->b];
        if (w->state == W_DEP && w->wake == e->time)
          warp_next (s, e->a, e->b, now);
      }
      break;
    case EV_WARP_FINISH:
      if (s->sms[e->a].warps[e->b].state == W_FINISHING)
        warp_finished (s, e->a, e->b, now);
      break;
    case EV_LOAD_PART: load_part_done (s, e->b, now); break;
    case EV_L2_ARRIVE: l2_arrive (s, e->b, now); break;
    case EV_L1_FILL: l1_fill (s, e->b, now); break;
    case EV_DRAM_SCHED: dram_schedule (s, e->a, now); break;
    case EV_STORE_ACK: store_ack (s, e->b, now); break;
    default: g_assert_not_reached ();
    }
}

/* One access of warm_tb. */
static void
warm_access (const WsTraceRecord *rec, const WsTraceStaticInst *inst, void *data)
{
  WarmTally *w = data;
  uint64_t reqs[128];
  guint n = coalesce (rec, inst->access_size, SECTOR, reqs);
  /* Stores and atomics leave their sectors dirty, as in a timed run;
   * the DRAM traffic is that of l2_arrive: a read per load or
   * atomic miss (a full-sector store miss reads nothing) and a
   * write per dirty sector evicted.  Loads are looked up at the L2
   * without the L1; stores and atomics bypass the L1 (write-through,
   * no allocation), so they and the load misses surely reach the L2:
   * both counts are lower bounds of the timed run's. */
  uint8_t oc = inst->opclass;
  gboolean dirties = oc == WS_OPCLASS_ST || oc == WS_OPCLASS_ATOM;
  for (guint i = 0; i < n; i++)
    {
      guint wb = 0;
      gboolean hit = ws_cache_access_wb (w->s->l2, reqs[i], dirties, &wb);
      w->traffic += wb + (!hit && oc != WS_OPCLASS_ST);
      w->l2 += dirties || !hit;
      if (oc != WS_OPCLASS_ST)
        {
          w->load_sectors++;
          w->load_hits += hit;
        }
    }
}

/* One TB's global and local accesses through the L2's tags, in program
 * order per warp (no timing, no statistics), added to @tally. */
static gboolean
warm_tb (WsSim *s, const WsTraceKernel *k, WsTraceTb *tb, WarmTally *tally, GError **error)
{
  tally->s = s;
  return ws_trace_tb_foreach_global_access (tb, k, warm_access, tally, error);
}

gboolean
ws_sim_warm_launch_hits (WsSim *s, WsTrace *trace, guint launch, uint64_t *load_hits, uint64_t *load_sectors,
                         GError **error)
{
  if (launch >= ws_trace_get_n_launches (trace))
    {
      g_set_error (error, WS_ERROR, WS_ERROR_NOT_FOUND, "trace '%s' has no launch %u", ws_trace_get_path (trace),
                   launch);
      return FALSE;
    }
  const WsTraceLaunch *l = ws_trace_get_launch (trace, launch);
  const WsTraceKernel *k = ws_trace_get_kernel (trace, l->kernel);
  uint64_t n_tbs = 0;
  ws_trace_get_tb_counters (trace, launch, &n_tbs);
  WarmTally w = { 0 };
  for (uint64_t t = 0; t < n_tbs; t++)
    {
      g_autoptr (WsTraceTb) tb = ws_trace_read_tb (trace, launch, t, error);
      if (tb == NULL || !warm_tb (s, k, tb, &w, error))
        return FALSE;
    }
  if (load_hits)
    *load_hits = w.load_hits;
  if (load_sectors)
    *load_sectors = w.load_sectors;
  return TRUE;
}

gboolean
ws_sim_warm_launch (WsSim *s, WsTrace *trace, guint launch, GError **error)
{
  return ws_sim_warm_launch_hits (s, trace, launch, NULL, NULL, error);
}

static uint8_t
inst_iclass (const WsTraceStaticInst *inst)
{
  switch (inst->opclass)
    {
    case WS_OPCLASS_FP32: return WS_ICLASS_FP32;
    case WS_OPCLASS_FP64: return WS_ICLASS_FP64;
    case WS_OPCLASS_SFU: return WS_ICLASS_SFU;
    case WS_OPCLASS_TENSOR: return WS_ICLASS_TENSOR;
    case WS_OPCLASS_LD:
    case WS_OPCLASS_ST:
    case WS_OPCLASS_ATOM:
      /* Parameter reads are constant-bank operands on the hardware (and
       * plain instructions in the trace): integer-pipe work. */
      if (inst->space == WS_SPACE_PARAM || inst->space == WS_SPACE_FUNC_PARAM)
        return WS_ICLASS_INT;
      return inst->space == WS_SPACE_SHARED ? WS_ICLASS_SHARED : WS_ICLASS_GLOBAL;
    case WS_OPCLASS_BRANCH:
    case WS_OPCLASS_BARRIER: return WS_ICLASS_BRANCH;
    default: return WS_ICLASS_INT;
    }
}

/* One launch, event by event: block dispatch, the per-cycle issue loop of
 * every SM, memory events, region sampling (TBPoint) and the end of the
 * launch (stores drained).  About 280 lines: the loop's state (time, ready
 * masks, the event queue, sampling windows) lives in locals the compiler
 * keeps in registers; the steps it calls are the functions above. */
gboolean
ws_sim_run_launch (WsSim *s, WsTrace *trace, guint launch, const WsSimRegionSampling *sampling, WsSimLaunchStats *st,
                   GError **error)
{
  memset (st, 0, sizeof *st);
  if (launch >= ws_trace_get_n_launches (trace))
    {
      g_set_error (error, WS_ERROR, WS_ERROR_NOT_FOUND, "trace '%s' has no launch %u (it has %u)",
                   ws_trace_get_path (trace), launch, ws_trace_get_n_launches (trace));
      return FALSE;
    }
  const WsTraceLaunch *l = ws_trace_get_launch (trace, launch);
  const WsTraceKernel *k = ws_trace_get_kernel (trace, l->kernel);
  if (s->cancellable != NULL && g_cancellable_is_cancelled (s->cancellable))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED, "simulation of launch %u (kernel '%s') cancelled", launch,
                   k->name);
      return FALSE;
    }
  int threads = (int) (l->block[0] * l->block[1] * l->block[2]);
  WsOccupancy occ;
  if (!ws_occupancy_compute (s->gpu, threads, (int) k->regs_per_thread,
                             (int) (k->static_shared_bytes + l->dynamic_shared_bytes), &occ, error))
    return FALSE;
  if (occ.blocks_per_sm <= 0)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID, "launch %u of kernel '%s' cannot run on GPU '%s': %s", launch,
                   k->name, s->gpu->name, occ.reason ? occ.reason : "no block fits on an SM");
      return FALSE;
    }
  s->trace = trace;
  s->launch = launch;
  s->kernel = k;
  s->st = st;
  s->error = NULL;
  s->warps_per_tb = (int) MAX (1u, l->warps_per_tb);
  s->blocks_per_sm = MIN (occ.blocks_per_sm, (int) s->max_warps / s->warps_per_tb);
  if (s->blocks_per_sm <= 0)
    s->blocks_per_sm = 1;
  s->counters = ws_trace_get_tb_counters (trace, launch, &s->n_tbs);
  s->next_tb = 0;
  s->running = 0;
  s->issued = 0;
  s->stores_unacked = 0;
  s->rs = sampling;
  s->rs_state = 0;
  s->rs_region = -1;
  s->rs_designated = sampling ? -2 : -1;
  st->blocks_per_sm = s->blocks_per_sm;
  st->n_sms = s->n_sms;
  st->tbs = s->n_tbs;
  if (sampling != NULL)
    st->tb_simulated = g_new0 (uint8_t, MAX (1u, s->n_tbs));

  /* per-kernel tables */
  s->iclass = g_new (uint8_t, MAX (1u, k->n_insts));
  uint32_t slots = 1;
  for (guint i = 0; i < k->n_insts; i++)
    {
      const WsTraceStaticInst *si = &k->insts[i];
      s->iclass[i] = inst_iclass (si);
      for (int j = 0; j < si->n_src && j < 4; j++)
        if (si->src[j] != NO_REG && si->src[j] + 1u > slots)
          slots = si->src[j] + 1u;
      for (int j = 0; j < si->n_dst && j < 2; j++)
        if (si->dst[j] != NO_REG && si->dst[j] + 1u > slots)
          slots = si->dst[j] + 1u;
    }
  s->n_slots = slots;
  /* Each warp's part is cleared when a TB is dispatched into its slot, so
   * the pool is only grown here, never cleared per launch. */
  gsize pool = (gsize) s->n_sms * s->max_warps * slots;
  if (pool > s->reg_pool_len)
    {
      g_free (s->reg_pool);
      s->reg_pool = g_new (uint64_t, pool);
      s->reg_pool_len = pool;
    }
  s->tl_interval = s->config.timeline_interval;
  s->tl_cap = 64;
  s->tl_n = 0;
  s->timeline = g_new0 (uint32_t, (gsize) s->tl_cap * s->n_sms);
  for (guint i = 0; i < s->n_sms; i++)
    {
      Sm *sm = &s->sms[i];
      g_free (sm->tbs);
      sm->tbs = g_new0 (TbSlot, s->blocks_per_sm);
      sm->insts = 0;
      sm->data_free = 0;
      sm->next_block_start = 0;
      memset (sm->warps, 0, sizeof (Warp) * s->max_warps);
      /* L1s are not coherent: a new kernel starts with them invalidated,
       * as on NVIDIA GPUs.  The L2 keeps its contents. */
      ws_cache_free (sm->l1);
      sm->l1 = ws_cache_new (s->gpu->l1_size > 0 ? (uint32_t) s->gpu->l1_size : 0,
                             s->gpu->l1_line > 0 ? (uint32_t) s->gpu->l1_line : 128, s->l1_granule,
                             s->gpu->l1_assoc > 0 ? (uint32_t) s->gpu->l1_assoc : 4);
      for (guint j = 0; j < s->n_sched; j++)
        {
          Sched *sc = &sm->sched[j];
          memset (sc, 0, sizeof *sc);
          sc->last = -1;
        }
    }
  memset (s->slice_free, 0, sizeof (double) * s->n_slices);
  for (guint c = 0; c < s->n_channels; c++)
    {
      Channel *ch = &s->channels[c];
      ch->n = 0;
      ch->head = 0;
      ch->bus_free = ch->next_cmd = 0;
      ch->scheduled = FALSE;
      memset (ch->bank_ready, 0, sizeof (double) * s->n_banks);
    }
  evq_clear (&s->events);

  /* Greedy dispatch by TB id, one TB per SM in turn until all are full. */
  uint64_t now = 0;
  guint cancel_poll = 0;
  s->now = 0;
  for (int b = 0; b < s->blocks_per_sm; b++)
    for (guint i = 0; i < s->n_sms; i++)
      if (!s->sms[i].tbs[b].busy)
        dispatch (s, i, (uint32_t) b, 0, FALSE);

  /* A launch is complete when every warp has retired and every store has
   * been accepted by the L2 (seed 001 Table 7 / TBPoint Table V machines
   * have a write-back L2: acceptance, not the DRAM write, ends the store;
   * but a full L2 accepts only as fast as it evicts dirty lines). */
  while (s->error == NULL && (s->running > 0 || s->next_tb < s->n_tbs || s->stores_unacked > 0))
    {
      /* A cancelled run stops within a few milliseconds of simulation. */
      if (G_UNLIKELY (++cancel_poll == 1u << 14))
        {
          cancel_poll = 0;
          if (s->cancellable != NULL && g_cancellable_is_cancelled (s->cancellable))
            {
              g_set_error (&s->error, G_IO_ERROR, G_IO_ERROR_CANCELLED,
                           "simulation of launch %u (kernel '%s') cancelled at cycle %" G_GUINT64_FORMAT, launch,
                           k->name, now);
              break;
            }
        }
      Event e;
      while (s->error == NULL && evq_pop_due (&s->events, now, &e))
        handle_event (s, &e, now);
      gboolean any = FALSE;
      uint64_t blocked_min = INF_TIME;
      for (guint wd = 0; wd < s->active_words; wd++)
        {
          uint64_t bits = s->active_sms[wd];
          while (bits)
            {
              uint32_t smi = wd * 64 + (uint32_t) __builtin_ctzll (bits);
              bits &= bits - 1;
              Sm *sm = &s->sms[smi];
              gboolean still = FALSE;
              gboolean issuable = FALSE;
              for (guint k2 = 0; k2 < s->n_sched; k2++)
                {
                  Sched *sc = &sm->sched[k2];
                  if (sc->ready && sc->blocked_until <= now)
                    sched_cycle (s, smi, k2, now);
                  if (sc->ready)
                    {
                      still = TRUE;
                      if (sc->blocked_until > now + 1)
                        blocked_min = MIN (blocked_min, sc->blocked_until);
                      else
                        issuable = TRUE;
                    }
                }
              if (!still)
                s->active_sms[wd] &= ~(1ull << (smi & 63));
              else if (issuable)
                any = TRUE;
            }
        }
      if (s->error)
        break;
      if (s->running == 0 && s->next_tb >= s->n_tbs && s->stores_unacked == 0)
        break;
      if (any)
        now++;
      else if (!evq_empty (&s->events) || blocked_min != INF_TIME)
        {
          uint64_t next = MIN (blocked_min, evq_next_time (&s->events));
          now = MAX (now + 1, next);
        }
      else
        {
          g_set_error (&s->error, WS_ERROR, WS_ERROR_FAILED,
                       "simulation of launch %u (kernel '%s') stopped at cycle %" G_GUINT64_FORMAT
                       " with %" G_GUINT64_FORMAT " TBs running and nothing pending (a barrier no warp reaches?)",
                       launch, k->name, now, s->running);
          break;
        }
      s->now = now;
    }
  ff_end (s);
  /* Every store has been accepted.  What may remain queued at DRAM is the
   * write-back of lines that loads evicted, which no instruction waits for;
   * it is dropped with the queues at the next launch.  Dirty lines still in
   * the L2 stay there (written back when a later launch evicts them). */
  uint64_t end = now;
  for (guint i = 0; i < s->n_sms; i++)
    {
      Sm *sm = &s->sms[i];
      for (guint j = 0; j < s->n_sched; j++)
        sched_touch_at (s, &sm->sched[j], end);
      for (int b = 0; b < s->blocks_per_sm; b++)
        if (sm->tbs[b].data)
          {
            ws_trace_tb_free (sm->tbs[b].data);
            sm->tbs[b].data = NULL;
            sm->tbs[b].busy = FALSE;
          }
      for (guint m = 0; m < sm->n_mshr_used; m++)
        {
          sm->mshrs[sm->mshr_used[m]].n_waiters = 0;
          sm->mshrs[sm->mshr_used[m]].findable = FALSE;
          sm->mshr_free[sm->n_mshr_free++] = sm->mshr_used[m];
        }
      sm->n_mshr_used = 0;
      memset (sm->mshr_hash, 0, (sm->mshr_hash_mask + 1) * sizeof (uint32_t));
      sm->n_mshr_wait = 0;
    }
  memset (s->active_sms, 0, sizeof (uint64_t) * s->active_words);
  /* Reset pools: nothing in flight survives a launch boundary. */
  s->tok_free = G_MAXUINT32;
  for (uint32_t i = s->n_toks; i-- > 0;)
    {
      s->toks[i].next_free = s->tok_free;
      s->tok_free = i;
    }
  s->req_free = G_MAXUINT32;
  for (uint32_t i = s->n_reqs; i-- > 0;)
    {
      s->reqs[i].next_free = s->req_free;
      s->req_free = i;
    }
  g_clear_pointer (&s->iclass, g_free);
  s->rs = NULL;
  if (s->error)
    {
      g_propagate_error (error, s->error);
      s->error = NULL;
      g_clear_pointer (&s->timeline, g_free);
      g_clear_pointer (&st->tb_simulated, g_free);
      st->sm_instructions = NULL;
      return FALSE;
    }
  s->elapsed += end;
  st->simulated_cycles = end;
  st->warp_instructions = l->warp_instructions;
  st->cycles = end + (uint64_t) llround (st->skipped_cycles);
  /* IPC in machine instructions (what the SMs issued; absorbed PTX
   * instructions take no issue slot), skipped TBs at the simulated ones'
   * ratio of machine to trace instructions. */
  uint64_t machine = 0;
  for (guint i = 0; i < s->n_sms; i++)
    machine += s->sms[i].insts;
  double machine_all = st->simulated_warp_instructions > 0 && st->simulated_warp_instructions < st->warp_instructions
                         ? (double) machine * (double) st->warp_instructions / (double) st->simulated_warp_instructions
                         : (double) machine;
  st->ipc = st->cycles > 0 ? machine_all / (double) st->cycles : 0;
  st->l1_hit_rate = st->l1_accesses ? (double) st->l1_hits / (double) st->l1_accesses : 0;
  st->l2_hit_rate = st->l2_accesses ? (double) st->l2_hits / (double) st->l2_accesses : 0;
  if (end > 0 && s->gpu->core_clock_mhz > 0)
    st->dram_bandwidth_gbs = (double) (st->dram_reads + st->dram_writes) * SECTOR
                             / ((double) end / (s->gpu->core_clock_mhz * 1e6)) / 1e9;
  st->sm_instructions = g_new (uint64_t, s->n_sms);
  for (guint i = 0; i < s->n_sms; i++)
    st->sm_instructions[i] = s->sms[i].insts;
  st->timeline_interval = s->tl_interval;
  st->n_samples = s->tl_n;
  st->timeline = s->timeline;
  s->timeline = NULL;
  return TRUE;
}
