/* Instrumentation (seed 003): exact statistics on purpose-built kernels
 * (tests/instrument/cuda/instr_kernels.cu), tools giving identical results
 * in parallel and deterministic runs, and fault-injection campaigns
 * (tests/instrument/cuda/faultprog.cu, examples/saxpy2.cu).  Every
 * warpscope-cli run uses a temporary database.  Without nvcc the CUDA
 * programs are "-" and those cases are skipped. */
#include <string.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <sqlite3.h>

#include "instrument/ws-instrument.h"
#include "emu/ws-emu.h"
#include "store/ws-store.h"

static char *cli_path, *kernels_path, *faultprog_path, *saxpy2_path;
static char *tmp_dir, *db_path;

static gboolean
have (const char *path)
{
  if (path == NULL || strcmp (path, "-") == 0)
    {
      g_test_skip ("nvcc was not found at build time: no CUDA test program");
      return FALSE;
    }
  return TRUE;
}

/* Runs warpscope-cli with @args (NULL-terminated); returns stdout parsed as
 * JSON (asserting exit 0). */
static JsonNode *
run_cli_json (const char *const *args)
{
  g_autoptr (GPtrArray) av = g_ptr_array_new ();
  g_ptr_array_add (av, cli_path);
  g_ptr_array_add (av, "--db");
  g_ptr_array_add (av, db_path);
  g_ptr_array_add (av, "--json");
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (av, (gpointer) args[i]);
  g_ptr_array_add (av, NULL);
  g_autofree char *out = NULL, *err = NULL;
  int status = 0;
  g_autoptr (GError) error = NULL;
  g_assert_true (
    g_spawn_sync (tmp_dir, (char **) av->pdata, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, &err, &status, &error));
  g_assert_no_error (error);
  if (!g_spawn_check_wait_status (status, NULL))
    g_printerr ("%s", err);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  g_autoptr (JsonParser) p = json_parser_new ();
  g_assert_true (json_parser_load_from_data (p, out, -1, NULL));
  return json_node_copy (json_parser_get_root (p));
}

static JsonObject *
find_by_kernel (JsonArray *a, const char *kernel)
{
  for (guint i = 0; i < json_array_get_length (a); i++)
    {
      JsonObject *o = json_array_get_object_element (a, i);
      if (strstr (json_object_get_string_member (o, "kernel"), kernel) != NULL)
        return o;
    }
  g_assert_not_reached ();
  return NULL;
}

/* ---- API ---------------------------------------------------------------------------- */

static void
test_site_roundtrip (void)
{
  WsFaultSite s = { 2, 17, 123456789012ull, 4000000000u, 63 }, t;
  g_autofree char *text = ws_fault_site_to_string (&s);
  g_assert_cmpstr (text, ==, "2:17:123456789012:4000000000:63");
  g_assert_true (ws_fault_site_parse (text, &t, NULL));
  g_assert_cmpmem (&s, sizeof s, &t, sizeof t);
  g_autoptr (GError) error = NULL;
  g_assert_false (ws_fault_site_parse ("1:2:3", &t, &error));
  g_assert_error (error, WS_ERROR, WS_ERROR_INVALID);
}

static JsonNode *
profile_node (const char *json)
{
  g_autoptr (JsonParser) p = json_parser_new ();
  g_assert_true (json_parser_load_from_data (p, json, -1, NULL));
  return json_node_copy (json_parser_get_root (p));
}

static void
test_pick_sites (void)
{
  /* launch 0: CTAs with 3, 0, 5 events; launch 1: one CTA with 2 */
  g_autoptr (JsonNode) prof = profile_node ("{\"launches\":[{\"kernel\":\"a\",\"ctas\":[3,0,5]},"
                                            "{\"kernel\":\"b\",\"ctas\":[2]}],\"total\":10}");
  guint64 space = 0;
  g_autofree WsFaultSite *a = ws_fault_pick_sites (prof, 500, 7, &space, NULL);
  g_autofree WsFaultSite *b = ws_fault_pick_sites (prof, 500, 7, NULL, NULL);
  g_autofree WsFaultSite *c = ws_fault_pick_sites (prof, 500, 8, NULL, NULL);
  guint hits[10] = { 0 };
  g_assert_cmpuint (space, ==, 10);
  g_assert_cmpmem (a, 500 * sizeof (WsFaultSite), b, 500 * sizeof (WsFaultSite));
  g_assert_true (memcmp (a, c, 500 * sizeof (WsFaultSite)) != 0);
  for (guint i = 0; i < 500; i++)
    {
      if (a[i].launch == 0)
        {
          g_assert_cmpuint (a[i].cta, !=, 1); /* no events there */
          g_assert_cmpuint (a[i].index, <, a[i].cta == 0 ? 3 : 5);
          hits[a[i].cta == 0 ? a[i].index : 3 + a[i].index]++;
        }
      else
        {
          g_assert_cmpuint (a[i].launch, ==, 1);
          g_assert_cmpuint (a[i].cta, ==, 0);
          g_assert_cmpuint (a[i].index, <, 2);
          hits[8 + a[i].index]++;
        }
    }
  /* uniform over the 10 events: each about 50 of 500 */
  for (guint i = 0; i < 10; i++)
    g_assert_cmpuint (hits[i], >, 20);
  g_autoptr (JsonNode) empty = profile_node ("{\"launches\":[{\"kernel\":\"a\",\"ctas\":[0]}]}");
  g_autoptr (GError) error = NULL;
  g_assert_null (ws_fault_pick_sites (empty, 5, 1, NULL, &error));
  g_assert_error (error, WS_ERROR, WS_ERROR_INVALID);
}

