/* test-tmp-dir.h: one helper for every test that needs a temporary folder. */
#pragma once

#include <glib.h>
#include <glib/gstdio.h>

/* A fresh temporary folder for a test's files (@tmpl is a g_dir_make_tmp()
 * template: a name ending in six X that the call replaces); a test fails
 * here, with the reason, when it cannot be made. */
static inline char *
make_tmp_dir (const char *tmpl)
{
  g_autoptr (GError) error = NULL;
  char *dir = g_dir_make_tmp (tmpl, &error);
  g_assert_no_error (error);
  return dir;
}

/* Removes @path and, when it is a folder, everything in it (the analysis
 * cache beside a test's traces included). */
static inline void
remove_tmp_tree (const char *path)
{
  if (g_file_test (path, G_FILE_TEST_IS_DIR) && !g_file_test (path, G_FILE_TEST_IS_SYMLINK))
    {
      GDir *d = g_dir_open (path, 0, NULL);
      const char *n;
      while (d != NULL && (n = g_dir_read_name (d)) != NULL)
        {
          char *child = g_build_filename (path, n, NULL);
          remove_tmp_tree (child);
          g_free (child);
        }
      if (d != NULL)
        g_dir_close (d);
    }
  g_remove (path);
}
