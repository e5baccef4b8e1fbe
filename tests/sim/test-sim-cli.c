/* warpscope-cli simulate / tbpoint (path in $WS_CLI) on a synthetic trace
 * and a temporary store: JSON fields, stored runs, usage errors. */
#include "store/ws-store.h"
#include "sim-test-util.h"

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <sqlite3.h>
#include <string.h>

static char *tmpdir;

static int
run_cli (const char *const *args, char **out)
{
  const char *exe = g_getenv ("WS_CLI");
  g_assert_nonnull (exe);
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_autofree char *db = g_build_filename (tmpdir, "store.db", NULL);
  g_ptr_array_add (argv, (char *) exe);
  g_ptr_array_add (argv, (char *) "--db");
  g_ptr_array_add (argv, db);
  for (int i = 0; args[i]; i++)
    g_ptr_array_add (argv, (char *) args[i]);
  g_ptr_array_add (argv, NULL);
  g_autofree char *err = NULL;
  int status = 0;
  g_autoptr (GError) error = NULL;
  g_assert_true (
    g_spawn_sync (tmpdir, (char **) argv->pdata, NULL, G_SPAWN_DEFAULT, NULL, NULL, out, &err, &status, &error));
  g_assert_no_error (error);
  if (!g_spawn_check_wait_status (status, NULL))
    g_test_message ("stderr: %s", err);
  return WIFEXITED (status) ? WEXITSTATUS (status) : -1;
}

/* Launches of one kernel with @sizes[l] TBs each (@n of them); with
 * @same_buffer every launch reads the same addresses, else fresh ones. */
static char *
write_launches (const char *file, const guint *sizes, guint n, gboolean same_buffer)
{
  SimTraceBuilder b;
  sim_trace_open (&b, tmpdir, file);
  WsTraceStaticInst insts[9];
  for (int i = 0; i < 8; i++)
    insts[i] = sim_test_inst (WS_OPCLASS_ALU, i, -1, -1);
  insts[8] = sim_test_inst (WS_OPCLASS_LD, 8, -1, -1);
  insts[8].space = WS_SPACE_GLOBAL;
  uint32_t k = sim_trace_kernel (&b, "clikernel", insts, 9);
  uint64_t addr = 0x1000000;
  for (guint l = 0; l < n; l++)
    {
      guint n_tbs = sizes[l];
      if (same_buffer)
        addr = 0x1000000;
      sim_trace_launch (&b, k, n_tbs, 64);
      for (guint t = 0; t < n_tbs; t++)
        {
          WsTraceCta *cta = ws_trace_cta_begin (b.w, t, 2);
          for (uint32_t w = 0; w < 2; w++)
            for (int i = 0; i < 30; i++)
              if (i % 6 == 5)
                {
                  sim_rec_mem (cta, w, 8, WS_SPACE_GLOBAL, addr, 4);
                  addr += 128;
                }
              else
                sim_rec_inst (cta, w, (uint32_t) (i % 8));
          ws_trace_cta_end (cta);
        }
      sim_trace_end_launch (&b);
    }
  return sim_trace_close (&b);
}

/* Three launches of one kernel (two alike, one twice as large). */
static char *
write_trace (void)
{
  static const guint sizes[] = { 200, 400, 200 };
  return write_launches ("cli.wstrace", sizes, G_N_ELEMENTS (sizes), FALSE);
}

/* tbpoint clusters: two equal launches over one buffer share a cluster on
 * eq. 2's counts; with --gpu the first, which finds the L2 cold, is apart
 * from the second, which finds the buffer (250 KiB) in the A100's 40 MB L2
 * (as `simulate --sampling tbpoint` clusters them). */
static void
test_tbpoint_clusters_cold_start (void)
{
  static const guint sizes[] = { 200, 200 };
  g_autofree char *path = write_launches ("cold.wstrace", sizes, G_N_ELEMENTS (sizes), TRUE);
  const char *counts[] = { "--json", "tbpoint", "clusters", "--trace", path, NULL };
  const char *on_gpu[] = { "--json", "tbpoint", "clusters", "--trace", path, "--gpu", "A100", NULL };
  for (int with_gpu = 0; with_gpu < 2; with_gpu++)
    {
      g_autofree char *out = NULL;
      g_assert_cmpint (run_cli (with_gpu ? on_gpu : counts, &out), ==, 0);
      g_autoptr (JsonParser) p = json_parser_new ();
      g_assert_true (json_parser_load_from_data (p, out, -1, NULL));
      JsonObject *o = json_node_get_object (json_parser_get_root (p));
      JsonArray *clusters = json_object_get_array_member (o, "clusters");
      g_assert_cmpuint (json_array_get_length (clusters), ==, with_gpu ? 2 : 1);
      g_assert_cmpint (json_object_has_member (o, "l2_hit_rate"), ==, with_gpu);
      if (with_gpu)
        {
          JsonArray *rate = json_object_get_array_member (o, "l2_hit_rate");
          g_assert_cmpfloat (json_array_get_double_element (rate, 0), ==, 0);
          g_assert_cmpfloat (json_array_get_double_element (rate, 1), ==, 1);
        }
    }
  const char *unknown[] = { "tbpoint", "clusters", "--trace", path, "--gpu", "no such GPU", NULL };
  g_assert_cmpint (run_cli (unknown, NULL), ==, 2);
}

