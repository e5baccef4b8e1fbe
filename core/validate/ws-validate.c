/* ws-validate.c: the validation suite (see ws-validate.h).
 *
 * Each family below reads its dataset CSV per GPU, chooses the points to
 * emulate, runs its benchmark program (examples/validation) under the
 * emulator once per distinct command line (traces are cached), maps the
 * program's launches to the points, predicts each launch with every source
 * and converts the predicted time into the published quantity. */
#include "ws-config.h"
#include "validate/ws-validate.h"

#include <errno.h>
#include <math.h>
#include <string.h>
#include <unistd.h>
#include <glib/gstdio.h>

#include "base/ws-csv.h"
#include "bounds/ws-bounds.h"
#include "hw/ws-hw.h"
#include "interval/ws-interval.h"
#include "launch/ws-launch.h"
#include "launchcost/ws-launch-cost.h"
#include "predict/ws-predict.h"
#include "sim/ws-sim.h"
#include "tbpoint/ws-tbpoint.h"
#include "trace/ws-trace.h"

/* ------------------------------------------------------------------------ */
/* Families and GPUs */

static const WsValidateFamily families[] = {
  { "gpu-stream", "Streaming bandwidth against occupancy (2 blocks per SM)", "block size (threads)", "GB/s", FALSE,
    FALSE, WS_CHART_UNIT_NONE },
  { "gpu-latency", "Pointer-chase latency against footprint", "footprint", "cycles per load", TRUE, TRUE,
    WS_CHART_UNIT_BYTES },
  { "gpu-cache", "L1/L2 bandwidth against per-block volume (one block per SM)", "volume per block", "GB/s", TRUE, FALSE,
    WS_CHART_UNIT_BYTES },
  { "gpu-l2-cache", "L2/DRAM bandwidth against total footprint", "total footprint", "GB/s", TRUE, FALSE,
    WS_CHART_UNIT_BYTES },
  { "gpu-roofline", "FP32 FMA loop: performance against inner iterations", "FMAs per element (N)", "GFlop/s", TRUE,
    TRUE, WS_CHART_UNIT_NONE },
  { "gpu-small-kernels", "Back-to-back small kernels: bandwidth against size", "elements", "GB/s", TRUE, TRUE,
    WS_CHART_UNIT_NONE },
  { "gpu-strides", "Strided L1 loads of one 1024-thread block", "stride / block width", "cycles per warp load", FALSE,
    TRUE, WS_CHART_UNIT_NONE },
  { NULL }
};

const WsValidateFamily *
ws_validate_families (void)
{
  return families;
}

const WsValidateFamily *
ws_validate_family_find (const char *name)
{
  g_return_val_if_fail (name != NULL, NULL);
  for (const WsValidateFamily *f = families; f->name; f++)
    if (strcmp (f->name, name) == 0 || (g_str_has_prefix (f->name, "gpu-") && strcmp (f->name + 4, name) == 0))
      return f;
  return NULL;
}

/* The dataset's GPU names (shared/ground-truth/README.md) and the catalogue
 * records of those cards; why each record is the one is in its `sources`. */
static const struct {
  const char *dataset;
  const char *catalogue;
} gpu_map[] = {
  { "v100", "Tesla V100 PCIe" }, { "a100_40", "A100" },
  { "a100_80", "A100 80GB" },    { "a100", "A100" }, /* gpu-strides: 40 or 80 GB unstated; SM and L1 are the same */
  { "h100_pcie", "H100 PCIe" },  { "h200", "H200" },
};

const char *
ws_validate_catalogue_gpu (const char *dataset_gpu)
{
  for (guint i = 0; i < G_N_ELEMENTS (gpu_map); i++)
    if (strcmp (gpu_map[i].dataset, dataset_gpu) == 0)
      return gpu_map[i].catalogue;
  return NULL;
}

/* ------------------------------------------------------------------------ */
/* Report */

static void
point_free (gpointer data)
{
  WsValidatePoint *p = data;
  g_free (p->family);
  g_free (p->dataset_gpu);
  g_free (p->gpu);
  g_free (p->series);
  g_free (p->predicted);
  g_free (p->program);
  g_free (p);
}

void
ws_validate_report_free (WsValidateReport *r)
{
  if (r == NULL)
    return;
  g_clear_pointer (&r->sources, g_ptr_array_unref);
  g_clear_pointer (&r->points, g_ptr_array_unref);
  g_clear_pointer (&r->notes, g_ptr_array_unref);
  g_free (r->dataset_dir);
  g_free (r->source_seconds);
  g_free (r->bound_violations);
  g_free (r);
}

void
ws_validate_options_init (WsValidateOptions *o)
{
  memset (o, 0, sizeof *o);
}

double
ws_validate_point_error (const WsValidatePoint *p, guint source)
{
  double v = p->predicted[source];
  if (!isfinite (v) || !(p->measured > 0))
    return NAN;
  return (v - p->measured) / p->measured;
}

double
ws_validate_mape (const WsValidateReport *r, guint source, const char *family, const char *gpu, guint *n_out)
{
  double sum = 0;
  guint n = 0;
  for (guint i = 0; i < r->points->len; i++)
    {
      const WsValidatePoint *p = r->points->pdata[i];
      if ((family && strcmp (p->family, family) != 0) || (gpu && strcmp (p->dataset_gpu, gpu) != 0))
        continue;
      double e = ws_validate_point_error (p, source);
      if (isnan (e))
        continue;
      sum += fabs (e);
      n++;
    }
  if (n_out)
    *n_out = n;
  return n ? 100.0 * sum / n : NAN;
}

/* ------------------------------------------------------------------------ */
/* The run's context */

typedef struct {
  WsStore *store;
  const WsValidateOptions *o;
  WsValidateReport *report;
  char *programs_dir;
  char *cache_dir;           /* NULL: no cache */
  GPtrArray *plugins;        /* scan result */
  GPtrArray *plugin_sources; /* of WsPredictorPlugin* (borrowed), in report source order */
  gboolean run_sim, run_tbpoint;
  guint sim_source, tbpoint_source;
  GHashTable *gpus; /* catalogue name -> WsGpu* */
  GMutex lock;      /* the report, while points are predicted in parallel */
} Ctx;

static void progress (Ctx *c, const char *fmt, ...) G_GNUC_PRINTF (2, 3);

static void
progress (Ctx *c, const char *fmt, ...)
{
  if (c->o->progress == NULL)
    return;
  va_list ap;
  va_start (ap, fmt);
  g_autofree char *msg = g_strdup_vprintf (fmt, ap);
  va_end (ap);
  c->o->progress (msg, c->o->progress_data);
}

static void note (Ctx *c, const char *fmt, ...) G_GNUC_PRINTF (2, 3);

static void
note (Ctx *c, const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  char *msg = g_strdup_vprintf (fmt, ap);
  va_end (ap);
  g_mutex_lock (&c->lock);
  g_ptr_array_add (c->report->notes, msg);
  progress (c, "note: %s", msg);
  g_mutex_unlock (&c->lock);
}

static gboolean
source_wanted (const WsValidateOptions *o, const char *name)
{
  if (o->sources == NULL)
    return TRUE;
  for (guint i = 0; o->sources[i]; i++)
    if (strcmp (o->sources[i], name) == 0)
      return TRUE;
  return FALSE;
}

static gboolean
gpu_wanted (const WsValidateOptions *o, const char *dataset_gpu, const char *catalogue)
{
  if (o->gpus == NULL)
    return TRUE;
  for (guint i = 0; o->gpus[i]; i++)
    if (g_ascii_strcasecmp (o->gpus[i], dataset_gpu) == 0 || g_ascii_strcasecmp (o->gpus[i], catalogue) == 0)
      return TRUE;
  return FALSE;
}

static const WsGpu *
ctx_gpu (Ctx *c, const char *name)
{
  WsGpu *g = g_hash_table_lookup (c->gpus, name);
  if (g == NULL)
    {
      g_autoptr (GError) error = NULL;
      g = ws_store_get_gpu (c->store, name, &error);
      if (g == NULL)
        return NULL;
      g_hash_table_insert (c->gpus, g_strdup (name), g);
    }
  return g;
}

/* ------------------------------------------------------------------------ */
/* Programs and traces */

static char *
default_dataset_dir (void)
{
  const char *env = g_getenv ("WARPSCOPE_GROUND_TRUTH");
  if (env != NULL && *env)
    return g_strdup (env);
  g_autofree char *parent = g_path_get_dirname (WS_SOURCE_DIR);
  return g_build_filename (parent, "shared", "ground-truth", NULL);
}

static char *
default_programs_dir (void)
{
  const char *env = g_getenv ("WARPSCOPE_VALIDATION_PROGRAMS");
  if (env != NULL && *env)
    return g_strdup (env);
  return g_build_filename (WS_BUILD_DIR, "examples", "validation", NULL);
}

static char *
default_cache_dir (void)
{
  return g_build_filename (g_get_user_cache_dir (), "warpscope", "validate", NULL);
}

/* Profiles @program @args on the emulator as GPU @device (NULL: the
 * program does not ask the device anything that matters, so one trace
 * serves every GPU) and returns the trace's path.  Traces are cached under
 * a key of the program's identity (path, size, modification time), the
 * runtime's, the arguments and the device. */
