/* test-examples.c: runs CUDA programs under `warpscope-cli profile`.
 *
 * The acceptance test of the emulator: every example (examples/) and every
 * extra test program (tests/cuda/) is run unmodified under the profiler, and
 * must exit 0, produce its expected output and leave a sane JSON summary.
 *
 * Command line (after GLib's test options), from tests/examples/meson.build:
 *   --cli PATH              warpscope-cli
 *   then one group of four arguments per program:
 *   SUITE NAME PROGRAM SPEC
 * SUITE names the group ("examples", "cuda", "flags"; the test path is
 * /SUITE/NAME; programs of "examples" also write a trace, checked against the
 * summary with `trace info`); PROGRAM is the built program or "-" when nvcc
 * was not found (the case is then skipped);
 * SPEC is a ';'-separated list of
 *   args=A B C        arguments for the program (split on spaces)
 *   expect=FILE       stdout must equal FILE exactly (instead of "PASSED")
 *   unsupported=NAME  the program calls an API the runtime does not support:
 *                     NAME must be named in its output, the program must not
 *                     print "FAILED:" (it does when the call succeeds), and
 *                     it must either exit non-zero (the runtime stopped it)
 *                     or print PASSED (having seen the error returned)
 *   fault             a kernel of the program faults on purpose and the program
 *                     checks the error: profile must exit 4 (a kernel faulted,
 *                     docs/profiling.md) with PASSED on stdout
 *   deterministic     also a case /determinism/NAME: the trace of a run on all
 *                     cores must equal, byte for byte, the trace of a
 *                     --deterministic run (for programs whose results do not
 *                     depend on the order of atomics between blocks)
 * Every warpscope-cli run uses a temporary database (--db), never the user's.
 */
#include <glib.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <string.h>
#include <sys/wait.h>

#include "example-run.h"

/* Per-program wall-clock limit: the default sizes need well under a second,
 * and a few hanging programs must not exceed the meson timeout (900 s). */
#define PROGRAM_TIMEOUT_S "120"

typedef struct {
  char *suite;
  char *name;
  char *program; /* NULL when not built */
  char **args;
  char *expect_file;
  char *unsupported;
  gboolean deterministic;
  gboolean fault;
} Program;

static char *cli_path;

static void
program_free (gpointer data)
{
  Program *p = data;
  g_free (p->suite);
  g_free (p->name);
  g_free (p->program);
  g_strfreev (p->args);
  g_free (p->expect_file);
  g_free (p->unsupported);
  g_free (p);
}

static Program *
program_parse (const char *suite, const char *name, const char *program, const char *spec)
{
  Program *p = g_new0 (Program, 1);
  p->suite = g_strdup (suite);
  p->name = g_strdup (name);
  /* Absolute, because the program runs in a temporary directory. */
  p->program = g_strcmp0 (program, "-") == 0 ? NULL : g_canonicalize_filename (program, NULL);
  g_auto (GStrv) items = g_strsplit (spec, ";", -1);
  for (char **it = items; *it; it++)
    {
      if (g_str_has_prefix (*it, "args="))
        p->args = g_strsplit_set (*it + 5, " ", -1);
      else if (g_str_has_prefix (*it, "expect="))
        p->expect_file = g_canonicalize_filename (*it + 7, NULL);
      else if (g_str_has_prefix (*it, "unsupported="))
        p->unsupported = g_strdup (*it + 12);
      else if (g_strcmp0 (*it, "deterministic") == 0)
        p->deterministic = TRUE;
      else if (g_strcmp0 (*it, "fault") == 0)
        p->fault = TRUE;
      else if (**it)
        g_error ("program %s: unknown spec item '%s'", name, *it);
    }
  return p;
}

/* Reads an integer member of the summary; FALSE (and the test failed) when
 * it is missing or not a number. */
static gboolean
summary_int (const Program *p, JsonObject *o, const char *member, gint64 *value)
{
  JsonNode *n = json_object_has_member (o, member) ? json_object_get_member (o, member) : NULL;
  if (!n || !JSON_NODE_HOLDS_VALUE (n) || json_node_get_value_type (n) != G_TYPE_INT64)
    {
      g_test_fail_printf ("%s: the summary has no integer \"%s\"", p->name, member);
      return FALSE;
    }
  *value = json_node_get_int (n);
  return TRUE;
}

