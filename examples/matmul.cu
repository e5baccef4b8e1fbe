/* matmul: C = A * B with 16x16 shared-memory tiles.
 *
 * Each thread block stages one tile of A and one of B in shared memory,
 * synchronises with __syncthreads, and accumulates TILE products per stage.
 * The default sizes are deliberately not multiples of the tile so the
 * boundary guards (zero padding of partial tiles) are exercised.
 *
 * Usage: matmul [M=120] [N=100] [K=88]   (A is MxK, B is KxN, C is MxN)
 * Work: about 6 * M * N * K thread instructions (partial tiles included).
 */
#include "example-util.h"

#define TILE 16

__global__ void matmul_tiled(const float *A, const float *B, float *C,
                             int M, int N, int K) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty;
  int col = blockIdx.x * TILE + tx;
  float acc = 0.0f;

  for (int t = 0; t < K; t += TILE) {
    int ka = t + tx; /* column of A this thread loads */
    int kb = t + ty; /* row of B this thread loads */
    As[ty][tx] = (row < M && ka < K) ? A[row * K + ka] : 0.0f;
    Bs[ty][tx] = (kb < K && col < N) ? B[kb * N + col] : 0.0f;
    __syncthreads();
#pragma unroll
    for (int k = 0; k < TILE; k++)
      acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  if (row < M && col < N)
    C[row * N + col] = acc;
}

int main(int argc, char **argv) {
  int M = (int) arg_long(argc, argv, 1, 120, 1, 8192);
  int N = (int) arg_long(argc, argv, 2, 100, 1, 8192);
  int K = (int) arg_long(argc, argv, 3, 88, 1, 8192);

  float *A = (float *) host_alloc((size_t) M * K * sizeof(float));
  float *B = (float *) host_alloc((size_t) K * N * sizeof(float));
  float *C = (float *) host_alloc((size_t) M * N * sizeof(float));
  uint64_t seed = 3;
  for (long i = 0; i < (long) M * K; i++) A[i] = lcg_float(&seed) * 2.0f - 1.0f;
  for (long i = 0; i < (long) K * N; i++) B[i] = lcg_float(&seed) * 2.0f - 1.0f;

  float *dA, *dB, *dC;
  CHECK(cudaMalloc(&dA, (size_t) M * K * sizeof(float)));
  CHECK(cudaMalloc(&dB, (size_t) K * N * sizeof(float)));
  CHECK(cudaMalloc(&dC, (size_t) M * N * sizeof(float)));
  CHECK(cudaMemcpy(dA, A, (size_t) M * K * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dB, B, (size_t) K * N * sizeof(float), cudaMemcpyHostToDevice));

  dim3 block(TILE, TILE);
  dim3 grid((N + TILE - 1) / TILE, (M + TILE - 1) / TILE);
  matmul_tiled<<<grid, block>>>(dA, dB, dC, M, N, K);
  CHECK_LAUNCH("matmul_tiled");
  CHECK(cudaMemcpy(C, dC, (size_t) M * N * sizeof(float), cudaMemcpyDeviceToHost));

  /* Reference in double; the device sums in float (with FMA contraction), so
   * allow a rounding error proportional to K and to the sum of |products|. */
  int bad = 0;
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++) {
      double want = 0.0, mag = 0.0;
      for (int k = 0; k < K; k++) {
        want += (double) A[i * K + k] * B[k * N + j];
        mag += fabs((double) A[i * K + k] * B[k * N + j]);
      }
      double got = C[i * N + j];
      if (!(fabs(got - want) <= 1e-6 * K * mag + 1e-6)) {
        if (bad < 5)
          printf("FAILED: C[%d][%d] = %.9g, expected %.9g\n", i, j, got, want);
        bad++;
      }
    }
  CHECK(cudaFree(dA));
  CHECK(cudaFree(dB));
  CHECK(cudaFree(dC));
  free(A); free(B); free(C);
  if (bad) {
    printf("FAILED: %d of %d elements wrong\n", bad, M * N);
    return 1;
  }
  printf("matmul: %dx%d = %dx%d * %dx%d, %u blocks of %dx%d\n", M, N, M, K, K, N,
         grid.x * grid.y, TILE, TILE);
  printf("PASSED\n");
  return 0;
}
