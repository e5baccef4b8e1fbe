/* ws-hardware-page.h: the Hardware page, the catalogue of GPUs, CPUs and
 * links with each component's parameters.  Read-only in this release. */
#pragma once

#include <adwaita.h>
#include "store/ws-store.h"

G_BEGIN_DECLS

#define WS_TYPE_HARDWARE_PAGE (ws_hardware_page_get_type ())
G_DECLARE_FINAL_TYPE (WsHardwarePage, ws_hardware_page, WS, HARDWARE_PAGE, GtkWidget)

GtkWidget *ws_hardware_page_new          (void);
/* Loads the catalogue from @store (borrowed: the window owns it).  A read
 * failure is shown in the page. */
void       ws_hardware_page_load         (WsHardwarePage *self, WsStore *store);
/* Shows why no catalogue can be listed (the store failed to open). */
void       ws_hardware_page_show_error   (WsHardwarePage *self, const GError *error);
/* Moves the keyboard focus to the search entry. */
void       ws_hardware_page_focus_search (WsHardwarePage *self);
/* Selects the component called @name; FALSE when it is not listed. */
gboolean   ws_hardware_page_select       (WsHardwarePage *self, const char *name);

G_END_DECLS
