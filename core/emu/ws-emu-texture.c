/* ws-emu-texture.c: texture and surface objects, and the texel arithmetic
 * of the PTX instructions tex, suld.b and sust.b.
 *
 * Semantics follow the CUDA C++ Programming Guide, appendix "Texture
 * Fetching" (nearest-point and linear filtering, with the interpolation
 * weight held in 9-bit fixed point with 8 fractional bits), its table of
 * cube-map faces, and the PTX ISA sections on tex/suld/sust: wrap and mirror
 * addressing apply to normalised coordinates only (unnormalised ones clamp),
 * border addressing returns the border colour, surface x coordinates are in
 * bytes and an out-of-range surface access traps, clamps or reads zero as
 * its .trap/.clamp/.zero mode says. */
#define G_LOG_DOMAIN "ws-emu"

#include "emu/ws-emu-private.h"

#include <math.h>
#include <string.h>

uint64_t
ws_emu_texture_create (WsEmu *emu, const WsEmuTexture *tex)
{
  g_return_val_if_fail (emu != NULL && tex != NULL, 0);
  g_return_val_if_fail (tex->channels == 1 || tex->channels == 2 || tex->channels == 4, 0);
  g_return_val_if_fail (tex->channel_bits == 8 || tex->channel_bits == 16 || tex->channel_bits == 32, 0);
  EmuTexSlot slot = { *tex, TRUE };
  slot.t.width = MAX (slot.t.width, 1u);
  slot.t.height = MAX (slot.t.height, 1u);
  slot.t.depth = MAX (slot.t.depth, 1u);
  g_array_append_val (emu->textures, slot);
  return emu->textures->len;
}

static EmuTexSlot *
slot_of (const WsEmu *emu, uint64_t handle)
{
  if (handle == 0 || handle > emu->textures->len)
    return NULL;
  EmuTexSlot *s = &g_array_index (emu->textures, EmuTexSlot, handle - 1);
  return s->live ? s : NULL;
}

gboolean
ws_emu_texture_destroy (WsEmu *emu, uint64_t handle)
{
  g_return_val_if_fail (emu != NULL, FALSE);
  EmuTexSlot *s = slot_of (emu, handle);
  if (s == NULL)
    return FALSE;
  s->live = FALSE;
  return TRUE;
}

const WsEmuTexture *
ws_emu_texture_get (WsEmu *emu, uint64_t handle)
{
  g_return_val_if_fail (emu != NULL, NULL);
  EmuTexSlot *s = slot_of (emu, handle);
  return s ? &s->t : NULL;
}

/* ---- texels ---------------------------------------------------------------------- */

static float
half_to_float (uint16_t h)
{
  uint32_t sign = (uint32_t) (h >> 15) << 31, e = (h >> 10) & 0x1f, m = h & 0x3ff, bits;
  if (e == 0x1f)
    bits = sign | 0x7f800000u | (m << 13);
  else if (e == 0)
    {
      float f = ldexpf ((float) m, -24);
      return sign ? -f : f;
    }
  else
    bits = sign | ((e + 112) << 23) | (m << 13);
  float f;
  memcpy (&f, &bits, 4);
  return f;
}

/* Channel @k of the texel at @p as raw bits (integers sign- or zero-extended). */
static uint64_t
channel_raw (const WsEmuTexture *t, const uint8_t *p, int k)
{
  const uint8_t *q = p + (size_t) k * (t->channel_bits / 8);
  gboolean sgn = t->kind == WS_TEX_KIND_SIGNED;
  switch (t->channel_bits)
    {
    case 8: return sgn ? (uint64_t) (int64_t) (int8_t) q[0] : q[0];
    case 16:
      {
        uint16_t v;
        memcpy (&v, q, 2);
        return sgn ? (uint64_t) (int64_t) (int16_t) v : v;
      }
    default:
      {
        uint32_t v;
        memcpy (&v, q, 4);
        return sgn ? (uint64_t) (int64_t) (int32_t) v : v;
      }
    }
}

