/* ws-cachesim.c: functional L1/L2 simulation (seed 001 §4.5). */
#include "cachesim/ws-cachesim.h"
#include "occupancy/ws-occupancy.h"
#include "ptx/ws-ptx.h"

#include <string.h>

/* ---- sectored LRU cache ---------------------------------------------------- */

typedef struct {
  uint64_t tag;     /* line address (addr / line size) + 1; 0 = invalid way */
  uint64_t lru;     /* last use stamp */
  uint32_t sectors; /* valid-sector bits */
  uint32_t dirty;   /* dirty-sector bits (write-back caches) */
} Way;

struct _WsCache {
  uint32_t size; /* as asked of ws_cache_new */
  uint32_t line, sector, assoc, n_sets;
  uint32_t line_shift, sector_shift;
  uint64_t stamp;
  uint64_t dirty_sectors; /* dirty bits set over all ways (ws_cache_count_dirty) */
  Way *ways;              /* n_sets x assoc, from ws_zeroed_alloc: untouched sets cost nothing */
  /* The sets filled since the last reset (a set enters when its first way
   * is filled); NULL once more than a quarter of them were: the reset
   * clears everything then. */
  GArray *used_sets;
};

static uint32_t
log2_exact (uint32_t v)
{
  uint32_t s = 0;
  while ((1u << s) < v)
    s++;
  return s;
}

/* The geometry ws_cache_new makes of what it is asked: 128-byte lines by
 * default, sectors no larger than a line, at least one way, powers of two. */
static void
normalise_geometry (uint32_t *line, uint32_t *sector, uint32_t *assoc)
{
  if (*line == 0)
    *line = 128;
  if (*sector == 0 || *sector > *line)
    *sector = *line;
  if (*assoc == 0)
    *assoc = 1;
  *line = 1u << log2_exact (*line);
  *sector = 1u << log2_exact (*sector);
}

WsCache *
ws_cache_new (uint32_t size, uint32_t line, uint32_t sector, uint32_t assoc)
{
  WsCache *c = g_new0 (WsCache, 1);
  c->size = size;
  normalise_geometry (&line, &sector, &assoc);
  c->line = line;
  c->sector = sector;
  c->line_shift = log2_exact (c->line);
  c->sector_shift = log2_exact (c->sector);
  c->assoc = assoc;
  c->n_sets = size / (c->line * assoc);
  if (c->n_sets > 0)
    c->ways = ws_zeroed_alloc ((gsize) c->n_sets * assoc * sizeof (Way));
  c->used_sets = g_array_new (FALSE, FALSE, sizeof (uint32_t));
  return c;
}

void
ws_cache_free (WsCache *cache)
{
  if (cache == NULL)
    return;
  ws_zeroed_free (cache->ways, (gsize) cache->n_sets * cache->assoc * sizeof (Way));
  if (cache->used_sets != NULL)
    g_array_unref (cache->used_sets);
  g_free (cache);
}

static Way *
find_way (WsCache *c, uint64_t line_addr, Way **victim)
{
  /* Sets indexed by the low bits of the line address (modulo for
   * non-power-of-two set counts, e.g. 96 KiB caches). */
  Way *set = &c->ways[(line_addr % c->n_sets) * c->assoc];
  Way *lru = &set[0];
  for (uint32_t w = 0; w < c->assoc; w++)
    {
      if (set[w].tag == line_addr + 1)
        return &set[w];
      if (set[w].tag == 0 || (lru->tag != 0 && set[w].lru < lru->lru))
        lru = &set[w];
    }
  if (victim)
    *victim = lru;
  return NULL;
}

/* Records the set of @line_addr as used when none of its ways is filled
 * yet (called before a fill into an empty way). */
static void
note_set_used (WsCache *c, uint64_t line_addr)
{
  uint32_t set = (uint32_t) (line_addr % c->n_sets);
  const Way *ways = &c->ways[(gsize) set * c->assoc];
  for (uint32_t w = 0; w < c->assoc; w++)
    if (ways[w].tag != 0)
      return;
  if (c->used_sets->len >= c->n_sets / 4)
    {
      g_array_unref (c->used_sets);
      c->used_sets = NULL;
      return;
    }
  g_array_append_val (c->used_sets, set);
}

