/* ws-hw-params.h: a catalogue component's parameters as translated, unit-
 * carrying text, grouped the way the hardware page shows them.  The rows,
 * their ids (JSON keys), labels, groups and units come from core's field
 * and derived tables (core/hw/ws-hw.h); this module renders their display
 * hints for the GUI.  Kept apart from the widgets so the formatting can be
 * tested without a display and reused by the comparison grid. */
#pragma once

#include "ws-hw-item.h"

G_BEGIN_DECLS

typedef struct {
  char *id;    /* the JSON key or derived key, e.g. "sms", "peak_fp32_gflops", "pipes.fp32" */
  char *label; /* translated, e.g. "Streaming multiprocessors" */
  char *help;  /* translated help text, or NULL */
  char *value; /* translated, with unit, e.g. "1.75 MiB" */
} WsHwParam;

typedef struct {
  char *title;       /* translated group title, e.g. "L1 cache" */
  GPtrArray *params; /* of WsHwParam* */
} WsHwParamGroup;

/* Groups for @item, in display order; free with g_ptr_array_unref. */
GPtrArray *ws_hw_params_for_item (WsHwItem *item);
/* Convenience for tests: the value of parameter @id, or NULL. */
const char *ws_hw_params_lookup (GPtrArray *groups, const char *id);

/* Formatting helpers (locale-aware decimal separator, trailing zeros cut). */
char *ws_hw_format_number (double value, int max_decimals);
char *ws_hw_format_bytes (gint64 bytes);
/* A value rendered by its table's display hint; NAN reads "unknown". */
char *ws_hw_format_value (double value, WsHwFormat format, guint decimals, const char *unit);
char *ws_hw_format_field (const WsHwField *field, const void *record);
char *ws_hw_format_derived (const WsHwDerived *derived, const void *record);

G_END_DECLS
