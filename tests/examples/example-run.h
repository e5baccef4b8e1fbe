/* example-run.h: helpers shared by the tests that run CUDA programs under
 * `warpscope-cli profile` (tests/examples, tests/validation). */
#pragma once

#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>

/* The last @max bytes of @text (a new string; "" for NULL). */
static inline char *
tail (const char *text, gsize max)
{
  if (!text)
    return g_strdup ("");
  gsize len = strlen (text);
  return g_strdup (len > max ? text + len - max : text);
}

/* Removes a file or a directory tree (the trace may be either). */
static inline void
remove_tree (const char *path)
{
  if (g_file_test (path, G_FILE_TEST_IS_DIR) && !g_file_test (path, G_FILE_TEST_IS_SYMLINK))
    {
      g_autoptr (GDir) dir = g_dir_open (path, 0, NULL);
      const char *name;
      while (dir && (name = g_dir_read_name (dir)))
        {
          g_autofree char *child = g_build_filename (path, name, NULL);
          remove_tree (child);
        }
      g_rmdir (path);
    }
  else
    {
      g_unlink (path);
    }
}

