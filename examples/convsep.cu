/* convsep: separable 2-D convolution (CUDA SDK convolutionSeparable style).
 *
 * A row pass then a column pass with a (2R+1)-tap filter held in __constant__
 * memory (set with cudaMemcpyToSymbol).  Each block stages its tile plus an
 * apron of R pixels on both sides in shared memory; pixels outside the image
 * count as zero.  The pair of passes is repeated `iterations` times on the
 * same input (as the SDK does for timing), so the program has many identical
 * launches of many small thread blocks: seed 000's "conv" (Table VI: 11
 * launches, 202752 TBs) in miniature.
 *
 * Usage: convsep [width=128] [height=128] [iterations=4]
 * Work: about 2 * iterations * 95 * width * height thread instructions.
 */
#include "example-util.h"

#define R 8
#define TAPS (2 * R + 1)
#define ROW_W 32 /* row pass: 32x4 threads, one pixel each */
#define ROW_H 4
#define COL_W 16 /* column pass: 16x16 threads */
#define COL_H 16

__constant__ float c_filter[TAPS];

__global__ void conv_rows(float *dst, const float *src, int w, int h) {
  __shared__ float tile[ROW_H][ROW_W + 2 * R];
  int x = blockIdx.x * ROW_W + threadIdx.x;
  int y = blockIdx.y * ROW_H + threadIdx.y;
  int yc = min(y, h - 1);
  /* Centre, then the left and right aprons. */
  tile[threadIdx.y][threadIdx.x + R] = (x < w) ? src[yc * w + x] : 0.0f;
  if (threadIdx.x < R) {
    int xl = x - R;
    tile[threadIdx.y][threadIdx.x] = (xl >= 0) ? src[yc * w + xl] : 0.0f;
    int xr = blockIdx.x * ROW_W + ROW_W + threadIdx.x;
    tile[threadIdx.y][threadIdx.x + ROW_W + R] = (xr < w) ? src[yc * w + xr] : 0.0f;
  }
  __syncthreads();
  if (x < w && y < h) {
    float sum = 0.0f;
#pragma unroll
    for (int k = -R; k <= R; k++)
      sum += c_filter[R - k] * tile[threadIdx.y][threadIdx.x + R + k];
    dst[y * w + x] = sum;
  }
}

__global__ void conv_cols(float *dst, const float *src, int w, int h) {
  __shared__ float tile[COL_H + 2 * R][COL_W];
  int x = blockIdx.x * COL_W + threadIdx.x;
  int y = blockIdx.y * COL_H + threadIdx.y;
  int xc = min(x, w - 1);
  tile[threadIdx.y + R][threadIdx.x] = (y < h) ? src[y * w + xc] : 0.0f;
  if (threadIdx.y < R) {
    int yt = y - R;
    tile[threadIdx.y][threadIdx.x] = (yt >= 0) ? src[yt * w + xc] : 0.0f;
    int yb = blockIdx.y * COL_H + COL_H + threadIdx.y;
    tile[threadIdx.y + COL_H + R][threadIdx.x] = (yb < h) ? src[yb * w + xc] : 0.0f;
  }
  __syncthreads();
  if (x < w && y < h) {
    float sum = 0.0f;
#pragma unroll
    for (int k = -R; k <= R; k++)
      sum += c_filter[R - k] * tile[threadIdx.y + R + k][threadIdx.x];
    dst[y * w + x] = sum;
  }
}

int main(int argc, char **argv) {
  int w = (int) arg_long(argc, argv, 1, 128, 1, 1 << 14);
  int h = (int) arg_long(argc, argv, 2, 128, 1, 1 << 14);
  int iters = (int) arg_long(argc, argv, 3, 4, 1, 10000);
  size_t px = (size_t) w * h;

  float filter[TAPS], fsum = 0.0f;
  for (int k = 0; k < TAPS; k++) {
    filter[k] = expf(-(float) ((k - R) * (k - R)) / 18.0f) + 0.01f * (float) k; /* asymmetric */
    fsum += filter[k];
  }
  for (int k = 0; k < TAPS; k++) filter[k] /= fsum;
  float *img = (float *) host_alloc(px * sizeof(float));
  uint64_t seed = 37;
  for (size_t i = 0; i < px; i++) img[i] = lcg_float(&seed);

  float *d_img, *d_tmp, *d_out;
  CHECK(cudaMemcpyToSymbol(c_filter, filter, sizeof filter));
  CHECK(cudaMalloc(&d_img, px * sizeof(float)));
  CHECK(cudaMalloc(&d_tmp, px * sizeof(float)));
  CHECK(cudaMalloc(&d_out, px * sizeof(float)));
  CHECK(cudaMemcpy(d_img, img, px * sizeof(float), cudaMemcpyHostToDevice));
  dim3 rgrid((w + ROW_W - 1) / ROW_W, (h + ROW_H - 1) / ROW_H), rblock(ROW_W, ROW_H);
  dim3 cgrid((w + COL_W - 1) / COL_W, (h + COL_H - 1) / COL_H), cblock(COL_W, COL_H);
  for (int it = 0; it < iters; it++) {
    conv_rows<<<rgrid, rblock>>>(d_tmp, d_img, w, h);
    CHECK_LAUNCH("conv_rows");
    conv_cols<<<cgrid, cblock>>>(d_out, d_tmp, w, h);
    CHECK_LAUNCH("conv_cols");
  }
  float *got = (float *) host_alloc(px * sizeof(float));
  CHECK(cudaMemcpy(got, d_out, px * sizeof(float), cudaMemcpyDeviceToHost));

  /* Reference: out(x, y) = sum_k f[R-k] * in(x + k, y) (zero outside), then
   * the same along y, in double. */
  double *tmp = (double *) host_alloc(px * sizeof(double));
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      double s = 0.0;
      for (int k = -R; k <= R; k++)
        if (x + k >= 0 && x + k < w) s += (double) filter[R - k] * img[y * w + x + k];
      tmp[(size_t) y * w + x] = s;
    }
  int bad = 0;
  double max_err = 0.0;
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      double s = 0.0;
      for (int k = -R; k <= R; k++)
        if (y + k >= 0 && y + k < h) s += (double) filter[R - k] * tmp[(size_t) (y + k) * w + x];
      double err = fabs(got[(size_t) y * w + x] - s);
      if (err > max_err) max_err = err;
      if (!(err <= 2e-6)) { /* values are below 1; float sums of 17 terms */
        if (bad < 5)
          printf("FAILED: pixel (%d,%d) = %.8f, expected %.8f\n", x, y, got[(size_t) y * w + x], s);
        bad++;
      }
    }
  CHECK(cudaFree(d_img)); CHECK(cudaFree(d_tmp)); CHECK(cudaFree(d_out));
  free(img); free(got); free(tmp);
  if (bad) {
    printf("FAILED: %d of %zu pixels wrong\n", bad, px);
    return 1;
  }
  printf("convsep: %dx%d, radius %d, %d launches, %u + %u blocks per pass pair, max error %.2e\n",
         w, h, R, 2 * iters, rgrid.x * rgrid.y, cgrid.x * cgrid.y, max_err);
  printf("PASSED\n");
  return 0;
}
