/* test-gui-app-editor.c: the Applications page (application-model editor)
 * in a real window under Xvfb, on a temporary store with the demo
 * workspace.  What the page shows is compared with the stored JSON records,
 * and what it stores is run by the core evaluator. */
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <adwaita.h>
#include <string.h>

#include "ws-window-private.h"
#include "ws-app-editor-page-private.h"
#include "ws-simulations-page.h"
#include "system/ws-system.h"
#include "system/ws-app-schema.h"
#include "predict/ws-predict.h"
#include "gui-test-util.h"

typedef struct {
  char *tmpdir;
  char *db_path;
  WsWindow *window;
  WsAppEditorPage *page;
  WsStore *store; /* the window's */
} Fixture;

static void
fixture_setup (Fixture *f, gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WsStore) store = NULL;

  if (!have_display)
    return;
  f->tmpdir = g_dir_make_tmp ("ws-test-app-editor-XXXXXX", &error);
  g_assert_no_error (error);
  f->db_path = g_build_filename (f->tmpdir, "workspace.db", NULL);
  store = ws_store_open (f->db_path, &error);
  g_assert_no_error (error);
  g_assert_true (ws_system_store_ensure_demo (store, &error));
  g_assert_no_error (error);
  g_clear_pointer (&store, ws_store_close);

  f->window = ws_window_new (NULL, f->db_path);
  gtk_window_present (GTK_WINDOW (f->window));
  g_assert_true (iterate_until (is_mapped, f->window, 10000));
  g_assert_true (ws_window_show_page (f->window, "applications"));
  f->page = WS_APP_EDITOR_PAGE (gtk_stack_get_child_by_name (ws_window_get_stack (f->window), "applications"));
  g_assert_true (WS_IS_APP_EDITOR_PAGE (f->page));
  f->store = ws_window_get_store (f->window);
  g_assert_nonnull (f->store);
  drain ();
}

static void
fixture_teardown (Fixture *f, gconstpointer data)
{
  if (!have_display)
    return;
  gtk_window_destroy (GTK_WINDOW (f->window));
  drain ();
  remove_tree (f->tmpdir);
  g_free (f->tmpdir);
  g_free (f->db_path);
}

/* ---- helpers ----------------------------------------------------------- */

static const char *
text_of (Fixture *f, const char *key)
{
  GtkWidget *w = ws_app_editor_page_get_widget (f->page, key);

  g_assert_nonnull (w);
  g_assert_true (GTK_IS_EDITABLE (w));
  return gtk_editable_get_text (GTK_EDITABLE (w));
}

static void
type_into (Fixture *f, const char *key, const char *text)
{
  GtkWidget *w = ws_app_editor_page_get_widget (f->page, key);

  if (w == NULL)
    g_error ("no field %s", key);
  gtk_editable_set_text (GTK_EDITABLE (w), text);
}

static guint
count_children_with_class (GtkWidget *parent, const char *css_class)
{
  guint n = 0;

  for (GtkWidget *c = gtk_widget_get_first_child (parent); c != NULL; c = gtk_widget_get_next_sibling (c))
    n += gtk_widget_has_css_class (c, css_class);
  return n;
}

static guint
rows_in_list (Fixture *f, const char *path)
{
  GtkWidget *list = ws_app_editor_page_get_list_widget (f->page, path);

  g_assert_nonnull (list);
  return count_children_with_class (list, "ws-app-op");
}

/* A JSON member as the editor shows it (strings as they are, numbers printed). */
static char *
json_text (JsonObject *o, const char *key)
{
  JsonNode *n = json_object_get_member (o, key);
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  g_assert_nonnull (n);
  if (json_node_get_value_type (n) == G_TYPE_STRING)
    return g_strdup (json_node_get_string (n));
  if (json_node_get_value_type (n) == G_TYPE_INT64)
    return g_strdup_printf ("%" G_GINT64_FORMAT, json_node_get_int (n));
  return g_strdup (g_ascii_dtostr (buf, sizeof buf, json_node_get_double (n)));
}

static JsonNode *
stored_json (Fixture *f, const char *name)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WsAppModel) app = ws_system_store_get_app (f->store, name, &error);

  g_assert_no_error (error);
  return ws_app_model_to_json (app);
}

static double
evaluate_total (Fixture *f, JsonNode *record)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WsSystemModel) system = ws_system_store_get_system (f->store, "testbed-gtx970", &error);
  g_autoptr (WsSystemEnv) env = NULL;
  g_autoptr (WsAppModel) app = NULL;
  g_autoptr (WsSystemResult) result = NULL;

  g_assert_no_error (error);
  env = ws_system_env_new (f->store, system, NULL, &error);
  g_assert_no_error (error);
  app = ws_app_model_from_json (record, &error);
  g_assert_no_error (error);
  result = ws_system_evaluate (env, app, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (result->ok);
  return result->total_seconds;
}

/* ---- tests ------------------------------------------------------------- */

/* The demo saxpy2-analytic: every variable, label, operation and field
 * shown with the stored texts, and the page's record evaluates the same. */
