/* ws-instrument.h: SASSI-style instrumentation of the PTX emulator (seed 003
 * §3, Fig. 2): the host side of the handler SDK (ws-instrument-sdk.h).
 *
 * CONTRACT between core/instrument (owner), the emulator (core/emu, which
 * calls the hooks), the runtime (core/cudart, which attaches tools from the
 * environment) and the CLI.
 *
 * A WsInstrument holds handlers: WsInstrHandler descriptors of the public
 * SDK, either built in ("branch", "memdiv", "value", "faults-profile",
 * "faults-inject": written on the SDK alone, ws-instr-*.c) or loaded from a
 * shared object ("./myhandler.so:ARGS").  Every one is called the same way,
 * through the SDK's structures: the emulator fills a WsInstrSite per warp
 * instruction and the dispatcher passes it to the handlers whose where
 * masks and filters select it.
 *
 * Threads: see ws-instrument-sdk.h (one CTA on one thread from cta_begin to
 * cta_end; launch_begin/launch_end on the launching thread while no CTA
 * runs). */
#pragma once

#include "base/ws-base.h"
#include <json-glib/json-glib.h>
#include "trace/ws-trace-writer.h"
#include "instrument/ws-instrument-sdk.h"

G_BEGIN_DECLS

#define WS_INSTR_WARP WS_INSTR_SDK_WARP

/* Class bits of a static instruction (the SDK's WsInstrSdkWhere). */
enum {
  WS_INSTR_AT_ALL = WS_INSTR_SDK_AT_ALL,
  WS_INSTR_AT_MEMORY = WS_INSTR_SDK_AT_MEMORY,
  WS_INSTR_AT_COND_BRANCH = WS_INSTR_SDK_AT_COND_BRANCH,
  WS_INSTR_AT_REG_WRITE = WS_INSTR_SDK_AT_REG_WRITE,
  WS_INSTR_AT_CALL = WS_INSTR_SDK_AT_CALL,
  WS_INSTR_AT_BLOCK = WS_INSTR_SDK_AT_BLOCK,
  WS_INSTR_AT_CONTROL = WS_INSTR_SDK_AT_CONTROL,
};

typedef struct _WsInstrument WsInstrument;

WS_EXPORT WsInstrument *ws_instrument_new (void);
WS_EXPORT void ws_instrument_free (WsInstrument *ins);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsInstrument, ws_instrument_free)

/* Attaches a handler: checks its ABI, API and size, validates its name and
 * calls its init with @args (NULL: "").  @origin names it in messages (the
 * library's path, or "built-in").  WS_ERROR_INVALID when it is refused. */
WS_EXPORT gboolean ws_instrument_add_handler (WsInstrument *ins, const WsInstrHandler *handler, const char *args,
                                              const char *origin, GError **error);
/* Loads a handler library "PATH[:ARGS]" (dlopen with G_MODULE_BIND_LOCAL,
 * then ws_instr_handler_query) and attaches it.  ARGS starts after the first
 * ':' that follows ".so", or after the first ':' when PATH has no ".so". */
WS_EXPORT gboolean ws_instrument_load (WsInstrument *ins, const char *spec, GError **error);
/* A built-in tool by name, or a handler library when @spec contains '/'. */
WS_EXPORT gboolean ws_instrument_add_tool (WsInstrument *ins, const char *spec, GError **error);
/* A list of tools as WS_TOOLS holds it: separated by newlines when there
 * is one (handler arguments may then contain commas), else by commas. */
WS_EXPORT gboolean ws_instrument_add_tools (WsInstrument *ins, const char *list, GError **error);
/* Loads a handler library (without running its init) to check it and
 * read its name: what the CLI does before it starts a program. */
WS_EXPORT char *ws_instrument_probe_library (const char *spec, GError **error);
/* Splits "PATH[:ARGS]"; @args may be NULL. */
WS_EXPORT char *ws_instrument_spec_split (const char *spec, char **args);
WS_EXPORT gboolean ws_instrument_spec_is_library (const char *spec);

WS_EXPORT guint ws_instrument_n_tools (WsInstrument *ins);
WS_EXPORT const char *ws_instrument_tool_name (WsInstrument *ins, guint i);
/* The handler's result (calls its result callback); NULL when it gave none. */
WS_EXPORT JsonNode *ws_instrument_tool_result (WsInstrument *ins, guint i);
/* Sets where files of the handlers go (host->output_prefix). */
WS_EXPORT void ws_instrument_set_output_prefix (WsInstrument *ins, const char *prefix);

