/* trace-bench: throughput of the trace writer alone (warp instructions per
 * second through ws_trace_cta_*, including chunk compression and the file
 * write) and trace size (bytes per warp instruction), for streams shaped
 * like a few example kernels.  Prints numbers; it is not a test.
 *
 *   trace-bench [--blocks N] [--threads T] [--level L] [--keep DIR] */
#include <glib.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "trace/ws-trace.h"
#include "trace/ws-trace-writer.h"
#include "ptx/ws-ptx.h"

enum { PAT_COMPUTE, PAT_MEMORY, PAT_DIVERGENT, PAT_GATHER, PAT_COUNT };
static const char *pat_names[PAT_COUNT] = { "compute-bound (saxpy2 a=16)", "memory-bound (vector add)",
                                            "divergent (tid%4 branches)", "irregular (SpMV gather)" };

#define THREADS_PER_BLOCK 256
#define GATHER_TABLE 65536

static uint64_t gather[GATHER_TABLE];

typedef struct {
  WsTraceWriter *w;
  int pat;
  uint32_t n_blocks;
  gint next;
  guint64 insts; /* atomically summed */
} Job;

/* Records one TB the way the emulator would for the pattern's kernel. */
static uint64_t
record_block (WsTraceWriter *w, int pat, uint32_t b)
{
  const uint32_t warps = THREADS_PER_BLOCK / 32;
  uint64_t X = 0x7f0000000000ull, Y = 0x7f0001000000ull, Z = 0x7f0002000000ull;
  uint64_t a[32];
  uint64_t n = 0;
  WsTraceCta *cta = ws_trace_cta_begin (w, b, warps);
  for (uint32_t wp = 0; wp < warps; wp++)
    {
      uint64_t tid0 = (uint64_t) b * THREADS_PER_BLOCK + wp * 32;
      uint32_t id = 0;
#define INST(m) \
  do \
    { \
      ws_trace_cta_inst_fast (cta, wp, id++, (m)); \
      n++; \
    } \
  while (0)
/* clang-format off */
#define MEM(m, base, stride) do { for (int l = 0; l < 32; l++) a[l] = (base) + (uint64_t) l * (stride); \
      ws_trace_cta_mem (cta, wp, id++, (m), WS_SPACE_GLOBAL, a); n++; } while (0)
      /* clang-format on */
      for (int i = 0; i < 6; i++)
        INST (0xffffffffu);
      if (pat == PAT_COMPUTE)
        {
          MEM (0xffffffffu, X + tid0 * 4, 4);
          MEM (0xffffffffu, Y + tid0 * 4, 4);
          uint32_t loop = id;
          for (int it = 0; it < 16; it++)
            {
              id = loop;
              for (int i = 0; i < 4; i++)
                INST (0xffffffffu);
            }
          MEM (0xffffffffu, Y + tid0 * 4, 4);
        }
      else if (pat == PAT_MEMORY)
        {
          uint32_t loop = id;
          for (int it = 0; it < 8; it++)
            {
              id = loop;
              uint64_t i0 = tid0 + (uint64_t) it * 65536 * THREADS_PER_BLOCK;
              MEM (0xffffffffu, X + i0 * 4, 4);
              MEM (0xffffffffu, Y + i0 * 4, 4);
              INST (0xffffffffu);
              MEM (0xffffffffu, Z + i0 * 4, 4);
              for (int i = 0; i < 4; i++)
                INST (0xffffffffu);
            }
        }
      else if (pat == PAT_DIVERGENT)
        {
          uint32_t loop = id;
          for (int it = 0; it < 8; it++)
            {
              id = loop;
              INST (0xffffffffu);
              INST (0xffffffffu);
              MEM (0x11111111u, X + (tid0 + (uint64_t) it * 65536) * 4, 4);
              INST (0x11111111u);
              INST (0x11111111u);
              id = loop + 10;
              MEM (0xeeeeeeeeu, Y + (tid0 + (uint64_t) it * 65536) * 8, 8);
              INST (0xeeeeeeeeu);
              INST (0xffffffffu);
              INST (0xffffffffu);
            }
        }
      else
        {
          MEM (0xffffffffu, X + tid0 * 4, 4);
          uint32_t loop = id;
          for (int it = 0; it < 8; it++)
            {
              id = loop;
              MEM (0xffffffffu, Y + (tid0 * 8 + (uint64_t) it) * 4, 32);
              MEM (0xffffffffu, Z + (tid0 * 8 + (uint64_t) it) * 4, 32);
              uint32_t at = (uint32_t) ((tid0 * 8 + (uint64_t) it * 32) % (GATHER_TABLE - 32));
              ws_trace_cta_mem (cta, wp, id++, 0xffffffffu, WS_SPACE_GLOBAL, &gather[at]);
              n++;
              for (int i = 0; i < 4; i++)
                INST (0xffffffffu);
            }
        }
      INST (0xffffffffu);
#undef INST
#undef MEM
    }
  ws_trace_cta_end (cta);
  return n;
}

/* Process CPU seconds: on a shared machine wall time includes other
 * people's work, CPU time does not. */
static double
cpu_seconds (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double) ts.tv_sec + ts.tv_nsec * 1e-9;
}

static gpointer
worker (gpointer data)
{
  Job *job = data;
  uint64_t n = 0;
  for (;;)
    {
      gint b = g_atomic_int_add (&job->next, 1);
      if ((uint32_t) b >= job->n_blocks)
        break;
      n += record_block (job->w, job->pat, (uint32_t) b);
    }
  g_atomic_pointer_add (&job->insts, (gssize) n);
  return NULL;
}

