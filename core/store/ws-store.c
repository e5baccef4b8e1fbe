/* ws-store.c: the SQLite store — opening, migrations, seeding, catalogue.
 *
 * Migrations and the seed catalogue come from db/, compiled in as a
 * GResource.  Opening runs the whole upgrade in one IMMEDIATE transaction
 * that re-reads user_version after taking the write lock, so two processes
 * opening a fresh database at once neither apply a migration twice nor seed
 * twice: the second one waits (busy timeout) and then finds nothing to do. */
#define G_LOG_DOMAIN "ws-store"

#include "ws-config.h"
#include "store/ws-store.h"
#include "base/ws-json.h"

#include <errno.h>
#include <string.h>
#include <gio/gio.h>
#include <glib/gstdio.h>
#include <sqlite3.h>

#include "ws-db-resources.h"

#define RES_ROOT "/org/warpscope/db"
/* Long enough for another process to finish seeding a fresh database. */
#define BUSY_TIMEOUT_MS 30000

struct _WsStore {
  sqlite3 *db;
  char *path;
  gboolean read_only; /* no write permission: everything that only reads works */
};

/* ------------------------------------------------------------------------ */
/* Small SQLite helpers */

/* What to add to a failed write's message when the database is read-only. */
static const char *
read_only_hint (WsStore *store, int code)
{
  if ((code & 0xff) != SQLITE_READONLY && !store->read_only)
    return "";
  return " (the database is open read-only: Warpscope may not write the file or its folder; give it write "
         "permission or use another --db)";
}

static gboolean
sql_fail (WsStore *store, const char *what, GError **error)
{
  int code = sqlite3_extended_errcode (store->db);
  int wscode = (code & 0xff) == SQLITE_CORRUPT || (code & 0xff) == SQLITE_NOTADB ? WS_ERROR_CORRUPT : WS_ERROR_IO;
  g_set_error (error, WS_ERROR, wscode, "%s: %s: %s%s", store->path, what, sqlite3_errmsg (store->db),
               (code & 0xff) == SQLITE_READONLY ? read_only_hint (store, code) : "");
  return FALSE;
}

static gboolean
exec_sql (WsStore *store, const char *sql, const char *what, GError **error)
{
  char *msg = NULL;
  if (sqlite3_exec (store->db, sql, NULL, NULL, &msg) != SQLITE_OK)
    {
      int code = sqlite3_errcode (store->db);
      g_set_error (error, WS_ERROR, code == SQLITE_CORRUPT || code == SQLITE_NOTADB ? WS_ERROR_CORRUPT : WS_ERROR_IO,
                   "%s: %s: %s%s", store->path, what, msg != NULL ? msg : sqlite3_errstr (code),
                   (code & 0xff) == SQLITE_READONLY ? read_only_hint (store, code) : "");
      sqlite3_free (msg);
      return FALSE;
    }
  return TRUE;
}

static sqlite3_stmt *
prepare (WsStore *store, const char *sql, GError **error)
{
  sqlite3_stmt *stmt = NULL;
  if (sqlite3_prepare_v2 (store->db, sql, -1, &stmt, NULL) != SQLITE_OK)
    {
      sql_fail (store, "preparing a query", error);
      return NULL;
    }
  return stmt;
}

typedef sqlite3_stmt WsStmt;
static void
ws_stmt_finalize (WsStmt *stmt)
{
  sqlite3_finalize (stmt);
}
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsStmt, ws_stmt_finalize)

static gboolean
get_user_version (WsStore *store, int *version, GError **error)
{
  g_autoptr (WsStmt) stmt = prepare (store, "PRAGMA user_version", error);
  if (stmt == NULL)
    return FALSE;
  if (sqlite3_step (stmt) != SQLITE_ROW)
    return sql_fail (store, "reading the schema version", error);
  *version = sqlite3_column_int (stmt, 0);
  return TRUE;
}

/* ------------------------------------------------------------------------ */
/* Resources */

static GResource *
db_resource (void)
{
  /* Referencing the generated accessor (rather than relying on its
   * constructor) keeps the resource linked in from the static library. */
  return ws_db_get_resource ();
}

typedef struct {
  int number;
  char *name;
} Migration;

static int
compare_migrations (gconstpointer a, gconstpointer b)
{
  const Migration *ma = a, *mb = b;
  return ma->number - mb->number;
}

static void
migration_clear (gpointer p)
{
  g_free (((Migration *) p)->name);
}

/* Migrations are db/migrations/NNN-what.sql; NNN is the user_version the
 * database has after applying the file. */
static GArray *
list_migrations (GError **error)
{
  g_auto (GStrv) names = g_resource_enumerate_children (db_resource (), RES_ROOT "/migrations/",
                                                        G_RESOURCE_LOOKUP_FLAGS_NONE, error);
  if (names == NULL)
    return NULL;
  GArray *out = g_array_new (FALSE, FALSE, sizeof (Migration));
  g_array_set_clear_func (out, migration_clear);
  for (guint i = 0; names[i] != NULL; i++)
    {
      char *end = NULL;
      gint64 n = g_ascii_strtoll (names[i], &end, 10);
      if (end == names[i] || n <= 0 || !g_str_has_suffix (names[i], ".sql"))
        continue;
      Migration m = { (int) n, g_strdup (names[i]) };
      g_array_append_val (out, m);
    }
  g_array_sort (out, compare_migrations);
  return out;
}

