/* ws-measure-store.c: measurement sets and calibrated λ values in the store
 * (db/migrations/004-measurements.sql). */
#include "measure/ws-measure.h"
#include "measure/ws-measure-private.h"
#include <sqlite3.h>
#include <string.h>

static gboolean
db_error (sqlite3 *db, const char *what, GError **error)
{
  g_set_error (error, WS_ERROR, WS_ERROR_IO, "%s: %s", what, sqlite3_errmsg (db));
  return FALSE;
}

WsMeasureStmt *
ws_measure_prepare (WsStore *store, const char *sql, GError **error)
{
  sqlite3 *db = ws_store_get_db (store);
  sqlite3_stmt *stmt = NULL;
  if (sqlite3_prepare_v2 (db, sql, -1, &stmt, NULL) != SQLITE_OK)
    {
      db_error (db, "preparing a measurement query", error);
      return NULL;
    }
  return stmt;
}

gboolean
ws_measure_exec (WsStore *store, const char *sql, GError **error)
{
  sqlite3 *db = ws_store_get_db (store);
  char *msg = NULL;
  if (sqlite3_exec (db, sql, NULL, NULL, &msg) != SQLITE_OK)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_IO, "%s: %s", sql, msg ? msg : sqlite3_errmsg (db));
      sqlite3_free (msg);
      return FALSE;
    }
  return TRUE;
}

WsMeasurementSet *
ws_measurement_set_new (const char *name, const char *gpu)
{
  WsMeasurementSet *set = g_new0 (WsMeasurementSet, 1);
  set->name = g_strdup (name);
  set->gpu = g_strdup (gpu);
  set->analytic = g_ptr_array_new_with_free_func (g_free);
  return set;
}

void
ws_measurement_set_free (WsMeasurementSet *set)
{
  if (set == NULL)
    return;
  g_free (set->name);
  g_free (set->gpu);
  g_free (set->source);
  g_free (set->trace);
  g_free (set->created);
  g_clear_pointer (&set->analytic, g_ptr_array_unref);
  g_clear_pointer (&set->rows, g_array_unref);
  g_free (set);
}

static char *
analytic_to_json (GPtrArray *files)
{
  g_autoptr (JsonBuilder) b = json_builder_new ();
  json_builder_begin_array (b);
  for (guint i = 0; files && i < files->len; i++)
    json_builder_add_string_value (b, g_ptr_array_index (files, i));
  json_builder_end_array (b);
  g_autoptr (JsonNode) root = json_builder_get_root (b);
  return json_to_string (root, FALSE);
}

static void
analytic_from_json (const char *text, GPtrArray *files)
{
  g_autoptr (JsonNode) node = json_from_string (text, NULL);
  if (node == NULL || !JSON_NODE_HOLDS_ARRAY (node))
    return;
  JsonArray *a = json_node_get_array (node);
  for (guint i = 0; i < json_array_get_length (a); i++)
    g_ptr_array_add (files, g_strdup (json_array_get_string_element (a, i)));
}

