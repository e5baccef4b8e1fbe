/* ws-instrument-sdk.h: the ABI between Warpscope's PTX emulator and
 * instrumentation handlers (SASSI-style, seed 003 §3).
 *
 * A handler library is a shared object exporting one symbol,
 *
 *     const WsInstrHandler *ws_instr_handler_query (void);
 *
 * that returns a constant descriptor whose FIRST field is the ABI version.
 * The descriptor says *where* the handler is called (before instructions of
 * some classes, after instructions, at basic-block entries, at thread-block
 * entry and exit, at launch begin and end, narrowed by opcode or PTX line);
 * the host passes *what* an instruction does in a WsInstrSite (guard and
 * active masks, per-lane addresses and widths, branch directions, register
 * values read and written, PTX and source location, kernel, launch, block
 * and warp ids).  Handlers are warp-level callbacks: one call per warp
 * instruction, with per-lane arrays of WS_INSTR_SDK_WARP entries.
 *
 * Rules (the same as the predictor ABI, docs/plugin-guide.md):
 *  - the host never reads past `size` of a structure the handler gives, and
 *    a handler never reads past `size` of one the host gives: fields are
 *    only appended, so old handlers keep working on newer hosts;
 *  - no structure here has a fixed array (per-lane data and lists are
 *    pointers with a count) and the handler never allocates a host
 *    structure;
 *  - WS_INSTR_SDK_ABI_VERSION changes when a layout or the meaning of an
 *    existing field changes: the host refuses a handler built for another
 *    ABI with "please rebuild it against this Warpscope".
 *    WS_INSTR_SDK_API_VERSION grows when fields or host functions are
 *    appended; a handler built for API n runs on any host with API >= n.
 *
 * Threads: thread blocks (CTAs) run on several emulator threads, but one CTA
 * runs on one thread from cta_begin to cta_end, and its warps and
 * instructions run in a fixed order.  Keep counters in the per-CTA data
 * that cta_begin returns (no locks needed in before/after) and merge them in
 * cta_end under a lock of your own, with commutative operations if results
 * must not depend on the number of threads.  launch_begin and launch_end
 * run on the launching thread while no CTA runs; init, result and teardown
 * run once, on the program's thread.
 *
 * Everything the host passes (sites, launch descriptions, strings, per-lane
 * arrays) is valid only during the call that receives it.
 *
 * Build a handler out of tree with
 *     cc -shared -fPIC -o myhandler.so myhandler.c $(pkg-config --cflags warpscope-instrument)
 * and run it with `warpscope-cli tool run ./myhandler.so[:ARGS] -- PROGRAM`.
 * This header needs nothing but the C library. */
#ifndef WS_INSTRUMENT_SDK_H
#define WS_INSTRUMENT_SDK_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define WS_INSTR_SDK_ABI_VERSION 1
#define WS_INSTR_SDK_API_VERSION 1
#define WS_INSTR_SDK_QUERY_SYMBOL "ws_instr_handler_query"
#define WS_INSTR_SDK_WARP 32

#if defined(__GNUC__)
#define WS_INSTR_SDK_EXPORT __attribute__ ((visibility ("default")))
#else
#define WS_INSTR_SDK_EXPORT
#endif

/* Instruction classes (WsInstrSite.flags) and, as a mask, where a callback
 * is invoked (WsInstrHandler.before_where / .after_where). */
typedef enum {
  WS_INSTR_SDK_AT_ALL = 1u << 0,         /* every instruction (after: every one but control transfers) */
  WS_INSTR_SDK_AT_MEMORY = 1u << 1,      /* ld/st/atom/red of any space (not ld.param of kernel arguments) */
  WS_INSTR_SDK_AT_COND_BRANCH = 1u << 2, /* bra with a guard predicate */
  WS_INSTR_SDK_AT_REG_WRITE = 1u << 3,   /* writes a general register or a predicate */
  WS_INSTR_SDK_AT_CALL = 1u << 4,        /* call */
  WS_INSTR_SDK_AT_BLOCK = 1u << 5,       /* first instruction of a basic block (before only) */
  WS_INSTR_SDK_AT_CONTROL = 1u << 6,     /* bra, brx, call, ret, exit (before only) */
} WsInstrSdkWhere;

typedef enum {
  WS_INSTR_SDK_MEM_NONE = 0,
  WS_INSTR_SDK_MEM_LOAD,
  WS_INSTR_SDK_MEM_STORE,
  WS_INSTR_SDK_MEM_ATOMIC,
} WsInstrSdkMemKind;

/* State spaces of memory instructions; generic addresses are resolved by
 * the window they fall in (GLOBAL when any executing lane's is global). */
