/* test-gui.c: opens the real Warpscope window on a temporary, freshly
 * seeded store under Xvfb and checks what a user would see: the catalogue
 * rows, a GPU's parameters with units, search, navigation and the error
 * shown for a store that cannot be opened. */
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <adwaita.h>
#include <string.h>

#include "ws-config.h"
#include "ws-application.h"
#include "ws-window-private.h"
#include "ws-hardware-page-private.h"
#include "ws-hw-params.h"
#include "ws-systems-page-private.h"
#include "ws-app-editor-page.h"
#include "ws-profiles-page.h"
#include "ws-simulations-page.h"
#include "ws-results-page.h"
#include "system/ws-system.h"
#include "gui-test-util.h"

typedef struct {
  char *tmpdir;
  char *db_path;
  GPtrArray *gpus; /* expected catalogue, read through the store API */
  GPtrArray *cpus;
  GPtrArray *links;
  WsWindow *window;
} Fixture;

/* Iterates the main loop until @done(@data) holds or @ms pass; returns the
 * final value of the condition. */

static void
open_window (Fixture *f, const char *db_path)
{
  f->window = ws_window_new (NULL, db_path);
  gtk_window_present (GTK_WINDOW (f->window));
  g_assert_true (iterate_until (is_mapped, f->window, 10000));
  drain ();
}

static void
fixture_setup (Fixture *f, gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WsStore) store = NULL;

  if (!have_display)
    return;

  f->tmpdir = g_dir_make_tmp ("ws-test-gui-XXXXXX", &error);
  g_assert_no_error (error);
  f->db_path = g_build_filename (f->tmpdir, "catalogue.db", NULL);

  /* Create and seed the store the way a first start does, and keep what the
   * store API says is in it as the expected catalogue. */
  store = ws_store_open (f->db_path, &error);
  g_assert_no_error (error);
  f->gpus = ws_store_list_gpus (store, &error);
  g_assert_no_error (error);
  f->cpus = ws_store_list_cpus (store, &error);
  g_assert_no_error (error);
  f->links = ws_store_list_links (store, &error);
  g_assert_no_error (error);
  g_clear_pointer (&store, ws_store_close);

  if (data == NULL)
    open_window (f, f->db_path);
}

static void
fixture_teardown (Fixture *f, gconstpointer data)
{
  if (!have_display)
    return;

  if (f->window != NULL)
    {
      gtk_window_destroy (GTK_WINDOW (f->window));
      drain ();
    }
  g_clear_pointer (&f->gpus, g_ptr_array_unref);
  g_clear_pointer (&f->cpus, g_ptr_array_unref);
  g_clear_pointer (&f->links, g_ptr_array_unref);
  remove_tree (f->tmpdir);
  g_clear_pointer (&f->db_path, g_free);
  g_clear_pointer (&f->tmpdir, g_free);
}

/* Titles of the catalogue rows currently listed, in order. */
static GPtrArray *
listed_names (Fixture *f)
{
  GtkListBox *list = ws_hardware_page_get_list_box (ws_window_get_hardware_page (f->window));
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);
  GtkListBoxRow *row;

  for (int i = 0; (row = gtk_list_box_get_row_at_index (list, i)) != NULL; i++)
    {
      g_assert_true (ADW_IS_ACTION_ROW (row));
      g_assert_true (gtk_widget_get_child_visible (GTK_WIDGET (row)));
      g_ptr_array_add (names, g_strdup (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (row))));
    }
  return names;
}

static gboolean
names_contain (GPtrArray *names, const char *name)
{
  for (guint i = 0; i < names->len; i++)
    if (g_str_equal (g_ptr_array_index (names, i), name))
      return TRUE;
  return FALSE;
}

static GtkListBoxRow *
find_row (Fixture *f, const char *name)
{
  GtkListBox *list = ws_hardware_page_get_list_box (ws_window_get_hardware_page (f->window));
  GtkListBoxRow *row;

  for (int i = 0; (row = gtk_list_box_get_row_at_index (list, i)) != NULL; i++)
    if (g_str_equal (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (row)), name))
      return row;
  return NULL;
}

static const WsGpu *
expected_gpu (Fixture *f, const char *name)
{
  for (guint i = 0; i < f->gpus->len; i++)
    {
      const WsGpu *gpu = g_ptr_array_index (f->gpus, i);
      if (g_str_equal (gpu->name, name))
        return gpu;
    }
  g_assert_not_reached ();
}

static GtkWidget *
find_descendant (GtkWidget *widget, gboolean (*match) (GtkWidget *, gconstpointer), gconstpointer data)
{
  if (match (widget, data))
    return widget;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child; child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_descendant (child, match, data);
      if (found)
        return found;
    }
  return NULL;
}

static gboolean
is_param_row (GtkWidget *widget, gconstpointer id)
{
  return ADW_IS_ACTION_ROW (widget) && g_str_equal (gtk_widget_get_name (widget), id);
}

static gboolean
is_value_label (GtkWidget *widget, gconstpointer unused)
{
  return GTK_IS_LABEL (widget) && gtk_widget_has_css_class (widget, "ws-param-value");
}

/* The value text shown in the parameter row @id of the details pane. */
static const char *
shown_value (Fixture *f, const char *id)
{
  GtkWidget *groups = ws_hardware_page_get_groups_box (ws_window_get_hardware_page (f->window));
  GtkWidget *row = find_descendant (groups, is_param_row, id);
  GtkWidget *label;

  g_assert_nonnull (row);
  g_assert_true (gtk_widget_is_drawable (row));
  label = find_descendant (row, is_value_label, NULL);
  g_assert_nonnull (label);
  return gtk_label_get_text (GTK_LABEL (label));
}

static void
test_lists_catalogue (Fixture *f, gconstpointer data)
{
  g_autoptr (GPtrArray) names = NULL;
  GtkListBoxRow *row;
  GtkWidget *header;
  guint gpu_rows = 0;

  SKIP_WITHOUT_DISPLAY ();

  g_assert_cmpstr (ws_hardware_page_get_state (ws_window_get_hardware_page (f->window)), ==, "catalogue");
  g_assert_cmpuint (f->gpus->len, >=, 14);

  names = listed_names (f);
  g_assert_cmpuint (names->len, ==, f->gpus->len + f->cpus->len + f->links->len);
  for (guint i = 0; i < f->gpus->len; i++)
    {
      const WsGpu *gpu = g_ptr_array_index (f->gpus, i);
      gpu_rows += names_contain (names, gpu->name);
    }
  g_assert_cmpuint (gpu_rows, ==, f->gpus->len);
  g_assert_true (names_contain (names, "GTX 970"));
  for (guint i = 0; i < f->links->len; i++)
    g_assert_true (names_contain (names, ((WsLink *) g_ptr_array_index (f->links, i))->name));
  for (guint i = 0; i < f->cpus->len; i++)
    g_assert_true (names_contain (names, ((WsCpu *) g_ptr_array_index (f->cpus, i))->name));

  /* GPUs come first, grouped under a header per architecture. */
  row = gtk_list_box_get_row_at_index (ws_hardware_page_get_list_box (ws_window_get_hardware_page (f->window)), 0);
  header = gtk_list_box_row_get_header (row);
  g_assert_nonnull (header);
  g_assert_true (g_str_has_prefix (gtk_label_get_text (GTK_LABEL (header)), "GPUs · "));

  /* The first Maxwell row carries the "GPUs · Maxwell" header. */
  row = find_row (f, "GTX 970");
  g_assert_nonnull (row);
  for (int i = gtk_list_box_row_get_index (row); i >= 0; i--)
    {
      GtkListBoxRow *r = gtk_list_box_get_row_at_index (
        ws_hardware_page_get_list_box (ws_window_get_hardware_page (f->window)), i);
      if ((header = gtk_list_box_row_get_header (r)) != NULL)
        break;
    }
  g_assert_nonnull (header);
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (header)), ==, "GPUs · Maxwell");
  g_assert_cmpstr (adw_action_row_get_subtitle (ADW_ACTION_ROW (row)), ==, "Maxwell · compute capability 5.2 · 13 SMs");
}

