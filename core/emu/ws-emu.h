/* ws-emu.h: the PTX functional emulator.
 *
 * CONTRACT between the emulator (core/emu, owner) and its users: the
 * replacement runtime (core/cudart), instrumentation tools and tests.
 * One WsEmu is one emulated device: memory, loaded modules, a target GPU
 * description, an optional trace writer. */
#pragma once

#include "base/ws-base.h"
#include "hw/ws-hw.h"
#include "ptx/ws-ptx.h"
#include "emu/ws-devmem.h"

G_BEGIN_DECLS

typedef struct _WsEmu WsEmu;
typedef struct _WsEmuModule WsEmuModule;
typedef struct _WsEmuFunction WsEmuFunction;
typedef struct _WsTraceWriter WsTraceWriter;

typedef struct {
  const WsGpu *gpu;           /* target GPU (SM count for %nsmid, limits); borrowed */
  WsDevMem *mem;              /* device memory; borrowed */
  WsTraceWriter *trace;       /* NULL: no trace */
  guint n_threads;            /* worker threads for CTAs (0 = number of CPUs) */
  gboolean deterministic;     /* run CTAs one at a time in order */
  guint64 instruction_budget; /* per launch, warp instructions; 0 = unlimited (hang detection) */
  uint64_t heap_bytes;        /* device malloc heap size (default 8 MiB) */
  /* vprintf output: called with formatted text (default: stdout) */
  void (*printf_func) (const char *text, gsize len, gpointer user_data);
  gpointer printf_data;
  /* instrumentation tools (core/instrument); NULL: none; borrowed */
  struct _WsInstrument *instrument;
  /* Invalid accesses (docs/profiling.md, "Memory checking").  FALSE: as the
   * hardware does: an access the GPU would not notice (into a mapped 2 MiB
   * page of device memory, the rounding of the block's shared memory, the
   * thread's local stack) is performed and recorded (ws_emu_get_invalid_accesses);
   * one it would fault on faults.  TRUE (--memcheck): every access outside
   * an allocation faults at once, with the full report. */
  gboolean memcheck;
  /* Watchdog: wall-clock seconds per launch before it is ended with
   * cudaErrorLaunchTimeout, as a GPU's launch timeout does; 0 = none. */
  double launch_timeout;
} WsEmuOptions;

WS_EXPORT WsEmu *ws_emu_new (const WsEmuOptions *options, GError **error);
WS_EXPORT void ws_emu_free (WsEmu *emu);
/* Changes the device malloc heap size (cudaDeviceSetLimit(cudaLimitMallocHeapSize)).
 * FALSE once a kernel using malloc has run: the heap then exists already. */
WS_EXPORT gboolean ws_emu_set_heap_bytes (WsEmu *emu, uint64_t bytes);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsEmu, ws_emu_free)

/* Loads a PTX module: parses, decodes, allocates its __device__/__constant__
 * variables in device memory with their initialisers. */
WS_EXPORT WsEmuModule *ws_emu_load_ptx (WsEmu *emu, const char *ptx, gsize len, const char *origin, GError **error);
WS_EXPORT const WsPtxModule *ws_emu_module_get_ptx (WsEmuModule *module);
WS_EXPORT WsEmuFunction *ws_emu_module_get_function (WsEmuModule *module, const char *name);
WS_EXPORT gboolean ws_emu_module_get_global (WsEmuModule *module, const char *name, uint64_t *dev_addr, uint64_t *size);

typedef struct {
  const char *name;
  guint n_params;
  const uint32_t *param_offsets; /* byte offset of each parameter in the block */
  const uint32_t *param_sizes;
  uint32_t param_bytes;
  uint32_t static_shared_bytes;
  uint32_t local_bytes; /* per thread */
  uint32_t num_regs;    /* from ptxas -v when available, else estimated */
  uint32_t max_threads_per_block;
  /* Why the kernel cannot launch (it reaches an instruction or external
   * function the emulator does not implement), or NULL; owned by @fn. */
  const char *cannot_run;
} WsEmuFunctionInfo;

WS_EXPORT void ws_emu_function_get_info (WsEmuFunction *fn, WsEmuFunctionInfo *info);
/* Sets resource use measured by ptxas (the runtime calls ptxas when present). */
WS_EXPORT void ws_emu_function_set_resources (WsEmuFunction *fn, uint32_t regs, uint32_t shared, uint32_t local);

typedef struct {
  uint32_t grid[3];
  uint32_t block[3];
  uint32_t dynamic_shared_bytes;
  /* cudaLaunchCooperativeKernel: every block runs at the same time (one
   * worker thread each, whatever WsEmuOptions.n_threads/deterministic say),
   * so grid-wide barriers (cooperative groups' grid.sync(), which finds its
   * barrier word through %envreg1/%envreg2) can be waited on. */
  gboolean cooperative;
} WsLaunchConfig;

typedef struct {
  guint64 warp_instructions;
  guint64 thread_instructions;
  double seconds;
} WsLaunchStats;

/* The CUDA runtime errors the emulator reports, with cudaError_t's numbers
 * (driver_types.h, CUDA 13.0); core does not include the CUDA headers. */
