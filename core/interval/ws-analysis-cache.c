/* ws-analysis-cache.c: the launch analysis kept on disk, one file per
 * (launch content, GPU record, Warpscope build).
 *
 * The analysis (cache simulation, latencies, interval profiles, the
 * representative warp) is a pure function of the launch's recorded streams,
 * the GPU record and the code that computes it, so its key is
 *  - the launch digest (ws_trace_launch_digest: kernel, configuration and
 *    the checksums of the compressed streams, not the file's path), so a
 *    launch repeated on the same data in the same trace (spmv's 20 launches
 *    are 2 distinct ones) or in a copy of it shares one file;
 *  - the GPU record as JSON (every catalogue field: a changed latency or
 *    cache size is another key);
 *  - the build of libwarpscope (its GNU build id, a hash of the linked
 *    code), so a changed analysis never reads a file of the old one;
 *  - whether the analysis samples large launches (WARPSCOPE_ANALYSIS_SAMPLE).
 * Files live in TRACE.analysis/ beside the trace, or in the user's cache
 * folder when that cannot be written, or where WARPSCOPE_ANALYSIS_CACHE
 * says ("0"/"off": nowhere).  A file holds its key, its payload and a
 * ws_hash128 of both; one that fails any check is ignored and rewritten, so a
 * damaged cache costs a recomputation, never a wrong or failed prediction.
 * Files are written to a temporary name and renamed: readers in other
 * processes see a whole file or none. */
#include "interval/ws-interval.h"
#include "interval/ws-launch-analysis-private.h"

#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <link.h>
#include <string.h>
#include <sys/stat.h>

#define CACHE_MAGIC "WSANLYS\n"
#define CACHE_FORMAT 3u
#define KEY_BYTES 32u /* SHA-256 of the key's parts */
#define SUM_BYTES 16u /* ws_hash128 of the file: damage, not forgery */

/* ---- the build's identity ------------------------------------------------------ */

typedef struct {
  uintptr_t addr; /* a code address inside the object searched for */
  char *id;
} BuildIdSearch;

static char *
hex_of (const uint8_t *bytes, gsize n)
{
  GString *s = g_string_sized_new (n * 2);
  for (gsize i = 0; i < n; i++)
    g_string_append_printf (s, "%02x", bytes[i]);
  return g_string_free (s, FALSE);
}

/* dl_iterate_phdr callback: the GNU build id note of the object whose
 * loaded segments hold s->addr. */
static int
build_id_of_object (struct dl_phdr_info *info, size_t size, void *data)
{
  (void) size;
  BuildIdSearch *s = data;
  gboolean mine = FALSE;
  for (int i = 0; i < info->dlpi_phnum && !mine; i++)
    {
      const ElfW (Phdr) *ph = &info->dlpi_phdr[i];
      uintptr_t lo = info->dlpi_addr + ph->p_vaddr;
      mine = ph->p_type == PT_LOAD && s->addr >= lo && s->addr < lo + ph->p_memsz;
    }
  if (!mine)
    return 0;
  for (int i = 0; i < info->dlpi_phnum && s->id == NULL; i++)
    {
      const ElfW (Phdr) *ph = &info->dlpi_phdr[i];
      if (ph->p_type != PT_NOTE)
        continue;
      const uint8_t *p = (const uint8_t *) (info->dlpi_addr + ph->p_vaddr), *end = p + ph->p_memsz;
      while (p + sizeof (ElfW (Nhdr)) <= end)
        {
          const ElfW (Nhdr) *n = (const void *) p;
          const uint8_t *name = p + sizeof *n;
          const uint8_t *desc = name + ((n->n_namesz + 3u) & ~3u);
          if (desc + n->n_descsz > end)
            break;
          if (n->n_type == NT_GNU_BUILD_ID && n->n_namesz == 4 && memcmp (name, "GNU", 4) == 0)
            {
              s->id = hex_of (desc, n->n_descsz);
              break;
            }
          p = desc + ((n->n_descsz + 3u) & ~3u);
        }
    }
  return 1;
}

/* The code's identity: the linker's build id (a hash of the code, the same
 * for the same sources and compiler), else the file's size and time. */
