/* The replacement libcudart.so.13: programs built by nvcc at build time
 * (tests/cudart/meson.build) run under it, directly and through
 * `warpscope-cli profile`.  Without nvcc those cases are skipped. */
#include "ws-config.h"

#include <dlfcn.h>
#include <string.h>
#include <gio/gio.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "store/ws-store.h"
#include "occupancy/ws-occupancy.h"
#include "fatbin/ws-fatbin.h"

typedef struct {
  char *tmp;
  char *db;
} Fixture;

typedef struct {
  char *out;
  char *err;
  int status; /* exit code, or -1 when killed */
} Run;

static void
run_clear (Run *r)
{
  g_free (r->out);
  g_free (r->err);
}

static char *
build_path (const char *first, ...)
{
  va_list ap;
  va_start (ap, first);
  g_autofree char *rel = g_build_filename_valist (first, &ap);
  va_end (ap);
  return g_build_filename (g_getenv ("WS_BUILD_DIR"), rel, NULL);
}

static char *
cudart_dir (void)
{
  return build_path ("core", "cudart", NULL);
}

/* The program or library a case needs; NULL (case skipped) when the build
 * could not make it (no nvcc, no CUDA headers). */
static char *
need (const char *rel, const char *why)
{
  char *p = build_path (rel, NULL);
  if (!g_file_test (p, G_FILE_TEST_EXISTS))
    {
      g_autofree char *msg = g_strdup_printf ("%s not built (%s)", rel, why);
      g_test_skip (msg);
      g_free (p);
      return NULL;
    }
  return p;
}

static char *
need_program (const char *name)
{
  g_autofree char *lib = need ("core/cudart/libcudart.so.13", "CUDA headers missing at build time");
  if (lib == NULL)
    return NULL;
  g_autofree char *rel = g_build_filename ("tests", "cudart", name, NULL);
  return need (rel, "nvcc not found at build time");
}

static void
fixture_setup (Fixture *f, gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  f->tmp = g_dir_make_tmp ("ws-cudart-XXXXXX", &error);
  g_assert_no_error (error);
  f->db = g_build_filename (f->tmp, "test.db", NULL);
}

static void
remove_tree (const char *path)
{
  GDir *d = g_dir_open (path, 0, NULL);
  if (d != NULL)
    {
      const char *n;
      while ((n = g_dir_read_name (d)) != NULL)
        {
          g_autofree char *p = g_build_filename (path, n, NULL);
          if (g_file_test (p, G_FILE_TEST_IS_DIR) && !g_file_test (p, G_FILE_TEST_IS_SYMLINK))
            remove_tree (p);
          else
            g_unlink (p);
        }
      g_dir_close (d);
    }
  g_rmdir (path);
}

static void
fixture_teardown (Fixture *f, gconstpointer data)
{
  remove_tree (f->tmp);
  g_free (f->tmp);
  g_free (f->db);
}

/* Runs @argv with the runtime's environment; @gpu NULL = default target. */
static Run
run_env (Fixture *f, const char *gpu, gboolean preload_runtime, const char *const *argv)
{
  g_autoptr (GSubprocessLauncher)
    l = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE);
  g_autofree char *dir = cudart_dir ();
  g_autofree char *cache = g_build_filename (f->tmp, "cache", NULL);
  if (preload_runtime)
    g_subprocess_launcher_setenv (l, "LD_LIBRARY_PATH", dir, TRUE);
  g_subprocess_launcher_setenv (l, "WS_DB", f->db, TRUE);
  g_subprocess_launcher_setenv (l, "XDG_CACHE_HOME", cache, TRUE);
  g_subprocess_launcher_unsetenv (l, "WS_TRACE");
  g_subprocess_launcher_unsetenv (l, "WS_SUMMARY");
  if (gpu != NULL)
    g_subprocess_launcher_setenv (l, "WS_GPU", gpu, TRUE);
  else
    g_subprocess_launcher_unsetenv (l, "WS_GPU");
  g_autoptr (GError) error = NULL;
  g_autoptr (GSubprocess) p = g_subprocess_launcher_spawnv (l, argv, &error);
  g_assert_no_error (error);
  Run r = { 0 };
  g_autoptr (GBytes) out = NULL, err = NULL;
  g_subprocess_communicate (p, NULL, NULL, &out, &err, &error);
  g_assert_no_error (error);
  /* (empty output gives NULL data) */
  r.out = g_strndup (g_bytes_get_size (out) ? g_bytes_get_data (out, NULL) : "", g_bytes_get_size (out));
  r.err = g_strndup (g_bytes_get_size (err) ? g_bytes_get_data (err, NULL) : "", g_bytes_get_size (err));
  r.status = g_subprocess_get_if_exited (p) ? g_subprocess_get_exit_status (p) : -1;
  return r;
}