static char *
profile (Ctx *c, const char *program, const char *const *args, const char *device, GError **error)
{
  g_autofree char *path = g_build_filename (c->programs_dir, program, NULL);
  GStatBuf st;
  if (g_stat (path, &st) != 0)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_NOT_FOUND,
                   "benchmark program %s is missing (built from examples/validation when nvcc is found; "
                   "or give --programs DIR)",
                   path);
      return NULL;
    }
  g_autofree char *runtime = ws_launch_find_runtime (error);
  if (runtime == NULL)
    return NULL;
  g_autofree char *lib = g_build_filename (runtime, "libcudart.so.13", NULL);
  GStatBuf rst = { 0 };
  g_stat (lib, &rst);
  g_autoptr (GString) key = g_string_new (NULL);
  g_string_append_printf (key, "%s|%" G_GINT64_FORMAT "|%" G_GINT64_FORMAT "|%" G_GINT64_FORMAT "|%s", path,
                          (gint64) st.st_size, (gint64) st.st_mtime, (gint64) rst.st_mtime, device ? device : "*");
  for (guint i = 0; args[i]; i++)
    g_string_append_printf (key, "|%s", args[i]);
  g_autofree char *hash = g_compute_checksum_for_string (G_CHECKSUM_SHA256, key->str, -1);
  g_autofree char *dir = NULL;
  if (c->cache_dir)
    dir = g_strdup (c->cache_dir);
  else
    dir = g_build_filename (g_get_tmp_dir (), "warpscope-validate", NULL);
  if (g_mkdir_with_parents (dir, 0700) != 0)
    {
      int saved = errno;
      g_set_error (error, WS_ERROR, WS_ERROR_IO, "cannot create %s: %s", dir, g_strerror (saved));
      return NULL;
    }
  g_autofree char *name = g_strdup_printf ("%s-%.16s.wstrace", program, hash);
  char *trace = g_build_filename (dir, name, NULL);
  if (c->cache_dir && g_file_test (trace, G_FILE_TEST_IS_REGULAR))
    return trace;

  g_autofree char *cmd = ws_launch_command_line (path, args);
  progress (c, "emulating %s%s%s", cmd, device ? " as " : "", device ? device : "");
  g_autofree char *tmp = g_strdup_printf ("%s.%d.part", trace, (int) getpid ());
  WsLaunchOptions lo;
  ws_launch_options_init (&lo);
  lo.gpu = device;
  lo.db = ws_store_get_path (c->store);
  lo.trace = tmp;
  lo.capture = TRUE;
  gint64 t0 = g_get_monotonic_time ();
  g_autoptr (WsLaunchResult) res = ws_launch_run (path, args, &lo, c->o->cancellable, error);
  c->report->emulation_seconds += (g_get_monotonic_time () - t0) / 1e6;
  if (res == NULL || res->exit_code != 0)
    {
      if (res != NULL)
        g_set_error (error, WS_ERROR, WS_ERROR_FAILED, "%s failed on the emulator (exit %d): %s", cmd, res->exit_code,
                     res->stderr_tail ? res->stderr_tail : "");
      g_unlink (tmp);
      g_free (trace);
      return NULL;
    }
  if (g_rename (tmp, trace) != 0)
    {
      int saved = errno;
      g_set_error (error, WS_ERROR, WS_ERROR_IO, "cannot move %s to %s: %s", tmp, trace, g_strerror (saved));
      g_free (trace);
      return NULL;
    }
  return trace;
}

/* The launches of kernels whose name contains @kernel, in trace order. */
static GArray *
launches_of (WsTrace *t, const char *kernel)
{
  GArray *a = g_array_new (FALSE, FALSE, sizeof (guint));
  for (guint l = 0; l < ws_trace_get_n_launches (t); l++)
    {
      const WsTraceLaunch *L = ws_trace_get_launch (t, l);
      const WsTraceKernel *k = ws_trace_get_kernel (t, L->kernel);
      if (strstr (k->name, kernel) != NULL)
        g_array_append_val (a, l);
    }
  return a;
}

/* ------------------------------------------------------------------------ */
/* Predicting one launch with every source */

static void
add_seconds (Ctx *c, guint source, double seconds)
{
  g_mutex_lock (&c->lock);
  c->report->source_seconds[source] += seconds;
  g_mutex_unlock (&c->lock);
}

/* Seconds per source for launch @l of @t on @gpu; @warm (n_warm entries)
 * are the launches before it whose cache state it finds on the hardware
 * (the simulators warm their L2 with them; the analytical models see one
 * launch). */
/* What one task predicts: the plugins (sharing one trace analysis), the
 * full simulation, or the TBPoint simulation — three independent parts. */
typedef enum { PART_PLUGINS, PART_SIM, PART_TBPOINT, N_PARTS } Part;

static void
predict_launch (Ctx *c, WsTrace *t, guint l, const guint *warm, guint n_warm, const WsGpu *gpu, Part part,
                double *seconds)
{
  const WsTraceLaunch *L = ws_trace_get_launch (t, l);
  const char *kname = ws_trace_get_kernel (t, L->kernel)->name;
  double hz = gpu->core_clock_mhz * 1e6;
  g_autoptr (GError) error = NULL;
  if (part == PART_PLUGINS && c->plugin_sources->len > 0)
    {
      gint64 ta = g_get_monotonic_time ();
      g_autoptr (WsLaunchAnalysis) analysis = ws_launch_analysis_get (t, l, gpu, NULL, &error);
      /* The shared analysis is charged to the plugins in equal parts. */
      for (guint s = 0; s < c->plugin_sources->len; s++)
        add_seconds (c, s, (g_get_monotonic_time () - ta) / 1e6 / c->plugin_sources->len);
      if (analysis == NULL)
        {
          note (c, "%s launch %u on %s: trace analysis failed: %s", kname, l, gpu->name, error->message);
          g_clear_error (&error);
        }
      for (guint s = 0; analysis && s < c->plugin_sources->len; s++)
        {
          const WsPredictorPlugin *p = c->plugin_sources->pdata[s];
          gint64 tp = g_get_monotonic_time ();
          g_autoptr (WsPrediction) pred = ws_predict_trace (p, gpu, t, l, analysis, NULL, &error);
          add_seconds (c, s, (g_get_monotonic_time () - tp) / 1e6);
          if (pred == NULL)
            {
              note (c, "%s on %s, %s launch %u: %s", p->name, gpu->name, kname, l, error->message);
              g_clear_error (&error);
              continue;
            }
          seconds[s] = pred->seconds > 0 ? pred->seconds : pred->cycles / hz;
        }
    }
  if (part != PART_PLUGINS)
    {
      gboolean tbpoint = part == PART_TBPOINT;
      if (tbpoint ? !c->run_tbpoint : !c->run_sim)
        return;
      gint64 ts = g_get_monotonic_time ();
      WsTbpointOptions to;
      ws_tbpoint_options_init (&to);
      to.sampling = tbpoint ? WS_SAMPLING_TBPOINT : WS_SAMPLING_NONE;
      to.cancellable = c->o->cancellable;
      g_autoptr (WsSim) sim = ws_sim_new (gpu, &to.sim, &error);
      if (sim == NULL)
        {
          note (c, "simulator on %s: %s", gpu->name, error->message);
          g_clear_error (&error);
          return;
        }
      ws_sim_set_cancellable (sim, c->o->cancellable);
      gboolean ok = TRUE;
      for (guint w = 0; ok && w < n_warm; w++)
        ok = ws_sim_warm_launch (sim, t, warm[w], &error);
      WsSimLaunchStats stats = { 0 };
      if (ok)
        ok = ws_tbpoint_simulate_launch (sim, t, l, &to, &stats, NULL, NULL, &error);
      if (ok)
        seconds[tbpoint ? c->tbpoint_source : c->sim_source] = stats.cycles / hz;
      else
        {
          note (c, "%s on %s, %s launch %u: %s", tbpoint ? "simulator-tbpoint" : "simulator", gpu->name, kname, l,
                error->message);
          g_clear_error (&error);
        }
      ws_sim_launch_stats_clear (&stats);
      add_seconds (c, tbpoint ? c->tbpoint_source : c->sim_source, (g_get_monotonic_time () - ts) / 1e6);
    }
}

/* Counts a prediction below the launch's physical lower bound (it is a bug
 * of that source, see docs/bounds.md) and says which. */
static void
check_bound (Ctx *c, WsTrace *t, guint l, const WsGpu *gpu, const double *seconds, gboolean count)
{
  g_autoptr (GError) error = NULL;
  WsLaunchCounts counts;
  WsLaunchBound b;
  if (!ws_launch_counts_cached (t, l, &counts, &error) || !ws_launch_bound_from_counts (&counts, gpu, &b, &error))
    {
      note (c, "bound of launch %u on %s: %s", l, gpu->name, error->message);
      return;
    }
  if (count)
    {
      g_mutex_lock (&c->lock);
      c->report->bound_checks++;
      g_mutex_unlock (&c->lock);
    }
  for (guint s = 0; s < c->report->sources->len; s++)
    if (isfinite (seconds[s]) && seconds[s] < b.seconds * (1 - 1e-9))
      {
        g_mutex_lock (&c->lock);
        c->report->bound_violations[s]++;
        g_mutex_unlock (&c->lock);
        note (c, "%s beats the physical bound on %s: %s launch %u predicted %.4g s, bound %.4g s (%s)",
              (const char *) c->report->sources->pdata[s], gpu->name,
              ws_trace_get_kernel (t, ws_trace_get_launch (t, l)->kernel)->name, l, seconds[s], b.seconds, b.limiter);
      }
}

/* How a predicted time becomes the published quantity. */
typedef enum {
  METRIC_RATE, /* value = scale / seconds (GB/s: bytes / 1e9; GFlop/s: flops / 1e9) */
  METRIC_TIME, /* value = seconds * scale (cycles per load: clock / loads) */
} MetricKind;

typedef struct {
  const char *series;
  double x;
  double measured;
  guint launch;
  gboolean has_base; /* predict launch minus base_launch (both after the same warm launches) */
  guint base_launch;
  GArray *warm; /* of guint (may be NULL) */
  MetricKind kind;
  double scale;
  double extra_seconds;     /* added to every prediction (a per-launch cost the model does not see) */
  gboolean back_to_back;    /* one of many launches in a row: time per launch by core/launchcost */
  WsLaunchMode launch_mode; /* with back_to_back */
} Pending;

static void
pending_clear (gpointer data)
{
  Pending *p = data;
  g_clear_pointer (&p->warm, g_array_unref);
}

/* Whether TBPoint can sample launch @l on @gpu: without a homogeneous
 * region (one wave of blocks, or blocks all unalike) it simulates every
 * block, exactly as the full simulation does, which then stands for it. */
static gboolean
tbpoint_samples (WsTrace *t, guint l, const WsGpu *gpu)
{
  WsTbpointOptions o;
  ws_tbpoint_options_init (&o);
  g_autoptr (WsTbpointRegions) r = ws_tbpoint_regions (t, l, gpu, o.intra_threshold, o.vf_threshold, NULL);
  return r == NULL || r->n_regions > 0;
}

typedef struct {
  Ctx *c;
  WsTrace *t;
  const WsGpu *gpu;
  const Pending *q;
  Part part;
  gboolean counts; /* this task counts the launch in bound_checks (one per point) */
  double *seconds; /* out: one per source (this part's sources only), NaN where it failed */
} Task;

static void
predict_pending (gpointer data, gpointer user_data)
{
  Task *k = data;
  Ctx *c = k->c;
  const Pending *q = k->q;
  guint n = c->report->sources->len;
  if (g_cancellable_is_cancelled (c->o->cancellable))
    return;
  const guint *warm = q->warm ? (const guint *) q->warm->data : NULL;
  guint n_warm = q->warm ? q->warm->len : 0;
  /* This part's sources only: the point's row is shared with the other
   * parts' tasks, so work on a private copy and write back what is ours. */
  g_autofree double *mine = g_new (double, n), *base = g_new (double, n);
  for (guint s = 0; s < n; s++)
    mine[s] = base[s] = NAN;
  predict_launch (c, k->t, q->launch, warm, n_warm, k->gpu, k->part, mine);
  check_bound (c, k->t, q->launch, k->gpu, mine, k->counts);
  if (q->has_base)
    {
      predict_launch (c, k->t, q->base_launch, warm, n_warm, k->gpu, k->part, base);
      check_bound (c, k->t, q->base_launch, k->gpu, base, k->counts);
      for (guint s = 0; s < n; s++)
        mine[s] -= base[s];
    }
  for (guint s = 0; s < n; s++)
    if (!isnan (mine[s]))
      k->seconds[s] = mine[s];
}

