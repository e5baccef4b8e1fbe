/* test-ptx.c: the PTX parser against PTX that nvcc 13 emitted for the
 * kernels in tests/data/ptx/src (regenerate with tools/gen-ptx-fixtures.sh),
 * plus hand-written snippets for literals, errors and garbage input. */
#include "ptx/ws-ptx.h"

#include <string.h>

static char *
fixture_path (const char *name)
{
  const char *src = g_getenv ("WS_SOURCE_DIR");
  g_assert_nonnull (src);
  return g_build_filename (src, "tests", "data", "ptx", name, NULL);
}

static char *
load_text (const char *name, gsize *len)
{
  g_autofree char *path = fixture_path (name);
  char *text = NULL;
  g_autoptr (GError) error = NULL;
  g_file_get_contents (path, &text, len, &error);
  g_assert_no_error (error);
  return text;
}

static WsPtxModule *
load (const char *name)
{
  gsize len;
  g_autofree char *text = load_text (name, &len);
  g_autoptr (GError) error = NULL;
  WsPtxModule *m = ws_ptx_parse (text, len, name, &error);
  g_assert_no_error (error);
  g_assert_nonnull (m);
  return m;
}

static WsPtxModule *
parse_ok (const char *text)
{
  g_autoptr (GError) error = NULL;
  WsPtxModule *m = ws_ptx_parse (text, strlen (text), "snippet.ptx", &error);
  g_assert_no_error (error);
  g_assert_nonnull (m);
  return m;
}

static const WsPtxFunction *
fn_named (const WsPtxModule *m, const char *name)
{
  int i = ws_ptx_module_find_function (m, name);
  g_assert_cmpint (i, >=, 0);
  return &m->functions[i];
}

/* index of the @nth (0-based) instruction with opcode @op, or fails */
static guint
find_op (const WsPtxFunction *fn, WsPtxOp op, guint nth)
{
  for (guint i = 0; i < fn->n_insts; i++)
    if (fn->insts[i].op == op && nth-- == 0)
      return i;
  g_assert_not_reached ();
  return 0;
}

static char *
inst_str (const WsPtxModule *m, const WsPtxFunction *fn, guint i)
{
  g_assert_cmpuint (i, <, fn->n_insts);
  return ws_ptx_inst_to_string (m, fn, &fn->insts[i]);
}

static const char *
reg_name (const WsPtxFunction *fn, const WsPtxOperand *o)
{
  g_assert_cmpint (o->kind, ==, WS_OPND_REG);
  g_assert_cmpuint (o->reg, <, fn->n_regs);
  return fn->reg_names[o->reg];
}

static const WsPtxSymbol *
sym_named (const WsPtxModule *m, const char *name, int function)
{
  int i = ws_ptx_module_find_symbol (m, name, function);
  g_assert_cmpint (i, >=, 0);
  return &m->symbols[i];
}

/* Every index in the IR must be inside its table: what the emulator relies
 * on when it trusts the parser and skips checks in its hot loop. */
static void
check_module_consistent (const WsPtxModule *m)
{
  for (guint f = 0; f < m->n_functions; f++)
    {
      const WsPtxFunction *fn = &m->functions[f];
      for (guint p = 0; p < fn->n_params; p++)
        g_assert_cmpuint (fn->params[p], <, m->n_symbols);
      if (!fn->has_body)
        {
          g_assert_cmpuint (fn->n_insts, ==, 0);
          continue;
        }
      for (guint i = 0; i < fn->n_insts; i++)
        {
          const WsPtxInst *in = &fn->insts[i];
          g_assert_cmpuint (in->op, <, WS_OP_COUNT);
          g_assert_cmpuint (in->opclass, <, WS_OPCLASS_COUNT);
          g_assert_true (in->guard == WS_REG_SINK || in->guard < fn->n_preds);
          g_assert_cmpuint (in->line, >, 0);
          for (guint k = 0; k < in->ndst + in->nsrc; k++)
            {
              const WsPtxOperand *o = k < in->ndst ? &in->dst[k] : &in->src[k - in->ndst];
              switch (o->kind)
                {
                case WS_OPND_REG: g_assert_cmpuint (o->reg, <, fn->n_regs); break;
                case WS_OPND_PRED: g_assert_cmpuint (o->reg, <, fn->n_preds); break;
                case WS_OPND_SYMBOL: g_assert_cmpuint (o->symbol, <, m->n_symbols); break;
                case WS_OPND_FUNC: g_assert_cmpuint (o->symbol, <, m->n_functions); break;
                case WS_OPND_LABEL: g_assert_cmpuint (o->target, <=, fn->n_insts); break;
                case WS_OPND_ADDR:
                  if (o->comp == WS_OPND_REG)
                    g_assert_cmpuint (o->reg, <, fn->n_regs);
                  else if (o->comp == WS_OPND_SYMBOL)
                    g_assert_cmpuint (o->symbol, <, m->n_symbols);
                  break;
                case WS_OPND_VEC:
                  g_assert_cmpuint (o->count, >=, 1);
                  g_assert_cmpuint (o->count, <=, 4);
                  for (guint e = 0; e < o->count; e++)
                    g_assert_true (o->vec_regs[e] == WS_REG_SINK || o->vec_regs[e] < fn->n_regs);
                  break;
                default: break;
                }
            }
          if (in->op == WS_OP_CALL)
            {
              g_assert_cmpuint (in->call, <, fn->n_calls);
              const WsPtxCall *c = &fn->calls[in->call];
              g_assert_true (c->callee == G_MAXUINT32 || c->callee < m->n_functions);
              for (guint a = 0; a < c->n_args; a++)
                g_assert_cmpint (m->symbols[c->args[a]].param_role, ==, WS_PARAM_ROLE_CALL);
            }
        }
      g_autofree uint32_t *ipdom = ws_ptx_function_ipdom (fn);
      for (guint i = 0; i < fn->n_insts; i++)
        g_assert_cmpuint (ipdom[i], <=, fn->n_insts);
      for (guint i = 0; i < fn->n_insts; i++)
        {
          g_autofree char *s = ws_ptx_inst_to_string (m, fn, &fn->insts[i]);
          g_assert_nonnull (s);
        }
    }
}

static const char *const fixtures[] = {
  "vecadd.ptx",   "vecadd-lineinfo.ptx", "vecadd-debug.ptx", "control.ptx",  "control-lineinfo.ptx",
  "arith.ptx",    "mathfn.ptx",          "atomics.ptx",      "warp.ptx",     "printf_malloc.ptx",
  "calls.ptx",    "calls-debug.ptx",     "globals.ptx",      "halfprec.ptx", "misc.ptx",
  "features.ptx",
};

static void
test_all_fixtures (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (fixtures); i++)
    {
      g_autoptr (WsPtxModule) m = load (fixtures[i]);
      g_assert_cmpuint (m->version_major, ==, 9);
      g_assert_cmpuint (m->version_minor, ==, 0);
      g_assert_cmpstr (m->target, ==, "sm_80");
      g_assert_cmpuint (m->address_size, ==, 64);
      g_assert_cmpuint (m->n_functions, >, 0);
      check_module_consistent (m);
    }
}

static void
test_vecadd (void)
{
  g_autoptr (WsPtxModule) m = load ("vecadd.ptx");
  g_assert_cmpuint (m->n_functions, ==, 2);
  const WsPtxFunction *fn = fn_named (m, "_Z6vecAddPKfS0_Pfi");
  g_assert_true (fn->is_entry);
  g_assert_true (fn->has_body);
  g_assert_cmpuint (fn->n_params, ==, 4);
  const uint64_t offsets[] = { 0, 8, 16, 24 };
  const uint64_t sizes[] = { 8, 8, 8, 4 };
  for (guint i = 0; i < 4; i++)
    {
      const WsPtxSymbol *p = &m->symbols[fn->params[i]];
      g_assert_cmpuint (p->param_offset, ==, offsets[i]);
      g_assert_cmpuint (p->size, ==, sizes[i]);
      g_assert_cmpint (p->space, ==, WS_SPACE_PARAM);
      g_assert_cmpint (p->param_role, ==, WS_PARAM_ROLE_ENTRY);
    }
  g_assert_cmpuint (fn->param_bytes, ==, 28);
  g_assert_cmpuint (fn->n_insts, ==, 22);
  g_assert_cmpuint (fn->n_preds, ==, 2); /* %p<2> */
  g_assert_cmpuint (fn->n_regs, ==, 4 + 6 + 11);

  /* ld.param.u64 %rd1, [_Z6vecAddPKfS0_Pfi_param_0] */
  const WsPtxInst *ld = &fn->insts[0];
  g_assert_cmpint (ld->op, ==, WS_OP_LD);
  g_assert_cmpint (ld->space, ==, WS_SPACE_PARAM);
  g_assert_cmpint (ld->type, ==, WS_T_U64);
  g_assert_cmpint (ld->opclass, ==, WS_OPCLASS_LD);
  g_assert_cmpstr (reg_name (fn, &ld->dst[0]), ==, "%rd1");
  g_assert_cmpint (ld->src[0].kind, ==, WS_OPND_ADDR);
  g_assert_cmpint (ld->src[0].comp, ==, WS_OPND_SYMBOL);
  g_assert_cmpuint (ld->src[0].symbol, ==, fn->params[0]);
  g_assert_cmpint (m->symbols[fn->params[3]].type, ==, WS_T_U32);
  g_assert_cmpint (ws_ptx_type_size (m->symbols[fn->params[0]].type), ==, 8);

  /* mov.u32 %r3, %ctaid.x */
  const WsPtxInst *mv = &fn->insts[4];
  g_assert_cmpint (mv->op, ==, WS_OP_MOV);
  g_assert_cmpint (mv->src[0].kind, ==, WS_OPND_SPECIAL);
  g_assert_cmpint (mv->src[0].sreg, ==, WS_SREG_CTAID);
  g_assert_cmpint (mv->src[0].comp, ==, 0);
  g_assert_cmpint (fn->insts[5].src[0].sreg, ==, WS_SREG_NTID);
  g_assert_cmpint (fn->insts[6].src[0].sreg, ==, WS_SREG_TID);

  /* mad.lo.s32 %r1, %r3, %r4, %r5 */
  const WsPtxInst *mad = &fn->insts[7];
  g_assert_cmpint (mad->op, ==, WS_OP_MAD);
  g_assert_cmpint (mad->type, ==, WS_T_S32);
  g_assert_true (mad->mods & WS_MOD_LO);
  g_assert_cmpuint (mad->ndst, ==, 1);
  g_assert_cmpuint (mad->nsrc, ==, 3);
  g_assert_cmpstr (reg_name (fn, &mad->dst[0]), ==, "%r1");
  g_assert_cmpstr (reg_name (fn, &mad->src[2]), ==, "%r5");
  g_assert_cmpint (mad->opclass, ==, WS_OPCLASS_ALU);

  /* setp.ge.s32 %p1, %r1, %r2 ; @%p1 bra $L__BB0_2 */
  const WsPtxInst *setp = &fn->insts[8];
  g_assert_cmpint (setp->op, ==, WS_OP_SETP);
  g_assert_cmpint (setp->cmp, ==, WS_CMP_GE);
  g_assert_cmpint (setp->type, ==, WS_T_S32);
  g_assert_cmpint (setp->dst[0].kind, ==, WS_OPND_PRED);
  g_assert_cmpstr (fn->pred_names[setp->dst[0].reg], ==, "%p1");
  const WsPtxInst *bra = &fn->insts[9];
  g_assert_cmpint (bra->op, ==, WS_OP_BRA);
  g_assert_cmpuint (bra->guard, ==, setp->dst[0].reg);
  g_assert_false (bra->guard_neg);
  g_assert_cmpint (bra->src[0].kind, ==, WS_OPND_LABEL);
  g_assert_cmpuint (bra->src[0].target, ==, 21);
  g_assert_cmpint (fn->insts[21].op, ==, WS_OP_RET);
  g_assert_cmpstr (fn->label_names[21], ==, "$L__BB0_2");
  g_assert_cmpint (bra->opclass, ==, WS_OPCLASS_BRANCH);

  /* cvta.to.global.u64 ; mul.wide.s32 %rd5, %r1, 4 */
  const WsPtxInst *cvta = &fn->insts[10];
  g_assert_cmpint (cvta->op, ==, WS_OP_CVTA);
  g_assert_true (cvta->mods & WS_MOD_TO);
  g_assert_cmpint (cvta->space, ==, WS_SPACE_GLOBAL);
  const WsPtxInst *mul = &fn->insts[11];
  g_assert_true (mul->mods & WS_MOD_WIDE);
  g_assert_cmpint (mul->type, ==, WS_T_S32);
  g_assert_cmpint (mul->src[1].kind, ==, WS_OPND_IMM);
  g_assert_cmpuint (mul->src[1].imm, ==, 4);

  /* ld.global.f32 %f1, [%rd8]; add.f32; st.global.f32 [%rd10], %f3 */
  const WsPtxInst *ldg = &fn->insts[15];
  g_assert_cmpint (ldg->space, ==, WS_SPACE_GLOBAL);
  g_assert_cmpint (ldg->type, ==, WS_T_F32);
  g_assert_cmpint (ldg->src[0].comp, ==, WS_OPND_REG);
  g_assert_cmpstr (fn->reg_names[ldg->src[0].reg], ==, "%rd8");
  g_assert_cmpint (ldg->src[0].offset, ==, 0);
  g_assert_cmpint (fn->insts[17].opclass, ==, WS_OPCLASS_FP32);
  const WsPtxInst *st = &fn->insts[20];
  g_assert_cmpint (st->op, ==, WS_OP_ST);
  g_assert_cmpuint (st->ndst, ==, 0);
  g_assert_cmpuint (st->nsrc, ==, 2);
  g_assert_cmpint (st->src[0].kind, ==, WS_OPND_ADDR);
  g_assert_cmpstr (reg_name (fn, &st->src[1]), ==, "%f3");
  g_assert_cmpint (st->opclass, ==, WS_OPCLASS_ST);

  g_autofree char *s7 = inst_str (m, fn, 7);
  g_assert_cmpstr (s7, ==, "mad.lo.s32 %r1, %r3, %r4, %r5;");
  g_autofree char *s9 = inst_str (m, fn, 9);
  g_assert_cmpstr (s9, ==, "@%p1 bra $L__BB0_2;");
  g_autofree char *s10 = inst_str (m, fn, 10);
  g_assert_cmpstr (s10, ==, "cvta.to.global.u64 %rd4, %rd1;");
  g_autofree char *s20 = inst_str (m, fn, 20);
  g_assert_cmpstr (s20, ==, "st.global.f32 [%rd10], %f3;");

  /* saxpy: .f32 parameter, loop back-edge */
  const WsPtxFunction *sx = fn_named (m, "_Z5saxpyifPKfPf");
  g_assert_cmpint (m->symbols[sx->params[1]].type, ==, WS_T_F32);
  g_assert_cmpuint (m->symbols[sx->params[2]].param_offset, ==, 8);
  guint back = find_op (sx, WS_OP_BRA, 1);
  g_assert_cmpuint (sx->insts[back].src[0].target, ==, 14);
  g_assert_cmpint (sx->insts[find_op (sx, WS_OP_FMA, 0)].rnd, ==, WS_RND_RN);
}

