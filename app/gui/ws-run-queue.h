/* ws-run-queue.h: model runs and sweeps queued by the Simulations page and
 * read by the Results page.
 *
 * A run is one application model on one system with one predictor (or the
 * detailed simulator), over the points of at most one swept variable plus
 * fixed values.  Runs execute one at a time on a worker thread (GTask): the
 * main thread resolves the models and the predictor (store access stays on
 * one thread), the worker evaluates point after point and publishes how
 * many are done; cancelling stops a running point too (the simulator
 * checks the cancellable as it goes).  A failure is kept with
 * its message and never removes other runs or their results. */
#pragma once

#include <gio/gio.h>
#include "store/ws-store.h"
#include "system/ws-system.h"
#include "tbpoint/ws-tbpoint.h"

G_BEGIN_DECLS

typedef enum {
  WS_RUN_QUEUED,
  WS_RUN_RUNNING,
  WS_RUN_DONE,
  WS_RUN_FAILED,
  WS_RUN_CANCELLED,
} WsRunState;

typedef struct {
  guint id;
  char *system;
  char *app;
  char *predictor;     /* plugin name or WS_SYSTEM_PREDICTOR_SIMULATOR */
  char *variable;      /* swept variable, or NULL for one point */
  GArray *values;      /* of double: the swept values (one 0 when not swept) */
  GHashTable *fixed;   /* char* -> double*: fixed overrides */
  GHashTable *options; /* char* -> char*: the predictor plugin's options, or NULL (its defaults) */
  WsRunState state;
  guint n_done;       /* points evaluated so far */
  GPtrArray *results; /* of WsSystemResult*, in point order (DONE) */
  char *error;        /* FAILED: why */
  gint64 sweep_id;    /* stored sweep (> 0) once saved */
  /* CPI stacks of the application's profiled launches (its traces and
   * those profiled on demand for each point) on the system's first GPU
   * (plugin predictors only; empty otherwise). */
  GPtrArray *cpi;          /* of WsPrediction*, one per trace launch */
  GHashTable *cpi_colours; /* CPI category -> "#rrggbb" the plugin declares (API 4), or NULL */
  GPtrArray *cpi_labels;   /* of char*, parallel: the configuration ("N=1048576" for a trace
                                  * profiled on demand for that point; "" for the application's traces) */
  /* TBPoint views (seed 000 Fig. 8) of the application's profiled launches
   * (its traces and those profiled on demand for the last point) on the
   * system's first GPU (WS_SYSTEM_PREDICTOR_SIMULATOR_TBPOINT runs only;
   * empty otherwise). */
  GPtrArray *tbpoint;        /* of WsTbpointView* */
  GPtrArray *tbpoint_labels; /* of char*, parallel (as cpi_labels) */
} WsRun;

#define WS_TYPE_RUN_QUEUE (ws_run_queue_get_type ())
G_DECLARE_FINAL_TYPE (WsRunQueue, ws_run_queue, WS, RUN_QUEUE, GObject)

/* Signals:
 *   run-changed (guint index)   state or progress of run @index changed
 *   run-added (guint index)
 */

WsRunQueue *ws_run_queue_new (void);
/* @store is borrowed and must outlive the queue's use of it. */
void ws_run_queue_set_store (WsRunQueue *self, WsStore *store);
/* Queues a run; @variable may be NULL (then @values is ignored), @fixed and
 * @options (the predictor plugin's, name -> text, checked by the caller) may
 * be NULL.  Returns its index. */
guint ws_run_queue_add (WsRunQueue *self, const char *system, const char *app, const char *predictor,
                        const char *variable, GArray *values, GHashTable *fixed, GHashTable *options);
guint ws_run_queue_get_n_runs (WsRunQueue *self);
const WsRun *ws_run_queue_get_run (WsRunQueue *self, guint index);
/* Cancels a queued or running run. */
void ws_run_queue_cancel (WsRunQueue *self, guint index);
gboolean ws_run_queue_is_busy (WsRunQueue *self);
const char *ws_run_state_name (WsRunState state);

G_END_DECLS
