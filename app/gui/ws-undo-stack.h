/* ws-undo-stack.h: the window's command stack.  Every edit on every page is
 * a command that knows how to do and undo itself; the window's Ctrl+Z and
 * Ctrl+Shift+Z walk this one stack, so undo follows the order of edits. */
#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

typedef struct {
  char *label; /* translated, "Edit Core clock" */
  gpointer data;
  /* Both return FALSE with @error when the store refused the change. */
  gboolean (*redo) (gpointer data, GError **error);
  gboolean (*undo) (gpointer data, GError **error);
  GDestroyNotify free_data;
} WsCommand;

#define WS_TYPE_UNDO_STACK (ws_undo_stack_get_type ())
G_DECLARE_FINAL_TYPE (WsUndoStack, ws_undo_stack, WS, UNDO_STACK, GObject)

WsUndoStack *ws_undo_stack_new (void);
/* Runs @command's redo and, when it succeeds, pushes it (the stack takes
 * @command either way) and drops the redo history. */
gboolean ws_undo_stack_push (WsUndoStack *self, WsCommand *command, GError **error);
gboolean ws_undo_stack_undo (WsUndoStack *self, GError **error);
gboolean ws_undo_stack_redo (WsUndoStack *self, GError **error);
gboolean ws_undo_stack_can_undo (WsUndoStack *self);
gboolean ws_undo_stack_can_redo (WsUndoStack *self);
/* Label of the command Ctrl+Z (Ctrl+Shift+Z) would run, or NULL. */
const char *ws_undo_stack_get_undo_label (WsUndoStack *self);
const char *ws_undo_stack_get_redo_label (WsUndoStack *self);

void ws_command_free (WsCommand *command);

/* Makes @target show (and store) a document given as text. */
typedef gboolean (*WsApplyTextFunc) (gpointer target, const char *text, GError **error);
/* An edit of a document kept as two text snapshots: redo applies @after,
 * undo @before (both copied), with @apply on @target (borrowed: it must
 * outlive the history, as a page of the window does). */
WsCommand *ws_command_new_text_change (const char *label, gpointer target, WsApplyTextFunc apply, const char *before,
                                       const char *after);

G_END_DECLS
