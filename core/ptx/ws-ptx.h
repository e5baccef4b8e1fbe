/* ws-ptx.h: PTX parser and the decoded intermediate representation (IR).
 *
 * CONTRACT between the parser (core/ptx, which owns this header) and the
 * emulator (core/emu) / trace writer.  The parser resolves everything it can:
 * register names -> slots, labels -> instruction indices, immediates -> bit
 * patterns of the instruction's type, symbols -> indices in the module's
 * symbol table.  Extend freely (add enum values / fields at the end of a
 * struct); renaming needs both sides to agree.  Semantics the types do not
 * spell out are in docs/dev/contracts.md, section "PTX IR". */
#pragma once

#include "base/ws-base.h"

G_BEGIN_DECLS

/* ---- types ---------------------------------------------------------- */
/* clang-format off */
typedef enum {
  WS_T_NONE = 0,
  WS_T_B8, WS_T_B16, WS_T_B32, WS_T_B64, WS_T_B128,
  WS_T_U8, WS_T_U16, WS_T_U32, WS_T_U64,
  WS_T_S8, WS_T_S16, WS_T_S32, WS_T_S64,
  WS_T_F16, WS_T_F16X2, WS_T_BF16, WS_T_BF16X2, WS_T_F32, WS_T_F64,
  WS_T_PRED,
  WS_T_COUNT
} WsPtxType;
/* clang-format on */

WS_EXPORT int ws_ptx_type_size (WsPtxType t);         /* bytes (pred: 0) */
WS_EXPORT const char *ws_ptx_type_name (WsPtxType t); /* "u32" ... */

typedef enum {
  WS_SPACE_NONE = 0, /* no state space (register ops) */
  WS_SPACE_GENERIC,  /* ld/st without a space: generic addressing */
  WS_SPACE_GLOBAL,
  WS_SPACE_SHARED, /* .shared / .shared::cta */
  WS_SPACE_LOCAL,
  WS_SPACE_CONST,
  WS_SPACE_PARAM,      /* kernel .param (ld.param in an .entry) */
  WS_SPACE_FUNC_PARAM, /* .param of a .func or a call site */
  WS_SPACE_TEX,
} WsPtxSpace;

/* ---- opcodes (X-macro: enum name, PTX mnemonic) ---------------------- */
/* clang-format off */
#define WS_PTX_OPCODES(X) \
  X(ABS, "abs") X(ACTIVEMASK, "activemask") X(ADD, "add") X(ADDC, "addc") X(AND, "and") \
  X(ATOM, "atom") X(BAR, "bar") X(BARRIER, "barrier") X(BFE, "bfe") X(BFI, "bfi") X(BFIND, "bfind") \
  X(BMSK, "bmsk") X(BRA, "bra") X(BREV, "brev") X(BRKPT, "brkpt") X(CALL, "call") X(CLZ, "clz") \
  X(CNOT, "cnot") X(COPYSIGN, "copysign") X(COS, "cos") X(CVT, "cvt") X(CVTA, "cvta") X(DIV, "div") \
  X(DP2A, "dp2a") X(DP4A, "dp4a") X(EX2, "ex2") X(EXIT, "exit") X(FENCE, "fence") X(FMA, "fma") \
  X(FNS, "fns") X(ISSPACEP, "isspacep") X(LD, "ld") X(LDU, "ldu") X(LG2, "lg2") X(LOP3, "lop3") \
  X(MAD, "mad") X(MADC, "madc") X(MAD24, "mad24") X(MATCH, "match") X(MAX, "max") X(MEMBAR, "membar") \
  X(MIN, "min") X(MOV, "mov") X(MUL, "mul") X(MUL24, "mul24") X(NANOSLEEP, "nanosleep") X(NEG, "neg") \
  X(NOT, "not") X(OR, "or") X(POPC, "popc") X(PREFETCH, "prefetch") X(PRMT, "prmt") X(RCP, "rcp") \
  X(RED, "red") X(REDUX, "redux") X(REM, "rem") X(RET, "ret") X(RSQRT, "rsqrt") X(SAD, "sad") \
  X(SELP, "selp") X(SET, "set") X(SETP, "setp") X(SHF, "shf") X(SHFL, "shfl") X(SHL, "shl") \
  X(SHR, "shr") X(SIN, "sin") X(SLCT, "slct") X(SQRT, "sqrt") X(ST, "st") X(SUB, "sub") \
  X(SUBC, "subc") X(TANH, "tanh") X(TESTP, "testp") X(TRAP, "trap") X(VOTE, "vote") X(XOR, "xor") \
  X(PMEVENT, "pmevent") X(MAPA, "mapa") X(CP_ASYNC, "cp.async") X(ELECT, "elect") \
  X(BRX, "brx") X(TEX, "tex") X(SULD, "suld") X(SUST, "sust") \
  X(VADD4, "vadd4") X(VSUB4, "vsub4") X(VAVRG4, "vavrg4") X(VABSDIFF4, "vabsdiff4") X(VMIN4, "vmin4") \
  X(VMAX4, "vmax4") X(GRIDDEPCONTROL, "griddepcontrol") X(WMMA, "wmma") \
  X(MBARRIER, "mbarrier")
