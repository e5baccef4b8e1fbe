/* ws-tbpoint.c: TBPoint (seed 000 §III-IV, seed 001 ch. 3). */
#include "tbpoint/ws-tbpoint.h"
#include "occupancy/ws-occupancy.h"

#include <gsl/gsl_blas.h>
#include <gsl/gsl_matrix.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <string.h>

/* ---- hierarchical clustering ------------------------------------------------ */

guint
ws_tbpoint_cluster (const double *points, guint n, guint dim, double threshold, int *cluster)
{
  if (n == 0)
    return 0;
  /* Complete linkage with the Lance-Williams update D(i+j, k) = max (D(i,k),
   * D(j,k)); each active cluster caches its nearest neighbour, which is
   * only recomputed when that neighbour was merged (distances only grow). */
  double *d = g_new (double, (gsize) n *n);
  for (guint i = 0; i < n; i++)
    for (guint j = 0; j < n; j++)
      {
        double s = 0;
        for (guint k = 0; k < dim; k++)
          {
            double t = points[(gsize) i * dim + k] - points[(gsize) j * dim + k];
            s += t * t;
          }
        d[(gsize) i * n + j] = sqrt (s);
      }
  guint *parent = g_new (guint, n); /* member -> representative index */
  gboolean *active = g_new (gboolean, n);
  guint *nn = g_new (guint, n);
  double *nnd = g_new (double, n);
  for (guint i = 0; i < n; i++)
    {
      parent[i] = i;
      active[i] = TRUE;
    }
/* clang-format off */
#define NEAREST(i) do { \
    nn[i] = G_MAXUINT; nnd[i] = INFINITY; \
    for (guint k_ = 0; k_ < n; k_++) \
      if (k_ != (i) && active[k_] && d[(gsize) (i) * n + k_] < nnd[i]) \
        { nnd[i] = d[(gsize) (i) * n + k_]; nn[i] = k_; } \
  } while (0)
  /* clang-format on */
  for (guint i = 0; i < n; i++)
    NEAREST (i);
  for (;;)
    {
      guint best = G_MAXUINT;
      for (guint i = 0; i < n; i++)
        if (active[i] && nn[i] != G_MAXUINT && (best == G_MAXUINT || nnd[i] < nnd[best]))
          best = i;
      if (best == G_MAXUINT || nnd[best] > threshold)
        break;
      guint a = MIN (best, nn[best]), b = MAX (best, nn[best]);
      active[b] = FALSE;
      for (guint k = 0; k < n; k++)
        {
          double m = MAX (d[(gsize) a * n + k], d[(gsize) b * n + k]);
          d[(gsize) a * n + k] = d[(gsize) k * n + a] = m;
        }
      for (guint k = 0; k < n; k++)
        if (parent[k] == b)
          parent[k] = a;
      for (guint k = 0; k < n; k++)
        if (active[k] && (k == a || nn[k] == a || nn[k] == b))
          NEAREST (k);
    }
#undef NEAREST
  /* Number clusters by their first member. */
  int *id = g_new (int, n);
  for (guint i = 0; i < n; i++)
    id[i] = -1;
  guint k = 0;
  for (guint i = 0; i < n; i++)
    {
      guint r = parent[i];
      if (id[r] < 0)
        id[r] = (int) k++;
      cluster[i] = id[r];
    }
  g_free (id);
  g_free (d);
  g_free (parent);
  g_free (active);
  g_free (nn);
  g_free (nnd);
  return k;
}

/* ---- inter-launch ------------------------------------------------------------ */

/* Coordinates of a launch: eq. 2's four, the kernel, the L2 state. */
#define INTER_DIM 6

