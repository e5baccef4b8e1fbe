/* Hostile input at the command line (a fault campaign's findings): every
 * case used to crash, misreport or lose data.  Runs the built warpscope-cli
 * (path in $WS_CLI) on a temporary database. */
#include <glib.h>
#include <glib/gstdio.h>
#include <signal.h>
#include <sqlite3.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

typedef struct {
  char *dir;
  char *db;
} Fixture;

typedef struct {
  int status; /* exit code, or 128 + signal */
  char *out;
  char *err;
} Run;

static void
run_clear (Run *r)
{
  g_free (r->out);
  g_free (r->err);
}
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Run, run_clear)

static void
fixture_setup (Fixture *f, gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  f->dir = g_dir_make_tmp ("ws-cli-hard-XXXXXX", &error);
  g_assert_no_error (error);
  f->db = g_build_filename (f->dir, "t.db", NULL);
}

static void
rm_rf (const char *path)
{
  g_chmod (path, 0755);
  GDir *d = g_dir_open (path, 0, NULL);
  if (d != NULL)
    {
      const char *n;
      while ((n = g_dir_read_name (d)) != NULL)
        {
          g_autofree char *p = g_build_filename (path, n, NULL);
          rm_rf (p);
        }
      g_dir_close (d);
    }
  g_remove (path);
}

static void
fixture_teardown (Fixture *f, gconstpointer data)
{
  rm_rf (f->dir);
  g_free (f->dir);
  g_free (f->db);
}

/* As an unprivileged user when running as root (root may write anything,
 * so a read-only database would not be read-only). */
static void
drop_root (gpointer data)
{
  if (getuid () == 0 && (setgid (65534) != 0 || setuid (65534) != 0))
    _exit (99);
}

static Run
cli_argv (Fixture *f, gboolean unprivileged, const char *const *args)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_ptr_array_add (argv, (gpointer) g_getenv ("WS_CLI"));
  g_ptr_array_add (argv, (gpointer) "--db");
  g_ptr_array_add (argv, f->db);
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);
  Run r = { 0 };
  int ws = 0;
  g_autoptr (GError) error = NULL;
  g_assert_true (g_spawn_sync (f->dir, (char **) argv->pdata, NULL, G_SPAWN_DEFAULT, unprivileged ? drop_root : NULL,
                               NULL, &r.out, &r.err, &ws, &error));
  g_assert_no_error (error);
  r.status = WIFEXITED (ws) ? WEXITSTATUS (ws) : 128 + WTERMSIG (ws);
  return r;
}

#define CLI(f, ...) cli_argv ((f), FALSE, (const char *const[]){ __VA_ARGS__, NULL })
#define CLI_UNPRIVILEGED(f, ...) cli_argv ((f), TRUE, (const char *const[]){ __VA_ARGS__, NULL })

/* The A100 record of the seed catalogue, renamed, with @field's value
 * replaced by the text @value. */
static char *
gpu_json (Fixture *f, const char *name, const char *field, const char *value)
{
  g_auto (Run) r = CLI (f, "hw", "export", "A100");
  g_assert_cmpint (r.status, ==, 0);
  g_autofree char *quoted = g_strdup_printf ("\"name\": \"%s\"", name);
  g_autoptr (GString) s = g_string_new (r.out);
  g_string_replace (s, "\"name\": \"A100\"", quoted, 1);
  if (field != NULL)
    {
      g_autofree char *key = g_strdup_printf ("\"%s\": ", field);
      const char *at = strstr (s->str, key);
      g_assert_nonnull (at);
      gsize start = (at - s->str) + strlen (key);
      gsize end = start;
      while (s->str[end] != ',' && s->str[end] != '\n')
        end++;
      g_string_erase (s, start, end - start);
      g_string_insert (s, start, value);
    }
  return g_string_free (g_steal_pointer (&s), FALSE);
}

