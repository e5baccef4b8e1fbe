/* ws-system-canvas.h: the system designer's drawing area.  It draws a
 * WsSystemDoc with GtkSnapshot, hit-tests, zooms and pans, and turns the
 * user's gestures (drag to move, drag from a handle to connect, drop from
 * the palette or catalogue, arrow keys, Delete) into requests the page
 * carries out as undoable edits.  It never changes the document itself. */
#pragma once

#include <gtk/gtk.h>
#include "ws-system-doc.h"

G_BEGIN_DECLS

#define WS_TYPE_SYSTEM_CANVAS (ws_system_canvas_get_type ())
G_DECLARE_FINAL_TYPE (WsSystemCanvas, ws_system_canvas, WS, SYSTEM_CANVAS, GtkWidget)

/* Signals (all names are component names; coordinates are document units):
 *   selection-changed ()
 *   move-node (name, x, y, parent-or-NULL)      x, y relative to the parent
 *   connect-nodes (from, to)
 *   drop-payload (payload, x, y)                "gpu" or "gpu:GTX 970", …
 *   delete-node (name)
 */

GtkWidget *ws_system_canvas_new (void);
/* @doc is borrowed; call again (or queue_draw) after every change. */
void ws_system_canvas_set_doc (WsSystemCanvas *self, const WsSystemDoc *doc, GPtrArray *problems);
const char *ws_system_canvas_get_selected (WsSystemCanvas *self);
void ws_system_canvas_select (WsSystemCanvas *self, const char *name);
/* The component marked with "c" as the start of a keyboard connection. */
const char *ws_system_canvas_get_connect_source (WsSystemCanvas *self);
double ws_system_canvas_get_zoom (WsSystemCanvas *self);
void ws_system_canvas_set_zoom (WsSystemCanvas *self, double zoom);
/* Widget coordinates to document coordinates. */
void ws_system_canvas_to_doc (WsSystemCanvas *self, double wx, double wy, double *dx, double *dy);
void ws_system_canvas_to_widget (WsSystemCanvas *self, double dx, double dy, double *wx, double *wy);
/* What a drop of @payload at widget point (@x, @y) does: the same path
 * GtkDropTarget takes, for keyboard-free tests. */
gboolean ws_system_canvas_drop (WsSystemCanvas *self, const char *payload, double x, double y);

G_END_DECLS
