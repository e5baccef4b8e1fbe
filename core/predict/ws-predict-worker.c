/* ws-predict-worker.c: predictor plugins in supervised worker processes.
 *
 * Why processes: a plugin is user code loaded with dlopen.  In the host a
 * segfault, an abort() or an endless loop of one prediction would end (or
 * freeze) the CLI, a whole sweep or the GUI.  In a worker the host sees a
 * closed socket and a signal, or no answer in time, and turns that into an
 * error for that prediction naming plugin, kernel and signal.
 *
 * The design (docs/plugin-guide.md, "Isolation"):
 *  - a worker is a program of its own, warpscope-predict-worker, started
 *    with posix_spawn() (fork and exec): it loads the plugin from its path
 *    and serves requests over a socketpair.  Not a bare fork() of the host:
 *    a fork of a multi-threaded host (the GUI, a sweep's threads) copies
 *    only the calling thread, and a lock another thread held at that
 *    instant (GObject's, GLib's, the dynamic loader's) stays locked in the
 *    child for ever.  That froze the GUI: a forked worker waited inside
 *    g_object_unref() until the host's 600 s limit (9 of 15 runs of its
 *    test).  A fresh program has one thread and no such locks;
 *  - workers are long-lived and pooled per plugin record, up to one per
 *    CPU, each serving one request at a time; a worker that died or was
 *    killed is started again by the next request;
 *  - a request carries the GPU record, the options and either the analytic
 *    kernel's parameters or a traced launch by reference: the worker opens
 *    the trace file itself (and keeps it open for the next request) and
 *    builds the launch analysis if the plugin asks for it;
 *  - limits: the answer must come within plugin->timeout_seconds (then the
 *    worker is killed with SIGKILL), and a worker's address space may grow by
 *    plugin->memory_limit_mb (RLIMIT_AS), so a runaway allocation fails in
 *    the worker (usually an abort) instead of exhausting the machine.  A
 *    worker whose host died ends at end of file on its socket, or, busy in
 *    the plugin, by an alarm a little after the host's own time limit. */

#include "ws-config.h"
#include "predict/ws-predict-private.h"
#include "base/ws-paths.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>

extern char **environ;

/* The worker's end of the socket, in the worker. */
#define WORKER_FD 3

/* One worker process: serves one request at a time. */
typedef struct {
  pid_t pid;     /* 0: not running (started by the next request) */
  int fd;        /* the host's end of the socketpair */
  gboolean busy; /* a request of some thread is on it */
} WorkerProc;

/* A plugin record's workers: up to one per CPU, so a sweep's threads do
 * not queue behind one process (each process is one instance: the thread
 * contract holds whatever the plugin declares). */
struct _WsPredictorWorker {
  GMutex lock;
  GCond freed;
  GPtrArray *procs; /* WorkerProc*, never shrinks */
};

/* Messages are plain little buffers (built with GByteArray, read with a
 * cursor): both ends are the same build of Warpscope (the worker refuses to
 * serve a host of another build, see WORKER_BUILD).
 *
 * A request: its kind, the GPU record (its struct's bytes, then its strings
 * by offset), the options, then for an analytic kernel its name and
 * parameters, for a traced launch the trace's path, the launch index and
 * what identifies the launch (the trace's launch count, the launch's thread
 * blocks, warp instructions and kernel name).  The answer: ok, error code,
 * error message, cycles, seconds, ipc, the CPI stack, the metrics, the
 * warnings. */

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
  gboolean bad; /* read past the end or malformed: everything after reads as 0 / "" */
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

static GMutex workers_lock; /* creating plugin->worker */

enum { REQUEST_ANALYTIC = 1, REQUEST_TRACE = 2 };

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
  g_autoptr (WsPrediction) p = ws_prediction_new (ctx->descriptor->name, ctx->gpu->name, kernel);
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
      g_set_error (error, WS_ERROR, WS_ERROR_FAILED,
                   "predictor '%s' on kernel '%s' for %s: its worker process "
                   "answered with a malformed message (%" G_GSIZE_FORMAT " bytes)",
                   ctx->descriptor->name, kernel, ctx->gpu->name, size);
      return NULL;
    }
  if (!ok)
    {
      g_set_error_literal (error, WS_ERROR, code, message);
      return NULL;
    }
  return g_steal_pointer (&p);
}