/* clang-format on */

typedef enum {
#define WS_PTX_OP_ENUM(name, str) WS_OP_##name,
  WS_PTX_OPCODES (WS_PTX_OP_ENUM)
#undef WS_PTX_OP_ENUM
    WS_OP_COUNT
} WsPtxOp;

WS_EXPORT const char *ws_ptx_op_name (WsPtxOp op);

/* Coarse class of an instruction, used by traces, tools and models. */
typedef enum {
  WS_OPCLASS_ALU, /* integer / logic / move */
  WS_OPCLASS_FP32,
  WS_OPCLASS_FP64,
  WS_OPCLASS_SFU,     /* sin cos ex2 lg2 rcp rsqrt sqrt(approx) tanh */
  WS_OPCLASS_LD,      /* loads (any space) */
  WS_OPCLASS_ST,      /* stores */
  WS_OPCLASS_ATOM,    /* atom / red */
  WS_OPCLASS_BRANCH,  /* bra, call, ret, exit */
  WS_OPCLASS_BARRIER, /* bar / barrier / membar / fence */
  WS_OPCLASS_WARP,    /* shfl vote match redux activemask */
  WS_OPCLASS_OTHER,
  WS_OPCLASS_TENSOR, /* wmma.mma: the tensor-core pipe (wmma.load/store are LD/ST) */
  WS_OPCLASS_COUNT
} WsOpClass;

/* ---- modifiers -------------------------------------------------------- */
/* clang-format off */
typedef enum {
  WS_RND_NONE = 0,
  WS_RND_RN, WS_RND_RZ, WS_RND_RM, WS_RND_RP,       /* float rounding */
  WS_RND_RNI, WS_RND_RZI, WS_RND_RMI, WS_RND_RPI,   /* round to integer */
  WS_RND_RNA,
} WsPtxRounding;
/* clang-format on */

/* clang-format off */
typedef enum {
  WS_CMP_NONE = 0,
  WS_CMP_EQ, WS_CMP_NE, WS_CMP_LT, WS_CMP_LE, WS_CMP_GT, WS_CMP_GE,
  WS_CMP_LO, WS_CMP_LS, WS_CMP_HI, WS_CMP_HS,
  WS_CMP_EQU, WS_CMP_NEU, WS_CMP_LTU, WS_CMP_LEU, WS_CMP_GTU, WS_CMP_GEU,
  WS_CMP_NUM, WS_CMP_NAN,
} WsPtxCmp;
/* clang-format on */

