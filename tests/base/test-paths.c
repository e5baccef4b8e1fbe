/* test-paths.c: the one "where are my files" helper (core/base/ws-paths.c):
 * build-tree paths when running from the build tree, installed paths
 * otherwise, the decision made from the executable's path, and the
 * per-file environment overrides. */
#include "ws-config.h"

#include <string.h>
#include <glib.h>
#include "base/ws-paths.h"

static void
test_decision_from_exe_path (void)
{
  g_autofree char *cli = g_build_filename (WS_BUILD_DIR, "app", "cli", "warpscope-cli", NULL);
  g_autofree char *sibling = g_strconcat (WS_BUILD_DIR, "-other/warpscope-cli", NULL);
  g_autofree char *installed = g_build_filename (WS_BIN_DIR, "warpscope-cli", NULL);

  g_assert_true (ws_paths_exe_is_uninstalled (cli));
  /* A folder whose name starts like the build tree's is not inside it. */
  g_assert_false (ws_paths_exe_is_uninstalled (sibling));
  g_assert_false (ws_paths_exe_is_uninstalled (installed));
  g_assert_false (ws_paths_exe_is_uninstalled ("/usr/bin/warpscope"));
}

static void
test_this_test_runs_uninstalled (void)
{
  g_unsetenv ("WARPSCOPE_UNINSTALLED");
  /* meson runs the test from the build tree. */
  g_assert_true (ws_paths_running_uninstalled ());
  g_unsetenv ("WARPSCOPE_CUDART_DIR");
  g_autofree char *cudart = ws_paths_get (WS_PATH_CUDART_DIR);
  g_autofree char *want = g_build_filename (WS_BUILD_DIR, "core", "cudart", NULL);
  g_assert_cmpstr (cudart, ==, want);
}

static gboolean
has_dir_prefix (const char *path, const char *dir)
{
  gsize n = strlen (dir);
  return strncmp (path, dir, n) == 0 && (path[n] == '/' || path[n] == '\0');
}

/* Every kind: uninstalled under the build or source tree, installed under
 * the configured prefix's folders, never in the source or build tree. */
static void
test_every_kind_both_ways (void)
{
  g_autofree char *libdir = g_path_get_dirname (WS_PLUGIN_DIR);
  for (int k = 0; k < WS_PATH_N_KINDS; k++)
    {
      g_autofree char *built = ws_paths_get_for (k, TRUE);
      g_autofree char *inst = ws_paths_get_for (k, FALSE);
      g_assert_true (has_dir_prefix (built, WS_BUILD_DIR) || has_dir_prefix (built, WS_SOURCE_DIR));
      g_assert_true (has_dir_prefix (inst, libdir) || has_dir_prefix (inst, WS_DATA_DIR)
                     || has_dir_prefix (inst, WS_BIN_DIR));
      g_assert_false (has_dir_prefix (inst, WS_BUILD_DIR) || has_dir_prefix (inst, WS_SOURCE_DIR));
    }
  g_autofree char *demo = ws_paths_get_for (WS_PATH_DEMO_TRACE, FALSE);
  g_autofree char *want_demo = g_build_filename (WS_DATA_DIR, "demo", "saxpy2.wstrace", NULL);
  g_assert_cmpstr (demo, ==, want_demo);
  g_autofree char *worker = ws_paths_get_for (WS_PATH_PREDICT_WORKER, TRUE);
  g_autofree char *want_worker = g_build_filename (WS_BUILD_DIR, "core", "warpscope-predict-worker", NULL);
  g_assert_cmpstr (worker, ==, want_worker);
  g_autofree char *plugins = ws_paths_get_for (WS_PATH_PLUGIN_DIR, FALSE);
  g_assert_cmpstr (plugins, ==, WS_PLUGIN_DIR);
}

/* WARPSCOPE_UNINSTALLED decides for the whole process: an installed
 * binary's answers, then the build tree's. */
static void
test_override_installed_and_uninstalled (void)
{
  g_unsetenv ("WARPSCOPE_DEMO_TRACE");
  g_unsetenv ("WS_CLI");
  g_setenv ("WARPSCOPE_UNINSTALLED", "0", TRUE);
  g_assert_false (ws_paths_running_uninstalled ());
  g_autofree char *demo = ws_paths_get (WS_PATH_DEMO_TRACE);
  g_autofree char *want_demo = g_build_filename (WS_DATA_DIR, "demo", "saxpy2.wstrace", NULL);
  g_assert_cmpstr (demo, ==, want_demo);
  g_autofree char *cli = ws_paths_get (WS_PATH_CLI);
  g_autofree char *want_cli = g_build_filename (WS_BIN_DIR, "warpscope-cli", NULL);
  g_assert_cmpstr (cli, ==, want_cli);
  g_autofree char *bench = ws_paths_get (WS_PATH_CALIBRATION_SOURCE);
  g_autofree char *want_bench = g_build_filename (WS_DATA_DIR, "calibration", "ws-calibrate.cu", NULL);
  g_assert_cmpstr (bench, ==, want_bench);

  g_setenv ("WARPSCOPE_UNINSTALLED", "1", TRUE);
  g_assert_true (ws_paths_running_uninstalled ());
  g_autofree char *cli2 = ws_paths_get (WS_PATH_CLI);
  g_autofree char *want_cli2 = g_build_filename (WS_BUILD_DIR, "app", "cli", "warpscope-cli", NULL);
  g_assert_cmpstr (cli2, ==, want_cli2);
  /* Uninstalled, the demo trace is this build's recording or the source
   * tree's copy. */
  g_autofree char *demo2 = ws_paths_get (WS_PATH_DEMO_TRACE);
  g_autofree char *built = g_build_filename (WS_BUILD_DIR, "demo", "saxpy2.wstrace", NULL);
  g_autofree char *shipped = g_build_filename (WS_SOURCE_DIR, "db", "workspace", "saxpy2.wstrace", NULL);
  g_assert_cmpstr (demo2, ==, g_file_test (built, G_FILE_TEST_IS_REGULAR) ? built : shipped);
  g_unsetenv ("WARPSCOPE_UNINSTALLED");
}

/* A file's own variable wins over both. */
static void
test_env_override_per_file (void)
{
  g_assert_cmpstr (ws_paths_env_name (WS_PATH_CUDART_DIR), ==, "WARPSCOPE_CUDART_DIR");
  g_assert_null (ws_paths_env_name (WS_PATH_DATA_DIR));
  g_setenv ("WARPSCOPE_CUDART_DIR", "/opt/elsewhere/cudart", TRUE);
  g_autofree char *dir = ws_paths_get (WS_PATH_CUDART_DIR);
  g_assert_cmpstr (dir, ==, "/opt/elsewhere/cudart");
  g_setenv ("WARPSCOPE_CUDART_DIR", "", TRUE); /* empty: not set */
  g_autofree char *dir2 = ws_paths_get (WS_PATH_CUDART_DIR);
  g_assert_cmpstr (dir2, !=, "");
  g_unsetenv ("WARPSCOPE_CUDART_DIR");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/base/paths/decision-from-exe-path", test_decision_from_exe_path);
  g_test_add_func ("/base/paths/test-runs-uninstalled", test_this_test_runs_uninstalled);
  g_test_add_func ("/base/paths/every-kind-build-tree-or-prefix", test_every_kind_both_ways);
  g_test_add_func ("/base/paths/override-installed-and-uninstalled", test_override_installed_and_uninstalled);
  g_test_add_func ("/base/paths/env-override-per-file", test_env_override_per_file);
  return g_test_run ();
}