static const char *
build_identity (void)
{
  static gsize once = 0;
  static char *identity;
  if (g_once_init_enter (&once))
    {
      BuildIdSearch s = { (uintptr_t) &ws_launch_analysis_new, NULL };
      dl_iterate_phdr (build_id_of_object, &s);
      if (s.id != NULL)
        identity = g_strconcat ("build-id:", s.id, NULL);
      else
        {
          Dl_info info;
          struct stat st;
          if (dladdr ((void *) &ws_launch_analysis_new, &info) && info.dli_fname != NULL
              && stat (info.dli_fname, &st) == 0)
            identity = g_strdup_printf ("file:%s:%lld:%lld.%09ld", info.dli_fname, (long long) st.st_size,
                                        (long long) st.st_mtim.tv_sec, st.st_mtim.tv_nsec);
        }
      g_free (s.id);
      g_once_init_leave (&once, 1);
    }
  return identity;
}

/* ---- where files go ---------------------------------------------------------- */

/* The folder for @trace's analyses, made if needed; NULL when caching is
 * off or no folder can be written. */
static char *
cache_folder (WsTrace *trace)
{
  const char *env = g_getenv ("WARPSCOPE_ANALYSIS_CACHE");
  if (env != NULL && (g_strcmp0 (env, "0") == 0 || g_ascii_strcasecmp (env, "off") == 0))
    return NULL;
  if (env != NULL && *env != '\0')
    return g_mkdir_with_parents (env, 0755) == 0 && g_access (env, W_OK) == 0 ? g_strdup (env) : NULL;
  g_autofree char *beside = g_strconcat (ws_trace_get_path (trace), ".analysis", NULL);
  if ((g_mkdir (beside, 0755) == 0 || errno == EEXIST) && g_file_test (beside, G_FILE_TEST_IS_DIR)
      && g_access (beside, W_OK) == 0)
    return g_steal_pointer (&beside);
  g_autofree char *user = g_build_filename (g_get_user_cache_dir (), "warpscope", "analysis", NULL);
  if (g_mkdir_with_parents (user, 0755) == 0 && g_access (user, W_OK) == 0)
    return g_steal_pointer (&user);
  return NULL;
}

/* The key of (@trace's launch @launch, @gpu, this build); FALSE when the
 * build has no identity (nothing is cached then). */
static gboolean
cache_key (WsTrace *trace, guint launch, const WsGpu *gpu, uint8_t key[KEY_BYTES])
{
  const char *build = build_identity ();
  if (build == NULL)
    return FALSE;
  g_autofree char *digest = ws_trace_launch_digest (trace, launch);
  g_autoptr (JsonNode) node = ws_gpu_to_json (gpu);
  g_autofree char *gpu_json = json_to_string (node, FALSE);
  g_autoptr (GChecksum) h = g_checksum_new (G_CHECKSUM_SHA256);
  /* a sampled analysis is another result than a whole one */
  const char *sampling = ws_launch_analysis_samples () ? "sampled" : "every block";
  const char *parts[] = { "ws-analysis-cache-2", build, gpu_json, digest, sampling };
  for (guint i = 0; i < G_N_ELEMENTS (parts); i++)
    g_checksum_update (h, (const guchar *) parts[i], (gssize) strlen (parts[i]) + 1);
  gsize n = KEY_BYTES;
  g_checksum_get_digest (h, key, &n);
  return n == KEY_BYTES;
}

/* ---- the file's layout: magic, format, key, then the fields in this order,
 * then a ws_hash128 of everything before it.  Native little-endian numbers:
 * a file is only ever read by the build that wrote it (the key says so). */

static void
put (GByteArray *b, const void *p, gsize n)
{
  g_byte_array_append (b, p, (guint) n);
}

static void
put_u64 (GByteArray *b, uint64_t v)
{
  put (b, &v, sizeof v);
}

static void
put_f64 (GByteArray *b, double v)
{
  put (b, &v, sizeof v);
}

