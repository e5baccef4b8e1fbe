/* test-profile-robust.c: `warpscope-cli profile` and `tool` on a real
 * program (robust.cu, built by nvcc) that strays out of bounds, hangs,
 * crashes, is killed, or uses relative paths (issues 17 and 19).
 *
 * Command line: --cli PATH --robust PATH (PATH "-" when not built: the cases
 * skip).  Every run uses a temporary folder and database. */
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <gio/gio.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

static const char *cli_path;
static const char *robust_path;

typedef struct {
  char *tmp;
  char *db;
} Fixture;

typedef struct {
  char *out;
  char *err;
  int status; /* exit code, or 128 + signal */
} Run;

static void
run_clear (Run *r)
{
  g_free (r->out);
  g_free (r->err);
}

static void
remove_tree (const char *path)
{
  GDir *d = g_dir_open (path, 0, NULL);
  if (d != NULL)
    {
      const char *n;
      while ((n = g_dir_read_name (d)) != NULL)
        {
          g_autofree char *p = g_build_filename (path, n, NULL);
          if (g_file_test (p, G_FILE_TEST_IS_DIR) && !g_file_test (p, G_FILE_TEST_IS_SYMLINK))
            remove_tree (p);
          else
            g_unlink (p);
        }
      g_dir_close (d);
    }
  g_rmdir (path);
}

static void
fixture_setup (Fixture *f, gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  f->tmp = g_dir_make_tmp ("ws-profile-robust-XXXXXX", &error);
  g_assert_no_error (error);
  f->db = g_build_filename (f->tmp, "test.db", NULL);
}

static void
fixture_teardown (Fixture *f, gconstpointer data)
{
  remove_tree (f->tmp);
  g_free (f->tmp);
  g_free (f->db);
}

static gboolean
need_robust (void)
{
  if (robust_path == NULL || strcmp (robust_path, "-") == 0)
    {
      g_test_skip ("robust.cu not built (nvcc or the CUDA runtime headers missing at build time)");
      return FALSE;
    }
  return TRUE;
}

static GSubprocessLauncher *
launcher (Fixture *f, const char *cwd, const char *tmpdir)
{
  GSubprocessLauncher *l = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE);
  g_autofree char *cache = g_build_filename (f->tmp, "cache", NULL);
  g_subprocess_launcher_setenv (l, "XDG_CACHE_HOME", cache, TRUE);
  g_subprocess_launcher_unsetenv (l, "WS_LAUNCH_TIMEOUT");
  g_subprocess_launcher_unsetenv (l, "WS_INSTRUCTION_BUDGET");
  g_subprocess_launcher_unsetenv (l, "WS_MEMCHECK");
  if (tmpdir != NULL)
    g_subprocess_launcher_setenv (l, "TMPDIR", tmpdir, TRUE);
  g_subprocess_launcher_set_cwd (l, cwd != NULL ? cwd : f->tmp);
  return l;
}

/* Runs warpscope-cli --db DB ARGS... in @cwd (NULL: the fixture's folder). */
static Run
run_cli (Fixture *f, const char *cwd, const char *tmpdir, const char *const *args)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_ptr_array_add (argv, (char *) cli_path);
  g_ptr_array_add (argv, (char *) "--db");
  g_ptr_array_add (argv, f->db);
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (char *) args[i]);
  g_ptr_array_add (argv, NULL);
  g_autoptr (GSubprocessLauncher) l = launcher (f, cwd, tmpdir);
  g_autoptr (GError) error = NULL;
  g_autoptr (GSubprocess) p = g_subprocess_launcher_spawnv (l, (const char *const *) argv->pdata, &error);
  g_assert_no_error (error);
  g_autoptr (GBytes) out = NULL, err = NULL;
  g_subprocess_communicate (p, NULL, NULL, &out, &err, &error);
  g_assert_no_error (error);
  Run r = { 0 };
  r.out = g_strndup (g_bytes_get_size (out) ? g_bytes_get_data (out, NULL) : "", g_bytes_get_size (out));
  r.err = g_strndup (g_bytes_get_size (err) ? g_bytes_get_data (err, NULL) : "", g_bytes_get_size (err));
  r.status = g_subprocess_get_if_exited (p) ? g_subprocess_get_exit_status (p) : 128 + g_subprocess_get_term_sig (p);
  g_test_message ("exit %d\n--- stdout ---\n%s\n--- stderr ---\n%s", r.status, r.out, r.err);
  return r;
}

