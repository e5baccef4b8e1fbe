/* ws-cudart-texture.c: CUDA arrays, texture and surface objects.
 *
 * A cudaArray is a device allocation holding its texels row by row with no
 * padding (pitch = width x texel size; layers, cube faces and 3-D slices
 * one after the other), so copies to and from it are 2-D copies on device
 * memory.  Texture and surface objects are descriptors the emulator keeps
 * (ws_emu_texture_create); their handle is what tex/suld/sust receive.
 * Mipmapped arrays are not supported (loud error). */
#define G_LOG_DOMAIN "ws-cudart"

#include "cudart/ws-cudart-private.h"

#include <string.h>

/* cudaMemcpyToArray/FromArray are deprecated, but programs still call them. */
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

#define WS_CUDART_ARRAY_MAGIC 0x41525259u /* "ARRY" */

struct cudaArray {
  uint32_t magic;
  struct cudaChannelFormatDesc desc;
  struct cudaExtent extent; /* as given (depth = layers for layered arrays) */
  unsigned int flags;
  uint32_t texel_bytes;
  uint64_t base;
  uint64_t pitch, slice_pitch;
  uint32_t width, height, depth, layers;
};

cudaError_t cudaMemcpy2DToArray_ptds (cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src, size_t spitch,
                                      size_t width, size_t height, enum cudaMemcpyKind kind);
cudaError_t cudaMemcpy2DFromArray_ptds (void *dst, size_t dpitch, cudaArray_const_t src, size_t wOffset, size_t hOffset,
                                        size_t width, size_t height, enum cudaMemcpyKind kind);
cudaError_t cudaMemcpy3D_ptds (const struct cudaMemcpy3DParms *p);
cudaError_t cudaMemcpy3DAsync_ptsz (const struct cudaMemcpy3DParms *p, cudaStream_t stream);
cudaError_t cudaMemcpyToArray_ptds (cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src, size_t count,
                                    enum cudaMemcpyKind kind);
cudaError_t cudaMemcpyFromArray_ptds (void *dst, cudaArray_const_t src, size_t wOffset, size_t hOffset, size_t count,
                                      enum cudaMemcpyKind kind);

static gboolean
array_ok (cudaArray_const_t a)
{
  return a != NULL && a->magic == WS_CUDART_ARRAY_MAGIC;
}

/* Channels and bits of a channel format; FALSE when the emulator cannot
 * read it (3 channels, channels of different widths, unusual widths). */
static gboolean
format_of (const struct cudaChannelFormatDesc *d, uint8_t *channels, uint8_t *bits, uint8_t *kind)
{
  int w[4] = { d->x, d->y, d->z, d->w }, n = 0;
  for (int i = 0; i < 4; i++)
    if (w[i] != 0)
      {
        if (i != n || w[i] != w[0])
          return FALSE;
        n++;
      }
  if ((n != 1 && n != 2 && n != 4) || (w[0] != 8 && w[0] != 16 && w[0] != 32))
    return FALSE;
  switch (d->f)
    {
    case cudaChannelFormatKindSigned: *kind = WS_TEX_KIND_SIGNED; break;
    case cudaChannelFormatKindUnsigned: *kind = WS_TEX_KIND_UNSIGNED; break;
    case cudaChannelFormatKindFloat:
      if (w[0] == 8)
        return FALSE;
      *kind = WS_TEX_KIND_FLOAT;
      break;
    default: return FALSE;
    }
  *channels = (uint8_t) n;
  *bits = (uint8_t) w[0];
  return TRUE;
}

