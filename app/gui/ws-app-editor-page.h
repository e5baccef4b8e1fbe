/* ws-app-editor-page.h: the Applications page, an editor for application
 * models (docs/system-modelling.md): variables, one operation list per
 * process label built by dragging operations from a palette, every
 * parameter an expression checked as it is typed, loops and conditionals
 * nested to any depth, kernels analytic or profiled.  Drafts are kept as
 * the user works; valid models go to the store the Simulations page reads. */
#pragma once

#include <adwaita.h>
#include "store/ws-store.h"
#include "ws-undo-stack.h"

G_BEGIN_DECLS

#define WS_TYPE_APP_EDITOR_PAGE (ws_app_editor_page_get_type ())
G_DECLARE_FINAL_TYPE (WsAppEditorPage, ws_app_editor_page, WS, APP_EDITOR_PAGE, GtkWidget)

/* Signal "saved" (const char *name, gboolean new_model): a valid model was
 * stored; @new_model when no model of that name was stored before. */

/* Lists the store's application models and drafts (@store is borrowed). */
void ws_app_editor_page_load (WsAppEditorPage *self, WsStore *store);
void ws_app_editor_page_set_undo_stack (WsAppEditorPage *self, WsUndoStack *undo);
/* Opens application @name (its draft when one is kept); FALSE when there is none. */
gboolean ws_app_editor_page_open (WsAppEditorPage *self, const char *name);
/* Starts a new application (one process label, no operations); returns its name. */
const char *ws_app_editor_page_new_app (WsAppEditorPage *self);

/* What a drop of a palette entry does: inserts an operation of @kind at
 * @index of the operation list at @list_path ("p0", "p0/2b", …; see
 * ws-app-doc.h).  The list's GtkDropTarget calls this too. */
gboolean ws_app_editor_page_drop_operation (WsAppEditorPage *self, const char *list_path, guint index,
                                            const char *kind);
/* What dropping an operation of a list does: moves it (@to_index counts
 * in the target list as it was before the move). */
gboolean ws_app_editor_page_move_operation (WsAppEditorPage *self, const char *from_path, guint from_index,
                                            const char *to_path, guint to_index);
/* Deletes the open application model and its draft (the Delete button
 * asks first); opens the first remaining one.  Emits "deleted". */
gboolean ws_app_editor_page_delete (WsAppEditorPage *self, GError **error);
/* Saves now (Ctrl+S); TRUE when the model was valid and stored as a model,
 * FALSE when it was kept as a draft (the reason is shown on the page). */
gboolean ws_app_editor_page_save (WsAppEditorPage *self);

G_END_DECLS
