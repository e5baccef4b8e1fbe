/* ws-system-canvas.c: drawing and gestures of the system designer. */
#define G_LOG_DOMAIN "ws-system-canvas"

#include <glib/gi18n.h>
#include <math.h>

#include "ws-system-canvas.h"

#define HANDLE_RADIUS 7.0
#define KEY_STEP 10.0

typedef enum { DRAG_NONE, DRAG_MOVE, DRAG_CONNECT, DRAG_PAN } DragMode;

struct _WsSystemCanvas {
  GtkWidget parent_instance;

  const WsSystemDoc *doc;
  char *doc_name;       /* the system last shown, to fit a newly opened one */
  gboolean fit_pending; /* opened before the canvas had a size */
  GPtrArray *problems;  /* of WsDesignProblem*, owned */
  char *selected;
  char *connect_source;
  double zoom;
  double pan_x, pan_y; /* widget offset of document (0, 0) */

  DragMode drag_mode;
  char *drag_node;
  double drag_start_x, drag_start_y; /* document units */
  double drag_node_x, drag_node_y;   /* node origin (absolute) at start */
  double drag_dx, drag_dy;           /* current offset, document units */
  double pan_start_x, pan_start_y;
  double zoom_start;
};

G_DEFINE_FINAL_TYPE (WsSystemCanvas, ws_system_canvas, GTK_TYPE_WIDGET)

enum { SELECTION_CHANGED, MOVE_NODE, CONNECT_NODES, DROP_PAYLOAD, DELETE_NODE, N_SIGNALS };
static guint signals[N_SIGNALS];

void
ws_system_canvas_to_doc (WsSystemCanvas *self, double wx, double wy, double *dx, double *dy)
{
  *dx = (wx - self->pan_x) / self->zoom;
  *dy = (wy - self->pan_y) / self->zoom;
}

void
ws_system_canvas_to_widget (WsSystemCanvas *self, double dx, double dy, double *wx, double *wy)
{
  *wx = dx * self->zoom + self->pan_x;
  *wy = dy * self->zoom + self->pan_y;
}

static const WsDesignProblem *
problem_for (WsSystemCanvas *self, const char *name)
{
  for (guint i = 0; self->problems != NULL && i < self->problems->len; i++)
    {
      const WsDesignProblem *p = self->problems->pdata[i];
      if (g_strcmp0 (p->node, name) == 0)
        return p;
    }
  return NULL;
}

/* Where a dragged node is drawn: its stored place plus the live drag offset. */
static void
bounds (WsSystemCanvas *self, const WsDesignNode *n, double *x, double *y, double *w, double *h)
{
  ws_system_doc_node_bounds (self->doc, n, x, y, w, h);
  if (self->drag_mode == DRAG_MOVE && self->drag_node != NULL
      && ws_system_doc_is_within (self->doc, n->name, self->drag_node))
    {
      *x += self->drag_dx;
      *y += self->drag_dy;
    }
}

static void
handle_position (WsSystemCanvas *self, const WsDesignNode *n, double *hx, double *hy)
{
  double x, y, w, h;

  bounds (self, n, &x, &y, &w, &h);
  *hx = x + w;
  *hy = n->kind == WS_COMPONENT_MACHINE ? y + 16 : y + h / 2;
}

static void
kind_color (WsComponentKind kind, GdkRGBA *rgba)
{
  /* GNOME palette: blue CPUs, green GPUs, purple links, neutral machines. */
  switch (kind)
    {
    case WS_COMPONENT_CPU: gdk_rgba_parse (rgba, "#3584e4"); break;
    case WS_COMPONENT_GPU: gdk_rgba_parse (rgba, "#33d17a"); break;
    case WS_COMPONENT_LINK: gdk_rgba_parse (rgba, "#9141ac"); break;
    default: gdk_rgba_parse (rgba, "#77767b"); break;
    }
}

static void
rounded_rect (cairo_t *cr, double x, double y, double w, double h, double r)
{
  cairo_new_sub_path (cr);
  cairo_arc (cr, x + w - r, y + r, r, -G_PI / 2, 0);
  cairo_arc (cr, x + w - r, y + h - r, r, 0, G_PI / 2);
  cairo_arc (cr, x + r, y + h - r, r, G_PI / 2, G_PI);
  cairo_arc (cr, x + r, y + r, r, G_PI, 3 * G_PI / 2);
  cairo_close_path (cr);
}