static void
test_unknown_tool (void)
{
  g_autoptr (WsInstrument) ins = ws_instrument_new ();
  g_autoptr (GError) error = NULL;
  g_assert_true (ws_instrument_add_builtin (ins, "branch", NULL));
  g_assert_false (ws_instrument_add_builtin (ins, "brunch", &error));
  g_assert_error (error, WS_ERROR, WS_ERROR_NOT_FOUND);
  g_assert_cmpuint (ws_instrument_n_tools (ins), ==, 1);
  g_assert_cmpstr (ws_instrument_tool_name (ins, 0), ==, "branch");
}

/* ---- the C API on the emulator (no nvcc needed) ----------------------------------------- */

static const char api_ptx[] = ".version 7.0\n"
                              ".target sm_80\n"
                              ".address_size 64\n"
                              ".visible .entry k(.param .u64 out)\n"
                              "{\n"
                              "  .reg .pred %p<2>;\n"
                              "  .reg .b32 %r<6>;\n"
                              "  .reg .b64 %rd<4>;\n"
                              "  ld.param.u64 %rd1, [out];\n"
                              "  cvta.to.global.u64 %rd2, %rd1;\n"
                              "  mov.u32 %r1, %tid.x;\n"
                              "  mov.u32 %r5, %ctaid.x;\n"
                              "  shl.b32 %r5, %r5, 6;\n"
                              "  add.u32 %r1, %r1, %r5;\n"
                              "  and.b32 %r2, %r1, 3;\n"
                              "  setp.eq.u32 %p1, %r2, 0;\n"
                              "  mov.u32 %r3, 10;\n"
                              "  @%p1 bra DONE;\n"
                              "  mov.u32 %r3, 20;\n"
                              "DONE:\n"
                              "  add.u32 %r4, %r3, 1;\n"
                              "  mul.wide.u32 %rd3, %r1, 4;\n"
                              "  add.u64 %rd3, %rd2, %rd3;\n"
                              "  st.global.u32 [%rd3], %r4;\n"
                              "  ret;\n"
                              "}\n";

typedef struct {
  GMutex lock;
  uint32_t add_line, st_line;
  uint64_t out;
  guint64 before, blocks, branches, taken, stores, bad_addr, ctas_begun, ctas_ended, launches;
} ApiTool;

typedef struct {
  guint64 before, blocks, branches, taken, stores, bad_addr;
} ApiCta;

static ApiTool *api_state;

static void *
api_init (const WsInstrHost *host, WsInstrHostContext *ctx, const char *args)
{
  g_assert_cmpuint (host->size, ==, sizeof (WsInstrHost));
  g_assert_cmpstr (args, ==, "");
  return api_state;
}

static void
api_launch_begin (void *tool, const WsInstrLaunchInfo *l)
{
  ApiTool *t = tool;
  t->launches++;
  g_assert_cmpstr (l->kernel, ==, "k");
  g_assert_cmpuint (l->n_ctas, ==, 2);
}

static void *
api_cta_begin (void *tool, const WsInstrLaunchInfo *l, uint64_t cta)
{
  ApiTool *t = tool;
  g_mutex_lock (&t->lock);
  t->ctas_begun++;
  g_mutex_unlock (&t->lock);
  return g_new0 (ApiCta, 1);
}

static void
api_cta_end (void *tool, const WsInstrLaunchInfo *l, void *data)
{
  ApiTool *t = tool;
  ApiCta *c = data;
  g_mutex_lock (&t->lock);
  t->ctas_ended++;
  t->before += c->before;
  t->blocks += c->blocks;
  t->branches += c->branches;
  t->taken += c->taken;
  t->stores += c->stores;
  t->bad_addr += c->bad_addr;
  g_mutex_unlock (&t->lock);
  g_free (c);
}

static void
api_before (void *tool, void *data, const WsInstrSite *x)
{
  ApiTool *t = tool;
  ApiCta *c = data;
  c->before++;
  if (x->flags & WS_INSTR_AT_BLOCK)
    c->blocks++;
  if (x->flags & WS_INSTR_AT_COND_BRANCH)
    {
      c->branches++;
      c->taken += (guint64) __builtin_popcount (x->taken);
    }
  if ((x->flags & WS_INSTR_AT_MEMORY) && x->mem_kind == WS_INSTR_SDK_MEM_STORE)
    {
      g_assert_cmpuint (x->ptx_line, ==, t->st_line);
      g_assert_cmpuint (x->mem_space, ==, WS_INSTR_SDK_SPACE_GLOBAL);
      g_assert_cmpuint (x->mem_width, ==, 4);
      c->stores++;
      /* registers read: the address base, then the stored value (already
       * changed by the after-callback of `add.u32 %r4`) */
      g_assert_cmpuint (x->n_src, ==, 2);
      g_assert_cmpstr (x->opcode, ==, "st");
      for (int l = 0; l < 32; l++)
        if (x->will_execute >> l & 1)
          {
            uint64_t tid = x->cta * 64 + x->warp * 32 + (uint64_t) l;
            g_assert_cmpuint (x->src[0][l], ==, t->out + 4 * tid);
            g_assert_cmpuint ((uint32_t) x->src[1][l], ==, (tid % 4 == 0 ? 11u : 21u) + 100u);
          }
      for (int l = 0; l < 32; l++)
        if ((x->will_execute >> l & 1) && x->addr[l] != t->out + 4 * (x->cta * 64 + x->warp * 32 + (uint64_t) l))
          c->bad_addr++;
    }
}

static void
api_after (void *tool, void *data, WsInstrSite *x)
{
  ApiTool *t = tool;
  /* writable destinations: add 100 to every result of `add.u32 %r4` */
  if (x->ptx_line == t->add_line)
    {
      g_assert_cmpuint (x->n_dst, ==, 1);
      g_assert_cmpuint (x->dst_bits[0], ==, 32);
      for (int l = 0; l < 32; l++)
        if (x->will_execute >> l & 1)
          x->dst[0][l] += 100;
    }
}

static uint32_t
line_of (const char *text, const char *needle)
{
  const char *p = strstr (text, needle);
  uint32_t line = 1;
  g_assert_nonnull (p);
  for (const char *q = text; q < p; q++)
    line += *q == '\n';
  return line;
}

