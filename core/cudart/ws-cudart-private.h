/* ws-cudart-private.h: state shared by the files of the replacement
 * libcudart.so.13.  Everything here is internal to the library; what user
 * programs see is the CUDA runtime API (cuda_runtime_api.h) and the
 * registration entry points nvcc's generated code calls. */
#pragma once

#include <cuda_runtime_api.h>
#include <glib.h>

#include "base/ws-base.h"
#include "hw/ws-hw.h"
#include "emu/ws-emu.h"
#include "emu/ws-devmem.h"
#include "fatbin/ws-fatbin.h"

G_BEGIN_DECLS

/* One registered fatbinary (translation unit, or a whole -rdc program).
 * The handle nvcc's code keeps (void **) points at this struct. */
typedef struct _WsCudartModule {
  void *handle_slot;   /* what (void **) handle points to; first member */
  const void *wrapper; /* the program's __fatBinC_Wrapper_t */
  WsFatbin *fatbin;    /* NULL when parsing failed (error in parse_error) */
  char *parse_error;
  gboolean load_tried;
  WsEmuModule *emu_module; /* NULL until loaded, or when loading failed */
  char *load_error;        /* why loading failed (printed once) */
  cudaError_t load_status; /* error a launch reports when loading failed */
  gboolean unregistered;
  GPtrArray *managed; /* WsCudartVar* of __managed__ variables */
  uint32_t ptx_arch;  /* compute_XX of the PTX loaded */
} WsCudartModule;

#define WS_CUDART_KERNEL_MAGIC 0x4b524e4cu /* "KRNL": validates cudaKernel_t handles */

typedef struct {
  uint32_t magic;
  WsCudartModule *module;
  const void *host_fun;   /* the host stub's address */
  char *name;             /* mangled device name */
  WsEmuFunction *fn;      /* resolved on module load */
  int max_dynamic_shared; /* cudaFuncAttributeMaxDynamicSharedMemorySize */
  int preferred_carveout;
} WsCudartKernel;

typedef struct {
  WsCudartModule *module;
  const void *host_var; /* shadow variable address (symbol) */
  void **managed_ptr;   /* __managed__: host pointer variable to fill */
  char *name;
  size_t size;
  gboolean constant;
} WsCudartVar;

typedef struct _WsCudartGraph WsCudartGraph;

struct CUstream_st {
  unsigned int flags;
  int priority;
  cudaStreamAttrValue access_policy; /* cudaStreamAttributeAccessPolicyWindow (a hint: no caches are modelled) */
  cudaStreamAttrValue sync_policy;   /* cudaStreamAttributeSynchronizationPolicy */
  unsigned long long id;
  WsCudartGraph *capture; /* graph being captured into, or NULL */
};

struct CUevent_st {
  unsigned int flags;
  gboolean recorded;
  double time;
  WsCudartGraph *capture; /* recorded in a capturing stream: joins others into it */
};

/* The runtime: one emulated device. */
typedef struct {
  GRecMutex lock;
  gboolean init_done;
  cudaError_t init_status; /* cudaSuccess, or why the device is unusable */
  WsGpu *gpu;
  WsDevMem *mem;
  WsEmu *emu;
  WsTraceWriter *trace;
  char *trace_path;
  char *summary_path;
  guint n_threads;
  gboolean deterministic;
  uint64_t heap_bytes; /* cudaLimitMallocHeapSize */
  /* cudaLimitDevRuntimeSyncDepth / PendingLaunchCount: kept and reported;
   * the emulator runs a kernel's device-side launches after it, one level at
   * a time (up to 24 levels), so neither limit can be reached. */
  uint64_t devrt_sync_depth, devrt_pending_launches;
  uint64_t stack_bytes; /* cudaLimitStackSize */
  uint64_t printf_fifo_bytes;
  uint64_t allocated_bytes;   /* live cudaMalloc-family bytes */
  GHashTable *alloc_sizes;    /* base -> size of live allocations (for MemGetInfo) */
  GPtrArray *modules;         /* WsCudartModule* */
  GHashTable *kernels;        /* host_fun -> WsCudartKernel* */
  GHashTable *kernel_handles; /* WsCudartKernel* set (cudaKernel_t validation) */
  GHashTable *vars;           /* host_var -> WsCudartVar* */
  GHashTable *streams;        /* cudaStream_t set */
  GHashTable *events;         /* cudaEvent_t set */
  cudaError_t sticky;         /* a kernel fault: every later call reports it */
  unsigned int device_flags;
  /* Totals for WS_SUMMARY. */
  guint64 launches;
  guint64 warp_instructions;
  guint64 thread_instructions;
  double seconds;
  double start_time;
  /* Instrumentation (WS_TOOLS, results to WS_TOOL_OUTPUT.NAME.json) and the
   * count of CUDA errors returned to the program (fault-injection symptoms). */
  struct _WsInstrument *instrument;
  guint64 errors_reported;
  cudaError_t first_reported_error;
  /* Memory checking and the watchdog (WS_MEMCHECK, WS_LAUNCH_TIMEOUT,
   * WS_INSTRUCTION_BUDGET), and every kernel fault of the run (JsonObject*:
   * kernel, launch, error, message) for the summary. */
  gboolean memcheck;
  GPtrArray *faults;
} WsCudart;

