/* ws-cudart-register.c: fatbinary/kernel/variable registration, module
 * loading (PTX into the emulator, ptxas resources) and kernel launch. */
#define G_LOG_DOMAIN "ws-cudart"

#include "ws-config.h"
#include "cudart/ws-cudart-private.h"

#include <stdio.h>
#include <string.h>

/* The emulator's error numbers are cudaError_t's (it cannot include the CUDA
 * headers; this file can): a wrong number fails the build. */
G_STATIC_ASSERT ((int) WS_CUDA_ERROR_INVALID_VALUE == cudaErrorInvalidValue);
G_STATIC_ASSERT ((int) WS_CUDA_ERROR_MEMORY_ALLOCATION == cudaErrorMemoryAllocation);
G_STATIC_ASSERT ((int) WS_CUDA_ERROR_INVALID_CONFIGURATION == cudaErrorInvalidConfiguration);
G_STATIC_ASSERT ((int) WS_CUDA_ERROR_LAUNCH_MAX_DEPTH_EXCEEDED == cudaErrorLaunchMaxDepthExceeded);
G_STATIC_ASSERT ((int) WS_CUDA_ERROR_INVALID_DEVICE_FUNCTION == cudaErrorInvalidDeviceFunction);
G_STATIC_ASSERT ((int) WS_CUDA_ERROR_ILLEGAL_ADDRESS == cudaErrorIllegalAddress);
G_STATIC_ASSERT ((int) WS_CUDA_ERROR_LAUNCH_TIMEOUT == cudaErrorLaunchTimeout);
G_STATIC_ASSERT ((int) WS_CUDA_ERROR_ASSERT == cudaErrorAssert);
G_STATIC_ASSERT ((int) WS_CUDA_ERROR_HARDWARE_STACK_ERROR == cudaErrorHardwareStackError);
G_STATIC_ASSERT ((int) WS_CUDA_ERROR_MISALIGNED_ADDRESS == cudaErrorMisalignedAddress);
G_STATIC_ASSERT ((int) WS_CUDA_ERROR_INVALID_PC == cudaErrorInvalidPc);
G_STATIC_ASSERT ((int) WS_CUDA_ERROR_LAUNCH_FAILURE == cudaErrorLaunchFailure);
G_STATIC_ASSERT ((int) WS_CUDA_ERROR_NOT_SUPPORTED == cudaErrorNotSupported);

char *ws_cudart_link_ptx (GPtrArray *units);
void ws_cudart_apply_ptxas (WsCudartModule *module, const char *ptx, const char *options);

/* ---- registration (runs from the program's constructors) -------------- */

void **
__cudaRegisterFatBinary (void *fatCubin)
{
  WsCudartModule *m = g_new0 (WsCudartModule, 1);
  m->handle_slot = m;
  m->wrapper = fatCubin;
  m->managed = g_ptr_array_new ();
  g_autoptr (GError) error = NULL;
  m->fatbin = ws_fatbin_new_from_wrapper (fatCubin, &error);
  if (m->fatbin == NULL)
    m->parse_error = g_strdup (error->message);
  g_rec_mutex_lock (&ws_cudart.lock);
  g_ptr_array_add (ws_cudart.modules, m);
  g_rec_mutex_unlock (&ws_cudart.lock);
  return (void **) m;
}

void
__cudaRegisterFatBinaryEnd (void **fatCubinHandle)
{
  /* Modules load lazily, on the first launch or symbol access that needs
   * them (as CUDA's lazy loading does), so nothing to do here. */
}

void
__cudaUnregisterFatBinary (void **fatCubinHandle)
{
  WsCudartModule *m = (WsCudartModule *) fatCubinHandle;
  if (m == NULL)
    return;
  /* The emulator keeps the module until exit: kernels may still be looked
   * up by other modules' atexit handlers. */
  m->unregistered = TRUE;
}

