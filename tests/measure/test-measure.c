/* test-measure.c: the measurement CSV, measurement sets, medians, the λ
 * fits of seed 004 (eqs. 4.1 and 4.6) and the GPU-less behaviour of the
 * GPU commands.  All data here are synthetic (tests/data/measured/README.md). */
#include <math.h>
#include <string.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <gmodule.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_randist.h>
#include "measure/ws-measure.h"
#include "predict/ws-predict.h"

static char *
data_path (const char *name)
{
  return g_build_filename (g_getenv ("WS_SOURCE_DIR"), "tests", "data", "measured", name, NULL);
}

static void
assert_rel (double got, double want, double tol)
{
  double rel = fabs (got - want) / fabs (want);
  if (!(rel <= tol))
    g_error ("got %.17g, want %.17g (relative error %.3g > %.3g)", got, want, rel, tol);
}

/* A temporary store; the folder is removed by the caller's cleanup. */
typedef struct {
  char *dir;
  char *db;
  WsStore *store;
} TmpStore;

static void
tmp_store_init (TmpStore *t)
{
  GError *error = NULL;
  t->dir = g_dir_make_tmp ("ws-test-measure-XXXXXX", &error);
  g_assert_no_error (error);
  t->db = g_build_filename (t->dir, "test.db", NULL);
  t->store = ws_store_open (t->db, &error);
  g_assert_no_error (error);
}

static void
rm_rf (const char *dir)
{
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  const char *n;
  while (d && (n = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *p = g_build_filename (dir, n, NULL);
      if (g_file_test (p, G_FILE_TEST_IS_DIR))
        rm_rf (p);
      else
        g_unlink (p);
    }
  g_rmdir (dir);
}

static void
tmp_store_clear (TmpStore *t)
{
  g_clear_pointer (&t->store, ws_store_close);
  rm_rf (t->dir);
  g_free (t->dir);
  g_free (t->db);
}

/* ------------------------------------------------------------------------ */

static void
test_csv_parse_sample (void)
{
  g_autofree char *path = data_path ("synthetic-saxpy2.csv");
  g_autoptr (GError) error = NULL;
  g_autoptr (GArray) rows = ws_measure_csv_load (path, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (rows->len, ==, 13);
  const WsMeasurement *m = &g_array_index (rows, WsMeasurement, 0);
  g_assert_cmpint (m->kind, ==, WS_MEASURE_MEMCPY);
  g_assert_cmpint (m->direction, ==, WS_MEMCPY_HTOD);
  g_assert_cmpuint (m->bytes, ==, 16384);
  g_assert_cmpfloat (m->duration_ns, ==, 5475.0);
  g_assert_cmpuint (m->runs, ==, 10);
  m = &g_array_index (rows, WsMeasurement, 1);
  g_assert_cmpuint (m->occurrence, ==, 1);
  m = &g_array_index (rows, WsMeasurement, 7);
  g_assert_cmpint (m->kind, ==, WS_MEASURE_KERNEL);
  g_assert_cmpstr (m->name, ==, "_Z6saxpy2ifPfS_i");
  g_assert_cmpuint (m->occurrence, ==, 2);
  g_assert_cmpuint (m->grid[0], ==, 4096);
  g_assert_cmpuint (m->block[0], ==, 256);
  g_assert_cmpuint (m->registers, ==, 8);
  g_assert_cmpfloat (m->duration_ns, ==, 98311.25);
  g_assert_cmpint (m->direction, ==, WS_MEMCPY_NONE);
}

static void
assert_parse_error (const char *text, const char *expect)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GArray) rows = ws_measure_csv_parse (text, strlen (text), "t.csv", &error);
  g_assert_null (rows);
  g_assert_error (error, WS_ERROR, WS_ERROR_PARSE);
  if (strstr (error->message, expect) == NULL)
    g_error ("error \"%s\" lacks \"%s\"", error->message, expect);
}

static void
test_csv_errors (void)
{
  assert_parse_error ("kind,name,duration_ns,colour\nkernel,k,1,red\n", "t.csv:1:23: unknown column \"colour\"");
  assert_parse_error ("kind,name,grid_x,duration_ns\nkernel,k,12x,100\n",
                      "t.csv:2:10: grid_x \"12x\" is not a positive integer");
  assert_parse_error ("kind,name,grid_x,duration_ns\nkernel,k,0,100\n", "t.csv:2:10: grid_x \"0\"");
  assert_parse_error ("kind,name,duration_ns\nkernel,k,-5\n", "t.csv:2:10: duration_ns \"-5\"");
  assert_parse_error ("kind,name,duration_ns\nkernel,k,1e\n", "t.csv:2:10: duration_ns \"1e\"");
  assert_parse_error ("kind,name,direction,bytes,duration_ns\n# a comment\nmemcpy,memcpy,HostToDevice,4096,3000\n",
                      "t.csv:3:15: direction \"HostToDevice\" is not one of HtoD, DtoH");
  assert_parse_error ("kind,name,direction,bytes,duration_ns\nkernel,k,DtoH,,3\n",
                      "t.csv:2:10: a kernel row has no direction");
  assert_parse_error ("kind,name,direction,bytes,duration_ns\nmemcpy,memcpy,DtoH,,3\n",
                      "t.csv:2: a memcpy row needs bytes");
  assert_parse_error ("kind,name,duration_ns\nlaunch,k,3\n", "t.csv:2:1: kind \"launch\"");
  assert_parse_error ("kind,name,bytes,duration_ns\nkernel,k,64,3\n", "t.csv:2:10: a kernel row has no bytes");
  assert_parse_error ("kind,name,direction,bytes,block_x,duration_ns\nmemcpy,memcpy,HtoD,64,32,3\n",
                      "t.csv:2:23: a memcpy row has no block_x");
  assert_parse_error ("kind,name\nkernel,k\n", "t.csv:1:1: the header lacks the column \"duration_ns\"");
  assert_parse_error ("kind,name,duration_ns\nkernel,k,3,4\n", "t.csv:2:12: 4 fields where the header has 3");
  assert_parse_error ("kind,name,duration_ns,kind\n", "t.csv:1:23: column \"kind\" appears twice");
  assert_parse_error ("kind,name,duration_ns\nkernel,\"k,3\n", "t.csv:2:8: unterminated quoted field");
  assert_parse_error ("# only a comment\n", "no header line");

  /* The files beside the sample fail the same way. */
  static const char *const files[][2] = {
    { "bad-unknown-column.csv", ":1:23: unknown column \"colour\"" },
    { "bad-direction.csv", ":3:15: direction \"HostToDevice\"" },
    { "bad-number.csv", ":2:10: grid_x \"12x\"" },
  };
  for (guint i = 0; i < G_N_ELEMENTS (files); i++)
    {
      g_autofree char *path = data_path (files[i][0]);
      g_autoptr (GError) error = NULL;
      g_autoptr (GArray) rows = ws_measure_csv_load (path, &error);
      g_assert_null (rows);
      g_assert_error (error, WS_ERROR, WS_ERROR_PARSE);
      g_assert_nonnull (strstr (error->message, files[i][1]));
      g_assert_nonnull (strstr (error->message, files[i][0]));
    }
}

