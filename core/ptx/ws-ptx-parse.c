/* ws-ptx-parse.c: the parser turning PTX tokens into the decoded IR.
 *
 * ws-ptx-lexer.c tokenises the whole text once into a flat array; the parser
 * walks it with a little lookahead and resolves every name while parsing,
 * except forward label references, patched at the end of each function. */
#define G_LOG_DOMAIN "ws-ptx"

#include "ptx/ws-ptx-private.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- name tables keyed on (pointer, length) ---------------------------- */

typedef struct {
  const char *s;
  guint len;
} NameKey;

static guint
name_hash (gconstpointer k)
{
  const NameKey *n = k;
  guint h = 2166136261u;
  for (guint i = 0; i < n->len; i++)
    h = (h ^ (guchar) n->s[i]) * 16777619u;
  return h;
}

static gboolean
name_equal (gconstpointer a, gconstpointer b)
{
  const NameKey *x = a, *y = b;
  return x->len == y->len && memcmp (x->s, y->s, x->len) == 0;
}

static GHashTable *
name_table_new (void)
{
  return g_hash_table_new_full (name_hash, name_equal, g_free, NULL);
}

static void
name_insert (GHashTable *t, const char *s, guint len, guint value)
{
  NameKey *k = g_new (NameKey, 1);
  k->s = s;
  k->len = len;
  g_hash_table_replace (t, k, GUINT_TO_POINTER (value));
}

static guint
name_lookup (GHashTable *t, const char *s, guint len)
{
  NameKey k = { s, len };
  return GPOINTER_TO_UINT (g_hash_table_lookup (t, &k));
}

/* scope entries: kind in the top 4 bits, index below */
enum { ENT_REG = 1, ENT_PRED = 2, ENT_SYM = 3, ENT_RANGE = 4 };
#define ENT(kind, idx) (((guint) (kind) << 28) | (guint) (idx))
#define ENT_KIND(v) ((v) >> 28)
#define ENT_IDX(v) ((v) &0x0fffffffu)

typedef struct {
  uint32_t base, count;
  gboolean pred;
} RegRange;

typedef enum { FIX_OPERAND, FIX_TABLE } FixKind;

typedef struct {
  FixKind kind;
  uint32_t a, b; /* OPERAND: inst, src index; TABLE: table, entry */
  const char *name;
  uint32_t len, line, col;
} Fixup;

typedef struct {
  const char *origin;
  const char *text;
  WsPtxTok *toks;
  guint ntoks, pos;
  GError **error;

  WsPtxModule *mod;
  GArray *functions;  /* WsPtxFunction */
  GArray *symbols;    /* WsPtxSymbol */
  GHashTable *gsyms;  /* module-scope symbols: idx + 1 */
  GHashTable *fnames; /* functions: idx + 1 */
  GPtrArray *files;

  /* current function */
  int fn;
  GArray *insts, *calls, *reg_types;
  GPtrArray *reg_names, *pred_names;
  GPtrArray *scopes;             /* GHashTable* */
  GPtrArray *scope_regs;         /* per scope: GArray of (type << 24 | slot) declared singly in it */
  GArray *free_regs[WS_T_COUNT]; /* slots of closed scopes, reusable per type */
  GArray *ranges;
  GHashTable *labels;      /* inst index + 1 */
  GHashTable *tables;      /* .branchtargets label: table index + 1 */
  GPtrArray *table_arrays; /* GArray<uint32_t> */
  GArray *fixups;
  uint32_t loc_file, loc_line, loc_col;
  uint64_t local_bytes, call_param_bytes;
  uint64_t call_param_cur;  /* next free offset; scopes give theirs back */
  GArray *scope_param_mark; /* call_param_cur at each scope's start */
  uint32_t local_align;
  guint imm_regs;
} P;

/* ---- errors ------------------------------------------------------------ */

static gboolean G_GNUC_PRINTF (3, 4) fail_at (P *p, const WsPtxTok *t, const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  g_autofree char *msg = g_strdup_vprintf (fmt, ap);
  va_end (ap);
  if (p->error && *p->error == NULL)
    g_set_error (p->error, WS_ERROR, WS_ERROR_PARSE, "%s:%u:%u: %s", p->origin, t ? t->line : 0, t ? t->col : 0, msg);
  return FALSE;
}

static gboolean G_GNUC_PRINTF (3, 4) unsupported_at (P *p, const WsPtxTok *t, const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  g_autofree char *msg = g_strdup_vprintf (fmt, ap);
  va_end (ap);
  if (p->error && *p->error == NULL)
    g_set_error (p->error, WS_ERROR, WS_ERROR_UNSUPPORTED, "%s:%u:%u: %s is not supported by Warpscope's PTX parser",
                 p->origin, t->line, t->col, msg);
  return FALSE;
}

/* A valid instruction the emulator does not implement: recorded in the
 * function (the first one's message and line; the rest counted) and
 * skipped, so that one texture fetch fails only the kernels that reach it,
 * not the module with its variables and other kernels. */
static gboolean skip_statement (P *p, const WsPtxTok *start);
static WsPtxFunction *fn_at (P *p, guint i);

static gboolean G_GNUC_PRINTF (3, 4) unsupported_inst (P *p, const WsPtxTok *t, const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  g_autofree char *msg = g_strdup_vprintf (fmt, ap);
  va_end (ap);
  g_assert (p->fn >= 0);
  WsPtxFunction *fn = fn_at (p, (guint) p->fn);
  if (fn->unsupported == NULL)
    {
      fn->unsupported = g_strdup_printf ("%s:%u:%u: %s is not supported by Warpscope's emulator", p->origin, t->line,
                                         t->col, msg);
      fn->unsupported_line = t->line;
    }
  fn->n_unsupported++;
  return skip_statement (p, t);
}

/* ---- token helpers ----------------------------------------------------- */

static inline const WsPtxTok *
peek (P *p)
{
  return &p->toks[p->pos];
}

static inline const WsPtxTok *
peek_at (P *p, guint k)
{
  guint i = p->pos + k;
  return &p->toks[MIN (i, p->ntoks - 1)];
}

static inline const WsPtxTok *
next (P *p)
{
  const WsPtxTok *t = &p->toks[p->pos];
  if (p->pos + 1 < p->ntoks)
    p->pos++;
  return t;
}

static inline gboolean
tok_is (const WsPtxTok *t, const char *s)
{
  return t->kind == WS_TK_IDENT && t->len == strlen (s) && memcmp (t->s, s, t->len) == 0;
}

static inline gboolean
is_punct (const WsPtxTok *t, char c)
{
  return t->kind == WS_TK_PUNCT && t->punct == c;
}

static gboolean
expect_punct (P *p, char c, const char *context)
{
  const WsPtxTok *t = peek (p);
  if (!is_punct (t, c))
    {
      g_autofree char *d = ws_ptx_tok_describe (t);
      return fail_at (p, t, "expected '%c' %s, found %s", c, context, d);
    }
  next (p);
  return TRUE;
}

static gboolean
expect_ident (P *p, const WsPtxTok **out, const char *what)
{
  const WsPtxTok *t = peek (p);
  if (t->kind != WS_TK_IDENT)
    {
      g_autofree char *d = ws_ptx_tok_describe (t);
      return fail_at (p, t, "expected %s, found %s", what, d);
    }
  *out = next (p);
  return TRUE;
}

static gboolean
expect_uint (P *p, uint64_t *out, const char *what)
{
  const WsPtxTok *t = peek (p);
  if (t->kind != WS_TK_INT)
    {
      g_autofree char *d = ws_ptx_tok_describe (t);
      return fail_at (p, t, "expected %s (an integer), found %s", what, d);
    }
  *out = next (p)->u;
  return TRUE;
}

static char *
tok_strdup (const WsPtxTok *t)
{
  return g_strndup (t->s, t->len);
}

/* Skips tokens up to and including the ';' ending a statement. */
static gboolean
skip_statement (P *p, const WsPtxTok *start)
{
  for (;;)
    {
      const WsPtxTok *t = peek (p);
      if (t->kind == WS_TK_EOF)
        return fail_at (p, start, "statement is missing its terminating ';'");
      next (p);
      if (is_punct (t, ';'))
        return TRUE;
    }
}

/* Skips a balanced { ... } block (debug sections). */
static gboolean
skip_braces (P *p, const WsPtxTok *start)
{
  int depth = 0;
  for (;;)
    {
      const WsPtxTok *t = next (p);
      if (t->kind == WS_TK_EOF)
        return fail_at (p, start, "unterminated '{' block");
      if (is_punct (t, '{'))
        depth++;
      else if (is_punct (t, '}') && --depth == 0)
        return TRUE;
    }
}

/* ---- types and literals ----------------------------------------------- */

WsPtxType
ws_ptx_type_from_name (const char *s, gsize len)
{
  static const struct {
    const char *n;
    WsPtxType t;
  } tab[] = {
    { "b8", WS_T_B8 },     { "b16", WS_T_B16 },       { "b32", WS_T_B32 }, { "b64", WS_T_B64 }, { "b128", WS_T_B128 },
    { "u8", WS_T_U8 },     { "u16", WS_T_U16 },       { "u32", WS_T_U32 }, { "u64", WS_T_U64 }, { "s8", WS_T_S8 },
    { "s16", WS_T_S16 },   { "s32", WS_T_S32 },       { "s64", WS_T_S64 }, { "f16", WS_T_F16 }, { "f16x2", WS_T_F16X2 },
    { "bf16", WS_T_BF16 }, { "bf16x2", WS_T_BF16X2 }, { "f32", WS_T_F32 }, { "f64", WS_T_F64 }, { "pred", WS_T_PRED },
  };
  if (len < 2 || len > 6 || !strchr ("busfp", s[0]))
    return WS_T_NONE;
  for (guint i = 0; i < G_N_ELEMENTS (tab); i++)
    if (tab[i].n[0] == s[0] && strncmp (tab[i].n, s, len) == 0 && tab[i].n[len] == 0)
      return tab[i].t;
  return WS_T_NONE;
}

static inline gboolean
type_is_float (WsPtxType t)
{
  return t == WS_T_F16 || t == WS_T_F16X2 || t == WS_T_BF16 || t == WS_T_BF16X2 || t == WS_T_F32 || t == WS_T_F64;
}

static uint16_t
f32_to_f16_bits (float f)
{
  /* round-to-nearest-even conversion, used only for literal operands */
  uint32_t x;
  memcpy (&x, &f, 4);
  uint32_t sign = (x >> 16) & 0x8000u;
  int32_t exp = (int32_t) ((x >> 23) & 0xff) - 127 + 15;
  uint32_t mant = x & 0x7fffffu;
  if (((x >> 23) & 0xff) == 0xff)
    return (uint16_t) (sign | 0x7c00u | (mant ? 0x200u : 0));
  if (exp >= 31)
    return (uint16_t) (sign | 0x7c00u);
  if (exp <= 0)
    {
      if (exp < -10)
        return (uint16_t) sign;
      mant |= 0x800000u;
      uint32_t shift = (uint32_t) (14 - exp);
      uint32_t h = mant >> shift;
      uint32_t rem = mant & ((1u << shift) - 1);
      uint32_t half = 1u << (shift - 1);
      if (rem > half || (rem == half && (h & 1)))
        h++;
      return (uint16_t) (sign | h);
    }
  uint32_t h = ((uint32_t) exp << 10) | (mant >> 13);
  uint32_t rem = mant & 0x1fffu;
  if (rem > 0x1000u || (rem == 0x1000u && (h & 1)))
    h++;
  return (uint16_t) (sign | h);
}

gboolean
ws_ptx_convert_literal (int lit_kind, uint64_t raw, WsPtxType type, uint64_t *out)
{
  double d = 0;
  gboolean is_fp = lit_kind != 0;
  if (lit_kind == 1)
    memcpy (&d, &raw, 8);
  else if (lit_kind == 2)
    {
      float f;
      uint32_t b = (uint32_t) raw;
      memcpy (&f, &b, 4);
      d = f;
    }
  else if (lit_kind == 3)
    memcpy (&d, &raw, 8);
  else
    d = (double) (int64_t) raw;

  switch (type)
    {
    case WS_T_F32:
      if (lit_kind == 2)
        *out = raw & 0xffffffffu;
      else
        {
          float f = (float) d;
          uint32_t b;
          memcpy (&b, &f, 4);
          *out = b;
        }
      return TRUE;
    case WS_T_F64:
      if (lit_kind == 3)
        *out = raw;
      else
        memcpy (out, &d, 8);
      return TRUE;
    case WS_T_F16:
    case WS_T_BF16:
      if (lit_kind == 0)
        {
          /* integer literals with 16-bit float types are bit patterns (nvcc
           * writes f16 constants as b16 hex); keep them as bits */
          *out = raw & 0xffffu;
          return TRUE;
        }
      if (type == WS_T_F16)
        *out = f32_to_f16_bits ((float) d);
      else
        {
          float f = (float) d;
          uint32_t b;
          memcpy (&b, &f, 4);
          *out = (b + 0x7fffu + ((b >> 16) & 1)) >> 16;
        }
      return TRUE;
    default: break;
    }
  if (lit_kind == 2)
    {
      /* 0fXXXXXXXX with a 32-bit bit-type operand: raw bits */
      *out = raw & 0xffffffffu;
      return ws_ptx_type_size (type) >= 4 || type == WS_T_NONE;
    }
  if (lit_kind == 3)
    {
      *out = raw;
      return ws_ptx_type_size (type) >= 8 || type == WS_T_NONE;
    }
  if (is_fp)
    return FALSE;
  int size = ws_ptx_type_size (type);
  if (size > 0 && size < 8)
    *out = raw & ((UINT64_C (1) << (size * 8)) - 1);
  else
    *out = raw;
  return TRUE;
}

/* ---- module-level bookkeeping ------------------------------------------ */

static WsPtxSymbol *
sym_at (P *p, guint i)
{
  return &g_array_index (p->symbols, WsPtxSymbol, i);
}

static WsPtxFunction *
fn_at (P *p, guint i)
{
  return &g_array_index (p->functions, WsPtxFunction, i);
}

static guint
add_symbol (P *p, const WsPtxSymbol *s)
{
  g_array_append_vals (p->symbols, s, 1);
  return p->symbols->len - 1;
}

static inline uint64_t
align_up (uint64_t v, uint64_t a)
{
  return a > 1 ? (v + a - 1) / a * a : v;
}

/* ---- names in the current function ------------------------------------- */

static gboolean
lookup_scoped (P *p, const char *s, guint len, guint *kind, guint *idx)
{
  if (!p->scopes)
    return FALSE;
  /* a trailing decimal suffix may index a %r<N> range */
  guint dl = 0;
  while (dl < len && g_ascii_isdigit (s[len - 1 - dl]))
    dl++;
  for (int i = (int) p->scopes->len - 1; i >= 0; i--)
    {
      GHashTable *t = g_ptr_array_index (p->scopes, i);
      guint v = name_lookup (t, s, len);
      if (v && ENT_KIND (v) != ENT_RANGE)
        {
          *kind = ENT_KIND (v);
          *idx = ENT_IDX (v);
          return TRUE;
        }
      if (dl > 0 && dl < len && dl <= 9 && !(dl > 1 && s[len - dl] == '0'))
        {
          v = name_lookup (t, s, len - dl);
          if (v && ENT_KIND (v) == ENT_RANGE)
            {
              const RegRange *r = &g_array_index (p->ranges, RegRange, ENT_IDX (v));
              guint n = 0;
              for (guint k = len - dl; k < len; k++)
                n = n * 10 + (guint) (s[k] - '0');
              if (n < r->count)
                {
                  *kind = r->pred ? ENT_PRED : ENT_REG;
                  *idx = r->base + n;
                  return TRUE;
                }
            }
        }
    }
  return FALSE;
}

static GHashTable *
cur_scope (P *p)
{
  return g_ptr_array_index (p->scopes, p->scopes->len - 1);
}

static void
scope_push (P *p)
{
  g_ptr_array_add (p->scopes, name_table_new ());
  g_ptr_array_add (p->scope_regs, g_array_new (FALSE, FALSE, sizeof (uint32_t)));
  g_array_append_val (p->scope_param_mark, p->call_param_cur);
}

/* Closing a { } scope frees its registers: nvcc declares a fresh
 * "temp_param_reg" in every call sequence, and reusing the slots keeps the
 * emulator's register file as small as the live registers need. */
static void
scope_pop (P *p)
{
  GArray *regs = g_ptr_array_index (p->scope_regs, p->scope_regs->len - 1);
  for (guint i = 0; i < regs->len; i++)
    {
      uint32_t v = g_array_index (regs, uint32_t, i);
      uint32_t slot = v & 0xffffffu;
      guint t = v >> 24;
      if (!p->free_regs[t])
        p->free_regs[t] = g_array_new (FALSE, FALSE, sizeof (uint32_t));
      g_array_append_val (p->free_regs[t], slot);
    }
  g_ptr_array_remove_index (p->scope_regs, p->scope_regs->len - 1);
  g_ptr_array_remove_index (p->scopes, p->scopes->len - 1);
  p->call_param_cur = g_array_index (p->scope_param_mark, uint64_t, p->scope_param_mark->len - 1);
  g_array_set_size (p->scope_param_mark, p->scope_param_mark->len - 1);
}

