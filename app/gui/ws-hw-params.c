/* ws-hw-params.c: parameter groups with units for the hardware page.
 *
 * Nothing here names a field: the groups, labels, units and display hints
 * come from core's field and derived tables (core/hw/ws-hw.h); this file
 * only renders those hints in the user's locale. */
#define G_LOG_DOMAIN "ws-hw-params"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "ws-hw-params.h"

static void
ws_hw_param_free (WsHwParam *param)
{
  g_free (param->id);
  g_free (param->label);
  g_free (param->help);
  g_free (param->value);
  g_free (param);
}

static void
ws_hw_param_group_free (WsHwParamGroup *group)
{
  g_free (group->title);
  g_ptr_array_unref (group->params);
  g_free (group);
}

char *
ws_hw_format_number (double value, int max_decimals)
{
  char *text = g_strdup_printf ("%.*f", max_decimals, value);
  char *end;

  /* Cut trailing zeros and a bare decimal separator, whichever the locale
   * uses ("1.50" -> "1.5", "1253,0" -> "1253"). */
  if (max_decimals > 0)
    {
      end = text + strlen (text) - 1;
      while (end > text && *end == '0')
        *end-- = '\0';
      if (end > text && !g_ascii_isdigit (*end))
        *end = '\0';
    }
  return text;
}

char *
ws_hw_format_bytes (gint64 bytes)
{
  g_autofree char *number = NULL;

  /* Binary units because cache and shared-memory sizes are powers of two;
   * "1.75 MiB" reads better than "1835008 bytes". */
  if (bytes >= 1024 * 1024)
    {
      number = ws_hw_format_number (bytes / (1024.0 * 1024.0), 2);
      /* Translators: a size in mebibytes, e.g. "1.75 MiB". */
      return g_strdup_printf (_ ("%s MiB"), number);
    }
  if (bytes >= 1024)
    {
      number = ws_hw_format_number (bytes / 1024.0, 2);
      /* Translators: a size in kibibytes, e.g. "48 KiB". */
      return g_strdup_printf (_ ("%s KiB"), number);
    }
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%d byte", "%d bytes", (gulong) bytes), (int) bytes);
}

static char *
format_cycles (double cycles)
{
  g_autofree char *number = ws_hw_format_number (cycles, 2);
  gulong n = cycles == 1.0 ? 1 : (cycles < 1.0 ? 0 : (gulong) ceil (cycles));

  /* Translators: a duration in GPU core clock cycles. */
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s cycle", "%s cycles", n), number);
}

static char *
append_unit (char *number, const char *unit)
{
  char *text;

  if (unit == NULL || *unit == '\0')
    return number;
  /* Translators: a number and its unit, e.g. "1253 MHz"; the unit comes from the catalogue's field table. */
  text = g_strdup_printf (C_ ("value with unit", "%s %s"), number, ws_hw_text (unit));
  g_free (number);
  return text;
}

char *
ws_hw_format_value (double value, WsHwFormat format, guint decimals, const char *unit)
{
  if (isnan (value))
    /* Translators: a catalogue figure with no published value. */
    return g_strdup (_ ("unknown"));
  switch (format)
    {
    case WS_HW_FORMAT_BYTES: return ws_hw_format_bytes ((gint64) value);
    case WS_HW_FORMAT_CYCLES: return format_cycles (value);
    case WS_HW_FORMAT_VERSION:
      {
        /* A version, not a decimal number: "8.6" in every locale. */
        char buffer[G_ASCII_DTOSTR_BUF_SIZE];
        return g_strdup (g_ascii_formatd (buffer, sizeof buffer, "%.1f", value));
      }
    case WS_HW_FORMAT_COUNT: return append_unit (g_strdup_printf ("%.0f", value), unit);
    case WS_HW_FORMAT_CLOCK:
    case WS_HW_FORMAT_QUANTITY: return append_unit (ws_hw_format_number (value, (int) decimals), unit);
    case WS_HW_FORMAT_TEXT:
    case WS_HW_FORMAT_PARAGRAPH:
    default: g_return_val_if_reached (g_strdup (""));
    }
}

char *
ws_hw_format_field (const WsHwField *field, const void *record)
{
  g_return_val_if_fail (field != NULL && record != NULL, NULL);

  if (field->type == WS_HW_FIELD_STRING)
    {
      const char *text = ws_hw_field_get_string (field, record);
      /* Translators: shown for a catalogue field that holds no value. */
      return g_strdup (text != NULL && *text != '\0' ? text : _ ("not given"));
    }
  /* Optional figures use 0 for "no published value", which must not read
   * as a real zero (a zero bandwidth). */
  if (ws_hw_field_is_unknown (field, record))
    return ws_hw_format_value (NAN, field->format, field->decimals, field->unit);
  return ws_hw_format_value (ws_hw_field_get_number (field, record), field->format, field->decimals, field->unit);
}

