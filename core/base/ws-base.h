/* ws-base.h: things every module of libwarpscope shares. */
#pragma once

#include <glib.h>
#include <stdint.h>

G_BEGIN_DECLS

/* Symbols are hidden by default; public API is marked WS_EXPORT. */
#define WS_EXPORT __attribute__ ((visibility ("default")))

#define WS_ERROR (ws_error_quark ())

typedef enum {
  WS_ERROR_FAILED,      /* generic failure */
  WS_ERROR_NOT_FOUND,   /* a named thing (GPU, kernel, symbol, file) does not exist */
  WS_ERROR_INVALID,     /* bad input value: out of range, missing field, unknown field */
  WS_ERROR_PARSE,       /* syntax error in PTX, JSON, an expression, ... (message names line:column) */
  WS_ERROR_UNSUPPORTED, /* a feature/API the product does not implement (message names it) */
  WS_ERROR_IO,          /* file or database I/O */
  WS_ERROR_FAULT,       /* an emulated kernel faulted (out-of-bounds, misaligned, trap) */
  WS_ERROR_CORRUPT,     /* a trace/fatbinary/database whose content is damaged */
  WS_ERROR_CANCELLED,
  WS_ERROR_DUPLICATE, /* a name that already exists */
} WsErrorCode;

WS_EXPORT GQuark ws_error_quark (void);

/* Levenshtein distance between two ASCII strings, case-insensitive. */
WS_EXPORT guint ws_edit_distance (const char *a, const char *b);

/* Returns a newly allocated ", "-separated list of up to @max names from
 * @candidates (NULL-terminated) closest to @name, or NULL when none is close.
 * Used for "unknown GPU 'X'; did you mean ...?" messages. */
WS_EXPORT char *ws_suggest_names (const char *name, const char *const *candidates, guint max);

/* Monotonic wall clock in seconds. */
WS_EXPORT double ws_now_seconds (void);

/* A zero-filled block of @size bytes for large, sparsely used tables (a
 * cache's tag array).  Blocks of 64 KiB and more come straight from the
 * kernel as fresh pages, which are zero and cost nothing until first
 * touched: a 40 MiB L2 tag array that a small launch touches in a few sets
 * costs a few page faults instead of zeroing 8 MB (calloc reuses freed heap
 * memory and must clear it).  Free with ws_zeroed_free and the same @size.
 * Aborts on exhaustion, as g_malloc does. */
WS_EXPORT void *ws_zeroed_alloc (gsize size);
WS_EXPORT void ws_zeroed_free (void *block, gsize size);

/* A fast 128-bit hash of byte strings, for content keys and damage checks
 * of caches (not for security: it resists no deliberate collision).  Two
 * independent 64-bit lanes, each word mixed with splitmix64's finaliser;
 * the result depends on every byte and on the length.  Usage: init,
 * update as often as needed, final. */
typedef struct {
  uint64_t h[2];
  uint64_t length;
  uint8_t tail[8];
  guint n_tail;
} WsHash128;

/* splitmix64's output function: a bijection of 64-bit words with full
 * avalanche (every input bit flips each output bit with probability 1/2). */
WS_EXPORT uint64_t ws_mix64 (uint64_t z);

WS_EXPORT void ws_hash128_init (WsHash128 *hash);
WS_EXPORT void ws_hash128_update (WsHash128 *hash, const void *data, gsize n);
/* The 16-byte digest. */
WS_EXPORT void ws_hash128_final (WsHash128 *hash, uint8_t out[16]);

/* The identity of this build of libwarpscope: its GNU build id (a hash of
 * the linked code, the same for the same sources and compiler), else the
 * library file's path, size and time; NULL when neither is known.  Caches
 * of computed results carry it, so a changed program never reads results
 * of the old one. */
WS_EXPORT const char *ws_build_identity (void);

/* For qsort and g_ptr_array_sort over arrays of char*: compares the strings
 * the elements point to (g_strcmp0 itself would compare the elements'
 * bytes).  NULL sorts first. */
WS_EXPORT int ws_compare_string_ptrs (gconstpointer a, gconstpointer b);
/* The keys (strings) of @table sorted by strcmp, NULL-terminated; the keys
 * are borrowed, the array is freed with g_free.  @n may be NULL. */
WS_EXPORT const char **ws_sorted_keys (GHashTable *table, guint *n);

G_END_DECLS
