/* ws-measure.h: measured data — the measurement CSV, measured sweep times,
 * measurement sets in the store, and the calibration of seed 004's scaling parameters (λk of eq. 4.1
 * per kernel and architecture, t_s and λc of eq. 4.6 per link direction).
 *
 * The CSV format is documented in docs/measurement.md.  Durations are kept
 * in nanoseconds as CUPTI reports them. */
#pragma once

#include "hw/ws-hw.h"
#include "store/ws-store.h"
#include "chart/ws-chart.h"

G_BEGIN_DECLS

typedef enum {
  WS_MEASURE_KERNEL,
  WS_MEASURE_MEMCPY,
} WsMeasureKind;

/* Memcpy directions as CUPTI distinguishes them (names as in the CSV). */
typedef enum {
  WS_MEMCPY_NONE = -1, /* a kernel row */
  WS_MEMCPY_HTOD,      /* "HtoD" */
  WS_MEMCPY_DTOH,      /* "DtoH" */
  WS_MEMCPY_DTOD,      /* "DtoD" */
  WS_MEMCPY_HTOH,      /* "HtoH" */
  WS_MEMCPY_PTOP,      /* "PtoP" (between two devices) */
  WS_MEMCPY_N_DIRECTIONS
} WsMemcpyDirection;

WS_EXPORT const char *ws_memcpy_direction_name (WsMemcpyDirection d);
WS_EXPORT gboolean ws_memcpy_direction_from_string (const char *s, WsMemcpyDirection *out);

/* One row: a kernel launch or a memcpy, identified by (kind, name, config,
 * occurrence) where config is grid/block/shared/registers for a kernel and
 * direction/bytes for a memcpy, and occurrence counts earlier rows with the
 * same kind, name and config in program order (0-based). */
typedef struct {
  WsMeasureKind kind;
  char *name; /* kernel (mangled) name; "memcpy" for copies */
  guint occurrence;
  guint32 grid[3];
  guint32 block[3];
  guint32 shared_bytes; /* static + dynamic per block */
  guint32 registers;    /* per thread */
  WsMemcpyDirection direction;
  guint64 bytes;
  guint runs; /* runs the duration is the median of */
  double duration_ns;
} WsMeasurement;

/* A GArray of WsMeasurement that frees the names. */
WS_EXPORT GArray *ws_measurements_new (void);
WS_EXPORT void ws_measurement_clear (WsMeasurement *m);

/* CSV.  Errors are WS_ERROR_PARSE "FILE:LINE:COLUMN: what" naming the column
 * (unknown column, missing column, bad number, unknown kind or direction). */
WS_EXPORT GArray *ws_measure_csv_parse (const char *text, gsize length, const char *filename, GError **error);
WS_EXPORT GArray *ws_measure_csv_load (const char *path, GError **error);
WS_EXPORT char *ws_measure_csv_format (const GArray *rows);
WS_EXPORT gboolean ws_measure_csv_save (const GArray *rows, const char *path, GError **error);

/* Measured times of a sweep (docs/charts.md, "--measured"): a CSV file whose
 * header names the columns, in any order: `seconds`, the measured time, and
 * the x value: a column named `x`, else one named @x_name (the swept
 * variable, e.g. "N"; may be NULL), else, in a two-column file, the column
 * that is not `seconds`.  Other columns are ignored.  Errors name
 * FILE:LINE:COLUMN (WS_ERROR_PARSE for a cell that is not a number,
 * WS_ERROR_INVALID for a missing column, a negative time or no rows).
 * `warpscope-cli plot --measured` and the GUI's Results page both read
 * measurements through this. */
typedef struct {
  double x;
  double seconds;
} WsMeasuredTime;

/* GArray of WsMeasuredTime in file order. */
WS_EXPORT GArray *ws_measure_times_parse (const char *text, gsize length, const char *filename, const char *x_name,
                                          GError **error);
WS_EXPORT GArray *ws_measure_times_load (const char *path, const char *x_name, GError **error);
/* Adds @times to @chart as a measured series named @name (NULL: "measured")
 * and annotates the other series with their relative errors against it
 * (ws_chart_annotate_rel_errors); returns the series. */
WS_EXPORT guint ws_measure_times_add_series (WsChart *chart, const char *name, const GArray *times);

/* Recomputes every row's occurrence index from the rows' order. */
WS_EXPORT void ws_measure_assign_occurrences (GArray *rows);
/* Median per (kind, name, config, occurrence) over several runs (each a
 * GArray of WsMeasurement with occurrences assigned).  Rows keep the order of
 * their first appearance; `runs` says how many runs had the row.  With an
 * even count the median is the mean of the two middle values. */
WS_EXPORT GArray *ws_measure_median (GPtrArray *runs);

/* A stored measurement set. */
typedef struct {
  gint64 id;
  char *name;
  char *gpu;           /* catalogue GPU the data was taken on */
  char *source;        /* file it was imported from */
  char *trace;         /* trace of the same program (λk modelled times), or NULL */
  GPtrArray *analytic; /* of char*: analytic kernel JSON files (λk), may be empty */
  char *created;
  GArray *rows; /* of WsMeasurement, NULL in list results */
} WsMeasurementSet;

