/* ws-system-eval.c: discrete-event evaluation of an application model on a
 * system model (seed 004 §5.4: processes bound to components by label,
 * capacity = multiplicity x count; transfers by eq. 4.6; kernel times from a
 * predictor plugin).  The semantics are documented in docs/system-modelling.md:
 *
 * - Control flow (loops, conditionals, counts) depends only on variables, so
 *   each process's program is first unrolled into primitive operations whose
 *   numbers are all known; only timing is simulated.
 * - A link direction is a resource; a transfer hop first waits its startup
 *   time t_s (no bandwidth used), then streams its bytes at
 *   bw x lambda_c / n, n = the transfers streaming in that direction at the
 *   moment (fair sharing).  Alone on the link: t = t_s + n/(bw x lambda_c),
 *   eq. 4.6 exactly.
 * - CUDA semantics for a host process: h2d/d2h are cudaMemcpy (the host
 *   blocks until the copy ends, and the copy starts only after the work the
 *   process queued on that GPU); a kernel launch is asynchronous (the host
 *   goes on at once); sync is cudaDeviceSynchronize.  Kernels on one GPU run
 *   one at a time in launch order.
 * - send is non-blocking (MERPSYS); recv blocks until the message arrived.
 *   Messages between two processes arrive in the order sent. */
#include <math.h>
#include <string.h>
#include "system/ws-system-private.h"
#include "predict/ws-predict.h"
#include "trace/ws-trace.h"
#include "sim/ws-sim.h"
#include "tbpoint/ws-tbpoint.h"

#define MAX_HOPS 8
#define MAX_PRIMS 5000000

/* ---- environment: the system's instances and graph ------------------------ */

typedef struct {
  WsComponent *comp;
  char *name;
  int parent; /* instance index of the enclosing machine, -1 at top level */
  int local;  /* 0 .. count-1 within the parent instance */
  const WsCpu *cpu;
  const WsGpu *gpu;
  const WsLink *link;
} Inst;

typedef struct {
  int to;  /* instance */
  int res; /* link resource (link instance * 2 + direction), -1 = free hop */
} Edge;

struct _WsSystemEnv {
  WsSystemModel *system; /* a copy, via JSON */
  char *predictor_name;
  gboolean tbpoint; /* the simulator samples each launch with TBPoint */
  GCancellable *cancellable;
  GPtrArray *plugins;
  WsPredictorPlugin *plugin;  /* NULL when the detailed simulator predicts */
  GArray *insts;              /* of Inst */
  GArray **adj;               /* per instance, of Edge */
  GPtrArray *hw;              /* owned catalogue records, of HwRec* */
  GMutex lock;                /* guards the caches below */
  GHashTable *traces;         /* path -> WsTrace* */
  GHashTable *trace_times;    /* "gpu|path|launch" -> double* seconds */
  AppOnDemand *ondemand;      /* traces of on-demand kernels (own lock) */
  GHashTable *plugin_options; /* the predictor's options (key -> value), or NULL */
  GPtrArray *plugin_warnings; /* distinct warnings of its predictions, first-seen order (under lock) */
};

typedef struct {
  WsComponentKind kind;
  gpointer record;
} HwRec;

static void
hw_rec_free (gpointer p)
{
  HwRec *h = p;
  if (h->kind == WS_COMPONENT_CPU)
    ws_cpu_free (h->record);
  else if (h->kind == WS_COMPONENT_GPU)
    ws_gpu_free (h->record);
  else
    ws_link_free (h->record);
  g_free (h);
}

static void
env_expand (WsSystemEnv *env, GPtrArray *list, int parent)
{
  for (guint i = 0; i < list->len; i++)
    {
      WsComponent *c = list->pdata[i];
      for (int k = 0; k < c->count; k++)
        {
          Inst in = { 0 };
          in.comp = c;
          in.parent = parent;
          in.local = k;
          const char *pname = parent >= 0 ? g_array_index (env->insts, Inst, parent).name : NULL;
          g_autofree char *base = c->count > 1 ? g_strdup_printf ("%s[%d]", c->name, k) : g_strdup (c->name);
          in.name = pname ? g_strconcat (pname, "/", base, NULL) : g_strdup (base);
          g_array_append_val (env->insts, in);
          if (c->kind == WS_COMPONENT_MACHINE)
            env_expand (env, c->children, (int) env->insts->len - 1);
        }
    }
}

static void
add_edge (WsSystemEnv *env, int a, int b, int res)
{
  Edge e = { b, res };
  g_array_append_val (env->adj[a], e);
}

void
ws_system_env_free (WsSystemEnv *env)
{
  if (env == NULL)
    return;
  for (guint i = 0; env->insts && i < env->insts->len; i++)
    {
      g_free (g_array_index (env->insts, Inst, i).name);
      g_array_unref (env->adj[i]);
    }
  g_free (env->adj);
  g_clear_pointer (&env->insts, g_array_unref);
  g_clear_pointer (&env->hw, g_ptr_array_unref);
  g_clear_pointer (&env->plugins, g_ptr_array_unref);
  g_clear_pointer (&env->traces, g_hash_table_unref);
  g_clear_pointer (&env->trace_times, g_hash_table_unref);
  g_clear_pointer (&env->ondemand, ws_app_ondemand_free);
  g_clear_pointer (&env->plugin_options, g_hash_table_unref);
  g_clear_pointer (&env->plugin_warnings, g_ptr_array_unref);
  g_clear_pointer (&env->system, ws_system_model_free);
  g_free (env->predictor_name);
  g_clear_object (&env->cancellable);
  g_mutex_clear (&env->lock);
  g_free (env);
}

void
ws_system_env_set_cancellable (WsSystemEnv *env, GCancellable *cancellable)
{
  g_set_object (&env->cancellable, cancellable);
}

gboolean
ws_system_env_set_predictor_options (WsSystemEnv *env, GHashTable *options, GError **error)
{
  g_return_val_if_fail (env != NULL, FALSE);
  if (options != NULL && g_hash_table_size (options) > 0 && env->plugin == NULL)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID, "predictor options need a predictor plugin; '%s' takes none",
                   env->predictor_name);
      return FALSE;
    }
  if (options != NULL && !ws_predictor_check_options (env->plugin, options, error))
    return FALSE;
  g_clear_pointer (&env->plugin_options, g_hash_table_unref);
  env->plugin_options = options ? g_hash_table_ref (options) : NULL;
  return TRUE;
}

char **
ws_system_env_take_predictor_warnings (WsSystemEnv *env)
{
  g_return_val_if_fail (env != NULL, NULL);
  g_mutex_lock (&env->lock);
  GPtrArray *w = env->plugin_warnings ? g_steal_pointer (&env->plugin_warnings) : g_ptr_array_new ();
  g_mutex_unlock (&env->lock);
  g_ptr_array_add (w, NULL);
  return (char **) g_ptr_array_free (w, FALSE);
}

/* Keeps each distinct warning of a prediction once, prefixed with the
 * operation that caused it. */
static void
env_note_warnings (WsSystemEnv *env, const char *where, const WsPrediction *pred)
{
  if (pred->warnings->len == 0)
    return;
  g_mutex_lock (&env->lock);
  if (env->plugin_warnings == NULL)
    env->plugin_warnings = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; i < pred->warnings->len; i++)
    {
      g_autofree char *w = g_strdup_printf ("%s: predictor '%s': %s", where, pred->model,
                                            (char *) pred->warnings->pdata[i]);
      gboolean seen = FALSE;
      for (guint k = 0; k < env->plugin_warnings->len && !seen; k++)
        seen = strcmp (env->plugin_warnings->pdata[k], w) == 0;
      if (!seen && env->plugin_warnings->len < 1000)
        g_ptr_array_add (env->plugin_warnings, g_steal_pointer (&w));
    }
  g_mutex_unlock (&env->lock);
}

char **
ws_system_env_get_profiled_traces (WsSystemEnv *env)
{
  g_return_val_if_fail (env != NULL, NULL);
  return ws_app_ondemand_list (env->ondemand);
}

