/* ws-simulations-page.c: the run form and the queue of model runs. */
#define G_LOG_DOMAIN "ws-simulations-page"

#include <glib/gi18n.h>
#include <adwaita.h>
#include <string.h>

#include "ws-simulations-page.h"
#include "ws-plugin-options.h"
#include "predict/ws-predict.h"
#include "system/ws-system.h"

struct _WsSimulationsPage {
  GtkWidget parent_instance;

  WsStore *store;
  WsRunQueue *queue;
  gulong changed_id, added_id;
  GStrv systems, apps;
  GStrv predictors;
  GPtrArray *predictor_checks;  /* of GtkCheckButton, parallel to predictors */
  GPtrArray *plugins;           /* the scan behind the list (WsPredictorPlugin*) */
  GPtrArray *predictor_options; /* of WsPluginOptions* (NULL: none), parallel to predictors */
  GPtrArray *predictor_rows;    /* their rows in predictors_group */
  AdwPreferencesGroup *predictors_group;

  GtkWidget *scroller;
  AdwComboRow *system_row;
  AdwComboRow *app_row;
  AdwEntryRow *sweep_row;
  AdwEntryRow *fixed_row;
  GtkLabel *message;
  GtkListBox *queue_list;
  GPtrArray *queue_rows; /* of AdwActionRow, parallel to the queue's runs */
};

G_DEFINE_FINAL_TYPE (WsSimulationsPage, ws_simulations_page, GTK_TYPE_WIDGET)

static void
set_message (WsSimulationsPage *self, const char *text)
{
  gtk_label_set_text (self->message, text);
  gtk_widget_set_visible (GTK_WIDGET (self->message), text != NULL && text[0] != '\0');
}

/* "A=1, B=2" -> overrides; NULL with the reason when a part is wrong. */
static GHashTable *
parse_fixed (const char *text, GError **error)
{
  g_autoptr (GHashTable) table = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_auto (GStrv) parts = g_strsplit (text, ",", -1);

  for (guint i = 0; parts[i] != NULL; i++)
    {
      g_autofree char *part = g_strstrip (g_strdup (parts[i]));
      char *eq = strchr (part, '='), *end = NULL;
      double value;

      if (part[0] == '\0')
        continue;
      if (eq == NULL || eq == part)
        {
          g_set_error (error, WS_ERROR, WS_ERROR_PARSE, _ ("“%s” is not NAME=VALUE."), part);
          return NULL;
        }
      *eq = '\0';
      value = g_ascii_strtod (eq + 1, &end);
      if (end == eq + 1 || *end != '\0')
        {
          g_set_error (error, WS_ERROR, WS_ERROR_PARSE, _ ("The value of %s (“%s”) is not a number."),
                       g_strstrip (part), eq + 1);
          return NULL;
        }
      g_hash_table_insert (table, g_strdup (g_strstrip (part)), g_memdup2 (&value, sizeof value));
    }
  return g_steal_pointer (&table);
}

/* Live validation: the entry turns red and the message says why. */
static gboolean
validate_form (WsSimulationsPage *self)
{
  const char *sweep = gtk_editable_get_text (GTK_EDITABLE (self->sweep_row));
  const char *fixed = gtk_editable_get_text (GTK_EDITABLE (self->fixed_row));
  g_autoptr (GError) error = NULL;
  g_autoptr (GHashTable) table = NULL;
  gboolean ok = TRUE;

  if (sweep[0] != '\0')
    {
      g_autoptr (WsSweepAxis) axis = ws_sweep_axis_parse (sweep, &error);

      if (axis == NULL)
        {
          gtk_widget_add_css_class (GTK_WIDGET (self->sweep_row), "error");
          set_message (self, error->message);
          return FALSE;
        }
    }
  gtk_widget_remove_css_class (GTK_WIDGET (self->sweep_row), "error");
  table = parse_fixed (fixed, &error);
  if (table == NULL)
    {
      gtk_widget_add_css_class (GTK_WIDGET (self->fixed_row), "error");
      set_message (self, error->message);
      ok = FALSE;
    }
  else
    {
      gtk_widget_remove_css_class (GTK_WIDGET (self->fixed_row), "error");
      set_message (self, "");
    }
  return ok;
}