static char *
write_file (Fixture *f, const char *name, const char *text)
{
  char *path = g_build_filename (f->dir, name, NULL);
  g_assert_true (g_file_set_contents (path, text, -1, NULL));
  return path;
}

/* `hw import` of JSON nested 100 000 deep crashed inside json-glib; a
 * whole number above 2^63 read back as -1 ("value -1 of field 'sms'"). */
static void
test_hw_import_hostile_json (Fixture *f, gconstpointer data)
{
  GString *deep = g_string_new (NULL);
  for (guint i = 0; i < 100000; i++)
    g_string_append_c (deep, '[');
  for (guint i = 0; i < 100000; i++)
    g_string_append_c (deep, ']');
  g_autofree char *deep_path = write_file (f, "deep.json", deep->str);
  g_string_free (deep, TRUE);
  g_auto (Run) r = CLI (f, "hw", "import", deep_path);
  g_assert_cmpint (r.status, ==, 2);
  g_assert_nonnull (strstr (r.err, "deep.json: line 1, column 201: arrays and objects nest deeper than 200 levels"));

  g_autofree char *big = gpu_json (f, "Huge", "sms", "1000000000000000000000000000000");
  g_autofree char *big_path = write_file (f, "big.json", big);
  g_auto (Run) r2 = CLI (f, "hw", "import", big_path);
  g_assert_cmpint (r2.status, ==, 2);
  g_assert_null (strstr (r2.err, "value -1"));
  g_assert_nonnull (strstr (r2.err, "the whole number 1000000000000000000000000000000 is too large"));

  /* Written as a number with an exponent it is read, and out of range. */
  g_autofree char *exp = gpu_json (f, "Huge", "sms", "1e30");
  g_autofree char *exp_path = write_file (f, "exp.json", exp);
  g_auto (Run) r3 = CLI (f, "hw", "import", exp_path);
  g_assert_cmpint (r3.status, ==, 2);
  g_assert_nonnull (
    strstr (r3.err, "GPU 'Huge': value 1e+30 of field 'sms' is out of range; allowed range is 1 to 1024"));
}

/* UBSan: signed overflow at --regs=2147483647; --regs=-1 said "--regs R is required". */
static void
test_occupancy_ranges (Fixture *f, gconstpointer data)
{
  g_auto (Run) r = CLI (f, "occupancy", "--gpu", "A100", "--regs=2147483647", "--block-size=256");
  g_assert_cmpint (r.status, ==, 2);
  g_assert_nonnull (strstr (r.err, "2147483647 registers per thread is out of range: GPU 'A100' has 65536 registers "
                                   "per SM and allows at most 255 per thread"));
  g_auto (Run) r2 = CLI (f, "occupancy", "--gpu", "A100", "--regs=-1", "--block-size=256");
  g_assert_cmpint (r2.status, ==, 2);
  g_assert_nonnull (strstr (r2.err, "--regs -1: registers per thread cannot be negative"));
  g_auto (Run) r3 = CLI (f, "occupancy", "--gpu", "A100", "--regs=32", "--block-size=2147483647");
  g_assert_cmpint (r3.status, ==, 2);
  g_assert_nonnull (strstr (r3.err, "block size 2147483647 is out of range"));
  g_auto (Run)
    r4 = CLI (f, "--json", "occupancy", "--gpu", "A100", "--regs=32", "--block-size=256", "--smem=2147483647");
  g_assert_cmpint (r4.status, ==, 0);
  g_assert_nonnull (strstr (r4.out, "\"blocks_per_sm\" : 0"));
  g_assert_nonnull (strstr (r4.out, "\"shared_per_block\" : 2147483647"));
  g_auto (Run) r5 = CLI (f, "occupancy", "--gpu", "A100", "--regs=32");
  g_assert_cmpint (r5.status, ==, 2);
  g_assert_nonnull (strstr (r5.err, "--block-size N and --regs R are required"));
}