/* On a record with launch data every launch is charged its cost back to
 * back on one stream: at least the device gap, and at least the interval
 * with the kernel (H200: interval 2.1 us, gap 1.3 us). */
static void
test_simulate_launch_cost (void)
{
  g_autofree char *path = write_trace ();
  const char *args[] = { "--json", "simulate", "--no-store", "--trace", path, "--gpu", "H200", NULL };
  g_autofree char *out = NULL;
  g_assert_cmpint (run_cli (args, &out), ==, 0);
  g_autoptr (JsonParser) p = json_parser_new ();
  g_assert_true (json_parser_load_from_data (p, out, -1, NULL));
  JsonObject *o = json_node_get_object (json_parser_get_root (p));
  JsonArray *ls = json_object_get_array_member (o, "launches");
  double sum = 0, cycles = 0;
  for (guint i = 0; i < json_array_get_length (ls); i++)
    {
      JsonObject *l = json_array_get_object_element (ls, i);
      double oh = json_object_get_double_member (l, "launch_overhead_seconds");
      cycles += json_object_get_int_member (l, "cycles");
      g_assert_cmpfloat (oh, >=, 1.3e-6 - 1e-15);
      sum += oh;
    }
  double kernels = json_object_get_double_member (o, "kernel_seconds");
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (o, "launch_overhead_seconds"), sum, 1e-15);
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (o, "program_seconds"), kernels + sum, 1e-15);
  g_assert_cmpfloat (kernels + sum, >=, 3 * 2.1e-6 - 1e-12);
  /* The kernels' own cycles are not changed by it. */
  g_assert_cmpfloat_with_epsilon (kernels, cycles / 1980e6, 1e-12);
}