WsSystemEnv *
ws_system_env_new (WsStore *store, const WsSystemModel *system, const char *predictor, GError **error)
{
  g_return_val_if_fail (store != NULL && system != NULL, NULL);
  if (!ws_system_model_validate (system, store, error))
    return NULL;
  g_autoptr (WsSystemEnv) env = g_new0 (WsSystemEnv, 1);
  g_mutex_init (&env->lock);
  g_autoptr (JsonNode) copy = ws_system_model_to_json (system);
  env->system = ws_system_model_from_json (copy, error);
  if (env->system == NULL)
    return NULL;
  env->predictor_name = g_strdup (predictor ? predictor : "volkov");
  env->plugins = ws_predictor_scan ();
  env->tbpoint = strcmp (env->predictor_name, WS_SYSTEM_PREDICTOR_SIMULATOR_TBPOINT) == 0;
  if (strcmp (env->predictor_name, WS_SYSTEM_PREDICTOR_SIMULATOR) != 0 && !env->tbpoint
      && (env->plugin = ws_predictor_find (env->plugins, env->predictor_name, error)) == NULL)
    {
      g_prefix_error (error, "predictor for the system model: ");
      return NULL;
    }
  env->traces = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) ws_trace_free);
  env->trace_times = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_autofree char *trace_dir = ws_system_store_trace_dir (store);
  env->ondemand = ws_app_ondemand_new (trace_dir, ws_store_get_path (store));
  env->hw = g_ptr_array_new_with_free_func (hw_rec_free);
  env->insts = g_array_new (FALSE, TRUE, sizeof (Inst));
  env_expand (env, env->system->components, -1);

  /* Catalogue records, once per component. */
  GHashTable *records = g_hash_table_new (g_direct_hash, g_direct_equal);
  for (guint i = 0; i < env->insts->len; i++)
    {
      Inst *in = &g_array_index (env->insts, Inst, i);
      gpointer rec = g_hash_table_lookup (records, in->comp);
      if (rec == NULL && in->comp->kind != WS_COMPONENT_MACHINE)
        {
          if (in->comp->kind == WS_COMPONENT_CPU)
            rec = ws_store_get_cpu (store, in->comp->hw, error);
          else if (in->comp->kind == WS_COMPONENT_GPU)
            rec = ws_store_get_gpu (store, in->comp->hw, error);
          else
            rec = ws_store_get_link (store, in->comp->hw, error);
          if (rec == NULL)
            {
              g_hash_table_unref (records);
              return NULL;
            }
          HwRec *h = g_new (HwRec, 1);
          h->kind = in->comp->kind;
          h->record = rec;
          g_ptr_array_add (env->hw, h);
          g_hash_table_insert (records, in->comp, rec);
        }
      in->cpu = in->comp->kind == WS_COMPONENT_CPU ? rec : NULL;
      in->gpu = in->comp->kind == WS_COMPONENT_GPU ? rec : NULL;
      in->link = in->comp->kind == WS_COMPONENT_LINK ? rec : NULL;
    }
  g_hash_table_unref (records);

  /* The graph: a CPU is its machine's host (a free hop to the machine's
   * network side); a link instance joins the instances of its ends that
   * share its parent.  Link instance = the 'to' end's local index mod the
   * link's count, so count = number of GPUs gives each GPU its own bus and
   * count 1 makes them share one. */
  guint n = env->insts->len;
  env->adj = g_new0 (GArray *, n);
  for (guint i = 0; i < n; i++)
    env->adj[i] = g_array_new (FALSE, FALSE, sizeof (Edge));
  for (guint i = 0; i < n; i++)
    {
      Inst *in = &g_array_index (env->insts, Inst, i);
      if (in->comp->kind == WS_COMPONENT_CPU && in->parent >= 0)
        {
          add_edge (env, i, in->parent, -1);
          add_edge (env, in->parent, i, -1);
        }
    }
  for (guint li = 0; li < n; li++)
    {
      Inst *l = &g_array_index (env->insts, Inst, li);
      if (l->comp->kind != WS_COMPONENT_LINK || l->local != 0)
        continue;
      WsComponent *from = ws_system_model_find (env->system, l->comp->from);
      WsComponent *to = ws_system_model_find (env->system, l->comp->to);
      for (guint a = 0; a < n; a++)
        {
          Inst *ia = &g_array_index (env->insts, Inst, a);
          if (ia->comp != from)
            continue;
          for (guint b = 0; b < n; b++)
            {
              Inst *ib = &g_array_index (env->insts, Inst, b);
              if (ib->comp != to || a == b)
                continue;
              /* Both ends must sit in the parent instance the link belongs to
               * (for a network link at the top level both parents are -1). */
              if (ia->parent != l->parent || ib->parent != l->parent)
                continue;
              int link_inst = (int) li + ib->local % l->comp->count;
              if (from == to && ia->local > ib->local)
                continue; /* a self-link (cluster network): one edge pair per node pair */
              add_edge (env, a, b, link_inst * 2 + 0);
              add_edge (env, b, a, link_inst * 2 + 1);
            }
        }
    }
  return g_steal_pointer (&env);
}

/* ---- primitive operations ------------------------------------------------ */

typedef enum { P_H2D, P_D2H, P_KERNEL, P_HOST, P_SEND, P_RECV, P_BARRIER, P_SYNC } PrimKind;
static const char *const prim_names[] = { "h2d", "d2h", "kernel", "host", "send", "recv", "barrier", "sync" };

typedef struct {
  PrimKind kind;
  int gpu;   /* instance */
  int peer;  /* process */
  int group; /* barrier group */
  double bytes;
  double seconds;   /* host computation, kernel time */
  const char *name; /* kernel name (owned by the app model) */
} Prim;

typedef struct {
  int label; /* index into app->processes */
  guint rank;
  int inst;     /* mapped instance */
  int host;     /* CPU instance acting as its host, -1 when none */
  int slot;     /* 0 .. multiplicity-1 on its instance */
  GArray *prog; /* of Prim */
  guint pc;
  double now;
  int state;           /* 0 ready, 1 blocked, 2 done */
  double *stream_free; /* per instance: when the work this process queued on that GPU ends */
  int wait_msg;        /* blocked in recv: message index; <= -2: in a copy on GPU -2-wait_msg */
  int recv_rec;        /* blocked in a recv not yet matched: its record, else -1 */
  int recv_peer;
  GArray *inbox;    /* of int: messages sent to this process, in order */
  guint inbox_head; /* inbox entries before it are all taken */
} Proc;

typedef struct {
  int res[MAX_HOPS];
  double ts[MAX_HOPS];
  double full_rate[MAX_HOPS];
  int nhops, hop;
  int phase;                   /* 0 waiting to start, 1 startup, 2 streaming, 3 done */
  double t_phase;              /* end of waiting/startup */
  double t_ref, rem_ref, rate; /* streaming: bytes left at t_ref, current rate */
  double bytes, start, end;
  int waiter; /* process blocked on it, -1 */
  int record; /* op record to complete */
  int msg;    /* message it carries, -1 */
  double hop_start;
} Xfer;

typedef struct {
  int src, dst;
  double bytes;
  double arrival; /* < 0 while in flight */
  gboolean taken;
  double send_start;
} Msg;

typedef struct {
  int n_members;
  int arrived;
  double latest;
  GArray *waiting; /* of int (process) */
  GArray *records; /* of int */
} Barrier;

typedef struct {
  WsSystemEnv *env;
  const WsAppModel *app;
  GArray *procs;            /* of Proc */
  GArray *xfers;            /* of Xfer */
  GArray *msgs;             /* of Msg */
  GPtrArray *barriers;      /* of Barrier* */
  GPtrArray *barrier_keys;  /* of char* */
  GPtrArray *records;       /* of WsSystemOpRecord* */
  GArray **busy;            /* per instance: of double pairs (start, end) */
  GHashTable *kernel_cache; /* key -> double* */
  GHashTable *routes;       /* "a>b" -> GArray of Edge */
  double *gpu_free;         /* per instance */
  gsize n_prims;
} Sim;

