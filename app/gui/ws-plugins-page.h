/* ws-plugins-page.h: the Plugins page.  Every predictor plugin found on the
 * plugin path, usable or not: name, version, where it was found, whether it
 * ships with Warpscope, how it runs (in a worker or in process), its
 * options, and for a broken or shadowed plugin the reason.  Rescan reads
 * the plugin path again (a plugin built while the app runs appears without
 * a restart) and emits "rescanned" so the other pages refresh. */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define WS_TYPE_PLUGINS_PAGE (ws_plugins_page_get_type ())
G_DECLARE_FINAL_TYPE (WsPluginsPage, ws_plugins_page, WS, PLUGINS_PAGE, GtkWidget)

GtkWidget *ws_plugins_page_new (void);
/* Scans the plugin path again, rebuilds the list, emits "rescanned". */
void ws_plugins_page_rescan (WsPluginsPage *self);
/* The list's rows (tests): one AdwExpanderRow per plugin, in scan order. */
guint ws_plugins_page_get_n_plugins (WsPluginsPage *self);
GtkWidget *ws_plugins_page_get_row (WsPluginsPage *self, const char *name);
/* The text shown for plugin @name (title, subtitle and detail rows, one
 * per line), for tests and the accessibility tree; NULL when absent. */
char *ws_plugins_page_describe (WsPluginsPage *self, const char *name);

G_END_DECLS
