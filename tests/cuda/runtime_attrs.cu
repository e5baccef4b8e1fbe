/* runtime_attrs: hints a program sets and reads back, and PTX's WARP_SZ.
 *
 *  - cudaStreamSetAttribute / cudaStreamGetAttribute with an L2 access
 *    policy window (an invalid hit ratio is refused), and
 *    cudaCtxResetPersistingL2Cache;
 *  - cudaDeviceGetDefaultMemPool, cudaMemPoolSet/GetAttribute (release
 *    threshold, reuse policy), cudaMallocAsync/cudaFreeAsync from it;
 *  - the predefined PTX constant WARP_SZ in inline assembly;
 *  - programmatic dependent launch: cudaLaunchKernelEx with
 *    cudaLaunchAttributeProgrammaticStreamSerialization and kernels calling
 *    cudaTriggerProgrammaticLaunchCompletion / cudaGridDependencySynchronize
 *    (griddepcontrol, in sm_90 builds), the second reading what the first
 *    wrote;
 *  - the device runtime's limits (cudaLimitDevRuntimeSyncDepth and
 *    cudaLimitDevRuntimePendingLaunchCount) are set and read back;
 *  - cudaHostRegister(Mapped) of malloc'd memory: a kernel writes it through
 *    cudaHostGetDevicePointer; registering twice and unregistering memory
 *    that was never registered fail.
 */
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>

#define CHECK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
  printf("FAILED: %s: %s\n", #call, cudaGetErrorString(e_)); exit(1); } } while (0)

__global__ void square(int *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = p[i] * p[i];
}

__global__ void produce(int *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = 3 * i;
#if __CUDA_ARCH__ >= 900   /* griddepcontrol needs sm_90 */
  cudaTriggerProgrammaticLaunchCompletion();
#endif
}

__global__ void consume(const int *p, int *q, int n) {
#if __CUDA_ARCH__ >= 900
  cudaGridDependencySynchronize();
#endif
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) q[i] = p[n - 1 - i] + 1;
}

__global__ void warp_size(int *out) {
  int w, lanes;
  asm("mov.u32 %0, WARP_SZ;" : "=r"(w));
  asm("add.u32 %0, %1, WARP_SZ;" : "=r"(lanes) : "r"((int) threadIdx.x));
  out[threadIdx.x] = w * 1000 + lanes;
}

