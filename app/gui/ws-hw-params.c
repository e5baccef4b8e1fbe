/* ws-hw-params.c: parameter groups with units for the hardware page. */
#define G_LOG_DOMAIN "ws-hw-params"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "ws-hw-params.h"

static void
ws_hw_param_free (WsHwParam *param)
{
  g_free (param->id);
  g_free (param->label);
  g_free (param->value);
  g_free (param);
}

static void
ws_hw_param_group_free (WsHwParamGroup *group)
{
  g_free (group->title);
  g_ptr_array_unref (group->params);
  g_free (group);
}

char *
ws_hw_format_number (double value, int max_decimals)
{
  char *text = g_strdup_printf ("%.*f", max_decimals, value);
  char *end;

  /* Cut trailing zeros and a bare decimal separator, whichever the locale
   * uses ("1.50" -> "1.5", "1253,0" -> "1253"). */
  if (max_decimals > 0)
    {
      end = text + strlen (text) - 1;
      while (end > text && *end == '0')
        *end-- = '\0';
      if (end > text && !g_ascii_isdigit (*end))
        *end = '\0';
    }
  return text;
}

char *
ws_hw_format_bytes (gint64 bytes)
{
  g_autofree char *number = NULL;

  /* Binary units because cache and shared-memory sizes are powers of two;
   * "1.75 MiB" reads better than "1835008 bytes". */
  if (bytes >= 1024 * 1024)
    {
      number = ws_hw_format_number (bytes / (1024.0 * 1024.0), 2);
      /* Translators: a size in mebibytes, e.g. "1.75 MiB". */
      return g_strdup_printf (_("%s MiB"), number);
    }
  if (bytes >= 1024)
    {
      number = ws_hw_format_number (bytes / 1024.0, 2);
      /* Translators: a size in kibibytes, e.g. "48 KiB". */
      return g_strdup_printf (_("%s KiB"), number);
    }
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%d byte", "%d bytes", (gulong) bytes), (int) bytes);
}

static char *
format_with_unit (const char *format, double value, int max_decimals)
{
  g_autofree char *number = ws_hw_format_number (value, max_decimals);

  return g_strdup_printf (format, number);
}

static char *
format_cycles (double cycles)
{
  g_autofree char *number = ws_hw_format_number (cycles, 2);
  gulong n = cycles == 1.0 ? 1 : (cycles < 1.0 ? 0 : (gulong) ceil (cycles));

  /* Translators: a duration in GPU core clock cycles. */
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s cycle", "%s cycles", n), number);
}

/* Peak bandwidths are optional in the catalogue: 0 means no published
 * figure, which must not read as "zero bandwidth". */
static char *
format_bytes_per_clock (double bytes)
{
  if (bytes <= 0.0)
    return g_strdup (_("unknown"));
  /* Translators: a peak bandwidth in bytes per GPU core clock cycle, e.g. "128 bytes per clock". */
  return format_with_unit (_("%s bytes per clock"), bytes, 1);
}

static char *
format_count (int count)
{
  return g_strdup_printf ("%d", count);
}

static WsHwParamGroup *
group_new (GPtrArray *groups, const char *title)
{
  WsHwParamGroup *group = g_new0 (WsHwParamGroup, 1);

  group->title = g_strdup (title);
  group->params = g_ptr_array_new_with_free_func ((GDestroyNotify) ws_hw_param_free);
  g_ptr_array_add (groups, group);
  return group;
}

/* Takes ownership of @value. */
static void
add (WsHwParamGroup *group, const char *id, const char *label, char *value)
{
  WsHwParam *param = g_new0 (WsHwParam, 1);

  param->id = g_strdup (id);
  param->label = g_strdup (label);
  param->value = value;
  g_ptr_array_add (group->params, param);
}

static void
add_text (WsHwParamGroup *group, const char *id, const char *label, const char *text)
{
  /* Translators: shown for a catalogue field that holds no value. */
  add (group, id, label, g_strdup (text != NULL && *text != '\0' ? text : _("not given")));
}

static const char *
iclass_label (WsIClass c)
{
  switch (c)
    {
    case WS_ICLASS_FP32: return _("FP32 arithmetic");
    case WS_ICLASS_INT: return _("Integer arithmetic");
    case WS_ICLASS_SFU: return _("Special functions (SFU)");
    case WS_ICLASS_FP64: return _("FP64 arithmetic");
    case WS_ICLASS_TENSOR: return _("Tensor cores");
    case WS_ICLASS_SHARED: return _("Shared memory access");
    case WS_ICLASS_GLOBAL: return _("Global memory access");
    case WS_ICLASS_BRANCH: return _("Branches");
    case WS_ICLASS_COUNT:
    default: g_assert_not_reached ();
    }
}

