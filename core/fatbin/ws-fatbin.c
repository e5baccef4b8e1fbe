/* ws-fatbin.c: fatbinary wrapper, container and entry parsing; PTX decoding. */
#define G_LOG_DOMAIN "ws-fatbin"

#include "fatbin/ws-fatbin.h"

#include <string.h>
#include <lz4.h>
#include <zstd.h>

/* A container never comes close to this; larger sizes mean damaged data
 * (we cannot know a wrapper's section size, so this bounds the damage). */
#define WS_FATBIN_MAX_CONTAINER ((uint64_t) 1 << 32)

#define CONTAINER_HEADER_MIN 16
#define ENTRY_HEADER_MIN 0x40

struct _WsFatbin {
  int wrapper_version;
  guint n_containers;
  GArray *entries;    /* of WsFatbinEntry */
  GPtrArray *strings; /* owned option strings */
};

static inline uint16_t
rd16 (const guint8 *p)
{
  uint16_t v;
  memcpy (&v, p, 2);
  return GUINT16_FROM_LE (v);
}

static inline uint32_t
rd32 (const guint8 *p)
{
  uint32_t v;
  memcpy (&v, p, 4);
  return GUINT32_FROM_LE (v);
}

static inline uint64_t
rd64 (const guint8 *p)
{
  uint64_t v;
  memcpy (&v, p, 8);
  return GUINT64_FROM_LE (v);
}

const char *
ws_fatbin_compression_name (WsFatbinCompression c)
{
  switch (c)
    {
    case WS_FATBIN_COMPRESSION_NONE: return "none";
    case WS_FATBIN_COMPRESSION_LZ4: return "lz4";
    case WS_FATBIN_COMPRESSION_ZSTD: return "zstd";
    }
  return "unknown";
}

static WsFatbin *
fatbin_alloc (void)
{
  WsFatbin *fb = g_new0 (WsFatbin, 1);
  fb->entries = g_array_new (FALSE, TRUE, sizeof (WsFatbinEntry));
  fb->strings = g_ptr_array_new_with_free_func (g_free);
  return fb;
}

void
ws_fatbin_free (WsFatbin *fatbin)
{
  if (fatbin == NULL)
    return;
  g_array_unref (fatbin->entries);
  g_ptr_array_unref (fatbin->strings);
  g_free (fatbin);
}

/* Parses one container at @p; @avail is how many bytes may be read
 * (G_MAXUINT64 when unknown, as behind a wrapper).  Returns the bytes it
 * spans, or 0 on error. */
