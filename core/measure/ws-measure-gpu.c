/* ws-measure-gpu.c: is a real NVIDIA GPU usable, and where is the CUPTI
 * injection library (tools/cupti)? */
#include "measure/ws-measure.h"
#include "base/ws-paths.h"
#include <gmodule.h>
#include <string.h>

gboolean
ws_measure_gpu_present (char **why)
{
  /* The driver's device nodes come first: without them libcuda may still be
   * installed (a container with the toolkit) but cannot reach a GPU. */
  g_autoptr (GDir) dev = g_dir_open ("/dev", 0, NULL);
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
  if (!g_module_symbol (cuda, "cuInit", (gpointer *) &cu_init)
      || !g_module_symbol (cuda, "cuDeviceGetCount", (gpointer *) &cu_count))
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

char *
ws_measure_injection_library (char **why)
{
  g_autofree char *path = ws_paths_get (WS_PATH_CUPTI_LIBRARY);
  if (g_file_test (path, G_FILE_TEST_IS_REGULAR))
    return g_steal_pointer (&path);
  if (why)
    *why = g_strdup_printf ("the CUPTI injection library is not built (looked for %s; it is built only where "
                            "CUPTI's headers and libcupti were found at configure time)",
                            path);
  return NULL;
}