static void
draw_text (GtkWidget *widget, cairo_t *cr, const char *text, double x, double y, double width, gboolean bold,
           const GdkRGBA *color)
{
  PangoLayout *layout = gtk_widget_create_pango_layout (widget, text);
  PangoFontDescription *font = pango_font_description_from_string (bold ? "Sans Bold 9" : "Sans 8");

  pango_layout_set_font_description (layout, font);
  pango_layout_set_width (layout, (int) (width * PANGO_SCALE));
  pango_layout_set_ellipsize (layout, bold ? PANGO_ELLIPSIZE_END : PANGO_ELLIPSIZE_NONE);
  pango_layout_set_wrap (layout, PANGO_WRAP_WORD);
  /* Box texts stay on one line; only the empty-canvas hint wraps. */
  if (width < 200)
    {
      pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_END);
      pango_layout_set_height (layout, 0);
    }
  gdk_cairo_set_source_rgba (cr, color);
  cairo_move_to (cr, x, y);
  pango_cairo_show_layout (cr, layout);
  pango_font_description_free (font);
  g_object_unref (layout);
}

static void
draw_node (WsSystemCanvas *self, cairo_t *cr, const WsDesignNode *n, const GdkRGBA *fg)
{
  GtkWidget *widget = GTK_WIDGET (self);
  double x, y, w, h;
  GdkRGBA color, fill, red;
  gboolean selected = g_strcmp0 (self->selected, n->name) == 0;
  const WsDesignProblem *problem = problem_for (self, n->name);
  g_autofree char *title = NULL;
  g_autofree char *detail = NULL;

  bounds (self, n, &x, &y, &w, &h);
  kind_color (n->kind, &color);
  gdk_rgba_parse (&red, "#e01b24");
  fill = color;
  fill.alpha = n->kind == WS_COMPONENT_MACHINE ? 0.06 : 0.18;

  rounded_rect (cr, x, y, w, h, n->kind == WS_COMPONENT_LINK ? h / 2 : 8);
  gdk_cairo_set_source_rgba (cr, &fill);
  cairo_fill_preserve (cr);
  gdk_cairo_set_source_rgba (cr, problem ? &red : &color);
  cairo_set_line_width (cr, selected ? 3.5 : 1.5);
  if (n->kind == WS_COMPONENT_MACHINE)
    cairo_set_dash (cr, (double[]){ 6, 4 }, 2, 0);
  cairo_stroke (cr);
  cairo_set_dash (cr, NULL, 0, 0);

  if (n->count > 1)
    /* Translators: a component's name and count on the canvas, "gpu × 4". */
    title = g_strdup_printf (_ ("%s × %d"), n->name, n->count);
  else
    title = g_strdup (n->name);
  if (n->kind == WS_COMPONENT_LINK)
    {
      detail = g_strdup_printf ("%s · %s", title, n->hw ? n->hw : "?");
      draw_text (widget, cr, detail, x + 10, y + 5, w - 20, FALSE, fg);
    }
  else
    {
      const char *kind = n->kind == WS_COMPONENT_MACHINE ? _ ("Machine")
                         : n->kind == WS_COMPONENT_CPU   ? _ ("CPU")
                                                         : _ ("GPU");
      detail = n->hw ? g_strdup_printf ("%s · %s", kind, n->hw) : g_strdup (kind);
      draw_text (widget, cr, title, x + 10, y + 6, w - 34, TRUE, fg);
      draw_text (widget, cr, detail, x + 10, y + 24, w - 20, FALSE, fg);
      if (n->labels != NULL && *n->labels != '\0' && n->kind != WS_COMPONENT_MACHINE)
        draw_text (widget, cr, n->labels, x + 10, y + 40, w - 20, FALSE, &color);

      /* The connection handle: drag from it to another component. */
      {
        double hx, hy;
        handle_position (self, n, &hx, &hy);
        cairo_arc (cr, hx, hy, HANDLE_RADIUS - 2, 0, 2 * G_PI);
        gdk_cairo_set_source_rgba (cr, &color);
        cairo_fill (cr);
      }
    }
  if (problem != NULL)
    {
      /* A red badge: the message is in the list under the canvas and the tooltip. */
      cairo_arc (cr, x + w - 14, y + 12, 8, 0, 2 * G_PI);
      gdk_cairo_set_source_rgba (cr, &red);
      cairo_fill (cr);
      draw_text (widget, cr, "!", x + w - 16.5, y + 4, 10, TRUE, &(GdkRGBA){ 1, 1, 1, 1 });
    }
  if (g_strcmp0 (self->connect_source, n->name) == 0)
    {
      rounded_rect (cr, x - 4, y - 4, w + 8, h + 8, 10);
      gdk_cairo_set_source_rgba (cr, &color);
      cairo_set_dash (cr, (double[]){ 2, 3 }, 2, 0);
      cairo_set_line_width (cr, 2);
      cairo_stroke (cr);
      cairo_set_dash (cr, NULL, 0, 0);
    }
}