static cudaError_t
array_new (cudaArray_t *array, const struct cudaChannelFormatDesc *desc, struct cudaExtent extent, unsigned int flags,
           const char *what)
{
  uint8_t channels, bits, kind;
  if (array == NULL || desc == NULL || extent.width == 0)
    return ws_cudart_set_error (cudaErrorInvalidValue);
  cudaError_t err = ws_cudart_ensure ();
  if (err != cudaSuccess)
    return ws_cudart_set_error (err);
  if (!format_of (desc, &channels, &bits, &kind))
    {
      ws_cudart_warn ("%s: channel format (%d,%d,%d,%d bits, kind %d) is not supported by the emulator "
                      "(1, 2 or 4 channels of 8, 16 or 32 bits)",
                      what, desc->x, desc->y, desc->z, desc->w, desc->f);
      return ws_cudart_set_error (cudaErrorInvalidChannelDescriptor);
    }
  if (flags & ~(unsigned) (cudaArrayLayered | cudaArraySurfaceLoadStore | cudaArrayCubemap | cudaArrayTextureGather))
    {
      ws_cudart_warn ("%s: array flags 0x%x are not supported by the emulator", what, flags);
      return ws_cudart_set_error (cudaErrorNotSupported);
    }
  if ((flags & cudaArrayCubemap) && (extent.width != extent.height || extent.depth == 0 || extent.depth % 6 != 0))
    return ws_cudart_set_error (cudaErrorInvalidValue);
  struct cudaArray *a = g_new0 (struct cudaArray, 1);
  a->magic = WS_CUDART_ARRAY_MAGIC;
  a->desc = *desc;
  a->extent = extent;
  a->flags = flags;
  a->texel_bytes = channels * bits / 8u;
  a->width = (uint32_t) extent.width;
  a->height = (uint32_t) MAX (extent.height, 1);
  gboolean layered = (flags & (cudaArrayLayered | cudaArrayCubemap)) != 0;
  a->layers = layered ? (uint32_t) extent.depth : 0;
  a->depth = layered ? 1 : (uint32_t) MAX (extent.depth, 1);
  a->pitch = (uint64_t) a->width * a->texel_bytes;
  a->slice_pitch = a->pitch * a->height;
  uint64_t bytes = a->slice_pitch * MAX (a->depth, 1u) * MAX (a->layers, 1u);
  void *p = NULL;
  err = cudaMalloc (&p, bytes);
  if (err != cudaSuccess)
    {
      g_free (a);
      return err;
    }
  a->base = (uint64_t) (uintptr_t) p;
  *array = a;
  return cudaSuccess;
}

cudaError_t
cudaMallocArray (cudaArray_t *array, const struct cudaChannelFormatDesc *desc, size_t width, size_t height,
                 unsigned int flags)
{
  struct cudaExtent extent = { width, height, 0 };
  return array_new (array, desc, extent, flags, "cudaMallocArray");
}

cudaError_t
cudaMalloc3DArray (cudaArray_t *array, const struct cudaChannelFormatDesc *desc, struct cudaExtent extent,
                   unsigned int flags)
{
  return array_new (array, desc, extent, flags, "cudaMalloc3DArray");
}

cudaError_t
cudaFreeArray (cudaArray_t array)
{
  if (array == NULL)
    return cudaSuccess;
  if (!array_ok (array))
    return ws_cudart_set_error (cudaErrorInvalidValue);
  cudaError_t err = cudaFree ((void *) (uintptr_t) array->base);
  array->magic = 0;
  g_free (array);
  return err;
}

cudaError_t
cudaArrayGetInfo (struct cudaChannelFormatDesc *desc, struct cudaExtent *extent, unsigned int *flags, cudaArray_t array)
{
  if (!array_ok (array))
    return ws_cudart_set_error (cudaErrorInvalidValue);
  if (desc)
    *desc = array->desc;
  if (extent)
    *extent = array->extent;
  if (flags)
    *flags = array->flags;
  return cudaSuccess;
}

cudaError_t
cudaGetChannelDesc (struct cudaChannelFormatDesc *desc, cudaArray_const_t array)
{
  if (desc == NULL || !array_ok (array))
    return ws_cudart_set_error (cudaErrorInvalidValue);
  *desc = array->desc;
  return cudaSuccess;
}

/* Byte address of (x bytes, y, z) in @a, checking that a @width x @height
 * byte rectangle (per slice) fits. */
static cudaError_t
array_span (cudaArray_const_t a, size_t x, size_t y, size_t z, size_t width, size_t height, size_t depth, void **out,
            const char *what)
{
  size_t rows = (size_t) a->height, slices = (size_t) a->depth * MAX (a->layers, 1u);
  if (x + width > a->pitch || y + height > rows || z + depth > slices)
    {
      ws_cudart_warn (
        "%s: a %zux%zux%zu-byte region at (%zu bytes, %zu, %zu) does not fit a %ux%u array of %u-byte texels "
        "with %zu slices",
        what, width, height, depth, x, y, z, a->width, a->height, a->texel_bytes, slices);
      return cudaErrorInvalidValue;
    }
  *out = (void *) (uintptr_t) (a->base + z * a->slice_pitch + y * a->pitch + x);
  return cudaSuccess;
}