static char *
resource_text (const char *path, GError **error)
{
  g_autoptr (GBytes) bytes = g_resource_lookup_data (db_resource (), path, G_RESOURCE_LOOKUP_FLAGS_NONE, error);
  if (bytes == NULL)
    return NULL;
  gsize len;
  const char *data = g_bytes_get_data (bytes, &len);
  return g_strndup (data, len);
}

/* ------------------------------------------------------------------------ */
/* Records */

static char *
node_to_string (JsonNode *node)
{
  return ws_hw_json_to_data (node, FALSE);
}

static JsonNode *
record_to_json (WsHwKind kind, const void *rec)
{
  switch (kind)
    {
    case WS_HW_GPU: return ws_gpu_to_json (rec);
    case WS_HW_CPU: return ws_cpu_to_json (rec);
    case WS_HW_LINK: return ws_link_to_json (rec);
    default: g_return_val_if_reached (NULL);
    }
}

static void *
record_from_json (WsHwKind kind, JsonNode *node, GError **error)
{
  switch (kind)
    {
    case WS_HW_GPU: return ws_gpu_from_json (node, error);
    case WS_HW_CPU: return ws_cpu_from_json (node, error);
    case WS_HW_LINK: return ws_link_from_json (node, error);
    default: g_return_val_if_reached (NULL);
    }
}

static GDestroyNotify
record_free_func (WsHwKind kind)
{
  switch (kind)
    {
    case WS_HW_GPU: return (GDestroyNotify) ws_gpu_free;
    case WS_HW_CPU: return (GDestroyNotify) ws_cpu_free;
    case WS_HW_LINK: return (GDestroyNotify) ws_link_free;
    default: g_return_val_if_reached (NULL);
    }
}

static const char *
kind_title (WsHwKind kind)
{
  switch (kind)
    {
    case WS_HW_GPU: return "GPU";
    case WS_HW_CPU: return "CPU";
    case WS_HW_LINK: return "link";
    default: return "component";
    }
}

/* The name is the first member of every record struct. */
static const char *
record_name (const void *rec)
{
  return *(char *const *) rec;
}

static const char *
record_architecture (WsHwKind kind, const void *rec)
{
  return kind == WS_HW_GPU ? ((const WsGpu *) rec)->architecture : NULL;
}

static void *
parse_record (WsStore *store, WsHwKind kind, const char *name, const char *text, GError **error)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) local = NULL;
  if (text == NULL || !ws_json_parser_load_data (parser, text, -1, &local))
    {
      g_set_error (error, WS_ERROR, WS_ERROR_CORRUPT, "%s: stored %s '%s' is not valid JSON: %s", store->path,
                   kind_title (kind), name, local->message);
      return NULL;
    }
  void *rec = record_from_json (kind, json_parser_get_root (parser), &local);
  if (rec == NULL)
    g_set_error (error, WS_ERROR, WS_ERROR_CORRUPT, "%s: stored %s '%s' is damaged: %s", store->path, kind_title (kind),
                 name, local->message);
  return rec;
}

static gboolean
insert_record (WsStore *store, WsHwKind kind, const void *rec, const char *origin, GError **error)
{
  g_autoptr (JsonNode) node = record_to_json (kind, rec);
  g_autofree char *text = node_to_string (node);
  g_autoptr (WsStmt)
    stmt = prepare (store, "INSERT INTO hw (kind, name, architecture, record, origin) VALUES (?, ?, ?, ?, ?)", error);
  if (stmt == NULL)
    return FALSE;
  sqlite3_bind_text (stmt, 1, ws_hw_kind_name (kind), -1, SQLITE_STATIC);
  sqlite3_bind_text (stmt, 2, record_name (rec), -1, SQLITE_TRANSIENT);
  sqlite3_bind_text (stmt, 3, record_architecture (kind, rec), -1, SQLITE_TRANSIENT);
  sqlite3_bind_text (stmt, 4, text, -1, SQLITE_TRANSIENT);
  sqlite3_bind_text (stmt, 5, origin, -1, SQLITE_STATIC);
  if (sqlite3_step (stmt) != SQLITE_DONE)
    {
      g_autofree char *what = g_strdup_printf ("storing %s '%s'", kind_title (kind), record_name (rec));
      return sql_fail (store, what, error);
    }
  return TRUE;
}

/* ------------------------------------------------------------------------ */
/* Seeding */

/* Each seed file, once inserted (or found under its name), is recorded in
 * meta as "seed:KIND/FILE" with the SHA-256 of the text offered, so a newer
 * Warpscope adds only the records that are new to this database and
 * refreshes the ones whose seed text changed (corrected catalogue values)
 * where the stored record is still the seed's: one the user edited
 * (origin 'user') or deleted is left as the user left it.  Databases from
 * before the checksum hold '1' there, which matches no checksum: their
 * unedited seed records are refreshed once. */
static char *
seed_key (WsHwKind kind, const char *file)
{
  return g_strdup_printf ("seed:%s/%s", ws_hw_kind_name (kind), file);
}