/* Channel @k as the float the read mode gives. */
static float
channel_float (const WsEmuTexture *t, const uint8_t *p, int k)
{
  uint64_t r = channel_raw (t, p, k);
  if (t->kind == WS_TEX_KIND_FLOAT)
    {
      if (t->channel_bits == 16)
        return half_to_float ((uint16_t) r);
      float f;
      uint32_t u = (uint32_t) r;
      memcpy (&f, &u, 4);
      return f;
    }
  if (t->read_normalized && t->channel_bits < 32)
    {
      /* cudaReadModeNormalizedFloat: unsigned to [0, 1], signed to [-1, 1] */
      double range = (double) ((1u << (t->channel_bits - (t->kind == WS_TEX_KIND_SIGNED))) - 1);
      double v = t->kind == WS_TEX_KIND_SIGNED ? (double) (int64_t) r : (double) r;
      return (float) MAX (v / range, -1.0);
    }
  return t->kind == WS_TEX_KIND_SIGNED ? (float) (int32_t) r : (float) (uint32_t) r;
}

static const uint8_t *
texel_ptr (const WsEmuTexture *t, int64_t x, int64_t y, int64_t z, int64_t layer)
{
  uint64_t off = (uint64_t) layer * t->slice_pitch + (uint64_t) z * t->slice_pitch + (uint64_t) y * t->pitch
                 + (uint64_t) x * (t->channels * t->channel_bits / 8);
  return (const uint8_t *) (uintptr_t) (t->base + off);
}

/* Index @i along a dimension of @n texels under @mode; FALSE: outside
 * (border).  Wrap and mirror need normalised coordinates, else they clamp. */
static gboolean
map_index (int64_t *i, int64_t n, int mode, gboolean normalized)
{
  if (!normalized && (mode == WS_TEX_ADDRESS_WRAP || mode == WS_TEX_ADDRESS_MIRROR))
    mode = WS_TEX_ADDRESS_CLAMP;
  switch (mode)
    {
    case WS_TEX_ADDRESS_WRAP: *i = ((*i % n) + n) % n; return TRUE;
    case WS_TEX_ADDRESS_MIRROR:
      {
        int64_t p = ((*i % (2 * n)) + 2 * n) % (2 * n);
        *i = p < n ? p : 2 * n - 1 - p;
        return TRUE;
      }
    case WS_TEX_ADDRESS_BORDER: return *i >= 0 && *i < n;
    default: *i = CLAMP (*i, 0, n - 1); return TRUE;
    }
}

/* Texel-space coordinate of a float coordinate @x along a dimension of @n. */
static double
texel_coord (const WsEmuTexture *t, double x, int64_t n, int mode)
{
  if (!t->normalized_coords)
    return x;
  if (mode == WS_TEX_ADDRESS_WRAP)
    x -= floor (x);
  else if (mode == WS_TEX_ADDRESS_MIRROR)
    {
      double m = x - 2.0 * floor (x / 2.0);
      x = m < 1.0 ? m : 2.0 - m;
    }
  return x * (double) n;
}

static float
as_f32 (uint64_t bits)
{
  float f;
  uint32_t u = (uint32_t) bits;
  memcpy (&f, &u, 4);
  return f;
}

/* Cube-map face and its (s, t) in [0, 1] for the direction (x, y, z). */
static int
cube_face (float x, float y, float z, double *s, double *tt)
{
  float ax = fabsf (x), ay = fabsf (y), az = fabsf (z);
  int face;
  double sc, tc, ma;
  if (ax >= ay && ax >= az)
    {
      face = x >= 0 ? 0 : 1;
      ma = ax;
      sc = x >= 0 ? -z : z;
      tc = -y;
    }
  else if (ay >= az)
    {
      face = y >= 0 ? 2 : 3;
      ma = ay;
      sc = x;
      tc = y >= 0 ? z : -z;
    }
  else
    {
      face = z >= 0 ? 4 : 5;
      ma = az;
      sc = z >= 0 ? x : -x;
      tc = -y;
    }
  if (ma == 0)
    ma = 1;
  *s = (sc / ma + 1.0) / 2.0;
  *tt = (tc / ma + 1.0) / 2.0;
  return face;
}

/* The coordinates of a geometry: @dims of them, after a layer index when
 * @first is 1 (the array geometries); cube maps only for textures. */
