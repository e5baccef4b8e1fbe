/* ws-predict.c: loading predictor plugins and running them. */
#include "ws-config.h"
#include "predict/ws-predict.h"
#include "predict/ws-predict-private.h"
#include "base/ws-paths.h"
#include "bounds/ws-bounds.h"
#include "occupancy/ws-occupancy.h"
#include "interval/ws-interval.h"
#include "ptx/ws-ptx.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>
#include <gmodule.h>

/* ---- plugin instances in this process ------------------------------------
 *
 * In-process (WARPSCOPE_PLUGIN_IN_PROCESS=1) one loaded shared object is one
 * instance however many WsPredictorPlugin records point at it: its calls are
 * serialised by one lock unless it declares itself thread-safe, init() runs
 * before its first prediction and teardown() when the last record that
 * loaded it is freed. */
typedef struct {
  GMutex call_lock; /* one predict() at a time (not thread-safe plugins) */
  GMutex init_lock;
  gboolean inited;
  char *init_error; /* init() failed: every prediction fails with it */
  guint refs;
} Instance;

static GMutex instances_lock;
static GHashTable *instances; /* const WsPredictorDescriptor* -> Instance* */

static void
instance_ref (const WsPredictorDescriptor *d)
{
  g_mutex_lock (&instances_lock);
  if (instances == NULL)
    instances = g_hash_table_new (g_direct_hash, g_direct_equal);
  Instance *inst = g_hash_table_lookup (instances, d);
  if (inst == NULL)
    {
      inst = g_new0 (Instance, 1);
      g_mutex_init (&inst->call_lock);
      g_mutex_init (&inst->init_lock);
      g_hash_table_insert (instances, (gpointer) d, inst);
    }
  inst->refs++;
  g_mutex_unlock (&instances_lock);
}

static Instance *
instance_lookup (const WsPredictorDescriptor *d)
{
  g_mutex_lock (&instances_lock);
  Instance *inst = instances ? g_hash_table_lookup (instances, d) : NULL;
  g_mutex_unlock (&instances_lock);
  return inst;
}

static void
instance_unref (const WsPredictorDescriptor *d)
{
  g_mutex_lock (&instances_lock);
  Instance *inst = instances ? g_hash_table_lookup (instances, d) : NULL;
  if (inst == NULL || --inst->refs > 0)
    {
      g_mutex_unlock (&instances_lock);
      return;
    }
  g_hash_table_remove (instances, d);
  g_mutex_unlock (&instances_lock);
  if (inst->inited && inst->init_error == NULL && WS_PREDICTOR_DESCRIPTOR_HAS_V3 (d) && d->teardown != NULL)
    d->teardown ();
  g_mutex_clear (&inst->call_lock);
  g_mutex_clear (&inst->init_lock);
  g_free (inst->init_error);
  g_free (inst);
}

void
ws_predictor_plugin_free (WsPredictorPlugin *plugin)
{
  if (plugin == NULL)
    return;
  g_clear_pointer (&plugin->worker, ws_predict_worker_free);
  if (plugin->ok && plugin->descriptor != NULL)
    instance_unref (plugin->descriptor);
  g_free (plugin->shadowed_by);
  g_free (plugin->shadows);
  g_free (plugin->name);
  g_free (plugin->version);
  g_free (plugin->path);
  g_free (plugin->description);
  g_free (plugin->error);
  /* Modules stay loaded: results may still point at plugin strings, and
   * unloading code that registered anything is unsafe. */
  g_free (plugin);
}

static WsPredictorPlugin *plugin_error (WsPredictorPlugin *p, const char *fmt, ...) G_GNUC_PRINTF (2, 3);

static WsPredictorPlugin *
plugin_error (WsPredictorPlugin *p, const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  p->error = g_strdup_vprintf (fmt, ap);
  va_end (ap);
  p->ok = FALSE;
  p->descriptor = NULL;
  return p;
}

/* "#rrggbb" (hexadecimal digits, either case). */
static gboolean
ws_predictor_colour_valid (const char *colour)
{
  if (strlen (colour) != 7 || colour[0] != '#')
    return FALSE;
  for (int i = 1; i < 7; i++)
    if (!g_ascii_isxdigit (colour[i]))
      return FALSE;
  return TRUE;
}

const WsPredictorCpiCategory *
ws_predictor_plugin_cpi_categories (const WsPredictorPlugin *plugin, guint *n)
{
  g_return_val_if_fail (plugin != NULL, NULL);
  const WsPredictorDescriptor *d = plugin->ok ? plugin->descriptor : NULL;
  gboolean declared = d != NULL && WS_PREDICTOR_DESCRIPTOR_HAS_V4 (d) && d->n_cpi_categories > 0;
  if (n != NULL)
    *n = declared ? d->n_cpi_categories : 0;
  return declared ? d->cpi_categories : NULL;
}

WsPredictorPlugin *
ws_predictor_plugin_load (const char *path)
{
  g_return_val_if_fail (path != NULL, NULL);
  WsPredictorPlugin *p = g_new0 (WsPredictorPlugin, 1);
  p->path = g_strdup (path);
  const char *inproc = g_getenv ("WARPSCOPE_PLUGIN_IN_PROCESS");
  p->in_process = inproc != NULL && *inproc != '\0' && strcmp (inproc, "0") != 0;
  const char *timeout = g_getenv ("WARPSCOPE_PLUGIN_TIMEOUT");
  p->timeout_seconds = timeout != NULL ? g_ascii_strtod (timeout, NULL) : 0;
  if (!(p->timeout_seconds > 0))
    p->timeout_seconds = 600;
  const char *mem = g_getenv ("WARPSCOPE_PLUGIN_MEMORY_MB");
  p->memory_limit_mb = mem != NULL ? g_ascii_strtoull (mem, NULL, 10) : 8192;
  g_autofree char *base = g_path_get_basename (path);
  char *dot = strchr (base, '.');
  if (dot != NULL)
    *dot = '\0';
  p->name = g_strdup (base);

  /* LOCAL: one plugin's symbols never resolve another's. */
  p->module = g_module_open (path, G_MODULE_BIND_LOCAL | G_MODULE_BIND_LAZY);
  if (p->module == NULL)
    return plugin_error (p, "cannot load %s: %s", path, g_module_error ());

  gpointer sym = NULL;
  if (!g_module_symbol (p->module, WS_PREDICTOR_QUERY_SYMBOL, &sym) || sym == NULL)
    return plugin_error (p, "%s does not export %s(); it is not a Warpscope predictor plugin", path,
                         WS_PREDICTOR_QUERY_SYMBOL);

  const WsPredictorDescriptor *d = ((WsPredictorQueryFunc) sym) ();
  if (d == NULL)
    return plugin_error (p, "%s: %s() returned no descriptor (the plugin refused to initialise)", path,
                         WS_PREDICTOR_QUERY_SYMBOL);
  p->abi = (int) d->abi_version;
  if (d->abi_version != WS_PREDICTOR_ABI_VERSION)
    return plugin_error (p,
                         "%s was built for predictor ABI %u, this Warpscope has ABI %u: "
                         "please rebuild the plugin against this version",
                         path, d->abi_version, WS_PREDICTOR_ABI_VERSION);
  p->api = (int) d->api_version;
  if (d->api_version > WS_PREDICTOR_API_VERSION)
    return plugin_error (p,
                         "%s needs predictor API %u, this Warpscope provides API %u: "
                         "please update Warpscope or rebuild the plugin",
                         path, d->api_version, WS_PREDICTOR_API_VERSION);
  if (d->name == NULL || *d->name == '\0' || d->predict == NULL)
    return plugin_error (p, "%s: descriptor without a name or a predict function", path);
  for (const char *c = d->name; *c; c++)
    if (!g_ascii_isalnum (*c) && *c != '_' && *c != '-')
      return plugin_error (p, "%s: plugin name '%s' may only hold letters, digits, '-' and '_'", path, d->name);
  if (d->n_options > 0 && d->options == NULL)
    return plugin_error (p, "%s: descriptor announces %u options but gives none", path, d->n_options);
  if (WS_PREDICTOR_DESCRIPTOR_HAS_V4 (d))
    {
      if (d->n_cpi_categories > 0 && d->cpi_categories == NULL)
        return plugin_error (p, "%s: descriptor announces %u CPI categories but gives none", path, d->n_cpi_categories);
      for (guint i = 0; i < d->n_cpi_categories; i++)
        {
          const WsPredictorCpiCategory *c = &d->cpi_categories[i];
          if (c->name == NULL || *c->name == '\0')
            return plugin_error (p, "%s: CPI category %u of the descriptor has no name", path, i);
          for (guint k = 0; k < i; k++)
            if (strcmp (d->cpi_categories[k].name, c->name) == 0)
              return plugin_error (p, "%s: CPI category '%s' is declared twice", path, c->name);
          if (c->colour != NULL && !ws_predictor_colour_valid (c->colour))
            return plugin_error (p, "%s: CPI category '%s' has colour '%s'; give \"#rrggbb\" or NULL", path, c->name,
                                 c->colour);
        }
    }
  for (guint i = 0; i < d->n_options; i++)
    if (d->options[i].name == NULL || d->options[i].type > WS_PREDICTOR_OPTION_CHOICE
        || (d->options[i].type == WS_PREDICTOR_OPTION_CHOICE && d->options[i].choices == NULL))
      return plugin_error (p, "%s: option %u of the descriptor is malformed", path, i);

  g_free (p->name);
  p->name = g_strdup (d->name);
  p->version = g_strdup (d->version ? d->version : "");
  p->description = g_strdup (d->description ? d->description : "");
  p->descriptor = d;
  p->ok = TRUE;
  instance_ref (d);
  return p;
}

