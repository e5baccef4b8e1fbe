/* ws-application.h: the Warpscope GtkApplication: command line, app-wide
 * actions (about, quit) and one window per invocation. */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define WS_APPLICATION_ID "io.github.warpscope.Warpscope"

#define WS_TYPE_APPLICATION (ws_application_get_type ())
G_DECLARE_FINAL_TYPE (WsApplication, ws_application, WS, APPLICATION, AdwApplication)

WsApplication *ws_application_new (void);

G_END_DECLS
