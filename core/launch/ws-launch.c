/* ws-launch.c: runs a CUDA program on the emulator (LD_LIBRARY_PATH points
 * at Warpscope's libcudart.so.13, WS_* variables configure it) and reads the
 * summary the runtime writes at exit. */
#include "ws-config.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>

#include "launch/ws-launch.h"
#include "base/ws-paths.h"
#include "fatbin/ws-fatbin.h"

#define STDERR_TAIL_BYTES 4096

char *
ws_launch_cudart_dir (void)
{
  return ws_paths_get (WS_PATH_CUDART_DIR);
}

char *
ws_launch_find_runtime (GError **error)
{
  g_autofree char *dir = ws_launch_cudart_dir ();
  g_autofree char *lib = g_build_filename (dir, "libcudart.so.13", NULL);
  if (!g_file_test (lib, G_FILE_TEST_EXISTS))
    {
      g_set_error (error, WS_ERROR, WS_ERROR_NOT_FOUND,
                   _ ("the Warpscope CUDA runtime is missing (%s): it is built only where CUDA's headers "
                      "were found at build time"),
                   lib);
      return NULL;
    }
  return g_steal_pointer (&dir);
}

gboolean
ws_launch_check_program (const char *path, GError **error)
{
  g_return_val_if_fail (path != NULL, FALSE);
  GError *local = NULL;
  g_autoptr (WsElfCuda) info = ws_elf_cuda_inspect (path, &local);
  if (info == NULL)
    {
      /* Scripts and the like: run them, their children may be CUDA programs. */
      if (g_error_matches (local, WS_ERROR, WS_ERROR_INVALID))
        {
          g_error_free (local);
          return TRUE;
        }
      g_propagate_error (error, local);
      return FALSE;
    }
  if (ws_elf_cuda_needs (info, "libcudart.so.13"))
    return TRUE;
  if (ws_elf_cuda_needs (info, "libcudart.so."))
    {
      g_set_error (error, WS_ERROR, WS_ERROR_UNSUPPORTED,
                   _ ("%s is linked against another CUDA runtime version than 13; rebuild it with CUDA 13 "
                      "(warpscope-cli build or nvcc -cudart shared)"),
                   path);
      return FALSE;
    }
  if (info->has_fatbin)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_UNSUPPORTED,
                   _ ("%s is linked statically against the CUDA runtime (nvcc's default), so Warpscope "
                      "cannot run its kernels; rebuild with warpscope-cli build or nvcc -cudart shared"),
                   path);
      return FALSE;
    }
  return TRUE;
}

void
ws_launch_options_init (WsLaunchOptions *options)
{
  memset (options, 0, sizeof *options);
  options->threads = -1;
  options->launch_timeout = -1;
  options->instruction_budget = -1;
}

void
ws_launch_result_free (WsLaunchResult *result)
{
  if (result == NULL)
    return;
  g_clear_pointer (&result->summary, json_node_unref);
  g_free (result->stderr_tail);
  g_free (result);
}

char *
ws_launch_command_line (const char *program, const char *const *args)
{
  GString *s = g_string_new (NULL);
  for (int i = -1; i < 0 || (args != NULL && args[i] != NULL); i++)
    {
      const char *a = i < 0 ? program : args[i];
      gboolean plain = *a != '\0';
      for (const char *p = a; *p && plain; p++)
        plain = g_ascii_isalnum (*p) || strchr ("-_./=:,+@%", *p) != NULL;
      if (s->len > 0)
        g_string_append_c (s, ' ');
      if (plain)
        g_string_append (s, a);
      else
        {
          g_autofree char *q = g_shell_quote (a);
          g_string_append (s, q);
        }
    }
  return g_string_free (s, FALSE);
}

static JsonNode *
read_runtime_summary (const char *path)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  if (!json_parser_load_from_file (parser, path, NULL))
    return NULL;
  JsonNode *root = json_parser_get_root (parser);
  return root != NULL && JSON_NODE_HOLDS_OBJECT (root) ? json_node_copy (root) : NULL;
}

/* The last STDERR_TAIL_BYTES of @bytes, from a line start where there is
 * one, as valid UTF-8 without the final newline. */
