/* device_query: what a program learns about the device before launching.
 *
 * cudaGetDeviceCount, cudaSetDevice/GetDevice, cudaGetDeviceProperties,
 * cudaDeviceGetAttribute (must agree with the properties), cudaFuncGetAttributes,
 * the occupancy API (cudaOccupancyMaxActiveBlocksPerMultiprocessor,
 * cudaOccupancyMaxPotentialBlockSize), cudaMemGetInfo, cudaDriverGetVersion /
 * cudaRuntimeGetVersion, then a launch sized from the answers.  Values are
 * only checked for consistency and plausibility, since they describe
 * whichever GPU the runtime models.
 */
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
  printf("FAILED: %s: %s\n", #call, cudaGetErrorString(e_)); exit(1); } } while (0)

#define EXPECT(cond) do { if (!(cond)) { printf("FAILED: %s\n", #cond); return 1; } } while (0)

__global__ void heavy_kernel(float *out, int n) {
  __shared__ float buf[1024];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  buf[threadIdx.x] = (float) i;
  __syncthreads();
  if (i < n) out[i] = buf[blockDim.x - 1 - threadIdx.x] * 2.0f;
}

int main() {
  int count = 0, dev = -1;
  CHECK(cudaGetDeviceCount(&count));
  EXPECT(count >= 1);
  CHECK(cudaSetDevice(0));
  CHECK(cudaGetDevice(&dev));
  EXPECT(dev == 0);

  cudaDeviceProp p;
  CHECK(cudaGetDeviceProperties(&p, 0));
  EXPECT(p.name[0] != '\0');
  EXPECT(p.warpSize == 32);
  EXPECT(p.multiProcessorCount > 0);
  EXPECT(p.maxThreadsPerBlock >= 512 && p.maxThreadsPerBlock <= 1024);
  EXPECT(p.maxThreadsPerMultiProcessor >= p.maxThreadsPerBlock);
  EXPECT(p.sharedMemPerBlock >= 16384);
  EXPECT(p.regsPerBlock >= 16384);
  EXPECT(p.totalGlobalMem > (size_t) 256 << 20);
  EXPECT(p.major >= 2 && p.major < 20);
  EXPECT(p.maxGridSize[0] >= 65535 && p.maxThreadsDim[0] >= 512);

  int attr;
  CHECK(cudaDeviceGetAttribute(&attr, cudaDevAttrWarpSize, 0));
  EXPECT(attr == p.warpSize);
  CHECK(cudaDeviceGetAttribute(&attr, cudaDevAttrMultiProcessorCount, 0));
  EXPECT(attr == p.multiProcessorCount);
  CHECK(cudaDeviceGetAttribute(&attr, cudaDevAttrMaxThreadsPerBlock, 0));
  EXPECT(attr == p.maxThreadsPerBlock);
  CHECK(cudaDeviceGetAttribute(&attr, cudaDevAttrComputeCapabilityMajor, 0));
  EXPECT(attr == p.major);
  CHECK(cudaDeviceGetAttribute(&attr, cudaDevAttrComputeCapabilityMinor, 0));
  EXPECT(attr == p.minor);
  CHECK(cudaDeviceGetAttribute(&attr, cudaDevAttrMaxSharedMemoryPerBlock, 0));
  EXPECT((size_t) attr == p.sharedMemPerBlock);

  int driver = 0, runtime = 0;
  CHECK(cudaDriverGetVersion(&driver));
  CHECK(cudaRuntimeGetVersion(&runtime));
  EXPECT(runtime >= 13000 && driver >= runtime);
  size_t free_b = 0, total_b = 0;
  CHECK(cudaMemGetInfo(&free_b, &total_b));
  EXPECT(total_b > 0 && free_b <= total_b);

  cudaFuncAttributes fa;
  CHECK(cudaFuncGetAttributes(&fa, heavy_kernel));
  EXPECT(fa.sharedSizeBytes == 1024 * sizeof(float));
  EXPECT(fa.maxThreadsPerBlock > 0 && fa.maxThreadsPerBlock <= p.maxThreadsPerBlock);
  EXPECT(fa.numRegs > 0 && fa.numRegs <= 255);

  int blocks_per_sm = 0;
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_sm, heavy_kernel, 256, 0));
  EXPECT(blocks_per_sm >= 1 && blocks_per_sm * 256 <= p.maxThreadsPerMultiProcessor);
  EXPECT(blocks_per_sm * 4096 <= (int) p.sharedMemPerMultiprocessor);
  int min_grid = 0, best_block = 0;
  CHECK(cudaOccupancyMaxPotentialBlockSize(&min_grid, &best_block, heavy_kernel, 0, 0));
  EXPECT(best_block >= 32 && best_block <= fa.maxThreadsPerBlock && best_block % 32 == 0);
  EXPECT(min_grid >= p.multiProcessorCount);

  int n = min_grid * best_block;
  float *d_out, *out = (float *) malloc(n * sizeof(float));
  CHECK(cudaMalloc(&d_out, n * sizeof(float)));
  heavy_kernel<<<min_grid, best_block>>>(d_out, n);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(out, d_out, n * sizeof(float), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; i++) {
    int b = i / best_block, t = i % best_block;
    float want = (float) (b * best_block + best_block - 1 - t) * 2.0f;
    if (out[i] != want) {
      printf("FAILED: out[%d] = %g, expected %g\n", i, out[i], want);
      return 1;
    }
  }
  CHECK(cudaFree(d_out));
  free(out);
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaDeviceReset());
  printf("device: %s, sm_%d%d, %d SMs, occupancy %d blocks of 256 per SM, suggested block %d\n",
         p.name, p.major, p.minor, p.multiProcessorCount, blocks_per_sm, best_block);
  printf("PASSED\n");
  return 0;
}
