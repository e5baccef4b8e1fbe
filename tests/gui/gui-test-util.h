/* gui-test-util.h: main-loop helpers shared by the GUI tests (header only). */
#pragma once

#include <glib.h>
#include <glib/gstdio.h>
#include <gtk/gtk.h>

#include "ws-run-queue.h"

/* Set by each test's main(): whether a display could be opened. */
static gboolean have_display;

/* clang-format off */
#define SKIP_WITHOUT_DISPLAY()                                   \
  G_STMT_START {                                                 \
    if (!have_display)                                           \
      {                                                          \
        g_test_skip ("no display (run under xvfb-run)");         \
        return;                                                  \
      }                                                          \
  } G_STMT_END
/* clang-format on */


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
  g_autoptr (GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);
      remove_tree (child);
    }
  g_remove (path);
}

static G_GNUC_UNUSED gboolean
is_allocated (gpointer widget)
{
  return gtk_widget_get_mapped (GTK_WIDGET (widget)) && gtk_widget_get_width (GTK_WIDGET (widget)) > 100;
}

/* @child in a window of its own, shown and allocated. */
static G_GNUC_UNUSED GtkWindow *
show_in_window (GtkWidget *child, int width, int height)
{
  GtkWindow *window = GTK_WINDOW (gtk_window_new ());

  gtk_window_set_default_size (window, width, height);
  gtk_window_set_child (window, child);
  gtk_window_present (window);
  g_assert_true (iterate_until (is_allocated, child, 10000));
  drain ();
  return window;
}

/* A queued run of a WsRunQueue, for iterate_until (run_finished, ...). */
typedef struct {
  WsRunQueue *queue;
  guint index;
} RunWait;

static G_GNUC_UNUSED gboolean
run_finished (gpointer data)
{
  RunWait *w = data;
  const WsRun *run = ws_run_queue_get_run (w->queue, w->index);

  return run != NULL && (run->state == WS_RUN_DONE || run->state == WS_RUN_FAILED || run->state == WS_RUN_CANCELLED);
}
