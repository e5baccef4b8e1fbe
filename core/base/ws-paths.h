/* ws-paths.h: where Warpscope's own files are.
 *
 * A program runs either installed (its files under the configured prefix:
 * <datadir>/warpscope, <libdir>/warpscope, <bindir>) or uninstalled, from
 * the build tree (tests, developers), where the same files sit in the build
 * and source trees.  This is the one place that decides which, and the one
 * table of where each file is in either case; every module asks here. */
#pragma once

#include "base/ws-base.h"

G_BEGIN_DECLS

typedef enum {
  WS_PATH_DATA_DIR,           /* shared data: <datadir>/warpscope; the source tree */
  WS_PATH_DEMO_TRACE,         /* the demo's saxpy2 trace */
  WS_PATH_DEMO_PROGRAM,       /* the demo's saxpy2 CUDA program (built only with nvcc) */
  WS_PATH_CALIBRATION_SOURCE, /* the calibration micro-benchmarks, ws-calibrate.cu */
  WS_PATH_CUDART_DIR,         /* the folder of Warpscope's libcudart.so.13 */
  WS_PATH_CUPTI_LIBRARY,      /* the CUPTI injection library of `warpscope-cli measure` */
  WS_PATH_PLUGIN_DIR,         /* the predictor plugins shipped with Warpscope */
  WS_PATH_PREDICT_WORKER,     /* the program predictor plugins run in */
  WS_PATH_CLI,                /* warpscope-cli */
  WS_PATH_N_KINDS
} WsPathKind;

/* TRUE when the running executable lives in the build tree this library was
 * built in.  $WARPSCOPE_UNINSTALLED set to 1 or 0 overrides the decision
 * (tests, and relocated build trees). */
WS_EXPORT gboolean ws_paths_running_uninstalled (void);
/* The decision for an executable at @exe_path (absolute): TRUE when it is
 * inside the build tree.  No environment is read. */
WS_EXPORT gboolean ws_paths_exe_is_uninstalled (const char *exe_path);

/* Where @kind is for this process (newly allocated): the kind's environment
 * variable when set (the table in ws-paths.c names them), else as
 * ws_paths_get_for (@kind, ws_paths_running_uninstalled ()). */
WS_EXPORT char *ws_paths_get (WsPathKind kind);
/* Where @kind is when running uninstalled or installed, ignoring the
 * environment (newly allocated).  The path need not exist. */
WS_EXPORT char *ws_paths_get_for (WsPathKind kind, gboolean uninstalled);
/* The environment variable that overrides @kind, or NULL when none does. */
WS_EXPORT const char *ws_paths_env_name (WsPathKind kind);

G_END_DECLS
