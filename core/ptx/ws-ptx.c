/* ws-ptx.c: names, module lifetime, instruction classes, rendering and
 * the post-dominator analysis over a parsed PTX function. */
#define G_LOG_DOMAIN "ws-ptx"

#include "ptx/ws-ptx-private.h"

#include <string.h>

static const char *const type_names[WS_T_COUNT] = {
  [WS_T_NONE] = "",       [WS_T_B8] = "b8",     [WS_T_B16] = "b16",       [WS_T_B32] = "b32", [WS_T_B64] = "b64",
  [WS_T_B128] = "b128",   [WS_T_U8] = "u8",     [WS_T_U16] = "u16",       [WS_T_U32] = "u32", [WS_T_U64] = "u64",
  [WS_T_S8] = "s8",       [WS_T_S16] = "s16",   [WS_T_S32] = "s32",       [WS_T_S64] = "s64", [WS_T_F16] = "f16",
  [WS_T_F16X2] = "f16x2", [WS_T_BF16] = "bf16", [WS_T_BF16X2] = "bf16x2", [WS_T_F32] = "f32", [WS_T_F64] = "f64",
  [WS_T_PRED] = "pred",
};

int
ws_ptx_type_size (WsPtxType t)
{
  switch (t)
    {
    case WS_T_B8:
    case WS_T_U8:
    case WS_T_S8: return 1;
    case WS_T_B16:
    case WS_T_U16:
    case WS_T_S16:
    case WS_T_F16:
    case WS_T_BF16: return 2;
    case WS_T_B32:
    case WS_T_U32:
    case WS_T_S32:
    case WS_T_F32:
    case WS_T_F16X2:
    case WS_T_BF16X2: return 4;
    case WS_T_B64:
    case WS_T_U64:
    case WS_T_S64:
    case WS_T_F64: return 8;
    case WS_T_B128: return 16;
    default: return 0;
    }
}

const char *
ws_ptx_type_name (WsPtxType t)
{
  return (guint) t < WS_T_COUNT ? type_names[t] : "?";
}

static const char *const op_names[] = {
#define WS_PTX_OP_STR(name, str) str,
  WS_PTX_OPCODES (WS_PTX_OP_STR)
#undef WS_PTX_OP_STR
};

const char *
ws_ptx_op_name (WsPtxOp op)
{
  return (guint) op < WS_OP_COUNT ? op_names[op] : "?";
}

const char *
ws_ptx_opclass_name (WsOpClass c)
{
  static const char *const n[WS_OPCLASS_COUNT] = {
    "alu", "fp32", "fp64", "sfu", "ld", "st", "atom", "branch", "barrier", "warp", "other", "tensor",
  };
  return (guint) c < WS_OPCLASS_COUNT ? n[c] : "?";
}

static gboolean
is_float (WsPtxType t)
{
  return t == WS_T_F16 || t == WS_T_F16X2 || t == WS_T_BF16 || t == WS_T_BF16X2 || t == WS_T_F32 || t == WS_T_F64;
}

static WsOpClass
float_class (WsPtxType t)
{
  if (t == WS_T_F64)
    return WS_OPCLASS_FP64;
  return is_float (t) ? WS_OPCLASS_FP32 : WS_OPCLASS_ALU;
}

WsOpClass
ws_ptx_op_class (const WsPtxInst *in)
{
  WsPtxType t = in->type, t2 = in->type2;
  switch ((WsPtxOp) in->op)
    {
    case WS_OP_LD:
    case WS_OP_LDU:
    case WS_OP_TEX:
    case WS_OP_SULD: return WS_OPCLASS_LD;
    case WS_OP_SUST: return WS_OPCLASS_ST;
    case WS_OP_CP_ASYNC: return in->sub == WS_SUB_NONE ? WS_OPCLASS_LD : WS_OPCLASS_BARRIER;
    case WS_OP_ST: return WS_OPCLASS_ST;
    case WS_OP_ATOM:
    case WS_OP_RED: return WS_OPCLASS_ATOM;
    case WS_OP_BRA:
    case WS_OP_BRX:
    case WS_OP_CALL:
    case WS_OP_RET:
    case WS_OP_EXIT: return WS_OPCLASS_BRANCH;
    case WS_OP_BAR:
    case WS_OP_BARRIER:
    case WS_OP_MEMBAR:
    case WS_OP_FENCE:
    case WS_OP_MBARRIER: /* an arrive/wait object in shared memory: synchronisation */ return WS_OPCLASS_BARRIER;
    case WS_OP_SHFL:
    case WS_OP_VOTE:
    case WS_OP_MATCH:
    case WS_OP_REDUX:
    case WS_OP_ACTIVEMASK:
    case WS_OP_ELECT: return WS_OPCLASS_WARP;
    case WS_OP_SIN:
    case WS_OP_COS:
    case WS_OP_EX2:
    case WS_OP_LG2:
    case WS_OP_TANH: return WS_OPCLASS_SFU;
    case WS_OP_RCP:
    case WS_OP_RSQRT:
    case WS_OP_SQRT:
      if (t == WS_T_F64 && !(in->mods & WS_MOD_APPROX))
        return WS_OPCLASS_FP64;
      return (in->mods & WS_MOD_APPROX) || in->op == WS_OP_RSQRT ? WS_OPCLASS_SFU : float_class (t);
    case WS_OP_CVT:
      if (t == WS_T_F64 || t2 == WS_T_F64)
        return WS_OPCLASS_FP64;
      return is_float (t) || is_float (t2) ? WS_OPCLASS_FP32 : WS_OPCLASS_ALU;
    case WS_OP_SET: return float_class (t2);
    case WS_OP_ADD:
    case WS_OP_SUB:
    case WS_OP_MUL:
    case WS_OP_MAD:
    case WS_OP_FMA:
    case WS_OP_DIV:
    case WS_OP_MIN:
    case WS_OP_MAX:
    case WS_OP_ABS:
    case WS_OP_NEG:
    case WS_OP_SETP:
    case WS_OP_TESTP:
    case WS_OP_COPYSIGN: return float_class (t);
    case WS_OP_NANOSLEEP:
    case WS_OP_TRAP:
    case WS_OP_BRKPT:
    case WS_OP_PMEVENT:
    case WS_OP_PREFETCH: return WS_OPCLASS_OTHER;
    case WS_OP_WMMA:
      return in->sub == WS_SUB_WMMA_LOAD    ? WS_OPCLASS_LD
             : in->sub == WS_SUB_WMMA_STORE ? WS_OPCLASS_ST
                                            : WS_OPCLASS_TENSOR;
    default: return WS_OPCLASS_ALU;
    }
}

