/* bfs: frontier-based breadth-first search (Rodinia / lonestar style).
 *
 * A directed graph in CSR form with irregular degrees (most nodes have 1-6
 * edges, one in 64 is a hub with up to 96) and mostly local edges, so the
 * search takes tens of levels.  Every level runs two kernels over all nodes:
 *   bfs_expand  - frontier nodes visit their neighbours (divergent loop trip
 *                 counts, scattered loads);
 *   bfs_update  - newly reached nodes become the next frontier and set a
 *                 "continue" flag read back by the host.
 * This is the irregular, many-launch kernel pair of seed 000's Table VI.
 *
 * Usage: bfs [nodes=6000] [window=96] [source=0]
 * Work: about 2 * levels * nodes * 12 thread instructions plus the edges.
 */
#include "example-util.h"

__global__ void bfs_expand(const int *row_start, const int *cols, int n, int *frontier,
                           int *next, const int *visited, int *cost) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v < n && frontier[v]) {
    frontier[v] = 0;
    int c = cost[v] + 1;
    for (int e = row_start[v]; e < row_start[v + 1]; e++) {
      int u = cols[e];
      if (!visited[u]) {
        cost[u] = c; /* every writer of a level writes the same value */
        next[u] = 1;
      }
    }
  }
}

__global__ void bfs_update(int n, int *frontier, int *next, int *visited, int *again) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v < n && next[v]) {
    frontier[v] = 1;
    visited[v] = 1;
    next[v] = 0;
    *again = 1;
  }
}

int main(int argc, char **argv) {
  int n = (int) arg_long(argc, argv, 1, 6000, 2, 1 << 24);
  int window = (int) arg_long(argc, argv, 2, 96, 1, 1 << 24);
  int source = (int) arg_long(argc, argv, 3, 0, 0, n - 1);

  /* Generate the graph: edges to nodes within +-window, biased forward. */
  int *row_start = (int *) host_alloc((size_t) (n + 1) * sizeof(int));
  uint64_t seed = 13;
  int *degree = (int *) host_alloc((size_t) n * sizeof(int));
  long edges = 0;
  for (int v = 0; v < n; v++) {
    degree[v] = (lcg_below(&seed, 64) == 0) ? 32 + (int) lcg_below(&seed, 65)
                                            : 1 + (int) lcg_below(&seed, 6);
    edges += degree[v];
  }
  int *cols = (int *) host_alloc((size_t) edges * sizeof(int));
  row_start[0] = 0;
  for (int v = 0; v < n; v++) {
    row_start[v + 1] = row_start[v] + degree[v];
    for (int e = row_start[v]; e < row_start[v + 1]; e++) {
      long off = (long) lcg_below(&seed, 2 * window + 1) - window / 2; /* mostly forward */
      long u = v + off;
      if (u < 0) u += n;
      if (u >= n) u -= n;
      cols[e] = (int) u;
    }
  }

  /* Host BFS (queue). */
  int *want = (int *) host_alloc((size_t) n * sizeof(int));
  int *queue = (int *) host_alloc((size_t) n * sizeof(int));
  for (int v = 0; v < n; v++) want[v] = -1;
  int head = 0, tail = 0, levels = 0;
  want[source] = 0;
  queue[tail++] = source;
  while (head < tail) {
    int v = queue[head++];
    if (want[v] > levels) levels = want[v];
    for (int e = row_start[v]; e < row_start[v + 1]; e++)
      if (want[cols[e]] < 0) {
        want[cols[e]] = want[v] + 1;
        queue[tail++] = cols[e];
      }
  }

  int *d_row, *d_cols, *d_frontier, *d_next, *d_visited, *d_cost, *d_again;
  size_t nb = (size_t) n * sizeof(int);
  CHECK(cudaMalloc(&d_row, nb + sizeof(int)));
  CHECK(cudaMalloc(&d_cols, (size_t) edges * sizeof(int)));
  CHECK(cudaMalloc(&d_frontier, nb));
  CHECK(cudaMalloc(&d_next, nb));
  CHECK(cudaMalloc(&d_visited, nb));
  CHECK(cudaMalloc(&d_cost, nb));
  CHECK(cudaMalloc(&d_again, sizeof(int)));
  CHECK(cudaMemcpy(d_row, row_start, nb + sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_cols, cols, (size_t) edges * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(d_frontier, 0, nb));
  CHECK(cudaMemset(d_next, 0, nb));
  CHECK(cudaMemset(d_visited, 0, nb));
  CHECK(cudaMemset(d_cost, 0xff, nb)); /* -1: unreached */
  int one = 1, zero = 0;
  CHECK(cudaMemcpy(d_frontier + source, &one, sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_visited + source, &one, sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_cost + source, &zero, sizeof(int), cudaMemcpyHostToDevice));

  int block = 256, grid = (n + block - 1) / block, launches = 0, again;
  do {
    CHECK(cudaMemset(d_again, 0, sizeof(int)));
    bfs_expand<<<grid, block>>>(d_row, d_cols, n, d_frontier, d_next, d_visited, d_cost);
    CHECK_LAUNCH("bfs_expand");
    bfs_update<<<grid, block>>>(n, d_frontier, d_next, d_visited, d_again);
    CHECK_LAUNCH("bfs_update");
    launches += 2;
    CHECK(cudaMemcpy(&again, d_again, sizeof(int), cudaMemcpyDeviceToHost));
  } while (again && launches < 4 * n);

  int *got = (int *) host_alloc(nb);
  CHECK(cudaMemcpy(got, d_cost, nb, cudaMemcpyDeviceToHost));
  int bad = 0, reached = 0;
  for (int v = 0; v < n; v++) {
    reached += want[v] >= 0;
    if (got[v] != want[v]) {
      if (bad < 5)
        printf("FAILED: cost[%d] = %d, expected %d\n", v, got[v], want[v]);
      bad++;
    }
  }
  if (launches != 2 * (levels + 1)) {
    printf("FAILED: %d launches for %d levels, expected %d\n", launches, levels,
           2 * (levels + 1));
    bad++;
  }
  CHECK(cudaFree(d_row)); CHECK(cudaFree(d_cols)); CHECK(cudaFree(d_frontier));
  CHECK(cudaFree(d_next)); CHECK(cudaFree(d_visited)); CHECK(cudaFree(d_cost));
  CHECK(cudaFree(d_again));
  free(row_start); free(degree); free(cols); free(want); free(queue); free(got);
  if (bad) {
    printf("FAILED: %d mismatches\n", bad);
    return 1;
  }
  printf("bfs: %d nodes, %ld edges, %d reached, depth %d, %d launches\n", n, edges, reached,
         levels, launches);
  printf("PASSED\n");
  return 0;
}