/* What a worker and its host must agree on: messages carry struct bytes. */
static char *
build_id (void)
{
  return g_strdup_printf ("%s/abi%u/gpu%" G_GSIZE_FORMAT, WS_VERSION, (unsigned) WS_PREDICTOR_ABI_VERSION,
                          sizeof (WsGpu));
}

static WsGpu *
gpu_from_message (Reader *r)
{
  guint32 n = 0;
  const void *data = get_bytes (r, &n);
  WsGpu *gpu = g_new0 (WsGpu, 1);
  if (n == sizeof *gpu)
    memcpy (gpu, data, sizeof *gpu);
  else
    r->bad = TRUE;
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
  if (gpu->name == NULL)
    gpu->name = g_strdup ("");
  return gpu;
}

/* ---- the worker's side ------------------------------------------------------ */

typedef struct {
  const WsPredictorPlugin *plugin;
  WsTrace *trace; /* the last trace a request named, kept open */
} Worker;

/* Limits, and no descriptor but the socket (a descriptor the host leaked
 * without close-on-exec would keep its peer from seeing the end). */
static void
worker_setup (guint64 memory_limit_mb)
{
  close_range (WORKER_FD + 1, ~0u, 0);
  signal (SIGPIPE, SIG_IGN);
  if (memory_limit_mb > 0)
    {
      /* RLIMIT_AS counts what is mapped already (the libraries, sanitizer
       * shadow): the limit is what the worker may add to it. */
      unsigned long pages = 0;
      FILE *f = fopen ("/proc/self/statm", "r");
      if (f != NULL)
        {
          if (fscanf (f, "%lu", &pages) != 1)
            pages = 0;
          fclose (f);
        }
      rlim_t now = (rlim_t) pages * (rlim_t) sysconf (_SC_PAGESIZE);
      struct rlimit rl = { .rlim_cur = now + ((rlim_t) memory_limit_mb << 20), .rlim_max = RLIM_INFINITY };
      struct rlimit old;
      if (getrlimit (RLIMIT_AS, &old) == 0)
        {
          rl.rlim_max = old.rlim_max;
          if (old.rlim_max != RLIM_INFINITY && rl.rlim_cur > old.rlim_max)
            rl.rlim_cur = old.rlim_max;
        }
      setrlimit (RLIMIT_AS, &rl);
    }
}

/* The launch a trace request names, in the trace at @path as it is now:
 * the open copy if it still holds that launch, else the file opened again
 * (it may have been replaced by a new profile of the same name). */
static gboolean
worker_trace_launch (Worker *w, const char *path, guint n_launches, guint index, guint64 n_tbs,
                     guint64 warp_instructions, const char *kernel, GError **error)
{
  for (int attempt = 0; attempt < 2; attempt++)
    {
      if (w->trace == NULL || attempt == 1 || strcmp (ws_trace_get_path (w->trace), path) != 0)
        {
          g_clear_pointer (&w->trace, ws_trace_free);
          if ((w->trace = ws_trace_open (path, error)) == NULL)
            return FALSE;
        }
      if (ws_trace_get_n_launches (w->trace) == n_launches && index < n_launches)
        {
          const WsTraceLaunch *l = ws_trace_get_launch (w->trace, index);
          uint64_t tbs = 0;
          ws_trace_get_tb_counters (w->trace, index, &tbs);
          if (tbs == n_tbs && l->warp_instructions == warp_instructions
              && strcmp (ws_trace_get_kernel (w->trace, l->kernel)->name, kernel) == 0)
            return TRUE;
        }
    }
  g_set_error (error, WS_ERROR, WS_ERROR_FAILED,
               "predictor '%s' on kernel '%s': the trace %s changed on disk "
               "after Warpscope opened it (launch %u is not the one asked for); profile again or reopen it",
               w->plugin->name, kernel, path, index);
  return FALSE;
}

