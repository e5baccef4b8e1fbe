/* ws-emu-private.h: the emulator's decoded form and execution state.
 *
 * A module is decoded once per kernel (EKernel): every function reachable
 * from the kernel gets an array of EInst with operands resolved to row
 * indices, immediates turned into broadcast rows, symbol addresses folded
 * into offsets and the reconvergence point of each branch precomputed.  The
 * layout of shared memory and of each function's local frame is per kernel,
 * so a kernel reports only the shared memory it uses. */
#pragma once

#include "emu/ws-emu.h"
#include "trace/ws-trace-writer.h"

#define WS_EMU_WARP 32
#define WS_EMU_FULL 0xffffffffu
/* What an access outside the block's shared memory or the thread's local
 * frame may touch before the hardware notices (memcheck off): shared memory
 * is allocated in units of WS_EMU_SMEM_UNIT bytes, and each thread's local
 * memory is at least the default stack (cudaLimitStackSize, 1 KiB). */
#define WS_EMU_SMEM_UNIT 128u
#define WS_EMU_LOCAL_WINDOW 1024u
/* Reserved shared memory per CTA; offsets _0 and _1 split it in halves. */
#define WS_EMU_RESERVED_SMEM 1024u

/* Generic-address windows.  They lie far below the device-memory region
 * (0x7e0000000000) and below where Linux places host mappings, so a generic
 * pointer is classified by its window alone. */
#define WS_EMU_SHARED_WIN 0x0000100000000000ull
#define WS_EMU_LOCAL_WIN 0x0000200000000000ull
#define WS_EMU_PARAM_WIN 0x0000300000000000ull
#define WS_EMU_FUNC_WIN 0x0000400000000000ull /* function "addresses" for indirect calls */
#define WS_EMU_WIN_SIZE 0x0000010000000000ull

/* Source operand encoding: row kind in the top bits, row index below. */
#define WS_SRC_REG 0u
#define WS_SRC_IMM 1u
#define WS_SRC_SREG 2u
#define WS_SRC_SHIFT 28
#define WS_SRC_MAKE(kind, idx) (((uint32_t) (kind) << WS_SRC_SHIFT) | (uint32_t) (idx))

/* Special-register rows, constant per warp. */
/* clang-format off */
enum {
  SR_TID = 0, SR_NTID = 3, SR_CTAID = 6, SR_NCTAID = 9, SR_LANEID = 12, SR_WARPID = 13,
  SR_NWARPID = 14, SR_SMID = 15, SR_NSMID = 16, SR_GRIDID = 17, SR_LANEMASK_EQ = 18,
  SR_LANEMASK_LE = 19, SR_LANEMASK_LT = 20, SR_LANEMASK_GE = 21, SR_LANEMASK_GT = 22,
  SR_DYN_SMEM = 23, SR_TOTAL_SMEM = 24, SR_CLUSTERID = 25, SR_NCLUSTERID = 28,
  SR_CLUSTER_CTAID = 31, SR_CLUSTER_NCTAID = 34, SR_ZERO = 37,
  SR_RSMEM_BEGIN = 38, SR_RSMEM_END = 39, SR_RSMEM_CAP = 40, SR_RSMEM_0 = 41, SR_RSMEM_1 = 42,
  SR_ENVREG1 = 43, SR_ENVREG2 = 44,   /* high and low half of a cooperative launch's grid workspace */
  SR_COUNT = 45
};
/* clang-format on */

