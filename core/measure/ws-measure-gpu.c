/* ws-measure-gpu.c: is a real NVIDIA GPU usable, and where is the CUPTI
 * injection library (tools/cupti)? */
#include "measure/ws-measure.h"
#include "ws-config.h"
#include <gmodule.h>
#include <string.h>

#define WS_CUPTI_LIBRARY "libws-cupti-inject.so"

gboolean
ws_measure_gpu_present (char **why)
{
  /* The driver's device nodes come first: without them libcuda may still be
   * installed (a container with the toolkit) but cannot reach a GPU. */
  g_autoptr(GDir) dev = g_dir_open ("/dev", 0, NULL);
  gboolean node = FALSE;
  const char *entry;
  while (dev && (entry = g_dir_read_name (dev)) != NULL)
    if (g_str_has_prefix (entry, "nvidia") && g_ascii_isdigit (entry[6]))
      node = TRUE;
  if (!node)
    {
      if (why)
        *why = g_strdup ("no /dev/nvidia* device node");
      return FALSE;
    }
  GModule *cuda = g_module_open ("libcuda.so.1", G_MODULE_BIND_LAZY | G_MODULE_BIND_LOCAL);
  if (cuda == NULL)
    {
      if (why)
        *why = g_strdup_printf ("the NVIDIA driver library libcuda.so.1 cannot be loaded: %s", g_module_error ());
      return FALSE;
    }
  typedef int (*CuInit) (unsigned int);
  typedef int (*CuDeviceGetCount) (int *);
  CuInit cu_init = NULL;
  CuDeviceGetCount cu_count = NULL;
  gboolean ok = FALSE;
  if (!g_module_symbol (cuda, "cuInit", (gpointer *) &cu_init) ||
      !g_module_symbol (cuda, "cuDeviceGetCount", (gpointer *) &cu_count))
    {
      if (why)
        *why = g_strdup ("libcuda.so.1 lacks cuInit/cuDeviceGetCount");
    }
  else
    {
      int rc = cu_init (0), n = 0;
      if (rc != 0)
        {
          if (why)
            *why = g_strdup_printf ("cuInit failed with CUresult %d", rc);
        }
      else if ((rc = cu_count (&n)) != 0 || n == 0)
        {
          if (why)
            *why = g_strdup_printf ("the driver reports no device (CUresult %d, %d devices)", rc, n);
        }
      else
        ok = TRUE;
    }
  /* libcuda is not unloaded: drivers dislike being dlclose()d after cuInit. */
  (void) cuda;
  return ok;
}

static gboolean
running_from_build_tree (void)
{
  g_autofree char *exe = g_file_read_link ("/proc/self/exe", NULL);
  return exe != NULL && g_str_has_prefix (exe, WS_BUILD_DIR "/");
}

char *
ws_measure_injection_library (char **why)
{
  const char *env = g_getenv ("WARPSCOPE_CUPTI_LIBRARY");
  g_autoptr(GPtrArray) candidates = g_ptr_array_new_with_free_func (g_free);
  if (env != NULL && *env != '\0')
    g_ptr_array_add (candidates, g_strdup (env));
  else
    {
      if (running_from_build_tree ())
        g_ptr_array_add (candidates, g_build_filename (WS_BUILD_DIR, "core", "measure", WS_CUPTI_LIBRARY, NULL));
      /* WS_PLUGIN_DIR is <libdir>/warpscope/plugins; the library sits beside it. */
      g_autofree char *libdir = g_path_get_dirname (WS_PLUGIN_DIR);
      g_ptr_array_add (candidates, g_build_filename (libdir, WS_CUPTI_LIBRARY, NULL));
    }
  for (guint i = 0; i < candidates->len; i++)
    if (g_file_test (g_ptr_array_index (candidates, i), G_FILE_TEST_IS_REGULAR))
      return g_strdup (g_ptr_array_index (candidates, i));
  if (why)
    {
      g_autofree char *list = NULL;
      g_ptr_array_add (candidates, NULL);
      list = g_strjoinv (", ", (char **) candidates->pdata);
      *why = g_strdup_printf ("the CUPTI injection library is not built (looked for %s; it is built only where "
                              "CUPTI's headers and libcupti were found at configure time)", list);
    }
  return NULL;
}