static JsonObject *
load_object (JsonParser *parser, const char *path)
{
  g_autoptr (GError) error = NULL;
  g_assert_true (json_parser_load_from_file (parser, path, &error));
  g_assert_no_error (error);
  return json_node_get_object (json_parser_get_root (parser));
}

/* Names in @dir starting with @prefix. */
static guint
count_entries (const char *dir, const char *prefix)
{
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  guint n = 0;
  const char *name;
  while (d != NULL && (name = g_dir_read_name (d)) != NULL)
    if (g_str_has_prefix (name, prefix))
      n++;
  return n;
}

/* ---- issue 17: addresses, invalid accesses, faults, watchdog ---------------- */

static void
test_wrap (Fixture *f, gconstpointer data)
{
  if (!need_robust ())
    return;
  const char *args[] = { "profile", "--", robust_path, "wrap", NULL };
  Run r = run_cli (f, NULL, NULL, args);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "wrap=1234 err=0\nPASSED\n"));
  g_assert_null (strstr (r.err, "out-of-bounds"));
  run_clear (&r);
}

static void
test_unnoticed_by_default (Fixture *f, gconstpointer data)
{
  if (!need_robust ())
    return;
  g_autofree char *summary = g_build_filename (f->tmp, "s.json", NULL);
  const char *args[] = { "profile", "--summary", summary, "--", robust_path, "before-first", NULL };
  Run r = run_cli (f, NULL, NULL, args);
  /* as on a GPU: the value written before the buffer reads back, no error */
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "before=77 sync=0"));
  /* the exit report names kernel, PTX line, block, thread and address */
  g_assert_nonnull (strstr (r.err, "2 invalid memory accesses by 2 instructions went unnoticed"));
  g_assert_nonnull (strstr (r.err, "invalid global store of 4 bytes in kernel _Z13before_kernelPiS_ at robust (PTX):"));
  g_assert_nonnull (strstr (r.err, "invalid global load of 4 bytes"));
  g_assert_nonnull (strstr (r.err, "first by block (0,0,0) thread (0,0,0) at address 0x"));
  g_assert_nonnull (strstr (r.err, "is 512 bytes before the start of cudaMalloc #1"));
  g_autoptr (JsonParser) p = json_parser_new ();
  JsonObject *o = load_object (p, summary);
  g_assert_cmpint (json_object_get_int_member (o, "invalid_accesses"), ==, 2);
  g_assert_cmpint (json_array_get_length (json_object_get_array_member (o, "faults")), ==, 0);
  g_assert_false (json_object_has_member (o, "error"));
  g_assert_cmpint (json_object_get_int_member (o, "profile_exit_code"), ==, 0);
  run_clear (&r);
}

static void
test_memcheck_stops (Fixture *f, gconstpointer data)
{
  if (!need_robust ())
    return;
  g_autofree char *summary = g_build_filename (f->tmp, "s.json", NULL);
  const char *args[] = { "profile", "--memcheck", "--summary", summary, "--", robust_path, "before-first", NULL };
  Run r = run_cli (f, NULL, NULL, args);
  /* the program exits 0 having seen cudaErrorIllegalAddress; profile says 4 */
  g_assert_cmpint (r.status, ==, 4);
  g_assert_nonnull (strstr (r.out, "before=-1 sync=700"));
  g_assert_nonnull (strstr (r.err, "out-of-bounds global store of 4 bytes at address 0x"));
  g_assert_nonnull (strstr (r.err, "512 bytes before the start of cudaMalloc #1"));
  g_assert_nonnull (strstr (r.err, "block (0,0,0), thread (0,0,0)"));
  g_assert_nonnull (strstr (r.err, "1 kernel launch faulted (cudaErrorIllegalAddress); exit code 4"));
  g_autoptr (JsonParser) p = json_parser_new ();
  JsonObject *o = load_object (p, summary);
  g_assert_cmpint (json_object_get_int_member (o, "exit_code"), ==, 0);
  g_assert_cmpint (json_object_get_int_member (o, "profile_exit_code"), ==, 4);
  g_assert_true (json_object_get_boolean_member (o, "memcheck"));
  JsonArray *faults = json_object_get_array_member (o, "faults");
  g_assert_cmpint (json_array_get_length (faults), ==, 1);
  JsonObject *f0 = json_array_get_object_element (faults, 0);
  g_assert_cmpstr (json_object_get_string_member (f0, "error"), ==, "cudaErrorIllegalAddress");
  g_assert_cmpstr (json_object_get_string_member (f0, "kernel"), ==, "_Z13before_kernelPiS_");
  g_assert_cmpint (json_object_get_int_member (f0, "launch"), ==, 0);
  run_clear (&r);
}

