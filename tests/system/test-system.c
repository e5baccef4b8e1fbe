/* System and application models (seed 004 §5.4): validation, mapping,
 * eq. 4.6 transfers, contention, CUDA semantics, loops, sweeps, the store,
 * the demo workspace and the CLI's JSON. */
#include "system/ws-system.h"
#include "tbpoint/ws-tbpoint.h"
#include "predict/ws-predict.h"
#include "trace/ws-trace.h"
#include "sim/ws-sim.h"
#include "system-test-util.h"

#include <math.h>
#include <string.h>
#include <sqlite3.h>
#include <glib/gstdio.h>

typedef struct {
  char *dir;
  WsStore *store;
} Fixture;

static void
fixture_set_up (Fixture *f, gconstpointer data)
{
  f->store = system_test_workspace (&f->dir);
}

static void
fixture_tear_down (Fixture *f, gconstpointer data)
{
  ws_store_close (f->store);
  system_test_rm_rf (f->dir);
  g_free (f->dir);
}

static WsAppModel *
app_from (const char *text)
{
  g_autoptr (JsonNode) n = system_test_parse (text);
  g_autoptr (GError) error = NULL;
  WsAppModel *app = ws_app_model_from_json (n, &error);
  g_assert_no_error (error);
  return app;
}

static WsSystemModel *
system_from (const char *text)
{
  g_autoptr (JsonNode) n = system_test_parse (text);
  g_autoptr (GError) error = NULL;
  WsSystemModel *s = ws_system_model_from_json (n, &error);
  g_assert_no_error (error);
  return s;
}

static WsSystemResult *
run (Fixture *f, const WsSystemModel *s, const WsAppModel *app, GHashTable *over)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WsSystemEnv) env = ws_system_env_new (f->store, s, NULL, &error);
  g_assert_no_error (error);
  WsSystemResult *r = ws_system_evaluate (env, app, over, &error);
  g_assert_no_error (error);
  g_assert_true (r->ok);
  return r;
}

static char *
run_error (Fixture *f, const WsSystemModel *s, const WsAppModel *app)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WsSystemEnv) env = ws_system_env_new (f->store, s, NULL, &error);
  g_assert_no_error (error);
  g_autoptr (WsSystemResult) r = ws_system_evaluate (env, app, NULL, &error);
  g_assert_null (r);
  g_assert_error (error, WS_ERROR, WS_ERROR_INVALID);
  return g_strdup (error->message);
}

static const WsSystemOpRecord *
op_at (const WsSystemResult *r, guint i)
{
  g_assert_cmpuint (i, <, r->operations->len);
  return r->operations->pdata[i];
}

static double
busy_of (const WsSystemResult *r, const char *component)
{
  for (guint i = 0; i < r->busy_components->len; i++)
    if (strcmp (r->busy_components->pdata[i], component) == 0)
      return g_array_index (r->busy_seconds, double, i);
  g_assert_not_reached ();
  return 0;
}

/* ---- transfers: eq. 4.6 with Table 6.2 ----------------------------------- */

static void
test_transfer_table_6_2 (Fixture *f, gconstpointer data)
{
  /* Hand-computed from seed 004 Table 6.2: t_s + n / (bw x lambda_c), n = 1 MiB. */
  static const struct {
    const char *system;
    double h2d, d2h;
  } beds[] = {
    { "testbed-gtx970", 0.000100291581451746247542760559240, 0.000106791806462868552154612596197 },
    { "testbed-titanx", 0.000628524312796208530805687203791, 0.000634349833729216152019002375297 },
    { "testbed-gtx1070", 0.000171226481460737089727792091408, 0.000176768835839492538158751734489 },
  };
  g_autoptr (WsAppModel)
    h2d = app_from ("{\"name\":\"h2d\",\"variables\":[{\"name\":\"B\",\"default\":1048576}],"
                    "\"processes\":[{\"label\":\"CPU\",\"operations\":[{\"op\":\"h2d\",\"bytes\":\"B\"}]}]}");
  g_autoptr (WsAppModel) d2h = app_from ("{\"name\":\"d2h\",\"processes\":[{\"label\":\"CPU\",\"operations\":"
                                         "[{\"op\":\"d2h\",\"bytes\":\"1024*1024\"}]}]}");
  for (guint i = 0; i < G_N_ELEMENTS (beds); i++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (WsSystemModel) s = ws_system_store_get_system (f->store, beds[i].system, &error);
      g_assert_no_error (error);
      g_autoptr (WsSystemResult) a = run (f, s, h2d, NULL);
      g_autoptr (WsSystemResult) b = run (f, s, d2h, NULL);
      g_assert_cmpfloat_with_epsilon (a->total_seconds, beds[i].h2d, 1e-18);
      g_assert_cmpfloat_with_epsilon (b->total_seconds, beds[i].d2h, 1e-18);
      g_assert_cmpuint (a->operations->len, ==, 1);
      g_assert_cmpstr (op_at (a, 0)->op, ==, "h2d");
      g_assert_cmpstr (op_at (a, 0)->component, ==, "host/pcie");
      g_assert_cmpfloat (op_at (a, 0)->bytes, ==, 1048576);
      g_assert_cmpfloat (op_at (a, 0)->start, ==, 0);
      g_assert_cmpstr (op_at (b, 0)->op, ==, "d2h");
      g_assert_cmpfloat_with_epsilon (busy_of (a, "host/pcie"), beds[i].h2d, 1e-18);
    }
}

/* Two copies at once on one bus direction share its bandwidth fairly. */
static void
test_transfer_contention (Fixture *f, gconstpointer data)
{
  g_autoptr (WsSystemModel) s = system_from (
    "{\"name\":\"two-procs\",\"components\":[{\"type\":\"machine\",\"name\":\"m\",\"components\":["
    "{\"type\":\"cpu\",\"name\":\"cpu\",\"hw\":\"Core i7-4790K\",\"labels\":[{\"name\":\"CPU\",\"multiplicity\":2}]},"
    "{\"type\":\"gpu\",\"name\":\"gpu\",\"hw\":\"GTX 970\"},"
    "{\"type\":\"link\",\"name\":\"pcie\",\"hw\":\"PCIe 3.1 x16 (GTX 970 test "
    "bed)\",\"from\":\"cpu\",\"to\":\"gpu\"}]}]}");
  g_autoptr (WsAppModel) app = app_from ("{\"name\":\"pair\",\"processes\":[{\"label\":\"CPU\",\"count\":2,"
                                         "\"operations\":[{\"op\":\"h2d\",\"bytes\":\"1048576\"}]}]}");
  g_autoptr (WsSystemResult) r = run (f, s, app, NULL);
  double ts = 3.97e-6, rate = 15.8e9 * 0.689;
  /* Both stream from t_s on at half the rate: t = t_s + 2n / (bw x lambda_c). */
  g_assert_cmpfloat_with_epsilon (r->total_seconds, ts + 2 * 1048576 / rate, 1e-15);
  g_assert_cmpuint (r->operations->len, ==, 2);
  g_assert_cmpfloat_with_epsilon (op_at (r, 0)->end, op_at (r, 1)->end, 1e-15);
  /* Opposite directions do not share (full duplex); `rank` is each process's number. */
  g_autoptr (WsAppModel)
    dup = app_from ("{\"name\":\"duplex\",\"processes\":[{\"label\":\"CPU\",\"count\":2,"
                    "\"operations\":[{\"op\":\"if\",\"condition\":\"rank == 0\",\"then\":"
                    "[{\"op\":\"h2d\",\"bytes\":\"1048576\"}],\"else\":[{\"op\":\"d2h\",\"bytes\":\"1048576\"}]}]}]}");
  g_autoptr (WsSystemResult) d = run (f, s, dup, NULL);
  g_assert_cmpfloat_with_epsilon (d->total_seconds, 0.000106791806462868552154612596197, 1e-18);
  for (guint i = 0; i < d->operations->len; i++)
    if (strcmp (op_at (d, i)->op, "h2d") == 0)
      g_assert_cmpfloat_with_epsilon (op_at (d, i)->end, 0.000100291581451746247542760559240, 1e-18);
}

/* ---- two machines over a network ----------------------------------------- */

static const char
  *two_machines = "{\"kind\":\"system\",\"name\":\"cluster\",\"components\":["
                  "{\"type\":\"machine\",\"name\":\"node0\",\"components\":["
                  " {\"type\":\"cpu\",\"name\":\"cpu0\",\"hw\":\"Core i7-4790K\",\"labels\":[\"rank0\"]},"
                  " {\"type\":\"gpu\",\"name\":\"gpu0\",\"hw\":\"GTX 970\",\"labels\":[\"dev0\"]},"
                  " {\"type\":\"link\",\"name\":\"pcie0\",\"hw\":\"PCIe 3.1 x16 (GTX 970 test "
                  "bed)\",\"from\":\"cpu0\",\"to\":\"gpu0\"}]},"
                  "{\"type\":\"machine\",\"name\":\"node1\",\"components\":["
                  " {\"type\":\"cpu\",\"name\":\"cpu1\",\"hw\":\"Core i7-7700K\",\"labels\":[\"rank1\"]},"
                  " {\"type\":\"gpu\",\"name\":\"gpu1\",\"hw\":\"GTX 1070\",\"labels\":[\"dev1\"]},"
                  " {\"type\":\"link\",\"name\":\"pcie1\",\"hw\":\"PCIe 3.1 x16 (GTX 1070 test "
                  "bed)\",\"from\":\"cpu1\",\"to\":\"gpu1\"}]},"
                  "{\"type\":\"link\",\"name\":\"net\",\"hw\":\"10GbE (test)\",\"from\":\"node0\",\"to\":\"node1\"}]}";