static void
test_opens_demo (Fixture *f, gconstpointer data)
{
  g_autoptr (JsonNode) stored = NULL;
  g_autoptr (JsonNode) shown = NULL;
  JsonObject *o;
  JsonArray *vars, *procs;

  if (!have_display)
    {
      g_test_skip ("no display (run under xvfb-run)");
      return;
    }
  g_assert_true (ws_app_editor_page_open (f->page, "saxpy2-analytic"));
  drain ();
  stored = stored_json (f, "saxpy2-analytic");
  o = json_node_get_object (stored);
  vars = json_object_get_array_member (o, "variables");
  procs = json_object_get_array_member (o, "processes");

  g_assert_cmpstr (text_of (f, "name"), ==, "saxpy2-analytic");
  g_assert_cmpuint (json_array_get_length (vars), ==, 10);
  g_assert_cmpuint (count_children_with_class (ws_app_editor_page_get_variables_box (f->page), "ws-app-variable"), ==,
                    json_array_get_length (vars));
  for (guint i = 0; i < json_array_get_length (vars); i++)
    {
      JsonObject *v = json_array_get_object_element (vars, i);
      gboolean derived = json_object_has_member (v, "expression");
      g_autofree char *name_key = g_strdup_printf ("var/%u/name", i);
      g_autofree char *value_key = g_strdup_printf ("var/%u/value", i);
      g_autofree char *kind_key = g_strdup_printf ("var/%u/kind", i);
      g_autofree char *value = json_text (v, derived ? "expression" : "default");

      g_assert_cmpstr (text_of (f, name_key), ==, json_object_get_string_member (v, "name"));
      g_assert_cmpstr (text_of (f, value_key), ==, value);
      g_assert_cmpuint (gtk_drop_down_get_selected (GTK_DROP_DOWN (ws_app_editor_page_get_widget (f->page, kind_key))),
                        ==, derived ? 1 : 0);
      g_assert_null (ws_app_editor_page_get_problem (f->page, value_key));
    }
  g_assert_cmpstr (text_of (f, "var/0/value"), ==, "1048576");
  g_assert_cmpstr (text_of (f, "var/8/value"), ==, "floor((N + blockSize - 1) / blockSize)");

  g_assert_cmpuint (json_array_get_length (procs), ==, 2);
  for (guint p = 0; p < json_array_get_length (procs); p++)
    {
      JsonObject *po = json_array_get_object_element (procs, p);
      JsonArray *ops = json_object_get_array_member (po, "operations");
      g_autofree char *label_key = g_strdup_printf ("proc/%u/label", p);
      g_autofree char *count_key = g_strdup_printf ("proc/%u/count", p);
      g_autofree char *path = g_strdup_printf ("p%u", p);
      g_autofree char *count = json_text (po, "count");

      g_assert_cmpstr (text_of (f, label_key), ==, json_object_get_string_member (po, "label"));
      g_assert_cmpstr (text_of (f, count_key), ==, count);
      g_assert_cmpuint (rows_in_list (f, path), ==, json_array_get_length (ops));
      for (guint i = 0; i < json_array_get_length (ops); i++)
        {
          JsonObject *op = json_array_get_object_element (ops, i);
          g_autoptr (GList) members = json_object_get_members (op);

          for (GList *m = members; m != NULL; m = m->next)
            {
              const char *key = m->data;
              JsonObject *holder = op;
              g_autoptr (GList) inner = NULL;

              if (g_str_equal (key, "op"))
                continue;
              if (g_str_equal (key, "analytic"))
                {
                  holder = json_object_get_object_member (op, "analytic");
                  inner = json_object_get_members (holder);
                }
              for (GList *k = inner != NULL ? inner : m; k != NULL; k = inner != NULL ? k->next : NULL)
                {
                  g_autofree char *field_key = g_strdup_printf ("%s/%u:%s", path, i, (char *) k->data);
                  g_autofree char *expected = json_text (holder, k->data);

                  g_assert_cmpstr (text_of (f, field_key), ==, expected);
                  g_assert_null (ws_app_editor_page_get_problem (f->page, field_key));
                }
            }
        }
    }
  /* The kernel is the GPU's fourth operation, analytic, with 8 parameters. */
  g_assert_cmpuint (gtk_drop_down_get_selected (GTK_DROP_DOWN (ws_app_editor_page_get_widget (f->page, "p1/3:mode"))),
                    ==, 0);
  g_assert_cmpstr (text_of (f, "p1/3:grid_size"), ==, "gridSize");
  g_assert_cmpstr (text_of (f, "p1/3:lambda"), ==, "kernelExecutionLambda");
  g_assert_null (ws_app_editor_page_get_banner (f->page));

  /* What the page would store is the stored model, and runs the same. */
  shown = ws_app_doc_to_json (ws_app_editor_page_get_doc (f->page));
  g_assert_cmpfloat (evaluate_total (f, shown), ==, evaluate_total (f, stored));
}

/* A new application built by drops and the keyboard: a loop holding a
 * kernel, a reorder, a wrong expression (kept as a draft, not stored), the
 * fix (stored, the Simulations page sees it), reopening, evaluating, undo. */