static enum cudaMemcpyKind
to_array_kind (enum cudaMemcpyKind kind, gboolean to_array)
{
  /* The array side is device memory: host<->array is host<->device. */
  (void) to_array;
  return kind;
}

cudaError_t
cudaMemcpy2DToArray (cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src, size_t spitch, size_t width,
                     size_t height, enum cudaMemcpyKind kind)
{
  void *d;
  if (!array_ok (dst))
    return ws_cudart_set_error (cudaErrorInvalidValue);
  cudaError_t err = array_span (dst, wOffset, hOffset, 0, width, height, 1, &d, "cudaMemcpy2DToArray");
  if (err != cudaSuccess)
    return ws_cudart_set_error (err);
  return cudaMemcpy2D (d, dst->pitch, src, spitch, width, height, to_array_kind (kind, TRUE));
}

cudaError_t
cudaMemcpy2DToArray_ptds (cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src, size_t spitch, size_t width,
                          size_t height, enum cudaMemcpyKind kind)
{
  return cudaMemcpy2DToArray (dst, wOffset, hOffset, src, spitch, width, height, kind);
}

cudaError_t
cudaMemcpy2DToArrayAsync (cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src, size_t spitch, size_t width,
                          size_t height, enum cudaMemcpyKind kind, cudaStream_t stream)
{
  if (!ws_cudart_stream_valid (stream))
    return ws_cudart_set_error (cudaErrorInvalidResourceHandle);
  return cudaMemcpy2DToArray (dst, wOffset, hOffset, src, spitch, width, height, kind);
}

cudaError_t
cudaMemcpy2DFromArray (void *dst, size_t dpitch, cudaArray_const_t src, size_t wOffset, size_t hOffset, size_t width,
                       size_t height, enum cudaMemcpyKind kind)
{
  void *s;
  if (!array_ok (src))
    return ws_cudart_set_error (cudaErrorInvalidValue);
  cudaError_t err = array_span (src, wOffset, hOffset, 0, width, height, 1, &s, "cudaMemcpy2DFromArray");
  if (err != cudaSuccess)
    return ws_cudart_set_error (err);
  return cudaMemcpy2D (dst, dpitch, s, src->pitch, width, height, to_array_kind (kind, FALSE));
}

cudaError_t
cudaMemcpy2DFromArray_ptds (void *dst, size_t dpitch, cudaArray_const_t src, size_t wOffset, size_t hOffset,
                            size_t width, size_t height, enum cudaMemcpyKind kind)
{
  return cudaMemcpy2DFromArray (dst, dpitch, src, wOffset, hOffset, width, height, kind);
}

cudaError_t
cudaMemcpy2DFromArrayAsync (void *dst, size_t dpitch, cudaArray_const_t src, size_t wOffset, size_t hOffset,
                            size_t width, size_t height, enum cudaMemcpyKind kind, cudaStream_t stream)
{
  if (!ws_cudart_stream_valid (stream))
    return ws_cudart_set_error (cudaErrorInvalidResourceHandle);
  return cudaMemcpy2DFromArray (dst, dpitch, src, wOffset, hOffset, width, height, kind);
}

/* cudaMemcpyToArray/FromArray (deprecated): @count bytes from (wOffset
 * bytes, hOffset), continuing on the next rows (the array has no padding). */
static gboolean
array_linear_range (cudaArray_const_t a, size_t wOffset, size_t hOffset, size_t count, const char *what, uint64_t *at)
{
  if (!array_ok (a))
    return FALSE;
  size_t start = hOffset * a->pitch + wOffset;
  size_t total = a->slice_pitch * a->depth * MAX (a->layers, 1u);
  if (wOffset >= a->pitch || start + count > total)
    {
      ws_cudart_warn ("%s: %zu bytes at (%zu bytes, %zu) overflow the array (%zu bytes)", what, count, wOffset, hOffset,
                      total);
      return FALSE;
    }
  *at = a->base + start;
  return TRUE;
}

cudaError_t
cudaMemcpyToArray (cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src, size_t count,
                   enum cudaMemcpyKind kind)
{
  uint64_t at;
  if (!array_linear_range (dst, wOffset, hOffset, count, "cudaMemcpyToArray", &at))
    return ws_cudart_set_error (cudaErrorInvalidValue);
  return cudaMemcpy ((void *) (uintptr_t) at, src, count, kind);
}

