/* ws-system-sweep.c: sweeps over application variables (seed 004 §5.4.2:
 * the Variables of a simulation launch), evaluated in parallel. */
#include <math.h>
#include <string.h>
#include "system/ws-system-private.h"

#define MAX_SWEEP_VALUES 100000

void
ws_sweep_axis_free (WsSweepAxis *axis)
{
  if (axis == NULL)
    return;
  g_free (axis->variable);
  g_array_unref (axis->values);
  g_free (axis);
}

static gboolean
parse_number (const char *s, double *v)
{
  char *end = NULL;
  g_autofree char *t = g_strstrip (g_strdup (s));
  *v = g_ascii_strtod (t, &end);
  return end != t && *end == '\0' && isfinite (*v);
}

WsSweepAxis *
ws_sweep_axis_parse (const char *text, GError **error)
{
  const char *eq = strchr (text, '=');
  if (eq == NULL || eq == text || eq[1] == '\0')
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID, "sweep '%s': expected VAR=V1,V2,... or VAR=A:B:STEP", text);
      return NULL;
    }
  g_autoptr (WsSweepAxis) axis = g_new0 (WsSweepAxis, 1);
  axis->variable = g_strndup (text, eq - text);
  axis->values = g_array_new (FALSE, FALSE, sizeof (double));
  const char *spec = eq + 1;
  if (strchr (spec, ':') != NULL)
    {
      g_auto (GStrv) parts = g_strsplit (spec, ":", -1);
      double a, b, step;
      if (g_strv_length (parts) != 3 || !parse_number (parts[0], &a) || !parse_number (parts[1], &b)
          || !parse_number (parts[2], &step))
        {
          g_set_error (error, WS_ERROR, WS_ERROR_INVALID, "sweep '%s': a range is A:B:STEP with three numbers", text);
          return NULL;
        }
      if (step == 0 || (b - a) / step < 0)
        {
          g_set_error (error, WS_ERROR, WS_ERROR_INVALID, "sweep '%s': STEP %g never goes from %g to %g", text, step, a,
                       b);
          return NULL;
        }
      /* Inclusive of B up to rounding (0:1:0.1 has 11 values). */
      double n = floor ((b - a) / step + 1e-9) + 1;
      if (n > MAX_SWEEP_VALUES)
        {
          g_set_error (error, WS_ERROR, WS_ERROR_INVALID, "sweep '%s' has %g values; the limit is %d", text, n,
                       MAX_SWEEP_VALUES);
          return NULL;
        }
      for (double i = 0; i < n; i++)
        {
          double v = a + i * step;
          g_array_append_val (axis->values, v);
        }
    }
  else
    {
      g_auto (GStrv) parts = g_strsplit (spec, ",", -1);
      for (guint i = 0; parts[i] != NULL; i++)
        {
          double v;
          if (!parse_number (parts[i], &v))
            {
              g_set_error (error, WS_ERROR, WS_ERROR_INVALID, "sweep '%s': value %u ('%s') is not a number", text,
                           i + 1, parts[i]);
              return NULL;
            }
          g_array_append_val (axis->values, v);
        }
    }
  return g_steal_pointer (&axis);
}

typedef struct {
  WsSystemEnv *env;
  const WsAppModel *app;
  GPtrArray *points; /* of GHashTable* overrides */
  WsSystemResult **results;
  GCancellable *cancellable;
} SweepJob;

static void
sweep_point (gpointer data, gpointer user_data)
{
  SweepJob *job = user_data;
  guint i = GPOINTER_TO_UINT (data) - 1;
  GHashTable *over = job->points->pdata[i];
  g_autoptr (GError) error = NULL;
  WsSystemResult *r = NULL;
  if (g_cancellable_set_error_if_cancelled (job->cancellable, &error))
    r = NULL;
  else
    r = ws_system_evaluate (job->env, job->app, over, &error);
  if (r == NULL)
    {
      r = g_new0 (WsSystemResult, 1);
      r->ok = FALSE;
      /* Not run, or stopped part-way (simulations and on-demand profiles
       * stop on the same cancellable): not a result of this point. */
      r->cancelled = g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
      r->error = g_strdup (error->message);
      r->variables = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
      GHashTableIter it;
      gpointer k, v;
      g_hash_table_iter_init (&it, over);
      while (g_hash_table_iter_next (&it, &k, &v))
        g_hash_table_insert (r->variables, g_strdup (k), g_memdup2 (v, sizeof (double)));
    }
  job->results[i] = r;
}

