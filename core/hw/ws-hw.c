/* ws-hw.c: hardware catalogue records and their JSON form.
 *
 * One table of field descriptions per record kind drives everything:
 * copying strings, export, validated import and display with units.  The
 * import is strict on purpose: a catalogue entry with a misspelt field would
 * silently fall back to a default and skew every model that reads it. */
#define G_LOG_DOMAIN "ws-hw"

#include "hw/ws-hw.h"

#include <glib/gi18n-lib.h>

#include <math.h>
#include <string.h>

#define KiB 1024.0
#define MiB (1024.0 * 1024.0)

/* Row builders.  A row is the whole description of one field: JSON key,
 * type, range, unit, group, label, display hint, flags and help. */
/* clang-format off */
#define ROW(T, f, type, lo, hi, req, unit, fmt, dec, flags, grp, lbl, help) \
  { #f, type, G_STRUCT_OFFSET (T, f), lo, hi, req, unit, grp, lbl, fmt, dec, flags, help }
#define KEY WS_HW_FIELD_KEY_FIGURE
#define GPU_S(f, req, fmt, flags, grp, lbl, help) \
  ROW (WsGpu, f, WS_HW_FIELD_STRING, 0, 0, req, "", fmt, 0, flags, grp, lbl, help)
#define GPU_I(f, lo, hi, unit, fmt, flags, grp, lbl, help) \
  ROW (WsGpu, f, WS_HW_FIELD_INT, lo, hi, TRUE, unit, fmt, 0, flags, grp, lbl, help)
#define GPU_D(f, lo, hi, unit, fmt, dec, flags, grp, lbl, help) \
  ROW (WsGpu, f, WS_HW_FIELD_DOUBLE, lo, hi, TRUE, unit, fmt, dec, flags, grp, lbl, help)
/* clang-format on */
/* Optional numbers, added after the first catalogue release: absent in an
 * older exported file means 0, "unknown", so those files still import. */
/* clang-format off */
#define GPU_D_OPT(f, lo, hi, unit, fmt, dec, flags, grp, lbl, help) \
  ROW (WsGpu, f, WS_HW_FIELD_DOUBLE, lo, hi, FALSE, unit, fmt, dec, flags, grp, lbl, help)
/* clang-format on */

#define COUNT WS_HW_FORMAT_COUNT
#define QTY WS_HW_FORMAT_QUANTITY
#define CLOCK WS_HW_FORMAT_CLOCK
#define BYTES WS_HW_FORMAT_BYTES
#define CYCLES WS_HW_FORMAT_CYCLES
#define TEXT WS_HW_FORMAT_TEXT
#define PARAGRAPH WS_HW_FORMAT_PARAGRAPH

static const WsHwField gpu_fields[] = {
  GPU_S (name, TRUE, TEXT, 0, N_ ("General"), N_ ("Name"),
         N_ ("Unique catalogue name; systems, predictions and the command line refer to the GPU by it.")),
  GPU_S (vendor, TRUE, TEXT, 0, N_ ("General"), N_ ("Vendor"), N_ ("Maker of the GPU.")),
  GPU_S (architecture, TRUE, TEXT, KEY, N_ ("General"), N_ ("Architecture"),
         N_ ("Architecture generation, e.g. Maxwell, Ampere, Hopper.")),
  GPU_I (cc_major, 1, 12, "", COUNT, 0, N_ ("General"), N_ ("Compute capability (major)"),
         N_ ("Major CUDA compute capability; selects the occupancy and instruction rules.")),
  GPU_I (cc_minor, 0, 9, "", COUNT, 0, N_ ("General"), N_ ("Compute capability (minor)"),
         N_ ("Minor CUDA compute capability.")),
  GPU_D (memory_gb, 0.001, 100000, N_ ("GB"), QTY, 2, 0, N_ ("General"), N_ ("Device memory"),
         N_ ("Size of the device memory in GB (10⁹ bytes), as the datasheet gives it.")),
  GPU_D (tdp_watts, 1, 5000, N_ ("W"), QTY, 1, 0, N_ ("General"), N_ ("Thermal design power"),
         N_ ("Board power limit (TDP) from the datasheet.")),
  GPU_D_OPT (die_area_mm2, 0, 10000, N_ ("mm²"), QTY, 1, 0, N_ ("General"), N_ ("Die area"),
             N_ ("Area of the GPU die as the vendor's architecture whitepaper gives it (die size); 0 = unknown.")),
  GPU_I (pcie_gen, 1, 7, "", COUNT, 0, N_ ("General"), N_ ("PCIe generation"),
         N_ ("PCI Express generation of the host interface.")),
  GPU_I (pcie_lanes, 1, 32, N_ ("lanes"), COUNT, 0, N_ ("General"), N_ ("PCIe lanes"),
         N_ ("PCI Express lanes of the host interface.")),

  GPU_I (sms, 1, 1024, "", COUNT, KEY, N_ ("Compute"), N_ ("Streaming multiprocessors"),
         N_ ("Enabled streaming multiprocessors (SMs) of this product.")),
  GPU_D (core_clock_mhz, 1, 10000, N_ ("MHz"), CLOCK, 1, KEY, N_ ("Compute"), N_ ("Core clock"),
         N_ ("SM clock used for timing: the boost or the measured clock under load (the record's sources say which).")),
  GPU_I (cuda_cores_per_sm, 1, 1024, "", COUNT, 0, N_ ("Compute"), N_ ("CUDA cores per SM"),
         N_ ("FP32 lanes per SM: FP32 results per clock per SM.")),
  GPU_I (fp64_units_per_sm, 0, 1024, "", COUNT, 0, N_ ("Compute"), N_ ("FP64 units per SM"),
         N_ ("FP64 results per clock per SM (CUDA Programming Guide throughput table).")),
  GPU_I (sfu_units_per_sm, 1, 1024, "", COUNT, 0, N_ ("Compute"), N_ ("Special function units per SM"),
         N_ ("Special function units (sine, reciprocal, square root...) per SM.")),
  GPU_I (ldst_units_per_sm, 1, 1024, "", COUNT, 0, N_ ("Compute"), N_ ("Load/store units per SM"),
         N_ ("Load/store units per SM: memory instructions' lanes per clock.")),
  GPU_I (tensor_cores_per_sm, 0, 64, "", COUNT, 0, N_ ("Compute"), N_ ("Tensor cores per SM"),
         N_ ("Tensor cores per SM; 0 before Volta.")),
  GPU_I (warp_schedulers_per_sm, 1, 16, "", COUNT, 0, N_ ("Compute"), N_ ("Warp schedulers per SM"),
         N_ ("Warp schedulers (SM sub-partitions) per SM.")),
  GPU_I (issue_width, 1, 4, N_ ("instr/cycle"), COUNT, 0, N_ ("Compute"), N_ ("Issue width per scheduler"),
         N_ ("Instructions one warp scheduler can issue per clock.")),
  GPU_I (warp_size, 1, 64, N_ ("threads"), COUNT, 0, N_ ("Compute"), N_ ("Warp size"),
         N_ ("Threads per warp (32 on every NVIDIA GPU).")),

  GPU_I (max_warps_per_sm, 1, 256, N_ ("warps"), COUNT, KEY, N_ ("Occupancy limits"), N_ ("Max warps per SM"),
         N_ ("Resident warps per SM at most (CUDA Programming Guide, technical specifications).")),
  GPU_I (max_blocks_per_sm, 1, 256, N_ ("blocks"), COUNT, KEY, N_ ("Occupancy limits"), N_ ("Max blocks per SM"),
         N_ ("Resident thread blocks per SM at most.")),
  GPU_I (max_threads_per_block, 1, 8192, N_ ("threads"), COUNT, 0, N_ ("Occupancy limits"),
         N_ ("Max threads per block"), N_ ("Threads per block at most.")),
  GPU_I (registers_per_sm, 1024, 4 * MiB, N_ ("registers"), COUNT, KEY, N_ ("Occupancy limits"),
         N_ ("Registers per SM"), N_ ("32-bit registers in the register file of one SM.")),
  GPU_I (max_registers_per_thread, 16, 1024, N_ ("registers"), COUNT, 0, N_ ("Occupancy limits"),
         N_ ("Max registers per thread"), N_ ("32-bit registers one thread may use at most.")),
  GPU_I (max_registers_per_block, 1024, 4 * MiB, N_ ("registers"), COUNT, 0, N_ ("Occupancy limits"),
         N_ ("Max registers per block"), N_ ("32-bit registers one block may use at most.")),
  GPU_I (register_alloc_unit, 1, 4096, N_ ("registers"), COUNT, 0, N_ ("Occupancy limits"),
         N_ ("Register allocation unit (per warp)"),
         N_ ("Granularity in which registers are allocated to a warp (cuda_occupancy.h).")),
  GPU_I (shared_per_sm, 0, 64 * MiB, N_ ("bytes"), BYTES, KEY, N_ ("Occupancy limits"), N_ ("Shared memory per SM"),
         N_ ("Largest shared-memory carve-out of one SM.")),
  GPU_I (shared_per_block, 0, 64 * MiB, N_ ("bytes"), BYTES, 0, N_ ("Occupancy limits"),
         N_ ("Shared memory per block (default)"), N_ ("Shared memory a block may use without opting in (48 KiB).")),
  GPU_I (shared_per_block_optin, 0, 64 * MiB, N_ ("bytes"), BYTES, 0, N_ ("Occupancy limits"),
         N_ ("Shared memory per block (opt-in)"),
         N_ ("Shared memory a block may use after cudaFuncSetAttribute opt-in.")),
  GPU_I (shared_alloc_unit, 1, 64 * KiB, N_ ("bytes"), BYTES, 0, N_ ("Occupancy limits"),
         N_ ("Shared memory allocation unit"), N_ ("Granularity in which shared memory is allocated to a block.")),
  GPU_I (shared_reserved_per_block, 0, 64 * KiB, N_ ("bytes"), BYTES, 0, N_ ("Occupancy limits"),
         N_ ("Shared memory reserved per block"),
         N_ ("Shared memory the system reserves for each resident block (1 KiB from compute capability 8.0).")),

  GPU_I (l1_size, 0, 64 * MiB, N_ ("bytes"), BYTES, 0, N_ ("L1 cache"), N_ ("L1 cache size"),
         N_ ("L1 data cache per SM.")),
  GPU_I (l1_line, 1, 4096, N_ ("bytes"), BYTES, 0, N_ ("L1 cache"), N_ ("L1 line size"), N_ ("L1 cache line size.")),
  GPU_I (l1_sector, 1, 4096, N_ ("bytes"), BYTES, 0, N_ ("L1 cache"), N_ ("L1 sector size"),
         N_ ("L1 sector size: the unit a miss fetches.")),
  GPU_I (l1_assoc, 1, 65536, N_ ("ways"), COUNT, 0, N_ ("L1 cache"), N_ ("L1 associativity"),
         N_ ("L1 ways per set (used by the cache simulation).")),
  GPU_D (l1_latency, 1, 100000, N_ ("cycles"), CYCLES, 1, 0, N_ ("L1 cache"), N_ ("L1 hit latency"),
         N_ ("Unloaded load-to-use time of a dependent global load that hits the L1 (pointer chase), core cycles.")),
  GPU_I (l1_mshrs, 1, 65536, "", COUNT, 0, N_ ("L1 cache"), N_ ("L1 miss status holding registers per SM"),
         N_ ("Misses one SM can keep in flight (MSHRs).")),
  GPU_D_OPT (l1_bandwidth_bytes_per_clk, 0, 65536, N_ ("bytes/clock"), QTY, 1, 0, N_ ("L1 cache"),
             N_ ("L1 peak bandwidth per SM"),
             N_ ("Peak L1/shared load bandwidth of one SM per core clock; 0 = unknown.")),

  GPU_I (l2_size, 0, G_MAXINT, N_ ("bytes"), BYTES, KEY, N_ ("L2 cache"), N_ ("L2 cache size"),
         N_ ("L2 cache of the whole chip.")),
  GPU_I (l2_line, 1, 4096, N_ ("bytes"), BYTES, 0, N_ ("L2 cache"), N_ ("L2 line size"), N_ ("L2 cache line size.")),
  GPU_I (l2_assoc, 1, 65536, N_ ("ways"), COUNT, 0, N_ ("L2 cache"), N_ ("L2 associativity"),
         N_ ("L2 ways per set (used by the cache simulation).")),
  GPU_D (l2_latency, 1, 100000, N_ ("cycles"), CYCLES, 1, 0, N_ ("L2 cache"), N_ ("L2 hit latency"),
         N_ ("Unloaded load-to-use time of a dependent global load that misses the L1 and hits the L2, core cycles.")),
  GPU_I (l2_slices, 1, 4096, "", COUNT, 0, N_ ("L2 cache"), N_ ("L2 slices"),
         N_ ("Independently addressed L2 slices of the chip.")),
  GPU_D_OPT (l2_bandwidth_bytes_per_clk, 0, 1048576, N_ ("bytes/clock"), QTY, 1, 0, N_ ("L2 cache"),
             N_ ("L2 peak bandwidth"),
             N_ ("Peak L2 bandwidth of the whole chip per core clock; never below the hardware's (it feeds lower "
                 "bounds on time); 0 = unknown.")),

  GPU_S (dram_type, TRUE, TEXT, 0, N_ ("DRAM"), N_ ("Memory type"), N_ ("Device memory technology, e.g. GDDR5, HBM2.")),
  GPU_D (dram_clock_mhz, 1, 100000, N_ ("MHz"), CLOCK, 1, 0, N_ ("DRAM"), N_ ("Memory clock"),
         N_ ("DRAM command clock; bandwidth = clock × data rate × bus width.")),
  GPU_I (dram_bus_width_bits, 8, 65536, N_ ("bits"), COUNT, 0, N_ ("DRAM"), N_ ("Bus width"),
         N_ ("Width of the DRAM interface.")),
  GPU_D (dram_data_rate, 1, 64, N_ ("transfers/clock"), QTY, 2, 0, N_ ("DRAM"), N_ ("Data rate"),
         N_ ("Data transfers per memory clock and pin.")),
  GPU_D (dram_bandwidth_gbs, 0.001, 1000000, N_ ("GB/s"), QTY, 1, KEY, N_ ("DRAM"), N_ ("DRAM bandwidth"),
         N_ ("Peak DRAM bandwidth in GB/s (10⁹ bytes/s) from the datasheet.")),
  GPU_D (
    dram_latency, 1, 100000, N_ ("cycles"), CYCLES, 1, 0, N_ ("DRAM"), N_ ("Unloaded latency"),
    N_ (
      "Unloaded load-to-use time of a dependent global load that misses L1 and L2 and opens a DRAM row, core cycles.")),
  GPU_I (dram_channels, 1, 4096, "", COUNT, 0, N_ ("DRAM"), N_ ("Channels"), N_ ("Independent DRAM channels.")),
  GPU_I (dram_banks, 1, 4096, "", COUNT, 0, N_ ("DRAM"), N_ ("Banks per channel"), N_ ("DRAM banks per channel.")),

  GPU_D_OPT (launch_interval_us, 0, 1e6, N_ ("µs"), QTY, 2, 0, N_ ("Kernel launch"), N_ ("Stream launch interval"),
             N_ ("Shortest time per launch of back-to-back kernels on one stream; 0 = unknown.")),
  GPU_D_OPT (launch_gap_us, 0, 1e6, N_ ("µs"), QTY, 2, 0, N_ ("Kernel launch"), N_ ("Stream launch gap"),
             N_ ("Device time from a kernel's end to the start of the next kernel that depends on it; 0 = unknown.")),
  GPU_D_OPT (graph_launch_interval_us, 0, 1e6, N_ ("µs"), QTY, 2, 0, N_ ("Kernel launch"), N_ ("Graph launch interval"),
             N_ ("Shortest time per kernel node of a straight-line CUDA graph; 0 = unknown.")),
  GPU_D_OPT (graph_launch_gap_us, 0, 1e6, N_ ("µs"), QTY, 2, 0, N_ ("Kernel launch"), N_ ("Graph launch gap"),
             N_ ("Device time between dependent kernel nodes of a CUDA graph; 0 = unknown.")),

  GPU_D_OPT (block_launch_cycles, 0, 1e6, N_ ("cycles"), CYCLES, 0, 0, N_ ("Kernel launch"),
             N_ ("Block launch interval"),
             N_ ("Core cycles between two thread blocks started on one SM: an SM starts at most one block per this "
                 "many cycles, however small the blocks; 0 = not modelled.")),

  GPU_S (sources, FALSE, PARAGRAPH, 0, N_ ("Sources"), N_ ("Sources"),
         N_ ("Where each value comes from: datasheets, whitepapers, papers, measurements and stated assumptions.")),
};

/* clang-format off */
#define CPU_S(f, req, fmt, grp, lbl, help) \
  ROW (WsCpu, f, WS_HW_FIELD_STRING, 0, 0, req, "", fmt, 0, 0, grp, lbl, help)
/* clang-format on */
static const WsHwField cpu_fields[] = {
  CPU_S (name, TRUE, TEXT, N_ ("General"), N_ ("Name"), N_ ("Unique catalogue name.")),
  CPU_S (vendor, TRUE, TEXT, N_ ("General"), N_ ("Vendor"), N_ ("Maker of the processor.")),
  CPU_S (model, TRUE, TEXT, N_ ("General"), N_ ("Model"), N_ ("Product name of the processor.")),
  ROW (WsCpu, cores, WS_HW_FIELD_INT, 1, 65536, TRUE, "", COUNT, 0, 0, N_ ("Compute"), N_ ("Cores"),
       N_ ("Physical cores.")),
  ROW (WsCpu, clock_mhz, WS_HW_FIELD_DOUBLE, 1, 100000, TRUE, N_ ("MHz"), CLOCK, 1, 0, N_ ("Compute"),
       N_ ("Base clock"), N_ ("Base clock of the cores.")),
  ROW (WsCpu, gflops, WS_HW_FIELD_DOUBLE, 0.001, 1e9, TRUE, N_ ("GFLOP/s"), QTY, 1, 0, N_ ("Compute"),
       N_ ("Peak FP64 FLOP rate"), N_ ("Peak double-precision rate of the whole processor.")),
  CPU_S (sources, FALSE, PARAGRAPH, N_ ("Sources"), N_ ("Sources"), N_ ("Where the values come from.")),
};

/* clang-format off */
#define LINK_S(f, req, fmt, grp, lbl, help) \
  ROW (WsLink, f, WS_HW_FIELD_STRING, 0, 0, req, "", fmt, 0, 0, grp, lbl, help)
#define LINK_D(f, lo, hi, unit, fmt, dec, grp, lbl, help) \
  ROW (WsLink, f, WS_HW_FIELD_DOUBLE, lo, hi, TRUE, unit, fmt, dec, 0, grp, lbl, help)
/* clang-format on */
static const WsHwField link_fields[] = {
  LINK_S (name, TRUE, TEXT, N_ ("General"), N_ ("Name"), N_ ("Unique catalogue name.")),
  LINK_S (type, TRUE, TEXT, N_ ("General"), N_ ("Type"), N_ ("Kind of link: PCIe, NVLink or Network.")),
  /* seed 004 eq. 4.6, per direction: t = startup + bytes / (bandwidth * lambda) */
  LINK_D (h2d_bandwidth_gbs, 0.001, 1e6, N_ ("GB/s"), QTY, 2, N_ ("Host to device"), N_ ("Bandwidth"),
          N_ ("Nominal bandwidth from host to device (seed 004 eq. 4.6).")),
  LINK_D (h2d_startup_us, 0, 1e9, N_ ("µs"), QTY, 3, N_ ("Host to device"), N_ ("Startup time"),
          N_ ("Fixed cost of one host-to-device transfer (seed 004 eq. 4.6).")),
  LINK_D (h2d_lambda, 0.001, 1, "", QTY, 3, N_ ("Host to device"), N_ ("Utilisation factor λ"),
          N_ ("Share of the nominal bandwidth a large host-to-device transfer reaches (seed 004 eq. 4.6).")),
  LINK_D (d2h_bandwidth_gbs, 0.001, 1e6, N_ ("GB/s"), QTY, 2, N_ ("Device to host"), N_ ("Bandwidth"),
          N_ ("Nominal bandwidth from device to host (seed 004 eq. 4.6).")),
  LINK_D (d2h_startup_us, 0, 1e9, N_ ("µs"), QTY, 3, N_ ("Device to host"), N_ ("Startup time"),
          N_ ("Fixed cost of one device-to-host transfer (seed 004 eq. 4.6).")),
  LINK_D (d2h_lambda, 0.001, 1, "", QTY, 3, N_ ("Device to host"), N_ ("Utilisation factor λ"),
          N_ ("Share of the nominal bandwidth a large device-to-host transfer reaches (seed 004 eq. 4.6).")),
  LINK_S (sources, FALSE, PARAGRAPH, N_ ("Sources"), N_ ("Sources"), N_ ("Where the values come from.")),
};

/* ------------------------------------------------------------------------ */
/* Derived quantities */

static double
derived_compute_capability (const void *rec)
{
  const WsGpu *g = rec;
  return g->cc_major + g->cc_minor / 10.0;
}

static double
derived_peak_fp32 (const void *rec)
{
  return ws_gpu_peak_fp32_gflops (rec);
}

static double
derived_peak_fp64 (const void *rec)
{
  return ws_gpu_peak_fp64_gflops (rec);
}

/* Roofline balance (Williams et al., "Roofline", CACM 2009): DRAM bytes the
 * chip can move per FP32 operation, and its inverse, the ridge point. */
static double
derived_bytes_per_flop (const void *rec)
{
  const WsGpu *g = rec;
  double fp32 = ws_gpu_peak_fp32_gflops (g);
  return fp32 > 0 ? g->dram_bandwidth_gbs / fp32 : NAN;
}

static double
derived_ridge_point (const void *rec)
{
  const WsGpu *g = rec;
  return g->dram_bandwidth_gbs > 0 ? ws_gpu_peak_fp32_gflops (g) / g->dram_bandwidth_gbs : NAN;
}

static double
derived_threads_per_sm (const void *rec)
{
  const WsGpu *g = rec;
  return (double) g->max_warps_per_sm * g->warp_size;
}

/* Bytes per clock x core clock (MHz) / 1000 = GB/s; unknown stays unknown. */
static double
derived_l2_bandwidth_gbs (const void *rec)
{
  const WsGpu *g = rec;
  return g->l2_bandwidth_bytes_per_clk > 0 ? g->l2_bandwidth_bytes_per_clk * g->core_clock_mhz / 1000.0 : NAN;
}

static const WsHwDerived gpu_derived[] = {
  { "compute_capability", "", N_ ("Compute capability"), WS_HW_FORMAT_VERSION, 1, KEY,
    N_ ("Compute capability major.minor."), derived_compute_capability },
  { "peak_fp32_gflops", N_ ("GFLOP/s"), N_ ("Peak FP32 throughput"), QTY, 1, KEY,
    N_ ("2 FLOP (one fused multiply-add) × CUDA cores per SM × SMs × core clock."), derived_peak_fp32 },
  { "peak_fp64_gflops", N_ ("GFLOP/s"), N_ ("Peak FP64 throughput"), QTY, 1, KEY,
    N_ ("2 FLOP (one fused multiply-add) × FP64 units per SM × SMs × core clock."), derived_peak_fp64 },
  { "bytes_per_flop", N_ ("B/FLOP"), N_ ("Bytes per FP32 FLOP"), QTY, 3, KEY,
    N_ ("DRAM bandwidth / peak FP32 throughput: the machine balance."), derived_bytes_per_flop },
  { "flops_per_byte", N_ ("FLOP/byte"), N_ ("Ridge point (FLOP per byte)"), QTY, 1, KEY,
    N_ ("Peak FP32 throughput / DRAM bandwidth: the arithmetic intensity where the roofline turns from memory- to "
        "compute-bound."),
    derived_ridge_point },
  { "max_threads_per_sm", N_ ("threads"), N_ ("Threads per SM"), COUNT, 0, KEY,
    N_ ("Max warps per SM × warp size: resident threads per SM at most."), derived_threads_per_sm },
  { "l2_bandwidth_gbs", N_ ("GB/s"), N_ ("L2 peak bandwidth at the core clock"), QTY, 1, KEY,
    N_ ("L2 peak bandwidth (bytes per clock) × core clock; unknown when the catalogue has no L2 figure."),
    derived_l2_bandwidth_gbs },
};

/* NULL-terminated so it doubles as the candidate list for suggestions. */
static const char *const iclass_names[WS_ICLASS_COUNT + 1] = {
  "fp32", "int", "sfu", "fp64", "tensor", "shared", "global", "branch", NULL,
};

const char *
ws_iclass_name (WsIClass c)
{
  g_return_val_if_fail ((guint) c < WS_ICLASS_COUNT, NULL);
  return iclass_names[c];
}

/* Display labels of the instruction classes, in WsIClass order. */
static const char *const iclass_labels[WS_ICLASS_COUNT] = {
  N_ ("FP32 arithmetic"), N_ ("Integer arithmetic"),   N_ ("Special functions (SFU)"), N_ ("FP64 arithmetic"),
  N_ ("Tensor cores"),    N_ ("Shared memory access"), N_ ("Global memory access"),    N_ ("Branches"),
};

const char *
ws_iclass_label (WsIClass c)
{
  g_return_val_if_fail ((guint) c < WS_ICLASS_COUNT, NULL);
  return iclass_labels[c];
}

const char *
ws_hw_text (const char *msgid)
{
  /* gettext ("") is the catalogue's header, never a label. */
  if (msgid == NULL || *msgid == '\0')
    return "";
  return g_dgettext (GETTEXT_PACKAGE, msgid);
}

const char *
ws_hw_kind_name (WsHwKind kind)
{
  switch (kind)
    {
    case WS_HW_GPU: return "gpu";
    case WS_HW_CPU: return "cpu";
    case WS_HW_LINK: return "link";
    default: g_return_val_if_reached (NULL);
    }
}

gboolean
ws_hw_kind_from_string (const char *s, WsHwKind *out)
{
  static const WsHwKind kinds[] = { WS_HW_GPU, WS_HW_CPU, WS_HW_LINK };
  g_return_val_if_fail (s != NULL, FALSE);
  for (guint i = 0; i < G_N_ELEMENTS (kinds); i++)
    if (g_ascii_strcasecmp (s, ws_hw_kind_name (kinds[i])) == 0)
      {
        if (out != NULL)
          *out = kinds[i];
        return TRUE;
      }
  return FALSE;
}

const WsHwField *
ws_hw_fields (WsHwKind kind, guint *n_fields)
{
  switch (kind)
    {
    case WS_HW_GPU: *n_fields = G_N_ELEMENTS (gpu_fields); return gpu_fields;
    case WS_HW_CPU: *n_fields = G_N_ELEMENTS (cpu_fields); return cpu_fields;
    case WS_HW_LINK: *n_fields = G_N_ELEMENTS (link_fields); return link_fields;
    default: *n_fields = 0; g_return_val_if_reached (NULL);
    }
}

const WsHwField *
ws_hw_field_find (WsHwKind kind, const char *name)
{
  guint n;
  const WsHwField *fields = ws_hw_fields (kind, &n);

  g_return_val_if_fail (name != NULL, NULL);
  for (guint i = 0; i < n; i++)
    if (strcmp (fields[i].name, name) == 0)
      return &fields[i];
  return NULL;
}

double
ws_hw_field_get_number (const WsHwField *field, const void *record)
{
  g_return_val_if_fail (field != NULL && record != NULL, 0.0);
  const char *p = (const char *) record + field->offset;
  switch (field->type)
    {
    case WS_HW_FIELD_INT: return *(const int *) p;
    case WS_HW_FIELD_DOUBLE: return *(const double *) p;
    case WS_HW_FIELD_STRING:
    default: return 0.0;
    }
}

const char *
ws_hw_field_get_string (const WsHwField *field, const void *record)
{
  g_return_val_if_fail (field != NULL && record != NULL, NULL);
  if (field->type != WS_HW_FIELD_STRING)
    return NULL;
  return *(const char *const *) ((const char *) record + field->offset);
}

gboolean
ws_hw_field_is_unknown (const WsHwField *field, const void *record)
{
  g_return_val_if_fail (field != NULL && record != NULL, FALSE);
  return !field->required && field->type != WS_HW_FIELD_STRING && ws_hw_field_get_number (field, record) == 0.0;
}

const WsHwDerived *
ws_hw_derived (WsHwKind kind, guint *n_derived)
{
  g_return_val_if_fail (n_derived != NULL, NULL);
  if (kind == WS_HW_GPU)
    {
      *n_derived = G_N_ELEMENTS (gpu_derived);
      return gpu_derived;
    }
  *n_derived = 0;
  return NULL;
}

const WsHwDerived *
ws_hw_derived_find (WsHwKind kind, const char *name)
{
  guint n;
  const WsHwDerived *rows = ws_hw_derived (kind, &n);

  g_return_val_if_fail (name != NULL, NULL);
  for (guint i = 0; i < n; i++)
    if (strcmp (rows[i].name, name) == 0)
      return &rows[i];
  return NULL;
}

const char *
ws_hw_derived_group (void)
{
  return N_ ("Derived");
}

#define FIELD_PTR(rec, f, T) ((T *) ((char *) (rec) + (f)->offset))
#define FIELD_CPTR(rec, f, T) ((const T *) ((const char *) (rec) + (f)->offset))

/* ------------------------------------------------------------------------ */
/* Memory management */

static void
free_strings (void *rec, WsHwKind kind)
{
  guint n;
  const WsHwField *fields = ws_hw_fields (kind, &n);
  for (guint i = 0; i < n; i++)
    if (fields[i].type == WS_HW_FIELD_STRING)
      g_clear_pointer (FIELD_PTR (rec, &fields[i], char *), g_free);
}

static void
dup_strings (void *dst, WsHwKind kind)
{
  guint n;
  const WsHwField *fields = ws_hw_fields (kind, &n);
  for (guint i = 0; i < n; i++)
    if (fields[i].type == WS_HW_FIELD_STRING)
      {
        char **p = FIELD_PTR (dst, &fields[i], char *);
        *p = g_strdup (*p);
      }
}

void
ws_gpu_free (WsGpu *gpu)
{
  if (gpu == NULL)
    return;
  free_strings (gpu, WS_HW_GPU);
  g_free (gpu);
}

WsGpu *
ws_gpu_copy (const WsGpu *gpu)
{
  g_return_val_if_fail (gpu != NULL, NULL);
  WsGpu *copy = g_memdup2 (gpu, sizeof *gpu);
  dup_strings (copy, WS_HW_GPU);
  return copy;
}

void
ws_cpu_free (WsCpu *cpu)
{
  if (cpu == NULL)
    return;
  free_strings (cpu, WS_HW_CPU);
  g_free (cpu);
}

WsCpu *
ws_cpu_copy (const WsCpu *cpu)
{
  g_return_val_if_fail (cpu != NULL, NULL);
  WsCpu *copy = g_memdup2 (cpu, sizeof *cpu);
  dup_strings (copy, WS_HW_CPU);
  return copy;
}

void
ws_link_free (WsLink *link)
{
  if (link == NULL)
    return;
  free_strings (link, WS_HW_LINK);
  g_free (link);
}

WsLink *
ws_link_copy (const WsLink *link)
{
  g_return_val_if_fail (link != NULL, NULL);
  WsLink *copy = g_memdup2 (link, sizeof *link);
  dup_strings (copy, WS_HW_LINK);
  return copy;
}

double
ws_gpu_peak_fp32_gflops (const WsGpu *gpu)
{
  g_return_val_if_fail (gpu != NULL, 0.0);
  /* One fused multiply-add (2 FLOPs) per CUDA core per cycle. */
  return 2.0 * gpu->sms * gpu->cuda_cores_per_sm * gpu->core_clock_mhz / 1000.0;
}

double
ws_gpu_peak_fp64_gflops (const WsGpu *gpu)
{
  g_return_val_if_fail (gpu != NULL, 0.0);
  /* Every FP64 unit retires one fused multiply-add (2 FLOPs) per cycle. */
  return 2.0 * gpu->sms * gpu->fp64_units_per_sm * gpu->core_clock_mhz / 1000.0;
}

double
ws_gpu_l2_model_bytes_per_clk (const WsGpu *gpu)
{
  g_return_val_if_fail (gpu != NULL, 0.0);
  if (gpu->l2_bandwidth_bytes_per_clk > 0)
    return gpu->l2_bandwidth_bytes_per_clk;
  return gpu->l2_slices > 0 ? gpu->l2_slices * WS_GPU_L2_SLICE_BYTES_PER_CLK_ASSUMED : 0;
}

/* ------------------------------------------------------------------------ */
/* Export */

static void
add_number (JsonBuilder *b, double v)
{
  /* Integral values are written as integers so exported files stay readable
   * (1253, not 1253.0); the importer accepts either for double fields. */
  if (isfinite (v) && v == floor (v) && fabs (v) < 9.0e15)
    json_builder_add_int_value (b, (gint64) v);
  else
    json_builder_add_double_value (b, v);
}

static void
add_fields (JsonBuilder *b, const void *rec, WsHwKind kind, gboolean stop_before_sources)
{
  guint n;
  const WsHwField *fields = ws_hw_fields (kind, &n);
  for (guint i = 0; i < n; i++)
    {
      const WsHwField *f = &fields[i];
      if (stop_before_sources && strcmp (f->name, "sources") == 0)
        break;
      json_builder_set_member_name (b, f->name);
      switch (f->type)
        {
        case WS_HW_FIELD_STRING:
          {
            const char *s = *FIELD_CPTR (rec, f, char *);
            if (s != NULL)
              json_builder_add_string_value (b, s);
            else
              json_builder_add_null_value (b);
          }
          break;
        case WS_HW_FIELD_INT: json_builder_add_int_value (b, *FIELD_CPTR (rec, f, int)); break;
        case WS_HW_FIELD_DOUBLE: add_number (b, *FIELD_CPTR (rec, f, double)); break;
        }
    }
}

static void
add_sources (JsonBuilder *b, const char *sources)
{
  if (sources == NULL)
    return;
  json_builder_set_member_name (b, "sources");
  json_builder_add_string_value (b, sources);
}

JsonNode *
ws_gpu_to_json (const WsGpu *gpu)
{
  g_return_val_if_fail (gpu != NULL, NULL);
  g_autoptr (JsonBuilder) b = json_builder_new ();
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "kind");
  json_builder_add_string_value (b, "gpu");
  add_fields (b, gpu, WS_HW_GPU, TRUE);
  json_builder_set_member_name (b, "pipes");
  json_builder_begin_object (b);
  for (guint c = 0; c < WS_ICLASS_COUNT; c++)
    {
      json_builder_set_member_name (b, iclass_names[c]);
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "latency");
      add_number (b, gpu->pipes[c].latency);
      json_builder_set_member_name (b, "initiation_interval");
      add_number (b, gpu->pipes[c].initiation_interval);
      json_builder_end_object (b);
    }
  json_builder_end_object (b);
  add_sources (b, gpu->sources);
  json_builder_end_object (b);
  return json_builder_get_root (b);
}

