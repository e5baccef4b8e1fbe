/* ws-trace-writer.c: records a hardware-independent trace (format in
 * docs/trace-format.md).
 *
 * Worker threads append records to per-warp byte buffers of their own CTA
 * (no locks, no allocation in the common case).  A finished CTA becomes a
 * raw TB block; blocks are put in CTA order under the writer's lock (blocks
 * that finish early wait in a pending table until their predecessors
 * arrive) and packed into chunks of consecutive TBs up to chunk_bytes of
 * stream data.  The thread that closes a chunk compresses it outside the
 * lock and chunks are written in order.  Chunk boundaries depend only on the
 * blocks' sizes in CTA order, so the file is the same whatever the thread
 * count or scheduling. */
#define G_LOG_DOMAIN "ws-trace"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <zstd.h>

#include "trace/ws-trace-writer.h"
#include "trace/ws-trace-format.h"
#include "ptx/ws-ptx.h"

/* WsTraceWarpBuf is in the header (for the inline fast path); the CTA
 * starts with the WsTraceCtaHead the header describes. */
struct _WsTraceCta {
  WsTraceWarpBuf *warps; /* must stay first: WsTraceCtaHead */
  WsTraceWriter *writer;
  uint64_t cta_linear;
  uint32_t n_warps;
  uint32_t warps_alloc;
  const uint8_t *access_sizes; /* per static instruction, of the launch's kernel */
  uint32_t n_insts;
  uint64_t global_requests;
  uint64_t local_requests;
  uint64_t shared_accesses;
  uint64_t barriers;
  uint64_t mem_insts;
  /* Reused between CTAs (the CTA object is pooled). */
  uint8_t *raw;
  size_t raw_cap;
};

G_STATIC_ASSERT (G_STRUCT_OFFSET (struct _WsTraceCta, warps) == 0);
G_STATIC_ASSERT (WS_TRACE_BASE_TABLE == G_N_ELEMENTS (((WsTraceWarpBuf *) 0)->base_table));

typedef struct {
  char *name;
  uint32_t ptx_index;
  guint n_insts;
  WsTraceStaticInst *insts;
  uint8_t *access_sizes;
  uint32_t regs, static_shared, local_bytes;
  gboolean from_ptxas;
} WriterKernel;

typedef struct {
  uint32_t kernel;
  uint32_t grid[3], block[3];
  uint32_t dynamic_shared;
  uint32_t warps_per_tb;
  uint32_t flags;
  uint64_t first_tb, n_tbs;
  uint64_t thread_insts, warp_insts, global_req, local_req, shared_acc, barriers, mem_insts;
  double cov_thread, cov_warp;
  uint64_t stream_bytes;
} WriterLaunch;

typedef struct {
  uint64_t thread_insts, warp_insts, global_req, local_req, shared_acc, barriers, mem_insts;
  uint32_t n_warps;
  uint32_t flags; /* bit 0: recorded */
} WriterTb;

typedef struct {
  uint64_t offset;    /* of the chunk holding the TB */
  uint32_t size;      /* chunk stored size */
  uint32_t raw_size;  /* chunk decoded size */
  uint64_t checksum;  /* of the stored chunk */
  uint32_t tb_offset; /* TB block inside the decoded chunk */
  uint32_t tb_size;
} WriterIndex;

typedef struct {
  uint8_t *data;
  size_t len;
} PendingRaw;

/* A closed chunk: consecutive TBs [first, first + n) of the current launch. */
typedef struct {
  uint64_t seq;
  uint64_t first, n;
  uint8_t *raw;
  size_t raw_len;
  uint8_t *z;
  size_t zlen;
  uint64_t checksum;
  GError *error;
} Chunk;

struct _WsTraceWriter {
  char *path;
  FILE *fp;
  uint64_t offset;
  int level;
  GMutex lock;
  GError *error; /* first failure; sticky */

  GPtrArray *ptx_texts;      /* char*, deduplicated */
  GHashTable *ptx_lookup;    /* text -> index + 1 */
  GPtrArray *kernels;        /* WriterKernel* */
  GHashTable *kernel_lookup; /* name -> index + 1 */
  GArray *launches;          /* WriterLaunch */
  GArray *tbs;               /* WriterTb, all launches */
  GArray *index;             /* WriterIndex, all launches */

  gboolean in_launch;
  WriterLaunch cur;
  uint64_t next_cta;   /* next TB to append to the open chunk */
  GHashTable *pending; /* cta_linear -> PendingRaw*, finished early */
  size_t chunk_bytes;  /* close a chunk at this much stream data (0: one TB per chunk) */
  GByteArray *open;    /* the open chunk's decoded bytes */
  uint64_t open_first; /* its first TB */
  uint64_t next_seq;   /* sequence number of the next chunk to close */
  uint64_t write_seq;  /* next chunk to write */
  GHashTable *done;    /* seq -> Chunk*, compressed, waiting for predecessors */
  GPtrArray *free_ctas;
  uint64_t total_warp_insts, total_thread_insts;
};

static void
cctx_free (gpointer cctx)
{
  ZSTD_freeCCtx (cctx);
}

/* One compression context per worker thread, freed when the thread exits. */
static GPrivate cctx_key = G_PRIVATE_INIT (cctx_free);

static void
writer_fail (WsTraceWriter *w, GError *error)
{
  if (w->error == NULL)
    w->error = error;
  else
    g_error_free (error);
}

static void
writer_kernel_free (gpointer p)
{
  WriterKernel *k = p;
  g_free (k->name);
  g_free (k->insts);
  g_free (k->access_sizes);
  g_free (k);
}

static void
pending_free (gpointer p)
{
  PendingRaw *c = p;
  g_free (c->data);
  g_free (c);
}

static void
chunk_free (gpointer p)
{
  Chunk *c = p;
  g_free (c->raw);
  g_free (c->z);
  if (c->error)
    g_error_free (c->error);
  g_free (c);
}

static void
cta_free (gpointer p)
{
  WsTraceCta *cta = p;
  for (guint i = 0; i < cta->warps_alloc; i++)
    g_free (cta->warps[i].data);
  g_free (cta->warps);
  g_free (cta->raw);
  g_free (cta);
}

static gboolean
write_bytes (WsTraceWriter *w, const void *data, size_t len)
{
  if (w->error)
    return FALSE;
  if (len && fwrite (data, 1, len, w->fp) != len)
    {
      int err = errno;
      writer_fail (w, g_error_new (WS_ERROR, WS_ERROR_IO,
                                   "Cannot write trace '%s' at offset %" G_GUINT64_FORMAT ": %s "
                                   "(check free disk space)",
                                   w->path, w->offset, g_strerror (err)));
      return FALSE;
    }
  w->offset += len;
  return TRUE;
}

