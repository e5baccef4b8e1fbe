/* ws-fatbin.h: reading the CUDA fatbinaries nvcc embeds in host programs.
 *
 * Layout (little-endian), as nvcc 13 writes it:
 *  - the wrapper (__fatBinC_Wrapper_t, section .nvFatBinSegment) handed to
 *    __cudaRegisterFatBinary: { int magic = 0x466243B1; int version;
 *    const void *data; void *filename_or_fatbins; }.  Version 1: @data is
 *    one container.  Version 2 (-rdc=true after the device link): @data is
 *    the device-linked container (SASS only) and @filename_or_fatbins a
 *    NULL-terminated array of the prelinked containers, one per translation
 *    unit (section __nv_relfatbin), which hold each unit's PTX.
 *  - a container: u32 magic 0xBA55ED50, u16 version, u16 header size,
 *    u64 size of the entries that follow.
 *  - an entry: u16 kind (1 PTX, 2 ELF/SASS), u16 version, u32 header size,
 *    u64 payload size (padded), u32 compressed size at 0x10, u32 offset of
 *    the ptxas options inside the header at 0x14, u16 minor + u16 major
 *    (PTX ISA version of PTX entries) at 0x18, u32 arch (80 = sm_80) at
 *    0x1c, u64 flags at 0x28 (0x2000 LZ4, 0x8000 ZSTD), u64 decompressed
 *    size at 0x38.  The payload follows the header. */
#pragma once

#include "base/ws-base.h"

G_BEGIN_DECLS

#define WS_FATBIN_WRAPPER_MAGIC 0x466243B1u
#define WS_FATBIN_CONTAINER_MAGIC 0xBA55ED50u

typedef enum {
  WS_FATBIN_KIND_PTX = 1,
  WS_FATBIN_KIND_ELF = 2,
} WsFatbinKind;

typedef enum {
  WS_FATBIN_COMPRESSION_NONE,
  WS_FATBIN_COMPRESSION_LZ4,  /* nvcc --compress-mode=speed */
  WS_FATBIN_COMPRESSION_ZSTD, /* CUDA 13's default (size, balance, default) */
} WsFatbinCompression;

/* Flag bits of an entry's header (found by experiment with nvcc 13). */
#define WS_FATBIN_FLAG_64BIT 0x0001u
#define WS_FATBIN_FLAG_LINUX 0x0010u
#define WS_FATBIN_FLAG_LZ4 0x2000u
#define WS_FATBIN_FLAG_ZSTD 0x8000u

typedef struct {
  WsFatbinKind kind;
  uint32_t arch;          /* 80 for sm_80 / compute_80 */
  uint16_t version_major; /* PTX ISA version (PTX entries) */
  uint16_t version_minor;
  uint64_t flags;
  WsFatbinCompression compression;
  const guint8 *payload;      /* points into the parsed data */
  uint64_t payload_size;      /* bytes stored (compressed size when compressed) */
  uint64_t decompressed_size; /* bytes after decoding (== payload_size when plain) */
  const char *ptxas_options;  /* e.g. "--compile-only" (rdc), owned by the WsFatbin; "" when none */
  guint container;            /* index of the container (translation unit) holding it */
} WsFatbinEntry;

typedef struct _WsFatbin WsFatbin;

/* Parses the wrapper a program passes to __cudaRegisterFatBinary.  The
 * memory it points to must stay mapped while the WsFatbin is used. */
WS_EXPORT WsFatbin *ws_fatbin_new_from_wrapper (const void *wrapper, GError **error);
/* Parses @len bytes holding one or more consecutive containers (the
 * contents of a .nv_fatbin or __nv_relfatbin section).  @data is borrowed. */
WS_EXPORT WsFatbin *ws_fatbin_new_from_data (const void *data, gsize len, GError **error);
WS_EXPORT void ws_fatbin_free (WsFatbin *fatbin);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsFatbin, ws_fatbin_free)

/* Adds the containers of a prelinked (-rdc=true) object, as the array of a
 * version-2 wrapper does. */
