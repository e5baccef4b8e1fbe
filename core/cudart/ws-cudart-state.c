/* ws-cudart-state.c: the emulated device's lifetime, configuration from the
 * environment (set by `warpscope-cli profile`), errors and the exit summary.
 *
 * Environment:
 *   WS_GPU            catalogue name of the target GPU (default "A100")
 *   WS_DB             store path (default: the user's warpscope.db)
 *   WS_TRACE          trace output path; unset = no trace
 *   WS_THREADS        emulator worker threads (0/unset = all CPUs)
 *   WS_DETERMINISTIC  "1": run thread blocks one at a time, in order
 *   WS_SUMMARY        path of a JSON summary written at exit
 *   WS_TOOLS          instrumentation tools and handler libraries, comma- or newline-separated (docs/instrumentation.md)
 *   WS_TOOL_OUTPUT    results prefix: PREFIX.TOOL.json written at exit
 *   WS_INSTRUCTION_BUDGET  warp instructions per launch before a hang is reported (0/unset = none)
 *   WS_LAUNCH_TIMEOUT seconds per launch before the watchdog ends it (default 600, 0 = none)
 *   WS_MEMCHECK       "1": every invalid access faults at once (profile --memcheck); otherwise
 *                     accesses the hardware would not notice are performed and reported at exit */
#define G_LOG_DOMAIN "ws-cudart"

#include "ws-config.h"
#include "cudart/ws-cudart-private.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <json-glib/json-glib.h>
#include <cuda_profiler_api.h>

#include "store/ws-store.h"
#include "trace/ws-trace-writer.h"
#include "instrument/ws-instrument.h"

#define WS_CUDART_DEFAULT_GPU "A100"
/* Default watchdog (seconds per launch): far above any launch of the test
 * programs and benchmarks, which the emulator runs in seconds, but finite. */
#define WS_CUDART_DEFAULT_LAUNCH_TIMEOUT 600.0
/* Invalid accesses listed one by one in the exit report. */
#define WS_CUDART_MAX_INVALID_LISTED 20

WsCudart ws_cudart;
static _Thread_local cudaError_t last_error = cudaSuccess;

void
ws_cudart_warn (const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  g_autofree char *msg = g_strdup_vprintf (fmt, ap);
  va_end (ap);
  fflush (stdout); /* keep the program's output and ours in order */
  fprintf (stderr, "warpscope: %s\n", msg);
  fflush (stderr);
}

cudaError_t
ws_cudart_set_error (cudaError_t err)
{
  if (err != cudaSuccess)
    {
      last_error = err;
      /* counted for fault-injection campaigns (a "symptom" outcome);
       * cudaErrorNotReady is a status (stream/event queries), not an error */
      if (err != cudaErrorNotReady && __atomic_fetch_add (&ws_cudart.errors_reported, 1, __ATOMIC_RELAXED) == 0)
        ws_cudart.first_reported_error = err;
    }
  return err;
}

cudaError_t
ws_cudart_unsupported (const char *name)
{
  ws_cudart_warn ("unsupported CUDA runtime call %s (not implemented by the Warpscope emulator)", name);
  return ws_cudart_set_error (cudaErrorNotSupported);
}

int
ws_cudart_target_sm (void)
{
  if (ws_cudart.gpu == NULL)
    return 0;
  return ws_cudart.gpu->cc_major * 10 + ws_cudart.gpu->cc_minor;
}

static guint64
env_uint (const char *name, guint64 fallback)
{
  const char *v = g_getenv (name);
  if (v == NULL || *v == 0)
    return fallback;
  char *end = NULL;
  guint64 n = g_ascii_strtoull (v, &end, 10);
  if (end == v || *end != 0)
    {
      ws_cudart_warn ("ignoring %s=%s: not a number", name, v);
      return fallback;
    }
  return n;
}

static void write_summary (void);
/* The trace was finished without error (profile then moves it into place). */
static gboolean trace_written;

