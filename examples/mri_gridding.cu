/* mri_gridding: convolution gridding of non-Cartesian MRI samples (Parboil
 * mri-gridding style, gather form).
 *
 * Samples lie on radial spokes through the centre of k-space, so their
 * density is much higher near the centre.  The host bins them by grid cell
 * (counting sort); the gridding kernel gives one thread per output grid
 * point, which visits the samples of the surrounding cells and accumulates
 * value * kernel(distance) for samples within the window radius.  Threads
 * and blocks near the centre do many times more work than at the edges: an
 * irregular kernel (seed 000 Table VI "mri").  One launch per receiver
 * channel.
 *
 * Usage: mri_gridding [grid=48] [spokes=60] [samplesPerSpoke=100] [channels=5]
 * Work: about channels * grid^2 * (40 + 15 * samples in the 4x4 cells around).
 */
#include "example-util.h"

#define RADIUS 1.5f

struct Sample {
  float kx, ky;   /* position in grid units */
  float re, im;   /* value */
};

__host__ __device__ static inline float window_weight(float d2) {
  /* (1 - d^2/r^2)^2: smooth, compact, cheap (a stand-in for Kaiser-Bessel) */
  float t = 1.0f - d2 * (1.0f / (RADIUS * RADIUS));
  return t * t;
}

__global__ void gridding(const Sample *samples, const int *bin_start, int g, float2 *out) {
  int gx = blockIdx.x * blockDim.x + threadIdx.x;
  int gy = blockIdx.y * blockDim.y + threadIdx.y;
  if (gx >= g || gy >= g) return;
  float re = 0.0f, im = 0.0f;
  int x0 = max(gx - 2, 0), x1 = min(gx + 1, g - 1);
  int y0 = max(gy - 2, 0), y1 = min(gy + 1, g - 1);
  for (int cy = y0; cy <= y1; cy++)
    for (int cx = x0; cx <= x1; cx++) {
      int cell = cy * g + cx;
      for (int s = bin_start[cell]; s < bin_start[cell + 1]; s++) {
        Sample sm = samples[s];
        float dx = sm.kx - (float) gx, dy = sm.ky - (float) gy;
        float d2 = dx * dx + dy * dy;
        if (d2 < RADIUS * RADIUS) {
          float wgt = window_weight(d2);
          re += wgt * sm.re;
          im += wgt * sm.im;
        }
      }
    }
  out[gy * g + gx] = make_float2(re, im);
}

