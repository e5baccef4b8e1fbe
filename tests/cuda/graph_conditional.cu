/* graph_conditional: CUDA graph conditional nodes (CUDA 12.4+, IF/ELSE and
 * SWITCH 12.8+).
 *
 *  - IF with one body: a kernel upstream sets the condition with the device
 *    builtin cudaGraphSetConditional; the body runs only on a non-zero value;
 *  - IF with an ELSE body (size 2): exactly one of the two runs;
 *  - WHILE as a do-while: handle default 1 with cudaGraphCondAssignDefault,
 *    the body counts down in device memory and clears the condition at 0;
 *    launched twice, so the second launch also shows the default is applied
 *    again at every launch (the first left the value at 0);
 *  - the default reset on its own: an IF whose body clears its condition
 *    still runs at every launch;
 *  - SWITCH with 3 bodies, values 0..4 (3 and 4 run nothing);
 *  - an IF nested in a WHILE body (the odd values of a count-down summed);
 *  - stream capture: the main graph captured with cudaStreamBeginCapture,
 *    the conditional node added by hand after cudaStreamGetCaptureInfo's
 *    dependencies, cudaStreamUpdateCaptureDependencies so the next captured
 *    kernel follows it; the body captured with cudaStreamBeginCaptureToGraph;
 *  - cudaGraphNodeGetType, cudaGraphGetNodes on a body graph;
 *  - errors: a bad conditional type, bad sizes and an unknown handle give
 *    cudaErrorInvalidValue (and the program goes on).
 */
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>

#define CHECK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
  printf("FAILED: %s: %s\n", #call, cudaGetErrorString(e_)); exit(1); } } while (0)
#define EXPECT(what, got, want) do { long long g_ = (long long) (got), w_ = (long long) (want); \
  if (g_ != w_) { printf("FAILED: %s: got %lld, expected %lld\n", what, g_, w_); exit(1); } } while (0)

/* condition = in[0] & 1 */
__global__ void set_odd(const int *in, cudaGraphConditionalHandle h) {
  cudaGraphSetConditional(h, in[0] & 1);
}
/* condition = in[0] */
__global__ void set_value(const int *in, cudaGraphConditionalHandle h) {
  cudaGraphSetConditional(h, (unsigned) in[0]);
}
__global__ void add_to(int *acc, int v) { atomicAdd(acc, v); }
/* body of the do-while: one more iteration; stop when the counter hits 0 */
__global__ void count_down(int *counter, int *iterations, cudaGraphConditionalHandle h) {
  iterations[0]++;
  if (--counter[0] == 0)
    cudaGraphSetConditional(h, 0);
}
/* body that clears its own condition (the default must bring it back) */
__global__ void run_once(int *runs, cudaGraphConditionalHandle h) {
  runs[0]++;
  cudaGraphSetConditional(h, 0);
}
/* outer loop body of the nested case: outer = (n > 0) after the decrement,
 * inner = n odd */
__global__ void step(int *n, cudaGraphConditionalHandle outer, cudaGraphConditionalHandle inner) {
  int v = --n[0];
  cudaGraphSetConditional(outer, v > 0);
  cudaGraphSetConditional(inner, v & 1);
}
__global__ void add_n(int *sum, const int *n) { sum[0] += n[0]; }
/* while-loop test and body of the captured case: n-- while n > 0, the
 * condition is whether another round is due */
__global__ void test_and_step(int *n, int *sum, cudaGraphConditionalHandle h) {
  if (n[0] > 0) {
    sum[0] += n[0];
    n[0]--;
  }
  cudaGraphSetConditional(h, n[0] > 0);
}
/* after the loop: proves it ran after the loop finished */
__global__ void finish(const int *n, const int *sum, int *out) { out[0] = n[0] * 1000 + sum[0]; }

static int read_int(const int *d) {
  int v;
  CHECK(cudaMemcpy(&v, d, sizeof v, cudaMemcpyDeviceToHost));
  return v;
}
static void write_int(int *d, int v) { CHECK(cudaMemcpy(d, &v, sizeof v, cudaMemcpyHostToDevice)); }