/* "line N: got '...', expected '...'" for the first line that differs. */
static char *
first_difference (const char *got, const char *want)
{
  g_auto (GStrv) g = g_strsplit (got, "\n", -1);
  g_auto (GStrv) w = g_strsplit (want, "\n", -1);
  guint i = 0;
  while (g[i] && w[i] && g_strcmp0 (g[i], w[i]) == 0)
    i++;
  return g_strdup_printf ("line %u: got '%s', expected '%s'", i + 1, g[i] ? g[i] : "(end)", w[i] ? w[i] : "(end)");
}

/* `warpscope-cli trace info TRACE --json` must list the launches the
 * summary counted, with the same instruction totals. */
static void
check_trace (const Program *p, const char *trace_path, const char *db_path, gint64 launches, gint64 warp_insts,
             gint64 thread_insts)
{
  const char *argv[] = { cli_path, "--db", db_path, "trace", "info", trace_path, "--json", NULL };
  g_autofree char *out = NULL, *err = NULL;
  g_autoptr (GError) error = NULL;
  int status = 0;
  if (!g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, &err, &status, &error))
    {
      g_test_fail_printf ("%s: cannot run trace info: %s", p->name, error->message);
      return;
    }
  if (!WIFEXITED (status) || WEXITSTATUS (status) != 0)
    {
      g_test_fail_printf ("%s: trace info %s failed: %s", p->name, trace_path, err ? err : "");
      return;
    }
  g_autoptr (JsonParser) parser = json_parser_new ();
  if (!json_parser_load_from_data (parser, out, -1, &error))
    {
      g_test_fail_printf ("%s: trace info printed no JSON: %s", p->name, error->message);
      return;
    }
  JsonNode *root = json_parser_get_root (parser);
  JsonObject *o = root && JSON_NODE_HOLDS_OBJECT (root) ? json_node_get_object (root) : NULL;
  JsonArray *list = o && json_object_has_member (o, "launches") ? json_object_get_array_member (o, "launches") : NULL;
  if (!list)
    {
      g_test_fail_printf ("%s: trace info has no \"launches\" array", p->name);
      return;
    }
  gint64 warps = 0, threads = 0;
  for (guint i = 0; i < json_array_get_length (list); i++)
    {
      JsonObject *l = json_array_get_object_element (list, i);
      if (!l || !json_object_has_member (l, "index") || !json_object_has_member (l, "warp_instructions")
          || !json_object_has_member (l, "thread_instructions")
          || json_object_get_int_member (l, "index") != (gint64) i)
        {
          g_test_fail_printf ("%s: trace launch %u lacks index/instruction counts", p->name, i);
          return;
        }
      warps += json_object_get_int_member (l, "warp_instructions");
      threads += json_object_get_int_member (l, "thread_instructions");
    }
  if ((gint64) json_array_get_length (list) != launches || warps != warp_insts || threads != thread_insts)
    g_test_fail_printf ("%s: the trace has %u launches, %" G_GINT64_FORMAT " warp and %" G_GINT64_FORMAT
                        " thread instructions; the summary %" G_GINT64_FORMAT ", %" G_GINT64_FORMAT
                        " and %" G_GINT64_FORMAT,
                        p->name, json_array_get_length (list), warps, threads, launches, warp_insts, thread_insts);
}

/* Runs the program under the profiler and checks its output and summary.
 * Failures are reported with g_test_fail_printf so the remaining programs
 * still run (one failing example must not hide the state of the others). */