static void
test_shows_gpu_parameters (Fixture *f, gconstpointer data)
{
  WsHardwarePage *page;
  GtkListBoxRow *row;
  const WsGpu *gpu;
  g_autofree char *l2 = NULL;
  g_autofree char *smem = NULL;

  SKIP_WITHOUT_DISPLAY ();

  page = ws_window_get_hardware_page (f->window);
  row = find_row (f, "GTX 970");
  g_assert_nonnull (row);
  /* What a click does: select the row; the details pane follows. */
  gtk_list_box_select_row (ws_hardware_page_get_list_box (page), row);
  drain ();

  g_assert_cmpstr (gtk_label_get_text (ws_hardware_page_get_title_label (page)), ==, "GTX 970");
  /* Seed 004, Table 6.1. */
  g_assert_cmpstr (shown_value (f, "sms"), ==, "13");
  g_assert_cmpstr (shown_value (f, "core_clock_mhz"), ==, "1253 MHz");
  g_assert_cmpstr (shown_value (f, "compute_capability"), ==, "5.2");
  g_assert_cmpstr (shown_value (f, "cuda_cores_per_sm"), ==, "128");
  g_assert_cmpstr (shown_value (f, "warp_schedulers_per_sm"), ==, "4");
  g_assert_cmpstr (shown_value (f, "dram_clock_mhz"), ==, "1753 MHz");
  g_assert_cmpstr (shown_value (f, "dram_bus_width_bits"), ==, "256 bits");
  g_assert_cmpstr (shown_value (f, "dram_data_rate"), ==, "4 transfers/clock");
  g_assert_cmpstr (shown_value (f, "architecture"), ==, "Maxwell");

  /* Sizes are shown in binary units from the stored byte counts. */
  gpu = expected_gpu (f, "GTX 970");
  l2 = ws_hw_format_bytes (gpu->l2_size);
  g_assert_cmpstr (shown_value (f, "l2_size"), ==, l2);
  g_assert_true (g_str_has_suffix (shown_value (f, "l2_size"), " KiB")
                 || g_str_has_suffix (shown_value (f, "l2_size"), " MiB"));
  smem = ws_hw_format_bytes (gpu->shared_per_sm);
  g_assert_cmpstr (shown_value (f, "shared_per_sm"), ==, smem);
  g_assert_true (g_str_has_suffix (shown_value (f, "l1_latency"), " cycles"));
  g_assert_true (g_str_has_suffix (shown_value (f, "dram_bandwidth_gbs"), " GB/s"));
  g_assert_true (g_str_has_suffix (shown_value (f, "tdp_watts"), " W"));
  g_assert_true (g_str_has_prefix (shown_value (f, "pipes.fp32"), "latency "));

  /* Selecting a link shows the per-direction transfer parameters instead. */
  {
    const WsLink *link = g_ptr_array_index (f->links, 0);
    g_autofree char *number = ws_hw_format_number (link->h2d_bandwidth_gbs, 2);
    g_autofree char *bw = g_strdup_printf ("%s GB/s", number);

    row = find_row (f, link->name);
    g_assert_nonnull (row);
    /* A plain click: the list allows Ctrl+click multiple selection. */
    gtk_list_box_unselect_all (ws_hardware_page_get_list_box (page));
    gtk_list_box_select_row (ws_hardware_page_get_list_box (page), row);
    drain ();
    g_assert_cmpstr (gtk_label_get_text (ws_hardware_page_get_title_label (page)), ==, link->name);
    g_assert_cmpstr (shown_value (f, "h2d_bandwidth_gbs"), ==, bw);
    g_assert_true (g_str_has_suffix (shown_value (f, "d2h_startup_us"), " µs"));
  }
}

/* ---- rows generated from core's field tables -------------------------- */

static WsHwItem *
item_from_catalogue (const char *rel)
{
  g_autofree char *path = g_build_filename (g_getenv ("WS_SOURCE_DIR"), rel, NULL);
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;
  WsHwKind kind;
  JsonNode *root;

  g_assert_true (json_parser_load_from_file (parser, path, &error));
  g_assert_no_error (error);
  root = json_parser_get_root (parser);
  g_assert_true (ws_hw_json_get_kind (root, &kind, &error));
  switch (kind)
    {
    case WS_HW_GPU: return ws_hw_item_new_gpu (ws_gpu_from_json (root, &error));
    case WS_HW_CPU: return ws_hw_item_new_cpu (ws_cpu_from_json (root, &error));
    case WS_HW_LINK: return ws_hw_item_new_link (ws_link_from_json (root, &error));
    default: g_assert_not_reached ();
    }
}

/* The parameter @id in @groups, asserting it occurs exactly once; sets
 * *group_title to the title of its group. */
static WsHwParam *
param_once (GPtrArray *groups, const char *id, const char **group_title)
{
  WsHwParam *found = NULL;

  for (guint i = 0; i < groups->len; i++)
    {
      WsHwParamGroup *group = groups->pdata[i];
      for (guint j = 0; j < group->params->len; j++)
        {
          WsHwParam *param = group->params->pdata[j];
          if (!g_str_equal (param->id, id))
            continue;
          if (found != NULL)
            g_error ("parameter '%s' is listed twice", id);
          found = param;
          *group_title = group->title;
        }
    }
  if (found == NULL)
    g_error ("parameter '%s' of core's table is not listed", id);
  return found;
}

/* Every field of core's table (ws_hw_fields) appears exactly once, keyed by
 * its JSON key, with core's label and in core's group; every derived row
 * likewise; nothing else but the pipelines is listed. */
static void
test_params_from_core_table (void)
{
  static const char *const records[] = {
    "db/catalogue/gpu/gtx-970.json",
    "db/catalogue/cpu/epyc-9654.json",
    "db/catalogue/link/pcie2-x4-gtx-titan-x.json",
  };

  for (guint r = 0; r < G_N_ELEMENTS (records); r++)
    {
      g_autoptr (WsHwItem) item = item_from_catalogue (records[r]);
      WsHwKind kind = ws_hw_item_get_kind (item);
      g_autoptr (GPtrArray) groups = ws_hw_params_for_item (item);
      guint n_fields, n_derived, listed = 0, expected = 0;
      const WsHwField *fields = ws_hw_fields (kind, &n_fields);
      const WsHwDerived *derived = ws_hw_derived (kind, &n_derived);

      for (guint i = 0; i < n_fields; i++)
        {
          const char *title = NULL;
          WsHwParam *param;

          if (fields[i].format == WS_HW_FORMAT_PARAGRAPH)
            {
              /* Shown by the page under its own heading, not as a row. */
              g_assert_null (ws_hw_params_lookup (groups, fields[i].name));
              continue;
            }
          param = param_once (groups, fields[i].name, &title);
          g_assert_cmpstr (param->label, ==, ws_hw_text (fields[i].label));
          g_assert_cmpstr (title, ==, ws_hw_text (fields[i].group));
          g_assert_cmpstr (param->help, ==, ws_hw_text (fields[i].help));
          expected++;
        }
      for (guint i = 0; i < n_derived; i++)
        {
          const char *title = NULL;
          WsHwParam *param = param_once (groups, derived[i].name, &title);

          g_assert_cmpstr (param->label, ==, ws_hw_text (derived[i].label));
          g_assert_cmpstr (title, ==, ws_hw_text (ws_hw_derived_group ()));
          expected++;
        }
      if (kind == WS_HW_GPU)
        expected += WS_ICLASS_COUNT;
      for (guint i = 0; i < groups->len; i++)
        listed += ((WsHwParamGroup *) groups->pdata[i])->params->len;
      g_assert_cmpuint (listed, ==, expected);
    }

  /* The catalogue's newest field reaches the page with no code of its own:
   * GM204's die per the GTX 980 whitepaper; unknown where no figure exists. */
  {
    g_autoptr (WsHwItem) gm204 = item_from_catalogue ("db/catalogue/gpu/gtx-970.json");
    g_autoptr (WsHwItem) gm200 = item_from_catalogue ("db/catalogue/gpu/gtx-titan-x.json");
    g_autoptr (GPtrArray) a = ws_hw_params_for_item (gm204);
    g_autoptr (GPtrArray) b = ws_hw_params_for_item (gm200);

    g_assert_cmpstr (ws_hw_params_lookup (a, "die_area_mm2"), ==, "398 mm²");
    g_assert_cmpstr (ws_hw_params_lookup (b, "die_area_mm2"), ==, "unknown");
  }
}

static gboolean
is_action_row_named (GtkWidget *widget, gconstpointer id)
{
  return ADW_IS_ACTION_ROW (widget) && g_str_equal (gtk_widget_get_name (widget), id);
}

static guint
count_descendants (GtkWidget *widget, gboolean (*match) (GtkWidget *, gconstpointer), gconstpointer data)
{
  guint n = match (widget, data) ? 1 : 0;

  for (GtkWidget *child = gtk_widget_get_first_child (widget); child; child = gtk_widget_get_next_sibling (child))
    n += count_descendants (child, match, data);
  return n;
}

/* The window's details pane and editor show one row per field of core's
 * table, titled with core's label. */
