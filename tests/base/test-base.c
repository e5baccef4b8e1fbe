#include "base/ws-base.h"
#include <string.h>

static void
test_edit_distance (void)
{
  g_assert_cmpuint (ws_edit_distance ("kitten", "sitting"), ==, 3);
  g_assert_cmpuint (ws_edit_distance ("", "abc"), ==, 3);
  g_assert_cmpuint (ws_edit_distance ("A100", "a100"), ==, 0);
}

static void
test_suggest (void)
{
  const char *names[] = { "GTX 970", "GTX 1070", "GTX TITAN X", "A100 SXM4 40GB", "H100 SXM", NULL };
  g_autofree char *s1 = ws_suggest_names ("GTX 907", names, 3);
  g_assert_nonnull (s1);
  g_assert_nonnull (strstr (s1, "GTX 970"));
  g_autofree char *s2 = ws_suggest_names ("a100", names, 3);
  g_assert_cmpstr (s2, ==, "A100 SXM4 40GB");
  g_autofree char *s3 = ws_suggest_names ("Voodoo2", names, 3);
  g_assert_null (s3);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/base/edit-distance", test_edit_distance);
  g_test_add_func ("/base/suggest-names", test_suggest);
  return g_test_run ();
}