static WsTbpointInter *
inter_launch (const WsTrace *trace, double *l2_hit_rate, double threshold)
{
  WsTbpointInter *r = g_new0 (WsTbpointInter, 1);
  guint n = ws_trace_get_n_launches (trace);
  r->n_launches = n;
  r->features = g_new0 (WsTraceInterFeatures, MAX (n, 1u));
  r->cluster = g_new0 (int, MAX (n, 1u));
  r->l2_hit_rate = l2_hit_rate;
  if (n == 0)
    return r;
  ws_trace_get_inter_launch_features (trace, r->features);
  /* Seed 000 eq. 2: <thread insts, warp insts, memory requests (each over
   * its average), CoV of TB sizes>.  A fifth coordinate, the kernel index
   * times a distance no threshold reaches, keeps launches of different
   * kernels apart: the seed evaluates one kernel per program (§V-A), and
   * two kernels with equal counts (a naive and a tiled transpose) need not
   * perform alike.  A sixth, where known (ws_tbpoint_inter_launch_on_gpu),
   * eq. 2's memory requests that miss a functional L2 in program order: the
   * third coordinate times the launch's miss rate, so that requests served
   * by the DRAM and by the L2 count apart in the same unit.  The first
   * launch over a buffer misses where the later ones hit (blackscholes: 0
   * and 100 % L2 hits, 1.0 apart), and a few misses cost much (spmv's first
   * launch misses 9 % of its sectors, 0.12 apart from the others, and takes
   * twice as long).  The misses over their own average, as eq. 2 takes its
   * counts, split launches whose misses are a small part of their requests
   * too (sssp: 175 clusters of 544 launches, a 47 % sample). */
  g_autofree double *pts = g_new (double, (gsize) INTER_DIM *n);
  for (guint i = 0; i < n; i++)
    {
      double *x = &pts[i * INTER_DIM];
      x[0] = r->features[i].thread_instructions;
      x[1] = r->features[i].warp_instructions;
      x[2] = r->features[i].memory_requests;
      x[3] = r->features[i].cov_tb_size;
      x[4] = 1e9 * ws_trace_get_launch (trace, i)->kernel;
      x[5] = l2_hit_rate != NULL ? x[2] * (1 - l2_hit_rate[i]) : 0;
    }
  r->n_clusters = ws_tbpoint_cluster (pts, n, INTER_DIM, threshold, r->cluster);
  r->representative = g_new0 (guint, r->n_clusters);
  r->weight = g_new0 (double, r->n_clusters);
  /* The centre of a cluster is weighted by warp instructions, the same
   * weight Table IV gives each launch: the representative's CPI is charged
   * to every instruction of the cluster, so it must stand for where the
   * cluster's instructions are.  An unweighted centre lets a launch of one
   * TB represent one of dozens when both are tiny next to the average
   * launch (eq. 2 normalises by it), and the one-TB launch's CPI is many
   * times higher (scan, bfs).  Clusters of equal launches are unaffected. */
  g_autofree double *centre = g_new0 (double, INTER_DIM *(gsize) r->n_clusters);
  g_autofree double *mass = g_new0 (double, r->n_clusters);
  double total = 0;
  for (guint i = 0; i < n; i++)
    {
      int c = r->cluster[i];
      double wi = (double) ws_trace_get_launch (trace, i)->warp_instructions;
      double m = MAX (wi, 1.0);
      mass[c] += m;
      for (int k = 0; k < INTER_DIM; k++)
        centre[c * INTER_DIM + k] += m * pts[i * INTER_DIM + k];
      r->weight[c] += wi;
      total += wi;
    }
  g_autofree double *best = g_new (double, r->n_clusters);
  for (guint c = 0; c < r->n_clusters; c++)
    {
      for (int k = 0; k < INTER_DIM; k++)
        centre[c * INTER_DIM + k] /= mass[c];
      best[c] = INFINITY;
      r->weight[c] = total > 0 ? r->weight[c] / total : 0;
    }
  g_autofree double *dist = g_new (double, n);
  for (guint i = 0; i < n; i++)
    {
      int c = r->cluster[i];
      double s = 0;
      for (int k = 0; k < INTER_DIM; k++)
        if (k != 4) /* the kernel: the same in a cluster */
          s += (pts[i * INTER_DIM + k] - centre[c * INTER_DIM + k])
               * (pts[i * INTER_DIM + k] - centre[c * INTER_DIM + k]);
      dist[i] = sqrt (s);
      best[c] = MIN (best[c], dist[i]);
    }
  /* The launch nearest the centre; among launches equally near (identical
   * launches are common), the middle one in program order, so that the
   * representative does not start with the cold caches of the first. */
  g_autofree guint *ties = g_new0 (guint, r->n_clusters);
  for (guint i = 0; i < n; i++)
    if (dist[i] <= best[r->cluster[i]] + 1e-9)
      ties[r->cluster[i]]++;
  g_autofree guint *seen = g_new0 (guint, r->n_clusters);
  for (guint i = 0; i < n; i++)
    {
      int c = r->cluster[i];
      if (dist[i] <= best[c] + 1e-9)
        {
          if (seen[c] == ties[c] / 2)
            r->representative[c] = i;
          seen[c]++;
        }
    }
  return r;
}

