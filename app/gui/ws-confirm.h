/* ws-confirm.h: the question the desktop app asks before it deletes
 * something the user made. */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

/* Asks "Delete “@name”?" with @body over @widget's window; @confirmed
 * (@widget) runs only when the user chooses Delete, and not at all once
 * @widget is gone. */
void ws_confirm_delete (GtkWidget *widget, const char *name, const char *body, void (*confirmed) (GtkWidget *widget));

G_END_DECLS
