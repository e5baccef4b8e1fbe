/* ws-cudart-memory.c: allocation, copies, memset and symbols.
 *
 * Device memory is identity-mapped into this process (ws-devmem.h), so a
 * copy is a bounds check followed by memcpy.  Everything runs in issue
 * order, so the Async forms complete before they return. */
#define G_LOG_DOMAIN "ws-cudart"

#include "cudart/ws-cudart-private.h"

#include <string.h>

gboolean
ws_cudart_is_device_ptr (const void *ptr)
{
  if (ws_cudart.mem == NULL || ptr == NULL)
    return FALSE;
  return ws_devmem_lookup (ws_cudart.mem, (uint64_t) (uintptr_t) ptr, 1) != NULL;
}

static cudaError_t symbol_range (const void *symbol, size_t count, size_t offset, void **dev);

static uint64_t
total_memory (void)
{
  return (uint64_t) (ws_cudart.gpu->memory_gb * 1e9);
}

static cudaError_t
allocate (void **ptr, size_t size, WsAllocKind kind, const char *what)
{
  if (ptr == NULL)
    return ws_cudart_set_error (cudaErrorInvalidValue);
  ENSURE_OR_RETURN ();
  *ptr = NULL;
  if (size == 0)
    return cudaSuccess; /* CUDA returns success and a NULL pointer */
  g_rec_mutex_lock (&ws_cudart.lock);
  if (kind != WS_ALLOC_HOST && ws_cudart.allocated_bytes + size > total_memory ())
    {
      g_rec_mutex_unlock (&ws_cudart.lock);
      return ws_cudart_set_error (cudaErrorMemoryAllocation);
    }
  static guint serial;
  g_autofree char *label = g_strdup_printf ("%s #%u", what, ++serial);
  g_autoptr (GError) error = NULL;
  uint64_t addr = ws_devmem_alloc (ws_cudart.mem, size, kind, label, &error);
  if (addr == 0)
    {
      g_rec_mutex_unlock (&ws_cudart.lock);
      ws_cudart_warn ("%s of %zu bytes failed: %s", what, size, error != NULL ? error->message : "no memory");
      return ws_cudart_set_error (cudaErrorMemoryAllocation);
    }
  if (kind != WS_ALLOC_HOST)
    ws_cudart.allocated_bytes += size;
  gint64 *key = g_new (gint64, 1);
  *key = (gint64) addr;
  g_hash_table_insert (ws_cudart.alloc_sizes, key, GSIZE_TO_POINTER (kind != WS_ALLOC_HOST ? size : 0));
  g_rec_mutex_unlock (&ws_cudart.lock);
  *ptr = (void *) (uintptr_t) addr;
  return cudaSuccess;
}

static cudaError_t
release (void *ptr, gboolean host)
{
  if (ptr == NULL)
    return cudaSuccess;
  ENSURE_OR_RETURN ();
  cudaError_t graph_err;
  if (!host && ws_cudart_graph_alloc_release (ptr, &graph_err))
    return graph_err;
  g_rec_mutex_lock (&ws_cudart.lock);
  gint64 key = (gint64) (uintptr_t) ptr;
  gpointer orig_key = NULL, size = NULL;
  const WsDevAlloc *a = ws_devmem_lookup (ws_cudart.mem, (uint64_t) key, 1);
  gboolean right_kind = a != NULL && a->base == (uint64_t) key
                        && (host ? a->kind == WS_ALLOC_HOST
                                 : (a->kind == WS_ALLOC_DEVICE || a->kind == WS_ALLOC_MANAGED));
  if (!right_kind || !g_hash_table_lookup_extended (ws_cudart.alloc_sizes, &key, &orig_key, &size))
    {
      g_rec_mutex_unlock (&ws_cudart.lock);
      return ws_cudart_set_error (cudaErrorInvalidValue);
    }
  g_autoptr (GError) error = NULL;
  if (!ws_devmem_release (ws_cudart.mem, (uint64_t) key, &error))
    {
      g_rec_mutex_unlock (&ws_cudart.lock);
      ws_cudart_warn ("%s", error->message);
      return ws_cudart_set_error (cudaErrorInvalidValue);
    }
  ws_cudart.allocated_bytes -= GPOINTER_TO_SIZE (size);
  g_hash_table_remove (ws_cudart.alloc_sizes, &key);
  g_free (orig_key);
  g_rec_mutex_unlock (&ws_cudart.lock);
  return cudaSuccess;
}

