/* ws-ptx-lexer.c: splits PTX text into tokens in one pass (no regex, no
 * allocation per token).  Opcodes keep their modifiers in one token
 * ("ld.global.v4.f32"); directives and types end at the next dot (".reg"). */
#define G_LOG_DOMAIN "ws-ptx"

#include "ptx/ws-ptx-private.h"

#include <string.h>

typedef struct {
  const char *origin;
  GError **error;
} LexCtx;

/* Printable rendering of a token for messages (bounded, escapes bytes). */
char *
ws_ptx_tok_describe (const WsPtxTok *t)
{
  if (t->kind == WS_TK_EOF)
    return g_strdup ("end of input");
  GString *s = g_string_new ("'");
  guint n = MIN (t->len, 40u);
  for (guint i = 0; i < n; i++)
    {
      guchar c = t->s[i];
      if (c >= 32 && c < 127)
        g_string_append_c (s, c);
      else
        g_string_append_printf (s, "\\x%02x", c);
    }
  if (t->len > n)
    g_string_append (s, "...");
  g_string_append_c (s, '\'');
  return g_string_free (s, FALSE);
}

static inline gboolean
is_ident_start (guchar c)
{
  return g_ascii_isalpha (c) || c == '_' || c == '$' || c == '%' || c == '.';
}

static inline gboolean
is_ident_char (guchar c)
{
  return g_ascii_isalnum (c) || c == '_' || c == '$' || c == '.';
}

static gboolean G_GNUC_PRINTF (4, 5) lex_error (const LexCtx *x, uint32_t line, uint32_t col, const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  g_autofree char *msg = g_strdup_vprintf (fmt, ap);
  va_end (ap);
  g_set_error (x->error, WS_ERROR, WS_ERROR_PARSE, "%s:%u:%u: %s", x->origin, line, col, msg);
  return FALSE;
}

static gboolean
lex_fail (const LexCtx *x, uint32_t line, uint32_t col, const char *what, guchar c)
{
  if (c >= 32 && c < 127)
    return lex_error (x, line, col, "%s '%c'", what, c);
  return lex_error (x, line, col, "%s (byte 0x%02x)", what, c);
}

