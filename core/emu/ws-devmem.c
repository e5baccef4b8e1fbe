/* ws-devmem.c: deterministic, identity-mapped device memory.
 *
 * One large PROT_NONE region is reserved up front (at a fixed address when
 * the kernel lets us), and allocations are carved from it first-fit in
 * address order.  Placement depends only on the sequence of alloc/free calls,
 * so a program gets the same device pointers on every run.  Each allocation
 * owns whole pages (zero-filled when handed out).
 *
 * Mapping follows the GPU's: the driver maps device memory in 2 MiB pages,
 * so an access a little outside an allocation (into its guard gap, or the
 * runtime's own memory just below the first allocation) does not fault on
 * the hardware.  Here every 2 MiB granule that holds part of a live
 * allocation is readable and writable, and so is one granule below the first
 * allocation (the runtime's memory); ws_devmem_mapped answers whether an
 * address is in such a granule.  A granule with no live allocation left is
 * dropped (MADV_DONTNEED) and made inaccessible again, so a host-side use
 * after free crashes instead of silently reading stale data. */
#define G_LOG_DOMAIN "ws-devmem"

#include "emu/ws-devmem.h"

#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define WS_DEVMEM_FIXED_BASE 0x7e0000000000ull
#define WS_DEVMEM_RESERVE (128ull << 30) /* 128 GiB of address space (valgrind refuses much more) */
#define WS_DEVMEM_ALIGN 256u
#define WS_DEVMEM_GUARD 4096u /* unmapped gap after every allocation */
#define WS_DEVMEM_MAX_FREED 64
#define WS_DEVMEM_GRANULE (2ull << 20) /* the GPU's large page: what an access may stray into unnoticed */

struct _WsDevMem {
  GMutex lock;
  uint8_t *region; /* start of the reservation: one granule of runtime memory, then allocations */
  uint64_t region_size;
  uint64_t alloc_start; /* region + WS_DEVMEM_GRANULE: where allocations begin (granule-aligned) */
  gboolean fixed;       /* got the fixed address */
  GArray *allocs;       /* WsDevAlloc sorted by base */
  GArray *freed;        /* recently released allocations, for messages */
  uint32_t next_serial;
  size_t page;
};

static uint64_t
round_up (uint64_t v, uint64_t a)
{
  return (v + a - 1) / a * a;
}

WsDevMem *
ws_devmem_new (GError **error)
{
  WsDevMem *mem = g_new0 (WsDevMem, 1);
  void *p;

  g_mutex_init (&mem->lock);
  mem->page = (size_t) sysconf (_SC_PAGESIZE);
  /* The first allocation lands at WS_DEVMEM_FIXED_BASE; the granule below
   * it stands for the runtime's own device memory. */
  mem->region_size = WS_DEVMEM_RESERVE + WS_DEVMEM_GRANULE;
#ifdef MAP_FIXED_NOREPLACE
  p = mmap ((void *) (uintptr_t) (WS_DEVMEM_FIXED_BASE - WS_DEVMEM_GRANULE), mem->region_size, PROT_NONE,
            MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED_NOREPLACE, -1, 0);
  if (p != MAP_FAILED && (uintptr_t) p != WS_DEVMEM_FIXED_BASE - WS_DEVMEM_GRANULE)
    {
      /* Old kernels ignore the flag and treat the address as a hint. */
      munmap (p, mem->region_size);
      p = MAP_FAILED;
    }
#else
  p = MAP_FAILED;
#endif
  if (p == MAP_FAILED)
    {
      /* Another WsDevMem (or something else) holds the fixed range: any
       * address keeps offsets deterministic, only the base differs.  Under
       * an address-space limit (ulimit -v, valgrind) settle for less. */
      for (;;)
        {
          p = mmap (NULL, mem->region_size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
          if (p != MAP_FAILED || mem->region_size <= (1ull << 30))
            break;
          mem->region_size = (mem->region_size - WS_DEVMEM_GRANULE) / 4 + WS_DEVMEM_GRANULE;
        }
      if (p == MAP_FAILED)
        {
          g_set_error (error, WS_ERROR, WS_ERROR_FAILED,
                       "cannot reserve %" G_GUINT64_FORMAT " GiB of address space for device memory: %s",
                       mem->region_size >> 30, g_strerror (errno));
          g_mutex_clear (&mem->lock);
          g_free (mem);
          return NULL;
        }
    }
  else
    mem->fixed = TRUE;
  mem->region = p;
  mem->alloc_start = (uint64_t) (uintptr_t) p + WS_DEVMEM_GRANULE;
  if (mprotect (p, WS_DEVMEM_GRANULE, PROT_READ | PROT_WRITE) != 0)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_FAILED, "cannot commit the runtime's device memory: %s",
                   g_strerror (errno));
      munmap (p, mem->region_size);
      g_mutex_clear (&mem->lock);
      g_free (mem);
      return NULL;
    }
  mem->allocs = g_array_new (FALSE, FALSE, sizeof (WsDevAlloc));
  mem->freed = g_array_new (FALSE, FALSE, sizeof (WsDevAlloc));
  return mem;
}

