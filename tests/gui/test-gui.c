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

static gboolean have_display;

typedef struct {
  char *tmpdir;
  char *db_path;
  GPtrArray *gpus;    /* expected catalogue, read through the store API */
  GPtrArray *cpus;
  GPtrArray *links;
  WsWindow *window;
} Fixture;

static gboolean
timeout_cb (gpointer user_data)
{
  *(gboolean *) user_data = TRUE;
  return G_SOURCE_REMOVE;
}

/* Iterates the main loop until @done(@data) holds or @ms pass; returns the
 * final value of the condition. */
static gboolean
iterate_until (gboolean (*done) (gpointer), gpointer data, guint ms)
{
  gboolean timed_out = FALSE;
  guint id = g_timeout_add (ms, timeout_cb, &timed_out);

  while (!done (data) && !timed_out)
    g_main_context_iteration (NULL, TRUE);
  if (!timed_out)
    g_source_remove (id);
  return done (data);
}

static void
drain (void)
{
  while (g_main_context_iteration (NULL, FALSE))
    ;
}

static gboolean
is_mapped (gpointer widget)
{
  return gtk_widget_get_mapped (GTK_WIDGET (widget));
}

static void
remove_tree (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  if (dir != NULL)
    {
      while ((name = g_dir_read_name (dir)) != NULL)
        {
          g_autofree char *child = g_build_filename (path, name, NULL);
          remove_tree (child);
        }
    }
  g_remove (path);
}

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
  g_autoptr(GError) error = NULL;
  g_autoptr(WsStore) store = NULL;

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

#define SKIP_WITHOUT_DISPLAY()                                   \
  G_STMT_START {                                                 \
    if (!have_display)                                           \
      {                                                          \
        g_test_skip ("no display (run under xvfb-run)");         \
        return;                                                  \
      }                                                          \
  } G_STMT_END

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
  g_autoptr(GPtrArray) names = NULL;
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
      GtkListBoxRow *r = gtk_list_box_get_row_at_index (ws_hardware_page_get_list_box (ws_window_get_hardware_page (f->window)), i);
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
  g_assert_cmpstr (shown_value (f, "core_clock"), ==, "1253 MHz");
  g_assert_cmpstr (shown_value (f, "compute_capability"), ==, "5.2");
  g_assert_cmpstr (shown_value (f, "cuda_cores_per_sm"), ==, "128");
  g_assert_cmpstr (shown_value (f, "warp_schedulers_per_sm"), ==, "4");
  g_assert_cmpstr (shown_value (f, "dram_clock"), ==, "1753 MHz");
  g_assert_cmpstr (shown_value (f, "dram_bus_width"), ==, "256 bits");
  g_assert_cmpstr (shown_value (f, "dram_data_rate"), ==, "4 transfers per clock");
  g_assert_cmpstr (shown_value (f, "architecture"), ==, "Maxwell");

  /* Sizes are shown in binary units from the stored byte counts. */
  gpu = expected_gpu (f, "GTX 970");
  l2 = ws_hw_format_bytes (gpu->l2_size);
  g_assert_cmpstr (shown_value (f, "l2_size"), ==, l2);
  g_assert_true (g_str_has_suffix (shown_value (f, "l2_size"), " KiB") ||
                 g_str_has_suffix (shown_value (f, "l2_size"), " MiB"));
  smem = ws_hw_format_bytes (gpu->shared_per_sm);
  g_assert_cmpstr (shown_value (f, "shared_per_sm"), ==, smem);
  g_assert_true (g_str_has_suffix (shown_value (f, "l1_latency"), " cycles"));
  g_assert_true (g_str_has_suffix (shown_value (f, "dram_bandwidth"), " GB/s"));
  g_assert_true (g_str_has_suffix (shown_value (f, "tdp"), " W"));
  g_assert_true (g_str_has_prefix (shown_value (f, "pipe_fp32"), "latency "));

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
    g_assert_cmpstr (shown_value (f, "h2d_bandwidth"), ==, bw);
    g_assert_true (g_str_has_suffix (shown_value (f, "d2h_startup"), " µs"));
  }
}

typedef struct {
  Fixture *f;
  guint expected;
} CountWait;

