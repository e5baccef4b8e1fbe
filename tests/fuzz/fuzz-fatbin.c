/* libFuzzer target: the fatbinary reader (core/fatbin): containers,
 * entries, and the decoding (LZ4, zstd) of each entry. */
#include "fatbin/ws-fatbin.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  /* A copy of exactly @size bytes, so a read past the end is caught. */
  g_autofree guint8 *copy = g_memdup2 (data, size);
  GError *error = NULL;
  WsFatbin *fb = ws_fatbin_new_from_data (copy, size, &error);
  if (fb == NULL)
    {
      g_clear_error (&error);
      return 0;
    }
  for (guint i = 0; i < ws_fatbin_get_n_entries (fb); i++)
    {
      gsize len = 0;
      guint8 *payload = ws_fatbin_entry_decode (ws_fatbin_get_entry (fb, i), &len, &error);
      g_free (payload);
      g_clear_error (&error);
    }
  ws_fatbin_free (fb);
  return 0;
}
