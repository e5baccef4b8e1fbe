/* ws-profiles-page.c: traces, their kernels and launches, tool results,
 * and profiling a CUDA program through core/launch (the same build and
 * profile steps as `warpscope-cli build` and `profile`), in a GTask thread
 * so the window stays responsive; the program itself is always a child
 * process (fork and exec), so it cannot take the application down. */
#define G_LOG_DOMAIN "ws-profiles-page"

#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <adwaita.h>
#include <json-glib/json-glib.h>
#include <inttypes.h>
#include <string.h>

#include "ws-profiles-page.h"
#include "instrument/ws-instrument.h"
#include "launch/ws-launch.h"
#include "system/ws-system.h"
#include "trace/ws-trace.h"

struct _WsProfilesPage {
  GtkWidget parent_instance;

  char *folder;
  GPtrArray *paths; /* of char*: the listed traces, in list order */
  char *selected;

  GtkWidget *paned;
  GtkListBox *trace_list;
  GtkWidget *profile_button;
  GtkWidget *progress_box;
  GtkProgressBar *progress;
  GtkWidget *cancel_button;
  GtkLabel *status_label;
  GtkWidget *detail_stack;
  AdwPreferencesGroup *kernels_group;
  AdwPreferencesGroup *launches_group;
  AdwPreferencesGroup *tools_group;
  GPtrArray *detail_rows; /* rows added to the three groups, to remove them */
  guint n_kernel_rows, n_launch_rows, n_value_rows;
  WsChartView *branch_chart, *memdiv_chart, *memdiv_pmf_chart;
  GtkWidget *tools_box;   /* the tool results in tool order (charts and lists) */
  GtkListBox *tools_list; /* the list rows go to until a chart comes */

  /* The running profile (one at a time: the emulator uses every CPU). */
  GCancellable *cancellable;
  char *run_output;
  guint pulse_id;
  char *status;
  GStrv tools;       /* the instrumentation tools to attach */
  char *db_path;     /* the workspace (GPU catalogue, tool results) */
  gboolean disposed; /* a run that ends after dispose touches no widget */
};

G_DEFINE_FINAL_TYPE (WsProfilesPage, ws_profiles_page, GTK_TYPE_WIDGET)

enum { PROFILE_FINISHED, N_SIGNALS };
static guint signals[N_SIGNALS];

static const char *const tool_names[] = { "branch", "memdiv", "value" };

/* ---- listing ------------------------------------------------------------ */

static int
compare_strings (gconstpointer a, gconstpointer b)
{
  return g_strcmp0 (*(const char *const *) a, *(const char *const *) b);
}

static void
clear_details (WsProfilesPage *self)
{
  for (guint i = 0; i < self->detail_rows->len; i++)
    {
      GtkWidget *row = g_ptr_array_index (self->detail_rows, i);
      GtkWidget *group = gtk_widget_get_ancestor (row, ADW_TYPE_PREFERENCES_GROUP);

      if (group != NULL)
        adw_preferences_group_remove (ADW_PREFERENCES_GROUP (group), row);
    }
  g_ptr_array_set_size (self->detail_rows, 0);
  self->n_kernel_rows = self->n_launch_rows = self->n_value_rows = 0;
  self->branch_chart = self->memdiv_chart = self->memdiv_pmf_chart = NULL;
  self->tools_box = NULL;
  self->tools_list = NULL;
}

/* Preferences groups put plain widgets after all rows; tool results keep
 * their order (a chart, then its rows) in one box of their own. */
static void
add_tool_widget (WsProfilesPage *self, GtkWidget *widget)
{
  if (self->tools_box == NULL)
    {
      self->tools_box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 12);
      adw_preferences_group_add (self->tools_group, self->tools_box);
      g_ptr_array_add (self->detail_rows, self->tools_box);
    }
  if (GTK_IS_LIST_BOX_ROW (widget))
    {
      if (self->tools_list == NULL)
        {
          self->tools_list = GTK_LIST_BOX (gtk_list_box_new ());
          gtk_list_box_set_selection_mode (self->tools_list, GTK_SELECTION_NONE);
          gtk_widget_add_css_class (GTK_WIDGET (self->tools_list), "boxed-list");
          gtk_box_append (GTK_BOX (self->tools_box), GTK_WIDGET (self->tools_list));
        }
      gtk_list_box_append (self->tools_list, widget);
    }
  else
    {
      self->tools_list = NULL;
      gtk_box_append (GTK_BOX (self->tools_box), widget);
    }
}

static void
add_row (WsProfilesPage *self, AdwPreferencesGroup *group, GtkWidget *row)
{
  adw_preferences_group_add (group, row);
  g_ptr_array_add (self->detail_rows, row);
}

static GtkWidget *
text_row (const char *title, const char *subtitle)
{
  GtkWidget *row = adw_action_row_new ();

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  if (subtitle != NULL)
    adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle);
  /* Kernel names are C++ mangled and PTX lines are code: never markup. */
  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
  return row;
}

