/* transpose: out = in^T, three ways (CUDA SDK transpose style).
 *
 *   transpose_naive    - reads coalesced, writes strided by the height
 *                        (uncoalesced global stores);
 *   transpose_tiled    - a 32x32 shared-memory tile makes both global reads
 *                        and writes coalesced, but reading a tile column hits
 *                        one shared-memory bank 32 times (32-way conflicts);
 *   transpose_padded   - the same with a 32x33 tile: the padding column
 *                        spreads a column over all 32 banks (no conflicts).
 * Blocks are 32x8 threads, each thread moves 4 elements.  The default
 * matrix is not a multiple of 32 in either dimension, so the edge guards are
 * exercised.
 *
 * Usage: transpose [width=200] [height=136] [repeats=2]
 * Work: about 3 * repeats * 23 * width * height thread instructions.
 */
#include "example-util.h"

#define TILE 32
#define ROWS 8

__global__ void transpose_naive(float *out, const float *in, int width, int height) {
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS)
    if (x < width && y + j < height)
      out[x * height + (y + j)] = in[(y + j) * width + x];
}

__global__ void transpose_tiled(float *out, const float *in, int width, int height) {
  __shared__ float tile[TILE][TILE];
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS)
    if (x < width && y + j < height)
      tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * width + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x; /* transposed block offset */
  y = blockIdx.x * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS)
    if (x < height && y + j < width)
      out[(y + j) * height + x] = tile[threadIdx.x][threadIdx.y + j];
}

__global__ void transpose_padded(float *out, const float *in, int width, int height) {
  __shared__ float tile[TILE][TILE + 1];
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS)
    if (x < width && y + j < height)
      tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * width + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS)
    if (x < height && y + j < width)
      out[(y + j) * height + x] = tile[threadIdx.x][threadIdx.y + j];
}

typedef void (*TransposeKernel)(float *, const float *, int, int);

static int run(const char *name, TransposeKernel kernel, int repeats, float *d_out,
               const float *d_in, int width, int height, const float *in, float *out) {
  size_t bytes = (size_t) width * height * sizeof(float);
  CHECK(cudaMemset(d_out, 0xff, bytes)); /* NaN: missed elements fail */
  dim3 grid((width + TILE - 1) / TILE, (height + TILE - 1) / TILE), block(TILE, ROWS);
  for (int r = 0; r < repeats; r++) {
    kernel<<<grid, block>>>(d_out, d_in, width, height);
    CHECK_LAUNCH(name);
  }
  CHECK(cudaMemcpy(out, d_out, bytes, cudaMemcpyDeviceToHost));
  for (int y = 0; y < height; y++)
    for (int x = 0; x < width; x++)
      if (!(out[x * height + y] == in[y * width + x])) {
        printf("FAILED: %s: out[%d][%d] = %g, expected %g\n", name, x, y,
               out[x * height + y], in[y * width + x]);
        return 1;
      }
  return 0;
}

int main(int argc, char **argv) {
  int width = (int) arg_long(argc, argv, 1, 200, 1, 1 << 14);
  int height = (int) arg_long(argc, argv, 2, 136, 1, 1 << 14);
  int repeats = (int) arg_long(argc, argv, 3, 2, 1, 10000);
  size_t bytes = (size_t) width * height * sizeof(float);

  float *in = (float *) host_alloc(bytes), *out = (float *) host_alloc(bytes);
  uint64_t seed = 29;
  for (size_t i = 0; i < (size_t) width * height; i++) in[i] = lcg_float(&seed);
  float *d_in, *d_out;
  CHECK(cudaMalloc(&d_in, bytes));
  CHECK(cudaMalloc(&d_out, bytes));
  CHECK(cudaMemcpy(d_in, in, bytes, cudaMemcpyHostToDevice));

  if (run("transpose_naive", transpose_naive, repeats, d_out, d_in, width, height, in, out) ||
      run("transpose_tiled", transpose_tiled, repeats, d_out, d_in, width, height, in, out) ||
      run("transpose_padded", transpose_padded, repeats, d_out, d_in, width, height, in, out))
    return 1;
  CHECK(cudaFree(d_in));
  CHECK(cudaFree(d_out));
  free(in); free(out);
  printf("transpose: %dx%d, 3 kernels x %d launches\n", width, height, repeats);
  printf("PASSED\n");
  return 0;
}
