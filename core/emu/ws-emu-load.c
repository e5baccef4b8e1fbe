/* ws-emu-load.c: loading PTX modules and decoding kernels for execution.
 *
 * Decoding resolves everything that does not change between executions:
 * operand rows, immediates (deduplicated broadcast rows), symbol addresses,
 * per-kernel shared-memory layout, local frame layouts, reconvergence
 * points, and picks a specialised handler for the hot cases. */
#define G_LOG_DOMAIN "ws-emu"

#include "emu/ws-emu-private.h"

#include <string.h>

static uint32_t
align_up32 (uint64_t v, uint64_t a)
{
  if (a == 0)
    a = 1;
  return (uint32_t) ((v + a - 1) / a * a);
}

static uint32_t
sym_align (const WsPtxSymbol *s)
{
  uint32_t a = s->align;
  int ts = ws_ptx_type_size ((WsPtxType) s->type);
  if (a == 0)
    a = ts > 0 ? (uint32_t) ts : 1;
  return a;
}

/* ---- module-scope variables ------------------------------------------ */

static gboolean
allocate_globals (WsEmuModule *m, GError **error)
{
  const WsPtxModule *p = m->ptx;
  WsDevMem *mem = m->emu->opt.mem;

  m->sym_addr = g_new0 (uint64_t, MAX (p->n_symbols, 1));
  for (guint i = 0; i < p->n_symbols; i++)
    {
      const WsPtxSymbol *s = &p->symbols[i];
      g_autofree char *label = NULL;
      if (s->function >= 0 || (s->space != WS_SPACE_GLOBAL && s->space != WS_SPACE_CONST))
        continue;
      label = g_strdup_printf ("%s %s", s->space == WS_SPACE_CONST ? "__constant__" : "__device__", s->name);
      m->sym_addr[i] = ws_devmem_alloc (mem, MAX (s->size, 1), WS_ALLOC_SYMBOL, label, error);
      if (m->sym_addr[i] == 0)
        return FALSE;
      if (s->init)
        memcpy ((void *) (uintptr_t) m->sym_addr[i], s->init, s->size);
    }
  /* Relocations once every address is known (a pointer may point forward). */
  for (guint i = 0; i < p->n_symbols; i++)
    {
      const WsPtxSymbol *s = &p->symbols[i];
      if (m->sym_addr[i] == 0)
        continue;
      for (guint r = 0; r < s->n_init_relocs; r++)
        {
          uint32_t target = s->init_reloc_symbols[r];
          uint64_t addr = 0;
          if (s->init_reloc_is_function && s->init_reloc_is_function[r])
            addr = WS_EMU_FUNC_WIN + (uint64_t) target * 16;
          else if (target < p->n_symbols)
            addr = m->sym_addr[target];
          if (s->init_reloc_addends)
            addr += (uint64_t) s->init_reloc_addends[r];
          if (s->init_reloc_offsets[r] + 8 <= s->size)
            {
              if (p->address_size == 32 || ws_ptx_type_size ((WsPtxType) s->type) == 4)
                {
                  uint32_t a32 = (uint32_t) addr;
                  memcpy ((uint8_t *) (uintptr_t) m->sym_addr[i] + s->init_reloc_offsets[r], &a32, 4);
                }
              else
                memcpy ((uint8_t *) (uintptr_t) m->sym_addr[i] + s->init_reloc_offsets[r], &addr, 8);
            }
          else if (s->init_reloc_offsets[r] + 4 <= s->size)
            {
              uint32_t a32 = (uint32_t) addr;
              memcpy ((uint8_t *) (uintptr_t) m->sym_addr[i] + s->init_reloc_offsets[r], &a32, 4);
            }
        }
    }
  return TRUE;
}

/* ---- decoding ---------------------------------------------------------- */

typedef struct {
  WsEmuModule *m;
  WsEmuFunction *k;
  EFunc *ef;
  GHashTable *imm_index; /* uint64 value -> row + 1 */
  GArray *imm_vals;
  GString *err;
  GArray *frag_rows; /* uint32_t: EFunc.frag_rows being built */
} Dec;

static uint32_t
imm_row (Dec *d, uint64_t v)
{
  gpointer idx;
  if (g_hash_table_lookup_extended (d->imm_index, &v, NULL, &idx))
    return WS_SRC_MAKE (WS_SRC_IMM, GPOINTER_TO_UINT (idx) - 1);
  g_array_append_val (d->imm_vals, v);
  uint64_t *key = g_new (uint64_t, 1);
  *key = v;
  g_hash_table_insert (d->imm_index, key, GUINT_TO_POINTER (d->imm_vals->len));
  return WS_SRC_MAKE (WS_SRC_IMM, d->imm_vals->len - 1);
}

static int
sreg_row (const WsPtxOperand *o)
{
  int c = o->comp < 3 ? o->comp : 0;
  switch ((WsPtxSreg) o->sreg)
    {
    case WS_SREG_TID: return SR_TID + c;
    case WS_SREG_NTID: return SR_NTID + c;
    case WS_SREG_CTAID: return SR_CTAID + c;
    case WS_SREG_NCTAID: return SR_NCTAID + c;
    case WS_SREG_LANEID: return SR_LANEID;
    case WS_SREG_WARPID: return SR_WARPID;
    case WS_SREG_NWARPID: return SR_NWARPID;
    case WS_SREG_SMID: return SR_SMID;
    case WS_SREG_NSMID: return SR_NSMID;
    case WS_SREG_GRIDID: return SR_GRIDID;
    case WS_SREG_LANEMASK_EQ: return SR_LANEMASK_EQ;
    case WS_SREG_LANEMASK_LE: return SR_LANEMASK_LE;
    case WS_SREG_LANEMASK_LT: return SR_LANEMASK_LT;
    case WS_SREG_LANEMASK_GE: return SR_LANEMASK_GE;
    case WS_SREG_LANEMASK_GT: return SR_LANEMASK_GT;
    case WS_SREG_DYNAMIC_SMEM_SIZE: return SR_DYN_SMEM;
    case WS_SREG_TOTAL_SMEM_SIZE: return SR_TOTAL_SMEM;
    case WS_SREG_CLUSTERID: return SR_CLUSTERID + c;
    case WS_SREG_NCLUSTERID: return SR_NCLUSTERID + c;
    case WS_SREG_CLUSTER_CTAID: return SR_CLUSTER_CTAID + c;
    case WS_SREG_CLUSTER_NCTAID: return SR_CLUSTER_NCTAID + c;
    case WS_SREG_ENVREG: return c == 1 ? SR_ENVREG1 : c == 2 ? SR_ENVREG2 : SR_ZERO;
    case WS_SREG_RESERVED_SMEM_BEGIN: return SR_RSMEM_BEGIN;
    case WS_SREG_RESERVED_SMEM_END: return SR_RSMEM_END;
    case WS_SREG_RESERVED_SMEM_CAP: return SR_RSMEM_CAP;
    case WS_SREG_RESERVED_SMEM_0: return SR_RSMEM_0;
    case WS_SREG_RESERVED_SMEM_1: return SR_RSMEM_1;
    default: return -1; /* clocks: dynamic */
    }
}

