/* ws-cudart-device.c: the one emulated device (properties from the
 * catalogue GPU), streams and events (in order), function attributes and
 * the occupancy API. */
#define G_LOG_DOMAIN "ws-cudart"

#include "cudart/ws-cudart-private.h"

#include <string.h>

#include "occupancy/ws-occupancy.h"

/* Texture/surface limits are architectural constants of compute
 * capability 5.0 and newer (CUDA programming guide, "Technical
 * Specifications per Compute Capability"); the emulator has no textures,
 * but programs print and check these. */
/* clang-format off */
enum {
  TEX1D = 131072, TEX2D_W = 131072, TEX2D_H = 65536, TEX3D = 16384, SURF = 32768,
};
/* clang-format on */

/* Value of a device attribute for the target GPU; FALSE when not modelled. */
static gboolean
attribute_value (enum cudaDeviceAttr attr, int *value)
{
  const WsGpu *g = ws_cudart.gpu;
  int sm = g->cc_major * 10 + g->cc_minor;
  int v;
  switch ((int) attr)
    {
    case cudaDevAttrMaxThreadsPerBlock: v = g->max_threads_per_block; break;
    case cudaDevAttrMaxBlockDimX: v = 1024; break;
    case cudaDevAttrMaxBlockDimY: v = 1024; break;
    case cudaDevAttrMaxBlockDimZ: v = 64; break;
    case cudaDevAttrMaxGridDimX: v = 2147483647; break;
    case cudaDevAttrMaxGridDimY: v = 65535; break;
    case cudaDevAttrMaxGridDimZ: v = 65535; break;
    case cudaDevAttrMaxSharedMemoryPerBlock: v = g->shared_per_block; break;
    case cudaDevAttrTotalConstantMemory: v = 65536; break;
    case cudaDevAttrWarpSize: v = g->warp_size; break;
    case cudaDevAttrMaxPitch: v = 2147483647; break;
    case cudaDevAttrMaxRegistersPerBlock: v = g->max_registers_per_block; break;
    case cudaDevAttrClockRate: v = (int) (g->core_clock_mhz * 1000.0); break; /* kHz */
    case cudaDevAttrTextureAlignment: v = 512; break;
    case cudaDevAttrGpuOverlap: v = 1; break;
    case cudaDevAttrMultiProcessorCount: v = g->sms; break;
    case cudaDevAttrKernelExecTimeout: v = 0; break;
    case cudaDevAttrIntegrated: v = 0; break;
    case cudaDevAttrCanMapHostMemory: v = 1; break;
    case cudaDevAttrComputeMode: v = cudaComputeModeDefault; break;
    case cudaDevAttrMaxTexture1DWidth: v = TEX1D; break;
    case cudaDevAttrMaxTexture2DWidth: v = TEX2D_W; break;
    case cudaDevAttrMaxTexture2DHeight: v = TEX2D_H; break;
    case cudaDevAttrMaxTexture3DWidth:
    case cudaDevAttrMaxTexture3DHeight:
    case cudaDevAttrMaxTexture3DDepth: v = TEX3D; break;
    case cudaDevAttrSurfaceAlignment: v = 512; break;
    case cudaDevAttrConcurrentKernels: v = 1; break;
    case cudaDevAttrEccEnabled: v = 0; break;
    case cudaDevAttrPciBusId: v = 1; break;
    case cudaDevAttrPciDeviceId: v = 0; break;
    case cudaDevAttrPciDomainId: v = 0; break;
    case cudaDevAttrTccDriver: v = 0; break;
    case cudaDevAttrMemoryClockRate: v = (int) (g->dram_clock_mhz * 1000.0); break; /* kHz */
    case cudaDevAttrGlobalMemoryBusWidth: v = g->dram_bus_width_bits; break;
    case cudaDevAttrL2CacheSize: v = g->l2_size; break;
    case cudaDevAttrMaxThreadsPerMultiProcessor: v = g->max_warps_per_sm * g->warp_size; break;
    case cudaDevAttrAsyncEngineCount: v = 2; break;
    case cudaDevAttrUnifiedAddressing: v = 1; break;
    case cudaDevAttrTexturePitchAlignment: v = 32; break;
    case cudaDevAttrComputeCapabilityMajor: v = g->cc_major; break;
    case cudaDevAttrComputeCapabilityMinor: v = g->cc_minor; break;
    case cudaDevAttrStreamPrioritiesSupported: v = 1; break;
    case cudaDevAttrGlobalL1CacheSupported: v = 1; break;
    case cudaDevAttrLocalL1CacheSupported: v = 1; break;
    case cudaDevAttrMaxSharedMemoryPerMultiprocessor: v = g->shared_per_sm; break;
    case cudaDevAttrMaxRegistersPerMultiprocessor: v = g->registers_per_sm; break;
    case cudaDevAttrManagedMemory: v = 1; break;
    case cudaDevAttrIsMultiGpuBoard: v = 0; break;
    case cudaDevAttrMultiGpuBoardGroupID: v = 0; break;
    case cudaDevAttrHostNativeAtomicSupported: v = 0; break;
    case cudaDevAttrSingleToDoublePrecisionPerfRatio:
      v = g->fp64_units_per_sm > 0 ? MAX (1, g->cuda_cores_per_sm / g->fp64_units_per_sm) : 32;
      break;
    case cudaDevAttrPageableMemoryAccess: v = 0; break;
    case cudaDevAttrConcurrentManagedAccess: v = 1; break;
    case cudaDevAttrComputePreemptionSupported: v = 1; break;
    case cudaDevAttrCanUseHostPointerForRegisteredMem: v = 0; break;
    case cudaDevAttrCooperativeLaunch: v = 1; break; /* every block of the grid runs at once */
    case cudaDevAttrMaxSharedMemoryPerBlockOptin: v = g->shared_per_block_optin; break;
    case cudaDevAttrCanFlushRemoteWrites: v = 0; break;
    case cudaDevAttrHostRegisterSupported: v = 0; break;
    case cudaDevAttrPageableMemoryAccessUsesHostPageTables: v = 0; break;
    case cudaDevAttrDirectManagedMemAccessFromHost: v = 0; break;
    case cudaDevAttrMaxBlocksPerMultiprocessor: v = g->max_blocks_per_sm; break;
    case cudaDevAttrMaxPersistingL2CacheSize: v = sm >= 80 ? g->l2_size / 4 * 3 : 0; break;
    case cudaDevAttrMaxAccessPolicyWindowSize: v = sm >= 80 ? 134213632 : 0; break;
    case cudaDevAttrReservedSharedMemoryPerBlock: v = g->shared_reserved_per_block; break;
    case cudaDevAttrSparseCudaArraySupported: v = 0; break;
    case cudaDevAttrHostRegisterReadOnlySupported: v = 0; break;
    case cudaDevAttrTimelineSemaphoreInteropSupported: v = 0; break;
    case cudaDevAttrMemoryPoolsSupported: v = 1; break; /* cudaMallocAsync/cudaFreeAsync */
    case cudaDevAttrGPUDirectRDMASupported: v = 0; break;
    case cudaDevAttrClusterLaunch: v = 0; break;
    case cudaDevAttrIpcEventSupport: v = 0; break;
    case cudaDevAttrMemSyncDomainCount: v = 1; break;
    case cudaDevAttrNumaConfig: v = 0; break;
    case cudaDevAttrNumaId: v = -1; break;
    case cudaDevAttrMpsEnabled: v = 0; break;
    case cudaDevAttrHostNumaId: v = -1; break;
    default: return FALSE;
    }
  *value = v;
  return TRUE;
}