JsonNode *
ws_cpu_to_json (const WsCpu *cpu)
{
  g_return_val_if_fail (cpu != NULL, NULL);
  g_autoptr (JsonBuilder) b = json_builder_new ();
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "kind");
  json_builder_add_string_value (b, "cpu");
  add_fields (b, cpu, WS_HW_CPU, TRUE);
  add_sources (b, cpu->sources);
  json_builder_end_object (b);
  return json_builder_get_root (b);
}

JsonNode *
ws_link_to_json (const WsLink *link)
{
  g_return_val_if_fail (link != NULL, NULL);
  g_autoptr (JsonBuilder) b = json_builder_new ();
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "kind");
  json_builder_add_string_value (b, "link");
  add_fields (b, link, WS_HW_LINK, TRUE);
  add_sources (b, link->sources);
  json_builder_end_object (b);
  return json_builder_get_root (b);
}

/* ------------------------------------------------------------------------ */
/* Import */

static const char *
kind_title (WsHwKind kind)
{
  switch (kind)
    {
    case WS_HW_GPU: return "GPU";
    case WS_HW_CPU: return "CPU";
    case WS_HW_LINK: return "link";
    default: return "record";
    }
}

/* "GPU 'GTX 970'" or "GPU record" when the name is not known (yet). */
static char *
record_label (WsHwKind kind, JsonObject *obj)
{
  JsonNode *n = json_object_get_member (obj, "name");
  if (n != NULL && JSON_NODE_HOLDS_VALUE (n) && json_node_get_value_type (n) == G_TYPE_STRING)
    return g_strdup_printf ("%s '%s'", kind_title (kind), json_node_get_string (n));
  return g_strdup_printf ("%s record", kind_title (kind));
}

