/* device_malloc: in-kernel malloc/free, as programs building per-thread
 * scratch buffers or linked structures do.
 *
 *  1. every thread mallocs a buffer of its own size, fills it, sums it, frees it;
 *  2. one kernel mallocs per-block lists that a second kernel walks and frees
 *     (heap memory outlives the kernel that allocated it);
 *  3. memset/memcpy on device-heap memory.
 */
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
  printf("FAILED: %s: %s\n", #call, cudaGetErrorString(e_)); exit(1); } } while (0)

struct Node {
  int value;
  Node *next;
};

__global__ void scratch_kernel(long long *out, int *failures) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int n = 1 + t % 37;
  int *buf = (int *) malloc(n * sizeof(int));
  if (!buf) {
    atomicAdd(failures, 1);
    out[t] = -1;
    return;
  }
  for (int i = 0; i < n; i++) buf[i] = t * 3 + i;
  long long s = 0;
  for (int i = n - 1; i >= 0; i--) s += buf[i];
  out[t] = s;
  free(buf);
}

__global__ void build_lists(Node **heads, int len) {
  if (threadIdx.x != 0) return;
  Node *head = NULL;
  for (int i = 0; i < len + (int) blockIdx.x; i++) {
    Node *n = (Node *) malloc(sizeof(Node));
    if (!n) break;
    n->value = (int) blockIdx.x * 1000 + i;
    n->next = head;
    head = n;
  }
  heads[blockIdx.x] = head;
}

__global__ void walk_and_free(Node **heads, long long *sums, int *counts) {
  if (threadIdx.x != 0) return;
  Node *n = heads[blockIdx.x];
  long long s = 0;
  int c = 0;
  while (n) {
    Node *next = n->next;
    s += n->value;
    c++;
    free(n);
    n = next;
  }
  sums[blockIdx.x] = s;
  counts[blockIdx.x] = c;
}

__global__ void heap_memcpy(char *out) {
  char *a = (char *) malloc(64), *b = (char *) malloc(64);
  if (!a || !b) { out[0] = 0; return; }
  memset(a, 'A' + threadIdx.x, 63);
  a[63] = 0;
  memcpy(b, a, 64);
  for (int i = 0; i < 64; i++) out[threadIdx.x * 64 + i] = b[i];
  free(a);
  free(b);
}

int main() {
  const int blocks = 8, threads = 64, total = blocks * threads;
  long long *d_out;
  int *d_fail;
  CHECK(cudaMalloc(&d_out, total * sizeof(long long)));
  CHECK(cudaMalloc(&d_fail, sizeof(int)));
  CHECK(cudaMemset(d_fail, 0, sizeof(int)));
  scratch_kernel<<<blocks, threads>>>(d_out, d_fail);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  long long out[total];
  int fail;
  CHECK(cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&fail, d_fail, sizeof fail, cudaMemcpyDeviceToHost));
  if (fail) { printf("FAILED: %d device mallocs returned NULL\n", fail); return 1; }
  for (int t = 0; t < total; t++) {
    int n = 1 + t % 37;
    long long want = (long long) n * t * 3 + (long long) n * (n - 1) / 2;
    if (out[t] != want) {
      printf("FAILED: thread %d sum %lld, expected %lld\n", t, out[t], want);
      return 1;
    }
  }

  const int lists = 6, len = 20;
  Node **d_heads;
  long long *d_sums;
  int *d_counts;
  CHECK(cudaMalloc(&d_heads, lists * sizeof(Node *)));
  CHECK(cudaMalloc(&d_sums, lists * sizeof(long long)));
  CHECK(cudaMalloc(&d_counts, lists * sizeof(int)));
  build_lists<<<lists, 32>>>(d_heads, len);
  CHECK(cudaGetLastError());
  walk_and_free<<<lists, 32>>>(d_heads, d_sums, d_counts);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  long long sums[lists];
  int counts[lists];
  CHECK(cudaMemcpy(sums, d_sums, sizeof sums, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(counts, d_counts, sizeof counts, cudaMemcpyDeviceToHost));
  for (int b = 0; b < lists; b++) {
    int c = len + b;
    long long want = (long long) c * b * 1000 + (long long) c * (c - 1) / 2;
    if (counts[b] != c || sums[b] != want) {
      printf("FAILED: list %d has %d nodes summing to %lld, expected %d and %lld\n", b,
             counts[b], sums[b], c, want);
      return 1;
    }
  }

  char *d_chars;
  char chars[4 * 64];
  CHECK(cudaMalloc(&d_chars, sizeof chars));
  heap_memcpy<<<1, 4>>>(d_chars);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(chars, d_chars, sizeof chars, cudaMemcpyDeviceToHost));
  for (int t = 0; t < 4; t++)
    for (int i = 0; i < 64; i++) {
      char want = i == 63 ? 0 : (char) ('A' + t);
      if (chars[t * 64 + i] != want) {
        printf("FAILED: heap memcpy thread %d byte %d = %d, expected %d\n", t, i,
               chars[t * 64 + i], want);
        return 1;
      }
    }
  CHECK(cudaFree(d_out)); CHECK(cudaFree(d_fail)); CHECK(cudaFree(d_heads));
  CHECK(cudaFree(d_sums)); CHECK(cudaFree(d_counts)); CHECK(cudaFree(d_chars));
  printf("PASSED\n");
  return 0;
}