/* ---- wmma fragments --------------------------------------------------------- */

gboolean
ws_ptx_wmma_fragment (uint32_t desc, WsPtxWmmaMatrix mat, WsPtxWmmaFragment *out)
{
  /* Tile extents M, N, K per shape (PTX ISA, "Matrix Shape"). */
  static const uint8_t mnk[][3] = {
    [WS_WMMA_M16N16K16] = { 16, 16, 16 }, [WS_WMMA_M32N8K16] = { 32, 8, 16 }, [WS_WMMA_M8N32K16] = { 8, 32, 16 },
    [WS_WMMA_M16N16K8] = { 16, 16, 8 },   [WS_WMMA_M8N8K4] = { 8, 8, 4 },
  };
  WsPtxWmmaShape shape = WS_PTX_WMMA_SHAPE (desc);
  WsPtxWmmaElem elem = WS_PTX_WMMA_ELEM (desc, mat);
  g_return_val_if_fail (out != NULL, FALSE);
  memset (out, 0, sizeof *out);
  if (shape == WS_WMMA_SHAPE_NONE || shape > WS_WMMA_M8N8K4 || (guint) mat > WS_WMMA_D)
    return FALSE;
  uint32_t m = mnk[shape][0], n = mnk[shape][1], k = mnk[shape][2];
  gboolean ab = mat == WS_WMMA_A || mat == WS_WMMA_B;
  /* Which element types each shape takes (PTX ISA, wmma.load "Description"). */
  gboolean ok;
  switch (shape)
    {
    case WS_WMMA_M16N16K8: ok = ab ? elem == WS_WMMA_ELEM_TF32 : elem == WS_WMMA_ELEM_F32; break;
    case WS_WMMA_M8N8K4: ok = elem == WS_WMMA_ELEM_F64; break;
    default:
      ok = ab ? elem == WS_WMMA_ELEM_F16 || elem == WS_WMMA_ELEM_BF16 || elem == WS_WMMA_ELEM_S8
                  || elem == WS_WMMA_ELEM_U8
              : elem == WS_WMMA_ELEM_F16 || elem == WS_WMMA_ELEM_F32 || elem == WS_WMMA_ELEM_S32;
      break;
    }
  if (!ok)
    return FALSE;
  out->rows = (uint8_t) (mat == WS_WMMA_B ? k : m);
  out->cols = (uint8_t) (mat == WS_WMMA_A ? k : n);
  out->elem = (uint8_t) elem;
  switch (elem)
    {
    case WS_WMMA_ELEM_F16:
    case WS_WMMA_ELEM_BF16: out->elem_bytes = 2, out->per_reg = 2; break;
    case WS_WMMA_ELEM_S8:
    case WS_WMMA_ELEM_U8: out->elem_bytes = 1, out->per_reg = 4; break;
    case WS_WMMA_ELEM_F64: out->elem_bytes = 8, out->per_reg = 1; break;
    default: /* tf32 (stored as 32 bits), f32, s32 */ out->elem_bytes = 4, out->per_reg = 1; break;
    }
  /* The warp holds the tile once, except .f16 A and B fragments: always
   * eight .f16x2 registers, whatever the shape (the A of m16n16k16 is held
   * twice, the B of m32n8k16 four times). */
  if (ab && elem == WS_WMMA_ELEM_F16)
    out->regs = 8;
  else
    out->regs = (uint8_t) ((uint32_t) out->rows * out->cols / (32u * out->per_reg));
  return TRUE;
}

static WsPtxType
wide_type (WsPtxType t)
{
  switch (t)
    {
    case WS_T_S16: return WS_T_S32;
    case WS_T_U16: return WS_T_U32;
    case WS_T_S32: return WS_T_S64;
    case WS_T_U32: return WS_T_U64;
    case WS_T_B16: return WS_T_B32;
    case WS_T_B32: return WS_T_B64;
    default: return t;
    }
}

