/* Tests of the hardware records: JSON round trip, validation messages, the
 * seed catalogue files themselves. */
#include "hw/ws-hw.h"

#include <math.h>
#include <string.h>

static char *
source_path (const char *rel)
{
  const char *src = g_getenv ("WS_SOURCE_DIR");
  g_assert_nonnull (src);
  return g_build_filename (src, rel, NULL);
}

static JsonNode *
load_json (const char *rel)
{
  g_autofree char *path = source_path (rel);
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;
  g_assert_true (json_parser_load_from_file (parser, path, &error));
  g_assert_no_error (error);
  return json_node_copy (json_parser_get_root (parser));
}

static JsonNode *
gtx970_json (void)
{
  return load_json ("db/catalogue/gpu/gtx-970.json");
}

/* Compares every described field plus the pipes. */
static void
assert_records_equal (WsHwKind kind, const void *a, const void *b)
{
  guint n;
  const WsHwField *fields = ws_hw_fields (kind, &n);
  g_assert_cmpuint (n, >, 0);
  for (guint i = 0; i < n; i++)
    {
      const WsHwField *f = &fields[i];
      const char *pa = (const char *) a + f->offset, *pb = (const char *) b + f->offset;
      switch (f->type)
        {
        case WS_HW_FIELD_STRING: g_assert_cmpstr (*(char *const *) pa, ==, *(char *const *) pb); break;
        case WS_HW_FIELD_INT: g_assert_cmpint (*(const int *) pa, ==, *(const int *) pb); break;
        case WS_HW_FIELD_DOUBLE:
          /* Exact: JSON must carry doubles without loss. */
          g_assert_cmpfloat (*(const double *) pa, ==, *(const double *) pb);
          break;
        }
    }
  if (kind == WS_HW_GPU)
    {
      const WsGpu *ga = a, *gb = b;
      for (guint c = 0; c < WS_ICLASS_COUNT; c++)
        {
          g_assert_cmpfloat (ga->pipes[c].latency, ==, gb->pipes[c].latency);
          g_assert_cmpfloat (ga->pipes[c].initiation_interval, ==, gb->pipes[c].initiation_interval);
        }
    }
}

static void
test_gpu_round_trip (void)
{
  g_autoptr (JsonNode) node = gtx970_json ();
  g_autoptr (GError) error = NULL;
  g_autoptr (WsGpu) gpu = ws_gpu_from_json (node, &error);
  g_assert_no_error (error);
  g_assert_nonnull (gpu);

  /* Awkward values: non-integral doubles that print with many digits. */
  gpu->core_clock_mhz = 1253.1 / 3.0;
  gpu->dram_data_rate = 0.1 + 3.2;
  gpu->pipes[WS_ICLASS_SFU].initiation_interval = 1.0 / 3.0;
  gpu->pipes[WS_ICLASS_GLOBAL].latency = 350.123456789012345;

  g_autoptr (JsonNode) out = ws_gpu_to_json (gpu);
  JsonObject *obj = json_node_get_object (out);
  g_assert_cmpstr (json_object_get_string_member (obj, "kind"), ==, "gpu");
  g_assert_true (json_object_has_member (json_object_get_object_member (obj, "pipes"), "tensor"));

  /* Through text, as a file would go. */
  g_autoptr (JsonGenerator) gen = json_generator_new ();
  json_generator_set_root (gen, out);
  g_autofree char *text = json_generator_to_data (gen, NULL);
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_assert_true (json_parser_load_from_data (parser, text, -1, NULL));
  g_autoptr (WsGpu) back = ws_gpu_from_json (json_parser_get_root (parser), &error);
  g_assert_no_error (error);
  assert_records_equal (WS_HW_GPU, gpu, back);

  g_autoptr (WsGpu) copy = ws_gpu_copy (gpu);
  g_assert_true (copy->name != gpu->name);
  assert_records_equal (WS_HW_GPU, gpu, copy);
}

static void
test_cpu_link_round_trip (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (JsonNode) cn = load_json ("db/catalogue/cpu/epyc-9654.json");
  g_autoptr (WsCpu) cpu = ws_cpu_from_json (cn, &error);
  g_assert_no_error (error);
  g_assert_cmpint (cpu->cores, ==, 96);
  cpu->gflops = 1234.5678901234;
  g_autoptr (JsonNode) cj = ws_cpu_to_json (cpu);
  g_assert_cmpstr (json_object_get_string_member (json_node_get_object (cj), "kind"), ==, "cpu");
  g_autoptr (WsCpu) cpu2 = ws_cpu_from_json (cj, &error);
  g_assert_no_error (error);
  assert_records_equal (WS_HW_CPU, cpu, cpu2);

  g_autoptr (JsonNode) ln = load_json ("db/catalogue/link/pcie2-x4-gtx-titan-x.json");
  g_autoptr (WsLink) link = ws_link_from_json (ln, &error);
  g_assert_no_error (error);
  g_autoptr (JsonNode) lj = ws_link_to_json (link);
  g_assert_cmpstr (json_object_get_string_member (json_node_get_object (lj), "kind"), ==, "link");
  g_autoptr (WsLink) link2 = ws_link_from_json (lj, &error);
  g_assert_no_error (error);
  assert_records_equal (WS_HW_LINK, link, link2);
  g_autoptr (WsLink) link3 = ws_link_copy (link);
  assert_records_equal (WS_HW_LINK, link, link3);
}

