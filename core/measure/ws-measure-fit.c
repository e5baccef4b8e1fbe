/* ws-measure-fit.c: least-squares calibration of seed 004's scaling
 * parameters — λk of eq. 4.1 per kernel and architecture, t_s and λc of
 * eq. 4.6 per link direction — from a stored measurement set. */
#include "measure/ws-measure.h"
#include "measure/ws-measure-private.h"
#include "predict/ws-predict.h"
#include "trace/ws-trace.h"
#include <gsl/gsl_fit.h>
#include <math.h>
#include <string.h>

double
ws_measure_pcie_bandwidth_gbs (int gen, int lanes)
{
  /* Per lane and direction after line encoding: 8b/10b up to gen 2,
   * 128b/130b for gens 3-5, FLIT (242/256) for gen 6. */
  static const double per_lane[] = {
    0, 0.25, 0.5, 8.0 * 128 / 130 / 8, 16.0 * 128 / 130 / 8, 32.0 * 128 / 130 / 8, 64.0 * 242 / 256 / 8
  };
  if (gen < 1 || gen >= (int) G_N_ELEMENTS (per_lane) || lanes <= 0)
    return 0;
  return per_lane[gen] * lanes;
}

/* Eq. 4.6: T_c = t_s + n / (bw · λc).  Weighted (1/T²) linear least
 * squares of T against n; intercept t_s, slope 1/(bw · λc). */
gboolean
ws_measure_fit_link (const double *bytes, const double *seconds, guint n, double bandwidth_gbs, WsLinkFit *out,
                     GError **error)
{
  g_return_val_if_fail (out != NULL, FALSE);
  if (!(bandwidth_gbs > 0))
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID,
                   "fitting eq. 4.6 needs the link bandwidth (got %g GB/s); give --bandwidth or --link", bandwidth_gbs);
      return FALSE;
    }
  gboolean distinct = FALSE;
  for (guint i = 0; i < n; i++)
    {
      if (!(seconds[i] > 0) || !(bytes[i] >= 0))
        {
          g_set_error (error, WS_ERROR, WS_ERROR_INVALID, "transfer %u: %g bytes in %g s cannot be fitted", i, bytes[i],
                       seconds[i]);
          return FALSE;
        }
      if (bytes[i] != bytes[0])
        distinct = TRUE;
    }
  if (n < 2 || !distinct)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID,
                   "fitting eq. 4.6 needs transfers of at least two different sizes (got %u transfer%s)", n,
                   n == 1 ? "" : "s");
      return FALSE;
    }
  g_autofree double *w = g_new (double, n);
  for (guint i = 0; i < n; i++)
    w[i] = 1.0 / (seconds[i] * seconds[i]);
  double c0, c1, cov00, cov01, cov11, chisq;
  gsl_fit_wlinear (bytes, 1, w, 1, seconds, 1, n, &c0, &c1, &cov00, &cov01, &cov11, &chisq);
  if (!(c1 > 0))
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID,
                   "the transfer times do not grow with the size (fitted slope %g s/byte); eq. 4.6 does not fit "
                   "these data",
                   c1);
      return FALSE;
    }
  out->startup_s = c0;
  out->lambda = 1.0 / (c1 * bandwidth_gbs * 1e9);
  out->bandwidth_gbs = bandwidth_gbs;
  out->n_points = n;
  double ss = 0;
  for (guint i = 0; i < n; i++)
    {
      double r = (c0 + c1 * bytes[i]) / seconds[i] - 1;
      ss += r * r;
    }
  out->rms_rel_error = sqrt (ss / n);
  return TRUE;
}

/* Eq. 4.1: T_measured = T_model(λ=1) / λk.  Weighted (1/T²) least squares
 * through the origin; λk = 1 / slope.  One point gives seed 004's ratio
 * λk = T_estimated / T_measured. */
gboolean
ws_measure_fit_kernel (const double *model_s, const double *measured_s, guint n, WsKernelFit *out, GError **error)
{
  g_return_val_if_fail (out != NULL, FALSE);
  if (n == 0)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID, "fitting lambda_k needs at least one measured launch");
      return FALSE;
    }
  for (guint i = 0; i < n; i++)
    if (!(model_s[i] > 0) || !(measured_s[i] > 0))
      {
        g_set_error (error, WS_ERROR, WS_ERROR_INVALID,
                     "launch %u: modelled %g s against measured %g s cannot be fitted (both must be positive)", i,
                     model_s[i], measured_s[i]);
        return FALSE;
      }
  g_autofree double *w = g_new (double, n);
  for (guint i = 0; i < n; i++)
    w[i] = 1.0 / (measured_s[i] * measured_s[i]);
  double c1, cov11, sumsq;
  gsl_fit_wmul (model_s, 1, w, 1, measured_s, 1, n, &c1, &cov11, &sumsq);
  out->lambda = 1.0 / c1;
  out->n_points = n;
  double ss = 0;
  for (guint i = 0; i < n; i++)
    {
      double r = c1 * model_s[i] / measured_s[i] - 1;
      ss += r * r;
    }
  out->rms_rel_error = sqrt (ss / n);
  return TRUE;
}