/* Where a symbol lives, as seen from this kernel. */
typedef enum { LOC_GLOBAL, LOC_SHARED, LOC_FRAME, LOC_PARAM, LOC_FUNCTION, LOC_UNKNOWN } SymLoc;

static SymLoc
sym_loc (Dec *d, uint32_t sym)
{
  const WsPtxModule *p = d->m->ptx;
  const WsPtxSymbol *s;
  if (sym >= p->n_symbols)
    return LOC_UNKNOWN;
  s = &p->symbols[sym];
  switch (s->space)
    {
    case WS_SPACE_GLOBAL:
    case WS_SPACE_CONST: return s->function < 0 ? LOC_GLOBAL : LOC_UNKNOWN;
    case WS_SPACE_SHARED: return LOC_SHARED;
    case WS_SPACE_LOCAL: return LOC_FRAME;
    case WS_SPACE_PARAM:
    case WS_SPACE_FUNC_PARAM:
      if (s->function >= 0 && p->functions[s->function].is_entry)
        {
          const WsPtxFunction *f = &p->functions[s->function];
          for (guint i = 0; i < f->n_params; i++)
            if (f->params[i] == sym)
              return LOC_PARAM;
        }
      return LOC_FRAME;
    default: return LOC_UNKNOWN;
    }
}

/* Value of a symbol's address known at decode time (not frame-relative). */
static uint64_t
sym_static_addr (Dec *d, uint32_t sym, SymLoc loc)
{
  const WsPtxSymbol *s = &d->m->ptx->symbols[sym];
  switch (loc)
    {
    case LOC_GLOBAL: return d->m->sym_addr[sym];
    case LOC_SHARED: return d->k->sym_off[sym];
    case LOC_PARAM: return s->param_offset;
    default: return 0;
    }
}

static int
tsize (int t)
{
  int s = ws_ptx_type_size ((WsPtxType) t);
  return s > 0 ? s : 4;
}

static gboolean
is_float_type (int t)
{
  return t == WS_T_F32 || t == WS_T_F64 || t == WS_T_F16 || t == WS_T_BF16 || t == WS_T_F16X2 || t == WS_T_BF16X2;
}

static uint32_t
dst_row (Dec *d, const WsPtxOperand *o)
{
  if (o->kind == WS_OPND_REG)
    return o->reg;
  if (o->kind == WS_OPND_PRED)
    return o->reg;
  return WS_REG_SINK;
}

static void
decode_src (Dec *d, EInst *e, int i, const WsPtxOperand *o)
{
  switch (o->kind)
    {
    case WS_OPND_REG: e->s[i] = WS_SRC_MAKE (WS_SRC_REG, o->reg); break;
    case WS_OPND_PRED:
      e->s[i] = o->reg;
      if (o->neg)
        e->pneg |= 1u << i;
      break;
    case WS_OPND_IMM: e->s[i] = imm_row (d, o->imm); break;
    case WS_OPND_SPECIAL:
      {
        int r = sreg_row (o);
        if (r < 0)
          r = SR_ZERO;
        e->s[i] = WS_SRC_MAKE (WS_SRC_SREG, r);
        d->k->sreg_used |= 1ull << r;
      }
      break;
    case WS_OPND_FUNC: e->s[i] = imm_row (d, WS_EMU_FUNC_WIN + (uint64_t) o->symbol * 16); break;
    case WS_OPND_SYMBOL:
      {
        SymLoc loc = sym_loc (d, o->symbol);
        if (loc == LOC_FRAME)
          e->s[i] = imm_row (d, 0); /* H_MOV_FRAME adds the frame base */
        else if (loc == LOC_UNKNOWN && o->symbol < d->m->ptx->n_functions)
          e->s[i] = imm_row (d, WS_EMU_FUNC_WIN + (uint64_t) o->symbol * 16);
        else
          e->s[i] = imm_row (d, sym_static_addr (d, o->symbol, loc) + (uint64_t) o->offset);
      }
      break;
    default: e->s[i] = imm_row (d, 0); break;
    }
}

static void
decode_addr (Dec *d, EInst *e, const WsPtxOperand *o)
{
  e->off = o->offset;
  if (o->comp == WS_OPND_REG)
    {
      e->has_base = 1;
      e->s[0] = WS_SRC_MAKE (WS_SRC_REG, o->reg);
    }
  else if (o->comp == WS_OPND_SYMBOL)
    {
      SymLoc loc = sym_loc (d, o->symbol);
      if (loc == LOC_FRAME)
        {
          e->addr_frame = 1;
          e->off += d->k->sym_off[o->symbol];
        }
      else
        {
          if (loc == LOC_PARAM)
            e->addr_param = 1;
          e->off += (int64_t) sym_static_addr (d, o->symbol, loc);
        }
    }
}

static void
dec_error (Dec *d, const WsPtxInst *pi, const char *what)
{
  if (d->err->len == 0)
    g_string_append_printf (d->err, "%s:%u: %s '%s' in %s is not supported by the emulator", d->m->origin, pi->line,
                            what, ws_ptx_op_name ((WsPtxOp) pi->op), d->ef->ptx->name);
}

static gboolean
plain_rn (const WsPtxInst *pi)
{
  return (pi->rnd == WS_RND_NONE || pi->rnd == WS_RND_RN) && !(pi->mods & (WS_MOD_FTZ | WS_MOD_SAT));
}

/* wmma: the fragments' rows go to the function's frag_rows (EFunc); the
 * stride (src[1] of load, src[2] of store, or the tile's leading
 * dimension when absent) to s[1]; the address was decoded into s[0]. */
static void
decode_wmma (Dec *d, EInst *e, const WsPtxInst *pi)
{
  uint32_t desc = pi->imm2;
  e->wmma = desc;
  e->target = d->frag_rows->len;
  const WsPtxOperand *frags[4] = { &pi->dst[0], NULL, NULL, NULL };
  guint nf = 1;
  WsPtxWmmaMatrix mats[4] = { WS_WMMA_D, WS_WMMA_A, WS_WMMA_B, WS_WMMA_C };
  if (pi->sub == WS_SUB_WMMA_MMA)
    {
      e->h = H_WMMA_MMA;
      for (guint i = 0; i < 3; i++)
        frags[1 + i] = &pi->src[i];
      nf = 4;
    }
  else
    {
      gboolean store = pi->sub == WS_SUB_WMMA_STORE;
      WsPtxWmmaMatrix mat = store ? WS_WMMA_D : WS_PTX_WMMA_MATRIX (desc);
      WsPtxWmmaFragment f;
      guint si = store ? 2 : 1;
      e->h = store ? H_WMMA_STORE : H_WMMA_LOAD;
      if (store)
        frags[0] = &pi->src[1];
      mats[0] = mat;
      ws_ptx_wmma_fragment (desc, mat, &f);
      e->size = f.elem_bytes;
      if (pi->nsrc > si)
        {
          decode_src (d, e, si, &pi->src[si]);
          e->s[1] = e->s[si];
        }
      else
        e->s[1] = imm_row (d, WS_PTX_WMMA_COL_MAJOR (desc, mat) ? f.rows : f.cols);
    }
  for (guint i = 0; i < nf; i++)
    {
      WsPtxWmmaFragment f;
      const WsPtxOperand *o = frags[i];
      gboolean dst = i == 0 && pi->sub != WS_SUB_WMMA_STORE;
      if (!ws_ptx_wmma_fragment (desc, mats[i], &f) || o->kind != WS_OPND_VEC || o->count != f.regs)
        {
          dec_error (d, pi, "fragment of");
          return;
        }
      for (guint j = 0; j < f.regs; j++)
        {
          uint32_t r = o->vec_regs[j], row;
          if (dst)
            row = r == WS_REG_SINK ? d->ef->sink_row : r;
          else
            row = r == WS_REG_SINK ? imm_row (d, 0) : WS_SRC_MAKE (WS_SRC_REG, r);
          g_array_append_val (d->frag_rows, row);
        }
    }
}

