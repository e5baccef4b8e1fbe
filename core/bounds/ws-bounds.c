/* ws-bounds.c: physical lower bounds of a launch (see ws-bounds.h and
 * docs/bounds.md for each term, why it is a lower bound and its sources). */
#define G_LOG_DOMAIN "warpscope-bounds"

#include "bounds/ws-bounds.h"
#include "ptx/ws-ptx.h"

#include <math.h>
#include <string.h>

/* L1 data bandwidth per SM when the catalogue gives none: 128 bytes per
 * core clock.  NVIDIA Tesla V100 whitepaper (2017, "L1 data cache and
 * shared memory": 128 bytes/clk per SM for loads), the A100 whitepaper (2020,
 * same figure per SM) and Jia et al., "Dissecting the NVIDIA Volta GPU
 * architecture via microbenchmarking" (arXiv:1804.06826, 2018), who measure
 * at most 108.3 of the theoretical 128 bytes/clk. */
#define WS_BOUNDS_L1_BYTES_PER_CLK 128.0
/* Before Volta (cc < 7) global loads can also use a separate texture /
 * read-only cache path next to L1 (Kepler's ld.global.nc), so the default
 * is doubled there: generous, which keeps the term a lower bound. */
#define WS_BOUNDS_L1_BYTES_PER_CLK_PRE_VOLTA 256.0
/* L2 bandwidth when the catalogue gives none (l2_bandwidth_bytes_per_clk
 * 0 = unknown): 128 bytes per clock per L2 slice.  Generous on purpose, as
 * the term must never use less than the real peak: the highest published
 * per-slice figure is GA100's 64 B/clk (A100 whitepaper: 5120 B/clk over 80
 * slices; V100 2048 B/clk), which the simulator and the models assume for
 * such chips (WS_GPU_L2_SLICE_BYTES_PER_CLK_ASSUMED); twice that covers
 * chips whose slice width is not published (Kepler, Maxwell, Pascal,
 * Hopper). */
#define WS_BOUNDS_L2_BYTES_PER_SLICE_PER_CLK (2 * WS_GPU_L2_SLICE_BYTES_PER_CLK_ASSUMED)
#define WS_SECTOR 32u
/* Bytes one L1 data-stage wavefront returns (Volta and later): 32 banks of
 * 4 bytes. */
#define WS_BOUNDS_L1_BYTES_PER_WAVEFRONT 128.0
/* Cache lines the L1's tag stage resolves a cycle (global_load_wavefronts). */
#define WS_BOUNDS_L1_TAGS_PER_CLK 4u

/* ---- distinct sectors --------------------------------------------------- */

/* A page covers 512 consecutive 32-byte sectors (16 KiB of address space)
 * with two bitmaps: loaded, and stored or atomically updated.  Device
 * allocations are dense, so a launch touching 100 M sectors (3.2 GB) needs
 * 200 k pages of 136 bytes.  Beyond WS_SECTOR_SET_MAX_PAGES new pages are not
 * recorded (the unique counts then stay lower than the truth, which keeps
 * the L2 and DRAM bounds lower bounds). */
#define WS_PAGE_SECTORS 512u
#define WS_PAGE_WORDS (WS_PAGE_SECTORS / 64u)
#define WS_SECTOR_SET_MAX_PAGES (1u << 19) /* 8 GiB of address space, about 70 MiB */

typedef struct {
  uint64_t page;
  uint64_t loaded[WS_PAGE_WORDS];
  uint64_t stored[WS_PAGE_WORDS];
} SectorPage;

typedef struct {
  SectorPage *pages;
  guint n_pages, cap_pages;
  uint32_t *slots; /* open addressing: page index + 1, 0 = empty */
  guint n_slots;   /* power of two, >= 2 x n_pages */
  guint last;      /* index + 1 of the last page found (most accesses stay in it) */
  gboolean truncated;
} SectorSet;

static guint
page_hash (uint64_t page)
{
  return (guint) ((page * G_GUINT64_CONSTANT (0x9E3779B97F4A7C15)) >> 32);
}

static void
sector_set_grow (SectorSet *s)
{
  guint n = s->n_slots ? s->n_slots * 2 : 1024;
  uint32_t *slots = g_new0 (uint32_t, n);
  for (guint i = 0; i < s->n_pages; i++)
    {
      guint h = page_hash (s->pages[i].page) & (n - 1);
      while (slots[h] != 0)
        h = (h + 1) & (n - 1);
      slots[h] = i + 1;
    }
  g_free (s->slots);
  s->slots = slots;
  s->n_slots = n;
}

static SectorPage *
sector_set_page (SectorSet *s, uint64_t page)
{
  if (s->last != 0 && s->pages[s->last - 1].page == page)
    return &s->pages[s->last - 1];
  if (s->n_slots == 0)
    sector_set_grow (s);
  guint h = page_hash (page) & (s->n_slots - 1);
  while (s->slots[h] != 0)
    {
      if (s->pages[s->slots[h] - 1].page == page)
        {
          s->last = s->slots[h];
          return &s->pages[s->last - 1];
        }
      h = (h + 1) & (s->n_slots - 1);
    }
  if (s->n_pages >= WS_SECTOR_SET_MAX_PAGES)
    {
      s->truncated = TRUE;
      return NULL;
    }
  if (s->n_pages == s->cap_pages)
    {
      s->cap_pages = s->cap_pages ? s->cap_pages * 2 : 256;
      s->pages = g_renew (SectorPage, s->pages, s->cap_pages);
    }
  SectorPage *p = &s->pages[s->n_pages++];
  memset (p, 0, sizeof *p);
  p->page = page;
  s->slots[h] = s->n_pages;
  s->last = s->n_pages;
  if ((guint64) s->n_pages * 2 > s->n_slots)
    sector_set_grow (s);
  return p;
}

static void
sector_set_mark (SectorSet *s, uint64_t sector, gboolean store)
{
  SectorPage *p = sector_set_page (s, sector / WS_PAGE_SECTORS);
  if (p == NULL)
    return;
  guint i = (guint) (sector % WS_PAGE_SECTORS);
  uint64_t bit = G_GUINT64_CONSTANT (1) << (i % 64);
  if (store)
    p->stored[i / 64] |= bit;
  else
    p->loaded[i / 64] |= bit;
}

static void
sector_set_clear (SectorSet *s)
{
  g_free (s->pages);
  g_free (s->slots);
  memset (s, 0, sizeof *s);
}

/* ---- static classification ------------------------------------------------ */

