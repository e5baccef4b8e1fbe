/* mst: minimum spanning forest by Boruvka's algorithm (lonestar mst style).
 *
 * An undirected graph with irregular degrees (a few hubs with many edges)
 * and unique edge keys (weight, edge id), so the forest is unique.  Every
 * round runs four kernels:
 *   mst_reset    - clear each component's best edge;
 *   mst_find_min - every vertex scans its edges for the lightest one leaving
 *                  its component and atomicMin's it (64-bit) into the
 *                  component's slot: the work per thread follows the degree,
 *                  so hub blocks are outliers (seed 000 Table VI "mst");
 *   mst_hook     - each component links to the component across its edge
 *                  (of a mutual pair the smaller id stays root) and marks the
 *                  edge as part of the forest;
 *   mst_jump     - every vertex follows the links to its new root.
 * The host checks the chosen edges against Kruskal's algorithm.
 *
 * Usage: mst [nodes=4096] [window=200]
 * Work: about rounds * nodes * (40 + 12 * degree) thread instructions.
 */
#include "example-util.h"

#define NONE 0xffffffffffffffffULL

__global__ void mst_reset(int n, unsigned long long *best, int *parent) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v < n) {
    best[v] = NONE;
    parent[v] = v;
  }
}

__global__ void mst_find_min(int n, const int *adj_start, const int *adj_edge, const int *eu,
                             const int *ev, const unsigned *ew, const int *comp,
                             unsigned long long *best) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= n) return;
  int cv = comp[v];
  unsigned long long mine = NONE;
  for (int k = adj_start[v]; k < adj_start[v + 1]; k++) {
    int e = adj_edge[k];
    int other = eu[e] == v ? ev[e] : eu[e];
    if (comp[other] != cv) {
      unsigned long long key = ((unsigned long long) ew[e] << 32) | (unsigned) e;
      if (key < mine) mine = key;
    }
  }
  if (mine != NONE)
    atomicMin(&best[cv], mine);
}

__global__ void mst_hook(int n, const int *eu, const int *ev, const int *comp,
                         const unsigned long long *best, int *parent, unsigned char *in_mst,
                         int *hooked) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= n || comp[c] != c || best[c] == NONE) return;
  int e = (int) (best[c] & 0xffffffffu);
  int o = comp[eu[e]] == c ? comp[ev[e]] : comp[eu[e]];
  bool mutual = (int) (best[o] & 0xffffffffu) == e;
  if (!mutual || c < o)
    in_mst[e] = 1;
  if (!(mutual && c < o))
    parent[c] = o;
  *hooked = 1;
}

__global__ void mst_jump(int n, const int *parent, int *comp) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= n) return;
  int r = parent[comp[v]];
  while (parent[r] != r) r = parent[r];
  comp[v] = r;
}

static int find_root(int *uf, int x) {
  while (uf[x] != x) {
    uf[x] = uf[uf[x]];
    x = uf[x];
  }
  return x;
}

