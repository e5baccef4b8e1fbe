/* ws-trace.h: reading a Warpscope trace (format: docs/trace-format.md).
 *
 * A WsTrace is opened once (the file is memory-mapped and every section is
 * validated); kernels, launches and per-TB counters are then plain arrays.
 * A thread block's per-warp streams are decompressed on demand with
 * ws_trace_read_tb, independently of every other TB, and walked record by
 * record with a WsTraceWarpIter (no allocation per record) or decoded into
 * arrays with ws_trace_tb_decode_warp.  A WsTrace may be shared by threads;
 * each WsTraceTb and iterator belongs to one thread at a time.
 *
 * Damaged files give WS_ERROR_CORRUPT naming the section and byte offset;
 * a file from a newer format version gives WS_ERROR_UNSUPPORTED. */
#pragma once

#include "base/ws-base.h"
#include "trace/ws-trace-writer.h"
#include "trace/ws-trace-lowering.h"

G_BEGIN_DECLS

typedef struct _WsTrace WsTrace;
typedef struct _WsTraceTb WsTraceTb;

typedef struct {
  const char *name;
  const char *ptx; /* PTX text of the kernel's module, or NULL */
  guint n_insts;
  const WsTraceStaticInst *insts;
  uint32_t regs_per_thread;
  uint32_t static_shared_bytes;
  uint32_t local_bytes;
  gboolean resources_from_ptxas;
  /* What issues on the GPU (ws-trace-lowering.h), computed at open from the
   * PTX text: per static instruction a WsTraceLowering, and the
   * instructions as issued (absorbed ones read and write nothing; an FMA
   * reads its absorbed mul's sources).  Timing and counting code walks
   * records, skips those whose lowering does not issue, and takes register
   * dependences from @machine. */
  const uint8_t *lowering;
  const WsTraceStaticInst *machine;
  guint n_absorbed; /* static instructions that issue nothing */
  /* Rule 3 (loads issued early): WS_TRACE_SCHEDULE_* flags per static
   * instruction, or NULL when no load moves.  The warp iterator applies
   * them: records come in the order the machine code issues them. */
  const uint8_t *schedule;
  guint n_hoisted; /* static loads that issue ahead of an earlier instruction */
} WsTraceKernel;

/* TRUE when static instruction @id of @k issues a machine instruction. */
static inline gboolean
ws_trace_kernel_issues (const WsTraceKernel *k, uint32_t id)
{
  return id >= k->n_insts || ws_trace_lowering_issues (k->lowering[id]);
}

typedef struct {
  uint32_t kernel; /* index for ws_trace_get_kernel */
  uint32_t grid[3];
  uint32_t block[3];
  uint32_t dynamic_shared_bytes;
  uint32_t warps_per_tb;
  gboolean complete; /* FALSE: the launch faulted or was stopped (watchdog, instruction
                                  * budget) under the emulator, or some TBs were never recorded */
  uint64_t n_tbs;
  uint64_t thread_instructions;
  uint64_t warp_instructions;
  uint64_t memory_requests; /* 32-byte sectors of global + local accesses, coalesced per warp instruction */
  uint64_t global_requests;
  uint64_t local_requests;
  uint64_t shared_accesses;          /* shared-memory warp instructions */
  uint64_t barriers;                 /* barrier warp instructions */
  uint64_t memory_instructions;      /* global + local memory warp instructions */
  double cov_tb_thread_instructions; /* population CoV of TB sizes in thread instructions (seed 000 eq. 2) */
  double cov_tb_warp_instructions;   /* the same in warp instructions */
  uint64_t stream_bytes;             /* compressed bytes of the launch's TB chunks */
} WsTraceLaunch;

typedef struct {
  uint64_t thread_instructions;
  uint64_t warp_instructions;
  uint64_t global_requests; /* 32-byte sectors */
  uint64_t local_requests;  /* 32-byte sectors */
  uint64_t shared_accesses;
  uint64_t barriers;
  uint64_t memory_instructions; /* global + local memory warp instructions */
  uint32_t n_warps;
  gboolean recorded; /* FALSE for a TB that never finished */
} WsTraceTbCounters;

WS_EXPORT WsTrace *ws_trace_open (const char *path, GError **error);
WS_EXPORT void ws_trace_free (WsTrace *trace);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsTrace, ws_trace_free)

WS_EXPORT const char *ws_trace_get_path (const WsTrace *trace);
WS_EXPORT uint32_t ws_trace_get_version (const WsTrace *trace);
WS_EXPORT uint64_t ws_trace_get_file_size (const WsTrace *trace);
/* Checks every recorded chunk's checksum and size (what ws_trace_open
 * leaves to the first read of each block): a damaged chunk is reported
 * with the file, offset, launch and block (WS_ERROR_CORRUPT).  @n_chunks
 * (may be NULL) receives how many chunks were checked. */
