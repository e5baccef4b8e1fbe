/* ws-fault-sites.c: fault-injection sites (seed 003 §8): their text form
 * LAUNCH:CTA:INDEX:REG:BIT and their uniform choice over the injection
 * space that the faults-profile handler measured.  Host side of the
 * campaign; the handlers are in ws-instr-faults.c. */
#define G_LOG_DOMAIN "ws-instrument"

#include "instrument/ws-instrument.h"

#include <gsl/gsl_rng.h>
#include <string.h>

gboolean
ws_fault_site_parse (const char *text, WsFaultSite *site, GError **error)
{
  guint64 v[5];
  g_auto (GStrv) parts = g_strsplit (text, ":", -1);
  if (g_strv_length (parts) != 5)
    goto bad;
  for (int i = 0; i < 5; i++)
    if (!g_ascii_string_to_unsigned (parts[i], 10, 0, G_MAXUINT64, &v[i], NULL))
      goto bad;
  site->launch = v[0];
  site->cta = v[1];
  site->index = v[2];
  site->reg_pick = (uint32_t) v[3];
  site->bit_pick = (uint32_t) v[4];
  return TRUE;
bad:
  g_set_error (error, WS_ERROR, WS_ERROR_INVALID,
               "bad fault site '%s': expected LAUNCH:CTA:INDEX:REG:BIT (five unsigned integers)", text);
  return FALSE;
}

char *
ws_fault_site_to_string (const WsFaultSite *site)
{
  return g_strdup_printf ("%" G_GUINT64_FORMAT ":%" G_GUINT64_FORMAT ":%" G_GUINT64_FORMAT ":%u:%u", site->launch,
                          site->cta, site->index, site->reg_pick, site->bit_pick);
}

/* ---- site selection ---------------------------------------------------------------- */

WsFaultSite *
ws_fault_pick_sites (JsonNode *profile, guint n, guint64 seed, guint64 *space, GError **error)
{
  JsonObject *o = profile != NULL && JSON_NODE_HOLDS_OBJECT (profile) ? json_node_get_object (profile) : NULL;
  JsonArray *launches = o != NULL && json_object_has_member (o, "launches")
                          ? json_object_get_array_member (o, "launches")
                          : NULL;
  uint64_t total = 0;
  if (launches == NULL)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID, "the injection-space profile has no launches");
      return NULL;
    }
  for (guint i = 0; i < json_array_get_length (launches); i++)
    {
      JsonArray *ctas = json_object_get_array_member (json_array_get_object_element (launches, i), "ctas");
      for (guint c = 0; c < json_array_get_length (ctas); c++)
        total += (uint64_t) json_array_get_int_element (ctas, c);
    }
  if (space)
    *space = total;
  if (total == 0)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID,
                   "the program executed no register-writing instruction on the emulator: nothing to inject into");
      return NULL;
    }
  gsl_rng *r = gsl_rng_alloc (gsl_rng_mt19937);
  gsl_rng_set (r, (unsigned long) seed);
  WsFaultSite *sites = g_new0 (WsFaultSite, MAX (n, 1));
  for (guint s = 0; s < n; s++)
    {
      uint64_t k;
      if (total - 1 <= gsl_rng_max (r))
        k = gsl_rng_uniform_int (r, (unsigned long) total);
      else
        {
          /* spaces beyond 2^32: two 32-bit draws (bias below 2^-32 relative) */
          uint64_t hi = gsl_rng_get (r), lo = gsl_rng_get (r);
          k = ((hi << 32) | lo) % total;
        }
      sites[s].reg_pick = (uint32_t) gsl_rng_get (r);
      sites[s].bit_pick = (uint32_t) gsl_rng_get (r);
      for (guint i = 0; i < json_array_get_length (launches); i++)
        {
          JsonArray *ctas = json_object_get_array_member (json_array_get_object_element (launches, i), "ctas");
          gboolean found = FALSE;
          for (guint c = 0; c < json_array_get_length (ctas); c++)
            {
              uint64_t cnt = (uint64_t) json_array_get_int_element (ctas, c);
              if (k < cnt)
                {
                  sites[s].launch = i;
                  sites[s].cta = c;
                  sites[s].index = k;
                  found = TRUE;
                  break;
                }
              k -= cnt;
            }
          if (found)
            break;
        }
    }
  gsl_rng_free (r);
  return sites;
}
