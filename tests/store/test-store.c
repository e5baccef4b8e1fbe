/* Tests of the SQLite store: migration, seeding, lookups, round trip,
 * duplicates, concurrency. */
#include "store/ws-store.h"

#include <math.h>
#include <string.h>
#include <stdlib.h>
#include <sqlite3.h>
#include <glib/gstdio.h>

typedef struct {
  char *dir;
  char *path;
} Fixture;

static void
fixture_setup (Fixture *f, gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  f->dir = g_dir_make_tmp ("ws-store-XXXXXX", &error);
  g_assert_no_error (error);
  /* A folder that does not exist yet: opening must create it. */
  f->path = g_build_filename (f->dir, "sub", "test.db", NULL);
}

static void
remove_tree (const char *path)
{
  if (g_file_test (path, G_FILE_TEST_IS_DIR))
    {
      g_autoptr (GDir) d = g_dir_open (path, 0, NULL);
      const char *e;
      while (d != NULL && (e = g_dir_read_name (d)) != NULL)
        {
          g_autofree char *child = g_build_filename (path, e, NULL);
          remove_tree (child);
        }
      g_rmdir (path);
    }
  else
    g_unlink (path);
}

static void
fixture_teardown (Fixture *f, gconstpointer data)
{
  remove_tree (f->dir);
  g_free (f->dir);
  g_free (f->path);
}

static WsStore *
open_store (const char *path)
{
  g_autoptr (GError) error = NULL;
  WsStore *store = ws_store_open (path, &error);
  g_assert_no_error (error);
  g_assert_nonnull (store);
  return store;
}