WsTbpointInter *
ws_tbpoint_inter_launch (const WsTrace *trace, double threshold)
{
  return inter_launch (trace, NULL, threshold);
}

WsTbpointInter *
ws_tbpoint_inter_launch_on_gpu (WsTrace *trace, const WsGpu *gpu, double threshold, GError **error)
{
  guint n = ws_trace_get_n_launches (trace);
  if (gpu == NULL || n < 2)
    return ws_tbpoint_inter_launch (trace, threshold); /* one launch: one cluster */
  /* The simulator's own functional warming, on an L2 of its own. */
  WsSimConfig config;
  ws_sim_config_init (&config);
  g_autoptr (WsSim) probe = ws_sim_new (gpu, &config, error);
  if (probe == NULL)
    return NULL;
  g_autofree double *rate = g_new (double, n);
  for (guint i = 0; i < n; i++)
    {
      uint64_t hits = 0, sectors = 0;
      if (!ws_sim_warm_launch_hits (probe, trace, i, &hits, &sectors, error))
        return NULL;
      /* A launch without loads has no cold start to tell apart. */
      rate[i] = sectors > 0 ? (double) hits / (double) sectors : 1.0;
    }
  return inter_launch (trace, g_steal_pointer (&rate), threshold);
}

void
ws_tbpoint_inter_free (WsTbpointInter *r)
{
  if (r == NULL)
    return;
  g_free (r->cluster);
  g_free (r->representative);
  g_free (r->weight);
  g_free (r->features);
  g_free (r->l2_hit_rate);
  g_free (r);
}

/* ---- intra-launch regions ------------------------------------------------------ */

