/* ws-ptxmath-printf.c: device-side printf (vprintf) formatting.
 *
 * nvcc packs a printf call's arguments into a local buffer, each argument at
 * an offset aligned to its own size: char/short/int (promoted to int) take 4
 * bytes, long/long long/size_t and pointers 8, float is promoted to double (8).
 * The CUDA driver formats each conversion on the host with the C library, so
 * this formats every conversion through the C library too, one at a time,
 * with the value re-typed the way the device stored it. */
#include "ptxmath/ws-ptxmath-private.h"

#include <stdio.h>

typedef struct {
  const uint8_t *args;
  gsize len;
  gsize off;
} ArgReader;

/* Reads the next argument of @size bytes (aligned to @size); FALSE when the
 * buffer ends. */
static gboolean
arg_take (ArgReader *r, gsize size, uint64_t *out)
{
  gsize o = (r->off + size - 1) & ~(size - 1);
  if (r->args == NULL || o + size > r->len)
    return FALSE;
  if (size == 4)
    {
      uint32_t v;
      memcpy (&v, r->args + o, 4);
      *out = v;
    }
  else
    memcpy (out, r->args + o, 8);
  r->off = o + size;
  return TRUE;
}

/* Appends one conversion: @spec is a complete C format for one value, with
 * '*' placeholders for the width/precision present in @have_w/@have_p. */
/* clang-format off */
#define WS_APPEND_CONV(out, spec, have_w, have_p, w, p, value)                  \
  G_STMT_START {                                                               \
    if ((have_w) && (have_p))                                                  \
      g_string_append_printf ((out), (spec), (w), (p), (value));               \
    else if (have_w)                                                           \
      g_string_append_printf ((out), (spec), (w), (value));                    \
    else if (have_p)                                                           \
      g_string_append_printf ((out), (spec), (p), (value));                    \
    else                                                                       \
      g_string_append_printf ((out), (spec), (value));                         \
  } G_STMT_END
/* clang-format on */

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"

void
ws_ptx_format_printf (GString *out, const char *fmt, const uint8_t *args, gsize args_len, WsReadString read_string,
                      gpointer user_data)
{
  ArgReader ar = { args, args_len, 0 };
  const char *p = fmt;

  g_return_if_fail (out != NULL);
  g_return_if_fail (fmt != NULL);

  while (*p)
    {
      const char *start = p;
      char spec[64];
      gsize sl = 0;
      gboolean have_w = FALSE, have_p = FALSE, wide = FALSE, ok = TRUE;
      int w = 0, prec = 0;
      uint64_t v = 0;
      char conv;

      if (*p != '%')
        {
          const char *q = strchr (p, '%');
          gsize n = q ? (gsize) (q - p) : strlen (p);
          g_string_append_len (out, p, n);
          p += n;
          continue;
        }
      p++;
      if (*p == '%')
        {
          g_string_append_c (out, '%');
          p++;
          continue;
        }

      spec[sl++] = '%';
      while (*p && strchr ("-+ #0", *p) && sl < 16)
        spec[sl++] = *p++;
      if (*p == '*')
        {
          p++;
          have_w = TRUE;
          spec[sl++] = '*';
          if (arg_take (&ar, 4, &v))
            w = (int) (int32_t) v;
          else
            ok = FALSE;
        }
      else
        while (g_ascii_isdigit (*p) && sl < 32)
          spec[sl++] = *p++;
      if (*p == '.')
        {
          spec[sl++] = *p++;
          if (*p == '*')
            {
              p++;
              have_p = TRUE;
              spec[sl++] = '*';
              if (arg_take (&ar, 4, &v))
                prec = (int) (int32_t) v;
              else
                ok = FALSE;
            }
          else
            while (g_ascii_isdigit (*p) && sl < 48)
              spec[sl++] = *p++;
        }
      /* Length modifiers: only the argument size matters for the buffer;
       * h/hh still narrow the printed value as the C library does. */
      {
        gsize lstart = sl;
        while (*p && strchr ("hlLzjtq", *p) && sl < 56)
          {
            if (*p != 'h')
              wide = TRUE;
            spec[sl++] = *p++;
          }
        conv = *p;
        if (conv == '\0' || !strchr ("diuxXocspfFeEgGaA", conv) || !ok)
          {
            /* Unknown conversion, truncated spec, or missing arguments:
             * printed literally. */
            if (conv != '\0')
              p++;
            g_string_append_len (out, start, p - start);
            continue;
          }
        p++;
        if (strchr ("diuxXo", conv))
          {
            if (wide)
              {
                /* Any 64-bit length becomes ll for the host's printf. */
                sl = lstart;
                spec[sl++] = 'l';
                spec[sl++] = 'l';
              }
          }
        else
          sl = lstart; /* c s p and floats: no length for the host */
        spec[sl++] = conv;
        spec[sl] = '\0';
      }

      switch (conv)
        {
        case 'd':
        case 'i':
        case 'u':
        case 'x':
        case 'X':
        case 'o':
          if (!arg_take (&ar, wide ? 8 : 4, &v))
            break;
          if (wide)
            WS_APPEND_CONV (out, spec, have_w, have_p, w, prec, (long long) v);
          else
            WS_APPEND_CONV (out, spec, have_w, have_p, w, prec, (int) (int32_t) v);
          continue;
        case 'c':
          if (!arg_take (&ar, 4, &v))
            break;
          WS_APPEND_CONV (out, spec, have_w, have_p, w, prec, (int) (int32_t) v);
          continue;
        case 's':
          {
            const char *s = NULL;
            if (!arg_take (&ar, 8, &v))
              break;
            if (v != 0 && read_string != NULL)
              s = read_string (v, user_data);
            WS_APPEND_CONV (out, spec, have_w, have_p, w, prec, s);
            continue;
          }
        case 'p':
          if (!arg_take (&ar, 8, &v))
            break;
          WS_APPEND_CONV (out, spec, have_w, have_p, w, prec, (void *) (uintptr_t) v);
          continue;
        default:
          if (!arg_take (&ar, 8, &v))
            break;
          WS_APPEND_CONV (out, spec, have_w, have_p, w, prec, ws_u2d (v));
          continue;
        }
      /* The argument buffer ended: the conversion is printed as written. */
      g_string_append_len (out, start, p - start);
    }
}

#pragma GCC diagnostic pop