cudaError_t
ws_cudart_allocate_device (void **ptr, size_t size, const char *what)
{
  return allocate (ptr, size, WS_ALLOC_DEVICE, what);
}

cudaError_t
cudaMalloc (void **devPtr, size_t size)
{
  return allocate (devPtr, size, WS_ALLOC_DEVICE, "cudaMalloc");
}

cudaError_t
cudaFree (void *devPtr)
{
  return release (devPtr, FALSE);
}

cudaError_t
cudaMallocManaged (void **devPtr, size_t size, unsigned int flags)
{
  if (flags != 0 && flags != cudaMemAttachGlobal && flags != cudaMemAttachHost)
    return ws_cudart_set_error (cudaErrorInvalidValue);
  return allocate (devPtr, size, WS_ALLOC_MANAGED, "cudaMallocManaged");
}

cudaError_t
cudaMallocHost (void **ptr, size_t size)
{
  return allocate (ptr, size, WS_ALLOC_HOST, "cudaMallocHost");
}

cudaError_t
cudaHostAlloc (void **pHost, size_t size, unsigned int flags)
{
  return allocate (pHost, size, WS_ALLOC_HOST, "cudaHostAlloc");
}

cudaError_t
cudaFreeHost (void *ptr)
{
  return release (ptr, TRUE);
}

/* Pinned host memory is device memory of this process: the device pointer
 * is the host pointer. */
static cudaError_t ensure_emu_or_fail (void);

cudaError_t
cudaHostGetDevicePointer (void **pDevice, void *pHost, unsigned int flags)
{
  if (pDevice == NULL || flags != 0)
    return ws_cudart_set_error (cudaErrorInvalidValue);
  ENSURE_OR_RETURN ();
  if (!ws_cudart_is_device_ptr (pHost)
      && (ensure_emu_or_fail () != cudaSuccess
          || ws_emu_registered_host (ws_cudart.emu, (uint64_t) (uintptr_t) pHost, 1) == 0))
    return ws_cudart_set_error (cudaErrorInvalidValue);
  *pDevice = pHost;
  return cudaSuccess;
}

static cudaError_t
ensure_emu_or_fail (void)
{
  return ws_cudart_ensure_emu ();
}

/* cudaHostRegister: the process's memory is the device's, so registering
 * (page-locking and, with cudaHostRegisterMapped, mapping) a host range
 * makes it reachable from kernels at the same address. */
cudaError_t
cudaHostRegister (void *ptr, size_t size, unsigned int flags)
{
  if (ptr == NULL || size == 0
      || (flags
          & ~(unsigned) (cudaHostRegisterPortable | cudaHostRegisterMapped | cudaHostRegisterIoMemory
                         | cudaHostRegisterReadOnly)))
    return ws_cudart_set_error (cudaErrorInvalidValue);
  cudaError_t err = ws_cudart_ensure_emu ();
  if (err != cudaSuccess)
    return ws_cudart_set_error (err);
  uint64_t a = (uint64_t) (uintptr_t) ptr;
  g_rec_mutex_lock (&ws_cudart.lock);
  if (ws_cudart_is_device_ptr (ptr) || ws_emu_registered_host (ws_cudart.emu, a, 1) != 0
      || ws_emu_registered_host (ws_cudart.emu, a + size - 1, 1) != 0)
    {
      g_rec_mutex_unlock (&ws_cudart.lock);
      return ws_cudart_set_error (cudaErrorHostMemoryAlreadyRegistered);
    }
  ws_emu_register_host (ws_cudart.emu, a, size);
  g_rec_mutex_unlock (&ws_cudart.lock);
  return cudaSuccess;
}