gboolean
ws_measure_store_put (WsStore *store, WsMeasurementSet *set, gboolean replace, GError **error)
{
  g_return_val_if_fail (set != NULL && set->rows != NULL, FALSE);
  sqlite3 *db = ws_store_get_db (store);
  if (!ws_measure_exec (store, "BEGIN IMMEDIATE", error))
    return FALSE;
  {
    g_autoptr (WsMeasureStmt) find = ws_measure_prepare (store, "SELECT id FROM measurement_set WHERE name = ?", error);
    if (find == NULL)
      goto fail;
    sqlite3_bind_text (find, 1, set->name, -1, SQLITE_TRANSIENT);
    if (sqlite3_step (find) == SQLITE_ROW)
      {
        if (!replace)
          {
            g_set_error (error, WS_ERROR, WS_ERROR_DUPLICATE,
                         "a measurement set called \"%s\" exists already; choose another --name or delete it first",
                         set->name);
            goto fail;
          }
        g_autoptr (WsMeasureStmt) del = ws_measure_prepare (store, "DELETE FROM measurement_set WHERE id = ?", error);
        if (del == NULL)
          goto fail;
        sqlite3_bind_int64 (del, 1, sqlite3_column_int64 (find, 0));
        if (sqlite3_step (del) != SQLITE_DONE)
          {
            db_error (db, "replacing a measurement set", error);
            goto fail;
          }
      }
  }
  {
    g_autoptr (WsMeasureStmt) ins = ws_measure_prepare (
      store, "INSERT INTO measurement_set (name, gpu, source, trace, analytic) VALUES (?, ?, ?, ?, ?)", error);
    if (ins == NULL)
      goto fail;
    g_autofree char *analytic = analytic_to_json (set->analytic);
    sqlite3_bind_text (ins, 1, set->name, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text (ins, 2, set->gpu, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text (ins, 3, set->source, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text (ins, 4, set->trace, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text (ins, 5, analytic, -1, SQLITE_TRANSIENT);
    if (sqlite3_step (ins) != SQLITE_DONE)
      {
        db_error (db, "storing a measurement set", error);
        goto fail;
      }
    set->id = sqlite3_last_insert_rowid (db);
  }
  {
    g_autoptr (WsMeasureStmt) row = ws_measure_prepare (
      store,
      "INSERT INTO measurement (set_id, row, kind, name, occurrence, grid_x, grid_y, grid_z, block_x, block_y, "
      "block_z, shared_bytes, registers, direction, bytes, runs, duration_ns) "
      "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
      error);
    if (row == NULL)
      goto fail;
    for (guint i = 0; i < set->rows->len; i++)
      {
        const WsMeasurement *m = &g_array_index (set->rows, WsMeasurement, i);
        sqlite3_reset (row);
        sqlite3_clear_bindings (row);
        sqlite3_bind_int64 (row, 1, set->id);
        sqlite3_bind_int (row, 2, (int) i);
        sqlite3_bind_text (row, 3, m->kind == WS_MEASURE_KERNEL ? "kernel" : "memcpy", -1, SQLITE_STATIC);
        sqlite3_bind_text (row, 4, m->name, -1, SQLITE_TRANSIENT);
        sqlite3_bind_int64 (row, 5, m->occurrence);
        if (m->kind == WS_MEASURE_KERNEL)
          {
            for (int d = 0; d < 3; d++)
              {
                sqlite3_bind_int64 (row, 6 + d, m->grid[d]);
                sqlite3_bind_int64 (row, 9 + d, m->block[d]);
              }
            sqlite3_bind_int64 (row, 12, m->shared_bytes);
            sqlite3_bind_int64 (row, 13, m->registers);
          }
        else
          {
            sqlite3_bind_text (row, 14, ws_memcpy_direction_name (m->direction), -1, SQLITE_STATIC);
            sqlite3_bind_int64 (row, 15, (sqlite3_int64) m->bytes);
          }
        sqlite3_bind_int64 (row, 16, m->runs);
        sqlite3_bind_double (row, 17, m->duration_ns);
        if (sqlite3_step (row) != SQLITE_DONE)
          {
            db_error (db, "storing a measurement", error);
            goto fail;
          }
      }
  }
  return ws_measure_exec (store, "COMMIT", error);

fail:
  sqlite3_exec (db, "ROLLBACK", NULL, NULL, NULL);
  return FALSE;
}

static WsMeasurementSet *
set_from_row (sqlite3_stmt *s)
{
  WsMeasurementSet *set = ws_measurement_set_new ((const char *) sqlite3_column_text (s, 1),
                                                  (const char *) sqlite3_column_text (s, 2));
  set->id = sqlite3_column_int64 (s, 0);
  set->source = g_strdup ((const char *) sqlite3_column_text (s, 3));
  set->trace = g_strdup ((const char *) sqlite3_column_text (s, 4));
  analytic_from_json ((const char *) sqlite3_column_text (s, 5), set->analytic);
  set->created = g_strdup ((const char *) sqlite3_column_text (s, 6));
  return set;
}

#define SET_COLUMNS "id, name, gpu, source, trace, analytic, created"

GPtrArray *
ws_measure_store_list (WsStore *store, GError **error)
{
  g_autoptr (WsMeasureStmt) s = ws_measure_prepare (
    store,
    "SELECT " SET_COLUMNS ", (SELECT count(*) FROM measurement WHERE set_id = measurement_set.id) "
    "FROM measurement_set ORDER BY name",
    error);
  if (s == NULL)
    return NULL;
  GPtrArray *out = g_ptr_array_new_with_free_func ((GDestroyNotify) ws_measurement_set_free);
  while (sqlite3_step (s) == SQLITE_ROW)
    g_ptr_array_add (out, set_from_row (s));
  return out;
}

WsMeasurementSet *
ws_measure_store_get (WsStore *store, const char *name, GError **error)
{
  g_autoptr (WsMeasureStmt)
    s = ws_measure_prepare (store, "SELECT " SET_COLUMNS " FROM measurement_set WHERE name = ?", error);
  if (s == NULL)
    return NULL;
  sqlite3_bind_text (s, 1, name, -1, SQLITE_TRANSIENT);
  if (sqlite3_step (s) != SQLITE_ROW)
    {
      g_autoptr (GPtrArray) all = ws_measure_store_list (store, NULL);
      g_autoptr (GString) names = g_string_new (NULL);
      for (guint i = 0; all && i < all->len; i++)
        g_string_append_printf (names, "%s%s", i ? ", " : "", ((WsMeasurementSet *) all->pdata[i])->name);
      g_set_error (error, WS_ERROR, WS_ERROR_NOT_FOUND, "no measurement set called \"%s\" (%s%s)", name,
                   names->len ? "stored sets: " : "none stored; import one with `measurements import`", names->str);
      return NULL;
    }
  g_autoptr (WsMeasurementSet) set = set_from_row (s);
  g_autoptr (WsMeasureStmt) r = ws_measure_prepare (
    store,
    "SELECT kind, name, occurrence, grid_x, grid_y, grid_z, block_x, block_y, block_z, shared_bytes, registers, "
    "direction, bytes, runs, duration_ns FROM measurement WHERE set_id = ? ORDER BY row",
    error);
  if (r == NULL)
    return NULL;
  sqlite3_bind_int64 (r, 1, set->id);
  set->rows = ws_measurements_new ();
  while (sqlite3_step (r) == SQLITE_ROW)
    {
      WsMeasurement m = { .direction = WS_MEMCPY_NONE };
      m.kind = strcmp ((const char *) sqlite3_column_text (r, 0), "kernel") == 0 ? WS_MEASURE_KERNEL
                                                                                 : WS_MEASURE_MEMCPY;
      m.name = g_strdup ((const char *) sqlite3_column_text (r, 1));
      m.occurrence = (guint) sqlite3_column_int64 (r, 2);
      for (int d = 0; d < 3; d++)
        {
          m.grid[d] = (guint32) sqlite3_column_int64 (r, 3 + d);
          m.block[d] = (guint32) sqlite3_column_int64 (r, 6 + d);
        }
      m.shared_bytes = (guint32) sqlite3_column_int64 (r, 9);
      m.registers = (guint32) sqlite3_column_int64 (r, 10);
      if (sqlite3_column_type (r, 11) != SQLITE_NULL)
        ws_memcpy_direction_from_string ((const char *) sqlite3_column_text (r, 11), &m.direction);
      m.bytes = (guint64) sqlite3_column_int64 (r, 12);
      m.runs = (guint) sqlite3_column_int64 (r, 13);
      m.duration_ns = sqlite3_column_double (r, 14);
      g_array_append_val (set->rows, m);
    }
  return g_steal_pointer (&set);
}

gboolean
ws_measure_store_delete (WsStore *store, const char *name, GError **error)
{
  g_autoptr (WsMeasurementSet) set = ws_measure_store_get (store, name, error);
  if (set == NULL)
    return FALSE;
  g_autoptr (WsMeasureStmt) s = ws_measure_prepare (store, "DELETE FROM measurement_set WHERE id = ?", error);
  if (s == NULL)
    return FALSE;
  sqlite3_bind_int64 (s, 1, set->id);
  if (sqlite3_step (s) != SQLITE_DONE)
    return db_error (ws_store_get_db (store), "deleting a measurement set", error);
  return TRUE;
}

JsonNode *
ws_measurement_set_to_json (const WsMeasurementSet *set, gboolean with_rows)
{
  g_autoptr (JsonBuilder) b = json_builder_new ();
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "name");
  json_builder_add_string_value (b, set->name);
  json_builder_set_member_name (b, "gpu");
  json_builder_add_string_value (b, set->gpu);
  json_builder_set_member_name (b, "source");
  json_builder_add_string_value (b, set->source);
  json_builder_set_member_name (b, "trace");
  json_builder_add_string_value (b, set->trace);
  json_builder_set_member_name (b, "analytic");
  json_builder_begin_array (b);
  for (guint i = 0; set->analytic && i < set->analytic->len; i++)
    json_builder_add_string_value (b, g_ptr_array_index (set->analytic, i));
  json_builder_end_array (b);
  json_builder_set_member_name (b, "created");
  json_builder_add_string_value (b, set->created);
  if (set->rows != NULL)
    {
      guint kernels = 0, copies = 0;
      for (guint i = 0; i < set->rows->len; i++)
        (g_array_index (set->rows, WsMeasurement, i).kind == WS_MEASURE_KERNEL ? kernels++ : copies++);
      json_builder_set_member_name (b, "kernels");
      json_builder_add_int_value (b, kernels);
      json_builder_set_member_name (b, "memcpys");
      json_builder_add_int_value (b, copies);
    }
  if (with_rows && set->rows != NULL)
    {
      json_builder_set_member_name (b, "rows");
      json_builder_begin_array (b);
      for (guint i = 0; i < set->rows->len; i++)
        {
          const WsMeasurement *m = &g_array_index (set->rows, WsMeasurement, i);
          json_builder_begin_object (b);
          json_builder_set_member_name (b, "kind");
          json_builder_add_string_value (b, m->kind == WS_MEASURE_KERNEL ? "kernel" : "memcpy");
          json_builder_set_member_name (b, "name");
          json_builder_add_string_value (b, m->name);
          json_builder_set_member_name (b, "occurrence");
          json_builder_add_int_value (b, m->occurrence);
          if (m->kind == WS_MEASURE_KERNEL)
            {
              json_builder_set_member_name (b, "grid");
              json_builder_begin_array (b);
              for (int d = 0; d < 3; d++)
                json_builder_add_int_value (b, m->grid[d]);
              json_builder_end_array (b);
              json_builder_set_member_name (b, "block");
              json_builder_begin_array (b);
              for (int d = 0; d < 3; d++)
                json_builder_add_int_value (b, m->block[d]);
              json_builder_end_array (b);
              json_builder_set_member_name (b, "shared_bytes");
              json_builder_add_int_value (b, m->shared_bytes);
              json_builder_set_member_name (b, "registers");
              json_builder_add_int_value (b, m->registers);
            }
          else
            {
              json_builder_set_member_name (b, "direction");
              json_builder_add_string_value (b, ws_memcpy_direction_name (m->direction));
              json_builder_set_member_name (b, "bytes");
              json_builder_add_int_value (b, (gint64) m->bytes);
            }
          json_builder_set_member_name (b, "runs");
          json_builder_add_int_value (b, m->runs);
          json_builder_set_member_name (b, "duration_ns");
          json_builder_add_double_value (b, m->duration_ns);
          json_builder_end_object (b);
        }
      json_builder_end_array (b);
    }
  json_builder_end_object (b);
  return json_builder_get_root (b);
}

/* ------------------------------------------------------------------------ */
/* Calibrated λ */

gboolean
ws_measure_store_put_lambda_kernel (WsStore *store, const char *kernel, const char *architecture,
                                    const WsKernelFit *fit, const char *set_name, const char *gpu, GError **error)
{
  g_autoptr (WsMeasureStmt) s = ws_measure_prepare (
    store,
    "INSERT OR REPLACE INTO lambda_kernel (kernel, architecture, lambda, n_points, rms_rel_error, set_name, gpu) "
    "VALUES (?, ?, ?, ?, ?, ?, ?)",
    error);
  if (s == NULL)
    return FALSE;
  sqlite3_bind_text (s, 1, kernel, -1, SQLITE_TRANSIENT);
  sqlite3_bind_text (s, 2, architecture, -1, SQLITE_TRANSIENT);
  sqlite3_bind_double (s, 3, fit->lambda);
  sqlite3_bind_int (s, 4, (int) fit->n_points);
  sqlite3_bind_double (s, 5, fit->rms_rel_error);
  sqlite3_bind_text (s, 6, set_name, -1, SQLITE_TRANSIENT);
  sqlite3_bind_text (s, 7, gpu, -1, SQLITE_TRANSIENT);
  if (sqlite3_step (s) != SQLITE_DONE)
    return db_error (ws_store_get_db (store), "storing a calibrated lambda_k", error);
  return TRUE;
}

gboolean
ws_measure_store_put_lambda_link (WsStore *store, const char *link, WsMemcpyDirection dir, const WsLinkFit *fit,
                                  const char *set_name, const char *gpu, GError **error)
{
  g_autoptr (WsMeasureStmt) s = ws_measure_prepare (
    store,
    "INSERT OR REPLACE INTO lambda_link (link, direction, startup_s, lambda, bandwidth_gbs, n_points, "
    "rms_rel_error, set_name, gpu) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
    error);
  if (s == NULL)
    return FALSE;
  sqlite3_bind_text (s, 1, link, -1, SQLITE_TRANSIENT);
  sqlite3_bind_text (s, 2, ws_memcpy_direction_name (dir), -1, SQLITE_STATIC);
  sqlite3_bind_double (s, 3, fit->startup_s);
  sqlite3_bind_double (s, 4, fit->lambda);
  sqlite3_bind_double (s, 5, fit->bandwidth_gbs);
  sqlite3_bind_int (s, 6, (int) fit->n_points);
  sqlite3_bind_double (s, 7, fit->rms_rel_error);
  sqlite3_bind_text (s, 8, set_name, -1, SQLITE_TRANSIENT);
  sqlite3_bind_text (s, 9, gpu, -1, SQLITE_TRANSIENT);
  if (sqlite3_step (s) != SQLITE_DONE)
    return db_error (ws_store_get_db (store), "storing a calibrated lambda_c", error);
  return TRUE;
}

gboolean
ws_measure_lookup_lambda (WsStore *store, const char *kernel, const char *architecture, double *lambda, GError **error)
{
  g_return_val_if_fail (store != NULL && kernel != NULL && architecture != NULL && lambda != NULL, FALSE);
  g_autoptr (WsMeasureStmt)
    s = ws_measure_prepare (store, "SELECT lambda FROM lambda_kernel WHERE kernel = ? AND architecture = ?", error);
  if (s == NULL)
    return FALSE;
  sqlite3_bind_text (s, 1, kernel, -1, SQLITE_TRANSIENT);
  sqlite3_bind_text (s, 2, architecture, -1, SQLITE_TRANSIENT);
  if (sqlite3_step (s) != SQLITE_ROW)
    return FALSE;
  *lambda = sqlite3_column_double (s, 0);
  return TRUE;
}

gboolean
ws_measure_apply_lambda (WsStore *store, const char *kernel, const char *architecture, GHashTable *options,
                         GError **error)
{
  g_return_val_if_fail (options != NULL, FALSE);
  if (g_hash_table_contains (options, "lambda") || kernel == NULL || architecture == NULL)
    return FALSE;
  double lambda;
  if (!ws_measure_lookup_lambda (store, kernel, architecture, &lambda, error))
    return FALSE;
  char buf[G_ASCII_DTOSTR_BUF_SIZE];
  g_hash_table_insert (options, g_strdup ("lambda"), g_strdup (g_ascii_dtostr (buf, sizeof buf, lambda)));
  return TRUE;
}

JsonNode *
ws_measure_list_lambdas (WsStore *store, GError **error)
{
  g_autoptr (JsonBuilder) b = json_builder_new ();
  json_builder_begin_array (b);
  {
    g_autoptr (WsMeasureStmt) s = ws_measure_prepare (
      store,
      "SELECT kernel, architecture, lambda, n_points, rms_rel_error, set_name, gpu, created FROM lambda_kernel "
      "ORDER BY kernel, architecture",
      error);
    if (s == NULL)
      return NULL;
    while (sqlite3_step (s) == SQLITE_ROW)
      {
        json_builder_begin_object (b);
        json_builder_set_member_name (b, "kind");
        json_builder_add_string_value (b, "kernel");
        json_builder_set_member_name (b, "kernel");
        json_builder_add_string_value (b, (const char *) sqlite3_column_text (s, 0));
        json_builder_set_member_name (b, "architecture");
        json_builder_add_string_value (b, (const char *) sqlite3_column_text (s, 1));
        json_builder_set_member_name (b, "lambda");
        json_builder_add_double_value (b, sqlite3_column_double (s, 2));
        json_builder_set_member_name (b, "n_points");
        json_builder_add_int_value (b, sqlite3_column_int (s, 3));
        json_builder_set_member_name (b, "rms_rel_error");
        json_builder_add_double_value (b, sqlite3_column_double (s, 4));
        json_builder_set_member_name (b, "set");
        json_builder_add_string_value (b, (const char *) sqlite3_column_text (s, 5));
        json_builder_set_member_name (b, "gpu");
        json_builder_add_string_value (b, (const char *) sqlite3_column_text (s, 6));
        json_builder_set_member_name (b, "created");
        json_builder_add_string_value (b, (const char *) sqlite3_column_text (s, 7));
        json_builder_end_object (b);
      }
  }
  {
    g_autoptr (WsMeasureStmt) s = ws_measure_prepare (
      store,
      "SELECT link, direction, startup_s, lambda, bandwidth_gbs, n_points, rms_rel_error, set_name, gpu, created "
      "FROM lambda_link ORDER BY link, direction",
      error);
    if (s == NULL)
      return NULL;
    while (sqlite3_step (s) == SQLITE_ROW)
      {
        json_builder_begin_object (b);
        json_builder_set_member_name (b, "kind");
        json_builder_add_string_value (b, "link");
        json_builder_set_member_name (b, "link");
        json_builder_add_string_value (b, (const char *) sqlite3_column_text (s, 0));
        json_builder_set_member_name (b, "direction");
        json_builder_add_string_value (b, (const char *) sqlite3_column_text (s, 1));
        json_builder_set_member_name (b, "startup_s");
        json_builder_add_double_value (b, sqlite3_column_double (s, 2));
        json_builder_set_member_name (b, "lambda");
        json_builder_add_double_value (b, sqlite3_column_double (s, 3));
        json_builder_set_member_name (b, "bandwidth_gbs");
        json_builder_add_double_value (b, sqlite3_column_double (s, 4));
        json_builder_set_member_name (b, "n_points");
        json_builder_add_int_value (b, sqlite3_column_int (s, 5));
        json_builder_set_member_name (b, "rms_rel_error");
        json_builder_add_double_value (b, sqlite3_column_double (s, 6));
        json_builder_set_member_name (b, "set");
        json_builder_add_string_value (b, (const char *) sqlite3_column_text (s, 7));
        json_builder_set_member_name (b, "gpu");
        json_builder_add_string_value (b, (const char *) sqlite3_column_text (s, 8));
        json_builder_set_member_name (b, "created");
        json_builder_add_string_value (b, (const char *) sqlite3_column_text (s, 9));
        json_builder_end_object (b);
      }
  }
  json_builder_end_array (b);
  return json_builder_get_root (b);
}