gboolean
ws_ptx_lex (const char *s, gsize n, const char *origin, WsPtxTok **toks_out, guint *ntoks_out, GError **error)
{
  LexCtx x = { origin, error };
  GArray *toks = g_array_sized_new (FALSE, FALSE, sizeof (WsPtxTok), n / 4 + 16);
  gsize i = 0;
  uint32_t line = 1;
  gsize line_start = 0;
  gboolean ok = TRUE;

  while (i < n)
    {
      guchar c = s[i];
      if (c == '\n')
        {
          line++;
          line_start = ++i;
          continue;
        }
      if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v')
        {
          i++;
          continue;
        }
      WsPtxTok t = { 0 };
      t.line = line;
      t.col = (uint32_t) (i - line_start + 1);
      t.s = s + i;
      if (c == '/' && i + 1 < n && s[i + 1] == '/')
        {
          while (i < n && s[i] != '\n')
            i++;
          continue;
        }
      if (c == '/' && i + 1 < n && s[i + 1] == '*')
        {
          i += 2;
          while (i + 1 < n && !(s[i] == '*' && s[i + 1] == '/'))
            {
              if (s[i] == '\n')
                {
                  line++;
                  line_start = i + 1;
                }
              i++;
            }
          if (i + 1 >= n)
            {
              ok = lex_error (&x, t.line, t.col, "unterminated comment");
              break;
            }
          i += 2;
          continue;
        }
      if (is_ident_start (c))
        {
          gsize j = i + 1;
          /* a directive or type (".reg") ends at the next dot: inline asm
           * writes ".reg.b32 f;"; opcodes keep their ".modifiers" */
          gboolean directive = c == '.';
          for (;;)
            {
              if (j < n && directive && s[j] == '.')
                break;
              if (j < n && is_ident_char (s[j]))
                j++;
              else if (j + 2 < n && s[j] == ':' && s[j + 1] == ':' && is_ident_char (s[j + 2]))
                j += 2;
              else
                break;
            }
          t.kind = WS_TK_IDENT;
          t.len = (uint32_t) (j - i);
          i = j;
          g_array_append_val (toks, t);
          continue;
        }
      if (g_ascii_isdigit (c))
        {
          gsize j = i;
          if (c == '0' && i + 1 < n && (s[i + 1] == 'f' || s[i + 1] == 'F' || s[i + 1] == 'd' || s[i + 1] == 'D'))
            {
              gboolean dbl = s[i + 1] == 'd' || s[i + 1] == 'D';
              guint want = dbl ? 16 : 8;
              uint64_t v = 0;
              j = i + 2;
              guint k = 0;
              while (j < n && g_ascii_isxdigit (s[j]) && k < want)
                {
                  v = (v << 4) | (uint64_t) g_ascii_xdigit_value (s[j]);
                  j++;
                  k++;
                }
              if (k != want || (j < n && is_ident_char (s[j])))
                {
                  ok = lex_error (&x, t.line, t.col,
                                  "malformed %s floating-point literal (0%c needs exactly %u hex digits)",
                                  dbl ? "double" : "single", s[i + 1], want);
                  break;
                }
              t.kind = dbl ? WS_TK_F64 : WS_TK_F32;
              t.u = v;
            }
          else if (c == '0' && i + 1 < n && (s[i + 1] == 'x' || s[i + 1] == 'X' || s[i + 1] == 'b' || s[i + 1] == 'B'))
            {
              gboolean bin = s[i + 1] == 'b' || s[i + 1] == 'B';
              uint64_t v = 0;
              gboolean over = FALSE;
              j = i + 2;
              gsize start = j;
              while (j < n && (bin ? (s[j] == '0' || s[j] == '1') : g_ascii_isxdigit (s[j])))
                {
                  guint shift = bin ? 1 : 4;
                  if (v >> (64 - shift))
                    over = TRUE;
                  v = (v << shift) | (uint64_t) (bin ? s[j] - '0' : g_ascii_xdigit_value (s[j]));
                  j++;
                }
              if (j < n && s[j] == 'U')
                j++;
              if (j == start || over || (j < n && is_ident_char (s[j])))
                {
                  ok = lex_error (&x, t.line, t.col,
                                  over ? "integer literal out of range" : "malformed integer literal");
                  break;
                }
              t.kind = WS_TK_INT;
              t.u = v;
            }
          else
            {
              j = i;
              while (j < n && g_ascii_isdigit (s[j]))
                j++;
              gboolean is_float = FALSE;
              if (j < n && s[j] == '.' && j + 1 < n && g_ascii_isdigit (s[j + 1]))
                {
                  is_float = TRUE;
                  j++;
                  while (j < n && g_ascii_isdigit (s[j]))
                    j++;
                }
              if (j < n && (s[j] == 'e' || s[j] == 'E'))
                {
                  gsize k = j + 1;
                  if (k < n && (s[k] == '+' || s[k] == '-'))
                    k++;
                  if (k < n && g_ascii_isdigit (s[k]))
                    {
                      is_float = TRUE;
                      j = k;
                      while (j < n && g_ascii_isdigit (s[j]))
                        j++;
                    }
                }
              if (is_float)
                {
                  char buf[64];
                  gsize l = MIN ((gsize) (j - i), sizeof buf - 1);
                  memcpy (buf, s + i, l);
                  buf[l] = 0;
                  double d = g_ascii_strtod (buf, NULL);
                  memcpy (&t.u, &d, 8);
                  t.kind = WS_TK_FLOAT;
                }
              else
                {
                  uint64_t v = 0;
                  gboolean over = FALSE;
                  gboolean octal = c == '0' && j - i > 1;
                  for (gsize k = i; k < j; k++)
                    {
                      guint d = (guint) (s[k] - '0');
                      if (octal)
                        {
                          if (d > 7 || (v >> 61))
                            over = TRUE;
                          v = (v << 3) | d;
                        }
                      else
                        {
                          if (v > (G_MAXUINT64 - d) / 10)
                            over = TRUE;
                          v = v * 10 + d;
                        }
                    }
                  if (j < n && s[j] == 'U')
                    j++;
                  if (over)
                    {
                      ok = lex_error (&x, t.line, t.col, "integer literal out of range");
                      break;
                    }
                  t.kind = WS_TK_INT;
                  t.u = v;
                }
              if (j < n && is_ident_char (s[j]) && s[j] != '.')
                {
                  ok = lex_error (&x, t.line, t.col, "malformed number");
                  break;
                }
            }
          t.len = (uint32_t) (j - i);
          i = j;
          g_array_append_val (toks, t);
          continue;
        }
      if (c == '"')
        {
          gsize j = i + 1;
          while (j < n && s[j] != '"' && s[j] != '\n')
            {
              if (s[j] == '\\' && j + 1 < n && s[j + 1] != '\n')
                j++;
              j++;
            }
          if (j >= n || s[j] != '"')
            {
              ok = lex_error (&x, t.line, t.col, "unterminated string literal");
              break;
            }
          t.kind = WS_TK_STRING;
          t.len = (uint32_t) (j + 1 - i);
          i = j + 1;
          g_array_append_val (toks, t);
          continue;
        }
      if (strchr ("{}()[],;:+-!@|<>=", c) && c != 0)
        {
          t.kind = WS_TK_PUNCT;
          t.punct = (char) c;
          t.len = 1;
          i++;
          g_array_append_val (toks, t);
          continue;
        }
      ok = lex_fail (&x, t.line, t.col, "unexpected character", c);
      break;
    }

  WsPtxTok eof = { 0 };
  eof.kind = WS_TK_EOF;
  eof.line = line;
  eof.col = (uint32_t) (i - line_start + 1);
  eof.s = s + MIN (i, n);
  g_array_append_val (toks, eof);
  *ntoks_out = toks->len;
  *toks_out = (WsPtxTok *) g_array_free (toks, FALSE);
  return ok;
}
