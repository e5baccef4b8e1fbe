/* warpscope-cli build: nvcc with the flags profiling needs.
 *
 *   -cudart shared   so the program loads libcudart.so.13 dynamically and
 *                    Warpscope's runtime can take its place;
 *   PTX embedded     -gencode arch=compute_80,code=[compute_80,sm_80] unless
 *                    the user chose an architecture (the emulator runs PTX). */
#include "ws-config.h"

#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <glib/gi18n.h>

#include "ws-cli.h"
#include "fatbin/ws-fatbin.h"

int ws_cli_cmd_build (WsCli *cli, int argc, char **argv);

static char *
find_nvcc (void)
{
  const char *env = g_getenv ("NVCC");
  if (env != NULL && *env)
    return g_strdup (env);
  if (*WS_NVCC && g_file_test (WS_NVCC, G_FILE_TEST_IS_EXECUTABLE))
    return g_strdup (WS_NVCC);
  char *p = g_find_program_in_path ("nvcc");
  if (p == NULL && g_file_test ("/usr/local/cuda/bin/nvcc", G_FILE_TEST_IS_EXECUTABLE))
    p = g_strdup ("/usr/local/cuda/bin/nvcc");
  return p;
}

static gboolean
is_arch_flag (const char *a)
{
  static const char *const prefixes[] = {
    "-arch", "--gpu-architecture", "-gencode", "--generate-code", "-code", "--gpu-code", NULL
  };
  for (guint i = 0; prefixes[i] != NULL; i++)
    if (g_str_has_prefix (a, prefixes[i]))
      return TRUE;
  return FALSE;
}

static void
usage (void)
{
  fprintf (stderr, "%s\n", _("Usage: warpscope-cli build [-o OUT] FILE.cu [nvcc args...]"));
}

int
ws_cli_cmd_build (WsCli *cli, int argc, char **argv)
{
  const char *out = NULL, *source = NULL;
  gboolean user_arch = FALSE;
  g_autoptr(GPtrArray) extra = g_ptr_array_new ();
  for (int i = 1; i < argc; i++)
    {
      const char *a = argv[i];
      if (strcmp (a, "--help") == 0 || strcmp (a, "-h") == 0)
        {
          usage ();
          fprintf (stderr, "%s\n", _("Runs nvcc with -cudart shared and, unless an architecture is given, "
                                     "-gencode arch=compute_80,code=[compute_80,sm_80] (embeds PTX)."));
          return WS_EXIT_OK;
        }
      if ((strcmp (a, "-o") == 0 || strcmp (a, "--output-file") == 0) && i + 1 < argc)
        {
          out = argv[++i];
          continue;
        }
      if (strcmp (a, "-cudart") == 0 || strcmp (a, "--cudart") == 0)
        {
          if (i + 1 >= argc || strcmp (argv[i + 1], "shared") != 0)
            return ws_cli_fail (cli, WS_EXIT_USAGE,
                                _("the program must use the shared CUDA runtime (-cudart shared) to be profiled"));
          i++;
          continue;
        }
      if (g_str_has_prefix (a, "-cudart=") || g_str_has_prefix (a, "--cudart="))
        {
          if (strcmp (strchr (a, '=') + 1, "shared") != 0)
            return ws_cli_fail (cli, WS_EXIT_USAGE,
                                _("the program must use the shared CUDA runtime (-cudart shared) to be profiled"));
          continue;
        }
      if (is_arch_flag (a))
        user_arch = TRUE;
      if (source == NULL && a[0] != '-' && g_str_has_suffix (a, ".cu"))
        source = a;
      g_ptr_array_add (extra, (char *) a);
    }
  if (source == NULL)
    {
      usage ();
      return ws_cli_fail (cli, WS_EXIT_USAGE, _("no .cu source file given"));
    }
  if (!g_file_test (source, G_FILE_TEST_EXISTS))
    return ws_cli_fail (cli, WS_EXIT_USAGE, _("source file '%s' not found"), source);
  g_autofree char *nvcc = find_nvcc ();
  if (nvcc == NULL)
    return ws_cli_fail (cli, WS_EXIT_FAILURE,
                        _("nvcc not found (install the CUDA 13 toolkit, put nvcc in PATH or set NVCC)"));
  g_autofree char *default_out = NULL;
  if (out == NULL)
    {
      g_autofree char *base = g_path_get_basename (source);
      default_out = g_strndup (base, strlen (base) - 3);
      out = default_out;
    }

  g_autoptr(GPtrArray) cmd = g_ptr_array_new ();
  g_ptr_array_add (cmd, nvcc);
  g_ptr_array_add (cmd, "-cudart");
  g_ptr_array_add (cmd, "shared");
  if (!user_arch)
    {
      g_ptr_array_add (cmd, "-gencode");
      g_ptr_array_add (cmd, "arch=compute_80,code=[compute_80,sm_80]");
    }
  g_ptr_array_add (cmd, "-o");
  g_ptr_array_add (cmd, (char *) out);
  for (guint i = 0; i < extra->len; i++)
    g_ptr_array_add (cmd, extra->pdata[i]);
  g_ptr_array_add (cmd, NULL);
  if (!cli->quiet)
    {
      g_autofree char *line = g_strjoinv (" ", (char **) cmd->pdata);
      fprintf (stderr, "%s\n", line);
    }
  g_autoptr(GError) error = NULL;
  int status = 0;
  if (!g_spawn_sync (NULL, (char **) cmd->pdata, NULL, G_SPAWN_CHILD_INHERITS_STDIN, NULL, NULL, NULL, NULL,
                     &status, &error))
    return ws_cli_fail (cli, WS_EXIT_FAILURE, _("cannot run %s: %s"), nvcc, error->message);
  if (!WIFEXITED (status) || WEXITSTATUS (status) != 0)
    return WIFEXITED (status) ? WEXITSTATUS (status) : WS_EXIT_FAILURE;

  /* An architecture the user chose may embed only SASS: say so now rather
   * than when the program is profiled. */
  g_autoptr(WsElfCuda) info = ws_elf_cuda_inspect (out, NULL);
  if (info != NULL && info->fatbin != NULL && !ws_fatbin_has_ptx (info->fatbin))
    return ws_cli_fail (cli, WS_EXIT_FAILURE,
                        _("%s holds no PTX, only machine code, which the emulator cannot run; rebuild with "
                          "-arch=sm_XX (which embeds PTX) or without architecture options"), out);
  if (cli->json)
    {
      g_autoptr(JsonBuilder) b = json_builder_new ();
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "output");
      json_builder_add_string_value (b, out);
      json_builder_set_member_name (b, "has_ptx");
      json_builder_add_boolean_value (b, info != NULL && info->fatbin != NULL && ws_fatbin_has_ptx (info->fatbin));
      json_builder_end_object (b);
      g_autoptr(JsonNode) root = json_builder_get_root (b);
      ws_cli_print_json (cli, root);
    }
  return WS_EXIT_OK;
}
