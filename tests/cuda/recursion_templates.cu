/* recursion_templates: language features that real kernels rely on.
 *
 *  - recursive __device__ functions (Fibonacci, Ackermann-like depth, a
 *    recursive quicksort of a per-thread local array);
 *  - structs passed to kernels by value (including one larger than 1 KiB of
 *    parameters) and returned from device functions;
 *  - function templates and kernel templates instantiated for int, float and
 *    double, with a functor template parameter;
 *  - local arrays indexed with run-time indices (local memory);
 *  - a __noinline__ device function call with many arguments.
 */
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
  printf("FAILED: %s: %s\n", #call, cudaGetErrorString(e_)); exit(1); } } while (0)

struct Vec3 {
  float x, y, z;
};

struct Big {
  int values[300]; /* 1200 bytes of kernel parameters */
  double scale;
  char name[12];
};

__host__ __device__ int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

__host__ __device__ int depth(int m, int n) { /* deep, irregular recursion */
  if (m == 0) return n + 1;
  if (n == 0) return depth(m - 1, 1);
  return depth(m - 1, depth(m, n - 1));
}

__host__ __device__ void quicksort(int *v, int lo, int hi) {
  if (lo >= hi) return;
  int pivot = v[(lo + hi) / 2], i = lo, j = hi;
  while (i <= j) {
    while (v[i] < pivot) i++;
    while (v[j] > pivot) j--;
    if (i <= j) {
      int t = v[i]; v[i] = v[j]; v[j] = t;
      i++; j--;
    }
  }
  quicksort(v, lo, j);
  quicksort(v, i, hi);
}

__host__ __device__ Vec3 cross(Vec3 a, Vec3 b) {
  Vec3 r = {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
  return r;
}

__device__ __noinline__ long long many_args(int a, int b, int c, int d, int e, int f, int g,
                                            int h, long long i, double j, float k) {
  return a + 2LL * b + 3LL * c + 4LL * d + 5LL * e + 6LL * f + 7LL * g + 8LL * h + i +
         (long long) j + (long long) k;
}

__global__ void recursion_kernel(int *out) {
  int t = threadIdx.x;
  int local[24];
  for (int i = 0; i < 24; i++) local[i] = (t * 7919 + i * 104729) % 1000;
  quicksort(local, 0, 23);
  int ok = 1;
  for (int i = 1; i < 24; i++) ok &= local[i - 1] <= local[i];
  out[t * 4 + 0] = fib(5 + t % 12);
  out[t * 4 + 1] = depth(2, t % 9);
  out[t * 4 + 2] = ok ? local[t % 24] : -1;
  out[t * 4 + 3] = (int) many_args(t, t + 1, t + 2, t + 3, t + 4, t + 5, t + 6, t + 7, 1LL << 40, 2.5, 1.5f) ;
}

__global__ void struct_kernel(Vec3 a, Vec3 b, Big big, float *out, int *ints) {
  Vec3 c = cross(a, b);
  out[0] = c.x; out[1] = c.y; out[2] = c.z;
  int t = threadIdx.x;
  ints[t] = (int) (big.values[t] * big.scale) + big.name[t % 12];
}

template <typename T> struct Square {
  __device__ T operator()(T v) const { return v * v; }
};
template <typename T> struct AddOne {
  __device__ T operator()(T v) const { return v + (T) 1; }
};

template <typename T, typename Op>
__global__ void map_kernel(const T *in, T *out, int n, Op op) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = op(in[i]);
}

/* Local array indexed by a data-dependent value: forces local memory. */
__global__ void local_histogram(const int *in, int n, int *out) {
  int counts[16];
  for (int i = 0; i < 16; i++) counts[i] = 0;
  int t = threadIdx.x;
  for (int i = t; i < n; i += blockDim.x) counts[in[i] & 15]++;
  for (int i = 0; i < 16; i++) atomicAdd(&out[i], counts[i]);
}

template <typename T> static int run_map(const char *name) {
  const int n = 200;
  T in[n], out[n];
  for (int i = 0; i < n; i++) in[i] = (T) (i % 50) - (T) 20;
  T *d_in, *d_out;
  CHECK(cudaMalloc(&d_in, sizeof in));
  CHECK(cudaMalloc(&d_out, sizeof out));
  CHECK(cudaMemcpy(d_in, in, sizeof in, cudaMemcpyHostToDevice));
  map_kernel<<<(n + 63) / 64, 64>>>(d_in, d_out, n, Square<T>());
  CHECK(cudaGetLastError());
  map_kernel<<<(n + 63) / 64, 64>>>(d_out, d_out, n, AddOne<T>());
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost));
  CHECK(cudaFree(d_in));
  CHECK(cudaFree(d_out));
  for (int i = 0; i < n; i++)
    if (out[i] != in[i] * in[i] + (T) 1) {
      printf("FAILED: map<%s>[%d] = %g, expected %g\n", name, i, (double) out[i],
             (double) (in[i] * in[i] + (T) 1));
      return 1;
    }
  return 0;
}

