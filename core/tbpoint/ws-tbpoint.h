/* ws-tbpoint.h: TBPoint sampling for the detailed simulator (seed 000
 * §III-IV, seed 001 ch. 3) and the drivers that run a whole trace through
 * core/sim with no sampling, TBPoint or random sampling.
 *
 *  - Inter-launch sampling: launches clustered on their eq. 2 feature
 *    vectors by hierarchical clustering (complete linkage, so the distance
 *    threshold is the largest distance between two members of a cluster,
 *    as seed 000 §III defines it); the launch nearest each cluster's centre
 *    is simulated and stands for the cluster (Table IV).
 *  - Intra-launch sampling: homogeneous regions per GPU configuration
 *    (epochs of system-occupancy TBs, eq. 4; intra-feature eq. 5; epochs
 *    clustered with threshold 0.2; epochs whose variation factor exceeds
 *    0.3 are outliers in no region; consecutive epochs of one cluster form
 *    a region, Table III), sampled inside the simulator (ws-sim.h).
 *  - The Markov-chain model of warp interleaving (eq. 3) and its Monte Carlo
 *    over Gaussian stall latencies M (Lemma 4.1, Fig. 5). */
#pragma once

#include "sim/ws-sim.h"
#include "store/ws-store.h"
#include "chart/ws-chart.h"
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/* Hierarchical agglomerative clustering with complete linkage and Euclidean
 * distance: clusters are merged while the largest pairwise distance inside
 * the merged cluster stays <= @threshold.  @points is n x dim, row major.
 * Writes cluster ids 0 .. k-1 (numbered by first member) to @cluster and
 * returns k. */
WS_EXPORT guint ws_tbpoint_cluster (const double *points, guint n, guint dim, double threshold, int *cluster);

/* ---- inter-launch ----------------------------------------------------------- */

typedef struct {
  guint n_launches;
  guint n_clusters;
  int *cluster;                   /* per launch */
  guint *representative;          /* per cluster: the launch nearest the centre */
  double *weight;                 /* per cluster: Table IV cluster_weight (share of warp instructions) */
  WsTraceInterFeatures *features; /* per launch, eq. 2 */
  double *l2_hit_rate; /* per launch, the L2 state it starts with (ws_tbpoint_inter_launch_on_gpu), or NULL */
} WsTbpointInter;

WS_EXPORT WsTbpointInter *ws_tbpoint_inter_launch (const WsTrace *trace, double threshold);
/* The same with the cache state each launch starts with as one more
 * coordinate: eq. 2's memory requests times the launch's load-sector miss
 * rate in a functional L2 of @gpu's geometry through which the program's
 * launches run in order (the hit rate is kept in l2_hit_rate).  Eq. 2 sees
 * only counts, so the first launch over a buffer (cold L2) and later ones
 * over the same buffer (warm) shared a representative; this keeps them
 * apart.  Costs one decode of the trace's memory records.  @gpu NULL: as
 * ws_tbpoint_inter_launch. */
WS_EXPORT WsTbpointInter *ws_tbpoint_inter_launch_on_gpu (WsTrace *trace, const WsGpu *gpu, double threshold,
                                                          GError **error);
WS_EXPORT void ws_tbpoint_inter_free (WsTbpointInter *inter);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsTbpointInter, ws_tbpoint_inter_free)

/* ---- intra-launch: homogeneous regions (Table III) ------------------------ */

typedef struct {
  int32_t id;
  int cluster;                /* epoch cluster the region's epochs belong to */
  uint64_t first_tb, last_tb; /* inclusive */
  double stall_probability;   /* mean over the region's epochs */
} WsTbpointRegion;

typedef struct {
  uint64_t n_tbs;
  guint epoch_size; /* system occupancy: blocks per SM x SMs */
  guint n_epochs;
  WsTraceEpoch *epochs;
  int *epoch_cluster; /* per epoch; -1 = outlier (variation factor above the threshold) */
  guint n_regions;
  WsTbpointRegion *regions;
  int32_t *tb_region; /* per TB: region id or -1 */
} WsTbpointRegions;

WS_EXPORT WsTbpointRegions *ws_tbpoint_regions (const WsTrace *trace, guint launch, const WsGpu *gpu, double threshold,
                                                double vf_threshold, GError **error);
WS_EXPORT void ws_tbpoint_regions_free (WsTbpointRegions *r);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsTbpointRegions, ws_tbpoint_regions_free)