char **
ws_predictor_search_path (void)
{
  g_autoptr (GStrvBuilder) b = g_strv_builder_new ();
  const char *env = g_getenv ("WARPSCOPE_PLUGIN_PATH");
  if (env != NULL)
    {
      g_auto (GStrv) parts = g_strsplit (env, G_SEARCHPATH_SEPARATOR_S, -1);
      for (guint i = 0; parts[i]; i++)
        if (*parts[i])
          g_strv_builder_add (b, parts[i]);
    }
  g_autofree char *user = g_build_filename (g_get_user_data_dir (), "warpscope", "plugins", NULL);
  g_strv_builder_add (b, user);
  g_autofree char *installed = ws_paths_get_for (WS_PATH_PLUGIN_DIR, FALSE);
  g_strv_builder_add (b, installed);
  if (ws_paths_running_uninstalled ())
    {
      g_autofree char *built = ws_paths_get_for (WS_PATH_PLUGIN_DIR, TRUE);
      g_strv_builder_add (b, built);
    }
  return g_strv_builder_end (b);
}

static int
compare_names (gconstpointer a, gconstpointer b)
{
  return strcmp (*(char *const *) a, *(char *const *) b);
}

static void
collect_modules (const char *dir, guint depth, GPtrArray *paths)
{
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  if (d == NULL)
    return;
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  const char *n;
  while ((n = g_dir_read_name (d)) != NULL)
    g_ptr_array_add (names, g_strdup (n));
  g_ptr_array_sort (names, compare_names);
  for (guint i = 0; i < names->len; i++)
    {
      g_autofree char *full = g_build_filename (dir, names->pdata[i], NULL);
      /* The build tree keeps each plugin in a folder of its own. */
      if (depth > 0 && g_file_test (full, G_FILE_TEST_IS_DIR))
        collect_modules (full, depth - 1, paths);
      else if (g_str_has_suffix (names->pdata[i], "." G_MODULE_SUFFIX) && g_file_test (full, G_FILE_TEST_IS_REGULAR))
        g_ptr_array_add (paths, g_steal_pointer (&full));
    }
}

static int
compare_plugins (gconstpointer a, gconstpointer b)
{
  const WsPredictorPlugin *pa = *(WsPredictorPlugin *const *) a;
  const WsPredictorPlugin *pb = *(WsPredictorPlugin *const *) b;
  int c = g_strcmp0 (pa->name, pb->name);
  return c != 0 ? c : g_strcmp0 (pa->path, pb->path);
}

GPtrArray *
ws_predictor_scan (void)
{
  GPtrArray *plugins = g_ptr_array_new_with_free_func ((GDestroyNotify) ws_predictor_plugin_free);
  g_auto (GStrv) dirs = ws_predictor_search_path ();
  g_autofree char *built = ws_paths_get_for (WS_PATH_PLUGIN_DIR, TRUE);
  g_autoptr (GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  for (guint i = 0; dirs[i]; i++)
    {
      /* Warpscope's own plugins live in the installed plugin dir or the
       * build tree; a user plugin of the same name found earlier hides them. */
      g_autoptr (GPtrArray) paths = g_ptr_array_new_with_free_func (g_free);
      collect_modules (dirs[i], 1, paths);
      for (guint k = 0; k < paths->len; k++)
        {
          WsPredictorPlugin *p = ws_predictor_plugin_load (paths->pdata[k]);
          p->builtin = g_str_has_prefix (p->path, WS_PLUGIN_DIR "/")
                       || (g_str_has_prefix (p->path, built) && p->path[strlen (built)] == '/');
          /* The models shipped with Warpscope (tested by its suite and
           * declared thread-safe) run in the host: a worker would build the
           * launch analysis again (seconds on large traces) and cost a
           * process per CPU.  Plugins from the user's plugin path stay in
           * their workers (docs/plugin-guide.md, "Isolation");
           * WARPSCOPE_PLUGIN_IN_PROCESS=0 isolates the shipped ones too. */
          if (p->ok && p->builtin && g_getenv ("WARPSCOPE_PLUGIN_IN_PROCESS") == NULL
              && WS_PREDICTOR_DESCRIPTOR_HAS_V3 (p->descriptor)
              && (p->descriptor->flags & WS_PREDICTOR_FLAG_THREAD_SAFE))
            p->in_process = TRUE;
          if (p->ok)
            {
              WsPredictorPlugin *first = g_hash_table_lookup (seen, p->name);
              if (first != NULL)
                {
                  /* The same file reached twice (a folder on the path twice)
                   * hides nothing. */
                  p->shadowed_by = g_strdup (first->path);
                  if (first->shadows == NULL && first->module != p->module)
                    first->shadows = g_strdup (p->path);
                  instance_unref (p->descriptor);
                  plugin_error (p,
                                "shadowed: another plugin named '%s' was found first on the plugin path "
                                "(%s); this one is not used (remove or rename one of them)",
                                p->name, first->path);
                }
              else
                g_hash_table_insert (seen, p->name, p);
            }
          g_ptr_array_add (plugins, p);
        }
    }
  g_ptr_array_sort (plugins, compare_plugins);
  return plugins;
}

WsPredictorPlugin *
ws_predictor_find (GPtrArray *plugins, const char *name, GError **error)
{
  WsPredictorPlugin *broken = NULL;
  g_autoptr (GPtrArray) names = g_ptr_array_new ();
  for (guint i = 0; i < plugins->len; i++)
    {
      WsPredictorPlugin *p = plugins->pdata[i];
      if (g_ascii_strcasecmp (p->name, name) == 0)
        {
          if (p->ok)
            return p;
          broken = p;
        }
      if (p->ok)
        g_ptr_array_add (names, p->name);
    }
  if (broken != NULL)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_FAILED, "predictor '%s' cannot be used: %s", name, broken->error);
      return NULL;
    }
  g_ptr_array_add (names, NULL);
  g_autofree char *close = ws_suggest_names (name, (const char *const *) names->pdata, 3);
  g_autofree char *all = g_strjoinv (", ", (char **) names->pdata);
  if (close != NULL)
    g_set_error (error, WS_ERROR, WS_ERROR_NOT_FOUND, "unknown predictor '%s'; did you mean %s?", name, close);
  else
    g_set_error (error, WS_ERROR, WS_ERROR_NOT_FOUND, "unknown predictor '%s' (available: %s)", name,
                 *all ? all : "none");
  return NULL;
}

/* ---- analytic kernels ---------------------------------------------------- */

WsAnalyticKernel *
ws_analytic_kernel_new (const char *name)
{
  WsAnalyticKernel *k = g_new0 (WsAnalyticKernel, 1);
  k->name = g_strdup (name ? name : "analytic");
  k->params = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  return k;
}

void
ws_analytic_kernel_set (WsAnalyticKernel *k, const char *param, double value)
{
  double *v = g_new (double, 1);
  *v = value;
  g_hash_table_replace (k->params, g_strdup (param), v);
}

gboolean
ws_analytic_kernel_get (const WsAnalyticKernel *k, const char *param, double *value)
{
  double *v = g_hash_table_lookup (k->params, param);
  if (v == NULL)
    return FALSE;
  *value = *v;
  return TRUE;
}

void
ws_analytic_kernel_free (WsAnalyticKernel *k)
{
  if (k == NULL)
    return;
  g_free (k->name);
  g_hash_table_unref (k->params);
  g_free (k);
}

/* The parameters of seed 004's Listing 5 and what the shipped plugins read
 * besides (volkov, gpumech; docs/plugin-guide.md).  Volkov's inputs are per
 * warp: instructions and bytes each warp executes or moves, its latency
 * bound in cycles, occupancy in warps per SM.  The minimums keep the model
 * finite (a latency bound, occupancy or lambda of 0 divides by zero); the
 * maximums are those of the host's launch_dims/launch_resources, which hand
 * the values to plugins as 32-bit integers. */