static guint
new_reg (P *p, WsPtxType type, char *name)
{
  if (type == WS_T_PRED)
    {
      g_ptr_array_add (p->pred_names, name);
      return p->pred_names->len - 1;
    }
  uint8_t t8 = (uint8_t) type;
  g_array_append_val (p->reg_types, t8);
  g_ptr_array_add (p->reg_names, name);
  return p->reg_types->len - 1;
}

/* ---- special registers ---------------------------------------------- */

static gboolean
lookup_sreg (const WsPtxTok *t, uint32_t *sreg, uint8_t *comp, gboolean *known)
{
  static const struct {
    const char *n;
    WsPtxSreg r;
    gboolean vec;
  } tab[] = {
    { "%tid", WS_SREG_TID, TRUE },
    { "%ntid", WS_SREG_NTID, TRUE },
    { "%ctaid", WS_SREG_CTAID, TRUE },
    { "%nctaid", WS_SREG_NCTAID, TRUE },
    { "%laneid", WS_SREG_LANEID, FALSE },
    { "%warpid", WS_SREG_WARPID, FALSE },
    { "%nwarpid", WS_SREG_NWARPID, FALSE },
    { "%smid", WS_SREG_SMID, FALSE },
    { "%nsmid", WS_SREG_NSMID, FALSE },
    { "%gridid", WS_SREG_GRIDID, FALSE },
    { "%clock", WS_SREG_CLOCK, FALSE },
    { "%clock64", WS_SREG_CLOCK64, FALSE },
    { "%globaltimer", WS_SREG_GLOBALTIMER, FALSE },
    { "%lanemask_eq", WS_SREG_LANEMASK_EQ, FALSE },
    { "%lanemask_le", WS_SREG_LANEMASK_LE, FALSE },
    { "%lanemask_lt", WS_SREG_LANEMASK_LT, FALSE },
    { "%lanemask_ge", WS_SREG_LANEMASK_GE, FALSE },
    { "%lanemask_gt", WS_SREG_LANEMASK_GT, FALSE },
    { "%dynamic_smem_size", WS_SREG_DYNAMIC_SMEM_SIZE, FALSE },
    { "%total_smem_size", WS_SREG_TOTAL_SMEM_SIZE, FALSE },
    { "%clusterid", WS_SREG_CLUSTERID, TRUE },
    { "%nclusterid", WS_SREG_NCLUSTERID, TRUE },
    { "%cluster_ctaid", WS_SREG_CLUSTER_CTAID, TRUE },
    { "%cluster_nctaid", WS_SREG_CLUSTER_NCTAID, TRUE },
    { "%reserved_smem_offset_begin", WS_SREG_RESERVED_SMEM_BEGIN, FALSE },
    { "%reserved_smem_offset_end", WS_SREG_RESERVED_SMEM_END, FALSE },
    { "%reserved_smem_offset_cap", WS_SREG_RESERVED_SMEM_CAP, FALSE },
    { "%reserved_smem_offset_0", WS_SREG_RESERVED_SMEM_0, FALSE },
    { "%reserved_smem_offset_1", WS_SREG_RESERVED_SMEM_1, FALSE },
  };
  *known = FALSE;
  if (t->len < 2 || t->s[0] != '%')
    return FALSE;
  guint base = t->len;
  const char *dot = memchr (t->s, '.', t->len);
  if (dot)
    base = (guint) (dot - t->s);
  for (guint i = 0; i < G_N_ELEMENTS (tab); i++)
    {
      if (strlen (tab[i].n) != base || memcmp (tab[i].n, t->s, base) != 0)
        continue;
      *known = TRUE;
      *sreg = tab[i].r;
      *comp = 0;
      if (tab[i].vec)
        {
          if (!dot || t->len != base + 2)
            return FALSE;
          char c = t->s[base + 1];
          if (c < 'x' || c > 'z')
            return FALSE;
          *comp = (uint8_t) (c - 'x');
          return TRUE;
        }
      return dot == NULL;
    }
  /* %envreg0..31, %pm0..7 */
  if (!dot && base > 7 && memcmp (t->s, "%envreg", 7) == 0)
    {
      guint n = 0;
      for (guint k = 7; k < base; k++)
        {
          if (!g_ascii_isdigit (t->s[k]))
            return FALSE;
          n = n * 10 + (guint) (t->s[k] - '0');
        }
      *known = TRUE;
      *sreg = WS_SREG_ENVREG;
      *comp = (uint8_t) MIN (n, 255u);
      return n < 32;
    }
  if (!dot && base == 4 && memcmp (t->s, "%pm", 3) == 0 && t->s[3] >= '0' && t->s[3] <= '7')
    {
      *known = TRUE;
      *sreg = WS_SREG_PM;
      *comp = (uint8_t) (t->s[3] - '0');
      return TRUE;
    }
  return FALSE;
}

/* ---- variable declarations --------------------------------------------- */

typedef struct {
  WsPtxSymbol *sym;
  int elem_size;
  WsPtxType type;
  guint pos; /* element index */
  guint max_elems;
} InitState;

static gboolean
init_store (P *p, InitState *st, const WsPtxTok *at, uint64_t bits, int lit_kind, int reloc_target, gboolean reloc_fn,
            int64_t addend)
{
  if (st->pos >= st->max_elems)
    return fail_at (p, at, "too many initialisers for '%s' (%u elements)", st->sym->name, st->max_elems);
  uint64_t off = (uint64_t) st->pos * (uint64_t) st->elem_size;
  if (reloc_target >= 0)
    {
      if (st->elem_size != 8 && st->elem_size != 4)
        return fail_at (p, at, "an address initialiser needs a 32- or 64-bit element type");
      WsPtxSymbol *s = st->sym;
      guint n = s->n_init_relocs++;
      s->init_reloc_offsets = g_renew (uint64_t, s->init_reloc_offsets, n + 1);
      s->init_reloc_symbols = g_renew (uint32_t, s->init_reloc_symbols, n + 1);
      s->init_reloc_addends = g_renew (int64_t, s->init_reloc_addends, n + 1);
      s->init_reloc_is_function = g_renew (uint8_t, s->init_reloc_is_function, n + 1);
      s->init_reloc_offsets[n] = off;
      s->init_reloc_symbols[n] = (uint32_t) reloc_target;
      s->init_reloc_addends[n] = addend;
      s->init_reloc_is_function[n] = reloc_fn;
      st->pos++;
      return TRUE;
    }
  WsPtxType ct = st->type;
  if (ct == WS_T_PRED)
    return fail_at (p, at, "predicate variables cannot be initialised");
  uint64_t v;
  if (!ws_ptx_convert_literal (lit_kind, bits, ct, &v))
    return fail_at (p, at, "floating-point initialiser for the integer variable '%s'", st->sym->name);
  for (int b = 0; b < st->elem_size && b < 8; b++)
    st->sym->init[off + b] = (uint8_t) (v >> (8 * b));
  st->pos++;
  return TRUE;
}

static gboolean parse_init_list (P *p, InitState *st, int depth);

static gboolean
parse_init_value (P *p, InitState *st, int depth)
{
  const WsPtxTok *t = peek (p);
  if (is_punct (t, '{'))
    {
      if (depth > 16)
        return fail_at (p, t, "initialiser nested too deeply");
      return parse_init_list (p, st, depth + 1);
    }
  gboolean neg = FALSE;
  if (is_punct (t, '-'))
    {
      neg = TRUE;
      next (p);
      t = peek (p);
    }
  if (t->kind == WS_TK_INT || t->kind == WS_TK_F32 || t->kind == WS_TK_F64 || t->kind == WS_TK_FLOAT)
    {
      next (p);
      int kind = t->kind == WS_TK_INT ? 0 : t->kind == WS_TK_FLOAT ? 1 : t->kind == WS_TK_F32 ? 2 : 3;
      uint64_t bits = t->u;
      if (neg)
        {
          if (kind == 0)
            bits = UINT64_C (0) - bits;
          else if (kind == 2)
            bits ^= 0x80000000u;
          else
            bits ^= UINT64_C (0x8000000000000000);
        }
      return init_store (p, st, t, bits, kind, -1, FALSE, 0);
    }
  if (t->kind == WS_TK_IDENT && !neg)
    {
      const WsPtxTok *name = next (p);
      gboolean paren = FALSE;
      if (tok_is (name, "generic"))
        {
          if (!expect_punct (p, '(', "after 'generic'"))
            return FALSE;
          if (!expect_ident (p, &name, "a variable name inside generic()"))
            return FALSE;
          paren = TRUE;
        }
      int64_t addend = 0;
      if (paren && !expect_punct (p, ')', "closing generic("))
        return FALSE;
      if (is_punct (peek (p), '+'))
        {
          next (p);
          uint64_t a;
          if (!expect_uint (p, &a, "an offset after '+'"))
            return FALSE;
          addend = (int64_t) a;
        }
      guint si = name_lookup (p->gsyms, name->s, name->len);
      if (si)
        return init_store (p, st, name, 0, 0, (int) si - 1, FALSE, addend);
      guint fi = name_lookup (p->fnames, name->s, name->len);
      if (fi)
        return init_store (p, st, name, 0, 0, (int) fi - 1, TRUE, addend);
      g_autofree char *d = ws_ptx_tok_describe (name);
      return fail_at (p, name, "initialiser refers to the undeclared symbol %s", d);
    }
  g_autofree char *d = ws_ptx_tok_describe (t);
  return fail_at (p, t, "expected an initialiser value, found %s", d);
}

static gboolean
parse_init_list (P *p, InitState *st, int depth)
{
  const WsPtxTok *open = next (p); /* '{' */
  if (is_punct (peek (p), '}'))
    {
      next (p);
      return TRUE;
    }
  for (;;)
    {
      if (!parse_init_value (p, st, depth))
        return FALSE;
      const WsPtxTok *t = peek (p);
      if (is_punct (t, ','))
        {
          next (p);
          continue;
        }
      if (is_punct (t, '}'))
        {
          next (p);
          return TRUE;
        }
      g_autofree char *d = ws_ptx_tok_describe (t);
      (void) open;
      return fail_at (p, t, "expected ',' or '}' in initialiser list, found %s", d);
    }
}

static gboolean
parse_space_name (const WsPtxTok *t, WsPtxSpace *space)
{
  if (tok_is (t, ".global"))
    *space = WS_SPACE_GLOBAL;
  else if (tok_is (t, ".const"))
    *space = WS_SPACE_CONST;
  else if (tok_is (t, ".shared") || tok_is (t, ".shared::cta") || tok_is (t, ".shared::cluster"))
    *space = WS_SPACE_SHARED; /* ::cluster is rejected as unsupported by the caller */
  else if (tok_is (t, ".local"))
    *space = WS_SPACE_LOCAL;
  else if (tok_is (t, ".param"))
    *space = WS_SPACE_PARAM;
  else if (tok_is (t, ".tex"))
    *space = WS_SPACE_TEX;
  else
    return FALSE;
  return TRUE;
}

typedef struct {
  gboolean is_extern, is_visible;
} Linkage;

/* Parses ".space [.align N] [.vN] .type name[dims] [= init] {, ...};" with
 * the space token at the cursor.  @role: param role for .param symbols;
 * @in_list: function parameter lists (no ';', one declarator, no init). */
static gboolean
parse_var_decl (P *p, Linkage link, WsPtxParamRole role, gboolean in_list, GArray *out_syms)
{
  const WsPtxTok *st = next (p);
  WsPtxSpace space;
  if (!parse_space_name (st, &space))
    {
      g_autofree char *d = ws_ptx_tok_describe (st);
      return fail_at (p, st, "expected a state space, found %s", d);
    }
  if (space == WS_SPACE_TEX)
    return unsupported_at (p, st, "the .tex state space (texture references)");
  if (tok_is (st, ".shared::cluster"))
    return unsupported_at (p, st, ".shared::cluster variables");
  uint64_t align = 0;
  int vec = 1;
  WsPtxType type = WS_T_NONE;
  for (;;)
    {
      const WsPtxTok *t = peek (p);
      if (tok_is (t, ".align"))
        {
          next (p);
          if (!expect_uint (p, &align, "an alignment after .align"))
            return FALSE;
          if (align == 0 || (align & (align - 1)) || align > 4096)
            return fail_at (p, t, "alignment must be a power of two up to 4096");
          continue;
        }
      if (tok_is (t, ".v2") || tok_is (t, ".v4") || tok_is (t, ".v8"))
        {
          next (p);
          vec = t->s[2] - '0';
          continue;
        }
      if (tok_is (t, ".ptr") || tok_is (t, ".global") || tok_is (t, ".const") || tok_is (t, ".shared")
          || tok_is (t, ".local"))
        {
          /* .ptr .space attributes of kernel pointer parameters: hints only */
          next (p);
          continue;
        }
      if (t->kind == WS_TK_IDENT && t->len > 1 && t->s[0] == '.')
        {
          WsPtxType ty = ws_ptx_type_from_name (t->s + 1, t->len - 1);
          if (ty != WS_T_NONE && type == WS_T_NONE)
            {
              next (p);
              type = ty;
              continue;
            }
          if (tok_is (t, ".texref") || tok_is (t, ".samplerref") || tok_is (t, ".surfref"))
            return unsupported_at (p, t, "texture/sampler/surface reference variables");
          if (ty == WS_T_NONE)
            {
              g_autofree char *d = ws_ptx_tok_describe (t);
              return fail_at (p, t, "unexpected %s in a variable declaration", d);
            }
        }
      break;
    }
  if (type == WS_T_NONE)
    {
      g_autofree char *d = ws_ptx_tok_describe (peek (p));
      return fail_at (p, peek (p), "expected a type in the declaration, found %s", d);
    }
  int esize = ws_ptx_type_size (type);
  if (type == WS_T_PRED)
    return unsupported_at (p, st, "predicate variables in memory");

  for (;;)
    {
      const WsPtxTok *name;
      if (!expect_ident (p, &name, "a variable name"))
        return FALSE;
      if (name->s[0] == '.')
        {
          g_autofree char *d = ws_ptx_tok_describe (name);
          return fail_at (p, name, "expected a variable name, found %s", d);
        }
      uint64_t count = 1;
      gboolean unsized = FALSE, is_array = FALSE;
      while (is_punct (peek (p), '['))
        {
          const WsPtxTok *lb = next (p);
          is_array = TRUE;
          if (is_punct (peek (p), ']'))
            {
              if (unsized)
                return fail_at (p, lb, "only the first array dimension may be unsized");
              unsized = TRUE;
              next (p);
              continue;
            }
          uint64_t dim;
          if (!expect_uint (p, &dim, "an array size"))
            return FALSE;
          if (dim > (UINT64_C (1) << 40) || (dim && count > (UINT64_C (1) << 40) / dim))
            return fail_at (p, lb, "array too large");
          count *= dim;
          if (!expect_punct (p, ']', "after the array size"))
            return FALSE;
        }
      WsPtxSymbol s = { 0 };
      s.name = tok_strdup (name);
      s.space = (uint8_t) (space == WS_SPACE_PARAM && role != WS_PARAM_ROLE_ENTRY ? WS_SPACE_FUNC_PARAM : space);
      s.type = (uint8_t) type;
      s.align = (uint32_t) (align ? align : (uint64_t) esize * (uint64_t) vec);
      if (s.align == 0)
        s.align = 1;
      s.size = unsized ? 0 : count * (uint64_t) esize * (uint64_t) vec;
      s.is_extern = link.is_extern;
      s.is_visible = link.is_visible;
      s.function = p->fn;
      s.param_role = (uint8_t) (space == WS_SPACE_PARAM ? role : WS_PARAM_ROLE_NONE);
      s.decl_line = name->line;

      if (is_punct (peek (p), '='))
        {
          const WsPtxTok *eq = next (p);
          if (in_list || space == WS_SPACE_SHARED || space == WS_SPACE_LOCAL || space == WS_SPACE_PARAM)
            {
              g_free (s.name);
              return fail_at (p, eq, "variables in this state space cannot have an initialiser");
            }
          if (unsized)
            {
              /* size comes from the initialiser: count elements first */
              guint save = p->pos;
              guint depth = 0, n = 0;
              for (;;)
                {
                  const WsPtxTok *t = next (p);
                  if (t->kind == WS_TK_EOF || is_punct (t, ';'))
                    break;
                  if (is_punct (t, '{'))
                    depth++;
                  else if (is_punct (t, '}'))
                    {
                      if (depth == 0 || --depth == 0)
                        break;
                    }
                  else if ((t->kind == WS_TK_INT || t->kind == WS_TK_F32 || t->kind == WS_TK_F64
                            || t->kind == WS_TK_FLOAT || (t->kind == WS_TK_IDENT && !tok_is (t, "generic")))
                           && !is_punct (t - 1, '+')) /* sym+8 is one element */
                    n++;
                }
              p->pos = save;
              s.size = (uint64_t) n * (uint64_t) esize;
            }
          if (s.size > (UINT64_C (256) << 20))
            {
              g_free (s.name);
              return unsupported_at (p, eq, "an initialised variable larger than 256 MiB");
            }
          s.init = g_malloc0 (s.size ? s.size : 1);
          guint idx = add_symbol (p, &s);
          InitState ist = { sym_at (p, idx), esize, type, 0,
                            (guint) MIN (s.size / (uint64_t) esize, (uint64_t) G_MAXUINT) };
          if (!parse_init_value (p, &ist, 0))
            return FALSE;
          if (out_syms)
            g_array_append_val (out_syms, idx);
        }
      else
        {
          if (unsized && !s.is_extern && space != WS_SPACE_PARAM)
            {
              /* PTX allows "name[]" only for extern or initialised arrays */
              g_free (s.name);
              return fail_at (p, name, "array '%.*s' has no size and no initialiser", (int) name->len, name->s);
            }
          guint idx = add_symbol (p, &s);
          if (out_syms)
            g_array_append_val (out_syms, idx);
        }
      (void) is_array;
      if (in_list)
        return TRUE;
      const WsPtxTok *t = peek (p);
      if (is_punct (t, ','))
        {
          next (p);
          continue;
        }
      if (is_punct (t, ';'))
        {
          next (p);
          return TRUE;
        }
      g_autofree char *d = ws_ptx_tok_describe (t);
      return fail_at (p, t, "expected ';' after the declaration, found %s", d);
    }
}

