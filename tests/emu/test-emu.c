/* test-emu.c: the PTX emulator and device memory.
 *
 * Kernels come from tests/data/emu/kernels.ptx (nvcc -ptx -arch=sm_80 -O3 of
 * kernels.cu, committed so the tests need no CUDA) and from hand-written
 * PTX in tests/data/emu/hand.ptx. */
#include "ws-config.h"
#include "emu/ws-emu.h"
#include "trace/ws-trace.h"

#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

typedef struct {
  WsDevMem *mem;
  WsEmu *emu;
  WsEmuModule *mod;
  GString *out;
} Fx;

static void
capture_printf (const char *text, gsize len, gpointer data)
{
  g_string_append_len (data, text, (gssize) len);
}

static char *
data_path (const char *name)
{
  const char *src = g_getenv ("WS_SOURCE_DIR");
  return g_build_filename (src ? src : WS_SOURCE_DIR, "tests", "data", "emu", name, NULL);
}

/* Options of the next fx_init (reset by fx_clear): memory checking and the
 * watchdog.  The default instruction budget ends a test kernel that hangs
 * by mistake long before the suite's timeout; tests whose instruction count
 * depends on thread scheduling (locks across workers) set their own. */
static gboolean fx_memcheck;
static double fx_launch_timeout;
static guint64 fx_budget = 50000000;

/* kernels.ptx is -O3; the debug variant runs the same tests on the -G build. */
static const char *kernels_file = "kernels.ptx";

typedef struct {
  const char *file;
  void (*fn) (void);
} Variant;

static void
run_variant (gconstpointer data)
{
  const Variant *v = data;
  kernels_file = v->file;
  v->fn ();
  kernels_file = "kernels.ptx";
}

static void
fx_init (Fx *fx, const char *file, guint n_threads, gboolean deterministic)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *path = NULL;
  g_autofree char *text = NULL;
  gsize len = 0;
  WsEmuOptions opt = { 0 };

  if (strcmp (file, "kernels.ptx") == 0)
    file = kernels_file;
  path = data_path (file);

  memset (fx, 0, sizeof *fx);
  fx->out = g_string_new (NULL);
  fx->mem = ws_devmem_new (&error);
  g_assert_no_error (error);
  opt.mem = fx->mem;
  opt.n_threads = n_threads;
  opt.deterministic = deterministic;
  opt.instruction_budget = fx_budget;
  opt.memcheck = fx_memcheck;
  opt.launch_timeout = fx_launch_timeout;
  opt.printf_func = capture_printf;
  opt.printf_data = fx->out;
  fx->emu = ws_emu_new (&opt, &error);
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (path, &text, &len, &error));
  g_assert_no_error (error);
  fx->mod = ws_emu_load_ptx (fx->emu, text, len, file, &error);
  g_assert_no_error (error);
  g_assert_nonnull (fx->mod);
}

static void
fx_clear (Fx *fx)
{
  ws_emu_free (fx->emu);
  ws_devmem_free_all (fx->mem);
  g_string_free (fx->out, TRUE);
  fx_memcheck = FALSE;
  fx_launch_timeout = 0;
  fx_budget = 50000000;
}