/* The checksum recorded when the seed was last offered (NULL: never). */
static gboolean
seed_offered (WsStore *store, const char *key, char **checksum, GError **error)
{
  g_autoptr (WsStmt) stmt = prepare (store, "SELECT value FROM meta WHERE key = ?", error);
  if (stmt == NULL)
    return FALSE;
  sqlite3_bind_text (stmt, 1, key, -1, SQLITE_TRANSIENT);
  int rc = sqlite3_step (stmt);
  if (rc != SQLITE_ROW && rc != SQLITE_DONE)
    return sql_fail (store, "reading the seed record list", error);
  *checksum = rc == SQLITE_ROW ? g_strdup ((const char *) sqlite3_column_text (stmt, 0)) : NULL;
  return TRUE;
}

static gboolean
mark_seed_offered (WsStore *store, const char *key, const char *checksum, GError **error)
{
  g_autoptr (WsStmt) stmt = prepare (store, "INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", error);
  if (stmt == NULL)
    return FALSE;
  sqlite3_bind_text (stmt, 1, key, -1, SQLITE_TRANSIENT);
  sqlite3_bind_text (stmt, 2, checksum, -1, SQLITE_TRANSIENT);
  if (sqlite3_step (stmt) != SQLITE_DONE)
    return sql_fail (store, "recording a seed record", error);
  return TRUE;
}

/* Whether a record of @kind named @name is stored (any origin). */
static gboolean
record_exists (WsStore *store, WsHwKind kind, const char *name, gboolean *exists, GError **error)
{
  g_autoptr (WsStmt) stmt = prepare (store, "SELECT 1 FROM hw WHERE kind = ? AND name = ?", error);
  if (stmt == NULL)
    return FALSE;
  sqlite3_bind_text (stmt, 1, ws_hw_kind_name (kind), -1, SQLITE_STATIC);
  sqlite3_bind_text (stmt, 2, name, -1, SQLITE_TRANSIENT);
  int rc = sqlite3_step (stmt);
  if (rc != SQLITE_ROW && rc != SQLITE_DONE)
    return sql_fail (store, "looking up a catalogue record", error);
  *exists = rc == SQLITE_ROW;
  return TRUE;
}

/* Replaces a stored seed record by the seed's new text, unless the user
 * edited it (origin 'user') or it is gone. */
static gboolean
refresh_seed_record (WsStore *store, WsHwKind kind, const void *rec, GError **error)
{
  g_autoptr (JsonNode) node = record_to_json (kind, rec);
  g_autofree char *text = node_to_string (node);
  g_autoptr (WsStmt) stmt = prepare (
    store, "UPDATE hw SET architecture = ?, record = ? WHERE kind = ? AND name = ? AND origin = 'seed'", error);
  if (stmt == NULL)
    return FALSE;
  sqlite3_bind_text (stmt, 1, record_architecture (kind, rec), -1, SQLITE_TRANSIENT);
  sqlite3_bind_text (stmt, 2, text, -1, SQLITE_TRANSIENT);
  sqlite3_bind_text (stmt, 3, ws_hw_kind_name (kind), -1, SQLITE_STATIC);
  sqlite3_bind_text (stmt, 4, record_name (rec), -1, SQLITE_TRANSIENT);
  if (sqlite3_step (stmt) != SQLITE_DONE)
    {
      g_autofree char *what = g_strdup_printf ("refreshing seed %s '%s'", kind_title (kind), record_name (rec));
      return sql_fail (store, what, error);
    }
  return TRUE;
}

/* Inserts the seed records of @kind; with @missing_only, only those whose
 * name is not stored yet (a newer Warpscope adding records to an older
 * database: the user's own and edited records are never overwritten), and
 * refreshes unedited seed records whose seed text changed. */
static gboolean
seed_kind (WsStore *store, WsHwKind kind, gboolean missing_only, GError **error)
{
  g_autofree char *dir = g_strdup_printf (RES_ROOT "/catalogue/%s/", ws_hw_kind_name (kind));
  g_autoptr (GError) local = NULL;
  g_auto (GStrv) names = g_resource_enumerate_children (db_resource (), dir, G_RESOURCE_LOOKUP_FLAGS_NONE, &local);
  if (names == NULL)
    return TRUE; /* no seed records of this kind */
  for (guint i = 0; names[i] != NULL; i++)
    {
      g_autofree char *key = seed_key (kind, names[i]);
      g_autofree char *path = g_strconcat (dir, names[i], NULL);
      g_autofree char *text = resource_text (path, error);
      if (text == NULL)
        return FALSE;
      g_autofree char *checksum = g_compute_checksum_for_string (G_CHECKSUM_SHA256, text, -1);
      g_autofree char *offered = NULL;
      if (missing_only && !seed_offered (store, key, &offered, error))
        return FALSE;
      if (offered != NULL && strcmp (offered, checksum) == 0)
        continue; /* this text was offered before: nothing new */
      g_autoptr (JsonParser) parser = json_parser_new ();
      if (!json_parser_load_from_data (parser, text, -1, &local))
        {
          g_set_error (error, WS_ERROR, WS_ERROR_CORRUPT, "seed catalogue db/catalogue/%s/%s: %s",
                       ws_hw_kind_name (kind), names[i], local->message);
          return FALSE;
        }
      void *rec = record_from_json (kind, json_parser_get_root (parser), &local);
      if (rec == NULL)
        {
          g_set_error (error, WS_ERROR, WS_ERROR_CORRUPT, "seed catalogue db/catalogue/%s/%s: %s",
                       ws_hw_kind_name (kind), names[i], local->message);
          return FALSE;
        }
      gboolean ok;
      if (offered != NULL)
        /* offered before with other text: a user who deleted it keeps it
         * deleted, one who edited it keeps the edit */
        ok = refresh_seed_record (store, kind, rec, error);
      else
        {
          gboolean exists = FALSE;
          ok = !missing_only || record_exists (store, kind, record_name (rec), &exists, error);
          if (ok && !exists)
            ok = insert_record (store, kind, rec, "seed", error);
        }
      record_free_func (kind) (rec);
      if (!ok || !mark_seed_offered (store, key, checksum, error))
        return FALSE;
    }
  return TRUE;
}

