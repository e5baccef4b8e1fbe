#include "base/ws-base.h"

#include <stdlib.h>

#include <string.h>
#include <ctype.h>
#include <dlfcn.h>
#include <elf.h>
#include <link.h>
#include <sys/mman.h>
#include <sys/stat.h>

G_DEFINE_QUARK (warpscope - error - quark, ws_error)

guint
ws_edit_distance (const char *a, const char *b)
{
  gsize la = strlen (a), lb = strlen (b);
  g_autofree guint *row = g_new (guint, lb + 1);

  for (gsize j = 0; j <= lb; j++)
    row[j] = j;
  for (gsize i = 1; i <= la; i++)
    {
      guint diag = row[0];
      row[0] = i;
      for (gsize j = 1; j <= lb; j++)
        {
          guint up = row[j];
          guint cost = tolower ((unsigned char) a[i - 1]) == tolower ((unsigned char) b[j - 1]) ? 0 : 1;
          guint best = MIN (row[j] + 1, row[j - 1] + 1);
          row[j] = MIN (best, diag + cost);
          diag = up;
        }
    }
  return row[lb];
}

typedef struct {
  const char *name;
  guint score;
} Scored;

static int
compare_scored (gconstpointer pa, gconstpointer pb)
{
  const Scored *a = pa, *b = pb;
  if (a->score != b->score)
    return a->score < b->score ? -1 : 1;
  return g_ascii_strcasecmp (a->name, b->name);
}

char *
ws_suggest_names (const char *name, const char *const *candidates, guint max)
{
  g_return_val_if_fail (name != NULL, NULL);
  if (candidates == NULL || max == 0)
    return NULL;

  g_autoptr (GArray) scored = g_array_new (FALSE, FALSE, sizeof (Scored));
  g_autofree char *lname = g_ascii_strdown (name, -1);
  for (guint i = 0; candidates[i] != NULL; i++)
    {
      g_autofree char *lc = g_ascii_strdown (candidates[i], -1);
      guint d = ws_edit_distance (name, candidates[i]);
      /* A substring match counts as close whatever the length difference. */
      if (*lname != '\0' && (strstr (lc, lname) != NULL || strstr (lname, lc) != NULL))
        d = MIN (d, 1);
      guint limit = MAX (2u, (guint) strlen (candidates[i]) / 3);
      if (d <= limit)
        {
          Scored s = { candidates[i], d };
          g_array_append_val (scored, s);
        }
    }
  if (scored->len == 0)
    return NULL;
  g_array_sort (scored, compare_scored);
  GString *out = g_string_new (NULL);
  for (guint i = 0; i < scored->len && i < max; i++)
    {
      if (i > 0)
        g_string_append (out, ", ");
      g_string_append (out, g_array_index (scored, Scored, i).name);
    }
  return g_string_free (out, FALSE);
}

double
ws_now_seconds (void)
{
  return g_get_monotonic_time () / 1e6;
}

/* ---- WsHash128 ---------------------------------------------------------------- */

/* splitmix64's output function (Steele, Lea and Flood, "Fast splittable
 * pseudorandom number generators", OOPSLA 2014): a bijection of 64-bit
 * words with full avalanche. */