GPtrArray *
ws_system_sweep (WsSystemEnv *env, const WsAppModel *app, GHashTable *fixed, GPtrArray *axes, guint n_threads,
                 GCancellable *cancellable, GError **error)
{
  gboolean cancelled = FALSE;
  GPtrArray *out = ws_system_sweep_partial (env, app, fixed, axes, n_threads, cancellable, &cancelled, error);
  if (out != NULL && (cancelled || g_cancellable_is_cancelled (cancellable)))
    {
      g_ptr_array_unref (out);
      g_cancellable_set_error_if_cancelled (cancellable, error);
      return NULL;
    }
  return out;
}

GPtrArray *
ws_system_sweep_partial (WsSystemEnv *env, const WsAppModel *app, GHashTable *fixed, GPtrArray *axes, guint n_threads,
                         GCancellable *cancellable, gboolean *was_cancelled, GError **error)
{
  g_return_val_if_fail (env != NULL && app != NULL && was_cancelled != NULL, NULL);
  *was_cancelled = FALSE;
  guint n_points = 1;
  for (guint a = 0; axes != NULL && a < axes->len; a++)
    {
      WsSweepAxis *ax = axes->pdata[a];
      double def;
      if (!ws_app_model_get_default (app, ax->variable, &def))
        {
          g_autofree char *close = ws_suggest_names (ax->variable, ws_app_model_get_variables (app), 2);
          g_set_error (error, WS_ERROR, WS_ERROR_INVALID,
                       "sweep over '%s': application '%s' has no input variable "
                       "of that name%s%s%s",
                       ax->variable, ws_app_model_get_name (app), close ? " (did you mean " : "", close ? close : "",
                       close ? "?)" : "");
          return NULL;
        }
      if (ax->values->len == 0 || (guint64) n_points * ax->values->len > MAX_SWEEP_VALUES)
        {
          g_set_error (error, WS_ERROR, WS_ERROR_INVALID, "the sweep has too many points (limit %d)", MAX_SWEEP_VALUES);
          return NULL;
        }
      n_points *= ax->values->len;
    }
  g_autoptr (GPtrArray) points = g_ptr_array_new_with_free_func ((GDestroyNotify) g_hash_table_unref);
  for (guint p = 0; p < n_points; p++)
    {
      GHashTable *over = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
      if (fixed != NULL)
        {
          GHashTableIter it;
          gpointer k, v;
          g_hash_table_iter_init (&it, fixed);
          while (g_hash_table_iter_next (&it, &k, &v))
            g_hash_table_insert (over, g_strdup (k), g_memdup2 (v, sizeof (double)));
        }
      /* The first axis varies slowest. */
      guint rest = p;
      for (gint a = axes ? (gint) axes->len - 1 : -1; a >= 0; a--)
        {
          WsSweepAxis *ax = axes->pdata[a];
          double v = g_array_index (ax->values, double, rest % ax->values->len);
          rest /= ax->values->len;
          g_hash_table_insert (over, g_strdup (ax->variable), g_memdup2 (&v, sizeof v));
        }
      g_ptr_array_add (points, over);
    }

  SweepJob job = { env, app, points, g_new0 (WsSystemResult *, n_points), cancellable };
  if (n_threads == 0)
    n_threads = g_get_num_processors ();
  n_threads = MIN (n_threads, n_points);
  if (n_threads <= 1)
    {
      for (guint p = 0; p < n_points; p++)
        sweep_point (GUINT_TO_POINTER (p + 1), &job);
    }
  else
    {
      GThreadPool *pool = g_thread_pool_new (sweep_point, &job, (gint) n_threads, TRUE, error);
      if (pool == NULL)
        {
          g_free (job.results);
          return NULL;
        }
      for (guint p = 0; p < n_points; p++)
        g_thread_pool_push (pool, GUINT_TO_POINTER (p + 1), NULL);
      g_thread_pool_free (pool, FALSE, TRUE);
    }
  GPtrArray *out = g_ptr_array_new_with_free_func ((GDestroyNotify) ws_system_result_free);
  for (guint p = 0; p < n_points; p++)
    g_ptr_array_add (out, job.results[p]);
  g_free (job.results);
  for (guint p = 0; p < n_points; p++)
    *was_cancelled |= ((WsSystemResult *) out->pdata[p])->cancelled;
  return out;
}
