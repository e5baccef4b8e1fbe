/* ws-window-private.h: shared by the window's files and the GUI tests. */
#pragma once

#include "ws-window.h"
#include "ws-hardware-page.h"
#include "ws-systems-page.h"
#include "ws-simulations-page.h"
#include "ws-plugins-page.h"
#include "ws-undo-stack.h"

G_BEGIN_DECLS

/* Page names in sidebar order; NULL-terminated. */
extern const char *const ws_window_page_names[];

WsHardwarePage *ws_window_get_hardware_page (WsWindow *self);
GtkStack *ws_window_get_stack (WsWindow *self);
GtkListBox *ws_window_get_sidebar (WsWindow *self);
/* The store the window opened, or NULL when opening failed. */
WsStore *ws_window_get_store (WsWindow *self);

WsSystemsPage *ws_window_get_systems_page (WsWindow *self);
WsUndoStack *ws_window_get_undo_stack (WsWindow *self);
WsSimulationsPage *ws_window_get_simulations_page (WsWindow *self);
WsPluginsPage *ws_window_get_plugins_page (WsWindow *self);

G_END_DECLS