WsTbpointRegions *
ws_tbpoint_regions (const WsTrace *trace, guint launch, const WsGpu *gpu, double threshold, double vf_threshold,
                    GError **error)
{
  if (launch >= ws_trace_get_n_launches (trace))
    {
      g_set_error (error, WS_ERROR, WS_ERROR_NOT_FOUND, "trace '%s' has no launch %u", ws_trace_get_path (trace),
                   launch);
      return NULL;
    }
  const WsTraceLaunch *l = ws_trace_get_launch (trace, launch);
  const WsTraceKernel *k = ws_trace_get_kernel (trace, l->kernel);
  WsOccupancy occ;
  int threads = (int) (l->block[0] * l->block[1] * l->block[2]);
  if (!ws_occupancy_compute (gpu, threads, (int) k->regs_per_thread,
                             (int) (k->static_shared_bytes + l->dynamic_shared_bytes), &occ, error))
    return NULL;
  int per_sm = occ.blocks_per_sm;
  if (l->warps_per_tb > 0 && gpu->max_warps_per_sm > 0)
    per_sm = MIN (per_sm, gpu->max_warps_per_sm / (int) l->warps_per_tb);
  if (per_sm <= 0)
    per_sm = 1;
  WsTbpointRegions *r = g_new0 (WsTbpointRegions, 1);
  uint64_t n_tbs = 0;
  ws_trace_get_tb_counters (trace, launch, &n_tbs);
  r->n_tbs = n_tbs;
  /* Eq. 4: the epoch size is the system occupancy on this GPU. */
  r->epoch_size = (guint) (per_sm * MAX (gpu->sms, 1));
  r->n_epochs = ws_trace_get_epochs (trace, launch, r->epoch_size, FALSE, &r->epochs);
  r->epoch_cluster = g_new (int, MAX (r->n_epochs, 1u));
  r->tb_region = g_new (int32_t, MAX (n_tbs, (uint64_t) 1));
  for (uint64_t i = 0; i < n_tbs; i++)
    r->tb_region[i] = -1;
  if (r->n_epochs == 0)
    return r;
  /* Eq. 5: the intra-feature vector is the epoch's average stall probability. */
  g_autofree double *pts = g_new (double, r->n_epochs);
  for (guint e = 0; e < r->n_epochs; e++)
    pts[e] = r->epochs[e].stall_probability;
  ws_tbpoint_cluster (pts, r->n_epochs, 1, threshold, r->epoch_cluster);
  /* Outlier TBs: an epoch whose variation factor is above the threshold
   * leaves its cluster and belongs to no region. */
  for (guint e = 0; e < r->n_epochs; e++)
    if (r->epochs[e].variation_factor > vf_threshold)
      r->epoch_cluster[e] = -1;
  /* Consecutive epochs of one cluster form a region (Table III). */
  GArray *regions = g_array_new (FALSE, TRUE, sizeof (WsTbpointRegion));
  guint e = 0;
  while (e < r->n_epochs)
    {
      int c = r->epoch_cluster[e];
      guint f = e + 1;
      while (f < r->n_epochs && r->epoch_cluster[f] == c && c >= 0)
        f++;
      if (c >= 0)
        {
          WsTbpointRegion reg = { .id = (int32_t) regions->len, .cluster = c };
          reg.first_tb = r->epochs[e].first_tb;
          reg.last_tb = r->epochs[f - 1].first_tb + r->epochs[f - 1].n_tbs - 1;
          double sp = 0;
          for (guint x = e; x < f; x++)
            sp += r->epochs[x].stall_probability;
          reg.stall_probability = sp / (f - e);
          for (uint64_t t = reg.first_tb; t <= reg.last_tb && t < n_tbs; t++)
            r->tb_region[t] = reg.id;
          g_array_append_val (regions, reg);
        }
      e = f;
    }
  r->n_regions = regions->len;
  r->regions = (WsTbpointRegion *) g_array_free (regions, FALSE);
  return r;
}

void
ws_tbpoint_regions_free (WsTbpointRegions *r)
{
  if (r == NULL)
    return;
  g_free (r->epochs);
  g_free (r->epoch_cluster);
  g_free (r->regions);
  g_free (r->tb_region);
  g_free (r);
}

/* ---- whole-trace simulation --------------------------------------------------- */

const char *
ws_sampling_name (WsSampling s)
{
  switch (s)
    {
    case WS_SAMPLING_TBPOINT: return "tbpoint";
    case WS_SAMPLING_RANDOM: return "random";
    default: return "none";
    }
}

gboolean
ws_sampling_from_string (const char *s, WsSampling *out)
{
  if (g_ascii_strcasecmp (s, "none") == 0)
    *out = WS_SAMPLING_NONE;
  else if (g_ascii_strcasecmp (s, "tbpoint") == 0)
    *out = WS_SAMPLING_TBPOINT;
  else if (g_ascii_strcasecmp (s, "random") == 0)
    *out = WS_SAMPLING_RANDOM;
  else
    return FALSE;
  return TRUE;
}

void
ws_tbpoint_options_init (WsTbpointOptions *o)
{
  memset (o, 0, sizeof *o);
  o->sampling = WS_SAMPLING_NONE;
  ws_sim_config_init (&o->sim);
  o->inter_threshold = 0.1;
  o->intra_threshold = 0.2;
  o->vf_threshold = 0.3;
  o->ipc_tolerance = 0.1;
  o->random_fraction = 0.1;
  o->random_seed = 1;
  o->warm_skipped = TRUE;
}

void
ws_tbpoint_result_free (WsTbpointResult *r)
{
  if (r == NULL)
    return;
  for (guint i = 0; i < r->n_launches; i++)
    ws_sim_launch_stats_clear (&r->launches[i].stats);
  g_free (r->launches);
  g_free (r->gpu);
  g_free (r);
}

