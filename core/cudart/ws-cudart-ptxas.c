/* ws-cudart-ptxas.c: resource use (registers, shared, local memory) of each
 * kernel as ptxas reports it for the target GPU, cached by content hash
 * under the user cache directory so a program pays for ptxas once. */
#define G_LOG_DOMAIN "ws-cudart"

#include "ws-config.h"
#include "cudart/ws-cudart-private.h"

#include <stdlib.h>
#include <string.h>
#include <gio/gio.h>
#include <glib/gstdio.h>
#include <unistd.h>

typedef struct {
  uint32_t regs, shared, local;
} Resources;

void ws_cudart_apply_ptxas (WsCudartModule *module, const char *ptx, const char *options);
GHashTable *ws_cudart_parse_ptxas_output (const char *text);

static const char *
ptxas_path (void)
{
  const char *env = g_getenv ("WS_PTXAS");
  if (env != NULL)
    return *env ? env : NULL; /* WS_PTXAS= (empty) disables ptxas */
  return *WS_PTXAS ? WS_PTXAS : NULL;
}

/* "ptxas info    : Compiling entry function 'NAME' for 'sm_80'"
 * "ptxas info    : Function properties for NAME"
 * "    24 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads"
 * "ptxas info    : Used 10 registers, used 1 barriers, 1024 bytes smem, 372 bytes cmem[0]" */
GHashTable *
ws_cudart_parse_ptxas_output (const char *text)
{
  GHashTable *out = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
  char *entry = NULL; /* entry being compiled (gets the "Used" line) */
  char *props = NULL; /* function the next "stack frame" line describes */
  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *l = lines[i];
      const char *p;
      if ((p = strstr (l, "Compiling entry function '")) != NULL)
        {
          p += strlen ("Compiling entry function '");
          const char *q = strchr (p, '\'');
          g_free (entry);
          entry = q != NULL ? g_strndup (p, q - p) : NULL;
          if (entry != NULL && !g_hash_table_contains (out, entry))
            g_hash_table_insert (out, g_strdup (entry), g_new0 (Resources, 1));
        }
      else if ((p = strstr (l, "Function properties for ")) != NULL)
        {
          g_free (props);
          props = g_strstrip (g_strdup (p + strlen ("Function properties for ")));
        }
      else if ((p = strstr (l, "bytes stack frame")) != NULL && props != NULL)
        {
          Resources *r = g_hash_table_lookup (out, props);
          if (r != NULL)
            r->local = (uint32_t) strtoul (l, NULL, 10);
        }
      else if ((p = strstr (l, "Used ")) != NULL && entry != NULL)
        {
          Resources *r = g_hash_table_lookup (out, entry);
          if (r == NULL)
            continue;
          r->regs = (uint32_t) strtoul (p + 5, NULL, 10);
          const char *s = strstr (p, " bytes smem");
          if (s != NULL)
            {
              /* The number before " bytes smem". */
              const char *n = s;
              while (n > p && g_ascii_isdigit (n[-1]))
                n--;
              r->shared = (uint32_t) strtoul (n, NULL, 10);
            }
        }
    }
  g_free (entry);
  g_free (props);
  return out;
}

/* Runs ptxas (or reads its cached report) for @ptx; NULL when unavailable.
 * @compile_only: relocatable code (--compile-only), for PTX that calls
 * functions defined elsewhere (separate compilation, -rdc=true: device-side
 * launches call cudadevrt), which a whole-program ptxas run refuses. */