static gboolean
seed_catalogue (WsStore *store, gboolean missing_only, GError **error)
{
  return seed_kind (store, WS_HW_GPU, missing_only, error) && seed_kind (store, WS_HW_CPU, missing_only, error)
         && seed_kind (store, WS_HW_LINK, missing_only, error)
         && exec_sql (store,
                      "INSERT OR REPLACE INTO meta (key, value) VALUES ('seeded_by', 'warpscope " WS_VERSION "')",
                      "recording the seed", error);
}

/* ------------------------------------------------------------------------ */
/* Opening and migrating */

static gboolean
migrate (WsStore *store, GError **error)
{
  g_autoptr (GArray) migrations = list_migrations (error);
  if (migrations == NULL)
    return FALSE;
  int latest = migrations->len > 0 ? g_array_index (migrations, Migration, migrations->len - 1).number : 0;

  int version;
  if (!get_user_version (store, &version, error))
    return FALSE;
  if (version == latest)
    return TRUE; /* the common case: no write lock needed */
  if (store->read_only)
    {
      if (version > latest)
        g_set_error (error, WS_ERROR, WS_ERROR_UNSUPPORTED,
                     "%s: the database has schema version %d but this Warpscope (%s) knows only up to "
                     "%d; use a newer Warpscope or another --db file",
                     store->path, version, WS_VERSION, latest);
      else
        g_set_error (error, WS_ERROR, WS_ERROR_IO,
                     "%s: the database is read-only and %s; open it once with write permission on the file "
                     "and its folder",
                     store->path, version == 0 ? "empty (it needs creating)" : "needs upgrading to a newer schema");
      return FALSE;
    }

  if (!exec_sql (store, "BEGIN IMMEDIATE", "locking the database for an upgrade", error))
    return FALSE;
  /* Another process may have migrated while we waited for the lock. */
  if (!get_user_version (store, &version, error))
    goto rollback;
  if (version > latest)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_UNSUPPORTED,
                   "%s: the database has schema version %d but this Warpscope (%s) knows only up to "
                   "%d; use a newer Warpscope or another --db file",
                   store->path, version, WS_VERSION, latest);
      goto rollback;
    }
  int from = version;
  for (guint i = 0; i < migrations->len; i++)
    {
      Migration *m = &g_array_index (migrations, Migration, i);
      if (m->number <= version)
        continue;
      g_autofree char *path = g_strconcat (RES_ROOT "/migrations/", m->name, NULL);
      g_autofree char *sql = resource_text (path, error);
      if (sql == NULL)
        goto rollback;
      g_autofree char *what = g_strdup_printf ("applying migration db/migrations/%s", m->name);
      if (!exec_sql (store, sql, what, error))
        goto rollback;
      g_autofree char *set = g_strdup_printf ("PRAGMA user_version = %d", m->number);
      if (!exec_sql (store, set, what, error))
        goto rollback;
      version = m->number;
    }
  /* A database that was just created gets the catalogue; one that only
   * gained a newer schema keeps what its user made of the catalogue. */
  if (from == 0 && !seed_catalogue (store, FALSE, error))
    goto rollback;
  if (!exec_sql (store, "COMMIT", "committing the upgrade", error))
    goto rollback;
  return TRUE;

rollback:
  sqlite3_exec (store->db, "ROLLBACK", NULL, NULL, NULL);
  return FALSE;
}

/* A database made by an older Warpscope gains the seed records added since
 * (new GPUs) and the corrections of seed records its user has not edited,
 * never losing or overwriting what its user stored.  Best
 * effort: a read-only database simply keeps its catalogue. */
