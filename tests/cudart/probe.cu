// Host program the cudart tests run under Warpscope's runtime.  Each mode
// exercises one area and prints "key=value" lines the test checks.
#include <cstdio>
#include <cstring>
#include <cstdlib>
#include <cuda_runtime.h>

__device__ int d_table[8];
__constant__ float c_coef[4];

__global__ void add_kernel(const float *a, const float *b, float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    c[i] = a[i] + b[i] * c_coef[0];
}

__global__ void table_kernel(int *out) {
  int i = threadIdx.x;
  if (i < 8) {
    out[i] = d_table[i] * 2;
  }
}

// Reverses a block's worth of ints through dynamic shared memory.
__global__ void reverse_kernel(int *data, int n) {
  extern __shared__ int buf[];
  int t = threadIdx.x;
  for (int i = t; i < n; i += blockDim.x) buf[i] = data[i];
  __syncthreads();
  for (int i = t; i < n; i += blockDim.x) data[i] = buf[n - 1 - i];
}

/* 4 GiB past the buffer: outside any mapped page, so a GPU faults too (a few
 * KiB past it would land in the buffer's 2 MiB page, which a GPU and the
 * emulator's default mode do not notice). */
__global__ void oob_kernel(int *p) { p[threadIdx.x + (1ll << 30)] = 7; }

#define E(call) printf("%s=%d\n", #call, (int) (call))

static int props() {
  int n = -1;
  E(cudaGetDeviceCount(&n));
  printf("count=%d\n", n);
  cudaDeviceProp p;
  memset(&p, 0xab, sizeof p);
  E(cudaGetDeviceProperties(&p, 0));
  printf("name=%s\n", p.name);
  printf("major=%d\nminor=%d\n", p.major, p.minor);
  printf("sms=%d\n", p.multiProcessorCount);
  printf("warp=%d\n", p.warpSize);
  printf("shared_per_block=%zu\n", p.sharedMemPerBlock);
  printf("shared_per_block_optin=%zu\n", p.sharedMemPerBlockOptin);
  printf("shared_per_sm=%zu\n", p.sharedMemPerMultiprocessor);
  printf("regs_per_sm=%d\n", p.regsPerMultiprocessor);
  printf("regs_per_block=%d\n", p.regsPerBlock);
  printf("max_threads_per_block=%d\n", p.maxThreadsPerBlock);
  printf("max_threads_per_sm=%d\n", p.maxThreadsPerMultiProcessor);
  printf("max_blocks_per_sm=%d\n", p.maxBlocksPerMultiProcessor);
  printf("l2=%d\n", p.l2CacheSize);
  printf("bus_width=%d\n", p.memoryBusWidth);
  printf("total_mem=%zu\n", p.totalGlobalMem);
  printf("reserved_shared=%zu\n", p.reservedSharedMemPerBlock);
  printf("reserved0=%d\n", p.reserved[0]);
  int v = 0;
  cudaDeviceGetAttribute(&v, cudaDevAttrClockRate, 0);
  printf("clock_khz=%d\n", v);
  cudaDeviceGetAttribute(&v, cudaDevAttrMultiProcessorCount, 0);
  printf("attr_sms=%d\n", v);
  cudaDeviceGetAttribute(&v, cudaDevAttrComputeCapabilityMajor, 0);
  printf("attr_major=%d\n", v);
  cudaDeviceGetAttribute(&v, cudaDevAttrMemoryClockRate, 0);
  printf("mem_clock_khz=%d\n", v);
  E(cudaDeviceGetAttribute(&v, cudaDevAttrMaxThreadsPerBlock, 1));
  E(cudaSetDevice(0));
  E(cudaSetDevice(1));
  int dev = -1;
  E(cudaGetDevice(&dev));
  printf("device=%d\n", dev);
  int drv = 0, rt = 0;
  cudaDriverGetVersion(&drv);
  cudaRuntimeGetVersion(&rt);
  printf("driver=%d\nruntime=%d\n", drv, rt);
  size_t freeb = 0, total = 0;
  E(cudaMemGetInfo(&freeb, &total));
  void *x;
  cudaMalloc(&x, 1 << 20);
  size_t free2 = 0;
  cudaMemGetInfo(&free2, &total);
  printf("mem_total=%zu\nmem_used_by_1MiB=%zu\n", total, freeb - free2);
  return 0;
}

