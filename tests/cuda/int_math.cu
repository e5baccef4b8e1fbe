/* int_math: integer arithmetic and bit intrinsics against host references.
 *
 * 32- and 64-bit signed/unsigned division and remainder (including negative
 * operands), mul.hi (__mulhi, __umulhi, __mul64hi, __umul64hi), __popc(ll),
 * __clz(ll), __ffs(ll), __brev(ll), __byte_perm, funnel shifts (clamped and
 * wrapping), __sad, __usad, __mul24, min/max/abs, shifts by register
 * amounts and float<->integer conversions.  Every expression is free of
 * undefined behaviour so host and device must agree bit for bit.
 */
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <cuda_runtime.h>

#define CHECK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
  printf("FAILED: %s: %s\n", #call, cudaGetErrorString(e_)); exit(1); } } while (0)

#define NRES 30

__global__ void int_ops(const long long *a64, const long long *b64, unsigned long long *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  long long a = a64[i], b = b64[i];
  int a32 = (int) a, b32 = (int) b;
  unsigned ua = (unsigned) a, ub = (unsigned) b;
  unsigned long long ua64 = (unsigned long long) a, ub64 = (unsigned long long) b;
  unsigned long long *o = out + (size_t) i * NRES;
  o[0] = (unsigned long long) (a / b);
  o[1] = (unsigned long long) (a % b);
  o[2] = ua64 / ub64;
  o[3] = ua64 % ub64;
  o[4] = (unsigned) (a32 / b32);
  o[5] = (unsigned) (a32 % b32);
  o[6] = ua / ub;
  o[7] = ua % ub;
  o[8] = (unsigned) __mulhi(a32, b32);
  o[9] = __umulhi(ua, ub);
  o[10] = (unsigned long long) __mul64hi(a, b);
  o[11] = __umul64hi(ua64, ub64);
  o[12] = __popc(ua) | ((unsigned long long) __popcll(ua64) << 32);
  o[13] = __clz(a32) | ((unsigned long long) __clzll(a) << 32);
  o[14] = __ffs(a32) | ((unsigned long long) __ffsll(a) << 32);
  o[15] = __brev(ua);
  o[16] = __brevll(ua64);
  o[17] = __byte_perm(ua, ub, (ub >> 7) & 0xffff);
  o[18] = __funnelshift_l(ua, ub, ub & 63);   /* shf.wrap: shift mod 32 */
  o[19] = __funnelshift_r(ua, ub, ub & 63);
  o[20] = __funnelshift_lc(ua, ub, ub & 63);  /* shf.clamp: min(shift, 32) */
  o[21] = __funnelshift_rc(ua, ub, ub & 63);
  o[22] = __sad(a32, b32, 7u) | ((unsigned long long) __usad(ua, ub, 3u) << 32);
  o[23] = (unsigned) __mul24(a32 & 0x7fffff, b32 & 0x7fffff); /* 24-bit operands, sign bit clear */
  o[24] = ((unsigned long long) max(a, b) - (unsigned long long) (long long) min(a32, b32)) ^
          (unsigned long long) llabs(a) ^ (unsigned) abs(b32 | 1);
  o[25] = (ua << (ub & 31)) | ((unsigned long long) (a32 >> (ub & 31)) << 32);
  o[26] = (ua64 >> (ub & 63)) ^ (unsigned long long) (a >> (ub & 63));
  o[27] = ua64 * ub64 + (unsigned long long) a32 * (unsigned long long) ub;
  o[28] = (unsigned long long) (long long) (float) (a >> 2) ^ (unsigned) (int) ((float) b32 * 0.37f);
  o[29] = (unsigned long long) (a & 0xff) * 0x0101010101010101ULL - (ua64 ^ (ub64 << 3));
}

/* Host references of the CUDA intrinsics. */
static unsigned h_clz(unsigned x) { return x ? __builtin_clz(x) : 32; }
static unsigned h_clzll(unsigned long long x) { return x ? __builtin_clzll(x) : 64; }
static unsigned h_brev(unsigned x) { unsigned r = 0; for (int i = 0; i < 32; i++) r |= ((x >> i) & 1u) << (31 - i); return r; }
static unsigned long long h_brevll(unsigned long long x) { unsigned long long r = 0; for (int i = 0; i < 64; i++) r |= ((x >> i) & 1ull) << (63 - i); return r; }
static unsigned h_byte_perm(unsigned x, unsigned y, unsigned s) {
  unsigned long long v = ((unsigned long long) y << 32) | x;
  unsigned r = 0;
  for (int k = 0; k < 4; k++) r |= (unsigned) ((v >> (8 * ((s >> (4 * k)) & 7))) & 0xff) << (8 * k);
  return r;
}
static unsigned h_fsl(unsigned lo, unsigned hi, unsigned s) { unsigned long long v = ((unsigned long long) hi << 32) | lo; return (unsigned) ((v << s) >> 32); }
static unsigned h_fsr(unsigned lo, unsigned hi, unsigned s) { unsigned long long v = ((unsigned long long) hi << 32) | lo; return (unsigned) (v >> s); }

int main() {
  const int n = 512;
  long long a[n], b[n];
  unsigned long long seed = 2024;
  for (int i = 0; i < n; i++) {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    unsigned long long r1 = seed;
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    unsigned long long r2 = seed;
    /* Mix magnitudes: full 64-bit, 32-bit, small, negative. */
    switch (i % 4) {
    case 0: a[i] = (long long) r1; b[i] = (long long) (r2 >> (r1 & 31)); break;
    case 1: a[i] = (long long) (int) (r1 >> 32); b[i] = (long long) (int) (r2 >> 40) | 1; break;
    case 2: a[i] = -(long long) (r1 >> 50); b[i] = (long long) (r2 >> 58) + 1; break;
    default: a[i] = (long long) (r1 >> 3); b[i] = -(long long) (r2 >> 35) - 1; break;
    }
    if (b[i] == 0) b[i] = 3;
    if ((int) b[i] == 0) b[i] |= 5; /* 32-bit divisor must not be 0 either */
    if ((int) a[i] == INT32_MIN && (int) b[i] == -1) b[i] += 2;
  }
  a[5] = INT64_MIN + 1; b[5] = -1;
  long long *d_a, *d_b;
  unsigned long long *d_out;
  unsigned long long *out = (unsigned long long *) malloc(n * NRES * sizeof(unsigned long long));
  CHECK(cudaMalloc(&d_a, sizeof a));
  CHECK(cudaMalloc(&d_b, sizeof b));
  CHECK(cudaMalloc(&d_out, n * NRES * sizeof(unsigned long long)));
  CHECK(cudaMemcpy(d_a, a, sizeof a, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_b, b, sizeof b, cudaMemcpyHostToDevice));
  int_ops<<<n / 128, 128>>>(d_a, d_b, d_out, n);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(out, d_out, n * NRES * sizeof(unsigned long long), cudaMemcpyDeviceToHost));

  int bad = 0;
  for (int i = 0; i < n; i++) {
    long long A = a[i], B = b[i];
    int a32 = (int) A, b32 = (int) B;
    unsigned ua = (unsigned) A, ub = (unsigned) B;
    unsigned long long ua64 = A, ub64 = B;
    unsigned long long w[NRES];
    w[0] = (unsigned long long) (A / B);
    w[1] = (unsigned long long) (A % B);
    w[2] = ua64 / ub64;
    w[3] = ua64 % ub64;
    w[4] = (unsigned) (a32 / b32);
    w[5] = (unsigned) (a32 % b32);
    w[6] = ua / ub;
    w[7] = ua % ub;
    w[8] = (unsigned) (((long long) a32 * b32) >> 32);
    w[9] = (unsigned) (((unsigned long long) ua * ub) >> 32);
    w[10] = (unsigned long long) (long long) (((__int128) A * B) >> 64);
    w[11] = (unsigned long long) (((unsigned __int128) ua64 * ub64) >> 64);
    w[12] = __builtin_popcount(ua) | ((unsigned long long) __builtin_popcountll(ua64) << 32);
    w[13] = h_clz(ua) | ((unsigned long long) h_clzll(ua64) << 32);
    w[14] = __builtin_ffs(a32) | ((unsigned long long) __builtin_ffsll(A) << 32);
    w[15] = h_brev(ua);
    w[16] = h_brevll(ua64);
    w[17] = h_byte_perm(ua, ub, (ub >> 7) & 0xffff);
    unsigned s = ub & 63;
    w[18] = h_fsl(ua, ub, s & 31);
    w[19] = h_fsr(ua, ub, s & 31);
    w[20] = h_fsl(ua, ub, s > 32 ? 32 : s);
    w[21] = h_fsr(ua, ub, s > 32 ? 32 : s);
    w[22] = (unsigned) (llabs((long long) a32 - b32) + 7) | ((unsigned long long) ((ua > ub ? ua - ub : ub - ua) + 3u) << 32);
    {
      int x = a32 & 0x7fffff, y = b32 & 0x7fffff;
      w[23] = (unsigned) (int) ((long long) x * y);
    }
    w[24] = ((unsigned long long) (A > B ? A : B) - (unsigned long long) (long long) (a32 < b32 ? a32 : b32)) ^
            (unsigned long long) llabs(A) ^ (unsigned) abs(b32 | 1);
    w[25] = (ua << (ub & 31)) | ((unsigned long long) (a32 >> (ub & 31)) << 32);
    w[26] = (ua64 >> (ub & 63)) ^ (unsigned long long) (A >> (ub & 63));
    w[27] = (unsigned long long) A * (unsigned long long) B + (unsigned long long) a32 * (unsigned long long) ub;
    w[28] = (unsigned long long) (long long) (float) (A >> 2) ^ (unsigned) (int) ((float) b32 * 0.37f);
    w[29] = (unsigned long long) (A & 0xff) * 0x0101010101010101ULL - (ua64 ^ (ub64 << 3));
    for (int k = 0; k < NRES; k++)
      if (out[i * NRES + k] != w[k]) {
        if (bad < 10)
          printf("FAILED: input %d (a=%lld b=%lld) result %d = 0x%llx, expected 0x%llx\n", i, A,
                 B, k, out[i * NRES + k], w[k]);
        bad++;
      }
  }
  CHECK(cudaFree(d_a)); CHECK(cudaFree(d_b)); CHECK(cudaFree(d_out));
  free(out);
  if (bad) return 1;
  printf("PASSED\n");
  return 0;
}
