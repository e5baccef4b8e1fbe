/* test-gpu.h: the GPU record the model tests start from. */
#pragma once

#include "hw/ws-hw.h"

/* An Ampere-like (compute capability 8.0) record of @sms SMs at 1 GHz with
 * one scheduler issuing one instruction per cycle, the A100's occupancy
 * limits (64 warps, 32 blocks, 64 Ki registers, 164 KiB of shared memory per
 * SM), a 32 KiB L1 (128-byte lines, 32-byte sectors, 4 ways) and a 1 MiB L2
 * (16 ways).  Latencies, pipes, bandwidths and MSHRs are the test's to set:
 * they are what its hand-derived figures depend on. */
static inline WsGpu *
test_gpu_cc80 (const char *name, int sms)
{
  WsGpu *g = g_new0 (WsGpu, 1);
  g->name = g_strdup (name);
  g->cc_major = 8;
  g->cc_minor = 0;
  g->sms = sms;
  g->core_clock_mhz = 1000;
  g->warp_schedulers_per_sm = 1;
  g->issue_width = 1;
  g->warp_size = 32;
  g->max_warps_per_sm = 64;
  g->max_blocks_per_sm = 32;
  g->max_threads_per_block = 1024;
  g->registers_per_sm = 65536;
  g->max_registers_per_block = 65536;
  g->max_registers_per_thread = 255;
  g->register_alloc_unit = 256;
  g->shared_per_sm = 167936;
  g->shared_per_block = 49152;
  g->shared_per_block_optin = 166912;
  g->shared_alloc_unit = 128;
  g->shared_reserved_per_block = 1024;
  g->l1_size = 32768;
  g->l1_line = 128;
  g->l1_sector = 32;
  g->l1_assoc = 4;
  g->l2_size = 1 << 20;
  g->l2_line = 128;
  g->l2_assoc = 16;
  return g;
}
