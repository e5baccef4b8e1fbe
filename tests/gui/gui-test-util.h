/* gui-test-util.h: main-loop helpers shared by the GUI tests (header only). */
#pragma once

#include <glib.h>
#include <glib/gstdio.h>
#include <gtk/gtk.h>

static gboolean
gui_test_timeout_cb (gpointer user_data)
{
  *(gboolean *) user_data = TRUE;
  return G_SOURCE_REMOVE;
}

/* Runs the main loop until @done (@data) or @ms milliseconds; returns @done's value. */
static G_GNUC_UNUSED gboolean
iterate_until (gboolean (*done) (gpointer), gpointer data, guint ms)
{
  gboolean timed_out = FALSE;
  guint id = g_timeout_add (ms, gui_test_timeout_cb, &timed_out);

  while (!done (data) && !timed_out)
    g_main_context_iteration (NULL, TRUE);
  if (!timed_out)
    g_source_remove (id);
  return done (data);
}

/* Dispatches everything pending, without blocking. */
static G_GNUC_UNUSED void
drain (void)
{
  while (g_main_context_iteration (NULL, FALSE))
    ;
}

static G_GNUC_UNUSED gboolean
is_mapped (gpointer widget)
{
  return gtk_widget_get_mapped (GTK_WIDGET (widget));
}

/* Deletes a temporary folder and everything in it. */
static G_GNUC_UNUSED void
remove_tree (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);
      remove_tree (child);
    }
  g_remove (path);
}
