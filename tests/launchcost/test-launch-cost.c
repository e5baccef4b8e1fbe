/* Tests of the launch-cost model (core/launchcost): the time per launch of
 * back-to-back stream and graph launches from the catalogue's launch fields,
 * and the seed catalogue's launch fields and their sources. */
#include "launchcost/ws-launch-cost.h"
#include "../sim/sim-test-util.h"

#include <math.h>
#include <string.h>

#define US 1e-6

static void
assert_cost (const WsGpu *gpu, WsLaunchMode mode, double exec, double wall, const char *limiter)
{
  WsLaunchCost c;
  g_assert_true (ws_launch_cost (gpu, mode, exec, &c));
  g_assert_cmpint (c.mode, ==, mode);
  g_assert_cmpfloat_with_epsilon (c.exec_seconds, exec, 1e-15);
  g_assert_cmpfloat_with_epsilon (c.wall_seconds, wall, 1e-15);
  g_assert_cmpfloat_with_epsilon (c.overhead_seconds, wall - exec, 1e-15);
  g_assert_cmpfloat (c.overhead_seconds, >=, 0);
  g_assert_cmpstr (c.limiter, ==, limiter);
  g_assert_cmpfloat_with_epsilon (ws_launch_cost_wall_seconds (gpu, mode, exec), wall, 1e-15);
}

/* The records the validation uses carry the sourced platform values: the
 * stream gap of Ampere and Hopper is derived from the H100 null-kernel
 * times (2.1 - (1.3 - 0.5) us), Volta's is Gray's V100 measurement. */
static void
test_catalogue_values (void)
{
  static const struct {
    const char *file;
    double gap;
  } records[] = { { "h200.json", 1.3 },           { "h100-pcie.json", 1.3 }, { "h100-sxm.json", 1.3 },
                  { "a100.json", 1.3 },           { "a100-80gb.json", 1.3 }, { "tesla-v100.json", 0.9 },
                  { "tesla-v100-pcie.json", 0.9 } };
  for (guint i = 0; i < G_N_ELEMENTS (records); i++)
    {
      g_autoptr (WsGpu) g = catalogue_gpu (records[i].file);
      g_assert_cmpfloat (g->launch_interval_us, ==, 2.1);
      g_assert_cmpfloat (g->launch_gap_us, ==, records[i].gap);
      g_assert_cmpfloat (g->graph_launch_interval_us, ==, 1.3);
      g_assert_cmpfloat (g->graph_launch_gap_us, ==, 0.5);
      /* Where the stream gap is derived, a null kernel executes as long
       * in both modes (0.8 us). */
      if (records[i].gap == 1.3)
        g_assert_cmpfloat_with_epsilon (g->launch_interval_us - g->launch_gap_us,
                                        g->graph_launch_interval_us - g->graph_launch_gap_us, 1e-12);
    }
}

/* Every record that gives a launch field names it in its sources. */
static void
test_catalogue_sources (void)
{
  const char *src = g_getenv ("WS_SOURCE_DIR");
  g_autofree char *dirpath = g_build_filename (src, "db", "catalogue", "gpu", NULL);
  g_autoptr (GDir) dir = g_dir_open (dirpath, 0, NULL);
  g_assert_nonnull (dir);
  const char *entry;
  guint with = 0;
  while ((entry = g_dir_read_name (dir)) != NULL)
    {
      if (!g_str_has_suffix (entry, ".json"))
        continue;
      g_autoptr (WsGpu) g = catalogue_gpu (entry);
      const struct {
        const char *name;
        double v;
      } f[] = { { "launch_interval_us", g->launch_interval_us },
                { "launch_gap_us", g->launch_gap_us },
                { "graph_launch_interval_us", g->graph_launch_interval_us },
                { "graph_launch_gap_us", g->graph_launch_gap_us } };
      gboolean any = FALSE;
      for (guint k = 0; k < G_N_ELEMENTS (f); k++)
        if (f[k].v > 0)
          {
            any = TRUE;
            if (g->sources == NULL || strstr (g->sources, f[k].name) == NULL)
              g_error ("%s: sources do not say where '%s' comes from", entry, f[k].name);
            /* Physically possible: a launch takes some time, but far less than a millisecond. */
            g_assert_cmpfloat (f[k].v, <, 100);
          }
      with += any;
    }
  g_assert_cmpuint (with, >=, 7);
}

/* Stream: a short kernel waits for the host and front end (the interval), a
 * long one for its own end plus the device gap; the two meet at
 * exec = interval - gap. */
