/* ws-plugin-options.h: widgets for a predictor plugin's options, built from
 * the option descriptors the plugin declares (bool, int, double, choice,
 * string), so a new option of a plugin appears in the GUI without GUI code. */
#pragma once

#include <adwaita.h>

#include "predict/ws-predict.h"

G_BEGIN_DECLS

typedef struct _WsPluginOptions WsPluginOptions;

/* The rows for @plugin's options (none: the plugin has no option), each at
 * the plugin's default.  @plugin must outlive the result. */
WsPluginOptions *ws_plugin_options_new (const WsPredictorPlugin *plugin);
void ws_plugin_options_free (WsPluginOptions *options);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsPluginOptions, ws_plugin_options_free)

guint ws_plugin_options_get_n (const WsPluginOptions *options);
/* Adds the rows to @row (an expander under the plugin's row). */
void ws_plugin_options_add_to (WsPluginOptions *options, AdwExpanderRow *row);
/* The values as the plugin reads them (name -> text, every option), checked
 * against the descriptors; NULL with the option and the reason in @error.
 * A row with a bad value carries the "error" style class. */
GHashTable *ws_plugin_options_get_values (WsPluginOptions *options, GError **error);
/* Sets option @name from its text form ("true", "0.5", a choice); FALSE when
 * there is no such option or the text does not fit it. */
gboolean ws_plugin_options_set_value (WsPluginOptions *options, const char *name, const char *text);
/* The option's row (tests, keyboard focus); NULL when there is none. */
GtkWidget *ws_plugin_options_get_row (WsPluginOptions *options, const char *name);

/* "lambda=0.5, variant=mt": the options of @values that differ from the
 * plugin's defaults, sorted by name ("" when none); for run titles. */
char *ws_plugin_options_describe (const WsPredictorPlugin *plugin, GHashTable *values);

G_END_DECLS
