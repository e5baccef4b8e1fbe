/* rdc_lib: the library half of the separate-compilation test (see rdc_main.cu). */
#include <cuda_runtime.h>

__device__ int lib_calls = 0;           /* defined here, used from rdc_main.cu */
extern __constant__ float main_scale;   /* defined in rdc_main.cu */

__device__ float lib_transform(float x, int i) {
  atomicAdd(&lib_calls, 1);
  return x * main_scale + (float) (i % 5);
}
