/* The application-model schema (core/system/ws-app-schema.c) is what the
 * core reads: every field of every operation and kernel kind is accepted
 * where the schema puts it and nothing else is; an analytic kernel's
 * parameters are core/predict's one table, in application models and in
 * `predict --analytic` files alike. */
#include "system/ws-system.h"
#include "system/ws-app-schema.h"
#include "predict/ws-predict.h"
#include "system-test-util.h"
#include "../test-tmp-dir.h"

#include <math.h>
#include <string.h>

/* A value of the right type for @f, as the JSON member text. */
static const char *
sample_value (const WsAppField *f)
{
  switch (f->type)
    {
    case WS_APP_FIELD_EXPR: return "\"1\"";
    case WS_APP_FIELD_TEXT: return "\"k\"";
    case WS_APP_FIELD_IDENT: return "\"i\"";
    case WS_APP_FIELD_LABEL: return "\"CPU\"";
    case WS_APP_FIELD_LABELS: return "[\"CPU\"]";
    case WS_APP_FIELD_TRACE: return "\"k.wstrace\"";
    case WS_APP_FIELD_PROGRAM: return "\"/bin/true\"";
    case WS_APP_FIELD_ARGS: return "[\"{1}\", 2]";
    }
  g_assert_not_reached ();
}

static void
gstring_free (gpointer s)
{
  g_string_free (s, TRUE);
}

/* An application whose one process runs one operation of kind @op (a
 * kernel of kind @kernel): the schema's required fields, plus @extra_key
 * when not NULL (a field of the schema, or any member name), plus an
 * unknown member @bogus (in the record, or in its member object
 * @bogus_object). */
static char *
record (const char *op, WsAppKernelKind kernel, const char *extra_key, const char *bogus, const char *bogus_object)
{
  guint n, n_kinds;
  const WsAppField *fields = ws_app_schema_fields (op, kernel, &n);
  const WsAppOpKind *info = ws_app_schema_op_kind_find (op);
  const WsAppKernelKindInfo *kinds = ws_app_schema_kernel_kinds (&n_kinds);
  g_autoptr (GString) top = g_string_new (NULL);
  g_autoptr (GHashTable) objects = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, gstring_free);

  g_string_append_printf (top, "{\"op\": \"%s\"", op);
  if (g_str_equal (op, "kernel") && kinds[kernel].marker != NULL)
    {
      /* The marker is a field of the kind or its member object. */
      gboolean is_object = FALSE;
      for (guint i = 0; i < n; i++)
        is_object |= g_strcmp0 (fields[i].object, kinds[kernel].marker) == 0;
      if (is_object)
        g_hash_table_insert (objects, (gpointer) kinds[kernel].marker, g_string_new (NULL));
    }
  for (guint i = 0; i < n; i++)
    {
      GString *to = top;

      if (!fields[i].required && g_strcmp0 (fields[i].key, extra_key) != 0)
        continue;
      if (fields[i].object != NULL)
        {
          to = g_hash_table_lookup (objects, fields[i].object);
          if (to == NULL)
            g_hash_table_insert (objects, (gpointer) fields[i].object, (to = g_string_new (NULL)));
        }
      g_string_append_printf (to, "%s\"%s\": %s", to == top || to->len > 0 ? ", " : "", fields[i].key,
                              sample_value (&fields[i]));
    }
  if (bogus != NULL && bogus_object != NULL)
    {
      GString *to = g_hash_table_lookup (objects, bogus_object);
      g_assert_nonnull (to);
      g_string_append_printf (to, "%s\"%s\": \"1\"", to->len > 0 ? ", " : "", bogus);
    }
  else if (bogus != NULL)
    g_string_append_printf (top, ", \"%s\": \"1\"", bogus);
  {
    GHashTableIter it;
    gpointer key, value;
    g_hash_table_iter_init (&it, objects);
    while (g_hash_table_iter_next (&it, &key, &value))
      g_string_append_printf (top, ", \"%s\": {%s}", (const char *) key, ((GString *) value)->str);
  }
  if (info->body != NULL)
    g_string_append_printf (top, ", \"%s\": []", info->body);
  if (info->else_body != NULL)
    g_string_append_printf (top, ", \"%s\": []", info->else_body);
  g_string_append (top, "}");
  return g_strdup_printf ("{\"kind\": \"application\", \"name\": \"s\", \"processes\": [{\"label\": \"CPU\", "
                          "\"operations\": [%s]}]}",
                          top->str);
}

static WsAppModel *
read_record (const char *text, GError **error)
{
  g_autoptr (JsonNode) node = system_test_parse (text);
  return ws_app_model_from_json (node, error);
}