static gint
by_cost_descending (gconstpointer a, gconstpointer b, gpointer data)
{
  const double *cost = data;
  double ca = cost[*(const guint *) a], cb = cost[*(const guint *) b];
  if (ca != cb)
    return ca > cb ? -1 : 1;
  return *(const guint *) a < *(const guint *) b ? -1 : *(const guint *) a > *(const guint *) b;
}

/* Predicts every pending point of one trace on one GPU (in parallel, one
 * point per worker: every source's state is per prediction) and adds them
 * to the report in order. */
static void
evaluate (Ctx *c, const WsValidateFamily *fam, const char *dataset_gpu, const WsGpu *gpu, const char *trace_path,
          const char *program_cmd, GArray *pending)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WsTrace) t = ws_trace_open (trace_path, &error);
  if (t == NULL)
    {
      note (c, "%s on %s: %s", fam->name, gpu->name, error->message);
      return;
    }
  guint n = c->report->sources->len;
  /* One task per point and part, each writing its own sources' slots of
   * the point's row: a single long simulation runs beside the others. */
  g_autofree Task *tasks = g_new0 (Task, (gsize) pending->len * N_PARTS);
  g_autofree double *seconds = g_new (double, (gsize) n *MAX (pending->len, 1));
  g_autofree gboolean *valid = g_new0 (gboolean, MAX (pending->len, 1));
  g_autofree gboolean *tbpoint_is_sim = g_new0 (gboolean, MAX (pending->len, 1));
  guint workers = MIN (g_get_num_processors (), 8);
  GThreadPool *pool = g_thread_pool_new (predict_pending, NULL, (int) MAX (workers, 1), TRUE, NULL);
  /* The points go to the workers longest first (warp instructions of the
   * launch and its base), so that the last of this trace's tasks are
   * short and no worker idles long before the next trace (the longest
   * processing time rule). */
  g_autofree guint *by_cost = g_new (guint, MAX (pending->len, 1));
  g_autofree double *cost = g_new0 (double, MAX (pending->len, 1));
  for (guint i = 0; i < pending->len; i++)
    {
      const Pending *q = &g_array_index (pending, Pending, i);
      by_cost[i] = i;
      if (q->launch < ws_trace_get_n_launches (t))
        cost[i] += (double) ws_trace_get_launch (t, q->launch)->warp_instructions;
      if (q->has_base && q->base_launch < ws_trace_get_n_launches (t))
        cost[i] += (double) ws_trace_get_launch (t, q->base_launch)->warp_instructions;
    }
  g_qsort_with_data (by_cost, (gint) pending->len, sizeof (guint), by_cost_descending, cost);
  for (guint k_i = 0; k_i < pending->len; k_i++)
    {
      guint i = by_cost[k_i];
      Pending *q = &g_array_index (pending, Pending, i);
      for (guint s = 0; s < n; s++)
        seconds[(gsize) i * n + s] = NAN;
      if (q->launch >= ws_trace_get_n_launches (t) || (q->has_base && q->base_launch >= ws_trace_get_n_launches (t)))
        {
          note (c, "%s on %s: launch %u is not in %s (%u launches)", fam->name, gpu->name, q->launch, trace_path,
                ws_trace_get_n_launches (t));
          continue;
        }
      valid[i] = TRUE;
      tbpoint_is_sim[i] = c->run_sim && c->run_tbpoint && !tbpoint_samples (t, q->launch, gpu)
                          && !(q->has_base && tbpoint_samples (t, q->base_launch, gpu));
      /* The longest part first: the full simulation. */
      static const Part order[N_PARTS] = { PART_SIM, PART_TBPOINT, PART_PLUGINS };
      for (guint p = 0; p < N_PARTS; p++)
        {
          if (order[p] == PART_TBPOINT && tbpoint_is_sim[i])
            continue;
          Task *k = &tasks[(gsize) i * N_PARTS + p];
          *k = (Task){
            .c = c, .t = t, .gpu = gpu, .q = q, .part = order[p], .counts = p == 0, .seconds = seconds + (gsize) i * n
          };
          g_thread_pool_push (pool, k, NULL);
        }
    }
  g_thread_pool_free (pool, FALSE, TRUE);
  if (g_cancellable_is_cancelled (c->o->cancellable))
    return;
  for (guint i = 0; i < pending->len; i++)
    {
      const Pending *q = &g_array_index (pending, Pending, i);
      if (!valid[i])
        continue;
      WsValidatePoint *p = g_new0 (WsValidatePoint, 1);
      p->family = g_strdup (fam->name);
      p->dataset_gpu = g_strdup (dataset_gpu);
      p->gpu = g_strdup (gpu->name);
      p->series = g_strdup (q->series);
      p->x = q->x;
      p->measured = q->measured;
      p->program = g_strdup (program_cmd);
      p->launch = q->launch;
      p->predicted = g_new (double, n);
      if (tbpoint_is_sim[i])
        seconds[(gsize) i * n + c->tbpoint_source] = seconds[(gsize) i * n + c->sim_source];
      for (guint s = 0; s < n; s++)
        {
          double raw = seconds[(gsize) i * n + s];
          double sec = raw + q->extra_seconds;
          if (q->back_to_back && isfinite (raw) && raw >= 0)
            sec = ws_launch_cost_wall_seconds (gpu, q->launch_mode, raw) + q->extra_seconds;
          if (!isfinite (raw) || !(sec > 0))
            p->predicted[s] = NAN;
          else
            p->predicted[s] = q->kind == METRIC_RATE ? q->scale / sec : sec * q->scale;
        }
      g_ptr_array_add (c->report->points, p);
    }
}

/* ------------------------------------------------------------------------ */
/* Dataset helpers */

static WsCsvTable *
load_dataset (Ctx *c, const WsValidateFamily *fam, const char *dataset_gpu)
{
  g_autofree char *file = g_strconcat (dataset_gpu, ".csv", NULL);
  g_autofree char *path = g_build_filename (c->report->dataset_dir, fam->name, file, NULL);
  g_autoptr (GError) error = NULL;
  WsCsvTable *t = ws_csv_table_load (path, &error);
  if (t == NULL)
    note (c, "%s: %s", fam->name, error->message);
  return t;
}

static int
compare_strings (gconstpointer a, gconstpointer b)
{
  return strcmp (*(char *const *) a, *(char *const *) b);
}