extern WsCudart ws_cudart;

/* Registration entry points called by nvcc's generated code (declared in
 * crt/host_runtime.h for C++ only). */
void **__cudaRegisterFatBinary (void *fatCubin);
void __cudaRegisterFatBinaryEnd (void **fatCubinHandle);
void __cudaUnregisterFatBinary (void **fatCubinHandle);
void __cudaRegisterVar (void **fatCubinHandle, char *hostVar, char *deviceAddress, const char *deviceName, int ext,
                        size_t size, int constant, int global);
void __cudaRegisterManagedVar (void **fatCubinHandle, void **hostVarPtrAddress, char *deviceAddress,
                               const char *deviceName, int ext, size_t size, int constant, int global);
char __cudaInitModule (void **fatCubinHandle);
void __cudaRegisterFunction (void **fatCubinHandle, const char *hostFun, char *deviceFun, const char *deviceName,
                             int thread_limit, uint3 *tid, uint3 *bid, dim3 *bDim, dim3 *gDim, int *wSize);
unsigned __cudaPushCallConfiguration (dim3 gridDim, dim3 blockDim, size_t sharedMem, struct CUstream_st *stream);
cudaError_t __cudaPopCallConfiguration (dim3 *gridDim, dim3 *blockDim, size_t *sharedMem, void *stream);
cudaError_t __cudaGetKernel (cudaKernel_t *kernel, const void *hostFun);
cudaError_t __cudaLaunchKernel (cudaKernel_t kernel, dim3 gridDim, dim3 blockDim, void **args, size_t sharedMem,
                                cudaStream_t stream);
cudaError_t __cudaLaunchKernel_ptsz (cudaKernel_t kernel, dim3 gridDim, dim3 blockDim, void **args, size_t sharedMem,
                                     cudaStream_t stream);

/* Per-thread default stream variants (_ptds/_ptsz): everything runs in
 * order on one emulated device, so they behave as the plain calls. */
cudaError_t cudaMemcpy_ptds (void *dst, const void *src, size_t count, enum cudaMemcpyKind kind);
cudaError_t cudaMemcpyAsync_ptsz (void *dst, const void *src, size_t count, enum cudaMemcpyKind kind,
                                  cudaStream_t stream);
cudaError_t cudaMemset_ptds (void *devPtr, int value, size_t count);
cudaError_t cudaMemsetAsync_ptsz (void *devPtr, int value, size_t count, cudaStream_t stream);
cudaError_t cudaMemcpy2D_ptds (void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height,
                               enum cudaMemcpyKind kind);
cudaError_t cudaMemcpy2DAsync_ptsz (void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                                    size_t height, enum cudaMemcpyKind kind, cudaStream_t stream);
cudaError_t cudaMemset2D_ptds (void *devPtr, size_t pitch, int value, size_t width, size_t height);
cudaError_t cudaMemset2DAsync_ptsz (void *devPtr, size_t pitch, int value, size_t width, size_t height,
                                    cudaStream_t stream);
cudaError_t cudaMemcpyToSymbol_ptds (const void *symbol, const void *src, size_t count, size_t offset,
                                     enum cudaMemcpyKind kind);
cudaError_t cudaMemcpyFromSymbol_ptds (void *dst, const void *symbol, size_t count, size_t offset,
                                       enum cudaMemcpyKind kind);
