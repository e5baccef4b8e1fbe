/* End-to-end tests of `warpscope-cli plot` ($WS_CLI) on the JSON shapes that
 * other commands emit (tests/data/chart) and on CSV input. */
#include <string.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <cairo.h>

typedef struct {
  char *dir;
  char *out, *err;
  int status;
} Fixture;

static void
fixture_set_up (Fixture *f, gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  f->dir = g_dir_make_tmp ("ws-chart-cli-XXXXXX", &error);
  g_assert_no_error (error);
}

static void
fixture_tear_down (Fixture *f, gconstpointer data)
{
  g_autoptr (GDir) d = g_dir_open (f->dir, 0, NULL);
  const char *name;
  while (d && (name = g_dir_read_name (d)))
    {
      g_autofree char *p = g_build_filename (f->dir, name, NULL);
      g_remove (p);
    }
  g_rmdir (f->dir);
  g_free (f->dir);
  g_free (f->out);
  g_free (f->err);
}

static char *
data_path (const char *name)
{
  return g_build_filename (g_getenv ("WS_SOURCE_DIR"), "tests", "data", "chart", name, NULL);
}

static char *
out_path (Fixture *f, const char *name)
{
  return g_build_filename (f->dir, name, NULL);
}

/* Runs warpscope-cli with the NULL-terminated arguments; returns the exit code. */
static int
run_cli (Fixture *f, ...)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_ptr_array_add (argv, (char *) g_getenv ("WS_CLI"));
  va_list ap;
  va_start (ap, f);
  const char *a;
  while ((a = va_arg (ap, const char *)) != NULL)
    g_ptr_array_add (argv, (char *) a);
  va_end (ap);
  g_ptr_array_add (argv, NULL);
  g_clear_pointer (&f->out, g_free);
  g_clear_pointer (&f->err, g_free);
  g_autoptr (GError) error = NULL;
  g_assert_true (g_spawn_sync (f->dir, (char **) argv->pdata, NULL, G_SPAWN_DEFAULT, NULL, NULL, &f->out, &f->err,
                               &f->status, &error));
  g_assert_no_error (error);
  if (WIFEXITED (f->status))
    return WEXITSTATUS (f->status);
  return -1;
}

static void
assert_png (const char *path, int w, int h)
{
  cairo_surface_t *s = cairo_image_surface_create_from_png (path);
  g_assert_cmpint (cairo_surface_status (s), ==, CAIRO_STATUS_SUCCESS);
  g_assert_cmpint (cairo_image_surface_get_width (s), ==, w);
  g_assert_cmpint (cairo_image_surface_get_height (s), ==, h);
  cairo_surface_destroy (s);
}

static char *
read_text (const char *path)
{
  char *text = NULL;
  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  return text;
}

static void
test_line_model_runs_measured (Fixture *f, gconstpointer data)
{
  g_autofree char *v = data_path ("sweep-volkov.json"), *g = data_path ("sweep-gpumech.json");
  g_autofree char *m = data_path ("measured.csv");
  g_autofree char *png = out_path (f, "line.png"), *csv = out_path (f, "line.csv"), *svg = out_path (f, "line.svg");
  g_assert_cmpint (run_cli (f, "plot", "line", "--input", v, "--input", g, "--measured", m, "--log-x", "--log-y", "--x",
                            "N", "-o", png, "--width", "800", "--height", "500", NULL),
                   ==, 0);
  assert_png (png, 800, 500);
  g_assert_cmpint (
    run_cli (f, "plot", "line", "--input", v, "--input", g, "--measured", m, "--title", "Sweep of N", "-o", svg, NULL),
    ==, 0);
  g_autofree char *s = read_text (svg);
  g_assert_nonnull (strstr (s, "<title>Sweep of N</title>"));
  g_assert_nonnull (strstr (s, "volkov"));
  g_assert_nonnull (strstr (s, "gpumech"));
  g_assert_nonnull (strstr (s, "measured"));
  /* the CSV carries the relative errors against the measured series */
  g_assert_cmpint (run_cli (f, "plot", "line", "--input", v, "--measured", m, "-o", csv, NULL), ==, 0);
  g_autofree char *c = read_text (csv);
  g_auto (GStrv) lines = g_strsplit (c, "\n", -1);
  g_assert_cmpstr (lines[0], ==, "series,x,y,rel_error");
  /* 9 predicted points (the x variable is found without --x) and 5 measured */
  g_assert_cmpuint (g_strv_length (lines), ==, 1 + 9 + 5 + 1);
  g_assert_true (g_str_has_prefix (lines[1], "volkov,65536,"));
  g_assert_false (g_str_has_suffix (lines[1], ",")); /* N=65536 was measured: it has an error */
  g_assert_true (g_str_has_suffix (lines[2], ","));  /* N=131072 was not */
  g_assert_true (g_str_has_prefix (lines[10], "measured,65536,"));
}

