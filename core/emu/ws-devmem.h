/* ws-devmem.h: the emulated device's memory.
 *
 * CONTRACT between the runtime (core/cudart, owner of this module's
 * implementation) and the emulator (core/emu).  Device memory lives at fixed,
 * deterministic addresses: the same program run twice gets the same device
 * pointers, so traces and cache statistics are reproducible.  Device
 * addresses are identity-mapped into this process (a reserved region), so the
 * emulator dereferences an address directly once the bounds check passed.
 *
 * The allocation table must not change while a kernel runs (device-side
 * malloc carves from a heap allocation made before the launch), so lookups
 * during a launch take no lock. */
#pragma once

#include "base/ws-base.h"

G_BEGIN_DECLS

typedef enum {
  WS_ALLOC_DEVICE,  /* cudaMalloc */
  WS_ALLOC_MANAGED, /* cudaMallocManaged */
  WS_ALLOC_HOST,    /* cudaMallocHost / cudaHostAlloc (pinned, device-accessible) */
  WS_ALLOC_SYMBOL,  /* a module's __device__ / __constant__ variable */
  WS_ALLOC_HEAP,    /* the device malloc heap */
  WS_ALLOC_LOCAL,   /* per-thread local memory (stack) windows */
} WsAllocKind;

typedef struct {
  uint64_t base; /* device address (== host address in this process) */
  uint64_t size; /* bytes requested */
  WsAllocKind kind;
  char *label;     /* e.g. "cudaMalloc #3", "symbol d_table" */
  uint32_t serial; /* allocation order, for messages */
} WsDevAlloc;

typedef struct _WsDevMem WsDevMem;

WS_EXPORT WsDevMem *ws_devmem_new (GError **error);
WS_EXPORT void ws_devmem_free_all (WsDevMem *mem);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsDevMem, ws_devmem_free_all)

/* Allocates @size bytes (256-byte aligned, zero-filled).  0 on failure. */
WS_EXPORT uint64_t ws_devmem_alloc (WsDevMem *mem, uint64_t size, WsAllocKind kind, const char *label, GError **error);
WS_EXPORT gboolean ws_devmem_release (WsDevMem *mem, uint64_t addr, GError **error);

/* The allocation containing [addr, addr+len), or NULL. */
WS_EXPORT const WsDevAlloc *ws_devmem_lookup (WsDevMem *mem, uint64_t addr, uint64_t len);
/* The allocation nearest to @addr (for error messages), or NULL when none. */
WS_EXPORT const WsDevAlloc *ws_devmem_nearest (WsDevMem *mem, uint64_t addr);
/* Sorted table access for the emulator's fast path (valid while no alloc/free). */
WS_EXPORT const WsDevAlloc *ws_devmem_table (WsDevMem *mem, guint *n);

/* Host pointer for a device address, checking bounds; NULL with an error
 * naming the address and nearest allocation when out of bounds. */
WS_EXPORT void *ws_devmem_host_ptr (WsDevMem *mem, uint64_t addr, uint64_t len, GError **error);

/* "0x... is 16 bytes past the end of cudaMalloc #3 (0x...+4096)" */
WS_EXPORT char *ws_devmem_describe (WsDevMem *mem, uint64_t addr);

/* Whether [addr, addr+len) is mapped as the GPU maps device memory: in a
 * 2 MiB page that holds part of a live allocation, or in the runtime's page
 * below the first allocation.  An access there does not fault on a GPU even
 * when it is outside every allocation.  No lock: for the emulator while a
 * kernel runs (the table does not change then). */
WS_EXPORT gboolean ws_devmem_mapped (WsDevMem *mem, uint64_t addr, uint64_t len);
/* Whether @addr lies in the reserved device-memory region (allocated or not). */
WS_EXPORT gboolean ws_devmem_contains (WsDevMem *mem, uint64_t addr);

G_END_DECLS
