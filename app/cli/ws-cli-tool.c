/* warpscope-cli tool: SASSI-style instrumentation tools on the emulator
 * (seed 003; docs/instrumentation.md).
 *
 *   tool branch|memdiv|value [OPTIONS] -- PROGRAM ARGS
 *     runs the program once under `profile --tool NAME`, in the current
 *     directory as `profile` does (relative paths work, files it writes stay
 *     here), and prints the result (JSON with --json); the program's own
 *     stdout goes to stderr.  Only the summary and, without -o, the result
 *     pass through a temporary folder, removed afterwards.
 *   tool run ./HANDLER.so[:ARGS] [OPTIONS] -- PROGRAM ARGS
 *     the same with a handler library (issue 21): its JSON result is
 *     printed and kept as PREFIX.NAME.json next to its own files.
 *   Either way the child `profile` keeps the result in the store (table
 *   tool_result; a handler's row names its library in `handler`).
 *   tool faults [--injections N] [--seed S] [--jobs J] [--timeout SEC]
 *               [--output-file FILE]... -- PROGRAM ARGS
 *     statistical single-bit fault injection (§8): a golden run measures the
 *     injection space, N sites are drawn with a seeded gsl_rng_mt19937, and
 *     each site is one run of the program (a child `profile` process in its
 *     own directory) classified as masked, sdc, crash, hang or symptom. */
#include "ws-config.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "ws-cli.h"
#include "instrument/ws-instrument.h"

int ws_cli_cmd_tool (WsCli *cli, int argc, char **argv);

typedef struct {
  WsCli *cli;
  char *self;         /* this executable */
  char *timeout_prog; /* coreutils timeout, or NULL */
  char *program;      /* absolute */
  char **args;        /* program arguments (borrowed) */
  int n_args;
  char *gpu;
  int threads;
  gboolean deterministic;
} Runner;

typedef struct {
  int exit_code; /* of the profiled program; 124/137 = killed by the time limit */
  gboolean timed_out;
  char *out;         /* program stdout */
  char *err;         /* stderr of the program and of profile */
  JsonNode *summary; /* profile --summary */
} RunResult;

static void
run_result_clear (RunResult *r)
{
  g_free (r->out);
  g_free (r->err);
  if (r->summary)
    json_node_unref (r->summary);
  memset (r, 0, sizeof *r);
}

static JsonNode *
load_json (const char *path)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  if (!json_parser_load_from_file (parser, path, NULL) || json_parser_get_root (parser) == NULL)
    return NULL;
  return json_node_copy (json_parser_get_root (parser));
}

/* Runs `warpscope-cli profile --tool T... -- PROGRAM ARGS` in @cwd (NULL:
 * the current directory); the summary goes to @dir. */
