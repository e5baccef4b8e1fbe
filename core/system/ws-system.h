/* ws-system.h: MERPSYS-style system and application models (seed 004 §2.2,
 * §5.4), their discrete-event evaluation, sweeps and persistence.
 *
 * A system model is a tree of components: machines contain CPUs, GPUs, links
 * and further machines.  Every CPU, GPU and link names a catalogue entry
 * (WsCpu, WsGpu, WsLink); every component has a count and labels with a
 * multiplicity (seed 004 Fig. 5.3).  An application model has variables and,
 * per process label, a sequence of operations (transfers, kernels, host
 * computation, send/receive, barriers, loops, conditionals) whose numbers are
 * expressions (core/expr).  ws_system_evaluate maps processes to components
 * by label and simulates the run; the semantics are in docs/system-modelling.md.
 *
 * JSON formats (the `model import/export` files): see docs/system-modelling.md. */
#pragma once

#include "base/ws-base.h"
#include "store/ws-store.h"
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/* ---- system model ------------------------------------------------------ */

typedef enum {
  WS_COMPONENT_MACHINE,
  WS_COMPONENT_CPU,
  WS_COMPONENT_GPU,
  WS_COMPONENT_LINK,
} WsComponentKind;

typedef struct {
  char *name;
  int multiplicity; /* processes of this label one unit can run */
} WsSystemLabel;

typedef struct _WsComponent WsComponent;
struct _WsComponent {
  WsComponentKind kind;
  char *name;          /* unique within the system */
  char *hw;            /* catalogue name (CPU, GPU, link); NULL for a machine */
  int count;           /* units of this component (>= 1) */
  GPtrArray *labels;   /* of WsSystemLabel* */
  char *from, *to;     /* link endpoints (component names) */
  GPtrArray *children; /* of WsComponent* (machines only, else empty) */
  WsComponent *parent; /* NULL at the top level */
};

typedef struct {
  char *name;
  char *description;
  GPtrArray *components; /* top level, of WsComponent* */
} WsSystemModel;

WS_EXPORT const char *ws_component_kind_name (WsComponentKind kind); /* "machine", "cpu", "gpu", "link" */
WS_EXPORT WsSystemModel *ws_system_model_new (const char *name);
WS_EXPORT void ws_system_model_free (WsSystemModel *system);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsSystemModel, ws_system_model_free)
/* Adds a component under @parent (NULL: top level); returns it (owned by the model). */
WS_EXPORT WsComponent *ws_system_model_add (WsSystemModel *system, WsComponent *parent, WsComponentKind kind,
                                            const char *name, const char *hw, int count);
WS_EXPORT void ws_component_add_label (WsComponent *component, const char *label, int multiplicity);
WS_EXPORT void ws_component_set_endpoints (WsComponent *link, const char *from, const char *to);
WS_EXPORT WsComponent *ws_system_model_find (const WsSystemModel *system, const char *name);

WS_EXPORT JsonNode *ws_system_model_to_json (const WsSystemModel *system);
/* Parses and checks the structure (fields, types, counts); errors name the
 * component.  Catalogue references are checked by ws_system_model_validate. */
WS_EXPORT WsSystemModel *ws_system_model_from_json (JsonNode *node, GError **error);
/* Checks names, links (dangling endpoints, CPU-GPU and machine-machine ends),
 * labels, GPUs without a link to a host CPU, and (with @store) that every
 * catalogue entry exists and has the right kind.  WS_ERROR_INVALID. */
WS_EXPORT gboolean ws_system_model_validate (const WsSystemModel *system, WsStore *store, GError **error);

/* ---- application model ------------------------------------------------- */

typedef struct _WsAppModel WsAppModel;

WS_EXPORT JsonNode *ws_app_model_to_json (const WsAppModel *app);
/* Parses the JSON and compiles every expression; errors name the process
 * label, the operation (1-based, nested as 2.1), the field and the column. */
WS_EXPORT WsAppModel *ws_app_model_from_json (JsonNode *node, GError **error);
WS_EXPORT void ws_app_model_free (WsAppModel *app);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsAppModel, ws_app_model_free)
WS_EXPORT const char *ws_app_model_get_name (const WsAppModel *app);
/* Names of the variables (input and derived), in order; NULL-terminated, owned. */
WS_EXPORT const char *const *ws_app_model_get_variables (const WsAppModel *app);
/* The default of an input variable; FALSE for unknown or derived names. */
WS_EXPORT gboolean ws_app_model_get_default (const WsAppModel *app, const char *name, double *value);
/* Paths of the trace files the application's profiled kernels read
 * (NULL-terminated, newly allocated).  On-demand kernels are not among them:
 * their traces depend on the variables (ws_system_env_get_profiled_traces). */
WS_EXPORT char **ws_app_model_get_traces (const WsAppModel *app);

/* ---- evaluation -------------------------------------------------------- */

typedef struct {
  char *label;
  guint rank;        /* process number within its label */
  char *op;          /* "h2d", "d2h", "kernel", "host", "send", "recv", "barrier", "sync" */
  char *component;   /* instance the operation occupied (GPU, CPU, link route) */
  char *name;        /* kernel name, or NULL */
  double bytes;      /* transfers, send/recv; 0 otherwise */
  double start, end; /* seconds from the start of the run */
} WsSystemOpRecord;