static void
unit_end (uint64_t end_cycle, gpointer data)
{
  g_array_append_val ((GArray *) data, end_cycle);
}

gboolean
ws_tbpoint_simulate_launch (WsSim *sim, WsTrace *trace, guint launch, const WsTbpointOptions *options,
                            WsSimLaunchStats *stats, guint *n_regions, int32_t **tb_region, GError **error)
{
  g_autoptr (WsTbpointRegions) regions = NULL;
  WsSimRegionSampling rs = { 0 };

  if (n_regions != NULL)
    *n_regions = 0;
  if (tb_region != NULL)
    *tb_region = NULL;
  if (options->sampling == WS_SAMPLING_TBPOINT)
    {
      regions = ws_tbpoint_regions (trace, launch, ws_sim_get_gpu (sim), options->intra_threshold,
                                    options->vf_threshold, error);
      if (regions == NULL)
        return FALSE;
      rs.region = regions->tb_region;
      rs.n_tbs = regions->n_tbs;
      rs.ipc_tolerance = options->ipc_tolerance;
      rs.warm_skipped = options->warm_skipped;
    }
  ws_sim_set_cancellable (sim, options->cancellable);
  if (!ws_sim_run_launch (sim, trace, launch, regions ? &rs : NULL, stats, error))
    return FALSE;
  if (regions != NULL && n_regions != NULL)
    *n_regions = regions->n_regions;
  if (regions != NULL && tb_region != NULL)
    *tb_region = g_steal_pointer (&regions->tb_region);
  return TRUE;
}