cudaError_t
cudaHostUnregister (void *ptr)
{
  cudaError_t err = ws_cudart_ensure_emu ();
  if (err != cudaSuccess)
    return ws_cudart_set_error (err);
  g_rec_mutex_lock (&ws_cudart.lock);
  gboolean ok = ws_emu_unregister_host (ws_cudart.emu, (uint64_t) (uintptr_t) ptr);
  g_rec_mutex_unlock (&ws_cudart.lock);
  return ok ? cudaSuccess : ws_cudart_set_error (cudaErrorHostMemoryNotRegistered);
}

cudaError_t
cudaHostGetFlags (unsigned int *pFlags, void *pHost)
{
  if (pFlags == NULL)
    return ws_cudart_set_error (cudaErrorInvalidValue);
  ENSURE_OR_RETURN ();
  const WsDevAlloc *a = ws_devmem_lookup (ws_cudart.mem, (uint64_t) (uintptr_t) pHost, 1);
  if (a == NULL || a->kind != WS_ALLOC_HOST)
    return ws_cudart_set_error (cudaErrorInvalidValue);
  /* All pinned memory is mapped into the (one) device's address space. */
  *pFlags = cudaHostAllocMapped | cudaHostAllocPortable;
  return cudaSuccess;
}

cudaError_t
cudaMallocAsync (void **devPtr, size_t size, cudaStream_t hStream)
{
  if (!ws_cudart_stream_valid (hStream))
    return ws_cudart_set_error (cudaErrorInvalidResourceHandle);
  if (ws_cudart_capturing (hStream) != NULL)
    return ws_cudart_capture_malloc (ws_cudart_capturing (hStream), devPtr, size);
  return allocate (devPtr, size, WS_ALLOC_DEVICE, "cudaMallocAsync");
}

cudaError_t
cudaMallocAsync_ptsz (void **devPtr, size_t size, cudaStream_t hStream)
{
  return cudaMallocAsync (devPtr, size, hStream);
}

cudaError_t
cudaFreeAsync (void *devPtr, cudaStream_t hStream)
{
  if (!ws_cudart_stream_valid (hStream))
    return ws_cudart_set_error (cudaErrorInvalidResourceHandle);
  if (ws_cudart_capturing (hStream) != NULL)
    return ws_cudart_capture_free (ws_cudart_capturing (hStream), devPtr);
  return release (devPtr, FALSE);
}

cudaError_t
cudaFreeAsync_ptsz (void *devPtr, cudaStream_t hStream)
{
  return cudaFreeAsync (devPtr, hStream);
}

/* The device's default memory pool, the one cudaMallocAsync draws from.
 * Its attributes are kept (a release threshold, the reuse policies) and
 * read back; with one address space and no deferred frees they change no
 * result.  Explicit pools (cudaMemPoolCreate) are not supported. */
struct CUmemPoolHandle_st {
  uint64_t release_threshold;
  int reuse_follow_event_dependencies, reuse_allow_opportunistic, reuse_allow_internal_dependencies;
};
static struct CUmemPoolHandle_st default_pool = { 0, 1, 1, 1 };

cudaError_t
cudaDeviceGetDefaultMemPool (cudaMemPool_t *memPool, int device)
{
  if (memPool == NULL)
    return ws_cudart_set_error (cudaErrorInvalidValue);
  ENSURE_OR_RETURN ();
  if (device != 0)
    return ws_cudart_set_error (cudaErrorInvalidDevice);
  *memPool = &default_pool;
  return cudaSuccess;
}

cudaError_t
cudaDeviceGetMemPool (cudaMemPool_t *memPool, int device)
{
  return cudaDeviceGetDefaultMemPool (memPool, device);
}