cudaError_t
cudaMemcpyToArray_ptds (cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src, size_t count,
                        enum cudaMemcpyKind kind)
{
  return cudaMemcpyToArray (dst, wOffset, hOffset, src, count, kind);
}

cudaError_t
cudaMemcpyFromArray (void *dst, cudaArray_const_t src, size_t wOffset, size_t hOffset, size_t count,
                     enum cudaMemcpyKind kind)
{
  uint64_t at;
  if (!array_linear_range (src, wOffset, hOffset, count, "cudaMemcpyFromArray", &at))
    return ws_cudart_set_error (cudaErrorInvalidValue);
  return cudaMemcpy (dst, (const void *) (uintptr_t) at, count, kind);
}

cudaError_t
cudaMemcpyFromArray_ptds (void *dst, cudaArray_const_t src, size_t wOffset, size_t hOffset, size_t count,
                          enum cudaMemcpyKind kind)
{
  return cudaMemcpyFromArray (dst, src, wOffset, hOffset, count, kind);
}

/* One side of a 3-D copy: address of its origin, row pitch, slice pitch,
 * and the byte width of one element (arrays count x in texels). */
typedef struct {
  char *origin;
  size_t pitch, slice;
  size_t elem;
} Side;

static cudaError_t
side_of (cudaArray_const_t array, struct cudaPitchedPtr ptr, struct cudaPos pos, struct cudaExtent ext,
         size_t row_bytes, Side *s, const char *what)
{
  if (array != NULL)
    {
      void *o;
      if (!array_ok (array))
        return cudaErrorInvalidValue;
      cudaError_t err = array_span (array, pos.x * array->texel_bytes, pos.y, pos.z, row_bytes, MAX (ext.height, 1),
                                    MAX (ext.depth, 1), &o, what);
      if (err != cudaSuccess)
        return err;
      s->origin = o;
      s->pitch = array->pitch;
      s->slice = array->slice_pitch;
      return cudaSuccess;
    }
  if (ptr.ptr == NULL)
    return cudaErrorInvalidValue;
  s->pitch = ptr.pitch;
  s->slice = ptr.pitch * MAX (ptr.ysize, 1);
  s->origin = (char *) ptr.ptr + pos.z * s->slice + pos.y * s->pitch + pos.x;
  return cudaSuccess;
}

cudaError_t
cudaMemcpy3D (const struct cudaMemcpy3DParms *p)
{
  if (p == NULL)
    return ws_cudart_set_error (cudaErrorInvalidValue);
  cudaError_t err = ws_cudart_ensure ();
  if (err != cudaSuccess)
    return ws_cudart_set_error (err);
  if ((p->srcArray != NULL && p->srcPtr.ptr != NULL) || (p->dstArray != NULL && p->dstPtr.ptr != NULL))
    return ws_cudart_set_error (cudaErrorInvalidValue);
  /* The extent's width is in texels when an array takes part, else in bytes. */
  cudaArray_const_t arr = p->srcArray != NULL ? p->srcArray : p->dstArray;
  if (arr != NULL && !array_ok (arr))
    return ws_cudart_set_error (cudaErrorInvalidValue);
  size_t row_bytes = arr != NULL ? p->extent.width * arr->texel_bytes : p->extent.width;
  Side s, d;
  err = side_of (p->srcArray, p->srcPtr, p->srcPos, p->extent, row_bytes, &s, "cudaMemcpy3D (source)");
  if (err == cudaSuccess)
    err = side_of (p->dstArray, p->dstPtr, p->dstPos, p->extent, row_bytes, &d, "cudaMemcpy3D (destination)");
  if (err != cudaSuccess)
    return ws_cudart_set_error (err);
  for (size_t z = 0; z < MAX (p->extent.depth, 1); z++)
    {
      err = cudaMemcpy2D (d.origin + z * d.slice, d.pitch, s.origin + z * s.slice, s.pitch, row_bytes,
                          MAX (p->extent.height, 1), p->kind);
      if (err != cudaSuccess)
        return err;
    }
  return cudaSuccess;
}

cudaError_t
cudaMemcpy3D_ptds (const struct cudaMemcpy3DParms *p)
{
  return cudaMemcpy3D (p);
}