/* The fields and operands every instruction has; decode_inst then picks
 * the handler and what is particular to it. */
static void
decode_operands (Dec *d, EInst *e, const WsPtxInst *pi, const uint32_t *ipdom, uint32_t pc)
{
  const WsPtxFunction *f = d->ef->ptx;

  memset (e, 0, sizeof *e);
  e->op = (uint8_t) pi->op;
  e->type = pi->type;
  e->type2 = pi->type2;
  e->space = pi->space;
  e->vec = pi->vec ? pi->vec : 1;
  e->cmp = pi->cmp;
  e->boolop = pi->boolop;
  e->rnd = pi->rnd;
  e->sub = pi->sub;
  e->mods = pi->mods;
  e->ndst = pi->ndst;
  e->nsrc = pi->nsrc;
  e->guard = pi->guard;
  e->guard_neg = pi->guard_neg;
  e->ipdom = ipdom ? ipdom[pc] : f->n_insts;
  for (int i = 0; i < 4; i++)
    e->d[i] = e->v[i] = WS_REG_SINK;

  /* Destinations (vector destinations of ld / mov unpack go to d[0..3]). */
  for (int i = 0; i < pi->ndst && i < WS_PTX_MAX_DST; i++)
    {
      const WsPtxOperand *o = &pi->dst[i];
      if (o->kind == WS_OPND_VEC)
        {
          for (int j = 0; j < o->count && j < 4; j++)
            e->d[j] = o->vec_regs[j];
        }
      else
        e->d[i] = dst_row (d, o);
    }
  /* Sources; an address operand is decoded into s[0]/off and the rest
   * shift by one so data sources of st/atom start at s[1]. */
  for (int i = 0; i < pi->nsrc && i < WS_PTX_MAX_SRC; i++)
    {
      const WsPtxOperand *o = &pi->src[i];
      if (o->kind == WS_OPND_ADDR)
        decode_addr (d, e, o);
      else if (o->kind == WS_OPND_VEC)
        {
          for (int j = 0; j < o->count && j < 4; j++)
            e->v[j] = o->vec_regs[j] == WS_REG_SINK ? imm_row (d, 0) : WS_SRC_MAKE (WS_SRC_REG, o->vec_regs[j]);
        }
      else
        decode_src (d, e, i, o);
    }
}

/* The handler of add/sub/mul/mad/fma/addc/subc/madc/shl/shr: the common
 * types and modifiers get a handler of their own, the rest the generic
 * ones (H_FLOAT, H_IALU, H_CARRY). */
static EmuHandler
arith_handler (const WsPtxInst *pi)
{
  int t = pi->type;
  int sz = tsize (t);
  gboolean flt = is_float_type (t);

  switch ((WsPtxOp) pi->op)
    {
    case WS_OP_ADD:
    case WS_OP_SUB:
      if (flt)
        {
          if (plain_rn (pi) && t == WS_T_F32)
            return pi->op == WS_OP_ADD ? H_FADD32 : H_FSUB32;
          else if (plain_rn (pi) && t == WS_T_F64)
            return pi->op == WS_OP_ADD ? H_FADD64 : H_FSUB64;
          else
            return H_FLOAT;
        }
      else if (pi->mods & WS_MOD_CC)
        return H_CARRY;
      else if (pi->mods & WS_MOD_SAT || sz < 4)
        return H_IALU;
      else if (sz == 8)
        return pi->op == WS_OP_ADD ? H_ADD64 : H_SUB64;
      else
        return pi->op == WS_OP_ADD ? H_ADD32 : H_SUB32;
    case WS_OP_MUL:
      if (flt)
        {
          if (plain_rn (pi) && t == WS_T_F32)
            return H_FMUL32;
          else if (plain_rn (pi) && t == WS_T_F64)
            return H_FMUL64;
          else
            return H_FLOAT;
        }
      else if ((pi->mods & WS_MOD_WIDE) && (t == WS_T_S32 || t == WS_T_U32))
        return t == WS_T_S32 ? H_MULWIDE_S32 : H_MULWIDE_U32;
      else if (!(pi->mods & (WS_MOD_WIDE | WS_MOD_HI)) && sz == 4)
        return H_MULLO32;
      else if (!(pi->mods & (WS_MOD_WIDE | WS_MOD_HI)) && sz == 8)
        return H_MULLO64;
      else
        return H_IALU;
    case WS_OP_MAD:
    case WS_OP_FMA:
      if (flt)
        {
          if (plain_rn (pi) && t == WS_T_F32)
            return H_FFMA32;
          else if (plain_rn (pi) && t == WS_T_F64)
            return H_FFMA64;
          else
            return H_FLOAT;
        }
      else if (pi->mods & WS_MOD_CC)
        return H_CARRY;
      else if ((pi->mods & WS_MOD_WIDE) && (t == WS_T_S32 || t == WS_T_U32))
        return t == WS_T_S32 ? H_MADWIDE_S32 : H_MADWIDE_U32;
      else if (!(pi->mods & (WS_MOD_WIDE | WS_MOD_HI | WS_MOD_SAT)) && sz == 4)
        return H_MADLO32;
      else if (!(pi->mods & (WS_MOD_WIDE | WS_MOD_HI | WS_MOD_SAT)) && sz == 8)
        return H_MADLO64;
      else
        return H_IALU;
    case WS_OP_ADDC:
    case WS_OP_SUBC:
    case WS_OP_MADC: return H_CARRY;
    case WS_OP_SHL: return sz == 8 ? H_SHL64 : sz == 4 ? H_SHL32 : H_IALU;
    case WS_OP_SHR:
      if (sz == 8)
        return (t == WS_T_S64) ? H_SHR_S64 : H_SHR_U64;
      else if (sz == 4)
        return (t == WS_T_S32) ? H_SHR_S32 : H_SHR_U32;
      else
        return H_IALU;
    default: g_assert_not_reached ();
    }
}