static void
on_entry_changed (WsSimulationsPage *self)
{
  validate_form (self);
}

static const char *
selected_name (AdwComboRow *row, GStrv names)
{
  guint i = adw_combo_row_get_selected (row);

  return names != NULL && i != GTK_INVALID_LIST_POSITION && i < g_strv_length (names) ? names[i] : NULL;
}

guint
ws_simulations_page_run (WsSimulationsPage *self)
{
  const char *system = selected_name (self->system_row, self->systems);
  const char *app = selected_name (self->app_row, self->apps);
  const char *sweep = gtk_editable_get_text (GTK_EDITABLE (self->sweep_row));
  g_autoptr (GError) error = NULL;
  g_autoptr (WsSweepAxis) axis = NULL;
  g_autoptr (GHashTable) fixed = NULL;
  guint n = 0;

  g_return_val_if_fail (WS_IS_SIMULATIONS_PAGE (self), 0);

  if (system == NULL || app == NULL)
    {
      set_message (self, _ ("Choose a system and an application model first."));
      return 0;
    }
  if (!validate_form (self))
    return 0;
  if (sweep[0] != '\0')
    axis = ws_sweep_axis_parse (sweep, &error);
  fixed = parse_fixed (gtk_editable_get_text (GTK_EDITABLE (self->fixed_row)), &error);
  /* Every chosen predictor's options are checked before anything is queued. */
  g_autoptr (GPtrArray) options = g_ptr_array_new_with_free_func ((GDestroyNotify) g_hash_table_unref);
  for (guint i = 0; self->predictors != NULL && self->predictors[i] != NULL; i++)
    {
      WsPluginOptions *o = g_ptr_array_index (self->predictor_options, i);
      GHashTable *values = NULL;
      g_autoptr (GError) option_error = NULL;

      if (gtk_check_button_get_active (g_ptr_array_index (self->predictor_checks, i)) && o != NULL
          && (values = ws_plugin_options_get_values (o, &option_error)) == NULL)
        {
          g_autofree char *text = g_strdup_printf (_ ("Options of %s: %s"), self->predictors[i], option_error->message);

          set_message (self, text);
          return 0;
        }
      g_ptr_array_add (options, values != NULL ? values : g_hash_table_new (g_str_hash, g_str_equal));
    }
  for (guint i = 0; self->predictors != NULL && self->predictors[i] != NULL; i++)
    if (gtk_check_button_get_active (g_ptr_array_index (self->predictor_checks, i)))
      {
        GHashTable *values = g_ptr_array_index (options, i);

        ws_run_queue_add (self->queue, system, app, self->predictors[i], axis != NULL ? axis->variable : NULL,
                          axis != NULL ? axis->values : NULL, fixed, g_hash_table_size (values) > 0 ? values : NULL);
        n++;
      }
  if (n == 0)
    set_message (self, _ ("Choose at least one predictor or the detailed simulator."));
  return n;
}

static void
run_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  ws_simulations_page_run (WS_SIMULATIONS_PAGE (widget));
}

/* ---- queue list ------------------------------------------------------------ */

static void
on_cancel_clicked (GtkButton *button, WsSimulationsPage *self)
{
  guint index = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (button), "ws-run-index"));

  ws_run_queue_cancel (self->queue, index);
}

static void
update_row (WsSimulationsPage *self, guint index)
{
  const WsRun *run = ws_run_queue_get_run (self->queue, index);
  GtkWidget *row = g_ptr_array_index (self->queue_rows, index);
  GtkProgressBar *bar = g_object_get_data (G_OBJECT (row), "ws-progress");
  GtkWidget *cancel = g_object_get_data (G_OBJECT (row), "ws-cancel");
  guint total = run->variable != NULL ? run->values->len : 1;
  g_autofree char *subtitle = NULL;

  if (run->state == WS_RUN_FAILED)
    subtitle = g_strdup_printf (_ ("failed: %s"), run->error);
  else if (run->state == WS_RUN_DONE && run->error != NULL)
    subtitle = g_strdup_printf (_ ("done, %u points; %s"), run->n_done, run->error);
  else
    subtitle = g_strdup_printf (_ ("%s · %u of %u points"), ws_run_state_name (run->state), run->n_done, total);
  adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle);
  gtk_progress_bar_set_fraction (bar, total > 0 ? (double) run->n_done / total : 0);
  gtk_widget_set_visible (cancel, run->state == WS_RUN_QUEUED || run->state == WS_RUN_RUNNING);
  if (run->state == WS_RUN_FAILED)
    gtk_widget_add_css_class (row, "error");
}