static GByteArray *
encode (const WsLaunchAnalysis *a, guint n_insts, uint64_t n_tbs, const uint8_t key[KEY_BYTES])
{
  GByteArray *b = g_byte_array_new ();
  put (b, CACHE_MAGIC, 8);
  uint32_t format[2] = { CACHE_FORMAT, 0 };
  put (b, format, sizeof format);
  put (b, key, KEY_BYTES);
  put_u64 (b, n_insts);
  put_u64 (b, n_tbs);
  const WsCacheStats *c = a->cache;
  put (b, c->pcs, n_insts * sizeof (WsCachePcStats));
  put_u64 (b, c->sectors);
  put_u64 (b, c->l1_hits);
  put_u64 (b, c->l2_hits);
  put_u64 (b, c->dram_sectors);
  put_u64 (b, c->writeback_sectors);
  put_u64 (b, c->dram_bytes);
  put_f64 (b, c->l1_hit_rate);
  put_f64 (b, c->l2_hit_rate);
  put_u64 (b, (uint64_t) (int64_t) c->blocks_per_sm);
  put (b, a->latency, n_insts * sizeof (double));
  put (b, a->wavefronts, n_insts * sizeof (double));
  put (b, a->tb_issued, n_tbs * sizeof (uint64_t));
  put (b, a->tb_thread_issued, n_tbs * sizeof (uint64_t));
  put (b, a->tb_critical, n_tbs * sizeof (double));
  put_u64 (b, a->issued);
  put_u64 (b, a->thread_issued);
  put_u64 (b, a->rep_tb);
  put_u64 (b, a->rep_warp);
  put_u64 (b, a->n_profiled);
  put_u64 (b, a->profiled_tbs);
  put_u64 (b, a->simulated_tbs);
  put_u64 (b, a->recorded_tbs);
  put_u64 (b, a->waves);
  put_u64 (b, a->sample_waves);
  const WsIntervalProfile *r = a->rep;
  put_u64 (b, r->insts);
  put_f64 (b, r->cycles);
  put_f64 (b, r->perf);
  put_u64 (b, r->thread_insts);
  put_u64 (b, r->intervals->len);
  for (guint i = 0; i < r->intervals->len; i++)
    {
      const WsInterval *iv = &g_array_index (r->intervals, WsInterval, i);
      put_u64 (b, iv->insts);
      put_f64 (b, iv->stall_cycles);
      put_u64 (b, iv->stall_inst);
    }
  uint8_t sum[SUM_BYTES];
  WsHash128 h;
  ws_hash128_init (&h);
  ws_hash128_update (&h, b->data, b->len);
  ws_hash128_final (&h, sum);
  put (b, sum, sizeof sum);
  return b;
}

typedef struct {
  const uint8_t *p, *end;
  gboolean bad;
} Reader;

static const void *
take (Reader *r, gsize n)
{
  if (r->bad || (gsize) (r->end - r->p) < n)
    {
      r->bad = TRUE;
      return NULL;
    }
  const void *p = r->p;
  r->p += n;
  return p;
}

static uint64_t
take_u64 (Reader *r)
{
  uint64_t v = 0;
  const void *p = take (r, sizeof v);
  if (p != NULL)
    memcpy (&v, p, sizeof v);
  return v;
}

static double
take_f64 (Reader *r)
{
  double v = 0;
  const void *p = take (r, sizeof v);
  if (p != NULL)
    memcpy (&v, p, sizeof v);
  return v;
}

/* A copy of the next @n bytes (at least one byte allocated, as the
 * computation allocates its tables). */
static void *
take_copy (Reader *r, gsize n)
{
  const void *p = take (r, n);
  if (p == NULL)
    return NULL;
  void *copy = g_malloc0 (MAX (n, 1));
  memcpy (copy, p, n);
  return copy;
}

/* The analysis in @data, or NULL when it is not a whole, intact file of
 * this key for a launch of @n_insts instructions and @n_tbs blocks. */
