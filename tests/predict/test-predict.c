/* The predictor plugin host, the volkov plugin and the plugin SDK. */
#include "predict/ws-predict.h"
#include "trace/ws-trace.h"
#include "ptx/ws-ptx.h"

#include <math.h>
#include <string.h>
#include <glib/gstdio.h>
#include "../test-tmp-dir.h"

/* GTX 970 exactly as seed 004 Table 6.1 gives it. */
static WsGpu *
gtx970_table_6_1 (void)
{
  WsGpu *g = g_new0 (WsGpu, 1);
  g->name = g_strdup ("GTX 970 (Table 6.1)");
  g->architecture = g_strdup ("Maxwell");
  g->cc_major = 5;
  g->cc_minor = 2;
  g->sms = 13;
  g->core_clock_mhz = 1253;
  g->cuda_cores_per_sm = 128;
  g->warp_schedulers_per_sm = 4;
  g->warp_size = 32;
  g->dram_clock_mhz = 1753;
  g->dram_bus_width_bits = 256;
  g->dram_data_rate = 4;
  g->max_warps_per_sm = 64;
  g->max_blocks_per_sm = 32;
  g->max_threads_per_block = 1024;
  g->registers_per_sm = 65536;
  g->max_registers_per_block = 65536;
  g->max_registers_per_thread = 255;
  g->register_alloc_unit = 256;
  g->shared_per_sm = 98304;
  g->shared_per_block = 49152;
  g->shared_alloc_unit = 256;
  return g;
}

/* A GTX 970 of Table 6.1 with the caches the launch analysis simulates,
 * claiming compute capability @cc_major (the wavefront rules depend on it;
 * the Volkov trace tests keep Table 6.1's Maxwell 5). */
static WsGpu *
gpu_with_caches (int cc_major)
{
  WsGpu *gpu = gtx970_table_6_1 ();
  gpu->cc_major = cc_major;
  gpu->l1_size = 24576;
  gpu->l1_line = 128;
  gpu->l1_sector = 32;
  gpu->l1_assoc = 4;
  gpu->l1_latency = 28;
  gpu->l2_size = 1835008;
  gpu->l2_line = 128;
  gpu->l2_assoc = 16;
  gpu->l2_latency = 194;
  gpu->dram_latency = 350;
  gpu->pipes[WS_ICLASS_GLOBAL].latency = 350;
  return gpu;
}


/* seed 004 Listing 5 for compute intensity a, N elements, block size bs. */
static WsAnalyticKernel *
saxpy2_listing5 (double a, double n, double bs, double occupancy_warps)
{
  WsAnalyticKernel *k = ws_analytic_kernel_new ("saxpy2");
  ws_analytic_kernel_set (k, "cuda_core_instructions", 23 + 4 * a);
  ws_analytic_kernel_set (k, "issued_instructions", 26 + 4 * a);
  ws_analytic_kernel_set (k, "gmem_bytes", 384);
  ws_analytic_kernel_set (k, "latency_bound", 942 + 24 * a);
  ws_analytic_kernel_set (k, "grid_size", floor ((n + bs - 1) / bs));
  ws_analytic_kernel_set (k, "block_size", bs);
  ws_analytic_kernel_set (k, "occupancy_warps", occupancy_warps);
  ws_analytic_kernel_set (k, "lambda", 0.703787);
  return k;
}

static WsPredictorPlugin *
load_volkov (void)
{
  WsPredictorPlugin *p = ws_predictor_plugin_load (g_getenv ("WS_VOLKOV_PLUGIN"));
  g_assert_true (p->ok);
  g_assert_null (p->error);
  g_assert_cmpstr (p->name, ==, "volkov");
  g_assert_cmpint (p->abi, ==, WS_PREDICTOR_ABI_VERSION);
  return p;
}

/* The expected times were worked out by hand from eqs. 4.1-4.5 with the
 * paper's numbers (GMem_bw = 1753e6*32*4/(13*1253e6) = 13.7752 B/cycle). */
static void
test_volkov_saxpy2 (void)
{
  g_autoptr (WsPredictorPlugin) volkov = load_volkov ();
  g_autoptr (WsGpu) gpu = gtx970_table_6_1 ();
  const struct {
    double a, n, bs, occ, seconds;
    const char *limiter;
  } cases[] = {
    { 1, 1048576, 256, 64, 7.967976289590244e-05, "DRAM" },
    { 256, 1048576, 256, 64, 0.000750314913818849, "BASE" }, /* issue-bound: 262.5 > 261.75 cycles */
    { 64, 1e7, 128, 16, 0.004221780768901072, "LATENCY" },
  };
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (WsAnalyticKernel) k = saxpy2_listing5 (cases[i].a, cases[i].n, cases[i].bs, cases[i].occ);
      g_autoptr (GError) error = NULL;
      g_autoptr (WsPrediction) p = ws_predict_analytic (volkov, gpu, k, NULL, &error);
      g_assert_no_error (error);
      g_assert_nonnull (p);
      g_assert_cmpfloat_with_epsilon (p->seconds / cases[i].seconds, 1.0, 1e-12);
      g_assert_cmpfloat_with_epsilon (p->cycles, p->seconds * 1253e6, p->cycles * 1e-12);
      /* The CPI stack sums to cycles per warp instruction. */
      double warp_insts = floor ((cases[i].n + cases[i].bs - 1) / cases[i].bs) * ceil (cases[i].bs / 32)
                          * (26 + 4 * cases[i].a);
      g_assert_cmpfloat_with_epsilon (ws_prediction_cpi_total (p), p->cycles / warp_insts,
                                      1e-9 * p->cycles / warp_insts);
      g_assert_cmpfloat_with_epsilon (p->ipc, warp_insts / p->cycles, 1e-12);
      gboolean has_limiter = FALSE;
      for (guint c = 0; c < p->cpi_names->len; c++)
        if (strcmp (g_array_index (p->cpi_names, char *, c), cases[i].limiter) == 0)
          has_limiter = TRUE;
      g_assert_true (has_limiter);
      for (guint m = 0; m < p->metric_names->len; m++)
        if (strcmp (g_array_index (p->metric_names, char *, m), "gmem_bytes_per_cycle_per_sm") == 0)
          g_assert_cmpfloat_with_epsilon (g_array_index (p->metric_values, double, m), 13.775185708146601, 1e-12);
    }
}

static void
test_volkov_missing_input (void)
{
  g_autoptr (WsPredictorPlugin) volkov = load_volkov ();
  g_autoptr (WsGpu) gpu = gtx970_table_6_1 ();
  g_autoptr (WsAnalyticKernel) k = ws_analytic_kernel_new ("incomplete");
  ws_analytic_kernel_set (k, "grid_size", 10);
  ws_analytic_kernel_set (k, "block_size", 128);
  g_autoptr (GError) error = NULL;
  g_autoptr (WsPrediction) p = ws_predict_analytic (volkov, gpu, k, NULL, &error);
  g_assert_null (p);
  g_assert_error (error, WS_ERROR, WS_ERROR_FAILED);
  g_assert_nonnull (strstr (error->message, "cuda_core_instructions"));
  g_assert_nonnull (strstr (error->message, "volkov"));
}