static cudaGraphNodeParams kernel_params(void *func, void **args) {
  cudaGraphNodeParams p = { cudaGraphNodeTypeKernel };
  p.kernel.func = func;
  p.kernel.gridDim = dim3(1, 1, 1);
  p.kernel.blockDim = dim3(1, 1, 1);
  p.kernel.kernelParams = args;
  return p;
}

static cudaGraphNodeParams cond_params(cudaGraphConditionalHandle h, cudaGraphConditionalNodeType type,
                                       unsigned size) {
  cudaGraphNodeParams p = { cudaGraphNodeTypeConditional };
  p.conditional.handle = h;
  p.conditional.type = type;
  p.conditional.size = size;
  return p;
}

static void launch(cudaGraphExec_t e) {
  CHECK(cudaGraphLaunch(e, 0));
  CHECK(cudaDeviceSynchronize());
}

/* IF (size 1) and IF/ELSE (size 2) after a kernel that sets the condition. */
static void test_if(int *d_in, int *d_acc, unsigned size) {
  cudaGraph_t g;
  CHECK(cudaGraphCreate(&g, 0));
  cudaGraphConditionalHandle h;
  CHECK(cudaGraphConditionalHandleCreate(&h, g));
  void *a_args[] = { &d_in, &h };
  cudaGraphNodeParams kp = kernel_params((void *) set_odd, a_args);
  cudaGraphNode_t a, c;
  CHECK(cudaGraphAddNode(&a, g, NULL, NULL, 0, &kp));
  cudaGraphNodeParams cp = cond_params(h, cudaGraphCondTypeIf, size);
  CHECK(cudaGraphAddNode(&c, g, &a, NULL, 1, &cp));
  enum cudaGraphNodeType type;
  CHECK(cudaGraphNodeGetType(c, &type));
  EXPECT("conditional node type", type, cudaGraphNodeTypeConditional);
  int then_v = 10, else_v = 100;
  void *then_args[] = { &d_acc, &then_v }, *else_args[] = { &d_acc, &else_v };
  cudaGraphNode_t b;
  kp = kernel_params((void *) add_to, then_args);
  CHECK(cudaGraphAddNode(&b, cp.conditional.phGraph_out[0], NULL, NULL, 0, &kp));
  if (size == 2) {
    kp = kernel_params((void *) add_to, else_args);
    CHECK(cudaGraphAddNode(&b, cp.conditional.phGraph_out[1], NULL, NULL, 0, &kp));
  }
  size_t n_body = 0;
  CHECK(cudaGraphGetNodes(cp.conditional.phGraph_out[0], NULL, &n_body));
  EXPECT("nodes in the IF body", n_body, 1);
  cudaGraphExec_t e;
  CHECK(cudaGraphInstantiate(&e, g, 0));
  for (int in = 0; in < 4; in++) {
    write_int(d_in, in);
    write_int(d_acc, 0);
    launch(e);
    int want = (in & 1) ? then_v : (size == 2 ? else_v : 0);
    EXPECT(size == 2 ? "IF/ELSE result" : "IF result", read_int(d_acc), want);
  }
  CHECK(cudaGraphExecDestroy(e));
  CHECK(cudaGraphDestroy(g));
}

/* A do-while: the body runs once before the condition is ever set. */
static void test_do_while(int *d_counter, int *d_iter) {
  cudaGraph_t g;
  CHECK(cudaGraphCreate(&g, 0));
  cudaGraphConditionalHandle h;
  CHECK(cudaGraphConditionalHandleCreate(&h, g, 1, cudaGraphCondAssignDefault));
  cudaGraphNodeParams cp = cond_params(h, cudaGraphCondTypeWhile, 1);
  cudaGraphNode_t c, b;
  CHECK(cudaGraphAddNode(&c, g, NULL, NULL, 0, &cp));
  void *args[] = { &d_counter, &d_iter, &h };
  cudaGraphNodeParams kp = kernel_params((void *) count_down, args);
  CHECK(cudaGraphAddNode(&b, cp.conditional.phGraph_out[0], NULL, NULL, 0, &kp));
  cudaGraphExec_t e;
  CHECK(cudaGraphInstantiate(&e, g, 0));
  write_int(d_iter, 0);
  write_int(d_counter, 5);
  launch(e);
  EXPECT("do-while iterations", read_int(d_iter), 5);
  EXPECT("do-while counter", read_int(d_counter), 0);
  /* the condition is 0 now: only the default brings the loop back */
  write_int(d_counter, 3);
  launch(e);
  EXPECT("do-while iterations after the second launch", read_int(d_iter), 8);
  CHECK(cudaGraphExecDestroy(e));
  CHECK(cudaGraphDestroy(g));
}