void
__cudaRegisterFunction (void **fatCubinHandle, const char *hostFun, char *deviceFun, const char *deviceName,
                        int thread_limit, uint3 *tid, uint3 *bid, dim3 *bDim, dim3 *gDim, int *wSize)
{
  WsCudartModule *m = (WsCudartModule *) fatCubinHandle;
  WsCudartKernel *k = g_new0 (WsCudartKernel, 1);
  k->magic = WS_CUDART_KERNEL_MAGIC;
  k->module = m;
  k->host_fun = hostFun;
  k->name = g_strdup (deviceName != NULL ? deviceName : deviceFun);
  k->preferred_carveout = -1;
  g_rec_mutex_lock (&ws_cudart.lock);
  g_hash_table_insert (ws_cudart.kernels, (gpointer) hostFun, k);
  g_hash_table_add (ws_cudart.kernel_handles, k);
  g_rec_mutex_unlock (&ws_cudart.lock);
}

void
__cudaRegisterVar (void **fatCubinHandle, char *hostVar, char *deviceAddress, const char *deviceName, int ext,
                   size_t size, int constant, int global)
{
  WsCudartVar *v = g_new0 (WsCudartVar, 1);
  v->module = (WsCudartModule *) fatCubinHandle;
  v->host_var = hostVar;
  v->name = g_strdup (deviceName != NULL ? deviceName : deviceAddress);
  v->size = size;
  v->constant = constant != 0;
  g_rec_mutex_lock (&ws_cudart.lock);
  g_hash_table_insert (ws_cudart.vars, hostVar, v);
  g_rec_mutex_unlock (&ws_cudart.lock);
}

void
__cudaRegisterManagedVar (void **fatCubinHandle, void **hostVarPtrAddress, char *deviceAddress, const char *deviceName,
                          int ext, size_t size, int constant, int global)
{
  WsCudartModule *m = (WsCudartModule *) fatCubinHandle;
  WsCudartVar *v = g_new0 (WsCudartVar, 1);
  v->module = m;
  v->host_var = hostVarPtrAddress;
  v->managed_ptr = hostVarPtrAddress;
  v->name = g_strdup (deviceName != NULL ? deviceName : deviceAddress);
  v->size = size;
  g_rec_mutex_lock (&ws_cudart.lock);
  g_hash_table_insert (ws_cudart.vars, hostVarPtrAddress, v);
  g_ptr_array_add (m->managed, v);
  g_rec_mutex_unlock (&ws_cudart.lock);
}

/* Called before host code touches a __managed__ variable: the module must
 * be loaded so the variable's host pointer is set. */
char
__cudaInitModule (void **fatCubinHandle)
{
  WsCudartModule *m = (WsCudartModule *) fatCubinHandle;
  if (m == NULL)
    return 0;
  return ws_cudart_module_load (m) == cudaSuccess;
}

/* ---- module loading ----------------------------------------------------- */

/* Names the program in messages and the emulator's PTX origin. */
static const char *
program_name (void)
{
  extern char *program_invocation_short_name;
  return program_invocation_short_name != NULL && *program_invocation_short_name ? program_invocation_short_name
                                                                                 : "the program";
}

static cudaError_t
module_fail (WsCudartModule *m, cudaError_t status, char *message)
{
  m->load_status = status;
  m->load_error = message;
  ws_cudart_warn ("%s", message);
  return status;
}