/* Places a just-declared symbol: layout offsets and name registration. */
static gboolean
place_symbol (P *p, guint idx, const WsPtxTok *at)
{
  WsPtxSymbol *s = sym_at (p, idx);
  if (p->fn < 0)
    {
      guint prev = name_lookup (p->gsyms, s->name, (guint) strlen (s->name));
      if (prev)
        {
          WsPtxSymbol *o = sym_at (p, prev - 1);
          /* an .extern declaration followed by the definition is fine: the
           * definition takes over the name */
          if (!(o->is_extern && o->space == s->space))
            return fail_at (p, at, "'%s' is already declared at line %u", s->name, o->decl_line);
        }
      if (s->space == WS_SPACE_LOCAL)
        return unsupported_at (p, at, "module-scope .local variables");
    }
  if (s->space == WS_SPACE_SHARED)
    {
      if (!s->is_extern)
        {
          p->mod->shared_bytes = align_up (p->mod->shared_bytes, s->align);
          s->offset = p->mod->shared_bytes;
          p->mod->shared_bytes += s->size;
        }
      p->mod->shared_align = MAX (p->mod->shared_align, s->align);
    }
  else if (s->space == WS_SPACE_LOCAL)
    {
      p->local_bytes = align_up (p->local_bytes, s->align);
      s->offset = p->local_bytes;
      p->local_bytes += s->size;
      p->local_align = MAX (p->local_align, s->align);
    }
  else if (s->space == WS_SPACE_FUNC_PARAM && s->param_role == WS_PARAM_ROLE_CALL)
    {
      /* call-site params die with their { } scope: siblings share space */
      p->call_param_cur = align_up (p->call_param_cur, s->align);
      s->offset = s->param_offset = p->call_param_cur;
      p->call_param_cur += s->size;
      p->call_param_bytes = MAX (p->call_param_bytes, p->call_param_cur);
    }
  if (p->fn < 0)
    name_insert (p->gsyms, s->name, (guint) strlen (s->name), idx + 1);
  else
    name_insert (cur_scope (p), s->name, (guint) strlen (s->name), ENT (ENT_SYM, idx));
  return TRUE;
}

static gboolean
parse_and_place_vars (P *p, Linkage link, WsPtxParamRole role)
{
  const WsPtxTok *at = peek (p);
  g_autoptr (GArray) idx = g_array_new (FALSE, FALSE, sizeof (guint));
  if (!parse_var_decl (p, link, role, FALSE, idx))
    return FALSE;
  for (guint i = 0; i < idx->len; i++)
    if (!place_symbol (p, g_array_index (idx, guint, i), at))
      return FALSE;
  return TRUE;
}

/* .reg .type name, name<N>, ...; */
static gboolean
parse_reg_decl (P *p)
{
  const WsPtxTok *kw = next (p);
  const WsPtxTok *tt;
  if (!expect_ident (p, &tt, "a register type"))
    return FALSE;
  if (tok_is (tt, ".v2") || tok_is (tt, ".v4"))
    return unsupported_at (p, tt, "vector registers (.reg .v2/.v4)");
  WsPtxType type = tt->len > 1 && tt->s[0] == '.' ? ws_ptx_type_from_name (tt->s + 1, tt->len - 1) : WS_T_NONE;
  if (type == WS_T_NONE)
    {
      g_autofree char *d = ws_ptx_tok_describe (tt);
      return fail_at (p, tt, "expected a register type after .reg, found %s", d);
    }
  if (type == WS_T_B128)
    return unsupported_at (p, tt, ".b128 registers");
  for (;;)
    {
      const WsPtxTok *name;
      if (!expect_ident (p, &name, "a register name"))
        return FALSE;
      if (name->s[0] == '.')
        {
          g_autofree char *d = ws_ptx_tok_describe (name);
          return fail_at (p, name, "expected a register name, found %s", d);
        }
      if (is_punct (peek (p), '<'))
        {
          next (p);
          uint64_t n;
          if (!expect_uint (p, &n, "a register count"))
            return FALSE;
          if (n > 1000000)
            return fail_at (p, name, "register range too large");
          if (!expect_punct (p, '>', "after the register count"))
            return FALSE;
          RegRange r = { 0, (uint32_t) n, type == WS_T_PRED };
          for (uint64_t i = 0; i < n; i++)
            {
              char *nm = g_malloc (name->len + 12);
              memcpy (nm, name->s, name->len);
              /* decimal suffix without printf: ranges declare thousands of registers */
              char digits[12];
              guint nd = 0;
              uint64_t v = i;
              do
                {
                  digits[nd++] = (char) ('0' + v % 10);
                  v /= 10;
                }
              while (v);
              for (guint k = 0; k < nd; k++)
                nm[name->len + k] = digits[nd - 1 - k];
              nm[name->len + nd] = 0;
              guint slot = new_reg (p, type, nm);
              if (i == 0)
                r.base = slot;
            }
          if (n == 0)
            r.base = 0;
          g_array_append_val (p->ranges, r);
          name_insert (cur_scope (p), name->s, name->len, ENT (ENT_RANGE, p->ranges->len - 1));
        }
      else
        {
          guint slot;
          GArray *fr = p->free_regs[type];
          if (p->scopes->len > 2 && fr && fr->len)
            {
              slot = g_array_index (fr, uint32_t, fr->len - 1);
              g_array_set_size (fr, fr->len - 1);
            }
          else
            slot = new_reg (p, type, tok_strdup (name));
          if (p->scopes->len > 2 && slot < 0xffffffu)
            {
              uint32_t v = ((uint32_t) type << 24) | slot;
              g_array_append_val ((GArray *) g_ptr_array_index (p->scope_regs, p->scope_regs->len - 1), v);
            }
          name_insert (cur_scope (p), name->s, name->len, ENT (type == WS_T_PRED ? ENT_PRED : ENT_REG, slot));
        }
      const WsPtxTok *t = peek (p);
      if (is_punct (t, ','))
        {
          next (p);
          continue;
        }
      if (is_punct (t, ';'))
        {
          next (p);
          return TRUE;
        }
      g_autofree char *d = ws_ptx_tok_describe (t);
      (void) kw;
      return fail_at (p, t, "expected ',' or ';' in the .reg declaration, found %s", d);
    }
}

/* ---- instructions ------------------------------------------------------ */

static const char *const op_names[] = {
#define WS_PTX_OP_STR(name, str) str,
  WS_PTX_OPCODES (WS_PTX_OP_STR)
#undef WS_PTX_OP_STR
};

/* PTX mnemonics that are valid but not implemented: reported as unsupported
 * instead of as syntax errors. */
static const char *const known_unsupported[] = {
  "tld4",
  "txq",
  "sured",
  "suq",
  "istypep",
  "mma",
  "ldmatrix",
  "stmatrix",
  "movmatrix",
  "vadd",
  "vsub",
  "vabsdiff",
  "vmin",
  "vmax",
  "vshl",
  "vshr",
  "vmad",
  "vset",
  "vadd2",
  "vsub2",
  "vavrg2",
  "vabsdiff2",
  "vmin2",
  "vmax2",
  "vset2",
  "vset4",
  "stacksave",
  "stackrestore",
  "alloca",
  "setmaxnreg",
  "applypriority",
  "discard",
  "createpolicy",
  "getctarank",
  "multimem",
  "tensormap",
  "wgmma",
  "tcgen05",
  "clusterlaunchcontrol",
  "szext",
  "cp",
  "cp.async",
  "prefetchu",
  "cctl",
  "bar.cta",
  "barrier.cluster",
  "fence.proxy",
  "cvt.pack",
  NULL,
};

static int
lookup_op (const char *s, guint len)
{
  static guint8 lens[G_N_ELEMENTS (op_names)];
  static gsize init = 0;
  if (g_once_init_enter (&init))
    {
      for (guint i = 0; i < G_N_ELEMENTS (op_names); i++)
        lens[i] = (guint8) strlen (op_names[i]);
      g_once_init_leave (&init, 1);
    }
  for (guint i = 0; i < G_N_ELEMENTS (op_names); i++)
    if (op_names[i][0] == s[0] && lens[i] == len && memcmp (op_names[i], s, len) == 0)
      return (int) i;
  return -1;
}

static gboolean
is_known_unsupported (const char *s, guint len)
{
  for (guint i = 0; known_unsupported[i]; i++)
    if (strlen (known_unsupported[i]) == len && memcmp (known_unsupported[i], s, len) == 0)
      return TRUE;
  return FALSE;
}

static inline gboolean
part_is (const char *s, guint len, const char *w)
{
  return w[0] == s[0] && strncmp (w, s, len) == 0 && w[len] == 0;
}

/* The index of S in WORDS (NULL-terminated), or -1; a word ending in "::"
 * matches as a prefix (L2::evict_last). */
static int
part_in (const char *s, guint len, const char *const *words)
{
  for (int i = 0; words[i]; i++)
    {
      size_t wl = strlen (words[i]);
      gboolean prefix = wl > 2 && words[i][wl - 1] == ':' && words[i][wl - 2] == ':';
      if (prefix ? len > wl && memcmp (s, words[i], wl) == 0 : part_is (s, len, words[i]))
        return i;
    }
  return -1;
}

/* ---- modifiers: the ".part"s after the mnemonic ------------------------ */

/* Types, vector widths and state spaces are read by code (their place in
 * the instruction depends on how many came before).  Every other word is
 * looked up in modifier_rules: the rules of the instruction's opcode or
 * group first, then, unless the opcode takes only its own words, the rules
 * that hold for every opcode.  A rule names a list of words; the k-th word
 * gives value + k. */

/* Groups of opcodes that share rules (after the opcodes themselves). */
enum {
  OPS_ANY = WS_OP_COUNT, /* every opcode that does not take only its own words */
  OPS_VIDEO4,            /* vadd4 vsub4 vavrg4 vabsdiff4 vmin4 vmax4 */
  OPS_TEXTURE,           /* tex suld sust: geometry */
  OPS_SURFACE,           /* suld sust */
  OPS_COMPARE,           /* setp set */
  OPS_ATOMIC,            /* atom red redux */
  OPS_BARRIER,           /* bar barrier */
  OPS_CACHED,            /* ld st ldu prefetch: cache operators */
};

typedef enum {
  MOD_SUB,       /* in->sub = value + k (when `after` is set: only while in->sub is `after`) */
  MOD_SUB_FIRST, /* in->sub = value + k unless a sub-operation came before */
  MOD_FLAG,      /* in->mods |= value */
  MOD_SCOPE,     /* in->scope = value + k */
  MOD_CACHE,     /* in->cache_op = value + k */
  MOD_ROUND,     /* in->rnd = value + k */
  MOD_CMP,       /* in->cmp = value + k */
  MOD_BOOL,      /* in->boolop = value + k */
  MOD_IMM2,      /* in->imm2 = value + k */
  MOD_ACCEPT,    /* valid, no effect on a functional emulator */
} ModEffect;

typedef struct {
  uint16_t ops;   /* a WsPtxOp or an OPS_* group */
  uint8_t effect; /* ModEffect */
  uint8_t after;  /* MOD_SUB: the sub-operation it refines (0: any) */
  uint32_t value;
  const char *const *words; /* NULL-terminated; a word ending in "::" matches as a prefix */
} ModRule;

#define WORDS(...) ((const char *const[]){ __VA_ARGS__, NULL })

