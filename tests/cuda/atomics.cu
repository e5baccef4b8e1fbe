/* atomics: every atomic function on global and on shared memory.
 *
 * Contended updates whose final value does not depend on the order
 * (add, sub, min, max, and, or, xor, inc with a wrap limit larger than the
 * number of updates, CAS-built float max) and order-independent checks of
 * the returned old values (exch / CAS / inc-as-ticket hand out each value
 * exactly once).  Float and double atomicAdd sum exactly representable
 * values, so the totals are exact.
 */
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
  printf("FAILED: %s: %s\n", #call, cudaGetErrorString(e_)); exit(1); } } while (0)

struct Results {
  int add_i, sub_i, min_i, max_i;
  unsigned add_u, min_u, max_u, inc_u, dec_u, and_u, or_u, xor_u;
  unsigned long long add_ull, and_ull, or_ull, xor_ull, min_ull, max_ull, cas_ull;
  long long min_ll, max_ll;
  float add_f, cas_max_f;
  double add_d;
  unsigned inc_wrap, dec_wrap;
  int exch_last;
};

__device__ float atomic_max_float(float *addr, float val) {
  int *ai = (int *) addr;
  int old = *ai, assumed;
  do {
    assumed = old;
    if (__int_as_float(assumed) >= val) break;
    old = atomicCAS(ai, assumed, __float_as_int(val));
  } while (old != assumed);
  return __int_as_float(old);
}

/* `r` is either global or shared memory: the same code runs on both. */
__device__ void hammer(Results *r, int t, int *tickets, int *exch_seen, int n) {
  atomicAdd(&r->add_i, t);
  atomicSub(&r->sub_i, t);
  atomicMin(&r->min_i, 1000 - t);
  atomicMax(&r->max_i, t - 1000);
  atomicAdd(&r->add_u, 2u);
  atomicMin(&r->min_u, (unsigned) (t + 5));
  atomicMax(&r->max_u, (unsigned) t * 3u);
  unsigned ticket = atomicInc(&r->inc_u, 0xffffffffu); /* plain counter: old values 0..n-1 */
  atomicAdd(&tickets[ticket % n], 1);
  atomicDec(&r->dec_u, 0xffffffffu);
  atomicAnd(&r->and_u, ~(1u << (t % 32)) | 0x80000000u);
  atomicOr(&r->or_u, 1u << (t % 31));
  atomicXor(&r->xor_u, (unsigned) t);
  atomicAdd(&r->add_ull, 1ULL << 33);
  atomicAnd(&r->and_ull, ~(1ULL << (t % 64)));
  atomicOr(&r->or_ull, 1ULL << (63 - t % 64));
  atomicXor(&r->xor_ull, (unsigned long long) t << 20);
  atomicMin(&r->min_ull, 5000ULL + (unsigned long long) t);
  atomicMax(&r->max_ull, (unsigned long long) t << 40);
  atomicMin(&r->min_ll, -(long long) t * 100000000000LL);
  atomicMax(&r->max_ll, (long long) t - 7);
  atomicAdd(&r->add_f, 0.5f);
  atomic_max_float(&r->cas_max_f, (float) t * 0.25f);
  atomicAdd(&r->add_d, 0.25);
  atomicInc(&r->inc_wrap, 9u);  /* counts 0..9 then wraps to 0 */
  atomicDec(&r->dec_wrap, 9u);  /* 0 or > 9 wraps to 9 */
  int old = atomicExch(&r->exch_last, t);
  atomicAdd(&exch_seen[old + 1], 1); /* old is -1 or some other thread's t */
  unsigned long long prev, cur = r->cas_ull;
  do { /* CAS loop increment */
    prev = cur;
    cur = atomicCAS(&r->cas_ull, prev, prev + 3);
  } while (cur != prev);
}

__device__ void init(Results *r) {
  r->add_i = 0; r->sub_i = 0; r->min_i = 1 << 30; r->max_i = -(1 << 30);
  r->add_u = 0; r->min_u = ~0u; r->max_u = 0; r->inc_u = 0; r->dec_u = 1u << 20;
  r->and_u = ~0u; r->or_u = 0; r->xor_u = 0;
  r->add_ull = 0; r->and_ull = ~0ULL; r->or_ull = 0; r->xor_ull = 0;
  r->min_ull = ~0ULL; r->max_ull = 0; r->cas_ull = 0;
  r->min_ll = 0; r->max_ll = -(1LL << 62);
  r->add_f = 0; r->cas_max_f = -1.0f; r->add_d = 0; r->inc_wrap = 0; r->dec_wrap = 0;
  r->exch_last = -1;
}

__global__ void global_atomics(Results *r, int *tickets, int *exch_seen, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) hammer(r, t, tickets, exch_seen, n);
}

__global__ void shared_atomics(Results *out, int *tickets, int *exch_seen) {
  __shared__ Results r;
  if (threadIdx.x == 0) init(&r);
  __syncthreads();
  hammer(&r, threadIdx.x, tickets, exch_seen, blockDim.x);
  __syncthreads();
  if (threadIdx.x == 0) *out = r;
}

__global__ void init_kernel(Results *r) { init(r); }