cudaError_t
ws_cudart_module_load (WsCudartModule *m)
{
  cudaError_t err = ws_cudart_ensure_emu ();
  if (err != cudaSuccess)
    return err;
  g_rec_mutex_lock (&ws_cudart.lock);
  if (m->load_tried)
    {
      err = m->emu_module != NULL ? cudaSuccess : m->load_status;
      g_rec_mutex_unlock (&ws_cudart.lock);
      return err;
    }
  m->load_tried = TRUE;
  if (m->fatbin == NULL)
    {
      err = module_fail (m, cudaErrorInvalidKernelImage,
                         g_strdup_printf ("cannot read the fatbinary of %s: %s", program_name (), m->parse_error));
      g_rec_mutex_unlock (&ws_cudart.lock);
      return err;
    }
  g_autoptr (GError) error = NULL;
  /* PTX newer than the target runs anyway (with a warning): the emulator
   * does not depend on the target, and the catalogue's older GPUs (which
   * nvcc 13 cannot compile for) are still worth modelling. */
  g_autoptr (GPtrArray) units = ws_fatbin_select_ptx (m->fatbin, ws_cudart_target_sm (), WS_FATBIN_SELECT_ALLOW_NEWER,
                                                      program_name (), &error);
  if (units == NULL)
    {
      err = module_fail (m, cudaErrorNoKernelImageForDevice, g_strdup (error->message));
      g_rec_mutex_unlock (&ws_cudart.lock);
      return err;
    }
  const WsFatbinPtx *first = units->pdata[0];
  m->ptx_arch = first->arch;
  if (first->newer_than_target)
    ws_cudart_warn ("%s has PTX for compute_%u only, newer than the target GPU %s (sm_%d); running it anyway: "
                    "device properties, limits and occupancy describe %s, but a real %s could not run this binary",
                    program_name (), first->arch, ws_cudart.gpu->name, ws_cudart_target_sm (), ws_cudart.gpu->name,
                    ws_cudart.gpu->name);
  g_autofree char *linked = NULL;
  const char *ptx;
  gsize len;
  const char *options = ((WsFatbinPtx *) units->pdata[0])->ptxas_options;
  if (units->len == 1)
    {
      ptx = ((WsFatbinPtx *) units->pdata[0])->ptx;
      len = ((WsFatbinPtx *) units->pdata[0])->len;
    }
  else
    {
      /* -rdc=true: one PTX per translation unit, linked into one module. */
      linked = ws_cudart_link_ptx (units);
      ptx = linked;
      len = strlen (linked);
    }
  /* __managed__ variables are ordinary globals here: host and emulated
   * device share one address space, so the attribute has nothing to add. */
  g_autofree char *unmanaged = NULL;
  if (strstr (ptx, ".attribute(.managed)") != NULL)
    {
      g_autoptr (GString) s = g_string_new_len (ptx, len);
      g_string_replace (s, ".attribute(.managed)", "", 0);
      len = s->len;
      unmanaged = g_string_free (g_steal_pointer (&s), FALSE);
      ptx = unmanaged;
    }
  g_autofree char *origin = g_strdup_printf ("%s (PTX)", program_name ());
  m->emu_module = ws_emu_load_ptx (ws_cudart.emu, ptx, len, origin, &error);
  if (m->emu_module == NULL)
    {
      err = module_fail (m, cudaErrorInvalidPtx,
                         g_strdup_printf ("cannot load the PTX of %s: %s", program_name (), error->message));
      g_rec_mutex_unlock (&ws_cudart.lock);
      return err;
    }
  /* __managed__ variables: the host reaches them through a pointer that
   * now points at the variable's device copy (identity-mapped). */
  for (guint i = 0; i < m->managed->len; i++)
    {
      WsCudartVar *v = m->managed->pdata[i];
      uint64_t addr = 0, size = 0;
      if (ws_emu_module_get_global (m->emu_module, v->name, &addr, &size))
        *v->managed_ptr = (void *) (uintptr_t) addr;
      else
        ws_cudart_warn ("__managed__ variable %s is not in the module's PTX", v->name);
    }
  /* ptxas's resources per translation unit: the linked text above is the
   * emulator's (ptxas refuses its .extern declarations next to their
   * definitions); each unit compiles alone as relocatable code. */
  if (units->len == 1)
    ws_cudart_apply_ptxas (m, ptx, options);
  else
    for (guint i = 0; i < units->len; i++)
      {
        const WsFatbinPtx *u = units->pdata[i];
        ws_cudart_apply_ptxas (m, u->ptx, u->ptxas_options);
      }
  g_rec_mutex_unlock (&ws_cudart.lock);
  return cudaSuccess;
}

WsCudartKernel *
ws_cudart_find_kernel (const void *func)
{
  if (func == NULL)
    return NULL;
  g_rec_mutex_lock (&ws_cudart.lock);
  WsCudartKernel *k = g_hash_table_lookup (ws_cudart.kernels, func);
  /* A cudaKernel_t from cudaGetKernel/__cudaGetKernel is accepted too. */
  if (k == NULL && g_hash_table_contains (ws_cudart.kernel_handles, func))
    k = (WsCudartKernel *) func;
  g_rec_mutex_unlock (&ws_cudart.lock);
  return k;
}