/* What one static instruction certainly becomes in SASS. */
typedef enum {
  CLS_NONE,       /* may vanish or is not counted (integer, moves, conversions, ...) */
  CLS_MEM,        /* ld/st/atom/red: counted per record for the global and shared spaces */
  CLS_ISSUE,      /* a floating-point compare / min / max: one instruction, no pipe op counted */
  CLS_FP32_FIXED, /* one FP32-pipe op that cannot disappear (fma, mad, rounded add/mul, ...) */
  CLS_FP32_ADD,   /* add/sub.f32 without rounding: may absorb one mul into an FFMA */
  CLS_FP32_MUL,   /* mul.f32 without rounding: may fuse with one add */
  CLS_FP64_FIXED,
  CLS_FP64_ADD,
  CLS_FP64_MUL,
  CLS_SFU, /* one MUFU per lane */
} InstCls;

/* The mnemonic of PTX line @line (1-based) of @ptx: the first token after an
 * optional guard ("@%p1", "@!%p2") and label, split at dots into @comps.
 * Returns the number of components (0: no text). */
static guint
ptx_mnemonic (const char *ptx, const uint32_t *line_starts, guint n_lines, uint32_t line, char *buf, gsize buf_size,
              const char **comps, guint max_comps)
{
  if (ptx == NULL || line == 0 || line > n_lines)
    return 0;
  const char *p = ptx + line_starts[line - 1];
  for (int token = 0; token < 3; token++)
    {
      while (*p == ' ' || *p == '\t')
        p++;
      const char *start = p;
      while (*p != '\0' && *p != '\n' && *p != ' ' && *p != '\t' && *p != ';')
        p++;
      gsize len = (gsize) (p - start);
      if (len == 0)
        return 0;
      if (start[0] == '@' || start[len - 1] == ':')
        continue;
      if (len >= buf_size)
        return 0;
      memcpy (buf, start, len);
      buf[len] = '\0';
      guint n = 0;
      char *save = NULL;
      for (char *c = strtok_r (buf, ".", &save); c != NULL && n < max_comps; c = strtok_r (NULL, ".", &save))
        comps[n++] = c;
      return n;
    }
  return 0;
}

static gboolean
has_comp (const char **comps, guint n, const char *what)
{
  for (guint i = 1; i < n; i++)
    if (strcmp (comps[i], what) == 0)
      return TRUE;
  return FALSE;
}

static gboolean
has_rounding (const char **comps, guint n)
{
  return has_comp (comps, n, "rn") || has_comp (comps, n, "rz") || has_comp (comps, n, "rm")
         || has_comp (comps, n, "rp");
}

static InstCls
classify (const WsTraceStaticInst *si, const char **comps, guint n_comps)
{
  WsPtxOp op = (WsPtxOp) si->op;
  /* The PTX text must agree with the recorded opcode, else it is ignored. */
  gboolean text = n_comps > 0 && strcmp (comps[0], ws_ptx_op_name (op)) == 0;
  gboolean rnd = text && has_rounding (comps, n_comps);
  switch ((WsOpClass) si->opclass)
    {
    case WS_OPCLASS_LD:
    case WS_OPCLASS_ST:
    case WS_OPCLASS_ATOM:
      /* cp.async and prefetch are not counted. */
      return op == WS_OP_LD || op == WS_OP_LDU || op == WS_OP_ST || op == WS_OP_ATOM || op == WS_OP_RED ? CLS_MEM
                                                                                                        : CLS_NONE;
    case WS_OPCLASS_SFU: return CLS_SFU;
    case WS_OPCLASS_FP32:
      /* Only f32: the class also holds f16/bf16 (and their x2 forms), which
       * ptxas may pack two to an instruction and which run at a higher rate
       * than FP32 on some GPUs.  Without text the type is unknown: nothing. */
      if (!text || !has_comp (comps, n_comps, "f32") || has_comp (comps, n_comps, "f16")
          || has_comp (comps, n_comps, "f16x2") || has_comp (comps, n_comps, "bf16")
          || has_comp (comps, n_comps, "bf16x2"))
        return CLS_NONE;
      switch (op)
        {
        case WS_OP_ADD:
        case WS_OP_SUB: return rnd ? CLS_FP32_FIXED : CLS_FP32_ADD;
        case WS_OP_MUL: return rnd ? CLS_FP32_FIXED : CLS_FP32_MUL;
        case WS_OP_DIV:
          /* div.rn expands to a sequence with FFMAs; div.full / div.approx
           * may be one FMUL by a reciprocal, which may fuse with an add. */
          return rnd ? CLS_FP32_FIXED : CLS_FP32_MUL;
        case WS_OP_MAD:
        case WS_OP_FMA:
        case WS_OP_RCP:
        case WS_OP_SQRT: return CLS_FP32_FIXED;
        case WS_OP_MIN:
        case WS_OP_MAX:
        case WS_OP_SETP:
        case WS_OP_SET: return CLS_ISSUE;
        default: return CLS_NONE; /* abs, neg, copysign (operand modifiers), cvt, testp */
        }
    case WS_OPCLASS_FP64:
      /* The class is f64 by construction (ws_ptx_op_class); with text, check. */
      if (text && !has_comp (comps, n_comps, "f64"))
        return CLS_NONE;
      switch (op)
        {
        case WS_OP_ADD:
        case WS_OP_SUB: return rnd ? CLS_FP64_FIXED : CLS_FP64_ADD;
        case WS_OP_MUL:
        case WS_OP_DIV: return rnd ? CLS_FP64_FIXED : CLS_FP64_MUL;
        case WS_OP_MAD:
        case WS_OP_FMA:
        case WS_OP_RCP:
        case WS_OP_SQRT: return CLS_FP64_FIXED;
        case WS_OP_MIN:
        case WS_OP_MAX:
        case WS_OP_SETP:
        case WS_OP_SET: return CLS_ISSUE;
        default: return CLS_NONE; /* cvt and operand modifiers */
        }
    default: return CLS_NONE;
    }
}

static uint8_t *
classify_kernel (const WsTraceKernel *k)
{
  uint8_t *cls = g_new0 (uint8_t, MAX (k->n_insts, 1));
  g_autoptr (GArray) starts = g_array_new (FALSE, FALSE, sizeof (uint32_t));
  if (k->ptx != NULL)
    {
      uint32_t zero = 0;
      g_array_append_val (starts, zero);
      for (const char *p = k->ptx; *p != '\0'; p++)
        if (*p == '\n')
          {
            uint32_t s = (uint32_t) (p + 1 - k->ptx);
            g_array_append_val (starts, s);
          }
    }
  for (guint i = 0; i < k->n_insts; i++)
    {
      char buf[96];
      const char *comps[12];
      guint n = ptx_mnemonic (k->ptx, (const uint32_t *) (void *) starts->data, starts->len, k->insts[i].ptx_line, buf,
                              sizeof buf, comps, G_N_ELEMENTS (comps));
      cls[i] = (uint8_t) classify (&k->insts[i], comps, n);
      /* The trace's lowering (ws-trace-lowering.h): an absorbed instruction
       * issues nothing, an add that absorbed a mul is one FMA.  fused ()
       * below still pairs the remaining muls and adds, which ptxas may fuse
       * beyond the lowering's conservative rule; both ways every pair
       * counts once, so the bound is the same number. */
      if (!ws_trace_lowering_issues (k->lowering[i]))
        cls[i] = CLS_NONE;
      else if (k->lowering[i] == WS_TRACE_LOWERING_FMA && cls[i] == CLS_FP32_ADD)
        cls[i] = CLS_FP32_FIXED;
      else if (k->lowering[i] == WS_TRACE_LOWERING_FMA && cls[i] == CLS_FP64_ADD)
        cls[i] = CLS_FP64_FIXED;
    }
  return cls;
}

