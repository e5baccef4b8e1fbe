/* vectoradd: C = A + B, one element per thread.
 *
 * The regular, memory-bound baseline.  With the default small block size the
 * single launch has thousands of thread blocks (4096), the case where
 * TBPoint's intra-launch sampling pays off (seed 000, Table VI "conv", "lbm").
 *
 * Usage: vectoradd [N=262144] [blockSize=64]
 * Work: about 21 * N thread instructions in N / blockSize thread blocks.
 */
#include "example-util.h"

__global__ void vector_add(const float *a, const float *b, float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    c[i] = a[i] + b[i];
}

int main(int argc, char **argv) {
  int n = (int) arg_long(argc, argv, 1, 262144, 1, 1 << 28);
  int block = (int) arg_long(argc, argv, 2, 64, 1, 1024);
  size_t bytes = (size_t) n * sizeof(float);

  float *a = (float *) host_alloc(bytes);
  float *b = (float *) host_alloc(bytes);
  float *c = (float *) host_alloc(bytes);
  uint64_t seed = 1;
  for (int i = 0; i < n; i++) {
    a[i] = lcg_float(&seed) * 100.0f;
    b[i] = lcg_float(&seed) - 0.5f;
  }

  float *da, *db, *dc;
  CHECK(cudaMalloc(&da, bytes));
  CHECK(cudaMalloc(&db, bytes));
  CHECK(cudaMalloc(&dc, bytes));
  CHECK(cudaMemcpy(da, a, bytes, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(db, b, bytes, cudaMemcpyHostToDevice));
  CHECK(cudaMemset(dc, 0xff, bytes)); /* NaN: untouched elements fail */

  int grid = (n + block - 1) / block;
  vector_add<<<grid, block>>>(da, db, dc, n);
  CHECK_LAUNCH("vector_add");
  CHECK(cudaMemcpy(c, dc, bytes, cudaMemcpyDeviceToHost));

  int bad = 0;
  for (int i = 0; i < n; i++) {
    float want = a[i] + b[i]; /* one correctly rounded addition: exact match */
    if (!(c[i] == want)) {
      if (bad < 5)
        printf("FAILED: c[%d] = %.9g, expected %.9g\n", i, c[i], want);
      bad++;
    }
  }
  CHECK(cudaFree(da));
  CHECK(cudaFree(db));
  CHECK(cudaFree(dc));
  free(a); free(b); free(c);
  if (bad) {
    printf("FAILED: %d of %d elements wrong\n", bad, n);
    return 1;
  }
  printf("vectoradd: N=%d blockSize=%d blocks=%d\n", n, block, grid);
  printf("PASSED\n");
  return 0;
}