static void
on_run_added (WsSimulationsPage *self, guint index, WsRunQueue *queue)
{
  const WsRun *run = ws_run_queue_get_run (queue, index);
  GtkWidget *row = adw_action_row_new ();
  GtkWidget *bar = gtk_progress_bar_new ();
  GtkWidget *cancel = gtk_button_new_from_icon_name ("process-stop-symbolic");
  g_autofree char *title = NULL;
  g_autofree char *changed = NULL;
  g_autofree char *predictor = NULL;

  /* The options that differ from the plugin's defaults, in the title. */
  for (guint i = 0; run->options != NULL && self->plugins != NULL && i < self->plugins->len; i++)
    {
      const WsPredictorPlugin *p = g_ptr_array_index (self->plugins, i);

      if (p->ok && g_str_equal (p->name, run->predictor))
        changed = ws_plugin_options_describe (p, run->options);
    }
  predictor = changed != NULL && changed[0] != '\0' ? g_strdup_printf ("%s (%s)", run->predictor, changed)
                                                    : g_strdup (run->predictor);
  if (run->variable != NULL)
    title = g_strdup_printf (_ ("%s — %s on %s, sweeping %s"), predictor, run->app, run->system, run->variable);
  else
    title = g_strdup_printf (_ ("%s — %s on %s"), predictor, run->app, run->system);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
  gtk_widget_set_valign (bar, GTK_ALIGN_CENTER);
  gtk_widget_set_size_request (bar, 120, -1);
  gtk_widget_set_valign (cancel, GTK_ALIGN_CENTER);
  gtk_widget_set_tooltip_text (cancel, _ ("Cancel This Run"));
  gtk_widget_add_css_class (cancel, "flat");
  g_object_set_data (G_OBJECT (cancel), "ws-run-index", GUINT_TO_POINTER (index));
  g_signal_connect (cancel, "clicked", G_CALLBACK (on_cancel_clicked), self);
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), bar);
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), cancel);
  g_object_set_data (G_OBJECT (row), "ws-progress", bar);
  g_object_set_data (G_OBJECT (row), "ws-cancel", cancel);
  gtk_list_box_append (self->queue_list, row);
  g_ptr_array_add (self->queue_rows, row);
  update_row (self, index);
}

static void
on_run_changed (WsSimulationsPage *self, guint index, WsRunQueue *queue)
{
  if (index < self->queue_rows->len)
    update_row (self, index);
}

void
ws_simulations_page_set_queue (WsSimulationsPage *self, WsRunQueue *queue)
{
  GtkWidget *child;

  g_return_if_fail (WS_IS_SIMULATIONS_PAGE (self));
  if (self->queue != NULL)
    {
      g_clear_signal_handler (&self->changed_id, self->queue);
      g_clear_signal_handler (&self->added_id, self->queue);
      g_clear_object (&self->queue);
    }
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->queue_list))) != NULL)
    gtk_list_box_remove (self->queue_list, child);
  g_ptr_array_set_size (self->queue_rows, 0);

  self->queue = g_object_ref (queue);
  self->added_id = g_signal_connect_swapped (queue, "run-added", G_CALLBACK (on_run_added), self);
  self->changed_id = g_signal_connect_swapped (queue, "run-changed", G_CALLBACK (on_run_changed), self);
  for (guint i = 0; i < ws_run_queue_get_n_runs (queue); i++)
    on_run_added (self, i, queue);
}

WsRunQueue *
ws_simulations_page_get_queue (WsSimulationsPage *self)
{
  return self->queue;
}