cudaError_t
cudaMemcpy3DAsync (const struct cudaMemcpy3DParms *p, cudaStream_t stream)
{
  if (!ws_cudart_stream_valid (stream))
    return ws_cudart_set_error (cudaErrorInvalidResourceHandle);
  return cudaMemcpy3D (p);
}

cudaError_t
cudaMemcpy3DAsync_ptsz (const struct cudaMemcpy3DParms *p, cudaStream_t stream)
{
  return cudaMemcpy3DAsync (p, stream);
}

/* ---- texture and surface objects ------------------------------------------------- */

static WsTexAddressMode
address_mode (enum cudaTextureAddressMode m)
{
  switch (m)
    {
    case cudaAddressModeWrap: return WS_TEX_ADDRESS_WRAP;
    case cudaAddressModeMirror: return WS_TEX_ADDRESS_MIRROR;
    case cudaAddressModeBorder: return WS_TEX_ADDRESS_BORDER;
    default: return WS_TEX_ADDRESS_CLAMP;
    }
}

/* The emulator's descriptor of a resource; an error (with a message) when
 * the emulator cannot read it. */
static cudaError_t
describe_resource (const struct cudaResourceDesc *r, WsEmuTexture *t, gboolean surface, const char *what)
{
  const struct cudaChannelFormatDesc *fmt = NULL;
  memset (t, 0, sizeof *t);
  switch (r->resType)
    {
    case cudaResourceTypeArray:
      {
        cudaArray_const_t a = r->res.array.array;
        if (!array_ok (a))
          return cudaErrorInvalidResourceHandle;
        if (surface && !(a->flags & cudaArraySurfaceLoadStore))
          {
            ws_cudart_warn ("%s: the array was not created with cudaArraySurfaceLoadStore", what);
            return cudaErrorInvalidValue;
          }
        fmt = &a->desc;
        t->base = a->base;
        t->width = a->width;
        t->height = a->height;
        t->depth = a->depth;
        t->layers = a->layers;
        t->cubemap = (a->flags & cudaArrayCubemap) != 0;
        t->pitch = a->pitch;
        t->slice_pitch = a->slice_pitch;
        break;
      }
    case cudaResourceTypeLinear:
      if (surface)
        return cudaErrorInvalidValue;
      fmt = &r->res.linear.desc;
      t->base = (uint64_t) (uintptr_t) r->res.linear.devPtr;
      t->height = t->depth = 1;
      break;
    case cudaResourceTypePitch2D:
      if (surface)
        return cudaErrorInvalidValue;
      fmt = &r->res.pitch2D.desc;
      t->base = (uint64_t) (uintptr_t) r->res.pitch2D.devPtr;
      t->width = (uint32_t) r->res.pitch2D.width;
      t->height = (uint32_t) r->res.pitch2D.height;
      t->depth = 1;
      t->pitch = r->res.pitch2D.pitchInBytes;
      t->slice_pitch = t->pitch * t->height;
      break;
    default:
      ws_cudart_warn ("%s: resource type %d (mipmapped arrays) is not supported by the Warpscope emulator", what,
                      (int) r->resType);
      return cudaErrorNotSupported;
    }
  if (!format_of (fmt, &t->channels, &t->channel_bits, &t->kind))
    {
      ws_cudart_warn ("%s: channel format (%d,%d,%d,%d bits, kind %d) is not supported by the emulator", what, fmt->x,
                      fmt->y, fmt->z, fmt->w, fmt->f);
      return cudaErrorInvalidChannelDescriptor;
    }
  if (r->resType == cudaResourceTypeLinear)
    {
      t->width = (uint32_t) (r->res.linear.sizeInBytes / (t->channels * t->channel_bits / 8u));
      t->pitch = r->res.linear.sizeInBytes;
      t->slice_pitch = t->pitch;
    }
  if (t->base == 0 || t->width == 0)
    return cudaErrorInvalidValue;
  /* The texels must lie in device memory (an array, or a cudaMalloc'd range). */
  uint64_t extent = t->slice_pitch * MAX (t->depth, 1u) * MAX (t->layers, 1u);
  if (r->resType == cudaResourceTypePitch2D)
    extent = t->pitch * (t->height - 1) + (uint64_t) t->width * t->channels * t->channel_bits / 8u;
  if (ws_devmem_lookup (ws_cudart.mem, t->base, extent) == NULL)
    {
      g_autofree char *where = ws_devmem_describe (ws_cudart.mem, t->base);
      ws_cudart_warn ("%s: the resource's %" G_GUINT64_FORMAT " bytes at 0x%" G_GINT64_MODIFIER "x are not inside one "
                      "device allocation (%s)",
                      what, extent, t->base, where);
      return cudaErrorInvalidValue;
    }
  return cudaSuccess;
}

