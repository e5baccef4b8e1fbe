/* ws-signal-watch.c: SIGINT and SIGTERM as a cancellation, for long
 * command-line work (a `model run` sweep) that must store what it finished
 * and say that it was cancelled instead of dying with nothing recorded.
 *
 * GLib's unix signal sources on a context of their own, run by a thread of
 * their own: the work in progress needs no main loop, and no signal mask is
 * changed (programs started meanwhile, such as on-demand profiles, get the
 * usual one). */
#include <signal.h>
#include <unistd.h>
#include <glib-unix.h>
#include "system/ws-system.h"

struct _WsSignalWatch {
  GCancellable *cancellable;
  GMainContext *context;
  GMainLoop *loop;
  GThread *thread;
  GSource *sources[2];
  int signal; /* the first signal received, 0: none (atomic) */
};

typedef struct {
  WsSignalWatch *watch;
  int signum;
} Handler;

static gboolean
on_signal (gpointer data)
{
  Handler *h = data;
  if (g_atomic_int_compare_and_exchange (&h->watch->signal, 0, h->signum))
    {
      g_cancellable_cancel (h->watch->cancellable);
      return G_SOURCE_CONTINUE;
    }
  /* A second one: the user does not want to wait for the points in
   * progress; end as the signal would have. */
  signal (h->signum, SIG_DFL);
  kill (getpid (), h->signum);
  return G_SOURCE_CONTINUE;
}

static gboolean
quit_loop (gpointer data)
{
  g_main_loop_quit (data);
  return G_SOURCE_REMOVE;
}

static gpointer
watch_thread (gpointer data)
{
  WsSignalWatch *w = data;
  g_main_context_push_thread_default (w->context);
  g_main_loop_run (w->loop);
  g_main_context_pop_thread_default (w->context);
  return NULL;
}

WsSignalWatch *
ws_signal_watch_new (GCancellable *cancellable)
{
  g_return_val_if_fail (G_IS_CANCELLABLE (cancellable), NULL);
  WsSignalWatch *w = g_new0 (WsSignalWatch, 1);
  static const int signals[2] = { SIGINT, SIGTERM };
  w->cancellable = g_object_ref (cancellable);
  w->context = g_main_context_new ();
  w->loop = g_main_loop_new (w->context, FALSE);
  for (guint i = 0; i < G_N_ELEMENTS (signals); i++)
    {
      Handler *h = g_new (Handler, 1);
      h->watch = w;
      h->signum = signals[i];
      w->sources[i] = g_unix_signal_source_new (signals[i]);
      g_source_set_callback (w->sources[i], on_signal, h, g_free);
      g_source_attach (w->sources[i], w->context);
    }
  w->thread = g_thread_new ("ws-signal-watch", watch_thread, w);
  return w;
}

int
ws_signal_watch_get_signal (WsSignalWatch *watch)
{
  g_return_val_if_fail (watch != NULL, 0);
  return g_atomic_int_get (&watch->signal);
}

void
ws_signal_watch_free (WsSignalWatch *watch)
{
  if (watch == NULL)
    return;
  /* (through the context: a quit before the loop runs would be lost) */
  g_main_context_invoke (watch->context, quit_loop, watch->loop);
  g_thread_join (watch->thread);
  /* (the last source of a signal gives it back its default action) */
  for (guint i = 0; i < G_N_ELEMENTS (watch->sources); i++)
    {
      g_source_destroy (watch->sources[i]);
      g_source_unref (watch->sources[i]);
    }
  g_main_loop_unref (watch->loop);
  g_main_context_unref (watch->context);
  g_object_unref (watch->cancellable);
  g_free (watch);
}