static void
test_ipdom_if_else (void)
{
  g_autoptr (WsPtxModule) m = load ("control.ptx");
  const WsPtxFunction *fn = fn_named (m, "_Z6ifelsePKiPi");
  g_autofree uint32_t *ipdom = ws_ptx_function_ipdom (fn);
  /* @%p1 bra THEN; bra.uni ELSE; THEN: ... bra.uni JOIN; ELSE: ...; JOIN: */
  guint cond = find_op (fn, WS_OP_BRA, 0);
  g_assert_cmpuint (fn->insts[cond].guard, !=, WS_REG_SINK);
  guint to_else = find_op (fn, WS_OP_BRA, 1);
  guint to_join = find_op (fn, WS_OP_BRA, 2);
  guint join = fn->insts[to_join].src[0].target;
  g_assert_cmpuint (join, <, fn->n_insts);
  g_assert_cmpint (fn->insts[join].op, ==, WS_OP_MOV); /* out[t + 2] = 5 */
  g_assert_cmpuint (ipdom[cond], ==, join);
  g_assert_cmpuint (ipdom[to_join], ==, join);
  g_assert_cmpuint (ipdom[to_else], ==, fn->insts[to_else].src[0].target);
  /* inside a block: the next instruction */
  g_assert_cmpuint (ipdom[0], ==, 1);
  /* ret -> function exit */
  g_assert_cmpuint (ipdom[fn->n_insts - 1], ==, fn->n_insts);
}

static void
test_ipdom_loop (void)
{
  g_autoptr (WsPtxModule) m = load ("control.ptx");
  const WsPtxFunction *fn = fn_named (m, "_Z4loopPKiPii");
  g_autofree uint32_t *ipdom = ws_ptx_function_ipdom (fn);
  /* guard "n < 1" skips the loops: reconverges at the store block */
  guint skip = find_op (fn, WS_OP_BRA, 0);
  guint exit_block = fn->insts[skip].src[0].target;
  g_assert_cmpint (fn->insts[exit_block].op, ==, WS_OP_MOV);
  g_assert_cmpint (fn->insts[exit_block].src[0].kind, ==, WS_OPND_SPECIAL);
  g_assert_cmpuint (ipdom[skip], ==, exit_block);
  /* unrolled loop back-edge: reconverges right after the loop */
  guint back = find_op (fn, WS_OP_BRA, 2);
  g_assert_cmpuint (fn->insts[back].src[0].target, <, back);
  g_assert_cmpuint (ipdom[back], ==, back + 1);
  /* remainder loop back-edge: also falls into the exit block */
  guint back2 = find_op (fn, WS_OP_BRA, 4);
  g_assert_cmpuint (fn->insts[back2].src[0].target, <, back2);
  g_assert_cmpuint (ipdom[back2], ==, exit_block);
}

static void
test_ipdom_trap_and_switch (void)
{
  g_autoptr (WsPtxModule) m = load ("control.ptx");
  const WsPtxFunction *fn = fn_named (m, "_Z10early_exitPii");
  g_autofree uint32_t *ipdom = ws_ptx_function_ipdom (fn);
  /* threads that trap never reach the barrier: the branch around the trap
   * and the early return only reconverge at the function exit */
  guint early = find_op (fn, WS_OP_BRA, 0);
  guint around = find_op (fn, WS_OP_BRA, 1);
  guint trap = find_op (fn, WS_OP_TRAP, 0);
  g_assert_cmpuint (ipdom[early], ==, fn->n_insts);
  g_assert_cmpuint (ipdom[around], ==, fn->n_insts);
  g_assert_cmpuint (ipdom[trap], ==, fn->n_insts);
  g_assert_cmpint (fn->insts[find_op (fn, WS_OP_BAR, 0)].sub, ==, WS_SUB_SYNC);

  const WsPtxFunction *sw = fn_named (m, "_Z2swPKiPi");
  g_autofree uint32_t *ip2 = ws_ptx_function_ipdom (sw);
  guint st = find_op (sw, WS_OP_ST, 0);
  guint join = st;
  while (join > 0 && !sw->label_names[join])
    join--;
  /* every case branch reconverges at the store after the switch */
  guint n_join = 0;
  for (guint i = 0; i < sw->n_insts; i++)
    if (sw->insts[i].op == WS_OP_BRA && sw->insts[i].guard != WS_REG_SINK && ip2[i] == join)
      n_join++;
  g_assert_cmpuint (n_join, >=, 5);
}

static void
test_calls (void)
{
  g_autoptr (WsPtxModule) m = load ("calls.ptx");
  const WsPtxFunction *fib = fn_named (m, "_Z3fibi");
  int fib_idx = ws_ptx_module_find_function (m, "_Z3fibi");
  g_assert_false (fib->is_entry);
  g_assert_cmpuint (fib->n_params, ==, 1);
  g_assert_cmpuint (fib->n_rets, ==, 1);
  const WsPtxSymbol *ret = &m->symbols[fib->rets[0]];
  g_assert_cmpstr (ret->name, ==, "func_retval0");
  g_assert_cmpint (ret->param_role, ==, WS_PARAM_ROLE_RET);
  g_assert_cmpint (ret->space, ==, WS_SPACE_FUNC_PARAM);
  g_assert_cmpuint (fib->ret_bytes, ==, 4);
  g_assert_cmpint (m->symbols[fib->params[0]].param_role, ==, WS_PARAM_ROLE_ARG);
  /* recursion: two call sites, each with its own param0/retval0 */
  g_assert_cmpuint (fib->n_calls, ==, 2);
  for (guint c = 0; c < 2; c++)
    {
      const WsPtxCall *call = &fib->calls[c];
      g_assert_cmpuint (call->callee, ==, (guint) fib_idx);
      g_assert_cmpuint (call->n_args, ==, 1);
      g_assert_cmpuint (call->n_rets, ==, 1);
      g_assert_false (call->is_vprintf);
      const WsPtxSymbol *a = &m->symbols[call->args[0]];
      g_assert_cmpstr (a->name, ==, "param0");
      g_assert_cmpint (a->param_role, ==, WS_PARAM_ROLE_CALL);
      g_assert_cmpint (a->function, ==, fib_idx);
    }
  g_assert_cmpuint (fib->calls[0].args[0], !=, fib->calls[1].args[0]);
  /* both call sequences reuse the same 8 bytes */
  g_assert_cmpuint (fib->call_param_bytes, ==, 8);
  g_assert_cmpuint (m->symbols[fib->calls[1].args[0]].param_offset, ==, 0);
  g_assert_cmpuint (m->symbols[fib->calls[1].rets[0]].param_offset, ==, 4);
  guint ci = find_op (fib, WS_OP_CALL, 0);
  g_assert_true (fib->insts[ci].mods & WS_MOD_UNI);
  g_assert_cmpint (fib->insts[ci].src[0].kind, ==, WS_OPND_FUNC);
  /* st.param.b32 [param0+0], %r4 goes to the call area; ld [func param] */
  g_assert_cmpint (fib->insts[ci - 1].space, ==, WS_SPACE_FUNC_PARAM);
  g_assert_cmpint (fib->insts[0].space, ==, WS_SPACE_FUNC_PARAM);
  g_autofree char *cs = inst_str (m, fib, ci);
  g_assert_cmpstr (cs, ==, "call.uni (retval0), _Z3fibi, (param0);");

  /* structs by value: .align 4 .b8 [12] and .align 8 .b8 [32] */
  const WsPtxFunction *k = fn_named (m, "_Z5callsPi4Vec3S0_3BigPfPd");
  const uint64_t offs[] = { 0, 8, 20, 32, 64, 72 };
  for (guint i = 0; i < 6; i++)
    g_assert_cmpuint (m->symbols[k->params[i]].param_offset, ==, offs[i]);
  g_assert_cmpuint (k->param_bytes, ==, 80);
  const WsPtxSymbol *big = &m->symbols[k->params[3]];
  g_assert_cmpuint (big->align, ==, 8);
  g_assert_cmpuint (big->size, ==, 32);
  /* ld.param.v2.u32 {%r1, %r2}, [param_3+16] */
  const WsPtxInst *v2 = &k->insts[1];
  g_assert_cmpuint (v2->vec, ==, 2);
  g_assert_cmpint (v2->dst[0].kind, ==, WS_OPND_VEC);
  g_assert_cmpuint (v2->dst[0].count, ==, 2);
  g_assert_cmpstr (k->reg_names[v2->dst[0].vec_regs[1]], ==, "%r2");
  g_assert_cmpint (v2->src[0].offset, ==, 16);
  g_assert_cmpuint (v2->src[0].symbol, ==, k->params[3]);

  /* returning a struct: .param .align 4 .b8 func_retval0[12] */
  const WsPtxFunction *cross = fn_named (m, "_Z5cross4Vec3S_");
  g_assert_cmpuint (cross->ret_bytes, ==, 12);
  g_assert_cmpuint (cross->n_params, ==, 2);

  /* indirect call through a function-pointer table */
  guint last_call = 0;
  for (guint i = 0; i < k->n_insts; i++)
    if (k->insts[i].op == WS_OP_CALL)
      last_call = i;
  const WsPtxInst *ic = &k->insts[last_call];
  const WsPtxCall *icall = &k->calls[ic->call];
  g_assert_cmpuint (icall->callee, ==, G_MAXUINT32);
  g_assert_cmpstr (k->reg_names[icall->callee_reg], ==, "%rd15");
  g_assert_cmpint (ic->src[0].kind, ==, WS_OPND_REG);
  g_assert_false (ic->mods & WS_MOD_UNI);
  g_assert_null (k->label_names[last_call]); /* prototype_8 is not a label */
  const WsPtxSymbol *table = sym_named (m, "table", -1);
  g_assert_cmpint (table->space, ==, WS_SPACE_GLOBAL);
  g_assert_cmpuint (table->size, ==, 16);
  g_assert_cmpuint (table->n_init_relocs, ==, 2);
  g_assert_true (table->init_reloc_is_function[0]);
  g_assert_cmpuint (table->init_reloc_symbols[0], ==, (guint) ws_ptx_module_find_function (m, "_Z4add1i"));
  g_assert_cmpuint (table->init_reloc_offsets[1], ==, 8);
  g_assert_cmpuint (table->init_reloc_symbols[1], ==, (guint) ws_ptx_module_find_function (m, "_Z4mul2i"));
  /* the forward declaration and the definition are one function */
  guint n_add1 = 0;
  for (guint f = 0; f < m->n_functions; f++)
    n_add1 += strcmp (m->functions[f].name, "_Z4add1i") == 0;
  g_assert_cmpuint (n_add1, ==, 1);
  g_assert_true (fn_named (m, "_Z4add1i")->has_body);
}

static void
test_printf_malloc (void)
{
  g_autoptr (WsPtxModule) m = load ("printf_malloc.ptx");
  const WsPtxFunction *vp = fn_named (m, "vprintf");
  g_assert_true (vp->is_extern);
  g_assert_false (vp->has_body);
  g_assert_cmpuint (vp->n_params, ==, 2);
  g_assert_true (fn_named (m, "__assertfail")->is_extern);
  const WsPtxFunction *k = fn_named (m, "_Z2pmPid");
  guint nv = 0, nm = 0, nf = 0, na = 0;
  for (guint c = 0; c < k->n_calls; c++)
    {
      const WsPtxCall *call = &k->calls[c];
      nv += call->is_vprintf;
      nm += call->is_malloc;
      nf += call->is_free;
      na += call->callee == (guint) ws_ptx_module_find_function (m, "__assertfail");
      if (call->is_malloc)
        {
          g_assert_cmpuint (call->n_rets, ==, 1);
          g_assert_cmpuint (m->symbols[call->rets[0]].size, ==, 8);
        }
    }
  g_assert_cmpuint (nv, ==, 2);
  g_assert_cmpuint (nm, ==, 1);
  g_assert_cmpuint (nf, ==, 1);
  g_assert_cmpuint (na, ==, 1);
  /* the format string and its bytes */
  const WsPtxSymbol *str = sym_named (m, "$str", -1);
  g_assert_nonnull (str->init);
  g_assert_cmpuint (str->size, ==, 32);
  g_assert_cmpmem (str->init, 32, "thread %d of %d: %f %s %c %lld\n", 32);
  /* printf arguments are built in the local depot */
  g_assert_cmpuint (k->local_bytes, ==, 40);
  const WsPtxSymbol *depot = sym_named (m, "__local_depot0", ws_ptx_module_find_function (m, "_Z2pmPid"));
  g_assert_cmpint (depot->space, ==, WS_SPACE_LOCAL);
  g_assert_cmpuint (depot->offset, ==, 0);
  g_assert_cmpuint (k->local_align, ==, 8);
  const WsPtxInst *mv = &k->insts[find_op (k, WS_OP_MOV, 0)];
  g_assert_cmpint (mv->src[0].kind, ==, WS_OPND_SYMBOL);
  g_assert_cmpstr (m->symbols[mv->src[0].symbol].name, ==, "__local_depot0");
}

static void
test_globals (void)
{
  g_autoptr (WsPtxModule) m = load ("globals.ptx");
  const WsPtxSymbol *t = sym_named (m, "c_table", -1);
  g_assert_cmpint (t->space, ==, WS_SPACE_CONST);
  g_assert_cmpuint (t->size, ==, 32);
  g_assert_cmpuint (t->align, ==, 4);
  float f[8];
  memcpy (f, t->init, 32);
  g_assert_cmpfloat (f[0], ==, 1.0f);
  g_assert_cmpfloat (f[3], ==, -1.0f);
  g_assert_cmpfloat (f[4], ==, 3.25f);
  g_assert_cmpfloat (f[7], ==, 1e-3f);
  const WsPtxSymbol *c = sym_named (m, "c_coef", -1);
  g_assert_cmpuint (c->align, ==, 8);
  int32_t b;
  double d;
  memcpy (&b, c->init + 4, 4);
  memcpy (&d, c->init + 8, 8);
  g_assert_cmpint (b, ==, 7);
  g_assert_cmpfloat (d, ==, 2.25);
  /* initialiser shorter than the array: zero padded */
  const WsPtxSymbol *mat = sym_named (m, "c_matrix", -1);
  g_assert_cmpuint (mat->size, ==, 24);
  g_assert_cmpuint (mat->init[20], ==, 6);
  g_assert_cmpuint (mat->init[21], ==, 0);
  g_assert_cmpuint (mat->init[23], ==, 0);
  const WsPtxSymbol *cnt = sym_named (m, "g_counter", -1);
  g_assert_cmpint (cnt->space, ==, WS_SPACE_GLOBAL);
  g_assert_cmpint (cnt->type, ==, WS_T_U32);
  uint32_t u;
  memcpy (&u, cnt->init, 4);
  g_assert_cmpuint (u, ==, 42);
  const WsPtxSymbol *big = sym_named (m, "g_big", -1);
  uint64_t u64;
  memcpy (&u64, big->init, 8);
  g_assert_cmpuint (u64, ==, 0x123456789abcdefull);
  const WsPtxSymbol *dbl = sym_named (m, "g_dbl", -1);
  memcpy (&d, dbl->init, 8);
  g_assert_cmpfloat (d, ==, 3.141592653589793);
  /* generic(g_array)+4 */
  const WsPtxSymbol *ptr = sym_named (m, "g_ptr", -1);
  g_assert_cmpuint (ptr->n_init_relocs, ==, 1);
  g_assert_cmpuint (ptr->init_reloc_offsets[0], ==, 0);
  g_assert_cmpstr (m->symbols[ptr->init_reloc_symbols[0]].name, ==, "g_array");
  g_assert_cmpint (ptr->init_reloc_addends[0], ==, 4);
  g_assert_false (ptr->init_reloc_is_function[0]);
  const WsPtxSymbol *msg = sym_named (m, "g_msg", -1);
  g_assert_cmpstr (m->symbols[msg->init_reloc_symbols[0]].name, ==, "$str");
  const WsPtxSymbol *un = sym_named (m, "g_uninit", -1);
  g_assert_null (un->init);
  g_assert_cmpuint (un->size, ==, 64);
  /* dynamic shared memory */
  const WsPtxSymbol *dyn = sym_named (m, "dyn", -1);
  g_assert_cmpint (dyn->space, ==, WS_SPACE_SHARED);
  g_assert_true (dyn->is_extern);
  g_assert_cmpuint (dyn->size, ==, 0);
  g_assert_cmpuint (dyn->align, ==, 16);
  /* function-scope ("demoted") static shared array */
  int k = ws_ptx_module_find_function (m, "_Z11use_globalsPfi");
  const WsPtxSymbol *stat = sym_named (m, "_ZZ11use_globalsPfiE4stat", k);
  g_assert_cmpint (stat->function, ==, k);
  g_assert_cmpuint (stat->offset, ==, 0);
  g_assert_cmpuint (m->shared_bytes, ==, 128);
  g_assert_cmpuint (m->shared_align, ==, 16);
  g_assert_cmpuint (ws_ptx_function_static_shared (m, k), ==, 128);
  /* float local[16] lives in the local depot */
  g_assert_cmpuint (m->functions[k].local_bytes, ==, 64);
  g_assert_cmpuint (m->functions[k].local_align, ==, 16);
  /* const loads */
  const WsPtxFunction *fn = &m->functions[k];
  gboolean saw_const = FALSE;
  for (guint i = 0; i < fn->n_insts; i++)
    if (fn->insts[i].op == WS_OP_LD && fn->insts[i].space == WS_SPACE_CONST)
      saw_const = TRUE;
  g_assert_true (saw_const);
}