static void
add_new_seed_records (WsStore *store)
{
  g_autoptr (GError) local = NULL;
  gboolean any_new = FALSE;
  for (WsHwKind kind = WS_HW_GPU; kind <= WS_HW_LINK && !any_new; kind++)
    {
      g_autofree char *dir = g_strdup_printf (RES_ROOT "/catalogue/%s/", ws_hw_kind_name (kind));
      g_auto (GStrv) names = g_resource_enumerate_children (db_resource (), dir, G_RESOURCE_LOOKUP_FLAGS_NONE, NULL);
      for (guint i = 0; names != NULL && names[i] != NULL && !any_new; i++)
        {
          g_autofree char *key = seed_key (kind, names[i]);
          g_autofree char *path = g_strconcat (dir, names[i], NULL);
          g_autofree char *text = resource_text (path, NULL);
          g_autofree char *checksum = text ? g_compute_checksum_for_string (G_CHECKSUM_SHA256, text, -1) : NULL;
          g_autofree char *offered = NULL;
          if (!seed_offered (store, key, &offered, &local))
            {
              g_debug ("%s: %s", store->path, local->message);
              return;
            }
          any_new = offered == NULL || (checksum != NULL && strcmp (offered, checksum) != 0);
        }
    }
  if (!any_new)
    return; /* the common case: nothing to write */
  if (!exec_sql (store, "BEGIN IMMEDIATE", "locking the database to add new catalogue records", &local))
    {
      g_debug ("%s: %s", store->path, local->message);
      return;
    }
  if (!seed_catalogue (store, TRUE, &local) || !exec_sql (store, "COMMIT", "committing new catalogue records", &local))
    {
      g_debug ("%s: %s", store->path, local->message);
      sqlite3_exec (store->db, "ROLLBACK", NULL, NULL, NULL);
    }
}

char *
ws_store_default_path (void)
{
  g_autofree char *dir = g_build_filename (g_get_user_data_dir (), "warpscope", NULL);
  if (g_mkdir_with_parents (dir, 0700) != 0)
    g_warning ("cannot create %s: %s", dir, g_strerror (errno));
  return g_build_filename (dir, "warpscope.db", NULL);
}

static int
open_db (WsStore *store, int flags, GError **error)
{
  if (store->db != NULL)
    sqlite3_close_v2 (store->db);
  store->db = NULL;
  int rc = sqlite3_open_v2 (store->path, &store->db, flags | SQLITE_OPEN_FULLMUTEX, NULL);
  if (rc != SQLITE_OK)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_IO, "cannot open the database %s: %s", store->path,
                   store->db != NULL ? sqlite3_errmsg (store->db) : sqlite3_errstr (rc));
      return rc;
    }
  sqlite3_extended_result_codes (store->db, 1);
  sqlite3_busy_timeout (store->db, BUSY_TIMEOUT_MS);
  return SQLITE_OK;
}

/* Reopens the database read-only.  A WAL database needs its -shm file to
 * be read; where it cannot be created (a read-only folder) and none is
 * there, SQLite reads the file as immutable: no other process can be
 * writing it then, since the WAL could not be created either. */
static gboolean
open_read_only (WsStore *store, GError **error)
{
  store->read_only = TRUE;
  if (open_db (store, SQLITE_OPEN_READONLY, error) != SQLITE_OK)
    return FALSE;
  int version = 0;
  g_autoptr (GError) local = NULL;
  if (get_user_version (store, &version, &local))
    return exec_sql (store, "PRAGMA foreign_keys = ON", "enabling foreign keys", error);
  int code = sqlite3_errcode (store->db) & 0xff;
  if (code != SQLITE_CANTOPEN && code != SQLITE_READONLY)
    {
      g_propagate_error (error, g_steal_pointer (&local));
      return FALSE;
    }
  g_autofree char *abs = g_canonicalize_filename (store->path, NULL);
  g_autofree char *uri = g_filename_to_uri (abs, NULL, error);
  if (uri == NULL)
    return FALSE;
  g_autofree char *immutable = g_strconcat (uri, "?immutable=1", NULL);
  sqlite3_close_v2 (store->db);
  store->db = NULL;
  int rc = sqlite3_open_v2 (immutable, &store->db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_FULLMUTEX,
                            NULL);
  if (rc != SQLITE_OK)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_IO, "cannot open the read-only database %s: %s", store->path,
                   store->db != NULL ? sqlite3_errmsg (store->db) : sqlite3_errstr (rc));
      return FALSE;
    }
  sqlite3_extended_result_codes (store->db, 1);
  return exec_sql (store, "PRAGMA foreign_keys = ON", "enabling foreign keys", error);
}

/* PRAGMA journal_mode = WAL.  Changing the journal mode needs the file
 * exclusively, and where several processes open a new database at once
 * SQLite answers SQLITE_BUSY at once to all but one (to avoid a deadlock
 * its busy handler is not called), although the others would get the lock
 * a moment later: so a busy answer is retried, within the busy timeout.
 * (Seen as "database is locked" with 4 CLI processes on a new file.) */
static gboolean
switch_to_wal (WsStore *store, GError **error)
{
  gint64 until = g_get_monotonic_time () + (gint64) BUSY_TIMEOUT_MS * 1000;
  for (guint attempt = 0;; attempt++)
    {
      g_autoptr (GError) local = NULL;
      if (exec_sql (store, "PRAGMA journal_mode = WAL", "switching to write-ahead logging", &local))
        return TRUE;
      if ((sqlite3_errcode (store->db) & 0xff) != SQLITE_BUSY || g_get_monotonic_time () > until)
        {
          g_propagate_error (error, g_steal_pointer (&local));
          return FALSE;
        }
      g_usleep (MIN (1000u << MIN (attempt, 6u), 50000u)); /* 1, 2, 4 ... 50 ms */
    }
}