WsPtxType
ws_ptx_inst_src_type (const WsPtxInst *in, guint i)
{
  WsPtxType t = in->type, t2 = in->type2;
  switch ((WsPtxOp) in->op)
    {
    case WS_OP_CVT:
    case WS_OP_SET: return t2;
    case WS_OP_SLCT: return i == 2 ? t2 : t;
    case WS_OP_SHL:
    case WS_OP_SHR: return i == 1 ? WS_T_U32 : t;
    case WS_OP_MBARRIER: /* init/arrive counts; test_wait's state, pending_count's state */
      return in->sub == WS_SUB_MBAR_INIT || in->sub == WS_SUB_MBAR_ARRIVE || in->sub == WS_SUB_MBAR_ARRIVE_DROP
               ? WS_T_U32
               : WS_T_B64;
    case WS_OP_SHF: return i == 2 ? WS_T_U32 : t;
    case WS_OP_BFE: return i >= 1 ? WS_T_U32 : t;
    case WS_OP_BFI: return i >= 2 ? WS_T_U32 : t;
    case WS_OP_BMSK:
    case WS_OP_BAR:
    case WS_OP_BARRIER:
    case WS_OP_NANOSLEEP:
    case WS_OP_CP_ASYNC:
    case WS_OP_WMMA: /* the stride */ return WS_T_U32;
    case WS_OP_MAD: return i == 2 && (in->mods & WS_MOD_WIDE) ? wide_type (t) : t;
    case WS_OP_DP4A:
    case WS_OP_DP2A:
      if (i == 1)
        return t2;
      if (i == 2)
        return t == WS_T_S32 || t2 == WS_T_S32 ? WS_T_S32 : WS_T_U32;
      return t;
    case WS_OP_SHFL:
    case WS_OP_VOTE:
    case WS_OP_PRMT:
    case WS_OP_LOP3:
    case WS_OP_ELECT:
    case WS_OP_ACTIVEMASK: return WS_T_B32;
    case WS_OP_MATCH:
    case WS_OP_REDUX: return i >= 1 ? WS_T_B32 : t;
    case WS_OP_MOV: return t;
    default: return t == WS_T_NONE ? WS_T_B64 : t;
    }
}

/* ---- module ------------------------------------------------------------ */

void
ws_ptx_module_free (WsPtxModule *m)
{
  if (!m)
    return;
  for (guint i = 0; i < m->n_functions; i++)
    {
      WsPtxFunction *f = &m->functions[i];
      g_free (f->name);
      g_free (f->params);
      g_free (f->rets);
      g_free (f->reg_types);
      if (f->reg_names)
        for (guint r = 0; r < f->n_regs; r++)
          g_free (f->reg_names[r]);
      g_free (f->reg_names);
      if (f->pred_names)
        for (guint r = 0; r < f->n_preds; r++)
          g_free (f->pred_names[r]);
      g_free (f->pred_names);
      g_free (f->insts);
      for (guint c = 0; c < f->n_calls; c++)
        {
          g_free (f->calls[c].rets);
          g_free (f->calls[c].args);
        }
      g_free (f->calls);
      for (guint b = 0; b < f->n_branch_tables; b++)
        g_free (f->branch_tables[b]);
      g_free (f->branch_tables);
      g_free (f->n_branch_targets);
      if (f->label_names)
        for (guint l = 0; l <= f->n_insts; l++)
          g_free (f->label_names[l]);
      g_free (f->label_names);
      g_free (f->unsupported);
    }
  g_free (m->functions);
  for (guint i = 0; i < m->n_symbols; i++)
    {
      WsPtxSymbol *s = &m->symbols[i];
      g_free (s->name);
      g_free (s->init);
      g_free (s->init_reloc_offsets);
      g_free (s->init_reloc_symbols);
      g_free (s->init_reloc_addends);
      g_free (s->init_reloc_is_function);
    }
  g_free (m->symbols);
  if (m->files)
    for (guint i = 0; i < m->n_files; i++)
      g_free (m->files[i]);
  g_free (m->files);
  g_free (m->target);
  g_free (m->text);
  g_free (m);
}

int
ws_ptx_module_find_function (const WsPtxModule *m, const char *name)
{
  g_return_val_if_fail (m != NULL && name != NULL, -1);
  for (guint i = 0; i < m->n_functions; i++)
    if (strcmp (m->functions[i].name, name) == 0)
      return (int) i;
  return -1;
}

int
ws_ptx_module_find_symbol (const WsPtxModule *m, const char *name, int function)
{
  g_return_val_if_fail (m != NULL && name != NULL, -1);
  int found = -1;
  /* function scope first (last declaration wins, like the parser's scoping
   * at the end of the function), then module scope */
  if (function >= 0)
    for (guint i = 0; i < m->n_symbols; i++)
      if (m->symbols[i].function == function && strcmp (m->symbols[i].name, name) == 0)
        found = (int) i;
  if (found >= 0)
    return found;
  for (guint i = 0; i < m->n_symbols; i++)
    if (m->symbols[i].function < 0 && strcmp (m->symbols[i].name, name) == 0)
      found = (int) i;
  return found;
}

/* ---- static shared memory per kernel ----------------------------------- */

static void
mark_shared (const WsPtxModule *m, guint fi, guint8 *seen_fn, guint8 *used)
{
  if (seen_fn[fi])
    return;
  seen_fn[fi] = 1;
  const WsPtxFunction *f = &m->functions[fi];
  for (guint i = 0; i < f->n_insts; i++)
    {
      const WsPtxInst *in = &f->insts[i];
      for (guint k = 0; k < in->nsrc; k++)
        {
          const WsPtxOperand *o = &in->src[k];
          if ((o->kind == WS_OPND_SYMBOL || (o->kind == WS_OPND_ADDR && o->comp == WS_OPND_SYMBOL))
              && o->symbol < m->n_symbols)
            used[o->symbol] = 1;
        }
      if (in->op == WS_OP_CALL && in->call < f->n_calls && f->calls[in->call].callee < m->n_functions)
        mark_shared (m, f->calls[in->call].callee, seen_fn, used);
    }
}

uint64_t
ws_ptx_function_static_shared (const WsPtxModule *m, guint function)
{
  g_return_val_if_fail (m != NULL && function < m->n_functions, 0);
  g_autofree guint8 *seen = g_new0 (guint8, m->n_functions);
  g_autofree guint8 *used = g_new0 (guint8, m->n_symbols + 1);
  mark_shared (m, function, seen, used);
  uint64_t total = 0;
  for (guint i = 0; i < m->n_symbols; i++)
    {
      const WsPtxSymbol *s = &m->symbols[i];
      if (!used[i] || s->space != WS_SPACE_SHARED || s->is_extern)
        continue;
      uint64_t a = s->align ? s->align : 1;
      total = (total + a - 1) / a * a + s->size;
    }
  return total;
}