static gboolean
geometry_dims (int geom, gboolean texture, int *dims, int *first)
{
  *first = 0;
  switch (geom)
    {
    case WS_SUB_TEX_1D: *dims = 1; return TRUE;
    case WS_SUB_TEX_2D: *dims = 2; return TRUE;
    case WS_SUB_TEX_3D: *dims = 3; return TRUE;
    case WS_SUB_TEX_A1D:
      *dims = 1;
      *first = 1;
      return TRUE;
    case WS_SUB_TEX_A2D:
      *dims = 2;
      *first = 1;
      return TRUE;
    case WS_SUB_TEX_CUBE: *dims = 2; return texture;
    default: return FALSE;
    }
}

char *
ws_emu_tex_fetch (const WsEmu *emu, uint64_t handle, int geom, const uint64_t *coords, gboolean int_coords, int dtype,
                  uint64_t out[4])
{
  const EmuTexSlot *slot = slot_of (emu, handle);
  if (slot == NULL)
    return g_strdup_printf ("texture handle 0x%" G_GINT64_MODIFIER "x is not a live texture object", handle);
  const WsEmuTexture *t = &slot->t;
  int dims, first = 0;
  int64_t layer = 0;
  double c[3] = { 0, 0, 0 };
  int64_t n[3] = { t->width, t->height, t->depth };
  gboolean normalized = t->normalized_coords;
  int mode[3] = { t->address[0], t->address[1], t->address[2] };

  if (!geometry_dims (geom, TRUE, &dims, &first))
    return g_strdup ("this texture geometry is not supported by the emulator");
  if (first)
    {
      layer = (int64_t) (int32_t) coords[0];
      if (layer < 0 || layer >= (int64_t) MAX (t->layers, 1u))
        layer = CLAMP (layer, 0, (int64_t) MAX (t->layers, 1u) - 1);
    }
  if (geom == WS_SUB_TEX_CUBE)
    {
      layer = cube_face (as_f32 (coords[0]), as_f32 (coords[1]), as_f32 (coords[2]), &c[0], &c[1]);
      /* faces are addressed with normalised coordinates and clamp at their edges */
      normalized = TRUE;
      mode[0] = mode[1] = WS_TEX_ADDRESS_CLAMP;
      c[0] *= (double) n[0];
      c[1] *= (double) n[1];
    }
  else
    for (int d = 0; d < dims; d++)
      {
        uint64_t raw = coords[first + d];
        if (int_coords)
          c[d] = (double) (int32_t) raw;
        else
          {
            float f = as_f32 (raw);
            c[d] = texel_coord (t, (double) f, n[d], mode[d]);
          }
      }

  gboolean integer_result = dtype != WS_T_F32;
  float acc[4] = { 0, 0, 0, 0 };
  uint64_t raw[4] = { 0, 0, 0, 0 };
  gboolean linear = t->linear_filter && !int_coords && !integer_result;

  if (!linear)
    {
      int64_t i[3] = { 0, 0, 0 };
      gboolean inside = TRUE;
      for (int d = 0; d < dims; d++)
        {
          i[d] = int_coords ? (int64_t) c[d] : (int64_t) floor (c[d]);
          inside &= map_index (&i[d], n[d], mode[d], normalized);
        }
      if (inside)
        {
          const uint8_t *p = texel_ptr (t, i[0], i[1], i[2], layer);
          for (int k = 0; k < t->channels; k++)
            {
              raw[k] = channel_raw (t, p, k);
              acc[k] = channel_float (t, p, k);
            }
        }
      else
        for (int k = 0; k < 4; k++)
          {
            acc[k] = t->border[k];
            raw[k] = (uint64_t) (int64_t) t->border[k];
          }
    }
  else
    {
      /* x_B = x - 0.5, i = floor(x_B), alpha = frac(x_B) in 1.8 fixed point */
      int64_t i0[3] = { 0, 0, 0 };
      float a[3] = { 0, 0, 0 };
      for (int d = 0; d < dims; d++)
        {
          double xb = c[d] - 0.5;
          double fl = floor (xb);
          i0[d] = (int64_t) fl;
          a[d] = (float) (nearbyint ((xb - fl) * 256.0) / 256.0);
        }
      int corners = 1 << dims;
      for (int q = 0; q < corners; q++)
        {
          float wgt = 1;
          int64_t i[3] = { 0, 0, 0 };
          gboolean inside = TRUE;
          for (int d = 0; d < dims; d++)
            {
              int hi = q >> d & 1;
              wgt *= hi ? a[d] : 1 - a[d];
              i[d] = i0[d] + hi;
              inside &= map_index (&i[d], n[d], mode[d], normalized);
            }
          if (wgt == 0)
            continue;
          if (inside)
            {
              const uint8_t *p = texel_ptr (t, i[0], i[1], i[2], layer);
              for (int k = 0; k < t->channels; k++)
                acc[k] += wgt * channel_float (t, p, k);
            }
          else
            for (int k = 0; k < 4; k++)
              acc[k] += wgt * t->border[k];
        }
    }
  /* Channels the format lacks read as 0 (x, y, z) and 1 (w). */
  for (int k = t->channels; k < 4; k++)
    {
      acc[k] = k == 3 ? 1.0f : 0.0f;
      raw[k] = k == 3 ? 1 : 0;
    }
  for (int k = 0; k < 4; k++)
    {
      if (integer_result)
        out[k] = (uint32_t) raw[k];
      else
        {
          uint32_t u;
          memcpy (&u, &acc[k], 4);
          out[k] = u;
        }
    }
  return NULL;
}