static void
put_network_link (Fixture *f)
{
  WsLink l = { 0 };
  l.name = (char *) "10GbE (test)";
  l.type = (char *) "Network";
  l.h2d_bandwidth_gbs = 1.25;
  l.h2d_startup_us = 20;
  l.h2d_lambda = 0.9;
  l.d2h_bandwidth_gbs = 1.25;
  l.d2h_startup_us = 25;
  l.d2h_lambda = 0.8;
  l.sources = (char *) "test values";
  g_autoptr (GError) error = NULL;
  g_assert_true (ws_store_put_link (f->store, &l, TRUE, &error));
  g_assert_no_error (error);
}

static void
test_network_two_machines (Fixture *f, gconstpointer data)
{
  put_network_link (f);
  g_autoptr (WsSystemModel) s = system_from (two_machines);
  g_autoptr (GError) error = NULL;
  g_assert_true (ws_system_model_validate (s, f->store, &error));
  g_assert_no_error (error);
  /* rank0 sends to rank1 (network, forward direction), which answers; then
   * the GPUs exchange directly: gpu0 -> pcie0 (d2h) -> net -> pcie1 (h2d) -> gpu1. */
  g_autoptr (WsAppModel) app = app_from (
    "{\"name\":\"pingpong\",\"variables\":[{\"name\":\"M\",\"default\":1000000}],\"processes\":["
    "{\"label\":\"rank0\",\"operations\":[{\"op\":\"send\",\"to\":\"rank1\",\"bytes\":\"M\"},{\"op\":\"recv\",\"from\":"
    "\"rank1\"},"
    "  {\"op\":\"barrier\"}]},"
    "{\"label\":\"rank1\",\"operations\":[{\"op\":\"recv\",\"from\":\"rank0\"},{\"op\":\"send\",\"to\":\"rank0\","
    "\"bytes\":\"M/2\"},"
    "  {\"op\":\"barrier\"}]},"
    "{\"label\":\"dev0\",\"operations\":[{\"op\":\"barrier\"},{\"op\":\"send\",\"to\":\"dev1\",\"bytes\":\"M\"}]},"
    "{\"label\":\"dev1\",\"operations\":[{\"op\":\"barrier\"},{\"op\":\"recv\",\"from\":\"dev0\"}]}]}");
  g_autoptr (WsSystemResult) r = run (f, s, app, NULL);
  double m = 1e6;
  double fwd = 20e-6 + m / (1.25e9 * 0.9);
  double back = 25e-6 + (m / 2) / (1.25e9 * 0.8);
  double t_barrier = fwd + back;
  double gpu_hops = (5.16e-6 + m / (15.8e9 * 0.653)) + fwd + (24.4e-6 + m / (15.8e9 * 0.452));
  g_assert_cmpfloat_with_epsilon (r->total_seconds, t_barrier + gpu_hops, 1e-15);
  gboolean seen_route = FALSE, seen_pong = FALSE;
  for (guint i = 0; i < r->operations->len; i++)
    {
      const WsSystemOpRecord *o = op_at (r, i);
      if (strcmp (o->op, "send") == 0 && strcmp (o->label, "dev0") == 0)
        {
          g_assert_cmpstr (o->component, ==, "node0/pcie0>net>node1/pcie1");
          g_assert_cmpfloat_with_epsilon (o->start, t_barrier, 1e-15);
          seen_route = TRUE;
        }
      if (strcmp (o->op, "recv") == 0 && strcmp (o->label, "rank0") == 0)
        {
          g_assert_cmpfloat (o->bytes, ==, m / 2);
          g_assert_cmpfloat_with_epsilon (o->end, t_barrier, 1e-15);
          seen_pong = TRUE;
        }
      if (strcmp (o->op, "barrier") == 0)
        g_assert_cmpfloat_with_epsilon (o->end, t_barrier, 1e-15);
    }
  g_assert_true (seen_route && seen_pong);
  g_assert_cmpfloat_with_epsilon (busy_of (r, "net"), fwd + back + fwd, 1e-15);
}

/* ---- CUDA semantics ------------------------------------------------------ */

static void
test_cuda_async_kernel (Fixture *f, gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WsSystemModel) s = ws_system_store_get_system (f->store, "testbed-gtx970", &error);
  g_assert_no_error (error);
  /* A long kernel, host work shorter than it, then a blocking copy: the
   * copy waits for the kernel (stream order), the host work overlaps it. */
  const char
    *kernel = "{\"op\":\"kernel\",\"name\":\"k\",\"analytic\":{\"grid_size\":\"100000\",\"block_size\":\"256\","
              "\"cuda_core_instructions\":\"4000\",\"issued_instructions\":\"4000\",\"gmem_bytes\":\"384\","
              "\"latency_bound\":\"1000\",\"occupancy_warps\":\"64\",\"lambda\":\"1\"}}";
  g_autofree char *text = g_strdup_printf (
    "{\"name\":\"async\",\"processes\":[{\"label\":\"CPU\",\"operations\":[%s,{\"op\":\"host\",\"seconds\":\"1e-4\"},"
    "{\"op\":\"d2h\",\"bytes\":\"0\"},%s,{\"op\":\"sync\"}]}]}",
    kernel, kernel);
  g_autoptr (WsAppModel) app = app_from (text);
  g_autoptr (WsSystemResult) r = run (f, s, app, NULL);
  const WsSystemOpRecord *k1 = NULL, *host = NULL, *copy = NULL, *k2 = NULL, *sync = NULL;
  for (guint i = 0; i < r->operations->len; i++)
    {
      const WsSystemOpRecord *o = op_at (r, i);
      if (strcmp (o->op, "kernel") == 0)
        *(k1 ? &k2 : &k1) = o;
      else if (strcmp (o->op, "host") == 0)
        host = o;
      else if (strcmp (o->op, "d2h") == 0)
        copy = o;
      else if (strcmp (o->op, "sync") == 0)
        sync = o;
    }
  g_assert_nonnull (k1);
  g_assert_nonnull (k2);
  g_assert_nonnull (sync);
  double tk = k1->end - k1->start;
  g_assert_cmpfloat (tk, >, 1e-4);
  g_assert_cmpfloat (host->start, ==, 0);       /* the launch returned at once */
  g_assert_cmpfloat (copy->start, ==, k1->end); /* the copy waited for the kernel */
  g_assert_cmpfloat_with_epsilon (copy->end, k1->end + 5.16e-6, 1e-15);
  g_assert_cmpfloat (k2->start, ==, copy->end);
  g_assert_cmpfloat (sync->start, ==, copy->end); /* second launch asynchronous too */
  g_assert_cmpfloat (sync->end, ==, k2->end);     /* cudaDeviceSynchronize */
  g_assert_cmpfloat (r->total_seconds, ==, k2->end);
  g_assert_cmpfloat_with_epsilon (busy_of (r, "host/gpu"), 2 * tk, 1e-15);
  g_assert_cmpfloat_with_epsilon (busy_of (r, "host/cpu"), 1e-4, 1e-18);
}

/* ---- loops and conditionals --------------------------------------------- */

static void
test_loops_and_conditionals (Fixture *f, gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WsSystemModel) s = ws_system_store_get_system (f->store, "testbed-gtx970", &error);
  g_assert_no_error (error);
  /* for i in 0..n-1: for j in 0..i-1: host 1 ms; if i is odd: host i x 10 ms else: h2d 0 bytes.
   * Host operations at the CPU's rate: 4e9 ops on one of 4 cores of 256 GFLOP/s = 62.5 ms. */
  g_autoptr (WsAppModel) app = app_from (
    "{\"name\":\"loops\",\"variables\":[{\"name\":\"n\",\"default\":4},{\"name\":\"big\",\"default\":0}],"
    "\"processes\":[{\"label\":\"CPU\",\"operations\":["
    "{\"op\":\"loop\",\"count\":\"n\",\"variable\":\"i\",\"body\":["
    "  {\"op\":\"loop\",\"count\":\"i\",\"variable\":\"j\",\"body\":[{\"op\":\"host\",\"seconds\":\"1e-3\"}]},"
    "  {\"op\":\"if\",\"condition\":\"i % 2 == 1\",\"then\":[{\"op\":\"host\",\"seconds\":\"i*1e-2\"}],"
    "   \"else\":[{\"op\":\"h2d\",\"bytes\":\"0\"}]}]},"
    "{\"op\":\"if\",\"condition\":\"big\",\"then\":[{\"op\":\"host\",\"operations\":\"4e9\"}]}]}]}");
  g_autoptr (WsSystemResult) r = run (f, s, app, NULL);
  /* inner loop: 0+1+2+3 = 6 ms; odd i: 10 + 30 ms; even i: two empty copies of t_s each. */
  double expect = 6e-3 + 40e-3 + 2 * 3.97e-6;
  g_assert_cmpfloat_with_epsilon (r->total_seconds, expect, 1e-15);
  guint hosts = 0, copies = 0;
  for (guint i = 0; i < r->operations->len; i++)
    {
      hosts += strcmp (op_at (r, i)->op, "host") == 0;
      copies += strcmp (op_at (r, i)->op, "h2d") == 0;
    }
  g_assert_cmpuint (hosts, ==, 6 + 2);
  g_assert_cmpuint (copies, ==, 2);
  /* The loop variable is not a result variable; the inputs are. */
  g_assert_false (g_hash_table_contains (r->variables, "i"));
  g_assert_cmpfloat (*(double *) g_hash_table_lookup (r->variables, "n"), ==, 4);

  g_autoptr (GHashTable) over = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  double one = 1, zero = 0;
  g_hash_table_insert (over, g_strdup ("big"), g_memdup2 (&one, sizeof one));
  g_hash_table_insert (over, g_strdup ("n"), g_memdup2 (&zero, sizeof zero));
  g_autoptr (WsSystemResult) r2 = run (f, s, app, over);
  g_assert_cmpfloat_with_epsilon (r2->total_seconds, 4e9 / (256e9 / 4), 1e-15);
}

