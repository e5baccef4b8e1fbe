/* ws-hw.c: hardware catalogue records and their JSON form.
 *
 * One table of field descriptions per record kind drives everything:
 * copying strings, export, validated import and display with units.  The
 * import is strict on purpose: a catalogue entry with a misspelt field would
 * silently fall back to a default and skew every model that reads it. */
#define G_LOG_DOMAIN "ws-hw"

#include "hw/ws-hw.h"

#include <glib/gi18n-lib.h>

#include <math.h>
#include <string.h>

#define KiB 1024.0
#define MiB (1024.0 * 1024.0)

#define GPU_S(f, req, grp, lbl) \
  { #f, WS_HW_FIELD_STRING, G_STRUCT_OFFSET (WsGpu, f), 0, 0, req, "", grp, lbl }
#define GPU_I(f, lo, hi, unit, grp, lbl) \
  { #f, WS_HW_FIELD_INT, G_STRUCT_OFFSET (WsGpu, f), lo, hi, TRUE, unit, grp, lbl }
#define GPU_D(f, lo, hi, unit, grp, lbl) \
  { #f, WS_HW_FIELD_DOUBLE, G_STRUCT_OFFSET (WsGpu, f), lo, hi, TRUE, unit, grp, lbl }
/* Optional numbers, added after the first catalogue release: absent in an
 * older exported file means 0, "unknown", so those files still import. */
#define GPU_D_OPT(f, lo, hi, unit, grp, lbl) \
  { #f, WS_HW_FIELD_DOUBLE, G_STRUCT_OFFSET (WsGpu, f), lo, hi, FALSE, unit, grp, lbl }

static const WsHwField gpu_fields[] = {
  GPU_S (name, TRUE, N_("General"), N_("Name")),
  GPU_S (vendor, TRUE, N_("General"), N_("Vendor")),
  GPU_S (architecture, TRUE, N_("General"), N_("Architecture")),
  GPU_I (cc_major, 1, 12, "", N_("General"), N_("Compute capability (major)")),
  GPU_I (cc_minor, 0, 9, "", N_("General"), N_("Compute capability (minor)")),
  GPU_D (memory_gb, 0.001, 100000, "GB", N_("General"), N_("Device memory")),
  GPU_D (tdp_watts, 1, 5000, "W", N_("General"), N_("TDP")),
  GPU_I (pcie_gen, 1, 7, "", N_("General"), N_("PCIe generation")),
  GPU_I (pcie_lanes, 1, 32, "lanes", N_("General"), N_("PCIe lanes")),

  GPU_I (sms, 1, 1024, "", N_("Compute"), N_("Streaming multiprocessors")),
  GPU_D (core_clock_mhz, 1, 10000, "MHz", N_("Compute"), N_("Core clock")),
  GPU_I (cuda_cores_per_sm, 1, 1024, "per SM", N_("Compute"), N_("CUDA cores (FP32 lanes)")),
  GPU_I (fp64_units_per_sm, 0, 1024, "per SM", N_("Compute"), N_("FP64 units")),
  GPU_I (sfu_units_per_sm, 1, 1024, "per SM", N_("Compute"), N_("Special function units")),
  GPU_I (ldst_units_per_sm, 1, 1024, "per SM", N_("Compute"), N_("Load/store units")),
  GPU_I (tensor_cores_per_sm, 0, 64, "per SM", N_("Compute"), N_("Tensor cores")),
  GPU_I (warp_schedulers_per_sm, 1, 16, "per SM", N_("Compute"), N_("Warp schedulers")),
  GPU_I (issue_width, 1, 4, "instr/cycle", N_("Compute"), N_("Issue width per scheduler")),
  GPU_I (warp_size, 1, 64, "threads", N_("Compute"), N_("Warp size")),

  GPU_I (max_warps_per_sm, 1, 256, "warps", N_("Occupancy limits"), N_("Max warps per SM")),
  GPU_I (max_blocks_per_sm, 1, 256, "blocks", N_("Occupancy limits"), N_("Max blocks per SM")),
  GPU_I (max_threads_per_block, 1, 8192, "threads", N_("Occupancy limits"), N_("Max threads per block")),
  GPU_I (registers_per_sm, 1024, 4 * MiB, "registers", N_("Occupancy limits"), N_("Registers per SM")),
  GPU_I (max_registers_per_thread, 16, 1024, "registers", N_("Occupancy limits"), N_("Max registers per thread")),
  GPU_I (max_registers_per_block, 1024, 4 * MiB, "registers", N_("Occupancy limits"), N_("Max registers per block")),
  GPU_I (register_alloc_unit, 1, 4096, "registers", N_("Occupancy limits"), N_("Register allocation unit (per warp)")),
  GPU_I (shared_per_sm, 0, 64 * MiB, "bytes", N_("Occupancy limits"), N_("Shared memory per SM")),
  GPU_I (shared_per_block, 0, 64 * MiB, "bytes", N_("Occupancy limits"), N_("Shared memory per block (default)")),
  GPU_I (shared_per_block_optin, 0, 64 * MiB, "bytes", N_("Occupancy limits"), N_("Shared memory per block (opt-in)")),
  GPU_I (shared_alloc_unit, 1, 64 * KiB, "bytes", N_("Occupancy limits"), N_("Shared memory allocation unit")),
  GPU_I (shared_reserved_per_block, 0, 64 * KiB, "bytes", N_("Occupancy limits"), N_("Reserved shared memory per block")),

  GPU_I (l1_size, 0, 64 * MiB, "bytes", N_("L1 cache"), N_("L1 size")),
  GPU_I (l1_line, 1, 4096, "bytes", N_("L1 cache"), N_("L1 line")),
  GPU_I (l1_sector, 1, 4096, "bytes", N_("L1 cache"), N_("L1 sector")),
  GPU_I (l1_assoc, 1, 65536, "ways", N_("L1 cache"), N_("L1 associativity")),
  GPU_D (l1_latency, 1, 100000, "cycles", N_("L1 cache"), N_("L1 hit latency")),
  GPU_I (l1_mshrs, 1, 65536, "per SM", N_("L1 cache"), N_("L1 MSHRs")),
  GPU_D_OPT (l1_bandwidth_bytes_per_clk, 0, 65536, "bytes/clock per SM", N_("L1 cache"), N_("L1 peak bandwidth")),

  GPU_I (l2_size, 0, G_MAXINT, "bytes", N_("L2 cache"), N_("L2 size")),
  GPU_I (l2_line, 1, 4096, "bytes", N_("L2 cache"), N_("L2 line")),
  GPU_I (l2_assoc, 1, 65536, "ways", N_("L2 cache"), N_("L2 associativity")),
  GPU_D (l2_latency, 1, 100000, "cycles", N_("L2 cache"), N_("L2 hit latency")),
  GPU_I (l2_slices, 1, 4096, "", N_("L2 cache"), N_("L2 slices")),
  GPU_D_OPT (l2_bandwidth_bytes_per_clk, 0, 1048576, "bytes/clock", N_("L2 cache"), N_("L2 peak bandwidth")),

  GPU_S (dram_type, TRUE, N_("DRAM"), N_("Type")),
  GPU_D (dram_clock_mhz, 1, 100000, "MHz", N_("DRAM"), N_("Memory clock")),
  GPU_I (dram_bus_width_bits, 8, 65536, "bits", N_("DRAM"), N_("Bus width")),
  GPU_D (dram_data_rate, 1, 64, "transfers/clock", N_("DRAM"), N_("Data rate")),
  GPU_D (dram_bandwidth_gbs, 0.001, 1000000, "GB/s", N_("DRAM"), N_("Bandwidth")),
  GPU_D (dram_latency, 1, 100000, "cycles", N_("DRAM"), N_("Access latency")),
  GPU_I (dram_channels, 1, 4096, "", N_("DRAM"), N_("Channels")),
  GPU_I (dram_banks, 1, 4096, "per channel", N_("DRAM"), N_("Banks")),

  GPU_D_OPT (launch_interval_us, 0, 1e6, "µs", N_("Kernel launch"), N_("Stream launch interval")),
  GPU_D_OPT (launch_gap_us, 0, 1e6, "µs", N_("Kernel launch"), N_("Stream launch gap")),
  GPU_D_OPT (graph_launch_interval_us, 0, 1e6, "µs", N_("Kernel launch"), N_("Graph launch interval")),
  GPU_D_OPT (graph_launch_gap_us, 0, 1e6, "µs", N_("Kernel launch"), N_("Graph launch gap")),

  GPU_S (sources, FALSE, N_("Sources"), N_("Sources")),
};

#define CPU_S(f, req, lbl) \
  { #f, WS_HW_FIELD_STRING, G_STRUCT_OFFSET (WsCpu, f), 0, 0, req, "", N_("General"), lbl }
static const WsHwField cpu_fields[] = {
  CPU_S (name, TRUE, N_("Name")),
  CPU_S (vendor, TRUE, N_("Vendor")),
  CPU_S (model, TRUE, N_("Model")),
  { "cores", WS_HW_FIELD_INT, G_STRUCT_OFFSET (WsCpu, cores), 1, 65536, TRUE, "", N_("Compute"), N_("Cores") },
  { "clock_mhz", WS_HW_FIELD_DOUBLE, G_STRUCT_OFFSET (WsCpu, clock_mhz), 1, 100000, TRUE, "MHz", N_("Compute"), N_("Base clock") },
  { "gflops", WS_HW_FIELD_DOUBLE, G_STRUCT_OFFSET (WsCpu, gflops), 0.001, 1e9, TRUE, "GFLOP/s", N_("Compute"), N_("Peak FP64 FLOP rate") },
  { "sources", WS_HW_FIELD_STRING, G_STRUCT_OFFSET (WsCpu, sources), 0, 0, FALSE, "", N_("Sources"), N_("Sources") },
};

#define LINK_D(f, lo, hi, unit, grp, lbl) \
  { #f, WS_HW_FIELD_DOUBLE, G_STRUCT_OFFSET (WsLink, f), lo, hi, TRUE, unit, grp, lbl }
static const WsHwField link_fields[] = {
  { "name", WS_HW_FIELD_STRING, G_STRUCT_OFFSET (WsLink, name), 0, 0, TRUE, "", N_("General"), N_("Name") },
  { "type", WS_HW_FIELD_STRING, G_STRUCT_OFFSET (WsLink, type), 0, 0, TRUE, "", N_("General"), N_("Type") },
  LINK_D (h2d_bandwidth_gbs, 0.001, 1e6, "GB/s", N_("Host to device"), N_("Bandwidth")),
  LINK_D (h2d_startup_us, 0, 1e9, "µs", N_("Host to device"), N_("Startup time")),
  LINK_D (h2d_lambda, 0.001, 1, "", N_("Host to device"), N_("Utilisation λ")),
  LINK_D (d2h_bandwidth_gbs, 0.001, 1e6, "GB/s", N_("Device to host"), N_("Bandwidth")),
  LINK_D (d2h_startup_us, 0, 1e9, "µs", N_("Device to host"), N_("Startup time")),
  LINK_D (d2h_lambda, 0.001, 1, "", N_("Device to host"), N_("Utilisation λ")),
  { "sources", WS_HW_FIELD_STRING, G_STRUCT_OFFSET (WsLink, sources), 0, 0, FALSE, "", N_("Sources"), N_("Sources") },
};

/* NULL-terminated so it doubles as the candidate list for suggestions. */
static const char *const iclass_names[WS_ICLASS_COUNT + 1] = {
  "fp32", "int", "sfu", "fp64", "tensor", "shared", "global", "branch", NULL,
};

const char *
ws_iclass_name (WsIClass c)
{
  g_return_val_if_fail ((guint) c < WS_ICLASS_COUNT, NULL);
  return iclass_names[c];
}

const char *
ws_hw_kind_name (WsHwKind kind)
{
  switch (kind)
    {
    case WS_HW_GPU: return "gpu";
    case WS_HW_CPU: return "cpu";
    case WS_HW_LINK: return "link";
    default: g_return_val_if_reached (NULL);
    }
}

gboolean
ws_hw_kind_from_string (const char *s, WsHwKind *out)
{
  static const WsHwKind kinds[] = { WS_HW_GPU, WS_HW_CPU, WS_HW_LINK };
  g_return_val_if_fail (s != NULL, FALSE);
  for (guint i = 0; i < G_N_ELEMENTS (kinds); i++)
    if (g_ascii_strcasecmp (s, ws_hw_kind_name (kinds[i])) == 0)
      {
        if (out != NULL)
          *out = kinds[i];
        return TRUE;
      }
  return FALSE;
}

const WsHwField *
ws_hw_fields (WsHwKind kind, guint *n_fields)
{
  switch (kind)
    {
    case WS_HW_GPU:
      *n_fields = G_N_ELEMENTS (gpu_fields);
      return gpu_fields;
    case WS_HW_CPU:
      *n_fields = G_N_ELEMENTS (cpu_fields);
      return cpu_fields;
    case WS_HW_LINK:
      *n_fields = G_N_ELEMENTS (link_fields);
      return link_fields;
    default:
      *n_fields = 0;
      g_return_val_if_reached (NULL);
    }
}

#define FIELD_PTR(rec, f, T) ((T *) ((char *) (rec) + (f)->offset))
#define FIELD_CPTR(rec, f, T) ((const T *) ((const char *) (rec) + (f)->offset))

/* ------------------------------------------------------------------------ */
/* Memory management */

static void
free_strings (void *rec, WsHwKind kind)
{
  guint n;
  const WsHwField *fields = ws_hw_fields (kind, &n);
  for (guint i = 0; i < n; i++)
    if (fields[i].type == WS_HW_FIELD_STRING)
      g_clear_pointer (FIELD_PTR (rec, &fields[i], char *), g_free);
}

static void
dup_strings (void *dst, WsHwKind kind)
{
  guint n;
  const WsHwField *fields = ws_hw_fields (kind, &n);
  for (guint i = 0; i < n; i++)
    if (fields[i].type == WS_HW_FIELD_STRING)
      {
        char **p = FIELD_PTR (dst, &fields[i], char *);
        *p = g_strdup (*p);
      }
}

void
ws_gpu_free (WsGpu *gpu)
{
  if (gpu == NULL)
    return;
  free_strings (gpu, WS_HW_GPU);
  g_free (gpu);
}

WsGpu *
ws_gpu_copy (const WsGpu *gpu)
{
  g_return_val_if_fail (gpu != NULL, NULL);
  WsGpu *copy = g_memdup2 (gpu, sizeof *gpu);
  dup_strings (copy, WS_HW_GPU);
  return copy;
}

void
ws_cpu_free (WsCpu *cpu)
{
  if (cpu == NULL)
    return;
  free_strings (cpu, WS_HW_CPU);
  g_free (cpu);
}

WsCpu *
ws_cpu_copy (const WsCpu *cpu)
{
  g_return_val_if_fail (cpu != NULL, NULL);
  WsCpu *copy = g_memdup2 (cpu, sizeof *cpu);
  dup_strings (copy, WS_HW_CPU);
  return copy;
}

void
ws_link_free (WsLink *link)
{
  if (link == NULL)
    return;
  free_strings (link, WS_HW_LINK);
  g_free (link);
}

WsLink *
ws_link_copy (const WsLink *link)
{
  g_return_val_if_fail (link != NULL, NULL);
  WsLink *copy = g_memdup2 (link, sizeof *link);
  dup_strings (copy, WS_HW_LINK);
  return copy;
}

double
ws_gpu_peak_fp32_gflops (const WsGpu *gpu)
{
  g_return_val_if_fail (gpu != NULL, 0.0);
  /* One fused multiply-add (2 FLOPs) per CUDA core per cycle. */
  return 2.0 * gpu->sms * gpu->cuda_cores_per_sm * gpu->core_clock_mhz / 1000.0;
}

/* ------------------------------------------------------------------------ */
/* Export */

static void
add_number (JsonBuilder *b, double v)
{
  /* Integral values are written as integers so exported files stay readable
   * (1253, not 1253.0); the importer accepts either for double fields. */
  if (isfinite (v) && v == floor (v) && fabs (v) < 9.0e15)
    json_builder_add_int_value (b, (gint64) v);
  else
    json_builder_add_double_value (b, v);
}

static void
add_fields (JsonBuilder *b, const void *rec, WsHwKind kind, gboolean stop_before_sources)
{
  guint n;
  const WsHwField *fields = ws_hw_fields (kind, &n);
  for (guint i = 0; i < n; i++)
    {
      const WsHwField *f = &fields[i];
      if (stop_before_sources && strcmp (f->name, "sources") == 0)
        break;
      json_builder_set_member_name (b, f->name);
      switch (f->type)
        {
        case WS_HW_FIELD_STRING:
          {
            const char *s = *FIELD_CPTR (rec, f, char *);
            if (s != NULL)
              json_builder_add_string_value (b, s);
            else
              json_builder_add_null_value (b);
          }
          break;
        case WS_HW_FIELD_INT:
          json_builder_add_int_value (b, *FIELD_CPTR (rec, f, int));
          break;
        case WS_HW_FIELD_DOUBLE:
          add_number (b, *FIELD_CPTR (rec, f, double));
          break;
        }
    }
}

static void
add_sources (JsonBuilder *b, const char *sources)
{
  if (sources == NULL)
    return;
  json_builder_set_member_name (b, "sources");
  json_builder_add_string_value (b, sources);
}

JsonNode *
ws_gpu_to_json (const WsGpu *gpu)
{
  g_return_val_if_fail (gpu != NULL, NULL);
  g_autoptr(JsonBuilder) b = json_builder_new ();
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "kind");
  json_builder_add_string_value (b, "gpu");
  add_fields (b, gpu, WS_HW_GPU, TRUE);
  json_builder_set_member_name (b, "pipes");
  json_builder_begin_object (b);
  for (guint c = 0; c < WS_ICLASS_COUNT; c++)
    {
      json_builder_set_member_name (b, iclass_names[c]);
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "latency");
      add_number (b, gpu->pipes[c].latency);
      json_builder_set_member_name (b, "initiation_interval");
      add_number (b, gpu->pipes[c].initiation_interval);
      json_builder_end_object (b);
    }
  json_builder_end_object (b);
  add_sources (b, gpu->sources);
  json_builder_end_object (b);
  return json_builder_get_root (b);
}

JsonNode *
ws_cpu_to_json (const WsCpu *cpu)
{
  g_return_val_if_fail (cpu != NULL, NULL);
  g_autoptr(JsonBuilder) b = json_builder_new ();
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "kind");
  json_builder_add_string_value (b, "cpu");
  add_fields (b, cpu, WS_HW_CPU, TRUE);
  add_sources (b, cpu->sources);
  json_builder_end_object (b);
  return json_builder_get_root (b);
}

JsonNode *
ws_link_to_json (const WsLink *link)
{
  g_return_val_if_fail (link != NULL, NULL);
  g_autoptr(JsonBuilder) b = json_builder_new ();
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "kind");
  json_builder_add_string_value (b, "link");
  add_fields (b, link, WS_HW_LINK, TRUE);
  add_sources (b, link->sources);
  json_builder_end_object (b);
  return json_builder_get_root (b);
}

/* ------------------------------------------------------------------------ */
/* Import */

static const char *
kind_title (WsHwKind kind)
{
  switch (kind)
    {
    case WS_HW_GPU: return "GPU";
    case WS_HW_CPU: return "CPU";
    case WS_HW_LINK: return "link";
    default: return "record";
    }
}

/* "GPU 'GTX 970'" or "GPU record" when the name is not known (yet). */
static char *
record_label (WsHwKind kind, JsonObject *obj)
{
  JsonNode *n = json_object_get_member (obj, "name");
  if (n != NULL && JSON_NODE_HOLDS_VALUE (n) && json_node_get_value_type (n) == G_TYPE_STRING)
    return g_strdup_printf ("%s '%s'", kind_title (kind), json_node_get_string (n));
  return g_strdup_printf ("%s record", kind_title (kind));
}

static const char *
json_type_name (JsonNode *node)
{
  switch (JSON_NODE_TYPE (node))
    {
    case JSON_NODE_OBJECT: return "an object";
    case JSON_NODE_ARRAY: return "an array";
    case JSON_NODE_NULL: return "null";
    case JSON_NODE_VALUE:
      {
        GType t = json_node_get_value_type (node);
        if (t == G_TYPE_STRING)
          return "a string";
        if (t == G_TYPE_BOOLEAN)
          return "a boolean";
        if (t == G_TYPE_INT64)
          return "an integer";
        return "a number";
      }
    default:
      return "something else";
    }
}

static gboolean
node_is_number (JsonNode *node)
{
  if (!JSON_NODE_HOLDS_VALUE (node))
    return FALSE;
  GType t = json_node_get_value_type (node);
  return t == G_TYPE_INT64 || t == G_TYPE_DOUBLE;
}

static double
node_number (JsonNode *node)
{
  if (json_node_get_value_type (node) == G_TYPE_INT64)
    return (double) json_node_get_int (node);
  return json_node_get_double (node);
}

static char *
format_number (double v)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];
  if (v == floor (v) && fabs (v) < 1e15)
    return g_strdup_printf ("%.0f", v);
  return g_strdup (g_ascii_formatd (buf, sizeof buf, "%.6g", v));
}

