/* ws-run-queue.c: runs model evaluations one at a time off the main thread. */
#define G_LOG_DOMAIN "ws-run-queue"

#include <glib/gi18n.h>

#include "ws-run-queue.h"
#include "predict/ws-predict.h"
#include "trace/ws-trace.h"

/* What the worker owns while a run executes; freed on the main thread. */
typedef struct {
  WsSystemEnv *env;
  WsAppModel *app;
  GPtrArray *points;  /* of GHashTable* overrides */
  GPtrArray *results; /* filled by the worker */
  gint n_done;        /* atomic */
  /* CPI stacks: the plugin (kept loaded by its scan) on the GPU, per trace. */
  GPtrArray *plugins;
  const WsPredictorPlugin *plugin;
  GHashTable *options; /* the plugin's options (the run's), or NULL */
  WsGpu *gpu;
  GStrv traces;   /* the application's fixed traces */
  char *variable; /* the swept variable (labels of on-demand traces) */
  GArray *values;
  /* Every trace whose launches get CPI stacks / TBPoint views: the fixed
   * ones, then those profiled on demand while the points ran, with a label
   * ("N=1048576" for the point that first used it). */
  GPtrArray *trace_paths, *trace_labels; /* of char* */
  GArray *tbpoint_traces;                /* of guint: indices into trace_paths that get TBPoint views */
  GPtrArray *cpi;                        /* of WsPrediction* */
  GPtrArray *cpi_labels;                 /* of char*, parallel */
  gboolean tbpoint;                      /* compute TBPoint views of the traces' launches */
  GPtrArray *tbpoint_views;              /* of WsTbpointView* */
  GPtrArray *tbpoint_labels;             /* of char*, parallel */
} Job;

struct _WsRunQueue {
  GObject parent_instance;

  WsStore *store;
  GPtrArray *runs;         /* of WsRun* */
  GPtrArray *cancellables; /* parallel to runs */
  int running;             /* index of the running run, or -1 */
  Job *job;
  guint poll_id;
  guint next_id;
};

G_DEFINE_FINAL_TYPE (WsRunQueue, ws_run_queue, G_TYPE_OBJECT)

enum { RUN_CHANGED, RUN_ADDED, N_SIGNALS };
static guint signals[N_SIGNALS];

static void start_next (WsRunQueue *self);

const char *
ws_run_state_name (WsRunState state)
{
  switch (state)
    {
    case WS_RUN_QUEUED: return _ ("queued");
    case WS_RUN_RUNNING: return _ ("running");
    case WS_RUN_DONE: return _ ("done");
    case WS_RUN_FAILED: return _ ("failed");
    case WS_RUN_CANCELLED: return _ ("cancelled");
    default: return "?";
    }
}

static void
run_free (WsRun *run)
{
  g_free (run->system);
  g_free (run->app);
  g_free (run->predictor);
  g_free (run->variable);
  g_array_unref (run->values);
  g_clear_pointer (&run->fixed, g_hash_table_unref);
  g_clear_pointer (&run->options, g_hash_table_unref);
  g_clear_pointer (&run->cpi_colours, g_hash_table_unref);
  g_clear_pointer (&run->results, g_ptr_array_unref);
  g_clear_pointer (&run->cpi, g_ptr_array_unref);
  g_clear_pointer (&run->tbpoint, g_ptr_array_unref);
  g_clear_pointer (&run->cpi_labels, g_ptr_array_unref);
  g_clear_pointer (&run->tbpoint_labels, g_ptr_array_unref);
  g_free (run->error);
  g_free (run);
}

static void
job_free (Job *job)
{
  g_clear_pointer (&job->env, ws_system_env_free);
  g_clear_pointer (&job->app, ws_app_model_free);
  g_clear_pointer (&job->points, g_ptr_array_unref);
  g_clear_pointer (&job->results, g_ptr_array_unref);
  g_clear_pointer (&job->cpi, g_ptr_array_unref);
  g_clear_pointer (&job->tbpoint_views, g_ptr_array_unref);
  g_clear_pointer (&job->tbpoint_labels, g_ptr_array_unref);
  g_clear_pointer (&job->cpi_labels, g_ptr_array_unref);
  g_clear_pointer (&job->trace_paths, g_ptr_array_unref);
  g_clear_pointer (&job->trace_labels, g_ptr_array_unref);
  g_clear_pointer (&job->tbpoint_traces, g_array_unref);
  g_clear_pointer (&job->values, g_array_unref);
  g_free (job->variable);
  g_clear_pointer (&job->gpu, ws_gpu_free);
  g_clear_pointer (&job->traces, g_strfreev);
  g_clear_pointer (&job->plugins, g_ptr_array_unref);
  g_clear_pointer (&job->options, g_hash_table_unref);
  g_free (job);
}

