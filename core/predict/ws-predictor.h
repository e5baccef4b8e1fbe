/* ws-predictor.h: the ABI between Warpscope and predictor plugins.
 *
 * A predictor is a shared object exporting one symbol,
 *
 *     const WsPredictorDescriptor *ws_predictor_query (void);
 *
 * that returns a constant descriptor whose FIRST field is the ABI version.
 * The host reads a kernel launch and the GPU through the function table it
 * passes to predict(), and the plugin writes its results through the same
 * table: plugins never allocate or lay out host structures, and no structure
 * here has a fixed array, so the host can grow the table without breaking
 * compiled plugins.
 *
 * Versions:
 *  - WS_PREDICTOR_ABI_VERSION changes when the layout of the descriptor or
 *    the meaning of an existing function changes; the host refuses a plugin
 *    with another ABI ("please rebuild the plugin against this Warpscope").
 *  - WS_PREDICTOR_API_VERSION grows when functions are appended to
 *    WsPredictorHost; a plugin built for API n runs on any host with API >= n.
 *    A plugin that also wants to run on older hosts checks a function with
 *    WS_PREDICTOR_HOST_HAS (host, name) before calling it.
 *
 * API history: 1 first; 2 appends inst_wavefronts; 3 appends option_int to
 * the host table and flags, init and teardown to the descriptor (the host
 * reads those only from a descriptor whose api_version is 3 or more, so
 * plugins built for API 1 and 2 keep loading unchanged); 4 appends the
 * declared CPI categories to the descriptor (read only from api_version 4).
 *
 * Threads and processes (the host's contract, API 1 and later):
 *  - By default each plugin runs in a worker process of its own, supervised
 *    by the host: a crash, an abort, a time-out or a memory blow-up there is
 *    an error for that one prediction (naming plugin, kernel and signal) and
 *    the worker is started again for the next one.  Do not keep state that
 *    must survive between predictions: a worker may be replaced at any time.
 *  - The host never calls predict() of one plugin instance from two threads
 *    at once, unless the descriptor sets WS_PREDICTOR_FLAG_THREAD_SAFE
 *    (API 3).  An instance is one worker process, or, when plugins are
 *    loaded into the host (--in-process / WARPSCOPE_PLUGIN_IN_PROCESS=1,
 *    meant for debugging a plugin), the shared object in the host process.
 *  - init() (API 3, optional) runs once per instance before its first
 *    predict(), teardown() once after its last; they are never called
 *    concurrently with predict().
 *  - Everything the host returns (strings, cursors) belongs to the context
 *    of the current call and is valid until predict() returns.
 *
 * Instructions are machine instructions: the host applies the trace's
 * lowering (FMA contraction of mul + add, kernel parameters as constant-bank
 * operands; core/trace/ws-trace-lowering.h) before a plugin sees them.
 * Warp streams leave out the PTX instructions that issue nothing, an add
 * that absorbed a mul reports opcode "fma" and reads the mul's sources, and
 * the instruction counters count what issues (the recorded PTX counts are
 * the counters "ptx_warp_instructions" and "ptx_thread_instructions").
 *
 * Build a plugin out of tree with:
 *     cc -shared -fPIC $(pkg-config --cflags --libs warpscope-predictor) my-model.c -o my-model.so
 * and put it in ~/.local/share/warpscope/plugins or a folder listed in
 * WARPSCOPE_PLUGIN_PATH.  This header needs nothing but the C library. */
#ifndef WS_PREDICTOR_H
#define WS_PREDICTOR_H

#include <stdint.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define WS_PREDICTOR_ABI_VERSION 1
#define WS_PREDICTOR_API_VERSION 4
#define WS_PREDICTOR_QUERY_SYMBOL "ws_predictor_query"

#if defined(__GNUC__)
#define WS_PREDICTOR_EXPORT __attribute__ ((visibility ("default")))
#else
#define WS_PREDICTOR_EXPORT
#endif

/* The host's per-prediction context; opaque to plugins. */
typedef struct WsPredictorContext WsPredictorContext;

typedef enum {
  WS_PREDICTOR_OPTION_STRING = 0,
  WS_PREDICTOR_OPTION_INT = 1,
  WS_PREDICTOR_OPTION_DOUBLE = 2,
  WS_PREDICTOR_OPTION_BOOL = 3,
  WS_PREDICTOR_OPTION_CHOICE = 4, /* one of `choices`, '|'-separated */
} WsPredictorOptionType;

