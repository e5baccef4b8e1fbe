/* other-abi.c: a handler that claims another instrumentation ABI (99), as a
 * library built against a future or past Warpscope would: the host must
 * refuse it and say to rebuild it. */
#include <ws-instrument-sdk.h>

WS_INSTR_SDK_EXPORT const WsInstrHandler *ws_instr_handler_query (void);

WS_INSTR_SDK_EXPORT const WsInstrHandler *
ws_instr_handler_query (void)
{
  static const WsInstrHandler handler = {
    .abi_version = 99,
    .size = sizeof (WsInstrHandler),
    .api_version = WS_INSTR_SDK_API_VERSION,
    .name = "other-abi",
  };
  return &handler;
}
