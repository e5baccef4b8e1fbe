// Control flow with a known shape for post-dominator tests.
__global__ void ifelse(const int *in, int *out)
{
  int t = threadIdx.x;
  int v = in[t];
  if (v > 10) {
    out[t] = v * 3;
    atomicAdd (&out[1000], v);
  } else {
    out[t + 1] = v - 7;
    atomicMax (&out[1001], v);
  }
  out[t + 2] = 5;
}

__global__ void loop(const int *in, int *out, int n)
{
  int s = 0;
  for (int i = 0; i < n; i++)
    s += in[i] ^ i;
  out[threadIdx.x] = s;
}

__global__ void sw(const int *in, int *out)
{
  int r;
  switch (in[threadIdx.x]) {
  case 0: r = 11; break;
  case 1: r = in[1] * 7; break;
  case 2: r = in[2] + 5; break;
  case 3: r = in[3] - 9; break;
  case 4: r = in[4] << 2; break;
  case 5: r = in[5] >> 1; break;
  case 6: r = in[6] | 3; break;
  default: r = -1; break;
  }
  out[threadIdx.x] = r;
}

__global__ void early_exit(int *out, int n)
{
  if (threadIdx.x >= n)
    return;
  out[threadIdx.x] = 1;
  if (threadIdx.x & 1)
    asm volatile ("trap;");
  __syncthreads();
  out[threadIdx.x] += 2;
}
