/* hotspot: 2-D thermal simulation in the style of Rodinia's hotspot.
 *
 * A rows x cols chip; each iteration updates every cell's temperature from
 * its four neighbours (clamped at the edges), its power dissipation and the
 * ambient temperature.  A 16x16 block stages its tile plus a one-cell halo in
 * shared memory.  One launch per iteration with ping-pong buffers, so the
 * program has tens of identical launches (seed 000's inter-launch clustering
 * should put them all in one cluster).
 *
 * Usage: hotspot [rows=64] [cols=80] [iterations=20]
 * Work: about 75 * rows * cols * iterations thread instructions.
 */
#include "example-util.h"

#define BS 16

struct Coeff {
  float step, rx_inv, ry_inv, rz_inv, amb;
};

__host__ __device__ static inline float cell_update(float t, float n, float s, float e,
                                                    float w, float p, Coeff c) {
  return t + c.step * (p + (n + s - 2.0f * t) * c.ry_inv + (e + w - 2.0f * t) * c.rx_inv +
                       (c.amb - t) * c.rz_inv);
}

__global__ void hotspot_step(const float *temp, const float *power, float *out,
                             int rows, int cols, Coeff c) {
  __shared__ float tile[BS + 2][BS + 2];
  int tx = threadIdx.x, ty = threadIdx.y;
  int col = blockIdx.x * BS + tx;
  int row = blockIdx.y * BS + ty;
  int r = min(row, rows - 1), q = min(col, cols - 1); /* clamp for loads */

  tile[ty + 1][tx + 1] = temp[r * cols + q];
  if (ty == 0) tile[0][tx + 1] = temp[max(r - 1, 0) * cols + q];
  if (ty == BS - 1 || row == rows - 1)
    tile[ty + 2][tx + 1] = temp[min(r + 1, rows - 1) * cols + q];
  if (tx == 0) tile[ty + 1][0] = temp[r * cols + max(q - 1, 0)];
  if (tx == BS - 1 || col == cols - 1)
    tile[ty + 1][tx + 2] = temp[r * cols + min(q + 1, cols - 1)];
  __syncthreads();

  if (row < rows && col < cols) {
    float t = tile[ty + 1][tx + 1];
    out[row * cols + col] = cell_update(t, tile[ty][tx + 1], tile[ty + 2][tx + 1],
                                        tile[ty + 1][tx + 2], tile[ty + 1][tx],
                                        power[row * cols + col], c);
  }
}

int main(int argc, char **argv) {
  int rows = (int) arg_long(argc, argv, 1, 64, 1, 16384);
  int cols = (int) arg_long(argc, argv, 2, 80, 1, 16384);
  int iters = (int) arg_long(argc, argv, 3, 20, 1, 100000);
  size_t cells = (size_t) rows * cols;

  float *temp = (float *) host_alloc(cells * sizeof(float));
  float *power = (float *) host_alloc(cells * sizeof(float));
  float *ref = (float *) host_alloc(cells * sizeof(float));
  float *tmp = (float *) host_alloc(cells * sizeof(float));
  uint64_t seed = 11;
  for (size_t i = 0; i < cells; i++) {
    temp[i] = 323.0f + 20.0f * lcg_float(&seed);
    /* A few hot spots dissipate much more power. */
    power[i] = (lcg_below(&seed, 50) == 0) ? 2.0f : 0.1f * lcg_float(&seed);
  }
  Coeff c = {0.2f, 0.25f, 0.25f, 0.05f, 300.0f};

  float *d_temp[2], *d_power;
  CHECK(cudaMalloc(&d_temp[0], cells * sizeof(float)));
  CHECK(cudaMalloc(&d_temp[1], cells * sizeof(float)));
  CHECK(cudaMalloc(&d_power, cells * sizeof(float)));
  CHECK(cudaMemcpy(d_temp[0], temp, cells * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_power, power, cells * sizeof(float), cudaMemcpyHostToDevice));

  dim3 block(BS, BS), grid((cols + BS - 1) / BS, (rows + BS - 1) / BS);
  for (int it = 0; it < iters; it++) {
    hotspot_step<<<grid, block>>>(d_temp[it & 1], d_power, d_temp[(it + 1) & 1], rows, cols, c);
    CHECK_LAUNCH("hotspot_step");
  }
  float *got = (float *) host_alloc(cells * sizeof(float));
  CHECK(cudaMemcpy(got, d_temp[iters & 1], cells * sizeof(float), cudaMemcpyDeviceToHost));

  memcpy(ref, temp, cells * sizeof(float));
  for (int it = 0; it < iters; it++) {
    for (int i = 0; i < rows; i++)
      for (int j = 0; j < cols; j++) {
        float t = ref[i * cols + j];
        tmp[i * cols + j] = cell_update(t, ref[(i > 0 ? i - 1 : 0) * cols + j],
                                        ref[(i < rows - 1 ? i + 1 : i) * cols + j],
                                        ref[i * cols + (j < cols - 1 ? j + 1 : j)],
                                        ref[i * cols + (j > 0 ? j - 1 : 0)],
                                        power[i * cols + j], c);
      }
    float *sw = ref; ref = tmp; tmp = sw;
  }
  /* FMA contraction on the device changes the last bits of each step. */
  int bad = 0;
  for (size_t i = 0; i < cells; i++)
    if (!(fabsf(got[i] - ref[i]) <= 1e-3f)) {
      if (bad < 5)
        printf("FAILED: cell (%zu,%zu) = %.6f, expected %.6f\n", i / cols, i % cols, got[i], ref[i]);
      bad++;
    }
  CHECK(cudaFree(d_temp[0]));
  CHECK(cudaFree(d_temp[1]));
  CHECK(cudaFree(d_power));
  free(temp); free(power); free(ref); free(tmp); free(got);
  if (bad) {
    printf("FAILED: %d of %zu cells wrong\n", bad, cells);
    return 1;
  }
  printf("hotspot: %dx%d grid, %d iterations (%d launches of %u blocks)\n", rows, cols,
         iters, iters, grid.x * grid.y);
  printf("PASSED\n");
  return 0;
}