typedef struct {
  const char *name;          /* "variant" */
  int type;                  /* WsPredictorOptionType */
  const char *default_value; /* as text: "full", "1.0" */
  const char *choices;       /* CHOICE: "naive|markov|mt|mt_mshr|full"; else NULL */
  const char *help;
} WsPredictorOption;

/* Instruction classes as the host reports them. */
/* clang-format off */
typedef enum {
  WS_PRED_CLASS_ALU = 0, WS_PRED_CLASS_FP32, WS_PRED_CLASS_FP64, WS_PRED_CLASS_SFU,
  WS_PRED_CLASS_LD, WS_PRED_CLASS_ST, WS_PRED_CLASS_ATOM, WS_PRED_CLASS_BRANCH,
  WS_PRED_CLASS_BARRIER, WS_PRED_CLASS_WARP, WS_PRED_CLASS_OTHER,
} WsPredictorInstClass;
/* clang-format on */

/* clang-format off */
typedef enum {
  WS_PRED_SPACE_NONE = 0, WS_PRED_SPACE_GLOBAL, WS_PRED_SPACE_SHARED, WS_PRED_SPACE_LOCAL,
  WS_PRED_SPACE_CONST, WS_PRED_SPACE_PARAM, WS_PRED_SPACE_OTHER,
} WsPredictorSpace;
/* clang-format on */

/* One record of a warp's dynamic stream. */
typedef struct {
  uint32_t static_id;   /* index into the static instruction table */
  uint32_t active_mask; /* lanes that executed it */
  uint32_t sectors;     /* memory instructions: distinct 32-byte sectors touched (coalesced requests) */
  uint32_t lines;       /* memory instructions: distinct 128-byte lines touched */
} WsPredictorWarpRecord;

typedef struct WsPredictorWarpCursor WsPredictorWarpCursor;

/* The host's function table.  `size` is sizeof (WsPredictorHost) as the
 * host compiled it: a plugin may only call functions that lie inside it. */
