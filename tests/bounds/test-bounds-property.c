/* test-bounds-property.c: no model or simulator result beats the physical
 * lower bound (core/bounds).
 *
 * For every example trace (each CUDA example profiled with its default,
 * small arguments into a temporary folder, the trace shipped in
 * db/workspace, and three synthetic traces of the shapes that exposed models
 * beating the GPU: a 16 MiB store-only stream, a one-block launch of 228 000
 * warp instructions and a one-thread pointer chase) x every catalogue GPU x every source of a time (the
 * predictor plugins volkov, gpumech and ake, the cycle-level simulator and
 * the simulator with TBPoint's intra-launch sampling):
 *   predicted cycles >= bound cycles x (1 - 1e-9)  and  IPC <= max IPC.
 * One TAP case per example; a failure lists every violation with example,
 * launch, GPU, source, predicted and bound cycles and the limiter.
 *
 * Arguments: --cli WARPSCOPE_CLI, then pairs NAME PROGRAM ('-' when the
 * program was not built).  The plugins come from WS_VOLKOV_PLUGIN,
 * WS_GPUMECH_PLUGIN and WS_AKE_PLUGIN.  To keep the run short, at most
 * WS_BOUNDS_LAUNCHES_PER_KERNEL (default 2) launches of each kernel of a
 * trace are checked (all sources see the same launches). */
#include "bounds-test-util.h"
#include "bounds/ws-bounds.h"
#include "interval/ws-interval.h"
#include "predict/ws-predict.h"
#include "sim/ws-sim.h"
#include "store/ws-store.h"
#include "tbpoint/ws-tbpoint.h"
#include "trace/ws-trace-writer.h"
#include "ptx/ws-ptx.h"

#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

static const char *cli_path;
static char *tmp_dir;
static GPtrArray *gpus;    /* of WsGpu* */
static GPtrArray *plugins; /* of WsPredictorPlugin* */
static guint launches_per_kernel = 2;
static guint total_checks, total_violations;

typedef struct {
  char *name;
  char *program; /* NULL: a trace shipped in the repository */
  char *trace;   /* for shipped traces */
  int synthetic; /* neither: write_synthetic (synthetic) */
} Example;

static void
example_free (gpointer p)
{
  Example *e = p;
  g_free (e->name);
  g_free (e->program);
  g_free (e->trace);
  g_free (e);
}

static char *write_synthetic (int kind);

/* Runs `warpscope-cli profile -o TRACE -- PROGRAM` in the temporary folder. */
static char *
profile_example (const Example *e)
{
  g_autofree char *trace = g_strdup_printf ("%s/%s.wstrace", tmp_dir, e->name);
  g_autofree char *db = g_strdup_printf ("%s/profile.db", tmp_dir);
  const char *argv[] = { cli_path, "--db", db, "--quiet", "profile", "-o", trace, "--", e->program, NULL };
  g_autofree char *out = NULL, *err = NULL;
  int status = 0;
  GError *error = NULL;
  gboolean spawned = g_spawn_sync (tmp_dir, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, &err, &status,
                                   &error);
  g_assert_no_error (error);
  g_assert_true (spawned);
  if (!g_spawn_check_wait_status (status, NULL))
    {
      g_test_message ("profiling %s failed: %s", e->name, err);
      return NULL;
    }
  return g_steal_pointer (&trace);
}

/* Records one comparison; returns FALSE (and describes it) on a violation. */
static void
check (GString *violations, const char *example, guint launch, const char *kernel, const WsGpu *gpu, const char *source,
       double cycles, double ipc, const WsLaunchBound *b)
{
  total_checks++;
  gboolean slow_ok = cycles >= b->cycles * (1 - 1e-9);
  gboolean ipc_ok = !(ipc > b->max_ipc * (1 + 1e-9));
  if (slow_ok && ipc_ok)
    return;
  total_violations++;
  g_string_append_printf (violations,
                          "  %s launch %u (%s) on %s: %s predicts %.6g cycles, IPC %.4g; bound %.6g cycles "
                          "(limiter %s, %.3gx), max IPC %.4g%s%s\n",
                          example, launch, kernel, gpu->name, source, cycles, ipc, b->cycles, b->limiter,
                          cycles > 0 ? b->cycles / cycles : INFINITY, b->max_ipc, slow_ok ? "" : " [below bound]",
                          ipc_ok ? "" : " [IPC above max]");
}