cudaError_t
ws_cudart_kernel_resolve (WsCudartKernel *k)
{
  if (k->fn != NULL)
    return cudaSuccess;
  cudaError_t err = ws_cudart_module_load (k->module);
  if (err != cudaSuccess)
    return err;
  g_rec_mutex_lock (&ws_cudart.lock);
  if (k->fn == NULL)
    k->fn = ws_emu_module_get_function (k->module->emu_module, k->name);
  g_rec_mutex_unlock (&ws_cudart.lock);
  if (k->fn == NULL)
    {
      ws_cudart_warn ("kernel %s is registered by %s but missing from its PTX", k->name, program_name ());
      return cudaErrorInvalidDeviceFunction;
    }
  return cudaSuccess;
}

cudaError_t
ws_cudart_symbol_address (const void *symbol, uint64_t *addr, uint64_t *size)
{
  g_rec_mutex_lock (&ws_cudart.lock);
  WsCudartVar *v = g_hash_table_lookup (ws_cudart.vars, symbol);
  g_rec_mutex_unlock (&ws_cudart.lock);
  if (v == NULL)
    return cudaErrorInvalidSymbol;
  cudaError_t err = ws_cudart_module_load (v->module);
  if (err != cudaSuccess)
    return err;
  if (!ws_emu_module_get_global (v->module->emu_module, v->name, addr, size))
    {
      ws_cudart_warn ("device variable %s is registered but missing from the module's PTX", v->name);
      return cudaErrorInvalidSymbol;
    }
  return cudaSuccess;
}

/* ---- launch ------------------------------------------------------------- */

typedef struct {
  dim3 grid, block;
  size_t shared;
  cudaStream_t stream;
} CallConfig;

/* <<<...>>> pushes a configuration that the stub pops; nested launches
 * from host code between push and pop cannot happen, but keep a small
 * stack per thread as the real runtime does. */
static _Thread_local CallConfig config_stack[8];
static _Thread_local guint config_depth;

unsigned
__cudaPushCallConfiguration (dim3 gridDim, dim3 blockDim, size_t sharedMem, struct CUstream_st *stream)
{
  if (config_depth >= G_N_ELEMENTS (config_stack))
    {
      ws_cudart_warn ("kernel launch configurations nested too deeply");
      return 1;
    }
  CallConfig *c = &config_stack[config_depth++];
  c->grid = gridDim;
  c->block = blockDim;
  c->shared = sharedMem;
  c->stream = stream;
  return 0;
}

cudaError_t
__cudaPopCallConfiguration (dim3 *gridDim, dim3 *blockDim, size_t *sharedMem, void *stream)
{
  if (config_depth == 0)
    return ws_cudart_set_error (cudaErrorMissingConfiguration);
  CallConfig *c = &config_stack[--config_depth];
  *gridDim = c->grid;
  *blockDim = c->block;
  *sharedMem = c->shared;
  *(cudaStream_t *) stream = c->stream;
  return cudaSuccess;
}

cudaError_t
__cudaGetKernel (cudaKernel_t *kernel, const void *hostFun)
{
  if (kernel == NULL)
    return ws_cudart_set_error (cudaErrorInvalidValue);
  WsCudartKernel *k = ws_cudart_find_kernel (hostFun);
  if (k == NULL)
    {
      *kernel = NULL;
      return ws_cudart_set_error (cudaErrorInvalidDeviceFunction);
    }
  *kernel = (cudaKernel_t) k;
  return cudaSuccess;
}

cudaError_t
cudaGetKernel (cudaKernel_t *kernelPtr, const void *entryFuncAddr)
{
  return __cudaGetKernel (kernelPtr, entryFuncAddr);
}

/* A kernel that reaches an instruction the emulator does not implement
 * (its module loaded all the same): the launch fails, as a launch with no
 * kernel image for the device does, and later calls are not affected. */
static cudaError_t
check_runnable (WsCudartKernel *k)
{
  WsEmuFunctionInfo info = { 0 };
  ws_emu_function_get_info (k->fn, &info);
  if (info.cannot_run == NULL)
    return cudaSuccess;
  ws_cudart_warn ("launch of %s refused: %s", k->name, info.cannot_run);
  return cudaErrorInvalidDeviceFunction;
}

