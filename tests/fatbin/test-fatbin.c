/* Fatbinary parsing on fixtures extracted from nvcc 13 programs
 * (tests/data/fatbin/make-fixtures.sh). */
#include <string.h>
#include "fatbin/ws-fatbin.h"

typedef struct {
  char *data;
  gsize len;
} Blob;

static Blob
load (const char *name)
{
  const char *src = g_getenv ("WS_SOURCE_DIR");
  g_assert_nonnull (src);
  g_autofree char *path = g_build_filename (src, "tests", "data", "fatbin", name, NULL);
  Blob b = { 0 };
  g_autoptr (GError) error = NULL;
  g_assert_true (g_file_get_contents (path, &b.data, &b.len, &error));
  g_assert_no_error (error);
  return b;
}

static char *
decode_only_ptx (const char *file, gsize *len, WsFatbinCompression *compression)
{
  Blob b = load (file);
  g_autoptr (GError) error = NULL;
  g_autoptr (WsFatbin) fb = ws_fatbin_new_from_data (b.data, b.len, &error);
  g_assert_no_error (error);
  const WsFatbinEntry *ptx = NULL;
  for (guint i = 0; i < ws_fatbin_get_n_entries (fb); i++)
    if (ws_fatbin_get_entry (fb, i)->kind == WS_FATBIN_KIND_PTX)
      {
        g_assert_null (ptx);
        ptx = ws_fatbin_get_entry (fb, i);
      }
  g_assert_nonnull (ptx);
  *compression = ptx->compression;
  char *text = (char *) ws_fatbin_entry_decode (ptx, len, &error);
  g_assert_no_error (error);
  g_free (b.data);
  return text;
}