/* ---- errors -------------------------------------------------------------- */

static void
test_expression_errors (Fixture *f, gconstpointer data)
{
  /* A syntax error is found when the model is read. */
  g_autoptr (JsonNode)
    bad = system_test_parse ("{\"name\":\"bad\",\"processes\":[{\"label\":\"CPU\",\"operations\":["
                             "{\"op\":\"host\",\"seconds\":\"1\"},{\"op\":\"h2d\",\"bytes\":\"4*(N\"}]}]}");
  g_autoptr (GError) error = NULL;
  g_autoptr (WsAppModel) none = ws_app_model_from_json (bad, &error);
  g_assert_null (none);
  g_assert_error (error, WS_ERROR, WS_ERROR_PARSE);
  g_assert_nonnull (
    strstr (error->message, "application 'bad', label 'CPU', operation 2 (h2d), field 'bytes': column 5"));

  /* An unknown variable is found when it is evaluated, inside a loop body. */
  g_autoptr (WsAppModel) app = app_from (
    "{\"name\":\"typo\",\"variables\":[{\"name\":\"N\",\"default\":1024},{\"name\":\"blockSize\",\"default\":128}],"
    "\"processes\":[{\"label\":\"GPU\",\"operations\":[{\"op\":\"loop\",\"count\":\"2\",\"body\":["
    "{\"op\":\"kernel\",\"name\":\"k\",\"analytic\":{\"grid_size\":\"(N + blockSz - 1) / "
    "blockSize\",\"block_size\":\"blockSize\","
    "\"cuda_core_instructions\":\"1\",\"issued_instructions\":\"1\",\"gmem_bytes\":\"1\",\"latency_bound\":\"1\","
    "\"occupancy_warps\":\"64\"}}]}]}]}");
  g_autoptr (GError) e2 = NULL;
  g_autoptr (WsSystemModel) s = ws_system_store_get_system (f->store, "testbed-gtx970", &e2);
  g_autofree char *msg = run_error (f, s, app);
  g_assert_nonnull (strstr (msg,
                            "application 'typo', label 'GPU', operation 1.1 (kernel), field 'grid_size': column 6: "
                            "unknown variable 'blockSz'"));
  g_assert_nonnull (strstr (msg, "did you mean blockSize"));

  /* Division by zero in a derived variable names the variable. */
  g_autoptr (WsAppModel) div = app_from ("{\"name\":\"div\",\"variables\":[{\"name\":\"a\",\"default\":0},"
                                         "{\"name\":\"b\",\"expression\":\"1 / a\"}],\"processes\":[{\"label\":\"CPU\","
                                         "\"operations\":[{\"op\":\"host\",\"seconds\":\"b\"}]}]}");
  g_autofree char *msg2 = run_error (f, s, div);
  g_assert_nonnull (strstr (msg2, "variable 'b', field 'expression': column 3"));
}

static void
test_capacity_errors (Fixture *f, gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WsSystemModel) s = ws_system_store_get_system (f->store, "testbed-gtx970", &error);
  g_assert_no_error (error);
  g_autoptr (WsAppModel) two = app_from ("{\"name\":\"two\",\"variables\":[{\"name\":\"P\",\"default\":2}],"
                                         "\"processes\":[{\"label\":\"GPU\",\"count\":\"P\",\"operations\":[]}]}");
  g_autofree char *msg = run_error (f, s, two);
  g_assert_nonnull (strstr (msg, "runs 2 processes with label 'GPU', but system 'testbed-gtx970' can run 1"));
  g_assert_nonnull (strstr (msg, "gpu (multiplicity 1 x count 1)"));

  /* multiplicity x count: 3 x 2 = 6 slots; 6 fit, 7 do not. */
  g_autoptr (WsSystemModel)
    big = system_from ("{\"name\":\"six\",\"components\":[{\"type\":\"machine\",\"name\":\"m\",\"components\":["
                       "{\"type\":\"cpu\",\"name\":\"cpu\",\"hw\":\"Core "
                       "i7-4790K\",\"count\":2,\"labels\":[{\"name\":\"W\",\"multiplicity\":3}]}]}]}");
  g_autoptr (GHashTable) over = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  double six = 6, seven = 7;
  g_autoptr (WsAppModel) w = app_from (
    "{\"name\":\"w\",\"variables\":[{\"name\":\"P\",\"default\":1}],"
    "\"processes\":[{\"label\":\"W\",\"count\":\"P\",\"operations\":[{\"op\":\"host\",\"seconds\":\"1\"}]}]}");
  g_hash_table_insert (over, g_strdup ("P"), g_memdup2 (&six, sizeof six));
  g_autoptr (WsSystemResult) r = run (f, big, w, over);
  g_assert_cmpfloat (r->total_seconds, ==, 1);
  g_assert_cmpfloat (busy_of (r, "m/cpu[1]"), ==, 1);
  g_hash_table_insert (over, g_strdup ("P"), g_memdup2 (&seven, sizeof seven));
  g_autoptr (WsSystemEnv) env = ws_system_env_new (f->store, big, NULL, &error);
  g_autoptr (WsSystemResult) none = ws_system_evaluate (env, w, over, &error);
  g_assert_null (none);
  g_assert_nonnull (strstr (error->message, "can run 6: cpu (multiplicity 3 x count 2)"));
  g_clear_error (&error);

  /* A label no component carries. */
  g_autoptr (WsAppModel) fpga = app_from ("{\"name\":\"fpga\",\"processes\":[{\"label\":\"FPGA\",\"operations\":[]}]}");
  g_autofree char *msg3 = run_error (f, s, fpga);
  g_assert_nonnull (strstr (msg3, "label 'FPGA' of application 'fpga' is on no component of system 'testbed-gtx970' "
                                  "(its labels: CPU, GPU)"));
}

static void
expect_invalid (Fixture *f, const char *system_json, const char *fragment)
{
  g_autoptr (WsSystemModel) s = system_from (system_json);
  g_autoptr (GError) error = NULL;
  g_assert_false (ws_system_model_validate (s, f->store, &error));
  g_assert_error (error, WS_ERROR, WS_ERROR_INVALID);
  if (strstr (error->message, fragment) == NULL)
    g_error ("'%s' lacks '%s'", error->message, fragment);
}

static void
test_validation_errors (Fixture *f, gconstpointer data)
{
  expect_invalid (f,
                  "{\"name\":\"dangling\",\"components\":[{\"type\":\"machine\",\"name\":\"m\",\"components\":["
                  "{\"type\":\"cpu\",\"name\":\"cpu\",\"hw\":\"Core "
                  "i7-4790K\"},{\"type\":\"gpu\",\"name\":\"gpu\",\"hw\":\"GTX 970\"},"
                  "{\"type\":\"link\",\"name\":\"pcie\",\"hw\":\"PCIe 3.1 x16 (GTX 970 test "
                  "bed)\",\"from\":\"cpu\",\"to\":\"gpu0\"}]}]}",
                  "system 'dangling': dangling link 'pcie': its 'to' end 'gpu0' names no component (did you mean gpu");
  expect_invalid (f,
                  "{\"name\":\"lonely\",\"components\":[{\"type\":\"machine\",\"name\":\"m\",\"components\":["
                  "{\"type\":\"cpu\",\"name\":\"cpu\",\"hw\":\"Core "
                  "i7-4790K\"},{\"type\":\"gpu\",\"name\":\"gpu\",\"hw\":\"GTX 970\"}]}]}",
                  "system 'lonely': GPU 'gpu' has no link to a host CPU");
  expect_invalid (f, "{\"name\":\"kind\",\"components\":[{\"type\":\"cpu\",\"name\":\"cpu\",\"hw\":\"GTX 970\"}]}",
                  "cpu 'cpu': catalogue entry 'GTX 970' is a gpu, not a cpu");
  expect_invalid (f, "{\"name\":\"unknown\",\"components\":[{\"type\":\"gpu\",\"name\":\"g\",\"hw\":\"GTX 907\"}]}",
                  "system 'unknown', gpu 'g':");
  expect_invalid (f,
                  "{\"name\":\"dup\",\"components\":[{\"type\":\"cpu\",\"name\":\"x\",\"hw\":\"Core i7-4790K\"},"
                  "{\"type\":\"cpu\",\"name\":\"x\",\"hw\":\"Core i7-4790K\"}]}",
                  "two components are called 'x'");
  expect_invalid (f,
                  "{\"name\":\"mult\",\"components\":[{\"type\":\"cpu\",\"name\":\"x\",\"hw\":\"Core i7-4790K\","
                  "\"labels\":[{\"name\":\"A\",\"multiplicity\":0}]}]}",
                  "label 'A' needs a name and a multiplicity >= 1");
  expect_invalid (
    f,
    "{\"name\":\"cross\",\"components\":["
    "{\"type\":\"machine\",\"name\":\"a\",\"components\":[{\"type\":\"cpu\",\"name\":\"cpu\",\"hw\":\"Core "
    "i7-4790K\"}]},"
    "{\"type\":\"machine\",\"name\":\"b\",\"components\":[{\"type\":\"gpu\",\"name\":\"gpu\",\"hw\":\"GTX 970\"}]},"
    "{\"type\":\"link\",\"name\":\"l\",\"hw\":\"PCIe 3.1 x16 (GTX 970 test bed)\",\"from\":\"cpu\",\"to\":\"gpu\"}]}",
    "which are in different machines");
  /* Structural errors are found when reading. */
  g_autoptr (JsonNode) n = system_test_parse ("{\"name\":\"s\",\"components\":[{\"type\":\"gpu\",\"name\":\"g\","
                                              "\"hw\":\"GTX 970\",\"cuont\":2}]}");
  g_autoptr (GError) error = NULL;
  g_autoptr (WsSystemModel) s = ws_system_model_from_json (n, &error);
  g_assert_null (s);
  g_assert_nonnull (strstr (error->message, "component 'g': unknown field 'cuont' (did you mean count?)"));
}

