/* kmeans: Lloyd's k-means iterations (Rodinia kmeans style), integer form.
 *
 * Points and centroids have integer coordinates so every distance and sum is
 * exact: the device and host agree bit for bit whatever order the atomics
 * run in, and ties go to the lowest cluster index on both.  Each iteration
 * is three launches:
 *   kmeans_assign  - nearest centroid per point (centroids cached in shared
 *                    memory), membership changes counted with atomicAdd;
 *   kmeans_accum   - per-block partial sums in shared memory (shared
 *                    atomics), merged with global atomicAdd;
 *   kmeans_update  - new centroid = floor(sum / count), empty clusters keep
 *                    their centroid.
 * A fixed iteration count gives tens of launches (seed 000 Table VI: 30).
 *
 * Usage: kmeans [points=8192] [clusters=8] [iterations=10]
 * Work: about iterations * points * (40 + 23 * clusters) thread instructions.
 */
#include "example-util.h"

#define DIM 4
#define MAX_K 64

__global__ void kmeans_assign(const int *points, int n, const int *centroids, int k,
                              int *membership, int *changed) {
  __shared__ int cs[MAX_K * DIM];
  for (int i = threadIdx.x; i < k * DIM; i += blockDim.x)
    cs[i] = centroids[i];
  __syncthreads();
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p >= n)
    return;
  int best = 0, best_d = 0x7fffffff;
  for (int c = 0; c < k; c++) {
    int d = 0;
#pragma unroll
    for (int j = 0; j < DIM; j++) {
      int diff = points[p * DIM + j] - cs[c * DIM + j];
      d += diff * diff;
    }
    if (d < best_d) {
      best_d = d;
      best = c;
    }
  }
  if (membership[p] != best) {
    membership[p] = best;
    atomicAdd(changed, 1);
  }
}

__global__ void kmeans_accum(const int *points, int n, const int *membership, int k,
                             int *sums, int *counts) {
  __shared__ int s_sums[MAX_K * DIM];
  __shared__ int s_counts[MAX_K];
  for (int i = threadIdx.x; i < k * DIM; i += blockDim.x) s_sums[i] = 0;
  for (int i = threadIdx.x; i < k; i += blockDim.x) s_counts[i] = 0;
  __syncthreads();
  for (int p = blockIdx.x * blockDim.x + threadIdx.x; p < n; p += blockDim.x * gridDim.x) {
    int c = membership[p];
    for (int j = 0; j < DIM; j++)
      atomicAdd(&s_sums[c * DIM + j], points[p * DIM + j]);
    atomicAdd(&s_counts[c], 1);
  }
  __syncthreads();
  for (int i = threadIdx.x; i < k * DIM; i += blockDim.x) atomicAdd(&sums[i], s_sums[i]);
  for (int i = threadIdx.x; i < k; i += blockDim.x) atomicAdd(&counts[i], s_counts[i]);
}

__global__ void kmeans_update(int k, const int *sums, const int *counts, int *centroids) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < k * DIM) {
    int cnt = counts[i / DIM];
    if (cnt > 0)
      centroids[i] = sums[i] / cnt;
  }
}