static cudaError_t
pool_attribute (cudaMemPool_t pool, enum cudaMemPoolAttr attr, void *value, gboolean set)
{
  if (pool != &default_pool || value == NULL)
    return ws_cudart_set_error (cudaErrorInvalidValue);
  ENSURE_OR_RETURN ();
  int *flag = NULL;
  switch (attr)
    {
    case cudaMemPoolAttrReleaseThreshold:
      if (set)
        memcpy (&default_pool.release_threshold, value, 8);
      else
        memcpy (value, &default_pool.release_threshold, 8);
      return cudaSuccess;
    case cudaMemPoolReuseFollowEventDependencies: flag = &default_pool.reuse_follow_event_dependencies; break;
    case cudaMemPoolReuseAllowOpportunistic: flag = &default_pool.reuse_allow_opportunistic; break;
    case cudaMemPoolReuseAllowInternalDependencies: flag = &default_pool.reuse_allow_internal_dependencies; break;
    default:
      ws_cudart_warn ("memory pool attribute %d is not supported by the Warpscope emulator", (int) attr);
      return ws_cudart_set_error (cudaErrorNotSupported);
    }
  if (set)
    memcpy (flag, value, sizeof (int));
  else
    memcpy (value, flag, sizeof (int));
  return cudaSuccess;
}

cudaError_t
cudaMemPoolSetAttribute (cudaMemPool_t memPool, enum cudaMemPoolAttr attr, void *value)
{
  return pool_attribute (memPool, attr, value, TRUE);
}

cudaError_t
cudaMemPoolGetAttribute (cudaMemPool_t memPool, enum cudaMemPoolAttr attr, void *value)
{
  return pool_attribute (memPool, attr, value, FALSE);
}

cudaError_t
cudaMallocPitch (void **devPtr, size_t *pitch, size_t width, size_t height)
{
  if (pitch == NULL)
    return ws_cudart_set_error (cudaErrorInvalidValue);
  /* Rows aligned as the GPU's texture pitch alignment (512 bytes). */
  size_t p = (width + 511) & ~(size_t) 511;
  cudaError_t err = allocate (devPtr, p * height, WS_ALLOC_DEVICE, "cudaMallocPitch");
  if (err == cudaSuccess)
    *pitch = p;
  return err;
}

cudaError_t
cudaMemGetInfo (size_t *free, size_t *total)
{
  ENSURE_OR_RETURN ();
  uint64_t t = total_memory ();
  if (free != NULL)
    *free = (size_t) (t - MIN (t, ws_cudart.allocated_bytes));
  if (total != NULL)
    *total = (size_t) t;
  return cudaSuccess;
}

/* Checks that [ptr, ptr+len) lies in one allocation. */
static cudaError_t
check_device_range (const void *ptr, size_t len, const char *what)
{
  if (len == 0)
    return cudaSuccess;
  if (ws_devmem_lookup (ws_cudart.mem, (uint64_t) (uintptr_t) ptr, len) != NULL)
    return cudaSuccess;
  g_autofree char *where = ws_devmem_describe (ws_cudart.mem, (uint64_t) (uintptr_t) ptr);
  ws_cudart_warn ("%s: %zu bytes at %p are not inside one device allocation (%s)", what, len, ptr, where);
  return cudaErrorInvalidValue;
}

static cudaError_t
copy (void *dst, const void *src, size_t count, enum cudaMemcpyKind kind, const char *what)
{
  ENSURE_OR_RETURN ();
  if (count == 0)
    return cudaSuccess;
  if (dst == NULL || src == NULL)
    return ws_cudart_set_error (cudaErrorInvalidValue);
  gboolean dst_dev = ws_cudart_is_device_ptr (dst);
  gboolean src_dev = ws_cudart_is_device_ptr (src);
  cudaError_t err = cudaSuccess;
  switch (kind)
    {
    case cudaMemcpyHostToHost: break;
    case cudaMemcpyHostToDevice: err = check_device_range (dst, count, what); break;
    case cudaMemcpyDeviceToHost: err = check_device_range (src, count, what); break;
    case cudaMemcpyDeviceToDevice:
      err = check_device_range (dst, count, what);
      if (err == cudaSuccess)
        err = check_device_range (src, count, what);
      break;
    case cudaMemcpyDefault:
      /* Unified addressing: the pointers say where they live. */
      if (dst_dev)
        err = check_device_range (dst, count, what);
      if (err == cudaSuccess && src_dev)
        err = check_device_range (src, count, what);
      break;
    default: return ws_cudart_set_error (cudaErrorInvalidMemcpyDirection);
    }
  if (err != cudaSuccess)
    return ws_cudart_set_error (err);
  memmove (dst, src, count);
  return cudaSuccess;
}