static void
test_program (gconstpointer data)
{
  const Program *p = data;

  if (!p->program)
    {
      g_test_skip ("nvcc was not found at configure time: CUDA programs are not built");
      return;
    }
  if (!cli_path)
    {
      g_test_fail_printf ("no --cli PATH given");
      return;
    }

  g_autoptr (GError) error = NULL;
  g_autofree char *tmp = g_dir_make_tmp ("ws-example-XXXXXX", &error);
  g_assert_no_error (error);
  g_autofree char *summary_path = g_build_filename (tmp, "summary.json", NULL);
  g_autofree char *trace_path = g_build_filename (tmp, "trace", NULL);
  /* A temporary database: never the user's (the catalogue is seeded on
   * first use). */
  g_autofree char *db_path = g_build_filename (tmp, "warpscope.db", NULL);

  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_ptr_array_add (argv, (char *) "timeout");
  g_ptr_array_add (argv, (char *) PROGRAM_TIMEOUT_S);
  g_ptr_array_add (argv, (char *) cli_path);
  g_ptr_array_add (argv, (char *) "--db");
  g_ptr_array_add (argv, db_path);
  g_ptr_array_add (argv, (char *) "profile");
  /* The examples also write a trace, cross-checked with `trace info`. */
  gboolean with_trace = g_strcmp0 (p->suite, "examples") == 0;
  if (with_trace)
    {
      g_ptr_array_add (argv, (char *) "-o");
      g_ptr_array_add (argv, trace_path);
    }
  g_ptr_array_add (argv, (char *) "--json");
  g_ptr_array_add (argv, (char *) "--summary");
  g_ptr_array_add (argv, summary_path);
  g_ptr_array_add (argv, (char *) "--");
  g_ptr_array_add (argv, p->program);
  for (char **a = p->args; a && *a; a++)
    if (**a)
      g_ptr_array_add (argv, *a);
  g_ptr_array_add (argv, NULL);

  g_autofree char *cmdline = g_strjoinv (" ", (char **) argv->pdata);
  g_test_message ("running: %s (in %s)", cmdline, tmp);

  g_autofree char *out = NULL, *err = NULL;
  int status = 0;
  gboolean spawned = g_spawn_sync (tmp, (char **) argv->pdata, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, &out, &err,
                                   &status, &error);
  g_assert_no_error (error);
  g_assert_true (spawned);

  int exit_code = -1;
  if (WIFEXITED (status))
    exit_code = WEXITSTATUS (status);
  gboolean passed_line = out && (g_str_has_prefix (out, "PASSED\n") || strstr (out, "\nPASSED\n"));
  gboolean failed_line = out && strstr (out, "FAILED:") != NULL;
  g_autofree char *both = g_strconcat (out ? out : "", err ? err : "", NULL);

  /* The verdict on the program's own output. */
  g_autofree char *problem = NULL;
  if (exit_code == 124)
    {
      problem = g_strdup_printf ("timed out after %s s", PROGRAM_TIMEOUT_S);
    }
  else if (p->unsupported)
    {
      if (failed_line)
        problem = g_strdup_printf ("the program reports a failure (did %s succeed silently?)", p->unsupported);
      else if (!strstr (both, p->unsupported))
        problem = g_strdup_printf ("the output does not name the unsupported call %s", p->unsupported);
      else if (exit_code == 0 && !passed_line)
        problem = g_strdup_printf ("exit 0 without PASSED: %s may have succeeded silently", p->unsupported);
    }
  else if (p->fault && exit_code != 4)
    {
      problem = g_strdup_printf ("exit code %d, expected 4 (a kernel faulted)", exit_code);
    }
  else if (!p->fault && exit_code != 0)
    {
      problem = g_strdup_printf ("exit code %d", exit_code);
    }
  else if (p->expect_file)
    {
      g_autofree char *want = NULL;
      if (!g_file_get_contents (p->expect_file, &want, NULL, &error))
        problem = g_strdup_printf ("cannot read %s: %s", p->expect_file, error->message);
      else if (g_strcmp0 (out, want) != 0)
        {
          g_autofree char *where = first_difference (out ? out : "", want);
          problem = g_strdup_printf ("stdout differs from %s at %s", p->expect_file, where);
        }
    }
  else if (!passed_line)
    {
      problem = g_strdup ("no PASSED line on stdout");
    }

  /* Show what the program said whenever something is off, so the log has
   * the first error (the emulator's report is on stderr). */
  if (problem || g_test_verbose ())
    {
      g_autofree char *out_tail = tail (out, 3000);
      g_autofree char *err_tail = tail (err, 3000);
      g_test_message ("%s: exit %d\n--- stdout (tail) ---\n%s\n--- stderr (tail) ---\n%s", p->name, exit_code, out_tail,
                      err_tail);
    }
  if (problem)
    {
      g_test_fail_printf ("%s: %s", p->name, problem);
      goto cleanup;
    }

  /* The summary: written even when the program fails, with its exit code. */
  {
    g_autoptr (JsonParser) parser = json_parser_new ();
    if (!json_parser_load_from_file (parser, summary_path, &error))
      {
        g_test_fail_printf ("%s: no readable summary %s: %s", p->name, summary_path, error->message);
        goto cleanup;
      }
    JsonNode *root = json_parser_get_root (parser);
    if (!root || !JSON_NODE_HOLDS_OBJECT (root))
      {
        g_test_fail_printf ("%s: the summary is not a JSON object", p->name);
        goto cleanup;
      }
    JsonObject *o = json_node_get_object (root);
    gint64 launches, warp_insts, thread_insts, summary_exit;
    if (!summary_int (p, o, "exit_code", &summary_exit) || !summary_int (p, o, "launches", &launches)
        || !summary_int (p, o, "warp_instructions", &warp_insts)
        || !summary_int (p, o, "thread_instructions", &thread_insts))
      goto cleanup;
    JsonNode *seconds = json_object_get_member (o, "seconds");
    g_test_message ("%s: %" G_GINT64_FORMAT " launches, %" G_GINT64_FORMAT " warp instructions, %" G_GINT64_FORMAT
                    " thread instructions, %.3f s",
                    p->name, launches, warp_insts, thread_insts, seconds ? json_node_get_double (seconds) : -1.0);
    /* exit_code is the program's: 0 for a fault program, which profile turns into 4 */
    if (summary_exit != (p->fault ? 0 : exit_code))
      g_test_fail_printf ("%s: summary exit_code %" G_GINT64_FORMAT ", the program exited %d", p->name, summary_exit,
                          p->fault ? 0 : exit_code);
    else if (!seconds || !JSON_NODE_HOLDS_VALUE (seconds) || !(json_node_get_double (seconds) >= 0.0))
      g_test_fail_printf ("%s: summary has no non-negative \"seconds\"", p->name);
    else if (launches <= 0 || warp_insts <= 0)
      g_test_fail_printf ("%s: summary counts no work (%" G_GINT64_FORMAT " launches, %" G_GINT64_FORMAT
                          " warp instructions)",
                          p->name, launches, warp_insts);
    /* A warp instruction executes for 0 to 32 threads: 0 when its guard
     * predicate is false in every active lane (those count as warp but not
     * as thread instructions), so only the upper bound is strict. */
    else if (thread_insts <= 0 || thread_insts > 32 * warp_insts)
      g_test_fail_printf ("%s: %" G_GINT64_FORMAT " thread instructions is not within 1..32 "
                          "times the warp instructions (%" G_GINT64_FORMAT ")",
                          p->name, thread_insts, warp_insts);
    else if (with_trace)
      check_trace (p, trace_path, db_path, launches, warp_insts, thread_insts);
  }

cleanup:
  remove_tree (tmp);
}