gboolean
ws_store_is_read_only (WsStore *store)
{
  g_return_val_if_fail (store != NULL, FALSE);
  return store->read_only;
}

WsStore *
ws_store_open (const char *path, GError **error)
{
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  g_autoptr (WsStore) store = g_new0 (WsStore, 1);
  store->path = path != NULL ? g_strdup (path) : ws_store_default_path ();

  g_autofree char *dir = g_path_get_dirname (store->path);
  if (g_mkdir_with_parents (dir, 0700) != 0)
    {
      int saved = errno;
      g_set_error (error, WS_ERROR, WS_ERROR_IO, "cannot create the folder %s for the database %s: %s", dir,
                   store->path, g_strerror (saved));
      return NULL;
    }

  int rc = open_db (store, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, error);
  if (rc != SQLITE_OK)
    return NULL;

  if (!exec_sql (store, "PRAGMA foreign_keys = ON", "enabling foreign keys", error))
    return NULL;
  /* WAL lets readers (the GUI) run while a writer (a CLI import, a sweep)
   * commits; it persists in the file once set.  Without write permission
   * on the file or its folder (WAL needs its -shm file beside it) the
   * database is opened read-only instead, so listing and reading work. */
  g_autoptr (GError) wal_error = NULL;
  if (sqlite3_db_readonly (store->db, "main") == 1 || !switch_to_wal (store, &wal_error))
    {
      int code = sqlite3_errcode (store->db) & 0xff;
      if (wal_error != NULL && code != SQLITE_READONLY && code != SQLITE_CANTOPEN)
        {
          g_propagate_error (error, g_steal_pointer (&wal_error));
          return NULL;
        }
      if (!open_read_only (store, error))
        return NULL;
    }
  else if (!exec_sql (store, "PRAGMA synchronous = NORMAL", "setting synchronous mode", error))
    return NULL;
  if (!migrate (store, error))
    return NULL;
  if (!store->read_only)
    add_new_seed_records (store);
  return g_steal_pointer (&store);
}

void
ws_store_close (WsStore *store)
{
  if (store == NULL)
    return;
  if (store->db != NULL)
    sqlite3_close_v2 (store->db);
  g_free (store->path);
  g_free (store);
}

const char *
ws_store_get_path (WsStore *store)
{
  g_return_val_if_fail (store != NULL, NULL);
  return store->path;
}

struct sqlite3 *
ws_store_get_db (WsStore *store)
{
  g_return_val_if_fail (store != NULL, NULL);
  return store->db;
}

/* ------------------------------------------------------------------------ */
/* Catalogue queries */

GPtrArray *
ws_store_list_hw (WsStore *store, WsHwKind kind, GPtrArray *damaged, GError **error)
{
  g_return_val_if_fail (store != NULL, NULL);
  g_autoptr (WsStmt)
    stmt = prepare (store, "SELECT name, record FROM hw WHERE kind = ? ORDER BY name COLLATE NOCASE", error);
  if (stmt == NULL)
    return NULL;
  sqlite3_bind_text (stmt, 1, ws_hw_kind_name (kind), -1, SQLITE_STATIC);
  g_autoptr (GPtrArray) out = g_ptr_array_new_with_free_func (record_free_func (kind));
  int rc;
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      const char *name = (const char *) sqlite3_column_text (stmt, 0);
      g_autoptr (GError) local = NULL;
      void *rec = parse_record (store, kind, name ? name : "?", (const char *) sqlite3_column_text (stmt, 1), &local);
      if (rec != NULL)
        {
          g_ptr_array_add (out, rec);
          continue;
        }
      /* One damaged record (written by another program, or by hand) must
       * not hide the others: it is left out and described. */
      g_autofree char *msg = g_strdup_printf ("%s; 'hw delete %s' removes it, 'hw import --replace FILE' "
                                              "stores a good record under its name",
                                              local->message, name ? name : "?");
      if (damaged != NULL)
        g_ptr_array_add (damaged, g_steal_pointer (&msg));
      else
        g_message ("%s", msg);
    }
  if (rc != SQLITE_DONE)
    {
      sql_fail (store, "listing the catalogue", error);
      return NULL;
    }
  return g_steal_pointer (&out);
}

GPtrArray *
ws_store_list_gpus (WsStore *store, GError **error)
{
  return ws_store_list_hw (store, WS_HW_GPU, NULL, error);
}

GPtrArray *
ws_store_list_cpus (WsStore *store, GError **error)
{
  return ws_store_list_hw (store, WS_HW_CPU, NULL, error);
}

GPtrArray *
ws_store_list_links (WsStore *store, GError **error)
{
  return ws_store_list_hw (store, WS_HW_LINK, NULL, error);
}

static GPtrArray *
names_of_kind (WsStore *store, WsHwKind kind)
{
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);
  sqlite3_stmt *stmt = NULL;
  if (sqlite3_prepare_v2 (store->db, "SELECT name FROM hw WHERE kind = ? ORDER BY name COLLATE NOCASE", -1, &stmt, NULL)
      == SQLITE_OK)
    {
      sqlite3_bind_text (stmt, 1, ws_hw_kind_name (kind), -1, SQLITE_STATIC);
      while (sqlite3_step (stmt) == SQLITE_ROW)
        g_ptr_array_add (names, g_strdup ((const char *) sqlite3_column_text (stmt, 0)));
    }
  sqlite3_finalize (stmt);
  g_ptr_array_add (names, NULL);
  return names;
}