static void
test_atomics (void)
{
  g_autoptr (WsPtxModule) m = load ("atomics.ptx");
  const WsPtxFunction *fn = &m->functions[0];
  struct {
    WsPtxSub sub;
    WsPtxType type;
    WsPtxSpace space;
    guint nsrc;
  } want[] = {
    { WS_SUB_ADD, WS_T_U32, WS_SPACE_GLOBAL, 2 },  { WS_SUB_ADD, WS_T_U32, WS_SPACE_GLOBAL, 2 },
    { WS_SUB_ADD, WS_T_U32, WS_SPACE_GLOBAL, 2 },  { WS_SUB_MIN, WS_T_S32, WS_SPACE_GLOBAL, 2 },
    { WS_SUB_MAX, WS_T_S32, WS_SPACE_GLOBAL, 2 },  { WS_SUB_INC, WS_T_U32, WS_SPACE_GLOBAL, 2 },
    { WS_SUB_DEC, WS_T_U32, WS_SPACE_GLOBAL, 2 },  { WS_SUB_AND, WS_T_B32, WS_SPACE_GLOBAL, 2 },
    { WS_SUB_OR, WS_T_B32, WS_SPACE_GLOBAL, 2 },   { WS_SUB_XOR, WS_T_B32, WS_SPACE_GLOBAL, 2 },
    { WS_SUB_EXCH, WS_T_B32, WS_SPACE_GLOBAL, 2 }, { WS_SUB_CAS, WS_T_B32, WS_SPACE_GLOBAL, 3 },
    { WS_SUB_ADD, WS_T_U64, WS_SPACE_GLOBAL, 2 },  { WS_SUB_CAS, WS_T_B64, WS_SPACE_GLOBAL, 3 },
    { WS_SUB_MAX, WS_T_U64, WS_SPACE_GLOBAL, 2 },  { WS_SUB_ADD, WS_T_F32, WS_SPACE_GLOBAL, 2 },
    { WS_SUB_ADD, WS_T_F32, WS_SPACE_GLOBAL, 2 },  { WS_SUB_ADD, WS_T_F64, WS_SPACE_GLOBAL, 2 },
    { WS_SUB_EXCH, WS_T_B32, WS_SPACE_GLOBAL, 2 }, { WS_SUB_ADD, WS_T_U32, WS_SPACE_SHARED, 2 },
    { WS_SUB_ADD, WS_T_F32, WS_SPACE_SHARED, 2 },  { WS_SUB_MAX, WS_T_S32, WS_SPACE_SHARED, 2 },
    { WS_SUB_CAS, WS_T_B32, WS_SPACE_SHARED, 3 },
  };
  for (guint i = 0; i < G_N_ELEMENTS (want); i++)
    {
      const WsPtxInst *a = &fn->insts[find_op (fn, WS_OP_ATOM, i)];
      g_assert_cmpint (a->sub, ==, want[i].sub);
      g_assert_cmpint (a->type, ==, want[i].type);
      g_assert_cmpint (a->space, ==, want[i].space);
      g_assert_cmpuint (a->nsrc, ==, want[i].nsrc);
      g_assert_cmpuint (a->ndst, ==, 1);
      g_assert_cmpint (a->opclass, ==, WS_OPCLASS_ATOM);
    }
  /* atomicSub(3) is atom.add with -3 truncated to u32 */
  const WsPtxInst *sub = &fn->insts[find_op (fn, WS_OP_ATOM, 2)];
  g_assert_cmpuint (sub->src[1].imm, ==, 0xfffffffdu);
  const WsPtxInst *fa = &fn->insts[find_op (fn, WS_OP_ATOM, 15)];
  g_assert_cmpuint (fa->src[1].imm, ==, 0x3FC00000u); /* 1.5f */
  const WsPtxInst *da = &fn->insts[find_op (fn, WS_OP_ATOM, 17)];
  g_assert_cmpuint (da->src[1].imm, ==, 0x3FD0000000000000ull); /* 0.25 */
  /* scopes */
  g_assert_cmpint (fn->insts[find_op (fn, WS_OP_ATOM, 23)].scope, ==, WS_SCOPE_CTA);
  g_assert_cmpint (fn->insts[find_op (fn, WS_OP_ATOM, 24)].scope, ==, WS_SCOPE_SYS);
  g_assert_cmpint (fn->insts[find_op (fn, WS_OP_MEMBAR, 0)].scope, ==, WS_SCOPE_GPU);
  g_assert_cmpint (fn->insts[find_op (fn, WS_OP_MEMBAR, 1)].scope, ==, WS_SCOPE_CTA);
  g_assert_cmpint (fn->insts[find_op (fn, WS_OP_MEMBAR, 2)].scope, ==, WS_SCOPE_SYS);
  g_assert_cmpint (fn->insts[find_op (fn, WS_OP_MEMBAR, 0)].opclass, ==, WS_OPCLASS_BARRIER);
  g_autofree char *s = inst_str (m, fn, find_op (fn, WS_OP_ATOM, 11));
  g_assert_true (g_str_has_prefix (s, "atom.global.cas.b32 "));
  /* shared symbols addressed through 32-bit registers */
  const WsPtxInst *mv = &fn->insts[find_op (fn, WS_OP_MOV, 1)];
  g_assert_cmpint (mv->type, ==, WS_T_U32);
  g_assert_cmpint (mv->src[0].kind, ==, WS_OPND_SYMBOL);
  g_assert_cmpint (m->symbols[mv->src[0].symbol].space, ==, WS_SPACE_SHARED);
  g_assert_cmpuint (ws_ptx_function_static_shared (m, 0), ==, 512);
}

static void
test_warp (void)
{
  g_autoptr (WsPtxModule) m = load ("warp.ptx");
  const WsPtxFunction *fn = &m->functions[0];
  /* shfl.sync.down.b32 %r14|%p1, %r9, %r12, %r11, %r13 */
  const WsPtxInst *sh = &fn->insts[find_op (fn, WS_OP_SHFL, 0)];
  g_assert_cmpint (sh->sub, ==, WS_SUB_DOWN);
  g_assert_true (sh->mods & WS_MOD_SYNC);
  g_assert_cmpint (sh->type, ==, WS_T_B32);
  g_assert_cmpuint (sh->ndst, ==, 2);
  g_assert_cmpint (sh->dst[1].kind, ==, WS_OPND_PRED);
  g_assert_cmpuint (sh->nsrc, ==, 4);
  g_assert_cmpint (sh->opclass, ==, WS_OPCLASS_WARP);
  g_assert_cmpint (fn->insts[find_op (fn, WS_OP_SHFL, 5)].sub, ==, WS_SUB_UP);
  g_assert_cmpint (fn->insts[find_op (fn, WS_OP_SHFL, 6)].sub, ==, WS_SUB_BFLY);
  g_assert_cmpint (fn->insts[find_op (fn, WS_OP_SHFL, 7)].sub, ==, WS_SUB_IDX);
  g_autofree char *s = inst_str (m, fn, find_op (fn, WS_OP_SHFL, 0));
  g_assert_cmpstr (s, ==, "shfl.sync.down.b32 %r14|%p1, %r9, %r12, %r11, %r13;");
  /* 64-bit shuffle: mov.b64 {%r1, %r2}, %fd1 ... mov.b64 %fd2, {%r3, %r4} */
  guint unpack = G_MAXUINT, pack = G_MAXUINT;
  for (guint i = 0; i < fn->n_insts; i++)
    if (fn->insts[i].op == WS_OP_MOV && fn->insts[i].type == WS_T_B64)
      {
        if (fn->insts[i].dst[0].kind == WS_OPND_VEC)
          unpack = i;
        else if (fn->insts[i].src[0].kind == WS_OPND_VEC)
          pack = i;
      }
  g_assert_cmpuint (unpack, <, fn->n_insts);
  g_assert_cmpuint (pack, <, fn->n_insts);
  g_assert_cmpuint (fn->insts[unpack].dst[0].count, ==, 2);
  g_assert_cmpstr (fn->reg_names[fn->insts[unpack].dst[0].vec_regs[0]], ==, "%r1");
  g_assert_cmpstr (fn->reg_names[fn->insts[pack].src[0].vec_regs[1]], ==, "%r4");
  g_assert_cmpint (fn->reg_types[fn->insts[pack].dst[0].reg], ==, WS_T_F64);
  /* votes */
  const WsPtxInst *bal = &fn->insts[find_op (fn, WS_OP_VOTE, 0)];
  g_assert_cmpint (bal->sub, ==, WS_SUB_BALLOT);
  g_assert_cmpint (bal->type, ==, WS_T_B32);
  g_assert_cmpint (bal->src[0].kind, ==, WS_OPND_PRED);
  g_assert_cmpint (fn->insts[find_op (fn, WS_OP_VOTE, 1)].sub, ==, WS_SUB_ALL);
  g_assert_cmpint (fn->insts[find_op (fn, WS_OP_VOTE, 1)].type, ==, WS_T_PRED);
  g_assert_cmpint (fn->insts[find_op (fn, WS_OP_VOTE, 2)].sub, ==, WS_SUB_ANY);
  g_assert_cmpint (fn->insts[find_op (fn, WS_OP_ACTIVEMASK, 0)].opclass, ==, WS_OPCLASS_WARP);
  g_assert_cmpint (fn->insts[find_op (fn, WS_OP_MATCH, 0)].sub, ==, WS_SUB_ANYSYNC);
  const WsPtxInst *ma = &fn->insts[find_op (fn, WS_OP_MATCH, 1)];
  g_assert_cmpint (ma->sub, ==, WS_SUB_ALLSYNC);
  g_assert_cmpuint (ma->ndst, ==, 2);
  const WsPtxInst *rd = &fn->insts[find_op (fn, WS_OP_REDUX, 1)];
  g_assert_cmpint (rd->sub, ==, WS_SUB_MIN);
  g_assert_cmpint (rd->type, ==, WS_T_U32);
  /* __syncthreads_count/and/or, __syncwarp */
  const WsPtxInst *popc = &fn->insts[find_op (fn, WS_OP_BAR, 0)];
  g_assert_cmpint (popc->sub, ==, WS_SUB_RED_POPC);
  g_assert_cmpuint (popc->ndst, ==, 1);
  g_assert_cmpuint (popc->nsrc, ==, 2);
  g_assert_cmpint (fn->insts[find_op (fn, WS_OP_BAR, 1)].sub, ==, WS_SUB_RED_AND);
  g_assert_cmpint (fn->insts[find_op (fn, WS_OP_BAR, 2)].sub, ==, WS_SUB_RED_OR);
  const WsPtxInst *ws = &fn->insts[find_op (fn, WS_OP_BAR, 3)];
  g_assert_cmpint (ws->sub, ==, WS_SUB_WARP_SYNC);
  g_assert_cmpuint (ws->src[0].imm, ==, 0xffffffffu);
  g_assert_cmpuint (fn->insts[find_op (fn, WS_OP_BAR, 4)].src[0].imm, ==, 0xffffu);
  /* special registers */
  gboolean lane = FALSE, lt = FALSE, clk = FALSE;
  for (guint i = 0; i < fn->n_insts; i++)
    if (fn->insts[i].op == WS_OP_MOV && fn->insts[i].src[0].kind == WS_OPND_SPECIAL)
      {
        lane |= fn->insts[i].src[0].sreg == WS_SREG_LANEID;
        lt |= fn->insts[i].src[0].sreg == WS_SREG_LANEMASK_LT;
        clk |= fn->insts[i].src[0].sreg == WS_SREG_CLOCK64 && fn->insts[i].type == WS_T_U64;
      }
  g_assert_true (lane && lt && clk);
}

