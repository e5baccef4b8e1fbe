/* ws-predict-worker.c: predictor plugins in supervised worker processes.
 *
 * Why processes: a plugin is user code loaded with dlopen.  In the host a
 * segfault, an abort() or an endless loop of one prediction would end (or
 * freeze) the CLI, a whole sweep or the GUI.  In a worker the host sees a
 * closed socket and a signal, or no answer in time, and turns that into an
 * error for that prediction naming plugin, kernel and signal.
 *
 * The design (docs/plugin-guide.md, "Isolation"):
 *  - workers are fork()ed from the host, never exec()ed: they have the
 *    plugin already loaded and the host's code, so no helper binary has to
 *    be found, and plugins see exactly the host table they see in process;
 *  - analytic kernels (the many small predictions of a sweep) go to one
 *    long-lived worker per plugin record, forked at its first use and kept
 *    alive across predictions; a request carries the GPU record, the
 *    kernel's parameters and the options (a plain message over a socketpair),
 *    the answer the result or the error.  A worker that died or was killed
 *    is started again by the next request;
 *  - a traced launch runs in a worker forked for that prediction, after the
 *    host opened the trace (and, in `predict`, built the launch analysis
 *    that every plugin shares): the worker reads them copy-on-write and only
 *    the result crosses the socket.  Serialising the trace and the analysis
 *    instead would cost more than the fork (a few hundred microseconds, see
 *    bench/predict-bench.c) and warp cursors would need a round trip per
 *    record;
 *  - limits: the answer must come within plugin->timeout_seconds (then the
 *    worker is killed with SIGKILL), and a worker's address space may grow by
 *    plugin->memory_limit_mb (RLIMIT_AS), so a runaway allocation fails in
 *    the worker (usually an abort) instead of exhausting the machine.
 *
 * A fork() from a multi-threaded host copies only the calling thread; locks
 * other threads held at that instant stay locked in the child.  Workers
 * therefore touch little beyond the plugin, the inherited read-only data and
 * malloc (which glibc makes fork-safe); a worker that still blocks is caught
 * by the time limit like a hanging plugin. */

#include "ws-config.h"
#include "predict/ws-predict-private.h"

#include <errno.h>
#include <math.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>

struct _WsPredictorWorker {
  GMutex lock;                   /* one request at a time: the thread contract */
  pid_t pid;                     /* 0: not running */
  int fd;                        /* the host's end of the socketpair */
};

/* Messages are plain little buffers (built with GByteArray, read with a
 * cursor), not GVariant: the child of a fork() must not need GLib's global
 * locks (GVariant's type-info lock, GObject's) that another host thread may
 * have held at the instant of the fork.
 *
 * The answer: ok, error code, error message, cycles, seconds, ipc, the CPI
 * stack, the metrics, the warnings.  An analytic request: the GPU record
 * (its struct's bytes, then its strings by offset: both sides are the same
 * program), the kernel's name and parameters, the options. */

static void
put_bytes (GByteArray *b, const void *data, guint32 len)
{
  g_byte_array_append (b, (const guint8 *) &len, sizeof len);
  g_byte_array_append (b, data, len);
}

static void
put_string (GByteArray *b, const char *s)
{
  put_bytes (b, s ? s : "", (guint32) strlen (s ? s : "") + 1);
}

static void
put_u32 (GByteArray *b, guint32 v)
{
  g_byte_array_append (b, (const guint8 *) &v, sizeof v);
}

static void
put_double (GByteArray *b, double v)
{
  g_byte_array_append (b, (const guint8 *) &v, sizeof v);
}

typedef struct {
  const guint8 *p, *end;
  gboolean bad;                  /* read past the end or malformed: everything after reads as 0 / "" */
} Reader;

static const void *
get_bytes (Reader *r, guint32 *len)
{
  guint32 n = 0;
  if (!r->bad && (gsize) (r->end - r->p) >= sizeof n)
    memcpy (&n, r->p, sizeof n);
  else
    r->bad = TRUE;
  if (!r->bad && (gsize) (r->end - r->p - sizeof n) < n)
    r->bad = TRUE;
  if (r->bad)
    {
      *len = 0;
      return NULL;
    }
  const void *data = r->p + sizeof n;
  r->p += sizeof n + n;
  *len = n;
  return data;
}

