/* test-validation.c: runs the validation benchmarks (examples/validation)
 * under `warpscope-cli profile` and checks the contract with
 * `warpscope-cli validate`: the program passes its own host check, prints
 * the expected RESULT lines, and the trace holds exactly the documented
 * launch sequence (kernel names in order, `trace info --json`).
 *
 * Command line (after GLib's test options), from tests/validation/meson.build:
 *   --cli PATH      warpscope-cli
 *   then one group of three arguments per case: NAME PROGRAM SPEC
 * PROGRAM is the built program or "-" when nvcc was not found (skipped).
 * SPEC is a ';'-separated list of
 *   gpu=NAME          catalogue GPU for `profile --gpu` (required)
 *   args=A B C        program arguments (split on spaces)
 *   launches=S*N,...  the launch sequence: N consecutive launches whose
 *                     kernel name contains S, group after group, nothing more
 *   results=N         number of RESULT lines
 *   require=K=V       every RESULT line has the field K=V (repeatable)
 * The test path is /validation/NAME.  Every run uses a temporary database.
 */
#include <glib.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <string.h>
#include <sys/wait.h>

#include "example-run.h"

#define PROGRAM_TIMEOUT_S "120"

typedef struct {
  char *name;
  char *program; /* NULL when not built */
  char *gpu;
  char **args;
  char *launches;
  int results;
  GPtrArray *require; /* "key=value" */
} Case;

static char *cli_path;

static void
case_free (gpointer data)
{
  Case *c = data;
  g_free (c->name);
  g_free (c->program);
  g_free (c->gpu);
  g_strfreev (c->args);
  g_free (c->launches);
  g_ptr_array_unref (c->require);
  g_free (c);
}

static Case *
case_parse (const char *name, const char *program, const char *spec)
{
  Case *c = g_new0 (Case, 1);
  c->name = g_strdup (name);
  c->program = g_strcmp0 (program, "-") == 0 ? NULL : g_canonicalize_filename (program, NULL);
  c->results = -1;
  c->require = g_ptr_array_new_with_free_func (g_free);
  g_auto (GStrv) items = g_strsplit (spec, ";", -1);
  for (char **it = items; *it; it++)
    {
      if (g_str_has_prefix (*it, "gpu="))
        c->gpu = g_strdup (*it + 4);
      else if (g_str_has_prefix (*it, "args="))
        c->args = g_strsplit_set (*it + 5, " ", -1);
      else if (g_str_has_prefix (*it, "launches="))
        c->launches = g_strdup (*it + 9);
      else if (g_str_has_prefix (*it, "results="))
        c->results = atoi (*it + 8);
      else if (g_str_has_prefix (*it, "require="))
        g_ptr_array_add (c->require, g_strdup (*it + 8));
      else if (**it)
        g_error ("case %s: unknown spec item '%s'", name, *it);
    }
  if (!c->gpu || !c->launches || c->results < 0)
    g_error ("case %s: gpu=, launches= and results= are required", name);
  return c;
}

/* Runs argv (NULL-terminated) in @dir; the exit code, or -1 when it did not
 * exit normally; stdout/stderr in @out/@err. */
static int
run (const char *dir, char **argv, char **out, char **err)
{
  g_autoptr (GError) error = NULL;
  int status = 0;
  gboolean spawned = g_spawn_sync (dir, argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, out, err, &status, &error);
  g_assert_no_error (error);
  g_assert_true (spawned);
  return WIFEXITED (status) ? WEXITSTATUS (status) : -1;
}

/* The RESULT lines: count and required fields.  NULL when fine. */
static char *
check_results (const Case *c, const char *out)
{
  g_auto (GStrv) lines = g_strsplit (out, "\n", -1);
  int count = 0;
  for (char **l = lines; *l; l++)
    {
      if (!g_str_has_prefix (*l, "RESULT "))
        continue;
      count++;
      g_auto (GStrv) fields = g_strsplit (*l + 7, " ", -1);
      for (guint r = 0; r < c->require->len; r++)
        {
          gboolean found = FALSE;
          for (char **f = fields; *f && !found; f++)
            found = g_strcmp0 (*f, c->require->pdata[r]) == 0;
          if (!found)
            return g_strdup_printf ("RESULT line '%s' lacks %s", *l, (const char *) c->require->pdata[r]);
        }
    }
  if (count != c->results)
    return g_strdup_printf ("%d RESULT lines, expected %d", count, c->results);
  return NULL;
}