static WsLaunchAnalysis *
decode (const uint8_t *data, gsize len, const uint8_t key[KEY_BYTES], guint n_insts, uint64_t n_tbs)
{
  if (len < 8 + 8 + KEY_BYTES + SUM_BYTES || memcmp (data, CACHE_MAGIC, 8) != 0)
    return NULL;
  uint8_t sum[SUM_BYTES];
  WsHash128 h;
  ws_hash128_init (&h);
  ws_hash128_update (&h, data, len - SUM_BYTES);
  ws_hash128_final (&h, sum);
  if (memcmp (sum, data + len - SUM_BYTES, SUM_BYTES) != 0)
    return NULL;
  Reader r = { data + 8, data + len - SUM_BYTES, FALSE };
  const uint32_t *format = take (&r, 2 * sizeof (uint32_t));
  const uint8_t *file_key = take (&r, KEY_BYTES);
  if (r.bad || format[0] != CACHE_FORMAT || memcmp (file_key, key, KEY_BYTES) != 0 || take_u64 (&r) != n_insts
      || take_u64 (&r) != n_tbs || n_tbs > (gsize) (r.end - r.p))
    return NULL;
  g_autoptr (WsLaunchAnalysis) a = g_new0 (WsLaunchAnalysis, 1);
  a->cache = g_new0 (WsCacheStats, 1);
  WsCacheStats *c = a->cache;
  c->n_insts = n_insts;
  c->pcs = take_copy (&r, n_insts * sizeof (WsCachePcStats));
  c->sectors = take_u64 (&r);
  c->l1_hits = take_u64 (&r);
  c->l2_hits = take_u64 (&r);
  c->dram_sectors = take_u64 (&r);
  c->writeback_sectors = take_u64 (&r);
  c->dram_bytes = take_u64 (&r);
  c->l1_hit_rate = take_f64 (&r);
  c->l2_hit_rate = take_f64 (&r);
  c->blocks_per_sm = (int) (int64_t) take_u64 (&r);
  a->latency = take_copy (&r, n_insts * sizeof (double));
  a->wavefronts = take_copy (&r, n_insts * sizeof (double));
  a->tb_issued = take_copy (&r, n_tbs * sizeof (uint64_t));
  a->tb_thread_issued = take_copy (&r, n_tbs * sizeof (uint64_t));
  a->tb_critical = take_copy (&r, n_tbs * sizeof (double));
  a->issued = take_u64 (&r);
  a->thread_issued = take_u64 (&r);
  a->rep_tb = take_u64 (&r);
  a->rep_warp = (uint32_t) take_u64 (&r);
  a->n_profiled = (guint) take_u64 (&r);
  a->profiled_tbs = take_u64 (&r);
  a->simulated_tbs = take_u64 (&r);
  a->recorded_tbs = take_u64 (&r);
  a->waves = take_u64 (&r);
  a->sample_waves = (guint) take_u64 (&r);
  a->rep = g_new0 (WsIntervalProfile, 1);
  a->rep->intervals = g_array_new (FALSE, FALSE, sizeof (WsInterval));
  a->rep->insts = take_u64 (&r);
  a->rep->cycles = take_f64 (&r);
  a->rep->perf = take_f64 (&r);
  a->rep->thread_insts = take_u64 (&r);
  uint64_t n_intervals = take_u64 (&r);
  if (r.bad || n_intervals > (uint64_t) (r.end - r.p) / 24)
    return NULL;
  for (uint64_t i = 0; i < n_intervals; i++)
    {
      WsInterval iv = { 0 };
      iv.insts = (uint32_t) take_u64 (&r);
      iv.stall_cycles = take_f64 (&r);
      iv.stall_inst = (uint32_t) take_u64 (&r);
      g_array_append_val (a->rep->intervals, iv);
    }
  if (r.bad || r.p != r.end || (n_tbs > 0 && a->rep_tb >= n_tbs))
    return NULL;
  return g_steal_pointer (&a);
}

/* ---- the cached getter --------------------------------------------------------- */

WsLaunchAnalysis *
ws_launch_analysis_get (WsTrace *trace, guint launch, const WsGpu *gpu, gboolean *from_cache, GError **error)
{
  g_return_val_if_fail (trace != NULL && gpu != NULL, NULL);
  if (from_cache != NULL)
    *from_cache = FALSE;
  if (launch >= ws_trace_get_n_launches (trace))
    return ws_launch_analysis_new (trace, launch, gpu, error); /* its error message */
  const WsTraceLaunch *l = ws_trace_get_launch (trace, launch);
  const WsTraceKernel *k = ws_trace_get_kernel (trace, l->kernel);
  uint64_t n_tbs = 0;
  ws_trace_get_tb_counters (trace, launch, &n_tbs);
  uint8_t key[KEY_BYTES];
  g_autofree char *folder = NULL;
  g_autofree char *path = NULL;
  if (cache_key (trace, launch, gpu, key) && (folder = cache_folder (trace)) != NULL)
    {
      g_autofree char *name = hex_of (key, KEY_BYTES);
      g_autofree char *file = g_strconcat (name, ".wsa", NULL);
      path = g_build_filename (folder, file, NULL);
      g_autofree char *data = NULL;
      gsize len = 0;
      if (g_file_get_contents (path, &data, &len, NULL))
        {
          WsLaunchAnalysis *a = decode ((const uint8_t *) data, len, key, k->n_insts, n_tbs);
          if (a != NULL)
            {
              a->trace = trace;
              a->launch = launch;
              a->gpu = ws_gpu_copy (gpu);
              a->cache->gpu = g_strdup (gpu->name);
              if (from_cache != NULL)
                *from_cache = TRUE;
              return a;
            }
        }
    }
  WsLaunchAnalysis *a = ws_launch_analysis_new (trace, launch, gpu, error);
  if (a != NULL && path != NULL)
    {
      g_autoptr (GByteArray) b = encode (a, k->n_insts, n_tbs, key);
      /* best effort: an analysis that cannot be stored is still returned */
      (void) g_file_set_contents_full (path, (const char *) b->data, b->len, G_FILE_SET_CONTENTS_CONSISTENT, 0644,
                                       NULL);
    }
  return a;
}
