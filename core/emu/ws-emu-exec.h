/* ws-emu-exec.h: execution state shared by the launcher and the interpreter. */
#pragma once

#include "emu/ws-emu-private.h"

/* One SIMT stack entry; run_ahead marks the lanes a polling loop let run
 * ahead of it (the spin rule, spin_run_ahead in ws-emu-exec.c). */
typedef struct {
  uint32_t pc, rpc, mask, run_ahead;
} Simt;

typedef struct {
  const EFunc *fn;
  uint32_t simt_base; /* SIMT stack depth below this frame's entries */
  uint32_t call;      /* call index in the caller (for the return values) */
  uint32_t mask;      /* lanes that entered */
  uint32_t returned;  /* lanes that executed ret in this frame */
  size_t reg_off, pred_off;
  uint32_t local_base;
} Frame;

enum { WARP_RUN, WARP_BAR, WARP_DONE };

typedef struct {
  uint32_t index;
  uint32_t valid, exited, live, carry;
  int state;
  Simt *simt;
  uint32_t sp, simt_cap;
  Frame *frames;
  uint32_t nframes, frames_cap;
  uint64_t *rstack;
  size_t rtop, rcap;
  uint32_t *pstack;
  size_t ptop, pcap;
  uint64_t *regs;
  uint32_t *preds;
  const EFunc *fn;
  const EInst *code;
  const uint64_t *bases[3];
  uint32_t local_base;
  uint64_t icount;
  uint64_t cache_lo, cache_hi;
  uint32_t spin_count; /* taken iterations of polling loops since the last yield */
  uint32_t spin_polls; /* polling-loop branches run (paces yields to other workers) */
  uint32_t mbar_polls; /* mbarrier waits found incomplete since the last sibling switch */
  /* barrier wait */
  uint32_t bar_id, bar_dst, bar_mask;
  int bar_red; /* 0 none, else WS_SUB_RED_* */
  /* Lanes let run ahead of a polling loop that reached a barrier before the
   * polling lanes (Volta+ barriers count threads, not warps): their SIMT
   * entry, set aside until the barrier opens (bar_held_mask 0: none). */
  uint32_t bar_held_pc, bar_held_rpc, bar_held_mask;
  /* --memcheck (synccheck): live lanes that were elsewhere when the others
   * of the warp waited at the barrier of PTX line bar_divergent_line; reaching a
   * barrier before they exit is a divergent __syncthreads(). */
  uint32_t bar_divergent_mask, bar_divergent_line;
  uint64_t sregs[SR_COUNT * WS_EMU_WARP];
} Warp;

typedef struct _Launch Launch;

typedef struct {
  Launch *L;
  uint32_t ctaid[3];
  uint64_t linear;
  uint8_t *shared;
  uint32_t shared_size;   /* user shared memory + the reserved region */
  uint32_t shared_user;   /* static + dynamic shared memory of the launch */
  uint32_t shared_window; /* shared_size rounded to WS_EMU_SMEM_UNIT: allocated, reachable unnoticed */
  uint8_t *local;
  uint32_t stack;        /* bytes of each thread's frames (the valid local range) */
  uint32_t local_stride; /* bytes per thread in @local (>= stack): reachable unnoticed */
  Warp *warps;
  uint32_t nwarps;
  WsTraceCta *trace;
  GString *out;
  uint64_t winst, tinst, budget_chunk;
  uint32_t bar_arrived[16];
  uint32_t bar_count[16];
  uint32_t bar_red_acc[16];
  uint64_t addrs[WS_EMU_WARP];
  /* first fault in this CTA */
  gboolean faulted;
  /* an invalid access the hardware would not notice, in the instruction
   * being executed: lanes and the first lane's address (memcheck off) */
  uint32_t tol_lanes;
  int tol_lane, tol_space;
  uint64_t tol_addr;
  struct _WsEmuInstrCta *instr; /* instrumentation state; NULL without tools */
  uint32_t child_seq;           /* device-side launches made by this block */
} Cta;

struct _Launch {
  WsEmu *emu;
  WsEmuFunction *k;
  uint32_t grid[3], block[3], dyn;
  uint64_t ncta;
  uint32_t nthreads, nwarps;
  uint8_t *params;
  uint32_t param_bytes;
  const WsDevAlloc *table;
  guint ntable;
  WsTraceWriter *trace;
  gint64 next_cta;             /* atomic */
  gint abort;                  /* atomic */
  guint64 budget, budget_used; /* atomic used */
  GMutex lock;
  /* fault (lowest CTA wins when several fault; every one is kept) */
  gboolean faulted;
  uint64_t fault_cta;
  char *fault_msg;
  WsCudaError cuda_error; /* of the first fault */
  GPtrArray *faults;      /* FaultRecord* of every CTA that faulted (under lock) */
  gint64 deadline;        /* monotonic µs when the watchdog ends the launch; 0 = none */
  GArray *invalid;        /* WsEmuInvalidAccess of this launch (under lock) */
  GPtrArray *outputs;     /* PrintfOut*, sorted at the end */
  guint64 winst, tinst;   /* atomic sums */
  guint helpers_running;  /* pool workers not finished (under lock) */
  GCond done;
  uint64_t gridid;
  struct _WsInstrRun *instr; /* instrumentation of this launch; NULL without tools */
  GArray *children;          /* EmuChildLaunch: device-side launches (under lock), run after this grid */
  gboolean cooperative;      /* every CTA has its own worker thread (grid-wide barriers) */
  gboolean threaded;         /* more than one worker thread runs the CTAs */
  uint64_t grid_workspace;   /* cooperative: zeroed device memory for the grid barrier */
};

/* A kernel launched from the device (CUDA dynamic parallelism): its
 * parameter buffer lives in the device heap, after a header saying what to
 * launch.  Children run when the launching grid has finished, in (block,
 * launch order) order: a legal schedule, since a CDP2 parent cannot wait
 * for its children. */
typedef struct {
  uint32_t fn; /* module function index (an entry) */
  uint32_t grid[3], block[3], shared;
} EmuChildHeader;
#define WS_EMU_CHILD_HEADER 64u /* bytes before the parameters (keeps their alignment) */

typedef struct {
  uint64_t cta;    /* linear index of the launching block */
  uint32_t seq;    /* launch order within that block */
  uint64_t buffer; /* parameter buffer (header before it) */
} EmuChildLaunch;

void ws_emu_run_cta (Cta *c);
void ws_emu_fault (Cta *c, Warp *w, uint32_t pc, int lane, WsCudaError cuda_error, const char *fmt, ...)
  G_GNUC_PRINTF (6, 7);
/* Records an invalid access the hardware would not notice (memcheck off). */
void ws_emu_record_invalid (Cta *c, Warp *w, uint32_t pc, int lane, const char *access, const char *space,
                            uint32_t size, uint64_t address, uint32_t lanes, char *detail);
uint64_t ws_emu_heap_alloc (WsEmu *emu, uint64_t size);
void ws_emu_heap_free (WsEmu *emu, uint64_t addr);