static Run
run_program (Fixture *f, const char *gpu, const char *program, const char *mode)
{
  const char *argv[] = { program, mode, NULL };
  return run_env (f, gpu, TRUE, argv);
}

static void
assert_line (const Run *r, const char *line)
{
  g_autofree char *needle = g_strdup_printf ("%s\n", line);
  if (strstr (r->out, needle) == NULL)
    g_error ("line '%s' missing from the output:\n%s\nstderr:\n%s", line, r->out, r->err);
}

/* "key=value" from the output. */
static char *
value_of (const Run *r, const char *key)
{
  g_auto (GStrv) lines = g_strsplit (r->out, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    if (g_str_has_prefix (lines[i], key) && lines[i][strlen (key)] == '=')
      return g_strdup (lines[i] + strlen (key) + 1);
  g_error ("key '%s' missing from the output:\n%s\nstderr:\n%s", key, r->out, r->err);
  return NULL;
}

static gint64
int_of (const Run *r, const char *key)
{
  g_autofree char *v = value_of (r, key);
  return g_ascii_strtoll (v, NULL, 10);
}

/* ---- exports ------------------------------------------------------------ */

static void
test_exports (void)
{
  g_autofree char *lib = need ("core/cudart/libcudart.so.13", "CUDA headers missing at build time");
  if (lib == NULL)
    return;
  g_autofree char *list = g_build_filename (g_getenv ("WS_SOURCE_DIR"), "core", "cudart", "cudart-symbols.txt", NULL);
  g_autofree char *text = NULL;
  g_assert_true (g_file_get_contents (list, &text, NULL, NULL));
  void *h = dlopen (lib, RTLD_NOW | RTLD_LOCAL);
  g_assert_nonnull (h);
  g_auto (GStrv) names = g_strsplit (text, "\n", -1);
  guint n = 0;
  for (guint i = 0; names[i] != NULL; i++)
    {
      if (*names[i] == 0)
        continue;
      if (dlvsym (h, names[i], "libcudart.so.13") == NULL)
        g_error ("%s@libcudart.so.13 is not exported", names[i]);
      n++;
    }
  /* CUDA 13.0's libcudart.so.13 exports 422 functions. */
  g_assert_cmpuint (n, ==, 422);
  /* Internal helpers stay hidden. */
  g_assert_null (dlsym (h, "ws_cudart_ensure"));
  g_assert_null (dlsym (h, "ws_cudart_link_ptx"));
  /* An unimplemented entry point answers cudaErrorNotSupported (801). */
  int (*ipc_get) (void *, void *) = (int (*) (void *, void *)) dlvsym (h, "cudaIpcGetMemHandle", "libcudart.so.13");
  char handle[64] = { 0 };
  g_assert_cmpint (ipc_get (handle, NULL), ==, 801);
  dlclose (h);
}

/* ---- device properties --------------------------------------------------- */

static void
test_properties (Fixture *f, gconstpointer data)
{
  g_autofree char *probe = need_program ("probe");
  if (probe == NULL)
    return;
  Run r = run_program (f, "RTX 3090", probe, "props");
  g_assert_cmpint (r.status, ==, 0);
  g_autoptr (GError) error = NULL;
  g_autoptr (WsStore) store = ws_store_open (f->db, &error);
  g_assert_no_error (error);
  g_autoptr (WsGpu) g = ws_store_get_gpu (store, "RTX 3090", &error);
  g_assert_no_error (error);
  assert_line (&r, "count=1");
  g_autofree char *name = value_of (&r, "name");
  g_assert_cmpstr (name, ==, g->name);
  g_assert_cmpint (int_of (&r, "major"), ==, g->cc_major);
  g_assert_cmpint (int_of (&r, "minor"), ==, g->cc_minor);
  g_assert_cmpint (int_of (&r, "sms"), ==, g->sms);
  g_assert_cmpint (int_of (&r, "attr_sms"), ==, g->sms);
  g_assert_cmpint (int_of (&r, "attr_major"), ==, g->cc_major);
  g_assert_cmpint (int_of (&r, "warp"), ==, g->warp_size);
  g_assert_cmpint (int_of (&r, "shared_per_block"), ==, g->shared_per_block);
  g_assert_cmpint (int_of (&r, "shared_per_block_optin"), ==, g->shared_per_block_optin);
  g_assert_cmpint (int_of (&r, "shared_per_sm"), ==, g->shared_per_sm);
  g_assert_cmpint (int_of (&r, "regs_per_sm"), ==, g->registers_per_sm);
  g_assert_cmpint (int_of (&r, "regs_per_block"), ==, g->max_registers_per_block);
  g_assert_cmpint (int_of (&r, "max_threads_per_block"), ==, g->max_threads_per_block);
  g_assert_cmpint (int_of (&r, "max_threads_per_sm"), ==, g->max_warps_per_sm * g->warp_size);
  g_assert_cmpint (int_of (&r, "max_blocks_per_sm"), ==, g->max_blocks_per_sm);
  g_assert_cmpint (int_of (&r, "l2"), ==, g->l2_size);
  g_assert_cmpint (int_of (&r, "bus_width"), ==, g->dram_bus_width_bits);
  g_assert_cmpint (int_of (&r, "reserved_shared"), ==, g->shared_reserved_per_block);
  g_assert_cmpint (int_of (&r, "total_mem"), ==, (gint64) (g->memory_gb * 1e9));
  g_assert_cmpint (int_of (&r, "clock_khz"), ==, (gint64) (g->core_clock_mhz * 1000));
  g_assert_cmpint (int_of (&r, "mem_clock_khz"), ==, (gint64) (g->dram_clock_mhz * 1000));
  /* The struct was memset to 0xab first: the runtime fills it whole. */
  assert_line (&r, "reserved0=0");
  /* One device: ordinal 1 is invalid (cudaErrorInvalidDevice). */
  assert_line (&r, "cudaDeviceGetAttribute(&v, cudaDevAttrMaxThreadsPerBlock, 1)=101");
  assert_line (&r, "cudaSetDevice(0)=0");
  assert_line (&r, "cudaSetDevice(1)=101");
  assert_line (&r, "device=0");
  assert_line (&r, "driver=13000");
  assert_line (&r, "runtime=13000");
  assert_line (&r, "mem_used_by_1MiB=1048576");
  run_clear (&r);

  /* Default target and an unknown one. */
  Run d = run_program (f, NULL, probe, "props");
  g_assert_cmpint (d.status, ==, 0);
  assert_line (&d, "name=A100");
  run_clear (&d);
  Run u = run_program (f, "No Such GPU", probe, "props");
  assert_line (&u, "cudaGetDeviceCount(&n)=100");
  assert_line (&u, "count=0");
  g_assert_nonnull (strstr (u.err, "No Such GPU"));
  run_clear (&u);
}

/* ---- memory, symbols, errors -------------------------------------------- */

static void
test_memory (Fixture *f, gconstpointer data)
{
  g_autofree char *probe = need_program ("probe");
  if (probe == NULL)
    return;
  Run r = run_program (f, NULL, probe, "memory");
  g_assert_cmpint (r.status, ==, 0);
  assert_line (&r, "cudaMemcpy(d1, host, n * sizeof(int), cudaMemcpyHostToDevice)=0");
  assert_line (&r, "round_trip_equal=1");
  assert_line (&r, "memset_bytes=5a5a 19");
  assert_line (&r, "async_first=0,4");
  /* Copy past the end of an allocation: invalid argument, a message. */
  assert_line (&r, "cudaMemcpy(d1 + n - 1, host, 8, cudaMemcpyHostToDevice)=1");
  g_assert_nonnull (strstr (r.err, "not inside one device allocation"));
  assert_line (&r, "cudaFree(d1)=0");
  assert_line (&r, "cudaFree(d1)=1");
  assert_line (&r, "cudaFree(nullptr)=0");
  assert_line (&r, "pinned_same=1");
  assert_line (&r, "cudaFreeHost(pinned)=0");
  assert_line (&r, "managed_type=3 managed_value=55");
  assert_line (&r, "cudaStreamAttachMemAsync(ms, managed, 0, cudaMemAttachHost)=0");
  assert_line (&r, "cudaStreamAttachMemAsync(ms, host, 0, cudaMemAttachHost)=1");
  assert_line (&r, "pitch=512");
  assert_line (&r, "pitched_row2=20,29");
  /* 1 PiB does not fit: out of memory, reported once by cudaGetLastError. */
  assert_line (&r, "cudaMalloc(&huge, (size_t) 1 << 50)=2");
  assert_line (&r, "cudaGetLastError()=2");
  assert_line (&r, "cudaGetLastError()=0");
  run_clear (&r);
}

static void
test_symbols (Fixture *f, gconstpointer data)
{
  g_autofree char *probe = need_program ("probe");
  if (probe == NULL)
    return;
  Run r = run_program (f, NULL, probe, "symbols");
  g_assert_cmpint (r.status, ==, 0);
  assert_line (&r, "table=1,70,80");
  assert_line (&r, "coef=0.5,3");
  assert_line (&r, "via_address=3");
  assert_line (&r, "coef_size=16");
  assert_line (&r, "cudaMemcpyToSymbol(d_table, table, sizeof table, 4)=1");
  assert_line (&r, "cudaMemcpyToSymbol(not_a_symbol, table, 4)=13");
  run_clear (&r);
}

static void
test_errors (Fixture *f, gconstpointer data)
{
  g_autofree char *probe = need_program ("probe");
  if (probe == NULL)
    return;
  Run r = run_program (f, NULL, probe, "errors");
  g_assert_cmpint (r.status, ==, 0);
  assert_line (&r, "str0=no error");
  assert_line (&r, "str1=invalid argument");
  assert_line (&r, "str2=out of memory");
  assert_line (&r, "str700=an illegal memory access was encountered");
  assert_line (&r, "name700=cudaErrorIllegalAddress");
  assert_line (&r, "name801=cudaErrorNotSupported");
  assert_line (&r, "str_launch_timeout=the launch timed out and was terminated");
  assert_line (&r, "cudaMalloc(nullptr, 4)=1");
  assert_line (&r, "cudaPeekAtLastError()=1");
  assert_line (&r, "cudaGetLastError()=1");
  assert_line (&r, "cudaGetLastError()=0");
  /* Timing disabled on one event: invalid resource handle (400). */
  assert_line (&r, "cudaEventElapsedTime(&ms, a, b)=400");
  assert_line (&r, "cudaEventElapsedTime(&ms, a, c)=0");
  assert_line (&r, "elapsed_nonnegative=1");
  assert_line (&r, "cudaEventDestroy(a)=0");
  assert_line (&r, "cudaEventDestroy(a)=400");
  run_clear (&r);
}

static void
test_unsupported (Fixture *f, gconstpointer data)
{
  g_autofree char *probe = need_program ("probe");
  if (probe == NULL)
    return;
  Run r = run_program (f, NULL, probe, "unsupported");
  g_assert_cmpint (r.status, ==, 0);
  assert_line (&r, "cudaIpcGetMemHandle(&h, p)=801");
  assert_line (&r, "cudaGetLastError()=801");
  g_assert_nonnull (strstr (r.err, "warpscope: unsupported CUDA runtime call cudaIpcGetMemHandle "
                                   "(not implemented by the Warpscope emulator)\n"));
  run_clear (&r);
}

static void
test_misc (Fixture *f, gconstpointer data)
{
  g_autofree char *probe = need_program ("probe");
  if (probe == NULL)
    return;
  Run r = run_program (f, NULL, probe, "misc");
  g_assert_cmpint (r.status, ==, 0);
  assert_line (&r, "stream id_positive=1 flags=1 device=0 capturing=0");
  /* add_kernel (const float *, const float *, float *, int): n at 24, 4 bytes. */
  assert_line (&r, "param3=24+4");
  assert_line (&r, "cudaFuncGetParamInfo((const void *) add_kernel, 4, &off, &size)=1");
  assert_line (&r, "bus=0000:01:00.0 back=0");
  assert_line (&r, "host_mapped=1");
  assert_line (&r, "fname=_Z10add_kernelPKfS0_Pfi");
  assert_line (&r, "cudaStreamDestroy(s)=0");
  assert_line (&r, "cudaStreamDestroy(s)=400");
  assert_line (&r, "host_func=42");
  run_clear (&r);
}

static void
test_graph (Fixture *f, gconstpointer data)
{
  g_autofree char *probe = need_program ("probe");
  if (probe == NULL)
    return;
  Run r = run_program (f, NULL, probe, "graph");
  g_assert_cmpint (r.status, ==, 0);
  /* The legacy stream cannot be captured. */
  assert_line (&r, "cudaStreamBeginCapture(0, cudaStreamCaptureModeGlobal)=900");
  assert_line (&r, "capturing=1");
  assert_line (&r, "cudaGetLastError()=0");
  /* Only the stream that began the capture ends it. */
  assert_line (&r, "cudaStreamEndCapture(s2, &g)=903");
  assert_line (&r, "cudaStreamEndCapture(s, &g)=0");
  /* Captured work does not run until the graph is launched. */
  assert_line (&r, "after_capture c5=-1 counter=0");
  /* 2 H2D copies (one from the joined stream), memset, kernel, D2H, host function. */
  assert_line (&r, "nodes=6");
  /* Three launches; the last read a[5] = 200 when it ran: 200 + 1 x 2. */
  assert_line (&r, "after_launch c5=202 counter=3");
  assert_line (&r, "cudaGraphExecDestroy(ex)=0");
  /* Synchronising a capturing stream is refused and invalidates the capture. */
  assert_line (&r, "cudaStreamSynchronize(s)=900");
  assert_line (&r, "cudaStreamEndCapture(s, &g)=901");
  run_clear (&r);
}

/* ---- kernels -------------------------------------------------------------- */

static void
test_launch (Fixture *f, gconstpointer data)
{
  g_autofree char *probe = need_program ("probe");
  if (probe == NULL)
    return;
  Run r = run_program (f, NULL, probe, "launch");
  g_assert_cmpint (r.status, ==, 0);
  assert_line (&r, "cudaGetLastError()=0");
  assert_line (&r, "add_bad=0");
  assert_line (&r, "c10=15");
  assert_line (&r, "table_out=2,16");
  assert_line (&r, "cudaFuncGetAttributes(&fa, add_kernel)=0");
  /* Registers come from ptxas when present; the occupancy API agrees with
   * the occupancy calculator for that register count. */
  g_autofree char *fa = value_of (&r, "regs");
  int regs = atoi (fa);
  g_assert_cmpint (regs, >, 0);
  g_assert_cmpint (regs, <, 64);
  g_assert_nonnull (strstr (fa, "max_threads=1024 ptx=80"));
  g_autoptr (GError) error = NULL;
  g_autoptr (WsStore) store = ws_store_open (f->db, &error);
  g_autoptr (WsGpu) gpu = ws_store_get_gpu (store, "A100", &error);
  g_assert_no_error (error);
  WsOccupancy occ = { 0 };
  g_assert_true (ws_occupancy_compute (gpu, 256, regs, 0, &occ, &error));
  g_assert_cmpint (int_of (&r, "occupancy_blocks"), ==, occ.blocks_per_sm);
  g_assert_cmpint (int_of (&r, "potential_block"), >=, 128);
  /* With ptxas, its report (cached by content hash) is where the register
   * count came from. */
  if (*WS_PTXAS)
    {
      g_autofree char *dir = g_build_filename (f->tmp, "cache", "warpscope", "ptxas", NULL);
      g_autoptr (GDir) d = g_dir_open (dir, 0, &error);
      g_assert_no_error (error);
      const char *name = g_dir_read_name (d);
      g_assert_nonnull (name);
      g_assert_true (g_str_has_suffix (name, ".txt"));
      g_autofree char *path = g_build_filename (dir, name, NULL);
      g_autofree char *report = NULL;
      g_assert_true (g_file_get_contents (path, &report, NULL, NULL));
      const char *entry = strstr (report, "Compiling entry function '_Z10add_kernelPKfS0_Pfi' for 'sm_80'");
      g_assert_nonnull (entry);
      const char *used = strstr (entry, "Used ");
      g_assert_nonnull (used);
      g_assert_cmpint (atoi (used + 5), ==, regs);
    }
  /* 2048 threads per block: cudaErrorInvalidConfiguration, with a message. */
  assert_line (&r, "cudaGetLastError()=9");
  g_assert_nonnull (strstr (r.err, "grid (1,1,1) block (2048,1,1): invalid configuration: block x is 2048, "
                                   "must be 1 to 1024"));
  /* Each limit says which it is (a grid y of 65 536 and a grid of 0 were
   * reported as "at most 1024 threads per block"). */
  assert_line (&r, "grid_y_65536=9");
  g_assert_nonnull (strstr (r.err, "grid (1,65536,1) block (32,1,1): invalid configuration: grid y is 65536, "
                                   "must be 1 to 65535"));
  assert_line (&r, "grid_0=9");
  g_assert_nonnull (strstr (r.err, "grid (0,1,1) block (32,1,1): invalid configuration: grid x is 0, "
                                   "must be 1 to 2147483647"));
  assert_line (&r, "block_z_65=9");
  g_assert_nonnull (strstr (r.err, "block (1,1,65): invalid configuration: block z is 65, must be 1 to 64"));
  assert_line (&r, "grid_x_2p31=9");
  g_assert_nonnull (strstr (r.err, "grid (2147483648,1,1) block (32,1,1): invalid configuration: grid x is "
                                   "2147483648, must be 1 to 2147483647"));
  assert_line (&r, "threads_2048=9");
  g_assert_nonnull (strstr (r.err, "block (32,32,2): invalid configuration: 2048 threads per block, at most 1024 "
                                   "threads per block on A100"));
  run_clear (&r);
}

static void
test_older_target (Fixture *f, gconstpointer data)
{
  g_autofree char *probe = need_program ("probe");
  if (probe == NULL)
    return;
  /* compute_80 PTX on a Maxwell target: runs, says what it does. */
  Run r = run_program (f, "GTX 970", probe, "launch");
  g_assert_cmpint (r.status, ==, 0);
  assert_line (&r, "add_bad=0");
  g_autofree char *fa = value_of (&r, "regs");
  g_assert_nonnull (strstr (fa, "ptx=80"));
  g_assert_nonnull (strstr (r.err, "has PTX for compute_80 only, newer than the target GPU GTX 970 (sm_52); "
                                   "running it anyway"));
  g_assert_nonnull (strstr (r.err, "2048 threads per block, at most 1024 threads per block on GTX 970"));
  run_clear (&r);
}

static void
test_fault (Fixture *f, gconstpointer data)
{
  g_autofree char *probe = need_program ("probe");
  if (probe == NULL)
    return;
  Run r = run_program (f, NULL, probe, "fault");
  g_assert_cmpint (r.status, ==, 1);
  /* Sticky: every later call reports the fault, GetLastError does not clear it. */
  assert_line (&r, "cudaDeviceSynchronize()=700");
  assert_line (&r, "cudaMemcpy(p, p, 4, cudaMemcpyDeviceToDevice)=700");
  g_assert_nonnull (strstr (r.out, "cudaGetLastError()=700\ncudaGetLastError()=700\n"));
  g_assert_nonnull (strstr (r.err, "kernel _Z10oob_kernelPi failed (cudaErrorIllegalAddress)"));
  g_assert_nonnull (strstr (r.err, "block (0,0,0)"));
  run_clear (&r);
}

static void
test_dynamic_shared (Fixture *f, gconstpointer data)
{
  g_autofree char *probe = need_program ("probe");
  if (probe == NULL)
    return;
  Run r = run_program (f, NULL, probe, "shared");
  g_assert_cmpint (r.status, ==, 0);
  /* 64 KiB of dynamic shared memory needs the opt-in on an A100. */
  assert_line (&r, "cudaGetLastError()=1");
  g_assert_nonnull (strstr (r.err, "cudaFuncAttributeMaxDynamicSharedMemorySize"));
  assert_line (&r,
               "cudaFuncSetAttribute(reverse_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, n * sizeof(int))=0");
  assert_line (&r, "cudaGetLastError()=0");
  assert_line (&r, "cudaDeviceSynchronize()=0");
  assert_line (&r, "reversed=16383,0");
  /* More than the GPU's opt-in limit. */
  assert_line (&r, "cudaFuncSetAttribute(reverse_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, 1 << 30)=1");
  run_clear (&r);
}

static void
test_managed (Fixture *f, gconstpointer data)
{
  g_autofree char *prog = need_program ("managed");
  if (prog == NULL)
    return;
  Run r = run_program (f, NULL, prog, NULL);
  g_assert_cmpint (r.status, ==, 0);
  /* 64 threads add 1 to 100; two blocks double each value twice. */
  assert_line (&r, "sync=0 counter=164 values=2,14");
  run_clear (&r);
}

/* A texture gather (formerly any texture fetch) made its whole module unloadable: the program's
 * __managed__ variable was a null pointer and it crashed.  Now only the
 * launch of the kernel with the fetch fails, naming kernel, PTX line and
 * instruction; the module's other kernel runs before and after. */
static void
test_unsupported_instruction_fails_launch (Fixture *f, gconstpointer data)
{
  g_autofree char *prog = need_program ("texture");
  if (prog == NULL)
    return;
  Run r = run_program (f, NULL, prog, NULL);
  g_assert_cmpint (r.status, ==, 0);
  /* 32 threads add 1 to 10; then 64 threads add 2. */
  assert_line (&r, "first=0 counter=42");
  assert_line (&r, "fetch=98");
  assert_line (&r, "second=0 counter=170");
  const char *msg = strstr (r.err, "launch of _Z12fetch_kernelyPf refused: ");
  g_assert_nonnull (msg);
  g_assert_nonnull (strstr (msg, ": instruction 'tld4.r.2d.v4.f32.f32' is not supported"));
  /* The PTX line is named: origin:LINE:COL. */
  g_assert_true (g_regex_match_simple (":[0-9]+:[0-9]+: instruction 'tld4\\.r\\.2d", msg, 0, 0));
  g_assert_nonnull (strstr (msg, "the module's other kernels run"));
  g_assert_null (strstr (r.err, "count_kernel"));
  run_clear (&r);
}

static void
test_rdc (Fixture *f, gconstpointer data)
{
  g_autofree char *prog = need_program ("rdcprog");
  if (prog == NULL)
    return;
  Run r = run_program (f, NULL, prog, NULL);
  g_assert_cmpint (r.status, ==, 0);
  assert_line (&r, "main unit: 1");
  assert_line (&r, "lib unit: 2");
  assert_line (&r, "lib_value=7");
  /* scaled(x) = 3x + 1 from the other unit, then + 1 (first two threads);
   * one `total` shared by both units: 32 x 10 + 2 x 1000; each unit's own
   * static variable. */
  assert_line (&r, "status=0 out5=16 out31=94 total=2320 main_value=5");
  run_clear (&r);
}

static void
test_sass_only (Fixture *f, gconstpointer data)
{
  g_autofree char *prog = need_program ("probe-sass");
  if (prog == NULL)
    return;
  Run r = run_program (f, NULL, prog, "launch");
  /* cudaErrorNoKernelImageForDevice, and how to rebuild. */
  assert_line (&r, "cudaGetLastError()=209");
  g_assert_nonnull (strstr (r.err, "holds no PTX"));
  g_assert_nonnull (strstr (r.err, "rebuild with -arch=sm_XX (which embeds PTX) or warpscope-cli build"));
  run_clear (&r);
}

/* ---- warpscope-cli profile / build -------------------------------------- */

static Run
run_cli (Fixture *f, const char *const *args)
{
  g_autofree char *cli = build_path ("app", "cli", "warpscope-cli", NULL);
  GPtrArray *argv = g_ptr_array_new ();
  g_ptr_array_add (argv, cli);
  g_ptr_array_add (argv, "--db");
  g_ptr_array_add (argv, f->db);
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (char *) args[i]);
  g_ptr_array_add (argv, NULL);
  Run r = run_env (f, NULL, FALSE, (const char *const *) argv->pdata);
  g_ptr_array_unref (argv);
  return r;
}