static void
test_build_new (Fixture *f, gconstpointer data)
{
  WsSimulationsPage *sims;
  const WsAppDoc *doc;
  g_autofree char *name = NULL;
  GtkWidget *entry;
  g_autoptr (GError) error = NULL;
  g_autoptr (JsonNode) stored = NULL;
  g_autoptr (JsonNode) shown = NULL;
  WsUndoStack *undo;
  double total;

  if (!have_display)
    {
      g_test_skip ("no display (run under xvfb-run)");
      return;
    }
  sims = WS_SIMULATIONS_PAGE (gtk_stack_get_child_by_name (ws_window_get_stack (f->window), "simulations"));
  undo = ws_window_get_undo_stack (f->window);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->page), "appeditor.new", NULL));
  drain ();
  doc = ws_app_editor_page_get_doc (f->page);
  g_assert_nonnull (doc);
  name = g_strdup (doc->name);
  g_assert_cmpstr (name, ==, "application");
  g_assert_cmpuint (doc->processes->len, ==, 1);
  g_assert_cmpuint (rows_in_list (f, "p0"), ==, 0);

  /* Variables: two inputs and a derived one. */
  for (guint i = 0; i < 3; i++)
    g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->page), "appeditor.add-variable", NULL));
  g_assert_cmpuint (count_children_with_class (ws_app_editor_page_get_variables_box (f->page), "ws-app-variable"), ==,
                    3);
  type_into (f, "var/0/name", "N");
  type_into (f, "var/0/value", "1048576");
  type_into (f, "var/1/name", "blockSize");
  type_into (f, "var/1/value", "25x");
  g_assert_cmpstr (ws_app_editor_page_get_problem (f->page, "var/1/value"), ==, "The default must be a number");
  g_assert_true (gtk_widget_has_css_class (ws_app_editor_page_get_widget (f->page, "var/1/value"), "error"));
  type_into (f, "var/1/value", "256");
  g_assert_null (ws_app_editor_page_get_problem (f->page, "var/1/value"));
  g_assert_false (gtk_widget_has_css_class (ws_app_editor_page_get_widget (f->page, "var/1/value"), "error"));
  type_into (f, "var/2/name", "blockSize");
  g_assert_nonnull (ws_app_editor_page_get_problem (f->page, "var/2/name")); /* defined twice */
  type_into (f, "var/2/name", "gridSize");
  gtk_drop_down_set_selected (GTK_DROP_DOWN (ws_app_editor_page_get_widget (f->page, "var/2/kind")), 1);
  drain ();
  type_into (f, "var/2/value", "ceil(N / blockSize)");
  g_assert_null (ws_app_editor_page_get_problem (f->page, "var/2/value"));

  /* Operations: drops from the palette and the keyboard's Add menu. */
  g_assert_true (ws_app_editor_page_drop_operation (f->page, "p0", 0, "h2d"));
  type_into (f, "p0/0:bytes", "4*N");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->page), "appeditor.add-op", "s", "p0 loop"));
  type_into (f, "p0/1:count", "3");
  type_into (f, "p0/1:variable", "i");
  g_assert_true (ws_app_editor_page_drop_operation (f->page, "p0/1b", 0, "kernel"));
  g_assert_cmpuint (rows_in_list (f, "p0/1b"), ==, 1);
  g_assert_cmpstr (ws_app_editor_page_get_problem (f->page, "p0/1b/0:grid_size"), ==, "Required: enter an expression");
  type_into (f, "p0/1b/0:name", "saxpy2");
  type_into (f, "p0/1b/0:grid_size", "gridSize");
  type_into (f, "p0/1b/0:block_size", "blockSize");
  type_into (f, "p0/1b/0:cuda_core_instructions", "87");
  type_into (f, "p0/1b/0:issued_instructions", "90");
  type_into (f, "p0/1b/0:gmem_bytes", "384");
  type_into (f, "p0/1b/0:latency_bound", "1326");
  type_into (f, "p0/1b/0:occupancy_warps", "64");
  type_into (f, "p0/1b/0:lambda", "0.703787");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->page), "appeditor.add-op", "s", "p0 d2h"));
  type_into (f, "p0/2:bytes", "4*N");
  /* A nested loop (any depth): inside the first, around a host step. */
  g_assert_true (ws_app_editor_page_drop_operation (f->page, "p0/1b", 1, "loop"));
  type_into (f, "p0/1b/1:count", "2");
  type_into (f, "p0/1b/1:variable", "j");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->page), "appeditor.add-op", "s", "p0/1b/1b host"));
  type_into (f, "p0/1b/1b/0:seconds", "1e-6 * (i + j)");
  g_assert_null (ws_app_editor_page_get_problem (f->page, "p0/1b/1b/0:seconds"));
  /* A loop variable is known inside its loop only. */
  type_into (f, "p0/2:bytes", "4*N + j");
  g_assert_nonnull (strstr (ws_app_editor_page_get_problem (f->page, "p0/2:bytes"), "unknown variable “j”"));
  type_into (f, "p0/2:bytes", "4*N");

  /* Reorder by drag: a sync dropped first, then dragged to the end; the
   * host step dragged out of the inner loop and back. */
  g_assert_true (ws_app_editor_page_drop_operation (f->page, "p0", 0, "sync"));
  g_assert_cmpstr (((WsAppOp *) ws_app_doc_get_list (ws_app_editor_page_get_doc (f->page), "p0")->pdata[0])->kind, ==,
                   "sync");
  g_assert_true (ws_app_editor_page_move_operation (f->page, "p0", 0, "p0", 4));
  g_assert_true (ws_app_editor_page_move_operation (f->page, "p0/1b/1b", 0, "p0", 1));
  g_assert_cmpuint (rows_in_list (f, "p0"), ==, 5);
  g_assert_cmpuint (rows_in_list (f, "p0/2b/1b"), ==, 0);
  g_assert_true (ws_app_editor_page_move_operation (f->page, "p0", 1, "p0/2b/1b", 0));
  /* Not into itself. */
  g_assert_false (ws_app_editor_page_move_operation (f->page, "p0", 1, "p0/1b/1b", 0));
  doc = ws_app_editor_page_get_doc (f->page);
  {
    static const char *const order[] = { "h2d", "loop", "d2h", "sync" };
    GPtrArray *ops = ws_app_doc_get_list (doc, "p0");
    g_assert_cmpuint (ops->len, ==, G_N_ELEMENTS (order));
    for (guint i = 0; i < ops->len; i++)
      g_assert_cmpstr (((WsAppOp *) ops->pdata[i])->kind, ==, order[i]);
    g_assert_cmpuint (rows_in_list (f, "p0"), ==, 4);
    g_assert_cmpuint (rows_in_list (f, "p0/1b"), ==, 2);
    g_assert_cmpuint (rows_in_list (f, "p0/1b/1b"), ==, 1);
    g_assert_cmpstr (text_of (f, "p0/1b/1b/0:seconds"), ==, "1e-6 * (i + j)");
    g_assert_cmpstr (text_of (f, "p0/3:device"), ==, "");
  }
  g_assert_true (ws_app_editor_page_save (f->page));
  g_assert_null (ws_app_editor_page_get_banner (f->page));

  /* A wrong expression: shown with its column, the model not stored, the draft kept. */
  stored = stored_json (f, name);
  type_into (f, "p0/1b/0:grid_size", "(N + blockSz - 1) / blockSize");
  g_assert_cmpstr (ws_app_editor_page_get_problem (f->page, "p0/1b/0:grid_size"), ==,
                   "column 6: unknown variable “blockSz” (did you mean blockSize?)");
  type_into (f, "p0/0:bytes", "4*(N");
  entry = ws_app_editor_page_get_widget (f->page, "p0/0:bytes");
  g_assert_true (gtk_widget_has_css_class (entry, "error"));
  g_assert_nonnull (strstr (ws_app_editor_page_get_problem (f->page, "p0/0:bytes"), "column 5"));
  g_assert_false (ws_app_editor_page_save (f->page));
  g_assert_nonnull (ws_app_editor_page_get_banner (f->page));
  g_assert_true (ws_app_doc_has_draft (f->store, name));
  {
    g_autoptr (JsonNode) still = stored_json (f, name);
    g_autoptr (WsAppDoc) draft = ws_app_doc_load (f->store, name, &error);

    g_assert_true (json_node_equal (still, stored));
    g_assert_no_error (error);
    g_assert_cmpstr (ws_app_op_get (ws_app_doc_get_op (draft, "p0", 0), "bytes"), ==, "4*(N");
  }
  /* The banner names the label, operation, field and column. */
  type_into (f, "p0/1b/0:grid_size", "gridSize");
  g_assert_false (ws_app_editor_page_save (f->page));
  g_assert_nonnull (strstr (ws_app_editor_page_get_banner (f->page), "operation 1 (h2d), Bytes: column"));

  /* Fixed: stored, no draft, and the Simulations page offers it. */
  type_into (f, "p0/0:bytes", "4*N");
  g_assert_null (ws_app_editor_page_get_problem (f->page, "p0/0:bytes"));
  g_assert_false (gtk_widget_has_css_class (ws_app_editor_page_get_widget (f->page, "p0/0:bytes"), "error"));
  g_assert_true (ws_app_editor_page_save (f->page));
  g_assert_cmpstr (ws_app_editor_page_get_status (f->page), ==, "Saved");
  g_assert_false (ws_app_doc_has_draft (f->store, name));
  g_assert_true (ws_simulations_page_select_app (sims, name));
  g_clear_pointer (&stored, json_node_unref);
  stored = stored_json (f, name);
  shown = ws_app_doc_to_json (ws_app_editor_page_get_doc (f->page));
  g_assert_true (json_node_equal (stored, shown));

  /* Reopened from the store: the same record. */
  g_assert_true (ws_app_editor_page_open (f->page, "saxpy2-analytic"));
  g_assert_true (ws_app_editor_page_open (f->page, name));
  drain ();
  g_clear_pointer (&shown, json_node_unref);
  shown = ws_app_doc_to_json (ws_app_editor_page_get_doc (f->page));
  g_assert_true (json_node_equal (stored, shown));
  g_assert_cmpuint (rows_in_list (f, "p0/1b"), ==, 2);
  g_assert_cmpstr (text_of (f, "p0/1b/0:grid_size"), ==, "gridSize");

  /* The core runs what the page stored exactly as the record imported directly. */
  {
    g_autofree char *text = json_to_string (shown, FALSE);
    g_autoptr (JsonNode) imported = json_from_string (text, &error);

    g_assert_no_error (error);
    total = evaluate_total (f, stored);
    g_assert_cmpfloat (total, >, 0);
    g_assert_cmpfloat (total, ==, evaluate_total (f, imported));
  }

  /* Undo and redo an edit, in the widgets and in the store. */
  type_into (f, "p0/0:bytes", "8*N");
  ws_app_editor_page_flush (f->page);
  g_assert_true (ws_undo_stack_can_undo (undo));
  g_assert_true (ws_undo_stack_undo (undo, &error));
  g_assert_no_error (error);
  drain ();
  g_assert_cmpstr (text_of (f, "p0/0:bytes"), ==, "4*N");
  {
    g_autoptr (JsonNode) back = stored_json (f, name);
    g_assert_true (json_node_equal (back, stored));
  }
  g_assert_true (ws_undo_stack_redo (undo, &error));
  g_assert_no_error (error);
  drain ();
  g_assert_cmpstr (text_of (f, "p0/0:bytes"), ==, "8*N");
  /* Undo of a structural edit: the removed operation comes back. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->page), "appeditor.row", "s", "op-remove p0 3"));
  g_assert_cmpuint (rows_in_list (f, "p0"), ==, 3);
  g_assert_true (ws_undo_stack_undo (undo, &error));
  g_assert_cmpuint (rows_in_list (f, "p0"), ==, 4);
}

/* An invalid draft survives the window: a new window reopens it as typed. */
static void
test_draft_reopened (Fixture *f, gconstpointer data)
{
  WsAppEditorPage *page;
  WsWindow *second;

  if (!have_display)
    {
      g_test_skip ("no display (run under xvfb-run)");
      return;
    }
  g_assert_true (ws_app_editor_page_open (f->page, "saxpy2-analytic"));
  type_into (f, "var/0/value", "1e6x");
  /* Closing the window saves what is pending. */
  gtk_window_destroy (GTK_WINDOW (f->window));
  drain ();

  second = ws_window_new (NULL, f->db_path);
  gtk_window_present (GTK_WINDOW (second));
  g_assert_true (iterate_until (is_mapped, second, 10000));
  f->window = second;
  f->store = ws_window_get_store (second);
  page = WS_APP_EDITOR_PAGE (gtk_stack_get_child_by_name (ws_window_get_stack (second), "applications"));
  f->page = page;
  g_assert_true (ws_app_doc_has_draft (f->store, "saxpy2-analytic"));
  g_assert_true (ws_app_editor_page_open (page, "saxpy2-analytic"));
  g_assert_cmpstr (text_of (f, "var/0/value"), ==, "1e6x");
  g_assert_cmpstr (ws_app_editor_page_get_problem (page, "var/0/value"), ==, "The default must be a number");
  g_assert_nonnull (ws_app_editor_page_get_banner (page));
  /* The stored model is the last valid one. */
  {
    g_autoptr (JsonNode) stored = stored_json (f, "saxpy2-analytic");
    g_assert_cmpint (
      json_object_get_int_member (
        json_array_get_object_element (json_object_get_array_member (json_node_get_object (stored), "variables"), 0),
        "default"),
      ==, 1048576);
  }
}