typedef enum { WS_BOOL_NONE = 0, WS_BOOL_AND, WS_BOOL_OR, WS_BOOL_XOR } WsPtxBoolOp;

/* Sub-operation: atomic/red op, shfl mode, vote mode, bar kind, testp kind... */
/* clang-format off */
typedef enum {
  WS_SUB_NONE = 0,
  /* atom/red/redux */
  WS_SUB_ADD, WS_SUB_MIN, WS_SUB_MAX, WS_SUB_INC, WS_SUB_DEC, WS_SUB_CAS, WS_SUB_EXCH,
  WS_SUB_AND, WS_SUB_OR, WS_SUB_XOR,
  /* shfl */
  WS_SUB_UP, WS_SUB_DOWN, WS_SUB_BFLY, WS_SUB_IDX,
  /* vote */
  WS_SUB_ALL, WS_SUB_ANY, WS_SUB_UNI, WS_SUB_BALLOT,
  /* bar */
  WS_SUB_SYNC, WS_SUB_ARRIVE, WS_SUB_RED_POPC, WS_SUB_RED_AND, WS_SUB_RED_OR,
  /* testp */
  WS_SUB_FINITE, WS_SUB_INFINITE, WS_SUB_NUMBER, WS_SUB_NOTANUMBER, WS_SUB_NORMAL, WS_SUB_SUBNORMAL,
  /* shf */
  WS_SUB_L, WS_SUB_R,
  /* prmt modes */
  WS_SUB_F4E, WS_SUB_B4E, WS_SUB_RC8, WS_SUB_ECL, WS_SUB_ECR, WS_SUB_RC16,
  /* match */
  WS_SUB_ANYSYNC, WS_SUB_ALLSYNC,
  /* bar.warp.sync */
  WS_SUB_WARP_SYNC,
  /* cp.async.commit_group / cp.async.wait_group N / cp.async.wait_all
   * (cp.async itself: WS_SUB_NONE) */
  WS_SUB_COMMIT_GROUP, WS_SUB_WAIT_GROUP, WS_SUB_WAIT_ALL,
  /* brx.idx */
  WS_SUB_IDX_BRX,
  /* tex/suld/sust geometry (the texture's shape; imm2 of suld/sust holds the
   * out-of-range mode: 0 .trap, 1 .clamp, 2 .zero) */
  WS_SUB_TEX_1D, WS_SUB_TEX_2D, WS_SUB_TEX_3D, WS_SUB_TEX_A1D, WS_SUB_TEX_A2D,
  WS_SUB_TEX_CUBE, WS_SUB_TEX_ACUBE,
  /* wmma.load.{a,b,c} / wmma.store.d / wmma.mma (the rest is in imm2,
   * see "warp-level matrix instructions" below) */
  WS_SUB_WMMA_LOAD, WS_SUB_WMMA_STORE, WS_SUB_WMMA_MMA,
  /* cvt.{rna,rn,rz}.tf32.f32: type is .b32 (a float with its 13 low
   * mantissa bits cleared), type2 .f32 */
  WS_SUB_CVT_TF32,
  /* mbarrier.{init,arrive,arrive_drop,test_wait,try_wait,pending_count,inval}
   * (imm2 1: the .parity form of test_wait / try_wait) */
  WS_SUB_MBAR_INIT, WS_SUB_MBAR_ARRIVE, WS_SUB_MBAR_ARRIVE_DROP, WS_SUB_MBAR_TEST_WAIT, WS_SUB_MBAR_TRY_WAIT,
  WS_SUB_MBAR_PENDING_COUNT, WS_SUB_MBAR_INVAL,
  /* redux.sync min/max use WS_SUB_MIN/MAX; bar.red op in WS_SUB_RED_* */
} WsPtxSub;
/* clang-format on */