static const ModRule modifier_rules[] = {
  { OPS_VIDEO4, MOD_SUB, 0, WS_SUB_ADD, WORDS ("add") },
  { OPS_VIDEO4, MOD_FLAG, 0, WS_MOD_SAT, WORDS ("sat") },
  { WS_OP_FENCE, MOD_FLAG, 0, WS_MOD_PROXY, WORDS ("proxy") },
  { WS_OP_GRIDDEPCONTROL, MOD_ACCEPT, 0, 0, WORDS ("wait", "launch_dependents") },
  { OPS_TEXTURE, MOD_SUB, 0, WS_SUB_TEX_1D, WORDS ("1d", "2d", "3d", "a1d", "a2d", "cube", "acube") },
  /* suld.b / sust.b: unformatted (raw bits) access, the only kind nvcc
   * emits; the out-of-range mode goes to imm2 */
  { OPS_SURFACE, MOD_IMM2, 0, 0, WORDS ("trap", "clamp", "zero") },
  { OPS_SURFACE, MOD_ACCEPT, 0, 0, WORDS ("b") },
  /* tex.level: an explicit level of detail (the emulator's textures have
   * one level, so any lod reads level 0) */
  { WS_OP_TEX, MOD_ACCEPT, 0, 0, WORDS ("level") },
  { OPS_COMPARE, MOD_CMP, 0, WS_CMP_EQ,
    WORDS ("eq", "ne", "lt", "le", "gt", "ge", "lo", "ls", "hi", "hs", "equ", "neu", "ltu", "leu", "gtu", "geu", "num",
           "nan") },
  { OPS_COMPARE, MOD_BOOL, 0, WS_BOOL_AND, WORDS ("and", "or", "xor") },
  { OPS_COMPARE, MOD_FLAG, 0, WS_MOD_FTZ, WORDS ("ftz") },
  { OPS_ATOMIC, MOD_SUB, 0, WS_SUB_ADD, WORDS ("add", "min", "max", "inc", "dec", "cas", "exch", "and", "or", "xor") },
  { OPS_ATOMIC, MOD_FLAG, 0, WS_MOD_NOFTZ_F16, WORDS ("noftz") },
  { WS_OP_VOTE, MOD_SUB, 0, WS_SUB_ALL, WORDS ("all", "any", "uni", "ballot") },
  { WS_OP_VOTE, MOD_FLAG, 0, WS_MOD_SYNC, WORDS ("sync") },
  { WS_OP_SHFL, MOD_SUB, 0, WS_SUB_UP, WORDS ("up", "down", "bfly", "idx") },
  { WS_OP_SHFL, MOD_FLAG, 0, WS_MOD_SYNC, WORDS ("sync") },
  /* bar.warp.sync keeps its kind; bar.red.{popc,and,or} */
  { WS_OP_BAR, MOD_SUB, 0, WS_SUB_WARP_SYNC, WORDS ("warp") },
  { OPS_BARRIER, MOD_FLAG, 0, WS_MOD_SYNC, WORDS ("sync") },
  { OPS_BARRIER, MOD_SUB_FIRST, 0, WS_SUB_SYNC, WORDS ("sync") },
  { OPS_BARRIER, MOD_SUB, 0, WS_SUB_ARRIVE, WORDS ("arrive") },
  { OPS_BARRIER, MOD_SUB, 0, WS_SUB_RED_POPC, WORDS ("red") },
  { OPS_BARRIER, MOD_SUB, WS_SUB_RED_POPC, WS_SUB_RED_POPC, WORDS ("popc", "and", "or") },
  { OPS_BARRIER, MOD_FLAG, 0, WS_MOD_ALIGNED, WORDS ("aligned") },
  { OPS_BARRIER, MOD_ACCEPT, 0, 0, WORDS ("cta") }, /* bar.cta.* is bar.* */
  { WS_OP_TESTP, MOD_SUB, 0, WS_SUB_FINITE,
    WORDS ("finite", "infinite", "number", "notanumber", "normal", "subnormal") },
  { WS_OP_SHF, MOD_SUB, 0, WS_SUB_L, WORDS ("l", "r") },
  { WS_OP_SHF, MOD_FLAG, 0, WS_MOD_CLAMP, WORDS ("clamp") },
  { WS_OP_SHF, MOD_FLAG, 0, WS_MOD_WRAP, WORDS ("wrap") },
  { WS_OP_PRMT, MOD_SUB, 0, WS_SUB_F4E, WORDS ("f4e", "b4e", "rc8", "ecl", "ecr", "rc16") },
  { WS_OP_MATCH, MOD_SUB, 0, WS_SUB_ANYSYNC, WORDS ("any", "all") },
  { WS_OP_MATCH, MOD_FLAG, 0, WS_MOD_SYNC, WORDS ("sync") },
  { WS_OP_CP_ASYNC, MOD_SUB, 0, WS_SUB_COMMIT_GROUP, WORDS ("commit_group", "wait_group", "wait_all") },
  { WS_OP_CP_ASYNC, MOD_CACHE, 0, WS_CACHE_CA, WORDS ("ca", "cg") },
  { WS_OP_CP_ASYNC, MOD_ACCEPT, 0, 0, WORDS ("L1::", "L2::") },
  /* .cluster, .expect_tx, .noComplete...: not supported */
  { WS_OP_MBARRIER, MOD_SUB, 0, WS_SUB_MBAR_INIT,
    WORDS ("init", "arrive", "arrive_drop", "test_wait", "try_wait", "pending_count", "inval") },
  { WS_OP_MBARRIER, MOD_IMM2, 0, 1, WORDS ("parity") },
  { WS_OP_MBARRIER, MOD_SCOPE, 0, WS_SCOPE_CTA, WORDS ("cta") },
  { WS_OP_MBARRIER, MOD_FLAG, 0, WS_MOD_RELEASE, WORDS ("release") },
  { WS_OP_MBARRIER, MOD_FLAG, 0, WS_MOD_ACQUIRE, WORDS ("acquire") },
  { WS_OP_BRX, MOD_SUB, 0, WS_SUB_IDX_BRX, WORDS ("idx") },
  { WS_OP_BRX, MOD_FLAG, 0, WS_MOD_UNI, WORDS ("uni") },
  { WS_OP_MEMBAR, MOD_SCOPE, 0, WS_SCOPE_GPU, WORDS ("gl") },
  { OPS_CACHED, MOD_CACHE, 0, WS_CACHE_CA, WORDS ("ca", "cg", "cs", "lu", "cv", "wb", "wt") },
  { WS_OP_PREFETCH, MOD_ACCEPT, 0, 0, WORDS ("L1", "L2") },
  /* every other opcode */
  { OPS_ANY, MOD_ROUND, 0, WS_RND_RN, WORDS ("rn", "rz", "rm", "rp", "rni", "rzi", "rmi", "rpi", "rna") },
  { OPS_ANY, MOD_ACCEPT, 0, 0, WORDS ("L1::", "L2::") }, /* cache hints, eviction priorities: performance only */
  { OPS_ANY, MOD_FLAG, 0, WS_MOD_FTZ, WORDS ("ftz") },
  { OPS_ANY, MOD_FLAG, 0, WS_MOD_SAT, WORDS ("sat") },
  { OPS_ANY, MOD_FLAG, 0, WS_MOD_APPROX, WORDS ("approx") },
  { OPS_ANY, MOD_FLAG, 0, WS_MOD_FULL, WORDS ("full") },
  { OPS_ANY, MOD_FLAG, 0, WS_MOD_WIDE, WORDS ("wide") },
  { OPS_ANY, MOD_FLAG, 0, WS_MOD_HI, WORDS ("hi") },
  { OPS_ANY, MOD_FLAG, 0, WS_MOD_LO, WORDS ("lo") },
  { OPS_ANY, MOD_FLAG, 0, WS_MOD_CC, WORDS ("cc") },
  { OPS_ANY, MOD_FLAG, 0, WS_MOD_VOLATILE, WORDS ("volatile") },
  { OPS_ANY, MOD_FLAG, 0, WS_MOD_RELAXED, WORDS ("relaxed") },
  { OPS_ANY, MOD_FLAG, 0, WS_MOD_ACQUIRE, WORDS ("acquire") },
  { OPS_ANY, MOD_FLAG, 0, WS_MOD_RELEASE, WORDS ("release") },
  { OPS_ANY, MOD_FLAG, 0, WS_MOD_ACQUIRE | WS_MOD_RELEASE, WORDS ("acq_rel") },
  { OPS_ANY, MOD_FLAG, 0, WS_MOD_NC, WORDS ("nc") },
  { OPS_ANY, MOD_FLAG, 0, WS_MOD_UNI, WORDS ("uni") },
  { OPS_ANY, MOD_FLAG, 0, WS_MOD_SYNC, WORDS ("sync") },
  { OPS_ANY, MOD_FLAG, 0, WS_MOD_ALIGNED, WORDS ("aligned") },
  { OPS_ANY, MOD_FLAG, 0, WS_MOD_SHIFTAMT, WORDS ("shiftamt") },
  { OPS_ANY, MOD_FLAG, 0, WS_MOD_TO, WORDS ("to") },
  { OPS_ANY, MOD_FLAG, 0, WS_MOD_RELU, WORDS ("relu") },
  { OPS_ANY, MOD_FLAG, 0, WS_MOD_XORSIGN, WORDS ("xorsign") },
  { OPS_ANY, MOD_FLAG, 0, WS_MOD_ABS, WORDS ("abs") },
  { OPS_ANY, MOD_FLAG, 0, WS_MOD_NAN, WORDS ("NaN") },
  { OPS_ANY, MOD_FLAG, 0, WS_MOD_WEAK, WORDS ("weak") },
  { OPS_ANY, MOD_FLAG, 0, WS_MOD_MMIO, WORDS ("mmio") },
  { OPS_ANY, MOD_FLAG, 0, WS_MOD_SC, WORDS ("sc") },
  { OPS_ANY, MOD_FLAG, 0, WS_MOD_SATFINITE, WORDS ("satfinite") },
  { OPS_ANY, MOD_FLAG, 0, WS_MOD_CLAMP, WORDS ("clamp") },
  { OPS_ANY, MOD_FLAG, 0, WS_MOD_WRAP, WORDS ("wrap") },
  { OPS_ANY, MOD_SCOPE, 0, WS_SCOPE_CTA, WORDS ("cta") },
  { OPS_ANY, MOD_SCOPE, 0, WS_SCOPE_GPU, WORDS ("gpu") },
  { OPS_ANY, MOD_SCOPE, 0, WS_SCOPE_SYS, WORDS ("sys") },
  { OPS_ANY, MOD_SCOPE, 0, WS_SCOPE_CLUSTER, WORDS ("cluster") },
};

#undef WORDS

/* Opcodes that take no modifier but the words of their own rules. */
static gboolean
takes_only_own_modifiers (WsPtxOp op)
{
  switch (op)
    {
    case WS_OP_VADD4:
    case WS_OP_VSUB4:
    case WS_OP_VAVRG4:
    case WS_OP_VABSDIFF4:
    case WS_OP_VMIN4:
    case WS_OP_VMAX4:
    case WS_OP_GRIDDEPCONTROL:
    case WS_OP_TEX:
    case WS_OP_SULD:
    case WS_OP_SUST:
    case WS_OP_SETP:
    case WS_OP_SET:
    case WS_OP_VOTE:
    case WS_OP_SHFL:
    case WS_OP_BAR:
    case WS_OP_BARRIER:
    case WS_OP_TESTP:
    case WS_OP_SHF:
    case WS_OP_PRMT:
    case WS_OP_MATCH:
    case WS_OP_CP_ASYNC:
    case WS_OP_MBARRIER:
    case WS_OP_BRX: return TRUE;
    default: return FALSE;
    }
}

static gboolean
rule_covers (guint ops, WsPtxOp op)
{
  switch (ops)
    {
    case OPS_ANY: return !takes_only_own_modifiers (op);
    case OPS_VIDEO4:
      return op == WS_OP_VADD4 || op == WS_OP_VSUB4 || op == WS_OP_VAVRG4 || op == WS_OP_VABSDIFF4 || op == WS_OP_VMIN4
             || op == WS_OP_VMAX4;
    case OPS_TEXTURE: return op == WS_OP_TEX || op == WS_OP_SULD || op == WS_OP_SUST;
    case OPS_SURFACE: return op == WS_OP_SULD || op == WS_OP_SUST;
    case OPS_COMPARE: return op == WS_OP_SETP || op == WS_OP_SET;
    case OPS_ATOMIC: return op == WS_OP_ATOM || op == WS_OP_RED || op == WS_OP_REDUX;
    case OPS_BARRIER: return op == WS_OP_BAR || op == WS_OP_BARRIER;
    case OPS_CACHED: return op == WS_OP_LD || op == WS_OP_ST || op == WS_OP_LDU || op == WS_OP_PREFETCH;
    default: return ops == (guint) op;
    }
}

/* Applies RULE to IN for the K-th of its words; FALSE when it does not
 * hold here (a refinement without what it refines). */
static gboolean
apply_rule (WsPtxInst *in, const ModRule *rule, int k)
{
  uint32_t v = rule->value + (uint32_t) k;
  switch ((ModEffect) rule->effect)
    {
    case MOD_SUB:
      if (rule->after != 0 && in->sub != rule->after)
        return FALSE;
      in->sub = (uint8_t) v;
      break;
    case MOD_SUB_FIRST:
      if (in->sub == WS_SUB_NONE)
        in->sub = (uint8_t) v;
      break;
    case MOD_FLAG: in->mods |= rule->value; break;
    case MOD_SCOPE: in->scope = (uint8_t) v; break;
    case MOD_CACHE: in->cache_op = (uint8_t) v; break;
    case MOD_ROUND: in->rnd = (uint8_t) v; break;
    case MOD_CMP: in->cmp = (uint8_t) v; break;
    case MOD_BOOL: in->boolop = (uint8_t) v; break;
    case MOD_IMM2: in->imm2 = v; break;
    case MOD_ACCEPT: break;
    }
  return TRUE;
}

/* A type of the instruction: the first, second (and for a video
 * instruction third, in imm2) type names. */
static gboolean
apply_type (WsPtxInst *in, WsPtxType ty, gboolean video4)
{
  if (video4 && ty != WS_T_U32 && ty != WS_T_S32)
    return FALSE;
  if (in->type == WS_T_NONE)
    in->type = ty;
  else if (in->type2 == WS_T_NONE)
    in->type2 = ty;
  else if (video4 && in->imm2 == 0)
    in->imm2 = ty; /* vop4.dtype.atype.btype */
  else
    return FALSE;
  return TRUE;
}

/* The state space of a memory access. */
static WsPtxSpace
space_from_name (const char *s, guint len, WsPtxOp op)
{
  if (part_is (s, len, "global"))
    return WS_SPACE_GLOBAL;
  if (part_is (s, len, "shared") || part_is (s, len, "shared::cta"))
    return WS_SPACE_SHARED;
  if (part_is (s, len, "shared::cluster") && op == WS_OP_MAPA)
    return WS_SPACE_SHARED; /* other ops on a cluster's shared memory are not emulated */
  if (part_is (s, len, "local"))
    return WS_SPACE_LOCAL;
  if (part_is (s, len, "const"))
    return WS_SPACE_CONST;
  if (part_is (s, len, "param") || part_is (s, len, "param::entry") || part_is (s, len, "param::func"))
    return WS_SPACE_PARAM;
  return WS_SPACE_NONE;
}

/* Applies one ".part" of the opcode; returns FALSE when it is not valid for
 * this opcode (caller reports it). */
static gboolean
apply_modifier (WsPtxInst *in, const char *s, guint len, gboolean *space_seen)
{
  WsPtxOp op = in->op;

  /* fence.proxy.KIND: proxy kinds have no effect in a functional emulator */
  if (op == WS_OP_FENCE && (in->mods & WS_MOD_PROXY))
    return TRUE;
  WsPtxType ty = ws_ptx_type_from_name (s, len);
  if (op == WS_OP_CVT && ty == WS_T_NONE && part_is (s, len, "tf32") && in->type == WS_T_NONE)
    {
      in->type = WS_T_B32;
      in->sub = WS_SUB_CVT_TF32;
      return TRUE;
    }
  if (ty != WS_T_NONE)
    return apply_type (in, ty, rule_covers (OPS_VIDEO4, op));
  if (part_is (s, len, "v2") || part_is (s, len, "v4") || part_is (s, len, "v8"))
    {
      in->vec = (uint8_t) (s[1] - '0');
      return TRUE;
    }
  WsPtxSpace sp = space_from_name (s, len, op);
  if (sp != WS_SPACE_NONE)
    {
      if (*space_seen)
        return op == WS_OP_CP_ASYNC; /* cp.async.ca.shared.global: dst then src space */
      *space_seen = TRUE;
      in->space = (uint8_t) sp;
      return TRUE;
    }
  /* the opcode's own rules (every one that names the word: bar.sync both
   * marks the instruction sync and gives its kind), then those of every
   * opcode */
  for (int pass = 0; pass < 2; pass++)
    {
      gboolean matched = FALSE;
      for (guint i = 0; i < G_N_ELEMENTS (modifier_rules); i++)
        {
          const ModRule *rule = &modifier_rules[i];
          if ((pass == 0) == (rule->ops == OPS_ANY) || !rule_covers (rule->ops, op))
            continue;
          int k = part_in (s, len, rule->words);
          if (k < 0)
            continue;
          if (!apply_rule (in, rule, k))
            return FALSE;
          matched = TRUE;
        }
      if (matched)
        return TRUE;
    }
  return FALSE;
}

/* wmma's modifiers: .load.{a,b,c} / .store.d / .mma, .sync, .aligned,
 * layouts, shape, state space, element types, .rnd, .satfinite.  They
 * are collected here and checked by wmma_finish once all are read. */
typedef struct {
  int mat; /* load/store: WsPtxWmmaMatrix, -1 before the letter */
  guint n_layouts, n_types;
  gboolean col[2]; /* layouts in order (mma: a, b) */
  WsPtxWmmaShape shape;
  WsPtxWmmaElem types[4]; /* in order */
} WmmaParse;

static gboolean
wmma_modifier (WmmaParse *w, WsPtxInst *in, const char *s, guint len, gboolean *space_seen)
{
  static const char *const shapes[] = { "m16n16k16", "m32n8k16", "m8n32k16", "m16n16k8", "m8n8k4", NULL };
  static const char *const elems[] = { "f16", "bf16", "tf32", "f32", "f64", "s8", "u8", "s32", NULL };
  static const char *const rnd[] = { "rn", "rz", "rm", "rp", NULL };
  int k;
  if (in->sub == WS_SUB_NONE)
    {
      if (part_is (s, len, "load"))
        in->sub = WS_SUB_WMMA_LOAD;
      else if (part_is (s, len, "store"))
        in->sub = WS_SUB_WMMA_STORE;
      else if (part_is (s, len, "mma"))
        in->sub = WS_SUB_WMMA_MMA;
      else
        return FALSE;
      return TRUE;
    }
  if (in->sub != WS_SUB_WMMA_MMA && w->mat < 0)
    {
      /* the matrix letter comes right after load/store */
      if (len != 1 || (in->sub == WS_SUB_WMMA_LOAD ? (s[0] < 'a' || s[0] > 'c') : s[0] != 'd'))
        return FALSE;
      w->mat = s[0] - 'a';
      return TRUE;
    }
  if (part_is (s, len, "sync"))
    in->mods |= WS_MOD_SYNC;
  else if (part_is (s, len, "aligned"))
    in->mods |= WS_MOD_ALIGNED;
  else if ((part_is (s, len, "row") || part_is (s, len, "col"))
           && w->n_layouts < (in->sub == WS_SUB_WMMA_MMA ? 2u : 1u))
    w->col[w->n_layouts++] = s[0] == 'c';
  else if ((k = part_in (s, len, shapes)) >= 0 && w->shape == WS_WMMA_SHAPE_NONE)
    w->shape = (WsPtxWmmaShape) (WS_WMMA_M16N16K16 + k);
  else if ((k = part_in (s, len, elems)) >= 0 && w->n_types < 4)
    w->types[w->n_types++] = (WsPtxWmmaElem) (WS_WMMA_ELEM_F16 + k);
  else if (in->sub != WS_SUB_WMMA_MMA && !*space_seen
           && (part_is (s, len, "global") || part_is (s, len, "shared") || part_is (s, len, "shared::cta")))
    {
      *space_seen = TRUE;
      in->space = s[1] == 'l' ? WS_SPACE_GLOBAL : WS_SPACE_SHARED;
    }
  else if (in->sub == WS_SUB_WMMA_MMA && (k = part_in (s, len, rnd)) >= 0)
    in->rnd = (uint8_t) (WS_RND_RN + k);
  else if (in->sub == WS_SUB_WMMA_MMA && part_is (s, len, "satfinite"))
    in->mods |= WS_MOD_SATFINITE;
  else
    return FALSE;
  return TRUE;
}

/* Builds the descriptor (imm2) of a wmma instruction from its modifiers;
 * NULL when it is complete and implemented, otherwise why not ("unsupported"
 * set when the instruction is valid PTX the emulator does not implement). */