#define ANALYTIC_CTX "analytic kernel"
#define U32 4294967295.0
static const WsAnalyticParam analytic_params[] = {
  { "grid_size", TRUE, 1, U32, NC_ ("analytic kernel", "blocks"), ANALYTIC_CTX, NC_ ("analytic kernel", "Grid size"),
    NC_ ("analytic kernel", "Thread blocks the kernel launches (W_L = grid size × warps per block, eq. 4.2).") },
  { "block_size", TRUE, 1, U32, NC_ ("analytic kernel", "threads"), ANALYTIC_CTX, NC_ ("analytic kernel", "Block size"),
    NC_ ("analytic kernel", "Threads per block.") },
  { "cuda_core_instructions", FALSE, 0, HUGE_VAL, NC_ ("analytic kernel", "per warp"), ANALYTIC_CTX,
    NC_ ("analytic kernel", "CUDA core instructions"),
    NC_ ("analytic kernel", "Arithmetic instructions each warp executes on the CUDA cores (INS_cuda).") },
  { "issued_instructions", FALSE, 0, HUGE_VAL, NC_ ("analytic kernel", "per warp"), ANALYTIC_CTX,
    NC_ ("analytic kernel", "Issued instructions"),
    NC_ ("analytic kernel", "Instructions each warp issues, of every kind (INS_issued).") },
  { "gmem_bytes", FALSE, 0, HUGE_VAL, NC_ ("analytic kernel", "bytes per warp"), ANALYTIC_CTX,
    NC_ ("analytic kernel", "Global memory bytes"),
    NC_ ("analytic kernel", "DRAM traffic of each warp (GMem_bytes).") },
  { "latency_bound", FALSE, 1e-9, HUGE_VAL, NC_ ("analytic kernel", "cycles per warp"), ANALYTIC_CTX,
    NC_ ("analytic kernel", "Latency bound"),
    NC_ ("analytic kernel", "Cycles one warp needs when it runs alone (Lat_bound of Listing 5).") },
  { "occupancy_warps", FALSE, 1e-9, HUGE_VAL, NC_ ("analytic kernel", "warps per SM"), ANALYTIC_CTX,
    NC_ ("analytic kernel", "Occupancy (warps)"),
    NC_ ("analytic kernel", "Resident warps per SM; without it predictors derive occupancy from the registers "
                            "and shared memory per block.") },
  { "lambda", FALSE, 1e-9, HUGE_VAL, "", ANALYTIC_CTX, NC_ ("analytic kernel", "Lambda"),
    NC_ ("analytic kernel", "Kernel scaling parameter λ_k of eq. 4.1; without it the predictor’s option applies.") },
  { "sfu_instructions", FALSE, 0, HUGE_VAL, NC_ ("analytic kernel", "per warp"), ANALYTIC_CTX,
    NC_ ("analytic kernel", "SFU instructions"),
    NC_ ("analytic kernel", "Special-function-unit instructions (sine, reciprocal, …) each warp executes.") },
  { "fp64_instructions", FALSE, 0, HUGE_VAL, NC_ ("analytic kernel", "per warp"), ANALYTIC_CTX,
    NC_ ("analytic kernel", "FP64 instructions"),
    NC_ ("analytic kernel", "Double-precision instructions each warp executes.") },
  { "shared_bytes", FALSE, 0, HUGE_VAL, NC_ ("analytic kernel", "bytes per warp"), ANALYTIC_CTX,
    NC_ ("analytic kernel", "Shared memory bytes"), NC_ ("analytic kernel", "Shared-memory traffic of each warp.") },
  { "registers_per_thread", FALSE, 0, U32, NC_ ("analytic kernel", "registers"), ANALYTIC_CTX,
    NC_ ("analytic kernel", "Registers per thread"),
    NC_ ("analytic kernel", "Registers each thread uses, as ptxas reports them (limits occupancy).") },
  { "shared_per_block", FALSE, 0, U32, NC_ ("analytic kernel", "bytes"), ANALYTIC_CTX,
    NC_ ("analytic kernel", "Shared memory per block"),
    NC_ ("analytic kernel", "Static and dynamic shared memory of one block (limits occupancy).") },
};
#undef U32

const WsAnalyticParam *
ws_analytic_params (guint *n_params)
{
  g_return_val_if_fail (n_params != NULL, NULL);
  *n_params = G_N_ELEMENTS (analytic_params);
  return analytic_params;
}

const WsAnalyticParam *
ws_analytic_param_find (const char *key)
{
  g_return_val_if_fail (key != NULL, NULL);
  for (guint i = 0; i < G_N_ELEMENTS (analytic_params); i++)
    if (strcmp (analytic_params[i].key, key) == 0)
      return &analytic_params[i];
  return NULL;
}

gboolean
ws_analytic_param_check (const WsAnalyticParam *param, double value, GError **error)
{
  g_return_val_if_fail (param != NULL, FALSE);
  if (isfinite (value) && value >= param->min && value <= param->max)
    return TRUE;
  if (!isfinite (value))
    g_set_error (error, WS_ERROR, WS_ERROR_INVALID, "field '%s' is %g; it must be a finite number", param->key, value);
  else if (value < param->min)
    g_set_error (error, WS_ERROR, WS_ERROR_INVALID, "field '%s' is %g; it must be %s %g", param->key, value,
                 param->min > 0 ? "at least" : "not below", param->min);
  else
    g_set_error (error, WS_ERROR, WS_ERROR_INVALID, "field '%s' is %g; it must be at most %.15g", param->key, value,
                 param->max);
  return FALSE;
}

char *
ws_analytic_param_names (void)
{
  GString *s = g_string_new (NULL);
  for (guint i = 0; i < G_N_ELEMENTS (analytic_params); i++)
    g_string_append_printf (s, "%s%s", i > 0 ? ", " : "", analytic_params[i].key);
  return g_string_free (s, FALSE);
}

WsAnalyticKernel *
ws_analytic_kernel_load (const char *path, GError **error)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  if (!json_parser_load_from_file (parser, path, error))
    {
      g_prefix_error (error, "%s: ", path);
      return NULL;
    }
  JsonNode *root = json_parser_get_root (parser);
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID, "%s: an analytic kernel is a JSON object", path);
      return NULL;
    }
  JsonObject *o = json_node_get_object (root);
  const char *name = json_object_has_member (o, "name") ? json_object_get_string_member_with_default (o, "name", NULL)
                                                        : NULL;
  g_autoptr (WsAnalyticKernel) k = ws_analytic_kernel_new (name ? name : "analytic");

  g_autoptr (GList) members = json_object_get_members (o);
  for (GList *l = members; l; l = l->next)
    {
      const char *m = l->data;
      if (strcmp (m, "name") == 0)
        {
          if (name == NULL)
            {
              g_set_error (error, WS_ERROR, WS_ERROR_INVALID, "%s: field 'name' must be a string", path);
              return NULL;
            }
          continue;
        }
      const WsAnalyticParam *param = ws_analytic_param_find (m);
      if (param == NULL)
        {
          const char *names[G_N_ELEMENTS (analytic_params) + 2];
          for (guint i = 0; i < G_N_ELEMENTS (analytic_params); i++)
            names[i] = analytic_params[i].key;
          names[G_N_ELEMENTS (analytic_params)] = "name";
          names[G_N_ELEMENTS (analytic_params) + 1] = NULL;
          g_autofree char *close = ws_suggest_names (m, names, 1);
          g_autofree char *all = ws_analytic_param_names ();
          if (close != NULL)
            g_set_error (error, WS_ERROR, WS_ERROR_INVALID, "%s: unknown field '%s' (did you mean '%s'?)", path, m,
                         close);
          else
            g_set_error (error, WS_ERROR, WS_ERROR_INVALID, "%s: unknown field '%s' (fields: name, %s)", path, m, all);
          return NULL;
        }
      JsonNode *n = json_object_get_member (o, m);
      if (!JSON_NODE_HOLDS_VALUE (n)
          || (json_node_get_value_type (n) != G_TYPE_INT64 && json_node_get_value_type (n) != G_TYPE_DOUBLE))
        {
          g_set_error (error, WS_ERROR, WS_ERROR_INVALID, "%s: field '%s' must be a number", path, m);
          return NULL;
        }
      double v = json_node_get_double (n);
      if (!ws_analytic_param_check (param, v, error))
        {
          g_prefix_error (error, "%s: ", path);
          return NULL;
        }
      ws_analytic_kernel_set (k, m, v);
    }
  for (guint f = 0; f < G_N_ELEMENTS (analytic_params); f++)
    if (analytic_params[f].required && !g_hash_table_contains (k->params, analytic_params[f].key))
      {
        g_set_error (error, WS_ERROR, WS_ERROR_INVALID, "%s: missing field '%s'", path, analytic_params[f].key);
        return NULL;
      }
  return g_steal_pointer (&k);
}