static void
test_page_rows_from_core_table (Fixture *f, gconstpointer data)
{
  WsHardwarePage *page;
  GtkWidget *groups, *editor;
  guint n_fields, n_derived;
  const WsHwField *fields = ws_hw_fields (WS_HW_GPU, &n_fields);
  const WsHwDerived *derived = ws_hw_derived (WS_HW_GPU, &n_derived);

  SKIP_WITHOUT_DISPLAY ();

  page = ws_window_get_hardware_page (f->window);
  g_assert_true (ws_hardware_page_select (page, "GTX 970"));
  drain ();
  groups = ws_hardware_page_get_groups_box (page);
  editor = ws_hardware_page_get_editor_box (page);
  for (guint i = 0; i < n_fields; i++)
    {
      GtkWidget *row = find_descendant (editor, is_action_row_named, fields[i].name);

      /* The editor offers every field, the sources included. */
      g_assert_cmpuint (count_descendants (editor, is_action_row_named, fields[i].name), ==, 1);
      g_assert_cmpstr (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (row)), ==, ws_hw_text (fields[i].label));
      if (fields[i].format == WS_HW_FORMAT_PARAGRAPH)
        continue;
      g_assert_cmpuint (count_descendants (groups, is_action_row_named, fields[i].name), ==, 1);
      row = find_descendant (groups, is_action_row_named, fields[i].name);
      g_assert_cmpstr (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (row)), ==, ws_hw_text (fields[i].label));
    }
  for (guint i = 0; i < n_derived; i++)
    g_assert_cmpuint (count_descendants (groups, is_action_row_named, derived[i].name), ==, 1);
  g_assert_cmpstr (shown_value (f, "die_area_mm2"), ==, "398 mm²");
  g_assert_cmpstr (shown_value (f, "peak_fp32_gflops"), ==, "4170 GFLOP/s");
}

typedef struct {
  Fixture *f;
  guint expected;
} CountWait;

static gboolean
row_count_is (gpointer data)
{
  CountWait *w = data;
  g_autoptr (GPtrArray) names = listed_names (w->f);
  return names->len == w->expected;
}

static void
search_for (Fixture *f, const char *text, guint expected)
{
  GtkEditable *entry = ws_hardware_page_get_search_entry (ws_window_get_hardware_page (f->window));
  CountWait w = { f, expected };

  gtk_editable_set_text (entry, text);
  /* GtkSearchEntry reports changes after a short delay; wait for the list. */
  if (!iterate_until (row_count_is, &w, 5000))
    {
      g_autoptr (GPtrArray) names = listed_names (f);
      g_test_message ("searching for '%s' listed %u rows, expected %u", text, names->len, expected);
      g_test_fail ();
    }
  drain ();
}

/* Catalogue entries whose name holds both words, case-insensitively. */
static guint
count_named (Fixture *f, const char *a, const char *b)
{
  GPtrArray *lists[] = { f->gpus, f->cpus, f->links };
  guint n = 0;

  for (guint l = 0; l < G_N_ELEMENTS (lists); l++)
    for (guint i = 0; i < lists[l]->len; i++)
      {
        /* Each record starts with its name. */
        g_autofree char *name = g_utf8_strdown (*(char **) g_ptr_array_index (lists[l], i), -1);
        n += strstr (name, a) != NULL && strstr (name, b) != NULL;
      }
  return n;
}

static void
test_search_filters (Fixture *f, gconstpointer data)
{
  g_autoptr (GPtrArray) names = NULL;
  guint maxwell = 0;

  SKIP_WITHOUT_DISPLAY ();

  for (guint i = 0; i < f->gpus->len; i++)
    maxwell += g_strcmp0 (((WsGpu *) g_ptr_array_index (f->gpus, i))->architecture, "Maxwell") == 0;
  g_assert_cmpuint (maxwell, >=, 2); /* GTX 970 and GTX TITAN X of seed 004 */

  /* By architecture, case-insensitively. */
  search_for (f, "maxWELL", maxwell);
  names = listed_names (f);
  g_assert_true (names_contain (names, "GTX 970"));
  for (guint i = 0; i < names->len; i++)
    g_assert_cmpstr (expected_gpu (f, g_ptr_array_index (names, i))->architecture, ==, "Maxwell");
  g_clear_pointer (&names, g_ptr_array_unref);

  /* By name: every word must occur; links named after the test bed match too. */
  search_for (f, "gtx 970", count_named (f, "gtx", "970"));
  names = listed_names (f);
  g_assert_true (names_contain (names, "GTX 970"));
  g_assert_cmpuint (names->len, <, 3);
  g_clear_pointer (&names, g_ptr_array_unref);

  /* Nothing matches: no rows (the placeholder says so). */
  search_for (f, "no such component", 0);

  /* Clearing brings everything back. */
  search_for (f, "", f->gpus->len + f->cpus->len + f->links->len);
}

static void
test_switches_pages (Fixture *f, gconstpointer data)
{
  GtkStack *stack;
  GtkListBox *sidebar;
  guint n = 0;

  SKIP_WITHOUT_DISPLAY ();

  stack = ws_window_get_stack (f->window);
  sidebar = ws_window_get_sidebar (f->window);
  g_assert_cmpstr (gtk_stack_get_visible_child_name (stack), ==, "hardware");

  /* Through the window action the Alt+N shortcuts use... */
  for (int i = 0; ws_window_page_names[i] != NULL; i++, n++)
    {
      GtkWidget *child;

      g_assert_true (
        gtk_widget_activate_action (GTK_WIDGET (f->window), "win.show-page", "s", ws_window_page_names[i]));
      drain ();
      g_assert_cmpstr (gtk_stack_get_visible_child_name (stack), ==, ws_window_page_names[i]);
      g_assert_cmpint (gtk_list_box_row_get_index (gtk_list_box_get_selected_row (sidebar)), ==, i);
      child = gtk_stack_get_visible_child (stack);
      g_assert_true (gtk_widget_get_mapped (child));
      if (i == 1)
        g_assert_true (WS_IS_SYSTEMS_PAGE (child));
      if (i == 3)
        g_assert_true (WS_IS_PROFILES_PAGE (child));
      if (i == 4)
        g_assert_true (WS_IS_SIMULATIONS_PAGE (child));
      if (i == 5)
        g_assert_true (WS_IS_RESULTS_PAGE (child));
      if (i == 2)
        g_assert_true (WS_IS_APP_EDITOR_PAGE (child));
      if (i == 6)
        g_assert_true (WS_IS_PLUGINS_PAGE (child));
    }
  g_assert_cmpuint (n, ==, 7);

  /* ...and through the sidebar, as a click does. */
  for (int i = 6; i >= 0; i--)
    {
      gtk_list_box_select_row (sidebar, gtk_list_box_get_row_at_index (sidebar, i));
      drain ();
      g_assert_cmpstr (gtk_stack_get_visible_child_name (stack), ==, ws_window_page_names[i]);
    }

  /* Ctrl+F goes back to the catalogue and focuses its search entry. */
  ws_window_show_page (f->window, "results");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->window), "win.search", NULL));
  drain ();
  g_assert_cmpstr (gtk_stack_get_visible_child_name (stack), ==, "hardware");
  g_assert_true (
    gtk_widget_is_ancestor (gtk_root_get_focus (GTK_ROOT (f->window)),
                            GTK_WIDGET (ws_hardware_page_get_search_entry (ws_window_get_hardware_page (f->window)))));
}

/* The template binds Alt+1..7, Ctrl+F and Ctrl+Q. */
static void
test_shortcuts_in_template (Fixture *f, gconstpointer data)
{
  g_autoptr (GListModel) controllers = NULL;
  g_autoptr (GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);

  SKIP_WITHOUT_DISPLAY ();

  controllers = gtk_widget_observe_controllers (GTK_WIDGET (f->window));
  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr (GObject) controller = g_list_model_get_item (controllers, i);

      if (!GTK_IS_SHORTCUT_CONTROLLER (controller))
        continue;
      for (guint j = 0; j < g_list_model_get_n_items (G_LIST_MODEL (controller)); j++)
        {
          g_autoptr (GtkShortcut) shortcut = g_list_model_get_item (G_LIST_MODEL (controller), j);
          GtkShortcutAction *action = gtk_shortcut_get_action (shortcut);
          GVariant *args = gtk_shortcut_get_arguments (shortcut);
          g_autofree char *action_text = gtk_shortcut_action_to_string (action);
          char *value;

          if (!GTK_IS_NAMED_ACTION (action))
            continue;
          value = args ? g_strdup_printf ("%s %s", action_text, g_variant_get_string (args, NULL))
                       : g_strdup (action_text);
          g_hash_table_insert (seen, gtk_shortcut_trigger_to_string (gtk_shortcut_get_trigger (shortcut)), value);
        }
    }

  for (int i = 0; ws_window_page_names[i] != NULL; i++)
    {
      g_autofree char *trigger = g_strdup_printf ("<Alt>%d", i + 1);
      g_autofree char *expected = g_strdup_printf ("action(win.show-page) %s", ws_window_page_names[i]);
      g_assert_cmpstr (g_hash_table_lookup (seen, trigger), ==, expected);
    }
  g_assert_cmpstr (g_hash_table_lookup (seen, "<Control>f"), ==, "action(win.search)");
  g_assert_cmpstr (g_hash_table_lookup (seen, "<Control>q"), ==, "action(app.quit)");
  g_assert_cmpstr (g_hash_table_lookup (seen, "<Control>z"), ==, "action(win.undo)");
  g_assert_cmpstr (g_hash_table_lookup (seen, "<Shift><Control>z"), ==, "action(win.redo)");
}