static gboolean
check_range (const char *what, const char *field, double v, double lo, double hi,
             GError **error)
{
  if (isfinite (v) && v >= lo && v <= hi)
    return TRUE;
  g_autofree char *sv = format_number (v);
  g_autofree char *slo = format_number (lo);
  g_autofree char *shi = format_number (hi);
  g_set_error (error, WS_ERROR, WS_ERROR_INVALID,
               "%s: value %s of field '%s' is out of range; allowed range is %s to %s",
               what, sv, field, slo, shi);
  return FALSE;
}

static gboolean
read_field (const char *what, const WsHwField *f, JsonNode *node, void *rec, GError **error)
{
  switch (f->type)
    {
    case WS_HW_FIELD_STRING:
      if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
        {
          g_set_error (error, WS_ERROR, WS_ERROR_INVALID,
                       "%s: field '%s' has the wrong type: expected a string, got %s",
                       what, f->name, json_type_name (node));
          return FALSE;
        }
      if (f->required && *json_node_get_string (node) == '\0')
        {
          g_set_error (error, WS_ERROR, WS_ERROR_INVALID,
                       "%s: field '%s' must not be empty", what, f->name);
          return FALSE;
        }
      g_free (*FIELD_PTR (rec, f, char *));
      *FIELD_PTR (rec, f, char *) = g_strdup (json_node_get_string (node));
      return TRUE;

    case WS_HW_FIELD_INT:
      {
        if (!node_is_number (node))
          {
            g_set_error (error, WS_ERROR, WS_ERROR_INVALID,
                         "%s: field '%s' has the wrong type: expected an integer, got %s",
                         what, f->name, json_type_name (node));
            return FALSE;
          }
        double v = node_number (node);
        if (v != floor (v))
          {
            g_autofree char *sv = format_number (v);
            g_set_error (error, WS_ERROR, WS_ERROR_INVALID,
                         "%s: field '%s' has the wrong type: expected an integer, got %s",
                         what, f->name, sv);
            return FALSE;
          }
        if (!check_range (what, f->name, v, f->min, f->max, error))
          return FALSE;
        *FIELD_PTR (rec, f, int) = (int) v;
        return TRUE;
      }

    case WS_HW_FIELD_DOUBLE:
      {
        if (!node_is_number (node))
          {
            g_set_error (error, WS_ERROR, WS_ERROR_INVALID,
                         "%s: field '%s' has the wrong type: expected a number, got %s",
                         what, f->name, json_type_name (node));
            return FALSE;
          }
        double v = node_number (node);
        if (!check_range (what, f->name, v, f->min, f->max, error))
          return FALSE;
        *FIELD_PTR (rec, f, double) = v;
        return TRUE;
      }
    }
  g_assert_not_reached ();
}