static cudaError_t
check_config (WsCudartKernel *k, dim3 grid, dim3 block, size_t shared)
{
  const WsGpu *gpu = ws_cudart.gpu;
  WsEmuFunctionInfo info = { 0 };
  ws_emu_function_get_info (k->fn, &info);
  guint64 threads = (guint64) block.x * block.y * block.z;
  /* CUDA's limits for every GPU since compute capability 3.0 (CUDA C++
   * Programming Guide, "Technical Specifications per Compute Capability");
   * each failed limit names itself, so a grid of 0 or a grid y of 65 536
   * is not reported as a block too large. */
  static const struct {
    char axis;
    guint64 grid_max, block_max;
  } axes[] = {
    { 'x', 2147483647u, 1024 },
    { 'y', 65535, 1024 },
    { 'z', 65535, 64 },
  };
  const guint32 grid_dim[3] = { grid.x, grid.y, grid.z }, block_dim[3] = { block.x, block.y, block.z };
  for (guint i = 0; i < G_N_ELEMENTS (axes); i++)
    {
      const char *what = NULL;
      guint64 value = 0, max = 0;
      if (grid_dim[i] == 0 || grid_dim[i] > axes[i].grid_max)
        what = "grid", value = grid_dim[i], max = axes[i].grid_max;
      else if (block_dim[i] == 0 || block_dim[i] > axes[i].block_max)
        what = "block", value = block_dim[i], max = axes[i].block_max;
      if (what != NULL)
        {
          ws_cudart_warn ("launch of %s with grid (%u,%u,%u) block (%u,%u,%u): invalid configuration: %s %c "
                          "is %" G_GUINT64_FORMAT ", must be 1 to %" G_GUINT64_FORMAT,
                          k->name, grid.x, grid.y, grid.z, block.x, block.y, block.z, what, axes[i].axis, value, max);
          return cudaErrorInvalidConfiguration;
        }
    }
  if (threads > (guint64) gpu->max_threads_per_block)
    {
      ws_cudart_warn ("launch of %s with grid (%u,%u,%u) block (%u,%u,%u): invalid configuration: %" G_GUINT64_FORMAT
                      " threads per block, at most %d threads per block on %s",
                      k->name, grid.x, grid.y, grid.z, block.x, block.y, block.z, threads, gpu->max_threads_per_block,
                      gpu->name);
      return cudaErrorInvalidConfiguration;
    }
  if (info.max_threads_per_block > 0 && threads > info.max_threads_per_block)
    {
      ws_cudart_warn ("launch of %s with grid (%u,%u,%u) block (%u,%u,%u): invalid configuration: %" G_GUINT64_FORMAT
                      " threads per block, but the kernel allows at most %u (its __launch_bounds__ or .maxntid)",
                      k->name, grid.x, grid.y, grid.z, block.x, block.y, block.z, threads, info.max_threads_per_block);
      return cudaErrorInvalidConfiguration;
    }
  guint64 regs = (guint64) info.num_regs * (((threads + 31) / 32) * 32);
  if (info.num_regs > 0 && gpu->max_registers_per_block > 0 && regs > (guint64) gpu->max_registers_per_block)
    {
      ws_cudart_warn ("launch of %s: %u registers per thread x %" G_GUINT64_FORMAT " threads exceed the %d "
                      "registers of a block on %s",
                      k->name, info.num_regs, threads, gpu->max_registers_per_block, gpu->name);
      return cudaErrorLaunchOutOfResources;
    }
  /* Above the default per-block limit only after the program opted in
   * with cudaFuncAttributeMaxDynamicSharedMemorySize, and then up to the
   * size it asked for. */
  gboolean opted_in = k->max_dynamic_shared > 0;
  guint64 limit = (guint64) (opted_in ? gpu->shared_per_block_optin : gpu->shared_per_block);
  if (shared + info.static_shared_bytes > limit || (opted_in && shared > (size_t) k->max_dynamic_shared))
    {
      ws_cudart_warn ("launch of %s: %zu bytes of dynamic + %u bytes of static shared memory exceed the limit "
                      "(%d bytes; raise it with cudaFuncSetAttribute(cudaFuncAttributeMaxDynamicSharedMemorySize), "
                      "up to %d bytes on %s)",
                      k->name, shared, info.static_shared_bytes,
                      opted_in ? k->max_dynamic_shared : gpu->shared_per_block, gpu->shared_per_block_optin, gpu->name);
      return cudaErrorInvalidValue;
    }
  return cudaSuccess;
}