/* A folder given as a trace: "mmap() failed: No such device". */
static void
test_trace_is_folder (Fixture *f, gconstpointer data)
{
  g_auto (Run) r = CLI (f, "trace", "info", f->dir);
  g_assert_cmpint (r.status, ==, 2);
  g_assert_null (strstr (r.err, "No such device"));
  g_assert_nonnull (strstr (r.err, "it is a folder, not a trace file"));
}

/* `profile -- /tmp` said "program '/tmp' not found". */
static void
test_profile_folder (Fixture *f, gconstpointer data)
{
  g_auto (Run) r = CLI (f, "profile", "--", f->dir);
  g_assert_cmpint (r.status, ==, 2);
  g_assert_null (strstr (r.err, "not found"));
  g_autofree char *expected = g_strdup_printf ("'%s' is a folder, not a program", f->dir);
  g_assert_nonnull (strstr (r.err, expected));

  /* A missing program still says so. */
  g_autofree char *missing = g_build_filename (f->dir, "no-such-program", NULL);
  g_auto (Run) r2 = CLI (f, "profile", "--", missing);
  g_assert_cmpint (r2.status, ==, 2);
  g_autofree char *expected2 = g_strdup_printf ("program '%s' not found", missing);
  g_assert_nonnull (strstr (r2.err, expected2));
}

/* One damaged GPU record made `hw list` fail entirely. */
static void
test_hw_list_damaged_record (Fixture *f, gconstpointer data)
{
  g_auto (Run) r0 = CLI (f, "hw", "list");
  g_assert_cmpint (r0.status, ==, 0);
  sqlite3 *db = NULL;
  g_assert_cmpint (sqlite3_open (f->db, &db), ==, SQLITE_OK);
  g_assert_cmpint (
    sqlite3_exec (db, "UPDATE hw SET record = json_set (record, '$.sms', -5) WHERE name = 'A100'", NULL, NULL, NULL),
    ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_changes (db), ==, 1);
  sqlite3_close (db);

  g_auto (Run) r = CLI (f, "hw", "list", "--kind", "gpu");
  g_assert_cmpint (r.status, ==, 1);
  g_assert_nonnull (strstr (r.out, "A100 80GB"));
  g_assert_nonnull (strstr (r.out, "A40 "));
  g_assert_null (strstr (r.out, "A100     "));
  g_assert_nonnull (strstr (r.err, "skipped a damaged record: "));
  g_assert_nonnull (
    strstr (r.err, "stored GPU 'A100' is damaged: GPU 'A100': value -5 of field 'sms' is out of range"));
  g_assert_nonnull (strstr (r.err, "'hw delete A100' removes it"));

  /* Deleting it, as the message says, makes the list whole again. */
  g_auto (Run) r2 = CLI (f, "hw", "delete", "A100");
  g_assert_cmpint (r2.status, ==, 0);
  g_auto (Run) r3 = CLI (f, "hw", "list");
  g_assert_cmpint (r3.status, ==, 0);
}