int main(int argc, char **argv) {
  int n = (int) arg_long(argc, argv, 1, 8192, 1, 1 << 20); /* sums fit an int */
  int k = (int) arg_long(argc, argv, 2, 8, 1, MAX_K);
  int iters = (int) arg_long(argc, argv, 3, 10, 1, 10000);
  if (k > n) k = n;

  int *points = (int *) host_alloc((size_t) n * DIM * sizeof(int));
  int *cent = (int *) host_alloc(MAX_K * DIM * sizeof(int));
  int *member = (int *) host_alloc((size_t) n * sizeof(int));
  uint64_t seed = 19;
  /* Points scattered around k true centres (coordinates below 1024, so a
   * squared distance fits easily in an int). */
  int centres[MAX_K * DIM];
  for (int i = 0; i < k * DIM; i++) centres[i] = 100 + (int) lcg_below(&seed, 824);
  for (int p = 0; p < n; p++) {
    int c = (int) lcg_below(&seed, k);
    for (int j = 0; j < DIM; j++)
      points[p * DIM + j] = centres[c * DIM + j] + (int) lcg_below(&seed, 201) - 100;
  }
  for (int c = 0; c < k; c++) /* initial centroids: the first k points */
    for (int j = 0; j < DIM; j++) cent[c * DIM + j] = points[c * DIM + j];

  int *d_points, *d_cent, *d_member, *d_sums, *d_counts, *d_changed;
  CHECK(cudaMalloc(&d_points, (size_t) n * DIM * sizeof(int)));
  CHECK(cudaMalloc(&d_cent, MAX_K * DIM * sizeof(int)));
  CHECK(cudaMalloc(&d_member, (size_t) n * sizeof(int)));
  CHECK(cudaMalloc(&d_sums, MAX_K * DIM * sizeof(int)));
  CHECK(cudaMalloc(&d_counts, MAX_K * sizeof(int)));
  CHECK(cudaMalloc(&d_changed, sizeof(int)));
  CHECK(cudaMemcpy(d_points, points, (size_t) n * DIM * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_cent, cent, (size_t) k * DIM * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(d_member, 0xff, (size_t) n * sizeof(int))); /* -1: unassigned */

  int block = 256, grid = (n + block - 1) / block;
  int accum_grid = grid < 16 ? grid : 16;
  int *changed_dev = (int *) host_alloc((size_t) iters * sizeof(int));
  for (int it = 0; it < iters; it++) {
    CHECK(cudaMemset(d_changed, 0, sizeof(int)));
    CHECK(cudaMemset(d_sums, 0, MAX_K * DIM * sizeof(int)));
    CHECK(cudaMemset(d_counts, 0, MAX_K * sizeof(int)));
    kmeans_assign<<<grid, block>>>(d_points, n, d_cent, k, d_member, d_changed);
    CHECK_LAUNCH("kmeans_assign");
    kmeans_accum<<<accum_grid, block>>>(d_points, n, d_member, k, d_sums, d_counts);
    CHECK_LAUNCH("kmeans_accum");
    kmeans_update<<<1, MAX_K * DIM>>>(k, d_sums, d_counts, d_cent);
    CHECK_LAUNCH("kmeans_update");
    CHECK(cudaMemcpy(&changed_dev[it], d_changed, sizeof(int), cudaMemcpyDeviceToHost));
  }
  int *got_cent = (int *) host_alloc(MAX_K * DIM * sizeof(int));
  int *got_member = (int *) host_alloc((size_t) n * sizeof(int));
  CHECK(cudaMemcpy(got_cent, d_cent, (size_t) k * DIM * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(got_member, d_member, (size_t) n * sizeof(int), cudaMemcpyDeviceToHost));

  /* Host reference, same algorithm. */
  for (int p = 0; p < n; p++) member[p] = -1;
  int bad = 0;
  for (int it = 0; it < iters; it++) {
    int changed = 0;
    long sums[MAX_K * DIM] = {0};
    int counts[MAX_K] = {0};
    for (int p = 0; p < n; p++) {
      int best = 0, best_d = 0x7fffffff;
      for (int c = 0; c < k; c++) {
        int d = 0;
        for (int j = 0; j < DIM; j++) {
          int diff = points[p * DIM + j] - cent[c * DIM + j];
          d += diff * diff;
        }
        if (d < best_d) { best_d = d; best = c; }
      }
      if (member[p] != best) { member[p] = best; changed++; }
      for (int j = 0; j < DIM; j++) sums[best * DIM + j] += points[p * DIM + j];
      counts[best]++;
    }
    for (int i = 0; i < k * DIM; i++)
      if (counts[i / DIM] > 0) cent[i] = (int) (sums[i] / counts[i / DIM]);
    if (changed != changed_dev[it]) {
      printf("FAILED: iteration %d: %d points changed cluster, expected %d\n", it,
             changed_dev[it], changed);
      bad++;
    }
  }
  for (int i = 0; i < k * DIM; i++)
    if (got_cent[i] != cent[i]) {
      printf("FAILED: centroid %d coordinate %d = %d, expected %d\n", i / DIM, i % DIM,
             got_cent[i], cent[i]);
      bad++;
      break;
    }
  for (int p = 0; p < n; p++)
    if (got_member[p] != member[p]) {
      printf("FAILED: point %d in cluster %d, expected %d\n", p, got_member[p], member[p]);
      bad++;
      break;
    }
  CHECK(cudaFree(d_points)); CHECK(cudaFree(d_cent)); CHECK(cudaFree(d_member));
  CHECK(cudaFree(d_sums)); CHECK(cudaFree(d_counts)); CHECK(cudaFree(d_changed));
  free(points); free(cent); free(member); free(changed_dev); free(got_cent); free(got_member);
  if (bad)
    return 1;
  printf("kmeans: %d points, %d clusters, %d iterations (%d launches)\n", n, k, iters,
         3 * iters);
  printf("PASSED\n");
  return 0;
}
