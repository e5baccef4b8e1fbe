/* warpscope-cli profile: runs an unmodified CUDA program on the emulator.
 *
 * core/launch starts the program with Warpscope's libcudart.so.13 and the
 * runtime's WS_* variables (see docs/profiling.md) and reads the summary the
 * runtime writes; this command completes it with the program's exit code.
 *
 * Nothing is lost: the trace is written to a temporary name beside -o and
 * moved over it only when the runtime finished it (ws_launch_profile); SIGINT, SIGTERM and
 * SIGHUP are passed on to the program (a second one kills it) and the
 * program dies with this process in any case (core/launch). */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "ws-cli.h"
#include "launch/ws-launch.h"
#include "instrument/ws-instrument.h"

int ws_cli_cmd_profile (WsCli *cli, int argc, char **argv);

/* Splits "[options] [--] PROGRAM ARGS": returns the index of PROGRAM. */
static int
program_index (int argc, char **argv)
{
  static const char *const with_value[] = { "-o",
                                            "--output",
                                            "--gpu",
                                            "--threads",
                                            "--summary",
                                            "--tool",
                                            "--tool-output",
                                            "--launch-timeout",
                                            "--instruction-budget",
                                            NULL };
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

/* The program's pid and the signal that asked us to stop (signal handler state). */
static volatile sig_atomic_t child_pid;
static volatile sig_atomic_t stop_signal;

static void
on_stop_signal (int sig)
{
  pid_t pid = (pid_t) child_pid;
  if (pid > 0)
    kill (pid, stop_signal != 0 ? SIGKILL : sig);
  stop_signal = sig;
}

static void
on_started (GPid pid, gpointer user_data)
{
  child_pid = (sig_atomic_t) pid;
  if (stop_signal != 0) /* asked to stop while it was starting */
    kill (pid, SIGKILL);
}

static gint64
member_int (JsonObject *o, const char *name)
{
  return o != NULL && json_object_has_member (o, name) ? json_object_get_int_member (o, name) : 0;
}

int
ws_cli_cmd_profile (WsCli *cli, int argc, char **argv)
{
  g_autofree char *output = NULL, *gpu_name = NULL, *summary_file = NULL;
  int threads = -1;
  gboolean deterministic = FALSE;
  g_auto (GStrv) tools = NULL;
  g_autofree char *tool_output = NULL;
  gboolean memcheck = FALSE;
  double launch_timeout = -1;
  gint64 instruction_budget = -1;
  const GOptionEntry entries[] = {
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output, N_ ("Write the trace to TRACE"), "TRACE" },
    { "gpu", 0, 0, G_OPTION_ARG_STRING, &gpu_name, N_ ("Target GPU from the catalogue (default A100)"), "NAME" },
    { "threads", 0, 0, G_OPTION_ARG_INT, &threads, N_ ("Emulator worker threads (default: all CPUs)"), "N" },
    { "deterministic", 0, 0, G_OPTION_ARG_NONE, &deterministic, N_ ("Run thread blocks one at a time, in order"),
      NULL },
    { "summary", 0, 0, G_OPTION_ARG_FILENAME, &summary_file, N_ ("Write the JSON summary to FILE"), "FILE" },
    { "tool", 0, 0, G_OPTION_ARG_STRING_ARRAY, &tools,
      N_ ("Attach an instrumentation tool: branch, memdiv, value, or a handler library PATH.so[:ARGS] (repeatable)"),
      "NAME" },
    { "tool-output", 0, 0, G_OPTION_ARG_FILENAME, &tool_output,
      N_ ("Write tool results to PREFIX.NAME.json (default: the trace path, else the program name)"), "PREFIX" },
    { "memcheck", 0, 0, G_OPTION_ARG_NONE, &memcheck,
      N_ ("Stop a kernel at its first invalid memory access, with a full report (default: behave as the GPU "
          "does and report unnoticed invalid accesses at exit)"),
      NULL },
    { "launch-timeout", 0, 0, G_OPTION_ARG_DOUBLE, &launch_timeout,
      N_ ("Watchdog: end a launch that runs longer than SEC seconds with cudaErrorLaunchTimeout "
          "(default $WS_LAUNCH_TIMEOUT, else 600; 0: no limit)"),
      "SEC" },
    { "instruction-budget", 0, 0, G_OPTION_ARG_INT64, &instruction_budget,
      N_ ("Watchdog: end a launch after N warp instructions (default $WS_INSTRUCTION_BUDGET, else no limit)"), "N" },
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
  if (!ws_cli_parse_options (cli, &opt_argc, &parse_argv, entries, _ ("[--] PROGRAM [ARGS...]"),
                             _ ("Run a CUDA program built with -cudart shared on the PTX emulator")))
    return WS_EXIT_USAGE;
  if (opt_argc > 1)
    return ws_cli_fail (cli, WS_EXIT_USAGE, _ ("unexpected argument '%s' before the program"), parse_argv[1]);
  if (prog >= argc)
    return ws_cli_fail (cli, WS_EXIT_USAGE, _ ("no program given: warpscope-cli profile [OPTIONS] -- PROGRAM [ARGS]"));
  if (threads < -1 || threads > 4096)
    return ws_cli_fail (cli, WS_EXIT_USAGE, _ ("--threads must be between 0 and 4096"));
  if (launch_timeout != -1 && !(launch_timeout >= 0 && launch_timeout <= 1e9))
    return ws_cli_fail (cli, WS_EXIT_USAGE,
                        _ ("--launch-timeout must be a number of seconds from 0 (no limit) to 1e9"));
  if (instruction_budget < -1)
    return ws_cli_fail (cli, WS_EXIT_USAGE, _ ("--instruction-budget must be 0 (no limit) or more"));

  /* The program: a path, or a name looked up in PATH as a shell would. */
  g_autofree char *program = strchr (argv[prog], '/') != NULL ? g_strdup (argv[prog])
                                                              : g_find_program_in_path (argv[prog]);
  if (program != NULL && g_file_test (program, G_FILE_TEST_IS_DIR))
    return ws_cli_fail (cli, WS_EXIT_USAGE,
                        _ ("'%s' is a folder, not a program: give the path of the CUDA program's "
                           "executable file"),
                        program);
  if (program == NULL || !g_file_test (program, G_FILE_TEST_IS_REGULAR))
    return ws_cli_fail (cli, WS_EXIT_USAGE, _ ("program '%s' not found"), argv[prog]);
  if (!g_file_test (program, G_FILE_TEST_IS_EXECUTABLE))
    return ws_cli_fail (cli, WS_EXIT_USAGE, _ ("'%s' is not executable"), program);
  g_autoptr (GError) error = NULL;
  if (!ws_launch_check_program (program, &error))
    return ws_cli_fail (cli, WS_EXIT_FAILURE, "%s", error->message);
  int code = 0;

  if (gpu_name != NULL)
    {
      g_autoptr (WsGpu) gpu = ws_cli_lookup_gpu (cli, gpu_name, &code);
      if (gpu == NULL)
        return code;
      g_free (gpu_name);
      gpu_name = g_strdup (gpu->name);
    }

  g_autofree char *runtime = ws_launch_find_runtime (&error);
  if (runtime == NULL)
    return ws_cli_fail (cli, WS_EXIT_FAILURE, "%s", error->message);

  if (output != NULL && g_file_test (output, G_FILE_TEST_IS_DIR))
    return ws_cli_fail (cli, WS_EXIT_USAGE, _ ("-o %s is a folder; give a trace file name"), output);

  WsLaunchOptions options;
  ws_launch_options_init (&options);
  options.gpu = gpu_name;
  options.abandon = &stop_signal;
  options.threads = threads;
  options.deterministic = deterministic;
  options.memcheck = memcheck;
  options.launch_timeout = launch_timeout;
  options.instruction_budget = instruction_budget;
  options.started = on_started;
  /* The runtime reads the catalogue this command uses (--db or default). */
  WsStore *store = ws_cli_store (cli);
  if (store == NULL)
    return WS_EXIT_FAILURE;
  options.db = ws_store_get_path (store);
  /* Instrumentation tools (docs/instrumentation.md): results next to the
   * trace, or PROGRAM.NAME.json in the current directory. */
  g_autofree char *tool_prefix = NULL, *joined_tools = NULL;
  /* Handler libraries (PATH[:ARGS]) are loaded here first, so a wrong ABI
   * or a missing query symbol is reported before the program runs; their
   * descriptor's name names the result file. */
  g_auto (GStrv) tool_names = g_new0 (char *, tools != NULL ? g_strv_length (tools) + 1 : 1);
  g_auto (GStrv) tool_specs = g_new0 (char *, tools != NULL ? g_strv_length (tools) + 1 : 1);
  gboolean tool_comma = FALSE;
  for (guint i = 0; tools != NULL && tools[i] != NULL; i++)
    {
      if (ws_instrument_spec_is_library (tools[i]))
        {
          g_autoptr (GError) terr = NULL;
          g_autofree char *args = NULL;
          g_autofree char *path = ws_instrument_spec_split (tools[i], &args);
          g_autofree char *abs = g_canonicalize_filename (path, NULL);
          tool_names[i] = ws_instrument_probe_library (abs, &terr);
          if (tool_names[i] == NULL)
            return ws_cli_fail (cli, WS_EXIT_USAGE, "--tool %s: %s", tools[i], terr->message);
          tool_specs[i] = *args ? g_strconcat (abs, ":", args, NULL) : g_strdup (abs);
          tool_comma |= strchr (tool_specs[i], ',') != NULL;
        }
      else if (!g_strv_contains (ws_instrument_builtin_names (), tools[i]))
        return ws_cli_fail (cli, WS_EXIT_USAGE,
                            _ ("unknown tool '%s' (known: branch, memdiv, value, or the path "
                               "of a handler library: ./myhandler.so[:ARGS])"),
                            tools[i]);
      else
        {
          tool_names[i] = g_strdup (tools[i]);
          tool_specs[i] = g_strdup (tools[i]);
        }
      for (guint j = 0; j < i; j++)
        if (strcmp (tool_names[j], tool_names[i]) == 0)
          return ws_cli_fail (cli, WS_EXIT_USAGE,
                              _ ("two tools are named '%s': their results would overwrite each "
                                 "other"),
                              tool_names[i]);
    }
  if (tools != NULL && tools[0] != NULL)
    {
      if (tool_output != NULL)
        tool_prefix = g_canonicalize_filename (tool_output, NULL);
      else if (output != NULL)
        tool_prefix = g_canonicalize_filename (output, NULL);
      else
        {
          g_autofree char *base = g_path_get_basename (program);
          tool_prefix = g_canonicalize_filename (base, NULL);
        }
      /* newline-separated when an argument has a comma (ws_instrument_add_tools) */
      joined_tools = g_strjoinv (tool_comma ? "\n" : ",", tool_specs);
      if (tool_comma)
        {
          /* a trailing newline marks the list as newline-separated even with one entry */
          char *with_nl = g_strconcat (joined_tools, "\n", NULL);
          g_free (joined_tools);
          joined_tools = with_nl;
        }
      options.tools = joined_tools;
      options.tool_output = tool_prefix;
    }

  /* The program's stdin/stdout/stderr are ours: its output passes through
   * unchanged. */
  g_autofree const char **child_args = g_new0 (const char *, argc - prog);
  for (int i = prog + 1; i < argc; i++)
    child_args[i - prog - 1] = argv[i];
  struct sigaction sa = { 0 }, old_int, old_term, old_hup;
  sa.sa_handler = on_stop_signal;
  sigemptyset (&sa.sa_mask);
  sigaction (SIGINT, &sa, &old_int);
  sigaction (SIGTERM, &sa, &old_term);
  sigaction (SIGHUP, &sa, &old_hup);
  /* core/launch writes the trace beside -o and moves it into place only
   * once the runtime finished it and no stop signal came. */
  g_autoptr (WsLaunchResult) run = ws_launch_profile (program, child_args, &options, output, NULL, &error);
  child_pid = 0;
  sigaction (SIGINT, &old_int, NULL);
  sigaction (SIGTERM, &old_term, NULL);
  sigaction (SIGHUP, &old_hup, NULL);
  JsonNode *rt = run != NULL ? run->summary : NULL;
  JsonObject *ro = rt != NULL ? json_node_get_object (rt) : NULL;

  /* The trace: moved into place when finished, else dropped (an existing
   * -o is left as it was). */
  if (output != NULL && run != NULL && !run->trace_kept && (rt != NULL || g_file_test (output, G_FILE_TEST_EXISTS)))
    ws_cli_info (cli,
                 g_file_test (output, G_FILE_TEST_EXISTS)
                   ? _ ("the trace was not finished (the run failed or was stopped); %s was left as it was")
                   : _ ("the trace was not finished (the run failed or was stopped); %s was not written"),
                 output);
  if (stop_signal != 0)
    {
      int sig = stop_signal;
      ws_cli_info (cli, _ ("stopped by signal %d (%s); %s was ended"), sig, g_strsignal (sig), program);
      return 128 + sig;
    }
  if (run == NULL && g_error_matches (error, WS_ERROR, WS_ERROR_IO)) /* the trace could not be moved */
    return ws_cli_fail (cli, WS_EXIT_FAILURE, "%s", error->message);
  if (run == NULL)
    return ws_cli_fail (cli, WS_EXIT_FAILURE, _ ("cannot run %s: %s"), program, error->message);
  int exit_code = run->exit_code;
  double wall = run->wall_seconds;
  if (run->signal != 0)
    ws_cli_info (cli, _ ("%s was killed by signal %d (%s)"), program, run->signal, g_strsignal (run->signal));
  if (rt == NULL && exit_code == 0)
    ws_cli_info (cli, _ ("note: %s did not load the Warpscope CUDA runtime (no kernels were emulated)"), program);
  /* A kernel fault is a failure even when the program ignores it. */
  gint64 n_faults = ro != NULL && json_object_has_member (ro, "faults")
                      ? (gint64) json_array_get_length (json_object_get_array_member (ro, "faults"))
                      : 0;
  const char *fault_error = ro != NULL && json_object_has_member (ro, "error")
                              ? json_object_get_string_member (ro, "error")
                              : NULL;
  int status = exit_code;
  if (exit_code == 0 && (n_faults > 0 || fault_error != NULL))
    {
      ws_cli_info (cli, _ ("%s: %" G_GINT64_FORMAT " kernel launch%s faulted (%s); exit code %d"), program,
                   MAX (n_faults, 1), n_faults > 1 ? "es" : "", fault_error != NULL ? fault_error : "fault",
                   WS_EXIT_KERNEL_FAULT);
      status = WS_EXIT_KERNEL_FAULT;
    }

  /* Tool results are also kept in the store (table tool_result): those of
   * the built-in tools and of handler libraries (migration 007), a handler's
   * with the library it came from.  The fault-injection tools' results
   * belong to `tool faults`, which stores the campaign. */
  for (guint i = 0; tool_prefix != NULL && tools[i] != NULL; i++)
    {
      static const char *const stored[] = { "branch", "memdiv", "value", NULL };
      g_autofree char *path = g_strdup_printf ("%s.%s.json", tool_prefix, tool_names[i]);
      g_autoptr (JsonParser) tp = json_parser_new ();
      g_autoptr (GError) terr = NULL;
      gboolean library = ws_instrument_spec_is_library (tools[i]);
      if (!g_strv_contains (stored, tools[i]) && !library)
        continue;
      /* A handler need not give a result (its result callback is optional). */
      if (library && !g_file_test (path, G_FILE_TEST_EXISTS))
        continue;
      if (!json_parser_load_from_file (tp, path, &terr))
        {
          ws_cli_info (cli, _ ("%s: no %s result (%s)"), program, tool_names[i], terr->message);
          continue;
        }
      if (!ws_instrument_store_result (ws_store_get_db (store), tool_names[i], library ? tool_specs[i] : NULL, program,
                                       child_args, output, json_parser_get_root (tp), &terr))
        ws_cli_info (cli, "%s", terr->message);
      else
        ws_cli_info (cli, _ ("%s result: %s"), tool_names[i], path);
    }

  if (cli->json || summary_file != NULL)
    {
      g_autoptr (JsonBuilder) b = json_builder_new ();
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
      json_builder_add_double_value (
        b, ro != NULL && json_object_has_member (ro, "seconds") ? json_object_get_double_member (ro, "seconds") : 0.0);
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
              g_autofree char *path = g_strdup_printf ("%s.%s.json", tool_prefix, tool_names[i]);
              json_builder_set_member_name (b, tool_names[i]);
              json_builder_add_string_value (b, path);
            }
          json_builder_end_object (b);
        }
      if (ro != NULL && json_object_has_member (ro, "error"))
        {
          json_builder_set_member_name (b, "error");
          json_builder_add_string_value (b, json_object_get_string_member (ro, "error"));
        }
      json_builder_set_member_name (b, "profile_exit_code");
      json_builder_add_int_value (b, status);
      json_builder_set_member_name (b, "memcheck");
      json_builder_add_boolean_value (b, memcheck);
      json_builder_set_member_name (b, "invalid_accesses");
      json_builder_add_int_value (b, member_int (ro, "invalid_accesses"));
      json_builder_set_member_name (b, "faults");
      if (ro != NULL && json_object_has_member (ro, "faults"))
        json_builder_add_value (b, json_node_copy (json_object_get_member (ro, "faults")));
      else
        {
          json_builder_begin_array (b);
          json_builder_end_array (b);
        }
      json_builder_end_object (b);
      g_autoptr (JsonNode) root = json_builder_get_root (b);
      g_autoptr (JsonGenerator) gen = json_generator_new ();
      json_generator_set_root (gen, root);
      g_autofree char *text = json_generator_to_data (gen, NULL);
      if (summary_file != NULL)
        {
          g_autofree char *with_nl = g_strconcat (text, "\n", NULL);
          if (!g_file_set_contents (summary_file, with_nl, -1, &error))
            {
              ws_cli_fail_error (cli, error);
              return status != 0 ? status : WS_EXIT_FAILURE;
            }
        }
      else
        {
          fputs (text, stderr);
          fputc ('\n', stderr);
        }
    }
  return status;
}
