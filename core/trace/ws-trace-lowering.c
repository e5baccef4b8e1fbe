/* ws-trace-lowering.c: FMA contraction, constant-bank parameters and loads
 * issued early (the rules and their sources are in ws-trace-lowering.h). */
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

/* Value registers @in reads, with repetition; returns how many (at most
 * MAX_READS: a wmma.mma reads three fragments of up to eight). */
#define MAX_READS (WS_PTX_MAX_SRC * WS_PTX_MAX_VEC)
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
        for (guint j = 0; j < o->count && j < WS_PTX_MAX_VEC; j++)
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
        for (guint j = 0; j < o->count && j < WS_PTX_MAX_VEC; j++)
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
    case WS_OP_BRA:
    case WS_OP_BRX:
    case WS_OP_CALL:
    case WS_OP_RET:
    case WS_OP_EXIT:
    case WS_OP_TRAP: return TRUE;
    default: return FALSE;
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
  return in->op == op && (in->type == WS_T_F32 || in->type == WS_T_F64) && in->rnd == WS_RND_NONE
         && !(in->mods & WS_MOD_SAT) && in->ndst == 1 && in->dst[0].kind == WS_OPND_REG;
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
      uint32_t r[MAX_READS];
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
  g_autofree uint8_t *fused = g_new0 (uint8_t, fn->n_insts); /* the add already took a mul */
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
      if ((!is_contractible (add, WS_OP_ADD) && !is_contractible (add, WS_OP_SUB)) || add->type != mul->type
          || (add->mods & WS_MOD_FTZ) != (mul->mods & WS_MOD_FTZ) || !same_guard (mul, add))
        continue;
      /* Between the two: nothing writes the mul's result, its sources or
       * its guard, so the FMA at j reads what the mul would have read. */
      uint32_t srcs[MAX_READS];
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

/* ---- rule 3: loads issued early ------------------------------------------ */

/* The registers an instruction reads and writes, predicates numbered after
 * the value registers (n_regs + slot). */
typedef struct {
  uint32_t r[MAX_READS + WS_PTX_MAX_DST * WS_PTX_MAX_VEC + 4];
  guint n;
} RegList;

static void
reg_add (RegList *l, uint32_t r)
{
  if (r != WS_REG_SINK && l->n < G_N_ELEMENTS (l->r))
    l->r[l->n++] = r;
}

static void
reads_and_writes (const WsPtxFunction *fn, const WsPtxInst *in, RegList *rd, RegList *wr)
{
  uint32_t v[MAX_READS];
  guint n = reads_of (in, v);
  rd->n = wr->n = 0;
  for (guint k = 0; k < n; k++)
    reg_add (rd, v[k]);
  if (in->guard != WS_REG_SINK)
    reg_add (rd, fn->n_regs + in->guard);
  for (guint i = 0; i < in->nsrc && i < WS_PTX_MAX_SRC; i++)
    if (in->src[i].kind == WS_OPND_PRED)
      reg_add (rd, fn->n_regs + in->src[i].reg);
  for (guint i = 0; i < in->ndst && i < WS_PTX_MAX_DST; i++)
    {
      const WsPtxOperand *o = &in->dst[i];
      if (o->kind == WS_OPND_REG)
        reg_add (wr, o->reg);
      else if (o->kind == WS_OPND_PRED)
        reg_add (wr, fn->n_regs + o->reg);
      else if (o->kind == WS_OPND_VEC)
        for (guint j = 0; j < o->count && j < WS_PTX_MAX_VEC; j++)
          reg_add (wr, o->vec_regs[j]);
    }
}

static gboolean
lists_meet (const RegList *a, const RegList *b)
{
  for (guint i = 0; i < a->n; i++)
    for (guint j = 0; j < b->n; j++)
      if (a->r[i] == b->r[j])
        return TRUE;
  return FALSE;
}

/* 32-bit register units of value register @r. */
static guint
reg_units (const WsPtxFunction *fn, uint32_t r)
{
  int bytes = r < fn->n_regs && fn->reg_types ? ws_ptx_type_size ((WsPtxType) fn->reg_types[r]) : 4;
  return (guint) MAX (1, (bytes + 3) / 4);
}

typedef enum {
  SCHED_ORDERED,   /* keeps its place and everything before it: control, barriers, stores, atomics */
  SCHED_LOAD,      /* may issue ahead of delayed instructions */
  SCHED_DELAYABLE, /* arithmetic: may wait behind later loads */
} SchedClass;

