/* Small working predictor plugins that report what the host gives them, one
 * per PROBE_KIND, for the host's API tests. */
#include "ws-predictor.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <unistd.h>

#if PROBE_KIND == 1
/* Reports every static instruction's inst_wavefronts as the metric
 * "wavefronts.<id>" (API 2), the host's API version, and the L2 rate the
 * host derives for the models (gpu_param "l2_model_bytes_per_clk", -1
 * where it has none). */
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
  h->set_metric (ctx, "l2_model_bytes_per_clk", h->gpu_param (ctx, "l2_model_bytes_per_clk", -1));
  h->set_cycles (ctx, 1);
  return 0;
}

static const WsPredictorDescriptor d = { .abi_version = WS_PREDICTOR_ABI_VERSION,
                                         .api_version = WS_PREDICTOR_API_VERSION,
                                         .name = "probe_wavefronts",
                                         .version = "1",
                                         .supports_trace = 1,
                                         .predict = predict_wavefronts };
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

static const WsPredictorDescriptor d = { .abi_version = WS_PREDICTOR_ABI_VERSION,
                                         .api_version = 1,
                                         .name = "probe_api1",
                                         .version = "1",
                                         .supports_trace = 1,
                                         .supports_analytic = 1,
                                         .predict = predict_constant };
#elif PROBE_KIND == 3
/* Misbehaves on request, for the isolation tests: option "mode" (or, for
 * analytic kernels in mode "auto", grid_size 13/14/15/16) makes it segfault,
 * abort, loop for ever or allocate without end.  Otherwise cycles =
 * scale x grid_size (analytic) or scale x n_insts (traces), with its
 * process id, its call count and whether init ran as metrics, and a
 * warning.  teardown appends a line to $WS_PROBE_TEARDOWN_FILE. */
static int calls, inited;

static int
probe_init (const WsPredictorHost *h, WsPredictorContext *ctx)
{
  inited = 1;
  return 0;
}

static void
probe_teardown (void)
{
  const char *path = getenv ("WS_PROBE_TEARDOWN_FILE");
  FILE *f = path ? fopen (path, "a") : NULL;
  if (f != NULL)
    {
      fprintf (f, "teardown %d after %d calls\n", (int) getpid (), calls);
      fclose (f);
    }
}

/* The segfault is the point: neither UBSan's null check nor ASan's SEGV
 * handler (./test.sh --sanitize) may turn it into an abort (signal 6), or
 * the host could not be seen naming signal 11; so no UBSan here, and the
 * default action for SIGSEGV in this (worker) process. */
__attribute__ ((no_sanitize ("undefined"))) static int
predict_crash (const WsPredictorHost *h, WsPredictorContext *ctx)
{
  const char *mode = h->option_string (ctx, "mode");
  double grid = h->analytic_param (ctx, "grid_size", 0);
  if (strcmp (mode, "auto") == 0)
    mode = grid == 13 ? "segv" : grid == 14 ? "abort" : grid == 15 ? "hang" : grid == 16 ? "oom" : "ok";
  if (strcmp (mode, "segv") == 0)
    {
      volatile int *nowhere = NULL;
      signal (SIGSEGV, SIG_DFL);
      *nowhere = 1;
    }
  if (strcmp (mode, "abort") == 0)
    abort ();
  if (strcmp (mode, "hang") == 0)
    for (volatile int spin = 0;; spin++)
      ;
  if (strcmp (mode, "oom") == 0)
    for (;;)
      {
        char *p = malloc (16 << 20);
        if (p == NULL)
          abort ();
        memset (p, 1, 16 << 20);
      }
  calls++;
  double size = h->is_analytic (ctx) ? grid : (double) h->n_insts (ctx);
  h->set_cycles (ctx, (double) h->option_int (ctx, "scale") * size);
  h->add_cpi (ctx, "MEM", 2);
  h->add_cpi (ctx, "BASE", 1);
  if (strcmp (mode, "undeclared") == 0)
    h->add_cpi (ctx, "EXTRA", 3);
  h->set_metric (ctx, "pid", getpid ());
  h->set_metric (ctx, "calls", calls);
  h->set_metric (ctx, "inited", inited);
  char w[64];
  snprintf (w, sizeof w, "probe saw size %g", size);
  h->warn (ctx, w);
  return 0;
}

/* Declared BASE first; predict_crash reports MEM first. */
static const WsPredictorCpiCategory crash_cpi[] = {
  { "BASE", "#112233", "issue" },
  { "MEM", NULL, NULL },
};

static const WsPredictorOption crash_options[] = {
  { "mode", WS_PREDICTOR_OPTION_CHOICE, "auto", "auto|ok|segv|abort|hang|oom|undeclared",
    "how to misbehave (undeclared: also report a CPI category the descriptor does not declare)" },
  { "scale", WS_PREDICTOR_OPTION_INT, "1000", NULL, "cycles per grid block or instruction" },
};

static const WsPredictorDescriptor d = { .abi_version = WS_PREDICTOR_ABI_VERSION,
                                         .api_version = WS_PREDICTOR_API_VERSION,
                                         .name = "probe_crash",
                                         .version = "1",
                                         .n_options = 2,
                                         .options = crash_options,
                                         .supports_trace = 1,
                                         .supports_analytic = 1,
                                         .predict = predict_crash,
                                         .init = probe_init,
                                         .teardown = probe_teardown,
                                         .n_cpi_categories = 2,
                                         .cpi_categories = crash_cpi };
#elif PROBE_KIND == 4 || PROBE_KIND == 5
/* Counts calls that overlap another call of the same instance.  The
 * thread-safe variant (5) waits up to 2 s inside predict() for a second
 * caller, so concurrent calls do overlap; the other (4) stays 20 ms. */
static int inside, overlaps, calls;

static int
predict_overlap (const WsPredictorHost *h, WsPredictorContext *ctx)
{
  if (__atomic_fetch_add (&inside, 1, __ATOMIC_SEQ_CST) > 0)
    __atomic_fetch_add (&overlaps, 1, __ATOMIC_SEQ_CST);
#if PROBE_KIND == 5
  for (int i = 0; i < 2000 && __atomic_load_n (&inside, __ATOMIC_SEQ_CST) < 2; i++)
    usleep (1000);
  usleep (20000);
#else
  usleep (20000);
#endif
  int n = __atomic_add_fetch (&calls, 1, __ATOMIC_SEQ_CST);
  __atomic_fetch_sub (&inside, 1, __ATOMIC_SEQ_CST);
  h->set_cycles (ctx, 1000);
  h->set_metric (ctx, "overlaps", __atomic_load_n (&overlaps, __ATOMIC_SEQ_CST));
  h->set_metric (ctx, "calls", n);
  h->set_metric (ctx, "pid", getpid ());
  return 0;
}

static const WsPredictorDescriptor d = { .abi_version = WS_PREDICTOR_ABI_VERSION,
                                         .api_version = WS_PREDICTOR_API_VERSION,
#if PROBE_KIND == 5
                                         .name = "probe_parallel",
                                         .flags = WS_PREDICTOR_FLAG_THREAD_SAFE,
#else
                                         .name = "probe_serial",
#endif
                                         .version = "1",
                                         .supports_analytic = 1,
                                         .predict = predict_overlap };
#endif

WS_PREDICTOR_EXPORT const WsPredictorDescriptor *ws_predictor_query (void);
const WsPredictorDescriptor *
ws_predictor_query (void)
{
  return &d;
}