/* Applies @edit to the GTX 970 record and returns the import error. */
static GError *
import_error (void (*edit) (JsonObject *obj))
{
  g_autoptr (JsonNode) node = gtx970_json ();
  edit (json_node_get_object (node));
  GError *error = NULL;
  g_autoptr (WsGpu) gpu = ws_gpu_from_json (node, &error);
  g_assert_null (gpu);
  g_assert_nonnull (error);
  g_assert_true (g_error_matches (error, WS_ERROR, WS_ERROR_INVALID));
  return error;
}

static void
assert_message_has (const GError *error, const char *needle)
{
  if (strstr (error->message, needle) == NULL)
    g_error ("message \"%s\" lacks \"%s\"", error->message, needle);
}

static void
edit_unknown (JsonObject *o)
{
  json_object_set_int_member (o, "smss", 13);
}
static void
edit_unknown_pipe (JsonObject *o)
{
  JsonObject *p = json_object_get_object_member (o, "pipes");
  json_object_set_object_member (p, "fp23", json_object_ref (json_object_get_object_member (p, "fp32")));
}
static void
edit_unknown_pipe_member (JsonObject *o)
{
  JsonObject *p = json_object_get_object_member (json_object_get_object_member (o, "pipes"), "sfu");
  json_object_set_int_member (p, "latncy", 3);
}
static void
edit_missing (JsonObject *o)
{
  json_object_remove_member (o, "l2_latency");
}
static void
edit_missing_pipe (JsonObject *o)
{
  json_object_remove_member (json_object_get_object_member (o, "pipes"), "shared");
}
static void
edit_missing_pipes (JsonObject *o)
{
  json_object_remove_member (o, "pipes");
}
static void
edit_range_low (JsonObject *o)
{
  json_object_set_int_member (o, "sms", 0);
}
static void
edit_range_high (JsonObject *o)
{
  json_object_set_double_member (o, "core_clock_mhz", 1e7);
}
static void
edit_range_pipe (JsonObject *o)
{
  JsonObject *p = json_object_get_object_member (json_object_get_object_member (o, "pipes"), "fp32");
  json_object_set_int_member (p, "latency", -4);
}
static void
edit_type_string (JsonObject *o)
{
  json_object_set_string_member (o, "sms", "13");
}
static void
edit_type_fraction (JsonObject *o)
{
  json_object_set_double_member (o, "max_warps_per_sm", 63.5);
}
static void
edit_type_name (JsonObject *o)
{
  json_object_set_int_member (o, "name", 970);
}
static void
edit_consistency (JsonObject *o)
{
  json_object_set_int_member (o, "shared_per_block", 65536);
}
static void
edit_kind (JsonObject *o)
{
  json_object_set_string_member (o, "kind", "cpu");
}

static void
test_invalid_unknown_field (void)
{
  g_autoptr (GError) e1 = import_error (edit_unknown);
  assert_message_has (e1, "GPU 'GTX 970'");
  assert_message_has (e1, "unknown field 'smss'");
  assert_message_has (e1, "did you mean 'sms'?");

  g_autoptr (GError) e2 = import_error (edit_unknown_pipe);
  assert_message_has (e2, "unknown field 'fp23' in 'pipes'");
  assert_message_has (e2, "did you mean 'fp32'?");

  g_autoptr (GError) e3 = import_error (edit_unknown_pipe_member);
  assert_message_has (e3, "unknown field 'latncy' in 'pipes.sfu'");
  assert_message_has (e3, "did you mean 'latency'?");
}

static void
test_invalid_missing_field (void)
{
  g_autoptr (GError) e1 = import_error (edit_missing);
  assert_message_has (e1, "missing required field 'l2_latency'");
  assert_message_has (e1, "cycles");
  g_autoptr (GError) e2 = import_error (edit_missing_pipe);
  assert_message_has (e2, "missing required field 'pipes.shared'");
  g_autoptr (GError) e3 = import_error (edit_missing_pipes);
  assert_message_has (e3, "missing required field 'pipes'");
}

static void
test_invalid_out_of_range (void)
{
  g_autoptr (GError) e1 = import_error (edit_range_low);
  assert_message_has (e1, "value 0 of field 'sms' is out of range");
  assert_message_has (e1, "allowed range is 1 to 1024");
  g_autoptr (GError) e2 = import_error (edit_range_high);
  assert_message_has (e2, "value 10000000 of field 'core_clock_mhz'");
  assert_message_has (e2, "1 to 10000");
  g_autoptr (GError) e3 = import_error (edit_range_pipe);
  assert_message_has (e3, "value -4 of field 'pipes.fp32.latency' is out of range");
  g_autoptr (GError) e4 = import_error (edit_consistency);
  assert_message_has (e4, "'shared_per_block'");
  assert_message_has (e4, "'shared_per_block_optin' (49152)");
}