/* ---- form ------------------------------------------------------------------ */

static void
set_names (AdwComboRow *row, GStrv names)
{
  GtkStringList *list = gtk_string_list_new ((const char *const *) names);

  adw_combo_row_set_model (row, G_LIST_MODEL (list));
  g_object_unref (list);
}

static gboolean select_name (AdwComboRow *row, GStrv names, const char *name);

void
ws_simulations_page_load (WsSimulationsPage *self, WsStore *store)
{
  g_autoptr (GError) error = NULL;

  g_autofree char *system = NULL, *app = NULL;

  g_return_if_fail (WS_IS_SIMULATIONS_PAGE (self));
  /* A reload (a model was added or deleted) keeps the user's choices. */
  system = g_strdup (selected_name (self->system_row, self->systems));
  app = g_strdup (selected_name (self->app_row, self->apps));
  self->store = store;
  ws_run_queue_set_store (self->queue, store);
  g_clear_pointer (&self->systems, g_strfreev);
  g_clear_pointer (&self->apps, g_strfreev);
  if (store != NULL)
    {
      self->systems = ws_system_store_list_systems (store, &error);
      if (self->systems != NULL)
        self->apps = ws_system_store_list_apps (store, &error);
    }
  if (error != NULL)
    set_message (self, error->message);
  set_names (self->system_row, self->systems);
  set_names (self->app_row, self->apps);
  if (system != NULL)
    select_name (self->system_row, self->systems, system);
  if (app != NULL)
    select_name (self->app_row, self->apps, app);
}

static gboolean
select_name (AdwComboRow *row, GStrv names, const char *name)
{
  for (guint i = 0; names != NULL && names[i] != NULL; i++)
    if (g_str_equal (names[i], name))
      {
        adw_combo_row_set_selected (row, i);
        return TRUE;
      }
  return FALSE;
}

gboolean
ws_simulations_page_select_system (WsSimulationsPage *self, const char *name)
{
  return select_name (self->system_row, self->systems, name);
}

gboolean
ws_simulations_page_select_app (WsSimulationsPage *self, const char *name)
{
  return select_name (self->app_row, self->apps, name);
}

const char *
ws_simulations_page_get_system (WsSimulationsPage *self)
{
  return selected_name (self->system_row, self->systems);
}

const char *
ws_simulations_page_get_app (WsSimulationsPage *self)
{
  return selected_name (self->app_row, self->apps);
}

const char *const *
ws_simulations_page_get_predictors (WsSimulationsPage *self)
{
  return (const char *const *) self->predictors;
}

WsPluginOptions *
ws_simulations_page_get_options (WsSimulationsPage *self, const char *name)
{
  g_return_val_if_fail (WS_IS_SIMULATIONS_PAGE (self), NULL);
  for (guint i = 0; self->predictors[i] != NULL; i++)
    if (g_str_equal (self->predictors[i], name))
      return g_ptr_array_index (self->predictor_options, i);
  return NULL;
}

gboolean
ws_simulations_page_set_predictor (WsSimulationsPage *self, const char *name, gboolean active)
{
  for (guint i = 0; self->predictors[i] != NULL; i++)
    if (g_str_equal (self->predictors[i], name))
      {
        gtk_check_button_set_active (g_ptr_array_index (self->predictor_checks, i), active);
        return TRUE;
      }
  return FALSE;
}

void
ws_simulations_page_set_sweep (WsSimulationsPage *self, const char *text)
{
  gtk_editable_set_text (GTK_EDITABLE (self->sweep_row), text);
}

void
ws_simulations_page_set_fixed (WsSimulationsPage *self, const char *text)
{
  gtk_editable_set_text (GTK_EDITABLE (self->fixed_row), text);
}

const char *
ws_simulations_page_get_message (WsSimulationsPage *self)
{
  return gtk_widget_get_visible (GTK_WIDGET (self->message)) ? gtk_label_get_text (self->message) : "";
}

