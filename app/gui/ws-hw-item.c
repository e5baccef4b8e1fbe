/* ws-hw-item.c: a catalogue component wrapped for list models. */
#define G_LOG_DOMAIN "ws-hw-item"

#include <glib/gi18n.h>
#include <string.h>

#include "ws-hw-item.h"

struct _WsHwItem {
  GObject parent_instance;

  WsHwKind kind;
  union {
    WsGpu *gpu;
    WsCpu *cpu;
    WsLink *link;
  } u;
  char *summary;
  char *haystack; /* lower-case name + family, for search */
};

G_DEFINE_FINAL_TYPE (WsHwItem, ws_hw_item, G_TYPE_OBJECT)

static void
ws_hw_item_finalize (GObject *object)
{
  WsHwItem *self = WS_HW_ITEM (object);

  switch (self->kind)
    {
    case WS_HW_GPU: g_clear_pointer (&self->u.gpu, ws_gpu_free); break;
    case WS_HW_CPU: g_clear_pointer (&self->u.cpu, ws_cpu_free); break;
    case WS_HW_LINK: g_clear_pointer (&self->u.link, ws_link_free); break;
    default: g_assert_not_reached ();
    }
  g_clear_pointer (&self->summary, g_free);
  g_clear_pointer (&self->haystack, g_free);

  G_OBJECT_CLASS (ws_hw_item_parent_class)->finalize (object);
}

static void
ws_hw_item_class_init (WsHwItemClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = ws_hw_item_finalize;
}

static void
ws_hw_item_init (WsHwItem *self)
{}

static void
finish (WsHwItem *self)
{
  g_autofree char *text = g_strconcat (ws_hw_item_get_name (self), " ", ws_hw_item_get_family (self), NULL);
  self->haystack = g_utf8_strdown (text, -1);
}

WsHwItem *
ws_hw_item_new_gpu (WsGpu *gpu)
{
  WsHwItem *self;

  g_return_val_if_fail (gpu != NULL && gpu->name != NULL, NULL);

  self = g_object_new (WS_TYPE_HW_ITEM, NULL);
  self->kind = WS_HW_GPU;
  self->u.gpu = gpu;
  /* Translators: list subtitle of a GPU: architecture, compute capability, SM count. */
  self->summary = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s · compute capability %d.%d · %d SM",
                                                "%s · compute capability %d.%d · %d SMs", gpu->sms),
                                   gpu->architecture ? gpu->architecture : "", gpu->cc_major, gpu->cc_minor, gpu->sms);
  finish (self);
  return self;
}

WsHwItem *
ws_hw_item_new_cpu (WsCpu *cpu)
{
  WsHwItem *self;

  g_return_val_if_fail (cpu != NULL && cpu->name != NULL, NULL);

  self = g_object_new (WS_TYPE_HW_ITEM, NULL);
  self->kind = WS_HW_CPU;
  self->u.cpu = cpu;
  /* Translators: list subtitle of a CPU: model, core count. */
  self->summary = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s · %d core", "%s · %d cores", cpu->cores),
                                   cpu->model ? cpu->model : "", cpu->cores);
  finish (self);
  return self;
}

WsHwItem *
ws_hw_item_new_link (WsLink *link)
{
  WsHwItem *self;

  g_return_val_if_fail (link != NULL && link->name != NULL, NULL);

  self = g_object_new (WS_TYPE_HW_ITEM, NULL);
  self->kind = WS_HW_LINK;
  self->u.link = link;
  /* Translators: list subtitle of a link: type, host-to-device bandwidth. */
  self->summary = g_strdup_printf (_ ("%s · %.1f GB/s host to device"), link->type ? link->type : "",
                                   link->h2d_bandwidth_gbs);
  finish (self);
  return self;
}

WsHwKind
ws_hw_item_get_kind (WsHwItem *self)
{
  g_return_val_if_fail (WS_IS_HW_ITEM (self), WS_HW_GPU);
  return self->kind;
}