/* Memory scope of atom/red/ld/st/fence/membar (WsPtxInst.scope). */
/* clang-format off */
typedef enum {
  WS_SCOPE_NONE = 0, WS_SCOPE_CTA, WS_SCOPE_CLUSTER, WS_SCOPE_GPU, WS_SCOPE_SYS,
} WsPtxScope;
/* clang-format on */

/* Cache operator of ld/st (WsPtxInst.cache_op); recorded, no semantics. */
/* clang-format off */
typedef enum {
  WS_CACHE_NONE = 0, WS_CACHE_CA, WS_CACHE_CG, WS_CACHE_CS, WS_CACHE_LU, WS_CACHE_CV,
  WS_CACHE_WB, WS_CACHE_WT,
} WsPtxCacheOp;
/* clang-format on */

/* Role of a .param symbol (WsPtxSymbol.param_role). */
typedef enum {
  WS_PARAM_ROLE_NONE = 0,
  WS_PARAM_ROLE_ENTRY, /* kernel parameter: offset in the kernel parameter block */
  WS_PARAM_ROLE_ARG,   /* .func input parameter: offset in the callee's argument block */
  WS_PARAM_ROLE_RET,   /* .func return parameter: offset in the callee's return block */
  WS_PARAM_ROLE_CALL,  /* call-site .param declared in a function body: offset in that
                         * function's per-thread call-parameter area (call_param_bytes) */
} WsPtxParamRole;

enum {
  WS_MOD_FTZ = 1u << 0,
  WS_MOD_SAT = 1u << 1,
  WS_MOD_APPROX = 1u << 2,
  WS_MOD_FULL = 1u << 3,
  WS_MOD_WIDE = 1u << 4,
  WS_MOD_HI = 1u << 5,
  WS_MOD_LO = 1u << 6,
  WS_MOD_CC = 1u << 7, /* writes the carry flag (add.cc, sub.cc, mad.cc) */
  WS_MOD_VOLATILE = 1u << 8,
  WS_MOD_RELAXED = 1u << 9,
  WS_MOD_ACQUIRE = 1u << 10,
  WS_MOD_RELEASE = 1u << 11,
  WS_MOD_NC = 1u << 12,   /* ld.global.nc */
  WS_MOD_UNI = 1u << 13,  /* bra.uni / call.uni */
  WS_MOD_SYNC = 1u << 14, /* .sync variants (shfl.sync, vote.sync, bar.sync) */
  WS_MOD_ALIGNED = 1u << 15,
  WS_MOD_SHIFTAMT = 1u << 16, /* bfind.shiftamt */
  WS_MOD_CLAMP = 1u << 17,    /* shf.clamp */
  WS_MOD_WRAP = 1u << 18,     /* shf.wrap */
  WS_MOD_TO = 1u << 19,       /* cvta.to.<space> (specific <- generic) */
  WS_MOD_NOFTZ_F16 = 1u << 20,
  WS_MOD_RELU = 1u << 21,
  WS_MOD_XORSIGN = 1u << 22,
  WS_MOD_ABS = 1u << 23,
  WS_MOD_NAN = 1u << 24,       /* min/max .NaN */
  WS_MOD_WEAK = 1u << 25,      /* ld.weak / st.weak (explicit, same as plain) */
  WS_MOD_MMIO = 1u << 26,      /* ld/st.mmio */
  WS_MOD_SC = 1u << 27,        /* fence.sc */
  WS_MOD_PROXY = 1u << 28,     /* fence.proxy.* (no effect in the emulator) */
  WS_MOD_SATFINITE = 1u << 29, /* cvt .satfinite */
  WS_MOD_PACKED = 1u << 30,    /* cvt.rn.f16x2.f32 d, a, b (two sources packed) */
};

