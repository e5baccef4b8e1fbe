/* ws-undo-stack.c: a linear undo/redo history of WsCommand. */
#define G_LOG_DOMAIN "ws-undo-stack"

#include "ws-undo-stack.h"

struct _WsUndoStack {
  GObject parent_instance;

  GPtrArray *done;   /* of WsCommand*, oldest first */
  GPtrArray *undone; /* of WsCommand*, the next redo last */
};

G_DEFINE_FINAL_TYPE (WsUndoStack, ws_undo_stack, G_TYPE_OBJECT)

enum { CHANGED, N_SIGNALS };
static guint signals[N_SIGNALS];

void
ws_command_free (WsCommand *command)
{
  if (command == NULL)
    return;
  if (command->free_data != NULL)
    command->free_data (command->data);
  g_free (command->label);
  g_free (command);
}

typedef struct {
  gpointer target;
  WsApplyTextFunc apply;
  char *before, *after;
} TextChange;

static void
text_change_free (TextChange *change)
{
  g_free (change->before);
  g_free (change->after);
  g_free (change);
}

static gboolean
text_change_redo (gpointer data, GError **error)
{
  TextChange *change = data;
  return change->apply (change->target, change->after, error);
}

static gboolean
text_change_undo (gpointer data, GError **error)
{
  TextChange *change = data;
  return change->apply (change->target, change->before, error);
}

WsCommand *
ws_command_new_text_change (const char *label, gpointer target, WsApplyTextFunc apply, const char *before,
                            const char *after)
{
  WsCommand *command = g_new0 (WsCommand, 1);
  TextChange *change = g_new0 (TextChange, 1);

  change->target = target;
  change->apply = apply;
  change->before = g_strdup (before);
  change->after = g_strdup (after);
  command->label = g_strdup (label);
  command->data = change;
  command->redo = text_change_redo;
  command->undo = text_change_undo;
  command->free_data = (GDestroyNotify) text_change_free;
  return command;
}

static void
ws_undo_stack_finalize (GObject *object)
{
  WsUndoStack *self = WS_UNDO_STACK (object);

  g_ptr_array_unref (self->done);
  g_ptr_array_unref (self->undone);
  G_OBJECT_CLASS (ws_undo_stack_parent_class)->finalize (object);
}

static void
ws_undo_stack_class_init (WsUndoStackClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = ws_undo_stack_finalize;

  /* Emitted after every push, undo and redo: actions update their state. */
  signals[CHANGED] = g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                   G_TYPE_NONE, 0);
}

static void
ws_undo_stack_init (WsUndoStack *self)
{
  self->done = g_ptr_array_new_with_free_func ((GDestroyNotify) ws_command_free);
  self->undone = g_ptr_array_new_with_free_func ((GDestroyNotify) ws_command_free);
}

WsUndoStack *
ws_undo_stack_new (void)
{
  return g_object_new (WS_TYPE_UNDO_STACK, NULL);
}

gboolean
ws_undo_stack_push (WsUndoStack *self, WsCommand *command, GError **error)
{
  g_return_val_if_fail (WS_IS_UNDO_STACK (self), FALSE);
  g_return_val_if_fail (command != NULL, FALSE);

  if (!command->redo (command->data, error))
    {
      ws_command_free (command);
      return FALSE;
    }
  g_ptr_array_add (self->done, command);
  g_ptr_array_set_size (self->undone, 0);
  g_signal_emit (self, signals[CHANGED], 0);
  return TRUE;
}

gboolean
ws_undo_stack_undo (WsUndoStack *self, GError **error)
{
  WsCommand *command;

  g_return_val_if_fail (WS_IS_UNDO_STACK (self), FALSE);
  if (self->done->len == 0)
    return TRUE;
  command = self->done->pdata[self->done->len - 1];
  /* A command that cannot be undone (the store refused) stays where it is,
   * so the history still matches what is stored. */
  if (!command->undo (command->data, error))
    return FALSE;
  g_ptr_array_add (self->undone, g_ptr_array_steal_index (self->done, self->done->len - 1));
  g_signal_emit (self, signals[CHANGED], 0);
  return TRUE;
}

gboolean
ws_undo_stack_redo (WsUndoStack *self, GError **error)
{
  WsCommand *command;

  g_return_val_if_fail (WS_IS_UNDO_STACK (self), FALSE);
  if (self->undone->len == 0)
    return TRUE;
  command = self->undone->pdata[self->undone->len - 1];
  if (!command->redo (command->data, error))
    return FALSE;
  g_ptr_array_add (self->done, g_ptr_array_steal_index (self->undone, self->undone->len - 1));
  g_signal_emit (self, signals[CHANGED], 0);
  return TRUE;
}

gboolean
ws_undo_stack_can_undo (WsUndoStack *self)
{
  return self->done->len > 0;
}

gboolean
ws_undo_stack_can_redo (WsUndoStack *self)
{
  return self->undone->len > 0;
}

const char *
ws_undo_stack_get_undo_label (WsUndoStack *self)
{
  return self->done->len ? ((WsCommand *) self->done->pdata[self->done->len - 1])->label : NULL;
}

const char *
ws_undo_stack_get_redo_label (WsUndoStack *self)
{
  return self->undone->len ? ((WsCommand *) self->undone->pdata[self->undone->len - 1])->label : NULL;
}