static void
test_stream (void)
{
  g_autoptr (WsGpu) g = catalogue_gpu ("h200.json");
  assert_cost (g, WS_LAUNCH_MODE_STREAM, 0, 2.1 * US, "interval");
  assert_cost (g, WS_LAUNCH_MODE_STREAM, 0.5 * US, 2.1 * US, "interval");
  assert_cost (g, WS_LAUNCH_MODE_STREAM, 1.3 * US, 2.6 * US, "gap");
  assert_cost (g, WS_LAUNCH_MODE_STREAM, 10 * US, 11.3 * US, "gap");
  assert_cost (g, WS_LAUNCH_MODE_STREAM, 1e-3, 1e-3 + 1.3 * US, "gap");
  /* Monotonic in the kernel's time, never below it. */
  double last = 0;
  for (double e = 0; e < 5 * US; e += 0.05 * US)
    {
      double w = ws_launch_cost_wall_seconds (g, WS_LAUNCH_MODE_STREAM, e);
      g_assert_cmpfloat (w, >=, last);
      g_assert_cmpfloat (w, >=, e + 1.3 * US - 1e-15);
      last = w;
    }
}

/* Graph: the same rule with the graph's interval and gap, which are smaller. */
static void
test_graph (void)
{
  g_autoptr (WsGpu) g = catalogue_gpu ("a100-80gb.json");
  assert_cost (g, WS_LAUNCH_MODE_GRAPH, 0.2 * US, 1.3 * US, "interval");
  assert_cost (g, WS_LAUNCH_MODE_GRAPH, 2 * US, 2.5 * US, "gap");
  for (double e = 0; e < 5 * US; e += 0.1 * US)
    g_assert_cmpfloat (ws_launch_cost_wall_seconds (g, WS_LAUNCH_MODE_GRAPH, e), <,
                       ws_launch_cost_wall_seconds (g, WS_LAUNCH_MODE_STREAM, e));
}

/* Values come from the record, not from constants in the model. */
static void
test_from_record (void)
{
  g_autoptr (WsGpu) g = catalogue_gpu ("h200.json");
  g->launch_interval_us = 7;
  g->launch_gap_us = 3;
  g->graph_launch_interval_us = 4;
  g->graph_launch_gap_us = 0;
  assert_cost (g, WS_LAUNCH_MODE_STREAM, 1 * US, 7 * US, "interval");
  assert_cost (g, WS_LAUNCH_MODE_STREAM, 5 * US, 8 * US, "gap");
  assert_cost (g, WS_LAUNCH_MODE_GRAPH, 1 * US, 4 * US, "interval");
  assert_cost (g, WS_LAUNCH_MODE_GRAPH, 6 * US, 6 * US, "gap");
}

/* A record without launch data charges nothing and says so. */
static void
test_unknown (void)
{
  g_autoptr (WsGpu) g = catalogue_gpu ("gtx-970.json");
  g_assert_cmpfloat (g->launch_interval_us, ==, 0);
  WsLaunchCost c;
  g_assert_false (ws_launch_cost (g, WS_LAUNCH_MODE_STREAM, 3 * US, &c));
  g_assert_cmpfloat (c.wall_seconds, ==, 3 * US);
  g_assert_cmpfloat (c.overhead_seconds, ==, 0);
  g_assert_cmpstr (c.limiter, ==, "unknown");
  g_assert_cmpfloat (ws_launch_cost_wall_seconds (g, WS_LAUNCH_MODE_GRAPH, 3 * US), ==, 3 * US);
}

static void
test_mode_names (void)
{
  WsLaunchMode m;
  for (guint i = 0; i < WS_LAUNCH_MODE_COUNT; i++)
    {
      g_assert_true (ws_launch_mode_from_string (ws_launch_mode_name ((WsLaunchMode) i), &m));
      g_assert_cmpint (m, ==, i);
    }
  g_assert_cmpstr (ws_launch_mode_name (WS_LAUNCH_MODE_GRAPH), ==, "graph");
  g_assert_false (ws_launch_mode_from_string ("persistent", &m));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/launch-cost/catalogue/validated-records-carry-platform-values", test_catalogue_values);
  g_test_add_func ("/launch-cost/catalogue/sources-name-every-launch-field", test_catalogue_sources);
  g_test_add_func ("/launch-cost/stream/interval-or-end-plus-gap", test_stream);
  g_test_add_func ("/launch-cost/graph/smaller-interval-and-gap", test_graph);
  g_test_add_func ("/launch-cost/values-from-the-record", test_from_record);
  g_test_add_func ("/launch-cost/unknown-record-charges-nothing", test_unknown);
  g_test_add_func ("/launch-cost/mode-names", test_mode_names);
  return g_test_run ();
}