static gboolean
unknown_field (const char *what, const char *member, const char *const *valid,
               const char *context, GError **error)
{
  g_autofree char *close = ws_suggest_names (member, valid, 1);
  if (close != NULL)
    g_set_error (error, WS_ERROR, WS_ERROR_INVALID,
                 "%s: unknown field '%s'%s; did you mean '%s'?", what, member, context, close);
  else
    {
      g_autofree char *all = g_strjoinv (", ", (char **) valid);
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID,
                   "%s: unknown field '%s'%s; valid fields are: %s", what, member, context, all);
    }
  return FALSE;
}

/* Pipes: {"fp32": {"latency": L, "initiation_interval": II}, ...}; every
 * class is required so a record never carries an accidental zero latency. */
static gboolean
read_pipes (const char *what, JsonNode *node, WsGpu *gpu, GError **error)
{
  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID,
                   "%s: field 'pipes' has the wrong type: expected an object with one member per "
                   "instruction class, got %s", what, json_type_name (node));
      return FALSE;
    }
  JsonObject *obj = json_node_get_object (node);
  g_autoptr(GList) members = json_object_get_members (obj);
  for (GList *l = members; l != NULL; l = l->next)
    {
      const char *m = l->data;
      gboolean known = FALSE;
      for (guint c = 0; c < WS_ICLASS_COUNT; c++)
        known |= strcmp (m, iclass_names[c]) == 0;
      if (!known)
        return unknown_field (what, m, iclass_names, " in 'pipes'", error);
    }
  static const char *const pipe_members[] = { "latency", "initiation_interval", NULL };
  for (guint c = 0; c < WS_ICLASS_COUNT; c++)
    {
      JsonNode *pn = json_object_get_member (obj, iclass_names[c]);
      if (pn == NULL)
        {
          g_set_error (error, WS_ERROR, WS_ERROR_INVALID,
                       "%s: missing required field 'pipes.%s' (an object with 'latency' and "
                       "'initiation_interval' in cycles)", what, iclass_names[c]);
          return FALSE;
        }
      if (!JSON_NODE_HOLDS_OBJECT (pn))
        {
          g_set_error (error, WS_ERROR, WS_ERROR_INVALID,
                       "%s: field 'pipes.%s' has the wrong type: expected an object, got %s",
                       what, iclass_names[c], json_type_name (pn));
          return FALSE;
        }
      JsonObject *po = json_node_get_object (pn);
      g_autoptr(GList) pm = json_object_get_members (po);
      for (GList *l = pm; l != NULL; l = l->next)
        if (!g_strv_contains (pipe_members, l->data))
          {
            g_autofree char *ctx = g_strdup_printf (" in 'pipes.%s'", iclass_names[c]);
            return unknown_field (what, l->data, pipe_members, ctx, error);
          }
      /* A tensor pipe of latency 0 means "no tensor cores"; every other
       * class exists on every GPU and needs a real latency. */
      double min_latency = c == WS_ICLASS_TENSOR ? 0.0 : 1.0;
      double min_ii = c == WS_ICLASS_TENSOR ? 0.0 : 0.01;
      for (guint k = 0; k < 2; k++)
        {
          g_autofree char *field = g_strdup_printf ("pipes.%s.%s", iclass_names[c], pipe_members[k]);
          JsonNode *vn = json_object_get_member (po, pipe_members[k]);
          if (vn == NULL)
            {
              g_set_error (error, WS_ERROR, WS_ERROR_INVALID,
                           "%s: missing required field '%s' (cycles)", what, field);
              return FALSE;
            }
          if (!node_is_number (vn))
            {
              g_set_error (error, WS_ERROR, WS_ERROR_INVALID,
                           "%s: field '%s' has the wrong type: expected a number, got %s",
                           what, field, json_type_name (vn));
              return FALSE;
            }
          double v = node_number (vn);
          if (!check_range (what, field, v, k == 0 ? min_latency : min_ii,
                            k == 0 ? WS_PIPE_MAX_LATENCY : WS_PIPE_MAX_II, error))
            return FALSE;
          if (k == 0)
            gpu->pipes[c].latency = v;
          else
            gpu->pipes[c].initiation_interval = v;
        }
    }
  return TRUE;
}

