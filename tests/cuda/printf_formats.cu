/* printf_formats: device printf with the conversions real programs use.
 *
 * The same function runs on the device (through vprintf) and, with --host,
 * on the host; the committed printf_formats.expected.txt was produced by the
 * host run, because CUDA formats each conversion as the host C library does.
 * Only one thread prints per launch, so the line order is defined.  Size
 * modifiers are limited to those CUDA documents (l, ll).
 */
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

struct Pair {
  int a;
  float b;
};

__host__ __device__ void print_all(int i, unsigned u, long long ll, unsigned long long ull,
                                   float f, double d, char c, const char *s, Pair p) {
  printf("int: %d %i %5d %-5d| %05d %+d % d\n", i, i, i, i, i, i, i);
  printf("negative: %d %5d %-6d|\n", -i, -i, -i);
  printf("unsigned: %u %x %X %o %#x %#o %08x\n", u, u, u, u, u, u, u);
  printf("long long: %lld %llu %llx %20lld|\n", ll, ull, ull, -ll);
  printf("long: %ld %lu %lx\n", (long) ll, (unsigned long) ull, (unsigned long) u);
  printf("star width: [%*d] [%-*d] [%.*f]\n", 6, i, 6, i, 3, d);
  printf("float: %f %.2f %10.3f %-10.1f| %e %.3E %g %G\n", f, f, f, f, f, f, f, f);
  printf("double: %f %.10f %e %.15g %g\n", d, d, d, d, d * 1e-10);
  printf("small/large: %g %g %e %f\n", 1e-5, 123456789.0, 0.0, -0.5);
  printf("special: %f %f %e\n", 1.0 / 0.0 * (f > 0 ? 1 : -1), -1.0 / 0.0, 2.5e300);
  printf("char: %c%c%c [%3c] [%-3c]\n", c, c + 1, c + 2, c, c);
  printf("string: %s [%10s] [%-10s] [%.3s]\n", s, s, s, s);
  printf("percent: 100%% of %d%%\n", 42);
  printf("mixed: %d %f %s %c %llu %e\n", p.a, p.b, s, c, ull, (double) p.b);
  printf("no arguments\n");
}

__global__ void print_kernel(int i, unsigned u, long long ll, unsigned long long ull, float f,
                             double d, char c, Pair p) {
  print_all(i, u, ll, ull, f, d, c, "warp", p);
}

__global__ void print_ids() {
  /* Launched with one thread per block: blocks run in an unspecified order on
   * a GPU, so only block 0 prints. */
  if (blockIdx.x == 0)
    printf("block %d of %d, thread %d of %d\n", blockIdx.x, gridDim.x, threadIdx.x, blockDim.x);
}

int main(int argc, char **argv) {
  Pair p = {7, 0.125f};
  const int i = 42;
  const unsigned u = 0xdeadbeefu;
  const long long ll = 1234567890123LL;
  const unsigned long long ull = 18446744073709551615ULL;
  const float f = 3.14159265f;
  const double d = 2.718281828459045;
  if (argc > 1 && strcmp(argv[1], "--host") == 0) {
    print_all(i, u, ll, ull, f, d, 'x', "warp", p);
    printf("block 0 of 4, thread 0 of 1\n");
    printf("PASSED\n");
    return 0;
  }
  print_kernel<<<1, 1>>>(i, u, ll, ull, f, d, 'x', p);
  cudaError_t e = cudaDeviceSynchronize();
  if (e == cudaSuccess) {
    print_ids<<<4, 1>>>();
    e = cudaDeviceSynchronize();
  }
  fflush(stdout);
  if (e != cudaSuccess) {
    printf("FAILED: %s\n", cudaGetErrorString(e));
    return 1;
  }
  printf("PASSED\n");
  return 0;
}