static const char *
get_string (Reader *r)
{
  guint32 len;
  const char *s = get_bytes (r, &len);
  if (s == NULL || len == 0 || s[len - 1] != '\0')
    {
      r->bad = TRUE;
      return "";
    }
  return s;
}

static guint32
get_u32 (Reader *r)
{
  guint32 v = 0;
  if (!r->bad && (gsize) (r->end - r->p) >= sizeof v)
    {
      memcpy (&v, r->p, sizeof v);
      r->p += sizeof v;
    }
  else
    r->bad = TRUE;
  return v;
}

static double
get_double (Reader *r)
{
  double v = NAN;
  if (!r->bad && (gsize) (r->end - r->p) >= sizeof v)
    {
      memcpy (&v, r->p, sizeof v);
      r->p += sizeof v;
    }
  else
    r->bad = TRUE;
  return v;
}

static GMutex workers_lock;      /* creating plugin->worker */

/* ---- framing: a 32-bit length, then the message ------------------------------ */

static gboolean
send_all (int fd, const void *data, gsize len)
{
  const char *p = data;
  while (len > 0)
    {
      ssize_t n = send (fd, p, len, MSG_NOSIGNAL);
      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        return FALSE;
      p += n;
      len -= (gsize) n;
    }
  return TRUE;
}

/* Sends @b (a message) and frees it. */
static gboolean
send_frame (int fd, GByteArray *b)
{
  guint32 len = b->len;
  gboolean ok = send_all (fd, &len, sizeof len) && send_all (fd, b->data, len);
  g_byte_array_unref (b);
  return ok;
}

typedef enum { RECV_OK, RECV_CLOSED, RECV_TIMEOUT } RecvStatus;

/* Reads @len bytes; @deadline is g_get_monotonic_time()'s clock, 0 for none. */
static RecvStatus
recv_all (int fd, void *data, gsize len, gint64 deadline)
{
  char *p = data;
  while (len > 0)
    {
      if (deadline > 0)
        {
          gint64 left = deadline - g_get_monotonic_time ();
          if (left <= 0)
            return RECV_TIMEOUT;
          struct pollfd pfd = { .fd = fd, .events = POLLIN };
          int r = poll (&pfd, 1, (int) MIN ((left + 999) / 1000, G_MAXINT));
          if (r < 0 && errno == EINTR)
            continue;
          if (r == 0)
            return RECV_TIMEOUT;
          if (r < 0)
            return RECV_CLOSED;
        }
      ssize_t n = recv (fd, p, len, 0);
      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        return RECV_CLOSED;
      p += n;
      len -= (gsize) n;
    }
  return RECV_OK;
}

static RecvStatus
recv_frame (int fd, gint64 deadline, GBytes **out)
{
  guint32 len;
  RecvStatus st = recv_all (fd, &len, sizeof len, deadline);
  if (st != RECV_OK)
    return st;
  if (len > 1u << 30)
    return RECV_CLOSED;
  gpointer buf = g_malloc (len ? len : 1);
  st = recv_all (fd, buf, len, deadline);
  if (st != RECV_OK)
    {
      g_free (buf);
      return st;
    }
  *out = g_bytes_new_take (buf, len);
  return RECV_OK;
}

/* ---- results across the socket ------------------------------------------- */

static GByteArray *
result_message (const WsPrediction *p, const GError *error)
{
  GByteArray *b = g_byte_array_sized_new (256);
  put_u32 (b, p != NULL);
  put_u32 (b, error ? (guint32) error->code : 0);
  put_string (b, error ? error->message : "");
  put_double (b, p ? p->cycles : NAN);
  put_double (b, p ? p->seconds : NAN);
  put_double (b, p ? p->ipc : NAN);
  put_u32 (b, p ? p->cpi_names->len : 0);
  for (guint i = 0; p && i < p->cpi_names->len; i++)
    {
      put_string (b, g_array_index (p->cpi_names, char *, i));
      put_double (b, g_array_index (p->cpi_values, double, i));
    }
  put_u32 (b, p ? p->metric_names->len : 0);
  for (guint i = 0; p && i < p->metric_names->len; i++)
    {
      put_string (b, g_array_index (p->metric_names, char *, i));
      put_double (b, g_array_index (p->metric_values, double, i));
    }
  put_u32 (b, p ? p->warnings->len : 0);
  for (guint i = 0; p && i < p->warnings->len; i++)
    put_string (b, p->warnings->pdata[i]);
  return b;
}

