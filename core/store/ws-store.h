/* ws-store.h: the SQLite store (catalogue, and later models, runs, results).
 * One database file; foreign keys on, WAL, migrations by PRAGMA user_version,
 * seeded from db/ on first use. */
#pragma once

#include "hw/ws-hw.h"

G_BEGIN_DECLS

typedef struct _WsStore WsStore;

/* Default path: $XDG_DATA_HOME/warpscope/warpscope.db (directory created). */
WS_EXPORT char *ws_store_default_path (void);
/* Opens (creating, migrating and seeding as needed).  @path NULL = default.
 * Without write permission on the file or its folder the database is
 * opened read-only: everything that only reads works, and a write fails
 * with an error that says the database is read-only. */
WS_EXPORT WsStore *ws_store_open (const char *path, GError **error);
WS_EXPORT gboolean ws_store_is_read_only (WsStore *store);
WS_EXPORT void ws_store_close (WsStore *store);
WS_EXPORT const char *ws_store_get_path (WsStore *store);
/* The raw handle, for modules that keep their own tables (runs, models...). */
WS_EXPORT struct sqlite3 *ws_store_get_db (WsStore *store);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsStore, ws_store_close)

/* Catalogue.  Lists are sorted by name; elements owned by the array.  A
 * stored record that cannot be read (damaged by another program) is left
 * out of a list, not fatal to it: ws_store_list_hw describes it in
 * @damaged (of char*: messages naming the database, the record and what to
 * do; may be NULL); the other lists log it with g_message. */
WS_EXPORT GPtrArray *ws_store_list_hw (WsStore *store, WsHwKind kind, GPtrArray *damaged, GError **error);
WS_EXPORT GPtrArray *ws_store_list_gpus (WsStore *store, GError **error);  /* of WsGpu* */
WS_EXPORT GPtrArray *ws_store_list_cpus (WsStore *store, GError **error);  /* of WsCpu* */
WS_EXPORT GPtrArray *ws_store_list_links (WsStore *store, GError **error); /* of WsLink* */
/* Lookup by exact (case-insensitive) name.  Not found: WS_ERROR_NOT_FOUND with
 * a message that suggests close names. */
WS_EXPORT WsGpu *ws_store_get_gpu (WsStore *store, const char *name, GError **error);
WS_EXPORT WsCpu *ws_store_get_cpu (WsStore *store, const char *name, GError **error);
WS_EXPORT WsLink *ws_store_get_link (WsStore *store, const char *name, GError **error);
/* Insert or replace (replace only when @replace; else WS_ERROR_DUPLICATE). */
WS_EXPORT gboolean ws_store_put_gpu (WsStore *store, const WsGpu *gpu, gboolean replace, GError **error);
WS_EXPORT gboolean ws_store_put_cpu (WsStore *store, const WsCpu *cpu, gboolean replace, GError **error);
WS_EXPORT gboolean ws_store_put_link (WsStore *store, const WsLink *link, gboolean replace, GError **error);
/* One record to store: a WsGpu, WsCpu or WsLink as @kind says. */
typedef struct {
  WsHwKind kind;
  gconstpointer record;
} WsHwPut;
/* Stores every record in one transaction: all of them, or (on an error,
 * or when the process is killed before it commits) none. */
WS_EXPORT gboolean ws_store_put_hw_many (WsStore *store, const WsHwPut *items, guint n_items, gboolean replace,
                                         GError **error);
WS_EXPORT gboolean ws_store_delete_hw (WsStore *store, WsHwKind kind, const char *name, GError **error);
/* Which kind of component is called @name (case-insensitive)?  Names are
 * unique across kinds.  Not found: WS_ERROR_NOT_FOUND suggesting close names
 * of any kind. */
WS_EXPORT gboolean ws_store_find_hw (WsStore *store, const char *name, WsHwKind *kind, GError **error);

G_END_DECLS