static void
reload_list (WsProfilesPage *self)
{
  g_autoptr (GDir) dir = NULL;
  const char *name;
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->trace_list))) != NULL)
    gtk_list_box_remove (self->trace_list, child);
  g_ptr_array_set_size (self->paths, 0);

  if (self->folder != NULL)
    dir = g_dir_open (self->folder, 0, NULL);
  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    if (g_str_has_suffix (name, ".wstrace"))
      g_ptr_array_add (self->paths, g_build_filename (self->folder, name, NULL));
  g_ptr_array_sort (self->paths, compare_strings);

  for (guint i = 0; i < self->paths->len; i++)
    {
      const char *path = g_ptr_array_index (self->paths, i);
      g_autofree char *base = g_path_get_basename (path);
      g_autoptr (GError) error = NULL;
      WsTrace *trace = ws_trace_open (path, &error);
      g_autofree char *subtitle = NULL;
      GtkWidget *row;

      if (trace != NULL)
        {
          subtitle = g_strdup_printf (
            ngettext ("%u kernel, %u launch", "%u kernels, %u launches", ws_trace_get_n_launches (trace)),
            ws_trace_get_n_kernels (trace), ws_trace_get_n_launches (trace));
          ws_trace_free (trace);
        }
      else
        subtitle = g_strdup (error->message);
      row = text_row (base, subtitle);
      gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), TRUE);
      gtk_list_box_append (self->trace_list, row);
    }
  gtk_stack_set_visible_child_name (GTK_STACK (self->detail_stack), self->paths->len > 0 ? "none-selected" : "empty");
}

/* ---- tool results --------------------------------------------------------- */

static JsonNode *
load_tool_json (const char *trace_path, const char *tool)
{
  g_autofree char *path = g_strdup_printf ("%s.%s.json", trace_path, tool);
  g_autoptr (JsonParser) parser = json_parser_new ();
  JsonNode *root;

  if (!g_file_test (path, G_FILE_TEST_IS_REGULAR) || !json_parser_load_from_file (parser, path, NULL))
    return NULL;
  root = json_parser_get_root (parser);
  return root != NULL && JSON_NODE_HOLDS_OBJECT (root) ? json_node_copy (root) : NULL;
}

static gint64
member_int (JsonObject *o, const char *name)
{
  return o != NULL && json_object_has_member (o, name) ? json_object_get_int_member (o, name) : 0;
}

static WsChartView *
add_chart_row (WsProfilesPage *self, WsChart *chart, const char *export_name)
{
  GtkWidget *view = ws_chart_view_new ();

  ws_chart_view_set_chart (WS_CHART_VIEW (view), chart);
  ws_chart_view_set_export_name (WS_CHART_VIEW (view), export_name);
  gtk_widget_set_size_request (view, -1, 320);
  add_tool_widget (self, view);
  return WS_CHART_VIEW (view);
}

/* Per-branch divergence (seed 003 Fig. 5): one bar per conditional branch,
 * its executions split into divergent and uniform ones. */
static void
show_branch (WsProfilesPage *self, JsonObject *root)
{
  JsonArray *branches = json_object_has_member (root, "branches") ? json_object_get_array_member (root, "branches")
                                                                  : NULL;
  WsChart *chart = ws_chart_new (WS_CHART_STACKED);
  g_autoptr (GPtrArray) kernels = g_ptr_array_new_with_free_func (g_free);
  guint divergent, uniform;

  ws_chart_set_title (chart, _ ("Divergence per branch"));
  ws_chart_set_axis_title (chart, WS_CHART_AXIS_X, _ ("branch (kernel number:PTX line)"));
  ws_chart_set_axis_title (chart, WS_CHART_AXIS_Y, _ ("warp executions"));
  divergent = ws_chart_add_series (chart, _ ("divergent"), 0);
  uniform = ws_chart_add_series (chart, _ ("uniform"), 0);
  for (guint i = 0; branches != NULL && i < json_array_get_length (branches); i++)
    {
      JsonObject *b = json_array_get_object_element (branches, i);
      const char *kernel = json_object_has_member (b, "kernel") ? json_object_get_string_member (b, "kernel") : "?";
      /* Kernel names are long (mangled); the bar says which kernel by its
       * number in the subtitle, and the PTX line. */
      guint k = 0;
      g_autofree char *label = NULL;

      while (k < kernels->len && !g_str_equal (g_ptr_array_index (kernels, k), kernel))
        k++;
      if (k == kernels->len)
        g_ptr_array_add (kernels, g_strdup (kernel));
      label = g_strdup_printf ("%u:%" G_GINT64_FORMAT, k + 1, member_int (b, "ptx_line"));
      guint bar = ws_chart_add_bar (chart, label);
      gint64 exec = member_int (b, "executions"), div = member_int (b, "divergent");

      ws_chart_set_bar_value (chart, bar, divergent, div);
      ws_chart_set_bar_value (chart, bar, uniform, MAX (exec - div, 0));
    }
  if (kernels->len > 0)
    {
      g_autoptr (GString) subtitle = g_string_new (NULL);

      for (guint k = 0; k < kernels->len; k++)
        g_string_append_printf (subtitle, "%s%u = %s", k > 0 ? ", " : "", k + 1,
                                (char *) g_ptr_array_index (kernels, k));
      ws_chart_set_subtitle (chart, subtitle->str);
    }
  self->branch_chart = add_chart_row (self, chart, "branch-divergence");
}

