/* ws-trace-lowering.c: FMA contraction and constant-bank parameters (the
 * rules and their sources are in ws-trace-lowering.h). */
#define G_LOG_DOMAIN "ws-trace"

#include <string.h>

#include "trace/ws-trace-lowering.h"

#define NO_SLOT 0xffff

const char *
ws_trace_lowering_name (WsTraceLowering l)
{
  switch (l)
    {
    case WS_TRACE_LOWERING_ISSUE: return "issue";
    case WS_TRACE_LOWERING_FMA: return "fma";
    case WS_TRACE_LOWERING_ABSORBED_MUL: return "absorbed-mul";
    case WS_TRACE_LOWERING_ABSORBED_PARAM: return "absorbed-param";
    default: return "unknown";
    }
}

/* ---- register reads and writes of a PTX instruction (value registers) ---- */

/* Value registers @in reads, with repetition; returns how many (at most 16). */
static guint
reads_of (const WsPtxInst *in, uint32_t *out)
{
  guint n = 0;
  for (guint i = 0; i < in->nsrc && i < WS_PTX_MAX_SRC; i++)
    {
      const WsPtxOperand *o = &in->src[i];
      if (o->kind == WS_OPND_REG)
        out[n++] = o->reg;
      else if (o->kind == WS_OPND_ADDR && o->comp == WS_OPND_REG)
        out[n++] = o->reg;
      else if (o->kind == WS_OPND_VEC)
        for (guint j = 0; j < o->count && j < 4; j++)
          if (o->vec_regs[j] != WS_REG_SINK)
            out[n++] = o->vec_regs[j];
    }
  return n;
}

static gboolean
writes_reg (const WsPtxInst *in, uint32_t reg)
{
  for (guint i = 0; i < in->ndst && i < WS_PTX_MAX_DST; i++)
    {
      const WsPtxOperand *o = &in->dst[i];
      if (o->kind == WS_OPND_REG && o->reg == reg)
        return TRUE;
      if (o->kind == WS_OPND_VEC)
        for (guint j = 0; j < o->count && j < 4; j++)
          if (o->vec_regs[j] == reg)
            return TRUE;
    }
  return FALSE;
}

static gboolean
writes_pred (const WsPtxInst *in, uint32_t pred)
{
  for (guint i = 0; i < in->ndst && i < WS_PTX_MAX_DST; i++)
    if (in->dst[i].kind == WS_OPND_PRED && in->dst[i].reg == pred)
      return TRUE;
  return FALSE;
}

/* ---- basic blocks --------------------------------------------------------- */

static gboolean
ends_block (const WsPtxInst *in)
{
  switch ((WsPtxOp) in->op)
    {
    case WS_OP_BRA: case WS_OP_BRX: case WS_OP_CALL: case WS_OP_RET: case WS_OP_EXIT: case WS_OP_TRAP:
      return TRUE;
    default:
      return FALSE;
    }
}

/* block[i]: the basic block of instruction i (a new block starts at every
 * label, branch target and after every control transfer). */
static uint32_t *
basic_blocks (const WsPtxFunction *fn)
{
  g_autofree uint8_t *leader = g_new0 (uint8_t, fn->n_insts + 1);
  leader[0] = 1;
  for (guint i = 0; i < fn->n_insts; i++)
    {
      const WsPtxInst *in = &fn->insts[i];
      if (fn->label_names != NULL && fn->label_names[i] != NULL)
        leader[i] = 1;
      if (ends_block (in))
        leader[i + 1] = 1;
      for (guint s = 0; s < in->nsrc && s < WS_PTX_MAX_SRC; s++)
        if (in->src[s].kind == WS_OPND_LABEL && in->src[s].target < fn->n_insts)
          leader[in->src[s].target] = 1;
    }
  for (guint t = 0; t < fn->n_branch_tables; t++)
    for (guint j = 0; j < fn->n_branch_targets[t]; j++)
      if (fn->branch_tables[t][j] < fn->n_insts)
        leader[fn->branch_tables[t][j]] = 1;
  uint32_t *block = g_new (uint32_t, MAX (fn->n_insts, 1));
  uint32_t b = 0;
  for (guint i = 0; i < fn->n_insts; i++)
    {
      if (leader[i] && i > 0)
        b++;
      block[i] = b;
    }
  return block;
}

/* ---- the rules ------------------------------------------------------------ */

static gboolean
is_contractible (const WsPtxInst *in, WsPtxOp op)
{
  return in->op == op && (in->type == WS_T_F32 || in->type == WS_T_F64) && in->rnd == WS_RND_NONE &&
         !(in->mods & WS_MOD_SAT) && in->ndst == 1 && in->dst[0].kind == WS_OPND_REG;
}