typedef enum {
  WS_INSTR_SDK_SPACE_NONE = 0,
  WS_INSTR_SDK_SPACE_GENERIC,
  WS_INSTR_SDK_SPACE_GLOBAL,
  WS_INSTR_SDK_SPACE_SHARED,
  WS_INSTR_SDK_SPACE_LOCAL,
  WS_INSTR_SDK_SPACE_CONST,
  WS_INSTR_SDK_SPACE_PARAM,
  WS_INSTR_SDK_SPACE_FUNC_PARAM,
  WS_INSTR_SDK_SPACE_TEX,
} WsInstrSdkSpace;

/* Coarse instruction classes. */
/* clang-format off */
typedef enum {
  WS_INSTR_SDK_CLASS_ALU = 0, WS_INSTR_SDK_CLASS_FP32, WS_INSTR_SDK_CLASS_FP64, WS_INSTR_SDK_CLASS_SFU,
  WS_INSTR_SDK_CLASS_LD, WS_INSTR_SDK_CLASS_ST, WS_INSTR_SDK_CLASS_ATOM, WS_INSTR_SDK_CLASS_BRANCH,
  WS_INSTR_SDK_CLASS_BARRIER, WS_INSTR_SDK_CLASS_WARP, WS_INSTR_SDK_CLASS_OTHER,
  WS_INSTR_SDK_CLASS_TENSOR,   /* wmma.mma (wmma.load/store are LD/ST) */
} WsInstrSdkClass;
/* clang-format on */

/* One kernel launch. */
typedef struct {
  uint32_t size;      /* sizeof (WsInstrLaunchInfo) as the host compiled it */
  uint32_t n_insts;   /* static instructions of the kernel: ids 0 .. n_insts-1 */
  uint64_t index;     /* launch number in this program run, from 0 */
  const char *kernel; /* mangled kernel name */
  uint32_t grid_x, grid_y, grid_z;
  uint32_t block_x, block_y, block_z;
  uint64_t n_ctas; /* thread blocks: grid_x * grid_y * grid_z */
  uint32_t warps_per_cta;
  uint32_t warp_size; /* WS_INSTR_SDK_WARP */
} WsInstrLaunchInfo;

/* One static instruction (host->inst_static). */
typedef struct {
  uint32_t size; /* set by the caller: sizeof (WsInstrStaticInfo) */
  uint32_t id;
  uint32_t ptx_line;    /* line in the PTX text */
  uint32_t source_line; /* CUDA source line from .loc (-lineinfo); 0 when absent */
  const char *opcode;   /* PTX mnemonic without modifiers: "ld", "add", "bra" */
  uint32_t opclass;     /* WsInstrSdkClass */
  uint32_t flags;       /* WsInstrSdkWhere class bits */
  uint32_t mem_space;   /* WsInstrSdkSpace as written (GENERIC unresolved) */
  uint32_t mem_width;   /* bytes per lane of a memory access (vector included) */
} WsInstrStaticInfo;

/* What an instruction does, for one warp.  Per-lane arrays have
 * warp_size entries; lanes outside `will_execute` hold no meaningful value
 * (except register reads, which hold the lane's register). */
typedef struct {
  uint32_t size; /* sizeof (WsInstrSite) as the host compiled it */
  uint32_t id;   /* static instruction id in the kernel */
  uint32_t ptx_line;
  uint32_t source_line;
  const char *opcode;              /* as WsInstrStaticInfo.opcode */
  uint32_t opclass;                /* WsInstrSdkClass */
  uint32_t flags;                  /* WsInstrSdkWhere class bits */
  const WsInstrLaunchInfo *launch; /* kernel name, launch index, dimensions */
  uint64_t cta;                    /* linear thread-block index */
  uint32_t cta_x, cta_y, cta_z;
  uint32_t warp;         /* warp index in the thread block */
  uint32_t active;       /* lanes active at the instruction (before the guard) */
  uint32_t will_execute; /* active lanes whose guard predicate is true (SASSI instrWillExecute) */
  /* memory (flags & MEMORY) */
  uint32_t mem_kind;    /* WsInstrSdkMemKind */
  uint32_t mem_space;   /* WsInstrSdkSpace, generic resolved */
  uint32_t mem_width;   /* bytes per lane (vector included) */
  const uint64_t *addr; /* per lane: effective address; NULL for other instructions */
  /* conditional branch (flags & COND_BRANCH): lanes in will_execute take
   * it, active & ~will_execute fall through */
  uint32_t taken;
  uint32_t target; /* target pc in the function */
  /* registers read (before callbacks): general registers among the
   * sources, in operand order */
  uint32_t n_src;
  const uint32_t *src_reg;    /* [n_src] register numbers in the function's frame */
  const uint64_t *const *src; /* [n_src] per-lane values */
  /* registers written (after callbacks): writable, for fault injection */
  uint32_t n_dst;           /* general-register destinations */
  const uint32_t *dst_reg;  /* [n_dst] register numbers */
  const uint32_t *dst_bits; /* [n_dst] meaningful bits (32 for .u32, 64 for .u64 and mul.wide) */
  uint64_t *const *dst;     /* [n_dst] per-lane values */
  uint32_t n_pdst;          /* predicate destinations */
  uint32_t *const *pdst;    /* [n_pdst] one bit per lane */
} WsInstrSite;