/* ---- whole-trace simulation ------------------------------------------------- */

typedef enum {
  WS_SAMPLING_NONE,
  WS_SAMPLING_TBPOINT,
  WS_SAMPLING_RANDOM, /* seed 000 §V-A: full simulation, 10 % of fixed-size units */
} WsSampling;

WS_EXPORT const char *ws_sampling_name (WsSampling s); /* "none", "tbpoint", "random" */
WS_EXPORT gboolean ws_sampling_from_string (const char *s, WsSampling *out);

typedef struct {
  WsSampling sampling;
  WsSimConfig sim;
  double inter_threshold;    /* default 0.1 */
  double intra_threshold;    /* default 0.2 */
  double vf_threshold;       /* default 0.3 */
  double ipc_tolerance;      /* default 0.1 */
  double random_fraction;    /* default 0.1 */
  uint64_t random_unit;      /* warp instructions per unit; 0: min (1 M, total / 100) */
  guint32 random_seed;       /* default 1 */
  gboolean warm_skipped;     /* launches skipped by inter-launch sampling warm the L2 functionally (default TRUE) */
  GCancellable *cancellable; /* borrowed; cancelling stops the simulation (G_IO_ERROR_CANCELLED); default NULL */
} WsTbpointOptions;

WS_EXPORT void ws_tbpoint_options_init (WsTbpointOptions *o);

typedef struct {
  guint index;
  const char *kernel; /* owned by the trace */
  uint64_t cycles;    /* simulated (with skipped TBs charged), or estimated from the cluster's representative */
  double ipc;
  gboolean simulated;
  int cluster; /* inter-launch cluster (TBPoint), else -1 */
  uint64_t warp_instructions;
  uint64_t simulated_warp_instructions;
  guint n_regions;        /* homogeneous regions found (TBPoint, simulated launches) */
  WsSimLaunchStats stats; /* zero unless simulated */
} WsTbpointLaunch;

typedef struct {
  WsSampling sampling;
  char *gpu;
  WsSimScheduler scheduler;
  uint64_t cycles;
  double ipc;
  uint64_t warp_instructions;
  uint64_t simulated_warp_instructions;
  double sample_fraction; /* seed 000 Fig. 10 */
  double wall_seconds;
  guint n_clusters;
  guint n_launches;
  WsTbpointLaunch *launches;
  /* random sampling */
  uint64_t random_unit;
  guint random_units, random_selected;
} WsTbpointResult;

WS_EXPORT void ws_tbpoint_result_free (WsTbpointResult *r);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsTbpointResult, ws_tbpoint_result_free)

WS_EXPORT WsTbpointResult *ws_tbpoint_simulate (WsTrace *trace, const WsGpu *gpu, const WsTbpointOptions *options,
                                                GError **error);

/* One launch on @sim (its caches as earlier launches left them): with
 * options->sampling == WS_SAMPLING_TBPOINT the launch's homogeneous regions
 * are found and sampled inside the simulator, otherwise every TB is
 * simulated (inter-launch and random sampling do not apply to one launch).
 * @n_regions (may be NULL) gets the number of regions; @tb_region (may be
 * NULL) a newly allocated per-TB region array (-1 = none), NULL without
 * TBPoint.  Honours options->cancellable. */
WS_EXPORT gboolean ws_tbpoint_simulate_launch (WsSim *sim, WsTrace *trace, guint launch,
                                               const WsTbpointOptions *options, WsSimLaunchStats *stats,
                                               guint *n_regions, int32_t **tb_region, GError **error);

/* ---- TBPoint view (seed 000 Fig. 8, Table III) ---------------------------- */

/* One launch simulated in full and with TBPoint's region sampling on fresh
 * simulators: per TB its size, region and whether TBPoint simulated it, and
 * the error and sample size that sampling gave. */
typedef struct {
  guint launch;
  char *kernel;
  char *gpu;
  uint64_t n_tbs;
  uint64_t *tb_size;     /* warp instructions per TB */
  int32_t *tb_region;    /* region id per TB, -1 = in no region */
  uint8_t *tb_simulated; /* 1 = simulated, 0 = skipped (fast-forwarded) */
  guint n_regions;
  uint64_t full_cycles;    /* every TB simulated */
  uint64_t sampled_cycles; /* TBPoint: simulated + charged for skipped TBs */
  double error;            /* (sampled - full) / full */
  uint64_t warp_instructions, simulated_warp_instructions;
  double sample_fraction; /* simulated / all warp instructions */
  uint64_t simulated_tbs;
  double full_wall_seconds, sampled_wall_seconds;
} WsTbpointView;