static int
compare_doubles (gconstpointer a, gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

/* The dataset GPUs of a family (file names of its folder, sorted). */
static GPtrArray *
dataset_gpus (Ctx *c, const WsValidateFamily *fam)
{
  GPtrArray *a = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *dir = g_build_filename (c->report->dataset_dir, fam->name, NULL);
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;
  while (d && (name = g_dir_read_name (d)) != NULL)
    if (g_str_has_suffix (name, ".csv"))
      g_ptr_array_add (a, g_strndup (name, strlen (name) - 4));
  g_ptr_array_sort (a, compare_strings);
  return a;
}

static double
cell (const WsCsvTable *t, guint row, const char *column)
{
  int col = ws_csv_table_find_column (t, column);
  double v = NAN;
  if (col < 0 || !ws_csv_table_get_double (t, row, col, &v, NULL))
    return NAN;
  return v;
}

/* Keeps every @stride-th of @n sorted values (always the first and the
 * last): the default selection thins a sweep evenly over its range. */
static gboolean
keep_index (guint i, guint n, guint stride)
{
  return stride <= 1 || i == 0 || i + 1 == n || i % stride == 0;
}

/* The rows of a sweep to emulate: those with a finite @key_column, and by
 * default (not --all-points) only those whose @size_column (times
 * @size_scale) is at most @max_size, every @stride-th of them; @keys gets
 * the key column's values. */
static GArray *
select_rows (Ctx *c, const WsCsvTable *t, const char *key_column, const char *size_column, double size_scale,
             double max_size, guint stride, GArray *keys)
{
  GArray *rows = g_array_new (FALSE, FALSE, sizeof (guint));
  guint n = ws_csv_table_get_n_rows (t), n_small = 0;
  for (guint r = 0; r < n; r++)
    if (cell (t, r, size_column) * size_scale <= max_size)
      n_small++;
  for (guint r = 0; r < n; r++)
    {
      double key = cell (t, r, key_column);
      double size = cell (t, r, size_column) * size_scale;
      if (!isfinite (key) || (!c->o->all_points && (size > max_size || !keep_index (r, n_small, stride))))
        continue;
      g_array_append_val (rows, r);
      g_array_append_val (keys, key);
    }
  return rows;
}

static char *
join_doubles (GArray *v, const char *fmt)
{
  g_autoptr (GString) s = g_string_new (NULL);
  for (guint i = 0; i < v->len; i++)
    {
      if (i)
        g_string_append_c (s, ',');
      g_string_append_printf (s, fmt, g_array_index (v, double, i));
    }
  return g_string_free (g_steal_pointer (&s), FALSE);
}

/* Profiles one command line (or reports why not) and returns the trace
 * path; @device as for profile(). */
static char *
run_program (Ctx *c, const WsValidateFamily *fam, const char *gpu_name, const char *program, GPtrArray *args,
             const char *device, char **cmd_out)
{
  g_ptr_array_add (args, NULL);
  g_autoptr (GError) error = NULL;
  char *trace = profile (c, program, (const char *const *) args->pdata, device, &error);
  *cmd_out = g_strjoinv (" ", (char **) args->pdata);
  char *full = g_strconcat (program, " ", *cmd_out, NULL);
  g_free (*cmd_out);
  *cmd_out = full;
  if (trace == NULL)
    note (c, "%s on %s: %s", fam->name, gpu_name, error->message);
  return trace;
}

/* ------------------------------------------------------------------------ */
/* gpu-stream: six FP64 stream kernels at exactly 2 blocks per SM, block size
 * swept (the occupancy sweep).  GB/s = streams x n x 8 B / time. */

static const struct {
  const char *kernel;
  const char *column;
  int streams;
} stream_kernels[] = {
  { "init", "init_GBps", 1 },
  { "read", "read_GBps", 1 },
  { "scale", "scale_GBps", 2 },
  { "triad", "triad_GBps", 3 },
  { "stencil1d3pt", "stencil1d3pt_GBps", 2 },
  { "stencil1d5pt", "stencil1d5pt_GBps", 2 },
};

/* Elements per array when emulated (published 2^27 + 2): a rate over many
 * waves does not depend on the array length once the grid spans several
 * waves at the largest block (2^21 doubles: 7.75 waves of 2 x 1024-thread
 * blocks on 132 SMs, 2048 blocks).  What the length does change is the L2:
 * 16 MiB arrays fit in it, 1 GB arrays do not.  So every stream launch is
 * preceded by `l2_pollute` streaming twice the L2 of another buffer with
 * the kernel's own load/store mix (vstream: each 256-byte chunk written
 * with probability stores / (loads + stores) by a hash of its index, read
 * otherwise), which leaves the L2 as the
 * published run's earlier launches of the same kernel leave it: full of
 * lines the launch does not use (every load misses), dirty in the kernel's
 * store share (read 0, init 1, scale 1/2, triad 1/3), so its allocations
 * evict dirty data as often as in the published steady state; the
 * simulators warm their L2 with that launch.  An all-dirty L2 (the pollute
 * writing only) charged read one write-back per line: A100 read at 1024
 * threads 760 GB/s simulated, 1490 measured. */
#define STREAM_N 2097152
static void
family_stream (Ctx *c, const WsValidateFamily *fam, const char *dgpu, const WsGpu *gpu)
{
  g_autoptr (WsCsvTable) t = load_dataset (c, fam, dgpu);
  if (t == NULL)
    return;
  guint rows = ws_csv_table_get_n_rows (t);
  g_autoptr (GArray) bs = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr (GArray) row_of = g_array_new (FALSE, FALSE, sizeof (guint));
  for (guint r = 0; r < rows; r++)
    {
      double b = cell (t, r, "block_size_threads");
      /* Default: 32, 128 and 1024 threads per block: the rise, where
       * occupancy limits bandwidth, and the plateau. */
      if (!isfinite (b) || (!c->o->all_points && b != 32 && b != 128 && b != 1024))
        continue;
      g_array_append_val (bs, b);
      g_array_append_val (row_of, r);
    }
  g_autofree char *bs_list = join_doubles (bs, "%.0f");
  g_autoptr (GPtrArray) args = g_ptr_array_new_with_free_func (g_free);
  g_ptr_array_add (args, g_strdup_printf ("n=%d", STREAM_N));
  g_ptr_array_add (args, g_strdup_printf ("block_sizes=%s", bs_list));
  if (!c->o->all_points)
    g_ptr_array_add (args, g_strdup ("kernels=init,read,scale,triad"));
  g_ptr_array_add (args, g_strdup_printf ("pollute=%.0f", 2.0 * gpu->l2_size));
  g_autofree char *cmd = NULL;
  g_autofree char *trace = run_program (c, fam, gpu->name, "vstream", args, gpu->name, &cmd);
  if (trace == NULL)
    return;
  g_autoptr (WsTrace) tr = ws_trace_open (trace, NULL);
  g_autoptr (GArray) pending = g_array_new (FALSE, TRUE, sizeof (Pending));
  g_array_set_clear_func (pending, pending_clear);
  for (guint k = 0; tr && k < G_N_ELEMENTS (stream_kernels); k++)
    {
      if (!c->o->all_points && k >= 4)
        break; /* the stencils stream like scale: kept for --all-points */
      g_autoptr (GArray) ls = launches_of (tr, stream_kernels[k].kernel);
      /* "read" is a substring of no other kernel name; "scale" neither. */
      if (ls->len != bs->len)
        {
          note (c, "gpu-stream on %s: %u launches of %s in %s, expected %u", gpu->name, ls->len,
                stream_kernels[k].kernel, trace, bs->len);
          continue;
        }
      for (guint i = 0; i < bs->len; i++)
        {
          double m = cell (t, g_array_index (row_of, guint, i), stream_kernels[k].column);
          if (!isfinite (m))
            continue;
          guint l = g_array_index (ls, guint, i);
          Pending q = { .series = stream_kernels[k].kernel,
                        .x = g_array_index (bs, double, i),
                        .measured = m,
                        .launch = l,
                        .warm = g_array_new (FALSE, FALSE, sizeof (guint)),
                        .kind = METRIC_RATE,
                        .scale = stream_kernels[k].streams * (double) STREAM_N * 8 / 1e9 };
          if (l > 0)
            g_array_append_val (q.warm, (guint){ l - 1 }); /* the l2_pollute launch */
          g_array_append_val (pending, q);
        }
    }
  evaluate (c, fam, dgpu, gpu, trace, cmd, pending);
}

/* ------------------------------------------------------------------------ */
/* gpu-latency: one block of 64 threads chasing a random cycle of LEN nodes
 * 64 B apart; a warm-up launch, then the timed one.  cycles per load =
 * time / iters x the clock the file reports. */

/* Loads per launch when emulated: iters = max(LEN, LATENCY_MIN_ITERS), and
 * a second timed launch walks LATENCY_EXTRA_ITERS more.  The latency per
 * load is the difference of the two over LATENCY_EXTRA_ITERS: the first
 * pass's cold misses, the launch and the kernel's end cancel, leaving the
 * steady state that the published 10^6-load launches average over. */
#define LATENCY_MIN_ITERS 1024
#define LATENCY_EXTRA_ITERS 8192
/* Largest footprint emulated by default: over twice the largest L2 of the
 * dataset's GPUs (50 MB), well into the DRAM plateau. */
#define LATENCY_MAX_FOOTPRINT (96.0 * 1024 * 1024)

static void
family_latency (Ctx *c, const WsValidateFamily *fam, const char *dgpu, const WsGpu *gpu)
{
  g_autoptr (WsCsvTable) t = load_dataset (c, fam, dgpu);
  if (t == NULL)
    return;
  g_autoptr (GArray) lens = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr (GArray)
    row_of = select_rows (c, t, "chain_elements_derived", "footprint_bytes_derived", 1, LATENCY_MAX_FOOTPRINT, 6, lens);
  g_autofree char *list = join_doubles (lens, "%.0f");
  g_autoptr (GPtrArray) args = g_ptr_array_new_with_free_func (g_free);
  g_ptr_array_add (args, g_strdup_printf ("lens=%s", list));
  g_ptr_array_add (args, g_strdup_printf ("min_iters=%d", LATENCY_MIN_ITERS));
  g_ptr_array_add (args, g_strdup_printf ("extra_iters=%d", LATENCY_EXTRA_ITERS));
  g_autofree char *cmd = NULL;
  /* The chase asks the device nothing: one trace serves every GPU. */
  g_autofree char *trace = run_program (c, fam, gpu->name, "vlatency", args, NULL, &cmd);
  if (trace == NULL)
    return;
  g_autoptr (WsTrace) tr = ws_trace_open (trace, NULL);
  g_autoptr (GArray) ls = tr ? launches_of (tr, "pchase") : g_array_new (FALSE, FALSE, sizeof (guint));
  if (ls->len != 3 * lens->len)
    {
      note (c, "gpu-latency on %s: %u pchase launches in %s, expected %u (warm-up + two timed per length)", gpu->name,
            ls->len, trace, 3 * lens->len);
      return;
    }
  g_autoptr (GArray) pending = g_array_new (FALSE, TRUE, sizeof (Pending));
  g_array_set_clear_func (pending, pending_clear);
  for (guint i = 0; i < lens->len; i++)
    {
      guint r = g_array_index (row_of, guint, i);
      double clock = cell (t, r, "clock_MHz");
      Pending q = { .series = "latency",
                    .x = cell (t, r, "footprint_bytes_derived"),
                    .measured = cell (t, r, "latency_cycles_per_load"),
                    .launch = g_array_index (ls, guint, 3 * i + 2),
                    .has_base = TRUE,
                    .base_launch = g_array_index (ls, guint, 3 * i + 1),
                    .warm = g_array_new (FALSE, FALSE, sizeof (guint)),
                    .kind = METRIC_TIME,
                    .scale = (isfinite (clock) ? clock : gpu->core_clock_mhz) * 1e6 / LATENCY_EXTRA_ITERS };
      g_array_append_val (q.warm, g_array_index (ls, guint, 3 * i));
      g_array_append_val (pending, q);
    }
  evaluate (c, fam, dgpu, gpu, trace, cmd, pending);
}

/* ------------------------------------------------------------------------ */
/* gpu-cache: one 256-thread block per SM, every block sweeping the same
 * N-element double buffer.  GB/s = N x 8 x blocks x sweeps / time. */

/* Sweeps when emulated (published floor(1e8 / N) + 2): two launches, of S
 * and 2 S sweeps, and the bandwidth of their difference, N x 8 x blocks x
 * S / (t2 - t1): the first (cold) sweep, the launch's start and its end
 * cancel, leaving the steady state.  S = max(2, 2^16 / N) keeps each
 * launch's loads per block near 2^16 elements. */
static double
cache_sweeps (double n)
{
  return MAX (2.0, ceil (65536.0 / n));
}
/* Largest per-block volume emulated by default: past the L1 into the L2
 * plateau (L1s are at most 256 KiB); larger volumes only repeat it. */
#define CACHE_MAX_BYTES (1.5 * 1024 * 1024)

static void
family_cache (Ctx *c, const WsValidateFamily *fam, const char *dgpu, const WsGpu *gpu)
{
  g_autoptr (WsCsvTable) t = load_dataset (c, fam, dgpu);
  if (t == NULL)
    return;
  g_autoptr (GArray) sizes = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr (GArray) row_of = select_rows (c, t, "elements_per_block", "bytes_per_block", 1, CACHE_MAX_BYTES, 6, sizes);
  /* One launch per size with its own sweep count: a program run per sweep
   * count would multiply the runs, so the program takes the count per size
   * from `sweeps=0` (published rule) or one count for all; give it per
   * size by running sizes in groups of equal sweeps. */
  g_autoptr (GArray) pending = g_array_new (FALSE, TRUE, sizeof (Pending));
  g_array_set_clear_func (pending, pending_clear);
  guint i = 0;
  while (i < sizes->len)
    {
      double sweeps = cache_sweeps (g_array_index (sizes, double, i));
      guint j = i;
      g_autoptr (GArray) group = g_array_new (FALSE, FALSE, sizeof (double));
      while (j < sizes->len && cache_sweeps (g_array_index (sizes, double, j)) == sweeps)
        {
          g_array_append_val (group, g_array_index (sizes, double, j));
          j++;
        }
      g_autofree char *list = join_doubles (group, "%.0f");
      g_autoptr (GPtrArray) args = g_ptr_array_new_with_free_func (g_free);
      g_ptr_array_add (args, g_strdup_printf ("sizes=%s", list));
      g_ptr_array_add (args, g_strdup_printf ("sweeps=%.0f", sweeps));
      g_ptr_array_add (args, g_strdup_printf ("sweeps2=%.0f", 2 * sweeps));
      g_autofree char *cmd = NULL;
      g_autofree char *trace = run_program (c, fam, gpu->name, "vl1cache", args, gpu->name, &cmd);
      if (trace != NULL)
        {
          g_autoptr (WsTrace) tr = ws_trace_open (trace, NULL);
          g_autoptr (GArray) ls = tr ? launches_of (tr, "l1_sweep") : g_array_new (FALSE, FALSE, sizeof (guint));
          g_array_set_size (pending, 0);
          if (ls->len != 2 * group->len)
            note (c, "gpu-cache on %s: %u l1_sweep launches in %s, expected %u", gpu->name, ls->len, trace,
                  2 * group->len);
          else
            for (guint k = 0; k < group->len; k++)
              {
                guint r = g_array_index (row_of, guint, i + k);
                double n = g_array_index (group, double, k);
                guint l1 = g_array_index (ls, guint, 2 * k), l2 = g_array_index (ls, guint, 2 * k + 1);
                Pending q = { .series = "bandwidth",
                              .x = cell (t, r, "bytes_per_block"),
                              .measured = cell (t, r, "bandwidth_GBps"),
                              .launch = l2,
                              .has_base = TRUE,
                              .base_launch = l1,
                              .warm = g_array_new (FALSE, FALSE, sizeof (guint)),
                              .kind = METRIC_RATE,
                              .scale = n * 8 * gpu->sms * sweeps / 1e9 };
                if (l1 > 0)
                  g_array_append_val (q.warm, (guint){ l1 - 1 }); /* the l1_init that wrote the buffer */
                g_array_append_val (pending, q);
              }
          evaluate (c, fam, dgpu, gpu, trace, cmd, pending);
        }
      i = j;
    }
}

/* ------------------------------------------------------------------------ */
/* gpu-l2-cache: 1024-thread blocks, block b reads slot b mod R (512 KiB);
 * GB/s = 512 KiB x blocks / time. */

/* Blocks per launch when emulated: whole waves (2 resident 1024-thread
 * blocks per SM), at least 4 of them and at least 2 reads of every slot,
 * so that the rate is that of the steady state (the published 100 000
 * blocks are some 400 waves of the same; the ramp of the first wave and the
 * tail of the last weigh at most about an eighth here). */
static double
l2_blocks (double slots, const WsGpu *gpu)
{
  double wave = 2.0 * gpu->sms;
  double want = MAX (4 * wave, 2 * slots);
  return ceil (want / wave) * wave;
}
#define L2_MAX_FOOTPRINT (128.0 * 1024 * 1024)

static void
family_l2 (Ctx *c, const WsValidateFamily *fam, const char *dgpu, const WsGpu *gpu)
{
  g_autoptr (WsCsvTable) t = load_dataset (c, fam, dgpu);
  if (t == NULL)
    return;
  g_autoptr (GArray) slot_counts = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr (GArray)
    row_of = select_rows (c, t, "distinct_block_slots", "total_footprint_kB", 1024, L2_MAX_FOOTPRINT, 12, slot_counts);
  g_autoptr (GArray) pending = g_array_new (FALSE, TRUE, sizeof (Pending));
  g_array_set_clear_func (pending, pending_clear);
  for (guint i = 0; i < row_of->len; i++)
    {
      guint r = g_array_index (row_of, guint, i);
      double slots = g_array_index (slot_counts, double, i);
      double fp = cell (t, r, "total_footprint_kB") * 1024;
      /* One run per point: the block count depends on R. */
      double blocks = l2_blocks (slots, gpu);
      g_autoptr (GPtrArray) args = g_ptr_array_new_with_free_func (g_free);
      g_ptr_array_add (args, g_strdup_printf ("slots=%.0f", slots));
      g_ptr_array_add (args, g_strdup_printf ("blocks=%.0f", blocks));
      g_autofree char *cmd = NULL;
      g_autofree char *trace = run_program (c, fam, gpu->name, "vl2cache", args, NULL, &cmd);
      if (trace == NULL)
        continue;
      g_autoptr (WsTrace) tr = ws_trace_open (trace, NULL);
      g_autoptr (GArray) ls = tr ? launches_of (tr, "l2_stream") : g_array_new (FALSE, FALSE, sizeof (guint));
      if (ls->len < 1)
        {
          note (c, "gpu-l2-cache on %s: no l2_stream launch in %s", gpu->name, trace);
          continue;
        }
      guint l = g_array_index (ls, guint, ls->len - 1);
      double per_block = cell (t, r, "data_volume_per_block_kB") * 1024;
      Pending q = { .series = "bandwidth",
                    .x = fp,
                    .measured = cell (t, r, "bandwidth_GBps"),
                    .launch = l,
                    .warm = g_array_new (FALSE, FALSE, sizeof (guint)),
                    .kind = METRIC_RATE,
                    .scale = (isfinite (per_block) ? per_block : 512 * 1024.0) * blocks / 1e9 };
      for (guint w = 0; w < l; w++)
        g_array_append_val (q.warm, w); /* l2_init (and earlier repetitions) wrote the buffer */
      g_array_set_size (pending, 0);
      g_array_append_val (pending, q);
      evaluate (c, fam, dgpu, gpu, trace, cmd, pending);
    }
}

/* ------------------------------------------------------------------------ */
/* gpu-roofline: FP32 FMA chains of N per element pair, one full wave of
 * 256-thread blocks.  GFlop/s = (2 + 2N) x elements / time. */

/* Elements per thread when emulated (published 4000): one full-occupancy
 * wave runs either way, with the same per-element work; fewer elements
 * shorten each thread's loop.  At small N the loop is memory bound and
 * needs more iterations to reach its steady state (16 elements), at large N
 * the FMA chains dominate from the first element (4).  The start-up that
 * remains (first loads' latency) biases the predicted rate low by up to
 * about a tenth at N = 0; the simulation cost grows with m x N. */
static double
roofline_m (double n)
{
  return n <= 4 ? 16 : n <= 64 ? 8 : 4;
}
static void
family_roofline (Ctx *c, const WsValidateFamily *fam, const char *dgpu, const WsGpu *gpu)
{
  g_autoptr (WsCsvTable) t = load_dataset (c, fam, dgpu);
  if (t == NULL)
    return;
  guint rows = ws_csv_table_get_n_rows (t);
  /* Per N, the median over the file's devices (8 of one node on a100_40). */
  g_autoptr (GHashTable)
    by_n = g_hash_table_new_full (g_double_hash, g_double_equal, g_free, (GDestroyNotify) g_array_unref);
  for (guint r = 0; r < rows; r++)
    {
      double n = cell (t, r, "inner_iterations_N"), v = cell (t, r, "performance_GFlops");
      if (!isfinite (n) || !isfinite (v))
        continue;
      GArray *a = g_hash_table_lookup (by_n, &n);
      if (a == NULL)
        {
          a = g_array_new (FALSE, FALSE, sizeof (double));
          g_hash_table_insert (by_n, g_memdup2 (&n, sizeof n), a);
        }
      g_array_append_val (a, v);
    }
  static const double ns_default[] = { 0, 1, 4, 16, 64, 256 };
  static const double ns_all[] = { 0, 1, 2, 4, 8, 16, 24, 32, 64, 128, 256, 512 };
  const double *ns = c->o->all_points ? ns_all : ns_default;
  guint n_ns = c->o->all_points ? G_N_ELEMENTS (ns_all) : G_N_ELEMENTS (ns_default);
  g_autoptr (GArray) pending = g_array_new (FALSE, TRUE, sizeof (Pending));
  g_array_set_clear_func (pending, pending_clear);
  for (guint i = 0; i < n_ns; i++)
    {
      double n = ns[i];
      GArray *a = g_hash_table_lookup (by_n, &n);
      if (a == NULL)
        continue;
      g_array_sort (a, compare_doubles);
      double med = a->len % 2 ? g_array_index (a, double, a->len / 2)
                              : (g_array_index (a, double, a->len / 2 - 1) + g_array_index (a, double, a->len / 2)) / 2;
      double m = roofline_m (n);
      g_autoptr (GPtrArray) args = g_ptr_array_new_with_free_func (g_free);
      g_ptr_array_add (args, g_strdup_printf ("ns=%.0f", n));
      g_ptr_array_add (args, g_strdup_printf ("m=%.0f", m));
      g_autofree char *cmd = NULL;
      g_autofree char *trace = run_program (c, fam, gpu->name, "vroofline", args, gpu->name, &cmd);
      if (trace == NULL)
        continue;
      g_autoptr (WsTrace) tr = ws_trace_open (trace, NULL);
      g_autoptr (GArray) ls = tr ? launches_of (tr, "roofline") : g_array_new (FALSE, FALSE, sizeof (guint));
      if (ls->len < 1)
        {
          note (c, "gpu-roofline on %s: no roofline launch in %s", gpu->name, trace);
          continue;
        }
      guint l = g_array_index (ls, guint, ls->len - 1);
      const WsTraceLaunch *L = ws_trace_get_launch (tr, l);
      double threads = (double) L->n_tbs * L->block[0] * L->block[1] * L->block[2];
      Pending q = { .series = "fp32",
                    .x = n,
                    .measured = med,
                    .launch = l,
                    .kind = METRIC_RATE,
                    .scale = (2 + 2 * n) * threads * m / 1e9 };
      g_array_set_size (pending, 0);
      g_array_append_val (pending, q);
      evaluate (c, fam, dgpu, gpu, trace, cmd, pending);
    }
}

/* ------------------------------------------------------------------------ */
/* gpu-small-kernels: back-to-back launches of A[i] = 0.25 B[i] on one
 * stream, or the same launches replayed from a CUDA graph; GB/s = 16 d /
 * time per kernel.  The time per kernel is the launch's predicted execution
 * turned into its time in the sequence by the launch-cost model
 * (core/launchcost: max (interval, exec + gap) of the mode), the same for
 * every source. */

static const int small_block_sizes[] = { 32, 128, 256, 1024 };
#define SMALL_MAX_ELEMENTS 4.2e6

static const struct {
  const char *dataset_mode; /* launch_mode in the dataset */
  const char *program_mode; /* vsmallkernels mode= */
  WsLaunchMode launch_mode;
  guint stride; /* default selection: every stride-th size */
  const char *series[G_N_ELEMENTS (small_block_sizes)];
} small_modes[] = {
  /* The graph mode runs the same kernels: half as many of its sizes keep
   * the default suite within its time budget (--all-points has all). */
  { "stream_launches", "stream", WS_LAUNCH_MODE_STREAM, 8, { "block 32", "block 128", "block 256", "block 1024" } },
  { "cuda_graph",
    "graph",
    WS_LAUNCH_MODE_GRAPH,
    16,
    { "graph block 32", "graph block 128", "graph block 256", "graph block 1024" } },
};

static void
family_small_mode (Ctx *c, const WsValidateFamily *fam, const char *dgpu, const WsGpu *gpu, const WsCsvTable *t,
                   guint m)
{
  const char *mode = small_modes[m].dataset_mode;
  guint rows = ws_csv_table_get_n_rows (t);
  int mode_col = ws_csv_table_find_column (t, "launch_mode");
  g_autoptr (GArray) ds = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr (GArray) row_of = g_array_new (FALSE, FALSE, sizeof (guint));
  guint n_mode = 0;
  for (guint r = 0; r < rows; r++)
    if (strcmp (ws_csv_table_get (t, r, mode_col), mode) == 0 && cell (t, r, "elements") <= SMALL_MAX_ELEMENTS)
      n_mode++;
  guint k = 0;
  for (guint r = 0; r < rows; r++)
    {
      if (strcmp (ws_csv_table_get (t, r, mode_col), mode) != 0)
        continue;
      double d = cell (t, r, "elements");
      guint idx = k++;
      if (!isfinite (d)
          || (!c->o->all_points && (d > SMALL_MAX_ELEMENTS || !keep_index (idx, n_mode, small_modes[m].stride))))
        continue;
      g_array_append_val (ds, d);
      g_array_append_val (row_of, r);
    }
  if (ds->len == 0)
    return;
  WsLaunchCost cost;
  if (!ws_launch_cost (gpu, small_modes[m].launch_mode, 0, &cost))
    note (c,
          "gpu-small-kernels on %s: the catalogue record has no %s launch interval or gap; the %s points are "
          "predicted without a launch cost",
          gpu->name, small_modes[m].program_mode, mode);
  g_autoptr (GArray) bsl = g_array_new (FALSE, FALSE, sizeof (double));
  for (guint i = 0; i < G_N_ELEMENTS (small_block_sizes); i++)
    g_array_append_val (bsl, (double){ small_block_sizes[i] });
  g_autofree char *dl = join_doubles (ds, "%.0f");
  g_autofree char *bl = join_doubles (bsl, "%.0f");
  g_autoptr (GPtrArray) args = g_ptr_array_new_with_free_func (g_free);
  g_ptr_array_add (args, g_strdup_printf ("sizes=%s", dl));
  g_ptr_array_add (args, g_strdup_printf ("block_sizes=%s", bl));
  g_ptr_array_add (args, g_strdup ("iters=2"));
  /* The stream command line stays as it was, so its cached traces still match. */
  if (small_modes[m].launch_mode != WS_LAUNCH_MODE_STREAM)
    g_ptr_array_add (args, g_strdup_printf ("mode=%s", small_modes[m].program_mode));
  g_autofree char *cmd = NULL;
  g_autofree char *trace = run_program (c, fam, gpu->name, "vsmallkernels", args, NULL, &cmd);
  if (trace == NULL)
    return;
  g_autoptr (WsTrace) tr = ws_trace_open (trace, NULL);
  g_autoptr (GArray) ls = tr ? launches_of (tr, "scale") : g_array_new (FALSE, FALSE, sizeof (guint));
  if (ls->len != 2 * ds->len * bsl->len)
    {
      note (c, "gpu-small-kernels on %s: %u scale launches in %s, expected %u", gpu->name, ls->len, trace,
            2 * ds->len * bsl->len);
      return;
    }
  g_autoptr (GArray) pending = g_array_new (FALSE, TRUE, sizeof (Pending));
  g_array_set_clear_func (pending, pending_clear);
  for (guint i = 0; i < ds->len; i++)
    for (guint b = 0; b < bsl->len; b++)
      {
        guint r = g_array_index (row_of, guint, i);
        g_autofree char *col = g_strdup_printf ("bw_GBps_block%d", small_block_sizes[b]);
        double meas = cell (t, r, col);
        if (!isfinite (meas))
          continue;
        /* Each point's second launch, after the first warmed the caches
         * (the published samples follow a warm-up launch). */
        guint base = 2 * (i * bsl->len + b);
        Pending q = { .series = small_modes[m].series[b],
                      .x = g_array_index (ds, double, i),
                      .measured = meas,
                      .launch = g_array_index (ls, guint, base + 1),
                      .warm = g_array_new (FALSE, FALSE, sizeof (guint)),
                      .kind = METRIC_RATE,
                      .scale = 16 * g_array_index (ds, double, i) / 1e9,
                      .back_to_back = TRUE,
                      .launch_mode = small_modes[m].launch_mode };
        g_array_append_val (q.warm, g_array_index (ls, guint, base));
        g_array_append_val (pending, q);
      }
  evaluate (c, fam, dgpu, gpu, trace, cmd, pending);
}

static void
family_small (Ctx *c, const WsValidateFamily *fam, const char *dgpu, const WsGpu *gpu)
{
  g_autoptr (WsCsvTable) t = load_dataset (c, fam, dgpu);
  if (t == NULL)
    return;
  note (c,
        "gpu-small-kernels on %s: the persistent-thread modes (grid.sync and atomic barrier) are not validated: "
        "they need a grid-barrier model",
        gpu->name);
  for (guint m = 0; m < G_N_ELEMENTS (small_modes); m++)
    family_small_mode (c, fam, dgpu, gpu, t, m);
}

/* ------------------------------------------------------------------------ */
/* gpu-strides: one 1024-thread block, 8 loads per iteration;
 * cycles per warp load = time x clock / (1024 x loads / 32). */

/* Loads per thread when emulated (published 1 179 648): the data of every
 * pattern fits in L1, so after the first iteration's cold misses each
 * iteration is the same; at 1024 the cold first iteration is 0.8 % of the
 * loads (a few % of the time, since a miss costs some ten hits). */
#define STRIDES_LOADS 1024

static void
family_strides (Ctx *c, const WsValidateFamily *fam, const char *dgpu, const WsGpu *gpu)
{
  g_autoptr (WsCsvTable) t = load_dataset (c, fam, dgpu);
  if (t == NULL)
    return;
  guint rows = ws_csv_table_get_n_rows (t);
  int type_col = ws_csv_table_find_column (t, "data_type"), pat_col = ws_csv_table_find_column (t, "pattern");
  static const char *const types[] = { "float", "double" };
  static const char *const patterns[] = { "stride", "block" };
  for (guint ty = 0; ty < 2; ty++)
    for (guint pa = 0; pa < 2; pa++)
      {
        g_autoptr (GArray) argv_ = g_array_new (FALSE, FALSE, sizeof (double));
        g_autoptr (GArray) row_of = g_array_new (FALSE, FALSE, sizeof (guint));
        for (guint r = 0; r < rows; r++)
          if (strcmp (ws_csv_table_get (t, r, type_col), types[ty]) == 0
              && strcmp (ws_csv_table_get (t, r, pat_col), patterns[pa]) == 0)
            {
              double a = cell (t, r, "arg");
              /* Default: strides 0-8, then every other one; block widths all. */
              if (!isfinite (a) || (!c->o->all_points && pa == 0 && a > 8 && fmod (a, 2) != 0))
                continue;
              g_array_append_val (argv_, a);
              g_array_append_val (row_of, r);
            }
        if (argv_->len == 0)
          continue;
        g_autofree char *list = join_doubles (argv_, "%.0f");
        g_autoptr (GPtrArray) args = g_ptr_array_new_with_free_func (g_free);
        g_ptr_array_add (args, g_strdup_printf ("pattern=%s", patterns[pa]));
        g_ptr_array_add (args, g_strdup_printf ("type=%s", types[ty]));
        g_ptr_array_add (args, g_strdup_printf ("args=%s", list));
        g_ptr_array_add (args, g_strdup_printf ("loads=%d", STRIDES_LOADS));
        g_autofree char *cmd = NULL;
        g_autofree char *trace = run_program (c, fam, gpu->name, "vstrides", args, NULL, &cmd);
        if (trace == NULL)
          continue;
        g_autoptr (WsTrace) tr = ws_trace_open (trace, NULL);
        g_autoptr (GArray) ls = tr ? launches_of (tr, "strides") : g_array_new (FALSE, FALSE, sizeof (guint));
        if (ls->len != argv_->len)
          {
            note (c, "gpu-strides on %s: %u strides launches in %s, expected %u", gpu->name, ls->len, trace,
                  argv_->len);
            continue;
          }
        g_autoptr (GArray) pending = g_array_new (FALSE, TRUE, sizeof (Pending));
        g_array_set_clear_func (pending, pending_clear);
        g_autofree char *series = g_strdup_printf ("%s %s", types[ty], patterns[pa]);
        for (guint i = 0; i < argv_->len; i++)
          {
            guint r = g_array_index (row_of, guint, i);
            double clock = cell (t, r, "reported_clock_MHz");
            Pending q = { .series = series,
                          .x = g_array_index (argv_, double, i),
                          .measured = cell (t, r, "cycles_per_warp_load"),
                          .launch = g_array_index (ls, guint, i),
                          .kind = METRIC_TIME,
                          .scale = (isfinite (clock) ? clock : gpu->core_clock_mhz) * 1e6
                                   / (1024.0 * STRIDES_LOADS / 32) };
            g_array_append_val (pending, q);
          }
        evaluate (c, fam, dgpu, gpu, trace, cmd, pending);
      }
}

typedef void (*FamilyFunc) (Ctx *c, const WsValidateFamily *fam, const char *dgpu, const WsGpu *gpu);

static FamilyFunc
family_func (const WsValidateFamily *f)
{
  static const struct {
    const char *name;
    FamilyFunc func;
  } table[] = {
    { "gpu-stream", family_stream },   { "gpu-latency", family_latency },   { "gpu-cache", family_cache },
    { "gpu-l2-cache", family_l2 },     { "gpu-roofline", family_roofline }, { "gpu-small-kernels", family_small },
    { "gpu-strides", family_strides },
  };
  for (guint i = 0; i < G_N_ELEMENTS (table); i++)
    if (strcmp (table[i].name, f->name) == 0)
      return table[i].func;
  return NULL;
}

/* ------------------------------------------------------------------------ */
/* The run */

WsValidateReport *
ws_validate_run (WsStore *store, const WsValidateOptions *o, GError **error)
{
  g_return_val_if_fail (store != NULL && o != NULL, NULL);
  gint64 t0 = g_get_monotonic_time ();
  g_autoptr (WsValidateReport) r = g_new0 (WsValidateReport, 1);
  r->sources = g_ptr_array_new_with_free_func (g_free);
  r->points = g_ptr_array_new_with_free_func (point_free);
  r->notes = g_ptr_array_new_with_free_func (g_free);
  r->dataset_dir = o->dataset_dir ? g_strdup (o->dataset_dir) : default_dataset_dir ();
  if (!g_file_test (r->dataset_dir, G_FILE_TEST_IS_DIR))
    {
      g_set_error (error, WS_ERROR, WS_ERROR_NOT_FOUND,
                   "the ground-truth dataset %s is missing (give --dataset DIR or set WARPSCOPE_GROUND_TRUTH)",
                   r->dataset_dir);
      return NULL;
    }
  for (guint i = 0; o->benchmarks && o->benchmarks[i]; i++)
    if (ws_validate_family_find (o->benchmarks[i]) == NULL)
      {
        g_autoptr (GString) known = g_string_new (NULL);
        for (const WsValidateFamily *f = families; f->name; f++)
          g_string_append_printf (known, "%s%s", f == families ? "" : ", ", f->name);
        g_set_error (error, WS_ERROR, WS_ERROR_NOT_FOUND, "unknown benchmark '%s' (known: %s)", o->benchmarks[i],
                     known->str);
        return NULL;
      }
  Ctx c = { .store = store, .o = o, .report = r };
  g_mutex_init (&c.lock);
  c.programs_dir = o->programs_dir ? g_strdup (o->programs_dir) : default_programs_dir ();
  if (!g_file_test (c.programs_dir, G_FILE_TEST_IS_DIR))
    {
      g_set_error (error, WS_ERROR, WS_ERROR_NOT_FOUND,
                   "the validation programs folder %s is missing (they are built from examples/validation when "
                   "nvcc is found; or give --programs DIR)",
                   c.programs_dir);
      g_free (c.programs_dir);
      return NULL;
    }
  if (o->cache_dir == NULL)
    c.cache_dir = default_cache_dir ();
  else if (*o->cache_dir)
    c.cache_dir = g_strdup (o->cache_dir);
  c.gpus = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) ws_gpu_free);
  c.plugins = ws_predictor_scan ();
  c.plugin_sources = g_ptr_array_new ();
  for (guint i = 0; i < c.plugins->len; i++)
    {
      WsPredictorPlugin *p = c.plugins->pdata[i];
      if (p->ok && p->descriptor->supports_trace && source_wanted (o, p->name))
        {
          g_ptr_array_add (c.plugin_sources, p);
          g_ptr_array_add (r->sources, g_strdup (p->name));
        }
    }
  c.run_sim = source_wanted (o, "simulator");
  c.run_tbpoint = source_wanted (o, "simulator-tbpoint");
  if (c.run_sim)
    {
      c.sim_source = r->sources->len;
      g_ptr_array_add (r->sources, g_strdup ("simulator"));
    }
  if (c.run_tbpoint)
    {
      c.tbpoint_source = r->sources->len;
      g_ptr_array_add (r->sources, g_strdup ("simulator-tbpoint"));
    }

  r->source_seconds = g_new0 (double, r->sources->len);
  r->bound_violations = g_new0 (guint, r->sources->len);
  gboolean cancelled = FALSE;
  for (const WsValidateFamily *f = families; f->name && !cancelled; f++)
    {
      gboolean wanted = o->benchmarks == NULL;
      for (guint i = 0; o->benchmarks && o->benchmarks[i]; i++)
        wanted |= ws_validate_family_find (o->benchmarks[i]) == f;
      if (!wanted)
        continue;
      g_autoptr (GPtrArray) dgpus = dataset_gpus (&c, f);
      if (dgpus->len == 0)
        note (&c, "%s: no dataset files in %s/%s", f->name, r->dataset_dir, f->name);
      for (guint i = 0; i < dgpus->len && !cancelled; i++)
        {
          const char *dg = dgpus->pdata[i];
          const char *name = ws_validate_catalogue_gpu (dg);
          if (name == NULL)
            {
              note (&c, "%s/%s.csv: no catalogue record is known for dataset GPU '%s'", f->name, dg, dg);
              continue;
            }
          if (!gpu_wanted (o, dg, name))
            continue;
          const WsGpu *gpu = ctx_gpu (&c, name);
          if (gpu == NULL)
            {
              note (&c, "%s on %s: the catalogue has no GPU named '%s'", f->name, dg, name);
              continue;
            }
          progress (&c, "%s on %s (%s)", f->name, name, dg);
          family_func (f) (&c, f, dg, gpu);
          cancelled = g_cancellable_is_cancelled (o->cancellable);
        }
    }
  g_ptr_array_unref (c.plugin_sources);
  g_ptr_array_unref (c.plugins);
  g_hash_table_unref (c.gpus);
  g_free (c.programs_dir);
  g_free (c.cache_dir);
  g_mutex_clear (&c.lock);
  if (cancelled)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED, "validation cancelled");
      return NULL;
    }
  r->wall_seconds = (g_get_monotonic_time () - t0) / 1e6;
  return g_steal_pointer (&r);
}