static void
test_simulate_json (void)
{
  g_autofree char *path = write_trace ();
  for (int mode = 0; mode < 3; mode++)
    {
      const char *sampling = mode == 0 ? "none" : mode == 1 ? "tbpoint" : "random";
      const char *args[] = { "--json",      "simulate",
                             "--trace",     path,
                             "--gpu",       "TBPoint Fermi",
                             "--sampling",  sampling,
                             "--scheduler", mode == 2 ? "rr" : "gto",
                             NULL };
      g_autofree char *out = NULL;
      g_assert_cmpint (run_cli (args, &out), ==, 0);
      g_autoptr (JsonParser) p = json_parser_new ();
      g_assert_true (json_parser_load_from_data (p, out, -1, NULL));
      JsonObject *o = json_node_get_object (json_parser_get_root (p));
      const char *fields[] = { "cycles",          "ipc",          "warp_instructions", "simulated_warp_instructions",
                               "sample_fraction", "wall_seconds", "launches",          NULL };
      for (int i = 0; fields[i]; i++)
        g_assert_true (json_object_has_member (o, fields[i]));
      g_assert_cmpint (json_object_get_int_member (o, "warp_instructions"), ==, 800 * 2 * 30);
      /* The launch cost (core/launchcost): this record has no launch data, so
       * the program's time is the kernels' own. */
      g_assert_cmpstr (json_object_get_string_member (o, "launch_mode"), ==, "stream");
      g_assert_cmpfloat (json_object_get_double_member (o, "launch_overhead_seconds"), ==, 0);
      g_assert_cmpfloat (json_object_get_double_member (o, "kernel_seconds"), >, 0);
      g_assert_cmpfloat (json_object_get_double_member (o, "program_seconds"), ==,
                         json_object_get_double_member (o, "kernel_seconds"));
      int64_t cycles = json_object_get_int_member (o, "cycles");
      g_assert_cmpint (cycles, >, 0);
      g_assert_cmpfloat_with_epsilon (json_object_get_double_member (o, "ipc"), 48000.0 / cycles, 1e-9);
      double frac = json_object_get_double_member (o, "sample_fraction");
      JsonArray *ls = json_object_get_array_member (o, "launches");
      g_assert_cmpuint (json_array_get_length (ls), ==, 3);
      guint simulated = 0;
      for (guint i = 0; i < 3; i++)
        {
          JsonObject *l = json_array_get_object_element (ls, i);
          const char *lf[] = { "index", "kernel", "cycles", "ipc", "simulated", "cluster", NULL };
          for (int f = 0; lf[f]; f++)
            g_assert_true (json_object_has_member (l, lf[f]));
          g_assert_cmpint (json_object_get_int_member (l, "index"), ==, i);
          g_assert_cmpstr (json_object_get_string_member (l, "kernel"), ==, "clikernel");
          simulated += json_object_get_boolean_member (l, "simulated");
          if (mode != 1)
            g_assert_cmpint (json_object_get_int_member (l, "cluster"), ==, -1);
        }
      if (mode == 0)
        {
          g_assert_cmpfloat (frac, ==, 1.0);
          g_assert_cmpuint (simulated, ==, 3);
        }
      else if (mode == 1)
        {
          /* Launches 0 and 2 form one cluster, launch 1 another. */
          JsonObject *l0 = json_array_get_object_element (ls, 0), *l1 = json_array_get_object_element (ls, 1),
                     *l2 = json_array_get_object_element (ls, 2);
          g_assert_cmpint (json_object_get_int_member (l0, "cluster"), ==, json_object_get_int_member (l2, "cluster"));
          g_assert_cmpint (json_object_get_int_member (l0, "cluster"), !=, json_object_get_int_member (l1, "cluster"));
          g_assert_cmpuint (simulated, ==, 2);
          g_assert_cmpfloat (frac, <, 0.6);
        }
      else
        g_assert_cmpfloat_with_epsilon (frac, 0.1, 0.01);
      g_assert_cmpfloat (frac, ==, (double) json_object_get_int_member (o, "simulated_warp_instructions") / 48000.0);
    }
  /* Every run is in the store with its configuration. */
  g_autofree char *db = g_build_filename (tmpdir, "store.db", NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (WsStore) store = ws_store_open (db, &error);
  g_assert_no_error (error);
  sqlite3_stmt *st = NULL;
  g_assert_cmpint (sqlite3_prepare_v2 (ws_store_get_db (store),
                                       "SELECT count(*), count(DISTINCT sampling), "
                                       "sum(json_extract(config, '$.gpu.name') = 'TBPoint Fermi'), "
                                       "sum(json_extract(config, '$.options.scheduler') = scheduler) FROM sim_run",
                                       -1, &st, NULL),
                   ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_step (st), ==, SQLITE_ROW);
  g_assert_cmpint (sqlite3_column_int (st, 0), ==, 3);
  g_assert_cmpint (sqlite3_column_int (st, 1), ==, 3);
  g_assert_cmpint (sqlite3_column_int (st, 2), ==, 3);
  g_assert_cmpint (sqlite3_column_int (st, 3), ==, 3);
  sqlite3_finalize (st);
}

static void
test_usage_errors (void)
{
  g_autofree char *path = g_build_filename (tmpdir, "cli.wstrace", NULL);
  const char *bad_sampling[] = {
    "simulate", "--trace", path, "--gpu", "TBPoint Fermi", "--sampling", "simpoint", NULL
  };
  g_assert_cmpint (run_cli (bad_sampling, NULL), ==, 2);
  const char *bad_sched[] = { "simulate", "--trace", path, "--gpu", "TBPoint Fermi", "--scheduler", "lrr", NULL };
  g_assert_cmpint (run_cli (bad_sched, NULL), ==, 2);
  const char *no_gpu[] = { "simulate", "--trace", path, NULL };
  g_assert_cmpint (run_cli (no_gpu, NULL), ==, 2);
  const char *unknown_gpu[] = { "simulate", "--trace", path, "--gpu", "No Such GPU", NULL };
  g_assert_cmpint (run_cli (unknown_gpu, NULL), ==, 2);
  const char *missing[] = { "simulate", "--trace", "/nonexistent.wstrace", "--gpu", "TBPoint Fermi", NULL };
  g_assert_cmpint (run_cli (missing, NULL), ==, 1);
}

static void
test_markov_json (void)
{
  const char *args[] = { "--json", "tbpoint", "markov", "--p",       "0.1",  "--m",
                         "100",    "--warps", "1",      "--samples", "1000", NULL };
  g_autofree char *out = NULL;
  g_assert_cmpint (run_cli (args, &out), ==, 0);
  g_autoptr (JsonParser) p = json_parser_new ();
  g_assert_true (json_parser_load_from_data (p, out, -1, NULL));
  JsonObject *o = json_node_get_object (json_parser_get_root (p));
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (o, "ipc"), 1.0 / 11, 1e-12);
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (o, "ipc_matrix"), 1.0 / 11, 1e-9);
  g_assert_cmpint (json_object_get_int_member (o, "samples"), ==, 1000);
  g_assert_cmpfloat (json_object_get_double_member (o, "within_10_percent"), >, 0.9);
  const char *bad[] = { "tbpoint", "markov", "--p", "2", "--m", "100", NULL };
  g_assert_cmpint (run_cli (bad, NULL), ==, 2);
}