static SchedClass
sched_class (const WsPtxInst *in, uint8_t lowering)
{
  if (lowering == WS_TRACE_LOWERING_ABSORBED_PARAM)
    return SCHED_LOAD;
  if (lowering == WS_TRACE_LOWERING_ABSORBED_MUL)
    return SCHED_DELAYABLE;
  if (ends_block (in))
    return SCHED_ORDERED;
  switch ((WsOpClass) in->opclass)
    {
    case WS_OPCLASS_LD: return in->op == WS_OP_LD || in->op == WS_OP_LDU ? SCHED_LOAD : SCHED_ORDERED;
    case WS_OPCLASS_ALU:
    case WS_OPCLASS_FP32:
    case WS_OPCLASS_FP64:
    case WS_OPCLASS_SFU:
    case WS_OPCLASS_WARP:
    case WS_OPCLASS_TENSOR: return SCHED_DELAYABLE;
    default: return SCHED_ORDERED;
    }
}

/* Per basic block, the 32-bit register units of the value registers live
 * at its entry (backward data flow; a guarded write does not kill). */
static guint *
live_in_units (const WsPtxFunction *fn, const uint32_t *block, guint n_blocks)
{
  guint n = fn->n_insts, words = (fn->n_regs + 63) / 64;
  guint *units = g_new0 (guint, MAX (n_blocks, 1));
  if (words == 0)
    return units;
  g_autofree guint *first = g_new (guint, n_blocks + 1);
  for (guint i = n; i-- > 0;)
    first[block[i]] = i;
  first[n_blocks] = n;
  g_autofree uint64_t *use = g_new0 (uint64_t, (gsize) n_blocks * words);
  g_autofree uint64_t *def = g_new0 (uint64_t, (gsize) n_blocks * words);
  g_autofree uint64_t *live = g_new0 (uint64_t, (gsize) n_blocks * words);
  for (guint b = 0; b < n_blocks; b++)
    for (guint i = first[b]; i < first[b + 1]; i++)
      {
        uint32_t r[MAX_READS];
        guint nr = reads_of (&fn->insts[i], r);
        for (guint k = 0; k < nr; k++)
          if (r[k] < fn->n_regs && !(def[b * words + r[k] / 64] >> (r[k] % 64) & 1))
            use[b * words + r[k] / 64] |= 1ull << (r[k] % 64);
        const WsPtxInst *in = &fn->insts[i];
        if (in->guard != WS_REG_SINK)
          continue;
        for (guint d = 0; d < in->ndst && d < WS_PTX_MAX_DST; d++)
          {
            const WsPtxOperand *o = &in->dst[d];
            if (o->kind == WS_OPND_REG && o->reg < fn->n_regs)
              def[b * words + o->reg / 64] |= 1ull << (o->reg % 64);
            else if (o->kind == WS_OPND_VEC)
              for (guint j = 0; j < o->count && j < WS_PTX_MAX_VEC; j++)
                if (o->vec_regs[j] < fn->n_regs)
                  def[b * words + o->vec_regs[j] / 64] |= 1ull << (o->vec_regs[j] % 64);
          }
      }
  /* Successors: the fall-through unless the block ends in an unguarded
   * transfer, the label of a bra, every branch-table target of a brx. */
  g_autofree uint64_t *out = g_new (uint64_t, words);
  gboolean changed = TRUE;
  while (changed)
    {
      changed = FALSE;
      for (guint b = n_blocks; b-- > 0;)
        {
          const WsPtxInst *last = &fn->insts[first[b + 1] - 1];
          memset (out, 0, words * sizeof (uint64_t));
          gboolean falls = !ends_block (last) || last->guard != WS_REG_SINK || last->op == WS_OP_CALL;
          if (falls && b + 1 < n_blocks)
            for (guint w = 0; w < words; w++)
              out[w] |= live[(b + 1) * words + w];
          for (guint s = 0; s < last->nsrc && s < WS_PTX_MAX_SRC; s++)
            if (last->op == WS_OP_BRA && last->src[s].kind == WS_OPND_LABEL && last->src[s].target < n)
              for (guint w = 0; w < words; w++)
                out[w] |= live[block[last->src[s].target] * words + w];
          if (last->op == WS_OP_BRX)
            for (guint t = 0; t < fn->n_branch_tables; t++)
              for (guint j = 0; j < fn->n_branch_targets[t]; j++)
                if (fn->branch_tables[t][j] < n)
                  for (guint w = 0; w < words; w++)
                    out[w] |= live[block[fn->branch_tables[t][j]] * words + w];
          for (guint w = 0; w < words; w++)
            {
              uint64_t v = use[b * words + w] | (out[w] & ~def[b * words + w]);
              if (v != live[b * words + w])
                {
                  live[b * words + w] = v;
                  changed = TRUE;
                }
            }
        }
    }
  for (guint b = 0; b < n_blocks; b++)
    for (guint w = 0; w < words; w++)
      for (uint64_t m = live[b * words + w]; m; m &= m - 1)
        units[b] += reg_units (fn, w * 64 + (guint) __builtin_ctzll (m));
  return units;
}