static cudaError_t launch_ex (const void *func, WsCudartKernel *k, dim3 grid, dim3 block, void **args, size_t shared,
                              cudaStream_t stream, gboolean cooperative);

cudaError_t
ws_cudart_launch (const void *func, WsCudartKernel *k, dim3 grid, dim3 block, void **args, size_t shared,
                  cudaStream_t stream)
{
  return launch_ex (func, k, grid, block, args, shared, stream, FALSE);
}

/* cudaLaunchCooperativeKernel: the grid must fit on the device at once
 * (cudaErrorCooperativeLaunchTooLarge otherwise), as grid.sync() needs. */
cudaError_t
cudaLaunchCooperativeKernel (const void *func, dim3 gridDim, dim3 blockDim, void **args, size_t sharedMem,
                             cudaStream_t stream)
{
  return launch_ex (func, NULL, gridDim, blockDim, args, sharedMem, stream, TRUE);
}

cudaError_t
cudaLaunchCooperativeKernel_ptsz (const void *func, dim3 gridDim, dim3 blockDim, void **args, size_t sharedMem,
                                  cudaStream_t stream)
{
  return cudaLaunchCooperativeKernel (func, gridDim, blockDim, args, sharedMem, stream);
}

static cudaError_t
launch_ex (const void *func, WsCudartKernel *k, dim3 grid, dim3 block, void **args, size_t shared, cudaStream_t stream,
           gboolean cooperative)
{
  cudaError_t err = ws_cudart_ensure ();
  if (err != cudaSuccess)
    return ws_cudart_set_error (err);
  if (k == NULL)
    k = ws_cudart_find_kernel (func);
  if (k == NULL)
    {
      ws_cudart_warn ("launch of %p, which is not a registered __global__ function", func);
      return ws_cudart_set_error (cudaErrorInvalidDeviceFunction);
    }
  if (!ws_cudart_stream_valid (stream))
    return ws_cudart_set_error (cudaErrorInvalidResourceHandle);
  err = ws_cudart_kernel_resolve (k);
  if (err != cudaSuccess)
    return ws_cudart_set_error (err);
  err = check_runnable (k);
  if (err != cudaSuccess)
    return ws_cudart_set_error (err);
  err = check_config (k, grid, block, shared);
  if (err != cudaSuccess)
    return ws_cudart_set_error (err);
  if (cooperative)
    {
      int per_sm = 0;
      uint64_t blocks = (uint64_t) grid.x * grid.y * grid.z;
      err = cudaOccupancyMaxActiveBlocksPerMultiprocessor (&per_sm, k->host_fun, (int) (block.x * block.y * block.z),
                                                           shared);
      if (err != cudaSuccess)
        return err;
      if (blocks > (uint64_t) per_sm * (uint64_t) MAX (ws_cudart.gpu->sms, 1))
        {
          ws_cudart_warn ("cooperative launch of %s: %" G_GUINT64_FORMAT
                          " blocks do not fit on %s at once (%d per SM x "
                          "%d SMs)",
                          k->name, blocks, ws_cudart.gpu->name, per_sm, ws_cudart.gpu->sms);
          return ws_cudart_set_error (cudaErrorCooperativeLaunchTooLarge);
        }
    }
  WsCudartGraph *capture = ws_cudart_capturing (stream);
  if (capture != NULL)
    {
      if (cooperative)
        return ws_cudart_capture_unsupported (capture, "cooperative kernel launch");
      return ws_cudart_capture_kernel (capture, k, grid, block, args, shared);
    }

  WsLaunchConfig config = {
    .grid = { grid.x, grid.y, grid.z },
    .block = { block.x, block.y, block.z },
    .dynamic_shared_bytes = (uint32_t) shared,
    .cooperative = cooperative,
  };
  WsLaunchStats stats = { 0 };
  int cuda_error = WS_CUDA_SUCCESS;
  g_autoptr (GError) error = NULL;
  g_rec_mutex_lock (&ws_cudart.lock);
  gboolean ok = ws_emu_launch (ws_cudart.emu, k->fn, &config, args, &stats, &cuda_error, &error);
  ws_cudart.launches++;
  ws_cudart.warp_instructions += stats.warp_instructions;
  ws_cudart.thread_instructions += stats.thread_instructions;
  ws_cudart.seconds += stats.seconds;
  if (!ok)
    {
      /* Like a GPU: the launch itself was accepted; the fault is a sticky
       * error every later call reports. */
      ws_cudart.sticky = cuda_error != 0 ? (cudaError_t) cuda_error : cudaErrorLaunchFailure;
      ws_cudart_warn ("kernel %s failed (%s): %s", k->name, cudaGetErrorName (ws_cudart.sticky),
                      error != NULL ? error->message : "no details");
      ws_cudart_note_fault (k->name, ws_cudart.launches - 1, ws_cudart.sticky,
                            error != NULL ? error->message : "no details");
    }
  g_rec_mutex_unlock (&ws_cudart.lock);
  return cudaSuccess;
}