static Inst *
inst_at (Sim *s, int i)
{
  return &g_array_index (s->env->insts, Inst, i);
}

/* Direct-link GPU neighbours of a CPU instance, in instance order. */
static GArray *
linked_gpus (Sim *s, int cpu)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (int));
  GArray *adj = s->env->adj[cpu];
  for (guint i = 0; i < adj->len; i++)
    {
      Edge *e = &g_array_index (adj, Edge, i);
      if (e->res >= 0 && inst_at (s, e->to)->comp->kind == WS_COMPONENT_GPU)
        {
          gboolean dup = FALSE;
          for (guint j = 0; j < out->len; j++)
            dup |= g_array_index (out, int, j) == e->to;
          if (!dup)
            g_array_append_val (out, e->to);
        }
    }
  return out;
}

/* Shortest route (fewest hops) between two instances; NULL when none. */
static GArray *
route (Sim *s, int a, int b)
{
  g_autofree char *key = g_strdup_printf ("%d>%d", a, b);
  GArray *r = g_hash_table_lookup (s->routes, key);
  if (r != NULL)
    return r;
  guint n = s->env->insts->len;
  g_autofree int *prev = g_new (int, n);
  g_autofree int *prev_res = g_new (int, n);
  g_autofree int *queue = g_new (int, n);
  for (guint i = 0; i < n; i++)
    prev[i] = -2;
  int head = 0, tail = 0;
  queue[tail++] = a;
  prev[a] = -1;
  while (head < tail && prev[b] == -2)
    {
      int u = queue[head++];
      GArray *adj = s->env->adj[u];
      for (guint i = 0; i < adj->len; i++)
        {
          Edge *e = &g_array_index (adj, Edge, i);
          if (prev[e->to] != -2)
            continue;
          prev[e->to] = u;
          prev_res[e->to] = e->res;
          queue[tail++] = e->to;
        }
    }
  if (prev[b] == -2)
    return NULL;
  r = g_array_new (FALSE, FALSE, sizeof (Edge));
  for (int v = b; v != a; v = prev[v])
    {
      if (prev_res[v] >= 0)
        {
          Edge e = { v, prev_res[v] };
          g_array_prepend_val (r, e);
        }
    }
  g_hash_table_insert (s->routes, g_steal_pointer (&key), r);
  return r;
}

/* Link instance of a resource, and its eq. 4.6 parameters for that direction. */
static void
resource_params (Sim *s, int res, double *ts, double *rate)
{
  Inst *l = inst_at (s, res / 2);
  const WsLink *k = l->link;
  if (res % 2 == 0)
    {
      *ts = k->h2d_startup_us * 1e-6;
      *rate = k->h2d_bandwidth_gbs * 1e9 * k->h2d_lambda;
    }
  else
    {
      *ts = k->d2h_startup_us * 1e-6;
      *rate = k->d2h_bandwidth_gbs * 1e9 * k->d2h_lambda;
    }
}

static int
add_record (Sim *s, Proc *p, PrimKind kind, const char *component, const char *name, double bytes, double start,
            double end)
{
  WsSystemOpRecord *r = g_new0 (WsSystemOpRecord, 1);
  r->label = g_strdup (((AppProcess *) s->app->processes->pdata[p->label])->label);
  r->rank = p->rank;
  r->op = g_strdup (prim_names[kind]);
  r->component = g_strdup (component);
  r->name = g_strdup (name);
  r->bytes = bytes;
  r->start = start;
  r->end = end;
  g_ptr_array_add (s->records, r);
  return (int) s->records->len - 1;
}

static void
add_busy (Sim *s, int inst, double start, double end)
{
  if (end <= start)
    return;
  g_array_append_val (s->busy[inst], start);
  g_array_append_val (s->busy[inst], end);
}

/* ---- unrolling ----------------------------------------------------------- */

static gboolean
kernel_time (Sim *s, const AppOp *op, int gpu, GHashTable *vars, double *seconds, GError **error)
{
  const WsGpu *g = inst_at (s, gpu)->gpu;
  if (op->trace != NULL || op->program != NULL)
    {
      double launch = 0;
      if (op->launch != NULL && !ws_app_eval (op->launch, vars, op->where, "launch", &launch, error))
        return FALSE;
      WsSystemEnv *env = s->env;
      /* An on-demand kernel: the trace of its program run with this point's
       * arguments, profiled (or found) first; then as a profiled kernel. */
      const char *path = op->trace;
      const AppOnDemandTrace *od = NULL;
      if (op->program != NULL)
        {
          od = ws_app_ondemand_get (env->ondemand, op, vars, env->cancellable, error);
          if (od == NULL)
            return FALSE;
          path = od->trace;
        }
      g_autofree char *key = g_strdup_printf ("%s|%s|%g", g->name, path, launch);
      g_mutex_lock (&env->lock);
      double *cached = g_hash_table_lookup (env->trace_times, key);
      if (cached != NULL)
        {
          *seconds = *cached;
          g_mutex_unlock (&env->lock);
          return TRUE;
        }
      WsTrace *trace = g_hash_table_lookup (env->traces, path);
      if (trace == NULL)
        {
          if (!g_file_test (path, G_FILE_TEST_EXISTS))
            {
              g_mutex_unlock (&env->lock);
              g_set_error (error, WS_ERROR, WS_ERROR_NOT_FOUND,
                           "%s: trace file '%s' does not exist; profile the program with `warpscope-cli profile "
                           "-o TRACE -- ./PROGRAM` and import the application again with that trace",
                           op->where, path);
              return FALSE;
            }
          trace = ws_trace_open (path, error);
          if (trace == NULL)
            {
              g_mutex_unlock (&env->lock);
              g_prefix_error (error, "%s: ", op->where);
              return FALSE;
            }
          g_hash_table_insert (env->traces, g_strdup (path), trace);
        }
      g_mutex_unlock (&env->lock);
      if (launch < 0 || launch != floor (launch) || launch >= ws_trace_get_n_launches (trace))
        {
          if (od != NULL)
            g_set_error (error, WS_ERROR, WS_ERROR_INVALID,
                         "%s: launch %g is not in the trace of `%s` (it made %u launches)%s%s", op->where, launch,
                         od->command, ws_trace_get_n_launches (trace),
                         od->stderr_tail != NULL && *od->stderr_tail ? "; the end of its standard error:\n" : "",
                         od->stderr_tail != NULL ? od->stderr_tail : "");
          else
            g_set_error (error, WS_ERROR, WS_ERROR_INVALID, "%s: launch %g is not in trace '%s' (it has %u launches)",
                         op->where, launch, path, ws_trace_get_n_launches (trace));
          return FALSE;
        }
      if (env->plugin == NULL)
        {
          /* The detailed, cycle-level simulator (core/sim): every TB
           * simulated, or TBPoint's homogeneous regions sampled. */
          WsTbpointOptions options;
          ws_tbpoint_options_init (&options);
          options.sampling = env->tbpoint ? WS_SAMPLING_TBPOINT : WS_SAMPLING_NONE;
          options.cancellable = env->cancellable;
          g_autoptr (WsSim) sim = ws_sim_new (g, &options.sim, error);
          WsSimLaunchStats stats = { 0 };
          if (sim == NULL
              || !ws_tbpoint_simulate_launch (sim, trace, (guint) launch, &options, &stats, NULL, NULL, error))
            {
              g_prefix_error (error, "%s: the detailed simulator on %s: ", op->where, g->name);
              return FALSE;
            }
          *seconds = (double) stats.cycles / (g->core_clock_mhz * 1e6);
          ws_sim_launch_stats_clear (&stats);
        }
      else
        {
          g_autoptr (WsPrediction)
            pred = ws_predict_trace (env->plugin, g, trace, (guint) launch, NULL, env->plugin_options, error);
          if (pred == NULL)
            {
              g_prefix_error (error, "%s: predictor '%s' on %s: ", op->where, env->predictor_name, g->name);
              return FALSE;
            }
          env_note_warnings (env, op->where, pred);
          *seconds = pred->seconds;
        }
      g_mutex_lock (&env->lock);
      g_hash_table_replace (env->trace_times, g_steal_pointer (&key), g_memdup2 (seconds, sizeof (double)));
      g_mutex_unlock (&env->lock);
      return TRUE;
    }

  g_autoptr (WsAnalyticKernel) k = ws_analytic_kernel_new (op->name ? op->name : "analytic");
  GString *key = g_string_new (g->name);
  guint n_params;
  const WsAnalyticParam *params = ws_analytic_params (&n_params);
  for (guint i = 0; i < n_params; i++)
    {
      if (op->analytic[i] == NULL)
        continue;
      double v;
      if (!ws_app_eval (op->analytic[i], vars, op->where, params[i].key, &v, error))
        {
          g_string_free (key, TRUE);
          return FALSE;
        }
      if (v < params[i].min || v > params[i].max)
        {
          g_set_error (error, WS_ERROR, WS_ERROR_INVALID, "%s, field '%s': '%s' = %g is %s %.15g", op->where,
                       params[i].key, ws_expr_get_text (op->analytic[i]), v,
                       v < params[i].min ? "below the minimum" : "above the maximum",
                       v < params[i].min ? params[i].min : params[i].max);
          g_string_free (key, TRUE);
          return FALSE;
        }
      ws_analytic_kernel_set (k, params[i].key, v);
      g_string_append_printf (key, "|%u=%.17g", i, v);
    }
  if (s->env->plugin == NULL)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID,
                   "%s: the detailed simulator needs a profiled kernel ('trace' or 'program'); use a predictor "
                   "plugin (--predictor volkov) for analytic kernels",
                   op->where);
      g_string_free (key, TRUE);
      return FALSE;
    }
  double *cached = g_hash_table_lookup (s->kernel_cache, key->str);
  if (cached != NULL)
    {
      *seconds = *cached;
      g_string_free (key, TRUE);
      return TRUE;
    }
  g_autoptr (WsPrediction) pred = ws_predict_analytic (s->env->plugin, g, k, s->env->plugin_options, error);
  if (pred == NULL)
    {
      g_prefix_error (error, "%s: predictor '%s' on %s: ", op->where, s->env->predictor_name, g->name);
      g_string_free (key, TRUE);
      return FALSE;
    }
  env_note_warnings (s->env, op->where, pred);
  *seconds = pred->seconds;
  g_hash_table_insert (s->kernel_cache, g_string_free (key, FALSE), g_memdup2 (seconds, sizeof (double)));
  return TRUE;
}