/* cudaGraphCondAssignDefault: an IF whose body clears its condition runs
 * at every launch all the same. */
static void test_default_reset(int *d_runs) {
  cudaGraph_t g;
  CHECK(cudaGraphCreate(&g, 0));
  cudaGraphConditionalHandle h;
  CHECK(cudaGraphConditionalHandleCreate(&h, g, 1, cudaGraphCondAssignDefault));
  cudaGraphNodeParams cp = cond_params(h, cudaGraphCondTypeIf, 1);
  cudaGraphNode_t c, b;
  CHECK(cudaGraphAddNode(&c, g, NULL, NULL, 0, &cp));
  void *args[] = { &d_runs, &h };
  cudaGraphNodeParams kp = kernel_params((void *) run_once, args);
  CHECK(cudaGraphAddNode(&b, cp.conditional.phGraph_out[0], NULL, NULL, 0, &kp));
  cudaGraphExec_t e;
  CHECK(cudaGraphInstantiate(&e, g, 0));
  write_int(d_runs, 0);
  for (int i = 0; i < 3; i++)
    launch(e);
  EXPECT("runs of an IF with a default of 1", read_int(d_runs), 3);
  CHECK(cudaGraphExecDestroy(e));
  CHECK(cudaGraphDestroy(g));
}

/* SWITCH with 3 bodies: body i adds 10^i; values 3 and 4 run none. */
static void test_switch(int *d_in, int *d_acc) {
  cudaGraph_t g;
  CHECK(cudaGraphCreate(&g, 0));
  cudaGraphConditionalHandle h;
  CHECK(cudaGraphConditionalHandleCreate(&h, g));
  void *a_args[] = { &d_in, &h };
  cudaGraphNodeParams kp = kernel_params((void *) set_value, a_args);
  cudaGraphNode_t a, c, b;
  CHECK(cudaGraphAddNode(&a, g, NULL, NULL, 0, &kp));
  cudaGraphNodeParams cp = cond_params(h, cudaGraphCondTypeSwitch, 3);
  CHECK(cudaGraphAddNode(&c, g, &a, NULL, 1, &cp));
  int adds[3] = { 1, 10, 100 };
  void *args[3][2] = { { &d_acc, &adds[0] }, { &d_acc, &adds[1] }, { &d_acc, &adds[2] } };
  for (int i = 0; i < 3; i++) {
    kp = kernel_params((void *) add_to, args[i]);
    CHECK(cudaGraphAddNode(&b, cp.conditional.phGraph_out[i], NULL, NULL, 0, &kp));
  }
  cudaGraphExec_t e;
  CHECK(cudaGraphInstantiate(&e, g, 0));
  for (int in = 0; in < 5; in++) {
    write_int(d_in, in);
    write_int(d_acc, 0);
    launch(e);
    EXPECT("SWITCH result", read_int(d_acc), in < 3 ? adds[in] : 0);
  }
  CHECK(cudaGraphExecDestroy(e));
  CHECK(cudaGraphDestroy(g));
}

