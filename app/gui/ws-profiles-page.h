/* ws-profiles-page.h: the Profiles page.  Lists the traces in the
 * workspace's trace folder with their kernels and launches, shows the
 * instrumentation tools' results next to a trace (TRACE.branch.json,
 * TRACE.memdiv.json, TRACE.value.json) when they exist, and profiles a CUDA
 * program (or builds and profiles a .cu file) through core/launch in a
 * worker thread: the program runs as a child process, so a crashing program
 * cannot take the application down, and cancelling kills it. */
#pragma once

#include <gtk/gtk.h>
#include "store/ws-store.h"
#include "ws-chart-view.h"

G_BEGIN_DECLS

#define WS_TYPE_PROFILES_PAGE (ws_profiles_page_get_type ())
G_DECLARE_FINAL_TYPE (WsProfilesPage, ws_profiles_page, WS, PROFILES_PAGE, GtkWidget)

/* Signals:
 *   profile-finished (gboolean ok)   a profiling run ended (ok, failed or cancelled)
 */

GtkWidget *ws_profiles_page_new (void);
/* Lists the traces of @store's trace folder (@store is borrowed). */
void ws_profiles_page_load (WsProfilesPage *self, WsStore *store);
/* Lists the traces in @folder instead (tests, other workspaces). */
void ws_profiles_page_set_folder (WsProfilesPage *self, const char *folder);
const char *ws_profiles_page_get_folder (WsProfilesPage *self);
guint ws_profiles_page_get_n_traces (WsProfilesPage *self);
/* Shows trace @index (in the list's order); FALSE when out of range or unreadable. */
gboolean ws_profiles_page_select (WsProfilesPage *self, guint index);
const char *ws_profiles_page_get_selected_path (WsProfilesPage *self);
guint ws_profiles_page_get_n_kernel_rows (WsProfilesPage *self);
guint ws_profiles_page_get_n_launch_rows (WsProfilesPage *self);
/* The tool-result charts (NULL when that tool was not run for the trace). */
WsChartView *ws_profiles_page_get_branch_chart (WsProfilesPage *self);
WsChartView *ws_profiles_page_get_memdiv_chart (WsProfilesPage *self);
WsChartView *ws_profiles_page_get_memdiv_pmf_chart (WsProfilesPage *self);
guint ws_profiles_page_get_n_value_rows (WsProfilesPage *self);
/* Profiles @program with @args (NULL-terminated, may be NULL) into a new
 * trace in the folder; a .cu file is first built with nvcc.  FALSE when a
 * run is already going. */
gboolean ws_profiles_page_profile (WsProfilesPage *self, const char *program, const char *const *args);
/* Instrumentation tools (branch, memdiv, value) later runs ask for; NULL or empty: none. */
void ws_profiles_page_set_tools (WsProfilesPage *self, const char *const *tools);
gboolean ws_profiles_page_is_running (WsProfilesPage *self);
void ws_profiles_page_cancel (WsProfilesPage *self);
/* The message of the last run ("" before any). */
const char *ws_profiles_page_get_status (WsProfilesPage *self);

G_END_DECLS