/* ------------------------------------------------------------------------ */
/* Output */

void
ws_validate_report_keys (const WsValidateReport *r, GPtrArray **families, GPtrArray **gpus)
{
  *families = g_ptr_array_new ();
  *gpus = g_ptr_array_new ();
  for (guint i = 0; i < r->points->len; i++)
    {
      const WsValidatePoint *p = r->points->pdata[i];
      if (!g_ptr_array_find_with_equal_func (*families, p->family, g_str_equal, NULL))
        g_ptr_array_add (*families, p->family);
      if (!g_ptr_array_find_with_equal_func (*gpus, p->dataset_gpu, g_str_equal, NULL))
        g_ptr_array_add (*gpus, p->dataset_gpu);
    }
}

/* {"<source>": value, ...} with null for a non-finite value. */
static void
add_per_source (JsonBuilder *b, const WsValidateReport *r, const char *member, const double *values)
{
  json_builder_set_member_name (b, member);
  json_builder_begin_object (b);
  for (guint s = 0; s < r->sources->len; s++)
    {
      json_builder_set_member_name (b, r->sources->pdata[s]);
      if (isfinite (values[s]))
        json_builder_add_double_value (b, values[s]);
      else
        json_builder_add_null_value (b);
    }
  json_builder_end_object (b);
}