/* WHILE [ step -> IF [ add_n ] ]: the odd values n takes on its way down. */
static void test_nested(int *d_n, int *d_sum) {
  cudaGraph_t g;
  CHECK(cudaGraphCreate(&g, 0));
  cudaGraphConditionalHandle outer, inner;
  CHECK(cudaGraphConditionalHandleCreate(&outer, g, 1, cudaGraphCondAssignDefault));
  CHECK(cudaGraphConditionalHandleCreate(&inner, g));
  cudaGraphNodeParams wp = cond_params(outer, cudaGraphCondTypeWhile, 1);
  cudaGraphNode_t w, s, i, k;
  CHECK(cudaGraphAddNode(&w, g, NULL, NULL, 0, &wp));
  cudaGraph_t body = wp.conditional.phGraph_out[0];
  void *s_args[] = { &d_n, &outer, &inner };
  cudaGraphNodeParams kp = kernel_params((void *) step, s_args);
  CHECK(cudaGraphAddNode(&s, body, NULL, NULL, 0, &kp));
  cudaGraphNodeParams ip = cond_params(inner, cudaGraphCondTypeIf, 1);
  CHECK(cudaGraphAddNode(&i, body, &s, NULL, 1, &ip));
  void *k_args[] = { &d_sum, &d_n };
  kp = kernel_params((void *) add_n, k_args);
  CHECK(cudaGraphAddNode(&k, ip.conditional.phGraph_out[0], NULL, NULL, 0, &kp));
  cudaGraphExec_t e;
  CHECK(cudaGraphInstantiate(&e, g, 0));
  write_int(d_n, 6);
  write_int(d_sum, 0);
  launch(e);
  EXPECT("nested: sum of the odd values 5, 3, 1", read_int(d_sum), 9);
  EXPECT("nested: counter", read_int(d_n), 0);
  CHECK(cudaGraphExecDestroy(e));
  CHECK(cudaGraphDestroy(g));
}

/* A -> WHILE [ A ] -> finish, built by stream capture. */
static void test_capture(int *d_n, int *d_sum, int *d_out) {
  cudaStream_t s;
  CHECK(cudaStreamCreate(&s));
  CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  cudaStreamCaptureStatus status;
  unsigned long long id = 0;
  cudaGraph_t g;
  const cudaGraphNode_t *deps;
  const cudaGraphEdgeData *edges;
  size_t n_deps = 99;
  CHECK(cudaStreamGetCaptureInfo(s, &status, &id, &g, &deps, NULL, &n_deps));
  EXPECT("capture status", status, cudaStreamCaptureStatusActive);
  EXPECT("dependencies before the first node", n_deps, 0);
  if (id == 0) {
    printf("FAILED: capture id is 0\n");
    exit(1);
  }
  cudaGraphConditionalHandle h;
  CHECK(cudaGraphConditionalHandleCreate(&h, g));
  test_and_step<<<1, 1, 0, s>>>(d_n, d_sum, h);
  CHECK(cudaStreamGetCaptureInfo(s, &status, NULL, &g, &deps, &edges, &n_deps));
  EXPECT("dependencies after the first kernel", n_deps, 1);
  EXPECT("edge data of the dependency", edges[0].type, cudaGraphDependencyTypeDefault);
  cudaGraphNodeParams cp = cond_params(h, cudaGraphCondTypeWhile, 1);
  cudaGraphNode_t c;
  CHECK(cudaGraphAddNode(&c, g, deps, NULL, n_deps, &cp));
  cudaGraph_t body = cp.conditional.phGraph_out[0];
  CHECK(cudaStreamUpdateCaptureDependencies(s, &c, NULL, 1, cudaStreamSetCaptureDependencies));
  CHECK(cudaStreamGetCaptureInfo(s, &status, NULL, NULL, &deps, NULL, &n_deps));
  if (n_deps != 1 || deps[0] != c) {
    printf("FAILED: the capture does not depend on the conditional node alone\n");
    exit(1);
  }
  finish<<<1, 1, 0, s>>>(d_n, d_sum, d_out);
  cudaGraph_t captured;
  CHECK(cudaStreamEndCapture(s, &captured));
  if (captured != g) {
    printf("FAILED: cudaStreamEndCapture returned another graph\n");
    exit(1);
  }
  size_t n_nodes = 0;
  CHECK(cudaGraphGetNodes(g, NULL, &n_nodes));
  EXPECT("nodes of the captured graph", n_nodes, 3);

  /* the body, captured into the graph the conditional node made */
  CHECK(cudaStreamBeginCaptureToGraph(s, body, NULL, NULL, 0, cudaStreamCaptureModeGlobal));
  test_and_step<<<1, 1, 0, s>>>(d_n, d_sum, h);
  CHECK(cudaStreamEndCapture(s, NULL));
  CHECK(cudaGraphGetNodes(body, NULL, &n_nodes));
  EXPECT("nodes of the captured body", n_nodes, 1);
  CHECK(cudaStreamDestroy(s));

  cudaGraphExec_t e;
  CHECK(cudaGraphInstantiate(&e, g, 0));
  /* n = 0: the first kernel finds nothing to do and the loop never runs */
  write_int(d_n, 0);
  write_int(d_sum, 0);
  launch(e);
  EXPECT("captured loop from 0", read_int(d_out), 0);
  /* n = 4: 4 + 3 + 2 + 1, the last kernel after the loop sees n = 0 */
  write_int(d_n, 4);
  launch(e);
  EXPECT("captured loop from 4", read_int(d_out), 10);
  CHECK(cudaGraphExecDestroy(e));
  CHECK(cudaGraphDestroy(g));
}