static void
clear_alloc (WsDevAlloc *a)
{
  g_free (a->label);
  a->label = NULL;
}

void
ws_devmem_free_all (WsDevMem *mem)
{
  if (mem == NULL)
    return;
  for (guint i = 0; i < mem->allocs->len; i++)
    clear_alloc (&g_array_index (mem->allocs, WsDevAlloc, i));
  for (guint i = 0; i < mem->freed->len; i++)
    clear_alloc (&g_array_index (mem->freed, WsDevAlloc, i));
  g_array_free (mem->allocs, TRUE);
  g_array_free (mem->freed, TRUE);
  munmap (mem->region, mem->region_size);
  g_mutex_clear (&mem->lock);
  g_free (mem);
}

static uint64_t
span_of (WsDevMem *mem, uint64_t size)
{
  /* Whole pages plus a guard gap, so no two allocations share a page. */
  return round_up (MAX (size, 1), mem->page) + WS_DEVMEM_GUARD;
}

/* The granules [*lo, *hi) that [addr, addr+len) touches, inside the region. */
static void
granules_of (WsDevMem *mem, uint64_t addr, uint64_t len, uint64_t *lo, uint64_t *hi)
{
  uint64_t end = (uint64_t) (uintptr_t) mem->region + mem->region_size;
  *lo = mem->alloc_start + (addr - mem->alloc_start) / WS_DEVMEM_GRANULE * WS_DEVMEM_GRANULE;
  *hi = MIN (mem->alloc_start + round_up (addr + MAX (len, 1) - mem->alloc_start, WS_DEVMEM_GRANULE), end);
}

/* Whether a live allocation other than the one at @except overlaps [lo, hi). */
static gboolean
granule_in_use (WsDevMem *mem, uint64_t lo, uint64_t hi, uint64_t except)
{
  for (guint i = 0; i < mem->allocs->len; i++)
    {
      const WsDevAlloc *a = &g_array_index (mem->allocs, WsDevAlloc, i);
      if (a->base != except && a->base < hi && a->base + MAX (a->size, 1) > lo)
        return TRUE;
    }
  return FALSE;
}

uint64_t
ws_devmem_alloc (WsDevMem *mem, uint64_t size, WsAllocKind kind, const char *label, GError **error)
{
  uint64_t start = mem->alloc_start;
  uint64_t end = (uint64_t) (uintptr_t) mem->region + mem->region_size;
  uint64_t need, cursor;
  guint pos;
  WsDevAlloc a = { 0 };

  g_return_val_if_fail (mem != NULL, 0);
  if (size > mem->region_size / 2)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID,
                   "device allocation of %" G_GUINT64_FORMAT " bytes is larger than the emulated device memory", size);
      return 0;
    }
  need = span_of (mem, size);

  g_mutex_lock (&mem->lock);
  cursor = start;
  for (pos = 0; pos < mem->allocs->len; pos++)
    {
      const WsDevAlloc *cur = &g_array_index (mem->allocs, WsDevAlloc, pos);
      if (cur->base >= cursor + need)
        break;
      cursor = cur->base + span_of (mem, cur->size);
    }
  if (cursor + need > end)
    {
      g_mutex_unlock (&mem->lock);
      g_set_error (error, WS_ERROR, WS_ERROR_FAILED,
                   "out of emulated device memory allocating %" G_GUINT64_FORMAT " bytes", size);
      return 0;
    }
  g_assert (cursor % WS_DEVMEM_ALIGN == 0);
  uint64_t glo, ghi;
  granules_of (mem, cursor, size, &glo, &ghi);
  if (mprotect ((void *) (uintptr_t) glo, ghi - glo, PROT_READ | PROT_WRITE) != 0)
    {
      g_mutex_unlock (&mem->lock);
      g_set_error (error, WS_ERROR, WS_ERROR_FAILED, "cannot commit %" G_GUINT64_FORMAT " bytes of device memory: %s",
                   size, g_strerror (errno));
      return 0;
    }
  /* Its granules may have been mapped (and written to by an out-of-bounds
   * store) already: the allocation's own pages start zero-filled. */
  madvise ((void *) (uintptr_t) cursor, round_up (MAX (size, 1), mem->page), MADV_DONTNEED);
  a.base = cursor;
  a.size = size;
  a.kind = kind;
  a.serial = ++mem->next_serial;
  a.label = label ? g_strdup (label) : g_strdup_printf ("allocation #%u", a.serial);
  g_array_insert_val (mem->allocs, pos, a);
  g_mutex_unlock (&mem->lock);
  return cursor;
}