void
ws_cudart_note_fault (const char *kernel, guint64 launch, cudaError_t err, const char *message)
{
  JsonObject *o = json_object_new ();
  json_object_set_string_member (o, "kernel", kernel);
  json_object_set_int_member (o, "launch", (gint64) launch);
  json_object_set_string_member (o, "error", cudaGetErrorName (err));
  json_object_set_string_member (o, "message", message);
  g_rec_mutex_lock (&ws_cudart.lock);
  if (ws_cudart.faults == NULL)
    ws_cudart.faults = g_ptr_array_new_with_free_func ((GDestroyNotify) json_object_unref);
  g_ptr_array_add (ws_cudart.faults, o);
  g_rec_mutex_unlock (&ws_cudart.lock);
}

/* The exit report of invalid accesses the hardware would not have noticed
 * (memcheck off): each names kernel, PTX line, block, thread and address. */
static void
report_invalid_accesses (void)
{
  guint n = 0;
  const WsEmuInvalidAccess *v = ws_cudart.emu != NULL ? ws_emu_get_invalid_accesses (ws_cudart.emu, &n) : NULL;
  if (n == 0)
    return;
  guint64 total = 0;
  for (guint i = 0; i < n; i++)
    total += v[i].count;
  ws_cudart_warn ("%" G_GUINT64_FORMAT " invalid memory access%s by %u instruction%s went unnoticed, as on a GPU "
                  "(run with --memcheck to stop at the first one):",
                  total, total == 1 ? "" : "es", n, n == 1 ? "" : "s");
  for (guint i = 0; i < n && i < WS_CUDART_MAX_INVALID_LISTED; i++)
    fprintf (stderr,
             "  invalid %s %s of %u bytes in kernel %s at %s:%u (%s), first by block (%u,%u,%u) thread (%u,%u,%u) "
             "at address 0x%" G_GINT64_MODIFIER "x: %s; %" G_GUINT64_FORMAT " time%s in %" G_GUINT64_FORMAT
             " launch%s\n",
             v[i].space, v[i].access, v[i].size, v[i].kernel, v[i].origin, v[i].ptx_line,
             v[i].instruction != NULL ? v[i].instruction : "?", v[i].block[0], v[i].block[1], v[i].block[2],
             v[i].thread[0], v[i].thread[1], v[i].thread[2], v[i].address, v[i].detail, v[i].count,
             v[i].count == 1 ? "" : "s", v[i].launches, v[i].launches == 1 ? "" : "es");
  if (n > WS_CUDART_MAX_INVALID_LISTED)
    fprintf (stderr, "  (and %u more instructions)\n", n - WS_CUDART_MAX_INVALID_LISTED);
  fflush (stderr);
}

/* Called by the library's destructor: the program's own atexit handlers
 * (which unregister fatbinaries) have run by then. */
static void
shutdown_runtime (void)
{
  g_rec_mutex_lock (&ws_cudart.lock);
  if (ws_cudart.trace != NULL)
    {
      g_autoptr (GError) error = NULL;
      if (!ws_trace_writer_close (ws_cudart.trace, &error))
        ws_cudart_warn ("could not finish the trace %s: %s", ws_cudart.trace_path, error->message);
      else
        trace_written = TRUE;
      ws_cudart.trace = NULL;
    }
  if (ws_cudart.instrument != NULL)
    {
      g_autoptr (GError) error = NULL;
      const char *prefix = g_getenv ("WS_TOOL_OUTPUT");
      if (prefix != NULL && *prefix && !ws_instrument_write_results (ws_cudart.instrument, prefix, &error))
        ws_cudart_warn ("could not write the instrumentation results: %s", error->message);
    }
  report_invalid_accesses ();
  write_summary ();
  g_rec_mutex_unlock (&ws_cudart.lock);
}

