/* ws-systems-page-private.h: accessors for the GUI tests, which drive the
 * real widgets. */
#pragma once

#include "ws-systems-page.h"
#include "ws-system-canvas.h"
#include "ws-system-doc.h"

G_BEGIN_DECLS

WsSystemCanvas *ws_systems_page_get_canvas (WsSystemsPage *self);
const WsSystemDoc *ws_systems_page_get_doc (WsSystemsPage *self);
GtkListBox *ws_systems_page_get_systems_list (WsSystemsPage *self);
/* Rows carry the drag payload ("gpu:GTX 970") as object data "ws-payload". */
GtkListBox *ws_systems_page_get_catalogue_list (WsSystemsPage *self);
GtkListBox *ws_systems_page_get_problems_list (WsSystemsPage *self);
/* Side panel rows. */
AdwEntryRow *ws_systems_page_get_name_row (WsSystemsPage *self);
AdwComboRow *ws_systems_page_get_hw_row (WsSystemsPage *self);
GtkSpinButton *ws_systems_page_get_count_spin (WsSystemsPage *self);
AdwEntryRow *ws_systems_page_get_labels_row (WsSystemsPage *self);
AdwComboRow *ws_systems_page_get_from_row (WsSystemsPage *self);
AdwComboRow *ws_systems_page_get_to_row (WsSystemsPage *self);
GtkLabel *ws_systems_page_get_status_label (WsSystemsPage *self);

G_END_DECLS