static uint64_t
parse_container (WsFatbin *fb, const guint8 *p, uint64_t avail, uint64_t where, GError **error)
{
  if (avail < CONTAINER_HEADER_MIN)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_CORRUPT,
                   "fatbinary container at offset %" G_GUINT64_FORMAT " is truncated (%" G_GUINT64_FORMAT
                   " bytes left)",
                   where, avail);
      return 0;
    }
  uint32_t magic = rd32 (p);
  if (magic != WS_FATBIN_CONTAINER_MAGIC)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_CORRUPT,
                   "bad fatbinary container magic 0x%08x at offset %" G_GUINT64_FORMAT " (expected 0x%08x)", magic,
                   where, WS_FATBIN_CONTAINER_MAGIC);
      return 0;
    }
  uint16_t header_size = rd16 (p + 6);
  uint64_t body = rd64 (p + 8);
  if (header_size < CONTAINER_HEADER_MIN || body > WS_FATBIN_MAX_CONTAINER || (uint64_t) header_size + body > avail)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_CORRUPT,
                   "fatbinary container at offset %" G_GUINT64_FORMAT " has an impossible size "
                   "(header %u, entries %" G_GUINT64_FORMAT " bytes)",
                   where, header_size, body);
      return 0;
    }

  guint container = fb->n_containers++;
  const guint8 *e = p + header_size;
  const guint8 *end = e + body;
  while (e < end)
    {
      uint64_t left = (uint64_t) (end - e);
      uint64_t eoff = where + (uint64_t) (e - p);
      if (left < ENTRY_HEADER_MIN)
        {
          /* Containers are padded to 8 bytes; a tail of zeros is padding. */
          gboolean zeros = TRUE;
          for (uint64_t i = 0; i < left; i++)
            zeros = zeros && e[i] == 0;
          if (zeros)
            break;
          g_set_error (error, WS_ERROR, WS_ERROR_CORRUPT,
                       "fatbinary entry at offset %" G_GUINT64_FORMAT " is truncated", eoff);
          return 0;
        }
      WsFatbinEntry entry = { 0 };
      uint16_t kind = rd16 (e);
      uint32_t ehs = rd32 (e + 4);
      uint64_t psize = rd64 (e + 8);
      if (ehs < ENTRY_HEADER_MIN || ehs > left || psize > left - ehs)
        {
          g_set_error (error, WS_ERROR, WS_ERROR_CORRUPT,
                       "fatbinary entry at offset %" G_GUINT64_FORMAT " has an impossible size "
                       "(header %u, payload %" G_GUINT64_FORMAT ", %" G_GUINT64_FORMAT " bytes left)",
                       eoff, ehs, psize, left);
          return 0;
        }
      uint32_t compressed = rd32 (e + 0x10);
      uint32_t opt_off = rd32 (e + 0x14);
      entry.kind = (WsFatbinKind) kind;
      entry.version_minor = rd16 (e + 0x18);
      entry.version_major = rd16 (e + 0x1a);
      entry.arch = rd32 (e + 0x1c);
      entry.flags = rd64 (e + 0x28);
      uint64_t decompressed = rd64 (e + 0x38);
      entry.payload = e + ehs;
      entry.container = container;
      if (entry.flags & WS_FATBIN_FLAG_ZSTD)
        entry.compression = WS_FATBIN_COMPRESSION_ZSTD;
      else if (entry.flags & WS_FATBIN_FLAG_LZ4)
        entry.compression = WS_FATBIN_COMPRESSION_LZ4;
      else
        entry.compression = WS_FATBIN_COMPRESSION_NONE;
      if (entry.compression == WS_FATBIN_COMPRESSION_NONE)
        {
          entry.payload_size = psize;
          entry.decompressed_size = psize;
        }
      else
        {
          /* The compressed size excludes the padding up to the payload size. */
          entry.payload_size = compressed != 0 && compressed <= psize ? compressed : psize;
          entry.decompressed_size = decompressed;
          /* Neither codec expands beyond a fixed ratio (LZ4 about 255:1,
           * zstd 32 768:1 through RLE blocks): a larger size is damage, and
           * allocating it up front would let a 1 KiB file ask for GiBs. */
          uint64_t max_ratio = entry.compression == WS_FATBIN_COMPRESSION_LZ4 ? 256 : 32768;
          if (decompressed == 0 || decompressed > WS_FATBIN_MAX_CONTAINER
              || decompressed > (uint64_t) entry.payload_size * max_ratio + 4096)
            {
              g_set_error (error, WS_ERROR, WS_ERROR_CORRUPT,
                           "fatbinary entry at offset %" G_GUINT64_FORMAT " is %s-compressed but gives "
                           "no usable decompressed size (%" G_GUINT64_FORMAT ")",
                           eoff, ws_fatbin_compression_name (entry.compression), decompressed);
              return 0;
            }
        }

      /* ptxas options: at @opt_off inside the header, u32 (unknown), u32
       * length, then the text (NUL-padded). */
      entry.ptxas_options = "";
      if (opt_off >= ENTRY_HEADER_MIN && (uint64_t) opt_off + 8 <= ehs)
        {
          uint32_t olen = rd32 (e + opt_off + 4);
          if (olen > 0 && (uint64_t) opt_off + 8 + olen <= ehs)
            {
              char *opts = g_strndup ((const char *) e + opt_off + 8, olen);
              g_strstrip (opts);
              g_ptr_array_add (fb->strings, opts);
              entry.ptxas_options = opts;
            }
        }
      g_array_append_val (fb->entries, entry);
      e += ehs + psize;
    }
  return (uint64_t) header_size + body;
}

gboolean
ws_fatbin_add_data (WsFatbin *fatbin, const void *data, gsize len, GError **error)
{
  g_return_val_if_fail (fatbin != NULL, FALSE);
  g_return_val_if_fail (data != NULL || len == 0, FALSE);
  const guint8 *p = data;
  uint64_t off = 0;
  while (off < len)
    {
      /* Sections pad between containers to 8 bytes with zeros. */
      if (len - off < CONTAINER_HEADER_MIN || rd32 (p + off) == 0)
        {
          gboolean zeros = TRUE;
          for (uint64_t i = off; i < len && i < off + 16; i++)
            zeros = zeros && p[i] == 0;
          if (zeros)
            {
              off += 8;
              continue;
            }
        }
      uint64_t used = parse_container (fatbin, p + off, len - off, off, error);
      if (used == 0)
        return FALSE;
      off += (used + 7) & ~(uint64_t) 7;
    }
  return TRUE;
}

WsFatbin *
ws_fatbin_new_from_data (const void *data, gsize len, GError **error)
{
  g_autoptr (WsFatbin) fb = fatbin_alloc ();
  if (!ws_fatbin_add_data (fb, data, len, error))
    return NULL;
  if (fb->n_containers == 0)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_CORRUPT, "no fatbinary container in %" G_GSIZE_FORMAT " bytes", len);
      return NULL;
    }
  return g_steal_pointer (&fb);
}