static void
test_invalid_wrong_type (void)
{
  g_autoptr (GError) e1 = import_error (edit_type_string);
  assert_message_has (e1, "field 'sms' has the wrong type: expected an integer, got a string");
  g_autoptr (GError) e2 = import_error (edit_type_fraction);
  assert_message_has (e2, "field 'max_warps_per_sm' has the wrong type: expected an integer, got 63.5");
  g_autoptr (GError) e3 = import_error (edit_type_name);
  assert_message_has (e3, "field 'name' has the wrong type: expected a string");
  g_autoptr (GError) e4 = import_error (edit_kind);
  assert_message_has (e4, "field 'kind' is \"cpu\" but a GPU record was expected");
}

static void
test_kind_detection (void)
{
  g_autoptr (GError) error = NULL;
  WsHwKind kind = WS_HW_CPU;
  g_autoptr (JsonNode) node = gtx970_json ();
  g_assert_true (ws_hw_json_get_kind (node, &kind, &error));
  g_assert_cmpint (kind, ==, WS_HW_GPU);
  json_object_remove_member (json_node_get_object (node), "kind");
  g_assert_false (ws_hw_json_get_kind (node, &kind, &error));
  g_assert_error (error, WS_ERROR, WS_ERROR_INVALID);
  assert_message_has (error, "missing required field 'kind'");
  /* Without "kind", a GPU record still imports as a GPU. */
  g_clear_error (&error);
  g_autoptr (WsGpu) gpu = ws_gpu_from_json (node, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (gpu->name, ==, "GTX 970");
}

static void
test_peak_and_names (void)
{
  g_autoptr (JsonNode) node = gtx970_json ();
  g_autoptr (WsGpu) gpu = ws_gpu_from_json (node, NULL);
  g_assert_nonnull (gpu);
  /* 2 FLOP x 13 SMs x 128 cores x 1253 MHz. */
  g_assert_cmpfloat_with_epsilon (ws_gpu_peak_fp32_gflops (gpu), 4169.984, 1e-9);
  g_assert_cmpstr (ws_iclass_name (WS_ICLASS_FP32), ==, "fp32");
  g_assert_cmpstr (ws_iclass_name (WS_ICLASS_BRANCH), ==, "branch");
  WsHwKind k;
  g_assert_true (ws_hw_kind_from_string ("LINK", &k));
  g_assert_cmpint (k, ==, WS_HW_LINK);
  g_assert_false (ws_hw_kind_from_string ("fpga", &k));
}

/* Every seed file imports, names are unique, sources are noted, and the
 * catalogue spans Fermi to Hopper. */
static void
test_seed_files_valid (void)
{
  static const char *const kinds[] = { "gpu", "cpu", "link" };
  g_autoptr (GHashTable) names = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr (GHashTable) archs = g_hash_table_new (g_str_hash, g_str_equal);
  guint counts[3] = { 0 };
  g_autoptr (GPtrArray) keep = g_ptr_array_new_with_free_func ((GDestroyNotify) ws_gpu_free);

  for (guint k = 0; k < 3; k++)
    {
      g_autofree char *rel = g_build_filename ("db", "catalogue", kinds[k], NULL);
      g_autofree char *dirpath = source_path (rel);
      g_autoptr (GDir) dir = g_dir_open (dirpath, 0, NULL);
      g_assert_nonnull (dir);
      const char *entry;
      while ((entry = g_dir_read_name (dir)) != NULL)
        {
          if (!g_str_has_suffix (entry, ".json"))
            continue;
          g_autofree char *file = g_build_filename (rel, entry, NULL);
          g_autoptr (JsonNode) node = load_json (file);
          g_autoptr (GError) error = NULL;
          WsHwKind kind;
          g_assert_true (ws_hw_json_get_kind (node, &kind, &error));
          g_assert_cmpstr (ws_hw_kind_name (kind), ==, kinds[k]);
          const char *name = NULL, *sources = NULL;
          if (kind == WS_HW_GPU)
            {
              WsGpu *gpu = ws_gpu_from_json (node, &error);
              if (gpu == NULL)
                g_error ("%s: %s", file, error->message);
              name = gpu->name;
              sources = gpu->sources;
              g_hash_table_add (archs, gpu->architecture);
              /* Occupancy inputs must be real, not placeholders. */
              g_assert_cmpint (gpu->registers_per_sm % gpu->register_alloc_unit, ==, 0);
              g_assert_cmpint (gpu->shared_per_sm % gpu->shared_alloc_unit, ==, 0);
              g_assert_cmpint (gpu->shared_reserved_per_block, ==, gpu->cc_major >= 8 ? 1024 : 0);
              g_assert_cmpint (gpu->pipes[WS_ICLASS_TENSOR].latency > 0, ==, gpu->tensor_cores_per_sm > 0);
              /* Bandwidth agrees with clock x data rate x bus width. */
              double derived = gpu->dram_clock_mhz * gpu->dram_data_rate * gpu->dram_bus_width_bits / 8.0 / 1000.0;
              if (fabs (derived - gpu->dram_bandwidth_gbs) > 0.01 * gpu->dram_bandwidth_gbs)
                g_error ("%s: bandwidth %g GB/s but clock x rate x width gives %g", file, gpu->dram_bandwidth_gbs,
                         derived);
              g_ptr_array_add (keep, gpu);
            }
          else if (kind == WS_HW_CPU)
            {
              g_autoptr (WsCpu) cpu = ws_cpu_from_json (node, &error);
              if (cpu == NULL)
                g_error ("%s: %s", file, error->message);
              g_assert_false (g_hash_table_contains (names, cpu->name));
              g_hash_table_add (names, g_ascii_strdown (cpu->name, -1));
              g_assert_true (cpu->sources != NULL && strlen (cpu->sources) > 20);
            }
          else
            {
              g_autoptr (WsLink) link = ws_link_from_json (node, &error);
              if (link == NULL)
                g_error ("%s: %s", file, error->message);
              g_assert_false (g_hash_table_contains (names, link->name));
              g_hash_table_add (names, g_ascii_strdown (link->name, -1));
              g_assert_true (link->sources != NULL && strstr (link->sources, "Table 6.2") != NULL);
            }
          if (name != NULL)
            {
              g_autofree char *lower = g_ascii_strdown (name, -1);
              if (g_hash_table_contains (names, lower))
                g_error ("%s: duplicate name '%s'", file, name);
              g_hash_table_add (names, g_steal_pointer (&lower));
              g_assert_true (sources != NULL && strlen (sources) > 100);
            }
          counts[k]++;
        }
    }
  g_assert_cmpuint (counts[0], >=, 20);
  g_assert_cmpuint (counts[1], >=, 2);
  g_assert_cmpuint (counts[2], ==, 3);
  static const char *const expected_archs[] = { "Fermi", "Kepler", "Maxwell", "Pascal",
                                                "Volta", "Ampere", "Ada",     "Hopper" };
  for (guint i = 0; i < G_N_ELEMENTS (expected_archs); i++)
    g_assert_true (g_hash_table_contains (archs, expected_archs[i]));
}

/* Loads every GPU record of db/catalogue/gpu (file name -> record). */
static GPtrArray *
load_catalogue_gpus (GPtrArray *files)
{
  g_autofree char *dirpath = source_path ("db/catalogue/gpu");
  g_autoptr (GDir) dir = g_dir_open (dirpath, 0, NULL);
  g_assert_nonnull (dir);
  GPtrArray *gpus = g_ptr_array_new_with_free_func ((GDestroyNotify) ws_gpu_free);
  const char *entry;
  while ((entry = g_dir_read_name (dir)) != NULL)
    {
      if (!g_str_has_suffix (entry, ".json"))
        continue;
      g_autofree char *file = g_build_filename ("db", "catalogue", "gpu", entry, NULL);
      g_autoptr (JsonNode) node = load_json (file);
      g_autoptr (GError) error = NULL;
      WsGpu *gpu = ws_gpu_from_json (node, &error);
      if (gpu == NULL)
        g_error ("%s: %s", file, error->message);
      g_ptr_array_add (gpus, gpu);
      g_ptr_array_add (files, g_steal_pointer (&file));
    }
  return gpus;
}

/* Every parameter that is not on a datasheet (latencies, MSHRs, slices,
 * channels, banks, associativities, pipes, peak cache bandwidths) and the
 * clock choice must be accounted for by name in the record's sources. */
static void
test_seed_sources_name_guessed_fields (void)
{
  static const char *const guessed[] = {
    "core_clock_mhz",
    "l1_latency",
    "l1_mshrs",
    "l1_assoc",
    "l1_bandwidth_bytes_per_clk",
    "l2_latency",
    "l2_assoc",
    "l2_slices",
    "l2_bandwidth_bytes_per_clk",
    "dram_latency",
    "dram_channels",
    "dram_banks",
    "pipes latency",
    "pipes initiation_interval",
  };
  g_autoptr (GPtrArray) files = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GPtrArray) gpus = load_catalogue_gpus (files);
  g_assert_cmpuint (gpus->len, >=, 20);
  for (guint i = 0; i < gpus->len; i++)
    {
      const WsGpu *g = gpus->pdata[i];
      const char *file = files->pdata[i];
      g_assert_true (g->sources != NULL && *g->sources != '\0');
      for (guint k = 0; k < G_N_ELEMENTS (guessed); k++)
        if (strstr (g->sources, guessed[k]) == NULL)
          g_error ("%s: sources do not say where '%s' comes from", file, guessed[k]);
      /* Volta and later: 32 banks x 4 B per clock (CUDA Programming Guide). */
      g_assert_cmpfloat (g->l1_bandwidth_bytes_per_clk, >, 0);
      if (g->cc_major >= 5)
        g_assert_cmpfloat (g->l1_bandwidth_bytes_per_clk, ==, 128);
    }
}

