/* ws-instrument.c: the host side of the handler SDK: attaching built-in and
 * loaded handlers (ABI checks), the host function table, and the dispatch
 * of the emulator's hooks to the handlers. */
#define G_LOG_DOMAIN "ws-instrument"

#include "instrument/ws-instrument.h"
#include "instrument/ws-instrument-private.h"

#include <gmodule.h>
#include <string.h>
#include <sqlite3.h>

/* The SDK publishes the host's enum values: keep them equal. */
G_STATIC_ASSERT (WS_INSTR_SDK_SPACE_GLOBAL == (int) WS_SPACE_GLOBAL);
G_STATIC_ASSERT (WS_INSTR_SDK_SPACE_SHARED == (int) WS_SPACE_SHARED);
G_STATIC_ASSERT (WS_INSTR_SDK_SPACE_LOCAL == (int) WS_SPACE_LOCAL);
G_STATIC_ASSERT (WS_INSTR_SDK_SPACE_PARAM == (int) WS_SPACE_PARAM);
G_STATIC_ASSERT (WS_INSTR_SDK_SPACE_FUNC_PARAM == (int) WS_SPACE_FUNC_PARAM);
G_STATIC_ASSERT (WS_INSTR_SDK_SPACE_TEX == (int) WS_SPACE_TEX);
G_STATIC_ASSERT (WS_INSTR_SDK_CLASS_ALU == (int) WS_OPCLASS_ALU);
G_STATIC_ASSERT (WS_INSTR_SDK_CLASS_LD == (int) WS_OPCLASS_LD);
G_STATIC_ASSERT (WS_INSTR_SDK_CLASS_BRANCH == (int) WS_OPCLASS_BRANCH);
G_STATIC_ASSERT (WS_INSTR_SDK_CLASS_OTHER == (int) WS_OPCLASS_OTHER);
G_STATIC_ASSERT (WS_INSTR_SDK_CLASS_TENSOR == (int) WS_OPCLASS_TENSOR);
G_STATIC_ASSERT (WS_OP_COUNT <= 256);
G_STATIC_ASSERT (WS_INSTR_SDK_SPACE_GENERIC == (int) WS_SPACE_GENERIC);

/* The smallest descriptor the host accepts: everything of API 1. */
#define HANDLER_API1_SIZE (offsetof (WsInstrHandler, teardown) + sizeof (void (*) (void *)))

struct WsInstrHostContext {
  WsInstrument *ins;
  char *name, *origin;
  guint before, after; /* where masks (descriptor, or select()) */
  gboolean op_filter;
  uint8_t op_ok[256]; /* by WsPtxOp, when op_filter */
  uint32_t line_first, line_last;
  char *result_json;
  char *output_prefix;
  gboolean in_init, failed;
  char *fail_message;
};

typedef struct {
  WsInstrHandler h; /* the descriptor, zero-extended to this host's size */
  void *state;
  WsInstrHostContext *ctx;
  GModule *module; /* NULL for built-in tools */
} Tool;

struct _WsInstrument {
  GPtrArray *tools; /* Tool* */
  uint64_t launches;
  char *output_prefix;
};

struct _WsInstrRun {
  WsInstrument *ins;
  WsInstrLaunchInfo launch;
  char *kernel;
  const WsTraceStaticInst *insts;
  uint8_t *flags;
  guint where, after;
};

struct _WsInstrCtaRun {
  WsInstrRun *run;
  void *data[]; /* per tool */
};

/* ---- the host function table ------------------------------------------------------ */

static void
host_fail (WsInstrHostContext *ctx, const char *message)
{
  ctx->failed = TRUE;
  if (ctx->fail_message == NULL)
    ctx->fail_message = g_strdup (message != NULL ? message : "(no message)");
  if (!ctx->in_init)
    g_printerr ("warpscope: instrumentation handler '%s' (%s) failed: %s\n", ctx->name, ctx->origin,
                message != NULL ? message : "(no message)");
}

static void
host_warn (WsInstrHostContext *ctx, const char *message)
{
  g_printerr ("warpscope: instrumentation handler '%s': %s\n", ctx->name, message != NULL ? message : "");
}

static void
host_select (WsInstrHostContext *ctx, uint32_t before, uint32_t after)
{
  ctx->before = before;
  ctx->after = after;
}

