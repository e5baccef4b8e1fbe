/* cfd: explicit solver on an unstructured mesh (Rodinia cfd euler3d style).
 *
 * Cells carry four conserved variables (density, momentum x/y, energy) and
 * up to four neighbours given by an index list; the cell numbering is
 * shuffled, so neighbour loads are scattered (no locality), and boundary
 * cells have fewer neighbours.  Every iteration runs three kernels, as
 * euler3d does:
 *   compute_step_factor - a per-cell time step from the local sound speed
 *                         (sqrtf) and cell area;
 *   compute_flux        - a Rusanov-like flux from each neighbour;
 *   time_step           - explicit update of the variables.
 * Tens of launches (seed 000 Table VI "cfd": 100).
 *
 * Usage: cfd [width=64] [height=48] [iterations=10]
 * Work: about 3 * iterations * 115 * width * height thread instructions.
 */
#include "example-util.h"

#define NV 4
#define NNB 4
#define GAMMA 1.4f

__host__ __device__ static inline float pressure(const float *v) {
  float ke = 0.5f * (v[1] * v[1] + v[2] * v[2]) / v[0];
  return (GAMMA - 1.0f) * (v[3] - ke);
}

__host__ __device__ static inline float step_factor(const float *v, float area) {
  float p = pressure(v);
  float c = sqrtf(GAMMA * p / v[0]);
  float speed = sqrtf(v[1] * v[1] + v[2] * v[2]) / v[0];
  return 0.2f * sqrtf(area) / (speed + c);
}

/* Flux of the four variables into cell a from neighbour b (Rusanov). */
__host__ __device__ static inline void flux(const float *a, const float *b, float *out) {
  float pa = pressure(a), pb = pressure(b);
  float ca = sqrtf(GAMMA * pa / a[0]) + fabsf(a[1] / a[0]);
  float cb = sqrtf(GAMMA * pb / b[0]) + fabsf(b[1] / b[0]);
  float s = fmaxf(ca, cb);
  for (int k = 0; k < NV; k++) out[k] = 0.5f * s * (b[k] - a[k]);
  out[1] += 0.5f * (pa - pb) * 0.1f;
  out[3] += 0.05f * (pa - pb);
}

__global__ void compute_step_factor(const float *vars, const float *area, float *sf, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v[NV];
    for (int k = 0; k < NV; k++) v[k] = vars[k * n + i];
    sf[i] = step_factor(v, area[i]);
  }
}

__global__ void compute_flux(const float *vars, const int *nb, float *fluxes, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float a[NV], acc[NV] = {0, 0, 0, 0};
    for (int k = 0; k < NV; k++) a[k] = vars[k * n + i];
    for (int j = 0; j < NNB; j++) {
      int b = nb[i * NNB + j];
      if (b < 0) continue; /* wall: no flux */
      float bv[NV], f[NV];
      for (int k = 0; k < NV; k++) bv[k] = vars[k * n + b];
      flux(a, bv, f);
      for (int k = 0; k < NV; k++) acc[k] += f[k];
    }
    for (int k = 0; k < NV; k++) fluxes[k * n + i] = acc[k];
  }
}

__global__ void time_step(float *vars, const float *fluxes, const float *sf, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    for (int k = 0; k < NV; k++) vars[k * n + i] += sf[i] * fluxes[k * n + i];
}

