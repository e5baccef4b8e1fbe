/* ws-hw.h: hardware catalogue records (GPU, CPU, link) as plain C structs.
 *
 * These structs are the contract between the catalogue (store, JSON
 * import/export) and every consumer (occupancy calculator, emulator device
 * properties, predictors, simulator, system model).  Units are in the field
 * names' comments; sizes in bytes, clocks in MHz, latencies in core cycles
 * unless stated. */
#pragma once

#include "base/ws-base.h"
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

typedef enum {
  WS_HW_GPU,
  WS_HW_CPU,
  WS_HW_LINK,
} WsHwKind;

/* Instruction classes with their own latency and initiation interval. */
typedef enum {
  WS_ICLASS_FP32,
  WS_ICLASS_INT,
  WS_ICLASS_SFU,
  WS_ICLASS_FP64,
  WS_ICLASS_TENSOR,
  WS_ICLASS_SHARED, /* shared-memory load/store */
  WS_ICLASS_GLOBAL, /* global-memory load/store issue (latency = unloaded DRAM path) */
  WS_ICLASS_BRANCH,
  WS_ICLASS_COUNT
} WsIClass;

typedef struct {
  double latency;             /* cycles from issue to result */
  double initiation_interval; /* cycles between two warp instructions of this class on one SM sub-partition (gap) */
} WsPipe;

typedef struct {
  char *name;             /* unique catalogue name, e.g. "GTX 970" */
  char *vendor;           /* "NVIDIA" */
  char *architecture;     /* "Fermi", "Kepler", "Maxwell", "Pascal", "Volta", "Ampere", "Ada", "Hopper" */
  int cc_major, cc_minor; /* compute capability */
  int sms;                /* streaming multiprocessors */
  double core_clock_mhz;  /* boost/typical core clock used for timing */
  int cuda_cores_per_sm;  /* FP32 lanes per SM */
  int fp64_units_per_sm;
  int sfu_units_per_sm;
  int ldst_units_per_sm;
  int tensor_cores_per_sm;
  int warp_schedulers_per_sm;
  int issue_width; /* instructions a scheduler can issue per cycle */
  int warp_size;   /* 32 */
  int max_warps_per_sm;
  int max_blocks_per_sm;
  int max_threads_per_block;
  int registers_per_sm; /* 32-bit registers */
  int max_registers_per_thread;
  int max_registers_per_block;
  int register_alloc_unit;       /* registers, per-warp allocation granularity (256) */
  int shared_per_sm;             /* bytes, max configurable shared memory per SM */
  int shared_per_block;          /* bytes, default static limit (48 KiB) */
  int shared_per_block_optin;    /* bytes, opt-in limit */
  int shared_alloc_unit;         /* bytes */
  int shared_reserved_per_block; /* bytes reserved by the system per block (1 KiB from cc 8.0) */
  int l1_size;                   /* bytes */
  int l1_line;                   /* bytes */
  int l1_sector;                 /* bytes */
  int l1_assoc;
  /* Memory latencies (l1_latency, l2_latency, dram_latency): each is the
   * unloaded load-to-use time of a dependent global load served by that
   * level, in core cycles from the load's issue to the issue of the
   * instruction that uses its result: the per-load time of one warp
   * chasing pointers through a footprint resident in that level (the
   * published pointer-chase figures; for DRAM every load opens a new row,
   * as a random chase over a large footprint does).  It is the TOTAL of
   * the path: the simulator splits it into its stages (L1 data pipe,
   * interconnect, L2 tag/data, DRAM row/column/burst) so that their
   * unloaded sum is this figure, and never adds a stage on top of it; the
   * analytical models (cache-simulation AMAT, GPUMech, AKE) use it as the
   * hit latency of that level as it is.  tests/sim checks the rule. */
  double l1_latency;                 /* cycles, L1 hit, load to use */
  int l1_mshrs;                      /* per SM */
  double l1_bandwidth_bytes_per_clk; /* peak L1/shared load bandwidth per SM, bytes per core clock; 0 = unknown */
  int l2_size;                       /* bytes, whole chip */
  int l2_line;
  int l2_assoc;
  double l2_latency; /* cycles, L1 miss that hits the L2, load to use */
  int l2_slices;
  double l2_bandwidth_bytes_per_clk; /* peak L2 bandwidth of the whole chip, bytes per core clock; 0 = unknown.
                                      * A true peak (never below the hardware's): it feeds lower bounds on time. */
  char *dram_type;                   /* "GDDR5", "HBM2", ... */
  double dram_clock_mhz;
  int dram_bus_width_bits;
  double dram_data_rate;     /* transfers per clock */
  double dram_bandwidth_gbs; /* GB/s (1e9 bytes/s) */
  double dram_latency;       /* cycles, L1 and L2 miss opening a DRAM row, load to use (unloaded) */
  int dram_channels;
  int dram_banks; /* per channel */
  WsPipe pipes[WS_ICLASS_COUNT];
  double tdp_watts;
  double die_area_mm2; /* area of the GPU die, mm²; 0 = unknown */
  int pcie_gen;
  int pcie_lanes;
  double memory_gb; /* device memory size, GB */
  /* Kernel launch costs (core/launchcost), microseconds; 0 = unknown (no
   * cost charged).  interval: the shortest time per launch of back-to-back
   * (null) kernels in that mode, set by the host submission path and the
   * GPU front end; gap: device time from a kernel's end to the start of the
   * next kernel that depends on it. */
  double launch_interval_us; /* launches issued one by one on one stream */
  double launch_gap_us;
  double graph_launch_interval_us; /* kernel nodes of a straight-line CUDA graph */
  double graph_launch_gap_us;
  /* Thread-block start (core/sim, the predictor plugins), core cycles; 0 =
   * not modelled.  An SM starts one block at a time: at most one block per
   * this many cycles per SM, however small the blocks. */
  double block_launch_cycles;
  char *sources; /* where the values come from (free text) */
} WsGpu;