/* The watchdog ends a kernel that never finishes; the trace marks the
 * launch incomplete, and simulate warns about it. */
static void
test_watchdog (Fixture *f, gconstpointer data)
{
  if (!need_robust ())
    return;
  g_autofree char *trace = g_build_filename (f->tmp, "hang.trace", NULL);
  const char *args[] = { "profile", "--launch-timeout", "1", "-o", trace, "--", robust_path, "hang", NULL };
  gint64 t0 = g_get_monotonic_time ();
  Run r = run_cli (f, NULL, NULL, args);
  double seconds = (g_get_monotonic_time () - t0) / 1e6;
  g_assert_cmpint (r.status, ==, 4);
  g_assert_cmpfloat (seconds, <, 30.0);
  g_assert_nonnull (strstr (r.out, "hang sync=702"));
  g_assert_nonnull (strstr (r.err, "cudaErrorLaunchTimeout"));
  g_assert_nonnull (strstr (r.err, "the launch timed out: the kernel ran for more than 1 s"));
  run_clear (&r);

  const char *info[] = { "--json", "trace", "info", trace, NULL };
  Run t = run_cli (f, NULL, NULL, info);
  g_assert_cmpint (t.status, ==, 0);
  g_autoptr (JsonParser) tp = json_parser_new ();
  g_autoptr (GError) error = NULL;
  g_assert_true (json_parser_load_from_data (tp, t.out, -1, &error));
  JsonArray *launches = json_object_get_array_member (json_node_get_object (json_parser_get_root (tp)), "launches");
  g_assert_cmpint (json_array_get_length (launches), ==, 1);
  g_assert_false (json_object_get_boolean_member (json_array_get_object_element (launches, 0), "complete"));
  run_clear (&t);

  const char *sim[] = { "simulate", "--trace", trace, "--gpu", "A100", NULL };
  Run s = run_cli (f, NULL, NULL, sim);
  g_assert_nonnull (strstr (s.err, "launch 0 (kernel _Z11hang_kernelPVi) is incomplete"));
  run_clear (&s);

  /* The instruction budget ends it as well. */
  const char *budget[] = { "profile", "--instruction-budget", "100000", "--", robust_path, "hang", NULL };
  Run b = run_cli (f, NULL, NULL, budget);
  g_assert_cmpint (b.status, ==, 4);
  g_assert_nonnull (strstr (b.out, "hang sync=702"));
  g_assert_nonnull (strstr (b.err, "instruction budget of 100000 warp instructions"));
  run_clear (&b);

  /* Bad values are usage errors. */
  const char *bad[] = { "profile", "--launch-timeout", "-3", "--", robust_path, "hang", NULL };
  Run u = run_cli (f, NULL, NULL, bad);
  g_assert_cmpint (u.status, ==, 2);
  g_assert_nonnull (strstr (u.err, "--launch-timeout"));
  run_clear (&u);
}

/* ---- issue 19: nothing lost, nothing left running ------------------------- */

static char *
good_trace (Fixture *f, gsize *len)
{
  g_autofree char *trace = g_build_filename (f->tmp, "good.trace", NULL);
  const char *args[] = { "profile", "-o", trace, "--", robust_path, "wrap", NULL };
  Run r = run_cli (f, NULL, NULL, args);
  g_assert_cmpint (r.status, ==, 0);
  run_clear (&r);
  char *bytes = NULL;
  g_assert_true (g_file_get_contents (trace, &bytes, len, NULL));
  g_assert_cmpuint (*len, >, 64);
  return bytes;
}

