/* ws-emu-instrument.c: the bridge between the interpreter's decoded
 * instructions (EInst, warps, masks) and the tool-facing WsInstrSite of the SDK. */
#define G_LOG_DOMAIN "ws-instrument"

#include "emu/ws-emu-instrument.h"

#include <string.h>

static gboolean
is_pred_writer (int h)
{
  return h == H_MOV_PRED || h == H_SETP || h == H_SETP_S32 || h == H_SETP_U32 || h == H_SETP_S64 || h == H_SETP_U64
         || h == H_SETP_F32 || h == H_SETP_F64 || h == H_PREDLOGIC || h == H_TESTP || h == H_ISSPACEP;
}

/* Handlers whose destinations are not written at the instruction itself
 * (control flow, barriers) or whose destination kind depends on the form
 * (vote, match): not reported as register writers. */
static gboolean
is_gpr_writer (int h)
{
  switch (h)
    {
    case H_NOP:
    case H_BRA:
    case H_EXIT:
    case H_RET:
    case H_CALL:
    case H_BAR:
    case H_TRAP:
    case H_ST:
    case H_VOTE:
    case H_MATCH:
    case H_FENCE:
    case H_BRX:
    case H_CP_ASYNC:
    case H_ELECT: return FALSE;
    default: return !is_pred_writer (h);
    }
}

static int
dst_bits_of (const EInst *in)
{
  switch (in->h)
    {
    case H_MULWIDE_S32:
    case H_MULWIDE_U32:
    case H_MADWIDE_S32:
    case H_MADWIDE_U32: return 64;
    default:
      {
        int b = ws_ptx_type_size ((WsPtxType) in->type) * 8;
        if (in->h == H_PACK)
          return b > 0 ? b : 64;
        return b > 0 && b <= 64 ? b : 32;
      }
    }
}

/* General-register destinations that are not sinks. */
static guint
gpr_dsts (const EFunc *fn, const EInst *in, uint32_t rows[4])
{
  guint n = 0, max;
  if (!is_gpr_writer (in->h))
    return 0;
  max = (in->h == H_LD || in->h == H_UNPACK) ? in->vec : (in->h == H_SHFL ? 1 : MIN (in->ndst, 1));
  for (guint i = 0; i < max && i < 4; i++)
    if (in->d[i] != WS_REG_SINK && in->d[i] != fn->sink_row)
      rows[n++] = in->d[i];
  return n;
}

static guint
pred_dsts (const EFunc *fn, const EInst *in, uint32_t slots[2])
{
  guint n = 0;
  if (!is_pred_writer (in->h))
    return 0;
  for (guint i = 0; i < MIN (in->ndst, 2); i++)
    if (in->d[i] != WS_REG_SINK && in->d[i] != fn->sink_pred)
      slots[n++] = in->d[i];
  return n;
}

static uint8_t
classify (const EFunc *fn, const EInst *in)
{
  uint8_t f = 0;
  uint32_t rows[4], slots[2];
  if ((in->h == H_LD || in->h == H_ST || in->h == H_ATOM) && !(in->addr_param && !in->has_base))
    f |= WS_INSTR_AT_MEMORY;
  if (in->h == H_BRA && in->guard != WS_REG_SINK)
    f |= WS_INSTR_AT_COND_BRANCH;
  if (in->h == H_CALL)
    f |= WS_INSTR_AT_CALL;
  if (in->h == H_BRA || in->h == H_BRX || in->h == H_CALL || in->h == H_RET || in->h == H_EXIT)
    f |= WS_INSTR_AT_CONTROL;
  if (gpr_dsts (fn, in, rows) > 0 || pred_dsts (fn, in, slots) > 0)
    f |= WS_INSTR_AT_REG_WRITE;
  return f;
}

void
ws_emu_instr_launch_begin (Launch *L)
{
  WsEmuFunction *k = L->k;
  guint nf = k->module->ptx->n_functions;
  uint8_t *flags = g_new0 (uint8_t, MAX (k->n_static, 1));
  for (guint f = 0; f < nf; f++)
    {
      const EFunc *ef = k->funcs[f];
      if (ef == NULL)
        continue;
      for (guint pc = 0; pc < ef->n_insts; pc++)
        {
          const EInst *in = &ef->code[pc];
          uint32_t id = ef->static_base + pc;
          flags[id] |= classify (ef, in);
          /* basic-block leaders: entry, branch targets, after control flow */
          if (pc == 0)
            flags[id] |= WS_INSTR_AT_BLOCK;
          if (in->h == H_BRA && in->target < ef->n_insts)
            flags[ef->static_base + in->target] |= WS_INSTR_AT_BLOCK;
          if ((in->h == H_BRA || in->h == H_BRX || in->h == H_CALL || in->h == H_BAR) && pc + 1 < ef->n_insts)
            flags[id + 1] |= WS_INSTR_AT_BLOCK;
        }
    }
  L->instr = ws_instrument_launch_begin (L->emu->opt.instrument, k->name, L->grid, L->block, k->n_static,
                                         k->static_insts, flags);
}