typedef struct {
  char *name;
  char *vendor;
  char *model;
  int cores;
  double clock_mhz;
  double gflops; /* peak FLOP rate, GFLOP/s */
  char *sources;
} WsCpu;

typedef struct {
  char *name;
  char *type; /* "PCIe", "NVLink", "Network" */
  /* seed 004 eq. 4.6, per direction: t = startup + bytes / (bandwidth * lambda) */
  double h2d_bandwidth_gbs;
  double h2d_startup_us;
  double h2d_lambda;
  double d2h_bandwidth_gbs;
  double d2h_startup_us;
  double d2h_lambda;
  char *sources;
} WsLink;

WS_EXPORT void ws_gpu_free (WsGpu *gpu);
WS_EXPORT WsGpu *ws_gpu_copy (const WsGpu *gpu);
WS_EXPORT void ws_cpu_free (WsCpu *cpu);
WS_EXPORT void ws_link_free (WsLink *link);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsGpu, ws_gpu_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsCpu, ws_cpu_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsLink, ws_link_free)

/* Derived figures. */
WS_EXPORT double ws_gpu_peak_fp32_gflops (const WsGpu *gpu);
WS_EXPORT double ws_gpu_peak_fp64_gflops (const WsGpu *gpu);
/* Bytes per core clock one L2 slice is taken to serve where the record has
 * no published L2 bandwidth (Hopper, Ada, GA10x, Turing): GA100's 64 B/clk
 * (A100 whitepaper: 5120 B/clk over 80 slices; twice V100's 2048 over 64),
 * the newest per-slice figure NVIDIA has published.  A modelling
 * assumption, not a peak: the physical lower bound takes twice it. */
#define WS_GPU_L2_SLICE_BYTES_PER_CLK_ASSUMED 64.0
/* The L2 bandwidth (bytes per core clock, whole chip) the simulator and the
 * models run at: the record's l2_bandwidth_bytes_per_clk, else l2_slices x
 * WS_GPU_L2_SLICE_BYTES_PER_CLK_ASSUMED; 0 when neither is known.  Plugins
 * read it as gpu_param "l2_model_bytes_per_clk". */
WS_EXPORT double ws_gpu_l2_model_bytes_per_clk (const WsGpu *gpu);
WS_EXPORT const char *ws_iclass_name (WsIClass c);
/* The instruction class as a display label, e.g. "FP32 arithmetic"
 * (untranslated, marked with N_(); translate with ws_hw_text). */
WS_EXPORT const char *ws_iclass_label (WsIClass c);

/* Kind names as they appear in JSON ("kind") and on the command line. */
WS_EXPORT const char *ws_hw_kind_name (WsHwKind kind); /* "gpu", "cpu", "link" */
WS_EXPORT gboolean ws_hw_kind_from_string (const char *s, WsHwKind *out);

/* Field descriptions: one row per scalar field of a record, in display order.
 * This table is the one owner of the catalogue schema: JSON import/export
 * and its validation, the store, the CLI (`hw show`), the GUI Hardware page
 * (parameter groups, editor, comparison grid) and the predictor workers walk
 * it, so a new struct field needs one row here and nothing else.
 *
 * Texts (label, group, unit, help) are untranslated and marked with N_() in
 * ws-hw.c under the "warpscope" domain; views translate them with
 * ws_hw_text(), so every view shows the same words. */
typedef enum {
  WS_HW_FIELD_STRING,
  WS_HW_FIELD_INT,
  WS_HW_FIELD_DOUBLE,
} WsHwFieldType;

/* How a value is best shown; each view renders the hint in its own style
 * (the GUI with the locale's decimal separator and plural forms, the CLI
 * with exact numbers). */