static void
center (WsSystemCanvas *self, const WsDesignNode *n, double *cx, double *cy)
{
  double x, y, w, h;

  bounds (self, n, &x, &y, &w, &h);
  *cx = x + w / 2;
  *cy = y + h / 2;
}

static void
ws_system_canvas_snapshot (GtkWidget *widget, GtkSnapshot *snapshot)
{
  WsSystemCanvas *self = WS_SYSTEM_CANVAS (widget);
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  GdkRGBA fg, grid;
  cairo_t *cr;

  gtk_style_context_get_color (gtk_widget_get_style_context (widget), &fg);
  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));

  /* A dot grid shows the zoom and that the empty area is a canvas. */
  grid = fg;
  grid.alpha = 0.15;
  gdk_cairo_set_source_rgba (cr, &grid);
  for (double gx = fmod (self->pan_x, 24 * self->zoom); gx < width; gx += 24 * self->zoom)
    for (double gy = fmod (self->pan_y, 24 * self->zoom); gy < height; gy += 24 * self->zoom)
      cairo_rectangle (cr, gx, gy, 1.5, 1.5);
  cairo_fill (cr);

  if (self->doc != NULL && self->doc->nodes->len == 0)
    {
      /* An empty canvas says how to start, for mouse and keyboard. */
      GdkRGBA dim = fg;
      dim.alpha = 0.6;
      draw_text (widget, cr,
                 _ ("Drag a machine, CPU, GPU or link here from the palette or the catalogue, "
                    "or press Ctrl+Shift+M to add a machine."),
                 24, height / 2.0 - 20, MAX (width - 48, 50), FALSE, &dim);
    }
  if (self->doc != NULL)
    {
      cairo_translate (cr, self->pan_x, self->pan_y);
      cairo_scale (cr, self->zoom, self->zoom);

      /* Machines, then link lines, then components over the lines, then
       * the links' tags on top. */
      for (int pass = 0; pass < 4; pass++)
        for (guint i = 0; i < self->doc->nodes->len; i++)
          {
            const WsDesignNode *n = self->doc->nodes->pdata[i];
            int want = n->kind == WS_COMPONENT_MACHINE ? 0 : n->kind == WS_COMPONENT_LINK ? 1 : 2;

            if (want != pass && !(pass == 3 && want == 1))
              continue;
            if (pass == 1)
              {
                const WsDesignNode *ends[2] = { ws_system_doc_find (self->doc, n->from),
                                                ws_system_doc_find (self->doc, n->to) };
                double lx, ly, lw, lh;
                GdkRGBA color;

                kind_color (WS_COMPONENT_LINK, &color);
                bounds (self, n, &lx, &ly, &lw, &lh);
                for (int e = 0; e < 2; e++)
                  if (ends[e] != NULL)
                    {
                      double cx, cy;
                      center (self, ends[e], &cx, &cy);
                      cairo_move_to (cr, lx + lw / 2, ly + lh / 2);
                      cairo_line_to (cr, cx, cy);
                    }
                gdk_cairo_set_source_rgba (cr, &color);
                cairo_set_line_width (cr, 3);
                cairo_stroke (cr);
                continue;
              }
            draw_node (self, cr, n, &fg);
          }

      if (self->drag_mode == DRAG_CONNECT && self->drag_node != NULL)
        {
          const WsDesignNode *n = ws_system_doc_find (self->doc, self->drag_node);
          double hx, hy;

          if (n != NULL)
            {
              handle_position (self, n, &hx, &hy);
              cairo_move_to (cr, hx, hy);
              cairo_line_to (cr, self->drag_start_x + self->drag_dx, self->drag_start_y + self->drag_dy);
              gdk_cairo_set_source_rgba (cr, &fg);
              cairo_set_dash (cr, (double[]){ 5, 4 }, 2, 0);
              cairo_set_line_width (cr, 2);
              cairo_stroke (cr);
            }
        }
    }
  cairo_destroy (cr);

  if (gtk_widget_has_focus (widget))
    gtk_snapshot_render_focus (snapshot, gtk_widget_get_style_context (widget), 1, 1, width - 2, height - 2);
}

