/* ws-instrument.h: SASSI-style instrumentation of the PTX emulator (seed 003
 * §3, Fig. 2).
 *
 * CONTRACT between core/instrument (owner), the emulator (core/emu, which
 * calls the hooks), the runtime (core/cudart, which attaches tools from the
 * environment) and the CLI.
 *
 * A WsInstrument holds tools.  A tool is a table of C callbacks
 * (WsInstrTool) plus its own data.  *Where* a tool is called: before every
 * instruction or before classes of instructions (WsInstrWhere), after
 * register-writing instructions, at basic-block entries, at thread-block
 * (kernel) entry and exit, and at launch begin and end.  *What* it sees: a
 * WsInstrInst (instruction id, PTX and source line, opcode and class,
 * active mask, per-lane will-execute mask, memory, branch and register
 * parameters).  Register parameters are writable in the after callback (the
 * fault injector flips bits there).
 *
 * Threads: thread blocks (CTAs) run on several worker threads.  Every
 * before/after callback receives the per-CTA data its tool returned from
 * cta_begin, and one CTA runs on one thread from cta_begin to cta_end, so
 * handlers need no locks for per-CTA data.  cta_end is called on the worker
 * thread: a tool merging into shared results must lock (the built-in tools
 * hold a mutex there and only merge with commutative operations - sums,
 * AND, OR - so parallel and --deterministic runs give identical results).
 * Within a CTA, warps and instructions run in a fixed order, so per-CTA
 * counts of dynamic instructions are reproducible (the fault injector
 * relies on it).  launch_begin/launch_end run on the launching thread while
 * no CTA runs. */
#pragma once

#include "base/ws-base.h"
#include <json-glib/json-glib.h>
#include "trace/ws-trace-writer.h"

G_BEGIN_DECLS

#define WS_INSTR_WARP 32

/* Where a before-callback is invoked (bit set), and the classes of an
 * instruction (WsInstrInst.flags). */
typedef enum {
  WS_INSTR_AT_ALL         = 1u << 0,  /* before every instruction */
  WS_INSTR_AT_MEMORY      = 1u << 1,  /* ld/st/atom/red of any space (not ld.param of kernel arguments) */
  WS_INSTR_AT_COND_BRANCH = 1u << 2,  /* bra with a guard predicate */
  WS_INSTR_AT_REG_WRITE   = 1u << 3,  /* writes a general register or a predicate */
  WS_INSTR_AT_CALL        = 1u << 4,  /* call */
  WS_INSTR_AT_BLOCK       = 1u << 5,  /* first instruction of a basic block */
} WsInstrWhere;

typedef enum {
  WS_INSTR_MEM_NONE = 0,
  WS_INSTR_MEM_LOAD,
  WS_INSTR_MEM_STORE,
  WS_INSTR_MEM_ATOMIC,
} WsInstrMemKind;

typedef struct {
  const char *kernel;          /* mangled kernel name */
  uint64_t index;              /* launch number in this WsInstrument, from 0 */
  uint32_t grid[3], block[3];
  uint64_t n_ctas;
  guint n_insts;               /* static instructions of the kernel (ids 0..n_insts-1) */
  const WsTraceStaticInst *insts; /* per id: PTX line, source line, op, class, space */
  const uint8_t *flags;        /* per id: WsInstrWhere class bits */
} WsInstrLaunch;

typedef struct {
  /* static */
  uint32_t id;                 /* kernel-wide static instruction id */
  uint32_t ptx_line;           /* line in the PTX text */
  uint32_t source_line;        /* CUDA source line from .loc (-lineinfo), 0 when absent */
  uint8_t op;                  /* WsPtxOp */
  uint8_t opclass;             /* WsOpClass */
  uint32_t flags;              /* WsInstrWhere class bits */
  /* dynamic */
  uint64_t cta;                /* linear CTA index */
  uint32_t warp;               /* warp index in the CTA */
  uint32_t active;             /* lanes active at this instruction (before the guard) */
  uint32_t will_execute;       /* active lanes whose guard predicate is true */
  /* memory (flags & WS_INSTR_AT_MEMORY) */
  uint8_t mem_kind;            /* WsInstrMemKind */
  uint8_t mem_space;           /* WsPtxSpace; generic addresses resolved per access (global when any lane is global) */
  uint8_t mem_width;           /* bytes per lane (vector included) */
  const uint64_t *addr;        /* [32] per-lane address (valid in will_execute lanes) */
  /* conditional branch (flags & WS_INSTR_AT_COND_BRANCH): lanes in
   * will_execute take the branch, active & ~will_execute fall through */
  uint32_t taken;
  uint32_t target;             /* target pc in the function */
  /* registers (after callbacks; flags & WS_INSTR_AT_REG_WRITE) */
  uint8_t n_dst;               /* general-register destinations (sinks excluded) */
  uint8_t dst_bits[4];         /* meaningful bits of each destination */
  uint64_t *dst[4];            /* [32] per-lane values, writable */
  uint8_t n_pdst;              /* predicate destinations */
  uint32_t *pdst[2];           /* bit per lane, writable */
} WsInstrInst;

