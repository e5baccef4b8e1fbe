/* spmv: sparse matrix-vector product y = A x, CSR format (Parboil spmv style).
 *
 * The matrix is generated with a fixed seed: row lengths are skewed (most
 * rows 2-24 non-zeros, one in 32 rows has 100-250), column indices are
 * random, so loads of x are scattered (memory divergence) and warps diverge
 * on row length.  Two kernels, each launched `iterations` times as a
 * benchmark would:
 *   spmv_scalar - one thread per row;
 *   spmv_vector - one warp per row, lanes stride over the row and combine
 *                 with __shfl_down_sync.
 *
 * Usage: spmv [rows=1024] [cols=2048] [iterations=10]
 * Work: about iterations * (10 * nnz + 1100 * rows) thread instructions.
 */
#include "example-util.h"

__global__ void spmv_scalar(int rows, const int *row_ptr, const int *col_idx,
                            const float *val, const float *x, float *y) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows) {
    float sum = 0.0f;
    for (int k = row_ptr[r]; k < row_ptr[r + 1]; k++)
      sum += val[k] * x[col_idx[k]];
    y[r] = sum;
  }
}

__global__ void spmv_vector(int rows, const int *row_ptr, const int *col_idx,
                            const float *val, const float *x, float *y) {
  int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  int lane = threadIdx.x & 31;
  if (warp < rows) { /* whole warps take this branch together */
    float sum = 0.0f;
    for (int k = row_ptr[warp] + lane; k < row_ptr[warp + 1]; k += 32)
      sum += val[k] * x[col_idx[k]];
    for (int off = 16; off > 0; off >>= 1)
      sum += __shfl_down_sync(0xffffffffu, sum, off);
    if (lane == 0)
      y[warp] = sum;
  }
}

static int verify(const char *what, const float *got, const double *want,
                  const double *mag, int rows) {
  for (int r = 0; r < rows; r++)
    if (!(fabs(got[r] - want[r]) <= 1e-5 * mag[r] + 1e-6)) {
      printf("FAILED: %s y[%d] = %.9g, expected %.9g\n", what, r, got[r], want[r]);
      return 1;
    }
  return 0;
}

int main(int argc, char **argv) {
  int rows = (int) arg_long(argc, argv, 1, 1024, 1, 1 << 22);
  int ncols = (int) arg_long(argc, argv, 2, 2048, 1, 1 << 24);
  int iters = (int) arg_long(argc, argv, 3, 10, 1, 10000);

  int *row_ptr = (int *) host_alloc((size_t) (rows + 1) * sizeof(int));
  uint64_t seed = 17;
  row_ptr[0] = 0;
  for (int r = 0; r < rows; r++) {
    int len = (lcg_below(&seed, 32) == 0) ? 100 + (int) lcg_below(&seed, 151)
                                          : 2 + (int) lcg_below(&seed, 23);
    row_ptr[r + 1] = row_ptr[r] + len;
  }
  int nnz = row_ptr[rows];
  int *col_idx = (int *) host_alloc((size_t) nnz * sizeof(int));
  float *val = (float *) host_alloc((size_t) nnz * sizeof(float));
  float *x = (float *) host_alloc((size_t) ncols * sizeof(float));
  float *y = (float *) host_alloc((size_t) rows * sizeof(float));
  for (int k = 0; k < nnz; k++) {
    col_idx[k] = (int) lcg_below(&seed, ncols);
    val[k] = lcg_float(&seed) * 2.0f - 1.0f;
  }
  for (int c = 0; c < ncols; c++) x[c] = lcg_float(&seed);

  double *want = (double *) host_alloc((size_t) rows * sizeof(double));
  double *mag = (double *) host_alloc((size_t) rows * sizeof(double));
  for (int r = 0; r < rows; r++) {
    double s = 0.0, m = 0.0;
    for (int k = row_ptr[r]; k < row_ptr[r + 1]; k++) {
      s += (double) val[k] * x[col_idx[k]];
      m += fabs((double) val[k] * x[col_idx[k]]);
    }
    want[r] = s;
    mag[r] = m * (row_ptr[r + 1] - row_ptr[r]) * 0.1; /* float rounding grows with length */
  }

  int *d_row, *d_col;
  float *d_val, *d_x, *d_y;
  CHECK(cudaMalloc(&d_row, (size_t) (rows + 1) * sizeof(int)));
  CHECK(cudaMalloc(&d_col, (size_t) nnz * sizeof(int)));
  CHECK(cudaMalloc(&d_val, (size_t) nnz * sizeof(float)));
  CHECK(cudaMalloc(&d_x, (size_t) ncols * sizeof(float)));
  CHECK(cudaMalloc(&d_y, (size_t) rows * sizeof(float)));
  CHECK(cudaMemcpy(d_row, row_ptr, (size_t) (rows + 1) * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_col, col_idx, (size_t) nnz * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_val, val, (size_t) nnz * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_x, x, (size_t) ncols * sizeof(float), cudaMemcpyHostToDevice));

  int block = 128;
  for (int it = 0; it < iters; it++) {
    spmv_scalar<<<(rows + block - 1) / block, block>>>(rows, d_row, d_col, d_val, d_x, d_y);
    CHECK_LAUNCH("spmv_scalar");
  }
  CHECK(cudaMemcpy(y, d_y, (size_t) rows * sizeof(float), cudaMemcpyDeviceToHost));
  if (verify("spmv_scalar", y, want, mag, rows)) return 1;

  CHECK(cudaMemset(d_y, 0, (size_t) rows * sizeof(float)));
  int vgrid = (int) (((long) rows * 32 + block - 1) / block);
  for (int it = 0; it < iters; it++) {
    spmv_vector<<<vgrid, block>>>(rows, d_row, d_col, d_val, d_x, d_y);
    CHECK_LAUNCH("spmv_vector");
  }
  CHECK(cudaMemcpy(y, d_y, (size_t) rows * sizeof(float), cudaMemcpyDeviceToHost));
  if (verify("spmv_vector", y, want, mag, rows)) return 1;

  CHECK(cudaFree(d_row)); CHECK(cudaFree(d_col)); CHECK(cudaFree(d_val));
  CHECK(cudaFree(d_x)); CHECK(cudaFree(d_y));
  free(row_ptr); free(col_idx); free(val); free(x); free(y); free(want); free(mag);
  printf("spmv: %dx%d, %d non-zeros, %d launches\n", rows, ncols, nnz, 2 * iters);
  printf("PASSED\n");
  return 0;
}