/* ---- saxpy2-analytic: total = transfers (eq. 4.6) + volkov's kernel time ---- */

static double
listing5_kernel_seconds (Fixture *f, const char *gpu_name, double n, double a, double bs, double occ)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) plugins = ws_predictor_scan ();
  WsPredictorPlugin *volkov = ws_predictor_find (plugins, "volkov", &error);
  g_assert_no_error (error);
  g_autoptr (WsGpu) gpu = ws_store_get_gpu (f->store, gpu_name, &error);
  g_autoptr (WsAnalyticKernel) k = ws_analytic_kernel_new ("saxpy2");
  ws_analytic_kernel_set (k, "grid_size", floor ((n + bs - 1) / bs));
  ws_analytic_kernel_set (k, "block_size", bs);
  ws_analytic_kernel_set (k, "cuda_core_instructions", 23 + 4 * a);
  ws_analytic_kernel_set (k, "issued_instructions", 26 + 4 * a);
  ws_analytic_kernel_set (k, "gmem_bytes", 384);
  ws_analytic_kernel_set (k, "latency_bound", 942 + 24 * a);
  ws_analytic_kernel_set (k, "occupancy_warps", occ);
  ws_analytic_kernel_set (k, "lambda", 0.703787);
  g_autoptr (WsPrediction) p = ws_predict_analytic (volkov, gpu, k, NULL, &error);
  g_assert_no_error (error);
  return p->seconds;
}

static void
test_saxpy2_analytic_total (Fixture *f, gconstpointer data)
{
  static const struct {
    const char *system, *gpu, *link;
  } beds[] = {
    { "testbed-gtx970", "GTX 970", "PCIe 3.1 x16 (GTX 970 test bed)" },
    { "testbed-titanx", "GTX TITAN X", "PCIe 2.0 x4 (GTX TITAN X test bed)" },
    { "testbed-gtx1070", "GTX 1070", "PCIe 3.1 x16 (GTX 1070 test bed)" },
  };
  g_autoptr (GError) error = NULL;
  g_autoptr (WsAppModel) app = ws_system_store_get_app (f->store, "saxpy2-analytic", &error);
  g_assert_no_error (error);
  double n = 1 << 22, a = 16, bs = 256;
  for (guint b = 0; b < G_N_ELEMENTS (beds); b++)
    {
      g_autoptr (WsSystemModel) s = ws_system_store_get_system (f->store, beds[b].system, &error);
      g_assert_no_error (error);
      g_autoptr (WsLink) l = ws_store_get_link (f->store, beds[b].link, &error);
      g_autoptr (GHashTable) over = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
      g_hash_table_insert (over, g_strdup ("N"), g_memdup2 (&n, sizeof n));
      g_autoptr (WsSystemResult) r = run (f, s, app, over);
      double kernel = listing5_kernel_seconds (f, beds[b].gpu, n, a, bs, 64);
      /* Listing 5's sequence, in the simulator's order of additions:
       * h2d(4N), the artificial synchronisation (a 0-byte d2h message),
       * h2d(4N), the kernel, d2h(4N). */
      double ts_h = l->h2d_startup_us * 1e-6, rate_h = l->h2d_bandwidth_gbs * 1e9 * l->h2d_lambda;
      double ts_d = l->d2h_startup_us * 1e-6, rate_d = l->d2h_bandwidth_gbs * 1e9 * l->d2h_lambda;
      double t = 0;
      t = (t + ts_h) + 4 * n / rate_h;
      t = (t + ts_d) + 0 / rate_d;
      t = (t + ts_h) + 4 * n / rate_h;
      t = t + kernel;
      t = (t + ts_d) + 4 * n / rate_d;
      g_assert_cmpfloat (r->total_seconds, ==, t);
      /* And against eq. 4.6 written plainly. */
      double plain = 2 * (ts_h + 4 * n / rate_h) + ts_d + kernel + (ts_d + 4 * n / rate_d);
      g_assert_cmpfloat_with_epsilon (r->total_seconds, plain, 1e-15);
      guint kernels = 0;
      for (guint i = 0; i < r->operations->len; i++)
        if (strcmp (op_at (r, i)->op, "kernel") == 0)
          {
            kernels++;
            g_assert_cmpfloat_with_epsilon (op_at (r, i)->end - op_at (r, i)->start, kernel, 1e-18);
            g_assert_cmpstr (op_at (r, i)->component, ==, "host/gpu");
            g_assert_cmpstr (op_at (r, i)->name, ==, "saxpy2");
          }
      g_assert_cmpuint (kernels, ==, 1);
      g_assert_cmpfloat (*(double *) g_hash_table_lookup (r->variables, "gridSize"), ==, 16384);
      g_assert_cmpfloat (*(double *) g_hash_table_lookup (r->variables, "CUDACoreInstr"), ==, 23 + 4 * 16);
    }
}

/* ---- sweeps -------------------------------------------------------------- */

