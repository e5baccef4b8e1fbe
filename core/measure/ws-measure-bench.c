/* ws-measure-bench.c: turning the output of the calibration micro-benchmarks
 * (bench/calibration/ws-calibrate.cu) into a catalogue entry and a link. */
#include "measure/ws-measure.h"
#include <math.h>
#include <string.h>

static gboolean
take (GHashTable *values, const char *key, double *out)
{
  double *v = g_hash_table_lookup (values, key);
  if (v == NULL || !(*v > 0))
    return FALSE;
  *out = *v;
  return TRUE;
}

WsLink *
ws_measure_apply_benchmark (WsGpu *gpu, const char *output, const char *when, double *bank_conflict, GError **error)
{
  g_return_val_if_fail (gpu != NULL && output != NULL, NULL);
  g_autoptr (GHashTable) values = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_autoptr (GArray) pcie_htod = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr (GArray) pcie_dtoh = g_array_new (FALSE, FALSE, sizeof (double));
  g_auto (GStrv) lines = g_strsplit (output, "\n", -1);
  for (guint i = 0; lines[i]; i++)
    {
      g_strstrip (lines[i]);
      if (lines[i][0] == '\0' || lines[i][0] == '#')
        continue;
      g_auto (GStrv) f = g_strsplit_set (lines[i], " \t", -1);
      guint n = g_strv_length (f);
      if (n >= 2 && strcmp (f[0], "device") == 0)
        continue;
      if (n == 4 && strcmp (f[0], "pcie") == 0)
        {
          WsMemcpyDirection d;
          char *e1 = NULL, *e2 = NULL;
          double pair[2] = { g_ascii_strtod (f[2], &e1), g_ascii_strtod (f[3], &e2) };
          if (ws_memcpy_direction_from_string (f[1], &d) && d <= WS_MEMCPY_DTOH && *e1 == '\0' && *e2 == '\0')
            {
              g_array_append_vals (d == WS_MEMCPY_HTOD ? pcie_htod : pcie_dtoh, pair, 2);
              continue;
            }
        }
      else if (n == 2)
        {
          char *end = NULL;
          double v = g_ascii_strtod (f[1], &end);
          if (end != f[1] && *end == '\0' && isfinite (v))
            {
              double *p = g_new (double, 1);
              *p = v;
              g_hash_table_replace (values, g_strdup (f[0]), p);
              continue;
            }
        }
      g_set_error (error, WS_ERROR, WS_ERROR_PARSE, "benchmark output line %u is not understood: \"%s\"", i + 1,
                   lines[i]);
      return NULL;
    }
  static const char *const needed[] = { "l1_latency", "l2_latency", "dram_latency", "shared_latency" };
  for (guint i = 0; i < G_N_ELEMENTS (needed); i++)
    if (!g_hash_table_contains (values, needed[i]))
      {
        g_set_error (error, WS_ERROR, WS_ERROR_INVALID, "the benchmark output lacks %s; did it stop early?", needed[i]);
        return NULL;
      }

  /* Measured values replace the datasheet ones. */
  double v;
  if (take (values, "sms", &v))
    gpu->sms = (int) v;
  if (take (values, "core_clock_mhz", &v))
    gpu->core_clock_mhz = v;
  if (take (values, "l1_latency", &v))
    gpu->l1_latency = v;
  if (take (values, "l2_latency", &v))
    gpu->l2_latency = v;
  if (take (values, "dram_latency", &v))
    gpu->dram_latency = gpu->pipes[WS_ICLASS_GLOBAL].latency = v;
  if (take (values, "shared_latency", &v))
    gpu->pipes[WS_ICLASS_SHARED].latency = v;
  static const struct {
    const char *key;
    WsIClass c;
  } pipes[] = {
    { "fp32", WS_ICLASS_FP32 },
    { "int", WS_ICLASS_INT },
    { "sfu", WS_ICLASS_SFU },
    { "fp64", WS_ICLASS_FP64 },
  };
  int subparts = gpu->warp_schedulers_per_sm > 0 ? gpu->warp_schedulers_per_sm : 4;
  for (guint i = 0; i < G_N_ELEMENTS (pipes); i++)
    {
      g_autofree char *lat = g_strconcat (pipes[i].key, "_latency", NULL);
      g_autofree char *thr = g_strconcat (pipes[i].key, "_warp_insts_per_cycle_per_sm", NULL);
      if (take (values, lat, &v))
        gpu->pipes[pipes[i].c].latency = v;
      /* The catalogue's gap is per SM sub-partition (one scheduler). */
      if (take (values, thr, &v))
        gpu->pipes[pipes[i].c].initiation_interval = subparts / v;
    }
  double bank = 0;
  take (values, "shared_bank_conflict_cycles_per_way", &bank);
  if (bank_conflict)
    *bank_conflict = bank;
  g_autofree char *provenance = g_strdup_printf (
    "latencies (L1, L2, DRAM by pointer chasing; shared memory; FP32/INT/SFU/FP64), pipe gaps, SMs and clock "
    "measured by warpscope-cli calibrate (bench/calibration/ws-calibrate.cu) on %s; shared-memory bank conflict "
    "cost %.3g cycles per extra way",
    when, bank);
  char *sources = g_strdup_printf ("%s%s%s", gpu->sources ? gpu->sources : "", gpu->sources ? "; " : "", provenance);
  g_free (gpu->sources);
  gpu->sources = sources;

  /* PCIe: eq. 4.6 fitted per direction against the nominal bandwidth;
   * without one, the effective bandwidth is recorded with λc = 1. */
  WsLink *link = g_new0 (WsLink, 1);
  link->name = g_strdup_printf ("%s PCIe", gpu->name);
  link->type = g_strdup ("PCIe");
  double nominal = ws_measure_pcie_bandwidth_gbs (gpu->pcie_gen, gpu->pcie_lanes);
  GArray *dirs[2] = { pcie_htod, pcie_dtoh };
  for (int d = 0; d < 2; d++)
    {
      guint n = dirs[d]->len / 2;
      if (n == 0)
        {
          g_set_error (error, WS_ERROR, WS_ERROR_INVALID, "the benchmark output has no PCIe %s copy times",
                       ws_memcpy_direction_name (d));
          ws_link_free (link);
          return NULL;
        }
      g_autofree double *bytes = g_new (double, n), *secs = g_new (double, n);
      for (guint i = 0; i < n; i++)
        {
          bytes[i] = g_array_index (dirs[d], double, 2 * i);
          secs[i] = g_array_index (dirs[d], double, 2 * i + 1);
        }
      WsLinkFit fit;
      if (!ws_measure_fit_link (bytes, secs, n, nominal > 0 ? nominal : 1.0, &fit, error))
        {
          g_prefix_error (error, "PCIe %s: ", ws_memcpy_direction_name (d));
          ws_link_free (link);
          return NULL;
        }
      double bw = nominal > 0 ? nominal : fit.lambda;
      double lambda = nominal > 0 ? fit.lambda : 1.0;
      if (d == WS_MEMCPY_HTOD)
        link->h2d_bandwidth_gbs = bw, link->h2d_startup_us = fit.startup_s * 1e6, link->h2d_lambda = lambda;
      else
        link->d2h_bandwidth_gbs = bw, link->d2h_startup_us = fit.startup_s * 1e6, link->d2h_lambda = lambda;
    }
  if (nominal > 0)
    link->sources = g_strdup_printf ("startup and lambda_c (seed 004 eq. 4.6) fitted to pinned cudaMemcpy times "
                                     "measured by warpscope-cli calibrate on %s; bw = nominal PCIe gen %d x%d",
                                     when, gpu->pcie_gen, gpu->pcie_lanes);
  else
    link->sources = g_strdup_printf ("startup and effective bandwidth (seed 004 eq. 4.6, lambda_c = 1) fitted to "
                                     "pinned cudaMemcpy times measured by warpscope-cli calibrate on %s",
                                     when);
  return link;
}
