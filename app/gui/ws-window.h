/* ws-window.h: Warpscope's main window: navigation sidebar, one page per
 * part of the workflow (Hardware, Systems, Applications, Profiles,
 * Simulations, Results). */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define WS_TYPE_WINDOW (ws_window_get_type ())
G_DECLARE_FINAL_TYPE (WsWindow, ws_window, WS, WINDOW, AdwApplicationWindow)

/* @db_path: the store to open; NULL for ws_store_default_path().
 * @application may be NULL (tests). */
WsWindow *ws_window_new (GtkApplication *application, const char *db_path);
const char *ws_window_get_db_path (WsWindow *self);
/* Switches to the page called @name ("hardware", "systems", ...). */
gboolean ws_window_show_page (WsWindow *self, const char *name);

G_END_DECLS