const char *
ws_hw_item_get_name (WsHwItem *self)
{
  g_return_val_if_fail (WS_IS_HW_ITEM (self), NULL);

  switch (self->kind)
    {
    case WS_HW_GPU: return self->u.gpu->name;
    case WS_HW_CPU: return self->u.cpu->name;
    case WS_HW_LINK: return self->u.link->name;
    default: g_assert_not_reached ();
    }
}

const char *
ws_hw_item_get_family (WsHwItem *self)
{
  const char *family = NULL;

  g_return_val_if_fail (WS_IS_HW_ITEM (self), NULL);

  switch (self->kind)
    {
    case WS_HW_GPU: family = self->u.gpu->architecture; break;
    case WS_HW_CPU: family = self->u.cpu->model; break;
    case WS_HW_LINK: family = self->u.link->type; break;
    default: g_assert_not_reached ();
    }
  return family ? family : "";
}

const char *
ws_hw_item_get_sources (WsHwItem *self)
{
  const char *sources = NULL;

  g_return_val_if_fail (WS_IS_HW_ITEM (self), NULL);

  switch (self->kind)
    {
    case WS_HW_GPU: sources = self->u.gpu->sources; break;
    case WS_HW_CPU: sources = self->u.cpu->sources; break;
    case WS_HW_LINK: sources = self->u.link->sources; break;
    default: g_assert_not_reached ();
    }
  return sources ? sources : "";
}

const char *
ws_hw_item_get_summary (WsHwItem *self)
{
  g_return_val_if_fail (WS_IS_HW_ITEM (self), NULL);
  return self->summary;
}

int
ws_hw_item_compare (WsHwItem *a, WsHwItem *b)
{
  if (a->kind != b->kind)
    return (int) a->kind - (int) b->kind;

  /* Compute capability orders architectures by generation, which is what a
   * reader scanning from Fermi to Hopper expects; names break ties. */
  if (a->kind == WS_HW_GPU)
    {
      int ca = a->u.gpu->cc_major * 10 + a->u.gpu->cc_minor;
      int cb = b->u.gpu->cc_major * 10 + b->u.gpu->cc_minor;
      int f = g_strcmp0 (ws_hw_item_get_family (a), ws_hw_item_get_family (b));

      if (f != 0 && ca != cb)
        return ca - cb;
      if (f != 0)
        return f;
    }
  return g_utf8_collate (ws_hw_item_get_name (a), ws_hw_item_get_name (b));
}

gboolean
ws_hw_item_matches (WsHwItem *self, const char *needle)
{
  g_auto (GStrv) words = NULL;

  g_return_val_if_fail (WS_IS_HW_ITEM (self), FALSE);

  if (needle == NULL || *needle == '\0')
    return TRUE;

  words = g_strsplit_set (needle, " \t", -1);
  for (guint i = 0; words[i] != NULL; i++)
    if (*words[i] != '\0' && strstr (self->haystack, words[i]) == NULL)
      return FALSE;
  return TRUE;
}

const WsGpu *
ws_hw_item_get_gpu (WsHwItem *self)
{
  g_return_val_if_fail (WS_IS_HW_ITEM (self), NULL);
  return self->kind == WS_HW_GPU ? self->u.gpu : NULL;
}

const WsCpu *
ws_hw_item_get_cpu (WsHwItem *self)
{
  g_return_val_if_fail (WS_IS_HW_ITEM (self), NULL);
  return self->kind == WS_HW_CPU ? self->u.cpu : NULL;
}

const WsLink *
ws_hw_item_get_link (WsHwItem *self)
{
  g_return_val_if_fail (WS_IS_HW_ITEM (self), NULL);
  return self->kind == WS_HW_LINK ? self->u.link : NULL;
}

gconstpointer
ws_hw_item_get_record (WsHwItem *self)
{
  g_return_val_if_fail (WS_IS_HW_ITEM (self), NULL);
  switch (self->kind)
    {
    case WS_HW_GPU: return self->u.gpu;
    case WS_HW_CPU: return self->u.cpu;
    case WS_HW_LINK: return self->u.link;
    default: g_return_val_if_reached (NULL);
    }
}
