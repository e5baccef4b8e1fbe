/* ws-hardware-page.h: the Hardware page, the catalogue of GPUs, CPUs and
 * links: each component's parameters, an editor with undo, creation,
 * duplication, deletion, JSON import/export and a comparison of GPUs. */
#pragma once

#include <adwaita.h>
#include "store/ws-store.h"
#include "ws-undo-stack.h"

G_BEGIN_DECLS

#define WS_TYPE_HARDWARE_PAGE (ws_hardware_page_get_type ())
G_DECLARE_FINAL_TYPE (WsHardwarePage, ws_hardware_page, WS, HARDWARE_PAGE, GtkWidget)

GtkWidget *ws_hardware_page_new (void);
/* Loads the catalogue from @store (borrowed: the window owns it).  A read
 * failure is shown in the page. */
void ws_hardware_page_load (WsHardwarePage *self, WsStore *store);
/* Shows why no catalogue can be listed (the store failed to open). */
void ws_hardware_page_show_error (WsHardwarePage *self, const GError *error);
/* Moves the keyboard focus to the search entry. */
void ws_hardware_page_focus_search (WsHardwarePage *self);
/* Selects the component called @name; FALSE when it is not listed. */
gboolean ws_hardware_page_select (WsHardwarePage *self, const char *name);

/* Edits go on @undo (the window's history). */
void ws_hardware_page_set_undo_stack (WsHardwarePage *self, WsUndoStack *undo);
/* What the Import and Export buttons do after the file chooser; import
 * validates every record first and is one undoable step. */
gboolean ws_hardware_page_import_file (WsHardwarePage *self, const char *path, GError **error);
gboolean ws_hardware_page_export_file (WsHardwarePage *self, const char *path, GError **error);

G_END_DECLS
