/* ws-hw-item.h: one catalogue component (GPU, CPU or link) as a GObject, so
 * the hardware page can hold the catalogue in a GListModel and filter it. */
#pragma once

#include <glib-object.h>
#include "store/ws-store.h"

G_BEGIN_DECLS

#define WS_TYPE_HW_ITEM (ws_hw_item_get_type ())
G_DECLARE_FINAL_TYPE (WsHwItem, ws_hw_item, WS, HW_ITEM, GObject)

/* Each constructor takes ownership of the record. */
WsHwItem *ws_hw_item_new_gpu (WsGpu *gpu);
WsHwItem *ws_hw_item_new_cpu (WsCpu *cpu);
WsHwItem *ws_hw_item_new_link (WsLink *link);

WsHwKind ws_hw_item_get_kind (WsHwItem *self);
const char *ws_hw_item_get_name (WsHwItem *self);
/* Architecture for GPUs, model for CPUs, type for links (may be ""). */
const char *ws_hw_item_get_family (WsHwItem *self);
/* One line for the list: "Maxwell · compute capability 5.2 · 13 SMs". */
const char *ws_hw_item_get_summary (WsHwItem *self);
/* Where the values come from (free text from the seed file; may be ""). */
const char *ws_hw_item_get_sources (WsHwItem *self);
/* Sort key that keeps a kind's members together and GPUs in generation order. */
int ws_hw_item_compare (WsHwItem *a, WsHwItem *b);
/* TRUE when every word of @needle (lower case) occurs in the name or family. */
gboolean ws_hw_item_matches (WsHwItem *self, const char *needle);

const WsGpu *ws_hw_item_get_gpu (WsHwItem *self); /* NULL unless a GPU */
const WsCpu *ws_hw_item_get_cpu (WsHwItem *self);
const WsLink *ws_hw_item_get_link (WsHwItem *self);
/* The record of whichever kind, for walking core's field table (ws_hw_fields). */
gconstpointer ws_hw_item_get_record (WsHwItem *self);

G_END_DECLS