/* The demo saxpy2's profiled kernel shows its trace and launch; a new
 * kernel switched to Profiled needs a trace, then stores. */
static void
test_profiled_kernel (Fixture *f, gconstpointer data)
{
  g_autoptr (JsonNode) stored = NULL;
  g_autoptr (GError) error = NULL;
  g_auto (GStrv) apps = NULL;
  JsonObject *kernel;
  GtkWidget *trace, *launch;
  GListModel *items;
  g_autofree char *base = NULL;

  if (!have_display)
    {
      g_test_skip ("no display (run under xvfb-run)");
      return;
    }
  apps = ws_system_store_list_apps (f->store, &error);
  g_assert_no_error (error);
  if (!g_strv_contains ((const char *const *) apps, "saxpy2"))
    {
      g_test_skip ("the demo trace of saxpy2 is not available");
      return;
    }
  g_assert_true (ws_app_editor_page_open (f->page, "saxpy2"));
  stored = stored_json (f, "saxpy2");
  kernel = json_array_get_object_element (
    json_object_get_array_member (
      json_array_get_object_element (json_object_get_array_member (json_node_get_object (stored), "processes"), 0),
      "operations"),
    2);
  g_assert_cmpuint (gtk_drop_down_get_selected (GTK_DROP_DOWN (ws_app_editor_page_get_widget (f->page, "p0/2:mode"))),
                    ==, 1);
  trace = ws_app_editor_page_get_widget (f->page, "p0/2:trace");
  g_assert_true (GTK_IS_DROP_DOWN (trace));
  items = gtk_drop_down_get_model (GTK_DROP_DOWN (trace));
  base = g_path_get_basename (json_object_get_string_member (kernel, "trace"));
  g_assert_cmpstr (
    gtk_string_list_get_string (GTK_STRING_LIST (items), gtk_drop_down_get_selected (GTK_DROP_DOWN (trace))), ==, base);
  launch = ws_app_editor_page_get_widget (f->page, "p0/2:launch");
  g_assert_true (GTK_IS_DROP_DOWN (launch));
  g_assert_cmpuint (gtk_drop_down_get_selected (GTK_DROP_DOWN (launch)), ==, 0);
  {
    const char *item = gtk_string_list_get_string (GTK_STRING_LIST (gtk_drop_down_get_model (GTK_DROP_DOWN (launch))),
                                                   0);
    g_test_message ("launch 0: %s", item);
    g_assert_true (g_str_has_prefix (item, "0: "));
    g_assert_nonnull (strstr (item, "saxpy2"));
  }
  g_assert_null (ws_app_editor_page_get_banner (f->page));

  /* A new application's kernel, made a profiled one. */
  ws_app_editor_page_new_app (f->page);
  g_assert_true (ws_app_editor_page_drop_operation (f->page, "p0", 0, "kernel"));
  gtk_drop_down_set_selected (GTK_DROP_DOWN (ws_app_editor_page_get_widget (f->page, "p0/0:mode")), 1);
  drain ();
  g_assert_cmpstr (ws_app_editor_page_get_problem (f->page, "p0/0:trace"), ==, "Required: choose a profiled trace");
  g_assert_false (ws_app_editor_page_save (f->page));
  trace = ws_app_editor_page_get_widget (f->page, "p0/0:trace");
  items = gtk_drop_down_get_model (GTK_DROP_DOWN (trace));
  for (guint i = 0; i < g_list_model_get_n_items (items); i++)
    if (g_str_equal (gtk_string_list_get_string (GTK_STRING_LIST (items), i), base))
      gtk_drop_down_set_selected (GTK_DROP_DOWN (trace), i);
  drain ();
  g_assert_null (ws_app_editor_page_get_problem (f->page, "p0/0:trace"));
  g_assert_true (GTK_IS_DROP_DOWN (ws_app_editor_page_get_widget (f->page, "p0/0:launch")));
  g_assert_true (ws_app_editor_page_save (f->page));
  {
    g_autoptr (JsonNode) mine = stored_json (f, ws_app_editor_page_get_doc (f->page)->name);
    JsonObject *op = json_array_get_object_element (
      json_object_get_array_member (
        json_array_get_object_element (json_object_get_array_member (json_node_get_object (mine), "processes"), 0),
        "operations"),
      0);
    g_assert_cmpstr (json_object_get_string_member (op, "trace"), ==, json_object_get_string_member (kernel, "trace"));
    g_assert_cmpstr (json_object_get_string_member (op, "launch"), ==, "0");
    g_assert_false (json_object_has_member (op, "analytic"));
  }
}

