/* ws-trace-reader.c: opening and validating a trace, random access to one
 * TB's chunk, decoding per-warp streams.  Every length and offset read from
 * the file is checked before use: a damaged file is an error, never a crash. */
#define G_LOG_DOMAIN "ws-trace"

#include <string.h>
#include <zstd.h>

#include "trace/ws-trace.h"
#include "trace/ws-trace-format.h"

struct _WsTrace {
  char *path;
  GMappedFile *map;
  const uint8_t *data;
  uint64_t size;
  uint32_t version;
  uint64_t data_end; /* end of the chunk region */

  uint8_t *kernels_raw; /* decompressed sections; strings point into it */
  GPtrArray *ptx;       /* char* (owned) */
  guint n_kernels;
  WsTraceKernel *kernels;
  WsTraceStaticInst **kernel_insts;
  uint8_t **kernel_lowering; /* WsTraceKernel.lowering / .machine / .schedule */
  WsTraceStaticInst **kernel_machine;
  uint8_t **kernel_schedule;
  char **kernel_names;
  guint n_launches;
  WsTraceLaunch *launches;
  uint64_t *launch_first_tb;
  uint64_t n_tbs;
  WsTraceTbCounters *tbs;
  struct ix {
    uint64_t offset;
    uint32_t size, raw_size;
    uint64_t checksum;
    uint32_t tb_offset, tb_size;
  } * index;

  /* The last decoded chunk: TBs sharing a chunk are usually read one after
   * the other. */
  GMutex cache_lock;
  uint64_t cache_offset;
  GBytes *cache;
};

struct _WsTraceTb {
  GBytes *chunk;
  uint32_t n_warps;
  uint32_t launch;
  uint64_t tb;
  uint32_t n_insts;
  const uint8_t *schedule; /* the kernel's, or NULL */
  const uint8_t **warp_data;
  uint64_t *warp_len;
  uint64_t *warp_records;
};

static gboolean G_GNUC_PRINTF (4, 5) corrupt (GError **error, const char *path, uint64_t offset, const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  g_autofree char *what = g_strdup_vprintf (fmt, ap);
  va_end (ap);
  g_set_error (error, WS_ERROR, WS_ERROR_CORRUPT,
               "Trace '%s' is damaged: %s at offset %" G_GUINT64_FORMAT
               "; record the program again with 'warpscope-cli profile'",
               path, what, offset);
  return FALSE;
}

void
ws_trace_free (WsTrace *t)
{
  if (t == NULL)
    return;
  g_free (t->path);
  if (t->map)
    g_mapped_file_unref (t->map);
  g_free (t->kernels_raw);
  if (t->ptx)
    g_ptr_array_unref (t->ptx);
  if (t->kernel_insts)
    for (guint i = 0; i < t->n_kernels; i++)
      g_free (t->kernel_insts[i]);
  g_free (t->kernel_insts);
  if (t->kernel_lowering)
    for (guint i = 0; i < t->n_kernels; i++)
      {
        g_free (t->kernel_lowering[i]);
        g_free (t->kernel_machine[i]);
        g_free (t->kernel_schedule[i]);
      }
  g_free (t->kernel_lowering);
  g_free (t->kernel_machine);
  g_free (t->kernel_schedule);
  if (t->kernel_names)
    for (guint i = 0; i < t->n_kernels; i++)
      g_free (t->kernel_names[i]);
  g_free (t->kernel_names);
  g_free (t->kernels);
  g_free (t->launches);
  g_free (t->launch_first_tb);
  g_free (t->tbs);
  g_free (t->index);
  if (t->cache)
    g_bytes_unref (t->cache);
  g_mutex_clear (&t->cache_lock);
  g_free (t);
}

/* Reads, checks and decompresses the section whose header is at @offset. */
static uint8_t *
read_section (WsTrace *t, uint64_t offset, uint32_t tag, const char *name, uint64_t *raw_len, GError **error)
{
  uint64_t limit = t->size - WS_TRACE_TRAILER_SIZE;
  if (offset < WS_TRACE_HEADER_SIZE || offset > limit || limit - offset < WS_TRACE_SECTION_HEADER_SIZE)
    {
      corrupt (error, t->path, offset, "%s section offset outside the file", name);
      return NULL;
    }
  const uint8_t *h = t->data + offset;
  if (ws_trace_u32 (h) != tag)
    {
      corrupt (error, t->path, offset, "%s section has a wrong tag", name);
      return NULL;
    }
  uint32_t enc = ws_trace_u32 (h + 4);
  uint64_t rlen = ws_trace_u64 (h + 8), slen = ws_trace_u64 (h + 16), sum = ws_trace_u64 (h + 24);
  const uint8_t *body = h + WS_TRACE_SECTION_HEADER_SIZE;
  if (slen > limit - offset - WS_TRACE_SECTION_HEADER_SIZE)
    {
      corrupt (error, t->path, offset, "%s section (%" G_GUINT64_FORMAT " bytes) extends past the end of the file",
               name, slen);
      return NULL;
    }
  if (ws_trace_fnv1a64 (body, slen) != sum)
    {
      corrupt (error, t->path, offset, "%s section checksum mismatch", name);
      return NULL;
    }
  /* The decoded size is checked against the data before allocating it:
   * a damaged header must not make us ask for terabytes. */
  if (enc == WS_TRACE_ENC_RAW    ? rlen != slen
      : enc == WS_TRACE_ENC_ZSTD ? ZSTD_getFrameContentSize (body, slen) != rlen
                                 : FALSE)
    {
      corrupt (error, t->path, offset, "%s section size does not match its data", name);
      return NULL;
    }
  uint8_t *raw = NULL;
  if (enc == WS_TRACE_ENC_RAW)
    {
      raw = g_malloc (MAX (rlen, 1));
      memcpy (raw, body, slen);
    }
  else if (enc == WS_TRACE_ENC_ZSTD)
    {
      raw = g_try_malloc (MAX (rlen, 1));
      if (raw == NULL)
        {
          corrupt (error, t->path, offset, "%s section claims %" G_GUINT64_FORMAT " bytes", name, rlen);
          return NULL;
        }
      size_t got = ZSTD_decompress (raw, rlen, body, slen);
      if (ZSTD_isError (got) || got != rlen)
        {
          g_free (raw);
          corrupt (error, t->path, offset, "%s section does not decompress (%s)", name,
                   ZSTD_isError (got) ? ZSTD_getErrorName (got) : "size mismatch");
          return NULL;
        }
    }
  else
    {
      corrupt (error, t->path, offset, "%s section has unknown encoding %u", name, enc);
      return NULL;
    }
  *raw_len = rlen;
  return raw;
}

/* Bounded cursor over a decompressed section. */
typedef struct {
  const uint8_t *p, *end;
  gboolean bad;
} Cur;

