/* ws-hw-record.c: catalogue records as JSON for the editor and undo. */
#define G_LOG_DOMAIN "ws-hw-record"

#include <string.h>

#include "ws-hw-record.h"

JsonNode *
ws_hw_record_to_json (WsHwItem *item)
{
  switch (ws_hw_item_get_kind (item))
    {
    case WS_HW_GPU: return ws_gpu_to_json (ws_hw_item_get_gpu (item));
    case WS_HW_CPU: return ws_cpu_to_json (ws_hw_item_get_cpu (item));
    case WS_HW_LINK: return ws_link_to_json (ws_hw_item_get_link (item));
    default: g_assert_not_reached ();
    }
}

char *
ws_hw_record_put (WsStore *store, WsHwKind kind, JsonNode *node, GError **error)
{
  switch (kind)
    {
    case WS_HW_GPU:
      {
        g_autoptr (WsGpu) gpu = ws_gpu_from_json (node, error);
        if (gpu == NULL || (store != NULL && !ws_store_put_gpu (store, gpu, TRUE, error)))
          return NULL;
        return g_strdup (gpu->name);
      }
    case WS_HW_CPU:
      {
        g_autoptr (WsCpu) cpu = ws_cpu_from_json (node, error);
        if (cpu == NULL || (store != NULL && !ws_store_put_cpu (store, cpu, TRUE, error)))
          return NULL;
        return g_strdup (cpu->name);
      }
    case WS_HW_LINK:
      {
        g_autoptr (WsLink) link = ws_link_from_json (node, error);
        if (link == NULL || (store != NULL && !ws_store_put_link (store, link, TRUE, error)))
          return NULL;
        return g_strdup (link->name);
      }
    default: g_assert_not_reached ();
    }
}

void
ws_hw_record_set_field (JsonNode *node, const WsHwField *field, const char *text)
{
  JsonObject *object = json_node_get_object (node);
  g_autofree char *copy = g_strstrip (g_strdup (text));
  char *end = NULL;
  double value;

  if (field->type == WS_HW_FIELD_STRING)
    {
      json_object_set_string_member (object, field->name, copy);
      return;
    }
  if (*copy == '\0' && !field->required)
    {
      json_object_remove_member (object, field->name);
      return;
    }
  /* German users type "1253,5"; the JSON text never has a comma. */
  g_strdelimit (copy, ",", '.');
  value = g_ascii_strtod (copy, &end);
  if (*copy != '\0' && end != NULL && *end == '\0')
    json_object_set_double_member (object, field->name, value);
  else
    json_object_set_string_member (object, field->name, text);
}

char *
ws_hw_record_get_field (JsonNode *node, const WsHwField *field)
{
  JsonObject *object = json_node_get_object (node);
  JsonNode *member = json_object_get_member (object, field->name);
  char buffer[G_ASCII_DTOSTR_BUF_SIZE];

  if (member == NULL || JSON_NODE_HOLDS_NULL (member))
    return g_strdup ("");
  if (json_node_get_value_type (member) == G_TYPE_STRING)
    return g_strdup (json_node_get_string (member));
  if (json_node_get_value_type (member) == G_TYPE_INT64)
    return g_strdup_printf ("%" G_GINT64_FORMAT, json_node_get_int (member));
  /* Shortest text that reads back to the same double: 15.8, not 15.800000000000001. */
  for (int precision = 1; precision <= 17; precision++)
    {
      g_snprintf (buffer, sizeof buffer, "%.*g", precision, json_node_get_double (member));
      g_strdelimit (buffer, ",", '.');
      if (g_ascii_strtod (buffer, NULL) == json_node_get_double (member))
        break;
    }
  return g_strdup (buffer);
}

char *
ws_hw_record_to_text (JsonNode *node)
{
  return ws_hw_json_to_data (node, FALSE);
}

JsonNode *
ws_hw_record_from_text (const char *text)
{
  return json_from_string (text, NULL);
}
