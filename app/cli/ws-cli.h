/* ws-cli.h: shared state and helpers of warpscope-cli's subcommands.
 *
 * Exit codes: 0 success, 1 failure, 2 bad usage or unknown name.
 * Machine-readable output goes to stdout only with --json; messages to stderr. */
#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>
#include "store/ws-store.h"
#include "trace/ws-trace.h"

G_BEGIN_DECLS

/* 3: a command that needs a real GPU (measure, calibrate) found none. */
/* WS_EXIT_KERNEL_FAULT: `profile` when the program exited 0 but a kernel
 * faulted (or the watchdog ended it) under the emulator (docs/profiling.md). */
enum { WS_EXIT_OK = 0, WS_EXIT_FAILURE = 1, WS_EXIT_USAGE = 2, WS_EXIT_NO_GPU = 3, WS_EXIT_KERNEL_FAULT = 4 };

typedef struct {
  char *db_path;       /* --db PATH, or NULL for the default */
  gboolean json;       /* --json */
  gboolean quiet;      /* --quiet */
  WsStore *store;      /* opened lazily by ws_cli_store() */
  const char *command; /* the subcommand being run */
} WsCli;

typedef int (*WsCliFunc) (WsCli *cli, int argc, char **argv);

typedef struct {
  const char *name;    /* "hw", "occupancy", ... */
  const char *summary; /* one line, untranslated key; printed through gettext */
  WsCliFunc func;      /* argv[0] is the subcommand name */
} WsCliCommand;

/* The table of subcommands (ws-cli-commands.c), NULL-name terminated. */
extern const WsCliCommand ws_cli_commands[];

/* Opens the store on first use; on failure prints the error and returns NULL. */
WsStore *ws_cli_store (WsCli *cli);

/* Prints a JSON node (pretty) to stdout followed by a newline. */
void ws_cli_print_json (WsCli *cli, JsonNode *node);

/* Prints "warpscope-cli CMD: message" to stderr; returns @code. */
int ws_cli_fail (WsCli *cli, int code, const char *fmt, ...) G_GNUC_PRINTF (3, 4);
/* Prints an error (from GError) and maps it to an exit code
 * (WS_ERROR_NOT_FOUND / WS_ERROR_INVALID on user input -> 2, else 1). */
int ws_cli_fail_error (WsCli *cli, const GError *error);
/* Informational message to stderr unless --quiet. */
void ws_cli_info (WsCli *cli, const char *fmt, ...) G_GNUC_PRINTF (2, 3);

/* Looks a GPU up in the catalogue; unknown name -> message with suggestions,
 * *exit_code = 2, NULL. */
WsGpu *ws_cli_lookup_gpu (WsCli *cli, const char *name, int *exit_code);
/* Opens a trace; failure -> the reader's message, *exit_code = 1, NULL. */
WsTrace *ws_cli_open_trace (WsCli *cli, const char *path, int *exit_code);
/* Warns on stderr about each incomplete launch of @trace (faulted or stopped
 * while profiled); returns how many.  ws_cli_open_trace calls it. */
guint ws_cli_warn_incomplete (WsCli *cli, const WsTrace *trace, const char *path);

/* Parses argv with GOptionEntries (after the subcommand); on error prints a
 * usage message and returns FALSE. */
gboolean ws_cli_parse_options (WsCli *cli, int *argc, char ***argv, const GOptionEntry *entries,
                               const char *parameter_string, const char *description);

/* Predictor plugins (ws-cli-predict.c): --in-process / --plugin-timeout
 * (through the loader's environment: call before any plugin is loaded);
 * --option PLUGIN.KEY=VALUE values split per plugin and checked against the
 * @plugins (of WsPredictorPlugin*) the command runs (plugin name ->
 * GHashTable key -> value), NULL with *rc on a usage error. */
void ws_cli_plugin_isolation (gboolean in_process, double timeout);
GHashTable *ws_cli_plugin_options (WsCli *cli, char **list, GPtrArray *plugins, const char *default_plugin, int *rc);

G_END_DECLS
