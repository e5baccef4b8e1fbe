/* System and application models at their limits: nesting that would
 * exhaust a stack or SQLite's JSON reader is refused with a message that
 * says so (it used to read "a system model named … exists already"), and
 * an expression of 20 000 terms is stored and evaluated. */
#include "system-test-util.h"
#include "base/ws-json.h"

#include <string.h>

typedef struct {
  char *dir;
  WsStore *store;
} Fixture;

static void
fixture_set_up (Fixture *f, gconstpointer data)
{
  f->store = system_test_workspace (&f->dir);
}

static void
fixture_tear_down (Fixture *f, gconstpointer data)
{
  ws_store_close (f->store);
  system_test_rm_rf (f->dir);
  g_free (f->dir);
}

/* A machine nested @levels deep around a CPU and a GPU joined by a link. */
static WsSystemModel *
deep_system (guint levels)
{
  WsSystemModel *s = ws_system_model_new ("deep");
  WsComponent *parent = NULL;
  for (guint i = 0; i < levels; i++)
    {
      g_autofree char *name = g_strdup_printf ("m%u", i);
      parent = ws_system_model_add (s, parent, WS_COMPONENT_MACHINE, name, NULL, 1);
    }
  WsComponent *cpu = ws_system_model_add (s, parent, WS_COMPONENT_CPU, "cpu", "Core i7-4790K", 1);
  ws_component_add_label (cpu, "CPU", 1);
  WsComponent *gpu = ws_system_model_add (s, parent, WS_COMPONENT_GPU, "gpu", "GTX 970", 1);
  ws_component_add_label (gpu, "GPU", 1);
  WsComponent *link = ws_system_model_add (s, parent, WS_COMPONENT_LINK, "pcie", "PCIe 3.1 x16 (GTX 970 test bed)", 1);
  ws_component_set_endpoints (link, "cpu", "gpu");
  return s;
}

static void
test_deep_system_refused (Fixture *f, gconstpointer data)
{
  /* 1 100 levels: SQLite's json_valid() rejected the record, reported as a
   * duplicate name. */
  g_autoptr (WsSystemModel) deep = deep_system (1100);
  g_autoptr (GError) error = NULL;
  g_assert_false (ws_system_store_put_system (f->store, deep, FALSE, &error));
  g_test_message ("%s", error->message);
  g_assert_error (error, WS_ERROR, WS_ERROR_INVALID);
  g_assert_null (strstr (error->message, "exists already"));
  g_assert_nonnull (strstr (error->message, "system 'deep', component 'm63': machines nest more than 64 levels"));

  /* The same from a file: a JSON text nesting 70 machines. */
  GString *text = g_string_new ("{\"kind\":\"system\",\"name\":\"deep\",\"components\":[");
  for (guint i = 0; i < 70; i++)
    g_string_append_printf (text, "{\"type\":\"machine\",\"name\":\"m%u\",\"components\":[", i);
  g_string_append (text, "{\"type\":\"cpu\",\"name\":\"cpu\",\"hw\":\"Core i7-4790K\"}");
  for (guint i = 0; i < 70; i++)
    g_string_append (text, "]}");
  g_string_append (text, "]}");
  g_autoptr (GError) e2 = NULL;
  g_autoptr (JsonNode) node = ws_json_from_text (text->str, &e2);
  g_assert_no_error (e2);
  g_string_free (text, TRUE);
  g_autoptr (WsSystemModel) none = ws_system_model_from_json (node, &e2);
  g_assert_null (none);
  g_assert_error (e2, WS_ERROR, WS_ERROR_INVALID);
  g_assert_nonnull (strstr (e2->message, "component 'm63': machines nest more than 64 levels"));

  /* Within the limit it is stored, and the name stays free for it. */
  g_autoptr (WsSystemModel) fine = deep_system (20);
  g_autoptr (GError) e3 = NULL;
  g_assert_true (ws_system_store_put_system (f->store, fine, FALSE, &e3));
  g_assert_no_error (e3);
  g_autoptr (WsSystemModel) back = ws_system_store_get_system (f->store, "deep", &e3);
  g_assert_no_error (e3);
  g_assert_nonnull (ws_system_model_find (back, "m19"));
}