static gboolean
check_kind_member (const char *what, JsonObject *obj, WsHwKind kind, GError **error)
{
  JsonNode *kn = json_object_get_member (obj, "kind");
  if (kn == NULL)
    return TRUE;
  if (!JSON_NODE_HOLDS_VALUE (kn) || json_node_get_value_type (kn) != G_TYPE_STRING)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID,
                   "%s: field 'kind' has the wrong type: expected a string (\"gpu\", \"cpu\" or "
                   "\"link\"), got %s", what, json_type_name (kn));
      return FALSE;
    }
  WsHwKind k;
  if (!ws_hw_kind_from_string (json_node_get_string (kn), &k) || k != kind)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID,
                   "%s: field 'kind' is \"%s\" but a %s record was expected (\"%s\")",
                   what, json_node_get_string (kn), kind_title (kind), ws_hw_kind_name (kind));
      return FALSE;
    }
  return TRUE;
}

/* Reads the scalar fields of @kind into @rec (zeroed by the caller); members
 * named in @extra are left to the caller. */
static gboolean
read_record (JsonNode *node, WsHwKind kind, void *rec, const char *const *extra,
             char **what_out, GError **error)
{
  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID,
                   "a %s record must be a JSON object, got %s", kind_title (kind),
                   node != NULL ? json_type_name (node) : "nothing");
      return FALSE;
    }
  JsonObject *obj = json_node_get_object (node);
  g_autofree char *what = record_label (kind, obj);

  if (!check_kind_member (what, obj, kind, error))
    return FALSE;

  guint n;
  const WsHwField *fields = ws_hw_fields (kind, &n);
  g_autoptr(GPtrArray) valid = g_ptr_array_new ();
  for (guint i = 0; i < n; i++)
    g_ptr_array_add (valid, (gpointer) fields[i].name);
  g_ptr_array_add (valid, (gpointer) "kind");
  for (guint i = 0; extra != NULL && extra[i] != NULL; i++)
    g_ptr_array_add (valid, (gpointer) extra[i]);
  g_ptr_array_add (valid, NULL);

  /* Unknown fields first: a misspelt field usually also shows up as a
   * missing one, and the misspelling is the more useful message. */
  g_autoptr(GList) members = json_object_get_members (obj);
  for (GList *l = members; l != NULL; l = l->next)
    if (!g_strv_contains ((const char *const *) valid->pdata, l->data))
      return unknown_field (what, l->data, (const char *const *) valid->pdata, "", error);

  for (guint i = 0; i < n; i++)
    {
      const WsHwField *f = &fields[i];
      JsonNode *m = json_object_get_member (obj, f->name);
      if (m == NULL || (JSON_NODE_HOLDS_NULL (m) && !f->required))
        {
          if (!f->required)
            continue;
          if (f->type == WS_HW_FIELD_STRING)
            g_set_error (error, WS_ERROR, WS_ERROR_INVALID,
                         "%s: missing required field '%s' (%s)", what, f->name, f->label);
          else
            g_set_error (error, WS_ERROR, WS_ERROR_INVALID,
                         "%s: missing required field '%s' (%s%s%s)", what, f->name, f->label,
                         *f->unit ? ", " : "", f->unit);
          return FALSE;
        }
      if (!read_field (what, f, m, rec, error))
        return FALSE;
    }
  *what_out = g_steal_pointer (&what);
  return TRUE;
}