static WsPrediction *
result_from_message (GBytes *msg, const WsPredictorContext *ctx, const char *kernel, GError **error)
{
  gsize size;
  const guint8 *data = g_bytes_get_data (msg, &size);
  Reader r = { data, data + size, FALSE };
  gboolean ok = get_u32 (&r) != 0;
  gint32 code = (gint32) get_u32 (&r);
  const char *message = get_string (&r);
  g_autoptr(WsPrediction) p = ws_prediction_new (ctx->descriptor->name, ctx->gpu->name, kernel);
  p->cycles = get_double (&r);
  p->seconds = get_double (&r);
  p->ipc = get_double (&r);
  for (guint32 n = get_u32 (&r), i = 0; i < n && !r.bad; i++)
    {
      char *name = g_strdup (get_string (&r));
      double v = get_double (&r);
      g_array_append_val (p->cpi_names, name);
      g_array_append_val (p->cpi_values, v);
    }
  for (guint32 n = get_u32 (&r), i = 0; i < n && !r.bad; i++)
    {
      char *name = g_strdup (get_string (&r));
      double v = get_double (&r);
      g_array_append_val (p->metric_names, name);
      g_array_append_val (p->metric_values, v);
    }
  for (guint32 n = get_u32 (&r), i = 0; i < n && !r.bad; i++)
    g_ptr_array_add (p->warnings, g_strdup (get_string (&r)));
  if (r.bad)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_FAILED, "predictor '%s' on kernel '%s' for %s: its worker process "
                   "answered with a malformed message (%" G_GSIZE_FORMAT " bytes)", ctx->descriptor->name, kernel,
                   ctx->gpu->name, size);
      return NULL;
    }
  if (!ok)
    {
      g_set_error_literal (error, WS_ERROR, code, message);
      return NULL;
    }
  return g_steal_pointer (&p);
}

/* ---- the worker's side ------------------------------------------------------ */

/* Runs in the child right after fork(): limits, and no descriptor of the
 * host's but the worker's socket (so the host's other sockets see their
 * peers close when they should). */
static void
worker_setup (const WsPredictorPlugin *plugin, int fd)
{
  if (plugin->memory_limit_mb > 0)
    {
      /* RLIMIT_AS counts what the host had mapped already (trace maps,
       * sanitizer shadow): the limit is what the worker may add to it. */
      unsigned long pages = 0;
      FILE *f = fopen ("/proc/self/statm", "r");
      if (f != NULL)
        {
          if (fscanf (f, "%lu", &pages) != 1)
            pages = 0;
          fclose (f);
        }
      rlim_t now = (rlim_t) pages * (rlim_t) sysconf (_SC_PAGESIZE);
      struct rlimit rl = { .rlim_cur = now + ((rlim_t) plugin->memory_limit_mb << 20),
                           .rlim_max = RLIM_INFINITY };
      struct rlimit old;
      if (getrlimit (RLIMIT_AS, &old) == 0)
        {
          rl.rlim_max = old.rlim_max;
          if (old.rlim_max != RLIM_INFINITY && rl.rlim_cur > old.rlim_max)
            rl.rlim_cur = old.rlim_max;
        }
      setrlimit (RLIMIT_AS, &rl);
    }
  if (fd > 3)
    close_range (3, (unsigned) fd - 1, 0);
  close_range ((unsigned) fd + 1, ~0u, 0);
  /* The host may block signals it reads from a signalfd (SIGINT of a sweep):
   * a worker takes them, and the host's handlers, the default way. */
  sigset_t none;
  sigemptyset (&none);
  pthread_sigmask (SIG_SETMASK, &none, NULL);
  signal (SIGINT, SIG_DFL);
  signal (SIGTERM, SIG_DFL);
  signal (SIGHUP, SIG_DFL);
  signal (SIGALRM, SIG_DFL);
  signal (SIGPIPE, SIG_IGN);
}