static const char *
json_type_name (JsonNode *node)
{
  switch (JSON_NODE_TYPE (node))
    {
    case JSON_NODE_OBJECT: return "an object";
    case JSON_NODE_ARRAY: return "an array";
    case JSON_NODE_NULL: return "null";
    case JSON_NODE_VALUE:
      {
        GType t = json_node_get_value_type (node);
        if (t == G_TYPE_STRING)
          return "a string";
        if (t == G_TYPE_BOOLEAN)
          return "a boolean";
        if (t == G_TYPE_INT64)
          return "an integer";
        return "a number";
      }
    default: return "something else";
    }
}

static gboolean
node_is_number (JsonNode *node)
{
  if (!JSON_NODE_HOLDS_VALUE (node))
    return FALSE;
  GType t = json_node_get_value_type (node);
  return t == G_TYPE_INT64 || t == G_TYPE_DOUBLE;
}

static double
node_number (JsonNode *node)
{
  if (json_node_get_value_type (node) == G_TYPE_INT64)
    return (double) json_node_get_int (node);
  return json_node_get_double (node);
}

static char *
format_number (double v)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];
  if (v == floor (v) && fabs (v) < 1e15)
    return g_strdup_printf ("%.0f", v);
  return g_strdup (g_ascii_formatd (buf, sizeof buf, "%.6g", v));
}