static gboolean
run_profile (Runner *rn, const char *cwd, const char *dir, const char *const *tools, const char *prefix,
             char **extra_env, int threads, int time_limit, RunResult *res, GError **error)
{
  g_autoptr (GPtrArray) av = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *summary = g_build_filename (dir, "profile-summary.json", NULL);
  if (rn->timeout_prog != NULL && time_limit > 0)
    {
      g_ptr_array_add (av, g_strdup (rn->timeout_prog));
      g_ptr_array_add (av, g_strdup ("-s"));
      g_ptr_array_add (av, g_strdup ("KILL"));
      g_ptr_array_add (av, g_strdup_printf ("%d", time_limit));
    }
  g_ptr_array_add (av, g_strdup (rn->self));
  if (rn->cli->db_path != NULL)
    {
      g_ptr_array_add (av, g_strdup ("--db"));
      g_ptr_array_add (av, g_canonicalize_filename (rn->cli->db_path, NULL));
    }
  g_ptr_array_add (av, g_strdup ("--quiet"));
  g_ptr_array_add (av, g_strdup ("profile"));
  g_ptr_array_add (av, g_strdup ("--summary"));
  g_ptr_array_add (av, g_strdup (summary));
  for (guint i = 0; tools[i] != NULL; i++)
    {
      g_ptr_array_add (av, g_strdup ("--tool"));
      g_ptr_array_add (av, g_strdup (tools[i]));
    }
  g_ptr_array_add (av, g_strdup ("--tool-output"));
  g_ptr_array_add (av, g_strdup (prefix));
  if (threads >= 0)
    {
      g_ptr_array_add (av, g_strdup ("--threads"));
      g_ptr_array_add (av, g_strdup_printf ("%d", threads));
    }
  if (rn->deterministic)
    g_ptr_array_add (av, g_strdup ("--deterministic"));
  if (rn->gpu != NULL)
    {
      g_ptr_array_add (av, g_strdup ("--gpu"));
      g_ptr_array_add (av, g_strdup (rn->gpu));
    }
  g_ptr_array_add (av, g_strdup ("--"));
  g_ptr_array_add (av, g_strdup (rn->program));
  for (int i = 0; i < rn->n_args; i++)
    g_ptr_array_add (av, g_strdup (rn->args[i]));
  g_ptr_array_add (av, NULL);

  char **envp = g_get_environ ();
  for (guint i = 0; extra_env != NULL && extra_env[i] != NULL && extra_env[i + 1] != NULL; i += 2)
    envp = g_environ_setenv (envp, extra_env[i], extra_env[i + 1], TRUE);
  int status = 0;
  gboolean ok = g_spawn_sync (cwd, (char **) av->pdata, envp, G_SPAWN_DEFAULT, NULL, NULL, &res->out, &res->err,
                              &status, error);
  g_strfreev (envp);
  if (!ok)
    return FALSE;
  if (WIFEXITED (status))
    res->exit_code = WEXITSTATUS (status);
  else if (WIFSIGNALED (status))
    res->exit_code = 128 + WTERMSIG (status);
  else
    res->exit_code = 1;
  /* timeout(1) exits 124 (or 137 with -s KILL) when the limit is hit */
  res->timed_out = rn->timeout_prog != NULL && time_limit > 0 && (res->exit_code == 124 || res->exit_code == 137);
  res->summary = load_json (summary);
  if (res->summary != NULL && JSON_NODE_HOLDS_OBJECT (res->summary))
    {
      JsonObject *o = json_node_get_object (res->summary);
      if (json_object_has_member (o, "exit_code") && !res->timed_out)
        res->exit_code = (int) json_object_get_int_member (o, "exit_code");
    }
  return TRUE;
}

static const char *
summary_string (const RunResult *r, const char *member)
{
  if (r->summary == NULL || !JSON_NODE_HOLDS_OBJECT (r->summary))
    return NULL;
  JsonObject *o = json_node_get_object (r->summary);
  return json_object_has_member (o, member) ? json_object_get_string_member (o, member) : NULL;
}

static gint64
summary_int (const RunResult *r, const char *member)
{
  if (r->summary == NULL || !JSON_NODE_HOLDS_OBJECT (r->summary))
    return 0;
  JsonObject *o = json_node_get_object (r->summary);
  return json_object_has_member (o, member) ? json_object_get_int_member (o, member) : 0;
}

/* ---- branch / memdiv / value ------------------------------------------------------ */