cudaError_t
cudaMemcpy (void *dst, const void *src, size_t count, enum cudaMemcpyKind kind)
{
  return copy (dst, src, count, kind, "cudaMemcpy");
}

cudaError_t
cudaMemcpy_ptds (void *dst, const void *src, size_t count, enum cudaMemcpyKind kind)
{
  return cudaMemcpy (dst, src, count, kind);
}

cudaError_t
cudaMemcpyAsync (void *dst, const void *src, size_t count, enum cudaMemcpyKind kind, cudaStream_t stream)
{
  if (!ws_cudart_stream_valid (stream))
    return ws_cudart_set_error (cudaErrorInvalidResourceHandle);
  WsCudartGraph *capture = ws_cudart_capturing (stream);
  if (capture != NULL)
    {
      if (kind < cudaMemcpyHostToHost || kind > cudaMemcpyDefault)
        return ws_cudart_set_error (cudaErrorInvalidMemcpyDirection);
      return ws_cudart_capture_memcpy (capture, dst, src, count, kind);
    }
  return copy (dst, src, count, kind, "cudaMemcpyAsync");
}

cudaError_t
cudaMemcpyAsync_ptsz (void *dst, const void *src, size_t count, enum cudaMemcpyKind kind, cudaStream_t stream)
{
  return cudaMemcpyAsync (dst, src, count, kind, stream);
}

static cudaError_t
copy_2d (void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height,
         enum cudaMemcpyKind kind, const char *what)
{
  if (width > dpitch || width > spitch)
    return ws_cudart_set_error (cudaErrorInvalidPitchValue);
  for (size_t r = 0; r < height; r++)
    {
      cudaError_t err = copy ((char *) dst + r * dpitch, (const char *) src + r * spitch, width, kind, what);
      if (err != cudaSuccess)
        return err;
    }
  return cudaSuccess;
}

cudaError_t
cudaMemcpy2D (void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height,
              enum cudaMemcpyKind kind)
{
  return copy_2d (dst, dpitch, src, spitch, width, height, kind, "cudaMemcpy2D");
}

cudaError_t
cudaMemcpy2D_ptds (void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height,
                   enum cudaMemcpyKind kind)
{
  return cudaMemcpy2D (dst, dpitch, src, spitch, width, height, kind);
}

cudaError_t
cudaMemcpy2DAsync (void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height,
                   enum cudaMemcpyKind kind, cudaStream_t stream)
{
  if (!ws_cudart_stream_valid (stream))
    return ws_cudart_set_error (cudaErrorInvalidResourceHandle);
  if (ws_cudart_capturing (stream) != NULL)
    return ws_cudart_capture_unsupported (ws_cudart_capturing (stream), "cudaMemcpy2DAsync");
  return copy_2d (dst, dpitch, src, spitch, width, height, kind, "cudaMemcpy2DAsync");
}

cudaError_t
cudaMemcpy2DAsync_ptsz (void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height,
                        enum cudaMemcpyKind kind, cudaStream_t stream)
{
  return cudaMemcpy2DAsync (dst, dpitch, src, spitch, width, height, kind, stream);
}

static cudaError_t
set (void *ptr, int value, size_t count, const char *what)
{
  ENSURE_OR_RETURN ();
  if (count == 0)
    return cudaSuccess;
  cudaError_t err = check_device_range (ptr, count, what);
  if (err != cudaSuccess)
    return ws_cudart_set_error (err);
  memset (ptr, value & 0xff, count);
  return cudaSuccess;
}

cudaError_t
cudaMemset (void *devPtr, int value, size_t count)
{
  return set (devPtr, value, count, "cudaMemset");
}

