/* warpscope-predict-worker: a predictor plugin's supervised process.
 * Warpscope starts it (core/predict/ws-predict-worker.c); everything is in
 * the library, so plugins see the same host functions as in process. */
#include "predict/ws-predict-private.h"

int
main (int argc, char **argv)
{
  return ws_predict_worker_main (argc, argv);
}
