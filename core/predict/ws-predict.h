/* ws-predict.h: the predictor plugin host (loading, checking, running).
 *
 * Plugins are found in, in order: the folders of WARPSCOPE_PLUGIN_PATH
 * (':'-separated), the user's data dir (~/.local/share/warpscope/plugins),
 * the installed plugin dir, and — when the running program lives in the
 * build tree — the build tree's plugins/ folder.  A plugin that cannot be
 * loaded (missing symbol, wrong ABI, failing query, duplicate name) is listed
 * with status "error" and the reason; it never stops the others.  A plugin
 * whose name was found earlier on the path is "shadowed" (ok == FALSE,
 * shadowed_by set) and the one that wins records what it hides (shadows).
 *
 * Isolation (issue 18): by default every prediction runs in a worker process
 * (ws-predict-worker.c): a crash, abort, time-out or memory blow-up of the
 * plugin is an error naming plugin, kernel and signal, never the end of the
 * host.  WARPSCOPE_PLUGIN_IN_PROCESS=1 loads plugins into the host instead
 * (for plugin authors with a debugger); WARPSCOPE_PLUGIN_TIMEOUT (seconds,
 * default 600) and WARPSCOPE_PLUGIN_MEMORY_MB (address space a worker may
 * add, default 8192, 0 = no limit) set the limits.  They are read when a
 * plugin is loaded and can be changed per plugin before its first use. */
#pragma once

#include "hw/ws-hw.h"
#include "predict/ws-predictor.h"

G_BEGIN_DECLS

typedef struct {
  char *name; /* descriptor name, or the file's basename when loading failed */
  char *version;
  int abi; /* descriptor ABI version (0 when unknown) */
  int api;
  char *path;
  char *description;
  gboolean ok;
  char *error;                             /* why it is not usable (ok == FALSE) */
  const WsPredictorDescriptor *descriptor; /* NULL unless ok */
  GModule *module;
  gboolean builtin;  /* found in the installed plugin dir or the build tree's plugins/ */
  char *shadowed_by; /* path of the plugin of this name found first (this one is then unused) */
  char *shadows;     /* path of the first plugin this one hides, if any */
  /* How predictions run (defaults from the environment, see above). */
  gboolean in_process;
  double timeout_seconds;            /* > 0 */
  guint64 memory_limit_mb;           /* 0: no limit */
  struct _WsPredictorWorker *worker; /* the plugin's supervised worker (private) */
} WsPredictorPlugin;

WS_EXPORT void ws_predictor_plugin_free (WsPredictorPlugin *plugin);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsPredictorPlugin, ws_predictor_plugin_free)

/* Loads one shared object; never fails: problems are in ->error. */
WS_EXPORT WsPredictorPlugin *ws_predictor_plugin_load (const char *path);

/* The folders searched, in order (NULL-terminated, newly allocated). */
WS_EXPORT char **ws_predictor_search_path (void);
/* Scans the search path; returns every plugin found (ok or not), ordered by
 * name.  A later plugin with the name of an earlier one is reported as an
 * error ("duplicate"). */
WS_EXPORT GPtrArray *ws_predictor_scan (void);
/* Finds a usable plugin by name in a scan result; NULL with WS_ERROR_NOT_FOUND
 * (suggesting close names) or the plugin's load error. */
WS_EXPORT WsPredictorPlugin *ws_predictor_find (GPtrArray *plugins, const char *name, GError **error);

/* An analytic kernel: explicit parameters (seed 004 Listing 5). */
typedef struct {
  char *name;
  GHashTable *params; /* char* -> double* */
} WsAnalyticKernel;

WS_EXPORT WsAnalyticKernel *ws_analytic_kernel_new (const char *name);
WS_EXPORT void ws_analytic_kernel_set (WsAnalyticKernel *k, const char *param, double value);
WS_EXPORT gboolean ws_analytic_kernel_get (const WsAnalyticKernel *k, const char *param, double *value);
WS_EXPORT void ws_analytic_kernel_free (WsAnalyticKernel *k);

/* The parameters an analytic kernel may give, in display order.  This table
 * is their one owner: ws_analytic_kernel_load (`predict --analytic`), the
 * "analytic" object of an application model's kernel (core/system, whose
 * schema takes these rows) and the GUI application editor all walk it, so
 * a new parameter is one row in ws-predict.c.  Texts (unit, label, help)
 * are untranslated, marked NC_() with @context in the "warpscope" domain;
 * views translate them with g_dpgettext2 (GETTEXT_PACKAGE, context, text),
 * as ws_app_schema_text does for the application-model rows built from
 * these. */
