// A small program for fault-injection campaigns whose structure makes every
// outcome class reachable (tests/instrument/test-instrument.c):
//   hang    - the loop counter is compared with `!=`: a flipped bit above the
//             bound makes the loop run for ~2^32 iterations;
//   crash   - 64-bit addresses: high-bit flips leave the allocation;
//   sdc     - the accumulated data values are printed;
//   masked  - low-bit flips of values that are reduced with & 3, dead lanes;
//   symptom - each thread computes byte counts that the host passes to
//             cudaMemset on a scratch buffer: large values make cudaMemset
//             fail, the program reports nothing and still exits 0.
#include <cstdio>
#include <cuda_runtime.h>

#define N 64

__global__ void work (const unsigned *in, unsigned *out, unsigned *len, unsigned iters)
{
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned acc = 0;
  for (unsigned k = 0; k != iters + (in[i] & 3u); k++)
    acc += in[i] * k + 1u;
  out[i] = acc;
  // four byte counts (4 or 8) from different bits: a good share of the
  // injection space feeds cudaMemset sizes
  for (unsigned j = 0; j < 4; j++)
    len[j * N + i] = ((in[i] >> j) & 1u) * 4u + 4u;
}

int main ()
{
  unsigned h_in[N], h_out[N], h_len[4 * N];
  for (int i = 0; i < N; i++)
    h_in[i] = (unsigned) (i * 2654435761u) >> 7;
  unsigned *d_in, *d_out, *d_len;
  void *scratch;
  cudaMalloc (&d_in, sizeof h_in);
  cudaMalloc (&d_out, sizeof h_out);
  cudaMalloc (&d_len, sizeof h_len);
  cudaMalloc (&scratch, 64);
  cudaMemcpy (d_in, h_in, sizeof h_in, cudaMemcpyHostToDevice);
  work<<<2, N / 2>>> (d_in, d_out, d_len, 6u);
  if (cudaDeviceSynchronize () != cudaSuccess)
    return 1;
  cudaMemcpy (h_out, d_out, sizeof h_out, cudaMemcpyDeviceToHost);
  cudaMemcpy (h_len, d_len, sizeof h_len, cudaMemcpyDeviceToHost);
  for (int i = 0; i < 4 * N; i++)
    cudaMemset (scratch, 0, h_len[i]);   // errors ignored on purpose (symptom)
  unsigned sum = 0;
  for (int i = 0; i < N; i++)
    sum = sum * 31u + h_out[i];
  printf ("checksum %08x\n", sum);
  return 0;
}