static void
print_text (const char *name, JsonNode *root)
{
  JsonObject *o = json_node_get_object (root);
  if (strcmp (name, "branch") == 0)
    {
      JsonArray *b = json_object_get_array_member (o, "branches");
      printf ("%-40s %8s %8s %12s %10s %10s %10s\n", "kernel", "ptx_line", "src_line", "executions", "divergent",
              "taken", "not_taken");
      for (guint i = 0; i < json_array_get_length (b); i++)
        {
          JsonObject *e = json_array_get_object_element (b, i);
          printf ("%-40s %8" G_GINT64_FORMAT " %8" G_GINT64_FORMAT " %12" G_GINT64_FORMAT " %10" G_GINT64_FORMAT
                  " %10" G_GINT64_FORMAT " %10" G_GINT64_FORMAT "\n",
                  json_object_get_string_member (e, "kernel"), json_object_get_int_member (e, "ptx_line"),
                  json_object_get_int_member (e, "source_line"), json_object_get_int_member (e, "executions"),
                  json_object_get_int_member (e, "divergent"), json_object_get_int_member (e, "taken_threads"),
                  json_object_get_int_member (e, "not_taken_threads"));
        }
      JsonArray *k = json_object_get_array_member (o, "kernels");
      for (guint i = 0; i < json_array_get_length (k); i++)
        {
          JsonObject *e = json_array_get_object_element (k, i);
          printf ("%s: static divergence %.1f %%, dynamic divergence %.1f %%\n",
                  json_object_get_string_member (e, "kernel"),
                  json_object_get_double_member (e, "static_divergence_percent"),
                  json_object_get_double_member (e, "dynamic_divergence_percent"));
        }
    }
  else if (strcmp (name, "memdiv") == 0)
    {
      JsonArray *k = json_object_get_array_member (o, "kernels");
      for (guint i = 0; i < json_array_get_length (k); i++)
        {
          JsonObject *e = json_array_get_object_element (k, i);
          JsonArray *pp = json_object_get_array_member (e, "per_pc");
          printf ("%s\n  %8s %12s %18s\n", json_object_get_string_member (e, "kernel"), "ptx_line", "executions",
                  "mean_unique_lines");
          for (guint j = 0; j < json_array_get_length (pp); j++)
            {
              JsonObject *p = json_array_get_object_element (pp, j);
              printf ("  %8" G_GINT64_FORMAT " %12" G_GINT64_FORMAT " %18.2f\n",
                      json_object_get_int_member (p, "ptx_line"), json_object_get_int_member (p, "executions"),
                      json_object_get_double_member (p, "mean_unique_lines"));
            }
        }
    }
  else
    {
      JsonArray *k = json_object_get_array_member (o, "kernels");
      printf ("%-40s %10s %10s %12s %12s\n", "kernel", "scalar_st%", "scalar_dyn%", "constbits_st%", "constbits_dyn%");
      for (guint i = 0; i < json_array_get_length (k); i++)
        {
          JsonObject *e = json_array_get_object_element (k, i);
          printf ("%-40s %10.1f %10.1f %12.1f %12.1f\n", json_object_get_string_member (e, "kernel"),
                  json_object_get_double_member (e, "static_scalar_percent"),
                  json_object_get_double_member (e, "dynamic_scalar_percent"),
                  json_object_get_double_member (e, "static_constant_bits_percent"),
                  json_object_get_double_member (e, "dynamic_constant_bits_percent"));
        }
    }
}

static void rm_rf (const char *dir);