static void
test_store_error_shown (Fixture *f, gconstpointer data)
{
  g_autofree char *blocker = NULL;
  g_autofree char *bad_path = NULL;
  WsHardwarePage *page;
  const char *description;

  SKIP_WITHOUT_DISPLAY ();

  /* A regular file where the database's directory should be. */
  blocker = g_build_filename (f->tmpdir, "not-a-directory", NULL);
  g_assert_true (g_file_set_contents (blocker, "x", 1, NULL));
  bad_path = g_build_filename (blocker, "catalogue.db", NULL);

  open_window (f, bad_path);
  page = ws_window_get_hardware_page (f->window);
  g_assert_null (ws_window_get_store (f->window));
  g_assert_cmpstr (ws_hardware_page_get_state (page), ==, "error");
  description = adw_status_page_get_description (ws_hardware_page_get_error_page (page));
  g_assert_nonnull (description);
  g_assert_nonnull (strstr (description, "--db PATH"));
  g_assert_null (gtk_list_box_get_row_at_index (ws_hardware_page_get_list_box (page), 0));

  /* The rest of the window still works. */
  g_assert_true (ws_window_show_page (f->window, "profiles"));
  drain ();
  g_assert_cmpstr (gtk_stack_get_visible_child_name (ws_window_get_stack (f->window)), ==, "profiles");
}

typedef struct {
  char *db_path; /* what the window was opened on */
  gboolean store_opened;
  gboolean help_overlay;
  char *page_after_action; /* window actions still reach the window inside the app */
  char *about_version;     /* from the About window the menu item opens */
} AppRun;

static void
inspect_and_quit (GtkApplication *app, AppRun *run)
{
  GtkWindow *window = gtk_application_get_active_window (app);
  GListModel *toplevels;

  run->db_path = g_strdup (ws_window_get_db_path (WS_WINDOW (window)));
  run->store_opened = ws_window_get_store (WS_WINDOW (window)) != NULL;
  /* GtkApplication loads gtk/help-overlay.ui from the resources. */
  run->help_overlay = gtk_application_window_get_help_overlay (GTK_APPLICATION_WINDOW (window)) != NULL
                      && g_action_group_has_action (G_ACTION_GROUP (window), "show-help-overlay");
  gtk_widget_activate_action (GTK_WIDGET (window), "win.show-page", "s", "results");
  run->page_after_action = g_strdup (gtk_stack_get_visible_child_name (ws_window_get_stack (WS_WINDOW (window))));

  g_action_group_activate_action (G_ACTION_GROUP (app), "about", NULL);
  toplevels = gtk_window_get_toplevels ();
  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr (GObject) toplevel = g_list_model_get_item (toplevels, i);
      if (ADW_IS_ABOUT_WINDOW (toplevel))
        {
          run->about_version = g_strdup (adw_about_window_get_version (ADW_ABOUT_WINDOW (toplevel)));
          gtk_window_destroy (GTK_WINDOW (toplevel));
          break;
        }
    }

  /* Ctrl+Q's action: closes the windows and ends g_application_run(). */
  g_action_group_activate_action (G_ACTION_GROUP (app), "quit", NULL);
}

static gboolean
inspect_idle (gpointer data)
{
  gpointer *args = data;

  inspect_and_quit (args[0], args[1]);
  return G_SOURCE_REMOVE;
}

static void
on_window_added (GtkApplication *app, GtkWindow *window, gpointer args)
{
  /* Inspect once the command-line handler has presented the window. */
  g_idle_add (inspect_idle, args);
}

/* `warpscope --db PATH` opens its window on PATH, resolved against the
 * working directory, and the store is created there. */
static void
test_command_line_db (Fixture *f, gconstpointer data)
{
  g_autoptr (WsApplication) app = NULL;
  g_autofree char *cwd = g_get_current_dir ();
  g_autofree char *expected = NULL;
  char *argv[] = { "warpscope", "--db", "nested/opened.db", NULL };
  AppRun run = { 0 };
  gpointer args[2];
  int status;

  SKIP_WITHOUT_DISPLAY ();

  g_assert_cmpint (g_chdir (f->tmpdir), ==, 0);
  app = ws_application_new ();
  /* Not unique: the test must not hand its command line to a running Warpscope. */
  g_application_set_flags (G_APPLICATION (app), G_APPLICATION_HANDLES_COMMAND_LINE | G_APPLICATION_NON_UNIQUE);
  args[0] = app;
  args[1] = &run;
  g_signal_connect (app, "window-added", G_CALLBACK (on_window_added), args);
  status = g_application_run (G_APPLICATION (app), 3, argv);
  g_assert_cmpint (g_chdir (cwd), ==, 0);

  g_assert_cmpint (status, ==, 0);
  expected = g_build_filename (f->tmpdir, "nested", "opened.db", NULL);
  g_assert_cmpstr (run.db_path, ==, expected);
  g_assert_true (run.store_opened);
  g_assert_true (g_file_test (expected, G_FILE_TEST_IS_REGULAR));
  g_assert_true (run.help_overlay);
  g_assert_cmpstr (run.about_version, ==, WS_VERSION);
  g_assert_cmpstr (run.page_after_action, ==, "results");
  g_free (run.page_after_action);
  g_free (run.db_path);
  g_free (run.about_version);
}

/* Formatting needs no display. */
static void
test_format_units (void)
{
  struct {
    gint64 bytes;
    const char *text;
  } sizes[] = {
    { 1835008, "1.75 MiB" },
    { 6 * 1024 * 1024, "6 MiB" },
    { 49152, "48 KiB" },
    { 1024, "1 KiB" },
    { 128, "128 bytes" },
    { 1, "1 byte" },
    { 40 * 1024 * 1024 + 512 * 1024, "40.5 MiB" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (sizes); i++)
    {
      g_autofree char *text = ws_hw_format_bytes (sizes[i].bytes);
      g_assert_cmpstr (text, ==, sizes[i].text);
    }

  {
    g_autofree char *a = ws_hw_format_number (1253.0, 1);
    g_autofree char *b = ws_hw_format_number (13.78, 2);
    g_autofree char *c = ws_hw_format_number (0.5, 2);
    g_autofree char *d = ws_hw_format_number (100.0, 0);
    g_autofree char *e = ws_hw_format_number (0.0, 3);
    g_assert_cmpstr (a, ==, "1253");
    g_assert_cmpstr (b, ==, "13.78");
    g_assert_cmpstr (c, ==, "0.5");
    g_assert_cmpstr (d, ==, "100");
    g_assert_cmpstr (e, ==, "0");
  }
}

/* ---- editing the catalogue -------------------------------------------- */

static WsGpu *
stored_gpu (Fixture *f, const char *name)
{
  g_autoptr (WsStore) store = NULL;
  g_autoptr (GError) error = NULL;
  WsGpu *gpu;

  store = ws_store_open (f->db_path, &error);
  g_assert_no_error (error);
  gpu = ws_store_get_gpu (store, name, NULL);
  g_clear_pointer (&store, ws_store_close);
  return gpu;
}

static gboolean
store_has (Fixture *f, const char *name)
{
  g_autoptr (WsStore) store = ws_store_open (f->db_path, NULL);
  WsHwKind kind;
  gboolean found;

  g_assert_nonnull (store);
  found = ws_store_find_hw (store, name, &kind, NULL);
  g_clear_pointer (&store, ws_store_close);
  return found;
}

static void
select_only (Fixture *f, const char *name)
{
  WsHardwarePage *page = ws_window_get_hardware_page (f->window);

  g_assert_true (ws_hardware_page_select (page, name));
  drain ();
}

static gboolean
is_field_row (GtkWidget *widget, gconstpointer name)
{
  return ADW_IS_ACTION_ROW (widget) && gtk_widget_has_css_class (widget, "ws-field-row")
         && g_str_equal (gtk_widget_get_name (widget), name);
}

static gboolean
is_entry (GtkWidget *widget, gconstpointer unused)
{
  return GTK_IS_ENTRY (widget);
}

/* Types @text into the editor field @name and presses Enter. */
static GtkWidget *
type_field (Fixture *f, const char *name, const char *text)
{
  GtkWidget *box = ws_hardware_page_get_editor_box (ws_window_get_hardware_page (f->window));
  GtkWidget *row = find_descendant (box, is_field_row, name);
  GtkWidget *entry;

  g_assert_nonnull (row);
  entry = find_descendant (row, is_entry, NULL);
  g_assert_nonnull (entry);
  gtk_editable_set_text (GTK_EDITABLE (entry), text);
  g_signal_emit_by_name (entry, "activate");
  drain ();
  return row;
}

static void
undo (Fixture *f, gboolean redo)
{
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->window), redo ? "win.redo" : "win.undo", NULL));
  drain ();
}