/* ---- post-dominators --------------------------------------------------- */

static gboolean
ends_block (const WsPtxInst *in)
{
  return in->op == WS_OP_BRA || in->op == WS_OP_BRX || in->op == WS_OP_RET || in->op == WS_OP_EXIT
         || in->op == WS_OP_TRAP;
}

uint32_t *
ws_ptx_function_ipdom (const WsPtxFunction *fn)
{
  g_return_val_if_fail (fn != NULL, NULL);
  guint n = fn->n_insts;
  uint32_t *ipdom = g_new (uint32_t, MAX (n, 1u));
  if (n == 0)
    {
      ipdom[0] = 0;
      return ipdom;
    }
  /* leaders */
  g_autofree guint8 *leader = g_new0 (guint8, n + 1);
  leader[0] = 1;
  for (guint i = 0; i < n; i++)
    {
      const WsPtxInst *in = &fn->insts[i];
      if (ends_block (in))
        leader[i + 1] = 1;
      if (in->op == WS_OP_BRA && in->src[0].target <= n)
        leader[in->src[0].target] = 1;
      if (in->op == WS_OP_BRX && in->imm2 < fn->n_branch_tables)
        for (guint k = 0; k < fn->n_branch_targets[in->imm2]; k++)
          if (fn->branch_tables[in->imm2][k] <= n)
            leader[fn->branch_tables[in->imm2][k]] = 1;
    }
  g_autofree uint32_t *block_of = g_new (uint32_t, n + 1);
  g_autofree uint32_t *start = g_new (uint32_t, n + 2);
  guint nb = 0;
  for (guint i = 0; i < n; i++)
    {
      if (leader[i])
        start[nb++] = i;
      block_of[i] = nb - 1;
    }
  const guint X = nb; /* virtual exit */
  start[nb] = n;
  block_of[n] = X;

  /* successor lists (CSR) */
  g_autofree uint32_t *succ_off = g_new0 (uint32_t, nb + 2);
  GArray *succ = g_array_new (FALSE, FALSE, sizeof (uint32_t));
  for (guint b = 0; b < nb; b++)
    {
      succ_off[b] = succ->len;
      guint last = start[b + 1] - 1;
      const WsPtxInst *in = &fn->insts[last];
      gboolean guarded = in->guard != WS_REG_SINK;
      uint32_t s;
#define ADD_SUCC(idx) \
  do \
    { \
      s = (idx) >= n ? X : block_of[(idx)]; \
      g_array_append_val (succ, s); \
    } \
  while (0)
      if (in->op == WS_OP_BRA)
        {
          ADD_SUCC (MIN (in->src[0].target, n));
          if (guarded)
            ADD_SUCC (last + 1);
        }
      else if (in->op == WS_OP_BRX)
        {
          if (in->imm2 < fn->n_branch_tables)
            for (guint k = 0; k < fn->n_branch_targets[in->imm2]; k++)
              ADD_SUCC (MIN (fn->branch_tables[in->imm2][k], n));
          if (guarded)
            ADD_SUCC (last + 1);
        }
      else if (in->op == WS_OP_RET || in->op == WS_OP_EXIT || in->op == WS_OP_TRAP)
        {
          s = X;
          g_array_append_val (succ, s);
          if (guarded)
            ADD_SUCC (last + 1);
        }
      else
        ADD_SUCC (last + 1);
#undef ADD_SUCC
    }
  succ_off[nb] = succ->len;
  const uint32_t *sl = (const uint32_t *) succ->data;

  /* predecessors (edges of the reverse graph) */
  g_autofree uint32_t *pred_cnt = g_new0 (uint32_t, nb + 2);
  for (guint b = 0; b < nb; b++)
    for (guint k = succ_off[b]; k < succ_off[b + 1]; k++)
      pred_cnt[sl[k] + 1]++;
  for (guint b = 1; b <= nb + 1; b++)
    pred_cnt[b] += pred_cnt[b - 1];
  g_autofree uint32_t *preds = g_new (uint32_t, MAX (succ->len, 1u));
  g_autofree uint32_t *fill = g_memdup2 (pred_cnt, (nb + 2) * sizeof (uint32_t));
  for (guint b = 0; b < nb; b++)
    for (guint k = succ_off[b]; k < succ_off[b + 1]; k++)
      preds[fill[sl[k]]++] = b;

  /* postorder of the reverse graph from X (iterative DFS) */
  g_autofree uint32_t *po_num = g_new (uint32_t, nb + 1);
  g_autofree uint32_t *order = g_new (uint32_t, nb + 1); /* nodes by postorder */
  g_autofree uint32_t *stack = g_new (uint32_t, nb + 1);
  g_autofree uint32_t *iter = g_new0 (uint32_t, nb + 1);
  for (guint b = 0; b <= nb; b++)
    po_num[b] = G_MAXUINT32;
  g_autofree guint8 *visited = g_new0 (guint8, nb + 1);
  guint sp = 0, npo = 0;
  stack[sp++] = X;
  visited[X] = 1;
  iter[X] = pred_cnt[X];
  for (guint b = 0; b < nb; b++)
    iter[b] = pred_cnt[b];
  while (sp)
    {
      guint v = stack[sp - 1];
      if (iter[v] < pred_cnt[v + 1])
        {
          guint w = preds[iter[v]++];
          if (!visited[w])
            {
              visited[w] = 1;
              stack[sp++] = w;
            }
        }
      else
        {
          po_num[v] = npo;
          order[npo++] = v;
          sp--;
        }
    }

  g_autofree uint32_t *idom = g_new (uint32_t, nb + 1);
  for (guint b = 0; b <= nb; b++)
    idom[b] = G_MAXUINT32;
  idom[X] = X;
  gboolean changed = TRUE;
  while (changed)
    {
      changed = FALSE;
      /* reverse postorder, skipping X (last in postorder) */
      for (int k = (int) npo - 2; k >= 0; k--)
        {
          guint b = order[k];
          guint nid = G_MAXUINT32;
          for (guint e = succ_off[b]; e < succ_off[b + 1]; e++)
            {
              guint s = sl[e];
              if (idom[s] == G_MAXUINT32)
                continue;
              if (nid == G_MAXUINT32)
                {
                  nid = s;
                  continue;
                }
              guint f1 = s, f2 = nid;
              while (f1 != f2)
                {
                  while (po_num[f1] < po_num[f2])
                    f1 = idom[f1];
                  while (po_num[f2] < po_num[f1])
                    f2 = idom[f2];
                }
              nid = f1;
            }
          if (nid != G_MAXUINT32 && idom[b] != nid)
            {
              idom[b] = nid;
              changed = TRUE;
            }
        }
    }

  for (guint i = 0; i < n; i++)
    {
      guint b = block_of[i];
      if (i + 1 < start[b + 1])
        ipdom[i] = i + 1;
      else
        {
          guint d = idom[b];
          /* blocks that never reach the exit (endless loops) reconverge
           * only at the function's end */
          ipdom[i] = d == G_MAXUINT32 || d == X ? n : start[d];
        }
    }
  g_array_unref (succ);
  return ipdom;
}