/* The host's context for one handler instance; opaque. */
typedef struct WsInstrHostContext WsInstrHostContext;

/* The host's function table.  `size` is sizeof (WsInstrHost) as the host
 * compiled it: call only functions that lie inside it
 * (WS_INSTR_SDK_HOST_HAS). */
typedef struct {
  uint32_t size;
  uint32_t api_version;
  /* Errors and warnings, printed with the handler's name.  fail() in init
   * refuses the handler (the program does not run); later it marks the
   * handler's result as failed. */
  void (*fail) (WsInstrHostContext *ctx, const char *message);
  void (*warn) (WsInstrHostContext *ctx, const char *message);
  /* Where, decided at init from the arguments (replaces the descriptor's
   * before/after masks). */
  void (*select) (WsInstrHostContext *ctx, uint32_t before, uint32_t after);
  /* Narrow before/after calls to some opcodes ("ld,st,atom": PTX
   * mnemonics without modifiers); 0 on success, -1 (and fail) for an
   * unknown opcode. */
  int (*filter_opcodes) (WsInstrHostContext *ctx, const char *opcodes);
  /* Narrow before/after calls to PTX lines first..last (inclusive). */
  void (*filter_ptx_lines) (WsInstrHostContext *ctx, uint32_t first, uint32_t last);
  /* The handler's result as JSON text (copied; the last call wins).  It is
   * written to PREFIX.NAME.json, printed by `tool run` and kept in the
   * store.  0 on success, -1 (and a warning) when the text is no JSON. */
  int (*set_result_json) (WsInstrHostContext *ctx, const char *json);
  /* Prefix for files of the handler's own (PREFIX.NAME.*: the same folder
   * as the JSON result), or NULL when the host keeps no results. */
  const char *(*output_prefix) (WsInstrHostContext *ctx);
  /* Static instruction @id of @launch; @info->size set by the caller.
   * 0 on success, -1 when @id is out of range. */
  int (*inst_static) (WsInstrHostContext *ctx, const WsInstrLaunchInfo *launch, uint32_t id, WsInstrStaticInfo *info);
} WsInstrHost;

/* clang-format off */
#define WS_INSTR_SDK_HOST_HAS(host, fn) \
  ((host)->size >= offsetof (WsInstrHost, fn) + sizeof ((host)->fn) && (host)->fn != NULL)
/* clang-format on */

/* The descriptor a handler library returns from ws_instr_handler_query.
 * Every callback is optional. */
typedef struct {
  uint32_t abi_version; /* WS_INSTR_SDK_ABI_VERSION: first, checked before anything else */
  uint32_t size;        /* sizeof (WsInstrHandler) as the handler compiled it */
  uint32_t api_version; /* WS_INSTR_SDK_API_VERSION of the header it was built with */
  const char *name;     /* letters, digits, '-', '_': names the result PREFIX.NAME.json */
  const char *version;
  const char *description;
  uint32_t before_where; /* WsInstrSdkWhere: before which instructions */
  uint32_t after_where;  /* WsInstrSdkWhere: after which (REG_WRITE, MEMORY, ALL...); 0 none */
  /* Once, before the program's first launch.  @args: the text after
   * "PATH:" (empty when none).  Returns the handler's state (passed as
   * @tool below), or NULL after host->fail() to refuse to run.  A handler
   * that keeps @host and @ctx may call them until teardown. */
  void *(*init) (const WsInstrHost *host, WsInstrHostContext *ctx, const char *args);
  void (*launch_begin) (void *tool, const WsInstrLaunchInfo *launch);
  void (*launch_end) (void *tool, const WsInstrLaunchInfo *launch, int ok);
  /* Thread-block (kernel) entry and exit: returns / receives per-CTA data. */
  void *(*cta_begin) (void *tool, const WsInstrLaunchInfo *launch, uint64_t cta);
  void (*cta_end) (void *tool, const WsInstrLaunchInfo *launch, void *cta_data);
  void (*before) (void *tool, void *cta_data, const WsInstrSite *site);
  /* After the instruction wrote its results: site->dst and site->pdst are
   * the warp's registers and may be changed. */
  void (*after) (void *tool, void *cta_data, WsInstrSite *site);
  /* The results, through host->set_result_json (at program exit, or when
   * the host asks). */
  void (*result) (void *tool);
  void (*teardown) (void *tool);
} WsInstrHandler;

typedef const WsInstrHandler *(*WsInstrHandlerQuery) (void);

#ifdef __cplusplus
}
#endif

#endif /* WS_INSTRUMENT_SDK_H */