int main(int argc, char **argv) {
  int w = (int) arg_long(argc, argv, 1, 64, 2, 4096);
  int h = (int) arg_long(argc, argv, 2, 48, 2, 4096);
  int iters = (int) arg_long(argc, argv, 3, 10, 1, 100000);
  int n = w * h;

  /* A structured grid renumbered by a random permutation. */
  int *perm = (int *) host_alloc((size_t) n * sizeof(int));
  uint64_t seed = 47;
  for (int i = 0; i < n; i++) perm[i] = i;
  for (int i = n - 1; i > 0; i--) {
    int j = (int) lcg_below(&seed, (uint32_t) i + 1);
    int t = perm[i]; perm[i] = perm[j]; perm[j] = t;
  }
  int *nb = (int *) host_alloc((size_t) n * NNB * sizeof(int));
  float *area = (float *) host_alloc((size_t) n * sizeof(float));
  float *vars = (float *) host_alloc((size_t) n * NV * sizeof(float));
  const int dx[NNB] = {1, -1, 0, 0}, dy[NNB] = {0, 0, 1, -1};
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      int c = perm[y * w + x];
      for (int j = 0; j < NNB; j++) {
        int xx = x + dx[j], yy = y + dy[j];
        nb[c * NNB + j] = (xx < 0 || xx >= w || yy < 0 || yy >= h) ? -1 : perm[yy * w + xx];
      }
      area[c] = 0.8f + 0.4f * lcg_float(&seed);
      float rho = (x < w / 2) ? 1.0f : 0.125f; /* a shock tube across the mesh */
      float p = (x < w / 2) ? 1.0f : 0.1f;
      vars[0 * n + c] = rho;
      vars[1 * n + c] = 0.0f;
      vars[2 * n + c] = 0.01f * rho * (lcg_float(&seed) - 0.5f);
      vars[3 * n + c] = p / (GAMMA - 1.0f) + 0.5f * vars[2 * n + c] * vars[2 * n + c] / rho;
    }

  float *d_vars, *d_area, *d_sf, *d_flux;
  int *d_nb;
  CHECK(cudaMalloc(&d_vars, (size_t) n * NV * sizeof(float)));
  CHECK(cudaMalloc(&d_flux, (size_t) n * NV * sizeof(float)));
  CHECK(cudaMalloc(&d_area, (size_t) n * sizeof(float)));
  CHECK(cudaMalloc(&d_sf, (size_t) n * sizeof(float)));
  CHECK(cudaMalloc(&d_nb, (size_t) n * NNB * sizeof(int)));
  CHECK(cudaMemcpy(d_vars, vars, (size_t) n * NV * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_area, area, (size_t) n * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_nb, nb, (size_t) n * NNB * sizeof(int), cudaMemcpyHostToDevice));
  int block = 128, grid = (n + block - 1) / block;
  for (int it = 0; it < iters; it++) {
    compute_step_factor<<<grid, block>>>(d_vars, d_area, d_sf, n);
    CHECK_LAUNCH("compute_step_factor");
    compute_flux<<<grid, block>>>(d_vars, d_nb, d_flux, n);
    CHECK_LAUNCH("compute_flux");
    time_step<<<grid, block>>>(d_vars, d_flux, d_sf, n);
    CHECK_LAUNCH("time_step");
  }
  float *got = (float *) host_alloc((size_t) n * NV * sizeof(float));
  CHECK(cudaMemcpy(got, d_vars, (size_t) n * NV * sizeof(float), cudaMemcpyDeviceToHost));

  /* Host reference with the same functions (compiled for the host). */
  float *sf = (float *) host_alloc((size_t) n * sizeof(float));
  float *fl = (float *) host_alloc((size_t) n * NV * sizeof(float));
  for (int it = 0; it < iters; it++) {
    for (int i = 0; i < n; i++) {
      float v[NV];
      for (int k = 0; k < NV; k++) v[k] = vars[k * n + i];
      sf[i] = step_factor(v, area[i]);
    }
    for (int i = 0; i < n; i++) {
      float a[NV], acc[NV] = {0, 0, 0, 0};
      for (int k = 0; k < NV; k++) a[k] = vars[k * n + i];
      for (int j = 0; j < NNB; j++) {
        int b = nb[i * NNB + j];
        if (b < 0) continue;
        float bv[NV], f[NV];
        for (int k = 0; k < NV; k++) bv[k] = vars[k * n + b];
        flux(a, bv, f);
        for (int k = 0; k < NV; k++) acc[k] += f[k];
      }
      for (int k = 0; k < NV; k++) fl[k * n + i] = acc[k];
    }
    for (int i = 0; i < n; i++)
      for (int k = 0; k < NV; k++) vars[k * n + i] += sf[i] * fl[k * n + i];
  }
  int bad = 0;
  double max_rel = 0.0;
  for (int i = 0; i < n * NV; i++) {
    double err = fabs((double) got[i] - vars[i]) / (fabs(vars[i]) + 1e-3);
    if (err > max_rel) max_rel = err;
    if (!(err <= 1e-4)) { /* float, contracted FMAs on the device, 10 steps */
      if (bad < 5)
        printf("FAILED: variable %d of cell %d = %.8g, expected %.8g\n", i / n, i % n, got[i], vars[i]);
      bad++;
    }
  }
  CHECK(cudaFree(d_vars)); CHECK(cudaFree(d_flux)); CHECK(cudaFree(d_area)); CHECK(cudaFree(d_sf));
  CHECK(cudaFree(d_nb));
  free(perm); free(nb); free(area); free(vars); free(got); free(sf); free(fl);
  if (bad) {
    printf("FAILED: %d of %d values wrong\n", bad, n * NV);
    return 1;
  }
  printf("cfd: %d cells, %d iterations (%d launches), max relative error %.2e\n", n, iters,
         3 * iters, max_rel);
  printf("PASSED\n");
  return 0;
}