/* ---- rendering --------------------------------------------------------- */

static const char *
sub_name (const WsPtxInst *in)
{
  switch ((WsPtxSub) in->sub)
    {
    case WS_SUB_NONE: return NULL;
    case WS_SUB_WMMA_LOAD: return "load";
    case WS_SUB_WMMA_STORE: return "store";
    case WS_SUB_WMMA_MMA: return "mma";
    case WS_SUB_CVT_TF32: return NULL; /* rendered as the type */
    case WS_SUB_MBAR_INIT: return "init";
    case WS_SUB_MBAR_ARRIVE: return "arrive";
    case WS_SUB_MBAR_ARRIVE_DROP: return "arrive_drop";
    case WS_SUB_MBAR_TEST_WAIT: return in->imm2 ? "test_wait.parity" : "test_wait";
    case WS_SUB_MBAR_TRY_WAIT: return in->imm2 ? "try_wait.parity" : "try_wait";
    case WS_SUB_MBAR_PENDING_COUNT: return "pending_count";
    case WS_SUB_MBAR_INVAL: return "inval";
    case WS_SUB_ADD: return "add";
    case WS_SUB_MIN: return "min";
    case WS_SUB_MAX: return "max";
    case WS_SUB_INC: return "inc";
    case WS_SUB_DEC: return "dec";
    case WS_SUB_CAS: return "cas";
    case WS_SUB_EXCH: return "exch";
    case WS_SUB_AND: return "and";
    case WS_SUB_OR: return "or";
    case WS_SUB_XOR: return "xor";
    case WS_SUB_UP: return "up";
    case WS_SUB_DOWN: return "down";
    case WS_SUB_BFLY: return "bfly";
    case WS_SUB_IDX: return "idx";
    case WS_SUB_ALL: return "all";
    case WS_SUB_ANY: return "any";
    case WS_SUB_UNI: return "uni";
    case WS_SUB_BALLOT: return "ballot";
    case WS_SUB_SYNC: return "sync";
    case WS_SUB_ARRIVE: return "arrive";
    case WS_SUB_RED_POPC: return "red.popc";
    case WS_SUB_RED_AND: return "red.and";
    case WS_SUB_RED_OR: return "red.or";
    case WS_SUB_FINITE: return "finite";
    case WS_SUB_INFINITE: return "infinite";
    case WS_SUB_NUMBER: return "number";
    case WS_SUB_NOTANUMBER: return "notanumber";
    case WS_SUB_NORMAL: return "normal";
    case WS_SUB_SUBNORMAL: return "subnormal";
    case WS_SUB_L: return "l";
    case WS_SUB_R: return "r";
    case WS_SUB_F4E: return "f4e";
    case WS_SUB_B4E: return "b4e";
    case WS_SUB_RC8: return "rc8";
    case WS_SUB_ECL: return "ecl";
    case WS_SUB_ECR: return "ecr";
    case WS_SUB_RC16: return "rc16";
    case WS_SUB_ANYSYNC: return "any.sync";
    case WS_SUB_ALLSYNC: return "all.sync";
    case WS_SUB_WARP_SYNC: return "warp.sync";
    case WS_SUB_COMMIT_GROUP: return "commit_group";
    case WS_SUB_WAIT_GROUP: return "wait_group";
    case WS_SUB_WAIT_ALL: return "wait_all";
    case WS_SUB_IDX_BRX: return "idx";
    case WS_SUB_TEX_1D: return "1d";
    case WS_SUB_TEX_2D: return "2d";
    case WS_SUB_TEX_3D: return "3d";
    case WS_SUB_TEX_A1D: return "a1d";
    case WS_SUB_TEX_A2D: return "a2d";
    case WS_SUB_TEX_CUBE: return "cube";
    case WS_SUB_TEX_ACUBE: return "acube";
    }
  return NULL;
}

static const char *const space_names[] = {
  [WS_SPACE_NONE] = NULL,       [WS_SPACE_GENERIC] = NULL,       [WS_SPACE_GLOBAL] = "global",
  [WS_SPACE_SHARED] = "shared", [WS_SPACE_LOCAL] = "local",      [WS_SPACE_CONST] = "const",
  [WS_SPACE_PARAM] = "param",   [WS_SPACE_FUNC_PARAM] = "param", [WS_SPACE_TEX] = "tex",
};

