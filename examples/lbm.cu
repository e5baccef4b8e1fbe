/* lbm: D2Q9 lattice-Boltzmann fluid step (Parboil lbm style, in 2-D).
 *
 * Each time step is one launch of stream_collide: every cell pulls the nine
 * distributions from its neighbours (periodic boundaries; obstacle cells
 * bounce back), computes density and velocity, and relaxes towards the
 * equilibrium (BGK collision).  Structure-of-arrays layout, one thread per
 * cell, ping-pong buffers: a regular, memory-bound kernel with many thread
 * blocks per launch.
 *
 * Usage: lbm [width=128] [height=64] [steps=8]
 * Work: about 390 * width * height * steps thread instructions.
 */
#include "example-util.h"

#define Q 9

__constant__ int c_ex[Q] = {0, 1, 0, -1, 0, 1, -1, -1, 1};
__constant__ int c_ey[Q] = {0, 0, 1, 0, -1, 1, 1, -1, -1};
__constant__ int c_opp[Q] = {0, 3, 4, 1, 2, 7, 8, 5, 6};
__constant__ float c_w[Q] = {4.f / 9, 1.f / 9, 1.f / 9, 1.f / 9, 1.f / 9,
                             1.f / 36, 1.f / 36, 1.f / 36, 1.f / 36};
static const int h_ex[Q] = {0, 1, 0, -1, 0, 1, -1, -1, 1};
static const int h_ey[Q] = {0, 0, 1, 0, -1, 1, 1, -1, -1};
static const int h_opp[Q] = {0, 3, 4, 1, 2, 7, 8, 5, 6};
static const float h_w[Q] = {4.f / 9, 1.f / 9, 1.f / 9, 1.f / 9, 1.f / 9,
                             1.f / 36, 1.f / 36, 1.f / 36, 1.f / 36};

__global__ void stream_collide(const float *src, float *dst, const unsigned char *obstacle,
                               int w, int h, float omega) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y;
  if (x >= w) return;
  size_t cells = (size_t) w * h, c = (size_t) y * w + x;
  float f[Q];
  for (int q = 0; q < Q; q++) {
    int sx = x - c_ex[q], sy = y - c_ey[q];
    sx = sx < 0 ? sx + w : (sx >= w ? sx - w : sx);
    sy = sy < 0 ? sy + h : (sy >= h ? sy - h : sy);
    f[q] = src[q * cells + (size_t) sy * w + sx];
  }
  if (obstacle[c]) { /* bounce back */
    for (int q = 0; q < Q; q++) dst[c_opp[q] * cells + c] = f[q];
    return;
  }
  float rho = 0.f, ux = 0.f, uy = 0.f;
  for (int q = 0; q < Q; q++) {
    rho += f[q];
    ux += f[q] * c_ex[q];
    uy += f[q] * c_ey[q];
  }
  ux /= rho;
  uy /= rho;
  float usq = 1.5f * (ux * ux + uy * uy);
  for (int q = 0; q < Q; q++) {
    float eu = 3.0f * (c_ex[q] * ux + c_ey[q] * uy);
    float feq = c_w[q] * rho * (1.0f + eu + 0.5f * eu * eu - usq);
    dst[q * cells + c] = f[q] + omega * (feq - f[q]);
  }
}

