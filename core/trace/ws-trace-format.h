/* ws-trace-format.h: on-disk layout of a Warpscope trace (private to core/trace).
 *
 * docs/trace-format.md describes every byte; keep the two in step.  All
 * integers are little-endian.  The writer and the reader share the stream
 * codec defined here so that they can never disagree. */
#pragma once

#include <string.h>
#include "base/ws-base.h"

G_BEGIN_DECLS

#if G_BYTE_ORDER != G_LITTLE_ENDIAN
#error "the trace module assumes a little-endian host (as the file format is)"
#endif

/* File header: magic (PNG-style, catches text-mode mangling), version, flags. */
#define WS_TRACE_MAGIC "\x89WST\r\n\x1a\n"
#define WS_TRACE_MAGIC_LEN 8
#define WS_TRACE_VERSION 1
#define WS_TRACE_HEADER_SIZE 16
/* Trailer at the very end of the file: section offsets + checksum + magic. */
#define WS_TRACE_END_MAGIC "WSTREND\n"
#define WS_TRACE_TRAILER_SIZE 64
#define WS_TRACE_SECTION_HEADER_SIZE 32

/* Section tags (four ASCII characters read as a little-endian u32). */
#define WS_TRACE_TAG(a, b, c, d) \
  ((uint32_t) (a) | ((uint32_t) (b) << 8) | ((uint32_t) (c) << 16) | ((uint32_t) (d) << 24))
#define WS_TRACE_TAG_KERNELS WS_TRACE_TAG ('K', 'E', 'R', 'N')
#define WS_TRACE_TAG_LAUNCHES WS_TRACE_TAG ('L', 'N', 'C', 'H')
#define WS_TRACE_TAG_TBS WS_TRACE_TAG ('T', 'B', 'C', 'T')
#define WS_TRACE_TAG_INDEX WS_TRACE_TAG ('T', 'I', 'D', 'X')

enum { WS_TRACE_ENC_RAW = 0, WS_TRACE_ENC_ZSTD = 1 };

/* Fixed record sizes inside the sections. */
#define WS_TRACE_STATIC_INST_SIZE 32
#define WS_TRACE_LAUNCH_SIZE 160
#define WS_TRACE_TB_SIZE 64
#define WS_TRACE_INDEX_SIZE 32

/* Byte offsets of the fields of those records, shared by the writer and the
 * reader (docs/trace-format.md lists the same). */