int main() {
  const int threads = 64;
  int *d_out, out[threads * 4];
  CHECK(cudaMalloc(&d_out, sizeof out));
  recursion_kernel<<<1, threads>>>(d_out);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost));
  for (int t = 0; t < threads; t++) {
    int local[24];
    for (int i = 0; i < 24; i++) local[i] = (t * 7919 + i * 104729) % 1000;
    quicksort(local, 0, 23);
    int want[4] = {fib(5 + t % 12), depth(2, t % 9), local[t % 24],
                   (int) (t * 36LL + 168 + (1LL << 40) + 2 + 1)};
    for (int k = 0; k < 4; k++)
      if (out[t * 4 + k] != want[k]) {
        printf("FAILED: recursion thread %d result %d = %d, expected %d\n", t, k, out[t * 4 + k], want[k]);
        return 1;
      }
  }

  Vec3 a = {1.5f, -2.0f, 0.25f}, b = {0.5f, 4.0f, -1.0f};
  Big big;
  for (int i = 0; i < 300; i++) big.values[i] = i * 3 - 100;
  big.scale = 0.5;
  snprintf(big.name, sizeof big.name, "big-struct");
  float *d_f, f[3];
  int *d_i, ints[300];
  CHECK(cudaMalloc(&d_f, sizeof f));
  CHECK(cudaMalloc(&d_i, sizeof ints));
  struct_kernel<<<1, 300>>>(a, b, big, d_f, d_i);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(f, d_f, sizeof f, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(ints, d_i, sizeof ints, cudaMemcpyDeviceToHost));
  Vec3 c = cross(a, b); /* all products exact in float */
  if (f[0] != c.x || f[1] != c.y || f[2] != c.z) {
    printf("FAILED: cross = (%g %g %g), expected (%g %g %g)\n", f[0], f[1], f[2], c.x, c.y, c.z);
    return 1;
  }
  for (int t = 0; t < 300; t++)
    if (ints[t] != (int) (big.values[t] * big.scale) + big.name[t % 12]) {
      printf("FAILED: big struct value %d = %d\n", t, ints[t]);
      return 1;
    }

  if (run_map<int>("int") || run_map<float>("float") || run_map<double>("double"))
    return 1;

  const int n = 5000;
  int *in = (int *) malloc(n * sizeof(int)), hist[16] = {0}, got[16];
  for (int i = 0; i < n; i++) { in[i] = (i * 2654435761u) >> 7; hist[in[i] & 15]++; }
  int *d_in, *d_h;
  CHECK(cudaMalloc(&d_in, n * sizeof(int)));
  CHECK(cudaMalloc(&d_h, sizeof hist));
  CHECK(cudaMemcpy(d_in, in, n * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(d_h, 0, sizeof hist));
  local_histogram<<<1, 128>>>(d_in, n, d_h);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(got, d_h, sizeof got, cudaMemcpyDeviceToHost));
  for (int i = 0; i < 16; i++)
    if (got[i] != hist[i]) {
      printf("FAILED: local-memory histogram bin %d = %d, expected %d\n", i, got[i], hist[i]);
      return 1;
    }
  CHECK(cudaFree(d_out)); CHECK(cudaFree(d_f)); CHECK(cudaFree(d_i));
  CHECK(cudaFree(d_in)); CHECK(cudaFree(d_h));
  free(in);
  printf("PASSED\n");
  return 0;
}