static gboolean
check_range (const char *what, const char *field, double v, double lo, double hi, GError **error)
{
  if (isfinite (v) && v >= lo && v <= hi)
    return TRUE;
  g_autofree char *sv = format_number (v);
  g_autofree char *slo = format_number (lo);
  g_autofree char *shi = format_number (hi);
  g_set_error (error, WS_ERROR, WS_ERROR_INVALID,
               "%s: value %s of field '%s' is out of range; allowed range is %s to %s", what, sv, field, slo, shi);
  return FALSE;
}

static gboolean
read_field (const char *what, const WsHwField *f, JsonNode *node, void *rec, GError **error)
{
  switch (f->type)
    {
    case WS_HW_FIELD_STRING:
      if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
        {
          g_set_error (error, WS_ERROR, WS_ERROR_INVALID,
                       "%s: field '%s' has the wrong type: expected a string, got %s", what, f->name,
                       json_type_name (node));
          return FALSE;
        }
      if (f->required && *json_node_get_string (node) == '\0')
        {
          g_set_error (error, WS_ERROR, WS_ERROR_INVALID, "%s: field '%s' must not be empty", what, f->name);
          return FALSE;
        }
      g_free (*FIELD_PTR (rec, f, char *));
      *FIELD_PTR (rec, f, char *) = g_strdup (json_node_get_string (node));
      return TRUE;

    case WS_HW_FIELD_INT:
      {
        if (!node_is_number (node))
          {
            g_set_error (error, WS_ERROR, WS_ERROR_INVALID,
                         "%s: field '%s' has the wrong type: expected an integer, got %s", what, f->name,
                         json_type_name (node));
            return FALSE;
          }
        double v = node_number (node);
        if (v != floor (v))
          {
            g_autofree char *sv = format_number (v);
            g_set_error (error, WS_ERROR, WS_ERROR_INVALID,
                         "%s: field '%s' has the wrong type: expected an integer, got %s", what, f->name, sv);
            return FALSE;
          }
        if (!check_range (what, f->name, v, f->min, f->max, error))
          return FALSE;
        *FIELD_PTR (rec, f, int) = (int) v;
        return TRUE;
      }

    case WS_HW_FIELD_DOUBLE:
      {
        if (!node_is_number (node))
          {
            g_set_error (error, WS_ERROR, WS_ERROR_INVALID,
                         "%s: field '%s' has the wrong type: expected a number, got %s", what, f->name,
                         json_type_name (node));
            return FALSE;
          }
        double v = node_number (node);
        if (!check_range (what, f->name, v, f->min, f->max, error))
          return FALSE;
        *FIELD_PTR (rec, f, double) = v;
        return TRUE;
      }
    }
  g_assert_not_reached ();
}