static uint64_t
dalloc (Fx *fx, gsize size)
{
  g_autoptr (GError) error = NULL;
  uint64_t a = ws_devmem_alloc (fx->mem, size, WS_ALLOC_DEVICE, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (a, !=, 0);
  return a;
}

#define HOST(a) ((void *) (uintptr_t) (a))

static gboolean
launch (Fx *fx, const char *kernel, uint32_t grid, uint32_t block, uint32_t dyn, void **args, WsLaunchStats *stats,
        int *cuda_error, GError **error)
{
  WsEmuFunction *fn = ws_emu_module_get_function (fx->mod, kernel);
  WsLaunchConfig cfg = { { grid, 1, 1 }, { block, 1, 1 }, dyn };
  g_assert_nonnull (fn);
  return ws_emu_launch (fx->emu, fn, &cfg, args, stats, cuda_error, error);
}

static void
launch_ok (Fx *fx, const char *kernel, uint32_t grid, uint32_t block, uint32_t dyn, void **args, WsLaunchStats *stats)
{
  g_autoptr (GError) error = NULL;
  int cerr = -1;
  gboolean ok = launch (fx, kernel, grid, block, dyn, args, stats, &cerr, &error);
  g_assert_no_error (error);
  g_assert_true (ok);
  g_assert_cmpint (cerr, ==, 0);
}

/* ---- device memory ----------------------------------------------------------- */

static void
test_devmem (void)
{
  g_autoptr (GError) error = NULL;
  WsDevMem *mem = ws_devmem_new (&error);
  uint64_t a, b, c, a2;
  g_autofree char *past = NULL, *freed = NULL, *inside = NULL;
  const WsDevAlloc *al;
  guint n;

  g_assert_no_error (error);
  a = ws_devmem_alloc (mem, 1000, WS_ALLOC_DEVICE, "cudaMalloc #1", &error);
  b = ws_devmem_alloc (mem, 5000, WS_ALLOC_DEVICE, "cudaMalloc #2", &error);
  c = ws_devmem_alloc (mem, 16, WS_ALLOC_DEVICE, "cudaMalloc #3", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (a % 256, ==, 0);
  g_assert_cmpuint (b % 256, ==, 0);
  g_assert_cmpuint (b, >, a + 1000);
  g_assert_cmpuint (c, >, b + 5000);
  /* zero-filled and writable */
  g_assert_cmpint (((uint8_t *) HOST (b))[4999], ==, 0);
  memset (HOST (a), 0xab, 1000);
  al = ws_devmem_lookup (mem, a + 10, 4);
  g_assert_nonnull (al);
  g_assert_cmpuint (al->base, ==, a);
  g_assert_null (ws_devmem_lookup (mem, a + 998, 4));
  g_assert_cmpuint (ws_devmem_nearest (mem, a + 1004)->base, ==, a);
  past = ws_devmem_describe (mem, a + 1016);
  g_assert_nonnull (strstr (past, "16 bytes past the end of cudaMalloc #1"));
  {
    g_autofree char *null_desc = ws_devmem_describe (mem, 8);
    g_autofree char *far_desc = ws_devmem_describe (mem, c + (1ull << 32));
    g_assert_nonnull (strstr (null_desc, "null pointer"));
    g_assert_nonnull (strstr (far_desc, "does not point into any device allocation (nearest: cudaMalloc #3"));
  }
  inside = ws_devmem_describe (mem, b + 8);
  g_assert_nonnull (strstr (inside, "8 bytes inside cudaMalloc #2"));
  g_assert_nonnull (ws_devmem_table (mem, &n));
  g_assert_cmpuint (n, ==, 3);
  /* first-fit reuse: the same address comes back, zero-filled again */
  g_assert_true (ws_devmem_release (mem, a, &error));
  freed = ws_devmem_describe (mem, a + 4);
  g_assert_nonnull (strstr (freed, "already freed"));
  a2 = ws_devmem_alloc (mem, 900, WS_ALLOC_DEVICE, "cudaMalloc #4", &error);
  g_assert_cmpuint (a2, ==, a);
  g_assert_cmpint (((uint8_t *) HOST (a2))[0], ==, 0);
  g_assert_false (ws_devmem_release (mem, a2 + 8, &error));
  g_assert_error (error, WS_ERROR, WS_ERROR_INVALID);
  g_clear_error (&error);
  g_assert_null (ws_devmem_host_ptr (mem, c + 8, 16, &error));
  g_assert_error (error, WS_ERROR, WS_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, "cudaMalloc #3"));
  ws_devmem_free_all (mem);
}

static void
test_devmem_deterministic (void)
{
  /* Two memories in one process: only one can own the fixed base, but the
   * offsets of a same sequence of calls are identical. */
  g_autoptr (GError) error = NULL;
  WsDevMem *m1 = ws_devmem_new (&error), *m2 = ws_devmem_new (&error);
  uint64_t a1, b1, a2, b2;
  g_assert_no_error (error);
  a1 = ws_devmem_alloc (m1, 100, WS_ALLOC_DEVICE, NULL, NULL);
  b1 = ws_devmem_alloc (m1, 70000, WS_ALLOC_DEVICE, NULL, NULL);
  a2 = ws_devmem_alloc (m2, 100, WS_ALLOC_DEVICE, NULL, NULL);
  b2 = ws_devmem_alloc (m2, 70000, WS_ALLOC_DEVICE, NULL, NULL);
  g_assert_cmpuint (b1 - a1, ==, b2 - a2);
  ws_devmem_free_all (m1);
  ws_devmem_free_all (m2);
}

/* ---- kernels --------------------------------------------------------------------- */

static void
test_vecadd (void)
{
  Fx fx;
  int n = 1000;
  uint64_t a, b, c;
  float *ha, *hb, *hc;
  WsLaunchStats st;
  fx_init (&fx, "kernels.ptx", 2, FALSE);
  a = dalloc (&fx, n * 4);
  b = dalloc (&fx, n * 4);
  c = dalloc (&fx, n * 4);
  ha = HOST (a);
  hb = HOST (b);
  hc = HOST (c);
  for (int i = 0; i < n; i++)
    {
      ha[i] = (float) i * 0.5f;
      hb[i] = 3.0f - (float) i;
    }
  {
    void *args[] = { &a, &b, &c, &n };
    launch_ok (&fx, "vecadd", (n + 127) / 128, 128, 0, args, &st);
  }
  for (int i = 0; i < n; i++)
    g_assert_cmpfloat (hc[i], ==, ha[i] + hb[i]);
  g_assert_cmpuint (st.warp_instructions, >, 0);
  g_assert_cmpuint (st.thread_instructions, >, st.warp_instructions);
  fx_clear (&fx);
}

static void
test_reduce (void)
{
  Fx fx;
  int n = 1000, blocks = 4;
  uint64_t in, out;
  int *hin, *hout;
  fx_init (&fx, "kernels.ptx", 2, FALSE);
  in = dalloc (&fx, n * 4);
  out = dalloc (&fx, blocks * 4);
  hin = HOST (in);
  hout = HOST (out);
  for (int i = 0; i < n; i++)
    hin[i] = i % 7 - 2;
  {
    void *args[] = { &in, &out, &n };
    launch_ok (&fx, "reduce", blocks, 256, 0, args, NULL);
  }
  for (int b = 0; b < blocks; b++)
    {
      int want = 0;
      for (int i = b * 256; i < MIN (n, (b + 1) * 256); i++)
        want += hin[i];
      g_assert_cmpint (hout[b], ==, want);
    }
  fx_clear (&fx);
}

static void
test_divergence (void)
{
  Fx fx;
  int n = 300;
  uint64_t in, out;
  int *hin, *hout;
  fx_init (&fx, "kernels.ptx", 2, FALSE);
  in = dalloc (&fx, n * 4);
  out = dalloc (&fx, 2 * n * 4);
  hin = HOST (in);
  hout = HOST (out);
  for (int i = 0; i < n; i++)
    hin[i] = (i * 37) % 101 + 1;
  {
    void *args[] = { &in, &out, &n };
    launch_ok (&fx, "diverge", (n + 63) / 64, 64, 0, args, NULL);
  }
  for (int i = 0; i < n; i++)
    {
      int x = hin[i], r = (x & 1) ? x * 3 + 1 : x / 2, steps = 0;
      int warp_first = i / 32 * 32, warp_n = MIN (32, n - warp_first);
      for (int k = 0; k < 100; k++)
        {
          if (r == 1)
            break;
          r = (r & 1) ? 3 * r + 1 : r >> 1;
          steps = k + 1;
        }
      /* __activemask() after the loop: the warp has reconverged */
      g_assert_cmpint (hout[i], ==, r + warp_n);
      if (steps)
        g_assert_cmpint (hout[n + i], ==, steps);
    }
  fx_clear (&fx);
}

static void
test_atomics (void)
{
  Fx fx;
  int n = 5000, threads = 128, blocks = (n + threads - 1) / threads;
  uint64_t cnt, fs, ds;
  unsigned *h;
  fx_init (&fx, "kernels.ptx", 2, FALSE);
  cnt = dalloc (&fx, 16 * 4);
  fs = dalloc (&fx, 4);
  ds = dalloc (&fx, 8);
  h = HOST (cnt);
  h[3] = 0xffffffffu;
  {
    void *args[] = { &cnt, &fs, &ds, &n };
    launch_ok (&fx, "atomics", blocks, threads, 0, args, NULL);
  }
  g_assert_cmpuint (h[0], ==, (unsigned) n);
  g_assert_cmpuint (h[1], ==, (unsigned) ((long) n * (n - 1) / 2));
  g_assert_cmpuint (h[2], ==, (unsigned) n - 1);
  g_assert_cmpuint (h[3], ==, 0);
  g_assert_cmpuint (h[4], ==, 0xffffffffu);
  {
    unsigned x = 0;
    for (int i = 0; i < n; i++)
      x ^= (unsigned) i;
    g_assert_cmpuint (h[5], ==, x);
  }
  g_assert_cmpuint (h[6], ==, (unsigned) (n % 10));
  /* atomicCAS chain: counters[7] is bumped by thread i only when it holds i */
  g_assert_cmpuint (h[7], <=, (unsigned) n);
  g_assert_cmpfloat (*(float *) HOST (fs), ==, (float) n);
  g_assert_cmpfloat (*(double *) HOST (ds), ==, 0.5 * n);
  /* shared-memory atomics: each block adds 2 per thread */
  g_assert_cmpuint (h[8], ==, 2u * (unsigned) n); /* threads past n returned before the barrier */
  fx_clear (&fx);
}

static void
test_carry_chain (void)
{
  Fx fx;
  int n = 64;
  uint64_t a, b, out;
  uint64_t *ha, *hb, *ho;
  fx_init (&fx, "kernels.ptx", 1, TRUE);
  a = dalloc (&fx, 2 * n * 8);
  b = dalloc (&fx, 2 * n * 8);
  out = dalloc (&fx, 3 * n * 8);
  ha = HOST (a);
  hb = HOST (b);
  ho = HOST (out);
  for (int i = 0; i < n; i++)
    {
      ha[2 * i] = 0xffffffffffffffffull - (uint64_t) i;
      ha[2 * i + 1] = (uint64_t) i;
      hb[2 * i] = (uint64_t) i * 3;
      hb[2 * i + 1] = 0x1000;
    }
  {
    void *args[] = { &a, &b, &out, &n };
    launch_ok (&fx, "add64", 2, 32, 0, args, NULL);
  }
  for (int i = 0; i < n; i++)
    {
      unsigned __int128 x = ((unsigned __int128) ha[2 * i + 1] << 64) | ha[2 * i];
      unsigned __int128 y = ((unsigned __int128) hb[2 * i + 1] << 64) | hb[2 * i];
      unsigned __int128 s = x + y;
      uint32_t a32 = (uint32_t) ha[2 * i], b32 = (uint32_t) hb[2 * i];
      g_assert_cmpuint (ho[2 * i], ==, (uint64_t) s);
      g_assert_cmpuint (ho[2 * i + 1], ==, (uint64_t) (s >> 64));
      g_assert_cmpuint (ho[2 * n + i] & 0xffffffffu, ==, (uint32_t) (a32 - b32));
      g_assert_cmpuint (ho[2 * n + i] >> 32, ==, a32 < b32 ? 0xffffffffu : 0);
    }
  fx_clear (&fx);
}

static int
fib (int n)
{
  return n < 2 ? n : fib (n - 1) + fib (n - 2);
}

static void
test_recursion (void)
{
  Fx fx;
  uint64_t out;
  int *h;
  fx_init (&fx, "kernels.ptx", 1, TRUE);
  out = dalloc (&fx, 64 * 4);
  h = HOST (out);
  {
    void *args[] = { &out };
    launch_ok (&fx, "recurse", 1, 64, 0, args, NULL);
  }
  for (int t = 0; t < 64; t++)
    g_assert_cmpint (h[t], ==, fib (t % 12));
  fx_clear (&fx);
}

static void
test_printf (void)
{
  Fx fx;
  int base = 100;
  fx_init (&fx, "kernels.ptx", 2, FALSE);
  {
    void *args[] = { &base };
    launch_ok (&fx, "hello", 2, 3, 0, args, NULL);
  }
  g_assert_cmpstr (fx.out->str, ==,
                   "block 0 thread 0 value 100 0.00 ok\n"
                   "block 0 thread 1 value 101 0.50 ok\n"
                   "block 0 thread 2 value 102 1.00 ok\n"
                   "block 1 thread 0 value 100 0.00 ok\n"
                   "block 1 thread 1 value 101 0.50 ok\n"
                   "block 1 thread 2 value 102 1.00 ok\n");
  fx_clear (&fx);
}

static void
test_malloc (void)
{
  Fx fx;
  uint64_t out;
  int *h;
  fx_init (&fx, "kernels.ptx", 2, FALSE);
  out = dalloc (&fx, 96 * 4);
  h = HOST (out);
  {
    void *args[] = { &out };
    launch_ok (&fx, "devmalloc", 1, 96, 0, args, NULL);
  }
  for (int t = 0; t < 96; t++)
    g_assert_cmpint (h[t], ==, t * 120);
  fx_clear (&fx);
}

static void
test_fault_oob (void)
{
  Fx fx;
  g_autoptr (GError) error = NULL;
  uint64_t p;
  int n = 1000, cerr = 0;
  fx_memcheck = TRUE; /* the hardware would not notice these (test_invalid_unnoticed) */
  fx_init (&fx, "kernels.ptx", 2, FALSE);
  p = ws_devmem_alloc (fx.mem, n * 4, WS_ALLOC_DEVICE, "cudaMalloc #7", &error);
  g_assert_no_error (error);
  {
    void *args[] = { &p, &n };
    g_assert_false (launch (&fx, "oob", 4, 64, 0, args, NULL, &cerr, &error));
  }
  g_assert_error (error, WS_ERROR, WS_ERROR_FAULT);
  g_assert_cmpint (cerr, ==, 700);
  /* block 0 thread 0 writes p[1000]: just past the end */
  g_assert_nonnull (strstr (error->message, "out-of-bounds global store of 4 bytes"));
  g_assert_nonnull (strstr (error->message, "kernel oob"));
  g_assert_nonnull (strstr (error->message, kernels_file));
  g_assert_nonnull (strstr (error->message, "block (0,0,0), thread (0,0,0)"));
  g_assert_nonnull (strstr (error->message, "0 bytes past the end of cudaMalloc #7"));
  fx_clear (&fx);
}

/* The same kernel without --memcheck: its stores land in the 2 MiB page of
 * the allocation, which a GPU does not notice; they are performed and
 * recorded (one entry for the instruction, the first thread named). */
static void
test_invalid_unnoticed (void)
{
  Fx fx;
  g_autoptr (GError) error = NULL;
  uint64_t p;
  int n = 1000;
  fx_init (&fx, "kernels.ptx", 2, FALSE);
  p = ws_devmem_alloc (fx.mem, n * 4, WS_ALLOC_DEVICE, "cudaMalloc #7", &error);
  g_assert_no_error (error);
  {
    void *args[] = { &p, &n };
    launch_ok (&fx, "oob", 4, 64, 0, args, NULL);
  }
  /* performed: p[1000 + i] = 1 for the 256 threads */
  g_assert_cmpint (((int *) HOST (p))[1000], ==, 1);
  g_assert_cmpint (((int *) HOST (p))[1255], ==, 1);
  guint nv = 0;
  const WsEmuInvalidAccess *v = ws_emu_get_invalid_accesses (fx.emu, &nv);
  g_assert_cmpuint (nv, ==, 1);
  g_assert_cmpstr (v[0].kernel, ==, "oob");
  g_assert_cmpstr (v[0].space, ==, "global");
  g_assert_cmpstr (v[0].access, ==, "store");
  g_assert_cmpuint (v[0].size, ==, 4);
  g_assert_cmpuint (v[0].count, ==, 256);
  g_assert_cmpuint (v[0].launches, ==, 1);
  g_assert_cmpuint (v[0].address, ==, p + 4000);
  g_assert_cmpuint (v[0].block[0], ==, 0);
  g_assert_cmpuint (v[0].thread[0], ==, 0);
  g_assert_cmpuint (v[0].ptx_line, >, 0);
  g_assert_nonnull (strstr (v[0].detail, "0 bytes past the end of cudaMalloc #7"));
  g_assert_nonnull (strstr (v[0].instruction, "st.global"));
  /* a second launch adds to the same entry */
  {
    void *args[] = { &p, &n };
    launch_ok (&fx, "oob", 1, 32, 0, args, NULL);
  }
  v = ws_emu_get_invalid_accesses (fx.emu, &nv);
  g_assert_cmpuint (nv, ==, 1);
  g_assert_cmpuint (v[0].count, ==, 288);
  g_assert_cmpuint (v[0].launches, ==, 2);
  fx_clear (&fx);
}

/* Constant predicate operands (xor.pred with -1 is nvcc's NOT). */
static void
test_pred_imm (void)
{
  Fx fx;
  fx_init (&fx, "hand.ptx", 1, TRUE);
  uint64_t out = dalloc (&fx, 32 * 4);
  void *args[] = { &out };
  launch_ok (&fx, "pred_imm", 1, 32, 0, args, NULL);
  const int *h = HOST (out);
  for (int t = 0; t < 32; t++)
    g_assert_cmpint (h[t], ==, t < 5 ? 2 | 4 : 1);
  fx_clear (&fx);
}

/* A divergent __syncthreads() (half a warp at one barrier, half at
 * another): --memcheck stops at the late half's barrier with both lines
 * named (compute-sanitizer's synccheck); lanes that return instead are
 * legal in every mode; without --memcheck the kernel runs as before. */
static void
test_divergent_barrier (void)
{
  for (int memcheck = 0; memcheck < 2; memcheck++)
    for (unsigned early_exit = 0; early_exit < 2; early_exit++)
      {
        Fx fx;
        g_autoptr (GError) error = NULL;
        int cerr = -1;
        fx_memcheck = memcheck;
        fx_init (&fx, "hand.ptx", 1, TRUE);
        uint64_t out = dalloc (&fx, 32 * 4);
        void *args[] = { &out, &early_exit };
        gboolean ok = launch (&fx, "divergent_bar", 1, 32, 0, args, NULL, &cerr, &error);
        const int *h = HOST (out);
        if (memcheck && !early_exit)
          {
            g_assert_false (ok);
            g_assert_error (error, WS_ERROR, WS_ERROR_FAULT);
            g_assert_cmpint (cerr, ==, 719);
            g_assert_nonnull (strstr (error->message, "divergent __syncthreads(): 16 threads of warp 0 reach this "
                                                      "barrier after the other threads of their warp waited without "
                                                      "them at the barrier of PTX line "));
            g_assert_nonnull (strstr (error->message, "kernel divergent_bar at hand.ptx:"));
            g_assert_nonnull (strstr (error->message, "bar.sync"));
          }
        else
          {
            g_assert_no_error (error);
            g_assert_true (ok);
            for (int t = 0; t < 32; t++)
              g_assert_cmpint (h[t], ==, early_exit && t >= 16 ? 0 : 1);
          }
        fx_clear (&fx);
      }
}

/* 512 bytes before the first allocation (the runtime's memory on a GPU):
 * by default written and read back like the hardware does; with memcheck
 * the first access faults with the full report. */
static void
test_invalid_before_first (void)
{
  for (int memcheck = 0; memcheck < 2; memcheck++)
    {
      Fx fx;
      g_autoptr (GError) error = NULL;
      int cerr = -1;
      fx_memcheck = memcheck;
      fx_init (&fx, "hand.ptx", 1, TRUE);
      uint64_t p = dalloc (&fx, 1024), out = dalloc (&fx, 64);
      void *args[] = { &p, &out };
      gboolean ok = launch (&fx, "before_first", 1, 1, 0, args, NULL, &cerr, &error);
      guint nv = 0;
      const WsEmuInvalidAccess *v = ws_emu_get_invalid_accesses (fx.emu, &nv);
      if (!memcheck)
        {
          g_assert_no_error (error);
          g_assert_true (ok);
          g_assert_cmpint (*(int *) HOST (out), ==, 77);
          g_assert_cmpuint (nv, ==, 2);
          g_assert_cmpstr (v[0].access, ==, "store");
          g_assert_cmpstr (v[1].access, ==, "load");
          g_assert_cmpuint (v[0].address, ==, p - 512);
          g_assert_nonnull (strstr (v[0].detail, "512 bytes before the start of"));
        }
      else
        {
          g_assert_false (ok);
          g_assert_error (error, WS_ERROR, WS_ERROR_FAULT);
          g_assert_cmpint (cerr, ==, 700);
          g_assert_nonnull (strstr (error->message, "out-of-bounds global store of 4 bytes"));
          g_assert_nonnull (strstr (error->message, "512 bytes before the start of"));
          g_assert_nonnull (strstr (error->message, "kernel before_first"));
          g_assert_nonnull (strstr (error->message, "block (0,0,0), thread (0,0,0)"));
          g_assert_cmpuint (nv, ==, 0);
          g_assert_cmpint (*(int *) HOST (out), ==, 0);
        }
      fx_clear (&fx);
    }
}

/* Far outside any allocation a GPU faults too: the default mode faults. */
static void
test_invalid_far_faults (void)
{
  Fx fx;
  g_autoptr (GError) error = NULL;
  int n = 1 << 28, cerr = 0; /* 1 GiB past the buffer */
  fx_init (&fx, "kernels.ptx", 1, TRUE);
  uint64_t p = dalloc (&fx, 4096);
  void *args[] = { &p, &n };
  g_assert_false (launch (&fx, "oob", 1, 32, 0, args, NULL, &cerr, &error));
  g_assert_error (error, WS_ERROR, WS_ERROR_FAULT);
  g_assert_cmpint (cerr, ==, 700);
  g_assert_nonnull (strstr (error->message, "out-of-bounds global store"));
  fx_clear (&fx);
}

/* ld.shared.u32 %r62, [%r4+68] with %r4 = 0xffffffc0 reads offset 4 (the
 * window is 32 bits wide), and the same for local memory. */
static void
test_window_wrap (void)
{
  for (int memcheck = 0; memcheck < 2; memcheck++)
    {
      Fx fx;
      fx_memcheck = memcheck;
      fx_init (&fx, "hand.ptx", 1, TRUE);
      uint64_t out = dalloc (&fx, 64);
      void *args[] = { &out };
      launch_ok (&fx, "window_wrap", 1, 1, 0, args, NULL);
      g_assert_cmpuint (((uint32_t *) HOST (out))[0], ==, 1234);
      g_assert_cmpuint (((uint32_t *) HOST (out))[1], ==, 5678);
      guint nv = 0;
      ws_emu_get_invalid_accesses (fx.emu, &nv);
      g_assert_cmpuint (nv, ==, 0);
      fx_clear (&fx);
    }
}

/* The watchdog's time limit ends an endless kernel as a GPU's launch
 * timeout does (cudaErrorLaunchTimeout), with no instruction budget. */
static void
test_watchdog_timeout (void)
{
  Fx fx;
  g_autoptr (GError) error = NULL;
  int cerr = 0;
  fx_budget = 0;
  fx_launch_timeout = 0.5;
  fx_init (&fx, "hand.ptx", 1, TRUE);
  double t0 = g_get_monotonic_time () / 1e6;
  void *args[] = { NULL };
  g_assert_false (launch (&fx, "spin", 1, 32, 0, args, NULL, &cerr, &error));
  double t = g_get_monotonic_time () / 1e6 - t0;
  g_assert_error (error, WS_ERROR, WS_ERROR_FAULT);
  g_assert_cmpint (cerr, ==, 702);
  g_assert_nonnull (strstr (error->message, "the launch timed out"));
  g_assert_nonnull (strstr (error->message, "0.5 s"));
  g_assert_nonnull (strstr (error->message, "kernel spin"));
  g_assert_cmpfloat (t, >=, 0.5);
  g_assert_cmpfloat (t, <, 5.0);
  fx_clear (&fx);
}

static void
test_fault_misaligned (void)
{
  Fx fx;
  g_autoptr (GError) error = NULL;
  uint64_t p;
  int cerr = 0;
  fx_init (&fx, "kernels.ptx", 1, TRUE);
  p = dalloc (&fx, 64);
  {
    void *args[] = { &p };
    g_assert_false (launch (&fx, "misaligned", 1, 1, 0, args, NULL, &cerr, &error));
  }
  g_assert_error (error, WS_ERROR, WS_ERROR_FAULT);
  g_assert_cmpint (cerr, ==, 716);
  g_assert_nonnull (strstr (error->message, "misaligned global store of 4 bytes"));
  fx_clear (&fx);
}

static void
test_globals (void)
{
  Fx fx;
  uint64_t out, counter_addr = 0, counter_size = 0, tbl = 0;
  float *h;
  static const float coeffs[4] = { 1.5f, 2.5f, 3.5f, 4.5f };
  fx_init (&fx, "kernels.ptx", 1, TRUE);
  out = dalloc (&fx, 32 * 4);
  h = HOST (out);
  g_assert_true (ws_emu_module_get_global (fx.mod, "counter", &counter_addr, &counter_size));
  g_assert_cmpuint (counter_size, ==, 4);
  g_assert_true (ws_emu_module_get_global (fx.mod, "table", &tbl, NULL));
  g_assert_cmpint (((int *) HOST (tbl))[7], ==, 80);
  {
    void *args[] = { &out };
    launch_ok (&fx, "globals", 1, 32, 0, args, NULL);
    launch_ok (&fx, "globals", 1, 32, 0, args, NULL);
  }
  for (int t = 0; t < 32; t++)
    g_assert_cmpfloat (h[t], ==, coeffs[t & 3] * (float) (10 * ((t & 7) + 1)));
  g_assert_cmpint (*(int *) HOST (counter_addr), ==, 64);
  fx_clear (&fx);
}

static void
test_dynamic_shared (void)
{
  Fx fx;
  uint64_t in, out;
  int *hin, *hout, bs = 96, blocks = 3;
  fx_init (&fx, "kernels.ptx", 2, FALSE);
  in = dalloc (&fx, bs * blocks * 4);
  out = dalloc (&fx, bs * blocks * 4);
  hin = HOST (in);
  hout = HOST (out);
  for (int i = 0; i < bs * blocks; i++)
    hin[i] = i * 11;
  {
    void *args[] = { &in, &out };
    launch_ok (&fx, "dynsmem", blocks, bs, bs * 4, args, NULL);
  }
  for (int b = 0; b < blocks; b++)
    for (int t = 0; t < bs; t++)
      g_assert_cmpint (hout[b * bs + t], ==, hin[b * bs + bs - 1 - t]);
  {
    /* too little dynamic shared memory: the last threads write past it */
    g_autoptr (GError) error = NULL;
    int cerr = 0;
    void *args[] = { &in, &out };
    g_assert_false (launch (&fx, "dynsmem", 1, bs, 64, args, NULL, &cerr, &error));
    g_assert_cmpint (cerr, ==, 700);
    g_assert_nonnull (strstr (error->message, "shared"));
  }
  fx_clear (&fx);
}

static void
test_local_array (void)
{
  Fx fx;
  uint64_t in, out;
  int *hin, *hout, k = 5;
  fx_init (&fx, "kernels.ptx", 2, FALSE);
  in = dalloc (&fx, 32 * 4);
  out = dalloc (&fx, 64 * 4);
  hin = HOST (in);
  hout = HOST (out);
  for (int j = 0; j < 32; j++)
    hin[j] = j + 1;
  {
    void *args[] = { &in, &out, &k };
    launch_ok (&fx, "localarr", 1, 64, 0, args, NULL);
  }
  for (int t = 0; t < 64; t++)
    g_assert_cmpint (hout[t], ==, hin[(t + k) & 31] * t);
  fx_clear (&fx);
}

static uint32_t
host_brev (uint32_t v)
{
  uint32_t r = 0;
  for (int i = 0; i < 32; i++)
    if (v >> i & 1)
      r |= 1u << (31 - i);
  return r;
}

static uint32_t
host_prmt (uint32_t a, uint32_t b, uint32_t s)
{
  uint8_t bytes[8];
  uint32_t r = 0;
  for (int i = 0; i < 4; i++)
    {
      bytes[i] = (uint8_t) (a >> (8 * i));
      bytes[4 + i] = (uint8_t) (b >> (8 * i));
    }
  for (int i = 0; i < 4; i++)
    {
      uint32_t sel = (s >> (4 * i)) & 0xf;
      uint8_t v = bytes[sel & 7];
      if (sel & 8)
        v = (v & 0x80) ? 0xff : 0;
      r |= (uint32_t) v << (8 * i);
    }
  return r;
}

static void
test_warp_ops (void)
{
  Fx fx;
  uint64_t out;
  int *h;
  fx_init (&fx, "kernels.ptx", 1, TRUE);
  out = dalloc (&fx, 32 * 8 * 4);
  h = HOST (out);
  {
    void *args[] = { &out };
    launch_ok (&fx, "warpops", 1, 32, 0, args, NULL);
  }
  for (int t = 0; t < 32; t++)
    {
      int clz = t == 0 ? 32 : __builtin_clz ((unsigned) t);
      int ffs = t == 0 ? 0 : __builtin_ctz ((unsigned) t) + 1;
      uint32_t misc = host_brev ((uint32_t) t) ^ (uint32_t) clz ^ (uint32_t) ffs
                      ^ host_prmt ((uint32_t) t, 0x12345678u,
                                   (uint32_t) (0x3210 + t) & 0x7777u); /* __byte_perm uses 3 selector bits */
      g_assert_cmpuint ((uint32_t) h[t * 8 + 0], ==, 0xaaaaaaaau);
      g_assert_cmpint (h[t * 8 + 1], ==, 1);
      g_assert_cmpint (h[t * 8 + 2], ==, 1);
      g_assert_cmpint (h[t * 8 + 3], ==, t == 0 ? 0 : t - 1);
      g_assert_cmpint (h[t * 8 + 4], ==, ((t + 3) & 31) * 2);
      g_assert_cmpuint ((uint32_t) h[t * 8 + 5], ==, 0xffu << (t / 8 * 8));
      g_assert_cmpint (h[t * 8 + 6], ==, 496);
      g_assert_cmpuint ((uint32_t) h[t * 8 + 7], ==, misc);
    }
  fx_clear (&fx);
}

static void
test_math (void)
{
  Fx fx;
  uint64_t in, out, dout;
  float *hin, *h;
  double *hd;
  fx_init (&fx, "kernels.ptx", 1, TRUE);
  in = dalloc (&fx, 32 * 4);
  out = dalloc (&fx, 32 * 6 * 4);
  dout = dalloc (&fx, 32 * 2 * 8);
  hin = HOST (in);
  h = HOST (out);
  hd = HOST (dout);
  for (int t = 0; t < 32; t++)
    hin[t] = 0.25f + (float) t * 0.37f;
  {
    void *args[] = { &in, &out, &dout };
    launch_ok (&fx, "mathops", 1, 32, 0, args, NULL);
  }
  for (int t = 0; t < 32; t++)
    {
      float x = hin[t];
      double d = x;
      g_assert_cmpfloat (h[t * 6 + 0], ==, sqrtf (x));
      g_assert_cmpfloat_with_epsilon (h[t * 6 + 1], sinf (x), 1e-5);
      g_assert_cmpfloat_with_epsilon (h[t * 6 + 2] / expf (x), 1.0, 1e-5);
      g_assert_cmpfloat (h[t * 6 + 3], ==, x / 3.0f);
      g_assert_cmpfloat (h[t * 6 + 4], ==, (float) (int) (x * 7.9f));
      g_assert_cmpfloat_with_epsilon (h[t * 6 + 5], 1.0f / sqrtf (x + 1.0f), 1e-6);
      g_assert_cmpfloat (hd[t * 2 + 0], ==, sqrt (d) / 3.0);
      g_assert_cmpfloat (hd[t * 2 + 1], ==, fma (d, d, 1.0));
    }
  fx_clear (&fx);
}

static void
test_indirect_and_switch (void)
{
  Fx fx;
  uint64_t out;
  int *h;
  fx_init (&fx, "kernels.ptx", 1, TRUE);
  out = dalloc (&fx, 96 * 4);
  h = HOST (out);
  {
    void *args[] = { &out };
    launch_ok (&fx, "indirect", 1, 96, 0, args, NULL);
    for (int t = 0; t < 96; t++)
      g_assert_cmpint (h[t], ==, t % 3 == 0 ? t + 7 : t % 3 == 1 ? t * 7 : t - 7);
    launch_ok (&fx, "switcher", 1, 96, 0, args, NULL);
  }
  for (int t = 0; t < 96; t++)
    {
      int r;
      switch (t % 9)
        {
        case 0: r = t * 3; break;
        case 1: r = t + 100; break;
        case 2: r = t ^ 0x55; break;
        case 3: r = -t; break;
        case 4: r = t << 3; break;
        case 5: r = t / 3; break;
        case 6: r = t % 5; break;
        case 7: r = 77; break;
        default: r = t * t; break;
        }
      g_assert_cmpint (h[t], ==, r);
    }
  fx_clear (&fx);
}

static void
test_half (void)
{
  Fx fx;
  uint64_t in, out;
  float *hin, *h;
  fx_init (&fx, "kernels.ptx", 1, TRUE);
  in = dalloc (&fx, 32 * 4);
  out = dalloc (&fx, 32 * 3 * 4);
  hin = HOST (in);
  h = HOST (out);
  for (int t = 0; t < 32; t++)
    hin[t] = (float) t * 0.5f - 4.0f; /* exact in half precision */
  {
    void *args[] = { &in, &out };
    launch_ok (&fx, "halfops", 1, 32, 0, args, NULL);
  }
  for (int t = 0; t < 32; t++)
    {
      float a = hin[t];
      g_assert_cmpfloat (h[t * 3 + 0], ==, a * 1.5f + 0.25f);
      g_assert_cmpfloat (h[t * 3 + 1], ==, a * a);
      g_assert_cmpfloat (h[t * 3 + 2], ==, 2.25f);
    }
  fx_clear (&fx);
}

static void
test_assert (void)
{
  Fx fx;
  g_autoptr (GError) error = NULL;
  uint64_t p;
  int cerr = 0;
  fx_init (&fx, "kernels.ptx", 1, TRUE);
  p = dalloc (&fx, 64 * 4);
  ((int *) HOST (p))[40] = 12;
  {
    void *args[] = { &p };
    g_assert_false (launch (&fx, "asserter", 1, 64, 0, args, NULL, &cerr, &error));
  }
  g_assert_error (error, WS_ERROR, WS_ERROR_FAULT);
  g_assert_cmpint (cerr, ==, 710);
  g_assert_nonnull (strstr (error->message, "thread (40,0,0)"));
  g_assert_nonnull (strstr (fx.out->str, "kernels.cu"));
  g_assert_nonnull (strstr (fx.out->str, "block: [0,0,0], thread: [40,0,0] Assertion `p[threadIdx.x] < 10` failed."));
  fx_clear (&fx);
}

static void
test_grid3d (void)
{
  Fx fx;
  uint64_t out;
  uint32_t *h;
  WsLaunchConfig cfg = { { 3, 2, 2 }, { 5, 3, 4 }, 0 };
  WsEmuFunction *fn;
  g_autoptr (GError) error = NULL;
  int cerr = -1;
  fx_init (&fx, "kernels.ptx", 2, FALSE);
  out = dalloc (&fx, 12 * 60 * 8);
  h = HOST (out);
  fn = ws_emu_module_get_function (fx.mod, "grid3d");
  {
    void *args[] = { &out };
    g_assert_true (ws_emu_launch (fx.emu, fn, &cfg, args, NULL, &cerr, &error));
    g_assert_no_error (error);
  }
  for (uint32_t bz = 0; bz < 2; bz++)
    for (uint32_t by = 0; by < 2; by++)
      for (uint32_t bx = 0; bx < 3; bx++)
        for (uint32_t tz = 0; tz < 4; tz++)
          for (uint32_t ty = 0; ty < 3; ty++)
            for (uint32_t tx = 0; tx < 5; tx++)
              {
                uint32_t b = bx + 3 * (by + 2 * bz), t = tx + 5 * (ty + 3 * tz);
                g_assert_cmpuint (h[2 * (b * 60 + t)], ==, tx | ty << 8 | tz << 16);
                g_assert_cmpuint (h[2 * (b * 60 + t) + 1], ==, bx | by << 8 | bz << 16);
              }
  /* a block of 1025 threads is refused like on a GPU */
  cfg.block[0] = 1025;
  cfg.block[1] = cfg.block[2] = 1;
  {
    void *args[] = { &out };
    g_assert_false (ws_emu_launch (fx.emu, fn, &cfg, args, NULL, &cerr, &error));
  }
  g_assert_error (error, WS_ERROR, WS_ERROR_INVALID);
  g_assert_cmpint (cerr, ==, 9);
  fx_clear (&fx);
}

/* The device half of tests/cuda/printf_formats.cu: every conversion must
 * print what the host C library prints (the committed expected text). */
static void
test_printf_formats (void)
{
  Fx fx;
  g_autofree char *exp_path = NULL, *expected = NULL;
  const char *src = g_getenv ("WS_SOURCE_DIR");
  struct {
    int a;
    float b;
  } pair = { 7, 0.125f };
  int i = 42;
  unsigned u = 0xdeadbeefu;
  long long ll = 1234567890123LL;
  unsigned long long ull = 18446744073709551615ULL;
  float f = 3.14159265f;
  double d = 2.718281828459045;
  char c = 'x';
  char *cut;
  fx_init (&fx, "printf_formats.ptx", 2, FALSE);
  {
    void *args[] = { &i, &u, &ll, &ull, &f, &d, &c, &pair };
    launch_ok (&fx, "_Z12print_kernelijxyfdc4Pair", 1, 1, 0, args, NULL);
  }
  {
    void *args[] = { NULL };
    launch_ok (&fx, "_Z9print_idsv", 4, 1, 0, args, NULL);
  }
  g_string_append (fx.out, "PASSED\n");
  exp_path = g_build_filename (src ? src : WS_SOURCE_DIR, "tests", "cuda", "printf_formats.expected.txt", NULL);
  g_assert_true (g_file_get_contents (exp_path, &expected, NULL, NULL));
  cut = strstr (expected, "PASSED\n");
  g_assert_nonnull (cut);
  cut[strlen ("PASSED\n")] = 0;
  g_assert_cmpstr (fx.out->str, ==, expected);
  fx_clear (&fx);
}

static void
test_spinlock (void)
{
  Fx fx;
  uint64_t counter;
  /* Blocks on two workers contend for one lock: how long a waiter polls
   * depends on how the OS schedules the holder's thread, so no instruction
   * budget here; a time watchdog still ends a real hang. */
  fx_budget = 0;
  fx_launch_timeout = 120;
  fx_init (&fx, "kernels.ptx", 2, FALSE);
  counter = dalloc (&fx, 4);
  {
    void *args[] = { &counter };
    launch_ok (&fx, "spinlock", 6, 96, 0, args, NULL);
  }
  g_assert_cmpint (*(int *) HOST (counter), ==, 6 * 96);
  fx_clear (&fx);
}

/* ---- hand-written PTX ----------------------------------------------------------- */

static void
test_hang_budget (void)
{
  Fx fx;
  g_autoptr (GError) error = NULL;
  int cerr = 0;
  fx_budget = 50000000;
  fx_init (&fx, "hand.ptx", 1, TRUE);
  {
    void *args[] = { NULL };
    g_assert_false (launch (&fx, "spin", 1, 32, 0, args, NULL, &cerr, &error));
  }
  g_assert_error (error, WS_ERROR, WS_ERROR_FAULT);
  g_assert_cmpint (cerr, ==, 702);
  g_assert_nonnull (strstr (error->message, "instruction budget"));
  fx_clear (&fx);
}

static void
test_trap (void)
{
  Fx fx;
  g_autoptr (GError) error = NULL;
  int cerr = 0;
  fx_init (&fx, "hand.ptx", 1, TRUE);
  {
    void *args[] = { NULL };
    g_assert_false (launch (&fx, "trapper", 2, 64, 0, args, NULL, &cerr, &error));
  }
  g_assert_error (error, WS_ERROR, WS_ERROR_FAULT);
  g_assert_cmpint (cerr, ==, 719);
  /* only thread 37 of block 1 traps */
  g_assert_nonnull (strstr (error->message, "block (1,0,0), thread (37,0,0)"));
  fx_clear (&fx);
}

static void
test_hand_intops (void)
{
  Fx fx;
  uint64_t out;
  uint32_t *h;
  fx_init (&fx, "hand.ptx", 1, TRUE);
  out = dalloc (&fx, 64 * 4);
  h = HOST (out);
  {
    void *args[] = { &out };
    launch_ok (&fx, "intops", 1, 64, 0, args, NULL);
  }
  /* bar.red.popc over the block: threads with tid%3==0 in 64 threads */
  g_assert_cmpuint (h[0], ==, 22);
  g_assert_cmpuint (h[1], ==, 0xabu);                                     /* bfe.u32 */
  g_assert_cmpuint (h[2], ==, 0xffffffabu);                               /* bfe.s32 sign-extends the field */
  g_assert_cmpuint (h[3], ==, 0x12345f78u);                               /* bfi.b32 */
  g_assert_cmpuint (h[4], ==, 0xf0000000u);                               /* bmsk.clamp: bits 28..35 cut at 31 */
  g_assert_cmpuint (h[5], ==, 7);                                         /* popc */
  g_assert_cmpuint (h[6], ==, (0xf0f0f0f0u & 0xff00ff00u) | 0x0f0f0f0fu); /* lop3 (a&b)|c */
  g_assert_cmpuint (h[7], ==, 1 * 5 + 2 * 6 + 3 * 7 + 4 * 8 + 10);        /* dp4a */
  g_assert_cmpuint (h[8], ==, 0x34567812u);                               /* shf.l */
  g_assert_cmpuint (h[9], ==, (uint32_t) ((uint64_t) 0x87654321u * 0x12345678u >> 32)); /* mul.hi.u32 */
  g_assert_cmpuint (h[10], ==, (uint32_t) G_MAXINT32);                                  /* add.sat.s32 */
  g_assert_cmpuint (h[11], ==, 3);                                                      /* bfind.u32 */
  g_assert_cmpuint (h[12], ==, 0xff0u); /* bmsk.wrap: position 36 wraps to 4 */
  fx_clear (&fx);
}

static void
test_brx (void)
{
  Fx fx;
  uint64_t out;
  uint32_t *h;
  fx_init (&fx, "hand.ptx", 1, TRUE);
  out = dalloc (&fx, 40 * 8);
  h = HOST (out);
  {
    void *args[] = { &out };
    launch_ok (&fx, "brx_test", 1, 40, 0, args, NULL);
  }
  for (uint32_t t = 0; t < 40; t++)
    {
      g_assert_cmpuint (h[2 * t], ==, 100 * (t % 3 + 1) + t);
      /* the three targets reconverge before activemask */
      g_assert_cmpuint (h[2 * t + 1], ==, t < 32 ? 0xffffffffu : 0xffu);
    }
  fx_clear (&fx);
}

/* ---- parallel == deterministic -------------------------------------------------- */

static void
run_saxpy_like (guint threads, gboolean det, float *result, WsLaunchStats *st, GString *out)
{
  Fx fx;
  int n = 4096, a = 9;
  uint64_t x, y, in, o;
  int m = 2000;
  fx_init (&fx, "kernels.ptx", threads, det);
  x = dalloc (&fx, n * 4);
  y = dalloc (&fx, n * 4);
  for (int i = 0; i < n; i++)
    {
      ((float *) HOST (x))[i] = (float) i * 0.25f;
      ((float *) HOST (y))[i] = 1.0f;
    }
  {
    void *args[] = { &n, &a, &x, &y };
    launch_ok (&fx, "saxpy2", n / 128, 128, 0, args, st);
  }
  memcpy (result, HOST (y), n * 4);
  in = dalloc (&fx, m * 4);
  o = dalloc (&fx, 2 * m * 4);
  for (int i = 0; i < m; i++)
    ((int *) HOST (in))[i] = i * 13 % 97 + 1;
  {
    WsLaunchStats st2;
    void *args[] = { &in, &o, &m };
    launch_ok (&fx, "diverge", (m + 63) / 64, 64, 0, args, &st2);
    st->warp_instructions += st2.warp_instructions;
    st->thread_instructions += st2.thread_instructions;
  }
  memcpy (result + n, HOST (o), 2 * m * 4);
  {
    int base = 0;
    void *args[] = { &base };
    launch_ok (&fx, "hello", 8, 2, 0, args, NULL);
  }
  g_string_append (out, fx.out->str);
  fx_clear (&fx);
}

static void
test_parallel_equals_serial (void)
{
  float *r1 = g_new0 (float, 4096 + 4000), *r2 = g_new0 (float, 4096 + 4000);
  WsLaunchStats s1, s2;
  g_autoptr (GString) o1 = g_string_new (NULL), o2 = g_string_new (NULL);
  run_saxpy_like (1, TRUE, r1, &s1, o1);
  run_saxpy_like (4, FALSE, r2, &s2, o2);
  g_assert_cmpmem (r1, (4096 + 4000) * 4, r2, (4096 + 4000) * 4);
  g_assert_cmpfloat (r1[100], ==, 1.0f + 9 * 25.0f);
  g_assert_cmpuint (s1.warp_instructions, ==, s2.warp_instructions);
  g_assert_cmpuint (s1.thread_instructions, ==, s2.thread_instructions);
  g_assert_cmpstr (o1->str, ==, o2->str);
  g_assert_cmpuint (o1->len, >, 100);
  g_free (r1);
  g_free (r2);
}

/* Records reduce + diverge with @threads workers; returns the file bytes. */
static GBytes *
record_trace (const char *dir, guint threads, gboolean det, WsLaunchStats *total)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *path = g_strdup_printf ("%s/t%u.wstrace", dir, threads);
  g_autofree char *text = NULL, *ptxpath = data_path ("kernels.ptx");
  gsize len;
  Fx fx;
  WsEmuOptions opt = { 0 };
  int n = 3000;
  uint64_t in, out;
  char *contents = NULL;

  memset (&fx, 0, sizeof fx);
  fx.out = g_string_new (NULL);
  fx.mem = ws_devmem_new (&error);
  opt.mem = fx.mem;
  opt.n_threads = threads;
  opt.deterministic = det;
  opt.trace = ws_trace_writer_new (path, &error);
  g_assert_no_error (error);
  opt.printf_func = capture_printf;
  opt.printf_data = fx.out;
  fx.emu = ws_emu_new (&opt, &error);
  g_assert_true (g_file_get_contents (ptxpath, &text, &len, NULL));
  fx.mod = ws_emu_load_ptx (fx.emu, text, len, "kernels.ptx", &error);
  g_assert_no_error (error);
  in = dalloc (&fx, n * 4);
  out = dalloc (&fx, 2 * n * 4);
  for (int i = 0; i < n; i++)
    ((int *) HOST (in))[i] = i * 29 % 211 + 1;
  memset (total, 0, sizeof *total);
  {
    WsLaunchStats st;
    void *args[] = { &in, &out, &n };
    launch_ok (&fx, "diverge", (n + 127) / 128, 128, 0, args, &st);
    total->warp_instructions += st.warp_instructions;
    total->thread_instructions += st.thread_instructions;
    launch_ok (&fx, "reduce", (n + 255) / 256, 256, 0, args, &st);
    total->warp_instructions += st.warp_instructions;
    total->thread_instructions += st.thread_instructions;
  }
  g_assert_true (ws_trace_writer_close (opt.trace, &error));
  g_assert_no_error (error);
  fx_clear (&fx);
  g_assert_true (g_file_get_contents (path, &contents, &len, NULL));
  return g_bytes_new_take (contents, len);
}