/* Spreadsheets save CSV with a UTF-8 byte-order mark; it used to become
 * part of the first column's name ("unknown column \"\xEF\xBB\xBFkind\""). */
static void
test_csv_byte_order_mark (void)
{
  const char *text = "\xEF\xBB\xBFkind,name,duration_ns\nkernel,k,250\nkernel,k,350\n";
  g_autoptr (GError) error = NULL;
  g_autoptr (GArray) rows = ws_measure_csv_parse (text, strlen (text), "bom.csv", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (rows->len, ==, 2);
  g_assert_cmpstr (g_array_index (rows, WsMeasurement, 0).name, ==, "k");
  g_assert_cmpfloat (g_array_index (rows, WsMeasurement, 1).duration_ns, ==, 350);
  /* After the mark, a misspelt column still names its place. */
  assert_parse_error ("\xEF\xBB\xBFkind,nme,duration_ns\n", "t.csv:1:6: unknown column \"nme\"");
}

static void
test_csv_round_trip (void)
{
  const char *text =
    "kind,name,grid_x,grid_y,grid_z,block_x,block_y,block_z,shared_bytes,registers,direction,bytes,runs,duration_ns\n"
    "memcpy,memcpy,,,,,,,,,HtoD,1024,1,1234.5\n"
    "kernel,\"void k<int, 2>(int*)\",2,3,1,128,1,1,4096,32,,,1,0.125\n"
    "kernel,\"void k<int, 2>(int*)\",2,3,1,128,1,1,4096,32,,,1,1e9\n";
  g_autoptr (GError) error = NULL;
  g_autoptr (GArray) rows = ws_measure_csv_parse (text, strlen (text), "raw.csv", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (rows->len, ==, 3);
  /* No occurrence column: computed from the order. */
  g_assert_cmpuint (g_array_index (rows, WsMeasurement, 2).occurrence, ==, 1);
  g_assert_cmpstr (g_array_index (rows, WsMeasurement, 1).name, ==, "void k<int, 2>(int*)");
  g_autofree char *out = ws_measure_csv_format (rows);
  g_autoptr (GArray) again = ws_measure_csv_parse (out, strlen (out), "out.csv", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (again->len, ==, rows->len);
  for (guint i = 0; i < rows->len; i++)
    {
      const WsMeasurement *a = &g_array_index (rows, WsMeasurement, i), *b = &g_array_index (again, WsMeasurement, i);
      g_assert_cmpint (a->kind, ==, b->kind);
      g_assert_cmpstr (a->name, ==, b->name);
      g_assert_cmpuint (a->occurrence, ==, b->occurrence);
      g_assert_cmpmem (a->grid, sizeof a->grid, b->grid, sizeof b->grid);
      g_assert_cmpmem (a->block, sizeof a->block, b->block, sizeof b->block);
      g_assert_cmpuint (a->shared_bytes, ==, b->shared_bytes);
      g_assert_cmpuint (a->registers, ==, b->registers);
      g_assert_cmpint (a->direction, ==, b->direction);
      g_assert_cmpuint (a->bytes, ==, b->bytes);
      g_assert_cmpfloat (a->duration_ns, ==, b->duration_ns);
    }
  g_autofree char *out2 = ws_measure_csv_format (again);
  g_assert_cmpstr (out, ==, out2);
}

static GArray *
run_of (const char *text)
{
  GError *error = NULL;
  GArray *rows = ws_measure_csv_parse (text, strlen (text), "run.csv", &error);
  g_assert_no_error (error);
  return rows;
}

static void
test_median_over_runs (void)
{
  const char *head = "kind,name,grid_x,block_x,direction,bytes,duration_ns\n";
  g_autoptr (GPtrArray) runs = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
  g_autofree char *r1 = g_strconcat (head,
                                     "kernel,a,4,64,,,100\nkernel,a,4,64,,,900\nkernel,a,8,64,,,50\n"
                                     "memcpy,memcpy,,,HtoD,16,7\n",
                                     NULL);
  g_autofree char *r2 = g_strconcat (head,
                                     "kernel,a,4,64,,,300\nkernel,a,4,64,,,700\nkernel,a,8,64,,,70\n"
                                     "memcpy,memcpy,,,HtoD,16,9\n",
                                     NULL);
  g_autofree char *r3 = g_strconcat (head, "kernel,a,4,64,,,200\nkernel,a,4,64,,,800\nkernel,a,8,64,,,60\n", NULL);
  g_ptr_array_add (runs, run_of (r1));
  g_ptr_array_add (runs, run_of (r2));
  g_ptr_array_add (runs, run_of (r3));
  g_autoptr (GArray) med = ws_measure_median (runs);
  g_assert_cmpuint (med->len, ==, 4);
  const WsMeasurement *m = &g_array_index (med, WsMeasurement, 0);
  /* Occurrence 0 and 1 of the same launch configuration stay apart. */
  g_assert_cmpuint (m->occurrence, ==, 0);
  g_assert_cmpfloat (m->duration_ns, ==, 200);
  g_assert_cmpuint (m->runs, ==, 3);
  m = &g_array_index (med, WsMeasurement, 1);
  g_assert_cmpuint (m->occurrence, ==, 1);
  g_assert_cmpfloat (m->duration_ns, ==, 800);
  m = &g_array_index (med, WsMeasurement, 2);
  g_assert_cmpuint (m->grid[0], ==, 8);
  g_assert_cmpfloat (m->duration_ns, ==, 60);
  /* Two samples: the mean of the middle pair. */
  m = &g_array_index (med, WsMeasurement, 3);
  g_assert_cmpuint (m->runs, ==, 2);
  g_assert_cmpfloat (m->duration_ns, ==, 8);
}

static void
test_store_round_trip (void)
{
  TmpStore t;
  tmp_store_init (&t);
  g_autoptr (GError) error = NULL;
  g_autofree char *path = data_path ("synthetic-saxpy2.csv");
  g_autoptr (WsMeasurementSet) set = ws_measurement_set_new ("saxpy2", "GTX 970");
  set->rows = ws_measure_csv_load (path, &error);
  g_assert_no_error (error);
  set->source = g_strdup (path);
  g_ptr_array_add (set->analytic, g_strdup ("/x/a.json"));
  g_assert_true (ws_measure_store_put (t.store, set, FALSE, &error));
  g_assert_no_error (error);
  /* Same name again: refused unless replacing. */
  g_assert_false (ws_measure_store_put (t.store, set, FALSE, &error));
  g_assert_error (error, WS_ERROR, WS_ERROR_DUPLICATE);
  g_clear_error (&error);
  g_assert_true (ws_measure_store_put (t.store, set, TRUE, &error));

  g_autoptr (WsMeasurementSet) got = ws_measure_store_get (t.store, "SAXPY2", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (got->gpu, ==, "GTX 970");
  g_assert_cmpstr (got->source, ==, path);
  g_assert_cmpuint (got->analytic->len, ==, 1);
  g_assert_cmpstr (got->analytic->pdata[0], ==, "/x/a.json");
  g_autofree char *a = ws_measure_csv_format (set->rows);
  g_autofree char *b = ws_measure_csv_format (got->rows);
  g_assert_cmpstr (a, ==, b);

  g_autoptr (GPtrArray) list = ws_measure_store_list (t.store, &error);
  g_assert_cmpuint (list->len, ==, 1);
  g_assert_true (ws_measure_store_delete (t.store, "saxpy2", &error));
  g_autoptr (WsMeasurementSet) gone = ws_measure_store_get (t.store, "saxpy2", &error);
  g_assert_null (gone);
  g_assert_error (error, WS_ERROR, WS_ERROR_NOT_FOUND);
  tmp_store_clear (&t);
}

/* Table 6.2, GTX 970 test bed. */
static const struct {
  double ts, lambda;
} table62[2] = { { 0.00397e-3, 0.689 }, { 0.00516e-3, 0.653 } };
static const double table62_bw = 15.8;

static guint
synth_link (int dir, double noise, gsl_rng *rng, double *bytes, double *secs)
{
  guint n = 0;
  for (double size = 4; size <= 2.0 * 1024 * 1024 * 1024; size *= 4)
    {
      double t = table62[dir].ts + size / (table62_bw * 1e9 * table62[dir].lambda);
      if (rng != NULL)
        t *= 1 + gsl_ran_gaussian (rng, noise);
      bytes[n] = size;
      secs[n] = t;
      n++;
    }
  return n;
}

static void
test_fit_link_noiseless (void)
{
  for (int dir = 0; dir < 2; dir++)
    {
      double bytes[64], secs[64];
      guint n = synth_link (dir, 0, NULL, bytes, secs);
      WsLinkFit fit;
      g_autoptr (GError) error = NULL;
      g_assert_true (ws_measure_fit_link (bytes, secs, n, table62_bw, &fit, &error));
      g_assert_no_error (error);
      assert_rel (fit.startup_s, table62[dir].ts, 1e-9);
      assert_rel (fit.lambda, table62[dir].lambda, 1e-9);
      g_assert_cmpfloat (fit.bandwidth_gbs, ==, table62_bw);
      g_assert_cmpuint (fit.n_points, ==, n);
      g_assert_cmpfloat (fit.rms_rel_error, <, 1e-12);
    }
}

static void
test_fit_link_noisy (void)
{
  gsl_rng *rng = gsl_rng_alloc (gsl_rng_mt19937);
  gsl_rng_set (rng, 20261122);
  for (int dir = 0; dir < 2; dir++)
    {
      /* Ten runs of each size with 2% multiplicative noise. */
      double bytes[640], secs[640];
      guint n = 0;
      for (int r = 0; r < 10; r++)
        n += synth_link (dir, 0.02, rng, bytes + n, secs + n);
      WsLinkFit fit;
      g_autoptr (GError) error = NULL;
      g_assert_true (ws_measure_fit_link (bytes, secs, n, table62_bw, &fit, &error));
      assert_rel (fit.startup_s, table62[dir].ts, 0.02);
      assert_rel (fit.lambda, table62[dir].lambda, 0.01);
      g_assert_cmpfloat (fit.rms_rel_error, >, 0.01);
      g_assert_cmpfloat (fit.rms_rel_error, <, 0.04);
    }
  gsl_rng_free (rng);
}

static void
test_fit_link_rejects (void)
{
  double bytes[2] = { 4096, 4096 }, secs[2] = { 1e-5, 1.1e-5 };
  WsLinkFit fit;
  g_autoptr (GError) error = NULL;
  g_assert_false (ws_measure_fit_link (bytes, secs, 2, 15.8, &fit, &error));
  g_assert_error (error, WS_ERROR, WS_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, "two different sizes"));
  g_clear_error (&error);
  double bytes2[2] = { 1, 1e9 }, secs2[2] = { 1e-3, 1e-5 };
  g_assert_false (ws_measure_fit_link (bytes2, secs2, 2, 15.8, &fit, &error));
  g_assert_nonnull (strstr (error->message, "do not grow"));
  g_clear_error (&error);
  g_assert_false (ws_measure_fit_link (bytes2, secs2, 2, 0, &fit, &error));
  g_assert_nonnull (strstr (error->message, "bandwidth"));
}

static void
test_pcie_bandwidth (void)
{
  /* Seed 004: PCIe 3.1 x16 is 15.8 GB/s per direction after 128b/130b. */
  g_assert_cmpfloat (fabs (ws_measure_pcie_bandwidth_gbs (3, 16) - 15.75), <, 0.01);
  g_assert_cmpfloat (ws_measure_pcie_bandwidth_gbs (2, 4), ==, 2.0);
  g_assert_cmpfloat (ws_measure_pcie_bandwidth_gbs (0, 16), ==, 0);
}

static void
test_fit_kernel_synthetic (void)
{
  /* Seed 004 §6.1: λk = 0.703787 on the GTX 970. */
  const double lambda = 0.703787;
  double model[12], meas[12];
  for (int i = 0; i < 12; i++)
    {
      model[i] = 1e-5 * (1 << i);
      meas[i] = model[i] / lambda;
    }
  WsKernelFit fit;
  g_autoptr (GError) error = NULL;
  g_assert_true (ws_measure_fit_kernel (model, meas, 12, &fit, &error));
  assert_rel (fit.lambda, lambda, 1e-12);
  g_assert_cmpuint (fit.n_points, ==, 12);

  gsl_rng *rng = gsl_rng_alloc (gsl_rng_mt19937);
  gsl_rng_set (rng, 7);
  for (int i = 0; i < 12; i++)
    meas[i] = model[i] / lambda * (1 + gsl_ran_gaussian (rng, 0.03));
  g_assert_true (ws_measure_fit_kernel (model, meas, 12, &fit, &error));
  assert_rel (fit.lambda, lambda, 0.03);
  g_assert_cmpfloat (fit.rms_rel_error, >, 0.005);
  gsl_rng_free (rng);

  /* One launch: seed 004's ratio T_estimated / T_measured. */
  double m1 = 2e-3, t1 = 3e-3;
  g_assert_true (ws_measure_fit_kernel (&m1, &t1, 1, &fit, &error));
  assert_rel (fit.lambda, 2.0 / 3.0, 1e-15);
  g_assert_false (ws_measure_fit_kernel (&m1, &t1, 0, &fit, &error));
  g_assert_error (error, WS_ERROR, WS_ERROR_INVALID);
}

/* End to end: modelled times by the volkov plugin (λ = 1) on an analytic
 * kernel, "measured" times generated from them with a known λk and eq. 4.6
 * copies; calibration recovers both and stores them for lookup. */
static void
test_calibrate_set_analytic (void)
{
  TmpStore t;
  tmp_store_init (&t);
  g_autoptr (GError) error = NULL;
  g_autoptr (WsGpu) gpu = ws_store_get_gpu (t.store, "GTX 970", &error);
  g_assert_no_error (error);
  g_autoptr (GPtrArray) plugins = ws_predictor_scan ();
  WsPredictorPlugin *volkov = ws_predictor_find (plugins, "volkov", &error);
  g_assert_no_error (error);
  g_autofree char *analytic = data_path ("saxpy2-analytic.json");
  g_autoptr (WsAnalyticKernel) base = ws_analytic_kernel_load (analytic, &error);
  g_assert_no_error (error);
  g_autoptr (GHashTable) options = g_hash_table_new (g_str_hash, g_str_equal);
  g_hash_table_insert (options, "lambda", "1");

  const double lambda_true = 0.703787;
  g_autoptr (WsMeasurementSet) set = ws_measurement_set_new ("synthetic", "GTX 970");
  g_ptr_array_add (set->analytic, g_strdup (analytic));
  set->rows = ws_measurements_new ();
  for (guint grid = 64; grid <= 65536; grid *= 4)
    {
      ws_analytic_kernel_set (base, "grid_size", grid);
      g_autoptr (WsPrediction) p = ws_predict_analytic (volkov, gpu, base, options, &error);
      g_assert_no_error (error);
      g_assert_cmpfloat (p->seconds, >, 0);
      WsMeasurement m = { .kind = WS_MEASURE_KERNEL,
                          .name = g_strdup (base->name),
                          .grid = { grid, 1, 1 },
                          .block = { 256, 1, 1 },
                          .registers = 8,
                          .direction = WS_MEMCPY_NONE,
                          .runs = 10,
                          .duration_ns = p->seconds / lambda_true * 1e9 };
      g_array_append_val (set->rows, m);
      for (int dir = 0; dir < 2; dir++)
        {
          double bytes = grid * 256.0 * 4;
          WsMeasurement c = { .kind = WS_MEASURE_MEMCPY,
                              .name = g_strdup ("memcpy"),
                              .direction = dir,
                              .bytes = (guint64) bytes,
                              .runs = 10,
                              .duration_ns = (table62[dir].ts + bytes / (table62_bw * 1e9 * table62[dir].lambda))
                                             * 1e9 };
          g_array_append_val (set->rows, c);
        }
    }
  ws_measure_assign_occurrences (set->rows);
  g_assert_true (ws_measure_store_put (t.store, set, FALSE, &error));

  double lambda = 0;
  g_assert_false (ws_measure_lookup_lambda (t.store, base->name, "Maxwell", &lambda, &error));
  g_assert_no_error (error);

  WsCalibrateOptions o = { .link = "PCIe 3.1 x16 (GTX 970 test bed)",
                           .bandwidth_gbs = table62_bw,
                           .update_link = TRUE };
  g_autoptr (JsonNode) result = ws_measure_calibrate_lambda (t.store, "synthetic", &o, &error);
  g_assert_no_error (error);
  JsonArray *a = json_node_get_array (result);
  g_assert_cmpuint (json_array_get_length (a), ==, 3);
  JsonObject *k = json_array_get_object_element (a, 0);
  g_assert_cmpstr (json_object_get_string_member (k, "architecture"), ==, "Maxwell");
  assert_rel (json_object_get_double_member (k, "lambda"), lambda_true, 1e-9);
  for (int dir = 0; dir < 2; dir++)
    {
      JsonObject *l = json_array_get_object_element (a, 1 + dir);
      g_assert_cmpstr (json_object_get_string_member (l, "direction"), ==, dir ? "DtoH" : "HtoD");
      assert_rel (json_object_get_double_member (l, "lambda"), table62[dir].lambda, 1e-9);
      assert_rel (json_object_get_double_member (l, "startup_s"), table62[dir].ts, 1e-9);
    }

  g_assert_true (ws_measure_lookup_lambda (t.store, base->name, "maxwell", &lambda, &error));
  assert_rel (lambda, lambda_true, 1e-9);
  g_assert_false (ws_measure_lookup_lambda (t.store, base->name, "Pascal", &lambda, &error));
  /* What `predict --model volkov` does when the user gives no lambda. */
  g_autoptr (GHashTable) user = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_assert_true (ws_measure_apply_lambda (t.store, base->name, "Maxwell", user, &error));
  assert_rel (g_ascii_strtod (g_hash_table_lookup (user, "lambda"), NULL), lambda_true, 1e-9);
  g_hash_table_replace (user, g_strdup ("lambda"), g_strdup ("0.5"));
  g_assert_false (ws_measure_apply_lambda (t.store, base->name, "Maxwell", user, &error));
  g_assert_cmpstr (g_hash_table_lookup (user, "lambda"), ==, "0.5");
  g_hash_table_remove_all (user);
  g_assert_false (ws_measure_apply_lambda (t.store, base->name, "Hopper", user, &error));
  g_assert_no_error (error);
  g_assert_false (g_hash_table_contains (user, "lambda"));

  /* --update-link wrote the fit into the catalogue's link record. */
  g_autoptr (WsLink) link = ws_store_get_link (t.store, o.link, &error);
  g_assert_no_error (error);
  assert_rel (link->h2d_startup_us, 3.97, 1e-9);
  assert_rel (link->d2h_lambda, 0.653, 1e-9);
  g_assert_nonnull (strstr (link->sources, "calibrated by warpscope-cli calibrate lambda"));

  g_autoptr (JsonNode) all = ws_measure_list_lambdas (t.store, &error);
  g_assert_cmpuint (json_array_get_length (json_node_get_array (all)), ==, 3);

  /* A kernel the set does not have, and a set without a model source. */
  WsCalibrateOptions only = { .kernel = "nope" };
  g_autoptr (JsonNode) none = ws_measure_calibrate_lambda (t.store, "synthetic", &only, &error);
  g_assert_null (none);
  g_assert_error (error, WS_ERROR, WS_ERROR_NOT_FOUND);
  g_clear_error (&error);
  g_ptr_array_set_size (set->analytic, 0);
  g_free (set->name);
  set->name = g_strdup ("no-model");
  g_assert_true (ws_measure_store_put (t.store, set, FALSE, &error));
  g_autoptr (JsonNode) nomodel = ws_measure_calibrate_lambda (t.store, "no-model", NULL, &error);
  g_assert_null (nomodel);
  g_assert_error (error, WS_ERROR, WS_ERROR_NOT_FOUND);
  g_assert_nonnull (strstr (error->message, "--analytic"));
  tmp_store_clear (&t);
}

/* ------------------------------------------------------------------------ */
/* The command line */

static int
run_cli (const char *db, char **out, char **err, ...)
{
  g_autoptr (GPtrArray) args = g_ptr_array_new ();
  g_ptr_array_add (args, (char *) g_getenv ("WS_CLI"));
  g_ptr_array_add (args, "--db");
  g_ptr_array_add (args, (char *) db);
  va_list ap;
  va_start (ap, err);
  const char *a;
  while ((a = va_arg (ap, const char *)) != NULL)
    g_ptr_array_add (args, (char *) a);
  va_end (ap);
  g_ptr_array_add (args, NULL);
  int status = 0;
  GError *error = NULL;
  g_assert_true (
    g_spawn_sync (NULL, (char **) args->pdata, NULL, G_SPAWN_DEFAULT, NULL, NULL, out, err, &status, &error));
  g_assert_no_error (error);
  g_assert_true (WIFEXITED (status));
  return WEXITSTATUS (status);
}

static gboolean
have_gpu_nodes (void)
{
  return g_file_test ("/dev/nvidia0", G_FILE_TEST_EXISTS);
}

static void
test_cli_measure_no_gpu (void)
{
  if (have_gpu_nodes ())
    {
      g_test_skip ("this machine has an NVIDIA GPU");
      return;
    }
  TmpStore t;
  tmp_store_init (&t);
  g_autofree char *csv = g_build_filename (t.dir, "m.csv", NULL);
  g_autofree char *out = NULL, *err = NULL;
  int rc = run_cli (t.db, &out, &err, "measure", "-n", "3", "-o", csv, "--", "/bin/true", NULL);
  g_assert_cmpint (rc, ==, 3);
  g_assert_nonnull (strstr (err, "no NVIDIA GPU is present: measure needs one ("));
  g_assert_false (g_file_test (csv, G_FILE_TEST_EXISTS));
  /* Bad usage still says so first. */
  g_clear_pointer (&err, g_free);
  g_clear_pointer (&out, g_free);
  rc = run_cli (t.db, &out, &err, "measure", "--", "/bin/true", NULL);
  g_assert_cmpint (rc, ==, 2);
  tmp_store_clear (&t);
}

static void
test_cli_calibrate_no_gpu (void)
{
  if (have_gpu_nodes ())
    {
      g_test_skip ("this machine has an NVIDIA GPU");
      return;
    }
  TmpStore t;
  tmp_store_init (&t);
  g_autofree char *out = NULL, *err = NULL;
  int rc = run_cli (t.db, &out, &err, "calibrate", "--gpu", "H100 SXM", NULL);
  g_assert_cmpint (rc, ==, 3);
  g_assert_nonnull (strstr (err, "no NVIDIA GPU is present: calibrate needs one ("));
  /* The catalogue entry is untouched. */
  g_autoptr (GError) error = NULL;
  g_autoptr (WsGpu) gpu = ws_store_get_gpu (t.store, "H100 SXM", &error);
  g_assert_no_error (error);
  g_assert_null (strstr (gpu->sources, "warpscope-cli calibrate"));
  tmp_store_clear (&t);
}

static void
test_cli_measurements (void)
{
  TmpStore t;
  tmp_store_init (&t);
  g_clear_pointer (&t.store, ws_store_close);
  g_autofree char *csv = data_path ("synthetic-saxpy2.csv");
  g_autofree char *analytic = data_path ("saxpy2-analytic.json");
  g_autofree char *out = NULL, *err = NULL;
  int rc = run_cli (t.db, &out, &err, "--json", "measurements", "import", csv, "--gpu", "gtx 970", "--analytic",
                    analytic, NULL);
  g_assert_cmpint (rc, ==, 0);
  g_assert_nonnull (strstr (out, "\"name\" : \"synthetic-saxpy2\""));
  g_assert_nonnull (strstr (out, "\"kernels\" : 4"));
  g_assert_nonnull (strstr (out, "\"memcpys\" : 9"));

  /* Export reproduces the file's rows. */
  g_autofree char *exported = g_build_filename (t.dir, "e.csv", NULL);
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  rc = run_cli (t.db, &out, &err, "measurements", "export", "synthetic-saxpy2", "-o", exported, NULL);
  g_assert_cmpint (rc, ==, 0);
  g_autoptr (GError) error = NULL;
  g_autoptr (GArray) a = ws_measure_csv_load (csv, &error);
  g_autoptr (GArray) b = ws_measure_csv_load (exported, &error);
  g_assert_no_error (error);
  g_autofree char *fa = ws_measure_csv_format (a);
  g_autofree char *fb = ws_measure_csv_format (b);
  g_assert_cmpstr (fa, ==, fb);

  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  rc = run_cli (t.db, &out, &err, "measurements", "list", NULL);
  g_assert_cmpint (rc, ==, 0);
  g_assert_nonnull (strstr (out, "synthetic-saxpy2"));
  g_assert_nonnull (strstr (out, "GTX 970"));

  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  rc = run_cli (t.db, &out, &err, "measurements", "show", "synthetic-saxpy2", NULL);
  g_assert_cmpint (rc, ==, 0);
  g_assert_nonnull (strstr (out, "_Z6saxpy2ifPfS_i"));
  g_assert_nonnull (strstr (out, "4096x1x1/256x1x1"));

  /* Calibration from the set: λk against the analytic kernel, λc per
   * direction against the GPU's PCIe 3 x16 (15.75 GB/s). */
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  rc = run_cli (t.db, &out, &err, "--json", "calibrate", "lambda", "--gpu", "GTX 970", "--set", "synthetic-saxpy2",
                "--bandwidth", "15.8", NULL);
  g_assert_cmpint (rc, ==, 0);
  g_autoptr (JsonNode) res = json_from_string (out, &error);
  g_assert_no_error (error);
  JsonArray *arr = json_node_get_array (res);
  g_assert_cmpuint (json_array_get_length (arr), ==, 3);
  JsonObject *htod = json_array_get_object_element (arr, 1);
  g_assert_cmpstr (json_object_get_string_member (htod, "direction"), ==, "HtoD");
  /* The CSV rounds durations to 0.1 ns. */
  assert_rel (json_object_get_double_member (htod, "lambda"), 0.689, 1e-5);
  assert_rel (json_object_get_double_member (htod, "startup_s"), 3.97e-6, 1e-3);

  /* Wrong GPU, unknown set, malformed file. */
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  rc = run_cli (t.db, &out, &err, "calibrate", "lambda", "--gpu", "H100 SXM", "--set", "synthetic-saxpy2", NULL);
  g_assert_cmpint (rc, ==, 2);
  g_assert_nonnull (strstr (err, "was measured on GTX 970"));
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  rc = run_cli (t.db, &out, &err, "measurements", "show", "nope", NULL);
  g_assert_cmpint (rc, ==, 2);
  g_autofree char *bad = data_path ("bad-direction.csv");
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  rc = run_cli (t.db, &out, &err, "measurements", "import", bad, "--gpu", "GTX 970", NULL);
  g_assert_cmpint (rc, ==, 2);
  g_assert_nonnull (strstr (err, "bad-direction.csv:3:15: direction \"HostToDevice\""));
  tmp_store_clear (&t);
}

/* The CUPTI injection library exists where CUPTI does, and exports the
 * entry point the CUDA driver calls. */
static void
test_injection_library_built (void)
{
  const char *lib = g_getenv ("WS_CUPTI_INJECT");
  if (lib == NULL || *lib == '\0')
    {
      g_test_skip ("CUPTI was not found at configure time: the injection library is not built");
      return;
    }
  g_assert_true (g_file_test (lib, G_FILE_TEST_IS_REGULAR));
  g_autofree char *out = NULL;
  int status = 0;
  const char *argv[] = { "nm", "-D", "--defined-only", lib, NULL };
  GError *error = NULL;
  if (!g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, &out,
                     NULL, &status, &error))
    {
      g_test_skip ("nm is not installed");
      g_clear_error (&error);
      return;
    }
  g_assert_nonnull (strstr (out, " T InitializeInjection"));
  /* Nothing else leaks into the measured program's symbol space. */
  g_auto (GStrv) lines = g_strsplit (out, "\n", -1);
  guint text = 0;
  for (guint i = 0; lines[i]; i++)
    text += strstr (lines[i], " T ") != NULL;
  g_assert_cmpuint (text, ==, 1);
  /* The measure command finds it. */
  g_setenv ("WARPSCOPE_CUPTI_LIBRARY", lib, TRUE);
  g_autofree char *found = ws_measure_injection_library (NULL);
  g_assert_cmpstr (found, ==, lib);
  g_setenv ("WARPSCOPE_CUPTI_LIBRARY", "/nonexistent/lib.so", TRUE);
  g_autofree char *why = NULL;
  g_assert_null (ws_measure_injection_library (&why));
  g_assert_nonnull (strstr (why, "not built"));
  g_unsetenv ("WARPSCOPE_CUPTI_LIBRARY");
}

/* What `calibrate --gpu` does with the benchmark's output, on a synthetic
 * output (the benchmark itself needs a GPU). */
static void
test_apply_benchmark_output (void)
{
  TmpStore t;
  tmp_store_init (&t);
  g_autoptr (GError) error = NULL;
  g_autoptr (WsGpu) gpu = ws_store_get_gpu (t.store, "H100 SXM", &error);
  g_assert_no_error (error);
  g_autoptr (GString) out = g_string_new ("device NVIDIA H100 80GB HBM3\ncc 9.0\nsms 132\ncore_clock_mhz 1980.0\n"
                                          "l1_latency 33.5\nl2_latency 261.25\ndram_latency 640\n"
                                          "shared_latency 29.5\nshared_stride_1_cycles 30.0\n"
                                          "shared_bank_conflict_cycles_per_way 2.125\n"
                                          "fp32_latency 4.0\nfp32_warp_insts_per_cycle_per_sm 4.0\n"
                                          "int_latency 4.5\nint_warp_insts_per_cycle_per_sm 2.0\n"
                                          "sfu_latency 18\nsfu_warp_insts_per_cycle_per_sm 0.5\n"
                                          "fp64_latency 8\nfp64_warp_insts_per_cycle_per_sm 2.0\n");
  /* Eq. 4.6 with t_s 10 µs / 12 µs and λc 0.8 / 0.75 on PCIe 5 x16. */
  double nominal = ws_measure_pcie_bandwidth_gbs (5, 16);
  for (double n = 4; n <= 256.0 * 1024 * 1024; n *= 4)
    {
      char a[G_ASCII_DTOSTR_BUF_SIZE], b[G_ASCII_DTOSTR_BUF_SIZE];
      g_string_append_printf (out, "pcie HtoD %.0f %s\n", n,
                              g_ascii_dtostr (a, sizeof a, 10e-6 + n / (nominal * 1e9 * 0.8)));
      g_string_append_printf (out, "pcie DtoH %.0f %s\n", n,
                              g_ascii_dtostr (b, sizeof b, 12e-6 + n / (nominal * 1e9 * 0.75)));
    }
  double bank = 0;
  g_autoptr (WsLink) link = ws_measure_apply_benchmark (gpu, out->str, "2026-11-22", &bank, &error);
  g_assert_no_error (error);
  g_assert_cmpfloat (gpu->l1_latency, ==, 33.5);
  g_assert_cmpfloat (gpu->l2_latency, ==, 261.25);
  g_assert_cmpfloat (gpu->dram_latency, ==, 640);
  g_assert_cmpfloat (gpu->pipes[WS_ICLASS_GLOBAL].latency, ==, 640);
  g_assert_cmpfloat (gpu->pipes[WS_ICLASS_SHARED].latency, ==, 29.5);
  g_assert_cmpfloat (gpu->pipes[WS_ICLASS_SFU].latency, ==, 18);
  /* 4 schedulers: 4 warp instructions per cycle per SM is one per cycle
   * per scheduler; 0.5 per SM is one every 8 cycles per scheduler. */
  g_assert_cmpfloat (gpu->pipes[WS_ICLASS_FP32].initiation_interval, ==, 1);
  g_assert_cmpfloat (gpu->pipes[WS_ICLASS_INT].initiation_interval, ==, 2);
  g_assert_cmpfloat (gpu->pipes[WS_ICLASS_SFU].initiation_interval, ==, 8);
  g_assert_cmpfloat (gpu->pipes[WS_ICLASS_FP64].initiation_interval, ==, 2);
  g_assert_cmpint (gpu->sms, ==, 132);
  g_assert_cmpfloat (bank, ==, 2.125);
  g_assert_nonnull (strstr (gpu->sources, "measured by warpscope-cli calibrate"));
  g_assert_nonnull (strstr (gpu->sources, "2026-11-22"));
  g_assert_cmpstr (link->name, ==, "H100 SXM PCIe");
  assert_rel (link->h2d_startup_us, 10, 1e-6);
  assert_rel (link->h2d_lambda, 0.8, 1e-6);
  assert_rel (link->d2h_startup_us, 12, 1e-6);
  assert_rel (link->d2h_lambda, 0.75, 1e-6);
  g_assert_cmpfloat (link->h2d_bandwidth_gbs, ==, nominal);
  /* The results are valid catalogue records. */
  g_assert_true (ws_store_put_gpu (t.store, gpu, TRUE, &error));
  g_assert_no_error (error);
  g_assert_true (ws_store_put_link (t.store, link, TRUE, &error));
  g_assert_no_error (error);

  g_autoptr (WsLink) none = ws_measure_apply_benchmark (gpu, "l1_latency 3\nl2_latency oops\n", "x", NULL, &error);
  g_assert_null (none);
  g_assert_error (error, WS_ERROR, WS_ERROR_PARSE);
  g_assert_nonnull (strstr (error->message, "line 2"));
  g_clear_error (&error);
  none = ws_measure_apply_benchmark (gpu, "l1_latency 3\n", "x", NULL, &error);
  g_assert_null (none);
  g_assert_error (error, WS_ERROR, WS_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, "lacks l2_latency"));
  tmp_store_clear (&t);
}

/* The calibration micro-benchmarks compile (they can only run on a GPU). */
static void
test_calibration_benchmarks_compile (void)
{
  const char *nvcc = g_getenv ("WS_NVCC");
  if (nvcc == NULL || *nvcc == '\0')
    {
      g_test_skip ("nvcc was not found at configure time");
      return;
    }
  g_autofree char *src = g_build_filename (g_getenv ("WS_SOURCE_DIR"), "bench", "calibration", "ws-calibrate.cu", NULL);
  GError *error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("ws-test-calib-XXXXXX", &error);
  g_assert_no_error (error);
  g_autofree char *obj = g_build_filename (dir, "ws-calibrate.o", NULL);
  const char *argv[] = { nvcc, "-O2", "-arch=sm_90", "-c", "-o", obj, src, NULL };
  g_autofree char *err = NULL;
  int status = 0;
  g_assert_true (
    g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, NULL, &err, &status, &error));
  g_assert_no_error (error);
  if (!g_spawn_check_wait_status (status, NULL))
    g_error ("nvcc failed on %s:\n%s", src, err);
  g_assert_true (g_file_test (obj, G_FILE_TEST_IS_REGULAR));
  g_unlink (obj);
  g_rmdir (dir);
}