static GHashTable *
copy_overrides (GHashTable *src)
{
  GHashTable *dst = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  GHashTableIter iter;
  gpointer key, value;

  if (src != NULL)
    {
      g_hash_table_iter_init (&iter, src);
      while (g_hash_table_iter_next (&iter, &key, &value))
        g_hash_table_insert (dst, g_strdup (key), g_memdup2 (value, sizeof (double)));
    }
  return dst;
}

static void
changed (WsRunQueue *self, guint index)
{
  g_signal_emit (self, signals[RUN_CHANGED], 0, index);
}

/* Traces the environment profiled on demand for point @i that are new:
 * labelled with the point's value of the swept variable. */
static void
note_profiled_traces (Job *job, guint i)
{
  g_auto (GStrv) traces = ws_system_env_get_profiled_traces (job->env);
  gboolean last = i + 1 == job->points->len;

  for (guint t = 0; traces != NULL && traces[t] != NULL; t++)
    {
      gboolean known = FALSE;

      for (guint k = 0; k < job->trace_paths->len && !known; k++)
        known = g_str_equal (g_ptr_array_index (job->trace_paths, k), traces[t]);
      if (known)
        continue;
      if (last)
        {
          guint index = job->trace_paths->len;
          g_array_append_val (job->tbpoint_traces, index);
        }
      g_ptr_array_add (job->trace_paths, g_strdup (traces[t]));
      g_ptr_array_add (job->trace_labels, job->variable != NULL ? g_strdup_printf (
                                            "%s=%.15g", job->variable, g_array_index (job->values, double, i))
                                                                : g_strdup (""));
    }
}

static void
worker (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  Job *job = task_data;

  for (guint i = 0; i < job->points->len; i++)
    {
      g_autoptr (GError) error = NULL;
      WsSystemResult *result;

      if (g_cancellable_set_error_if_cancelled (cancellable, &error))
        {
          g_task_return_error (task, g_steal_pointer (&error));
          return;
        }
      result = ws_system_evaluate (job->env, job->app, g_ptr_array_index (job->points, i), &error);
      if (result == NULL)
        {
          g_prefix_error (&error, _ ("Point %u of %u: "), i + 1, job->points->len);
          g_task_return_error (task, g_steal_pointer (&error));
          return;
        }
      g_ptr_array_add (job->results, result);
      g_atomic_int_inc (&job->n_done);
      note_profiled_traces (job, i);
    }

  /* The CPI stack of every profiled launch (seed 001 Fig. 33): one bar per
   * launch and configuration; a launch the plugin cannot predict fails the
   * run like a point would. */
  for (guint t = 0; job->plugin != NULL && job->gpu != NULL && t < job->trace_paths->len; t++)
    {
      g_autoptr (GError) error = NULL;
      const char *path = g_ptr_array_index (job->trace_paths, t);
      g_autoptr (WsTrace) trace = ws_trace_open (path, &error);

      for (guint l = 0; trace != NULL && l < ws_trace_get_n_launches (trace); l++)
        {
          WsPrediction *p;

          if (g_cancellable_set_error_if_cancelled (cancellable, &error))
            break;
          p = ws_predict_trace (job->plugin, job->gpu, trace, l, NULL, job->options, &error);
          if (p == NULL)
            break;
          g_ptr_array_add (job->cpi, p);
          g_ptr_array_add (job->cpi_labels, g_strdup (g_ptr_array_index (job->trace_labels, t)));
        }
      if (error != NULL)
        {
          if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
            g_prefix_error (&error, _ ("CPI stack of %s: "), path);
          g_task_return_error (task, g_steal_pointer (&error));
          return;
        }
    }

  /* The TBPoint view of the profiled launches (the fixed traces and those
   * of the last point): each launch simulated in full and sampled, so the
   * view can say what sampling cost. */
  for (guint k = 0; job->tbpoint && job->gpu != NULL && k < job->tbpoint_traces->len; k++)
    {
      g_autoptr (GError) error = NULL;
      guint t = g_array_index (job->tbpoint_traces, guint, k);
      const char *path = g_ptr_array_index (job->trace_paths, t);
      g_autoptr (WsTrace) trace = ws_trace_open (path, &error);
      WsTbpointOptions options;

      ws_tbpoint_options_init (&options);
      options.cancellable = cancellable;
      for (guint l = 0; trace != NULL && l < ws_trace_get_n_launches (trace); l++)
        {
          WsTbpointView *view = ws_tbpoint_view_compute (trace, l, job->gpu, &options, &error);

          if (view == NULL)
            break;
          g_ptr_array_add (job->tbpoint_views, view);
          g_ptr_array_add (job->tbpoint_labels, g_strdup (g_ptr_array_index (job->trace_labels, t)));
        }
      if (error != NULL)
        {
          if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
            g_prefix_error (&error, _ ("TBPoint view of %s: "), path);
          g_task_return_error (task, g_steal_pointer (&error));
          return;
        }
    }
  g_task_return_boolean (task, TRUE);
}