static JsonObject *
last_json_line (const char *text, JsonParser *parser)
{
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
  const char *last = NULL;
  for (guint i = 0; lines[i] != NULL; i++)
    if (lines[i][0] == '{')
      last = lines[i];
  g_assert_nonnull (last);
  g_autoptr (GError) error = NULL;
  g_assert_true (json_parser_load_from_data (parser, last, -1, &error));
  return json_node_get_object (json_parser_get_root (parser));
}

static void
test_profile_vectoradd (Fixture *f, gconstpointer data)
{
  g_autofree char *prog = need_program ("vectoradd");
  if (prog == NULL)
    return;
  g_autofree char *trace = g_build_filename (f->tmp, "vadd.trace", NULL);
  const char *args[] = { "profile", "--json", "-o", trace, "--", prog, "4096", "128", NULL };
  Run r = run_cli (f, args);
  g_assert_cmpint (r.status, ==, 0);
  /* The program's own output passes through. */
  g_assert_nonnull (strstr (r.out, "PASSED"));
  g_autoptr (JsonParser) parser = json_parser_new ();
  JsonObject *o = last_json_line (r.err, parser);
  g_assert_cmpint (json_object_get_int_member (o, "exit_code"), ==, 0);
  g_assert_cmpint (json_object_get_int_member (o, "launches"), ==, 1);
  /* 4096 threads in 32 blocks of 128: 128 warps that all take the same
   * path, so the same number of warp instructions each; at most 32 thread
   * instructions per warp instruction (fewer where a guard is false). */
  gint64 warp = json_object_get_int_member (o, "warp_instructions");
  gint64 thread = json_object_get_int_member (o, "thread_instructions");
  g_assert_cmpint (warp % 128, ==, 0);
  g_assert_cmpint (warp / 128, >=, 8);
  g_assert_cmpint (thread, <=, 32 * warp);
  g_assert_cmpint (thread % 4096, ==, 0);
  g_assert_cmpint (thread, >=, 4096 * 8);
  g_assert_true (json_object_get_double_member (o, "seconds") >= 0.0);
  GStatBuf st;
  g_assert_cmpint (g_stat (trace, &st), ==, 0);
  g_assert_cmpint (st.st_size, >, 0);
  run_clear (&r);

  /* The trace holds that launch with the same counts. */
  const char *info_args[] = { "--json", "trace", "info", trace, NULL };
  Run t = run_cli (f, info_args);
  g_assert_cmpint (t.status, ==, 0);
  g_autoptr (JsonParser) tp = json_parser_new ();
  g_autoptr (GError) error = NULL;
  g_assert_true (json_parser_load_from_data (tp, t.out, -1, &error));
  JsonObject *root = json_node_get_object (json_parser_get_root (tp));
  JsonArray *launches = json_object_get_array_member (root, "launches");
  g_assert_cmpuint (json_array_get_length (launches), ==, 1);
  JsonObject *l0 = json_array_get_object_element (launches, 0);
  g_assert_nonnull (strstr (json_object_get_string_member (l0, "kernel"), "vector_add"));
  g_assert_cmpint (json_object_get_int_member (l0, "warp_instructions"), ==, warp);
  g_assert_cmpint (json_object_get_int_member (l0, "thread_instructions"), ==, thread);
  JsonArray *grid = json_object_get_array_member (l0, "grid");
  g_assert_cmpint (json_array_get_int_element (grid, 0), ==, 32);
  run_clear (&t);
}