static int verify(const char *where, const Results *r, const int *tickets,
                  const int *exch_seen, int n) {
  Results w;
  w.add_i = 0; w.sub_i = 0; w.min_i = 1 << 30; w.max_i = -(1 << 30);
  w.add_u = 0; w.min_u = ~0u; w.max_u = 0; w.inc_u = 0; w.dec_u = 1u << 20;
  w.and_u = ~0u; w.or_u = 0; w.xor_u = 0; w.add_ull = 0; w.and_ull = ~0ULL; w.or_ull = 0;
  w.xor_ull = 0; w.min_ull = ~0ULL; w.max_ull = 0; w.cas_ull = 0; w.min_ll = 0;
  w.max_ll = -(1LL << 62); w.add_f = 0; w.cas_max_f = -1.0f; w.add_d = 0;
  w.inc_wrap = 0; w.dec_wrap = 0;
  for (int t = 0; t < n; t++) {
    w.add_i += t; w.sub_i -= t;
    if (1000 - t < w.min_i) w.min_i = 1000 - t;
    if (t - 1000 > w.max_i) w.max_i = t - 1000;
    w.add_u += 2u;
    if ((unsigned) t + 5 < w.min_u) w.min_u = t + 5;
    if ((unsigned) t * 3u > w.max_u) w.max_u = t * 3u;
    w.inc_u++; w.dec_u--;
    w.and_u &= ~(1u << (t % 32)) | 0x80000000u;
    w.or_u |= 1u << (t % 31);
    w.xor_u ^= (unsigned) t;
    w.add_ull += 1ULL << 33;
    w.and_ull &= ~(1ULL << (t % 64));
    w.or_ull |= 1ULL << (63 - t % 64);
    w.xor_ull ^= (unsigned long long) t << 20;
    if (5000ULL + t < w.min_ull) w.min_ull = 5000ULL + t;
    if (((unsigned long long) t << 40) > w.max_ull) w.max_ull = (unsigned long long) t << 40;
    if (-(long long) t * 100000000000LL < w.min_ll) w.min_ll = -(long long) t * 100000000000LL;
    if ((long long) t - 7 > w.max_ll) w.max_ll = t - 7;
    w.add_f += 0.5f;
    if ((float) t * 0.25f > w.cas_max_f) w.cas_max_f = (float) t * 0.25f;
    w.add_d += 0.25;
    w.inc_wrap = w.inc_wrap >= 9u ? 0u : w.inc_wrap + 1;
    w.dec_wrap = (w.dec_wrap == 0 || w.dec_wrap > 9u) ? 9u : w.dec_wrap - 1;
    w.cas_ull += 3;
  }
#define CMP(field, fmt)                                                              \
  if (r->field != w.field) {                                                         \
    printf("FAILED: %s " #field " = " fmt ", expected " fmt "\n", where, r->field, w.field); \
    return 1;                                                                        \
  }
  CMP(add_i, "%d") CMP(sub_i, "%d") CMP(min_i, "%d") CMP(max_i, "%d")
  CMP(add_u, "%u") CMP(min_u, "%u") CMP(max_u, "%u") CMP(inc_u, "%u") CMP(dec_u, "%u")
  CMP(and_u, "%x") CMP(or_u, "%x") CMP(xor_u, "%x")
  CMP(add_ull, "%llx") CMP(and_ull, "%llx") CMP(or_ull, "%llx") CMP(xor_ull, "%llx")
  CMP(min_ull, "%llu") CMP(max_ull, "%llx") CMP(cas_ull, "%llu")
  CMP(min_ll, "%lld") CMP(max_ll, "%lld")
  CMP(add_f, "%g") CMP(cas_max_f, "%g") CMP(add_d, "%g")
  CMP(inc_wrap, "%u") CMP(dec_wrap, "%u")
#undef CMP
  for (int i = 0; i < n; i++)
    if (tickets[i] != 1) {
      printf("FAILED: %s atomicInc handed out ticket %d %d times\n", where, i, tickets[i]);
      return 1;
    }
  /* atomicExch: every value but the final one is returned exactly once. */
  if (r->exch_last < 0 || r->exch_last >= n || exch_seen[r->exch_last + 1] != 0) {
    printf("FAILED: %s final atomicExch value %d was also returned\n", where, r->exch_last);
    return 1;
  }
  for (int v = -1; v < n; v++)
    if (v != r->exch_last && exch_seen[v + 1] != 1) {
      printf("FAILED: %s atomicExch returned %d %d times\n", where, v, exch_seen[v + 1]);
      return 1;
    }
  return 0;
}

int main() {
  const int n = 300; /* global: several blocks; shared: one block of 300 */
  Results *d_r, r;
  int *d_tickets, *d_seen, tickets[n], seen[n + 1];
  CHECK(cudaMalloc(&d_r, sizeof(Results)));
  CHECK(cudaMalloc(&d_tickets, sizeof tickets));
  CHECK(cudaMalloc(&d_seen, sizeof seen));

  init_kernel<<<1, 1>>>(d_r);
  CHECK(cudaMemset(d_tickets, 0, sizeof tickets));
  CHECK(cudaMemset(d_seen, 0, sizeof seen));
  global_atomics<<<(n + 63) / 64, 64>>>(d_r, d_tickets, d_seen, n);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(&r, d_r, sizeof r, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(tickets, d_tickets, sizeof tickets, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(seen, d_seen, sizeof seen, cudaMemcpyDeviceToHost));
  if (verify("global", &r, tickets, seen, n)) return 1;

  CHECK(cudaMemset(d_tickets, 0, sizeof tickets));
  CHECK(cudaMemset(d_seen, 0, sizeof seen));
  shared_atomics<<<1, n>>>(d_r, d_tickets, d_seen);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(&r, d_r, sizeof r, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(tickets, d_tickets, sizeof tickets, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(seen, d_seen, sizeof seen, cudaMemcpyDeviceToHost));
  if (verify("shared", &r, tickets, seen, n)) return 1;

  CHECK(cudaFree(d_r)); CHECK(cudaFree(d_tickets)); CHECK(cudaFree(d_seen));
  printf("PASSED\n");
  return 0;
}