uint64_t
ws_mix64 (uint64_t z)
{
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

void
ws_hash128_init (WsHash128 *hash)
{
  memset (hash, 0, sizeof *hash);
  hash->h[0] = 0x243f6a8885a308d3ull; /* digits of pi: any two distinct constants */
  hash->h[1] = 0x13198a2e03707344ull;
}

static inline void
hash_word (WsHash128 *hash, uint64_t w)
{
  /* the lanes differ in their constants and rotation, so a collision in
   * one is independent of the other */
  hash->h[0] = ws_mix64 (hash->h[0] ^ (w + 0x9e3779b97f4a7c15ull));
  hash->h[1] = ws_mix64 (((hash->h[1] << 23) | (hash->h[1] >> 41)) ^ (w * 0xc2b2ae3d27d4eb4full + 1));
}

void
ws_hash128_update (WsHash128 *hash, const void *data, gsize n)
{
  const uint8_t *p = data;
  hash->length += n;
  while (n > 0 && hash->n_tail > 0)
    {
      hash->tail[hash->n_tail++] = *p++;
      n--;
      if (hash->n_tail == 8)
        {
          uint64_t w;
          memcpy (&w, hash->tail, 8);
          hash_word (hash, w);
          hash->n_tail = 0;
        }
    }
  for (; n >= 8; n -= 8, p += 8)
    {
      uint64_t w;
      memcpy (&w, p, 8);
      hash_word (hash, w);
    }
  for (; n > 0; n--)
    hash->tail[hash->n_tail++] = *p++;
}

void
ws_hash128_final (WsHash128 *hash, uint8_t out[16])
{
  uint64_t w = 0;
  memcpy (&w, hash->tail, hash->n_tail);
  hash_word (hash, w ^ ((uint64_t) hash->n_tail << 56));
  hash_word (hash, hash->length);
  uint64_t a = ws_mix64 (hash->h[0] ^ hash->h[1]), b = ws_mix64 (hash->h[1] + a);
  memcpy (out, &a, 8);
  memcpy (out + 8, &b, 8);
}

/* Below this, the heap's calloc is cheaper than a mapping. */
#define ZEROED_MMAP_MIN (64u * 1024u)

void *
ws_zeroed_alloc (gsize size)
{
  if (size < ZEROED_MMAP_MIN)
    return g_malloc0 (MAX (size, 1));
  void *p = mmap (NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED)
    g_error ("%s: failed to map %" G_GSIZE_FORMAT " bytes", G_STRLOC, size);
  return p;
}

void
ws_zeroed_free (void *block, gsize size)
{
  if (block == NULL)
    return;
  if (size < ZEROED_MMAP_MIN)
    g_free (block);
  else
    munmap (block, size);
}

int
ws_compare_string_ptrs (gconstpointer a, gconstpointer b)
{
  return g_strcmp0 (*(const char *const *) a, *(const char *const *) b);
}

const char **
ws_sorted_keys (GHashTable *table, guint *n)
{
  guint len = 0;
  const char **keys = (const char **) g_hash_table_get_keys_as_array (table, &len);
  qsort (keys, len, sizeof *keys, ws_compare_string_ptrs);
  if (n != NULL)
    *n = len;
  return keys;
}

/* ---- the build's identity ---------------------------------------------------------- */

typedef struct {
  uintptr_t addr; /* a code address inside the object searched for */
  char *id;
} BuildIdSearch;

static char *
hex_of (const uint8_t *bytes, gsize n)
{
  GString *s = g_string_sized_new (n * 2);
  for (gsize i = 0; i < n; i++)
    g_string_append_printf (s, "%02x", bytes[i]);
  return g_string_free (s, FALSE);
}

/* dl_iterate_phdr callback: the GNU build id note of the object whose
 * loaded segments hold s->addr. */
static int
build_id_of_object (struct dl_phdr_info *info, size_t size, void *data)
{
  (void) size;
  BuildIdSearch *s = data;
  gboolean mine = FALSE;
  for (int i = 0; i < info->dlpi_phnum && !mine; i++)
    {
      const ElfW (Phdr) *ph = &info->dlpi_phdr[i];
      uintptr_t lo = info->dlpi_addr + ph->p_vaddr;
      mine = ph->p_type == PT_LOAD && s->addr >= lo && s->addr < lo + ph->p_memsz;
    }
  if (!mine)
    return 0;
  for (int i = 0; i < info->dlpi_phnum && s->id == NULL; i++)
    {
      const ElfW (Phdr) *ph = &info->dlpi_phdr[i];
      if (ph->p_type != PT_NOTE)
        continue;
      const uint8_t *p = (const uint8_t *) (info->dlpi_addr + ph->p_vaddr), *end = p + ph->p_memsz;
      while (p + sizeof (ElfW (Nhdr)) <= end)
        {
          const ElfW (Nhdr) *n = (const void *) p;
          const uint8_t *name = p + sizeof *n;
          const uint8_t *desc = name + ((n->n_namesz + 3u) & ~3u);
          if (desc + n->n_descsz > end)
            break;
          if (n->n_type == NT_GNU_BUILD_ID && n->n_namesz == 4 && memcmp (name, "GNU", 4) == 0)
            {
              s->id = hex_of (desc, n->n_descsz);
              break;
            }
          p = desc + ((n->n_descsz + 3u) & ~3u);
        }
    }
  return 1;
}

/* The code's identity: the linker's build id (a hash of the code, the same
 * for the same sources and compiler), else the file's size and time. */
const char *
ws_build_identity (void)
{
  static gsize once = 0;
  static char *identity;
  if (g_once_init_enter (&once))
    {
      BuildIdSearch s = { (uintptr_t) &ws_build_identity, NULL };
      dl_iterate_phdr (build_id_of_object, &s);
      if (s.id != NULL)
        identity = g_strconcat ("build-id:", s.id, NULL);
      else
        {
          Dl_info info;
          struct stat st;
          if (dladdr ((void *) &ws_build_identity, &info) && info.dli_fname != NULL && stat (info.dli_fname, &st) == 0)
            identity = g_strdup_printf ("file:%s:%lld:%lld.%09ld", info.dli_fname, (long long) st.st_size,
                                        (long long) st.st_mtim.tv_sec, st.st_mtim.tv_nsec);
        }
      g_free (s.id);
      g_once_init_leave (&once, 1);
    }
  return identity;
}
