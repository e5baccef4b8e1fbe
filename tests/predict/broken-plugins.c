/* Deliberately broken predictor plugins, one per BROKEN_KIND, for the host's
 * error handling tests. */
#include "ws-predictor.h"

/* Unused by the kinds that never reach predict(). */
__attribute__ ((unused)) static int
predict_nothing (const WsPredictorHost *h, WsPredictorContext *ctx)
{
  h->fail (ctx, "this plugin always fails");
  return 1;
}

#if BROKEN_KIND == 1
/* Exports the wrong symbol: no ws_predictor_query. */
WS_PREDICTOR_EXPORT int not_a_predictor (void);
int
not_a_predictor (void)
{
  return 42;
}
#elif BROKEN_KIND == 2
/* Built for a future ABI. */
static const WsPredictorDescriptor d = { .abi_version = WS_PREDICTOR_ABI_VERSION + 7,
                                         .name = "future_abi",
                                         .predict = predict_nothing };
WS_PREDICTOR_EXPORT const WsPredictorDescriptor *ws_predictor_query (void);
const WsPredictorDescriptor *
ws_predictor_query (void)
{
  return &d;
}
#elif BROKEN_KIND == 3
/* Its query refuses. */
WS_PREDICTOR_EXPORT const WsPredictorDescriptor *ws_predictor_query (void);
const WsPredictorDescriptor *
ws_predictor_query (void)
{
  return 0;
}
#elif BROKEN_KIND == 4
/* Loads fine but fails every prediction. */
static const WsPredictorDescriptor d = { .abi_version = WS_PREDICTOR_ABI_VERSION,
                                         .api_version = WS_PREDICTOR_API_VERSION,
                                         .name = "always_fails",
                                         .version = "1",
                                         .supports_analytic = 1,
                                         .predict = predict_nothing };
WS_PREDICTOR_EXPORT const WsPredictorDescriptor *ws_predictor_query (void);
const WsPredictorDescriptor *
ws_predictor_query (void)
{
  return &d;
}
#elif BROKEN_KIND == 5 || BROKEN_KIND == 6
/* Declares its CPI categories wrongly (API 4): a colour that is no
 * "#rrggbb" (5), a category twice (6). */
static const WsPredictorCpiCategory cpi[] = {
  { "BASE", BROKEN_KIND == 5 ? "red" : NULL, NULL },
  { BROKEN_KIND == 5 ? "MEM" : "BASE", NULL, NULL },
};
static const WsPredictorDescriptor d = { .abi_version = WS_PREDICTOR_ABI_VERSION,
                                         .api_version = WS_PREDICTOR_API_VERSION,
                                         .name = BROKEN_KIND == 5 ? "bad_cpi_colour" : "cpi_twice",
                                         .version = "1",
                                         .supports_analytic = 1,
                                         .predict = predict_nothing,
                                         .n_cpi_categories = 2,
                                         .cpi_categories = cpi };
WS_PREDICTOR_EXPORT const WsPredictorDescriptor *ws_predictor_query (void);
const WsPredictorDescriptor *
ws_predictor_query (void)
{
  return &d;
}
#endif