static int
attr (enum cudaDeviceAttr a)
{
  int v = 0;
  attribute_value (a, &v);
  return v;
}

cudaError_t
cudaDeviceGetAttribute (int *value, enum cudaDeviceAttr attr, int device)
{
  if (value == NULL)
    return ws_cudart_set_error (cudaErrorInvalidValue);
  ENSURE_OR_RETURN ();
  if (device != 0)
    return ws_cudart_set_error (cudaErrorInvalidDevice);
  if (!attribute_value (attr, value))
    {
      ws_cudart_warn ("cudaDeviceGetAttribute: attribute %d is not modelled by the Warpscope emulator", (int) attr);
      return ws_cudart_set_error (cudaErrorInvalidValue);
    }
  return cudaSuccess;
}

cudaError_t
cudaGetDeviceCount (int *count)
{
  if (count == NULL)
    return ws_cudart_set_error (cudaErrorInvalidValue);
  cudaError_t err = ws_cudart_ensure ();
  if (err != cudaSuccess && err == ws_cudart.init_status)
    {
      *count = 0;
      return ws_cudart_set_error (err);
    }
  *count = 1;
  return cudaSuccess;
}

cudaError_t
cudaGetDeviceProperties (struct cudaDeviceProp *prop, int device)
{
  if (prop == NULL)
    return ws_cudart_set_error (cudaErrorInvalidValue);
  ENSURE_OR_RETURN ();
  if (device != 0)
    return ws_cudart_set_error (cudaErrorInvalidDevice);
  const WsGpu *g = ws_cudart.gpu;
  memset (prop, 0, sizeof *prop);
  g_strlcpy (prop->name, g->name, sizeof prop->name);
  /* A stable UUID derived from the GPU's name. */
  g_autoptr (GChecksum) sum = g_checksum_new (G_CHECKSUM_SHA256);
  g_checksum_update (sum, (const guchar *) g->name, -1);
  guint8 digest[32];
  gsize dlen = sizeof digest;
  g_checksum_get_digest (sum, digest, &dlen);
  memcpy (prop->uuid.bytes, digest, sizeof prop->uuid.bytes);
  prop->totalGlobalMem = (size_t) (g->memory_gb * 1e9);
  prop->sharedMemPerBlock = (size_t) g->shared_per_block;
  prop->regsPerBlock = g->max_registers_per_block;
  prop->warpSize = g->warp_size;
  prop->memPitch = (size_t) attr (cudaDevAttrMaxPitch);
  prop->maxThreadsPerBlock = g->max_threads_per_block;
  prop->maxThreadsDim[0] = attr (cudaDevAttrMaxBlockDimX);
  prop->maxThreadsDim[1] = attr (cudaDevAttrMaxBlockDimY);
  prop->maxThreadsDim[2] = attr (cudaDevAttrMaxBlockDimZ);
  prop->maxGridSize[0] = attr (cudaDevAttrMaxGridDimX);
  prop->maxGridSize[1] = attr (cudaDevAttrMaxGridDimY);
  prop->maxGridSize[2] = attr (cudaDevAttrMaxGridDimZ);
  prop->totalConstMem = (size_t) attr (cudaDevAttrTotalConstantMemory);
  prop->major = g->cc_major;
  prop->minor = g->cc_minor;
  prop->textureAlignment = (size_t) attr (cudaDevAttrTextureAlignment);
  prop->texturePitchAlignment = (size_t) attr (cudaDevAttrTexturePitchAlignment);
  prop->multiProcessorCount = g->sms;
  prop->integrated = 0;
  prop->canMapHostMemory = 1;
  prop->maxTexture1D = TEX1D;
  prop->maxTexture1DMipmap = 32768;
  prop->maxTexture2D[0] = TEX2D_W;
  prop->maxTexture2D[1] = TEX2D_H;
  prop->maxTexture2DMipmap[0] = 32768;
  prop->maxTexture2DMipmap[1] = 32768;
  prop->maxTexture2DLinear[0] = TEX2D_W;
  prop->maxTexture2DLinear[1] = TEX2D_H;
  prop->maxTexture2DLinear[2] = 2097120;
  prop->maxTexture2DGather[0] = 32768;
  prop->maxTexture2DGather[1] = 32768;
  for (int i = 0; i < 3; i++)
    prop->maxTexture3D[i] = TEX3D;
  prop->maxTexture3DAlt[0] = 8192;
  prop->maxTexture3DAlt[1] = 8192;
  prop->maxTexture3DAlt[2] = 32768;
  prop->maxTextureCubemap = 32768;
  prop->maxTexture1DLayered[0] = 32768;
  prop->maxTexture1DLayered[1] = 2048;
  prop->maxTexture2DLayered[0] = 32768;
  prop->maxTexture2DLayered[1] = 32768;
  prop->maxTexture2DLayered[2] = 2048;
  prop->maxTextureCubemapLayered[0] = 32768;
  prop->maxTextureCubemapLayered[1] = 2046;
  prop->maxSurface1D = SURF;
  prop->maxSurface2D[0] = 131072;
  prop->maxSurface2D[1] = 65536;
  prop->maxSurface3D[0] = 16384;
  prop->maxSurface3D[1] = 16384;
  prop->maxSurface3D[2] = 16384;
  prop->maxSurface1DLayered[0] = SURF;
  prop->maxSurface1DLayered[1] = 2048;
  prop->maxSurface2DLayered[0] = SURF;
  prop->maxSurface2DLayered[1] = SURF;
  prop->maxSurface2DLayered[2] = 2048;
  prop->maxSurfaceCubemap = SURF;
  prop->maxSurfaceCubemapLayered[0] = SURF;
  prop->maxSurfaceCubemapLayered[1] = 2046;
  prop->surfaceAlignment = (size_t) attr (cudaDevAttrSurfaceAlignment);
  prop->concurrentKernels = 1;
  prop->ECCEnabled = 0;
  prop->pciBusID = attr (cudaDevAttrPciBusId);
  prop->pciDeviceID = 0;
  prop->pciDomainID = 0;
  prop->tccDriver = 0;
  prop->asyncEngineCount = attr (cudaDevAttrAsyncEngineCount);
  prop->unifiedAddressing = 1;
  prop->memoryBusWidth = g->dram_bus_width_bits;
  prop->l2CacheSize = g->l2_size;
  prop->persistingL2CacheMaxSize = attr (cudaDevAttrMaxPersistingL2CacheSize);
  prop->maxThreadsPerMultiProcessor = attr (cudaDevAttrMaxThreadsPerMultiProcessor);
  prop->streamPrioritiesSupported = 1;
  prop->globalL1CacheSupported = 1;
  prop->localL1CacheSupported = 1;
  prop->sharedMemPerMultiprocessor = (size_t) g->shared_per_sm;
  prop->regsPerMultiprocessor = g->registers_per_sm;
  prop->managedMemory = 1;
  prop->isMultiGpuBoard = 0;
  prop->multiGpuBoardGroupID = 0;
  prop->hostNativeAtomicSupported = 0;
  prop->pageableMemoryAccess = 0;
  prop->concurrentManagedAccess = 1;
  prop->computePreemptionSupported = 1;
  prop->canUseHostPointerForRegisteredMem = 0;
  prop->cooperativeLaunch = attr (cudaDevAttrCooperativeLaunch);
  prop->sharedMemPerBlockOptin = (size_t) g->shared_per_block_optin;
  prop->pageableMemoryAccessUsesHostPageTables = 0;
  prop->directManagedMemAccessFromHost = 0;
  prop->maxBlocksPerMultiProcessor = g->max_blocks_per_sm;
  prop->accessPolicyMaxWindowSize = attr (cudaDevAttrMaxAccessPolicyWindowSize);
  prop->reservedSharedMemPerBlock = (size_t) g->shared_reserved_per_block;
  prop->memoryPoolsSupported = 1;
  prop->clusterLaunch = 0;
  prop->deviceNumaConfig = 0;
  prop->deviceNumaId = -1;
  prop->hostNumaId = -1;
  return cudaSuccess;
}

