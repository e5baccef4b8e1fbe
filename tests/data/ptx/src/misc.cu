// Vector loads/stores, ldg, volatile, 64-bit packing, selects, local arrays.
struct __align__(16) F4 { float x, y, z, w; };
__global__ void misc(const float4 *in4, float4 *out4, const float2 *in2, double2 *od, const int *__restrict__ ro,
                     volatile int *vol, int n, unsigned long long *u64)
{
  int t = threadIdx.x;
  float4 a = in4[t];
  float2 b = __ldg (&in2[t]);
  a.x += b.x;
  a.w -= b.y;
  out4[t] = a;
  od[t] = make_double2 (a.x, a.y);
  int r = __ldg (&ro[t]);
  vol[t] = r;
  int v = vol[t + 1];
  int arr[24];
  for (int i = 0; i < 24; i++)
    arr[i] = i * v;
  unsigned long long w = u64[t];
  unsigned lo = (unsigned) w, hi = (unsigned) (w >> 32);
  u64[t] = ((unsigned long long) lo << 32) | hi;
  int sel = t < n ? arr[n % 24] : arr[t % 24];
  out4[t + 1].x = (float) sel;
  float ld = __ldcs (&in4[t + 2].y) + __ldcg (&in4[t + 3].z);
  __stcs (&out4[t + 2].x, ld);
  __stwt (&out4[t + 3].y, ld);
}