static void
set_selected (WsSystemCanvas *self, const char *name)
{
  if (g_strcmp0 (self->selected, name) == 0)
    return;
  g_free (self->selected);
  self->selected = g_strdup (name);
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_signal_emit (self, signals[SELECTION_CHANGED], 0);
}

/* ---- gestures -------------------------------------------------------- */

static gboolean
near_handle (WsSystemCanvas *self, const WsDesignNode *n, double x, double y)
{
  double hx, hy;

  if (n == NULL || n->kind == WS_COMPONENT_LINK)
    return FALSE;
  handle_position (self, n, &hx, &hy);
  return hypot (x - hx, y - hy) <= HANDLE_RADIUS + 3;
}

static WsDesignNode *
handle_hit (WsSystemCanvas *self, double x, double y)
{
  for (guint i = 0; i < self->doc->nodes->len; i++)
    if (near_handle (self, self->doc->nodes->pdata[i], x, y))
      return self->doc->nodes->pdata[i];
  return NULL;
}

static void
on_drag_begin (GtkGestureDrag *gesture, double wx, double wy, WsSystemCanvas *self)
{
  double x, y;
  WsDesignNode *n;

  gtk_widget_grab_focus (GTK_WIDGET (self));
  if (self->doc == NULL)
    return;
  ws_system_canvas_to_doc (self, wx, wy, &x, &y);
  self->drag_start_x = x;
  self->drag_start_y = y;
  self->drag_dx = self->drag_dy = 0;
  g_clear_pointer (&self->drag_node, g_free);

  if ((n = handle_hit (self, x, y)) != NULL)
    {
      self->drag_mode = DRAG_CONNECT;
      self->drag_node = g_strdup (n->name);
      set_selected (self, n->name);
      return;
    }
  n = ws_system_doc_hit (self->doc, x, y);
  set_selected (self, n ? n->name : NULL);
  if (n != NULL)
    {
      self->drag_mode = DRAG_MOVE;
      self->drag_node = g_strdup (n->name);
      ws_system_doc_node_origin (self->doc, n, &self->drag_node_x, &self->drag_node_y);
    }
  else
    {
      self->drag_mode = DRAG_PAN;
      self->pan_start_x = self->pan_x;
      self->pan_start_y = self->pan_y;
    }
}