static void
set_not_found (WsStore *store, WsHwKind kind, const char *name, GError **error)
{
  g_autoptr (GPtrArray) names = names_of_kind (store, kind);
  g_autofree char *close = ws_suggest_names (name, (const char *const *) names->pdata, 3);
  if (close != NULL)
    g_set_error (error, WS_ERROR, WS_ERROR_NOT_FOUND, "unknown %s '%s'; did you mean %s?", kind_title (kind), name,
                 close);
  else
    g_set_error (error, WS_ERROR, WS_ERROR_NOT_FOUND,
                 "unknown %s '%s'; 'hw list --kind %s' shows the %d in the catalogue", kind_title (kind), name,
                 ws_hw_kind_name (kind), (int) names->len - 1);
}

static void *
get_kind (WsStore *store, WsHwKind kind, const char *name, GError **error)
{
  g_return_val_if_fail (store != NULL, NULL);
  g_return_val_if_fail (name != NULL, NULL);
  g_autoptr (WsStmt) stmt = prepare (store, "SELECT name, record FROM hw WHERE kind = ? AND name = ?", error);
  if (stmt == NULL)
    return NULL;
  sqlite3_bind_text (stmt, 1, ws_hw_kind_name (kind), -1, SQLITE_STATIC);
  sqlite3_bind_text (stmt, 2, name, -1, SQLITE_TRANSIENT);
  int rc = sqlite3_step (stmt);
  if (rc == SQLITE_ROW)
    return parse_record (store, kind, (const char *) sqlite3_column_text (stmt, 0),
                         (const char *) sqlite3_column_text (stmt, 1), error);
  if (rc != SQLITE_DONE)
    {
      sql_fail (store, "looking up the catalogue", error);
      return NULL;
    }
  set_not_found (store, kind, name, error);
  return NULL;
}

WsGpu *
ws_store_get_gpu (WsStore *store, const char *name, GError **error)
{
  return get_kind (store, WS_HW_GPU, name, error);
}

WsCpu *
ws_store_get_cpu (WsStore *store, const char *name, GError **error)
{
  return get_kind (store, WS_HW_CPU, name, error);
}

WsLink *
ws_store_get_link (WsStore *store, const char *name, GError **error)
{
  return get_kind (store, WS_HW_LINK, name, error);
}

/* Inserts or replaces one record inside the caller's transaction. */
static gboolean
put_kind_locked (WsStore *store, WsHwKind kind, const void *rec, gboolean replace, GError **error)
{
  /* Validate through the import path so the store only ever holds records
   * that `hw import` would accept. */
  g_autoptr (JsonNode) node = record_to_json (kind, rec);
  void *checked = record_from_json (kind, node, error);
  if (checked == NULL)
    return FALSE;
  record_free_func (kind) (checked);

  const char *name = record_name (rec);
  g_autoptr (WsStmt) find = prepare (store, "SELECT id, kind, name FROM hw WHERE name = ?", error);
  if (find == NULL)
    return FALSE;
  sqlite3_bind_text (find, 1, name, -1, SQLITE_TRANSIENT);
  int rc = sqlite3_step (find);
  if (rc == SQLITE_ROW)
    {
      sqlite3_int64 id = sqlite3_column_int64 (find, 0);
      const char *existing_kind = (const char *) sqlite3_column_text (find, 1);
      const char *existing_name = (const char *) sqlite3_column_text (find, 2);
      WsHwKind ek = WS_HW_GPU;
      ws_hw_kind_from_string (existing_kind, &ek);
      if (ek != kind)
        {
          g_set_error (error, WS_ERROR, WS_ERROR_DUPLICATE,
                       "the name '%s' is already used by a %s in the catalogue; names are unique "
                       "across GPUs, CPUs and links, so choose another name for this %s",
                       existing_name, kind_title (ek), kind_title (kind));
          return FALSE;
        }
      if (!replace)
        {
          g_set_error (error, WS_ERROR, WS_ERROR_DUPLICATE,
                       "%s '%s' already exists in the catalogue; import with --replace to overwrite it "
                       "or choose another name",
                       kind_title (kind), existing_name);
          return FALSE;
        }
      g_autofree char *text = node_to_string (node);
      g_autoptr (WsStmt) upd = prepare (store,
                                        "UPDATE hw SET name = ?, architecture = ?, record = ?, origin = 'user', "
                                        "modified = strftime ('%Y-%m-%dT%H:%M:%SZ', 'now') WHERE id = ?",
                                        error);
      if (upd == NULL)
        return FALSE;
      sqlite3_bind_text (upd, 1, name, -1, SQLITE_TRANSIENT);
      sqlite3_bind_text (upd, 2, record_architecture (kind, rec), -1, SQLITE_TRANSIENT);
      sqlite3_bind_text (upd, 3, text, -1, SQLITE_TRANSIENT);
      sqlite3_bind_int64 (upd, 4, id);
      if (sqlite3_step (upd) != SQLITE_DONE)
        {
          sql_fail (store, "replacing a catalogue record", error);
          return FALSE;
        }
    }
  else if (rc == SQLITE_DONE)
    {
      if (!insert_record (store, kind, rec, "user", error))
        return FALSE;
    }
  else
    {
      sql_fail (store, "looking up the catalogue", error);
      return FALSE;
    }
  return TRUE;
}