static gboolean
unknown_field (const char *what, const char *member, const char *const *valid, const char *context, GError **error)
{
  g_autofree char *close = ws_suggest_names (member, valid, 1);
  if (close != NULL)
    g_set_error (error, WS_ERROR, WS_ERROR_INVALID, "%s: unknown field '%s'%s; did you mean '%s'?", what, member,
                 context, close);
  else
    {
      g_autofree char *all = g_strjoinv (", ", (char **) valid);
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID, "%s: unknown field '%s'%s; valid fields are: %s", what, member,
                   context, all);
    }
  return FALSE;
}

/* Pipes: {"fp32": {"latency": L, "initiation_interval": II}, ...}; every
 * class is required so a record never carries an accidental zero latency. */
static gboolean
read_pipes (const char *what, JsonNode *node, WsGpu *gpu, GError **error)
{
  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID,
                   "%s: field 'pipes' has the wrong type: expected an object with one member per "
                   "instruction class, got %s",
                   what, json_type_name (node));
      return FALSE;
    }
  JsonObject *obj = json_node_get_object (node);
  g_autoptr (GList) members = json_object_get_members (obj);
  for (GList *l = members; l != NULL; l = l->next)
    {
      const char *m = l->data;
      gboolean known = FALSE;
      for (guint c = 0; c < WS_ICLASS_COUNT; c++)
        known |= strcmp (m, iclass_names[c]) == 0;
      if (!known)
        return unknown_field (what, m, iclass_names, " in 'pipes'", error);
    }
  static const char *const pipe_members[] = { "latency", "initiation_interval", NULL };
  for (guint c = 0; c < WS_ICLASS_COUNT; c++)
    {
      JsonNode *pn = json_object_get_member (obj, iclass_names[c]);
      if (pn == NULL)
        {
          g_set_error (error, WS_ERROR, WS_ERROR_INVALID,
                       "%s: missing required field 'pipes.%s' (an object with 'latency' and "
                       "'initiation_interval' in cycles)",
                       what, iclass_names[c]);
          return FALSE;
        }
      if (!JSON_NODE_HOLDS_OBJECT (pn))
        {
          g_set_error (error, WS_ERROR, WS_ERROR_INVALID,
                       "%s: field 'pipes.%s' has the wrong type: expected an object, got %s", what, iclass_names[c],
                       json_type_name (pn));
          return FALSE;
        }
      JsonObject *po = json_node_get_object (pn);
      g_autoptr (GList) pm = json_object_get_members (po);
      for (GList *l = pm; l != NULL; l = l->next)
        if (!g_strv_contains (pipe_members, l->data))
          {
            g_autofree char *ctx = g_strdup_printf (" in 'pipes.%s'", iclass_names[c]);
            return unknown_field (what, l->data, pipe_members, ctx, error);
          }
      /* A tensor pipe of latency 0 means "no tensor cores"; every other
       * class exists on every GPU and needs a real latency. */
      double min_latency = c == WS_ICLASS_TENSOR ? 0.0 : 1.0;
      double min_ii = c == WS_ICLASS_TENSOR ? 0.0 : 0.01;
      for (guint k = 0; k < 2; k++)
        {
          g_autofree char *field = g_strdup_printf ("pipes.%s.%s", iclass_names[c], pipe_members[k]);
          JsonNode *vn = json_object_get_member (po, pipe_members[k]);
          if (vn == NULL)
            {
              g_set_error (error, WS_ERROR, WS_ERROR_INVALID, "%s: missing required field '%s' (cycles)", what, field);
              return FALSE;
            }
          if (!node_is_number (vn))
            {
              g_set_error (error, WS_ERROR, WS_ERROR_INVALID,
                           "%s: field '%s' has the wrong type: expected a number, got %s", what, field,
                           json_type_name (vn));
              return FALSE;
            }
          double v = node_number (vn);
          if (!check_range (what, field, v, k == 0 ? min_latency : min_ii,
                            k == 0 ? WS_PIPE_MAX_LATENCY : WS_PIPE_MAX_II, error))
            return FALSE;
          if (k == 0)
            gpu->pipes[c].latency = v;
          else
            gpu->pipes[c].initiation_interval = v;
        }
    }
  return TRUE;
}