static void
test_arith_types (void)
{
  g_autoptr (WsPtxModule) m = load ("arith.ptx");
  const WsPtxFunction *fn = fn_named (m, "_Z4intsPaPhPsPtPiPjPlPm");
  /* add.s16 %rs15, %rs14, -1000 -> 16-bit two's complement */
  gboolean saw16 = FALSE;
  for (guint i = 0; i < fn->n_insts; i++)
    {
      const WsPtxInst *in = &fn->insts[i];
      if (in->op == WS_OP_ADD && in->type == WS_T_S16 && in->src[1].kind == WS_OPND_IMM)
        {
          g_assert_cmpuint (in->src[1].imm, ==, 0xfc18);
          g_assert_cmpint (fn->reg_types[in->dst[0].reg], ==, WS_T_B16);
          saw16 = TRUE;
        }
    }
  g_assert_true (saw16);
  /* 64-bit division: a 32-bit fast path chosen by a branch */
  const WsPtxInst *div = &fn->insts[find_op (fn, WS_OP_DIV, 2)];
  g_assert_cmpint (div->type, ==, WS_T_S64);
  const WsPtxInst *mh = &fn->insts[find_op (fn, WS_OP_MUL, 0)];
  g_assert_cmpint (mh->type, ==, WS_T_S16);
  g_assert_true (mh->mods & WS_MOD_LO);
  guint hi64 = G_MAXUINT;
  for (guint i = 0; i < fn->n_insts; i++)
    if (fn->insts[i].op == WS_OP_MUL && (fn->insts[i].mods & WS_MOD_HI) && fn->insts[i].type == WS_T_U64)
      hi64 = i;
  g_assert_cmpuint (hi64, <, fn->n_insts);
  g_assert_cmpuint (fn->insts[hi64].src[1].imm, ==, 0xc6f45449cb59c69ull);
  /* shr.u64 %rd66, %rd16, %r71: the shift amount is a 32-bit register */
  guint shr = G_MAXUINT;
  for (guint i = 0; i < fn->n_insts; i++)
    if (fn->insts[i].op == WS_OP_SHR && fn->insts[i].type == WS_T_U64 && fn->insts[i].src[1].kind == WS_OPND_REG)
      shr = i;
  g_assert_cmpuint (shr, <, fn->n_insts);
  g_assert_cmpint (fn->reg_types[fn->insts[shr].src[1].reg], ==, WS_T_B32);
  g_assert_cmpint (ws_ptx_inst_src_type (&fn->insts[shr], 1), ==, WS_T_U32);
  const WsPtxInst *shf = &fn->insts[find_op (fn, WS_OP_SHF, 0)];
  g_assert_cmpint (shf->sub, ==, WS_SUB_L);
  g_assert_true (shf->mods & WS_MOD_WRAP);
  g_assert_cmpint (fn->insts[find_op (fn, WS_OP_SHF, 1)].sub, ==, WS_SUB_R);
  const WsPtxInst *bf = &fn->insts[find_op (fn, WS_OP_BFIND, 0)];
  g_assert_true (bf->mods & WS_MOD_SHIFTAMT);
  g_assert_cmpint (bf->type, ==, WS_T_U32);
  g_assert_cmpint (fn->insts[find_op (fn, WS_OP_POPC, 1)].type, ==, WS_T_B64);
  g_assert_cmpint (fn->insts[find_op (fn, WS_OP_SAD, 0)].type, ==, WS_T_S32);

  const WsPtxFunction *ff = fn_named (m, "_Z6floatsPfPdPiPjPx");
  /* cvt.rzi.s32.f32 / cvt.rn.f64.s32 / cvt.sat.f32.f32 */
  gboolean rzi = FALSE, rn = FALSE, sat = FALSE;
  for (guint i = 0; i < ff->n_insts; i++)
    {
      const WsPtxInst *in = &ff->insts[i];
      if (in->op != WS_OP_CVT)
        continue;
      if (in->rnd == WS_RND_RZI && in->type == WS_T_S32 && in->type2 == WS_T_F32)
        rzi = TRUE;
      if (in->rnd == WS_RND_RN && in->type == WS_T_F64 && in->type2 == WS_T_S32)
        {
          rn = TRUE;
          g_assert_cmpint (in->opclass, ==, WS_OPCLASS_FP64);
        }
      if ((in->mods & WS_MOD_SAT) && in->type == WS_T_F32 && in->type2 == WS_T_F32)
        sat = TRUE;
    }
  g_assert_true (rzi && rn && sat);
  const WsPtxInst *dv = &ff->insts[find_op (ff, WS_OP_DIV, 0)];
  g_assert_cmpint (dv->rnd, ==, WS_RND_RN);
  g_assert_cmpint (dv->type, ==, WS_T_F32);
  for (guint i = 0; i < ff->n_insts; i++)
    if (ff->insts[i].op == WS_OP_ADD)
      g_assert_cmpint (ff->insts[i].opclass, ==,
                       ff->insts[i].type == WS_T_F32   ? WS_OPCLASS_FP32
                       : ff->insts[i].type == WS_T_F64 ? WS_OPCLASS_FP64
                                                       : WS_OPCLASS_ALU);
  g_assert_cmpint (ff->insts[find_op (ff, WS_OP_FMA, 1)].rnd, ==, WS_RND_RP);
  gboolean f64 = FALSE;
  for (guint i = 0; i < ff->n_insts; i++)
    if (ff->insts[i].op == WS_OP_MOV && ff->insts[i].type == WS_T_F64 && ff->insts[i].src[0].kind == WS_OPND_IMM)
      {
        g_assert_cmpuint (ff->insts[i].src[0].imm, ==, 0x3FF0000000000000ull);
        f64 = TRUE;
        break;
      }
  g_assert_true (f64);
}

static void
test_math_and_half (void)
{
  g_autoptr (WsPtxModule) m = load ("mathfn.ptx");
  const WsPtxFunction *fn = fn_named (m, "_Z5mathfPf");
  const WsPtxInst *ex2 = &fn->insts[find_op (fn, WS_OP_EX2, 0)];
  g_assert_true (ex2->mods & WS_MOD_APPROX);
  g_assert_cmpint (ex2->opclass, ==, WS_OPCLASS_SFU);
  g_assert_cmpint (fn->insts[find_op (fn, WS_OP_SIN, 0)].opclass, ==, WS_OPCLASS_SFU);
  /* sinf's Payne-Hanek reduction table */
  const WsPtxSymbol *tab = sym_named (m, "__cudart_i2opi_f", -1);
  g_assert_cmpuint (tab->size, ==, 24);
  g_assert_cmpuint (tab->init[0], ==, 65);
  g_assert_cmpuint (tab->init[23], ==, 162);
  /* carry chains in the reduction: mad.lo.cc / madc.hi.cc */
  gboolean cc = FALSE;
  for (guint f = 0; f < m->n_functions; f++)
    for (guint i = 0; i < m->functions[f].n_insts; i++)
      if (m->functions[f].insts[i].op == WS_OP_MADC && (m->functions[f].insts[i].mods & WS_MOD_CC)
          && (m->functions[f].insts[i].mods & WS_MOD_HI))
        cc = TRUE;
  g_assert_true (cc);

  g_autoptr (WsPtxModule) h = load ("halfprec.ptx");
  const WsPtxFunction *hk = &h->functions[0];
  gboolean f16 = FALSE, f16x2 = FALSE, bf16 = FALSE, scoped = FALSE;
  for (guint i = 0; i < hk->n_insts; i++)
    {
      const WsPtxInst *in = &hk->insts[i];
      f16 |= in->op == WS_OP_ADD && in->type == WS_T_F16;
      f16x2 |= in->op == WS_OP_FMA && in->type == WS_T_F16X2;
      bf16 |= in->op == WS_OP_FMA && in->type == WS_T_BF16;
      /* inline asm: { .reg.b32 f; .reg.b16 r; cvt.f32.f16 f, r; ... } */
      if (in->op == WS_OP_CVT && in->dst[0].kind == WS_OPND_REG && strcmp (hk->reg_names[in->dst[0].reg], "f") == 0)
        {
          scoped = TRUE;
          g_assert_cmpint (hk->reg_types[in->dst[0].reg], ==, WS_T_B32);
          g_assert_cmpint (in->type2, ==, WS_T_F16);
        }
    }
  g_assert_true (f16 && f16x2 && bf16 && scoped);
}

static void
test_misc_vectors_cache (void)
{
  g_autoptr (WsPtxModule) m = load ("misc.ptx");
  const WsPtxFunction *fn = &m->functions[0];
  gboolean v4 = FALSE, nc = FALSE, vol = FALSE, cs = FALSE, cg = FALSE, wt = FALSE, st64 = FALSE;
  for (guint i = 0; i < fn->n_insts; i++)
    {
      const WsPtxInst *in = &fn->insts[i];
      if (in->op == WS_OP_LD && in->vec == 4 && in->type == WS_T_F32)
        {
          v4 = TRUE;
          g_assert_cmpuint (in->dst[0].count, ==, 4);
        }
      if (in->op == WS_OP_LD && (in->mods & WS_MOD_NC))
        nc = TRUE;
      if (in->op == WS_OP_ST && (in->mods & WS_MOD_VOLATILE))
        vol = TRUE;
      cs |= in->op == WS_OP_LD && in->cache_op == WS_CACHE_CS;
      cg |= in->op == WS_OP_LD && in->cache_op == WS_CACHE_CG;
      wt |= in->op == WS_OP_ST && in->cache_op == WS_CACHE_WT;
      if (in->op == WS_OP_ST && in->vec == 2 && in->type == WS_T_F64)
        {
          st64 = TRUE;
          g_assert_cmpint (in->src[1].kind, ==, WS_OPND_VEC);
          g_assert_cmpuint (in->src[1].count, ==, 2);
        }
    }
  g_assert_true (v4 && nc && vol && cs && cg && wt && st64);
  g_assert_cmpuint (fn->local_bytes, ==, 96);
}

static void
test_lineinfo_and_debug (void)
{
  g_autoptr (WsPtxModule) m = load ("vecadd-lineinfo.ptx");
  g_assert_cmpuint (m->n_files, >=, 2);
  g_assert_cmpstr (m->files[1], ==, "vecadd.cu");
  const WsPtxFunction *fn = fn_named (m, "_Z6vecAddPKfS0_Pfi");
  /* c[i] = a[i] + b[i] is line 6 of vecadd.cu, the bound check line 5 */
  const WsPtxInst *add = &fn->insts[find_op (fn, WS_OP_ADD, 2)];
  g_assert_cmpint (add->type, ==, WS_T_F32);
  g_assert_cmpuint (add->src_file, ==, 1);
  g_assert_cmpuint (add->src_line, ==, 6);
  g_assert_cmpuint (fn->insts[find_op (fn, WS_OP_SETP, 0)].src_line, ==, 5);
  g_assert_cmpuint (fn->insts[0].src_line, ==, 2);
  g_assert_false (m->debug);

  g_autoptr (WsPtxModule) d = load ("calls-debug.ptx");
  g_assert_true (d->debug);
  g_assert_cmpuint (d->n_functions, ==, 9);
  const WsPtxFunction *fib = fn_named (d, "_Z3fibi");
  g_assert_cmpuint (fib->n_calls, ==, 2);
  g_assert_cmpuint (fib->insts[0].src_file, ==, 1);
  g_assert_cmpuint (fib->insts[0].src_line, >, 0);
  /* -G code is unoptimised: loads from .param through generic ld */
  g_autoptr (WsPtxModule) v = load ("vecadd-debug.ptx");
  const WsPtxFunction *vf = fn_named (v, "_Z6vecAddPKfS0_Pfi");
  g_assert_cmpint (vf->insts[find_op (vf, WS_OP_LD, 4)].space, ==, WS_SPACE_GENERIC);
}

static void
test_immediates_snippet (void)
{
  const char
    *text = ".version 9.0\n.target sm_80\n.address_size 64\n"
            ".visible .entry k(.param .u64 p)\n{\n"
            "  .reg .b32 %r<6>;\n  .reg .f32 %f<4>;\n  .reg .f64 %fd<3>;\n  .reg .b64 %rd<4>;\n  .reg .pred %p<3>;\n"
            "  mov.f32 %f1, 1.5;\n"                                         /* 0 decimal float */
            "  mov.f32 %f2, 0fBF800000;\n"                                  /* 1 hex single */
            "  mov.f64 %fd1, 0.1;\n"                                        /* 2 decimal double */
            "  mov.f64 %fd2, 0d3FF0000000000000;\n"                         /* 3 */
            "  add.s32 %r1, %r2, -1;\n"                                     /* 4 */
            "  shl.b64 %rd1, %rd2, 3;\n"                                    /* 5 u32 shift amount */
            "  mad.wide.s32 %rd3, %r1, 4, -8;\n"                            /* 6 64-bit addend */
            "  mov.b32 %r3, 0x80000000;\n"                                  /* 7 */
            "  mov.u32 %r4, 017;\n"                                         /* 8 octal */
            "  mov.b64 %rd1, {%r1, %r2};\n"                                 /* 9 */
            "  setp.lt.and.f32 %p1|%p2, %f1, %f2, !%p0;\n"                  /* 10 */
            "  @!%p1 bra END;\n"                                            /* 11 */
            "  st.global.v2.u32 [%rd1+-8], {%r1, 7};\n"                     /* 12 mov + 13 st */
            "  ld.global.v4.u32 {%r1, _, %r3, _}, [%rd2];\n"                /* 14 */
            "  cvt.rn.f32.s32 %f3, 100;\n"                                  /* 15 type2 source */
            "  selp.f32 %f1, 2.0, %f2, %p1;\n"                              /* 16 */
            "  mul.f32 %f1, %f1, 3;\n"                                      /* 17 integer literal for f32 */
            "END:\n  ret;\n"                                                /* 18 */
            "  { .reg .b32 t; mov.b32 t, 1; }\n"                            /* 19 */
            "  { .reg .b32 t; .reg .b32 u; mov.b32 t, 2; mov.b32 u, t; }\n" /* 20 21 */
            "  mov.b64 %rd1, {%r1, 5};\n"                                   /* 22 mov.b32 + 23 */
            "  mov.b32 %r1, {-1, %r2};\n"                                   /* 24 mov.b16 + 25 */
            "  ret;\n}\n";
  g_autoptr (WsPtxModule) m = parse_ok (text);
  const WsPtxFunction *fn = &m->functions[0];
  g_assert_cmpuint (fn->n_insts, ==, 27);
  /* registers of closed { } scopes are reused: t gets the same slot twice */
  g_assert_cmpuint (fn->insts[19].dst[0].reg, ==, fn->insts[20].dst[0].reg);
  g_assert_cmpuint (fn->insts[21].dst[0].reg, !=, fn->insts[20].dst[0].reg);
  g_assert_cmpint (fn->insts[22].op, ==, WS_OP_MOV);
  g_assert_cmpint (fn->insts[22].type, ==, WS_T_B32);
  g_assert_cmpuint (fn->insts[22].src[0].imm, ==, 5);
  g_assert_cmpint (fn->reg_types[fn->insts[22].dst[0].reg], ==, WS_T_B32);
  g_assert_cmpuint (fn->insts[23].src[0].vec_regs[1], ==, fn->insts[22].dst[0].reg);
  g_assert_cmpint (fn->insts[24].type, ==, WS_T_B16);
  g_assert_cmpuint (fn->insts[24].src[0].imm, ==, 0xffff);
  g_assert_cmpuint (fn->insts[25].src[0].vec_regs[0], ==, fn->insts[24].dst[0].reg);
  float f = 1.5f;
  uint32_t fb;
  memcpy (&fb, &f, 4);
  g_assert_cmpuint (fn->insts[0].src[0].imm, ==, fb);
  g_assert_cmpuint (fn->insts[1].src[0].imm, ==, 0xBF800000u);
  double d = 0.1;
  uint64_t db;
  memcpy (&db, &d, 8);
  g_assert_cmpuint (fn->insts[2].src[0].imm, ==, db);
  g_assert_cmpuint (fn->insts[3].src[0].imm, ==, 0x3FF0000000000000ull);
  g_assert_cmpuint (fn->insts[4].src[1].imm, ==, 0xffffffffu);
  g_assert_cmpuint (fn->insts[5].src[1].imm, ==, 3);
  g_assert_cmpint (ws_ptx_inst_src_type (&fn->insts[5], 1), ==, WS_T_U32);
  g_assert_cmpuint (fn->insts[6].src[1].imm, ==, 4);
  g_assert_cmpuint (fn->insts[6].src[2].imm, ==, (uint64_t) -8);
  g_assert_cmpuint (fn->insts[7].src[0].imm, ==, 0x80000000u);
  g_assert_cmpuint (fn->insts[8].src[0].imm, ==, 15);
  g_assert_cmpint (fn->insts[9].src[0].kind, ==, WS_OPND_VEC);
  const WsPtxInst *sp = &fn->insts[10];
  g_assert_cmpint (sp->boolop, ==, WS_BOOL_AND);
  g_assert_cmpint (sp->cmp, ==, WS_CMP_LT);
  g_assert_cmpuint (sp->ndst, ==, 2);
  g_assert_cmpint (sp->src[2].kind, ==, WS_OPND_PRED);
  g_assert_true (sp->src[2].neg);
  g_assert_true (fn->insts[11].guard_neg);
  g_assert_cmpuint (fn->insts[11].src[0].target, ==, 18);
  /* immediate in a vector: a mov into a hidden register first */
  g_assert_cmpint (fn->insts[12].op, ==, WS_OP_MOV);
  g_assert_cmpuint (fn->insts[12].src[0].imm, ==, 7);
  g_assert_cmpint (fn->insts[13].op, ==, WS_OP_ST);
  g_assert_cmpuint (fn->insts[13].src[1].vec_regs[1], ==, fn->insts[12].dst[0].reg);
  g_assert_cmpint (fn->insts[13].src[0].offset, ==, -8);
  g_assert_cmpuint (fn->insts[14].dst[0].vec_regs[1], ==, WS_REG_SINK);
  g_assert_cmpuint (fn->insts[14].dst[0].vec_regs[3], ==, WS_REG_SINK);
  g_assert_cmpuint (fn->insts[15].src[0].imm, ==, 100);
  g_assert_cmpuint (fn->insts[16].src[0].imm, ==, 0x40000000u);
  g_assert_cmpuint (fn->insts[17].src[1].imm, ==, 0x40400000u);
  g_autofree char *s = inst_str (m, fn, 10);
  g_assert_cmpstr (s, ==, "setp.lt.and.f32 %p1|%p2, %f1, %f2, !%p0;");
}