/* Compares two traces (files or directory trees) byte for byte; NULL when
 * equal, else what differs. */
static char *
tree_difference (const char *a, const char *b)
{
  gboolean adir = g_file_test (a, G_FILE_TEST_IS_DIR), bdir = g_file_test (b, G_FILE_TEST_IS_DIR);
  if (adir != bdir)
    return g_strdup_printf ("%s and %s are not both directories", a, b);
  if (!adir)
    {
      g_autofree char *ca = NULL, *cb = NULL;
      gsize la = 0, lb = 0;
      if (!g_file_get_contents (a, &ca, &la, NULL) || !g_file_get_contents (b, &cb, &lb, NULL))
        return g_strdup_printf ("cannot read %s or %s", a, b);
      if (la != lb)
        return g_strdup_printf ("%s has %" G_GSIZE_FORMAT " bytes, %s %" G_GSIZE_FORMAT, a, la, b, lb);
      for (gsize i = 0; i < la; i++)
        if (ca[i] != cb[i])
          return g_strdup_printf ("%s and %s differ at byte %" G_GSIZE_FORMAT, a, b, i);
      return NULL;
    }
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  for (int side = 0; side < 2; side++)
    {
      g_autoptr (GDir) dir = g_dir_open (side ? b : a, 0, NULL);
      const char *name;
      guint before = names->len;
      while (dir && (name = g_dir_read_name (dir)))
        g_ptr_array_add (names, g_strdup (name));
      if (side == 1 && names->len - before != before)
        return g_strdup_printf ("%s has %u entries, %s %u", a, before, b, names->len - before);
    }
  guint half = names->len / 2;
  for (guint i = 0; i < half; i++)
    {
      g_autofree char *pa = g_build_filename (a, (char *) names->pdata[i], NULL);
      g_autofree char *pb = g_build_filename (b, (char *) names->pdata[i], NULL);
      char *d = tree_difference (pa, pb);
      if (d)
        return d;
    }
  return NULL;
}