static const char *
wmma_finish (const WmmaParse *w, WsPtxInst *in, gboolean *unsupported)
{
  *unsupported = FALSE;
  if (in->sub == WS_SUB_NONE)
    return "wmma needs .load, .store or .mma";
  if (!(in->mods & WS_MOD_SYNC) || !(in->mods & WS_MOD_ALIGNED))
    return "wmma needs .sync.aligned";
  if (w->shape == WS_WMMA_SHAPE_NONE)
    return "wmma needs a shape (.m16n16k16, ...)";
  uint32_t desc = (uint32_t) w->shape;
  if (in->sub == WS_SUB_WMMA_MMA)
    {
      if (w->n_layouts != 2)
        return "wmma.mma needs the layouts of A and B (.row/.col twice)";
      WsPtxWmmaElem d, a, b, c;
      if (w->n_types == 2)
        d = w->types[0], a = b = WS_WMMA_ELEM_F16, c = w->types[1]; /* .dtype.ctype: f16 A and B */
      else if (w->n_types == 4)
        d = w->types[0], a = w->types[1], b = w->types[2], c = w->types[3];
      else
        return "wmma.mma needs .dtype.ctype or .dtype.atype.btype.ctype";
      desc |= (uint32_t) w->col[0] << (6 + WS_WMMA_A) | (uint32_t) w->col[1] << (6 + WS_WMMA_B);
      desc |= (uint32_t) a << (12 + 4 * WS_WMMA_A) | (uint32_t) b << (12 + 4 * WS_WMMA_B)
              | (uint32_t) c << (12 + 4 * WS_WMMA_C) | (uint32_t) d << (12 + 4 * WS_WMMA_D);
      WsPtxWmmaFragment f;
      for (int mat = WS_WMMA_A; mat <= WS_WMMA_D; mat++)
        if (!ws_ptx_wmma_fragment (desc, (WsPtxWmmaMatrix) mat, &f))
          {
            *unsupported = TRUE;
            return "this combination of shape and element types";
          }
      gboolean ints = a == WS_WMMA_ELEM_S8 || a == WS_WMMA_ELEM_U8;
      gboolean ab_ok = ints ? (b == WS_WMMA_ELEM_S8 || b == WS_WMMA_ELEM_U8) : a == b;
      gboolean cd_ok = ints                    ? c == WS_WMMA_ELEM_S32 && d == WS_WMMA_ELEM_S32
                       : a == WS_WMMA_ELEM_F16 ? c != WS_WMMA_ELEM_S32 && d != WS_WMMA_ELEM_S32
                                               : c == d;
      if (!ab_ok || !cd_ok)
        {
          *unsupported = TRUE;
          return "this combination of element types";
        }
      if (in->rnd != WS_RND_NONE && in->rnd != WS_RND_RN)
        {
          *unsupported = TRUE;
          return "a rounding mode other than .rn";
        }
      if (in->rnd != WS_RND_NONE && a != WS_WMMA_ELEM_F64)
        return "a rounding mode is for .f64 wmma.mma only";
      if ((in->mods & WS_MOD_SATFINITE) && !ints)
        {
          *unsupported = TRUE;
          return ".satfinite on floating-point wmma.mma";
        }
    }
  else
    {
      if (w->mat < 0)
        return in->sub == WS_SUB_WMMA_LOAD ? "wmma.load needs .a, .b or .c" : "wmma.store needs .d";
      if (w->n_layouts != 1 || w->n_types != 1)
        return "wmma.load/store needs one layout (.row/.col) and one element type";
      desc |= (uint32_t) w->mat << 4 | (uint32_t) w->col[0] << (6 + w->mat)
              | (uint32_t) w->types[0] << (12 + 4 * w->mat);
      WsPtxWmmaFragment f;
      if (!ws_ptx_wmma_fragment (desc, (WsPtxWmmaMatrix) w->mat, &f))
        {
          *unsupported = TRUE;
          return "this combination of shape and element type";
        }
    }
  in->imm2 = desc;
  return NULL;
}

/* The operands of a wmma instruction: fragments are vectors of exactly as
 * many registers as the shape and type need. */
static const char *
wmma_check_operands (const WsPtxInst *in, char *buf, gsize n)
{
  static const char letters[] = "abcd";
  const WsPtxOperand *frag[4] = { NULL, NULL, NULL, NULL };
  int mats[4];
  guint nf = 0;
  if (in->sub == WS_SUB_WMMA_MMA)
    {
      if (in->ndst != 1 || in->nsrc != 3)
        return "wmma.mma needs d, a, b, c";
      frag[0] = &in->dst[0], mats[0] = WS_WMMA_D;
      for (guint i = 0; i < 3; i++)
        frag[1 + i] = &in->src[i], mats[1 + i] = WS_WMMA_A + (int) i;
      nf = 4;
    }
  else if (in->sub == WS_SUB_WMMA_LOAD)
    {
      if (in->ndst != 1 || in->nsrc < 1 || in->nsrc > 2 || in->src[0].kind != WS_OPND_ADDR)
        return "wmma.load needs a fragment, an address [..] and an optional stride";
      frag[0] = &in->dst[0], mats[0] = WS_PTX_WMMA_MATRIX (in->imm2);
      nf = 1;
    }
  else
    {
      if (in->nsrc < 2 || in->nsrc > 3 || in->src[0].kind != WS_OPND_ADDR)
        return "wmma.store needs an address [..], a fragment and an optional stride";
      frag[0] = &in->src[1], mats[0] = WS_WMMA_D;
      nf = 1;
    }
  guint stride = in->sub == WS_SUB_WMMA_LOAD ? 1 : 2;
  if (in->sub != WS_SUB_WMMA_MMA && in->nsrc > stride && in->src[stride].kind != WS_OPND_REG
      && in->src[stride].kind != WS_OPND_IMM)
    return "the stride of wmma.load/store must be a register or an immediate";
  for (guint i = 0; i < nf; i++)
    {
      WsPtxWmmaFragment f;
      ws_ptx_wmma_fragment (in->imm2, (WsPtxWmmaMatrix) mats[i], &f);
      if (frag[i]->kind != WS_OPND_VEC || frag[i]->count != f.regs)
        {
          g_snprintf (buf, n, "fragment %c needs a vector of %u registers here", letters[mats[i]], f.regs);
          return buf;
        }
    }
  return NULL;
}

static gboolean
op_has_dst (const WsPtxInst *in)
{
  switch (in->op)
    {
    case WS_OP_ST:
    case WS_OP_RED:
    case WS_OP_MEMBAR:
    case WS_OP_FENCE:
    case WS_OP_BRA:
    case WS_OP_BRX:
    case WS_OP_CALL:
    case WS_OP_RET:
    case WS_OP_EXIT:
    case WS_OP_TRAP:
    case WS_OP_BRKPT:
    case WS_OP_PREFETCH:
    case WS_OP_NANOSLEEP:
    case WS_OP_PMEVENT:
    case WS_OP_CP_ASYNC:
    case WS_OP_SUST:
    case WS_OP_GRIDDEPCONTROL: return FALSE;
    case WS_OP_BAR:
    case WS_OP_BARRIER: return in->sub == WS_SUB_RED_POPC || in->sub == WS_SUB_RED_AND || in->sub == WS_SUB_RED_OR;
    case WS_OP_WMMA: return in->sub != WS_SUB_WMMA_STORE;
    case WS_OP_MBARRIER: return in->sub != WS_SUB_MBAR_INIT && in->sub != WS_SUB_MBAR_INVAL;
    default: return TRUE;
    }
}

static void
add_fixup (P *p, FixKind kind, uint32_t a, uint32_t b, const WsPtxTok *t)
{
  Fixup f = { kind, a, b, t->s, t->len, t->line, t->col };
  g_array_append_val (p->fixups, f);
}

/* Resolves a name operand (register, predicate, symbol, function). */
static gboolean
resolve_name (P *p, const WsPtxTok *t, WsPtxOperand *o, gboolean want_label, uint32_t inst_idx, uint32_t src_idx)
{
  guint kind, idx;
  if (t->len == 1 && t->s[0] == '_')
    {
      o->kind = WS_OPND_SINK;
      o->reg = WS_REG_SINK;
      return TRUE;
    }
  if (want_label)
    {
      guint v = name_lookup (p->labels, t->s, t->len);
      o->kind = WS_OPND_LABEL;
      if (v)
        o->target = v - 1;
      else
        add_fixup (p, FIX_OPERAND, inst_idx, src_idx, t);
      return TRUE;
    }
  /* registers first: they are far more common than special registers */
  if (lookup_scoped (p, t->s, t->len, &kind, &idx))
    {
      if (kind == ENT_REG)
        {
          o->kind = WS_OPND_REG;
          o->reg = idx;
        }
      else if (kind == ENT_PRED)
        {
          o->kind = WS_OPND_PRED;
          o->reg = idx;
        }
      else
        {
          o->kind = WS_OPND_SYMBOL;
          o->symbol = idx;
        }
      return TRUE;
    }
  if (t->s[0] == '%')
    {
      uint32_t sreg;
      uint8_t comp;
      gboolean known;
      if (lookup_sreg (t, &sreg, &comp, &known))
        {
          o->kind = WS_OPND_SPECIAL;
          o->sreg = sreg;
          o->comp = comp;
          return TRUE;
        }
      if (known)
        {
          g_autofree char *d = ws_ptx_tok_describe (t);
          return fail_at (p, t, "malformed special register %s", d);
        }
    }
  guint v = name_lookup (p->gsyms, t->s, t->len);
  if (v)
    {
      o->kind = WS_OPND_SYMBOL;
      o->symbol = v - 1;
      return TRUE;
    }
  v = name_lookup (p->fnames, t->s, t->len);
  if (v)
    {
      o->kind = WS_OPND_FUNC;
      o->symbol = v - 1;
      return TRUE;
    }
  g_autofree char *d = ws_ptx_tok_describe (t);
  if (t->s[0] == '%')
    {
      uint32_t sreg;
      uint8_t comp;
      gboolean known;
      lookup_sreg (t, &sreg, &comp, &known);
      if (!known
          && (g_str_has_prefix (t->s, "%globaltimer_") || g_str_has_prefix (t->s, "%clock_hi")
              || g_str_has_prefix (t->s, "%aggr_smem_size") || g_str_has_prefix (t->s, "%reserved_smem")
              || g_str_has_prefix (t->s, "%is_explicit_cluster") || g_str_has_prefix (t->s, "%cluster_ctarank")
              || g_str_has_prefix (t->s, "%cluster_nctarank") || g_str_has_prefix (t->s, "%current_graph_exec")))
        return unsupported_at (p, t, "special register %s", d);
    }
  return fail_at (p, t, "%s is not declared", d);
}

/* Parses one operand at the cursor.  @pre collects synthesised moves for
 * immediates inside vector operands. */
static gboolean
parse_operand (P *p, WsPtxInst *in, WsPtxOperand *o, gboolean is_dst, gboolean want_label, uint32_t inst_idx,
               uint32_t src_idx, GArray *pre)
{
  const WsPtxTok *t = peek (p);
  memset (o, 0, sizeof *o);
  if (is_punct (t, '{'))
    {
      next (p);
      o->kind = WS_OPND_VEC;
      guint pre_start = pre->len;
      for (;;)
        {
          const WsPtxTok *e = peek (p);
          if (o->count >= (in->op == WS_OP_WMMA ? WS_PTX_MAX_VEC : 4))
            return unsupported_at (p, e, "vector operands with more than %d elements",
                                   in->op == WS_OP_WMMA ? WS_PTX_MAX_VEC : 4);
          gboolean neg = FALSE;
          if (is_punct (e, '-'))
            {
              neg = TRUE;
              next (p);
              e = peek (p);
            }
          if (e->kind == WS_TK_INT || e->kind == WS_TK_F32 || e->kind == WS_TK_F64 || e->kind == WS_TK_FLOAT)
            {
              /* an immediate element: materialise it in a hidden register
               * with a mov placed before this instruction */
              if (is_dst)
                return fail_at (p, e, "an immediate cannot be a destination");
              next (p);
              int lk = e->kind == WS_TK_INT ? 0 : e->kind == WS_TK_FLOAT ? 1 : e->kind == WS_TK_F32 ? 2 : 3;
              uint64_t raw = e->u;
              if (neg)
                raw = lk == 0 ? UINT64_C (0) - raw : lk == 2 ? raw ^ 0x80000000u : raw ^ (UINT64_C (1) << 63);
              /* the element type is known once the vector is complete;
               * keep the literal raw until then */
              WsPtxType et = in->type != WS_T_NONE ? in->type : WS_T_B32;
              if (et == WS_T_PRED)
                return fail_at (p, e, "predicate vectors cannot hold immediates");
              WsPtxInst mv = { 0 };
              mv.op = WS_OP_MOV;
              mv.type = (uint8_t) et;
              mv.vec = 1;
              mv.guard = WS_REG_SINK;
              mv.ndst = 1;
              mv.nsrc = 1;
              mv.dst[0].kind = WS_OPND_REG;
              mv.dst[0].reg = new_reg (p, et, g_strdup_printf ("%%__imm%u", p->imm_regs++));
              mv.src[0].kind = WS_OPND_IMM;
              mv.src[0].imm = raw;
              mv.src[0].comp = (uint8_t) lk;
              mv.line = e->line;
              mv.column = e->col;
              g_array_append_val (pre, mv);
              o->vec_regs[o->count++] = mv.dst[0].reg;
            }
          else if (e->kind == WS_TK_IDENT && !neg)
            {
              next (p);
              WsPtxOperand r = { 0 };
              if (!resolve_name (p, e, &r, FALSE, 0, 0))
                return FALSE;
              if (r.kind == WS_OPND_SINK)
                o->vec_regs[o->count++] = WS_REG_SINK;
              else if (r.kind == WS_OPND_REG)
                o->vec_regs[o->count++] = r.reg;
              else
                {
                  g_autofree char *d = ws_ptx_tok_describe (e);
                  return fail_at (p, e, "vector elements must be registers, found %s", d);
                }
            }
          else
            {
              g_autofree char *d = ws_ptx_tok_describe (e);
              return fail_at (p, e, "expected a register in the vector operand, found %s", d);
            }
          const WsPtxTok *s = peek (p);
          if (is_punct (s, ','))
            {
              next (p);
              continue;
            }
          if (is_punct (s, '}'))
            {
              next (p);
              /* mov.b64 %rd, {a, b}: elements are half (or a quarter) as wide */
              WsPtxType et = in->type != WS_T_NONE ? in->type : WS_T_B32;
              if (in->op == WS_OP_MOV)
                {
                  int es = ws_ptx_type_size (in->type) / MAX (o->count, 1);
                  et = es >= 4 ? WS_T_B32 : es == 2 ? WS_T_B16 : WS_T_B8;
                }
              for (guint k = pre_start; k < pre->len; k++)
                {
                  WsPtxInst *mv = &g_array_index (pre, WsPtxInst, k);
                  uint64_t bits;
                  if (!ws_ptx_convert_literal (mv->src[0].comp, mv->src[0].imm, et, &bits))
                    return fail_at (p, s, "floating-point literal in an integer vector operand");
                  mv->type = (uint8_t) et;
                  mv->src[0].imm = bits;
                  mv->src[0].comp = 0;
                  g_array_index (p->reg_types, uint8_t, mv->dst[0].reg) = (uint8_t) et;
                }
              return TRUE;
            }
          g_autofree char *d = ws_ptx_tok_describe (s);
          return fail_at (p, s, "expected ',' or '}' in the vector operand, found %s", d);
        }
    }
  if (is_punct (t, '['))
    {
      next (p);
      o->kind = WS_OPND_ADDR;
      o->comp = WS_OPND_NONE;
      const WsPtxTok *b = peek (p);
      if (b->kind == WS_TK_IDENT)
        {
          next (p);
          WsPtxOperand r = { 0 };
          if (!resolve_name (p, b, &r, FALSE, 0, 0))
            return FALSE;
          if (r.kind == WS_OPND_REG)
            {
              o->comp = WS_OPND_REG;
              o->reg = r.reg;
            }
          else if (r.kind == WS_OPND_SYMBOL)
            {
              o->comp = WS_OPND_SYMBOL;
              o->symbol = r.symbol;
            }
          else
            {
              g_autofree char *d = ws_ptx_tok_describe (b);
              return fail_at (p, b, "an address must be a register or a variable, found %s", d);
            }
          const WsPtxTok *s = peek (p);
          if (is_punct (s, '+') || is_punct (s, '-'))
            {
              gboolean neg = is_punct (s, '-');
              next (p);
              if (is_punct (peek (p), '-'))
                {
                  neg = !neg;
                  next (p);
                }
              uint64_t v;
              if (!expect_uint (p, &v, "an address offset"))
                return FALSE;
              o->offset = (int64_t) (neg ? UINT64_C (0) - v : v);
            }
        }
      else if (b->kind == WS_TK_INT)
        {
          next (p);
          o->offset = (int64_t) b->u;
        }
      else
        {
          g_autofree char *d = ws_ptx_tok_describe (b);
          return fail_at (p, b, "expected an address inside '[ ]', found %s", d);
        }
      return expect_punct (p, ']', "closing the address");
    }
  gboolean neg = FALSE, bang = FALSE;
  if (is_punct (t, '!'))
    {
      bang = TRUE;
      next (p);
      t = peek (p);
    }
  else if (is_punct (t, '-'))
    {
      neg = TRUE;
      next (p);
      t = peek (p);
    }
  if (t->kind == WS_TK_INT || t->kind == WS_TK_F32 || t->kind == WS_TK_F64 || t->kind == WS_TK_FLOAT)
    {
      if (bang)
        return fail_at (p, t, "'!' applies to predicates only");
      if (is_dst)
        return fail_at (p, t, "an immediate cannot be a destination");
      next (p);
      o->kind = WS_OPND_IMM;
      o->comp = t->kind == WS_TK_INT ? 0 : t->kind == WS_TK_FLOAT ? 1 : t->kind == WS_TK_F32 ? 2 : 3;
      o->imm = t->u;
      if (neg)
        {
          if (o->comp == 0)
            o->imm = UINT64_C (0) - o->imm;
          else if (o->comp == 2)
            o->imm ^= 0x80000000u;
          else
            o->imm ^= UINT64_C (1) << 63;
        }
      return TRUE;
    }
  /* WARP_SZ: PTX's predefined constant, the warp size (an immediate unless
   * the program declares a name of its own). */
  guint wk, wi;
  if (t->kind == WS_TK_IDENT && t->len == 7 && memcmp (t->s, "WARP_SZ", 7) == 0 && !bang && !is_dst
      && !name_lookup (p->gsyms, t->s, t->len) && !lookup_scoped (p, t->s, t->len, &wk, &wi))
    {
      next (p);
      o->kind = WS_OPND_IMM;
      o->comp = 0;
      o->imm = neg ? UINT64_C (0) - 32u : 32u;
      return TRUE;
    }
  if (t->kind != WS_TK_IDENT || neg)
    {
      g_autofree char *d = ws_ptx_tok_describe (t);
      return fail_at (p, t, "expected an operand, found %s", d);
    }
  next (p);
  if (!resolve_name (p, t, o, want_label, inst_idx, src_idx))
    return FALSE;
  if (bang)
    {
      if (o->kind != WS_OPND_PRED)
        return fail_at (p, t, "'!' applies to predicates only");
      o->neg = 1;
    }
  if ((o->kind == WS_OPND_SYMBOL || o->kind == WS_OPND_FUNC) && is_punct (peek (p), '+'))
    {
      next (p);
      uint64_t v;
      if (!expect_uint (p, &v, "an offset after '+'"))
        return FALSE;
      o->offset = (int64_t) v;
    }
  return TRUE;
}