/* ------------------------------------------------------------------------ */
/* Calibration of a stored set */

typedef struct {
  WsStore *store;
  WsMeasurementSet *set;
  WsGpu *gpu;
  WsPredictorPlugin *volkov;
  WsTrace *trace;
  GPtrArray *analytic; /* of WsAnalyticKernel* */
  GHashTable *options; /* lambda=1 */
} Calib;

/* The trace launch that is occurrence @m->occurrence of kernel @m->name
 * with the same grid and block; G_MAXUINT when there is none. */
static guint
find_launch (WsTrace *trace, const WsMeasurement *m)
{
  guint seen = 0;
  for (guint l = 0; l < ws_trace_get_n_launches (trace); l++)
    {
      const WsTraceLaunch *launch = ws_trace_get_launch (trace, l);
      const WsTraceKernel *k = ws_trace_get_kernel (trace, launch->kernel);
      if (strcmp (k->name, m->name) != 0 || memcmp (launch->grid, m->grid, sizeof m->grid) != 0
          || memcmp (launch->block, m->block, sizeof m->block) != 0)
        continue;
      if (seen++ == m->occurrence)
        return l;
    }
  return G_MAXUINT;
}

static gboolean
modelled_seconds (Calib *c, const WsMeasurement *m, double *seconds, GError **error)
{
  g_autoptr (WsPrediction) p = NULL;
  if (c->trace != NULL)
    {
      guint l = find_launch (c->trace, m);
      if (l != G_MAXUINT)
        {
          p = ws_predict_trace (c->volkov, c->gpu, c->trace, l, NULL, c->options, error);
          if (p == NULL)
            {
              g_prefix_error (error, "modelling launch %u of %s: ", l, ws_trace_get_path (c->trace));
              return FALSE;
            }
        }
    }
  if (p == NULL)
    for (guint i = 0; c->analytic && i < c->analytic->len; i++)
      {
        const WsAnalyticKernel *a = g_ptr_array_index (c->analytic, i);
        if (strcmp (a->name, m->name) != 0)
          continue;
        /* The analytic file describes the kernel per warp; the launch
         * configuration is the measured one. */
        g_autoptr (WsAnalyticKernel) k = ws_analytic_kernel_new (a->name);
        GHashTableIter it;
        gpointer key, value;
        g_hash_table_iter_init (&it, a->params);
        while (g_hash_table_iter_next (&it, &key, &value))
          ws_analytic_kernel_set (k, key, *(double *) value);
        ws_analytic_kernel_set (k, "grid_size", (double) m->grid[0] * m->grid[1] * m->grid[2]);
        ws_analytic_kernel_set (k, "block_size", (double) m->block[0] * m->block[1] * m->block[2]);
        ws_analytic_kernel_set (k, "lambda", 1.0);
        p = ws_predict_analytic (c->volkov, c->gpu, k, c->options, error);
        if (p == NULL)
          {
            g_prefix_error (error, "modelling kernel %s (analytic): ", m->name);
            return FALSE;
          }
        break;
      }
  if (p == NULL)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_NOT_FOUND,
                   "kernel %s occurrence %u (grid %ux%ux%u, block %ux%ux%u) of set \"%s\" has no modelled time: "
                   "the set references %s; re-import it with --trace TRACE (a profile of the same program) or "
                   "--analytic FILE.json naming this kernel",
                   m->name, m->occurrence, m->grid[0], m->grid[1], m->grid[2], m->block[0], m->block[1], m->block[2],
                   c->set->name,
                   c->trace ? "a trace without such a launch and no matching analytic kernel"
                            : "neither a trace nor a matching analytic kernel");
      return FALSE;
    }
  *seconds = p->seconds;
  return TRUE;
}

static void
calib_clear (Calib *c)
{
  g_clear_pointer (&c->set, ws_measurement_set_free);
  g_clear_pointer (&c->gpu, ws_gpu_free);
  g_clear_pointer (&c->trace, ws_trace_free);
  g_clear_pointer (&c->analytic, g_ptr_array_unref);
  g_clear_pointer (&c->options, g_hash_table_unref);
}