static const uint8_t *
take (Cur *c, uint64_t n)
{
  if (c->bad || (uint64_t) (c->end - c->p) < n)
    {
      c->bad = TRUE;
      return NULL;
    }
  const uint8_t *r = c->p;
  c->p += n;
  return r;
}

static uint32_t
take_u32 (Cur *c)
{
  const uint8_t *p = take (c, 4);
  return p ? ws_trace_u32 (p) : 0;
}

static uint64_t
take_u64 (Cur *c)
{
  const uint8_t *p = take (c, 8);
  return p ? ws_trace_u64 (p) : 0;
}

/* The machine-level view of every kernel (ws-trace-lowering.h), each PTX
 * module parsed once.  A module that does not parse (a hand-made trace's
 * fragment) leaves its kernels as recorded: the lowering is an analysis of
 * the trace, never a reason to refuse it. */
static void
lower_kernels (WsTrace *t)
{
  t->kernel_lowering = g_new0 (uint8_t *, MAX (t->n_kernels, 1));
  t->kernel_machine = g_new0 (WsTraceStaticInst *, MAX (t->n_kernels, 1));
  t->kernel_schedule = g_new0 (uint8_t *, MAX (t->n_kernels, 1));
  /* WARPSCOPE_PTX_ISSUE=1: every recorded PTX instruction issues (the
   * lowering off), WARPSCOPE_PTX_ORDER=1: in the recorded order (rule 3
   * off); to measure what they change. */
  gboolean off = g_strcmp0 (g_getenv ("WARPSCOPE_PTX_ISSUE"), "1") == 0;
  gboolean in_order = g_strcmp0 (g_getenv ("WARPSCOPE_PTX_ORDER"), "1") == 0;
  guint n_ptx = t->ptx && !off ? t->ptx->len : 0;
  g_autofree WsPtxModule **modules = g_new0 (WsPtxModule *, MAX (n_ptx, 1));
  g_autofree gboolean *tried = g_new0 (gboolean, MAX (n_ptx, 1));
  for (guint i = 0; i < t->n_kernels; i++)
    {
      WsTraceKernel *k = &t->kernels[i];
      const WsPtxModule *module = NULL;
      for (guint m = 0; m < n_ptx && k->ptx != NULL; m++)
        if (g_ptr_array_index (t->ptx, m) == k->ptx)
          {
            if (!tried[m])
              {
                g_autoptr (GError) e = NULL;
                tried[m] = TRUE;
                modules[m] = ws_ptx_parse (k->ptx, strlen (k->ptx), t->path, &e);
                if (modules[m] == NULL)
                  g_debug ("%s: PTX module %u not lowered: %s", t->path, m, e->message);
              }
            module = modules[m];
            break;
          }
      t->kernel_lowering[i] = g_new0 (uint8_t, MAX (k->n_insts, 1));
      t->kernel_machine[i] = g_new0 (WsTraceStaticInst, MAX (k->n_insts, 1));
      g_autofree uint8_t *schedule = in_order ? NULL : g_new0 (uint8_t, MAX (k->n_insts, 1));
      k->n_absorbed = ws_trace_lowering_compute (module, k->name, k->insts, k->n_insts, k->regs_per_thread,
                                                 t->kernel_lowering[i], t->kernel_machine[i], schedule, &k->n_hoisted);
      k->lowering = t->kernel_lowering[i];
      k->machine = t->kernel_machine[i];
      if (k->n_hoisted > 0)
        k->schedule = t->kernel_schedule[i] = g_steal_pointer (&schedule);
    }
  for (guint m = 0; m < n_ptx; m++)
    g_clear_pointer (&modules[m], ws_ptx_module_free);
}

static gboolean
parse_kernels (WsTrace *t, uint64_t offset, GError **error)
{
  uint64_t len;
  t->kernels_raw = read_section (t, offset, WS_TRACE_TAG_KERNELS, "kernels", &len, error);
  if (t->kernels_raw == NULL)
    return FALSE;
  Cur c = { t->kernels_raw, t->kernels_raw + len, FALSE };
  uint32_t n_ptx = take_u32 (&c);
  if (n_ptx > len / 8)
    return corrupt (error, t->path, offset, "kernels section lists %u PTX modules", n_ptx);
  t->ptx = g_ptr_array_new_with_free_func (g_free);
  for (uint32_t i = 0; i < n_ptx && !c.bad; i++)
    {
      uint64_t n = take_u64 (&c);
      const uint8_t *s = take (&c, n);
      if (s)
        g_ptr_array_add (t->ptx, g_strndup ((const char *) s, n));
    }
  uint32_t nk = take_u32 (&c);
  if (c.bad || nk > len / 28)
    return corrupt (error, t->path, offset, "kernels section truncated or lists %u kernels", nk);
  t->n_kernels = nk;
  t->kernels = g_new0 (WsTraceKernel, MAX (nk, 1));
  t->kernel_insts = g_new0 (WsTraceStaticInst *, MAX (nk, 1));
  t->kernel_names = g_new0 (char *, MAX (nk, 1));
  for (uint32_t i = 0; i < nk; i++)
    {
      uint32_t nl = take_u32 (&c);
      const uint8_t *name = take (&c, nl);
      uint32_t ptx_index = take_u32 (&c);
      WsTraceKernel *k = &t->kernels[i];
      k->regs_per_thread = take_u32 (&c);
      k->static_shared_bytes = take_u32 (&c);
      k->local_bytes = take_u32 (&c);
      k->resources_from_ptxas = (take_u32 (&c) & 1) != 0;
      uint32_t ni = take_u32 (&c);
      if (c.bad || (uint64_t) ni * WS_TRACE_STATIC_INST_SIZE > (uint64_t) (c.end - c.p))
        return corrupt (error, t->path, offset, "kernel %u of the kernels section is truncated", i);
      if (ptx_index != UINT32_MAX && ptx_index >= t->ptx->len)
        return corrupt (error, t->path, offset, "kernel %u refers to PTX module %u of %u", i, ptx_index, t->ptx->len);
      t->kernel_names[i] = g_strndup ((const char *) name, nl);
      k->name = t->kernel_names[i];
      k->ptx = ptx_index == UINT32_MAX ? NULL : g_ptr_array_index (t->ptx, ptx_index);
      k->n_insts = ni;
      t->kernel_insts[i] = g_new0 (WsTraceStaticInst, MAX (ni, 1));
      k->insts = t->kernel_insts[i];
      for (uint32_t j = 0; j < ni; j++)
        {
          const uint8_t *r = take (&c, WS_TRACE_STATIC_INST_SIZE);
          WsTraceStaticInst *s = &t->kernel_insts[i][j];
          s->ptx_line = ws_trace_u32 (r + WS_TRACE_SI_PTX_LINE);
          s->src_line = ws_trace_u32 (r + WS_TRACE_SI_SRC_LINE);
          s->op = r[WS_TRACE_SI_OP];
          s->opclass = r[WS_TRACE_SI_OPCLASS];
          s->space = r[WS_TRACE_SI_SPACE];
          s->access_size = r[WS_TRACE_SI_ACCESS_SIZE];
          s->n_dst = r[WS_TRACE_SI_N_DST];
          s->n_src = r[WS_TRACE_SI_N_SRC];
          s->is_conditional_branch = r[WS_TRACE_SI_COND_BRANCH];
          s->is_barrier = r[WS_TRACE_SI_BARRIER];
          for (int d = 0; d < 2; d++)
            s->dst[d] = ws_trace_u16 (r + WS_TRACE_SI_DST + 2 * d);
          for (int d = 0; d < 4; d++)
            s->src[d] = ws_trace_u16 (r + WS_TRACE_SI_SRC + 2 * d);
        }
    }
  if (c.bad)
    return corrupt (error, t->path, offset, "kernels section is truncated");
  lower_kernels (t);
  return TRUE;
}