static gboolean
put_many (WsStore *store, const WsHwPut *items, guint n_items, gboolean replace, GError **error)
{
  if (!exec_sql (store, "BEGIN IMMEDIATE", "locking the database", error))
    return FALSE;
  for (guint i = 0; i < n_items; i++)
    if (!put_kind_locked (store, items[i].kind, items[i].record, replace, error))
      {
        sqlite3_exec (store->db, "ROLLBACK", NULL, NULL, NULL);
        return FALSE;
      }
  if (!exec_sql (store, "COMMIT", "committing the catalogue change", error))
    {
      sqlite3_exec (store->db, "ROLLBACK", NULL, NULL, NULL);
      return FALSE;
    }
  return TRUE;
}

static gboolean
put_kind (WsStore *store, WsHwKind kind, const void *rec, gboolean replace, GError **error)
{
  g_return_val_if_fail (store != NULL, FALSE);
  g_return_val_if_fail (rec != NULL, FALSE);
  WsHwPut one = { kind, rec };
  return put_many (store, &one, 1, replace, error);
}

gboolean
ws_store_put_hw_many (WsStore *store, const WsHwPut *items, guint n_items, gboolean replace, GError **error)
{
  g_return_val_if_fail (store != NULL, FALSE);
  g_return_val_if_fail (items != NULL || n_items == 0, FALSE);
  return put_many (store, items, n_items, replace, error);
}


gboolean
ws_store_put_gpu (WsStore *store, const WsGpu *gpu, gboolean replace, GError **error)
{
  return put_kind (store, WS_HW_GPU, gpu, replace, error);
}

gboolean
ws_store_put_cpu (WsStore *store, const WsCpu *cpu, gboolean replace, GError **error)
{
  return put_kind (store, WS_HW_CPU, cpu, replace, error);
}

gboolean
ws_store_put_link (WsStore *store, const WsLink *link, gboolean replace, GError **error)
{
  return put_kind (store, WS_HW_LINK, link, replace, error);
}

gboolean
ws_store_delete_hw (WsStore *store, WsHwKind kind, const char *name, GError **error)
{
  g_return_val_if_fail (store != NULL, FALSE);
  g_return_val_if_fail (name != NULL, FALSE);
  g_autoptr (WsStmt) stmt = prepare (store, "DELETE FROM hw WHERE kind = ? AND name = ?", error);
  if (stmt == NULL)
    return FALSE;
  sqlite3_bind_text (stmt, 1, ws_hw_kind_name (kind), -1, SQLITE_STATIC);
  sqlite3_bind_text (stmt, 2, name, -1, SQLITE_TRANSIENT);
  if (sqlite3_step (stmt) != SQLITE_DONE)
    return sql_fail (store, "deleting a catalogue record", error);
  if (sqlite3_changes (store->db) == 0)
    {
      set_not_found (store, kind, name, error);
      return FALSE;
    }
  return TRUE;
}

gboolean
ws_store_find_hw (WsStore *store, const char *name, WsHwKind *kind, GError **error)
{
  g_return_val_if_fail (store != NULL, FALSE);
  g_return_val_if_fail (name != NULL, FALSE);
  g_autoptr (WsStmt) stmt = prepare (store, "SELECT kind FROM hw WHERE name = ?", error);
  if (stmt == NULL)
    return FALSE;
  sqlite3_bind_text (stmt, 1, name, -1, SQLITE_TRANSIENT);
  int rc = sqlite3_step (stmt);
  if (rc == SQLITE_ROW)
    {
      if (!ws_hw_kind_from_string ((const char *) sqlite3_column_text (stmt, 0), kind))
        {
          g_set_error (error, WS_ERROR, WS_ERROR_CORRUPT, "%s: record '%s' has an unknown kind", store->path, name);
          return FALSE;
        }
      return TRUE;
    }
  if (rc != SQLITE_DONE)
    return sql_fail (store, "looking up the catalogue", error);

  /* Suggest across every kind: the user did not say which one they meant. */
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (WsStmt) all = prepare (store, "SELECT name FROM hw ORDER BY name COLLATE NOCASE", error);
  if (all == NULL)
    return FALSE;
  while (sqlite3_step (all) == SQLITE_ROW)
    g_ptr_array_add (names, g_strdup ((const char *) sqlite3_column_text (all, 0)));
  g_ptr_array_add (names, NULL);
  g_autofree char *close = ws_suggest_names (name, (const char *const *) names->pdata, 3);
  if (close != NULL)
    g_set_error (error, WS_ERROR, WS_ERROR_NOT_FOUND, "unknown GPU, CPU or link '%s'; did you mean %s?", name, close);
  else
    g_set_error (error, WS_ERROR, WS_ERROR_NOT_FOUND, "unknown GPU, CPU or link '%s'; 'hw list' shows the catalogue",
                 name);
  return FALSE;
}