static int
find_label (const WsAppModel *app, const char *label)
{
  for (guint i = 0; i < app->processes->len; i++)
    if (strcmp (((AppProcess *) app->processes->pdata[i])->label, label) == 0)
      return (int) i;
  return -1;
}

/* The GPU an operation of process @p works on. */
static gboolean
pick_gpu (Sim *s, Proc *p, const AppOp *op, GHashTable *vars, int *gpu, GError **error)
{
  if (inst_at (s, p->inst)->comp->kind == WS_COMPONENT_GPU)
    {
      *gpu = p->inst;
      return TRUE;
    }
  if (p->host < 0)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID, "%s: the process runs on '%s', which has no CPU to drive a GPU",
                   op->where, inst_at (s, p->inst)->name);
      return FALSE;
    }
  g_autoptr (GArray) gpus = linked_gpus (s, p->host);
  if (gpus->len == 0)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID, "%s: CPU '%s' has no GPU linked to it", op->where,
                   inst_at (s, p->host)->name);
      return FALSE;
    }
  double dev = p->slot % gpus->len;
  if (op->device != NULL)
    {
      if (!ws_app_eval (op->device, vars, op->where, "device", &dev, error))
        return FALSE;
      if (dev < 0 || dev != floor (dev) || dev >= gpus->len)
        {
          g_set_error (error, WS_ERROR, WS_ERROR_INVALID,
                       "%s, field 'device': '%s' = %g, but CPU '%s' has %u linked GPU(s) (0 .. %u)", op->where,
                       ws_expr_get_text (op->device), dev, inst_at (s, p->host)->name, gpus->len, gpus->len - 1);
          return FALSE;
        }
    }
  *gpu = g_array_index (gpus, int, (guint) dev);
  return TRUE;
}

static gboolean
pick_peer (Sim *s, Proc *p, const AppOp *op, GHashTable *vars, int *peer, GError **error)
{
  int label = find_label (s->app, op->peer);
  if (label < 0)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID, "%s: there is no process label '%s' in application '%s'",
                   op->where, op->peer, s->app->name);
      return FALSE;
    }
  guint n = 0, first = 0;
  for (guint i = 0; i < s->procs->len; i++)
    if (g_array_index (s->procs, Proc, i).label == label)
      {
        if (n == 0)
          first = i;
        n++;
      }
  if (n == 0)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID, "%s: label '%s' runs no process (its count is 0)", op->where,
                   op->peer);
      return FALSE;
    }
  double rank = p->rank % n;
  if (op->peer_rank != NULL)
    {
      if (!ws_app_eval (op->peer_rank, vars, op->where, "rank", &rank, error))
        return FALSE;
      if (rank < 0 || rank != floor (rank) || rank >= n)
        {
          g_set_error (error, WS_ERROR, WS_ERROR_INVALID,
                       "%s, field 'rank': %g is not a process of label '%s' (0 .. %u)", op->where, rank, op->peer,
                       n - 1);
          return FALSE;
        }
    }
  *peer = (int) (first + (guint) rank);
  return TRUE;
}

static int
barrier_group (Sim *s, char **labels)
{
  g_autofree char *key = labels ? g_strjoinv ("\n", labels) : g_strdup ("");
  for (guint i = 0; i < s->barrier_keys->len; i++)
    if (strcmp (s->barrier_keys->pdata[i], key) == 0)
      return (int) i;
  Barrier *b = g_new0 (Barrier, 1);
  b->waiting = g_array_new (FALSE, FALSE, sizeof (int));
  b->records = g_array_new (FALSE, FALSE, sizeof (int));
  for (guint i = 0; i < s->procs->len; i++)
    {
      Proc *p = &g_array_index (s->procs, Proc, i);
      const char *l = ((AppProcess *) s->app->processes->pdata[p->label])->label;
      if (labels == NULL || g_strv_contains ((const char *const *) labels, l))
        b->n_members++;
    }
  g_ptr_array_add (s->barriers, b);
  g_ptr_array_add (s->barrier_keys, g_steal_pointer (&key));
  return (int) s->barriers->len - 1;
}