static void
test_profile_summary_file (Fixture *f, gconstpointer data)
{
  g_autofree char *probe = need_program ("probe");
  if (probe == NULL)
    return;
  g_autofree char *summary = g_build_filename (f->tmp, "summary.json", NULL);
  const char *args[] = { "profile",   "--gpu", "rtx 3090", "--threads", "1",     "--deterministic",
                         "--summary", summary, "--",       probe,       "fault", NULL };
  Run r = run_cli (f, args);
  /* The program's exit code is kept. */
  g_assert_cmpint (r.status, ==, 1);
  assert_line (&r, "cudaDeviceSynchronize()=700");
  g_autofree char *text = NULL;
  g_assert_true (g_file_get_contents (summary, &text, NULL, NULL));
  g_autoptr (JsonParser) parser = json_parser_new ();
  JsonObject *o = last_json_line (text, parser);
  g_assert_cmpint (json_object_get_int_member (o, "exit_code"), ==, 1);
  g_assert_cmpint (json_object_get_int_member (o, "launches"), ==, 1);
  g_assert_cmpstr (json_object_get_string_member (o, "gpu"), ==, "RTX 3090");
  g_assert_cmpstr (json_object_get_string_member (o, "error"), ==, "cudaErrorIllegalAddress");
  run_clear (&r);

  /* Usage errors. */
  const char *bad_gpu[] = { "profile", "--gpu", "No Such GPU", "--", probe, "props", NULL };
  Run b = run_cli (f, bad_gpu);
  g_assert_cmpint (b.status, ==, 2);
  run_clear (&b);
  const char *no_prog[] = { "profile", "--json", NULL };
  Run n = run_cli (f, no_prog);
  g_assert_cmpint (n.status, ==, 2);
  g_assert_nonnull (strstr (n.err, "no program given"));
  run_clear (&n);
}