/* A read-only database could not even be listed. */
static void
test_read_only_database (Fixture *f, gconstpointer data)
{
  g_auto (Run) r0 = CLI (f, "model", "list");
  g_assert_cmpint (r0.status, ==, 0);
  g_assert_cmpint (g_chmod (f->dir, 0755), ==, 0); /* reachable by the unprivileged user */
  g_assert_cmpint (g_chmod (f->db, 0444), ==, 0);
  g_assert_cmpint (g_chmod (f->dir, 0555), ==, 0);

  g_auto (Run) r = CLI_UNPRIVILEGED (f, "hw", "list", "--kind", "gpu");
  if (r.status == 99)
    {
      g_test_skip ("cannot drop root privileges here");
      return;
    }
  g_assert_cmpstr (r.err, ==, "");
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "A100"));
  g_auto (Run) r2 = CLI_UNPRIVILEGED (f, "--json", "hw", "show", "A40");
  g_assert_cmpint (r2.status, ==, 0);
  g_assert_nonnull (strstr (r2.out, "\"name\": \"A40\""));
  g_auto (Run) r3 = CLI_UNPRIVILEGED (f, "--json", "model", "list");
  g_assert_cmpint (r3.status, ==, 0);
  g_assert_nonnull (strstr (r3.out, "testbed-gtx970"));
  g_auto (Run) r4 = CLI_UNPRIVILEGED (f, "occupancy", "--gpu", "A100", "--regs=32", "--block-size=256");
  g_assert_cmpint (r4.status, ==, 0);

  /* A write says why it cannot be done. */
  g_autofree char *gpu = gpu_json (f, "NewGPU", NULL, NULL);
  g_assert_cmpint (g_chmod (f->dir, 0755), ==, 0);
  g_autofree char *path = write_file (f, "new.json", gpu);
  g_assert_cmpint (g_chmod (path, 0444), ==, 0);
  g_assert_cmpint (g_chmod (f->dir, 0555), ==, 0);
  g_auto (Run) r5 = CLI_UNPRIVILEGED (f, "hw", "import", path);
  g_assert_cmpint (r5.status, ==, 1);
  g_assert_nonnull (strstr (r5.err, "storing GPU 'NewGPU': attempt to write a readonly database (the database is "
                                    "open read-only"));
  g_assert_cmpint (g_chmod (f->dir, 0755), ==, 0);
}

/* kill -9 during a 5 000-record import left 86 to 4 438 records behind:
 * now it is one transaction, all or nothing. */
static void
test_hw_import_atomic (Fixture *f, gconstpointer data)
{
  g_auto (Run) r0 = CLI (f, "hw", "list");
  g_assert_cmpint (r0.status, ==, 0);
  g_autofree char *one = gpu_json (f, "GPU_NAME", NULL, NULL);
  GString *many = g_string_new ("[");
  for (guint i = 0; i < 5000; i++)
    {
      g_autofree char *name = g_strdup_printf ("G%04u", i);
      g_autoptr (GString) rec = g_string_new (one);
      g_string_replace (rec, "GPU_NAME", name, 1);
      g_string_append (many, i ? "," : "");
      g_string_append (many, rec->str);
    }
  g_string_append (many, "]");
  g_autofree char *path = write_file (f, "many.json", many->str);
  g_string_free (many, TRUE);
  guint delays_ms[4];

  /* How long a whole import takes here (into another database), so the
   * kills below land late in it, where the records are written. */
  g_autofree char *timing_db = g_build_filename (f->dir, "timing.db", NULL);
  {
    const char *argv[] = { g_getenv ("WS_CLI"), "--db", timing_db, "--quiet", "hw", "import", path, NULL };
    gint64 t0 = g_get_monotonic_time ();
    int ws = 0;
    g_autoptr (GError) error = NULL;
    g_assert_true (g_spawn_sync (f->dir, (char **) argv, NULL, G_SPAWN_STDOUT_TO_DEV_NULL | G_SPAWN_STDERR_TO_DEV_NULL,
                                 NULL, NULL, NULL, NULL, &ws, &error));
    g_assert_no_error (error);
    g_assert_true (WIFEXITED (ws) && WEXITSTATUS (ws) == 0);
    gint64 whole_ms = (g_get_monotonic_time () - t0) / 1000;
    g_test_message ("a whole import of 5000 records takes %" G_GINT64_FORMAT " ms", whole_ms);
    for (guint k = 0; k < 4; k++)
      delays_ms[k] = (guint) (whole_ms * (60 + 12 * k) / 100);
  }

  /* Killed at several moments: never a partial catalogue. */
  for (guint k = 0; k < G_N_ELEMENTS (delays_ms); k++)
    {
      const char *argv[] = { g_getenv ("WS_CLI"), "--db", f->db, "--quiet", "hw", "import", "--replace", path, NULL };
      GPid pid;
      g_autoptr (GError) error = NULL;
      g_assert_true (g_spawn_async (f->dir, (char **) argv, NULL,
                                    G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_STDOUT_TO_DEV_NULL | G_SPAWN_STDERR_TO_DEV_NULL,
                                    NULL, NULL, &pid, &error));
      g_assert_no_error (error);
      g_usleep (delays_ms[k] * 1000);
      kill (pid, SIGKILL);
      int ws;
      g_assert_cmpint (waitpid (pid, &ws, 0), ==, pid);
      g_spawn_close_pid (pid);

      sqlite3 *db = NULL;
      g_assert_cmpint (sqlite3_open (f->db, &db), ==, SQLITE_OK);
      sqlite3_stmt *st = NULL;
      g_assert_cmpint (
        sqlite3_prepare_v2 (db, "SELECT count(*) FROM hw WHERE name GLOB 'G[0-9][0-9][0-9][0-9]'", -1, &st, NULL), ==,
        SQLITE_OK);
      g_assert_cmpint (sqlite3_step (st), ==, SQLITE_ROW);
      int n = sqlite3_column_int (st, 0);
      sqlite3_finalize (st);
      sqlite3_close (db);
      g_test_message ("killed after %u ms: %d records", delays_ms[k], n);
      g_assert_true (n == 0 || n == 5000);
    }
}