static gboolean
parse_launches (WsTrace *t, uint64_t offset, GError **error)
{
  uint64_t len;
  g_autofree uint8_t *raw = read_section (t, offset, WS_TRACE_TAG_LAUNCHES, "launches", &len, error);
  if (raw == NULL)
    return FALSE;
  Cur c = { raw, raw + len, FALSE };
  uint32_t n = take_u32 (&c);
  take_u32 (&c);
  if (c.bad || (uint64_t) n * WS_TRACE_LAUNCH_SIZE != (uint64_t) (c.end - c.p))
    return corrupt (error, t->path, offset, "launches section size does not match its %u launches", n);
  t->n_launches = n;
  t->launches = g_new0 (WsTraceLaunch, MAX (n, 1));
  t->launch_first_tb = g_new0 (uint64_t, MAX (n, 1));
  uint64_t next_tb = 0;
  for (uint32_t i = 0; i < n; i++)
    {
      const uint8_t *r = take (&c, WS_TRACE_LAUNCH_SIZE);
      WsTraceLaunch *l = &t->launches[i];
      l->kernel = ws_trace_u32 (r + WS_TRACE_L_KERNEL);
      for (int d = 0; d < 3; d++)
        {
          l->grid[d] = ws_trace_u32 (r + WS_TRACE_L_GRID + 4 * d);
          l->block[d] = ws_trace_u32 (r + WS_TRACE_L_BLOCK + 4 * d);
        }
      l->dynamic_shared_bytes = ws_trace_u32 (r + WS_TRACE_L_DYN_SHARED);
      l->warps_per_tb = ws_trace_u32 (r + WS_TRACE_L_WARPS_PER_TB);
      l->complete = (ws_trace_u32 (r + WS_TRACE_L_FLAGS) & 1) == 0;
      uint64_t first = ws_trace_u64 (r + WS_TRACE_L_FIRST_TB);
      l->n_tbs = ws_trace_u64 (r + WS_TRACE_L_N_TBS);
      l->thread_instructions = ws_trace_u64 (r + WS_TRACE_L_THREAD_INSTS);
      l->warp_instructions = ws_trace_u64 (r + WS_TRACE_L_WARP_INSTS);
      l->memory_requests = ws_trace_u64 (r + WS_TRACE_L_MEM_REQS);
      l->global_requests = ws_trace_u64 (r + WS_TRACE_L_GLOBAL_REQS);
      l->local_requests = ws_trace_u64 (r + WS_TRACE_L_LOCAL_REQS);
      l->shared_accesses = ws_trace_u64 (r + WS_TRACE_L_SHARED);
      l->barriers = ws_trace_u64 (r + WS_TRACE_L_BARRIERS);
      l->memory_instructions = ws_trace_u64 (r + WS_TRACE_L_MEM_INSTS);
      l->cov_tb_thread_instructions = ws_trace_f64 (r + WS_TRACE_L_COV_THREAD);
      l->cov_tb_warp_instructions = ws_trace_f64 (r + WS_TRACE_L_COV_WARP);
      l->stream_bytes = ws_trace_u64 (r + WS_TRACE_L_STREAM_BYTES);
      if (l->kernel >= t->n_kernels)
        return corrupt (error, t->path, offset, "launch %u refers to kernel %u of %u", i, l->kernel, t->n_kernels);
      /* What CUDA allows for a launch (every architecture since Fermi), so
     * that the products below cannot overflow and the per-block sizes the
     * models allocate from stay bounded. */
      uint64_t threads = (uint64_t) l->block[0] * l->block[1] * l->block[2];
      if (l->block[0] == 0 || l->block[1] == 0 || l->block[2] == 0 || threads > WS_TRACE_MAX_THREADS_PER_BLOCK
          || l->block[2] > 64)
        return corrupt (error, t->path, offset, "launch %u has an impossible block of %u x %u x %u threads", i,
                        l->block[0], l->block[1], l->block[2]);
      if (l->grid[0] == 0 || l->grid[1] == 0 || l->grid[2] == 0 || l->grid[0] > G_MAXINT32 || l->grid[1] > 65535
          || l->grid[2] > 65535)
        return corrupt (error, t->path, offset, "launch %u has an impossible grid of %u x %u x %u blocks", i,
                        l->grid[0], l->grid[1], l->grid[2]);
      if (l->warps_per_tb != (threads + 31) / 32)
        return corrupt (error, t->path, offset,
                        "launch %u records %u warps per block for blocks of %" G_GUINT64_FORMAT " threads", i,
                        l->warps_per_tb, threads);
      if (first != next_tb || l->n_tbs != (uint64_t) l->grid[0] * l->grid[1] * l->grid[2])
        return corrupt (error, t->path, offset, "launch %u has inconsistent thread block numbering", i);
      t->launch_first_tb[i] = first;
      next_tb += l->n_tbs;
    }
  t->n_tbs = next_tb;
  return TRUE;
}