WsTbpointResult *
ws_tbpoint_simulate (WsTrace *trace, const WsGpu *gpu, const WsTbpointOptions *options, GError **error)
{
  WsTbpointOptions defaults;
  if (options == NULL)
    {
      ws_tbpoint_options_init (&defaults);
      options = &defaults;
    }
  gint64 t0 = g_get_monotonic_time ();
  g_autoptr (WsSim) sim = ws_sim_new (gpu, &options->sim, error);
  if (sim == NULL)
    return NULL;
  guint n = ws_trace_get_n_launches (trace);
  g_autoptr (WsTbpointResult) res = g_new0 (WsTbpointResult, 1);
  res->sampling = options->sampling;
  res->gpu = g_strdup (gpu->name);
  res->scheduler = options->sim.scheduler;
  res->n_launches = n;
  res->launches = g_new0 (WsTbpointLaunch, MAX (n, 1u));
  res->warp_instructions = ws_trace_get_total_warp_instructions (trace);
  for (guint i = 0; i < n; i++)
    {
      const WsTraceLaunch *l = ws_trace_get_launch (trace, i);
      res->launches[i].index = i;
      res->launches[i].kernel = ws_trace_get_kernel (trace, l->kernel)->name;
      res->launches[i].warp_instructions = l->warp_instructions;
      res->launches[i].cluster = -1;
    }

  g_autoptr (GArray) unit_ends = g_array_new (FALSE, FALSE, sizeof (uint64_t));
  if (options->sampling == WS_SAMPLING_RANDOM)
    {
      uint64_t unit = options->random_unit;
      if (unit == 0)
        unit = MAX ((uint64_t) 1, MIN ((uint64_t) 1000000, res->warp_instructions / 100));
      res->random_unit = unit;
      ws_sim_set_unit_observer (sim, unit, unit_end, unit_ends);
    }

  g_autoptr (WsTbpointInter) inter = NULL;
  if (options->sampling == WS_SAMPLING_TBPOINT)
    {
      inter = ws_tbpoint_inter_launch_on_gpu (trace, gpu, options->inter_threshold, error);
      if (inter == NULL)
        return NULL;
      res->n_clusters = inter->n_clusters;
      for (guint i = 0; i < n; i++)
        res->launches[i].cluster = inter->cluster[i];
    }

  /* The last simulated launch: skipped launches before it warm the L2. */
  guint last_sim = 0;
  for (guint i = 0; i < n; i++)
    if (inter == NULL || inter->representative[inter->cluster[i]] == i)
      last_sim = i;
  for (guint i = 0; i < n; i++)
    {
      WsTbpointLaunch *L = &res->launches[i];
      if (inter && inter->representative[inter->cluster[i]] != i)
        {
          if (options->warm_skipped && i < last_sim && !ws_sim_warm_launch (sim, trace, i, error))
            return NULL;
          continue;
        }
      if (!ws_tbpoint_simulate_launch (sim, trace, i, options, &L->stats, &L->n_regions, NULL, error))
        return NULL;
      L->simulated = TRUE;
      L->cycles = L->stats.cycles;
      L->simulated_warp_instructions = L->stats.simulated_warp_instructions;
    }
  /* Table IV: a launch not simulated takes its cluster representative's CPI. */
  for (guint i = 0; i < n; i++)
    {
      WsTbpointLaunch *L = &res->launches[i];
      if (!L->simulated && inter)
        {
          WsTbpointLaunch *R = &res->launches[inter->representative[inter->cluster[i]]];
          double cpi = R->warp_instructions > 0 ? (double) R->cycles / (double) R->warp_instructions : 0;
          L->cycles = (uint64_t) llround (cpi * (double) L->warp_instructions);
        }
      L->ipc = L->cycles > 0 ? (double) L->warp_instructions / (double) L->cycles : 0;
      res->cycles += L->cycles;
      res->simulated_warp_instructions += L->simulated_warp_instructions;
    }
  res->sample_fraction = res->warp_instructions > 0
                           ? (double) res->simulated_warp_instructions / (double) res->warp_instructions
                           : 0;
  if (options->sampling == WS_SAMPLING_RANDOM && unit_ends->len > 0)
    {
      /* Seed 000 §V-A: the IPC of a random 10 % of the units stands for the
       * whole run (CPI averaged over the chosen units, which all have the
       * same number of instructions). */
      guint nu = unit_ends->len;
      guint pick = MAX (1u, (guint) llround (options->random_fraction * nu));
      g_autofree guint *idx = g_new (guint, nu);
      for (guint u = 0; u < nu; u++)
        idx[u] = u;
      g_autoptr (GRand) rand = g_rand_new_with_seed (options->random_seed);
      for (guint u = 0; u < pick; u++)
        {
          guint j = u + (guint) g_rand_int_range (rand, 0, (gint32) (nu - u));
          guint t = idx[u];
          idx[u] = idx[j];
          idx[j] = t;
        }
      double cpi = 0;
      for (guint u = 0; u < pick; u++)
        {
          guint x = idx[u];
          uint64_t start = x == 0 ? 0 : g_array_index (unit_ends, uint64_t, x - 1);
          uint64_t end = g_array_index (unit_ends, uint64_t, x);
          cpi += (double) (end - start) / (double) res->random_unit;
        }
      cpi /= pick;
      res->random_units = nu;
      res->random_selected = pick;
      res->cycles = (uint64_t) llround (cpi * (double) res->warp_instructions);
      res->simulated_warp_instructions = (uint64_t) pick * res->random_unit;
      res->sample_fraction = (double) res->simulated_warp_instructions / (double) res->warp_instructions;
    }
  res->ipc = res->cycles > 0 ? (double) res->warp_instructions / (double) res->cycles : 0;
  res->wall_seconds = (double) (g_get_monotonic_time () - t0) / 1e6;
  return g_steal_pointer (&res);
}

double
ws_tbpoint_geomean (const double *v, guint n, double floor)
{
  if (n == 0)
    return 0;
  double s = 0;
  for (guint i = 0; i < n; i++)
    s += log (MAX (v[i], floor));
  return exp (s / n);
}

/* ---- Markov chain (eq. 3) -------------------------------------------------- */

double
ws_tbpoint_markov_ipc (double p, const double *m, guint n)
{
  /* Each warp alone: runnable -> stalled with p, stalled -> runnable with
   * 1/M; stationary P(stalled) = p / (p + 1/M). */
  double r0 = 1;
  for (guint x = 0; x < n; x++)
    {
      double q = 1.0 / MAX (m[x], 1.0);
      r0 *= (p + q) > 0 ? p / (p + q) : 0;
    }
  return 1.0 - r0;
}