/* The trace's launches against the launch sequence.  NULL when fine. */
static char *
check_launches (const Case *c, const char *tmp, const char *db, const char *trace)
{
  char *argv[] = { cli_path,        (char *) "--db", (char *) db,       (char *) "trace",
                   (char *) "info", (char *) trace,  (char *) "--json", NULL };
  g_autofree char *out = NULL, *err = NULL;
  if (run (tmp, argv, &out, &err) != 0)
    return g_strdup_printf ("trace info failed: %s", err ? err : "");
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;
  if (!json_parser_load_from_data (parser, out, -1, &error))
    return g_strdup_printf ("trace info printed no JSON: %s", error->message);
  JsonNode *root = json_parser_get_root (parser);
  JsonObject *o = root && JSON_NODE_HOLDS_OBJECT (root) ? json_node_get_object (root) : NULL;
  JsonArray *list = o && json_object_has_member (o, "launches") ? json_object_get_array_member (o, "launches") : NULL;
  if (!list)
    return g_strdup ("trace info has no \"launches\" array");
  guint n = json_array_get_length (list), at = 0;
  g_auto (GStrv) groups = g_strsplit (c->launches, ",", -1);
  for (char **g = groups; *g; g++)
    {
      g_auto (GStrv) part = g_strsplit (*g, "*", 2);
      guint count = part[1] ? (guint) atoi (part[1]) : 1;
      for (guint k = 0; k < count; k++, at++)
        {
          if (at >= n)
            return g_strdup_printf ("the trace has %u launches; the sequence %s needs more", n, c->launches);
          JsonObject *l = json_array_get_object_element (list, at);
          const char *kernel = l ? json_object_get_string_member_with_default (l, "kernel", "") : "";
          if (!strstr (kernel, part[0]))
            return g_strdup_printf ("launch %u is of kernel %s, expected a name containing %s", at, kernel, part[0]);
        }
    }
  if (at != n)
    return g_strdup_printf ("the trace has %u launches, the sequence %s only %u", n, c->launches, at);
  return NULL;
}

static void
test_case (gconstpointer data)
{
  const Case *c = data;
  if (!c->program)
    {
      g_test_skip ("nvcc was not found at configure time: CUDA programs are not built");
      return;
    }
  g_assert_nonnull (cli_path);

  g_autoptr (GError) error = NULL;
  g_autofree char *tmp = g_dir_make_tmp ("ws-validation-XXXXXX", &error);
  g_assert_no_error (error);
  g_autofree char *trace = g_build_filename (tmp, "trace", NULL);
  g_autofree char *db = g_build_filename (tmp, "warpscope.db", NULL);

  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  const char *fixed[] = { "timeout", PROGRAM_TIMEOUT_S, cli_path, "--db", db, "profile", "--gpu", c->gpu, "-o", trace,
                          "--",      c->program };
  for (guint k = 0; k < G_N_ELEMENTS (fixed); k++)
    g_ptr_array_add (argv, (char *) fixed[k]);
  for (char **a = c->args; a && *a; a++)
    if (**a)
      g_ptr_array_add (argv, *a);
  g_ptr_array_add (argv, NULL);
  g_autofree char *cmdline = g_strjoinv (" ", (char **) argv->pdata);
  g_test_message ("running: %s", cmdline);

  g_autofree char *out = NULL, *err = NULL;
  int code = run (tmp, (char **) argv->pdata, &out, &err);
  g_autofree char *problem = NULL;
  if (code != 0)
    problem = g_strdup_printf ("exit code %d", code);
  else if (!out || !(g_str_has_prefix (out, "PASSED\n") || strstr (out, "\nPASSED\n")))
    problem = g_strdup ("no PASSED line");
  else if (strstr (out, "FAILED"))
    problem = g_strdup ("a FAILED line");
  else
    problem = check_results (c, out);
  if (!problem)
    problem = check_launches (c, tmp, db, trace);

  if (problem || g_test_verbose ())
    {
      g_autofree char *out_tail = tail (out, 3000);
      g_autofree char *err_tail = tail (err, 3000);
      g_test_message ("%s: exit %d\n--- stdout (tail) ---\n%s\n--- stderr (tail) ---\n%s", c->name, code, out_tail,
                      err_tail);
    }
  if (problem)
    g_test_fail_printf ("%s on %s: %s", c->name, c->gpu, problem);
  remove_tree (tmp);
}

int
main (int argc, char **argv)
{
  test_init_keep_going (&argc, &argv);

  g_autoptr (GPtrArray) cases = g_ptr_array_new_with_free_func (case_free);
  int i = 1;
  while (i < argc)
    {
      if (g_strcmp0 (argv[i], "--cli") == 0 && i + 1 < argc)
        {
          cli_path = g_canonicalize_filename (argv[i + 1], NULL);
          i += 2;
        }
      else if (i + 2 < argc)
        {
          g_ptr_array_add (cases, case_parse (argv[i], argv[i + 1], argv[i + 2]));
          i += 3;
        }
      else
        {
          g_printerr ("test-validation: incomplete case group at '%s'\n", argv[i]);
          return 2;
        }
    }
  for (guint k = 0; k < cases->len; k++)
    {
      Case *c = cases->pdata[k];
      g_autofree char *path = g_strdup_printf ("/validation/%s", c->name);
      g_test_add_data_func (path, c, test_case);
    }
  return g_test_run ();
}