/* Operation 3 of the first process. */
static JsonNode *
kernel_of (JsonNode *record)
{
  JsonObject *proc = json_array_get_object_element (
    json_object_get_array_member (json_node_get_object (record), "processes"), 0);

  return json_array_get_element (json_object_get_array_member (proc, "operations"), 2);
}

/* The demo's saxpy2-profiled: a kernel profiled on demand from a program
 * with arguments built from the variables.  Shown as such, saved back
 * unchanged, and a wrong {EXPR} in the arguments is caught live. */
static void
test_program_kernel (Fixture *f, gconstpointer data)
{
  g_autoptr (JsonNode) stored = NULL, shown = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (WsAppModel) app = NULL;
  const char *problem;
  JsonObject *kernel;

  if (!have_display)
    {
      g_test_skip ("no display (run under xvfb-run)");
      return;
    }
  app = ws_system_store_get_app (f->store, "saxpy2-profiled", &error);
  if (app == NULL)
    {
      g_test_skip ("examples/saxpy2 was not built (no CUDA): no saxpy2-profiled in the demo");
      return;
    }
  g_assert_true (ws_app_editor_page_open (f->page, "saxpy2-profiled"));
  drain ();
  stored = stored_json (f, "saxpy2-profiled");
  kernel = json_array_get_object_element (
    json_object_get_array_member (
      json_array_get_object_element (json_object_get_array_member (json_node_get_object (stored), "processes"), 0),
      "operations"),
    2);
  g_assert_cmpuint (gtk_drop_down_get_selected (GTK_DROP_DOWN (ws_app_editor_page_get_widget (f->page, "p0/2:mode"))),
                    ==, 2);
  g_assert_cmpstr (text_of (f, "p0/2:program"), ==, json_object_get_string_member (kernel, "program"));
  g_assert_cmpstr (text_of (f, "p0/2:args"), ==, "{N} {computeIntensity} {blockSize}");
  g_assert_null (ws_app_editor_page_get_problem (f->page, "p0/2:program"));
  g_assert_null (ws_app_editor_page_get_problem (f->page, "p0/2:args"));
  /* What the page would save is what is stored (the kernel exactly; a
   * count the store keeps as a number the editor writes as text). */
  shown = ws_app_doc_to_json (ws_app_editor_page_get_doc (f->page));
  g_assert_true (json_node_equal (kernel_of (shown), kernel_of (stored)));

  /* A misspelt variable inside {…} is caught as typed, and not saved. */
  type_into (f, "p0/2:args", "{N} {computeIntensity} {blockSz}");
  drain ();
  problem = ws_app_editor_page_get_problem (f->page, "p0/2:args");
  g_assert_nonnull (problem);
  g_assert_nonnull (strstr (problem, "Argument 3"));
  g_assert_nonnull (strstr (problem, "blockSize")); /* the suggestion */
  g_assert_false (ws_app_editor_page_save (f->page));
  g_clear_pointer (&stored, json_node_unref);
  stored = stored_json (f, "saxpy2-profiled");
  g_assert_true (json_node_equal (kernel_of (shown), kernel_of (stored))); /* the store kept the valid model */
  /* Quoting survives the round trip: one argument with a space. */
  type_into (f, "p0/2:args", "{N} '16 x' {blockSize}");
  drain ();
  g_assert_null (ws_app_editor_page_get_problem (f->page, "p0/2:args"));
  g_clear_pointer (&shown, json_node_unref);
  shown = ws_app_doc_to_json (ws_app_editor_page_get_doc (f->page));
  kernel = json_array_get_object_element (
    json_object_get_array_member (
      json_array_get_object_element (json_object_get_array_member (json_node_get_object (shown), "processes"), 0),
      "operations"),
    2);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (kernel, "args")), ==, 3);
  g_assert_cmpstr (json_array_get_string_element (json_object_get_array_member (kernel, "args"), 1), ==, "16 x");
  /* A program that does not exist. */
  type_into (f, "p0/2:program", "/nonexistent/saxpy2");
  drain ();
  g_assert_nonnull (strstr (ws_app_editor_page_get_problem (f->page, "p0/2:program"), "/nonexistent/saxpy2"));
}