static void
run_api (gboolean deterministic, guint n_threads)
{
  g_autoptr (GError) error = NULL;
  WsDevMem *mem = ws_devmem_new (&error);
  g_assert_no_error (error);
  WsInstrument *ins = ws_instrument_new ();
  ApiTool *t = g_new0 (ApiTool, 1);
  static const WsInstrHandler vt = {
    .abi_version = WS_INSTR_SDK_ABI_VERSION,
    .size = sizeof (WsInstrHandler),
    .api_version = WS_INSTR_SDK_API_VERSION,
    .name = "api",
    .before_where = WS_INSTR_SDK_AT_ALL,
    .after_where = WS_INSTR_SDK_AT_REG_WRITE,
    .init = api_init,
    .launch_begin = api_launch_begin,
    .cta_begin = api_cta_begin,
    .cta_end = api_cta_end,
    .before = api_before,
    .after = api_after,
    .teardown = g_free,
  };
  g_mutex_init (&t->lock);
  t->add_line = line_of (api_ptx, "add.u32 %r4");
  t->st_line = line_of (api_ptx, "st.global");
  api_state = t;
  g_assert_true (ws_instrument_add_handler (ins, &vt, NULL, "test", &error));
  WsEmuOptions opt = { 0 };
  opt.mem = mem;
  opt.deterministic = deterministic;
  opt.n_threads = n_threads;
  opt.instrument = ins;
  WsEmu *emu = ws_emu_new (&opt, &error);
  g_assert_no_error (error);
  WsEmuModule *mod = ws_emu_load_ptx (emu, api_ptx, sizeof api_ptx - 1, "api.ptx", &error);
  g_assert_no_error (error);
  WsEmuFunction *fn = ws_emu_module_get_function (mod, "k");
  g_assert_nonnull (fn);
  t->out = ws_devmem_alloc (mem, 128 * 4, WS_ALLOC_DEVICE, NULL, &error);
  g_assert_no_error (error);
  void *args[] = { &t->out };
  WsLaunchConfig cfg = { { 2, 1, 1 }, { 64, 1, 1 }, 0 };
  WsLaunchStats stats;
  int cuda_error = -1;
  g_assert_true (ws_emu_launch (emu, fn, &cfg, args, &stats, &cuda_error, &error));
  g_assert_no_error (error);
  const uint32_t *out = ws_devmem_host_ptr (mem, t->out, 128 * 4, &error);
  g_assert_no_error (error);
  for (int i = 0; i < 128; i++)
    g_assert_cmpuint (out[i], ==, (i % 4 == 0 ? 11u : 21u) + 100u);
  g_assert_cmpuint (t->launches, ==, 1);
  g_assert_cmpuint (t->ctas_begun, ==, 2);
  g_assert_cmpuint (t->ctas_ended, ==, 2);
  /* before every instruction: the emulator's own warp-instruction count */
  g_assert_cmpuint (t->before, ==, stats.warp_instructions);
  g_assert_cmpuint (t->before, ==, 4 * 16);
  /* 4 warps x (entry, fall-through path, DONE) */
  g_assert_cmpuint (t->blocks, ==, 12);
  g_assert_cmpuint (t->branches, ==, 4);
  g_assert_cmpuint (t->taken, ==, 32);
  g_assert_cmpuint (t->stores, ==, 4);
  g_assert_cmpuint (t->bad_addr, ==, 0);
  ws_emu_free (emu);
  ws_instrument_free (ins);
  ws_devmem_free_all (mem);
}

static void
test_api_emulator (void)
{
  run_api (TRUE, 1);
  run_api (FALSE, 2);
}


/* ws_instrument_store_result keeps a handler's result under its own name
 * with the library it came from, and a built-in tool's with none. */
