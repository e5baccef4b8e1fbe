/* graph_nodes: CUDA graphs built node by node.
 *
 *  - cudaGraphCreate; memset (4-byte elements), kernel, 1-D and 3-D memcpy,
 *    host and empty nodes with explicit dependencies, one added later with
 *    cudaGraphAddDependencies (so creation order is not launch order);
 *  - cudaGraphInstantiate + cudaGraphLaunch, launched twice;
 *  - cudaGraphExecKernelNodeSetParams changes only the executable graph;
 *  - cudaGraphExecUpdate from a graph of the same shape; cudaGraphClone;
 *  - cudaGraphNodeGetType, cudaGraphGetNodes, cudaGraphKernelNodeGetParams.
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
  CHECK(cudaFree(d_v));
  CHECK(cudaFree(d_w));
  if (bad) { printf("FAILED\n"); return 1; }
  printf("PASSED\n");
  return 0;
}