/* ---- operands ---------------------------------------------------------- */
typedef enum {
  WS_OPND_NONE = 0,
  WS_OPND_REG,     /* value register: slot in the function's register file */
  WS_OPND_PRED,    /* predicate register: slot in the predicate file; `neg` for !p */
  WS_OPND_IMM,     /* immediate: `imm` holds the bits in the instruction's operand type */
  WS_OPND_ADDR,    /* memory address [base + offset]: base is REG (reg), SYMBOL (symbol) or none (absolute) */
  WS_OPND_SYMBOL,  /* address of a variable (mov r, sym; or function name in call) */
  WS_OPND_SPECIAL, /* special register: `sreg` id, `comp` component (0=x,1=y,2=z) */
  WS_OPND_VEC,     /* register vector {a,b,c,d}: `vec_regs`, `count`; a slot may be WS_REG_SINK */
  WS_OPND_LABEL,   /* branch target: `target` instruction index */
  WS_OPND_SINK,    /* '_' */
  WS_OPND_FUNC,    /* address of a function (mov r, func; indirect call): `symbol` = function index */
} WsPtxOperandKind;

/* clang-format off */
typedef enum {
  WS_SREG_TID, WS_SREG_NTID, WS_SREG_CTAID, WS_SREG_NCTAID, WS_SREG_LANEID, WS_SREG_WARPID,
  WS_SREG_NWARPID, WS_SREG_SMID, WS_SREG_NSMID, WS_SREG_GRIDID, WS_SREG_CLOCK, WS_SREG_CLOCK64,
  WS_SREG_GLOBALTIMER, WS_SREG_LANEMASK_EQ, WS_SREG_LANEMASK_LE, WS_SREG_LANEMASK_LT,
  WS_SREG_LANEMASK_GE, WS_SREG_LANEMASK_GT, WS_SREG_DYNAMIC_SMEM_SIZE, WS_SREG_TOTAL_SMEM_SIZE,
  WS_SREG_CLUSTERID, WS_SREG_NCLUSTERID, WS_SREG_CLUSTER_CTAID, WS_SREG_CLUSTER_NCTAID,
  WS_SREG_ENVREG, WS_SREG_PM,
  /* the CTA's reserved shared-memory region (cooperative groups scratch) */
  WS_SREG_RESERVED_SMEM_BEGIN, WS_SREG_RESERVED_SMEM_END, WS_SREG_RESERVED_SMEM_CAP,
  WS_SREG_RESERVED_SMEM_0, WS_SREG_RESERVED_SMEM_1,
} WsPtxSreg;
/* clang-format on */

#define WS_REG_SINK 0xffffffffu
/* Elements of a vector operand: 4 for ld/st/mov/tex, up to 8 for the
 * fragments of wmma (eight .f16x2 or .f32 registers). */
#define WS_PTX_MAX_VEC 8

typedef struct {
  uint8_t kind;    /* WsPtxOperandKind */
  uint8_t neg;     /* '!' on a predicate operand */
  uint8_t count;   /* WS_OPND_VEC: number of elements */
  uint8_t comp;    /* WS_OPND_SPECIAL component; ADDR: base kind (WS_OPND_REG/WS_OPND_SYMBOL/WS_OPND_NONE) */
  uint32_t reg;    /* REG/PRED slot; ADDR base register slot */
  uint32_t symbol; /* SYMBOL / ADDR-with-symbol: index in module->symbols; or function index for call */
  uint32_t sreg;   /* WsPtxSreg */
  uint32_t target; /* LABEL */
  int64_t offset;  /* ADDR offset; SYMBOL+offset */
  uint64_t imm;    /* IMM bits */
  uint32_t vec_regs[WS_PTX_MAX_VEC]; /* VEC: register slots (or WS_REG_SINK) */
} WsPtxOperand;

#define WS_PTX_MAX_DST 2
#define WS_PTX_MAX_SRC 4