static char *
stderr_tail (GBytes *bytes)
{
  gsize n = 0;
  const char *data = bytes != NULL ? g_bytes_get_data (bytes, &n) : NULL;
  if (data == NULL || n == 0)
    return g_strdup ("");
  gsize start = n > STDERR_TAIL_BYTES ? n - STDERR_TAIL_BYTES : 0;
  if (start > 0)
    {
      const char *nl = memchr (data + start, '\n', n - start);
      if (nl != NULL && nl + 1 < data + n)
        start = (gsize) (nl + 1 - data);
    }
  while (n > start && (data[n - 1] == '\n' || data[n - 1] == '\r'))
    n--;
  return g_utf8_make_valid (data + start, (gssize) (n - start));
}

/* The program's environment: ours with the runtime's variables set. */
static char **
launch_environ (const char *runtime_dir, const char *summary, const WsLaunchOptions *o)
{
  char **envp = g_get_environ ();
  const char *old_ld = g_environ_getenv (envp, "LD_LIBRARY_PATH");
  g_autofree char *ld = old_ld != NULL && *old_ld ? g_strconcat (runtime_dir, ":", old_ld, NULL)
                                                  : g_strdup (runtime_dir);
  envp = g_environ_setenv (envp, "LD_LIBRARY_PATH", ld, TRUE);
  envp = g_environ_setenv (envp, "WS_SUMMARY", summary, TRUE);
  if (o->gpu != NULL)
    envp = g_environ_setenv (envp, "WS_GPU", o->gpu, TRUE);
  if (o->db != NULL)
    {
      g_autofree char *db = g_canonicalize_filename (o->db, NULL);
      envp = g_environ_setenv (envp, "WS_DB", db, TRUE);
    }
  if (o->trace != NULL)
    {
      g_autofree char *trace = g_canonicalize_filename (o->trace, NULL);
      envp = g_environ_setenv (envp, "WS_TRACE", trace, TRUE);
    }
  else
    envp = g_environ_unsetenv (envp, "WS_TRACE");
  if (o->threads >= 0)
    {
      g_autofree char *t = g_strdup_printf ("%d", o->threads);
      envp = g_environ_setenv (envp, "WS_THREADS", t, TRUE);
    }
  if (o->deterministic)
    envp = g_environ_setenv (envp, "WS_DETERMINISTIC", "1", TRUE);
  if (o->memcheck)
    envp = g_environ_setenv (envp, "WS_MEMCHECK", "1", TRUE);
  if (o->launch_timeout >= 0)
    {
      char t[G_ASCII_DTOSTR_BUF_SIZE];
      envp = g_environ_setenv (envp, "WS_LAUNCH_TIMEOUT", g_ascii_dtostr (t, sizeof t, o->launch_timeout), TRUE);
    }
  if (o->instruction_budget >= 0)
    {
      g_autofree char *b = g_strdup_printf ("%" G_GINT64_FORMAT, o->instruction_budget);
      envp = g_environ_setenv (envp, "WS_INSTRUCTION_BUDGET", b, TRUE);
    }
  if (o->tools != NULL && *o->tools)
    {
      envp = g_environ_setenv (envp, "WS_TOOLS", o->tools, TRUE);
      if (o->tool_output != NULL)
        envp = g_environ_setenv (envp, "WS_TOOL_OUTPUT", o->tool_output, TRUE);
      else
        envp = g_environ_unsetenv (envp, "WS_TOOL_OUTPUT");
    }
  else
    {
      envp = g_environ_unsetenv (envp, "WS_TOOLS");
      envp = g_environ_unsetenv (envp, "WS_TOOL_OUTPUT");
    }
  return envp;
}

/* In the child, between fork and exec (async-signal-safe calls only): it
 * gets SIGKILL when the thread that started it dies, even by SIGKILL, and
 * starts with no signal blocked. */
static void
child_setup (gpointer data)
{
  pid_t parent = (pid_t) GPOINTER_TO_INT (data);
  sigset_t none;
  sigemptyset (&none);
  sigprocmask (SIG_SETMASK, &none, NULL);
  prctl (PR_SET_PDEATHSIG, SIGKILL);
  if (getppid () != parent) /* the parent died before prctl */
    _exit (128 + SIGKILL);
}