typedef struct {
  GHashTable *variables; /* char* -> double* : every variable's value in this run */
  double total_seconds;
  GPtrArray *operations;      /* of WsSystemOpRecord*, by start time */
  GPtrArray *busy_components; /* of char* (instance names), sorted */
  GArray *busy_seconds;       /* of double, parallel to busy_components */
  gboolean ok;
  char *error;        /* why the point failed (ok == FALSE) */
  gboolean cancelled; /* not run to its end: the sweep was cancelled (ok == FALSE) */
} WsSystemResult;

WS_EXPORT void ws_system_result_free (WsSystemResult *result);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsSystemResult, ws_system_result_free)
/* {"variables":{…},"ok":true,"total_seconds":…,"operations":[{"label","rank","op","component","name"?,"bytes",
 * "start","end"}],"busy":{…}}; a failed point: {"variables":{…},"ok":false,"error":…,"cancelled":true?}, with
 * "cancelled" only when the point was not run to its end (a cancelled sweep). */
WS_EXPORT JsonNode *ws_system_result_to_json (const WsSystemResult *result);

/* What an evaluation needs besides the models: catalogue records of every
 * component (resolved once) and the predictor plugin.  Shared read-only by
 * the threads of a sweep. */
typedef struct _WsSystemEnv WsSystemEnv;

/* The predictor name that selects the detailed cycle-level simulator
 * (core/sim) instead of a plugin; it predicts profiled kernels only. */
#define WS_SYSTEM_PREDICTOR_SIMULATOR "simulator"
/* The detailed simulator with TBPoint's intra-launch region sampling
 * (seed 000 §IV-B) on each profiled launch. */
#define WS_SYSTEM_PREDICTOR_SIMULATOR_TBPOINT "simulator-tbpoint"

/* Resolves the system against @store and loads predictor @predictor (NULL:
 * "volkov"; WS_SYSTEM_PREDICTOR_SIMULATOR or _SIMULATOR_TBPOINT: the
 * detailed simulator).
 * Validates the system. */
WS_EXPORT WsSystemEnv *ws_system_env_new (WsStore *store, const WsSystemModel *system, const char *predictor,
                                          GError **error);
WS_EXPORT void ws_system_env_free (WsSystemEnv *env);
/* Kernel simulations started by ws_system_evaluate stop when @cancellable is
 * cancelled, and so do on-demand profiles (the program is killed); the point
 * fails with G_IO_ERROR_CANCELLED.  Set it before evaluating.  NULL: never. */
WS_EXPORT void ws_system_env_set_cancellable (WsSystemEnv *env, GCancellable *cancellable);
/* The traces the environment has profiled (or found up to date from an
 * earlier run) for on-demand kernels ("program" + "args") while evaluating,
 * one per distinct program and argument list, in first-use order: the
 * traces to show next to ws_app_model_get_traces (NULL-terminated, newly
 * allocated; empty before any evaluation). */
WS_EXPORT char **ws_system_env_get_profiled_traces (WsSystemEnv *env);
/* Options (key -> value, checked against the predictor's descriptor) passed
 * to every prediction; NULL: the plugin's defaults.  Set before evaluating.
 * An error when they do not fit the predictor. */
WS_EXPORT gboolean ws_system_env_set_predictor_options (WsSystemEnv *env, GHashTable *options, GError **error);
/* The distinct warnings the predictor gave since the last call, each with the
 * operation it came from (NULL-terminated, newly allocated). */
WS_EXPORT char **ws_system_env_take_predictor_warnings (WsSystemEnv *env);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsSystemEnv, ws_system_env_free)

/* Runs @app on the environment's system with @overrides (char* -> double*,
 * may be NULL) over the defaults.  NULL with an error when the inputs are
 * wrong (expression, capacity, label, unknown variable). */
WS_EXPORT WsSystemResult *ws_system_evaluate (WsSystemEnv *env, const WsAppModel *app, GHashTable *overrides,
                                              GError **error);

/* ---- sweeps ------------------------------------------------------------ */

/* "VAR=1,2,4" or "VAR=A:B:STEP" (inclusive of B up to rounding). */
typedef struct {
  char *variable;
  GArray *values; /* of double */
} WsSweepAxis;

WS_EXPORT WsSweepAxis *ws_sweep_axis_parse (const char *text, GError **error);
WS_EXPORT void ws_sweep_axis_free (WsSweepAxis *axis);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsSweepAxis, ws_sweep_axis_free)

/* Evaluates the cartesian product of @axes (of WsSweepAxis*; empty: one
 * point) with @fixed overrides, in parallel on @n_threads threads (0: the
 * number of processors).  Returns the results in point order (the first axis
 * varies slowest); a point that fails has ok == FALSE and its error. */
WS_EXPORT GPtrArray *ws_system_sweep (WsSystemEnv *env, const WsAppModel *app, GHashTable *fixed, GPtrArray *axes,
                                      guint n_threads, GCancellable *cancellable, GError **error);