static gboolean
check_le (const char *what, const char *a, double va, const char *b, double vb, GError **error)
{
  if (va <= vb)
    return TRUE;
  g_autofree char *sa = format_number (va);
  g_autofree char *sb = format_number (vb);
  g_set_error (error, WS_ERROR, WS_ERROR_INVALID,
               "%s: value %s of field '%s' is out of range; it must not exceed '%s' (%s)",
               what, sa, a, b, sb);
  return FALSE;
}

/* Relations between fields that a single range cannot express. */
static gboolean
check_gpu_consistency (const char *what, const WsGpu *g, GError **error)
{
  return check_le (what, "shared_per_block", g->shared_per_block,
                   "shared_per_block_optin", g->shared_per_block_optin, error) &&
         check_le (what, "shared_per_block_optin", g->shared_per_block_optin,
                   "shared_per_sm", g->shared_per_sm, error) &&
         check_le (what, "max_registers_per_block", g->max_registers_per_block,
                   "registers_per_sm", g->registers_per_sm, error) &&
         check_le (what, "max_threads_per_block", g->max_threads_per_block,
                   "max_warps_per_sm * warp_size", (double) g->max_warps_per_sm * g->warp_size, error) &&
         check_le (what, "l1_sector", g->l1_sector, "l1_line", g->l1_line, error) &&
         check_le (what, "warp_schedulers_per_sm", g->warp_schedulers_per_sm,
                   "cuda_cores_per_sm", g->cuda_cores_per_sm, error);
}

