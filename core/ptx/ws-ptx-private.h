/* ws-ptx-private.h: helpers shared by the PTX parser's source files. */
#pragma once

#include "ptx/ws-ptx.h"

G_BEGIN_DECLS

/* ---- tokens (ws-ptx-lexer.c) ---- */
/* clang-format off */
typedef enum {
  WS_TK_EOF, WS_TK_IDENT, WS_TK_INT, WS_TK_F32, WS_TK_F64, WS_TK_FLOAT, WS_TK_STRING, WS_TK_PUNCT,
} WsPtxTokKind;
/* clang-format on */

typedef struct {
  uint8_t kind; /* WsPtxTokKind */
  char punct;   /* WS_TK_PUNCT: the character */
  uint32_t len;
  uint32_t line, col;
  const char *s; /* points into the text */
  uint64_t u;    /* INT value; F32/F64 bits (0f/0d); FLOAT: double bits */
} WsPtxTok;

/* Tokenises @n bytes of @s; the array always ends with a WS_TK_EOF token
 * (also on error, so a caller may free it uniformly). */
gboolean ws_ptx_lex (const char *s, gsize n, const char *origin, WsPtxTok **toks, guint *ntoks, GError **error);

/* "'ld.global.f32'" / "end of input", bounded and with bytes escaped. */
char *ws_ptx_tok_describe (const WsPtxTok *t);

/* Looks up a type name without the leading dot ("u32"); WS_T_NONE if none. */
WsPtxType ws_ptx_type_from_name (const char *s, gsize len);

/* Converts a literal to the bits of @type.  @lit_kind: 0 integer (value in
 * @raw as a two's-complement int64), 1 decimal float (@raw holds double bits),
 * 2 hex f32 (0f), 3 hex f64 (0d).  Returns FALSE when the literal cannot be
 * used with that type (a float literal for an integer operand). */
gboolean ws_ptx_convert_literal (int lit_kind, uint64_t raw, WsPtxType type, uint64_t *out);

G_END_DECLS
