/* ws-system-store.c: system and application models, sweeps and runs in the
 * store (db/migrations/003-system-models.sql), and the demo workspace
 * (db/workspace/, compiled into the db GResource). */
#include <sqlite3.h>
#include <string.h>
#include <gio/gio.h>
#include "base/ws-json.h"
#include "base/ws-paths.h"
#include "system/ws-system-private.h"
#include "ws-config.h"

#define WORKSPACE_RES "/org/warpscope/db/workspace/"

static gboolean
db_fail (sqlite3 *db, const char *what, GError **error)
{
  g_set_error (error, WS_ERROR, WS_ERROR_IO, "%s: %s", what, sqlite3_errmsg (db));
  return FALSE;
}

static gboolean
exec (sqlite3 *db, const char *sql, GError **error)
{
  char *msg = NULL;
  if (sqlite3_exec (db, sql, NULL, NULL, &msg) != SQLITE_OK)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_IO, "%s: %s", sql, msg ? msg : "error");
      sqlite3_free (msg);
      return FALSE;
    }
  return TRUE;
}

static char *
node_to_text (JsonNode *node, gboolean pretty)
{
  return ws_hw_json_to_data (node, pretty);
}

static JsonNode *
text_to_node (const char *text, GError **error)
{
  return ws_json_from_text (text, error);
}

static char **
list_names (WsStore *store, const char *table, GError **error)
{
  sqlite3 *db = ws_store_get_db (store);
  g_autofree char *sql = g_strdup_printf ("SELECT name FROM %s ORDER BY name COLLATE NOCASE", table);
  sqlite3_stmt *st = NULL;
  if (sqlite3_prepare_v2 (db, sql, -1, &st, NULL) != SQLITE_OK)
    {
      db_fail (db, "listing models", error);
      return NULL;
    }
  GPtrArray *out = g_ptr_array_new ();
  while (sqlite3_step (st) == SQLITE_ROW)
    g_ptr_array_add (out, g_strdup ((const char *) sqlite3_column_text (st, 0)));
  sqlite3_finalize (st);
  g_ptr_array_add (out, NULL);
  return (char **) g_ptr_array_free (out, FALSE);
}

char **
ws_system_store_list_systems (WsStore *store, GError **error)
{
  return list_names (store, "system_model", error);
}

char **
ws_system_store_list_apps (WsStore *store, GError **error)
{
  return list_names (store, "app_model", error);
}

/* Deletes model @name of @table; the sweeps keep the records they ran with. */
static gboolean
delete_record (WsStore *store, const char *table, const char *what, const char *name, GError **error)
{
  sqlite3 *db = ws_store_get_db (store);
  g_autofree char *sql = g_strdup_printf ("DELETE FROM %s WHERE name = ?1", table);
  sqlite3_stmt *st = NULL;
  int rc;

  if (sqlite3_prepare_v2 (db, sql, -1, &st, NULL) != SQLITE_OK)
    return db_fail (db, "deleting a model", error);
  sqlite3_bind_text (st, 1, name, -1, SQLITE_TRANSIENT);
  rc = sqlite3_step (st);
  sqlite3_finalize (st);
  if (rc != SQLITE_DONE)
    return db_fail (db, "deleting a model", error);
  if (sqlite3_changes (db) == 0)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_NOT_FOUND, "no %s model named '%s'", what, name);
      return FALSE;
    }
  return TRUE;
}

gboolean
ws_system_store_delete_system (WsStore *store, const char *name, GError **error)
{
  return delete_record (store, "system_model", "system", name, error);
}

gboolean
ws_system_store_delete_app (WsStore *store, const char *name, GError **error)
{
  return delete_record (store, "app_model", "application", name, error);
}

