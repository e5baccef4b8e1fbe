/* Small working predictor plugins that report what the host gives them, one
 * per PROBE_KIND, for the host's API tests. */
#include "ws-predictor.h"

#include <stdio.h>

#if PROBE_KIND == 1
/* Reports every static instruction's inst_wavefronts as the metric
 * "wavefronts.<id>" (API 2), and the host's API version. */
static int
predict_wavefronts (const WsPredictorHost *h, WsPredictorContext *ctx)
{
  if (!WS_PREDICTOR_HOST_HAS (h, inst_wavefronts))
    {
      h->fail (ctx, "the host has no inst_wavefronts");
      return 1;
    }
  for (uint32_t i = 0; i < h->n_insts (ctx); i++)
    {
      char name[32];
      snprintf (name, sizeof name, "wavefronts.%u", i);
      h->set_metric (ctx, name, h->inst_wavefronts (ctx, i));
    }
  h->set_metric (ctx, "host_api", h->api_version);
  h->set_cycles (ctx, 1);
  return 0;
}

static const WsPredictorDescriptor d = { .abi_version = WS_PREDICTOR_ABI_VERSION,
                                         .api_version = WS_PREDICTOR_API_VERSION, .name = "probe_wavefronts",
                                         .version = "1", .supports_trace = 1, .predict = predict_wavefronts };
#elif PROBE_KIND == 2
/* A plugin built for API 1 (before inst_wavefronts): it must keep loading
 * and predicting on a newer host. */
static int
predict_constant (const WsPredictorHost *h, WsPredictorContext *ctx)
{
  h->set_cycles (ctx, 42);
  h->set_metric (ctx, "host_api", h->api_version);
  return 0;
}

static const WsPredictorDescriptor d = { .abi_version = WS_PREDICTOR_ABI_VERSION, .api_version = 1,
                                         .name = "probe_api1", .version = "1", .supports_trace = 1,
                                         .supports_analytic = 1, .predict = predict_constant };
#endif

WS_PREDICTOR_EXPORT const WsPredictorDescriptor *ws_predictor_query (void);
const WsPredictorDescriptor *ws_predictor_query (void) { return &d; }