static gboolean
row_count_is (gpointer data)
{
  CountWait *w = data;
  g_autoptr(GPtrArray) names = listed_names (w->f);
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
      g_autoptr(GPtrArray) names = listed_names (f);
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
  g_autoptr(GPtrArray) names = NULL;
  guint maxwell = 0;

  SKIP_WITHOUT_DISPLAY ();

  for (guint i = 0; i < f->gpus->len; i++)
    maxwell += g_strcmp0 (((WsGpu *) g_ptr_array_index (f->gpus, i))->architecture, "Maxwell") == 0;
  g_assert_cmpuint (maxwell, >=, 2);   /* GTX 970 and GTX TITAN X of seed 004 */

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

      g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->window), "win.show-page", "s", ws_window_page_names[i]));
      drain ();
      g_assert_cmpstr (gtk_stack_get_visible_child_name (stack), ==, ws_window_page_names[i]);
      g_assert_cmpint (gtk_list_box_row_get_index (gtk_list_box_get_selected_row (sidebar)), ==, i);
      child = gtk_stack_get_visible_child (stack);
      g_assert_true (gtk_widget_get_mapped (child));
      /* Pages of later issues say what will be there instead of showing nothing. */
      if (i > 0)
        {
          g_assert_true (ADW_IS_STATUS_PAGE (child));
          g_assert_cmpuint (strlen (adw_status_page_get_description (ADW_STATUS_PAGE (child))), >, 40);
        }
    }
  g_assert_cmpuint (n, ==, 6);

  /* ...and through the sidebar, as a click does. */
  for (int i = 5; i >= 0; i--)
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
  g_assert_true (gtk_widget_is_ancestor (gtk_root_get_focus (GTK_ROOT (f->window)),
                                         GTK_WIDGET (ws_hardware_page_get_search_entry (ws_window_get_hardware_page (f->window)))));
}

/* The template binds Alt+1..6, Ctrl+F and Ctrl+Q. */
static void
test_shortcuts_in_template (Fixture *f, gconstpointer data)
{
  g_autoptr(GListModel) controllers = NULL;
  g_autoptr(GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);

  SKIP_WITHOUT_DISPLAY ();

  controllers = gtk_widget_observe_controllers (GTK_WIDGET (f->window));
  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GObject) controller = g_list_model_get_item (controllers, i);

      if (!GTK_IS_SHORTCUT_CONTROLLER (controller))
        continue;
      for (guint j = 0; j < g_list_model_get_n_items (G_LIST_MODEL (controller)); j++)
        {
          g_autoptr(GtkShortcut) shortcut = g_list_model_get_item (G_LIST_MODEL (controller), j);
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
  char *db_path;          /* what the window was opened on */
  gboolean store_opened;
  gboolean help_overlay;
  char *page_after_action;   /* window actions still reach the window inside the app */
  char *about_version;    /* from the About window the menu item opens */
} AppRun;

static void
inspect_and_quit (GtkApplication *app, AppRun *run)
{
  GtkWindow *window = gtk_application_get_active_window (app);
  GListModel *toplevels;

  run->db_path = g_strdup (ws_window_get_db_path (WS_WINDOW (window)));
  run->store_opened = ws_window_get_store (WS_WINDOW (window)) != NULL;
  /* GtkApplication loads gtk/help-overlay.ui from the resources. */
  run->help_overlay = gtk_application_window_get_help_overlay (GTK_APPLICATION_WINDOW (window)) != NULL &&
                      g_action_group_has_action (G_ACTION_GROUP (window), "show-help-overlay");
  gtk_widget_activate_action (GTK_WIDGET (window), "win.show-page", "s", "results");
  run->page_after_action = g_strdup (gtk_stack_get_visible_child_name (ws_window_get_stack (WS_WINDOW (window))));

  g_action_group_activate_action (G_ACTION_GROUP (app), "about", NULL);
  toplevels = gtk_window_get_toplevels ();
  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GObject) toplevel = g_list_model_get_item (toplevels, i);
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
  g_autoptr(WsApplication) app = NULL;
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
  struct { gint64 bytes; const char *text; } sizes[] = {
    { 1835008, "1.75 MiB" }, { 6 * 1024 * 1024, "6 MiB" }, { 49152, "48 KiB" },
    { 1024, "1 KiB" }, { 128, "128 bytes" }, { 1, "1 byte" }, { 40 * 1024 * 1024 + 512 * 1024, "40.5 MiB" },
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

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  /* No display (no Xvfb): every window test skips instead of failing. */
  have_display = gtk_init_check ();
  if (have_display)
    adw_init ();

  g_test_add_func ("/gui/params/format-units", test_format_units);
  g_test_add ("/gui/hardware/lists-catalogue", Fixture, NULL, fixture_setup, test_lists_catalogue, fixture_teardown);
  g_test_add ("/gui/hardware/shows-gpu-parameters", Fixture, NULL, fixture_setup, test_shows_gpu_parameters, fixture_teardown);
  g_test_add ("/gui/hardware/search-filters", Fixture, NULL, fixture_setup, test_search_filters, fixture_teardown);
  g_test_add ("/gui/hardware/store-error-shown", Fixture, "no-window", fixture_setup, test_store_error_shown, fixture_teardown);
  g_test_add ("/gui/app/command-line-db", Fixture, "no-window", fixture_setup, test_command_line_db, fixture_teardown);
  g_test_add ("/gui/window/switches-pages", Fixture, NULL, fixture_setup, test_switches_pages, fixture_teardown);
  g_test_add ("/gui/window/shortcuts-in-template", Fixture, NULL, fixture_setup, test_shortcuts_in_template, fixture_teardown);

  return g_test_run ();
}