cudaError_t cudaMemcpyToSymbolAsync_ptsz (const void *symbol, const void *src, size_t count, size_t offset,
                                          enum cudaMemcpyKind kind, cudaStream_t stream);
cudaError_t cudaMemcpyFromSymbolAsync_ptsz (void *dst, const void *symbol, size_t count, size_t offset,
                                            enum cudaMemcpyKind kind, cudaStream_t stream);
cudaError_t cudaLaunchKernel_ptsz (const void *func, dim3 gridDim, dim3 blockDim, void **args, size_t sharedMem,
                                   cudaStream_t stream);
cudaError_t cudaLaunchKernelExC_ptsz (const cudaLaunchConfig_t *config, const void *func, void **args);
cudaError_t cudaLaunchCooperativeKernel_ptsz (const void *func, dim3 gridDim, dim3 blockDim, void **args,
                                              size_t sharedMem, cudaStream_t stream);
cudaError_t cudaStreamSynchronize_ptsz (cudaStream_t stream);
cudaError_t cudaStreamQuery_ptsz (cudaStream_t stream);
cudaError_t cudaStreamWaitEvent_ptsz (cudaStream_t stream, cudaEvent_t event, unsigned int flags);
cudaError_t cudaStreamGetFlags_ptsz (cudaStream_t hStream, unsigned int *flags);
cudaError_t cudaStreamGetPriority_ptsz (cudaStream_t hStream, int *priority);
cudaError_t cudaStreamSetAttribute_ptsz (cudaStream_t hStream, cudaStreamAttrID attr, const cudaStreamAttrValue *value);
cudaError_t cudaStreamGetAttribute_ptsz (cudaStream_t hStream, cudaStreamAttrID attr, cudaStreamAttrValue *value_out);
cudaError_t cudaStreamAddCallback_ptsz (cudaStream_t stream, cudaStreamCallback_t callback, void *userData,
                                        unsigned int flags);
cudaError_t cudaLaunchHostFunc_ptsz (cudaStream_t stream, cudaHostFn_t fn, void *userData);
cudaError_t cudaEventRecord_ptsz (cudaEvent_t event, cudaStream_t stream);
cudaError_t cudaEventRecordWithFlags_ptsz (cudaEvent_t event, cudaStream_t stream, unsigned int flags);
cudaError_t cudaStreamIsCapturing_ptsz (cudaStream_t stream, enum cudaStreamCaptureStatus *pCaptureStatus);
cudaError_t cudaStreamGetId_ptsz (cudaStream_t hStream, unsigned long long *streamId);
cudaError_t cudaStreamGetDevice_ptsz (cudaStream_t hStream, int *device);
cudaError_t cudaStreamAttachMemAsync_ptsz (cudaStream_t stream, void *devPtr, size_t length, unsigned int flags);
cudaError_t cudaStreamBeginCapture_ptsz (cudaStream_t stream, enum cudaStreamCaptureMode mode);
cudaError_t cudaStreamEndCapture_ptsz (cudaStream_t stream, cudaGraph_t *pGraph);
cudaError_t cudaStreamBeginCaptureToGraph_ptsz (cudaStream_t stream, cudaGraph_t graph,
                                                const cudaGraphNode_t *dependencies,
                                                const cudaGraphEdgeData *dependencyData, size_t numDependencies,
                                                enum cudaStreamCaptureMode mode);
cudaError_t cudaStreamGetCaptureInfo_ptsz (cudaStream_t stream, enum cudaStreamCaptureStatus *captureStatus_out,
                                           unsigned long long *id_out, cudaGraph_t *graph_out,
                                           const cudaGraphNode_t **dependencies_out,
                                           const cudaGraphEdgeData **edgeData_out, size_t *numDependencies_out);
cudaError_t cudaStreamUpdateCaptureDependencies_ptsz (cudaStream_t stream, cudaGraphNode_t *dependencies,
                                                      const cudaGraphEdgeData *dependencyData, size_t numDependencies,
                                                      unsigned int flags);
cudaError_t cudaGraphUpload_ptsz (cudaGraphExec_t graphExec, cudaStream_t stream);
cudaError_t cudaGraphLaunch_ptsz (cudaGraphExec_t graphExec, cudaStream_t stream);
cudaError_t cudaMallocAsync_ptsz (void **devPtr, size_t size, cudaStream_t hStream);
cudaError_t cudaFreeAsync_ptsz (void *devPtr, cudaStream_t hStream);
cudaError_t cudaMemPrefetchAsync_ptsz (const void *devPtr, size_t count, struct cudaMemLocation location,
                                       unsigned int flags, cudaStream_t stream);