/* @spec: a built-in tool's name, or a handler library PATH[:ARGS] */
static int
run_simple_tool (Runner *rn, const char *spec, const char *trace_output)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *lib_name = NULL, *lib_spec = NULL;
  gboolean library = ws_instrument_spec_is_library (spec);
  if (library)
    {
      /* checked (ABI, query symbol) before the program runs */
      g_autofree char *args = NULL;
      g_autofree char *path = ws_instrument_spec_split (spec, &args);
      g_autofree char *abs = g_canonicalize_filename (path, NULL);
      lib_name = ws_instrument_probe_library (abs, &error);
      if (lib_name == NULL)
        return ws_cli_fail (rn->cli, WS_EXIT_USAGE, "%s", error->message);
      lib_spec = *args ? g_strconcat (abs, ":", args, NULL) : g_strdup (abs);
    }
  const char *name = library ? lib_name : spec;
  g_autofree char *tmp = g_dir_make_tmp ("warpscope-tool-XXXXXX", &error);
  if (tmp == NULL)
    return ws_cli_fail_error (rn->cli, error);
  /* A handler's own files go next to its JSON result (PREFIX.NAME.*): in
   * the current directory, as under profile --tool, unless -o says where. */
  g_autofree char *base = g_path_get_basename (rn->program);
  g_autofree char *prefix = trace_output != NULL ? g_canonicalize_filename (trace_output, NULL)
                            : library            ? g_canonicalize_filename (base, NULL)
                                                 : g_build_filename (tmp, "result", NULL);
  const char *tools[] = { library ? lib_spec : spec, NULL };
  RunResult res = { 0 };
  if (!run_profile (rn, NULL, tmp, tools, prefix, NULL, rn->threads, 0, &res, &error))
    {
      rm_rf (tmp);
      return ws_cli_fail (rn->cli, WS_EXIT_FAILURE, _ ("cannot run %s: %s"), rn->program, error->message);
    }
  if (!rn->cli->quiet && res.out != NULL)
    fputs (res.out, stderr);
  if (res.err != NULL)
    fputs (res.err, stderr);
  g_autofree char *path = g_strdup_printf ("%s.%s.json", prefix, name);
  g_autoptr (JsonNode) root = load_json (path);
  int code = res.exit_code;
  run_result_clear (&res);
  rm_rf (tmp);
  if (root == NULL && code != 0)
    return ws_cli_fail (rn->cli, WS_EXIT_FAILURE,
                        _ ("%s failed (exit code %d) and wrote no %s result; its messages are above"), rn->program,
                        code, name);
  if (root == NULL && library)
    {
      ws_cli_info (rn->cli, _ ("handler '%s' gave no JSON result (its own files, if any, start with %s.%s)"), name,
                   prefix, name);
      return WS_EXIT_OK;
    }
  if (root == NULL)
    return ws_cli_fail (
      rn->cli, WS_EXIT_FAILURE,
      _ ("%s wrote no %s result (exit code %d): did it load the Warpscope runtime and launch kernels?"), rn->program,
      name, code);
  if (rn->cli->json || library)
    ws_cli_print_json (rn->cli, root);
  else
    print_text (name, root);
  if (code != 0)
    ws_cli_info (rn->cli, _ ("note: %s exited with code %d"), rn->program, code);
  return code == 0 ? WS_EXIT_OK : WS_EXIT_FAILURE;
}

/* ---- faults ---------------------------------------------------------------------- */

typedef enum { O_MASKED, O_SDC, O_CRASH, O_HANG, O_SYMPTOM, O_COUNT } Outcome;
static const char *const outcome_names[O_COUNT] = { "masked", "sdc", "crash", "hang", "symptom" };

typedef struct {
  Runner *rn;
  char *work;
  WsFaultSite *sites;
  guint n;
  gint next; /* atomic */
  char *golden_out;
  GPtrArray *golden_files; /* GBytes* per --output-file (NULL: missing) */
  char **output_files;
  gint64 golden_errors;
  char *budget;
  int time_limit;
  /* per site */
  Outcome *outcome;
  int *exit_code;
  char **error;
  JsonNode **injection;
} Campaign;

static GBytes *
read_file_bytes (const char *dir, const char *name)
{
  g_autofree char *path = g_path_is_absolute (name) ? g_strdup (name) : g_build_filename (dir, name, NULL);
  char *data = NULL;
  gsize len = 0;
  if (!g_file_get_contents (path, &data, &len, NULL))
    return NULL;
  return g_bytes_new_take (data, len);
}