/* ---- results --------------------------------------------------------------- */

static void
clear_string (gpointer p)
{
  g_free (*(char **) p);
}

WsPrediction *
ws_prediction_new (const char *model, const char *gpu, const char *kernel)
{
  WsPrediction *p = g_new0 (WsPrediction, 1);
  p->model = g_strdup (model);
  p->gpu = g_strdup (gpu);
  p->kernel = g_strdup (kernel);
  p->cycles = p->seconds = p->ipc = NAN;
  p->bound_cycles = NAN;
  p->cpi_names = g_array_new (FALSE, FALSE, sizeof (char *));
  g_array_set_clear_func (p->cpi_names, clear_string);
  p->cpi_values = g_array_new (FALSE, FALSE, sizeof (double));
  p->metric_names = g_array_new (FALSE, FALSE, sizeof (char *));
  g_array_set_clear_func (p->metric_names, clear_string);
  p->metric_values = g_array_new (FALSE, FALSE, sizeof (double));
  p->warnings = g_ptr_array_new_with_free_func (g_free);
  return p;
}

void
ws_prediction_free (WsPrediction *p)
{
  if (p == NULL)
    return;
  g_free (p->model);
  g_free (p->gpu);
  g_free (p->kernel);
  g_array_unref (p->cpi_names);
  g_array_unref (p->cpi_values);
  g_array_unref (p->metric_names);
  g_array_unref (p->metric_values);
  g_ptr_array_unref (p->warnings);
  g_free (p);
}

double
ws_prediction_cpi_total (const WsPrediction *p)
{
  double sum = 0;
  for (guint i = 0; i < p->cpi_values->len; i++)
    sum += g_array_index (p->cpi_values, double, i);
  return sum;
}

static void
add_number (JsonBuilder *b, const char *name, double v)
{
  json_builder_set_member_name (b, name);
  if (isfinite (v))
    json_builder_add_double_value (b, v);
  else
    json_builder_add_null_value (b);
}

JsonNode *
ws_prediction_to_json (const WsPrediction *p)
{
  g_autoptr (JsonBuilder) b = json_builder_new ();
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "index");
  json_builder_add_int_value (b, p->index);
  json_builder_set_member_name (b, "kernel");
  json_builder_add_string_value (b, p->kernel);
  add_number (b, "cycles", p->cycles);
  add_number (b, "seconds", p->seconds);
  add_number (b, "ipc", p->ipc);
  add_number (b, "bound_cycles", p->bound_cycles);
  if (p->analysis_waves > 0)
    {
      json_builder_set_member_name (b, "analysis_waves");
      json_builder_add_int_value (b, (gint64) p->analysis_waves);
      json_builder_set_member_name (b, "analysis_sampled_waves");
      json_builder_add_int_value (b, (gint64) p->analysis_sampled_waves);
    }
  json_builder_set_member_name (b, "bound_limiter");
  if (p->bound_limiter != NULL)
    json_builder_add_string_value (b, p->bound_limiter);
  else
    json_builder_add_null_value (b);
  json_builder_set_member_name (b, "cpi_stack");
  json_builder_begin_object (b);
  for (guint i = 0; i < p->cpi_names->len; i++)
    add_number (b, g_array_index (p->cpi_names, char *, i), g_array_index (p->cpi_values, double, i));
  json_builder_end_object (b);
  if (p->metric_names->len > 0)
    {
      json_builder_set_member_name (b, "metrics");
      json_builder_begin_object (b);
      for (guint i = 0; i < p->metric_names->len; i++)
        add_number (b, g_array_index (p->metric_names, char *, i), g_array_index (p->metric_values, double, i));
      json_builder_end_object (b);
    }
  if (p->warnings->len > 0)
    {
      json_builder_set_member_name (b, "warnings");
      json_builder_begin_array (b);
      for (guint i = 0; i < p->warnings->len; i++)
        json_builder_add_string_value (b, p->warnings->pdata[i]);
      json_builder_end_array (b);
    }
  json_builder_end_object (b);
  return json_builder_get_root (b);
}

/* ---- options -------------------------------------------------------------- */

static const WsPredictorOption *
find_option (const WsPredictorDescriptor *d, const char *name)
{
  for (guint i = 0; i < d->n_options; i++)
    if (strcmp (d->options[i].name, name) == 0)
      return &d->options[i];
  return NULL;
}

static gboolean
option_value_valid (const WsPredictorOption *o, const char *value, GError **error)
{
  char *end = NULL;
  switch (o->type)
    {
    case WS_PREDICTOR_OPTION_INT: g_ascii_strtoll (value, &end, 10); break;
    case WS_PREDICTOR_OPTION_DOUBLE: g_ascii_strtod (value, &end); break;
    case WS_PREDICTOR_OPTION_BOOL:
      if (g_strv_contains ((const char *const[]){ "true", "false", "1", "0", "yes", "no", NULL }, value))
        return TRUE;
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID, "option '%s' takes true or false, not '%s'", o->name, value);
      return FALSE;
    case WS_PREDICTOR_OPTION_CHOICE:
      {
        g_auto (GStrv) choices = g_strsplit (o->choices, "|", -1);
        if (g_strv_contains ((const char *const *) choices, value))
          return TRUE;
        g_set_error (error, WS_ERROR, WS_ERROR_INVALID, "option '%s' takes one of %s, not '%s'", o->name, o->choices,
                     value);
        return FALSE;
      }
    default: return TRUE;
    }
  if (end == value || *end != '\0')
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID, "option '%s' takes a%s number, not '%s'", o->name,
                   o->type == WS_PREDICTOR_OPTION_INT ? "n integer" : "", value);
      return FALSE;
    }
  return TRUE;
}

gboolean
ws_predictor_check_options (const WsPredictorPlugin *plugin, GHashTable *options, GError **error)
{
  if (options == NULL)
    return TRUE;
  const WsPredictorDescriptor *d = plugin->descriptor;
  GHashTableIter it;
  gpointer key, value;
  g_hash_table_iter_init (&it, options);
  while (g_hash_table_iter_next (&it, &key, &value))
    {
      const WsPredictorOption *o = find_option (d, key);
      if (o == NULL)
        {
          g_autoptr (GPtrArray) names = g_ptr_array_new ();
          for (guint i = 0; i < d->n_options; i++)
            g_ptr_array_add (names, (gpointer) d->options[i].name);
          g_ptr_array_add (names, NULL);
          g_autofree char *all = g_strjoinv (", ", (char **) names->pdata);
          g_set_error (error, WS_ERROR, WS_ERROR_INVALID, "predictor '%s' has no option '%s' (its options: %s)",
                       d->name, (char *) key, *all ? all : "none");
          return FALSE;
        }
      if (!option_value_valid (o, value, error))
        return FALSE;
    }
  return TRUE;
}

/* PLUGIN.KEY=VALUE, split at the first '.': plugin names hold no dots. */
GHashTable *
ws_predictor_options_parse (const char *const *list, const char *default_plugin, GError **error)
{
  g_autoptr (GHashTable)
    per_plugin = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) g_hash_table_unref);
  for (guint i = 0; list != NULL && list[i] != NULL; i++)
    {
      const char *item = list[i], *eq = strchr (item, '=');
      const char *dot = eq ? memchr (item, '.', eq - item) : NULL;
      g_autofree char *plugin = NULL;
      const char *key = item;
      if (dot != NULL && dot > item)
        {
          plugin = g_strndup (item, dot - item);
          key = dot + 1;
        }
      else if (default_plugin != NULL)
        plugin = g_strdup (default_plugin);
      if (eq == NULL || plugin == NULL || key == eq)
        {
          g_set_error (error, WS_ERROR, WS_ERROR_INVALID,
                       "--option takes PLUGIN.KEY=VALUE (for example volkov.lambda=0.7), not '%s'", item);
          return NULL;
        }
      GHashTable *options = g_hash_table_lookup (per_plugin, plugin);
      if (options == NULL)
        {
          options = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
          g_hash_table_insert (per_plugin, g_strdup (plugin), options);
        }
      g_hash_table_replace (options, g_strndup (key, eq - key), g_strdup (eq + 1));
    }
  return g_steal_pointer (&per_plugin);
}

/* ---- the context and the host table ------------------------------------- */


static void host_warn (WsPredictorContext *ctx, const char *message);

struct WsPredictorWarpCursor {
  WsPredictorContext *ctx;
  WsTraceTb *tb;
  WsTraceWarpIter iter;
};