WS_EXPORT WsMeasurementSet *ws_measurement_set_new (const char *name, const char *gpu);
WS_EXPORT void ws_measurement_set_free (WsMeasurementSet *set);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsMeasurementSet, ws_measurement_set_free)
WS_EXPORT JsonNode *ws_measurement_set_to_json (const WsMeasurementSet *set, gboolean with_rows);

/* Store (tables of db/migrations/004-measurements.sql).  Names are unique,
 * case-insensitive.  put: WS_ERROR_DUPLICATE unless @replace. */
WS_EXPORT gboolean ws_measure_store_put (WsStore *store, WsMeasurementSet *set, gboolean replace, GError **error);
WS_EXPORT WsMeasurementSet *ws_measure_store_get (WsStore *store, const char *name, GError **error);
WS_EXPORT GPtrArray *ws_measure_store_list (WsStore *store, GError **error); /* of WsMeasurementSet*, rows NULL */
WS_EXPORT gboolean ws_measure_store_delete (WsStore *store, const char *name, GError **error);

/* Least squares (GSL).  Both fits minimise relative residuals (weights
 * 1/t_measured²): times span orders of magnitude and the small ones carry
 * the startup time.
 *
 * Eq. 4.6, T_c = t_s + n / (bw · λc), is linear in n: fitted intercept t_s
 * and slope s give λc = 1 / (s · bw).  Needs two distinct sizes. */
typedef struct {
  double startup_s;
  double lambda;
  double bandwidth_gbs; /* the bw the fit was made against */
  double rms_rel_error; /* of the fitted line against the data */
  guint n_points;
} WsLinkFit;

WS_EXPORT gboolean ws_measure_fit_link (const double *bytes, const double *seconds, guint n, double bandwidth_gbs,
                                        WsLinkFit *out, GError **error);

/* Eq. 4.1 with λk: T_measured = T_model(λ=1) / λk, a line through the
 * origin in T_model; λk = 1 / fitted slope. */
typedef struct {
  double lambda;
  double rms_rel_error;
  guint n_points;
} WsKernelFit;

WS_EXPORT gboolean ws_measure_fit_kernel (const double *model_s, const double *measured_s, guint n, WsKernelFit *out,
                                          GError **error);

/* Calibration of a stored set: modelled times come from the volkov plugin
 * with lambda=1, on the set's trace (launch matched by kernel name and
 * occurrence) or on its analytic kernels (matched by name; grid and block
 * sizes taken from the measured row).  Results are stored (one λk per
 * kernel and architecture, one (t_s, λc) per link and direction) and
 * returned as a JSON array of objects. */
typedef struct {
  const char *kernel;   /* only this kernel, or NULL for all */
  const char *link;     /* catalogue link for bw (and to update), or NULL */
  double bandwidth_gbs; /* > 0: bw of eq. 4.6 (overrides the link's) */
  gboolean update_link; /* write t_s and λc into the link record */
} WsCalibrateOptions;

WS_EXPORT JsonNode *ws_measure_calibrate_lambda (WsStore *store, const char *set_name,
                                                 const WsCalibrateOptions *options, GError **error);

/* The λk stored for (kernel, architecture); FALSE (no error) when none. */
WS_EXPORT gboolean ws_measure_lookup_lambda (WsStore *store, const char *kernel, const char *architecture,
                                             double *lambda, GError **error);
/* For `predict --model volkov`: when @options (char* -> char*, owning
 * g_strdup'ed keys and values) has no "lambda" and a λk is stored for
 * (@kernel, @architecture), inserts it; returns TRUE when it did.  Errors
 * reading the store are returned as FALSE with @error set. */
WS_EXPORT gboolean ws_measure_apply_lambda (WsStore *store, const char *kernel, const char *architecture,
                                            GHashTable *options, GError **error);
/* All stored λ values as a JSON array. */
WS_EXPORT JsonNode *ws_measure_list_lambdas (WsStore *store, GError **error);

/* Applies the output of the calibration micro-benchmarks
 * (bench/calibration/ws-calibrate.cu: "key value" and "pcie DIR BYTES
 * SECONDS" lines) to @gpu in place — latencies, pipe gaps, SMs, clock, and a
 * provenance note dated @when appended to its sources — and returns the link
 * "<gpu> PCIe" with t_s and λc of eq. 4.6 fitted per direction against the
 * GPU's nominal PCIe bandwidth.  @bank_conflict (may be NULL) receives the
 * shared-memory cost per extra conflicting way, which the catalogue has no
 * field for. */
WS_EXPORT WsLink *ws_measure_apply_benchmark (WsGpu *gpu, const char *output, const char *when, double *bank_conflict,
                                              GError **error);

/* PCIe bandwidth per direction, GB/s, of generation @gen with @lanes lanes
 * after line encoding (gen 3 x16: 15.75); 0 when unknown. */
WS_EXPORT double ws_measure_pcie_bandwidth_gbs (int gen, int lanes);

/* Is an NVIDIA GPU usable?  Checks /dev/nvidia*, loads libcuda and calls
 * cuInit.  FALSE with @why saying what is missing. */
WS_EXPORT gboolean ws_measure_gpu_present (char **why);
/* Path of the CUPTI injection library (build tree or installed), or NULL
 * with @why when it was not built (no CUPTI at build time). */
WS_EXPORT char *ws_measure_injection_library (char **why);

G_END_DECLS