static int memory() {
  const int n = 1000;
  int host[n], back[n];
  for (int i = 0; i < n; i++) host[i] = i * 7 - 3;
  int *d1, *d2;
  E(cudaMalloc(&d1, n * sizeof(int)));
  E(cudaMalloc(&d2, n * sizeof(int)));
  E(cudaMemcpy(d1, host, n * sizeof(int), cudaMemcpyHostToDevice));
  E(cudaMemcpy(d2, d1, n * sizeof(int), cudaMemcpyDeviceToDevice));
  memset(back, 0, sizeof back);
  E(cudaMemcpy(back, d2, n * sizeof(int), cudaMemcpyDeviceToHost));
  printf("round_trip_equal=%d\n", memcmp(host, back, sizeof host) == 0);
  E(cudaMemset(d2, 0x5a, 16));
  unsigned char bytes[20];
  cudaMemcpy(bytes, d2, 20, cudaMemcpyDefault);
  printf("memset_bytes=%02x%02x %02x\n", bytes[0], bytes[15], bytes[16]);
  cudaStream_t s;
  E(cudaStreamCreate(&s));
  E(cudaMemcpyAsync(d2, host, 64, cudaMemcpyHostToDevice, s));
  E(cudaMemsetAsync(d2, 0, 4, s));
  E(cudaStreamSynchronize(s));
  E(cudaStreamQuery(s));
  int first[2];
  cudaMemcpy(first, d2, 8, cudaMemcpyDeviceToHost);
  printf("async_first=%d,%d\n", first[0], first[1]);
  E(cudaStreamDestroy(s));
  // Out of the allocation: the copy is refused, nothing is written.
  E(cudaMemcpy(d1 + n - 1, host, 8, cudaMemcpyHostToDevice));
  E(cudaFree(d1));
  E(cudaFree(d1));
  E(cudaFree(nullptr));
  float *pinned;
  E(cudaMallocHost(&pinned, 256));
  pinned[3] = 2.5f;
  float *dp = nullptr;
  E(cudaHostGetDevicePointer((void **) &dp, pinned, 0));
  printf("pinned_same=%d\n", dp == pinned);
  E(cudaFreeHost(pinned));
  int *managed;
  E(cudaMallocManaged(&managed, 64));
  managed[5] = 55;
  cudaPointerAttributes attr;
  E(cudaPointerGetAttributes(&attr, managed));
  printf("managed_type=%d managed_value=%d\n", (int) attr.type, managed[5]);
  cudaStream_t ms;
  cudaStreamCreate(&ms);
  E(cudaStreamAttachMemAsync(ms, managed, 0, cudaMemAttachHost));
  E(cudaStreamAttachMemAsync(ms, host, 0, cudaMemAttachHost));
  char pitched_host[3][10];
  for (int r = 0; r < 3; r++) for (int c = 0; c < 10; c++) pitched_host[r][c] = (char) (r * 10 + c);
  void *pitched; size_t pitch = 0;
  E(cudaMallocPitch(&pitched, &pitch, 10, 3));
  printf("pitch=%zu\n", pitch);
  E(cudaMemcpy2D(pitched, pitch, pitched_host, 10, 10, 3, cudaMemcpyHostToDevice));
  char row2[10];
  cudaMemcpy(row2, (char *) pitched + 2 * pitch, 10, cudaMemcpyDeviceToHost);
  printf("pitched_row2=%d,%d\n", row2[0], row2[9]);
  void *huge;
  E(cudaMalloc(&huge, (size_t) 1 << 50));
  E(cudaGetLastError());
  E(cudaGetLastError());
  return 0;
}