static void
rm_rf (const char *dir)
{
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;
  while (d != NULL && (name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *p = g_build_filename (dir, name, NULL);
      if (g_file_test (p, G_FILE_TEST_IS_DIR) && !g_file_test (p, G_FILE_TEST_IS_SYMLINK))
        rm_rf (p);
      else
        g_unlink (p);
    }
  g_rmdir (dir);
}

/* Outcome of one run (precedence: hang, crash, symptom, sdc, masked):
 *   hang    - killed by the wall-clock limit, or the emulator's instruction
 *             budget ran out (cudaErrorLaunchTimeout);
 *   crash   - non-zero exit, death by a signal, or a kernel fault of the
 *             emulator (a sticky CUDA error);
 *   symptom - exit 0 and no kernel fault, but the runtime returned more
 *             CUDA errors to the program than in the golden run;
 *   sdc     - stdout or an --output-file differs from the golden run;
 *   masked  - none of these. */
static Outcome
classify (Campaign *cp, const char *dir, const RunResult *r)
{
  const char *err = summary_string (r, "error");
  if (r->timed_out || (err != NULL && strcmp (err, "cudaErrorLaunchTimeout") == 0))
    return O_HANG;
  if (r->exit_code != 0 || err != NULL || r->summary == NULL)
    return O_CRASH;
  if (summary_int (r, "errors_reported") > cp->golden_errors)
    return O_SYMPTOM;
  if (g_strcmp0 (r->out, cp->golden_out) != 0)
    return O_SDC;
  for (guint i = 0; cp->output_files != NULL && cp->output_files[i] != NULL; i++)
    {
      g_autoptr (GBytes) b = read_file_bytes (dir, cp->output_files[i]);
      GBytes *g = g_ptr_array_index (cp->golden_files, i);
      if ((b == NULL) != (g == NULL) || (b != NULL && !g_bytes_equal (b, g)))
        return O_SDC;
    }
  return O_MASKED;
}

static gpointer
campaign_worker (gpointer data)
{
  Campaign *cp = data;
  for (;;)
    {
      gint i = g_atomic_int_add (&cp->next, 1);
      if (i >= (gint) cp->n)
        break;
      g_autofree char *dir = g_strdup_printf ("%s/run-%d", cp->work, i);
      g_mkdir_with_parents (dir, 0700);
      g_autofree char *site = ws_fault_site_to_string (&cp->sites[i]);
      /* ptxas only measures resources (registers, shared memory) that a
       * functional run does not need: skipped in the injection runs. */
      char *env[] = { "WS_FAULT_SITE", site, "WS_INSTRUCTION_BUDGET", cp->budget, "WS_PTXAS", "", NULL, NULL };
      const char *tools[] = { "faults-inject", NULL };
      g_autofree char *prefix = g_build_filename (dir, "result", NULL);
      RunResult res = { 0 };
      g_autoptr (GError) error = NULL;
      if (!run_profile (cp->rn, dir, dir, tools, prefix, env, 1, cp->time_limit, &res, &error))
        {
          cp->outcome[i] = O_CRASH;
          cp->error[i] = g_strdup (error->message);
        }
      else
        {
          cp->outcome[i] = classify (cp, dir, &res);
          cp->exit_code[i] = res.exit_code;
          const char *e = summary_string (&res, "error");
          cp->error[i] = g_strdup (e != NULL ? e : res.timed_out ? "time limit" : NULL);
          g_autofree char *ipath = g_strdup_printf ("%s.faults-inject.json", prefix);
          cp->injection[i] = load_json (ipath);
        }
      run_result_clear (&res);
      rm_rf (dir);
    }
  return NULL;
}

static int
run_faults (Runner *rn, int injections, guint64 seed, int jobs, int timeout_s, char **output_files)
{
  WsCli *cli = rn->cli;
  g_autoptr (GError) error = NULL;
  g_autofree char *work = g_dir_make_tmp ("warpscope-faults-XXXXXX", &error);
  if (work == NULL)
    return ws_cli_fail_error (cli, error);

  /* Golden run: reference output and the injection space. */
  g_autofree char *gdir = g_build_filename (work, "golden", NULL);
  g_mkdir_with_parents (gdir, 0700);
  g_autofree char *gprefix = g_build_filename (gdir, "result", NULL);
  const char *gtools[] = { "faults-profile", NULL };
  RunResult golden = { 0 };
  double t0 = ws_now_seconds ();
  if (!run_profile (rn, gdir, gdir, gtools, gprefix, NULL, rn->threads, 0, &golden, &error))
    {
      rm_rf (work);
      return ws_cli_fail (cli, WS_EXIT_FAILURE, _ ("cannot run %s: %s"), rn->program, error->message);
    }
  double golden_wall = ws_now_seconds () - t0;
  if (golden.exit_code != 0 || summary_string (&golden, "error") != NULL)
    {
      int code = golden.exit_code;
      run_result_clear (&golden);
      rm_rf (work);
      return ws_cli_fail (cli, WS_EXIT_FAILURE,
                          _ ("the golden (fault-free) run of %s failed (exit code %d): fix the program first"),
                          rn->program, code);
    }
  g_autofree char *ppath = g_strdup_printf ("%s.faults-profile.json", gprefix);
  g_autoptr (JsonNode) profile = load_json (ppath);
  guint64 space = 0;
  g_autofree WsFaultSite *sites = ws_fault_pick_sites (profile, (guint) injections, seed, &space, &error);
  if (sites == NULL)
    {
      run_result_clear (&golden);
      rm_rf (work);
      return ws_cli_fail (cli, WS_EXIT_FAILURE, "%s: %s", rn->program, error->message);
    }

  Campaign cp = { 0 };
  cp.rn = rn;
  cp.work = work;
  cp.sites = sites;
  cp.n = (guint) injections;
  cp.golden_out = g_strdup (golden.out != NULL ? golden.out : "");
  cp.golden_errors = summary_int (&golden, "errors_reported");
  cp.output_files = output_files;
  cp.golden_files = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  for (guint i = 0; output_files != NULL && output_files[i] != NULL; i++)
    g_ptr_array_add (cp.golden_files, read_file_bytes (gdir, output_files[i]));
  /* A hang: 20 times the golden run's warp instructions (per launch, so
   * generous) or the wall-clock limit. */
  guint64 winst = (guint64) summary_int (&golden, "warp_instructions");
  cp.budget = g_strdup_printf ("%" G_GUINT64_FORMAT, MAX (winst * 20, (guint64) 1000000));
  cp.time_limit = timeout_s > 0 ? timeout_s : (int) MAX (10.0, 20.0 * golden_wall);
  cp.outcome = g_new0 (Outcome, cp.n);
  cp.exit_code = g_new0 (int, cp.n);
  cp.error = g_new0 (char *, cp.n);
  cp.injection = g_new0 (JsonNode *, cp.n);
  run_result_clear (&golden);

  int nw = jobs > 0 ? jobs : (int) g_get_num_processors ();
  g_autoptr (GPtrArray) threads = g_ptr_array_new ();
  for (int i = 1; i < nw && i < injections; i++)
    g_ptr_array_add (threads, g_thread_new ("faults", campaign_worker, &cp));
  campaign_worker (&cp);
  for (guint i = 0; i < threads->len; i++)
    g_thread_join (g_ptr_array_index (threads, i));

  guint counts[O_COUNT] = { 0 };
  for (guint i = 0; i < cp.n; i++)
    counts[cp.outcome[i]]++;

  g_autoptr (JsonBuilder) b = json_builder_new ();
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "program");
  json_builder_add_string_value (b, rn->program);
  json_builder_set_member_name (b, "seed");
  json_builder_add_int_value (b, (gint64) seed);
  json_builder_set_member_name (b, "injections");
  json_builder_add_int_value (b, injections);
  json_builder_set_member_name (b, "injection_space");
  json_builder_add_int_value (b, (gint64) space);
  json_builder_set_member_name (b, "instruction_budget");
  json_builder_add_int_value (b, (gint64) g_ascii_strtoull (cp.budget, NULL, 10));
  json_builder_set_member_name (b, "time_limit_seconds");
  json_builder_add_int_value (b, cp.time_limit);
  json_builder_set_member_name (b, "summary");
  json_builder_begin_object (b);
  for (int o = 0; o < O_COUNT; o++)
    {
      json_builder_set_member_name (b, outcome_names[o]);
      json_builder_add_int_value (b, counts[o]);
    }
  json_builder_end_object (b);
  json_builder_set_member_name (b, "sites");
  json_builder_begin_array (b);
  for (guint i = 0; i < cp.n; i++)
    {
      g_autofree char *site = ws_fault_site_to_string (&sites[i]);
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "site");
      json_builder_add_string_value (b, site);
      json_builder_set_member_name (b, "outcome");
      json_builder_add_string_value (b, outcome_names[cp.outcome[i]]);
      json_builder_set_member_name (b, "exit_code");
      json_builder_add_int_value (b, cp.exit_code[i]);
      if (cp.error[i] != NULL)
        {
          json_builder_set_member_name (b, "error");
          json_builder_add_string_value (b, cp.error[i]);
        }
      if (cp.injection[i] != NULL && JSON_NODE_HOLDS_OBJECT (cp.injection[i]))
        {
          JsonObject *io = json_node_get_object (cp.injection[i]);
          static const char *const keep[] = { "injected",  "kernel",      "ptx_line", "source_line", "lane",
                                              "predicate", "destination", "bit",      NULL };
          for (guint k = 0; keep[k] != NULL; k++)
            if (json_object_has_member (io, keep[k]))
              {
                json_builder_set_member_name (b, keep[k]);
                json_builder_add_value (b, json_node_copy (json_object_get_member (io, keep[k])));
              }
        }
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_end_object (b);
  g_autoptr (JsonNode) root = json_builder_get_root (b);
  WsStore *store = ws_cli_store (cli);
  g_autofree const char **args_z = g_new0 (const char *, rn->n_args + 1);
  for (int i = 0; i < rn->n_args; i++)
    args_z[i] = rn->args[i];
  if (store != NULL
      && !ws_instrument_store_result (ws_store_get_db (store), "faults", NULL, rn->program, args_z, NULL, root, &error))
    ws_cli_info (cli, "%s", error->message);

  if (cli->json)
    ws_cli_print_json (cli, root);
  else
    {
      printf ("%d injections into %s (seed %" G_GUINT64_FORMAT ", injection space %" G_GUINT64_FORMAT
              " thread-level register writes)\n",
              injections, rn->program, seed, space);
      for (int o = 0; o < O_COUNT; o++)
        printf ("  %-8s %5u  %5.1f %%\n", outcome_names[o], counts[o], 100.0 * counts[o] / MAX (injections, 1));
    }

  for (guint i = 0; i < cp.n; i++)
    {
      g_free (cp.error[i]);
      if (cp.injection[i])
        json_node_unref (cp.injection[i]);
    }
  g_free (cp.outcome);
  g_free (cp.exit_code);
  g_free (cp.error);
  g_free (cp.injection);
  g_free (cp.golden_out);
  g_free (cp.budget);
  g_ptr_array_free (cp.golden_files, TRUE);
  rm_rf (work);
  return WS_EXIT_OK;
}

