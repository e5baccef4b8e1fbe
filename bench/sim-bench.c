/* sim-bench: speed of the cycle-level simulator (full simulation, one
 * thread) in simulated warp instructions per wall-clock second.
 *
 *   sim-bench [--gpu NAME] [--db PATH] [--scheduler rr|gto] [TRACE...]
 *
 * Without traces it writes and simulates a synthetic one (a mix of ALU,
 * FP32, SFU, coalesced loads and gathers (random words of a 1 KiB window),
 * stores, shared memory
 * and barriers; 1536 TBs of 8 warps), so the figure exists without CUDA.
 * Prints one line per trace: warp instructions, simulated cycles, wall
 * seconds, warp instructions per second, and the same for the time spent
 * decoding the trace alone (the reader's share of the cost). */
#include "tbpoint/ws-tbpoint.h"
#include "store/ws-store.h"
#include "ptx/ws-ptx.h"

#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>

static WsTraceStaticInst
inst (WsOpClass cls, uint8_t space, int dst, int src0, int src1)
{
  WsTraceStaticInst i;
  memset (&i, 0, sizeof i);
  i.opclass = (uint8_t) cls;
  i.space = space;
  i.access_size = 4;
  i.dst[0] = i.dst[1] = 0xffff;
  for (int k = 0; k < 4; k++)
    i.src[k] = 0xffff;
  if (dst >= 0)
    i.dst[i.n_dst++] = (uint16_t) dst;
  if (src0 >= 0)
    i.src[i.n_src++] = (uint16_t) src0;
  if (src1 >= 0)
    i.src[i.n_src++] = (uint16_t) src1;
  return i;
}

