/* ws-analysis-cache.c: the launch analysis kept on disk, one file per
 * (launch content, GPU record, Warpscope build), through the trace's
 * derived-file store (core/trace/ws-trace-cache.c: where the files live,
 * integrity, atomic writes, the build's identity).
 *
 * The analysis (cache simulation, latencies, interval profiles, the
 * representative warp) is a pure function of the launch's recorded streams,
 * the GPU record and the code that computes it, so its key text is
 *  - the launch digest (ws_trace_launch_digest: kernel, configuration and
 *    the checksums of the compressed streams, not the file's path), so a
 *    launch repeated on the same data in the same trace (spmv's 20 launches
 *    are 2 distinct ones) or in a copy of it shares one file;
 *  - the GPU record as JSON (every catalogue field: a changed latency or
 *    cache size is another key);
 *  - whether the analysis samples large launches (WARPSCOPE_ANALYSIS_SAMPLE).
 * A file that is damaged or describes another launch shape is ignored and
 * rewritten, so a damaged cache costs a recomputation, never a wrong or
 * failed prediction. */
#include "interval/ws-interval.h"
#include "interval/ws-launch-analysis-private.h"

#include <json-glib/json-glib.h>
#include <string.h>

/* The payload's layout version: change it with the fields below. */
#define PAYLOAD_FORMAT 1u

/* The key text of (@trace's launch @launch, @gpu). */
static char *
key_text (WsTrace *trace, guint launch, const WsGpu *gpu)
{
  g_autofree char *digest = ws_trace_launch_digest (trace, launch);
  g_autoptr (JsonNode) node = ws_gpu_to_json (gpu);
  g_autofree char *gpu_json = json_to_string (node, FALSE);
  /* a sampled analysis is another result than a whole one */
  return g_strdup_printf ("%s\n%s\n%s", digest, ws_launch_analysis_samples () ? "sampled" : "every block", gpu_json);
}

/* ---- the payload: the fields in this order, native little-endian numbers
 * (a file is only ever read by the build that wrote it: its name says so). */

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
encode (const WsLaunchAnalysis *a, guint n_insts, uint64_t n_tbs)
{
  GByteArray *b = g_byte_array_new ();
  put_u64 (b, PAYLOAD_FORMAT);
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

/* The analysis in @data, or NULL when it is not a whole payload for a
 * launch of @n_insts instructions and @n_tbs blocks. */
static WsLaunchAnalysis *
decode (const uint8_t *data, gsize len, guint n_insts, uint64_t n_tbs)
{
  Reader r = { data, data + len, FALSE };
  if (take_u64 (&r) != PAYLOAD_FORMAT || take_u64 (&r) != n_insts || take_u64 (&r) != n_tbs
      || n_tbs > (gsize) (r.end - r.p))
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
  g_autofree char *key = key_text (trace, launch, gpu);
  g_autoptr (GBytes) stored = ws_trace_cache_load (trace, "wsa", key);
  if (stored != NULL)
    {
      gsize len = 0;
      const uint8_t *data = g_bytes_get_data (stored, &len);
      WsLaunchAnalysis *a = decode (data, len, k->n_insts, n_tbs);
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
  WsLaunchAnalysis *a = ws_launch_analysis_new (trace, launch, gpu, error);
  if (a != NULL)
    {
      g_autoptr (GByteArray) b = encode (a, k->n_insts, n_tbs);
      ws_trace_cache_store (trace, "wsa", key, b->data, b->len);
    }
  return a;
}