WsTraceWriter *
ws_trace_writer_new (const char *path, GError **error)
{
  g_return_val_if_fail (path != NULL, NULL);

  FILE *fp = fopen (path, "wb");
  if (fp == NULL)
    {
      int err = errno;
      g_set_error (error, WS_ERROR, WS_ERROR_IO, "Cannot create trace '%s': %s", path, g_strerror (err));
      return NULL;
    }
  WsTraceWriter *w = g_new0 (WsTraceWriter, 1);
  w->path = g_strdup (path);
  w->fp = fp;
  setvbuf (fp, NULL, _IOFBF, 1 << 20);
  w->level = -2; /* a fast level: trace writing is on the emulator's critical path, and
                   * streams compress well even so (see docs/trace-format.md) */
  g_mutex_init (&w->lock);
  w->ptx_texts = g_ptr_array_new_with_free_func (g_free);
  w->ptx_lookup = g_hash_table_new (g_str_hash, g_str_equal);
  w->kernels = g_ptr_array_new_with_free_func (writer_kernel_free);
  w->kernel_lookup = g_hash_table_new (g_str_hash, g_str_equal);
  w->launches = g_array_new (FALSE, TRUE, sizeof (WriterLaunch));
  w->tbs = g_array_new (FALSE, TRUE, sizeof (WriterTb));
  w->index = g_array_new (FALSE, TRUE, sizeof (WriterIndex));
  w->pending = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, pending_free);
  w->done = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, chunk_free);
  w->open = g_byte_array_new ();
  w->chunk_bytes = WS_TRACE_DEFAULT_CHUNK_BYTES;
  w->free_ctas = g_ptr_array_new_with_free_func (cta_free);

  uint8_t header[WS_TRACE_HEADER_SIZE] = { 0 };
  memcpy (header, WS_TRACE_MAGIC, WS_TRACE_MAGIC_LEN);
  ws_trace_put_u32 (header + 8, WS_TRACE_VERSION);
  ws_trace_put_u32 (header + 12, 0);
  write_bytes (w, header, sizeof header);
  return w;
}

void
ws_trace_writer_set_chunk_bytes (WsTraceWriter *writer, gsize bytes)
{
  g_return_if_fail (writer != NULL);
  g_return_if_fail (!writer->in_launch);
  writer->chunk_bytes = MIN (bytes, (gsize) 64 << 20);
}

void
ws_trace_writer_set_level (WsTraceWriter *writer, int level)
{
  g_return_if_fail (writer != NULL);
  writer->level = CLAMP (level, ZSTD_minCLevel (), ZSTD_maxCLevel ());
}

uint32_t
ws_trace_writer_add_kernel (WsTraceWriter *w, const WsTraceKernelDesc *desc)
{
  g_return_val_if_fail (w != NULL && desc != NULL && desc->name != NULL, 0);
  g_return_val_if_fail (desc->n_insts == 0 || desc->insts != NULL, 0);

  g_mutex_lock (&w->lock);
  gpointer found = g_hash_table_lookup (w->kernel_lookup, desc->name);
  if (found)
    {
      g_mutex_unlock (&w->lock);
      return GPOINTER_TO_UINT (found) - 1;
    }
  WriterKernel *k = g_new0 (WriterKernel, 1);
  k->name = g_strdup (desc->name);
  k->ptx_index = UINT32_MAX;
  if (desc->ptx)
    {
      gpointer pi = g_hash_table_lookup (w->ptx_lookup, desc->ptx);
      if (pi == NULL)
        {
          char *copy = g_strdup (desc->ptx);
          g_ptr_array_add (w->ptx_texts, copy);
          pi = GUINT_TO_POINTER (w->ptx_texts->len);
          g_hash_table_insert (w->ptx_lookup, copy, pi);
        }
      k->ptx_index = GPOINTER_TO_UINT (pi) - 1;
    }
  k->n_insts = desc->n_insts;
  k->insts = g_memdup2 (desc->insts, sizeof (WsTraceStaticInst) * desc->n_insts);
  k->access_sizes = g_new0 (uint8_t, MAX (desc->n_insts, 1));
  for (guint i = 0; i < desc->n_insts; i++)
    k->access_sizes[i] = desc->insts[i].access_size;
  k->regs = desc->regs_per_thread;
  k->static_shared = desc->static_shared_bytes;
  k->local_bytes = desc->local_bytes;
  k->from_ptxas = desc->resources_from_ptxas;
  g_ptr_array_add (w->kernels, k);
  g_hash_table_insert (w->kernel_lookup, k->name, GUINT_TO_POINTER (w->kernels->len));
  uint32_t index = w->kernels->len - 1;
  g_mutex_unlock (&w->lock);
  return index;
}

void
ws_trace_writer_begin_launch (WsTraceWriter *w, uint32_t kernel, const uint32_t grid[3], const uint32_t block[3],
                              uint32_t dynamic_shared_bytes)
{
  g_return_if_fail (w != NULL && grid != NULL && block != NULL);
  g_return_if_fail (kernel < w->kernels->len);
  g_return_if_fail (!w->in_launch);

  memset (&w->cur, 0, sizeof w->cur);
  w->cur.kernel = kernel;
  memcpy (w->cur.grid, grid, sizeof w->cur.grid);
  memcpy (w->cur.block, block, sizeof w->cur.block);
  w->cur.dynamic_shared = dynamic_shared_bytes;
  uint64_t threads = (uint64_t) block[0] * block[1] * block[2];
  w->cur.warps_per_tb = (uint32_t) ((threads + 31) / 32);
  w->cur.first_tb = w->tbs->len;
  w->cur.n_tbs = (uint64_t) grid[0] * grid[1] * grid[2];
  g_array_set_size (w->tbs, w->tbs->len + w->cur.n_tbs);
  g_array_set_size (w->index, w->index->len + w->cur.n_tbs);
  w->next_cta = 0;
  w->open_first = 0;
  g_byte_array_set_size (w->open, 0);
  w->in_launch = TRUE;
}