/* tex / suld / sust: s[0] the handle, v[0..3] the coordinates, sust's
 * values in d[0..3] (as sources); tex.level's lod (src[2]) is not needed:
 * one level. */
static void
decode_tex_surf (Dec *d, EInst *e, const WsPtxInst *pi)
{
  int t = pi->type;
  const WsPtxOperand *co = &pi->src[1];
  for (int j = 0; j < 4; j++)
    e->v[j] = j < co->count && co->vec_regs[j] != WS_REG_SINK ? WS_SRC_MAKE (WS_SRC_REG, co->vec_regs[j])
                                                              : imm_row (d, 0);
  e->h = pi->op == WS_OP_TEX ? H_TEX : H_SURF;
  e->target = pi->imm2; /* suld/sust out-of-range mode */
  e->size = (uint8_t) (pi->op == WS_OP_TEX ? 4 : tsize (t));
  if (pi->op == WS_OP_TEX && t != WS_T_F32 && t != WS_T_S32 && t != WS_T_U32)
    dec_error (d, pi, "texture fetch of a type other than .f32/.s32/.u32");
  if (pi->op == WS_OP_TEX && pi->type2 != WS_T_F32 && pi->type2 != WS_T_S32)
    dec_error (d, pi, "texture coordinates of a type other than .f32/.s32");
  if (pi->op == WS_OP_SUST)
    {
      const WsPtxOperand *vo = &pi->src[2];
      for (int j = 0; j < 4; j++)
        e->d[j] = WS_REG_SINK;
      if (vo->kind == WS_OPND_VEC)
        for (int j = 0; j < vo->count && j < 4; j++)
          e->d[j] = vo->vec_regs[j] == WS_REG_SINK ? imm_row (d, 0) : WS_SRC_MAKE (WS_SRC_REG, vo->vec_regs[j]);
      else if (vo->kind == WS_OPND_REG)
        e->d[0] = WS_SRC_MAKE (WS_SRC_REG, vo->reg);
      else
        dec_error (d, pi, "surface store of an immediate");
    }
}