void
ws_emu_instr_launch_end (Launch *L, gboolean ok)
{
  if (L->instr == NULL)
    return;
  ws_instrument_launch_end (L->instr, ok);
  L->instr = NULL;
}

void
ws_emu_instr_cta_begin (Cta *c)
{
  WsEmuInstrCta *S = g_new0 (WsEmuInstrCta, 1);
  WsInstrRun *run = c->L->instr;
  S->run = run;
  S->cr = ws_instrument_cta_begin (run, c->linear);
  S->where = ws_instrument_run_where (run);
  S->after = ws_instrument_run_after (run);
  S->flags = ws_instrument_run_flags (run);
  S->insts = ws_instrument_run_insts (run);
  S->site.size = sizeof S->site;
  S->site.launch = ws_instrument_run_launch (run);
  S->site.cta = c->linear;
  S->site.cta_x = c->ctaid[0];
  S->site.cta_y = c->ctaid[1];
  S->site.cta_z = c->ctaid[2];
  S->site.src_reg = S->src_reg;
  S->site.src = S->src;
  S->site.dst_reg = S->dst_reg;
  S->site.dst_bits = S->dst_bits;
  S->site.dst = S->dst;
  S->site.pdst = S->pdst;
  c->instr = S;
}

void
ws_emu_instr_cta_end (Cta *c)
{
  WsEmuInstrCta *S = c->instr;
  if (S == NULL)
    return;
  ws_emu_instr_flush (c);
  ws_instrument_cta_end (S->cr);
  g_free (S);
  c->instr = NULL;
}

static void
fill_static (WsEmuInstrCta *S, uint32_t id, Warp *w, uint32_t active, uint32_t m)
{
  WsInstrSite *x = &S->site;
  const WsTraceStaticInst *si = &S->insts[id];
  x->id = id;
  x->ptx_line = si->ptx_line;
  x->source_line = si->src_line;
  x->opcode = ws_ptx_op_name ((WsPtxOp) si->op);
  x->opclass = si->opclass;
  x->flags = S->flags[id];
  x->warp = w->index;
  x->active = active;
  x->will_execute = m;
  x->mem_kind = WS_INSTR_SDK_MEM_NONE;
  x->mem_space = WS_INSTR_SDK_SPACE_NONE;
  x->mem_width = 0;
  x->addr = NULL;
  x->taken = 0;
  x->target = 0;
  x->n_src = 0;
  x->n_dst = 0;
  x->n_pdst = 0;
}

/* Whether source operand @i of @in is a predicate (not a general register). */
static gboolean
src_is_pred (const EInst *in, guint i)
{
  switch (in->h)
    {
    case H_SETP:
    case H_SETP_S32:
    case H_SETP_U32:
    case H_SETP_S64:
    case H_SETP_U64:
    case H_SETP_F32:
    case H_SETP_F64:
    case H_SET:
    case H_SELP: return i == 2;
    default: return FALSE;
    }
}

/* The general registers an instruction reads, in operand order: the
 * address base of memory instructions, the data of stores, the sources of
 * the others (immediates, special registers and predicates left out). */
static void
fill_reads (WsEmuInstrCta *S, Warp *w, const EInst *in)
{
  guint n = 0;
/* clang-format off */
#define ADD_ROW(enc) do { uint32_t e_ = (enc); \
    if ((e_ >> WS_SRC_SHIFT) == WS_SRC_REG && n < G_N_ELEMENTS (S->src)) { \
      S->src_reg[n] = e_ & 0x0fffffffu; \
      S->src[n++] = w->bases[WS_SRC_REG] + (size_t) (e_ & 0x0fffffffu) * WS_EMU_WARP; } } while (0)
  /* clang-format on */
  switch (in->h)
    {
    case H_NOP:
    case H_BRA:
    case H_EXIT:
    case H_RET:
    case H_CALL:
    case H_BAR:
    case H_TRAP:
    case H_VOTE:
    case H_PREDLOGIC:
    case H_MOV_PRED:
    case H_FENCE:
    case H_BRX:
    case H_CP_ASYNC:
    case H_ELECT: break;
    case H_LD:
    case H_ATOM:
      if (in->has_base)
        ADD_ROW (in->s[0]);
      break;
    case H_ST:
      if (in->has_base)
        ADD_ROW (in->s[0]);
      for (guint i = 0; i < MAX (in->vec, 1u) && i < 4; i++)
        ADD_ROW (in->v[i]);
      break;
    default:
      for (guint i = 0; i < in->nsrc && i < 4; i++)
        if (!src_is_pred (in, i))
          ADD_ROW (in->s[i]);
      break;
    }
#undef ADD_ROW
  S->site.n_src = n;
}

