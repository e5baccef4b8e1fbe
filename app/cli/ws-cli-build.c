/* warpscope-cli build: nvcc with the flags profiling needs.
 *
 *   -cudart shared   so the program loads libcudart.so.13 dynamically and
 *                    Warpscope's runtime can take its place;
 *   PTX embedded     -gencode arch=compute_80,code=[compute_80,sm_80] unless
 *                    the user chose an architecture (the emulator runs PTX).
 * The build itself is core/launch's (ws_launch_build). */
#include <stdio.h>
#include <string.h>
#include <glib/gi18n.h>

#include "ws-cli.h"
#include "fatbin/ws-fatbin.h"
#include "launch/ws-launch.h"

int ws_cli_cmd_build (WsCli *cli, int argc, char **argv);

static void
usage (void)
{
  fprintf (stderr, "%s\n", _ ("Usage: warpscope-cli build [-o OUT] FILE.cu [nvcc args...]"));
}

int
ws_cli_cmd_build (WsCli *cli, int argc, char **argv)
{
  const char *out = NULL;
  g_autoptr (GPtrArray) args = g_ptr_array_new ();
  for (int i = 1; i < argc; i++)
    {
      const char *a = argv[i];
      if (strcmp (a, "--help") == 0 || strcmp (a, "-h") == 0)
        {
          usage ();
          fprintf (stderr, "%s\n",
                   _ ("Runs nvcc with -cudart shared and, unless an architecture is given, "
                      "-gencode arch=compute_80,code=[compute_80,sm_80] (embeds PTX)."));
          return WS_EXIT_OK;
        }
      if ((strcmp (a, "-o") == 0 || strcmp (a, "--output-file") == 0) && i + 1 < argc)
        {
          out = argv[++i];
          continue;
        }
      g_ptr_array_add (args, (char *) a);
    }
  g_ptr_array_add (args, NULL);

  /* core/launch owns the flags profiling needs (the GUI builds the same way). */
  WsBuildOptions options = { .args = (const char *const *) args->pdata, .output = out, .verbose = !cli->quiet };
  g_autoptr (GError) error = NULL;
  int nvcc_status = 0;
  g_autofree char *program = ws_launch_build (&options, &nvcc_status, NULL, &error);
  if (program == NULL)
    {
      if (nvcc_status != 0) /* nvcc said why on our stderr */
        return nvcc_status;
      /* A missing or wrong argument is a usage error, a missing or failing
       * tool a failure. */
      gboolean usage_error = g_error_matches (error, WS_ERROR, WS_ERROR_INVALID)
                             || g_error_matches (error, WS_ERROR, WS_ERROR_NOT_FOUND);
      if (g_error_matches (error, WS_ERROR, WS_ERROR_INVALID))
        usage ();
      return ws_cli_fail (cli, usage_error ? WS_EXIT_USAGE : WS_EXIT_FAILURE, "%s", error->message);
    }
  if (cli->json)
    {
      g_autoptr (WsElfCuda) info = ws_elf_cuda_inspect (program, NULL);
      g_autoptr (JsonBuilder) b = json_builder_new ();
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "output");
      json_builder_add_string_value (b, program);
      json_builder_set_member_name (b, "has_ptx");
      json_builder_add_boolean_value (b, info != NULL && info->fatbin != NULL && ws_fatbin_has_ptx (info->fatbin));
      json_builder_end_object (b);
      g_autoptr (JsonNode) root = json_builder_get_root (b);
      ws_cli_print_json (cli, root);
    }
  return WS_EXIT_OK;
}