WS_EXPORT gboolean ws_fatbin_add_data (WsFatbin *fatbin, const void *data, gsize len, GError **error);

WS_EXPORT int ws_fatbin_get_wrapper_version (WsFatbin *fatbin); /* 1, 2, or 0 when parsed from data */
WS_EXPORT guint ws_fatbin_get_n_containers (WsFatbin *fatbin);
WS_EXPORT guint ws_fatbin_get_n_entries (WsFatbin *fatbin);
WS_EXPORT const WsFatbinEntry *ws_fatbin_get_entry (WsFatbin *fatbin, guint index);
/* TRUE when it holds at least one PTX entry. */
WS_EXPORT gboolean ws_fatbin_has_ptx (WsFatbin *fatbin);

/* Decodes an entry's payload (decompressing as needed).  PTX is returned
 * NUL-terminated with trailing padding removed; @len excludes the NUL. */
WS_EXPORT guint8 *ws_fatbin_entry_decode (const WsFatbinEntry *entry, gsize *len, GError **error);

typedef struct {
  char *ptx; /* NUL-terminated PTX text */
  gsize len;
  uint32_t arch;       /* compute_XX of the chosen entry */
  char *ptxas_options; /* options the entry asks for ("" when none) */
  guint container;
  gboolean newer_than_target; /* chosen by WS_FATBIN_SELECT_ALLOW_NEWER above the target */
} WsFatbinPtx;

WS_EXPORT void ws_fatbin_ptx_free (WsFatbinPtx *ptx);

typedef enum {
  WS_FATBIN_SELECT_STRICT = 0,      /* as a GPU: only PTX the target can JIT */
  WS_FATBIN_SELECT_ALLOW_NEWER = 1, /* else the lowest PTX, marked newer_than_target */
} WsFatbinSelect;

/* Chooses, in every container that holds PTX, the entry with the highest
 * arch <= @target_sm (e.g. 80) and decodes it.  Returns a GPtrArray of
 * WsFatbinPtx (one per translation unit; several for -rdc=true programs).
 * A fatbinary with no PTX at all fails with WS_ERROR_UNSUPPORTED and a
 * message saying how to rebuild.  When a unit's PTX is all newer than the
 * target: WS_FATBIN_SELECT_STRICT fails with WS_ERROR_UNSUPPORTED naming the
 * archs; WS_FATBIN_SELECT_ALLOW_NEWER takes the lowest and sets
 * newer_than_target (an emulator runs any PTX; a model of an older GPU
 * still wants the program).  @origin names the program in messages (may be
 * NULL). */
WS_EXPORT GPtrArray *ws_fatbin_select_ptx (WsFatbin *fatbin, int target_sm, WsFatbinSelect mode, const char *origin,
                                           GError **error);

/* "none", "lz4", "zstd" */
WS_EXPORT const char *ws_fatbin_compression_name (WsFatbinCompression c);

G_END_DECLS

G_BEGIN_DECLS

/* What an executable says about its CUDA runtime (for `profile`/`build`). */
typedef struct {
  char **needed;       /* DT_NEEDED libraries, NULL-terminated */
  gboolean has_fatbin; /* it embeds device code (.nv_fatbin) */
  WsFatbin *fatbin;    /* .nv_fatbin (+ __nv_relfatbin) parsed; NULL when absent */
  GBytes *sections;    /* the section bytes @fatbin points into */
} WsElfCuda;

/* Reads a 64-bit little-endian ELF file's dynamic section and fatbinary
 * sections.  Not an ELF file: WS_ERROR_INVALID. */
WS_EXPORT WsElfCuda *ws_elf_cuda_inspect (const char *path, GError **error);
WS_EXPORT void ws_elf_cuda_free (WsElfCuda *info);
/* TRUE when @info lists a library whose name starts with @prefix ("libcudart.so"). */
WS_EXPORT gboolean ws_elf_cuda_needs (const WsElfCuda *info, const char *prefix);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsElfCuda, ws_elf_cuda_free)

G_END_DECLS