static void
test_profile_static (Fixture *f, gconstpointer data)
{
  g_autofree char *prog = need_program ("probe-static");
  if (prog == NULL)
    return;
  const char *args[] = { "profile", "--", prog, "props", NULL };
  Run r = run_cli (f, args);
  g_assert_cmpint (r.status, ==, 1);
  g_assert_nonnull (strstr (r.err, "linked statically against the CUDA runtime"));
  g_assert_nonnull (strstr (r.err, "rebuild with warpscope-cli build or nvcc -cudart shared"));
  /* Nothing ran. */
  g_assert_cmpstr (r.out, ==, "");
  run_clear (&r);
}

static void
test_build (Fixture *f, gconstpointer data)
{
  if (!*WS_NVCC)
    {
      g_test_skip ("nvcc not found at build time");
      return;
    }
  g_autofree char *src = g_build_filename (g_getenv ("WS_SOURCE_DIR"), "tests", "cudart", "managed.cu", NULL);
  g_autofree char *out = g_build_filename (f->tmp, "managed", NULL);
  const char *args[] = { "build", "-o", out, src, NULL };
  Run r = run_cli (f, args);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.err, "-cudart shared"));
  g_autoptr (GError) error = NULL;
  g_autoptr (WsElfCuda) info = ws_elf_cuda_inspect (out, &error);
  g_assert_no_error (error);
  g_assert_true (ws_elf_cuda_needs (info, "libcudart.so.13"));
  g_assert_nonnull (info->fatbin);
  g_assert_true (ws_fatbin_has_ptx (info->fatbin));
  run_clear (&r);

  /* A user architecture that embeds no PTX is refused after the build. */
  g_autofree char *sass = g_build_filename (f->tmp, "sass", NULL);
  const char *sargs[] = { "build", "-o", sass, src, "-gencode", "arch=compute_80,code=sm_80", NULL };
  Run s = run_cli (f, sargs);
  g_assert_cmpint (s.status, ==, 1);
  g_assert_nonnull (strstr (s.err, "holds no PTX"));
  run_clear (&s);
  const char *stat[] = { "build", src, "-cudart", "static", NULL };
  Run t = run_cli (f, stat);
  g_assert_cmpint (t.status, ==, 2);
  run_clear (&t);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/cudart/exports/every-cuda13-symbol-with-its-version", test_exports);
