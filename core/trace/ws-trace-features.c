/* ws-trace-features.c: the TBPoint features of seed 000 computed from a
 * trace's counters (no stream decoding needed). */
#define G_LOG_DOMAIN "ws-trace"

#include "trace/ws-trace.h"
#include "trace/ws-trace-format.h"

/* Seed 000 eq. 2: inter_feature_vector_i = <#thread_insts_i / avg,
 * #warp_insts_i / avg, #mem_reqs_i / avg, CV_TB_size>. */
void
ws_trace_get_inter_launch_features (const WsTrace *trace, WsTraceInterFeatures *features)
{
  g_return_if_fail (trace != NULL && features != NULL);
  guint n = ws_trace_get_n_launches (trace);
  if (n == 0)
    return;
  double sum_t = 0, sum_w = 0, sum_m = 0;
  for (guint i = 0; i < n; i++)
    {
      const WsTraceLaunch *l = ws_trace_get_launch (trace, i);
      sum_t += (double) l->thread_instructions;
      sum_w += (double) l->warp_instructions;
      sum_m += (double) l->memory_requests;
    }
  double avg_t = sum_t / n, avg_w = sum_w / n, avg_m = sum_m / n;
  for (guint i = 0; i < n; i++)
    {
      const WsTraceLaunch *l = ws_trace_get_launch (trace, i);
      features[i].thread_instructions = avg_t > 0 ? (double) l->thread_instructions / avg_t : 0.0;
      features[i].warp_instructions = avg_w > 0 ? (double) l->warp_instructions / avg_w : 0.0;
      features[i].memory_requests = avg_m > 0 ? (double) l->memory_requests / avg_m : 0.0;
      features[i].cov_tb_size = l->cov_tb_thread_instructions;
    }
}

/* Seed 000 eq. 5: x_TB / y_TB (memory requests over warp instructions). */
double
ws_trace_tb_stall_probability (const WsTraceTbCounters *tb)
{
  g_return_val_if_fail (tb != NULL, 0.0);
  if (tb->warp_instructions == 0)
    return 0.0;
  return (double) (tb->global_requests + tb->local_requests) / (double) tb->warp_instructions;
}

double
ws_trace_tb_memory_fraction (const WsTraceTbCounters *tb)
{
  g_return_val_if_fail (tb != NULL, 0.0);
  if (tb->warp_instructions == 0)
    return 0.0;
  return (double) tb->memory_instructions / (double) tb->warp_instructions;
}

/* Seed 000 eq. 4 (epoch_i = TBs occupancy*i .. occupancy*i + occupancy - 1)
 * and eq. 5 (average stall probability, variation factor = max CoV of the
 * epoch's memory requests X and warp instructions Y). */
guint
ws_trace_get_epochs (const WsTrace *trace, guint launch, guint occupancy, gboolean use_memory_fraction,
                     WsTraceEpoch **epochs)
{
  g_return_val_if_fail (trace != NULL && epochs != NULL, 0);
  g_return_val_if_fail (occupancy > 0, 0);
  g_return_val_if_fail (launch < ws_trace_get_n_launches (trace), 0);

  uint64_t n_tbs;
  const WsTraceTbCounters *tbs = ws_trace_get_tb_counters (trace, launch, &n_tbs);
  guint n = (guint) ((n_tbs + occupancy - 1) / occupancy);
  WsTraceEpoch *e = g_new0 (WsTraceEpoch, MAX (n, 1));
  g_autofree double *x = g_new (double, occupancy);
  g_autofree double *y = g_new (double, occupancy);
  for (guint i = 0; i < n; i++)
    {
      uint64_t first = (uint64_t) occupancy * i;
      uint64_t count = MIN ((uint64_t) occupancy, n_tbs - first);
      double sum = 0;
      for (uint64_t j = 0; j < count; j++)
        {
          const WsTraceTbCounters *b = &tbs[first + j];
          x[j] = (double) (b->global_requests + b->local_requests);
          y[j] = (double) b->warp_instructions;
          sum += use_memory_fraction ? ws_trace_tb_memory_fraction (b) : ws_trace_tb_stall_probability (b);
        }
      e[i].first_tb = first;
      e[i].n_tbs = count;
      e[i].stall_probability = sum / (double) count;
      e[i].variation_factor = MAX (ws_trace_cov (x, count), ws_trace_cov (y, count));
    }
  *epochs = e;
  return n;
}