typedef struct {
  uint32_t size;
  uint32_t api_version;

  /* -- the GPU ---------------------------------------------------------- */
  const char *(*gpu_name) (WsPredictorContext *ctx);
  /* A numeric GPU parameter by its catalogue field name ("sms",
   * "core_clock_mhz", "cuda_cores_per_sm", "warp_schedulers_per_sm",
   * "dram_clock_mhz", "dram_bus_width_bits", "dram_data_rate", "l1_latency",
   * "pipes.fp32.latency", "pipes.global.initiation_interval", ...:
   * the names of `warpscope-cli hw export`).  Returns
   * `fallback` when the GPU has no such field.  Derived by the host:
   * "l2_model_bytes_per_clk", the chip's L2 bandwidth in bytes per core
   * clock that the simulator uses too (the record's published figure, else
   * l2_slices x 64, GA100's per-slice rate; fallback when neither). */
  double (*gpu_param) (WsPredictorContext *ctx, const char *name, double fallback);

  /* -- options (validated by the host against the descriptor) ----------- */
  const char *(*option_string) (WsPredictorContext *ctx, const char *name);
  double (*option_double) (WsPredictorContext *ctx, const char *name);

  /* -- the launch ---------------------------------------------------------- */
  const char *(*kernel_name) (WsPredictorContext *ctx);
  /* 1 when the launch is an analytic kernel (explicit parameters, no trace). */
  int (*is_analytic) (WsPredictorContext *ctx);
  /* An analytic kernel's parameter ("grid_size", "block_size",
   * "cuda_core_instructions", "issued_instructions", "gmem_bytes",
   * "latency_bound", "occupancy_warps", "lambda"...); `fallback` if absent. */
  double (*analytic_param) (WsPredictorContext *ctx, const char *name, double fallback);
  void (*launch_dims) (WsPredictorContext *ctx, uint32_t grid[3], uint32_t block[3], uint32_t *dynamic_shared);
  /* Resources per thread/block as compiled (ptxas) or estimated. */
  void (*launch_resources) (WsPredictorContext *ctx, uint32_t *regs_per_thread, uint32_t *shared_per_block);
  /* Occupancy of this launch on this GPU (NVIDIA's rules). */
  void (*occupancy) (WsPredictorContext *ctx, int *blocks_per_sm, int *warps_per_sm, double *fraction);

  /* -- the static instruction table (trace launches) ----------------------- */
  uint32_t (*n_insts) (WsPredictorContext *ctx);
  int (*inst_class) (WsPredictorContext *ctx, uint32_t id);          /* WsPredictorInstClass */
  int (*inst_space) (WsPredictorContext *ctx, uint32_t id);          /* WsPredictorSpace */
  const char *(*inst_opcode) (WsPredictorContext *ctx, uint32_t id); /* PTX mnemonic: "fma" */
  uint32_t (*inst_n_srcs) (WsPredictorContext *ctx, uint32_t id);
  uint32_t (*inst_src) (WsPredictorContext *ctx, uint32_t id, uint32_t k); /* register slot */
  uint32_t (*inst_n_dsts) (WsPredictorContext *ctx, uint32_t id);
  uint32_t (*inst_dst) (WsPredictorContext *ctx, uint32_t id, uint32_t k);
  uint32_t (*inst_ptx_line) (WsPredictorContext *ctx, uint32_t id);

  /* -- thread blocks and warps (trace launches) ---------------------------- */
  uint64_t (*n_tbs) (WsPredictorContext *ctx);
  uint32_t (*warps_per_tb) (WsPredictorContext *ctx);
  /* A per-TB counter: "thread_instructions", "warp_instructions" (machine
   * instructions, see the top), "ptx_thread_instructions",
   * "ptx_warp_instructions" (as recorded), "global_requests",
   * "local_requests", "shared_accesses", "barriers", "memory_instructions",
   * and from the host's interval analysis "critical_warp_cycles" (the cycles
   * of the block's longest warp alone on an SM, GPUMech eq. 13/14, rounded
   * up; 0 where the host has none). */
  uint64_t (*tb_counter) (WsPredictorContext *ctx, uint64_t tb, const char *name);
  /* Totals over the launch: "thread_instructions", "warp_instructions"
   * (machine instructions), "ptx_thread_instructions",
   * "ptx_warp_instructions", "memory_requests" (32-byte sectors), "memory_instructions",
   * "shared_accesses", "barriers", and from the cache simulation
   * "dram_bytes", "l1_hits", "l2_hits", "dram_sectors". */
  uint64_t (*launch_counter) (WsPredictorContext *ctx, const char *name);
  /* Reads one warp's dynamic stream record by record (machine instructions). */
  WsPredictorWarpCursor *(*warp_open) (WsPredictorContext *ctx, uint64_t tb, uint32_t warp);
  int (*warp_next) (WsPredictorWarpCursor *cursor, WsPredictorWarpRecord *record); /* 1 = record, 0 = end */
  void (*warp_close) (WsPredictorWarpCursor *cursor);
  /* The representative warp chosen by the host (GPUMech §4.3: k-means, k=2, on
   * eq. 14/15 features; closest to the centre of the larger cluster). */
  void (*representative_warp) (WsPredictorContext *ctx, uint64_t *tb, uint32_t *warp);

  /* -- cache simulation (core's functional L1/L2, per GPU) ------------------ */
  /* Per static memory instruction: fraction of its requests that hit L1 / L2
   * and its average memory access time in cycles (seed 001 §4.5). */
  int (*inst_cache) (WsPredictorContext *ctx, uint32_t id, double *l1_hit_rate, double *l2_hit_rate, double *amat);
  /* The latency the host assigns to a static instruction on this GPU: the
   * catalogue's pipeline latency, or the AMAT for memory instructions. */
  double (*inst_latency) (WsPredictorContext *ctx, uint32_t id);
  /* The representative warp alone on an SM (GPUMech eq. 13/14): its
   * instructions and cycles, and its intervals one by one. */
  void (*representative_profile) (WsPredictorContext *ctx, uint64_t *insts, double *cycles, uint32_t *n_intervals);
  void (*representative_interval) (WsPredictorContext *ctx, uint32_t i, uint32_t *insts, double *stall_cycles,
                                   uint32_t *stall_inst);

  /* -- results ----------------------------------------------------------- */
  void (*set_cycles) (WsPredictorContext *ctx, double cycles);
  void (*set_seconds) (WsPredictorContext *ctx, double seconds);
  void (*set_ipc) (WsPredictorContext *ctx, double ipc);
  /* One CPI-stack category ("BASE", "DEP", "L1", "L2", "DRAM", "MSHR", "QUEUE"...). */
  void (*add_cpi) (WsPredictorContext *ctx, const char *category, double cpi);
  void (*set_metric) (WsPredictorContext *ctx, const char *name, double value);
  void (*warn) (WsPredictorContext *ctx, const char *message);
  /* Reports a failure of this prediction; predict() then returns non-zero. */
  void (*fail) (WsPredictorContext *ctx, const char *message);

  /* -- API 2 (check with WS_PREDICTOR_HOST_HAS (host, inst_wavefronts)) ---- */
  /* Trace launches: the average L1 or shared-memory data-stage wavefronts
   * of one execution of static instruction `id` in this launch on this GPU
   * (each wavefront is one cycle of the SM's L1 / shared data path, 32 banks
   * of 4 bytes returning 128 bytes).  Per execution, by the rule of the
   * physical lower bound (docs/bounds.md): the bank-conflict degree (the
   * most distinct 4-byte words in one bank) and at least active lanes x
   * access size / 128, so a float broadcast needs 1, a double broadcast 2,
   * odd float strides 1 and a stride of 2^k floats min (2^k, 32); a global
   * load also needs ceil (its 128-byte lines / 4), the L1 tag stage's
   * wavefronts (float stride 15: 4).  Counted are loads from global and
   * local memory and every shared-memory access; before Volta shared
   * accesses only (bank-conflict degree).  Returns 0 for an instruction that
   * is no memory access or never executed, and NAN where the host has no
   * figure (global stores and atomics, constant and parameter reads, global
   * loads before Volta, analytic kernels): count `lines` there. */
  double (*inst_wavefronts) (WsPredictorContext *ctx, uint32_t id);

  /* -- API 3 (check with WS_PREDICTOR_HOST_HAS (host, option_int)) --------- */
  /* An INT (or BOOL: 0/1) option's value, default filled in and validated by
   * the host; 0 for an unknown name. */
  int64_t (*option_int) (WsPredictorContext *ctx, const char *name);
} WsPredictorHost;