cudaError_t
cudaCreateTextureObject (cudaTextureObject_t *pTexObject, const struct cudaResourceDesc *pResDesc,
                         const struct cudaTextureDesc *pTexDesc, const struct cudaResourceViewDesc *pResViewDesc)
{
  WsEmuTexture t;
  if (pTexObject == NULL || pResDesc == NULL || pTexDesc == NULL)
    return ws_cudart_set_error (cudaErrorInvalidValue);
  cudaError_t err = ws_cudart_ensure_emu ();
  if (err != cudaSuccess)
    return ws_cudart_set_error (err);
  if (pResViewDesc != NULL)
    {
      ws_cudart_warn ("cudaCreateTextureObject: resource views are not supported by the Warpscope emulator");
      return ws_cudart_set_error (cudaErrorNotSupported);
    }
  err = describe_resource (pResDesc, &t, FALSE, "cudaCreateTextureObject");
  if (err != cudaSuccess)
    return ws_cudart_set_error (err);
  for (int i = 0; i < 3; i++)
    t.address[i] = (uint8_t) address_mode (pTexDesc->addressMode[i]);
  if (pResDesc->resType == cudaResourceTypeLinear)
    t.address[0] = WS_TEX_ADDRESS_BORDER; /* tex1Dfetch: out-of-range reads return zero */
  t.linear_filter = pTexDesc->filterMode == cudaFilterModeLinear;
  t.normalized_coords = pTexDesc->normalizedCoords != 0;
  t.read_normalized = pTexDesc->readMode == cudaReadModeNormalizedFloat;
  for (int i = 0; i < 4; i++)
    t.border[i] = pTexDesc->borderColor[i];
  if (t.linear_filter && t.kind != WS_TEX_KIND_FLOAT && !t.read_normalized)
    {
      ws_cudart_warn ("cudaCreateTextureObject: linear filtering needs float texels or cudaReadModeNormalizedFloat");
      return ws_cudart_set_error (cudaErrorInvalidValue);
    }
  g_rec_mutex_lock (&ws_cudart.lock);
  *pTexObject = (cudaTextureObject_t) ws_emu_texture_create (ws_cudart.emu, &t);
  g_rec_mutex_unlock (&ws_cudart.lock);
  return cudaSuccess;
}

cudaError_t
cudaDestroyTextureObject (cudaTextureObject_t texObject)
{
  if (texObject == 0)
    return cudaSuccess;
  cudaError_t err = ws_cudart_ensure_emu ();
  if (err != cudaSuccess)
    return ws_cudart_set_error (err);
  g_rec_mutex_lock (&ws_cudart.lock);
  gboolean ok = ws_emu_texture_destroy (ws_cudart.emu, texObject);
  g_rec_mutex_unlock (&ws_cudart.lock);
  return ok ? cudaSuccess : ws_cudart_set_error (cudaErrorInvalidValue);
}

cudaError_t
cudaCreateSurfaceObject (cudaSurfaceObject_t *pSurfObject, const struct cudaResourceDesc *pResDesc)
{
  WsEmuTexture t;
  if (pSurfObject == NULL || pResDesc == NULL)
    return ws_cudart_set_error (cudaErrorInvalidValue);
  cudaError_t err = ws_cudart_ensure_emu ();
  if (err != cudaSuccess)
    return ws_cudart_set_error (err);
  if (pResDesc->resType != cudaResourceTypeArray)
    return ws_cudart_set_error (cudaErrorInvalidValue);
  err = describe_resource (pResDesc, &t, TRUE, "cudaCreateSurfaceObject");
  if (err != cudaSuccess)
    return ws_cudart_set_error (err);
  g_rec_mutex_lock (&ws_cudart.lock);
  *pSurfObject = (cudaSurfaceObject_t) ws_emu_texture_create (ws_cudart.emu, &t);
  g_rec_mutex_unlock (&ws_cudart.lock);
  return cudaSuccess;
}

cudaError_t
cudaDestroySurfaceObject (cudaSurfaceObject_t surfObject)
{
  return cudaDestroyTextureObject (surfObject);
}