enum {                           /* a static instruction */
       WS_TRACE_SI_PTX_LINE = 0, /* u32 */
       WS_TRACE_SI_SRC_LINE = 4, /* u32 */
       WS_TRACE_SI_OP = 8,       /* u8 each, from here to BARRIER */
       WS_TRACE_SI_OPCLASS = 9,
       WS_TRACE_SI_SPACE = 10,
       WS_TRACE_SI_ACCESS_SIZE = 11,
       WS_TRACE_SI_N_DST = 12,
       WS_TRACE_SI_N_SRC = 13,
       WS_TRACE_SI_COND_BRANCH = 14,
       WS_TRACE_SI_BARRIER = 15,
       WS_TRACE_SI_DST = 16, /* 2 x u16 */
       WS_TRACE_SI_SRC = 20, /* 4 x u16 */
       WS_TRACE_SI_END = 28,
};
enum {                               /* a launch */
       WS_TRACE_L_KERNEL = 0,        /* u32 */
       WS_TRACE_L_GRID = 4,          /* 3 x u32 */
       WS_TRACE_L_BLOCK = 16,        /* 3 x u32 */
       WS_TRACE_L_DYN_SHARED = 28,   /* u32 */
       WS_TRACE_L_WARPS_PER_TB = 32, /* u32 */
       WS_TRACE_L_FLAGS = 36,        /* u32: bit 0 = incomplete */
       WS_TRACE_L_FIRST_TB = 40,     /* u64 from here to MEM_INSTS */
       WS_TRACE_L_N_TBS = 48,
       WS_TRACE_L_THREAD_INSTS = 56,
       WS_TRACE_L_WARP_INSTS = 64,
       WS_TRACE_L_MEM_REQS = 72,
       WS_TRACE_L_GLOBAL_REQS = 80,
       WS_TRACE_L_LOCAL_REQS = 88,
       WS_TRACE_L_SHARED = 96,
       WS_TRACE_L_BARRIERS = 104,
       WS_TRACE_L_MEM_INSTS = 112,
       WS_TRACE_L_COV_THREAD = 120,   /* f64 */
       WS_TRACE_L_COV_WARP = 128,     /* f64 */
       WS_TRACE_L_STREAM_BYTES = 136, /* u64 */
       WS_TRACE_L_END = 144,
};
enum {                               /* a thread block's counters */
       WS_TRACE_TB_THREAD_INSTS = 0, /* u64 from here to MEM_INSTS */
       WS_TRACE_TB_WARP_INSTS = 8,
       WS_TRACE_TB_GLOBAL_REQS = 16,
       WS_TRACE_TB_LOCAL_REQS = 24,
       WS_TRACE_TB_SHARED = 32,
       WS_TRACE_TB_BARRIERS = 40,
       WS_TRACE_TB_MEM_INSTS = 48,
       WS_TRACE_TB_N_WARPS = 56, /* u32 */
       WS_TRACE_TB_FLAGS = 60,   /* u32: bit 0 = recorded */
       WS_TRACE_TB_END = 64,
};
enum {                             /* a chunk index entry */
       WS_TRACE_IX_OFFSET = 0,     /* u64 */
       WS_TRACE_IX_SIZE = 8,       /* u32 */
       WS_TRACE_IX_RAW_SIZE = 12,  /* u32 */
       WS_TRACE_IX_CHECKSUM = 16,  /* u64 */
       WS_TRACE_IX_TB_OFFSET = 24, /* u32 */
       WS_TRACE_IX_TB_SIZE = 28,   /* u32 */
       WS_TRACE_IX_END = 32,
};
G_STATIC_ASSERT (WS_TRACE_SI_END <= WS_TRACE_STATIC_INST_SIZE);
G_STATIC_ASSERT (WS_TRACE_L_END <= WS_TRACE_LAUNCH_SIZE);
G_STATIC_ASSERT (WS_TRACE_TB_END == WS_TRACE_TB_SIZE);
G_STATIC_ASSERT (WS_TRACE_IX_END == WS_TRACE_INDEX_SIZE);

/* Chunks: consecutive TB blocks compressed together until this much stream
 * data (small TBs compress badly alone and each zstd frame has a fixed
 * cost); a TB is then read by decoding at most this much.  */
#define WS_TRACE_DEFAULT_CHUNK_BYTES (32u * 1024u)
#define WS_TRACE_MAX_CHUNK_TBS 1024u

/* CUDA's limit on the threads of one block (every architecture since
 * Fermi): the reader refuses launch records beyond it. */
#define WS_TRACE_MAX_THREADS_PER_BLOCK 1024u

/* ---- dynamic stream records ------------------------------------------
 * First byte: [kind:2][mask follows:1][id code:5].  The id code is the
 * zigzag of (static_id - previous_static_id - 1), so falling through to the
 * next instruction is code 0 and a whole record is one byte; code 31 means a
 * varint with the zigzag value follows.  A changed active mask follows as 4
 * raw bytes.  Memory records then carry a mode byte [mode:4][space:4] and
 * the address payload (see docs/trace-format.md). */
enum {
  WS_TRACE_KIND_INST = 0,
  WS_TRACE_KIND_MEM = 1,
  WS_TRACE_KIND_BARRIER = 2,
};
#define WS_TRACE_REC_MASK_BIT 0x20u
#define WS_TRACE_REC_ID_ESCAPE 31u
enum {
  WS_TRACE_ADDR_STRIDE = 0, /* base-delta varint + stride varint */
  WS_TRACE_ADDR_LANES = 1,  /* base-delta varint + (active lanes - 1) delta varints */
  WS_TRACE_ADDR_PACKED = 2, /* min-delta varint, shift, width, bit-packed offsets */
};
/* Packed offsets wider than this use per-lane deltas (the bit writer keeps
 * at most 7 pending bits in a 64-bit accumulator). */