/* 1 when the host table @host has the function @name (a field of
 * WsPredictorHost): hosts older than the plugin's header have a smaller
 * table. */
/* clang-format off */
#define WS_PREDICTOR_HOST_HAS(host, name) \
  (offsetof (WsPredictorHost, name) + sizeof ((host)->name) <= (size_t) (host)->size)
/* clang-format on */

/* Descriptor flags (API 3). */
typedef enum {
  /* predict() may be called from several threads at once on one instance. */
  WS_PREDICTOR_FLAG_THREAD_SAFE = 1u << 0,
} WsPredictorFlags;

/* A CPI category the plugin reports with add_cpi (API 4).  Declared, the
 * host shows the plugin's stacks in this order, draws the category in the
 * colour given, lists the categories in `plugins list`, and warns when the
 * plugin reports a category it did not declare. */
typedef struct {
  const char *name;   /* as passed to add_cpi: "DRAM" */
  const char *colour; /* "#rrggbb", or NULL: the host's colour */
  const char *help;   /* what it counts, or NULL */
} WsPredictorCpiCategory;

typedef struct {
  uint32_t abi_version; /* WS_PREDICTOR_ABI_VERSION: always first */
  uint32_t api_version; /* WS_PREDICTOR_API_VERSION the plugin was built with */
  const char *name;     /* unique, e.g. "volkov" */
  const char *version;  /* the plugin's own version */
  const char *description;
  uint32_t n_options;
  const WsPredictorOption *options;
  /* Capabilities: 1 if the plugin can predict trace launches / analytic kernels. */
  uint32_t supports_trace;
  uint32_t supports_analytic;
  /* Returns 0 on success; non-zero after host->fail(). */
  int (*predict) (const WsPredictorHost *host, WsPredictorContext *ctx);

  /* -- API 3: read by the host only when api_version >= 3 ----------------- */
  uint32_t flags; /* WsPredictorFlags */
  /* Optional (NULL: none).  init() runs once per plugin instance before its
   * first predict(); it may call host->warn and host->fail (the other host
   * functions give their defaults there) and returns 0, or non-zero after
   * host->fail() (every prediction of the instance then fails with that
   * message).  teardown() runs once after the instance's last predict(). */
  int (*init) (const WsPredictorHost *host, WsPredictorContext *ctx);
  void (*teardown) (void);

  /* -- API 4: read by the host only when api_version >= 4 ----------------- */
  uint32_t n_cpi_categories; /* 0: undeclared (any names, in the order reported) */
  const WsPredictorCpiCategory *cpi_categories;
} WsPredictorDescriptor;

/* 1 when descriptor @d has the fields appended in API 3 (flags, init,
 * teardown).  The host uses it; a plugin always has them. */
#define WS_PREDICTOR_DESCRIPTOR_HAS_V3(d) ((d)->api_version >= 3)
/* 1 when descriptor @d has the CPI categories appended in API 4. */
#define WS_PREDICTOR_DESCRIPTOR_HAS_V4(d) ((d)->api_version >= 4)

typedef const WsPredictorDescriptor *(*WsPredictorQueryFunc) (void);

#ifdef __cplusplus
}
#endif
#endif /* WS_PREDICTOR_H */