static gboolean
calibrate_kernels (Calib *c, const WsCalibrateOptions *o, JsonBuilder *b, guint *n_done, GError **error)
{
  /* Kernel names in order of first appearance. */
  g_autoptr (GPtrArray) names = g_ptr_array_new ();
  g_autoptr (GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  for (guint i = 0; i < c->set->rows->len; i++)
    {
      const WsMeasurement *m = &g_array_index (c->set->rows, WsMeasurement, i);
      if (m->kind != WS_MEASURE_KERNEL || (o->kernel && strcmp (o->kernel, m->name) != 0))
        continue;
      if (g_hash_table_add (seen, m->name))
        g_ptr_array_add (names, m->name);
    }
  if (o->kernel && names->len == 0)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_NOT_FOUND, "measurement set \"%s\" has no kernel called %s", c->set->name,
                   o->kernel);
      return FALSE;
    }
  if (names->len == 0)
    return TRUE;

  g_autoptr (GPtrArray) plugins = ws_predictor_scan ();
  c->volkov = ws_predictor_find (plugins, "volkov", error);
  if (c->volkov == NULL)
    {
      g_prefix_error (error, "calibrating lambda_k needs the volkov predictor: ");
      return FALSE;
    }
  c->options = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_hash_table_insert (c->options, g_strdup ("lambda"), g_strdup ("1"));
  if (c->set->trace != NULL && (c->trace = ws_trace_open (c->set->trace, error)) == NULL)
    {
      g_prefix_error (error, "set \"%s\" references the trace: ", c->set->name);
      return FALSE;
    }
  c->analytic = g_ptr_array_new_with_free_func ((GDestroyNotify) ws_analytic_kernel_free);
  for (guint i = 0; i < c->set->analytic->len; i++)
    {
      WsAnalyticKernel *k = ws_analytic_kernel_load (g_ptr_array_index (c->set->analytic, i), error);
      if (k == NULL)
        return FALSE;
      g_ptr_array_add (c->analytic, k);
    }

  for (guint k = 0; k < names->len; k++)
    {
      const char *name = g_ptr_array_index (names, k);
      g_autoptr (GArray) model = g_array_new (FALSE, FALSE, sizeof (double));
      g_autoptr (GArray) meas = g_array_new (FALSE, FALSE, sizeof (double));
      for (guint i = 0; i < c->set->rows->len; i++)
        {
          const WsMeasurement *m = &g_array_index (c->set->rows, WsMeasurement, i);
          if (m->kind != WS_MEASURE_KERNEL || strcmp (m->name, name) != 0)
            continue;
          double t;
          if (!modelled_seconds (c, m, &t, error))
            return FALSE;
          double measured = m->duration_ns * 1e-9;
          g_array_append_val (model, t);
          g_array_append_val (meas, measured);
        }
      WsKernelFit fit;
      if (!ws_measure_fit_kernel ((double *) model->data, (double *) meas->data, model->len, &fit, error))
        {
          g_prefix_error (error, "kernel %s: ", name);
          return FALSE;
        }
      if (!ws_measure_store_put_lambda_kernel (c->store, name, c->gpu->architecture, &fit, c->set->name, c->gpu->name,
                                               error))
        return FALSE;
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "kind");
      json_builder_add_string_value (b, "kernel");
      json_builder_set_member_name (b, "kernel");
      json_builder_add_string_value (b, name);
      json_builder_set_member_name (b, "architecture");
      json_builder_add_string_value (b, c->gpu->architecture);
      json_builder_set_member_name (b, "lambda");
      json_builder_add_double_value (b, fit.lambda);
      json_builder_set_member_name (b, "n_points");
      json_builder_add_int_value (b, fit.n_points);
      json_builder_set_member_name (b, "rms_rel_error");
      json_builder_add_double_value (b, fit.rms_rel_error);
      json_builder_end_object (b);
      (*n_done)++;
    }
  return TRUE;
}