int main(int argc, char **argv) {
  int g = (int) arg_long(argc, argv, 1, 48, 4, 4096);
  int spokes = (int) arg_long(argc, argv, 2, 60, 1, 100000);
  int per = (int) arg_long(argc, argv, 3, 100, 2, 100000);
  int channels = (int) arg_long(argc, argv, 4, 5, 1, 1000);
  int m = spokes * per, cells = g * g;

  /* Radial trajectory, then a counting sort of the samples by cell. */
  Sample *raw = (Sample *) host_alloc((size_t) m * sizeof(Sample));
  int *cell_of = (int *) host_alloc((size_t) m * sizeof(int));
  int *bin_start = (int *) host_alloc((size_t) (cells + 1) * sizeof(int));
  memset(bin_start, 0, (size_t) (cells + 1) * sizeof(int));
  float half = 0.5f * (float) g;
  for (int s = 0; s < spokes; s++) {
    float th = 3.14159265f * (float) s / (float) spokes;
    for (int p = 0; p < per; p++) {
      float r = (half - 0.5f) * (2.0f * (float) p / (float) (per - 1) - 1.0f);
      Sample sm;
      sm.kx = fminf(fmaxf(half + r * cosf(th), 0.0f), (float) g - 0.001f);
      sm.ky = fminf(fmaxf(half + r * sinf(th), 0.0f), (float) g - 0.001f);
      int i = s * per + p;
      raw[i] = sm;
      cell_of[i] = (int) sm.ky * g + (int) sm.kx;
      bin_start[cell_of[i] + 1]++;
    }
  }
  for (int c = 0; c < cells; c++) bin_start[c + 1] += bin_start[c];
  int *fill = (int *) host_alloc((size_t) cells * sizeof(int));
  memcpy(fill, bin_start, (size_t) cells * sizeof(int));
  Sample *sorted = (Sample *) host_alloc((size_t) m * sizeof(Sample));
  int *order = (int *) host_alloc((size_t) m * sizeof(int));
  for (int i = 0; i < m; i++) order[fill[cell_of[i]]++] = i;
  int busiest = 0;
  for (int c = 0; c < cells; c++)
    if (bin_start[c + 1] - bin_start[c] > busiest) busiest = bin_start[c + 1] - bin_start[c];

  Sample *d_samples;
  int *d_bins;
  float2 *d_out;
  CHECK(cudaMalloc(&d_samples, (size_t) m * sizeof(Sample)));
  CHECK(cudaMalloc(&d_bins, (size_t) (cells + 1) * sizeof(int)));
  CHECK(cudaMalloc(&d_out, (size_t) cells * sizeof(float2)));
  CHECK(cudaMemcpy(d_bins, bin_start, (size_t) (cells + 1) * sizeof(int), cudaMemcpyHostToDevice));
  float2 *got = (float2 *) host_alloc((size_t) cells * sizeof(float2));
  uint64_t seed = 59;
  dim3 block(8, 8), grid((g + 7) / 8, (g + 7) / 8);
  int bad = 0;
  double max_err = 0.0;
  for (int ch = 0; ch < channels && !bad; ch++) {
    for (int i = 0; i < m; i++) {
      sorted[i] = raw[order[i]];
      sorted[i].re = lcg_float(&seed) * 2.0f - 1.0f;
      sorted[i].im = lcg_float(&seed) * 2.0f - 1.0f;
    }
    CHECK(cudaMemcpy(d_samples, sorted, (size_t) m * sizeof(Sample), cudaMemcpyHostToDevice));
    gridding<<<grid, block>>>(d_samples, d_bins, g, d_out);
    CHECK_LAUNCH("gridding");
    CHECK(cudaMemcpy(got, d_out, (size_t) cells * sizeof(float2), cudaMemcpyDeviceToHost));

    /* Reference in double over the same samples in the same order. */
    for (int gy = 0; gy < g; gy++)
      for (int gx = 0; gx < g; gx++) {
        double re = 0.0, im = 0.0, mag = 0.0;
        for (int cy = (gy - 2 > 0 ? gy - 2 : 0); cy <= (gy + 1 < g - 1 ? gy + 1 : g - 1); cy++)
          for (int cx = (gx - 2 > 0 ? gx - 2 : 0); cx <= (gx + 1 < g - 1 ? gx + 1 : g - 1); cx++)
            for (int s = bin_start[cy * g + cx]; s < bin_start[cy * g + cx + 1]; s++) {
              float dx = sorted[s].kx - (float) gx, dy = sorted[s].ky - (float) gy;
              double d2 = (double) dx * dx + (double) dy * dy;
              if (d2 < RADIUS * RADIUS) {
                double t = 1.0 - d2 / (RADIUS * RADIUS), wgt = t * t;
                re += wgt * sorted[s].re;
                im += wgt * sorted[s].im;
                mag += wgt;
              }
            }
        float2 o = got[gy * g + gx];
        /* Float accumulation (and float distances) against double: allow a
         * relative error on the sum of the absolute contributions. */
        double tol = 1e-5 * (mag + 1.0) + 1e-4 * mag;
        double err = fmax(fabs(o.x - re), fabs(o.y - im));
        if (err > max_err) max_err = err;
        if (!(err <= tol)) {
          if (bad < 5)
            printf("FAILED: channel %d point (%d,%d) = (%.6f, %.6f), expected (%.6f, %.6f)\n", ch,
                   gx, gy, o.x, o.y, re, im);
          bad++;
        }
      }
  }
  CHECK(cudaFree(d_samples)); CHECK(cudaFree(d_bins)); CHECK(cudaFree(d_out));
  free(raw); free(cell_of); free(bin_start); free(fill); free(sorted); free(order); free(got);
  if (bad) {
    printf("FAILED: %d grid points wrong\n", bad);
    return 1;
  }
  printf("mri_gridding: %d samples on a %dx%d grid, busiest cell %d samples, %d launches, max error %.2e\n",
         m, g, g, busiest, channels, max_err);
  printf("PASSED\n");
  return 0;
}