static void
test_trace_parallel_identical (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("ws-emu-trace-XXXXXX", &error);
  g_autofree char *path = NULL;
  WsLaunchStats s1, s2;
  g_autoptr (GBytes) b1 = record_trace (dir, 1, TRUE, &s1);
  g_autoptr (GBytes) b2 = record_trace (dir, 3, FALSE, &s2);
  WsTrace *t;
  const WsTraceLaunch *l0, *l1;
  g_autoptr (WsTraceTb) tb = NULL;

  g_assert_true (g_bytes_equal (b1, b2));
  g_assert_cmpuint (s1.warp_instructions, ==, s2.warp_instructions);
  path = g_strdup_printf ("%s/t1.wstrace", dir);
  t = ws_trace_open (path, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (ws_trace_get_n_launches (t), ==, 2);
  l0 = ws_trace_get_launch (t, 0);
  l1 = ws_trace_get_launch (t, 1);
  g_assert_true (l0->complete);
  g_assert_cmpuint (l0->warp_instructions + l1->warp_instructions, ==, s1.warp_instructions);
  g_assert_cmpuint (l0->thread_instructions + l1->thread_instructions, ==, s1.thread_instructions);
  g_assert_cmpuint (l1->barriers, ==, 12 * 8); /* one bar.sync per warp of each of 12 blocks */
  g_assert_cmpuint (l0->memory_instructions, >, 0);
  g_assert_cmpstr (ws_trace_get_kernel (t, l0->kernel)->name, ==, "diverge");
  tb = ws_trace_read_tb (t, 0, 1, &error);
  g_assert_no_error (error);
  {
    WsTraceWarpIter it;
    WsTraceRecord rec;
    guint n_mem = 0, n = 0;
    ws_trace_warp_iter_init (&it, tb, 2);
    while (ws_trace_warp_iter_next (&it, &rec, &error))
      {
        if (n == 0)
          {
            g_assert_cmpuint (rec.static_id, ==, 0);
            g_assert_cmpuint (rec.active_mask, ==, 0xffffffffu);
          }
        if (rec.kind == WS_TRACE_RECORD_MEM && n_mem++ == 0)
          {
            /* first load: in[i] of block 1, warp 2 */
            g_assert_cmpuint (rec.space, ==, WS_SPACE_GLOBAL);
            g_assert_cmpuint (rec.addrs[1] - rec.addrs[0], ==, 4);
          }
        n++;
      }
    g_assert_no_error (error);
    g_assert_cmpuint (n, ==, ws_trace_tb_get_n_records (tb, 2));
    g_assert_cmpuint (n_mem, >=, 2);
  }
  g_clear_pointer (&tb, ws_trace_tb_free);
  ws_trace_free (t);
  {
    g_autofree char *p1 = g_strdup_printf ("%s/t1.wstrace", dir), *p3 = g_strdup_printf ("%s/t3.wstrace", dir);
    g_unlink (p1);
    g_unlink (p3);
    g_rmdir (dir);
  }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/emu/devmem/alloc-lookup-describe", test_devmem);
  g_test_add_func ("/emu/devmem/deterministic-offsets", test_devmem_deterministic);
  g_test_add_func ("/emu/kernel/vector-add", test_vecadd);
  g_test_add_func ("/emu/kernel/reduction-shared-barrier-shfl", test_reduce);
  g_test_add_func ("/emu/kernel/divergence-reconvergence", test_divergence);
  g_test_add_func ("/emu/kernel/atomics-exact-totals", test_atomics);
  g_test_add_func ("/emu/kernel/carry-chain-128bit-add", test_carry_chain);
  g_test_add_func ("/emu/kernel/recursion-via-call", test_recursion);
  g_test_add_func ("/emu/kernel/printf-in-cta-order", test_printf);
  g_test_add_func ("/emu/kernel/printf-formats-like-host", test_printf_formats);
  g_test_add_func ("/emu/kernel/device-malloc-free", test_malloc);
  g_test_add_func ("/emu/kernel/constant-and-device-globals", test_globals);
  g_test_add_func ("/emu/kernel/dynamic-shared-memory", test_dynamic_shared);
  g_test_add_func ("/emu/kernel/local-array", test_local_array);
  g_test_add_func ("/emu/kernel/warp-vote-shfl-match-redux", test_warp_ops);
  g_test_add_func ("/emu/kernel/math-functions", test_math);
  g_test_add_func ("/emu/kernel/integer-bit-ops-bar-red", test_hand_intops);
  g_test_add_func ("/emu/kernel/brx-idx-multiway-divergence", test_brx);
  g_test_add_func ("/emu/kernel/indirect-call-and-switch", test_indirect_and_switch);
  g_test_add_func ("/emu/kernel/half-precision", test_half);
  g_test_add_func ("/emu/kernel/3d-grid-and-block", test_grid3d);
  g_test_add_func ("/emu/kernel/intra-warp-spin-lock", test_spinlock);
  g_test_add_func ("/emu/fault/assert-710", test_assert);
  g_test_add_func ("/emu/fault/out-of-bounds-700", test_fault_oob);
  g_test_add_func ("/emu/fault/misaligned-716", test_fault_misaligned);
  g_test_add_func ("/emu/fault/hang-budget-702", test_hang_budget);
  g_test_add_func ("/emu/fault/watchdog-time-702", test_watchdog_timeout);
  g_test_add_func ("/emu/invalid/unnoticed-recorded", test_invalid_unnoticed);
  g_test_add_func ("/emu/invalid/before-first-allocation", test_invalid_before_first);
  g_test_add_func ("/emu/invalid/divergent-barrier", test_divergent_barrier);
  g_test_add_func ("/emu/kernel/pred-logic-constants", test_pred_imm);
  g_test_add_func ("/emu/invalid/far-address-faults", test_invalid_far_faults);
  g_test_add_func ("/emu/address/shared-local-wrap-32bit", test_window_wrap);
  g_test_add_func ("/emu/fault/trap-719", test_trap);
  g_test_add_func ("/emu/launch/parallel-equals-deterministic", test_parallel_equals_serial);
  g_test_add_func ("/emu/trace/parallel-trace-identical", test_trace_parallel_identical);
  {
    static const struct {
      const char *name;
      void (*fn) (void);
    } debug_tests[] = {
      { "/emu/debug-build/vector-add", test_vecadd },
      { "/emu/debug-build/reduction-shared-barrier-shfl", test_reduce },
      { "/emu/debug-build/divergence-reconvergence", test_divergence },
      { "/emu/debug-build/atomics-exact-totals", test_atomics },
      { "/emu/debug-build/carry-chain-128bit-add", test_carry_chain },
      { "/emu/debug-build/recursion-via-call", test_recursion },
      { "/emu/debug-build/printf-in-cta-order", test_printf },
      { "/emu/debug-build/device-malloc-free", test_malloc },
      { "/emu/debug-build/constant-and-device-globals", test_globals },
      { "/emu/debug-build/dynamic-shared-memory", test_dynamic_shared },
      { "/emu/debug-build/local-array", test_local_array },
      { "/emu/debug-build/warp-vote-shfl-match-redux", test_warp_ops },
      { "/emu/debug-build/math-functions", test_math },
      { "/emu/debug-build/indirect-call-and-switch", test_indirect_and_switch },
      { "/emu/debug-build/half-precision", test_half },
      { "/emu/debug-build/3d-grid-and-block", test_grid3d },
      { "/emu/debug-build/intra-warp-spin-lock", test_spinlock },
      { "/emu/debug-build/assert-710", test_assert },
      { "/emu/debug-build/out-of-bounds-700", test_fault_oob },
      { "/emu/debug-build/misaligned-716", test_fault_misaligned },
    };
    static Variant variants[G_N_ELEMENTS (debug_tests)];
    for (guint i = 0; i < G_N_ELEMENTS (debug_tests); i++)
      {
        variants[i].file = "kernels-debug.ptx";
        variants[i].fn = debug_tests[i].fn;
        g_test_add_data_func (debug_tests[i].name, &variants[i], run_variant);
      }
  }
  return g_test_run ();
}
