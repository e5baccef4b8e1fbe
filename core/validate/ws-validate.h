/* ws-validate.h: predictions against published measurements of real GPUs.
 *
 * The validation suite runs our own benchmark programs (examples/validation,
 * each reproducing one published experiment, see its README) on the
 * emulator, predicts every traced launch with every predictor plugin, the
 * cycle-level simulator and the simulator with TBPoint sampling, converts the
 * predicted time into the quantity the experiment reports (GB/s, cycles per
 * load, GFlop/s, ...) and compares it point by point with the public dataset
 * (`shared/ground-truth`, one CSV per benchmark and GPU).
 *
 * Where a published size is too large to emulate the programs run a reduced
 * size whose reported quantity does not depend on the reduction (a rate over
 * many waves, a latency per load once the chain is walked); the reductions
 * and their reasons are in docs/validation.md. */
#pragma once

#include "base/ws-base.h"
#include "store/ws-store.h"
#include "chart/ws-chart.h"
#include <gio/gio.h>
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/* One benchmark family: the dataset folder and how its curves are drawn. */
typedef struct {
  const char *name;  /* dataset folder: "gpu-stream", ... */
  const char *title; /* "Streaming bandwidth against occupancy" */
  const char *x_title;
  const char *y_title; /* with the unit: "GB/s" */
  gboolean x_log;
  gboolean y_log;
  WsChartUnit x_unit;
} WsValidateFamily;

/* The families in report order (NULL-name terminated). */
WS_EXPORT const WsValidateFamily *ws_validate_families (void);
/* By dataset folder name, with or without the "gpu-" prefix; NULL if unknown. */
WS_EXPORT const WsValidateFamily *ws_validate_family_find (const char *name);

/* Dataset GPU name ("v100", "a100_40", ...) -> catalogue record name. */
WS_EXPORT const char *ws_validate_catalogue_gpu (const char *dataset_gpu);

typedef struct {
  char *family;      /* WsValidateFamily.name */
  char *dataset_gpu; /* "v100" */
  char *gpu;         /* catalogue name: "Tesla V100 PCIe" */
  char *series;      /* a curve of the family: "triad", "float stride", "stream_launches 256" */
  double x;          /* block size, footprint (bytes), inner iterations, ... */
  double measured;   /* the dataset's value */
  double *predicted; /* one per report source; NaN where that source failed */
  char *program;     /* the command line that produced the trace (emulated size) */
  guint launch;      /* the trace launch predicted */
} WsValidatePoint;

typedef struct {
  GPtrArray *sources; /* of char*: plugin names, then "simulator", "simulator-tbpoint" */
  GPtrArray *points;  /* of WsValidatePoint* */
  GPtrArray *notes;   /* of char*: skipped GPUs, benchmarks and failures, with the reason */
  char *dataset_dir;
  double wall_seconds;
  double emulation_seconds; /* of which profiling programs (0 when every trace came from the cache) */
  double *source_seconds;   /* per source: time spent predicting (the trace analysis counts for the plugins) */
  guint *bound_violations;  /* per source: predictions of a launch below its physical lower bound (core/bounds) */
  guint bound_checks;       /* launches checked (each against every source) */
} WsValidateReport;

WS_EXPORT void ws_validate_report_free (WsValidateReport *report);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsValidateReport, ws_validate_report_free)

typedef void (*WsValidateProgressFunc) (const char *message, gpointer user_data);

typedef struct {
  const char *const *gpus;       /* catalogue or dataset names to keep (NULL: every GPU of the dataset) */
  const char *const *benchmarks; /* family names to keep (NULL: all) */
  const char *dataset_dir;       /* NULL: $WARPSCOPE_GROUND_TRUTH, else shared/ground-truth beside the source tree */
  const char *programs_dir;      /* NULL: $WARPSCOPE_VALIDATION_PROGRAMS, else the build tree's examples/validation */
  const char *cache_dir;         /* traces kept between runs; NULL: ~/.cache/warpscope/validate; "": none */
  const char *const *sources;    /* sources to run (plugin names, "simulator", "simulator-tbpoint"); NULL: all */
  gboolean all_points;           /* every dataset point (slow) instead of the default selection */
  WsValidateProgressFunc progress;
  gpointer progress_data;
  GCancellable *cancellable;
} WsValidateOptions;

WS_EXPORT void ws_validate_options_init (WsValidateOptions *options);

/* Runs the suite.  A benchmark or GPU that cannot run (no dataset file, no
 * catalogue record, a program missing) is a note, not an error; errors are
 * a missing dataset folder, a missing programs folder, and cancellation. */
WS_EXPORT WsValidateReport *ws_validate_run (WsStore *store, const WsValidateOptions *options, GError **error);

/* Relative error (predicted - measured) / measured; NaN when undefined. */
WS_EXPORT double ws_validate_point_error (const WsValidatePoint *p, guint source);

/* Mean absolute percentage error of @source over the points whose family,
 * dataset GPU and series match (NULL: any); *n_out gets the count. */
WS_EXPORT double ws_validate_mape (const WsValidateReport *report, guint source, const char *family, const char *gpu,
                                   guint *n_out);

/* The benchmark families and dataset GPUs of a report's points, in order of
 * appearance (new arrays of borrowed strings). */
WS_EXPORT void ws_validate_report_keys (const WsValidateReport *report, GPtrArray **families, GPtrArray **gpus);

WS_EXPORT JsonNode *ws_validate_report_to_json (const WsValidateReport *report);
WS_EXPORT char *ws_validate_report_to_markdown (const WsValidateReport *report, const char *plot_dir);
/* One chart per (family, GPU, series): measured and every source against x. */
WS_EXPORT GPtrArray *ws_validate_report_charts (const WsValidateReport *report, GPtrArray **names_out);
/* Writes the charts as PNG into @dir (created); returns the file count or -1. */
WS_EXPORT int ws_validate_report_write_plots (const WsValidateReport *report, const char *dir, GError **error);

G_END_DECLS