/* A sweep stopped by SIGTERM (or SIGINT) left no record at all: now the
 * points that finished are stored, in a sweep whose status says
 * 'cancelled', and `model run` says so and exits with 128 + the signal. */
static void
test_model_run_cancelled_by_signal (Fixture *f, gconstpointer data)
{
  g_auto (Run) r0 = CLI (f, "model", "list"); /* the database, seeded: the run below starts at once */
  g_assert_cmpint (r0.status, ==, 0);
  const int signals[] = { SIGTERM, SIGINT };
  for (guint s = 0; s < G_N_ELEMENTS (signals); s++)
    {
      /* 100 000 points on one (and then two) threads take far longer than
       * the wait; a signal that came before the run started (the process
       * killed by it) is tried again later. */
      g_autofree char *threads = g_strdup_printf ("--threads=%u", s + 1);
      const char *argv[] = { g_getenv ("WS_CLI"), "--db",           f->db,   "model",           "run",
                             "--system",          "testbed-gtx970", "--app", "saxpy2-analytic", "--sweep",
                             "N=1:100000:1",      threads,          NULL };
      int ws = 0;
      g_autofree char *err = NULL;
      for (guint wait_ms = 500;; wait_ms *= 2)
        {
          GPid pid;
          int err_fd = -1;
          g_autoptr (GError) error = NULL;
          g_assert_true (g_spawn_async_with_pipes (f->dir, (char **) argv, NULL,
                                                   G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL,
                                                   &pid, NULL, NULL, &err_fd, &error));
          g_assert_no_error (error);
          g_usleep (wait_ms * 1000);
          kill (pid, signals[s]);
          g_autoptr (GString) text = g_string_new (NULL);
          char buf[4096];
          ssize_t n;
          while ((n = read (err_fd, buf, sizeof buf)) > 0)
            g_string_append_len (text, buf, n);
          close (err_fd);
          g_assert_cmpint (waitpid (pid, &ws, 0), ==, pid);
          g_spawn_close_pid (pid);
          err = g_string_free (g_steal_pointer (&text), FALSE);
          /* Stopped before its first point finished (a slow machine, a
           * sanitized build): legal, but this test wants stored points;
           * wait longer. */
          gboolean none_yet = WIFEXITED (ws) && strstr (err, ": 0 of 100000 points finished") != NULL;
          if ((WIFEXITED (ws) && !none_yet) || wait_ms > 16000)
            break;
          g_clear_pointer (&err, g_free);
        }
      g_assert_true (WIFEXITED (ws));
      g_assert_cmpint (WEXITSTATUS (ws), ==, 128 + signals[s]);
      g_autofree char *said = g_strdup_printf ("model run stopped by signal %d: ", signals[s]);
      g_assert_nonnull (strstr (err, said));
      g_assert_nonnull (strstr (err, " of 100000 points finished, stored as sweep "));
      g_assert_nonnull (strstr (err, " with status 'cancelled'"));

      sqlite3 *db = NULL;
      g_assert_cmpint (sqlite3_open (f->db, &db), ==, SQLITE_OK);
      sqlite3_stmt *st = NULL;
      g_assert_cmpint (sqlite3_prepare_v2 (db,
                                           "SELECT status, n_points, n_failed, (SELECT count(*) FROM model_run "
                                           "WHERE sweep_id = s.id AND status = 'ok'), (SELECT count(*) FROM model_run "
                                           "WHERE sweep_id = s.id) FROM model_sweep s ORDER BY id DESC LIMIT 1",
                                           -1, &st, NULL),
                       ==, SQLITE_OK);
      g_assert_cmpint (sqlite3_step (st), ==, SQLITE_ROW);
      g_assert_cmpstr ((const char *) sqlite3_column_text (st, 0), ==, "cancelled");
      g_assert_cmpint (sqlite3_column_int (st, 1), ==, 100000);
      g_assert_cmpint (sqlite3_column_int (st, 2), ==, 0);
      int ok = sqlite3_column_int (st, 3), stored = sqlite3_column_int (st, 4);
      g_test_message ("%s after the run started: %d points stored", s ? "SIGINT" : "SIGTERM", stored);
      g_assert_cmpint (stored, ==, ok); /* every stored point finished */
      g_assert_cmpint (stored, >, 0);
      g_assert_cmpint (stored, <, 100000);
      g_autofree char *said_n = g_strdup_printf (": %d of 100000 points finished", stored);
      g_assert_nonnull (strstr (err, said_n));
      sqlite3_finalize (st);
      sqlite3_close (db);
    }

  /* A sweep that runs to its end says 'complete'. */
  g_auto (Run)
    r = CLI (f, "model", "run", "--system", "testbed-gtx970", "--app", "saxpy2-analytic", "--sweep", "N=1,2");
  g_assert_cmpint (r.status, ==, 0);
  sqlite3 *db = NULL;
  g_assert_cmpint (sqlite3_open (f->db, &db), ==, SQLITE_OK);
  sqlite3_stmt *st = NULL;
  g_assert_cmpint (
    sqlite3_prepare_v2 (db, "SELECT status, n_points FROM model_sweep ORDER BY id DESC LIMIT 1", -1, &st, NULL), ==,
    SQLITE_OK);
  g_assert_cmpint (sqlite3_step (st), ==, SQLITE_ROW);
  g_assert_cmpstr ((const char *) sqlite3_column_text (st, 0), ==, "complete");
  g_assert_cmpint (sqlite3_column_int (st, 1), ==, 2);
  sqlite3_finalize (st);
  sqlite3_close (db);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
#define ADD(path, fn) g_test_add (path, Fixture, NULL, fixture_setup, fn, fixture_teardown)
  ADD ("/cli/hardening/hw-import-deep-and-huge-json", test_hw_import_hostile_json);
  ADD ("/cli/hardening/occupancy-range-errors", test_occupancy_ranges);
  ADD ("/cli/hardening/trace-that-is-a-folder", test_trace_is_folder);
  ADD ("/cli/hardening/profile-a-folder", test_profile_folder);
  ADD ("/cli/hardening/hw-list-skips-damaged-record", test_hw_list_damaged_record);
  ADD ("/cli/hardening/read-only-database-reads", test_read_only_database);
  ADD ("/cli/hardening/hw-import-all-or-nothing-under-kill", test_hw_import_atomic);
  ADD ("/cli/hardening/model-run-cancelled-by-signal-keeps-finished-points", test_model_run_cancelled_by_signal);
  return g_test_run ();
}