WsTraceCta *
ws_trace_cta_begin (WsTraceWriter *w, uint64_t cta_linear, uint32_t n_warps)
{
  g_return_val_if_fail (w != NULL && w->in_launch, NULL);

  g_mutex_lock (&w->lock);
  WsTraceCta *cta = w->free_ctas->len ? g_ptr_array_steal_index_fast (w->free_ctas, w->free_ctas->len - 1) : NULL;
  WriterKernel *k = g_ptr_array_index (w->kernels, w->cur.kernel);
  g_mutex_unlock (&w->lock);

  if (cta == NULL)
    cta = g_new0 (WsTraceCta, 1);
  if (cta->warps_alloc < n_warps)
    {
      cta->warps = g_renew (WsTraceWarpBuf, cta->warps, n_warps);
      memset (cta->warps + cta->warps_alloc, 0, sizeof (WsTraceWarpBuf) * (n_warps - cta->warps_alloc));
      cta->warps_alloc = n_warps;
    }
  cta->writer = w;
  cta->cta_linear = cta_linear;
  cta->n_warps = n_warps;
  cta->access_sizes = k->access_sizes;
  cta->n_insts = k->n_insts;
  cta->global_requests = cta->local_requests = cta->shared_accesses = 0;
  cta->barriers = cta->mem_insts = 0;
  for (uint32_t i = 0; i < n_warps; i++)
    {
      WsTraceWarpBuf *wb = &cta->warps[i];
      wb->len = 0;
      wb->last_id = UINT32_MAX;
      wb->last_mask = WS_TRACE_INITIAL_MASK;
      wb->last_popcount = 32;
      wb->n_records = 0;
      wb->thread_insts = 0;
      wb->base_valid = 0; /* cheaper than clearing the table for every CTA */
    }
  return cta;
}

/* Slow path of the append functions: amortised doubling. */
static __attribute__ ((noinline)) void
warp_grow (WsTraceWarpBuf *wb, size_t need)
{
  size_t cap = wb->cap ? wb->cap : 1024;
  while (cap - wb->len < need)
    cap *= 2;
  wb->data = g_realloc (wb->data, cap);
  wb->cap = cap;
}

/* Record header (kind, id delta, optional mask); returns the write cursor. */
static inline uint8_t *
put_header (WsTraceWarpBuf *wb, uint8_t *p, uint32_t kind, uint32_t static_id, uint32_t mask)
{
  uint32_t code = ws_trace_zigzag32 ((int32_t) (static_id - wb->last_id - 1u));
  uint8_t tag = (uint8_t) (kind << 6);
  if (mask != wb->last_mask)
    tag |= WS_TRACE_REC_MASK_BIT;
  if (G_LIKELY (code < WS_TRACE_REC_ID_ESCAPE))
    {
      *p++ = tag | (uint8_t) code;
    }
  else
    {
      *p++ = tag | WS_TRACE_REC_ID_ESCAPE;
      p = ws_trace_put_varint (p, code);
    }
  if (mask != wb->last_mask)
    {
      ws_trace_put_u32 (p, mask);
      p += 4;
      wb->last_mask = mask;
      wb->last_popcount = (uint32_t) __builtin_popcount (mask);
    }
  wb->last_id = static_id;
  wb->n_records++;
  wb->thread_insts += wb->last_popcount;
  return p;
}

void
ws_trace_cta_inst (WsTraceCta *cta, uint32_t warp, uint32_t static_id, uint32_t active_mask)
{
  WsTraceWarpBuf *wb = &cta->warps[warp];
  if (G_UNLIKELY (wb->cap - wb->len < 16))
    warp_grow (wb, 16);
  uint8_t *p = put_header (wb, wb->data + wb->len, WS_TRACE_KIND_INST, static_id, active_mask);
  wb->len = (size_t) (p - wb->data);
}

void
ws_trace_cta_barrier_mask (WsTraceCta *cta, uint32_t warp, uint32_t static_id, uint32_t active_mask)
{
  WsTraceWarpBuf *wb = &cta->warps[warp];
  if (G_UNLIKELY (wb->cap - wb->len < 16))
    warp_grow (wb, 16);
  uint8_t *p = put_header (wb, wb->data + wb->len, WS_TRACE_KIND_BARRIER, static_id, active_mask);
  wb->len = (size_t) (p - wb->data);
  cta->barriers++;
}

void
ws_trace_cta_barrier (WsTraceCta *cta, uint32_t warp, uint32_t static_id)
{
  ws_trace_cta_barrier_mask (cta, warp, static_id, cta->warps[warp].last_mask);
}

static inline size_t
varint_len (uint64_t v)
{
  return 1 + (size_t) (63 - __builtin_clzll (v | 1)) / 7;
}

/* Distinct sectors of @n lane addresses in lane order (@a may be reordered). */
static uint32_t
count_sectors_dense (uint64_t *a, guint n, uint32_t size)
{
  gboolean sorted = TRUE;
  if (size == 0)
    size = 1;
  for (guint i = 1; i < n; i++)
    sorted &= a[i] >= a[i - 1];
  if (!sorted && size <= 32)
    {
      /* Scattered lanes: a small open-addressing set of sector numbers (at
     * most 2 sectors per lane, so 64 entries in 128 slots) instead of a
     * sort; only the occupancy bytes need clearing. */
      uint64_t set[128];
      uint8_t used[128];
      memset (used, 0, sizeof used);
      uint32_t count = 0;
      for (guint i = 0; i < n; i++)
        {
          for (uint64_t sec = a[i] >> 5, hi = (a[i] + size - 1) >> 5; sec <= hi; sec++)
            {
              guint h = (guint) ((sec * 0x9e3779b97f4a7c15ull) >> 57);
              while (used[h] && set[h] != sec)
                h = (h + 1) & 127;
              if (!used[h])
                {
                  used[h] = 1;
                  set[h] = sec;
                  count++;
                }
            }
        }
      return count;
    }
  if (!sorted)
    {
      /* insertion sort: 32 elements at most, often nearly ordered */
      for (guint i = 1; i < n; i++)
        {
          uint64_t v = a[i];
          guint j = i;
          while (j > 0 && a[j - 1] > v)
            {
              a[j] = a[j - 1];
              j--;
            }
          a[j] = v;
        }
    }
  uint32_t count = 0;
  uint64_t last = 0; /* highest sector counted so far */
  for (guint i = 0; i < n; i++)
    {
      uint64_t lo = a[i] >> 5, hi = (a[i] + size - 1) >> 5;
      if (i > 0 && lo <= last)
        lo = last + 1;
      if (hi >= lo)
        {
          count += (uint32_t) (hi - lo + 1);
          last = hi;
        }
    }
  return count;
}

/* Sweep over lane accesses sorted by address: each sector counted once. */
uint32_t
ws_trace_count_sectors (const uint64_t *addrs, uint32_t mask, uint32_t size)
{
  uint64_t a[32];
  guint n = 0;
  for (uint32_t m = mask; m; m &= m - 1)
    a[n++] = addrs[__builtin_ctz (m)];
  return count_sectors_dense (a, n, size);
}

/* Sectors of a regular access (addr(lane) = base + lane * stride): when the
 * gap between neighbouring lanes is under a sector the union is one run;
 * when it is a sector or more no two lanes share one. */