/* Handlers (the interpreter's switch). */
/* clang-format off */
typedef enum {
  H_NOP = 0,
  H_BRA, H_EXIT, H_RET, H_CALL, H_BAR, H_TRAP,
  H_MOV, H_MOV_PRED, H_MOV_FRAME, H_MOV_CLOCK, H_PACK, H_UNPACK,
  H_ADD32, H_ADD64, H_SUB32, H_SUB64, H_MULLO32, H_MULLO64, H_MULWIDE_S32, H_MULWIDE_U32,
  H_MADLO32, H_MADLO64, H_MADWIDE_S32, H_MADWIDE_U32,
  H_SHL32, H_SHL64, H_SHR_U32, H_SHR_S32, H_SHR_U64, H_SHR_S64,
  H_AND, H_OR, H_XOR, H_NOT,
  H_FADD32, H_FSUB32, H_FMUL32, H_FFMA32, H_FADD64, H_FSUB64, H_FMUL64, H_FFMA64,
  H_SELP, H_SETP, H_SET, H_PREDLOGIC,
  H_SETP_S32, H_SETP_U32, H_SETP_S64, H_SETP_U64, H_SETP_F32, H_SETP_F64,
  H_IALU,          /* generic integer op, one lane at a time */
  H_CARRY,         /* add.cc/addc/sub.cc/subc/mad.cc/madc */
  H_FLOAT,         /* generic float binary/ternary (ptxmath) */
  H_FUNARY,        /* float unary (ptxmath or inline) */
  H_CVT, H_CVTA, H_ISSPACEP, H_TESTP, H_SLCT,
  H_LD, H_ST, H_ATOM,
  H_SHFL, H_VOTE, H_MATCH, H_REDUX, H_ACTIVEMASK, H_FENCE,
  H_BRX, H_CP_ASYNC, H_ELECT, H_CVT_INT,
  H_TEX, H_SURF,   /* tex; suld/sust (ws-emu-texture.c) */
  H_WMMA_LOAD, H_WMMA_STORE, H_WMMA_MMA,   /* warp-level matrix instructions (ws-emu-wmma.c) */
  H_MBARRIER,   /* arrive/wait barrier objects in shared memory (sub: WS_SUB_MBAR_*) */
  H_COUNT
} EmuHandler;
/* clang-format on */

typedef struct {
  uint16_t h; /* EmuHandler */
  uint8_t op; /* WsPtxOp */
  uint8_t type, type2, space, vec, cmp, boolop, rnd, sub;
  uint8_t nsrc, ndst;
  uint8_t pneg; /* bit i: predicate source i is negated */
  uint8_t guard_neg;
  uint8_t addr_frame; /* memory operand's symbol lives in the local frame */
  uint8_t addr_param; /* memory operand is the kernel parameter block */
  uint8_t has_base;   /* memory operand has a base register */
  uint8_t size;       /* bytes per element of a memory access */
  uint8_t trace_self; /* the handler records the trace itself (ld/st/atom/bar) */
  uint8_t spin;       /* backward branch of a loop that polls memory (atomics, volatile loads) */
  uint32_t guard;     /* predicate slot, or WS_REG_SINK */
  uint32_t mods;
  uint32_t d[4];   /* destination rows (value or predicate slots) */
  uint32_t s[4];   /* source rows (WS_SRC_MAKE) or predicate slots */
  uint32_t v[4];   /* st data vector rows */
  int64_t off;     /* address offset with symbol address folded in */
  uint32_t target; /* branch target / call index */
  uint32_t ipdom;  /* reconvergence pc of a branch */
  uint32_t sreg;   /* H_MOV_CLOCK: which clock */
  uint32_t wmma;   /* H_WMMA_*: the descriptor (WsPtxInst.imm2); target indexes EFunc.frag_rows */
} EInst;

typedef struct {
  uint32_t fn; /* module function index */
  const WsPtxFunction *ptx;
  guint n_insts;
  EInst *code;
  uint32_t n_rows;  /* value rows per frame (registers + sink) */
  uint32_t n_preds; /* predicate slots per frame (+ sink, + all-true) */
  uint32_t sink_row, sink_pred;
  uint32_t true_pred; /* a slot every lane reads as true (constant predicate operands) */
  uint64_t *imm;      /* immediate rows [n_imm][32] */
  guint n_imm;
  uint32_t frame_bytes;      /* local frame: .local + call-site/formal .param */
  uint32_t static_base;      /* static instruction id of pc 0 in this kernel's table */
  uint32_t *param_frame_off; /* per formal param i: offset in this frame (funcs) */
  uint32_t *ret_frame_off;   /* per formal return i */
  /* Register rows of wmma fragments (up to 8 each, more than EInst holds):
   * an H_WMMA_* instruction's start at frag_rows[EInst.target], in the
   * order D/loaded fragment, then A, B, C for mma.  Destination rows are
   * value rows, source rows WS_SRC_MAKE encoded. */
  uint32_t *frag_rows;
} EFunc;