/* A worker whose host died while the plugin runs on is ended by an alarm a
 * little after the host's own time limit. */
static void
worker_arm_alarm (const WsPredictorPlugin *plugin)
{
  alarm ((unsigned) MIN (ceil (plugin->timeout_seconds) + 10, 1e6));
}

static WsGpu *
gpu_from_message (Reader *r)
{
  guint32 n = 0;
  const void *data = get_bytes (r, &n);
  WsGpu *gpu = g_new0 (WsGpu, 1);
  if (n == sizeof *gpu)
    memcpy (gpu, data, sizeof *gpu);
  guint n_fields;
  const WsHwField *fields = ws_hw_fields (WS_HW_GPU, &n_fields);
  for (guint i = 0; i < n_fields; i++)
    if (fields[i].type == WS_HW_FIELD_STRING)
      *(char **) ((char *) gpu + fields[i].offset) = NULL;
  for (guint32 k = 0, count = get_u32 (r); k < count && !r->bad; k++)
    {
      guint32 offset = get_u32 (r);
      const char *text = get_string (r);
      for (guint i = 0; i < n_fields; i++)
        if (fields[i].type == WS_HW_FIELD_STRING && fields[i].offset == offset)
          {
            g_free (*(char **) ((char *) gpu + offset));
            *(char **) ((char *) gpu + offset) = g_strdup (text);
          }
    }
  return gpu;
}

static GByteArray *
serve_analytic (const WsPredictorPlugin *plugin, GBytes *request)
{
  gsize size;
  const guint8 *data = g_bytes_get_data (request, &size);
  Reader r = { data, data + size, FALSE };
  g_autoptr(WsGpu) gpu = gpu_from_message (&r);
  g_autoptr(WsAnalyticKernel) kernel = ws_analytic_kernel_new (get_string (&r));
  for (guint32 n = get_u32 (&r), i = 0; i < n && !r.bad; i++)
    {
      const char *key = get_string (&r);
      ws_analytic_kernel_set (kernel, key, get_double (&r));
    }
  g_autoptr(GHashTable) options = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  for (guint32 n = get_u32 (&r), i = 0; i < n && !r.bad; i++)
    {
      const char *key = get_string (&r);
      g_hash_table_insert (options, g_strdup (key), g_strdup (get_string (&r)));
    }
  g_autoptr(GError) error = NULL;
  if (r.bad)
    {
      g_set_error (&error, WS_ERROR, WS_ERROR_FAILED, "predictor '%s': its worker process received a malformed "
                   "request", plugin->name);
      return result_message (NULL, error);
    }
  WsPredictorContext ctx = { 0 };
  ctx.descriptor = plugin->descriptor;
  ctx.gpu = gpu;
  ctx.analytic = kernel;
  ctx.options = options;
  g_autoptr(WsPrediction) p = ws_predict_run_direct (&ctx, &error);
  return result_message (p, error);
}

static void G_GNUC_NORETURN
worker_main (const WsPredictorPlugin *plugin, int fd)
{
  worker_setup (plugin, fd);
  g_autoptr(GError) init_error = NULL;
  gboolean inited = FALSE;
  for (;;)
    {
      GBytes *request = NULL;
      if (recv_frame (fd, 0, &request) != RECV_OK)
        break;
      worker_arm_alarm (plugin);
      if (!inited)
        {
          ws_predict_run_init (plugin->descriptor, &init_error);
          inited = TRUE;
        }
      GByteArray *answer = init_error != NULL ? result_message (NULL, init_error) : serve_analytic (plugin, request);
      g_bytes_unref (request);
      gboolean sent = send_frame (fd, answer);
      alarm (0);
      if (!sent)
        break;
    }
  /* The host closed the socket: the instance's last prediction is done. */
  if (inited && init_error == NULL && WS_PREDICTOR_DESCRIPTOR_HAS_V3 (plugin->descriptor) &&
      plugin->descriptor->teardown != NULL)
    plugin->descriptor->teardown ();
  _exit (0);
}

/* ---- the host's side ------------------------------------------------------- */

/* In a traced launch's worker: the trace opened again.  The host's copy
 * has a lock (its block cache) that another host thread may have held at
 * the instant of the fork; a fresh one has not.  NULL (keep the inherited
 * copy) when the file is no longer the trace the host opened. */