uint32_t
ws_emu_instr_before (Cta *c, Warp *w, const EInst *in, uint32_t pc, uint32_t active, uint32_t m)
{
  WsEmuInstrCta *S = c->instr;
  uint32_t id = w->fn->static_base + pc;
  uint8_t fl = S->flags[id];
  /* The previous instruction of this warp has completed: its results are
   * in the registers, and no frame change happened in between (a callee
   * returns through its ret, a warp stops at bar or exit, all of which
   * come here first). */
  if (S->pending)
    {
      ws_emu_instr_flush (c);
      if (in->guard != WS_REG_SINK)
        m = active & (in->guard_neg ? ~w->preds[in->guard] : w->preds[in->guard]);
    }
  if ((S->after & WS_INSTR_AT_ALL) ? !(fl & WS_INSTR_AT_CONTROL) : (S->after & fl) != 0)
    {
      S->pending = TRUE;
      S->pw = w;
      S->pin = in;
      S->pid = id;
      S->pactive = active;
      S->pm = m;
    }
  if (!(S->where & WS_INSTR_AT_ALL) && !(S->where & fl))
    return m;
  fill_static (S, id, w, active, m);
  fill_reads (S, w, in);
  WsInstrSite *x = &S->site;
  if (fl & WS_INSTR_AT_MEMORY)
    {
      /* The address the handler will compute: base register + offset
       * (+ the frame's local base for frame symbols); generic addresses
       * are resolved by their window. */
      const uint64_t *A = in->has_base
                            ? (w->bases[in->s[0] >> WS_SRC_SHIFT] + (size_t) (in->s[0] & 0x0fffffffu) * WS_EMU_WARP)
                            : NULL;
      int64_t off = in->off + (in->addr_frame ? (int64_t) w->local_base : 0);
      int space = in->space;
      gboolean any_global = FALSE, any_other = FALSE;
      for (int l = 0; l < WS_EMU_WARP; l++)
        {
          uint64_t a = (A ? A[l] : 0) + (uint64_t) off;
          S->addr[l] = a;
          if (space == WS_SPACE_GENERIC && (m >> l & 1))
            {
              if (a - WS_EMU_SHARED_WIN < WS_EMU_WIN_SIZE || a - WS_EMU_LOCAL_WIN < WS_EMU_WIN_SIZE
                  || a - WS_EMU_PARAM_WIN < WS_EMU_WIN_SIZE)
                any_other = TRUE;
              else
                any_global = TRUE;
            }
        }
      if (space == WS_SPACE_GENERIC)
        {
          if (any_global)
            space = WS_SPACE_GLOBAL;
          else if (any_other)
            {
              uint64_t a = S->addr[__builtin_ctz (m)];
              space = a - WS_EMU_SHARED_WIN < WS_EMU_WIN_SIZE  ? WS_SPACE_SHARED
                      : a - WS_EMU_LOCAL_WIN < WS_EMU_WIN_SIZE ? WS_SPACE_LOCAL
                                                               : WS_SPACE_PARAM;
            }
        }
      if ((space == WS_SPACE_PARAM || space == WS_SPACE_FUNC_PARAM) && !in->addr_param
          && (in->addr_frame || !w->fn->ptx->is_entry))
        space = WS_SPACE_LOCAL;
      x->mem_kind = in->h == H_LD   ? WS_INSTR_SDK_MEM_LOAD
                    : in->h == H_ST ? WS_INSTR_SDK_MEM_STORE
                                    : WS_INSTR_SDK_MEM_ATOMIC;
      x->mem_space = (uint32_t) space;
      x->mem_width = MIN (255u, (uint32_t) in->size * (in->vec ? in->vec : 1));
      x->addr = S->addr;
    }
  if (fl & WS_INSTR_AT_COND_BRANCH)
    {
      x->taken = m;
      x->target = in->target;
    }
  ws_instrument_before (S->cr, x);
  return m;
}

void
ws_emu_instr_flush (Cta *c)
{
  WsEmuInstrCta *S = c->instr;
  if (!S->pending)
    return;
  S->pending = FALSE;
  Warp *w = S->pw;
  const EInst *in = S->pin;
  uint32_t rows[4], slots[2];
  fill_static (S, S->pid, w, S->pactive, S->pm);
  WsInstrSite *x = &S->site;
  guint n = gpr_dsts (w->fn, in, rows);
  uint32_t bits = (uint32_t) dst_bits_of (in);
  x->n_dst = n;
  for (guint i = 0; i < n; i++)
    {
      S->dst[i] = w->regs + (size_t) rows[i] * WS_EMU_WARP;
      S->dst_reg[i] = rows[i];
      S->dst_bits[i] = bits;
    }
  guint np = pred_dsts (w->fn, in, slots);
  x->n_pdst = np;
  for (guint i = 0; i < np; i++)
    S->pdst[i] = &w->preds[slots[i]];
  ws_instrument_after (S->cr, x);
}