double
ws_tbpoint_markov_ipc_matrix (double p, const double *m, guint n)
{
  g_return_val_if_fail (n >= 1 && n <= 8, NAN);
  guint ns = 1u << n;
  gsl_matrix *t = gsl_matrix_alloc (ns, ns);
  gsl_matrix *t2 = gsl_matrix_alloc (ns, ns);
  /* S_ij = prod_x f (A_i[x], A_j[x]); warp 1 is the most significant bit,
   * 1 = runnable. */
  for (guint i = 0; i < ns; i++)
    for (guint j = 0; j < ns; j++)
      {
        double s = 1;
        for (guint x = 0; x < n; x++)
          {
            guint bit = n - 1 - x;
            int ai = (i >> bit) & 1, aj = (j >> bit) & 1;
            double q = 1.0 / MAX (m[x], 1.0);
            if (ai != aj)
              s *= ai ? p : q;
            else
              s *= ai ? 1 - p : 1 - q;
          }
        gsl_matrix_set (t, i, j, s);
      }
  /* V_s = lim V_i T^n: square T until the row of the all-runnable state
   * stops changing. */
  double prev = -1;
  for (int it = 0; it < 64; it++)
    {
      gsl_blas_dgemm (CblasNoTrans, CblasNoTrans, 1.0, t, t, 0.0, t2);
      gsl_matrix_memcpy (t, t2);
      /* Rows of a stochastic matrix sum to 1; renormalise so rounding
       * cannot grow or shrink them over many squarings. */
      for (guint i = 0; i < ns; i++)
        {
          gsl_vector_view row = gsl_matrix_row (t, i);
          double sum = gsl_blas_dasum (&row.vector);
          if (sum > 0)
            gsl_vector_scale (&row.vector, 1.0 / sum);
        }
      double r0 = gsl_matrix_get (t, ns - 1, 0);
      if (fabs (r0 - prev) < 1e-13)
        break;
      prev = r0;
    }
  double ipc = 1.0 - gsl_matrix_get (t, ns - 1, 0);
  gsl_matrix_free (t);
  gsl_matrix_free (t2);
  return ipc;
}

void
ws_tbpoint_markov_monte_carlo (double p, double mu, guint n_warps, guint samples, guint32 seed,
                               WsTbpointMarkovStats *out)
{
  memset (out, 0, sizeof *out);
  if (samples == 0 || n_warps == 0)
    return;
  gsl_rng *rng = gsl_rng_alloc (gsl_rng_mt19937);
  gsl_rng_set (rng, seed);
  double sigma = 0.1 * mu / 1.96; /* 95 % of the M within +-10 % of mu */
  double *ipc = g_new (double, samples);
  double *m = g_new (double, n_warps);
  double sum = 0;
  out->min_ipc = INFINITY;
  out->max_ipc = -INFINITY;
  for (guint s = 0; s < samples; s++)
    {
      for (guint x = 0; x < n_warps; x++)
        m[x] = MAX (1.0, mu + gsl_ran_gaussian (rng, sigma));
      ipc[s] = ws_tbpoint_markov_ipc (p, m, n_warps);
      sum += ipc[s];
      out->min_ipc = MIN (out->min_ipc, ipc[s]);
      out->max_ipc = MAX (out->max_ipc, ipc[s]);
    }
  out->samples = samples;
  out->mean_ipc = sum / samples;
  guint within = 0;
  for (guint s = 0; s < samples; s++)
    {
      double dev = out->mean_ipc > 0 ? (ipc[s] - out->mean_ipc) / out->mean_ipc : 0;
      if (fabs (dev) <= 0.1)
        within++;
      int bin = (int) floor (dev * 100 + 0.5) + 10;
      out->histogram[CLAMP (bin, 0, 20)]++;
    }
  out->within_10 = (double) within / samples;
  g_free (ipc);
  g_free (m);
  gsl_rng_free (rng);
}