void
ws_cache_reset (WsCache *c)
{
  if (c->n_sets > 0)
    {
      if (c->used_sets == NULL)
        {
          memset (c->ways, 0, (gsize) c->n_sets * c->assoc * sizeof (Way));
          c->used_sets = g_array_new (FALSE, FALSE, sizeof (uint32_t));
        }
      else
        {
          for (guint i = 0; i < c->used_sets->len; i++)
            memset (&c->ways[(gsize) g_array_index (c->used_sets, uint32_t, i) * c->assoc], 0, c->assoc * sizeof (Way));
          g_array_set_size (c->used_sets, 0);
        }
    }
  c->stamp = 0;
  c->dirty_sectors = 0;
}

gboolean
ws_cache_has_geometry (const WsCache *c, uint32_t size, uint32_t line, uint32_t sector, uint32_t assoc)
{
  normalise_geometry (&line, &sector, &assoc);
  return c->size == size && c->line == line && c->sector == sector && c->assoc == assoc;
}

static gboolean
cache_touch (WsCache *c, uint64_t addr, gboolean allocate, gboolean write, guint *written_back)
{
  if (written_back)
    *written_back = 0;
  if (c->n_sets == 0)
    return FALSE;
  uint64_t line_addr = addr >> c->line_shift;
  uint32_t bit = 1u << ((addr & (c->line - 1)) >> c->sector_shift);
  Way *victim = NULL;
  Way *w = find_way (c, line_addr, &victim);
  c->stamp++;
  if (w != NULL)
    {
      w->lru = c->stamp;
      gboolean hit = (w->sectors & bit) != 0;
      if (allocate)
        w->sectors |= bit;
      if (write && !(w->dirty & bit))
        {
          w->dirty |= bit;
          c->dirty_sectors++;
        }
      return hit;
    }
  if (allocate)
    {
      if (victim->tag == 0 && c->used_sets != NULL)
        note_set_used (c, line_addr);
      guint evicted_dirty = victim->tag != 0 ? (guint) __builtin_popcount (victim->dirty) : 0;
      if (written_back)
        *written_back = evicted_dirty;
      c->dirty_sectors -= evicted_dirty;
      victim->tag = line_addr + 1;
      victim->sectors = bit;
      victim->dirty = write ? bit : 0;
      c->dirty_sectors += write ? 1 : 0;
      victim->lru = c->stamp;
    }
  return FALSE;
}

gboolean
ws_cache_access (WsCache *c, uint64_t addr, gboolean allocate)
{
  return cache_touch (c, addr, allocate, FALSE, NULL);
}

gboolean
ws_cache_access_wb (WsCache *c, uint64_t addr, gboolean write, guint *written_back)
{
  return cache_touch (c, addr, TRUE, write, written_back);
}

gboolean
ws_cache_write (WsCache *c, uint64_t addr, gboolean *was_dirty)
{
  *was_dirty = FALSE;
  if (c->n_sets == 0)
    return FALSE;
  Way *w = find_way (c, addr >> c->line_shift, NULL);
  if (w != NULL)
    *was_dirty = (w->dirty & (1u << ((addr & (c->line - 1)) >> c->sector_shift))) != 0;
  return cache_touch (c, addr, TRUE, TRUE, NULL);
}

guint64
ws_cache_count_dirty (WsCache *c)
{
  return c->dirty_sectors;
}

void
ws_cache_invalidate (WsCache *c, uint64_t addr)
{
  if (c->n_sets == 0)
    return;
  uint64_t line_addr = addr >> c->line_shift;
  Way *w = find_way (c, line_addr, NULL);
  if (w != NULL)
    {
      uint32_t bit = 1u << ((addr & (c->line - 1)) >> c->sector_shift);
      w->sectors &= ~bit;
      if (w->dirty & bit)
        c->dirty_sectors--;
      w->dirty &= ~bit;
    }
}

/* ---- launch simulation ------------------------------------------------------ */

void
ws_cache_stats_free (WsCacheStats *stats)
{
  if (stats == NULL)
    return;
  g_free (stats->gpu);
  g_free (stats->pcs);
  g_free (stats);
}

typedef struct {
  WsTraceWarpIter iter;
  gboolean done;
  uint32_t sm;
} WarpFeed;