static inline uint32_t
regular_sectors (const uint64_t *addrs, uint32_t mask, int64_t stride, uint32_t size)
{
  uint64_t mag = stride < 0 ? (uint64_t) -stride : (uint64_t) stride;
  uint32_t f = (uint32_t) __builtin_ctz (mask), l = 31u - (uint32_t) __builtin_clz (mask);
  if (mag < (uint64_t) size + 32)
    {
      /* Inactive lanes in the middle may leave whole sectors untouched. */
      if (mask != ((0xffffffffu >> (31 - l)) >> f << f))
        return ws_trace_count_sectors (addrs, mask, size);
      uint64_t lo_a = stride < 0 ? addrs[l] : addrs[f];
      uint64_t hi_a = stride < 0 ? addrs[f] : addrs[l];
      return (uint32_t) (((hi_a + size - 1) >> 5) - (lo_a >> 5) + 1);
    }
  uint32_t count = 0;
  for (uint32_t m = mask; m; m &= m - 1)
    {
      uint64_t a = addrs[__builtin_ctz (m)];
      count += (uint32_t) (((a + size - 1) >> 5) - (a >> 5) + 1);
    }
  return count;
}

void
ws_trace_cta_mem (WsTraceCta *cta, uint32_t warp, uint32_t static_id, uint32_t active_mask, uint8_t space,
                  const uint64_t *addrs)
{
  WsTraceWarpBuf *wb = &cta->warps[warp];
  /* header (1 + 5 + 4) + mode + 32 varints of at most 10 bytes */
  if (G_UNLIKELY (wb->cap - wb->len < 352))
    warp_grow (wb, 352);
  uint8_t *p = put_header (wb, wb->data + wb->len, WS_TRACE_KIND_MEM, static_id, active_mask);
  uint8_t *mode = p++;
  uint32_t mask = active_mask;

  if (mask == 0)
    {
      /* Issued with no active lane (possible for a predicated-off access):
     * counted as an instruction of its space, touching no sector. */
      *mode = (uint8_t) ((WS_TRACE_ADDR_STRIDE << 4) | (space & 0xf));
      wb->len = (size_t) (p - wb->data);
      if (space == WS_SPACE_GLOBAL || space == WS_SPACE_LOCAL)
        cta->mem_insts++;
      else if (space == WS_SPACE_SHARED)
        cta->shared_accesses++;
      return;
    }

  uint32_t si = static_id & (WS_TRACE_BASE_TABLE - 1);
  uint64_t *slot = &wb->base_table[si];
  if (!(wb->base_valid >> si & 1))
    {
      *slot = 0; /* the decoder's table starts at zero */
      wb->base_valid |= (uint64_t) 1 << si;
    }
  uint32_t f = (uint32_t) __builtin_ctz (mask);
  uint32_t rest = mask & (mask - 1);
  int64_t stride = 0;
  gboolean regular = TRUE;
  if (rest)
    {
      uint32_t s = (uint32_t) __builtin_ctz (rest);
      int64_t diff = (int64_t) (addrs[s] - addrs[f]);
      int64_t k = (int64_t) (s - f);
      if (diff % k != 0)
        {
          regular = FALSE;
        }
      else
        {
          stride = diff / k;
          uint64_t a0 = addrs[f] - (uint64_t) f * (uint64_t) stride;
          if (mask == 0xffffffffu)
            {
              /* four independent chains: the check is on every memory record */
              uint64_t s = (uint64_t) stride, b0 = 0, b1 = 0, b2 = 0, b3 = 0;
              uint64_t e0 = a0, e1 = a0 + s, e2 = a0 + 2 * s, e3 = a0 + 3 * s;
              for (uint32_t l = 0; l < 32; l += 4)
                {
                  b0 |= addrs[l] ^ e0;
                  b1 |= addrs[l + 1] ^ e1;
                  b2 |= addrs[l + 2] ^ e2;
                  b3 |= addrs[l + 3] ^ e3;
                  e0 += 4 * s;
                  e1 += 4 * s;
                  e2 += 4 * s;
                  e3 += 4 * s;
                }
              regular = (b0 | b1 | b2 | b3) == 0;
            }
          else
            {
              for (uint32_t m = rest & (rest - 1); m; m &= m - 1)
                {
                  uint32_t l = (uint32_t) __builtin_ctz (m);
                  if (addrs[l] != a0 + (uint64_t) l * (uint64_t) stride)
                    {
                      regular = FALSE;
                      break;
                    }
                }
            }
        }
    }

  uint32_t size = static_id < cta->n_insts ? cta->access_sizes[static_id] : 0;
  if (size == 0)
    size = 1;
  uint32_t sectors;
  if (regular)
    {
      uint64_t base = addrs[f] - (uint64_t) f * (uint64_t) stride;
      *mode = (uint8_t) ((WS_TRACE_ADDR_STRIDE << 4) | (space & 0xf));
      p = ws_trace_put_varint (p, ws_trace_zigzag64 ((int64_t) (base - *slot)));
      p = ws_trace_put_varint (p, ws_trace_zigzag64 (stride));
      *slot = base;
      sectors = (space == WS_SPACE_GLOBAL || space == WS_SPACE_LOCAL) ? regular_sectors (addrs, mask, stride, size) : 0;
    }
  else
    {
      /* Irregular: per-lane deltas (cheap when most neighbours are close) or
     * offsets from the lowest address bit-packed at a common width (cheap
     * for scattered gathers); whichever is shorter.  The active lanes'
     * addresses are gathered once into a dense array. */
      uint64_t v[32];
      uint32_t n = 0;
      for (uint32_t m = mask; m; m &= m - 1)
        v[n++] = addrs[__builtin_ctz (m)];
      uint64_t lo = v[0], hi = v[0];
      size_t lanes_cost = 0;
      for (uint32_t i = 1; i < n; i++)
        {
          lo = MIN (lo, v[i]);
          hi = MAX (hi, v[i]);
          lanes_cost += varint_len (ws_trace_zigzag64 ((int64_t) (v[i] - v[i - 1])));
        }
      uint64_t bits = 0;
      for (uint32_t i = 0; i < n; i++)
        bits |= v[i] - lo;
      uint32_t shift = bits ? (uint32_t) __builtin_ctzll (bits) : 0;
      uint64_t range = (hi - lo) >> shift;
      uint32_t width = range ? 64u - (uint32_t) __builtin_clzll (range) : 0;
      size_t packed_cost = 2 + ((size_t) n * width + 7) / 8;
      if (width <= WS_TRACE_PACK_MAX_WIDTH && packed_cost < lanes_cost)
        {
          *mode = (uint8_t) ((WS_TRACE_ADDR_PACKED << 4) | (space & 0xf));
          p = ws_trace_put_varint (p, ws_trace_zigzag64 ((int64_t) (lo - *slot)));
          *slot = lo;
          *p++ = (uint8_t) shift;
          *p++ = (uint8_t) width;
          uint64_t acc = 0;
          uint32_t nb = 0;
          for (uint32_t i = 0; i < n; i++)
            {
              acc |= ((v[i] - lo) >> shift) << nb;
              nb += width;
              while (nb >= 8)
                {
                  *p++ = (uint8_t) acc;
                  acc >>= 8;
                  nb -= 8;
                }
            }
          if (nb)
            *p++ = (uint8_t) acc;
        }
      else
        {
          *mode = (uint8_t) ((WS_TRACE_ADDR_LANES << 4) | (space & 0xf));
          p = ws_trace_put_varint (p, ws_trace_zigzag64 ((int64_t) (v[0] - *slot)));
          *slot = v[0];
          for (uint32_t i = 1; i < n; i++)
            p = ws_trace_put_varint (p, ws_trace_zigzag64 ((int64_t) (v[i] - v[i - 1])));
        }
      sectors = (space == WS_SPACE_GLOBAL || space == WS_SPACE_LOCAL) ? count_sectors_dense (v, n, size) : 0;
    }
  wb->len = (size_t) (p - wb->data);

  if (space == WS_SPACE_GLOBAL)
    {
      cta->global_requests += sectors;
      cta->mem_insts++;
    }
  else if (space == WS_SPACE_LOCAL)
    {
      cta->local_requests += sectors;
      cta->mem_insts++;
    }
  else if (space == WS_SPACE_SHARED)
    {
      cta->shared_accesses++;
    }
}

