/* warpscope-cli bound: a launch's physical lower time bound on a catalogue
 * GPU (core/bounds; docs/bounds.md), with every term and the counts used. */
#include <inttypes.h>
#include <stdio.h>
#include <glib/gi18n.h>

#include "ws-cli.h"
#include "bounds/ws-bounds.h"

int ws_cli_cmd_bound (WsCli *cli, int argc, char **argv);

static void
print_bound_text (guint launch, const char *kernel, const char *gpu, const WsLaunchBound *b)
{
  printf (_ ("launch %u, kernel %s, on %s\n"), launch, kernel, gpu);
  printf (_ ("  lower bound: %.6g cycles (%.6g s), limited by %s\n"), b->cycles, b->seconds, b->limiter);
  printf (_ ("  SMs used:    %.0f, max IPC %.4g warp instructions per cycle\n"), b->sms_used, b->max_ipc);
  const struct {
    const char *name;
    double v;
  } terms[] = {
    { "issue", b->issue },   { "warp-issue", b->warp_issue },
    { "fp32", b->fp32 },     { "fp64", b->fp64 },
    { "sfu", b->sfu },       { "tensor", b->tensor },
    { "shared", b->shared }, { "l1", b->l1 },
    { "l2", b->l2 },         { "dram", b->dram },
  };
  for (guint i = 0; i < G_N_ELEMENTS (terms); i++)
    printf ("  %-11s %14.6g\n", terms[i].name, terms[i].v);
  printf (_ ("  certain warp instructions %" PRIu64 " (largest block %" PRIu64 ", largest warp %" PRIu64 ")\n"),
          b->warp_insts_issued_min, b->tb_warp_insts_max, b->warp_warp_insts_max);
  printf (_ ("  thread ops: fp32 %" PRIu64 ", fp64 %" PRIu64 ", sfu %" PRIu64 "; shared wavefronts %.6g\n"),
          b->fp32_thread_ops_min, b->fp64_thread_ops_min, b->sfu_thread_ops_min, b->shared_wavefronts_min);
  printf (_ ("  bytes: l1 %.6g at %.4g B/clk per SM, l2 %.6g at %.4g B/clk, dram %" PRIu64 " at %.4g B/clk\n"),
          b->l1_bytes_min, b->l1_bytes_per_clk, b->l2_bytes_min, b->l2_bytes_per_clk, b->dram_bytes_min,
          b->dram_bytes_per_clk);
}

int
ws_cli_cmd_bound (WsCli *cli, int argc, char **argv)
{
  g_autofree char *trace_path = NULL, *gpu_name = NULL;
  int only_launch = -1;
  const GOptionEntry entries[] = {
    { "trace", 0, 0, G_OPTION_ARG_FILENAME, &trace_path, N_ ("Trace recorded by 'warpscope-cli profile'"), "TRACE" },
    { "gpu", 0, 0, G_OPTION_ARG_STRING, &gpu_name, N_ ("Catalogue GPU"), "NAME" },
    { "launch", 0, 0, G_OPTION_ARG_INT, &only_launch, N_ ("Only this launch of the trace (default: all)"), "N" },
    { NULL }
  };
  if (!ws_cli_parse_options (cli, &argc, &argv, entries, "",
                             _ ("Shows the physical lower time bound of traced launches on a GPU: issue rate, "
                                "arithmetic peaks, shared-memory, L1, L2 and DRAM bandwidth.")))
    return WS_EXIT_USAGE;
  if (argc > 1)
    return ws_cli_fail (cli, WS_EXIT_USAGE, _ ("unexpected argument '%s'"), argv[1]);
  if (trace_path == NULL || gpu_name == NULL)
    return ws_cli_fail (cli, WS_EXIT_USAGE, "%s", _ ("--trace TRACE and --gpu NAME are required"));
  int rc = WS_EXIT_OK;
  g_autoptr (WsTrace) trace = ws_cli_open_trace (cli, trace_path, &rc);
  if (trace == NULL)
    return rc;
  guint n = ws_trace_get_n_launches (trace);
  if (only_launch >= (int) n || only_launch < -1)
    return ws_cli_fail (cli, WS_EXIT_USAGE, _ ("%s has %u launches; there is no launch %d"), trace_path, n,
                        only_launch);
  g_autoptr (WsGpu) gpu = ws_cli_lookup_gpu (cli, gpu_name, &rc);
  if (gpu == NULL)
    return rc;
  guint first = only_launch >= 0 ? (guint) only_launch : 0;
  guint last = only_launch >= 0 ? (guint) only_launch + 1 : n;
  g_autoptr (JsonBuilder) jb = json_builder_new ();
  json_builder_begin_object (jb);
  json_builder_set_member_name (jb, "gpu");
  json_builder_add_string_value (jb, gpu->name);
  json_builder_set_member_name (jb, "launches");
  json_builder_begin_array (jb);
  for (guint l = first; l < last; l++)
    {
      g_autoptr (GError) error = NULL;
      WsLaunchBound b;
      if (!ws_launch_bound_compute (trace, l, gpu, &b, &error))
        return ws_cli_fail_error (cli, error);
      const char *kernel = ws_trace_get_kernel (trace, ws_trace_get_launch (trace, l)->kernel)->name;
      if (cli->json)
        {
          JsonNode *node = ws_launch_bound_to_json (&b);
          JsonObject *o = json_node_get_object (node);
          json_object_set_int_member (o, "index", l);
          json_object_set_string_member (o, "kernel", kernel);
          json_builder_add_value (jb, node);
        }
      else
        print_bound_text (l, kernel, gpu->name, &b);
    }
  json_builder_end_array (jb);
  json_builder_end_object (jb);
  if (cli->json)
    {
      g_autoptr (JsonNode) root = json_builder_get_root (jb);
      ws_cli_print_json (cli, root);
    }
  return WS_EXIT_OK;
}