/* ---- per-record memory work ------------------------------------------------- */

/* Removes duplicates from @v (at most 32 x 17 values); returns the new
 * length.  The order of what remains is unspecified: callers count units
 * and banks.  Already sorted input (coalesced lanes) is one pass; other
 * input goes through a small open-addressing set (a warp's random lanes
 * made the qsort this replaces the costliest step of the counts). */
static guint
distinct_units (uint64_t *v, guint n)
{
  if (n < 2)
    return n;
  gboolean sorted = TRUE;
  for (guint i = 1; i < n && sorted; i++)
    sorted = v[i - 1] <= v[i];
  guint m = 1;
  if (sorted)
    {
      for (guint i = 1; i < n; i++)
        if (v[i] != v[m - 1])
          v[m++] = v[i];
      return m;
    }
  uint64_t tab[2048];
  uint8_t used[2048];
  guint cap = 64;
  while (cap < 2 * n)
    cap *= 2;
  g_assert (cap <= G_N_ELEMENTS (tab));
  memset (used, 0, cap);
  m = 0;
  for (guint i = 0; i < n; i++)
    {
      uint64_t x = v[i];
      guint h = (guint) ((x * 0x9E3779B97F4A7C15ull) >> 40) & (cap - 1);
      while (used[h] && tab[h] != x)
        h = (h + 1) & (cap - 1);
      if (!used[h])
        {
          used[h] = 1;
          tab[h] = x;
          v[m++] = x;
        }
    }
  return m;
}

/* Units of @unit bytes touched by the active lanes (each lane covers
 * [addr, addr + size)), distinct, in @out (room for 32 x 17). */
static guint
touched_units (const WsTraceRecord *r, guint size, guint shift, uint64_t *out)
{
  guint n = 0;
  gboolean ascending = TRUE;
  for (uint32_t m = r->active_mask; m; m &= m - 1)
    {
      uint64_t a = r->addrs[__builtin_ctz (m)];
      uint64_t first = a >> shift, last = (a + size - 1) >> shift;
      for (uint64_t u = first; u <= last && u - first < 16; u++)
        {
          /* a repeat of the unit just listed (neighbouring lanes in one
           * unit: most accesses) is dropped at once; the order of first
           * appearances, which distinct_units keeps, is the same */
          if (n > 0 && out[n - 1] == u)
            continue;
          ascending = ascending && (n == 0 || out[n - 1] < u);
          out[n++] = u;
        }
    }
  /* strictly ascending: already distinct */
  return ascending ? n : distinct_units (out, n);
}

/* Wavefronts an access needs at least: a bank returns one word per clock,
 * so the most distinct words mapped to one bank (32 banks of @word bytes).
 * For 32-bit accesses this is the bank-conflict degree; wider accesses need
 * at least this many (NVIDIA CUDA C++ Programming Guide, "Shared Memory",
 * compute capabilities 5.x-9.0; Kepler's 8-byte mode with @shift 3). */
static uint64_t
bank_ways (const WsTraceRecord *r, guint size, guint shift, uint64_t *scratch, guint *n_units)
{
  guint n = touched_units (r, size, shift, scratch);
  *n_units = n;
  guint per_bank[32] = { 0 };
  guint ways = n > 0 ? 1 : 0;
  for (guint i = 0; i < n; i++)
    {
      guint in_bank = ++per_bank[scratch[i] & 31];
      ways = MAX (ways, in_bank);
    }
  return ways;
}

/* ---- access merging -------------------------------------------------------- */

/* ptxas may merge neighbouring accesses of one thread into one access of up
 * to 128 bits per lane (LDG.64/128, LDS.64/128, STG/STS alike).  A merged
 * access needs at least as many wavefronts and sectors as the costliest
 * access it holds, so an s-byte access that may be part of an M-byte merged
 * access is counted with weight s / M (the weights of the accesses one
 * merged access holds add up to at most 1), every other one with weight 1.
 * Weights are kept in sixteenths.
 *
 * ptxas can merge two accesses only when every lane's second address is
 * contiguous with its first within one naturally aligned chunk of at most
 * 16 bytes, so an access gets weight s / M only when, for every active lane,
 * the aligned M-byte chunk around it is covered by accesses of the same
 * space, kind (load / store) and active lanes, each at one constant offset
 * from it in every lane.  The test is generous wherever the compiler's
 * freedom is unclear, so that the figures stay lower bounds:
 *  - contiguity seen at run time is enough (ptxas needs to prove it);
 *  - the partners may be up to WS_MERGE_WINDOW accesses of the same space
 *    and kind away in the warp's dynamic stream, in either direction, with
 *    anything between them (other spaces, arithmetic), so a merge across
 *    loop iterations that ptxas could only reach by unrolling is allowed;
 *  - only a barrier, a store or atomic to the same space (for loads) and an
 *    atomic (for stores) separates candidates;
 *  - pieces of different sizes may fill one chunk (moves are free here).
 * A load repeating an earlier one's addresses is counted again: the PTX
 * comes from NVVM, which already removed every load it could prove
 * redundant with full alias and type information; ptxas sees less and
 * cannot prove more (gpu-strides' p += zero repeats its addresses from 32
 * static loads, and the hardware issues all of them). */
#define WS_MERGE_WINDOW 16u
#define WS_MERGE_RING (2u * WS_MERGE_WINDOW + 1u)

typedef enum { WIN_GLOBAL_LD, WIN_GLOBAL_ST, WIN_SHARED_LD, WIN_SHARED_ST, N_WINDOWS } WindowKind;

/* One access waiting for its weight, with its unweighted figures. */
typedef struct {
  uint64_t addrs[32];
  uint32_t mask;
  uint32_t static_id;
  uint8_t size;
  uint8_t first;    /* lowest active lane */
  uint32_t sectors; /* global: 32-byte sectors touched */
  uint32_t bytes;   /* global: distinct bytes touched */
  uint32_t ways4;   /* shared: bank-conflict degree with 4-byte banks */
  uint32_t ways8;   /* shared: with 8-byte banks (Kepler) */
  uint32_t data_wf; /* L1 data-stage wavefronts (global loads and shared, Volta and later) */
} PendingAccess;