/* The static replay of rule 3 within one basic block: the queue of waiting
 * arithmetic, and the loaded values not yet read by an issued instruction
 * (their 32-bit units are `pending`, bounded by `budget`). */
typedef struct {
  const WsPtxFunction *fn;
  uint32_t queue[WS_TRACE_SCHEDULE_QUEUE];
  RegList queue_rd[WS_TRACE_SCHEDULE_QUEUE], queue_wr[WS_TRACE_SCHEDULE_QUEUE]; /* their registers */
  guint nq;
  uint32_t live_reg[128];
  guint live_units[128];
  guint n_live, pending, budget;
} Sched;

/* An instruction that reads @rd issues: the loaded values it reads are
 * consumed. */
static void
sched_emit (Sched *sc, const RegList *rd)
{
  for (guint k = 0; k < sc->n_live;)
    {
      gboolean read = FALSE;
      for (guint r = 0; r < rd->n && !read; r++)
        read = rd->r[r] == sc->live_reg[k];
      if (read)
        {
          sc->pending -= sc->live_units[k];
          sc->live_reg[k] = sc->live_reg[sc->n_live - 1];
          sc->live_units[k] = sc->live_units[sc->n_live - 1];
          sc->n_live--;
        }
      else
        k++;
    }
}

/* The @n oldest waiting instructions issue; returns @n. */
static guint
sched_drain (Sched *sc, guint n)
{
  n = MIN (n, sc->nq);
  for (guint k = 0; k < n; k++)
    sched_emit (sc, &sc->queue_rd[k]);
  memmove (sc->queue, sc->queue + n, (sc->nq - n) * sizeof sc->queue[0]);
  memmove (sc->queue_rd, sc->queue_rd + n, (sc->nq - n) * sizeof sc->queue_rd[0]);
  memmove (sc->queue_wr, sc->queue_wr + n, (sc->nq - n) * sizeof sc->queue_wr[0]);
  sc->nq -= n;
  return n;
}

/* Rule 3 on function @fn whose instruction i has static id base + i;
 * returns the number of loads issued ahead of an earlier instruction. */