static void
ws_simulations_page_dispose (GObject *object)
{
  WsSimulationsPage *self = WS_SIMULATIONS_PAGE (object);

  if (self->queue != NULL)
    {
      g_clear_signal_handler (&self->changed_id, self->queue);
      g_clear_signal_handler (&self->added_id, self->queue);
      g_clear_object (&self->queue);
    }
  g_clear_pointer (&self->scroller, gtk_widget_unparent);
  G_OBJECT_CLASS (ws_simulations_page_parent_class)->dispose (object);
}

static void
ws_simulations_page_finalize (GObject *object)
{
  WsSimulationsPage *self = WS_SIMULATIONS_PAGE (object);

  g_strfreev (self->systems);
  g_strfreev (self->apps);
  g_strfreev (self->predictors);
  g_ptr_array_unref (self->predictor_checks);
  g_ptr_array_unref (self->predictor_options);
  g_ptr_array_unref (self->predictor_rows);
  g_clear_pointer (&self->plugins, g_ptr_array_unref);
  g_ptr_array_unref (self->queue_rows);
  G_OBJECT_CLASS (ws_simulations_page_parent_class)->finalize (object);
}

static void
ws_simulations_page_class_init (WsSimulationsPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = ws_simulations_page_dispose;
  object_class->finalize = ws_simulations_page_finalize;
  gtk_widget_class_install_action (widget_class, "simulations.run", NULL, run_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Return, GDK_CONTROL_MASK, "simulations.run", NULL);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
}

/* The predictor rows, from a fresh scan of the plugin path (at start and
 * after the Plugins page's rescan): plugins, then the two simulators; a
 * plugin with options unfolds its option rows.  @kept: the names checked
 * before (NULL: the defaults). */
static void
fill_predictors (WsSimulationsPage *self, GStrv kept)
{
  g_autoptr (GStrvBuilder) names = g_strv_builder_new ();
  GPtrArray *plugins;

  for (guint i = 0; i < self->predictor_rows->len; i++)
    adw_preferences_group_remove (self->predictors_group, g_ptr_array_index (self->predictor_rows, i));
  g_ptr_array_set_size (self->predictor_rows, 0);
  g_ptr_array_set_size (self->predictor_checks, 0);
  g_ptr_array_set_size (self->predictor_options, 0);
  g_clear_pointer (&self->predictors, g_strfreev);
  g_clear_pointer (&self->plugins, g_ptr_array_unref);
  plugins = self->plugins = ws_predictor_scan ();

  for (guint i = 0; plugins != NULL && i < plugins->len; i++)
    {
      WsPredictorPlugin *p = g_ptr_array_index (plugins, i);

      if (p->ok)
        g_strv_builder_add (names, p->name);
    }
  g_strv_builder_add (names, WS_SYSTEM_PREDICTOR_SIMULATOR);
  g_strv_builder_add (names, WS_SYSTEM_PREDICTOR_SIMULATOR_TBPOINT);
  self->predictors = g_strv_builder_end (names);
  for (guint i = 0; self->predictors[i] != NULL; i++)
    {
      GtkWidget *row;
      GtkWidget *check = gtk_check_button_new ();
      const char *what = NULL;
      WsPredictorPlugin *plugin = NULL;
      WsPluginOptions *options = NULL;

      if (g_str_equal (self->predictors[i], WS_SYSTEM_PREDICTOR_SIMULATOR))
        what = _ ("Detailed cycle-level simulator, every thread block simulated (profiled kernels only)");
      else if (g_str_equal (self->predictors[i], WS_SYSTEM_PREDICTOR_SIMULATOR_TBPOINT))
        what = _ ("Detailed simulator with TBPoint sampling of homogeneous regions; adds the TBPoint view on the "
                  "Results page");
      else
        for (guint k = 0; plugins != NULL && k < plugins->len; k++)
          {
            WsPredictorPlugin *p = g_ptr_array_index (plugins, k);

            if (p->ok && g_str_equal (p->name, self->predictors[i]))
              {
                plugin = p;
                what = p->description;
              }
          }
      if (plugin != NULL && plugin->descriptor->n_options > 0)
        options = ws_plugin_options_new (plugin);
      g_ptr_array_add (self->predictor_options, options);
      /* A plugin with options: they unfold under its row. */
      if (options != NULL)
        {
          row = adw_expander_row_new ();
          adw_expander_row_add_prefix (ADW_EXPANDER_ROW (row), check);
          if (what != NULL)
            adw_expander_row_set_subtitle (ADW_EXPANDER_ROW (row), what);
          ws_plugin_options_add_to (options, ADW_EXPANDER_ROW (row));
        }
      else
        {
          row = adw_action_row_new ();
          if (what != NULL)
            adw_action_row_set_subtitle (ADW_ACTION_ROW (row), what);
          adw_action_row_add_prefix (ADW_ACTION_ROW (row), check);
          adw_action_row_set_activatable_widget (ADW_ACTION_ROW (row), check);
        }
      adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), self->predictors[i]);
      /* Volkov is the default predictor of the system API too; a rescan
       * keeps the choices made. */
      gtk_check_button_set_active (GTK_CHECK_BUTTON (check),
                                   kept != NULL ? g_strv_contains ((const char *const *) kept, self->predictors[i])
                                                : g_str_equal (self->predictors[i], "volkov"));
      g_ptr_array_add (self->predictor_checks, check);
      g_ptr_array_add (self->predictor_rows, row);
      adw_preferences_group_add (self->predictors_group, row);
    }
}