static void
decode_inst (Dec *d, EInst *e, const WsPtxInst *pi, const uint32_t *ipdom, uint32_t pc)
{
  const WsPtxFunction *f = d->ef->ptx;
  int t = pi->type;
  gboolean flt = is_float_type (t);

  decode_operands (d, e, pi, ipdom, pc);
  switch ((WsPtxOp) pi->op)
    {
    case WS_OP_ADD:
    case WS_OP_SUB:
    case WS_OP_MUL:
    case WS_OP_MAD:
    case WS_OP_FMA:
    case WS_OP_ADDC:
    case WS_OP_SUBC:
    case WS_OP_MADC:
    case WS_OP_SHL:
    case WS_OP_SHR: e->h = arith_handler (pi); break;
    case WS_OP_AND:
    case WS_OP_OR:
    case WS_OP_XOR:
    case WS_OP_NOT:
      if (t == WS_T_PRED)
        {
          e->h = H_PREDLOGIC;
          /* A constant operand (nvcc writes `xor.pred %p2, %p1, -1` for a
           * NOT) reads the frame's all-true slot, negated for 0. */
          for (int i = 0; i < pi->nsrc && i < WS_PTX_MAX_SRC; i++)
            if (pi->src[i].kind == WS_OPND_IMM)
              {
                e->s[i] = d->ef->true_pred;
                e->pneg = (e->pneg & ~(1u << i)) | ((pi->src[i].imm & 1) ? 0u : 1u << i);
              }
        }
      else
        e->h = pi->op == WS_OP_AND ? H_AND : pi->op == WS_OP_OR ? H_OR : pi->op == WS_OP_XOR ? H_XOR : H_NOT;
      break;
    case WS_OP_CNOT:
    case WS_OP_POPC:
    case WS_OP_CLZ:
    case WS_OP_BREV:
    case WS_OP_BFIND:
    case WS_OP_BFE:
    case WS_OP_BFI:
    case WS_OP_BMSK:
    case WS_OP_PRMT:
    case WS_OP_LOP3:
    case WS_OP_DP4A:
    case WS_OP_DP2A:
    case WS_OP_SAD:
    case WS_OP_MUL24:
    case WS_OP_MAD24:
    case WS_OP_SHF:
    case WS_OP_REM: e->h = H_IALU; break;
    case WS_OP_VADD4:
    case WS_OP_VSUB4:
    case WS_OP_VAVRG4:
    case WS_OP_VABSDIFF4:
    case WS_OP_VMIN4:
    case WS_OP_VMAX4:
      e->h = H_IALU;
      e->target = pi->imm2; /* btype */
      break;
    case WS_OP_DIV:
    case WS_OP_MIN:
    case WS_OP_MAX: e->h = flt ? H_FLOAT : H_IALU; break;
    case WS_OP_COPYSIGN: e->h = H_FLOAT; break;
    case WS_OP_ABS:
    case WS_OP_NEG: e->h = flt ? H_FUNARY : H_IALU; break;
    case WS_OP_SQRT:
    case WS_OP_RSQRT:
    case WS_OP_RCP:
    case WS_OP_SIN:
    case WS_OP_COS:
    case WS_OP_EX2:
    case WS_OP_LG2:
    case WS_OP_TANH: e->h = H_FUNARY; break;
    case WS_OP_MOV:
      if (pi->ndst >= 1 && pi->dst[0].kind == WS_OPND_PRED)
        e->h = H_MOV_PRED;
      else if (pi->ndst >= 1 && pi->dst[0].kind == WS_OPND_VEC)
        {
          e->h = H_UNPACK;
          e->vec = pi->dst[0].count;
        }
      else if (pi->nsrc >= 1 && pi->src[0].kind == WS_OPND_VEC)
        {
          e->h = H_PACK;
          e->vec = pi->src[0].count;
        }
      else if (pi->nsrc >= 1 && pi->src[0].kind == WS_OPND_SYMBOL && sym_loc (d, pi->src[0].symbol) == LOC_FRAME)
        {
          e->h = H_MOV_FRAME;
          e->off = (int64_t) d->k->sym_off[pi->src[0].symbol] + pi->src[0].offset;
        }
      else if (pi->nsrc >= 1 && pi->src[0].kind == WS_OPND_SPECIAL && sreg_row (&pi->src[0]) < 0)
        {
          e->h = H_MOV_CLOCK;
          e->sreg = pi->src[0].sreg;
        }
      else
        e->h = H_MOV;
      break;
    case WS_OP_SELP: e->h = H_SELP; break;
    case WS_OP_SETP:
      e->h = H_SETP;
      if (pi->boolop == WS_BOOL_NONE && pi->cmp >= WS_CMP_EQ && pi->cmp <= WS_CMP_GE && !(pi->mods & WS_MOD_FTZ))
        switch (t)
          {
          case WS_T_S32: e->h = H_SETP_S32; break;
          case WS_T_U32:
          case WS_T_B32: e->h = H_SETP_U32; break;
          case WS_T_S64: e->h = H_SETP_S64; break;
          case WS_T_U64:
          case WS_T_B64: e->h = H_SETP_U64; break;
          case WS_T_F32: e->h = H_SETP_F32; break;
          case WS_T_F64: e->h = H_SETP_F64; break;
          default: break;
          }
      break;
    case WS_OP_SET: e->h = H_SET; break;
    case WS_OP_SLCT: e->h = H_SLCT; break;
    case WS_OP_CVT:
      e->h = H_CVT;
      if (!is_float_type (t) && !is_float_type (pi->type2) && !(pi->mods & WS_MOD_SAT) && t != WS_T_PRED
          && pi->type2 != WS_T_PRED && t != WS_T_B128 && pi->type2 != WS_T_B128)
        e->h = H_CVT_INT;
      break;
    case WS_OP_CVTA: e->h = H_CVTA; break;
    case WS_OP_ISSPACEP: e->h = H_ISSPACEP; break;
    case WS_OP_TESTP: e->h = H_TESTP; break;
    case WS_OP_LD:
    case WS_OP_LDU:
      e->h = H_LD;
      e->size = (uint8_t) tsize (t);
      break;
    case WS_OP_ST:
      e->h = H_ST;
      e->size = (uint8_t) tsize (t);
      /* st [addr], value: the value is source 1 */
      if (e->v[0] == WS_REG_SINK)
        e->v[0] = e->s[1];
      break;
    case WS_OP_ATOM:
    case WS_OP_RED:
      e->h = H_ATOM;
      e->size = (uint8_t) tsize (t);
      if (pi->vec > 1)
        dec_error (d, pi, "vector atomic");
      if (t == WS_T_F16 || t == WS_T_BF16 || t == WS_T_F16X2 || t == WS_T_BF16X2 || t == WS_T_B128)
        dec_error (d, pi, "16-bit float/128-bit atomic");
      break;
    case WS_OP_TEX:
    case WS_OP_SULD:
    case WS_OP_SUST: decode_tex_surf (d, e, pi); break;
    case WS_OP_SHFL: e->h = H_SHFL; break;
    case WS_OP_VOTE: e->h = H_VOTE; break;
    case WS_OP_MATCH: e->h = H_MATCH; break;
    case WS_OP_REDUX: e->h = H_REDUX; break;
    case WS_OP_ACTIVEMASK: e->h = H_ACTIVEMASK; break;
    case WS_OP_MEMBAR:
    case WS_OP_FENCE: e->h = H_FENCE; break;
    case WS_OP_NANOSLEEP:
    case WS_OP_PREFETCH:
    case WS_OP_PMEVENT: e->h = H_NOP; break;
    /* Programmatic dependent launch: grids run one after the other, so the
     * grid this one depends on has finished (wait) and nothing can start
     * early (launch_dependents). */
    case WS_OP_GRIDDEPCONTROL: e->h = H_NOP; break;
    case WS_OP_BAR:
    case WS_OP_BARRIER:
      /* bar.warp.sync: the warp runs in lock step anyway. */
      e->h = (pi->sub == WS_SUB_WARP_SYNC || pi->nsrc == 0) ? H_NOP : H_BAR;
      break;
    case WS_OP_BRX:
      e->h = H_BRX;
      e->target = pi->imm2;
      if (pi->imm2 >= f->n_branch_tables)
        dec_error (d, pi, "branch table of");
      break;
    case WS_OP_CP_ASYNC:
      /* Copies complete immediately, so commit/wait groups have nothing to wait for. */
      if (pi->sub == WS_SUB_NONE)
        {
          e->h = H_CP_ASYNC;
          e->size = (uint8_t) MIN (pi->imm2, 255u);
          /* src[0] is the shared destination, src[1] the global source */
          e->v[0] = pi->src[1].comp == WS_OPND_REG ? WS_SRC_MAKE (WS_SRC_REG, pi->src[1].reg) : imm_row (d, 0);
          e->off = pi->src[0].offset;
          e->target = (uint32_t) pi->src[1].offset;
          e->s[0] = pi->src[0].comp == WS_OPND_REG ? WS_SRC_MAKE (WS_SRC_REG, pi->src[0].reg) : imm_row (d, 0);
          if (pi->src[0].comp == WS_OPND_SYMBOL)
            e->off += d->k->sym_off[pi->src[0].symbol];
        }
      else
        e->h = H_NOP;
      break;
    case WS_OP_ELECT: e->h = H_ELECT; break;
    case WS_OP_TRAP:
    case WS_OP_BRKPT: e->h = H_TRAP; break;
    case WS_OP_BRA:
      e->h = H_BRA;
      for (int i = 0; i < pi->nsrc; i++)
        if (pi->src[i].kind == WS_OPND_LABEL)
          e->target = pi->src[i].target;
      if (pi->nsrc >= 1 && pi->src[0].kind == WS_OPND_REG)
        dec_error (d, pi, "indirect branch (brx.idx)");
      break;
    case WS_OP_CALL:
      e->h = H_CALL;
      e->target = pi->call;
      break;
    case WS_OP_RET: e->h = H_RET; break;
    case WS_OP_EXIT: e->h = H_EXIT; break;
    case WS_OP_WMMA: decode_wmma (d, e, pi); break;
    case WS_OP_MBARRIER:
      e->h = H_MBARRIER;
      e->size = 8;
      e->target = pi->imm2; /* the .parity form of test_wait / try_wait */
      break;
    default:
      dec_error (d, pi, "instruction");
      e->h = H_TRAP;
      break;
    }
  if (pi->type == WS_T_B128
      || (flt && t != WS_T_F32 && t != WS_T_F64 && e->h != H_CVT && e->h != H_MOV && e->h != H_LD && e->h != H_ST
          && e->h != H_PACK && e->h != H_UNPACK && e->h != H_SELP && e->h != H_FLOAT && e->h != H_FUNARY
          && e->h != H_SETP))
    dec_error (d, pi, "16-bit/128-bit typed");
}

/* ---- per-kernel layout -------------------------------------------------- */

static void
collect_reachable (const WsPtxModule *p, uint32_t f, gboolean *reach, gboolean *on_path, gboolean *recursive)
{
  const WsPtxFunction *fn = &p->functions[f];
  reach[f] = TRUE;
  on_path[f] = TRUE;
  for (guint c = 0; c < fn->n_calls; c++)
    {
      uint32_t callee = fn->calls[c].callee;
      if (callee == G_MAXUINT32)
        {
          /* Indirect call: any function may be the target. */
          for (guint g = 0; g < p->n_functions; g++)
            if (!p->functions[g].is_entry && !p->functions[g].is_extern && !reach[g])
              collect_reachable (p, g, reach, on_path, recursive);
          *recursive = TRUE;
          continue;
        }
      if (callee >= p->n_functions)
        continue;
      if (on_path[callee])
        *recursive = TRUE;
      else if (!reach[callee])
        collect_reachable (p, callee, reach, on_path, recursive);
      else
        {
          /* Reached before through another path: still a DAG. */
        }
    }
  on_path[f] = FALSE;
}