/* Little's law: to reach its datasheet bandwidth at the unloaded DRAM
 * latency, each SM must keep bandwidth x latency / 32 B / SMs sector misses
 * in flight.  The seed papers' simulated configurations (GPUMech, TBPoint)
 * state their own MSHR count and are exempt; every real GPU must allow at
 * least this many (32 capped a GTX 970 at a quarter of its 224 GB/s). */
static void
test_seed_mshrs_reach_bandwidth (void)
{
  g_autoptr (GPtrArray) files = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GPtrArray) gpus = load_catalogue_gpus (files);
  guint checked = 0;
  for (guint i = 0; i < gpus->len; i++)
    {
      const WsGpu *g = gpus->pdata[i];
      if (strstr (g->sources, "Simulation Configuration") != NULL)
        continue;
      double latency_s = g->dram_latency / (g->core_clock_mhz * 1e6);
      double need = g->dram_bandwidth_gbs * 1e9 * latency_s / 32.0 / g->sms;
      if (g->l1_mshrs < need)
        g_error ("%s: l1_mshrs %d < %.1f misses in flight needed for %g GB/s", (char *) files->pdata[i], g->l1_mshrs,
                 need, g->dram_bandwidth_gbs);
      checked++;
    }
  g_assert_cmpuint (checked, >=, 18);
}