static const char *
host_gpu_name (WsPredictorContext *ctx)
{
  return ctx->gpu->name;
}

static double
host_gpu_param (WsPredictorContext *ctx, const char *name, double fallback)
{
  /* Derived by core, not a record field: the L2 rate every model shares. */
  if (strcmp (name, "l2_model_bytes_per_clk") == 0)
    {
      double v = ws_gpu_l2_model_bytes_per_clk (ctx->gpu);
      return v > 0 ? v : fallback;
    }
  if (ctx->gpu_node == NULL)
    {
      ctx->gpu_node = ws_gpu_to_json (ctx->gpu);
      ctx->gpu_json = json_node_get_object (ctx->gpu_node);
    }
  g_auto (GStrv) parts = g_strsplit (name, ".", -1);
  JsonObject *o = ctx->gpu_json;
  for (guint i = 0; parts[i] != NULL; i++)
    {
      if (o == NULL || !json_object_has_member (o, parts[i]))
        return fallback;
      JsonNode *n = json_object_get_member (o, parts[i]);
      if (parts[i + 1] == NULL)
        {
          if (!JSON_NODE_HOLDS_VALUE (n))
            return fallback;
          GType t = json_node_get_value_type (n);
          if (t == G_TYPE_INT64 || t == G_TYPE_DOUBLE)
            return json_node_get_double (n);
          if (t == G_TYPE_BOOLEAN)
            return json_node_get_boolean (n);
          return fallback;
        }
      o = JSON_NODE_HOLDS_OBJECT (n) ? json_node_get_object (n) : NULL;
    }
  return fallback;
}

static const char *
host_option_string (WsPredictorContext *ctx, const char *name)
{
  const char *v = ctx->options ? g_hash_table_lookup (ctx->options, name) : NULL;
  if (v != NULL)
    return v;
  const WsPredictorOption *o = find_option (ctx->descriptor, name);
  return o ? o->default_value : NULL;
}

static double
host_option_double (WsPredictorContext *ctx, const char *name)
{
  const char *v = host_option_string (ctx, name);
  if (v == NULL)
    return NAN;
  if (strcmp (v, "true") == 0 || strcmp (v, "yes") == 0)
    return 1;
  if (strcmp (v, "false") == 0 || strcmp (v, "no") == 0)
    return 0;
  return g_ascii_strtod (v, NULL);
}

static int64_t
host_option_int (WsPredictorContext *ctx, const char *name)
{
  const char *v = host_option_string (ctx, name);
  if (v == NULL)
    return 0;
  if (strcmp (v, "true") == 0 || strcmp (v, "yes") == 0)
    return 1;
  if (strcmp (v, "false") == 0 || strcmp (v, "no") == 0)
    return 0;
  return g_ascii_strtoll (v, NULL, 10);
}

static const char *
host_kernel_name (WsPredictorContext *ctx)
{
  return ctx->analytic ? ctx->analytic->name : ctx->kernel->name;
}

static int
host_is_analytic (WsPredictorContext *ctx)
{
  return ctx->analytic != NULL;
}

static double
host_analytic_param (WsPredictorContext *ctx, const char *name, double fallback)
{
  double v;
  if (ctx->analytic != NULL && ws_analytic_kernel_get (ctx->analytic, name, &v))
    return v;
  return fallback;
}

static void
host_launch_dims (WsPredictorContext *ctx, uint32_t grid[3], uint32_t block[3], uint32_t *dynamic_shared)
{
  if (ctx->launch != NULL)
    {
      memcpy (grid, ctx->launch->grid, sizeof (uint32_t) * 3);
      memcpy (block, ctx->launch->block, sizeof (uint32_t) * 3);
      *dynamic_shared = ctx->launch->dynamic_shared_bytes;
      return;
    }
  grid[0] = grid[1] = grid[2] = block[0] = block[1] = block[2] = 1;
  grid[0] = (uint32_t) host_analytic_param (ctx, "grid_size", 1);
  block[0] = (uint32_t) host_analytic_param (ctx, "block_size", 1);
  *dynamic_shared = 0;
}

static void
host_launch_resources (WsPredictorContext *ctx, uint32_t *regs, uint32_t *shared)
{
  if (ctx->launch != NULL)
    {
      *regs = ctx->kernel->regs_per_thread;
      *shared = ctx->kernel->static_shared_bytes + ctx->launch->dynamic_shared_bytes;
      return;
    }
  *regs = (uint32_t) host_analytic_param (ctx, "registers_per_thread", 0);
  *shared = (uint32_t) host_analytic_param (ctx, "shared_per_block", 0);
}

static void
host_occupancy (WsPredictorContext *ctx, int *blocks_per_sm, int *warps_per_sm, double *fraction)
{
  uint32_t grid[3], block[3], dyn, regs, shared;
  host_launch_dims (ctx, grid, block, &dyn);
  host_launch_resources (ctx, &regs, &shared);
  WsOccupancy occ = { 0 };
  if (!ws_occupancy_compute (ctx->gpu, (int) (block[0] * block[1] * block[2]), (int) regs, (int) shared, &occ, NULL))
    memset (&occ, 0, sizeof occ);
  if (blocks_per_sm)
    *blocks_per_sm = occ.blocks_per_sm;
  if (warps_per_sm)
    *warps_per_sm = occ.warps_per_sm;
  if (fraction)
    *fraction = occ.occupancy;
}

/* Static instruction table, as issued (ws-trace-lowering.h): an FMA made of
 * a mul and an add reports opcode "fma" and the mul's sources; absorbed
 * instructions never appear in the warp streams plugins read.  An analytic
 * kernel has none: it reports zero instructions and the per-instruction
 * accessors are never reached. */
static const WsTraceStaticInst *
inst_of (WsPredictorContext *ctx, uint32_t id)
{
  if (ctx->kernel == NULL || id >= ctx->kernel->n_insts)
    return NULL;
  return &ctx->kernel->machine[id];
}

static uint32_t
host_n_insts (WsPredictorContext *ctx)
{
  return ctx->kernel ? ctx->kernel->n_insts : 0;
}

static int
host_inst_class (WsPredictorContext *ctx, uint32_t id)
{
  const WsTraceStaticInst *si = inst_of (ctx, id);
  if (si == NULL)
    return -1;
  switch (si->opclass)
    {
    case WS_OPCLASS_ALU: return WS_PRED_CLASS_ALU;
    case WS_OPCLASS_FP32: return WS_PRED_CLASS_FP32;
    case WS_OPCLASS_FP64: return WS_PRED_CLASS_FP64;
    case WS_OPCLASS_SFU: return WS_PRED_CLASS_SFU;
    case WS_OPCLASS_LD: return WS_PRED_CLASS_LD;
    case WS_OPCLASS_ST: return WS_PRED_CLASS_ST;
    case WS_OPCLASS_ATOM: return WS_PRED_CLASS_ATOM;
    case WS_OPCLASS_BRANCH: return WS_PRED_CLASS_BRANCH;
    case WS_OPCLASS_BARRIER: return WS_PRED_CLASS_BARRIER;
    case WS_OPCLASS_WARP: return WS_PRED_CLASS_WARP;
    default: return WS_PRED_CLASS_OTHER;
    }
}

static int
host_inst_space (WsPredictorContext *ctx, uint32_t id)
{
  const WsTraceStaticInst *si = inst_of (ctx, id);
  if (si == NULL)
    return -1;
  if (si->opclass != WS_OPCLASS_LD && si->opclass != WS_OPCLASS_ST && si->opclass != WS_OPCLASS_ATOM)
    return WS_PRED_SPACE_NONE;
  switch (si->space)
    {
    case WS_SPACE_GLOBAL:
    case WS_SPACE_GENERIC: return WS_PRED_SPACE_GLOBAL;
    case WS_SPACE_SHARED: return WS_PRED_SPACE_SHARED;
    case WS_SPACE_LOCAL: return WS_PRED_SPACE_LOCAL;
    case WS_SPACE_CONST: return WS_PRED_SPACE_CONST;
    case WS_SPACE_PARAM:
    case WS_SPACE_FUNC_PARAM: return WS_PRED_SPACE_PARAM;
    default: return WS_PRED_SPACE_OTHER;
    }
}

static const char *
host_inst_opcode (WsPredictorContext *ctx, uint32_t id)
{
  const WsTraceStaticInst *si = inst_of (ctx, id);
  return si ? ws_ptx_op_name (si->op) : NULL;
}

static uint32_t
host_inst_n_srcs (WsPredictorContext *ctx, uint32_t id)
{
  const WsTraceStaticInst *si = inst_of (ctx, id);
  return si ? MIN (si->n_src, 4) : 0;
}