/* Misses in flight.  The simulation is functional: warps advance one record
 * per round, and an L1 miss fills its sector at once.  On the hardware the
 * fill takes the miss's latency, and another access to the sector in the
 * meantime merges into the miss (the MSHR holds it) and waits as long: two
 * warps chasing the same pointers in lockstep both see the L2 latency,
 * where a fill-at-once cache gave the second an L1 hit (half the latency;
 * gpu-latency).  So each SM remembers the fill units fetched in the last
 * two rounds with the level they came from; an L1 hit on one of them costs
 * that level's latency (no new traffic: it is counted as the L1 hit it is
 * for the L2 and DRAM).  Two rounds: warps in lockstep reach the same
 * record in one round or, one record apart, in the next. */
#define INFLIGHT_SLOTS 1024
typedef struct {
  uint64_t unit[INFLIGHT_SLOTS]; /* fill-unit address + 1 (0: empty) */
  uint64_t round[INFLIGHT_SLOTS];
  uint8_t level[INFLIGHT_SLOTS];
} Inflight;

static inline guint
inflight_slot (uint64_t unit_addr)
{
  return (guint) ((unit_addr >> 5) * 0x9E3779B97F4A7C15ull >> 54) & (INFLIGHT_SLOTS - 1);
}

static void
inflight_fill (Inflight *f, uint64_t unit_addr, uint64_t round, int level)
{
  guint s = inflight_slot (unit_addr);
  f->unit[s] = unit_addr + 1;
  f->round[s] = round;
  f->level[s] = (uint8_t) level;
}

/* The level an L1 hit on @unit_addr waits for: L1 unless the unit is still
 * being fetched. */
static int
inflight_level (const Inflight *f, uint64_t unit_addr, uint64_t round)
{
  guint s = inflight_slot (unit_addr);
  if (f->unit[s] == unit_addr + 1 && round - f->round[s] <= 1)
    return f->level[s];
  return WS_CACHE_EVENT_L1_HIT;
}

/* One memory warp instruction: coalesce the active lanes' addresses into
 * distinct sectors, send each through L1 (global/local loads) and L2, and
 * record the slowest level reached. */