WsFatbin *
ws_fatbin_new_from_wrapper (const void *wrapper, GError **error)
{
  g_return_val_if_fail (wrapper != NULL, NULL);
  const guint8 *w = wrapper;
  uint32_t magic = rd32 (w);
  int version = (int) rd32 (w + 4);
  const void *data;
  void *const *prelinked;
  memcpy (&data, w + 8, sizeof data);
  memcpy (&prelinked, w + 16, sizeof prelinked);
  if (magic != WS_FATBIN_WRAPPER_MAGIC)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_CORRUPT,
                   "bad fatbinary wrapper magic 0x%08x (expected 0x%08x): the program was not built "
                   "by nvcc or its fatbinary is damaged",
                   magic, WS_FATBIN_WRAPPER_MAGIC);
      return NULL;
    }
  if (version != 1 && version != 2)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_UNSUPPORTED,
                   "fatbinary wrapper version %d is not supported (only 1 and 2, as nvcc 13 writes)", version);
      return NULL;
    }
  if (data == NULL)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_CORRUPT, "fatbinary wrapper has no data pointer");
      return NULL;
    }
  g_autoptr (WsFatbin) fb = fatbin_alloc ();
  fb->wrapper_version = version;
  if (parse_container (fb, data, G_MAXUINT64, 0, error) == 0)
    return NULL;
  /* Version 2 (-rdc=true): the relocatable objects' containers, each of
   * which carries one translation unit's PTX. */
  if (version == 2 && prelinked != NULL)
    for (guint i = 0; prelinked[i] != NULL; i++)
      if (parse_container (fb, prelinked[i], G_MAXUINT64, 0, error) == 0)
        {
          g_prefix_error (error, "prelinked fatbinary %u: ", i);
          return NULL;
        }
  return g_steal_pointer (&fb);
}

int
ws_fatbin_get_wrapper_version (WsFatbin *fatbin)
{
  g_return_val_if_fail (fatbin != NULL, 0);
  return fatbin->wrapper_version;
}

guint
ws_fatbin_get_n_containers (WsFatbin *fatbin)
{
  g_return_val_if_fail (fatbin != NULL, 0);
  return fatbin->n_containers;
}

guint
ws_fatbin_get_n_entries (WsFatbin *fatbin)
{
  g_return_val_if_fail (fatbin != NULL, 0);
  return fatbin->entries->len;
}

const WsFatbinEntry *
ws_fatbin_get_entry (WsFatbin *fatbin, guint index)
{
  g_return_val_if_fail (fatbin != NULL, NULL);
  g_return_val_if_fail (index < fatbin->entries->len, NULL);
  return &g_array_index (fatbin->entries, WsFatbinEntry, index);
}

gboolean
ws_fatbin_has_ptx (WsFatbin *fatbin)
{
  g_return_val_if_fail (fatbin != NULL, FALSE);
  for (guint i = 0; i < fatbin->entries->len; i++)
    if (g_array_index (fatbin->entries, WsFatbinEntry, i).kind == WS_FATBIN_KIND_PTX)
      return TRUE;
  return FALSE;
}

guint8 *
ws_fatbin_entry_decode (const WsFatbinEntry *entry, gsize *len, GError **error)
{
  g_return_val_if_fail (entry != NULL, NULL);
  gsize n = entry->decompressed_size;
  g_autofree guint8 *out = g_malloc (n + 1);
  switch (entry->compression)
    {
    case WS_FATBIN_COMPRESSION_NONE: memcpy (out, entry->payload, n); break;
    case WS_FATBIN_COMPRESSION_ZSTD:
      {
        size_t r = ZSTD_decompress (out, n, entry->payload, entry->payload_size);
        if (ZSTD_isError (r) || r != n)
          {
            g_set_error (error, WS_ERROR, WS_ERROR_CORRUPT,
                         "cannot decompress the zstd payload of the %s entry for arch %u: %s",
                         entry->kind == WS_FATBIN_KIND_PTX ? "PTX" : "ELF", entry->arch,
                         ZSTD_isError (r) ? ZSTD_getErrorName (r) : "size differs from the header's");
            return NULL;
          }
      }
      break;
    case WS_FATBIN_COMPRESSION_LZ4:
      {
        /* nvcc stores a raw LZ4 block (no frame header). */
        if (entry->payload_size > G_MAXINT || n > G_MAXINT)
          {
            g_set_error (error, WS_ERROR, WS_ERROR_CORRUPT, "LZ4 payload too large");
            return NULL;
          }
        int r = LZ4_decompress_safe ((const char *) entry->payload, (char *) out, (int) entry->payload_size, (int) n);
        if (r < 0 || (gsize) r != n)
          {
            g_set_error (
              error, WS_ERROR, WS_ERROR_CORRUPT,
              "cannot decompress the LZ4 payload of the %s entry for arch %u (result %d, expected %" G_GSIZE_FORMAT
              " bytes)",
              entry->kind == WS_FATBIN_KIND_PTX ? "PTX" : "ELF", entry->arch, r, n);
            return NULL;
          }
      }
      break;
    }
  out[n] = 0;
  if (entry->kind == WS_FATBIN_KIND_PTX)
    n = strnlen ((const char *) out, n); /* drop NUL padding */
  if (len != NULL)
    *len = n;
  return g_steal_pointer (&out);
}