/* Waits for @proc (reading its stderr when it is a pipe); when @cancellable
 * fires, kills it, waits for it and fails with G_IO_ERROR_CANCELLED. */
static gboolean
wait_child (GSubprocess *proc, gboolean capture, GBytes **err_bytes, GCancellable *cancellable, GError **error)
{
  gboolean ok = capture ? g_subprocess_communicate (proc, NULL, cancellable, NULL, err_bytes, error)
                        : g_subprocess_wait (proc, cancellable, error);
  if (!ok)
    {
      g_subprocess_force_exit (proc);
      g_subprocess_wait (proc, NULL, NULL);
    }
  return ok;
}

WsLaunchResult *
ws_launch_run (const char *program, const char *const *args, const WsLaunchOptions *options, GCancellable *cancellable,
               GError **error)
{
  g_return_val_if_fail (program != NULL, NULL);
  WsLaunchOptions defaults;
  ws_launch_options_init (&defaults);
  const WsLaunchOptions *o = options != NULL ? options : &defaults;
  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return NULL;
  g_autofree char *runtime_dir = ws_launch_find_runtime (error);
  if (runtime_dir == NULL)
    return NULL;
  g_autofree char *tmpdir = g_dir_make_tmp ("warpscope-profile-XXXXXX", error);
  if (tmpdir == NULL)
    return NULL;
  g_autofree char *summary = g_build_filename (tmpdir, "summary.json", NULL);
  g_auto (GStrv) envp = launch_environ (runtime_dir, summary, o);

  GPtrArray *argv = g_ptr_array_new ();
  g_ptr_array_add (argv, (gpointer) program);
  for (guint i = 0; args != NULL && args[i] != NULL; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);

  GSubprocessFlags flags = o->capture ? G_SUBPROCESS_FLAGS_STDOUT_SILENCE | G_SUBPROCESS_FLAGS_STDERR_PIPE
                                      : G_SUBPROCESS_FLAGS_STDIN_INHERIT;
  g_autoptr (GSubprocessLauncher) launcher = g_subprocess_launcher_new (flags);
  g_subprocess_launcher_set_environ (launcher, envp);
  g_subprocess_launcher_set_child_setup (launcher, child_setup, GINT_TO_POINTER ((int) getpid ()), NULL);
  if (!o->capture)
    {
      /* The program writes to our terminal: what we printed comes first. */
      fflush (stdout);
      fflush (stderr);
    }
  double t0 = ws_now_seconds ();
  g_autoptr (GSubprocess) proc = g_subprocess_launcher_spawnv (launcher, (const char *const *) argv->pdata, error);
  g_ptr_array_free (argv, TRUE);
  if (proc != NULL && o->started != NULL)
    {
      const char *id = g_subprocess_get_identifier (proc);
      if (id != NULL)
        o->started ((GPid) g_ascii_strtoll (id, NULL, 10), o->started_data);
    }
  g_autoptr (GBytes) err_bytes = NULL;
  gboolean ok = proc != NULL && wait_child (proc, o->capture, &err_bytes, cancellable, error);
  double wall = ws_now_seconds () - t0;
  g_autoptr (JsonNode) rt = ok ? read_runtime_summary (summary) : NULL;
  g_unlink (summary);
  g_rmdir (tmpdir);
  if (!ok)
    return NULL;

  WsLaunchResult *r = g_new0 (WsLaunchResult, 1);
  if (g_subprocess_get_if_exited (proc))
    r->exit_code = g_subprocess_get_exit_status (proc);
  else if (g_subprocess_get_if_signaled (proc))
    {
      r->signal = g_subprocess_get_term_sig (proc);
      r->exit_code = 128 + r->signal;
    }
  else
    r->exit_code = 1;
  r->wall_seconds = wall;
  r->summary = g_steal_pointer (&rt);
  if (o->capture)
    r->stderr_tail = stderr_tail (err_bytes);
  return r;
}