/* Memory divergence (seed 003 Fig. 7/8): the active-threads x unique-lines
 * matrix as a heat map, and the PMF of unique lines per warp access. */
static void
show_memdiv (WsProfilesPage *self, JsonObject *root)
{
  JsonArray *kernels = json_object_has_member (root, "kernels") ? json_object_get_array_member (root, "kernels") : NULL;
  double matrix[32 * 32] = { 0 };
  double pmf[32] = { 0 }, total = 0;
  WsChart *heat, *line;
  guint series;

  /* Every kernel's accesses together: the figure is per program. */
  for (guint k = 0; kernels != NULL && k < json_array_get_length (kernels); k++)
    {
      JsonObject *ko = json_array_get_object_element (kernels, k);
      JsonArray *rows = json_object_has_member (ko, "matrix") ? json_object_get_array_member (ko, "matrix") : NULL;

      for (guint a = 0; rows != NULL && a < MIN (json_array_get_length (rows), 32); a++)
        {
          JsonArray *row = json_array_get_array_element (rows, a);

          for (guint u = 0; row != NULL && u < MIN (json_array_get_length (row), 32); u++)
            {
              double count = (double) json_array_get_int_element (row, u);

              matrix[a * 32 + u] += count;
              pmf[u] += count;
              total += count;
            }
        }
    }

  heat = ws_chart_new (WS_CHART_HEATMAP);
  ws_chart_set_title (heat, _ ("Memory divergence"));
  ws_chart_set_axis_title (heat, WS_CHART_AXIS_X, _ ("unique 32-byte lines"));
  ws_chart_set_axis_title (heat, WS_CHART_AXIS_Y, _ ("active threads"));
  ws_chart_set_value_title (heat, _ ("warp accesses"));
  ws_chart_set_matrix (heat, 32, 32, matrix);
  self->memdiv_chart = add_chart_row (self, heat, "memory-divergence");

  line = ws_chart_new (WS_CHART_LINE);
  ws_chart_set_title (line, _ ("Unique lines per warp access"));
  ws_chart_set_axis_title (line, WS_CHART_AXIS_X, _ ("unique 32-byte lines"));
  ws_chart_set_axis_title (line, WS_CHART_AXIS_Y, _ ("probability"));
  series = ws_chart_add_series (line, _ ("PMF"), 0);
  for (guint u = 0; u < 32; u++)
    ws_chart_series_add_point (line, series, u + 1, total > 0 ? pmf[u] / total : 0);
  self->memdiv_pmf_chart = add_chart_row (self, line, "memory-divergence-pmf");
}

/* Value profile (seed 003 §5): per instruction, how many result bits never
 * changed and whether every thread of a warp wrote the same value. */
static int
compare_executions (gconstpointer a, gconstpointer b)
{
  gint64 ea = member_int (*(JsonObject *const *) a, "executions");
  gint64 eb = member_int (*(JsonObject *const *) b, "executions");

  return ea < eb ? 1 : ea > eb ? -1 : 0;
}

/* Value profile (seed 003 §5): per instruction, how many result bits never
 * changed and whether every thread of a warp wrote the same value.  The
 * most executed instructions first; a program has hundreds, and rows past
 * the first few dozen are rarely what matters (the JSON file has them all). */
static void
show_value (WsProfilesPage *self, JsonObject *root, const char *trace_path)
{
  JsonArray *insts = json_object_has_member (root, "instructions") ? json_object_get_array_member (root, "instructions")
                                                                   : NULL;
  g_autoptr (GPtrArray) sorted = g_ptr_array_new ();
  const guint max_rows = 25;

  for (guint i = 0; insts != NULL && i < json_array_get_length (insts); i++)
    g_ptr_array_add (sorted, json_array_get_object_element (insts, i));
  g_ptr_array_sort (sorted, compare_executions);

  for (guint i = 0; i < MIN (sorted->len, max_rows); i++)
    {
      JsonObject *o = g_ptr_array_index (sorted, i);
      const char *kernel = json_object_has_member (o, "kernel") ? json_object_get_string_member (o, "kernel") : "?";
      g_autofree char *title = g_strdup_printf (_ ("%s, PTX line %" PRId64), kernel, member_int (o, "ptx_line"));
      gboolean scalar = json_object_has_member (o, "scalar") && json_object_get_boolean_member (o, "scalar");
      g_autofree char *subtitle = g_strdup_printf (
        _ ("%" PRId64 " executions · %" PRId64 " of %" PRId64 " bits constant (%" PRId64 " one, %" PRId64
           " zero) · %s"),
        member_int (o, "executions"), member_int (o, "constant_one_bits") + member_int (o, "constant_zero_bits"),
        member_int (o, "bits"), member_int (o, "constant_one_bits"), member_int (o, "constant_zero_bits"),
        scalar ? _ ("scalar") : _ ("varies across threads"));

      add_tool_widget (self, text_row (title, subtitle));
      self->n_value_rows++;
    }
  if (sorted->len > max_rows)
    {
      g_autofree char *title = g_strdup_printf (_ ("%u more instructions"), sorted->len - max_rows);
      g_autofree char *subtitle = g_strdup_printf (_ ("All of them are in %s.value.json."), trace_path);

      add_tool_widget (self, text_row (title, subtitle));
    }
}