static gboolean
check_kind_member (const char *what, JsonObject *obj, WsHwKind kind, GError **error)
{
  JsonNode *kn = json_object_get_member (obj, "kind");
  if (kn == NULL)
    return TRUE;
  if (!JSON_NODE_HOLDS_VALUE (kn) || json_node_get_value_type (kn) != G_TYPE_STRING)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID,
                   "%s: field 'kind' has the wrong type: expected a string (\"gpu\", \"cpu\" or "
                   "\"link\"), got %s",
                   what, json_type_name (kn));
      return FALSE;
    }
  WsHwKind k;
  if (!ws_hw_kind_from_string (json_node_get_string (kn), &k) || k != kind)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID,
                   "%s: field 'kind' is \"%s\" but a %s record was expected (\"%s\")", what, json_node_get_string (kn),
                   kind_title (kind), ws_hw_kind_name (kind));
      return FALSE;
    }
  return TRUE;
}

/* Reads the scalar fields of @kind into @rec (zeroed by the caller); members
 * named in @extra are left to the caller. */
static gboolean
read_record (JsonNode *node, WsHwKind kind, void *rec, const char *const *extra, char **what_out, GError **error)
{
  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID, "a %s record must be a JSON object, got %s", kind_title (kind),
                   node != NULL ? json_type_name (node) : "nothing");
      return FALSE;
    }
  JsonObject *obj = json_node_get_object (node);
  g_autofree char *what = record_label (kind, obj);

  if (!check_kind_member (what, obj, kind, error))
    return FALSE;

  guint n;
  const WsHwField *fields = ws_hw_fields (kind, &n);
  g_autoptr (GPtrArray) valid = g_ptr_array_new ();
  for (guint i = 0; i < n; i++)
    g_ptr_array_add (valid, (gpointer) fields[i].name);
  g_ptr_array_add (valid, (gpointer) "kind");
  for (guint i = 0; extra != NULL && extra[i] != NULL; i++)
    g_ptr_array_add (valid, (gpointer) extra[i]);
  g_ptr_array_add (valid, NULL);

  /* Unknown fields first: a misspelt field usually also shows up as a
   * missing one, and the misspelling is the more useful message. */
  g_autoptr (GList) members = json_object_get_members (obj);
  for (GList *l = members; l != NULL; l = l->next)
    if (!g_strv_contains ((const char *const *) valid->pdata, l->data))
      return unknown_field (what, l->data, (const char *const *) valid->pdata, "", error);

  for (guint i = 0; i < n; i++)
    {
      const WsHwField *f = &fields[i];
      JsonNode *m = json_object_get_member (obj, f->name);
      if (m == NULL || (JSON_NODE_HOLDS_NULL (m) && !f->required))
        {
          if (!f->required)
            continue;
          if (f->type == WS_HW_FIELD_STRING)
            g_set_error (error, WS_ERROR, WS_ERROR_INVALID, "%s: missing required field '%s' (%s)", what, f->name,
                         f->label);
          else
            g_set_error (error, WS_ERROR, WS_ERROR_INVALID, "%s: missing required field '%s' (%s%s%s)", what, f->name,
                         f->label, *f->unit ? ", " : "", f->unit);
          return FALSE;
        }
      if (!read_field (what, f, m, rec, error))
        return FALSE;
    }
  *what_out = g_steal_pointer (&what);
  return TRUE;
}