static ZSTD_CCtx *
thread_cctx (void)
{
  ZSTD_CCtx *cctx = g_private_get (&cctx_key);
  if (cctx == NULL)
    {
      cctx = ZSTD_createCCtx ();
      g_private_set (&cctx_key, cctx);
    }
  return cctx;
}

/* Outside the lock: compression is the expensive part. */
static void
chunk_compress (Chunk *c, int level)
{
  size_t bound = ZSTD_compressBound (c->raw_len);
  c->z = g_malloc (bound);
  c->zlen = ZSTD_compressCCtx (thread_cctx (), c->z, bound, c->raw, c->raw_len, level);
  if (ZSTD_isError (c->zlen) || c->raw_len > UINT32_MAX || c->zlen > UINT32_MAX)
    {
      c->error = g_error_new (WS_ERROR, WS_ERROR_FAILED,
                              "Cannot compress the trace chunk of thread blocks %" G_GUINT64_FORMAT
                              "..%" G_GUINT64_FORMAT " (%zu bytes): %s",
                              c->first, c->first + c->n - 1, c->raw_len,
                              ZSTD_isError (c->zlen) ? ZSTD_getErrorName (c->zlen) : "chunk larger than 4 GiB");
      c->zlen = 0;
      return;
    }
  c->checksum = ws_trace_fnv1a64 (c->z, c->zlen);
  g_clear_pointer (&c->raw, g_free);
}

/* Under the lock: writes the chunks that are next in order. */
static void
write_done_chunks (WsTraceWriter *w)
{
  for (;;)
    {
      uint64_t key = w->write_seq;
      Chunk *c = g_hash_table_lookup (w->done, &key);
      if (c == NULL)
        break;
      if (c->error)
        {
          writer_fail (w, g_steal_pointer (&c->error));
        }
      else
        {
          for (uint64_t i = 0; i < c->n; i++)
            {
              WriterIndex *ix = &g_array_index (w->index, WriterIndex, w->cur.first_tb + c->first + i);
              if (!(g_array_index (w->tbs, WriterTb, w->cur.first_tb + c->first + i).flags & 1))
                continue; /* a TB that never finished keeps its empty entry */
              ix->offset = w->offset;
              ix->size = (uint32_t) c->zlen;
              ix->raw_size = (uint32_t) c->raw_len;
              ix->checksum = c->checksum;
            }
          w->cur.stream_bytes += c->zlen;
          write_bytes (w, c->z, c->zlen);
        }
      g_hash_table_remove (w->done, &key);
      w->write_seq++;
    }
}

/* Under the lock: closes the open chunk; the caller compresses it. */
static Chunk *
close_open_chunk (WsTraceWriter *w)
{
  Chunk *c = g_new0 (Chunk, 1);
  c->seq = w->next_seq++;
  c->first = w->open_first;
  c->n = w->next_cta - w->open_first;
  c->raw_len = w->open->len;
  c->raw = g_byte_array_steal (w->open, NULL);
  w->open_first = w->next_cta;
  return c;
}

/* Under the lock: appends TB next_cta's block to the open chunk; returns
 * the chunk it closed, if any. */
static Chunk *
append_block (WsTraceWriter *w, const uint8_t *data, size_t len)
{
  WriterIndex *ix = &g_array_index (w->index, WriterIndex, w->cur.first_tb + w->next_cta);
  ix->tb_offset = w->open->len;
  ix->tb_size = (uint32_t) len;
  g_byte_array_append (w->open, data, (guint) len);
  w->next_cta++;
  if (w->open->len >= w->chunk_bytes || w->next_cta - w->open_first >= WS_TRACE_MAX_CHUNK_TBS
      || w->next_cta == w->cur.n_tbs || w->open->len >= ((size_t) 1 << 30))
    return close_open_chunk (w);
  return NULL;
}

/* Under the lock: appends every block that is next in order; closed chunks
 * are added to @closed. */
static void
drain_pending (WsTraceWriter *w, GPtrArray *closed)
{
  for (;;)
    {
      uint64_t key = w->next_cta;
      PendingRaw *r = g_hash_table_lookup (w->pending, &key);
      if (r == NULL)
        break;
      Chunk *c = append_block (w, r->data, r->len);
      if (c)
        g_ptr_array_add (closed, c);
      g_hash_table_remove (w->pending, &key);
    }
}

/* Compresses @closed (outside the lock), then writes what is in order. */
static void
finish_chunks (WsTraceWriter *w, GPtrArray *closed, gboolean locked)
{
  if (closed->len == 0)
    return;
  if (locked)
    g_mutex_unlock (&w->lock);
  for (guint i = 0; i < closed->len; i++)
    chunk_compress (g_ptr_array_index (closed, i), w->level);
  g_mutex_lock (&w->lock);
  for (guint i = 0; i < closed->len; i++)
    {
      Chunk *c = g_ptr_array_index (closed, i);
      uint64_t *key = g_new (uint64_t, 1);
      *key = c->seq;
      g_hash_table_insert (w->done, key, c);
    }
  g_ptr_array_set_size (closed, 0);
  write_done_chunks (w);
  if (!locked)
    g_mutex_unlock (&w->lock);
}

