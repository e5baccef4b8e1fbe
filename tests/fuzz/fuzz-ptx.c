/* libFuzzer target: the PTX lexer and parser (core/ptx). */
#include "ptx/ws-ptx.h"

#include <string.h>

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  g_autofree char *text = g_strndup ((const char *) data, size);
  GError *error = NULL;
  WsPtxModule *m = ws_ptx_parse (text, strlen (text), "fuzz.ptx", &error);
  if (m != NULL)
    ws_ptx_module_free (m);
  g_clear_error (&error);
  return 0;
}
