/* libFuzzer target: the trace reader (core/trace): header, tables, and
 * every TB chunk of the first launches.  The reader maps a file, so the
 * input is written to one first. */
#include "trace/ws-trace.h"

#include <glib/gstdio.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

static char *path;

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  if (path == NULL)
    path = g_strdup_printf ("%s/ws-fuzz-trace-%d.wstrace", g_get_tmp_dir (), (int) getpid ());
  if (!g_file_set_contents (path, (const char *) data, (gssize) size, NULL))
    return 0;
  GError *error = NULL;
  WsTrace *t = ws_trace_open (path, &error);
  if (t == NULL)
    {
      g_clear_error (&error);
      return 0;
    }
  (void) ws_trace_get_total_warp_instructions (t);
  for (guint l = 0; l < ws_trace_get_n_launches (t) && l < 4; l++)
    {
      uint64_t n_tbs = 0;
      ws_trace_get_tb_counters (t, l, &n_tbs);
      for (uint64_t b = 0; b < n_tbs && b < 16; b++)
        {
          WsTraceTb *tb = ws_trace_read_tb (t, l, b, &error);
          if (tb == NULL)
            {
              g_clear_error (&error);
              continue;
            }
          for (guint w = 0; w < ws_trace_tb_get_n_warps (tb); w++)
            (void) ws_trace_tb_get_n_records (tb, w);
          ws_trace_tb_free (tb);
        }
    }
  ws_trace_free (t);
  return 0;
}