/* ws-cudart-state.c */
/* Initialises the device on first use (target GPU, memory, emulator,
 * trace); returns the error every call reports when that failed, or the
 * sticky error of an earlier kernel fault. */
cudaError_t ws_cudart_ensure (void);
/* Records @err as the thread's last error (when not cudaSuccess) and returns it. */
cudaError_t ws_cudart_set_error (cudaError_t err);
/* Prints "warpscope: MESSAGE" to stderr. */
void ws_cudart_warn (const char *fmt, ...) G_GNUC_PRINTF (1, 2);
/* The target's compute capability as an sm number (80). */
int ws_cudart_target_sm (void);
cudaError_t ws_cudart_unsupported (const char *name);
int ws_cudart_stub_call (const char *name);
cudaError_t ws_cudart_ensure_emu (void);
/* Records a kernel fault for the exit summary (launch: 0-based index). */
void ws_cudart_note_fault (const char *kernel, guint64 launch, cudaError_t err, const char *message);

/* ws-cudart-register.c */
/* Loads the module's PTX into the emulator on first use. */
cudaError_t ws_cudart_module_load (WsCudartModule *module);
/* Kernel for a host stub or a cudaKernel_t; NULL when unknown. */
WsCudartKernel *ws_cudart_find_kernel (const void *func);
/* Resolves the kernel's module and emulator function. */
cudaError_t ws_cudart_kernel_resolve (WsCudartKernel *kernel);
cudaError_t ws_cudart_launch (const void *func, WsCudartKernel *kernel, dim3 grid, dim3 block, void **args,
                              size_t shared, cudaStream_t stream);
/* Device address and size of a registered __device__/__constant__ variable. */
cudaError_t ws_cudart_symbol_address (const void *symbol, uint64_t *addr, uint64_t *size);

/* ws-cudart-memory.c */
gboolean ws_cudart_is_device_ptr (const void *ptr);
/* cudaMalloc's allocation, labelled @what in fault reports. */
cudaError_t ws_cudart_allocate_device (void **ptr, size_t size, const char *what);

/* ws-cudart-device.c */
gboolean ws_cudart_stream_valid (cudaStream_t stream);

/* ws-cudart-graph.c: stream capture.  The graph @stream is capturing into,
 * or NULL (built-in streams never capture). */
WsCudartGraph *ws_cudart_capturing (cudaStream_t stream);
cudaError_t ws_cudart_capture_kernel (WsCudartGraph *graph, WsCudartKernel *kernel, dim3 grid, dim3 block, void **args,
                                      size_t shared);
cudaError_t ws_cudart_capture_memcpy (WsCudartGraph *graph, void *dst, const void *src, size_t count,
                                      enum cudaMemcpyKind kind);
cudaError_t ws_cudart_capture_memset (WsCudartGraph *graph, void *dst, int value, size_t count);
cudaError_t ws_cudart_capture_host (WsCudartGraph *graph, cudaHostFn_t fn, void *user_data);
/* cudaMallocAsync / cudaFreeAsync in a capture: graph memory nodes. */
cudaError_t ws_cudart_capture_malloc (WsCudartGraph *graph, void **ptr, size_t size);
cudaError_t ws_cudart_capture_free (WsCudartGraph *graph, void *ptr);
/* cudaFree/cudaFreeAsync of a graph allocation: TRUE when @ptr is one (then
 * @err is the result: it is unmapped, its address stays reserved). */
gboolean ws_cudart_graph_alloc_release (void *ptr, cudaError_t *err);
/* A stream operation that cannot be captured: ends the capture as invalid. */
cudaError_t ws_cudart_capture_unsupported (WsCudartGraph *graph, const char *what);

/* Starts the runtime on first use; returns the error from the calling API
 * function when it cannot start. */
/* clang-format off */
#define ENSURE_OR_RETURN()                                 \
  do {                                                     \
    cudaError_t ensure_err_ = ws_cudart_ensure ();         \
    if (ensure_err_ != cudaSuccess)                        \
      return ws_cudart_set_error (ensure_err_);            \
  } while (0)
/* clang-format on */

G_END_DECLS