static void
test_options (void)
{
  g_autoptr (WsPredictorPlugin) volkov = load_volkov ();
  g_autoptr (WsGpu) gpu = gtx970_table_6_1 ();
  g_autoptr (WsAnalyticKernel) k = saxpy2_listing5 (1, 1048576, 256, 64);
  g_hash_table_remove (k->params, "lambda");
  g_autoptr (GHashTable) opts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_hash_table_insert (opts, g_strdup ("lambda"), g_strdup ("0.703787"));
  g_autoptr (GError) error = NULL;
  g_autoptr (WsPrediction) p = ws_predict_analytic (volkov, gpu, k, opts, &error);
  g_assert_no_error (error);
  g_assert_cmpfloat_with_epsilon (p->seconds / 7.967976289590244e-05, 1.0, 1e-12);

  g_hash_table_insert (opts, g_strdup ("lambda"), g_strdup ("fast"));
  g_assert_null (ws_predict_analytic (volkov, gpu, k, opts, &error));
  g_assert_error (error, WS_ERROR, WS_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, "'lambda'"));
  g_clear_error (&error);
  g_hash_table_remove_all (opts);
  g_hash_table_insert (opts, g_strdup ("lamda"), g_strdup ("1"));
  g_assert_null (ws_predict_analytic (volkov, gpu, k, opts, &error));
  g_assert_error (error, WS_ERROR, WS_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, "no option 'lamda'"));
}

static char *
broken_path (const char *name)
{
  return g_build_filename (g_getenv ("WS_BROKEN_PLUGIN_DIR"), name, NULL);
}

static void
test_broken_plugins (void)
{
  const struct {
    const char *file;
    const char *message;
  } cases[] = {
    { "broken_no_symbol.so", "does not export ws_predictor_query" },
    { "broken_future_abi.so", "please rebuild the plugin" },
    { "broken_query_fails.so", "returned no descriptor" },
    { "broken_garbage.so", "cannot load" },
    { "broken_bad_cpi_colour.so", "CPI category 'BASE' has colour 'red'" },
    { "broken_cpi_twice.so", "CPI category 'BASE' is declared twice" },
  };
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *path = broken_path (cases[i].file);
      g_autoptr (WsPredictorPlugin) p = ws_predictor_plugin_load (path);
      g_assert_false (p->ok);
      g_assert_null (p->descriptor);
      g_assert_nonnull (p->error);
      if (strstr (p->error, cases[i].message) == NULL)
        g_error ("%s: expected '%s' in '%s'", cases[i].file, cases[i].message, p->error);
      g_assert_nonnull (strstr (p->error, cases[i].file));
    }

  /* A plugin whose predictions fail reports the failure and the kernel. */
  g_autofree char *path = broken_path ("broken_always_fails.so");
  g_autoptr (WsPredictorPlugin) p = ws_predictor_plugin_load (path);
  g_assert_true (p->ok);
  g_autoptr (WsGpu) gpu = gtx970_table_6_1 ();
  g_autoptr (WsAnalyticKernel) k = saxpy2_listing5 (1, 1024, 256, 64);
  g_autoptr (GError) error = NULL;
  g_assert_null (ws_predict_analytic (p, gpu, k, NULL, &error));
  g_assert_error (error, WS_ERROR, WS_ERROR_FAILED);
  g_assert_nonnull (strstr (error->message, "this plugin always fails"));
  g_assert_nonnull (strstr (error->message, "saxpy2"));
}

/* Broken plugins on the search path are listed with their error and do not
 * stop the good ones. */
/* Declared CPI categories (API 4): the stack comes in the declared order
 * whatever order the plugin reports in, in process and in a worker; an
 * undeclared category comes last with a warning; older plugins declare
 * none. */