cudaError_t
cudaMemset_ptds (void *devPtr, int value, size_t count)
{
  return cudaMemset (devPtr, value, count);
}

cudaError_t
cudaMemsetAsync (void *devPtr, int value, size_t count, cudaStream_t stream)
{
  if (!ws_cudart_stream_valid (stream))
    return ws_cudart_set_error (cudaErrorInvalidResourceHandle);
  WsCudartGraph *capture = ws_cudart_capturing (stream);
  if (capture != NULL)
    return ws_cudart_capture_memset (capture, devPtr, value, count);
  return set (devPtr, value, count, "cudaMemsetAsync");
}

cudaError_t
cudaMemsetAsync_ptsz (void *devPtr, int value, size_t count, cudaStream_t stream)
{
  return cudaMemsetAsync (devPtr, value, count, stream);
}

cudaError_t
cudaMemset2D (void *devPtr, size_t pitch, int value, size_t width, size_t height)
{
  if (width > pitch)
    return ws_cudart_set_error (cudaErrorInvalidPitchValue);
  for (size_t r = 0; r < height; r++)
    {
      cudaError_t err = set ((char *) devPtr + r * pitch, value, width, "cudaMemset2D");
      if (err != cudaSuccess)
        return err;
    }
  return cudaSuccess;
}

cudaError_t
cudaMemset2D_ptds (void *devPtr, size_t pitch, int value, size_t width, size_t height)
{
  return cudaMemset2D (devPtr, pitch, value, width, height);
}

cudaError_t
cudaMemset2DAsync (void *devPtr, size_t pitch, int value, size_t width, size_t height, cudaStream_t stream)
{
  if (!ws_cudart_stream_valid (stream))
    return ws_cudart_set_error (cudaErrorInvalidResourceHandle);
  if (ws_cudart_capturing (stream) != NULL)
    return ws_cudart_capture_unsupported (ws_cudart_capturing (stream), "cudaMemset2DAsync");
  return cudaMemset2D (devPtr, pitch, value, width, height);
}

cudaError_t
cudaMemset2DAsync_ptsz (void *devPtr, size_t pitch, int value, size_t width, size_t height, cudaStream_t stream)
{
  return cudaMemset2DAsync (devPtr, pitch, value, width, height, stream);
}

/* ---- symbols ------------------------------------------------------------ */

static cudaError_t
symbol_range (const void *symbol, size_t count, size_t offset, void **dev)
{
  uint64_t addr = 0, size = 0;
  cudaError_t err = ws_cudart_symbol_address (symbol, &addr, &size);
  if (err != cudaSuccess)
    return err;
  if (offset > size || count > size - offset)
    return cudaErrorInvalidValue;
  *dev = (void *) (uintptr_t) (addr + offset);
  return cudaSuccess;
}

cudaError_t
cudaMemcpyToSymbol (const void *symbol, const void *src, size_t count, size_t offset, enum cudaMemcpyKind kind)
{
  ENSURE_OR_RETURN ();
  void *dev = NULL;
  cudaError_t err = symbol_range (symbol, count, offset, &dev);
  if (err != cudaSuccess)
    return ws_cudart_set_error (err);
  if (kind != cudaMemcpyHostToDevice && kind != cudaMemcpyDeviceToDevice && kind != cudaMemcpyDefault)
    return ws_cudart_set_error (cudaErrorInvalidMemcpyDirection);
  return copy (dev, src, count, kind == cudaMemcpyDefault ? cudaMemcpyDefault : kind, "cudaMemcpyToSymbol");
}

cudaError_t
cudaMemcpyFromSymbol (void *dst, const void *symbol, size_t count, size_t offset, enum cudaMemcpyKind kind)
{
  ENSURE_OR_RETURN ();
  void *dev = NULL;
  cudaError_t err = symbol_range (symbol, count, offset, &dev);
  if (err != cudaSuccess)
    return ws_cudart_set_error (err);
  if (kind != cudaMemcpyDeviceToHost && kind != cudaMemcpyDeviceToDevice && kind != cudaMemcpyDefault)
    return ws_cudart_set_error (cudaErrorInvalidMemcpyDirection);
  return copy (dst, dev, count, kind, "cudaMemcpyFromSymbol");
}

