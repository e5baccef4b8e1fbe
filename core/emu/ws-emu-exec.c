/* ws-emu-exec.c: the warp interpreter.
 *
 * A warp executes its decoded instructions in lock step: each handler is a
 * loop over the active lanes of one instruction (a plain counted loop when
 * all 32 lanes are active, a walk over set bits otherwise).  Divergence is a
 * SIMT stack of (pc, reconvergence pc, mask) entries; a branch that splits
 * the warp pushes both sides, which rejoin at the branch's immediate
 * post-dominator.  Calls push a frame (registers, predicates, local frame)
 * plus a SIMT entry that ends at the callee's exit. */
#define G_LOG_DOMAIN "ws-emu"

#include "emu/ws-emu-exec.h"
#include "emu/ws-emu-instrument.h"
#include "ptxmath/ws-ptxmath.h"

#include <math.h>
#include <string.h>
#include <time.h>

#define F32_NAN 0x7fffffffu
#define F64_NAN G_GUINT64_CONSTANT (0xfff8000000000000)

static inline float
u2f (uint64_t u)
{
  uint32_t v = (uint32_t) u;
  float f;
  memcpy (&f, &v, 4);
  return f;
}
static inline uint64_t
f2u (float f)
{
  uint32_t u;
  memcpy (&u, &f, 4);
  return u;
}
static inline double
u2d (uint64_t u)
{
  double d;
  memcpy (&d, &u, 8);
  return d;
}
static inline uint64_t
d2u (double d)
{
  uint64_t u;
  memcpy (&u, &d, 8);
  return u;
}
static inline uint64_t
f2u_canon (float f)
{
  return f != f ? F32_NAN : f2u (f);
}
/* f64: the host already behaves like the GPU (input NaNs propagate quietened,
 * new NaNs are 0xfff8000000000000), see the ptxmath contract. */
static inline uint64_t
d2u_canon (double d)
{
  return d2u (d);
}

/* clang-format off */
#define FOR_LANES(mask, ...) do { \
    uint32_t _m = (mask); \
    if (_m == WS_EMU_FULL) { for (int l = 0; l < WS_EMU_WARP; l++) { __VA_ARGS__ } } \
    else { while (_m) { int l = __builtin_ctz (_m); _m &= _m - 1; { __VA_ARGS__ } } } \
  } while (0)
/* clang-format on */

#define SRC(i) (w->bases[in->s[i] >> WS_SRC_SHIFT] + (size_t) (in->s[i] & 0x0fffffffu) * WS_EMU_WARP)
#define VSRC(i) (w->bases[in->v[i] >> WS_SRC_SHIFT] + (size_t) (in->v[i] & 0x0fffffffu) * WS_EMU_WARP)
#define DST(i) (w->regs + (size_t) in->d[i] * WS_EMU_WARP)
#define PSRC(i) ((in->pneg >> (i) &1) ? ~w->preds[in->s[i]] : w->preds[in->s[i]])

static const uint8_t type_bits[WS_T_COUNT] = {
  [WS_T_B8] = 8,    [WS_T_B16] = 16,    [WS_T_B32] = 32, [WS_T_B64] = 64, [WS_T_B128] = 128,
  [WS_T_U8] = 8,    [WS_T_U16] = 16,    [WS_T_U32] = 32, [WS_T_U64] = 64, [WS_T_S8] = 8,
  [WS_T_S16] = 16,  [WS_T_S32] = 32,    [WS_T_S64] = 64, [WS_T_F16] = 16, [WS_T_F16X2] = 32,
  [WS_T_BF16] = 16, [WS_T_BF16X2] = 32, [WS_T_F32] = 32, [WS_T_F64] = 64,
};
static inline int
tbits (int t)
{
  int b = (unsigned) t < WS_T_COUNT ? type_bits[t] : 0;
  return b ? b : 32;
}
/* Without -mpopcnt the builtin becomes a libgcc call; this is as fast. */
static inline uint32_t
popc32 (uint32_t v)
{
  v = v - ((v >> 1) & 0x55555555u);
  v = (v & 0x33333333u) + ((v >> 2) & 0x33333333u);
  return (((v + (v >> 4)) & 0x0f0f0f0fu) * 0x01010101u) >> 24;
}
static inline gboolean
tsigned (int t)
{
  return t == WS_T_S8 || t == WS_T_S16 || t == WS_T_S32 || t == WS_T_S64;
}
static inline gboolean
tfloat (int t)
{
  return t == WS_T_F32 || t == WS_T_F64 || t == WS_T_F16 || t == WS_T_BF16 || t == WS_T_F16X2 || t == WS_T_BF16X2;
}
static inline uint64_t
zx (uint64_t v, int bits)
{
  return bits >= 64 ? v : v & ((1ull << bits) - 1);
}
static inline int64_t
sx (uint64_t v, int bits)
{
  return bits >= 64 ? (int64_t) v : (int64_t) (v << (64 - bits)) >> (64 - bits);
}

static inline uint32_t
pack_bools (const uint8_t *t)
{
  uint32_t r = 0;
  for (int i = 0; i < 4; i++)
    {
      uint64_t x;
      memcpy (&x, t + 8 * i, 8);
      r |= (uint32_t) ((x * G_GUINT64_CONSTANT (0x0102040810204080)) >> 56) << (8 * i);
    }
  return r;
}

/* ---- frames --------------------------------------------------------------- */

static void
set_frame_view (Warp *w)
{
  Frame *f = &w->frames[w->nframes - 1];
  w->fn = f->fn;
  w->code = f->fn->code;
  w->regs = w->rstack + f->reg_off;
  w->preds = w->pstack + f->pred_off;
  w->local_base = f->local_base;
  w->bases[WS_SRC_REG] = w->regs;
  w->bases[WS_SRC_IMM] = f->fn->imm;
  w->bases[WS_SRC_SREG] = w->sregs;
  w->live = w->valid & ~w->exited & ~f->returned;
}

static gboolean
push_frame (Warp *w, const EFunc *fn, uint32_t call, uint32_t mask, uint32_t local_base)
{
  Frame *f;
  size_t reg_off = 0, pred_off = 0;
  if (w->nframes == w->frames_cap)
    {
      w->frames_cap = MAX (8, w->frames_cap * 2);
      w->frames = g_renew (Frame, w->frames, w->frames_cap);
    }
  if (w->nframes > 0)
    {
      Frame *top = &w->frames[w->nframes - 1];
      reg_off = top->reg_off + (size_t) top->fn->n_rows * WS_EMU_WARP;
      pred_off = top->pred_off + top->fn->n_preds;
    }
  if (reg_off + (size_t) fn->n_rows * WS_EMU_WARP > w->rcap)
    {
      w->rcap = MAX (reg_off + (size_t) fn->n_rows * WS_EMU_WARP, w->rcap * 2);
      w->rstack = g_renew (uint64_t, w->rstack, w->rcap);
    }
  if (pred_off + fn->n_preds > w->pcap)
    {
      w->pcap = MAX (pred_off + fn->n_preds, w->pcap * 2);
      w->pstack = g_renew (uint32_t, w->pstack, w->pcap);
    }
  memset (w->pstack + pred_off, 0, fn->n_preds * sizeof (uint32_t));
  w->pstack[pred_off + fn->true_pred] = WS_EMU_FULL;
  f = &w->frames[w->nframes++];
  f->fn = fn;
  f->simt_base = w->sp;
  f->call = call;
  f->mask = mask;
  f->returned = 0;
  f->reg_off = reg_off;
  f->pred_off = pred_off;
  f->local_base = local_base;
  set_frame_view (w);
  return TRUE;
}

static inline void
simt_push (Warp *w, uint32_t pc, uint32_t rpc, uint32_t mask)
{
  if (w->sp == w->simt_cap)
    {
      w->simt_cap = MAX (16, w->simt_cap * 2);
      w->simt = g_renew (Simt, w->simt, w->simt_cap);
    }
  w->simt[w->sp].pc = pc;
  w->simt[w->sp].rpc = rpc;
  w->simt[w->sp].mask = mask;
  w->simt[w->sp].run_ahead = 0;
  w->sp++;
}

/* ---- memory --------------------------------------------------------------- */

enum { FAULT_NONE, FAULT_OOB, FAULT_MISALIGNED };

typedef struct {
  int kind;
  int lane;
  uint64_t addr;
  int space;
} MemFault;

static gboolean
global_ok (Launch *L, Warp *w, uint64_t addr, uint32_t size)
{
  const WsDevAlloc *t = L->table;
  gint lo = 0, hi = (gint) L->ntable - 1, best = -1;
  if (addr >= w->cache_lo && addr + size <= w->cache_hi)
    return TRUE;
  while (lo <= hi)
    {
      gint mid = (lo + hi) / 2;
      if (t[mid].base <= addr)
        {
          best = mid;
          lo = mid + 1;
        }
      else
        hi = mid - 1;
    }
  if (best < 0 || addr + size > t[best].base + t[best].size || addr + size < addr)
    {
      /* host memory registered with cudaHostRegister (rare: after the table) */
      const uint64_t *r = (const uint64_t *) L->emu->host_ranges->data;
      for (guint i = 0; i < L->emu->host_ranges->len; i += 2)
        if (addr >= r[i] && addr + size <= r[i] + r[i + 1] && addr + size >= addr)
          {
            w->cache_lo = r[i];
            w->cache_hi = r[i] + r[i + 1];
            return TRUE;
          }
      return FALSE;
    }
  w->cache_lo = t[best].base;
  w->cache_hi = t[best].base + t[best].size;
  return TRUE;
}

/* Shared, local and parameter addresses are 32 bits wide (PTX ISA, state
 * spaces and cvta: their windows are addressed with .u32 as well as .u64
 * registers): the hardware forms [reg+offset] modulo 2^32, so nvcc may
 * fold a negative offset into a register (0xffffffc0 + 68 is offset 4).
 * Global and constant addresses are 64-bit device addresses here. */
static inline uint64_t
window_addr (int space, uint64_t a)
{
  switch (space)
    {
    case WS_SPACE_SHARED:
    case WS_SPACE_LOCAL:
    case WS_SPACE_PARAM:
    case WS_SPACE_FUNC_PARAM: return (uint32_t) a;
    default: return a;
    }
}

/* An access the hardware would not notice (memcheck off): performed, and
 * noted for the instruction's report (flush_invalid). */
static inline void
tolerate (Cta *c, int lane, int space, uint64_t addr)
{
  if (c->tol_lanes++ == 0)
    {
      c->tol_lane = lane;
      c->tol_space = space;
      c->tol_addr = addr;
    }
}

/* Translates an address of @space for one lane into a host pointer.
 * *@tspace / *@taddr receive the resolved space and the address recorded in
 * traces (device address, shared offset, per-thread local offset). */
static inline uint8_t *
xlate (Cta *c, Warp *w, int lane, int space, uint64_t addr, uint32_t size, MemFault *f, int *tspace)
{
  Launch *L = c->L;
  if (space == WS_SPACE_GENERIC)
    {
      if (addr - WS_EMU_SHARED_WIN < WS_EMU_WIN_SIZE)
        {
          space = WS_SPACE_SHARED;
          addr -= WS_EMU_SHARED_WIN;
        }
      else if (addr - WS_EMU_LOCAL_WIN < WS_EMU_WIN_SIZE)
        {
          space = WS_SPACE_LOCAL;
          addr -= WS_EMU_LOCAL_WIN;
        }
      else if (addr - WS_EMU_PARAM_WIN < WS_EMU_WIN_SIZE)
        {
          space = WS_SPACE_PARAM;
          addr -= WS_EMU_PARAM_WIN;
        }
      else
        space = WS_SPACE_GLOBAL;
    }
  *tspace = space;
  if (G_UNLIKELY (size > 1 && (addr & (size - 1))))
    {
      f->kind = FAULT_MISALIGNED;
      goto fail;
    }
  switch (space)
    {
    case WS_SPACE_GLOBAL:
    case WS_SPACE_CONST:
      if (G_LIKELY (global_ok (L, w, addr, size)))
        return (uint8_t *) (uintptr_t) addr;
      if (!L->emu->opt.memcheck && ws_devmem_mapped (L->emu->opt.mem, addr, size))
        {
          tolerate (c, lane, space, addr);
          return (uint8_t *) (uintptr_t) addr;
        }
      break;
    case WS_SPACE_SHARED:
      if (addr + size <= c->shared_size && addr + size >= addr)
        return c->shared + addr;
      if (!L->emu->opt.memcheck && addr + size <= c->shared_window && addr + size >= addr)
        {
          tolerate (c, lane, space, addr);
          return c->shared + addr;
        }
      break;
    case WS_SPACE_LOCAL:
    case WS_SPACE_FUNC_PARAM:
      if (addr + size <= c->stack && addr + size >= addr)
        return c->local + ((size_t) w->index * WS_EMU_WARP + lane) * c->local_stride + addr;
      if (!L->emu->opt.memcheck && addr + size <= c->local_stride && addr + size >= addr)
        {
          tolerate (c, lane, space, addr);
          return c->local + ((size_t) w->index * WS_EMU_WARP + lane) * c->local_stride + addr;
        }
      break;
    case WS_SPACE_PARAM:
      if (addr + size <= L->param_bytes && addr + size >= addr)
        return L->params + addr;
      break;
    default: break;
    }
  f->kind = FAULT_OOB;
fail:
  f->lane = lane;
  f->addr = addr;
  f->space = space;
  return NULL;
}

static const char *
space_name (int space)
{
  switch (space)
    {
    case WS_SPACE_GLOBAL: return "global";
    case WS_SPACE_SHARED: return "shared";
    case WS_SPACE_LOCAL: return "local";
    case WS_SPACE_CONST: return "constant";
    case WS_SPACE_PARAM: return "parameter";
    case WS_SPACE_FUNC_PARAM: return "parameter";
    case WS_SPACE_GENERIC: return "generic";
    default: return "unknown";
    }
}

static char *describe_access (Cta *c, int space, uint64_t addr);

static void
mem_fault (Cta *c, Warp *w, uint32_t pc, const MemFault *f, const char *what, uint32_t size)
{
  g_autofree char *desc = describe_access (c, f->space, f->addr);
  c->tol_lanes = 0;
  if (f->kind == FAULT_MISALIGNED)
    ws_emu_fault (c, w, pc, f->lane, WS_CUDA_ERROR_MISALIGNED_ADDRESS,
                  "misaligned %s %s of %u bytes at address 0x%" G_GINT64_MODIFIER "x (%s)", space_name (f->space), what,
                  size, f->addr, desc);
  else
    ws_emu_fault (c, w, pc, f->lane, WS_CUDA_ERROR_ILLEGAL_ADDRESS,
                  "out-of-bounds %s %s of %u bytes at address 0x%" G_GINT64_MODIFIER "x: %s", space_name (f->space),
                  what, size, f->addr, desc);
}

/* Where an invalid access lies, for reports. */
static char *
describe_access (Cta *c, int space, uint64_t addr)
{
  Launch *L = c->L;
  if (space == WS_SPACE_GLOBAL || space == WS_SPACE_CONST)
    return ws_devmem_describe (L->emu->opt.mem, addr);
  if (space == WS_SPACE_SHARED)
    return g_strdup_printf ("shared offset 0x%" G_GINT64_MODIFIER "x; the block has %u bytes of shared memory", addr,
                            c->shared_size);
  if (space == WS_SPACE_LOCAL || space == WS_SPACE_FUNC_PARAM)
    return g_strdup_printf ("local offset 0x%" G_GINT64_MODIFIER "x; each thread has %u bytes of local memory", addr,
                            c->stack);
  return g_strdup_printf ("offset 0x%" G_GINT64_MODIFIER "x; the parameter block has %u bytes", addr, L->param_bytes);
}

/* Reports the tolerated invalid accesses of the instruction just executed. */
static __attribute__ ((noinline)) void
flush_invalid (Cta *c, Warp *w, uint32_t pc, const char *what, uint32_t size)
{
  ws_emu_record_invalid (c, w, pc, c->tol_lane, what, space_name (c->tol_space), size, c->tol_addr, c->tol_lanes,
                         describe_access (c, c->tol_space, c->tol_addr));
  c->tol_lanes = 0;
}
#define FLUSH_INVALID(what, size) \
  do \
    { \
      if (G_UNLIKELY (c->tol_lanes)) \
        flush_invalid (c, w, pc, what, size); \
    } \
  while (0)

/* Computes every lane's address into c->addrs; TRUE when all of them are
 * aligned and inside the warp's cached global allocation, so the lanes can
 * be accessed without per-lane checks. */
static inline gboolean
warp_global_fast (Cta *c, Warp *w, const uint64_t *A, int64_t off, uint32_t m, uint32_t tot)
{
  uint64_t lo = G_MAXUINT64, hi = 0, bits = 0;
  if (A == NULL)
    return FALSE;
  FOR_LANES (m, {
    uint64_t a = A[l] + (uint64_t) off;
    c->addrs[l] = a;
    lo = a < lo ? a : lo;
    hi = a > hi ? a : hi;
    bits |= a;
  });
  if (bits & (tot - 1))
    return FALSE;
  if (lo >= w->cache_lo && hi + tot <= w->cache_hi)
    return TRUE;
  if (!global_ok (c->L, w, lo, tot))
    return FALSE;
  return hi + tot <= w->cache_hi && hi + tot > hi;
}

/* The same for shared and local memory: *@base + lane * *@lstride + addr
 * is the lane's host pointer when the function returns TRUE.  (Local
 * addresses are per-thread offsets, so every lane has its own stack.) */
static inline gboolean
onchip_fast (Cta *c, Warp *w, int space, const uint64_t *A, int64_t off, uint32_t m, uint32_t tot, uint8_t **base,
             size_t *lstride)
{
  uint64_t lo = G_MAXUINT64, hi = 0, bits = 0, limit;
  FOR_LANES (m, {
    uint64_t a = (uint32_t) ((A ? A[l] : 0) + (uint64_t) off); /* window_addr */
    c->addrs[l] = a;
    lo = a < lo ? a : lo;
    hi = a > hi ? a : hi;
    bits |= a;
  });
  if (space == WS_SPACE_SHARED)
    {
      *base = c->shared;
      *lstride = 0;
      limit = c->shared_size;
    }
  else
    {
      *base = c->local + (size_t) w->index * WS_EMU_WARP * c->local_stride;
      *lstride = c->local_stride;
      limit = c->stack;
    }
  return !(bits & (tot - 1)) && hi + tot <= limit && hi + tot > hi;
}