/* Runs `profile [--deterministic] -o TRACE -- PROGRAM`; FALSE (test failed)
 * unless it exits 0 and prints PASSED. */
static gboolean
profile_to_trace (const Program *p, const char *trace, const char *db, gboolean deterministic)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_ptr_array_add (argv, (char *) "timeout");
  g_ptr_array_add (argv, (char *) PROGRAM_TIMEOUT_S);
  g_ptr_array_add (argv, cli_path);
  g_ptr_array_add (argv, (char *) "--db");
  g_ptr_array_add (argv, (char *) db);
  g_ptr_array_add (argv, (char *) "profile");
  if (deterministic)
    g_ptr_array_add (argv, (char *) "--deterministic");
  g_ptr_array_add (argv, (char *) "-o");
  g_ptr_array_add (argv, (char *) trace);
  g_ptr_array_add (argv, (char *) "--");
  g_ptr_array_add (argv, p->program);
  for (char **a = p->args; a && *a; a++)
    if (**a)
      g_ptr_array_add (argv, *a);
  g_ptr_array_add (argv, NULL);
  g_autofree char *out = NULL, *err = NULL;
  g_autoptr (GError) error = NULL;
  int status = 0;
  if (!g_spawn_sync (NULL, (char **) argv->pdata, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, &out, &err, &status, &error))
    {
      g_test_fail_printf ("%s: cannot run the profiler: %s", p->name, error->message);
      return FALSE;
    }
  if (!WIFEXITED (status) || WEXITSTATUS (status) != 0 || !out || !strstr (out, "PASSED\n"))
    {
      g_autofree char *err_tail = tail (err, 2000);
      g_test_fail_printf ("%s: the %s run failed: %s", p->name, deterministic ? "--deterministic" : "parallel",
                          err_tail);
      return FALSE;
    }
  return TRUE;
}

/* Issue 3: for programs whose results do not depend on the order of atomics
 * between blocks, the trace of a parallel run equals a single-threaded one. */
static void
test_determinism (gconstpointer data)
{
  const Program *p = data;
  if (!p->program)
    {
      g_test_skip ("nvcc was not found at configure time: CUDA programs are not built");
      return;
    }
  g_autoptr (GError) error = NULL;
  g_autofree char *tmp = g_dir_make_tmp ("ws-determinism-XXXXXX", &error);
  g_assert_no_error (error);
  g_autofree char *parallel = g_build_filename (tmp, "parallel", NULL);
  g_autofree char *serial = g_build_filename (tmp, "serial", NULL);
  g_autofree char *db = g_build_filename (tmp, "warpscope.db", NULL);
  if (profile_to_trace (p, parallel, db, FALSE) && profile_to_trace (p, serial, db, TRUE))
    {
      g_autofree char *diff = tree_difference (parallel, serial);
      if (diff)
        g_test_fail_printf ("%s: parallel and --deterministic traces differ: %s", p->name, diff);
    }
  remove_tree (tmp);
}

int
main (int argc, char **argv)
{
  test_init_keep_going (&argc, &argv);

  g_autoptr (GPtrArray) programs = g_ptr_array_new_with_free_func (program_free);
  int i = 1;
  while (i < argc)
    {
      if (g_strcmp0 (argv[i], "--cli") == 0 && i + 1 < argc)
        {
          cli_path = g_canonicalize_filename (argv[i + 1], NULL); /* tests run elsewhere */
          i += 2;
        }
      else if (i + 3 < argc)
        {
          g_ptr_array_add (programs, program_parse (argv[i], argv[i + 1], argv[i + 2], argv[i + 3]));
          i += 4;
        }
      else
        {
          g_printerr ("test-examples: incomplete program group at '%s'\n", argv[i]);
          return 2;
        }
    }
  for (guint k = 0; k < programs->len; k++)
    {
      Program *p = programs->pdata[k];
      g_autofree char *path = g_strdup_printf ("/%s/%s", p->suite, p->name);
      g_test_add_data_func (path, p, test_program);
      if (p->deterministic)
        {
          g_autofree char *dpath = g_strdup_printf ("/determinism/%s", p->name);
          g_test_add_data_func (dpath, p, test_determinism);
        }
    }
  return g_test_run ();
}