WsGpu *
ws_gpu_from_json (JsonNode *node, GError **error)
{
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);
  static const char *const extra[] = { "pipes", NULL };
  g_autoptr(WsGpu) gpu = g_new0 (WsGpu, 1);
  g_autofree char *what = NULL;
  if (!read_record (node, WS_HW_GPU, gpu, extra, &what, error))
    return NULL;
  JsonNode *pipes = json_object_get_member (json_node_get_object (node), "pipes");
  if (pipes == NULL)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID,
                   "%s: missing required field 'pipes' (latency and initiation_interval per "
                   "instruction class: fp32, int, sfu, fp64, tensor, shared, global, branch)", what);
      return NULL;
    }
  if (!read_pipes (what, pipes, gpu, error))
    return NULL;
  if (gpu->tensor_cores_per_sm > 0 && gpu->pipes[WS_ICLASS_TENSOR].latency <= 0)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID,
                   "%s: value 0 of field 'pipes.tensor.latency' is out of range; it must be at "
                   "least 1 when tensor_cores_per_sm is %d", what, gpu->tensor_cores_per_sm);
      return NULL;
    }
  if (!check_gpu_consistency (what, gpu, error))
    return NULL;
  return g_steal_pointer (&gpu);
}

WsCpu *
ws_cpu_from_json (JsonNode *node, GError **error)
{
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);
  g_autoptr(WsCpu) cpu = g_new0 (WsCpu, 1);
  g_autofree char *what = NULL;
  if (!read_record (node, WS_HW_CPU, cpu, NULL, &what, error))
    return NULL;
  return g_steal_pointer (&cpu);
}