__attribute__ ((constructor)) static void
ws_cudart_constructor (void)
{
  g_rec_mutex_init (&ws_cudart.lock);
  ws_cudart.modules = g_ptr_array_new ();
  ws_cudart.kernels = g_hash_table_new (g_direct_hash, g_direct_equal);
  ws_cudart.kernel_handles = g_hash_table_new (g_direct_hash, g_direct_equal);
  ws_cudart.vars = g_hash_table_new (g_direct_hash, g_direct_equal);
  ws_cudart.streams = g_hash_table_new (g_direct_hash, g_direct_equal);
  ws_cudart.events = g_hash_table_new (g_direct_hash, g_direct_equal);
  ws_cudart.alloc_sizes = g_hash_table_new (g_int64_hash, g_int64_equal);
  ws_cudart.start_time = ws_now_seconds ();
  ws_cudart.heap_bytes = 8 * 1024 * 1024;
  ws_cudart.devrt_sync_depth = 2; /* the CUDA defaults */
  ws_cudart.devrt_pending_launches = 2048;
  ws_cudart.stack_bytes = 1024;
  ws_cudart.printf_fifo_bytes = 1024 * 1024;
}

__attribute__ ((destructor)) static void
ws_cudart_destructor (void)
{
  shutdown_runtime ();
}

static cudaError_t
init_device (void)
{
  const char *gpu_name = g_getenv ("WS_GPU");
  if (gpu_name == NULL || *gpu_name == 0)
    gpu_name = WS_CUDART_DEFAULT_GPU;
  const char *db = g_getenv ("WS_DB");
  g_autoptr (GError) error = NULL;
  g_autoptr (WsStore) store = ws_store_open (db != NULL && *db ? db : NULL, &error);
  if (store == NULL)
    {
      ws_cudart_warn ("cannot open the hardware catalogue: %s", error->message);
      return cudaErrorInitializationError;
    }
  ws_cudart.gpu = ws_store_get_gpu (store, gpu_name, &error);
  if (ws_cudart.gpu == NULL)
    {
      ws_cudart_warn ("target GPU: %s (set WS_GPU or --gpu to a catalogue name; see warpscope-cli hw list)",
                      error->message);
      return cudaErrorNoDevice;
    }
  ws_cudart.mem = ws_devmem_new (&error);
  if (ws_cudart.mem == NULL)
    {
      ws_cudart_warn ("cannot set up device memory: %s", error->message);
      return cudaErrorInitializationError;
    }
  ws_cudart.n_threads = (guint) env_uint ("WS_THREADS", 0);
  const char *det = g_getenv ("WS_DETERMINISTIC");
  ws_cudart.deterministic = det != NULL && strcmp (det, "1") == 0;
  const char *summary = g_getenv ("WS_SUMMARY");
  ws_cudart.summary_path = summary != NULL && *summary ? g_strdup (summary) : NULL;
  const char *trace = g_getenv ("WS_TRACE");
  if (trace != NULL && *trace)
    {
      ws_cudart.trace_path = g_strdup (trace);
      ws_cudart.trace = ws_trace_writer_new (trace, &error);
      if (ws_cudart.trace == NULL)
        {
          ws_cudart_warn ("cannot write the trace %s: %s", trace, error->message);
          return cudaErrorInitializationError;
        }
    }
  return cudaSuccess;
}

/* The emulator is created on first module load, so programs that only use
 * memory and device queries never need it. */