static int
host_filter_opcodes (WsInstrHostContext *ctx, const char *opcodes)
{
  g_auto (GStrv) names = g_strsplit (opcodes != NULL ? opcodes : "", ",", -1);
  uint8_t ok[256] = { 0 };
  for (guint i = 0; names[i] != NULL; i++)
    {
      const char *n = g_strstrip (names[i]);
      gboolean found = FALSE;
      if (*n == '\0')
        continue;
      for (guint op = 0; op < WS_OP_COUNT; op++)
        if (strcmp (ws_ptx_op_name ((WsPtxOp) op), n) == 0)
          {
            ok[op] = 1;
            found = TRUE;
          }
      if (!found)
        {
          g_autofree char *msg = g_strdup_printf ("filter_opcodes: '%s' is no PTX opcode (write mnemonics without "
                                                  "modifiers, comma-separated: \"ld,st,bra\")",
                                                  n);
          host_fail (ctx, msg);
          return -1;
        }
    }
  memcpy (ctx->op_ok, ok, sizeof ok);
  ctx->op_filter = TRUE;
  return 0;
}

static void
host_filter_ptx_lines (WsInstrHostContext *ctx, uint32_t first, uint32_t last)
{
  ctx->line_first = first;
  ctx->line_last = last;
}

static int
host_set_result_json (WsInstrHostContext *ctx, const char *json)
{
  g_autoptr (JsonParser) p = json_parser_new ();
  g_autoptr (GError) error = NULL;
  if (json == NULL || !json_parser_load_from_data (p, json, -1, &error) || json_parser_get_root (p) == NULL)
    {
      g_autofree char *msg = g_strdup_printf ("set_result_json: the result is no JSON (%s); it is not kept",
                                              error != NULL ? error->message : "empty");
      host_warn (ctx, msg);
      return -1;
    }
  g_free (ctx->result_json);
  ctx->result_json = g_strdup (json);
  return 0;
}

static const char *
host_output_prefix (WsInstrHostContext *ctx)
{
  const char *prefix = ctx->ins->output_prefix;
  if (prefix == NULL || *prefix == '\0')
    return NULL;
  if (ctx->output_prefix == NULL)
    ctx->output_prefix = g_strdup_printf ("%s.%s", prefix, ctx->name);
  return ctx->output_prefix;
}

static int
host_inst_static (WsInstrHostContext *ctx, const WsInstrLaunchInfo *launch, uint32_t id, WsInstrStaticInfo *info)
{
  /* The launch info is the first member of a WsInstrRun. */
  const WsInstrRun *run = (const WsInstrRun *) ((const char *) launch - offsetof (WsInstrRun, launch));
  WsInstrStaticInfo v = { 0 };
  (void) ctx;
  if (info == NULL || id >= run->launch.n_insts)
    return -1;
  const WsTraceStaticInst *si = &run->insts[id];
  v.size = sizeof v;
  v.id = id;
  v.ptx_line = si->ptx_line;
  v.source_line = si->src_line;
  v.opcode = ws_ptx_op_name ((WsPtxOp) si->op);
  v.opclass = si->opclass;
  v.flags = run->flags[id];
  v.mem_space = si->space;
  v.mem_width = si->access_size;
  memcpy (info, &v, MIN ((size_t) info->size, sizeof v));
  info->size = (uint32_t) MIN ((size_t) info->size, sizeof v);
  return 0;
}

static const WsInstrHost host_table = {
  .size = sizeof (WsInstrHost),
  .api_version = WS_INSTR_SDK_API_VERSION,
  .fail = host_fail,
  .warn = host_warn,
  .select = host_select,
  .filter_opcodes = host_filter_opcodes,
  .filter_ptx_lines = host_filter_ptx_lines,
  .set_result_json = host_set_result_json,
  .output_prefix = host_output_prefix,
  .inst_static = host_inst_static,
};

/* ---- tools ---------------------------------------------------------------------------- */

