/* ws-instrument.c: the tool list and the dispatch of the emulator's hooks. */
#define G_LOG_DOMAIN "ws-instrument"

#include "instrument/ws-instrument.h"
#include "instrument/ws-instrument-private.h"

#include <string.h>
#include <sqlite3.h>

typedef struct {
  WsInstrTool vt;
  gpointer data;
} Tool;

struct _WsInstrument {
  GArray *tools;          /* Tool */
  uint64_t launches;
};

struct _WsInstrRun {
  WsInstrument *ins;
  WsInstrLaunch launch;
  guint where;
  gboolean after;
};

struct _WsInstrCtaRun {
  WsInstrRun *run;
  gpointer data[];        /* per tool */
};

WsInstrument *
ws_instrument_new (void)
{
  WsInstrument *ins = g_new0 (WsInstrument, 1);
  ins->tools = g_array_new (FALSE, TRUE, sizeof (Tool));
  return ins;
}

void
ws_instrument_free (WsInstrument *ins)
{
  if (ins == NULL)
    return;
  for (guint i = 0; i < ins->tools->len; i++)
    {
      Tool *t = &g_array_index (ins->tools, Tool, i);
      if (t->vt.free)
        t->vt.free (t->data);
    }
  g_array_free (ins->tools, TRUE);
  g_free (ins);
}

void
ws_instrument_add (WsInstrument *ins, const WsInstrTool *vtable, gpointer tool_data)
{
  Tool t = { *vtable, tool_data };
  g_array_append_val (ins->tools, t);
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
  return g_array_index (ins->tools, Tool, i).vt.name;
}

JsonNode *
ws_instrument_tool_result (WsInstrument *ins, guint i)
{
  g_return_val_if_fail (i < ins->tools->len, NULL);
  Tool *t = &g_array_index (ins->tools, Tool, i);
  return t->vt.result ? t->vt.result (t->data) : NULL;
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
    ws_instr_add_branch (ins);
  else if (strcmp (name, "memdiv") == 0)
    ws_instr_add_memdiv (ins);
  else if (strcmp (name, "value") == 0)
    ws_instr_add_value (ins);
  else if (strcmp (name, "faults-profile") == 0)
    ws_instr_add_faults_profile (ins);
  else if (strcmp (name, "faults-inject") == 0)
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
      ws_instrument_add_fault_injector (ins, &site);
    }
  else
    {
      g_set_error (error, WS_ERROR, WS_ERROR_NOT_FOUND,
                   "unknown instrumentation tool '%s' (known: branch, memdiv, value, faults-profile, faults-inject)",
                   name);
      return FALSE;
    }
  return TRUE;
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
  run->ins = ins;
  run->launch.kernel = kernel;
  run->launch.index = ins->launches++;
  memcpy (run->launch.grid, grid, sizeof run->launch.grid);
  memcpy (run->launch.block, block, sizeof run->launch.block);
  run->launch.n_ctas = (uint64_t) grid[0] * grid[1] * grid[2];
  run->launch.n_insts = n_insts;
  run->launch.insts = insts;
  run->launch.flags = flags;
  for (guint i = 0; i < ins->tools->len; i++)
    {
      Tool *t = &g_array_index (ins->tools, Tool, i);
      run->where |= t->vt.where;
      if (t->vt.after_reg_writes && t->vt.after)
        run->after = TRUE;
      if (t->vt.launch_begin)
        t->vt.launch_begin (t->data, &run->launch);
    }
  return run;
}

void
ws_instrument_launch_end (WsInstrRun *run, gboolean ok)
{
  WsInstrument *ins = run->ins;
  for (guint i = 0; i < ins->tools->len; i++)
    {
      Tool *t = &g_array_index (ins->tools, Tool, i);
      if (t->vt.launch_end)
        t->vt.launch_end (t->data, &run->launch, ok);
    }
  g_free ((gpointer) run->launch.flags);
  g_free (run);
}

const WsInstrLaunch *
ws_instrument_run_launch (WsInstrRun *run)
{
  return &run->launch;
}

guint
ws_instrument_run_where (WsInstrRun *run)
{
  return run->where;
}

gboolean
ws_instrument_run_wants_after (WsInstrRun *run)
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
      Tool *t = &g_array_index (ins->tools, Tool, i);
      cr->data[i] = t->vt.cta_begin ? t->vt.cta_begin (t->data, &run->launch, cta) : NULL;
    }
  return cr;
}

void
ws_instrument_cta_end (WsInstrCtaRun *cr)
{
  WsInstrument *ins = cr->run->ins;
  for (guint i = 0; i < ins->tools->len; i++)
    {
      Tool *t = &g_array_index (ins->tools, Tool, i);
      if (t->vt.cta_end)
        t->vt.cta_end (t->data, &cr->run->launch, cr->data[i]);
    }
  g_free (cr);
}

void
ws_instrument_before (WsInstrCtaRun *cr, const WsInstrInst *inst)
{
  WsInstrument *ins = cr->run->ins;
  for (guint i = 0; i < ins->tools->len; i++)
    {
      Tool *t = &g_array_index (ins->tools, Tool, i);
      if (t->vt.before && ((t->vt.where & WS_INSTR_AT_ALL) || (t->vt.where & inst->flags)))
        t->vt.before (t->data, cr->data[i], inst);
    }
}

void
ws_instrument_after (WsInstrCtaRun *cr, WsInstrInst *inst)
{
  WsInstrument *ins = cr->run->ins;
  for (guint i = 0; i < ins->tools->len; i++)
    {
      Tool *t = &g_array_index (ins->tools, Tool, i);
      if (t->vt.after && t->vt.after_reg_writes)
        t->vt.after (t->data, cr->data[i], inst);
    }
}

/* ---- store ------------------------------------------------------------------------ */

gboolean
ws_instrument_store_result (struct sqlite3 *db, const char *tool, const char *program, const char *const *args,
                            const char *trace, JsonNode *result, GError **error)
{
  g_autoptr (JsonBuilder) ab = json_builder_new ();
  json_builder_begin_array (ab);
  for (guint i = 0; args != NULL && args[i] != NULL; i++)
    json_builder_add_string_value (ab, args[i]);
  json_builder_end_array (ab);
  g_autoptr (JsonNode) an = json_builder_get_root (ab);
  g_autofree char *args_text = json_to_string (an, FALSE);
  g_autofree char *result_text = json_to_string (result, FALSE);
  sqlite3_stmt *st = NULL;
  int rc = sqlite3_prepare_v2 (db, "INSERT INTO tool_result (tool, program, args, trace, result) VALUES (?, ?, ?, ?, ?)",
                               -1, &st, NULL);
  if (rc == SQLITE_OK)
    {
      sqlite3_bind_text (st, 1, tool, -1, SQLITE_TRANSIENT);
      sqlite3_bind_text (st, 2, program, -1, SQLITE_TRANSIENT);
      sqlite3_bind_text (st, 3, args_text, -1, SQLITE_TRANSIENT);
      if (trace != NULL)
        sqlite3_bind_text (st, 4, trace, -1, SQLITE_TRANSIENT);
      else
        sqlite3_bind_null (st, 4);
      sqlite3_bind_text (st, 5, result_text, -1, SQLITE_TRANSIENT);
      rc = sqlite3_step (st);
      if (rc == SQLITE_DONE)
        rc = SQLITE_OK;
    }
  sqlite3_finalize (st);
  if (rc != SQLITE_OK)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_IO, "storing the %s result of %s: %s (is the store older than "
                   "migration 005?)", tool, program, sqlite3_errmsg (db));
      return FALSE;
    }
  return TRUE;
}
