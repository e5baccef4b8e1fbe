/* warpscope-cli profile: runs an unmodified CUDA program on the emulator.
 *
 * The program loads Warpscope's libcudart.so.13 through LD_LIBRARY_PATH;
 * the runtime reads its configuration from WS_* variables (see
 * docs/profiling.md) and writes a summary that this command completes with
 * the program's exit code. */
#include "ws-config.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "ws-cli.h"
#include "fatbin/ws-fatbin.h"
#include "instrument/ws-instrument.h"

int ws_cli_cmd_profile (WsCli *cli, int argc, char **argv);

/* Where libcudart.so.13 is: the build tree when this binary runs from it,
 * else the installed libdir/warpscope.  WARPSCOPE_CUDART_DIR overrides. */
static char *
cudart_dir (void)
{
  const char *env = g_getenv ("WARPSCOPE_CUDART_DIR");
  if (env != NULL && *env)
    return g_strdup (env);
  g_autofree char *exe = g_file_read_link ("/proc/self/exe", NULL);
  g_autofree char *build = g_canonicalize_filename (WS_BUILD_DIR, NULL);
  if (exe != NULL && g_str_has_prefix (exe, build) && exe[strlen (build)] == '/')
    return g_build_filename (WS_BUILD_DIR, "core", "cudart", NULL);
  return g_path_get_dirname (WS_PLUGIN_DIR);   /* <prefix>/<libdir>/warpscope */
}

/* Splits "[options] [--] PROGRAM ARGS": returns the index of PROGRAM. */
static int
program_index (int argc, char **argv)
{
  static const char *const with_value[] = { "-o", "--output", "--gpu", "--threads", "--summary", "--tool",
                                            "--tool-output", NULL };
  for (int i = 1; i < argc; i++)
    {
      if (strcmp (argv[i], "--") == 0)
        return i + 1;
      if (argv[i][0] != '-')
        return i;
      if (g_strv_contains (with_value, argv[i]))
        i++;
    }
  return argc;
}

static JsonNode *
read_runtime_summary (const char *path)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  if (!json_parser_load_from_file (parser, path, NULL))
    return NULL;
  JsonNode *root = json_parser_get_root (parser);
  return root != NULL && JSON_NODE_HOLDS_OBJECT (root) ? json_node_copy (root) : NULL;
}

static gint64
member_int (JsonObject *o, const char *name)
{
  return o != NULL && json_object_has_member (o, name) ? json_object_get_int_member (o, name) : 0;
}

/* Refuses programs the runtime cannot interpose on; FALSE with a message. */
static gboolean
check_program (WsCli *cli, const char *path, int *code)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(WsElfCuda) info = ws_elf_cuda_inspect (path, &error);
  if (info == NULL)
    {
      /* Scripts and the like: run them, their children may be CUDA programs. */
      if (g_error_matches (error, WS_ERROR, WS_ERROR_INVALID))
        return TRUE;
      *code = ws_cli_fail (cli, WS_EXIT_FAILURE, "%s", error->message);
      return FALSE;
    }
  if (ws_elf_cuda_needs (info, "libcudart.so.13"))
    return TRUE;
  if (ws_elf_cuda_needs (info, "libcudart.so."))
    {
      *code = ws_cli_fail (cli, WS_EXIT_FAILURE,
                           _("%s is linked against another CUDA runtime version than 13; rebuild it with CUDA 13 "
                             "(warpscope-cli build or nvcc -cudart shared)"), path);
      return FALSE;
    }
  if (info->has_fatbin)
    {
      *code = ws_cli_fail (cli, WS_EXIT_FAILURE,
                           _("%s is linked statically against the CUDA runtime (nvcc's default), so Warpscope "
                             "cannot run its kernels; rebuild with warpscope-cli build or nvcc -cudart shared"),
                           path);
      return FALSE;
    }
  return TRUE;
}

