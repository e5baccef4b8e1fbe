/* graph_nodes: CUDA graphs built node by node.
 *
 *  - cudaGraphCreate; memset (4-byte elements), kernel, 1-D and 3-D memcpy,
 *    host and empty nodes with explicit dependencies, one added later with
 *    cudaGraphAddDependencies (so creation order is not launch order);
 *  - cudaGraphInstantiate + cudaGraphLaunch, launched twice;
 *  - cudaGraphExecKernelNodeSetParams changes only the executable graph;
 *  - cudaGraphExecUpdate from a graph of the same shape; cudaGraphClone;
 *  - cudaGraphNodeGetType, cudaGraphGetNodes, cudaGraphKernelNodeGetParams;
 *  - graph memory: cudaGraphAddMemAllocNode / cudaGraphAddMemFreeNode around
 *    a kernel (the same address at every launch, the footprint attributes
 *    in use and reserved, cudaDeviceGraphMemTrim), and cudaMallocAsync /
 *    cudaFreeAsync captured from a stream as alloc and free nodes; a graph
 *    allocation without a free node is freed by cudaFree after the launch.
 */
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>

#define CHECK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
  printf("FAILED: %s: %s\n", #call, cudaGetErrorString(e_)); exit(1); } } while (0)

__global__ void scale_add(int *v, int mul, int add, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] = v[i] * mul + add;
}

static int host_calls;
static void CUDART_CB on_host(void *p) { host_calls += *(int *) p; }

static int check(const char *what, const int *got, int n, int want_base, int want_step) {
  for (int i = 0; i < n; i++)
    if (got[i] != want_base + want_step * i) {
      printf("FAILED: %s: [%d] = %d, expected %d\n", what, i, got[i], want_base + want_step * i);
      return 1;
    }
  return 0;
}