cudaError_t
cudaChooseDevice (int *device, const struct cudaDeviceProp *prop)
{
  if (device == NULL || prop == NULL)
    return ws_cudart_set_error (cudaErrorInvalidValue);
  ENSURE_OR_RETURN ();
  *device = 0;
  return cudaSuccess;
}

cudaError_t
cudaSetDevice (int device)
{
  ENSURE_OR_RETURN ();
  return device == 0 ? cudaSuccess : ws_cudart_set_error (cudaErrorInvalidDevice);
}

cudaError_t
cudaInitDevice (int device, unsigned int deviceFlags, unsigned int flags)
{
  ENSURE_OR_RETURN ();
  if (device != 0)
    return ws_cudart_set_error (cudaErrorInvalidDevice);
  ws_cudart.device_flags = deviceFlags;
  return cudaSuccess;
}

cudaError_t
cudaGetDevice (int *device)
{
  if (device == NULL)
    return ws_cudart_set_error (cudaErrorInvalidValue);
  ENSURE_OR_RETURN ();
  *device = 0;
  return cudaSuccess;
}

cudaError_t
cudaSetDeviceFlags (unsigned int flags)
{
  ENSURE_OR_RETURN ();
  /* Scheduling flags change how a host thread waits; the emulator runs
   * kernels inside the call, so they are recorded only. */
  ws_cudart.device_flags = flags & ~(unsigned) cudaDeviceMapHost;
  return cudaSuccess;
}

cudaError_t
cudaGetDeviceFlags (unsigned int *flags)
{
  if (flags == NULL)
    return ws_cudart_set_error (cudaErrorInvalidValue);
  ENSURE_OR_RETURN ();
  *flags = ws_cudart.device_flags | cudaDeviceMapHost;
  return cudaSuccess;
}

cudaError_t
cudaDeviceSynchronize (void)
{
  /* Work completes inside the calls that issue it; what remains is to
   * report an earlier kernel fault. */
  ENSURE_OR_RETURN ();
  return cudaSuccess;
}

cudaError_t
cudaDeviceReset (void)
{
  cudaError_t err = ws_cudart_ensure ();
  if (err != cudaSuccess && err == ws_cudart.init_status)
    return ws_cudart_set_error (err);
  /* Clears a sticky fault so the program can go on (as a reset of the
   * real device would); allocations stay valid in the emulator, which a
   * correct program no longer uses after a reset. */
  g_rec_mutex_lock (&ws_cudart.lock);
  ws_cudart.sticky = cudaSuccess;
  g_rec_mutex_unlock (&ws_cudart.lock);
  return cudaSuccess;
}

cudaError_t
cudaDeviceGetLimit (size_t *pValue, enum cudaLimit limit)
{
  if (pValue == NULL)
    return ws_cudart_set_error (cudaErrorInvalidValue);
  ENSURE_OR_RETURN ();
  switch (limit)
    {
    case cudaLimitStackSize: *pValue = ws_cudart.stack_bytes; break;
    case cudaLimitPrintfFifoSize: *pValue = ws_cudart.printf_fifo_bytes; break;
    case cudaLimitMallocHeapSize: *pValue = ws_cudart.heap_bytes; break;
    case cudaLimitDevRuntimeSyncDepth: *pValue = ws_cudart.devrt_sync_depth; break;
    case cudaLimitDevRuntimePendingLaunchCount: *pValue = ws_cudart.devrt_pending_launches; break;
    case cudaLimitMaxL2FetchGranularity: *pValue = 64; break;
    case cudaLimitPersistingL2CacheSize: *pValue = 0; break;
    default: return ws_cudart_set_error (cudaErrorUnsupportedLimit);
    }
  return cudaSuccess;
}