/* The synthetic kernel: a loop body of 24 instructions. */
static char *
write_synthetic (const char *dir)
{
  g_autofree char *path = g_build_filename (dir, "synthetic.wstrace", NULL);
  GError *error = NULL;
  WsTraceWriter *w = ws_trace_writer_new (path, &error);
  if (w == NULL)
    g_error ("%s", error->message);
  WsTraceStaticInst body[24];
  int n = 0;
  body[n++] = inst (WS_OPCLASS_LD, WS_SPACE_GLOBAL, 1, 0, -1); /* 0: coalesced load */
  body[n++] = inst (WS_OPCLASS_ALU, 0, 2, 0, -1);
  body[n++] = inst (WS_OPCLASS_ALU, 0, 3, 2, -1);
  body[n++] = inst (WS_OPCLASS_FP32, 0, 4, 1, 3); /* uses the load */
  body[n++] = inst (WS_OPCLASS_FP32, 0, 5, 4, 4);
  body[n++] = inst (WS_OPCLASS_FP32, 0, 6, 5, 2);
  body[n++] = inst (WS_OPCLASS_LD, WS_SPACE_SHARED, 7, 3, -1); /* 6: shared */
  body[n++] = inst (WS_OPCLASS_FP32, 0, 8, 7, 6);
  body[n++] = inst (WS_OPCLASS_SFU, 0, 9, 8, -1);
  body[n++] = inst (WS_OPCLASS_ALU, 0, 10, 3, -1);
  body[n++] = inst (WS_OPCLASS_LD, WS_SPACE_GLOBAL, 11, 10, -1); /* 10: scattered load */
  body[n++] = inst (WS_OPCLASS_ALU, 0, 12, 2, -1);
  body[n++] = inst (WS_OPCLASS_ALU, 0, 13, 12, -1);
  body[n++] = inst (WS_OPCLASS_FP32, 0, 14, 11, 9);
  body[n++] = inst (WS_OPCLASS_FP32, 0, 15, 14, 13);
  body[n++] = inst (WS_OPCLASS_ST, WS_SPACE_SHARED, -1, 15, 3); /* 15: shared store */
  body[n++] = inst (WS_OPCLASS_BARRIER, 0, -1, -1, -1);         /* 16: barrier */
  body[n - 1].is_barrier = 1;
  body[n++] = inst (WS_OPCLASS_ALU, 0, 16, 13, -1);
  body[n++] = inst (WS_OPCLASS_FP32, 0, 17, 15, 16);
  body[n++] = inst (WS_OPCLASS_FP32, 0, 18, 17, 8);
  body[n++] = inst (WS_OPCLASS_ST, WS_SPACE_GLOBAL, -1, 18, 10); /* 20: coalesced store */
  body[n++] = inst (WS_OPCLASS_ALU, 0, 0, 0, -1);
  body[n++] = inst (WS_OPCLASS_ALU, 0, 19, 0, -1);
  body[n++] = inst (WS_OPCLASS_BRANCH, 0, -1, 19, -1);
  WsTraceKernelDesc kd = { .name = "synthetic", .n_insts = (guint) n, .insts = body, .regs_per_thread = 24 };
  uint32_t k = ws_trace_writer_add_kernel (w, &kd);
  const uint32_t tbs = 1536, warps = 8, iters = 16;
  const uint32_t grid[3] = { tbs, 1, 1 }, block[3] = { warps * 32, 1, 1 };
  ws_trace_writer_begin_launch (w, k, grid, block, 0);
  uint64_t a[32];
  GRand *rnd = g_rand_new_with_seed (7);
  for (uint32_t t = 0; t < tbs; t++)
    {
      WsTraceCta *cta = ws_trace_cta_begin (w, t, warps);
      for (uint32_t wi = 0; wi < warps; wi++)
        for (uint32_t it = 0; it < iters; it++)
          for (int i = 0; i < n; i++)
            {
              uint64_t gid = ((uint64_t) t * warps + wi) * iters + it;
              switch (i)
                {
                case 0:
                case 20:
                  for (int l = 0; l < 32; l++)
                    a[l] = 0x100000000ull + (i == 20 ? 0x40000000ull : 0) + gid * 128 + 4 * l;
                  ws_trace_cta_mem (cta, wi, (uint32_t) i, 0xffffffffu, body[i].space, a);
                  break;
                case 10:
                  for (int l = 0; l < 32; l++)
                    /* a gather: random words inside a random 1 KiB window */
                    a[l] = 0x200000000ull + (gid % 4096) * 1024 + (uint64_t) g_rand_int_range (rnd, 0, 256) * 4;
                  ws_trace_cta_mem (cta, wi, (uint32_t) i, 0xffffffffu, body[i].space, a);
                  break;
                case 6:
                case 15:
                  for (int l = 0; l < 32; l++)
                    a[l] = (uint64_t) (wi * 128 + l * (i == 6 ? 4 : 8)) % 16384;
                  ws_trace_cta_mem (cta, wi, (uint32_t) i, 0xffffffffu, body[i].space, a);
                  break;
                case 16: ws_trace_cta_barrier_mask (cta, wi, (uint32_t) i, 0xffffffffu); break;
                default: ws_trace_cta_inst (cta, wi, (uint32_t) i, 0xffffffffu);
                }
            }
      ws_trace_cta_end (cta);
    }
  g_rand_free (rnd);
  if (!ws_trace_writer_end_launch (w, &error) || !ws_trace_writer_close (w, &error))
    g_error ("%s", error->message);
  return g_steal_pointer (&path);
}

/* Time to walk every record of every TB: the floor set by the reader. */
static double
decode_seconds (WsTrace *trace)
{
  gint64 t0 = g_get_monotonic_time ();
  uint64_t n = 0;
  for (guint l = 0; l < ws_trace_get_n_launches (trace); l++)
    {
      uint64_t n_tbs = 0;
      ws_trace_get_tb_counters (trace, l, &n_tbs);
      for (uint64_t t = 0; t < n_tbs; t++)
        {
          WsTraceTb *tb = ws_trace_read_tb (trace, l, t, NULL);
          if (tb == NULL)
            continue;
          for (guint w = 0; w < ws_trace_tb_get_n_warps (tb); w++)
            {
              WsTraceWarpIter it;
              WsTraceRecord r;
              ws_trace_warp_iter_init (&it, tb, w);
              while (ws_trace_warp_iter_next (&it, &r, NULL))
                n++;
            }
          ws_trace_tb_free (tb);
        }
    }
  (void) n;
  return (double) (g_get_monotonic_time () - t0) / 1e6;
}

