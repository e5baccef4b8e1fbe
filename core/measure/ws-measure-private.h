/* ws-measure-private.h: shared between the files of core/measure. */
#pragma once

#include "measure/ws-measure.h"
#include <sqlite3.h>

typedef sqlite3_stmt WsMeasureStmt;
static inline void
ws_measure_stmt_finalize (WsMeasureStmt *s)
{
  sqlite3_finalize (s);
}
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsMeasureStmt, ws_measure_stmt_finalize)

WsMeasureStmt *ws_measure_prepare (WsStore *store, const char *sql, GError **error);
gboolean ws_measure_exec (WsStore *store, const char *sql, GError **error);
gboolean ws_measure_store_put_lambda_kernel (WsStore *store, const char *kernel, const char *architecture,
                                             const WsKernelFit *fit, const char *set_name, const char *gpu,
                                             GError **error);
gboolean ws_measure_store_put_lambda_link (WsStore *store, const char *link, WsMemcpyDirection dir,
                                           const WsLinkFit *fit, const char *set_name, const char *gpu, GError **error);
