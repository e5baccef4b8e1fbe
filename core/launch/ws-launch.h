/* ws-launch.h: runs an unmodified CUDA program on the PTX emulator.
 *
 * The program loads Warpscope's libcudart.so.13 (core/cudart) through
 * LD_LIBRARY_PATH; the runtime reads its configuration from WS_* variables
 * (docs/profiling.md) and writes a JSON summary at exit.  `warpscope-cli
 * profile` and `build`, the GUI's Profiles page and the on-demand kernels of
 * application models (core/system) all build and start programs through
 * this module. */
#pragma once

#include "base/ws-base.h"
#include <signal.h>
#include <gio/gio.h>
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/* Where libcudart.so.13 is: ws_paths_get (WS_PATH_CUDART_DIR), that is
 * $WARPSCOPE_CUDART_DIR, else the build tree when running uninstalled,
 * else the installed <libdir>/warpscope (newly allocated). */
WS_EXPORT char *ws_launch_cudart_dir (void);
/* ws_launch_cudart_dir when libcudart.so.13 is there; NULL with
 * WS_ERROR_NOT_FOUND (naming the file) when the runtime was not built. */
WS_EXPORT char *ws_launch_find_runtime (GError **error);
/* Refuses programs the runtime cannot interpose on (linked statically
 * against the CUDA runtime, or against another version than 13) with
 * WS_ERROR_UNSUPPORTED and what to do; scripts and other non-ELF files pass
 * (their children may be CUDA programs). */
WS_EXPORT gboolean ws_launch_check_program (const char *path, GError **error);

typedef struct {
  const char *gpu;         /* WS_GPU: target GPU (catalogue name); NULL: the runtime's default (A100) */
  const char *db;          /* WS_DB: catalogue database; NULL: the runtime's default */
  const char *trace;       /* WS_TRACE: trace to write; NULL: none */
  int threads;             /* WS_THREADS: emulator workers; -1: the runtime's default (all CPUs) */
  gboolean deterministic;  /* WS_DETERMINISTIC=1 */
  const char *tools;       /* WS_TOOLS: comma-separated instrumentation tools; NULL: none */
  const char *tool_output; /* WS_TOOL_OUTPUT: prefix of the tools' results */
  /* FALSE: the program shares this process's stdin, stdout and stderr.
   * TRUE: stdin is /dev/null, stdout is discarded and stderr is kept (its
   * tail in WsLaunchResult.stderr_tail). */
  gboolean capture;
  gboolean memcheck;     /* WS_MEMCHECK=1: every invalid access faults (docs/profiling.md) */
  double launch_timeout; /* WS_LAUNCH_TIMEOUT: watchdog seconds per launch; < 0: the runtime's default (600), 0: none */
  gint64 instruction_budget; /* WS_INSTRUCTION_BUDGET: warp instructions per launch; < 0: inherited, 0: none */
  /* Called once the program runs, with its process id (for a caller that
   * forwards signals to it); NULL: none. */
  void (*started) (GPid pid, gpointer user_data);
  gpointer started_data;
  /* ws_launch_profile: when not NULL and non-zero once the program ended,
   * the trace is not kept (a caller's signal handler sets it). */
  const volatile sig_atomic_t *abandon;
} WsLaunchOptions;

WS_EXPORT void ws_launch_options_init (WsLaunchOptions *options);

typedef struct {
  int exit_code;       /* the program's exit status, 128 + N when signal N killed it */
  int signal;          /* the signal that killed it, or 0 */
  double wall_seconds; /* the whole run */
  JsonNode *summary;   /* the runtime's summary (launches, warp_instructions, seconds, gpu, error…);
                                  * NULL when the program did not load the runtime */
  char *stderr_tail;   /* with capture: the last lines of its stderr (at most 4 KiB); else NULL */
  gboolean trace_kept; /* ws_launch_profile: the trace was moved into place */
} WsLaunchResult;

WS_EXPORT void ws_launch_result_free (WsLaunchResult *result);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsLaunchResult, ws_launch_result_free)

/* Runs @program with @args (NULL-terminated, after argv[0]; NULL: none) on
 * the emulator with @options, environment otherwise inherited, and waits.
 * The program dies with the calling thread's process (PR_SET_PDEATHSIG), so
 * a killed caller never leaves it running.
 * A program that fails is a result (exit_code != 0), not an error; errors
 * are: the runtime is missing (WS_ERROR_NOT_FOUND), the program cannot be
 * started, or @cancellable was cancelled (G_IO_ERROR_CANCELLED: the program
 * is killed and waited for). */
WS_EXPORT WsLaunchResult *ws_launch_run (const char *program, const char *const *args, const WsLaunchOptions *options,
                                         GCancellable *cancellable, GError **error);
/* Runs like ws_launch_run with the trace (when @trace_path is not NULL;
 * options->trace is ignored) written to a temporary name beside
 * @trace_path and moved over it only when the runtime finished it
 * (summary "trace_written"), the program was not killed by a signal and
 * options->abandon was not set; otherwise the temporary file is removed and
 * an existing @trace_path is left as it was (result->trace_kept says
 * which).  Both `warpscope-cli profile` and the GUI's Profiles page
 * profile through this. */
WS_EXPORT WsLaunchResult *ws_launch_profile (const char *program, const char *const *args,
                                             const WsLaunchOptions *options, const char *trace_path,
                                             GCancellable *cancellable, GError **error);

/* nvcc: $NVCC, else the one found at configure time, else in PATH, else
 * /usr/local/cuda/bin/nvcc; NULL when there is none (newly allocated). */
WS_EXPORT char *ws_launch_find_nvcc (void);

/* Building a CUDA program so that it can be profiled (`warpscope-cli build`
 * and the GUI's Profiles page for a .cu file): nvcc with
 *   -cudart shared   so the program loads libcudart.so.13 dynamically and
 *                    Warpscope's runtime can take its place;
 *   PTX embedded     -gencode arch=compute_80,code=[compute_80,sm_80]
 *                    unless @args choose an architecture (the emulator
 *                    runs PTX). */
typedef struct {
  const char *const *args; /* nvcc arguments: the .cu source(s) and options (NULL-terminated) */
  const char *output;      /* -o; NULL: the first .cu source's name without .cu, in the current folder */
  gboolean capture;        /* as WsLaunchOptions.capture: TRUE keeps nvcc's stderr for the error message */
  gboolean verbose;        /* print the nvcc command line to stderr before running it */
} WsBuildOptions;

/* Builds as above; returns the program's path (newly allocated).  Errors:
 * no .cu source or a -cudart other than shared (WS_ERROR_INVALID), the
 * source missing (WS_ERROR_NOT_FOUND), nvcc missing or failed
 * (WS_ERROR_FAILED; *@nvcc_status, when not NULL, gets its exit status when
 * it ran; with capture the message ends with nvcc's last error line), the
 * program holds no PTX
 * (WS_ERROR_UNSUPPORTED), @cancellable cancelled (G_IO_ERROR_CANCELLED:
 * nvcc is killed). */
WS_EXPORT char *ws_launch_build (const WsBuildOptions *options, int *nvcc_status, GCancellable *cancellable,
                                 GError **error);

/* "program arg1 'arg 2'": a command line for messages (newly allocated). */
WS_EXPORT char *ws_launch_command_line (const char *program, const char *const *args);

G_END_DECLS