typedef struct {
  uint16_t op;     /* WsPtxOp */
  uint8_t type;    /* WsPtxType: the instruction's (destination) type */
  uint8_t type2;   /* second type: cvt source, set/slct/shfl... comparison type */
  uint8_t space;   /* WsPtxSpace for ld/st/atom/red/cvta/isspacep/prefetch */
  uint8_t vec;     /* vector width of ld/st (1, 2, 4) */
  uint8_t cmp;     /* WsPtxCmp */
  uint8_t boolop;  /* WsPtxBoolOp */
  uint8_t rnd;     /* WsPtxRounding */
  uint8_t sub;     /* WsPtxSub */
  uint8_t opclass; /* WsOpClass */
  uint8_t ndst, nsrc;
  uint8_t guard_neg; /* @!p */
  uint32_t guard;    /* predicate slot guarding the instruction, or WS_REG_SINK when unguarded */
  uint32_t mods;     /* WS_MOD_* */
  WsPtxOperand dst[WS_PTX_MAX_DST];
  WsPtxOperand src[WS_PTX_MAX_SRC];
  uint32_t call; /* CALL: index into WsPtxFunction.calls */
  uint32_t line; /* line in the PTX text (1-based) */
  uint32_t column;
  uint32_t src_file; /* from .loc: file index (0 = none) */
  uint32_t src_line; /* from .loc: source line (0 = none) */
  uint8_t scope;     /* WsPtxScope */
  uint8_t cache_op;  /* WsPtxCacheOp */
  uint8_t src_col;   /* from .loc: column (clamped to 255) */
  uint8_t reserved0;
  uint32_t imm2; /* extra immediate: cp.async copy size / wait_group N; brx.idx table index;
                       * wmma: the descriptor (WS_PTX_WMMA_*) */
} WsPtxInst;

/* ---- warp-level matrix instructions (wmma) -------------------------------
 * wmma.load.{a,b,c} d, [p] {, stride}: dst[0] the fragment (VEC), src[0]
 * the address, src[1] the stride in elements (absent: the tile's leading
 * dimension); wmma.store.d [p], s {, stride}: src[1] the fragment;
 * wmma.mma d, a, b, c: dst[0], src[0..2] fragments, rnd = .rnd (f64),
 * WS_MOD_SATFINITE.  imm2 describes shape, layouts and element types: */
/* clang-format off */
typedef enum {
  WS_WMMA_SHAPE_NONE = 0,
  WS_WMMA_M16N16K16, WS_WMMA_M32N8K16, WS_WMMA_M8N32K16, WS_WMMA_M16N16K8, WS_WMMA_M8N8K4,
} WsPtxWmmaShape;
/* clang-format on */

typedef enum { WS_WMMA_A = 0, WS_WMMA_B, WS_WMMA_C, WS_WMMA_D } WsPtxWmmaMatrix;

/* Element types of fragments (tf32 has no WsPtxType of its own). */
/* clang-format off */
typedef enum {
  WS_WMMA_ELEM_NONE = 0,
  WS_WMMA_ELEM_F16, WS_WMMA_ELEM_BF16, WS_WMMA_ELEM_TF32, WS_WMMA_ELEM_F32, WS_WMMA_ELEM_F64,
  WS_WMMA_ELEM_S8, WS_WMMA_ELEM_U8, WS_WMMA_ELEM_S32,
} WsPtxWmmaElem;
/* clang-format on */

#define WS_PTX_WMMA_SHAPE(desc) ((WsPtxWmmaShape) ((desc) &0xfu))
#define WS_PTX_WMMA_MATRIX(desc) ((WsPtxWmmaMatrix) (((desc) >> 4) & 0x3u)) /* load/store */
#define WS_PTX_WMMA_COL_MAJOR(desc, mat) (((desc) >> (6 + (mat))) & 1u)     /* layout .col */
#define WS_PTX_WMMA_ELEM(desc, mat) ((WsPtxWmmaElem) (((desc) >> (12 + 4 * (mat))) & 0xfu))

/* One fragment's geometry: a rows x cols tile (A is MxK, B KxN, C/D MxN);
 * each thread holds `regs` registers of `per_reg` packed elements. */
