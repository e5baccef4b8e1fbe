/* grids_3d: 2-D and 3-D grids and blocks, grid-stride loops, managed memory.
 *
 *  - a 3-D kernel writes, for every element of a volume, the linear index
 *    rebuilt from blockIdx/threadIdx/blockDim/gridDim in x, y and z;
 *  - a 2-D grid-stride loop (grid smaller than the data) scales a matrix;
 *  - a 1-D grid-stride loop over cudaMallocManaged memory touched by the
 *    host before and after the launch;
 *  - a launch with gridDim.y and gridDim.z > 1 and odd block shapes.
 */
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
  printf("FAILED: %s: %s\n", #call, cudaGetErrorString(e_)); exit(1); } } while (0)

__global__ void fill3d(int *vol, int nx, int ny, int nz) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  int z = blockIdx.z * blockDim.z + threadIdx.z;
  if (x < nx && y < ny && z < nz) {
    int block = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
    int thread = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
    vol[(z * ny + y) * nx + x] = block * 1024 + thread;
  }
}

__global__ void scale2d(float *m, int w, int h, float s) {
  for (int y = blockIdx.y * blockDim.y + threadIdx.y; y < h; y += blockDim.y * gridDim.y)
    for (int x = blockIdx.x * blockDim.x + threadIdx.x; x < w; x += blockDim.x * gridDim.x)
      m[y * w + x] = m[y * w + x] * s + (float) (x - y);
}

__global__ void managed_inc(long long *v, long long n) {
  for (long long i = blockIdx.x * (long long) blockDim.x + threadIdx.x; i < n;
       i += (long long) blockDim.x * gridDim.x)
    v[i] += i * i;
}

int main() {
  const int nx = 37, ny = 19, nz = 11;
  dim3 block(8, 4, 3), grid((nx + 7) / 8, (ny + 3) / 4, (nz + 2) / 3);
  int *d_vol, *vol = (int *) malloc(nx * ny * nz * sizeof(int));
  CHECK(cudaMalloc(&d_vol, nx * ny * nz * sizeof(int)));
  CHECK(cudaMemset(d_vol, 0xff, nx * ny * nz * sizeof(int)));
  fill3d<<<grid, block>>>(d_vol, nx, ny, nz);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(vol, d_vol, nx * ny * nz * sizeof(int), cudaMemcpyDeviceToHost));
  for (int z = 0; z < nz; z++)
    for (int y = 0; y < ny; y++)
      for (int x = 0; x < nx; x++) {
        int bx = x / 8, by = y / 4, bz = z / 3, tx = x % 8, ty = y % 4, tz = z % 3;
        int want = (bx + grid.x * (by + grid.y * bz)) * 1024 + tx + 8 * (ty + 4 * tz);
        if (vol[(z * ny + y) * nx + x] != want) {
          printf("FAILED: fill3d (%d,%d,%d) = %d, expected %d\n", x, y, z,
                 vol[(z * ny + y) * nx + x], want);
          return 1;
        }
      }

  const int w = 100, h = 70;
  float *m = (float *) malloc(w * h * sizeof(float)), *d_m;
  for (int i = 0; i < w * h; i++) m[i] = (float) (i % 13) * 0.5f;
  CHECK(cudaMalloc(&d_m, w * h * sizeof(float)));
  CHECK(cudaMemcpy(d_m, m, w * h * sizeof(float), cudaMemcpyHostToDevice));
  scale2d<<<dim3(3, 2), dim3(16, 8)>>>(d_m, w, h, 1.5f); /* far fewer threads than elements */
  CHECK(cudaGetLastError());
  float *got = (float *) malloc(w * h * sizeof(float));
  CHECK(cudaMemcpy(got, d_m, w * h * sizeof(float), cudaMemcpyDeviceToHost));
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      float want = m[y * w + x] * 1.5f + (float) (x - y); /* exact: small binary fractions */
      if (got[y * w + x] != want) {
        printf("FAILED: scale2d (%d,%d) = %g, expected %g\n", x, y, got[y * w + x], want);
        return 1;
      }
    }

  const long long n = 10000;
  long long *v;
  CHECK(cudaMallocManaged(&v, n * sizeof(long long)));
  for (long long i = 0; i < n; i++) v[i] = 3 * i;
  managed_inc<<<7, 96>>>(v, n);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize()); /* before the host reads managed memory */
  for (long long i = 0; i < n; i++)
    if (v[i] != 3 * i + i * i) {
      printf("FAILED: managed[%lld] = %lld, expected %lld\n", i, v[i], 3 * i + i * i);
      return 1;
    }
  CHECK(cudaFree(v));
  CHECK(cudaFree(d_vol));
  CHECK(cudaFree(d_m));
  free(vol); free(m); free(got);
  printf("PASSED\n");
  return 0;
}