static const char *const cmp_names[] = {
  NULL, "eq",  "ne",  "lt",  "le",  "gt",  "ge",  "lo",  "ls",  "hi",
  "hs", "equ", "neu", "ltu", "leu", "gtu", "geu", "num", "nan",
};

static const char *const rnd_names[] = { NULL, "rn", "rz", "rm", "rp", "rni", "rzi", "rmi", "rpi", "rna" };

static void
append_reg (GString *s, const WsPtxFunction *fn, uint32_t slot, gboolean pred)
{
  if (slot == WS_REG_SINK)
    g_string_append_c (s, '_');
  else if (pred && slot < fn->n_preds)
    g_string_append (s, fn->pred_names[slot]);
  else if (!pred && slot < fn->n_regs)
    g_string_append (s, fn->reg_names[slot]);
  else
    g_string_append_printf (s, "%s?%u", pred ? "%p" : "%r", slot);
}

static void
append_imm (GString *s, uint64_t v, WsPtxType t)
{
  int size = ws_ptx_type_size (t);
  if (t == WS_T_F32)
    g_string_append_printf (s, "0f%08X", (guint) (v & 0xffffffffu));
  else if (t == WS_T_F64)
    g_string_append_printf (s, "0d%016" G_GINT64_MODIFIER "X", v);
  else if (t == WS_T_S8 || t == WS_T_S16 || t == WS_T_S32 || t == WS_T_S64)
    {
      int64_t x = (int64_t) v;
      if (size > 0 && size < 8)
        {
          int sh = 64 - 8 * size;
          x = (int64_t) (v << sh) >> sh;
        }
      g_string_append_printf (s, "%" G_GINT64_FORMAT, (gint64) x);
    }
  else if (v > 0xffff)
    g_string_append_printf (s, "0x%" G_GINT64_MODIFIER "x", v);
  else
    g_string_append_printf (s, "%" G_GUINT64_FORMAT, (guint64) v);
}

static const char *const sreg_names[] = {
  "%tid",
  "%ntid",
  "%ctaid",
  "%nctaid",
  "%laneid",
  "%warpid",
  "%nwarpid",
  "%smid",
  "%nsmid",
  "%gridid",
  "%clock",
  "%clock64",
  "%globaltimer",
  "%lanemask_eq",
  "%lanemask_le",
  "%lanemask_lt",
  "%lanemask_ge",
  "%lanemask_gt",
  "%dynamic_smem_size",
  "%total_smem_size",
  "%clusterid",
  "%nclusterid",
  "%cluster_ctaid",
  "%cluster_nctaid",
  "%envreg",
  "%pm",
};

static void
append_operand (GString *s, const WsPtxModule *m, const WsPtxFunction *fn, const WsPtxInst *in, const WsPtxOperand *o,
                WsPtxType t)
{
  switch ((WsPtxOperandKind) o->kind)
    {
    case WS_OPND_NONE: break;
    case WS_OPND_REG: append_reg (s, fn, o->reg, FALSE); break;
    case WS_OPND_PRED:
      if (o->neg)
        g_string_append_c (s, '!');
      append_reg (s, fn, o->reg, TRUE);
      break;
    case WS_OPND_SINK: g_string_append_c (s, '_'); break;
    case WS_OPND_IMM: append_imm (s, o->imm, t); break;
    case WS_OPND_SYMBOL:
    case WS_OPND_FUNC:
      if (o->kind == WS_OPND_SYMBOL && m && o->symbol < m->n_symbols)
        g_string_append (s, m->symbols[o->symbol].name);
      else if (o->kind == WS_OPND_FUNC && m && o->symbol < m->n_functions)
        g_string_append (s, m->functions[o->symbol].name);
      else
        g_string_append_printf (s, "sym?%u", o->symbol);
      if (o->offset)
        g_string_append_printf (s, "+%" G_GINT64_FORMAT, (gint64) o->offset);
      break;
    case WS_OPND_ADDR:
      g_string_append_c (s, '[');
      if (o->comp == WS_OPND_REG)
        append_reg (s, fn, o->reg, FALSE);
      else if (o->comp == WS_OPND_SYMBOL)
        {
          if (m && o->symbol < m->n_symbols)
            g_string_append (s, m->symbols[o->symbol].name);
          else
            g_string_append_printf (s, "sym?%u", o->symbol);
        }
      if (o->comp == WS_OPND_NONE)
        g_string_append_printf (s, "%" G_GINT64_FORMAT, (gint64) o->offset);
      else if (o->offset)
        g_string_append_printf (s, "%+" G_GINT64_FORMAT, (gint64) o->offset);
      g_string_append_c (s, ']');
      break;
    case WS_OPND_SPECIAL:
      if (o->sreg < G_N_ELEMENTS (sreg_names))
        g_string_append (s, sreg_names[o->sreg]);
      if (o->sreg == WS_SREG_TID || o->sreg == WS_SREG_NTID || o->sreg == WS_SREG_CTAID || o->sreg == WS_SREG_NCTAID
          || o->sreg == WS_SREG_CLUSTERID || o->sreg == WS_SREG_NCLUSTERID || o->sreg == WS_SREG_CLUSTER_CTAID
          || o->sreg == WS_SREG_CLUSTER_NCTAID)
        g_string_append_printf (s, ".%c", 'x' + MIN (o->comp, 2));
      else if (o->sreg == WS_SREG_ENVREG || o->sreg == WS_SREG_PM)
        g_string_append_printf (s, "%u", o->comp);
      break;
    case WS_OPND_VEC:
      g_string_append_c (s, '{');
      for (guint i = 0; i < o->count && i < WS_PTX_MAX_VEC; i++)
        {
          if (i)
            g_string_append (s, ", ");
          append_reg (s, fn, o->vec_regs[i], FALSE);
        }
      g_string_append_c (s, '}');
      break;
    case WS_OPND_LABEL:
      if (fn->label_names && o->target <= fn->n_insts && fn->label_names[o->target])
        g_string_append (s, fn->label_names[o->target]);
      else
        g_string_append_printf (s, "@%u", o->target);
      break;
    }
  (void) in;
}

