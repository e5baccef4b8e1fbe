/* ws-simulations-page.h: the Simulations page.  Picks a system, an
 * application model, predictors and/or the detailed simulator, a swept
 * variable and fixed values, and queues one run per predictor on a
 * WsRunQueue; the queue shows each run's progress, lets the user cancel it
 * and keeps a failed run's message. */
#pragma once

#include <gtk/gtk.h>
#include "store/ws-store.h"
#include "ws-run-queue.h"
#include "ws-plugin-options.h"

G_BEGIN_DECLS

#define WS_TYPE_SIMULATIONS_PAGE (ws_simulations_page_get_type ())
G_DECLARE_FINAL_TYPE (WsSimulationsPage, ws_simulations_page, WS, SIMULATIONS_PAGE, GtkWidget)

GtkWidget *ws_simulations_page_new (void);
/* Lists @store's systems and application models (@store is borrowed). */
void ws_simulations_page_load (WsSimulationsPage *self, WsStore *store);
/* The queue runs go to (shared with the Results page). */
void ws_simulations_page_set_queue (WsSimulationsPage *self, WsRunQueue *queue);
WsRunQueue *ws_simulations_page_get_queue (WsSimulationsPage *self);

/* The form, for keyboard-free tests. */
gboolean ws_simulations_page_select_system (WsSimulationsPage *self, const char *name);
gboolean ws_simulations_page_select_app (WsSimulationsPage *self, const char *name);
/* The chosen system and application (NULL: none). */
const char *ws_simulations_page_get_system (WsSimulationsPage *self);
const char *ws_simulations_page_get_app (WsSimulationsPage *self);
/* Names offered as predictors (plugins found, then "simulator"). */
const char *const *ws_simulations_page_get_predictors (WsSimulationsPage *self);
gboolean ws_simulations_page_set_predictor (WsSimulationsPage *self, const char *name, gboolean active);
/* The option rows of predictor @name (NULL: it has no options). */
WsPluginOptions *ws_simulations_page_get_options (WsSimulationsPage *self, const char *name);
/* Scans the plugin path again and rebuilds the predictor rows, keeping the
 * predictors that were checked (the Plugins page's Rescan). */
void ws_simulations_page_rescan_plugins (WsSimulationsPage *self);
/* "N=1,2,4" or "N=1:8:1", or "" for a single point. */
void ws_simulations_page_set_sweep (WsSimulationsPage *self, const char *text);
/* "A=1, B=2" or "". */
void ws_simulations_page_set_fixed (WsSimulationsPage *self, const char *text);
/* Queues the form's runs; returns how many, or 0 with the reason shown
 * under the form (ws_simulations_page_get_message). */
guint ws_simulations_page_run (WsSimulationsPage *self);
const char *ws_simulations_page_get_message (WsSimulationsPage *self);

G_END_DECLS