cudaError_t
cudaDeviceSetLimit (enum cudaLimit limit, size_t value)
{
  ENSURE_OR_RETURN ();
  switch (limit)
    {
    case cudaLimitStackSize: ws_cudart.stack_bytes = value; break;
    case cudaLimitPrintfFifoSize: ws_cudart.printf_fifo_bytes = value; break;
    case cudaLimitMallocHeapSize:
      /* The heap is carved when the emulator starts (first kernel). */
      if (ws_cudart.emu != NULL)
        {
          ws_cudart_warn ("cudaDeviceSetLimit(cudaLimitMallocHeapSize) after the first kernel launch has no effect");
          return ws_cudart_set_error (cudaErrorInvalidValue);
        }
      ws_cudart.heap_bytes = value;
      break;
    case cudaLimitDevRuntimeSyncDepth:
      if (value < 1 || value > 24)
        return ws_cudart_set_error (cudaErrorInvalidValue);
      ws_cudart.devrt_sync_depth = value;
      break;
    case cudaLimitDevRuntimePendingLaunchCount:
      if (value < 1)
        return ws_cudart_set_error (cudaErrorInvalidValue);
      ws_cudart.devrt_pending_launches = value;
      break;
    case cudaLimitMaxL2FetchGranularity:
    case cudaLimitPersistingL2CacheSize: break; /* cache hints: no effect on results */
    default: return ws_cudart_set_error (cudaErrorUnsupportedLimit);
    }
  return cudaSuccess;
}

/* Cache configuration is a performance preference on a GPU; results do not
 * depend on it. */
cudaError_t
cudaDeviceSetCacheConfig (enum cudaFuncCache cacheConfig)
{
  ENSURE_OR_RETURN ();
  return cudaSuccess;
}

cudaError_t
cudaDeviceGetCacheConfig (enum cudaFuncCache *pCacheConfig)
{
  if (pCacheConfig == NULL)
    return ws_cudart_set_error (cudaErrorInvalidValue);
  ENSURE_OR_RETURN ();
  *pCacheConfig = cudaFuncCachePreferNone;
  return cudaSuccess;
}

cudaError_t
cudaDeviceGetStreamPriorityRange (int *leastPriority, int *greatestPriority)
{
  ENSURE_OR_RETURN ();
  if (leastPriority != NULL)
    *leastPriority = 0;
  if (greatestPriority != NULL)
    *greatestPriority = -5;
  return cudaSuccess;
}

/* ---- streams ------------------------------------------------------------ */

gboolean
ws_cudart_stream_valid (cudaStream_t stream)
{
  if (stream == NULL || stream == cudaStreamLegacy || stream == cudaStreamPerThread)
    return TRUE;
  g_rec_mutex_lock (&ws_cudart.lock);
  gboolean ok = g_hash_table_contains (ws_cudart.streams, stream);
  g_rec_mutex_unlock (&ws_cudart.lock);
  return ok;
}

cudaError_t
cudaStreamCreateWithPriority (cudaStream_t *pStream, unsigned int flags, int priority)
{
  if (pStream == NULL || (flags & ~(unsigned) cudaStreamNonBlocking) != 0)
    return ws_cudart_set_error (cudaErrorInvalidValue);
  ENSURE_OR_RETURN ();
  static unsigned long long next_id = 3;
  struct CUstream_st *s = g_new0 (struct CUstream_st, 1);
  s->flags = flags;
  s->priority = CLAMP (priority, -5, 0);
  g_rec_mutex_lock (&ws_cudart.lock);
  s->id = next_id++;
  g_hash_table_add (ws_cudart.streams, s);
  g_rec_mutex_unlock (&ws_cudart.lock);
  *pStream = s;
  return cudaSuccess;
}

cudaError_t
cudaStreamCreateWithFlags (cudaStream_t *pStream, unsigned int flags)
{
  return cudaStreamCreateWithPriority (pStream, flags, 0);
}

cudaError_t
cudaStreamCreate (cudaStream_t *pStream)
{
  return cudaStreamCreateWithPriority (pStream, cudaStreamDefault, 0);
}

cudaError_t
cudaStreamDestroy (cudaStream_t stream)
{
  ENSURE_OR_RETURN ();
  g_rec_mutex_lock (&ws_cudart.lock);
  gboolean ok = stream != NULL && g_hash_table_remove (ws_cudart.streams, stream);
  g_rec_mutex_unlock (&ws_cudart.lock);
  if (!ok)
    return ws_cudart_set_error (cudaErrorInvalidResourceHandle);
  g_free (stream);
  return cudaSuccess;
}

cudaError_t
cudaStreamSynchronize (cudaStream_t stream)
{
  ENSURE_OR_RETURN ();
  if (ws_cudart_capturing (stream) != NULL)
    return ws_cudart_capture_unsupported (ws_cudart_capturing (stream), "cudaStreamSynchronize");
  return ws_cudart_stream_valid (stream) ? cudaSuccess : ws_cudart_set_error (cudaErrorInvalidResourceHandle);
}

cudaError_t
cudaStreamSynchronize_ptsz (cudaStream_t stream)
{
  return cudaStreamSynchronize (stream);
}

/* Work on a stream has finished by the time the call that issued it
 * returned, so a stream is always idle. */
cudaError_t
cudaStreamQuery (cudaStream_t stream)
{
  ENSURE_OR_RETURN ();
  if (ws_cudart_capturing (stream) != NULL)
    return ws_cudart_capture_unsupported (ws_cudart_capturing (stream), "cudaStreamQuery");
  return ws_cudart_stream_valid (stream) ? cudaSuccess : ws_cudart_set_error (cudaErrorInvalidResourceHandle);
}

cudaError_t
cudaStreamQuery_ptsz (cudaStream_t stream)
{
  return cudaStreamQuery (stream);
}