static int
count_rows (Fixture *f, const char *sql)
{
  sqlite3_stmt *st = NULL;
  g_assert_cmpint (sqlite3_prepare_v2 (ws_store_get_db (f->store), sql, -1, &st, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_step (st), ==, SQLITE_ROW);
  int n = sqlite3_column_int (st, 0);
  sqlite3_finalize (st);
  return n;
}

static void
test_sweep_stored_and_read_back (Fixture *f, gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WsSystemModel) s = ws_system_store_get_system (f->store, "testbed-titanx", &error);
  g_autoptr (WsAppModel) app = ws_system_store_get_app (f->store, "saxpy2-analytic", &error);
  g_autoptr (WsSystemEnv) env = ws_system_env_new (f->store, s, "volkov", &error);
  g_assert_no_error (error);
  g_autoptr (GPtrArray) axes = g_ptr_array_new_with_free_func ((GDestroyNotify) ws_sweep_axis_free);
  g_ptr_array_add (axes, ws_sweep_axis_parse ("N=1024,65536", &error));
  g_ptr_array_add (axes, ws_sweep_axis_parse ("computeIntensity=1:33:16", &error));
  g_assert_no_error (error);
  g_assert_cmpuint (((WsSweepAxis *) axes->pdata[1])->values->len, ==, 3);
  g_autoptr (GHashTable) fixed = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  double bs = 128;
  g_hash_table_insert (fixed, g_strdup ("blockSize"), g_memdup2 (&bs, sizeof bs));
  g_autoptr (GPtrArray) results = ws_system_sweep (env, app, fixed, axes, 3, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (results->len, ==, 6);
  /* The first axis varies slowest. */
  static const double ns[] = { 1024, 1024, 1024, 65536, 65536, 65536 }, cis[] = { 1, 17, 33, 1, 17, 33 };
  for (guint i = 0; i < 6; i++)
    {
      WsSystemResult *r = results->pdata[i];
      g_assert_true (r->ok);
      g_assert_cmpfloat (*(double *) g_hash_table_lookup (r->variables, "N"), ==, ns[i]);
      g_assert_cmpfloat (*(double *) g_hash_table_lookup (r->variables, "computeIntensity"), ==, cis[i]);
      g_assert_cmpfloat (*(double *) g_hash_table_lookup (r->variables, "blockSize"), ==, 128);
      /* Each point equals a single evaluation with its variables. */
      g_autoptr (WsSystemResult) one = ws_system_evaluate (env, app, r->variables, &error);
      g_assert_null (one); /* derived variables cannot be set ... */
      g_assert_nonnull (strstr (error->message, "is derived"));
      g_clear_error (&error);
    }
  g_autoptr (GHashTable) opts = g_hash_table_new (g_str_hash, g_str_equal);
  g_hash_table_insert (opts, "lambda", "0.5");
  g_hash_table_insert (opts, "block_replacement", "150");
  gint64 id = ws_system_store_put_sweep (f->store, s, app, "volkov", opts, results, 0.5, &error);
  g_assert_no_error (error);
  g_assert_cmpint (id, >, 0);
  /* the predictor's options are kept with the sweep */
  {
    g_autoptr (GHashTable) stored = ws_system_store_get_sweep_options (f->store, id, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (g_hash_table_size (stored), ==, 2);
    g_assert_cmpstr (g_hash_table_lookup (stored, "lambda"), ==, "0.5");
    g_assert_cmpstr (g_hash_table_lookup (stored, "block_replacement"), ==, "150");
    g_assert_null (ws_system_store_get_sweep_options (f->store, id + 1000, &error));
    g_assert_error (error, WS_ERROR, WS_ERROR_NOT_FOUND);
    g_clear_error (&error);
  }
  g_autofree char *sys_name = NULL, *app_name = NULL;
  g_autoptr (GPtrArray) back = ws_system_store_get_sweep (f->store, id, &sys_name, &app_name, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (sys_name, ==, "testbed-titanx");
  g_assert_cmpstr (app_name, ==, "saxpy2-analytic");
  g_assert_cmpuint (back->len, ==, 6);
  for (guint i = 0; i < 6; i++)
    {
      WsSystemResult *a = results->pdata[i], *b = back->pdata[i];
      g_assert_true (b->ok);
      g_assert_cmpfloat (a->total_seconds, ==, b->total_seconds);
      g_assert_cmpuint (a->operations->len, ==, b->operations->len);
      for (guint k = 0; k < a->operations->len; k++)
        {
          const WsSystemOpRecord *x = op_at (a, k), *y = op_at (b, k);
          g_assert_cmpstr (x->op, ==, y->op);
          g_assert_cmpstr (x->label, ==, y->label);
          g_assert_cmpstr (x->component, ==, y->component);
          g_assert_cmpfloat (x->start, ==, y->start);
          g_assert_cmpfloat (x->end, ==, y->end);
          g_assert_cmpfloat (x->bytes, ==, y->bytes);
        }
      g_assert_cmpfloat (*(double *) g_hash_table_lookup (b->variables, "N"), ==, ns[i]);
      g_assert_cmpuint (a->busy_components->len, ==, b->busy_components->len);
    }
  /* The inputs are stored with the sweep. */
  g_assert_cmpint (count_rows (f, "SELECT count(*) FROM model_sweep WHERE predictor = 'volkov' AND "
                                  "json_extract(app_record, '$.name') = 'saxpy2-analytic' AND "
                                  "json_extract(system_record, '$.components[0].components[2].hw') = "
                                  "'PCIe 2.0 x4 (GTX TITAN X test bed)'"),
                   ==, 1);
  g_assert_cmpint (count_rows (f, "SELECT count(*) FROM model_run_op"), ==, 6 * 9);
}

/* A point a cancelled sweep never finished says so in its JSON
 * ("cancelled": true, docs/system-modelling.md); a finished point and a
 * point that failed on its inputs have no such member. */
static void
test_sweep_cancelled_points_in_json (Fixture *f, gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WsSystemModel) s = ws_system_store_get_system (f->store, "testbed-titanx", &error);
  g_autoptr (WsAppModel) app = ws_system_store_get_app (f->store, "saxpy2-analytic", &error);
  g_autoptr (WsSystemEnv) env = ws_system_env_new (f->store, s, "volkov", &error);
  g_assert_no_error (error);
  g_autoptr (GPtrArray) axes = g_ptr_array_new_with_free_func ((GDestroyNotify) ws_sweep_axis_free);
  g_ptr_array_add (axes, ws_sweep_axis_parse ("N=1024,2048", &error));
  g_assert_no_error (error);

  /* Cancelled before it starts: no point runs. */
  g_autoptr (GCancellable) cancellable = g_cancellable_new ();
  g_cancellable_cancel (cancellable);
  gboolean was_cancelled = FALSE;
  g_autoptr (GPtrArray)
    stopped = ws_system_sweep_partial (env, app, NULL, axes, 2, cancellable, &was_cancelled, &error);
  g_assert_no_error (error);
  g_assert_true (was_cancelled);
  g_assert_cmpuint (stopped->len, ==, 2);
  static const double ns[] = { 1024, 2048 };
  for (guint i = 0; i < stopped->len; i++)
    {
      WsSystemResult *r = stopped->pdata[i];
      g_assert_true (r->cancelled);
      g_autoptr (JsonNode) node = ws_system_result_to_json (r);
      JsonObject *o = json_node_get_object (node);
      g_assert_false (json_object_get_boolean_member (o, "ok"));
      g_assert_true (json_object_has_member (o, "cancelled"));
      g_assert_true (json_object_get_boolean_member (o, "cancelled"));
      g_assert_cmpstr (json_object_get_string_member (o, "error"), !=, "");
      g_assert_false (json_object_has_member (o, "total_seconds"));
      JsonObject *vars = json_object_get_object_member (o, "variables");
      g_assert_cmpfloat (json_object_get_double_member (vars, "N"), ==, ns[i]);
    }

  /* The same sweep run to its end: "ok" and no "cancelled". */
  g_autoptr (GPtrArray) done = ws_system_sweep_partial (env, app, NULL, axes, 2, NULL, &was_cancelled, &error);
  g_assert_no_error (error);
  g_assert_false (was_cancelled);
  for (guint i = 0; i < done->len; i++)
    {
      g_autoptr (JsonNode) node = ws_system_result_to_json (done->pdata[i]);
      JsonObject *o = json_node_get_object (node);
      g_assert_true (json_object_get_boolean_member (o, "ok"));
      g_assert_false (json_object_has_member (o, "cancelled"));
      g_assert_cmpfloat (json_object_get_double_member (o, "total_seconds"), >, 0);
    }

  /* A point that failed on its inputs is not a cancelled one. */
  WsSystemResult failed = { .ok = FALSE, .error = (char *) "operation 1 (kernel): no GPU for label 'GPU'" };
  g_autoptr (JsonNode) fnode = ws_system_result_to_json (&failed);
  JsonObject *fo = json_node_get_object (fnode);
  g_assert_false (json_object_get_boolean_member (fo, "ok"));
  g_assert_cmpstr (json_object_get_string_member (fo, "error"), ==, "operation 1 (kernel): no GPU for label 'GPU'");
  g_assert_false (json_object_has_member (fo, "cancelled"));
}

static void
test_sweep_twenty_points (Fixture *f, gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WsSystemModel) s = ws_system_store_get_system (f->store, "testbed-gtx970", &error);
  g_autoptr (WsAppModel) app = ws_system_store_get_app (f->store, "saxpy2-analytic", &error);
  g_autoptr (WsSystemEnv) env = ws_system_env_new (f->store, s, NULL, &error);
  g_assert_no_error (error);
  g_autoptr (GPtrArray) axes = g_ptr_array_new_with_free_func ((GDestroyNotify) ws_sweep_axis_free);
  g_ptr_array_add (axes, ws_sweep_axis_parse ("N=1048576:20971520:1048576", &error));
  g_assert_no_error (error);
  double t0 = ws_now_seconds ();
  g_autoptr (GPtrArray) results = ws_system_sweep (env, app, NULL, axes, 0, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (results->len, ==, 20);
  gint64 id = ws_system_store_put_sweep (f->store, s, app, "volkov", NULL, results, ws_now_seconds () - t0, &error);
  g_assert_no_error (error);
  g_test_message ("20-point sweep evaluated and stored in %.3f ms", (ws_now_seconds () - t0) * 1e3);
  double prev = 0;
  for (guint i = 0; i < 20; i++)
    {
      WsSystemResult *r = results->pdata[i];
      g_assert_true (r->ok);
      g_assert_cmpfloat (*(double *) g_hash_table_lookup (r->variables, "N"), ==, 1048576.0 * (i + 1));
      g_assert_cmpfloat (r->total_seconds, >, prev);
      prev = r->total_seconds;
    }
  g_autofree char *sql = g_strdup_printf (
    "SELECT count(*) FROM model_run WHERE sweep_id = %" G_GINT64_FORMAT " AND status = 'ok' AND total_seconds > 0", id);
  g_assert_cmpint (count_rows (f, sql), ==, 20);
  g_assert_cmpint (count_rows (f, "SELECT n_points FROM model_sweep ORDER BY id DESC LIMIT 1"), ==, 20);
}

static void
test_sweep_axis_parse (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WsSweepAxis) r = ws_sweep_axis_parse ("x=0:1:0.1", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (r->values->len, ==, 11);
  g_autoptr (WsSweepAxis) d = ws_sweep_axis_parse ("x=10:1:-3", &error);
  g_assert_cmpuint (d->values->len, ==, 4);
  g_assert_cmpfloat (g_array_index (d->values, double, 3), ==, 1);
  g_assert_null (ws_sweep_axis_parse ("x=1:10:-1", &error));
  g_assert_nonnull (strstr (error->message, "never goes from 1 to 10"));
  g_clear_error (&error);
  g_assert_null (ws_sweep_axis_parse ("x=1,two", &error));
  g_assert_nonnull (strstr (error->message, "value 2 ('two') is not a number"));
}

/* ---- persistence and the demo ------------------------------------------- */

static void
test_models_round_trip (Fixture *f, gconstpointer data)
{
  put_network_link (f);
  g_autoptr (WsSystemModel) s = system_from (two_machines);
  g_autoptr (GError) error = NULL;
  g_assert_true (ws_system_store_put_system (f->store, s, FALSE, &error));
  g_assert_no_error (error);
  g_assert_false (ws_system_store_put_system (f->store, s, FALSE, &error));
  g_assert_error (error, WS_ERROR, WS_ERROR_DUPLICATE);
  g_clear_error (&error);
  g_autoptr (WsSystemModel) back = ws_system_store_get_system (f->store, "cluster", &error);
  g_assert_no_error (error);
  g_autoptr (JsonNode) a = ws_system_model_to_json (s);
  g_autoptr (JsonNode) b = ws_system_model_to_json (back);
  g_assert_true (json_node_equal (a, b));
  g_assert_cmpint (ws_system_model_find (back, "pcie1")->kind, ==, WS_COMPONENT_LINK);
  g_assert_cmpstr (ws_system_model_find (back, "gpu1")->parent->name, ==, "node1");

  g_autoptr (WsSystemModel) missing = ws_system_store_get_system (f->store, "testbed-gtx907", &error);
  g_assert_null (missing);
  g_assert_error (error, WS_ERROR, WS_ERROR_NOT_FOUND);
  g_assert_nonnull (strstr (error->message, "did you mean "));
  g_assert_nonnull (strstr (error->message, "testbed-gtx970?"));
}

static void
test_demo_workspace (Fixture *f, gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  /* Idempotent: a second call adds nothing. */
  g_assert_true (ws_system_store_ensure_demo (f->store, &error));
  g_auto (GStrv) systems = ws_system_store_list_systems (f->store, &error);
  g_assert_cmpuint (g_strv_length (systems), ==, 3);
  g_assert_cmpstr (systems[0], ==, "testbed-gtx1070");
  g_assert_cmpstr (systems[1], ==, "testbed-gtx970");
  g_assert_cmpstr (systems[2], ==, "testbed-titanx");
  g_auto (GStrv) apps = ws_system_store_list_apps (f->store, &error);
  g_assert_true (g_strv_contains ((const char *const *) apps, "saxpy2-analytic"));
  double def;
  g_autoptr (WsAppModel) app = ws_system_store_get_app (f->store, "saxpy2-analytic", &error);
  g_assert_true (ws_app_model_get_default (app, "computeIntensity", &def));
  g_assert_true (ws_app_model_get_default (app, "blockSize", &def));
  g_assert_true (ws_app_model_get_default (app, "N", &def));
  g_assert_false (ws_app_model_get_default (app, "gridSize", &def)); /* derived */
}

/* A profiled kernel whose trace is missing says so and how to make one. */
static void
test_missing_trace (Fixture *f, gconstpointer data)
{
  g_autofree char *path = g_build_filename (f->dir, "nothing.wstrace", NULL);
  g_autofree char *text = g_strdup_printf (
    "{\"kind\":\"application\",\"name\":\"prof\",\"processes\":[{\"label\":\"CPU\","
    "\"operations\":[{\"op\":\"kernel\",\"trace\":\"%s\"}]}]}",
    path);
  g_autoptr (JsonNode) node = system_test_parse (text);
  g_autoptr (GError) error = NULL;
  g_assert_true (ws_system_store_put_app (f->store, node, FALSE, &error));
  g_assert_no_error (error);
  g_autoptr (WsAppModel) app = ws_system_store_get_app (f->store, "prof", &error);
  g_autoptr (WsSystemModel) s = ws_system_store_get_system (f->store, "testbed-gtx970", &error);
  g_autoptr (WsSystemEnv) env = ws_system_env_new (f->store, s, NULL, &error);
  g_autoptr (WsSystemResult) r = ws_system_evaluate (env, app, NULL, &error);
  g_assert_null (r);
  g_assert_error (error, WS_ERROR, WS_ERROR_NOT_FOUND);
  g_assert_nonnull (strstr (error->message, "operation 1 (kernel): trace file"));
  g_assert_nonnull (strstr (error->message, "warpscope-cli profile"));

  /* An existing file is copied into the workspace's trace folder. */
  g_clear_error (&error);
  g_autofree char *src = g_build_filename (f->dir, "k.wstrace", NULL);
  g_assert_true (g_file_set_contents (src, "not really a trace", -1, NULL));
  g_autofree char *text2 = g_strdup_printf ("{\"name\":\"prof2\",\"processes\":[{\"label\":\"CPU\",\"operations\":"
                                            "[{\"op\":\"kernel\",\"trace\":\"%s\"}]}]}",
                                            src);
  g_autoptr (JsonNode) node2 = system_test_parse (text2);
  g_assert_true (ws_system_store_put_app (f->store, node2, FALSE, &error));
  g_assert_no_error (error);
  g_autoptr (WsAppModel) app2 = ws_system_store_get_app (f->store, "prof2", &error);
  g_auto (GStrv) traces = ws_app_model_get_traces (app2);
  g_autofree char *tdir = ws_system_store_trace_dir (f->store);
  g_autofree char *want = g_build_filename (tdir, "prof2-k.wstrace", NULL);
  g_assert_cmpstr (traces[0], ==, want);
  g_assert_true (g_file_test (want, G_FILE_TEST_IS_REGULAR));
  /* A damaged trace is reported, not crashed on. */
  g_autoptr (WsSystemResult) r2 = ws_system_evaluate (env, app2, NULL, &error);
  g_assert_null (r2);
  g_assert_nonnull (strstr (error->message, "operation 1 (kernel)"));
}


/* The demo's saxpy2 with the example's real profile: its total is its
 * transfers (eq. 4.6) plus the predictor's time for the traced launch. */
static void
test_saxpy2_profiled_total (Fixture *f, gconstpointer data)
{
  const char *example = g_getenv ("WS_SAXPY2_EXAMPLE");
  if (example == NULL || !g_file_test (example, G_FILE_TEST_IS_EXECUTABLE) || g_getenv ("WS_CLI") == NULL)
    {
      g_test_skip ("examples/saxpy2.cu was not built (no nvcc)");
      return;
    }
  g_autofree char *trace_path = g_build_filename (f->dir, "saxpy2.wstrace", NULL);
  g_autofree char *db = g_build_filename (f->dir, "profile.db", NULL);
  const char *argv[] = { g_getenv ("WS_CLI"), "--db", db, "--quiet", "profile", "-o", trace_path, "--", example, NULL };
  int status;
  g_autoptr (GError) error = NULL;
  g_autofree char *out = NULL, *err = NULL;
  g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, &err, &status, &error);
  g_assert_no_error (error);
  if (!g_spawn_check_wait_status (status, NULL))
    g_error ("profiling saxpy2 failed: %s", err);

  /* Before the trace exists the demo has no saxpy2; once it does, the next
   * use of the store adds it, with the trace copied into the workspace. */
  g_auto (GStrv) before = ws_system_store_list_apps (f->store, &error);
  g_assert_false (g_strv_contains ((const char *const *) before, "saxpy2"));
  g_setenv ("WARPSCOPE_DEMO_TRACE", trace_path, TRUE);
  gboolean ok = ws_system_store_ensure_demo (f->store, &error);
  g_setenv ("WARPSCOPE_DEMO_TRACE", "/nonexistent/saxpy2.wstrace", TRUE);
  g_assert_no_error (error);
  g_assert_true (ok);
  g_autoptr (WsAppModel) app = ws_system_store_get_app (f->store, "saxpy2", &error);
  g_assert_no_error (error);
  g_auto (GStrv) traces = ws_app_model_get_traces (app);
  g_autofree char *tdir = ws_system_store_trace_dir (f->store);
  g_assert_true (g_str_has_prefix (traces[0], tdir));

  g_autoptr (WsSystemModel) s = ws_system_store_get_system (f->store, "testbed-gtx970", &error);
  g_autoptr (WsSystemResult) r = run (f, s, app, NULL);

  g_autoptr (GPtrArray) plugins = ws_predictor_scan ();
  WsPredictorPlugin *volkov = ws_predictor_find (plugins, "volkov", &error);
  g_autoptr (WsGpu) gpu = ws_store_get_gpu (f->store, "GTX 970", &error);
  g_autoptr (WsTrace) trace = ws_trace_open (trace_path, &error);
  g_assert_no_error (error);
  g_autoptr (WsPrediction) p = ws_predict_trace (volkov, gpu, trace, 0, NULL, NULL, &error);
  g_assert_no_error (error);
  g_autoptr (WsLink) l = ws_store_get_link (f->store, "PCIe 3.1 x16 (GTX 970 test bed)", &error);
  double n = 16384 * 4;
  double ts_h = l->h2d_startup_us * 1e-6, rate_h = l->h2d_bandwidth_gbs * 1e9 * l->h2d_lambda;
  double ts_d = l->d2h_startup_us * 1e-6, rate_d = l->d2h_bandwidth_gbs * 1e9 * l->d2h_lambda;
  double t = (0 + ts_h) + n / rate_h;
  t = (t + ts_h) + n / rate_h;
  t = t + p->seconds;
  t = (t + ts_d) + n / rate_d;
  g_assert_cmpfloat (r->total_seconds, ==, t);
  g_assert_cmpfloat_with_epsilon (
    r->total_seconds, 2 * (3.97e-6 + n / (15.8e9 * 0.689)) + p->seconds + (5.16e-6 + n / (15.8e9 * 0.653)), 1e-15);
  g_assert_cmpfloat (p->seconds, >, 0);

  /* The same with the detailed simulator as the kernel-time source. */
  g_autoptr (WsSystemEnv) senv = ws_system_env_new (f->store, s, WS_SYSTEM_PREDICTOR_SIMULATOR, &error);
  g_assert_no_error (error);
  g_autoptr (WsSystemResult) rs = ws_system_evaluate (senv, app, NULL, &error);
  g_assert_no_error (error);
  WsSimConfig config;
  ws_sim_config_init (&config);
  g_autoptr (WsSim) sim = ws_sim_new (gpu, &config, &error);
  WsSimLaunchStats stats = { 0 };
  g_assert_true (ws_sim_run_launch (sim, trace, 0, NULL, &stats, &error));
  double sim_seconds = (double) stats.cycles / (gpu->core_clock_mhz * 1e6);
  ws_sim_launch_stats_clear (&stats);
  g_assert_cmpfloat (sim_seconds, >, 0);
  double ts = (0 + ts_h) + n / rate_h;
  ts = (ts + ts_h) + n / rate_h;
  ts = ts + sim_seconds;
  ts = (ts + ts_d) + n / rate_d;
  g_assert_cmpfloat (rs->total_seconds, ==, ts);

  /* With TBPoint: the kernel time is the region-sampled simulation's. */
  g_autoptr (WsSystemEnv) tenv = ws_system_env_new (f->store, s, WS_SYSTEM_PREDICTOR_SIMULATOR_TBPOINT, &error);
  g_assert_no_error (error);
  g_autoptr (WsSystemResult) rt = ws_system_evaluate (tenv, app, NULL, &error);
  g_assert_no_error (error);
  WsTbpointOptions topt;
  ws_tbpoint_options_init (&topt);
  topt.sampling = WS_SAMPLING_TBPOINT;
  g_autoptr (WsSim) tsim = ws_sim_new (gpu, &topt.sim, &error);
  guint n_regions = 0;
  g_assert_true (ws_tbpoint_simulate_launch (tsim, trace, 0, &topt, &stats, &n_regions, NULL, &error));
  g_assert_nonnull (stats.tb_simulated);
  double tb_seconds = (double) stats.cycles / (gpu->core_clock_mhz * 1e6);
  ws_sim_launch_stats_clear (&stats);
  g_assert_cmpuint (n_regions, >=, 1);
  double tt = (0 + ts_h) + n / rate_h;
  tt = (tt + ts_h) + n / rate_h;
  tt = tt + tb_seconds;
  tt = (tt + ts_d) + n / rate_d;
  g_assert_cmpfloat (rt->total_seconds, ==, tt);

  /* A cancelled environment stops the simulation and says so. */
  g_autoptr (WsSystemEnv) cenv = ws_system_env_new (f->store, s, WS_SYSTEM_PREDICTOR_SIMULATOR, &error);
  g_autoptr (GCancellable) cancellable = g_cancellable_new ();
  g_cancellable_cancel (cancellable);
  ws_system_env_set_cancellable (cenv, cancellable);
  g_autoptr (WsSystemResult) rc = ws_system_evaluate (cenv, app, NULL, &error);
  g_assert_null (rc);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_nonnull (strstr (error->message, "operation 3 (kernel)"));
  g_clear_error (&error);

  /* The simulator needs a trace: an analytic kernel is refused clearly. */
  g_autoptr (WsAppModel) analytic = ws_system_store_get_app (f->store, "saxpy2-analytic", &error);
  g_autoptr (WsSystemResult) none = ws_system_evaluate (senv, analytic, NULL, &error);
  g_assert_null (none);
  g_assert_nonnull (strstr (error->message, "operation 4 (kernel): the detailed simulator needs a profiled kernel"));
}


/* A long loop unrolls and simulates in time linear in its length. */
static void
test_long_loop (Fixture *f, gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WsSystemModel) s = ws_system_store_get_system (f->store, "testbed-gtx970", &error);
  g_autoptr (WsAppModel) app = app_from (
    "{\"name\":\"long\",\"variables\":[{\"name\":\"K\",\"default\":50000}],\"processes\":[{\"label\":\"CPU\","
    "\"operations\":[{\"op\":\"loop\",\"count\":\"K\",\"body\":[{\"op\":\"h2d\",\"bytes\":\"4096\"},"
    "{\"op\":\"host\",\"seconds\":\"1e-6\"},{\"op\":\"d2h\",\"bytes\":\"4096\"}]}]}]}");
  double t0 = ws_now_seconds ();
  g_autoptr (WsSystemResult) r = run (f, s, app, NULL);
  g_test_message ("150000 operations in %.3f s", ws_now_seconds () - t0);
  g_assert_cmpuint (r->operations->len, ==, 150000);
  double per = (3.97e-6 + 4096 / (15.8e9 * 0.689)) + 1e-6 + (5.16e-6 + 4096 / (15.8e9 * 0.653));
  g_assert_cmpfloat_with_epsilon (r->total_seconds, 50000 * per, 1e-9);
}