/* MAPE of every source over the matching points (NaN where none). */
static void
mape_per_source (const WsValidateReport *r, const char *family, const char *gpu, double *out)
{
  for (guint s = 0; s < r->sources->len; s++)
    out[s] = ws_validate_mape (r, s, family, gpu, NULL);
}

JsonNode *
ws_validate_report_to_json (const WsValidateReport *r)
{
  g_autoptr (JsonBuilder) b = json_builder_new ();
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "dataset");
  json_builder_add_string_value (b, r->dataset_dir);
  json_builder_set_member_name (b, "wall_seconds");
  json_builder_add_double_value (b, r->wall_seconds);
  json_builder_set_member_name (b, "emulation_seconds");
  json_builder_add_double_value (b, r->emulation_seconds);
  json_builder_set_member_name (b, "sources");
  json_builder_begin_array (b);
  for (guint s = 0; s < r->sources->len; s++)
    json_builder_add_string_value (b, r->sources->pdata[s]);
  json_builder_end_array (b);
  json_builder_set_member_name (b, "bound_checks");
  json_builder_add_int_value (b, r->bound_checks);
  json_builder_set_member_name (b, "bound_violations");
  json_builder_begin_object (b);
  for (guint s = 0; s < r->sources->len; s++)
    {
      json_builder_set_member_name (b, r->sources->pdata[s]);
      json_builder_add_int_value (b, r->bound_violations[s]);
    }
  json_builder_end_object (b);
  add_per_source (b, r, "source_seconds", r->source_seconds);
  g_autofree double *row = g_new (double, MAX (r->sources->len, 1));

  json_builder_set_member_name (b, "points");
  json_builder_begin_array (b);
  for (guint i = 0; i < r->points->len; i++)
    {
      const WsValidatePoint *p = r->points->pdata[i];
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "benchmark");
      json_builder_add_string_value (b, p->family);
      json_builder_set_member_name (b, "gpu");
      json_builder_add_string_value (b, p->gpu);
      json_builder_set_member_name (b, "dataset_gpu");
      json_builder_add_string_value (b, p->dataset_gpu);
      json_builder_set_member_name (b, "series");
      json_builder_add_string_value (b, p->series);
      json_builder_set_member_name (b, "x");
      json_builder_add_double_value (b, p->x);
      json_builder_set_member_name (b, "measured");
      json_builder_add_double_value (b, p->measured);
      add_per_source (b, r, "predicted", p->predicted);
      for (guint s = 0; s < r->sources->len; s++)
        row[s] = ws_validate_point_error (p, s);
      add_per_source (b, r, "error", row);
      json_builder_set_member_name (b, "program");
      json_builder_add_string_value (b, p->program);
      json_builder_set_member_name (b, "launch");
      json_builder_add_int_value (b, p->launch);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);

  /* MAPE (percent) per source, per source and benchmark, per source and GPU,
   * and per GPU x benchmark x source. */
  json_builder_set_member_name (b, "mape");
  json_builder_begin_object (b);
  mape_per_source (r, NULL, NULL, row);
  add_per_source (b, r, "by_source", row);
  g_autoptr (GPtrArray) fams = NULL;
  g_autoptr (GPtrArray) gpus = NULL;
  ws_validate_report_keys (r, &fams, &gpus);
  for (int pass = 0; pass < 2; pass++)
    {
      GPtrArray *keys = pass == 0 ? fams : gpus;
      json_builder_set_member_name (b, pass == 0 ? "by_benchmark" : "by_gpu");
      json_builder_begin_object (b);
      for (guint k = 0; k < keys->len; k++)
        {
          mape_per_source (r, pass == 0 ? keys->pdata[k] : NULL, pass == 1 ? keys->pdata[k] : NULL, row);
          add_per_source (b, r, keys->pdata[k], row);
        }
      json_builder_end_object (b);
    }
  json_builder_set_member_name (b, "table");
  json_builder_begin_array (b);
  for (guint g = 0; g < gpus->len; g++)
    for (guint f = 0; f < fams->len; f++)
      for (guint s = 0; s < r->sources->len; s++)
        {
          guint n;
          double m = ws_validate_mape (r, s, fams->pdata[f], gpus->pdata[g], &n);
          if (n == 0)
            continue;
          json_builder_begin_object (b);
          json_builder_set_member_name (b, "dataset_gpu");
          json_builder_add_string_value (b, gpus->pdata[g]);
          json_builder_set_member_name (b, "benchmark");
          json_builder_add_string_value (b, fams->pdata[f]);
          json_builder_set_member_name (b, "source");
          json_builder_add_string_value (b, r->sources->pdata[s]);
          json_builder_set_member_name (b, "mape");
          json_builder_add_double_value (b, m);
          json_builder_set_member_name (b, "points");
          json_builder_add_int_value (b, n);
          json_builder_end_object (b);
        }
  json_builder_end_array (b);
  json_builder_end_object (b);

  json_builder_set_member_name (b, "notes");
  json_builder_begin_array (b);
  for (guint i = 0; i < r->notes->len; i++)
    json_builder_add_string_value (b, r->notes->pdata[i]);
  json_builder_end_array (b);
  json_builder_end_object (b);
  return json_builder_get_root (b);
}