/* The launches checked: the first launches_per_kernel of each kernel. */
static GArray *
chosen_launches (WsTrace *trace)
{
  GArray *chosen = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autofree guint *seen = g_new0 (guint, ws_trace_get_n_kernels (trace) + 1);
  for (guint l = 0; l < ws_trace_get_n_launches (trace); l++)
    {
      const WsTraceLaunch *L = ws_trace_get_launch (trace, l);
      if (!L->complete || L->warp_instructions == 0 || seen[L->kernel] >= launches_per_kernel)
        continue;
      seen[L->kernel]++;
      g_array_append_val (chosen, l);
    }
  return chosen;
}

static void
test_example (gconstpointer data)
{
  const Example *e = data;
  g_autofree char *path = e->program ? profile_example (e)
                          : e->trace ? g_strdup (e->trace)
                                     : write_synthetic (e->synthetic);
  if (path == NULL)
    {
      g_test_fail ();
      return;
    }
  GError *error = NULL;
  g_autoptr (WsTrace) trace = ws_trace_open (path, &error);
  g_assert_no_error (error);
  g_autoptr (GArray) launches = chosen_launches (trace);
  g_autoptr (GString) violations = g_string_new (NULL);
  guint checks_before = total_checks;

  /* The counts: one walk per launch, for every GPU. */
  g_autofree WsLaunchCounts *counts = g_new0 (WsLaunchCounts, launches->len);
  for (guint i = 0; i < launches->len; i++)
    {
      g_assert_true (ws_launch_counts_compute (trace, g_array_index (launches, guint, i), &counts[i], &error));
      g_assert_no_error (error);
    }

  WsTbpointOptions tbpoint;
  ws_tbpoint_options_init (&tbpoint);
  tbpoint.sampling = WS_SAMPLING_TBPOINT;
  for (guint g = 0; g < gpus->len; g++)
    {
      const WsGpu *gpu = gpus->pdata[g];
      g_autoptr (WsSim) sim = ws_sim_new (gpu, NULL, &error);
      g_assert_no_error (error);
      g_autoptr (WsSim) sampled = ws_sim_new (gpu, &tbpoint.sim, &error);
      g_assert_no_error (error);
      for (guint i = 0; i < launches->len; i++)
        {
          guint l = g_array_index (launches, guint, i);
          const char *kernel = ws_trace_get_kernel (trace, ws_trace_get_launch (trace, l)->kernel)->name;
          WsLaunchBound b;
          g_assert_true (ws_launch_bound_from_counts (&counts[i], gpu, &b, &error));
          g_assert_no_error (error);
          g_assert_true (b.cycles > 0);

          g_autoptr (WsLaunchAnalysis) analysis = ws_launch_analysis_new (trace, l, gpu, &error);
          g_assert_no_error (error);
          for (guint p = 0; p < plugins->len; p++)
            {
              const WsPredictorPlugin *plugin = plugins->pdata[p];
              g_autoptr (GHashTable) options = g_hash_table_new (g_str_hash, g_str_equal);
              g_autoptr (WsPrediction) pred = ws_predict_trace (plugin, gpu, trace, l, analysis, options, &error);
              if (pred == NULL)
                {
                  g_string_append_printf (violations, "  %s launch %u on %s: %s failed: %s\n", e->name, l, gpu->name,
                                          plugin->name, error->message);
                  g_clear_error (&error);
                  total_violations++;
                  continue;
                }
              /* The host attached the same bound, and warned when beaten. */
              g_assert_cmpfloat_with_epsilon (pred->bound_cycles, b.cycles, 1e-9 * MAX (1.0, b.cycles));
              g_assert_cmpstr (pred->bound_limiter, ==, b.limiter);
              gboolean warned = FALSE;
              for (guint w = 0; w < pred->warnings->len; w++)
                warned |= strstr (pred->warnings->pdata[w], "physical lower bound") != NULL;
              g_assert_true (warned == (pred->cycles < b.cycles * (1 - 1e-9)));
              check (violations, e->name, l, kernel, gpu, plugin->name, pred->cycles, pred->ipc, &b);
            }

          WsSimLaunchStats st;
          memset (&st, 0, sizeof st);
          g_assert_true (ws_sim_run_launch (sim, trace, l, NULL, &st, &error));
          g_assert_no_error (error);
          check (violations, e->name, l, kernel, gpu, "simulator", (double) st.cycles, st.ipc, &b);
          ws_sim_launch_stats_clear (&st);

          memset (&st, 0, sizeof st);
          g_assert_true (ws_tbpoint_simulate_launch (sampled, trace, l, &tbpoint, &st, NULL, NULL, &error));
          g_assert_no_error (error);
          check (violations, e->name, l, kernel, gpu, "simulator+tbpoint", (double) st.cycles, st.ipc, &b);
          ws_sim_launch_stats_clear (&st);
        }
    }
  g_test_message ("%s: %u launches x %u GPUs, %u comparisons", e->name, launches->len, gpus->len,
                  total_checks - checks_before);
  if (violations->len > 0)
    {
      /* Also on stderr, so the list can be read without the TAP log. */
      g_printerr ("bounds violated by %s:\n%s", e->name, violations->str);
      g_test_message ("bounds violated by %s:\n%s", e->name, violations->str);
      g_test_fail ();
    }
}