/* Bad parameters are errors, not crashes. */
static void test_errors(void) {
  cudaGraph_t g;
  CHECK(cudaGraphCreate(&g, 0));
  cudaGraphConditionalHandle h;
  CHECK(cudaGraphConditionalHandleCreate(&h, g));
  cudaGraphNode_t c;
  struct { cudaGraphConditionalNodeType type; unsigned size; const char *what; } bad[] = {
    { cudaGraphCondTypeIf, 3, "IF with 3 bodies" },
    { cudaGraphCondTypeIf, 0, "IF with no body" },
    { cudaGraphCondTypeWhile, 2, "WHILE with 2 bodies" },
    { cudaGraphCondTypeSwitch, 0, "SWITCH with no body" },
    { (cudaGraphConditionalNodeType) 7, 1, "conditional type 7" },
  };
  for (unsigned i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    cudaGraphNodeParams cp = cond_params(h, bad[i].type, bad[i].size);
    EXPECT(bad[i].what, cudaGraphAddNode(&c, g, NULL, NULL, 0, &cp), cudaErrorInvalidValue);
    EXPECT("cudaGetLastError after it", cudaGetLastError(), cudaErrorInvalidValue);
  }
  cudaGraph_t other;
  CHECK(cudaGraphCreate(&other, 0));
  cudaGraphNodeParams cp = cond_params(h, cudaGraphCondTypeIf, 1);
  EXPECT("handle of another graph", cudaGraphAddNode(&c, other, NULL, NULL, 0, &cp), cudaErrorInvalidValue);
  cudaGetLastError();
  EXPECT("handle flags 2", cudaGraphConditionalHandleCreate(&h, g, 0, 2), cudaErrorInvalidValue);
  cudaGetLastError();
  size_t n_nodes = 99;
  CHECK(cudaGraphGetNodes(g, NULL, &n_nodes));
  EXPECT("nodes left by the failed calls", n_nodes, 0);
  /* the graph still works */
  CHECK(cudaGraphAddNode(&c, g, NULL, NULL, 0, &cp));
  cudaGraphExec_t e;
  CHECK(cudaGraphInstantiate(&e, g, 0));
  launch(e);
  CHECK(cudaGraphExecDestroy(e));
  CHECK(cudaGraphDestroy(other));
  CHECK(cudaGraphDestroy(g));
}

int main() {
  int *d;
  CHECK(cudaMalloc(&d, 4 * sizeof(int)));
  test_if(d, d + 1, 1);
  test_if(d, d + 1, 2);
  test_do_while(d, d + 1);
  test_default_reset(d);
  test_switch(d, d + 1);
  test_nested(d, d + 1);
  test_capture(d, d + 1, d + 2);
  test_errors();
  CHECK(cudaFree(d));
  printf("PASSED\n");
  return 0;
}