/* tbpoint view: the JSON it writes is what plot tbpoint reads, and the
 * chart it draws is a real PNG; the figures agree with each other. */
static void
test_tbpoint_view (void)
{
  g_autofree char *path = write_trace ();
  g_autofree char *json_path = g_build_filename (tmpdir, "view.json", NULL);
  g_autofree char *png = g_build_filename (tmpdir, "view.png", NULL);
  g_autofree char *png2 = g_build_filename (tmpdir, "view-plot.png", NULL);
  const char *args[] = { "--json",   "tbpoint", "view", "--trace", path,     "--gpu", "TBPoint Fermi",
                         "--launch", "1",       "-o",   json_path, "--plot", png,     NULL };
  g_autofree char *out = NULL;
  g_assert_cmpint (run_cli (args, &out), ==, 0);
  g_autoptr (JsonParser) p = json_parser_new ();
  g_assert_true (json_parser_load_from_data (p, out, -1, NULL));
  JsonObject *o = json_node_get_object (json_parser_get_root (p));
  g_assert_cmpint (json_object_get_int_member (o, "launch"), ==, 1);
  g_assert_cmpstr (json_object_get_string_member (o, "kernel"), ==, "clikernel");
  JsonArray *tbs = json_object_get_array_member (o, "tbs");
  g_assert_cmpuint (json_array_get_length (tbs), ==, 400);
  gint64 sum = 0, sim_sum = 0, n_sim = 0;
  for (guint i = 0; i < 400; i++)
    {
      JsonObject *t = json_array_get_object_element (tbs, i);
      gint64 size = json_object_get_int_member (t, "size");
      g_assert_cmpint (size, ==, 2 * 30);
      sum += size;
      if (json_object_get_boolean_member (t, "simulated"))
        {
          sim_sum += size;
          n_sim++;
        }
    }
  g_assert_cmpint (sum, ==, json_object_get_int_member (o, "warp_instructions"));
  g_assert_cmpint (sim_sum, ==, json_object_get_int_member (o, "simulated_warp_instructions"));
  g_assert_cmpint (n_sim, ==, json_object_get_int_member (o, "simulated_tbs"));
  double full = (double) json_object_get_int_member (o, "full_cycles");
  double sampled = (double) json_object_get_int_member (o, "sampled_cycles");
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (o, "error"), (sampled - full) / full, 1e-12);
  /* The file written with -o is the same document. */
  g_autoptr (JsonParser) p2 = json_parser_new ();
  g_assert_true (json_parser_load_from_file (p2, json_path, NULL));
  g_assert_cmpint (json_object_get_int_member (json_node_get_object (json_parser_get_root (p2)), "sampled_cycles"), ==,
                   (gint64) sampled);
  /* PNG written by the command and by plot from the JSON. */
  const char *plot[] = { "plot", "tbpoint", "-i", json_path, "-o", png2, NULL };
  g_assert_cmpint (run_cli (plot, NULL), ==, 0);
  for (int i = 0; i < 2; i++)
    {
      g_autofree char *data = NULL;
      gsize len = 0;
      g_assert_true (g_file_get_contents (i ? png2 : png, &data, &len, NULL));
      g_assert_cmpuint (len, >, 1000);
      g_assert_cmpint (memcmp (data, "\x89PNG", 4), ==, 0);
    }
  const char *bad_launch[] = { "tbpoint", "view", "--trace", path, "--gpu", "TBPoint Fermi", "--launch", "7", NULL };
  g_assert_cmpint (run_cli (bad_launch, NULL), ==, 2);
  const char *bad_plot[] = { "tbpoint", "view", "--trace", path, "--gpu", "TBPoint Fermi", "--plot", "x.doc", NULL };
  g_assert_cmpint (run_cli (bad_plot, NULL), ==, 2);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  tmpdir = g_dir_make_tmp ("ws-sim-cli-XXXXXX", NULL);
  g_test_add_func ("/sim/cli/simulate-json-and-store", test_simulate_json);
  g_test_add_func ("/sim/cli/simulate-launch-cost", test_simulate_launch_cost);
  g_test_add_func ("/sim/cli/usage-errors", test_usage_errors);
  g_test_add_func ("/sim/cli/tbpoint-markov-json", test_markov_json);
  g_test_add_func ("/sim/cli/tbpoint-view", test_tbpoint_view);
  g_test_add_func ("/sim/cli/tbpoint-clusters-cold-start", test_tbpoint_clusters_cold_start);
  int rc = g_test_run ();
  g_autoptr (GDir) d = g_dir_open (tmpdir, 0, NULL);
  const char *n;
  while (d && (n = g_dir_read_name (d)))
    {
      g_autofree char *p = g_build_filename (tmpdir, n, NULL);
      g_unlink (p);
    }
  g_rmdir (tmpdir);
  g_free (tmpdir);
  return rc;
}