static void
show_tools (WsProfilesPage *self, const char *trace_path)
{
  for (guint t = 0; t < G_N_ELEMENTS (tool_names); t++)
    {
      g_autoptr (JsonNode) node = load_tool_json (trace_path, tool_names[t]);

      if (node == NULL)
        {
          g_autofree char *title = g_strdup_printf (_ ("%s: not run"), tool_names[t]);
          g_autofree char *hint = g_strdup_printf (_ ("Profile with “warpscope-cli profile --tool %s” to see it here."),
                                                   tool_names[t]);
          add_tool_widget (self, text_row (title, hint));
          continue;
        }
      if (t == 0)
        show_branch (self, json_node_get_object (node));
      else if (t == 1)
        show_memdiv (self, json_node_get_object (node));
      else
        show_value (self, json_node_get_object (node), trace_path);
    }
}

gboolean
ws_profiles_page_select (WsProfilesPage *self, guint index)
{
  g_autoptr (GError) error = NULL;
  const char *path;
  WsTrace *trace;

  g_return_val_if_fail (WS_IS_PROFILES_PAGE (self), FALSE);

  clear_details (self);
  g_clear_pointer (&self->selected, g_free);
  if (index >= self->paths->len)
    return FALSE;
  path = g_ptr_array_index (self->paths, index);
  /* Set before selecting the row so row-selected does not show it twice. */
  self->selected = g_strdup (path);
  if (gtk_list_box_get_selected_row (self->trace_list) != gtk_list_box_get_row_at_index (self->trace_list, index))
    gtk_list_box_select_row (self->trace_list, gtk_list_box_get_row_at_index (self->trace_list, index));

  trace = ws_trace_open (path, &error);
  if (trace == NULL)
    {
      add_row (self, self->kernels_group, text_row (_ ("Cannot read this trace"), error->message));
      gtk_stack_set_visible_child_name (GTK_STACK (self->detail_stack), "details");
      return FALSE;
    }

  for (guint k = 0; k < ws_trace_get_n_kernels (trace); k++)
    {
      const WsTraceKernel *kernel = ws_trace_get_kernel (trace, k);
      g_autofree char *subtitle = g_strdup_printf (
        _ ("%u PTX instructions · %u registers per thread · %u B static shared · %u B local"), kernel->n_insts,
        kernel->regs_per_thread, kernel->static_shared_bytes, kernel->local_bytes);

      add_row (self, self->kernels_group, text_row (kernel->name, subtitle));
      self->n_kernel_rows++;
    }
  for (guint l = 0; l < ws_trace_get_n_launches (trace); l++)
    {
      const WsTraceLaunch *launch = ws_trace_get_launch (trace, l);
      const WsTraceKernel *kernel = ws_trace_get_kernel (trace, launch->kernel);
      g_autofree char *title = g_strdup_printf (_ ("#%u %s"), l, kernel != NULL ? kernel->name : "?");
      g_autofree char *subtitle = g_strdup_printf (_ ("grid %u×%u×%u · block %u×%u×%u · %" PRIu64 " TBs · %" PRIu64
                                                      " warp instructions · %" PRIu64 " memory requests%s"),
                                                   launch->grid[0], launch->grid[1], launch->grid[2], launch->block[0],
                                                   launch->block[1], launch->block[2], launch->n_tbs,
                                                   launch->warp_instructions, launch->memory_requests,
                                                   launch->complete ? "" : _ (" · incomplete (the launch faulted)"));

      add_row (self, self->launches_group, text_row (title, subtitle));
      self->n_launch_rows++;
    }
  ws_trace_free (trace);

  show_tools (self, path);
  gtk_stack_set_visible_child_name (GTK_STACK (self->detail_stack), "details");
  return TRUE;
}

static void
on_row_selected (WsProfilesPage *self, GtkListBoxRow *row, GtkListBox *list)
{
  if (row != NULL)
    {
      guint index = gtk_list_box_row_get_index (row);

      if (self->selected == NULL || index >= self->paths->len
          || !g_str_equal (self->selected, g_ptr_array_index (self->paths, index)))
        ws_profiles_page_select (self, index);
    }
}

/* ---- profiling ---------------------------------------------------------- */

static void
set_status (WsProfilesPage *self, const char *text)
{
  g_free (self->status);
  self->status = g_strdup (text);
  gtk_label_set_text (self->status_label, text);
  gtk_widget_set_visible (GTK_WIDGET (self->status_label), text[0] != '\0');
}

static gboolean
pulse_cb (gpointer user_data)
{
  WsProfilesPage *self = user_data;

  gtk_progress_bar_pulse (self->progress);
  return G_SOURCE_CONTINUE;
}

