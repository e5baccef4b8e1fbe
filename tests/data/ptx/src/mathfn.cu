// Math library functions (single and double precision, fast intrinsics).
__global__ void mathf(float *f)
{
  int t = threadIdx.x;
  float x = f[t];
  f[t] = sinf (x) + cosf (x) + tanf (x) + expf (x) + logf (x) + sqrtf (x) + rsqrtf (x) + powf (x, 2.5f)
         + __sinf (x) + __cosf (x) + __expf (x) + __logf (x) + __fdividef (x, 3.0f) + exp2f (x) + log2f (x)
         + tanhf (x) + erff (x) + atan2f (x, 2.0f) + cbrtf (x) + sinpif (x) + fmodf (x, 1.5f) + hypotf (x, 2.0f);
}

__global__ void mathd(double *d)
{
  int t = threadIdx.x;
  double x = d[t];
  d[t] = sin (x) + cos (x) + exp (x) + log (x) + sqrt (x) + rsqrt (x) + pow (x, 1.5) + tanh (x) + erf (x) + log1p (x);
}
