// Kernels whose instrumentation statistics are known by construction
// (tests/instrument/test-instrument.c checks the exact numbers).
// One launch each, 2 blocks of 128 threads (8 warps), data in global memory.
#include <cstdio>
#include <cuda_runtime.h>

// Branch on threadIdx.x % 4 == 0: per warp, 8 lanes take the branch and 24
// fall through.  Written in PTX so that the compiler cannot turn it into a
// select: it is the only conditional branch of the kernel.
__global__ void branch_mod4 (int *out)
{
  unsigned t = threadIdx.x;
  int v;
  asm volatile ("{\n\t"
                ".reg .pred p;\n\t"
                ".reg .u32 r;\n\t"
                "and.b32 r, %1, 3;\n\t"
                "setp.eq.u32 p, r, 0;\n\t"
                "mov.u32 %0, 0;\n\t"
                "@p bra BR_TAKEN;\n\t"
                "mov.u32 %0, 2;\n"
                "BR_TAKEN:\n\t"
                "add.u32 %0, %0, 1;\n\t"
                "}" : "=r" (v) : "r" (t));
  out[blockIdx.x * blockDim.x + t] = v;
}

// Strided loads: lane l reads in[l * stride] (4-byte floats): a warp touches
// 32 lanes x 4 bytes x stride / 32-byte lines: stride 1 -> 4 lines, 2 -> 8,
// 8 -> 32, 32 -> 32 lines (one per lane).
template <int STRIDE>
__global__ void strided (const float *__restrict__ in, float *__restrict__ out)
{
  int l = threadIdx.x & 31;
  int w = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  float v = in[w * 32 * STRIDE + l * STRIDE];
  out[blockIdx.x * blockDim.x + threadIdx.x] = v;   // stride-1 store: 4 lines
}

// Every lane of every warp computes the same values (all register writes
// scalar); k * 7 = 21 = 0b10101 has 3 constant-one and 29 constant-zero bits.
__global__ void uniform_value (unsigned *out, unsigned k)
{
  *out = k * 7u;
}

int main ()
{
  const int blocks = 2, threads = 128, n = blocks * threads;
  int *d_i;
  float *d_in, *d_out;
  unsigned *d_u;
  cudaMalloc (&d_i, n * sizeof (int));
  cudaMalloc (&d_in, (size_t) n * 32 * sizeof (float));
  cudaMalloc (&d_out, n * sizeof (float));
  cudaMalloc (&d_u, n * sizeof (unsigned));
  cudaMemset (d_in, 0, (size_t) n * 32 * sizeof (float));
  branch_mod4<<<blocks, threads>>> (d_i);
  strided<1><<<blocks, threads>>> (d_in, d_out);
  strided<2><<<blocks, threads>>> (d_in, d_out);
  strided<8><<<blocks, threads>>> (d_in, d_out);
  strided<32><<<blocks, threads>>> (d_in, d_out);
  uniform_value<<<blocks, threads>>> (d_u, 3u);
  cudaError_t e = cudaDeviceSynchronize ();
  if (e != cudaSuccess)
    {
      printf ("error: %s\n", cudaGetErrorString (e));
      return 1;
    }
  int h[4];
  cudaMemcpy (h, d_i, sizeof h, cudaMemcpyDeviceToHost);
  unsigned u;
  cudaMemcpy (&u, d_u, sizeof u, cudaMemcpyDeviceToHost);
  printf ("ok %d %d %d %d %u\n", h[0], h[1], h[2], h[3], u);
  return 0;
}
