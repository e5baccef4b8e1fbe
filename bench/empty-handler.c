/* empty-handler.c: an instrumentation handler that does nothing, called
 * before every instruction: the fixed cost of a C handler (instrument-bench.sh). */
#include <ws-instrument-sdk.h>

static void
empty_before (void *tool, void *cta_data, const WsInstrSite *site)
{
  (void) tool;
  (void) cta_data;
  (void) site;
}

WS_INSTR_SDK_EXPORT const WsInstrHandler *ws_instr_handler_query (void);

WS_INSTR_SDK_EXPORT const WsInstrHandler *
ws_instr_handler_query (void)
{
  static const WsInstrHandler handler = {
    .abi_version = WS_INSTR_SDK_ABI_VERSION,
    .size = sizeof (WsInstrHandler),
    .api_version = WS_INSTR_SDK_API_VERSION,
    .name = "empty",
    .before_where = WS_INSTR_SDK_AT_ALL,
    .before = empty_before,
  };
  return &handler;
}