static gboolean
poll_cb (gpointer user_data)
{
  WsRunQueue *self = user_data;
  WsRun *run;
  guint n;

  if (self->running < 0 || self->job == NULL)
    return G_SOURCE_CONTINUE;
  run = g_ptr_array_index (self->runs, self->running);
  n = g_atomic_int_get (&self->job->n_done);
  if (n != run->n_done)
    {
      run->n_done = n;
      changed (self, self->running);
    }
  return G_SOURCE_CONTINUE;
}

static void
on_run_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  WsRunQueue *self = WS_RUN_QUEUE (source);
  guint index = GPOINTER_TO_UINT (user_data);
  WsRun *run = g_ptr_array_index (self->runs, index);
  Job *job = g_steal_pointer (&self->job);
  g_autoptr (GError) error = NULL;

  if (g_task_propagate_boolean (G_TASK (result), &error))
    {
      g_autoptr (GError) store_error = NULL;
      g_autoptr (WsSystemModel) system = ws_system_store_get_system (self->store, run->system, NULL);

      run->state = WS_RUN_DONE;
      run->results = g_steal_pointer (&job->results);
      run->cpi = g_steal_pointer (&job->cpi);
      if (job->plugin != NULL)
        {
          guint n_cpi = 0;
          const WsPredictorCpiCategory *cpi = ws_predictor_plugin_cpi_categories (job->plugin, &n_cpi);

          for (guint c = 0; c < n_cpi; c++)
            if (cpi[c].colour != NULL)
              {
                if (run->cpi_colours == NULL)
                  run->cpi_colours = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
                g_hash_table_insert (run->cpi_colours, g_strdup (cpi[c].name), g_strdup (cpi[c].colour));
              }
        }
      run->tbpoint = g_steal_pointer (&job->tbpoint_views);
      run->cpi_labels = g_steal_pointer (&job->cpi_labels);
      run->tbpoint_labels = g_steal_pointer (&job->tbpoint_labels);
      run->n_done = run->results->len;
      /* Kept in the workspace like `warpscope-cli sweep` does; a store
       * failure is reported but the results stay on screen. */
      if (system != NULL)
        run->sweep_id = ws_system_store_put_sweep (self->store, system, job->app, run->predictor, run->options,
                                                   run->results, 0.0, &store_error);
      if (store_error != NULL)
        run->error = g_strdup_printf (_ ("The results could not be saved: %s"), store_error->message);
    }
  else if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    run->state = WS_RUN_CANCELLED;
  else
    {
      run->state = WS_RUN_FAILED;
      run->error = g_strdup (error->message);
    }
  job_free (job);
  self->running = -1;
  g_clear_handle_id (&self->poll_id, g_source_remove);
  changed (self, index);
  start_next (self);
  g_object_unref (self);
}

static void
fail_run (WsRunQueue *self, guint index, const GError *error)
{
  WsRun *run = g_ptr_array_index (self->runs, index);

  run->state = WS_RUN_FAILED;
  run->error = g_strdup (error->message);
  changed (self, index);
}

/* The catalogue name of the first GPU, depth first. */
static const char *
first_gpu (GPtrArray *components)
{
  for (guint i = 0; components != NULL && i < components->len; i++)
    {
      WsComponent *c = g_ptr_array_index (components, i);
      const char *found;

      if (c->kind == WS_COMPONENT_GPU && c->hw != NULL)
        return c->hw;
      if ((found = first_gpu (c->children)) != NULL)
        return found;
    }
  return NULL;
}