static GByteArray *
worker_serve (Worker *w, GBytes *request)
{
  gsize size;
  const guint8 *data = g_bytes_get_data (request, &size);
  Reader r = { data, data + size, FALSE };
  guint32 kind = get_u32 (&r);
  g_autoptr (WsGpu) gpu = gpu_from_message (&r);
  g_autoptr (GHashTable) options = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  for (guint32 n = get_u32 (&r), i = 0; i < n && !r.bad; i++)
    {
      const char *key = get_string (&r);
      g_hash_table_insert (options, g_strdup (key), g_strdup (get_string (&r)));
    }
  WsPredictorContext ctx = { 0 };
  ctx.descriptor = w->plugin->descriptor;
  ctx.gpu = gpu;
  ctx.options = options;
  g_autoptr (GError) error = NULL;
  g_autoptr (WsAnalyticKernel) kernel = NULL;
  if (kind == REQUEST_ANALYTIC)
    {
      kernel = ws_analytic_kernel_new (get_string (&r));
      for (guint32 n = get_u32 (&r), i = 0; i < n && !r.bad; i++)
        {
          const char *key = get_string (&r);
          ws_analytic_kernel_set (kernel, key, get_double (&r));
        }
      ctx.analytic = kernel;
    }
  else if (kind == REQUEST_TRACE)
    {
      const char *path = get_string (&r);
      guint32 n_launches = get_u32 (&r), index = get_u32 (&r);
      guint64 n_tbs = get_u32 (&r);
      n_tbs |= (guint64) get_u32 (&r) << 32;
      guint64 warp_instructions = get_u32 (&r);
      warp_instructions |= (guint64) get_u32 (&r) << 32;
      const char *kernel_name = get_string (&r);
      if (!r.bad && !worker_trace_launch (w, path, n_launches, index, n_tbs, warp_instructions, kernel_name, &error))
        return result_message (NULL, error);
      if (!r.bad)
        {
          ctx.trace = w->trace;
          ctx.launch_index = index;
          ctx.launch = ws_trace_get_launch (w->trace, index);
          ctx.kernel = ws_trace_get_kernel (w->trace, ctx.launch->kernel);
          ctx.tbs = ws_trace_get_tb_counters (w->trace, index, &ctx.n_tbs);
        }
    }
  else
    r.bad = TRUE;
  if (r.bad)
    {
      g_set_error (&error, WS_ERROR, WS_ERROR_FAILED,
                   "predictor '%s': its worker process received a malformed "
                   "request",
                   w->plugin->name);
      return result_message (NULL, error);
    }
  g_autoptr (WsPrediction) p = ws_predict_run_direct (&ctx, &error);
  if (ctx.owns_analysis)
    ws_launch_analysis_free (ctx.analysis);
  g_clear_error (&ctx.analysis_error);
  return result_message (p, error);
}

static int G_GNUC_PRINTF (1, 2) worker_usage (const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  g_autofree char *why = g_strdup_vprintf (fmt, ap);
  va_end (ap);
  fprintf (stderr,
           "warpscope-predict-worker: %s\nWarpscope starts this program to run a predictor plugin in a "
           "process of its own (docs/plugin-guide.md, \"Isolation\"); it is not a command.\n",
           why);
  return 2;
}

