/* ws-system-ondemand.c: kernels profiled on demand.  A kernel operation with
 * "program" and "args" stands for the launches of that program run with its
 * arguments evaluated at each point, so a sweep over N gets the trace of the
 * program for that N.  Each distinct (program, arguments) is profiled once
 * per cache (one WsSystemEnv), on the emulator through core/launch, into
 * TRACE_DIR/on-demand/PROGRAM-HASH.wstrace; a later run reuses the file while
 * it is newer than the program. */
#include <string.h>
#include <sys/stat.h>
#include <glib/gstdio.h>
#include "system/ws-system-private.h"
#include "launch/ws-launch.h"

typedef struct {
  GMutex lock; /* held while the program is profiled */
  gint done;   /* atomic; once set, t and error are final */
  AppOnDemandTrace t;
  GError *error; /* the program failed (a cancelled run is not kept) */
} Entry;

struct _AppOnDemand {
  char *dir;           /* TRACE_DIR/on-demand */
  char *db;            /* the catalogue the runtime reads */
  GMutex lock;         /* guards entries and order, never held while a program runs */
  GHashTable *entries; /* key -> Entry* */
  GPtrArray *order;    /* of Entry*, in first-use order */
};

static void
entry_free (gpointer p)
{
  Entry *e = p;
  g_mutex_clear (&e->lock);
  g_free (e->t.trace);
  g_free (e->t.command);
  g_free (e->t.stderr_tail);
  g_clear_error (&e->error);
  g_free (e);
}

AppOnDemand *
ws_app_ondemand_new (const char *trace_dir, const char *db)
{
  AppOnDemand *od = g_new0 (AppOnDemand, 1);
  od->dir = g_build_filename (trace_dir, "on-demand", NULL);
  od->db = g_strdup (db);
  g_mutex_init (&od->lock);
  od->entries = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, entry_free);
  od->order = g_ptr_array_new ();
  return od;
}

void
ws_app_ondemand_free (AppOnDemand *od)
{
  if (od == NULL)
    return;
  g_ptr_array_unref (od->order);
  g_hash_table_unref (od->entries);
  g_mutex_clear (&od->lock);
  g_free (od->dir);
  g_free (od->db);
  g_free (od);
}

char **
ws_app_ondemand_list (AppOnDemand *od)
{
  GPtrArray *out = g_ptr_array_new ();
  g_mutex_lock (&od->lock);
  for (guint i = 0; i < od->order->len; i++)
    {
      Entry *e = od->order->pdata[i];
      if (g_atomic_int_get (&e->done) && e->error == NULL)
        g_ptr_array_add (out, g_strdup (e->t.trace));
    }
  g_mutex_unlock (&od->lock);
  g_ptr_array_add (out, NULL);
  return (char **) g_ptr_array_free (out, FALSE);
}

static gboolean
file_mtime (const char *path, struct timespec *t)
{
  struct stat st;
  if (stat (path, &st) != 0 || !S_ISREG (st.st_mode) || st.st_size == 0)
    return FALSE;
  *t = st.st_mtim;
  return TRUE;
}

/* A trace from an earlier run is reused while the program has not changed since. */
static gboolean
trace_is_current (const char *trace, const char *program)
{
  struct timespec tt, tp;
  if (!file_mtime (trace, &tt) || !file_mtime (program, &tp))
    return FALSE;
  return tt.tv_sec > tp.tv_sec || (tt.tv_sec == tp.tv_sec && tt.tv_nsec >= tp.tv_nsec);
}

/* PROGRAM-HASH.wstrace: the hash covers the program's path and every argument. */
static char *
trace_name (const char *program, char **args)
{
  GString *key = g_string_new (program);
  for (guint i = 0; args[i] != NULL; i++)
    {
      g_string_append_c (key, '\0');
      g_string_append (key, args[i]);
    }
  g_autofree char *sum = g_compute_checksum_for_data (G_CHECKSUM_SHA256, (const guchar *) key->str, key->len);
  g_string_free (key, TRUE);
  g_autofree char *base = g_path_get_basename (program);
  for (char *p = base; *p; p++)
    if (!g_ascii_isalnum (*p) && *p != '-' && *p != '_' && *p != '.')
      *p = '_';
  return g_strdup_printf ("%s-%.16s.wstrace", base, sum);
}

static char *
tail_text (const char *tail)
{
  return tail != NULL && *tail ? g_strdup_printf ("; the end of its standard error:\n%s", tail)
                               : g_strdup ("; it wrote nothing on standard error");
}