static int symbols() {
  int table[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  E(cudaMemcpyToSymbol(d_table, table, sizeof table));
  int two[2] = {70, 80};
  E(cudaMemcpyToSymbol(d_table, two, sizeof two, 6 * sizeof(int)));
  int back[8];
  E(cudaMemcpyFromSymbol(back, d_table, sizeof back));
  printf("table=%d,%d,%d\n", back[0], back[6], back[7]);
  float coef[4] = {0.5f, 1, 2, 3};
  E(cudaMemcpyToSymbolAsync(c_coef, coef, sizeof coef, 0, cudaMemcpyHostToDevice, 0));
  float cback[4];
  E(cudaMemcpyFromSymbolAsync(cback, c_coef, sizeof cback, 0, cudaMemcpyDeviceToHost, 0));
  printf("coef=%g,%g\n", cback[0], cback[3]);
  void *addr = nullptr;
  E(cudaGetSymbolAddress(&addr, d_table));
  int third = 0;
  cudaMemcpy(&third, (int *) addr + 2, sizeof third, cudaMemcpyDeviceToHost);
  printf("via_address=%d\n", third);
  size_t size = 0;
  E(cudaGetSymbolSize(&size, c_coef));
  printf("coef_size=%zu\n", size);
  // Past the end of the symbol.
  E(cudaMemcpyToSymbol(d_table, table, sizeof table, 4));
  E(cudaGetLastError());
  int not_a_symbol;
  E(cudaMemcpyToSymbol(not_a_symbol, table, 4));
  return 0;
}

static int errors() {
  printf("str0=%s\n", cudaGetErrorString(cudaSuccess));
  printf("str1=%s\n", cudaGetErrorString(cudaErrorInvalidValue));
  printf("str2=%s\n", cudaGetErrorString(cudaErrorMemoryAllocation));
  printf("str700=%s\n", cudaGetErrorString(cudaErrorIllegalAddress));
  printf("name700=%s\n", cudaGetErrorName(cudaErrorIllegalAddress));
  printf("name801=%s\n", cudaGetErrorName(cudaErrorNotSupported));
  printf("str_launch_timeout=%s\n", cudaGetErrorString(cudaErrorLaunchTimeout));
  int *p;
  E(cudaMalloc(nullptr, 4));
  E(cudaPeekAtLastError());
  E(cudaGetLastError());
  E(cudaGetLastError());
  cudaMalloc(&p, 16);
  cudaEvent_t a, b;
  E(cudaEventCreate(&a));
  E(cudaEventCreateWithFlags(&b, cudaEventDisableTiming));
  E(cudaEventRecord(a));
  float ms = -1;
  E(cudaEventElapsedTime(&ms, a, b));
  cudaEvent_t c;
  cudaEventCreate(&c);
  E(cudaEventRecord(c, 0));
  E(cudaEventSynchronize(c));
  E(cudaEventElapsedTime(&ms, a, c));
  printf("elapsed_nonnegative=%d\n", ms >= 0.0f);
  E(cudaEventQuery(c));
  E(cudaEventDestroy(a));
  E(cudaEventDestroy(a));
  return 0;
}

static int unsupported() {
  cudaIpcMemHandle_t h;
  void *p = nullptr;
  cudaMalloc(&p, 256);
  E(cudaIpcGetMemHandle(&h, p));
  E(cudaGetLastError());
  return 0;
}

static int launch() {
  const int n = 3000;
  float *a = (float *) malloc(n * 4), *b = (float *) malloc(n * 4), *c = (float *) malloc(n * 4);
  for (int i = 0; i < n; i++) { a[i] = i; b[i] = 2 * i; }
  float coef[4] = {0.5f, 0, 0, 0};
  cudaMemcpyToSymbol(c_coef, coef, sizeof coef);
  float *da, *db, *dc;
  cudaMalloc(&da, n * 4); cudaMalloc(&db, n * 4); cudaMalloc(&dc, n * 4);
  cudaMemcpy(da, a, n * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(db, b, n * 4, cudaMemcpyHostToDevice);
  add_kernel<<<(n + 127) / 128, 128>>>(da, db, dc, n);
  E(cudaGetLastError());
  E(cudaDeviceSynchronize());
  cudaMemcpy(c, dc, n * 4, cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < n; i++) bad += c[i] != a[i] + b[i] * 0.5f;
  printf("add_bad=%d\n", bad);
  // The same kernel through cudaLaunchKernel.
  int nn = n;
  void *args[] = {&da, &da, &dc, &nn};
  E(cudaLaunchKernel((const void *) add_kernel, dim3(24), dim3(128), args, 0, 0));
  cudaMemcpy(c, dc, n * 4, cudaMemcpyDeviceToHost);
  printf("c10=%g\n", c[10]);
  int table[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  cudaMemcpyToSymbol(d_table, table, sizeof table);
  int *out;
  cudaMalloc(&out, 8 * sizeof(int));
  table_kernel<<<1, 32>>>(out);
  cudaDeviceSynchronize();
  int hout[8];
  cudaMemcpy(hout, out, sizeof hout, cudaMemcpyDeviceToHost);
  printf("table_out=%d,%d\n", hout[0], hout[7]);
  cudaFuncAttributes fa;
  E(cudaFuncGetAttributes(&fa, add_kernel));
  printf("regs=%d max_threads=%d ptx=%d\n", fa.numRegs, fa.maxThreadsPerBlock, fa.ptxVersion);
  int blocks = 0;
  E(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, add_kernel, 256, 0));
  printf("occupancy_blocks=%d\n", blocks);
  int min_grid = 0, best_block = 0;
  E(cudaOccupancyMaxPotentialBlockSize(&min_grid, &best_block, add_kernel, 0, 0));
  printf("potential_block=%d\n", best_block);
  // Invalid configuration: 2048 threads per block.
  add_kernel<<<1, 2048>>>(da, db, dc, n);
  E(cudaGetLastError());
  // Each CUDA limit on its own: grid y of 65536, a grid of 0, block z of 65,
  // grid x past 2^31 - 1.
  add_kernel<<<dim3(1, 65536), 32>>>(da, db, dc, n);
  printf("grid_y_65536=%d\n", (int) cudaGetLastError());
  add_kernel<<<0, 32>>>(da, db, dc, n);
  printf("grid_0=%d\n", (int) cudaGetLastError());
  add_kernel<<<1, dim3(1, 1, 65)>>>(da, db, dc, n);
  printf("block_z_65=%d\n", (int) cudaGetLastError());
  add_kernel<<<2147483648u, 32>>>(da, db, dc, n);
  printf("grid_x_2p31=%d\n", (int) cudaGetLastError());
  add_kernel<<<1, dim3(32, 32, 2)>>>(da, db, dc, n);
  printf("threads_2048=%d\n", (int) cudaGetLastError());
  return 0;
}

static int shared() {
  const int n = 16384;  // 64 KiB: above the default 48 KiB per block
  int *h = (int *) malloc(n * sizeof(int));
  for (int i = 0; i < n; i++) h[i] = i;
  int *d;
  cudaMalloc(&d, n * sizeof(int));
  cudaMemcpy(d, h, n * sizeof(int), cudaMemcpyHostToDevice);
  reverse_kernel<<<1, 256, n * sizeof(int)>>>(d, n);
  E(cudaGetLastError());
  E(cudaFuncSetAttribute(reverse_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, n * sizeof(int)));
  reverse_kernel<<<1, 256, n * sizeof(int)>>>(d, n);
  E(cudaGetLastError());
  E(cudaDeviceSynchronize());
  cudaMemcpy(h, d, n * sizeof(int), cudaMemcpyDeviceToHost);
  printf("reversed=%d,%d\n", h[0], h[n - 1]);
  E(cudaFuncSetAttribute(reverse_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, 1 << 30));
  return 0;
}

static int misc() {
  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  unsigned long long id = 0;
  E(cudaStreamGetId(s, &id));
  unsigned int flags = 0;
  E(cudaStreamGetFlags(s, &flags));
  int dev = -1;
  E(cudaStreamGetDevice(s, &dev));
  cudaStreamCaptureStatus st = cudaStreamCaptureStatusActive;
  E(cudaStreamIsCapturing(s, &st));
  printf("stream id_positive=%d flags=%u device=%d capturing=%d\n", id > 2, flags, dev, (int) st);
  size_t off = 0, size = 0;
  E(cudaFuncGetParamInfo((const void *) add_kernel, 3, &off, &size));
  printf("param3=%zu+%zu\n", off, size);
  E(cudaFuncGetParamInfo((const void *) add_kernel, 4, &off, &size));
  char bus[32];
  E(cudaDeviceGetPCIBusId(bus, sizeof bus, 0));
  int back = -1;
  E(cudaDeviceGetByPCIBusId(&back, bus));
  printf("bus=%s back=%d\n", bus, back);
  void *pinned;
  cudaHostAlloc(&pinned, 64, cudaHostAllocDefault);
  unsigned int hf = 0;
  E(cudaHostGetFlags(&hf, pinned));
  printf("host_mapped=%d\n", (hf & cudaHostAllocMapped) != 0);
  const char *fname = nullptr;
  E(cudaFuncGetName(&fname, (const void *) add_kernel));
  printf("fname=%s\n", fname);
  cudaStream_t s2;
  E(cudaStreamDestroy(s));
  E(cudaStreamDestroy(s));
  E(cudaStreamCreate(&s2));
  int called = 0;
  E(cudaLaunchHostFunc(s2, [](void *p) { *(int *) p = 42; }, &called));
  printf("host_func=%d\n", called);
  return 0;
}

static void CUDART_CB bump_counter(void *p) { ++*(int *) p; }

static int graph() {
  const int n = 1000;
  float *a = (float *) malloc(n * 4), *b = (float *) malloc(n * 4), *c = (float *) malloc(n * 4);
  for (int i = 0; i < n; i++) { a[i] = i; b[i] = 1; c[i] = -1; }
  float coef[4] = {2, 0, 0, 0};
  cudaMemcpyToSymbol(c_coef, coef, sizeof coef);
  float *da, *db, *dc;
  cudaMalloc(&da, n * 4); cudaMalloc(&db, n * 4); cudaMalloc(&dc, n * 4);
  cudaStream_t s, s2;
  cudaStreamCreate(&s);
  cudaStreamCreate(&s2);
  int counter = 0;
  E(cudaStreamBeginCapture(0, cudaStreamCaptureModeGlobal));
  E(cudaGetLastError());
  E(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  cudaStreamCaptureStatus st;
  cudaStreamIsCapturing(s, &st);
  printf("capturing=%d\n", (int) st);
  E(cudaMemcpyAsync(da, a, n * 4, cudaMemcpyHostToDevice, s));
  cudaEvent_t fork, join;
  cudaEventCreate(&fork);
  cudaEventCreate(&join);
  E(cudaEventRecord(fork, s));
  E(cudaStreamWaitEvent(s2, fork, 0));          // s2 joins the capture
  E(cudaMemcpyAsync(db, b, n * 4, cudaMemcpyHostToDevice, s2));
  E(cudaEventRecord(join, s2));
  E(cudaStreamWaitEvent(s, join, 0));
  E(cudaMemsetAsync(dc, 0, n * 4, s));
  add_kernel<<<(n + 127) / 128, 128, 0, s>>>(da, db, dc, n);
  E(cudaGetLastError());
  E(cudaMemcpyAsync(c, dc, n * 4, cudaMemcpyDeviceToHost, s));
  E(cudaLaunchHostFunc(s, bump_counter, &counter));
  cudaGraph_t g;
  E(cudaStreamEndCapture(s2, &g));              // not the origin
  E(cudaStreamEndCapture(s, &g));
  printf("after_capture c5=%g counter=%d\n", c[5], counter);   // nothing ran yet
  size_t nodes = 0;
  E(cudaGraphGetNodes(g, nullptr, &nodes));
  printf("nodes=%zu\n", nodes);
  cudaGraphExec_t ex;
  E(cudaGraphInstantiate(&ex, g, 0));
  E(cudaGraphDestroy(g));
  for (int it = 0; it < 3; it++) {
    a[5] = 100 * it;                               // read when the graph runs
    E(cudaGraphLaunch(ex, s));
  }
  E(cudaStreamSynchronize(s));
  printf("after_launch c5=%g counter=%d\n", c[5], counter);
  E(cudaGraphExecDestroy(ex));
  // An operation that cannot be captured invalidates the capture.
  E(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  E(cudaStreamSynchronize(s));
  E(cudaStreamEndCapture(s, &g));
  return 0;
}

static int fault() {
  int *p;
  cudaMalloc(&p, 64 * sizeof(int));
  oob_kernel<<<1, 32>>>(p);
  E(cudaDeviceSynchronize());
  E(cudaMemcpy(p, p, 4, cudaMemcpyDeviceToDevice));
  E(cudaGetLastError());
  E(cudaGetLastError());
  return 1;
}

int main(int argc, char **argv) {
  setvbuf(stdout, NULL, _IONBF, 0);
  const char *mode = argc > 1 ? argv[1] : "";
  if (!strcmp(mode, "props")) return props();
  if (!strcmp(mode, "memory")) return memory();
  if (!strcmp(mode, "symbols")) return symbols();
  if (!strcmp(mode, "errors")) return errors();
  if (!strcmp(mode, "unsupported")) return unsupported();
  if (!strcmp(mode, "launch")) return launch();
  if (!strcmp(mode, "fault")) return fault();
  if (!strcmp(mode, "shared")) return shared();
  if (!strcmp(mode, "misc")) return misc();
  if (!strcmp(mode, "graph")) return graph();
  fprintf(stderr, "usage: probe props|memory|symbols|errors|unsupported|launch|fault|shared|misc|graph\n");
  return 2;
}