static gboolean
check_le (const char *what, const char *a, double va, const char *b, double vb, GError **error)
{
  if (va <= vb)
    return TRUE;
  g_autofree char *sa = format_number (va);
  g_autofree char *sb = format_number (vb);
  g_set_error (error, WS_ERROR, WS_ERROR_INVALID,
               "%s: value %s of field '%s' is out of range; it must not exceed '%s' (%s)", what, sa, a, b, sb);
  return FALSE;
}

/* Relations between fields that a single range cannot express. */
static gboolean
check_gpu_consistency (const char *what, const WsGpu *g, GError **error)
{
  return check_le (what, "shared_per_block", g->shared_per_block, "shared_per_block_optin", g->shared_per_block_optin,
                   error)
         && check_le (what, "shared_per_block_optin", g->shared_per_block_optin, "shared_per_sm", g->shared_per_sm,
                      error)
         && check_le (what, "max_registers_per_block", g->max_registers_per_block, "registers_per_sm",
                      g->registers_per_sm, error)
         && check_le (what, "max_threads_per_block", g->max_threads_per_block, "max_warps_per_sm * warp_size",
                      (double) g->max_warps_per_sm * g->warp_size, error)
         && check_le (what, "l1_sector", g->l1_sector, "l1_line", g->l1_line, error)
         && check_le (what, "warp_schedulers_per_sm", g->warp_schedulers_per_sm, "cuda_cores_per_sm",
                      g->cuda_cores_per_sm, error);
}