/* The records the public dataset and the held-out GPUs need, with their
 * datasheet values (vendor datasheets and whitepapers). */
static void
test_seed_datasheet_records (void)
{
  static const struct {
    const char *file, *name;
    int sms;
    double clock, bw_gbs;
    int l2_bytes;
    double memory_gb;
    int bus;
    double l2_bw;
  } t[] = {
    { "db/catalogue/gpu/a100.json", "A100", 108, 1410, 1555.2, 40 << 20, 40, 5120, 5120 },
    { "db/catalogue/gpu/a100-80gb.json", "A100 80GB", 108, 1410, 2039.04, 40 << 20, 80, 5120, 5120 },
    { "db/catalogue/gpu/h100-pcie.json", "H100 PCIe", 114, 1755, 2039.04, 50 << 20, 80, 5120, 0 },
    { "db/catalogue/gpu/h200.json", "H200", 132, 1980, 4800, 50 << 20, 141, 6144, 0 },
    { "db/catalogue/gpu/tesla-v100-pcie.json", "Tesla V100 PCIe", 80, 1380, 898.048, 6 << 20, 16, 4096, 2048 },
    { "db/catalogue/gpu/tesla-v100.json", "Tesla V100", 80, 1530, 898.048, 6 << 20, 16, 4096, 2048 },
    { "db/catalogue/gpu/a40.json", "A40", 84, 1740, 696, 6 << 20, 48, 384, 0 },
    { "db/catalogue/gpu/l40.json", "L40", 142, 2490, 864, 96 << 20, 48, 384, 0 },
    { "db/catalogue/gpu/titan-x-pascal.json", "TITAN X Pascal", 28, 1417, 480.384, 3 << 20, 12, 384, 0 },
  };
  for (guint i = 0; i < G_N_ELEMENTS (t); i++)
    {
      g_autoptr (JsonNode) node = load_json (t[i].file);
      g_autoptr (GError) error = NULL;
      g_autoptr (WsGpu) g = ws_gpu_from_json (node, &error);
      g_assert_no_error (error);
      g_assert_cmpstr (g->name, ==, t[i].name);
      g_assert_cmpint (g->sms, ==, t[i].sms);
      g_assert_cmpfloat (g->core_clock_mhz, ==, t[i].clock);
      g_assert_cmpfloat_with_epsilon (g->dram_bandwidth_gbs, t[i].bw_gbs, 1e-9);
      g_assert_cmpint (g->l2_size, ==, t[i].l2_bytes);
      g_assert_cmpfloat (g->memory_gb, ==, t[i].memory_gb);
      g_assert_cmpint (g->dram_bus_width_bits, ==, t[i].bus);
      g_assert_cmpfloat (g->l2_bandwidth_bytes_per_clk, ==, t[i].l2_bw);
    }
}

static void
edit_drop_bandwidths (JsonObject *o)
{
  json_object_remove_member (o, "l1_bandwidth_bytes_per_clk");
  json_object_remove_member (o, "l2_bandwidth_bytes_per_clk");
}
static void
edit_negative_l2_bandwidth (JsonObject *o)
{
  json_object_set_double_member (o, "l2_bandwidth_bytes_per_clk", -1.0);
}