WsLaunchResult *
ws_launch_profile (const char *program, const char *const *args, const WsLaunchOptions *options, const char *trace_path,
                   GCancellable *cancellable, GError **error)
{
  g_return_val_if_fail (program != NULL, NULL);
  WsLaunchOptions o;
  if (options != NULL)
    o = *options;
  else
    ws_launch_options_init (&o);
  o.trace = NULL;

  /* The temporary name is in @trace_path's folder (same file system: the
   * rename is atomic), so a failed or stopped run never leaves half a trace
   * under the real name. */
  g_autofree char *trace_tmp = NULL;
  if (trace_path != NULL)
    {
      if (g_file_test (trace_path, G_FILE_TEST_IS_DIR))
        {
          g_set_error (error, WS_ERROR, WS_ERROR_INVALID, _ ("%s is a folder; give a trace file name"), trace_path);
          return NULL;
        }
      g_autofree char *dir = g_path_get_dirname (trace_path);
      g_autofree char *base = g_path_get_basename (trace_path);
      g_autofree char *name = g_strdup_printf (".%s.%d.part", base, (int) getpid ());
      trace_tmp = g_build_filename (dir, name, NULL);
      o.trace = trace_tmp;
    }
  WsLaunchResult *r = ws_launch_run (program, args, &o, cancellable, error);
  if (trace_tmp == NULL)
    return r;
  JsonObject *summary = r != NULL && r->summary != NULL && JSON_NODE_HOLDS_OBJECT (r->summary)
                          ? json_node_get_object (r->summary)
                          : NULL;
  gboolean finished = summary != NULL && json_object_has_member (summary, "trace_written")
                      && json_object_get_boolean_member (summary, "trace_written") && r->signal == 0
                      && (o.abandon == NULL || *o.abandon == 0);
  if (!finished)
    {
      g_unlink (trace_tmp);
      return r;
    }
  if (g_rename (trace_tmp, trace_path) != 0)
    {
      int e = errno;
      g_unlink (trace_tmp);
      g_set_error (error, WS_ERROR, WS_ERROR_IO, _ ("cannot move the trace %s to %s: %s"), trace_tmp, trace_path,
                   g_strerror (e));
      ws_launch_result_free (r);
      return NULL;
    }
  r->trace_kept = TRUE;
  return r;
}

/* ---- building ------------------------------------------------------------ */

char *
ws_launch_find_nvcc (void)
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
  static const char *const prefixes[] = { "-arch", "--gpu-architecture", "-gencode", "--generate-code",
                                          "-code", "--gpu-code",         NULL };
  for (guint i = 0; prefixes[i] != NULL; i++)
    if (g_str_has_prefix (a, prefixes[i]))
      return TRUE;
  return FALSE;
}

static gboolean
refuse_static_runtime (const char *value, GError **error)
{
  if (strcmp (value, "shared") == 0)
    return TRUE;
  g_set_error (error, WS_ERROR, WS_ERROR_INVALID,
               _ ("the program must use the shared CUDA runtime (-cudart shared) to be profiled"));
  return FALSE;
}