static void
test_edit_field (Fixture *f, gconstpointer data)
{
  WsHardwarePage *page;
  g_autoptr (WsGpu) before = NULL;
  g_autoptr (WsGpu) after = NULL;
  g_autoptr (WsGpu) undone = NULL;
  g_autoptr (WsGpu) redone = NULL;
  g_autoptr (WsGpu) unchanged = NULL;
  g_autoptr (JsonNode) json = NULL;
  g_autoptr (GError) import_error = NULL;
  g_autoptr (WsGpu) rejected = NULL;
  GtkWidget *row;

  SKIP_WITHOUT_DISPLAY ();

  page = ws_window_get_hardware_page (f->window);
  before = stored_gpu (f, "GTX 970");
  g_assert_cmpfloat (before->core_clock_mhz, ==, 1253);
  select_only (f, "GTX 970");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "hardware.edit", NULL));
  drain ();
  g_assert_cmpstr (ws_hardware_page_get_detail_state (page), ==, "edit");

  /* A valid value is stored at once and shown in the overview. */
  row = type_field (f, "core_clock_mhz", "1300");
  after = stored_gpu (f, "GTX 970");
  g_assert_cmpfloat (after->core_clock_mhz, ==, 1300);
  g_assert_cmpint (after->sms, ==, 13);

  /* A wrong type is refused inline with the JSON import's own message. */
  json = ws_gpu_to_json (after);
  json_object_set_string_member (json_node_get_object (json), "sms", "thirteen");
  rejected = ws_gpu_from_json (json, &import_error);
  g_assert_null (rejected);
  g_assert_nonnull (import_error);
  row = type_field (f, "sms", "thirteen");
  g_assert_true (gtk_widget_has_css_class (row, "error"));
  g_assert_cmpstr (adw_action_row_get_subtitle (ADW_ACTION_ROW (row)), ==, import_error->message);
  g_assert_nonnull (strstr (adw_action_row_get_subtitle (ADW_ACTION_ROW (row)), "'sms'"));
  /* Out of range: refused, message names the field, the store keeps 13. */
  row = type_field (f, "sms", "-4");
  g_assert_true (gtk_widget_has_css_class (row, "error"));
  g_assert_nonnull (strstr (adw_action_row_get_subtitle (ADW_ACTION_ROW (row)), "'sms'"));
  unchanged = stored_gpu (f, "GTX 970");
  g_assert_cmpint (unchanged->sms, ==, 13);

  /* Ctrl+Z / Ctrl+Shift+Z walk the window's history. */
  undo (f, FALSE);
  undone = stored_gpu (f, "GTX 970");
  g_assert_cmpfloat (undone->core_clock_mhz, ==, 1253);
  g_assert_false (gtk_widget_activate_action (GTK_WIDGET (f->window), "win.undo", NULL)
                  && ws_undo_stack_can_undo (ws_window_get_undo_stack (f->window)));
  undo (f, TRUE);
  redone = stored_gpu (f, "GTX 970");
  g_assert_cmpfloat (redone->core_clock_mhz, ==, 1300);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "hardware.view", NULL));
  drain ();
  g_assert_cmpstr (shown_value (f, "core_clock_mhz"), ==, "1300 MHz");

  /* The catalogue's newest field is edited like any other: its row in
   * core's table is all the editor needs (a ',' decimal separator too). */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "hardware.edit", NULL));
  drain ();
  row = type_field (f, "die_area_mm2", "398,5");
  g_assert_false (gtk_widget_has_css_class (row, "error"));
  {
    g_autoptr (WsGpu) die = stored_gpu (f, "GTX 970");
    g_assert_cmpfloat (die->die_area_mm2, ==, 398.5);
  }
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "hardware.view", NULL));
  drain ();
  g_assert_cmpstr (shown_value (f, "die_area_mm2"), ==, "398.5 mm²");
}

static void
test_create_duplicate_delete (Fixture *f, gconstpointer data)
{
  WsHardwarePage *page;
  g_autoptr (WsGpu) copy = NULL;

  SKIP_WITHOUT_DISPLAY ();

  page = ws_window_get_hardware_page (f->window);
  select_only (f, "GTX 970");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "hardware.duplicate", NULL));
  drain ();
  copy = stored_gpu (f, "GTX 970 (2)");
  g_assert_nonnull (copy);
  g_assert_cmpint (copy->sms, ==, 13);
  g_assert_nonnull (find_row (f, "GTX 970 (2)"));
  /* The copy opens in the editor, ready to be renamed. */
  g_assert_cmpstr (ws_hardware_page_get_detail_state (page), ==, "edit");
  type_field (f, "name", "GTX 970 overclocked");
  g_assert_true (store_has (f, "GTX 970 overclocked"));
  g_assert_false (store_has (f, "GTX 970 (2)"));

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "hardware.new", "s", "cpu"));
  drain ();
  g_assert_true (store_has (f, "New CPU"));

  select_only (f, "GTX 970 overclocked");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "hardware.delete", NULL));
  drain ();
  g_assert_false (store_has (f, "GTX 970 overclocked"));
  g_assert_null (find_row (f, "GTX 970 overclocked"));

  undo (f, FALSE); /* the delete */
  g_assert_true (store_has (f, "GTX 970 overclocked"));
  undo (f, FALSE); /* the new CPU */
  g_assert_false (store_has (f, "New CPU"));
  undo (f, FALSE); /* the rename */
  g_assert_true (store_has (f, "GTX 970 (2)"));
  undo (f, FALSE); /* the duplicate */
  g_assert_false (store_has (f, "GTX 970 (2)"));
  g_assert_true (store_has (f, "GTX 970"));
}

static void
test_import_export (Fixture *f, gconstpointer data)
{
  WsHardwarePage *page;
  g_autoptr (GError) error = NULL;
  g_autofree char *path = g_build_filename (f->tmpdir, "gtx970.json", NULL);
  g_autofree char *text = NULL;
  g_autoptr (JsonNode) node = NULL;
  g_autofree char *renamed = NULL;

  SKIP_WITHOUT_DISPLAY ();

  page = ws_window_get_hardware_page (f->window);
  select_only (f, "GTX 970");
  g_assert_true (ws_hardware_page_export_file (page, path, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  node = json_from_string (text, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (json_object_get_string_member (json_node_get_object (node), "name"), ==, "GTX 970");

  json_object_set_string_member (json_node_get_object (node), "name", "GTX 970 imported");
  renamed = ws_hw_json_to_data (node, TRUE);
  g_assert_true (g_file_set_contents (path, renamed, -1, NULL));
  g_assert_true (ws_hardware_page_import_file (page, path, &error));
  g_assert_no_error (error);
  g_assert_true (store_has (f, "GTX 970 imported"));
  undo (f, FALSE);
  g_assert_false (store_has (f, "GTX 970 imported"));

  /* A bad record is refused with the field named; nothing is stored. */
  g_assert_true (g_file_set_contents (path, "{\"kind\":\"gpu\",\"name\":\"Broken\"}", -1, NULL));
  g_assert_false (ws_hardware_page_import_file (page, path, &error));
  g_assert_error (error, WS_ERROR, WS_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, "missing"));
  g_assert_false (store_has (f, "Broken"));
}

static gboolean
is_named_label (GtkWidget *widget, gconstpointer name)
{
  return GTK_IS_LABEL (widget) && g_str_equal (gtk_widget_get_name (widget), name);
}

static const char *
compare_cell (Fixture *f, const char *name)
{
  GtkGrid *grid = ws_hardware_page_get_compare_grid (ws_window_get_hardware_page (f->window));
  GtkWidget *label = find_descendant (GTK_WIDGET (grid), is_named_label, name);

  g_assert_nonnull (label);
  return gtk_label_get_text (GTK_LABEL (label));
}

static void
test_compare_gpus (Fixture *f, gconstpointer data)
{
  WsHardwarePage *page;
  GtkListBox *list;
  g_autoptr (WsGpu) a = NULL;
  g_autoptr (WsGpu) b = NULL;
  g_autofree char *fp32 = NULL;
  g_autofree char *fp32_text = NULL;
  g_autofree char *bpf = NULL;
  g_autofree char *bpf_text = NULL;
  const char *other = NULL;

  SKIP_WITHOUT_DISPLAY ();

  for (guint i = 0; i < f->gpus->len && other == NULL; i++)
    if (!g_str_equal (((WsGpu *) f->gpus->pdata[i])->name, "GTX 970"))
      other = ((WsGpu *) f->gpus->pdata[i])->name;
  g_assert_nonnull (other);
  page = ws_window_get_hardware_page (f->window);
  list = ws_hardware_page_get_list_box (page);
  select_only (f, "GTX 970");
  /* Ctrl+click adds a row to the selection. */
  gtk_list_box_select_row (list, find_row (f, other));
  drain ();
  g_assert_cmpstr (ws_hardware_page_get_detail_state (page), ==, "compare");

  /* Columns follow list order; find which column is the GTX 970. */
  a = stored_gpu (f, "GTX 970");
  b = stored_gpu (f, other);
  {
    int col = g_str_equal (compare_cell (f, "sms:0"), "13")
                  && g_str_equal (compare_cell (f, "architecture:0"), "Maxwell")
                ? 0
                : 1;
    g_autofree char *fp32_name = g_strdup_printf ("peak_fp32_gflops:%d", col);
    g_autofree char *bpf_name = g_strdup_printf ("bytes_per_flop:%d", col);
    g_autofree char *bw_name = g_strdup_printf ("dram_bandwidth_gbs:%d", 1 - col);
    g_autofree char *bw = ws_hw_format_number (b->dram_bandwidth_gbs, 1);
    g_autofree char *bw_text = g_strdup_printf ("%s GB/s", bw);

    /* Seed 004 Table 6.1: 13 SMs × 128 lanes × 2 FLOP × 1253 MHz. */
    g_assert_cmpfloat_with_epsilon (ws_gpu_peak_fp32_gflops (a), 13 * 128 * 2 * 1.253, 0.01);
    fp32 = ws_hw_format_number (ws_gpu_peak_fp32_gflops (a), 1);
    fp32_text = g_strdup_printf ("%s GFLOP/s", fp32);
    g_assert_cmpstr (compare_cell (f, fp32_name), ==, fp32_text);
    bpf = ws_hw_format_number (a->dram_bandwidth_gbs / ws_gpu_peak_fp32_gflops (a), 3);
    bpf_text = g_strdup_printf ("%s B/FLOP", bpf);
    g_assert_cmpstr (compare_cell (f, bpf_name), ==, bpf_text);
    g_assert_cmpstr (compare_cell (f, bw_name), ==, bw_text);
  }
  g_assert_true (g_str_has_suffix (compare_cell (f, "occupancy_256_32:0"), "blocks)"));

  /* The grid's rows are core's key figures, under core's labels. */
  {
    GtkWidget *grid = GTK_WIDGET (ws_hardware_page_get_compare_grid (page));
    guint n_fields, n_derived, key = 0;
    const WsHwField *fields = ws_hw_fields (WS_HW_GPU, &n_fields);
    const WsHwDerived *derived = ws_hw_derived (WS_HW_GPU, &n_derived);

    for (guint i = 0; i < n_fields; i++)
      if (fields[i].flags & WS_HW_FIELD_KEY_FIGURE)
        {
          GtkWidget *label = find_descendant (grid, is_named_label, fields[i].name);
          g_assert_nonnull (label);
          g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (label)), ==, ws_hw_text (fields[i].label));
          key++;
        }
    for (guint i = 0; i < n_derived; i++)
      if (derived[i].flags & WS_HW_FIELD_KEY_FIGURE)
        {
          GtkWidget *label = find_descendant (grid, is_named_label, derived[i].name);
          g_assert_nonnull (label);
          g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (label)), ==, ws_hw_text (derived[i].label));
          key++;
        }
    g_assert_cmpuint (key, >=, 10);
  }
}