static void
finish_run (WsProfilesPage *self, gboolean ok, const char *message)
{
  g_autofree char *output = g_steal_pointer (&self->run_output);

  g_clear_handle_id (&self->pulse_id, g_source_remove);
  g_clear_object (&self->cancellable);

  gtk_widget_set_visible (self->progress_box, FALSE);
  gtk_widget_set_sensitive (self->profile_button, TRUE);
  set_status (self, message);
  if (ok)
    {
      reload_list (self);
      for (guint i = 0; i < self->paths->len; i++)
        if (g_str_equal (g_ptr_array_index (self->paths, i), output))
          ws_profiles_page_select (self, i);
    }
  g_signal_emit (self, signals[PROFILE_FINISHED], 0, ok);
}

/* What the worker thread needs, copied: the page is not touched there. */
typedef struct {
  char *program; /* as chosen: a program or a .cu file */
  GStrv args;    /* its arguments */
  char *output;  /* the trace to write */
  GStrv tools;
  char *db_path;
  char *build_dir; /* where a .cu file is built; removed at the end */
  gboolean ok;     /* the outcome, for the main thread */
  char *message;
} ProfileJob;

static void
profile_job_free (ProfileJob *job)
{
  if (job->build_dir != NULL)
    {
      g_autoptr (GDir) dir = g_dir_open (job->build_dir, 0, NULL);
      const char *name;

      while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
        {
          g_autofree char *path = g_build_filename (job->build_dir, name, NULL);
          g_unlink (path);
        }
      g_rmdir (job->build_dir);
    }
  g_free (job->program);
  g_strfreev (job->args);
  g_free (job->output);
  g_strfreev (job->tools);
  g_free (job->db_path);
  g_free (job->build_dir);
  g_free (job->message);
  g_free (job);
}

/* The last line of @text (the one that says what went wrong), or "". */
static char *
last_line (const char *text)
{
  g_autofree char *copy = g_strstrip (g_strdup (text != NULL ? text : ""));
  const char *nl = strrchr (copy, '\n');

  return g_strdup (nl != NULL ? nl + 1 : copy);
}

/* The tools' results (TRACE.NAME.json) are kept in the workspace too, as
 * `warpscope-cli profile` keeps them (table tool_result). */
static char *
store_tool_results (ProfileJob *job, const char *program)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WsStore) store = NULL;

  if (job->db_path == NULL || job->tools == NULL || job->tools[0] == NULL)
    return NULL;
  store = ws_store_open (job->db_path, &error);
  for (guint i = 0; store != NULL && job->tools[i] != NULL; i++)
    {
      g_autofree char *path = g_strdup_printf ("%s.%s.json", job->output, job->tools[i]);
      g_autoptr (JsonParser) parser = json_parser_new ();

      if (!json_parser_load_from_file (parser, path, &error)
          || !ws_instrument_store_result (ws_store_get_db (store), job->tools[i], NULL, program,
                                          (const char *const *) job->args, job->output, json_parser_get_root (parser),
                                          &error))
        break;
    }
  return error != NULL ? g_strdup_printf (_ ("The tool results were not kept in the workspace: %s"), error->message)
                       : NULL;
}

/* In the worker thread: build (for a .cu file), then run on the emulator;
 * the outcome goes into @job. */
static void
profile_job_run (ProfileJob *job, GCancellable *cancellable)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *program = NULL, *joined_tools = NULL, *stored = NULL;
  g_autoptr (WsLaunchResult) run = NULL;
  g_autofree char *base = g_path_get_basename (job->output);
  WsLaunchOptions options;
  JsonObject *summary;

  if (g_str_has_suffix (job->program, ".cu"))
    {
      /* The profiler needs the shared CUDA runtime to interpose on. */
      const char *build_args[] = { job->program, NULL };
      g_autofree char *out = NULL;
      WsBuildOptions build = { .args = build_args, .capture = TRUE };

      job->build_dir = g_dir_make_tmp ("warpscope-gui-profile-XXXXXX", &error);
      if (job->build_dir != NULL)
        {
          out = g_build_filename (job->build_dir, "program", NULL);
          build.output = out;
          program = ws_launch_build (&build, NULL, cancellable, &error);
        }
      if (program == NULL)
        {
          job->message = g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED)
                           ? g_strdup (_ ("Profiling cancelled."))
                           : g_strdup_printf (_ ("Building the program with nvcc failed: %s"), error->message);
          return;
        }
    }
  else
    program = strchr (job->program, '/') != NULL ? g_strdup (job->program) : g_find_program_in_path (job->program);

  if (program == NULL || !g_file_test (program, G_FILE_TEST_IS_REGULAR))
    {
      job->message = g_strdup_printf (_ ("Profiling failed: program “%s” not found."), job->program);
      return;
    }
  if (!g_file_test (program, G_FILE_TEST_IS_EXECUTABLE))
    {
      job->message = g_strdup_printf (_ ("Profiling failed: “%s” is not executable."), program);
      return;
    }
  if (!ws_launch_check_program (program, &error))
    {
      job->message = g_strdup_printf (_ ("Profiling failed: %s"), error->message);
      return;
    }

  ws_launch_options_init (&options);
  options.capture = TRUE;    /* the window has no terminal: keep stderr for the message */
  options.db = job->db_path; /* the same GPU catalogue as the window */
  if (job->tools != NULL && job->tools[0] != NULL)
    {
      joined_tools = g_strjoinv (",", job->tools);
      options.tools = joined_tools;
      options.tool_output = job->output; /* TRACE.NAME.json, where the page looks for them */
    }
  run = ws_launch_profile (program, (const char *const *) job->args, &options, job->output, cancellable, &error);
  if (run == NULL)
    {
      job->message = g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED)
                       ? g_strdup (_ ("Profiling cancelled."))
                       : g_strdup_printf (_ ("Profiling failed: %s"), error->message);
      return;
    }
  summary = run->summary != NULL && JSON_NODE_HOLDS_OBJECT (run->summary) ? json_node_get_object (run->summary) : NULL;
  if (!run->trace_kept)
    {
      g_autofree char *why = last_line (run->stderr_tail);

      if (run->signal != 0)
        job->message = g_strdup_printf (_ ("Profiling failed: the program was killed by signal %d (%s)."), run->signal,
                                        g_strsignal (run->signal));
      else if (summary == NULL)
        job->message = g_strdup_printf (_ ("Profiling failed: the program did not load the Warpscope CUDA runtime "
                                           "(exit code %d)%s%s"),
                                        run->exit_code, why[0] != '\0' ? ": " : ".", why);
      else
        job->message = g_strdup_printf (_ ("Profiling failed: %s"), why[0] != '\0' ? why : _ ("no trace was written"));
      return;
    }

  stored = store_tool_results (job, program);
  job->ok = TRUE;
  if (run->exit_code != 0)
    job->message = g_strdup_printf (_ ("Profiled into %s; the program exited with code %d."), base, run->exit_code);
  else
    job->message = g_strdup_printf (_ ("Profiled into %s: %" PRId64 " launches, %" PRId64 " warp instructions."), base,
                                    member_int (summary, "launches"), member_int (summary, "warp_instructions"));
  if (stored != NULL)
    {
      char *both = g_strconcat (job->message, " ", stored, NULL);

      g_free (job->message);
      job->message = both;
    }
}

