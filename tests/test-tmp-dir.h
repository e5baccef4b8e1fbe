/* test-tmp-dir.h: one helper for every test that needs a temporary folder. */
#pragma once

#include <glib.h>

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
