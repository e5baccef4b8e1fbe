/* sssp: single-source shortest paths, data-driven Bellman-Ford (lonestar
 * sssp style).
 *
 * A directed graph with positive integer weights and irregular degrees (as
 * in bfs).  Each round runs two kernels over all nodes:
 *   sssp_relax  - nodes in the work set relax their out-edges with atomicMin
 *                 on the distance and put improved nodes in the next set;
 *   sssp_swap   - the next set becomes the work set and raises a flag read
 *                 back by the host.
 * With weights a node can improve several times, so there are more rounds
 * than BFS levels and the work per round is irregular: an irregular kernel
 * with tens of launches (seed 000 Table VI: 49).  The final distances do not
 * depend on the order of the atomics; the host checks them with Dijkstra.
 *
 * Usage: sssp [nodes=4000] [window=64] [maxWeight=100]
 * Work: about 2 * rounds * nodes * 12 thread instructions plus relaxations.
 */
#include "example-util.h"

#define INF 0x3fffffff

__global__ void sssp_relax(const int *row_start, const int *cols, const int *weights, int n,
                           int *work, int *next, int *dist) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v < n && work[v]) {
    work[v] = 0;
    int dv = dist[v]; /* may be stale-high: a later improvement re-queues v */
    for (int e = row_start[v]; e < row_start[v + 1]; e++) {
      int u = cols[e], nd = dv + weights[e];
      if (nd < dist[u] && atomicMin(&dist[u], nd) > nd)
        next[u] = 1;
    }
  }
}

__global__ void sssp_swap(int n, int *work, int *next, int *again) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v < n && next[v]) {
    next[v] = 0;
    work[v] = 1;
    *again = 1;
  }
}

int main(int argc, char **argv) {
  int n = (int) arg_long(argc, argv, 1, 4000, 2, 1 << 22);
  int window = (int) arg_long(argc, argv, 2, 64, 1, 1 << 22);
  int max_w = (int) arg_long(argc, argv, 3, 100, 1, 10000);

  int *row_start = (int *) host_alloc((size_t) (n + 1) * sizeof(int));
  int *degree = (int *) host_alloc((size_t) n * sizeof(int));
  uint64_t seed = 41;
  long edges = 0;
  for (int v = 0; v < n; v++) {
    degree[v] = (lcg_below(&seed, 50) == 0) ? 24 + (int) lcg_below(&seed, 41)
                                            : 1 + (int) lcg_below(&seed, 5);
    edges += degree[v];
  }
  int *cols = (int *) host_alloc((size_t) edges * sizeof(int));
  int *wts = (int *) host_alloc((size_t) edges * sizeof(int));
  row_start[0] = 0;
  for (int v = 0; v < n; v++) {
    row_start[v + 1] = row_start[v] + degree[v];
    for (int e = row_start[v]; e < row_start[v + 1]; e++) {
      long u = v + (long) lcg_below(&seed, 2 * window + 1) - window / 2;
      if (u < 0) u += n;
      if (u >= n) u -= n;
      cols[e] = (int) u;
      wts[e] = 1 + (int) lcg_below(&seed, max_w);
    }
  }

  /* Host Dijkstra with a binary heap of (dist, node). */
  int *want = (int *) host_alloc((size_t) n * sizeof(int));
  long long *heap = (long long *) host_alloc((size_t) (edges + 1) * sizeof(long long));
  int hn = 0;
  for (int v = 0; v < n; v++) want[v] = INF;
  want[0] = 0;
  heap[hn++] = 0;
  while (hn > 0) {
    long long top = heap[0];
    heap[0] = heap[--hn];
    for (int i = 0;;) { /* sift down */
      int l = 2 * i + 1, r = l + 1, m = i;
      if (l < hn && heap[l] < heap[m]) m = l;
      if (r < hn && heap[r] < heap[m]) m = r;
      if (m == i) break;
      long long t = heap[i]; heap[i] = heap[m]; heap[m] = t;
      i = m;
    }
    int d = (int) (top >> 32), v = (int) (top & 0xffffffff);
    if (d > want[v]) continue;
    for (int e = row_start[v]; e < row_start[v + 1]; e++) {
      int u = cols[e], nd = d + wts[e];
      if (nd < want[u]) {
        want[u] = nd;
        int i = hn++; /* sift up */
        heap[i] = ((long long) nd << 32) | u;
        while (i > 0 && heap[(i - 1) / 2] > heap[i]) {
          long long t = heap[i]; heap[i] = heap[(i - 1) / 2]; heap[(i - 1) / 2] = t;
          i = (i - 1) / 2;
        }
      }
    }
  }

  int *d_row, *d_cols, *d_w, *d_work, *d_next, *d_dist, *d_again;
  size_t nb = (size_t) n * sizeof(int);
  CHECK(cudaMalloc(&d_row, nb + sizeof(int)));
  CHECK(cudaMalloc(&d_cols, (size_t) edges * sizeof(int)));
  CHECK(cudaMalloc(&d_w, (size_t) edges * sizeof(int)));
  CHECK(cudaMalloc(&d_work, nb));
  CHECK(cudaMalloc(&d_next, nb));
  CHECK(cudaMalloc(&d_dist, nb));
  CHECK(cudaMalloc(&d_again, sizeof(int)));
  CHECK(cudaMemcpy(d_row, row_start, nb + sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_cols, cols, (size_t) edges * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_w, wts, (size_t) edges * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(d_work, 0, nb));
  CHECK(cudaMemset(d_next, 0, nb));
  int *init = (int *) host_alloc(nb);
  for (int v = 0; v < n; v++) init[v] = INF;
  init[0] = 0;
  CHECK(cudaMemcpy(d_dist, init, nb, cudaMemcpyHostToDevice));
  int one = 1;
  CHECK(cudaMemcpy(d_work, &one, sizeof(int), cudaMemcpyHostToDevice));

  int block = 128, grid = (n + block - 1) / block, rounds = 0, again;
  do {
    CHECK(cudaMemset(d_again, 0, sizeof(int)));
    sssp_relax<<<grid, block>>>(d_row, d_cols, d_w, n, d_work, d_next, d_dist);
    CHECK_LAUNCH("sssp_relax");
    sssp_swap<<<grid, block>>>(n, d_work, d_next, d_again);
    CHECK_LAUNCH("sssp_swap");
    rounds++;
    CHECK(cudaMemcpy(&again, d_again, sizeof(int), cudaMemcpyDeviceToHost));
  } while (again && rounds < 4 * n);

  CHECK(cudaMemcpy(init, d_dist, nb, cudaMemcpyDeviceToHost));
  int bad = 0, reached = 0;
  for (int v = 0; v < n; v++) {
    reached += want[v] < INF;
    if (init[v] != want[v]) {
      if (bad < 5) printf("FAILED: dist[%d] = %d, expected %d\n", v, init[v], want[v]);
      bad++;
    }
  }
  CHECK(cudaFree(d_row)); CHECK(cudaFree(d_cols)); CHECK(cudaFree(d_w)); CHECK(cudaFree(d_work));
  CHECK(cudaFree(d_next)); CHECK(cudaFree(d_dist)); CHECK(cudaFree(d_again));
  free(row_start); free(degree); free(cols); free(wts); free(want); free(heap); free(init);
  if (bad) {
    printf("FAILED: %d of %d distances wrong\n", bad, n);
    return 1;
  }
  printf("sssp: %d nodes, %ld edges, %d reached, %d rounds (%d launches)\n", n, edges, reached,
         rounds, 2 * rounds);
  printf("PASSED\n");
  return 0;
}