static void
tool_free (gpointer p)
{
  Tool *t = p;
  if (t->h.teardown != NULL && t->state != NULL)
    t->h.teardown (t->state);
  if (t->ctx != NULL)
    {
      g_free (t->ctx->name);
      g_free (t->ctx->origin);
      g_free (t->ctx->result_json);
      g_free (t->ctx->output_prefix);
      g_free (t->ctx->fail_message);
      g_free (t->ctx);
    }
  if (t->module != NULL)
    g_module_close (t->module);
  g_free (t);
}

WsInstrument *
ws_instrument_new (void)
{
  WsInstrument *ins = g_new0 (WsInstrument, 1);
  ins->tools = g_ptr_array_new_with_free_func (tool_free);
  ins->output_prefix = g_strdup (g_getenv ("WS_TOOL_OUTPUT"));
  return ins;
}

void
ws_instrument_free (WsInstrument *ins)
{
  if (ins == NULL)
    return;
  g_ptr_array_free (ins->tools, TRUE);
  g_free (ins->output_prefix);
  g_free (ins);
}

void
ws_instrument_set_output_prefix (WsInstrument *ins, const char *prefix)
{
  g_return_if_fail (ins != NULL);
  g_free (ins->output_prefix);
  ins->output_prefix = g_strdup (prefix);
}

static gboolean
valid_name (const char *name)
{
  if (name == NULL || *name == '\0' || strlen (name) > 64)
    return FALSE;
  for (const char *p = name; *p; p++)
    if (!g_ascii_isalnum (*p) && *p != '-' && *p != '_')
      return FALSE;
  return TRUE;
}

/* Checks a descriptor as the predictor host does: ABI first, then API and
 * size, then the name.  Fills @out with the descriptor zero-extended. */
static gboolean
check_descriptor (const WsInstrHandler *d, const char *origin, WsInstrHandler *out, GError **error)
{
  if (d->abi_version != WS_INSTR_SDK_ABI_VERSION)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID,
                   "instrumentation handler %s was built for instrumentation ABI %u, but this Warpscope has ABI %u: "
                   "please rebuild it against this Warpscope (cc ... $(pkg-config --cflags warpscope-instrument))",
                   origin, d->abi_version, (guint) WS_INSTR_SDK_ABI_VERSION);
      return FALSE;
    }
  if (d->api_version > WS_INSTR_SDK_API_VERSION)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID,
                   "instrumentation handler %s needs instrumentation API %u, newer than this Warpscope's %u: "
                   "update Warpscope, or rebuild the handler against this one",
                   origin, d->api_version, (guint) WS_INSTR_SDK_API_VERSION);
      return FALSE;
    }
  if (d->size < HANDLER_API1_SIZE)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID,
                   "instrumentation handler %s has a descriptor of %u bytes, smaller than API 1's %u: it was not "
                   "built with ws-instrument-sdk.h (set .size = sizeof (WsInstrHandler))",
                   origin, d->size, (guint) HANDLER_API1_SIZE);
      return FALSE;
    }
  if (!valid_name (d->name))
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID,
                   "instrumentation handler %s has the name '%s': a name is 1 to 64 letters, digits, '-' or '_' "
                   "(it names the result file PREFIX.NAME.json)",
                   origin, d->name != NULL ? d->name : "(null)");
      return FALSE;
    }
  memset (out, 0, sizeof *out);
  memcpy (out, d, MIN ((size_t) d->size, sizeof *out));
  return TRUE;
}

static gboolean
attach (WsInstrument *ins, const WsInstrHandler *d, const char *args, const char *origin, GModule *module,
        GError **error)
{
  Tool *t = g_new0 (Tool, 1);
  t->module = module;
  if (!check_descriptor (d, origin, &t->h, error))
    {
      tool_free (t);
      return FALSE;
    }
  for (guint i = 0; i < ins->tools->len; i++)
    if (strcmp (((Tool *) g_ptr_array_index (ins->tools, i))->h.name, t->h.name) == 0)
      {
        g_set_error (error, WS_ERROR, WS_ERROR_INVALID,
                     "instrumentation handler %s is named '%s' like a tool already attached: results would "
                     "overwrite each other; give each handler its own name",
                     origin, t->h.name);
        tool_free (t);
        return FALSE;
      }
  t->ctx = g_new0 (WsInstrHostContext, 1);
  t->ctx->ins = ins;
  t->ctx->name = g_strdup (t->h.name);
  t->ctx->origin = g_strdup (origin);
  t->ctx->before = t->h.before_where;
  t->ctx->after = t->h.after_where;
  t->ctx->line_last = G_MAXUINT32;
  if (t->h.init != NULL)
    {
      t->ctx->in_init = TRUE;
      t->state = t->h.init (&host_table, t->ctx, args != NULL ? args : "");
      t->ctx->in_init = FALSE;
      if (t->ctx->failed)
        {
          g_set_error (error, WS_ERROR, WS_ERROR_INVALID, "instrumentation handler '%s' (%s) refused to start%s%s: %s",
                       t->h.name, origin, args != NULL && *args ? " with arguments " : "", args != NULL ? args : "",
                       t->ctx->fail_message);
          t->h.teardown = NULL; /* init failed: nothing to tear down */
          tool_free (t);
          return FALSE;
        }
    }
  g_ptr_array_add (ins->tools, t);
  return TRUE;
}