WsLink *
ws_link_from_json (JsonNode *node, GError **error)
{
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);
  g_autoptr(WsLink) link = g_new0 (WsLink, 1);
  g_autofree char *what = NULL;
  if (!read_record (node, WS_HW_LINK, link, NULL, &what, error))
    return NULL;
  return g_steal_pointer (&link);
}

gboolean
ws_hw_json_get_kind (JsonNode *node, WsHwKind *out, GError **error)
{
  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID,
                   "a hardware record must be a JSON object, got %s",
                   node != NULL ? json_type_name (node) : "nothing");
      return FALSE;
    }
  JsonObject *obj = json_node_get_object (node);
  JsonNode *kn = json_object_get_member (obj, "kind");
  g_autofree char *what = NULL;
  JsonNode *nn = json_object_get_member (obj, "name");
  if (nn != NULL && JSON_NODE_HOLDS_VALUE (nn) && json_node_get_value_type (nn) == G_TYPE_STRING)
    what = g_strdup_printf ("record '%s'", json_node_get_string (nn));
  else
    what = g_strdup ("record");
  if (kn == NULL)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID,
                   "%s: missing required field 'kind' (\"gpu\", \"cpu\" or \"link\")", what);
      return FALSE;
    }
  if (!JSON_NODE_HOLDS_VALUE (kn) || json_node_get_value_type (kn) != G_TYPE_STRING)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID,
                   "%s: field 'kind' has the wrong type: expected a string (\"gpu\", \"cpu\" or "
                   "\"link\"), got %s", what, json_type_name (kn));
      return FALSE;
    }
  if (!ws_hw_kind_from_string (json_node_get_string (kn), out))
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID,
                   "%s: value \"%s\" of field 'kind' is out of range; allowed values are "
                   "\"gpu\", \"cpu\" and \"link\"", what, json_node_get_string (kn));
      return FALSE;
    }
  return TRUE;
}