static guint
add_call (P *p, WsPtxCall *c)
{
  g_array_append_vals (p->calls, c, 1);
  return p->calls->len - 1;
}

/* call[.uni] [(rets),] target [, (args)] [, prototype]; */
static gboolean
parse_call_full (P *p, WsPtxInst *in, const WsPtxTok *op_tok)
{
  WsPtxCall c = { 0 };
  c.callee = G_MAXUINT32;
  c.callee_reg = WS_REG_SINK;
  g_autoptr (GArray) rets = g_array_new (FALSE, FALSE, sizeof (uint32_t));
  g_autoptr (GArray) args = g_array_new (FALSE, FALSE, sizeof (uint32_t));

  /* one parameter list */
  gboolean (*list) (P *, GArray *) = NULL;
  (void) list;
/* clang-format off */
#define PARSE_PARAM_LIST(arr)                                                                     \
  do {                                                                                            \
    next (p); /* '(' */                                                                           \
    while (!is_punct (peek (p), ')'))                                                             \
      {                                                                                           \
        const WsPtxTok *a = peek (p);                                                                  \
        guint kind_, idx_;                                                                        \
        if (a->kind != WS_TK_IDENT)                                                                  \
          {                                                                                       \
            g_autofree char *d_ = ws_ptx_tok_describe (a);                                                   \
            return fail_at (p, a, "expected a .param variable in the call, found %s", d_);        \
          }                                                                                       \
        next (p);                                                                                 \
        if (!lookup_scoped (p, a->s, a->len, &kind_, &idx_))                                      \
          {                                                                                       \
            g_autofree char *d_ = ws_ptx_tok_describe (a);                                                   \
            return fail_at (p, a, "call argument %s is not declared", d_);                        \
          }                                                                                       \
        if (kind_ != ENT_SYM || sym_at (p, idx_)->space != WS_SPACE_FUNC_PARAM)                   \
          return unsupported_at (p, a, "passing a register instead of a .param variable in call"); \
        uint32_t i32_ = idx_;                                                                     \
        g_array_append_val (arr, i32_);                                                           \
        if (is_punct (peek (p), ','))                                                             \
          next (p);                                                                               \
        else if (!is_punct (peek (p), ')'))                                                       \
          {                                                                                       \
            g_autofree char *d_ = ws_ptx_tok_describe (peek (p));                                            \
            return fail_at (p, peek (p), "expected ',' or ')' in the call, found %s", d_);        \
          }                                                                                       \
      }                                                                                           \
    next (p); /* ')' */                                                                           \
  } while (0)
  /* clang-format on */

  if (is_punct (peek (p), '('))
    {
      PARSE_PARAM_LIST (rets);
      if (!expect_punct (p, ',', "after the call's return parameters"))
        return FALSE;
    }
  const WsPtxTok *tt;
  if (!expect_ident (p, &tt, "the called function"))
    return FALSE;
  guint fi = name_lookup (p->fnames, tt->s, tt->len);
  guint kind, idx;
  if (fi && !lookup_scoped (p, tt->s, tt->len, &kind, &idx))
    {
      c.callee = fi - 1;
      in->src[0].kind = WS_OPND_FUNC;
      in->src[0].symbol = fi - 1;
      const char *name = fn_at (p, fi - 1)->name;
      c.is_vprintf = strcmp (name, "vprintf") == 0;
      c.is_malloc = strcmp (name, "malloc") == 0;
      c.is_free = strcmp (name, "free") == 0;
    }
  else if (lookup_scoped (p, tt->s, tt->len, &kind, &idx) && kind == ENT_REG)
    {
      c.callee_reg = idx;
      in->src[0].kind = WS_OPND_REG;
      in->src[0].reg = idx;
    }
  else
    {
      g_autofree char *d = ws_ptx_tok_describe (tt);
      return fail_at (p, tt, "call target %s is not a declared function or register", d);
    }
  in->nsrc = 1;
  if (is_punct (peek (p), ',') && is_punct (peek_at (p, 1), '('))
    {
      next (p);
      PARSE_PARAM_LIST (args);
    }
  if (is_punct (peek (p), ','))
    {
      /* prototype (indirect call) or target list: names only */
      next (p);
      const WsPtxTok *proto;
      if (!expect_ident (p, &proto, "a call prototype"))
        return FALSE;
    }
#undef PARSE_PARAM_LIST
  if (c.callee != G_MAXUINT32)
    {
      const WsPtxFunction *f = fn_at (p, c.callee);
      if (f->n_params != args->len || f->n_rets != rets->len)
        return fail_at (p, op_tok, "call to '%s' passes %u argument(s) and %u return value(s); it takes %u and %u",
                        f->name, args->len, rets->len, f->n_params, f->n_rets);
    }
  c.n_rets = rets->len;
  c.n_args = args->len;
  c.rets = (uint32_t *) g_array_free (g_steal_pointer (&rets), FALSE);
  c.args = (uint32_t *) g_array_free (g_steal_pointer (&args), FALSE);
  in->call = add_call (p, &c);
  return TRUE;
}

static WsOpClass
classify (const WsPtxInst *in)
{
  return ws_ptx_op_class (in);
}

/* How parsing an instruction went: a valid instruction the emulator does
 * not implement is left out (recorded in the function's `unsupported`) and
 * the statement skipped; fail_at's FALSE is INST_FAILED. */
typedef enum { INST_FAILED = 0, INST_PARSED, INST_LEFT_OUT } InstStep;

/* unsupported_inst's answer (TRUE: the statement was skipped) as a step */
static inline InstStep
left_out (gboolean skipped)
{
  return skipped ? INST_LEFT_OUT : INST_FAILED;
}

/* The guard "@p" / "@!p" of an instruction, if it has one. */
static gboolean
parse_guard (P *p, WsPtxInst *in)
{
  if (is_punct (peek (p), '@'))
    {
      next (p);
      if (is_punct (peek (p), '!'))
        {
          next (p);
          in->guard_neg = 1;
        }
      const WsPtxTok *g;
      if (!expect_ident (p, &g, "a predicate after '@'"))
        return FALSE;
      guint kind, idx;
      if (!lookup_scoped (p, g->s, g->len, &kind, &idx) || kind != ENT_PRED)
        {
          g_autofree char *d = ws_ptx_tok_describe (g);
          return fail_at (p, g, "guard %s is not a declared predicate register", d);
        }
      in->guard = idx;
    }
  return TRUE;
}

/* The opcode and its modifiers ("ld.global.nc.v2.u32"), checked for what
 * the opcode needs; *OT_OUT is the token (for messages). */
static InstStep
parse_mnemonic (P *p, WsPtxInst *in, const WsPtxTok **ot_out, gboolean *space_seen)
{
  const WsPtxTok *ot;
  if (!expect_ident (p, &ot, "an instruction"))
    return INST_FAILED;
  *ot_out = ot;
  /* split mnemonic and modifiers */
  const char *s = ot->s, *end = ot->s + ot->len;
  const char *dot = memchr (s, '.', ot->len);
  guint mlen = dot ? (guint) (dot - s) : ot->len;
  int op = lookup_op (s, mlen);
  if (op < 0 && mlen == 2 && memcmp (s, "cp", 2) == 0 && end - s >= 8 && memcmp (s, "cp.async", 8) == 0
      && (end - s == 8 || s[8] == '.'))
    {
      op = WS_OP_CP_ASYNC;
      mlen = 8;
      if (end - s > 9 && (g_str_has_prefix (s + 9, "bulk") || g_str_has_prefix (s + 9, "mbarrier")))
        op = -1;
    }
  if (op < 0 || ot->s[0] == '.')
    {
      g_autofree char *d = ws_ptx_tok_describe (ot);
      if (is_known_unsupported (s, mlen) || is_known_unsupported (s, ot->len))
        return left_out (unsupported_inst (p, ot, "instruction %s", d));
      if (ot->s[0] == '.')
        return unsupported_at (p, ot, "directive %s", d);
      return fail_at (p, ot, "unknown instruction %s", d);
    }
  in->op = (uint16_t) op;
  WmmaParse wmma = { .mat = -1 };
  const char *q = s + mlen;
  while (q < end)
    {
      q++; /* '.' */
      const char *e = q;
      while (e < end && *e != '.')
        e++;
      if (e == q
          || !(in->op == WS_OP_WMMA ? wmma_modifier (&wmma, in, q, (guint) (e - q), space_seen)
                                    : apply_modifier (in, q, (guint) (e - q), space_seen)))
        {
          g_autofree char *d = ws_ptx_tok_describe (ot);
          if (e == q)
            return fail_at (p, ot, "empty modifier in %s", d);
          return left_out (unsupported_inst (p, ot, "modifier '.%.*s' in instruction %s", (int) (e - q), q, d));
        }
      q = e;
    }
  if ((in->op == WS_OP_LD || in->op == WS_OP_ST || in->op == WS_OP_LDU) && !*space_seen)
    in->space = WS_SPACE_GENERIC;
  if (in->op == WS_OP_ATOM || in->op == WS_OP_RED)
    {
      if (!*space_seen)
        in->space = WS_SPACE_GENERIC;
      if (in->sub == WS_SUB_NONE)
        return fail_at (p, ot, "%s needs an operation (.add, .cas, ...)", op_names[in->op]);
    }
  if (in->op == WS_OP_SETP && in->cmp == WS_CMP_NONE)
    return fail_at (p, ot, "setp needs a comparison (.eq, .lt, ...)");
  if (in->op == WS_OP_WMMA)
    {
      gboolean unsupported;
      const char *why = wmma_finish (&wmma, in, &unsupported);
      g_autofree char *d = ws_ptx_tok_describe (ot);
      if (why && unsupported)
        return left_out (unsupported_inst (p, ot, "instruction %s (%s)", d, why));
      if (why)
        return fail_at (p, ot, "%s: %s", d, why);
      if (!*space_seen)
        in->space = WS_SPACE_GENERIC;
    }
  return INST_PARSED;
}

/* The operands up to and including the ';' (INST_IDX: the instruction's
 * index, PRE: the moves an operand needs before it). */
static gboolean
parse_operands (P *p, WsPtxInst *in, const WsPtxTok *ot, guint inst_idx, GArray *pre)
{
  if (in->op == WS_OP_CALL)
    {
      if (!parse_call_full (p, in, ot))
        return FALSE;
    }
  else if (!is_punct (peek (p), ';'))
    {
      gboolean dst = op_has_dst (in);
      guint n = 0;
      for (;;)
        {
          const WsPtxTok *at = peek (p);
          if (dst && n == 0)
            {
              if (!parse_operand (p, in, &in->dst[0], TRUE, FALSE, inst_idx, 0, pre))
                return FALSE;
              in->ndst = 1;
              if (is_punct (peek (p), '|'))
                {
                  next (p);
                  if (!parse_operand (p, in, &in->dst[1], TRUE, FALSE, inst_idx, 0, pre))
                    return FALSE;
                  in->ndst = 2;
                }
            }
          else
            {
              if (in->nsrc >= WS_PTX_MAX_SRC)
                return unsupported_at (p, at, "an instruction with more than %d source operands", WS_PTX_MAX_SRC);
              if (in->op == WS_OP_BRX && in->nsrc == 1)
                {
                  /* brx.idx index, table: the table is a .branchtargets label */
                  const WsPtxTok *nt = next (p);
                  guint tv = nt->kind == WS_TK_IDENT ? name_lookup (p->tables, nt->s, nt->len) : 0;
                  if (!tv)
                    return fail_at (p, nt, "brx.idx needs a .branchtargets label declared before it");
                  in->imm2 = tv - 1;
                  in->src[in->nsrc].kind = WS_OPND_NONE;
                }
              else if ((in->op == WS_OP_TEX || in->op == WS_OP_SULD || in->op == WS_OP_SUST) && in->nsrc == 0)
                {
                  /* [handle, {coordinates}]: two sources */
                  if (!expect_punct (p, '[', "opening the texture or surface operand")
                      || !parse_operand (p, in, &in->src[0], FALSE, FALSE, inst_idx, 0, pre)
                      || !expect_punct (p, ',', "after the texture or surface handle")
                      || !parse_operand (p, in, &in->src[1], FALSE, FALSE, inst_idx, 1, pre)
                      || !expect_punct (p, ']', "closing the texture or surface operand"))
                    return FALSE;
                  in->nsrc++;
                }
              else if (!parse_operand (p, in, &in->src[in->nsrc], FALSE, in->op == WS_OP_BRA && in->nsrc == 0, inst_idx,
                                       in->nsrc, pre))
                return FALSE;
              in->nsrc++;
            }
          n++;
          const WsPtxTok *sep = peek (p);
          if (is_punct (sep, ','))
            {
              next (p);
              continue;
            }
          break;
        }
    }
  if (in->op == WS_OP_WMMA && is_punct (peek (p), ';'))
    {
      char buf[96];
      const char *why = wmma_check_operands (in, buf, sizeof buf);
      if (why)
        return fail_at (p, ot, "%s", why);
    }
  if (!is_punct (peek (p), ';'))
    {
      g_autofree char *d = ws_ptx_tok_describe (peek (p));
      return fail_at (p, peek (p), "expected ';' after the instruction, found %s", d);
    }
  next (p);
  return TRUE;
}