static gboolean
parse_tbs (WsTrace *t, uint64_t offset, GError **error)
{
  uint64_t len;
  g_autofree uint8_t *raw = read_section (t, offset, WS_TRACE_TAG_TBS, "thread-block counters", &len, error);
  if (raw == NULL)
    return FALSE;
  Cur c = { raw, raw + len, FALSE };
  uint64_t n = take_u64 (&c);
  if (c.bad || n != t->n_tbs || n > len / WS_TRACE_TB_SIZE || n * WS_TRACE_TB_SIZE != (uint64_t) (c.end - c.p))
    return corrupt (error, t->path, offset,
                    "thread-block counters section holds %" G_GUINT64_FORMAT
                    " entries, the launches need %" G_GUINT64_FORMAT,
                    n, t->n_tbs);
  t->tbs = g_new0 (WsTraceTbCounters, MAX (n, 1));
  for (uint64_t i = 0; i < n; i++)
    {
      const uint8_t *r = take (&c, WS_TRACE_TB_SIZE);
      WsTraceTbCounters *b = &t->tbs[i];
      b->thread_instructions = ws_trace_u64 (r + WS_TRACE_TB_THREAD_INSTS);
      b->warp_instructions = ws_trace_u64 (r + WS_TRACE_TB_WARP_INSTS);
      b->global_requests = ws_trace_u64 (r + WS_TRACE_TB_GLOBAL_REQS);
      b->local_requests = ws_trace_u64 (r + WS_TRACE_TB_LOCAL_REQS);
      b->shared_accesses = ws_trace_u64 (r + WS_TRACE_TB_SHARED);
      b->barriers = ws_trace_u64 (r + WS_TRACE_TB_BARRIERS);
      b->memory_instructions = ws_trace_u64 (r + WS_TRACE_TB_MEM_INSTS);
      b->n_warps = ws_trace_u32 (r + WS_TRACE_TB_N_WARPS);
      b->recorded = (ws_trace_u32 (r + WS_TRACE_TB_FLAGS) & 1) != 0;
    }
  /* A block holds at most its launch's warps (fewer only if the launch
   * did not finish). */
  for (guint l = 0; l < t->n_launches; l++)
    for (uint64_t k = 0; k < t->launches[l].n_tbs; k++)
      if (t->tbs[t->launch_first_tb[l] + k].n_warps > t->launches[l].warps_per_tb)
        return corrupt (error, t->path, offset,
                        "thread block %" G_GUINT64_FORMAT " of launch %u records %u warps; "
                        "the launch's blocks have %u",
                        k, l, t->tbs[t->launch_first_tb[l] + k].n_warps, t->launches[l].warps_per_tb);
  return TRUE;
}

static gboolean
parse_index (WsTrace *t, uint64_t offset, GError **error)
{
  uint64_t len;
  g_autofree uint8_t *raw = read_section (t, offset, WS_TRACE_TAG_INDEX, "chunk index", &len, error);
  if (raw == NULL)
    return FALSE;
  Cur c = { raw, raw + len, FALSE };
  uint64_t n = take_u64 (&c);
  if (c.bad || n != t->n_tbs || n > len / WS_TRACE_INDEX_SIZE || n * WS_TRACE_INDEX_SIZE != (uint64_t) (c.end - c.p))
    return corrupt (error, t->path, offset,
                    "chunk index holds %" G_GUINT64_FORMAT " entries, the launches need %" G_GUINT64_FORMAT, n,
                    t->n_tbs);
  t->index = g_new0 (struct ix, MAX (n, 1));
  for (uint64_t i = 0; i < n; i++)
    {
      const uint8_t *r = take (&c, WS_TRACE_INDEX_SIZE);
      struct ix *x = &t->index[i];
      x->offset = ws_trace_u64 (r + WS_TRACE_IX_OFFSET);
      x->size = ws_trace_u32 (r + WS_TRACE_IX_SIZE);
      x->raw_size = ws_trace_u32 (r + WS_TRACE_IX_RAW_SIZE);
      x->checksum = ws_trace_u64 (r + WS_TRACE_IX_CHECKSUM);
      x->tb_offset = ws_trace_u32 (r + WS_TRACE_IX_TB_OFFSET);
      x->tb_size = ws_trace_u32 (r + WS_TRACE_IX_TB_SIZE);
      if (!t->tbs[i].recorded)
        continue; /* never finished: all-zero entry */
      if (x->offset < WS_TRACE_HEADER_SIZE || x->offset > t->data_end || t->data_end - x->offset < x->size)
        return corrupt (error, t->path, offset,
                        "chunk index entry %" G_GUINT64_FORMAT " points outside the chunk region", i);
      if ((uint64_t) x->tb_offset + x->tb_size > x->raw_size)
        return corrupt (error, t->path, offset, "chunk index entry %" G_GUINT64_FORMAT " points outside its chunk", i);
    }
  return TRUE;
}

WsTrace *
ws_trace_open (const char *path, GError **error)
{
  g_return_val_if_fail (path != NULL, NULL);

  /* mmap() of a folder fails with "No such device", which misleads. */
  if (g_file_test (path, G_FILE_TEST_IS_DIR))
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID,
                   "Cannot open trace '%s': it is a folder, not a trace file (give the .wstrace file that "
                   "'warpscope-cli profile -o' wrote)",
                   path);
      return NULL;
    }
  GError *local = NULL;
  GMappedFile *map = g_mapped_file_new (path, FALSE, &local);
  if (map == NULL)
    {
      g_set_error (error, WS_ERROR,
                   g_error_matches (local, G_FILE_ERROR, G_FILE_ERROR_NOENT) ? WS_ERROR_NOT_FOUND : WS_ERROR_IO,
                   "Cannot open trace: %s", local->message);
      g_error_free (local);
      return NULL;
    }
  g_autoptr (WsTrace) t = g_new0 (WsTrace, 1);
  g_mutex_init (&t->cache_lock);
  t->path = g_strdup (path);
  t->map = map;
  t->data = (const uint8_t *) g_mapped_file_get_contents (map);
  t->size = g_mapped_file_get_length (map);

  if (t->size < WS_TRACE_MAGIC_LEN || memcmp (t->data, WS_TRACE_MAGIC, WS_TRACE_MAGIC_LEN) != 0)
    {
      corrupt (error, path, 0, "bad magic number (not a Warpscope trace)");
      return NULL;
    }
  if (t->size < WS_TRACE_HEADER_SIZE)
    {
      corrupt (error, path, t->size, "header truncated");
      return NULL;
    }
  t->version = ws_trace_u32 (t->data + 8);
  if (t->version > WS_TRACE_VERSION || t->version == 0)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_UNSUPPORTED,
                   "Trace '%s' has format version %u; this Warpscope reads version %u (upgrade Warpscope)", path,
                   t->version, WS_TRACE_VERSION);
      return NULL;
    }
  if (t->size < WS_TRACE_HEADER_SIZE + WS_TRACE_TRAILER_SIZE)
    {
      corrupt (error, path, t->size, "truncated: no trailer (the recording did not finish)");
      return NULL;
    }
  const uint8_t *tr = t->data + t->size - WS_TRACE_TRAILER_SIZE;
  uint64_t tr_off = t->size - WS_TRACE_TRAILER_SIZE;
  if (memcmp (tr + 56, WS_TRACE_END_MAGIC, 8) != 0)
    {
      corrupt (error, path, tr_off, "truncated: trailer missing (the recording did not finish or the file was cut)");
      return NULL;
    }
  if (ws_trace_fnv1a64 (tr, 48) != ws_trace_u64 (tr + 48))
    {
      corrupt (error, path, tr_off, "trailer checksum mismatch");
      return NULL;
    }
  if (ws_trace_u64 (tr + 32) != t->size)
    {
      corrupt (error, path, tr_off, "file size %" G_GUINT64_FORMAT " differs from the recorded %" G_GUINT64_FORMAT,
               t->size, ws_trace_u64 (tr + 32));
      return NULL;
    }
  uint64_t off[4];
  for (int i = 0; i < 4; i++)
    off[i] = ws_trace_u64 (tr + 8 * i);
  t->data_end = off[0];
  if (t->data_end < WS_TRACE_HEADER_SIZE || t->data_end > tr_off)
    {
      corrupt (error, path, tr_off, "trailer points outside the file");
      return NULL;
    }
  if (!parse_kernels (t, off[0], error) || !parse_launches (t, off[1], error) || !parse_tbs (t, off[2], error)
      || !parse_index (t, off[3], error))
    return NULL;
  return g_steal_pointer (&t);
}

