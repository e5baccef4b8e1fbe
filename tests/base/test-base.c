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

/* Keys come back in strcmp order whatever the table's layout (sorting
 * the key array with g_strcmp0 itself compared the pointers' bytes). */
static void
test_sorted_keys (void)
{
  g_autoptr (GHashTable) t = g_hash_table_new (g_str_hash, g_str_equal);
  const char *words[] = { "zeta", "alpha", "mu", "beta", "omega", "gamma", "N", "blockSize" };
  for (guint i = 0; i < G_N_ELEMENTS (words); i++)
    g_hash_table_add (t, (gpointer) words[i]);
  guint n = 0;
  g_autofree const char **keys = ws_sorted_keys (t, &n);
  g_assert_cmpuint (n, ==, G_N_ELEMENTS (words));
  g_assert_null (keys[n]);
  for (guint i = 1; i < n; i++)
    g_assert_cmpint (strcmp (keys[i - 1], keys[i]), <, 0);
  g_assert_cmpstr (keys[0], ==, "N");
  g_assert_cmpstr (keys[n - 1], ==, "zeta");
  g_autoptr (GPtrArray) a = g_ptr_array_new ();
  g_ptr_array_add (a, "b");
  g_ptr_array_add (a, "c");
  g_ptr_array_add (a, "a");
  g_ptr_array_sort (a, ws_compare_string_ptrs);
  g_assert_cmpstr (a->pdata[0], ==, "a");
  g_assert_cmpstr (a->pdata[2], ==, "c");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/base/edit-distance", test_edit_distance);
  g_test_add_func ("/base/sorted-keys", test_sorted_keys);
  g_test_add_func ("/base/suggest-names", test_suggest);
  return g_test_run ();
}