static void
start_next (WsRunQueue *self)
{
  for (guint i = 0; self->running < 0 && i < self->runs->len; i++)
    {
      WsRun *run = g_ptr_array_index (self->runs, i);
      g_autoptr (GError) error = NULL;
      g_autoptr (WsSystemModel) system = NULL;
      g_autoptr (GTask) task = NULL;
      Job *job;

      if (run->state != WS_RUN_QUEUED)
        continue;
      if (self->store == NULL)
        {
          g_set_error (&error, WS_ERROR, WS_ERROR_INVALID, _ ("No workspace is open to run “%s” in."), run->app);
          fail_run (self, i, error);
          continue;
        }
      job = g_new0 (Job, 1);
      system = ws_system_store_get_system (self->store, run->system, &error);
      if (system != NULL)
        job->app = ws_system_store_get_app (self->store, run->app, &error);
      if (job->app != NULL)
        job->env = ws_system_env_new (self->store, system, run->predictor, &error);
      if (job->env == NULL)
        {
          job_free (job);
          fail_run (self, i, error);
          continue;
        }
      if (run->options != NULL && !ws_system_env_set_predictor_options (job->env, run->options, &error))
        {
          job_free (job);
          fail_run (self, i, error);
          continue;
        }
      ws_system_env_set_cancellable (job->env, g_ptr_array_index (self->cancellables, i));
      job->options = run->options != NULL ? g_hash_table_ref (run->options) : NULL;
      job->cpi = g_ptr_array_new_with_free_func ((GDestroyNotify) ws_prediction_free);
      job->cpi_labels = g_ptr_array_new_with_free_func (g_free);
      job->tbpoint_views = g_ptr_array_new_with_free_func ((GDestroyNotify) ws_tbpoint_view_free);
      job->tbpoint_labels = g_ptr_array_new_with_free_func (g_free);
      job->trace_paths = g_ptr_array_new_with_free_func (g_free);
      job->trace_labels = g_ptr_array_new_with_free_func (g_free);
      job->tbpoint_traces = g_array_new (FALSE, FALSE, sizeof (guint));
      job->variable = g_strdup (run->variable);
      job->values = g_array_ref (run->values);
      job->traces = ws_app_model_get_traces (job->app);
      for (guint t = 0; job->traces != NULL && job->traces[t] != NULL; t++)
        {
          g_array_append_val (job->tbpoint_traces, t);
          g_ptr_array_add (job->trace_paths, g_strdup (job->traces[t]));
          g_ptr_array_add (job->trace_labels, g_strdup (""));
        }
      {
        const char *gpu_name = first_gpu (system->components);

        job->gpu = gpu_name != NULL ? ws_store_get_gpu (self->store, gpu_name, NULL) : NULL;
      }
      if (g_str_equal (run->predictor, WS_SYSTEM_PREDICTOR_SIMULATOR_TBPOINT))
        job->tbpoint = TRUE;
      else if (!g_str_equal (run->predictor, WS_SYSTEM_PREDICTOR_SIMULATOR) && job->gpu != NULL)
        {
          job->plugins = ws_predictor_scan ();
          job->plugin = ws_predictor_find (job->plugins, run->predictor, NULL);
        }
      job->points = g_ptr_array_new_with_free_func ((GDestroyNotify) g_hash_table_unref);
      job->results = g_ptr_array_new_with_free_func ((GDestroyNotify) ws_system_result_free);
      for (guint p = 0; p < (run->variable != NULL ? run->values->len : 1); p++)
        {
          GHashTable *overrides = copy_overrides (run->fixed);

          if (run->variable != NULL)
            g_hash_table_insert (overrides, g_strdup (run->variable),
                                 g_memdup2 (&g_array_index (run->values, double, p), sizeof (double)));
          g_ptr_array_add (job->points, overrides);
        }

      self->running = i;
      self->job = job;
      run->state = WS_RUN_RUNNING;
      run->n_done = 0;
      changed (self, i);
      self->poll_id = g_timeout_add (100, poll_cb, self);
      task = g_task_new (self, g_ptr_array_index (self->cancellables, i), on_run_done, GUINT_TO_POINTER (i));
      g_object_ref (self);
      /* The job outlives the task data slot: on_run_done frees it. */
      g_task_set_task_data (task, job, NULL);
      g_task_run_in_thread (task, worker);
    }
}

