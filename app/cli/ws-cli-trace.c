/* warpscope-cli trace: inspect a recorded trace. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <glib/gi18n.h>

#include "ws-cli.h"
#include "trace/ws-trace.h"

int ws_cli_cmd_trace (WsCli *cli, int argc, char **argv);

static void
add_uint (JsonBuilder *b, const char *name, uint64_t v)
{
  json_builder_set_member_name (b, name);
  json_builder_add_int_value (b, (gint64) v);
}

static void
add_dim3 (JsonBuilder *b, const char *name, const uint32_t v[3])
{
  json_builder_set_member_name (b, name);
  json_builder_begin_array (b);
  for (int d = 0; d < 3; d++)
    json_builder_add_int_value (b, v[d]);
  json_builder_end_array (b);
}

static void
print_json (WsCli *cli, WsTrace *t, uint64_t chunks)
{
  g_autoptr (JsonBuilder) b = json_builder_new ();
  uint64_t total_warp = ws_trace_get_total_warp_instructions (t);
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "path");
  json_builder_add_string_value (b, ws_trace_get_path (t));
  add_uint (b, "format_version", ws_trace_get_version (t));
  add_uint (b, "file_bytes", ws_trace_get_file_size (t));
  add_uint (b, "chunks_verified", chunks);
  add_uint (b, "warp_instructions", total_warp);
  json_builder_set_member_name (b, "bytes_per_warp_instruction");
  json_builder_add_double_value (b, total_warp ? (double) ws_trace_get_file_size (t) / (double) total_warp : 0.0);

  json_builder_set_member_name (b, "kernels");
  json_builder_begin_array (b);
  for (guint i = 0; i < ws_trace_get_n_kernels (t); i++)
    {
      const WsTraceKernel *k = ws_trace_get_kernel (t, i);
      json_builder_begin_object (b);
      add_uint (b, "index", i);
      json_builder_set_member_name (b, "name");
      json_builder_add_string_value (b, k->name);
      add_uint (b, "static_instructions", k->n_insts);
      add_uint (b, "registers", k->regs_per_thread);
      add_uint (b, "static_shared_bytes", k->static_shared_bytes);
      add_uint (b, "local_bytes", k->local_bytes);
      /* the machine-level view (core/trace/ws-trace-lowering.h) */
      add_uint (b, "absorbed_instructions", k->n_absorbed);
      add_uint (b, "hoisted_loads", k->n_hoisted);
      json_builder_set_member_name (b, "resources_from_ptxas");
      json_builder_add_boolean_value (b, k->resources_from_ptxas);
      json_builder_set_member_name (b, "has_ptx");
      json_builder_add_boolean_value (b, k->ptx != NULL);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);

  json_builder_set_member_name (b, "launches");
  json_builder_begin_array (b);
  for (guint i = 0; i < ws_trace_get_n_launches (t); i++)
    {
      const WsTraceLaunch *l = ws_trace_get_launch (t, i);
      json_builder_begin_object (b);
      add_uint (b, "index", i);
      json_builder_set_member_name (b, "kernel");
      json_builder_add_string_value (b, ws_trace_get_kernel (t, l->kernel)->name);
      add_dim3 (b, "grid", l->grid);
      add_dim3 (b, "block", l->block);
      add_uint (b, "dynamic_shared_bytes", l->dynamic_shared_bytes);
      add_uint (b, "warp_instructions", l->warp_instructions);
      add_uint (b, "thread_instructions", l->thread_instructions);
      add_uint (b, "memory_requests", l->memory_requests);
      add_uint (b, "thread_blocks", l->n_tbs);
      add_uint (b, "global_requests", l->global_requests);
      add_uint (b, "local_requests", l->local_requests);
      add_uint (b, "shared_accesses", l->shared_accesses);
      add_uint (b, "barriers", l->barriers);
      add_uint (b, "memory_instructions", l->memory_instructions);
      json_builder_set_member_name (b, "cov_tb_thread_instructions");
      json_builder_add_double_value (b, l->cov_tb_thread_instructions);
      json_builder_set_member_name (b, "cov_tb_warp_instructions");
      json_builder_add_double_value (b, l->cov_tb_warp_instructions);
      json_builder_set_member_name (b, "complete");
      json_builder_add_boolean_value (b, l->complete);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_end_object (b);
  g_autoptr (JsonNode) root = json_builder_get_root (b);
  ws_cli_print_json (cli, root);
}

