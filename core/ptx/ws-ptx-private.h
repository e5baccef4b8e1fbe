/* ws-ptx-private.h: helpers shared by the PTX parser's source files. */
#pragma once

#include "ptx/ws-ptx.h"

G_BEGIN_DECLS

/* Looks up a type name without the leading dot ("u32"); WS_T_NONE if none. */
WsPtxType ws_ptx_type_from_name (const char *s, gsize len);

/* Converts a literal to the bits of @type.  @lit_kind: 0 integer (value in
 * @raw as a two's-complement int64), 1 decimal float (@raw holds double bits),
 * 2 hex f32 (0f), 3 hex f64 (0d).  Returns FALSE when the literal cannot be
 * used with that type (a float literal for an integer operand). */
gboolean ws_ptx_convert_literal (int lit_kind, uint64_t raw, WsPtxType type, uint64_t *out);

G_END_DECLS