guint
ws_run_queue_add (WsRunQueue *self, const char *system, const char *app, const char *predictor, const char *variable,
                  GArray *values, GHashTable *fixed, GHashTable *options)
{
  WsRun *run;
  guint index;

  g_return_val_if_fail (WS_IS_RUN_QUEUE (self), 0);
  g_return_val_if_fail (system != NULL && app != NULL && predictor != NULL, 0);

  run = g_new0 (WsRun, 1);
  run->id = ++self->next_id;
  run->system = g_strdup (system);
  run->app = g_strdup (app);
  run->predictor = g_strdup (predictor);
  run->variable = variable != NULL && values != NULL && values->len > 0 ? g_strdup (variable) : NULL;
  run->values = g_array_new (FALSE, FALSE, sizeof (double));
  if (run->variable != NULL)
    g_array_append_vals (run->values, values->data, values->len);
  run->fixed = copy_overrides (fixed);
  if (options != NULL)
    {
      GHashTableIter it;
      gpointer key, value;

      run->options = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
      g_hash_table_iter_init (&it, options);
      while (g_hash_table_iter_next (&it, &key, &value))
        g_hash_table_insert (run->options, g_strdup (key), g_strdup (value));
    }
  run->state = WS_RUN_QUEUED;
  index = self->runs->len;
  g_ptr_array_add (self->runs, run);
  g_ptr_array_add (self->cancellables, g_cancellable_new ());
  g_signal_emit (self, signals[RUN_ADDED], 0, index);
  start_next (self);
  return index;
}

guint
ws_run_queue_get_n_runs (WsRunQueue *self)
{
  g_return_val_if_fail (WS_IS_RUN_QUEUE (self), 0);
  return self->runs->len;
}

const WsRun *
ws_run_queue_get_run (WsRunQueue *self, guint index)
{
  g_return_val_if_fail (WS_IS_RUN_QUEUE (self), NULL);
  return index < self->runs->len ? g_ptr_array_index (self->runs, index) : NULL;
}

void
ws_run_queue_cancel (WsRunQueue *self, guint index)
{
  WsRun *run;

  g_return_if_fail (WS_IS_RUN_QUEUE (self));
  if (index >= self->runs->len)
    return;
  run = g_ptr_array_index (self->runs, index);
  if (run->state == WS_RUN_QUEUED)
    {
      run->state = WS_RUN_CANCELLED;
      changed (self, index);
    }
  else if (run->state == WS_RUN_RUNNING)
    g_cancellable_cancel (g_ptr_array_index (self->cancellables, index));
}

gboolean
ws_run_queue_is_busy (WsRunQueue *self)
{
  g_return_val_if_fail (WS_IS_RUN_QUEUE (self), FALSE);
  return self->running >= 0;
}

void
ws_run_queue_set_store (WsRunQueue *self, WsStore *store)
{
  g_return_if_fail (WS_IS_RUN_QUEUE (self));
  self->store = store;
}

static void
ws_run_queue_finalize (GObject *object)
{
  WsRunQueue *self = WS_RUN_QUEUE (object);

  /* A running task holds a reference, so no job is left here. */
  g_clear_handle_id (&self->poll_id, g_source_remove);
  g_ptr_array_unref (self->runs);
  g_ptr_array_unref (self->cancellables);
  G_OBJECT_CLASS (ws_run_queue_parent_class)->finalize (object);
}

static void
ws_run_queue_class_init (WsRunQueueClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = ws_run_queue_finalize;
  signals[RUN_CHANGED] = g_signal_new ("run-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                       G_TYPE_NONE, 1, G_TYPE_UINT);
  signals[RUN_ADDED] = g_signal_new ("run-added", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                     G_TYPE_NONE, 1, G_TYPE_UINT);
}

static void
ws_run_queue_init (WsRunQueue *self)
{
  self->runs = g_ptr_array_new_with_free_func ((GDestroyNotify) run_free);
  self->cancellables = g_ptr_array_new_with_free_func (g_object_unref);
  self->running = -1;
}

WsRunQueue *
ws_run_queue_new (void)
{
  return g_object_new (WS_TYPE_RUN_QUEUE, NULL);
}