/* ---- synthetic traces: the shapes that exposed models beating the GPU ---- */


/* Writes synthetic traces: 0 = store-only stream of 16 MiB (st.global.v4,
 * 64 blocks of 256 threads looping); 1 = one block of 8 warps issuing
 * 228 000 dependent-free FMAs in all; 2 = one thread chasing 4 096
 * dependent pointers through 32 MiB. */
static char *
write_synthetic (int kind)
{
  static const char ptx[] = ".visible .entry synth()\n{\n"
                            "\tst.global.v4.f32 [%rd1], {%f1, %f2, %f3, %f4};\n"
                            "\tfma.rn.f32 %f1, %f2, %f3, %f4;\n"
                            "\tld.global.u64 %rd1, [%rd1];\n"
                            "\tret;\n}\n";
  WsTraceStaticInst insts[] = {
    bounds_test_inst (WS_OP_ST, WS_OPCLASS_ST, 3, WS_SPACE_GLOBAL, 16, -1, 2),
    bounds_test_inst (WS_OP_FMA, WS_OPCLASS_FP32, 4, 0, 0, 3, 4),
    bounds_test_inst (WS_OP_LD, WS_OPCLASS_LD, 5, WS_SPACE_GLOBAL, 8, 1, 1),
    bounds_test_inst (WS_OP_RET, WS_OPCLASS_BRANCH, 6, 0, 0, -1, -1),
  };
  static const char *const names[] = { "synthetic-store-stream", "synthetic-one-block", "synthetic-pointer-chase" };
  GError *error = NULL;
  char *path = g_strdup_printf ("%s/%s.wstrace", tmp_dir, names[kind]);
  WsTraceWriter *w = ws_trace_writer_new (path, &error);
  g_assert_no_error (error);
  WsTraceKernelDesc kd = {
    .name = names[kind], .ptx = ptx, .n_insts = G_N_ELEMENTS (insts), .insts = insts, .regs_per_thread = 16
  };
  uint32_t k = ws_trace_writer_add_kernel (w, &kd);
  uint32_t n_tbs = kind == 0 ? 64 : 1, warps = kind == 0 ? 8 : kind == 1 ? 8 : 1;
  const uint32_t grid[3] = { n_tbs, 1, 1 }, block[3] = { kind == 2 ? 1 : warps * 32, 1, 1 };
  ws_trace_writer_begin_launch (w, k, grid, block, 0);
  for (uint32_t t = 0; t < n_tbs; t++)
    {
      WsTraceCta *cta = ws_trace_cta_begin (w, t, warps);
      for (uint32_t wp = 0; wp < warps; wp++)
        {
          uint64_t a[32];
          if (kind == 0) /* 64 stores of 512 bytes per warp: 64 x 8 x 64 x 512 B = 16 MiB */
            for (uint32_t i = 0; i < 64; i++)
              {
                uint64_t base = 0x40000000ull + (((uint64_t) i * n_tbs + t) * warps + wp) * 512;
                for (int l = 0; l < 32; l++)
                  a[l] = base + (uint64_t) l * 16;
                ws_trace_cta_mem (cta, wp, 0, 0xffffffffu, WS_SPACE_GLOBAL, a);
              }
          else if (kind == 1)
            for (uint32_t i = 0; i < 28500; i++)
              ws_trace_cta_inst (cta, wp, 1, 0xffffffffu);
          else
            for (uint32_t i = 0; i < 4096; i++)
              {
                /* a fixed pseudo-random walk over 32 MiB, 8-byte aligned */
                a[0] = 0x80000000ull + (((uint64_t) i * 2654435761u) % (32u << 20) & ~(uint64_t) 7);
                ws_trace_cta_mem (cta, wp, 2, 1u, WS_SPACE_GLOBAL, a);
              }
          ws_trace_cta_inst (cta, wp, 3, kind == 2 ? 1u : 0xffffffffu);
        }
      ws_trace_cta_end (cta);
    }
  g_assert_true (ws_trace_writer_end_launch (w, &error));
  g_assert_true (ws_trace_writer_close (w, &error));
  g_assert_no_error (error);
  return path;
}