WS_EXPORT gboolean ws_trace_verify (WsTrace *trace, uint64_t *n_chunks, GError **error);

WS_EXPORT guint ws_trace_get_n_kernels (const WsTrace *trace);
WS_EXPORT const WsTraceKernel *ws_trace_get_kernel (const WsTrace *trace, guint index);

WS_EXPORT guint ws_trace_get_n_launches (const WsTrace *trace);
WS_EXPORT const WsTraceLaunch *ws_trace_get_launch (const WsTrace *trace, guint index);
/* The launch's TBs in linear block order (x fastest); @n_tbs may be NULL. */
WS_EXPORT const WsTraceTbCounters *ws_trace_get_tb_counters (const WsTrace *trace, guint launch, uint64_t *n_tbs);
/* A digest (32 hex digits, ws_hash128: fast, not for security) of everything launch @launch's
 * analysis can depend on: its kernel's instructions as recorded and as
 * issued (lowering and schedule included), its configuration and
 * counters, and per thread block its counters and the checksum, sizes and
 * position of the compressed data holding it -- not where in the file that
 * data lies.  Two launches with the same digest (the same kernel run again
 * on the same data, in this trace or another) recorded the same streams, so
 * their analyses on one GPU are the same; a different digest says nothing. */
WS_EXPORT char *ws_trace_launch_digest (const WsTrace *trace, guint launch);

/* Files of results computed from @trace (ws-trace-cache.c): the launch
 * analysis, the physical bound's counts.  They live in TRACE.analysis/
 * beside the trace (the user's cache folder when that cannot be written;
 * WARPSCOPE_ANALYSIS_CACHE=DIR puts them in DIR, =0 stores and reads
 * nothing) and are named by @kind, @key_text (everything the result
 * depends on besides the code: a launch digest, a GPU record) and the
 * build (ws_build_identity).  Load returns the payload of an intact file of
 * that name, else NULL; store writes one atomically, silently giving up
 * when it cannot. */
WS_EXPORT GBytes *ws_trace_cache_load (WsTrace *trace, const char *kind, const char *key_text);
WS_EXPORT void ws_trace_cache_store (WsTrace *trace, const char *kind, const char *key_text, const void *payload,
                                     gsize len);

/* Sum over all launches. */
WS_EXPORT uint64_t ws_trace_get_total_warp_instructions (const WsTrace *trace);

/* ---- per-warp dynamic streams ------------------------------------------ */

/* Decompresses one TB's chunk (only that chunk is read). */
WS_EXPORT WsTraceTb *ws_trace_read_tb (WsTrace *trace, guint launch, uint64_t tb, GError **error);
WS_EXPORT void ws_trace_tb_free (WsTraceTb *tb);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsTraceTb, ws_trace_tb_free)
WS_EXPORT guint ws_trace_tb_get_n_warps (const WsTraceTb *tb);
WS_EXPORT uint64_t ws_trace_tb_get_n_records (const WsTraceTb *tb, guint warp);

typedef enum {
  WS_TRACE_RECORD_INST = 0,    /* any non-memory, non-barrier instruction */
  WS_TRACE_RECORD_MEM = 1,     /* memory instruction, with lane addresses */
  WS_TRACE_RECORD_BARRIER = 2, /* bar.sync / barrier */
} WsTraceRecordKind;

typedef enum {
  WS_TRACE_ADDR_MODE_STRIDE = 0, /* addrs[lane] = base + lane * stride */
  WS_TRACE_ADDR_MODE_LANES = 1,  /* irregular: one delta per active lane */
  WS_TRACE_ADDR_MODE_PACKED = 2, /* irregular: bit-packed offsets from the lowest address */
} WsTraceAddrMode;

typedef struct {
  uint32_t static_id;
  uint32_t active_mask;
  uint8_t kind;       /* WsTraceRecordKind */
  uint8_t space;      /* MEM: resolved WsPtxSpace */
  uint8_t addr_mode;  /* MEM: WsTraceAddrMode */
  int64_t stride;     /* MEM in stride mode: bytes between neighbouring lanes */
  uint64_t addrs[32]; /* MEM: addrs[lane] for every lane in active_mask */
} WsTraceRecord;

/* Walks one warp's stream in the order the machine code issues it (the
 * kernel's schedule, ws-trace-lowering.h rule 3: a load may come before
 * arithmetic recorded ahead of it in its basic block); every record comes
 * exactly once.  Lives on the caller's stack; valid while its WsTraceTb
 * lives. */
