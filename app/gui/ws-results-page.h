/* ws-results-page.h: the Results page.  Shows the finished runs of the
 * queue the Simulations page fills:
 *  - Sweep: total time against the swept variable, one series per predictor
 *    of the runs sharing the latest run's system, application and variable
 *    (seed 004 Fig. 6.1-6.5), with imported measurements overlaid and every
 *    predicted point annotated with its relative error;
 *  - CPI Stacks: stacked bars per predictor and profiled launch (seed 001
 *    Fig. 33; plugin predictors of applications with profiled kernels);
 *  - Timeline: the operations of the last point of the latest run, one row
 *    per component (a Gantt chart);
 *  - TBPoint: for runs of the simulator with TBPoint sampling, TB size by
 *    TB id coloured by homogeneous region, simulated TBs filled and
 *    skipped ones hollow, with the error against the full simulation and
 *    the sample size (seed 000 Fig. 8, Table III).
 * Charts are drawn by core/chart, so `warpscope-cli plot` draws the same.
 *
 * Measured data comes from a CSV file or from measurement sets stored by
 * `warpscope-cli measurements import` (one set per measured run, the
 * swept variable's value in the set's name, e.g. "saxpy2 N=1048576"; the
 * set's total, or kernels', duration is the measured time).
 *
 * Measured CSV: read by core/measure (ws_measure_times_load) as `warpscope-cli
 * plot --measured` reads it: a header naming the columns, in any order,
 * `seconds` (the measured total time) and `x` or the swept variable's name
 * (e.g. `N`); lines starting with '#' are skipped. */
#pragma once

#include <gtk/gtk.h>
#include "ws-chart-view.h"
#include "ws-run-queue.h"

G_BEGIN_DECLS

#define WS_TYPE_RESULTS_PAGE (ws_results_page_get_type ())
G_DECLARE_FINAL_TYPE (WsResultsPage, ws_results_page, WS, RESULTS_PAGE, GtkWidget)

GtkWidget *ws_results_page_new (void);
void ws_results_page_set_queue (WsResultsPage *self, WsRunQueue *queue);
/* Rebuilds the charts from the queue's finished runs. */
void ws_results_page_refresh (WsResultsPage *self);
/* Reads a measured CSV (format above) and overlays it. */
gboolean ws_results_page_import_measured (WsResultsPage *self, const char *path, GError **error);
WsChartView *ws_results_page_get_sweep_view (WsResultsPage *self);
WsChartView *ws_results_page_get_timeline_view (WsResultsPage *self);
/* CPI stacks of the profiled launches, one bar per predictor and launch. */
WsChartView *ws_results_page_get_cpi_view (WsResultsPage *self);
WsChartView *ws_results_page_get_tbpoint_view (WsResultsPage *self);
guint ws_results_page_get_n_tbpoint_launches (WsResultsPage *self);
void ws_results_page_select_tbpoint_launch (WsResultsPage *self, guint index);
/* @store is borrowed (measurement sets). */
void ws_results_page_set_store (WsResultsPage *self, WsStore *store);
/* Overlays stored measurement sets @names (see above); @kernels_only sums
 * the kernels' durations only. */
gboolean ws_results_page_use_measurement_sets (WsResultsPage *self, const char *const *names, gboolean kernels_only,
                                               GError **error);
/* "sweep", "cpi", "timeline" or "tbpoint". */
void ws_results_page_show (WsResultsPage *self, const char *name);

G_END_DECLS
