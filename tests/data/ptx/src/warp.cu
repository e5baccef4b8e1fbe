// Warp-level primitives: shuffles, votes, match, reduce, barriers.
__global__ void warp(int *out, const int *in, float *fo)
{
  int t = threadIdx.x;
  int v = in[t];
  unsigned full = 0xffffffffu;
  int s = v;
  for (int o = 16; o > 0; o /= 2)
    s += __shfl_down_sync (full, s, o);
  int u = __shfl_up_sync (full, v, 1);
  int x = __shfl_xor_sync (full, v, 4);
  int b = __shfl_sync (full, v, 0);
  float fv = __shfl_sync (full, fo[t], 3, 16);
  double dv = __shfl_down_sync (full, (double) fo[t], 2);
  unsigned bal = __ballot_sync (full, v > 3);
  int all = __all_sync (full, v != 0);
  int any = __any_sync (full, v == 7);
  unsigned am = __activemask ();
  unsigned m = __match_any_sync (full, v);
  int pred;
  unsigned ma = __match_all_sync (full, v, &pred);
  unsigned ra = __reduce_add_sync (full, (unsigned) v);
  unsigned rmin = __reduce_min_sync (full, (unsigned) v);
  int cnt = __syncthreads_count (v > 2);
  int sand = __syncthreads_and (v > 2);
  int sor = __syncthreads_or (v > 2);
  __syncwarp ();
  __syncwarp (0x0000ffffu);
  unsigned lane;
  asm volatile ("mov.u32 %0, %%laneid;" : "=r"(lane));
  unsigned lt;
  asm volatile ("mov.u32 %0, %%lanemask_lt;" : "=r"(lt));
  long long clk = clock64 ();
  out[t] = s + u + x + b + (int) fv + (int) dv + bal + all + any + am + m + ma + pred + ra + rmin + cnt + sand + sor
           + lane + lt + (int) clk + (int) clock ();
}