static uint32_t
host_inst_src (WsPredictorContext *ctx, uint32_t id, uint32_t k)
{
  const WsTraceStaticInst *si = inst_of (ctx, id);
  return si && k < MIN (si->n_src, 4) && si->src[k] != 0xffff ? si->src[k] : UINT32_MAX;
}

static uint32_t
host_inst_n_dsts (WsPredictorContext *ctx, uint32_t id)
{
  const WsTraceStaticInst *si = inst_of (ctx, id);
  return si ? MIN (si->n_dst, 2) : 0;
}

static uint32_t
host_inst_dst (WsPredictorContext *ctx, uint32_t id, uint32_t k)
{
  const WsTraceStaticInst *si = inst_of (ctx, id);
  return si && k < MIN (si->n_dst, 2) && si->dst[k] != 0xffff ? si->dst[k] : UINT32_MAX;
}

static uint32_t
host_inst_ptx_line (WsPredictorContext *ctx, uint32_t id)
{
  const WsTraceStaticInst *si = inst_of (ctx, id);
  return si ? si->ptx_line : 0;
}

static uint64_t
host_n_tbs (WsPredictorContext *ctx)
{
  return ctx->launch ? ctx->n_tbs : 0;
}

static uint32_t
host_warps_per_tb (WsPredictorContext *ctx)
{
  return ctx->launch ? ctx->launch->warps_per_tb : 0;
}

static WsLaunchAnalysis *analysis_of (WsPredictorContext *ctx);

/* Instruction counters are machine level (absorbed PTX instructions left
 * out, counted by the launch analysis); "ptx_warp_instructions" and
 * "ptx_thread_instructions" are the recorded PTX counts.  Without an
 * analysis the recorded counts stand in. */
static uint64_t
host_tb_counter (WsPredictorContext *ctx, uint64_t tb, const char *name)
{
  if (ctx->launch == NULL || tb >= ctx->n_tbs)
    return 0;
  const WsTraceTbCounters *c = &ctx->tbs[tb];
  gboolean warp = strcmp (name, "warp_instructions") == 0, thread = strcmp (name, "thread_instructions") == 0;
  if (warp || thread)
    {
      WsLaunchAnalysis *a = ctx->kernel->n_absorbed > 0 ? analysis_of (ctx) : NULL;
      if (a != NULL)
        {
          const uint64_t *th = NULL, *wi = ws_launch_analysis_get_tb_issued (a, &th);
          return warp ? wi[tb] : th[tb];
        }
      return warp ? c->warp_instructions : c->thread_instructions;
    }
  if (strcmp (name, "critical_warp_cycles") == 0)
    {
      /* GPUMech's single-warp model (eq. 13/14) of the block's longest warp */
      WsLaunchAnalysis *a = analysis_of (ctx);
      return a != NULL ? (uint64_t) ceil (ws_launch_analysis_get_tb_critical_cycles (a)[tb]) : 0;
    }
  if (strcmp (name, "ptx_thread_instructions") == 0)
    return c->thread_instructions;
  if (strcmp (name, "ptx_warp_instructions") == 0)
    return c->warp_instructions;
  if (strcmp (name, "global_requests") == 0)
    return c->global_requests;
  if (strcmp (name, "local_requests") == 0)
    return c->local_requests;
  if (strcmp (name, "shared_accesses") == 0)
    return c->shared_accesses;
  if (strcmp (name, "barriers") == 0)
    return c->barriers;
  if (strcmp (name, "memory_instructions") == 0)
    return c->memory_instructions;
  return 0;
}

/* The per-launch analysis is computed on first use: plugins that never ask
 * for cache statistics or the representative warp do not pay for it. */
static WsLaunchAnalysis *
analysis_of (WsPredictorContext *ctx)
{
  if (ctx->analysis == NULL && ctx->trace != NULL && ctx->analysis_error == NULL)
    {
      ctx->analysis = ws_launch_analysis_get (ctx->trace, ctx->launch_index, ctx->gpu, NULL, &ctx->analysis_error);
      ctx->owns_analysis = ctx->analysis != NULL;
    }
  return ctx->analysis;
}

static uint64_t
host_launch_counter (WsPredictorContext *ctx, const char *name)
{
  if (ctx->launch == NULL)
    return 0;
  const WsTraceLaunch *l = ctx->launch;
  gboolean warp = strcmp (name, "warp_instructions") == 0, thread = strcmp (name, "thread_instructions") == 0;
  if (warp || thread)
    {
      /* machine level, as host_tb_counter */
      WsLaunchAnalysis *a = ctx->kernel->n_absorbed > 0 ? analysis_of (ctx) : NULL;
      uint64_t wi = l->warp_instructions, th = l->thread_instructions;
      if (a != NULL)
        ws_launch_analysis_get_issued (a, &wi, &th);
      return warp ? wi : th;
    }
  if (strcmp (name, "ptx_thread_instructions") == 0)
    return l->thread_instructions;
  if (strcmp (name, "ptx_warp_instructions") == 0)
    return l->warp_instructions;
  if (strcmp (name, "memory_requests") == 0)
    return l->memory_requests;
  if (strcmp (name, "memory_instructions") == 0)
    return l->memory_instructions;
  if (strcmp (name, "shared_accesses") == 0)
    return l->shared_accesses;
  if (strcmp (name, "barriers") == 0)
    return l->barriers;
  WsLaunchAnalysis *a = analysis_of (ctx);
  if (a == NULL)
    return 0;
  const WsCacheStats *cs = ws_launch_analysis_get_cache (a);
  if (strcmp (name, "dram_bytes") == 0)
    return cs->dram_bytes;
  if (strcmp (name, "l1_hits") == 0)
    return cs->l1_hits;
  if (strcmp (name, "l2_hits") == 0)
    return cs->l2_hits;
  if (strcmp (name, "dram_sectors") == 0)
    return cs->dram_sectors;
  return 0;
}

static WsPredictorWarpCursor *
host_warp_open (WsPredictorContext *ctx, uint64_t tb, uint32_t warp)
{
  if (ctx->launch == NULL || tb >= ctx->n_tbs || !ctx->tbs[tb].recorded)
    return NULL;
  g_autoptr (GError) error = NULL;
  WsTraceTb *t = ws_trace_read_tb (ctx->trace, ctx->launch_index, tb, &error);
  if (t == NULL)
    {
      g_autofree char *msg = g_strdup_printf ("cannot read thread block %" G_GUINT64_FORMAT ": %s", tb, error->message);
      host_warn (ctx, msg);
      return NULL;
    }
  if (warp >= ws_trace_tb_get_n_warps (t))
    {
      ws_trace_tb_free (t);
      return NULL;
    }
  WsPredictorWarpCursor *c = g_new0 (WsPredictorWarpCursor, 1);
  c->ctx = ctx;
  c->tb = t;
  ws_trace_warp_iter_init (&c->iter, t, warp);
  return c;
}

static int
host_warp_next (WsPredictorWarpCursor *c, WsPredictorWarpRecord *out)
{
  if (c == NULL)
    return 0;
  WsTraceRecord r;
  g_autoptr (GError) error = NULL;
  /* The machine-level stream: absorbed instructions issue nothing. */
  do
    if (!ws_trace_warp_iter_next (&c->iter, &r, &error))
      {
        if (error != NULL)
          host_warn (c->ctx, error->message);
        return 0;
      }
  while (!ws_trace_kernel_issues (c->ctx->kernel, r.static_id));
  out->static_id = r.static_id;
  out->active_mask = r.active_mask;
  out->sectors = out->lines = 0;
  if (r.kind == WS_TRACE_RECORD_MEM)
    {
      const WsTraceStaticInst *si = inst_of (c->ctx, r.static_id);
      uint32_t size = si && si->access_size ? si->access_size : 4;
      uint64_t sec[64], lin[64];
      guint ns = 0, nl = 0;
      for (uint32_t m = r.active_mask; m; m &= m - 1)
        {
          int lane = __builtin_ctz (m);
          uint64_t s = r.addrs[lane] >> 5, e = (r.addrs[lane] + size - 1) >> 5;
          for (; s <= e; s++)
            {
              /* neighbouring lanes mostly share the last sector or line
               * found: a coalesced access costs one comparison a lane */
              if (ns > 0 && sec[ns - 1] == s)
                continue;
              guint i;
              for (i = 0; i < ns && sec[i] != s; i++)
                ;
              if (i == ns && ns < 64)
                sec[ns++] = s;
              uint64_t line = s >> 2;
              if (nl > 0 && lin[nl - 1] == line)
                continue;
              for (i = 0; i < nl && lin[i] != line; i++)
                ;
              if (i == nl && nl < 64)
                lin[nl++] = line;
            }
        }
      out->sectors = ns;
      out->lines = nl;
    }
  return 1;
}