/* The last WS_MERGE_RING accesses of one space and kind since the last
 * separator: access i is weighed once access i + WS_MERGE_WINDOW has
 * arrived (or at a separator), when both its neighbourhoods are here. */
typedef struct {
  PendingAccess ring[WS_MERGE_RING];
  uint64_t n;    /* accesses since the last separator */
  uint64_t done; /* of which weighed */
} MergeWindow;

/* Weighted sums (sixteenths) of one walk. */
typedef struct {
  uint64_t mem16;                     /* the current warp's memory instructions */
  uint64_t l1_16, store16;            /* global load / store sectors */
  uint64_t l1_bytes16;                /* global load distinct bytes */
  uint64_t l1_wf16;                   /* L1 data-stage wavefronts of global loads */
  uint64_t wave16, wave8b16, sh_wf16; /* shared: 4-byte ways, 8-byte ways, data-stage wavefronts */
  /* the current block's: */
  uint64_t tb_l1_wf16, tb_wave16, tb_wave8b16, tb_sh_wf16;
} MemTally;

static gboolean
same_delta (const PendingAccess *a, const PendingAccess *b, uint64_t d)
{
  for (guint lane = a->first; lane < 32; lane++)
    if ((a->mask & (1u << lane)) && b->addrs[lane] - a->addrs[lane] != d)
      return FALSE;
  return TRUE;
}

static gboolean
lanes_aligned (const PendingAccess *a, uint64_t m, uint64_t off)
{
  for (guint lane = a->first; lane < 32; lane++)
    if ((a->mask & (1u << lane)) && (a->addrs[lane] & (m - 1)) != off)
      return FALSE;
  return TRUE;
}

/* The weight of access @i of @w in sixteenths (see above). */
static guint
merge_weight16 (const MergeWindow *w, uint64_t i)
{
  const PendingAccess *a = &w->ring[i % WS_MERGE_RING];
  guint s = a->size;
  if (s >= 16)
    return 16;
  uint64_t lo = i > WS_MERGE_WINDOW ? i - WS_MERGE_WINDOW : 0;
  uint64_t hi = MIN (w->n, i + WS_MERGE_WINDOW + 1);
  int cand_d[2 * WS_MERGE_WINDOW];
  guint cand_size[2 * WS_MERGE_WINDOW];
  guint n = 0;
  for (uint64_t j = lo; j < hi; j++)
    {
      if (j == i)
        continue;
      const PendingAccess *b = &w->ring[j % WS_MERGE_RING];
      if (b->mask != a->mask || b->size >= 16)
        continue;
      uint64_t d = b->addrs[a->first] - a->addrs[a->first];
      if ((int64_t) d <= -16 || (int64_t) d >= 16 || !same_delta (a, b, d))
        continue;
      cand_d[n] = (int) (int64_t) d;
      cand_size[n] = b->size;
      n++;
    }
  if (n == 0)
    return 16;
  for (guint m = 16; m > s; m /= 2)
    {
      uint64_t off = a->addrs[a->first] & (m - 1);
      if (!lanes_aligned (a, m, off))
        continue;
      uint32_t cover = ((1u << s) - 1u) << off;
      for (guint k = 0; k < n; k++)
        {
          int start = (int) off + cand_d[k];
          if (start >= 0 && start + (int) cand_size[k] <= (int) m)
            cover |= ((1u << cand_size[k]) - 1u) << start;
        }
      if (cover == (1u << m) - 1u)
        return 16 * s / m;
    }
  return 16;
}

static void
window_account (WindowKind kind, const PendingAccess *a, uint64_t w16, MemTally *t)
{
  t->mem16 += w16;
  switch (kind)
    {
    case WIN_GLOBAL_LD:
      t->l1_16 += a->sectors * w16;
      t->l1_bytes16 += a->bytes * w16;
      t->l1_wf16 += a->data_wf * w16;
      t->tb_l1_wf16 += a->data_wf * w16;
      break;
    case WIN_GLOBAL_ST: t->store16 += a->sectors * w16; break;
    case WIN_SHARED_LD:
    case WIN_SHARED_ST:
      t->wave16 += a->ways4 * w16;
      t->wave8b16 += a->ways8 * w16;
      t->sh_wf16 += a->data_wf * w16;
      t->tb_wave16 += a->ways4 * w16;
      t->tb_wave8b16 += a->ways8 * w16;
      t->tb_sh_wf16 += a->data_wf * w16;
      break;
    case N_WINDOWS:
    default: g_assert_not_reached ();
    }
}

static void
window_weigh_until (MergeWindow *w, WindowKind kind, uint64_t end, MemTally *t)
{
  for (; w->done < end; w->done++)
    window_account (kind, &w->ring[w->done % WS_MERGE_RING], merge_weight16 (w, w->done), t);
}

/* A separator: weighs every waiting access and starts a new segment. */
static void
window_flush (MergeWindow *w, WindowKind kind, MemTally *t)
{
  window_weigh_until (w, kind, w->n, t);
  w->n = w->done = 0;
}

/* The slot for the next access; window_pushed after filling it. */
static PendingAccess *
window_slot (MergeWindow *w)
{
  return &w->ring[w->n % WS_MERGE_RING];
}

static void
window_pushed (MergeWindow *w, WindowKind kind, MemTally *t)
{
  w->n++;
  if (w->n > WS_MERGE_WINDOW)
    window_weigh_until (w, kind, w->n - WS_MERGE_WINDOW, t);
}

/* L1 data-stage wavefronts of one warp access (Volta and later): the data
 * array is 32 banks of 4 bytes, as shared memory, and returns 128 bytes a
 * cycle to the registers, so an access needs at least the most distinct
 * words in one bank and at least (active lanes x size) / 128 wavefronts
 * (a 64-bit broadcast still needs 2: gpu-strides' double stride 0 measures
 * 2.0 data wavefronts per warp load on A100 and H200). */
static uint32_t
data_wavefronts (const WsTraceRecord *r, guint size, uint64_t ways4)
{
  guint lanes = (guint) __builtin_popcount (r->active_mask);
  uint64_t bytes = (lanes * size + 127) / 128;
  return (uint32_t) MAX (ways4, MAX (bytes, 1));
}

/* L1 wavefronts of one warp's global load (Volta and later): the data
 * stage's (data_wavefronts) or the tag stage's, whichever is more.  The tag
 * stage looks up 4 tags a cycle, resolving at most 4 cache lines of 128
 * bytes, 16 sectors (NVIDIA's description of the Volta-and-later L1TEX,
 * NVIDIA developer forums: "Pascal L1 cache", t/49571, and "How does the
 * LSU execute load/store instructions in the Ampere architecture",
 * t/273699: "on GV100+ the L1TEX tag stage can resolve 4 sets x 4 sectors
 * per cycle"), so a load touching L distinct lines needs ceil (L / 4)
 * wavefronts however few of its words share a bank: gpu-strides' float
 * stride 30 (30 lines, 2-way banks) takes 8.0 cycles per warp load on
 * A100, stride 14 4.0, stride 22 6.1.  Sets *@n_words to the distinct
 * 4-byte words. */
