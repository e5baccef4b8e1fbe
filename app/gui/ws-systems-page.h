/* ws-systems-page.h: the Systems page, a drag-and-drop designer for system
 * models (seed 004 §5.4, Fig. 5.3): machines holding CPUs, GPUs and links,
 * drawn on a canvas, edited in a side panel, saved to the store as the user
 * works, every edit undoable. */
#pragma once

#include <adwaita.h>
#include "store/ws-store.h"
#include "ws-undo-stack.h"

G_BEGIN_DECLS

#define WS_TYPE_SYSTEMS_PAGE (ws_systems_page_get_type ())
G_DECLARE_FINAL_TYPE (WsSystemsPage, ws_systems_page, WS, SYSTEMS_PAGE, GtkWidget)

/* Lists the store's systems and designs (@store is borrowed). */
void ws_systems_page_load (WsSystemsPage *self, WsStore *store);
void ws_systems_page_set_undo_stack (WsSystemsPage *self, WsUndoStack *undo);
/* Opens system @name on the canvas; FALSE when the store has no such system. */
gboolean ws_systems_page_open (WsSystemsPage *self, const char *name);
/* Deletes the open system (its model and its design; the bin button asks
 * first) and opens the first remaining one.  Emits "models-changed", as
 * storing a valid design does. */
gboolean ws_systems_page_delete_system (WsSystemsPage *self, GError **error);

G_END_DECLS