char *
ws_launch_build (const WsBuildOptions *options, int *nvcc_status, GCancellable *cancellable, GError **error)
{
  g_return_val_if_fail (options != NULL, NULL);
  const char *const *args = options->args;
  const char *source = NULL;
  gboolean user_arch = FALSE;
  g_autoptr (GPtrArray) extra = g_ptr_array_new ();
  if (nvcc_status != NULL)
    *nvcc_status = 0;
  for (guint i = 0; args != NULL && args[i] != NULL; i++)
    {
      const char *a = args[i];
      if (strcmp (a, "-cudart") == 0 || strcmp (a, "--cudart") == 0)
        {
          if (!refuse_static_runtime (args[i + 1] != NULL ? args[i + 1] : "", error))
            return NULL;
          i++;
          continue;
        }
      if (g_str_has_prefix (a, "-cudart=") || g_str_has_prefix (a, "--cudart="))
        {
          if (!refuse_static_runtime (strchr (a, '=') + 1, error))
            return NULL;
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
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID, _ ("no .cu source file given"));
      return NULL;
    }
  if (!g_file_test (source, G_FILE_TEST_EXISTS))
    {
      g_set_error (error, WS_ERROR, WS_ERROR_NOT_FOUND, _ ("source file '%s' not found"), source);
      return NULL;
    }
  g_autofree char *nvcc = ws_launch_find_nvcc ();
  if (nvcc == NULL)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_FAILED,
                   _ ("nvcc not found (install the CUDA 13 toolkit, put nvcc in PATH or set NVCC)"));
      return NULL;
    }
  g_autofree char *out = NULL;
  if (options->output != NULL)
    out = g_strdup (options->output);
  else
    {
      g_autofree char *base = g_path_get_basename (source);
      out = g_strndup (base, strlen (base) - 3);
    }

  g_autoptr (GPtrArray) cmd = g_ptr_array_new ();
  g_ptr_array_add (cmd, nvcc);
  g_ptr_array_add (cmd, "-cudart");
  g_ptr_array_add (cmd, "shared");
  if (!user_arch)
    {
      g_ptr_array_add (cmd, "-gencode");
      g_ptr_array_add (cmd, "arch=compute_80,code=[compute_80,sm_80]");
    }
  g_ptr_array_add (cmd, "-o");
  g_ptr_array_add (cmd, out);
  for (guint i = 0; i < extra->len; i++)
    g_ptr_array_add (cmd, extra->pdata[i]);
  g_ptr_array_add (cmd, NULL);
  if (options->verbose)
    {
      g_autofree char *line = g_strjoinv (" ", (char **) cmd->pdata);
      fprintf (stderr, "%s\n", line);
    }

  GSubprocessFlags flags = options->capture ? G_SUBPROCESS_FLAGS_STDOUT_SILENCE | G_SUBPROCESS_FLAGS_STDERR_PIPE
                                            : G_SUBPROCESS_FLAGS_STDIN_INHERIT;
  g_autoptr (GSubprocessLauncher) launcher = g_subprocess_launcher_new (flags);
  g_subprocess_launcher_set_child_setup (launcher, child_setup, GINT_TO_POINTER ((int) getpid ()), NULL);
  if (!options->capture)
    {
      fflush (stdout);
      fflush (stderr);
    }
  g_autoptr (GError) local = NULL;
  g_autoptr (GSubprocess) proc = g_subprocess_launcher_spawnv (launcher, (const char *const *) cmd->pdata, &local);
  if (proc == NULL)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_FAILED, _ ("cannot run %s: %s"), nvcc, local->message);
      return NULL;
    }
  g_autoptr (GBytes) err_bytes = NULL;
  if (!wait_child (proc, options->capture, &err_bytes, cancellable, error))
    return NULL;
  if (!g_subprocess_get_if_exited (proc) || g_subprocess_get_exit_status (proc) != 0)
    {
      int status = g_subprocess_get_if_exited (proc) ? g_subprocess_get_exit_status (proc)
                                                     : 128 + g_subprocess_get_term_sig (proc);
      g_autofree char *tail = options->capture ? stderr_tail (err_bytes) : NULL;
      const char *last = tail != NULL ? strrchr (tail, '\n') : NULL;
      if (nvcc_status != NULL)
        *nvcc_status = status;
      if (tail != NULL && *tail != '\0')
        g_set_error (error, WS_ERROR, WS_ERROR_FAILED, _ ("building %s with nvcc failed (exit status %d): %s"), source,
                     status, last != NULL ? last + 1 : tail);
      else
        g_set_error (error, WS_ERROR, WS_ERROR_FAILED, _ ("building %s with nvcc failed (exit status %d)"), source,
                     status);
      return NULL;
    }

  /* An architecture the user chose may embed only SASS: say so now rather
   * than when the program is profiled. */
  g_autoptr (WsElfCuda) info = ws_elf_cuda_inspect (out, NULL);
  if (info != NULL && info->fatbin != NULL && !ws_fatbin_has_ptx (info->fatbin))
    {
      g_set_error (error, WS_ERROR, WS_ERROR_UNSUPPORTED,
                   _ ("%s holds no PTX, only machine code, which the emulator cannot run; rebuild with "
                      "-arch=sm_XX (which embeds PTX) or without architecture options"),
                   out);
      return NULL;
    }
  return g_steal_pointer (&out);
}