/* The peak-bandwidth fields survive export/import exactly, are optional so
 * files exported before they existed still import (as 0, unknown), and are
 * range checked when present. */
static void
test_optional_bandwidth_fields (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (JsonNode) node = load_json ("db/catalogue/gpu/a100.json");
  g_autoptr (WsGpu) gpu = ws_gpu_from_json (node, &error);
  g_assert_no_error (error);
  g_assert_cmpfloat (gpu->l1_bandwidth_bytes_per_clk, ==, 128);
  g_assert_cmpfloat (gpu->l2_bandwidth_bytes_per_clk, ==, 5120);

  gpu->l1_bandwidth_bytes_per_clk = 128.0 / 3.0;
  gpu->l2_bandwidth_bytes_per_clk = 5120.1;
  g_autoptr (JsonNode) out = ws_gpu_to_json (gpu);
  g_autofree char *text = ws_hw_json_to_data (out, TRUE);
  g_assert_nonnull (strstr (text, "\"l2_bandwidth_bytes_per_clk\": 5120.1"));
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_assert_true (json_parser_load_from_data (parser, text, -1, NULL));
  g_autoptr (WsGpu) back = ws_gpu_from_json (json_parser_get_root (parser), &error);
  g_assert_no_error (error);
  g_assert_cmpfloat (back->l1_bandwidth_bytes_per_clk, ==, 128.0 / 3.0);
  g_assert_cmpfloat (back->l2_bandwidth_bytes_per_clk, ==, 5120.1);
  assert_records_equal (WS_HW_GPU, gpu, back);

  /* An export from before the fields existed. */
  g_autoptr (JsonNode) old = gtx970_json ();
  edit_drop_bandwidths (json_node_get_object (old));
  g_autoptr (WsGpu) oldgpu = ws_gpu_from_json (old, &error);
  g_assert_no_error (error);
  g_assert_cmpfloat (oldgpu->l1_bandwidth_bytes_per_clk, ==, 0);
  g_assert_cmpfloat (oldgpu->l2_bandwidth_bytes_per_clk, ==, 0);
  g_assert_cmpint (oldgpu->sms, ==, 13);

  g_autoptr (GError) e = import_error (edit_negative_l2_bandwidth);
  assert_message_has (e, "value -1 of field 'l2_bandwidth_bytes_per_clk' is out of range");

  /* The rate the models use: the published figure, else GA100's 64 B/clk
   * per slice (H100 PCIe: none published, 80 slices), else none. */
  g_assert_cmpfloat (ws_gpu_l2_model_bytes_per_clk (gpu), ==, 5120.1);
  g_autoptr (JsonNode) hopper_node = load_json ("db/catalogue/gpu/h100-pcie.json");
  g_autoptr (WsGpu) hopper = ws_gpu_from_json (hopper_node, &error);
  g_assert_no_error (error);
  g_assert_cmpfloat (hopper->l2_bandwidth_bytes_per_clk, ==, 0);
  g_assert_cmpfloat (ws_gpu_l2_model_bytes_per_clk (hopper), ==, 80 * 64);
  hopper->l2_slices = 0;
  g_assert_cmpfloat (ws_gpu_l2_model_bytes_per_clk (hopper), ==, 0);
}

/* Seed 004 Table 6.1, exactly. */
static void
test_seed_table_6_1 (void)
{
  static const struct {
    const char *file;
    int sms;
    double clock;
    int ccmaj, ccmin;
    double memclk;
    int bus;
    double rate;
    double bytes_per_cycle_per_sm;
  } t61[] = {
    { "db/catalogue/gpu/gtx-970.json", 13, 1253, 5, 2, 1753, 256, 4, 13.78 },
    { "db/catalogue/gpu/gtx-titan-x.json", 24, 1076, 5, 2, 1753, 384, 4, 13.03 },
    { "db/catalogue/gpu/gtx-1070.json", 15, 1923, 6, 1, 2002, 256, 4, 8.88 },
  };
  for (guint i = 0; i < G_N_ELEMENTS (t61); i++)
    {
      g_autoptr (JsonNode) node = load_json (t61[i].file);
      g_autoptr (GError) error = NULL;
      g_autoptr (WsGpu) g = ws_gpu_from_json (node, &error);
      g_assert_no_error (error);
      g_assert_cmpint (g->sms, ==, t61[i].sms);
      g_assert_cmpfloat (g->core_clock_mhz, ==, t61[i].clock);
      g_assert_cmpint (g->cc_major, ==, t61[i].ccmaj);
      g_assert_cmpint (g->cc_minor, ==, t61[i].ccmin);
      g_assert_cmpint (g->warp_schedulers_per_sm, ==, 4);
      g_assert_cmpint (g->cuda_cores_per_sm, ==, 128);
      g_assert_cmpfloat (g->dram_clock_mhz, ==, t61[i].memclk);
      g_assert_cmpint (g->dram_bus_width_bits, ==, t61[i].bus);
      g_assert_cmpfloat (g->dram_data_rate, ==, t61[i].rate);
      g_assert_cmpstr (g->dram_type, ==, "GDDR5");
      /* Table 6.1's "global memory throughput per SM" follows from these. */
      double per_sm = g->dram_bandwidth_gbs * 1e9 / (g->sms * g->core_clock_mhz * 1e6);
      g_assert_cmpfloat_with_epsilon (per_sm, t61[i].bytes_per_cycle_per_sm, 0.005);
    }
}