/* Delete: the model and its draft leave the store, the list and the
 * Simulations page, which keeps the user's other choices. */
static void
test_delete (Fixture *f, gconstpointer data)
{
  WsSimulationsPage *sims;
  g_autoptr (GError) error = NULL;
  g_autofree char *name = NULL, *draft_name = NULL;
  g_autoptr (WsAppModel) gone = NULL;

  if (!have_display)
    {
      g_test_skip ("no display (run under xvfb-run)");
      return;
    }
  sims = WS_SIMULATIONS_PAGE (gtk_stack_get_child_by_name (ws_window_get_stack (f->window), "simulations"));
  name = g_strdup (ws_app_editor_page_new_app (f->page));
  g_assert_true (ws_app_editor_page_save (f->page));
  drain ();
  g_assert_true (ws_simulations_page_select_app (sims, name));
  g_assert_true (ws_simulations_page_select_system (sims, "testbed-titanx"));
  g_assert_cmpstr (ws_simulations_page_get_app (sims), ==, name);

  g_assert_true (ws_app_editor_page_delete (f->page, &error));
  g_assert_no_error (error);
  drain ();
  gone = ws_system_store_get_app (f->store, name, &error);
  g_assert_null (gone);
  g_assert_error (error, WS_ERROR, WS_ERROR_NOT_FOUND);
  g_clear_error (&error);
  g_assert_false (ws_app_doc_has_draft (f->store, name));
  g_assert_false (ws_simulations_page_select_app (sims, name));
  /* The page opened another model; the Simulations page kept its system. */
  g_assert_cmpstr (ws_simulations_page_get_system (sims), ==, "testbed-titanx");
  g_assert_nonnull (ws_app_editor_page_get_doc (f->page));
  g_assert_cmpstr (ws_app_editor_page_get_doc (f->page)->name, !=, name);

  /* A model that exists only as a draft (never valid) is deleted too. */
  draft_name = g_strdup (ws_app_editor_page_new_app (f->page));
  g_assert_true (ws_app_editor_page_drop_operation (f->page, "p0", 0, "h2d"));
  drain ();
  type_into (f, "p0/0:bytes", "4*(N");
  g_assert_false (ws_app_editor_page_save (f->page));
  g_assert_true (ws_app_doc_has_draft (f->store, draft_name));
  g_assert_true (ws_app_editor_page_delete (f->page, &error));
  g_assert_no_error (error);
  g_assert_false (ws_app_doc_has_draft (f->store, draft_name));
  {
    g_auto (GStrv) names = ws_app_doc_list (f->store, &error);
    g_assert_false (g_strv_contains ((const char *const *) names, draft_name));
  }
}