static void
test_deadlock_reported (Fixture *f, gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WsSystemModel) s = ws_system_store_get_system (f->store, "testbed-gtx970", &error);
  g_autoptr (WsAppModel)
    app = app_from ("{\"name\":\"dead\",\"processes\":[{\"label\":\"CPU\",\"operations\":"
                    "[{\"op\":\"recv\",\"from\":\"GPU\"}]},{\"label\":\"GPU\",\"operations\":[]}]}");
  g_autofree char *msg = run_error (f, s, app);
  g_assert_nonnull (strstr (msg, "deadlock in application 'dead': label 'CPU' process 0 waits in a recv"));
}

/* ---- CLI ----------------------------------------------------------------- */

static JsonNode *
cli_json (Fixture *f, int *status, const char *first, ...)
{
  g_autoptr (GPtrArray) args = g_ptr_array_new ();
  g_autofree char *db = g_build_filename (f->dir, "cli.db", NULL);
  g_ptr_array_add (args, (gpointer) g_getenv ("WS_CLI"));
  g_ptr_array_add (args, (gpointer) "--db");
  g_ptr_array_add (args, db);
  g_ptr_array_add (args, (gpointer) "--json");
  va_list ap;
  va_start (ap, first);
  for (const char *a = first; a != NULL; a = va_arg (ap, const char *))
    g_ptr_array_add (args, (gpointer) a);
  va_end (ap);
  g_ptr_array_add (args, NULL);
  g_autofree char *out = NULL, *err = NULL;
  g_autoptr (GError) error = NULL;
  g_spawn_sync (NULL, (char **) args->pdata, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, &err, status, &error);
  g_assert_no_error (error);
  if (!g_spawn_check_wait_status (*status, NULL))
    {
      g_test_message ("stderr: %s", err);
      return NULL;
    }
  return system_test_parse (out);
}