static void
test_plain_entries (void)
{
  Blob b = load ("plain.fatbin");
  g_autoptr (GError) error = NULL;
  g_autoptr (WsFatbin) fb = ws_fatbin_new_from_data (b.data, b.len, &error);
  g_assert_no_error (error);
  /* The device-link container (SASS only), then the unit's own. */
  g_assert_cmpuint (ws_fatbin_get_n_containers (fb), ==, 2);
  g_assert_cmpuint (ws_fatbin_get_n_entries (fb), ==, 3);
  const WsFatbinEntry *e0 = ws_fatbin_get_entry (fb, 0);
  const WsFatbinEntry *e1 = ws_fatbin_get_entry (fb, 1);
  const WsFatbinEntry *e2 = ws_fatbin_get_entry (fb, 2);
  g_assert_cmpint (e0->kind, ==, WS_FATBIN_KIND_ELF);
  g_assert_cmpuint (e0->container, ==, 0);
  g_assert_cmpint (e1->kind, ==, WS_FATBIN_KIND_PTX);
  g_assert_cmpuint (e1->container, ==, 1);
  g_assert_cmpuint (e1->arch, ==, 80);
  g_assert_cmpuint (e1->version_major, ==, 9);
  g_assert_cmpuint (e1->version_minor, ==, 0);
  g_assert_cmpint (e1->compression, ==, WS_FATBIN_COMPRESSION_NONE);
  g_assert_cmpuint (e1->flags & (WS_FATBIN_FLAG_64BIT | WS_FATBIN_FLAG_LINUX), ==, 0x11);
  g_assert_cmpint (e2->kind, ==, WS_FATBIN_KIND_ELF);
  g_assert_cmpuint (e2->arch, ==, 80);
  /* The ELF payload really is an ELF image. */
  gsize n = 0;
  g_autofree guint8 *elf = ws_fatbin_entry_decode (e2, &n, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (n, >, 64);
  g_assert_cmpmem (elf, 4, "\177ELF", 4);
  g_free (b.data);
}

/* The PTX as a token sequence: the copy nvcc embeds has its comments
 * removed and its white space collapsed, so compare it with what nvcc -ptx
 * writes token by token. */
static char *
ptx_tokens (const char *ptx)
{
  GString *out = g_string_new (NULL);
  g_auto (GStrv) lines = g_strsplit (ptx, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      char *comment = strstr (lines[i], "//");
      if (comment != NULL)
        *comment = 0;
      g_auto (GStrv) words = g_strsplit_set (lines[i], " \t", -1);
      for (guint j = 0; words[j] != NULL; j++)
        if (*words[j])
          g_string_append_printf (out, "%s ", words[j]);
    }
  return g_string_free (out, FALSE);
}

static void
test_compressed_decode (gconstpointer data)
{
  const char *file = data;
  gsize plain_len = 0, len = 0;
  WsFatbinCompression c0, c1;
  g_autofree char *plain = decode_only_ptx ("plain.fatbin", &plain_len, &c0);
  g_autofree char *text = decode_only_ptx (file, &len, &c1);
  g_assert_cmpint (c0, ==, WS_FATBIN_COMPRESSION_NONE);
  if (g_str_has_prefix (file, "zstd"))
    g_assert_cmpint (c1, ==, WS_FATBIN_COMPRESSION_ZSTD);
  else if (g_str_has_prefix (file, "lz4"))
    g_assert_cmpint (c1, ==, WS_FATBIN_COMPRESSION_LZ4);
  g_assert_cmpuint (len, ==, plain_len);
  g_assert_cmpstr (text, ==, plain);
  g_assert_cmpuint (strlen (text), ==, len);

  Blob ref = load ("fixture.ptx");
  g_autofree char *ref_text = g_strndup (ref.data, ref.len);
  g_autofree char *got = ptx_tokens (text);
  g_autofree char *want = ptx_tokens (ref_text);
  g_assert_cmpuint (strlen (want), >, 500);
  g_assert_cmpstr (got, ==, want);
  g_assert_nonnull (strstr (text, ".entry _Z9scale_addPKfPfi"));
  g_free (ref.data);
}

static void
test_select_highest (void)
{
  Blob b = load ("multi-arch.fatbin");
  g_autoptr (GError) error = NULL;
  g_autoptr (WsFatbin) fb = ws_fatbin_new_from_data (b.data, b.len, &error);
  g_assert_no_error (error);
  const struct {
    int target;
    uint32_t want;
  } cases[] = {
    { 75, 75 }, { 80, 80 }, { 86, 80 }, { 89, 80 }, { 90, 90 }, { 120, 90 },
  };
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (GPtrArray) ptx = ws_fatbin_select_ptx (fb, cases[i].target, WS_FATBIN_SELECT_STRICT, "multi", &error);
      g_assert_no_error (error);
      g_assert_cmpuint (ptx->len, ==, 1);
      WsFatbinPtx *p = g_ptr_array_index (ptx, 0);
      g_assert_cmpuint (p->arch, ==, cases[i].want);
      g_assert_false (p->newer_than_target);
      g_autofree char *target = g_strdup_printf (".target sm_%u\n", cases[i].want);
      g_assert_nonnull (strstr (p->ptx, target));
    }
  /* All PTX newer than the target. */
  g_autoptr (GPtrArray) none = ws_fatbin_select_ptx (fb, 70, WS_FATBIN_SELECT_STRICT, "multi", &error);
  g_assert_null (none);
  g_assert_error (error, WS_ERROR, WS_ERROR_UNSUPPORTED);
  g_assert_nonnull (strstr (error->message, "compute_75"));
  g_assert_nonnull (strstr (error->message, "sm_70"));
  g_clear_error (&error);
  /* Allowed: the lowest PTX, marked as newer than the target. */
  g_autoptr (GPtrArray) low = ws_fatbin_select_ptx (fb, 52, WS_FATBIN_SELECT_ALLOW_NEWER, "multi", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (low->len, ==, 1);
  g_assert_cmpuint (((WsFatbinPtx *) low->pdata[0])->arch, ==, 75);
  g_assert_true (((WsFatbinPtx *) low->pdata[0])->newer_than_target);
  g_free (b.data);
}

static void
test_sass_only (void)
{
  Blob b = load ("sass-only.fatbin");
  g_autoptr (GError) error = NULL;
  g_autoptr (WsFatbin) fb = ws_fatbin_new_from_data (b.data, b.len, &error);
  g_assert_no_error (error);
  g_assert_false (ws_fatbin_has_ptx (fb));
  g_autoptr (GPtrArray) ptx = ws_fatbin_select_ptx (fb, 80, WS_FATBIN_SELECT_ALLOW_NEWER, "./prog", &error);
  g_assert_null (ptx);
  g_assert_error (error, WS_ERROR, WS_ERROR_UNSUPPORTED);
  g_assert_nonnull (strstr (error->message, "./prog"));
  g_assert_nonnull (strstr (error->message, "sm_80"));
  g_assert_nonnull (strstr (error->message, "rebuild with -arch=sm_XX (which embeds PTX) or warpscope-cli build"));
  g_free (b.data);
}

/* Offsets of every container in a section. */
static GArray *
container_offsets (const Blob *b)
{
  GArray *offs = g_array_new (FALSE, FALSE, sizeof (gsize));
  gsize off = 0;
  while (off + 16 <= b->len)
    {
      uint32_t magic;
      uint64_t size;
      memcpy (&magic, b->data + off, 4);
      if (magic != WS_FATBIN_CONTAINER_MAGIC)
        {
          off += 8;
          continue;
        }
      memcpy (&size, b->data + off + 8, 8);
      g_array_append_val (offs, off);
      off += (16 + size + 7) & ~(gsize) 7;
    }
  return offs;
}

typedef struct {
  int magic;
  int version;
  const void *data;
  void *filename_or_fatbins;
} Wrapper;

static void
test_wrapper_v1 (void)
{
  Blob b = load ("zstd.fatbin");
  g_autoptr (GArray) offs = container_offsets (&b);
  g_assert_cmpuint (offs->len, ==, 2);
  Wrapper w = { (int) WS_FATBIN_WRAPPER_MAGIC, 1, b.data + g_array_index (offs, gsize, 1), NULL };
  g_autoptr (GError) error = NULL;
  g_autoptr (WsFatbin) fb = ws_fatbin_new_from_wrapper (&w, &error);
  g_assert_no_error (error);
  g_assert_cmpint (ws_fatbin_get_wrapper_version (fb), ==, 1);
  g_assert_cmpuint (ws_fatbin_get_n_containers (fb), ==, 1);
  g_assert_cmpuint (ws_fatbin_get_n_entries (fb), ==, 2);
  g_autoptr (GPtrArray) ptx = ws_fatbin_select_ptx (fb, 80, WS_FATBIN_SELECT_STRICT, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (ptx->len, ==, 1);
  g_assert_nonnull (strstr (((WsFatbinPtx *) ptx->pdata[0])->ptx, "scale_add"));

  /* The dlink container alone is SASS only. */
  Wrapper w0 = { (int) WS_FATBIN_WRAPPER_MAGIC, 1, b.data, NULL };
  g_autoptr (WsFatbin) fb0 = ws_fatbin_new_from_wrapper (&w0, &error);
  g_assert_no_error (error);
  g_assert_false (ws_fatbin_has_ptx (fb0));
  g_free (b.data);
}

static void
test_rdc_wrapper_v2 (void)
{
  Blob linked = load ("rdc-linked.fatbin");
  Blob pre = load ("rdc-prelinked.fatbin");
  g_autoptr (GArray) offs = container_offsets (&pre);
  g_assert_cmpuint (offs->len, ==, 2);
  void *prelinked[3] = { pre.data + g_array_index (offs, gsize, 0), pre.data + g_array_index (offs, gsize, 1), NULL };
  Wrapper w = { (int) WS_FATBIN_WRAPPER_MAGIC, 2, linked.data, prelinked };
  g_autoptr (GError) error = NULL;
  g_autoptr (WsFatbin) fb = ws_fatbin_new_from_wrapper (&w, &error);
  g_assert_no_error (error);
  g_assert_cmpint (ws_fatbin_get_wrapper_version (fb), ==, 2);
  g_assert_cmpuint (ws_fatbin_get_n_containers (fb), ==, 3);
  g_autoptr (GPtrArray) ptx = ws_fatbin_select_ptx (fb, 80, WS_FATBIN_SELECT_STRICT, "rdc", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (ptx->len, ==, 2);
  WsFatbinPtx *a = ptx->pdata[0], *bb = ptx->pdata[1];
  g_assert_cmpuint (a->container, ==, 1);
  g_assert_cmpuint (bb->container, ==, 2);
  /* Relocatable PTX asks ptxas for --compile-only. */
  g_assert_cmpstr (a->ptxas_options, ==, "--compile-only");
  g_assert_nonnull (strstr (a->ptx, ".extern .func (.param .b32 func_retval0) _Z6triplei"));
  g_assert_nonnull (strstr (a->ptx, ".entry _Z12rdc_kernel_aPi"));
  g_assert_nonnull (strstr (bb->ptx, ".visible .func (.param .b32 func_retval0) _Z6triplei"));
  g_assert_nonnull (strstr (bb->ptx, ".entry _Z12rdc_kernel_bPi"));
  g_free (linked.data);
  g_free (pre.data);
}

static void
test_corrupt (void)
{
  Blob b = load ("plain.fatbin");
  g_autoptr (GError) error = NULL;
  /* Bad wrapper magic. */
  Wrapper w = { 0x12345678, 1, b.data, NULL };
  g_assert_null (ws_fatbin_new_from_wrapper (&w, &error));
  g_assert_error (error, WS_ERROR, WS_ERROR_CORRUPT);
  g_assert_nonnull (strstr (error->message, "0x12345678"));
  g_clear_error (&error);
  /* Unknown wrapper version. */
  Wrapper w3 = { (int) WS_FATBIN_WRAPPER_MAGIC, 3, b.data, NULL };
  g_assert_null (ws_fatbin_new_from_wrapper (&w3, &error));
  g_assert_error (error, WS_ERROR, WS_ERROR_UNSUPPORTED);
  g_clear_error (&error);
  /* Truncated section: the second container claims more than is there. */
  g_assert_null (ws_fatbin_new_from_data (b.data, b.len - 100, &error));
  g_assert_error (error, WS_ERROR, WS_ERROR_CORRUPT);
  g_assert_nonnull (strstr (error->message, "offset 1528"));
  g_clear_error (&error);
  /* Damaged container magic. */
  b.data[1528] ^= 0xff;
  g_assert_null (ws_fatbin_new_from_data (b.data, b.len, &error));
  g_assert_error (error, WS_ERROR, WS_ERROR_CORRUPT);
  g_clear_error (&error);
  b.data[1528] ^= 0xff;
  /* Damaged zstd stream: decoding fails instead of returning garbage. */
  Blob z = load ("zstd.fatbin");
  g_autoptr (WsFatbin) fb = ws_fatbin_new_from_data (z.data, z.len, &error);
  g_assert_no_error (error);
  const WsFatbinEntry *e = ws_fatbin_get_entry (fb, 1);
  g_assert_cmpint (e->compression, ==, WS_FATBIN_COMPRESSION_ZSTD);
  memset ((guint8 *) e->payload + 8, 0xa5, 32);
  g_assert_null (ws_fatbin_entry_decode (e, NULL, &error));
  g_assert_error (error, WS_ERROR, WS_ERROR_CORRUPT);
  g_free (z.data);
  g_free (b.data);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/fatbin/plain/entries-and-containers", test_plain_entries);
  g_test_add_data_func ("/fatbin/zstd/decodes-to-plain-ptx", "zstd.fatbin", test_compressed_decode);
  g_test_add_data_func ("/fatbin/lz4/decodes-to-plain-ptx", "lz4.fatbin", test_compressed_decode);
  g_test_add_data_func ("/fatbin/plain/matches-nvcc-ptx", "plain.fatbin", test_compressed_decode);
  g_test_add_func ("/fatbin/select/highest-ptx-not-above-target", test_select_highest);
  g_test_add_func ("/fatbin/select/sass-only-says-how-to-rebuild", test_sass_only);
  g_test_add_func ("/fatbin/wrapper/version-1", test_wrapper_v1);
  g_test_add_func ("/fatbin/wrapper/version-2-rdc", test_rdc_wrapper_v2);
  g_test_add_func ("/fatbin/corrupt-input-is-reported", test_corrupt);
  return g_test_run ();
}