static uint64_t
max_stack (const WsPtxModule *p, WsEmuFunction *k, uint32_t f, int depth)
{
  const WsPtxFunction *fn = &p->functions[f];
  uint64_t best = 0;
  if (depth > 64)
    return 0;
  for (guint c = 0; c < fn->n_calls; c++)
    {
      uint32_t callee = fn->calls[c].callee;
      if (callee < p->n_functions && k->funcs[callee])
        best = MAX (best, max_stack (p, k, callee, depth + 1));
    }
  return (k->funcs[f] ? align_up32 (k->funcs[f]->frame_bytes, 16) : 0) + best;
}

static gboolean
uses_symbol (const WsPtxFunction *fn, uint32_t sym)
{
  for (guint i = 0; i < fn->n_insts; i++)
    {
      const WsPtxInst *pi = &fn->insts[i];
      for (int s = 0; s < pi->nsrc && s < WS_PTX_MAX_SRC; s++)
        {
          const WsPtxOperand *o = &pi->src[s];
          if ((o->kind == WS_OPND_SYMBOL || (o->kind == WS_OPND_ADDR && o->comp == WS_OPND_SYMBOL)) && o->symbol == sym)
            return TRUE;
        }
    }
  return FALSE;
}

static void
fill_static (WsEmuFunction *k, const EFunc *ef)
{
  for (guint pc = 0; pc < ef->n_insts; pc++)
    {
      const WsPtxInst *pi = &ef->ptx->insts[pc];
      WsTraceStaticInst *s = &k->static_insts[ef->static_base + pc];
      s->ptx_line = pi->line;
      s->src_line = pi->src_line;
      s->op = (uint8_t) pi->op;
      s->opclass = pi->opclass;
      s->space = pi->space;
      if (pi->op == WS_OP_LD || pi->op == WS_OP_LDU || pi->op == WS_OP_ST || pi->op == WS_OP_ATOM
          || pi->op == WS_OP_RED)
        s->access_size = (uint8_t) MIN (255, tsize (pi->type) * (pi->vec ? pi->vec : 1));
      if (pi->op == WS_OP_WMMA && pi->sub != WS_SUB_WMMA_MMA)
        {
          /* each lane's slots: a run of consecutive elements (one row or
           * column of the tile in memory order, ws_emu_wmma_element) */
          WsPtxWmmaFragment f;
          if (ws_ptx_wmma_fragment (pi->imm2, pi->sub == WS_SUB_WMMA_STORE ? WS_WMMA_D : WS_PTX_WMMA_MATRIX (pi->imm2),
                                    &f))
            s->access_size = (uint8_t) MIN (255, (guint) f.regs * f.per_reg * f.elem_bytes);
        }
      s->n_dst = 0;
      s->n_src = 0;
      s->dst[0] = s->dst[1] = 0xffff;
      for (int i = 0; i < 4; i++)
        s->src[i] = 0xffff;
      for (int i = 0; i < pi->ndst && i < WS_PTX_MAX_DST; i++)
        {
          const WsPtxOperand *o = &pi->dst[i];
          if (o->kind == WS_OPND_REG && s->n_dst < 2)
            s->dst[s->n_dst++] = (uint16_t) o->reg;
          else if (o->kind == WS_OPND_VEC)
            for (int j = 0; j < o->count && s->n_dst < 2; j++)
              if (o->vec_regs[j] != WS_REG_SINK)
                s->dst[s->n_dst++] = (uint16_t) o->vec_regs[j];
        }
      for (int i = 0; i < pi->nsrc && i < WS_PTX_MAX_SRC; i++)
        {
          const WsPtxOperand *o = &pi->src[i];
          if (o->kind == WS_OPND_REG && s->n_src < 4)
            s->src[s->n_src++] = (uint16_t) o->reg;
          else if (o->kind == WS_OPND_ADDR && o->comp == WS_OPND_REG && s->n_src < 4)
            s->src[s->n_src++] = (uint16_t) o->reg;
          else if (o->kind == WS_OPND_VEC)
            for (int j = 0; j < o->count && s->n_src < 4; j++)
              if (o->vec_regs[j] != WS_REG_SINK)
                s->src[s->n_src++] = (uint16_t) o->vec_regs[j];
        }
      s->is_conditional_branch = pi->op == WS_OP_BRA && pi->guard != WS_REG_SINK;
      s->is_barrier = (pi->op == WS_OP_BAR || pi->op == WS_OP_BARRIER) && ef->code[pc].h == H_BAR;
    }
}

static EFunc *
decode_function (WsEmuModule *m, WsEmuFunction *k, uint32_t f, GString *err)
{
  const WsPtxModule *p = m->ptx;
  const WsPtxFunction *fn = &p->functions[f];
  EFunc *ef = g_new0 (EFunc, 1);
  g_autofree uint32_t *ipdom = NULL;
  Dec d = { m, k, ef, NULL, NULL, err };

  ef->fn = f;
  ef->ptx = fn;
  ef->n_insts = fn->n_insts;
  ef->n_rows = fn->n_regs + 1;
  ef->sink_row = fn->n_regs;
  ef->n_preds = fn->n_preds + 2;
  ef->sink_pred = fn->n_preds;
  ef->true_pred = fn->n_preds + 1;
  ef->code = g_new0 (EInst, fn->n_insts + 1);
  d.imm_index = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  d.imm_vals = g_array_new (FALSE, FALSE, sizeof (uint64_t));
  d.frag_rows = g_array_new (FALSE, FALSE, sizeof (uint32_t));
  ipdom = fn->n_insts ? ws_ptx_function_ipdom (fn) : NULL;
  for (guint pc = 0; pc < fn->n_insts; pc++)
    {
      EInst *e = &ef->code[pc];
      decode_inst (&d, e, &fn->insts[pc], ipdom, pc);
      e->trace_self = e->h == H_LD || e->h == H_ST || e->h == H_ATOM || e->h == H_BAR || e->h == H_WMMA_LOAD
                      || e->h == H_WMMA_STORE;
      /* Sinks write to a scratch row so handlers never test for them. */
      for (int i = 0; i < 4; i++)
        if (e->d[i] == WS_REG_SINK)
          e->d[i] = (fn->insts[pc].op == WS_OP_SETP || e->h == H_MOV_PRED || e->h == H_PREDLOGIC
                     || (i == 1 && (e->h == H_SHFL || e->h == H_MATCH || e->h == H_ELECT)))
                      ? ef->sink_pred
                      : ef->sink_row;
    }
  /* Loops that poll memory may wait for another lane of the same warp
   * (a lock held by a lane parked at the reconvergence point): the
   * interpreter lets the parked lanes run ahead when such a loop spins. */
  for (guint pc = 0; pc < fn->n_insts; pc++)
    {
      EInst *e = &ef->code[pc];
      if (e->h != H_BRA || e->target > pc)
        continue;
      for (guint q = e->target; q <= pc; q++)
        {
          const WsPtxInst *qi = &fn->insts[q];
          /* (a call may hide the atomic: -G builds call atomicCAS) */
          if (qi->op == WS_OP_ATOM || qi->op == WS_OP_NANOSLEEP || qi->op == WS_OP_CALL || qi->op == WS_OP_MBARRIER
              || ((qi->op == WS_OP_LD) && (qi->mods & (WS_MOD_VOLATILE | WS_MOD_RELAXED | WS_MOD_ACQUIRE))))
            e->spin = 1;
        }
    }
  ef->n_imm = d.imm_vals->len;
  ef->imm = g_new (uint64_t, (gsize) MAX (ef->n_imm, 1) * WS_EMU_WARP);
  for (guint i = 0; i < ef->n_imm; i++)
    for (int l = 0; l < WS_EMU_WARP; l++)
      ef->imm[i * WS_EMU_WARP + l] = g_array_index (d.imm_vals, uint64_t, i);
  g_hash_table_destroy (d.imm_index);
  g_array_free (d.imm_vals, TRUE);
  ef->frag_rows = (uint32_t *) g_array_free (d.frag_rows, FALSE);

  ef->param_frame_off = g_new0 (uint32_t, fn->n_params + 1);
  ef->ret_frame_off = g_new0 (uint32_t, fn->n_rets + 1);
  for (guint i = 0; i < fn->n_params; i++)
    ef->param_frame_off[i] = k->sym_off[fn->params[i]];
  for (guint i = 0; i < fn->n_rets; i++)
    ef->ret_frame_off[i] = k->sym_off[fn->rets[i]];
  return ef;
}