int main() {
  int bad = 0;
  cudaStream_t s;
  CHECK(cudaStreamCreate(&s));
  int *buf;
  CHECK(cudaMalloc(&buf, 1 << 16));
  cudaStreamAttrValue v;
  memset(&v, 0, sizeof v);
  v.accessPolicyWindow.base_ptr = buf;
  v.accessPolicyWindow.num_bytes = 1 << 16;
  v.accessPolicyWindow.hitRatio = 0.75f;
  v.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;
  v.accessPolicyWindow.missProp = cudaAccessPropertyStreaming;
  CHECK(cudaStreamSetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &v));
  cudaStreamAttrValue r;
  memset(&r, 0, sizeof r);
  CHECK(cudaStreamGetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &r));
  bad |= r.accessPolicyWindow.base_ptr != buf || r.accessPolicyWindow.hitRatio != 0.75f
         || r.accessPolicyWindow.hitProp != cudaAccessPropertyPersisting;
  v.accessPolicyWindow.hitRatio = 1.5f;
  if (cudaStreamSetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &v) != cudaErrorInvalidValue) {
    printf("FAILED: hit ratio 1.5 accepted\n");
    bad = 1;
  }
  cudaGetLastError();
  CHECK(cudaCtxResetPersistingL2Cache());

  size_t depth = 0, pending = 0;
  CHECK(cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, 4096));
  CHECK(cudaDeviceSetLimit(cudaLimitDevRuntimeSyncDepth, 3));
  CHECK(cudaDeviceGetLimit(&pending, cudaLimitDevRuntimePendingLaunchCount));
  CHECK(cudaDeviceGetLimit(&depth, cudaLimitDevRuntimeSyncDepth));
  if (pending != 4096 || depth != 3) {
    printf("FAILED: device runtime limits read back as %zu and %zu\n", pending, depth);
    bad = 1;
  }

  cudaMemPool_t pool;
  CHECK(cudaDeviceGetDefaultMemPool(&pool, 0));
  unsigned long long thr = 64ull << 20, thr_back = 0;
  CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &thr));
  CHECK(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &thr_back));
  int reuse = 0;
  CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolReuseAllowOpportunistic, &reuse));
  reuse = 1;
  CHECK(cudaMemPoolGetAttribute(pool, cudaMemPoolReuseAllowOpportunistic, &reuse));
  bad |= thr_back != thr || reuse != 0;
  int *a;
  CHECK(cudaMallocAsync(&a, 64 * sizeof(int), s));
  warp_size<<<1, 64, 0, s>>>(a);
  int out[64];
  CHECK(cudaMemcpyAsync(out, a, sizeof out, cudaMemcpyDeviceToHost, s));
  CHECK(cudaFreeAsync(a, s));
  CHECK(cudaStreamSynchronize(s));
  for (int i = 0; i < 64; i++)
    if (out[i] != 32 * 1000 + i + 32) {
      printf("FAILED: WARP_SZ: out[%d] = %d\n", i, out[i]);
      bad = 1;
      break;
    }
  CHECK(cudaFree(buf));
  CHECK(cudaStreamDestroy(s));

  {
    const int m = 300;
    int *p, *q, hq[m];
    CHECK(cudaMalloc(&p, m * sizeof(int)));
    CHECK(cudaMalloc(&q, m * sizeof(int)));
    produce<<<(m + 63) / 64, 64>>>(p, m);
    cudaLaunchConfig_t cfg = {};
    cudaLaunchAttribute at;
    at.id = cudaLaunchAttributeProgrammaticStreamSerialization;
    at.val.programmaticStreamSerializationAllowed = 1;
    cfg.gridDim = dim3((m + 63) / 64);
    cfg.blockDim = dim3(64);
    cfg.attrs = &at;
    cfg.numAttrs = 1;
    CHECK(cudaLaunchKernelEx(&cfg, consume, (const int *) p, q, m));
    CHECK(cudaMemcpy(hq, q, sizeof hq, cudaMemcpyDeviceToHost));
    for (int i = 0; i < m; i++)
      if (hq[i] != 3 * (m - 1 - i) + 1) {
        printf("FAILED: programmatic launch: q[%d] = %d\n", i, hq[i]);
        bad = 1;
        break;
      }
    CHECK(cudaFree(p));
    CHECK(cudaFree(q));
  }

  const int n = 1000;
  int *host = (int *) malloc(n * sizeof(int)), *dev = NULL;
  for (int i = 0; i < n; i++) host[i] = i - 500;
  CHECK(cudaHostRegister(host, n * sizeof(int), cudaHostRegisterMapped));
  if (cudaHostRegister(host, n * sizeof(int), cudaHostRegisterMapped) != cudaErrorHostMemoryAlreadyRegistered) {
    printf("FAILED: registering twice\n");
    bad = 1;
  }
  cudaGetLastError();
  CHECK(cudaHostGetDevicePointer((void **) &dev, host, 0));
  square<<<(n + 127) / 128, 128>>>(dev, n);
  CHECK(cudaDeviceSynchronize());
  for (int i = 0; i < n; i++)
    if (host[i] != (i - 500) * (i - 500)) {
      printf("FAILED: registered memory: [%d] = %d\n", i, host[i]);
      bad = 1;
      break;
    }
  CHECK(cudaHostUnregister(host));
  if (cudaHostUnregister(host) != cudaErrorHostMemoryNotRegistered) {
    printf("FAILED: unregistering twice\n");
    bad = 1;
  }
  cudaGetLastError();
  free(host);
  if (bad) { printf("FAILED\n"); return 1; }
  printf("PASSED\n");
  return 0;
}