static cudaError_t
ensure_emu (void)
{
  if (ws_cudart.emu != NULL)
    return cudaSuccess;
  WsEmuOptions options = { 0 };
  options.gpu = ws_cudart.gpu;
  options.mem = ws_cudart.mem;
  options.trace = ws_cudart.trace;
  options.n_threads = ws_cudart.n_threads;
  options.deterministic = ws_cudart.deterministic;
  options.heap_bytes = ws_cudart.heap_bytes;
  options.instruction_budget = env_uint ("WS_INSTRUCTION_BUDGET", 0);
  options.launch_timeout = WS_CUDART_DEFAULT_LAUNCH_TIMEOUT;
  const char *timeout = g_getenv ("WS_LAUNCH_TIMEOUT");
  if (timeout != NULL && *timeout)
    {
      char *end = NULL;
      double t = g_ascii_strtod (timeout, &end);
      if (end == timeout || *end != 0 || !(t >= 0) || t > 1e9)
        ws_cudart_warn ("ignoring WS_LAUNCH_TIMEOUT=%s: not a number of seconds (0 = no limit)", timeout);
      else
        options.launch_timeout = t;
    }
  const char *memcheck = g_getenv ("WS_MEMCHECK");
  ws_cudart.memcheck = memcheck != NULL && strcmp (memcheck, "1") == 0;
  options.memcheck = ws_cudart.memcheck;
  g_autoptr (GError) error = NULL;
  const char *tools = g_getenv ("WS_TOOLS");
  if (tools != NULL && *tools && ws_cudart.instrument == NULL)
    {
      /* built-in tools and handler libraries (PATH[:ARGS]) */
      ws_cudart.instrument = ws_instrument_new ();
      if (!ws_instrument_add_tools (ws_cudart.instrument, tools, &error))
        {
          ws_cudart_warn ("WS_TOOLS: %s", error->message);
          return cudaErrorInitializationError;
        }
    }
  options.instrument = ws_cudart.instrument;
  ws_cudart.emu = ws_emu_new (&options, &error);
  if (ws_cudart.emu == NULL)
    {
      ws_cudart_warn ("cannot start the emulator: %s", error->message);
      return cudaErrorInitializationError;
    }
  return cudaSuccess;
}

cudaError_t
ws_cudart_ensure_emu (void)
{
  g_rec_mutex_lock (&ws_cudart.lock);
  cudaError_t err = ws_cudart_ensure ();
  if (err == cudaSuccess)
    err = ensure_emu ();
  g_rec_mutex_unlock (&ws_cudart.lock);
  return err;
}

cudaError_t
ws_cudart_ensure (void)
{
  g_rec_mutex_lock (&ws_cudart.lock);
  if (!ws_cudart.init_done)
    {
      ws_cudart.init_done = TRUE;
      ws_cudart.init_status = init_device ();
    }
  cudaError_t err = ws_cudart.init_status != cudaSuccess ? ws_cudart.init_status : ws_cudart.sticky;
  g_rec_mutex_unlock (&ws_cudart.lock);
  return err;
}