typedef struct {
  uint8_t rows, cols;
  uint8_t elem;       /* WsPtxWmmaElem */
  uint8_t elem_bytes; /* bytes of one element in memory */
  uint8_t per_reg;    /* elements packed in one register (f16x2: 2, s8: 4) */
  uint8_t regs;       /* registers per thread */
} WsPtxWmmaFragment;

/* Geometry of matrix @mat of the wmma instruction described by @desc;
 * FALSE for a shape/type combination the emulator refuses (sub-byte and
 * single-bit types, f64 rounding other than .rn). */
WS_EXPORT gboolean ws_ptx_wmma_fragment (uint32_t desc, WsPtxWmmaMatrix mat, WsPtxWmmaFragment *out);

/* A call site: call (rets), func, (args); rets/args are .param symbols. */
typedef struct {
  uint32_t callee;     /* index in module->functions, or G_MAXUINT32 for an indirect call */
  uint32_t callee_reg; /* indirect call: register slot holding the function address */
  uint32_t n_rets, n_args;
  uint32_t *rets;      /* symbol indices */
  uint32_t *args;      /* symbol indices */
  gboolean is_vprintf; /* callee is vprintf */
  gboolean is_malloc;  /* callee is malloc */
  gboolean is_free;    /* callee is free */
} WsPtxCall;

/* A variable declared in a state space (module or function scope). */
typedef struct {
  char *name;
  uint8_t space; /* WsPtxSpace */
  uint8_t type;  /* element type */
  uint32_t align;
  uint64_t size;       /* bytes (0 for extern dynamic .shared) */
  gboolean is_extern;  /* extern .shared (dynamic) */
  gboolean is_visible; /* .visible */
  uint8_t *init;       /* initialiser bytes (size bytes) or NULL */
  /* initialiser entries that are addresses of other symbols: at byte offset
   * `init_reloc_offsets[i]` store the address of symbol `init_reloc_symbols[i]` */
  guint n_init_relocs;
  uint64_t *init_reloc_offsets;
  uint32_t *init_reloc_symbols;
  int32_t function;      /* owning function index, or -1 for module scope */
  uint64_t param_offset; /* SPACE_PARAM / FUNC_PARAM: byte offset in the parameter block */
  /* --- additions (see docs/dev/contracts.md "PTX IR") --- */
  uint8_t param_role;              /* WsPtxParamRole for .param symbols */
  uint64_t offset;                 /* LOCAL: offset in the owning function's per-thread local frame;
                          * SHARED (static): offset in the module's static shared layout;
                          * PARAM/FUNC_PARAM: same as param_offset */
  int64_t *init_reloc_addends;     /* byte added to the relocated address (sym+8) */
  uint8_t *init_reloc_is_function; /* 1: init_reloc_symbols[i] is a function index */
  uint32_t decl_line;
} WsPtxSymbol;