/* Runs the program into e->t.trace.  FALSE with @error (prefixed by the caller). */
static gboolean
profile (AppOnDemand *od, Entry *e, const char *program, char **args, GCancellable *cancellable, GError **error)
{
  if (!ws_launch_check_program (program, error))
    return FALSE;
  if (g_mkdir_with_parents (od->dir, 0755) != 0)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_IO, "cannot create the trace folder '%s'", od->dir);
      return FALSE;
    }
  /* Written under another name and renamed when complete, so a killed run
   * leaves no trace that a later run would take for a finished one. */
  g_autofree char *part = g_strdup_printf ("%s.part-%08x", e->t.trace, g_random_int ());
  WsLaunchOptions options;
  ws_launch_options_init (&options);
  options.trace = part;
  options.db = od->db;
  options.capture = TRUE;
  g_autoptr (WsLaunchResult) run = ws_launch_run (program, (const char *const *) args, &options, cancellable, error);
  if (run == NULL)
    {
      g_unlink (part);
      return FALSE;
    }
  e->t.stderr_tail = g_strdup (run->stderr_tail);
  g_autofree char *tail = tail_text (run->stderr_tail);
  if (run->exit_code != 0)
    {
      g_unlink (part);
      if (run->signal != 0)
        g_set_error (error, WS_ERROR, WS_ERROR_FAILED, "it was killed by signal %d (%s)%s", run->signal,
                     g_strsignal (run->signal), tail);
      else
        g_set_error (error, WS_ERROR, WS_ERROR_FAILED, "it exited with status %d%s", run->exit_code, tail);
      return FALSE;
    }
  if (!g_file_test (part, G_FILE_TEST_IS_REGULAR))
    {
      g_set_error (error, WS_ERROR, WS_ERROR_NOT_FOUND, "it wrote no trace%s%s",
                   run->summary == NULL ? ": it did not load the Warpscope CUDA runtime (build it with "
                                          "`warpscope-cli build` or `nvcc -cudart shared`)"
                                        : "",
                   tail);
      return FALSE;
    }
  if (g_rename (part, e->t.trace) != 0)
    {
      g_unlink (part);
      g_set_error (error, WS_ERROR, WS_ERROR_IO, "cannot rename its trace to '%s'", e->t.trace);
      return FALSE;
    }
  return TRUE;
}

const AppOnDemandTrace *
ws_app_ondemand_get (AppOnDemand *od, const AppOp *op, GHashTable *vars, GCancellable *cancellable, GError **error)
{
  g_autofree char *program = g_canonicalize_filename (op->program, NULL);
  if (!g_file_test (program, G_FILE_TEST_IS_REGULAR))
    {
      g_set_error (error, WS_ERROR, WS_ERROR_NOT_FOUND,
                   "%s, field 'program': '%s' does not exist; build the program or correct the path (a relative "
                   "path is relative to the imported file)",
                   op->where, program);
      return NULL;
    }
  if (!g_file_test (program, G_FILE_TEST_IS_EXECUTABLE))
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID, "%s, field 'program': '%s' is not executable", op->where,
                   program);
      return NULL;
    }
  g_auto (GStrv) args = ws_app_op_eval_args (op, vars, error);
  if (args == NULL)
    return NULL;
  g_autofree char *name = trace_name (program, args);

  g_mutex_lock (&od->lock);
  Entry *e = g_hash_table_lookup (od->entries, name);
  if (e == NULL)
    {
      e = g_new0 (Entry, 1);
      g_mutex_init (&e->lock);
      e->t.trace = g_build_filename (od->dir, name, NULL);
      e->t.command = ws_launch_command_line (program, (const char *const *) args);
      g_hash_table_insert (od->entries, g_strdup (name), e);
      g_ptr_array_add (od->order, e);
    }
  g_mutex_unlock (&od->lock);

  /* Other points with the same arguments wait here for the one profile. */
  g_mutex_lock (&e->lock);
  if (!g_atomic_int_get (&e->done))
    {
      GError *local = NULL;
      if (trace_is_current (e->t.trace, program) || profile (od, e, program, args, cancellable, &local))
        g_atomic_int_set (&e->done, TRUE);
      else if (g_error_matches (local, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          g_mutex_unlock (&e->lock);
          g_propagate_prefixed_error (error, local, "%s: profiling `%s`: ", op->where, e->t.command);
          return NULL;
        }
      else
        {
          e->error = local;
          g_atomic_int_set (&e->done, TRUE);
        }
    }
  g_mutex_unlock (&e->lock);
  if (e->error != NULL)
    {
      g_set_error (error, e->error->domain, e->error->code, "%s: profiling `%s`: %s", op->where, e->t.command,
                   e->error->message);
      return NULL;
    }
  return &e->t;
}