static inline uint64_t
load_val (const uint8_t *p, uint32_t size, gboolean sgn)
{
  switch (size)
    {
    case 1: return sgn ? (uint64_t) (int64_t) * (const int8_t *) p : *p;
    case 2:
      {
        uint16_t v;
        memcpy (&v, p, 2);
        return sgn ? (uint64_t) (int64_t) (int16_t) v : v;
      }
    case 4:
      {
        uint32_t v;
        memcpy (&v, p, 4);
        return sgn ? (uint64_t) (int64_t) (int32_t) v : v;
      }
    default:
      {
        uint64_t v;
        memcpy (&v, p, 8);
        return v;
      }
    }
}

static inline void
store_val (uint8_t *p, uint32_t size, uint64_t v)
{
  switch (size)
    {
    case 1: *p = (uint8_t) v; break;
    case 2:
      {
        uint16_t x = (uint16_t) v;
        memcpy (p, &x, 2);
      }
      break;
    case 4:
      {
        uint32_t x = (uint32_t) v;
        memcpy (p, &x, 4);
      }
      break;
    default: memcpy (p, &v, 8); break;
    }
}

/* Whether an access is recorded as a memory access in traces (parameter
 * reads come from the constant bank and are ordinary instructions). */
static inline gboolean
traced_space (int space)
{
  return space != WS_SPACE_PARAM && space != WS_SPACE_FUNC_PARAM;
}

/* ---- integer semantics ---------------------------------------------------- */

static uint64_t
sat_s32 (int64_t v)
{
  if (v > G_MAXINT32)
    return (uint32_t) G_MAXINT32;
  if (v < G_MININT32)
    return (uint32_t) G_MININT32;
  return (uint32_t) (int32_t) v;
}

static uint64_t
prmt (uint32_t a, uint32_t b, uint32_t c, int mode)
{
  uint64_t x = ((uint64_t) b << 32) | a;
  uint8_t bytes[8], r[4];
  uint32_t sel[4];
  for (int i = 0; i < 8; i++)
    bytes[i] = (uint8_t) (x >> (8 * i));
  switch (mode)
    {
    case WS_SUB_F4E:
      {
        int s = c & 3;
        for (int i = 0; i < 4; i++)
          sel[i] = (s + i) & 7;
      }
      break;
    case WS_SUB_B4E:
      {
        int s = c & 3;
        for (int i = 0; i < 4; i++)
          sel[i] = (s - i + 8) & 7;
      }
      break;
    case WS_SUB_RC8:
      {
        int s = c & 3;
        for (int i = 0; i < 4; i++)
          sel[i] = s;
      }
      break;
    case WS_SUB_ECL:
      {
        int s = c & 3;
        sel[0] = s;
        sel[1] = s > 1 ? s : 1;
        sel[2] = s > 2 ? s : 2;
        sel[3] = 3;
      }
      break;
    case WS_SUB_ECR:
      {
        int s = c & 3;
        sel[0] = 0;
        sel[1] = s < 1 ? s : 1;
        sel[2] = s < 2 ? s : 2;
        sel[3] = s;
      }
      break;
    case WS_SUB_RC16:
      {
        int s = c & 1;
        sel[0] = 2 * s;
        sel[1] = 2 * s + 1;
        sel[2] = 2 * s;
        sel[3] = 2 * s + 1;
      }
      break;
    default:
      for (int i = 0; i < 4; i++)
        {
          uint32_t n = (c >> (4 * i)) & 0xf;
          sel[i] = n; /* bit 3: replicate the sign of the selected byte */
        }
      for (int i = 0; i < 4; i++)
        {
          uint8_t v = bytes[sel[i] & 7];
          r[i] = (sel[i] & 8) ? ((v & 0x80) ? 0xff : 0) : v;
        }
      return (uint32_t) r[0] | ((uint32_t) r[1] << 8) | ((uint32_t) r[2] << 16) | ((uint32_t) r[3] << 24);
    }
  for (int i = 0; i < 4; i++)
    r[i] = bytes[sel[i] & 7];
  return (uint32_t) r[0] | ((uint32_t) r[1] << 8) | ((uint32_t) r[2] << 16) | ((uint32_t) r[3] << 24);
}

static uint64_t
brev_n (uint64_t v, int bits)
{
  uint64_t r = 0;
  for (int i = 0; i < bits; i++)
    if (v >> i & 1)
      r |= 1ull << (bits - 1 - i);
  return r;
}

static uint64_t
ialu (const EInst *in, uint64_t a, uint64_t b, uint64_t c, uint64_t d4)
{
  int t = in->type, n = tbits (t);
  gboolean s = tsigned (t);
  switch ((WsPtxOp) in->op)
    {
    case WS_OP_ADD:
      if (in->mods & WS_MOD_SAT)
        return sat_s32 ((int64_t) (int32_t) a + (int32_t) b);
      return zx (a + b, n);
    case WS_OP_SUB:
      if (in->mods & WS_MOD_SAT)
        return sat_s32 ((int64_t) (int32_t) a - (int32_t) b);
      return zx (a - b, n);
    case WS_OP_MUL:
    case WS_OP_MAD:
      {
        uint64_t r;
        if (in->mods & WS_MOD_WIDE)
          r = s ? (uint64_t) (sx (a, n) * sx (b, n)) : zx (a, n) * zx (b, n);
        else if (in->mods & WS_MOD_HI)
          {
            if (n == 64)
              r = s ? (uint64_t) (((__int128) (int64_t) a * (int64_t) b) >> 64)
                    : (uint64_t) (((unsigned __int128) a * b) >> 64);
            else
              r = s ? (uint64_t) ((sx (a, n) * sx (b, n)) >> n) : (zx (a, n) * zx (b, n)) >> n;
            if (in->op == WS_OP_MAD && (in->mods & WS_MOD_SAT) && n == 32)
              return sat_s32 ((int64_t) (int32_t) r + (int32_t) c);
          }
        else
          r = a * b;
        if (in->op == WS_OP_MAD)
          r += c;
        return (in->mods & WS_MOD_WIDE) ? zx (r, 2 * n) : zx (r, n);
      }
    case WS_OP_MUL24:
    case WS_OP_MAD24:
      {
        int64_t p = s ? sx (a, 24) * sx (b, 24) : (int64_t) (zx (a, 24) * zx (b, 24));
        uint64_t r = (in->mods & WS_MOD_HI) ? (uint64_t) (p >> 16) : (uint64_t) p;
        if (in->op == WS_OP_MAD24)
          r += c;
        return zx (r, 32);
      }
    case WS_OP_DIV:
      if (zx (b, n) == 0)
        return zx (~0ull, n);
      if (s)
        {
          int64_t x = sx (a, n), y = sx (b, n);
          if (y == -1)
            return zx ((uint64_t) 0 - (uint64_t) x, n);
          return zx ((uint64_t) (x / y), n);
        }
      return zx (a, n) / zx (b, n);
    case WS_OP_REM:
      if (zx (b, n) == 0)
        return zx (a, n);
      if (s)
        {
          int64_t x = sx (a, n), y = sx (b, n);
          if (y == -1)
            return 0;
          return zx ((uint64_t) (x % y), n);
        }
      return zx (a, n) % zx (b, n);
    case WS_OP_ABS: return zx (sx (a, n) < 0 ? (uint64_t) 0 - a : a, n);
    case WS_OP_NEG: return zx ((uint64_t) 0 - a, n);
    case WS_OP_MIN:
    case WS_OP_MAX:
      {
        gboolean lt = s ? sx (a, n) < sx (b, n) : zx (a, n) < zx (b, n);
        uint64_t r = (in->op == WS_OP_MIN) == lt ? a : b;
        if ((in->mods & WS_MOD_RELU) && sx (r, n) < 0)
          r = 0;
        return zx (r, n);
      }
    case WS_OP_CNOT: return zx (a, n) == 0 ? 1 : 0;
    case WS_OP_POPC: return (uint64_t) __builtin_popcountll (zx (a, n));
    case WS_OP_CLZ: return zx (a, n) == 0 ? (uint64_t) n : (uint64_t) (__builtin_clzll (zx (a, n)) - (64 - n));
    case WS_OP_BREV: return brev_n (a, n);
    case WS_OP_BFIND:
      {
        uint64_t v = zx (a, n);
        int pos;
        if (s && sx (a, n) < 0)
          v = zx (~v, n);
        if (v == 0)
          return 0xffffffffu;
        pos = 63 - __builtin_clzll (v);
        return (in->mods & WS_MOD_SHIFTAMT) ? (uint64_t) (n - 1 - pos) : (uint64_t) pos;
      }
    case WS_OP_BFE:
      {
        uint32_t pos = b & 0xff, len = c & 0xff;
        int msb = n - 1;
        uint64_t sbit = 0, r = 0;
        if (s && len > 0)
          sbit = (a >> MIN ((int) (pos + len - 1), msb)) & 1;
        for (int i = 0; i <= msb; i++)
          {
            uint64_t bit = ((uint32_t) i < len && (int) (pos + i) <= msb) ? (a >> (pos + i)) & 1 : sbit;
            r |= bit << i;
          }
        return r;
      }
    case WS_OP_BFI:
      {
        uint32_t pos = c & 0xff, len = d4 & 0xff;
        uint64_t r = zx (b, n);
        for (uint32_t i = 0; i < len && pos + i < (uint32_t) n; i++)
          r = (r & ~(1ull << (pos + i))) | (((a >> i) & 1) << (pos + i));
        return r;
      }
    case WS_OP_BMSK:
      {
        uint32_t pos = (uint32_t) a, len = (uint32_t) b;
        uint64_t mask;
        if (in->mods & WS_MOD_WRAP)
          {
            pos &= 31;
            len &= 31;
          }
        else
          {
            pos = MIN (pos, 32);
            len = MIN (len, 32);
          }
        mask = (len >= 64 ? ~0ull : ((1ull << len) - 1)) << pos;
        return zx (mask, 32);
      }
    case WS_OP_PRMT: return prmt ((uint32_t) a, (uint32_t) b, (uint32_t) c, in->sub);
    case WS_OP_LOP3:
      {
        uint64_t r = 0;
        uint32_t lut = (uint32_t) d4;
        for (int i = 0; i < 8; i++)
          if (lut >> i & 1)
            r |= ((i & 4) ? a : ~a) & ((i & 2) ? b : ~b) & ((i & 1) ? c : ~c);
        return zx (r, 32);
      }
    case WS_OP_DP4A:
      {
        int64_t acc = tsigned (in->type) ? (int64_t) (int32_t) c : (int64_t) (uint32_t) c;
        gboolean sa = tsigned (in->type), sb = tsigned (in->type2);
        for (int i = 0; i < 4; i++)
          {
            int64_t x = sa ? (int8_t) (a >> (8 * i)) : (uint8_t) (a >> (8 * i));
            int64_t y = sb ? (int8_t) (b >> (8 * i)) : (uint8_t) (b >> (8 * i));
            acc += x * y;
          }
        return zx ((uint64_t) acc, 32);
      }
    case WS_OP_DP2A:
      {
        int64_t acc = tsigned (in->type) ? (int64_t) (int32_t) c : (int64_t) (uint32_t) c;
        gboolean sa = tsigned (in->type), sb = tsigned (in->type2);
        int base = (in->mods & WS_MOD_HI) ? 2 : 0;
        for (int i = 0; i < 2; i++)
          {
            int64_t x = sa ? (int16_t) (a >> (16 * i)) : (uint16_t) (a >> (16 * i));
            int64_t y = sb ? (int8_t) (b >> (8 * (base + i))) : (uint8_t) (b >> (8 * (base + i)));
            acc += x * y;
          }
        return zx ((uint64_t) acc, 32);
      }
    case WS_OP_VADD4:
    case WS_OP_VSUB4:
    case WS_OP_VAVRG4:
    case WS_OP_VABSDIFF4:
    case WS_OP_VMIN4:
    case WS_OP_VMAX4:
      {
        /* SIMD video instructions on four byte lanes (PTX ISA, "SIMD video
         * instructions"): bytes are signed when their operand's type is
         * .s32; .add sums the four results into c, otherwise each result
         * (saturated to the destination's byte range with .sat, else
         * truncated) becomes a byte of d. */
        gboolean as = in->type2 == WS_T_S32, bs = in->target == WS_T_S32, ds = in->type == WS_T_S32;
        int64_t sum = 0;
        uint32_t bytes = 0;
        for (int i = 0; i < 4; i++)
          {
            int64_t x = as ? (int8_t) (a >> (8 * i)) : (uint8_t) (a >> (8 * i));
            int64_t y = bs ? (int8_t) (b >> (8 * i)) : (uint8_t) (b >> (8 * i));
            int64_t r;
            switch ((WsPtxOp) in->op)
              {
              case WS_OP_VADD4: r = x + y; break;
              case WS_OP_VSUB4: r = x - y; break;
              case WS_OP_VAVRG4: r = (x + y + 1) >> 1; break;
              case WS_OP_VABSDIFF4: r = x > y ? x - y : y - x; break;
              case WS_OP_VMIN4: r = MIN (x, y); break;
              default: r = MAX (x, y); break;
              }
            if (in->sub == WS_SUB_ADD)
              sum += r;
            else
              {
                if (in->mods & WS_MOD_SAT)
                  r = ds ? CLAMP (r, -128, 127) : CLAMP (r, 0, 255);
                bytes |= (uint32_t) (r & 0xff) << (8 * i);
              }
          }
        return in->sub == WS_SUB_ADD ? (uint32_t) ((int64_t) (int32_t) c + sum) : bytes;
      }
    case WS_OP_SAD:
      {
        uint64_t diff = s ? (uint64_t) (sx (a, n) > sx (b, n) ? sx (a, n) - sx (b, n) : sx (b, n) - sx (a, n))
                          : (zx (a, n) > zx (b, n) ? zx (a, n) - zx (b, n) : zx (b, n) - zx (a, n));
        return zx (diff + c, n);
      }
    case WS_OP_SHF:
      {
        uint64_t x = ((uint64_t) (uint32_t) b << 32) | (uint32_t) a;
        uint32_t sh = (in->mods & WS_MOD_WRAP) ? (c & 31) : MIN ((uint32_t) c, 32u);
        if (in->sub == WS_SUB_L)
          return (uint32_t) ((x << sh) >> 32);
        return (uint32_t) (x >> sh);
      }
    case WS_OP_SHL: return b >= (uint64_t) n ? 0 : zx (a << b, n);
    case WS_OP_SHR:
      if (s)
        return zx ((uint64_t) (sx (a, n) >> MIN (b, (uint64_t) n - 1)), n);
      return b >= (uint64_t) n ? 0 : zx (a, n) >> b;
    default: return 0;
    }
}

/* ---- comparisons ------------------------------------------------------------ */

static inline gboolean
cmp_int (int cmp, int t, uint64_t a, uint64_t b)
{
  int n = tbits (t);
  gboolean s = tsigned (t);
  int64_t x = s ? sx (a, n) : (int64_t) zx (a, n), y = s ? sx (b, n) : (int64_t) zx (b, n);
  uint64_t ux = zx (a, n), uy = zx (b, n);
  switch (cmp)
    {
    case WS_CMP_EQ: return ux == uy;
    case WS_CMP_NE: return ux != uy;
    case WS_CMP_LT: return s ? x < y : ux < uy;
    case WS_CMP_LE: return s ? x <= y : ux <= uy;
    case WS_CMP_GT: return s ? x > y : ux > uy;
    case WS_CMP_GE: return s ? x >= y : ux >= uy;
    case WS_CMP_LO: return ux < uy;
    case WS_CMP_LS: return ux <= uy;
    case WS_CMP_HI: return ux > uy;
    case WS_CMP_HS: return ux >= uy;
    default: return FALSE;
    }
}

static inline gboolean
cmp_fp (int cmp, double x, double y)
{
  gboolean un = x != x || y != y;
  switch (cmp)
    {
    case WS_CMP_EQ: return !un && x == y;
    case WS_CMP_NE: return !un && x != y;
    case WS_CMP_LT: return !un && x < y;
    case WS_CMP_LE: return !un && x <= y;
    case WS_CMP_GT: return !un && x > y;
    case WS_CMP_GE: return !un && x >= y;
    case WS_CMP_EQU: return un || x == y;
    case WS_CMP_NEU: return un || x != y;
    case WS_CMP_LTU: return un || x < y;
    case WS_CMP_LEU: return un || x <= y;
    case WS_CMP_GTU: return un || x > y;
    case WS_CMP_GEU: return un || x >= y;
    case WS_CMP_NUM: return !un;
    case WS_CMP_NAN: return un;
    default: return FALSE;
    }
}

static inline gboolean
compare (const EInst *in, int t, uint64_t a, uint64_t b)
{
  if (t == WS_T_F32)
    {
      if (in->mods & WS_MOD_FTZ)
        {
          if ((a & 0x7f800000u) == 0)
            a &= 0x80000000u;
          if ((b & 0x7f800000u) == 0)
            b &= 0x80000000u;
        }
      return cmp_fp (in->cmp, u2f (a), u2f (b));
    }
  if (t == WS_T_F64)
    return cmp_fp (in->cmp, u2d (a), u2d (b));
  if (tfloat (t))
    return ws_ptx_compare (in->cmp, (WsPtxType) t, a, b, (in->mods & WS_MOD_FTZ) != 0);
  return cmp_int (in->cmp, t, a, b);
}

static inline gboolean
boolop (int op, gboolean x, gboolean c)
{
  switch (op)
    {
    case WS_BOOL_AND: return x && c;
    case WS_BOOL_OR: return x || c;
    case WS_BOOL_XOR: return x != c;
    default: return x;
    }
}

/* ---- float helpers ------------------------------------------------------------- */

__attribute__ ((target_clones ("fma", "default"))) static void
fma32_lanes (uint64_t *d, const uint64_t *a, const uint64_t *b, const uint64_t *c, uint32_t m)
{
  FOR_LANES (m, d[l] = f2u_canon (fmaf (u2f (a[l]), u2f (b[l]), u2f (c[l]))););
}