static void
test_directives_snippet (void)
{
  const char *text =
    "// header\n.version 8.5\n.target sm_90\n.address_size 64\n"
    ".file 1 \"/src/a.cu\", 1700000000, 1234\n"
    ".global .align 8 .b8 tbl[2][3] = {{1, 2, 3}, {4, 5, 6}};\n"
    ".const .align 4 .f32 cf[] = {1.0, 0f40000000};\n"
    ".global .u32 a = 1, b = 0x10;\n"
    ".global .align 8 .u64 ptrs[] = {generic(a)+4, b, 0};\n"
    ".weak .global .align 4 .u32 w;\n"
    ".section .debug_str { $L__str: .b8 65,66,0 }\n"
    ".func (.param .b64 r) f(.param .b32 x, .param .align 16 .b8 s[20]);\n"
    ".visible .entry k(.param .u32 .ptr .global .align 4 p, .param .u64 q)\n"
    ".maxntid 256, 1, 1\n.minnctapersm 2\n.maxnreg 64\n"
    "{\n  .reg .b32 %r<3>;\n  .reg .b64 %rd<2>;\n  .pragma \"nounroll\";\n"
    "  .loc 1 7 3\n"
    "  mov.u32 %r1, %envreg3;\n"
    "  { .reg .b32 %r; mov.u32 %r, 1; }\n"
    "  { .param .b32 x0; .param .align 16 .b8 s0[20]; .param .b64 r0;\n"
    "    st.param.b32 [x0], %r1;\n"
    "    call.uni (r0), f, (x0, s0);\n"
    "    ld.param.b64 %rd1, [r0]; }\n"
    "  mov.u64 %rd1, tbl;\n"
    "  ld.global.u32 %r2, [a+4];\n"
    "  ld.const.f32 %r2, [cf];\n"
    "  exit;\n}\n"
    ".func (.param .b64 r) f(.param .b32 x, .param .align 16 .b8 s[20])\n{\n  st.param.b64 [r], 0;\n  ret;\n}\n";
  g_autoptr (WsPtxModule) m = parse_ok (text);
  g_assert_cmpuint (m->version_major, ==, 8);
  g_assert_cmpuint (m->version_minor, ==, 5);
  g_assert_cmpstr (m->target, ==, "sm_90");
  g_assert_cmpstr (m->files[1], ==, "/src/a.cu");
  const WsPtxSymbol *tbl = sym_named (m, "tbl", -1);
  g_assert_cmpuint (tbl->size, ==, 6);
  g_assert_cmpmem (tbl->init, 6, "\1\2\3\4\5\6", 6);
  const WsPtxSymbol *cf = sym_named (m, "cf", -1);
  g_assert_cmpuint (cf->size, ==, 8);
  float fv[2];
  memcpy (fv, cf->init, 8);
  g_assert_cmpfloat (fv[0], ==, 1.0f);
  g_assert_cmpfloat (fv[1], ==, 2.0f);
  g_assert_cmpuint (sym_named (m, "b", -1)->init[0], ==, 0x10);
  g_assert_cmpuint (sym_named (m, "a", -1)->init[0], ==, 1);
  g_assert_true (sym_named (m, "w", -1)->is_visible);
  const WsPtxSymbol *ptrs = sym_named (m, "ptrs", -1);
  g_assert_cmpuint (ptrs->size, ==, 24);
  g_assert_cmpuint (ptrs->n_init_relocs, ==, 2);
  g_assert_cmpint (ptrs->init_reloc_addends[0], ==, 4);
  g_assert_cmpuint (ptrs->init_reloc_offsets[1], ==, 8);
  g_assert_cmpstr (m->symbols[ptrs->init_reloc_symbols[1]].name, ==, "b");
  const WsPtxFunction *k = fn_named (m, "k");
  g_assert_cmpuint (k->maxntid[0], ==, 256);
  g_assert_cmpuint (k->maxntid[1], ==, 1);
  g_assert_cmpuint (k->minnctapersm, ==, 2);
  g_assert_cmpuint (k->maxnreg, ==, 64);
  g_assert_cmpuint (m->symbols[k->params[1]].param_offset, ==, 8);
  g_assert_cmpuint (k->insts[0].src[0].sreg, ==, WS_SREG_ENVREG);
  g_assert_cmpuint (k->insts[0].src[0].comp, ==, 3);
  g_assert_cmpuint (k->insts[0].src_line, ==, 7);
  /* the scoped %r is a different slot from %r0..%r2 */
  g_assert_cmpuint (k->insts[1].dst[0].reg, ==, 5);
  g_assert_cmpuint (k->call_param_bytes, ==, 48);
  const WsPtxSymbol *s0 = sym_named (m, "s0", ws_ptx_module_find_function (m, "k"));
  g_assert_cmpuint (s0->param_offset, ==, 16);
  const WsPtxFunction *f = fn_named (m, "f");
  g_assert_true (f->has_body);
  g_assert_cmpuint (m->symbols[f->params[1]].param_offset, ==, 16);
  g_assert_cmpuint (f->param_bytes, ==, 36);
  g_assert_cmpuint (k->calls[0].callee, ==, (guint) ws_ptx_module_find_function (m, "f"));
  const WsPtxInst *lda = &k->insts[find_op (k, WS_OP_LD, 1)];
  g_assert_cmpint (lda->src[0].comp, ==, WS_OPND_SYMBOL);
  g_assert_cmpint (lda->src[0].offset, ==, 4);
  g_assert_cmpint (k->insts[k->n_insts - 1].op, ==, WS_OP_EXIT);
  g_autofree uint32_t *ip = ws_ptx_function_ipdom (k);
  g_assert_cmpuint (ip[k->n_insts - 1], ==, k->n_insts);
}


static void
test_brx_cp_async_snippet (void)
{
  const char *text = ".version 9.0\n.target sm_80\n.address_size 64\n"
                     ".shared .align 16 .b8 buf[256];\n"
                     ".visible .entry k(.param .u64 p)\n{\n"
                     "  .reg .b32 %r<4>;\n  .reg .b64 %rd<4>;\n  .reg .pred %p<2>;\n"
                     "  ld.param.u64 %rd1, [p];\n"                                          /* 0 */
                     "  mov.u32 %r1, buf;\n"                                                /* 1 */
                     "  cp.async.ca.shared.global [%r1], [%rd1], 16;\n"                     /* 2 */
                     "  cp.async.cg.shared.global.L2::128B [%r1+16], [%rd1+16], 16, %r2;\n" /* 3 */
                     "  cp.async.commit_group;\n"                                           /* 4 */
                     "  cp.async.wait_group 0;\n"                                           /* 5 */
                     "  cp.async.wait_all;\n"                                               /* 6 */
                     "  ld.global.L2::cache_hint.u32 %r2, [%rd1], %rd2;\n"                  /* 7 */
                     "  st.global.L1::no_allocate.u32 [%rd1], %r2;\n"                       /* 8 */
                     "  fence.acq_rel.gpu;\n"                                               /* 9 */
                     "  fence.proxy.async.shared::cta;\n"                                   /* 10 */
                     "$L_brx_0: .branchtargets A, B, C;\n"
                     "  brx.idx %r2, $L_brx_0;\n"              /* 11 */
                     "A: add.u32 %r3, %r3, 1;\n  bra.uni D;\n" /* 12 13 */
                     "B: add.u32 %r3, %r3, 2;\n  bra.uni D;\n" /* 14 15 */
                     "C: add.u32 %r3, %r3, 3;\n"               /* 16 */
                     "D: cvt.rn.f16x2.f32 %r1, %r2, %r3;\n"    /* 17 */
                     "  bmsk.clamp.b32 %r1, %r2, 3;\n"         /* 18 */
                     "  @%p1 exit;\n"                          /* 19 */
                     "  ret;\n}\n";
  g_autoptr (WsPtxModule) m = parse_ok (text);
  const WsPtxFunction *fn = &m->functions[0];
  g_assert_cmpuint (fn->n_insts, ==, 21);
  g_assert_cmpint (fn->insts[1].src[0].kind, ==, WS_OPND_SYMBOL);
  const WsPtxInst *cp = &fn->insts[2];
  g_assert_cmpint (cp->op, ==, WS_OP_CP_ASYNC);
  g_assert_cmpint (cp->sub, ==, WS_SUB_NONE);
  g_assert_cmpint (cp->space, ==, WS_SPACE_SHARED);
  g_assert_cmpint (cp->cache_op, ==, WS_CACHE_CA);
  g_assert_cmpuint (cp->imm2, ==, 16);
  g_assert_cmpint (cp->src[1].kind, ==, WS_OPND_ADDR);
  g_assert_cmpint (cp->opclass, ==, WS_OPCLASS_LD);
  g_assert_cmpint (fn->insts[3].cache_op, ==, WS_CACHE_CG);
  g_assert_cmpuint (fn->insts[3].nsrc, ==, 4);
  g_assert_cmpint (fn->insts[4].sub, ==, WS_SUB_COMMIT_GROUP);
  g_assert_cmpint (fn->insts[5].sub, ==, WS_SUB_WAIT_GROUP);
  g_assert_cmpuint (fn->insts[5].imm2, ==, 0);
  g_assert_cmpint (fn->insts[6].sub, ==, WS_SUB_WAIT_ALL);
  g_assert_cmpuint (fn->insts[7].nsrc, ==, 2); /* cache policy operand kept, no semantics */
  g_assert_cmpint (fn->insts[8].space, ==, WS_SPACE_GLOBAL);
  g_assert_true ((fn->insts[9].mods & (WS_MOD_ACQUIRE | WS_MOD_RELEASE)) == (WS_MOD_ACQUIRE | WS_MOD_RELEASE));
  g_assert_cmpint (fn->insts[9].scope, ==, WS_SCOPE_GPU);
  g_assert_true (fn->insts[10].mods & WS_MOD_PROXY);
  const WsPtxInst *brx = &fn->insts[11];
  g_assert_cmpint (brx->op, ==, WS_OP_BRX);
  g_assert_cmpint (brx->sub, ==, WS_SUB_IDX_BRX);
  g_assert_cmpuint (brx->nsrc, ==, 1);
  g_assert_cmpuint (fn->n_branch_tables, ==, 1);
  g_assert_cmpuint (brx->imm2, ==, 0);
  g_assert_cmpuint (fn->n_branch_targets[0], ==, 3);
  g_assert_cmpuint (fn->branch_tables[0][0], ==, 12);
  g_assert_cmpuint (fn->branch_tables[0][1], ==, 14);
  g_assert_cmpuint (fn->branch_tables[0][2], ==, 16);
  g_assert_true (fn->insts[17].mods & WS_MOD_PACKED);
  g_assert_cmpuint (fn->insts[17].nsrc, ==, 2);
  g_assert_true (fn->insts[18].mods & WS_MOD_CLAMP);
  g_autofree uint32_t *ip = ws_ptx_function_ipdom (fn);
  g_assert_cmpuint (ip[11], ==, 17); /* all cases meet at D */
  g_assert_cmpuint (ip[13], ==, 17);
  g_assert_cmpuint (ip[19], ==, 21); /* guarded exit: both paths end the thread */
  g_assert_cmpuint (ip[20], ==, 21);
  g_assert_cmpuint (m->shared_bytes, ==, 256);
}


/* The modifier rules (core/ptx/ws-ptx-parse.c, modifier_rules): group
 * rules, a refinement that needs what it refines, two rules for one word,
 * and opcodes that take only their own words. */
static void
test_modifier_rules (void)
{
  const char *text = ".version 9.0\n.target sm_80\n.address_size 64\n"
                     ".shared .align 8 .b64 bar0;\n"
                     ".visible .entry k(.param .u64 p)\n{\n"
                     "  .reg .b32 %r<4>;\n  .reg .b64 %rd<4>;\n  .reg .pred %p<2>;\n"
                     "  bar.warp.sync -1;\n"                                                      /* 0 */
                     "  barrier.cta.sync.aligned 0;\n"                                            /* 1 */
                     "  bar.red.and.pred %p1, 0, %p0;\n"                                          /* 2 */
                     "  setp.ltu.and.ftz.f32 %p1, %r1, %r2, %p0;\n"                               /* 3 */
                     "  atom.global.gpu.relaxed.cas.b32 %r1, [%rd1], %r2, %r3;\n"                 /* 4 */
                     "  red.global.add.noftz.f16 [%rd1], %r1;\n"                                  /* 5 */
                     "  mbarrier.try_wait.parity.acquire.cta.shared::cta.b64 %p1, [bar0], %r1;\n" /* 6 */
                     "  membar.gl;\n"                                                             /* 7 */
                     "  shf.r.wrap.b32 %r1, %r2, %r3, 5;\n"                                       /* 8 */
                     "  ld.global.nc.L1::evict_last.cs.v2.u32 {%r1, %r2}, [%rd1];\n"              /* 9 */
                     "  vadd4.u32.u32.s32.sat %r1, %r2, %r3, %r0;\n"                              /* 10 */
                     "  ret;\n}\n";
  g_autoptr (WsPtxModule) m = parse_ok (text);
  const WsPtxFunction *fn = &m->functions[0];
  g_assert_null (fn->unsupported);
  g_assert_cmpuint (fn->n_insts, ==, 12);
  const WsPtxInst *in = fn->insts;
  g_assert_cmpint (in[0].sub, ==, WS_SUB_WARP_SYNC); /* .sync keeps the kind .warp gave */
  g_assert_true (in[0].mods & WS_MOD_SYNC);
  g_assert_cmpint (in[1].sub, ==, WS_SUB_SYNC); /* .sync: both a flag and the kind */
  g_assert_true ((in[1].mods & (WS_MOD_SYNC | WS_MOD_ALIGNED)) == (WS_MOD_SYNC | WS_MOD_ALIGNED));
  g_assert_cmpint (in[1].scope, ==, WS_SCOPE_NONE); /* barrier.cta is barrier */
  g_assert_cmpint (in[2].sub, ==, WS_SUB_RED_AND);
  g_assert_cmpint (in[3].cmp, ==, WS_CMP_LTU);
  g_assert_cmpint (in[3].boolop, ==, WS_BOOL_AND);
  g_assert_true (in[3].mods & WS_MOD_FTZ);
  g_assert_cmpint (in[4].sub, ==, WS_SUB_CAS);
  g_assert_cmpint (in[4].scope, ==, WS_SCOPE_GPU);
  g_assert_true (in[4].mods & WS_MOD_RELAXED);
  g_assert_cmpint (in[5].sub, ==, WS_SUB_ADD);
  g_assert_true (in[5].mods & WS_MOD_NOFTZ_F16);
  g_assert_cmpint (in[6].sub, ==, WS_SUB_MBAR_TRY_WAIT);
  g_assert_cmpuint (in[6].imm2, ==, 1);
  g_assert_cmpint (in[6].scope, ==, WS_SCOPE_CTA);
  g_assert_cmpint (in[6].space, ==, WS_SPACE_SHARED);
  g_assert_true (in[6].mods & WS_MOD_ACQUIRE);
  g_assert_cmpint (in[7].scope, ==, WS_SCOPE_GPU); /* membar.gl */
  g_assert_cmpint (in[8].sub, ==, WS_SUB_R);
  g_assert_true (in[8].mods & WS_MOD_WRAP);
  g_assert_cmpint (in[9].cache_op, ==, WS_CACHE_CS);
  g_assert_true (in[9].mods & WS_MOD_NC);
  g_assert_cmpuint (in[9].vec, ==, 2);
  g_assert_cmpint (in[10].type, ==, WS_T_U32); /* vop4.dtype.atype.btype: btype in imm2 */
  g_assert_cmpint (in[10].type2, ==, WS_T_U32);
  g_assert_cmpuint (in[10].imm2, ==, WS_T_S32);
  g_assert_true (in[10].mods & WS_MOD_SAT);

  /* Not valid where they appear: a refinement without what it refines, a
   * word of every opcode on an opcode that takes only its own, a word of
   * another opcode. */
  const char *bad[] = { "bar.and.pred %p1, 0, %p0;", "vote.rn.all.pred %p1, %p0;",
                        "shfl.sync.ftz.bfly.b32 %r1, %r2, 1, 31, -1;", "mov.ltu.u32 %r1, %r2;" };
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autofree char *t = g_strdup_printf (".version 9.0\n.target sm_80\n.address_size 64\n"
                                            ".visible .entry k()\n{\n  .reg .b32 %%r<4>;\n  .reg .pred %%p<2>;\n"
                                            "  %s\n  ret;\n}\n",
                                            bad[i]);
      g_autoptr (GError) error = NULL;
      g_autoptr (WsPtxModule) bm = ws_ptx_parse (t, strlen (t), "bad.ptx", &error);
      g_assert_no_error (error);
      const WsPtxFunction *k = &bm->functions[0];
      if (k->unsupported == NULL || !strstr (k->unsupported, "modifier"))
        g_error ("'%s': got %s, want a modifier refused", bad[i], k->unsupported ? k->unsupported : "(accepted)");
    }
}