void
ws_trace_cta_end (WsTraceCta *cta)
{
  g_return_if_fail (cta != NULL);
  WsTraceWriter *w = cta->writer;

  /* TB block: varint n_warps; per warp varint n_records, varint bytes; streams. */
  size_t need = 10 + (size_t) cta->n_warps * 20;
  for (uint32_t i = 0; i < cta->n_warps; i++)
    need += cta->warps[i].len;
  if (cta->raw_cap < need)
    {
      cta->raw_cap = need + need / 2;
      cta->raw = g_realloc (cta->raw, cta->raw_cap);
    }
  uint8_t *p = ws_trace_put_varint (cta->raw, cta->n_warps);
  for (uint32_t i = 0; i < cta->n_warps; i++)
    {
      p = ws_trace_put_varint (p, cta->warps[i].n_records);
      p = ws_trace_put_varint (p, cta->warps[i].len);
    }
  for (uint32_t i = 0; i < cta->n_warps; i++)
    {
      if (cta->warps[i].len)
        memcpy (p, cta->warps[i].data, cta->warps[i].len);
      p += cta->warps[i].len;
    }
  size_t raw_len = (size_t) (p - cta->raw);

  WriterTb tb = { 0 };
  for (uint32_t i = 0; i < cta->n_warps; i++)
    {
      tb.warp_insts += cta->warps[i].n_records;
      tb.thread_insts += cta->warps[i].thread_insts;
    }
  tb.global_req = cta->global_requests;
  tb.local_req = cta->local_requests;
  tb.shared_acc = cta->shared_accesses;
  tb.barriers = cta->barriers;
  tb.mem_insts = cta->mem_insts;
  tb.n_warps = cta->n_warps;
  tb.flags = 1;

  g_autoptr (GPtrArray) closed = g_ptr_array_new (); /* chunks move on to `done` */
  g_mutex_lock (&w->lock);
  if (!w->in_launch || cta->cta_linear >= w->cur.n_tbs || cta->cta_linear < w->next_cta
      || (g_array_index (w->tbs, WriterTb, w->cur.first_tb + cta->cta_linear).flags & 1))
    {
      writer_fail (w, g_error_new (WS_ERROR, WS_ERROR_INVALID,
                                   "Thread block %" G_GUINT64_FORMAT " recorded twice or outside its launch "
                                   "(launch %u has %" G_GUINT64_FORMAT " thread blocks)",
                                   cta->cta_linear, w->launches->len, w->cur.n_tbs));
    }
  else if (raw_len > UINT32_MAX)
    {
      writer_fail (w, g_error_new (WS_ERROR, WS_ERROR_FAILED,
                                   "Thread block %" G_GUINT64_FORMAT " recorded more than 4 GiB of trace",
                                   cta->cta_linear));
    }
  else
    {
      g_array_index (w->tbs, WriterTb, w->cur.first_tb + cta->cta_linear) = tb;
      w->total_warp_insts += tb.warp_insts;
      w->total_thread_insts += tb.thread_insts;
      if (cta->cta_linear == w->next_cta)
        {
          Chunk *c = append_block (w, cta->raw, raw_len);
          if (c)
            g_ptr_array_add (closed, c);
          drain_pending (w, closed);
        }
      else
        {
          PendingRaw *r = g_new (PendingRaw, 1);
          r->data = g_memdup2 (cta->raw, raw_len);
          r->len = raw_len;
          uint64_t *key = g_new (uint64_t, 1);
          *key = cta->cta_linear;
          g_hash_table_insert (w->pending, key, r);
        }
    }
  /* Keep a few pooled CTA buffers (their capacity is the point); free the rest. */
  if (w->free_ctas->len < 64)
    g_ptr_array_add (w->free_ctas, cta);
  else
    cta_free (cta);
  g_mutex_unlock (&w->lock);
  finish_chunks (w, closed, FALSE);
}

static double
tb_cov (const WriterTb *tbs, uint64_t n, gboolean warp)
{
  if (n == 0)
    return 0.0;
  g_autofree double *v = g_new (double, n);
  for (uint64_t i = 0; i < n; i++)
    v[i] = (double) (warp ? tbs[i].warp_insts : tbs[i].thread_insts);
  return ws_trace_cov (v, n);
}

double
ws_trace_cov (const double *values, gsize n)
{
  if (n == 0)
    return 0.0;
  double sum = 0;
  for (gsize i = 0; i < n; i++)
    sum += values[i];
  double mean = sum / (double) n;
  if (mean == 0.0)
    return 0.0;
  double ss = 0;
  for (gsize i = 0; i < n; i++)
    ss += (values[i] - mean) * (values[i] - mean);
  return sqrt (ss / (double) n) / mean;
}

void
ws_trace_writer_mark_launch_faulted (WsTraceWriter *w)
{
  g_return_if_fail (w != NULL);
  g_return_if_fail (w->in_launch);
  g_mutex_lock (&w->lock);
  w->cur.flags |= 1;
  g_mutex_unlock (&w->lock);
}

gboolean
ws_trace_writer_end_launch (WsTraceWriter *w, GError **error)
{
  g_return_val_if_fail (w != NULL, FALSE);
  g_return_val_if_fail (w->in_launch, FALSE);

  g_mutex_lock (&w->lock);
  uint64_t missing = 0;
  /* CTAs that never ended (a faulted launch) get empty index entries so the
   * file stays readable; the launch is flagged incomplete.  All cta_end
   * calls have returned, so every closed chunk is written or in `done`. */
  g_autoptr (GPtrArray) closed = g_ptr_array_new (); /* chunks move on to `done` */
  while (w->next_cta < w->cur.n_tbs)
    {
      drain_pending (w, closed);
      if (w->next_cta >= w->cur.n_tbs)
        break;
      WriterIndex *ix = &g_array_index (w->index, WriterIndex, w->cur.first_tb + w->next_cta);
      memset (ix, 0, sizeof *ix);
      missing++;
      w->next_cta++;
    }
  if (w->open->len > 0)
    g_ptr_array_add (closed, close_open_chunk (w));
  finish_chunks (w, closed, TRUE);
  g_hash_table_remove_all (w->pending);
  g_hash_table_remove_all (w->done);

  const WriterTb *tbs = &g_array_index (w->tbs, WriterTb, w->cur.first_tb);
  for (uint64_t i = 0; i < w->cur.n_tbs; i++)
    {
      w->cur.thread_insts += tbs[i].thread_insts;
      w->cur.warp_insts += tbs[i].warp_insts;
      w->cur.global_req += tbs[i].global_req;
      w->cur.local_req += tbs[i].local_req;
      w->cur.shared_acc += tbs[i].shared_acc;
      w->cur.barriers += tbs[i].barriers;
      w->cur.mem_insts += tbs[i].mem_insts;
    }
  w->cur.cov_thread = tb_cov (tbs, w->cur.n_tbs, FALSE);
  w->cur.cov_warp = tb_cov (tbs, w->cur.n_tbs, TRUE);
  if (missing)
    w->cur.flags |= 1;
  g_array_append_val (w->launches, w->cur);
  w->in_launch = FALSE;
  WriterKernel *k = g_ptr_array_index (w->kernels, w->cur.kernel);

  gboolean ok = TRUE;
  if (w->error)
    {
      g_propagate_error (error, g_error_copy (w->error));
      ok = FALSE;
    }
  else if (missing)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID,
                   "Launch %u of kernel %s: %" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT
                   " thread blocks were not recorded (the launch did not finish); the trace marks it incomplete",
                   w->launches->len - 1, k->name, missing, w->cur.n_tbs);
      ok = FALSE;
    }
  g_mutex_unlock (&w->lock);
  return ok;
}