static void
on_drag_update (GtkGestureDrag *gesture, double ox, double oy, WsSystemCanvas *self)
{
  switch (self->drag_mode)
    {
    case DRAG_PAN:
      self->pan_x = self->pan_start_x + ox;
      self->pan_y = self->pan_start_y + oy;
      break;
    case DRAG_MOVE:
    case DRAG_CONNECT:
      self->drag_dx = ox / self->zoom;
      self->drag_dy = oy / self->zoom;
      break;
    default: return;
    }
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* Emits a move of @name to absolute document point (@ax, @ay), nesting it in
 * the machine its centre lands in. */
static void
emit_move (WsSystemCanvas *self, const char *name, double ax, double ay)
{
  const WsDesignNode *n = ws_system_doc_find (self->doc, name);
  WsDesignNode *machine;
  double x, y, w, h, px = 0, py = 0;

  ws_system_doc_node_bounds (self->doc, n, &x, &y, &w, &h);
  machine = ws_system_doc_machine_at (self->doc, ax + w / 2, ay + h / 2, name);
  if (machine != NULL)
    ws_system_doc_node_origin (self->doc, machine, &px, &py);
  g_signal_emit (self, signals[MOVE_NODE], 0, name, ax - px, ay - py, machine ? machine->name : NULL);
}

static void
on_drag_end (GtkGestureDrag *gesture, double ox, double oy, WsSystemCanvas *self)
{
  DragMode mode = self->drag_mode;
  g_autofree char *node = g_steal_pointer (&self->drag_node);

  self->drag_mode = DRAG_NONE;
  if (mode == DRAG_MOVE && node != NULL && (fabs (ox) > 2 || fabs (oy) > 2))
    {
      const WsDesignNode *n = ws_system_doc_find (self->doc, node);

      /* A connected link has no place of its own: it follows its ends. */
      if (n != NULL
          && !(n->kind == WS_COMPONENT_LINK && ws_system_doc_find (self->doc, n->from)
               && ws_system_doc_find (self->doc, n->to)))
        emit_move (self, node, self->drag_node_x + ox / self->zoom, self->drag_node_y + oy / self->zoom);
    }
  else if (mode == DRAG_CONNECT && node != NULL)
    {
      double x = self->drag_start_x + ox / self->zoom, y = self->drag_start_y + oy / self->zoom;
      WsDesignNode *target = ws_system_doc_hit (self->doc, x, y);

      if (target != NULL && g_strcmp0 (target->name, node) != 0 && target->kind != WS_COMPONENT_LINK)
        g_signal_emit (self, signals[CONNECT_NODES], 0, node, target->name);
    }
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
zoom_around (WsSystemCanvas *self, double zoom, double wx, double wy)
{
  double dx, dy;

  zoom = CLAMP (zoom, 0.25, 4.0);
  ws_system_canvas_to_doc (self, wx, wy, &dx, &dy);
  self->zoom = zoom;
  /* Keep the document point under the pointer where it was. */
  self->pan_x = wx - dx * zoom;
  self->pan_y = wy - dy * zoom;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static gboolean
on_scroll (GtkEventControllerScroll *scroll, double dx, double dy, WsSystemCanvas *self)
{
  GdkModifierType state = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (scroll));

  if (state & GDK_CONTROL_MASK)
    zoom_around (self, self->zoom * (dy < 0 ? 1.1 : 1 / 1.1), gtk_widget_get_width (GTK_WIDGET (self)) / 2.0,
                 gtk_widget_get_height (GTK_WIDGET (self)) / 2.0);
  else
    {
      self->pan_x -= dx * 30;
      self->pan_y -= dy * 30;
      gtk_widget_queue_draw (GTK_WIDGET (self));
    }
  return TRUE;
}

static void
on_zoom_begin (GtkGesture *gesture, GdkEventSequence *sequence, WsSystemCanvas *self)
{
  self->zoom_start = self->zoom;
}

static void
on_zoom_scale_changed (GtkGestureZoom *gesture, double scale, WsSystemCanvas *self)
{
  double cx, cy;

  gtk_gesture_get_bounding_box_center (GTK_GESTURE (gesture), &cx, &cy);
  zoom_around (self, self->zoom_start * scale, cx, cy);
}

/* ---- keyboard -------------------------------------------------------- */

static void
cycle_selection (WsSystemCanvas *self, int step)
{
  guint n = self->doc ? self->doc->nodes->len : 0;
  int index = -1;

  if (n == 0)
    return;
  for (guint i = 0; i < n; i++)
    if (g_strcmp0 (((WsDesignNode *) self->doc->nodes->pdata[i])->name, self->selected) == 0)
      index = i;
  index = index < 0 ? (step > 0 ? 0 : (int) n - 1) : (int) ((index + step + n) % n);
  set_selected (self, ((WsDesignNode *) self->doc->nodes->pdata[index])->name);
}

static gboolean
on_key_pressed (GtkEventControllerKey *key, guint keyval, guint keycode, GdkModifierType state, WsSystemCanvas *self)
{
  const WsDesignNode *n = self->doc ? ws_system_doc_find (self->doc, self->selected) : NULL;
  double step = (state & GDK_SHIFT_MASK) ? 1 : KEY_STEP;
  double mx = 0, my = 0;

  if (state & (GDK_CONTROL_MASK | GDK_ALT_MASK))
    return FALSE;
  switch (keyval)
    {
    case GDK_KEY_Tab:
    case GDK_KEY_KP_Tab: cycle_selection (self, 1); return TRUE;
    case GDK_KEY_ISO_Left_Tab: cycle_selection (self, -1); return TRUE;
    case GDK_KEY_Escape:
      if (self->connect_source != NULL)
        g_clear_pointer (&self->connect_source, g_free);
      else
        set_selected (self, NULL);
      gtk_widget_queue_draw (GTK_WIDGET (self));
      return TRUE;
    case GDK_KEY_Delete:
    case GDK_KEY_KP_Delete:
    case GDK_KEY_BackSpace:
      if (n != NULL)
        g_signal_emit (self, signals[DELETE_NODE], 0, n->name);
      return TRUE;
    case GDK_KEY_c:
      /* Keyboard connect: "c" on the first component, then on the second. */
      if (n == NULL || n->kind == WS_COMPONENT_LINK)
        return TRUE;
      if (self->connect_source == NULL || g_strcmp0 (self->connect_source, n->name) == 0)
        {
          g_free (self->connect_source);
          self->connect_source = g_strdup (n->name);
        }
      else
        {
          g_autofree char *from = g_steal_pointer (&self->connect_source);
          g_signal_emit (self, signals[CONNECT_NODES], 0, from, n->name);
        }
      gtk_widget_queue_draw (GTK_WIDGET (self));
      return TRUE;
    case GDK_KEY_plus:
    case GDK_KEY_equal:
    case GDK_KEY_KP_Add:
      zoom_around (self, self->zoom * 1.25, gtk_widget_get_width (GTK_WIDGET (self)) / 2.0,
                   gtk_widget_get_height (GTK_WIDGET (self)) / 2.0);
      return TRUE;
    case GDK_KEY_minus:
    case GDK_KEY_KP_Subtract:
      zoom_around (self, self->zoom / 1.25, gtk_widget_get_width (GTK_WIDGET (self)) / 2.0,
                   gtk_widget_get_height (GTK_WIDGET (self)) / 2.0);
      return TRUE;
    case GDK_KEY_0:
    case GDK_KEY_KP_0: ws_system_canvas_set_zoom (self, 1.0); return TRUE;
    case GDK_KEY_Left: mx = -step; break;
    case GDK_KEY_Right: mx = step; break;
    case GDK_KEY_Up: my = -step; break;
    case GDK_KEY_Down: my = step; break;
    default: return FALSE;
    }
  if (n != NULL
      && !(n->kind == WS_COMPONENT_LINK && ws_system_doc_find (self->doc, n->from)
           && ws_system_doc_find (self->doc, n->to)))
    {
      double ax, ay;
      ws_system_doc_node_origin (self->doc, n, &ax, &ay);
      emit_move (self, n->name, ax + mx, ay + my);
      return TRUE;
    }
  return n != NULL;
}

/* ---- drop ------------------------------------------------------------ */

gboolean
ws_system_canvas_drop (WsSystemCanvas *self, const char *payload, double x, double y)
{
  double dx, dy;

  g_return_val_if_fail (WS_IS_SYSTEM_CANVAS (self), FALSE);
  if (self->doc == NULL || payload == NULL)
    return FALSE;
  ws_system_canvas_to_doc (self, x, y, &dx, &dy);
  g_signal_emit (self, signals[DROP_PAYLOAD], 0, payload, dx, dy);
  return TRUE;
}

static gboolean
on_drop (GtkDropTarget *target, const GValue *value, double x, double y, WsSystemCanvas *self)
{
  return G_VALUE_HOLDS_STRING (value) && ws_system_canvas_drop (self, g_value_get_string (value), x, y);
}

static gboolean
query_tooltip (GtkWidget *widget, int x, int y, gboolean keyboard, GtkTooltip *tooltip)
{
  WsSystemCanvas *self = WS_SYSTEM_CANVAS (widget);
  const WsDesignNode *n = NULL;
  const WsDesignProblem *p;
  double dx, dy;

  if (self->doc == NULL)
    return FALSE;
  if (keyboard)
    n = ws_system_doc_find (self->doc, self->selected);
  else
    {
      ws_system_canvas_to_doc (self, x, y, &dx, &dy);
      n = ws_system_doc_hit (self->doc, dx, dy);
    }
  if (n == NULL || (p = problem_for (self, n->name)) == NULL)
    return FALSE;
  gtk_tooltip_set_text (tooltip, p->message);
  return TRUE;
}

/* ---- object ---------------------------------------------------------- */

static void
ws_system_canvas_dispose (GObject *object)
{
  WsSystemCanvas *self = WS_SYSTEM_CANVAS (object);

  g_clear_pointer (&self->problems, g_ptr_array_unref);
  g_clear_pointer (&self->doc_name, g_free);
  g_clear_pointer (&self->selected, g_free);
  g_clear_pointer (&self->connect_source, g_free);
  g_clear_pointer (&self->drag_node, g_free);
  G_OBJECT_CLASS (ws_system_canvas_parent_class)->dispose (object);
}

static void
ws_system_canvas_measure (GtkWidget *widget, GtkOrientation orientation, int for_size, int *minimum, int *natural,
                          int *minimum_baseline, int *natural_baseline)
{
  *minimum = 200;
  *natural = 600;
}

static void fit (WsSystemCanvas *self);

static void
ws_system_canvas_size_allocate (GtkWidget *widget, int width, int height, int baseline)
{
  WsSystemCanvas *self = WS_SYSTEM_CANVAS (widget);

  if (self->fit_pending && self->doc != NULL)
    fit (self);
}

static void
ws_system_canvas_class_init (WsSystemCanvasClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = ws_system_canvas_dispose;
  widget_class->snapshot = ws_system_canvas_snapshot;
  widget_class->measure = ws_system_canvas_measure;
  widget_class->size_allocate = ws_system_canvas_size_allocate;
  widget_class->query_tooltip = query_tooltip;

  signals[SELECTION_CHANGED] = g_signal_new ("selection-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL,
                                             NULL, NULL, G_TYPE_NONE, 0);
  signals[MOVE_NODE] = g_signal_new ("move-node", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                     G_TYPE_NONE, 4, G_TYPE_STRING, G_TYPE_DOUBLE, G_TYPE_DOUBLE, G_TYPE_STRING);
  signals[CONNECT_NODES] = g_signal_new ("connect-nodes", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                                         NULL, G_TYPE_NONE, 2, G_TYPE_STRING, G_TYPE_STRING);
  signals[DROP_PAYLOAD] = g_signal_new ("drop-payload", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                                        NULL, G_TYPE_NONE, 3, G_TYPE_STRING, G_TYPE_DOUBLE, G_TYPE_DOUBLE);
  signals[DELETE_NODE] = g_signal_new ("delete-node", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                       G_TYPE_NONE, 1, G_TYPE_STRING);

  gtk_widget_class_set_css_name (widget_class, "ws-system-canvas");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
on_focus_changed (WsSystemCanvas *self)
{
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
ws_system_canvas_init (WsSystemCanvas *self)
{
  GtkGesture *drag = gtk_gesture_drag_new ();
  GtkGesture *zoom = gtk_gesture_zoom_new ();
  GtkEventController *scroll = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_BOTH_AXES);
  GtkEventController *key = gtk_event_controller_key_new ();
  GtkEventController *focus = gtk_event_controller_focus_new ();
  GtkDropTarget *drop = gtk_drop_target_new (G_TYPE_STRING, GDK_ACTION_COPY);

  self->zoom = 1.0;
  self->pan_x = 20;
  self->pan_y = 20;
  gtk_widget_set_focusable (GTK_WIDGET (self), TRUE);
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  gtk_widget_set_overflow (GTK_WIDGET (self), GTK_OVERFLOW_HIDDEN);

  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (drag), GDK_BUTTON_PRIMARY);
  g_signal_connect (drag, "drag-begin", G_CALLBACK (on_drag_begin), self);
  g_signal_connect (drag, "drag-update", G_CALLBACK (on_drag_update), self);
  g_signal_connect (drag, "drag-end", G_CALLBACK (on_drag_end), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drag));

  g_signal_connect (zoom, "begin", G_CALLBACK (on_zoom_begin), self);
  g_signal_connect (zoom, "scale-changed", G_CALLBACK (on_zoom_scale_changed), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (zoom));

  g_signal_connect (scroll, "scroll", G_CALLBACK (on_scroll), self);
  gtk_widget_add_controller (GTK_WIDGET (self), scroll);

  g_signal_connect (key, "key-pressed", G_CALLBACK (on_key_pressed), self);
  gtk_widget_add_controller (GTK_WIDGET (self), key);

  g_signal_connect_swapped (focus, "enter", G_CALLBACK (on_focus_changed), self);
  g_signal_connect_swapped (focus, "leave", G_CALLBACK (on_focus_changed), self);
  gtk_widget_add_controller (GTK_WIDGET (self), focus);

  g_signal_connect (drop, "drop", G_CALLBACK (on_drop), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drop));
}

