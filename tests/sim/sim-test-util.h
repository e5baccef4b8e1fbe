/* Helpers shared by the simulator and TBPoint tests: a small GPU record and
 * a builder of synthetic traces written with the real trace writer. */
#pragma once

#include "hw/ws-hw.h"
#include "ptx/ws-ptx.h"
#include "trace/ws-trace.h"
#include "trace/ws-trace-writer.h"

#include <json-glib/json-glib.h>
#include <string.h>
#include "../test-gpu.h"

/* One SM (or @sms), one scheduler issuing one instruction per cycle, every
 * ALU class 4 cycles with initiation interval 1, shared memory 20 cycles
 * with interval 2, L1 30, L2 100, DRAM 300 cycles, 16 bytes per cycle of
 * DRAM bandwidth in one channel. */
static inline WsGpu *
sim_test_gpu (int sms)
{
  WsGpu *g = test_gpu_cc80 ("sim test GPU", sms);
  g->max_warps_per_sm = 48;
  g->max_blocks_per_sm = 8;
  g->l1_latency = 30;
  g->l1_mshrs = 256;
  g->l2_latency = 100;
  g->l2_slices = 4;
  g->dram_latency = 300;
  g->dram_channels = 1;
  g->dram_banks = 16;
  g->dram_bandwidth_gbs = 16; /* 16 bytes per cycle at 1 GHz: 2 cycles per 32-byte sector */
  for (int c = 0; c < WS_ICLASS_COUNT; c++)
    {
      g->pipes[c].latency = 4;
      g->pipes[c].initiation_interval = 1;
    }
  g->pipes[WS_ICLASS_SHARED].latency = 20;
  g->pipes[WS_ICLASS_SHARED].initiation_interval = 2;
  return g;
}

static inline WsTraceStaticInst
sim_test_inst (WsOpClass cls, int dst, int src0, int src1)
{
  WsTraceStaticInst i;
  memset (&i, 0, sizeof i);
  i.opclass = (uint8_t) cls;
  i.op = cls == WS_OPCLASS_LD ? WS_OP_LD : cls == WS_OPCLASS_ST ? WS_OP_ST : WS_OP_ADD;
  i.dst[0] = i.dst[1] = 0xffff;
  for (int k = 0; k < 4; k++)
    i.src[k] = 0xffff;
  if (dst >= 0)
    {
      i.dst[0] = (uint16_t) dst;
      i.n_dst = 1;
    }
  if (src0 >= 0)
    i.src[i.n_src++] = (uint16_t) src0;
  if (src1 >= 0)
    i.src[i.n_src++] = (uint16_t) src1;
  i.access_size = 4;
  return i;
}

/* @n independent loads from @space into registers 10, 11, ... */
static inline void
sim_test_loads (WsTraceStaticInst *insts, int n, WsPtxSpace space)
{
  for (int i = 0; i < n; i++)
    {
      insts[i] = sim_test_inst (WS_OPCLASS_LD, 10 + i, -1, -1);
      insts[i].space = (uint8_t) space;
    }
}

/* A launch being written: call sim_trace_begin, then per TB sim_tb_begin,
 * records, sim_tb_end; then sim_trace_end_launch; finally
 * sim_trace_close. */
typedef struct {
  WsTraceWriter *w;
  WsTraceCta *cta;
  char *path;
} SimTraceBuilder;

static inline void
sim_trace_open (SimTraceBuilder *b, const char *dir, const char *name)
{
  GError *error = NULL;
  b->path = g_build_filename (dir, name, NULL);
  b->w = ws_trace_writer_new (b->path, &error);
  g_assert_no_error (error);
  b->cta = NULL;
}

static inline uint32_t
sim_trace_kernel (SimTraceBuilder *b, const char *name, const WsTraceStaticInst *insts, guint n)
{
  WsTraceKernelDesc kd = { .name = name, .n_insts = n, .insts = insts, .regs_per_thread = 16 };
  return ws_trace_writer_add_kernel (b->w, &kd);
}

static inline void
sim_trace_launch (SimTraceBuilder *b, uint32_t kernel, uint32_t n_tbs, uint32_t threads)
{
  const uint32_t grid[3] = { n_tbs, 1, 1 }, block[3] = { threads, 1, 1 };
  ws_trace_writer_begin_launch (b->w, kernel, grid, block, 0);
}

static inline void
sim_trace_end_launch (SimTraceBuilder *b)
{
  GError *error = NULL;
  g_assert_true (ws_trace_writer_end_launch (b->w, &error));
  g_assert_no_error (error);
}

static inline char *
sim_trace_close (SimTraceBuilder *b)
{
  GError *error = NULL;
  g_assert_true (ws_trace_writer_close (b->w, &error));
  g_assert_no_error (error);
  return b->path;
}

static inline void
sim_rec_inst (WsTraceCta *cta, uint32_t warp, uint32_t id)
{
  ws_trace_cta_inst (cta, warp, id, 0xffffffffu);
}

/* A memory record whose lane l accesses base + l * stride. */
static inline void
sim_rec_mem (WsTraceCta *cta, uint32_t warp, uint32_t id, uint8_t space, uint64_t base, int64_t stride)
{
  uint64_t a[32];
  for (int l = 0; l < 32; l++)
    a[l] = base + (uint64_t) (l * stride);
  ws_trace_cta_mem (cta, warp, id, 0xffffffffu, space, a);
}

/* A catalogue GPU record, read from db/catalogue/gpu/@file. */
static inline WsGpu *
catalogue_gpu (const char *file)
{
  const char *src = g_getenv ("WS_SOURCE_DIR");
  g_assert_nonnull (src);
  g_autofree char *path = g_build_filename (src, "db", "catalogue", "gpu", file, NULL);
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;
  g_assert_true (json_parser_load_from_file (parser, path, &error));
  g_assert_no_error (error);
  WsGpu *gpu = ws_gpu_from_json (json_parser_get_root (parser), &error);
  g_assert_no_error (error);
  g_assert_nonnull (gpu);
  return gpu;
}