/* ---- measured sweep times (issue 16: one reader, by column name) ---------- */

static void
assert_times (GArray *times, const double *xs, const double *secs, guint n)
{
  g_assert_nonnull (times);
  g_assert_cmpuint (times->len, ==, n);
  for (guint i = 0; i < n; i++)
    {
      g_assert_cmpfloat (g_array_index (times, WsMeasuredTime, i).x, ==, xs[i]);
      g_assert_cmpfloat (g_array_index (times, WsMeasuredTime, i).seconds, ==, secs[i]);
    }
}

static void
test_times_columns_by_name (void)
{
  static const double xs[] = { 1024, 2048 }, secs[] = { 0.5, 1.25 };
  static const char *const texts[] = {
    "x,seconds\n1024,0.5\n2048,1.25\n",
    "seconds,x\n0.5,1024\n1.25,2048\n", /* swapped: still by name */
    "# measured on a GTX 970\nN,seconds\n1024,0.5\n\n2048,1.25\n",
    "seconds,N\n0.5,1024\n1.25,2048\n",                         /* two columns: the other one is x */
    "run,seconds,N,note\n1,0.5,1024,a\n2,1.25,2048,\"b, c\"\n", /* named after the swept variable */
  };
  for (guint i = 0; i < G_N_ELEMENTS (texts); i++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (GArray) times = ws_measure_times_parse (texts[i], strlen (texts[i]), "m.csv", "N", &error);
      g_assert_no_error (error);
      assert_times (times, xs, secs, 2);
    }
}