static JsonNode *
get_record (WsStore *store, const char *table, const char *what, const char *name, GError **error)
{
  sqlite3 *db = ws_store_get_db (store);
  g_autofree char *sql = g_strdup_printf ("SELECT record FROM %s WHERE name = ?1", table);
  sqlite3_stmt *st = NULL;
  if (sqlite3_prepare_v2 (db, sql, -1, &st, NULL) != SQLITE_OK)
    {
      db_fail (db, "reading a model", error);
      return NULL;
    }
  sqlite3_bind_text (st, 1, name, -1, SQLITE_TRANSIENT);
  JsonNode *node = NULL;
  if (sqlite3_step (st) == SQLITE_ROW)
    node = text_to_node ((const char *) sqlite3_column_text (st, 0), error);
  else
    {
      g_auto (GStrv) names = list_names (store, table, NULL);
      g_autofree char *close = names ? ws_suggest_names (name, (const char *const *) names, 3) : NULL;
      g_autofree char *all = names ? g_strjoinv (", ", names) : g_strdup ("");
      g_set_error (error, WS_ERROR, WS_ERROR_NOT_FOUND, "no %s model named '%s'%s%s%s (stored: %s)", what, name,
                   close ? "; did you mean " : "", close ? close : "", close ? "?" : "", all[0] ? all : "none");
    }
  sqlite3_finalize (st);
  return node;
}

WsSystemModel *
ws_system_store_get_system (WsStore *store, const char *name, GError **error)
{
  g_autoptr (JsonNode) node = get_record (store, "system_model", "system", name, error);
  return node ? ws_system_model_from_json (node, error) : NULL;
}

WsAppModel *
ws_system_store_get_app (WsStore *store, const char *name, GError **error)
{
  g_autoptr (JsonNode) node = get_record (store, "app_model", "application", name, error);
  return node ? ws_app_model_from_json (node, error) : NULL;
}

static gboolean
put_record (WsStore *store, const char *table, const char *what, const char *name, JsonNode *record, const char *origin,
            gboolean replace, GError **error)
{
  sqlite3 *db = ws_store_get_db (store);
  g_autofree char *text = node_to_text (record, FALSE);
  g_autofree char *sql = g_strdup_printf (
    replace ? "INSERT INTO %s (name, record, origin) VALUES (?1, ?2, ?3) ON CONFLICT (name) DO UPDATE SET "
              "record = excluded.record, modified = strftime ('%%Y-%%m-%%dT%%H:%%M:%%SZ', 'now')"
            : "INSERT INTO %s (name, record, origin) VALUES (?1, ?2, ?3)",
    table);
  sqlite3_stmt *st = NULL;
  if (sqlite3_prepare_v2 (db, sql, -1, &st, NULL) != SQLITE_OK)
    return db_fail (db, "storing a model", error);
  sqlite3_bind_text (st, 1, name, -1, SQLITE_TRANSIENT);
  sqlite3_bind_text (st, 2, text, -1, SQLITE_TRANSIENT);
  sqlite3_bind_text (st, 3, origin, -1, SQLITE_STATIC);
  int rc = sqlite3_step (st);
  int code = sqlite3_extended_errcode (db);
  if (rc == SQLITE_DONE)
    {
      sqlite3_finalize (st);
      return TRUE;
    }
  /* Only the name's uniqueness makes it a duplicate; the json_valid check
   * fails on records that nest deeper than SQLite's JSON reader allows. */
  if (code == SQLITE_CONSTRAINT_UNIQUE || code == SQLITE_CONSTRAINT_PRIMARYKEY)
    g_set_error (error, WS_ERROR, WS_ERROR_DUPLICATE, "a %s model named '%s' exists already (use --replace)", what,
                 name);
  else if (code == SQLITE_CONSTRAINT_CHECK)
    g_set_error (error, WS_ERROR, WS_ERROR_INVALID,
                 "%s model '%s' cannot be stored: the database refuses its JSON "
                 "record (%s); a model nested hundreds of levels deep is the usual cause, so flatten it",
                 what, name, sqlite3_errmsg (db));
  else
    db_fail (db, "storing a model", error);
  sqlite3_finalize (st);
  return FALSE;
}

static gboolean
put_system_origin (WsStore *store, const WsSystemModel *system, const char *origin, gboolean replace, GError **error)
{
  if (!ws_system_model_validate (system, store, error))
    return FALSE;
  g_autoptr (JsonNode) node = ws_system_model_to_json (system);
  return put_record (store, "system_model", "system", system->name, node, origin, replace, error);
}

gboolean
ws_system_store_put_system (WsStore *store, const WsSystemModel *system, gboolean replace, GError **error)
{
  return put_system_origin (store, system, "user", replace, error);
}

char *
ws_system_store_trace_dir (WsStore *store)
{
  g_autofree char *dir = g_path_get_dirname (ws_store_get_path (store));
  return g_build_filename (dir, "warpscope-traces", NULL);
}

