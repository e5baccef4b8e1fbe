/* validation-util.h: helpers shared by the validation benchmarks.
 *
 * The programs in this folder reproduce the published GPU micro-benchmarks
 * of te42kyfo/gpu-benches (see README.md here and the ground-truth README)
 * so `warpscope-cli validate` can compare predictions with measurements.
 * Arguments are `key=value` words in any order; an unknown key or a bad
 * value is a usage error (exit 2).  Each measured point prints one
 * `RESULT key=value ...` line; the program checks its results on the host
 * and ends with PASSED (exit 0) or FAILED: what (exit 1), as the examples do
 * (example-util.h: CHECK, CHECK_LAUNCH, the fixed-seed LCG).
 *
 * Only the standard CUDA runtime API is used, so the same source runs
 * natively (timing itself with CUDA events) and under Warpscope's emulator
 * (where the events measure emulation time, not a GPU prediction).
 */
#ifndef VALIDATION_UTIL_H
#define VALIDATION_UTIL_H

#include "../example-util.h"

#include <algorithm>
#include <string>
#include <vector>

/* ---- key=value arguments ------------------------------------------------ */

struct VuArgs {
  const char *usage;
  std::vector<std::string> keys, values;
};

static inline void
vu_usage_error (const VuArgs &a, const char *what, const char *detail)
{
  printf ("usage error: %s%s%s\nusage: %s\n", what, detail ? " " : "", detail ? detail : "", a.usage);
  exit (2);
}

/* @known: NULL-terminated list of accepted keys. */
static inline VuArgs
vu_args_parse (int argc, char **argv, const char *const *known, const char *usage)
{
  VuArgs a;
  a.usage = usage;
  for (int i = 1; i < argc; i++)
    {
      const char *eq = strchr (argv[i], '=');
      if (!eq || eq == argv[i])
        vu_usage_error (a, "argument is not key=value:", argv[i]);
      std::string key (argv[i], (size_t) (eq - argv[i]));
      bool ok = false;
      for (const char *const *k = known; *k; k++)
        ok = ok || key == *k;
      if (!ok)
        vu_usage_error (a, "unknown key:", key.c_str ());
      if (std::find (a.keys.begin (), a.keys.end (), key) != a.keys.end ())
        vu_usage_error (a, "key given twice:", key.c_str ());
      a.keys.push_back (key);
      a.values.push_back (std::string (eq + 1));
    }
  return a;
}

static inline const char *
vu_get (const VuArgs &a, const char *key)
{
  for (size_t i = 0; i < a.keys.size (); i++)
    if (a.keys[i] == key)
      return a.values[i].c_str ();
  return NULL;
}

static inline long long
vu_parse_int (const VuArgs &a, const char *key, const char *text, long long min, long long max)
{
  char *end = NULL;
  errno = 0;
  long long v = strtoll (text, &end, 0);
  if (errno != 0 || end == text || *end != '\0' || v < min || v > max)
    {
      char msg[256];
      snprintf (msg, sizeof msg, "%s: '%s' must be an integer in [%lld, %lld]", key, text, min, max);
      vu_usage_error (a, msg, NULL);
    }
  return v;
}

static inline long long
vu_int (const VuArgs &a, const char *key, long long def, long long min, long long max)
{
  const char *v = vu_get (a, key);
  return v ? vu_parse_int (a, key, v, min, max) : def;
}

/* Comma-separated list of integers, or @def when the key is absent. */
static inline std::vector<long long>
vu_ints (const VuArgs &a, const char *key, const std::vector<long long> &def, long long min, long long max)
{
  const char *v = vu_get (a, key);
  if (!v)
    return def;
  std::vector<long long> out;
  std::string s (v), item;
  size_t start = 0;
  for (;;)
    {
      size_t comma = s.find (',', start);
      item = s.substr (start, comma == std::string::npos ? std::string::npos : comma - start);
      out.push_back (vu_parse_int (a, key, item.c_str (), min, max));
      if (comma == std::string::npos)
        break;
      start = comma + 1;
    }
  return out;
}

/* Comma-separated list of words, each one of @allowed (NULL-terminated). */
static inline std::vector<std::string>
vu_words (const VuArgs &a, const char *key, const char *const *allowed)
{
  const char *v = vu_get (a, key);
  std::vector<std::string> out;
  if (!v)
    {
      for (const char *const *w = allowed; *w; w++)
        out.push_back (*w);
      return out;
    }
  std::string s (v);
  size_t start = 0;
  for (;;)
    {
      size_t comma = s.find (',', start);
      std::string item = s.substr (start, comma == std::string::npos ? std::string::npos : comma - start);
      bool ok = false;
      for (const char *const *w = allowed; *w; w++)
        ok = ok || item == *w;
      if (!ok)
        {
          char msg[256];
          snprintf (msg, sizeof msg, "%s: unknown value '%s'", key, item.c_str ());
          vu_usage_error (a, msg, NULL);
        }
      out.push_back (item);
      if (comma == std::string::npos)
        break;
      start = comma + 1;
    }
  return out;
}

/* One word out of @allowed, the first one by default. */
static inline std::string
vu_choice (const VuArgs &a, const char *key, const char *const *allowed)
{
  std::vector<std::string> w = vu_words (a, key, allowed);
  if (vu_get (a, key) == NULL)
    return w[0];
  if (w.size () != 1)
    vu_usage_error (a, key, "takes exactly one value");
  return w[0];
}

/* ---- devices and timing ------------------------------------------------- */

static inline int
vu_attr (cudaDeviceAttr attr)
{
  int dev = 0, v = 0;
  CHECK (cudaGetDevice (&dev));
  CHECK (cudaDeviceGetAttribute (&v, attr, dev));
  return v;
}

/* Times work issued between start() and stop() on @stream with CUDA events
 * (device time natively; emulation wall time under Warpscope). */
struct VuTimer {
  cudaEvent_t a, b;
  cudaStream_t stream;
  explicit VuTimer (cudaStream_t s = 0) : stream (s)
  {
    CHECK (cudaEventCreate (&a));
    CHECK (cudaEventCreate (&b));
  }
  ~VuTimer ()
  {
    cudaEventDestroy (a);
    cudaEventDestroy (b);
  }
  void start ()
  {
    CHECK (cudaEventRecord (a, stream));
  }
  double stop ()
  {
    CHECK (cudaEventRecord (b, stream));
    CHECK (cudaGetLastError ());
    CHECK (cudaEventSynchronize (b));
    float ms = 0.0f;
    CHECK (cudaEventElapsedTime (&ms, a, b));
    return ms;
  }
};

static inline double
vu_median (std::vector<double> v)
{
  if (v.empty ())
    return 0.0;
  std::sort (v.begin (), v.end ());
  size_t n = v.size ();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static inline double
vu_min (const std::vector<double> &v)
{
  return v.empty () ? 0.0 : *std::min_element (v.begin (), v.end ());
}

/* GB/s (10^9 B/s) for @bytes moved in @ms; 0 when the timer read 0. */
static inline double
vu_gbps (double bytes, double ms)
{
  return ms > 0.0 ? bytes / (ms * 1e-3) / 1e9 : 0.0;
}

#endif /* VALIDATION_UTIL_H */