/* Issue 16: --measured reads its columns by name (core/measure, as the
 * GUI's Results page does): seconds before x is plotted with x on the x
 * axis, and a bad cell is named file:line:column. */
static void
test_measured_columns_by_name (Fixture *f, gconstpointer data)
{
  g_autofree char *v = data_path ("sweep-volkov.json");
  g_autofree char *swapped = out_path (f, "swapped.csv"), *bad = out_path (f, "bad.csv");
  g_autofree char *csv = out_path (f, "swapped-out.csv");
  g_assert_true (g_file_set_contents (swapped, "seconds,x\n1.38175e-05,65536\n0.000813076,16777216\n", -1, NULL));
  g_assert_cmpint (run_cli (f, "plot", "line", "--input", v, "--measured", swapped, "-o", csv, NULL), ==, 0);
  g_autofree char *c = read_text (csv);
  g_auto (GStrv) lines = g_strsplit (c, "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), ==, 1 + 9 + 2 + 1);
  g_assert_true (g_str_has_prefix (lines[10], "measured,65536,1.38175e-05"));
  g_assert_true (g_str_has_prefix (lines[11], "measured,16777216,0.000813076"));
  g_assert_false (g_str_has_suffix (lines[1], ",")); /* volkov at N=65536 has its error against it */

  g_assert_true (g_file_set_contents (bad, "x,seconds\n65536,slow\n", -1, NULL));
  g_assert_cmpint (run_cli (f, "plot", "line", "--input", v, "--measured", bad, "-o", csv, NULL), !=, 0);
}

static void
test_gantt_model_run (Fixture *f, gconstpointer data)
{
  g_autofree char *v = data_path ("sweep-volkov.json");
  g_autofree char *csv = out_path (f, "gantt.csv"), *pdf = out_path (f, "gantt.pdf");
  g_assert_cmpint (run_cli (f, "plot", "gantt", "--input", v, "--run", "2", "-o", csv, NULL), ==, 0);
  g_autofree char *c = read_text (csv);
  g_assert_true (g_str_has_prefix (c, "row,series,label,start,end\npcie0,memcpy_h2d,main,"));
  g_assert_nonnull (strstr (c, "\ngpu0,kernel,main saxpy,"));
  g_assert_cmpint (run_cli (f, "plot", "gantt", "--input", v, "-o", pdf, NULL), ==, 0);
  g_autofree char *p = read_text (pdf);
  g_assert_true (g_str_has_prefix (p, "%PDF-"));
  /* a run that does not exist is a usage error naming the count */
  g_assert_cmpint (run_cli (f, "plot", "gantt", "--input", v, "--run", "40", "-o", pdf, NULL), ==, 2);
  g_assert_nonnull (strstr (f->err, "9 runs"));
}

static void
test_stacked_predict (Fixture *f, gconstpointer data)
{
  g_autofree char *all = data_path ("predict-all.json"), *one = data_path ("predict-one.json");
  g_autofree char *csv = out_path (f, "cpi.csv"), *png = out_path (f, "cpi.png");
  g_assert_cmpint (run_cli (f, "plot", "stacked", "--input", all, "-o", csv, NULL), ==, 0);
  g_autofree char *c = read_text (csv);
  g_auto (GStrv) lines = g_strsplit (c, "\n", -1);
  g_assert_cmpstr (lines[0], ==, "bar,BASE,DEP,L1,L2,DRAM,MSHR,QUEUE,total");
  g_assert_cmpuint (g_strv_length (lines), ==, 1 + 6 + 1);
  g_assert_cmpstr (lines[1], ==, "gpumech #0,1,0.4,0.3,0,1.5,0,0.15,3.35");
  g_assert_true (g_str_has_prefix (lines[4], "ake #0,"));
  g_assert_cmpint (run_cli (f, "plot", "stacked", "--input", one, "-o", png, NULL), ==, 0);
  assert_png (png, 900, 560);
  /* CPI stacks are not a line chart */
  g_assert_cmpint (run_cli (f, "plot", "line", "--input", all, "-o", png, NULL), ==, 2);
  g_assert_nonnull (strstr (f->err, "stacked"));
}

static void
test_heatmap_and_tbpoint (Fixture *f, gconstpointer data)
{
  g_autofree char *h = data_path ("heatmap.json"), *t = data_path ("tbpoint.json");
  g_autofree char *csv = out_path (f, "heat.csv"), *svg = out_path (f, "tb.svg"), *tcsv = out_path (f, "tb.csv");
  g_assert_cmpint (run_cli (f, "plot", "heatmap", "--input", h, "-o", csv, NULL), ==, 0);
  g_autofree char *c = read_text (csv);
  g_auto (GStrv) lines = g_strsplit (c, "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), ==, 1 + 32 * 32 + 1);
  g_assert_cmpint (run_cli (f, "plot", "tbpoint", "--input", t, "-o", svg, NULL), ==, 0);
  g_autofree char *s = read_text (svg);
  g_assert_nonnull (strstr (s, "region 2"));
  g_assert_nonnull (strstr (s, "TB id"));
  g_assert_cmpint (run_cli (f, "plot", "tbpoint", "--input", t, "-o", tcsv, NULL), ==, 0);
  g_autofree char *tc = read_text (tcsv);
  g_assert_true (g_str_has_prefix (tc, "tb,size,region,simulated\n0,"));
  g_assert_nonnull (strstr (tc, ",region 0,1\n"));
  g_assert_nonnull (strstr (tc, ",region 0,0\n"));
}

static void
test_csv_input_and_json_summary (Fixture *f, gconstpointer data)
{
  g_autofree char *in = out_path (f, "in.csv"), *png = out_path (f, "s.png");
  g_assert_true (g_file_set_contents (in, "N,volkov,\"gpu mech\"\n1024,1e-5,1.2e-5\n2048,2e-5,\n", -1, NULL));
  g_assert_cmpint (run_cli (f, "--json", "plot", "scatter", "--input", in, "-o", png, "--hide", "gpu mech", NULL), ==,
                   0);
  g_assert_nonnull (strstr (f->out, "\"kind\" : \"scatter\""));
  g_assert_nonnull (strstr (f->out, "\"gpu mech\""));
  assert_png (png, 900, 560);
  /* mistakes are usage errors that say what to do */
  g_assert_cmpint (run_cli (f, "plot", "pie", "--input", in, "-o", png, NULL), ==, 2);
  g_assert_nonnull (strstr (f->err, "pie"));
  g_assert_cmpint (run_cli (f, "plot", "line", "--input", in, "-o", "x.jpeg", NULL), ==, 2);
  g_assert_nonnull (strstr (f->err, ".png"));
  g_assert_cmpint (run_cli (f, "plot", "line", "--input", in, "-o", png, "--hide", "nobody", NULL), ==, 2);
  g_assert_cmpint (run_cli (f, "plot", "line", "-o", png, NULL), ==, 2);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  if (g_getenv ("WS_CLI") == NULL || g_getenv ("WS_SOURCE_DIR") == NULL)
    {
      g_printerr ("WS_CLI and WS_SOURCE_DIR must be set (run through meson test)\n");
      return 1;
    }
#define ADD(path, fn) g_test_add (path, Fixture, NULL, fixture_set_up, fn, fixture_tear_down)
  ADD ("/chart/cli/line-model-runs-measured", test_line_model_runs_measured);
  ADD ("/chart/cli/measured-columns-by-name", test_measured_columns_by_name);
  ADD ("/chart/cli/gantt-model-run", test_gantt_model_run);
  ADD ("/chart/cli/stacked-predict", test_stacked_predict);
  ADD ("/chart/cli/heatmap-tbpoint", test_heatmap_and_tbpoint);
  ADD ("/chart/cli/csv-input-json-summary", test_csv_input_and_json_summary);
  return g_test_run ();
}