/* A newly opened system is shown whole: zoomed out (never in) to fit. */
static void
fit (WsSystemCanvas *self)
{
  int width = gtk_widget_get_width (GTK_WIDGET (self));
  int height = gtk_widget_get_height (GTK_WIDGET (self));
  double x0 = G_MAXDOUBLE, y0 = G_MAXDOUBLE, x1 = -G_MAXDOUBLE, y1 = -G_MAXDOUBLE;

  self->zoom = 1.0;
  self->pan_x = self->pan_y = 20;
  for (guint i = 0; i < self->doc->nodes->len; i++)
    {
      const WsDesignNode *n = self->doc->nodes->pdata[i];
      double x, y, w, h;

      ws_system_doc_node_bounds (self->doc, n, &x, &y, &w, &h);
      x0 = MIN (x0, x);
      y0 = MIN (y0, y);
      x1 = MAX (x1, x + w);
      y1 = MAX (y1, y + h);
    }
  self->fit_pending = width <= 40 || height <= 40;
  if (x1 <= x0 || self->fit_pending)
    return;
  self->zoom = CLAMP (MIN ((width - 40) / (x1 - x0 + 20), (height - 40) / (y1 - y0 + 20)), 0.25, 1.0);
  self->pan_x = 20 - x0 * self->zoom;
  self->pan_y = 20 - y0 * self->zoom;
}