const char *
ws_trace_get_path (const WsTrace *t)
{
  g_return_val_if_fail (t, NULL);
  return t->path;
}
uint32_t
ws_trace_get_version (const WsTrace *t)
{
  g_return_val_if_fail (t, 0);
  return t->version;
}
/* No padding: the digest hashes the instruction tables as they lie. */
G_STATIC_ASSERT (sizeof (WsTraceStaticInst) == 28);

char *
ws_trace_launch_digest (const WsTrace *t, guint launch)
{
  g_return_val_if_fail (t != NULL && launch < t->n_launches, NULL);
  WsHash128 h;
  ws_hash128_init (&h);
  const WsTraceLaunch *l = &t->launches[launch];
  const WsTraceKernel *k = &t->kernels[l->kernel];
  /* the digest's own version: change it when what is hashed changes */
  ws_hash128_update (&h, "ws-launch-digest-2", 18);
  ws_hash128_update (&h, k->name, strlen (k->name) + 1);
  uint32_t kfix[5] = { k->n_insts, k->regs_per_thread, k->static_shared_bytes, k->local_bytes,
                       (uint32_t) (k->schedule != NULL) };
  ws_hash128_update (&h, kfix, sizeof kfix);
  gsize n = k->n_insts;
  ws_hash128_update (&h, k->insts, n * sizeof (WsTraceStaticInst));
  ws_hash128_update (&h, k->machine, n * sizeof (WsTraceStaticInst));
  ws_hash128_update (&h, k->lowering, n);
  if (k->schedule != NULL)
    ws_hash128_update (&h, k->schedule, n);
  uint64_t lfix[] = { l->grid[0],
                      l->grid[1],
                      l->grid[2],
                      l->block[0],
                      l->block[1],
                      l->block[2],
                      l->dynamic_shared_bytes,
                      l->warps_per_tb,
                      (uint64_t) l->complete,
                      l->n_tbs,
                      l->thread_instructions,
                      l->warp_instructions,
                      l->memory_requests,
                      l->global_requests,
                      l->local_requests,
                      l->shared_accesses,
                      l->barriers,
                      l->memory_instructions };
  ws_hash128_update (&h, lfix, sizeof lfix);
  for (uint64_t i = 0; i < l->n_tbs; i++)
    {
      uint64_t g = t->launch_first_tb[launch] + i;
      const WsTraceTbCounters *c = &t->tbs[g];
      const struct ix *x = &t->index[g];
      uint64_t tfix[] = { c->thread_instructions,
                          c->warp_instructions,
                          c->global_requests,
                          c->local_requests,
                          c->shared_accesses,
                          c->barriers,
                          c->memory_instructions,
                          c->n_warps,
                          (uint64_t) c->recorded,
                          c->recorded ? x->checksum : 0,
                          c->recorded ? ((uint64_t) x->size << 32 | x->raw_size) : 0,
                          c->recorded ? ((uint64_t) x->tb_offset << 32 | x->tb_size) : 0 };
      ws_hash128_update (&h, tfix, sizeof tfix);
    }
  uint8_t d[16];
  ws_hash128_final (&h, d);
  GString *hex = g_string_sized_new (32);
  for (int i = 0; i < 16; i++)
    g_string_append_printf (hex, "%02x", d[i]);
  return g_string_free (hex, FALSE);
}

uint64_t
ws_trace_get_file_size (const WsTrace *t)
{
  g_return_val_if_fail (t, 0);
  return t->size;
}
guint
ws_trace_get_n_kernels (const WsTrace *t)
{
  g_return_val_if_fail (t, 0);
  return t->n_kernels;
}
guint
ws_trace_get_n_launches (const WsTrace *t)
{
  g_return_val_if_fail (t, 0);
  return t->n_launches;
}

const WsTraceKernel *
ws_trace_get_kernel (const WsTrace *t, guint index)
{
  g_return_val_if_fail (t != NULL && index < t->n_kernels, NULL);
  return &t->kernels[index];
}

const WsTraceLaunch *
ws_trace_get_launch (const WsTrace *t, guint index)
{
  g_return_val_if_fail (t != NULL && index < t->n_launches, NULL);
  return &t->launches[index];
}

const WsTraceTbCounters *
ws_trace_get_tb_counters (const WsTrace *t, guint launch, uint64_t *n_tbs)
{
  g_return_val_if_fail (t != NULL && launch < t->n_launches, NULL);
  if (n_tbs)
    *n_tbs = t->launches[launch].n_tbs;
  return &t->tbs[t->launch_first_tb[launch]];
}

uint64_t
ws_trace_get_total_warp_instructions (const WsTrace *t)
{
  g_return_val_if_fail (t != NULL, 0);
  uint64_t sum = 0;
  for (guint i = 0; i < t->n_launches; i++)
    sum += t->launches[i].warp_instructions;
  return sum;
}

/* ---- TB chunks ----------------------------------------------------------- */

void
ws_trace_tb_free (WsTraceTb *tb)
{
  if (tb == NULL)
    return;
  if (tb->chunk)
    g_bytes_unref (tb->chunk);
  g_free (tb->warp_data);
  g_free (tb->warp_len);
  g_free (tb->warp_records);
  g_free (tb);
}

/* The checksum and the decoded size of the chunk of index entry @x (of
 * block @tb of @launch, for the message). */