static gboolean
unroll (Sim *s, int pi, GPtrArray *ops, GHashTable *vars, GError **error)
{
  for (guint i = 0; i < ops->len; i++)
    {
      const AppOp *op = ops->pdata[i];
      Proc *p = &g_array_index (s->procs, Proc, pi);
      Prim pr = { 0 };
      pr.gpu = pr.peer = pr.group = -1;
      switch (op->kind)
        {
        case APP_OP_LOOP:
          {
            double count;
            if (!ws_app_eval (op->count, vars, op->where, "count", &count, error))
              return FALSE;
            if (count < 0 || count != floor (count))
              {
                g_set_error (error, WS_ERROR, WS_ERROR_INVALID,
                             "%s, field 'count': '%s' = %g is not a whole number >= 0", op->where,
                             ws_expr_get_text (op->count), count);
                return FALSE;
              }
            double *slot = NULL, saved = 0;
            gboolean had = FALSE;
            if (op->loop_var != NULL)
              {
                slot = g_hash_table_lookup (vars, op->loop_var);
                had = slot != NULL;
                if (had)
                  saved = *slot;
                else
                  {
                    slot = g_new (double, 1);
                    g_hash_table_insert (vars, g_strdup (op->loop_var), slot);
                  }
              }
            for (double it = 0; it < count; it++)
              {
                if (slot != NULL)
                  *slot = it;
                if (!unroll (s, pi, op->body, vars, error))
                  return FALSE;
              }
            if (op->loop_var != NULL)
              {
                if (had)
                  *slot = saved;
                else
                  g_hash_table_remove (vars, op->loop_var);
              }
            continue;
          }
        case APP_OP_IF:
          {
            double c;
            if (!ws_app_eval (op->cond, vars, op->where, "condition", &c, error))
              return FALSE;
            GPtrArray *branch = c != 0 ? op->body : op->else_body;
            if (branch != NULL && !unroll (s, pi, branch, vars, error))
              return FALSE;
            continue;
          }
        case APP_OP_H2D:
        case APP_OP_D2H:
          pr.kind = op->kind == APP_OP_H2D ? P_H2D : P_D2H;
          if (!ws_app_eval (op->bytes, vars, op->where, "bytes", &pr.bytes, error)
              || !pick_gpu (s, p, op, vars, &pr.gpu, error))
            return FALSE;
          if (p->host < 0)
            {
              g_set_error (error, WS_ERROR, WS_ERROR_INVALID, "%s: the process has no host CPU to copy from",
                           op->where);
              return FALSE;
            }
          break;
        case APP_OP_SYNC:
          pr.kind = P_SYNC;
          if (!pick_gpu (s, p, op, vars, &pr.gpu, error))
            return FALSE;
          break;
        case APP_OP_KERNEL:
          pr.kind = P_KERNEL;
          pr.name = op->name;
          if (!pick_gpu (s, p, op, vars, &pr.gpu, error) || !kernel_time (s, op, pr.gpu, vars, &pr.seconds, error))
            return FALSE;
          break;
        case APP_OP_HOST:
          pr.kind = P_HOST;
          if (op->seconds != NULL)
            {
              if (!ws_app_eval (op->seconds, vars, op->where, "seconds", &pr.seconds, error))
                return FALSE;
            }
          else
            {
              double ops_n;
              const WsCpu *cpu = p->host >= 0 ? inst_at (s, p->host)->cpu : NULL;
              if (cpu == NULL || cpu->gflops <= 0 || cpu->cores <= 0)
                {
                  g_set_error (error, WS_ERROR, WS_ERROR_INVALID,
                               "%s: 'operations' needs the process on a CPU with gflops and cores in the catalogue",
                               op->where);
                  return FALSE;
                }
              if (!ws_app_eval (op->operations, vars, op->where, "operations", &ops_n, error))
                return FALSE;
              /* One process uses one core: the CPU's peak rate divided by its cores. */
              pr.seconds = ops_n / (cpu->gflops * 1e9 / cpu->cores);
            }
          break;
        case APP_OP_SEND:
          pr.kind = P_SEND;
          if (!ws_app_eval (op->bytes, vars, op->where, "bytes", &pr.bytes, error)
              || !pick_peer (s, p, op, vars, &pr.peer, error))
            return FALSE;
          break;
        case APP_OP_RECV:
          pr.kind = P_RECV;
          if (!pick_peer (s, p, op, vars, &pr.peer, error))
            return FALSE;
          break;
        case APP_OP_BARRIER:
          pr.kind = P_BARRIER;
          pr.group = barrier_group (s, op->barrier_labels);
          break;
        }
      if ((pr.kind == P_H2D || pr.kind == P_D2H || pr.kind == P_SEND) && pr.bytes < 0)
        {
          g_set_error (error, WS_ERROR, WS_ERROR_INVALID, "%s, field 'bytes': %g bytes is negative", op->where,
                       pr.bytes);
          return FALSE;
        }
      if (pr.seconds < 0)
        {
          g_set_error (error, WS_ERROR, WS_ERROR_INVALID, "%s: a negative time (%g s)", op->where, pr.seconds);
          return FALSE;
        }
      if (++s->n_prims > MAX_PRIMS)
        {
          g_set_error (error, WS_ERROR, WS_ERROR_INVALID,
                       "application '%s' unrolls to more than %d operations; reduce the loop counts", s->app->name,
                       MAX_PRIMS);
          return FALSE;
        }
      g_array_append_val (p->prog, pr);
    }
  return TRUE;
}

/* ---- mapping processes to components (seed 004 §5.4.2) ----------------- */

static gboolean
map_processes (Sim *s, GHashTable *vars, GError **error)
{
  const WsAppModel *app = s->app;
  GArray *insts = s->env->insts;
  for (guint li = 0; li < app->processes->len; li++)
    {
      AppProcess *ap = app->processes->pdata[li];
      double count = 1;
      if (ap->count != NULL)
        {
          g_autofree char *where = g_strdup_printf ("application '%s', label '%s'", app->name, ap->label);
          if (!ws_app_eval (ap->count, vars, where, "count", &count, error))
            return FALSE;
        }
      if (count < 0 || count != floor (count))
        {
          g_set_error (error, WS_ERROR, WS_ERROR_INVALID,
                       "application '%s', label '%s': process count %g is not a whole number >= 0", app->name,
                       ap->label, count);
          return FALSE;
        }
      /* Slots: every unit carrying the label, multiplicity times. */
      g_autoptr (GArray) slot_inst = g_array_new (FALSE, FALSE, sizeof (int));
      g_autoptr (GArray) slot_no = g_array_new (FALSE, FALSE, sizeof (int));
      g_autoptr (GString) holders = g_string_new (NULL);
      for (guint i = 0; i < insts->len; i++)
        {
          Inst *in = &g_array_index (insts, Inst, i);
          for (guint l = 0; l < in->comp->labels->len; l++)
            {
              WsSystemLabel *lab = in->comp->labels->pdata[l];
              if (strcmp (lab->name, ap->label) != 0)
                continue;
              if (in->local == 0 && (in->parent < 0 || g_array_index (insts, Inst, in->parent).local == 0))
                g_string_append_printf (holders, "%s%s (multiplicity %d x count %d)", holders->len ? ", " : "",
                                        in->comp->name, lab->multiplicity, in->comp->count);
              for (int m = 0; m < lab->multiplicity; m++)
                {
                  int ii = (int) i;
                  g_array_append_val (slot_inst, ii);
                  g_array_append_val (slot_no, m);
                }
            }
        }
      if (slot_inst->len == 0)
        {
          g_autoptr (GPtrArray) all = g_ptr_array_new ();
          for (guint i = 0; i < insts->len; i++)
            {
              WsComponent *c = g_array_index (insts, Inst, i).comp;
              for (guint l = 0; l < c->labels->len; l++)
                {
                  const char *n = ((WsSystemLabel *) c->labels->pdata[l])->name;
                  if (!g_ptr_array_find_with_equal_func (all, n, g_str_equal, NULL))
                    g_ptr_array_add (all, (gpointer) n);
                }
            }
          g_ptr_array_add (all, NULL);
          g_autofree char *list = g_strjoinv (", ", (char **) all->pdata);
          g_set_error (error, WS_ERROR, WS_ERROR_INVALID,
                       "label '%s' of application '%s' is on no component of system '%s' (its labels: %s); add the "
                       "label to a component",
                       ap->label, app->name, s->env->system->name, list[0] ? list : "none");
          return FALSE;
        }
      if (count > slot_inst->len)
        {
          g_set_error (error, WS_ERROR, WS_ERROR_INVALID,
                       "application '%s' runs %g processes with label '%s', but system '%s' can run %u: %s; raise "
                       "a count or multiplicity, or run fewer processes",
                       app->name, count, ap->label, s->env->system->name, slot_inst->len, holders->str);
          return FALSE;
        }
      for (guint r = 0; r < (guint) count; r++)
        {
          Proc p = { 0 };
          p.label = (int) li;
          p.rank = r;
          p.inst = g_array_index (slot_inst, int, r);
          p.slot = g_array_index (slot_no, int, r);
          p.prog = g_array_new (FALSE, FALSE, sizeof (Prim));
          p.stream_free = g_new0 (double, insts->len);
          p.wait_msg = -1;
          p.recv_rec = -1;
          p.inbox = g_array_new (FALSE, FALSE, sizeof (int));
          Inst *in = &g_array_index (insts, Inst, p.inst);
          p.host = -1;
          if (in->comp->kind == WS_COMPONENT_CPU)
            p.host = p.inst;
          else
            {
              /* A GPU's host is the CPU it is linked to; a machine's is its first CPU. */
              for (guint i = 0; i < insts->len && p.host < 0; i++)
                {
                  Inst *c = &g_array_index (insts, Inst, i);
                  if (c->comp->kind != WS_COMPONENT_CPU)
                    continue;
                  if (in->comp->kind == WS_COMPONENT_MACHINE && c->parent == p.inst)
                    p.host = (int) i;
                  if (in->comp->kind == WS_COMPONENT_GPU)
                    {
                      g_autoptr (GArray) g = linked_gpus (s, (int) i);
                      for (guint j = 0; j < g->len; j++)
                        if (g_array_index (g, int, j) == p.inst)
                          p.host = (int) i;
                    }
                }
            }
          g_array_append_val (s->procs, p);
        }
    }
  return TRUE;
}

