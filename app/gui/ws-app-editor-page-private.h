/* ws-app-editor-page-private.h: shared by the application editor's files
 * (page, operation rows) and the GUI tests. */
#pragma once

#include "ws-app-editor-page.h"
#include "ws-app-doc.h"

G_BEGIN_DECLS

/* What an editable widget on the page edits. */
typedef enum {
  WS_APP_EDIT_NONE, /* shown, not checked (lists, choices) */
  WS_APP_EDIT_NAME, /* the application's name (applied with Enter) */
  WS_APP_EDIT_DESCRIPTION,
  WS_APP_EDIT_VAR_NAME,   /* index */
  WS_APP_EDIT_VAR_VALUE,  /* index */
  WS_APP_EDIT_PROC_LABEL, /* index */
  WS_APP_EDIT_PROC_COUNT, /* index */
  WS_APP_EDIT_OP_FIELD,   /* path, index, key */
} WsAppEditKind;

/* The page's registry of editable widgets, by key:
 *   "name", "description", "var/I/name", "var/I/value", "var/I/kind",
 *   "proc/I/label", "proc/I/count", and for an operation at index I of the
 *   list at PATH "PATH/I:KEY" (KEY a JSON member, or "mode" for a kernel's
 *   analytic/profiled choice). */
GtkWidget *ws_app_editor_page_get_widget (WsAppEditorPage *self, const char *key);
/* The message shown under that widget, or NULL when it is fine. */
const char *ws_app_editor_page_get_problem (WsAppEditorPage *self, const char *key);
/* The box holding the rows (class "ws-app-op") of the list at @path. */
GtkWidget *ws_app_editor_page_get_list_widget (WsAppEditorPage *self, const char *path);
GtkWidget *ws_app_editor_page_get_variables_box (WsAppEditorPage *self);
const WsAppDoc *ws_app_editor_page_get_doc (WsAppEditorPage *self);
const char *ws_app_editor_page_get_status (WsAppEditorPage *self);
/* The banner at the top: the first problem or the core's error; NULL when valid. */
const char *ws_app_editor_page_get_banner (WsAppEditorPage *self);
GtkListBox *ws_app_editor_page_get_apps_list (WsAppEditorPage *self);
/* Ends the pending edit now (what the debounce timer does). */
void ws_app_editor_page_flush (WsAppEditorPage *self);

/* For ws-app-editor-ops.c. */
void ws_app_editor_page_register (WsAppEditorPage *self, const char *key, GtkWidget *widget, GtkLabel *error,
                                  WsAppEditKind kind, const char *path, guint index, const char *field);
/* Applies a change made to the document in place as one undoable step
 * and shows it (rebuilding the editor). */
void ws_app_editor_page_commit_structure (WsAppEditorPage *self, const char *label);
WsAppDoc *ws_app_editor_page_get_doc_mut (WsAppEditorPage *self);
WsStore *ws_app_editor_page_get_store (WsAppEditorPage *self);
/* Builds the operation list at @path (rows, drop target, Add menu). */
GtkWidget *ws_app_editor_build_list (WsAppEditorPage *self, const char *path, GPtrArray *ops, int depth);
/* A palette entry that can be dragged onto a list. */
GtkWidget *ws_app_editor_build_palette_item (const char *kind);

G_END_DECLS