static void
efunc_free (EFunc *ef)
{
  if (ef == NULL)
    return;
  g_free (ef->code);
  g_free (ef->imm);
  g_free (ef->param_frame_off);
  g_free (ef->ret_frame_off);
  g_free (ef->frag_rows);
  g_free (ef);
}

void
ws_emu_function_free (WsEmuFunction *k)
{
  const WsPtxModule *p = k->module->ptx;
  for (guint f = 0; f < p->n_functions; f++)
    efunc_free (k->funcs[f]);
  g_free (k->funcs);
  g_free (k->sym_off);
  g_free (k->static_insts);
  g_free (k->decode_error);
  g_free (k->param_offsets);
  g_free (k->param_sizes);
  g_free (k->name);
  g_free (k);
}

/* The device runtime's entry points (CUDA dynamic parallelism:
 * ws-emu-exec.c, call_builtin): cudadevrt's system calls
 * (__cuda_syscall_cnpv2X) and, in programs built without -rdc, the cnpX
 * functions that would wrap them.  Returns the bare name X, or NULL.  The
 * ones the emulator does not implement fault when a thread calls them,
 * naming the call (a kernel may reach them without calling them). */
const char *
ws_emu_device_runtime_call (const char *name)
{
  if (name == NULL)
    return NULL;
  /* CUDA graphs' device-side setter of a conditional node's value */
  if (strcmp (name, "cudaGraphSetConditional") == 0)
    return "GraphSetConditional";
  if (g_str_has_prefix (name, "__cuda_syscall_"))
    name += strlen ("__cuda_syscall_");
  if (g_str_has_prefix (name, "cnpv2"))
    return name + 5;
  if (g_str_has_prefix (name, "cnp") && g_ascii_isupper (name[3]))
    return name + 3;
  /* cooperative groups' grid syscalls: known, they fault when called */
  if (g_str_has_prefix (name, "CGS_"))
    return name;
  return NULL;
}

static WsEmuFunction *
build_kernel (WsEmuModule *m, uint32_t kf)
{
  const WsPtxModule *p = m->ptx;
  const WsPtxFunction *kfn = &p->functions[kf];
  WsEmuFunction *k = g_new0 (WsEmuFunction, 1);
  g_autofree gboolean *reach = g_new0 (gboolean, p->n_functions);
  g_autofree gboolean *on_path = g_new0 (gboolean, p->n_functions);
  g_autofree uint32_t *frame_size = g_new0 (uint32_t, p->n_functions);
  g_autoptr (GString) err = g_string_new (NULL);
  uint32_t shared = 0, dyn_align = 16;

  k->module = m;
  k->index = kf;
  k->name = g_strdup (kfn->name);
  k->trace_kernel = -1;
  k->funcs = g_new0 (EFunc *, p->n_functions);
  k->sym_off = g_new0 (uint32_t, MAX (p->n_symbols, 1));
  collect_reachable (p, kf, reach, on_path, &k->recursive);

  /* Unsupported external callees are reported when the kernel launches. */
  for (guint f = 0; f < p->n_functions; f++)
    {
      const WsPtxFunction *fn = &p->functions[f];
      if (!reach[f])
        continue;
      for (guint c = 0; c < fn->n_calls; c++)
        {
          const WsPtxCall *call = &fn->calls[c];
          if (call->callee < p->n_functions && p->functions[call->callee].is_extern && !call->is_vprintf
              && !call->is_malloc && !call->is_free && g_strcmp0 (p->functions[call->callee].name, "__assertfail") != 0
              && ws_emu_device_runtime_call (p->functions[call->callee].name) == NULL && err->len == 0)
            g_string_append_printf (err,
                                    "%s: kernel %s calls external function %s, which the emulator does not provide",
                                    m->origin, kfn->name, p->functions[call->callee].name);
        }
    }

  /* So are instructions the parser left out (one unsupported instruction
   * fails the launches of the kernels that reach it, not the module). */
  for (guint f = 0; f < p->n_functions && err->len == 0; f++)
    {
      const WsPtxFunction *fn = &p->functions[f];
      if (!reach[f] || fn->unsupported == NULL)
        continue;
      g_string_append (err, fn->unsupported);
      if (f != kf)
        g_string_append_printf (err, " (in function %s, which kernel %s calls)", fn->name, kfn->name);
      if (fn->n_unsupported > 1)
        g_string_append_printf (err, "; %u more unsupported instructions follow in %s", fn->n_unsupported - 1,
                                fn->name);
      g_string_append (err, "; the module's other kernels run: launch this one on a GPU or avoid the instruction");
    }

  /* Symbol placement: shared symbols used by the kernel or its callees,
   * frame symbols in their function's frame. */
  for (guint s = 0; s < p->n_symbols; s++)
    {
      const WsPtxSymbol *sym = &p->symbols[s];
      if (sym->space == WS_SPACE_SHARED && !sym->is_extern && sym->size > 0)
        {
          gboolean used = FALSE;
          if (sym->function >= 0)
            used = reach[sym->function];
          else
            for (guint f = 0; f < p->n_functions && !used; f++)
              if (reach[f] && uses_symbol (&p->functions[f], s))
                used = TRUE;
          if (!used)
            continue;
          shared = align_up32 (shared, sym_align (sym));
          k->sym_off[s] = shared;
          shared += (uint32_t) sym->size;
        }
      else if (sym->space == WS_SPACE_SHARED && sym->is_extern)
        dyn_align = MAX (dyn_align, sym_align (sym));
    }
  k->static_shared = shared;
  k->dyn_shared_align = dyn_align;
  for (guint s = 0; s < p->n_symbols; s++)
    {
      const WsPtxSymbol *sym = &p->symbols[s];
      if (sym->space == WS_SPACE_SHARED && sym->is_extern)
        k->sym_off[s] = align_up32 (shared, dyn_align);
    }
  for (guint s = 0; s < p->n_symbols; s++)
    {
      const WsPtxSymbol *sym = &p->symbols[s];
      Dec tmp = { m, k, NULL, NULL, NULL, NULL };
      if (sym->function < 0 || !reach[sym->function])
        continue;
      if (sym_loc (&tmp, s) != LOC_FRAME)
        continue;
      frame_size[sym->function] = align_up32 (frame_size[sym->function], sym_align (sym));
      k->sym_off[s] = frame_size[sym->function];
      frame_size[sym->function] += (uint32_t) MAX (sym->size, 1);
    }

  for (guint f = 0; f < p->n_functions; f++)
    {
      if (!reach[f] || p->functions[f].is_extern)
        continue;
      k->funcs[f] = decode_function (m, k, f, err);
      k->funcs[f]->frame_bytes = align_up32 (frame_size[f], 16);
    }
  /* Static instruction ids: the kernel first, then callees in module order. */
  {
    uint32_t base = 0;
    k->funcs[kf]->static_base = 0;
    base = k->funcs[kf]->n_insts;
    for (guint f = 0; f < p->n_functions; f++)
      if (k->funcs[f] && f != kf)
        {
          k->funcs[f]->static_base = base;
          base += k->funcs[f]->n_insts;
        }
    k->n_static = base;
    k->static_insts = g_new0 (WsTraceStaticInst, MAX (base, 1));
    for (guint f = 0; f < p->n_functions; f++)
      if (k->funcs[f])
        fill_static (k, k->funcs[f]);
  }

  if (k->recursive)
    k->stack_bytes = 32 * 1024;
  else
    k->stack_bytes = (uint32_t) MAX (max_stack (p, k, kf, 0), 16);

  k->param_offsets = g_new0 (uint32_t, kfn->n_params + 1);
  k->param_sizes = g_new0 (uint32_t, kfn->n_params + 1);
  for (guint i = 0; i < kfn->n_params; i++)
    {
      const WsPtxSymbol *ps = &p->symbols[kfn->params[i]];
      k->param_offsets[i] = (uint32_t) ps->param_offset;
      k->param_sizes[i] = (uint32_t) ps->size;
    }
  if (err->len)
    k->decode_error = g_strdup (err->str);
  return k;
}