static void
add_gpu (GPtrArray *groups, const WsGpu *g)
{
  WsHwParamGroup *group;

  group = group_new (groups, _("Compute"));
  add_text (group, "architecture", _("Architecture"), g->architecture);
  add (group, "compute_capability", _("Compute capability"), g_strdup_printf ("%d.%d", g->cc_major, g->cc_minor));
  add (group, "sms", _("Streaming multiprocessors"), format_count (g->sms));
  add (group, "core_clock", _("Core clock"), format_with_unit (_("%s MHz"), g->core_clock_mhz, 1));
  add (group, "cuda_cores_per_sm", _("CUDA cores per SM"), format_count (g->cuda_cores_per_sm));
  add (group, "fp64_units_per_sm", _("FP64 units per SM"), format_count (g->fp64_units_per_sm));
  add (group, "sfu_units_per_sm", _("Special function units per SM"), format_count (g->sfu_units_per_sm));
  add (group, "ldst_units_per_sm", _("Load/store units per SM"), format_count (g->ldst_units_per_sm));
  add (group, "tensor_cores_per_sm", _("Tensor cores per SM"), format_count (g->tensor_cores_per_sm));
  add (group, "warp_schedulers_per_sm", _("Warp schedulers per SM"), format_count (g->warp_schedulers_per_sm));
  add (group, "issue_width", _("Issue width"),
       g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%d instruction per cycle", "%d instructions per cycle",
                                     g->issue_width), g->issue_width));
  add (group, "warp_size", _("Warp size"),
       g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%d thread", "%d threads", g->warp_size), g->warp_size));
  add (group, "peak_fp32", _("Peak FP32 throughput"),
       format_with_unit (_("%s GFLOP/s"), ws_gpu_peak_fp32_gflops (g), 1));

  group = group_new (groups, _("Occupancy limits"));
  add (group, "max_warps_per_sm", _("Warps per SM"), format_count (g->max_warps_per_sm));
  add (group, "max_blocks_per_sm", _("Blocks per SM"), format_count (g->max_blocks_per_sm));
  add (group, "max_threads_per_block", _("Threads per block"), format_count (g->max_threads_per_block));
  add (group, "registers_per_sm", _("Registers per SM"), format_count (g->registers_per_sm));
  add (group, "max_registers_per_thread", _("Registers per thread"), format_count (g->max_registers_per_thread));
  add (group, "max_registers_per_block", _("Registers per block"), format_count (g->max_registers_per_block));
  add (group, "register_alloc_unit", _("Register allocation unit"),
       g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%d register per warp", "%d registers per warp",
                                     g->register_alloc_unit), g->register_alloc_unit));

  group = group_new (groups, _("Memory hierarchy"));
  add (group, "shared_per_sm", _("Shared memory per SM"), ws_hw_format_bytes (g->shared_per_sm));
  add (group, "shared_per_block", _("Shared memory per block"), ws_hw_format_bytes (g->shared_per_block));
  add (group, "shared_per_block_optin", _("Shared memory per block (opt-in)"), ws_hw_format_bytes (g->shared_per_block_optin));
  add (group, "shared_alloc_unit", _("Shared memory allocation unit"), ws_hw_format_bytes (g->shared_alloc_unit));
  add (group, "shared_reserved_per_block", _("Shared memory reserved per block"), ws_hw_format_bytes (g->shared_reserved_per_block));
  add (group, "l1_size", _("L1 cache size"), ws_hw_format_bytes (g->l1_size));
  add (group, "l1_line", _("L1 line size"), ws_hw_format_bytes (g->l1_line));
  add (group, "l1_sector", _("L1 sector size"), ws_hw_format_bytes (g->l1_sector));
  /* Translators: cache associativity, e.g. "4-way". */
  add (group, "l1_assoc", _("L1 associativity"), g_strdup_printf (_("%d-way"), g->l1_assoc));
  add (group, "l1_latency", _("L1 hit latency"), format_cycles (g->l1_latency));
  add (group, "l1_mshrs", _("L1 miss status holding registers per SM"), format_count (g->l1_mshrs));
  add (group, "l1_bandwidth", _("L1 peak bandwidth per SM"), format_bytes_per_clock (g->l1_bandwidth_bytes_per_clk));
  add (group, "l2_size", _("L2 cache size"), ws_hw_format_bytes (g->l2_size));
  add (group, "l2_line", _("L2 line size"), ws_hw_format_bytes (g->l2_line));
  add (group, "l2_assoc", _("L2 associativity"), g_strdup_printf (_("%d-way"), g->l2_assoc));
  add (group, "l2_latency", _("L2 hit latency"), format_cycles (g->l2_latency));
  add (group, "l2_slices", _("L2 slices"), format_count (g->l2_slices));
  add (group, "l2_bandwidth", _("L2 peak bandwidth"), format_bytes_per_clock (g->l2_bandwidth_bytes_per_clk));

  group = group_new (groups, _("DRAM"));
  add_text (group, "dram_type", _("Memory type"), g->dram_type);
  add (group, "memory_size", _("Device memory"), format_with_unit (_("%s GB"), g->memory_gb, 2));
  add (group, "dram_clock", _("Memory clock"), format_with_unit (_("%s MHz"), g->dram_clock_mhz, 1));
  add (group, "dram_bus_width", _("Bus width"),
       g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%d bit", "%d bits", g->dram_bus_width_bits), g->dram_bus_width_bits));
  add (group, "dram_data_rate", _("Data rate"), format_with_unit (_("%s transfers per clock"), g->dram_data_rate, 2));
  add (group, "dram_bandwidth", _("Bandwidth"), format_with_unit (_("%s GB/s"), g->dram_bandwidth_gbs, 1));
  add (group, "dram_latency", _("Unloaded latency"), format_cycles (g->dram_latency));
  add (group, "dram_channels", _("Channels"), format_count (g->dram_channels));
  add (group, "dram_banks", _("Banks per channel"), format_count (g->dram_banks));

  group = group_new (groups, _("Pipelines"));
  for (int c = 0; c < WS_ICLASS_COUNT; c++)
    {
      const WsPipe *pipe = &g->pipes[c];
      g_autofree char *id = g_strconcat ("pipe_", ws_iclass_name (c), NULL);
      g_autofree char *latency = NULL;
      g_autofree char *interval = NULL;

      if (pipe->latency <= 0.0)
        {
          /* Translators: an instruction class the GPU has no unit for (e.g. tensor cores on Fermi). */
          add (group, id, iclass_label (c), g_strdup (_("not present")));
          continue;
        }
      latency = format_cycles (pipe->latency);
      interval = format_cycles (pipe->initiation_interval);
      /* Translators: pipeline timing of an instruction class, e.g. "latency 6 cycles, issue every 2 cycles". */
      add (group, id, iclass_label (c), g_strdup_printf (_("latency %s, issue every %s"), latency, interval));
    }

  group = group_new (groups, _("Board"));
  add_text (group, "vendor", _("Vendor"), g->vendor);
  add (group, "tdp", _("Thermal design power"), format_with_unit (_("%s W"), g->tdp_watts, 1));
  /* Translators: PCI Express generation and lane count, e.g. "generation 3, 16 lanes". */
  add (group, "pcie", _("PCI Express"),
       g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "generation %d, %d lane", "generation %d, %d lanes", g->pcie_lanes),
                        g->pcie_gen, g->pcie_lanes));
}