/* ---- the event loop ------------------------------------------------------ */

static double
xfer_next (const Xfer *x)
{
  switch (x->phase)
    {
    case 0:
    case 1: return x->t_phase;
    case 2: return x->rate > 0 ? x->t_ref + x->rem_ref / x->rate : (x->rem_ref <= 0 ? x->t_ref : INFINITY);
    default: return INFINITY;
    }
}

/* Re-shares a link direction among its streaming transfers at time @t. */
static void
reshare (Sim *s, int res, double t)
{
  int n = 0;
  for (guint i = 0; i < s->xfers->len; i++)
    {
      Xfer *x = &g_array_index (s->xfers, Xfer, i);
      if (x->phase == 2 && x->res[x->hop] == res)
        n++;
    }
  for (guint i = 0; i < s->xfers->len; i++)
    {
      Xfer *x = &g_array_index (s->xfers, Xfer, i);
      if (x->phase != 2 || x->res[x->hop] != res)
        continue;
      double rate = x->full_rate[x->hop] / n;
      if (rate == x->rate)
        continue;
      /* Bytes left are re-based only when the rate changes, so a transfer
       * alone on its link ends exactly at t_s + n / (bw x lambda_c). */
      if (x->rate > 0)
        x->rem_ref -= x->rate * (t - x->t_ref);
      if (x->rem_ref < 0)
        x->rem_ref = 0;
      x->t_ref = t;
      x->rate = rate;
    }
}

static void proc_unblock (Sim *s, int pi, double t);

static void
xfer_finish (Sim *s, int xi, double t)
{
  Xfer *x = &g_array_index (s->xfers, Xfer, xi);
  x->phase = 3;
  x->end = t;
  if (x->record >= 0)
    ((WsSystemOpRecord *) s->records->pdata[x->record])->end = t;
  if (x->msg >= 0)
    {
      Msg *m = &g_array_index (s->msgs, Msg, x->msg);
      m->arrival = t;
      Proc *dst = &g_array_index (s->procs, Proc, m->dst);
      if (dst->state == 1 && dst->wait_msg == x->msg)
        proc_unblock (s, m->dst, t);
    }
  if (x->waiter >= 0)
    proc_unblock (s, x->waiter, t);
}

/* Moves a transfer's state at time @t (its next event is due). */
static void
xfer_step (Sim *s, int xi, double t)
{
  Xfer *x = &g_array_index (s->xfers, Xfer, xi);
  if (x->nhops == 0)
    {
      xfer_finish (s, xi, t);
      return;
    }
  switch (x->phase)
    {
    case 0:
      x->phase = 1;
      x->hop_start = t;
      x->t_phase = t + x->ts[x->hop];
      break;
    case 1:
      x->phase = 2;
      x->t_ref = x->t_phase;
      x->rem_ref = x->bytes;
      x->rate = 0;
      reshare (s, x->res[x->hop], t);
      break;
    case 2:
      {
        int res = x->res[x->hop];
        add_busy (s, res / 2, x->hop_start, t);
        x->phase = 3;
        reshare (s, res, t);
        x = &g_array_index (s->xfers, Xfer, xi);
        if (x->hop + 1 < x->nhops)
          {
            /* Store and forward: the next hop starts when this one ends. */
            x->hop++;
            x->phase = 1;
            x->hop_start = t;
            x->t_phase = t + x->ts[x->hop];
            x->rate = 0;
          }
        else
          xfer_finish (s, xi, t);
      }
      break;
    }
}

static int
xfer_new (Sim *s, GArray *hops, double bytes, double start, int waiter, int record, int msg)
{
  Xfer x = { 0 };
  x.nhops = hops ? (int) MIN (hops->len, MAX_HOPS) : 0;
  for (int h = 0; h < x.nhops; h++)
    {
      x.res[h] = g_array_index (hops, Edge, h).res;
      resource_params (s, x.res[h], &x.ts[h], &x.full_rate[h]);
    }
  x.phase = 0;
  x.t_phase = start;
  x.bytes = bytes;
  x.start = start;
  x.waiter = waiter;
  x.record = record;
  x.msg = msg;
  g_array_append_val (s->xfers, x);
  return (int) s->xfers->len - 1;
}

static char *
route_name (Sim *s, GArray *hops, int a, int b)
{
  if (hops == NULL || hops->len == 0)
    return g_strdup (inst_at (s, a)->name);
  GString *str = g_string_new (NULL);
  for (guint h = 0; h < hops->len; h++)
    {
      Edge *e = &g_array_index (hops, Edge, h);
      g_string_append_printf (str, "%s%s", h ? ">" : "", inst_at (s, e->res / 2)->name);
    }
  return g_string_free (str, FALSE);
}

static void
proc_unblock (Sim *s, int pi, double t)
{
  Proc *p = &g_array_index (s->procs, Proc, pi);
  p->state = 0;
  p->now = MAX (p->now, t);
  if (p->wait_msg <= -2)
    p->stream_free[-2 - p->wait_msg] = t;
  p->wait_msg = -1;
}

/* Process @pi receives message @mi (its recv record @rec). */
static void
recv_take (Sim *s, int pi, int mi, int rec)
{
  Proc *p = &g_array_index (s->procs, Proc, pi);
  Msg *m = &g_array_index (s->msgs, Msg, mi);
  WsSystemOpRecord *r = s->records->pdata[rec];
  m->taken = TRUE;
  r->bytes = m->bytes;
  if (m->arrival >= 0)
    {
      r->end = MAX (r->start, m->arrival);
      p->state = 0;
      p->now = MAX (p->now, m->arrival);
    }
  else
    {
      p->state = 1;
      p->wait_msg = mi;
      r->end = -2 - mi; /* filled from the message's arrival at the end */
    }
}

static const char *
proc_label (Sim *s, Proc *p)
{
  return ((AppProcess *) s->app->processes->pdata[p->label])->label;
}