/* As ws_system_sweep, but a cancelled sweep is not an error: the points
 * that finished keep their results, the others have `cancelled` set, and
 * *@was_cancelled tells (NULL only on an error in the inputs). */
WS_EXPORT GPtrArray *ws_system_sweep_partial (WsSystemEnv *env, const WsAppModel *app, GHashTable *fixed,
                                              GPtrArray *axes, guint n_threads, GCancellable *cancellable,
                                              gboolean *was_cancelled, GError **error);

/* SIGINT and SIGTERM cancel @cancellable while the watch exists (a second
 * one ends the process as the signal would); for command-line sweeps that
 * store what they finished.  Freeing it gives the signals back their
 * default action. */
typedef struct _WsSignalWatch WsSignalWatch;
WS_EXPORT WsSignalWatch *ws_signal_watch_new (GCancellable *cancellable);
/* The signal that cancelled, or 0. */
WS_EXPORT int ws_signal_watch_get_signal (WsSignalWatch *watch);
WS_EXPORT void ws_signal_watch_free (WsSignalWatch *watch);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsSignalWatch, ws_signal_watch_free)

/* ---- store ------------------------------------------------------------- */

/* Creates the demo workspace (testbed systems, saxpy2 applications) the
 * first time it is called on a store; later calls add `saxpy2` once its
 * trace exists and `saxpy2-profiled` once its program exists.  Cheap when
 * there is nothing to do. */
WS_EXPORT gboolean ws_system_store_ensure_demo (WsStore *store, GError **error);
/* Where the demo's saxpy2 trace is looked for: ws_paths_get
 * (WS_PATH_DEMO_TRACE), $WARPSCOPE_DEMO_TRACE, else the build tree's or the
 * source tree's when running uninstalled, else the installed data dir's
 * (newly allocated). */
WS_EXPORT char *ws_system_demo_trace_path (void);
/* The program of the demo's saxpy2-profiled (on-demand kernel):
 * ws_paths_get (WS_PATH_DEMO_PROGRAM), $WARPSCOPE_DEMO_PROGRAM, else the
 * build's examples/saxpy2, else the installed <libdir>/warpscope/examples
 * (newly allocated).  The application is added once the program exists. */
WS_EXPORT char *ws_system_demo_program_path (void);
WS_EXPORT char **ws_system_store_list_systems (WsStore *store, GError **error);
WS_EXPORT char **ws_system_store_list_apps (WsStore *store, GError **error);
WS_EXPORT WsSystemModel *ws_system_store_get_system (WsStore *store, const char *name, GError **error);
WS_EXPORT WsAppModel *ws_system_store_get_app (WsStore *store, const char *name, GError **error);
/* Validates (system) or compiles (application) and stores; a trace a
 * profiled kernel references is copied into the workspace's trace folder and
 * the stored model points at the copy. */
WS_EXPORT gboolean ws_system_store_put_system (WsStore *store, const WsSystemModel *system, gboolean replace,
                                               GError **error);
WS_EXPORT gboolean ws_system_store_put_app (WsStore *store, JsonNode *app, gboolean replace, GError **error);
/* Deletes a stored model (WS_ERROR_NOT_FOUND when there is none); stored
 * sweeps keep the records they ran with. */
WS_EXPORT gboolean ws_system_store_delete_system (WsStore *store, const char *name, GError **error);
WS_EXPORT gboolean ws_system_store_delete_app (WsStore *store, const char *name, GError **error);
/* Folder next to the database where applications' traces are kept. */
WS_EXPORT char *ws_system_store_trace_dir (WsStore *store);

/* Stores a sweep (one or more points) with all its inputs (system and
 * application records, predictor and its options (name -> text, NULL: the
 * defaults), every point's variables) and every result in one transaction;
 * returns the sweep id (> 0) or 0 with @error.  When some results are
 * `cancelled`, only the finished points are stored and the sweep's status is
 * 'cancelled' (else 'complete'). */
WS_EXPORT gint64 ws_system_store_put_sweep (WsStore *store, const WsSystemModel *system, const WsAppModel *app,
                                            const char *predictor, GHashTable *predictor_options, GPtrArray *results,
                                            double wall_seconds, GError **error);
/* The predictor options a stored sweep ran with (name -> text, newly
 * allocated; empty when it ran with the defaults); NULL with @error when
 * there is no such sweep. */
WS_EXPORT GHashTable *ws_system_store_get_sweep_options (WsStore *store, gint64 sweep_id, GError **error);
/* Reads a stored sweep's results back (of WsSystemResult*, in point order). */
WS_EXPORT GPtrArray *ws_system_store_get_sweep (WsStore *store, gint64 sweep_id, char **system_name, char **app_name,
                                                GError **error);
/* A stored sweep's status ("complete" or "cancelled", newly allocated), with
 * the number of points it has (@n_points) and had when complete
 * (@n_planned); NULL with @error when there is none. */
WS_EXPORT char *ws_system_store_get_sweep_status (WsStore *store, gint64 sweep_id, guint *n_points, guint *n_planned,
                                                  GError **error);

G_END_DECLS