static uint32_t
global_load_wavefronts (const WsTraceRecord *r, guint size, uint64_t *scratch, guint *n_words)
{
  uint32_t data = data_wavefronts (r, size, bank_ways (r, size, 2, scratch, n_words));
  guint lines = touched_units (r, size, 7, scratch);
  return MAX (data, (uint32_t) ((lines + WS_BOUNDS_L1_TAGS_PER_CLK - 1) / WS_BOUNDS_L1_TAGS_PER_CLK));
}

/* Which shared-memory wavefront count applies on a GPU of compute
 * capability @cc_major (see the shared term in ws_launch_bound_from_counts):
 * from Volta on the data-stage count; Kepler (cc 3.x) may run in 8-byte
 * bank mode, the fewer of both; otherwise 32 banks of 4 bytes. */
static double
shared_wavefronts_on (int cc_major, double ways4, double ways8, double data_wf)
{
  if (cc_major >= 7)
    return data_wf;
  if (cc_major == 3)
    return MIN (ways4, ways8);
  return ways4;
}

double
ws_bounds_access_wavefronts (const WsTraceRecord *r, guint size, int cc_major)
{
  g_return_val_if_fail (r != NULL, NAN);
  if (r->active_mask == 0)
    return 0;
  size = MAX (size, 1u);
  uint64_t scratch[32 * 17];
  guint n;
  switch (r->space)
    {
    case WS_SPACE_SHARED:
      {
        uint64_t ways4 = bank_ways (r, size, 2, scratch, &n);
        uint64_t ways8 = bank_ways (r, size, 3, scratch, &n);
        return shared_wavefronts_on (cc_major, (double) ways4, (double) ways8,
                                     (double) data_wavefronts (r, size, ways4));
      }
    case WS_SPACE_GLOBAL: return cc_major >= 7 ? (double) global_load_wavefronts (r, size, scratch, &n) : NAN;
    case WS_SPACE_LOCAL:
      /* Local memory is interleaved so that consecutive 32-bit words belong
       * to consecutive threads (CUDA C++ Programming Guide, "Local
       * Memory"): each lane's words lie in its own banks whatever its
       * offset, and the trace records per-thread offsets, so only the
       * bytes the data path returns count. */
      return cc_major >= 7 ? (double) data_wavefronts (r, size, 1) : NAN;
    default: return NAN;
    }
}

/* ---- the count pass ---------------------------------------------------------- */

typedef struct {
  uint64_t issue, barriers;
  uint64_t fixed32, add32, mul32, fixed64, add64, mul64, sfu;
  uint64_t fixed32_l, add32_l, mul32_l, fixed64_l, add64_l, mul64_l, sfu_l;
} WarpTally;

/* A fused multiply-add replaces one mul and one add by one instruction, so
 * of m fusable muls and a fusable adds at least max (m, a) survive:
 * m + a - min (m, a).  Same for thread-level operations. */
static uint64_t
fused (uint64_t a, uint64_t m)
{
  return a + m - MIN (a, m);
}