cudaError_t
cudaStreamWaitEvent (cudaStream_t stream, cudaEvent_t event, unsigned int flags)
{
  ENSURE_OR_RETURN ();
  if (!ws_cudart_stream_valid (stream) || event == NULL)
    return ws_cudart_set_error (cudaErrorInvalidResourceHandle);
  /* Waiting on an event recorded during a capture joins the stream to it. */
  g_rec_mutex_lock (&ws_cudart.lock);
  gboolean known = g_hash_table_contains (ws_cudart.events, event);
  if (known && event->capture != NULL && stream != NULL && stream != cudaStreamLegacy && stream != cudaStreamPerThread
      && stream->capture == NULL)
    stream->capture = event->capture;
  g_rec_mutex_unlock (&ws_cudart.lock);
  if (!known)
    return ws_cudart_set_error (cudaErrorInvalidResourceHandle);
  return cudaSuccess;
}

cudaError_t
cudaStreamWaitEvent_ptsz (cudaStream_t stream, cudaEvent_t event, unsigned int flags)
{
  return cudaStreamWaitEvent (stream, event, flags);
}

cudaError_t
cudaStreamGetFlags (cudaStream_t hStream, unsigned int *flags)
{
  if (flags == NULL)
    return ws_cudart_set_error (cudaErrorInvalidValue);
  ENSURE_OR_RETURN ();
  if (!ws_cudart_stream_valid (hStream))
    return ws_cudart_set_error (cudaErrorInvalidResourceHandle);
  *flags = hStream == NULL || hStream == cudaStreamLegacy || hStream == cudaStreamPerThread ? 0 : hStream->flags;
  return cudaSuccess;
}

cudaError_t
cudaStreamGetFlags_ptsz (cudaStream_t hStream, unsigned int *flags)
{
  return cudaStreamGetFlags (hStream, flags);
}

cudaError_t
cudaStreamGetPriority (cudaStream_t hStream, int *priority)
{
  if (priority == NULL)
    return ws_cudart_set_error (cudaErrorInvalidValue);
  ENSURE_OR_RETURN ();
  if (!ws_cudart_stream_valid (hStream))
    return ws_cudart_set_error (cudaErrorInvalidResourceHandle);
  *priority = hStream == NULL || hStream == cudaStreamLegacy || hStream == cudaStreamPerThread ? 0 : hStream->priority;
  return cudaSuccess;
}

/* Stream attributes: the L2 access-policy window and the synchronisation
 * policy are performance hints; the emulator keeps them (so a program
 * reads back what it set) and computes the same results either way. */
static cudaError_t
stream_attribute (cudaStream_t s, cudaStreamAttrID attr, cudaStreamAttrValue **slot)
{
  if (s == NULL || s == cudaStreamLegacy || s == cudaStreamPerThread)
    return cudaErrorInvalidResourceHandle;
  switch ((int) attr)
    {
    case cudaStreamAttributeAccessPolicyWindow: *slot = &s->access_policy; return cudaSuccess;
    case cudaStreamAttributeSynchronizationPolicy: *slot = &s->sync_policy; return cudaSuccess;
    default:
      ws_cudart_warn ("stream attribute %d is not supported by the Warpscope emulator", (int) attr);
      return cudaErrorNotSupported;
    }
}

/* The checks cudaStreamSet/GetAttribute start with, and the attribute's
 * slot in the stream; the error is already recorded when not cudaSuccess. */
static cudaError_t
stream_attribute_slot (cudaStream_t stream, cudaStreamAttrID attr, const void *value, cudaStreamAttrValue **slot)
{
  if (value == NULL)
    return ws_cudart_set_error (cudaErrorInvalidValue);
  ENSURE_OR_RETURN ();
  if (!ws_cudart_stream_valid (stream))
    return ws_cudart_set_error (cudaErrorInvalidResourceHandle);
  cudaError_t err = stream_attribute (stream, attr, slot);
  return err != cudaSuccess ? ws_cudart_set_error (err) : cudaSuccess;
}

cudaError_t
cudaStreamSetAttribute (cudaStream_t hStream, cudaStreamAttrID attr, const cudaStreamAttrValue *value)
{
  cudaStreamAttrValue *slot;
  cudaError_t err = stream_attribute_slot (hStream, attr, value, &slot);
  if (err != cudaSuccess)
    return err;
  if ((int) attr == cudaStreamAttributeAccessPolicyWindow)
    {
      const struct cudaAccessPolicyWindow *w = &value->accessPolicyWindow;
      int max_window = 0;
      attribute_value (cudaDevAttrMaxAccessPolicyWindowSize, &max_window);
      if (w->hitRatio < 0.0f || w->hitRatio > 1.0f || w->num_bytes > (size_t) max_window)
        return ws_cudart_set_error (cudaErrorInvalidValue);
    }
  *slot = *value;
  return cudaSuccess;
}

cudaError_t
cudaStreamSetAttribute_ptsz (cudaStream_t hStream, cudaStreamAttrID attr, const cudaStreamAttrValue *value)
{
  return cudaStreamSetAttribute (hStream, attr, value);
}

cudaError_t
cudaStreamGetAttribute (cudaStream_t hStream, cudaStreamAttrID attr, cudaStreamAttrValue *value_out)
{
  cudaStreamAttrValue *slot;
  cudaError_t err = stream_attribute_slot (hStream, attr, value_out, &slot);
  if (err != cudaSuccess)
    return err;
  *value_out = *slot;
  return cudaSuccess;
}

cudaError_t
cudaStreamGetAttribute_ptsz (cudaStream_t hStream, cudaStreamAttrID attr, cudaStreamAttrValue *value_out)
{
  return cudaStreamGetAttribute (hStream, attr, value_out);
}

/* Persisting L2 lines: no cache is modelled, so there is nothing to reset. */
cudaError_t
cudaCtxResetPersistingL2Cache (void)
{
  ENSURE_OR_RETURN ();
  return cudaSuccess;
}

cudaError_t
cudaStreamGetPriority_ptsz (cudaStream_t hStream, int *priority)
{
  return cudaStreamGetPriority (hStream, priority);
}