__attribute__ ((target_clones ("fma", "default"))) static void
fma64_lanes (uint64_t *d, const uint64_t *a, const uint64_t *b, const uint64_t *c, uint32_t m)
{
  FOR_LANES (m, d[l] = d2u_canon (fma (u2d (a[l]), u2d (b[l]), u2d (c[l]))););
}

static uint64_t
float_op (const EInst *in, uint64_t a, uint64_t b, uint64_t c)
{
  gboolean plain = (in->rnd == WS_RND_NONE || in->rnd == WS_RND_RN) && !(in->mods & (WS_MOD_FTZ | WS_MOD_SAT));
  if (plain && !(in->mods & (WS_MOD_APPROX | WS_MOD_FULL | WS_MOD_NAN | WS_MOD_XORSIGN | WS_MOD_ABS | WS_MOD_RELU)))
    {
      if (in->type == WS_T_F32)
        {
          float x = u2f (a), y = u2f (b);
          switch (in->op)
            {
            case WS_OP_DIV: return f2u_canon (x / y);
            case WS_OP_MIN:
              if (x != x)
                return y != y ? F32_NAN : f2u (y);
              if (y != y)
                return f2u (x);
              if (x == y)
                return (a & 0x80000000u) ? a : b; /* min(-0, +0) = -0 */
              return f2u (x < y ? x : y);
            case WS_OP_MAX:
              if (x != x)
                return y != y ? F32_NAN : f2u (y);
              if (y != y)
                return f2u (x);
              if (x == y)
                return (a & 0x80000000u) ? b : a;
              return f2u (x > y ? x : y);
            case WS_OP_COPYSIGN: return (b & 0x7fffffffu) | (a & 0x80000000u);
            default: break;
            }
        }
      else if (in->type == WS_T_F64)
        {
          double x = u2d (a), y = u2d (b);
          switch (in->op)
            {
            case WS_OP_DIV: return d2u_canon (x / y);
            case WS_OP_MIN:
              if (x != x)
                return y != y ? F64_NAN : b;
              if (y != y)
                return a;
              if (x == y)
                return (a >> 63) ? a : b;
              return x < y ? a : b;
            case WS_OP_MAX:
              if (x != x)
                return y != y ? F64_NAN : b;
              if (y != y)
                return a;
              if (x == y)
                return (a >> 63) ? b : a;
              return x > y ? a : b;
            case WS_OP_COPYSIGN: return (b & ~(1ull << 63)) | (a & (1ull << 63));
            default: break;
            }
        }
    }
  return ws_ptx_float_op (in->op == WS_OP_MAD ? WS_OP_FMA : in->op, (WsPtxType) in->type, a, b, c, in->rnd, in->mods);
}

static uint64_t
float_unary (const EInst *in, uint64_t a)
{
  gboolean plain = !(in->mods & (WS_MOD_FTZ | WS_MOD_SAT));
  if (plain && in->type == WS_T_F32)
    {
      switch (in->op)
        {
        case WS_OP_NEG: return zx (a ^ 0x80000000u, 32);
        case WS_OP_ABS: return a & 0x7fffffffu;
        case WS_OP_SQRT:
          if (in->rnd == WS_RND_RN)
            return f2u_canon (sqrtf (u2f (a)));
          break;
        case WS_OP_RCP:
          if (in->rnd == WS_RND_RN)
            return f2u_canon (1.0f / u2f (a));
          break;
        default: break;
        }
    }
  else if (plain && in->type == WS_T_F64)
    {
      switch (in->op)
        {
        case WS_OP_NEG: return a ^ (1ull << 63);
        case WS_OP_ABS: return a & ~(1ull << 63);
        case WS_OP_SQRT:
          if (in->rnd == WS_RND_RN)
            return d2u_canon (sqrt (u2d (a)));
          break;
        case WS_OP_RCP:
          if (in->rnd == WS_RND_RN)
            return d2u_canon (1.0 / u2d (a));
          break;
        default: break;
        }
    }
  return ws_ptx_float_unary (in->op, (WsPtxType) in->type, a, in->rnd, in->mods);
}

static inline uint64_t
f2i (double x, int to, int rnd)
{
  int n = tbits (to);
  gboolean s = tsigned (to);
  double lo, hi;
  if (x != x)
    return 0;
  switch (rnd)
    {
    case WS_RND_RNI: x = nearbyint (x); break;
    case WS_RND_RMI: x = floor (x); break;
    case WS_RND_RPI: x = ceil (x); break;
    default: x = trunc (x); break;
    }
  if (s)
    {
      lo = -ldexp (1.0, n - 1);
      hi = ldexp (1.0, n - 1);
      if (x < lo)
        return zx ((uint64_t) 1 << (n - 1), n);
      if (x >= hi)
        return zx (((uint64_t) 1 << (n - 1)) - 1, n);
      return zx ((uint64_t) (int64_t) x, n);
    }
  hi = ldexp (1.0, n);
  if (x <= 0)
    return 0;
  if (x >= hi)
    return zx (~0ull, n);
  return zx ((uint64_t) x, n);
}

/* cvt.{rna,rn,rz}{.relu}{.satfinite}.tf32.f32: an f32 rounded to tf32's
 * 10 mantissa bits, kept as a 32-bit float with the 13 low bits zero
 * (PTX ISA, cvt); NaN gives the canonical NaN. */
static uint64_t
cvt_tf32 (const EInst *in, uint64_t a)
{
  uint32_t u = (uint32_t) a, mag = u & 0x7fffffffu;
  if (mag > 0x7f800000u)
    return 0x7fffffffu;
  if (mag < 0x7f800000u)
    {
      if (in->rnd == WS_RND_RNA || in->rnd == WS_RND_NONE)
        u += 0x1000u; /* ties away from zero */
      else if (in->rnd == WS_RND_RN)
        u += 0xfffu + ((u >> 13) & 1u); /* ties to even */
      u &= 0xffffe000u;
    }
  if ((in->mods & WS_MOD_SATFINITE) && (u & 0x7fffffffu) == 0x7f800000u)
    u = (u & 0x80000000u) | 0x7f7fe000u;
  if ((in->mods & WS_MOD_RELU) && (u & 0x80000000u))
    u = 0;
  return u;
}

static uint64_t
cvt (const EInst *in, uint64_t a)
{
  int to = in->type, from = in->type2;
  if (G_UNLIKELY (in->sub == WS_SUB_CVT_TF32))
    return cvt_tf32 (in, a);
  gboolean sat = (in->mods & WS_MOD_SAT) != 0, ftz = (in->mods & WS_MOD_FTZ) != 0;
  if (!tfloat (to) && !tfloat (from) && !sat)
    {
      uint64_t v = tsigned (from) ? (uint64_t) sx (a, tbits (from)) : zx (a, tbits (from));
      return zx (v, tbits (to));
    }
  if (!sat && !ftz)
    {
      if (from == WS_T_F32 && to == WS_T_F64)
        return d2u_canon ((double) u2f (a));
      if (!tfloat (from) && to == WS_T_F64 && tbits (from) <= 32
          && (in->rnd == WS_RND_RN || in->rnd == WS_RND_NONE || tbits (from) <= 32))
        return d2u ((double) (tsigned (from) ? sx (a, tbits (from)) : (int64_t) zx (a, tbits (from))));
      if (!tfloat (from) && to == WS_T_F32 && (in->rnd == WS_RND_RN || in->rnd == WS_RND_NONE))
        {
          if (tsigned (from))
            return f2u ((float) sx (a, tbits (from)));
          return f2u ((float) zx (a, tbits (from)));
        }
      if (from == WS_T_F64 && to == WS_T_F32 && (in->rnd == WS_RND_RN || in->rnd == WS_RND_NONE))
        return f2u_canon ((float) u2d (a));
      if ((from == WS_T_F32 || from == WS_T_F64) && !tfloat (to)
          && (in->rnd == WS_RND_RZI || in->rnd == WS_RND_RNI || in->rnd == WS_RND_RMI || in->rnd == WS_RND_RPI))
        return f2i (from == WS_T_F32 ? (double) u2f (a) : u2d (a), to, in->rnd);
      if (from == to && from == WS_T_F32 && in->rnd >= WS_RND_RNI && in->rnd <= WS_RND_RPI)
        {
          float x = u2f (a);
          switch (in->rnd)
            {
            case WS_RND_RNI: return f2u_canon (nearbyintf (x));
            case WS_RND_RZI: return f2u_canon (truncf (x));
            case WS_RND_RMI: return f2u_canon (floorf (x));
            default: return f2u_canon (ceilf (x));
            }
        }
    }
  return ws_ptx_cvt_mods (a, (WsPtxType) from, (WsPtxType) to, in->rnd, in->mods);
}

/* cvt.rn.f16x2.f32 d, a, b (and bf16x2): cvt(a) in the upper half. */
static uint64_t
cvt_packed (const EInst *in, uint64_t a, uint64_t b)
{
  WsPtxType el = in->type == WS_T_BF16X2 ? WS_T_BF16 : WS_T_F16;
  uint32_t mods = in->mods & ~(uint32_t) WS_MOD_PACKED;
  uint64_t hi = ws_ptx_cvt_mods (a, (WsPtxType) in->type2, el, in->rnd, mods) & 0xffff;
  uint64_t lo = ws_ptx_cvt_mods (b, (WsPtxType) in->type2, el, in->rnd, mods) & 0xffff;
  return hi << 16 | lo;
}

/* ---- atomics ---------------------------------------------------------------- */