/* ---- the system designer ---------------------------------------------- */

static gpointer
find_controller (GtkWidget *widget, GType type)
{
  g_autoptr (GListModel) controllers = gtk_widget_observe_controllers (widget);

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr (GObject) controller = g_list_model_get_item (controllers, i);
      if (G_TYPE_CHECK_INSTANCE_TYPE (controller, type))
        return controller; /* the widget keeps it alive */
    }
  g_assert_not_reached ();
}

static gboolean
has_payload (GtkWidget *widget, gconstpointer payload)
{
  return g_strcmp0 (g_object_get_data (G_OBJECT (widget), "ws-payload"), payload) == 0;
}

/* The palette button carrying @id's payload ("palette_machine" -> "machine"). */
static GtkWidget *
page_palette_button (WsSystemsPage *page, const char *id)
{
  GtkWidget *button = find_descendant (GTK_WIDGET (page), has_payload, id + strlen ("palette_"));

  g_assert_true (GTK_IS_BUTTON (button));
  return button;
}

static GtkEventControllerKey *
canvas_keys (WsSystemCanvas *canvas)
{
  g_autoptr (GListModel) controllers = gtk_widget_observe_controllers (GTK_WIDGET (canvas));

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr (GObject) controller = g_list_model_get_item (controllers, i);
      if (GTK_IS_EVENT_CONTROLLER_KEY (controller))
        return GTK_EVENT_CONTROLLER_KEY (controller);
    }
  g_assert_not_reached ();
}

/* A key press as the canvas's key controller receives it. */
static void
press (WsSystemCanvas *canvas, guint keyval)
{
  gboolean handled = FALSE;

  g_signal_emit_by_name (canvas_keys (canvas), "key-pressed", keyval, 0, (GdkModifierType) 0, &handled);
  g_assert_true (handled);
  drain ();
}

static GtkListBoxRow *
catalogue_row (WsSystemsPage *page, const char *payload)
{
  GtkListBoxRow *row;

  for (int i = 0; (row = gtk_list_box_get_row_at_index (ws_systems_page_get_catalogue_list (page), i)) != NULL; i++)
    if (g_strcmp0 (g_object_get_data (G_OBJECT (row), "ws-payload"), payload) == 0)
      return row;
  return NULL;
}

static guint
problem_count (WsSystemsPage *page)
{
  guint n = 0;

  for (GtkWidget *c = gtk_widget_get_first_child (GTK_WIDGET (ws_systems_page_get_problems_list (page))); c;
       c = gtk_widget_get_next_sibling (c))
    n += GTK_IS_LIST_BOX_ROW (c);
  return n;
}

static WsSystemModel *
stored_system (Fixture *f, const char *name)
{
  g_autoptr (WsStore) store = ws_store_open (f->db_path, NULL);
  WsSystemModel *model;

  g_assert_nonnull (store);
  model = ws_system_store_get_system (store, name, NULL);
  g_clear_pointer (&store, ws_store_close);
  return model;
}

static void
pick (AdwComboRow *row, const char *text)
{
  GListModel *model = adw_combo_row_get_model (row);

  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr (GtkStringObject) item = g_list_model_get_item (model, i);
      if (g_str_equal (gtk_string_object_get_string (item), text))
        {
          adw_combo_row_set_selected (row, i);
          drain ();
          return;
        }
    }
  g_assert_not_reached ();
}

static const char *const testbed_link = "PCIe 3.1 x16 (GTX 970 test bed)";