/* ---- public API ---------------------------------------------------------- */

void
ws_emu_module_free (WsEmuModule *m)
{
  if (m->kernels)
    for (guint f = 0; f < m->ptx->n_functions; f++)
      if (m->kernels[f])
        ws_emu_function_free (m->kernels[f]);
  g_free (m->kernels);
  g_free (m->sym_addr);
  g_free (m->origin);
  ws_ptx_module_free (m->ptx);
  g_free (m);
}

WsEmuModule *
ws_emu_load_ptx (WsEmu *emu, const char *ptx, gsize len, const char *origin, GError **error)
{
  WsEmuModule *m;
  WsPtxModule *p;

  g_return_val_if_fail (emu != NULL, NULL);
  g_return_val_if_fail (ptx != NULL, NULL);
  p = ws_ptx_parse (ptx, len, origin ? origin : "<ptx>", error);
  if (p == NULL)
    return NULL;
  m = g_new0 (WsEmuModule, 1);
  m->emu = emu;
  m->ptx = p;
  m->origin = g_strdup (origin ? origin : "<ptx>");
  if (!allocate_globals (m, error))
    {
      ws_emu_module_free (m);
      return NULL;
    }
  m->kernels = g_new0 (WsEmuFunction *, MAX (p->n_functions, 1));
  for (guint f = 0; f < p->n_functions; f++)
    if (p->functions[f].is_entry)
      m->kernels[f] = build_kernel (m, f);
  g_ptr_array_add (emu->modules, m);
  return m;
}

const WsPtxModule *
ws_emu_module_get_ptx (WsEmuModule *module)
{
  g_return_val_if_fail (module != NULL, NULL);
  return module->ptx;
}

WsEmuFunction *
ws_emu_module_get_function (WsEmuModule *module, const char *name)
{
  int f;
  g_return_val_if_fail (module != NULL && name != NULL, NULL);
  f = ws_ptx_module_find_function (module->ptx, name);
  if (f < 0)
    return NULL;
  return module->kernels[f];
}

gboolean
ws_emu_module_get_global (WsEmuModule *module, const char *name, uint64_t *dev_addr, uint64_t *size)
{
  const WsPtxModule *p;
  g_return_val_if_fail (module != NULL && name != NULL, FALSE);
  p = module->ptx;
  for (guint i = 0; i < p->n_symbols; i++)
    if (module->sym_addr[i] && strcmp (p->symbols[i].name, name) == 0)
      {
        if (dev_addr)
          *dev_addr = module->sym_addr[i];
        if (size)
          *size = p->symbols[i].size;
        return TRUE;
      }
  return FALSE;
}

void
ws_emu_function_get_info (WsEmuFunction *fn, WsEmuFunctionInfo *info)
{
  const WsPtxFunction *pf;
  g_return_if_fail (fn != NULL && info != NULL);
  pf = &fn->module->ptx->functions[fn->index];
  memset (info, 0, sizeof *info);
  info->name = fn->name;
  info->n_params = pf->n_params;
  info->param_offsets = fn->param_offsets;
  info->param_sizes = fn->param_sizes;
  info->param_bytes = (uint32_t) pf->param_bytes;
  info->static_shared_bytes = fn->have_resources ? fn->shared_override : fn->static_shared;
  info->local_bytes = fn->have_resources ? fn->local_override : fn->stack_bytes;
  if (fn->have_resources)
    info->num_regs = fn->regs;
  else
    {
      /* Estimate: PTX virtual registers overstate what ptxas allocates;
       * count 64-bit registers twice and cap at the architectural limit. */
      uint32_t r = 0;
      for (guint i = 0; i < pf->n_regs; i++)
        r += ws_ptx_type_size ((WsPtxType) pf->reg_types[i]) == 8 ? 2 : 1;
      info->num_regs = CLAMP (r / 2 + 8, 16, 255);
    }
  info->cannot_run = fn->decode_error;
  info->max_threads_per_block = 1024;
  if (pf->maxntid[0])
    info->max_threads_per_block = pf->maxntid[0] * MAX (pf->maxntid[1], 1) * MAX (pf->maxntid[2], 1);
  else if (pf->reqntid[0])
    info->max_threads_per_block = pf->reqntid[0] * MAX (pf->reqntid[1], 1) * MAX (pf->reqntid[2], 1);
}

void
ws_emu_function_set_resources (WsEmuFunction *fn, uint32_t regs, uint32_t shared, uint32_t local)
{
  g_return_if_fail (fn != NULL);
  fn->regs = regs;
  fn->shared_override = shared;
  fn->local_override = local;
  fn->have_resources = TRUE;
}