static void
load_plugin (const char *env)
{
  const char *path = g_getenv (env);
  if (path == NULL)
    g_error ("%s is not set", env);
  WsPredictorPlugin *p = ws_predictor_plugin_load (path);
  if (!p->ok)
    g_error ("plugin %s: %s", path, p->error);
  g_ptr_array_add (plugins, p);
}

static void
remove_tree (const char *dir)
{
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  for (const char *n; d != NULL && (n = g_dir_read_name (d)) != NULL;)
    {
      g_autofree char *p = g_build_filename (dir, n, NULL);
      g_unlink (p);
    }
  g_rmdir (dir);
}

int
main (int argc, char **argv)
{
  /* Keep going after a failing example, so one run lists every violation. */
  g_autofree char **args = g_new0 (char *, argc + 2);
  args[0] = argv[0];
  args[1] = (char *) "--keep-going";
  for (int i = 1; i < argc; i++)
    args[i + 1] = argv[i];
  argc++;
  argv = args;
  g_test_init (&argc, &argv, NULL);
  GError *error = NULL;
  tmp_dir = g_dir_make_tmp ("ws-bounds-prop-XXXXXX", &error);
  g_assert_no_error (error);
  const char *per = g_getenv ("WS_BOUNDS_LAUNCHES_PER_KERNEL");
  if (per != NULL && atoi (per) > 0)
    launches_per_kernel = (guint) atoi (per);

  /* Every catalogue GPU, from a fresh store seeded with the catalogue. */
  g_autofree char *db = g_build_filename (tmp_dir, "catalogue.db", NULL);
  WsStore *store = ws_store_open (db, &error);
  g_assert_no_error (error);
  gpus = ws_store_list_gpus (store, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (gpus->len, >=, 10);
  ws_store_close (store);

  plugins = g_ptr_array_new_with_free_func ((GDestroyNotify) ws_predictor_plugin_free);
  load_plugin ("WS_VOLKOV_PLUGIN");
  load_plugin ("WS_GPUMECH_PLUGIN");
  load_plugin ("WS_AKE_PLUGIN");

  g_autoptr (GPtrArray) examples = g_ptr_array_new_with_free_func (example_free);
  Example *ws = g_new0 (Example, 1);
  ws->name = g_strdup ("workspace-saxpy2");
  ws->trace = g_build_filename (g_getenv ("WS_SOURCE_DIR"), "db", "workspace", "saxpy2.wstrace", NULL);
  g_ptr_array_add (examples, ws);
  static const char *const synthetic[] = { "synthetic-store-stream", "synthetic-one-block", "synthetic-pointer-chase" };
  for (int k = 0; k < 3; k++)
    {
      Example *e = g_new0 (Example, 1);
      e->name = g_strdup (synthetic[k]);
      e->synthetic = k;
      g_ptr_array_add (examples, e);
    }
  for (int i = 1; i < argc; i++)
    {
      if (strcmp (argv[i], "--cli") == 0 && i + 1 < argc)
        {
          cli_path = argv[++i];
          continue;
        }
      if (i + 1 >= argc)
        g_error ("argument '%s' has no program", argv[i]);
      const char *name = argv[i], *program = argv[++i];
      if (strcmp (program, "-") == 0)
        continue; /* not built (no nvcc) */
      Example *e = g_new0 (Example, 1);
      e->name = g_strdup (name);
      e->program = g_strdup (program);
      g_ptr_array_add (examples, e);
    }
  for (guint i = 0; i < examples->len; i++)
    {
      Example *e = examples->pdata[i];
      g_autofree char *test = g_strdup_printf ("/bounds/property/%s", e->name);
      g_test_add_data_func (test, e, test_example);
    }
  int rc = g_test_run ();
  g_printerr ("bounds property: %u comparisons, %u violations\n", total_checks, total_violations);
  g_ptr_array_unref (plugins);
  g_ptr_array_unref (gpus);
  remove_tree (tmp_dir);
  g_free (tmp_dir);
  return rc;
}