gboolean
ws_instrument_add_handler (WsInstrument *ins, const WsInstrHandler *handler, const char *args, const char *origin,
                           GError **error)
{
  g_return_val_if_fail (ins != NULL, FALSE);
  g_return_val_if_fail (handler != NULL, FALSE);
  return attach (ins, handler, args, origin != NULL ? origin : "(built-in)", NULL, error);
}

gboolean
ws_instrument_spec_is_library (const char *spec)
{
  return spec != NULL && strchr (spec, '/') != NULL;
}

char *
ws_instrument_spec_split (const char *spec, char **args)
{
  const char *so = strstr (spec, ".so:");
  const char *colon = so != NULL ? so + 3 : (strstr (spec, ".so") == NULL ? strchr (spec, ':') : NULL);
  if (args != NULL)
    *args = colon != NULL ? g_strdup (colon + 1) : g_strdup ("");
  return colon != NULL ? g_strndup (spec, (gsize) (colon - spec)) : g_strdup (spec);
}

/* Opens a handler library and returns its descriptor (ABI unchecked). */
static const WsInstrHandler *
open_library (const char *path, GModule **module, GError **error)
{
  if (!g_file_test (path, G_FILE_TEST_IS_REGULAR))
    {
      g_set_error (error, WS_ERROR, WS_ERROR_NOT_FOUND,
                   "instrumentation handler library '%s' not found (give a path to a .so built with "
                   "`cc -shared -fPIC`; see docs/instrumentation.md)",
                   path);
      return NULL;
    }
  GModule *m = g_module_open (path, G_MODULE_BIND_LOCAL);
  if (m == NULL)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID,
                   "cannot load instrumentation handler %s: %s (is it a shared object for this machine, built "
                   "with -shared -fPIC, with its libraries found?)",
                   path, g_module_error ());
      return NULL;
    }
  gpointer sym = NULL;
  if (!g_module_symbol (m, WS_INSTR_SDK_QUERY_SYMBOL, &sym) || sym == NULL)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID,
                   "%s exports no %s(): it is no Warpscope instrumentation handler (define it with "
                   "WS_INSTR_SDK_EXPORT; see docs/instrumentation.md)",
                   path, WS_INSTR_SDK_QUERY_SYMBOL);
      g_module_close (m);
      return NULL;
    }
  const WsInstrHandler *d = ((WsInstrHandlerQuery) sym) ();
  if (d == NULL)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID, "%s: %s() returned no descriptor", path,
                   WS_INSTR_SDK_QUERY_SYMBOL);
      g_module_close (m);
      return NULL;
    }
  *module = m;
  return d;
}

gboolean
ws_instrument_load (WsInstrument *ins, const char *spec, GError **error)
{
  g_autofree char *args = NULL;
  g_autofree char *path = ws_instrument_spec_split (spec, &args);
  GModule *m = NULL;
  const WsInstrHandler *d = open_library (path, &m, error);
  if (d == NULL)
    return FALSE;
  return attach (ins, d, args, path, m, error); /* the tool owns @m, also on failure */
}

char *
ws_instrument_probe_library (const char *spec, GError **error)
{
  g_autofree char *path = ws_instrument_spec_split (spec, NULL);
  GModule *m = NULL;
  WsInstrHandler h;
  const WsInstrHandler *d = open_library (path, &m, error);
  if (d == NULL)
    return NULL;
  char *name = check_descriptor (d, path, &h, error) ? g_strdup (h.name) : NULL;
  g_module_close (m);
  return name;
}