void
ws_trace_writer_get_stats (WsTraceWriter *w, WsTraceWriterStats *stats)
{
  g_return_if_fail (w != NULL && stats != NULL);
  g_mutex_lock (&w->lock);
  stats->launches = w->launches->len;
  stats->thread_blocks = w->tbs->len;
  stats->warp_instructions = w->total_warp_insts;
  stats->thread_instructions = w->total_thread_insts;
  stats->bytes = w->offset;
  g_mutex_unlock (&w->lock);
}

/* ---- metadata sections ------------------------------------------------ */

static void
write_section (WsTraceWriter *w, uint32_t tag, const uint8_t *raw, size_t raw_len, uint64_t *offset_out)
{
  *offset_out = w->offset;
  size_t bound = ZSTD_compressBound (raw_len);
  g_autofree uint8_t *z = g_malloc (bound);
  size_t zlen = ZSTD_compress (z, bound, raw, raw_len, 3);
  if (ZSTD_isError (zlen))
    {
      writer_fail (
        w, g_error_new (WS_ERROR, WS_ERROR_FAILED, "Cannot compress trace section: %s", ZSTD_getErrorName (zlen)));
      return;
    }
  uint8_t h[WS_TRACE_SECTION_HEADER_SIZE] = { 0 };
  ws_trace_put_u32 (h, tag);
  ws_trace_put_u32 (h + 4, WS_TRACE_ENC_ZSTD);
  ws_trace_put_u64 (h + 8, raw_len);
  ws_trace_put_u64 (h + 16, zlen);
  ws_trace_put_u64 (h + 24, ws_trace_fnv1a64 (z, zlen));
  write_bytes (w, h, sizeof h);
  write_bytes (w, z, zlen);
}

static GByteArray *
build_kernels (WsTraceWriter *w)
{
  GByteArray *b = g_byte_array_new ();
  uint8_t tmp[32];
  ws_trace_put_u32 (tmp, w->ptx_texts->len);
  g_byte_array_append (b, tmp, 4);
  for (guint i = 0; i < w->ptx_texts->len; i++)
    {
      const char *t = g_ptr_array_index (w->ptx_texts, i);
      size_t len = strlen (t);
      ws_trace_put_u64 (tmp, len);
      g_byte_array_append (b, tmp, 8);
      g_byte_array_append (b, (const guint8 *) t, (guint) len);
    }
  ws_trace_put_u32 (tmp, w->kernels->len);
  g_byte_array_append (b, tmp, 4);
  for (guint i = 0; i < w->kernels->len; i++)
    {
      WriterKernel *k = g_ptr_array_index (w->kernels, i);
      size_t len = strlen (k->name);
      ws_trace_put_u32 (tmp, (uint32_t) len);
      g_byte_array_append (b, tmp, 4);
      g_byte_array_append (b, (const guint8 *) k->name, (guint) len);
      ws_trace_put_u32 (tmp, k->ptx_index);
      ws_trace_put_u32 (tmp + 4, k->regs);
      ws_trace_put_u32 (tmp + 8, k->static_shared);
      ws_trace_put_u32 (tmp + 12, k->local_bytes);
      ws_trace_put_u32 (tmp + 16, k->from_ptxas ? 1 : 0);
      ws_trace_put_u32 (tmp + 20, k->n_insts);
      g_byte_array_append (b, tmp, 24);
      for (guint j = 0; j < k->n_insts; j++)
        {
          const WsTraceStaticInst *s = &k->insts[j];
          uint8_t r[WS_TRACE_STATIC_INST_SIZE] = { 0 };
          ws_trace_put_u32 (r + WS_TRACE_SI_PTX_LINE, s->ptx_line);
          ws_trace_put_u32 (r + WS_TRACE_SI_SRC_LINE, s->src_line);
          r[WS_TRACE_SI_OP] = s->op;
          r[WS_TRACE_SI_OPCLASS] = s->opclass;
          r[WS_TRACE_SI_SPACE] = s->space;
          r[WS_TRACE_SI_ACCESS_SIZE] = s->access_size;
          r[WS_TRACE_SI_N_DST] = s->n_dst;
          r[WS_TRACE_SI_N_SRC] = s->n_src;
          r[WS_TRACE_SI_COND_BRANCH] = s->is_conditional_branch;
          r[WS_TRACE_SI_BARRIER] = s->is_barrier;
          for (int d = 0; d < 2; d++)
            ws_trace_put_u16 (r + WS_TRACE_SI_DST + 2 * d, s->dst[d]);
          for (int d = 0; d < 4; d++)
            ws_trace_put_u16 (r + WS_TRACE_SI_SRC + 2 * d, s->src[d]);
          g_byte_array_append (b, r, sizeof r);
        }
    }
  return b;
}

