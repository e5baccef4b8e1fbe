/* streams_events: a multi-kernel pipeline over streams with events.
 *
 * Three streams each process one chunk: async host->device copy from pinned
 * memory, two dependent kernels, async copy back.  A fourth stage on
 * another stream waits (cudaStreamWaitEvent) for all chunks and combines
 * them.  Events time the pipeline: elapsed times must be non-negative and
 * ordered, cudaEventQuery/cudaStreamQuery must report completion after
 * synchronisation.  Also cudaMemsetAsync, cudaMemcpyAsync device->device,
 * the legacy default stream, cudaHostAlloc and cudaStreamCreateWithFlags.
 */
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
  printf("FAILED: %s: %s\n", #call, cudaGetErrorString(e_)); exit(1); } } while (0)

#define CHUNKS 3

__global__ void stage1(const int *in, int *tmp, int n, int k) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) tmp[i] = in[i] * 3 + k;
}

__global__ void stage2(const int *tmp, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tmp[i] - (i & 7);
}

__global__ void combine(int *const *chunks, int n, long long *total) {
  long long s = 0;
  for (int c = 0; c < CHUNKS; c++)
    for (int i = threadIdx.x; i < n; i += blockDim.x) s += chunks[c][i];
  atomicAdd((unsigned long long *) total, (unsigned long long) s);
}

int main() {
  const int n = 4000;
  cudaStream_t streams[CHUNKS], final_stream;
  cudaEvent_t start, done[CHUNKS], stop;
  int *h_in, *h_out;
  CHECK(cudaMallocHost(&h_in, CHUNKS * n * sizeof(int)));
  CHECK(cudaHostAlloc(&h_out, CHUNKS * n * sizeof(int), cudaHostAllocDefault));
  for (int i = 0; i < CHUNKS * n; i++) h_in[i] = i % 1000 - 300;

  int *d_in[CHUNKS], *d_tmp[CHUNKS], *d_out[CHUNKS], **d_chunks;
  long long *d_total;
  CHECK(cudaMalloc(&d_chunks, CHUNKS * sizeof(int *)));
  CHECK(cudaMalloc(&d_total, sizeof(long long)));
  CHECK(cudaStreamCreateWithFlags(&final_stream, cudaStreamNonBlocking));
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  for (int c = 0; c < CHUNKS; c++) {
    CHECK(cudaStreamCreate(&streams[c]));
    CHECK(cudaEventCreate(&done[c]));
    CHECK(cudaMalloc(&d_in[c], n * sizeof(int)));
    CHECK(cudaMalloc(&d_tmp[c], n * sizeof(int)));
    CHECK(cudaMalloc(&d_out[c], n * sizeof(int)));
  }
  CHECK(cudaMemcpy(d_chunks, d_out, sizeof d_out, cudaMemcpyHostToDevice));
  CHECK(cudaMemsetAsync(d_total, 0, sizeof(long long), final_stream));

  CHECK(cudaEventRecord(start, 0));
  for (int c = 0; c < CHUNKS; c++) {
    CHECK(cudaMemcpyAsync(d_in[c], h_in + c * n, n * sizeof(int), cudaMemcpyHostToDevice, streams[c]));
    CHECK(cudaMemsetAsync(d_tmp[c], 0, n * sizeof(int), streams[c]));
    stage1<<<(n + 255) / 256, 256, 0, streams[c]>>>(d_in[c], d_tmp[c], n, c);
    CHECK(cudaGetLastError());
    stage2<<<(n + 127) / 128, 128, 0, streams[c]>>>(d_tmp[c], d_out[c], n);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpyAsync(h_out + c * n, d_out[c], n * sizeof(int), cudaMemcpyDeviceToHost, streams[c]));
    CHECK(cudaEventRecord(done[c], streams[c]));
    CHECK(cudaStreamWaitEvent(final_stream, done[c], 0));
  }
  combine<<<1, 256, 0, final_stream>>>(d_chunks, n, d_total);
  CHECK(cudaGetLastError());
  CHECK(cudaEventRecord(stop, final_stream));
  CHECK(cudaEventSynchronize(stop));
  for (int c = 0; c < CHUNKS; c++) CHECK(cudaStreamSynchronize(streams[c]));

  if (cudaEventQuery(stop) != cudaSuccess || cudaStreamQuery(final_stream) != cudaSuccess) {
    printf("FAILED: event/stream not complete after synchronisation\n");
    return 1;
  }
  float total_ms = -1.0f, first_ms = -1.0f;
  CHECK(cudaEventElapsedTime(&total_ms, start, stop));
  CHECK(cudaEventElapsedTime(&first_ms, start, done[0]));
  if (!(total_ms >= 0.0f) || !(first_ms >= 0.0f)) {
    printf("FAILED: negative elapsed times %g %g ms\n", total_ms, first_ms);
    return 1;
  }

  long long want_total = 0, total;
  for (int c = 0; c < CHUNKS; c++)
    for (int i = 0; i < n; i++) {
      int want = h_in[c * n + i] * 3 + c - (i & 7);
      want_total += want;
      if (h_out[c * n + i] != want) {
        printf("FAILED: chunk %d [%d] = %d, expected %d\n", c, i, h_out[c * n + i], want);
        return 1;
      }
    }
  /* Device-to-device async copy on the legacy default stream. */
  CHECK(cudaMemcpyAsync(d_tmp[0], d_out[1], n * sizeof(int), cudaMemcpyDeviceToDevice, 0));
  CHECK(cudaMemcpy(&total, d_total, sizeof total, cudaMemcpyDeviceToHost));
  if (total != want_total) {
    printf("FAILED: combined total %lld, expected %lld\n", total, want_total);
    return 1;
  }
  CHECK(cudaMemcpy(h_out, d_tmp[0], n * sizeof(int), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; i++)
    if (h_out[i] != h_in[n + i] * 3 + 1 - (i & 7)) {
      printf("FAILED: device-to-device copy [%d] = %d\n", i, h_out[i]);
      return 1;
    }

  for (int c = 0; c < CHUNKS; c++) {
    CHECK(cudaStreamDestroy(streams[c]));
    CHECK(cudaEventDestroy(done[c]));
    CHECK(cudaFree(d_in[c])); CHECK(cudaFree(d_tmp[c])); CHECK(cudaFree(d_out[c]));
  }
  CHECK(cudaStreamDestroy(final_stream));
  CHECK(cudaEventDestroy(start));
  CHECK(cudaEventDestroy(stop));
  CHECK(cudaFree(d_chunks)); CHECK(cudaFree(d_total));
  CHECK(cudaFreeHost(h_in)); CHECK(cudaFreeHost(h_out));
  printf("pipeline: %.3f ms total, first chunk %.3f ms (emulated or real clock)\n", total_ms, first_ms);
  printf("PASSED\n");
  return 0;
}