/* Built-in tools by name: "branch", "memdiv", "value", "faults-profile"
 * (the injection space), "faults-inject" (needs WS_FAULT_SITE, see
 * ws-instr-faults.c).  Unknown name: WS_ERROR_NOT_FOUND. */
WS_EXPORT gboolean ws_instrument_add_builtin (WsInstrument *ins, const char *name, GError **error);
WS_EXPORT const char *const *ws_instrument_builtin_names (void);
/* Writes every tool's result to PREFIX.NAME.json. */
WS_EXPORT gboolean ws_instrument_write_results (WsInstrument *ins, const char *prefix, GError **error);

/* Keeps a tool result in the store (table tool_result, migrations 005 and
 * 007): @db from ws_store_get_db; @tool: the built-in tool's or the
 * handler's name; @handler: for a handler library, the library as loaded
 * (absolute PATH[:ARGS]), NULL for a built-in tool; @args: the program's
 * arguments (NULL-terminated or NULL); @trace may be NULL. */
struct sqlite3;
WS_EXPORT gboolean ws_instrument_store_result (struct sqlite3 *db, const char *tool, const char *handler,
                                               const char *program, const char *const *args, const char *trace,
                                               JsonNode *result, GError **error);

/* A fault-injection site: the @index-th thread-level execution of a
 * register-writing instruction (counted in execution order, lanes in
 * ascending order) in CTA @cta of launch @launch; @reg_pick and @bit_pick
 * choose the destination and the bit (modulo their counts). */
typedef struct {
  uint64_t launch, cta, index;
  uint32_t reg_pick, bit_pick;
} WsFaultSite;

WS_EXPORT gboolean ws_fault_site_parse (const char *text, WsFaultSite *site, GError **error);
WS_EXPORT char *ws_fault_site_to_string (const WsFaultSite *site);
/* The injector for @site (also reachable as builtin "faults-inject" with WS_FAULT_SITE). */
WS_EXPORT void ws_instrument_add_fault_injector (WsInstrument *ins, const WsFaultSite *site);

/* Picks @n sites uniformly over the thread-level register-writing
 * executions of a "faults-profile" result (seed 003 §8), with a
 * gsl_rng_mt19937 seeded with @seed: the same profile and seed give the
 * same sites.  An empty injection space is WS_ERROR_INVALID. */
WS_EXPORT WsFaultSite *ws_fault_pick_sites (JsonNode *profile, guint n, guint64 seed, guint64 *space, GError **error);

/* ---- emulator side (called by core/emu) ------------------------------------- */

typedef struct _WsInstrRun WsInstrRun;       /* one launch */
typedef struct _WsInstrCtaRun WsInstrCtaRun; /* one CTA on one thread */

/* (@flags: per static id WsInstrSdkWhere class bits; the run takes ownership) */
WS_EXPORT WsInstrRun *ws_instrument_launch_begin (WsInstrument *ins, const char *kernel, const uint32_t grid[3],
                                                  const uint32_t block[3], guint n_insts,
                                                  const WsTraceStaticInst *insts, uint8_t *flags);
WS_EXPORT void ws_instrument_launch_end (WsInstrRun *run, gboolean ok);
WS_EXPORT WsInstrCtaRun *ws_instrument_cta_begin (WsInstrRun *run, uint64_t cta);
WS_EXPORT void ws_instrument_cta_end (WsInstrCtaRun *cr);
WS_EXPORT const WsInstrLaunchInfo *ws_instrument_run_launch (WsInstrRun *run);
WS_EXPORT const uint8_t *ws_instrument_run_flags (WsInstrRun *run);
WS_EXPORT const WsTraceStaticInst *ws_instrument_run_insts (WsInstrRun *run);
/* PTX mnemonic of static instruction @id (a static string). */
WS_EXPORT const char *ws_instrument_run_opcode (WsInstrRun *run, uint32_t id);
/* Union of the handlers' before masks / after masks (what the emulator
 * has to report). */
WS_EXPORT guint ws_instrument_run_where (WsInstrRun *run);
WS_EXPORT guint ws_instrument_run_after (WsInstrRun *run);
/* Dispatches to the handlers whose masks and filters select the site. */
WS_EXPORT void ws_instrument_before (WsInstrCtaRun *cr, const WsInstrSite *site);
WS_EXPORT void ws_instrument_after (WsInstrCtaRun *cr, WsInstrSite *site);

G_END_DECLS