struct _WsEmuFunction {
  WsEmuModule *module;
  uint32_t index; /* module function index of the kernel */
  char *name;
  EFunc **funcs;          /* indexed by module function index; NULL = unreachable */
  uint32_t *sym_off;      /* per module symbol: shared offset or frame offset */
  uint32_t static_shared; /* bytes */
  uint32_t dyn_shared_align;
  uint32_t stack_bytes; /* per-thread local stack */
  gboolean recursive;
  uint64_t sreg_used; /* bit per special-register row the kernel reads */
  guint n_static;
  WsTraceStaticInst *static_insts;
  int trace_kernel;            /* index in the trace writer, -1 = not registered */
  WsTraceWriter *trace_writer; /* writer the index belongs to */
  char *decode_error;          /* set when the kernel cannot run (unsupported callee...) */
  uint32_t *param_offsets, *param_sizes;
  uint32_t regs, shared_override, local_override;
  gboolean have_resources;
};

struct _WsEmuModule {
  WsEmu *emu;
  WsPtxModule *ptx;
  char *origin;
  uint64_t *sym_addr;      /* per symbol: device address of module-scope .global/.const, 0 otherwise */
  WsEmuFunction **kernels; /* per module function index (entries only) */
};

struct _WsEmu {
  WsEmuOptions opt;
  GPtrArray *modules;
  uint64_t heap_base, heap_size;
  GMutex heap_lock;
  GArray *heap_blocks; /* sorted (offset, size, used) */
  guint64 grid_serial;
  GThreadPool *pool; /* helper workers, kept between launches */
  guint pool_size;
  GArray *invalid;     /* WsEmuInvalidAccess, over the emulator's life */
  guint cdp_depth;     /* nesting of device-side launches being run */
  GArray *host_ranges; /* registered host memory: pairs (addr, size); not changed during a launch */
  GArray *textures;    /* EmuTexSlot: handle = index + 1 (never changed during a launch) */
};

typedef struct {
  WsEmuTexture t;
  gboolean live;
} EmuTexSlot;

/* ws-emu-texture.c: one lane's texture fetch and surface access.
 * @coords: the raw coordinate registers (x, y, z, w; for a1d/a2d the layer
 * comes first, as in the PTX operand); @int_coords: .s32 coordinates.
 * Results go to @out[4] as register bits of @dtype.  NULL message = fine;
 * otherwise the fault text (g_free). */
char *ws_emu_tex_fetch (const WsEmu *emu, uint64_t handle, int geom, const uint64_t *coords, gboolean int_coords,
                        int dtype, uint64_t out[4]);
char *ws_emu_surf_access (const WsEmu *emu, uint64_t handle, int geom, const uint64_t *coords, int clamp_mode,
                          uint32_t elem_bytes, uint32_t n, gboolean store, uint64_t val[4]);

/* ws-emu-wmma.c: the fragment layout and wmma.mma.  Element e of a tile
 * (numbered row by row, or column by column for an A or B fragment of
 * layout .col) lives in slot s of lane l where e = (l * slots + s) mod
 * elements, slots = registers * elements per register; a fragment larger
 * than the tile holds every element once per copy. */
static inline uint32_t
ws_emu_wmma_element (const WsPtxWmmaFragment *f, uint32_t lane, uint32_t slot)
{
  return (lane * ((uint32_t) f->regs * f->per_reg) + slot) % ((uint32_t) f->rows * f->cols);
}

/* Row and column of element @e; @col_order: numbered column by column. */
static inline void
ws_emu_wmma_position (const WsPtxWmmaFragment *f, gboolean col_order, uint32_t e, uint32_t *row, uint32_t *col)
{
  if (col_order)
    *row = e % f->rows, *col = e / f->rows;
  else
    *row = e / f->cols, *col = e % f->cols;
}

/* D = A * B + C for the lanes of @mask; @rows as in EFunc.frag_rows. */
void ws_emu_wmma_mma (uint32_t desc, uint32_t mods, const uint64_t *const bases[3], const uint32_t *rows,
                      uint64_t *regs, uint32_t mask);

void ws_emu_module_free (WsEmuModule *m);
const char *ws_emu_device_runtime_call (const char *name);
void ws_emu_function_free (WsEmuFunction *k);