static void
assert_unchanged (const char *path, const char *bytes, gsize len)
{
  g_autofree char *now = NULL;
  gsize now_len = 0;
  g_assert_true (g_file_get_contents (path, &now, &now_len, NULL));
  g_assert_cmpuint (now_len, ==, len);
  g_assert_true (memcmp (now, bytes, len) == 0);
}

static void
test_output_kept_on_crash (Fixture *f, gconstpointer data)
{
  if (!need_robust ())
    return;
  gsize len = 0;
  g_autofree char *bytes = good_trace (f, &len);
  g_autofree char *trace = g_build_filename (f->tmp, "good.trace", NULL);
  const char *args[] = { "profile", "-o", trace, "--", robust_path, "crash", NULL };
  Run r = run_cli (f, NULL, NULL, args);
  g_assert_cmpint (r.status, ==, 128 + SIGABRT);
  g_assert_nonnull (strstr (r.err, "was left as it was"));
  run_clear (&r);
  assert_unchanged (trace, bytes, len);
  g_assert_cmpuint (count_entries (f->tmp, ".good.trace."), ==, 0);

  /* A run that succeeds replaces it. */
  const char *ok[] = { "profile", "-o", trace, "--", robust_path, "before-first", NULL };
  Run o = run_cli (f, NULL, NULL, ok);
  g_assert_cmpint (o.status, ==, 0);
  run_clear (&o);
  const char *info[] = { "trace", "info", trace, NULL };
  Run t = run_cli (f, NULL, NULL, info);
  g_assert_cmpint (t.status, ==, 0);
  g_assert_nonnull (strstr (t.out, "before_kernel"));
  run_clear (&t);
}

/* Stopping profile with @sig ends the program (forwarded, or by
 * PR_SET_PDEATHSIG for SIGKILL) and leaves an existing trace alone. */