static gboolean
check_chunk (const WsTrace *t, const struct ix *x, guint launch, uint64_t tb, GError **error)
{
  const uint8_t *z = t->data + x->offset;
  if (ws_trace_fnv1a64 (z, x->size) != x->checksum)
    return corrupt (error, t->path, x->offset,
                    "chunk of thread block %" G_GUINT64_FORMAT " of launch %u: checksum "
                    "mismatch",
                    tb, launch);
  if (ZSTD_getFrameContentSize (z, x->size) != x->raw_size)
    return corrupt (error, t->path, x->offset,
                    "chunk of thread block %" G_GUINT64_FORMAT " of launch %u: size does "
                    "not match its data",
                    tb, launch);
  return TRUE;
}

/* The decoded chunk holding global TB @g (checked, then cached). */
static GBytes *
get_chunk (WsTrace *t, uint64_t g, guint launch, uint64_t tb, GError **error)
{
  const struct ix *x = &t->index[g];
  g_mutex_lock (&t->cache_lock);
  if (t->cache && t->cache_offset == x->offset)
    {
      GBytes *b = g_bytes_ref (t->cache);
      g_mutex_unlock (&t->cache_lock);
      return b;
    }
  g_mutex_unlock (&t->cache_lock);

  const uint8_t *z = t->data + x->offset;
  if (!check_chunk (t, x, launch, tb, error))
    return NULL;
  uint8_t *raw = g_malloc (MAX (x->raw_size, 1));
  size_t got = ZSTD_decompress (raw, x->raw_size, z, x->size);
  if (ZSTD_isError (got) || got != x->raw_size)
    {
      g_free (raw);
      corrupt (error, t->path, x->offset,
               "chunk of thread block %" G_GUINT64_FORMAT " of launch %u does not decompress (%s)", tb, launch,
               ZSTD_isError (got) ? ZSTD_getErrorName (got) : "size mismatch");
      return NULL;
    }
  GBytes *b = g_bytes_new_take (raw, got);
  g_mutex_lock (&t->cache_lock);
  if (t->cache)
    g_bytes_unref (t->cache);
  t->cache = g_bytes_ref (b);
  t->cache_offset = x->offset;
  g_mutex_unlock (&t->cache_lock);
  return b;
}

gboolean
ws_trace_verify (WsTrace *t, uint64_t *n_chunks, GError **error)
{
  g_return_val_if_fail (t != NULL, FALSE);
  uint64_t chunks = 0, last = G_MAXUINT64;
  for (guint l = 0; l < t->n_launches; l++)
    for (uint64_t k = 0; k < t->launches[l].n_tbs; k++)
      {
        uint64_t g = t->launch_first_tb[l] + k;
        const struct ix *x = &t->index[g];
        if (!t->tbs[g].recorded || x->offset == last)
          continue;
        last = x->offset;
        chunks++;
        if (!check_chunk (t, x, l, k, error))
          return FALSE;
      }
  if (n_chunks != NULL)
    *n_chunks = chunks;
  return TRUE;
}

WsTraceTb *
ws_trace_read_tb (WsTrace *t, guint launch, uint64_t tb, GError **error)
{
  g_return_val_if_fail (t != NULL, NULL);
  if (launch >= t->n_launches || tb >= t->launches[launch].n_tbs)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_NOT_FOUND,
                   "Trace '%s' has no thread block %" G_GUINT64_FORMAT " in launch %u (%u launches)", t->path, tb,
                   launch, t->n_launches);
      return NULL;
    }
  uint64_t g = t->launch_first_tb[launch] + tb;
  const struct ix *x = &t->index[g];
  if (!t->tbs[g].recorded)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_NOT_FOUND,
                   "Thread block %" G_GUINT64_FORMAT " of launch %u was not recorded (the launch did not finish)", tb,
                   launch);
      return NULL;
    }
  g_autoptr (WsTraceTb) r = g_new0 (WsTraceTb, 1);
  r->launch = launch;
  r->tb = tb;
  r->n_insts = t->kernels[t->launches[launch].kernel].n_insts;
  r->schedule = t->kernels[t->launches[launch].kernel].schedule;
  r->chunk = get_chunk (t, g, launch, tb, error);
  if (r->chunk == NULL)
    return NULL;
  const uint8_t *p = (const uint8_t *) g_bytes_get_data (r->chunk, NULL) + x->tb_offset;
  const uint8_t *end = p + x->tb_size;
  uint64_t nw;
  if (!(p = ws_trace_get_varint (p, end, &nw)) || nw != t->tbs[g].n_warps || nw > 1024 * 1024)
    {
      corrupt (error, t->path, x->offset, "chunk of thread block %" G_GUINT64_FORMAT " of launch %u: bad warp count",
               tb, launch);
      return NULL;
    }
  r->n_warps = (uint32_t) nw;
  r->warp_data = g_new0 (const uint8_t *, MAX (nw, 1));
  r->warp_len = g_new0 (uint64_t, MAX (nw, 1));
  r->warp_records = g_new0 (uint64_t, MAX (nw, 1));
  uint64_t total = 0, records = 0;
  for (uint64_t i = 0; i < nw; i++)
    {
      if (!(p = ws_trace_get_varint (p, end, &r->warp_records[i]))
          || !(p = ws_trace_get_varint (p, end, &r->warp_len[i])))
        {
          corrupt (error, t->path, x->offset,
                   "chunk of thread block %" G_GUINT64_FORMAT " of launch %u: warp table truncated", tb, launch);
          return NULL;
        }
      if (r->warp_len[i] > x->tb_size || r->warp_records[i] > x->tb_size)
        {
          corrupt (error, t->path, x->offset,
                   "chunk of thread block %" G_GUINT64_FORMAT " of launch %u: warp %" G_GUINT64_FORMAT
                   " claims more than the block holds",
                   tb, launch, i);
          return NULL;
        }
      total += r->warp_len[i];
      records += r->warp_records[i];
    }
  if (total != (uint64_t) (end - p) || records != t->tbs[g].warp_instructions)
    {
      corrupt (error, t->path, x->offset,
               "chunk of thread block %" G_GUINT64_FORMAT " of launch %u: stream sizes do not add up", tb, launch);
      return NULL;
    }
  for (uint64_t i = 0; i < nw; i++)
    {
      r->warp_data[i] = p;
      p += r->warp_len[i];
    }
  return g_steal_pointer (&r);
}

guint
ws_trace_tb_get_n_warps (const WsTraceTb *tb)
{
  g_return_val_if_fail (tb != NULL, 0);
  return tb->n_warps;
}

uint64_t
ws_trace_tb_get_n_records (const WsTraceTb *tb, guint warp)
{
  g_return_val_if_fail (tb != NULL && warp < tb->n_warps, 0);
  return tb->warp_records[warp];
}