static gboolean
same_guard (const WsPtxInst *a, const WsPtxInst *b)
{
  return a->guard == b->guard && (a->guard == WS_REG_SINK || a->guard_neg == b->guard_neg);
}

/* Static slot @slot among @si's sources? */
static int
src_index (const WsTraceStaticInst *si, uint32_t slot)
{
  for (int s = 0; s < si->n_src && s < 4; s++)
    if (si->src[s] == slot)
      return s;
  return -1;
}

/* Rule 1 on function @fn whose instruction i has static id base + i. */
static void
contract_fmas (const WsPtxFunction *fn, uint32_t base, const WsTraceStaticInst *insts, uint8_t *lowering,
               uint32_t *partner)
{
  if (fn->n_insts == 0 || fn->n_regs == 0)
    return;
  /* Readers of every value register over the whole function: the mul's
   * result must be read by one instruction only (then it is dead after it,
   * whatever the control flow). */
  g_autofree uint32_t *n_readers = g_new0 (uint32_t, fn->n_regs);
  g_autofree uint32_t *reader = g_new (uint32_t, fn->n_regs);
  for (guint i = 0; i < fn->n_insts; i++)
    {
      uint32_t r[16];
      guint n = reads_of (&fn->insts[i], r);
      for (guint k = 0; k < n; k++)
        {
          if (r[k] >= fn->n_regs)
            continue;
          /* an instruction reading a register twice counts as two readers */
          n_readers[r[k]]++;
          reader[r[k]] = i;
        }
    }
  g_autofree uint32_t *block = basic_blocks (fn);
  g_autofree uint8_t *fused = g_new0 (uint8_t, fn->n_insts);   /* the add already took a mul */
  for (guint i = 0; i < fn->n_insts; i++)
    {
      const WsPtxInst *mul = &fn->insts[i];
      if (!is_contractible (mul, WS_OP_MUL))
        continue;
      uint32_t d = mul->dst[0].reg;
      if (d >= fn->n_regs || n_readers[d] != 1)
        continue;
      guint j = reader[d];
      if (j <= i || block[j] != block[i] || fused[j])
        continue;
      const WsPtxInst *add = &fn->insts[j];
      if ((!is_contractible (add, WS_OP_ADD) && !is_contractible (add, WS_OP_SUB)) || add->type != mul->type ||
          (add->mods & WS_MOD_FTZ) != (mul->mods & WS_MOD_FTZ) || !same_guard (mul, add))
        continue;
      /* Between the two: nothing writes the mul's result, its sources or
       * its guard, so the FMA at j reads what the mul would have read. */
      uint32_t srcs[16];
      guint n_srcs = reads_of (mul, srcs);
      gboolean clean = TRUE;
      for (guint k = i + 1; k < j && clean; k++)
        {
          const WsPtxInst *x = &fn->insts[k];
          if (writes_reg (x, d) || (mul->guard != WS_REG_SINK && writes_pred (x, mul->guard)))
            clean = FALSE;
          for (guint s = 0; s < n_srcs && clean; s++)
            if (writes_reg (x, srcs[s]))
              clean = FALSE;
        }
      if (!clean)
        continue;
      /* The recorded instructions must name the same registers (they come
       * from the same parse; a hand-made trace may not). */
      const WsTraceStaticInst *sm = &insts[base + i], *sa = &insts[base + j];
      if (sm->n_dst != 1 || sm->dst[0] != d || src_index (sa, d) < 0 || sm->n_src + sa->n_src - 1 > 4)
        continue;
      lowering[base + i] = WS_TRACE_LOWERING_ABSORBED_MUL;
      lowering[base + j] = WS_TRACE_LOWERING_FMA;
      partner[base + j] = base + i;
      fused[j] = 1;
    }
}

/* Rule 2: ld.param of a kernel parameter at a symbol + constant offset. */
static gboolean
is_param_operand (const WsPtxInst *in)
{
  return (in->op == WS_OP_LD) && in->space == WS_SPACE_PARAM && in->nsrc >= 1 && in->src[0].kind == WS_OPND_ADDR &&
         in->src[0].comp == WS_OPND_SYMBOL;
}

/* Does function @fn's code match @n static instructions from @insts? */
static gboolean
matches (const WsPtxFunction *fn, const WsTraceStaticInst *insts, guint n)
{
  if (fn->n_insts > n)
    return FALSE;
  for (guint i = 0; i < fn->n_insts; i++)
    if (insts[i].ptx_line != fn->insts[i].line || insts[i].op != (uint8_t) fn->insts[i].op)
      return FALSE;
  return TRUE;
}