cudaError_t
cudaMemcpyToSymbol_ptds (const void *symbol, const void *src, size_t count, size_t offset, enum cudaMemcpyKind kind)
{
  return cudaMemcpyToSymbol (symbol, src, count, offset, kind);
}

cudaError_t
cudaMemcpyFromSymbol_ptds (void *dst, const void *symbol, size_t count, size_t offset, enum cudaMemcpyKind kind)
{
  return cudaMemcpyFromSymbol (dst, symbol, count, offset, kind);
}

cudaError_t
cudaMemcpyToSymbolAsync (const void *symbol, const void *src, size_t count, size_t offset, enum cudaMemcpyKind kind,
                         cudaStream_t stream)
{
  if (!ws_cudart_stream_valid (stream))
    return ws_cudart_set_error (cudaErrorInvalidResourceHandle);
  WsCudartGraph *capture = ws_cudart_capturing (stream);
  if (capture != NULL)
    {
      void *dev = NULL;
      cudaError_t err = symbol_range (symbol, count, offset, &dev);
      if (err != cudaSuccess)
        return ws_cudart_set_error (err);
      return ws_cudart_capture_memcpy (capture, dev, src, count, kind);
    }
  return cudaMemcpyToSymbol (symbol, src, count, offset, kind);
}

cudaError_t
cudaMemcpyFromSymbolAsync (void *dst, const void *symbol, size_t count, size_t offset, enum cudaMemcpyKind kind,
                           cudaStream_t stream)
{
  if (!ws_cudart_stream_valid (stream))
    return ws_cudart_set_error (cudaErrorInvalidResourceHandle);
  WsCudartGraph *capture = ws_cudart_capturing (stream);
  if (capture != NULL)
    {
      void *dev = NULL;
      cudaError_t err = symbol_range (symbol, count, offset, &dev);
      if (err != cudaSuccess)
        return ws_cudart_set_error (err);
      return ws_cudart_capture_memcpy (capture, dst, dev, count, kind);
    }
  return cudaMemcpyFromSymbol (dst, symbol, count, offset, kind);
}

cudaError_t
cudaMemcpyToSymbolAsync_ptsz (const void *symbol, const void *src, size_t count, size_t offset,
                              enum cudaMemcpyKind kind, cudaStream_t stream)
{
  return cudaMemcpyToSymbolAsync (symbol, src, count, offset, kind, stream);
}

cudaError_t
cudaMemcpyFromSymbolAsync_ptsz (void *dst, const void *symbol, size_t count, size_t offset, enum cudaMemcpyKind kind,
                                cudaStream_t stream)
{
  return cudaMemcpyFromSymbolAsync (dst, symbol, count, offset, kind, stream);
}

cudaError_t
cudaGetSymbolAddress (void **devPtr, const void *symbol)
{
  if (devPtr == NULL)
    return ws_cudart_set_error (cudaErrorInvalidValue);
  ENSURE_OR_RETURN ();
  uint64_t addr = 0, size = 0;
  cudaError_t err = ws_cudart_symbol_address (symbol, &addr, &size);
  if (err != cudaSuccess)
    return ws_cudart_set_error (err);
  *devPtr = (void *) (uintptr_t) addr;
  return cudaSuccess;
}

cudaError_t
cudaGetSymbolSize (size_t *size, const void *symbol)
{
  if (size == NULL)
    return ws_cudart_set_error (cudaErrorInvalidValue);
  ENSURE_OR_RETURN ();
  uint64_t addr = 0, sz = 0;
  cudaError_t err = ws_cudart_symbol_address (symbol, &addr, &sz);
  if (err != cudaSuccess)
    return ws_cudart_set_error (err);
  *size = (size_t) sz;
  return cudaSuccess;
}

