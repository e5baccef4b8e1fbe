/* bench-emu.c: emulator speed (not a test; prints numbers).
 *
 * bench-emu [N] [THREADS]: runs saxpy2 (a = 256, compute bound), vecadd
 * (memory bound) and diverge (divergent) from tests/data/emu/kernels.ptx,
 * without and with trace writing, and prints thread- and warp-instructions
 * per second and trace bytes per warp instruction. */
#include "ws-config.h"
#include "emu/ws-emu.h"
#include "trace/ws-trace-writer.h"

#include <glib/gstdio.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HOST(a) ((void *) (uintptr_t) (a))

typedef struct {
  const char *name;
  const char *kernel;
  uint32_t grid, block;
} Case;

static void
discard (const char *text, gsize len, gpointer data)
{}

static int
run_case (const char *ptx, gsize len, const char *which, int n, guint threads, gboolean trace)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("ws-bench-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "bench.wstrace", NULL);
  WsDevMem *mem = ws_devmem_new (&error);
  WsEmuOptions opt = { 0 };
  WsEmu *emu;
  WsEmuModule *mod;
  WsEmuFunction *fn;
  WsLaunchStats st = { 0 };
  WsLaunchConfig cfg = { { 1, 1, 1 }, { 256, 1, 1 }, 0 };
  int cerr = 0, a = 256;
  uint64_t x, y, z;
  GStatBuf sb;
  double bytes = 0;

  opt.mem = mem;
  opt.n_threads = threads;
  opt.printf_func = discard;
  if (trace)
    {
      opt.trace = ws_trace_writer_new (path, &error);
      if (opt.trace == NULL)
        {
          fprintf (stderr, "trace writer: %s\n", error->message);
          return 1;
        }
    }
  emu = ws_emu_new (&opt, &error);
  mod = ws_emu_load_ptx (emu, ptx, len, "kernels.ptx", &error);
  if (mod == NULL)
    {
      fprintf (stderr, "load: %s\n", error->message);
      return 1;
    }
  x = ws_devmem_alloc (mem, (uint64_t) n * 8, WS_ALLOC_DEVICE, "x", NULL);
  y = ws_devmem_alloc (mem, (uint64_t) n * 8, WS_ALLOC_DEVICE, "y", NULL);
  z = ws_devmem_alloc (mem, (uint64_t) n * 8, WS_ALLOC_DEVICE, "z", NULL);
  for (int i = 0; i < n; i++)
    {
      ((float *) HOST (x))[i] = (float) i;
      ((int *) HOST (y))[i] = i * 7 % 1001 + 1;
    }
  cfg.grid[0] = (uint32_t) ((n + 255) / 256);
  if (strcmp (which, "saxpy2") == 0)
    {
      void *args[] = { &n, &a, &x, &y };
      fn = ws_emu_module_get_function (mod, "saxpy2");
      for (int i = 0; i < n; i++)
        ((float *) HOST (y))[i] = 1.0f;
      if (!ws_emu_launch (emu, fn, &cfg, args, &st, &cerr, &error))
        goto fail;
      /* exact while the sums stay below 2^24 */
      for (int i = 0; i < n && i < 65536; i++)
        if (((float *) HOST (y))[i] != 1.0f + (float) i * 256.0f)
          {
            fprintf (stderr, "saxpy2: wrong result at %d: %g\n", i, ((float *) HOST (y))[i]);
            return 1;
          }
    }
  else if (strcmp (which, "vecadd") == 0)
    {
      void *args[] = { &x, &y, &z, &n };
      fn = ws_emu_module_get_function (mod, "vecadd");
      for (int r = 0; r < 8; r++)
        {
          WsLaunchStats s1;
          if (!ws_emu_launch (emu, fn, &cfg, args, &s1, &cerr, &error))
            goto fail;
          st.warp_instructions += s1.warp_instructions;
          st.thread_instructions += s1.thread_instructions;
          st.seconds += s1.seconds;
        }
    }
  else
    {
      void *args[] = { &y, &z, &n };
      fn = ws_emu_module_get_function (mod, "diverge");
      if (!ws_emu_launch (emu, fn, &cfg, args, &st, &cerr, &error))
        goto fail;
    }
  if (trace)
    {
      if (!ws_trace_writer_close (opt.trace, &error))
        goto fail;
      if (g_stat (path, &sb) == 0)
        bytes = (double) sb.st_size;
      g_unlink (path);
    }
  printf ("%-8s %-7s threads=%u  %" G_GUINT64_FORMAT
          " thread-inst  %8.3f s  %9.1f M thread-inst/s  %7.2f M warp-inst/s  %s%.2f\n",
          which, trace ? "trace" : "notrace", threads, st.thread_instructions, st.seconds,
          st.thread_instructions / st.seconds / 1e6, st.warp_instructions / st.seconds / 1e6,
          trace ? "bytes/warp-inst " : "", trace ? bytes / (double) st.warp_instructions : 0.0);
  ws_emu_free (emu);
  ws_devmem_free_all (mem);
  g_rmdir (dir);
  return 0;
fail:
  fprintf (stderr, "%s: %s\n", which, error ? error->message : "failed");
  return 1;
}

int
main (int argc, char **argv)
{
  const char *src = g_getenv ("WS_SOURCE_DIR");
  g_autofree char *path = g_build_filename (src ? src : WS_SOURCE_DIR, "tests", "data", "emu", "kernels.ptx", NULL);
  g_autofree char *ptx = NULL;
  gsize len;
  int n = argc > 1 ? atoi (argv[1]) : 1 << 16;
  guint threads = argc > 2 ? (guint) atoi (argv[2]) : 0;
  const char *only = argc > 3 ? argv[3] : NULL;
  const char *cases[] = { "saxpy2", "vecadd", "diverge" };
  int rc = 0;

  if (!g_file_get_contents (path, &ptx, &len, NULL))
    {
      fprintf (stderr, "cannot read %s\n", path);
      return 1;
    }
  for (int c = 0; c < 3; c++)
    {
      if (only && strcmp (only, cases[c]) != 0)
        continue;
      if (!g_getenv ("WS_BENCH_TRACE_ONLY"))
        rc |= run_case (ptx, len, cases[c], n, threads, FALSE);
      rc |= run_case (ptx, len, cases[c], n, threads, TRUE);
    }
  return rc;
}