WsGpu *
ws_gpu_from_json (JsonNode *node, GError **error)
{
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);
  static const char *const extra[] = { "pipes", NULL };
  g_autoptr (WsGpu) gpu = g_new0 (WsGpu, 1);
  g_autofree char *what = NULL;
  if (!read_record (node, WS_HW_GPU, gpu, extra, &what, error))
    return NULL;
  JsonNode *pipes = json_object_get_member (json_node_get_object (node), "pipes");
  if (pipes == NULL)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID,
                   "%s: missing required field 'pipes' (latency and initiation_interval per "
                   "instruction class: fp32, int, sfu, fp64, tensor, shared, global, branch)",
                   what);
      return NULL;
    }
  if (!read_pipes (what, pipes, gpu, error))
    return NULL;
  if (gpu->tensor_cores_per_sm > 0 && gpu->pipes[WS_ICLASS_TENSOR].latency <= 0)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID,
                   "%s: value 0 of field 'pipes.tensor.latency' is out of range; it must be at "
                   "least 1 when tensor_cores_per_sm is %d",
                   what, gpu->tensor_cores_per_sm);
      return NULL;
    }
  if (!check_gpu_consistency (what, gpu, error))
    return NULL;
  return g_steal_pointer (&gpu);
}

WsCpu *
ws_cpu_from_json (JsonNode *node, GError **error)
{
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);
  g_autoptr (WsCpu) cpu = g_new0 (WsCpu, 1);
  g_autofree char *what = NULL;
  if (!read_record (node, WS_HW_CPU, cpu, NULL, &what, error))
    return NULL;
  return g_steal_pointer (&cpu);
}

WsLink *
ws_link_from_json (JsonNode *node, GError **error)
{
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);
  g_autoptr (WsLink) link = g_new0 (WsLink, 1);
  g_autofree char *what = NULL;
  if (!read_record (node, WS_HW_LINK, link, NULL, &what, error))
    return NULL;
  return g_steal_pointer (&link);
}

gboolean
ws_hw_json_get_kind (JsonNode *node, WsHwKind *out, GError **error)
{
  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID, "a hardware record must be a JSON object, got %s",
                   node != NULL ? json_type_name (node) : "nothing");
      return FALSE;
    }
  JsonObject *obj = json_node_get_object (node);
  JsonNode *kn = json_object_get_member (obj, "kind");
  g_autofree char *what = NULL;
  JsonNode *nn = json_object_get_member (obj, "name");
  if (nn != NULL && JSON_NODE_HOLDS_VALUE (nn) && json_node_get_value_type (nn) == G_TYPE_STRING)
    what = g_strdup_printf ("record '%s'", json_node_get_string (nn));
  else
    what = g_strdup ("record");
  if (kn == NULL)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID,
                   "%s: missing required field 'kind' (\"gpu\", \"cpu\" or \"link\")", what);
      return FALSE;
    }
  if (!JSON_NODE_HOLDS_VALUE (kn) || json_node_get_value_type (kn) != G_TYPE_STRING)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID,
                   "%s: field 'kind' has the wrong type: expected a string (\"gpu\", \"cpu\" or "
                   "\"link\"), got %s",
                   what, json_type_name (kn));
      return FALSE;
    }
  if (!ws_hw_kind_from_string (json_node_get_string (kn), out))
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID,
                   "%s: value \"%s\" of field 'kind' is out of range; allowed values are "
                   "\"gpu\", \"cpu\" and \"link\"",
                   what, json_node_get_string (kn));
      return FALSE;
    }
  return TRUE;
}

/* ------------------------------------------------------------------------ */
/* Readable JSON text */

static void
append_double (GString *out, double v)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];
  if (!isfinite (v))
    {
      /* JSON has no NaN/Inf; null is what json-glib reads back as 0. */
      g_string_append (out, "null");
      return;
    }
  if (v == floor (v) && fabs (v) < 1e15)
    {
      g_string_append_printf (out, "%.0f", v);
      return;
    }
  for (int prec = 1; prec <= 17; prec++)
    {
      char fmt[8];
      g_snprintf (fmt, sizeof fmt, "%%.%dg", prec);
      g_ascii_formatd (buf, sizeof buf, fmt, v);
      if (g_ascii_strtod (buf, NULL) == v)
        break;
    }
  g_string_append (out, buf);
}

static void
append_string (GString *out, const char *s)
{
  g_string_append_c (out, '"');
  for (const unsigned char *p = (const unsigned char *) s; *p != '\0'; p++)
    {
      switch (*p)
        {
        case '"': g_string_append (out, "\\\""); break;
        case '\\': g_string_append (out, "\\\\"); break;
        case '\n': g_string_append (out, "\\n"); break;
        case '\r': g_string_append (out, "\\r"); break;
        case '\t': g_string_append (out, "\\t"); break;
        case '\b': g_string_append (out, "\\b"); break;
        case '\f': g_string_append (out, "\\f"); break;
        default:
          if (*p < 0x20)
            g_string_append_printf (out, "\\u%04x", *p);
          else
            g_string_append_c (out, (char) *p);
        }
    }
  g_string_append_c (out, '"');
}

static void
append_indent (GString *out, gboolean pretty, int depth)
{
  if (!pretty)
    return;
  g_string_append_c (out, '\n');
  for (int i = 0; i < depth; i++)
    g_string_append (out, "  ");
}

static void
append_node (GString *out, JsonNode *node, gboolean pretty, int depth)
{
  switch (JSON_NODE_TYPE (node))
    {
    case JSON_NODE_NULL: g_string_append (out, "null"); break;
    case JSON_NODE_VALUE:
      {
        GType t = json_node_get_value_type (node);
        if (t == G_TYPE_STRING)
          append_string (out, json_node_get_string (node));
        else if (t == G_TYPE_BOOLEAN)
          g_string_append (out, json_node_get_boolean (node) ? "true" : "false");
        else if (t == G_TYPE_INT64)
          g_string_append_printf (out, "%" G_GINT64_FORMAT, json_node_get_int (node));
        else
          append_double (out, json_node_get_double (node));
      }
      break;
    case JSON_NODE_ARRAY:
      {
        JsonArray *arr = json_node_get_array (node);
        guint n = json_array_get_length (arr);
        g_string_append_c (out, '[');
        for (guint i = 0; i < n; i++)
          {
            if (i > 0)
              g_string_append_c (out, ',');
            append_indent (out, pretty, depth + 1);
            append_node (out, json_array_get_element (arr, i), pretty, depth + 1);
          }
        if (n > 0)
          append_indent (out, pretty, depth);
        g_string_append_c (out, ']');
      }
      break;
    case JSON_NODE_OBJECT:
      {
        JsonObject *obj = json_node_get_object (node);
        g_autoptr (GList) members = json_object_get_members (obj);
        g_string_append_c (out, '{');
        for (GList *l = members; l != NULL; l = l->next)
          {
            if (l != members)
              g_string_append_c (out, ',');
            append_indent (out, pretty, depth + 1);
            append_string (out, l->data);
            g_string_append (out, pretty ? ": " : ":");
            append_node (out, json_object_get_member (obj, l->data), pretty, depth + 1);
          }
        if (members != NULL)
          append_indent (out, pretty, depth);
        g_string_append_c (out, '}');
      }
      break;
    }
}

char *
ws_hw_json_to_data (JsonNode *node, gboolean pretty)
{
  g_return_val_if_fail (node != NULL, NULL);
  GString *out = g_string_new (NULL);
  append_node (out, node, pretty, 0);
  return g_string_free (out, FALSE);
}