#define ADD(path, fn) g_test_add (path, Fixture, NULL, fixture_setup, fn, fixture_teardown)
  ADD ("/cudart/device/properties-match-catalogue-gpu", test_properties);
  ADD ("/cudart/memory/copies-memset-pinned-managed", test_memory);
  ADD ("/cudart/symbols/copy-to-from-and-address", test_symbols);
  ADD ("/cudart/errors/strings-last-error-events", test_errors);
  ADD ("/cudart/unsupported/call-names-the-function", test_unsupported);
  ADD ("/cudart/streams/ids-capture-params-pci-host-funcs", test_misc);
  ADD ("/cudart/streams/capture-into-graph-and-replay", test_graph);
  ADD ("/cudart/launch/kernels-attributes-occupancy", test_launch);
  ADD ("/cudart/launch/fault-is-sticky", test_fault);
  ADD ("/cudart/launch/ptx-newer-than-target-runs-with-warning", test_older_target);
  ADD ("/cudart/launch/dynamic-shared-memory-opt-in", test_dynamic_shared);
  ADD ("/cudart/launch/managed-variables", test_managed);
  ADD ("/cudart/launch/unsupported-instruction-fails-only-its-kernel", test_unsupported_instruction_fails_launch);
  ADD ("/cudart/launch/rdc-units-linked", test_rdc);
  ADD ("/cudart/launch/sass-only-says-how-to-rebuild", test_sass_only);
  ADD ("/cudart/profile/vectoradd-json-summary", test_profile_vectoradd);
  ADD ("/cudart/profile/summary-file-keeps-exit-code", test_profile_summary_file);
  ADD ("/cudart/profile/static-runtime-refused", test_profile_static);
  ADD ("/cudart/build/embeds-ptx-and-shared-runtime", test_build);
  return g_test_run ();
}