int
main (int argc, char **argv)
{
  gint blocks = 8192, threads = 1, level = -2, only = -1;
  g_autofree char *keep = NULL;
  const GOptionEntry entries[] = { { "blocks", 0, 0, G_OPTION_ARG_INT, &blocks,
                                     "Thread blocks per pattern (256 threads each)", "N" },
                                   { "threads", 0, 0, G_OPTION_ARG_INT, &threads, "Recording threads", "T" },
                                   { "level", 0, 0, G_OPTION_ARG_INT, &level, "zstd level of the chunks", "L" },
                                   { "pattern", 0, 0, G_OPTION_ARG_INT, &only,
                                     "Run only pattern P (0 compute, 1 memory, 2 divergent, 3 gather)", "P" },
                                   { "keep", 0, 0, G_OPTION_ARG_FILENAME, &keep, "Keep the traces in DIR", "DIR" },
                                   { NULL } };
  g_autoptr (GOptionContext) ctx = g_option_context_new ("- trace writer benchmark");
  g_option_context_add_main_entries (ctx, entries, NULL);
  g_autoptr (GError) error = NULL;
  if (!g_option_context_parse (ctx, &argc, &argv, &error))
    {
      fprintf (stderr, "trace-bench: %s\n", error->message);
      return 2;
    }
  threads = CLAMP (threads, 1, 64);

  g_autoptr (GRand) r = g_rand_new_with_seed (1);
  for (int i = 0; i < GATHER_TABLE; i++)
    gather[i] = 0x7f0004000000ull + (uint64_t) g_rand_int_range (r, 0, 1 << 20) * 4;

  g_autofree char *dir = keep ? g_strdup (keep) : g_dir_make_tmp ("ws-trace-bench-XXXXXX", &error);
  if (dir == NULL)
    {
      fprintf (stderr, "trace-bench: %s\n", error->message);
      return 1;
    }
  g_mkdir_with_parents (dir, 0755);

  WsTraceStaticInst insts[64];
  memset (insts, 0, sizeof insts);
  for (int i = 0; i < 64; i++)
    {
      insts[i].op = WS_OP_LD;
      insts[i].space = WS_SPACE_GLOBAL;
      insts[i].access_size = 4;
    }

  printf ("trace writer: %d blocks x %d threads per pattern, %d recording thread(s), zstd level %d\n", blocks,
          THREADS_PER_BLOCK, threads, level);
  printf ("%-30s %12s %9s %9s %12s %12s %10s\n", "pattern", "warp insts", "wall s", "cpu s", "M inst/s", "M inst/cpu-s",
          "bytes/inst");
  double sum_bpi = 0, all_insts = 0, all_secs = 0, all_cpu = 0;
  int n_run = 0;
  for (int p = 0; p < PAT_COUNT; p++)
    {
      if (only >= 0 && p != only)
        continue;
      g_autofree char *path = g_strdup_printf ("%s/pattern%d.wstrace", dir, p);
      double t0 = ws_now_seconds (), c0 = cpu_seconds ();
      WsTraceWriter *w = ws_trace_writer_new (path, &error);
      if (w == NULL)
        {
          fprintf (stderr, "trace-bench: %s\n", error->message);
          return 1;
        }
      ws_trace_writer_set_level (w, level);
      WsTraceKernelDesc d = { .name = pat_names[p], .n_insts = 64, .insts = insts };
      uint32_t k = ws_trace_writer_add_kernel (w, &d);
      uint32_t grid[3] = { (uint32_t) blocks, 1, 1 }, block[3] = { THREADS_PER_BLOCK, 1, 1 };
      ws_trace_writer_begin_launch (w, k, grid, block, 0);
      Job job = { w, p, (uint32_t) blocks, 0, 0 };
      GThread *th[64];
      for (int t = 0; t < threads; t++)
        th[t] = g_thread_new ("rec", worker, &job);
      for (int t = 0; t < threads; t++)
        g_thread_join (th[t]);
      if (!ws_trace_writer_end_launch (w, &error) || !ws_trace_writer_close (w, &error))
        {
          fprintf (stderr, "trace-bench: %s\n", error->message);
          return 1;
        }
      double secs = ws_now_seconds () - t0, cpu = cpu_seconds () - c0;
      g_autoptr (WsTrace) t = ws_trace_open (path, &error);
      if (t == NULL)
        {
          fprintf (stderr, "trace-bench: %s\n", error->message);
          return 1;
        }
      double n = (double) job.insts;
      double bpi = (double) ws_trace_get_file_size (t) / n;
      printf ("%-30s %12.0f %9.3f %9.3f %12.2f %12.2f %10.3f\n", pat_names[p], n, secs, cpu, n / secs / 1e6,
              n / cpu / 1e6, bpi);
      all_cpu += cpu;
      sum_bpi += bpi;
      n_run++;
      all_insts += n;
      all_secs += secs;
      if (keep == NULL)
        g_unlink (path);
    }
  printf ("%-30s %12.0f %9.3f %9.3f %12.2f %12.2f %10.3f\n", "all (bytes/inst: mean)", all_insts, all_secs, all_cpu,
          all_insts / all_secs / 1e6, all_insts / all_cpu / 1e6, sum_bpi / MAX (n_run, 1));
  if (keep == NULL)
    g_rmdir (dir);
  return 0;
}