cudaError_t
__cudaLaunchKernel (cudaKernel_t kernel, dim3 gridDim, dim3 blockDim, void **args, size_t sharedMem,
                    cudaStream_t stream)
{
  WsCudartKernel *k = ws_cudart_find_kernel (kernel);
  return ws_cudart_launch (kernel, k, gridDim, blockDim, args, sharedMem, stream);
}

cudaError_t
__cudaLaunchKernel_ptsz (cudaKernel_t kernel, dim3 gridDim, dim3 blockDim, void **args, size_t sharedMem,
                         cudaStream_t stream)
{
  return __cudaLaunchKernel (kernel, gridDim, blockDim, args, sharedMem, stream);
}

cudaError_t
cudaLaunchKernel (const void *func, dim3 gridDim, dim3 blockDim, void **args, size_t sharedMem, cudaStream_t stream)
{
  return ws_cudart_launch (func, NULL, gridDim, blockDim, args, sharedMem, stream);
}

cudaError_t
cudaLaunchKernel_ptsz (const void *func, dim3 gridDim, dim3 blockDim, void **args, size_t sharedMem,
                       cudaStream_t stream)
{
  return cudaLaunchKernel (func, gridDim, blockDim, args, sharedMem, stream);
}

cudaError_t
cudaLaunchKernelExC (const cudaLaunchConfig_t *config, const void *func, void **args)
{
  gboolean cooperative = FALSE;
  if (config == NULL)
    return ws_cudart_set_error (cudaErrorInvalidValue);
  for (unsigned int i = 0; i < config->numAttrs; i++)
    {
      const cudaLaunchAttribute *a = &config->attrs[i];
      switch (a->id)
        {
        case cudaLaunchAttributeIgnore:
        case cudaLaunchAttributeAccessPolicyWindow: /* cache hints: no effect on results */
        case cudaLaunchAttributeSynchronizationPolicy:
        case cudaLaunchAttributePriority:
        case cudaLaunchAttributeMemSyncDomainMap:
        case cudaLaunchAttributeMemSyncDomain: break;
        case cudaLaunchAttributeProgrammaticStreamSerialization:
          /* Launches run one after the other: the dependent grid never
           * overlaps the one before it, a valid schedule of this hint. */
          break;
        case cudaLaunchAttributeCooperative: cooperative = a->val.cooperative != 0; break;
        default:
          ws_cudart_warn ("cudaLaunchKernelExC: launch attribute %d is not supported by the Warpscope emulator "
                          "(clusters and programmatic launches are not emulated)",
                          (int) a->id);
          return ws_cudart_set_error (cudaErrorNotSupported);
        }
    }
  return launch_ex (func, NULL, config->gridDim, config->blockDim, args, config->dynamicSmemBytes, config->stream,
                    cooperative);
}

cudaError_t
cudaLaunchKernelExC_ptsz (const cudaLaunchConfig_t *config, const void *func, void **args)
{
  return cudaLaunchKernelExC (config, func, args);
}