/* wmma's modifiers in the order PTX writes them. */
static void
append_wmma_modifiers (GString *s, const WsPtxInst *in)
{
  static const char *const shapes[] = { NULL, "m16n16k16", "m32n8k16", "m8n32k16", "m16n16k8", "m8n8k4" };
  static const char *const elems[] = { NULL, "f16", "bf16", "tf32", "f32", "f64", "s8", "u8", "s32" };
  uint32_t desc = in->imm2;
  WsPtxWmmaShape shape = WS_PTX_WMMA_SHAPE (desc);
/* clang-format off */
#define ELEM(mat) (WS_PTX_WMMA_ELEM (desc, mat) < G_N_ELEMENTS (elems) && elems[WS_PTX_WMMA_ELEM (desc, mat)] \
                     ? elems[WS_PTX_WMMA_ELEM (desc, mat)] : "?")
  /* clang-format on */
  if (in->sub == WS_SUB_WMMA_MMA)
    {
      g_string_append_printf (s, ".mma.sync.aligned.%s.%s", WS_PTX_WMMA_COL_MAJOR (desc, WS_WMMA_A) ? "col" : "row",
                              WS_PTX_WMMA_COL_MAJOR (desc, WS_WMMA_B) ? "col" : "row");
      if (shape < G_N_ELEMENTS (shapes) && shapes[shape])
        g_string_append_printf (s, ".%s", shapes[shape]);
      g_string_append_printf (s, ".%s.%s.%s.%s", ELEM (WS_WMMA_D), ELEM (WS_WMMA_A), ELEM (WS_WMMA_B),
                              ELEM (WS_WMMA_C));
      if (in->rnd && in->rnd < G_N_ELEMENTS (rnd_names))
        g_string_append_printf (s, ".%s", rnd_names[in->rnd]);
      if (in->mods & WS_MOD_SATFINITE)
        g_string_append (s, ".satfinite");
      return;
    }
  WsPtxWmmaMatrix mat = WS_PTX_WMMA_MATRIX (desc);
  g_string_append_printf (s, ".%s.%c.sync.aligned.%s", in->sub == WS_SUB_WMMA_STORE ? "store" : "load", "abcd"[mat],
                          WS_PTX_WMMA_COL_MAJOR (desc, mat) ? "col" : "row");
  if (shape < G_N_ELEMENTS (shapes) && shapes[shape])
    g_string_append_printf (s, ".%s", shapes[shape]);
  if (in->space < G_N_ELEMENTS (space_names) && space_names[in->space])
    g_string_append_printf (s, ".%s", space_names[in->space]);
  g_string_append_printf (s, ".%s", ELEM (mat));
#undef ELEM
}