GtkWidget *
ws_system_canvas_new (void)
{
  return g_object_new (WS_TYPE_SYSTEM_CANVAS, NULL);
}

void
ws_system_canvas_set_doc (WsSystemCanvas *self, const WsSystemDoc *doc, GPtrArray *problems)
{
  g_return_if_fail (WS_IS_SYSTEM_CANVAS (self));

  self->doc = doc;
  if (doc != NULL && g_strcmp0 (doc->name, self->doc_name) != 0)
    {
      g_free (self->doc_name);
      self->doc_name = g_strdup (doc->name);
      fit (self);
    }
  g_clear_pointer (&self->problems, g_ptr_array_unref);
  self->problems = problems ? g_ptr_array_ref (problems) : NULL;
  if (doc == NULL || (self->selected != NULL && ws_system_doc_find (doc, self->selected) == NULL))
    set_selected (self, NULL);
  if (doc == NULL || ws_system_doc_find (doc, self->connect_source) == NULL)
    g_clear_pointer (&self->connect_source, g_free);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

const char *
ws_system_canvas_get_selected (WsSystemCanvas *self)
{
  return self->selected;
}

void
ws_system_canvas_select (WsSystemCanvas *self, const char *name)
{
  g_return_if_fail (WS_IS_SYSTEM_CANVAS (self));
  set_selected (self, name);
}

const char *
ws_system_canvas_get_connect_source (WsSystemCanvas *self)
{
  return self->connect_source;
}

double
ws_system_canvas_get_zoom (WsSystemCanvas *self)
{
  return self->zoom;
}

void
ws_system_canvas_set_zoom (WsSystemCanvas *self, double zoom)
{
  g_return_if_fail (WS_IS_SYSTEM_CANVAS (self));
  zoom_around (self, zoom, 0, 0);
  if (zoom == 1.0)
    {
      self->pan_x = 20;
      self->pan_y = 20;
    }
}