static void
machine_table (const WsTraceStaticInst *insts, guint n, const uint8_t *lowering, const uint32_t *partner,
               WsTraceStaticInst *machine)
{
  memcpy (machine, insts, sizeof (WsTraceStaticInst) * n);
  for (guint i = 0; i < n; i++)
    {
      WsTraceStaticInst *m = &machine[i];
      if (!ws_trace_lowering_issues (lowering[i]))
        {
          m->n_src = m->n_dst = 0;
          m->dst[0] = m->dst[1] = NO_SLOT;
          for (int s = 0; s < 4; s++)
            m->src[s] = NO_SLOT;
        }
      else if (lowering[i] == WS_TRACE_LOWERING_FMA)
        {
          /* a * b + c: the add's other source and the mul's sources */
          const WsTraceStaticInst *mul = &insts[partner[i]];
          uint16_t d = mul->dst[0];
          uint8_t ns = 0;
          uint16_t src[4] = { NO_SLOT, NO_SLOT, NO_SLOT, NO_SLOT };
          for (int s = 0; s < mul->n_src && s < 4 && ns < 4; s++)
            src[ns++] = mul->src[s];
          gboolean dropped = FALSE;
          for (int s = 0; s < insts[i].n_src && s < 4 && ns < 4; s++)
            {
              if (insts[i].src[s] == d && !dropped)
                {
                  dropped = TRUE;
                  continue;
                }
              src[ns++] = insts[i].src[s];
            }
          m->op = WS_OP_FMA;
          m->n_src = ns;
          memcpy (m->src, src, sizeof src);
        }
    }
}

guint
ws_trace_lowering_compute (const WsPtxModule *module, const char *kernel_name, const WsTraceStaticInst *insts,
                           guint n_insts, uint8_t *lowering, WsTraceStaticInst *machine)
{
  g_return_val_if_fail (n_insts == 0 || (insts != NULL && lowering != NULL && machine != NULL), 0);
  memset (lowering, WS_TRACE_LOWERING_ISSUE, n_insts);
  if (n_insts > 0)
    memcpy (machine, insts, sizeof (WsTraceStaticInst) * n_insts);
  if (module == NULL || kernel_name == NULL || n_insts == 0)
    return 0;
  int kf = ws_ptx_module_find_function (module, kernel_name);
  if (kf < 0 || !module->functions[kf].is_entry || !matches (&module->functions[kf], insts, n_insts))
    {
      g_debug ("kernel '%s': the PTX text does not match the recorded instructions; no lowering", kernel_name);
      return 0;
    }
  /* Static ids: the kernel, then the functions it calls in module order
   * (core/emu); a function the kernel never reaches has none, so each is
   * placed only where its instructions match. */
  g_autofree uint32_t *fn_base = g_new (uint32_t, MAX (module->n_functions, 1));
  for (guint f = 0; f < module->n_functions; f++)
    fn_base[f] = G_MAXUINT32;
  fn_base[kf] = 0;
  uint32_t next = module->functions[kf].n_insts;
  for (guint f = 0; f < module->n_functions && next < n_insts; f++)
    {
      const WsPtxFunction *fn = &module->functions[f];
      if ((int) f == kf || fn->is_extern || !fn->has_body || fn->n_insts == 0)
        continue;
      if (matches (fn, insts + next, n_insts - next))
        {
          fn_base[f] = next;
          next += fn->n_insts;
        }
    }

  g_autofree uint32_t *partner = g_new (uint32_t, n_insts);   /* FMA: its absorbed mul */
  for (guint i = 0; i < n_insts; i++)
    partner[i] = G_MAXUINT32;
  for (guint f = 0; f < module->n_functions; f++)
    {
      if (fn_base[f] == G_MAXUINT32)
        continue;
      const WsPtxFunction *fn = &module->functions[f];
      contract_fmas (fn, fn_base[f], insts, lowering, partner);
      if (fn->is_entry)
        for (guint i = 0; i < fn->n_insts; i++)
          if (is_param_operand (&fn->insts[i]))
            lowering[fn_base[f] + i] = WS_TRACE_LOWERING_ABSORBED_PARAM;
    }

  guint absorbed = 0;
  for (guint i = 0; i < n_insts; i++)
    if (!ws_trace_lowering_issues (lowering[i]))
      absorbed++;
  machine_table (insts, n_insts, lowering, partner, machine);
  return absorbed;
}