char *
ws_ptx_inst_to_string (const WsPtxModule *m, const WsPtxFunction *fn, const WsPtxInst *in)
{
  g_return_val_if_fail (fn != NULL && in != NULL, NULL);
  GString *s = g_string_new (NULL);
  if (in->guard != WS_REG_SINK)
    {
      g_string_append_c (s, '@');
      if (in->guard_neg)
        g_string_append_c (s, '!');
      append_reg (s, fn, in->guard, TRUE);
      g_string_append_c (s, ' ');
    }
  WsPtxOp op = in->op;
  g_string_append (s, ws_ptx_op_name (op));
  if (op == WS_OP_WMMA)
    {
      append_wmma_modifiers (s, in);
      goto operands;
    }
#define MOD(cond, str) \
  do \
    { \
      if (cond) \
        g_string_append (s, "." str); \
    } \
  while (0)
  gboolean sync_first = op == WS_OP_SHFL || op == WS_OP_VOTE || op == WS_OP_REDUX || op == WS_OP_ACTIVEMASK
                        || op == WS_OP_ELECT;
  MOD (sync_first && (in->mods & WS_MOD_SYNC), "sync");
  gboolean sub_late = op == WS_OP_ATOM || op == WS_OP_RED;
  const char *sub = op == WS_OP_PRMT || sub_late ? NULL : sub_name (in);
  if (sub && !(op == WS_OP_BAR && in->sub == WS_SUB_SYNC && in->type == WS_T_NONE && 0))
    g_string_append_printf (s, ".%s", sub);
  if ((op == WS_OP_BAR || op == WS_OP_BARRIER) && in->sub == WS_SUB_NONE && (in->mods & WS_MOD_SYNC))
    g_string_append (s, ".sync");
  if (in->cmp && in->cmp < G_N_ELEMENTS (cmp_names))
    g_string_append_printf (s, ".%s", cmp_names[in->cmp]);
  MOD (in->boolop == WS_BOOL_AND, "and");
  MOD (in->boolop == WS_BOOL_OR, "or");
  MOD (in->boolop == WS_BOOL_XOR, "xor");
  MOD (in->mods & WS_MOD_WEAK, "weak");
  MOD (in->mods & WS_MOD_VOLATILE, "volatile");
  MOD (in->mods & WS_MOD_RELAXED, "relaxed");
  MOD ((in->mods & WS_MOD_ACQUIRE) && (in->mods & WS_MOD_RELEASE), "acq_rel");
  MOD ((in->mods & WS_MOD_ACQUIRE) && !(in->mods & WS_MOD_RELEASE), "acquire");
  MOD ((in->mods & WS_MOD_RELEASE) && !(in->mods & WS_MOD_ACQUIRE), "release");
  MOD (in->mods & WS_MOD_SC, "sc");
  MOD (in->mods & WS_MOD_MMIO, "mmio");
  MOD (in->mods & WS_MOD_PROXY, "proxy");
  MOD (in->scope == WS_SCOPE_CTA, "cta");
  MOD (in->scope == WS_SCOPE_CLUSTER, "cluster");
  MOD (in->scope == WS_SCOPE_GPU && op == WS_OP_MEMBAR, "gl");
  MOD (in->scope == WS_SCOPE_GPU && op != WS_OP_MEMBAR, "gpu");
  MOD (in->scope == WS_SCOPE_SYS, "sys");
  static const char *const cache[] = { NULL, "ca", "cg", "cs", "lu", "cv", "wb", "wt" };
  if (op == WS_OP_CP_ASYNC && in->cache_op && in->cache_op < G_N_ELEMENTS (cache))
    g_string_append_printf (s, ".%s", cache[in->cache_op]);
  MOD (in->mods & WS_MOD_TO, "to");
  if (in->space < G_N_ELEMENTS (space_names) && space_names[in->space])
    g_string_append_printf (s, ".%s", space_names[in->space]);
  if (op == WS_OP_CP_ASYNC && in->sub == WS_SUB_NONE)
    g_string_append (s, ".global");
  if (sub_late && sub_name (in))
    g_string_append_printf (s, ".%s", sub_name (in));
  MOD (in->mods & WS_MOD_NC, "nc");
  if (op != WS_OP_CP_ASYNC && in->cache_op && in->cache_op < G_N_ELEMENTS (cache))
    g_string_append_printf (s, ".%s", cache[in->cache_op]);
  MOD (in->mods & WS_MOD_WIDE, "wide");
  MOD (in->mods & WS_MOD_HI, "hi");
  MOD (in->mods & WS_MOD_LO, "lo");
  MOD (in->mods & WS_MOD_CC, "cc");
  if (in->rnd && in->rnd < G_N_ELEMENTS (rnd_names))
    g_string_append_printf (s, ".%s", rnd_names[in->rnd]);
  MOD (in->mods & WS_MOD_APPROX, "approx");
  MOD (in->mods & WS_MOD_FULL, "full");
  MOD (in->mods & WS_MOD_FTZ, "ftz");
  MOD (in->mods & WS_MOD_SAT, "sat");
  MOD (in->mods & WS_MOD_SATFINITE, "satfinite");
  MOD (in->mods & WS_MOD_RELU, "relu");
  MOD (in->mods & WS_MOD_XORSIGN, "xorsign");
  MOD (in->mods & WS_MOD_ABS, "abs");
  MOD (in->mods & WS_MOD_NAN, "NaN");
  MOD (in->mods & WS_MOD_NOFTZ_F16, "noftz");
  MOD (in->mods & WS_MOD_SHIFTAMT, "shiftamt");
  MOD (in->mods & WS_MOD_CLAMP, "clamp");
  MOD (in->mods & WS_MOD_WRAP, "wrap");
  MOD (in->mods & WS_MOD_UNI, "uni");
  MOD (!sync_first && op != WS_OP_MATCH && op != WS_OP_BAR && op != WS_OP_BARRIER && (in->mods & WS_MOD_SYNC), "sync");
  MOD (in->mods & WS_MOD_ALIGNED, "aligned");
  if (in->vec > 1)
    g_string_append_printf (s, ".v%u", in->vec);
  if (op == WS_OP_CVT && in->sub == WS_SUB_CVT_TF32)
    g_string_append (s, ".tf32");
  else if (in->type)
    g_string_append_printf (s, ".%s", ws_ptx_type_name (in->type));
  if (in->type2)
    g_string_append_printf (s, ".%s", ws_ptx_type_name (in->type2));
  if (op == WS_OP_PRMT && in->sub)
    g_string_append_printf (s, ".%s", sub_name (in));
#undef MOD

operands:
  if (op == WS_OP_CALL && in->call < fn->n_calls)
    {
      const WsPtxCall *c = &fn->calls[in->call];
      g_string_append_c (s, ' ');
      if (c->n_rets)
        {
          g_string_append_c (s, '(');
          for (guint i = 0; i < c->n_rets; i++)
            g_string_append_printf (s, "%s%s", i ? ", " : "",
                                    m && c->rets[i] < m->n_symbols ? m->symbols[c->rets[i]].name : "?");
          g_string_append (s, "), ");
        }
      append_operand (s, m, fn, in, &in->src[0], WS_T_B64);
      g_string_append (s, ", (");
      for (guint i = 0; i < c->n_args; i++)
        g_string_append_printf (s, "%s%s", i ? ", " : "",
                                m && c->args[i] < m->n_symbols ? m->symbols[c->args[i]].name : "?");
      g_string_append_c (s, ')');
    }
  else
    {
      gboolean first = TRUE;
      for (guint i = 0; i < in->ndst && i < WS_PTX_MAX_DST; i++)
        {
          g_string_append (s, i ? "|" : " ");
          append_operand (s, m, fn, in, &in->dst[i], in->type);
          first = FALSE;
        }
      for (guint i = 0; i < in->nsrc && i < WS_PTX_MAX_SRC; i++)
        {
          g_string_append (s, first ? " " : ", ");
          first = FALSE;
          append_operand (s, m, fn, in, &in->src[i], ws_ptx_inst_src_type (in, i));
        }
      if (op == WS_OP_BRX && fn->label_names)
        g_string_append_printf (s, ", <table %u>", in->imm2);
    }
  g_string_append_c (s, ';');
  return g_string_free (s, FALSE);
}