static void
test_store_handler_result (void)
{
  g_autofree char *path = g_build_filename (tmp_dir, "api-store.db", NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (WsStore) store = ws_store_open (path, &error);
  g_assert_no_error (error);
  g_autoptr (JsonParser) p = json_parser_new ();
  g_assert_true (
    json_parser_load_from_data (p, "{\"opcodes\":[{\"opcode\":\"st\",\"warp_instructions\":32}]}", -1, NULL));
  const char *args[] = { "1024", "16", NULL };
  g_assert_true (ws_instrument_store_result (ws_store_get_db (store), "opcode-histogram",
                                             "/opt/h/opcode-histogram.so:ops=st", "/bin/saxpy2", args, "/tmp/run.trace",
                                             json_parser_get_root (p), &error));
  g_assert_no_error (error);
  g_assert_true (ws_instrument_store_result (ws_store_get_db (store), "branch", NULL, "/bin/saxpy2", NULL, NULL,
                                             json_parser_get_root (p), &error));
  g_assert_no_error (error);
  sqlite3_stmt *st = NULL;
  g_assert_cmpint (sqlite3_prepare_v2 (ws_store_get_db (store),
                                       "SELECT tool, handler, program, args, trace, "
                                       "json_extract (result, '$.opcodes[0].warp_instructions') "
                                       "FROM tool_result ORDER BY id",
                                       -1, &st, NULL),
                   ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_step (st), ==, SQLITE_ROW);
  g_assert_cmpstr ((const char *) sqlite3_column_text (st, 0), ==, "opcode-histogram");
  g_assert_cmpstr ((const char *) sqlite3_column_text (st, 1), ==, "/opt/h/opcode-histogram.so:ops=st");
  g_assert_cmpstr ((const char *) sqlite3_column_text (st, 2), ==, "/bin/saxpy2");
  g_assert_cmpstr ((const char *) sqlite3_column_text (st, 3), ==, "[\"1024\",\"16\"]");
  g_assert_cmpstr ((const char *) sqlite3_column_text (st, 4), ==, "/tmp/run.trace");
  g_assert_cmpint (sqlite3_column_int (st, 5), ==, 32);
  g_assert_cmpint (sqlite3_step (st), ==, SQLITE_ROW);
  g_assert_cmpstr ((const char *) sqlite3_column_text (st, 0), ==, "branch");
  g_assert_cmpint (sqlite3_column_type (st, 1), ==, SQLITE_NULL);
  g_assert_cmpstr ((const char *) sqlite3_column_text (st, 3), ==, "[]");
  g_assert_cmpint (sqlite3_column_type (st, 4), ==, SQLITE_NULL);
  g_assert_cmpint (sqlite3_step (st), ==, SQLITE_DONE);
  sqlite3_finalize (st);
  g_clear_pointer (&store, ws_store_close);
  g_unlink (path);
}

/* ---- the SDK: an out-of-tree handler built with pkg-config ------------------------------ */

/* Builds @src (relative to the source tree) into @dir/@so with the
 * uninstalled warpscope-instrument.pc; returns the path or NULL (skipped). */
static char *
build_handler (const char *src_rel, const char *extra_cflags, const char *so)
{
  g_autofree char *pkg_config = g_find_program_in_path ("pkg-config");
  g_autofree char *cc = g_find_program_in_path ("cc");
  if (pkg_config == NULL || cc == NULL || g_getenv ("WS_PKG_CONFIG_PATH") == NULL)
    {
      g_test_skip ("pkg-config or cc missing");
      return NULL;
    }
  char *out = g_build_filename (tmp_dir, so, NULL);
  g_autofree char *src = g_build_filename (g_getenv ("WS_SOURCE_DIR"), src_rel, NULL);
  g_autofree char *cmd = g_strdup_printf ("cc -shared -fPIC -Wall -Wextra -Werror %s -o '%s' '%s' "
                                          "$(pkg-config --cflags warpscope-instrument) -lpthread",
                                          extra_cflags, out, src);
  const char *argv[] = { "sh", "-c", cmd, NULL };
  g_auto (GStrv) env = g_get_environ ();
  env = g_environ_setenv (env, "PKG_CONFIG_PATH", g_getenv ("WS_PKG_CONFIG_PATH"), TRUE);
  int status = 0;
  g_autofree char *err = NULL;
  g_autoptr (GError) error = NULL;
  g_assert_true (
    g_spawn_sync (NULL, (char **) argv, env, G_SPAWN_SEARCH_PATH, NULL, NULL, NULL, &err, &status, &error));
  if (!g_spawn_check_wait_status (status, NULL))
    g_error ("building %s failed: %s", src_rel, err);
  return out;
}

static guint64
opcode_count (JsonObject *result, const char *opcode, const char *member)
{
  JsonArray *a = json_object_get_array_member (result, "opcodes");
  for (guint i = 0; i < json_array_get_length (a); i++)
    {
      JsonObject *o = json_array_get_object_element (a, i);
      if (strcmp (json_object_get_string_member (o, "opcode"), opcode) == 0)
        return (guint64) json_object_get_int_member (o, member);
    }
  return 0;
}

/* docs/instrumentation.md's example: every warp instruction is counted once
 * (the emulator's own totals), saxpy2 stores once per thread, and an
 * opcode filter keeps exactly the opcodes asked for. */
static void
test_sdk_opcode_histogram (void)
{
  if (!have (saxpy2_path))
    return;
  g_autofree char *so = build_handler ("examples/instrument-handler/opcode-histogram.c", "", "opcode-histogram.so");
  if (so == NULL)
    return;
  g_autofree char *spec = g_strdup_printf ("%s", so);
  const char *args[] = { "tool", "run", spec, "--", saxpy2_path, "1024", "16", "256", NULL };
  g_autoptr (JsonNode) r = run_cli_json (args);
  JsonObject *o = json_node_get_object (r);
  /* profile's own counts for the same run */
  g_autofree char *trace = g_build_filename (tmp_dir, "hist.trace", NULL);
  g_autofree char *filtered = g_strdup_printf ("%s:ops=st,ld", so);
  g_autofree char *sum_path = g_build_filename (tmp_dir, "hist-summary.json", NULL);
  const char *pargs[] = { cli_path, "--db",   db_path, "profile",   "-o",   trace, "--summary", sum_path,
                          "--tool", filtered, "--",    saxpy2_path, "1024", "16",  "256",       NULL };
  int status = 0;
  g_assert_true (g_spawn_sync (tmp_dir, (char **) pargs, NULL, G_SPAWN_STDOUT_TO_DEV_NULL | G_SPAWN_STDERR_TO_DEV_NULL,
                               NULL, NULL, NULL, NULL, &status, NULL));
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  g_autoptr (JsonParser) sp = json_parser_new ();
  g_assert_true (json_parser_load_from_file (sp, sum_path, NULL));
  JsonObject *so_ = json_node_get_object (json_parser_get_root (sp));
  g_assert_cmpint (json_object_get_int_member (o, "warp_instructions"), ==,
                   json_object_get_int_member (so_, "warp_instructions"));
  g_assert_cmpint (json_object_get_int_member (o, "thread_instructions"), ==,
                   json_object_get_int_member (so_, "thread_instructions"));
  g_assert_cmpint (json_object_get_int_member (o, "warp_instructions"), ==, 2912);
  g_assert_cmpuint (opcode_count (o, "st", "thread_instructions"), ==, 1024);
  g_assert_cmpuint (opcode_count (o, "st", "warp_instructions"), ==, 32);
  g_assert_cmpuint (opcode_count (o, "ret", "warp_instructions"), ==, 32);
  /* the loop: `a` = 16 additions per thread, plus the index arithmetic */
  g_assert_cmpuint (opcode_count (o, "add", "thread_instructions"), >=, 16 * 1024);
  /* ops=st,ld (a comma inside the arguments): only those, same counts */
  g_autofree char *path = g_strdup_printf ("%s.opcode-histogram.json", trace);
  g_autoptr (JsonParser) p = json_parser_new ();
  g_assert_true (json_parser_load_from_file (p, path, NULL));
  JsonObject *f = json_node_get_object (json_parser_get_root (p));
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (f, "opcodes")), ==, 2);
  g_assert_cmpuint (opcode_count (f, "st", "thread_instructions"), ==, 1024);
  g_assert_cmpuint (opcode_count (f, "ld", "warp_instructions"), ==, opcode_count (o, "ld", "warp_instructions"));
  /* the handler's own file next to the result */
  g_autofree char *txt_path = g_strdup_printf ("%s.opcode-histogram.txt", trace);
  g_autofree char *txt = NULL;
  g_assert_true (g_file_get_contents (txt_path, &txt, NULL, NULL));
  g_assert_nonnull (strstr (txt, "st "));

  /* Both runs' results are in the store (migration 007), each with the
   * library and arguments it came from: read back, they are the results
   * printed and written above. */
  sqlite3 *db = NULL;
  sqlite3_stmt *st = NULL;
  g_assert_cmpint (sqlite3_open (db_path, &db), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_prepare_v2 (db,
                                       "SELECT handler, program, args, trace, result FROM tool_result "
                                       "WHERE tool = 'opcode-histogram' AND handler IN (?1, ?2) ORDER BY id",
                                       -1, &st, NULL),
                   ==, SQLITE_OK);
  sqlite3_bind_text (st, 1, so, -1, SQLITE_STATIC);
  sqlite3_bind_text (st, 2, filtered, -1, SQLITE_STATIC);
  /* tool run: no trace, the whole histogram */
  g_assert_cmpint (sqlite3_step (st), ==, SQLITE_ROW);
  g_assert_cmpstr ((const char *) sqlite3_column_text (st, 0), ==, so);
  g_assert_cmpstr ((const char *) sqlite3_column_text (st, 1), ==, saxpy2_path);
  g_assert_cmpstr ((const char *) sqlite3_column_text (st, 2), ==, "[\"1024\",\"16\",\"256\"]");
  g_assert_cmpint (sqlite3_column_type (st, 3), ==, SQLITE_NULL);
  g_autoptr (JsonParser) rp = json_parser_new ();
  g_assert_true (json_parser_load_from_data (rp, (const char *) sqlite3_column_text (st, 4), -1, NULL));
  JsonObject *stored = json_node_get_object (json_parser_get_root (rp));
  g_assert_cmpint (json_object_get_int_member (stored, "warp_instructions"), ==, 2912);
  g_assert_cmpuint (opcode_count (stored, "st", "thread_instructions"), ==, 1024);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (stored, "opcodes")), ==,
                    json_array_get_length (json_object_get_array_member (o, "opcodes")));
  /* profile --tool PATH:ops=st,ld -o TRACE: the filtered histogram, with its trace */
  g_assert_cmpint (sqlite3_step (st), ==, SQLITE_ROW);
  g_assert_cmpstr ((const char *) sqlite3_column_text (st, 0), ==, filtered);
  g_assert_cmpstr ((const char *) sqlite3_column_text (st, 3), ==, trace);
  g_autoptr (JsonParser) fp = json_parser_new ();
  g_assert_true (json_parser_load_from_data (fp, (const char *) sqlite3_column_text (st, 4), -1, NULL));
  JsonObject *fstored = json_node_get_object (json_parser_get_root (fp));
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (fstored, "opcodes")), ==, 2);
  g_assert_cmpuint (opcode_count (fstored, "st", "thread_instructions"), ==, 1024);
  g_assert_cmpuint (opcode_count (fstored, "ld", "warp_instructions"), ==, opcode_count (f, "ld", "warp_instructions"));
  g_assert_cmpint (sqlite3_step (st), ==, SQLITE_DONE);
  sqlite3_finalize (st);
  sqlite3_close (db);
}