gboolean
ws_instrument_add_tool (WsInstrument *ins, const char *spec, GError **error)
{
  if (ws_instrument_spec_is_library (spec))
    return ws_instrument_load (ins, spec, error);
  return ws_instrument_add_builtin (ins, spec, error);
}

gboolean
ws_instrument_add_tools (WsInstrument *ins, const char *list, GError **error)
{
  g_auto (GStrv) specs = g_strsplit (list, strchr (list, '\n') != NULL ? "\n" : ",", -1);
  for (guint i = 0; specs[i] != NULL; i++)
    if (*specs[i] && !ws_instrument_add_tool (ins, specs[i], error))
      return FALSE;
  return TRUE;
}

guint
ws_instrument_n_tools (WsInstrument *ins)
{
  return ins->tools->len;
}

const char *
ws_instrument_tool_name (WsInstrument *ins, guint i)
{
  g_return_val_if_fail (i < ins->tools->len, NULL);
  return ((Tool *) g_ptr_array_index (ins->tools, i))->h.name;
}

JsonNode *
ws_instrument_tool_result (WsInstrument *ins, guint i)
{
  g_return_val_if_fail (i < ins->tools->len, NULL);
  Tool *t = g_ptr_array_index (ins->tools, i);
  if (t->h.result != NULL)
    t->h.result (t->state);
  if (t->ctx->result_json == NULL)
    return NULL;
  g_autoptr (JsonParser) p = json_parser_new ();
  if (!json_parser_load_from_data (p, t->ctx->result_json, -1, NULL))
    return NULL;
  return json_node_copy (json_parser_get_root (p));
}

static const char *const builtin_names[] = { "branch", "memdiv", "value", "faults-profile", "faults-inject", NULL };

const char *const *
ws_instrument_builtin_names (void)
{
  return builtin_names;
}

gboolean
ws_instrument_add_builtin (WsInstrument *ins, const char *name, GError **error)
{
  if (strcmp (name, "branch") == 0)
    return ws_instrument_add_handler (ins, ws_instr_branch_handler (), NULL, "built-in", error);
  if (strcmp (name, "memdiv") == 0)
    return ws_instrument_add_handler (ins, ws_instr_memdiv_handler (), NULL, "built-in", error);
  if (strcmp (name, "value") == 0)
    return ws_instrument_add_handler (ins, ws_instr_value_handler (), NULL, "built-in", error);
  if (strcmp (name, "faults-profile") == 0)
    return ws_instrument_add_handler (ins, ws_instr_faults_profile_handler (), NULL, "built-in", error);
  if (strcmp (name, "faults-inject") == 0)
    {
      WsFaultSite site;
      const char *s = g_getenv ("WS_FAULT_SITE");
      if (s == NULL || !ws_fault_site_parse (s, &site, error))
        {
          if (s == NULL)
            g_set_error (error, WS_ERROR, WS_ERROR_INVALID,
                         "the faults-inject tool needs WS_FAULT_SITE=LAUNCH:CTA:INDEX:REG:BIT");
          return FALSE;
        }
      g_autofree char *text = ws_fault_site_to_string (&site);
      return ws_instrument_add_handler (ins, ws_instr_faults_inject_handler (), text, "built-in", error);
    }
  g_set_error (error, WS_ERROR, WS_ERROR_NOT_FOUND,
               "unknown instrumentation tool '%s' (known: branch, memdiv, value, faults-profile, faults-inject; "
               "a handler library is given by its path, e.g. ./myhandler.so)",
               name);
  return FALSE;
}

void
ws_instrument_add_fault_injector (WsInstrument *ins, const WsFaultSite *site)
{
  g_autofree char *text = ws_fault_site_to_string (site);
  g_autoptr (GError) error = NULL;
  if (!ws_instrument_add_handler (ins, ws_instr_faults_inject_handler (), text, "built-in", &error))
    g_critical ("faults-inject: %s", error->message);
}