static void
test_features (void)
{
  g_autoptr (WsPtxModule) m = load ("features.ptx");
  /* vtables: function addresses and zeros in one initialiser */
  const WsPtxSymbol *vt = sym_named (m, "_ZTV2Sq", -1);
  g_assert_cmpuint (vt->size, ==, 40);
  g_assert_cmpuint (vt->n_init_relocs, ==, 3);
  g_assert_cmpuint (vt->init_reloc_offsets[0], ==, 16);
  g_assert_true (vt->init_reloc_is_function[0]);
  g_assert_cmpstr (m->functions[vt->init_reloc_symbols[0]].name, ==, "_ZNK2Sq4areaEv");
  g_assert_cmpuint (vt->init_reloc_offsets[2], ==, 32);
  /* virtual calls are indirect; new/delete call malloc/free */
  const WsPtxFunction *virt = fn_named (m, "_Z4virtPfi");
  guint n_ind = 0, n_malloc = 0;
  for (guint c = 0; c < virt->n_calls; c++)
    {
      n_ind += virt->calls[c].callee == G_MAXUINT32;
      n_malloc += virt->calls[c].is_malloc;
    }
  g_assert_cmpuint (n_ind, ==, 2);
  g_assert_cmpuint (n_malloc, ==, 2);
  g_assert_true (fn_named (m, "_ZN2SqD0Ev")->calls[0].is_free);
  /* __pipeline_memcpy_async */
  const WsPtxFunction *pl = fn_named (m, "_Z8pipelinePK4int4PS_");
  const WsPtxInst *cp = &pl->insts[find_op (pl, WS_OP_CP_ASYNC, 0)];
  g_assert_cmpint (cp->sub, ==, WS_SUB_NONE);
  g_assert_cmpint (cp->space, ==, WS_SPACE_SHARED);
  g_assert_cmpuint (cp->imm2, ==, 16);
  g_assert_cmpint (pl->insts[find_op (pl, WS_OP_CP_ASYNC, 1)].sub, ==, WS_SUB_COMMIT_GROUP);
  g_assert_cmpint (pl->insts[find_op (pl, WS_OP_CP_ASYNC, 2)].sub, ==, WS_SUB_WAIT_GROUP);
  g_autofree char *cps = inst_str (m, pl, find_op (pl, WS_OP_CP_ASYNC, 0));
  g_assert_true (g_str_has_prefix (cps, "cp.async.cg.shared.global ["));
  /* intrinsics */
  const WsPtxFunction *k = fn_named (m, "_Z10intrinsicsPiPKiS1_PyP7__half2PtP6__half");
  const WsPtxInst *dp = &k->insts[find_op (k, WS_OP_DP4A, 0)];
  g_assert_cmpint (dp->type, ==, WS_T_S32);
  g_assert_cmpint (dp->type2, ==, WS_T_S32);
  g_assert_true (k->insts[find_op (k, WS_OP_DP2A, 0)].mods & WS_MOD_LO);
  const WsPtxInst *h2 = &k->insts[find_op (k, WS_OP_ATOM, 0)];
  g_assert_cmpint (h2->type, ==, WS_T_F16X2);
  g_assert_true (h2->mods & WS_MOD_NOFTZ_F16);
  g_assert_cmpint (h2->space, ==, WS_SPACE_GENERIC);
  const WsPtxInst *cas16 = &k->insts[find_op (k, WS_OP_ATOM, 2)];
  g_assert_cmpint (cas16->sub, ==, WS_SUB_CAS);
  g_assert_cmpint (cas16->type, ==, WS_T_B16);
  g_assert_cmpuint (cas16->src[2].imm, ==, 2);
  gboolean smid = FALSE, gt = FALSE;
  for (guint i = 0; i < k->n_insts; i++)
    if (k->insts[i].op == WS_OP_MOV && k->insts[i].src[0].kind == WS_OPND_SPECIAL)
      {
        smid |= k->insts[i].src[0].sreg == WS_SREG_SMID;
        gt |= k->insts[i].src[0].sreg == WS_SREG_GLOBALTIMER;
      }
  g_assert_true (smid && gt);
  g_assert_cmpint (k->insts[find_op (k, WS_OP_NANOSLEEP, 0)].opclass, ==, WS_OPCLASS_OTHER);
  g_assert_cmpint (k->insts[find_op (k, WS_OP_REDUX, 0)].sub, ==, WS_SUB_MAX);
  g_autofree uint32_t *ip = ws_ptx_function_ipdom (k);
  g_assert_cmpuint (ip[find_op (k, WS_OP_TRAP, 0)], ==, k->n_insts);
  g_assert_cmpuint (ip[find_op (k, WS_OP_EXIT, 0)], ==, k->n_insts);
}


/* One line per opcode of the IR: every mnemonic the X-macro lists decodes. */
static void
test_every_opcode_snippet (void)
{
  const char *lines[] = {
    "abs.s32 %r1, %r2;",
    "activemask.b32 %r1;",
    "add.sat.s32 %r1, %r2, 1;",
    "addc.cc.u32 %r1, %r2, %r3;",
    "and.b32 %r1, %r2, 0xff;",
    "atom.global.acquire.gpu.inc.u32 %r1, [%rd1], 9;",
    "bar.arrive 1, 64;",
    "barrier.sync.aligned 0;",
    "bfe.u32 %r1, %r2, 8, 4;",
    "bfi.b32 %r1, %r2, %r3, 4, 8;",
    "bfind.u32 %r1, %r2;",
    "bmsk.wrap.b32 %r1, %r2, %r3;",
    "bra.uni L1;",
    "brev.b32 %r1, %r2;",
    "brkpt;",
    "call.uni f, (pa);",
    "clz.b32 %r1, %r2;",
    "cnot.b32 %r1, %r2;",
    "copysign.f32 %f1, %f2, %f3;",
    "cos.approx.ftz.f32 %f1, %f2;",
    "cvt.rzi.ftz.sat.s32.f32 %r1, %f1;",
    "cvta.shared.u64 %rd1, %rd2;",
    "div.full.f32 %f1, %f2, %f3;",
    "dp2a.hi.u32.u32 %r1, %r2, %r3, %r4;",
    "dp4a.u32.s32 %r1, %r2, %r3, 7;",
    "ex2.approx.f32 %f1, %f2;",
    "@%p1 exit;",
    "fence.sc.cta;",
    "fma.rn.sat.f32 %f1, %f2, %f3, 0f3F800000;",
    "fns.b32 %r1, %r2, %r3, 1;",
    "isspacep.shared %p1, %rd1;",
    "ld.relaxed.sys.global.u32 %r1, [%rd1];",
    "ldu.global.f32 %f1, [%rd1+8];",
    "lg2.approx.ftz.f32 %f1, %f2;",
    "lop3.b32 %r1, %r2, %r3, %r4, 0x96;",
    "mad.hi.cc.u32 %r1, %r2, %r3, %r4;",
    "madc.lo.u32 %r1, %r2, %r3, %r4;",
    "mad24.lo.s32 %r1, %r2, %r3, %r4;",
    "match.any.sync.b64 %rd1, %rd2, 0xffffffff;",
    "max.NaN.f32 %f1, %f2, %f3;",
    "membar.cta;",
    "min.xorsign.abs.f32 %f1, %f2, %f3;",
    "mov.u32 %r1, %nctaid.z;",
    "mul.lo.u16 %rs1, %rs2, 3;",
    "mul24.hi.u32 %r1, %r2, %r3;",
    "nanosleep.u32 5;",
    "neg.f64 %fd1, %fd2;",
    "not.pred %p2, %p1;",
    "or.b64 %rd1, %rd2, 1;",
    "popc.b32 %r1, %r2;",
    "prefetch.global.L2 [%rd1];",
    "prmt.b32.ecl %r1, %r2, %r3, %r4;",
    "rcp.approx.ftz.f64 %fd1, %fd2;",
    "red.release.gpu.global.add.f32 [%rd1], %f1;",
    "redux.sync.or.b32 %r1, %r2, %r3;",
    "rem.u64 %rd1, %rd2, 7;",
    "rsqrt.approx.f32 %f1, %f2;",
    "sad.u32 %r1, %r2, %r3, %r4;",
    "selp.b32 %r1, %r2, -1, %p1;",
    "set.gtu.u32.f32 %r1, %f1, %f2;",
    "setp.num.and.f32 %p1, %f1, %f2, %p2;",
    "shf.r.clamp.b32 %r1, %r2, %r3, 33;",
    "shfl.sync.bfly.b32 %r1, %r2, 1, 31, -1;",
    "shl.b64 %rd1, %rd2, 62;",
    "shr.s32 %r1, %r2, %r3;",
    "sin.approx.f32 %f1, %f2;",
    "slct.f32.s32 %f1, %f2, %f3, %r1;",
    "sqrt.approx.ftz.f32 %f1, %f2;",
    "st.release.cta.shared.v2.u32 [%rd1], {%r1, %r2};",
    "sub.f64 %fd1, %fd2, 0d3FF0000000000000;",
    "subc.cc.u32 %r1, %r2, %r3;",
    "tanh.approx.f32 %f1, %f2;",
    "testp.notanumber.f64 %p1, %fd1;",
    "trap;",
    "vote.sync.uni.pred %p1, !%p2, 0xffffffff;",
    "xor.b32 %r1, %r2, %r3;",
    "pmevent 3;",
    "mapa.shared::cluster.u32 %r1, %r2, %r3;",
    "cp.async.ca.shared.global [%rd1], [%rd2], 8;",
    "elect.sync %r1|%p1, 0xffffffff;",
    "tex.2d.v4.f32.f32 {%f1, %f2, %f3, %f1}, [%rd1, {%f2, %f3}];",
    "suld.b.2d.b32.trap {%r1}, [%rd1, {%r2, %r3}];",
    "sust.b.a1d.v2.b32.zero [%rd1, {%r2, %r3}], {%r4, %r1};",
    "vabsdiff4.u32.u32.u32.add %r1, %r2, %r3, %r4;",
    "vadd4.s32.s32.s32.sat %r1, %r2, %r3, %r4;",
    "vsub4.u32.u32.u32 %r1, %r2, %r3, %r4;",
    "vavrg4.u32.u32.u32 %r1, %r2, %r3, %r4;",
    "vmin4.s32.s32.s32 %r1, %r2, %r3, %r4;",
    "vmax4.u32.s32.u32.add %r1, %r2, %r3, %r4;",
    "griddepcontrol.wait;",
    "wmma.mma.sync.aligned.row.col.m8n8k4.f64.f64.f64.f64.rn {%fd1, %fd2}, {%fd1}, {%fd2}, {%fd1, %fd2};",
    "mbarrier.test_wait.parity.shared::cta.b64 %p1, [%r1], %r2;",
    "L1: ret;",
  };
  GString *t = g_string_new (".version 9.0\n.target sm_90\n.address_size 64\n.func f (.param .b32 a)\n{\n  ret;\n}\n"
                             ".visible .entry k ()\n{\n  .reg .b16 %rs<4>;\n  .reg .b32 %r<5>;\n  .reg .f32 %f<4>;\n"
                             "  .reg .b64 %rd<3>;\n  .reg .f64 %fd<3>;\n  .reg .pred %p<3>;\n  .param .b32 pa;\n");
  for (guint i = 0; i < G_N_ELEMENTS (lines); i++)
    g_string_append_printf (t, "  %s\n", lines[i]);
  g_string_append (t, "}\n");
  g_autoptr (WsPtxModule) m = parse_ok (t->str);
  g_string_free (t, TRUE);
  const WsPtxFunction *fn = fn_named (m, "k");
  g_assert_cmpuint (fn->n_insts, ==, G_N_ELEMENTS (lines));
  guint8 seen[WS_OP_COUNT] = { 0 };
  for (guint i = 0; i < fn->n_insts; i++)
    seen[fn->insts[i].op] = 1;
  for (guint op = 0; op < WS_OP_COUNT; op++)
    if (op != WS_OP_BRX && !seen[op])
      g_error ("opcode %s not covered", ws_ptx_op_name ((WsPtxOp) op));
#define I(n) (&fn->insts[n])
  g_assert_true (I (2)->mods & WS_MOD_SAT);
  g_assert_true (I (3)->mods & WS_MOD_CC);
  g_assert_cmpint (I (5)->scope, ==, WS_SCOPE_GPU);
  g_assert_true (I (5)->mods & WS_MOD_ACQUIRE);
  g_assert_cmpint (I (5)->sub, ==, WS_SUB_INC);
  g_assert_cmpint (I (6)->sub, ==, WS_SUB_ARRIVE);
  g_assert_cmpuint (I (6)->nsrc, ==, 2);
  g_assert_cmpint (I (7)->op, ==, WS_OP_BARRIER);
  g_assert_true (I (7)->mods & WS_MOD_ALIGNED);
  g_assert_cmpuint (I (8)->src[1].imm, ==, 8);
  g_assert_cmpuint (I (9)->src[3].imm, ==, 8);
  g_assert_true (I (11)->mods & WS_MOD_WRAP);
  g_assert_cmpuint (I (12)->src[0].target, ==, fn->n_insts - 1);
  g_assert_cmpint (I (20)->rnd, ==, WS_RND_RZI);
  g_assert_true ((I (20)->mods & (WS_MOD_FTZ | WS_MOD_SAT)) == (WS_MOD_FTZ | WS_MOD_SAT));
  g_assert_cmpint (I (21)->space, ==, WS_SPACE_SHARED);
  g_assert_false (I (21)->mods & WS_MOD_TO);
  g_assert_true (I (22)->mods & WS_MOD_FULL);
  g_assert_true (I (23)->mods & WS_MOD_HI);
  g_assert_cmpint (I (24)->type2, ==, WS_T_S32);
  g_assert_cmpint (ws_ptx_inst_src_type (I (24), 2), ==, WS_T_S32);
  g_assert_cmpuint (I (26)->guard, !=, WS_REG_SINK);
  g_assert_true (I (27)->mods & WS_MOD_SC);
  g_assert_cmpint (I (27)->scope, ==, WS_SCOPE_CTA);
  g_assert_cmpuint (I (28)->src[2].imm, ==, 0x3F800000u);
  g_assert_cmpint (I (30)->space, ==, WS_SPACE_SHARED);
  g_assert_cmpint (I (31)->scope, ==, WS_SCOPE_SYS);
  g_assert_true (I (31)->mods & WS_MOD_RELAXED);
  g_assert_cmpint (I (32)->src[0].offset, ==, 8);
  g_assert_cmpuint (I (34)->src[3].imm, ==, 0x96);
  g_assert_cmpint (I (38)->type, ==, WS_T_B64);
  g_assert_true (I (39)->mods & WS_MOD_NAN);
  g_assert_true ((I (41)->mods & (WS_MOD_XORSIGN | WS_MOD_ABS)) == (WS_MOD_XORSIGN | WS_MOD_ABS));
  g_assert_cmpint (I (42)->src[0].comp, ==, 2);
  g_assert_cmpuint (I (43)->src[1].imm, ==, 3);
  g_assert_cmpint (I (50)->space, ==, WS_SPACE_GLOBAL);
  g_assert_cmpint (I (51)->sub, ==, WS_SUB_ECL);
  g_assert_cmpint (I (53)->op, ==, WS_OP_RED);
  g_assert_cmpuint (I (53)->ndst, ==, 0);
  g_assert_true (I (53)->mods & WS_MOD_RELEASE);
  g_assert_cmpint (I (54)->sub, ==, WS_SUB_OR);
  g_assert_cmpuint (I (58)->src[1].imm, ==, 0xffffffffu);
  g_assert_cmpint (I (59)->type, ==, WS_T_U32);
  g_assert_cmpint (I (59)->type2, ==, WS_T_F32);
  g_assert_cmpint (I (59)->cmp, ==, WS_CMP_GTU);
  g_assert_cmpint (I (60)->cmp, ==, WS_CMP_NUM);
  g_assert_true (I (61)->mods & WS_MOD_CLAMP);
  g_assert_cmpuint (I (61)->src[2].imm, ==, 33);
  g_assert_cmpuint (I (62)->src[3].imm, ==, 0xffffffffu);
  g_assert_cmpint (I (66)->type2, ==, WS_T_S32);
  g_assert_cmpint (I (68)->space, ==, WS_SPACE_SHARED);
  g_assert_cmpint (I (68)->scope, ==, WS_SCOPE_CTA);
  g_assert_cmpint (I (72)->sub, ==, WS_SUB_NOTANUMBER);
  g_assert_cmpint (I (74)->sub, ==, WS_SUB_UNI);
  g_assert_true (I (74)->src[0].neg);
  g_assert_cmpuint (I (78)->imm2, ==, 8);
  g_assert_cmpuint (I (79)->ndst, ==, 2);
#undef I
  for (guint i = 0; i < fn->n_insts; i++)
    {
      g_autofree char *s = inst_str (m, fn, i);
      g_assert_true (g_str_has_prefix (s, ws_ptx_op_name (fn->insts[i].op)) || s[0] == '@');
    }
}