static uint64_t
atomic_rmw (uint8_t *p, const EInst *in, uint64_t b, uint64_t c)
{
  int t = in->type, size = in->size;
  int sub = in->sub;
  if (size == 4)
    {
      uint32_t *q = (uint32_t *) p, v = (uint32_t) b;
      switch (sub)
        {
        case WS_SUB_ADD:
          if (t == WS_T_F32)
            break;
          return __atomic_fetch_add (q, v, __ATOMIC_SEQ_CST);
        case WS_SUB_AND: return __atomic_fetch_and (q, v, __ATOMIC_SEQ_CST);
        case WS_SUB_OR: return __atomic_fetch_or (q, v, __ATOMIC_SEQ_CST);
        case WS_SUB_XOR: return __atomic_fetch_xor (q, v, __ATOMIC_SEQ_CST);
        case WS_SUB_EXCH: return __atomic_exchange_n (q, v, __ATOMIC_SEQ_CST);
        case WS_SUB_CAS:
          {
            uint32_t expected = v;
            __atomic_compare_exchange_n (q, &expected, (uint32_t) c, FALSE, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
            return expected;
          }
        default: break;
        }
      {
        uint32_t old = __atomic_load_n (q, __ATOMIC_SEQ_CST), nv;
        do
          {
            switch (sub)
              {
              case WS_SUB_ADD: nv = (uint32_t) f2u (u2f (old) + u2f (v)); break;
              case WS_SUB_MIN:
                if (t == WS_T_F32)
                  nv = u2f (v) < u2f (old) ? v : old;
                else
                  nv = tsigned (t) ? ((int32_t) v < (int32_t) old ? v : old) : (v < old ? v : old);
                break;
              case WS_SUB_MAX:
                if (t == WS_T_F32)
                  nv = u2f (v) > u2f (old) ? v : old;
                else
                  nv = tsigned (t) ? ((int32_t) v > (int32_t) old ? v : old) : (v > old ? v : old);
                break;
              case WS_SUB_INC: nv = old >= v ? 0 : old + 1; break;
              case WS_SUB_DEC: nv = (old == 0 || old > v) ? v : old - 1; break;
              default: nv = old; break;
              }
          }
        while (!__atomic_compare_exchange_n (q, &old, nv, TRUE, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST));
        return old;
      }
    }
  else
    {
      uint64_t *q = (uint64_t *) p, v = b;
      switch (sub)
        {
        case WS_SUB_ADD:
          if (t == WS_T_F64)
            break;
          return __atomic_fetch_add (q, v, __ATOMIC_SEQ_CST);
        case WS_SUB_AND: return __atomic_fetch_and (q, v, __ATOMIC_SEQ_CST);
        case WS_SUB_OR: return __atomic_fetch_or (q, v, __ATOMIC_SEQ_CST);
        case WS_SUB_XOR: return __atomic_fetch_xor (q, v, __ATOMIC_SEQ_CST);
        case WS_SUB_EXCH: return __atomic_exchange_n (q, v, __ATOMIC_SEQ_CST);
        case WS_SUB_CAS:
          {
            uint64_t expected = v;
            __atomic_compare_exchange_n (q, &expected, c, FALSE, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
            return expected;
          }
        default: break;
        }
      {
        uint64_t old = __atomic_load_n (q, __ATOMIC_SEQ_CST), nv;
        do
          {
            switch (sub)
              {
              case WS_SUB_ADD: nv = d2u (u2d (old) + u2d (v)); break;
              case WS_SUB_MIN:
                if (t == WS_T_F64)
                  nv = u2d (v) < u2d (old) ? v : old;
                else
                  nv = tsigned (t) ? ((int64_t) v < (int64_t) old ? v : old) : (v < old ? v : old);
                break;
              case WS_SUB_MAX:
                if (t == WS_T_F64)
                  nv = u2d (v) > u2d (old) ? v : old;
                else
                  nv = tsigned (t) ? ((int64_t) v > (int64_t) old ? v : old) : (v > old ? v : old);
                break;
              case WS_SUB_INC: nv = old >= v ? 0 : old + 1; break;
              case WS_SUB_DEC: nv = (old == 0 || old > v) ? v : old - 1; break;
              default: nv = old; break;
              }
          }
        while (!__atomic_compare_exchange_n (q, &old, nv, TRUE, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST));
        return old;
      }
    }
}

/* ---- calls -------------------------------------------------------------------- */

static const char *
read_string_cb (uint64_t addr, gpointer user_data)
{
  Cta *c = user_data;
  Launch *L = c->L;
  if (addr - WS_EMU_SHARED_WIN < WS_EMU_WIN_SIZE)
    {
      uint64_t off = addr - WS_EMU_SHARED_WIN;
      if (off < c->shared_size && memchr (c->shared + off, 0, c->shared_size - off))
        return (const char *) c->shared + off;
      return NULL;
    }
  if (addr - WS_EMU_WIN_SIZE < 0x0000400000000000ull)
    return NULL; /* local/param strings are not supported as %s arguments */
  for (guint i = 0; i < L->ntable; i++)
    {
      const WsDevAlloc *a = &L->table[i];
      if (addr >= a->base && addr < a->base + a->size)
        return memchr ((const void *) (uintptr_t) addr, 0, a->base + a->size - addr) ? (const char *) (uintptr_t) addr
                                                                                     : NULL;
    }
  return NULL;
}

static uint8_t *
frame_ptr (Cta *c, Warp *w, int lane, uint32_t off)
{
  return c->local + ((size_t) w->index * WS_EMU_WARP + lane) * c->local_stride + off;
}

/* Bytes of a generic/global buffer for printf arguments: the longest range
 * inside the containing object. */
static const uint8_t *
generic_span (Cta *c, Warp *w, int lane, uint64_t addr, gsize *avail)
{
  Launch *L = c->L;
  if (addr - WS_EMU_LOCAL_WIN < WS_EMU_WIN_SIZE)
    {
      uint64_t off = addr - WS_EMU_LOCAL_WIN;
      if (off >= c->stack)
        return NULL;
      *avail = c->stack - off;
      return frame_ptr (c, w, lane, (uint32_t) off);
    }
  if (addr - WS_EMU_SHARED_WIN < WS_EMU_WIN_SIZE)
    {
      uint64_t off = addr - WS_EMU_SHARED_WIN;
      if (off >= c->shared_size)
        return NULL;
      *avail = c->shared_size - off;
      return c->shared + off;
    }
  for (guint i = 0; i < L->ntable; i++)
    {
      const WsDevAlloc *a = &L->table[i];
      if (addr >= a->base && addr < a->base + a->size)
        {
          *avail = a->base + a->size - addr;
          return (const uint8_t *) (uintptr_t) addr;
        }
    }
  return NULL;
}

/* %s arguments of printf: strings anywhere the thread can address (its
 * local frames included, e.g. a char buffer[32] on the stack). */
typedef struct {
  Cta *c;
  Warp *w;
  int lane;
} PrintfLane;

static const char *
lane_string_cb (uint64_t addr, gpointer user_data)
{
  PrintfLane *pl = user_data;
  gsize avail = 0;
  const uint8_t *p = generic_span (pl->c, pl->w, pl->lane, addr, &avail);
  return p != NULL && memchr (p, 0, avail) ? (const char *) p : NULL;
}

static int
count_conversions (const char *fmt)
{
  int n = 0;
  for (const char *p = fmt; *p; p++)
    if (*p == '%')
      {
        if (p[1] == '%')
          p++;
        else
          n++;
      }
  return n;
}

/* Executes a call to a runtime-provided function (vprintf, malloc, free,
 * __assertfail).  Returns FALSE when the kernel faulted. */
static gboolean
call_builtin (Cta *c, Warp *w, uint32_t pc, const WsPtxCall *call, const char *callee, uint32_t m)
{
  const WsPtxModule *p = c->L->k->module->ptx;
  const uint32_t *sym_off = c->L->k->sym_off;
  uint32_t arg0 = call->n_args > 0 ? sym_off[call->args[0]] + w->local_base : 0;
  uint32_t arg1 = call->n_args > 1 ? sym_off[call->args[1]] + w->local_base : 0;
  uint32_t ret0 = call->n_rets > 0 ? sym_off[call->rets[0]] + w->local_base : 0;
  gsize ret_size = call->n_rets > 0 ? p->symbols[call->rets[0]].size : 0;

  FOR_LANES (m, {
    uint64_t a0 = 0, a1 = 0, r = 0;
    memcpy (&a0, frame_ptr (c, w, l, arg0), call->n_args > 0 ? MIN (8, p->symbols[call->args[0]].size) : 0);
    if (call->n_args > 1)
      memcpy (&a1, frame_ptr (c, w, l, arg1), MIN (8, p->symbols[call->args[1]].size));
    if (call->is_vprintf)
      {
        const char *fmt = read_string_cb (a0, c);
        gsize avail = 0;
        const uint8_t *args = a1 ? generic_span (c, w, l, a1, &avail) : NULL;
        if (fmt == NULL)
          {
            ws_emu_fault (c, w, pc, l, WS_CUDA_ERROR_ILLEGAL_ADDRESS,
                          "printf format string at 0x%" G_GINT64_MODIFIER "x is not readable", a0);
            return FALSE;
          }
        if (c->out == NULL)
          c->out = g_string_new (NULL);
        PrintfLane pl = { c, w, l };
        ws_ptx_format_printf (c->out, fmt, args, args ? avail : 0, lane_string_cb, &pl);
        r = (uint64_t) count_conversions (fmt);
      }
    else if (call->is_malloc)
      r = ws_emu_heap_alloc (c->L->emu, a0);
    else if (call->is_free)
      {
        if (a0)
          ws_emu_heap_free (c->L->emu, a0);
      }
    else if (ws_emu_device_runtime_call (callee) != NULL)
      {
        /* The device runtime (cudadevrt) under CUDA dynamic parallelism. */
        const char *sc = ws_emu_device_runtime_call (callee);
        if (strcmp (sc, "GetParameterBufferV2") == 0)
          {
            /* (func, dim3 grid, dim3 block, unsigned shared) -> buffer */
            const WsPtxModule *pm = c->L->k->module->ptx;
            uint32_t fi = (uint32_t) ((a0 - WS_EMU_FUNC_WIN) / 16);
            EmuChildHeader h = { 0 };
            r = 0;
            if (a0 >= WS_EMU_FUNC_WIN && fi < pm->n_functions && c->L->k->module->kernels[fi] != NULL
                && call->n_args >= 4)
              {
                h.fn = fi;
                memcpy (h.grid, frame_ptr (c, w, l, arg1), 12);
                memcpy (h.block, frame_ptr (c, w, l, sym_off[call->args[2]] + w->local_base), 12);
                memcpy (&h.shared, frame_ptr (c, w, l, sym_off[call->args[3]] + w->local_base), 4);
                uint64_t buf = ws_emu_heap_alloc (c->L->emu,
                                                  WS_EMU_CHILD_HEADER + MAX (pm->functions[fi].param_bytes, 1));
                if (buf)
                  {
                    memcpy ((void *) (uintptr_t) buf, &h, sizeof h);
                    r = buf + WS_EMU_CHILD_HEADER;
                  }
              }
          }
        else if (strcmp (sc, "LaunchDeviceV2") == 0)
          {
            /* (buffer, stream) -> cudaError_t */
            r = 98; /* cudaErrorInvalidDeviceFunction: not a buffer from GetParameterBuffer */
            if (a0 >= WS_EMU_CHILD_HEADER
                && ws_devmem_lookup (c->L->emu->opt.mem, a0 - WS_EMU_CHILD_HEADER, WS_EMU_CHILD_HEADER) != NULL)
              {
                EmuChildLaunch cl = { c->linear, c->child_seq++, a0 };
                g_mutex_lock (&c->L->lock);
                if (c->L->children == NULL)
                  c->L->children = g_array_new (FALSE, FALSE, sizeof (EmuChildLaunch));
                g_array_append_val (c->L->children, cl);
                g_mutex_unlock (&c->L->lock);
                r = 0;
              }
          }
        else if (strcmp (sc, "GraphSetConditional") == 0)
          {
            /* (handle, unsigned value): a conditional handle is the device
             * address of the condition's 4-byte slot (ws-cudart-graph.c) */
            uint32_t v = (uint32_t) a1;
            if (ws_devmem_lookup (c->L->emu->opt.mem, a0, sizeof v) == NULL)
              {
                ws_emu_fault (c, w, pc, l, WS_CUDA_ERROR_ILLEGAL_ADDRESS,
                              "cudaGraphSetConditional: 0x%" G_GINT64_MODIFIER "x is not a conditional handle", a0);
                return FALSE;
              }
            memcpy ((void *) (uintptr_t) a0, &v, sizeof v);
          }
        else if (strcmp (sc, "StreamCreate") == 0 || strcmp (sc, "EventCreate") == 0)
          {
            /* (handle *, flags): streams and events are ordering hints
             * only, children run after the grid anyway */
            gsize avail = 0;
            uint8_t *hp = a0 ? (uint8_t *) generic_span (c, w, l, a0, &avail) : NULL;
            uint64_t one = 1;
            if (hp == NULL || avail < 8)
              {
                ws_emu_fault (c, w, pc, l, WS_CUDA_ERROR_ILLEGAL_ADDRESS,
                              "%s: handle pointer 0x%" G_GINT64_MODIFIER "x is not writable", callee, a0);
                return FALSE;
              }
            memcpy (hp, &one, 8);
            r = 0;
          }
        else if (strcmp (sc, "GetDevice") == 0 || strcmp (sc, "GetDeviceCount") == 0)
          {
            gsize avail = 0;
            uint8_t *hp = a0 ? (uint8_t *) generic_span (c, w, l, a0, &avail) : NULL;
            int32_t v = strcmp (sc, "GetDevice") == 0 ? 0 : 1;
            if (hp == NULL || avail < 4)
              {
                ws_emu_fault (c, w, pc, l, WS_CUDA_ERROR_ILLEGAL_ADDRESS,
                              "%s: pointer 0x%" G_GINT64_MODIFIER "x is not writable", callee, a0);
                return FALSE;
              }
            memcpy (hp, &v, 4);
            r = 0;
          }
        else if (strcmp (sc, "GetLimit") == 0)
          {
            /* (size_t *value, cudaLimit) */
            gsize avail = 0;
            uint8_t *hp = a0 ? (uint8_t *) generic_span (c, w, l, a0, &avail) : NULL;
            uint64_t v = a1 == 2 ? c->L->emu->opt.heap_bytes : a1 == 0 ? c->stack : 0;
            r = a1 <= 2 ? 0 : 1; /* cudaErrorInvalidValue for other limits */
            if (hp == NULL || avail < 8)
              {
                ws_emu_fault (c, w, pc, l, WS_CUDA_ERROR_ILLEGAL_ADDRESS,
                              "%s: pointer 0x%" G_GINT64_MODIFIER "x is not writable", callee, a0);
                return FALSE;
              }
            if (r == 0)
              memcpy (hp, &v, 8);
          }
        else if (strcmp (sc, "GetLastError") == 0 || strcmp (sc, "PeekAtLastError") == 0
                 || strcmp (sc, "SetLastError") == 0 || strcmp (sc, "StreamDestroy") == 0
                 || strcmp (sc, "EventRecord") == 0 || strcmp (sc, "EventDestroy") == 0
                 || strcmp (sc, "StreamWaitEvent") == 0)
          r = 0; /* nothing fails, nothing waits: children run after the grid */
        else
          {
            ws_emu_fault (c, w, pc, l, WS_CUDA_ERROR_NOT_SUPPORTED,
                          "device runtime call %s is not supported by the Warpscope emulator", callee);
            return FALSE;
          }
      }
    else if (g_strcmp0 (callee, "__assertfail") == 0)
      {
        /* __assertfail(message, file, line, function, charSize) */
        const char *msg = read_string_cb (a0, c);
        const char *file = read_string_cb (a1, c);
        uint32_t line = 0;
        uint64_t fnaddr = 0;
        const char *func;
        if (call->n_args > 2)
          memcpy (&line, frame_ptr (c, w, l, sym_off[call->args[2]] + w->local_base), 4);
        if (call->n_args > 3)
          memcpy (&fnaddr, frame_ptr (c, w, l, sym_off[call->args[3]] + w->local_base), 8);
        func = read_string_cb (fnaddr, c);
        {
          uint32_t tid = w->index * WS_EMU_WARP + l;
          uint32_t bx = c->L->block[0], by = c->L->block[1];
          g_autofree char *text = g_strdup_printf (
            "%s:%u: %s: block: [%u,%u,%u], thread: [%u,%u,%u] Assertion `%s` failed.\n", file ? file : "?", line,
            func ? func : "?", c->ctaid[0], c->ctaid[1], c->ctaid[2], tid % bx, (tid / bx) % by, tid / (bx * by),
            msg ? msg : "?");
          if (c->out == NULL)
            c->out = g_string_new (NULL);
          g_string_append (c->out, text);
        }
        ws_emu_fault (c, w, pc, l, WS_CUDA_ERROR_ASSERT, "device-side assertion `%s` failed", msg ? msg : "?");
        return FALSE;
      }
    if (ret_size)
      memcpy (frame_ptr (c, w, l, ret0), &r, MIN (8, ret_size));
  });
  return TRUE;
}

/* ---- the interpreter ------------------------------------------------------------ */

static void
return_from_call (Cta *c, Warp *w)
{
  Frame *callee = &w->frames[w->nframes - 1];
  Frame *caller = &w->frames[w->nframes - 2];
  const WsPtxFunction *cfn = caller->fn->ptx;
  const WsPtxCall *call = &cfn->calls[callee->call];
  const WsPtxModule *p = c->L->k->module->ptx;
  uint32_t m = callee->mask & ~w->exited;
  for (guint i = 0; i < call->n_rets && i < callee->fn->ptx->n_rets; i++)
    {
      uint32_t dst = c->L->k->sym_off[call->rets[i]] + caller->local_base;
      uint32_t src = callee->fn->ret_frame_off[i] + callee->local_base;
      gsize n = MIN (p->symbols[call->rets[i]].size, p->symbols[callee->fn->ptx->rets[i]].size);
      FOR_LANES (m, memcpy (frame_ptr (c, w, l, dst), frame_ptr (c, w, l, src), n););
    }
  w->nframes--;
  set_frame_view (w);
}

static void
warp_done (Warp *w)
{
  w->state = WARP_DONE;
}

/* vote / match / redux for the lanes @grp, over the participants @part. */
static void
warp_collective (Warp *w, const EInst *in, uint32_t grp, uint32_t part, const uint64_t *A)
{
  uint64_t *D = w->regs + (size_t) in->d[0] * WS_EMU_WARP;
  if (in->h == H_VOTE)
    {
      uint32_t p = ((in->pneg & 1) ? ~w->preds[in->s[0]] : w->preds[in->s[0]]) & part;
      if (in->sub == WS_SUB_BALLOT)
        FOR_LANES (grp, D[l] = p;);
      else
        {
          gboolean r;
          if (in->sub == WS_SUB_ALL)
            r = p == part;
          else if (in->sub == WS_SUB_ANY)
            r = p != 0;
          else
            r = p == 0 || p == part;
          w->preds[in->d[0]] = (w->preds[in->d[0]] & ~grp) | (r ? grp : 0);
        }
      return;
    }
  if (in->h == H_MATCH)
    {
      int n = tbits (in->type);
      gboolean all_eq = TRUE;
      uint64_t first = part ? zx (A[__builtin_ctz (part)], n) : 0;
      for (uint32_t mm = part; mm; mm &= mm - 1)
        if (zx (A[__builtin_ctz (mm)], n) != first)
          all_eq = FALSE;
      if (in->sub == WS_SUB_ALLSYNC)
        {
          FOR_LANES (grp, D[l] = all_eq ? part : 0;);
          w->preds[in->d[1]] = (w->preds[in->d[1]] & ~grp) | (all_eq ? grp : 0);
        }
      else
        FOR_LANES (grp, {
          uint32_t r = 0;
          uint64_t v = zx (A[l], n);
          for (uint32_t mm = part; mm; mm &= mm - 1)
            if (zx (A[__builtin_ctz (mm)], n) == v)
              r |= 1u << __builtin_ctz (mm);
          D[l] = r;
        });
      return;
    }
  {
    uint32_t acc = 0;
    gboolean first = TRUE, sgn = tsigned (in->type);
    for (uint32_t mm = part; mm; mm &= mm - 1)
      {
        uint32_t v = (uint32_t) A[__builtin_ctz (mm)];
        if (first)
          {
            acc = v;
            first = FALSE;
            continue;
          }
        switch (in->sub)
          {
          case WS_SUB_ADD: acc += v; break;
          case WS_SUB_MIN: acc = sgn ? ((int32_t) v < (int32_t) acc ? v : acc) : MIN (v, acc); break;
          case WS_SUB_MAX: acc = sgn ? ((int32_t) v > (int32_t) acc ? v : acc) : MAX (v, acc); break;
          case WS_SUB_AND: acc &= v; break;
          case WS_SUB_OR: acc |= v; break;
          default: acc ^= v; break;
          }
      }
    FOR_LANES (grp, D[l] = acc;);
  }
}

/* Lanes on the other side of the same divergent branch as the polling
 * top entry (an if/else whose other path has not run yet) may be the ones
 * it waits for (an arrive on an mbarrier, a lock's release): that path runs
 * first, as Volta's independent thread scheduling would let it; the order
 * of two paths that reconverge at the same point is free.  TRUE: swapped
 * (the top entry, at its next pc, goes below its sibling). */
static gboolean
run_sibling_first (Warp *w)
{
  uint32_t base = w->nframes ? w->frames[w->nframes - 1].simt_base : 0;
  if (w->sp < 2 || w->sp - 2 < base)
    return FALSE;
  Simt *top = &w->simt[w->sp - 1], *sib = &w->simt[w->sp - 2];
  if (sib->rpc != top->rpc || sib->pc == sib->rpc || sib->run_ahead || top->run_ahead
      || (sib->mask & w->live & ~w->exited) == 0)
    return FALSE;
  Simt polling = *top;
  *top = *sib;
  *sib = polling;
  return TRUE;
}

/* A warp giving the worker to its block's other warps (an mbarrier not yet
 * complete): the launch's watchdog and instruction budget still apply, as
 * at every 4096th instruction of an uninterrupted run.  FALSE: it faulted. */
static gboolean
yield_ok (Cta *c, Warp *w, uint32_t pc, uint32_t active, uint64_t winst)
{
  Launch *L = c->L;
  if (L->deadline && g_get_monotonic_time () > L->deadline)
    {
      ws_emu_fault (c, w, pc, __builtin_ctz (active), WS_CUDA_ERROR_LAUNCH_TIMEOUT,
                    "the launch timed out: the kernel ran for more than %g s (the watchdog's launch timeout; it "
                    "probably hangs: a wait for something that never happens; raise the limit with "
                    "--launch-timeout or WS_LAUNCH_TIMEOUT)",
                    L->emu->opt.launch_timeout);
      return FALSE;
    }
  if (L->budget && __atomic_add_fetch (&L->budget_used, winst & 0xfff, __ATOMIC_RELAXED) > L->budget)
    {
      ws_emu_fault (
        c, w, pc, __builtin_ctz (active), WS_CUDA_ERROR_LAUNCH_TIMEOUT,
        "the launch timed out: the kernel did not finish within the instruction budget of %" G_GUINT64_FORMAT
        " warp instructions (it probably hangs: a wait for something that never happens; raise the "
        "limit with --instruction-budget or WS_INSTRUCTION_BUDGET)",
        L->budget);
      return FALSE;
    }
  return TRUE;
}

/* ---- handlers ------------------------------------------------------------------ */

/* run_warp fetches an instruction, applies its guard, counts it and calls
 * the handler of its class below; the handler executes it for the lanes @m
 * (the active lanes whose guard holds) and says what comes next.  Where a
 * handler is compiled matters for speed, because run_warp's switch is one
 * big function whose register allocation decides the cost of every
 * instruction (callgrind, issue 16):
 *   HOT   simple lane loops that nearly every kernel runs: inlined into the
 *         switch;
 *   WARM  handlers whose lanes do enough work (a call per lane, a switch,
 *         an inner loop) that a call costs nothing in comparison: out of
 *         line, so that run_warp keeps the warp, the mask and the
 *         instruction in registers for the HOT ones (with every handler
 *         inlined, saxpy2 and bfs ran 2-4 % more instructions than with
 *         the old single switch; with these out of line, 2 % fewer);
 *   COLD  rare instructions (calls, barriers, textures, mbarrier...).
 * Check a change here with callgrind's instruction counts on
 * bench/emu-bench.sh's cases, not only with wall-clock time. */
typedef enum {
  STEP_NEXT,  /* go on at pc + 1 */
  STEP_JUMP,  /* the handler moved the SIMT stack itself: fetch again */
  STEP_PAUSE, /* leave run_warp (a barrier, an incomplete mbarrier): the warp resumes later */
  STEP_FAULT, /* the warp faulted (reported): stop it and its block */
} Step;

#define HOT static inline __attribute__ ((always_inline))
#define WARM static __attribute__ ((noinline))
#define COLD static __attribute__ ((noinline))

/* The address a trace records for an access of @space resolved to @tspace
 * (shared and local addresses as offsets in their window). */
static inline uint64_t
trace_addr (int space, int tspace, uint64_t addr)
{
  if (tspace == WS_SPACE_LOCAL)
    return addr - (space == WS_SPACE_GENERIC ? WS_EMU_LOCAL_WIN : 0);
  return tspace == WS_SPACE_SHARED && space == WS_SPACE_GENERIC ? addr - WS_EMU_SHARED_WIN : addr;
}

/* Traces a memory instruction: with its lanes' addresses (c->addrs, in
 * @tspace) when @as_mem, else as an ordinary instruction. */
static inline void
trace_access (Cta *c, Warp *w, uint32_t pc, uint32_t m, gboolean as_mem, int tspace)
{
  if (as_mem)
    ws_trace_cta_mem (c->trace, w->index, w->fn->static_base + pc, m, (uint8_t) tspace, c->addrs);
  else
    ws_trace_cta_inst (c->trace, w->index, w->fn->static_base + pc, m);
}

/* ---- moves and packing ---- */

HOT void
exec_mov (Warp *w, const EInst *in, uint32_t m)
{
  const uint64_t *A = SRC (0);
  uint64_t *D = DST (0);
  FOR_LANES (m, D[l] = A[l];);
}

HOT void
exec_mov_frame (Warp *w, const EInst *in, uint32_t m)
{
  uint64_t *D = DST (0);
  uint64_t v = (uint64_t) w->local_base + (uint64_t) in->off;
  FOR_LANES (m, D[l] = v;);
}

/* @winst: warp instructions run so far in this call of run_warp. */
COLD void
exec_mov_clock (Warp *w, const EInst *in, uint32_t m, uint64_t winst)
{
  uint64_t *D = DST (0);
  uint64_t v;
  if (in->sreg == WS_SREG_GLOBALTIMER)
    {
      struct timespec ts;
      clock_gettime (CLOCK_REALTIME, &ts);
      v = (uint64_t) ts.tv_sec * 1000000000ull + (uint64_t) ts.tv_nsec;
    }
  else
    /* Deterministic clocks: four cycles per warp instruction issued. */
    v = (w->icount + winst) * 4;
  if (in->sreg == WS_SREG_CLOCK)
    v = (uint32_t) v;
  FOR_LANES (m, D[l] = v;);
}

HOT void
exec_mov_pred (Warp *w, const EInst *in, uint32_t m)
{
  uint32_t v;
  if ((in->s[0] >> WS_SRC_SHIFT) == WS_SRC_IMM || (in->s[0] >> WS_SRC_SHIFT) == WS_SRC_SREG)
    v = SRC (0)[0] ? WS_EMU_FULL : 0;
  else
    v = PSRC (0);
  w->preds[in->d[0]] = (w->preds[in->d[0]] & ~m) | (v & m);
}

WARM void
exec_pack (Warp *w, const EInst *in, uint32_t m)
{
  int n = in->vec, bits = tbits (in->type) / n;
  uint64_t *D = DST (0);
  const uint64_t *V[4] = { VSRC (0), n > 1 ? VSRC (1) : NULL, n > 2 ? VSRC (2) : NULL, n > 3 ? VSRC (3) : NULL };
  FOR_LANES (m, {
    uint64_t r = 0;
    for (int j = 0; j < n; j++)
      r |= zx (V[j][l], bits) << (j * bits);
    D[l] = r;
  });
}

WARM void
exec_unpack (Warp *w, const EInst *in, uint32_t m)
{
  int n = in->vec, bits = tbits (in->type) / n;
  const uint64_t *A = SRC (0);
  FOR_LANES (m, {
    uint64_t v = A[l];
    for (int j = 0; j < n; j++)
      w->regs[(size_t) in->d[j] * WS_EMU_WARP + l] = zx (v >> (j * bits), bits);
  });
}

/* ---- integer and float arithmetic ---- */

/* The lane loops of the common two- and three-operand instructions: one
 * handler each, defined and dispatched from these lists. */
/* clang-format off */
#define BINARY_OPS(X) \
  X (H_ADD32, add32, (uint32_t) (a + b)) \
  X (H_ADD64, add64, a + b) \
  X (H_SUB32, sub32, (uint32_t) (a - b)) \
  X (H_SUB64, sub64, a - b) \
  X (H_MULLO32, mullo32, (uint32_t) ((uint32_t) a * (uint32_t) b)) \
  X (H_MULLO64, mullo64, a * b) \
  X (H_MULWIDE_S32, mulwide_s32, (uint64_t) ((int64_t) (int32_t) a * (int64_t) (int32_t) b)) \
  X (H_MULWIDE_U32, mulwide_u32, (uint64_t) (uint32_t) a * (uint32_t) b) \
  X (H_SHL32, shl32, (uint32_t) b >= 32 ? 0 : (uint32_t) ((uint32_t) a << (uint32_t) b)) \
  X (H_SHL64, shl64, (uint32_t) b >= 64 ? 0 : a << (uint32_t) b) \
  X (H_SHR_U32, shr_u32, (uint32_t) b >= 32 ? 0 : (uint32_t) a >> (uint32_t) b) \
  X (H_SHR_S32, shr_s32, (uint32_t) ((int32_t) a >> MIN ((uint32_t) b, 31u))) \
  X (H_SHR_U64, shr_u64, (uint32_t) b >= 64 ? 0 : a >> (uint32_t) b) \
  X (H_SHR_S64, shr_s64, (uint64_t) ((int64_t) a >> MIN ((uint32_t) b, 63u))) \
  X (H_AND, and, a & b) \
  X (H_OR, or, a | b) \
  X (H_XOR, xor, a ^ b) \
  X (H_FADD32, fadd32, f2u_canon (u2f (a) + u2f (b))) \
  X (H_FSUB32, fsub32, f2u_canon (u2f (a) - u2f (b))) \
  X (H_FMUL32, fmul32, f2u_canon (u2f (a) * u2f (b))) \
  X (H_FADD64, fadd64, d2u_canon (u2d (a) + u2d (b))) \
  X (H_FSUB64, fsub64, d2u_canon (u2d (a) - u2d (b))) \
  X (H_FMUL64, fmul64, d2u_canon (u2d (a) * u2d (b)))
#define TERNARY_OPS(X) \
  X (H_MADLO32, madlo32, (uint32_t) ((uint32_t) a * (uint32_t) b + (uint32_t) cc)) \
  X (H_MADLO64, madlo64, a * b + cc) \
  X (H_MADWIDE_S32, madwide_s32, (uint64_t) ((int64_t) (int32_t) a * (int64_t) (int32_t) b) + cc) \
  X (H_MADWIDE_U32, madwide_u32, (uint64_t) (uint32_t) a * (uint32_t) b + cc)
/* clang-format on */

/* clang-format off */
#define DEFINE_BINARY(h, name, expr) \
  HOT void exec_##name (Warp *w, const EInst *in, uint32_t m) \
  { \
    const uint64_t *A = SRC (0), *B = SRC (1); \
    uint64_t *D = DST (0); \
    FOR_LANES (m, { uint64_t a = A[l], b = B[l]; D[l] = (expr); }); \
  }
#define DEFINE_TERNARY(h, name, expr) \
  HOT void exec_##name (Warp *w, const EInst *in, uint32_t m) \
  { \
    const uint64_t *A = SRC (0), *B = SRC (1), *C = SRC (2); \
    uint64_t *D = DST (0); \
    FOR_LANES (m, { uint64_t a = A[l], b = B[l], cc = C[l]; D[l] = (expr); }); \
  }
/* clang-format on */
BINARY_OPS (DEFINE_BINARY)
TERNARY_OPS (DEFINE_TERNARY)
#undef DEFINE_BINARY
#undef DEFINE_TERNARY

HOT void
exec_not (Warp *w, const EInst *in, uint32_t m)
{
  const uint64_t *A = SRC (0);
  uint64_t *D = DST (0);
  int n = tbits (in->type);
  FOR_LANES (m, D[l] = zx (~A[l], n););
}

WARM void
exec_ialu (Warp *w, const EInst *in, uint32_t m)
{
  const uint64_t *A = SRC (0);
  const uint64_t *B = in->nsrc > 1 ? SRC (1) : A;
  const uint64_t *C = in->nsrc > 2 ? SRC (2) : A;
  const uint64_t *E = in->nsrc > 3 ? SRC (3) : A;
  uint64_t *D = DST (0);
  FOR_LANES (m, D[l] = ialu (in, A[l], B[l], C[l], E[l]););
}

/* add.cc / addc / sub.cc / subc / mad.cc / madc: the carry flag is a lane
 * mask in w->carry. */
WARM void
exec_carry (Warp *w, const EInst *in, uint32_t m)
{
  const uint64_t *A = SRC (0), *B = SRC (1);
  const uint64_t *C = in->nsrc > 2 ? SRC (2) : A;
  uint64_t *D = DST (0);
  int n = tbits (in->type);
  gboolean use_cin = in->op == WS_OP_ADDC || in->op == WS_OP_SUBC || in->op == WS_OP_MADC;
  gboolean set_cout = (in->mods & WS_MOD_CC) != 0;
  gboolean is_sub = in->op == WS_OP_SUB || in->op == WS_OP_SUBC;
  gboolean is_mad = in->op == WS_OP_MAD || in->op == WS_OP_MADC;
  uint32_t carry = w->carry, out = carry;
  FOR_LANES (m, {
    uint64_t a = zx (A[l], n), b = zx (B[l], n), cin = use_cin ? (carry >> l & 1) : 0;
    unsigned __int128 r;
    uint64_t mask = n == 64 ? ~0ull : (1ull << n) - 1;
    gboolean co;
    if (is_mad)
      {
        uint64_t prod;
        gboolean sgn = tsigned (in->type);
        if (in->mods & WS_MOD_HI)
          prod = n == 64 ? (sgn ? (uint64_t) (((__int128) (int64_t) a * (int64_t) b) >> 64)
                                : (uint64_t) (((unsigned __int128) a * b) >> 64))
                         : zx ((sgn ? (uint64_t) (sx (a, n) * sx (b, n)) : a * b) >> n, n);
        else
          prod = zx (a * b, n);
        r = (unsigned __int128) prod + zx (C[l], n) + cin;
        co = (r >> n) != 0;
      }
    else if (is_sub)
      {
        r = (unsigned __int128) a - b - cin;
        co = ((unsigned __int128) b + cin) > a;
      }
    else
      {
        r = (unsigned __int128) a + b + cin;
        co = (r >> n) != 0;
      }
    D[l] = (uint64_t) r & mask;
    if (set_cout)
      out = co ? (out | (1u << l)) : (out & ~(1u << l));
  });
  w->carry = out;
}

WARM void
exec_float (Warp *w, const EInst *in, uint32_t m)
{
  const uint64_t *A = SRC (0), *B = in->nsrc > 1 ? SRC (1) : A, *C = in->nsrc > 2 ? SRC (2) : A;
  uint64_t *D = DST (0);
  FOR_LANES (m, D[l] = float_op (in, A[l], B[l], C[l]););
}

WARM void
exec_funary (Warp *w, const EInst *in, uint32_t m)
{
  const uint64_t *A = SRC (0);
  uint64_t *D = DST (0);
  FOR_LANES (m, D[l] = float_unary (in, A[l]););
}

/* ---- conversions ---- */

/* Integer widening/narrowing: extend by the source type, keep the
 * destination's bits. */
HOT void
exec_cvt_int (Warp *w, const EInst *in, uint32_t m)
{
  const uint64_t *A = SRC (0);
  uint64_t *D = DST (0);
  int fb = tbits (in->type2), tb = tbits (in->type);
  if (tsigned (in->type2))
    FOR_LANES (m, D[l] = zx ((uint64_t) sx (A[l], fb), tb););
  else
    FOR_LANES (m, D[l] = zx (zx (A[l], fb), tb););
}

WARM void
exec_cvt (Warp *w, const EInst *in, uint32_t m)
{
  const uint64_t *A = SRC (0);
  uint64_t *D = DST (0);
  if ((in->mods & WS_MOD_PACKED) && in->nsrc > 1)
    {
      const uint64_t *B = SRC (1);
      FOR_LANES (m, D[l] = cvt_packed (in, A[l], B[l]););
    }
  else
    FOR_LANES (m, D[l] = cvt (in, A[l]););
}

WARM void
exec_cvta (Warp *w, const EInst *in, uint32_t m)
{
  const uint64_t *A = SRC (0);
  uint64_t *D = DST (0);
  uint64_t win = 0;
  switch (in->space)
    {
    case WS_SPACE_SHARED: win = WS_EMU_SHARED_WIN; break;
    case WS_SPACE_LOCAL: win = WS_EMU_LOCAL_WIN; break;
    case WS_SPACE_PARAM: win = WS_EMU_PARAM_WIN; break;
    default: win = 0; break; /* global/const are identity-mapped */
    }
  if (in->mods & WS_MOD_TO)
    FOR_LANES (m, D[l] = A[l] - win;);
  else
    FOR_LANES (m, D[l] = A[l] + win;);
  if (tbits (in->type) == 32)
    FOR_LANES (m, D[l] = (uint32_t) D[l];);
}

/* ---- comparisons, selections and predicates ---- */

/* setp of the common types without a boolean operator: full warps compute
 * 32 booleans in a loop the compiler vectorises and pack them eight at a
 * time; partial warps walk their lanes. */
/* clang-format off */
#define SETP_CASE(cmpv, expr) case cmpv: \
    if (m == WS_EMU_FULL) \
      { \
        uint8_t t8[WS_EMU_WARP]; \
        for (int l = 0; l < WS_EMU_WARP; l++) { CT a = (CT) A[l], b = (CT) B[l]; t8[l] = (uint8_t) (expr); } \
        r = pack_bools (t8); \
      } \
    else \
      FOR_LANES (m, { CT a = (CT) A[l], b = (CT) B[l]; r |= (uint32_t) (expr) << l; }); \
    break;
#define DEFINE_SETP(name, CTYPE, CONV) \
  HOT void exec_##name (Warp *w, const EInst *in, uint32_t m) \
  { \
    const uint64_t *A = SRC (0), *B = SRC (1); \
    uint32_t r = 0; \
    typedef CTYPE CT; \
    switch (in->cmp) \
      { \
      SETP_CASE (WS_CMP_EQ, CONV (a) == CONV (b)) \
      SETP_CASE (WS_CMP_NE, CONV (a) != CONV (b) && CONV (a) == CONV (a) && CONV (b) == CONV (b)) \
      SETP_CASE (WS_CMP_LT, CONV (a) < CONV (b)) \
      SETP_CASE (WS_CMP_LE, CONV (a) <= CONV (b)) \
      SETP_CASE (WS_CMP_GT, CONV (a) > CONV (b)) \
      SETP_CASE (WS_CMP_GE, CONV (a) >= CONV (b)) \
      default: break; \
      } \
    w->preds[in->d[0]] = (w->preds[in->d[0]] & ~m) | r; \
    w->preds[in->d[1]] = (w->preds[in->d[1]] & ~m) | (~r & m); \
  }
/* clang-format on */
#define ID(x) (x)
DEFINE_SETP (setp_s32, int32_t, ID)
DEFINE_SETP (setp_u32, uint32_t, ID)
DEFINE_SETP (setp_s64, int64_t, ID)
DEFINE_SETP (setp_u64, uint64_t, ID)
DEFINE_SETP (setp_f32, uint64_t, u2f)
DEFINE_SETP (setp_f64, uint64_t, u2d)
#undef ID
#undef DEFINE_SETP
#undef SETP_CASE

/* setp of any type, with a boolean operator or of packed halves. */
WARM void
exec_setp (Warp *w, const EInst *in, uint32_t m)
{
  const uint64_t *A = SRC (0), *B = SRC (1);
  int t = in->type2 ? in->type2 : in->type;
  uint32_t cpred = in->boolop ? PSRC (2) : 0, p = 0, q = 0;
  if (t == WS_T_PRED)
    t = in->type;
  if (t == WS_T_F16X2 || t == WS_T_BF16X2)
    {
      /* setp.f16x2 p|q: p compares the low halves, q the high halves */
      int el = t == WS_T_F16X2 ? WS_T_F16 : WS_T_BF16;
      FOR_LANES (m, {
        gboolean cv = cpred >> l & 1;
        gboolean r0 = ws_ptx_compare (in->cmp, (WsPtxType) el, A[l] & 0xffff, B[l] & 0xffff,
                                      (in->mods & WS_MOD_FTZ) != 0);
        gboolean r1 = ws_ptx_compare (in->cmp, (WsPtxType) el, (A[l] >> 16) & 0xffff, (B[l] >> 16) & 0xffff,
                                      (in->mods & WS_MOD_FTZ) != 0);
        p |= (uint32_t) boolop (in->boolop, r0, cv) << l;
        q |= (uint32_t) boolop (in->boolop, r1, cv) << l;
      });
      w->preds[in->d[0]] = (w->preds[in->d[0]] & ~m) | p;
      w->preds[in->d[1]] = (w->preds[in->d[1]] & ~m) | q;
      return;
    }
  FOR_LANES (m, {
    gboolean r = compare (in, t, A[l], B[l]);
    gboolean cv = cpred >> l & 1;
    p |= (uint32_t) boolop (in->boolop, r, cv) << l;
    q |= (uint32_t) boolop (in->boolop, !r, cv) << l;
  });
  w->preds[in->d[0]] = (w->preds[in->d[0]] & ~m) | p;
  w->preds[in->d[1]] = (w->preds[in->d[1]] & ~m) | q;
}

WARM void
exec_set (Warp *w, const EInst *in, uint32_t m)
{
  const uint64_t *A = SRC (0), *B = SRC (1);
  uint64_t *D = DST (0);
  uint32_t cpred = in->boolop ? PSRC (2) : 0;
  uint64_t one = in->type == WS_T_F32 ? 0x3f800000u : zx (~0ull, tbits (in->type));
  FOR_LANES (m, {
    gboolean r = boolop (in->boolop, compare (in, in->type2, A[l], B[l]), cpred >> l & 1);
    D[l] = r ? one : 0;
  });
}

HOT void
exec_selp (Warp *w, const EInst *in, uint32_t m)
{
  const uint64_t *A = SRC (0), *B = SRC (1);
  uint64_t *D = DST (0);
  uint32_t p = PSRC (2);
  FOR_LANES (m, D[l] = (p >> l & 1) ? A[l] : B[l];);
}

WARM void
exec_slct (Warp *w, const EInst *in, uint32_t m)
{
  const uint64_t *A = SRC (0), *B = SRC (1), *C = SRC (2);
  uint64_t *D = DST (0);
  gboolean fc = in->type2 == WS_T_F32;
  FOR_LANES (m, {
    gboolean ge = fc ? u2f (C[l]) >= 0.0f : (int32_t) C[l] >= 0;
    if (fc && (in->mods & WS_MOD_FTZ) && (C[l] & 0x7f800000u) == 0)
      ge = TRUE;
    D[l] = ge ? A[l] : B[l];
  });
}

HOT void
exec_predlogic (Warp *w, const EInst *in, uint32_t m)
{
  uint32_t a = PSRC (0), r;
  switch (in->op)
    {
    case WS_OP_AND: r = a & PSRC (1); break;
    case WS_OP_OR: r = a | PSRC (1); break;
    case WS_OP_XOR: r = a ^ PSRC (1); break;
    default: r = ~a; break;
    }
  w->preds[in->d[0]] = (w->preds[in->d[0]] & ~m) | (r & m);
}

WARM void
exec_testp (Warp *w, const EInst *in, uint32_t m)
{
  const uint64_t *A = SRC (0);
  uint32_t r = 0;
  FOR_LANES (m, r |= (uint32_t) ws_ptx_testp (in->sub, (WsPtxType) in->type, A[l]) << l;);
  w->preds[in->d[0]] = (w->preds[in->d[0]] & ~m) | r;
}

COLD void
exec_isspacep (Cta *c, Warp *w, const EInst *in, uint32_t m)
{
  Launch *L = c->L;
  const uint64_t *A = SRC (0);
  uint32_t r = 0;
  FOR_LANES (m, {
    uint64_t a = A[l];
    gboolean sh = a - WS_EMU_SHARED_WIN < WS_EMU_WIN_SIZE;
    gboolean lo = a - WS_EMU_LOCAL_WIN < WS_EMU_WIN_SIZE;
    gboolean pa = a - WS_EMU_PARAM_WIN < WS_EMU_WIN_SIZE;
    gboolean v;
    switch (in->space)
      {
      case WS_SPACE_SHARED: v = sh; break;
      case WS_SPACE_LOCAL: v = lo; break;
      case WS_SPACE_PARAM: v = pa; break;
      case WS_SPACE_CONST:
        v = ws_devmem_lookup (L->emu->opt.mem, a, 1) != NULL
            && ws_devmem_lookup (L->emu->opt.mem, a, 1)->kind == WS_ALLOC_SYMBOL;
        break;
      default: v = !sh && !lo && !pa; break;
      }
    r |= (uint32_t) v << l;
  });
  w->preds[in->d[0]] = (w->preds[in->d[0]] & ~m) | r;
}

/* ---- loads and stores ---- */

/* One lane's vector of @n elements of @esz bytes at @p into ld's
 * destinations. */
static inline void
load_lane (Warp *w, const EInst *in, int l, const uint8_t *p, uint32_t n, uint32_t esz, gboolean sgn)
{
  for (uint32_t j = 0; j < n; j++)
    w->regs[(size_t) in->d[j] * WS_EMU_WARP + l] = load_val (p + j * esz, esz, sgn);
}

/* Loads take the first of these paths that fits: a kernel parameter read
 * by name (one value for the warp), shared or local memory whose lanes are
 * all in bounds, global memory whose lanes all lie in the warp's cached
 * allocation, and otherwise a check of each lane (xlate). */
HOT Step
exec_ld (Cta *c, Warp *w, const EInst *in, uint32_t pc, uint32_t m)
{
  Launch *L = c->L;
  const uint64_t *A = in->has_base ? SRC (0) : NULL;
  uint32_t esz = in->size, n = in->vec, tot = esz * n;
  int64_t off = in->off + (in->addr_frame ? (int64_t) w->local_base : 0);
  int space = in->space;
  gboolean sgn = tsigned (in->type);
  int tspace = space;
  MemFault f = { 0 };
  if ((space == WS_SPACE_PARAM || space == WS_SPACE_FUNC_PARAM) && !in->addr_param
      && (in->addr_frame || !w->fn->ptx->is_entry))
    space = WS_SPACE_LOCAL;
  if (in->addr_param && A == NULL && m && (uint64_t) off + tot <= L->param_bytes && off >= 0)
    {
      /* Kernel parameter by name: the same bytes for every lane. */
      for (uint32_t j = 0; j < n; j++)
        {
          uint64_t v = load_val (L->params + off + j * esz, esz, sgn);
          uint64_t *D = DST (j);
          FOR_LANES (m, D[l] = v;);
        }
      tspace = WS_SPACE_PARAM;
    }
  else if ((space == WS_SPACE_SHARED || space == WS_SPACE_LOCAL) && m)
    {
      uint8_t *base;
      size_t lstride;
      if (!onchip_fast (c, w, space, A, off, m, tot, &base, &lstride))
        {
          FOR_LANES (m, {
            const uint8_t *p = xlate (c, w, l, space, c->addrs[l], tot, &f, &tspace);
            if (p == NULL)
              {
                mem_fault (c, w, pc, &f, "load", tot);
                return STEP_FAULT;
              }
            load_lane (w, in, l, p, n, esz, sgn);
          });
          FLUSH_INVALID ("load", tot);
        }
      else
        FOR_LANES (m, load_lane (w, in, l, base + (size_t) l * lstride + c->addrs[l], n, esz, sgn););
    }
  else if ((space == WS_SPACE_GLOBAL || space == WS_SPACE_GENERIC || space == WS_SPACE_CONST) && m
           && warp_global_fast (c, w, A, off, m, tot))
    {
      tspace = WS_SPACE_GLOBAL;
      if (n == 1 && esz == 4)
        {
          uint64_t *D = DST (0);
          if (sgn)
            FOR_LANES (m, {
              int32_t v;
              memcpy (&v, (const void *) (uintptr_t) c->addrs[l], 4);
              D[l] = (uint64_t) (int64_t) v;
            });
          else
            FOR_LANES (m, {
              uint32_t v;
              memcpy (&v, (const void *) (uintptr_t) c->addrs[l], 4);
              D[l] = v;
            });
        }
      else
        FOR_LANES (m, load_lane (w, in, l, (const uint8_t *) (uintptr_t) c->addrs[l], n, esz, sgn););
    }
  else
    {
      FOR_LANES (m, {
        uint64_t addr = window_addr (space, (A ? A[l] : 0) + (uint64_t) off);
        const uint8_t *p = xlate (c, w, l, space, addr, tot, &f, &tspace);
        if (G_UNLIKELY (p == NULL))
          {
            mem_fault (c, w, pc, &f, "load", tot);
            return STEP_FAULT;
          }
        load_lane (w, in, l, p, n, esz, sgn);
        c->addrs[l] = trace_addr (space, tspace, addr);
      });
      FLUSH_INVALID ("load", tot);
    }
  if (in->mods & WS_MOD_ACQUIRE)
    __atomic_thread_fence (__ATOMIC_ACQUIRE);
  if (c->trace)
    trace_access (c, w, pc, m, m && traced_space (tspace) && traced_space (in->space), tspace);
  return STEP_NEXT;
}

/* One lane's vector of @n elements of @esz bytes from st's sources @V to @p. */
static inline void
store_lane (uint8_t *p, const uint64_t *const *V, int l, uint32_t n, uint32_t esz)
{
  for (uint32_t j = 0; j < n; j++)
    store_val (p + j * esz, esz, V[j][l]);
}

/* The same paths as exec_ld, but for the parameter read. */
HOT Step
exec_st (Cta *c, Warp *w, const EInst *in, uint32_t pc, uint32_t m)
{
  const uint64_t *A = in->has_base ? SRC (0) : NULL;
  uint32_t esz = in->size, n = in->vec, tot = esz * n;
  int64_t off = in->off + (in->addr_frame ? (int64_t) w->local_base : 0);
  int space = in->space;
  int tspace = space;
  const uint64_t *V[4] = { VSRC (0), n > 1 ? VSRC (1) : NULL, n > 2 ? VSRC (2) : NULL, n > 3 ? VSRC (3) : NULL };
  MemFault f = { 0 };
  if (in->mods & WS_MOD_RELEASE)
    __atomic_thread_fence (__ATOMIC_RELEASE);
  if ((space == WS_SPACE_PARAM || space == WS_SPACE_FUNC_PARAM) && !in->addr_param)
    space = WS_SPACE_LOCAL;
  uint8_t *obase;
  size_t ostride;
  if ((space == WS_SPACE_SHARED || space == WS_SPACE_LOCAL) && m
      && onchip_fast (c, w, space, A, off, m, tot, &obase, &ostride))
    FOR_LANES (m, store_lane (obase + (size_t) l * ostride + c->addrs[l], V, l, n, esz););
  else if ((space == WS_SPACE_GLOBAL || space == WS_SPACE_GENERIC) && m && warp_global_fast (c, w, A, off, m, tot))
    {
      tspace = WS_SPACE_GLOBAL;
      if (n == 1 && esz == 4)
        FOR_LANES (m, {
          uint32_t v = (uint32_t) V[0][l];
          memcpy ((void *) (uintptr_t) c->addrs[l], &v, 4);
        });
      else
        FOR_LANES (m, store_lane ((uint8_t *) (uintptr_t) c->addrs[l], V, l, n, esz););
    }
  else
    {
      FOR_LANES (m, {
        uint64_t addr = window_addr (space, (A ? A[l] : 0) + (uint64_t) off);
        uint8_t *p = xlate (c, w, l, space, addr, tot, &f, &tspace);
        if (G_UNLIKELY (p == NULL))
          {
            mem_fault (c, w, pc, &f, "store", tot);
            return STEP_FAULT;
          }
        store_lane (p, V, l, n, esz);
        c->addrs[l] = trace_addr (space, tspace, addr);
      });
      FLUSH_INVALID ("store", tot);
    }
  if (c->trace)
    trace_access (c, w, pc, m, m && traced_space (tspace) && traced_space (in->space), tspace);
  return STEP_NEXT;
}

/* cp.async: copied at once (the wait is then a no-op). */
COLD Step
exec_cp_async (Cta *c, Warp *w, const EInst *in, uint32_t pc, uint32_t m)
{
  const uint64_t *D = SRC (0), *S = VSRC (0);
  const uint64_t *Z = in->nsrc > 3 ? SRC (3) : NULL;
  uint32_t size = in->size;
  MemFault f = { 0 };
  int ts = 0;
  FOR_LANES (m, {
    uint64_t da = window_addr (WS_SPACE_SHARED, D[l] + (uint64_t) in->off);
    uint64_t sa = S[l] + (uint64_t) (int32_t) in->target;
    uint32_t n = Z ? MIN ((uint32_t) Z[l], size) : size;
    uint8_t *dp = xlate (c, w, l, WS_SPACE_SHARED, da, size, &f, &ts);
    const uint8_t *sp;
    if (dp == NULL)
      {
        mem_fault (c, w, pc, &f, "cp.async store", size);
        return STEP_FAULT;
      }
    sp = n ? xlate (c, w, l, WS_SPACE_GLOBAL, sa, size, &f, &ts) : NULL;
    if (n && sp == NULL)
      {
        mem_fault (c, w, pc, &f, "cp.async load", size);
        return STEP_FAULT;
      }
    memcpy (dp, sp, n);
    memset (dp + n, 0, size - n);
  });
  FLUSH_INVALID ("cp.async", size);
  return STEP_NEXT;
}

/* ---- atomics ---- */

WARM Step
exec_atom (Cta *c, Warp *w, const EInst *in, uint32_t pc, uint32_t m)
{
  const uint64_t *A = in->has_base ? SRC (0) : NULL;
  const uint64_t *B = SRC (1), *C = in->nsrc > 2 ? SRC (2) : B;
  uint64_t *D = DST (0);
  int space = in->space, tspace = space;
  gboolean is_red = in->op == WS_OP_RED;
  MemFault f = { 0 };
  FOR_LANES (m, {
    uint64_t addr = window_addr (space, (A ? A[l] : 0) + (uint64_t) in->off);
    uint8_t *p = xlate (c, w, l, space, addr, in->size, &f, &tspace);
    uint64_t old;
    if (G_UNLIKELY (p == NULL))
      {
        mem_fault (c, w, pc, &f, "atomic", in->size);
        return STEP_FAULT;
      }
    old = atomic_rmw (p, in, B[l], C[l]);
    if (!is_red)
      D[l] = in->size == 4 ? (uint64_t) (uint32_t) old : old;
    c->addrs[l] = tspace == WS_SPACE_SHARED && space == WS_SPACE_GENERIC ? addr - WS_EMU_SHARED_WIN : addr;
  });
  FLUSH_INVALID ("atomic", in->size);
  if (c->trace)
    trace_access (c, w, pc, m, m != 0, tspace);
  return STEP_NEXT;
}

/* ---- mbarrier ---- */

/* The object's 64 bits are ours (the PTX ISA keeps them opaque): bits 0-30
 * arrivals still pending in the current phase, 32-62 the count each phase
 * expects, 63 the phase's parity.  A state token is the parity at the
 * arrival (bit 63) and the arrivals then still pending.  The threads of a
 * block run on one worker, so the object needs no atomics.  An incomplete
 * wait pauses the warp (STEP_PAUSE) at the next instruction, which polls
 * again; @active and @winst as in run_warp. */
COLD Step
exec_mbarrier (Cta *c, Warp *w, const EInst *in, uint32_t pc, uint32_t m, uint32_t active, uint64_t winst)
{
  if (in->sub == WS_SUB_MBAR_PENDING_COUNT)
    {
      const uint64_t *S = SRC (0);
      uint64_t *D = DST (0);
      FOR_LANES (m, D[l] = S[l] & 0x7fffffffu;);
      return STEP_NEXT;
    }
  const uint64_t *A = in->has_base ? SRC (0) : NULL;
  const uint64_t *B = in->nsrc > 1 ? SRC (1) : NULL;
  int space = in->space, tspace = space;
  gboolean wait = in->sub == WS_SUB_MBAR_TEST_WAIT || in->sub == WS_SUB_MBAR_TRY_WAIT;
  uint32_t done = 0;
  MemFault f = { 0 };
  FOR_LANES (m, {
    uint64_t addr = window_addr (space, (A ? A[l] : 0) + (uint64_t) in->off);
    uint8_t *p = xlate (c, w, l, space, addr, 8, &f, &tspace);
    if (G_UNLIKELY (p == NULL))
      {
        mem_fault (c, w, pc, &f, "mbarrier", 8);
        return STEP_FAULT;
      }
    if (G_UNLIKELY (tspace != WS_SPACE_SHARED))
      {
        ws_emu_fault (c, w, pc, l, WS_CUDA_ERROR_ILLEGAL_ADDRESS,
                      "mbarrier object at 0x%" G_GINT64_MODIFIER "x is not in shared memory", addr);
        return STEP_FAULT;
      }
    uint64_t v;
    memcpy (&v, p, 8);
    uint64_t pending = v & 0x7fffffffu, expected = (v >> 32) & 0x7fffffffu, phase = v >> 63;
    switch (in->sub)
      {
      case WS_SUB_MBAR_INIT:
        {
          uint64_t n = B[l] & 0x7fffffffu;
          v = n | (n << 32);
        }
        break;
      case WS_SUB_MBAR_INVAL: v = 0; break;
      case WS_SUB_MBAR_ARRIVE:
      case WS_SUB_MBAR_ARRIVE_DROP:
        {
          uint64_t n = B != NULL ? B[l] & 0x7fffffffu : 1;
          uint64_t token_phase = phase;
          if (in->sub == WS_SUB_MBAR_ARRIVE_DROP && expected > 0)
            expected--;
          pending = n >= pending ? 0 : pending - n;
          if (in->ndst > 0)
            DST (0)[l] = (token_phase << 63) | pending;
          if (pending == 0)
            {
              phase ^= 1;
              pending = expected;
            }
          v = pending | (expected << 32) | (phase << 63);
        }
        break;
      default: /* test_wait / try_wait: has the token's phase completed? */
        {
          uint64_t want = in->target ? (B[l] & 1) : (B[l] >> 63);
          if (phase != want)
            done |= 1u << l;
        }
        break;
      }
    memcpy (p, &v, 8);
  });
  if (wait)
    {
      w->preds[in->d[0]] = (w->preds[in->d[0]] & ~m) | done;
      if (done != m)
        {
          /* Not complete: let the block's other warps run (they are the
           * ones to arrive); this warp polls again next.  After many polls,
           * lanes of this warp on the other path of a branch may be the
           * ones to arrive. */
          w->simt[w->sp - 1].pc = pc + 1;
          if (++w->mbar_polls >= 1024)
            {
              w->mbar_polls = 0;
              run_sibling_first (w);
            }
          if (!yield_ok (c, w, pc, active, winst))
            return STEP_FAULT;
          return STEP_PAUSE;
        }
    }
  return STEP_NEXT;
}

/* ---- textures, surfaces and wmma ---- */

/* Texture fetches and surface accesses, one lane at a time
 * (ws-emu-texture.c); the texture table does not change while a launch
 * runs. */
COLD Step
exec_tex_surf (Cta *c, Warp *w, const EInst *in, uint32_t pc, uint32_t m)
{
  Launch *L = c->L;
  const uint64_t *H = SRC (0);
  const uint64_t *C[4] = { VSRC (0), VSRC (1), VSRC (2), VSRC (3) };
  gboolean store = in->op == WS_OP_SUST;
  FOR_LANES (m, {
    uint64_t coords[4] = { C[0][l], C[1][l], C[2][l], C[3][l] };
    uint64_t val[4] = { 0, 0, 0, 0 };
    char *msg;
    if (in->h == H_TEX)
      msg = ws_emu_tex_fetch (L->emu, H[l], in->sub, coords, in->type2 == WS_T_S32, in->type, val);
    else
      {
        if (store)
          for (uint32_t j = 0; j < in->vec; j++)
            val[j] = (w->bases[in->d[j] >> WS_SRC_SHIFT] + (size_t) (in->d[j] & 0x0fffffffu) * WS_EMU_WARP)[l];
        msg = ws_emu_surf_access (L->emu, H[l], in->sub, coords, (int) in->target, in->size, in->vec, store, val);
      }
    if (G_UNLIKELY (msg != NULL))
      {
        ws_emu_fault (c, w, pc, l, WS_CUDA_ERROR_ILLEGAL_ADDRESS, "%s", msg);
        g_free (msg);
        return STEP_FAULT;
      }
    if (!store)
      {
        uint32_t nd = in->h == H_TEX ? 4 : in->vec;
        for (uint32_t j = 0; j < nd; j++)
          w->regs[(size_t) in->d[j] * WS_EMU_WARP + l] = val[j];
      }
  });
  return STEP_NEXT;
}

/* wmma.load / wmma.store: each lane moves the elements of its slots
 * (ws_emu_wmma_element) one by one through the same checks as ld/st.  The
 * trace gets one record with each lane's first element: with the layout's
 * own numbering a lane's slots are one run of consecutive elements in
 * memory (the static access size is the run's bytes). */
COLD Step
exec_wmma_access (Cta *c, Warp *w, const EInst *in, uint32_t pc, uint32_t m)
{
  gboolean store = in->h == H_WMMA_STORE;
  WsPtxWmmaMatrix mat = store ? WS_WMMA_D : WS_PTX_WMMA_MATRIX (in->wmma);
  WsPtxWmmaFragment f;
  ws_ptx_wmma_fragment (in->wmma, mat, &f);
  const uint64_t *A = in->has_base ? SRC (0) : NULL, *S = SRC (1);
  const uint32_t *rows = w->fn->frag_rows + in->target;
  int64_t off = in->off + (in->addr_frame ? (int64_t) w->local_base : 0);
  int space = in->space, tspace = space;
  gboolean col = WS_PTX_WMMA_COL_MAJOR (in->wmma, mat);
  gboolean col_order = col && (mat == WS_WMMA_A || mat == WS_WMMA_B);
  uint32_t esz = f.elem_bytes, bits = esz * 8, slots = (uint32_t) f.regs * f.per_reg;
  uint64_t emask = bits >= 64 ? ~UINT64_C (0) : (UINT64_C (1) << bits) - 1;
  const char *what = store ? "store" : "load";
  MemFault fault = { 0 };
  FOR_LANES (m, {
    uint64_t base = (A ? A[l] : 0) + (uint64_t) off, stride = (uint32_t) S[l];
    uint64_t packed[WS_PTX_MAX_VEC] = { 0 };
    if (store)
      for (uint32_t r = 0; r < f.regs; r++)
        packed[r] = (w->bases[rows[r] >> WS_SRC_SHIFT] + (size_t) (rows[r] & 0x0fffffffu) * WS_EMU_WARP)[l];
    for (uint32_t s = 0; s < slots; s++)
      {
        uint32_t row, cl;
        ws_emu_wmma_position (&f, col_order, ws_emu_wmma_element (&f, (uint32_t) l, s), &row, &cl);
        uint64_t index = col ? (uint64_t) cl * stride + row : (uint64_t) row * stride + cl;
        uint64_t addr = window_addr (space, base + index * esz);
        uint8_t *p = xlate (c, w, l, space, addr, esz, &fault, &tspace);
        if (G_UNLIKELY (p == NULL))
          {
            mem_fault (c, w, pc, &fault, what, esz);
            return STEP_FAULT;
          }
        if (s == 0)
          c->addrs[l] = trace_addr (space, tspace, addr);
        uint32_t r = s / f.per_reg, shift = (s % f.per_reg) * bits;
        if (store)
          store_val (p, esz, packed[r] >> shift);
        else
          packed[r] |= (load_val (p, esz, FALSE) & emask) << shift;
      }
    if (!store)
      for (uint32_t r = 0; r < f.regs; r++)
        w->regs[(size_t) rows[r] * WS_EMU_WARP + l] = f.elem == WS_WMMA_ELEM_S32
                                                        ? (uint64_t) (int64_t) (int32_t) packed[r]
                                                        : packed[r];
  });
  FLUSH_INVALID (what, esz);
  if (c->trace)
    trace_access (c, w, pc, m, m && traced_space (tspace), tspace);
  return STEP_NEXT;
}

/* ---- warp-level operations ---- */

WARM void
exec_shfl (Warp *w, const EInst *in, uint32_t m)
{
  const uint64_t *A = SRC (0), *B = SRC (1), *C = in->nsrc > 2 ? SRC (2) : NULL;
  uint64_t *D = DST (0);
  uint64_t tmp[WS_EMU_WARP];
  uint32_t pv = 0;
  FOR_LANES (m, {
    uint32_t bval = (uint32_t) B[l] & 0x1f;
    uint32_t cv = C ? (uint32_t) C[l] : (in->sub == WS_SUB_UP ? 0 : 0x1f);
    uint32_t seg = (cv >> 8) & 0x1f, minl = (uint32_t) l & seg, maxl = minl | ((cv & 0x1f) & ~seg);
    int j;
    gboolean ok;
    switch (in->sub)
      {
      case WS_SUB_UP:
        j = l - (int) bval;
        ok = j >= (int) maxl;
        break;
      case WS_SUB_DOWN:
        j = l + (int) bval;
        ok = j <= (int) maxl;
        break;
      case WS_SUB_BFLY:
        j = l ^ (int) bval;
        ok = j <= (int) maxl;
        break;
      default:
        j = (int) (minl | (bval & ~seg));
        ok = j <= (int) maxl;
        break;
      }
    if (!ok)
      j = l;
    tmp[l] = A[j];
    pv |= (uint32_t) ok << l;
  });
  FOR_LANES (m, D[l] = tmp[l];);
  w->preds[in->d[1]] = (w->preds[in->d[1]] & ~m) | pv;
}

/* vote / match / redux.  The .sync variants: each lane names its
 * participants (membermask, the last source); lanes with the same mask
 * form one group (e.g. the two 16-lane tiles of a cooperative-groups
 * tile). */
COLD void
exec_collective (Warp *w, const EInst *in, uint32_t m)
{
  const uint64_t *Mk = in->nsrc > 1 ? SRC (in->nsrc - 1) : NULL;
  uint32_t left = m;
  if (in->h == H_VOTE && in->nsrc < 2)
    Mk = NULL;
  while (left)
    {
      int l0 = __builtin_ctz (left);
      uint32_t grp = left, part;
      if (Mk)
        {
          uint64_t mv = Mk[l0];
          grp = 0;
          for (uint32_t mm = left; mm; mm &= mm - 1)
            if (Mk[__builtin_ctz (mm)] == mv)
              grp |= 1u << __builtin_ctz (mm);
          part = (uint32_t) mv & m;
        }
      else
        part = m;
      left &= ~grp;
      warp_collective (w, in, grp, part, in->h == H_VOTE ? NULL : SRC (0));
    }
}

HOT void
exec_activemask (Warp *w, const EInst *in, uint32_t m)
{
  uint64_t *D = DST (0);
  FOR_LANES (m, D[l] = m;);
}

/* @active: the entry's live lanes, guard or not (the membermask's
 * default). */
HOT void
exec_elect (Warp *w, const EInst *in, uint32_t m, uint32_t active)
{
  uint64_t *D = DST (0);
  uint32_t mask = in->nsrc > 0 ? (uint32_t) SRC (0)[__builtin_ctz (active | 1)] : WS_EMU_FULL;
  uint32_t part = m & mask;
  uint32_t leader = part ? (uint32_t) __builtin_ctz (part) : 0;
  FOR_LANES (m, D[l] = leader;);
  w->preds[in->d[1]] = (w->preds[in->d[1]] & ~m) | (part ? (1u << leader) : 0);
}

/* ---- control flow and the SIMT stack ---- */

/* A polling loop (a branch marked spin) that keeps spinning while lanes of
 * this warp wait at its reconvergence point: they may hold what it waits
 * for (a lock), so let them run ahead to the end of the enclosing region
 * first, as a Volta+ GPU would.  TRUE: the SIMT stack changed. */
COLD gboolean
spin_run_ahead (Warp *w, const EInst *in, uint32_t pc)
{
  Simt *top = &w->simt[w->sp - 1];
  uint32_t at = top->rpc, parked = 0, rpc = at;
  uint32_t base = w->nframes ? w->frames[w->nframes - 1].simt_base : 0;
  w->spin_count = 0;
  /* entries waiting at the loop's exit (the last one owns the region) */
  for (uint32_t e = w->sp - 1; e-- > base && w->simt[e].pc == at;)
    {
      parked |= w->simt[e].mask & ~top->mask & w->live;
      rpc = w->simt[e].rpc;
      if (rpc != at)
        break;
    }
  if (parked && rpc != at)
    {
      for (uint32_t e = w->sp - 1; e-- > base && w->simt[e].pc == at;)
        {
          w->simt[e].mask &= ~parked;
          if (w->simt[e].rpc != at)
            break;
        }
      top->pc = in->target;
      simt_push (w, at, rpc, parked);
      w->simt[w->sp - 1].run_ahead = 1;
      return TRUE;
    }
  top->pc = in->target;
  if (run_sibling_first (w))
    return TRUE;
  top->pc = pc;
  return FALSE;
}

/* bra: uniform branches move the top entry; a divergent one splits it in
 * two entries that rejoin at the branch's immediate post-dominator. */
HOT Step
exec_bra (Cta *c, Warp *w, const EInst *in, uint32_t pc, uint32_t m, uint32_t active, Simt *top)
{
  Launch *L = c->L;
  /* A block polling memory waits for another block, which in a
   * cooperative launch runs on a thread of its own and otherwise may
   * run on another worker (a lock holder): let it run, every
   * iteration in a cooperative launch, every 64th otherwise (a lane
   * of the same warp may hold the lock: the rule in spin_run_ahead). */
  if (G_UNLIKELY (in->spin && L->threaded) && (L->cooperative || (++w->spin_polls & 63) == 0))
    g_thread_yield ();
  if (m == active)
    {
      if (G_UNLIKELY (in->spin) && ++w->spin_count >= 1024 && w->sp >= 2 && spin_run_ahead (w, in, pc))
        return STEP_JUMP;
      top->pc = in->target;
      return STEP_JUMP;
    }
  if (in->spin)
    w->spin_count = 0;
  if (m == 0)
    return STEP_NEXT;
  uint32_t r = in->ipdom, nt = active & ~m;
  if (top->rpc == r)
    {
      /* Same reconvergence point as the enclosing entry: reuse it for the
       * fall-through side so loops with divergent breaks do not grow the
       * stack. */
      top->pc = pc + 1;
      top->mask = nt;
    }
  else
    {
      top->pc = r;
      simt_push (w, pc + 1, r, nt);
    }
  simt_push (w, in->target, r, m);
  return STEP_JUMP;
}

/* brx.idx: one entry per distinct target. */
COLD Step
exec_brx (Cta *c, Warp *w, const EInst *in, uint32_t pc, uint32_t m, uint32_t active, Simt *top)
{
  if (m == 0)
    return STEP_NEXT;
  const WsPtxFunction *pf = w->fn->ptx;
  const uint32_t *table = pf->branch_tables[in->target];
  uint32_t ntab = pf->n_branch_targets[in->target];
  const uint64_t *A = SRC (0);
  uint32_t left = m, r = in->ipdom, first = 1;
  gboolean uniform = TRUE;
  uint32_t t0 = 0;
  FOR_LANES (m, {
    uint32_t t = (uint32_t) A[l];
    if (t >= ntab)
      {
        ws_emu_fault (c, w, pc, l, WS_CUDA_ERROR_INVALID_PC, "brx.idx index %u is outside its table of %u targets", t,
                      ntab);
        return STEP_FAULT;
      }
    if (first)
      {
        t0 = table[t];
        first = 0;
      }
    else if (table[t] != t0)
      uniform = FALSE;
  });
  if (uniform && m == active)
    {
      top->pc = t0;
      return STEP_JUMP;
    }
  /* Multi-way divergence: one entry per distinct target. */
  if (m != active)
    {
      top->pc = r;
      simt_push (w, pc + 1, r, active & ~m);
    }
  else
    top->pc = r;
  while (left)
    {
      int l0 = __builtin_ctz (left);
      uint32_t tgt = table[(uint32_t) A[l0]], grp = 0;
      for (uint32_t mm = left; mm; mm &= mm - 1)
        {
          int k = __builtin_ctz (mm);
          if (table[(uint32_t) A[k]] == tgt)
            grp |= 1u << k;
        }
      left &= ~grp;
      simt_push (w, tgt, r, grp);
    }
  return STEP_JUMP;
}

HOT void
exec_exit (Warp *w, uint32_t m)
{
  w->exited |= m;
  w->live &= ~m;
}

HOT void
exec_ret (Warp *w, uint32_t m)
{
  if (w->nframes == 1)
    w->exited |= m;
  else
    w->frames[w->nframes - 1].returned |= m;
  w->live &= ~m;
}

/* call: a frame for the callee with its arguments copied in, and a SIMT
 * entry that ends at its exit (return_from_call); built-in functions
 * (printf, malloc...) run at once.  Lanes calling different functions
 * through a pointer make one entry per target, which comes back here. */
COLD Step
exec_call (Cta *c, Warp *w, const EInst *in, uint32_t pc, uint32_t m, Simt *top)
{
  Launch *L = c->L;
  if (m == 0)
    return STEP_NEXT;
  const WsPtxCall *call = &w->fn->ptx->calls[in->target];
  const WsPtxModule *p = L->k->module->ptx;
  uint32_t callee = call->callee;
  const EFunc *cf;
  uint32_t new_base;
  if (callee == G_MAXUINT32)
    {
      const uint64_t *F = w->regs + (size_t) call->callee_reg * WS_EMU_WARP;
      uint64_t fa = F[__builtin_ctz (m)];
      uint32_t same = 0;
      FOR_LANES (m, same |= (uint32_t) (F[l] == fa) << l;);
      if (same != m)
        {
          /* Lanes calling different functions: run the call once per
           * target, one group after the other. */
          uint32_t left = m;
          top->pc = pc + 1;
          while (left)
            {
              uint64_t ga = F[__builtin_ctz (left)];
              uint32_t grp = 0;
              for (uint32_t mm = left; mm; mm &= mm - 1)
                if (F[__builtin_ctz (mm)] == ga)
                  grp |= 1u << __builtin_ctz (mm);
              left &= ~grp;
              simt_push (w, pc, pc + 1, grp);
            }
          return STEP_JUMP;
        }
      callee = (uint32_t) ((fa - WS_EMU_FUNC_WIN) / 16);
      if (fa < WS_EMU_FUNC_WIN || callee >= p->n_functions)
        {
          ws_emu_fault (c, w, pc, __builtin_ctz (m), WS_CUDA_ERROR_INVALID_PC,
                        "indirect call through 0x%" G_GINT64_MODIFIER "x, which is not a function", fa);
          return STEP_FAULT;
        }
    }
  if (callee >= p->n_functions || p->functions[callee].is_extern)
    {
      const char *name = callee < p->n_functions ? p->functions[callee].name : "?";
      top->pc = pc + 1;
      if (!call_builtin (c, w, pc, call, name, m))
        return STEP_FAULT;
      return STEP_JUMP;
    }
  cf = L->k->funcs[callee];
  if (cf == NULL)
    {
      ws_emu_fault (c, w, pc, __builtin_ctz (m), WS_CUDA_ERROR_INVALID_PC, "call to function %s, which was not decoded",
                    p->functions[callee].name);
      return STEP_FAULT;
    }
  new_base = w->local_base + w->fn->frame_bytes;
  if ((uint64_t) new_base + cf->frame_bytes > c->stack)
    {
      ws_emu_fault (c, w, pc, __builtin_ctz (m), WS_CUDA_ERROR_HARDWARE_STACK_ERROR,
                    "stack overflow calling %s: the per-thread stack of %u bytes is exhausted (deep recursion?)",
                    cf->ptx->name, c->stack);
      return STEP_FAULT;
    }
  /* Arguments: caller's call-site .param -> callee's formal .param. */
  for (guint i = 0; i < call->n_args && i < cf->ptx->n_params; i++)
    {
      uint32_t src = L->k->sym_off[call->args[i]] + w->local_base;
      uint32_t dst = cf->param_frame_off[i] + new_base;
      gsize n = MIN (p->symbols[call->args[i]].size, p->symbols[cf->ptx->params[i]].size);
      FOR_LANES (m, memcpy (frame_ptr (c, w, l, dst), frame_ptr (c, w, l, src), n););
    }
  top->pc = pc + 1;
  push_frame (w, cf, in->target, m, new_base);
  simt_push (w, 0, cf->n_insts, m);
  return STEP_JUMP;
}

/* ---- barriers ---- */

/* bar.sync / bar.red / bar.arrive: the warp waits (WARP_BAR, STEP_PAUSE)
 * until ws_emu_run_cta opens the barrier; arrive goes on at once. */
COLD Step
exec_bar (Cta *c, Warp *w, const EInst *in, uint32_t pc, uint32_t m, uint32_t active, Simt *top)
{
  Launch *L = c->L;
  WsTraceCta *trace = c->trace;
  if (m == 0)
    {
      if (trace)
        ws_trace_cta_inst (trace, w->index, w->fn->static_base + pc, 0);
      return STEP_NEXT;
    }
  const uint64_t *A = SRC (0);
  uint32_t id = (uint32_t) A[__builtin_ctz (active)] & 15;
  uint32_t cnt = 0;
  gboolean red = in->sub == WS_SUB_RED_POPC || in->sub == WS_SUB_RED_AND || in->sub == WS_SUB_RED_OR;
  if (in->nsrc > 1 && !red)
    cnt = (uint32_t) SRC (1)[__builtin_ctz (active)];
  else if (in->nsrc > 2 && red)
    cnt = (uint32_t) SRC (1)[__builtin_ctz (active)];
  if (trace)
    ws_trace_cta_barrier_mask (trace, w->index, w->fn->static_base + pc, m);
  if (cnt)
    c->bar_count[id] = cnt;
  top->pc = pc + 1;
  if (in->sub == WS_SUB_ARRIVE)
    {
      c->bar_arrived[id] += (uint32_t) __builtin_popcount (w->valid & ~w->exited);
      return STEP_JUMP;
    }
  /* Volta+ barriers count threads.  Lanes let run ahead of a polling loop
   * (a lane waiting for the other blocks of a grid barrier while its
   * neighbours go on to the block's barrier) must not open the barrier for
   * the polling lanes: they are set aside, the warp runs the polling
   * lanes, and the barrier opens once those have arrived too.  Elsewhere
   * lanes not at the barrier are on their way out of the kernel and count
   * as arrived, as before. */
  uint32_t live = w->valid & ~w->exited;
  if (top->run_ahead && w->bar_held_mask == 0 && (live & ~m) != 0 && (in->sub == WS_SUB_NONE || in->sub == WS_SUB_SYNC)
      && cnt == 0)
    {
      c->bar_arrived[id] += (uint32_t) __builtin_popcount (m);
      w->bar_id = id;
      w->bar_held_pc = pc + 1;
      w->bar_held_rpc = top->rpc;
      w->bar_held_mask = m;
      /* the lanes of the entry that did not arrive (a false guard) stay
       * with it; the arrived ones leave it */
      top->mask &= ~m;
      if ((top->mask & w->live) == 0)
        w->sp--;
      return STEP_JUMP;
    }
  if (G_UNLIKELY (L->emu->opt.memcheck))
    {
      uint32_t late = m & w->bar_divergent_mask & ~w->bar_held_mask;
      if (late != 0)
        {
          /* compute-sanitizer's synccheck reports the same */
          ws_emu_fault (c, w, pc, __builtin_ctz (late), WS_CUDA_ERROR_LAUNCH_FAILURE,
                        "divergent __syncthreads(): %u threads of warp %u reach this barrier after "
                        "the other threads of their warp waited without them at the barrier of PTX "
                        "line %u (every thread of a block must reach the same barrier, or exit)",
                        (unsigned) __builtin_popcount (late), w->index, w->bar_divergent_line);
          return STEP_FAULT;
        }
      if (w->bar_held_mask == 0)
        {
          w->bar_divergent_mask = live & ~m;
          w->bar_divergent_line = w->fn->ptx->insts[pc].line;
        }
    }
  c->bar_arrived[id] += w->bar_held_mask ? (uint32_t) __builtin_popcount (m) : (uint32_t) __builtin_popcount (live);
  w->bar_id = id;
  w->bar_red = 0;
  if (red)
    {
      uint32_t pr = (in->pneg >> (in->nsrc - 1) & 1) ? ~w->preds[in->s[in->nsrc - 1]] : w->preds[in->s[in->nsrc - 1]];
      pr &= active;
      w->bar_red = in->sub;
      w->bar_dst = in->d[0];
      w->bar_mask = active;
      if (in->sub == WS_SUB_RED_POPC)
        c->bar_red_acc[id] += (uint32_t) __builtin_popcount (pr);
      else if (in->sub == WS_SUB_RED_AND)
        c->bar_red_acc[id] |= (pr != active) ? 1u : 0u; /* "someone was false" */
      else
        c->bar_red_acc[id] |= pr ? 1u : 0u;
    }
  w->state = WARP_BAR;
  return STEP_PAUSE;
}

/* ---- the interpreter loop ---- */

/* The watchdog and the instruction budget, every 4096th warp instruction.
 * FALSE: the launch is over (aborted, or this warp faulted). */
COLD gboolean
run_checks (Cta *c, Warp *w, uint32_t pc, uint32_t active)
{
  Launch *L = c->L;
  if (g_atomic_int_get (&L->abort))
    return FALSE;
  if (L->deadline && g_get_monotonic_time () > L->deadline)
    {
      ws_emu_fault (c, w, pc, __builtin_ctz (active), WS_CUDA_ERROR_LAUNCH_TIMEOUT,
                    "the launch timed out: the kernel ran for more than %g s (the watchdog's launch timeout; "
                    "it probably hangs: an endless loop or a wait for something that never happens; "
                    "raise the limit with --launch-timeout or WS_LAUNCH_TIMEOUT)",
                    L->emu->opt.launch_timeout);
      return FALSE;
    }
  if (L->budget)
    {
      guint64 used = __atomic_add_fetch (&L->budget_used, 0x1000, __ATOMIC_RELAXED);
      if (used > L->budget)
        {
          ws_emu_fault (
            c, w, pc, __builtin_ctz (active), WS_CUDA_ERROR_LAUNCH_TIMEOUT,
            "the launch timed out: the kernel did not finish within the instruction budget of %" G_GUINT64_FORMAT
            " warp instructions (it probably hangs: an endless loop or a barrier that some threads never reach; "
            "raise the limit with --instruction-budget or WS_INSTRUCTION_BUDGET)",
            L->budget);
          return FALSE;
        }
    }
  return TRUE;
}

/* Runs a warp until it finishes, blocks on a barrier or faults: fetch the
 * top SIMT entry's instruction, apply the guard, count and trace it, and
 * dispatch to its handler. */
static void
run_warp (Cta *c, Warp *w)
{
  WsTraceCta *trace = c->trace;
  /* instrumentation (core/instrument): one register test per instruction */
  struct _WsEmuInstrCta *const instr = c->instr;
  uint64_t winst = 0, tinst = 0;
  Step step;

  for (;;)
    {
      Simt *top;
      uint32_t pc, active, m;
      const EInst *in;

      if (G_UNLIKELY (w->sp == 0))
        {
          if (w->bar_held_mask)
            {
              /* the others exited: the set-aside lanes wait for the barrier */
              w->state = WARP_BAR;
              step = STEP_PAUSE;
              break;
            }
          warp_done (w);
          step = STEP_PAUSE;
          break;
        }
      top = &w->simt[w->sp - 1];
      if (G_UNLIKELY (top->mask & w->bar_held_mask))
        {
          /* the lanes set aside at a barrier must pass it before this entry,
           * which holds them too, goes on */
          w->state = WARP_BAR;
          step = STEP_PAUSE;
          break;
        }
      pc = top->pc;
      active = top->mask & w->live;
      if (G_UNLIKELY (pc == top->rpc || active == 0))
        {
          w->sp--;
          if (w->nframes > 1 && w->sp == w->frames[w->nframes - 1].simt_base)
            return_from_call (c, w);
          continue;
        }
      in = &w->code[pc];
      m = active;
      if (in->guard != WS_REG_SINK)
        m &= in->guard_neg ? ~w->preds[in->guard] : w->preds[in->guard];
      if (G_UNLIKELY (instr != NULL))
        m = ws_emu_instr_before (c, w, in, pc, active, m);

      winst++;
      tinst += popc32 (m); /* lanes that execute it: the trace counts the same */
      if (G_UNLIKELY ((winst & 0xfff) == 0) && !run_checks (c, w, pc, active))
        {
          /* aborted or timed out: ws_emu_fault has ended the launch */
          step = STEP_PAUSE;
          break;
        }
      if (trace && !in->trace_self)
        ws_trace_cta_inst (trace, w->index, w->fn->static_base + pc, m);

      step = STEP_NEXT;
      switch ((EmuHandler) in->h)
        {
#define CASE_LANES(h, name, expr) \
  case h: exec_##name (w, in, m); break;
          BINARY_OPS (CASE_LANES)
          TERNARY_OPS (CASE_LANES)
#undef CASE_LANES
        case H_NOP: break;
        case H_FENCE: __atomic_thread_fence (__ATOMIC_SEQ_CST); break;
        case H_MOV: exec_mov (w, in, m); break;
        case H_MOV_FRAME: exec_mov_frame (w, in, m); break;
        case H_MOV_CLOCK: exec_mov_clock (w, in, m, winst); break;
        case H_MOV_PRED: exec_mov_pred (w, in, m); break;
        case H_PACK: exec_pack (w, in, m); break;
        case H_UNPACK: exec_unpack (w, in, m); break;
        case H_NOT: exec_not (w, in, m); break;
        case H_FFMA32: fma32_lanes (DST (0), SRC (0), SRC (1), SRC (2), m); break;
        case H_FFMA64: fma64_lanes (DST (0), SRC (0), SRC (1), SRC (2), m); break;
        case H_IALU: exec_ialu (w, in, m); break;
        case H_CARRY: exec_carry (w, in, m); break;
        case H_FLOAT: exec_float (w, in, m); break;
        case H_FUNARY: exec_funary (w, in, m); break;
        case H_CVT_INT: exec_cvt_int (w, in, m); break;
        case H_CVT: exec_cvt (w, in, m); break;
        case H_CVTA: exec_cvta (w, in, m); break;
        case H_SETP_S32: exec_setp_s32 (w, in, m); break;
        case H_SETP_U32: exec_setp_u32 (w, in, m); break;
        case H_SETP_S64: exec_setp_s64 (w, in, m); break;
        case H_SETP_U64: exec_setp_u64 (w, in, m); break;
        case H_SETP_F32: exec_setp_f32 (w, in, m); break;
        case H_SETP_F64: exec_setp_f64 (w, in, m); break;
        case H_SETP: exec_setp (w, in, m); break;
        case H_SET: exec_set (w, in, m); break;
        case H_SELP: exec_selp (w, in, m); break;
        case H_SLCT: exec_slct (w, in, m); break;
        case H_PREDLOGIC: exec_predlogic (w, in, m); break;
        case H_TESTP: exec_testp (w, in, m); break;
        case H_ISSPACEP: exec_isspacep (c, w, in, m); break;
        case H_LD: step = exec_ld (c, w, in, pc, m); break;
        case H_ST: step = exec_st (c, w, in, pc, m); break;
        case H_CP_ASYNC: step = exec_cp_async (c, w, in, pc, m); break;
        case H_ATOM: step = exec_atom (c, w, in, pc, m); break;
        case H_MBARRIER: step = exec_mbarrier (c, w, in, pc, m, active, winst); break;
        case H_TEX:
        case H_SURF: step = exec_tex_surf (c, w, in, pc, m); break;
        case H_WMMA_LOAD:
        case H_WMMA_STORE: step = exec_wmma_access (c, w, in, pc, m); break;
        case H_WMMA_MMA:
          ws_emu_wmma_mma (in->wmma, in->mods, w->bases, w->fn->frag_rows + in->target, w->regs, m);
          break;
        case H_SHFL: exec_shfl (w, in, m); break;
        case H_VOTE:
        case H_MATCH:
        case H_REDUX: exec_collective (w, in, m); break;
        case H_ACTIVEMASK: exec_activemask (w, in, m); break;
        case H_ELECT: exec_elect (w, in, m, active); break;
        case H_BRA: step = exec_bra (c, w, in, pc, m, active, top); break;
        case H_BRX: step = exec_brx (c, w, in, pc, m, active, top); break;
        case H_EXIT: exec_exit (w, m); break;
        case H_RET: exec_ret (w, m); break;
        case H_TRAP:
          if (m)
            {
              ws_emu_fault (c, w, pc, __builtin_ctz (m), WS_CUDA_ERROR_LAUNCH_FAILURE, "the kernel executed trap");
              step = STEP_FAULT;
            }
          break;
        case H_CALL: step = exec_call (c, w, in, pc, m, top); break;
        case H_BAR: step = exec_bar (c, w, in, pc, m, active, top); break;
        default: break;
        }
      if (G_LIKELY (step == STEP_NEXT))
        top->pc = pc + 1;
      else if (step != STEP_JUMP)
        break;
    }
  w->icount += winst;
  c->winst += winst;
  c->tinst += tinst;
  if (step == STEP_FAULT)
    {
      w->state = WARP_DONE;
      c->faulted = TRUE;
    }
}

static void
init_warp (Cta *c, Warp *w, uint32_t index)
{
  Launch *L = c->L;
  uint32_t bx = L->block[0], by = L->block[1];
  uint32_t first = index * WS_EMU_WARP;
  uint32_t n = MIN (WS_EMU_WARP, L->nthreads - first);
  uint64_t *s = w->sregs;

  w->index = index;
  w->mbar_polls = 0;
  w->bar_held_mask = 0;
  w->bar_divergent_mask = 0;
  w->spin_polls = 0;
  w->valid = n == 32 ? WS_EMU_FULL : (1u << n) - 1;
  w->exited = 0;
  w->carry = 0;
  w->state = WARP_RUN;
  w->sp = 0;
  w->nframes = 0;
  w->icount = 0;
  w->spin_count = 0;
  w->cache_lo = w->cache_hi = 0;
  {
    /* Only the rows the kernel reads (warp set-up is per CTA, so it shows in
     * short kernels); the thread index advances without divisions. */
    uint64_t used = L->k->sreg_used;
    uint32_t tx = first % bx, ty = (first / bx) % by, tz = first / (bx * by);
    uint32_t nsm = L->emu->opt.gpu && L->emu->opt.gpu->sms > 0 ? (uint32_t) L->emu->opt.gpu->sms : 1;
#define USED(row) (used >> (row) &1)
#define ROW(row) (s + (size_t) (row) *WS_EMU_WARP)
#define FILL(row, v) \
  do \
    { \
      if (USED (row)) \
        { \
          uint64_t _v = (uint64_t) (v); \
          for (int l = 0; l < WS_EMU_WARP; l++) \
            ROW (row)[l] = _v; \
        } \
    } \
  while (0)
    if (used & 7)
      for (int l = 0; l < WS_EMU_WARP; l++)
        {
          ROW (SR_TID)[l] = tx;
          ROW (SR_TID + 1)[l] = ty;
          ROW (SR_TID + 2)[l] = tz;
          if (++tx == bx)
            {
              tx = 0;
              if (++ty == by)
                {
                  ty = 0;
                  tz++;
                }
            }
        }
    for (int k = 0; k < 3; k++)
      {
        FILL (SR_NTID + k, L->block[k]);
        FILL (SR_CTAID + k, c->ctaid[k]);
        FILL (SR_NCTAID + k, L->grid[k]);
        FILL (SR_CLUSTERID + k, c->ctaid[k]);
        FILL (SR_NCLUSTERID + k, L->grid[k]);
        FILL (SR_CLUSTER_CTAID + k, 0);
        FILL (SR_CLUSTER_NCTAID + k, 1);
      }
    FILL (SR_WARPID, index);
    FILL (SR_NWARPID, L->nwarps);
    FILL (SR_SMID, c->linear % nsm);
    FILL (SR_NSMID, nsm);
    FILL (SR_GRIDID, L->gridid);
    FILL (SR_DYN_SMEM, L->dyn);
    FILL (SR_TOTAL_SMEM, c->shared_user);
    FILL (SR_ZERO, 0);
    FILL (SR_ENVREG1, (uint32_t) (L->grid_workspace >> 32));
    FILL (SR_ENVREG2, (uint32_t) L->grid_workspace);
    FILL (SR_RSMEM_BEGIN, c->shared_size - WS_EMU_RESERVED_SMEM);
    FILL (SR_RSMEM_END, c->shared_size);
    FILL (SR_RSMEM_CAP, WS_EMU_RESERVED_SMEM);
    FILL (SR_RSMEM_0, c->shared_size - WS_EMU_RESERVED_SMEM);
    FILL (SR_RSMEM_1, c->shared_size - WS_EMU_RESERVED_SMEM / 2);
    if (used & ((1ull << SR_LANEID) | (0x1full << SR_LANEMASK_EQ)))
      for (int l = 0; l < WS_EMU_WARP; l++)
        {
          ROW (SR_LANEID)[l] = (uint64_t) l;
          ROW (SR_LANEMASK_EQ)[l] = 1u << l;
          ROW (SR_LANEMASK_LE)[l] = l == 31 ? WS_EMU_FULL : (2u << l) - 1;
          ROW (SR_LANEMASK_LT)[l] = (1u << l) - 1;
          ROW (SR_LANEMASK_GE)[l] = ~((1u << l) - 1);
          ROW (SR_LANEMASK_GT)[l] = l == 31 ? 0 : ~((2u << l) - 1);
        }
#undef FILL
#undef ROW
#undef USED
  }
  push_frame (w, L->k->funcs[L->k->index], 0, w->valid, 0);
  simt_push (w, 0, w->fn->n_insts, w->valid);
}

/* Runs one CTA: warps in order, each until it blocks on a barrier or ends;
 * a barrier opens when every warp still running has arrived. */
void
ws_emu_run_cta (Cta *c)
{
  Launch *L = c->L;
  uint32_t live_warps;

  memset (c->bar_arrived, 0, sizeof c->bar_arrived);
  memset (c->bar_count, 0, sizeof c->bar_count);
  memset (c->bar_red_acc, 0, sizeof c->bar_red_acc);
  c->faulted = FALSE;
  for (uint32_t i = 0; i < c->nwarps; i++)
    init_warp (c, &c->warps[i], i);

  for (;;)
    {
      gboolean released = FALSE;
      uint32_t live_threads = 0;
      for (uint32_t i = 0; i < c->nwarps; i++)
        {
          Warp *w = &c->warps[i];
          if (w->state == WARP_RUN)
            run_warp (c, w);
          if (c->faulted || g_atomic_int_get (&L->abort))
            return;
        }
      live_warps = 0;
      for (uint32_t i = 0; i < c->nwarps; i++)
        if (c->warps[i].state != WARP_DONE)
          {
            live_warps++;
            live_threads += (uint32_t) __builtin_popcount (c->warps[i].valid & ~c->warps[i].exited);
          }
      if (live_warps == 0)
        break;
      for (uint32_t id = 0; id < 16; id++)
        {
          uint32_t need = c->bar_count[id] ? c->bar_count[id] : live_threads;
          gboolean any = FALSE;
          for (uint32_t i = 0; i < c->nwarps; i++)
            if (c->warps[i].state == WARP_BAR && c->warps[i].bar_id == id)
              any = TRUE;
          if (!any || c->bar_arrived[id] < need)
            continue;
          for (uint32_t i = 0; i < c->nwarps; i++)
            {
              Warp *w = &c->warps[i];
              if (w->state != WARP_BAR || w->bar_id != id)
                continue;
              w->state = WARP_RUN;
              if (w->bar_held_mask)
                {
                  /* the lanes set aside rejoin the others past the barrier */
                  Simt *top = w->sp > 0 ? &w->simt[w->sp - 1] : NULL;
                  if (top != NULL && top->pc == w->bar_held_pc && top->rpc == w->bar_held_rpc)
                    top->mask |= w->bar_held_mask;
                  else
                    simt_push (w, w->bar_held_pc, w->bar_held_rpc, w->bar_held_mask);
                  w->bar_held_mask = 0;
                }
              if (w->bar_red == WS_SUB_RED_POPC)
                {
                  uint64_t *D = w->regs + (size_t) w->bar_dst * WS_EMU_WARP;
                  uint32_t v = c->bar_red_acc[id];
                  FOR_LANES (w->bar_mask, D[l] = v;);
                }
              else if (w->bar_red)
                {
                  /* bar.red.and/or.pred: the result is a predicate */
                  gboolean v = c->bar_red_acc[id] != 0;
                  if (w->bar_red == WS_SUB_RED_AND)
                    v = !v;
                  w->preds[w->bar_dst] = (w->preds[w->bar_dst] & ~w->bar_mask) | (v ? w->bar_mask : 0);
                }
            }
          c->bar_arrived[id] = 0;
          c->bar_count[id] = 0;
          c->bar_red_acc[id] = 0;
          released = TRUE;
        }
      if (!released)
        {
          /* warps that gave way at an mbarrier run again */
          gboolean yielded = FALSE;
          for (uint32_t i = 0; i < c->nwarps; i++)
            if (c->warps[i].state == WARP_RUN)
              yielded = TRUE;
          if (yielded)
            continue;
          for (uint32_t i = 0; i < c->nwarps; i++)
            if (c->warps[i].state == WARP_BAR)
              {
                Warp *w = &c->warps[i];
                ws_emu_fault (c, w, w->simt[w->sp - 1].pc - 1, __builtin_ctz (w->valid & ~w->exited),
                              WS_CUDA_ERROR_LAUNCH_TIMEOUT,
                              "barrier %u can never complete: %u threads arrived, %u expected (threads that exited or "
                              "took another path never reach it)",
                              w->bar_id, c->bar_arrived[w->bar_id],
                              c->bar_count[w->bar_id] ? c->bar_count[w->bar_id] : live_threads);
                c->faulted = TRUE;
                return;
              }
          break;
        }
    }
}
