/* ws-hw-record.h: a catalogue record handled as its JSON object, the form
 * `hw import` reads.  The editor changes one member and re-parses the whole
 * object with ws_*_from_json, so a field rejected in the editor gets the very
 * message a JSON import of the same value would. */
#pragma once

#include "store/ws-store.h"
#include "ws-hw-item.h"

G_BEGIN_DECLS

/* The record's JSON object (kind member included), newly allocated. */
JsonNode *ws_hw_record_to_json (WsHwItem *item);
/* Parses @node as a @kind record (full validation) and, without @store,
 * only checks it; with @store also stores it (replacing a record of the same
 * name).  Returns the record's name (newly allocated) or NULL with @error. */
char *ws_hw_record_put (WsStore *store, WsHwKind kind, JsonNode *node, GError **error);
/* Sets member @field of @node from what the user typed: numbers as numbers
 * (a ',' decimal separator is accepted), anything else as a string, so the
 * parser reports a wrong type the way the import does. */
void ws_hw_record_set_field (JsonNode *node, const WsHwField *field, const char *text);
/* The member's value as editable text ("" when absent). */
char *ws_hw_record_get_field (JsonNode *node, const WsHwField *field);
/* Serialised form for the undo history. */
char *ws_hw_record_to_text (JsonNode *node);
JsonNode *ws_hw_record_from_text (const char *text);

G_END_DECLS