static GByteArray *
build_launches (WsTraceWriter *w)
{
  GByteArray *b = g_byte_array_new ();
  uint8_t tmp[8] = { 0 };
  ws_trace_put_u32 (tmp, w->launches->len);
  g_byte_array_append (b, tmp, 8);
  for (guint i = 0; i < w->launches->len; i++)
    {
      const WriterLaunch *l = &g_array_index (w->launches, WriterLaunch, i);
      uint8_t r[WS_TRACE_LAUNCH_SIZE] = { 0 };
      ws_trace_put_u32 (r + WS_TRACE_L_KERNEL, l->kernel);
      for (int d = 0; d < 3; d++)
        {
          ws_trace_put_u32 (r + WS_TRACE_L_GRID + 4 * d, l->grid[d]);
          ws_trace_put_u32 (r + WS_TRACE_L_BLOCK + 4 * d, l->block[d]);
        }
      ws_trace_put_u32 (r + WS_TRACE_L_DYN_SHARED, l->dynamic_shared);
      ws_trace_put_u32 (r + WS_TRACE_L_WARPS_PER_TB, l->warps_per_tb);
      ws_trace_put_u32 (r + WS_TRACE_L_FLAGS, l->flags);
      ws_trace_put_u64 (r + WS_TRACE_L_FIRST_TB, l->first_tb);
      ws_trace_put_u64 (r + WS_TRACE_L_N_TBS, l->n_tbs);
      ws_trace_put_u64 (r + WS_TRACE_L_THREAD_INSTS, l->thread_insts);
      ws_trace_put_u64 (r + WS_TRACE_L_WARP_INSTS, l->warp_insts);
      ws_trace_put_u64 (r + WS_TRACE_L_MEM_REQS, l->global_req + l->local_req);
      ws_trace_put_u64 (r + WS_TRACE_L_GLOBAL_REQS, l->global_req);
      ws_trace_put_u64 (r + WS_TRACE_L_LOCAL_REQS, l->local_req);
      ws_trace_put_u64 (r + WS_TRACE_L_SHARED, l->shared_acc);
      ws_trace_put_u64 (r + WS_TRACE_L_BARRIERS, l->barriers);
      ws_trace_put_u64 (r + WS_TRACE_L_MEM_INSTS, l->mem_insts);
      ws_trace_put_f64 (r + WS_TRACE_L_COV_THREAD, l->cov_thread);
      ws_trace_put_f64 (r + WS_TRACE_L_COV_WARP, l->cov_warp);
      ws_trace_put_u64 (r + WS_TRACE_L_STREAM_BYTES, l->stream_bytes);
      g_byte_array_append (b, r, sizeof r);
    }
  return b;
}

static GByteArray *
build_tbs (WsTraceWriter *w)
{
  GByteArray *b = g_byte_array_sized_new (8 + w->tbs->len * WS_TRACE_TB_SIZE);
  uint8_t tmp[8];
  ws_trace_put_u64 (tmp, w->tbs->len);
  g_byte_array_append (b, tmp, 8);
  for (guint i = 0; i < w->tbs->len; i++)
    {
      const WriterTb *t = &g_array_index (w->tbs, WriterTb, i);
      uint8_t r[WS_TRACE_TB_SIZE];
      ws_trace_put_u64 (r + WS_TRACE_TB_THREAD_INSTS, t->thread_insts);
      ws_trace_put_u64 (r + WS_TRACE_TB_WARP_INSTS, t->warp_insts);
      ws_trace_put_u64 (r + WS_TRACE_TB_GLOBAL_REQS, t->global_req);
      ws_trace_put_u64 (r + WS_TRACE_TB_LOCAL_REQS, t->local_req);
      ws_trace_put_u64 (r + WS_TRACE_TB_SHARED, t->shared_acc);
      ws_trace_put_u64 (r + WS_TRACE_TB_BARRIERS, t->barriers);
      ws_trace_put_u64 (r + WS_TRACE_TB_MEM_INSTS, t->mem_insts);
      ws_trace_put_u32 (r + WS_TRACE_TB_N_WARPS, t->n_warps);
      ws_trace_put_u32 (r + WS_TRACE_TB_FLAGS, t->flags);
      g_byte_array_append (b, r, sizeof r);
    }
  return b;
}

static GByteArray *
build_index (WsTraceWriter *w)
{
  GByteArray *b = g_byte_array_sized_new (8 + w->index->len * WS_TRACE_INDEX_SIZE);
  uint8_t tmp[8];
  ws_trace_put_u64 (tmp, w->index->len);
  g_byte_array_append (b, tmp, 8);
  for (guint i = 0; i < w->index->len; i++)
    {
      const WriterIndex *x = &g_array_index (w->index, WriterIndex, i);
      uint8_t r[WS_TRACE_INDEX_SIZE];
      ws_trace_put_u64 (r + WS_TRACE_IX_OFFSET, x->offset);
      ws_trace_put_u32 (r + WS_TRACE_IX_SIZE, x->size);
      ws_trace_put_u32 (r + WS_TRACE_IX_RAW_SIZE, x->raw_size);
      ws_trace_put_u64 (r + WS_TRACE_IX_CHECKSUM, x->checksum);
      ws_trace_put_u32 (r + WS_TRACE_IX_TB_OFFSET, x->tb_offset);
      ws_trace_put_u32 (r + WS_TRACE_IX_TB_SIZE, x->tb_size);
      g_byte_array_append (b, r, sizeof r);
    }
  return b;
}

gboolean
ws_trace_writer_close (WsTraceWriter *w, GError **error)
{
  g_return_val_if_fail (w != NULL, FALSE);

  if (w->in_launch)
    ws_trace_writer_end_launch (w, NULL);

  uint64_t off[4] = { 0 };
  GByteArray *(*builders[4]) (WsTraceWriter *) = { build_kernels, build_launches, build_tbs, build_index };
  const uint32_t tags[4] = { WS_TRACE_TAG_KERNELS, WS_TRACE_TAG_LAUNCHES, WS_TRACE_TAG_TBS, WS_TRACE_TAG_INDEX };
  for (int i = 0; i < 4; i++)
    {
      GByteArray *b = builders[i](w);
      write_section (w, tags[i], b->data, b->len, &off[i]);
      g_byte_array_unref (b);
    }
  uint8_t t[WS_TRACE_TRAILER_SIZE] = { 0 };
  for (int i = 0; i < 4; i++)
    ws_trace_put_u64 (t + 8 * i, off[i]);
  ws_trace_put_u64 (t + 32, w->offset + WS_TRACE_TRAILER_SIZE);
  ws_trace_put_u32 (t + 40, WS_TRACE_VERSION);
  ws_trace_put_u32 (t + 44, 0);
  ws_trace_put_u64 (t + 48, ws_trace_fnv1a64 (t, 48));
  memcpy (t + 56, WS_TRACE_END_MAGIC, 8);
  write_bytes (w, t, sizeof t);

  if (fclose (w->fp) != 0 && w->error == NULL)
    {
      int err = errno;
      writer_fail (w, g_error_new (WS_ERROR, WS_ERROR_IO, "Cannot finish trace '%s': %s", w->path, g_strerror (err)));
    }
  gboolean ok = w->error == NULL;
  if (!ok)
    g_propagate_error (error, g_steal_pointer (&w->error));

  g_free (w->path);
  g_mutex_clear (&w->lock);
  g_ptr_array_unref (w->ptx_texts);
  g_hash_table_unref (w->ptx_lookup);
  g_hash_table_unref (w->kernel_lookup);
  g_ptr_array_unref (w->kernels);
  g_array_unref (w->launches);
  g_array_unref (w->tbs);
  g_array_unref (w->index);
  g_hash_table_unref (w->pending);
  g_hash_table_unref (w->done);
  g_byte_array_unref (w->open);
  g_ptr_array_unref (w->free_ctas);
  g_clear_error (&w->error);
  g_free (w);
  return ok;
}