gboolean
ws_instrument_write_results (WsInstrument *ins, const char *prefix, GError **error)
{
  for (guint i = 0; i < ins->tools->len; i++)
    {
      g_autoptr (JsonNode) node = ws_instrument_tool_result (ins, i);
      if (node == NULL)
        continue;
      g_autoptr (JsonGenerator) gen = json_generator_new ();
      json_generator_set_root (gen, node);
      json_generator_set_pretty (gen, TRUE);
      g_autofree char *text = json_generator_to_data (gen, NULL);
      g_autofree char *path = g_strdup_printf ("%s.%s.json", prefix, ws_instrument_tool_name (ins, i));
      g_autofree char *with_nl = g_strconcat (text, "\n", NULL);
      if (!g_file_set_contents (path, with_nl, -1, error))
        return FALSE;
    }
  return TRUE;
}

/* ---- dispatch ------------------------------------------------------------------ */

WsInstrRun *
ws_instrument_launch_begin (WsInstrument *ins, const char *kernel, const uint32_t grid[3], const uint32_t block[3],
                            guint n_insts, const WsTraceStaticInst *insts, uint8_t *flags)
{
  WsInstrRun *run = g_new0 (WsInstrRun, 1);
  WsInstrLaunchInfo *l = &run->launch;
  uint32_t threads = block[0] * block[1] * block[2];
  run->ins = ins;
  run->kernel = g_strdup (kernel);
  run->insts = insts;
  run->flags = flags;
  l->size = sizeof *l;
  l->n_insts = n_insts;
  l->index = ins->launches++;
  l->kernel = run->kernel;
  l->grid_x = grid[0], l->grid_y = grid[1], l->grid_z = grid[2];
  l->block_x = block[0], l->block_y = block[1], l->block_z = block[2];
  l->n_ctas = (uint64_t) grid[0] * grid[1] * grid[2];
  l->warps_per_cta = (threads + WS_INSTR_SDK_WARP - 1) / WS_INSTR_SDK_WARP;
  l->warp_size = WS_INSTR_SDK_WARP;
  for (guint i = 0; i < ins->tools->len; i++)
    {
      Tool *t = g_ptr_array_index (ins->tools, i);
      if (t->h.before != NULL)
        run->where |= t->ctx->before;
      if (t->h.after != NULL)
        run->after |= t->ctx->after;
      if (t->h.launch_begin)
        t->h.launch_begin (t->state, l);
    }
  return run;
}

void
ws_instrument_launch_end (WsInstrRun *run, gboolean ok)
{
  WsInstrument *ins = run->ins;
  for (guint i = 0; i < ins->tools->len; i++)
    {
      Tool *t = g_ptr_array_index (ins->tools, i);
      if (t->h.launch_end)
        t->h.launch_end (t->state, &run->launch, ok ? 1 : 0);
    }
  g_free (run->flags);
  g_free (run->kernel);
  g_free (run);
}

const WsInstrLaunchInfo *
ws_instrument_run_launch (WsInstrRun *run)
{
  return &run->launch;
}

const uint8_t *
ws_instrument_run_flags (WsInstrRun *run)
{
  return run->flags;
}

const WsTraceStaticInst *
ws_instrument_run_insts (WsInstrRun *run)
{
  return run->insts;
}

const char *
ws_instrument_run_opcode (WsInstrRun *run, uint32_t id)
{
  return ws_ptx_op_name ((WsPtxOp) run->insts[id].op);
}

guint
ws_instrument_run_where (WsInstrRun *run)
{
  return run->where;
}

guint
ws_instrument_run_after (WsInstrRun *run)
{
  return run->after;
}

WsInstrCtaRun *
ws_instrument_cta_begin (WsInstrRun *run, uint64_t cta)
{
  WsInstrument *ins = run->ins;
  WsInstrCtaRun *cr = g_malloc0 (sizeof (WsInstrCtaRun) + sizeof (gpointer) * ins->tools->len);
  cr->run = run;
  for (guint i = 0; i < ins->tools->len; i++)
    {
      Tool *t = g_ptr_array_index (ins->tools, i);
      cr->data[i] = t->h.cta_begin ? t->h.cta_begin (t->state, &run->launch, cta) : NULL;
    }
  return cr;
}

