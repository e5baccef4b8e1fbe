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

static void
hash_of (const void *data, gsize n, uint8_t out[16])
{
  WsHash128 h;
  ws_hash128_init (&h);
  ws_hash128_update (&h, data, n);
  ws_hash128_final (&h, out);
}

/* The same bytes in any split give the same digest; a changed bit, a
 * trailing zero byte or another length give another; no two of 200 000
 * counter values collide in either half; zero pages of 4 KiB and 8 KiB
 * differ. */
static void
test_hash128 (void)
{
  uint8_t data[1000], whole[16], parts[16], other[16];
  for (guint i = 0; i < sizeof data; i++)
    data[i] = (uint8_t) (i * 7 + 3);
  hash_of (data, sizeof data, whole);
  for (gsize cut = 0; cut <= 17; cut++)
    {
      WsHash128 h;
      ws_hash128_init (&h);
      ws_hash128_update (&h, data, cut);
      ws_hash128_update (&h, data + cut, 1);
      ws_hash128_update (&h, data + cut + 1, sizeof data - cut - 1);
      ws_hash128_final (&h, parts);
      g_assert_cmpmem (parts, 16, whole, 16);
    }
  for (guint bit = 0; bit < 64; bit++)
    {
      data[bit * 13] ^= (uint8_t) (1u << (bit % 8));
      hash_of (data, sizeof data, other);
      data[bit * 13] ^= (uint8_t) (1u << (bit % 8));
      g_assert_true (memcmp (other, whole, 8) != 0 && memcmp (other + 8, whole + 8, 8) != 0);
    }
  uint8_t a[16], b[16];
  hash_of ("a", 1, a);
  hash_of ("a\0", 2, b);
  g_assert_true (memcmp (a, b, 16) != 0);
  g_autofree uint8_t *zeros = g_malloc0 (8192);
  hash_of (zeros, 4096, a);
  hash_of (zeros, 8192, b);
  g_assert_true (memcmp (a, b, 16) != 0);
  GHashTable *lo = g_hash_table_new (g_int64_hash, g_int64_equal);
  GHashTable *hi = g_hash_table_new (g_int64_hash, g_int64_equal);
  g_autofree gint64 *keys = g_new (gint64, 400000);
  for (guint64 i = 0; i < 200000; i++)
    {
      uint8_t d[16];
      hash_of (&i, sizeof i, d);
      memcpy (&keys[2 * i], d, 8);
      memcpy (&keys[2 * i + 1], d + 8, 8);
      g_assert_false (g_hash_table_contains (lo, &keys[2 * i]));
      g_assert_false (g_hash_table_contains (hi, &keys[2 * i + 1]));
      g_hash_table_add (lo, &keys[2 * i]);
      g_hash_table_add (hi, &keys[2 * i + 1]);
    }
  g_hash_table_unref (lo);
  g_hash_table_unref (hi);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/base/edit-distance", test_edit_distance);
  g_test_add_func ("/base/hash128", test_hash128);
  g_test_add_func ("/base/sorted-keys", test_sorted_keys);
  g_test_add_func ("/base/suggest-names", test_suggest);
  return g_test_run ();
}
