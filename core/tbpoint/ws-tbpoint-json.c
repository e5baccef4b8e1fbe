/* ws-tbpoint-json.c: simulation results as JSON and in the store. */
#include "tbpoint/ws-tbpoint.h"

#include <sqlite3.h>

static void
add_int (JsonBuilder *b, const char *name, int64_t v)
{
  json_builder_set_member_name (b, name);
  json_builder_add_int_value (b, v);
}

static void
add_double (JsonBuilder *b, const char *name, double v)
{
  json_builder_set_member_name (b, name);
  json_builder_add_double_value (b, v);
}

static void
add_string (JsonBuilder *b, const char *name, const char *v)
{
  json_builder_set_member_name (b, name);
  json_builder_add_string_value (b, v);
}

JsonNode *
ws_tbpoint_result_to_json (const WsTbpointResult *r, gboolean timeline)
{
  g_autoptr (JsonBuilder) b = json_builder_new ();
  json_builder_begin_object (b);
  add_int (b, "cycles", (int64_t) r->cycles);
  add_double (b, "ipc", r->ipc);
  add_int (b, "warp_instructions", (int64_t) r->warp_instructions);
  add_int (b, "simulated_warp_instructions", (int64_t) r->simulated_warp_instructions);
  add_double (b, "sample_fraction", r->sample_fraction);
  add_double (b, "wall_seconds", r->wall_seconds);
  add_string (b, "sampling", ws_sampling_name (r->sampling));
  add_string (b, "gpu", r->gpu);
  add_string (b, "scheduler", ws_sim_scheduler_name (r->scheduler));
  add_int (b, "clusters", r->n_clusters);
  if (r->sampling == WS_SAMPLING_RANDOM)
    {
      add_int (b, "random_unit", (int64_t) r->random_unit);
      add_int (b, "random_units", r->random_units);
      add_int (b, "random_selected", r->random_selected);
    }
  json_builder_set_member_name (b, "launches");
  json_builder_begin_array (b);
  for (guint i = 0; i < r->n_launches; i++)
    {
      const WsTbpointLaunch *L = &r->launches[i];
      json_builder_begin_object (b);
      add_int (b, "index", L->index);
      add_string (b, "kernel", L->kernel);
      add_int (b, "cycles", (int64_t) L->cycles);
      add_double (b, "ipc", L->ipc);
      json_builder_set_member_name (b, "simulated");
      json_builder_add_boolean_value (b, L->simulated);
      add_int (b, "cluster", L->cluster);
      add_int (b, "warp_instructions", (int64_t) L->warp_instructions);
      add_int (b, "simulated_warp_instructions", (int64_t) L->simulated_warp_instructions);
      add_int (b, "regions", L->n_regions);
      if (L->simulated)
        {
          const WsSimLaunchStats *st = &L->stats;
          add_int (b, "simulated_cycles", (int64_t) st->simulated_cycles);
          add_int (b, "blocks_per_sm", st->blocks_per_sm);
          add_int (b, "tbs", (int64_t) st->tbs);
          add_int (b, "skipped_tbs", (int64_t) st->skipped_tbs);
          json_builder_set_member_name (b, "stalls");
          json_builder_begin_object (b);
          for (int s = 0; s < WS_SIM_STALL_COUNT; s++)
            add_int (b, ws_sim_stall_name (s), (int64_t) st->stalls[s]);
          json_builder_end_object (b);
          add_double (b, "l1_hit_rate", st->l1_hit_rate);
          add_double (b, "l2_hit_rate", st->l2_hit_rate);
          add_double (b, "dram_bandwidth_gbs", st->dram_bandwidth_gbs);
          add_int (b, "dram_reads", (int64_t) st->dram_reads);
          add_int (b, "dram_writes", (int64_t) st->dram_writes);
          uint64_t dram = st->dram_reads + st->dram_writes;
          add_double (b, "dram_row_hit_rate", dram ? (double) st->dram_row_hits / (double) dram : 0);
          add_int (b, "shared_accesses", (int64_t) st->shared_accesses);
          add_int (b, "shared_conflict_cycles", (int64_t) st->shared_conflict_cycles);
          json_builder_set_member_name (b, "sm_instructions");
          json_builder_begin_array (b);
          for (guint k = 0; k < st->n_sms; k++)
            json_builder_add_int_value (b, (int64_t) (st->sm_instructions ? st->sm_instructions[k] : 0));
          json_builder_end_array (b);
          if (timeline)
            {
              add_int (b, "timeline_interval", (int64_t) st->timeline_interval);
              json_builder_set_member_name (b, "timeline");
              json_builder_begin_array (b);
              for (guint t = 0; t < st->n_samples; t++)
                {
                  json_builder_begin_array (b);
                  for (guint k = 0; k < st->n_sms; k++)
                    json_builder_add_int_value (b, st->timeline[(gsize) t * st->n_sms + k]);
                  json_builder_end_array (b);
                }
              json_builder_end_array (b);
            }
        }
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_end_object (b);
  return json_builder_get_root (b);
}

JsonNode *
ws_tbpoint_options_to_json (const WsTbpointOptions *o)
{
  g_autoptr (JsonBuilder) b = json_builder_new ();
  json_builder_begin_object (b);
  add_string (b, "sampling", ws_sampling_name (o->sampling));
  add_string (b, "scheduler", ws_sim_scheduler_name (o->sim.scheduler));
  add_double (b, "interconnect_latency", o->sim.interconnect_latency);
  add_int (b, "timeline_interval", (int64_t) o->sim.timeline_interval);
  add_double (b, "inter_threshold", o->inter_threshold);
  add_double (b, "intra_threshold", o->intra_threshold);
  add_double (b, "vf_threshold", o->vf_threshold);
  add_double (b, "ipc_tolerance", o->ipc_tolerance);
  add_double (b, "random_fraction", o->random_fraction);
  add_int (b, "random_unit", (int64_t) o->random_unit);
  add_int (b, "random_seed", o->random_seed);
  json_builder_set_member_name (b, "warm_skipped");
  json_builder_add_boolean_value (b, o->warm_skipped);
  json_builder_end_object (b);
  return json_builder_get_root (b);
}

gint64
ws_sim_run_store_put (WsStore *store, const char *trace_path, const WsGpu *gpu, const WsTbpointOptions *options,
                      const WsTbpointResult *result, GError **error)
{
  sqlite3 *db = ws_store_get_db (store);
  g_autoptr (JsonBuilder) b = json_builder_new ();
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "options");
  json_builder_add_value (b, ws_tbpoint_options_to_json (options));
  json_builder_set_member_name (b, "gpu");
  json_builder_add_value (b, ws_gpu_to_json (gpu));
  json_builder_end_object (b);
  g_autoptr (JsonNode) cfg = json_builder_get_root (b);
  g_autofree char *cfg_text = json_to_string (cfg, FALSE);
  g_autoptr (JsonNode) res = ws_tbpoint_result_to_json (result, FALSE);
  g_autofree char *res_text = json_to_string (res, FALSE);
  g_autofree char *abs = g_canonicalize_filename (trace_path, NULL);
  sqlite3_stmt *st = NULL;
  const char
    *sql = "INSERT INTO sim_run (trace, gpu, sampling, scheduler, config, cycles, ipc, warp_instructions, "
           "simulated_warp_instructions, sample_fraction, wall_seconds, result) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)";
  if (sqlite3_prepare_v2 (db, sql, -1, &st, NULL) != SQLITE_OK)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_FAILED, "store %s: cannot record the simulation run: %s",
                   ws_store_get_path (store), sqlite3_errmsg (db));
      return -1;
    }
  sqlite3_bind_text (st, 1, abs, -1, SQLITE_TRANSIENT);
  sqlite3_bind_text (st, 2, gpu->name, -1, SQLITE_TRANSIENT);
  sqlite3_bind_text (st, 3, ws_sampling_name (result->sampling), -1, SQLITE_STATIC);
  sqlite3_bind_text (st, 4, ws_sim_scheduler_name (result->scheduler), -1, SQLITE_STATIC);
  sqlite3_bind_text (st, 5, cfg_text, -1, SQLITE_TRANSIENT);
  sqlite3_bind_int64 (st, 6, (sqlite3_int64) result->cycles);
  sqlite3_bind_double (st, 7, result->ipc);
  sqlite3_bind_int64 (st, 8, (sqlite3_int64) result->warp_instructions);
  sqlite3_bind_int64 (st, 9, (sqlite3_int64) result->simulated_warp_instructions);
  sqlite3_bind_double (st, 10, result->sample_fraction);
  sqlite3_bind_double (st, 11, result->wall_seconds);
  sqlite3_bind_text (st, 12, res_text, -1, SQLITE_TRANSIENT);
  int rc = sqlite3_step (st);
  sqlite3_finalize (st);
  if (rc != SQLITE_DONE)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_FAILED, "store %s: cannot record the simulation run: %s",
                   ws_store_get_path (store), sqlite3_errmsg (db));
      return -1;
    }
  return (gint64) sqlite3_last_insert_rowid (db);
}