static void
profile_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  profile_job_run (task_data, cancellable);
  g_task_return_boolean (task, TRUE); /* the outcome is in the job */
}

static void
on_profile_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  WsProfilesPage *self = WS_PROFILES_PAGE (source);
  ProfileJob *job = g_task_get_task_data (G_TASK (result));

  g_task_propagate_boolean (G_TASK (result), NULL);

  /* A failed or cancelled run left no partial trace (ws_launch_profile). */
  if (!self->disposed)
    finish_run (self, job->ok, job->message);
}

static char *
unused_trace_path (const char *folder, const char *program)
{
  g_autofree char *base = g_path_get_basename (program);
  char *dot = strrchr (base, '.');
  char *path;

  if (dot != NULL && dot != base)
    *dot = '\0';
  path = g_strdup_printf ("%s/%s.wstrace", folder, base);
  for (guint n = 2; g_file_test (path, G_FILE_TEST_EXISTS); n++)
    {
      g_free (path);
      path = g_strdup_printf ("%s/%s-%u.wstrace", folder, base, n);
    }
  return path;
}

gboolean
ws_profiles_page_profile (WsProfilesPage *self, const char *program, const char *const *args)
{
  g_autoptr (GTask) task = NULL;
  ProfileJob *job;

  g_return_val_if_fail (WS_IS_PROFILES_PAGE (self), FALSE);
  g_return_val_if_fail (program != NULL, FALSE);

  if (self->cancellable != NULL)
    return FALSE;
  if (self->folder == NULL || g_mkdir_with_parents (self->folder, 0755) != 0)
    {
      set_status (self, _ ("There is no trace folder to profile into: open a workspace first."));
      g_signal_emit (self, signals[PROFILE_FINISHED], 0, FALSE);
      return TRUE;
    }

  job = g_new0 (ProfileJob, 1);
  job->program = g_strdup (program);
  job->args = g_strdupv ((char **) args);
  job->output = unused_trace_path (self->folder, program);
  job->tools = g_strdupv (self->tools);
  job->db_path = g_strdup (self->db_path);
  self->run_output = g_strdup (job->output);
  self->cancellable = g_cancellable_new ();

  gtk_widget_set_sensitive (self->profile_button, FALSE);
  gtk_widget_set_visible (self->progress_box, TRUE);
  set_status (self, "");
  gtk_progress_bar_set_text (self->progress, g_str_has_suffix (program, ".cu")
                                               ? _ ("Building with nvcc and running on the PTX emulator…")
                                               : _ ("Running on the PTX emulator…"));
  self->pulse_id = g_timeout_add (120, pulse_cb, self);

  task = g_task_new (self, self->cancellable, on_profile_done, NULL);
  g_task_set_source_tag (task, ws_profiles_page_profile);
  g_task_set_task_data (task, job, (GDestroyNotify) profile_job_free);
  g_task_run_in_thread (task, profile_thread);
  return TRUE;
}

gboolean
ws_profiles_page_is_running (WsProfilesPage *self)
{
  g_return_val_if_fail (WS_IS_PROFILES_PAGE (self), FALSE);
  return self->cancellable != NULL;
}

void
ws_profiles_page_cancel (WsProfilesPage *self)
{
  g_return_if_fail (WS_IS_PROFILES_PAGE (self));
  if (self->cancellable == NULL)
    return;
  /* core/launch kills the program (or nvcc) and waits for it. */
  g_cancellable_cancel (self->cancellable);
}

