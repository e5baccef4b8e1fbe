/* streamcluster: facility-location gain evaluation (Rodinia streamcluster's
 * pgain, integer form).
 *
 * Points (integer coordinates, integer weights) are served by open centres;
 * for each candidate centre the pgain kernel decides per point whether the
 * point would switch to the candidate (cheaper) and accumulates the total
 * gain with 64-bit atomics, while points that stay add what they would lose
 * to a per-centre "lower" counter (atomics on a few hot addresses: the
 * contended, divergent part).  The host opens the candidate when the gain
 * exceeds the facility cost, and an apply kernel moves the switching points.
 * One launch per candidate plus one per opening: irregular kernels with tens
 * of launches (seed 000 Table VI "stream": 21).  All arithmetic is exact
 * integer arithmetic, so device and host decisions agree.
 *
 * Usage: streamcluster [points=4096] [candidates=20] [facilityCost=1000000]
 * Work: about candidates * points * 90 thread instructions.
 */
#include "example-util.h"

#define DIM 8

__device__ __host__ static inline long long wdist(const int *pts, int a, int b, int w) {
  int d = 0;
  for (int k = 0; k < DIM; k++) {
    int t = pts[a * DIM + k] - pts[b * DIM + k];
    d += t * t;
  }
  return (long long) d * w;
}

__global__ void pgain(const int *pts, const int *weight, const long long *cost, const int *assign,
                      int n, int cand, unsigned char *sw, unsigned long long *gain,
                      unsigned long long *lower) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  long long xc = wdist(pts, i, cand, weight[i]);
  if (xc < cost[i]) {
    sw[i] = 1;
    atomicAdd(gain, (unsigned long long) (cost[i] - xc));
  } else {
    sw[i] = 0;
    atomicAdd(&lower[assign[i]], (unsigned long long) (xc - cost[i]));
  }
}

__global__ void apply_switch(const int *pts, const int *weight, long long *cost, int *assign,
                             int n, int cand, const unsigned char *sw) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && sw[i]) {
    cost[i] = wdist(pts, i, cand, weight[i]);
    assign[i] = cand;
  }
}