/* Copies each trace a profiled kernel reads into the workspace's trace
 * folder and points the record at the copy, so the stored application does
 * not depend on where the trace was recorded.  A missing file is left as
 * given: evaluating the application then says it is missing.  An on-demand
 * kernel's program is only made absolute (its traces are made when it runs). */
static gboolean
adopt_traces (WsStore *store, const char *app, JsonNode *ops_node, const char *base_dir, GError **error)
{
  if (ops_node == NULL || !JSON_NODE_HOLDS_ARRAY (ops_node))
    return TRUE;
  JsonArray *ops = json_node_get_array (ops_node);
  for (guint i = 0; i < json_array_get_length (ops); i++)
    {
      JsonNode *n = json_array_get_element (ops, i);
      if (!JSON_NODE_HOLDS_OBJECT (n))
        continue;
      JsonObject *o = json_node_get_object (n);
      if (!adopt_traces (store, app, json_object_get_member (o, "body"), base_dir, error)
          || !adopt_traces (store, app, json_object_get_member (o, "then"), base_dir, error)
          || !adopt_traces (store, app, json_object_get_member (o, "else"), base_dir, error))
        return FALSE;
      /* An on-demand kernel's program stays where it is; a relative path
       * becomes absolute, so the stored model does not depend on the
       * directory it was imported from. */
      const char *program = json_object_get_string_member_with_default (o, "program", NULL);
      if (program != NULL && !g_path_is_absolute (program))
        {
          g_autofree char *abs = g_build_filename (base_dir, program, NULL);
          g_autofree char *canon = g_canonicalize_filename (abs, NULL);
          json_object_set_string_member (o, "program", canon);
        }
      const char *trace = json_object_get_string_member_with_default (o, "trace", NULL);
      if (trace == NULL)
        continue;
      g_autofree char *abs = g_path_is_absolute (trace) ? g_strdup (trace) : g_build_filename (base_dir, trace, NULL);
      g_autofree char *dir = ws_system_store_trace_dir (store);
      if (g_str_has_prefix (abs, dir) || !g_file_test (abs, G_FILE_TEST_IS_REGULAR))
        {
          json_object_set_string_member (o, "trace", abs);
          continue;
        }
      if (g_mkdir_with_parents (dir, 0755) != 0)
        {
          g_set_error (error, WS_ERROR, WS_ERROR_IO, "cannot create the trace folder '%s'", dir);
          return FALSE;
        }
      g_autofree char *base = g_path_get_basename (abs);
      g_autofree char *dest_name = g_strdup_printf ("%s-%s", app, base);
      g_autofree char *dest = g_build_filename (dir, dest_name, NULL);
      g_autoptr (GFile) src = g_file_new_for_path (abs);
      g_autoptr (GFile) dst = g_file_new_for_path (dest);
      if (!g_file_copy (src, dst, G_FILE_COPY_OVERWRITE, NULL, NULL, NULL, error))
        {
          g_prefix_error (error, "copying trace '%s' into the workspace: ", abs);
          return FALSE;
        }
      json_object_set_string_member (o, "trace", dest);
    }
  return TRUE;
}

static gboolean
put_app_origin (WsStore *store, JsonNode *app, const char *base_dir, const char *origin, gboolean replace,
                GError **error)
{
  g_autoptr (WsAppModel) check = ws_app_model_from_json (app, error);
  if (check == NULL)
    return FALSE;
  g_autoptr (JsonNode) copy = json_node_copy (app);
  JsonNode *procs = json_object_get_member (json_node_get_object (copy), "processes");
  JsonArray *pa = json_node_get_array (procs);
  g_autofree char *cwd = g_get_current_dir ();
  for (guint i = 0; i < json_array_get_length (pa); i++)
    if (!adopt_traces (store, check->name, json_object_get_member (json_array_get_object_element (pa, i), "operations"),
                       base_dir ? base_dir : cwd, error))
      return FALSE;
  return put_record (store, "app_model", "application", check->name, copy, origin, replace, error);
}

gboolean
ws_system_store_put_app (WsStore *store, JsonNode *app, gboolean replace, GError **error)
{
  return put_app_origin (store, app, NULL, "user", replace, error);
}

/* ---- demo workspace ------------------------------------------------------ */

