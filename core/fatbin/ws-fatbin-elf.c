/* ws-fatbin-elf.c: the little of ELF that profiling needs: which shared
 * libraries a program needs (is the CUDA runtime linked dynamically?) and
 * its fatbinary sections (does it embed PTX?). */
#define G_LOG_DOMAIN "ws-fatbin"

#include "fatbin/ws-fatbin.h"

#include <elf.h>
#include <string.h>

void
ws_elf_cuda_free (WsElfCuda *info)
{
  if (info == NULL)
    return;
  g_strfreev (info->needed);
  ws_fatbin_free (info->fatbin);
  if (info->sections != NULL)
    g_bytes_unref (info->sections);
  g_free (info);
}

gboolean
ws_elf_cuda_needs (const WsElfCuda *info, const char *prefix)
{
  g_return_val_if_fail (info != NULL, FALSE);
  for (guint i = 0; info->needed != NULL && info->needed[i] != NULL; i++)
    if (g_str_has_prefix (info->needed[i], prefix))
      return TRUE;
  return FALSE;
}

static gboolean
in_file (gsize size, guint64 off, guint64 len)
{
  return off <= size && len <= size - off;
}

WsElfCuda *
ws_elf_cuda_inspect (const char *path, GError **error)
{
  g_return_val_if_fail (path != NULL, NULL);
  g_autoptr (GMappedFile) map = g_mapped_file_new (path, FALSE, error);
  if (map == NULL)
    return NULL;
  const guint8 *d = (const guint8 *) g_mapped_file_get_contents (map);
  gsize size = g_mapped_file_get_length (map);
  Elf64_Ehdr eh;
  if (size < sizeof eh || memcmp (d, ELFMAG, SELFMAG) != 0)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID, "%s is not an ELF executable", path);
      return NULL;
    }
  memcpy (&eh, d, sizeof eh);
  if (eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_ident[EI_DATA] != ELFDATA2LSB || eh.e_shentsize != sizeof (Elf64_Shdr)
      || !in_file (size, eh.e_shoff, (guint64) eh.e_shnum * sizeof (Elf64_Shdr)) || eh.e_shstrndx >= eh.e_shnum)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID, "%s is not a 64-bit little-endian ELF file with section headers",
                   path);
      return NULL;
    }
  Elf64_Shdr *sh = g_new (Elf64_Shdr, eh.e_shnum);
  memcpy (sh, d + eh.e_shoff, (gsize) eh.e_shnum * sizeof (Elf64_Shdr));
  const Elf64_Shdr *shstr = &sh[eh.e_shstrndx];
  WsElfCuda *info = g_new0 (WsElfCuda, 1);
  GPtrArray *needed = g_ptr_array_new ();
  GByteArray *fat = g_byte_array_new ();
  GByteArray *rel = g_byte_array_new ();
  for (guint i = 0; i < eh.e_shnum; i++)
    {
      const Elf64_Shdr *s = &sh[i];
      const char *name = "";
      if (in_file (size, shstr->sh_offset, shstr->sh_size) && s->sh_name < shstr->sh_size)
        name = (const char *) d + shstr->sh_offset + s->sh_name;
      if (s->sh_type == SHT_DYNAMIC && s->sh_link < eh.e_shnum && in_file (size, s->sh_offset, s->sh_size))
        {
          const Elf64_Shdr *str = &sh[s->sh_link];
          if (!in_file (size, str->sh_offset, str->sh_size))
            continue;
          for (guint64 off = 0; off + sizeof (Elf64_Dyn) <= s->sh_size; off += sizeof (Elf64_Dyn))
            {
              Elf64_Dyn dyn;
              memcpy (&dyn, d + s->sh_offset + off, sizeof dyn);
              if (dyn.d_tag == DT_NULL)
                break;
              if (dyn.d_tag == DT_NEEDED && dyn.d_un.d_val < str->sh_size)
                g_ptr_array_add (needed, g_strndup ((const char *) d + str->sh_offset + dyn.d_un.d_val,
                                                    str->sh_size - dyn.d_un.d_val));
            }
        }
      else if (s->sh_type != SHT_NOBITS && in_file (size, s->sh_offset, s->sh_size)
               && (strcmp (name, ".nv_fatbin") == 0 || strcmp (name, "__nv_relfatbin") == 0))
        {
          GByteArray *to = name[0] == '.' ? fat : rel;
          g_byte_array_append (to, d + s->sh_offset, (guint) s->sh_size);
        }
    }
  g_free (sh);
  g_ptr_array_add (needed, NULL);
  info->needed = (char **) g_ptr_array_free (needed, FALSE);
  info->has_fatbin = fat->len > 0;
  /* Keep both sections in one buffer that the WsFatbin points into. */
  guint fat_len = fat->len;
  g_byte_array_append (fat, rel->data, rel->len);
  guint total = fat->len;
  g_byte_array_unref (rel);
  info->sections = g_byte_array_free_to_bytes (fat);
  if (info->has_fatbin)
    {
      const guint8 *bytes = g_bytes_get_data (info->sections, NULL);
      g_autoptr (GError) local = NULL;
      info->fatbin = ws_fatbin_new_from_data (bytes, fat_len, &local);
      if (info->fatbin != NULL && total > fat_len
          && !ws_fatbin_add_data (info->fatbin, bytes + fat_len, total - fat_len, &local))
        g_clear_pointer (&info->fatbin, ws_fatbin_free);
      if (info->fatbin == NULL)
        {
          g_propagate_prefixed_error (error, g_steal_pointer (&local), "%s: ", path);
          ws_elf_cuda_free (info);
          return NULL;
        }
    }
  return info;
}