static void
test_build_testbed (Fixture *f, gconstpointer data)
{
  WsSystemsPage *page;
  WsSystemCanvas *canvas;
  const WsSystemDoc *doc;
  const WsDesignNode *machine, *cpu, *gpu, *link;
  double wx, wy, gx_before;
  g_autoptr (WsSystemModel) model = NULL;
  g_autoptr (WsSystemModel) after_undo = NULL;
  WsComponent *c;
  WsWindow *second;
  gint64 start = g_get_monotonic_time ();

  SKIP_WITHOUT_DISPLAY ();

  g_assert_true (ws_window_show_page (f->window, "systems"));
  page = ws_window_get_systems_page (f->window);
  canvas = ws_systems_page_get_canvas (page);
  drain ();

  /* From an empty canvas. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "systems.new", NULL));
  drain ();
  doc = ws_systems_page_get_doc (page);
  g_assert_nonnull (doc);
  g_assert_cmpstr (doc->name, ==, "system-1");
  g_assert_cmpuint (doc->nodes->len, ==, 0);

  /* Drop a machine from the palette, then a CPU from the catalogue into it
   * (the GtkDropTarget's path)... */
  {
    /* The palette button's GtkDragSource offers "machine"; the canvas's
     * GtkDropTarget takes it (both real controllers, signals emitted as
     * GTK does during a drag). */
    GtkDragSource *source = find_controller (page_palette_button (page, "palette_machine"), GTK_TYPE_DRAG_SOURCE);
    GtkDropTarget *target = find_controller (GTK_WIDGET (canvas), GTK_TYPE_DROP_TARGET);
    g_autoptr (GdkContentProvider) content = NULL;
    g_auto (GValue) value = G_VALUE_INIT;
    gboolean accepted = FALSE;

    g_signal_emit_by_name (source, "prepare", 10.0, 10.0, &content);
    g_assert_nonnull (content);
    g_value_init (&value, G_TYPE_STRING);
    g_assert_true (gdk_content_provider_get_value (content, &value, NULL));
    g_assert_cmpstr (g_value_get_string (&value), ==, "machine");
    g_signal_emit_by_name (target, "drop", &value, 200.0, 120.0, &accepted);
    g_assert_true (accepted);
    drain ();
  }
  doc = ws_systems_page_get_doc (page);
  g_assert_cmpuint (doc->nodes->len, ==, 1);
  machine = ws_system_doc_find (doc, "machine");
  g_assert_nonnull (machine);
  g_assert_nonnull (catalogue_row (page, "cpu:Core i7-4790K"));
  ws_system_canvas_to_widget (canvas, machine->x + 80, machine->y + 70, &wx, &wy);
  g_assert_true (ws_system_canvas_drop (
    canvas, g_object_get_data (G_OBJECT (catalogue_row (page, "cpu:Core i7-4790K")), "ws-payload"), wx, wy));
  doc = ws_systems_page_get_doc (page);
  cpu = ws_system_doc_find (doc, "cpu");
  g_assert_nonnull (cpu);
  g_assert_cmpstr (cpu->parent, ==, "machine");
  g_assert_cmpstr (cpu->hw, ==, "Core i7-4790K");

  /* ...and the GPU the keyboard way: select the machine, Enter on the catalogue row. */
  ws_system_canvas_select (canvas, "machine");
  g_signal_emit_by_name (ws_systems_page_get_catalogue_list (page), "row-activated",
                         catalogue_row (page, "gpu:GTX 970"));
  drain ();
  doc = ws_systems_page_get_doc (page);
  gpu = ws_system_doc_find (doc, "gpu");
  g_assert_nonnull (gpu);
  g_assert_cmpstr (gpu->parent, ==, "machine");
  g_assert_cmpstr (gpu->hw, ==, "GTX 970");
  /* A GPU without a host link is flagged on the canvas and in the list. */
  g_assert_cmpuint (problem_count (page), ==, 1);
  /* The draft is saved; the system model keeps the last valid state (machine + CPU). */
  {
    g_autoptr (WsSystemModel) last_valid = stored_system (f, "system-1");
    g_assert_nonnull (last_valid);
    g_assert_nonnull (ws_system_model_find (last_valid, "cpu"));
    g_assert_null (ws_system_model_find (last_valid, "gpu"));
  }

  /* Connect by keyboard: C on the CPU, C on the GPU. */
  ws_system_canvas_select (canvas, "cpu");
  press (canvas, GDK_KEY_c);
  g_assert_cmpstr (ws_system_canvas_get_connect_source (canvas), ==, "cpu");
  ws_system_canvas_select (canvas, "gpu");
  press (canvas, GDK_KEY_c);
  doc = ws_systems_page_get_doc (page);
  link = ws_system_doc_find (doc, "link");
  g_assert_nonnull (link);
  g_assert_cmpstr (link->from, ==, "cpu");
  g_assert_cmpstr (link->to, ==, "gpu");
  g_assert_cmpstr (link->parent, ==, "machine");
  g_assert_cmpstr (ws_system_canvas_get_selected (canvas), ==, "link");
  /* The catalogue's link measured for this GPU is the default. */
  g_assert_cmpstr (link->hw, ==, testbed_link);
  pick (ws_systems_page_get_hw_row (page), "PCIe 2.0 x4 (GTX TITAN X test bed)");

  /* The side panel picks the seed's PCIe link and sets the GPU's labels. */
  pick (ws_systems_page_get_hw_row (page), testbed_link);
  doc = ws_systems_page_get_doc (page);
  g_assert_cmpstr (ws_system_doc_find (doc, "link")->hw, ==, testbed_link);
  ws_system_canvas_select (canvas, "gpu");
  drain ();
  gtk_spin_button_set_value (ws_systems_page_get_count_spin (page), 2);
  drain ();
  gtk_editable_set_text (GTK_EDITABLE (ws_systems_page_get_labels_row (page)), "GPU:1, worker:4");
  g_signal_emit_by_name (ws_systems_page_get_labels_row (page), "apply");
  drain ();
  g_assert_cmpuint (problem_count (page), ==, 0);
  g_assert_cmpstr (gtk_label_get_text (ws_systems_page_get_status_label (page)), ==, "Saved");
  g_test_message ("test bed drawn in %.3f s of GUI time", (g_get_monotonic_time () - start) / 1e6);

  /* Saved as the user works: the store has the valid system model. */
  model = stored_system (f, "system-1");
  g_assert_nonnull (model);
  g_assert_cmpuint (model->components->len, ==, 1);
  c = ws_system_model_find (model, "gpu");
  g_assert_nonnull (c);
  g_assert_cmpint (c->count, ==, 2);
  g_assert_cmpuint (c->labels->len, ==, 2);
  g_assert_cmpstr (((WsSystemLabel *) c->labels->pdata[1])->name, ==, "worker");
  g_assert_cmpint (((WsSystemLabel *) c->labels->pdata[1])->multiplicity, ==, 4);
  g_assert_true (c->parent == ws_system_model_find (model, "machine"));
  c = ws_system_model_find (model, "link");
  g_assert_cmpstr (c->hw, ==, testbed_link);
  g_assert_cmpstr (c->from, ==, "cpu");
  g_assert_cmpstr (c->to, ==, "gpu");

  /* Arrow keys move; Ctrl+Z moves back. */
  gx_before = ws_system_doc_find (ws_systems_page_get_doc (page), "gpu")->x;
  press (canvas, GDK_KEY_Right);
  g_assert_cmpfloat (ws_system_doc_find (ws_systems_page_get_doc (page), "gpu")->x, ==, gx_before + 10);
  undo (f, FALSE);
  g_assert_cmpfloat (ws_system_doc_find (ws_systems_page_get_doc (page), "gpu")->x, ==, gx_before);

  /* Delete the link: the GPU loses its host link, shown as a problem; undo. */
  ws_system_canvas_select (canvas, "link");
  press (canvas, GDK_KEY_Delete);
  g_assert_null (ws_system_doc_find (ws_systems_page_get_doc (page), "link"));
  g_assert_cmpuint (problem_count (page), ==, 1);
  undo (f, FALSE);
  g_assert_nonnull (ws_system_doc_find (ws_systems_page_get_doc (page), "link"));
  g_assert_cmpuint (problem_count (page), ==, 0);

  /* Reopen: a new window on the same store shows the same system. */
  second = ws_window_new (NULL, f->db_path);
  gtk_window_present (GTK_WINDOW (second));
  drain ();
  ws_window_show_page (second, "systems");
  g_assert_true (ws_systems_page_open (ws_window_get_systems_page (second), "system-1"));
  drain ();
  doc = ws_systems_page_get_doc (ws_window_get_systems_page (second));
  g_assert_cmpuint (doc->nodes->len, ==, 4);
  g_assert_cmpstr (ws_system_doc_find (doc, "link")->from, ==, "cpu");
  g_assert_cmpstr (ws_system_doc_find (doc, "link")->hw, ==, testbed_link);
  g_assert_cmpint (ws_system_doc_find (doc, "gpu")->count, ==, 2);
  g_assert_cmpfloat (ws_system_doc_find (doc, "gpu")->x, ==, gx_before);
  gtk_window_destroy (GTK_WINDOW (second));
  drain ();

  /* Undo in the first window back past the connection: the stored design
   * loses the link, the stored model keeps the last valid state. */
  undo (f, FALSE); /* labels */
  undo (f, FALSE); /* count */
  undo (f, FALSE); /* link catalogue entry */
  undo (f, FALSE); /* link catalogue entry */
  undo (f, FALSE); /* connect */
  g_assert_null (ws_system_doc_find (ws_systems_page_get_doc (page), "link"));
  g_assert_cmpuint (problem_count (page), ==, 1);
  after_undo = stored_system (f, "system-1");
  g_assert_nonnull (after_undo);
  g_assert_nonnull (ws_system_model_find (after_undo, "link"));
  second = ws_window_new (NULL, f->db_path);
  gtk_window_present (GTK_WINDOW (second));
  drain ();
  g_assert_true (ws_systems_page_open (ws_window_get_systems_page (second), "system-1"));
  g_assert_cmpuint (ws_systems_page_get_doc (ws_window_get_systems_page (second))->nodes->len, ==, 3);
  gtk_window_destroy (GTK_WINDOW (second));
  drain ();
  undo (f, TRUE);
  g_assert_nonnull (ws_system_doc_find (ws_systems_page_get_doc (page), "link"));
}