/* Every kind, every field: a record with the required fields and that one
 * optional field is read (so the reader knows where each schema row goes),
 * and with an unknown member it is refused naming that member. */
static void
test_every_field_read (void)
{
  guint n_ops, n_kernels;
  const WsAppOpKind *ops = ws_app_schema_op_kinds (&n_ops);

  ws_app_schema_kernel_kinds (&n_kernels);
  g_assert_cmpuint (n_ops, ==, 10);
  g_assert_cmpuint (n_kernels, ==, 3);
  for (guint k = 0; k < n_ops; k++)
    for (guint kk = 0; kk < (g_str_equal (ops[k].name, "kernel") ? n_kernels : 1); kk++)
      {
        guint n;
        const WsAppField *fields = ws_app_schema_fields (ops[k].name, kk, &n);

        g_assert_nonnull (fields);
        for (guint i = 0; i <= n; i++)
          {
            /* i == n: the required fields alone (host needs one of two). */
            const char *extra = i < n ? fields[i].key : NULL;
            g_autofree char *text = record (ops[k].name, kk, extra, NULL, NULL);
            g_autoptr (GError) error = NULL;
            g_autoptr (WsAppModel) app = read_record (text, &error);

            if (g_str_equal (ops[k].name, "host") && extra == NULL)
              {
                g_assert_error (error, WS_ERROR, WS_ERROR_INVALID);
                g_assert_nonnull (strstr (error->message, "either 'seconds' or 'operations'"));
                continue;
              }
            if (error != NULL)
              g_error ("%s: %s", text, error->message);
            g_assert_nonnull (app);
          }
        {
          g_autofree char *text = record (ops[k].name, kk, g_str_equal (ops[k].name, "host") ? "seconds" : NULL,
                                          "bogus_member", NULL);
          g_autoptr (GError) error = NULL;
          g_autoptr (WsAppModel) app = read_record (text, &error);

          g_assert_null (app);
          g_assert_error (error, WS_ERROR, WS_ERROR_INVALID);
          g_assert_nonnull (strstr (error->message, "unknown field 'bogus_member'"));
        }
      }
  /* An unknown kind lists the schema's kinds. */
  {
    g_autoptr (GError) error = NULL;
    g_autoptr (WsAppModel) app = read_record ("{\"kind\": \"application\", \"name\": \"s\", \"processes\": "
                                              "[{\"label\": \"CPU\", \"operations\": [{\"op\": \"lop\"}]}]}",
                                              &error);
    g_autofree char *all = g_strjoinv (", ", (char **) ws_app_schema_op_names ());

    g_assert_null (app);
    g_assert_nonnull (strstr (error->message, "unknown operation 'lop' (did you mean loop?)"));
    g_assert_nonnull (strstr (error->message, all));
  }
}

/* The analytic kernel's "analytic" rows are core/predict's parameters, row
 * for row: one table, not a copy. */
static void
test_analytic_rows_are_predict_params (void)
{
  guint n_fields, n_params, seen = 0;
  const WsAppField *fields = ws_app_schema_fields ("kernel", WS_APP_KERNEL_ANALYTIC, &n_fields);
  const WsAnalyticParam *params = ws_analytic_params (&n_params);

  g_assert_cmpuint (n_params, >=, 8);
  for (guint i = 0; i < n_fields; i++)
    {
      if (fields[i].object == NULL)
        continue;
      g_assert_cmpstr (fields[i].object, ==, "analytic");
      g_assert_cmpuint (seen, <, n_params);
      g_assert_true (fields[i].key == params[seen].key);
      g_assert_true (fields[i].label == params[seen].label);
      g_assert_true (fields[i].help == params[seen].help);
      g_assert_cmpint (fields[i].required, ==, params[seen].required);
      g_assert_cmpfloat (fields[i].min, ==, params[seen].min);
      g_assert_cmpfloat (fields[i].max, ==, params[seen].max);
      g_assert_cmpint (fields[i].type, ==, WS_APP_FIELD_EXPR);
      g_assert_true (ws_analytic_param_find (fields[i].key) == &params[seen]);
      seen++;
    }
  g_assert_cmpuint (seen, ==, n_params);
  g_assert_true (ws_analytic_param_find ("grid_size")->required);
  g_assert_null (ws_analytic_param_find ("grid"));
}

/* An unknown parameter is refused, named, by both readers of analytic
 * kernels (application models and `predict --analytic` files), and every
 * parameter of the table is accepted by both. */