static gint
find_index (WsDevMem *mem, uint64_t addr)
{
  /* Largest i with allocs[i].base <= addr, or -1. */
  gint lo = 0, hi = (gint) mem->allocs->len - 1, best = -1;
  const WsDevAlloc *t = (const WsDevAlloc *) mem->allocs->data;
  while (lo <= hi)
    {
      gint mid = (lo + hi) / 2;
      if (t[mid].base <= addr)
        {
          best = mid;
          lo = mid + 1;
        }
      else
        hi = mid - 1;
    }
  return best;
}

gboolean
ws_devmem_release (WsDevMem *mem, uint64_t addr, GError **error)
{
  gint i;
  WsDevAlloc a;

  g_return_val_if_fail (mem != NULL, FALSE);
  g_mutex_lock (&mem->lock);
  i = find_index (mem, addr);
  if (i < 0 || g_array_index (mem->allocs, WsDevAlloc, i).base != addr)
    {
      g_mutex_unlock (&mem->lock);
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID,
                   "0x%" G_GINT64_MODIFIER "x is not the start of a device allocation", addr);
      return FALSE;
    }
  a = g_array_index (mem->allocs, WsDevAlloc, i);
  g_array_remove_index (mem->allocs, i);
  madvise ((void *) (uintptr_t) a.base, round_up (MAX (a.size, 1), mem->page), MADV_DONTNEED);
  {
    /* Granules no live allocation uses any more are unmapped, as the driver does. */
    uint64_t glo, ghi;
    granules_of (mem, a.base, a.size, &glo, &ghi);
    for (uint64_t g = glo; g < ghi; g += WS_DEVMEM_GRANULE)
      {
        uint64_t ge = MIN (g + WS_DEVMEM_GRANULE, ghi);
        if (!granule_in_use (mem, g, ge, a.base))
          {
            madvise ((void *) (uintptr_t) g, ge - g, MADV_DONTNEED);
            mprotect ((void *) (uintptr_t) g, ge - g, PROT_NONE);
          }
      }
  }
  if (mem->freed->len >= WS_DEVMEM_MAX_FREED)
    {
      clear_alloc (&g_array_index (mem->freed, WsDevAlloc, 0));
      g_array_remove_index (mem->freed, 0);
    }
  g_array_append_val (mem->freed, a);
  g_mutex_unlock (&mem->lock);
  return TRUE;
}

const WsDevAlloc *
ws_devmem_lookup (WsDevMem *mem, uint64_t addr, uint64_t len)
{
  gint i = find_index (mem, addr);
  const WsDevAlloc *a;

  if (i < 0)
    return NULL;
  a = &g_array_index (mem->allocs, WsDevAlloc, i);
  if (addr + len > a->base + a->size || addr + len < addr)
    return NULL;
  /* A zero-length allocation still "contains" its base for len 0. */
  return a;
}

const WsDevAlloc *
ws_devmem_nearest (WsDevMem *mem, uint64_t addr)
{
  gint i;
  const WsDevAlloc *below = NULL, *above = NULL;

  if (mem->allocs->len == 0)
    return NULL;
  i = find_index (mem, addr);
  if (i >= 0)
    below = &g_array_index (mem->allocs, WsDevAlloc, i);
  if ((guint) (i + 1) < mem->allocs->len)
    above = &g_array_index (mem->allocs, WsDevAlloc, i + 1);
  if (below == NULL)
    return above;
  if (above == NULL)
    return below;
  if (addr < below->base + below->size)
    return below;
  return (addr - (below->base + below->size) <= above->base - addr) ? below : above;
}

const WsDevAlloc *
ws_devmem_table (WsDevMem *mem, guint *n)
{
  *n = mem->allocs->len;
  return (const WsDevAlloc *) mem->allocs->data;
}