static void
add_cpu (GPtrArray *groups, const WsCpu *c)
{
  WsHwParamGroup *group = group_new (groups, _("Processor"));

  add_text (group, "vendor", _("Vendor"), c->vendor);
  add_text (group, "model", _("Model"), c->model);
  add (group, "cores", _("Cores"), format_count (c->cores));
  add (group, "clock", _("Clock"), format_with_unit (_("%s MHz"), c->clock_mhz, 1));
  add (group, "gflops", _("Peak throughput"), format_with_unit (_("%s GFLOP/s"), c->gflops, 1));
}

static void
add_direction (GPtrArray *groups, const char *title, const char *prefix,
               double bandwidth, double startup, double lambda)
{
  WsHwParamGroup *group = group_new (groups, title);
  g_autofree char *id_bw = g_strconcat (prefix, "_bandwidth", NULL);
  g_autofree char *id_st = g_strconcat (prefix, "_startup", NULL);
  g_autofree char *id_la = g_strconcat (prefix, "_lambda", NULL);

  add (group, id_bw, _("Bandwidth"), format_with_unit (_("%s GB/s"), bandwidth, 2));
  /* Translators: a time in microseconds. */
  add (group, id_st, _("Startup time"), format_with_unit (_("%s µs"), startup, 3));
  /* Translators: λ is the effective bus utilisation of seed 004's transfer model. */
  add (group, id_la, _("Utilisation factor λ"), ws_hw_format_number (lambda, 3));
}

static void
add_link (GPtrArray *groups, const WsLink *l)
{
  WsHwParamGroup *group = group_new (groups, _("Link"));

  add_text (group, "type", _("Type"), l->type);
  add_direction (groups, _("Host to device"), "h2d", l->h2d_bandwidth_gbs, l->h2d_startup_us, l->h2d_lambda);
  add_direction (groups, _("Device to host"), "d2h", l->d2h_bandwidth_gbs, l->d2h_startup_us, l->d2h_lambda);
}

GPtrArray *
ws_hw_params_for_item (WsHwItem *item)
{
  GPtrArray *groups;

  g_return_val_if_fail (WS_IS_HW_ITEM (item), NULL);

  groups = g_ptr_array_new_with_free_func ((GDestroyNotify) ws_hw_param_group_free);
  switch (ws_hw_item_get_kind (item))
    {
    case WS_HW_GPU: add_gpu (groups, ws_hw_item_get_gpu (item)); break;
    case WS_HW_CPU: add_cpu (groups, ws_hw_item_get_cpu (item)); break;
    case WS_HW_LINK: add_link (groups, ws_hw_item_get_link (item)); break;
    default: g_assert_not_reached ();
    }
  return groups;
}

const char *
ws_hw_params_lookup (GPtrArray *groups, const char *id)
{
  g_return_val_if_fail (groups != NULL && id != NULL, NULL);

  for (guint i = 0; i < groups->len; i++)
    {
      WsHwParamGroup *group = g_ptr_array_index (groups, i);

      for (guint j = 0; j < group->params->len; j++)
        {
          WsHwParam *param = g_ptr_array_index (group->params, j);

          if (g_str_equal (param->id, id))
            return param->value;
        }
    }
  return NULL;
}
