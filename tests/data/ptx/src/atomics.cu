// Atomics on global and shared memory, all operations and types.
__global__ void atomics(int *gi, unsigned *gu, unsigned long long *gull, float *gf, double *gd)
{
  __shared__ int si[64];
  __shared__ float sf[64];
  int t = threadIdx.x;
  si[t % 64] = 0;
  sf[t % 64] = 0;
  __syncthreads ();
  int old = atomicAdd (&gi[0], 1);
  atomicAdd (&gi[1], t);
  atomicSub (&gi[2], 3);
  atomicMin (&gi[3], t);
  atomicMax (&gi[4], old);
  atomicInc (&gu[0], 17u);
  atomicDec (&gu[1], 17u);
  atomicAnd (&gu[2], 0xf0u);
  atomicOr (&gu[3], 1u << (t & 31));
  atomicXor (&gu[4], (unsigned) t);
  unsigned ex = atomicExch (&gu[5], (unsigned) t);
  int c = atomicCAS (&gi[5], t, old);
  atomicAdd (&gull[0], 5ull);
  unsigned long long pc = atomicCAS (&gull[1], 1ull, 2ull);
  atomicMax (&gull[2], pc);
  atomicAdd (&gf[0], 1.5f);
  float fo = atomicAdd (&gf[1], 2.5f);
  atomicAdd (&gd[0], 0.25);
  atomicExch (&gf[2], fo);
  atomicAdd (&si[t % 64], 1);
  atomicAdd (&sf[t % 64], 1.0f);
  atomicMax (&si[(t + 1) % 64], t);
  atomicCAS (&si[(t + 2) % 64], 0, t);
  atomicAdd_block (&gi[6], 1);
  atomicAdd_system (&gi[7], 1);
  __threadfence ();
  __threadfence_block ();
  __threadfence_system ();
  __syncthreads ();
  gi[8 + t] = si[t % 64] + (int) sf[t % 64] + (int) ex + c;
}
