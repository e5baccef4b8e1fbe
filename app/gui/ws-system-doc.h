/* ws-system-doc.h: what the system designer edits: the components of one
 * system model (seed 004 Fig. 5.3) with where each is drawn.  A flat list of
 * nodes, each naming its parent machine, keeps every edit a small change and
 * every undo step a copy of the whole (small) document.
 *
 * The designer saves as the user works, including states the system model
 * rejects (a GPU just dropped has no host link yet): the document goes into
 * the store's `gui_system_design` table and, whenever it validates, also into
 * the system models through ws_system_store_put_system. */
#pragma once

#include "system/ws-system.h"

G_BEGIN_DECLS

#define WS_NODE_WIDTH 132.0
#define WS_NODE_HEIGHT 60.0
#define WS_LINK_WIDTH 150.0
#define WS_LINK_HEIGHT 24.0

typedef struct {
  WsComponentKind kind;
  char *name;
  char *hw; /* catalogue name; NULL for machines */
  int count;
  char *labels;    /* "GPU:1, CPU:2" (name:multiplicity) */
  char *from, *to; /* links only; NULL: not connected */
  char *parent;    /* machine name; NULL: top level */
  double x, y;     /* relative to the parent machine's origin */
} WsDesignNode;

typedef struct {
  char *name;
  char *description;
  GPtrArray *nodes; /* of WsDesignNode*, parents before children */
} WsSystemDoc;

typedef struct {
  char *node;    /* the component the problem is drawn on */
  char *message; /* translated */
} WsDesignProblem;

WsSystemDoc *ws_system_doc_new (const char *name);
void ws_system_doc_free (WsSystemDoc *doc);
WsSystemDoc *ws_system_doc_copy (const WsSystemDoc *doc);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsSystemDoc, ws_system_doc_free)

char *ws_system_doc_to_text (const WsSystemDoc *doc);
WsSystemDoc *ws_system_doc_from_text (const char *text, GError **error);
/* A stored model without a layout (CLI import, demo) gets one. */
WsSystemDoc *ws_system_doc_from_model (const WsSystemModel *model);
WsSystemModel *ws_system_doc_to_model (const WsSystemDoc *doc);

WsDesignNode *ws_system_doc_find (const WsSystemDoc *doc, const char *name);
/* "gpu", "gpu2", ...: a name no node has. */
char *ws_system_doc_unique_name (const WsSystemDoc *doc, const char *base);
WsDesignNode *ws_system_doc_add (WsSystemDoc *doc, WsComponentKind kind, const char *name, const char *hw,
                                 const char *parent, double x, double y);
/* Removes @name and everything inside it; links to it are kept, dangling. */
void ws_system_doc_remove (WsSystemDoc *doc, const char *name);
/* Renames and updates link ends and children's parent. */
void ws_system_doc_rename (WsSystemDoc *doc, const char *old_name, const char *new_name);
/* TRUE when @name is @ancestor or lies inside it. */
gboolean ws_system_doc_is_within (const WsSystemDoc *doc, const char *name, const char *ancestor);

/* Geometry in canvas coordinates. */
void ws_system_doc_node_origin (const WsSystemDoc *doc, const WsDesignNode *node, double *x, double *y);
void ws_system_doc_node_bounds (const WsSystemDoc *doc, const WsDesignNode *node, double *x, double *y, double *w,
                                double *h);
/* The deepest node under (@x, @y), links first; NULL for the background. */
WsDesignNode *ws_system_doc_hit (const WsSystemDoc *doc, double x, double y);
/* The deepest machine containing (@x, @y) other than @except and what it contains. */
WsDesignNode *ws_system_doc_machine_at (const WsSystemDoc *doc, double x, double y, const char *except);

/* Dangling links and GPUs without a host link, per node (of WsDesignProblem*). */
GPtrArray *ws_system_doc_problems (const WsSystemDoc *doc);
void ws_design_problem_free (WsDesignProblem *problem);

/* Store. */
gboolean ws_system_doc_save (WsStore *store, const WsSystemDoc *doc, gboolean *model_stored, GError **error);
WsSystemDoc *ws_system_doc_load (WsStore *store, const char *name, GError **error);
char **ws_system_doc_list (WsStore *store, GError **error);

G_END_DECLS