static guint
schedule_loads (const WsPtxFunction *fn, uint32_t base, const uint8_t *lowering, uint32_t regs_per_thread,
                uint8_t *schedule)
{
  if (fn->n_insts == 0)
    return 0;
  g_autofree uint32_t *block = basic_blocks (fn);
  guint n_blocks = block[fn->n_insts - 1] + 1;
  g_autofree guint *live = live_in_units (fn, block, n_blocks);
  guint regs = regs_per_thread ? regs_per_thread : WS_TRACE_SCHEDULE_MAX_REGS;
  /* Arithmetic a later load of its block depends on (an address, a guard)
   * issues with the loads, not behind them: backward over each block,
   * registers stamped with the block they are needed in. */
  guint n_ids = fn->n_regs + fn->n_preds;
  g_autofree uint32_t *needed = g_new0 (uint32_t, MAX (n_ids, 1));
  g_autofree uint8_t *feeds_load = g_new0 (uint8_t, fn->n_insts);
  for (guint i = fn->n_insts; i-- > 0;)
    {
      SchedClass c = sched_class (&fn->insts[i], lowering[base + i]);
      if (c == SCHED_ORDERED)
        continue;
      RegList rd, wr;
      reads_and_writes (fn, &fn->insts[i], &rd, &wr);
      uint32_t stamp = block[i] + 1;
      gboolean mark = c == SCHED_LOAD;
      for (guint w = 0; w < wr.n && !mark; w++)
        mark = wr.r[w] < n_ids && needed[wr.r[w]] == stamp;
      if (!mark)
        continue;
      feeds_load[i] = c == SCHED_DELAYABLE;
      for (guint r = 0; r < rd.n; r++)
        if (rd.r[r] < n_ids)
          needed[rd.r[r]] = stamp;
    }
  guint hoisted = 0;
  Sched sc = { .fn = fn };
  for (guint i = 0; i < fn->n_insts; i++)
    {
      const WsPtxInst *in = &fn->insts[i];
      guint drain = 0;
      if (i == 0 || block[i] != block[i - 1])
        {
          /* the queue never outlives its basic block */
          drain = WS_TRACE_SCHEDULE_DRAIN_ALL;
          sched_drain (&sc, sc.nq);
          sc.n_live = sc.pending = 0;
          sc.budget = regs > live[block[i]] ? regs - live[block[i]] : 0;
        }
      RegList rd, wr;
      reads_and_writes (fn, in, &rd, &wr);
      SchedClass c = sched_class (in, lowering[base + i]);
      if (feeds_load[i])
        c = SCHED_LOAD;
      gboolean delay = FALSE;
      switch (c)
        {
        case SCHED_DELAYABLE:
          if (sc.nq == WS_TRACE_SCHEDULE_QUEUE)
            drain = MAX (drain, sched_drain (&sc, 1));
          delay = TRUE;
          break;
        case SCHED_LOAD:
          {
            guint units = 0;
            if (!feeds_load[i] && lowering[base + i] != WS_TRACE_LOWERING_ABSORBED_PARAM)
              for (guint w = 0; w < wr.n; w++)
                if (wr.r[w] < fn->n_regs)
                  units += reg_units (fn, wr.r[w]);
            /* whatever it depends on issues first, with everything queued
             * before that ... */
            guint need = 0;
            for (guint q = 0; q < sc.nq; q++)
              if (lists_meet (&rd, &sc.queue_wr[q]) || lists_meet (&wr, &sc.queue_rd[q])
                  || lists_meet (&wr, &sc.queue_wr[q]))
                need = q + 1;
            guint done = sched_drain (&sc, need);
            /* ... then the oldest waiting arithmetic until the loaded
             * values fit in the registers (each consumer frees its loads') */
            while (sc.nq > 0 && sc.pending + units > sc.budget)
              done += sched_drain (&sc, 1);
            if (drain != WS_TRACE_SCHEDULE_DRAIN_ALL)
              drain = sc.nq == 0 && done > 0 ? WS_TRACE_SCHEDULE_DRAIN_ALL : done;
            if (sc.nq > 0 && !feeds_load[i])
              hoisted++;
            sched_emit (&sc, &rd);
            if (units > 0)
              for (guint w = 0; w < wr.n && sc.n_live < G_N_ELEMENTS (sc.live_reg); w++)
                if (wr.r[w] < fn->n_regs)
                  {
                    sc.live_reg[sc.n_live] = wr.r[w];
                    sc.live_units[sc.n_live++] = reg_units (fn, wr.r[w]);
                    sc.pending += reg_units (fn, wr.r[w]);
                  }
          }
          break;
        case SCHED_ORDERED:
          if (sc.nq > 0)
            drain = WS_TRACE_SCHEDULE_DRAIN_ALL;
          sched_drain (&sc, sc.nq);
          sched_emit (&sc, &rd);
          break;
        }
      schedule[base + i] = (uint8_t) ((delay ? WS_TRACE_SCHEDULE_DELAY : 0)
                                      | (MIN (drain, WS_TRACE_SCHEDULE_DRAIN_ALL) << WS_TRACE_SCHEDULE_DRAIN_SHIFT));
      if (delay)
        {
          sc.queue_rd[sc.nq] = rd;
          sc.queue_wr[sc.nq] = wr;
          sc.queue[sc.nq++] = i;
        }
    }
  return hoisted;
}

/* Rule 2: ld.param of a kernel parameter at a symbol + constant offset. */
static gboolean
is_param_operand (const WsPtxInst *in)
{
  return (in->op == WS_OP_LD) && in->space == WS_SPACE_PARAM && in->nsrc >= 1 && in->src[0].kind == WS_OPND_ADDR
         && in->src[0].comp == WS_OPND_SYMBOL;
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
                           guint n_insts, uint32_t regs_per_thread, uint8_t *lowering, WsTraceStaticInst *machine,
                           uint8_t *schedule, guint *n_hoisted)
{
  g_return_val_if_fail (n_insts == 0 || (insts != NULL && lowering != NULL && machine != NULL), 0);
  memset (lowering, WS_TRACE_LOWERING_ISSUE, n_insts);
  if (schedule != NULL)
    memset (schedule, 0, n_insts);
  if (n_hoisted != NULL)
    *n_hoisted = 0;
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

  g_autofree uint32_t *partner = g_new (uint32_t, n_insts); /* FMA: its absorbed mul */
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
  if (schedule != NULL)
    {
      guint hoisted = 0;
      for (guint f = 0; f < module->n_functions; f++)
        if (fn_base[f] != G_MAXUINT32)
          hoisted += schedule_loads (&module->functions[f], fn_base[f], lowering, regs_per_thread, schedule);
      if (hoisted == 0)
        memset (schedule, 0, n_insts);
      if (n_hoisted != NULL)
        *n_hoisted = hoisted;
    }
  return absorbed;
}
