/* ws-gui-drafts.c: the desktop app's own document tables (see the header). */
#include <sqlite3.h>

#include "ws-gui-drafts.h"
#include "system/ws-system.h"

static gboolean
db_fail (sqlite3 *db, const char *what, const char *table, GError **error)
{
  g_set_error (error, WS_ERROR, WS_ERROR_IO, "%s (%s) failed in the store: %s", what, table, sqlite3_errmsg (db));
  return FALSE;
}

/* Prepares @sql (with %s for the table).  The tables come with the store's
 * schema (db/migrations/008-gui-drafts.sql). */
static sqlite3_stmt *
prepare (sqlite3 *db, const char *table, const char *sql, const char *what, GError **error)
{
  g_autofree char *text = NULL;
  sqlite3_stmt *st = NULL;

  g_return_val_if_fail (g_str_equal (table, WS_GUI_DRAFTS_SYSTEMS) || g_str_equal (table, WS_GUI_DRAFTS_APPS), NULL);
  text = g_strdup_printf (sql, table);
  if (sqlite3_prepare_v2 (db, text, -1, &st, NULL) != SQLITE_OK)
    {
      db_fail (db, what, table, error);
      return NULL;
    }
  return st;
}

gboolean
ws_gui_drafts_put (WsStore *store, const char *table, const char *name, const char *text, GError **error)
{
  sqlite3 *db = ws_store_get_db (store);
  sqlite3_stmt *st = prepare (db, table,
                              "INSERT INTO %s (name, document) VALUES (?1, ?2) ON CONFLICT (name) DO UPDATE SET "
                              "document = excluded.document, modified = strftime ('%%Y-%%m-%%dT%%H:%%M:%%SZ', 'now')",
                              "saving a document", error);
  int rc;

  if (st == NULL)
    return FALSE;
  sqlite3_bind_text (st, 1, name, -1, SQLITE_TRANSIENT);
  sqlite3_bind_text (st, 2, text, -1, SQLITE_TRANSIENT);
  rc = sqlite3_step (st);
  sqlite3_finalize (st);
  return rc == SQLITE_DONE ? TRUE : db_fail (db, "saving a document", table, error);
}

char *
ws_gui_drafts_get (WsStore *store, const char *table, const char *name, GError **error)
{
  sqlite3 *db = ws_store_get_db (store);
  sqlite3_stmt *st = prepare (db, table, "SELECT document FROM %s WHERE name = ?1", "reading a document", error);
  char *text = NULL;

  if (st == NULL)
    return NULL;
  sqlite3_bind_text (st, 1, name, -1, SQLITE_TRANSIENT);
  if (sqlite3_step (st) == SQLITE_ROW)
    text = g_strdup ((const char *) sqlite3_column_text (st, 0));
  sqlite3_finalize (st);
  return text;
}

gboolean
ws_gui_drafts_delete (WsStore *store, const char *table, const char *name, GError **error)
{
  sqlite3 *db = ws_store_get_db (store);
  sqlite3_stmt *st = prepare (db, table, "DELETE FROM %s WHERE name = ?1", "removing a document", error);
  int rc;

  if (st == NULL)
    return FALSE;
  sqlite3_bind_text (st, 1, name, -1, SQLITE_TRANSIENT);
  rc = sqlite3_step (st);
  sqlite3_finalize (st);
  return rc == SQLITE_DONE ? TRUE : db_fail (db, "removing a document", table, error);
}

gboolean
ws_gui_drafts_delete_model (WsStore *store, const char *table, const char *name, GError **error)
{
  g_autoptr (GError) core_error = NULL, read_error = NULL;
  g_autofree char *draft = ws_gui_drafts_get (store, table, name, &read_error);
  gboolean deleted;

  if (read_error != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&read_error));
      return FALSE;
    }
  if (draft != NULL && !ws_gui_drafts_delete (store, table, name, error))
    return FALSE;
  deleted = g_str_equal (table, WS_GUI_DRAFTS_SYSTEMS) ? ws_system_store_delete_system (store, name, &core_error)
                                                       : ws_system_store_delete_app (store, name, &core_error);
  if (!deleted && (draft == NULL || !g_error_matches (core_error, WS_ERROR, WS_ERROR_NOT_FOUND)))
    {
      g_propagate_error (error, g_steal_pointer (&core_error));
      return FALSE;
    }
  return TRUE;
}

static int
compare_names (gconstpointer a, gconstpointer b)
{
  return g_strcmp0 (*(char *const *) a, *(char *const *) b);
}

char **
ws_gui_drafts_merge_names (WsStore *store, const char *table, const char *const *models, GError **error)
{
  sqlite3 *db = ws_store_get_db (store);
  sqlite3_stmt *st = prepare (db, table, "SELECT name FROM %s ORDER BY name", "listing documents", error);
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);

  if (st == NULL)
    return NULL;
  for (guint i = 0; models != NULL && models[i] != NULL; i++)
    g_ptr_array_add (names, g_strdup (models[i]));
  while (sqlite3_step (st) == SQLITE_ROW)
    {
      const char *name = (const char *) sqlite3_column_text (st, 0);

      if (models == NULL || !g_strv_contains (models, name))
        g_ptr_array_add (names, g_strdup (name));
    }
  sqlite3_finalize (st);
  g_ptr_array_sort (names, compare_names);
  g_ptr_array_add (names, NULL);
  return (char **) g_ptr_array_free (g_steal_pointer (&names), FALSE);
}
