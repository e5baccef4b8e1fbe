/* ws-trace-cache.c: files of results computed from a trace (the launch
 * analysis, the physical bound's counts), kept beside it.
 *
 * Where: TRACE.analysis/ beside the trace; the user's cache folder
 * (~/.cache/warpscope/analysis) when that cannot be written; the folder
 * WARPSCOPE_ANALYSIS_CACHE names; nowhere when it is "0" or "off".
 *
 * A file is named by the SHA-256 of its kind, the caller's key text and the
 * build's identity (ws_build_identity), so a new build never reads an old
 * result.  It holds a magic, the format, that digest again, the payload's
 * length, the payload and a ws_hash128 of all before it; a file that fails
 * any check is not read (the caller computes the result again and stores
 * it over the damaged one).  Files are written to a temporary name and
 * renamed: another process sees a whole file or none. */
#include "trace/ws-trace.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <string.h>

#define CACHE_MAGIC "WSCACHE\n"
#define CACHE_FORMAT 1u
#define KEY_BYTES 32u /* SHA-256 of (kind, key text, build) */
#define SUM_BYTES 16u /* ws_hash128 of the file: damage, not forgery */
#define HEADER_BYTES (8u + 8u + KEY_BYTES + 8u)

/* The folder for @trace's derived files, made if needed; NULL when caching
 * is off or no folder can be written. */
static char *
cache_folder (WsTrace *trace)
{
  const char *env = g_getenv ("WARPSCOPE_ANALYSIS_CACHE");
  if (env != NULL && (g_strcmp0 (env, "0") == 0 || g_ascii_strcasecmp (env, "off") == 0))
    return NULL;
  if (env != NULL && *env != '\0')
    return g_mkdir_with_parents (env, 0755) == 0 && g_access (env, W_OK) == 0 ? g_strdup (env) : NULL;
  g_autofree char *beside = g_strconcat (ws_trace_get_path (trace), ".analysis", NULL);
  if ((g_mkdir (beside, 0755) == 0 || errno == EEXIST) && g_file_test (beside, G_FILE_TEST_IS_DIR)
      && g_access (beside, W_OK) == 0)
    return g_steal_pointer (&beside);
  g_autofree char *user = g_build_filename (g_get_user_cache_dir (), "warpscope", "analysis", NULL);
  if (g_mkdir_with_parents (user, 0755) == 0 && g_access (user, W_OK) == 0)
    return g_steal_pointer (&user);
  return NULL;
}

/* The file for (@kind, @key_text) and its key digest; NULL when nothing
 * can be cached (no folder, no build identity). */
static char *
cache_path (WsTrace *trace, const char *kind, const char *key_text, uint8_t key[KEY_BYTES])
{
  const char *build = ws_build_identity ();
  if (build == NULL)
    return NULL;
  g_autofree char *folder = cache_folder (trace);
  if (folder == NULL)
    return NULL;
  g_autoptr (GChecksum) h = g_checksum_new (G_CHECKSUM_SHA256);
  const char *parts[] = { "ws-trace-cache-1", kind, key_text, build };
  for (guint i = 0; i < G_N_ELEMENTS (parts); i++)
    g_checksum_update (h, (const guchar *) parts[i], (gssize) strlen (parts[i]) + 1);
  gsize n = KEY_BYTES;
  g_checksum_get_digest (h, key, &n);
  g_autofree char *file = g_strconcat (g_checksum_get_string (h), ".", kind, NULL);
  return g_build_filename (folder, file, NULL);
}

GBytes *
ws_trace_cache_load (WsTrace *trace, const char *kind, const char *key_text)
{
  uint8_t key[KEY_BYTES];
  g_autofree char *path = cache_path (trace, kind, key_text, key);
  char *data = NULL;
  gsize len = 0;
  if (path == NULL || !g_file_get_contents (path, &data, &len, NULL))
    return NULL;
  g_autoptr (GBytes) bytes = g_bytes_new_take (data, len);
  const uint8_t *d = (const uint8_t *) data;
  if (len < HEADER_BYTES + SUM_BYTES || memcmp (d, CACHE_MAGIC, 8) != 0)
    return NULL;
  uint8_t sum[SUM_BYTES];
  WsHash128 h;
  ws_hash128_init (&h);
  ws_hash128_update (&h, d, len - SUM_BYTES);
  ws_hash128_final (&h, sum);
  uint32_t format;
  uint64_t payload;
  memcpy (&format, d + 8, 4);
  memcpy (&payload, d + 16 + KEY_BYTES, 8);
  if (memcmp (sum, d + len - SUM_BYTES, SUM_BYTES) != 0 || format != CACHE_FORMAT
      || memcmp (d + 16, key, KEY_BYTES) != 0 || payload != len - HEADER_BYTES - SUM_BYTES)
    return NULL;
  return g_bytes_new_from_bytes (bytes, HEADER_BYTES, payload);
}

void
ws_trace_cache_store (WsTrace *trace, const char *kind, const char *key_text, const void *payload, gsize len)
{
  uint8_t key[KEY_BYTES];
  g_autofree char *path = cache_path (trace, kind, key_text, key);
  if (path == NULL)
    return;
  g_autoptr (GByteArray) b = g_byte_array_sized_new ((guint) (HEADER_BYTES + len + SUM_BYTES));
  uint32_t format[2] = { CACHE_FORMAT, 0 };
  uint64_t n = len;
  g_byte_array_append (b, (const guint8 *) CACHE_MAGIC, 8);
  g_byte_array_append (b, (const guint8 *) format, sizeof format);
  g_byte_array_append (b, key, KEY_BYTES);
  g_byte_array_append (b, (const guint8 *) &n, sizeof n);
  g_byte_array_append (b, payload, (guint) len);
  uint8_t sum[SUM_BYTES];
  WsHash128 h;
  ws_hash128_init (&h);
  ws_hash128_update (&h, b->data, b->len);
  ws_hash128_final (&h, sum);
  g_byte_array_append (b, sum, SUM_BYTES);
  /* best effort: a result that cannot be stored is still the caller's */
  (void) g_file_set_contents_full (path, (const char *) b->data, b->len, G_FILE_SET_CONTENTS_CONSISTENT, 0644, NULL);
}