/* ---- command ----------------------------------------------------------------------- */

static int
program_index (int argc, char **argv, int first)
{
  static const char *const with_value[] = { "-o",     "--output", "--gpu",     "--threads",     "--injections",
                                            "--seed", "--jobs",   "--timeout", "--output-file", NULL };
  for (int i = first; i < argc; i++)
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

int
ws_cli_cmd_tool (WsCli *cli, int argc, char **argv)
{
  static const char *const names[] = { "branch", "memdiv", "value", "faults", "run", NULL };
  if (argc < 2 || argv[1][0] == '-')
    return ws_cli_fail (cli, WS_EXIT_USAGE,
                        _ ("usage: warpscope-cli tool branch|memdiv|value|faults [OPTIONS] -- PROGRAM [ARGS]\n"
                           "       warpscope-cli tool run ./HANDLER.so[:ARGS] [OPTIONS] -- PROGRAM [ARGS]"));
  const char *name = argv[1];
  if (!g_strv_contains (names, name))
    return ws_cli_fail (cli, WS_EXIT_USAGE, _ ("unknown tool '%s' (known: branch, memdiv, value, faults, run)"), name);
  /* tool run SPEC: the handler library is the next argument */
  const char *handler = NULL;
  if (strcmp (name, "run") == 0)
    {
      if (argc < 3 || argv[2][0] == '-' || !ws_instrument_spec_is_library (argv[2]))
        return ws_cli_fail (cli, WS_EXIT_USAGE,
                            _ ("usage: warpscope-cli tool run ./HANDLER.so[:ARGS] [OPTIONS] -- PROGRAM [ARGS] "
                               "(the handler is a path: write ./ for one in this folder)"));
      handler = argv[2];
      argv++;
      argc--;
    }

  g_autofree char *output = NULL, *gpu = NULL;
  g_auto (GStrv) output_files = NULL;
  int threads = -1, injections = 200, jobs = 0, timeout_s = 0;
  gint64 seed = 1;
  gboolean deterministic = FALSE;
  const GOptionEntry entries[] = {
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output, N_ ("Keep the result as PREFIX.NAME.json"), "PREFIX" },
    { "gpu", 0, 0, G_OPTION_ARG_STRING, &gpu, N_ ("Target GPU from the catalogue"), "NAME" },
    { "threads", 0, 0, G_OPTION_ARG_INT, &threads, N_ ("Emulator worker threads"), "N" },
    { "deterministic", 0, 0, G_OPTION_ARG_NONE, &deterministic, N_ ("Run thread blocks one at a time, in order"),
      NULL },
    { "injections", 0, 0, G_OPTION_ARG_INT, &injections, N_ ("faults: number of injection runs (default 200)"), "N" },
    { "seed", 0, 0, G_OPTION_ARG_INT64, &seed, N_ ("faults: random seed (default 1)"), "S" },
    { "jobs", 0, 0, G_OPTION_ARG_INT, &jobs, N_ ("faults: runs in parallel (default: CPUs)"), "J" },
    { "timeout", 0, 0, G_OPTION_ARG_INT, &timeout_s,
      N_ ("faults: seconds before a run counts as a hang (default: 20 x the golden run, at least 10)"), "SEC" },
    { "output-file", 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &output_files,
      N_ ("faults: a file the program writes (relative to its directory), compared with the golden run"), "FILE" },
    { NULL }
  };
  int prog = program_index (argc, argv, 2);
  int opt_argc = MIN (prog, argc) - 1; /* argv[1..] with the tool name as argv[0] */
  if (opt_argc > 1 && strcmp (argv[opt_argc], "--") == 0)
    opt_argc--;
  g_autofree char **opt_argv = g_new0 (char *, opt_argc + 1);
  for (int i = 0; i < opt_argc; i++)
    opt_argv[i] = argv[i + 1];
  char **parse_argv = opt_argv;
  if (!ws_cli_parse_options (cli, &opt_argc, &parse_argv, entries, _ ("[--] PROGRAM [ARGS...]"),
                             _ ("Run an instrumentation tool on a CUDA program (seed 003)")))
    return WS_EXIT_USAGE;
  if (opt_argc > 1)
    return ws_cli_fail (cli, WS_EXIT_USAGE, _ ("unexpected argument '%s' before the program"), parse_argv[1]);
  if (prog >= argc)
    return ws_cli_fail (cli, WS_EXIT_USAGE, _ ("no program given: warpscope-cli tool %s [OPTIONS] -- PROGRAM [ARGS]"),
                        name);
  if (injections < 1 || injections > 1000000)
    return ws_cli_fail (cli, WS_EXIT_USAGE, _ ("--injections must be between 1 and 1000000"));
  if (seed < 0)
    return ws_cli_fail (cli, WS_EXIT_USAGE, _ ("--seed must not be negative"));

  g_autofree char *found = strchr (argv[prog], '/') != NULL ? g_strdup (argv[prog])
                                                            : g_find_program_in_path (argv[prog]);
  if (found == NULL || !g_file_test (found, G_FILE_TEST_IS_REGULAR))
    return ws_cli_fail (cli, WS_EXIT_USAGE, _ ("program '%s' not found"), argv[prog]);

  Runner rn = { 0 };
  rn.cli = cli;
  rn.self = g_file_read_link ("/proc/self/exe", NULL);
  rn.timeout_prog = g_find_program_in_path ("timeout");
  rn.program = g_canonicalize_filename (found, NULL);
  rn.args = argv + prog + 1;
  rn.n_args = argc - prog - 1;
  rn.gpu = gpu;
  rn.threads = threads;
  rn.deterministic = deterministic;
  int code;
  if (rn.self == NULL)
    code = ws_cli_fail (cli, WS_EXIT_FAILURE, _ ("cannot find warpscope-cli's own executable"));
  else if (strcmp (name, "faults") == 0)
    code = run_faults (&rn, injections, (guint64) seed, jobs, timeout_s, output_files);
  else
    code = run_simple_tool (&rn, handler != NULL ? handler : name, output);
  g_free (rn.self);
  g_free (rn.timeout_prog);
  g_free (rn.program);
  return code;
}