void
ws_instrument_cta_end (WsInstrCtaRun *cr)
{
  WsInstrument *ins = cr->run->ins;
  for (guint i = 0; i < ins->tools->len; i++)
    {
      Tool *t = g_ptr_array_index (ins->tools, i);
      if (t->h.cta_end)
        t->h.cta_end (t->state, &cr->run->launch, cr->data[i]);
    }
  g_free (cr);
}

/* The opcode and PTX-line filters of a handler. */
static inline gboolean
filtered_in (const WsInstrHostContext *ctx, const WsInstrRun *run, const WsInstrSite *s)
{
  if (ctx->op_filter && !ctx->op_ok[run->insts[s->id].op])
    return FALSE;
  return s->ptx_line >= ctx->line_first && s->ptx_line <= ctx->line_last;
}

void
ws_instrument_before (WsInstrCtaRun *cr, const WsInstrSite *site)
{
  GPtrArray *tools = cr->run->ins->tools;
  for (guint i = 0; i < tools->len; i++)
    {
      Tool *t = g_ptr_array_index (tools, i);
      guint w = t->ctx->before;
      if (t->h.before && ((w & WS_INSTR_AT_ALL) || (w & site->flags)) && filtered_in (t->ctx, cr->run, site))
        t->h.before (t->state, cr->data[i], site);
    }
}

void
ws_instrument_after (WsInstrCtaRun *cr, WsInstrSite *site)
{
  GPtrArray *tools = cr->run->ins->tools;
  for (guint i = 0; i < tools->len; i++)
    {
      Tool *t = g_ptr_array_index (tools, i);
      guint w = t->ctx->after;
      gboolean at = (w & WS_INSTR_AT_ALL) ? !(site->flags & WS_INSTR_AT_CONTROL) : (w & site->flags) != 0;
      if (t->h.after && at && filtered_in (t->ctx, cr->run, site))
        t->h.after (t->state, cr->data[i], site);
    }
}

/* ---- store ------------------------------------------------------------------------ */

gboolean
ws_instrument_store_result (struct sqlite3 *db, const char *tool, const char *handler, const char *program,
                            const char *const *args, const char *trace, JsonNode *result, GError **error)
{
  g_return_val_if_fail (db != NULL && tool != NULL && program != NULL && result != NULL, FALSE);
  g_autoptr (JsonBuilder) ab = json_builder_new ();
  json_builder_begin_array (ab);
  for (guint i = 0; args != NULL && args[i] != NULL; i++)
    json_builder_add_string_value (ab, args[i]);
  json_builder_end_array (ab);
  g_autoptr (JsonNode) an = json_builder_get_root (ab);
  g_autofree char *args_text = json_to_string (an, FALSE);
  g_autofree char *result_text = json_to_string (result, FALSE);
  sqlite3_stmt *st = NULL;
  int rc = sqlite3_prepare_v2 (db,
                               "INSERT INTO tool_result (tool, handler, program, args, trace, result) "
                               "VALUES (?, ?, ?, ?, ?, ?)",
                               -1, &st, NULL);
  if (rc == SQLITE_OK)
    {
      sqlite3_bind_text (st, 1, tool, -1, SQLITE_TRANSIENT);
      if (handler != NULL)
        sqlite3_bind_text (st, 2, handler, -1, SQLITE_TRANSIENT);
      else
        sqlite3_bind_null (st, 2);
      sqlite3_bind_text (st, 3, program, -1, SQLITE_TRANSIENT);
      sqlite3_bind_text (st, 4, args_text, -1, SQLITE_TRANSIENT);
      if (trace != NULL)
        sqlite3_bind_text (st, 5, trace, -1, SQLITE_TRANSIENT);
      else
        sqlite3_bind_null (st, 5);
      sqlite3_bind_text (st, 6, result_text, -1, SQLITE_TRANSIENT);
      rc = sqlite3_step (st);
      if (rc == SQLITE_DONE)
        rc = SQLITE_OK;
    }
  sqlite3_finalize (st);
  if (rc != SQLITE_OK)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_IO,
                   "storing the %s result of %s: %s (is the store older than "
                   "migration 007? open it with this Warpscope to upgrade it)",
                   tool, program, sqlite3_errmsg (db));
      return FALSE;
    }
  return TRUE;
}
