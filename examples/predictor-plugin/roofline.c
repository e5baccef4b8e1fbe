/* roofline: an example predictor built out of tree against the plugin SDK.
 *
 *   cc -shared -fPIC -o roofline.so roofline.c $(pkg-config --cflags --libs warpscope-predictor)
 *   mkdir -p ~/.local/share/warpscope/plugins && cp roofline.so ~/.local/share/warpscope/plugins/
 *   warpscope-cli plugins list
 *
 * The model: a kernel takes as long as the slower of its arithmetic at the
 * GPU's peak FP32 rate and its DRAM traffic at the peak bandwidth. */
#include <math.h>
#include "ws-predictor.h"

static const WsPredictorOption roofline_options[] = {
  { "efficiency", WS_PREDICTOR_OPTION_DOUBLE, "1", NULL, "Fraction of the peaks that the kernel reaches" },
};

static int
roofline_predict (const WsPredictorHost *h, WsPredictorContext *ctx)
{
  double warp = h->gpu_param (ctx, "warp_size", 32);
  double sms = h->gpu_param (ctx, "sms", 0);
  double clock_hz = h->gpu_param (ctx, "core_clock_mhz", 0) * 1e6;
  double cores = h->gpu_param (ctx, "cuda_cores_per_sm", 0);
  double bw = h->gpu_param (ctx, "dram_bandwidth_gbs", 0) * 1e9;
  double eff = h->option_double (ctx, "efficiency");
  if (sms <= 0 || clock_hz <= 0 || cores <= 0 || bw <= 0 || !(eff > 0))
    {
      h->fail (ctx, "the GPU needs sms, core_clock_mhz, cuda_cores_per_sm and dram_bandwidth_gbs");
      return 1;
    }
  double warps = h->analytic_param (ctx, "grid_size", 1) * ceil (h->analytic_param (ctx, "block_size", 1) / warp);
  double thread_ops = warps * warp * h->analytic_param (ctx, "cuda_core_instructions", 0);
  double bytes = warps * h->analytic_param (ctx, "gmem_bytes", 0);
  double t_compute = thread_ops / (sms * cores * clock_hz * eff);
  double t_memory = bytes / (bw * eff);
  double seconds = t_compute > t_memory ? t_compute : t_memory;
  h->set_seconds (ctx, seconds);
  h->set_cycles (ctx, seconds * clock_hz);
  h->set_metric (ctx, "compute_seconds", t_compute);
  h->set_metric (ctx, "memory_seconds", t_memory);
  return 0;
}

static const WsPredictorDescriptor roofline_descriptor = {
  .abi_version = WS_PREDICTOR_ABI_VERSION,
  .api_version = WS_PREDICTOR_API_VERSION,
  .name = "roofline",
  .version = "0.1",
  .description = "Example out-of-tree plugin: roofline bound on analytic kernels",
  .n_options = 1,
  .options = roofline_options,
  .supports_trace = 0,
  .supports_analytic = 1,
  .predict = roofline_predict,
};

WS_PREDICTOR_EXPORT const WsPredictorDescriptor *ws_predictor_query (void);

const WsPredictorDescriptor *
ws_predictor_query (void)
{
  return &roofline_descriptor;
}
