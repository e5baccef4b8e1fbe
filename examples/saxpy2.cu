/* saxpy2: the testbed kernel of seed 004 (Gajger & Czarnul, Listing 2).
 *
 * y[i] += x[i] added to itself `a` times.  The loop is kept rolled
 * (#pragma unroll 1) so `a` (computeIntensity) sets the number of arithmetic
 * instructions each warp executes: a = 1 is memory bound, a >= 32 is compute
 * bound on the seed's GPUs.  The host code follows the seed's Listing 6
 * (simpleCUDAApp): allocate, copy in, one launch with a dummy dynamic shared
 * memory size to control occupancy, copy out.
 *
 * Usage: saxpy2 [N=16384] [computeIntensity=16] [blockSize=256] [shMem=0]
 * Work: about N * (12 + 4 * computeIntensity) thread instructions.
 */
#include "example-util.h"

__global__ void saxpy2(int n, int a, float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float val = x[i], tmp = 0;
#pragma unroll 1
    for (int cnt = 0; cnt < a; ++cnt) tmp += val;
    y[i] += tmp;
  }
}

int main(int argc, char **argv) {
  int N = (int) arg_long(argc, argv, 1, 16384, 1, 1 << 28);
  int computeIntensity = (int) arg_long(argc, argv, 2, 16, 0, 1 << 20);
  int blockSz = (int) arg_long(argc, argv, 3, 256, 1, 1024);
  int shMem = (int) arg_long(argc, argv, 4, 0, 0, 48 * 1024);

  size_t size = (size_t) N * sizeof(float);
  float *x = (float *) host_alloc(size);
  float *y = (float *) host_alloc(size);
  float *y0 = (float *) host_alloc(size);
  uint64_t seed = 4;
  for (int i = 0; i < N; i++) {
    x[i] = lcg_float(&seed) * 2.0f - 1.0f;
    y[i] = y0[i] = lcg_float(&seed);
  }

  float *d_x, *d_y;
  CHECK(cudaMalloc(&d_x, size));
  CHECK(cudaMalloc(&d_y, size));
  CHECK(cudaMemcpy(d_x, x, size, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_y, y, size, cudaMemcpyHostToDevice));
  int gridSz = (N + blockSz - 1) / blockSz;
  saxpy2<<<gridSz, blockSz, shMem>>>(N, computeIntensity, d_x, d_y);
  CHECK_LAUNCH("saxpy2");
  CHECK(cudaMemcpy(y, d_y, size, cudaMemcpyDeviceToHost));
  CHECK(cudaFree(d_x));
  CHECK(cudaFree(d_y));

  /* The device performs the same sequence of IEEE single-precision additions
   * (no multiplication, so nothing can be contracted into an FMA), so the
   * result must match bit for bit; a tiny tolerance only guards against a
   * host compiler that keeps excess precision. */
  int bad = 0;
  for (int i = 0; i < N; i++) {
    float tmp = 0.0f;
    for (int cnt = 0; cnt < computeIntensity; ++cnt) tmp += x[i];
    float want = y0[i] + tmp;
    if (fabsf(y[i] - want) > 1e-6f * fmaxf(1.0f, fabsf(want))) {
      if (bad < 5)
        printf("FAILED: y[%d] = %.9g, expected %.9g\n", i, y[i], want);
      bad++;
    }
  }
  free(x); free(y); free(y0);
  if (bad) {
    printf("FAILED: %d of %d elements wrong\n", bad, N);
    return 1;
  }
  printf("saxpy2: N=%d computeIntensity=%d blockSize=%d grid=%d shMem=%d\n",
         N, computeIntensity, blockSz, gridSz, shMem);
  printf("PASSED\n");
  return 0;
}