static gboolean
meta_get (sqlite3 *db, const char *key)
{
  sqlite3_stmt *st = NULL;
  if (sqlite3_prepare_v2 (db, "SELECT 1 FROM meta WHERE key = ?1", -1, &st, NULL) != SQLITE_OK)
    return FALSE;
  sqlite3_bind_text (st, 1, key, -1, SQLITE_STATIC);
  gboolean found = sqlite3_step (st) == SQLITE_ROW;
  sqlite3_finalize (st);
  return found;
}

static gboolean
meta_set (sqlite3 *db, const char *key, const char *value, GError **error)
{
  sqlite3_stmt *st = NULL;
  if (sqlite3_prepare_v2 (db, "INSERT OR REPLACE INTO meta (key, value) VALUES (?1, ?2)", -1, &st, NULL) != SQLITE_OK)
    return db_fail (db, "recording the demo workspace", error);
  sqlite3_bind_text (st, 1, key, -1, SQLITE_STATIC);
  sqlite3_bind_text (st, 2, value, -1, SQLITE_TRANSIENT);
  int rc = sqlite3_step (st);
  sqlite3_finalize (st);
  return rc == SQLITE_DONE ? TRUE : db_fail (db, "recording the demo workspace", error);
}

static JsonNode *
workspace_file (const char *name, GError **error)
{
  g_autofree char *path = g_strconcat (WORKSPACE_RES, name, NULL);
  g_autoptr (GBytes) bytes = g_resources_lookup_data (path, G_RESOURCE_LOOKUP_FLAGS_NONE, error);
  if (bytes == NULL)
    return NULL;
  g_autoptr (JsonParser) p = json_parser_new ();
  if (!json_parser_load_from_data (p, g_bytes_get_data (bytes, NULL), (gssize) g_bytes_get_size (bytes), error))
    {
      g_prefix_error (error, "db/workspace/%s: ", name);
      return NULL;
    }
  return json_node_copy (json_parser_get_root (p));
}

char *
ws_system_demo_trace_path (void)
{
  return ws_paths_get (WS_PATH_DEMO_TRACE);
}

char *
ws_system_demo_program_path (void)
{
  return ws_paths_get (WS_PATH_DEMO_PROGRAM);
}

/* saxpy2-profiled: saxpy2 with its kernel profiled on demand from the
 * example program, added once the program exists. */
static gboolean
ensure_demo_profiled (WsStore *store, GError **error)
{
  sqlite3 *db = ws_store_get_db (store);
  if (meta_get (db, "system_demo_saxpy2_profiled"))
    return TRUE;
  g_autofree char *given = ws_system_demo_program_path ();
  g_autofree char *program = g_canonicalize_filename (given, NULL);
  if (!g_file_test (program, G_FILE_TEST_IS_REGULAR) || !g_file_test (program, G_FILE_TEST_IS_EXECUTABLE))
    return TRUE;
  g_autoptr (JsonNode) app = workspace_file ("saxpy2-profiled.json", error);
  if (app == NULL)
    return FALSE;
  JsonArray *ops = json_object_get_array_member (
    json_array_get_object_element (json_object_get_array_member (json_node_get_object (app), "processes"), 0),
    "operations");
  for (guint i = 0; i < json_array_get_length (ops); i++)
    {
      JsonObject *op = json_array_get_object_element (ops, i);
      if (json_object_has_member (op, "program"))
        json_object_set_string_member (op, "program", program);
    }
  return put_app_origin (store, app, NULL, "demo", TRUE, error)
         && meta_set (db, "system_demo_saxpy2_profiled", program, error);
}

