/* cooperative_misc: block- and warp-level idioms common in real code.
 *
 *  - cooperative_groups: this_thread_block().sync(), tiled_partition<16>
 *    with tile.shfl_down / tile.any, cg::reduce;
 *  - __syncthreads_count / _and / _or, __syncwarp with a partial mask;
 *  - the "last block" pattern: __threadfence + atomicInc ticket so the last
 *    block to finish reduces all partial sums (CUDA SDK threadFenceReduction);
 *  - vector loads and stores (float4, int2), __ldg, volatile shared memory;
 *  - inline PTX: a 128-bit add with add.cc / addc, %laneid;
 *  - clock64() increasing, __nanosleep.
 */
#include <cstdio>
#include <cstdlib>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

#define CHECK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
  printf("FAILED: %s: %s\n", #call, cudaGetErrorString(e_)); exit(1); } } while (0)

__device__ unsigned int d_ticket = 0;

/* out per block: [0] tile-reduce sum, [1] cg::reduce sum, [2] count, [3] and,
 * [4] or, [5] any-of-tile flags, [6] clock ok */
__global__ void groups_kernel(const int *in, int *out) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<16> tile = cg::tiled_partition<16>(block);
  __shared__ int tile_sums[64];
  int v = in[blockIdx.x * blockDim.x + threadIdx.x];

  int s = v;
  for (int off = tile.size() / 2; off > 0; off /= 2)
    s += tile.shfl_down(s, off);
  if (tile.thread_rank() == 0)
    tile_sums[tile.meta_group_rank()] = s;
  int r = cg::reduce(tile, v, cg::plus<int>());
  bool any_big = tile.any(v > 90);
  block.sync();

  int cnt = __syncthreads_count(v % 3 == 0);
  int all = __syncthreads_and(v >= 0);
  int anyv = __syncthreads_or(v == 77);
  if (threadIdx.x == 0) {
    int total = 0;
    for (int t = 0; t < (int) (blockDim.x / 16); t++) total += tile_sums[t];
    out[blockIdx.x * 8 + 0] = total;
    out[blockIdx.x * 8 + 2] = cnt;
    out[blockIdx.x * 8 + 3] = all;
    out[blockIdx.x * 8 + 4] = anyv;
    long long t0 = clock64();
    __nanosleep(100);
    long long t1 = clock64();
    out[blockIdx.x * 8 + 6] = t1 > t0;
  }
  /* Every tile leader adds its cg::reduce result and any-flag. */
  if (tile.thread_rank() == 0) {
    atomicAdd(&out[blockIdx.x * 8 + 1], r);
    atomicAdd(&out[blockIdx.x * 8 + 5], any_big ? 1 : 0);
  }
}

/* threadFenceReduction: the last block to finish sums the partials. */
__global__ void fence_reduce(const float *in, int n, float *partial, float *result) {
  __shared__ float sdata[128];
  __shared__ bool is_last;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  sdata[threadIdx.x] = i < n ? __ldg(&in[i]) : 0.0f;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) sdata[threadIdx.x] += sdata[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    partial[blockIdx.x] = sdata[0];
    __threadfence();
    unsigned ticket = atomicInc(&d_ticket, gridDim.x);
    is_last = ticket == gridDim.x - 1;
  }
  __syncthreads();
  if (is_last && threadIdx.x == 0) {
    float total = 0.0f;
    for (int b = 0; b < (int) gridDim.x; b++) total += ((volatile float *) partial)[b];
    *result = total;
    d_ticket = 0;
  }
}

__global__ void vector_and_asm(const float4 *a, const int2 *b, float4 *fa, int2 *ib,
                               unsigned long long *wide, unsigned *lanes) {
  int i = threadIdx.x;
  float4 x = a[i];
  fa[i] = make_float4(x.w, x.z, x.y, x.x * 2.0f);
  int2 y = b[i];
  ib[i] = make_int2(y.x + y.y, y.x - y.y);
  /* 128-bit addition (hi:lo) + (hi:lo) with the carry chain. */
  unsigned long long alo = 0xffffffffffffff00ULL + i, ahi = i, blo = 0x200ULL, bhi = 7;
  unsigned long long rlo, rhi;
  asm("add.cc.u64 %0, %2, %4;\n\taddc.u64 %1, %3, %5;"
      : "=l"(rlo), "=l"(rhi) : "l"(alo), "l"(ahi), "l"(blo), "l"(bhi));
  wide[2 * i] = rlo;
  wide[2 * i + 1] = rhi;
  unsigned lane;
  asm("mov.u32 %0, %%laneid;" : "=r"(lane));
  lanes[i] = lane;
  if (i < 16) __syncwarp(0x0000ffffu); /* only the lanes that are here */
}