gboolean
ws_devmem_mapped (WsDevMem *mem, uint64_t addr, uint64_t len)
{
  uint64_t region = (uint64_t) (uintptr_t) mem->region;
  if (addr + len < addr || addr < region || addr + len > region + mem->region_size)
    return FALSE;
  if (addr + len <= mem->alloc_start)
    return TRUE; /* the runtime's granule */
  if (addr < mem->alloc_start)
    return FALSE;
  uint64_t glo, ghi;
  granules_of (mem, addr, len, &glo, &ghi);
  if (ghi - glo > WS_DEVMEM_GRANULE)
    return FALSE; /* spans two granules: not worth modelling */
  /* A live allocation overlaps the granule: the nearest one below @addr or
   * the first one above it (allocations do not overlap, so an earlier one
   * reaching into the granule would overlap the nearest one). */
  gint i = find_index (mem, addr);
  const WsDevAlloc *t = (const WsDevAlloc *) mem->allocs->data;
  if (i >= 0 && t[i].base + MAX (t[i].size, 1) > glo)
    return TRUE;
  return (guint) (i + 1) < mem->allocs->len && t[i + 1].base < ghi;
}

gboolean
ws_devmem_contains (WsDevMem *mem, uint64_t addr)
{
  uint64_t start = (uint64_t) (uintptr_t) mem->region;
  return addr >= start && addr < start + mem->region_size;
}

char *
ws_devmem_describe (WsDevMem *mem, uint64_t addr)
{
  const WsDevAlloc *a = ws_devmem_nearest (mem, addr);

  g_mutex_lock (&mem->lock);
  for (guint i = mem->freed->len; i > 0; i--)
    {
      const WsDevAlloc *f = &g_array_index (mem->freed, WsDevAlloc, i - 1);
      if (addr >= f->base && addr < f->base + MAX (f->size, 1)
          && (a == NULL || addr < a->base || addr >= a->base + a->size))
        {
          char *s = g_strdup_printf ("0x%" G_GINT64_MODIFIER "x is %" G_GUINT64_FORMAT
                                     " bytes inside %s (0x%" G_GINT64_MODIFIER "x+%" G_GUINT64_FORMAT
                                     "), which was already freed",
                                     addr, addr - f->base, f->label, f->base, f->size);
          g_mutex_unlock (&mem->lock);
          return s;
        }
    }
  g_mutex_unlock (&mem->lock);

  if (addr < 65536)
    return g_strdup_printf ("0x%" G_GINT64_MODIFIER "x is a null pointer (plus an offset)", addr);
  if (a == NULL)
    return g_strdup_printf ("0x%" G_GINT64_MODIFIER "x is not device memory (no allocation exists)", addr);
  if ((addr >= a->base + a->size && addr - (a->base + a->size) > (64u << 20))
      || (addr < a->base && a->base - addr > (64u << 20)))
    return g_strdup_printf ("0x%" G_GINT64_MODIFIER
                            "x does not point into any device allocation (nearest: %s at 0x%" G_GINT64_MODIFIER
                            "x+%" G_GUINT64_FORMAT ")",
                            addr, a->label, a->base, a->size);
  if (addr >= a->base && addr < a->base + a->size)
    return g_strdup_printf ("0x%" G_GINT64_MODIFIER "x is %" G_GUINT64_FORMAT " bytes inside %s (0x%" G_GINT64_MODIFIER
                            "x+%" G_GUINT64_FORMAT ")",
                            addr, addr - a->base, a->label, a->base, a->size);
  if (addr >= a->base + a->size)
    return g_strdup_printf ("0x%" G_GINT64_MODIFIER "x is %" G_GUINT64_FORMAT
                            " bytes past the end of %s (0x%" G_GINT64_MODIFIER "x+%" G_GUINT64_FORMAT ")",
                            addr, addr - (a->base + a->size), a->label, a->base, a->size);
  return g_strdup_printf ("0x%" G_GINT64_MODIFIER "x is %" G_GUINT64_FORMAT
                          " bytes before the start of %s (0x%" G_GINT64_MODIFIER "x+%" G_GUINT64_FORMAT ")",
                          addr, a->base - addr, a->label, a->base, a->size);
}

void *
ws_devmem_host_ptr (WsDevMem *mem, uint64_t addr, uint64_t len, GError **error)
{
  const WsDevAlloc *a = ws_devmem_lookup (mem, addr, len);
  if (a == NULL)
    {
      g_autofree char *what = ws_devmem_describe (mem, addr);
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID, "invalid device memory range of %" G_GUINT64_FORMAT " bytes: %s",
                   len, what);
      return NULL;
    }
  return (void *) (uintptr_t) addr;
}