/* Renaming moves the model: the old name leaves the store and the list;
 * undo and redo move it back and forth. */
static void
test_rename (Fixture *f, gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *old_name = NULL;
  GtkWidget *row;
  WsUndoStack *undo;
  g_auto (GStrv) after = NULL, undone = NULL;

  if (!have_display)
    {
      g_test_skip ("no display (run under xvfb-run)");
      return;
    }
  undo = ws_window_get_undo_stack (f->window);
  old_name = g_strdup (ws_app_editor_page_new_app (f->page));
  g_assert_true (ws_app_editor_page_save (f->page));
  drain ();
  row = ws_app_editor_page_get_widget (f->page, "name");
  gtk_editable_set_text (GTK_EDITABLE (row), "renamed-app");
  g_signal_emit_by_name (row, "apply");
  drain ();
  g_assert_cmpstr (ws_app_editor_page_get_doc (f->page)->name, ==, "renamed-app");
  after = ws_system_store_list_apps (f->store, &error);
  g_assert_true (g_strv_contains ((const char *const *) after, "renamed-app"));
  g_assert_false (g_strv_contains ((const char *const *) after, old_name));

  g_assert_true (ws_undo_stack_undo (undo, &error));
  g_assert_no_error (error);
  drain ();
  undone = ws_system_store_list_apps (f->store, &error);
  g_assert_true (g_strv_contains ((const char *const *) undone, old_name));
  g_assert_false (g_strv_contains ((const char *const *) undone, "renamed-app"));
  g_assert_cmpstr (ws_app_editor_page_get_doc (f->page)->name, ==, old_name);
  g_assert_true (ws_undo_stack_redo (undo, &error));
  drain ();
  g_clear_pointer (&after, g_strfreev);
  after = ws_system_store_list_apps (f->store, &error);
  g_assert_true (g_strv_contains ((const char *const *) after, "renamed-app"));
  g_assert_false (g_strv_contains ((const char *const *) after, old_name));

  /* A name in use is refused in place. */
  gtk_editable_set_text (GTK_EDITABLE (row), "saxpy2-analytic");
  g_signal_emit_by_name (row, "apply");
  drain ();
  g_assert_cmpstr (ws_app_editor_page_get_doc (f->page)->name, ==, "renamed-app");
  g_assert_nonnull (ws_app_editor_page_get_problem (f->page, "name"));
}

/* The editor's fields are core's schema (system/ws-app-schema.h): for
 * every operation kind and every kernel kind the row shows one input per
 * schema field, in the schema's order, titled with its label (" *" when
 * required), its tooltip naming the JSON key, and no other input; the
 * kernel's mode choice lists the schema's kernel kinds.  So a field added
 * to core's table appears here.  What the editor writes puts each field
 * where the core reads it (an analytic parameter in "analytic"). */
