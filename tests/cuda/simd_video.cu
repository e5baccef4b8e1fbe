/* simd_video: PTX's SIMD video instructions on four byte lanes
 * (vadd4, vsub4, vavrg4, vabsdiff4, vmin4, vmax4), with signed and
 * unsigned operands, .sat, and the .add form that sums the four results
 * into the third operand (a sum of absolute differences, as block-matching
 * code uses).  The reference is computed on the host from the PTX ISA's
 * definition.
 */
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
  printf("FAILED: %s: %s\n", #call, cudaGetErrorString(e_)); exit(1); } } while (0)

__global__ void video(const unsigned *a, const unsigned *b, unsigned *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned x = a[i], y = b[i], c = i * 7u, r;
  unsigned *o = out + 8 * i;
  asm("vabsdiff4.u32.u32.u32.add %0, %1, %2, %3;" : "=r"(r) : "r"(x), "r"(y), "r"(c)); o[0] = r;
  asm("vadd4.u32.u32.u32.sat %0, %1, %2, %3;" : "=r"(r) : "r"(x), "r"(y), "r"(0u)); o[1] = r;
  asm("vsub4.s32.s32.s32.sat %0, %1, %2, %3;" : "=r"(r) : "r"(x), "r"(y), "r"(0u)); o[2] = r;
  asm("vavrg4.u32.u32.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(x), "r"(y), "r"(0u)); o[3] = r;
  asm("vmin4.s32.s32.s32 %0, %1, %2, %3;" : "=r"(r) : "r"(x), "r"(y), "r"(0u)); o[4] = r;
  asm("vmax4.u32.u32.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(x), "r"(y), "r"(0u)); o[5] = r;
  asm("vabsdiff4.u32.s32.s32.add %0, %1, %2, %3;" : "=r"(r) : "r"(x), "r"(y), "r"(c)); o[6] = r;
  asm("vsub4.u32.u32.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(x), "r"(y), "r"(0u)); o[7] = r;
}

static long long byte_of(unsigned v, int k, bool s) { return s ? (long long) (signed char) (v >> 8 * k) : (long long) (unsigned char) (v >> 8 * k); }

static unsigned ref(int op, unsigned x, unsigned y, unsigned c, bool s, bool sat, bool add) {
  long long sum = 0;
  unsigned bytes = 0;
  for (int k = 0; k < 4; k++) {
    long long p = byte_of(x, k, s), q = byte_of(y, k, s), r;
    switch (op) {
    case 0: r = p + q; break;
    case 1: r = p - q; break;
    case 2: r = (p + q + 1) >> 1; break;
    case 3: r = p > q ? p - q : q - p; break;
    case 4: r = p < q ? p : q; break;
    default: r = p > q ? p : q; break;
    }
    if (add) sum += r;
    else {
      if (sat) r = s ? (r < -128 ? -128 : r > 127 ? 127 : r) : (r < 0 ? 0 : r > 255 ? 255 : r);
      bytes |= (unsigned) (r & 0xff) << 8 * k;
    }
  }
  return add ? (unsigned) ((int) c + sum) : bytes;
}

int main() {
  const int n = 256;
  unsigned a[n], b[n], out[8 * n];
  unsigned seed = 12345;
  for (int i = 0; i < n; i++) {
    seed = seed * 1664525u + 1013904223u; a[i] = seed;
    seed = seed * 1664525u + 1013904223u; b[i] = seed;
  }
  unsigned *da, *db, *dout;
  CHECK(cudaMalloc(&da, sizeof a));
  CHECK(cudaMalloc(&db, sizeof b));
  CHECK(cudaMalloc(&dout, sizeof out));
  CHECK(cudaMemcpy(da, a, sizeof a, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(db, b, sizeof b, cudaMemcpyHostToDevice));
  video<<<(n + 63) / 64, 64>>>(da, db, dout, n);
  CHECK(cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int i = 0; i < n; i++) {
    unsigned x = a[i], y = b[i], c = i * 7u;
    unsigned want[8] = {
      ref(3, x, y, c, false, false, true), ref(0, x, y, 0, false, true, false), ref(1, x, y, 0, true, true, false),
      ref(2, x, y, 0, false, false, false), ref(4, x, y, 0, true, false, false), ref(5, x, y, 0, false, false, false),
      ref(3, x, y, c, true, false, true), ref(1, x, y, 0, false, false, false),
    };
    for (int k = 0; k < 8; k++)
      if (out[8 * i + k] != want[k] && bad++ < 8)
        printf("FAILED: case %d, element %d: 0x%08x, expected 0x%08x\n", k, i, out[8 * i + k], want[k]);
  }
  if (bad) return 1;
  printf("PASSED\n");
  return 0;
}
