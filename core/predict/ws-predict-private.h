/* ws-predict-private.h: what ws-predict.c and ws-predict-worker.c share. */
#pragma once

#include "predict/ws-predict.h"
#include "trace/ws-trace.h"
#include "interval/ws-interval.h"

G_BEGIN_DECLS

typedef struct _WsPredictorWorker WsPredictorWorker;

struct WsPredictorContext {
  const WsPredictorDescriptor *descriptor;
  const WsGpu *gpu;
  JsonObject *gpu_json;
  JsonNode *gpu_node;
  GHashTable *options;
  WsPrediction *result;
  char *failure;
  /* an analytic kernel ... */
  const WsAnalyticKernel *analytic;
  /* ... or a traced launch */
  WsTrace *trace;
  guint launch_index;
  const WsTraceLaunch *launch;
  const WsTraceKernel *kernel;
  const WsTraceTbCounters *tbs;
  uint64_t n_tbs;
  WsLaunchAnalysis *analysis; /* borrowed or owned */
  gboolean owns_analysis;
  GError *analysis_error;
};

/* ws-predict.c: an empty result (times NAN). */
WsPrediction *ws_prediction_new (const char *model, const char *gpu, const char *kernel);
/* ws-predict.c: runs the plugin's predict() on a prepared context in this
 * process, without any lock, and turns the outcome into a result or an
 * error naming plugin, kernel and GPU. */
WsPrediction *ws_predict_run_direct (WsPredictorContext *ctx, GError **error);
/* Runs init() of descriptor @d in this process (API 3 plugins that have
 * one); FALSE with the plugin's message in @error. */
gboolean ws_predict_run_init (const WsPredictorDescriptor *d, GError **error);

/* ws-predict-worker.c: the same, in the plugin's supervised workers
 * (processes of the program warpscope-predict-worker, pooled per plugin
 * record).  An analytic prediction sends the kernel's parameters; a traced
 * launch sends the trace's path and the launch, which the worker opens. */
WsPrediction *ws_predict_worker_analytic (const WsPredictorPlugin *plugin, WsPredictorContext *ctx, GError **error);
WsPrediction *ws_predict_worker_trace (const WsPredictorPlugin *plugin, WsPredictorContext *ctx, GError **error);
void ws_predict_worker_free (struct _WsPredictorWorker *worker);
/* The worker program's main(): loads the plugin named by argv and serves
 * the host on descriptor 3 until the host closes it. */
WS_EXPORT int ws_predict_worker_main (int argc, char **argv);

G_END_DECLS