char *
ws_hw_format_derived (const WsHwDerived *derived, const void *record)
{
  g_return_val_if_fail (derived != NULL && record != NULL, NULL);
  return ws_hw_format_value (derived->compute (record), derived->format, derived->decimals, derived->unit);
}

static WsHwParamGroup *
group_new (GPtrArray *groups, const char *title)
{
  WsHwParamGroup *group = g_new0 (WsHwParamGroup, 1);

  group->title = g_strdup (title);
  group->params = g_ptr_array_new_with_free_func ((GDestroyNotify) ws_hw_param_free);
  g_ptr_array_add (groups, group);
  return group;
}

/* Takes ownership of @value. */
static void
add (WsHwParamGroup *group, const char *id, const char *label, const char *help, char *value)
{
  WsHwParam *param = g_new0 (WsHwParam, 1);

  param->id = g_strdup (id);
  param->label = g_strdup (label);
  param->help = g_strdup (help);
  param->value = value;
  g_ptr_array_add (group->params, param);
}

static void
add_pipes (GPtrArray *groups, const WsGpu *g)
{
  /* Translators: group title over the instruction classes' latencies and issue intervals. */
  WsHwParamGroup *group = group_new (groups, _ ("Pipelines"));

  for (int c = 0; c < WS_ICLASS_COUNT; c++)
    {
      const WsPipe *pipe = &g->pipes[c];
      g_autofree char *id = g_strconcat ("pipes.", ws_iclass_name (c), NULL);
      g_autofree char *latency = NULL;
      g_autofree char *interval = NULL;
      const char *label = ws_hw_text (ws_iclass_label (c));

      if (pipe->latency <= 0.0)
        {
          /* Translators: an instruction class the GPU has no unit for (e.g. tensor cores on Fermi). */
          add (group, id, label, NULL, g_strdup (_ ("not present")));
          continue;
        }
      latency = format_cycles (pipe->latency);
      interval = format_cycles (pipe->initiation_interval);
      /* Translators: pipeline timing of an instruction class, e.g. "latency 6 cycles, issue every 2 cycles". */
      add (group, id, label, NULL, g_strdup_printf (_ ("latency %s, issue every %s"), latency, interval));
    }
}

/* One group per field group of the core table, in its order, then the
 * GPU's pipelines and derived figures.  Paragraph fields (sources) are
 * left to the page, which shows them under their own heading. */
static void
add_record (GPtrArray *groups, WsHwKind kind, const void *record)
{
  guint n_fields, n_derived;
  const WsHwField *fields = ws_hw_fields (kind, &n_fields);
  const WsHwDerived *derived = ws_hw_derived (kind, &n_derived);
  WsHwParamGroup *group = NULL;
  const char *group_name = NULL;

  for (guint i = 0; i < n_fields; i++)
    {
      const WsHwField *f = &fields[i];

      if (f->format == WS_HW_FORMAT_PARAGRAPH)
        continue;
      if (group == NULL || g_strcmp0 (group_name, f->group) != 0)
        {
          group = group_new (groups, ws_hw_text (f->group));
          group_name = f->group;
        }
      add (group, f->name, ws_hw_text (f->label), ws_hw_text (f->help), ws_hw_format_field (f, record));
    }
  if (kind == WS_HW_GPU)
    add_pipes (groups, record);
  if (n_derived > 0)
    {
      group = group_new (groups, ws_hw_text (ws_hw_derived_group ()));
      for (guint i = 0; i < n_derived; i++)
        add (group, derived[i].name, ws_hw_text (derived[i].label), ws_hw_text (derived[i].help),
             ws_hw_format_derived (&derived[i], record));
    }
}

GPtrArray *
ws_hw_params_for_item (WsHwItem *item)
{
  GPtrArray *groups;

  g_return_val_if_fail (WS_IS_HW_ITEM (item), NULL);

  groups = g_ptr_array_new_with_free_func ((GDestroyNotify) ws_hw_param_group_free);
  add_record (groups, ws_hw_item_get_kind (item), ws_hw_item_get_record (item));
  return groups;
}

const char *
ws_hw_params_lookup (GPtrArray *groups, const char *id)
{
  g_return_val_if_fail (groups != NULL && id != NULL, NULL);

  for (guint i = 0; i < groups->len; i++)
    {
      WsHwParamGroup *group = g_ptr_array_index (groups, i);

      for (guint j = 0; j < group->params->len; j++)
        {
          WsHwParam *param = g_ptr_array_index (group->params, j);

          if (g_str_equal (param->id, id))
            return param->value;
        }
    }
  return NULL;
}