/* Executes process @pi's next operation at its current time. */
static gboolean
proc_step (Sim *s, int pi, GError **error)
{
  Proc *p = &g_array_index (s->procs, Proc, pi);
  if (p->pc >= p->prog->len)
    {
      p->state = 2;
      return TRUE;
    }
  Prim *pr = &g_array_index (p->prog, Prim, p->pc++);
  double now = p->now;
  switch (pr->kind)
    {
    case P_KERNEL:
      {
        double start = MAX (now, MAX (p->stream_free[pr->gpu], s->gpu_free[pr->gpu]));
        double end = start + pr->seconds;
        s->gpu_free[pr->gpu] = end;
        p->stream_free[pr->gpu] = end;
        add_record (s, p, P_KERNEL, inst_at (s, pr->gpu)->name, pr->name, 0, start, end);
        add_busy (s, pr->gpu, start, end);
        /* A process that is the GPU itself waits for its kernel; a host goes on (asynchronous launch). */
        if (p->inst == pr->gpu)
          p->now = end;
      }
      break;
    case P_SYNC:
      {
        double end = MAX (now, p->stream_free[pr->gpu]);
        add_record (s, p, P_SYNC, inst_at (s, pr->gpu)->name, NULL, 0, now, end);
        p->now = end;
      }
      break;
    case P_HOST:
      add_record (s, p, P_HOST, inst_at (s, p->host >= 0 ? p->host : p->inst)->name, NULL, 0, now, now + pr->seconds);
      add_busy (s, p->host >= 0 ? p->host : p->inst, now, now + pr->seconds);
      p->now = now + pr->seconds;
      break;
    case P_H2D:
    case P_D2H:
      {
        int a = pr->kind == P_H2D ? p->host : pr->gpu;
        int b = pr->kind == P_H2D ? pr->gpu : p->host;
        GArray *hops = route (s, a, b);
        if (hops == NULL)
          {
            g_set_error (error, WS_ERROR, WS_ERROR_INVALID, "no route from '%s' to '%s' in system '%s'",
                         inst_at (s, a)->name, inst_at (s, b)->name, s->env->system->name);
            return FALSE;
          }
        /* cudaMemcpy: in stream order after queued work, host blocked until done. */
        double start = MAX (now, p->stream_free[pr->gpu]);
        g_autofree char *comp = route_name (s, hops, a, b);
        int rec = add_record (s, p, pr->kind, comp, NULL, pr->bytes, start, -1);
        p->state = 1;
        xfer_new (s, hops, pr->bytes, start, pi, rec, -1);
        /* The stream is free again when the copy ends (proc_unblock). */
        p->stream_free[pr->gpu] = INFINITY;
        p->wait_msg = -2 - pr->gpu;
      }
      break;
    case P_SEND:
      {
        Proc *dst = &g_array_index (s->procs, Proc, pr->peer);
        GArray *hops = route (s, p->inst, dst->inst);
        if (hops == NULL && p->inst != dst->inst)
          {
            g_set_error (error, WS_ERROR, WS_ERROR_INVALID,
                         "label '%s' process %u sends to label '%s' process %u, but there is no route from '%s' to "
                         "'%s' in system '%s'",
                         proc_label (s, p), p->rank, proc_label (s, dst), dst->rank, inst_at (s, p->inst)->name,
                         inst_at (s, dst->inst)->name, s->env->system->name);
            return FALSE;
          }
        Msg m = { pi, pr->peer, pr->bytes, -1, FALSE, now };
        g_array_append_val (s->msgs, m);
        g_autofree char *comp = route_name (s, hops, p->inst, dst->inst);
        int rec = add_record (s, p, P_SEND, comp, NULL, pr->bytes, now, -1);
        int mi = (int) s->msgs->len - 1;
        g_array_append_val (dst->inbox, mi);
        xfer_new (s, p->inst == dst->inst ? NULL : hops, pr->bytes, now, -1, rec, mi);
        dst = &g_array_index (s->procs, Proc, pr->peer);
        if (dst->state == 1 && dst->recv_rec >= 0 && dst->recv_peer == pi)
          {
            int r = dst->recv_rec;
            dst->recv_rec = -1;
            recv_take (s, pr->peer, mi, r);
          }
      }
      break;
    case P_RECV:
      {
        int found = -1;
        while (p->inbox_head < p->inbox->len
               && g_array_index (s->msgs, Msg, g_array_index (p->inbox, int, p->inbox_head)).taken)
          p->inbox_head++;
        for (guint i = p->inbox_head; i < p->inbox->len && found < 0; i++)
          {
            int mi = g_array_index (p->inbox, int, i);
            Msg *m = &g_array_index (s->msgs, Msg, mi);
            if (!m->taken && m->src == pr->peer)
              found = mi;
          }
        int rec = add_record (s, p, P_RECV, inst_at (s, p->inst)->name, NULL, 0, now, -1);
        if (found < 0)
          {
            /* Not sent yet: the matching send hands the message over. */
            p->state = 1;
            p->recv_rec = rec;
            p->recv_peer = pr->peer;
            break;
          }
        recv_take (s, pi, found, rec);
      }
      break;
    case P_BARRIER:
      {
        Barrier *b = s->barriers->pdata[pr->group];
        int rec = add_record (s, p, P_BARRIER, inst_at (s, p->inst)->name, NULL, 0, now, -1);
        b->arrived++;
        b->latest = MAX (b->latest, now);
        g_array_append_val (b->waiting, pi);
        g_array_append_val (b->records, rec);
        p->state = 1;
        if (b->arrived == b->n_members)
          {
            for (guint i = 0; i < b->waiting->len; i++)
              {
                ((WsSystemOpRecord *) s->records->pdata[g_array_index (b->records, int, i)])->end = b->latest;
                proc_unblock (s, g_array_index (b->waiting, int, i), b->latest);
              }
            g_array_set_size (b->waiting, 0);
            g_array_set_size (b->records, 0);
            b->arrived = 0;
            b->latest = 0;
          }
      }
      break;
    }
  return TRUE;
}

static int
cmp_double (gconstpointer a, gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return x < y ? -1 : x > y;
}

static int
cmp_record (gconstpointer a, gconstpointer b)
{
  const WsSystemOpRecord *x = *(WsSystemOpRecord *const *) a, *y = *(WsSystemOpRecord *const *) b;
  return x->start < y->start ? -1 : x->start > y->start;
}

void
ws_system_result_free (WsSystemResult *r)
{
  if (r == NULL)
    return;
  g_clear_pointer (&r->variables, g_hash_table_unref);
  g_clear_pointer (&r->operations, g_ptr_array_unref);
  g_clear_pointer (&r->busy_components, g_ptr_array_unref);
  g_clear_pointer (&r->busy_seconds, g_array_unref);
  g_free (r->error);
  g_free (r);
}

void
ws_system_op_record_free (gpointer p)
{
  WsSystemOpRecord *r = p;
  g_free (r->label);
  g_free (r->op);
  g_free (r->component);
  g_free (r->name);
  g_free (r);
}

static void
barrier_free (gpointer p)
{
  Barrier *b = p;
  g_array_unref (b->waiting);
  g_array_unref (b->records);
  g_free (b);
}

static gboolean
simulate (Sim *s, GError **error)
{
  for (;;)
    {
      double t_proc = INFINITY, t_x = INFINITY;
      int pbest = -1, xbest = -1;
      for (guint i = 0; i < s->procs->len; i++)
        {
          Proc *p = &g_array_index (s->procs, Proc, i);
          if (p->state == 0 && p->now < t_proc)
            {
              t_proc = p->now;
              pbest = (int) i;
            }
        }
      for (guint i = 0; i < s->xfers->len; i++)
        {
          double t = xfer_next (&g_array_index (s->xfers, Xfer, i));
          if (t < t_x)
            {
              t_x = t;
              xbest = (int) i;
            }
        }
      if (pbest < 0 && xbest < 0)
        break;
      /* Transfers due at the same time as a process go first, so a recv
       * sees a message that arrives exactly when it is posted. */
      if (xbest >= 0 && t_x <= t_proc)
        {
          xfer_step (s, xbest, t_x);
          /* Nothing keeps a transfer's index past its last step, so finished
           * ones leave the array and the scans stay short. */
          if (g_array_index (s->xfers, Xfer, xbest).phase == 3)
            g_array_remove_index_fast (s->xfers, xbest);
        }
      else if (!proc_step (s, pbest, error))
        return FALSE;
    }
  for (guint i = 0; i < s->procs->len; i++)
    {
      Proc *p = &g_array_index (s->procs, Proc, i);
      if (p->state != 1)
        continue;
      if (p->recv_rec >= 0)
        {
          Proc *src = &g_array_index (s->procs, Proc, p->recv_peer);
          g_set_error (error, WS_ERROR, WS_ERROR_INVALID,
                       "deadlock in application '%s': label '%s' process %u waits in a recv (its operation %u) for "
                       "a message from label '%s' process %u that is never sent",
                       s->app->name, proc_label (s, p), p->rank, p->pc, proc_label (s, src), src->rank);
        }
      else
        g_set_error (error, WS_ERROR, WS_ERROR_INVALID,
                     "deadlock in application '%s': label '%s' process %u waits at a barrier (its operation %u) "
                     "that other processes never reach",
                     s->app->name, proc_label (s, p), p->rank, p->pc);
      return FALSE;
    }
  return TRUE;
}