typedef struct {
  /*< private >*/
  const uint8_t *start, *p, *end;
  uint64_t remaining;
  uint32_t last_id;
  uint32_t last_mask;
  uint32_t n_insts;
  uint32_t warp;
  uint32_t launch;
  uint64_t tb;
  uint64_t base_table[64];
  /* rule 3: arithmetic waiting behind later loads, and the record that
   * waits for them to drain */
  const uint8_t *schedule;
  uint32_t n_delayed, delayed_head;
  uint32_t draining; /* queued records still to come out before the held one */
  gboolean has_held;
  uint32_t delayed_id[WS_TRACE_SCHEDULE_QUEUE];
  uint32_t delayed_mask[WS_TRACE_SCHEDULE_QUEUE];
  WsTraceRecord held;
} WsTraceWarpIter;

WS_EXPORT void ws_trace_warp_iter_init (WsTraceWarpIter *iter, const WsTraceTb *tb, guint warp);
/* Fills @record with the next record and returns TRUE; returns FALSE at the
 * end of the stream (@error untouched) or on damaged data (@error set). */
WS_EXPORT gboolean ws_trace_warp_iter_next (WsTraceWarpIter *iter, WsTraceRecord *record, GError **error);

/* What reaches the L1 and the L2 of a block: calls @fn for every memory
 * record of @tb (a block of kernel @k) in the global, local or generic
 * space, warp by warp, each warp's records in issue order, with the
 * record's static instruction.  FALSE with @error set on damaged data. */
typedef void (*WsTraceAccessFn) (const WsTraceRecord *record, const WsTraceStaticInst *inst, void *data);
WS_EXPORT gboolean ws_trace_tb_foreach_global_access (const WsTraceTb *tb, const WsTraceKernel *k, WsTraceAccessFn fn,
                                                      void *data, GError **error);

/* A warp's whole stream as arrays.  Memory record i has its active lanes'
 * addresses (lane order) in addrs[addr_start[i] .. addr_start[i + 1]);
 * other records have an empty range. */
typedef struct {
  uint64_t n_records;
  uint32_t *static_ids;
  uint32_t *active_masks;
  uint8_t *kinds; /* WsTraceRecordKind */
  uint8_t *spaces;
  uint64_t *addr_start; /* n_records + 1 entries */
  uint64_t n_addrs;
  uint64_t *addrs;
} WsTraceWarpStream;

WS_EXPORT WsTraceWarpStream *ws_trace_tb_decode_warp (const WsTraceTb *tb, guint warp, GError **error);
WS_EXPORT void ws_trace_warp_stream_free (WsTraceWarpStream *stream);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsTraceWarpStream, ws_trace_warp_stream_free)

/* ---- TBPoint features (seed 000) ---------------------------------------- */

/* Seed 000 eq. 2: per launch, thread instructions, warp instructions and
 * memory requests each divided by its average over all launches, and the
 * CoV of TB sizes (thread instructions per TB).  An average of 0 gives 0. */
typedef struct {
  double thread_instructions;
  double warp_instructions;
  double memory_requests;
  double cov_tb_size;
} WsTraceInterFeatures;

/* Fills @features[0 .. n_launches). */
WS_EXPORT void ws_trace_get_inter_launch_features (const WsTrace *trace, WsTraceInterFeatures *features);

/* Seed 000 eq. 5, per TB: x/y with x = memory requests (global + local
 * sectors) and y = warp instructions (0 for an empty TB). */
WS_EXPORT double ws_trace_tb_stall_probability (const WsTraceTbCounters *tb);
/* Hardware-independent alternative bounded to [0, 1]: global/local memory
 * warp instructions / warp instructions. */
WS_EXPORT double ws_trace_tb_memory_fraction (const WsTraceTbCounters *tb);

typedef struct {
  uint64_t first_tb;
  uint64_t n_tbs;
  double stall_probability; /* eq. 5: mean over the epoch's TBs */
  double variation_factor;  /* eq. 5: max (CoV (X), CoV (Y)) */
} WsTraceEpoch;

/* Seed 000 eq. 4 and 5: the launch's TBs grouped in epochs of @occupancy
 * consecutive TBs (the last may be shorter) with their intra-feature and
 * variation factor.  @use_memory_fraction: use ws_trace_tb_memory_fraction
 * instead of the request ratio as the per-TB stall probability.  Returns the
 * number of epochs; *epochs is newly allocated (g_free). */
WS_EXPORT guint ws_trace_get_epochs (const WsTrace *trace, guint launch, guint occupancy, gboolean use_memory_fraction,
                                     WsTraceEpoch **epochs);

G_END_DECLS
