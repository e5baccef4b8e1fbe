/* main.c: the warpscope desktop application. */
#define G_LOG_DOMAIN "warpscope"

#include <glib/gi18n.h>
#include <locale.h>

#include "ws-application.h"

int
main (int argc, char **argv)
{
  g_autoptr (WsApplication) application = NULL;

  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, WS_LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  application = ws_application_new ();
  return g_application_run (G_APPLICATION (application), argc, argv);
}
