/* example-util.h: helpers shared by the Warpscope CUDA examples.
 *
 * Every example checks each CUDA call, generates its inputs with a fixed-seed
 * 64-bit LCG (so runs are reproducible and traces comparable; rand() differs
 * between C libraries), verifies the device result against a host
 * computation, and ends with "PASSED" (exit 0) or "FAILED: <what>" (exit 1).
 */
#ifndef EXAMPLE_UTIL_H
#define EXAMPLE_UTIL_H

#include <cuda_runtime.h>

#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

/* clang-format off */
#define CHECK(call)                                                          \
  do {                                                                       \
    cudaError_t check_err_ = (call);                                         \
    if (check_err_ != cudaSuccess) {                                         \
      printf ("FAILED: %s at %s:%d: %s (%s)\n", #call, __FILE__, __LINE__,   \
              cudaGetErrorString (check_err_), cudaGetErrorName (check_err_)); \
      exit (1);                                                              \
    }                                                                        \
  } while (0)
/* clang-format on */

/* A launch reports configuration errors through cudaGetLastError and
 * execution errors at the next synchronisation. */
/* clang-format off */
#define CHECK_LAUNCH(what)                                                   \
  do {                                                                       \
    cudaError_t check_err_ = cudaGetLastError ();                            \
    if (check_err_ == cudaSuccess)                                           \
      check_err_ = cudaDeviceSynchronize ();                                 \
    if (check_err_ != cudaSuccess) {                                         \
      printf ("FAILED: launch of %s: %s (%s)\n", what,                       \
              cudaGetErrorString (check_err_), cudaGetErrorName (check_err_)); \
      exit (1);                                                              \
    }                                                                        \
  } while (0)
/* clang-format on */

/* Knuth's MMIX LCG; the high bits are the good ones. */
static inline uint32_t
lcg_next (uint64_t *state)
{
  *state = *state * 6364136223846793005ULL + 1442695040888963407ULL;
  return (uint32_t) (*state >> 33);
}

/* Uniform in [0, 1) with 24 random bits, exactly representable as float. */
static inline float
lcg_float (uint64_t *state)
{
  return (float) (lcg_next (state) >> 7) * (1.0f / 16777216.0f);
}

/* Uniform integer in [0, n). */
static inline uint32_t
lcg_below (uint64_t *state, uint32_t n)
{
  return (uint32_t) (((uint64_t) lcg_next (state) * n) >> 31);
}

/* Positional argument i (1-based) as a positive integer, or def when absent. */
static inline long
arg_long (int argc, char **argv, int i, long def, long min, long max)
{
  if (i >= argc)
    return def;
  char *end = NULL;
  errno = 0;
  long v = strtol (argv[i], &end, 0);
  if (errno != 0 || end == argv[i] || *end != '\0' || v < min || v > max)
    {
      printf ("FAILED: argument %d '%s' must be an integer in [%ld, %ld]\n", i, argv[i], min, max);
      exit (2);
    }
  return v;
}

static inline void *
host_alloc (size_t bytes)
{
  void *p = malloc (bytes ? bytes : 1);
  if (!p)
    {
      printf ("FAILED: host malloc of %zu bytes\n", bytes);
      exit (1);
    }
  return p;
}

#endif /* EXAMPLE_UTIL_H */
