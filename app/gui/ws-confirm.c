/* ws-confirm.c: confirmation before deleting (see the header). */
#include <glib/gi18n.h>

#include "ws-confirm.h"

static void
on_response (AdwMessageDialog *dialog, const char *response, GtkWidget *widget)
{
  void (*confirmed) (GtkWidget *) = g_object_get_data (G_OBJECT (dialog), "ws-confirmed");

  if (g_str_equal (response, "delete"))
    confirmed (widget);
}

void
ws_confirm_delete (GtkWidget *widget, const char *name, const char *body, void (*confirmed) (GtkWidget *widget))
{
  GtkRoot *root = gtk_widget_get_root (widget);
  g_autofree char *heading = g_strdup_printf (_ ("Delete “%s”?"), name);
  GtkWidget *dialog = adw_message_dialog_new (GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL, heading, body);

  adw_message_dialog_add_responses (ADW_MESSAGE_DIALOG (dialog), "cancel", _ ("_Cancel"), "delete", _ ("_Delete"),
                                    NULL);
  adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (dialog), "delete", ADW_RESPONSE_DESTRUCTIVE);
  adw_message_dialog_set_default_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  g_object_set_data (G_OBJECT (dialog), "ws-confirmed", (gpointer) confirmed);
  g_signal_connect_object (dialog, "response", G_CALLBACK (on_response), widget, 0);
  gtk_window_present (GTK_WINDOW (dialog));
}
