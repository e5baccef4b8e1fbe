/* warpscope-cli occupancy: theoretical occupancy of a launch on a GPU. */
#include <stdio.h>
#include <glib/gi18n.h>

#include "ws-cli.h"
#include "occupancy/ws-occupancy.h"

int ws_cli_cmd_occupancy (WsCli *cli, int argc, char **argv);

int
ws_cli_cmd_occupancy (WsCli *cli, int argc, char **argv)
{
  g_autofree char *gpu_name = NULL;
  /* G_MININT: not given (any other value, negative ones included, is
   * checked by the occupancy rules and reported as given). */
  int block_size = G_MININT, regs = G_MININT, smem = 0;
  const GOptionEntry entries[] = { { "gpu", 0, 0, G_OPTION_ARG_STRING, &gpu_name, N_ ("Catalogue GPU"), "NAME" },
                                   { "block-size", 0, 0, G_OPTION_ARG_INT, &block_size, N_ ("Threads per block"), "N" },
                                   { "regs", 0, 0, G_OPTION_ARG_INT, &regs, N_ ("Registers per thread"), "R" },
                                   { "smem", 0, 0, G_OPTION_ARG_INT, &smem,
                                     N_ ("Shared memory per block in bytes, static plus dynamic "
                                         "(above the default per-block limit counts as opted in)"),
                                     "BYTES" },
                                   { NULL } };
  if (!ws_cli_parse_options (cli, &argc, &argv, entries, "",
                             _ ("Theoretical occupancy by NVIDIA's rules (blocks and warps per SM, limiter).")))
    return WS_EXIT_USAGE;
  if (argc > 1)
    return ws_cli_fail (cli, WS_EXIT_USAGE, _ ("unexpected argument '%s'"), argv[1]);
  if (gpu_name == NULL || block_size == G_MININT || regs == G_MININT)
    return ws_cli_fail (cli, WS_EXIT_USAGE, "%s", _ ("--gpu NAME, --block-size N and --regs R are required"));
  if (block_size <= 0)
    return ws_cli_fail (cli, WS_EXIT_USAGE, _ ("--block-size %d: a block has at least one thread"), block_size);
  if (regs < 0)
    return ws_cli_fail (cli, WS_EXIT_USAGE, _ ("--regs %d: registers per thread cannot be negative"), regs);
  if (smem < 0)
    return ws_cli_fail (cli, WS_EXIT_USAGE, _ ("--smem %d: shared memory per block cannot be negative"), smem);

  int rc = WS_EXIT_OK;
  g_autoptr (WsGpu) gpu = ws_cli_lookup_gpu (cli, gpu_name, &rc);
  if (gpu == NULL)
    return rc;

  WsOccupancy occ;
  g_autoptr (GError) error = NULL;
  if (!ws_occupancy_compute (gpu, block_size, regs, smem, &occ, &error))
    return ws_cli_fail_error (cli, error);

  if (cli->json)
    {
      g_autoptr (JsonBuilder) b = json_builder_new ();
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "gpu");
      json_builder_add_string_value (b, gpu->name);
      json_builder_set_member_name (b, "blocks_per_sm");
      json_builder_add_int_value (b, occ.blocks_per_sm);
      json_builder_set_member_name (b, "warps_per_sm");
      json_builder_add_int_value (b, occ.warps_per_sm);
      json_builder_set_member_name (b, "occupancy");
      json_builder_add_double_value (b, occ.occupancy);
      json_builder_set_member_name (b, "limiter");
      json_builder_add_string_value (b, ws_occupancy_limiter_name (occ.limiter));
      json_builder_set_member_name (b, "limits");
      json_builder_begin_object (b);
      const struct {
        const char *name;
        int v;
      } lim[] = { { "warps", occ.limit_warps },
                  { "blocks", occ.limit_blocks },
                  { "registers", occ.limit_registers },
                  { "shared_memory", occ.limit_shared } };
      for (guint i = 0; i < G_N_ELEMENTS (lim); i++)
        {
          json_builder_set_member_name (b, lim[i].name);
          if (lim[i].v == G_MAXINT)
            json_builder_add_null_value (b);
          else
            json_builder_add_int_value (b, lim[i].v);
        }
      json_builder_end_object (b);
      json_builder_set_member_name (b, "registers_per_block");
      json_builder_add_int_value (b, occ.registers_per_block);
      json_builder_set_member_name (b, "shared_per_block");
      json_builder_add_int_value (b, occ.shared_per_block);
      if (occ.reason != NULL)
        {
          json_builder_set_member_name (b, "reason");
          json_builder_add_string_value (b, occ.reason);
        }
      json_builder_end_object (b);
      g_autoptr (JsonNode) root = json_builder_get_root (b);
      ws_cli_print_json (cli, root);
      return WS_EXIT_OK;
    }

  printf (_ ("GPU %s (compute capability %d.%d), %d threads, %d registers/thread, %d bytes shared/block\n"), gpu->name,
          gpu->cc_major, gpu->cc_minor, block_size, regs, smem);
  printf (_ ("  blocks per SM:  %d\n"), occ.blocks_per_sm);
  printf (_ ("  warps per SM:   %d of %d\n"), occ.warps_per_sm, gpu->max_warps_per_sm);
  printf (_ ("  occupancy:      %.1f %%\n"), occ.occupancy * 100.0);
  printf (_ ("  limited by:     %s\n"), ws_occupancy_limiter_name (occ.limiter));
  if (occ.reason != NULL)
    printf (_ ("  the block cannot run: %s\n"), occ.reason);
  return WS_EXIT_OK;
}