static void
test_unknown_analytic_field_named (void)
{
  g_autofree char *dir = make_tmp_dir ("ws-app-schema-XXXXXX");
  guint n_params;
  const WsAnalyticParam *params = ws_analytic_params (&n_params);
  g_autoptr (GString) every = g_string_new ("{\"name\": \"every\"");
  g_autoptr (GString) every_expr = g_string_new (NULL);
  g_autofree char *path = g_build_filename (dir, "kernel.json", NULL);

  for (guint i = 0; i < n_params; i++)
    {
      double v = isinf (params[i].min) ? 0 : params[i].min;
      char buf[G_ASCII_DTOSTR_BUF_SIZE];

      g_ascii_dtostr (buf, sizeof buf, v);
      g_string_append_printf (every, ", \"%s\": %s", params[i].key, buf);
      g_string_append_printf (every_expr, "%s\"%s\": \"%s\"", i > 0 ? ", " : "", params[i].key, buf);
    }
  g_string_append (every, "}");

  /* Every parameter: a file and an application model. */
  {
    g_autoptr (GError) error = NULL;
    g_assert_true (g_file_set_contents (path, every->str, -1, NULL));
    g_autoptr (WsAnalyticKernel) k = ws_analytic_kernel_load (path, &error);
    g_assert_no_error (error);
    for (guint i = 0; i < n_params; i++)
      {
        double v;
        g_assert_true (ws_analytic_kernel_get (k, params[i].key, &v));
      }
    g_autofree char *text = g_strdup_printf ("{\"kind\": \"application\", \"name\": \"s\", \"processes\": "
                                             "[{\"label\": \"CPU\", \"operations\": [{\"op\": \"kernel\", "
                                             "\"analytic\": {%s}}]}]}",
                                             every_expr->str);
    g_autoptr (WsAppModel) app = read_record (text, &error);
    g_assert_no_error (error);
    g_assert_nonnull (app);
  }

  /* Each parameter misspelt: refused, the misspelling named, the
   * parameter suggested. */
  for (guint i = 0; i < n_params; i++)
    {
      g_autofree char *typo = g_strconcat (params[i].key, "x", NULL);
      g_autofree char *named = g_strdup_printf ("unknown field '%s'", typo);
      g_autoptr (GError) error = NULL;
      g_autofree char *file = g_strdup_printf ("{\"grid_size\": 1, \"block_size\": 32, \"%s\": 1}", typo);

      g_assert_true (g_file_set_contents (path, file, -1, NULL));
      g_assert_null (ws_analytic_kernel_load (path, &error));
      g_assert_error (error, WS_ERROR, WS_ERROR_INVALID);
      g_assert_nonnull (strstr (error->message, named));
      g_assert_nonnull (strstr (error->message, params[i].key));
      g_clear_error (&error);

      g_autofree char *text = record ("kernel", WS_APP_KERNEL_ANALYTIC, NULL, typo, "analytic");
      g_autoptr (WsAppModel) app = read_record (text, &error);
      g_assert_null (app);
      g_assert_error (error, WS_ERROR, WS_ERROR_INVALID);
      g_assert_nonnull (strstr (error->message, named));
      g_assert_nonnull (strstr (error->message, "operation 1 (kernel)"));
    }

  /* Far from every name: the file's error lists the table's parameters. */
  {
    g_autoptr (GError) error = NULL;
    g_autofree char *all = ws_analytic_param_names ();
    g_assert_true (g_file_set_contents (path, "{\"grid_size\": 1, \"block_size\": 32, \"zzzzzzzz\": 1}", -1, NULL));
    g_assert_null (ws_analytic_kernel_load (path, &error));
    g_assert_nonnull (strstr (error->message, "unknown field 'zzzzzzzz'"));
    g_assert_nonnull (strstr (error->message, all));
  }

  /* A value out of a parameter's range, in both readers. */
  {
    g_autoptr (GError) error = NULL;
    g_assert_true (g_file_set_contents (path, "{\"grid_size\": 0, \"block_size\": 32}", -1, NULL));
    g_assert_null (ws_analytic_kernel_load (path, &error));
    g_assert_nonnull (strstr (error->message, "field 'grid_size' is 0; it must be at least 1"));
  }
  system_test_rm_rf (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/system/app-schema/every-field-of-every-kind-read", test_every_field_read);
  g_test_add_func ("/system/app-schema/analytic-rows-are-predict-params", test_analytic_rows_are_predict_params);
  g_test_add_func ("/system/app-schema/unknown-analytic-field-named-by-both-readers",
                   test_unknown_analytic_field_named);
  return g_test_run ();
}