/* @options may be NULL (defaults); its sampling field is ignored. */
WS_EXPORT WsTbpointView *ws_tbpoint_view_compute (WsTrace *trace, guint launch, const WsGpu *gpu,
                                                  const WsTbpointOptions *options, GError **error);
WS_EXPORT void ws_tbpoint_view_free (WsTbpointView *view);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsTbpointView, ws_tbpoint_view_free)
/* {"launch", "kernel", "gpu", "regions", "full_cycles", "sampled_cycles",
 *  "error", "sample_fraction", "simulated_tbs", "warp_instructions",
 *  "simulated_warp_instructions", "tbs": [{"id", "size", "region",
 *  "simulated"}]}: the input of `warpscope-cli plot tbpoint`. */
WS_EXPORT JsonNode *ws_tbpoint_view_to_json (const WsTbpointView *view);
/* The seed 000 Fig. 8 chart: TB size by TB id, one series per region
 * ("region N", "no region"), skipped TBs hollow; the subtitle gives the
 * error and the sample size.  Titles are translated. */
WS_EXPORT WsChart *ws_tbpoint_view_to_chart (const WsTbpointView *view);

/* The result as JSON: {"cycles", "ipc", "warp_instructions",
 * "simulated_warp_instructions", "sample_fraction", "wall_seconds",
 * "sampling", "gpu", "scheduler", "clusters", "launches": [{"index",
 * "kernel", "cycles", "ipc", "simulated", "cluster" (-1 when launches are
 * not clustered), "warp_instructions", "simulated_warp_instructions",
 * "regions", and for simulated launches "simulated_cycles",
 * "blocks_per_sm", "skipped_tbs", "stalls" {name: scheduler-cycles},
 * "l1_hit_rate", "l2_hit_rate", "dram_bandwidth_gbs", "dram_row_hit_rate",
 * "sm_instructions" [...], and with @timeline "timeline_interval" and
 * "timeline" [[per-SM instructions] per sample]}]}. */
WS_EXPORT JsonNode *ws_tbpoint_result_to_json (const WsTbpointResult *r, gboolean timeline);
/* The options as JSON (stored with a run). */
WS_EXPORT JsonNode *ws_tbpoint_options_to_json (const WsTbpointOptions *o);

/* Stores a run in the sim_run table (db/migrations/002-sim-runs.sql) with
 * its configuration (options and GPU record).  Returns the row id, or -1
 * with @error set. */
WS_EXPORT gint64 ws_sim_run_store_put (WsStore *store, const char *trace_path, const WsGpu *gpu,
                                       const WsTbpointOptions *options, const WsTbpointResult *result, GError **error);

/* Geometric mean of @v[0 .. n) with every value floored at @floor (so an
 * exact 0 does not zero the mean); 0 for n = 0. */
WS_EXPORT double ws_tbpoint_geomean (const double *v, guint n, double floor);

/* ---- Markov chain (eq. 3) ----------------------------------------------------- */

/* Eq. 3 solved on the explicit 2^N x 2^N transition matrix (GSL): steady
 * state from V_i = all runnable by repeated squaring of T, IPC = 1 - R_0.
 * @m[x] is warp x's average stall cycles (>= 1).  N <= 8 (256 states). */
WS_EXPORT double ws_tbpoint_markov_ipc_matrix (double p, const double *m, guint n);
/* The same steady state in closed form: the warps are independent two-state
 * chains, so T is their Kronecker product and R_0 = prod_x p / (p + 1/M_x). */
WS_EXPORT double ws_tbpoint_markov_ipc (double p, const double *m, guint n);

typedef struct {
  double mean_ipc;
  double min_ipc, max_ipc;
  double within_10; /* fraction of samples within 10 % of the mean IPC (Lemma 4.1: > 95 %) */
  guint samples;
  guint histogram[21]; /* relative deviation from the mean in 1 % bins, -10 % .. +10 %; ends hold the tails */
} WsTbpointMarkovStats;

/* Monte Carlo over M_x ~ N(mu, (0.1 mu / 1.96)^2) per warp (seed 000 §IV-A). */
WS_EXPORT void ws_tbpoint_markov_monte_carlo (double p, double mu, guint n_warps, guint samples, guint32 seed,
                                              WsTbpointMarkovStats *out);

G_END_DECLS
