/* ws-paths.c: installed or uninstalled, and where each of our files is in
 * either case (ws-paths.h). */
#include "ws-config.h"

#include <stdlib.h>
#include <string.h>

#include "base/ws-paths.h"

/* Uninstalled files live in the build tree (BUILD) or the source tree
 * (SOURCE); installed ones under <libdir>/warpscope (LIB), its plugins
 * folder (PLUGINS), <datadir>/warpscope (DATA) or <bindir> (BIN).  The meson
 * install rules put them there (core/, db/, examples/, app/). */
typedef enum { ROOT_BUILD, ROOT_SOURCE, ROOT_LIB, ROOT_DATA, ROOT_BIN, ROOT_PLUGINS } Root;

typedef struct {
  const char *env; /* overrides both, or NULL */
  Root uninstalled_root;
  const char *uninstalled; /* relative to uninstalled_root; NULL: the root itself */
  Root installed_root;
  const char *installed;
} PathEntry;

static const PathEntry entries[WS_PATH_N_KINDS] = {
  [WS_PATH_DATA_DIR] = { NULL, ROOT_SOURCE, NULL, ROOT_DATA, NULL },
  /* tools/headless-demo.sh profiles a fresh one into the build tree; see
   * ws_paths_get for the fall-back to the source tree's. */
  [WS_PATH_DEMO_TRACE] = { "WARPSCOPE_DEMO_TRACE", ROOT_BUILD, "demo/saxpy2.wstrace", ROOT_DATA,
                           "demo/saxpy2.wstrace" },
  [WS_PATH_DEMO_PROGRAM] = { "WARPSCOPE_DEMO_PROGRAM", ROOT_BUILD, "examples/saxpy2", ROOT_LIB, "examples/saxpy2" },
  [WS_PATH_CALIBRATION_SOURCE] = { NULL, ROOT_SOURCE, "bench/calibration/ws-calibrate.cu", ROOT_DATA,
                                   "calibration/ws-calibrate.cu" },
  [WS_PATH_CUDART_DIR] = { "WARPSCOPE_CUDART_DIR", ROOT_BUILD, "core/cudart", ROOT_LIB, NULL },
  [WS_PATH_CUPTI_LIBRARY] = { "WARPSCOPE_CUPTI_LIBRARY", ROOT_BUILD, "core/measure/libws-cupti-inject.so", ROOT_LIB,
                              "libws-cupti-inject.so" },
  [WS_PATH_PLUGIN_DIR] = { NULL, ROOT_BUILD, "plugins", ROOT_PLUGINS, NULL },
  [WS_PATH_PREDICT_WORKER] = { "WARPSCOPE_PREDICT_WORKER", ROOT_BUILD, "core/warpscope-predict-worker", ROOT_LIB,
                               "warpscope-predict-worker" },
  [WS_PATH_CLI] = { "WS_CLI", ROOT_BUILD, "app/cli/warpscope-cli", ROOT_BIN, "warpscope-cli" },
};

static char *
root_dir (Root root)
{
  switch (root)
    {
    case ROOT_BUILD: return g_strdup (WS_BUILD_DIR);
    case ROOT_SOURCE: return g_strdup (WS_SOURCE_DIR);
    case ROOT_LIB:
      /* WS_PLUGIN_DIR is <libdir>/warpscope/plugins */
      return g_path_get_dirname (WS_PLUGIN_DIR);
    case ROOT_DATA: return g_strdup (WS_DATA_DIR);
    case ROOT_BIN: return g_strdup (WS_BIN_DIR);
    case ROOT_PLUGINS: return g_strdup (WS_PLUGIN_DIR);
    }
  g_assert_not_reached ();
}

gboolean
ws_paths_exe_is_uninstalled (const char *exe_path)
{
  g_return_val_if_fail (exe_path != NULL, FALSE);
  /* Both sides canonical: the build tree may be reached through a symbolic
   * link, and /proc/self/exe is always resolved. */
  g_autofree char *build = realpath (WS_BUILD_DIR, NULL);
  g_autofree char *exe = realpath (exe_path, NULL);
  const char *b = build != NULL ? build : WS_BUILD_DIR;
  const char *e = exe != NULL ? exe : exe_path;
  gsize n = strlen (b);
  return strncmp (e, b, n) == 0 && e[n] == '/';
}

static gsize self_uninstalled; /* 1 + the decision, once made */

gboolean
ws_paths_running_uninstalled (void)
{
  const char *env = g_getenv ("WARPSCOPE_UNINSTALLED");
  if (env != NULL && (strcmp (env, "1") == 0 || strcmp (env, "0") == 0))
    return env[0] == '1';
  if (g_once_init_enter (&self_uninstalled))
    {
      g_autofree char *exe = g_file_read_link ("/proc/self/exe", NULL);
      g_once_init_leave (&self_uninstalled, exe != NULL && ws_paths_exe_is_uninstalled (exe) ? 2 : 1);
    }
  return self_uninstalled == 2;
}

const char *
ws_paths_env_name (WsPathKind kind)
{
  g_return_val_if_fail (kind < WS_PATH_N_KINDS, NULL);
  return entries[kind].env;
}

char *
ws_paths_get_for (WsPathKind kind, gboolean uninstalled)
{
  g_return_val_if_fail (kind < WS_PATH_N_KINDS, NULL);
  const PathEntry *e = &entries[kind];
  g_autofree char *root = root_dir (uninstalled ? e->uninstalled_root : e->installed_root);
  const char *rel = uninstalled ? e->uninstalled : e->installed;
  return rel != NULL ? g_build_filename (root, rel, NULL) : g_steal_pointer (&root);
}

char *
ws_paths_get (WsPathKind kind)
{
  g_return_val_if_fail (kind < WS_PATH_N_KINDS, NULL);
  const char *env = entries[kind].env != NULL ? g_getenv (entries[kind].env) : NULL;
  if (env != NULL && *env != '\0')
    return g_strdup (env);
  gboolean uninstalled = ws_paths_running_uninstalled ();
  char *path = ws_paths_get_for (kind, uninstalled);
  /* Uninstalled, the demo trace comes from this build when
   * tools/headless-demo.sh recorded one, else it is the one the source tree
   * ships for machines without the CUDA toolkit. */
  if (kind == WS_PATH_DEMO_TRACE && uninstalled && !g_file_test (path, G_FILE_TEST_IS_REGULAR))
    {
      g_free (path);
      path = g_build_filename (WS_SOURCE_DIR, "db", "workspace", "saxpy2.wstrace", NULL);
    }
  return path;
}