void
ws_trace_warp_iter_init (WsTraceWarpIter *it, const WsTraceTb *tb, guint warp)
{
  g_return_if_fail (it != NULL && tb != NULL && warp < tb->n_warps);
  memset (it, 0, sizeof *it);
  it->start = it->p = tb->warp_data[warp];
  it->end = it->p + tb->warp_len[warp];
  it->remaining = tb->warp_records[warp];
  it->last_id = UINT32_MAX;
  it->last_mask = WS_TRACE_INITIAL_MASK;
  it->n_insts = tb->n_insts;
  it->warp = warp;
  it->launch = tb->launch;
  it->tb = tb->tb;
  it->schedule = tb->schedule;
}

static gboolean G_GNUC_PRINTF (3, 4) stream_corrupt (WsTraceWarpIter *it, GError **error, const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  g_autofree char *what = g_strdup_vprintf (fmt, ap);
  va_end (ap);
  g_set_error (error, WS_ERROR, WS_ERROR_CORRUPT,
               "Trace stream of launch %u, thread block %" G_GUINT64_FORMAT
               ", warp %u is damaged at byte %" G_GUINT64_FORMAT ": %s; record the program again",
               it->launch, it->tb, it->warp, (uint64_t) (it->p - it->start), what);
  it->remaining = 0;
  return FALSE;
}

/* The next record in recorded order. */
static gboolean
decode_next (WsTraceWarpIter *it, WsTraceRecord *rec, GError **error)
{
  if (it->remaining == 0)
    {
      if (it->p != it->end)
        return stream_corrupt (it, error, "%" G_GUINT64_FORMAT " bytes after the last record",
                               (uint64_t) (it->end - it->p));
      return FALSE;
    }
  const uint8_t *p = it->p, *end = it->end;
  if (p >= end)
    return stream_corrupt (it, error, "stream ends before its last record");
  uint8_t tag = *p++;
  uint32_t kind = tag >> 6;
  if (kind > WS_TRACE_KIND_BARRIER)
    return stream_corrupt (it, error, "unknown record kind %u", kind);
  uint32_t code = tag & 31u;
  if (code == WS_TRACE_REC_ID_ESCAPE)
    {
      uint64_t v;
      if (!(p = ws_trace_get_varint (p, end, &v)) || v > UINT32_MAX)
        return stream_corrupt (it, error, "bad instruction id");
      code = (uint32_t) v;
    }
  uint32_t id = it->last_id + 1u + (uint32_t) ws_trace_unzigzag32 (code);
  if (id >= it->n_insts)
    return stream_corrupt (it, error, "instruction id %u outside the kernel's %u instructions", id, it->n_insts);
  if (tag & WS_TRACE_REC_MASK_BIT)
    {
      if (end - p < 4)
        return stream_corrupt (it, error, "truncated active mask");
      it->last_mask = ws_trace_u32 (p);
      p += 4;
    }
  rec->static_id = id;
  rec->active_mask = it->last_mask;
  rec->kind = (uint8_t) kind;
  rec->space = 0;
  rec->addr_mode = 0;
  rec->stride = 0;
  if (kind == WS_TRACE_KIND_MEM)
    {
      if (p >= end)
        return stream_corrupt (it, error, "truncated memory record");
      uint8_t m = *p++;
      rec->space = m & 0xf;
      rec->addr_mode = m >> 4;
      uint32_t mask = rec->active_mask;
      if (mask)
        {
          uint64_t *slot = &it->base_table[id & (WS_TRACE_BASE_TABLE - 1)];
          uint64_t v;
          if (!(p = ws_trace_get_varint (p, end, &v)))
            return stream_corrupt (it, error, "truncated base address");
          uint64_t base = *slot + (uint64_t) ws_trace_unzigzag64 (v);
          *slot = base;
          if (rec->addr_mode == WS_TRACE_ADDR_STRIDE)
            {
              if (!(p = ws_trace_get_varint (p, end, &v)))
                return stream_corrupt (it, error, "truncated stride");
              rec->stride = ws_trace_unzigzag64 (v);
              for (uint32_t mm = mask; mm; mm &= mm - 1)
                {
                  uint32_t l = (uint32_t) __builtin_ctz (mm);
                  rec->addrs[l] = base + (uint64_t) l * (uint64_t) rec->stride;
                }
            }
          else if (rec->addr_mode == WS_TRACE_ADDR_LANES)
            {
              uint64_t a = base;
              rec->addrs[__builtin_ctz (mask)] = a;
              for (uint32_t mm = mask & (mask - 1); mm; mm &= mm - 1)
                {
                  if (!(p = ws_trace_get_varint (p, end, &v)))
                    return stream_corrupt (it, error, "truncated lane address");
                  a += (uint64_t) ws_trace_unzigzag64 (v);
                  rec->addrs[__builtin_ctz (mm)] = a;
                }
            }
          else if (rec->addr_mode == WS_TRACE_ADDR_PACKED)
            {
              if (end - p < 2)
                return stream_corrupt (it, error, "truncated packed addresses");
              uint32_t shift = p[0], width = p[1];
              p += 2;
              if (shift > 63 || width > WS_TRACE_PACK_MAX_WIDTH)
                return stream_corrupt (it, error, "bad packed address width %u or shift %u", width, shift);
              uint64_t nbytes = ((uint64_t) __builtin_popcount (mask) * width + 7) / 8;
              if ((uint64_t) (end - p) < nbytes)
                return stream_corrupt (it, error, "truncated packed addresses");
              uint64_t acc = 0, lim = width ? (~0ull >> (64 - width)) : 0;
              uint32_t nb = 0;
              for (uint32_t mm = mask; mm; mm &= mm - 1)
                {
                  while (nb < width)
                    {
                      acc |= (uint64_t) *p++ << nb;
                      nb += 8;
                    }
                  rec->addrs[__builtin_ctz (mm)] = base + ((acc & lim) << shift);
                  acc = width ? acc >> width : acc;
                  nb -= width;
                }
            }
          else
            {
              return stream_corrupt (it, error, "unknown address mode %u", rec->addr_mode);
            }
        }
    }
  it->last_id = id;
  it->p = p;
  it->remaining--;
  return TRUE;
}

static void
pop_delayed (WsTraceWarpIter *it, WsTraceRecord *rec)
{
  uint32_t k = it->delayed_head;
  rec->static_id = it->delayed_id[k];
  rec->active_mask = it->delayed_mask[k];
  rec->kind = WS_TRACE_RECORD_INST;
  rec->space = 0;
  rec->addr_mode = 0;
  rec->stride = 0;
  it->delayed_head = (k + 1) % WS_TRACE_SCHEDULE_QUEUE;
  it->n_delayed--;
}

/* Rule 3 (ws-trace-lowering.h): arithmetic flagged DELAY waits in a queue;
 * a record with a drain count is held until that many of the oldest waiting
 * records have come out (all of them before a block's first instruction, a
 * store, a barrier, a control transfer); a load passes what remains.  The
 * stream's end drains the queue too. */