static void
test_times_errors (void)
{
  static const struct {
    const char *text;
    const char *x_name;
    int code;
    const char *message;
  } cases[] = {
    { "x,seconds\n1024,fast\n", NULL, WS_ERROR_PARSE, "m.csv:2:6: 'fast' in column seconds is not a number" },
    { "x,time\n1024,0.5\n", NULL, WS_ERROR_INVALID, "m.csv:1:1: no column 'seconds' (it has: x, time)" },
    { "run,seconds,N\n1,0.5,1024\n", "M", WS_ERROR_INVALID, "m.csv:1:1: no x column: name it x or M" },
    { "x,seconds\n1024,-1\n", NULL, WS_ERROR_INVALID, "m.csv:2:1: a measured time cannot be negative" },
    { "x,seconds\n1024,\n", NULL, WS_ERROR_PARSE, "m.csv:2:1: the row has no seconds value" },
    { "x,seconds\n", NULL, WS_ERROR_INVALID, "m.csv has no measurements" },
  };
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (GArray)
        times = ws_measure_times_parse (cases[i].text, strlen (cases[i].text), "m.csv", cases[i].x_name, &error);
      g_assert_null (times);
      g_assert_error (error, WS_ERROR, cases[i].code);
      if (strstr (error->message, cases[i].message) == NULL)
        g_error ("case %u: \"%s\" does not contain \"%s\"", i, error->message, cases[i].message);
    }
}