/* An application whose loops nest @levels deep. */
static JsonNode *
deep_app (guint levels)
{
  GString *text = g_string_new ("{\"kind\":\"application\",\"name\":\"deepapp\",\"processes\":[{\"label\":\"CPU\","
                                "\"operations\":[");
  for (guint i = 0; i < levels; i++)
    g_string_append (text, "{\"op\":\"loop\",\"count\":\"1\",\"body\":[");
  g_string_append (text, "{\"op\":\"host\",\"seconds\":\"1e-3\"}");
  for (guint i = 0; i < levels; i++)
    g_string_append (text, "]}");
  g_string_append (text, "]}]}");
  g_autoptr (GError) error = NULL;
  JsonNode *node = ws_json_from_text (text->str, &error);
  g_assert_no_error (error);
  g_string_free (text, TRUE);
  return node;
}

static void
test_deep_app_refused (Fixture *f, gconstpointer data)
{
  g_autoptr (JsonNode) deep = deep_app (80);
  g_autoptr (GError) error = NULL;
  g_assert_false (ws_system_store_put_app (f->store, deep, FALSE, &error));
  g_assert_error (error, WS_ERROR, WS_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, "application 'deepapp', label 'CPU', operation 1.1.1."));
  g_assert_nonnull (strstr (error->message, "loops and conditionals nest more than 64 levels deep"));

  /* 60 levels: stored, read back and run (one host operation of 1 ms). */
  g_autoptr (JsonNode) fine = deep_app (60);
  g_autoptr (GError) e2 = NULL;
  g_assert_true (ws_system_store_put_app (f->store, fine, FALSE, &e2));
  g_assert_no_error (e2);
  g_autoptr (WsAppModel) app = ws_system_store_get_app (f->store, "deepapp", &e2);
  g_assert_no_error (e2);
  g_autoptr (WsSystemModel) s = ws_system_store_get_system (f->store, "testbed-gtx970", &e2);
  g_assert_no_error (e2);
  g_autoptr (WsSystemEnv) env = ws_system_env_new (f->store, s, NULL, &e2);
  g_assert_no_error (e2);
  g_autoptr (WsSystemResult) r = ws_system_evaluate (env, app, NULL, &e2);
  g_assert_no_error (e2);
  g_assert_cmpuint (r->operations->len, ==, 1);
  g_assert_cmpfloat_with_epsilon (r->total_seconds, 1e-3, 1e-12);
}

/* A 20 000-term sum was stored and then crashed every `model run`. */
static void
test_long_sum_runs (Fixture *f, gconstpointer data)
{
  GString *sum = g_string_new ("1");
  for (guint i = 1; i < 20000; i++)
    g_string_append (sum, "+1");
  g_autofree char *text = g_strdup_printf (
    "{\"kind\":\"application\",\"name\":\"sum\",\"variables\":[{\"name\":\"x\",\"expression\":\"%s\"}],"
    "\"processes\":[{\"label\":\"CPU\",\"operations\":[{\"op\":\"host\",\"seconds\":\"x * 1e-6\"}]}]}",
    sum->str);
  g_string_free (sum, TRUE);
  g_autoptr (GError) error = NULL;
  g_autoptr (JsonNode) node = ws_json_from_text (text, &error);
  g_assert_no_error (error);
  g_assert_true (ws_system_store_put_app (f->store, node, FALSE, &error));
  g_assert_no_error (error);
  g_autoptr (WsAppModel) app = ws_system_store_get_app (f->store, "sum", &error);
  g_assert_no_error (error);
  g_autoptr (WsSystemModel) s = ws_system_store_get_system (f->store, "testbed-gtx970", &error);
  g_assert_no_error (error);
  g_autoptr (WsSystemEnv) env = ws_system_env_new (f->store, s, NULL, &error);
  g_assert_no_error (error);
  g_autoptr (WsSystemResult) r = ws_system_evaluate (env, app, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpfloat (*(double *) g_hash_table_lookup (r->variables, "x"), ==, 20000);
  g_assert_cmpfloat_with_epsilon (r->total_seconds, 0.02, 1e-12);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_setenv ("WARPSCOPE_DEMO_TRACE", "/nonexistent/saxpy2.wstrace", TRUE);
  g_setenv ("WARPSCOPE_DEMO_PROGRAM", "/nonexistent/saxpy2", TRUE);
#define ADD(path, fn) g_test_add (path, Fixture, NULL, fixture_set_up, fn, fixture_tear_down)
  ADD ("/system/limits/deep-system-refused-not-duplicate", test_deep_system_refused);
  ADD ("/system/limits/deep-application-refused", test_deep_app_refused);
  ADD ("/system/limits/20000-term-sum-stored-and-run", test_long_sum_runs);
  return g_test_run ();
}
