/* libFuzzer target: JSON imports (hw import, model import): the checked
 * loader, then the catalogue, system and application readers. */
#include "base/ws-json.h"
#include "hw/ws-hw.h"
#include "system/ws-system.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;
  if (!ws_json_parser_load_data (parser, (const char *) data, (gssize) size, &error))
    return 0;
  JsonNode *root = json_parser_get_root (parser);
  JsonNode *one = root;
  if (JSON_NODE_HOLDS_ARRAY (root) && json_array_get_length (json_node_get_array (root)) > 0)
    one = json_array_get_element (json_node_get_array (root), 0);

  WsHwKind kind;
  GError *e = NULL;
  if (ws_hw_json_get_kind (one, &kind, &e))
    {
      switch (kind)
        {
        case WS_HW_GPU: ws_gpu_free (ws_gpu_from_json (one, &e)); break;
        case WS_HW_CPU: ws_cpu_free (ws_cpu_from_json (one, &e)); break;
        case WS_HW_LINK: ws_link_free (ws_link_from_json (one, &e)); break;
        }
    }
  g_clear_error (&e);
  WsSystemModel *s = ws_system_model_from_json (one, &e);
  if (s != NULL)
    {
      if (!ws_system_model_validate (s, NULL, &e))
        g_clear_error (&e);
      json_node_unref (ws_system_model_to_json (s));
      ws_system_model_free (s);
    }
  g_clear_error (&e);
  WsAppModel *app = ws_app_model_from_json (one, &e);
  if (app != NULL)
    {
      json_node_unref (ws_app_model_to_json (app));
      ws_app_model_free (app);
    }
  g_clear_error (&e);
  return 0;
}