char *
ws_emu_surf_access (const WsEmu *emu, uint64_t handle, int geom, const uint64_t *coords, int clamp_mode,
                    uint32_t elem_bytes, uint32_t n, gboolean store, uint64_t val[4])
{
  const EmuTexSlot *slot = slot_of (emu, handle);
  if (slot == NULL)
    return g_strdup_printf ("surface handle 0x%" G_GINT64_MODIFIER "x is not a live surface object", handle);
  const WsEmuTexture *t = &slot->t;
  int dims, first = 0;
  if (!geometry_dims (geom, FALSE, &dims, &first))
    return g_strdup ("this surface geometry is not supported by the emulator");
  uint32_t texel_bytes = t->channels * t->channel_bits / 8;
  uint32_t size = elem_bytes * n;
  int64_t lim[4] = { (int64_t) t->width * texel_bytes - size + 1, t->height, t->depth, MAX (t->layers, 1u) };
  int64_t x[3] = { 0, 0, 0 }, layer = first ? (int64_t) (int32_t) coords[0] : 0;
  gboolean inside = layer >= 0 && layer < lim[3];
  for (int d = 0; d < dims; d++)
    {
      x[d] = (int64_t) (int32_t) coords[first + d];
      inside &= x[d] >= 0 && x[d] < lim[d];
    }
  if (!inside)
    {
      if (clamp_mode == 0)
        return g_strdup_printf ("surface %s out of range at (%" G_GINT64_FORMAT " bytes, %" G_GINT64_FORMAT
                                ", %" G_GINT64_FORMAT ") layer %" G_GINT64_FORMAT " of a %ux%ux%u surface (.trap)",
                                store ? "store" : "load", x[0], x[1], x[2], layer, t->width, t->height, t->depth);
      if (clamp_mode == 2)
        {
          if (!store)
            for (uint32_t j = 0; j < n; j++)
              val[j] = 0;
          return NULL;
        }
      for (int d = 0; d < dims; d++)
        x[d] = CLAMP (x[d], 0, lim[d] - 1);
      layer = CLAMP (layer, 0, lim[3] - 1);
      if (dims >= 1)
        x[0] = x[0] / texel_bytes * texel_bytes;
    }
  uint8_t *p = (uint8_t *) (uintptr_t) (t->base + (uint64_t) layer * t->slice_pitch + (uint64_t) x[2] * t->slice_pitch
                                        + (uint64_t) x[1] * t->pitch + (uint64_t) x[0]);
  for (uint32_t j = 0; j < n; j++)
    {
      if (store)
        memcpy (p + j * elem_bytes, &val[j], elem_bytes);
      else
        {
          uint64_t v = 0;
          memcpy (&v, p + j * elem_bytes, elem_bytes);
          val[j] = v;
        }
    }
  return NULL;
}