typedef struct {
  const char *body; /* instruction lines placed inside a kernel */
  guint line, col;  /* expected position, line counted in the whole text */
  const char *what; /* expected fragment of the message */
} BadCase;

#define PRE \
  ".version 9.0\n.target sm_80\n.address_size 64\n.visible .entry k(.param .u64 p)\n{\n  .reg .b32 %r<4>;\n  .reg " \
  ".pred %p<2>;\n"
/* PRE has 7 lines; the first body line is line 8 */

static void
test_errors_syntax (void)
{
  const BadCase cases[] = {
    { "  add.s32 %r1, %r2, %r3\n  ret;\n}\n", 9, 3, "expected ';'" },
    { "  add.s32 %r1, %r9, %r3;\n}\n", 8, 16, "%r9' is not declared" },
    { "  bra NOWHERE;\n}\n", 8, 7, "label 'NOWHERE' is not defined" },
    { "  mov.u32 %r1, 0f3F80;\n}\n", 8, 16, "0f needs exactly 8 hex digits" },
    { "  /* never closed\n  ret;\n}\n", 8, 3, "unterminated comment" },
    { "  frobnicate.u32 %r1, %r2;\n}\n", 8, 3, "unknown instruction 'frobnicate.u32'" },
    { "  ld.global.u32 %r1, %r2;\n}\n", 8, 3, "needs a destination and an address" },
    { "  @%r1 bra L;\nL: ret;\n}\n", 8, 4, "is not a declared predicate" },
    { "  mov.u32 %r1, 1;\n", 5, 1, "function body is missing its closing '}'" },
    { "  add.s32 %r1, %r2, 1.5;\n}\n", 8, 3, "floating-point literal" },
    { "  mov.u32 %r1, %tid.w;\n}\n", 8, 16, "malformed special register" },
    { "  ret;\nL: ret;\nL: ret;\n}\n", 10, 1, "label 'L' is defined twice" },
    { "  mov.u32 %r1, 'x';\n}\n", 8, 16, "unexpected character" },
  };
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *text = g_strconcat (PRE, cases[i].body, NULL);
      g_autoptr (GError) error = NULL;
      g_autoptr (WsPtxModule) m = ws_ptx_parse (text, strlen (text), "bad.ptx", &error);
      g_assert_null (m);
      g_assert_error (error, WS_ERROR, WS_ERROR_PARSE);
      g_autofree char *pos = g_strdup_printf ("bad.ptx:%u:%u: ", cases[i].line, cases[i].col);
      if (!g_str_has_prefix (error->message, pos) || !strstr (error->message, cases[i].what))
        g_error ("case %u: got \"%s\", want prefix \"%s\" and \"%s\"", i, error->message, pos, cases[i].what);
    }
  /* module-level problems */
  const struct {
    const char *text;
    const char *msg;
  } mod[] = {
    { ".target sm_80\n", "bad.ptx:1:1: missing .version" },
    { ".version 9.0\n.target sm_80\n.global .u32 x = {1, 2};\n", "bad.ptx:3:22: too many initialisers" },
    { ".version 9.0\n.target sm_80\n.global .u8 x[2] = {1, 2, 3};\n", "bad.ptx:3:27: too many initialisers" },
    { ".version 9.0\n.target sm_80\nhello world\n", "bad.ptx:3:1: expected a directive" },
    { ".version 9.0\n.target sm_80\n.entry k( {\n}\n", "bad.ptx:3:11: expected '.param'" },
    { "", "bad.ptx:1:1: missing .version" },
  };
  for (guint i = 0; i < G_N_ELEMENTS (mod); i++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (WsPtxModule) m = ws_ptx_parse (mod[i].text, strlen (mod[i].text), "bad.ptx", &error);
      g_assert_null (m);
      g_assert_error (error, WS_ERROR, WS_ERROR_PARSE);
      if (!g_str_has_prefix (error->message, mod[i].msg))
        g_error ("module case %u: got \"%s\", want \"%s\"", i, error->message, mod[i].msg);
    }
}

static void
test_errors_unsupported (void)
{
  /* Instructions: the module parses; the function records the first one
   * (message with line and column) and leaves it out. */
  const struct {
    const char *body;
    const char *msg;
  } insts[] = {
    { "  tld4.r.2d.v4.f32.f32 {%r0, %r1, %r2, %r3}, [t, {%r0, %r1}];\n  ret;\n}\n",
      "bad.ptx:8:3: instruction 'tld4.r.2d.v4.f32.f32'" },
    { "  mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%r0}, {%r1}, {%r2}, {%r3};\n  ret;\n}\n",
      "bad.ptx:8:3: instruction 'mma.sync" },
    { "  ld.global.foo.u32 %r1, [%r2];\n  ret;\n}\n", "bad.ptx:8:3: modifier '.foo'" },
  };
  for (guint i = 0; i < G_N_ELEMENTS (insts); i++)
    {
      g_autofree char *text = g_strconcat (PRE, insts[i].body, NULL);
      g_autoptr (GError) error = NULL;
      g_autoptr (WsPtxModule) m = ws_ptx_parse (text, strlen (text), "bad.ptx", &error);
      g_assert_no_error (error);
      g_assert_cmpuint (m->n_functions, ==, 1);
      const WsPtxFunction *k = &m->functions[0];
      g_assert_nonnull (k->unsupported);
      if (!g_str_has_prefix (k->unsupported, insts[i].msg) || !strstr (k->unsupported, "not supported"))
        g_error ("instruction case %u: got \"%s\", want \"%s\"", i, k->unsupported, insts[i].msg);
      g_assert_cmpuint (k->unsupported_line, ==, 8);
      g_assert_cmpuint (k->n_unsupported, ==, 1);
      g_assert_cmpuint (k->n_insts, ==, 1);
      g_assert_cmpint (k->insts[0].op, ==, WS_OP_RET);
      g_assert_cmpuint (k->insts[0].line, ==, 9);
    }
  const struct {
    const char *body;
    const char *msg;
  } cases[] = {
    { "  mov.u32 %r1, %globaltimer_lo;\n}\n", "bad.ptx:8:16: special register" },
  };
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *text = g_strconcat (PRE, cases[i].body, NULL);
      g_autoptr (GError) error = NULL;
      g_autoptr (WsPtxModule) m = ws_ptx_parse (text, strlen (text), "bad.ptx", &error);
      g_assert_null (m);
      g_assert_error (error, WS_ERROR, WS_ERROR_UNSUPPORTED);
      if (!g_str_has_prefix (error->message, cases[i].msg) || !strstr (error->message, "not supported"))
        g_error ("case %u: got \"%s\", want \"%s\"", i, error->message, cases[i].msg);
    }
  const char *huge = ".version 9.0\n.target sm_80\n.global .b8 big[8589934592] = {1};\n";
  g_autoptr (GError) herr = NULL;
  g_autoptr (WsPtxModule) hm = ws_ptx_parse (huge, strlen (huge), "bad.ptx", &herr);
  g_assert_null (hm);
  g_assert_error (herr, WS_ERROR, WS_ERROR_UNSUPPORTED);
  const char *texvar = ".version 9.0\n.target sm_80\n.global .texref t;\n";
  g_autoptr (GError) error = NULL;
  g_autoptr (WsPtxModule) m = ws_ptx_parse (texvar, strlen (texvar), "bad.ptx", &error);
  g_assert_null (m);
  g_assert_error (error, WS_ERROR, WS_ERROR_UNSUPPORTED);
  g_assert_true (g_str_has_prefix (error->message, "bad.ptx:3:9: "));
}

/* Truncations, mutations and random bytes: parse must fail cleanly (or
 * succeed) and never crash; run under valgrind/ASan for the full effect. */
static void
test_garbage_input (void)
{
  gsize len;
  g_autofree char *text = load_text ("calls.ptx", &len);
  guint ok = 0, failed = 0;
  for (gsize cut = 0; cut < len; cut += 1 + cut / 23)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (WsPtxModule) m = ws_ptx_parse (text, cut, "cut.ptx", &error);
      g_assert_true ((m == NULL) != (error == NULL));
      if (m)
        {
          check_module_consistent (m);
          ok++;
        }
      else
        {
          g_assert_true (error->code == WS_ERROR_PARSE || error->code == WS_ERROR_UNSUPPORTED);
          g_assert_true (g_str_has_prefix (error->message, "cut.ptx:"));
          failed++;
        }
    }
  g_assert_cmpuint (failed, >, 50);
  /* cuts right after a function are valid PTX */
  for (const char *q = strstr (text, "\n}\n"); q; q = strstr (q + 1, "\n}\n"))
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (WsPtxModule) m = ws_ptx_parse (text, (gsize) (q + 3 - text), "cut.ptx", &error);
      g_assert_no_error (error);
      check_module_consistent (m);
      ok++;
    }
  g_assert_cmpuint (ok, >=, 9);

  GRand *rand = g_rand_new_with_seed (1234);
  g_autofree char *copy = g_malloc (len);
  const char alphabet[] = "{}[]();,.%$_@!|:+-<>=0123456789abcxyz\n \"/*";
  for (guint iter = 0; iter < 300; iter++)
    {
      memcpy (copy, text, len);
      guint n = 1 + g_rand_int_range (rand, 0, 8);
      for (guint k = 0; k < n; k++)
        {
          gsize at = g_rand_int_range (rand, 0, (gint32) len);
          copy[at] = iter % 3 == 0 ? (char) g_rand_int_range (rand, 0, 256)
                                   : alphabet[g_rand_int_range (rand, 0, sizeof alphabet - 1)];
        }
      g_autoptr (GError) error = NULL;
      g_autoptr (WsPtxModule) m = ws_ptx_parse (copy, len, "mut.ptx", &error);
      g_assert_true ((m == NULL) != (error == NULL));
      if (m)
        check_module_consistent (m);
    }
  for (guint iter = 0; iter < 100; iter++)
    {
      gsize n = g_rand_int_range (rand, 0, 4096);
      for (gsize k = 0; k < n; k++)
        copy[k] = (char) g_rand_int_range (rand, 0, 256);
      g_autoptr (GError) error = NULL;
      g_autoptr (WsPtxModule) m = ws_ptx_parse (copy, n, "rand.ptx", &error);
      g_assert_null (m);
      g_assert_nonnull (error);
    }
  g_rand_free (rand);
}

static void
test_names (void)
{
  g_assert_cmpstr (ws_ptx_op_name (WS_OP_CP_ASYNC), ==, "cp.async");
  g_assert_cmpstr (ws_ptx_op_name (WS_OP_MAD), ==, "mad");
  g_assert_cmpstr (ws_ptx_type_name (WS_T_BF16X2), ==, "bf16x2");
  g_assert_cmpint (ws_ptx_type_size (WS_T_F16X2), ==, 4);
  g_assert_cmpint (ws_ptx_type_size (WS_T_PRED), ==, 0);
  g_assert_cmpstr (ws_ptx_opclass_name (WS_OPCLASS_SFU), ==, "sfu");
  g_assert_cmpstr (ws_ptx_opclass_name (WS_OPCLASS_TENSOR), ==, "tensor");
  g_assert_cmpstr (ws_ptx_op_name (WS_OP_WMMA), ==, "wmma");
}

/* wmma: the three forms parse into one descriptor each (shape, matrix,
 * layouts, element types), fragments are vectors of up to 8 registers,
 * the classes are LD / ST / tensor, text renders back; shapes and types
 * the emulator lacks are recorded as unsupported, wrong fragment sizes are
 * errors. */