/* A handler built for another ABI is refused before the program runs, with
 * a message that says to rebuild it; so is one without the query symbol
 * and an unknown opcode in a filter. */
static void
test_sdk_refuses_mismatch (void)
{
  g_autofree char *bad = build_handler ("tests/instrument/handlers/other-abi.c", "", "other-abi.so");
  if (bad == NULL)
    return;
  g_autoptr (WsInstrument) ins = ws_instrument_new ();
  g_autoptr (GError) error = NULL;
  g_assert_false (ws_instrument_load (ins, bad, &error));
  g_assert_error (error, WS_ERROR, WS_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, "ABI 99"));
  g_assert_nonnull (strstr (error->message, "please rebuild"));
  g_clear_error (&error);
  g_autofree char *name = ws_instrument_probe_library (bad, &error);
  g_assert_null (name);
  g_clear_error (&error);
  /* not a handler: a file that is no shared object */
  g_autofree char *junk = g_build_filename (tmp_dir, "junk.so", NULL);
  g_assert_true (g_file_set_contents (junk, "not an ELF file\n", -1, NULL));
  g_assert_false (ws_instrument_load (ins, junk, &error));
  g_assert_nonnull (strstr (error->message, "cannot load instrumentation handler"));
  g_clear_error (&error);
  g_autofree char *good = build_handler ("examples/instrument-handler/opcode-histogram.c", "", "good.so");
  g_autofree char *spec = g_strdup_printf ("%s:ops=ld,bogus", good);
  g_assert_false (ws_instrument_load (ins, spec, &error));
  g_assert_nonnull (strstr (error->message, "'bogus' is no PTX opcode"));
  g_clear_error (&error);
  g_autofree char *spec2 = g_strdup_printf ("%s:ops=ld", good);
  g_assert_true (ws_instrument_load (ins, spec2, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (ws_instrument_tool_name (ins, 0), ==, "opcode-histogram");
  /* the CLI says so and does not start the program */
  g_autofree char *out = NULL, *err = NULL;
  int status = 0;
  const char *argv[] = { cli_path, "--db", db_path, "tool", "run", bad, "--", "/bin/true", NULL };
  g_assert_true (g_spawn_sync (tmp_dir, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, &err, &status, NULL));
  g_assert_false (g_spawn_check_wait_status (status, NULL));
  g_assert_nonnull (strstr (err, "please rebuild"));
}

/* ---- tools on purpose-built kernels ---------------------------------------------------- */

static void
test_branch_mod4 (void)
{
  if (!have (kernels_path))
    return;
  const char *args[] = { "tool", "branch", "--", kernels_path, NULL };
  g_autoptr (JsonNode) root = run_cli_json (args);
  JsonObject *o = json_node_get_object (root);
  JsonArray *br = json_object_get_array_member (o, "branches");
  /* the asm branch is the only conditional branch of the program */
  g_assert_cmpuint (json_array_get_length (br), ==, 1);
  JsonObject *b = find_by_kernel (br, "branch_mod4");
  /* 2 blocks x 128 threads = 8 warps; lanes with tid % 4 == 0 take it */
  g_assert_cmpint (json_object_get_int_member (b, "executions"), ==, 8);
  g_assert_cmpint (json_object_get_int_member (b, "divergent"), ==, 8);
  g_assert_cmpint (json_object_get_int_member (b, "active_threads"), ==, 256);
  g_assert_cmpint (json_object_get_int_member (b, "taken_threads"), ==, 64);
  g_assert_cmpint (json_object_get_int_member (b, "not_taken_threads"), ==, 192);
  g_assert_cmpint (json_object_get_int_member (b, "ptx_line"), >, 0);
  g_assert_cmpint (json_object_get_int_member (b, "source_line"), >, 0); /* built with -lineinfo */
  JsonArray *ks = json_object_get_array_member (o, "kernels");
  g_assert_cmpuint (json_array_get_length (ks), ==, 6);
  JsonObject *k = find_by_kernel (ks, "branch_mod4");
  g_assert_cmpfloat (json_object_get_double_member (k, "static_divergence_percent"), ==, 100.0);
  g_assert_cmpfloat (json_object_get_double_member (k, "dynamic_divergence_percent"), ==, 100.0);
  k = find_by_kernel (ks, "strided");
  g_assert_cmpint (json_object_get_int_member (k, "dynamic_branches"), ==, 0);
}

/* matrix cells (a, u) -> count of one kernel, everything else zero */
static void
check_matrix (JsonObject *k, const int (*cells)[3], guint n)
{
  JsonArray *m = json_object_get_array_member (k, "matrix");
  g_assert_cmpuint (json_array_get_length (m), ==, 32);
  for (guint a = 1; a <= 32; a++)
    {
      JsonArray *row = json_array_get_array_element (m, a - 1);
      g_assert_cmpuint (json_array_get_length (row), ==, 32);
      for (guint u = 1; u <= 32; u++)
        {
          gint64 want = 0;
          for (guint i = 0; i < n; i++)
            if (cells[i][0] == (int) a && cells[i][1] == (int) u)
              want += cells[i][2];
          g_assert_cmpint (json_array_get_int_element (row, u - 1), ==, want);
        }
    }
}

static void
test_memdiv_strided (void)
{
  if (!have (kernels_path))
    return;
  const char *args[] = { "tool", "memdiv", "--", kernels_path, NULL };
  g_autoptr (JsonNode) root = run_cli_json (args);
  JsonArray *ks = json_object_get_array_member (json_node_get_object (root), "kernels");
  /* 8 warps each load (32 lanes, stride x 4 bytes) and store (4 lines) */
  static const int s1[][3] = { { 32, 4, 16 } };
  static const int s2[][3] = { { 32, 8, 8 }, { 32, 4, 8 } };
  static const int s8[][3] = { { 32, 32, 8 }, { 32, 4, 8 } };
  static const int uni[][3] = { { 32, 1, 8 } }; /* every lane stores to out[0] */
  check_matrix (find_by_kernel (ks, "stridedILi1E"), s1, 1);
  check_matrix (find_by_kernel (ks, "stridedILi2E"), s2, 2);
  check_matrix (find_by_kernel (ks, "stridedILi8E"), s8, 2);
  check_matrix (find_by_kernel (ks, "stridedILi32E"), s8, 2);
  check_matrix (find_by_kernel (ks, "uniform_value"), uni, 1);
  JsonArray *pp = json_object_get_array_member (find_by_kernel (ks, "stridedILi2E"), "per_pc");
  g_assert_cmpuint (json_array_get_length (pp), ==, 2);
  double m0 = json_object_get_double_member (json_array_get_object_element (pp, 0), "mean_unique_lines");
  double m1 = json_object_get_double_member (json_array_get_object_element (pp, 1), "mean_unique_lines");
  g_assert_cmpfloat (MIN (m0, m1), ==, 4.0);
  g_assert_cmpfloat (MAX (m0, m1), ==, 8.0);
  g_assert_cmpint (json_object_get_int_member (json_array_get_object_element (pp, 0), "executions"), ==, 8);
}

static void
test_value_uniform (void)
{
  if (!have (kernels_path))
    return;
  const char *args[] = { "tool", "value", "--", kernels_path, NULL };
  g_autoptr (JsonNode) root = run_cli_json (args);
  JsonObject *o = json_node_get_object (root);
  JsonObject *k = find_by_kernel (json_object_get_array_member (o, "kernels"), "uniform_value");
  g_assert_cmpfloat (json_object_get_double_member (k, "static_scalar_percent"), ==, 100.0);
  g_assert_cmpfloat (json_object_get_double_member (k, "dynamic_scalar_percent"), ==, 100.0);
  g_assert_cmpfloat (json_object_get_double_member (k, "dynamic_constant_bits_percent"), ==, 100.0);
  /* k * 7 = 21 = 0b10101 in a .u32 register */
  JsonArray *ins = json_object_get_array_member (o, "instructions");
  gboolean found21 = FALSE;
  for (guint i = 0; i < json_array_get_length (ins); i++)
    {
      JsonObject *x = json_array_get_object_element (ins, i);
      if (strstr (json_object_get_string_member (x, "kernel"), "uniform_value") == NULL)
        continue;
      g_assert_true (json_object_get_boolean_member (x, "scalar"));
      g_assert_cmpint (json_object_get_int_member (x, "executions"), ==, 8);
      if (json_object_get_int_member (x, "bits") == 32 && json_object_get_int_member (x, "constant_one_bits") == 3
          && json_object_get_int_member (x, "constant_zero_bits") == 29)
        found21 = TRUE;
    }
  g_assert_true (found21);
  /* the thread index differs per lane: the branch kernel is not all scalar */
  k = find_by_kernel (json_object_get_array_member (o, "kernels"), "branch_mod4");
  g_assert_cmpfloat (json_object_get_double_member (k, "static_scalar_percent"), <, 100.0);
}

static char *
read_text (const char *path)
{
  char *text = NULL;
  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  return text;
}

static void
test_parallel_equals_deterministic (void)
{
  if (!have (kernels_path))
    return;
  g_autofree char *p1 = g_build_filename (tmp_dir, "par", NULL);
  g_autofree char *p2 = g_build_filename (tmp_dir, "det", NULL);
  const char *a1[] = { "profile", "--threads",     "4", "--tool", "branch",     "--tool", "memdiv", "--tool",
                       "value",   "--tool-output", p1,  "--",     kernels_path, NULL };
  const char *a2[] = { "profile", "--deterministic", "--tool", "branch", "--tool",     "memdiv", "--tool",
                       "value",   "--tool-output",   p2,       "--",     kernels_path, NULL };
  /* profile prints the program's output on stdout: run and ignore it */
  for (int r = 0; r < 2; r++)
    {
      const char *const *a = r == 0 ? a1 : a2;
      g_autoptr (GPtrArray) av = g_ptr_array_new ();
      g_ptr_array_add (av, cli_path);
      g_ptr_array_add (av, "--db");
      g_ptr_array_add (av, db_path);
      for (guint i = 0; a[i] != NULL; i++)
        g_ptr_array_add (av, (gpointer) a[i]);
      g_ptr_array_add (av, NULL);
      int status = 0;
      g_assert_true (g_spawn_sync (tmp_dir, (char **) av->pdata, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, NULL,
                                   NULL, &status, NULL));
      g_assert_true (g_spawn_check_wait_status (status, NULL));
    }
  static const char *const tools[] = { "branch", "memdiv", "value" };
  for (guint t = 0; t < 3; t++)
    {
      g_autofree char *f1 = g_strdup_printf ("%s.%s.json", p1, tools[t]);
      g_autofree char *f2 = g_strdup_printf ("%s.%s.json", p2, tools[t]);
      g_autofree char *t1 = read_text (f1);
      g_autofree char *t2 = read_text (f2);
      g_assert_cmpuint (strlen (t1), >, 20);
      g_assert_cmpstr (t1, ==, t2);
      g_unlink (f1);
      g_unlink (f2);
    }
}

static void
test_results_with_trace_and_store (void)
{
  if (!have (kernels_path))
    return;
  g_autofree char *trace = g_build_filename (tmp_dir, "kept.trace", NULL);
  const char *av[] = {
    cli_path, "--db", db_path, "profile", "-o", trace, "--tool", "branch", "--", kernels_path, NULL
  };
  int status = 0;
  g_assert_true (g_spawn_sync (tmp_dir, (char **) av, NULL, G_SPAWN_STDOUT_TO_DEV_NULL | G_SPAWN_STDERR_TO_DEV_NULL,
                               NULL, NULL, NULL, NULL, &status, NULL));
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  g_assert_true (g_file_test (trace, G_FILE_TEST_EXISTS));
  g_autofree char *kept = g_strdup_printf ("%s.branch.json", trace);
  g_autofree char *text = read_text (kept);
  g_assert_nonnull (strstr (text, "\"taken_threads\" : 64"));
  sqlite3 *db = NULL;
  sqlite3_stmt *st = NULL;
  g_assert_cmpint (sqlite3_open (db_path, &db), ==, SQLITE_OK);
  g_assert_cmpint (
    sqlite3_prepare_v2 (db, "SELECT result, trace FROM tool_result WHERE tool = 'branch' AND trace IS NOT NULL", -1,
                        &st, NULL),
    ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_step (st), ==, SQLITE_ROW);
  g_assert_nonnull (strstr ((const char *) sqlite3_column_text (st, 0), "\"taken_threads\":64"));
  g_assert_true (g_str_has_suffix ((const char *) sqlite3_column_text (st, 1), "kept.trace"));
  sqlite3_finalize (st);
  sqlite3_close (db);
  g_unlink (kept);
  g_unlink (trace);
}

/* ---- fault injection ---------------------------------------------------------------------- */

static const char *const outcome_names[] = { "masked", "sdc", "crash", "hang", "symptom" };

static void
test_campaign_faultprog (void)
{
  if (!have (faultprog_path))
    return;
  const char *args[] = { "tool",   "faults", "--injections", "200",          "--seed", "1",
                         "--jobs", "4",      "--",           faultprog_path, NULL };
  g_autoptr (JsonNode) root = run_cli_json (args);
  JsonObject *o = json_node_get_object (root);
  JsonObject *s = json_object_get_object_member (o, "summary");
  gint64 sum = 0;
  for (guint i = 0; i < G_N_ELEMENTS (outcome_names); i++)
    {
      gint64 n = json_object_get_int_member (s, outcome_names[i]);
      if (g_test_verbose ())
        g_printerr ("%s %" G_GINT64_FORMAT "\n", outcome_names[i], n);
      g_assert_cmpint (n, >, 0); /* the program is built so that every class is reachable */
      sum += n;
    }
  g_assert_cmpint (sum, ==, 200);
  g_assert_cmpint (json_object_get_int_member (o, "injection_space"), >, 1000);
  JsonArray *sites = json_object_get_array_member (o, "sites");
  g_assert_cmpuint (json_array_get_length (sites), ==, 200);
  for (guint i = 0; i < 200; i++)
    {
      JsonObject *x = json_array_get_object_element (sites, i);
      /* every site was reached: the injected run followed the golden one up to it */
      g_assert_true (json_object_get_boolean_member (x, "injected"));
      g_assert_true (g_str_has_prefix (json_object_get_string_member (x, "kernel"), "_Z4work"));
    }
}

static void
test_campaign_reproducible (void)
{
  if (!have (faultprog_path))
    return;
  const char *a1[] = { "tool",      "faults", "--injections", "30",           "--seed", "5", "--jobs", "4",
                       "--threads", "2",      "--",           faultprog_path, NULL };
  const char *a2[] = { "tool",   "faults", "--injections",    "30", "--seed",       "5",
                       "--jobs", "1",      "--deterministic", "--", faultprog_path, NULL };
  g_autoptr (JsonNode) r1 = run_cli_json (a1);
  g_autoptr (JsonNode) r2 = run_cli_json (a2);
  JsonArray *s1 = json_object_get_array_member (json_node_get_object (r1), "sites");
  JsonArray *s2 = json_object_get_array_member (json_node_get_object (r2), "sites");
  g_assert_cmpuint (json_array_get_length (s1), ==, 30);
  g_assert_cmpuint (json_array_get_length (s2), ==, 30);
  for (guint i = 0; i < 30; i++)
    {
      JsonObject *x = json_array_get_object_element (s1, i), *y = json_array_get_object_element (s2, i);
      g_assert_cmpstr (json_object_get_string_member (x, "site"), ==, json_object_get_string_member (y, "site"));
      g_assert_cmpstr (json_object_get_string_member (x, "outcome"), ==, json_object_get_string_member (y, "outcome"));
      g_assert_cmpint (json_object_get_int_member (x, "ptx_line"), ==, json_object_get_int_member (y, "ptx_line"));
      g_assert_cmpint (json_object_get_int_member (x, "bit"), ==, json_object_get_int_member (y, "bit"));
    }
}

static void
test_campaign_saxpy2 (void)
{
  if (!have (saxpy2_path))
    return;
  const char *args[] = { "tool", "faults", "--injections", "40",  "--seed", "3", "--jobs",
                         "4",    "--",     saxpy2_path,    "512", "2",      NULL };
  g_autoptr (JsonNode) root = run_cli_json (args);
  JsonObject *s = json_object_get_object_member (json_node_get_object (root), "summary");
  gint64 sum = 0;
  for (guint i = 0; i < G_N_ELEMENTS (outcome_names); i++)
    sum += json_object_get_int_member (s, outcome_names[i]);
  g_assert_cmpint (sum, ==, 40);
  /* saxpy2 checks its result: corrupted data is caught by the program */
  g_assert_cmpint (json_object_get_int_member (s, "masked") + json_object_get_int_member (s, "crash")
                     + json_object_get_int_member (s, "sdc"),
                   >, 0);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  for (int i = 1; i + 1 < argc; i += 2)
    {
      if (strcmp (argv[i], "--cli") == 0)
        cli_path = g_canonicalize_filename (argv[i + 1], NULL);
      else if (strcmp (argv[i], "--kernels") == 0)
        kernels_path = strcmp (argv[i + 1], "-") ? g_canonicalize_filename (argv[i + 1], NULL) : g_strdup ("-");
      else if (strcmp (argv[i], "--faultprog") == 0)
        faultprog_path = strcmp (argv[i + 1], "-") ? g_canonicalize_filename (argv[i + 1], NULL) : g_strdup ("-");
      else if (strcmp (argv[i], "--saxpy2") == 0)
        saxpy2_path = strcmp (argv[i + 1], "-") ? g_canonicalize_filename (argv[i + 1], NULL) : g_strdup ("-");
    }
  tmp_dir = g_dir_make_tmp ("ws-test-instrument-XXXXXX", NULL);
  db_path = g_build_filename (tmp_dir, "test.db", NULL);
  /* ptxas only adds resource numbers: skipped to keep the suite short */
  g_setenv ("WS_PTXAS", "", TRUE);

  g_test_add_func ("/instrument/api/fault-site-roundtrip", test_site_roundtrip);
  g_test_add_func ("/instrument/api/pick-sites-seeded-uniform", test_pick_sites);
  g_test_add_func ("/instrument/api/unknown-tool", test_unknown_tool);
  g_test_add_func ("/instrument/api/emulator-hooks-where-what-writable", test_api_emulator);
  g_test_add_func ("/instrument/api/store-handler-result-with-library", test_store_handler_result);
  g_test_add_func ("/instrument/sdk/opcode-histogram-out-of-tree", test_sdk_opcode_histogram);
  g_test_add_func ("/instrument/sdk/abi-mismatch-refused", test_sdk_refuses_mismatch);
  g_test_add_func ("/instrument/branch/mod4-exact-counts", test_branch_mod4);
  g_test_add_func ("/instrument/memdiv/strided-exact-matrix", test_memdiv_strided);
  g_test_add_func ("/instrument/value/uniform-kernel-scalar", test_value_uniform);
  g_test_add_func ("/instrument/tools/parallel-equals-deterministic", test_parallel_equals_deterministic);
  g_test_add_func ("/instrument/tools/results-next-to-trace-and-in-store", test_results_with_trace_and_store);
  g_test_add_func ("/instrument/faults/campaign-200-all-classes", test_campaign_faultprog);
  g_test_add_func ("/instrument/faults/reproducible-parallel-deterministic", test_campaign_reproducible);
  g_test_add_func ("/instrument/faults/saxpy2", test_campaign_saxpy2);
  int rc = g_test_run ();
  g_unlink (db_path);
  g_rmdir (tmp_dir);
  return rc;
}