typedef struct {
  const char *key; /* JSON member; the name plugins read with analytic_param() */
  gboolean required;
  double min, max;     /* allowed range, inclusive (max HUGE_VAL: none) */
  const char *unit;    /* "per warp", "cycles per warp", ... or "" */
  const char *context; /* gettext context of unit, label and help */
  const char *label;   /* e.g. "Grid size" */
  const char *help;    /* what the number means, with the equation it feeds */
} WsAnalyticParam;

WS_EXPORT const WsAnalyticParam *ws_analytic_params (guint *n_params);
/* The parameter named @key, or NULL. */
WS_EXPORT const WsAnalyticParam *ws_analytic_param_find (const char *key);
/* Checks @value against @param's range; the error names the field and the
 * bound ("field 'gmem_bytes' is -4; it must be not below 0"). */
WS_EXPORT gboolean ws_analytic_param_check (const WsAnalyticParam *param, double value, GError **error);
/* "grid_size, block_size, …" (newly allocated), for messages. */
WS_EXPORT char *ws_analytic_param_names (void);

/* Reads {"name":…, and any of ws_analytic_params}: the required ones must
 * be there, each value is a number within its range, and an unknown field
 * is an error naming the field (with the closest known name). */
WS_EXPORT WsAnalyticKernel *ws_analytic_kernel_load (const char *path, GError **error);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsAnalyticKernel, ws_analytic_kernel_free)

/* The result of one prediction. */
typedef struct {
  char *model;
  char *gpu;
  char *kernel;
  guint index; /* launch index */
  double cycles;
  double seconds;
  double ipc;
  GArray *cpi_names;         /* of char* (owned), in the order the plugin added them */
  GArray *cpi_values;        /* of double */
  GArray *metric_names;      /* of char* (owned) */
  GArray *metric_values;     /* of double */
  GPtrArray *warnings;       /* of char* */
  double bound_cycles;       /* traced launches: the physical lower bound (core/bounds), else NAN */
  const char *bound_limiter; /* its largest term (static string), or NULL */
  /* traced launches: the launch analysis' sample (ws_launch_analysis_plan):
   * waves of the launch on this GPU, and how many of them were simulated
   * (= analysis_waves when every block was analysed); 0 for analytic kernels */
  uint64_t analysis_waves, analysis_sampled_waves;
} WsPrediction;

WS_EXPORT void ws_prediction_free (WsPrediction *p);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsPrediction, ws_prediction_free)
WS_EXPORT double ws_prediction_cpi_total (const WsPrediction *p);
WS_EXPORT JsonNode *ws_prediction_to_json (const WsPrediction *p);

/* Option values given by the user ("name" -> "text"); checked against the
 * descriptor (unknown option, bad number, choice not in the list). */
WS_EXPORT gboolean ws_predictor_check_options (const WsPredictorPlugin *plugin, GHashTable *options, GError **error);

/* Splits the values of repeated `--option PLUGIN.KEY=VALUE` arguments into
 * per-plugin tables: plugin name -> (GHashTable: key -> value).  A value
 * without "PLUGIN." goes to @default_plugin when it is not NULL (one model
 * chosen), else it is an error that shows the spelling. */
WS_EXPORT GHashTable *ws_predictor_options_parse (const char *const *list, const char *default_plugin, GError **error);

/* The process id of @plugin's long-lived worker, 0 when none runs (tests,
 * diagnostics). */
WS_EXPORT int ws_predictor_plugin_worker_pid (const WsPredictorPlugin *plugin);

/* The CPI categories @plugin declares (API 4), in its order; NULL with *@n
 * = 0 when it declares none. */
WS_EXPORT const WsPredictorCpiCategory *ws_predictor_plugin_cpi_categories (const WsPredictorPlugin *plugin, guint *n);

typedef struct _WsTrace WsTrace;
typedef struct _WsLaunchAnalysis WsLaunchAnalysis;

/* Predicts launch @launch of @trace on @gpu.  @analysis (cache simulation,
 * latencies, representative warp of this launch on this GPU) may be NULL; it
 * is then computed, and it can be shared by several plugins. */
WS_EXPORT WsPrediction *ws_predict_trace (const WsPredictorPlugin *plugin, const WsGpu *gpu, WsTrace *trace,
                                          guint launch, WsLaunchAnalysis *analysis, GHashTable *options,
                                          GError **error);

/* Predicts an analytic kernel on @gpu. */
WS_EXPORT WsPrediction *ws_predict_analytic (const WsPredictorPlugin *plugin, const WsGpu *gpu,
                                             const WsAnalyticKernel *kernel, GHashTable *options, GError **error);

G_END_DECLS