static void
access_record (WsCacheStats *st, const WsTraceKernel *k, const WsTraceRecord *r, WsCache *l1, WsCache *l2,
               uint32_t unit, Inflight *inflight, uint64_t round)
{
  if (r->static_id >= st->n_insts)
    return;
  WsCachePcStats *pc = &st->pcs[r->static_id];
  const WsTraceStaticInst *si = &k->insts[r->static_id];
  pc->executions++;
  if (r->space == WS_SPACE_SHARED)
    {
      pc->events[WS_CACHE_EVENT_SHARED]++;
      return;
    }
  gboolean is_store = si->opclass == WS_OPCLASS_ST;
  gboolean is_atomic = si->opclass == WS_OPCLASS_ATOM;
  gboolean read_only_space = r->space == WS_SPACE_CONST || r->space == WS_SPACE_PARAM;
  uint32_t size = si->access_size ? si->access_size : 4;

  /* Distinct sectors, in lane order (at most 64: a lane may straddle two). */
  uint64_t sectors[64];
  guint n = 0;
  for (uint32_t m = r->active_mask; m; m &= m - 1)
    {
      int lane = __builtin_ctz (m);
      uint64_t first = r->addrs[lane] >> 5, last = (r->addrs[lane] + size - 1) >> 5;
      for (uint64_t s = first; s <= last && n < G_N_ELEMENTS (sectors); s++)
        {
          guint i;
          for (i = 0; i < n; i++)
            if (sectors[i] == s)
              break;
          if (i == n)
            sectors[n++] = s;
        }
    }
  int worst = WS_CACHE_EVENT_L1_HIT;
  if (!is_store && !is_atomic && !read_only_space && unit > 32)
    {
      /* A load through an L1 whose fill unit is larger than a sector (Fermi's
       * 128-byte lines): each unit the instruction touches is one L1 lookup
       * and, on a miss, one request (one MSHR) fetching the whole unit from
       * the L2, as the detailed simulator and the hardware do.  Its touched
       * sectors count as L1 hits or misses together (a sector filled by the
       * same instruction is not a hit), and the L2 counts every fetched sector. */
      uint32_t per_unit = unit / 32;
      for (guint i = 0; i < n; i++)
        {
          uint64_t u = (sectors[i] << 5) / unit;
          gboolean seen = FALSE;
          for (guint j = 0; j < i && !seen; j++)
            seen = (sectors[j] << 5) / unit == u;
          if (seen)
            continue;
          guint touched = 0;
          for (guint j = i; j < n; j++)
            if ((sectors[j] << 5) / unit == u)
              touched++;
          pc->sectors += touched;
          st->sectors += touched;
          if (ws_cache_access (l1, u * unit, TRUE))
            {
              pc->sector_l1_hits += touched;
              st->l1_hits += touched;
              worst = MAX (worst, inflight_level (inflight, u * unit, round));
              continue;
            }
          int level = WS_CACHE_EVENT_L2_HIT;
          for (uint32_t k = 0; k < per_unit; k++)
            {
              guint written_back = 0;
              gboolean l2_hit = ws_cache_access_wb (l2, u * unit + (uint64_t) k * 32, FALSE, &written_back);
              st->writeback_sectors += written_back;
              if (l2_hit)
                {
                  pc->sector_l2_hits++;
                  st->l2_hits++;
                }
              else
                {
                  pc->sector_dram++;
                  st->dram_sectors++;
                  level = WS_CACHE_EVENT_DRAM;
                }
            }
          inflight_fill (inflight, u * unit, round, level);
          worst = MAX (worst, level);
        }
      if (n > 0)
        pc->events[worst]++;
      return;
    }
  for (guint i = 0; i < n; i++)
    {
      uint64_t addr = sectors[i] << 5;
      pc->sectors++;
      st->sectors++;
      int level;
      if (read_only_space)
        level = WS_CACHE_EVENT_L1_HIT; /* constant and parameter caches */
      else if (!is_store && !is_atomic && ws_cache_access (l1, addr, TRUE))
        {
          level = WS_CACHE_EVENT_L1_HIT;
          /* merged into a miss still in flight: its latency, no traffic */
          worst = MAX (worst, inflight_level (inflight, addr, round));
        }
      else
        {
          guint written_back = 0;
          gboolean l2_hit = ws_cache_access_wb (l2, addr, is_store || is_atomic, &written_back);
          st->writeback_sectors += written_back;
          /* The L2 takes a store with its byte mask and fetches nothing; the
           * store's DRAM cost is the later write-back. */
          if (is_store)
            {
              ws_cache_invalidate (l1, addr);
              level = WS_CACHE_EVENT_L2_HIT;
            }
          else
            {
              level = l2_hit ? WS_CACHE_EVENT_L2_HIT : WS_CACHE_EVENT_DRAM;
              if (!is_atomic)
                inflight_fill (inflight, addr, round, level);
            }
        }
      switch (level)
        {
        case WS_CACHE_EVENT_L1_HIT:
          pc->sector_l1_hits++;
          st->l1_hits++;
          break;
        case WS_CACHE_EVENT_L2_HIT:
          pc->sector_l2_hits++;
          st->l2_hits++;
          break;
        default:
          pc->sector_dram++;
          st->dram_sectors++;
          break;
        }
      worst = MAX (worst, level);
    }
  if (n > 0)
    pc->events[worst]++;
}

/* The caches of a thread's last launch, kept for its next one: making and
 * clearing an A100's L2 tag array (40 MiB of cache, 7.5 MiB of tags) and
 * 108 L1s for every launch cost more than simulating a small launch.
 * ws_cache_reset clears only the sets a launch used. */
typedef struct {
  int sms;
  uint32_t l1_size, l1_line, l1_sector, l1_assoc;
  WsCache **l1; /* sms; each made when the first block reaches its SM */
  WsCache *l2;
  Inflight *inflight; /* sms, zero pages: only the SMs reached touch theirs */
  uint64_t round;     /* the last round used */
} CacheScratch;

static void
scratch_free (gpointer data)
{
  CacheScratch *s = data;
  if (s == NULL)
    return;
  for (int i = 0; i < s->sms; i++)
    ws_cache_free (s->l1[i]);
  g_free (s->l1);
  ws_cache_free (s->l2);
  ws_zeroed_free (s->inflight, (gsize) s->sms * sizeof (Inflight));
  g_free (s);
}

static GPrivate scratch_key = G_PRIVATE_INIT (scratch_free);