int
ws_predict_worker_main (int argc, char **argv)
{
  const char *path = NULL, *name = NULL, *build = NULL;
  double timeout = 600;
  guint64 memory_mb = 0;
  for (int i = 1; i + 1 < argc; i += 2)
    {
      if (strcmp (argv[i], "--plugin") == 0)
        path = argv[i + 1];
      else if (strcmp (argv[i], "--name") == 0)
        name = argv[i + 1];
      else if (strcmp (argv[i], "--build") == 0)
        build = argv[i + 1];
      else if (strcmp (argv[i], "--timeout") == 0)
        timeout = g_ascii_strtod (argv[i + 1], NULL);
      else if (strcmp (argv[i], "--memory-mb") == 0)
        memory_mb = g_ascii_strtoull (argv[i + 1], NULL, 10);
      else
        return worker_usage ("unknown argument '%s'", argv[i]);
    }
  if (path == NULL || name == NULL || build == NULL || (argc - 1) % 2 != 0)
    return worker_usage ("usage: warpscope-predict-worker --plugin PATH --name NAME --build ID "
                         "[--timeout SECONDS] [--memory-mb N], the socket on descriptor %d",
                         WORKER_FD);
  int flags = fcntl (WORKER_FD, F_GETFL);
  struct stat st;
  if (flags < 0 || fstat (WORKER_FD, &st) != 0 || !S_ISSOCK (st.st_mode))
    return worker_usage ("descriptor %d is not a socket", WORKER_FD);
  worker_setup (memory_mb);

  /* What stops the worker from serving, said in the answer to every
   * request: the host reports it per prediction. */
  g_autoptr (GError) broken = NULL;
  g_autofree char *own = build_id ();
  g_autoptr (WsPredictorPlugin) plugin = NULL;
  if (strcmp (build, own) != 0)
    g_set_error (&broken, WS_ERROR, WS_ERROR_FAILED,
                 "predictor '%s': the worker program (build %s) does not "
                 "match Warpscope (build %s); reinstall Warpscope",
                 name, own, build);
  else
    {
      plugin = ws_predictor_plugin_load (path);
      if (!plugin->ok)
        g_set_error (&broken, WS_ERROR, WS_ERROR_FAILED,
                     "predictor '%s': its worker process could not load it: "
                     "%s",
                     name, plugin->error);
      else if (strcmp (plugin->name, name) != 0)
        g_set_error (&broken, WS_ERROR, WS_ERROR_FAILED,
                     "predictor '%s': %s now holds a plugin named '%s'; "
                     "restart Warpscope to use it",
                     name, path, plugin->name);
    }
  Worker w = { plugin, NULL };
  gboolean inited = FALSE;
  for (;;)
    {
      GBytes *request = NULL;
      if (recv_frame (WORKER_FD, 0, &request) != RECV_OK)
        break;
      alarm ((unsigned) MIN (ceil (timeout) + 10, 1e6));
      if (broken == NULL && !inited)
        {
          ws_predict_run_init (plugin->descriptor, &broken);
          inited = broken == NULL;
        }
      GByteArray *answer = broken != NULL ? result_message (NULL, broken) : worker_serve (&w, request);
      g_bytes_unref (request);
      gboolean sent = send_frame (WORKER_FD, answer);
      alarm (0);
      if (!sent)
        break;
    }
  /* The host closed the socket: the instance's last prediction is done. */
  if (inited && WS_PREDICTOR_DESCRIPTOR_HAS_V3 (plugin->descriptor) && plugin->descriptor->teardown != NULL)
    plugin->descriptor->teardown ();
  g_clear_pointer (&w.trace, ws_trace_free);
  return 0;
}

/* ---- the host's side ------------------------------------------------------- */

/* Where the worker program is: WARPSCOPE_PREDICT_WORKER, else the build
 * tree's when running uninstalled, else the installed <libdir>/warpscope/
 * (ws_paths_get). */
static char *
worker_program (void)
{
  return ws_paths_get (WS_PATH_PREDICT_WORKER);
}