static void
test_cpi_categories (void)
{
  g_autofree char *path = broken_path ("probe_crash.so");
  g_autoptr (WsPredictorPlugin) p = ws_predictor_plugin_load (path);
  g_assert_true (p->ok);
  guint n = 0;
  const WsPredictorCpiCategory *cats = ws_predictor_plugin_cpi_categories (p, &n);
  g_assert_cmpuint (n, ==, 2);
  g_assert_cmpstr (cats[0].name, ==, "BASE");
  g_assert_cmpstr (cats[0].colour, ==, "#112233");
  g_autoptr (WsGpu) gpu = gtx970_table_6_1 ();
  g_autoptr (WsAnalyticKernel) k = saxpy2_listing5 (1, 1024, 256, 64);
  for (int in_process = 0; in_process < 2; in_process++)
    {
      p->in_process = in_process;
      g_autoptr (GHashTable) opts = g_hash_table_new (g_str_hash, g_str_equal);
      g_hash_table_insert (opts, "mode", "ok");
      g_autoptr (GError) error = NULL;
      g_autoptr (WsPrediction) a = ws_predict_analytic (p, gpu, k, opts, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (a->cpi_names->len, ==, 2);
      g_assert_cmpstr (g_array_index (a->cpi_names, char *, 0), ==, "BASE");
      g_assert_cmpfloat (g_array_index (a->cpi_values, double, 0), ==, 1);
      g_assert_cmpstr (g_array_index (a->cpi_names, char *, 1), ==, "MEM");
      g_assert_cmpfloat (g_array_index (a->cpi_values, double, 1), ==, 2);
      g_hash_table_insert (opts, "mode", "undeclared");
      g_autoptr (WsPrediction) b = ws_predict_analytic (p, gpu, k, opts, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (b->cpi_names->len, ==, 3);
      g_assert_cmpstr (g_array_index (b->cpi_names, char *, 2), ==, "EXTRA");
      g_assert_cmpfloat (g_array_index (b->cpi_values, double, 2), ==, 3);
      gboolean warned = FALSE;
      for (guint i = 0; i < b->warnings->len; i++)
        warned |= strstr (b->warnings->pdata[i], "CPI category 'EXTRA', which its descriptor does not declare") != NULL;
      g_assert_true (warned);
    }
  /* a plugin built for API 1 declares none */
  g_autofree char *old = broken_path ("probe_api1.so");
  g_autoptr (WsPredictorPlugin) q = ws_predictor_plugin_load (old);
  g_assert_true (q->ok);
  g_assert_null (ws_predictor_plugin_cpi_categories (q, &n));
  g_assert_cmpuint (n, ==, 0);
  /* the shipped models declare theirs */
  g_autoptr (WsPredictorPlugin) v = ws_predictor_plugin_load (g_getenv ("WS_VOLKOV_PLUGIN"));
  g_assert_nonnull (ws_predictor_plugin_cpi_categories (v, &n));
  g_assert_cmpuint (n, ==, 7);
}

static void
test_scan_not_fatal (void)
{
  g_autofree char *tmp = make_tmp_dir ("ws-predict-XXXXXX");
  g_setenv ("XDG_DATA_HOME", tmp, TRUE);
  g_autofree char *volkov_dir = g_path_get_dirname (g_getenv ("WS_VOLKOV_PLUGIN"));
  g_autofree char *search = g_strjoin (":", g_getenv ("WS_BROKEN_PLUGIN_DIR"), volkov_dir, NULL);
  g_setenv ("WARPSCOPE_PLUGIN_PATH", search, TRUE);
  g_autoptr (GPtrArray) plugins = ws_predictor_scan ();
  guint ok = 0, bad = 0;
  gboolean volkov_ok = FALSE;
  for (guint i = 0; i < plugins->len; i++)
    {
      WsPredictorPlugin *p = plugins->pdata[i];
      if (p->ok)
        ok++;
      else
        bad++;
      if (p->ok && strcmp (p->name, "volkov") == 0)
        volkov_ok = TRUE;
    }
  g_assert_true (volkov_ok);
  g_assert_cmpuint (bad, >=, 4);
  g_assert_cmpuint (ok, >=, 2); /* volkov, always_fails */
  g_autoptr (GError) error = NULL;
  g_assert_null (ws_predictor_find (plugins, "volkv", &error));
  g_assert_error (error, WS_ERROR, WS_ERROR_NOT_FOUND);
  g_assert_nonnull (strstr (error->message, "did you mean volkov"));
  g_clear_error (&error);
  /* a plugin that failed to load is known by its file name */
  g_assert_null (ws_predictor_find (plugins, "broken_future_abi", &error));
  g_assert_nonnull (strstr (error->message, "cannot be used"));
  g_unsetenv ("WARPSCOPE_PLUGIN_PATH");
}

static void
write_file (const char *dir, const char *name, const char *text, char **path)
{
  *path = g_build_filename (dir, name, NULL);
  g_assert_true (g_file_set_contents (*path, text, -1, NULL));
}

static void
test_analytic_file (void)
{
  g_autofree char *tmp = make_tmp_dir ("ws-analytic-XXXXXX");
  g_autofree char *good = NULL, *unknown = NULL, *missing = NULL, *negative = NULL;
  write_file (tmp, "good.json",
              "{\"name\":\"saxpy2\",\"grid_size\":4096,\"block_size\":256,"
              "\"cuda_core_instructions\":27,\"issued_instructions\":30,\"gmem_bytes\":384,"
              "\"latency_bound\":966,\"occupancy_warps\":64,\"lambda\":0.703787}",
              &good);
  write_file (tmp, "unknown.json", "{\"grid_size\":1,\"block_size\":32,\"latency_bond\":5}", &unknown);
  write_file (tmp, "missing.json", "{\"name\":\"x\",\"block_size\":32}", &missing);
  write_file (tmp, "negative.json", "{\"grid_size\":1,\"block_size\":32,\"gmem_bytes\":-4}", &negative);
  g_autoptr (GError) error = NULL;
  g_autoptr (WsAnalyticKernel) k = ws_analytic_kernel_load (good, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (k->name, ==, "saxpy2");
  double v;
  g_assert_true (ws_analytic_kernel_get (k, "latency_bound", &v));
  g_assert_cmpfloat (v, ==, 966);

  g_assert_null (ws_analytic_kernel_load (unknown, &error));
  g_assert_nonnull (strstr (error->message, "unknown field 'latency_bond'"));
  g_assert_nonnull (strstr (error->message, "latency_bound"));
  g_clear_error (&error);
  g_assert_null (ws_analytic_kernel_load (missing, &error));
  g_assert_nonnull (strstr (error->message, "missing field 'grid_size'"));
  g_clear_error (&error);
  g_assert_null (ws_analytic_kernel_load (negative, &error));
  g_assert_nonnull (strstr (error->message, "'gmem_bytes'"));
}

/* The example plugin builds out of tree with pkg-config and loads. */
static void
test_out_of_tree_sdk (void)
{
  g_autofree char *pkg_config = g_find_program_in_path ("pkg-config");
  g_autofree char *cc = g_find_program_in_path ("cc");
  if (pkg_config == NULL || cc == NULL)
    {
      g_test_skip ("pkg-config or cc missing");
      return;
    }
  g_autofree char *tmp = make_tmp_dir ("ws-sdk-XXXXXX");
  g_autofree char *out = g_build_filename (tmp, "roofline.so", NULL);
  g_autofree char *src = g_build_filename (g_getenv ("WS_SOURCE_DIR"), "examples", "predictor-plugin", "roofline.c",
                                           NULL);
  g_autofree char *cmd = g_strdup_printf (
    "cc -shared -fPIC -Wall -Werror -o '%s' '%s' $(pkg-config --cflags --libs warpscope-predictor)", out, src);
  const char *argv[] = { "sh", "-c", cmd, NULL };
  g_auto (GStrv) env = g_get_environ ();
  env = g_environ_setenv (env, "PKG_CONFIG_PATH", g_getenv ("WS_PKG_CONFIG_PATH"), TRUE);
  int status = 0;
  g_autofree char *err = NULL;
  g_autoptr (GError) error = NULL;
  g_assert_true (
    g_spawn_sync (NULL, (char **) argv, env, G_SPAWN_SEARCH_PATH, NULL, NULL, NULL, &err, &status, &error));
  if (!g_spawn_check_wait_status (status, NULL))
    g_error ("building the example plugin failed: %s", err);
  g_autoptr (WsPredictorPlugin) p = ws_predictor_plugin_load (out);
  g_assert_true (p->ok);
  g_assert_cmpstr (p->name, ==, "roofline");
  g_autoptr (WsGpu) gpu = gtx970_table_6_1 ();
  gpu->dram_bandwidth_gbs = 224.4;
  g_autoptr (WsAnalyticKernel) k = saxpy2_listing5 (1, 1048576, 256, 64);
  g_autoptr (WsPrediction) pred = ws_predict_analytic (p, gpu, k, NULL, &error);
  g_assert_no_error (error);
  /* memory bound: 32768 warps * 384 bytes at 224.4 GB/s */
  g_assert_cmpfloat_with_epsilon (pred->seconds, 32768.0 * 384 / 224.4e9, 1e-15);
}

/* A traced launch of 8 blocks x 2 warps; each warp runs
 *   0: ld.global r1 <- [a + 4*lane]   (128 fresh bytes: 4 DRAM sectors)
 *   1: fma r2 <- r1, r1, r1
 *   2: add r3 <- r2, r2
 *   3: st.global [a + 4*lane] <- r3
 * so per warp: 4 instructions, 2 on CUDA cores, 256 DRAM bytes (128 read,
 * 128 written back). */
static char *
write_stream_trace (const char *dir)
{
  g_autofree char *path = g_build_filename (dir, "volkov.wstrace", NULL);
  g_autoptr (GError) error = NULL;
  WsTraceWriter *w = ws_trace_writer_new (path, &error);
  g_assert_no_error (error);
  WsTraceStaticInst insts[4] = { 0 };
  for (int i = 0; i < 4; i++)
    {
      insts[i].ptx_line = 20 + i;
      insts[i].dst[0] = insts[i].dst[1] = 0xffff;
      for (int k = 0; k < 4; k++)
        insts[i].src[k] = 0xffff;
    }
  insts[0].op = WS_OP_LD;
  insts[0].opclass = WS_OPCLASS_LD;
  insts[0].space = WS_SPACE_GLOBAL;
  insts[0].access_size = 4;
  insts[0].n_dst = 1;
  insts[0].dst[0] = 1;
  insts[1].op = WS_OP_FMA;
  insts[1].opclass = WS_OPCLASS_FP32;
  insts[1].n_dst = 1;
  insts[1].dst[0] = 2;
  insts[1].n_src = 3;
  insts[1].src[0] = insts[1].src[1] = insts[1].src[2] = 1;
  insts[2].op = WS_OP_ADD;
  insts[2].opclass = WS_OPCLASS_FP32;
  insts[2].n_dst = 1;
  insts[2].dst[0] = 3;
  insts[2].n_src = 2;
  insts[2].src[0] = insts[2].src[1] = 2;
  insts[3].op = WS_OP_ST;
  insts[3].opclass = WS_OPCLASS_ST;
  insts[3].space = WS_SPACE_GLOBAL;
  insts[3].access_size = 4;
  insts[3].n_src = 1;
  insts[3].src[0] = 3;
  WsTraceKernelDesc kd = { .name = "stream", .n_insts = 4, .insts = insts, .regs_per_thread = 16 };
  uint32_t kernel = ws_trace_writer_add_kernel (w, &kd);
  const uint32_t grid[3] = { 8, 1, 1 }, block[3] = { 64, 1, 1 };
  ws_trace_writer_begin_launch (w, kernel, grid, block, 0);
  for (uint64_t b = 0; b < 8; b++)
    {
      WsTraceCta *cta = ws_trace_cta_begin (w, b, 2);
      for (uint32_t warp = 0; warp < 2; warp++)
        {
          uint64_t a[32];
          for (int l = 0; l < 32; l++)
            a[l] = 0x7e0000000000ull + (b * 64 + warp * 32 + l) * 4;
          ws_trace_cta_mem (cta, warp, 0, 0xffffffffu, WS_SPACE_GLOBAL, a);
          ws_trace_cta_inst (cta, warp, 1, 0xffffffffu);
          ws_trace_cta_inst (cta, warp, 2, 0xffffffffu);
          ws_trace_cta_mem (cta, warp, 3, 0xffffffffu, WS_SPACE_GLOBAL, a);
        }
      ws_trace_cta_end (cta);
    }
  g_assert_true (ws_trace_writer_end_launch (w, &error));
  g_assert_true (ws_trace_writer_close (w, &error));
  g_assert_no_error (error);
  return g_steal_pointer (&path);
}

static double
metric (const WsPrediction *p, const char *name)
{
  for (guint i = 0; i < p->metric_names->len; i++)
    if (strcmp (g_array_index (p->metric_names, char *, i), name) == 0)
      return g_array_index (p->metric_values, double, i);
  g_error ("no metric %s", name);
  return NAN;
}

static void
test_volkov_trace (void)
{
  g_autofree char *dir = make_tmp_dir ("ws-volkov-trace-XXXXXX");
  g_autofree char *path = write_stream_trace (dir);
  g_autoptr (GError) error = NULL;
  g_autoptr (WsTrace) trace = ws_trace_open (path, &error);
  g_assert_no_error (error);
  g_autoptr (WsPredictorPlugin) volkov = load_volkov ();
  g_autoptr (WsGpu) gpu = gpu_with_caches (5);
  gpu->pipes[WS_ICLASS_FP32].latency = 6;
  g_autoptr (WsPrediction) p = ws_predict_trace (volkov, gpu, trace, 0, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpfloat (metric (p, "warps_launched"), ==, 16);
  g_assert_cmpfloat (metric (p, "cuda_core_instructions"), ==, 2);
  g_assert_cmpfloat (metric (p, "issued_instructions"), ==, 4);
  g_assert_cmpfloat (metric (p, "gmem_bytes"), ==, 256);
  /* In-order schedule of the representative warp: ld at 0 (DRAM, 350),
   * fma at 351 (done 357), add at 358 (done 364), st at 365; the store's
   * edge to the end node carries its latency (seed 004 §5.1), an L2 hit
   * (194: the load brought the line): 559 cycles.  The interval profile
   * now ends there too (it ended after the last issue, 366, ignoring the
   * store).  8 blocks on 13 SMs: none is replaced. */
  g_assert_cmpfloat (metric (p, "profile_cycles"), ==, 559);
  g_assert_cmpfloat (metric (p, "critical_path"), ==, 365 + 194);
  g_assert_cmpfloat (metric (p, "block_replacement"), ==, 0);
  g_assert_cmpfloat (metric (p, "latency_bound"), ==, 559);
  /* 64 warps fit on an SM, but the 8 blocks of 2 warps go to 8 of the 13
   * SMs, one each: 2 warps in flight on 8 SMs.  (This test divided the 16
   * warps by all 13 SMs before, as if a block could be split.) */
  g_assert_cmpfloat (metric (p, "occupancy_warps"), ==, 2);
  g_assert_cmpfloat (metric (p, "sms_busy"), ==, 8);
  /* eq. 4.1-4.5 with these inputs */
  double bw = 1753e6 * 32 * 4 / (13 * 1253e6);
  double th = 1 / fmax (32 * 2 / 128.0, fmax (4 / 4.0, 256 / bw));
  double wth = fmin (2 / 559.0, th);
  g_assert_cmpfloat_with_epsilon (p->seconds, 16 / (wth * 8 * 1253e6), 1e-18);
  g_assert_cmpfloat_with_epsilon (ws_prediction_cpi_total (p), p->cycles / (16 * 4), 1e-9);
  g_remove (path);
  g_rmdir (dir);
}

/* One block of @warps warps, each running @n_steps instructions of
 * @insts in order.  Loads: with @stride < 0 lane 0 alone, each at a line of
 * its own; else every lane, at a stride of @stride bytes from one of eight
 * bases 16 bytes apart (gpu-strides' loads; all hit L1 after the first
 * eight). */
static char *
write_one_block_trace (const char *dir, const char *name, const WsTraceStaticInst *insts, guint n_insts,
                       const uint32_t *steps, guint n_steps, uint32_t warps, int64_t stride)
{
  g_autofree char *file = g_strconcat (name, ".wstrace", NULL);
  g_autofree char *path = g_build_filename (dir, file, NULL);
  g_autoptr (GError) error = NULL;
  WsTraceWriter *w = ws_trace_writer_new (path, &error);
  g_assert_no_error (error);
  WsTraceKernelDesc kd = { .name = name, .n_insts = n_insts, .insts = insts, .regs_per_thread = 16 };
  uint32_t kernel = ws_trace_writer_add_kernel (w, &kd);
  const uint32_t grid[3] = { 1, 1, 1 }, block[3] = { 32 * warps, 1, 1 };
  ws_trace_writer_begin_launch (w, kernel, grid, block, 0);
  WsTraceCta *cta = ws_trace_cta_begin (w, 0, warps);
  for (uint32_t warp = 0; warp < warps; warp++)
    for (guint s = 0; s < n_steps; s++)
      {
        if (insts[steps[s]].opclass == WS_OPCLASS_LD && stride < 0)
          {
            uint64_t a[32] = { 0 };
            a[0] = 0x7e0000000000ull + ((uint64_t) warp * n_steps + s) * 4096;
            ws_trace_cta_mem (cta, warp, steps[s], 1u, WS_SPACE_GLOBAL, a);
          }
        else if (insts[steps[s]].opclass == WS_OPCLASS_LD)
          {
            uint64_t a[32];
            for (int l = 0; l < 32; l++)
              a[l] = 0x7e0000000000ull + (s % 8) * 16 + (uint64_t) ((int64_t) l * stride);
            ws_trace_cta_mem (cta, warp, steps[s], 0xffffffffu, WS_SPACE_GLOBAL, a);
          }
        else
          ws_trace_cta_inst (cta, warp, steps[s], 0xffffffffu);
      }
  ws_trace_cta_end (cta);
  g_assert_true (ws_trace_writer_end_launch (w, &error));
  g_assert_true (ws_trace_writer_close (w, &error));
  g_assert_no_error (error);
  return g_steal_pointer (&path);
}

static WsTraceStaticInst
plain_inst (int op, int opclass, int dst, int src)
{
  WsTraceStaticInst i = { 0 };
  i.op = (uint8_t) op;
  i.opclass = (uint8_t) opclass;
  i.dst[0] = i.dst[1] = 0xffff;
  for (int k = 0; k < 4; k++)
    i.src[k] = 0xffff;
  if (dst >= 0)
    {
      i.n_dst = 1;
      i.dst[0] = (uint16_t) dst;
    }
  if (src >= 0)
    {
      i.n_src = 1;
      i.src[0] = (uint16_t) src;
    }
  return i;
}

/* Seed 004 eq. 4.1-4.4 for launches of one block, which runs on one SM:
 *  - 32 warps x 100 independent FP32 instructions: the SM's 4 schedulers
 *    issue 3200 warp instructions in 800 cycles at best (and its 128
 *    cores take 32 x 100 x 32 / 128 = 800 too); eq. 4.1 with 1 SM and
 *    32 warps in flight gives exactly that.  Before, the warps were spread
 *    over all 13 SMs (3 each): 82 cycles, 39 warp instructions per cycle
 *    on an SM that issues 4.
 *  - one thread chasing 10 pointers, each load the previous one's result
 *    and a DRAM miss (350 cycles): the critical path ends when the last
 *    load's data arrives, 9 x 351 + 350 = 3509 cycles, and so does the
 *    host's interval profile (it ended after the last issue, 3160,
 *    leaving the last load out); before, 3160 / 13 = 243, 24
 *    cycles per dependent DRAM load. */
static void
test_volkov_one_block (void)
{
  g_autofree char *dir = make_tmp_dir ("ws-volkov-one-XXXXXX");
  g_autoptr (WsPredictorPlugin) volkov = load_volkov ();
  g_autoptr (WsGpu) gpu = gpu_with_caches (5);
  gpu->pipes[WS_ICLASS_FP32].latency = 6;
  g_autoptr (GError) error = NULL;

  WsTraceStaticInst fp[100];
  uint32_t steps[100];
  for (int i = 0; i < 100; i++)
    {
      fp[i] = plain_inst (WS_OP_ADD, WS_OPCLASS_FP32, 1 + i, -1);
      steps[i] = (uint32_t) i;
    }
  g_autofree char *compute = write_one_block_trace (dir, "oneblock", fp, 100, steps, 100, 32, -1);
  g_autoptr (WsTrace) ct = ws_trace_open (compute, &error);
  g_assert_no_error (error);
  g_autoptr (WsPrediction) c = ws_predict_trace (volkov, gpu, ct, 0, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpfloat (metric (c, "sms_busy"), ==, 1);
  g_assert_cmpfloat (metric (c, "occupancy_warps"), ==, 32);
  g_assert_cmpfloat_with_epsilon (c->cycles, 800, 1e-6);
  g_assert_cmpfloat (c->ipc, <=, 4.0 + 1e-12);

  WsTraceStaticInst chase[1] = { plain_inst (WS_OP_LD, WS_OPCLASS_LD, 1, 1) };
  chase[0].space = WS_SPACE_GLOBAL;
  chase[0].access_size = 4;
  uint32_t zero[10] = { 0 };
  g_autofree char *chain = write_one_block_trace (dir, "chase", chase, 1, zero, 10, 1, -1);
  g_autoptr (WsTrace) lt = ws_trace_open (chain, &error);
  g_assert_no_error (error);
  g_autoptr (WsPrediction) l = ws_predict_trace (volkov, gpu, lt, 0, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpfloat (metric (l, "sms_busy"), ==, 1);
  g_assert_cmpfloat (metric (l, "profile_cycles"), ==, 9 * 351 + 350);
  g_assert_cmpfloat (metric (l, "latency_bound"), ==, 9 * 351 + 350);
  g_assert_cmpfloat (metric (l, "block_replacement"), ==, 0);
  g_assert_cmpfloat_with_epsilon (l->cycles, 3509, 1e-6);
  /* each dependent load costs at least its DRAM latency */
  g_assert_cmpfloat (l->cycles, >=, 9 * 350.0);
  g_remove (compute);
  g_remove (chain);
  g_rmdir (dir);
}

/* @n_blocks blocks of one warp, each storing 128 fresh bytes (gpu-stream's
 * init with 32-thread blocks). */
static char *
write_init_trace (const char *dir, uint32_t n_blocks)
{
  char *path = g_build_filename (dir, "init.wstrace", NULL);
  g_autoptr (GError) error = NULL;
  WsTraceWriter *w = ws_trace_writer_new (path, &error);
  g_assert_no_error (error);
  WsTraceStaticInst st = plain_inst (WS_OP_ST, WS_OPCLASS_ST, -1, 1);
  st.space = WS_SPACE_GLOBAL;
  st.access_size = 4;
  WsTraceKernelDesc kd = { .name = "init", .n_insts = 1, .insts = &st, .regs_per_thread = 16 };
  uint32_t kernel = ws_trace_writer_add_kernel (w, &kd);
  const uint32_t grid[3] = { n_blocks, 1, 1 }, block[3] = { 32, 1, 1 };
  ws_trace_writer_begin_launch (w, kernel, grid, block, 0);
  for (uint64_t b = 0; b < n_blocks; b++)
    {
      WsTraceCta *cta = ws_trace_cta_begin (w, b, 1);
      uint64_t a[32];
      for (int l = 0; l < 32; l++)
        a[l] = 0x7e0000000000ull + (b * 32 + l) * 4;
      ws_trace_cta_mem (cta, 0, 0, 0xffffffffu, WS_SPACE_GLOBAL, a);
      ws_trace_cta_end (cta);
    }
  g_assert_true (ws_trace_writer_end_launch (w, &error));
  g_assert_true (ws_trace_writer_close (w, &error));
  g_assert_no_error (error);
  return path;
}

/* gpu-stream's init with 32-thread blocks: 1040 blocks of one warp, each
 * storing 128 fresh bytes, on the GTX 970 of Table 6.1 (13 SMs, 32
 * resident blocks each, so 416 at once and every SM replaces blocks).
 * Seed 004 §5.1: the store's latency lies on the path to the end node and
 * the end node's inbound edge is the terminated block replacement latency
 * (Table 4.1: 150).  So each SM keeps 32 warps' 128 bytes in flight for a
 * latency bound of (store latency + 150) cycles: Little's law for the
 * bytes in flight.  Before, the latency bound was the warp's last issue
 * (1 cycle) and the launch streamed at the DRAM peak from any occupancy. */
static void
test_volkov_store_blocks (void)
{
  g_autofree char *dir = make_tmp_dir ("ws-volkov-stores-XXXXXX");
  const uint32_t n_blocks = 1040;
  g_autofree char *path = write_init_trace (dir, n_blocks);
  g_autoptr (GError) error = NULL;
  g_autoptr (WsTrace) trace = ws_trace_open (path, &error);
  g_assert_no_error (error);
  g_autoptr (WsPredictorPlugin) volkov = load_volkov ();
  g_autoptr (WsGpu) gpu = gpu_with_caches (5);
  g_autoptr (WsPrediction) p = ws_predict_trace (volkov, gpu, trace, 0, NULL, NULL, &error);
  g_assert_no_error (error);
  double path_end = metric (p, "critical_path");
  g_test_message ("store blocks: critical path %.1f, latency bound %.1f, occupancy %.0f warps", path_end,
                  metric (p, "latency_bound"), metric (p, "occupancy_warps"));
  /* The store reaches at least the L2 (write-back, write-allocate); the
   * interval profile waits for it too (it ended after the issue, 1 cycle). */
  g_assert_cmpfloat (path_end, >=, 194);
  g_assert_cmpfloat (metric (p, "profile_cycles"), ==, path_end);
  g_assert_cmpfloat (metric (p, "block_replacement"), ==, 150);
  g_assert_cmpfloat (metric (p, "latency_bound"), ==, path_end + 150);
  g_assert_cmpfloat (metric (p, "occupancy_warps"), ==, 32);
  g_assert_cmpfloat (metric (p, "limiter_is_latency"), ==, 1);
  /* Little's law: 13 SMs x 32 warps x 128 B per latency bound. */
  double bytes_per_s = n_blocks * 128.0 / p->seconds;
  g_assert_cmpfloat_with_epsilon (bytes_per_s, 13 * 32 * 128.0 / metric (p, "latency_bound") * 1253e6, 1e3);
  g_remove (path);
  g_rmdir (dir);
}

/* The same 1040 one-warp blocks on an SM that starts one block per
 * block_launch_cycles (150).  Each of the 13 SMs starts 80 blocks: the
 * launch takes at least 80 x 150 = 12000 cycles.  Little's law on the
 * bytes in flight gives 1040 warps / (13 SMs x 32 warps per latency bound)
 * = 2.5 latency bounds, under 1500 cycles.  Eq. 4.4's launch term is those
 * 12000 cycles over the SM's 80 warps, 150 cycles per warp, above every
 * other term: the launch takes exactly 12000 cycles, limited by LAUNCH.
 * With block_launch_cycles 0 (not modelled) the result is the old one, bit
 * for bit. */
static void
test_volkov_block_launch_rate (void)
{
  g_autofree char *dir = make_tmp_dir ("ws-volkov-launch-XXXXXX");
  g_autofree char *path = write_init_trace (dir, 1040);
  g_autoptr (GError) error = NULL;
  g_autoptr (WsTrace) trace = ws_trace_open (path, &error);
  g_assert_no_error (error);
  g_autoptr (WsPredictorPlugin) volkov = load_volkov ();
  g_autoptr (WsGpu) gpu = gpu_with_caches (5);
  g_assert_cmpfloat (gpu->block_launch_cycles, ==, 0);
  g_autoptr (WsPrediction) old = ws_predict_trace (volkov, gpu, trace, 0, NULL, NULL, &error);
  g_assert_no_error (error);
  double latency_bound = metric (old, "latency_bound");
  g_assert_cmpfloat (metric (old, "block_launch_bound"), ==, 0);
  g_assert_cmpfloat_with_epsilon (old->cycles, 1040 * latency_bound / (13 * 32), 1e-6);
  g_assert_cmpfloat (old->cycles, <, 1500);

  gpu->block_launch_cycles = 150;
  g_autoptr (WsPrediction) p = ws_predict_trace (volkov, gpu, trace, 0, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpfloat (metric (p, "block_launch_bound"), ==, 80 * 150);
  g_assert_cmpfloat_with_epsilon (p->cycles, 12000, 1e-6);
  g_assert_cmpfloat (metric (p, "limiter_is_latency"), ==, 0);
  /* the replacement latency stays on the critical path */
  g_assert_cmpfloat (metric (p, "block_replacement"), ==, 150);
  g_assert_cmpfloat (metric (p, "latency_bound"), ==, latency_bound);
  double launch = NAN;
  for (guint c = 0; c < p->cpi_names->len; c++)
    if (strcmp (g_array_index (p->cpi_names, char *, c), "LAUNCH") == 0)
      launch = g_array_index (p->cpi_values, double, c);
  g_assert_cmpfloat (launch, >, 0);
  /* one store per warp: the stack sums to cycles per warp instruction */
  g_assert_cmpfloat_with_epsilon (ws_prediction_cpi_total (p), 12000 / 1040.0, 1e-9);

  gpu->block_launch_cycles = 0;
  g_autoptr (WsPrediction) again = ws_predict_trace (volkov, gpu, trace, 0, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpfloat (again->cycles, ==, old->cycles);
  g_assert_cmpfloat (again->seconds, ==, old->seconds);
  g_remove (path);
  g_rmdir (dir);
}

/* Eq. 4.4's L1 term: gpu-strides (one block of 32 warps, 64 loads each,
 * L1 hits) needs the loads' data-stage wavefronts, one a cycle on the SM.
 *  - float broadcasts: one wavefront, 1.0 cycle per warp load (A100 and
 *    H200); issue alone (4 schedulers) made it 0.71 cycles on H200.  On a
 *    GPU before Volta (no host figure) one line, the same.
 *  - Volta on, float stride 15 (15 lines from an aligned base, 16 from the
 *    other seven: 15.5 on average): no bank conflict (lane l in bank 15 l
 *    mod 32), but the tag stage resolves 4 lines a cycle: 4 wavefronts,
 *    4.0 cycles per warp load (H200 measures 4.6; a line each made it
 *    15.5), above the re-issues of the uncoalesced access (one per line
 *    over 4 schedulers, 15.5 / 4 = 3.875).
 *  - Volta on, double broadcast (one line): 256 bytes, two wavefronts, 2.0
 *    cycles (A100 and H200 measure 2.0; a line each gave 1.0, below the
 *    physical bound). */
static void
test_volkov_l1_wavefronts (void)
{
  g_autofree char *dir = make_tmp_dir ("ws-volkov-l1-XXXXXX");
  g_autoptr (WsPredictorPlugin) volkov = load_volkov ();
  g_autoptr (WsGpu) gpu = gpu_with_caches (5);
  gpu->pipes[WS_ICLASS_GLOBAL].latency = 28;
  g_autoptr (GError) error = NULL;
  const double warp_loads = 32 * 64;
  const struct {
    int cc;
    uint64_t stride;
    uint8_t size;
    double wavefronts, cycles_per_load;
  } cases[] = {
    { 5, 0, 4, 64, 1.0 },
    { 9, 0, 4, 64, 1.0 },
    { 9, 60, 4, 256, 4.0 },
    { 9, 0, 8, 128, 2.0 },
  };
  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      WsTraceStaticInst ld = plain_inst (WS_OP_LD, WS_OPCLASS_LD, 1, -1);
      ld.space = WS_SPACE_GLOBAL;
      ld.access_size = cases[c].size;
      uint32_t steps[64] = { 0 };
      g_autofree char *name = g_strdup_printf ("strides-%u", c);
      g_autofree char *path = write_one_block_trace (dir, name, &ld, 1, steps, 64, 32, (int64_t) cases[c].stride);
      g_autoptr (WsTrace) t = ws_trace_open (path, &error);
      g_assert_no_error (error);
      gpu->cc_major = cases[c].cc;
      g_autoptr (WsPrediction) p = ws_predict_trace (volkov, gpu, t, 0, NULL, NULL, &error);
      g_assert_no_error (error);
      g_assert_cmpfloat (metric (p, "l1_wavefronts"), ==, cases[c].wavefronts);
      g_assert_cmpfloat_with_epsilon (p->cycles / warp_loads, cases[c].cycles_per_load, 1e-9);
      g_remove (path);
    }
  g_rmdir (dir);
}

static WsPredictorPlugin *
load_probe (const char *name)
{
  g_autofree char *file = g_strconcat (name, ".so", NULL);
  g_autofree char *path = broken_path (file);
  WsPredictorPlugin *p = ws_predictor_plugin_load (path);
  if (!p->ok)
    g_error ("%s: %s", path, p->error);
  return p;
}

/* One warp's accesses for the inst_wavefronts test: lane l at base + l x
 * stride, lanes of @mask. */
static void
strided (WsTraceCta *cta, uint32_t id, uint8_t space, uint32_t mask, uint64_t base, uint64_t stride)
{
  uint64_t a[32] = { 0 };
  for (int l = 0; l < 32; l++)
    if (mask & (1u << l))
      a[l] = base + (uint64_t) l * stride;
  ws_trace_cta_mem (cta, 0, id, mask, space, a);
}

static WsTraceStaticInst
mem_inst (int op, int opclass, uint8_t space, uint8_t size)
{
  WsTraceStaticInst i = plain_inst (op, opclass, op == WS_OP_LD ? 1 : -1, -1);
  i.space = space;
  i.access_size = size;
  return i;
}

/* The host's inst_wavefronts (API 2) through a plugin, on hand-made
 * accesses, against the physical bound's rule worked out by hand: the most
 * distinct 4-byte words in one of 32 banks, and from Volta on at least
 * active lanes x size / 128. */
static void
test_inst_wavefronts (void)
{
  g_autofree char *dir = make_tmp_dir ("ws-wavefronts-XXXXXX");
  g_autofree char *path = g_build_filename (dir, "wavefronts.wstrace", NULL);
  const uint64_t g = 0x7e0000000000ull;
  const uint32_t all = 0xffffffffu;
  WsTraceStaticInst insts[] = {
    mem_inst (WS_OP_LD, WS_OPCLASS_LD, WS_SPACE_GLOBAL, 4),  /* 0: float broadcast */
    mem_inst (WS_OP_LD, WS_OPCLASS_LD, WS_SPACE_GLOBAL, 8),  /* 1: double broadcast */
    mem_inst (WS_OP_LD, WS_OPCLASS_LD, WS_SPACE_GLOBAL, 4),  /* 2: float stride 3 (3 lines) */
    mem_inst (WS_OP_LD, WS_OPCLASS_LD, WS_SPACE_GLOBAL, 4),  /* 3: float stride 2 */
    mem_inst (WS_OP_LD, WS_OPCLASS_LD, WS_SPACE_GLOBAL, 4),  /* 4: float stride 15 (15 lines) */
    mem_inst (WS_OP_LD, WS_OPCLASS_LD, WS_SPACE_SHARED, 4),  /* 5: shared float stride 32 */
    mem_inst (WS_OP_ST, WS_OPCLASS_ST, WS_SPACE_GLOBAL, 4),  /* 6: global store: no figure */
    plain_inst (WS_OP_ADD, WS_OPCLASS_FP32, 2, 1),           /* 7: no memory access */
    mem_inst (WS_OP_LD, WS_OPCLASS_LD, WS_SPACE_LOCAL, 8),   /* 8: local double, same offset */
    mem_inst (WS_OP_LD, WS_OPCLASS_LD, WS_SPACE_GLOBAL, 4),  /* 9: stride 1, then stride 4 */
    mem_inst (WS_OP_LD, WS_OPCLASS_LD, WS_SPACE_GLOBAL, 8),  /* 10: 16 lanes, double broadcast */
    mem_inst (WS_OP_ST, WS_OPCLASS_ST, WS_SPACE_SHARED, 8),  /* 11: shared double stride 1 */
    mem_inst (WS_OP_LD, WS_OPCLASS_LD, WS_SPACE_GLOBAL, 4),  /* 12: never executed */
    mem_inst (WS_OP_LD, WS_OPCLASS_LD, WS_SPACE_SHARED, 8),  /* 13: shared double broadcast */
    mem_inst (WS_OP_LD, WS_OPCLASS_LD, WS_SPACE_GLOBAL, 16), /* 14: v4.f32, contiguous */
  };
  g_autoptr (GError) error = NULL;
  WsTraceWriter *w = ws_trace_writer_new (path, &error);
  g_assert_no_error (error);
  WsTraceKernelDesc kd = {
    .name = "wavefronts", .n_insts = G_N_ELEMENTS (insts), .insts = insts, .regs_per_thread = 16
  };
  uint32_t kernel = ws_trace_writer_add_kernel (w, &kd);
  const uint32_t grid[3] = { 1, 1, 1 }, block[3] = { 32, 1, 1 };
  ws_trace_writer_begin_launch (w, kernel, grid, block, 0);
  WsTraceCta *cta = ws_trace_cta_begin (w, 0, 1);
  strided (cta, 0, WS_SPACE_GLOBAL, all, g, 0);
  strided (cta, 1, WS_SPACE_GLOBAL, all, g + 64, 0);
  strided (cta, 2, WS_SPACE_GLOBAL, all, g + 4096, 12);
  strided (cta, 3, WS_SPACE_GLOBAL, all, g + 8192, 8);
  strided (cta, 4, WS_SPACE_GLOBAL, all, g + 16384, 60);
  strided (cta, 5, WS_SPACE_SHARED, all, 0, 128);
  strided (cta, 6, WS_SPACE_GLOBAL, all, g + 32768, 4);
  ws_trace_cta_inst (cta, 0, 7, all);
  strided (cta, 8, WS_SPACE_LOCAL, all, 16, 0);
  strided (cta, 9, WS_SPACE_GLOBAL, all, g + 40960, 4);
  strided (cta, 9, WS_SPACE_GLOBAL, all, g + 45056, 16);
  strided (cta, 10, WS_SPACE_GLOBAL, 0xffffu, g + 128, 0);
  strided (cta, 11, WS_SPACE_SHARED, all, 4096, 8);
  strided (cta, 13, WS_SPACE_SHARED, all, 8192, 0);
  strided (cta, 14, WS_SPACE_GLOBAL, all, g + 49152, 16);
  ws_trace_cta_end (cta);
  g_assert_true (ws_trace_writer_end_launch (w, &error));
  g_assert_true (ws_trace_writer_close (w, &error));
  g_assert_no_error (error);
  g_autoptr (WsTrace) trace = ws_trace_open (path, &error);
  g_assert_no_error (error);
  g_autoptr (WsPredictorPlugin) probe = load_probe ("probe_wavefronts");

  /* Per instruction: Hopper (cc 9), Maxwell (cc 5: shared only, 4-byte
   * banks), Kepler (cc 3: the fewer of 4- and 8-byte banks).
   *  0: one word, 32 x 4 / 128 = 1          1: two words, 32 x 8 / 128 = 2
   *  2: lane l in bank 3l mod 32: 1         3: bank 2l mod 32: 2 lanes a bank
   *  4: bank 15l mod 32: 1, but 15 lines, 4 a cycle through the tag stage: 4
   *  5: every lane in bank 0: 32; with
   *     8-byte banks unit 16l, banks 0 and 16: 16
   *  8: local, interleaved per thread: 32 x 8 / 128 = 2
   *  9: (1 + 4) / 2 (stride 4 floats: 4 lanes a bank)
   * 10: 16 x 8 / 128 = 1                   11: words 2l, 2l + 1: 2; 8-byte
   *     banks: 1
   * 13: Volta on 32 x 8 / 128 = 2, before one pass over two banks: 1
   * 14: words 4l..4l + 3: 4 a bank, 32 x 16 / 128 = 4 */
  const double N = NAN;
  const struct {
    int cc;
    double wf[G_N_ELEMENTS (insts)];
  } cases[] = {
    { 9, { 1, 2, 1, 2, 4, 32, N, 0, 2, 2.5, 1, 2, 0, 2, 4 } },
    { 5, { N, N, N, N, N, 32, N, 0, N, N, N, 2, 0, 1, N } },
    { 3, { N, N, N, N, N, 16, N, 0, N, N, N, 1, 0, 1, N } },
  };
  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      g_autoptr (WsGpu) gpu = gpu_with_caches (cases[c].cc);
      g_autoptr (WsPrediction) p = ws_predict_trace (probe, gpu, trace, 0, NULL, NULL, &error);
      g_assert_no_error (error);
      g_assert_cmpfloat (metric (p, "host_api"), ==, WS_PREDICTOR_API_VERSION);
      for (guint i = 0; i < G_N_ELEMENTS (insts); i++)
        {
          char name[32];
          g_snprintf (name, sizeof name, "wavefronts.%u", i);
          double got = metric (p, name), want = cases[c].wf[i];
          if (isnan (want) ? !isnan (got) : got != want)
            g_error ("cc %d, instruction %u: inst_wavefronts %g, expected %g", cases[c].cc, i, got, want);
        }
    }
  /* The L2 rate the host derives: the record's figure, else 64 bytes a
   * cycle per slice (GA100's), else none. */
  g_autoptr (WsGpu) gpu = gpu_with_caches (9);
  const struct {
    double published;
    int slices;
    double want;
  } l2[] = { { 2048, 10, 2048 }, { 0, 10, 640 }, { 0, 0, -1 } };
  for (guint c = 0; c < G_N_ELEMENTS (l2); c++)
    {
      gpu->l2_bandwidth_bytes_per_clk = l2[c].published;
      gpu->l2_slices = l2[c].slices;
      g_autoptr (WsPrediction) p = ws_predict_trace (probe, gpu, trace, 0, NULL, NULL, &error);
      g_assert_no_error (error);
      g_assert_cmpfloat (metric (p, "l2_model_bytes_per_clk"), ==, l2[c].want);
    }
  g_remove (path);
  g_rmdir (dir);
}

/* A plugin built for API 1 (before inst_wavefronts) loads and predicts on
 * this host; a plugin for a newer API checks the host's table size before
 * calling what an older host lacks. */
static void
test_older_api_plugin (void)
{
  g_autoptr (WsPredictorPlugin) old = load_probe ("probe_api1");
  g_assert_cmpint (old->api, ==, 1);
  g_autoptr (WsGpu) gpu = gtx970_table_6_1 ();
  g_autoptr (WsAnalyticKernel) k = saxpy2_listing5 (1, 1024, 256, 64);
  g_autoptr (GError) error = NULL;
  g_autoptr (WsPrediction) p = ws_predict_analytic (old, gpu, k, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpfloat (p->cycles, ==, 42);
  g_assert_cmpfloat (metric (p, "host_api"), ==, WS_PREDICTOR_API_VERSION);

  /* An API 1 host's table ends with `fail`. */
  WsPredictorHost api1 = { .size = (uint32_t) offsetof (WsPredictorHost, inst_wavefronts), .api_version = 1 };
  g_assert_true (WS_PREDICTOR_HOST_HAS (&api1, fail));
  g_assert_false (WS_PREDICTOR_HOST_HAS (&api1, inst_wavefronts));
  WsPredictorHost api2 = { .size = sizeof (WsPredictorHost), .api_version = 2 };
  g_assert_true (WS_PREDICTOR_HOST_HAS (&api2, inst_wavefronts));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/predict/volkov/saxpy2-gtx970-listing5", test_volkov_saxpy2);
  g_test_add_func ("/predict/volkov/missing-input-is-an-error", test_volkov_missing_input);
  g_test_add_func ("/predict/options/checked-against-descriptor", test_options);
  g_test_add_func ("/predict/plugin/broken-reported", test_broken_plugins);
  g_test_add_func ("/predict/plugin/cpi-categories", test_cpi_categories);
  g_test_add_func ("/predict/scan/broken-not-fatal", test_scan_not_fatal);
  g_test_add_func ("/predict/analytic/file-validation", test_analytic_file);
  g_test_add_func ("/predict/sdk/out-of-tree-plugin", test_out_of_tree_sdk);
  g_test_add_func ("/predict/volkov/traced-launch", test_volkov_trace);
  g_test_add_func ("/predict/volkov/store-blocks-littles-law", test_volkov_store_blocks);
  g_test_add_func ("/predict/volkov/block-launch-rate", test_volkov_block_launch_rate);
  g_test_add_func ("/predict/volkov/one-block-runs-on-one-sm", test_volkov_one_block);
  g_test_add_func ("/predict/volkov/l1-wavefront-throughput", test_volkov_l1_wavefronts);
  g_test_add_func ("/predict/host/inst-wavefronts-bank-rule", test_inst_wavefronts);
  g_test_add_func ("/predict/plugin/older-api-still-runs", test_older_api_plugin);
  return g_test_run ();
}