static void
test_designer_duplicate_and_dangling (Fixture *f, gconstpointer data)
{
  WsSystemsPage *page;
  WsSystemCanvas *canvas;
  const WsSystemDoc *doc;

  SKIP_WITHOUT_DISPLAY ();

  ws_window_show_page (f->window, "systems");
  page = ws_window_get_systems_page (f->window);
  canvas = ws_systems_page_get_canvas (page);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "systems.new", NULL));
  drain ();
  /* The Add menu's keyboard path: a machine, then a CPU, GPU and link inside it. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "systems.add", "s", "machine"));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "systems.add", "s", "cpu"));
  ws_system_canvas_select (canvas, "machine");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "systems.add", "s", "gpu"));
  ws_system_canvas_select (canvas, "machine");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "systems.add", "s", "link"));
  drain ();
  doc = ws_systems_page_get_doc (page);
  g_assert_cmpuint (doc->nodes->len, ==, 4);
  g_assert_cmpstr (ws_system_doc_find (doc, "gpu")->parent, ==, "machine");
  /* A palette link is dangling until both ends are chosen. */
  g_assert_cmpuint (problem_count (page), ==, 2);
  /* Dragging from the CPU's handle to the GPU (the canvas's GtkGestureDrag
   * signals, as a pointer drag emits them) adds a second, connected link. */
  {
    GtkGestureDrag *drag = find_controller (GTK_WIDGET (canvas), GTK_TYPE_GESTURE_DRAG);
    const WsDesignNode *c = ws_system_doc_find (ws_systems_page_get_doc (page), "cpu");
    const WsDesignNode *g = ws_system_doc_find (ws_systems_page_get_doc (page), "gpu");
    double cx, cy, cw, ch, gx, gy, gw, gh, hx, hy, tx, ty;
    double gpu_x = g->x; /* the document is replaced by every edit */

    ws_system_doc_node_bounds (ws_systems_page_get_doc (page), c, &cx, &cy, &cw, &ch);
    ws_system_doc_node_bounds (ws_systems_page_get_doc (page), g, &gx, &gy, &gw, &gh);
    ws_system_canvas_to_widget (canvas, cx + cw, cy + ch / 2, &hx, &hy);
    ws_system_canvas_to_widget (canvas, gx + gw / 2, gy + gh / 2, &tx, &ty);
    g_signal_emit_by_name (drag, "drag-begin", hx, hy);
    g_signal_emit_by_name (drag, "drag-update", (tx - hx) / 2, (ty - hy) / 2);
    g_signal_emit_by_name (drag, "drag-end", tx - hx, ty - hy);
    drain ();
    g_assert_cmpuint (ws_systems_page_get_doc (page)->nodes->len, ==, 5);
    g_assert_cmpstr (ws_system_doc_find (ws_systems_page_get_doc (page), "link2")->from, ==, "cpu");
    g_assert_cmpstr (ws_system_doc_find (ws_systems_page_get_doc (page), "link2")->to, ==, "gpu");
    /* Dragging the GPU body moves it by the drag distance. */
    ws_system_canvas_to_widget (canvas, gx + 20, gy + 20, &hx, &hy);
    g_signal_emit_by_name (drag, "drag-begin", hx, hy);
    g_signal_emit_by_name (drag, "drag-update", 30.0, 0.0);
    g_signal_emit_by_name (drag, "drag-end", 30.0, 0.0);
    drain ();
    g_assert_cmpfloat (ws_system_doc_find (ws_systems_page_get_doc (page), "gpu")->x, ==, gpu_x + 30);
    undo (f, FALSE);
    undo (f, FALSE);
    g_assert_cmpuint (ws_systems_page_get_doc (page)->nodes->len, ==, 4);
  }
  ws_system_canvas_select (canvas, "link");
  drain ();
  pick (ws_systems_page_get_from_row (page), "cpu");
  pick (ws_systems_page_get_to_row (page), "gpu");
  g_assert_cmpuint (problem_count (page), ==, 0);

  /* Duplicating the machine copies what is inside, links rewired to the copies. */
  ws_system_canvas_select (canvas, "machine");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "systems.duplicate", NULL));
  drain ();
  doc = ws_systems_page_get_doc (page);
  g_assert_cmpuint (doc->nodes->len, ==, 8);
  g_assert_cmpstr (ws_system_doc_find (doc, "link2")->from, ==, "cpu2");
  g_assert_cmpstr (ws_system_doc_find (doc, "link2")->parent, ==, "machine2");
  g_assert_cmpuint (problem_count (page), ==, 0);

  /* Renaming keeps the link's ends. */
  ws_system_canvas_select (canvas, "cpu2");
  drain ();
  gtk_editable_set_text (GTK_EDITABLE (ws_systems_page_get_name_row (page)), "host2");
  g_signal_emit_by_name (ws_systems_page_get_name_row (page), "apply");
  drain ();
  g_assert_cmpstr (ws_system_doc_find (ws_systems_page_get_doc (page), "link2")->from, ==, "host2");

  /* Zoom changes the mapping between widget and document points. */
  gtk_widget_activate_action (GTK_WIDGET (page), "systems.zoom", "s", "in");
  g_assert_cmpfloat (ws_system_canvas_get_zoom (canvas), ==, 1.25);
  gtk_widget_activate_action (GTK_WIDGET (page), "systems.zoom", "s", "reset");
  g_assert_cmpfloat (ws_system_canvas_get_zoom (canvas), ==, 1.0);
}

/* Deleting systems in the designer: a draft and a stored system; the
 * Simulations page follows and keeps its other choices. */
static void
test_designer_delete_system (Fixture *f, gconstpointer data)
{
  WsSystemsPage *page;
  WsSimulationsPage *sims;
  WsStore *store;
  g_autoptr (GError) error = NULL;
  g_autoptr (WsSystemModel) gone = NULL;
  g_autofree char *draft = NULL;

  SKIP_WITHOUT_DISPLAY ();
  store = ws_window_get_store (f->window);
  g_assert_true (ws_system_store_ensure_demo (store, &error));
  page = ws_window_get_systems_page (f->window);
  ws_systems_page_load (page, store);
  sims = WS_SIMULATIONS_PAGE (gtk_stack_get_child_by_name (ws_window_get_stack (f->window), "simulations"));
  ws_simulations_page_load (sims, store);
  g_assert_true (ws_window_show_page (f->window, "systems"));
  drain ();

  /* A new, empty design (a draft only). */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "systems.new", NULL));
  drain ();
  draft = g_strdup (ws_systems_page_get_doc (page)->name);
  g_assert_true (ws_systems_page_delete_system (page, &error));
  g_assert_no_error (error);
  drain ();
  g_assert_false (ws_systems_page_open (page, draft));
  g_assert_nonnull (ws_systems_page_get_doc (page));
  g_assert_cmpstr (ws_systems_page_get_doc (page)->name, !=, draft);

  /* A stored system the Simulations page offers. */
  g_assert_true (ws_simulations_page_select_system (sims, "testbed-titanx"));
  g_assert_true (ws_simulations_page_select_app (sims, "saxpy2-analytic"));
  g_assert_true (ws_systems_page_open (page, "testbed-titanx"));
  g_assert_true (ws_systems_page_delete_system (page, &error));
  g_assert_no_error (error);
  drain ();
  gone = ws_system_store_get_system (store, "testbed-titanx", &error);
  g_assert_null (gone);
  g_assert_error (error, WS_ERROR, WS_ERROR_NOT_FOUND);
  g_clear_error (&error);
  g_assert_false (ws_systems_page_open (page, "testbed-titanx"));
  g_assert_false (ws_simulations_page_select_system (sims, "testbed-titanx"));
  g_assert_cmpstr (ws_simulations_page_get_app (sims), ==, "saxpy2-analytic");
  /* Nothing open: refused with a reason. */
  while (ws_systems_page_get_doc (page) != NULL)
    g_assert_true (ws_systems_page_delete_system (page, NULL));
  g_assert_false (ws_systems_page_delete_system (page, &error));
  g_assert_error (error, WS_ERROR, WS_ERROR_INVALID);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  /* No display (no Xvfb): every window test skips instead of failing. */
  have_display = gtk_init_check ();
  if (have_display)
    adw_init ();

  g_test_add_func ("/gui/params/format-units", test_format_units);
  g_test_add_func ("/gui/params/rows-from-core-table", test_params_from_core_table);
  g_test_add ("/gui/hardware/page-rows-from-core-table", Fixture, NULL, fixture_setup, test_page_rows_from_core_table,
              fixture_teardown);
  g_test_add ("/gui/hardware/lists-catalogue", Fixture, NULL, fixture_setup, test_lists_catalogue, fixture_teardown);
  g_test_add ("/gui/hardware/shows-gpu-parameters", Fixture, NULL, fixture_setup, test_shows_gpu_parameters,
              fixture_teardown);
  g_test_add ("/gui/hardware/search-filters", Fixture, NULL, fixture_setup, test_search_filters, fixture_teardown);
  g_test_add ("/gui/hardware/store-error-shown", Fixture, "no-window", fixture_setup, test_store_error_shown,
              fixture_teardown);
  g_test_add ("/gui/app/command-line-db", Fixture, "no-window", fixture_setup, test_command_line_db, fixture_teardown);
  g_test_add ("/gui/window/switches-pages", Fixture, NULL, fixture_setup, test_switches_pages, fixture_teardown);
  g_test_add ("/gui/window/shortcuts-in-template", Fixture, NULL, fixture_setup, test_shortcuts_in_template,
              fixture_teardown);

  g_test_add ("/gui/hardware/edit-field-valid-invalid-undo", Fixture, NULL, fixture_setup, test_edit_field,
              fixture_teardown);
  g_test_add ("/gui/hardware/create-duplicate-delete", Fixture, NULL, fixture_setup, test_create_duplicate_delete,
              fixture_teardown);
  g_test_add ("/gui/hardware/import-export", Fixture, NULL, fixture_setup, test_import_export, fixture_teardown);
  g_test_add ("/gui/hardware/compare-gpus", Fixture, NULL, fixture_setup, test_compare_gpus, fixture_teardown);
  g_test_add ("/gui/systems/build-testbed-save-reopen-undo", Fixture, NULL, fixture_setup, test_build_testbed,
              fixture_teardown);
  g_test_add ("/gui/systems/add-connect-duplicate-rename", Fixture, NULL, fixture_setup,
              test_designer_duplicate_and_dangling, fixture_teardown);
  g_test_add ("/gui/systems/delete-draft-and-stored-system", Fixture, NULL, fixture_setup, test_designer_delete_system,
              fixture_teardown);

  return g_test_run ();
}