static void
test_fields_are_core_schema (Fixture *f, gconstpointer data)
{
  g_autoptr (WsAppDoc) doc = ws_app_doc_new ("schema-fields");
  g_autoptr (GError) error = NULL;
  g_autoptr (GArray) kernels = g_array_new (FALSE, FALSE, sizeof (WsAppKernelKind));
  g_autoptr (JsonNode) shown = NULL;
  guint n_ops, n_kernels, analytic_index = G_MAXUINT;
  const WsAppOpKind *ops = ws_app_schema_op_kinds (&n_ops);
  const WsAppKernelKindInfo *kinds = ws_app_schema_kernel_kinds (&n_kernels);
  WsAppProc *proc;
  JsonArray *written;

  if (!have_display)
    {
      g_test_skip ("no display (run under xvfb-run)");
      return;
    }
  /* One operation of every kind, a kernel of every kernel kind. */
  proc = ws_app_doc_add_process (doc, "CPU", NULL);
  for (guint k = 0; k < n_ops; k++)
    for (guint kk = 0; kk < (g_str_equal (ops[k].name, "kernel") ? n_kernels : 1); kk++)
      {
        WsAppOp *op = ws_app_op_new (ops[k].name);
        WsAppKernelKind kernel = kk;

        op->profiled = kernel == WS_APP_KERNEL_PROFILED && g_str_equal (ops[k].name, "kernel");
        op->on_demand = kernel == WS_APP_KERNEL_PROGRAM && g_str_equal (ops[k].name, "kernel");
        g_assert_cmpint (ws_app_op_kernel_kind (op), ==, g_str_equal (ops[k].name, "kernel") ? kernel : 0);
        if (g_str_equal (ops[k].name, "kernel") && kernel == WS_APP_KERNEL_ANALYTIC)
          analytic_index = proc->ops->len;
        g_ptr_array_add (proc->ops, op);
        g_array_append_val (kernels, kernel);
      }
  g_assert_cmpuint (proc->ops->len, ==, n_ops + n_kernels - 1);
  g_assert_true (ws_app_doc_save (f->store, doc, NULL, NULL, &error)); /* a draft: fields are empty */
  g_assert_no_error (error);
  g_assert_true (ws_app_editor_page_open (f->page, "schema-fields"));
  drain ();
  g_assert_cmpuint (rows_in_list (f, "p0"), ==, proc->ops->len);

  for (guint i = 0; i < proc->ops->len; i++)
    {
      const WsAppOp *op = ws_app_doc_get_op (ws_app_editor_page_get_doc (f->page), "p0", i);
      WsAppKernelKind kernel = g_array_index (kernels, WsAppKernelKind, i);
      guint n, shown_n;
      const WsAppField *fields = ws_app_schema_fields (op->kind, kernel, &n);
      GtkWidget *flow = NULL;

      g_assert_nonnull (fields);
      g_assert_true (ws_app_op_fields (op, &shown_n) == fields);
      g_assert_cmpuint (shown_n, ==, n);
      for (guint j = 0; j < n; j++)
        {
          g_autofree char *key = g_strdup_printf ("p0/%u:%s", i, fields[j].key);
          GtkWidget *input = ws_app_editor_page_get_widget (f->page, key);
          GtkWidget *box, *child, *title;
          g_autofree char *expected = NULL;
          const char *label = ws_app_schema_text (fields[j].context, fields[j].label);

          if (input == NULL)
            g_error ("%s: the editor has no input for core's field %s of %s", key, fields[j].key, op->kind);
          box = gtk_widget_get_parent (input);
          child = gtk_widget_get_parent (box);
          g_assert_true (GTK_IS_FLOW_BOX_CHILD (child));
          g_assert_cmpint (gtk_flow_box_child_get_index (GTK_FLOW_BOX_CHILD (child)), ==, (int) j);
          flow = gtk_widget_get_parent (child);
          title = gtk_widget_get_first_child (box);
          g_assert_true (GTK_IS_LABEL (title));
          expected = fields[j].required ? g_strdup_printf ("%s *", label) : g_strdup (label);
          g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (title)), ==, expected);
          g_assert_true (g_str_has_prefix (gtk_widget_get_tooltip_text (input), fields[j].key));
        }
      /* Nothing besides core's fields. */
      if (flow != NULL)
        {
          guint children = 0;
          for (GtkWidget *c = gtk_widget_get_first_child (flow); c != NULL; c = gtk_widget_get_next_sibling (c))
            children += GTK_IS_FLOW_BOX_CHILD (c);
          g_assert_cmpuint (children, ==, n);
        }
      if (g_str_equal (op->kind, "kernel"))
        {
          g_autofree char *mode_key = g_strdup_printf ("p0/%u:mode", i);
          GtkDropDown *mode = GTK_DROP_DOWN (ws_app_editor_page_get_widget (f->page, mode_key));
          GListModel *items = gtk_drop_down_get_model (mode);

          g_assert_cmpuint (gtk_drop_down_get_selected (mode), ==, kernel);
          g_assert_cmpuint (g_list_model_get_n_items (items), ==, n_kernels);
          for (guint k = 0; k < n_kernels; k++)
            g_assert_cmpstr (gtk_string_list_get_string (GTK_STRING_LIST (items), k), ==,
                             ws_app_schema_text (kinds[k].context, kinds[k].label));
        }
    }

  /* Every analytic parameter typed: the record has each in "analytic". */
  g_assert_cmpuint (analytic_index, <, proc->ops->len);
  {
    guint n;
    const WsAppField *fields = ws_app_schema_fields ("kernel", WS_APP_KERNEL_ANALYTIC, &n);
    guint n_params, in_object = 0;
    JsonObject *kernel, *analytic;

    ws_analytic_params (&n_params);
    for (guint j = 0; j < n; j++)
      if (fields[j].type == WS_APP_FIELD_EXPR)
        {
          g_autofree char *key = g_strdup_printf ("p0/%u:%s", analytic_index, fields[j].key);
          type_into (f, key, "7");
        }
    drain ();
    shown = ws_app_doc_to_json (ws_app_editor_page_get_doc (f->page));
    written = json_object_get_array_member (
      json_array_get_object_element (json_object_get_array_member (json_node_get_object (shown), "processes"), 0),
      "operations");
    kernel = json_array_get_object_element (written, analytic_index);
    analytic = json_object_get_object_member (kernel, "analytic");
    g_assert_nonnull (analytic);
    for (guint j = 0; j < n; j++)
      {
        JsonObject *where = fields[j].object != NULL ? analytic : kernel;
        g_assert_cmpstr (fields[j].object, ==, ws_analytic_param_find (fields[j].key) != NULL ? "analytic" : NULL);
        if (fields[j].type != WS_APP_FIELD_EXPR)
          continue;
        g_assert_cmpstr (json_object_get_string_member (where, fields[j].key), ==, "7");
        in_object += fields[j].object != NULL;
      }
    g_assert_cmpuint (in_object, ==, n_params);
    g_assert_cmpuint (json_object_get_size (analytic), ==, n_params);
  }
}

int
main (int argc, char **argv)
{
  g_setenv ("GSETTINGS_BACKEND", "memory", TRUE);
  g_test_init (&argc, &argv, NULL);
  have_display = gtk_init_check ();
  if (have_display)
    adw_init ();

  g_test_add ("/gui/app-editor/opens-demo-analytic", Fixture, NULL, fixture_setup, test_opens_demo, fixture_teardown);
  g_test_add ("/gui/app-editor/build-drop-nest-validate-save-undo", Fixture, NULL, fixture_setup, test_build_new,
              fixture_teardown);
  g_test_add ("/gui/app-editor/profiled-kernel-trace-and-launch", Fixture, NULL, fixture_setup, test_profiled_kernel,
              fixture_teardown);
  g_test_add ("/gui/app-editor/program-kernel-args", Fixture, NULL, fixture_setup, test_program_kernel,
              fixture_teardown);
  g_test_add ("/gui/app-editor/rename-moves-model-undo", Fixture, NULL, fixture_setup, test_rename, fixture_teardown);
  g_test_add ("/gui/app-editor/delete-model-and-draft", Fixture, NULL, fixture_setup, test_delete, fixture_teardown);
  g_test_add ("/gui/app-editor/invalid-draft-reopened", Fixture, NULL, fixture_setup, test_draft_reopened,
              fixture_teardown);
  g_test_add ("/gui/app-editor/fields-are-core-schema", Fixture, NULL, fixture_setup, test_fields_are_core_schema,
              fixture_teardown);
  return g_test_run ();
}