typedef struct {
  const char *name;
  guint where;                 /* WsInstrWhere bits for @before */
  gboolean after_reg_writes;   /* call @after for register-writing instructions */
  void     (*launch_begin) (gpointer tool, const WsInstrLaunch *launch);
  void     (*launch_end)   (gpointer tool, const WsInstrLaunch *launch, gboolean ok);
  gpointer (*cta_begin)    (gpointer tool, const WsInstrLaunch *launch, uint64_t cta);
  void     (*cta_end)      (gpointer tool, const WsInstrLaunch *launch, gpointer cta_data);
  void     (*before)       (gpointer tool, gpointer cta_data, const WsInstrInst *inst);
  void     (*after)        (gpointer tool, gpointer cta_data, WsInstrInst *inst);
  /* results as JSON (NULL: none) and free */
  JsonNode *(*result)      (gpointer tool);
  void     (*free)         (gpointer tool);
} WsInstrTool;

typedef struct _WsInstrument WsInstrument;

WS_EXPORT WsInstrument *ws_instrument_new (void);
WS_EXPORT void ws_instrument_free (WsInstrument *ins);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsInstrument, ws_instrument_free)

/* Attaches a tool; @tool_data is freed with vtable->free. */
WS_EXPORT void ws_instrument_add (WsInstrument *ins, const WsInstrTool *vtable, gpointer tool_data);
WS_EXPORT guint ws_instrument_n_tools (WsInstrument *ins);
WS_EXPORT const char *ws_instrument_tool_name (WsInstrument *ins, guint i);
WS_EXPORT JsonNode *ws_instrument_tool_result (WsInstrument *ins, guint i);

/* Built-in tools by name: "branch", "memdiv", "value", "faults-profile"
 * (the injection space), "faults-inject" (needs WS_FAULT_SITE, see
 * ws-instr-faults.c).  Unknown name: WS_ERROR_NOT_FOUND. */
WS_EXPORT gboolean ws_instrument_add_builtin (WsInstrument *ins, const char *name, GError **error);
WS_EXPORT const char *const *ws_instrument_builtin_names (void);
/* Writes every tool's result to PREFIX.NAME.json. */
WS_EXPORT gboolean ws_instrument_write_results (WsInstrument *ins, const char *prefix, GError **error);

/* Keeps a tool result in the store (table tool_result, migration 005):
 * @db from ws_store_get_db; @args: the program's arguments (NULL-terminated
 * or NULL); @trace may be NULL. */
struct sqlite3;
WS_EXPORT gboolean ws_instrument_store_result (struct sqlite3 *db, const char *tool, const char *program,
                                               const char *const *args, const char *trace, JsonNode *result,
                                               GError **error);

/* A fault-injection site: the @index-th thread-level execution of a
 * register-writing instruction (counted in execution order, lanes in
 * ascending order) in CTA @cta of launch @launch; @reg_pick and @bit_pick
 * choose the destination and the bit (modulo their counts). */
typedef struct {
  uint64_t launch, cta, index;
  uint32_t reg_pick, bit_pick;
} WsFaultSite;

WS_EXPORT gboolean ws_fault_site_parse (const char *text, WsFaultSite *site, GError **error);
WS_EXPORT char *ws_fault_site_to_string (const WsFaultSite *site);
/* The injector for @site (also reachable as builtin "faults-inject" with WS_FAULT_SITE). */
WS_EXPORT void ws_instrument_add_fault_injector (WsInstrument *ins, const WsFaultSite *site);

/* Picks @n sites uniformly over the thread-level register-writing
 * executions of a "faults-profile" result (seed 003 §8), with a
 * gsl_rng_mt19937 seeded with @seed: the same profile and seed give the
 * same sites.  An empty injection space is WS_ERROR_INVALID. */
WS_EXPORT WsFaultSite *ws_fault_pick_sites (JsonNode *profile, guint n, guint64 seed, guint64 *space, GError **error);

/* ---- emulator side (called by core/emu) ------------------------------------- */

typedef struct _WsInstrRun WsInstrRun;     /* one launch */
typedef struct _WsInstrCtaRun WsInstrCtaRun; /* one CTA on one thread */

WS_EXPORT WsInstrRun *ws_instrument_launch_begin (WsInstrument *ins, const char *kernel, const uint32_t grid[3],
                                                  const uint32_t block[3], guint n_insts,
                                                  const WsTraceStaticInst *insts, uint8_t *flags);
/* (@flags: per static id WsInstrWhere class bits; the run takes ownership) */
WS_EXPORT void ws_instrument_launch_end (WsInstrRun *run, gboolean ok);
WS_EXPORT WsInstrCtaRun *ws_instrument_cta_begin (WsInstrRun *run, uint64_t cta);
WS_EXPORT void ws_instrument_cta_end (WsInstrCtaRun *cr);
WS_EXPORT const WsInstrLaunch *ws_instrument_run_launch (WsInstrRun *run);
/* Union of the tools' where bits (what the emulator has to report). */
WS_EXPORT guint ws_instrument_run_where (WsInstrRun *run);
WS_EXPORT gboolean ws_instrument_run_wants_after (WsInstrRun *run);
/* Dispatches to the tools whose where bits match inst->flags. */
WS_EXPORT void ws_instrument_before (WsInstrCtaRun *cr, const WsInstrInst *inst);
WS_EXPORT void ws_instrument_after (WsInstrCtaRun *cr, WsInstrInst *inst);

G_END_DECLS