/* Operand shape checks the emulator relies on. */
static InstStep
check_operands (P *p, WsPtxInst *in, const WsPtxTok *ot, gboolean space_seen)
{
  if (in->op == WS_OP_BRA && (in->nsrc != 1 || in->src[0].kind != WS_OPND_LABEL))
    return fail_at (p, ot, "bra needs one label operand");
  if (in->op == WS_OP_BRX)
    {
      if (in->nsrc != 2 || in->src[0].kind != WS_OPND_REG)
        return fail_at (p, ot, "brx.idx needs an index register and a .branchtargets label");
      in->nsrc = 1;
    }
  if ((in->op == WS_OP_LD || in->op == WS_OP_LDU) && (in->nsrc < 1 || in->src[0].kind != WS_OPND_ADDR || in->ndst != 1))
    return fail_at (p, ot, "%s needs a destination and an address [..]", op_names[in->op]);
  if (in->op == WS_OP_ST && (in->nsrc < 2 || in->src[0].kind != WS_OPND_ADDR))
    return fail_at (p, ot, "st needs an address [..] and a value");
  if ((in->op == WS_OP_ATOM) && (in->ndst != 1 || in->nsrc < 2 || in->src[0].kind != WS_OPND_ADDR))
    return fail_at (p, ot, "atom needs a destination, an address [..] and a value");
  if ((in->op == WS_OP_RED) && (in->nsrc < 2 || in->src[0].kind != WS_OPND_ADDR))
    return fail_at (p, ot, "red needs an address [..] and a value");
  if (in->op == WS_OP_CP_ASYNC && in->sub == WS_SUB_NONE)
    {
      if (in->nsrc < 3 || in->src[0].kind != WS_OPND_ADDR || in->src[1].kind != WS_OPND_ADDR
          || in->src[2].kind != WS_OPND_IMM)
        return fail_at (p, ot, "cp.async needs [dst], [src], size");
      in->imm2 = (uint32_t) in->src[2].imm;
    }
  if (in->op == WS_OP_MBARRIER)
    {
      gboolean wait = in->sub == WS_SUB_MBAR_TEST_WAIT || in->sub == WS_SUB_MBAR_TRY_WAIT;
      guint want_src = in->sub == WS_SUB_MBAR_PENDING_COUNT || in->sub == WS_SUB_MBAR_INVAL ? 1 : 2;
      if (in->sub == WS_SUB_NONE)
        return fail_at (p, ot, "mbarrier needs an operation (.init, .arrive, .test_wait...)");
      if (in->sub == WS_SUB_MBAR_TRY_WAIT && in->nsrc > 2)
        return left_out (unsupported_inst (p, ot, "mbarrier.try_wait with a time limit"));
      if (in->sub == WS_SUB_MBAR_PENDING_COUNT
            ? in->nsrc != 1 || in->src[0].kind != WS_OPND_REG
            : (in->src[0].kind != WS_OPND_ADDR
               || (in->nsrc != want_src
                   && !((in->sub == WS_SUB_MBAR_ARRIVE || in->sub == WS_SUB_MBAR_ARRIVE_DROP) && in->nsrc == 1))
               || (wait && in->ndst != 1)))
        return fail_at (p, ot,
                        "%s: wrong operands (PTX ISA: mbarrier.init [a], count; mbarrier.arrive state, [a]"
                        "{, count}; mbarrier.test_wait p, [a], state; mbarrier.pending_count count, state)",
                        op_names[in->op]);
      if (!space_seen)
        in->space = WS_SPACE_GENERIC;
    }
  if (in->op == WS_OP_CP_ASYNC && in->sub == WS_SUB_WAIT_GROUP)
    {
      if (in->nsrc != 1 || in->src[0].kind != WS_OPND_IMM)
        return fail_at (p, ot, "cp.async.wait_group needs a count");
      in->imm2 = (uint32_t) in->src[0].imm;
    }
  if ((in->op == WS_OP_VADD4 || in->op == WS_OP_VSUB4 || in->op == WS_OP_VAVRG4 || in->op == WS_OP_VABSDIFF4
       || in->op == WS_OP_VMIN4 || in->op == WS_OP_VMAX4)
      && (in->imm2 == 0 || in->ndst != 1 || in->nsrc != 3))
    return fail_at (p, ot, "%s needs .dtype.atype.btype and d, a, b, c", op_names[in->op]);
  if (in->op == WS_OP_TEX || in->op == WS_OP_SULD || in->op == WS_OP_SUST)
    {
      gboolean store = in->op == WS_OP_SUST;
      if (in->sub == WS_SUB_NONE)
        return fail_at (p, ot, "%s needs a geometry (.1d, .2d, .3d, .a1d, .a2d, .cube, .acube)", op_names[in->op]);
      if ((!store && in->ndst != 1) || in->nsrc < (store ? 3u : 2u) || in->src[0].kind != WS_OPND_REG
          || in->src[1].kind != WS_OPND_VEC)
        return fail_at (p, ot, "%s needs %s[handle, {coordinates}]%s", op_names[in->op], store ? "" : "a destination, ",
                        store ? " and a value" : "");
      if (in->op == WS_OP_TEX && (in->nsrc > 3 || in->sub == WS_SUB_TEX_ACUBE))
        return left_out (unsupported_inst (p, ot, "instruction %s with an offset, depth compare or array of cube maps",
                                           op_names[in->op]));
      if (in->sub == WS_SUB_TEX_CUBE || in->sub == WS_SUB_TEX_ACUBE)
        {
          if (in->op != WS_OP_TEX)
            return left_out (unsupported_inst (p, ot, "cube map surface instruction %s", op_names[in->op]));
        }
    }
  for (guint i = 0; i < in->ndst; i++)
    if (in->dst[i].kind != WS_OPND_REG && in->dst[i].kind != WS_OPND_PRED && in->dst[i].kind != WS_OPND_VEC
        && in->dst[i].kind != WS_OPND_SINK)
      return fail_at (p, ot, "destination %u of %s is not a register", i + 1, op_names[in->op]);
  return INST_PARSED;
}

/* Parses one instruction starting at the cursor (guard or opcode). */
static gboolean
parse_instruction (P *p)
{
  WsPtxInst in = { 0 };
  in.guard = WS_REG_SINK;
  in.vec = 1;
  const WsPtxTok *first = peek (p);
  in.line = first->line;
  in.column = first->col;
  in.src_file = p->loc_file;
  in.src_line = p->loc_line;
  in.src_col = (uint8_t) MIN (p->loc_col, 255u);
  const WsPtxTok *ot = NULL;
  gboolean space_seen = FALSE;
  if (!parse_guard (p, &in))
    return FALSE;
  InstStep step = parse_mnemonic (p, &in, &ot, &space_seen);
  if (step != INST_PARSED)
    return step == INST_LEFT_OUT;
  guint inst_idx = p->insts->len;
  g_autoptr (GArray) pre = g_array_new (FALSE, FALSE, sizeof (WsPtxInst));
  if (!parse_operands (p, &in, ot, inst_idx, pre))
    return FALSE;
  step = check_operands (p, &in, ot, space_seen);
  if (step != INST_PARSED)
    return step == INST_LEFT_OUT;

  if (in.op == WS_OP_CVT && in.nsrc == 2)
    in.mods |= WS_MOD_PACKED; /* cvt.rn.f16x2.f32 d, a, b */

  /* ld.param/st.param: kernel parameter block or a function's frame */
  if (in.space == WS_SPACE_PARAM)
    {
      const WsPtxOperand *a = in.op == WS_OP_LD || in.op == WS_OP_ST ? &in.src[0] : NULL;
      if (a && a->kind == WS_OPND_ADDR && a->comp == WS_OPND_SYMBOL)
        in.space = sym_at (p, a->symbol)->space;
      else if (!fn_at (p, p->fn)->is_entry)
        in.space = WS_SPACE_FUNC_PARAM;
    }

  /* immediates to the bits of their operand type */
  for (guint i = 0; i < in.nsrc; i++)
    {
      WsPtxOperand *o = &in.src[i];
      if (o->kind != WS_OPND_IMM)
        continue;
      WsPtxType t = ws_ptx_inst_src_type (&in, i);
      uint64_t bits;
      if (!ws_ptx_convert_literal (o->comp, o->imm, t, &bits))
        return fail_at (p, ot, "floating-point literal used as the %s operand %u of %s", ws_ptx_type_name (t), i + 1,
                        op_names[in.op]);
      o->imm = bits;
      o->comp = 0;
    }
  in.opclass = (uint8_t) classify (&in);
  for (guint i = 0; i < pre->len; i++)
    {
      WsPtxInst *mv = &g_array_index (pre, WsPtxInst, i);
      mv->opclass = WS_OPCLASS_ALU;
      mv->src_file = in.src_file;
      mv->src_line = in.src_line;
      g_array_append_val (p->insts, *mv);
    }
  if (pre->len)
    {
      /* fixups recorded against inst_idx must follow the shift */
      for (guint i = 0; i < p->fixups->len; i++)
        {
          Fixup *f = &g_array_index (p->fixups, Fixup, i);
          if (f->kind == FIX_OPERAND && f->a == inst_idx)
            f->a += pre->len;
        }
    }
  g_array_append_val (p->insts, in);
  return TRUE;
}

/* ---- functions --------------------------------------------------------- */

static void
function_state_reset (P *p)
{
  g_clear_pointer (&p->insts, g_array_unref);
  g_clear_pointer (&p->calls, g_array_unref);
  g_clear_pointer (&p->reg_types, g_array_unref);
  g_clear_pointer (&p->reg_names, g_ptr_array_unref);
  g_clear_pointer (&p->pred_names, g_ptr_array_unref);
  g_clear_pointer (&p->scopes, g_ptr_array_unref);
  g_clear_pointer (&p->scope_regs, g_ptr_array_unref);
  g_clear_pointer (&p->scope_param_mark, g_array_unref);
  for (guint t = 0; t < WS_T_COUNT; t++)
    g_clear_pointer (&p->free_regs[t], g_array_unref);
  g_clear_pointer (&p->ranges, g_array_unref);
  g_clear_pointer (&p->labels, g_hash_table_unref);
  g_clear_pointer (&p->tables, g_hash_table_unref);
  g_clear_pointer (&p->table_arrays, g_ptr_array_unref);
  g_clear_pointer (&p->fixups, g_array_unref);
}

static void
free_call (gpointer data)
{
  WsPtxCall *c = data;
  g_free (c->rets);
  g_free (c->args);
}

static void
function_state_init (P *p)
{
  function_state_reset (p);
  p->insts = g_array_new (FALSE, FALSE, sizeof (WsPtxInst));
  p->calls = g_array_new (FALSE, FALSE, sizeof (WsPtxCall));
  g_array_set_clear_func (p->calls, free_call);
  p->reg_types = g_array_new (FALSE, FALSE, sizeof (uint8_t));
  p->reg_names = g_ptr_array_new_with_free_func (g_free);
  p->pred_names = g_ptr_array_new_with_free_func (g_free);
  p->scopes = g_ptr_array_new_with_free_func ((GDestroyNotify) g_hash_table_unref);
  p->scope_regs = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
  p->scope_param_mark = g_array_new (FALSE, FALSE, sizeof (uint64_t));
  p->call_param_cur = 0;
  scope_push (p);
  p->ranges = g_array_new (FALSE, FALSE, sizeof (RegRange));
  p->labels = name_table_new ();
  p->tables = name_table_new ();
  p->table_arrays = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
  p->fixups = g_array_new (FALSE, FALSE, sizeof (Fixup));
  p->loc_file = p->loc_line = p->loc_col = 0;
  p->local_bytes = p->call_param_bytes = p->call_param_cur = 0;
  p->local_align = 1;
  p->imm_regs = 0;
}

/* (.param ..., .param ...) */
static gboolean
parse_param_list (P *p, WsPtxParamRole role, GArray *out)
{
  if (!expect_punct (p, '(', "to open the parameter list"))
    return FALSE;
  if (is_punct (peek (p), ')'))
    {
      next (p);
      return TRUE;
    }
  for (;;)
    {
      const WsPtxTok *t = peek (p);
      if (tok_is (t, ".reg"))
        return unsupported_at (p, t, ".reg function parameters");
      if (!tok_is (t, ".param"))
        {
          g_autofree char *d = ws_ptx_tok_describe (t);
          return fail_at (p, t, "expected '.param' in the parameter list, found %s", d);
        }
      Linkage l = { FALSE, FALSE };
      if (!parse_var_decl (p, l, role, TRUE, out))
        return FALSE;
      const WsPtxTok *s = peek (p);
      if (is_punct (s, ','))
        {
          next (p);
          continue;
        }
      if (is_punct (s, ')'))
        {
          next (p);
          return TRUE;
        }
      g_autofree char *d = ws_ptx_tok_describe (s);
      return fail_at (p, s, "expected ',' or ')' in the parameter list, found %s", d);
    }
}

static uint64_t
assign_param_offsets (P *p, GArray *idx)
{
  uint64_t off = 0;
  for (guint i = 0; i < idx->len; i++)
    {
      WsPtxSymbol *s = sym_at (p, g_array_index (idx, uint32_t, i));
      off = align_up (off, s->align);
      s->param_offset = s->offset = off;
      off += s->size;
    }
  return off;
}

static gboolean
parse_perf_directives (P *p, WsPtxFunction *f)
{
  for (;;)
    {
      const WsPtxTok *t = peek (p);
      uint32_t *dst = NULL;
      guint maxn = 3;
      if (tok_is (t, ".maxntid"))
        dst = f->maxntid;
      else if (tok_is (t, ".reqntid"))
        dst = f->reqntid;
      else if (tok_is (t, ".minnctapersm") || tok_is (t, ".maxnctapersm"))
        {
          dst = tok_is (t, ".minnctapersm") ? &f->minnctapersm : NULL;
          maxn = 1;
        }
      else if (tok_is (t, ".maxnreg"))
        {
          dst = &f->maxnreg;
          maxn = 1;
        }
      else if (tok_is (t, ".reqnctapercluster") || tok_is (t, ".maxclusterrank") || tok_is (t, ".explicitcluster")
               || tok_is (t, ".blocksareclusters"))
        {
          maxn = 3;
        }
      else if (tok_is (t, ".noreturn"))
        {
          next (p);
          f->noreturn = TRUE;
          continue;
        }
      else if (tok_is (t, ".pragma"))
        {
          next (p);
          if (!skip_statement (p, t))
            return FALSE;
          continue;
        }
      else
        return TRUE;
      next (p);
      guint n = 0;
      uint32_t scratch[3];
      while (peek (p)->kind == WS_TK_INT)
        {
          if (n >= maxn)
            return fail_at (p, peek (p), "too many values for %.*s", (int) t->len, t->s);
          uint64_t v = next (p)->u;
          (dst ? dst : scratch)[n++] = (uint32_t) MIN (v, (uint64_t) G_MAXUINT32);
          if (is_punct (peek (p), ','))
            next (p);
          else
            break;
        }
      if (dst && maxn == 3)
        for (guint i = n; i < 3; i++)
          dst[i] = n ? 1 : 0;
    }
}

static gboolean
finish_function (P *p, WsPtxFunction *f)
{
  /* labels */
  for (guint i = 0; i < p->fixups->len; i++)
    {
      Fixup *fx = &g_array_index (p->fixups, Fixup, i);
      guint v = name_lookup (p->labels, fx->name, fx->len);
      if (!v)
        {
          WsPtxTok t = { .line = fx->line, .col = fx->col };
          return fail_at (p, &t, "label '%.*s' is not defined in function '%s'", (int) fx->len, fx->name, f->name);
        }
      if (fx->kind == FIX_OPERAND)
        g_array_index (p->insts, WsPtxInst, fx->a).src[fx->b].target = v - 1;
      else
        g_array_index ((GArray *) g_ptr_array_index (p->table_arrays, fx->a), uint32_t, fx->b) = v - 1;
    }
  f->n_insts = p->insts->len;
  f->label_names = g_new0 (char *, f->n_insts + 1);
  {
    /* when several labels mark one instruction keep the first in the text */
    const char **first = g_new0 (const char *, f->n_insts + 1);
    GHashTableIter it;
    gpointer k, v;
    g_hash_table_iter_init (&it, p->labels);
    while (g_hash_table_iter_next (&it, &k, &v))
      {
        const NameKey *nk = k;
        guint i = GPOINTER_TO_UINT (v) - 1;
        if (i <= f->n_insts && (!first[i] || nk->s < first[i]))
          {
            first[i] = nk->s;
            g_free (f->label_names[i]);
            f->label_names[i] = g_strndup (nk->s, nk->len);
          }
      }
    g_free (first);
  }
  f->insts = (WsPtxInst *) g_array_free (g_steal_pointer (&p->insts), FALSE);
  f->n_calls = p->calls->len;
  g_array_set_clear_func (p->calls, NULL);
  f->calls = (WsPtxCall *) g_array_free (g_steal_pointer (&p->calls), FALSE);
  f->n_regs = p->reg_types->len;
  f->reg_types = (uint8_t *) g_array_free (g_steal_pointer (&p->reg_types), FALSE);
  f->n_preds = p->pred_names->len;
  g_ptr_array_set_free_func (p->reg_names, NULL);
  g_ptr_array_set_free_func (p->pred_names, NULL);
  f->reg_names = (char **) g_ptr_array_free (g_steal_pointer (&p->reg_names), FALSE);
  f->pred_names = (char **) g_ptr_array_free (g_steal_pointer (&p->pred_names), FALSE);
  f->local_bytes = p->local_bytes;
  f->local_align = p->local_align;
  f->call_param_bytes = p->call_param_bytes;
  f->n_branch_tables = p->table_arrays->len;
  if (f->n_branch_tables)
    {
      f->branch_tables = g_new0 (uint32_t *, f->n_branch_tables);
      f->n_branch_targets = g_new0 (uint32_t, f->n_branch_tables);
      for (guint i = 0; i < f->n_branch_tables; i++)
        {
          GArray *a = g_ptr_array_index (p->table_arrays, i);
          f->n_branch_targets[i] = a->len;
          f->branch_tables[i] = g_memdup2 (a->data, MAX (a->len, 1u) * sizeof (uint32_t));
        }
    }
  f->has_body = TRUE;
  function_state_reset (p);
  return TRUE;
}

static gboolean
parse_label_directive (P *p, const WsPtxTok *label)
{
  const WsPtxTok *d = peek (p);
  if (tok_is (d, ".callprototype"))
    return skip_statement (p, d);
  if (tok_is (d, ".branchtargets"))
    {
      next (p);
      GArray *a = g_array_new (FALSE, FALSE, sizeof (uint32_t));
      g_ptr_array_add (p->table_arrays, a);
      guint ti = p->table_arrays->len - 1;
      for (;;)
        {
          const WsPtxTok *l;
          if (!expect_ident (p, &l, "a label in .branchtargets"))
            return FALSE;
          uint32_t zero = 0;
          g_array_append_val (a, zero);
          add_fixup (p, FIX_TABLE, ti, a->len - 1, l);
          if (is_punct (peek (p), ','))
            {
              next (p);
              continue;
            }
          break;
        }
      name_insert (p->tables, label->s, label->len, ti + 1);
      return expect_punct (p, ';', "after .branchtargets");
    }
  if (tok_is (d, ".calltargets"))
    return skip_statement (p, d);
  return TRUE;
}

