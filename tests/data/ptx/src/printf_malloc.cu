// Device printf, malloc/free, assert.
#include <cstdio>
#include <cassert>
__global__ void pm(int *out, double d)
{
  int t = threadIdx.x;
  printf ("thread %d of %d: %f %s %c %lld\n", t, blockDim.x, d, "str", 'c', (long long) t * 1000000000000ll);
  int *p = (int *) malloc (64 * sizeof (int));
  if (p) {
    for (int i = 0; i < 64; i++)
      p[i] = i * t;
    out[t] = p[t % 64];
    free (p);
  }
  assert (t < 1024);
  printf ("done\n");
}