int main(int argc, char **argv) {
  int n = (int) arg_long(argc, argv, 1, 4096, 2, 1 << 20);
  int ncand = (int) arg_long(argc, argv, 2, 20, 1, 100000);
  long long fcost = arg_long(argc, argv, 3, 1000000, 0, 1L << 40);

  int *pts = (int *) host_alloc((size_t) n * DIM * sizeof(int));
  int *weight = (int *) host_alloc((size_t) n * sizeof(int));
  uint64_t seed = 53;
  int centres[12 * DIM];
  for (int i = 0; i < 12 * DIM; i++) centres[i] = 20 + (int) lcg_below(&seed, 216);
  for (int i = 0; i < n; i++) {
    int c = (int) lcg_below(&seed, 12);
    for (int k = 0; k < DIM; k++) {
      int v = centres[c * DIM + k] + (int) lcg_below(&seed, 41) - 20;
      pts[i * DIM + k] = v < 0 ? 0 : (v > 255 ? 255 : v);
    }
    weight[i] = 1 + (int) lcg_below(&seed, 3);
  }
  int *cands = (int *) host_alloc((size_t) ncand * sizeof(int));
  for (int c = 0; c < ncand; c++) cands[c] = (int) lcg_below(&seed, (uint32_t) n);

  /* Start with one open centre, point 0. */
  int *assign = (int *) host_alloc((size_t) n * sizeof(int));
  long long *cost = (long long *) host_alloc((size_t) n * sizeof(long long));
  for (int i = 0; i < n; i++) {
    assign[i] = 0;
    cost[i] = wdist(pts, i, 0, weight[i]);
  }

  int *d_pts, *d_weight, *d_assign;
  long long *d_cost;
  unsigned char *d_sw;
  unsigned long long *d_gain, *d_lower;
  CHECK(cudaMalloc(&d_pts, (size_t) n * DIM * sizeof(int)));
  CHECK(cudaMalloc(&d_weight, (size_t) n * sizeof(int)));
  CHECK(cudaMalloc(&d_assign, (size_t) n * sizeof(int)));
  CHECK(cudaMalloc(&d_cost, (size_t) n * sizeof(long long)));
  CHECK(cudaMalloc(&d_sw, (size_t) n));
  CHECK(cudaMalloc(&d_gain, sizeof(unsigned long long)));
  CHECK(cudaMalloc(&d_lower, (size_t) n * sizeof(unsigned long long)));
  CHECK(cudaMemcpy(d_pts, pts, (size_t) n * DIM * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_weight, weight, (size_t) n * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_assign, assign, (size_t) n * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_cost, cost, (size_t) n * sizeof(long long), cudaMemcpyHostToDevice));

  unsigned long long *lower = (unsigned long long *) host_alloc((size_t) n * sizeof(unsigned long long));
  unsigned long long *got_lower = (unsigned long long *) host_alloc((size_t) n * sizeof(unsigned long long));
  unsigned char *sw = (unsigned char *) host_alloc((size_t) n);
  int block = 128, grid = (n + block - 1) / block, opened = 0, launches = 0;
  for (int c = 0; c < ncand; c++) {
    int cand = cands[c];
    CHECK(cudaMemset(d_gain, 0, sizeof(unsigned long long)));
    CHECK(cudaMemset(d_lower, 0, (size_t) n * sizeof(unsigned long long)));
    pgain<<<grid, block>>>(d_pts, d_weight, d_cost, d_assign, n, cand, d_sw, d_gain, d_lower);
    CHECK_LAUNCH("pgain");
    launches++;
    unsigned long long got_gain;
    CHECK(cudaMemcpy(&got_gain, d_gain, sizeof got_gain, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(got_lower, d_lower, (size_t) n * sizeof(unsigned long long), cudaMemcpyDeviceToHost));

    /* Host reference of this step. */
    unsigned long long want_gain = 0;
    memset(lower, 0, (size_t) n * sizeof(unsigned long long));
    for (int i = 0; i < n; i++) {
      long long xc = wdist(pts, i, cand, weight[i]);
      sw[i] = xc < cost[i];
      if (sw[i]) want_gain += (unsigned long long) (cost[i] - xc);
      else lower[assign[i]] += (unsigned long long) (xc - cost[i]);
    }
    if (got_gain != want_gain) {
      printf("FAILED: candidate %d (point %d): gain %llu, expected %llu\n", c, cand, got_gain, want_gain);
      return 1;
    }
    for (int i = 0; i < n; i++)
      if (got_lower[i] != lower[i]) {
        printf("FAILED: candidate %d: lower[%d] = %llu, expected %llu\n", c, i, got_lower[i], lower[i]);
        return 1;
      }
    if ((long long) want_gain > fcost) { /* open the candidate */
      apply_switch<<<grid, block>>>(d_pts, d_weight, d_cost, d_assign, n, cand, d_sw);
      CHECK_LAUNCH("apply_switch");
      launches++;
      opened++;
      for (int i = 0; i < n; i++)
        if (sw[i]) {
          cost[i] = wdist(pts, i, cand, weight[i]);
          assign[i] = cand;
        }
    }
  }
  int *got_assign = (int *) host_alloc((size_t) n * sizeof(int));
  long long *got_cost = (long long *) host_alloc((size_t) n * sizeof(long long));
  CHECK(cudaMemcpy(got_assign, d_assign, (size_t) n * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(got_cost, d_cost, (size_t) n * sizeof(long long), cudaMemcpyDeviceToHost));
  long long total = 0;
  for (int i = 0; i < n; i++) {
    total += cost[i];
    if (got_assign[i] != assign[i] || got_cost[i] != cost[i]) {
      printf("FAILED: point %d: centre %d cost %lld, expected centre %d cost %lld\n", i,
             got_assign[i], got_cost[i], assign[i], cost[i]);
      return 1;
    }
  }
  CHECK(cudaFree(d_pts)); CHECK(cudaFree(d_weight)); CHECK(cudaFree(d_assign));
  CHECK(cudaFree(d_cost)); CHECK(cudaFree(d_sw)); CHECK(cudaFree(d_gain)); CHECK(cudaFree(d_lower));
  free(pts); free(weight); free(cands); free(assign); free(cost); free(lower); free(got_lower);
  free(sw); free(got_assign); free(got_cost);
  printf("streamcluster: %d points, %d candidates, %d opened, %d launches, total cost %lld\n", n,
         ncand, opened, launches, total);
  printf("PASSED\n");
  return 0;
}
