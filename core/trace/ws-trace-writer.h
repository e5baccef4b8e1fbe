/* ws-trace-writer.h: recording a hardware-independent trace.
 *
 * CONTRACT between the trace module (core/trace, owner) and the emulator,
 * which calls these while it runs.  A CTA is recorded into its own
 * WsTraceCta buffer by whichever worker thread runs it; finished CTAs are
 * merged in CTA order, so a parallel run writes the same bytes as a serial
 * one.  The per-instruction calls are on the emulator's hot path: they only
 * append to a per-warp buffer (no allocation in the common case, no locks). */
#pragma once

#include "base/ws-base.h"

G_BEGIN_DECLS

typedef struct _WsTraceWriter WsTraceWriter;
typedef struct _WsTraceCta WsTraceCta;

/* Static description of one instruction of a kernel (hardware independent). */
typedef struct {
  uint32_t ptx_line;
  uint32_t src_line;
  uint8_t op;          /* WsPtxOp */
  uint8_t opclass;     /* WsOpClass */
  uint8_t space;       /* WsPtxSpace of memory instructions (GENERIC resolved per access) */
  uint8_t access_size; /* bytes per lane of a memory access (vector included) */
  uint8_t n_dst, n_src;
  uint16_t dst[2]; /* register slots written (0xffff = none) */
  uint16_t src[4]; /* register slots read */
  uint8_t is_conditional_branch;
  uint8_t is_barrier;
} WsTraceStaticInst;

typedef struct {
  const char *name; /* mangled kernel name */
  const char *ptx;  /* PTX text of the module (may be shared by kernels) */
  guint n_insts;
  const WsTraceStaticInst *insts;
  uint32_t regs_per_thread; /* ptxas -v, or estimated */
  uint32_t static_shared_bytes;
  uint32_t local_bytes;
  gboolean resources_from_ptxas;
} WsTraceKernelDesc;

WS_EXPORT WsTraceWriter *ws_trace_writer_new (const char *path, GError **error);
/* Finishes the file (index, footer) and frees the writer. */
WS_EXPORT gboolean ws_trace_writer_close (WsTraceWriter *writer, GError **error);

/* Returns the kernel's index in the trace (same desc name -> same index). */
WS_EXPORT uint32_t ws_trace_writer_add_kernel (WsTraceWriter *writer, const WsTraceKernelDesc *desc);

WS_EXPORT void ws_trace_writer_begin_launch (WsTraceWriter *writer, uint32_t kernel, const uint32_t grid[3],
                                             const uint32_t block[3], uint32_t dynamic_shared_bytes);
/* CTA buffers; thread-safe to call from worker threads. @cta_linear is the
 * linear block id (x fastest). */
WS_EXPORT WsTraceCta *ws_trace_cta_begin (WsTraceWriter *writer, uint64_t cta_linear, uint32_t n_warps);
/* Per-warp record buffer.  PRIVATE to core/trace: it is here only so that
 * ws_trace_cta_inst_fast can be inline; never touch the fields. */
typedef struct {
  uint8_t *data;
  size_t len;
  size_t cap;
  uint32_t last_id;
  uint32_t last_mask;
  uint32_t last_popcount;
  uint64_t n_records;
  uint64_t thread_insts;
  uint64_t base_valid; /* bit i: base_table[i] written since the CTA began (else it reads 0) */
  uint64_t base_table[64];
} WsTraceWarpBuf;

typedef struct {
  WsTraceWarpBuf *warps; /* first member of every WsTraceCta */
} WsTraceCtaHead;

/* Exactly one of ws_trace_cta_inst / _mem / _barrier(_mask) per executed
 * warp instruction, in the warp's program order; @warp < n_warps and
 * @static_id < the kernel's n_insts (not checked on this hot path).
 * A CTA buffer is used by one thread at a time.
 * One executed warp instruction (active mask = lanes that executed it). */
WS_EXPORT void ws_trace_cta_inst (WsTraceCta *cta, uint32_t warp, uint32_t static_id, uint32_t active_mask);
/* The same as ws_trace_cta_inst, inline: the common record (the next
 * instruction, same mask) is one byte appended here; anything else calls
 * ws_trace_cta_inst.  For the emulator's hot loop. */
static inline void
ws_trace_cta_inst_fast (WsTraceCta *cta, uint32_t warp, uint32_t static_id, uint32_t active_mask)
{
  WsTraceWarpBuf *wb = &((WsTraceCtaHead *) cta)->warps[warp];
  if (G_LIKELY (static_id == wb->last_id + 1u && active_mask == wb->last_mask && wb->len < wb->cap))
    {
      wb->data[wb->len++] = 0; /* kind INST, mask unchanged, id code 0 */
      wb->last_id = static_id;
      wb->n_records++;
      wb->thread_insts += wb->last_popcount;
      return;
    }
  ws_trace_cta_inst (cta, warp, static_id, active_mask);
}

/* One executed memory instruction with the address of each active lane
 * (addrs[lane] valid for lanes in active_mask). @space: resolved state space. */
WS_EXPORT void ws_trace_cta_mem (WsTraceCta *cta, uint32_t warp, uint32_t static_id, uint32_t active_mask,
                                 uint8_t space, const uint64_t *addrs);
/* A barrier reached by a warp (bar.sync): records the barrier instruction
 * itself (call it instead of ws_trace_cta_inst for that instruction) with
 * the warp's previously recorded active mask.  Prefer
 * ws_trace_cta_barrier_mask, which takes the mask explicitly. */
WS_EXPORT void ws_trace_cta_barrier (WsTraceCta *cta, uint32_t warp, uint32_t static_id);
/* The same with the lanes that executed the barrier instruction. */
WS_EXPORT void ws_trace_cta_barrier_mask (WsTraceCta *cta, uint32_t warp, uint32_t static_id, uint32_t active_mask);
/* Hands the CTA to the writer (compresses its chunk; merges in order). */
WS_EXPORT void ws_trace_cta_end (WsTraceCta *cta);
/* Marks the launch being recorded incomplete (flag bit 0, read back as
 * WsTraceLaunch.complete == FALSE): it faulted or the watchdog ended it, so
 * some of its blocks stopped early even when all of them were recorded.
 * Call before ws_trace_writer_end_launch. */
WS_EXPORT void ws_trace_writer_mark_launch_faulted (WsTraceWriter *writer);
WS_EXPORT gboolean ws_trace_writer_end_launch (WsTraceWriter *writer, GError **error);

/* Totals so far (for summaries and benchmarks); bytes = bytes written to the
 * file up to now (the metadata sections are written by close). */
typedef struct {
  uint64_t launches;
  uint64_t thread_blocks;
  uint64_t warp_instructions;
  uint64_t thread_instructions;
  uint64_t bytes;
} WsTraceWriterStats;
WS_EXPORT void ws_trace_writer_get_stats (WsTraceWriter *writer, WsTraceWriterStats *stats);
/* zstd level of the chunks (default -2; higher is smaller and slower,
 * negative levels faster still). */
WS_EXPORT void ws_trace_writer_set_level (WsTraceWriter *writer, int level);
/* Consecutive TBs share a compressed chunk until their streams reach
 * @bytes (default 32 KiB; 0 = one chunk per TB).  Reading one TB decodes
 * its chunk only.  Call between launches. */
WS_EXPORT void ws_trace_writer_set_chunk_bytes (WsTraceWriter *writer, gsize bytes);

G_END_DECLS