/* ------------------------------------------------------------------------ */
/* Readable JSON text */

static void
append_double (GString *out, double v)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];
  if (!isfinite (v))
    {
      /* JSON has no NaN/Inf; null is what json-glib reads back as 0. */
      g_string_append (out, "null");
      return;
    }
  if (v == floor (v) && fabs (v) < 1e15)
    {
      g_string_append_printf (out, "%.0f", v);
      return;
    }
  for (int prec = 1; prec <= 17; prec++)
    {
      char fmt[8];
      g_snprintf (fmt, sizeof fmt, "%%.%dg", prec);
      g_ascii_formatd (buf, sizeof buf, fmt, v);
      if (g_ascii_strtod (buf, NULL) == v)
        break;
    }
  g_string_append (out, buf);
}

static void
append_string (GString *out, const char *s)
{
  g_string_append_c (out, '"');
  for (const unsigned char *p = (const unsigned char *) s; *p != '\0'; p++)
    {
      switch (*p)
        {
        case '"': g_string_append (out, "\\\""); break;
        case '\\': g_string_append (out, "\\\\"); break;
        case '\n': g_string_append (out, "\\n"); break;
        case '\r': g_string_append (out, "\\r"); break;
        case '\t': g_string_append (out, "\\t"); break;
        case '\b': g_string_append (out, "\\b"); break;
        case '\f': g_string_append (out, "\\f"); break;
        default:
          if (*p < 0x20)
            g_string_append_printf (out, "\\u%04x", *p);
          else
            g_string_append_c (out, (char) *p);
        }
    }
  g_string_append_c (out, '"');
}

static void
append_indent (GString *out, gboolean pretty, int depth)
{
  if (!pretty)
    return;
  g_string_append_c (out, '\n');
  for (int i = 0; i < depth; i++)
    g_string_append (out, "  ");
}

static void
append_node (GString *out, JsonNode *node, gboolean pretty, int depth)
{
  switch (JSON_NODE_TYPE (node))
    {
    case JSON_NODE_NULL:
      g_string_append (out, "null");
      break;
    case JSON_NODE_VALUE:
      {
        GType t = json_node_get_value_type (node);
        if (t == G_TYPE_STRING)
          append_string (out, json_node_get_string (node));
        else if (t == G_TYPE_BOOLEAN)
          g_string_append (out, json_node_get_boolean (node) ? "true" : "false");
        else if (t == G_TYPE_INT64)
          g_string_append_printf (out, "%" G_GINT64_FORMAT, json_node_get_int (node));
        else
          append_double (out, json_node_get_double (node));
      }
      break;
    case JSON_NODE_ARRAY:
      {
        JsonArray *arr = json_node_get_array (node);
        guint n = json_array_get_length (arr);
        g_string_append_c (out, '[');
        for (guint i = 0; i < n; i++)
          {
            if (i > 0)
              g_string_append_c (out, ',');
            append_indent (out, pretty, depth + 1);
            append_node (out, json_array_get_element (arr, i), pretty, depth + 1);
          }
        if (n > 0)
          append_indent (out, pretty, depth);
        g_string_append_c (out, ']');
      }
      break;
    case JSON_NODE_OBJECT:
      {
        JsonObject *obj = json_node_get_object (node);
        g_autoptr(GList) members = json_object_get_members (obj);
        g_string_append_c (out, '{');
        for (GList *l = members; l != NULL; l = l->next)
          {
            if (l != members)
              g_string_append_c (out, ',');
            append_indent (out, pretty, depth + 1);
            append_string (out, l->data);
            g_string_append (out, pretty ? ": " : ":");
            append_node (out, json_object_get_member (obj, l->data), pretty, depth + 1);
          }
        if (members != NULL)
          append_indent (out, pretty, depth);
        g_string_append_c (out, '}');
      }
      break;
    }
}

char *
ws_hw_json_to_data (JsonNode *node, gboolean pretty)
{
  g_return_val_if_fail (node != NULL, NULL);
  GString *out = g_string_new (NULL);
  append_node (out, node, pretty, 0);
  return g_string_free (out, FALSE);
}
