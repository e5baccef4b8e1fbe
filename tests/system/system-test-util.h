/* Helpers shared by the system-modelling tests: a temporary workspace (a
 * store with the demo models in a fresh folder), its removal, JSON text. */
#pragma once

#include "system/ws-system.h"

#include <glib/gstdio.h>

/* A fresh folder (*dir, newly allocated) with a store t.db holding the demo workspace. */
static inline WsStore *
system_test_workspace (char **dir)
{
  g_autoptr (GError) error = NULL;
  *dir = g_dir_make_tmp ("ws-system-XXXXXX", &error);
  g_assert_no_error (error);
  g_autofree char *db = g_build_filename (*dir, "t.db", NULL);
  WsStore *store = ws_store_open (db, &error);
  g_assert_no_error (error);
  g_assert_true (ws_system_store_ensure_demo (store, &error));
  g_assert_no_error (error);
  return store;
}

static inline void
system_test_rm_rf (const char *path)
{
  GDir *d = g_dir_open (path, 0, NULL);
  if (d != NULL)
    {
      const char *n;
      while ((n = g_dir_read_name (d)) != NULL)
        {
          g_autofree char *p = g_build_filename (path, n, NULL);
          system_test_rm_rf (p);
        }
      g_dir_close (d);
    }
  g_remove (path);
}

static inline JsonNode *
system_test_parse (const char *text)
{
  g_autoptr (JsonParser) p = json_parser_new ();
  g_autoptr (GError) error = NULL;
  json_parser_load_from_data (p, text, -1, &error);
  g_assert_no_error (error);
  return json_node_copy (json_parser_get_root (p));
}