cudaError_t
cudaStreamAddCallback (cudaStream_t stream, cudaStreamCallback_t callback, void *userData, unsigned int flags)
{
  if (callback == NULL || flags != 0)
    return ws_cudart_set_error (cudaErrorInvalidValue);
  cudaError_t err = ws_cudart_ensure ();
  if (err != cudaSuccess && err == ws_cudart.init_status)
    return ws_cudart_set_error (err);
  if (!ws_cudart_stream_valid (stream))
    return ws_cudart_set_error (cudaErrorInvalidResourceHandle);
  if (ws_cudart_capturing (stream) != NULL) /* as CUDA: use cudaLaunchHostFunc */
    return ws_cudart_capture_unsupported (ws_cudart_capturing (stream), "cudaStreamAddCallback");
  /* Everything issued before has completed: run it now, with the status a
   * GPU passes (the sticky error after a fault). */
  callback (stream, ws_cudart.sticky, userData);
  return cudaSuccess;
}

cudaError_t
cudaStreamAddCallback_ptsz (cudaStream_t stream, cudaStreamCallback_t callback, void *userData, unsigned int flags)
{
  return cudaStreamAddCallback (stream, callback, userData, flags);
}

cudaError_t
cudaLaunchHostFunc (cudaStream_t stream, cudaHostFn_t fn, void *userData)
{
  if (fn == NULL)
    return ws_cudart_set_error (cudaErrorInvalidValue);
  ENSURE_OR_RETURN ();
  if (!ws_cudart_stream_valid (stream))
    return ws_cudart_set_error (cudaErrorInvalidResourceHandle);
  WsCudartGraph *capture = ws_cudart_capturing (stream);
  if (capture != NULL)
    return ws_cudart_capture_host (capture, fn, userData);
  fn (userData);
  return cudaSuccess;
}

cudaError_t
cudaLaunchHostFunc_ptsz (cudaStream_t stream, cudaHostFn_t fn, void *userData)
{
  return cudaLaunchHostFunc (stream, fn, userData);
}

cudaError_t
cudaStreamGetId (cudaStream_t hStream, unsigned long long *streamId)
{
  if (streamId == NULL)
    return ws_cudart_set_error (cudaErrorInvalidValue);
  ENSURE_OR_RETURN ();
  if (!ws_cudart_stream_valid (hStream))
    return ws_cudart_set_error (cudaErrorInvalidResourceHandle);
  /* The two built-in streams first, then created streams in order. */
  *streamId = hStream == NULL || hStream == cudaStreamLegacy ? 1 : hStream == cudaStreamPerThread ? 2 : hStream->id;
  return cudaSuccess;
}

cudaError_t
cudaStreamGetId_ptsz (cudaStream_t hStream, unsigned long long *streamId)
{
  return cudaStreamGetId (hStream, streamId);
}

cudaError_t
cudaStreamGetDevice (cudaStream_t hStream, int *device)
{
  if (device == NULL)
    return ws_cudart_set_error (cudaErrorInvalidValue);
  ENSURE_OR_RETURN ();
  if (!ws_cudart_stream_valid (hStream))
    return ws_cudart_set_error (cudaErrorInvalidResourceHandle);
  *device = 0;
  return cudaSuccess;
}

cudaError_t
cudaStreamGetDevice_ptsz (cudaStream_t hStream, int *device)
{
  return cudaStreamGetDevice (hStream, device);
}

/* Libraries ask before they synchronise (which a capture forbids). */
cudaError_t
cudaStreamIsCapturing (cudaStream_t stream, enum cudaStreamCaptureStatus *pCaptureStatus)
{
  if (pCaptureStatus == NULL)
    return ws_cudart_set_error (cudaErrorInvalidValue);
  ENSURE_OR_RETURN ();
  if (!ws_cudart_stream_valid (stream))
    return ws_cudart_set_error (cudaErrorInvalidResourceHandle);
  *pCaptureStatus = ws_cudart_capturing (stream) != NULL ? cudaStreamCaptureStatusActive : cudaStreamCaptureStatusNone;
  return cudaSuccess;
}

cudaError_t
cudaStreamIsCapturing_ptsz (cudaStream_t stream, enum cudaStreamCaptureStatus *pCaptureStatus)
{
  return cudaStreamIsCapturing (stream, pCaptureStatus);
}

cudaError_t
cudaThreadExchangeStreamCaptureMode (enum cudaStreamCaptureMode *mode)
{
  static _Thread_local enum cudaStreamCaptureMode current = cudaStreamCaptureModeGlobal;
  if (mode == NULL)
    return ws_cudart_set_error (cudaErrorInvalidValue);
  enum cudaStreamCaptureMode old = current;
  current = *mode;
  *mode = old;
  return cudaSuccess;
}

/* ---- events ------------------------------------------------------------- */

/* An event's time is the host's monotonic clock when it was recorded.
 * Work runs inside the calls that issue it, so the elapsed time between two
 * events is the emulator's wall-clock time for the work issued between
 * them (not a prediction of GPU time: use the predictors for that). */

static gboolean
event_valid (cudaEvent_t event)
{
  g_rec_mutex_lock (&ws_cudart.lock);
  gboolean ok = event != NULL && g_hash_table_contains (ws_cudart.events, event);
  g_rec_mutex_unlock (&ws_cudart.lock);
  return ok;
}

cudaError_t
cudaEventCreateWithFlags (cudaEvent_t *event, unsigned int flags)
{
  const unsigned int known = cudaEventBlockingSync | cudaEventDisableTiming | cudaEventInterprocess;
  if (event == NULL || (flags & ~known) != 0)
    return ws_cudart_set_error (cudaErrorInvalidValue);
  ENSURE_OR_RETURN ();
  if (flags & cudaEventInterprocess)
    return ws_cudart_unsupported ("cudaEventCreateWithFlags(cudaEventInterprocess)");
  struct CUevent_st *e = g_new0 (struct CUevent_st, 1);
  e->flags = flags;
  g_rec_mutex_lock (&ws_cudart.lock);
  g_hash_table_add (ws_cudart.events, e);
  g_rec_mutex_unlock (&ws_cudart.lock);
  *event = e;
  return cudaSuccess;
}

cudaError_t
cudaEventCreate (cudaEvent_t *event)
{
  return cudaEventCreateWithFlags (event, cudaEventDefault);
}

cudaError_t
cudaEventRecordWithFlags (cudaEvent_t event, cudaStream_t stream, unsigned int flags)
{
  ENSURE_OR_RETURN ();
  if (!event_valid (event) || !ws_cudart_stream_valid (stream))
    return ws_cudart_set_error (cudaErrorInvalidResourceHandle);
  WsCudartGraph *capture = ws_cudart_capturing (stream);
  if (capture != NULL)
    {
      /* A fork point of the capture (other streams join by waiting on it). */
      event->capture = capture;
      return cudaSuccess;
    }
  event->recorded = TRUE;
  event->time = ws_now_seconds ();
  return cudaSuccess;
}

