/* ws-gui-drafts.h: documents the desktop app keeps beside the core models
 * in the workspace database: the system designer's layouts and drafts
 * (gui_system_design) and the application editor's invalid drafts
 * (gui_app_draft).  One table per kind, name -> JSON text; the tables are
 * part of the store's schema (db/migrations/008-gui-drafts.sql). */
#pragma once

#include "store/ws-store.h"

G_BEGIN_DECLS

/* The tables (nothing else may be passed as @table). */
#define WS_GUI_DRAFTS_SYSTEMS "gui_system_design"
#define WS_GUI_DRAFTS_APPS "gui_app_draft"

/* Stores (or replaces) the document @name. */
gboolean ws_gui_drafts_put (WsStore *store, const char *table, const char *name, const char *text, GError **error);
/* The document @name (newly allocated); NULL when there is none (no error)
 * or the store failed (@error set). */
char *ws_gui_drafts_get (WsStore *store, const char *table, const char *name, GError **error);
gboolean ws_gui_drafts_delete (WsStore *store, const char *table, const char *name, GError **error);
/* Removes everything stored under @name: the document of @table and the
 * core model it stands for (a system for WS_GUI_DRAFTS_SYSTEMS, an
 * application for WS_GUI_DRAFTS_APPS).  Either may be missing (a draft that
 * never was valid, a model never edited here); WS_ERROR_NOT_FOUND when
 * neither exists. */
gboolean ws_gui_drafts_delete_model (WsStore *store, const char *table, const char *name, GError **error);
/* @models (the core's names, may be NULL) and the documents' names not
 * among them, sorted, without duplicates (newly allocated). */
char **ws_gui_drafts_merge_names (WsStore *store, const char *table, const char *const *models, GError **error);

G_END_DECLS