typedef struct {
  char *name;
  gboolean is_entry;  /* .entry (kernel) vs .func */
  gboolean is_extern; /* declaration only (e.g. vprintf, malloc) */
  guint n_params;
  uint32_t *params;     /* symbol indices, in order; .param offsets assigned */
  uint64_t param_bytes; /* size of the parameter block */
  guint n_rets;
  uint32_t *rets;     /* return .param symbol indices */
  guint n_regs;       /* value-register slots */
  guint n_preds;      /* predicate slots */
  uint8_t *reg_types; /* WsPtxType per value slot */
  char **reg_names;   /* slot -> name, for messages */
  char **pred_names;
  guint n_insts;
  WsPtxInst *insts;
  guint n_calls;
  WsPtxCall *calls;
  uint64_t local_bytes;                          /* total .local declared in this function */
  uint64_t shared_bytes;                         /* function-scope static .shared */
  uint32_t maxntid[3], reqntid[3], minnctapersm; /* performance directives (0 = absent) */
  uint32_t first_line;
  /* --- additions --- */
  uint64_t ret_bytes;        /* size of the return-parameter block (.func) */
  uint64_t call_param_bytes; /* per-thread area holding this function's call-site .params */
  uint32_t local_align;      /* alignment of the local frame */
  uint32_t maxnreg;
  gboolean has_body;
  gboolean noreturn;
  guint n_branch_tables;    /* brx.idx targets: table i is branch_tables[i], n_branch_targets[i] entries */
  uint32_t **branch_tables; /* instruction indices */
  uint32_t *n_branch_targets;
  char **label_names; /* n_insts + 1 entries: label defined before instruction i, or NULL */
  /* Valid PTX the emulator does not implement (a texture fetch, mma...):
   * the first such instruction, "origin:LINE:COL: instruction 'tex...' is
   * not supported ...", or NULL.  The instruction is left out of insts; the
   * module still loads and only kernels that reach this function refuse to
   * launch (core/emu). */
  char *unsupported;
  uint32_t unsupported_line;
  guint n_unsupported; /* unsupported instructions in this function */
} WsPtxFunction;

typedef struct {
  uint32_t version_major, version_minor;
  char *target; /* "sm_80" */
  uint32_t address_size;
  guint n_functions;
  WsPtxFunction *functions;
  guint n_symbols;
  WsPtxSymbol *symbols;
  guint n_files;
  char **files; /* .file table (index as declared) */
  char *text;   /* the PTX text */
  /* --- additions --- */
  uint64_t shared_bytes; /* static .shared layout size (all module-scope .shared, declaration order) */
  uint32_t shared_align; /* max alignment among .shared symbols (dynamic shared starts at
                            * ALIGN_UP(shared_bytes, max(16, shared_align))) */
  gboolean debug;        /* .target ..., debug (built with -G) */
} WsPtxModule;

/* Parses PTX text.  Errors: WS_ERROR_PARSE "origin:LINE:COL: message" or
 * WS_ERROR_UNSUPPORTED for a valid-but-unimplemented directive, variable or
 * operand.  A valid-but-unimplemented instruction (or modifier) does not
 * fail the module: it is recorded in its function's `unsupported`. */
WS_EXPORT WsPtxModule *ws_ptx_parse (const char *text, gsize len, const char *origin, GError **error);
WS_EXPORT void ws_ptx_module_free (WsPtxModule *module);
WS_EXPORT int ws_ptx_module_find_function (const WsPtxModule *module, const char *name); /* -1 */
WS_EXPORT int ws_ptx_module_find_symbol (const WsPtxModule *module, const char *name, int function);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsPtxModule, ws_ptx_module_free)

/* Control flow: immediate post-dominator of each instruction index (used as
 * the SIMT reconvergence point of a branch); n_insts means "function exit". */
WS_EXPORT uint32_t *ws_ptx_function_ipdom (const WsPtxFunction *fn);

/* Per-kernel static shared memory: bytes of the module's static .shared
 * variables that @fn or any function it calls references (layout offsets
 * stay module-wide; this is the size occupancy calculations should use). */
WS_EXPORT uint64_t ws_ptx_function_static_shared (const WsPtxModule *module, guint function);

/* Operand type used to convert the immediate at source position @src_index
 * of @inst (e.g. u32 for shift amounts, type2 for cvt sources). */
WS_EXPORT WsPtxType ws_ptx_inst_src_type (const WsPtxInst *inst, guint src_index);

WS_EXPORT WsOpClass ws_ptx_op_class (const WsPtxInst *inst);
WS_EXPORT const char *ws_ptx_opclass_name (WsOpClass c);

/* Renders an instruction back to text (messages, tools). */
WS_EXPORT char *ws_ptx_inst_to_string (const WsPtxModule *module, const WsPtxFunction *fn, const WsPtxInst *inst);

G_END_DECLS