static void
host_warp_close (WsPredictorWarpCursor *c)
{
  if (c == NULL)
    return;
  ws_trace_tb_free (c->tb);
  g_free (c);
}

static void
host_representative_warp (WsPredictorContext *ctx, uint64_t *tb, uint32_t *warp)
{
  *tb = 0;
  *warp = 0;
  WsLaunchAnalysis *a = analysis_of (ctx);
  if (a != NULL)
    ws_launch_analysis_get_representative (a, tb, warp);
}

static int
host_inst_cache (WsPredictorContext *ctx, uint32_t id, double *l1, double *l2, double *amat)
{
  WsLaunchAnalysis *a = analysis_of (ctx);
  if (a == NULL)
    return 0;
  const WsCacheStats *cs = ws_launch_analysis_get_cache (a);
  if (id >= cs->n_insts || cs->pcs[id].executions == 0)
    return 0;
  const WsCachePcStats *pc = &cs->pcs[id];
  uint64_t looked_up_l2 = pc->sector_l2_hits + pc->sector_dram;
  if (l1)
    *l1 = pc->sectors ? (double) pc->sector_l1_hits / pc->sectors : 0;
  if (l2)
    *l2 = looked_up_l2 ? (double) pc->sector_l2_hits / looked_up_l2 : 0;
  if (amat)
    *amat = pc->amat;
  return 1;
}

/* Static instruction @id's entry of a per-instruction table of the launch
 * analysis; NAN without an analysis or for an unknown instruction. */
static double
analysis_per_inst (WsPredictorContext *ctx, uint32_t id, const double *(*table) (WsLaunchAnalysis *a))
{
  WsLaunchAnalysis *a = analysis_of (ctx);
  if (a == NULL || ctx->kernel == NULL || id >= ctx->kernel->n_insts)
    return NAN;
  return table (a)[id];
}

static double
host_inst_latency (WsPredictorContext *ctx, uint32_t id)
{
  return analysis_per_inst (ctx, id, ws_launch_analysis_get_latencies);
}

static void
host_representative_profile (WsPredictorContext *ctx, uint64_t *insts, double *cycles, uint32_t *n_intervals)
{
  WsLaunchAnalysis *a = analysis_of (ctx);
  const WsIntervalProfile *p = a ? ws_launch_analysis_get_representative (a, NULL, NULL) : NULL;
  if (insts)
    *insts = p ? p->insts : 0;
  if (cycles)
    *cycles = p ? p->cycles : 0;
  if (n_intervals)
    *n_intervals = p ? p->intervals->len : 0;
}

static void
host_representative_interval (WsPredictorContext *ctx, uint32_t i, uint32_t *insts, double *stall, uint32_t *stall_inst)
{
  WsLaunchAnalysis *a = analysis_of (ctx);
  const WsIntervalProfile *p = a ? ws_launch_analysis_get_representative (a, NULL, NULL) : NULL;
  if (p == NULL || i >= p->intervals->len)
    {
      *insts = 0;
      *stall = 0;
      *stall_inst = UINT32_MAX;
      return;
    }
  const WsInterval *iv = &g_array_index (p->intervals, WsInterval, i);
  *insts = iv->insts;
  *stall = iv->stall_cycles;
  *stall_inst = iv->stall_inst;
}

static double
host_inst_wavefronts (WsPredictorContext *ctx, uint32_t id)
{
  return analysis_per_inst (ctx, id, ws_launch_analysis_get_wavefronts);
}

static void
host_set_cycles (WsPredictorContext *ctx, double v)
{
  ctx->result->cycles = v;
}
static void
host_set_seconds (WsPredictorContext *ctx, double v)
{
  ctx->result->seconds = v;
}
static void
host_set_ipc (WsPredictorContext *ctx, double v)
{
  ctx->result->ipc = v;
}

static void
host_add_cpi (WsPredictorContext *ctx, const char *category, double cpi)
{
  GArray *names = ctx->result->cpi_names;
  for (guint i = 0; i < names->len; i++)
    if (strcmp (g_array_index (names, char *, i), category) == 0)
      {
        g_array_index (ctx->result->cpi_values, double, i) += cpi;
        return;
      }
  char *copy = g_strdup (category);
  g_array_append_val (names, copy);
  g_array_append_val (ctx->result->cpi_values, cpi);
}

static void
host_set_metric (WsPredictorContext *ctx, const char *name, double value)
{
  char *copy = g_strdup (name);
  g_array_append_val (ctx->result->metric_names, copy);
  g_array_append_val (ctx->result->metric_values, value);
}

static void
host_warn (WsPredictorContext *ctx, const char *message)
{
  g_ptr_array_add (ctx->result->warnings, g_strdup (message));
}

static void
host_fail (WsPredictorContext *ctx, const char *message)
{
  if (ctx->failure == NULL)
    ctx->failure = g_strdup (message);
}

static const WsPredictorHost host_table = {
  .size = sizeof (WsPredictorHost),
  .api_version = WS_PREDICTOR_API_VERSION,
  .gpu_name = host_gpu_name,
  .gpu_param = host_gpu_param,
  .option_string = host_option_string,
  .option_double = host_option_double,
  .kernel_name = host_kernel_name,
  .is_analytic = host_is_analytic,
  .analytic_param = host_analytic_param,
  .launch_dims = host_launch_dims,
  .launch_resources = host_launch_resources,
  .occupancy = host_occupancy,
  .n_insts = host_n_insts,
  .inst_class = host_inst_class,
  .inst_space = host_inst_space,
  .inst_opcode = host_inst_opcode,
  .inst_n_srcs = host_inst_n_srcs,
  .inst_src = host_inst_src,
  .inst_n_dsts = host_inst_n_dsts,
  .inst_dst = host_inst_dst,
  .inst_ptx_line = host_inst_ptx_line,
  .n_tbs = host_n_tbs,
  .warps_per_tb = host_warps_per_tb,
  .tb_counter = host_tb_counter,
  .launch_counter = host_launch_counter,
  .warp_open = host_warp_open,
  .warp_next = host_warp_next,
  .warp_close = host_warp_close,
  .representative_warp = host_representative_warp,
  .inst_cache = host_inst_cache,
  .inst_latency = host_inst_latency,
  .representative_profile = host_representative_profile,
  .representative_interval = host_representative_interval,
  .set_cycles = host_set_cycles,
  .set_seconds = host_set_seconds,
  .set_ipc = host_set_ipc,
  .add_cpi = host_add_cpi,
  .set_metric = host_set_metric,
  .warn = host_warn,
  .fail = host_fail,
  .inst_wavefronts = host_inst_wavefronts,
  .option_int = host_option_int,
};

/* The CPI stack in the order the plugin declared (API 4); a category it
 * did not declare comes last, with a warning. */
static void
order_cpi (const WsPredictorDescriptor *d, WsPrediction *p)
{
  if (!WS_PREDICTOR_DESCRIPTOR_HAS_V4 (d) || d->n_cpi_categories == 0 || p->cpi_names->len == 0)
    return;
  GArray *names = g_array_new (FALSE, FALSE, sizeof (char *));
  GArray *values = g_array_new (FALSE, FALSE, sizeof (double));
  g_array_set_clear_func (names, clear_string);
  gboolean *taken = g_new0 (gboolean, p->cpi_names->len);
  for (guint k = 0; k < d->n_cpi_categories; k++)
    for (guint i = 0; i < p->cpi_names->len; i++)
      if (!taken[i] && strcmp (g_array_index (p->cpi_names, char *, i), d->cpi_categories[k].name) == 0)
        {
          taken[i] = TRUE;
          g_array_append_val (names, g_array_index (p->cpi_names, char *, i));
          g_array_append_val (values, g_array_index (p->cpi_values, double, i));
        }
  for (guint i = 0; i < p->cpi_names->len; i++)
    if (!taken[i])
      {
        char *name = g_array_index (p->cpi_names, char *, i);
        g_ptr_array_add (p->warnings, g_strdup_printf ("predictor '%s' reports the CPI category '%s', which its "
                                                       "descriptor does not declare",
                                                       d->name, name));
        g_array_append_val (names, name);
        g_array_append_val (values, g_array_index (p->cpi_values, double, i));
      }
  g_free (taken);
  /* The strings moved to @names: the old array must not free them. */
  g_array_set_clear_func (p->cpi_names, NULL);
  g_array_unref (p->cpi_names);
  g_array_unref (p->cpi_values);
  p->cpi_names = names;
  p->cpi_values = values;
}