static void
md_mape_cell (GString *s, double m, guint n)
{
  if (n == 0)
    g_string_append (s, " – |");
  else
    g_string_append_printf (s, " %.1f |", m);
}

static void
md_sources_header (GString *s, const WsValidateReport *r, const char *first)
{
  g_string_append_printf (s, "| %s |", first);
  for (guint k = 0; k < r->sources->len; k++)
    g_string_append_printf (s, " %s |", (const char *) r->sources->pdata[k]);
  g_string_append (s, "\n|---|");
  for (guint k = 0; k < r->sources->len; k++)
    g_string_append (s, "---:|");
  g_string_append_c (s, '\n');
}

static char *
plot_name (const WsValidatePoint *p)
{
  g_autofree char *raw = g_strdup_printf ("%s-%s-%s", p->family, p->dataset_gpu, p->series);
  for (char *q = raw; *q; q++)
    if (!g_ascii_isalnum (*q) && *q != '-' && *q != '_')
      *q = '_';
  return g_strconcat (raw, ".png", NULL);
}

char *
ws_validate_report_to_markdown (const WsValidateReport *r, const char *plot_dir)
{
  GString *s = g_string_new (NULL);
  guint nsrc = r->sources->len;
  g_autoptr (GPtrArray) fams = NULL;
  g_autoptr (GPtrArray) gpus = NULL;
  ws_validate_report_keys (r, &fams, &gpus);
  g_string_append_printf (s, "Dataset: `%s`; %u points; %.0f s (emulation %.0f s", r->dataset_dir, r->points->len,
                          r->wall_seconds, r->emulation_seconds);
  for (guint k = 0; k < nsrc; k++)
    g_string_append_printf (s, ", %s %.0f s", (const char *) r->sources->pdata[k], r->source_seconds[k]);
  g_string_append (s, ").\n\n");
  guint violations = 0;
  for (guint k = 0; k < nsrc; k++)
    violations += r->bound_violations[k];
  g_string_append_printf (s,
                          "Physical bounds (docs/bounds.md): %u launches checked against every source, "
                          "%u predictions below the bound.\n\n",
                          r->bound_checks, violations);
  g_string_append (s, "### MAPE (%) per source\n\n");
  md_sources_header (s, r, "all benchmarks");
  g_string_append (s, "| all GPUs |");
  for (guint k = 0; k < nsrc; k++)
    {
      guint n;
      double m = ws_validate_mape (r, k, NULL, NULL, &n);
      md_mape_cell (s, m, n);
    }
  g_string_append (s, "\n\n### MAPE (%) per benchmark family\n\n");
  md_sources_header (s, r, "benchmark");
  for (guint f = 0; f < fams->len; f++)
    {
      g_string_append_printf (s, "| %s |", (const char *) fams->pdata[f]);
      for (guint k = 0; k < nsrc; k++)
        {
          guint n;
          double m = ws_validate_mape (r, k, fams->pdata[f], NULL, &n);
          md_mape_cell (s, m, n);
        }
      g_string_append_c (s, '\n');
    }
  g_string_append (s, "\n### MAPE (%) per GPU\n\n");
  md_sources_header (s, r, "GPU");
  for (guint g = 0; g < gpus->len; g++)
    {
      g_string_append_printf (s, "| %s |", (const char *) gpus->pdata[g]);
      for (guint k = 0; k < nsrc; k++)
        {
          guint n;
          double m = ws_validate_mape (r, k, NULL, gpus->pdata[g], &n);
          md_mape_cell (s, m, n);
        }
      g_string_append_c (s, '\n');
    }
  g_string_append (s, "\n### MAPE (%) per GPU and benchmark\n\n");
  md_sources_header (s, r, "GPU / benchmark");
  for (guint g = 0; g < gpus->len; g++)
    for (guint f = 0; f < fams->len; f++)
      {
        guint n0;
        ws_validate_mape (r, 0, fams->pdata[f], gpus->pdata[g], &n0);
        gboolean any = FALSE;
        for (guint i = 0; i < r->points->len && !any; i++)
          {
            const WsValidatePoint *p = r->points->pdata[i];
            any = strcmp (p->family, fams->pdata[f]) == 0 && strcmp (p->dataset_gpu, gpus->pdata[g]) == 0;
          }
        if (!any)
          continue;
        g_string_append_printf (s, "| %s / %s |", (const char *) gpus->pdata[g], (const char *) fams->pdata[f]);
        for (guint k = 0; k < nsrc; k++)
          {
            guint n;
            double m = ws_validate_mape (r, k, fams->pdata[f], gpus->pdata[g], &n);
            md_mape_cell (s, m, n);
          }
        g_string_append_c (s, '\n');
      }

  g_string_append (s, "\n### Every point\n\n");
  g_string_append (s, "Predicted value, then its error against the measurement.\n\n");
  g_string_append (s, "| GPU | benchmark | series | x | measured |");
  for (guint k = 0; k < nsrc; k++)
    g_string_append_printf (s, " %s |", (const char *) r->sources->pdata[k]);
  g_string_append (s, "\n|---|---|---|---:|---:|");
  for (guint k = 0; k < nsrc; k++)
    g_string_append (s, "---:|");
  g_string_append_c (s, '\n');
  for (guint i = 0; i < r->points->len; i++)
    {
      const WsValidatePoint *p = r->points->pdata[i];
      g_string_append_printf (s, "| %s | %s | %s | %.6g | %.4g |", p->dataset_gpu, p->family, p->series, p->x,
                              p->measured);
      for (guint k = 0; k < nsrc; k++)
        {
          double e = ws_validate_point_error (p, k);
          if (isfinite (e))
            g_string_append_printf (s, " %.4g (%+.0f %%) |", p->predicted[k], 100 * e);
          else
            g_string_append (s, " – |");
        }
      g_string_append_c (s, '\n');
    }
  if (plot_dir != NULL)
    {
      g_string_append (s, "\n### Plots\n\n");
      g_autoptr (GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
      for (guint i = 0; i < r->points->len; i++)
        {
          char *name = plot_name (r->points->pdata[i]);
          if (!g_hash_table_add (seen, name))
            continue;
          const WsValidatePoint *p = r->points->pdata[i];
          g_string_append_printf (s, "![%s %s %s](%s/%s)\n", p->family, p->dataset_gpu, p->series, plot_dir, name);
        }
    }
  if (r->notes->len)
    {
      g_string_append (s, "\n### Notes\n\n");
      for (guint i = 0; i < r->notes->len; i++)
        g_string_append_printf (s, "- %s\n", (const char *) r->notes->pdata[i]);
    }
  return g_string_free (s, FALSE);
}

GPtrArray *
ws_validate_report_charts (const WsValidateReport *r, GPtrArray **names_out)
{
  GPtrArray *charts = g_ptr_array_new_with_free_func ((GDestroyNotify) ws_chart_free);
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GHashTable) index = g_hash_table_new (g_str_hash, g_str_equal);
  for (guint i = 0; i < r->points->len; i++)
    {
      const WsValidatePoint *p = r->points->pdata[i];
      char *name = plot_name (p);
      gpointer found;
      WsChart *chart;
      if (g_hash_table_lookup_extended (index, name, NULL, &found))
        {
          chart = charts->pdata[GPOINTER_TO_UINT (found)];
          g_free (name);
        }
      else
        {
          const WsValidateFamily *f = ws_validate_family_find (p->family);
          chart = ws_chart_new (WS_CHART_LINE);
          g_autofree char *title = g_strdup_printf ("%s — %s (%s)", f->title, p->gpu, p->series);
          ws_chart_set_title (chart, title);
          ws_chart_set_subtitle (chart, "measured: te42kyfo/gpu-benches@1c36d50; predicted: Warpscope");
          ws_chart_set_axis_title (chart, WS_CHART_AXIS_X, f->x_title);
          ws_chart_set_axis_title (chart, WS_CHART_AXIS_Y, f->y_title);
          ws_chart_set_axis_unit (chart, WS_CHART_AXIS_X, f->x_unit);
          ws_chart_set_axis_log (chart, WS_CHART_AXIS_X, f->x_log);
          ws_chart_set_axis_log (chart, WS_CHART_AXIS_Y, f->y_log);
          ws_chart_add_series (chart, "measured", WS_CHART_SERIES_MEASURED);
          for (guint s = 0; s < r->sources->len; s++)
            ws_chart_add_series (chart, r->sources->pdata[s], 0);
          g_hash_table_insert (index, name, GUINT_TO_POINTER (charts->len));
          g_ptr_array_add (charts, chart);
          g_ptr_array_add (names, g_strdup (name));
        }
      ws_chart_series_add_point (chart, 0, p->x, p->measured);
      for (guint s = 0; s < r->sources->len; s++)
        if (isfinite (p->predicted[s]))
          ws_chart_series_add_point (chart, s + 1, p->x, p->predicted[s]);
    }
  /* The names were owned by the index only until now. */
  GList *keys = g_hash_table_get_keys (index);
  g_list_free_full (keys, g_free);
  if (names_out)
    *names_out = names;
  else
    g_ptr_array_unref (names);
  return charts;
}

int
ws_validate_report_write_plots (const WsValidateReport *r, const char *dir, GError **error)
{
  if (g_mkdir_with_parents (dir, 0755) != 0)
    {
      int saved = errno;
      g_set_error (error, WS_ERROR, WS_ERROR_IO, "cannot create %s: %s", dir, g_strerror (saved));
      return -1;
    }
  GPtrArray *names = NULL;
  g_autoptr (GPtrArray) charts = ws_validate_report_charts (r, &names);
  for (guint i = 0; i < charts->len; i++)
    {
      g_autofree char *path = g_build_filename (dir, names->pdata[i], NULL);
      if (!ws_chart_export (charts->pdata[i], path, WS_CHART_FORMAT_PNG, 900, 560, error))
        {
          g_ptr_array_unref (names);
          return -1;
        }
    }
  int n = (int) charts->len;
  g_ptr_array_unref (names);
  return n;
}