void
ws_fatbin_ptx_free (WsFatbinPtx *ptx)
{
  if (ptx == NULL)
    return;
  g_free (ptx->ptx);
  g_free (ptx->ptxas_options);
  g_free (ptx);
}

static char *
arch_list (WsFatbin *fb, WsFatbinKind kind, const char *prefix)
{
  GString *s = g_string_new (NULL);
  GArray *seen = g_array_new (FALSE, FALSE, sizeof (uint32_t));
  for (guint i = 0; i < fb->entries->len; i++)
    {
      const WsFatbinEntry *e = &g_array_index (fb->entries, WsFatbinEntry, i);
      if (e->kind != kind)
        continue;
      gboolean dup = FALSE;
      for (guint j = 0; j < seen->len; j++)
        dup = dup || g_array_index (seen, uint32_t, j) == e->arch;
      if (dup)
        continue;
      g_array_append_val (seen, e->arch);
      g_string_append_printf (s, "%s%s_%u", s->len ? ", " : "", prefix, e->arch);
    }
  g_array_unref (seen);
  return g_string_free (s, FALSE);
}

GPtrArray *
ws_fatbin_select_ptx (WsFatbin *fatbin, int target_sm, WsFatbinSelect mode, const char *origin, GError **error)
{
  g_return_val_if_fail (fatbin != NULL, NULL);
  const char *who = origin != NULL ? origin : "the program";
  if (!ws_fatbin_has_ptx (fatbin))
    {
      g_autofree char *sass = arch_list (fatbin, WS_FATBIN_KIND_ELF, "sm");
      g_set_error (error, WS_ERROR, WS_ERROR_UNSUPPORTED,
                   "%s holds no PTX, only machine code (SASS%s%s) that the emulator cannot run; "
                   "rebuild with -arch=sm_XX (which embeds PTX) or warpscope-cli build",
                   who, *sass ? " for " : "", sass);
      return NULL;
    }
  g_autoptr (GPtrArray) out = g_ptr_array_new_with_free_func ((GDestroyNotify) ws_fatbin_ptx_free);
  for (guint c = 0; c < fatbin->n_containers; c++)
    {
      const WsFatbinEntry *best = NULL, *lowest = NULL;
      for (guint i = 0; i < fatbin->entries->len; i++)
        {
          const WsFatbinEntry *e = &g_array_index (fatbin->entries, WsFatbinEntry, i);
          if (e->container != c || e->kind != WS_FATBIN_KIND_PTX)
            continue;
          if (lowest == NULL || e->arch < lowest->arch)
            lowest = e;
          if ((int) e->arch <= target_sm && (best == NULL || e->arch > best->arch))
            best = e;
        }
      if (lowest == NULL)
        continue;
      gboolean newer = FALSE;
      if (best == NULL && mode == WS_FATBIN_SELECT_ALLOW_NEWER)
        {
          best = lowest;
          newer = TRUE;
        }
      if (best == NULL)
        {
          g_autofree char *ptx = arch_list (fatbin, WS_FATBIN_KIND_PTX, "compute");
          g_set_error (error, WS_ERROR, WS_ERROR_UNSUPPORTED,
                       "%s has PTX only for %s, newer than the target GPU (sm_%d): choose a target GPU "
                       "with a higher compute capability (--gpu) or rebuild with -arch=sm_%d",
                       who, ptx, target_sm, target_sm);
          return NULL;
        }
      WsFatbinPtx *ptx = g_new0 (WsFatbinPtx, 1);
      ptx->ptx = (char *) ws_fatbin_entry_decode (best, &ptx->len, error);
      if (ptx->ptx == NULL)
        {
          ws_fatbin_ptx_free (ptx);
          g_prefix_error (error, "%s: ", who);
          return NULL;
        }
      ptx->arch = best->arch;
      ptx->ptxas_options = g_strdup (best->ptxas_options);
      ptx->container = c;
      ptx->newer_than_target = newer;
      g_ptr_array_add (out, ptx);
    }
  return g_steal_pointer (&out);
}