/* The field tables are the schema's one owner: every row must carry what
 * the views and the validation read from it. */
static void
test_field_tables_complete (void)
{
  static const WsHwKind kinds[] = { WS_HW_GPU, WS_HW_CPU, WS_HW_LINK };
  static const gsize sizes[] = { sizeof (WsGpu), sizeof (WsCpu), sizeof (WsLink) };
  for (guint k = 0; k < G_N_ELEMENTS (kinds); k++)
    {
      guint n, n_derived, paragraphs = 0;
      const WsHwField *fields = ws_hw_fields (kinds[k], &n);
      const WsHwDerived *derived = ws_hw_derived (kinds[k], &n_derived);
      g_autoptr (GHashTable) keys = g_hash_table_new (g_str_hash, g_str_equal);
      g_assert_cmpuint (n, >, 0);
      for (guint i = 0; i < n; i++)
        {
          const WsHwField *f = &fields[i];
          g_assert_true (g_hash_table_add (keys, (gpointer) f->name));
          g_assert_cmpuint (f->offset, <, sizes[k]);
          g_assert_nonnull (f->unit);
          g_assert_true (f->label != NULL && *f->label != '\0');
          g_assert_true (f->group != NULL && *f->group != '\0');
          if (f->help == NULL || strlen (f->help) < 10)
            g_error ("%s: field '%s' has no help text", ws_hw_kind_name (kinds[k]), f->name);
          g_assert_true (ws_hw_field_find (kinds[k], f->name) == f);
          if (f->type == WS_HW_FIELD_STRING)
            g_assert_true (f->format == WS_HW_FORMAT_TEXT || f->format == WS_HW_FORMAT_PARAGRAPH);
          else
            {
              g_assert_true (f->format != WS_HW_FORMAT_TEXT && f->format != WS_HW_FORMAT_PARAGRAPH);
              g_assert_cmpfloat (f->min, <=, f->max);
            }
          if (f->format == WS_HW_FORMAT_BYTES)
            g_assert_cmpint (f->type, ==, WS_HW_FIELD_INT);
          paragraphs += f->format == WS_HW_FORMAT_PARAGRAPH;
        }
      /* Each record has one free-text "sources" field, shown apart. */
      g_assert_cmpuint (paragraphs, ==, 1);
      g_assert_cmpint (ws_hw_field_find (kinds[k], "sources")->format, ==, WS_HW_FORMAT_PARAGRAPH);
      g_assert_null (ws_hw_field_find (kinds[k], "no_such_field"));
      /* Derived keys never shadow a JSON key. */
      for (guint i = 0; i < n_derived; i++)
        {
          g_assert_true (g_hash_table_add (keys, (gpointer) derived[i].name));
          g_assert_true (derived[i].label != NULL && *derived[i].label != '\0');
          g_assert_true (derived[i].help != NULL && *derived[i].help != '\0');
          g_assert_nonnull (derived[i].compute);
          g_assert_true (ws_hw_derived_find (kinds[k], derived[i].name) == &derived[i]);
        }
    }
  g_assert_cmpstr (ws_iclass_label (WS_ICLASS_SFU), ==, "Special functions (SFU)");
  g_assert_cmpstr (ws_hw_text (""), ==, "");
}

/* What the GUI comparison grid and `hw show` print as derived figures. */
static void
test_derived_rows (void)
{
  g_autoptr (JsonNode) node = gtx970_json ();
  g_autoptr (WsGpu) gpu = ws_gpu_from_json (node, NULL);
  g_assert_nonnull (gpu);
  struct {
    const char *name;
    double value;
  } expect[] = {
    { "compute_capability", 5.2 },
    { "peak_fp32_gflops", 4169.984 },
    /* 2 FLOP x 13 SMs x 4 FP64 units x 1253 MHz */
    { "peak_fp64_gflops", 130.312 },
    { "bytes_per_flop", 224.384 / 4169.984 },
    { "flops_per_byte", 4169.984 / 224.384 },
    { "max_threads_per_sm", 2048 },
  };
  for (guint i = 0; i < G_N_ELEMENTS (expect); i++)
    {
      const WsHwDerived *d = ws_hw_derived_find (WS_HW_GPU, expect[i].name);
      g_assert_nonnull (d);
      g_assert_cmpfloat_with_epsilon (d->compute (gpu), expect[i].value, 1e-9);
    }
  /* No published L2 figure for the GTX 970: its GB/s is undefined, not 0. */
  g_assert_cmpfloat (gpu->l2_bandwidth_bytes_per_clk, ==, 0);
  g_assert_true (isnan (ws_hw_derived_find (WS_HW_GPU, "l2_bandwidth_gbs")->compute (gpu)));
  gpu->l2_bandwidth_bytes_per_clk = 64;
  g_assert_cmpfloat_with_epsilon (ws_hw_derived_find (WS_HW_GPU, "l2_bandwidth_gbs")->compute (gpu), 64 * 1253 / 1000.0,
                                  1e-9);
  guint n;
  g_assert_null (ws_hw_derived (WS_HW_CPU, &n));
  g_assert_cmpuint (n, ==, 0);
}