static void
test_cli_json (Fixture *f, gconstpointer data)
{
  if (g_getenv ("WS_CLI") == NULL)
    {
      g_test_skip ("WS_CLI not set");
      return;
    }
  int status;
  g_autoptr (JsonNode) list = cli_json (f, &status, "model", "list", NULL);
  g_assert_nonnull (list);
  JsonObject *lo = json_node_get_object (list);
  JsonArray *sys = json_object_get_array_member (lo, "systems");
  JsonArray *apps = json_object_get_array_member (lo, "applications");
  g_assert_cmpuint (json_array_get_length (sys), ==, 3);
  g_assert_cmpstr (json_array_get_string_element (sys, 1), ==, "testbed-gtx970");
  g_assert_cmpstr (json_array_get_string_element (apps, 0), ==, "saxpy2-analytic");

  g_autoptr (JsonNode) runs = cli_json (f, &status, "model", "run", "--system", "testbed-gtx970", "--app",
                                        "saxpy2-analytic", "--set", "blockSize=128", "--sweep", "N=1024,2048",
                                        "--sweep", "computeIntensity=1:2:1", "--predictor", "volkov", NULL);
  g_assert_nonnull (runs);
  JsonArray *ra = json_object_get_array_member (json_node_get_object (runs), "runs");
  g_assert_cmpuint (json_array_get_length (ra), ==, 4);
  JsonObject *r0 = json_array_get_object_element (ra, 0);
  JsonObject *vars = json_object_get_object_member (r0, "variables");
  g_assert_cmpfloat (json_object_get_double_member (vars, "N"), ==, 1024);
  g_assert_cmpfloat (json_object_get_double_member (vars, "blockSize"), ==, 128);
  g_assert_cmpfloat (json_object_get_double_member (vars, "computeIntensity"), ==, 1);
  g_assert_cmpfloat (json_object_get_double_member (r0, "total_seconds"), >, 0);
  JsonArray *ops = json_object_get_array_member (r0, "operations");
  g_assert_cmpuint (json_array_get_length (ops), ==, 9);
  static const char *const fields[] = { "label", "op", "component", "bytes", "start", "end" };
  gboolean seen_kernel = FALSE;
  for (guint i = 0; i < json_array_get_length (ops); i++)
    {
      JsonObject *o = json_array_get_object_element (ops, i);
      for (guint k = 0; k < G_N_ELEMENTS (fields); k++)
        g_assert_true (json_object_has_member (o, fields[k]));
      const char *op = json_object_get_string_member (o, "op");
      g_assert_true (
        g_strv_contains ((const char *const[]){ "h2d", "d2h", "kernel", "host", "send", "recv", "barrier", NULL }, op));
      if (strcmp (op, "kernel") == 0)
        {
          seen_kernel = TRUE;
          g_assert_cmpstr (json_object_get_string_member (o, "label"), ==, "GPU");
          g_assert_cmpstr (json_object_get_string_member (o, "component"), ==, "host/gpu");
        }
    }
  g_assert_true (seen_kernel);
  g_assert_cmpint (json_object_get_int_member (json_node_get_object (runs), "sweep_id"), >, 0);

  /* Errors: unknown app -> exit 2; a capacity problem -> exit 2 with the message. */
  g_autoptr (JsonNode)
    none = cli_json (f, &status, "model", "run", "--system", "testbed-gtx970", "--app", "saxpy3", NULL);
  g_assert_null (none);
  g_assert_true (WIFEXITED (status) && WEXITSTATUS (status) == 2);

  /* Without --app the usage line names every option of model run. */
  {
    g_autofree char *db = g_build_filename (f->dir, "cli.db", NULL);
    const char *argv[] = { g_getenv ("WS_CLI"), "--db", db, "model", "run", "--system", "testbed-gtx970", NULL };
    g_autofree char *err = NULL;
    g_autoptr (GError) error = NULL;
    g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, NULL, &err, &status, &error);
    g_assert_no_error (error);
    g_assert_true (WIFEXITED (status) && WEXITSTATUS (status) == 2);
    g_assert_nonnull (strstr (err, "usage: model run --system NAME --app NAME [--set VAR=V]... "
                                   "[--sweep VAR=LIST|A:B:STEP]... [--predictor NAME] [--option PLUGIN.KEY=VALUE]... "
                                   "[--in-process] [--plugin-timeout SECONDS] [--threads N] [--no-store] [--json]"));
  }

  /* export -> import under a new name round-trips. */
  g_autofree char *file = g_build_filename (f->dir, "exported.json", NULL);
  g_autoptr (JsonNode) ex = NULL;
  {
    g_autofree char *db = g_build_filename (f->dir, "cli.db", NULL);
    const char *argv[] = { g_getenv ("WS_CLI"), "--db", db, "model", "export", "testbed-titanx", "-o", file, NULL };
    g_autoptr (GError) error = NULL;
    g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, NULL, NULL, &status, &error);
    g_assert_no_error (error);
    g_assert_true (g_spawn_check_wait_status (status, NULL));
  }
  g_autofree char *content = NULL;
  g_assert_true (g_file_get_contents (file, &content, NULL, NULL));
  g_assert_nonnull (strstr (content, "\"hw\": \"PCIe 2.0 x4 (GTX TITAN X test bed)\""));
  char *renamed = g_strdup (content);
  char *at = strstr (renamed, "testbed-titanx");
  memcpy (at, "testbed-TITANY", 14);
  g_assert_true (g_file_set_contents (file, renamed, -1, NULL));
  g_free (renamed);
  {
    g_autofree char *db = g_build_filename (f->dir, "cli.db", NULL);
    const char *argv[] = { g_getenv ("WS_CLI"), "--db", db, "model", "import", file, NULL };
    g_autoptr (GError) error = NULL;
    g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, NULL, NULL, &status, &error);
    g_assert_true (g_spawn_check_wait_status (status, NULL));
  }
  g_autoptr (JsonNode) list2 = cli_json (f, &status, "model", "list", NULL);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (json_node_get_object (list2), "systems")), ==,
                    4);
}

