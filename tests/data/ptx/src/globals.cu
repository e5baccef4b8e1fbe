// Constant and __device__ globals with initialisers, shared and local memory.
struct Coef { float a; int b; double c; };
__constant__ float c_table[8] = { 1.0f, 2.0f, 0.5f, -1.0f, 3.25f, 0.0f, 100.0f, 1e-3f };
__constant__ Coef c_coef = { 1.5f, 7, 2.25 };
__constant__ int c_matrix[2][3] = { { 1, 2, 3 }, { 4, 5, 6 } };
__device__ int g_counter = 42;
__device__ unsigned long long g_big = 0x123456789abcdefull;
__device__ int g_array[4] = { 10, 20, 30 };
__device__ double g_dbl = 3.141592653589793;
__device__ int *g_ptr = &g_array[1];
__device__ const char *g_msg = "hello";
__device__ int g_uninit[16];

__global__ void use_globals(float *out, int k)
{
  int t = threadIdx.x;
  extern __shared__ float dyn[];
  __shared__ int stat[32];
  float local[16];
  for (int i = 0; i < 16; i++)
    local[i] = c_table[(i + t) & 7] * i;
  stat[t & 31] = c_matrix[t & 1][t % 3] + g_counter;
  dyn[t] = local[k & 15] + c_coef.a + c_coef.b + (float) c_coef.c;
  __syncthreads ();
  out[t] = dyn[(t + 1) % blockDim.x] + stat[(t + 1) & 31] + (float) g_big + g_array[t & 3] + (float) g_dbl + *g_ptr + g_msg[t % 5];
  g_uninit[t & 15] = t;
  atomicAdd (&g_counter, 1);
}