typedef enum {
  WS_HW_FORMAT_TEXT,      /* a short string */
  WS_HW_FORMAT_PARAGRAPH, /* free text shown apart (sources) */
  WS_HW_FORMAT_COUNT,     /* an integer, unit appended */
  WS_HW_FORMAT_QUANTITY,  /* a number with at most `decimals` decimals, unit appended */
  WS_HW_FORMAT_CLOCK,     /* a frequency in MHz */
  WS_HW_FORMAT_BYTES,     /* a size in bytes, shown in binary units (KiB, MiB) */
  WS_HW_FORMAT_CYCLES,    /* a time in core clock cycles */
  WS_HW_FORMAT_VERSION,   /* major.minor (compute capability) */
} WsHwFormat;

typedef enum {
  WS_HW_FIELD_FLAGS_NONE = 0,
  /* A headline figure: one of the rows of the GUI comparison grid. */
  WS_HW_FIELD_KEY_FIGURE = 1 << 0,
} WsHwFieldFlags;

typedef struct {
  const char *name; /* JSON key, e.g. "core_clock_mhz"; also the row id in every view */
  WsHwFieldType type;
  gsize offset;      /* into WsGpu / WsCpu / WsLink */
  double min, max;   /* allowed range (inclusive) for numbers */
  gboolean required; /* FALSE: may be absent; a number then reads 0, "unknown" */
  const char *unit;  /* "MHz", "bytes", "cycles", ... or "" (N_()) */
  const char *group; /* display group, e.g. "L1 cache" (N_()) */
  const char *label; /* human label, e.g. "Core clock" (N_()) */
  WsHwFormat format; /* display hint */
  guint decimals;    /* most decimals worth showing (QUANTITY, CLOCK) */
  WsHwFieldFlags flags;
  const char *help; /* one or two sentences: meaning and where values come from (N_()) */
} WsHwField;

WS_EXPORT const WsHwField *ws_hw_fields (WsHwKind kind, guint *n_fields);
/* The field named @name (its JSON key) of @kind, or NULL. */
WS_EXPORT const WsHwField *ws_hw_field_find (WsHwKind kind, const char *name);
/* A field's number as a double (ints widened); 0 for strings. */
WS_EXPORT double ws_hw_field_get_number (const WsHwField *field, const void *record);
/* A field's string, or NULL (numbers and unset strings). */
WS_EXPORT const char *ws_hw_field_get_string (const WsHwField *field, const void *record);
/* TRUE when an optional number holds 0, the catalogue's "no published value". */
WS_EXPORT gboolean ws_hw_field_is_unknown (const WsHwField *field, const void *record);
/* Translates a label, group, unit or help text of these tables ("" stays ""). */
WS_EXPORT const char *ws_hw_text (const char *msgid);

/* Derived quantities: figures computed from a record's fields (peak FP32,
 * ridge point...), owned here so that every view shows the same value under
 * the same label.  compute() returns NAN where the figure is undefined for
 * the record (an optional input unknown, a division by zero). */
typedef struct {
  const char *name;  /* key, e.g. "peak_fp32_gflops" (as in `hw list --json`) */
  const char *unit;  /* N_() */
  const char *label; /* N_() */
  WsHwFormat format;
  guint decimals;
  WsHwFieldFlags flags;
  const char *help; /* N_(): the formula */
  double (*compute) (const void *record);
} WsHwDerived;

/* The derived rows of @kind (none for CPUs and links today), in display order. */
WS_EXPORT const WsHwDerived *ws_hw_derived (WsHwKind kind, guint *n_derived);
WS_EXPORT const WsHwDerived *ws_hw_derived_find (WsHwKind kind, const char *name);
/* The group title under which views list the derived rows (untranslated). */
WS_EXPORT const char *ws_hw_derived_group (void);
/* Pipe (instruction class) limits used by the JSON validation. */
#define WS_PIPE_MAX_LATENCY 100000.0
#define WS_PIPE_MAX_II 10000.0

/* JSON (the `hw import/export` format); import validates every field and
 * reports unknown field / missing field / value out of range by name. */
WS_EXPORT JsonNode *ws_gpu_to_json (const WsGpu *gpu);
WS_EXPORT WsGpu *ws_gpu_from_json (JsonNode *node, GError **error);
WS_EXPORT JsonNode *ws_cpu_to_json (const WsCpu *cpu);
WS_EXPORT WsCpu *ws_cpu_from_json (JsonNode *node, GError **error);
WS_EXPORT JsonNode *ws_link_to_json (const WsLink *link);
WS_EXPORT WsLink *ws_link_from_json (JsonNode *node, GError **error);
/* Reads the "kind" member of a record object (default: absent -> FALSE). */
WS_EXPORT gboolean ws_hw_json_get_kind (JsonNode *node, WsHwKind *out, GError **error);
WS_EXPORT WsCpu *ws_cpu_copy (const WsCpu *cpu);
/* Serialises JSON like json_generator_to_data() but writes each number in
 * its shortest form that reads back to the same double (15.8, not
 * 15.800000000000001), so exported files stay readable and hand-editable. */
WS_EXPORT char *ws_hw_json_to_data (JsonNode *node, gboolean pretty);
WS_EXPORT WsLink *ws_link_copy (const WsLink *link);

G_END_DECLS