static char *
dim3 (const uint32_t v[3])
{
  return g_strdup_printf ("%u,%u,%u", v[0], v[1], v[2]);
}

static void
print_text (WsTrace *t, uint64_t chunks)
{
  uint64_t total_warp = ws_trace_get_total_warp_instructions (t);
  printf (_ ("Trace %s: format version %u, %" PRIu64 " bytes, %.3f bytes per warp instruction\n"),
          ws_trace_get_path (t), ws_trace_get_version (t), ws_trace_get_file_size (t),
          total_warp ? (double) ws_trace_get_file_size (t) / (double) total_warp : 0.0);
  printf (_ ("Checked: every section and all %" PRIu64 " chunks (checksums and sizes)\n"), chunks);
  printf ("\n%s\n", _ ("Kernels:"));
  printf ("  %3s  %-40s %8s %5s %8s %7s %8s %7s\n", "#", _ ("name"), _ ("insts"), _ ("regs"), _ ("shared"), _ ("local"),
          _ ("absorbed"), _ ("hoisted"));
  for (guint i = 0; i < ws_trace_get_n_kernels (t); i++)
    {
      const WsTraceKernel *k = ws_trace_get_kernel (t, i);
      printf ("  %3u  %-40s %8u %5u %8u %7u %8u %7u%s\n", i, k->name, k->n_insts, k->regs_per_thread,
              k->static_shared_bytes, k->local_bytes, k->n_absorbed, k->n_hoisted,
              k->resources_from_ptxas ? "" : _ (" (estimated)"));
    }
  printf ("  %s\n", _ ("absorbed: PTX instructions that issue nothing on the GPU (a mul fused into an FMA, a parameter "
                       "load); hoisted: loads issued ahead of earlier arithmetic (docs/trace-format.md)"));
  printf ("\n%s\n", _ ("Launches:"));
  printf ("  %4s  %-28s %-14s %-12s %8s %14s %16s %14s %7s\n", "#", _ ("kernel"), _ ("grid"), _ ("block"), _ ("TBs"),
          _ ("warp insts"), _ ("thread insts"), _ ("mem requests"), _ ("TB CoV"));
  for (guint i = 0; i < ws_trace_get_n_launches (t); i++)
    {
      const WsTraceLaunch *l = ws_trace_get_launch (t, i);
      g_autofree char *g = dim3 (l->grid), *bl = dim3 (l->block);
      printf ("  %4u  %-28s %-14s %-12s %8" G_GUINT64_FORMAT " %14" G_GUINT64_FORMAT " %16" G_GUINT64_FORMAT
              " %14" G_GUINT64_FORMAT " %7.3f%s\n",
              i, ws_trace_get_kernel (t, l->kernel)->name, g, bl, l->n_tbs, l->warp_instructions,
              l->thread_instructions, l->memory_requests, l->cov_tb_thread_instructions,
              l->complete ? "" : _ (" (incomplete)"));
    }
}

int
ws_cli_cmd_trace (WsCli *cli, int argc, char **argv)
{
  const GOptionEntry entries[] = { { NULL } };
  if (!ws_cli_parse_options (cli, &argc, &argv, entries, "info TRACE",
                             _ ("Show a trace's kernels and launches with their counters (--json for machine use).")))
    return WS_EXIT_USAGE;
  if (argc < 2)
    return ws_cli_fail (cli, WS_EXIT_USAGE, "%s", _ ("missing action: use 'trace info TRACE'"));
  if (strcmp (argv[1], "info") != 0)
    return ws_cli_fail (cli, WS_EXIT_USAGE, _ ("unknown action '%s': use 'trace info TRACE'"), argv[1]);
  if (argc != 3)
    return ws_cli_fail (cli, WS_EXIT_USAGE, "%s", _ ("usage: trace info TRACE"));

  g_autoptr (GError) error = NULL;
  g_autoptr (WsTrace) t = ws_trace_open (argv[2], &error);
  /* Damage the open leaves to the first read of a block (a chunk's bytes)
   * is found here too, so "info" never calls a damaged trace fine. */
  uint64_t chunks = 0;
  if (t == NULL || !ws_trace_verify (t, &chunks, &error))
    return ws_cli_fail_error (cli, error);
  if (cli->json)
    print_json (cli, t, chunks);
  else
    print_text (t, chunks);
  return WS_EXIT_OK;
}