int main() {
  const int n = 100;
  int *d_v, *d_w, h_in[n], h_out[n], h_out2[n];
  for (int i = 0; i < n; i++) h_in[i] = i;
  CHECK(cudaMalloc(&d_v, n * sizeof(int)));
  CHECK(cudaMalloc(&d_w, n * sizeof(int)));

  cudaGraph_t g;
  CHECK(cudaGraphCreate(&g, 0));
  /* w = 7 (memset of 4-byte elements) */
  cudaMemsetParams ms;
  memset(&ms, 0, sizeof ms);
  ms.dst = d_w; ms.value = 7; ms.elementSize = 4; ms.width = n; ms.height = 1;
  cudaGraphNode_t n_set, n_copy, n_kernel, n_back, n_host, n_empty, n_back2;
  CHECK(cudaGraphAddMemsetNode(&n_set, g, NULL, 0, &ms));
  /* v = h_in (1-D copy) */
  CHECK(cudaGraphAddMemcpyNode1D(&n_copy, g, NULL, 0, d_v, h_in, n * sizeof(int), cudaMemcpyHostToDevice));
  /* v = v * 3 + 1 after the copy */
  int mul = 3, add = 1, nn = n;
  void *args[] = { &d_v, &mul, &add, &nn };
  cudaKernelNodeParams kp;
  memset(&kp, 0, sizeof kp);
  kp.func = (void *) scale_add; kp.gridDim = dim3(4); kp.blockDim = dim3(32); kp.kernelParams = args;
  CHECK(cudaGraphAddKernelNode(&n_kernel, g, &n_copy, 1, &kp));
  add = 1000;   /* arguments were copied when the node was made */
  /* back to the host with a 3-D copy (one row) after the kernel */
  cudaMemcpy3DParms cp;
  memset(&cp, 0, sizeof cp);
  cp.srcPtr = make_cudaPitchedPtr(d_v, n * sizeof(int), n, 1);
  cp.dstPtr = make_cudaPitchedPtr(h_out, n * sizeof(int), n, 1);
  cp.extent = make_cudaExtent(n * sizeof(int), 1, 1);
  cp.kind = cudaMemcpyDeviceToHost;
  CHECK(cudaGraphAddMemcpyNode(&n_back, g, &n_kernel, 1, &cp));
  /* w to the host: depends on the memset through an edge added later */
  CHECK(cudaGraphAddMemcpyNode1D(&n_back2, g, NULL, 0, h_out2, d_w, n * sizeof(int), cudaMemcpyDeviceToHost));
  int inc = 5;
  cudaHostNodeParams hp = { on_host, &inc };
  cudaGraphNode_t deps[2] = { n_back, n_back2 };
  CHECK(cudaGraphAddEmptyNode(&n_empty, g, deps, 2));
  CHECK(cudaGraphAddHostNode(&n_host, g, &n_empty, 1, &hp));
  /* n_back2 was made before n_set's dependant edge: launch order must follow edges */
  CHECK(cudaGraphAddDependencies(g, &n_set, &n_back2, NULL, 1));

  enum cudaGraphNodeType ty;
  CHECK(cudaGraphNodeGetType(n_kernel, &ty));
  int bad = ty != cudaGraphNodeTypeKernel;
  CHECK(cudaGraphNodeGetType(n_set, &ty));
  bad |= ty != cudaGraphNodeTypeMemset;
  size_t count = 0;
  CHECK(cudaGraphGetNodes(g, NULL, &count));
  bad |= count != 7;
  cudaKernelNodeParams got;
  CHECK(cudaGraphKernelNodeGetParams(n_kernel, &got));
  bad |= got.func != (void *) scale_add || got.gridDim.x != 4 || *(int *) got.kernelParams[1] != 3;
  if (bad) { printf("FAILED: node queries\n"); return 1; }

  cudaGraphExec_t ex;
  CHECK(cudaGraphInstantiate(&ex, g, 0));
  for (int rep = 0; rep < 2; rep++) {
    memset(h_out, 0, sizeof h_out);
    memset(h_out2, 0, sizeof h_out2);
    CHECK(cudaGraphLaunch(ex, 0));
    CHECK(cudaStreamSynchronize(0));
    bad |= check("kernel node", h_out, n, 1, 3) | check("memset node", h_out2, n, 7, 0);
  }
  bad |= host_calls != 10;

  /* the executable graph's kernel node only */
  mul = 2; add = -4;
  CHECK(cudaGraphExecKernelNodeSetParams(ex, n_kernel, &kp));
  CHECK(cudaGraphLaunch(ex, 0));
  CHECK(cudaStreamSynchronize(0));
  bad |= check("exec kernel params", h_out, n, -4, 2);

  /* a clone keeps the original parameters; update the executable from it */
  cudaGraph_t c;
  CHECK(cudaGraphClone(&c, g));
  cudaGraphExecUpdateResultInfo info;
  CHECK(cudaGraphExecUpdate(ex, c, &info));
  bad |= info.result != cudaGraphExecUpdateSuccess;
  CHECK(cudaGraphLaunch(ex, 0));
  CHECK(cudaStreamSynchronize(0));
  bad |= check("exec update", h_out, n, 1, 3);

  CHECK(cudaGraphExecDestroy(ex));
  CHECK(cudaGraphDestroy(c));
  CHECK(cudaGraphDestroy(g));

  /* graph memory: alloc -> memset -> kernel -> copy out -> free */
  {
    cudaGraph_t mg;
    CHECK(cudaGraphCreate(&mg, 0));
    cudaMemAllocNodeParams ap;
    memset(&ap, 0, sizeof ap);
    ap.poolProps.allocType = cudaMemAllocationTypePinned;
    ap.poolProps.location.type = cudaMemLocationTypeDevice;
    ap.poolProps.location.id = 0;
    ap.bytesize = n * sizeof(int);
    cudaGraphNode_t a_node, s_node, k_node, c_node, f_node;
    CHECK(cudaGraphAddMemAllocNode(&a_node, mg, NULL, 0, &ap));
    int *d_g = (int *) ap.dptr;
    if (d_g == NULL) { printf("FAILED: alloc node gave no address\n"); return 1; }
    cudaMemsetParams sp;
    memset(&sp, 0, sizeof sp);
    sp.dst = d_g; sp.value = 5; sp.elementSize = 4; sp.width = n; sp.height = 1; sp.pitch = 0;
    CHECK(cudaGraphAddMemsetNode(&s_node, mg, &a_node, 1, &sp));
    int gmul = 3, gadd = 1, gn = n;
    void *gargs[] = { &d_g, &gmul, &gadd, &gn };
    cudaKernelNodeParams gkp;
    memset(&gkp, 0, sizeof gkp);
    gkp.func = (void *) scale_add; gkp.gridDim = dim3(1); gkp.blockDim = dim3(128); gkp.kernelParams = gargs;
    CHECK(cudaGraphAddKernelNode(&k_node, mg, &s_node, 1, &gkp));
    CHECK(cudaGraphAddMemcpyNode1D(&c_node, mg, &k_node, 1, h_out2, d_g, n * sizeof(int), cudaMemcpyDeviceToHost));
    CHECK(cudaGraphAddMemFreeNode(&f_node, mg, &c_node, 1, d_g));
    cudaGraphNodeType t1, t2;
    CHECK(cudaGraphNodeGetType(a_node, &t1));
    CHECK(cudaGraphNodeGetType(f_node, &t2));
    bad |= t1 != cudaGraphNodeTypeMemAlloc || t2 != cudaGraphNodeTypeMemFree;
    cudaMemAllocNodeParams back;
    CHECK(cudaGraphMemAllocNodeGetParams(a_node, &back));
    bad |= back.dptr != ap.dptr || back.bytesize != ap.bytesize;
    cudaGraphExec_t mex;
    CHECK(cudaGraphInstantiate(&mex, mg, 0));
    for (int rep = 0; rep < 2; rep++) {
      memset(h_out2, 0, sizeof h_out2);
      CHECK(cudaGraphLaunch(mex, 0));
      CHECK(cudaStreamSynchronize(0));
      bad |= check("graph memory", h_out2, n, 16, 0);
    }
    unsigned long long used = 1, reserved = 0, high = 0;
    CHECK(cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrUsedMemCurrent, &used));
    CHECK(cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrReservedMemCurrent, &reserved));
    CHECK(cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrUsedMemHigh, &high));
    if (used != 0 || reserved != n * sizeof(int) || high != n * sizeof(int)) {
      printf("FAILED: graph memory footprint used %llu reserved %llu high %llu\n", used, reserved, high);
      bad = 1;
    }
    CHECK(cudaDeviceGraphMemTrim(0));
    CHECK(cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrReservedMemCurrent, &reserved));
    bad |= reserved != 0;
    CHECK(cudaGraphExecDestroy(mex));
    CHECK(cudaGraphDestroy(mg));
  }

  /* cudaMallocAsync / cudaFreeAsync captured; the second allocation has no
   * free node: cudaFree gives it back after each launch */
  {
    cudaStream_t s;
    CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    int *d_a = NULL, *d_b = NULL;
    cudaGraph_t cg;
    CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    CHECK(cudaMallocAsync((void **) &d_a, n * sizeof(int), s));
    CHECK(cudaMallocAsync((void **) &d_b, n * sizeof(int), s));
    CHECK(cudaMemcpyAsync(d_a, h_in, n * sizeof(int), cudaMemcpyHostToDevice, s));
    scale_add<<<1, 128, 0, s>>>(d_a, 4, 0, n);
    CHECK(cudaMemcpyAsync(d_b, d_a, n * sizeof(int), cudaMemcpyDeviceToDevice, s));
    CHECK(cudaFreeAsync(d_a, s));
    CHECK(cudaMemcpyAsync(h_out2, d_b, n * sizeof(int), cudaMemcpyDeviceToHost, s));
    CHECK(cudaStreamEndCapture(s, &cg));
    cudaGraphExec_t cex;
    CHECK(cudaGraphInstantiate(&cex, cg, 0));
    for (int rep = 0; rep < 2; rep++) {
      memset(h_out2, 0, sizeof h_out2);
      CHECK(cudaGraphLaunch(cex, s));
      CHECK(cudaStreamSynchronize(s));
      bad |= check("captured graph memory", h_out2, n, 0, 4);
      CHECK(cudaFree(d_b));
    }
    /* relaunching while its allocation is still in use fails */
    CHECK(cudaGraphLaunch(cex, s));
    CHECK(cudaStreamSynchronize(s));
    if (cudaGraphLaunch(cex, s) == cudaSuccess) {
      printf("FAILED: a graph whose allocation was not freed launched again\n");
      bad = 1;
    }
    cudaGetLastError();
    CHECK(cudaFree(d_b));
    CHECK(cudaGraphExecDestroy(cex));
    CHECK(cudaGraphDestroy(cg));
    CHECK(cudaStreamDestroy(s));
  }
  CHECK(cudaFree(d_v));
  CHECK(cudaFree(d_w));
  if (bad) { printf("FAILED\n"); return 1; }
  printf("PASSED\n");
  return 0;
}