/* This thread's caches for @gpu, empty. */
static CacheScratch *
scratch_for (const WsGpu *gpu)
{
  int sms = MAX (gpu->sms, 1);
  CacheScratch *s = g_private_get (&scratch_key);
  if (s != NULL
      && (s->sms != sms || s->l1_size != (uint32_t) gpu->l1_size || s->l1_line != (uint32_t) gpu->l1_line
          || s->l1_sector != (uint32_t) gpu->l1_sector || s->l1_assoc != (uint32_t) gpu->l1_assoc
          || !ws_cache_has_geometry (s->l2, (uint32_t) gpu->l2_size, (uint32_t) gpu->l2_line, 32,
                                     (uint32_t) gpu->l2_assoc)))
    {
      g_private_replace (&scratch_key, NULL); /* frees the old one */
      s = NULL;
    }
  if (s == NULL)
    {
      s = g_new0 (CacheScratch, 1);
      s->sms = sms;
      s->l1_size = (uint32_t) gpu->l1_size;
      s->l1_line = (uint32_t) gpu->l1_line;
      s->l1_sector = (uint32_t) gpu->l1_sector;
      s->l1_assoc = (uint32_t) gpu->l1_assoc;
      s->l1 = g_new0 (WsCache *, sms);
      s->l2 = ws_cache_new ((uint32_t) gpu->l2_size, (uint32_t) gpu->l2_line, 32, (uint32_t) gpu->l2_assoc);
      s->inflight = ws_zeroed_alloc ((gsize) sms * sizeof (Inflight));
      g_private_set (&scratch_key, s);
      return s;
    }
  ws_cache_reset (s->l2);
  for (int i = 0; i < sms; i++)
    if (s->l1[i] != NULL)
      ws_cache_reset (s->l1[i]);
  return s;
}

/* The launch's residency on @gpu (NVIDIA's occupancy rules). */
static gboolean
launch_occupancy (WsTrace *trace, guint launch, const WsGpu *gpu, WsOccupancy *occ, GError **error)
{
  if (launch >= ws_trace_get_n_launches (trace))
    {
      g_set_error (error, WS_ERROR, WS_ERROR_NOT_FOUND, "%s has no launch %u", ws_trace_get_path (trace), launch);
      return FALSE;
    }
  const WsTraceLaunch *l = ws_trace_get_launch (trace, launch);
  const WsTraceKernel *k = ws_trace_get_kernel (trace, l->kernel);
  int block = (int) (l->block[0] * l->block[1] * l->block[2]);
  return ws_occupancy_compute (gpu, block, (int) k->regs_per_thread,
                               (int) (k->static_shared_bytes + l->dynamic_shared_bytes), occ, error);
}

gboolean
ws_cachesim_wave_blocks (WsTrace *trace, guint launch, const WsGpu *gpu, uint64_t *wave, GError **error)
{
  WsOccupancy occ;
  if (!launch_occupancy (trace, launch, gpu, &occ, error))
    return FALSE;
  *wave = (uint64_t) MAX (gpu->sms, 1) * (uint64_t) MAX (occ.blocks_per_sm, 1);
  return TRUE;
}

/* Shuffles @order[0 .. @n - 1] by a fixed pseudo-random permutation for
 * @seed (the same on every run). */
static void
shuffle_slots (uint32_t *order, uint32_t n, uint64_t seed)
{
  uint64_t state = seed;
  for (uint32_t i = n; i > 1; i--)
    {
      state += 0x9E3779B97F4A7C15ull;
      uint32_t j = (uint32_t) (ws_mix64 (state) % i);
      uint32_t tmp = order[i - 1];
      order[i - 1] = order[j];
      order[j] = tmp;
    }
}

/* A block slot of the GPU (slot i on SM i % SMs) and the block it runs. */
typedef struct {
  WsTraceTb *tb; /* NULL: free */
  GArray *feeds; /* WarpFeed: the block's warps */
  guint live;    /* warps of it not yet done */
  uint64_t started, free_at;
  gboolean desynchronised;
} Slot;

/* Opens block @t in @slot from round @round. */
static gboolean
slot_start (Slot *slot, WsTrace *trace, guint launch, uint64_t t, uint32_t sm, uint64_t round, GError **error)
{
  slot->tb = ws_trace_read_tb (trace, launch, t, error);
  if (slot->tb == NULL)
    return FALSE;
  g_array_set_size (slot->feeds, 0);
  for (guint w = 0; w < ws_trace_tb_get_n_warps (slot->tb); w++)
    {
      WarpFeed f = { .sm = sm };
      ws_trace_warp_iter_init (&f.iter, slot->tb, w);
      g_array_append_val (slot->feeds, f);
    }
  slot->live = slot->feeds->len;
  slot->started = round;
  return TRUE;
}