static void
test_signal (Fixture *f, gconstpointer data)
{
  int sig = GPOINTER_TO_INT (data);
  if (!need_robust ())
    return;
  gsize len = 0;
  g_autofree char *bytes = good_trace (f, &len);
  g_autofree char *trace = g_build_filename (f->tmp, "good.trace", NULL);
  g_autofree char *pidfile = g_build_filename (f->tmp, "pid", NULL);
  const char *argv[] = { cli_path,    "--db",  f->db,   "profile", "--launch-timeout", "0", "-o", trace, "--",
                         robust_path, "sleep", pidfile, NULL };
  g_autoptr (GSubprocessLauncher) l = launcher (f, NULL, NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (GSubprocess) p = g_subprocess_launcher_spawnv (l, argv, &error);
  g_assert_no_error (error);
  /* wait until the program runs its endless kernel: the file exists before
   * its line is written (read empty once in CI under load: pid 0) */
  g_autofree char *pidtext = NULL;
  for (int i = 0; i < 600; i++)
    {
      g_clear_pointer (&pidtext, g_free);
      if (g_file_get_contents (pidfile, &pidtext, NULL, NULL) && strchr (pidtext, '\n') != NULL)
        break;
      g_usleep (50000);
    }
  g_assert_nonnull (pidtext);
  pid_t child = (pid_t) atoi (pidtext);
  g_assert_cmpint (child, >, 1);
  g_usleep (300000);
  g_assert_cmpint (kill (child, 0), ==, 0);
  g_subprocess_send_signal (p, sig);
  g_autoptr (GBytes) out = NULL, err = NULL;
  g_subprocess_communicate (p, NULL, NULL, &out, &err, &error);
  g_assert_no_error (error);
  if (sig == SIGKILL)
    g_assert_true (g_subprocess_get_if_signaled (p) && g_subprocess_get_term_sig (p) == SIGKILL);
  else
    {
      g_assert_true (g_subprocess_get_if_exited (p));
      g_assert_cmpint (g_subprocess_get_exit_status (p), ==, 128 + sig);
    }
  /* the program is gone (reaped by profile, or by init after PDEATHSIG) */
  gboolean gone = FALSE;
  for (int i = 0; i < 100 && !gone; i++)
    {
      g_autofree char *stat_path = g_strdup_printf ("/proc/%d/stat", (int) child);
      g_autofree char *stat = NULL;
      gone = !g_file_get_contents (stat_path, &stat, NULL, NULL) || strstr (stat, ") Z ") != NULL;
      if (!gone)
        g_usleep (50000);
    }
  g_assert_true (gone);
  assert_unchanged (trace, bytes, len);
  if (sig != SIGKILL)
    g_assert_cmpuint (count_entries (f->tmp, ".good.trace."), ==, 0);
}

/* tool branch runs the program where the user runs it: a relative input
 * is found, its output file stays, and no temporary folder is left. */
static void
test_tool_in_place (Fixture *f, gconstpointer data)
{
  if (!need_robust ())
    return;
  g_autofree char *work = g_build_filename (f->tmp, "work", NULL);
  g_autofree char *tmpdir = g_build_filename (f->tmp, "tmpdir", NULL);
  g_assert_cmpint (g_mkdir_with_parents (work, 0700), ==, 0);
  g_assert_cmpint (g_mkdir_with_parents (tmpdir, 0700), ==, 0);
  g_autofree char *input = g_build_filename (work, "input.txt", NULL);
  g_assert_true (g_file_set_contents (input, "21\n", -1, NULL));
  for (guint i = 0; i < 3; i++)
    {
      static const char *const tools[] = { "branch", "memdiv", "value" };
      const char *args[] = { "--json", "tool", tools[i], "--", robust_path, "files", "input.txt", "out.txt", NULL };
      Run r = run_cli (f, work, tmpdir, args);
      g_assert_cmpint (r.status, ==, 0);
      g_assert_nonnull (strstr (r.out, "twice_kernel"));
      run_clear (&r);
      g_autofree char *out = g_build_filename (work, "out.txt", NULL);
      g_autofree char *text = NULL;
      g_assert_true (g_file_get_contents (out, &text, NULL, NULL));
      g_assert_cmpstr (text, ==, "42\n");
      g_unlink (out);
      g_assert_cmpuint (count_entries (tmpdir, ""), ==, 0);
    }
  /* A missing relative input is the program's failure, named as such. */
  const char *missing[] = { "tool", "branch", "--", robust_path, "files", "nothere.txt", "out.txt", NULL };
  Run m = run_cli (f, work, tmpdir, missing);
  g_assert_cmpint (m.status, ==, 1);
  g_assert_nonnull (strstr (m.err, "cannot read nothere.txt"));
  g_assert_nonnull (strstr (m.err, "failed (exit code 1)"));
  run_clear (&m);
  g_assert_cmpuint (count_entries (tmpdir, ""), ==, 0);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  for (int i = 1; i + 1 < argc; i++)
    {
      /* absolute: the runs happen in other folders */
      if (strcmp (argv[i], "--cli") == 0)
        cli_path = g_canonicalize_filename (argv[++i], NULL);
      else if (strcmp (argv[i], "--robust") == 0)
        robust_path = strcmp (argv[i + 1], "-") == 0 ? argv[++i] : g_canonicalize_filename (argv[++i], NULL);
    }
  g_assert_nonnull (cli_path);
#define ADD(path, fn, data) g_test_add (path, Fixture, data, fixture_setup, fn, fixture_teardown)
  ADD ("/profile/address/shared-wrap-32bit", test_wrap, NULL);
  ADD ("/profile/invalid/unnoticed-by-default", test_unnoticed_by_default, NULL);
  ADD ("/profile/invalid/memcheck-stops-exit-4", test_memcheck_stops, NULL);
  ADD ("/profile/watchdog/timeout-budget-incomplete-trace", test_watchdog, NULL);
  ADD ("/profile/output/kept-when-the-run-crashes", test_output_kept_on_crash, NULL);
  ADD ("/profile/signals/sigint", test_signal, GINT_TO_POINTER (SIGINT));
  ADD ("/profile/signals/sigterm", test_signal, GINT_TO_POINTER (SIGTERM));
  ADD ("/profile/signals/sighup", test_signal, GINT_TO_POINTER (SIGHUP));
  ADD ("/profile/signals/sigkill-parent", test_signal, GINT_TO_POINTER (SIGKILL));
  ADD ("/tool/runs-in-place", test_tool_in_place, NULL);
  return g_test_run ();
}