cudaError_t
cudaPointerGetAttributes (struct cudaPointerAttributes *attributes, const void *ptr)
{
  if (attributes == NULL)
    return ws_cudart_set_error (cudaErrorInvalidValue);
  ENSURE_OR_RETURN ();
  memset (attributes, 0, sizeof *attributes);
  const WsDevAlloc *a = ptr != NULL ? ws_devmem_lookup (ws_cudart.mem, (uint64_t) (uintptr_t) ptr, 1) : NULL;
  if (a == NULL)
    {
      attributes->type = cudaMemoryTypeUnregistered;
      attributes->device = -2;
      return cudaSuccess;
    }
  attributes->device = 0;
  attributes->devicePointer = (void *) ptr;
  switch (a->kind)
    {
    case WS_ALLOC_HOST:
      attributes->type = cudaMemoryTypeHost;
      attributes->hostPointer = (void *) ptr;
      break;
    case WS_ALLOC_MANAGED:
      attributes->type = cudaMemoryTypeManaged;
      attributes->hostPointer = (void *) ptr;
      break;
    default: attributes->type = cudaMemoryTypeDevice; break;
    }
  return cudaSuccess;
}

/* Which stream may touch managed memory only matters where host and device
 * memories are separate; here they are one, so the call is checked and
 * accepted. */
cudaError_t
cudaStreamAttachMemAsync (cudaStream_t stream, void *devPtr, size_t length, unsigned int flags)
{
  ENSURE_OR_RETURN ();
  if (!ws_cudart_stream_valid (stream))
    return ws_cudart_set_error (cudaErrorInvalidResourceHandle);
  if (flags != cudaMemAttachGlobal && flags != cudaMemAttachHost && flags != cudaMemAttachSingle)
    return ws_cudart_set_error (cudaErrorInvalidValue);
  const WsDevAlloc *a = ws_devmem_lookup (ws_cudart.mem, (uint64_t) (uintptr_t) devPtr, MAX (length, 1));
  if (a == NULL || a->kind != WS_ALLOC_MANAGED || (length != 0 && a->base != (uint64_t) (uintptr_t) devPtr))
    return ws_cudart_set_error (cudaErrorInvalidValue);
  return cudaSuccess;
}

cudaError_t
cudaStreamAttachMemAsync_ptsz (cudaStream_t stream, void *devPtr, size_t length, unsigned int flags)
{
  return cudaStreamAttachMemAsync (stream, devPtr, length, flags);
}

/* Migration hints: the emulated device and the host share one memory, so
 * there is nothing to move; the calls are accepted as a GPU accepts them. */
cudaError_t
cudaMemPrefetchAsync (const void *devPtr, size_t count, struct cudaMemLocation location, unsigned int flags,
                      cudaStream_t stream)
{
  ENSURE_OR_RETURN ();
  if (!ws_cudart_stream_valid (stream))
    return ws_cudart_set_error (cudaErrorInvalidResourceHandle);
  const WsDevAlloc *a = ws_devmem_lookup (ws_cudart.mem, (uint64_t) (uintptr_t) devPtr, count);
  if (a == NULL || a->kind != WS_ALLOC_MANAGED)
    return ws_cudart_set_error (cudaErrorInvalidValue);
  return cudaSuccess;
}

cudaError_t
cudaMemPrefetchAsync_ptsz (const void *devPtr, size_t count, struct cudaMemLocation location, unsigned int flags,
                           cudaStream_t stream)
{
  return cudaMemPrefetchAsync (devPtr, count, location, flags, stream);
}

cudaError_t
cudaMemAdvise (const void *devPtr, size_t count, enum cudaMemoryAdvise advice, struct cudaMemLocation location)
{
  ENSURE_OR_RETURN ();
  const WsDevAlloc *a = ws_devmem_lookup (ws_cudart.mem, (uint64_t) (uintptr_t) devPtr, count);
  if (a == NULL || a->kind != WS_ALLOC_MANAGED)
    return ws_cudart_set_error (cudaErrorInvalidValue);
  return cudaSuccess;
}
