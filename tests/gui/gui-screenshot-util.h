/* gui-screenshot-util.h: what the documentation screenshot programs share
 * (header only): letting the window settle, and rendering it to a PNG with
 * GTK's own renderer. */
#pragma once

#include <gtk/gtk.h>
#include "ws-window.h"
#include "system/ws-system.h"

static gboolean
screenshot_quit_loop (gpointer loop)
{
  g_main_loop_quit (loop);
  return G_SOURCE_REMOVE;
}

/* Runs the main loop for @ms milliseconds (layout, idle work, animations). */
static G_GNUC_UNUSED void
settle (guint ms)
{
  g_autoptr (GMainLoop) loop = g_main_loop_new (NULL, FALSE);

  g_timeout_add (ms, screenshot_quit_loop, loop);
  g_main_loop_run (loop);
}

/* Renders @window as it is on screen into @path; prints "PATH: W×H". */
static G_GNUC_UNUSED gboolean
save_window_png (GtkWidget *window, const char *path)
{
  int w = gtk_widget_get_width (window), h = gtk_widget_get_height (window);
  g_autoptr (GdkPaintable) paintable = gtk_widget_paintable_new (window);
  g_autoptr (GdkTexture) texture = NULL;
  GtkSnapshot *snapshot = gtk_snapshot_new ();
  GskRenderNode *node;

  gdk_paintable_snapshot (paintable, snapshot, w, h);
  node = gtk_snapshot_free_to_node (snapshot);
  texture = gsk_renderer_render_texture (gtk_native_get_renderer (GTK_NATIVE (window)), node,
                                         &GRAPHENE_RECT_INIT (0, 0, w, h));
  gsk_render_node_unref (node);
  if (!gdk_texture_save_to_png (texture, path))
    return FALSE;
  g_print ("%s: %d×%d\n", path, w, h);
  return TRUE;
}

/* The main window on @db after the demo workspace was created there (test
 * beds, saxpy2 models), shown at @width x @height and settled; NULL with a
 * message on stderr (prefixed by @program) when the store fails. */
static G_GNUC_UNUSED WsWindow *
open_demo_window (const char *program, const char *db, int width, int height)
{
  g_autoptr (GError) error = NULL;
  WsStore *store = ws_store_open (db, &error);
  WsWindow *window;

  if (store == NULL || !ws_system_store_ensure_demo (store, &error))
    {
      g_printerr ("%s: %s\n", program, error->message);
      g_clear_pointer (&store, ws_store_close);
      return NULL;
    }
  ws_store_close (store);
  window = ws_window_new (NULL, db);
  gtk_window_set_default_size (GTK_WINDOW (window), width, height);
  gtk_window_present (GTK_WINDOW (window));
  settle (500);
  return window;
}
