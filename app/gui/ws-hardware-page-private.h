/* ws-hardware-page-private.h: accessors for the GUI tests, which drive the
 * real widgets and read back what a user would see. */
#pragma once

#include "ws-hardware-page.h"

G_BEGIN_DECLS

GtkListBox     *ws_hardware_page_get_list_box     (WsHardwarePage *self);
GtkEditable    *ws_hardware_page_get_search_entry (WsHardwarePage *self);
/* The box holding one AdwPreferencesGroup per parameter group. */
GtkWidget      *ws_hardware_page_get_groups_box   (WsHardwarePage *self);
GtkLabel       *ws_hardware_page_get_title_label  (WsHardwarePage *self);
/* "catalogue" or "error". */
const char     *ws_hardware_page_get_state        (WsHardwarePage *self);
AdwStatusPage  *ws_hardware_page_get_error_page   (WsHardwarePage *self);

/* One AdwActionRow per field, named after the JSON key, with a GtkEntry. */
GtkWidget      *ws_hardware_page_get_editor_box   (WsHardwarePage *self);
/* Value labels are named "ROW-ID:COLUMN", e.g. "peak_fp32:0". */
GtkGrid        *ws_hardware_page_get_compare_grid (WsHardwarePage *self);
/* "empty", "details", "edit" or "compare". */
const char     *ws_hardware_page_get_detail_state (WsHardwarePage *self);

G_END_DECLS