/* .loc file line col [, function_name label [+ n], inlined_at f l c] */
static gboolean
parse_loc (P *p)
{
  const WsPtxTok *d = next (p);
  uint64_t v[3] = { 0, 0, 0 };
  for (int i = 0; i < 3; i++)
    {
      const WsPtxTok *t = peek (p);
      if (t->kind != WS_TK_INT || t->line != d->line)
        return fail_at (p, t, ".loc needs a file index, a line and a column");
      v[i] = next (p)->u;
    }
  while (peek (p)->line == d->line && peek (p)->kind != WS_TK_EOF && !is_punct (peek (p), ';')
         && !is_punct (peek (p), '}'))
    next (p);
  p->loc_file = (uint32_t) MIN (v[0], (uint64_t) G_MAXUINT32);
  p->loc_line = (uint32_t) MIN (v[1], (uint64_t) G_MAXUINT32);
  p->loc_col = (uint32_t) MIN (v[2], (uint64_t) G_MAXUINT32);
  return TRUE;
}

static gboolean
parse_body (P *p, WsPtxFunction *fself)
{
  const WsPtxTok *open = next (p); /* '{' */
  scope_push (p);
  guint depth = 1;
  for (;;)
    {
      const WsPtxTok *t = peek (p);
      if (t->kind == WS_TK_EOF)
        return fail_at (p, open, "function body is missing its closing '}'");
      if (is_punct (t, '{'))
        {
          next (p);
          if (depth > 64)
            return fail_at (p, t, "blocks nested too deeply");
          scope_push (p);
          depth++;
          continue;
        }
      if (is_punct (t, '}'))
        {
          next (p);
          scope_pop (p);
          if (--depth == 0)
            return TRUE;
          continue;
        }
      if (is_punct (t, ';'))
        {
          next (p); /* empty statement */
          continue;
        }
      if (t->kind == WS_TK_IDENT && is_punct (peek_at (p, 1), ':') && t->s[0] != '.')
        {
          next (p);
          next (p);
          if (tok_is (peek (p), ".callprototype"))
            {
              /* a prototype name for indirect calls, not a branch target */
              if (!skip_statement (p, peek (p)))
                return FALSE;
              continue;
            }
          if (name_lookup (p->labels, t->s, t->len))
            return fail_at (p, t, "label '%.*s' is defined twice", (int) t->len, t->s);
          name_insert (p->labels, t->s, t->len, p->insts->len + 1);
          if (!parse_label_directive (p, t))
            return FALSE;
          continue;
        }
      if (t->kind == WS_TK_IDENT && t->s[0] == '.')
        {
          if (tok_is (t, ".reg"))
            {
              if (!parse_reg_decl (p))
                return FALSE;
              continue;
            }
          if (tok_is (t, ".loc"))
            {
              if (!parse_loc (p))
                return FALSE;
              continue;
            }
          if (tok_is (t, ".pragma"))
            {
              next (p);
              if (!skip_statement (p, t))
                return FALSE;
              continue;
            }
          Linkage l = { FALSE, FALSE };
          if (tok_is (t, ".extern") || tok_is (t, ".visible") || tok_is (t, ".weak"))
            {
              next (p);
              l.is_extern = tok_is (t, ".extern");
              t = peek (p);
            }
          WsPtxSpace sp;
          if (parse_space_name (t, &sp))
            {
              if (sp == WS_SPACE_GLOBAL || sp == WS_SPACE_CONST)
                return unsupported_at (p, t, "function-scope .global/.const variables");
              if (!parse_and_place_vars (p, l, sp == WS_SPACE_PARAM ? WS_PARAM_ROLE_CALL : WS_PARAM_ROLE_NONE))
                return FALSE;
              continue;
            }
          if (tok_is (t, ".file") || tok_is (t, ".section"))
            return fail_at (p, t, "%.*s is only allowed at module scope", (int) t->len, t->s);
          if (tok_is (t, ".maxntid") || tok_is (t, ".reqntid") || tok_is (t, ".minnctapersm") || tok_is (t, ".maxnreg"))
            return fail_at (p, t, "%.*s must come before the function body", (int) t->len, t->s);
          g_autofree char *d = ws_ptx_tok_describe (t);
          return unsupported_at (p, t, "directive %s inside a function", d);
        }
      if (!parse_instruction (p))
        return FALSE;
    }
  (void) fself;
}

static gboolean
parse_function (P *p, Linkage link, const WsPtxTok *kw)
{
  gboolean is_entry = tok_is (kw, ".entry");
  WsPtxFunction f = { 0 };
  f.is_entry = is_entry;
  f.is_extern = link.is_extern;
  f.first_line = kw->line;
  g_autoptr (GArray) rets = g_array_new (FALSE, FALSE, sizeof (uint32_t));
  g_autoptr (GArray) params = g_array_new (FALSE, FALSE, sizeof (uint32_t));

  guint nsyms_before = p->symbols->len;
  p->fn = (int) p->functions->len; /* provisional; fixed below if redeclared */
  if (!is_entry && is_punct (peek (p), '('))
    if (!parse_param_list (p, WS_PARAM_ROLE_RET, rets))
      return FALSE;
  const WsPtxTok *name;
  if (!expect_ident (p, &name, "a function name"))
    return FALSE;
  if (name->s[0] == '.' || name->s[0] == '%')
    {
      g_autofree char *d = ws_ptx_tok_describe (name);
      return fail_at (p, name, "expected a function name, found %s", d);
    }
  if (is_punct (peek (p), '('))
    if (!parse_param_list (p, is_entry ? WS_PARAM_ROLE_ENTRY : WS_PARAM_ROLE_ARG, params))
      return FALSE;

  guint existing = name_lookup (p->fnames, name->s, name->len);
  guint fidx;
  if (existing)
    {
      WsPtxFunction *o = fn_at (p, existing - 1);
      fidx = existing - 1;
      if (o->has_body || o->is_entry != is_entry || o->n_params != params->len || o->n_rets != rets->len)
        {
          if (o->has_body)
            return fail_at (p, name, "function '%s' is defined twice", o->name);
          return fail_at (p, name, "declaration of '%s' does not match its earlier declaration (line %u)", o->name,
                          o->first_line);
        }
      /* re-declaration: keep the first symbols, take the new names/sizes */
      for (guint pass = 0; pass < 2; pass++)
        {
          GArray *a = pass ? params : rets;
          uint32_t *old = pass ? o->params : o->rets;
          for (guint i = 0; i < a->len; i++)
            {
              WsPtxSymbol *ns = sym_at (p, g_array_index (a, uint32_t, i));
              WsPtxSymbol *os = sym_at (p, old[i]);
              g_free (os->name);
              os->name = g_steal_pointer (&ns->name);
              os->size = ns->size;
              os->align = ns->align;
              os->type = ns->type;
              g_array_index (a, uint32_t, i) = old[i];
            }
        }
      /* drop the duplicate symbols appended while parsing this header */
      for (guint i = nsyms_before; i < p->symbols->len; i++)
        g_free (sym_at (p, i)->name);
      g_array_set_size (p->symbols, nsyms_before);
      o->is_extern = link.is_extern;
      o->first_line = kw->line;
    }
  else
    {
      f.name = tok_strdup (name);
      f.n_params = params->len;
      f.params = g_memdup2 (params->data, MAX (params->len, 1u) * sizeof (uint32_t));
      f.n_rets = rets->len;
      f.rets = g_memdup2 (rets->data, MAX (rets->len, 1u) * sizeof (uint32_t));
      g_array_append_val (p->functions, f);
      fidx = p->functions->len - 1;
      name_insert (p->fnames, f.name, (guint) strlen (f.name), fidx + 1);
    }
  WsPtxFunction *fn = fn_at (p, fidx);
  p->fn = (int) fidx;
  for (guint i = 0; i < params->len; i++)
    sym_at (p, g_array_index (params, uint32_t, i))->function = (int32_t) fidx;
  for (guint i = 0; i < rets->len; i++)
    sym_at (p, g_array_index (rets, uint32_t, i))->function = (int32_t) fidx;
  fn->param_bytes = assign_param_offsets (p, params);
  fn->ret_bytes = assign_param_offsets (p, rets);

  if (!parse_perf_directives (p, fn))
    return FALSE;
  fn = fn_at (p, fidx);
  const WsPtxTok *t = peek (p);
  if (is_punct (t, ';'))
    {
      next (p);
      p->fn = -1;
      return TRUE;
    }
  if (!is_punct (t, '{'))
    {
      g_autofree char *d = ws_ptx_tok_describe (t);
      return fail_at (p, t, "expected '{' or ';' after the declaration of '%s', found %s", fn->name, d);
    }
  if (link.is_extern)
    return fail_at (p, t, "an .extern function cannot have a body");
  function_state_init (p);
  GHashTable *ps = cur_scope (p);
  for (guint pass = 0; pass < 2; pass++)
    {
      GArray *a = pass ? params : rets;
      for (guint i = 0; i < a->len; i++)
        {
          guint si = g_array_index (a, uint32_t, i);
          const char *nm = sym_at (p, si)->name;
          name_insert (ps, nm, (guint) strlen (nm), ENT (ENT_SYM, si));
        }
    }
  if (!parse_body (p, fn))
    return FALSE;
  fn = fn_at (p, fidx);
  if (!finish_function (p, fn))
    return FALSE;
  p->fn = -1;
  return TRUE;
}

/* ---- module ------------------------------------------------------------ */

static gboolean
parse_version (P *p, const WsPtxTok *kw)
{
  const WsPtxTok *t = next (p);
  if (t->kind != WS_TK_FLOAT && t->kind != WS_TK_INT)
    return fail_at (p, t, "expected a version number after .version");
  const char *dot = memchr (t->s, '.', t->len);
  if (!dot)
    return fail_at (p, t, "expected MAJOR.MINOR after .version");
  p->mod->version_major = (uint32_t) g_ascii_strtoull (t->s, NULL, 10);
  p->mod->version_minor = (uint32_t) g_ascii_strtoull (dot + 1, NULL, 10);
  if (p->mod->version_major < 1 || p->mod->version_major > 9)
    return unsupported_at (p, kw, "PTX ISA version %u.%u", p->mod->version_major, p->mod->version_minor);
  return TRUE;
}

static gboolean
parse_module (P *p)
{
  for (;;)
    {
      const WsPtxTok *t = peek (p);
      if (t->kind == WS_TK_EOF)
        return TRUE;
      if (t->kind != WS_TK_IDENT || t->s[0] != '.')
        {
          g_autofree char *d = ws_ptx_tok_describe (t);
          return fail_at (p, t, "expected a directive (.version, .entry, .global, ...) at module scope, found %s", d);
        }
      next (p);
      if (tok_is (t, ".version"))
        {
          if (!parse_version (p, t))
            return FALSE;
          continue;
        }
      if (tok_is (t, ".target"))
        {
          const WsPtxTok *tt;
          if (!expect_ident (p, &tt, "a target (sm_80)"))
            return FALSE;
          g_free (p->mod->target);
          p->mod->target = tok_strdup (tt);
          while (is_punct (peek (p), ','))
            {
              next (p);
              const WsPtxTok *o;
              if (!expect_ident (p, &o, "a target option"))
                return FALSE;
              if (tok_is (o, "debug"))
                p->mod->debug = TRUE;
              else if (tok_is (o, "map_f64_to_f32") || tok_is (o, "texmode_independent"))
                return unsupported_at (p, o, "target option '%.*s'", (int) o->len, o->s);
            }
          continue;
        }
      if (tok_is (t, ".address_size"))
        {
          uint64_t v;
          if (!expect_uint (p, &v, "an address size"))
            return FALSE;
          if (v != 64 && v != 32)
            return fail_at (p, t, ".address_size must be 32 or 64");
          if (v != 64)
            return unsupported_at (p, t, "32-bit addressing (.address_size 32)");
          p->mod->address_size = (uint32_t) v;
          continue;
        }
      if (tok_is (t, ".file"))
        {
          uint64_t idx;
          if (!expect_uint (p, &idx, "a file index"))
            return FALSE;
          const WsPtxTok *s = next (p);
          if (s->kind != WS_TK_STRING)
            return fail_at (p, s, "expected a file name string after .file %u", (guint) idx);
          if (idx > 100000)
            return fail_at (p, s, "file index too large");
          while (p->files->len <= idx)
            g_ptr_array_add (p->files, NULL);
          g_free (g_ptr_array_index (p->files, idx));
          g_ptr_array_index (p->files, idx) = g_strndup (s->s + 1, s->len - 2);
          /* optional ", timestamp, size" */
          while (is_punct (peek (p), ',') && peek_at (p, 1)->kind == WS_TK_INT)
            {
              next (p);
              next (p);
            }
          continue;
        }
      if (tok_is (t, ".section"))
        {
          const WsPtxTok *n;
          if (!expect_ident (p, &n, "a section name"))
            return FALSE;
          if (!is_punct (peek (p), '{'))
            return fail_at (p, peek (p), "expected '{' after .section %.*s", (int) n->len, n->s);
          if (!skip_braces (p, t))
            return FALSE;
          continue;
        }
      if (tok_is (t, ".pragma"))
        {
          if (!skip_statement (p, t))
            return FALSE;
          continue;
        }
      Linkage l = { FALSE, FALSE };
      const WsPtxTok *d = t;
      while (tok_is (d, ".extern") || tok_is (d, ".visible") || tok_is (d, ".weak") || tok_is (d, ".common"))
        {
          if (tok_is (d, ".extern"))
            l.is_extern = TRUE;
          if (tok_is (d, ".visible") || tok_is (d, ".weak") || tok_is (d, ".common"))
            l.is_visible = TRUE;
          d = next (p);
        }
      if (tok_is (d, ".entry") || tok_is (d, ".func"))
        {
          if (!parse_function (p, l, d))
            return FALSE;
          continue;
        }
      WsPtxSpace sp;
      if (parse_space_name (d, &sp))
        {
          if (sp == WS_SPACE_PARAM)
            return fail_at (p, d, ".param variables are only allowed in functions");
          p->pos--; /* parse_var_decl reads the space */
          if (!parse_and_place_vars (p, l, WS_PARAM_ROLE_NONE))
            return FALSE;
          continue;
        }
      if (tok_is (d, ".alias"))
        return unsupported_at (p, d, "directive .alias");
      if (tok_is (d, ".reg"))
        return unsupported_at (p, d, "module-scope .reg variables");
      g_autofree char *ds = ws_ptx_tok_describe (d);
      if (tok_is (d, ".extern") || tok_is (d, ".visible"))
        return fail_at (p, d, "unexpected %s", ds);
      return fail_at (p, d, "unknown directive %s at module scope", ds);
    }
}

WsPtxModule *
ws_ptx_parse (const char *text, gsize len, const char *origin, GError **error)
{
  g_return_val_if_fail (text != NULL || len == 0, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);
  if (len == (gsize) -1)
    len = strlen (text);
  WsPtxModule *m = g_new0 (WsPtxModule, 1);
  m->text = g_malloc (len + 1);
  if (len)
    memcpy (m->text, text, len);
  m->text[len] = 0;
  m->address_size = 64;
  m->shared_align = 1;

  P p = { 0 };
  p.origin = origin ? origin : "<ptx>";
  p.text = m->text;
  p.error = error;
  p.mod = m;
  p.fn = -1;
  p.functions = g_array_new (FALSE, TRUE, sizeof (WsPtxFunction));
  p.symbols = g_array_new (FALSE, TRUE, sizeof (WsPtxSymbol));
  p.gsyms = name_table_new ();
  p.fnames = name_table_new ();
  p.files = g_ptr_array_new ();

  gboolean ok = ws_ptx_lex (m->text, len, p.origin, &p.toks, &p.ntoks, error) && parse_module (&p);
  if (ok && m->version_major == 0)
    {
      WsPtxTok t = { .line = 1, .col = 1 };
      ok = fail_at (&p, &t, "missing .version directive (is this PTX?)");
    }
  if (ok && m->target == NULL)
    {
      WsPtxTok t = { .line = 1, .col = 1 };
      ok = fail_at (&p, &t, "missing .target directive");
    }
  /* an unfinished function's state is dropped here on error */
  function_state_reset (&p);
  m->n_functions = p.functions->len;
  m->functions = (WsPtxFunction *) g_array_free (p.functions, FALSE);
  m->n_symbols = p.symbols->len;
  m->symbols = (WsPtxSymbol *) g_array_free (p.symbols, FALSE);
  m->n_files = p.files->len;
  g_ptr_array_add (p.files, NULL);
  m->files = (char **) g_ptr_array_free (p.files, FALSE);
  g_hash_table_unref (p.gsyms);
  g_hash_table_unref (p.fnames);
  g_free (p.toks);
  if (!ok)
    {
      ws_ptx_module_free (m);
      return NULL;
    }
  return m;
}