gboolean
ws_launch_counts_compute (WsTrace *trace, guint launch, WsLaunchCounts *out, GError **error)
{
  g_return_val_if_fail (trace != NULL && out != NULL, FALSE);
  if (launch >= ws_trace_get_n_launches (trace))
    {
      g_set_error (error, WS_ERROR, WS_ERROR_NOT_FOUND, "%s has %u launches; there is no launch %u",
                   ws_trace_get_path (trace), ws_trace_get_n_launches (trace), launch);
      return FALSE;
    }
  memset (out, 0, sizeof *out);
  const WsTraceLaunch *l = ws_trace_get_launch (trace, launch);
  const WsTraceKernel *k = ws_trace_get_kernel (trace, l->kernel);
  out->launch = launch;
  out->n_tbs = l->n_tbs;
  g_autofree uint8_t *cls = classify_kernel (k);
  uint64_t n_tbs = 0;
  const WsTraceTbCounters *tbc = ws_trace_get_tb_counters (trace, launch, &n_tbs);
  SectorSet set = { 0 };
  uint64_t scratch[32 * 17];
  MergeWindow *win = g_new0 (MergeWindow, N_WINDOWS);
  MemTally mt = { 0 };
  gboolean ok = TRUE;

  for (uint64_t t = 0; ok && t < n_tbs; t++)
    {
      if (!tbc[t].recorded)
        continue;
      g_autoptr (WsTraceTb) tb = ws_trace_read_tb (trace, launch, t, error);
      if (tb == NULL)
        {
          ok = FALSE;
          break;
        }
      uint64_t tb_insts = 0;
      mt.tb_l1_wf16 = mt.tb_wave16 = mt.tb_wave8b16 = mt.tb_sh_wf16 = 0;
      for (guint w = 0; ok && w < ws_trace_tb_get_n_warps (tb); w++)
        {
          WsTraceWarpIter it;
          WsTraceRecord r;
          WarpTally c = { 0 };
          uint64_t lowered = 0;
          gboolean any = FALSE;
          GError *e = NULL;
          mt.mem16 = 0;
          ws_trace_warp_iter_init (&it, tb, w);
          while (ws_trace_warp_iter_next (&it, &r, &e))
            {
              any = TRUE;
              if (ws_trace_kernel_issues (k, r.static_id))
                lowered++;
              if (r.active_mask == 0 || r.static_id >= k->n_insts)
                continue;
              guint lanes = (guint) __builtin_popcount (r.active_mask);
              if (r.kind == WS_TRACE_RECORD_BARRIER)
                {
                  /* No access moves across a barrier. */
                  for (guint i = 0; i < N_WINDOWS; i++)
                    window_flush (&win[i], (WindowKind) i, &mt);
                  c.barriers++;
                  continue;
                }
              switch ((InstCls) cls[r.static_id])
                {
                case CLS_MEM:
                  {
                    if (r.kind != WS_TRACE_RECORD_MEM)
                      break;
                    const WsTraceStaticInst *si = &k->insts[r.static_id];
                    guint size = si->access_size ? si->access_size : 1;
                    gboolean load = si->op == WS_OP_LD || si->op == WS_OP_LDU;
                    gboolean atomic = si->op == WS_OP_ATOM || si->op == WS_OP_RED;
                    WindowKind ld_win, st_win;
                    if (r.space == WS_SPACE_GLOBAL)
                      ld_win = WIN_GLOBAL_LD, st_win = WIN_GLOBAL_ST;
                    else if (r.space == WS_SPACE_SHARED)
                      ld_win = WIN_SHARED_LD, st_win = WIN_SHARED_ST;
                    else
                      /* Local memory is not counted: ptxas may keep a local
                       * array in registers, and local data is cached
                       * write-back in L1 (it need not reach L2 or DRAM). */
                      break;
                    /* Loads do not move across a store or atomic to their
                     * space, stores not across an atomic. */
                    if (!load)
                      window_flush (&win[ld_win], ld_win, &mt);
                    if (atomic)
                      window_flush (&win[st_win], st_win, &mt);
                    PendingAccess a;
                    PendingAccess *p = atomic ? &a : window_slot (&win[load ? ld_win : st_win]);
                    p->mask = r.active_mask;
                    p->first = (uint8_t) __builtin_ctz (r.active_mask);
                    p->static_id = r.static_id;
                    p->size = (uint8_t) MIN (size, 255u);
                    memcpy (p->addrs, r.addrs, sizeof p->addrs);
                    p->sectors = p->bytes = p->ways4 = p->ways8 = p->data_wf = 0;
                    if (r.space == WS_SPACE_GLOBAL)
                      {
                        guint n = touched_units (&r, size, 5, scratch);
                        p->sectors = n;
                        for (guint i = 0; i < n; i++)
                          sector_set_mark (&set, scratch[i], !load);
                        if (load)
                          {
                            /* a naturally aligned access of 4 bytes or more
                             * covers whole words */
                            p->data_wf = global_load_wavefronts (&r, size, scratch, &n);
                            p->bytes = size >= 4 ? n * 4 : touched_units (&r, size, 0, scratch);
                          }
                      }
                    else
                      {
                        out->shared_accesses++;
                        guint words;
                        p->ways4 = (uint32_t) bank_ways (&r, size, 2, scratch, &words);
                        p->ways8 = (uint32_t) bank_ways (&r, size, 3, scratch, &words);
                        p->data_wf = data_wavefronts (&r, size, p->ways4);
                      }
                    /* Atomics are never merged: weight 1 at once. */
                    if (atomic)
                      window_account (st_win, p, 16, &mt);
                    else
                      window_pushed (&win[load ? ld_win : st_win], load ? ld_win : st_win, &mt);
                    break;
                  }
                case CLS_ISSUE: c.issue++; break;
                case CLS_FP32_FIXED:
                  c.fixed32++;
                  c.fixed32_l += lanes;
                  break;
                case CLS_FP32_ADD:
                  c.add32++;
                  c.add32_l += lanes;
                  break;
                case CLS_FP32_MUL:
                  c.mul32++;
                  c.mul32_l += lanes;
                  break;
                case CLS_FP64_FIXED:
                  c.fixed64++;
                  c.fixed64_l += lanes;
                  break;
                case CLS_FP64_ADD:
                  c.add64++;
                  c.add64_l += lanes;
                  break;
                case CLS_FP64_MUL:
                  c.mul64++;
                  c.mul64_l += lanes;
                  break;
                case CLS_SFU:
                  c.sfu++;
                  c.sfu_l += lanes;
                  break;
                case CLS_NONE:
                default: break;
                }
            }
          /* A warp's accesses never merge with another warp's. */
          for (guint i = 0; i < N_WINDOWS; i++)
            window_flush (&win[i], (WindowKind) i, &mt);
          if (e != NULL)
            {
              g_propagate_prefixed_error (error, e, "launch %u, TB %" G_GUINT64_FORMAT ", warp %u: ", launch, t, w);
              ok = FALSE;
              break;
            }
          if (!any)
            continue;
          /* Every warp ends with one EXIT; branches are not counted (ptxas
           * may if-convert them into predication or drop them by layout). */
          uint64_t insts = (mt.mem16 + 15) / 16 + c.issue + c.barriers + 1 + c.fixed32 + fused (c.add32, c.mul32)
                           + c.fixed64 + fused (c.add64, c.mul64) + c.sfu;
          out->warps++;
          out->warp_insts_lowered += lowered;
          out->warp_insts_issued_min += insts;
          out->warp_warp_insts_max = MAX (out->warp_warp_insts_max, insts);
          tb_insts += insts;
          out->fp32_thread_ops_min += c.fixed32_l + fused (c.add32_l, c.mul32_l);
          out->fp64_thread_ops_min += c.fixed64_l + fused (c.add64_l, c.mul64_l);
          out->sfu_thread_ops_min += c.sfu_l;
        }
      out->tb_warp_insts_max = MAX (out->tb_warp_insts_max, tb_insts);
      out->tb_shared_wavefronts_max = MAX (out->tb_shared_wavefronts_max, mt.tb_wave16 / 16.0);
      out->tb_shared_wavefronts_8b_max = MAX (out->tb_shared_wavefronts_8b_max, mt.tb_wave8b16 / 16.0);
      out->tb_shared_data_wavefronts_max = MAX (out->tb_shared_data_wavefronts_max, mt.tb_sh_wf16 / 16.0);
      out->tb_l1_wavefronts_max = MAX (out->tb_l1_wavefronts_max, mt.tb_l1_wf16 / 16.0);
    }

  for (guint i = 0; i < set.n_pages; i++)
    for (guint j = 0; j < WS_PAGE_WORDS; j++)
      {
        uint64_t ld = set.pages[i].loaded[j], st = set.pages[i].stored[j];
        out->unique_load_sectors += (uint64_t) __builtin_popcountll (ld);
        out->unique_load_only_sectors += (uint64_t) __builtin_popcountll (ld & ~st);
        out->unique_store_sectors += (uint64_t) __builtin_popcountll (st);
      }
  out->unique_truncated = set.truncated;
  out->shared_wavefronts_min = mt.wave16 / 16.0;
  out->shared_wavefronts_8b_min = mt.wave8b16 / 16.0;
  out->shared_data_wavefronts_min = mt.sh_wf16 / 16.0;
  out->l1_load_sectors = mt.l1_16 / 16.0;
  out->l1_load_bytes = mt.l1_bytes16 / 16.0;
  out->l1_wavefronts_min = mt.l1_wf16 / 16.0;
  out->store_sectors = mt.store16 / 16.0;
  g_free (win);
  sector_set_clear (&set);
  return ok;
}

/* ---- GPU rates ------------------------------------------------------------------ */

double
ws_bounds_l1_bytes_per_clk (const WsGpu *gpu)
{
  double v = gpu->l1_bandwidth_bytes_per_clk;
  if (v > 0)
    return v;
  return gpu->cc_major >= 7 ? WS_BOUNDS_L1_BYTES_PER_CLK : WS_BOUNDS_L1_BYTES_PER_CLK_PRE_VOLTA;
}

double
ws_bounds_l2_bytes_per_clk (const WsGpu *gpu)
{
  double v = gpu->l2_bandwidth_bytes_per_clk;
  if (v > 0)
    return v;
  return gpu->l2_slices > 0 ? gpu->l2_slices * WS_BOUNDS_L2_BYTES_PER_SLICE_PER_CLK : 0;
}