/* Deleting models: the store and `model delete`; stored sweeps keep the
 * records they ran with. */
static void
test_delete_models (Fixture *f, gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WsSystemModel) s = ws_system_store_get_system (f->store, "testbed-gtx970", &error);
  g_autoptr (WsAppModel) app = ws_system_store_get_app (f->store, "saxpy2-analytic", &error);
  g_autoptr (WsSystemEnv) env = ws_system_env_new (f->store, s, NULL, &error);
  g_autoptr (GPtrArray) results = g_ptr_array_new_with_free_func ((GDestroyNotify) ws_system_result_free);
  char *system_name = NULL, *app_name = NULL;

  g_assert_no_error (error);
  g_ptr_array_add (results, ws_system_evaluate (env, app, NULL, &error));
  g_assert_no_error (error);
  gint64 sweep = ws_system_store_put_sweep (f->store, s, app, "volkov", NULL, results, 0.1, &error);
  g_assert_cmpint (sweep, >, 0);

  g_assert_true (ws_system_store_delete_app (f->store, "saxpy2-analytic", &error));
  g_assert_no_error (error);
  g_assert_null (ws_system_store_get_app (f->store, "saxpy2-analytic", &error));
  g_assert_error (error, WS_ERROR, WS_ERROR_NOT_FOUND);
  g_clear_error (&error);
  g_assert_false (ws_system_store_delete_app (f->store, "saxpy2-analytic", &error));
  g_assert_error (error, WS_ERROR, WS_ERROR_NOT_FOUND);
  g_clear_error (&error);
  g_assert_true (ws_system_store_delete_system (f->store, "testbed-titanx", &error));
  g_auto (GStrv) systems = ws_system_store_list_systems (f->store, &error);
  g_assert_cmpuint (g_strv_length (systems), ==, 2);
  g_assert_false (g_strv_contains ((const char *const *) systems, "testbed-titanx"));
  /* The sweep is still there, with the deleted application's name. */
  g_autoptr (GPtrArray) back = ws_system_store_get_sweep (f->store, sweep, &system_name, &app_name, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (back->len, ==, 1);
  g_assert_cmpstr (app_name, ==, "saxpy2-analytic");
  g_free (system_name);
  g_free (app_name);

  if (g_getenv ("WS_CLI") == NULL)
    return;
  int status;
  g_autoptr (JsonNode) list = cli_json (f, &status, "model", "list", NULL); /* creates the CLI's demo */
  g_assert_nonnull (list);
  g_autoptr (JsonNode) gone = cli_json (f, &status, "model", "delete", "--app", "saxpy2-analytic", NULL);
  g_assert_nonnull (gone);
  g_assert_cmpstr (json_object_get_string_member (json_node_get_object (gone), "deleted"), ==, "saxpy2-analytic");
  g_assert_cmpstr (json_object_get_string_member (json_node_get_object (gone), "kind"), ==, "application");
  g_autoptr (JsonNode) again = cli_json (f, &status, "model", "delete", "saxpy2-analytic", NULL);
  g_assert_null (again);
  g_assert_cmpint (WEXITSTATUS (status), ==, 2);
  g_autoptr (JsonNode) after = cli_json (f, &status, "model", "list", NULL);
  JsonArray *apps = json_object_get_array_member (json_node_get_object (after), "applications");
  for (guint i = 0; i < json_array_get_length (apps); i++)
    g_assert_cmpstr (json_array_get_string_element (apps, i), !=, "saxpy2-analytic");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  /* The demo must not pick up a trace or a program from the developer's
   * build tree here. */
  g_setenv ("WARPSCOPE_DEMO_TRACE", "/nonexistent/saxpy2.wstrace", TRUE);
  g_setenv ("WARPSCOPE_DEMO_PROGRAM", "/nonexistent/saxpy2", TRUE);
#define ADD(path, fn) g_test_add (path, Fixture, NULL, fixture_set_up, fn, fixture_tear_down)
  ADD ("/system/transfer/table-6-2-links-exact", test_transfer_table_6_2);
  ADD ("/system/transfer/contention-shares-bandwidth", test_transfer_contention);
  ADD ("/system/network/two-machines", test_network_two_machines);
  ADD ("/system/cuda/async-kernel-blocking-copy", test_cuda_async_kernel);
  ADD ("/system/app/loops-and-conditionals", test_loops_and_conditionals);
  ADD ("/system/app/expression-errors-name-operation-and-column", test_expression_errors);
  ADD ("/system/map/capacity-and-label-errors", test_capacity_errors);
  ADD ("/system/model/validation-errors", test_validation_errors);
  ADD ("/system/saxpy2-analytic/total-is-transfers-plus-volkov", test_saxpy2_analytic_total);
  ADD ("/system/saxpy2/profiled-total-is-transfers-plus-predictor", test_saxpy2_profiled_total);
  ADD ("/system/sweep/stored-and-read-back", test_sweep_stored_and_read_back);
  ADD ("/system/sweep/twenty-points-over-n-stored", test_sweep_twenty_points);
  ADD ("/system/sweep/cancelled-points-flagged-in-json", test_sweep_cancelled_points_in_json);
  g_test_add_func ("/system/sweep/axis-parse", test_sweep_axis_parse);
  ADD ("/system/store/models-round-trip", test_models_round_trip);
  ADD ("/system/demo/workspace-created-once", test_demo_workspace);
  ADD ("/system/app/missing-trace-is-explained", test_missing_trace);
  ADD ("/system/eval/deadlock-reported", test_deadlock_reported);
  ADD ("/system/eval/long-loop-linear", test_long_loop);
  ADD ("/system/cli/json-fields", test_cli_json);
  ADD ("/system/store/delete-models", test_delete_models);
  return g_test_run ();
}