static void
write_summary (void)
{
  if (ws_cudart.summary_path == NULL)
    {
      const char *summary = g_getenv ("WS_SUMMARY");
      if (summary == NULL || *summary == 0)
        return;
      ws_cudart.summary_path = g_strdup (summary);
    }
  g_autoptr (JsonBuilder) b = json_builder_new ();
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "launches");
  json_builder_add_int_value (b, (gint64) ws_cudart.launches);
  json_builder_set_member_name (b, "warp_instructions");
  json_builder_add_int_value (b, (gint64) ws_cudart.warp_instructions);
  json_builder_set_member_name (b, "thread_instructions");
  json_builder_add_int_value (b, (gint64) ws_cudart.thread_instructions);
  json_builder_set_member_name (b, "seconds");
  json_builder_add_double_value (b, ws_cudart.seconds);
  json_builder_set_member_name (b, "gpu");
  json_builder_add_string_value (b, ws_cudart.gpu != NULL ? ws_cudart.gpu->name : "");
  if (ws_cudart.trace_path != NULL)
    {
      json_builder_set_member_name (b, "trace");
      json_builder_add_string_value (b, ws_cudart.trace_path);
      json_builder_set_member_name (b, "trace_written");
      json_builder_add_boolean_value (b, trace_written);
    }
  json_builder_set_member_name (b, "errors_reported");
  json_builder_add_int_value (b, (gint64) ws_cudart.errors_reported);
  if (ws_cudart.errors_reported > 0)
    {
      json_builder_set_member_name (b, "first_reported_error");
      json_builder_add_string_value (b, cudaGetErrorName (ws_cudart.first_reported_error));
    }
  if (ws_cudart.sticky != cudaSuccess)
    {
      json_builder_set_member_name (b, "error");
      json_builder_add_string_value (b, cudaGetErrorName (ws_cudart.sticky));
    }
  json_builder_set_member_name (b, "faults");
  json_builder_begin_array (b);
  for (guint i = 0; ws_cudart.faults != NULL && i < ws_cudart.faults->len; i++)
    {
      JsonNode *n = json_node_new (JSON_NODE_OBJECT);
      json_node_set_object (n, g_ptr_array_index (ws_cudart.faults, i));
      json_builder_add_value (b, n);
    }
  json_builder_end_array (b);
  guint n_invalid = 0;
  const WsEmuInvalidAccess *inv = ws_cudart.emu != NULL ? ws_emu_get_invalid_accesses (ws_cudart.emu, &n_invalid)
                                                        : NULL;
  guint64 invalid_total = 0;
  for (guint i = 0; i < n_invalid; i++)
    invalid_total += inv[i].count;
  json_builder_set_member_name (b, "invalid_accesses");
  json_builder_add_int_value (b, (gint64) invalid_total);
  json_builder_set_member_name (b, "memcheck");
  json_builder_add_boolean_value (b, ws_cudart.memcheck);
  json_builder_end_object (b);
  g_autoptr (JsonNode) root = json_builder_get_root (b);
  g_autoptr (JsonGenerator) gen = json_generator_new ();
  json_generator_set_root (gen, root);
  g_autofree char *text = json_generator_to_data (gen, NULL);
  g_autoptr (GError) error = NULL;
  if (!g_file_set_contents (ws_cudart.summary_path, text, -1, &error))
    ws_cudart_warn ("cannot write the summary %s: %s", ws_cudart.summary_path, error->message);
}

/* ---- errors ------------------------------------------------------------ */

cudaError_t
cudaGetLastError (void)
{
  cudaError_t err = last_error;
  last_error = cudaSuccess;
  /* A sticky error (kernel fault) cannot be cleared. */
  if (err == cudaSuccess && ws_cudart.sticky != cudaSuccess)
    err = ws_cudart.sticky;
  return err;
}

cudaError_t
cudaPeekAtLastError (void)
{
  if (last_error == cudaSuccess && ws_cudart.sticky != cudaSuccess)
    return ws_cudart.sticky;
  return last_error;
}

/* Generated from driver_types.h by tools/gen-cudart.py. */
typedef struct {
  int code;
  const char *name;
} WsCudaErrorName;
extern const WsCudaErrorName ws_cuda_error_names[];

const char *
cudaGetErrorName (cudaError_t error)
{
  for (guint i = 0; ws_cuda_error_names[i].name != NULL; i++)
    if (ws_cuda_error_names[i].code == (int) error)
      return ws_cuda_error_names[i].name;
  return "cudaErrorUnknown";
}

/* Descriptions of the errors programs meet under the emulator; others are
 * described by their name (cudaErrorLaunchTimeout -> "launch timeout"). */