int main(int argc, char **argv) {
  int w = (int) arg_long(argc, argv, 1, 128, 3, 1 << 14);
  int h = (int) arg_long(argc, argv, 2, 64, 3, 1 << 14);
  int steps = (int) arg_long(argc, argv, 3, 8, 1, 100000);
  size_t cells = (size_t) w * h;
  const float omega = 1.2f;

  float *f = (float *) host_alloc(Q * cells * sizeof(float));
  float *g = (float *) host_alloc(Q * cells * sizeof(float));
  unsigned char *obst = (unsigned char *) host_alloc(cells);
  uint64_t seed = 43;
  for (size_t c = 0; c < cells; c++) {
    int x = (int) (c % w), y = (int) (c / w);
    int dx = x - w / 4, dy = y - h / 2;
    obst[c] = (dx * dx + dy * dy < (h / 8) * (h / 8)) || y == 0; /* cylinder and a wall */
    float rho = 1.0f + 0.01f * lcg_float(&seed), ux = 0.05f, uy = 0.0f;
    for (int q = 0; q < Q; q++) {
      float eu = 3.0f * (h_ex[q] * ux + h_ey[q] * uy);
      f[q * cells + c] = h_w[q] * rho * (1.0f + eu + 0.5f * eu * eu - 1.5f * ux * ux);
    }
  }
  float *d_f, *d_g;
  unsigned char *d_obst;
  CHECK(cudaMalloc(&d_f, Q * cells * sizeof(float)));
  CHECK(cudaMalloc(&d_g, Q * cells * sizeof(float)));
  CHECK(cudaMalloc(&d_obst, cells));
  CHECK(cudaMemcpy(d_f, f, Q * cells * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_obst, obst, cells, cudaMemcpyHostToDevice));
  dim3 block(64), grid((w + 63) / 64, h);
  for (int s = 0; s < steps; s++) {
    stream_collide<<<grid, block>>>(s & 1 ? d_g : d_f, s & 1 ? d_f : d_g, d_obst, w, h, omega);
    CHECK_LAUNCH("stream_collide");
  }
  float *got = (float *) host_alloc(Q * cells * sizeof(float));
  CHECK(cudaMemcpy(got, steps & 1 ? d_g : d_f, Q * cells * sizeof(float), cudaMemcpyDeviceToHost));

  /* Host reference, same algorithm in float (the device may contract a*b+c
   * into FMAs, hence the tolerance). */
  for (int s = 0; s < steps; s++) {
    for (size_t c = 0; c < cells; c++) {
      int x = (int) (c % w), y = (int) (c / w);
      float fq[Q];
      for (int q = 0; q < Q; q++) {
        int sx = (x - h_ex[q] + w) % w, sy = (y - h_ey[q] + h) % h;
        fq[q] = f[q * cells + (size_t) sy * w + sx];
      }
      if (obst[c]) {
        for (int q = 0; q < Q; q++) g[h_opp[q] * cells + c] = fq[q];
        continue;
      }
      float rho = 0.f, ux = 0.f, uy = 0.f;
      for (int q = 0; q < Q; q++) {
        rho += fq[q];
        ux += fq[q] * h_ex[q];
        uy += fq[q] * h_ey[q];
      }
      ux /= rho;
      uy /= rho;
      float usq = 1.5f * (ux * ux + uy * uy);
      for (int q = 0; q < Q; q++) {
        float eu = 3.0f * (h_ex[q] * ux + h_ey[q] * uy);
        float feq = h_w[q] * rho * (1.0f + eu + 0.5f * eu * eu - usq);
        g[q * cells + c] = fq[q] + omega * (feq - fq[q]);
      }
    }
    float *t = f; f = g; g = t;
  }
  int bad = 0;
  double max_err = 0.0;
  for (size_t i = 0; i < Q * cells; i++) {
    double err = fabs((double) got[i] - f[i]);
    if (err > max_err) max_err = err;
    if (!(err <= 1e-5)) { /* distributions are around 0.03-0.45 */
      if (bad < 5)
        printf("FAILED: f[%zu][cell %zu] = %.8f, expected %.8f\n", i / cells, i % cells, got[i], f[i]);
      bad++;
    }
  }
  CHECK(cudaFree(d_f)); CHECK(cudaFree(d_g)); CHECK(cudaFree(d_obst));
  free(f); free(g); free(obst); free(got);
  if (bad) {
    printf("FAILED: %d of %zu values wrong\n", bad, Q * cells);
    return 1;
  }
  printf("lbm: %dx%d D2Q9, %d steps (%d launches of %u blocks), max error %.2e\n", w, h, steps,
         steps, grid.x * grid.y, max_err);
  printf("PASSED\n");
  return 0;
}