WsPrediction *
ws_predict_run_direct (WsPredictorContext *ctx, GError **error)
{
  const WsPredictorDescriptor *d = ctx->descriptor;
  const char *kernel = host_kernel_name (ctx);
  ctx->result = ws_prediction_new (d->name, ctx->gpu->name, kernel);
  int rc = d->predict (&host_table, ctx);
  g_clear_pointer (&ctx->gpu_node, json_node_unref);
  g_autoptr (WsPrediction) result = ctx->result;
  g_autofree char *failure = ctx->failure;
  if (ctx->analysis_error != NULL && (rc != 0 || failure != NULL))
    {
      g_set_error (error, WS_ERROR, WS_ERROR_FAILED, "predictor '%s' on kernel '%s' for %s: %s", d->name, kernel,
                   ctx->gpu->name, ctx->analysis_error->message);
      return NULL;
    }
  if (rc != 0 || failure != NULL)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_FAILED, "predictor '%s' failed on kernel '%s' for %s: %s", d->name, kernel,
                   ctx->gpu->name, failure ? failure : "it returned an error without a message");
      return NULL;
    }
  order_cpi (d, result);
  if (!isfinite (result->seconds) && isfinite (result->cycles) && ctx->gpu->core_clock_mhz > 0)
    result->seconds = result->cycles / (ctx->gpu->core_clock_mhz * 1e6);
  if (!isfinite (result->cycles) && isfinite (result->seconds) && ctx->gpu->core_clock_mhz > 0)
    result->cycles = result->seconds * ctx->gpu->core_clock_mhz * 1e6;
  if (!isfinite (result->seconds) || result->seconds < 0)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_FAILED, "predictor '%s' gave no valid time for kernel '%s' on %s", d->name,
                   kernel, ctx->gpu->name);
      return NULL;
    }
  return g_steal_pointer (&result);
}

gboolean
ws_predict_run_init (const WsPredictorDescriptor *d, GError **error)
{
  if (!WS_PREDICTOR_DESCRIPTOR_HAS_V3 (d) || d->init == NULL)
    return TRUE;
  /* init() sees a context with no launch: the host functions give their
   * defaults there, and its warnings go to standard error. */
  g_autoptr (WsGpu) none = g_new0 (WsGpu, 1);
  none->name = g_strdup ("");
  g_autoptr (WsAnalyticKernel) nothing = ws_analytic_kernel_new ("");
  WsPredictorContext ctx = { 0 };
  ctx.descriptor = d;
  ctx.gpu = none;
  ctx.analytic = nothing;
  ctx.result = ws_prediction_new (d->name, "", "");
  int rc = d->init (&host_table, &ctx);
  g_clear_pointer (&ctx.gpu_node, json_node_unref);
  for (guint i = 0; i < ctx.result->warnings->len; i++)
    g_printerr ("warning: predictor '%s', init: %s\n", d->name, (char *) ctx.result->warnings->pdata[i]);
  ws_prediction_free (ctx.result);
  g_autofree char *failure = ctx.failure;
  if (rc != 0 || failure != NULL)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_FAILED, "predictor '%s' could not initialise: %s", d->name,
                   failure ? failure : "its init() returned an error without a message");
      return FALSE;
    }
  return TRUE;
}

/* In this process: the thread contract (one predict() at a time per
 * instance unless the plugin is thread-safe) and init() before the first. */
static WsPrediction *
run_in_process (WsPredictorContext *ctx, GError **error)
{
  const WsPredictorDescriptor *d = ctx->descriptor;
  Instance *inst = instance_lookup (d);
  g_assert (inst != NULL);
  g_mutex_lock (&inst->init_lock);
  if (!inst->inited)
    {
      g_autoptr (GError) init_error = NULL;
      if (!ws_predict_run_init (d, &init_error))
        inst->init_error = g_strdup (init_error->message);
      inst->inited = TRUE;
    }
  g_mutex_unlock (&inst->init_lock);
  if (inst->init_error != NULL)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_FAILED, "%s", inst->init_error);
      return NULL;
    }
  gboolean thread_safe = WS_PREDICTOR_DESCRIPTOR_HAS_V3 (d) && (d->flags & WS_PREDICTOR_FLAG_THREAD_SAFE);
  if (!thread_safe)
    g_mutex_lock (&inst->call_lock);
  WsPrediction *p = ws_predict_run_direct (ctx, error);
  if (!thread_safe)
    g_mutex_unlock (&inst->call_lock);
  return p;
}

WsPrediction *
ws_predict_analytic (const WsPredictorPlugin *plugin, const WsGpu *gpu, const WsAnalyticKernel *kernel,
                     GHashTable *options, GError **error)
{
  g_return_val_if_fail (plugin != NULL && plugin->ok && gpu != NULL && kernel != NULL, NULL);
  const WsPredictorDescriptor *d = plugin->descriptor;
  if (!d->supports_analytic)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_UNSUPPORTED,
                   "predictor '%s' works from traces only; it cannot predict the analytic kernel '%s'", d->name,
                   kernel->name);
      return NULL;
    }
  if (!ws_predictor_check_options (plugin, options, error))
    return NULL;
  WsPredictorContext ctx = { 0 };
  ctx.descriptor = d;
  ctx.gpu = gpu;
  ctx.analytic = kernel;
  ctx.options = options;
  if (plugin->in_process)
    return run_in_process (&ctx, error);
  return ws_predict_worker_analytic (plugin, &ctx, error);
}

WsPrediction *
ws_predict_trace (const WsPredictorPlugin *plugin, const WsGpu *gpu, WsTrace *trace, guint launch,
                  WsLaunchAnalysis *analysis, GHashTable *options, GError **error)
{
  g_return_val_if_fail (plugin != NULL && plugin->ok && gpu != NULL && trace != NULL, NULL);
  const WsPredictorDescriptor *d = plugin->descriptor;
  if (launch >= ws_trace_get_n_launches (trace))
    {
      g_set_error (error, WS_ERROR, WS_ERROR_NOT_FOUND, "%s has %u launches; there is no launch %u",
                   ws_trace_get_path (trace), ws_trace_get_n_launches (trace), launch);
      return NULL;
    }
  const WsTraceLaunch *l = ws_trace_get_launch (trace, launch);
  const WsTraceKernel *k = ws_trace_get_kernel (trace, l->kernel);
  if (!d->supports_trace)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_UNSUPPORTED,
                   "predictor '%s' reads analytic kernels only; it cannot predict traced launches", d->name);
      return NULL;
    }
  if (!ws_predictor_check_options (plugin, options, error))
    return NULL;
  WsPredictorContext ctx = { 0 };
  ctx.descriptor = d;
  ctx.gpu = gpu;
  ctx.options = options;
  ctx.trace = trace;
  ctx.launch_index = launch;
  ctx.launch = l;
  ctx.kernel = k;
  ctx.tbs = ws_trace_get_tb_counters (trace, launch, &ctx.n_tbs);
  ctx.analysis = analysis;
  WsPrediction *p = plugin->in_process ? run_in_process (&ctx, error) : ws_predict_worker_trace (plugin, &ctx, error);
  if (p != NULL)
    p->index = launch;
  /* The physical lower bound (core/bounds; the launch's counts are walked
   * once and cached for every plugin and GPU).  A result below it is
   * reported, never changed. */
  WsLaunchCounts counts;
  WsLaunchBound bound;
  g_autoptr (GError) bound_error = NULL;
  if (p != NULL && ws_launch_counts_cached (trace, launch, &counts, &bound_error)
      && ws_launch_bound_from_counts (&counts, gpu, &bound, &bound_error))
    {
      p->bound_cycles = bound.cycles;
      p->bound_limiter = bound.limiter;
      if (p->cycles < bound.cycles * (1 - 1e-9))
        g_ptr_array_add (p->warnings,
                         g_strdup_printf ("predictor '%s' gives %.6g cycles for kernel '%s' (launch %u) on %s, below "
                                          "the physical lower bound of %.6g cycles (limited by %s): %.3gx too fast",
                                          d->name, p->cycles, k->name, launch, gpu->name, bound.cycles, bound.limiter,
                                          bound.cycles / MAX (p->cycles, 1e-300)));
    }
  else if (p != NULL)
    g_ptr_array_add (p->warnings, g_strdup_printf ("no physical lower bound for launch %u: %s", launch,
                                                   bound_error ? bound_error->message : "unknown error"));
  guint sampled_waves = 0;
  uint64_t waves = 0;
  if (p != NULL && ws_launch_analysis_plan (trace, launch, gpu, &sampled_waves, &waves, NULL))
    {
      p->analysis_waves = waves;
      p->analysis_sampled_waves = sampled_waves;
    }
  if (ctx.owns_analysis)
    ws_launch_analysis_free (ctx.analysis);
  g_clear_error (&ctx.analysis_error);
  return p;
}
