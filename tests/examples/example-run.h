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


/* g_test_init with --keep-going first: a test that runs many programs goes
 * on after a failing one (the point is the list of which pass).  The new
 * argument vector lives as long as the test program. */
static inline void
test_init_keep_going (int *argc, char ***argv)
{
  char **args = g_new0 (char *, *argc + 2);
  args[0] = (*argv)[0];
  args[1] = (char *) "--keep-going";
  for (int k = 1; k < *argc; k++)
    args[k + 1] = (*argv)[k];
  (*argc)++;
  *argv = args;
  g_test_init (argc, argv, NULL);
}