static gboolean
calibrate_links (Calib *c, const WsCalibrateOptions *o, JsonBuilder *b, guint *n_done, GError **error)
{
  g_autoptr (WsLink) link = NULL;
  if (o->link != NULL && (link = ws_store_get_link (c->store, o->link, error)) == NULL)
    return FALSE;
  g_autofree char *link_name = link ? g_strdup (link->name) : g_strdup_printf ("%s PCIe", c->gpu->name);
  static const WsMemcpyDirection dirs[] = { WS_MEMCPY_HTOD, WS_MEMCPY_DTOH };
  gboolean link_changed = FALSE;
  for (guint d = 0; d < G_N_ELEMENTS (dirs); d++)
    {
      g_autoptr (GArray) bytes = g_array_new (FALSE, FALSE, sizeof (double));
      g_autoptr (GArray) secs = g_array_new (FALSE, FALSE, sizeof (double));
      for (guint i = 0; i < c->set->rows->len; i++)
        {
          const WsMeasurement *m = &g_array_index (c->set->rows, WsMeasurement, i);
          if (m->kind != WS_MEASURE_MEMCPY || m->direction != dirs[d])
            continue;
          double n = (double) m->bytes, t = m->duration_ns * 1e-9;
          g_array_append_val (bytes, n);
          g_array_append_val (secs, t);
        }
      if (bytes->len == 0)
        continue;
      double bw = o->bandwidth_gbs;
      if (!(bw > 0) && link != NULL)
        bw = dirs[d] == WS_MEMCPY_HTOD ? link->h2d_bandwidth_gbs : link->d2h_bandwidth_gbs;
      if (!(bw > 0))
        bw = ws_measure_pcie_bandwidth_gbs (c->gpu->pcie_gen, c->gpu->pcie_lanes);
      WsLinkFit fit;
      if (!ws_measure_fit_link ((double *) bytes->data, (double *) secs->data, bytes->len, bw, &fit, error))
        {
          g_prefix_error (error, "%s transfers of set \"%s\": ", ws_memcpy_direction_name (dirs[d]), c->set->name);
          return FALSE;
        }
      if (!ws_measure_store_put_lambda_link (c->store, link_name, dirs[d], &fit, c->set->name, c->gpu->name, error))
        return FALSE;
      if (link != NULL && o->update_link)
        {
          double *startup = dirs[d] == WS_MEMCPY_HTOD ? &link->h2d_startup_us : &link->d2h_startup_us;
          double *lambda = dirs[d] == WS_MEMCPY_HTOD ? &link->h2d_lambda : &link->d2h_lambda;
          *startup = fit.startup_s * 1e6;
          *lambda = fit.lambda;
          link_changed = TRUE;
        }
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "kind");
      json_builder_add_string_value (b, "link");
      json_builder_set_member_name (b, "link");
      json_builder_add_string_value (b, link_name);
      json_builder_set_member_name (b, "direction");
      json_builder_add_string_value (b, ws_memcpy_direction_name (dirs[d]));
      json_builder_set_member_name (b, "startup_s");
      json_builder_add_double_value (b, fit.startup_s);
      json_builder_set_member_name (b, "lambda");
      json_builder_add_double_value (b, fit.lambda);
      json_builder_set_member_name (b, "bandwidth_gbs");
      json_builder_add_double_value (b, fit.bandwidth_gbs);
      json_builder_set_member_name (b, "n_points");
      json_builder_add_int_value (b, fit.n_points);
      json_builder_set_member_name (b, "rms_rel_error");
      json_builder_add_double_value (b, fit.rms_rel_error);
      json_builder_end_object (b);
      (*n_done)++;
    }
  if (link_changed)
    {
      g_autoptr (GDateTime) now = g_date_time_new_now_utc ();
      g_autofree char *when = g_date_time_format (now, "%Y-%m-%d");
      g_autofree char *sources = g_strdup_printf ("%s%sstartup and lambda (eq. 4.6) calibrated by warpscope-cli "
                                                  "calibrate lambda from measurement set \"%s\" on %s",
                                                  link->sources ? link->sources : "", link->sources ? "; " : "",
                                                  c->set->name, when);
      g_free (link->sources);
      link->sources = g_steal_pointer (&sources);
      if (!ws_store_put_link (c->store, link, TRUE, error))
        return FALSE;
    }
  return TRUE;
}

JsonNode *
ws_measure_calibrate_lambda (WsStore *store, const char *set_name, const WsCalibrateOptions *options, GError **error)
{
  g_return_val_if_fail (store != NULL && set_name != NULL, NULL);
  WsCalibrateOptions defaults = { 0 };
  const WsCalibrateOptions *o = options ? options : &defaults;
  Calib c = { .store = store };
  JsonNode *result = NULL;
  g_autoptr (JsonBuilder) b = NULL;
  if ((c.set = ws_measure_store_get (store, set_name, error)) == NULL)
    goto out;
  if ((c.gpu = ws_store_get_gpu (store, c.set->gpu, error)) == NULL)
    {
      g_prefix_error (error, "set \"%s\" was measured on a GPU that is not in the catalogue: ", set_name);
      goto out;
    }
  b = json_builder_new ();
  json_builder_begin_array (b);
  guint n_done = 0;
  if (!calibrate_kernels (&c, o, b, &n_done, error))
    goto out;
  if (o->kernel == NULL && !calibrate_links (&c, o, b, &n_done, error))
    goto out;
  json_builder_end_array (b);
  if (n_done == 0)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID,
                   "measurement set \"%s\" has neither kernels nor host-device copies to calibrate", set_name);
      goto out;
    }
  result = json_builder_get_root (b);
out:
  calib_clear (&c);
  return result;
}