static double
ratio (double work, double rate)
{
  return rate > 0 ? work / rate : 0;
}

gboolean
ws_launch_bound_from_counts (const WsLaunchCounts *c, const WsGpu *gpu, WsLaunchBound *out, GError **error)
{
  g_return_val_if_fail (c != NULL && gpu != NULL && out != NULL, FALSE);
  if (gpu->sms <= 0 || gpu->core_clock_mhz <= 0 || gpu->warp_schedulers_per_sm <= 0 || gpu->issue_width <= 0)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID,
                   "GPU '%s' lacks what the launch bound needs (SMs, core clock, warp schedulers, issue width)",
                   gpu->name ? gpu->name : "?");
      return FALSE;
    }
  memset (out, 0, sizeof *out);
  double sms = MAX (1.0, MIN ((double) gpu->sms, (double) c->n_tbs));
  double per_sm_issue = (double) gpu->warp_schedulers_per_sm * gpu->issue_width;
  out->sms_used = sms;
  out->max_ipc = sms * per_sm_issue;

  /* issue: certain warp instructions over the issue slots of the SMs in
   * use; a block runs on one SM, so the largest block over one SM's slots. */
  out->issue = MAX ((double) c->warp_insts_issued_min / out->max_ipc, (double) c->tb_warp_insts_max / per_sm_issue);
  /* warp-issue: a warp issues at most issue_width instructions a cycle. */
  out->warp_issue = (double) c->warp_warp_insts_max / gpu->issue_width;
  /* pipes: one operation per unit per cycle, units of the SMs in use. */
  out->fp32 = ratio ((double) c->fp32_thread_ops_min, (double) gpu->cuda_cores_per_sm * sms);
  out->fp64 = ratio ((double) c->fp64_thread_ops_min, (double) gpu->fp64_units_per_sm * sms);
  out->sfu = ratio ((double) c->sfu_thread_ops_min, (double) gpu->sfu_units_per_sm * sms);
  out->tensor = ratio ((double) c->tensor_thread_ops_min, (double) gpu->tensor_cores_per_sm * sms);
  /* shared: one wavefront per SM per cycle (32 banks x 4 bytes); Kepler
   * (cc 3.x) may run in 8-byte bank mode: the fewer wavefronts of the two.
   * From Volta on shared memory is the L1's data array, which returns 128
   * bytes a cycle, so an access also needs lanes x size / 128 wavefronts.
   * A block runs on one SM: also its own wavefronts. */
  double wavefronts = shared_wavefronts_on (gpu->cc_major, c->shared_wavefronts_min, c->shared_wavefronts_8b_min,
                                            c->shared_data_wavefronts_min);
  double tb_wavefronts = shared_wavefronts_on (gpu->cc_major, c->tb_shared_wavefronts_max,
                                               c->tb_shared_wavefronts_8b_max, c->tb_shared_data_wavefronts_max);
  out->shared = MAX (wavefronts / sms, tb_wavefronts);
  /* l1: the distinct bytes each global load asks for through each SM's L1
   * data path (not its sectors: the data stage reads 4-byte banks, and
   * gpu-strides' stride 15 reads 32 sectors in 4.6 cycles on H200), and from Volta
   * on the data stage's wavefronts: one a cycle per SM (NVIDIA's Volta,
   * Ampere and Hopper tuning guides; Nsight Compute's
   * l1tex__data_pipe_lsu_wavefronts), the launch's over its SMs and a
   * block's on its SM.  A record with an L1 wider than 128 B/clk scales
   * the wavefronts down.  Before Volta global loads go through the
   * L1/texture path (Maxwell, Pascal) or L1 (Fermi, Kepler) whose
   * per-access wavefront rules are not published: bytes only there. */
  out->l1_bytes_per_clk = ws_bounds_l1_bytes_per_clk (gpu);
  out->l1_bytes_min = c->l1_load_bytes;
  out->l1 = ratio (out->l1_bytes_min, out->l1_bytes_per_clk * sms);
  if (gpu->cc_major >= 7)
    {
      double per_clk = MAX (1.0, out->l1_bytes_per_clk / WS_BOUNDS_L1_BYTES_PER_WAVEFRONT);
      out->l1_wavefronts_min = c->l1_wavefronts_min;
      out->l1 = MAX (out->l1, MAX (c->l1_wavefronts_min / sms, c->tb_l1_wavefronts_max) / per_clk);
    }
  /* l2: every store / atomic sector crosses to L2 (the L1 is write-through
   * for global data), and at least every distinct sector written does; every
   * distinct sector loaded and never written in the launch is fetched from
   * L2 into some L1 at least once (L1s start each launch invalidated). */
  out->l2_bytes_per_clk = ws_bounds_l2_bytes_per_clk (gpu);
  out->l2_bytes_min = (MAX (c->store_sectors, (double) c->unique_store_sectors) + (double) c->unique_load_only_sectors)
                      * WS_SECTOR;
  out->l2 = ratio (out->l2_bytes_min, out->l2_bytes_per_clk);
  /* dram: at most l2_size bytes can be found in the L2 at the start and at
   * most l2_size bytes of written data can stay there at the end. */
  double l2 = gpu->l2_size > 0 ? (double) gpu->l2_size : 0;
  double reads = MAX (0.0, (double) (c->unique_load_only_sectors * WS_SECTOR) - l2);
  double writes = MAX (0.0, (double) (c->unique_store_sectors * WS_SECTOR) - l2);
  out->dram_bytes_min = (uint64_t) (reads + writes);
  out->dram_bytes_per_clk = gpu->dram_bandwidth_gbs * 1e9 / (gpu->core_clock_mhz * 1e6);
  out->dram = ratio (reads + writes, out->dram_bytes_per_clk);

  out->warp_insts_issued_min = c->warp_insts_issued_min;
  out->tb_warp_insts_max = c->tb_warp_insts_max;
  out->warp_warp_insts_max = c->warp_warp_insts_max;
  out->fp32_thread_ops_min = c->fp32_thread_ops_min;
  out->fp64_thread_ops_min = c->fp64_thread_ops_min;
  out->sfu_thread_ops_min = c->sfu_thread_ops_min;
  out->tensor_thread_ops_min = c->tensor_thread_ops_min;
  out->shared_wavefronts_min = wavefronts;

  const struct {
    const char *name;
    double v;
  } terms[] = {
    { "issue", out->issue },   { "warp-issue", out->warp_issue },
    { "fp32", out->fp32 },     { "fp64", out->fp64 },
    { "sfu", out->sfu },       { "tensor", out->tensor },
    { "shared", out->shared }, { "l1", out->l1 },
    { "l2", out->l2 },         { "dram", out->dram },
  };
  out->limiter = terms[0].name;
  out->cycles = terms[0].v;
  for (guint i = 1; i < G_N_ELEMENTS (terms); i++)
    if (terms[i].v > out->cycles)
      {
        out->cycles = terms[i].v;
        out->limiter = terms[i].name;
      }
  out->seconds = out->cycles / (gpu->core_clock_mhz * 1e6);
  return TRUE;
}