int
main (int argc, char **argv)
{
  g_autofree char *gpu_name = g_strdup ("TBPoint Fermi"), *db = NULL, *sched = NULL;
  g_auto (GStrv) traces = NULL;
  GOptionEntry entries[] = { { "gpu", 0, 0, G_OPTION_ARG_STRING, &gpu_name, "Catalogue GPU (TBPoint Fermi)", "NAME" },
                             { "db", 0, 0, G_OPTION_ARG_FILENAME, &db, "Store (default: a temporary one)", "PATH" },
                             { "scheduler", 0, 0, G_OPTION_ARG_STRING, &sched, "rr or gto (gto)", "P" },
                             { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &traces, NULL, "TRACE..." },
                             { NULL } };
  g_autoptr (GOptionContext) ctx = g_option_context_new ("[TRACE...]");
  g_option_context_add_main_entries (ctx, entries, NULL);
  g_autoptr (GError) error = NULL;
  if (!g_option_context_parse (ctx, &argc, &argv, &error))
    {
      fprintf (stderr, "sim-bench: %s\n", error->message);
      return 2;
    }
  g_autofree char *tmp = g_dir_make_tmp ("ws-sim-bench-XXXXXX", NULL);
  g_autofree char *dbpath = db ? g_strdup (db) : g_build_filename (tmp, "store.db", NULL);
  g_autoptr (WsStore) store = ws_store_open (dbpath, &error);
  if (store == NULL)
    {
      fprintf (stderr, "sim-bench: %s\n", error->message);
      return 1;
    }
  g_autoptr (WsGpu) gpu = ws_store_get_gpu (store, gpu_name, &error);
  if (gpu == NULL)
    {
      fprintf (stderr, "sim-bench: %s\n", error->message);
      return 2;
    }
  g_autoptr (GPtrArray) paths = g_ptr_array_new_with_free_func (g_free);
  if (traces == NULL || traces[0] == NULL)
    g_ptr_array_add (paths, write_synthetic (tmp));
  else
    for (int i = 0; traces[i]; i++)
      g_ptr_array_add (paths, g_strdup (traces[i]));
  WsTbpointOptions o;
  ws_tbpoint_options_init (&o);
  if (sched && !ws_sim_scheduler_from_string (sched, &o.sim.scheduler))
    {
      fprintf (stderr, "sim-bench: unknown scheduler '%s'\n", sched);
      return 2;
    }
  printf ("%-24s %12s %12s %9s %14s %14s\n", "trace", "warp insts", "cycles", "wall s", "warp insts/s",
          "decode-only/s");
  uint64_t all = 0;
  double all_s = 0;
  for (guint i = 0; i < paths->len; i++)
    {
      g_autoptr (WsTrace) trace = ws_trace_open (paths->pdata[i], &error);
      if (trace == NULL)
        {
          fprintf (stderr, "sim-bench: %s\n", error->message);
          return 1;
        }
      g_autoptr (WsTbpointResult) r = ws_tbpoint_simulate (trace, gpu, &o, &error);
      if (r == NULL)
        {
          fprintf (stderr, "sim-bench: %s\n", error->message);
          return 1;
        }
      double dec = decode_seconds (trace);
      g_autofree char *base = g_path_get_basename (paths->pdata[i]);
      printf ("%-24.24s %12" G_GUINT64_FORMAT " %12" G_GUINT64_FORMAT " %9.3f %14.0f %14.0f\n", base,
              r->warp_instructions, r->cycles, r->wall_seconds, r->warp_instructions / r->wall_seconds,
              r->warp_instructions / dec);
      all += r->warp_instructions;
      all_s += r->wall_seconds;
    }
  if (paths->len > 1)
    printf ("%-24s %12" G_GUINT64_FORMAT " %12s %9.3f %14.0f\n", "total", all, "", all_s, all / all_s);
  if (traces == NULL || traces[0] == NULL)
    g_unlink (paths->pdata[0]);
  g_unlink (dbpath);
  g_autofree char *wal = g_strconcat (dbpath, "-wal", NULL), *shm = g_strconcat (dbpath, "-shm", NULL);
  g_unlink (wal);
  g_unlink (shm);
  g_rmdir (tmp);
  return 0;
}