gboolean
ws_trace_warp_iter_next (WsTraceWarpIter *it, WsTraceRecord *rec, GError **error)
{
  if (it->schedule == NULL)
    return decode_next (it, rec, error);
  for (;;)
    {
      if (it->draining > 0 && it->n_delayed > 0)
        {
          it->draining--;
          pop_delayed (it, rec);
          return TRUE;
        }
      it->draining = 0;
      if (it->has_held)
        {
          it->has_held = FALSE;
          memcpy (rec, &it->held, offsetof (WsTraceRecord, addrs));
          if (rec->kind == WS_TRACE_RECORD_MEM)
            for (uint32_t m = rec->active_mask; m; m &= m - 1)
              rec->addrs[__builtin_ctz (m)] = it->held.addrs[__builtin_ctz (m)];
        }
      else
        {
          GError *local = NULL;
          if (!decode_next (it, rec, &local))
            {
              if (local != NULL)
                {
                  g_propagate_error (error, local);
                  return FALSE;
                }
              if (it->n_delayed == 0)
                return FALSE;
              pop_delayed (it, rec);
              return TRUE;
            }
          guint drain = ws_trace_schedule_drain (it->schedule[rec->static_id]);
          if (it->n_delayed > 0 && drain > 0)
            {
              memcpy (&it->held, rec, offsetof (WsTraceRecord, addrs));
              if (rec->kind == WS_TRACE_RECORD_MEM)
                for (uint32_t m = rec->active_mask; m; m &= m - 1)
                  it->held.addrs[__builtin_ctz (m)] = rec->addrs[__builtin_ctz (m)];
              it->has_held = TRUE;
              it->draining = drain == WS_TRACE_SCHEDULE_DRAIN_ALL ? it->n_delayed : drain;
              continue;
            }
        }
      uint8_t f = it->schedule[rec->static_id];
      if ((f & WS_TRACE_SCHEDULE_DELAY) && rec->kind == WS_TRACE_RECORD_INST)
        {
          if (it->n_delayed < WS_TRACE_SCHEDULE_QUEUE)
            {
              uint32_t k = (it->delayed_head + it->n_delayed) % WS_TRACE_SCHEDULE_QUEUE;
              it->delayed_id[k] = rec->static_id;
              it->delayed_mask[k] = rec->active_mask;
              it->n_delayed++;
              continue;
            }
        }
      if (it->n_delayed > 0 && (f & WS_TRACE_SCHEDULE_DELAY))
        {
          /* not what the schedule expects (a full queue, a memory record
           * where arithmetic was recorded): keep the recorded order */
          memcpy (&it->held, rec, sizeof *rec);
          it->has_held = TRUE;
          it->draining = it->n_delayed;
          continue;
        }
      return TRUE;
    }
}

gboolean
ws_trace_tb_foreach_global_access (const WsTraceTb *tb, const WsTraceKernel *k, WsTraceAccessFn fn, void *data,
                                   GError **error)
{
  WsTraceRecord rec;
  for (guint w = 0; w < ws_trace_tb_get_n_warps (tb); w++)
    {
      WsTraceWarpIter it;
      ws_trace_warp_iter_init (&it, tb, w);
      GError *e = NULL;
      while (ws_trace_warp_iter_next (&it, &rec, &e))
        if (rec.kind == WS_TRACE_RECORD_MEM && rec.static_id < k->n_insts
            && (rec.space == WS_SPACE_GLOBAL || rec.space == WS_SPACE_LOCAL || rec.space == WS_SPACE_GENERIC))
          fn (&rec, &k->insts[rec.static_id], data);
      if (e != NULL)
        {
          g_propagate_error (error, e);
          return FALSE;
        }
    }
  return TRUE;
}

void
ws_trace_warp_stream_free (WsTraceWarpStream *s)
{
  if (s == NULL)
    return;
  g_free (s->static_ids);
  g_free (s->active_masks);
  g_free (s->kinds);
  g_free (s->spaces);
  g_free (s->addr_start);
  g_free (s->addrs);
  g_free (s);
}

WsTraceWarpStream *
ws_trace_tb_decode_warp (const WsTraceTb *tb, guint warp, GError **error)
{
  g_return_val_if_fail (tb != NULL, NULL);
  if (warp >= tb->n_warps)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_NOT_FOUND, "Thread block %" G_GUINT64_FORMAT " has no warp %u (%u warps)",
                   tb->tb, warp, tb->n_warps);
      return NULL;
    }
  uint64_t n = tb->warp_records[warp];
  /* A record is at least one byte: a larger count is damage, not a reason to
   * allocate gigabytes. */
  if (n > tb->warp_len[warp])
    {
      g_set_error (error, WS_ERROR, WS_ERROR_CORRUPT,
                   "Trace stream of thread block %" G_GUINT64_FORMAT ", warp %u claims %" G_GUINT64_FORMAT
                   " records in %" G_GUINT64_FORMAT " bytes",
                   tb->tb, warp, n, tb->warp_len[warp]);
      return NULL;
    }
  g_autoptr (WsTraceWarpStream) s = g_new0 (WsTraceWarpStream, 1);
  s->n_records = n;
  s->static_ids = g_new (uint32_t, MAX (n, 1));
  s->active_masks = g_new (uint32_t, MAX (n, 1));
  s->kinds = g_new (uint8_t, MAX (n, 1));
  s->spaces = g_new (uint8_t, MAX (n, 1));
  s->addr_start = g_new (uint64_t, n + 1);
  GArray *addrs = g_array_new (FALSE, FALSE, sizeof (uint64_t));
  WsTraceWarpIter it;
  WsTraceRecord rec;
  ws_trace_warp_iter_init (&it, tb, warp);
  uint64_t i = 0;
  GError *local = NULL;
  while (ws_trace_warp_iter_next (&it, &rec, &local))
    {
      s->static_ids[i] = rec.static_id;
      s->active_masks[i] = rec.active_mask;
      s->kinds[i] = rec.kind;
      s->spaces[i] = rec.space;
      s->addr_start[i] = addrs->len;
      if (rec.kind == WS_TRACE_RECORD_MEM)
        for (uint32_t m = rec.active_mask; m; m &= m - 1)
          g_array_append_val (addrs, rec.addrs[__builtin_ctz (m)]);
      i++;
    }
  if (local)
    {
      g_array_unref (addrs);
      g_propagate_error (error, local);
      return NULL;
    }
  s->addr_start[n] = addrs->len;
  s->n_addrs = addrs->len;
  s->addrs = (uint64_t *) g_array_free (addrs, FALSE);
  return g_steal_pointer (&s);
}