int
ws_cli_cmd_profile (WsCli *cli, int argc, char **argv)
{
  g_autofree char *output = NULL, *gpu_name = NULL, *summary_file = NULL;
  int threads = -1;
  gboolean deterministic = FALSE;
  g_auto(GStrv) tools = NULL;
  g_autofree char *tool_output = NULL;
  const GOptionEntry entries[] = {
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output, N_("Write the trace to TRACE"), "TRACE" },
    { "gpu", 0, 0, G_OPTION_ARG_STRING, &gpu_name, N_("Target GPU from the catalogue (default A100)"), "NAME" },
    { "threads", 0, 0, G_OPTION_ARG_INT, &threads, N_("Emulator worker threads (default: all CPUs)"), "N" },
    { "deterministic", 0, 0, G_OPTION_ARG_NONE, &deterministic,
      N_("Run thread blocks one at a time, in order"), NULL },
    { "summary", 0, 0, G_OPTION_ARG_FILENAME, &summary_file, N_("Write the JSON summary to FILE"), "FILE" },
    { "tool", 0, 0, G_OPTION_ARG_STRING_ARRAY, &tools,
      N_("Attach an instrumentation tool (branch, memdiv, value; repeatable)"), "NAME" },
    { "tool-output", 0, 0, G_OPTION_ARG_FILENAME, &tool_output,
      N_("Write tool results to PREFIX.NAME.json (default: the trace path, else the program name)"), "PREFIX" },
    { NULL }
  };
  int prog = program_index (argc, argv);
  int opt_argc = MIN (prog, argc);
  if (opt_argc > 1 && strcmp (argv[opt_argc - 1], "--") == 0)
    opt_argc--;
  g_autofree char **opt_argv = g_new0 (char *, opt_argc + 1);
  for (int i = 0; i < opt_argc; i++)
    opt_argv[i] = argv[i];
  char **parse_argv = opt_argv;
  if (!ws_cli_parse_options (cli, &opt_argc, &parse_argv, entries, _("[--] PROGRAM [ARGS...]"),
                             _("Run a CUDA program built with -cudart shared on the PTX emulator")))
    return WS_EXIT_USAGE;
  if (opt_argc > 1)
    return ws_cli_fail (cli, WS_EXIT_USAGE, _("unexpected argument '%s' before the program"), parse_argv[1]);
  if (prog >= argc)
    return ws_cli_fail (cli, WS_EXIT_USAGE, _("no program given: warpscope-cli profile [OPTIONS] -- PROGRAM [ARGS]"));
  if (threads < -1 || threads > 4096)
    return ws_cli_fail (cli, WS_EXIT_USAGE, _("--threads must be between 0 and 4096"));

  /* The program: a path, or a name looked up in PATH as a shell would. */
  g_autofree char *program = strchr (argv[prog], '/') != NULL ? g_strdup (argv[prog])
                                                             : g_find_program_in_path (argv[prog]);
  if (program == NULL || !g_file_test (program, G_FILE_TEST_IS_REGULAR))
    return ws_cli_fail (cli, WS_EXIT_USAGE, _("program '%s' not found"), argv[prog]);
  if (!g_file_test (program, G_FILE_TEST_IS_EXECUTABLE))
    return ws_cli_fail (cli, WS_EXIT_USAGE, _("'%s' is not executable"), program);
  int code = 0;
  if (!check_program (cli, program, &code))
    return code;

  if (gpu_name != NULL)
    {
      g_autoptr(WsGpu) gpu = ws_cli_lookup_gpu (cli, gpu_name, &code);
      if (gpu == NULL)
        return code;
      g_free (gpu_name);
      gpu_name = g_strdup (gpu->name);
    }

  g_autofree char *dir = cudart_dir ();
  g_autofree char *lib = g_build_filename (dir, "libcudart.so.13", NULL);
  if (!g_file_test (lib, G_FILE_TEST_EXISTS))
    return ws_cli_fail (cli, WS_EXIT_FAILURE,
                        _("the Warpscope CUDA runtime is missing (%s): it is built only where CUDA's headers "
                          "were found at build time"), lib);

  g_autoptr(GError) error = NULL;
  g_autofree char *tmpdir = g_dir_make_tmp ("warpscope-profile-XXXXXX", &error);
  if (tmpdir == NULL)
    return ws_cli_fail_error (cli, error);
  g_autofree char *runtime_summary = g_build_filename (tmpdir, "summary.json", NULL);

  char **envp = g_get_environ ();
  const char *old_ld = g_environ_getenv (envp, "LD_LIBRARY_PATH");
  g_autofree char *ld = old_ld != NULL && *old_ld ? g_strconcat (dir, ":", old_ld, NULL) : g_strdup (dir);
  envp = g_environ_setenv (envp, "LD_LIBRARY_PATH", ld, TRUE);
  envp = g_environ_setenv (envp, "WS_SUMMARY", runtime_summary, TRUE);
  if (gpu_name != NULL)
    envp = g_environ_setenv (envp, "WS_GPU", gpu_name, TRUE);
  /* The runtime reads the catalogue this command uses (--db or default). */
  WsStore *store = ws_cli_store (cli);
  if (store == NULL)
    {
      g_strfreev (envp);
      g_rmdir (tmpdir);
      return WS_EXIT_FAILURE;
    }
  g_autofree char *db = g_canonicalize_filename (ws_store_get_path (store), NULL);
  envp = g_environ_setenv (envp, "WS_DB", db, TRUE);
  if (output != NULL)
    {
      g_autofree char *trace = g_canonicalize_filename (output, NULL);
      envp = g_environ_setenv (envp, "WS_TRACE", trace, TRUE);
    }
  else
    envp = g_environ_unsetenv (envp, "WS_TRACE");
  if (threads >= 0)
    {
      g_autofree char *t = g_strdup_printf ("%d", threads);
      envp = g_environ_setenv (envp, "WS_THREADS", t, TRUE);
    }
  if (deterministic)
    envp = g_environ_setenv (envp, "WS_DETERMINISTIC", "1", TRUE);
  /* Instrumentation tools (docs/instrumentation.md): results next to the
   * trace, or PROGRAM.NAME.json in the current directory. */
  g_autofree char *tool_prefix = NULL;
  if (tools != NULL && tools[0] != NULL)
    {
      g_autofree char *joined = g_strjoinv (",", tools);
      for (guint i = 0; tools[i] != NULL; i++)
        if (!g_strv_contains (ws_instrument_builtin_names (), tools[i]))
          {
            g_strfreev (envp);
            g_rmdir (tmpdir);
            return ws_cli_fail (cli, WS_EXIT_USAGE, _("unknown tool '%s' (known: branch, memdiv, value)"), tools[i]);
          }
      if (tool_output != NULL)
        tool_prefix = g_canonicalize_filename (tool_output, NULL);
      else if (output != NULL)
        tool_prefix = g_canonicalize_filename (output, NULL);
      else
        {
          g_autofree char *base = g_path_get_basename (program);
          tool_prefix = g_canonicalize_filename (base, NULL);
        }
      envp = g_environ_setenv (envp, "WS_TOOLS", joined, TRUE);
      envp = g_environ_setenv (envp, "WS_TOOL_OUTPUT", tool_prefix, TRUE);
    }
  else
    {
      envp = g_environ_unsetenv (envp, "WS_TOOLS");
      envp = g_environ_unsetenv (envp, "WS_TOOL_OUTPUT");
    }

  /* The program's stdin/stdout/stderr are ours: its output passes through
   * unchanged. */
  g_autofree char **child_argv = g_new0 (char *, argc - prog + 1);
  child_argv[0] = program;
  for (int i = prog + 1; i < argc; i++)
    child_argv[i - prog] = argv[i];
  fflush (stdout);
  fflush (stderr);
  double t0 = ws_now_seconds ();
  int status = 0;
  gboolean spawned = g_spawn_sync (NULL, child_argv, envp, G_SPAWN_CHILD_INHERITS_STDIN,
                                   NULL, NULL, NULL, NULL, &status, &error);
  double wall = ws_now_seconds () - t0;
  g_strfreev (envp);
  if (!spawned)
    {
      g_rmdir (tmpdir);
      return ws_cli_fail (cli, WS_EXIT_FAILURE, _("cannot run %s: %s"), program, error->message);
    }
  int exit_code;
  if (WIFEXITED (status))
    exit_code = WEXITSTATUS (status);
  else if (WIFSIGNALED (status))
    {
      exit_code = 128 + WTERMSIG (status);
      ws_cli_info (cli, _("%s was killed by signal %d (%s)"), program, WTERMSIG (status), g_strsignal (WTERMSIG (status)));
    }
  else
    exit_code = WS_EXIT_FAILURE;

  g_autoptr(JsonNode) rt = read_runtime_summary (runtime_summary);
  g_unlink (runtime_summary);
  g_rmdir (tmpdir);
  if (rt == NULL && exit_code == 0)
    ws_cli_info (cli, _("note: %s did not load the Warpscope CUDA runtime (no kernels were emulated)"), program);

  /* Tool results are also kept in the store (table tool_result). */
  for (guint i = 0; tool_prefix != NULL && tools[i] != NULL; i++)
    {
      static const char *const stored[] = { "branch", "memdiv", "value", NULL };
      g_autofree char *path = g_strdup_printf ("%s.%s.json", tool_prefix, tools[i]);
      g_autoptr(JsonParser) tp = json_parser_new ();
      g_autoptr(GError) terr = NULL;
      if (!g_strv_contains (stored, tools[i]))
        continue;
      if (!json_parser_load_from_file (tp, path, &terr))
        {
          ws_cli_info (cli, _("%s: no %s result (%s)"), program, tools[i], terr->message);
          continue;
        }
      if (!ws_instrument_store_result (ws_store_get_db (store), tools[i], program, (const char *const *) child_argv + 1,
                                       output, json_parser_get_root (tp), &terr))
        ws_cli_info (cli, "%s", terr->message);
      else
        ws_cli_info (cli, _("%s result: %s"), tools[i], path);
    }

  if (cli->json || summary_file != NULL)
    {
      JsonObject *ro = rt != NULL ? json_node_get_object (rt) : NULL;
      g_autoptr(JsonBuilder) b = json_builder_new ();
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "exit_code");
      json_builder_add_int_value (b, exit_code);
      json_builder_set_member_name (b, "launches");
      json_builder_add_int_value (b, member_int (ro, "launches"));
      json_builder_set_member_name (b, "warp_instructions");
      json_builder_add_int_value (b, member_int (ro, "warp_instructions"));
      json_builder_set_member_name (b, "thread_instructions");
      json_builder_add_int_value (b, member_int (ro, "thread_instructions"));
      json_builder_set_member_name (b, "seconds");
      json_builder_add_double_value (b, ro != NULL && json_object_has_member (ro, "seconds")
                                          ? json_object_get_double_member (ro, "seconds") : 0.0);
      json_builder_set_member_name (b, "wall_seconds");
      json_builder_add_double_value (b, wall);
      const char *gpu = ro != NULL && json_object_has_member (ro, "gpu") ? json_object_get_string_member (ro, "gpu")
                                                                         : gpu_name;
      if (gpu != NULL && *gpu)
        {
          json_builder_set_member_name (b, "gpu");
          json_builder_add_string_value (b, gpu);
        }
      if (output != NULL)
        {
          json_builder_set_member_name (b, "trace");
          json_builder_add_string_value (b, output);
        }
      json_builder_set_member_name (b, "errors_reported");
      json_builder_add_int_value (b, member_int (ro, "errors_reported"));
      if (tool_prefix != NULL)
        {
          json_builder_set_member_name (b, "tools");
          json_builder_begin_object (b);
          for (guint i = 0; tools[i] != NULL; i++)
            {
              g_autofree char *path = g_strdup_printf ("%s.%s.json", tool_prefix, tools[i]);
              json_builder_set_member_name (b, tools[i]);
              json_builder_add_string_value (b, path);
            }
          json_builder_end_object (b);
        }
      if (ro != NULL && json_object_has_member (ro, "error"))
        {
          json_builder_set_member_name (b, "error");
          json_builder_add_string_value (b, json_object_get_string_member (ro, "error"));
        }
      json_builder_end_object (b);
      g_autoptr(JsonNode) root = json_builder_get_root (b);
      g_autoptr(JsonGenerator) gen = json_generator_new ();
      json_generator_set_root (gen, root);
      g_autofree char *text = json_generator_to_data (gen, NULL);
      if (summary_file != NULL)
        {
          g_autofree char *with_nl = g_strconcat (text, "\n", NULL);
          if (!g_file_set_contents (summary_file, with_nl, -1, &error))
            {
              ws_cli_fail_error (cli, error);
              return exit_code != 0 ? exit_code : WS_EXIT_FAILURE;
            }
        }
      else
        {
          fputs (text, stderr);
          fputc ('\n', stderr);
        }
    }
  return exit_code;
}