gboolean
ws_launch_bound_compute (WsTrace *trace, guint launch, const WsGpu *gpu, WsLaunchBound *out, GError **error)
{
  WsLaunchCounts c;
  return ws_launch_counts_compute (trace, launch, &c, error) && ws_launch_bound_from_counts (&c, gpu, out, error);
}

/* ---- cache ------------------------------------------------------------------------ */

#define WS_COUNTS_CACHE_MAX 4096

static GMutex counts_lock;
static GHashTable *counts_cache; /* key string -> WsLaunchCounts */

gboolean
ws_launch_counts_cached (WsTrace *trace, guint launch, WsLaunchCounts *out, GError **error)
{
  g_return_val_if_fail (trace != NULL && out != NULL, FALSE);
  if (launch >= ws_trace_get_n_launches (trace))
    return ws_launch_counts_compute (trace, launch, out, error);
  /* The file is identified by path, size and what the launch records, so a
   * trace rewritten at the same path is not confused with the old one. */
  const WsTraceLaunch *l = ws_trace_get_launch (trace, launch);
  g_autofree char *key = g_strdup_printf (
    "%s\n%" G_GUINT64_FORMAT "\n%u\n%u\n%" G_GUINT64_FORMAT "\n%" G_GUINT64_FORMAT "\n%" G_GUINT64_FORMAT,
    ws_trace_get_path (trace), ws_trace_get_file_size (trace), ws_trace_get_n_launches (trace), launch,
    l->warp_instructions, l->stream_bytes, l->memory_requests);
  g_mutex_lock (&counts_lock);
  const WsLaunchCounts *hit = counts_cache ? g_hash_table_lookup (counts_cache, key) : NULL;
  if (hit != NULL)
    *out = *hit;
  g_mutex_unlock (&counts_lock);
  if (hit != NULL)
    return TRUE;
  /* On disk beside the trace (ws_trace_cache_*): the counts depend on the
   * launch's content only, and walking every record of a large launch
   * costs more than its sampled analysis.  The payload is the struct as
   * this build lays it out (the file's name carries the build). */
  g_autofree char *digest = ws_trace_launch_digest (trace, launch);
  g_autofree char *disk_key = g_strdup_printf ("%s\nWsLaunchCounts %" G_GSIZE_FORMAT, digest, sizeof *out);
  g_autoptr (GBytes) stored = ws_trace_cache_load (trace, "counts", disk_key);
  if (stored != NULL && g_bytes_get_size (stored) == sizeof *out)
    {
      memcpy (out, g_bytes_get_data (stored, NULL), sizeof *out);
      out->launch = launch; /* the same content may be another launch */
    }
  else
    {
      if (!ws_launch_counts_compute (trace, launch, out, error))
        return FALSE;
      ws_trace_cache_store (trace, "counts", disk_key, out, sizeof *out);
    }
  g_mutex_lock (&counts_lock);
  if (counts_cache == NULL)
    counts_cache = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  if (g_hash_table_size (counts_cache) >= WS_COUNTS_CACHE_MAX)
    g_hash_table_remove_all (counts_cache);
  g_hash_table_replace (counts_cache, g_steal_pointer (&key), g_memdup2 (out, sizeof *out));
  g_mutex_unlock (&counts_lock);
  return TRUE;
}

/* ---- JSON ---------------------------------------------------------------------------- */

static void
add_d (JsonBuilder *b, const char *name, double v)
{
  json_builder_set_member_name (b, name);
  json_builder_add_double_value (b, isfinite (v) ? v : 0);
}

static void
add_i (JsonBuilder *b, const char *name, uint64_t v)
{
  json_builder_set_member_name (b, name);
  json_builder_add_int_value (b, (gint64) v);
}

JsonNode *
ws_launch_bound_to_json (const WsLaunchBound *x)
{
  g_return_val_if_fail (x != NULL, NULL);
  g_autoptr (JsonBuilder) b = json_builder_new ();
  json_builder_begin_object (b);
  add_d (b, "cycles", x->cycles);
  add_d (b, "seconds", x->seconds);
  json_builder_set_member_name (b, "limiter");
  json_builder_add_string_value (b, x->limiter ? x->limiter : "");
  add_d (b, "sms_used", x->sms_used);
  add_d (b, "max_ipc", x->max_ipc);
  json_builder_set_member_name (b, "terms");
  json_builder_begin_object (b);
  add_d (b, "issue", x->issue);
  add_d (b, "warp-issue", x->warp_issue);
  add_d (b, "fp32", x->fp32);
  add_d (b, "fp64", x->fp64);
  add_d (b, "sfu", x->sfu);
  add_d (b, "tensor", x->tensor);
  add_d (b, "shared", x->shared);
  add_d (b, "l1", x->l1);
  add_d (b, "l2", x->l2);
  add_d (b, "dram", x->dram);
  json_builder_end_object (b);
  json_builder_set_member_name (b, "rates");
  json_builder_begin_object (b);
  add_d (b, "l1_bytes_per_clk_per_sm", x->l1_bytes_per_clk);
  add_d (b, "l2_bytes_per_clk", x->l2_bytes_per_clk);
  add_d (b, "dram_bytes_per_clk", x->dram_bytes_per_clk);
  json_builder_end_object (b);
  json_builder_set_member_name (b, "counts");
  json_builder_begin_object (b);
  add_i (b, "warp_insts_issued_min", x->warp_insts_issued_min);
  add_i (b, "tb_warp_insts_max", x->tb_warp_insts_max);
  add_i (b, "warp_warp_insts_max", x->warp_warp_insts_max);
  add_i (b, "fp32_thread_ops_min", x->fp32_thread_ops_min);
  add_i (b, "fp64_thread_ops_min", x->fp64_thread_ops_min);
  add_i (b, "sfu_thread_ops_min", x->sfu_thread_ops_min);
  add_i (b, "tensor_thread_ops_min", x->tensor_thread_ops_min);
  add_d (b, "shared_wavefronts_min", x->shared_wavefronts_min);
  add_d (b, "l1_bytes_min", x->l1_bytes_min);
  add_d (b, "l1_wavefronts_min", x->l1_wavefronts_min);
  add_d (b, "l2_bytes_min", x->l2_bytes_min);
  add_i (b, "dram_bytes_min", x->dram_bytes_min);
  json_builder_end_object (b);
  json_builder_end_object (b);
  return json_builder_get_root (b);
}