void
ws_simulations_page_rescan_plugins (WsSimulationsPage *self)
{
  g_autoptr (GStrvBuilder) checked = g_strv_builder_new ();
  g_auto (GStrv) kept = NULL;

  g_return_if_fail (WS_IS_SIMULATIONS_PAGE (self));
  for (guint i = 0; self->predictors[i] != NULL; i++)
    if (gtk_check_button_get_active (g_ptr_array_index (self->predictor_checks, i)))
      g_strv_builder_add (checked, self->predictors[i]);
  kept = g_strv_builder_end (checked);
  fill_predictors (self, kept);
}

static GtkWidget *
group (const char *title, const char *description)
{
  GtkWidget *g = adw_preferences_group_new ();

  adw_preferences_group_set_title (ADW_PREFERENCES_GROUP (g), title);
  if (description != NULL)
    adw_preferences_group_set_description (ADW_PREFERENCES_GROUP (g), description);
  return g;
}

static void
ws_simulations_page_init (WsSimulationsPage *self)
{
  GtkWidget *clamp = adw_clamp_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 18);
  GtkWidget *models = group (_ ("Model"), NULL);
  GtkWidget *preds = group (
    _ ("Predictors"),
    _ ("One run per choice; “simulator” is the detailed cycle-level simulator (profiled kernels only)."));
  GtkWidget *vars = group (_ ("Variables"),
                           _ ("Sweep one variable (N=1,2,4 or N=1024:65536:1024) and fix others (A=1, B=2)."));
  GtkWidget *queue_group = group (
    _ ("Queue"), _ ("Runs execute one at a time in the background; results appear on the Results page."));
  GtkWidget *run_button = gtk_button_new_with_mnemonic (_ ("_Run"));

  self->predictor_checks = g_ptr_array_new ();
  self->predictor_options = g_ptr_array_new_with_free_func ((GDestroyNotify) ws_plugin_options_free);
  self->queue_rows = g_ptr_array_new ();

  self->system_row = ADW_COMBO_ROW (adw_combo_row_new ());
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self->system_row), _ ("System"));
  adw_combo_row_set_expression (self->system_row, gtk_property_expression_new (GTK_TYPE_STRING_OBJECT, NULL, "string"));
  self->app_row = ADW_COMBO_ROW (adw_combo_row_new ());
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self->app_row), _ ("Application model"));
  adw_combo_row_set_expression (self->app_row, gtk_property_expression_new (GTK_TYPE_STRING_OBJECT, NULL, "string"));
  adw_preferences_group_add (ADW_PREFERENCES_GROUP (models), GTK_WIDGET (self->system_row));
  adw_preferences_group_add (ADW_PREFERENCES_GROUP (models), GTK_WIDGET (self->app_row));

  self->predictors_group = ADW_PREFERENCES_GROUP (preds);
  self->predictor_rows = g_ptr_array_new ();
  fill_predictors (self, NULL);

  self->sweep_row = ADW_ENTRY_ROW (adw_entry_row_new ());
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self->sweep_row), _ ("Sweep"));
  self->fixed_row = ADW_ENTRY_ROW (adw_entry_row_new ());
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self->fixed_row), _ ("Fixed values"));
  g_signal_connect_swapped (self->sweep_row, "changed", G_CALLBACK (on_entry_changed), self);
  g_signal_connect_swapped (self->fixed_row, "changed", G_CALLBACK (on_entry_changed), self);
  adw_preferences_group_add (ADW_PREFERENCES_GROUP (vars), GTK_WIDGET (self->sweep_row));
  adw_preferences_group_add (ADW_PREFERENCES_GROUP (vars), GTK_WIDGET (self->fixed_row));

  self->message = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_wrap (self->message, TRUE);
  gtk_label_set_xalign (self->message, 0);
  gtk_widget_add_css_class (GTK_WIDGET (self->message), "error");
  gtk_widget_set_visible (GTK_WIDGET (self->message), FALSE);

  gtk_actionable_set_action_name (GTK_ACTIONABLE (run_button), "simulations.run");
  gtk_widget_set_tooltip_text (run_button, _ ("Queue the runs (Ctrl+Enter)"));
  gtk_widget_set_halign (run_button, GTK_ALIGN_END);
  gtk_widget_add_css_class (run_button, "suggested-action");
  gtk_widget_add_css_class (run_button, "pill");

  self->queue_list = GTK_LIST_BOX (gtk_list_box_new ());
  gtk_list_box_set_selection_mode (self->queue_list, GTK_SELECTION_NONE);
  gtk_widget_add_css_class (GTK_WIDGET (self->queue_list), "boxed-list");
  adw_preferences_group_add (ADW_PREFERENCES_GROUP (queue_group), GTK_WIDGET (self->queue_list));

  gtk_box_append (GTK_BOX (box), models);
  gtk_box_append (GTK_BOX (box), preds);
  gtk_box_append (GTK_BOX (box), vars);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->message));
  gtk_box_append (GTK_BOX (box), run_button);
  gtk_widget_set_margin_top (box, 24);
  gtk_widget_set_margin_bottom (box, 24);
  gtk_widget_set_margin_start (box, 12);
  gtk_widget_set_margin_end (box, 12);
  adw_clamp_set_maximum_size (ADW_CLAMP (clamp), 560);
  adw_clamp_set_child (ADW_CLAMP (clamp), box);
  /* Form and queue side by side: a run's progress stays in view. */
  {
    GtkWidget *form_scroller = gtk_scrolled_window_new ();
    GtkWidget *queue_scroller = gtk_scrolled_window_new ();

    gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (form_scroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
    gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (form_scroller), clamp);
    gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (queue_scroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
    gtk_widget_set_margin_top (queue_group, 24);
    gtk_widget_set_margin_start (queue_group, 12);
    gtk_widget_set_margin_end (queue_group, 12);
    gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (queue_scroller), queue_group);
    self->scroller = gtk_paned_new (GTK_ORIENTATION_HORIZONTAL);
    gtk_paned_set_start_child (GTK_PANED (self->scroller), form_scroller);
    gtk_paned_set_end_child (GTK_PANED (self->scroller), queue_scroller);
    gtk_paned_set_shrink_start_child (GTK_PANED (self->scroller), FALSE);
    gtk_paned_set_shrink_end_child (GTK_PANED (self->scroller), FALSE);
    gtk_widget_set_size_request (form_scroller, 360, -1);
    gtk_widget_set_size_request (queue_scroller, 300, -1);
    gtk_widget_set_parent (self->scroller, GTK_WIDGET (self));
  }

  {
    g_autoptr (WsRunQueue) queue = ws_run_queue_new ();
    ws_simulations_page_set_queue (self, queue);
  }
}

GtkWidget *
ws_simulations_page_new (void)
{
  return g_object_new (WS_TYPE_SIMULATIONS_PAGE, NULL);
}
