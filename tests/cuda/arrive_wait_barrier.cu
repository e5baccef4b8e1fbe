/* arrive_wait_barrier: arrive/wait barriers in shared memory (the PTX
 * mbarrier object behind cuda::barrier and cooperative code that splits a
 * barrier into arrive and wait).
 *
 *  - cuda::barrier<thread_scope_block> initialised by one thread, then
 *    several phases of arrive_and_wait between a producer step and a
 *    consumer step that reads what other warps wrote;
 *  - a split phase: arrive() returns a token, independent work runs, then
 *    wait(token);
 *  - arrive_and_drop: half the threads leave after the first phase, the
 *    others go on with a barrier that expects only them;
 *  - mbarrier.test_wait.parity in inline PTX on the phase parity;
 *  - mbarrier.pending_count of an arrival's state token.
 */
#include <cstdio>
#include <cstdlib>
#include <cuda/barrier>
#include <cuda_runtime.h>

/* a __shared__ cuda::barrier has a constructor; init() sets it up */
#pragma nv_diag_suppress static_var_with_dynamic_init

#define CHECK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
  printf("FAILED: %s: %s\n", #call, cudaGetErrorString(e_)); exit(1); } } while (0)

using block_barrier = cuda::barrier<cuda::thread_scope_block>;

constexpr int kThreads = 256, kPhases = 4;

/* out[p * kThreads + t] = the value thread (t + 37) % kThreads wrote in
 * phase p: a neighbour in another warp. */
__global__ void phases(int *out) {
  __shared__ block_barrier bar;
  __shared__ int buf[kThreads];
  int t = threadIdx.x;
  if (t == 0) init(&bar, blockDim.x);
  __syncthreads();
  for (int p = 0; p < kPhases; p++) {
    buf[t] = p * 1000 + t;
    bar.arrive_and_wait();
    out[p * kThreads + t] = buf[(t + 37) % kThreads];
    bar.arrive_and_wait();
  }
}

/* split phase: each thread arrives, computes, then waits for the others */
__global__ void split(int *out) {
  __shared__ block_barrier bar;
  __shared__ int buf[kThreads];
  int t = threadIdx.x;
  if (t == 0) init(&bar, blockDim.x);
  __syncthreads();
  buf[t] = t * 3;
  block_barrier::arrival_token token = bar.arrive();
  int local = 0;
  for (int i = 0; i <= t % 7; i++) local += i;
  bar.wait(std::move(token));
  out[t] = buf[kThreads - 1 - t] + local;
}

/* arrive_and_drop: odd threads leave after phase 0 */
__global__ void drop(int *out) {
  __shared__ block_barrier bar;
  __shared__ int buf[kThreads];
  int t = threadIdx.x;
  if (t == 0) init(&bar, blockDim.x);
  __syncthreads();
  buf[t] = t;
  if (t & 1) {
    bar.arrive_and_drop();
    return;
  }
  bar.arrive_and_wait();
  int v = buf[(t + 64) % kThreads];
  bar.arrive_and_wait();     /* only the even threads are expected now */
  buf[t] = v + 1;
  bar.arrive_and_wait();
  out[t / 2] = buf[(t + 2) % kThreads];
}

/* raw PTX: init, arrive returning a state, pending_count of it, and a
 * test_wait.parity poll on phase 0 */
__global__ void raw(unsigned *out) {
  __shared__ unsigned long long mbar;
  __shared__ unsigned flag[kThreads];
  unsigned t = threadIdx.x;
  unsigned addr = (unsigned) __cvta_generic_to_shared(&mbar);
  if (t == 0) asm volatile("mbarrier.init.shared.b64 [%0], %1;" :: "r"(addr), "r"(blockDim.x));
  __syncthreads();
  flag[t] = t + 1;
  unsigned long long state;
  asm volatile("mbarrier.arrive.shared.b64 %0, [%1];" : "=l"(state) : "r"(addr) : "memory");
  unsigned pending;
  asm volatile("mbarrier.pending_count.b64 %0, %1;" : "=r"(pending) : "l"(state));
  unsigned done = 0;
  while (!done)
    asm volatile("{ .reg .pred p; mbarrier.test_wait.parity.shared.b64 p, [%1], 0; selp.u32 %0, 1, 0, p; }"
                 : "=r"(done) : "r"(addr) : "memory");
  out[t] = flag[(t + 100) % kThreads];
  out[kThreads + t] = pending < blockDim.x ? 1 : 0;
}

int main() {
  int *d, h[kPhases * kThreads];
  unsigned *u, hu[2 * kThreads];
  CHECK(cudaMalloc(&d, sizeof h));
  CHECK(cudaMalloc(&u, sizeof hu));
  int bad = 0;

  phases<<<3, kThreads>>>(d);
  CHECK(cudaMemcpy(h, d, kPhases * kThreads * sizeof(int), cudaMemcpyDeviceToHost));
  for (int p = 0; p < kPhases; p++)
    for (int t = 0; t < kThreads; t++)
      if (h[p * kThreads + t] != p * 1000 + (t + 37) % kThreads) {
        printf("FAILED: phases: phase %d thread %d read %d\n", p, t, h[p * kThreads + t]);
        bad = 1; p = kPhases; break;
      }

  split<<<2, kThreads>>>(d);
  CHECK(cudaMemcpy(h, d, kThreads * sizeof(int), cudaMemcpyDeviceToHost));
  for (int t = 0; t < kThreads; t++) {
    int m = t % 7, want = (kThreads - 1 - t) * 3 + m * (m + 1) / 2;
    if (h[t] != want) { printf("FAILED: split: thread %d got %d, expected %d\n", t, h[t], want); bad = 1; break; }
  }

  drop<<<1, kThreads>>>(d);
  CHECK(cudaMemcpy(h, d, kThreads / 2 * sizeof(int), cudaMemcpyDeviceToHost));
  for (int t = 0; t < kThreads; t += 2) {
    int nb = (t + 2) % kThreads, want = (nb + 64) % kThreads + 1;
    if (h[t / 2] != want) { printf("FAILED: drop: thread %d got %d, expected %d\n", t, h[t / 2], want); bad = 1; break; }
  }

  raw<<<2, kThreads>>>(u);
  CHECK(cudaMemcpy(hu, u, sizeof hu, cudaMemcpyDeviceToHost));
  for (int t = 0; t < kThreads; t++)
    if (hu[t] != (unsigned) ((t + 100) % kThreads + 1) || hu[kThreads + t] != 1) {
      printf("FAILED: raw: thread %d got %u / %u\n", t, hu[t], hu[kThreads + t]);
      bad = 1; break;
    }

  CHECK(cudaDeviceSynchronize());
  CHECK(cudaFree(d));
  CHECK(cudaFree(u));
  if (bad) { printf("FAILED\n"); return 1; }
  printf("PASSED\n");
  return 0;
}