gboolean
ws_system_store_ensure_demo (WsStore *store, GError **error)
{
  g_return_val_if_fail (store != NULL, FALSE);
  sqlite3 *db = ws_store_get_db (store);
  if (ws_store_is_read_only (store))
    return TRUE; /* added when the database is next opened with write permission */
  if (!meta_get (db, "system_demo"))
    {
      static const char *const systems[] = { "testbed-gtx970.json", "testbed-titanx.json", "testbed-gtx1070.json" };
      if (!exec (db, "BEGIN IMMEDIATE", error))
        return FALSE;
      /* Another process may have created it while we waited for the lock. */
      if (!meta_get (db, "system_demo"))
        {
          for (guint i = 0; i < G_N_ELEMENTS (systems); i++)
            {
              g_autoptr (JsonNode) node = workspace_file (systems[i], error);
              g_autoptr (WsSystemModel) s = node ? ws_system_model_from_json (node, error) : NULL;
              if (s == NULL || !put_system_origin (store, s, "demo", TRUE, error))
                goto fail;
            }
          g_autoptr (JsonNode) app = workspace_file ("saxpy2-analytic.json", error);
          if (app == NULL || !put_app_origin (store, app, NULL, "demo", TRUE, error)
              || !meta_set (db, "system_demo", "created by warpscope " WS_VERSION, error))
            goto fail;
        }
      if (!exec (db, "COMMIT", error))
        goto fail;
    }
  if (!ensure_demo_profiled (store, error))
    return FALSE;
  /* saxpy2 needs the trace of examples/saxpy2.cu; added once it exists. */
  if (!meta_get (db, "system_demo_saxpy2"))
    {
      g_autofree char *given = ws_system_demo_trace_path ();
      g_autofree char *trace = g_canonicalize_filename (given, NULL);
      if (!g_file_test (trace, G_FILE_TEST_IS_REGULAR))
        return TRUE;
      g_autoptr (JsonNode) app = workspace_file ("saxpy2.json", error);
      if (app == NULL)
        return FALSE;
      g_autofree char *dir = g_path_get_dirname (trace);
      JsonObject *op = json_array_get_object_element (
        json_object_get_array_member (
          json_array_get_object_element (json_object_get_array_member (json_node_get_object (app), "processes"), 0),
          "operations"),
        2);
      json_object_set_string_member (op, "trace", trace);
      if (!put_app_origin (store, app, dir, "demo", TRUE, error) || !meta_set (db, "system_demo_saxpy2", trace, error))
        return FALSE;
    }
  return TRUE;

fail:
  sqlite3_exec (db, "ROLLBACK", NULL, NULL, NULL);
  g_prefix_error (error, "creating the demo workspace: ");
  return FALSE;
}

/* ---- sweeps and runs ----------------------------------------------------- */

static char *
variables_text (GHashTable *vars)
{
  g_autoptr (JsonBuilder) b = json_builder_new ();
  json_builder_begin_object (b);
  if (vars != NULL)
    {
      guint n;
      g_autofree const char **keys = ws_sorted_keys (vars, &n);
      for (guint i = 0; i < n; i++)
        {
          json_builder_set_member_name (b, keys[i]);
          json_builder_add_double_value (b, *(double *) g_hash_table_lookup (vars, keys[i]));
        }
    }
  json_builder_end_object (b);
  g_autoptr (JsonNode) node = json_builder_get_root (b);
  return node_to_text (node, FALSE);
}

/* {"name": "text", ...} sorted by name; NULL for no options. */
static char *
options_text (GHashTable *options)
{
  if (options == NULL || g_hash_table_size (options) == 0)
    return NULL;
  g_autoptr (JsonBuilder) b = json_builder_new ();
  json_builder_begin_object (b);
  ws_json_add_string_members (b, options);
  json_builder_end_object (b);
  g_autoptr (JsonNode) node = json_builder_get_root (b);
  return node_to_text (node, FALSE);
}