cudaError_t
cudaEventRecordWithFlags_ptsz (cudaEvent_t event, cudaStream_t stream, unsigned int flags)
{
  return cudaEventRecordWithFlags (event, stream, flags);
}

cudaError_t
cudaEventRecord (cudaEvent_t event, cudaStream_t stream)
{
  return cudaEventRecordWithFlags (event, stream, 0);
}

cudaError_t
cudaEventRecord_ptsz (cudaEvent_t event, cudaStream_t stream)
{
  return cudaEventRecord (event, stream);
}

cudaError_t
cudaEventQuery (cudaEvent_t event)
{
  ENSURE_OR_RETURN ();
  return event_valid (event) ? cudaSuccess : ws_cudart_set_error (cudaErrorInvalidResourceHandle);
}

cudaError_t
cudaEventSynchronize (cudaEvent_t event)
{
  ENSURE_OR_RETURN ();
  return event_valid (event) ? cudaSuccess : ws_cudart_set_error (cudaErrorInvalidResourceHandle);
}

cudaError_t
cudaEventElapsedTime (float *ms, cudaEvent_t start, cudaEvent_t end)
{
  if (ms == NULL)
    return ws_cudart_set_error (cudaErrorInvalidValue);
  ENSURE_OR_RETURN ();
  if (!event_valid (start) || !event_valid (end))
    return ws_cudart_set_error (cudaErrorInvalidResourceHandle);
  if ((start->flags | end->flags) & cudaEventDisableTiming)
    return ws_cudart_set_error (cudaErrorInvalidResourceHandle);
  if (!start->recorded || !end->recorded)
    return ws_cudart_set_error (cudaErrorInvalidResourceHandle);
  *ms = (float) ((end->time - start->time) * 1000.0);
  return cudaSuccess;
}

cudaError_t
cudaEventDestroy (cudaEvent_t event)
{
  ENSURE_OR_RETURN ();
  g_rec_mutex_lock (&ws_cudart.lock);
  gboolean ok = event != NULL && g_hash_table_remove (ws_cudart.events, event);
  g_rec_mutex_unlock (&ws_cudart.lock);
  if (!ok)
    return ws_cudart_set_error (cudaErrorInvalidResourceHandle);
  g_free (event);
  return cudaSuccess;
}

/* ---- functions and occupancy ------------------------------------------- */

static cudaError_t
kernel_for (const void *func, WsCudartKernel **out)
{
  cudaError_t err = ws_cudart_ensure ();
  if (err != cudaSuccess)
    return err;
  WsCudartKernel *k = ws_cudart_find_kernel (func);
  if (k == NULL)
    return cudaErrorInvalidDeviceFunction;
  err = ws_cudart_kernel_resolve (k);
  if (err != cudaSuccess)
    return err;
  *out = k;
  return cudaSuccess;
}

static int
max_threads_for (const WsEmuFunctionInfo *info)
{
  const WsGpu *g = ws_cudart.gpu;
  int limit = g->max_threads_per_block;
  if (info->max_threads_per_block > 0)
    limit = MIN (limit, (int) info->max_threads_per_block);
  /* Registers: whole warps must fit in a block's register file. */
  if (info->num_regs > 0 && g->max_registers_per_block > 0)
    {
      int warps = g->max_registers_per_block / ((int) info->num_regs * g->warp_size);
      limit = MIN (limit, MAX (0, warps) * g->warp_size);
    }
  return limit;
}

cudaError_t
cudaFuncGetAttributes (struct cudaFuncAttributes *attr, const void *func)
{
  if (attr == NULL)
    return ws_cudart_set_error (cudaErrorInvalidValue);
  WsCudartKernel *k = NULL;
  cudaError_t err = kernel_for (func, &k);
  if (err != cudaSuccess)
    return ws_cudart_set_error (err);
  WsEmuFunctionInfo info = { 0 };
  ws_emu_function_get_info (k->fn, &info);
  const WsGpu *g = ws_cudart.gpu;
  memset (attr, 0, sizeof *attr);
  attr->sharedSizeBytes = info.static_shared_bytes;
  attr->constSizeBytes = 0;
  attr->localSizeBytes = info.local_bytes;
  attr->maxThreadsPerBlock = max_threads_for (&info);
  attr->numRegs = (int) info.num_regs;
  /* The PTX's architecture, "compiled" for the target as the driver's JIT
   * would. */
  attr->ptxVersion = (int) k->module->ptx_arch;
  attr->binaryVersion = ws_cudart_target_sm ();
  attr->cacheModeCA = 0;
  attr->maxDynamicSharedSizeBytes = k->max_dynamic_shared > 0
                                      ? k->max_dynamic_shared
                                      : MAX (0, g->shared_per_block - (int) info.static_shared_bytes);
  attr->preferredShmemCarveout = k->preferred_carveout;
  return cudaSuccess;
}

cudaError_t
cudaFuncSetAttribute (const void *func, enum cudaFuncAttribute attr, int value)
{
  WsCudartKernel *k = NULL;
  cudaError_t err = kernel_for (func, &k);
  if (err != cudaSuccess)
    return ws_cudart_set_error (err);
  WsEmuFunctionInfo info = { 0 };
  ws_emu_function_get_info (k->fn, &info);
  switch (attr)
    {
    case cudaFuncAttributeMaxDynamicSharedMemorySize:
      if (value < 0 || value + (int) info.static_shared_bytes > ws_cudart.gpu->shared_per_block_optin)
        return ws_cudart_set_error (cudaErrorInvalidValue);
      k->max_dynamic_shared = value;
      return cudaSuccess;
    case cudaFuncAttributePreferredSharedMemoryCarveout:
      if (value < -1 || value > 100)
        return ws_cudart_set_error (cudaErrorInvalidValue);
      k->preferred_carveout = value;
      return cudaSuccess;
    default:
      ws_cudart_warn ("cudaFuncSetAttribute: attribute %d is not supported by the Warpscope emulator "
                      "(thread block clusters are not emulated)",
                      (int) attr);
      return ws_cudart_set_error (cudaErrorNotSupported);
    }
}