typedef enum {
  WS_CUDA_SUCCESS = 0,
  WS_CUDA_ERROR_INVALID_VALUE = 1,
  WS_CUDA_ERROR_MEMORY_ALLOCATION = 2,
  WS_CUDA_ERROR_INVALID_CONFIGURATION = 9,
  WS_CUDA_ERROR_LAUNCH_MAX_DEPTH_EXCEEDED = 65,
  WS_CUDA_ERROR_INVALID_DEVICE_FUNCTION = 98,
  WS_CUDA_ERROR_ILLEGAL_ADDRESS = 700,
  WS_CUDA_ERROR_LAUNCH_TIMEOUT = 702,
  WS_CUDA_ERROR_ASSERT = 710,
  WS_CUDA_ERROR_HARDWARE_STACK_ERROR = 714,
  WS_CUDA_ERROR_MISALIGNED_ADDRESS = 716,
  WS_CUDA_ERROR_INVALID_PC = 718,
  WS_CUDA_ERROR_LAUNCH_FAILURE = 719,
  WS_CUDA_ERROR_NOT_SUPPORTED = 801,
} WsCudaError;

/* Runs a kernel to completion.  @args: one pointer per parameter, as in
 * cudaLaunchKernel.  A fault (out-of-bounds access, trap, misaligned
 * address, budget exhausted) returns FALSE with WS_ERROR_FAULT and a message
 * naming kernel, PTX line, block, thread, address and nearest allocation;
 * @cuda_error receives the cudaError_t a GPU would report (a WsCudaError). */
WS_EXPORT gboolean ws_emu_launch (WsEmu *emu, WsEmuFunction *fn, const WsLaunchConfig *config, void **args,
                                  WsLaunchStats *stats, int *cuda_error, GError **error);

/* Invalid accesses the hardware would not have noticed (memcheck off),
 * one entry per (kernel, PTX instruction, state space), in the order first
 * seen (launch by launch; within a launch by block, thread and line); block,
 * thread and address are those of the first occurrence in (block, thread)
 * order, the same whatever the number of worker threads. */
typedef struct {
  char *kernel; /* mangled name */
  char *origin; /* module (PTX) origin, as in fault messages */
  uint32_t ptx_line;
  char *instruction;  /* the PTX instruction, as text */
  const char *access; /* "load", "store", "atomic", "cp.async store", ... */
  const char *space;  /* "global", "shared", "local", ... */
  uint32_t size;      /* bytes per thread */
  uint32_t block[3], thread[3];
  uint64_t address; /* device address, or offset in the shared/local window */
  char *detail;     /* where it lies ("16 bytes before the start of cudaMalloc #1 ...") */
  guint64 count;    /* thread accesses */
  guint64 launches; /* launches in which it happened */
} WsEmuInvalidAccess;

WS_EXPORT const WsEmuInvalidAccess *ws_emu_get_invalid_accesses (WsEmu *emu, guint *n);

/* Host memory registered for device access (cudaHostRegister): kernels may
 * read and write [addr, addr+size) as global memory (the emulator shares
 * the process's address space).  Unregister with the same address. */
WS_EXPORT void ws_emu_register_host (WsEmu *emu, uint64_t addr, uint64_t size);
WS_EXPORT gboolean ws_emu_unregister_host (WsEmu *emu, uint64_t addr);
/* The registered range holding [addr, addr+len): its start, or 0. */
WS_EXPORT uint64_t ws_emu_registered_host (WsEmu *emu, uint64_t addr, uint64_t len);

/* Texture and surface objects (cudaCreateTextureObject,
 * cudaCreateSurfaceObject): a descriptor of texels in device memory that
 * the PTX instructions tex, suld and sust read and write through a 64-bit
 * handle.  Texels are laid out row by row (pitch bytes per row, slice_pitch
 * bytes per 3-D slice, layer or cube face). */
/* clang-format off */
typedef enum {
  WS_TEX_ADDRESS_WRAP, WS_TEX_ADDRESS_CLAMP, WS_TEX_ADDRESS_MIRROR, WS_TEX_ADDRESS_BORDER,
} WsTexAddressMode;
/* clang-format on */

/* clang-format off */
typedef enum {
  WS_TEX_KIND_SIGNED, WS_TEX_KIND_UNSIGNED, WS_TEX_KIND_FLOAT,
} WsTexChannelKind;
/* clang-format on */

typedef struct {
  uint64_t base;                 /* device address of texel (0, 0, 0) */
  uint32_t width, height, depth; /* texels (1 for absent dimensions) */
  uint32_t layers;               /* layered textures and cube maps (6 per cube); 0 = not layered */
  uint64_t pitch;                /* bytes per row */
  uint64_t slice_pitch;          /* bytes per slice, layer or face */
  uint8_t channels;              /* 1, 2 or 4 */
  uint8_t channel_bits;          /* 8, 16 or 32 (every channel the same) */
  uint8_t kind;                  /* WsTexChannelKind (FLOAT with 16 bits: half) */
  uint8_t cubemap;               /* faces are layers 6i..6i+5 */
  uint8_t linear_filter;         /* cudaFilterModeLinear */
  uint8_t normalized_coords;
  uint8_t read_normalized; /* cudaReadModeNormalizedFloat */
  uint8_t address[3];      /* WsTexAddressMode per dimension */
  float border[4];
} WsEmuTexture;

/* Registers a texture or surface; returns its handle (never 0). */
WS_EXPORT uint64_t ws_emu_texture_create (WsEmu *emu, const WsEmuTexture *tex);
/* FALSE when @handle is not a live texture/surface of @emu. */
WS_EXPORT gboolean ws_emu_texture_destroy (WsEmu *emu, uint64_t handle);
/* The descriptor of a live handle, or NULL. */
WS_EXPORT const WsEmuTexture *ws_emu_texture_get (WsEmu *emu, uint64_t handle);

G_END_DECLS