/* die_area_mm2 was added as one row of the table: it round-trips through
 * JSON, is optional (older files import as 0, unknown), range-checked, and
 * every catalogue record that fills it names its source. */
static void
test_die_area_field (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (JsonNode) node = gtx970_json ();
  g_autoptr (WsGpu) gpu = ws_gpu_from_json (node, &error);
  g_assert_no_error (error);
  /* GM204: 398 mm², GeForce GTX 980 whitepaper. */
  g_assert_cmpfloat (gpu->die_area_mm2, ==, 398);
  const WsHwField *f = ws_hw_field_find (WS_HW_GPU, "die_area_mm2");
  g_assert_nonnull (f);
  g_assert_false (f->required);
  g_assert_cmpfloat (ws_hw_field_get_number (f, gpu), ==, 398);

  gpu->die_area_mm2 = 398.25;
  g_autoptr (JsonNode) out = ws_gpu_to_json (gpu);
  g_assert_cmpfloat (json_object_get_double_member (json_node_get_object (out), "die_area_mm2"), ==, 398.25);
  g_autoptr (WsGpu) back = ws_gpu_from_json (out, &error);
  g_assert_no_error (error);
  g_assert_cmpfloat (back->die_area_mm2, ==, 398.25);

  json_object_remove_member (json_node_get_object (node), "die_area_mm2");
  g_autoptr (WsGpu) old = ws_gpu_from_json (node, &error);
  g_assert_no_error (error);
  g_assert_cmpfloat (old->die_area_mm2, ==, 0);
  g_assert_true (ws_hw_field_is_unknown (f, old));

  json_object_set_int_member (json_node_get_object (node), "die_area_mm2", 20000);
  g_autoptr (WsGpu) bad = ws_gpu_from_json (node, &error);
  g_assert_null (bad);
  g_assert_error (error, WS_ERROR, WS_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, "value 20000 of field 'die_area_mm2' is out of range"));

  g_autoptr (GPtrArray) files = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GPtrArray) gpus = load_catalogue_gpus (files);
  guint filled = 0;
  for (guint i = 0; i < gpus->len; i++)
    {
      const WsGpu *g = gpus->pdata[i];
      if (g->die_area_mm2 == 0)
        continue;
      filled++;
      if (strstr (g->sources, "die_area_mm2") == NULL || strstr (g->sources, "whitepaper") == NULL)
        g_error ("%s: sources do not say where die_area_mm2 comes from", (char *) files->pdata[i]);
    }
  g_assert_cmpuint (filled, >=, 14);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/hw/json/gpu-round-trip-every-field", test_gpu_round_trip);
  g_test_add_func ("/hw/json/cpu-link-round-trip-every-field", test_cpu_link_round_trip);
  g_test_add_func ("/hw/json/invalid-unknown-field-suggests", test_invalid_unknown_field);
  g_test_add_func ("/hw/json/invalid-missing-field", test_invalid_missing_field);
  g_test_add_func ("/hw/json/invalid-out-of-range", test_invalid_out_of_range);
  g_test_add_func ("/hw/json/invalid-wrong-type", test_invalid_wrong_type);
  g_test_add_func ("/hw/json/kind-detection", test_kind_detection);
  g_test_add_func ("/hw/derived/peak-fp32-and-names", test_peak_and_names);
  g_test_add_func ("/hw/seed/all-files-valid-unique-sourced", test_seed_files_valid);
  g_test_add_func ("/hw/seed/table-6-1-exact", test_seed_table_6_1);
  g_test_add_func ("/hw/seed/sources-name-every-guessed-field", test_seed_sources_name_guessed_fields);
  g_test_add_func ("/hw/seed/mshrs-reach-datasheet-bandwidth", test_seed_mshrs_reach_bandwidth);
  g_test_add_func ("/hw/seed/datasheet-records", test_seed_datasheet_records);
  g_test_add_func ("/hw/json/optional-bandwidth-fields", test_optional_bandwidth_fields);
  g_test_add_func ("/hw/fields/tables-complete", test_field_tables_complete);
  g_test_add_func ("/hw/derived/rows", test_derived_rows);
  g_test_add_func ("/hw/json/new-field-die-area", test_die_area_field);
  return g_test_run ();
}