cudaError_t
cudaFuncSetCacheConfig (const void *func, enum cudaFuncCache cacheConfig)
{
  WsCudartKernel *k = NULL;
  cudaError_t err = kernel_for (func, &k);
  return err != cudaSuccess ? ws_cudart_set_error (err) : cudaSuccess;
}

cudaError_t
cudaFuncGetName (const char **name, const void *func)
{
  if (name == NULL)
    return ws_cudart_set_error (cudaErrorInvalidValue);
  WsCudartKernel *k = ws_cudart_find_kernel (func);
  if (k == NULL)
    return ws_cudart_set_error (cudaErrorInvalidDeviceFunction);
  *name = k->name;
  return cudaSuccess;
}

cudaError_t
cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags (int *numBlocks, const void *func, int blockSize,
                                                        size_t dynamicSMemSize, unsigned int flags)
{
  if (numBlocks == NULL || blockSize <= 0
      || (flags != cudaOccupancyDefault && flags != cudaOccupancyDisableCachingOverride))
    return ws_cudart_set_error (cudaErrorInvalidValue);
  WsCudartKernel *k = NULL;
  cudaError_t err = kernel_for (func, &k);
  if (err != cudaSuccess)
    return ws_cudart_set_error (err);
  WsEmuFunctionInfo info = { 0 };
  ws_emu_function_get_info (k->fn, &info);
  WsOccupancy occ = { 0 };
  g_autoptr (GError) error = NULL;
  int smem = (int) (info.static_shared_bytes + dynamicSMemSize);
  if (blockSize > max_threads_for (&info)
      || !ws_occupancy_compute (ws_cudart.gpu, blockSize, (int) info.num_regs, smem, &occ, &error))
    {
      *numBlocks = 0; /* the block cannot run at all */
      return cudaSuccess;
    }
  *numBlocks = occ.blocks_per_sm;
  return cudaSuccess;
}

cudaError_t
cudaOccupancyMaxActiveBlocksPerMultiprocessor (int *numBlocks, const void *func, int blockSize, size_t dynamicSMemSize)
{
  return cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags (numBlocks, func, blockSize, dynamicSMemSize,
                                                                 cudaOccupancyDefault);
}

cudaError_t
cudaOccupancyAvailableDynamicSMemPerBlock (size_t *dynamicSmemSize, const void *func, int numBlocks, int blockSize)
{
  if (dynamicSmemSize == NULL || numBlocks <= 0 || blockSize <= 0)
    return ws_cudart_set_error (cudaErrorInvalidValue);
  WsCudartKernel *k = NULL;
  cudaError_t err = kernel_for (func, &k);
  if (err != cudaSuccess)
    return ws_cudart_set_error (err);
  WsEmuFunctionInfo info = { 0 };
  ws_emu_function_get_info (k->fn, &info);
  /* Largest dynamic size (in allocation units) that still lets @numBlocks
   * blocks reside on an SM. */
  const WsGpu *g = ws_cudart.gpu;
  int unit = MAX (1, g->shared_alloc_unit);
  size_t best = 0;
  int hi = g->shared_per_block_optin - (int) info.static_shared_bytes;
  for (int dyn = 0; dyn <= hi; dyn += unit)
    {
      WsOccupancy occ = { 0 };
      if (!ws_occupancy_compute (g, blockSize, (int) info.num_regs, (int) info.static_shared_bytes + dyn, &occ, NULL)
          || occ.blocks_per_sm < numBlocks)
        break;
      best = (size_t) dyn;
    }
  *dynamicSmemSize = best;
  return cudaSuccess;
}

cudaError_t
cudaFuncGetParamInfo (const void *func, size_t paramIndex, size_t *paramOffset, size_t *paramSize)
{
  if (paramOffset == NULL || paramSize == NULL)
    return ws_cudart_set_error (cudaErrorInvalidValue);
  WsCudartKernel *k = NULL;
  cudaError_t err = kernel_for (func, &k);
  if (err != cudaSuccess)
    return ws_cudart_set_error (err);
  WsEmuFunctionInfo info = { 0 };
  ws_emu_function_get_info (k->fn, &info);
  if (paramIndex >= info.n_params)
    return ws_cudart_set_error (cudaErrorInvalidValue);
  *paramOffset = info.param_offsets[paramIndex];
  *paramSize = info.param_sizes[paramIndex];
  return cudaSuccess;
}

/* The emulated device sits at PCI 0000:01:00.0 (cudaDevAttrPciBusId = 1). */
cudaError_t
cudaDeviceGetPCIBusId (char *pciBusId, int len, int device)
{
  if (pciBusId == NULL || len <= 0)
    return ws_cudart_set_error (cudaErrorInvalidValue);
  ENSURE_OR_RETURN ();
  if (device != 0)
    return ws_cudart_set_error (cudaErrorInvalidDevice);
  g_strlcpy (pciBusId, "0000:01:00.0", (gsize) len);
  return cudaSuccess;
}

cudaError_t
cudaDeviceGetByPCIBusId (int *device, const char *pciBusId)
{
  if (device == NULL || pciBusId == NULL)
    return ws_cudart_set_error (cudaErrorInvalidValue);
  ENSURE_OR_RETURN ();
  if (g_ascii_strcasecmp (pciBusId, "0000:01:00.0") != 0 && g_ascii_strcasecmp (pciBusId, "01:00.0") != 0
      && g_ascii_strcasecmp (pciBusId, "0000:01:00") != 0)
    return ws_cudart_set_error (cudaErrorInvalidDevice);
  *device = 0;
  return cudaSuccess;
}

/* One device: it cannot be its own peer, and there is no other. */
cudaError_t
cudaDeviceCanAccessPeer (int *canAccessPeer, int device, int peerDevice)
{
  if (canAccessPeer == NULL)
    return ws_cudart_set_error (cudaErrorInvalidValue);
  ENSURE_OR_RETURN ();
  if (device != 0 || peerDevice != 0)
    return ws_cudart_set_error (cudaErrorInvalidDevice);
  *canAccessPeer = 0;
  return cudaSuccess;
}

/* Pure helper (no device involved); returns its struct by value, which a
 * generated "unsupported" stub could not do safely. */
struct cudaChannelFormatDesc
cudaCreateChannelDesc (int x, int y, int z, int w, enum cudaChannelFormatKind f)
{
  struct cudaChannelFormatDesc d = { x, y, z, w, f };
  return d;
}