gint64
ws_system_store_put_sweep (WsStore *store, const WsSystemModel *system, const WsAppModel *app, const char *predictor,
                           GHashTable *predictor_options, GPtrArray *results, double wall_seconds, GError **error)
{
  g_return_val_if_fail (store != NULL && system != NULL && app != NULL && results != NULL && results->len > 0, 0);
  sqlite3 *db = ws_store_get_db (store);
  g_autoptr (JsonNode) sys_node = ws_system_model_to_json (system);
  g_autoptr (JsonNode) app_node = ws_app_model_to_json (app);
  g_autofree char *sys_text = node_to_text (sys_node, FALSE);
  g_autofree char *app_text = node_to_text (app_node, FALSE);
  g_autofree char *opt_text = options_text (predictor_options);
  guint n_failed = 0;
  gboolean cancelled = FALSE;
  for (guint i = 0; i < results->len; i++)
    {
      const WsSystemResult *r = results->pdata[i];
      cancelled |= r->cancelled;
      n_failed += !r->ok && !r->cancelled;
    }

  sqlite3_stmt *sw = NULL, *run = NULL, *op = NULL, *busy = NULL;
  gint64 sweep_id = 0;
  if (!exec (db, "BEGIN IMMEDIATE", error))
    return 0;
  if (sqlite3_prepare_v2 (db,
                          "INSERT INTO model_sweep (system_name, app_name, system_record, app_record, predictor, "
                          "n_points, n_failed, wall_seconds, status, predictor_options) "
                          "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
                          -1, &sw, NULL)
        != SQLITE_OK
      || sqlite3_prepare_v2 (db,
                             "INSERT INTO model_run (sweep_id, point, variables, status, error, total_seconds) "
                             "VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                             -1, &run, NULL)
           != SQLITE_OK
      || sqlite3_prepare_v2 (db,
                             "INSERT INTO model_run_op (run_id, seq, label, rank, op, component, name, bytes, "
                             "start, \"end\") VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
                             -1, &op, NULL)
           != SQLITE_OK
      || sqlite3_prepare_v2 (db, "INSERT INTO model_run_busy (run_id, component, busy_seconds) VALUES (?1, ?2, ?3)", -1,
                             &busy, NULL)
           != SQLITE_OK)
    {
      db_fail (db, "storing a model run", error);
      goto fail;
    }
  sqlite3_bind_text (sw, 1, system->name, -1, SQLITE_STATIC);
  sqlite3_bind_text (sw, 2, app->name, -1, SQLITE_STATIC);
  sqlite3_bind_text (sw, 3, sys_text, -1, SQLITE_STATIC);
  sqlite3_bind_text (sw, 4, app_text, -1, SQLITE_STATIC);
  sqlite3_bind_text (sw, 5, predictor ? predictor : "volkov", -1, SQLITE_STATIC);
  sqlite3_bind_int (sw, 6, (int) results->len);
  sqlite3_bind_int (sw, 7, (int) n_failed);
  sqlite3_bind_double (sw, 8, wall_seconds);
  sqlite3_bind_text (sw, 9, cancelled ? "cancelled" : "complete", -1, SQLITE_STATIC);
  if (opt_text != NULL)
    sqlite3_bind_text (sw, 10, opt_text, -1, SQLITE_STATIC);
  else
    sqlite3_bind_null (sw, 10);
  if (sqlite3_step (sw) != SQLITE_DONE)
    {
      db_fail (db, "storing a sweep", error);
      goto fail;
    }
  sweep_id = sqlite3_last_insert_rowid (db);
  for (guint i = 0; i < results->len; i++)
    {
      WsSystemResult *r = results->pdata[i];
      if (r->cancelled)
        continue; /* only the points that finished are kept */
      g_autofree char *vars = variables_text (r->variables);
      sqlite3_reset (run);
      sqlite3_bind_int64 (run, 1, sweep_id);
      sqlite3_bind_int (run, 2, (int) i);
      sqlite3_bind_text (run, 3, vars, -1, SQLITE_TRANSIENT);
      sqlite3_bind_text (run, 4, r->ok ? "ok" : "failed", -1, SQLITE_STATIC);
      if (r->error)
        sqlite3_bind_text (run, 5, r->error, -1, SQLITE_TRANSIENT);
      else
        sqlite3_bind_null (run, 5);
      if (r->ok)
        sqlite3_bind_double (run, 6, r->total_seconds);
      else
        sqlite3_bind_null (run, 6);
      if (sqlite3_step (run) != SQLITE_DONE)
        {
          db_fail (db, "storing a run", error);
          goto fail;
        }
      gint64 run_id = sqlite3_last_insert_rowid (db);
      for (guint k = 0; r->operations && k < r->operations->len; k++)
        {
          WsSystemOpRecord *o = r->operations->pdata[k];
          sqlite3_reset (op);
          sqlite3_bind_int64 (op, 1, run_id);
          sqlite3_bind_int (op, 2, (int) k);
          sqlite3_bind_text (op, 3, o->label, -1, SQLITE_STATIC);
          sqlite3_bind_int (op, 4, (int) o->rank);
          sqlite3_bind_text (op, 5, o->op, -1, SQLITE_STATIC);
          sqlite3_bind_text (op, 6, o->component, -1, SQLITE_STATIC);
          if (o->name)
            sqlite3_bind_text (op, 7, o->name, -1, SQLITE_STATIC);
          else
            sqlite3_bind_null (op, 7);
          sqlite3_bind_double (op, 8, o->bytes);
          sqlite3_bind_double (op, 9, o->start);
          sqlite3_bind_double (op, 10, o->end);
          if (sqlite3_step (op) != SQLITE_DONE)
            {
              db_fail (db, "storing a run's operations", error);
              goto fail;
            }
        }
      for (guint k = 0; r->busy_components && k < r->busy_components->len; k++)
        {
          sqlite3_reset (busy);
          sqlite3_bind_int64 (busy, 1, run_id);
          sqlite3_bind_text (busy, 2, r->busy_components->pdata[k], -1, SQLITE_STATIC);
          sqlite3_bind_double (busy, 3, g_array_index (r->busy_seconds, double, k));
          if (sqlite3_step (busy) != SQLITE_DONE)
            {
              db_fail (db, "storing a run's busy times", error);
              goto fail;
            }
        }
    }
  sqlite3_finalize (sw);
  sqlite3_finalize (run);
  sqlite3_finalize (op);
  sqlite3_finalize (busy);
  if (!exec (db, "COMMIT", error))
    {
      sqlite3_exec (db, "ROLLBACK", NULL, NULL, NULL);
      return 0;
    }
  return sweep_id;

fail:
  sqlite3_finalize (sw);
  sqlite3_finalize (run);
  sqlite3_finalize (op);
  sqlite3_finalize (busy);
  sqlite3_exec (db, "ROLLBACK", NULL, NULL, NULL);
  return 0;
}

/* Runs @sql (one ?1 for the sweep id) and steps to the sweep's row:
 * the statement on that row, or NULL with @error (WS_ERROR_NOT_FOUND when
 * there is no such sweep). */
static sqlite3_stmt *
sweep_row (sqlite3 *db, const char *sql, gint64 sweep_id, const char *what, GError **error)
{
  sqlite3_stmt *st = NULL;
  if (sqlite3_prepare_v2 (db, sql, -1, &st, NULL) != SQLITE_OK)
    {
      db_fail (db, what, error);
      return NULL;
    }
  sqlite3_bind_int64 (st, 1, sweep_id);
  if (sqlite3_step (st) != SQLITE_ROW)
    {
      sqlite3_finalize (st);
      g_set_error (error, WS_ERROR, WS_ERROR_NOT_FOUND, "no stored sweep with id %" G_GINT64_FORMAT, sweep_id);
      return NULL;
    }
  return st;
}

GHashTable *
ws_system_store_get_sweep_options (WsStore *store, gint64 sweep_id, GError **error)
{
  sqlite3_stmt *st = sweep_row (ws_store_get_db (store), "SELECT predictor_options FROM model_sweep WHERE id = ?1",
                                sweep_id, "reading a sweep's options", error);
  if (st == NULL)
    return NULL;
  GHashTable *out = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  const char *text = (const char *) sqlite3_column_text (st, 0);
  g_autoptr (JsonNode) node = text != NULL ? text_to_node (text, NULL) : NULL;
  if (node != NULL && JSON_NODE_HOLDS_OBJECT (node))
    {
      JsonObject *o = json_node_get_object (node);
      g_autoptr (GList) members = json_object_get_members (o);
      for (GList *m = members; m != NULL; m = m->next)
        {
          JsonNode *v = json_object_get_member (o, m->data);
          if (JSON_NODE_HOLDS_VALUE (v) && json_node_get_value_type (v) == G_TYPE_STRING)
            g_hash_table_insert (out, g_strdup (m->data), g_strdup (json_node_get_string (v)));
        }
    }
  sqlite3_finalize (st);
  return out;
}

GPtrArray *
ws_system_store_get_sweep (WsStore *store, gint64 sweep_id, char **system_name, char **app_name, GError **error)
{
  sqlite3 *db = ws_store_get_db (store);
  sqlite3_stmt *st = sweep_row (db, "SELECT system_name, app_name FROM model_sweep WHERE id = ?1", sweep_id,
                                "reading a sweep", error);
  if (st == NULL)
    return NULL;
  if (system_name)
    *system_name = g_strdup ((const char *) sqlite3_column_text (st, 0));
  if (app_name)
    *app_name = g_strdup ((const char *) sqlite3_column_text (st, 1));
  sqlite3_finalize (st);

  GPtrArray *out = g_ptr_array_new_with_free_func ((GDestroyNotify) ws_system_result_free);
  sqlite3_stmt *runs = NULL, *ops = NULL, *busy = NULL;
  sqlite3_prepare_v2 (db,
                      "SELECT id, variables, status, error, total_seconds FROM model_run WHERE sweep_id = ?1 "
                      "ORDER BY point",
                      -1, &runs, NULL);
  sqlite3_prepare_v2 (db,
                      "SELECT label, rank, op, component, name, bytes, start, \"end\" FROM model_run_op "
                      "WHERE run_id = ?1 ORDER BY seq",
                      -1, &ops, NULL);
  sqlite3_prepare_v2 (db, "SELECT component, busy_seconds FROM model_run_busy WHERE run_id = ?1 ORDER BY component", -1,
                      &busy, NULL);
  sqlite3_bind_int64 (runs, 1, sweep_id);
  while (sqlite3_step (runs) == SQLITE_ROW)
    {
      WsSystemResult *r = g_new0 (WsSystemResult, 1);
      g_ptr_array_add (out, r);
      gint64 run_id = sqlite3_column_int64 (runs, 0);
      r->variables = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
      g_autoptr (JsonNode) vn = text_to_node ((const char *) sqlite3_column_text (runs, 1), NULL);
      if (vn != NULL && JSON_NODE_HOLDS_OBJECT (vn))
        {
          JsonObject *vo = json_node_get_object (vn);
          g_autoptr (GList) members = json_object_get_members (vo);
          for (GList *l = members; l; l = l->next)
            {
              double v = json_object_get_double_member (vo, l->data);
              g_hash_table_insert (r->variables, g_strdup (l->data), g_memdup2 (&v, sizeof v));
            }
        }
      r->ok = g_strcmp0 ((const char *) sqlite3_column_text (runs, 2), "ok") == 0;
      r->error = g_strdup ((const char *) sqlite3_column_text (runs, 3));
      r->total_seconds = sqlite3_column_double (runs, 4);
      r->operations = g_ptr_array_new_with_free_func ((GDestroyNotify) g_free);
      sqlite3_reset (ops);
      sqlite3_bind_int64 (ops, 1, run_id);
      g_ptr_array_set_free_func (r->operations, NULL);
      while (sqlite3_step (ops) == SQLITE_ROW)
        {
          WsSystemOpRecord *o = g_new0 (WsSystemOpRecord, 1);
          o->label = g_strdup ((const char *) sqlite3_column_text (ops, 0));
          o->rank = (guint) sqlite3_column_int (ops, 1);
          o->op = g_strdup ((const char *) sqlite3_column_text (ops, 2));
          o->component = g_strdup ((const char *) sqlite3_column_text (ops, 3));
          o->name = g_strdup ((const char *) sqlite3_column_text (ops, 4));
          o->bytes = sqlite3_column_double (ops, 5);
          o->start = sqlite3_column_double (ops, 6);
          o->end = sqlite3_column_double (ops, 7);
          g_ptr_array_add (r->operations, o);
        }
      g_ptr_array_set_free_func (r->operations, ws_system_op_record_free);
      r->busy_components = g_ptr_array_new_with_free_func (g_free);
      r->busy_seconds = g_array_new (FALSE, FALSE, sizeof (double));
      sqlite3_reset (busy);
      sqlite3_bind_int64 (busy, 1, run_id);
      while (sqlite3_step (busy) == SQLITE_ROW)
        {
          double b = sqlite3_column_double (busy, 1);
          g_ptr_array_add (r->busy_components, g_strdup ((const char *) sqlite3_column_text (busy, 0)));
          g_array_append_val (r->busy_seconds, b);
        }
    }
  sqlite3_finalize (runs);
  sqlite3_finalize (ops);
  sqlite3_finalize (busy);
  return out;
}

char *
ws_system_store_get_sweep_status (WsStore *store, gint64 sweep_id, guint *n_points, guint *n_planned, GError **error)
{
  g_return_val_if_fail (store != NULL, NULL);
  sqlite3_stmt *st = sweep_row (ws_store_get_db (store),
                                "SELECT status, n_points, (SELECT count(*) FROM model_run WHERE sweep_id = ?1) "
                                "FROM model_sweep WHERE id = ?1",
                                sweep_id, "reading a sweep's status", error);
  if (st == NULL)
    return NULL;
  char *status = g_strdup ((const char *) sqlite3_column_text (st, 0));
  if (n_planned)
    *n_planned = (guint) sqlite3_column_int (st, 1);
  if (n_points)
    *n_points = (guint) sqlite3_column_int (st, 2);
  sqlite3_finalize (st);
  return status;
}