#define WS_TRACE_PACK_MAX_WIDTH 56u
/* Memory records predict their base address from the last base seen by the
 * same static instruction (direct-mapped table, identical in writer and
 * reader), so loops over arrays become small constant deltas. */
#define WS_TRACE_BASE_TABLE 64u
#define WS_TRACE_INITIAL_MASK 0xffffffffu

static inline uint32_t
ws_trace_zigzag32 (int32_t v)
{
  return ((uint32_t) v << 1) ^ (uint32_t) (v >> 31);
}

static inline int32_t
ws_trace_unzigzag32 (uint32_t v)
{
  return (int32_t) ((v >> 1) ^ (0u - (v & 1u)));
}

static inline uint64_t
ws_trace_zigzag64 (int64_t v)
{
  return ((uint64_t) v << 1) ^ (uint64_t) (v >> 63);
}

static inline int64_t
ws_trace_unzigzag64 (uint64_t v)
{
  return (int64_t) ((v >> 1) ^ (0ull - (v & 1ull)));
}

/* LEB128 varint; the caller guarantees 10 bytes of room. */
static inline uint8_t *
ws_trace_put_varint (uint8_t *p, uint64_t v)
{
  while (v >= 0x80)
    {
      *p++ = (uint8_t) (v | 0x80);
      v >>= 7;
    }
  *p++ = (uint8_t) v;
  return p;
}

/* Bounded varint read: returns NULL on truncation or overlong encoding. */
static inline const uint8_t *
ws_trace_get_varint (const uint8_t *p, const uint8_t *end, uint64_t *out)
{
  uint64_t v = 0;
  for (guint shift = 0; shift < 64; shift += 7)
    {
      if (p >= end)
        return NULL;
      uint8_t b = *p++;
      v |= (uint64_t) (b & 0x7f) << shift;
      if (!(b & 0x80))
        {
          *out = v;
          return p;
        }
    }
  return NULL;
}

/* Checksum of chunks and sections: FNV-1a 64 taken over little-endian
 * 64-bit words (then the remaining bytes one by one), eight times faster
 * than the byte-wise original and no extra dependency. */
static inline uint64_t
ws_trace_fnv1a64 (const void *data, gsize len)
{
  const uint8_t *p = data;
  uint64_t h = 0xcbf29ce484222325ull;
  gsize i = 0;
  for (; i + 8 <= len; i += 8)
    {
      uint64_t w;
      memcpy (&w, p + i, 8);
      h ^= w;
      h *= 0x100000001b3ull;
    }
  for (; i < len; i++)
    {
      h ^= p[i];
      h *= 0x100000001b3ull;
    }
  return h;
}

static inline void
ws_trace_put_u16 (uint8_t *p, uint16_t v)
{
  memcpy (p, &v, 2);
}
static inline void
ws_trace_put_u32 (uint8_t *p, uint32_t v)
{
  memcpy (p, &v, 4);
}
static inline void
ws_trace_put_u64 (uint8_t *p, uint64_t v)
{
  memcpy (p, &v, 8);
}
static inline void
ws_trace_put_f64 (uint8_t *p, double v)
{
  memcpy (p, &v, 8);
}
static inline uint16_t
ws_trace_u16 (const uint8_t *p)
{
  uint16_t v;
  memcpy (&v, p, 2);
  return v;
}
static inline uint32_t
ws_trace_u32 (const uint8_t *p)
{
  uint32_t v;
  memcpy (&v, p, 4);
  return v;
}
static inline uint64_t
ws_trace_u64 (const uint8_t *p)
{
  uint64_t v;
  memcpy (&v, p, 8);
  return v;
}
static inline double
ws_trace_f64 (const uint8_t *p)
{
  double v;
  memcpy (&v, p, 8);
  return v;
}

/* Number of distinct 32-byte sectors touched by the active lanes, each lane
 * accessing [addr, addr + size).  Shared by writer (counters) and tests. */
G_GNUC_INTERNAL uint32_t ws_trace_count_sectors (const uint64_t *addrs, uint32_t mask, uint32_t size);

/* Population coefficient of variation (stddev / mean); 0 when the mean is 0. */
G_GNUC_INTERNAL double ws_trace_cov (const double *values, gsize n);

G_END_DECLS