WsSystemResult *
ws_system_evaluate (WsSystemEnv *env, const WsAppModel *app, GHashTable *overrides, GError **error)
{
  g_return_val_if_fail (env != NULL && app != NULL, NULL);
  g_autoptr (GHashTable) vars = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  if (!ws_app_bind_variables (app, overrides, vars, error))
    return NULL;
  guint n = env->insts->len;
  Sim s = { 0 };
  s.env = env;
  s.app = app;
  s.procs = g_array_new (FALSE, TRUE, sizeof (Proc));
  s.xfers = g_array_new (FALSE, TRUE, sizeof (Xfer));
  s.msgs = g_array_new (FALSE, TRUE, sizeof (Msg));
  s.barriers = g_ptr_array_new_with_free_func (barrier_free);
  s.barrier_keys = g_ptr_array_new_with_free_func (g_free);
  s.records = g_ptr_array_new_with_free_func (ws_system_op_record_free);
  s.busy = g_new0 (GArray *, n);
  for (guint i = 0; i < n; i++)
    s.busy[i] = g_array_new (FALSE, FALSE, sizeof (double));
  s.kernel_cache = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  s.routes = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) g_array_unref);
  s.gpu_free = g_new0 (double, n);

  WsSystemResult *result = NULL;
  gboolean ok = map_processes (&s, vars, error);
  /* `rank` (the process's number within its label) is visible to its
   * expressions, unless the application defines a variable of that name. */
  gboolean own_rank = !g_hash_table_contains (vars, "rank");
  for (guint i = 0; ok && i < s.procs->len; i++)
    {
      if (own_rank)
        {
          double r = g_array_index (s.procs, Proc, i).rank;
          g_hash_table_insert (vars, g_strdup ("rank"), g_memdup2 (&r, sizeof r));
        }
      ok = unroll (&s, (int) i, ((AppProcess *) app->processes->pdata[g_array_index (s.procs, Proc, i).label])->ops,
                   vars, error);
    }
  if (own_rank)
    g_hash_table_remove (vars, "rank");
  if (ok)
    ok = simulate (&s, error);
  if (ok)
    {
      result = g_new0 (WsSystemResult, 1);
      result->ok = TRUE;
      result->variables = g_hash_table_ref (vars);
      /* Records of a message's receive end when the message arrives. */
      for (guint i = 0; i < s.records->len; i++)
        {
          WsSystemOpRecord *r = s.records->pdata[i];
          if (r->end <= -2)
            r->end = g_array_index (s.msgs, Msg, (guint) (-2 - r->end)).arrival;
          result->total_seconds = MAX (result->total_seconds, r->end);
        }
      g_ptr_array_sort (s.records, cmp_record);
      result->operations = g_steal_pointer (&s.records);
      result->busy_components = g_ptr_array_new_with_free_func (g_free);
      result->busy_seconds = g_array_new (FALSE, FALSE, sizeof (double));
      for (guint i = 0; i < n; i++)
        {
          GArray *iv = s.busy[i];
          if (iv->len == 0)
            continue;
          /* Union of the busy intervals (pairs sorted by start). */
          guint m = iv->len / 2;
          g_autofree double *pairs = g_memdup2 (iv->data, iv->len * sizeof (double));
          qsort (pairs, m, 2 * sizeof (double), (int (*) (const void *, const void *)) cmp_double);
          double busy = 0, cs = pairs[0], ce = pairs[1];
          for (guint k = 1; k < m; k++)
            {
              if (pairs[2 * k] > ce)
                {
                  busy += ce - cs;
                  cs = pairs[2 * k];
                  ce = pairs[2 * k + 1];
                }
              else
                ce = MAX (ce, pairs[2 * k + 1]);
            }
          busy += ce - cs;
          g_ptr_array_add (result->busy_components, g_strdup (inst_at (&s, (int) i)->name));
          g_array_append_val (result->busy_seconds, busy);
        }
    }

  for (guint i = 0; i < s.procs->len; i++)
    {
      Proc *p = &g_array_index (s.procs, Proc, i);
      g_array_unref (p->prog);
      g_array_unref (p->inbox);
      g_free (p->stream_free);
    }
  g_array_unref (s.procs);
  g_array_unref (s.xfers);
  g_array_unref (s.msgs);
  g_ptr_array_unref (s.barriers);
  g_ptr_array_unref (s.barrier_keys);
  g_clear_pointer (&s.records, g_ptr_array_unref);
  for (guint i = 0; i < n; i++)
    g_array_unref (s.busy[i]);
  g_free (s.busy);
  g_hash_table_unref (s.kernel_cache);
  g_hash_table_unref (s.routes);
  g_free (s.gpu_free);
  return result;
}

JsonNode *
ws_system_result_to_json (const WsSystemResult *r)
{
  g_autoptr (JsonBuilder) b = json_builder_new ();
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "variables");
  json_builder_begin_object (b);
  if (r->variables != NULL)
    {
      guint nk;
      g_autofree const char **keys = ws_sorted_keys (r->variables, &nk);
      for (guint i = 0; i < nk; i++)
        {
          json_builder_set_member_name (b, keys[i]);
          json_builder_add_double_value (b, *(double *) g_hash_table_lookup (r->variables, keys[i]));
        }
    }
  json_builder_end_object (b);
  json_builder_set_member_name (b, "ok");
  json_builder_add_boolean_value (b, r->ok);
  if (!r->ok)
    {
      json_builder_set_member_name (b, "error");
      json_builder_add_string_value (b, r->error ? r->error : "");
      /* Only where set: a point the sweep never finished is not a failure of
       * its inputs, and a reader must be able to tell (docs/system-modelling.md). */
      if (r->cancelled)
        {
          json_builder_set_member_name (b, "cancelled");
          json_builder_add_boolean_value (b, TRUE);
        }
      json_builder_end_object (b);
      return json_builder_get_root (b);
    }
  json_builder_set_member_name (b, "total_seconds");
  json_builder_add_double_value (b, r->total_seconds);
  json_builder_set_member_name (b, "operations");
  json_builder_begin_array (b);
  for (guint i = 0; r->operations && i < r->operations->len; i++)
    {
      WsSystemOpRecord *o = r->operations->pdata[i];
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "label");
      json_builder_add_string_value (b, o->label);
      json_builder_set_member_name (b, "rank");
      json_builder_add_int_value (b, o->rank);
      json_builder_set_member_name (b, "op");
      json_builder_add_string_value (b, o->op);
      json_builder_set_member_name (b, "component");
      json_builder_add_string_value (b, o->component);
      if (o->name != NULL)
        {
          json_builder_set_member_name (b, "name");
          json_builder_add_string_value (b, o->name);
        }
      json_builder_set_member_name (b, "bytes");
      json_builder_add_double_value (b, o->bytes);
      json_builder_set_member_name (b, "start");
      json_builder_add_double_value (b, o->start);
      json_builder_set_member_name (b, "end");
      json_builder_add_double_value (b, o->end);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_set_member_name (b, "busy");
  json_builder_begin_object (b);
  for (guint i = 0; r->busy_components && i < r->busy_components->len; i++)
    {
      json_builder_set_member_name (b, r->busy_components->pdata[i]);
      json_builder_add_double_value (b, g_array_index (r->busy_seconds, double, i));
    }
  json_builder_end_object (b);
  json_builder_end_object (b);
  return json_builder_get_root (b);
}