static const struct {
  cudaError_t code;
  const char *text;
} error_texts[] = {
  { cudaSuccess, "no error" },
  { cudaErrorInvalidValue, "invalid argument" },
  { cudaErrorMemoryAllocation, "out of memory" },
  { cudaErrorInitializationError, "initialization error" },
  { cudaErrorCudartUnloading, "driver shutting down" },
  { cudaErrorInvalidConfiguration, "invalid configuration argument" },
  { cudaErrorInvalidPitchValue, "invalid pitch argument" },
  { cudaErrorInvalidSymbol, "invalid device symbol" },
  { cudaErrorInvalidDevicePointer, "invalid device pointer" },
  { cudaErrorInvalidMemcpyDirection, "invalid copy direction for memcpy" },
  { cudaErrorMissingConfiguration, "__global__ function call is not configured" },
  { cudaErrorInvalidDeviceFunction, "invalid device function" },
  { cudaErrorNoDevice, "no CUDA-capable device is detected" },
  { cudaErrorInvalidDevice, "invalid device ordinal" },
  { cudaErrorInvalidKernelImage, "device kernel image is invalid" },
  { cudaErrorNoKernelImageForDevice, "no kernel image is available for execution on the device" },
  { cudaErrorInvalidPtx, "a PTX JIT compilation failed" },
  { cudaErrorInvalidResourceHandle, "invalid resource handle" },
  { cudaErrorSymbolNotFound, "named symbol not found" },
  { cudaErrorNotReady, "device not ready" },
  { cudaErrorIllegalAddress, "an illegal memory access was encountered" },
  { cudaErrorLaunchOutOfResources, "too many resources requested for launch" },
  { cudaErrorLaunchTimeout, "the launch timed out and was terminated" },
  { cudaErrorAssert, "device-side assert triggered" },
  { cudaErrorIllegalInstruction, "an illegal instruction was encountered" },
  { cudaErrorMisalignedAddress, "misaligned address" },
  { cudaErrorInvalidAddressSpace, "operation not supported on global/shared address space" },
  { cudaErrorLaunchFailure, "unspecified launch failure" },
  { cudaErrorNotSupported, "operation not supported" },
  { cudaErrorNotPermitted, "operation not permitted" },
  { cudaErrorUnknown, "unknown error" },
};

const char *
cudaGetErrorString (cudaError_t error)
{
  for (guint i = 0; i < G_N_ELEMENTS (error_texts); i++)
    if (error_texts[i].code == error)
      return error_texts[i].text;
  /* Humanised name, computed once per code and kept for the process. */
  static GHashTable *texts;
  static GMutex lock;
  const char *name = NULL;
  for (guint i = 0; ws_cuda_error_names[i].name != NULL; i++)
    if (ws_cuda_error_names[i].code == (int) error)
      name = ws_cuda_error_names[i].name;
  if (name == NULL)
    return "unrecognized error code";
  g_mutex_lock (&lock);
  if (texts == NULL)
    texts = g_hash_table_new (g_direct_hash, g_direct_equal);
  const char *text = g_hash_table_lookup (texts, GINT_TO_POINTER (error));
  if (text == NULL)
    {
      GString *s = g_string_new (NULL);
      const char *p = g_str_has_prefix (name, "cudaError") ? name + 9 : name;
      for (; *p; p++)
        {
          if (g_ascii_isupper (*p) && s->len > 0)
            g_string_append_c (s, ' ');
          g_string_append_c (s, g_ascii_tolower (*p));
        }
      text = g_string_free (s, FALSE);
      g_hash_table_insert (texts, GINT_TO_POINTER (error), (gpointer) text);
    }
  g_mutex_unlock (&lock);
  return text;
}

/* ---- versions, profiler ---------------------------------------------- */

cudaError_t
cudaDriverGetVersion (int *driverVersion)
{
  if (driverVersion == NULL)
    return ws_cudart_set_error (cudaErrorInvalidValue);
  /* The emulator stands in for a driver that supports this runtime. */
  *driverVersion = CUDART_VERSION;
  return cudaSuccess;
}

cudaError_t
cudaRuntimeGetVersion (int *runtimeVersion)
{
  if (runtimeVersion == NULL)
    return ws_cudart_set_error (cudaErrorInvalidValue);
  *runtimeVersion = CUDART_VERSION;
  return cudaSuccess;
}

/* The whole run is profiled (the trace records every launch), so there is
 * no collection to start or stop; as on a GPU without a profiler attached,
 * these succeed and do nothing. */
cudaError_t
cudaProfilerStart (void)
{
  return cudaSuccess;
}

cudaError_t
cudaProfilerStop (void)
{
  return cudaSuccess;
}

/* Called by the generated weak stubs (ws-cudart-stubs.c) of every entry
 * point the emulator does not implement. */
int
ws_cudart_stub_call (const char *name)
{
  return (int) ws_cudart_unsupported (name);
}