void
ws_profiles_page_set_tools (WsProfilesPage *self, const char *const *tools)
{
  g_return_if_fail (WS_IS_PROFILES_PAGE (self));
  g_strfreev (self->tools);
  self->tools = g_strdupv ((char **) tools);
}

const char *
ws_profiles_page_get_status (WsProfilesPage *self)
{
  g_return_val_if_fail (WS_IS_PROFILES_PAGE (self), NULL);
  return self->status != NULL ? self->status : "";
}

/* The program chooser, then its arguments. */
static void
on_args_response (AdwMessageDialog *dialog, const char *response, gpointer user_data)
{
  g_autoptr (WsProfilesPage) self = user_data;
  GtkEditable *entry = g_object_get_data (G_OBJECT (dialog), "ws-args-entry");
  const char *program = g_object_get_data (G_OBJECT (dialog), "ws-program");
  g_auto (GStrv) args = NULL;
  g_autoptr (GError) error = NULL;
  const char *text;

  if (!g_str_equal (response, "profile"))
    return;
  {
    g_autoptr (GStrvBuilder) tools = g_strv_builder_new ();
    for (guint t = 0; t < G_N_ELEMENTS (tool_names); t++)
      {
        g_autofree char *key = g_strdup_printf ("ws-tool-%s", tool_names[t]);
        if (gtk_check_button_get_active (g_object_get_data (G_OBJECT (dialog), key)))
          g_strv_builder_add (tools, tool_names[t]);
      }
    g_strfreev (self->tools);
    self->tools = g_strv_builder_end (tools);
  }
  text = gtk_editable_get_text (entry);
  if (text[0] != '\0' && !g_shell_parse_argv (text, NULL, &args, &error))
    {
      g_autofree char *message = g_strdup_printf (_ ("The arguments cannot be read: %s"), error->message);
      set_status (self, message);
      return;
    }
  ws_profiles_page_profile (self, program, (const char *const *) args);
}

static void
on_program_chosen (GtkNativeDialog *native, int response, gpointer user_data)
{
  g_autoptr (WsProfilesPage) self = user_data;
  g_autoptr (GFile) file = NULL;
  g_autofree char *path = NULL;
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  GtkWidget *dialog, *entry;

  if (response == GTK_RESPONSE_ACCEPT)
    file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (native));
  g_object_unref (native);
  if (file == NULL || (path = g_file_get_path (file)) == NULL)
    return;

  dialog = adw_message_dialog_new (GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL, _ ("Profile a CUDA Program"), NULL);
  adw_message_dialog_format_body (ADW_MESSAGE_DIALOG (dialog), _ ("Arguments for %s (as in a shell):"), path);
  entry = gtk_entry_new ();
  gtk_entry_set_activates_default (GTK_ENTRY (entry), TRUE);
  {
    GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
    static const char *const labels[] = { N_ ("Branch divergence"), N_ ("Memory divergence"), N_ ("Value profile") };

    gtk_box_append (GTK_BOX (box), entry);
    for (guint t = 0; t < G_N_ELEMENTS (tool_names); t++)
      {
        GtkWidget *check = gtk_check_button_new_with_label (_ (labels[t]));
        g_autofree char *key = g_strdup_printf ("ws-tool-%s", tool_names[t]);

        gtk_check_button_set_active (GTK_CHECK_BUTTON (check),
                                     self->tools == NULL
                                       || g_strv_contains ((const char *const *) self->tools, tool_names[t]));
        g_object_set_data (G_OBJECT (dialog), key, check);
        gtk_box_append (GTK_BOX (box), check);
      }
    adw_message_dialog_set_extra_child (ADW_MESSAGE_DIALOG (dialog), box);
  }
  adw_message_dialog_add_responses (ADW_MESSAGE_DIALOG (dialog), "cancel", _ ("_Cancel"), "profile", _ ("_Profile"),
                                    NULL);
  adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (dialog), "profile", ADW_RESPONSE_SUGGESTED);
  adw_message_dialog_set_default_response (ADW_MESSAGE_DIALOG (dialog), "profile");
  g_object_set_data (G_OBJECT (dialog), "ws-args-entry", entry);
  g_object_set_data_full (G_OBJECT (dialog), "ws-program", g_steal_pointer (&path), g_free);
  g_signal_connect (dialog, "response", G_CALLBACK (on_args_response), g_object_ref (self));
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
profile_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  WsProfilesPage *self = WS_PROFILES_PAGE (widget);
  GtkRoot *root = gtk_widget_get_root (widget);
  GtkFileChooserNative *native = gtk_file_chooser_native_new (
    _ ("Choose a CUDA Program or .cu File"), GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
    GTK_FILE_CHOOSER_ACTION_OPEN, _ ("_Choose"), _ ("_Cancel"));

  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (native), TRUE);
  g_signal_connect (native, "response", G_CALLBACK (on_program_chosen), g_object_ref (self));
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (native));
}

static void
cancel_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  ws_profiles_page_cancel (WS_PROFILES_PAGE (widget));
}

/* ---- public ------------------------------------------------------------- */