static WsTrace *
reopen_trace (const WsPredictorContext *ctx)
{
  if (ctx->trace == NULL)
    return NULL;
  g_autoptr(WsTrace) t = ws_trace_open (ws_trace_get_path (ctx->trace), NULL);
  if (t == NULL || ws_trace_get_n_launches (t) != ws_trace_get_n_launches (ctx->trace))
    return NULL;
  const WsTraceLaunch *l = ws_trace_get_launch (t, ctx->launch_index);
  uint64_t n_tbs = 0;
  ws_trace_get_tb_counters (t, ctx->launch_index, &n_tbs);
  if (n_tbs != ctx->n_tbs || l->warp_instructions != ctx->launch->warp_instructions ||
      strcmp (ws_trace_get_kernel (t, l->kernel)->name, ctx->kernel->name) != 0)
    return NULL;
  return g_steal_pointer (&t);
}

static pid_t
fork_worker (const WsPredictorPlugin *plugin, int *host_fd, gboolean one_shot, WsPredictorContext *ctx,
             GError **error)
{
  int sv[2];
  if (socketpair (AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0)
    {
      int e = errno;
      g_set_error (error, WS_ERROR, WS_ERROR_IO, "predictor '%s': cannot create the socket to its worker "
                   "process: %s", plugin->name, g_strerror (e));
      return -1;
    }
  pid_t pid = fork ();
  if (pid < 0)
    {
      int e = errno;
      close (sv[0]);
      close (sv[1]);
      g_set_error (error, WS_ERROR, WS_ERROR_IO, "predictor '%s': cannot start its worker process: %s "
                   "(WARPSCOPE_PLUGIN_IN_PROCESS=1 runs plugins inside Warpscope)", plugin->name, g_strerror (e));
      return -1;
    }
  if (pid == 0)
    {
      close (sv[0]);
      if (!one_shot)
        worker_main (plugin, sv[1]);
      /* One prediction on the inherited context: the thread that forked
       * waits for it, so the worker may die with that thread. */
      prctl (PR_SET_PDEATHSIG, SIGKILL);
      worker_setup (plugin, sv[1]);
      g_autoptr(GError) local = NULL;
      g_autoptr(WsPrediction) p = NULL;
      g_autoptr(WsTrace) fresh = reopen_trace (ctx);
      if (fresh != NULL)
        {
          ctx->trace = fresh;
          ctx->launch = ws_trace_get_launch (fresh, ctx->launch_index);
          ctx->kernel = ws_trace_get_kernel (fresh, ctx->launch->kernel);
          ctx->tbs = ws_trace_get_tb_counters (fresh, ctx->launch_index, &ctx->n_tbs);
        }
      if (ws_predict_run_init (plugin->descriptor, &local))
        {
          p = ws_predict_run_direct (ctx, &local);
          if (WS_PREDICTOR_DESCRIPTOR_HAS_V3 (plugin->descriptor) && plugin->descriptor->teardown != NULL)
            plugin->descriptor->teardown ();
        }
      send_frame (sv[1], result_message (p, local));
      _exit (0);
    }
  close (sv[1]);
  *host_fd = sv[0];
  return pid;
}

/* Reaps @pid after its socket closed or it ran out of time, and says why in
 * @error: the signal, a time-out, or an exit without an answer. */
static void
worker_failed (const WsPredictorPlugin *plugin, WsPredictorContext *ctx, const char *kernel, pid_t pid,
               gboolean timed_out, GError **error)
{
  if (timed_out)
    kill (pid, SIGKILL);
  int status = 0;
  pid_t r;
  gint64 give_up = g_get_monotonic_time () + G_USEC_PER_SEC;
  /* The socket closes as the process ends; wait for it to be reapable,
   * then make sure (a worker that closed its socket but lives on). */
  while ((r = waitpid (pid, &status, WNOHANG)) == 0 && g_get_monotonic_time () < give_up)
    g_usleep (1000);
  if (r == 0)
    {
      kill (pid, SIGKILL);
      r = waitpid (pid, &status, 0);
    }
  const char *gpu = ctx->gpu->name;
  if (timed_out)
    g_set_error (error, WS_ERROR, WS_ERROR_FAILED,
                 "predictor '%s' on kernel '%s' for %s: no answer within %g s; its worker process (pid %d) "
                 "was stopped with signal %d (%s).  Raise the limit with --plugin-timeout SECONDS "
                 "(WARPSCOPE_PLUGIN_TIMEOUT) if the model is just slow",
                 plugin->name, kernel, gpu, plugin->timeout_seconds, (int) pid, SIGKILL, g_strsignal (SIGKILL));
  else if (r == pid && WIFSIGNALED (status))
    {
      int sig = WTERMSIG (status);
      g_autofree char *memory = plugin->memory_limit_mb > 0 && (sig == SIGABRT || sig == SIGSEGV || sig == SIGBUS)
        ? g_strdup_printf (" (a worker may allocate %" G_GUINT64_FORMAT " MiB: WARPSCOPE_PLUGIN_MEMORY_MB)",
                           plugin->memory_limit_mb)
        : g_strdup ("");
      g_set_error (error, WS_ERROR, WS_ERROR_FAILED,
                   "predictor '%s' crashed on kernel '%s' for %s: its worker process (pid %d) was killed by "
                   "signal %d (%s)%s.  The plugin has a bug; run it in process under a debugger "
                   "(--in-process, WARPSCOPE_PLUGIN_IN_PROCESS=1) to find it",
                   plugin->name, kernel, gpu, (int) pid, sig, g_strsignal (sig), memory);
    }
  else
    g_set_error (error, WS_ERROR, WS_ERROR_FAILED,
                 "predictor '%s' on kernel '%s' for %s: its worker process (pid %d) ended (exit status %d) "
                 "without an answer; does the plugin call exit()?",
                 plugin->name, kernel, gpu, (int) pid, r == pid && WIFEXITED (status) ? WEXITSTATUS (status) : -1);
}

static const char *
kernel_of (const WsPredictorContext *ctx)
{
  return ctx->analytic ? ctx->analytic->name : ctx->kernel->name;
}

WsPrediction *
ws_predict_worker_forked (const WsPredictorPlugin *plugin, WsPredictorContext *ctx, GError **error)
{
  /* Built here: in the worker it would need GObject (JsonBuilder), whose
   * global locks another host thread may hold at the fork. */
  if (ctx->gpu_node == NULL)
    {
      ctx->gpu_node = ws_gpu_to_json (ctx->gpu);
      ctx->gpu_json = json_node_get_object (ctx->gpu_node);
    }
  int fd = -1;
  pid_t pid = fork_worker (plugin, &fd, TRUE, ctx, error);
  if (pid < 0)
    {
      g_clear_pointer (&ctx->gpu_node, json_node_unref);
      return NULL;
    }
  GBytes *answer = NULL;
  RecvStatus st = recv_frame (fd, g_get_monotonic_time () + (gint64) (plugin->timeout_seconds * 1e6), &answer);
  close (fd);
  g_clear_pointer (&ctx->gpu_node, json_node_unref);
  ctx->gpu_json = NULL;
  if (st != RECV_OK)
    {
      worker_failed (plugin, ctx, kernel_of (ctx), pid, st == RECV_TIMEOUT, error);
      return NULL;
    }
  int status;
  while (waitpid (pid, &status, 0) < 0 && errno == EINTR)
    ;
  g_autoptr(GBytes) owned = answer;
  return result_from_message (owned, ctx, kernel_of (ctx), error);
}

static GByteArray *
analytic_request (const WsPredictorContext *ctx)
{
  GByteArray *b = g_byte_array_sized_new (1024);
  put_bytes (b, ctx->gpu, sizeof *ctx->gpu);
  guint n_fields, n_strings = 0;
  const WsHwField *fields = ws_hw_fields (WS_HW_GPU, &n_fields);
  for (guint i = 0; i < n_fields; i++)
    n_strings += fields[i].type == WS_HW_FIELD_STRING;
  put_u32 (b, n_strings);
  for (guint i = 0; i < n_fields; i++)
    if (fields[i].type == WS_HW_FIELD_STRING)
      {
        put_u32 (b, (guint32) fields[i].offset);
        put_string (b, *(const char *const *) ((const char *) ctx->gpu + fields[i].offset));
      }
  put_string (b, ctx->analytic->name);
  GHashTableIter it;
  gpointer key, value;
  put_u32 (b, g_hash_table_size (ctx->analytic->params));
  g_hash_table_iter_init (&it, ctx->analytic->params);
  while (g_hash_table_iter_next (&it, &key, &value))
    {
      put_string (b, key);
      put_double (b, *(double *) value);
    }
  put_u32 (b, ctx->options ? g_hash_table_size (ctx->options) : 0);
  if (ctx->options != NULL)
    {
      g_hash_table_iter_init (&it, ctx->options);
      while (g_hash_table_iter_next (&it, &key, &value))
        {
          put_string (b, key);
          put_string (b, value);
        }
    }
  return b;
}

static void
worker_stop (WsPredictorWorker *w)
{
  if (w->pid > 0)
    {
      close (w->fd);
      /* The worker ends on end of file (after teardown()); a worker that
       * does not is killed. */
      int status;
      gint64 give_up = g_get_monotonic_time () + G_USEC_PER_SEC;
      pid_t r;
      while ((r = waitpid (w->pid, &status, WNOHANG)) == 0 && g_get_monotonic_time () < give_up)
        g_usleep (1000);
      if (r == 0)
        {
          kill (w->pid, SIGKILL);
          waitpid (w->pid, &status, 0);
        }
    }
  w->pid = 0;
  w->fd = -1;
}

WsPrediction *
ws_predict_worker_analytic (const WsPredictorPlugin *plugin, WsPredictorContext *ctx, GError **error)
{
  g_mutex_lock (&workers_lock);
  WsPredictorWorker *w = plugin->worker;
  if (w == NULL)
    {
      w = g_new0 (WsPredictorWorker, 1);
      g_mutex_init (&w->lock);
      w->fd = -1;
      /* The worker is the host's private state of the plugin record. */
      ((WsPredictorPlugin *) plugin)->worker = w;
    }
  g_mutex_unlock (&workers_lock);

  g_mutex_lock (&w->lock);
  if (w->pid <= 0 && (w->pid = fork_worker (plugin, &w->fd, FALSE, NULL, error)) < 0)
    {
      w->pid = 0;
      g_mutex_unlock (&w->lock);
      return NULL;
    }
  GBytes *answer = NULL;
  RecvStatus st = RECV_CLOSED;
  g_autoptr(GByteArray) request = analytic_request (ctx);
  gboolean sent = send_frame (w->fd, g_byte_array_ref (request));
  if (!sent)
    {
      /* The worker ended between two requests (killed from outside): that
       * is no fault of this prediction; start another and ask it. */
      worker_stop (w);
      if ((w->pid = fork_worker (plugin, &w->fd, FALSE, NULL, error)) < 0)
        {
          w->pid = 0;
          g_mutex_unlock (&w->lock);
          return NULL;
        }
      sent = send_frame (w->fd, g_byte_array_ref (request));
    }
  if (sent)
    st = recv_frame (w->fd, g_get_monotonic_time () + (gint64) (plugin->timeout_seconds * 1e6), &answer);
  if (st != RECV_OK)
    {
      /* Restarted by the next request. */
      close (w->fd);
      worker_failed (plugin, ctx, kernel_of (ctx), w->pid, st == RECV_TIMEOUT, error);
      w->pid = 0;
      w->fd = -1;
      g_mutex_unlock (&w->lock);
      return NULL;
    }
  g_mutex_unlock (&w->lock);
  g_autoptr(GBytes) owned = answer;
  return result_from_message (owned, ctx, kernel_of (ctx), error);
}

void
ws_predict_worker_free (WsPredictorWorker *w)
{
  if (w == NULL)
    return;
  worker_stop (w);
  g_mutex_clear (&w->lock);
  g_free (w);
}

int
ws_predictor_plugin_worker_pid (const WsPredictorPlugin *plugin)
{
  g_return_val_if_fail (plugin != NULL, 0);
  g_mutex_lock (&workers_lock);
  WsPredictorWorker *w = plugin->worker;
  g_mutex_unlock (&workers_lock);
  if (w == NULL)
    return 0;
  g_mutex_lock (&w->lock);
  int pid = w->pid;
  g_mutex_unlock (&w->lock);
  return pid;
}
