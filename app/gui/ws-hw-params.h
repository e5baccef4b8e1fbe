/* ws-hw-params.h: a catalogue component's parameters as translated, unit-
 * carrying text, grouped the way the hardware page shows them.  Kept apart
 * from the widgets so the formatting can be tested without a display and
 * reused by the editor and the comparison view of later pages. */
#pragma once

#include "ws-hw-item.h"

G_BEGIN_DECLS

typedef struct {
  char *id;      /* stable key, e.g. "sms", "l2_size": tests and future editor */
  char *label;   /* translated, e.g. "Streaming multiprocessors" */
  char *value;   /* translated, with unit, e.g. "1.75 MiB" */
} WsHwParam;

typedef struct {
  char *title;        /* translated group title, e.g. "Memory hierarchy" */
  GPtrArray *params;  /* of WsHwParam* */
} WsHwParamGroup;

/* Groups for @item, in display order; free with g_ptr_array_unref. */
GPtrArray  *ws_hw_params_for_item (WsHwItem *item);
/* Convenience for tests: the value of parameter @id, or NULL. */
const char *ws_hw_params_lookup   (GPtrArray *groups, const char *id);

/* Formatting helpers (locale-aware decimal separator, trailing zeros cut). */
char *ws_hw_format_number (double value, int max_decimals);
char *ws_hw_format_bytes  (gint64 bytes);

G_END_DECLS