void
ws_profiles_page_set_folder (WsProfilesPage *self, const char *folder)
{
  g_return_if_fail (WS_IS_PROFILES_PAGE (self));
  g_free (self->folder);
  self->folder = g_strdup (folder);
  clear_details (self);
  g_clear_pointer (&self->selected, g_free);
  reload_list (self);
}

void
ws_profiles_page_load (WsProfilesPage *self, WsStore *store)
{
  g_autofree char *folder = NULL;

  g_return_if_fail (WS_IS_PROFILES_PAGE (self));
  g_clear_pointer (&self->db_path, g_free);
  if (store != NULL)
    {
      folder = ws_system_store_trace_dir (store);
      self->db_path = g_strdup (ws_store_get_path (store));
    }
  ws_profiles_page_set_folder (self, folder);
}

const char *
ws_profiles_page_get_folder (WsProfilesPage *self)
{
  return self->folder;
}

guint
ws_profiles_page_get_n_traces (WsProfilesPage *self)
{
  return self->paths->len;
}

const char *
ws_profiles_page_get_selected_path (WsProfilesPage *self)
{
  return self->selected;
}

guint
ws_profiles_page_get_n_kernel_rows (WsProfilesPage *self)
{
  return self->n_kernel_rows;
}

guint
ws_profiles_page_get_n_launch_rows (WsProfilesPage *self)
{
  return self->n_launch_rows;
}

WsChartView *
ws_profiles_page_get_branch_chart (WsProfilesPage *self)
{
  return self->branch_chart;
}

WsChartView *
ws_profiles_page_get_memdiv_chart (WsProfilesPage *self)
{
  return self->memdiv_chart;
}

WsChartView *
ws_profiles_page_get_memdiv_pmf_chart (WsProfilesPage *self)
{
  return self->memdiv_pmf_chart;
}

guint
ws_profiles_page_get_n_value_rows (WsProfilesPage *self)
{
  return self->n_value_rows;
}

static void
ws_profiles_page_dispose (GObject *object)
{
  WsProfilesPage *self = WS_PROFILES_PAGE (object);

  if (self->cancellable != NULL)
    ws_profiles_page_cancel (self);
  self->disposed = TRUE;
  g_clear_handle_id (&self->pulse_id, g_source_remove);
  gtk_widget_dispose_template (GTK_WIDGET (self), WS_TYPE_PROFILES_PAGE);
  G_OBJECT_CLASS (ws_profiles_page_parent_class)->dispose (object);
}

static void
ws_profiles_page_finalize (GObject *object)
{
  WsProfilesPage *self = WS_PROFILES_PAGE (object);

  g_free (self->folder);
  g_free (self->selected);
  g_free (self->status);
  g_free (self->run_output);
  g_strfreev (self->tools);
  g_free (self->db_path);
  g_clear_object (&self->cancellable);
  g_ptr_array_unref (self->paths);
  g_ptr_array_unref (self->detail_rows);
  G_OBJECT_CLASS (ws_profiles_page_parent_class)->finalize (object);
}

static void
ws_profiles_page_class_init (WsProfilesPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = ws_profiles_page_dispose;
  object_class->finalize = ws_profiles_page_finalize;

  signals[PROFILE_FINISHED] = g_signal_new ("profile-finished", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL,
                                            NULL, NULL, G_TYPE_NONE, 1, G_TYPE_BOOLEAN);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/warpscope/Warpscope/ui/ws-profiles-page.ui");
  gtk_widget_class_bind_template_child (widget_class, WsProfilesPage, paned);
  gtk_widget_class_bind_template_child (widget_class, WsProfilesPage, trace_list);
  gtk_widget_class_bind_template_child (widget_class, WsProfilesPage, profile_button);
  gtk_widget_class_bind_template_child (widget_class, WsProfilesPage, progress_box);
  gtk_widget_class_bind_template_child (widget_class, WsProfilesPage, progress);
  gtk_widget_class_bind_template_child (widget_class, WsProfilesPage, cancel_button);
  gtk_widget_class_bind_template_child (widget_class, WsProfilesPage, status_label);
  gtk_widget_class_bind_template_child (widget_class, WsProfilesPage, detail_stack);
  gtk_widget_class_bind_template_child (widget_class, WsProfilesPage, kernels_group);
  gtk_widget_class_bind_template_child (widget_class, WsProfilesPage, launches_group);
  gtk_widget_class_bind_template_child (widget_class, WsProfilesPage, tools_group);
  gtk_widget_class_bind_template_callback (widget_class, on_row_selected);

  gtk_widget_class_install_action (widget_class, "profiles.profile", NULL, profile_action);
  gtk_widget_class_install_action (widget_class, "profiles.cancel", NULL, cancel_action);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
}

static void
ws_profiles_page_init (WsProfilesPage *self)
{
  g_type_ensure (WS_TYPE_CHART_VIEW);
  self->paths = g_ptr_array_new_with_free_func (g_free);
  self->detail_rows = g_ptr_array_new ();
  gtk_widget_init_template (GTK_WIDGET (self));
}

GtkWidget *
ws_profiles_page_new (void)
{
  return g_object_new (WS_TYPE_PROFILES_PAGE, NULL);
}