static gboolean
worker_start (const WsPredictorPlugin *plugin, WorkerProc *proc, GError **error)
{
  int sv[2];
  if (socketpair (AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0)
    {
      int e = errno;
      g_set_error (error, WS_ERROR, WS_ERROR_IO,
                   "predictor '%s': cannot create the socket to its worker "
                   "process: %s",
                   plugin->name, g_strerror (e));
      return FALSE;
    }
  g_autofree char *program = worker_program ();
  g_autofree char *build = build_id ();
  char timeout[G_ASCII_DTOSTR_BUF_SIZE];
  g_ascii_dtostr (timeout, sizeof timeout, plugin->timeout_seconds);
  g_autofree char *memory = g_strdup_printf ("%" G_GUINT64_FORMAT, plugin->memory_limit_mb);
  char *argv[] = { program, "--plugin",  plugin->path, "--name",      plugin->name, "--build",
                   build,   "--timeout", timeout,      "--memory-mb", memory,       NULL };
  /* The socket becomes the worker's descriptor 3 (dup2 onto itself clears
   * close-on-exec too); signals the host blocks or catches (a sweep reads
   * SIGINT from a signalfd) are the default ones there. */
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init (&actions);
  posix_spawn_file_actions_adddup2 (&actions, sv[1], WORKER_FD);
  posix_spawnattr_t attr;
  posix_spawnattr_init (&attr);
  sigset_t none, defaults;
  sigemptyset (&none);
  sigemptyset (&defaults);
  for (int sig = 1; sig < NSIG; sig++)
    if (sig != SIGKILL && sig != SIGSTOP)
      sigaddset (&defaults, sig);
  posix_spawnattr_setsigmask (&attr, &none);
  posix_spawnattr_setsigdefault (&attr, &defaults);
  posix_spawnattr_setflags (&attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
  pid_t pid = 0;
  int rc = posix_spawn (&pid, program, &actions, &attr, argv, environ);
  posix_spawn_file_actions_destroy (&actions);
  posix_spawnattr_destroy (&attr);
  close (sv[1]);
  if (rc != 0)
    {
      close (sv[0]);
      g_set_error (error, WS_ERROR, WS_ERROR_IO,
                   "predictor '%s': cannot start its worker process %s: %s "
                   "(WARPSCOPE_PLUGIN_IN_PROCESS=1 runs plugins inside Warpscope)",
                   plugin->name, program, g_strerror (rc));
      return FALSE;
    }
  proc->pid = pid;
  proc->fd = sv[0];
  return TRUE;
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
                                  ? g_strdup_printf (" (a worker may allocate %" G_GUINT64_FORMAT
                                                     " MiB: WARPSCOPE_PLUGIN_MEMORY_MB)",
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

static void
worker_stop (WorkerProc *proc)
{
  if (proc->pid > 0)
    {
      close (proc->fd);
      /* The worker ends on end of file (after teardown()); a worker that
       * does not is killed. */
      int status;
      gint64 give_up = g_get_monotonic_time () + G_USEC_PER_SEC;
      pid_t r;
      while ((r = waitpid (proc->pid, &status, WNOHANG)) == 0 && g_get_monotonic_time () < give_up)
        g_usleep (1000);
      if (r == 0)
        {
          kill (proc->pid, SIGKILL);
          waitpid (proc->pid, &status, 0);
        }
    }
  proc->pid = 0;
  proc->fd = -1;
}

static WsPredictorWorker *
pool_of (const WsPredictorPlugin *plugin)
{
  g_mutex_lock (&workers_lock);
  WsPredictorWorker *w = plugin->worker;
  if (w == NULL)
    {
      w = g_new0 (WsPredictorWorker, 1);
      g_mutex_init (&w->lock);
      g_cond_init (&w->freed);
      w->procs = g_ptr_array_new ();
      /* The pool is the host's private state of the plugin record. */
      ((WsPredictorPlugin *) plugin)->worker = w;
    }
  g_mutex_unlock (&workers_lock);
  return w;
}

/* An idle worker of @w (started or not), marked busy; waits while all
 * are busy and there is one per CPU. */
static WorkerProc *
pool_acquire (WsPredictorWorker *w)
{
  g_mutex_lock (&w->lock);
  WorkerProc *proc = NULL;
  while (proc == NULL)
    {
      for (guint i = 0; i < w->procs->len && proc == NULL; i++)
        if (!((WorkerProc *) w->procs->pdata[i])->busy)
          proc = w->procs->pdata[i];
      if (proc == NULL && w->procs->len < MAX (g_get_num_processors (), 1))
        {
          proc = g_new0 (WorkerProc, 1);
          proc->fd = -1;
          g_ptr_array_add (w->procs, proc);
        }
      if (proc == NULL)
        g_cond_wait (&w->freed, &w->lock);
    }
  proc->busy = TRUE;
  g_mutex_unlock (&w->lock);
  return proc;
}

static void
pool_release (WsPredictorWorker *w, WorkerProc *proc)
{
  g_mutex_lock (&w->lock);
  proc->busy = FALSE;
  g_cond_signal (&w->freed);
  g_mutex_unlock (&w->lock);
}

static const char *
kernel_of (const WsPredictorContext *ctx)
{
  return ctx->analytic ? ctx->analytic->name : ctx->kernel->name;
}

/* The request's common part: kind, GPU record, options. */
static GByteArray *
request_new (guint32 kind, const WsPredictorContext *ctx)
{
  GByteArray *b = g_byte_array_sized_new (1024);
  put_u32 (b, kind);
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
  put_u32 (b, ctx->options ? g_hash_table_size (ctx->options) : 0);
  if (ctx->options != NULL)
    {
      GHashTableIter it;
      gpointer key, value;
      g_hash_table_iter_init (&it, ctx->options);
      while (g_hash_table_iter_next (&it, &key, &value))
        {
          put_string (b, key);
          put_string (b, value);
        }
    }
  return b;
}

/* Sends @request to an idle worker of @plugin (started if need be) and
 * waits for the answer within the plugin's time limit. */
static WsPrediction *
worker_ask (const WsPredictorPlugin *plugin, WsPredictorContext *ctx, GByteArray *request, GError **error)
{
  WsPredictorWorker *w = pool_of (plugin);
  WorkerProc *proc = pool_acquire (w);
  if (proc->pid <= 0 && !worker_start (plugin, proc, error))
    {
      pool_release (w, proc);
      return NULL;
    }
  GBytes *answer = NULL;
  RecvStatus st = RECV_CLOSED;
  gboolean sent = send_frame (proc->fd, g_byte_array_ref (request));
  if (!sent)
    {
      /* The worker ended between two requests (killed from outside): that
       * is no fault of this prediction; start another and ask it. */
      worker_stop (proc);
      if (!worker_start (plugin, proc, error))
        {
          pool_release (w, proc);
          return NULL;
        }
      sent = send_frame (proc->fd, g_byte_array_ref (request));
    }
  if (sent)
    st = recv_frame (proc->fd, g_get_monotonic_time () + (gint64) (plugin->timeout_seconds * 1e6), &answer);
  if (st != RECV_OK)
    {
      /* Started again by the next request. */
      close (proc->fd);
      worker_failed (plugin, ctx, kernel_of (ctx), proc->pid, st == RECV_TIMEOUT, error);
      proc->pid = 0;
      proc->fd = -1;
      pool_release (w, proc);
      return NULL;
    }
  pool_release (w, proc);
  g_autoptr (GBytes) owned = answer;
  return result_from_message (owned, ctx, kernel_of (ctx), error);
}

WsPrediction *
ws_predict_worker_analytic (const WsPredictorPlugin *plugin, WsPredictorContext *ctx, GError **error)
{
  g_autoptr (GByteArray) request = request_new (REQUEST_ANALYTIC, ctx);
  put_string (request, ctx->analytic->name);
  GHashTableIter it;
  gpointer key, value;
  put_u32 (request, g_hash_table_size (ctx->analytic->params));
  g_hash_table_iter_init (&it, ctx->analytic->params);
  while (g_hash_table_iter_next (&it, &key, &value))
    {
      put_string (request, key);
      put_double (request, *(double *) value);
    }
  return worker_ask (plugin, ctx, request, error);
}

WsPrediction *
ws_predict_worker_trace (const WsPredictorPlugin *plugin, WsPredictorContext *ctx, GError **error)
{
  /* The worker opens the file itself: an absolute path, so a worker
   * started from another folder finds it. */
  g_autofree char *path = g_canonicalize_filename (ws_trace_get_path (ctx->trace), NULL);
  g_autoptr (GByteArray) request = request_new (REQUEST_TRACE, ctx);
  put_string (request, path);
  put_u32 (request, ws_trace_get_n_launches (ctx->trace));
  put_u32 (request, ctx->launch_index);
  put_u32 (request, (guint32) ctx->n_tbs);
  put_u32 (request, (guint32) (ctx->n_tbs >> 32));
  put_u32 (request, (guint32) ctx->launch->warp_instructions);
  put_u32 (request, (guint32) (ctx->launch->warp_instructions >> 32));
  put_string (request, ctx->kernel->name);
  return worker_ask (plugin, ctx, request, error);
}

void
ws_predict_worker_free (WsPredictorWorker *w)
{
  if (w == NULL)
    return;
  for (guint i = 0; i < w->procs->len; i++)
    {
      worker_stop (w->procs->pdata[i]);
      g_free (w->procs->pdata[i]);
    }
  g_ptr_array_unref (w->procs);
  g_cond_clear (&w->freed);
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
  int pid = w->procs->len > 0 ? ((WorkerProc *) w->procs->pdata[0])->pid : 0;
  g_mutex_unlock (&w->lock);
  return pid;
}