WsCacheStats *
ws_cachesim_run_launch (WsTrace *trace, guint launch, const WsGpu *gpu, GError **error)
{
  return ws_cachesim_run_launch_sample (trace, launch, gpu, NULL, error);
}

WsCacheStats *
ws_cachesim_run_launch_sample (WsTrace *trace, guint launch, const WsGpu *gpu, const guint8 *in_sample, GError **error)
{
  g_return_val_if_fail (trace != NULL && gpu != NULL, NULL);
  WsOccupancy occ;
  if (!launch_occupancy (trace, launch, gpu, &occ, error))
    return NULL;
  const WsTraceLaunch *l = ws_trace_get_launch (trace, launch);
  const WsTraceKernel *k = ws_trace_get_kernel (trace, l->kernel);
  uint64_t n_tbs = 0;
  const WsTraceTbCounters *tbc = ws_trace_get_tb_counters (trace, launch, &n_tbs);
  int per_sm = MAX (occ.blocks_per_sm, 1);
  int sms = MAX (gpu->sms, 1);

  g_autoptr (WsCacheStats) st = g_new0 (WsCacheStats, 1);
  st->gpu = g_strdup (gpu->name);
  st->n_insts = k->n_insts;
  st->pcs = g_new0 (WsCachePcStats, MAX (k->n_insts, 1));
  st->blocks_per_sm = occ.blocks_per_sm;

  CacheScratch *scratch = scratch_for (gpu);
  WsCache **l1 = scratch->l1, *l2 = scratch->l2;
  Inflight *inflight = scratch->inflight;
  /* Rounds count on across waves and launches: a unit filled in an earlier
   * wave or launch is never in flight (two rounds on, see inflight_level). */
  uint64_t round = scratch->round + 2;
  /* The L1's fill unit (what one L1 miss fetches), as the detailed simulator. */
  uint32_t l1_unit = gpu->l1_size > 0 && gpu->l1_sector > 32 ? (uint32_t) gpu->l1_sector : 32;
  const double latency[WS_CACHE_EVENT_COUNT] = {
    gpu->l1_latency,
    gpu->l2_latency,
    gpu->dram_latency,
    gpu->pipes[WS_ICLASS_SHARED].latency,
  };

  /* Blocks start in id order on the GPU's block slots (SMs x resident
   * blocks per SM) as slots free.  The first wave starts at once, in step.
   * A launch of many waves does not stay in step: its blocks' times vary
   * (queueing for DRAM and the L2 differs from SM to SM), so in its steady
   * state the blocks of a wave start spread over a block's duration, one
   * after another in id order, and two blocks R apart in id read the same
   * data about R blocks' worth of other data apart.  Here each slot, once
   * its first block has ended, waits a fraction phase / slots of that
   * block's duration (phase: a permutation of the slots) before its next
   * one, which spreads the later waves' starts evenly; the steady state of
   * a long launch, applied from the second wave on.  Kept in step, blocks
   * b and b + R of one wave read a 16 KiB chunk together and the second
   * hit in the L2 whatever the footprint (gpu-l2-cache: the 54 MB points
   * ran at L2 rates, 1.6 to 2.6 times the measured DRAM-bound bandwidth). */
  gboolean ok = TRUE;
  uint64_t n_slots = (uint64_t) sms * per_sm;
  Slot *slots = g_new0 (Slot, n_slots);
  for (uint64_t i = 0; i < n_slots; i++)
    slots[i].feeds = g_array_new (FALSE, TRUE, sizeof (WarpFeed));
  g_autofree uint32_t *phase = g_new (uint32_t, n_slots);
  g_autofree uint32_t *free_slots = g_new (uint32_t, n_slots);
  for (uint64_t i = 0; i < n_slots; i++)
    phase[i] = (uint32_t) i;
  shuffle_slots (phase, (uint32_t) n_slots, 1);
  uint64_t next = 0, busy = 0, first_round = round;
  while (ok)
    {
      /* The next blocks go to the free slots in slot order when the launch
       * starts: the hardware's block scheduler fills an idle GPU across
       * the SMs before an SM gets its second block (blocks i and i + SMs
       * share an SM).  Later, which of the slots that free in one round is
       * served first is not determined by the block ids: a pseudo-random
       * order, fixed per round.  Serving them in slot order paired blocks i
       * and i + SMs on one SM in every wave, whose L1 then served the
       * second block's reads of the first one's lines whenever the two read
       * the same data (gpu-l2-cache, block b reading slot b mod R, R a
       * divisor of 108 on an A100: twice the measured bandwidth). */
      uint32_t n_free = 0;
      for (uint64_t si = 0; next < n_tbs && busy < n_slots && si < n_slots; si++)
        if (slots[si].tb == NULL && slots[si].free_at <= round)
          free_slots[n_free++] = (uint32_t) si;
      /* Seeded by the round within this launch: the same order whatever
       * the thread's earlier launches (rounds count on across them). */
      if (round != first_round && n_free > 1)
        shuffle_slots (free_slots, n_free, round - first_round);
      for (uint32_t i = 0; i < n_free; i++)
        {
          while (next < n_tbs && (!tbc[next].recorded || (in_sample != NULL && !in_sample[next])))
            next++;
          if (next >= n_tbs)
            break;
          uint64_t si = free_slots[i];
          Slot *slot = &slots[si];
          uint32_t sm = (uint32_t) (si % (uint64_t) sms);
          if (l1[sm] == NULL)
            l1[sm] = ws_cache_new ((uint32_t) gpu->l1_size, (uint32_t) gpu->l1_line, (uint32_t) gpu->l1_sector,
                                   (uint32_t) gpu->l1_assoc);
          if (!slot_start (slot, trace, launch, next, sm, round, error))
            {
              ok = FALSE;
              break;
            }
          next++;
          busy++;
        }
      if (!ok)
        break;
      if (busy == 0)
        {
          /* Every slot is waiting out its offset, or nothing is left. */
          uint64_t wake = UINT64_MAX;
          for (uint64_t si = 0; si < n_slots; si++)
            wake = MIN (wake, slots[si].free_at);
          if (next >= n_tbs || wake <= round)
            break;
          round = wake;
          continue;
        }
      round++;
      for (uint64_t si = 0; ok && si < n_slots; si++)
        {
          Slot *slot = &slots[si];
          if (slot->tb == NULL)
            continue;
          for (guint i = 0; i < slot->feeds->len; i++)
            {
              WarpFeed *f = &g_array_index (slot->feeds, WarpFeed, i);
              if (f->done)
                continue;
              WsTraceRecord r;
              GError *e = NULL;
              if (!ws_trace_warp_iter_next (&f->iter, &r, &e))
                {
                  f->done = TRUE;
                  slot->live--;
                  if (e != NULL)
                    {
                      g_propagate_error (error, e);
                      ok = FALSE;
                      break;
                    }
                  continue;
                }
              if (r.kind == WS_TRACE_RECORD_MEM)
                access_record (st, k, &r, l1[f->sm], l2, l1_unit, &inflight[f->sm], round);
            }
          if (slot->live == 0)
            {
              g_clear_pointer (&slot->tb, ws_trace_tb_free);
              busy--;
              slot->free_at = round;
              if (!slot->desynchronised)
                slot->free_at += (round - slot->started) * phase[si] / n_slots;
              slot->desynchronised = TRUE;
            }
        }
    }
  for (uint64_t i = 0; i < n_slots; i++)
    {
      if (slots[i].tb != NULL)
        ws_trace_tb_free (slots[i].tb);
      g_array_unref (slots[i].feeds);
    }
  g_free (slots);
  scratch->round = round;
  if (!ok)
    return NULL;
  /* What the launch left dirty is written back when its data is flushed. */
  st->writeback_sectors += ws_cache_count_dirty (l2);

  for (guint i = 0; i < st->n_insts; i++)
    {
      WsCachePcStats *pc = &st->pcs[i];
      if (pc->executions == 0)
        continue;
      double amat = 0;
      for (int e = 0; e < WS_CACHE_EVENT_COUNT; e++)
        amat += (double) pc->events[e] / pc->executions * latency[e];
      /* Executions with no sector (all lanes inactive) cost nothing. */
      pc->amat = amat;
    }
  uint64_t l1_lookups = st->sectors;
  st->l1_hit_rate = l1_lookups ? (double) st->l1_hits / l1_lookups : 0;
  uint64_t l2_lookups = st->l2_hits + st->dram_sectors;
  st->l2_hit_rate = l2_lookups ? (double) st->l2_hits / l2_lookups : 0;
  st->dram_bytes = (st->dram_sectors + st->writeback_sectors) * 32;
  return g_steal_pointer (&st);
}