int main() {
  const int blocks = 3, threads = 64, n = blocks * threads;
  int in[n];
  for (int i = 0; i < n; i++) in[i] = (i * 37 + 11) % 101;
  int *d_in, *d_out, out[blocks * 8];
  CHECK(cudaMalloc(&d_in, sizeof in));
  CHECK(cudaMalloc(&d_out, sizeof out));
  CHECK(cudaMemcpy(d_in, in, sizeof in, cudaMemcpyHostToDevice));
  CHECK(cudaMemset(d_out, 0, sizeof out));
  groups_kernel<<<blocks, threads>>>(d_in, d_out);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost));
  for (int b = 0; b < blocks; b++) {
    int sum = 0, cnt = 0, all = 1, anyv = 0, tiles_big = 0;
    for (int t = 0; t < threads; t++) {
      int v = in[b * threads + t];
      sum += v;
      cnt += v % 3 == 0;
      all &= v >= 0;
      anyv |= v == 77;
    }
    for (int t = 0; t < threads / 16; t++) {
      int big = 0;
      for (int k = 0; k < 16; k++) big |= in[b * threads + t * 16 + k] > 90;
      tiles_big += big;
    }
    int want[7] = {sum, sum, cnt, all, anyv, tiles_big, 1};
    for (int k = 0; k < 7; k++)
      if (out[b * 8 + k] != want[k]) {
        printf("FAILED: block %d result %d = %d, expected %d\n", b, k, out[b * 8 + k], want[k]);
        return 1;
      }
  }

  const int m = 1000, rb = (m + 127) / 128;
  float h[m], *d_f, *d_partial, *d_result, result;
  float want_total = 0.0f;
  for (int i = 0; i < m; i++) {
    h[i] = (float) (i % 7) - 2.0f; /* small integers: every order sums exactly */
    want_total += h[i];
  }
  CHECK(cudaMalloc(&d_f, sizeof h));
  CHECK(cudaMalloc(&d_partial, rb * sizeof(float)));
  CHECK(cudaMalloc(&d_result, sizeof(float)));
  CHECK(cudaMemcpy(d_f, h, sizeof h, cudaMemcpyHostToDevice));
  for (int rep = 0; rep < 2; rep++) { /* twice: the ticket must have been reset */
    CHECK(cudaMemset(d_result, 0, sizeof(float)));
    fence_reduce<<<rb, 128>>>(d_f, m, d_partial, d_result);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(&result, d_result, sizeof result, cudaMemcpyDeviceToHost));
    if (result != want_total) {
      printf("FAILED: threadfence reduction run %d = %g, expected %g\n", rep, result, want_total);
      return 1;
    }
  }

  const int k = 32;
  float4 a[k], fa[k];
  int2 b[k], ib[k];
  unsigned long long wide[2 * k];
  unsigned lanes[k];
  for (int i = 0; i < k; i++) {
    a[i] = make_float4(i, i + 0.5f, -i, 2.0f * i);
    b[i] = make_int2(3 * i, i - 5);
  }
  float4 *d_a, *d_fa;
  int2 *d_b, *d_ib;
  unsigned long long *d_wide;
  unsigned *d_lanes;
  CHECK(cudaMalloc(&d_a, sizeof a)); CHECK(cudaMalloc(&d_fa, sizeof fa));
  CHECK(cudaMalloc(&d_b, sizeof b)); CHECK(cudaMalloc(&d_ib, sizeof ib));
  CHECK(cudaMalloc(&d_wide, sizeof wide)); CHECK(cudaMalloc(&d_lanes, sizeof lanes));
  CHECK(cudaMemcpy(d_a, a, sizeof a, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_b, b, sizeof b, cudaMemcpyHostToDevice));
  vector_and_asm<<<1, k>>>(d_a, d_b, d_fa, d_ib, d_wide, d_lanes);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(fa, d_fa, sizeof fa, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(ib, d_ib, sizeof ib, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(wide, d_wide, sizeof wide, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(lanes, d_lanes, sizeof lanes, cudaMemcpyDeviceToHost));
  for (int i = 0; i < k; i++) {
    if (fa[i].x != a[i].w || fa[i].y != a[i].z || fa[i].z != a[i].y || fa[i].w != a[i].x * 2.0f ||
        ib[i].x != b[i].x + b[i].y || ib[i].y != b[i].x - b[i].y) {
      printf("FAILED: vector load/store element %d\n", i);
      return 1;
    }
    unsigned long long lo = 0xffffffffffffff00ULL + i + 0x200ULL; /* wraps: carry 1 */
    unsigned long long hi = (unsigned long long) i + 7 + 1;
    if (wide[2 * i] != lo || wide[2 * i + 1] != hi) {
      printf("FAILED: 128-bit add %d = %llx:%llx, expected %llx:%llx\n", i, wide[2 * i + 1],
             wide[2 * i], hi, lo);
      return 1;
    }
    if (lanes[i] != (unsigned) i) {
      printf("FAILED: %%laneid of thread %d = %u\n", i, lanes[i]);
      return 1;
    }
  }
  CHECK(cudaFree(d_in)); CHECK(cudaFree(d_out)); CHECK(cudaFree(d_f)); CHECK(cudaFree(d_partial));
  CHECK(cudaFree(d_result)); CHECK(cudaFree(d_a)); CHECK(cudaFree(d_fa)); CHECK(cudaFree(d_b));
  CHECK(cudaFree(d_ib)); CHECK(cudaFree(d_wide)); CHECK(cudaFree(d_lanes));
  printf("PASSED\n");
  return 0;
}
