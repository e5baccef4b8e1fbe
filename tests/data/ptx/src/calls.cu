// Device function calls: recursion, structs by value, templates, function pointers.
struct Vec3 { float x, y, z; };
struct Big { int a[6]; double w; };

__device__ __noinline__ int fib (int n) { return n < 2 ? n : fib (n - 1) + fib (n - 2); }
__device__ __noinline__ Vec3 cross (Vec3 a, Vec3 b)
{
  return Vec3 { a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x };
}
__device__ __noinline__ double sum_big (Big b)
{
  double s = b.w;
  for (int i = 0; i < 6; i++)
    s += b.a[i];
  return s;
}
template <typename T> __device__ __noinline__ T twice (T v) { return v + v; }
__device__ int add1 (int v) { return v + 1; }
__device__ int mul2 (int v) { return v * 2; }
typedef int (*fn_t) (int);
__device__ fn_t table[2] = { add1, mul2 };

__global__ void calls(int *out, Vec3 a, Vec3 b, Big big, float *fo, double *dout)
{
  int t = threadIdx.x;
  Vec3 c = cross (a, b);
  fo[t] = c.x + c.y + c.z + twice<float> (fo[t]);
  dout[t] = sum_big (big) + twice<double> (dout[t]);
  out[t] = fib (t % 10) + twice<int> (t) + table[t & 1] (t);
}
