/* robust: what real programs do that the hardware tolerates or that must
 * not hang or lose data (issues 17 and 19), one case per mode:
 *
 *   wrap          ld.shared.u32 [%r+68] with %r = address - 64 (inline PTX,
 *                 as nvcc emits it): the 32-bit window wraps; prints
 *                 "wrap=1234" and PASSED
 *   before-first  reads and writes 512 bytes before the first cudaMalloc
 *                 buffer (a GPU does not notice); prints the value read back
 *                 and the error of the synchronisation: "before=77 sync=0"
 *                 on a GPU, "sync=700" when the check stops it
 *   hang          a kernel that waits for a flag nobody sets; prints the
 *                 synchronisation's error ("hang sync=702" after a watchdog)
 *   sleep FILE    writes its pid to FILE, then runs the hanging kernel
 *   crash         one good launch, then abort() (a crashing program)
 *   files IN OUT  reads the relative file IN, writes OUT: launches a kernel
 *                 on the number in IN and writes twice it to OUT
 * Exit status 0 unless something unexpected happened (1). */
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <unistd.h>
#include <cuda_runtime.h>

__global__ void wrap_kernel(unsigned *out) {
  __shared__ unsigned buf[16];
  buf[threadIdx.x] = 1000 + 234 * threadIdx.x;
  __syncthreads();
  unsigned base = (unsigned) __cvta_generic_to_shared(&buf[0]) - 64u;
  unsigned v;
  asm volatile("ld.shared.u32 %0, [%1+68];" : "=r"(v) : "r"(base));
  if (threadIdx.x == 0) *out = v;
}

__global__ void before_kernel(int *p, int *out) {
  p[-128] = 77;              /* 512 bytes before p */
  __threadfence();
  *out = p[-128];
}

__global__ void hang_kernel(volatile int *flag) {
  while (*flag == 0) {
  }
}

__global__ void twice_kernel(int *p) { *p *= 2; }

static int hang(void) {
  int *flag;
  cudaMalloc(&flag, sizeof(int));
  cudaMemset(flag, 0, sizeof(int));
  hang_kernel<<<1, 32>>>(flag);
  cudaError_t e = cudaDeviceSynchronize();
  printf("hang sync=%d\n", (int) e);
  return 0;
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "";
  if (strcmp(mode, "wrap") == 0) {
    unsigned *d, h = 0;
    cudaMalloc(&d, sizeof(unsigned));
    wrap_kernel<<<1, 2>>>(d);
    cudaError_t e = cudaMemcpy(&h, d, sizeof h, cudaMemcpyDeviceToHost);
    printf("wrap=%u err=%d\n", h, (int) e);
    if (e == cudaSuccess && h == 1234)
      printf("PASSED\n");
    return e == cudaSuccess && h == 1234 ? 0 : 1;
  }
  if (strcmp(mode, "before-first") == 0) {
    int *p, *out, h = -1;
    cudaMalloc(&p, 4096);
    cudaMalloc(&out, sizeof(int));
    before_kernel<<<1, 1>>>(p, out);
    cudaError_t e = cudaDeviceSynchronize();
    cudaMemcpy(&h, out, sizeof h, cudaMemcpyDeviceToHost);
    printf("before=%d sync=%d\n", h, (int) e);
    return 0;
  }
  if (strcmp(mode, "hang") == 0)
    return hang();
  if (strcmp(mode, "sleep") == 0 && argc > 2) {
    FILE *f = fopen(argv[2], "w");
    if (f == NULL)
      return 1;
    fprintf(f, "%d\n", (int) getpid());
    fclose(f);
    return hang();
  }
  if (strcmp(mode, "crash") == 0) {
    int *p;
    cudaMalloc(&p, sizeof(int));
    cudaMemset(p, 0, sizeof(int));
    twice_kernel<<<1, 1>>>(p);
    cudaDeviceSynchronize();
    fflush(stdout);
    abort();
  }
  if (strcmp(mode, "files") == 0 && argc > 3) {
    FILE *in = fopen(argv[2], "r");
    int v = 0;
    if (in == NULL || fscanf(in, "%d", &v) != 1) {
      fprintf(stderr, "cannot read %s\n", argv[2]);
      return 1;
    }
    fclose(in);
    int *p;
    cudaMalloc(&p, sizeof(int));
    cudaMemcpy(p, &v, sizeof v, cudaMemcpyHostToDevice);
    twice_kernel<<<1, 1>>>(p);
    cudaMemcpy(&v, p, sizeof v, cudaMemcpyDeviceToHost);
    FILE *out = fopen(argv[3], "w");
    if (out == NULL)
      return 1;
    fprintf(out, "%d\n", v);
    fclose(out);
    return 0;
  }
  fprintf(stderr, "usage: robust wrap|before-first|hang|sleep FILE|crash|files IN OUT\n");
  return 1;
}