static char *
ptxas_report (const char *ptx, const char *options, int sm, gboolean compile_only)
{
  const char *ptxas = ptxas_path ();
  if (ptxas == NULL || sm == 0)
    return NULL;
  g_autofree char *arch = g_strdup_printf ("-arch=sm_%d", sm);
  g_autoptr (GChecksum) sum = g_checksum_new (G_CHECKSUM_SHA256);
  g_checksum_update (sum, (const guchar *) ptxas, -1);
  g_checksum_update (sum, (const guchar *) arch, -1);
  g_checksum_update (sum, (const guchar *) (compile_only ? "--compile-only" : ""), -1);
  g_checksum_update (sum, (const guchar *) options, -1);
  g_checksum_update (sum, (const guchar *) ptx, -1);
  g_autofree char *dir = g_build_filename (g_get_user_cache_dir (), "warpscope", "ptxas", NULL);
  g_autofree char *cached = g_strdup_printf ("%s/%s.txt", dir, g_checksum_get_string (sum));
  char *text = NULL;
  if (g_file_get_contents (cached, &text, NULL, NULL))
    return text;

  g_autoptr (GError) error = NULL;
  g_autofree char *tmpdir = g_dir_make_tmp ("ws-ptxas-XXXXXX", &error);
  if (tmpdir == NULL)
    return NULL;
  g_autofree char *in = g_build_filename (tmpdir, "module.ptx", NULL);
  g_autofree char *outfile = g_build_filename (tmpdir, "module.cubin", NULL);
  gboolean ok = g_file_set_contents (in, ptx, -1, &error);
  g_autofree char *out = NULL, *err = NULL;
  int status = 0;
  if (ok)
    {
      GPtrArray *argv = g_ptr_array_new ();
      g_ptr_array_add (argv, (char *) ptxas);
      g_ptr_array_add (argv, arch);
      g_ptr_array_add (argv, "-v");
      if (compile_only)
        g_ptr_array_add (argv, "--compile-only");
      g_auto (GStrv) opts = g_strsplit_set (options, " \t", -1);
      for (guint i = 0; opts[i] != NULL; i++)
        if (*opts[i])
          g_ptr_array_add (argv, opts[i]);
      g_ptr_array_add (argv, "-o");
      g_ptr_array_add (argv, outfile);
      g_ptr_array_add (argv, in);
      g_ptr_array_add (argv, NULL);
      ok = g_spawn_sync (NULL, (char **) argv->pdata, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, &err, &status, &error)
           && g_spawn_check_wait_status (status, NULL);
      g_ptr_array_unref (argv);
    }
  g_unlink (in);
  g_unlink (outfile);
  g_rmdir (tmpdir);
  if (!ok)
    {
      /* Not fatal: the emulator's estimate stands (e.g. a target older than
       * ptxas supports). */
      g_debug ("ptxas %s %s%s failed: %s", arch, compile_only ? "--compile-only " : "", options,
               err != NULL ? err : (error != NULL ? error->message : ""));
      return NULL;
    }
  text = g_strconcat (out != NULL ? out : "", err != NULL ? err : "", NULL);
  if (g_mkdir_with_parents (dir, 0755) == 0)
    {
      /* Write then rename: concurrent runs never read half a report. */
      g_autofree char *tmp = g_strdup_printf ("%s.%d.tmp", cached, (int) getpid ());
      if (g_file_set_contents (tmp, text, -1, NULL))
        g_rename (tmp, cached);
    }
  return text;
}

void
ws_cudart_apply_ptxas (WsCudartModule *module, const char *ptx, const char *options)
{
  int target = ws_cudart_target_sm ();
  const char *opts = options != NULL ? options : "";
  g_autofree char *report = ptxas_report (ptx, opts, target, FALSE);
  if (report == NULL)
    report = ptxas_report (ptx, opts, target, TRUE);
  /* PTX for a newer architecture than the target (compute_80 run as a
   * V100: nvcc 13 emits nothing older) never compiles for the target.
   * ptxas's allocation for the PTX's own architecture is then the closest
   * real figure: both have 255 registers per thread and 64 K per SM, and
   * the emulator's estimate from PTX virtual registers is far rougher (for
   * examples/validation/vstream's triad it allowed one 800-thread block per
   * V100 SM, where ptxas's 12 to 18 registers allow two). */
  if (report == NULL && module->ptx_arch > (uint32_t) target)
    report = ptxas_report (ptx, opts, (int) module->ptx_arch, FALSE);
  if (report == NULL && module->ptx_arch > (uint32_t) target)
    report = ptxas_report (ptx, opts, (int) module->ptx_arch, TRUE);
  if (report == NULL)
    return;
  g_autoptr (GHashTable) res = ws_cudart_parse_ptxas_output (report);
  GHashTableIter it;
  gpointer key, value;
  g_hash_table_iter_init (&it, res);
  while (g_hash_table_iter_next (&it, &key, &value))
    {
      WsEmuFunction *fn = ws_emu_module_get_function (module->emu_module, key);
      const Resources *r = value;
      if (fn != NULL)
        ws_emu_function_set_resources (fn, r->regs, r->shared, r->local);
    }
}