static int
count_rows (WsStore *store, const char *sql)
{
  sqlite3_stmt *stmt = NULL;
  g_assert_cmpint (sqlite3_prepare_v2 (ws_store_get_db (store), sql, -1, &stmt, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_step (stmt), ==, SQLITE_ROW);
  int n = sqlite3_column_int (stmt, 0);
  sqlite3_finalize (stmt);
  return n;
}

static char *
pragma_text (WsStore *store, const char *sql)
{
  sqlite3_stmt *stmt = NULL;
  g_assert_cmpint (sqlite3_prepare_v2 (ws_store_get_db (store), sql, -1, &stmt, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_step (stmt), ==, SQLITE_ROW);
  char *s = g_strdup ((const char *) sqlite3_column_text (stmt, 0));
  sqlite3_finalize (stmt);
  return s;
}

/* The highest NNN of db/migrations/NNN-*.sql: what a fresh store reaches. */
static int
latest_migration (void)
{
  g_autofree char *dir = g_build_filename (g_getenv ("WS_SOURCE_DIR"), "db", "migrations", NULL);
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  g_assert_nonnull (d);
  int latest = 0;
  const char *n;
  while ((n = g_dir_read_name (d)) != NULL)
    if (g_str_has_suffix (n, ".sql"))
      latest = MAX (latest, atoi (n));
  return latest;
}

static void
test_fresh_migrates_and_seeds (Fixture *f, gconstpointer data)
{
  g_autoptr (WsStore) store = open_store (f->path);
  g_assert_true (g_file_test (f->path, G_FILE_TEST_EXISTS));
  g_assert_cmpstr (ws_store_get_path (store), ==, f->path);
  g_assert_cmpint (latest_migration (), >=, 1);
  g_assert_cmpint (count_rows (store, "PRAGMA user_version"), ==, latest_migration ());
  g_assert_cmpint (count_rows (store, "PRAGMA foreign_keys"), ==, 1);
  g_autofree char *mode = pragma_text (store, "PRAGMA journal_mode");
  g_assert_cmpstr (mode, ==, "wal");

  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) gpus = ws_store_list_gpus (store, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (gpus->len, >=, 14);
  /* Sorted by name, case-insensitively. */
  for (guint i = 1; i < gpus->len; i++)
    g_assert_cmpint (g_ascii_strcasecmp (((WsGpu *) gpus->pdata[i - 1])->name, ((WsGpu *) gpus->pdata[i])->name), <, 0);
  static const char *const required[] = {
    "GPUMech baseline", "TBPoint Fermi", "GTX 970",  "GTX TITAN X", "GTX 1070", "Tesla K20c", "TITAN X Pascal",
    "Tesla V100",       "A100",          "RTX 3090", "RTX 4090",    "H100 SXM", "H200",
  };
  for (guint i = 0; i < G_N_ELEMENTS (required); i++)
    {
      g_autoptr (WsGpu) g = ws_store_get_gpu (store, required[i], &error);
      g_assert_no_error (error);
      g_assert_cmpstr (g->name, ==, required[i]);
    }

  g_autoptr (GPtrArray) cpus = ws_store_list_cpus (store, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (cpus->len, >=, 2);
  g_autoptr (GPtrArray) links = ws_store_list_links (store, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (links->len, ==, 3);
}

/* Seed 004 Table 6.1 (GTX 970 column) and the values derived from it. */
static void
test_seed_gtx970 (Fixture *f, gconstpointer data)
{
  g_autoptr (WsStore) store = open_store (f->path);
  g_autoptr (GError) error = NULL;
  g_autoptr (WsGpu) g = ws_store_get_gpu (store, "GTX 970", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (g->architecture, ==, "Maxwell");
  g_assert_cmpint (g->sms, ==, 13);
  g_assert_cmpfloat (g->core_clock_mhz, ==, 1253);
  g_assert_cmpint (g->cc_major, ==, 5);
  g_assert_cmpint (g->cc_minor, ==, 2);
  g_assert_cmpint (g->warp_schedulers_per_sm, ==, 4);
  g_assert_cmpint (g->cuda_cores_per_sm, ==, 128);
  g_assert_cmpfloat (g->dram_clock_mhz, ==, 1753);
  g_assert_cmpint (g->dram_bus_width_bits, ==, 256);
  g_assert_cmpfloat (g->dram_data_rate, ==, 4);
  g_assert_cmpstr (g->dram_type, ==, "GDDR5");
  g_assert_cmpfloat_with_epsilon (g->dram_bandwidth_gbs, 224.384, 1e-9);
  /* Seed 004 Table 4.1 (Maxwell latencies). */
  g_assert_cmpfloat (g->pipes[WS_ICLASS_FP32].latency, ==, 6);
  g_assert_cmpfloat (g->pipes[WS_ICLASS_GLOBAL].latency, ==, 350);
  g_assert_cmpfloat (g->pipes[WS_ICLASS_BRANCH].latency, ==, 12);
  /* Occupancy rules for cc 5.2. */
  g_assert_cmpint (g->max_warps_per_sm, ==, 64);
  g_assert_cmpint (g->max_blocks_per_sm, ==, 32);
  g_assert_cmpint (g->shared_per_sm, ==, 98304);
  g_assert_cmpint (g->shared_per_block, ==, 49152);
  g_assert_cmpint (g->register_alloc_unit, ==, 256);
  g_assert_nonnull (strstr (g->sources, "Table 6.1"));

  g_autoptr (WsGpu) titan = ws_store_get_gpu (store, "GTX TITAN X", &error);
  g_assert_no_error (error);
  g_assert_cmpint (titan->sms, ==, 24);
  g_assert_cmpfloat (titan->core_clock_mhz, ==, 1076);
  g_assert_cmpint (titan->dram_bus_width_bits, ==, 384);
  g_autoptr (WsGpu) g1070 = ws_store_get_gpu (store, "GTX 1070", &error);
  g_assert_no_error (error);
  g_assert_cmpint (g1070->sms, ==, 15);
  g_assert_cmpfloat (g1070->core_clock_mhz, ==, 1923);
  g_assert_cmpfloat (g1070->dram_clock_mhz, ==, 2002);
  g_assert_cmpint (g1070->cc_major * 10 + g1070->cc_minor, ==, 61);

  /* cc 8.0 reserves 1 KiB of shared memory per block. */
  g_autoptr (WsGpu) a100 = ws_store_get_gpu (store, "A100", &error);
  g_assert_no_error (error);
  g_assert_cmpint (a100->shared_reserved_per_block, ==, 1024);
  g_assert_cmpint (a100->shared_per_block_optin, ==, 166912);
  g_assert_cmpint (a100->shared_alloc_unit, ==, 128);
}

/* Seed 004 Table 6.2, exactly (startup times converted from ms to µs). */
static void
test_seed_links_table_6_2 (Fixture *f, gconstpointer data)
{
  static const struct {
    const char *name;
    double bw, ts_h2d_ms, ts_d2h_ms, l_h2d, l_d2h;
  } t62[] = {
    { "PCIe 3.1 x16 (GTX 970 test bed)", 15.8, 0.00397, 0.00516, 0.689, 0.653 },
    { "PCIe 2.0 x4 (GTX TITAN X test bed)", 2, 0.00733, 0.01168, 0.844, 0.842 },
    { "PCIe 3.1 x16 (GTX 1070 test bed)", 15.8, 0.0244, 0.0283, 0.452, 0.447 },
  };
  g_autoptr (WsStore) store = open_store (f->path);
  for (guint i = 0; i < G_N_ELEMENTS (t62); i++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (WsLink) l = ws_store_get_link (store, t62[i].name, &error);
      g_assert_no_error (error);
      g_assert_cmpstr (l->type, ==, "PCIe");
      g_assert_cmpfloat (l->h2d_bandwidth_gbs, ==, t62[i].bw);
      g_assert_cmpfloat (l->d2h_bandwidth_gbs, ==, t62[i].bw);
      g_assert_cmpfloat_with_epsilon (l->h2d_startup_us, t62[i].ts_h2d_ms * 1000.0, 1e-9);
      g_assert_cmpfloat_with_epsilon (l->d2h_startup_us, t62[i].ts_d2h_ms * 1000.0, 1e-9);
      g_assert_cmpfloat (l->h2d_lambda, ==, t62[i].l_h2d);
      g_assert_cmpfloat (l->d2h_lambda, ==, t62[i].l_d2h);
    }
}

/* The occupancy calculator reads these; they must be what NVIDIA's devices
 * report (cudaDeviceProp) and cuda_occupancy.h assumes, per compute capability. */
static void
test_seed_occupancy_constants (Fixture *f, gconstpointer data)
{
  static const struct {
    const char *name;
    int cc, threads_per_sm, blocks, smem_sm, smem_block, optin, reserved, smem_unit;
  } dev[] = {
    { "Tesla V100", 70, 2048, 32, 98304, 49152, 98304, 0, 256 },
    { "RTX 2080 Ti", 75, 1024, 16, 65536, 49152, 65536, 0, 256 },
    { "A100", 80, 2048, 32, 167936, 49152, 166912, 1024, 128 },
    { "RTX 3090", 86, 1536, 16, 102400, 49152, 101376, 1024, 128 },
    { "RTX 4090", 89, 1536, 24, 102400, 49152, 101376, 1024, 128 },
    { "H100 SXM", 90, 2048, 32, 233472, 49152, 232448, 1024, 128 },
    { "H200", 90, 2048, 32, 233472, 49152, 232448, 1024, 128 },
    { "GTX 970", 52, 2048, 32, 98304, 49152, 49152, 0, 256 },
    { "Tesla K20c", 35, 2048, 16, 49152, 49152, 49152, 0, 256 },
  };
  g_autoptr (WsStore) store = open_store (f->path);
  for (guint i = 0; i < G_N_ELEMENTS (dev); i++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (WsGpu) g = ws_store_get_gpu (store, dev[i].name, &error);
      g_assert_no_error (error);
      g_assert_cmpint (g->cc_major * 10 + g->cc_minor, ==, dev[i].cc);
      g_assert_cmpint (g->max_warps_per_sm * g->warp_size, ==, dev[i].threads_per_sm);
      g_assert_cmpint (g->max_blocks_per_sm, ==, dev[i].blocks);
      g_assert_cmpint (g->registers_per_sm, ==, 65536);
      g_assert_cmpint (g->max_registers_per_block, ==, 65536);
      g_assert_cmpint (g->register_alloc_unit, ==, 256);
      g_assert_cmpint (g->shared_per_sm, ==, dev[i].smem_sm);
      g_assert_cmpint (g->shared_per_block, ==, dev[i].smem_block);
      g_assert_cmpint (g->shared_per_block_optin, ==, dev[i].optin);
      g_assert_cmpint (g->shared_reserved_per_block, ==, dev[i].reserved);
      g_assert_cmpint (g->shared_alloc_unit, ==, dev[i].smem_unit);
    }
}

static void
test_reopen_does_not_reseed (Fixture *f, gconstpointer data)
{
  int seeded;
  {
    g_autoptr (WsStore) store = open_store (f->path);
    seeded = count_rows (store, "SELECT count(*) FROM hw");
    g_assert_cmpint (seeded, >=, 14 + 2 + 3);
    g_autoptr (GError) error = NULL;
    /* A user's deletion must survive reopening (no silent re-seed). */
    g_assert_true (ws_store_delete_hw (store, WS_HW_GPU, "GTX 1070", &error));
    g_assert_no_error (error);
  }
  for (int round = 0; round < 2; round++)
    {
      g_autoptr (WsStore) store = open_store (f->path);
      g_assert_cmpint (count_rows (store, "SELECT count(*) FROM hw"), ==, seeded - 1);
      g_assert_cmpint (
        count_rows (store, "SELECT count(*) FROM (SELECT name FROM hw GROUP BY name HAVING count(*) > 1)"), ==, 0);
      g_assert_cmpint (latest_migration (), >=, 1);
      g_assert_cmpint (count_rows (store, "PRAGMA user_version"), ==, latest_migration ());
    }
}

typedef struct {
  const char *path;
  WsStore *store;
  GError *error;
} OpenJob;

static gpointer
open_thread (gpointer p)
{
  OpenJob *job = p;
  job->store = ws_store_open (job->path, &job->error);
  return NULL;
}

/* Two connections creating the same fresh database at once: both succeed
 * and the catalogue is seeded exactly once. */
static void
test_concurrent_first_open (Fixture *f, gconstpointer data)
{
  OpenJob jobs[4] = { { f->path }, { f->path }, { f->path }, { f->path } };
  GThread *threads[G_N_ELEMENTS (jobs)];
  g_autofree char *dir = g_path_get_dirname (f->path);
  g_mkdir_with_parents (dir, 0700);
  for (guint i = 0; i < G_N_ELEMENTS (jobs); i++)
    threads[i] = g_thread_new ("open", open_thread, &jobs[i]);
  for (guint i = 0; i < G_N_ELEMENTS (jobs); i++)
    g_thread_join (threads[i]);
  int total = -1;
  for (guint i = 0; i < G_N_ELEMENTS (jobs); i++)
    {
      g_assert_no_error (jobs[i].error);
      g_assert_nonnull (jobs[i].store);
      int n = count_rows (jobs[i].store, "SELECT count(*) FROM hw WHERE kind = 'gpu'");
      g_assert_cmpint (n, >=, 14);
      if (total >= 0)
        g_assert_cmpint (n, ==, total);
      total = n;
    }
  for (guint i = 0; i < G_N_ELEMENTS (jobs); i++)
    ws_store_close (jobs[i].store);
}

static void
test_unknown_name_suggests (Fixture *f, gconstpointer data)
{
  g_autoptr (WsStore) store = open_store (f->path);
  g_autoptr (GError) error = NULL;
  g_autoptr (WsGpu) g = ws_store_get_gpu (store, "GTX 907", &error);
  g_assert_null (g);
  g_assert_error (error, WS_ERROR, WS_ERROR_NOT_FOUND);
  g_assert_nonnull (strstr (error->message, "unknown GPU 'GTX 907'; did you mean "));
  g_assert_nonnull (strstr (error->message, "GTX 970"));
  g_clear_error (&error);

  g_autoptr (WsGpu) none = ws_store_get_gpu (store, "Voodoo Banshee 3000", &error);
  g_assert_null (none);
  g_assert_error (error, WS_ERROR, WS_ERROR_NOT_FOUND);
  g_assert_nonnull (strstr (error->message, "unknown GPU 'Voodoo Banshee 3000'"));
  g_clear_error (&error);

  /* Lookups ignore case. */
  g_autoptr (WsGpu) lower = ws_store_get_gpu (store, "gtx titan x", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (lower->name, ==, "GTX TITAN X");

  WsHwKind kind = WS_HW_GPU;
  g_assert_true (ws_store_find_hw (store, "epyc 9654", &kind, &error));
  g_assert_cmpint (kind, ==, WS_HW_CPU);
  g_assert_false (ws_store_find_hw (store, "H10", &kind, &error));
  g_assert_error (error, WS_ERROR, WS_ERROR_NOT_FOUND);
  g_assert_nonnull (strstr (error->message, "H100 SXM"));
}

static void
assert_gpus_equal (const WsGpu *a, const WsGpu *b)
{
  g_autoptr (JsonNode) ja = ws_gpu_to_json (a);
  g_autoptr (JsonNode) jb = ws_gpu_to_json (b);
  g_assert_true (json_node_equal (ja, jb));
  guint n;
  const WsHwField *fields = ws_hw_fields (WS_HW_GPU, &n);
  for (guint i = 0; i < n; i++)
    {
      const char *pa = (const char *) a + fields[i].offset, *pb = (const char *) b + fields[i].offset;
      if (fields[i].type == WS_HW_FIELD_STRING)
        g_assert_cmpstr (*(char *const *) pa, ==, *(char *const *) pb);
      else if (fields[i].type == WS_HW_FIELD_INT)
        g_assert_cmpint (*(const int *) pa, ==, *(const int *) pb);
      else
        g_assert_cmpfloat (*(const double *) pa, ==, *(const double *) pb);
    }
  g_assert_cmpmem (a->pipes, sizeof a->pipes, b->pipes, sizeof b->pipes);
}

static void
test_put_round_trip_every_field (Fixture *f, gconstpointer data)
{
  g_autoptr (WsStore) store = open_store (f->path);
  g_autoptr (GError) error = NULL;
  g_autoptr (WsGpu) base = ws_store_get_gpu (store, "H100 SXM", &error);
  g_assert_no_error (error);

  /* Change every numeric field to a distinct value that still validates. */
  g_autoptr (WsGpu) mine = ws_gpu_copy (base);
  g_free (mine->name);
  mine->name = g_strdup ("My Hopper");
  mine->core_clock_mhz = 1755.123456789;
  mine->dram_bandwidth_gbs = 3350.0 / 7.0;
  mine->l1_latency = 33.3;
  mine->memory_gb = 94.5;
  mine->sms = 114;
  mine->pipes[WS_ICLASS_TENSOR].initiation_interval = 2.0 / 3.0;
  g_free (mine->sources);
  mine->sources = g_strdup ("test: values made up for the round trip");
  g_assert_true (ws_store_put_gpu (store, mine, FALSE, &error));
  g_assert_no_error (error);

  g_autoptr (WsGpu) back = ws_store_get_gpu (store, "my hopper", &error);
  g_assert_no_error (error);
  assert_gpus_equal (mine, back);

  /* And after reopening the file. */
  ws_store_close (g_steal_pointer (&store));
  store = open_store (f->path);
  g_autoptr (WsGpu) again = ws_store_get_gpu (store, "My Hopper", &error);
  g_assert_no_error (error);
  assert_gpus_equal (mine, again);
  g_assert_cmpint (
    count_rows (store,
                "SELECT count(*) FROM hw WHERE name = 'My Hopper' AND origin = 'user' AND architecture = 'Hopper'"),
    ==, 1);
}

static void
test_put_duplicate (Fixture *f, gconstpointer data)
{
  g_autoptr (WsStore) store = open_store (f->path);
  g_autoptr (GError) error = NULL;
  g_autoptr (WsGpu) g = ws_store_get_gpu (store, "GTX 970", &error);
  g_assert_no_error (error);
  int before = count_rows (store, "SELECT count(*) FROM hw");

  g->sms = 14;
  g_assert_false (ws_store_put_gpu (store, g, FALSE, &error));
  g_assert_error (error, WS_ERROR, WS_ERROR_DUPLICATE);
  g_assert_nonnull (strstr (error->message, "GPU 'GTX 970' already exists"));
  g_assert_nonnull (strstr (error->message, "--replace"));
  g_clear_error (&error);
  g_autoptr (WsGpu) unchanged = ws_store_get_gpu (store, "GTX 970", &error);
  g_assert_cmpint (unchanged->sms, ==, 13);

  g_assert_true (ws_store_put_gpu (store, g, TRUE, &error));
  g_assert_no_error (error);
  g_autoptr (WsGpu) changed = ws_store_get_gpu (store, "GTX 970", &error);
  g_assert_cmpint (changed->sms, ==, 14);
  g_assert_cmpint (count_rows (store, "SELECT count(*) FROM hw"), ==, before);

  /* A CPU may not take a GPU's name, even with replace. */
  g_autoptr (WsCpu) cpu = ws_store_get_cpu (store, "EPYC 9654", &error);
  g_assert_no_error (error);
  g_free (cpu->name);
  cpu->name = g_strdup ("gtx 970");
  g_assert_false (ws_store_put_cpu (store, cpu, TRUE, &error));
  g_assert_error (error, WS_ERROR, WS_ERROR_DUPLICATE);
  g_assert_nonnull (strstr (error->message, "already used by a GPU"));
}

static void
test_put_invalid_rejected (Fixture *f, gconstpointer data)
{
  g_autoptr (WsStore) store = open_store (f->path);
  g_autoptr (GError) error = NULL;
  g_autoptr (WsLink) l = ws_store_get_link (store, "PCIe 2.0 x4 (GTX TITAN X test bed)", &error);
  g_assert_no_error (error);
  g_free (l->name);
  l->name = g_strdup ("Broken link");
  l->h2d_lambda = 1.5;
  g_assert_false (ws_store_put_link (store, l, FALSE, &error));
  g_assert_error (error, WS_ERROR, WS_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, "'h2d_lambda'"));
  g_clear_error (&error);
  g_autoptr (WsLink) none = ws_store_get_link (store, "Broken link", &error);
  g_assert_null (none);
  g_assert_error (error, WS_ERROR, WS_ERROR_NOT_FOUND);
}

static void
test_delete (Fixture *f, gconstpointer data)
{
  g_autoptr (WsStore) store = open_store (f->path);
  g_autoptr (GError) error = NULL;
  g_assert_true (ws_store_delete_hw (store, WS_HW_CPU, "Core i7-4790K", &error));
  g_assert_no_error (error);
  g_autoptr (WsCpu) gone = ws_store_get_cpu (store, "Core i7-4790K", &error);
  g_assert_null (gone);
  g_assert_error (error, WS_ERROR, WS_ERROR_NOT_FOUND);
  g_clear_error (&error);
  g_assert_false (ws_store_delete_hw (store, WS_HW_GPU, "Core i7-4790K", &error));
  g_assert_error (error, WS_ERROR, WS_ERROR_NOT_FOUND);
}

static void
test_newer_schema_refused (Fixture *f, gconstpointer data)
{
  {
    g_autoptr (WsStore) store = open_store (f->path);
    g_assert_cmpint (sqlite3_exec (ws_store_get_db (store), "PRAGMA user_version = 99", NULL, NULL, NULL), ==,
                     SQLITE_OK);
  }
  g_autoptr (GError) error = NULL;
  g_autoptr (WsStore) store = ws_store_open (f->path, &error);
  g_assert_null (store);
  g_assert_error (error, WS_ERROR, WS_ERROR_UNSUPPORTED);
  g_assert_nonnull (strstr (error->message, "schema version 99"));
}

static void
test_not_a_database (Fixture *f, gconstpointer data)
{
  g_autofree char *dir = g_path_get_dirname (f->path);
  g_mkdir_with_parents (dir, 0700);
  g_assert_true (g_file_set_contents (f->path, "this is not an SQLite database, just text. ......", -1, NULL));
  g_autoptr (GError) error = NULL;
  g_autoptr (WsStore) store = ws_store_open (f->path, &error);
  g_assert_null (store);
  g_assert_nonnull (error);
  g_assert_true (error->domain == WS_ERROR);
  g_assert_nonnull (strstr (error->message, f->path));
}

static void
test_default_path (void)
{
  g_autofree char *p = ws_store_default_path ();
  g_autofree char *expect = g_build_filename (g_get_user_data_dir (), "warpscope", "warpscope.db", NULL);
  g_assert_cmpstr (p, ==, expect);
}

/* A database from an older Warpscope (here: one that never saw the seed
 * record of the A100 file) gains it on the next open; a seed record its user
 * deleted after it was offered stays deleted. */
static void
test_new_seed_records_reach_old_databases (Fixture *f, gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  {
    g_autoptr (WsStore) store = open_store (f->path);
    sqlite3 *db = ws_store_get_db (store);
    g_assert_cmpint (sqlite3_exec (db,
                                   "DELETE FROM hw WHERE kind = 'gpu' AND name IN ('A100', 'H200');"
                                   "DELETE FROM meta WHERE key = 'seed:gpu/a100.json'",
                                   NULL, NULL, NULL),
                     ==, SQLITE_OK);
    g_assert_cmpint (count_rows (store, "SELECT COUNT(*) FROM meta WHERE key LIKE 'seed:gpu/%'"), >=, 14);
  }
  g_autoptr (WsStore) store = open_store (f->path);
  g_autoptr (WsGpu) a100 = ws_store_get_gpu (store, "A100", &error);
  g_assert_no_error (error);
  g_assert_cmpint (a100->sms, ==, 108);
  g_autoptr (WsGpu) h200 = ws_store_get_gpu (store, "H200", &error);
  g_assert_null (h200);
  g_assert_error (error, WS_ERROR, WS_ERROR_NOT_FOUND);
}

/* A seed record whose catalogue text changed (a corrected value) is
 * refreshed in an existing database while the user has not edited it; an
 * edited one keeps the user's values, a deleted one stays deleted. */
static void
test_changed_seed_records_refresh_unedited (Fixture *f, gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  {
    g_autoptr (WsStore) store = open_store (f->path);
    sqlite3 *db = ws_store_get_db (store);
    /* A100 as an older seed had it (fewer SMs), offered under another text;
     * the user edited H200 (origin 'user') and deleted V100. */
    g_assert_cmpint (
      sqlite3_exec (db,
                    "UPDATE hw SET record = json_set(record, '$.sms', 100) WHERE kind = 'gpu' AND name = 'A100';"
                    "UPDATE meta SET value = '1' WHERE key = 'seed:gpu/a100.json';"
                    "UPDATE hw SET record = json_set(record, '$.sms', 99), origin = 'user'"
                    "  WHERE kind = 'gpu' AND name = 'H200';"
                    "UPDATE meta SET value = '1' WHERE key = 'seed:gpu/h200.json';"
                    "DELETE FROM hw WHERE kind = 'gpu' AND name = 'Tesla V100';"
                    "UPDATE meta SET value = '1' WHERE key = 'seed:gpu/tesla-v100.json';",
                    NULL, NULL, NULL),
      ==, SQLITE_OK);
    g_autoptr (WsGpu) stale = ws_store_get_gpu (store, "A100", &error);
    g_assert_no_error (error);
    g_assert_cmpint (stale->sms, ==, 100);
  }
  g_autoptr (WsStore) store = open_store (f->path);
  g_autoptr (WsGpu) a100 = ws_store_get_gpu (store, "A100", &error);
  g_assert_no_error (error);
  g_assert_cmpint (a100->sms, ==, 108);
  g_autoptr (WsGpu) h200 = ws_store_get_gpu (store, "H200", &error);
  g_assert_no_error (error);
  g_assert_cmpint (h200->sms, ==, 99);
  g_autoptr (WsGpu) v100 = ws_store_get_gpu (store, "Tesla V100", &error);
  g_assert_null (v100);
  g_assert_error (error, WS_ERROR, WS_ERROR_NOT_FOUND);
  g_clear_error (&error);
  /* The new checksum is recorded: the next open changes nothing. */
  g_assert_cmpint (count_rows (store, "SELECT COUNT(*) FROM meta WHERE key LIKE 'seed:gpu/%' AND value = '1'"), ==, 0);
}

/* A database at schema 6 (its tool_result CHECK takes only the built-in
 * tools) gains migration 007 on open: the table is rebuilt with its rows,
 * ids and dates kept, built-in rows get no handler, and a handler
 * library's result under any valid name can be stored and read back. */
static void
test_migration_007_tool_result_any_tool (Fixture *f, gconstpointer data)
{
  g_autofree char *dir = g_path_get_dirname (f->path);
  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
  {
    sqlite3 *db = NULL;
    g_assert_cmpint (sqlite3_open (f->path, &db), ==, SQLITE_OK);
    static const char *const older[] = { "001-catalogue.sql",    "002-sim-runs.sql",     "003-system-models.sql",
                                         "004-measurements.sql", "005-tool-results.sql", "006-sweep-status.sql" };
    for (guint i = 0; i < G_N_ELEMENTS (older); i++)
      {
        g_autofree char *file = g_build_filename (g_getenv ("WS_SOURCE_DIR"), "db", "migrations", older[i], NULL);
        g_autofree char *sql = NULL;
        g_assert_true (g_file_get_contents (file, &sql, NULL, NULL));
        g_assert_cmpint (sqlite3_exec (db, sql, NULL, NULL, NULL), ==, SQLITE_OK);
      }
    g_assert_cmpint (
      sqlite3_exec (db,
                    "PRAGMA user_version = 6;"
                    "INSERT INTO tool_result (id, tool, program, args, trace, result, created) VALUES "
                    "  (3, 'branch', '/bin/prog', '[\"4\"]', '/tmp/prog.trace', '{\"branches\":[]}',"
                    "   '2026-01-02T03:04:05Z'),"
                    "  (7, 'faults', '/bin/prog', '[]', NULL, '{\"injections\":200}', '2026-01-02T03:04:06Z')",
                    NULL, NULL, NULL),
      ==, SQLITE_OK);
    /* what 007 is for: schema 6 refuses a handler's name */
    g_assert_cmpint (sqlite3_exec (db,
                                   "INSERT INTO tool_result (tool, program, result) VALUES "
                                   "('opcode-histogram', '/bin/prog', '{}')",
                                   NULL, NULL, NULL),
                     ==, SQLITE_CONSTRAINT);
    sqlite3_close (db);
  }

  g_autoptr (WsStore) store = open_store (f->path);
  sqlite3 *db = ws_store_get_db (store);
  g_assert_cmpint (latest_migration (), >=, 7);
  g_assert_cmpint (count_rows (store, "PRAGMA user_version"), ==, latest_migration ());
  g_assert_cmpint (count_rows (store, "SELECT count(*) FROM tool_result"), ==, 2);
  g_autofree char *kept = pragma_text (store, "SELECT json_array (id, tool, handler IS NULL, program, args, trace, "
                                              "result, created) FROM tool_result WHERE id = 3");
  g_assert_cmpstr (kept, ==,
                   "[3,\"branch\",1,\"/bin/prog\",\"[\\\"4\\\"]\",\"/tmp/prog.trace\","
                   "\"{\\\"branches\\\":[]}\",\"2026-01-02T03:04:05Z\"]");
  g_autofree char *faults = pragma_text (store, "SELECT tool || ' ' || result || ' ' || created FROM tool_result "
                                                "WHERE id = 7 AND handler IS NULL AND trace IS NULL");
  g_assert_cmpstr (faults, ==, "faults {\"injections\":200} 2026-01-02T03:04:06Z");
  g_assert_cmpint (count_rows (store, "SELECT count(*) FROM sqlite_master WHERE type = 'index' AND "
                                      "name = 'tool_result_by_program' AND tbl_name = 'tool_result'"),
                   ==, 1);
  g_assert_cmpint (count_rows (store, "SELECT count(*) FROM sqlite_master WHERE name LIKE 'tool_result_0%'"), ==, 0);

  /* a handler's result: stored and read back */
  g_assert_cmpint (sqlite3_exec (db,
                                 "INSERT INTO tool_result (tool, handler, program, result) VALUES "
                                 "('opcode-histogram', '/h/opcode-histogram.so:ops=st', '/bin/prog', "
                                 "'{\"opcodes\":[{\"opcode\":\"st\",\"thread_instructions\":1024}]}')",
                                 NULL, NULL, NULL),
                   ==, SQLITE_OK);
  g_autofree char *back = pragma_text (
    store, "SELECT handler || ' ' || json_extract (result, '$.opcodes[0].thread_instructions') "
           "FROM tool_result WHERE tool = 'opcode-histogram'");
  g_assert_cmpstr (back, ==, "/h/opcode-histogram.so:ops=st 1024");
  g_assert_cmpint (count_rows (store, "SELECT max(id) FROM tool_result"), ==, 8);
  /* still refused: an empty or over-long name, a result that is not JSON */
  g_assert_cmpint (sqlite3_exec (db, "INSERT INTO tool_result (tool, program, result) VALUES ('', '/bin/prog', '{}')",
                                 NULL, NULL, NULL),
                   ==, SQLITE_CONSTRAINT_CHECK);
  g_assert_cmpint (sqlite3_exec (db,
                                 "INSERT INTO tool_result (tool, program, result) VALUES "
                                 "(replace (hex (zeroblob (65)), '00', 'x'), '/bin/prog', '{}')",
                                 NULL, NULL, NULL),
                   ==, SQLITE_CONSTRAINT_CHECK);
  g_assert_cmpint (sqlite3_exec (db,
                                 "INSERT INTO tool_result (tool, program, result) VALUES "
                                 "('opcode-histogram', '/bin/prog', 'not json')",
                                 NULL, NULL, NULL),
                   ==, SQLITE_CONSTRAINT_CHECK);
}

static int
compare_file_names (gconstpointer a, gconstpointer b)
{
  return strcmp (*(char *const *) a, *(char *const *) b);
}

/* The database file at @path made as a store at schema @version was:
 * db/migrations/001 … @version applied in order from the source tree. */
static sqlite3 *
make_db_at_schema (const char *path, int version)
{
  g_autofree char *dir = g_path_get_dirname (path);
  g_autofree char *migrations = g_build_filename (g_getenv ("WS_SOURCE_DIR"), "db", "migrations", NULL);
  g_autoptr (GDir) d = g_dir_open (migrations, 0, NULL);
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  const char *e;
  sqlite3 *db = NULL;

  g_assert_nonnull (d);
  while ((e = g_dir_read_name (d)) != NULL)
    if (g_str_has_suffix (e, ".sql") && atoi (e) >= 1 && atoi (e) <= version)
      g_ptr_array_add (names, g_strdup (e));
  g_ptr_array_sort (names, compare_file_names);
  g_assert_cmpuint (names->len, ==, (guint) version);
  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
  g_assert_cmpint (sqlite3_open (path, &db), ==, SQLITE_OK);
  for (guint i = 0; i < names->len; i++)
    {
      g_autofree char *file = g_build_filename (migrations, names->pdata[i], NULL);
      g_autofree char *sql = NULL;
      g_autofree char *set = g_strdup_printf ("PRAGMA user_version = %d", atoi (names->pdata[i]));
      g_assert_true (g_file_get_contents (file, &sql, NULL, NULL));
      g_assert_cmpint (sqlite3_exec (db, sql, NULL, NULL, NULL), ==, SQLITE_OK);
      g_assert_cmpint (sqlite3_exec (db, set, NULL, NULL, NULL), ==, SQLITE_OK);
    }
  return db;
}

/* The GUI's document tables come with the schema (migration 008): a new
 * store has both, empty, with the columns ws-gui-drafts.c uses. */
static void
test_fresh_has_gui_draft_tables (Fixture *f, gconstpointer data)
{
  g_autoptr (WsStore) store = open_store (f->path);
  static const char *const tables[] = { "gui_system_design", "gui_app_draft" };

  g_assert_cmpint (latest_migration (), >=, 8);
  for (guint i = 0; i < G_N_ELEMENTS (tables); i++)
    {
      g_autofree char *sql = g_strdup_printf ("SELECT count(*) FROM %s", tables[i]);
      g_autofree char *columns = g_strdup_printf ("SELECT group_concat (name, ',') FROM pragma_table_info ('%s')",
                                                  tables[i]);
      g_autofree char *names = pragma_text (store, columns);
      g_assert_cmpint (count_rows (store, sql), ==, 0);
      g_assert_cmpstr (names, ==, "name,document,modified");
    }
  g_assert_cmpint (sqlite3_exec (ws_store_get_db (store),
                                 "INSERT INTO gui_app_draft (name, document) VALUES ('a', '{}')", NULL, NULL, NULL),
                   ==, SQLITE_OK);
  g_autofree char *modified = pragma_text (store, "SELECT modified FROM gui_app_draft WHERE name = 'a'");
  g_assert_true (g_regex_match_simple ("^\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ$", modified, 0, 0));
}

/* A store at schema 7 whose GUI made its drafts table itself (the code
 * before migration 008 ran this CREATE on first use, one table per kind
 * of document) opens cleanly: it reaches the latest schema, the draft
 * keeps its text and date, and the table the GUI never made is there. */
static void
test_migration_008_keeps_gui_made_drafts (Fixture *f, gconstpointer data)
{
  {
    sqlite3 *db = make_db_at_schema (f->path, 7);
    g_assert_cmpint (sqlite3_exec (db,
                                   "CREATE TABLE IF NOT EXISTS gui_app_draft ("
                                   " name TEXT PRIMARY KEY, document TEXT NOT NULL,"
                                   " modified TEXT NOT NULL DEFAULT (strftime ('%Y-%m-%dT%H:%M:%SZ', 'now')));"
                                   "INSERT INTO gui_app_draft (name, document, modified) VALUES "
                                   "  ('half-done', '{\"kind\":\"application\",\"name\":\"half-done\"}', "
                                   "   '2025-11-12T13:14:15Z')",
                                   NULL, NULL, NULL),
                     ==, SQLITE_OK);
    sqlite3_close (db);
  }

  g_autoptr (WsStore) store = open_store (f->path);
  g_assert_cmpint (count_rows (store, "PRAGMA user_version"), ==, latest_migration ());
  g_autofree char *kept = pragma_text (store, "SELECT name || ' ' || document || ' ' || modified FROM gui_app_draft");
  g_assert_cmpstr (kept, ==, "half-done {\"kind\":\"application\",\"name\":\"half-done\"} 2025-11-12T13:14:15Z");
  g_assert_cmpint (count_rows (store, "SELECT count(*) FROM gui_app_draft"), ==, 1);
  g_assert_cmpint (count_rows (store, "SELECT count(*) FROM gui_system_design"), ==, 0);
  /* The GUI's upsert works on the kept table. */
  g_assert_cmpint (sqlite3_exec (ws_store_get_db (store),
                                 "INSERT INTO gui_app_draft (name, document) VALUES ('half-done', '{}') "
                                 "ON CONFLICT (name) DO UPDATE SET document = excluded.document",
                                 NULL, NULL, NULL),
                   ==, SQLITE_OK);
  g_autofree char *updated = pragma_text (store, "SELECT document FROM gui_app_draft WHERE name = 'half-done'");
  g_assert_cmpstr (updated, ==, "{}");
  /* Reopening changes nothing. */
  g_clear_pointer (&store, ws_store_close);
  store = open_store (f->path);
  g_assert_cmpint (count_rows (store, "SELECT count(*) FROM gui_app_draft"), ==, 1);
}

int
main (int argc, char **argv)
{
  /* ISOLATE_DIRS keeps the default path inside a temporary folder. */
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

#define ADD(path, fn) g_test_add (path, Fixture, NULL, fixture_setup, fn, fixture_teardown)
  ADD ("/store/open/fresh-db-migrates-and-seeds", test_fresh_migrates_and_seeds);
  ADD ("/store/seed/gtx970-table-6-1", test_seed_gtx970);
  ADD ("/store/seed/links-table-6-2", test_seed_links_table_6_2);
  ADD ("/store/seed/changed-seed-refreshes-unedited-records", test_changed_seed_records_refresh_unedited);
  ADD ("/store/seed/occupancy-constants-per-cc", test_seed_occupancy_constants);
  ADD ("/store/open/reopen-does-not-reseed", test_reopen_does_not_reseed);
  ADD ("/store/open/new-seed-records-reach-old-databases", test_new_seed_records_reach_old_databases);
  ADD ("/store/open/concurrent-first-open-seeds-once", test_concurrent_first_open);
  ADD ("/store/get/unknown-name-suggests", test_unknown_name_suggests);
  ADD ("/store/put/round-trip-every-field", test_put_round_trip_every_field);
  ADD ("/store/put/duplicate-name", test_put_duplicate);
  ADD ("/store/put/invalid-record-rejected", test_put_invalid_rejected);
  ADD ("/store/delete/removes-record", test_delete);
  ADD ("/store/open/newer-schema-refused", test_newer_schema_refused);
  ADD ("/store/migration/007-tool-result-keeps-rows-takes-handlers", test_migration_007_tool_result_any_tool);
  ADD ("/store/open/fresh-db-has-gui-draft-tables", test_fresh_has_gui_draft_tables);
  ADD ("/store/migration/008-keeps-drafts-the-gui-made", test_migration_008_keeps_gui_made_drafts);
  ADD ("/store/open/not-a-database", test_not_a_database);
  g_test_add_func ("/store/default-path-under-xdg-data", test_default_path);
  return g_test_run ();
}