/* The overlay both the CLI and the GUI draw: x on the x axis, relative
 * errors on the predicted series at the measured x. */
static void
test_times_chart_overlay (void)
{
  static const char text[] = "seconds,x\n2,10\n";
  g_autoptr (GError) error = NULL;
  g_autoptr (GArray) times = ws_measure_times_parse (text, strlen (text), "m.csv", NULL, &error);
  g_assert_no_error (error);
  g_autoptr (WsChart) chart = ws_chart_new (WS_CHART_LINE);
  guint predicted = ws_chart_add_series (chart, "model", 0);
  ws_chart_series_add_point (chart, predicted, 10, 3);
  guint m = ws_measure_times_add_series (chart, NULL, times);
  double x, y;
  g_assert_cmpint (ws_chart_find_series (chart, "measured"), ==, (int) m);
  g_assert_true (ws_chart_series_get_point (chart, m, 0, &x, &y));
  g_assert_cmpfloat (x, ==, 10);
  g_assert_cmpfloat (y, ==, 2);
  g_assert_cmpfloat_with_epsilon (ws_chart_series_get_rel_error (chart, predicted, 0), 0.5, 1e-12);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/measure/csv/parse-sample", test_csv_parse_sample);
  g_test_add_func ("/measure/csv/errors-name-line-and-column", test_csv_errors);
  g_test_add_func ("/measure/csv/format-parse-round-trip", test_csv_round_trip);
  g_test_add_func ("/measure/csv/byte-order-mark-skipped", test_csv_byte_order_mark);
  g_test_add_func ("/measure/median/per-occurrence-over-runs", test_median_over_runs);
  g_test_add_func ("/measure/times/columns-by-name-in-any-order", test_times_columns_by_name);
  g_test_add_func ("/measure/times/errors-name-file-line-column", test_times_errors);
  g_test_add_func ("/measure/times/chart-overlay-x-on-x-axis", test_times_chart_overlay);
  g_test_add_func ("/measure/store/import-export-round-trip", test_store_round_trip);
  g_test_add_func ("/measure/fit/link-table-6-2-noiseless", test_fit_link_noiseless);
  g_test_add_func ("/measure/fit/link-table-6-2-noisy", test_fit_link_noisy);
  g_test_add_func ("/measure/fit/link-rejects-unfittable", test_fit_link_rejects);
  g_test_add_func ("/measure/fit/pcie-bandwidth", test_pcie_bandwidth);
  g_test_add_func ("/measure/fit/kernel-lambda-synthetic", test_fit_kernel_synthetic);
  g_test_add_func ("/measure/calibrate/set-with-analytic-kernel", test_calibrate_set_analytic);
  g_test_add_func ("/measure/cli/measure-without-gpu-exits-3", test_cli_measure_no_gpu);
  g_test_add_func ("/measure/cli/calibrate-without-gpu-exits-3", test_cli_calibrate_no_gpu);
  g_test_add_func ("/measure/cli/measurements-import-export-calibrate", test_cli_measurements);
  g_test_add_func ("/measure/cupti/injection-library-built", test_injection_library_built);
  g_test_add_func ("/measure/bench/apply-benchmark-output", test_apply_benchmark_output);
  g_test_add_func ("/measure/bench/calibration-benchmarks-compile", test_calibration_benchmarks_compile);
  return g_test_run ();
}
