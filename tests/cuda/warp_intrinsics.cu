/* warp_intrinsics: warp vote, ballot, shuffles, match and reduce.
 *
 * Every lane writes what it observed; the host recomputes each value from
 * the lane's inputs.  Includes a divergent region (only odd lanes active) to
 * check __activemask and ballots over partial masks, shuffles with a width
 * below 32, and the sm_80 __reduce_*_sync and __match_*_sync intrinsics.
 */
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
  printf("FAILED: %s: %s\n", #call, cudaGetErrorString(e_)); exit(1); } } while (0)

#define NOUT 20
#define FULL 0xffffffffu

__global__ void warp_ops(const int *in, unsigned *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x & 31;
  int v = in[t];
  unsigned *o = out + t * NOUT;
  o[0] = __ballot_sync(FULL, v > 50);
  o[1] = __any_sync(FULL, v == 77);
  o[2] = __all_sync(FULL, v >= 0);
  o[3] = __shfl_sync(FULL, v, 5);
  o[4] = __shfl_up_sync(FULL, v, 3);
  o[5] = __shfl_down_sync(FULL, v, 7);
  o[6] = __shfl_xor_sync(FULL, v, 9);
  o[7] = __shfl_sync(FULL, v, lane + 1, 8);    /* within groups of 8 */
  o[8] = __shfl_down_sync(FULL, v, 2, 16);
  o[9] = __match_any_sync(FULL, v % 4);
  int pred;
  o[10] = __match_all_sync(FULL, v % 4, &pred);
  o[11] = pred;
  o[12] = __reduce_add_sync(FULL, (unsigned) v);
  o[13] = __reduce_min_sync(FULL, (unsigned) v);
  o[14] = __reduce_max_sync(FULL, v - 50);
  o[15] = __reduce_or_sync(FULL, (unsigned) v);
  o[16] = __reduce_and_sync(FULL, (unsigned) v | 0x100u);
  o[17] = __reduce_xor_sync(FULL, (unsigned) v);
  o[18] = 0xdeadu;
  o[19] = 0xdeadu;
  if (lane & 1) { /* divergent: odd lanes only */
    unsigned active = __activemask();
    o[18] = active;
    o[19] = __ballot_sync(active, v & 1);
  }
}

int main() {
  const int warps = 4, n = warps * 32;
  int in[n];
  unsigned long long seed = 99;
  for (int i = 0; i < n; i++) {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    in[i] = (int) ((seed >> 33) % 100);
  }
  for (int i = 0; i < 32; i++) in[64 + i] = 4 * i + 2; /* warp 2: match_all true */
  int *d_in;
  unsigned *d_out;
  unsigned *out = (unsigned *) malloc(n * NOUT * sizeof(unsigned));
  CHECK(cudaMalloc(&d_in, sizeof in));
  CHECK(cudaMalloc(&d_out, n * NOUT * sizeof(unsigned)));
  CHECK(cudaMemcpy(d_in, in, sizeof in, cudaMemcpyHostToDevice));
  warp_ops<<<2, 64>>>(d_in, d_out);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(out, d_out, n * NOUT * sizeof(unsigned), cudaMemcpyDeviceToHost));

  int bad = 0;
  for (int w = 0; w < warps; w++) {
    const int *v = in + w * 32;
    unsigned ballot = 0, any = 0, all = 1, add = 0, mn = ~0u, orv = 0, andv = ~0u, xorv = 0,
             odd_ballot = 0;
    int mx = -1000;
    for (int l = 0; l < 32; l++) {
      ballot |= (unsigned) (v[l] > 50) << l;
      any |= v[l] == 77;
      all &= v[l] >= 0;
      add += v[l];
      mn = (unsigned) v[l] < mn ? (unsigned) v[l] : mn;
      mx = v[l] - 50 > mx ? v[l] - 50 : mx;
      orv |= v[l];
      andv &= (unsigned) v[l] | 0x100u;
      xorv ^= v[l];
      if (l & 1) odd_ballot |= (unsigned) (v[l] & 1) << l;
    }
    int all_same = 1;
    for (int l = 0; l < 32; l++) all_same &= v[l] % 4 == v[0] % 4;
    for (int l = 0; l < 32; l++) {
      unsigned match = 0;
      for (int m = 0; m < 32; m++) match |= (unsigned) (v[m] % 4 == v[l] % 4) << m;
      unsigned want[NOUT] = {
        ballot, any, all, (unsigned) v[5],
        (unsigned) (l >= 3 ? v[l - 3] : v[l]),
        (unsigned) (l + 7 < 32 ? v[l + 7] : v[l]),
        (unsigned) v[l ^ 9],
        (unsigned) v[(l & ~7) + ((l + 1) & 7)],
        (unsigned) ((l & 15) + 2 < 16 ? v[l + 2] : v[l]),
        match, all_same ? FULL : 0u, (unsigned) all_same,
        add, mn, (unsigned) mx, orv, andv, xorv,
        (l & 1) ? 0xaaaaaaaau : 0xdeadu,
        (l & 1) ? odd_ballot : 0xdeadu};
      const unsigned *got = out + (w * 32 + l) * NOUT;
      for (int k = 0; k < NOUT; k++)
        if (got[k] != want[k]) {
          if (bad < 10)
            printf("FAILED: warp %d lane %d result %d = 0x%x, expected 0x%x\n", w, l, k,
                   got[k], want[k]);
          bad++;
        }
    }
  }
  CHECK(cudaFree(d_in));
  CHECK(cudaFree(d_out));
  free(out);
  if (bad) return 1;
  printf("PASSED\n");
  return 0;
}
