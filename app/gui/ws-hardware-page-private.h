/* ws-hardware-page-private.h: accessors for the GUI tests, which drive the
 * real widgets and read back what a user would see. */
#pragma once

#include "ws-hardware-page.h"
#include "ws-hw-item.h"

G_BEGIN_DECLS

/* Shared by ws-hardware-page.c (list and parameters) and
 * ws-hardware-page-edit.c (editing, import/export, comparison). */
struct _WsHardwarePage {
  GtkWidget parent_instance;

  GListStore *items; /* of WsHwItem, sorted by ws_hw_item_compare */
  GtkCustomFilter *filter;
  GtkFilterListModel *filtered;
  char *needle;        /* lower-case search text */
  WsStore *store;      /* borrowed from the window */
  WsUndoStack *undo;   /* the window's history */
  WsHwItem *current;   /* the one selected item, or NULL */
  gboolean editing;    /* the details pane shows the editor */
  guint editor_serial; /* bumped on every rebuild of the editor */

  /* Template children */
  GtkStack *state_stack;
  GtkSearchEntry *search_entry;
  GtkListBox *list_box;
  GtkStack *detail_stack;
  GtkLabel *title_label;
  GtkLabel *summary_label;
  GtkWidget *groups_box;
  AdwPreferencesGroup *sources_group;
  GtkLabel *sources_label;
  AdwStatusPage *error_page;
  GtkLabel *edit_title_label;
  GtkWidget *editor_box;
  GtkGrid *compare_grid;
};

WsHwItem *ws_hardware_page_row_item (GtkListBoxRow *row);
void ws_hardware_page_show_item (WsHardwarePage *self, WsHwItem *item);
void ws_hardware_page_update_actions (WsHardwarePage *self);
void ws_hardware_page_on_selection_changed (WsHardwarePage *self, GtkListBox *list_box);
void ws_hardware_page_install_actions (GtkWidgetClass *widget_class);
void ws_hardware_page_init_edit (WsHardwarePage *self);


GtkListBox *ws_hardware_page_get_list_box (WsHardwarePage *self);
GtkEditable *ws_hardware_page_get_search_entry (WsHardwarePage *self);
/* The box holding one AdwPreferencesGroup per parameter group. */
GtkWidget *ws_hardware_page_get_groups_box (WsHardwarePage *self);
GtkLabel *ws_hardware_page_get_title_label (WsHardwarePage *self);
/* "catalogue" or "error". */
const char *ws_hardware_page_get_state (WsHardwarePage *self);
AdwStatusPage *ws_hardware_page_get_error_page (WsHardwarePage *self);

/* One AdwActionRow per field, named after the JSON key, with a GtkEntry. */
GtkWidget *ws_hardware_page_get_editor_box (WsHardwarePage *self);
/* Value labels are named "ROW-ID:COLUMN", e.g. "peak_fp32:0". */
GtkGrid *ws_hardware_page_get_compare_grid (WsHardwarePage *self);
/* "empty", "details", "edit" or "compare". */
const char *ws_hardware_page_get_detail_state (WsHardwarePage *self);

G_END_DECLS