static void
test_wmma (void)
{
  const char *text =
    ".version 9.0\n.target sm_80\n.address_size 64\n"
    ".visible .entry k(.param .u64 p)\n{\n  .reg .b32 %r<40>;\n  .reg .f32 %f<20>;\n  .reg .b64 %rd<4>;\n"
    "  .reg .f64 %fd<4>;\n"
    "  wmma.load.a.sync.aligned.row.m16n16k16.shared.f16 {%r0, %r1, %r2, %r3, %r4, %r5, %r6, %r7}, [%rd1], %r30;\n"
    "  wmma.load.b.sync.aligned.col.m16n16k16.f16 {%r8, %r9, %r10, %r11, %r12, %r13, %r14, %r15}, [%rd2];\n"
    "  wmma.load.c.sync.aligned.row.m16n16k16.global.f32 {%f0, %f1, %f2, %f3, %f4, %f5, %f6, %f7}, [%rd3], 32;\n"
    "  wmma.mma.sync.aligned.row.col.m16n16k16.f32.f32 {%f8, %f9, %f10, %f11, %f12, %f13, %f14, %f15}, "
    "{%r0, %r1, %r2, %r3, %r4, %r5, %r6, %r7}, {%r8, %r9, %r10, %r11, %r12, %r13, %r14, %r15}, "
    "{%f0, %f1, %f2, %f3, %f4, %f5, %f6, %f7};\n"
    "  wmma.store.d.sync.aligned.col.m16n16k16.global.f32 [%rd3], {%f8, %f9, %f10, %f11, %f12, %f13, %f14, %f15}, "
    "%r30;\n"
    "  wmma.mma.sync.aligned.row.col.m16n16k16.s32.u8.s8.s32.satfinite {%r16, %r17, %r18, %r19, %r20, %r21, %r22, "
    "%r23}, "
    "{%r0, %r1}, {%r2, %r3}, {%r8, %r9, %r10, %r11, %r12, %r13, %r14, %r15};\n"
    "  wmma.mma.sync.aligned.row.col.m8n8k4.f64.f64.f64.f64.rn {%fd0, %fd1}, {%fd2}, {%fd3}, {%fd0, %fd1};\n"
    "  wmma.load.a.sync.aligned.row.m16n16k8.tf32 {%r0, %r1, %r2, %r3}, [%rd1], %r30;\n"
    "  cvt.rna.tf32.f32 %r31, %f0;\n"
    "  ret;\n}\n";
  g_autoptr (GError) error = NULL;
  g_autoptr (WsPtxModule) m = ws_ptx_parse (text, strlen (text), "wmma.ptx", &error);
  g_assert_no_error (error);
  const WsPtxFunction *fn = &m->functions[0];
  g_assert_null (fn->unsupported);
  g_assert_cmpuint (fn->n_insts, ==, 10);
  const WsPtxInst *la = &fn->insts[0], *lb = &fn->insts[1], *lc = &fn->insts[2], *mma = &fn->insts[3];
  const WsPtxInst *st = &fn->insts[4], *imma = &fn->insts[5], *dmma = &fn->insts[6], *tf = &fn->insts[7];
  for (guint i = 0; i < 8; i++)
    g_assert_cmpint (fn->insts[i].op, ==, WS_OP_WMMA);

  g_assert_cmpint (la->sub, ==, WS_SUB_WMMA_LOAD);
  g_assert_cmpint (la->space, ==, WS_SPACE_SHARED);
  g_assert_cmpint (la->opclass, ==, WS_OPCLASS_LD);
  g_assert_cmpint (WS_PTX_WMMA_SHAPE (la->imm2), ==, WS_WMMA_M16N16K16);
  g_assert_cmpint (WS_PTX_WMMA_MATRIX (la->imm2), ==, WS_WMMA_A);
  g_assert_cmpuint (WS_PTX_WMMA_COL_MAJOR (la->imm2, WS_WMMA_A), ==, 0);
  g_assert_cmpint (WS_PTX_WMMA_ELEM (la->imm2, WS_WMMA_A), ==, WS_WMMA_ELEM_F16);
  g_assert_cmpuint (la->dst[0].count, ==, 8);
  g_assert_cmpstr (fn->reg_names[la->dst[0].vec_regs[7]], ==, "%r7");
  g_assert_cmpuint (la->nsrc, ==, 2);
  g_assert_cmpint (la->src[1].kind, ==, WS_OPND_REG);

  g_assert_cmpint (lb->space, ==, WS_SPACE_GENERIC);
  g_assert_cmpint (WS_PTX_WMMA_MATRIX (lb->imm2), ==, WS_WMMA_B);
  g_assert_cmpuint (WS_PTX_WMMA_COL_MAJOR (lb->imm2, WS_WMMA_B), ==, 1);
  g_assert_cmpuint (lb->nsrc, ==, 1); /* default stride */

  g_assert_cmpint (WS_PTX_WMMA_ELEM (lc->imm2, WS_WMMA_C), ==, WS_WMMA_ELEM_F32);
  g_assert_cmpint (lc->src[1].kind, ==, WS_OPND_IMM);
  g_assert_cmpuint (lc->src[1].imm, ==, 32);

  /* .f32.f32: D and C types, A and B .f16 */
  g_assert_cmpint (mma->sub, ==, WS_SUB_WMMA_MMA);
  g_assert_cmpint (mma->opclass, ==, WS_OPCLASS_TENSOR);
  g_assert_cmpint (WS_PTX_WMMA_ELEM (mma->imm2, WS_WMMA_A), ==, WS_WMMA_ELEM_F16);
  g_assert_cmpint (WS_PTX_WMMA_ELEM (mma->imm2, WS_WMMA_B), ==, WS_WMMA_ELEM_F16);
  g_assert_cmpint (WS_PTX_WMMA_ELEM (mma->imm2, WS_WMMA_C), ==, WS_WMMA_ELEM_F32);
  g_assert_cmpint (WS_PTX_WMMA_ELEM (mma->imm2, WS_WMMA_D), ==, WS_WMMA_ELEM_F32);
  g_assert_cmpuint (WS_PTX_WMMA_COL_MAJOR (mma->imm2, WS_WMMA_A), ==, 0);
  g_assert_cmpuint (WS_PTX_WMMA_COL_MAJOR (mma->imm2, WS_WMMA_B), ==, 1);
  g_assert_cmpuint (mma->ndst, ==, 1);
  g_assert_cmpuint (mma->nsrc, ==, 3);
  g_assert_cmpstr (fn->reg_names[mma->src[2].vec_regs[7]], ==, "%f7");

  g_assert_cmpint (st->sub, ==, WS_SUB_WMMA_STORE);
  g_assert_cmpint (st->opclass, ==, WS_OPCLASS_ST);
  g_assert_cmpuint (st->ndst, ==, 0);
  g_assert_cmpint (WS_PTX_WMMA_MATRIX (st->imm2), ==, WS_WMMA_D);
  g_assert_cmpuint (WS_PTX_WMMA_COL_MAJOR (st->imm2, WS_WMMA_D), ==, 1);

  g_assert_cmpint (WS_PTX_WMMA_ELEM (imma->imm2, WS_WMMA_A), ==, WS_WMMA_ELEM_U8);
  g_assert_cmpint (WS_PTX_WMMA_ELEM (imma->imm2, WS_WMMA_B), ==, WS_WMMA_ELEM_S8);
  g_assert_true (imma->mods & WS_MOD_SATFINITE);
  g_assert_cmpint (WS_PTX_WMMA_SHAPE (dmma->imm2), ==, WS_WMMA_M8N8K4);
  g_assert_cmpint (dmma->rnd, ==, WS_RND_RN);
  g_assert_cmpint (WS_PTX_WMMA_ELEM (tf->imm2, WS_WMMA_A), ==, WS_WMMA_ELEM_TF32);
  g_assert_cmpint (fn->insts[8].sub, ==, WS_SUB_CVT_TF32);

  /* fragment geometry: f16 A is eight registers (the tile twice), s8 A two */
  WsPtxWmmaFragment f;
  g_assert_true (ws_ptx_wmma_fragment (mma->imm2, WS_WMMA_A, &f));
  g_assert_cmpuint (f.rows, ==, 16);
  g_assert_cmpuint (f.cols, ==, 16);
  g_assert_cmpuint (f.regs, ==, 8);
  g_assert_cmpuint (f.per_reg, ==, 2);
  g_assert_true (ws_ptx_wmma_fragment (imma->imm2, WS_WMMA_A, &f));
  g_assert_cmpuint (f.regs, ==, 2);
  g_assert_cmpuint (f.elem_bytes, ==, 1);
  g_assert_true (ws_ptx_wmma_fragment (dmma->imm2, WS_WMMA_B, &f));
  g_assert_cmpuint (f.rows, ==, 4);
  g_assert_cmpuint (f.cols, ==, 8);
  g_assert_cmpuint (f.regs, ==, 1);

  g_autofree char *s0 = ws_ptx_inst_to_string (m, fn, la);
  g_assert_cmpstr (s0, ==,
                   "wmma.load.a.sync.aligned.row.m16n16k16.shared.f16 "
                   "{%r0, %r1, %r2, %r3, %r4, %r5, %r6, %r7}, [%rd1], %r30;");
  g_autofree char *s3 = ws_ptx_inst_to_string (m, fn, dmma);
  g_assert_true (g_str_has_prefix (s3, "wmma.mma.sync.aligned.row.col.m8n8k4.f64.f64.f64.f64.rn {%fd0, %fd1}"));
  g_autofree char *s8 = ws_ptx_inst_to_string (m, fn, &fn->insts[8]);
  g_assert_cmpstr (s8, ==, "cvt.rna.tf32.f32 %r31, %f0;");

  /* refused at load with a "not supported" error (the emulator has no sub-byte
   * shapes or types, and f64 wmma only rounds to nearest): */
  const char *unsupported[] = {
    "  wmma.load.a.sync.aligned.row.m8n8k32.s4 {%r0}, [%rd1], %r3;\n",
    "  wmma.mma.sync.aligned.row.col.m8n8k4.f64.f64.f64.f64.rz {%fd0, %fd1}, {%fd2}, {%fd3}, {%fd0, %fd1};\n",
    "  wmma.load.a.sync.aligned.row.m16n16k8.f16 {%r0, %r1, %r2, %r3}, [%rd1], %r3;\n",
  };
  for (guint i = 0; i < G_N_ELEMENTS (unsupported); i++)
    {
      g_autofree char *t = g_strconcat (".version 9.0\n.target sm_80\n.address_size 64\n.visible .entry k()\n{\n"
                                        "  .reg .b32 %r<4>;\n  .reg .b64 %rd<2>;\n  .reg .f64 %fd<4>;\n",
                                        unsupported[i], "  ret;\n}\n", NULL);
      g_autoptr (GError) e2 = NULL;
      g_autoptr (WsPtxModule) m2 = ws_ptx_parse (t, strlen (t), "wmma.ptx", &e2);
      g_assert_no_error (e2);
      g_assert_nonnull (m2->functions[0].unsupported);
      if (!strstr (m2->functions[0].unsupported, "wmma") || !strstr (m2->functions[0].unsupported, "not supported"))
        g_error ("case %u: %s", i, m2->functions[0].unsupported);
      g_assert_cmpuint (m2->functions[0].n_insts, ==, 1);
    }
  /* a fragment of the wrong size is an error */
  const char *bad = ".version 9.0\n.target sm_80\n.address_size 64\n.visible .entry k()\n{\n"
                    "  .reg .b32 %r<8>;\n  .reg .b64 %rd<2>;\n"
                    "  wmma.load.a.sync.aligned.row.m16n16k16.f16 {%r0, %r1, %r2, %r3}, [%rd1], %r4;\n  ret;\n}\n";
  g_autoptr (GError) e3 = NULL;
  g_autoptr (WsPtxModule) m3 = ws_ptx_parse (bad, strlen (bad), "wmma.ptx", &e3);
  g_assert_null (m3);
  g_assert_error (e3, WS_ERROR, WS_ERROR_PARSE);
  g_assert_nonnull (strstr (e3->message, "vector of 8 registers"));
}

/* Cooperative groups built with -G read the CTA's reserved shared memory. */
static void
test_reserved_smem_registers (void)
{
  const char *text = PRE "  mov.u32 %r0, %reserved_smem_offset_begin;\n"
                         "  mov.u32 %r1, %reserved_smem_offset_1;\n"
                         "  mov.u32 %r2, %reserved_smem_offset_cap;\n"
                         "  ret;\n}\n";
  g_autoptr (GError) error = NULL;
  g_autoptr (WsPtxModule) m = ws_ptx_parse (text, strlen (text), "rsmem.ptx", &error);
  g_assert_no_error (error);
  const WsPtxFunction *fn = &m->functions[ws_ptx_module_find_function (m, "k")];
  const uint32_t expect[] = { WS_SREG_RESERVED_SMEM_BEGIN, WS_SREG_RESERVED_SMEM_1, WS_SREG_RESERVED_SMEM_CAP };
  guint seen = 0;
  for (guint i = 0; i < fn->n_insts; i++)
    if (fn->insts[i].op == WS_OP_MOV && fn->insts[i].src[0].kind == WS_OPND_SPECIAL)
      {
        g_assert_cmpuint (seen, <, G_N_ELEMENTS (expect));
        g_assert_cmpuint (fn->insts[i].src[0].sreg, ==, expect[seen]);
        seen++;
      }
  g_assert_cmpuint (seen, ==, G_N_ELEMENTS (expect));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/ptx/parse/all-fixtures-consistent", test_all_fixtures);
  g_test_add_func ("/ptx/parse/vecadd-saxpy", test_vecadd);
  g_test_add_func ("/ptx/parse/calls-params-prototypes", test_calls);
  g_test_add_func ("/ptx/parse/printf-malloc-local", test_printf_malloc);
  g_test_add_func ("/ptx/parse/globals-initialisers-shared", test_globals);
  g_test_add_func ("/ptx/parse/atomics", test_atomics);
  g_test_add_func ("/ptx/parse/warp-primitives", test_warp);
  g_test_add_func ("/ptx/parse/integer-float-types", test_arith_types);
  g_test_add_func ("/ptx/parse/math-half", test_math_and_half);
  g_test_add_func ("/ptx/parse/vectors-cache-ops", test_misc_vectors_cache);
  g_test_add_func ("/ptx/parse/lineinfo-debug", test_lineinfo_and_debug);
  g_test_add_func ("/ptx/parse/immediates", test_immediates_snippet);
  g_test_add_func ("/ptx/parse/directives", test_directives_snippet);
  g_test_add_func ("/ptx/parse/brx-cp-async-hints", test_brx_cp_async_snippet);
  g_test_add_func ("/ptx/parse/modifier-rules", test_modifier_rules);
  g_test_add_func ("/ptx/parse/every-opcode", test_every_opcode_snippet);
  g_test_add_func ("/ptx/parse/virtual-pipeline-intrinsics", test_features);
  g_test_add_func ("/ptx/ipdom/if-else", test_ipdom_if_else);
  g_test_add_func ("/ptx/ipdom/loop", test_ipdom_loop);
  g_test_add_func ("/ptx/ipdom/trap-switch", test_ipdom_trap_and_switch);
  g_test_add_func ("/ptx/errors/syntax-line-col", test_errors_syntax);
  g_test_add_func ("/ptx/errors/unsupported", test_errors_unsupported);
  g_test_add_func ("/ptx/errors/garbage-input", test_garbage_input);
  g_test_add_func ("/ptx/names", test_names);
  g_test_add_func ("/ptx/parse/reserved-smem-registers", test_reserved_smem_registers);
  g_test_add_func ("/ptx/parse/wmma", test_wmma);
  return g_test_run ();
}