int main(int argc, char **argv) {
  int n = (int) arg_long(argc, argv, 1, 4096, 2, 1 << 22);
  int window = (int) arg_long(argc, argv, 2, 200, 1, 1 << 22);

  /* Edges: each vertex adds 1-3 edges to nearby vertices, one in 64 adds 40. */
  uint64_t seed = 61;
  long cap = 0;
  int *extra = (int *) host_alloc((size_t) n * sizeof(int));
  for (int v = 0; v < n; v++) {
    extra[v] = (lcg_below(&seed, 64) == 0) ? 40 : 1 + (int) lcg_below(&seed, 3);
    cap += extra[v];
  }
  int *eu = (int *) host_alloc((size_t) cap * sizeof(int));
  int *ev = (int *) host_alloc((size_t) cap * sizeof(int));
  unsigned *ew = (unsigned *) host_alloc((size_t) cap * sizeof(unsigned));
  int m = 0;
  for (int v = 0; v < n; v++)
    for (int k = 0; k < extra[v]; k++) {
      long u = v + 1 + (long) lcg_below(&seed, 2 * window) - window;
      u = ((u % n) + n) % n;
      if (u == v) continue;
      eu[m] = v;
      ev[m] = (int) u;
      ew[m] = 1 + lcg_below(&seed, 1000);
      m++;
    }
  /* Adjacency (both directions) as edge ids. */
  int *adj_start = (int *) host_alloc((size_t) (n + 1) * sizeof(int));
  int *adj_edge = (int *) host_alloc((size_t) 2 * m * sizeof(int));
  int *fill = (int *) host_alloc((size_t) n * sizeof(int));
  memset(adj_start, 0, (size_t) (n + 1) * sizeof(int));
  for (int e = 0; e < m; e++) {
    adj_start[eu[e] + 1]++;
    adj_start[ev[e] + 1]++;
  }
  for (int v = 0; v < n; v++) adj_start[v + 1] += adj_start[v];
  memcpy(fill, adj_start, (size_t) n * sizeof(int));
  for (int e = 0; e < m; e++) {
    adj_edge[fill[eu[e]]++] = e;
    adj_edge[fill[ev[e]]++] = e;
  }

  /* Kruskal on the unique keys (weight, id): sort edge ids by key. */
  unsigned long long *keys = (unsigned long long *) host_alloc((size_t) m * sizeof(unsigned long long));
  for (int e = 0; e < m; e++) keys[e] = ((unsigned long long) ew[e] << 32) | (unsigned) e;
  qsort(keys, m, sizeof keys[0], [](const void *a, const void *b) {
    unsigned long long x = *(const unsigned long long *) a, y = *(const unsigned long long *) b;
    return x < y ? -1 : (x > y ? 1 : 0);
  });
  int *uf = (int *) host_alloc((size_t) n * sizeof(int));
  for (int v = 0; v < n; v++) uf[v] = v;
  unsigned char *want = (unsigned char *) host_alloc((size_t) m);
  memset(want, 0, (size_t) m);
  long long want_weight = 0;
  int want_edges = 0;
  for (int i = 0; i < m; i++) {
    int e = (int) (keys[i] & 0xffffffffu);
    int a = find_root(uf, eu[e]), b = find_root(uf, ev[e]);
    if (a != b) {
      uf[a] = b;
      want[e] = 1;
      want_weight += ew[e];
      want_edges++;
    }
  }

  int *d_adj_start, *d_adj_edge, *d_eu, *d_ev, *d_comp, *d_parent, *d_hooked;
  unsigned *d_ew;
  unsigned long long *d_best;
  unsigned char *d_in;
  CHECK(cudaMalloc(&d_adj_start, (size_t) (n + 1) * sizeof(int)));
  CHECK(cudaMalloc(&d_adj_edge, (size_t) 2 * m * sizeof(int)));
  CHECK(cudaMalloc(&d_eu, (size_t) m * sizeof(int)));
  CHECK(cudaMalloc(&d_ev, (size_t) m * sizeof(int)));
  CHECK(cudaMalloc(&d_ew, (size_t) m * sizeof(unsigned)));
  CHECK(cudaMalloc(&d_comp, (size_t) n * sizeof(int)));
  CHECK(cudaMalloc(&d_parent, (size_t) n * sizeof(int)));
  CHECK(cudaMalloc(&d_best, (size_t) n * sizeof(unsigned long long)));
  CHECK(cudaMalloc(&d_in, (size_t) m));
  CHECK(cudaMalloc(&d_hooked, sizeof(int)));
  CHECK(cudaMemcpy(d_adj_start, adj_start, (size_t) (n + 1) * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_adj_edge, adj_edge, (size_t) 2 * m * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_eu, eu, (size_t) m * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_ev, ev, (size_t) m * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_ew, ew, (size_t) m * sizeof(unsigned), cudaMemcpyHostToDevice));
  for (int v = 0; v < n; v++) fill[v] = v;
  CHECK(cudaMemcpy(d_comp, fill, (size_t) n * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(d_in, 0, (size_t) m));

  int block = 128, grid = (n + block - 1) / block, rounds = 0, hooked;
  do {
    CHECK(cudaMemset(d_hooked, 0, sizeof(int)));
    mst_reset<<<grid, block>>>(n, d_best, d_parent);
    CHECK_LAUNCH("mst_reset");
    mst_find_min<<<grid, block>>>(n, d_adj_start, d_adj_edge, d_eu, d_ev, d_ew, d_comp, d_best);
    CHECK_LAUNCH("mst_find_min");
    mst_hook<<<grid, block>>>(n, d_eu, d_ev, d_comp, d_best, d_parent, d_in, d_hooked);
    CHECK_LAUNCH("mst_hook");
    mst_jump<<<grid, block>>>(n, d_parent, d_comp);
    CHECK_LAUNCH("mst_jump");
    rounds++;
    CHECK(cudaMemcpy(&hooked, d_hooked, sizeof(int), cudaMemcpyDeviceToHost));
  } while (hooked && rounds < 64);

  unsigned char *got = (unsigned char *) host_alloc((size_t) m);
  CHECK(cudaMemcpy(got, d_in, (size_t) m, cudaMemcpyDeviceToHost));
  long long got_weight = 0;
  int got_edges = 0, bad = 0;
  for (int e = 0; e < m; e++) {
    if (got[e]) {
      got_weight += ew[e];
      got_edges++;
    }
    if ((got[e] != 0) != (want[e] != 0)) {
      if (bad < 5)
        printf("FAILED: edge %d (%d-%d, weight %u) %s the forest\n", e, eu[e], ev[e], ew[e],
               want[e] ? "missing from" : "wrongly in");
      bad++;
    }
  }
  CHECK(cudaFree(d_adj_start)); CHECK(cudaFree(d_adj_edge)); CHECK(cudaFree(d_eu));
  CHECK(cudaFree(d_ev)); CHECK(cudaFree(d_ew)); CHECK(cudaFree(d_comp)); CHECK(cudaFree(d_parent));
  CHECK(cudaFree(d_best)); CHECK(cudaFree(d_in)); CHECK(cudaFree(d_hooked));
  free(extra); free(eu); free(ev); free(ew); free(adj_start); free(adj_edge); free(fill);
  free(keys); free(uf); free(want); free(got);
  if (bad || got_weight != want_weight) {
    printf("FAILED: forest of %d edges weighing %lld, expected %d edges weighing %lld\n",
           got_edges, got_weight, want_edges, want_weight);
    return 1;
  }
  printf("mst: %d nodes, %d edges, forest of %d edges weighing %lld, %d rounds (%d launches)\n",
         n, m, got_edges, got_weight, rounds, 4 * rounds);
  printf("PASSED\n");
  return 0;
}
