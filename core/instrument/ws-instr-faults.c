/* ws-instr-faults.c: the in-emulator half of statistical fault injection
 * (seed 003 §8, Fig. 10).
 *
 * "faults-profile" measures the injection space: per launch and per CTA,
 * the thread-level executions of register-writing instructions (one per
 * executing lane).  "faults-inject" flips one bit at one such execution:
 * the site names the launch, the CTA and the index of the execution within
 * the CTA.  A CTA's instructions run in a fixed order on one thread, so the
 * same site hits the same dynamic instruction in parallel and deterministic
 * runs.  The campaign (choosing sites, running the program, classifying the
 * outcomes) is `warpscope-cli tool faults`. */
#define G_LOG_DOMAIN "ws-instrument"

#include "instrument/ws-instrument-private.h"

#include <stdlib.h>
#include <gsl/gsl_rng.h>
#include <string.h>

/* ---- profile ------------------------------------------------------------------- */

typedef struct {
  char *kernel;
  uint64_t n_ctas;
  uint64_t *counts;
} LaunchSpace;

typedef struct {
  GPtrArray *launches;   /* LaunchSpace*, by launch index */
  LaunchSpace *cur;
} Profile;

typedef struct {
  LaunchSpace *ls;
  uint64_t cta, count;
} ProfileCta;

static void
launch_space_free (gpointer p)
{
  LaunchSpace *ls = p;
  g_free (ls->kernel);
  g_free (ls->counts);
  g_free (ls);
}

static void
profile_launch_begin (gpointer tool, const WsInstrLaunch *launch)
{
  Profile *pr = tool;
  LaunchSpace *ls = g_new0 (LaunchSpace, 1);
  ls->kernel = g_strdup (launch->kernel);
  ls->n_ctas = launch->n_ctas;
  ls->counts = g_new0 (uint64_t, MAX (launch->n_ctas, 1));
  g_ptr_array_add (pr->launches, ls);
  pr->cur = ls;
}

static gpointer
profile_cta_begin (gpointer tool, const WsInstrLaunch *launch, uint64_t cta)
{
  Profile *pr = tool;
  ProfileCta *pc = g_new0 (ProfileCta, 1);
  (void) launch;
  pc->ls = pr->cur;
  pc->cta = cta;
  return pc;
}

static void
profile_cta_end (gpointer tool, const WsInstrLaunch *launch, gpointer data)
{
  ProfileCta *pc = data;
  (void) tool;
  (void) launch;
  pc->ls->counts[pc->cta] = pc->count;   /* one writer per CTA slot: no lock */
  g_free (pc);
}

static void
profile_after (gpointer tool, gpointer data, WsInstrInst *x)
{
  ProfileCta *pc = data;
  (void) tool;
  pc->count += (uint64_t) __builtin_popcount (x->will_execute);
}

static JsonNode *
profile_result (gpointer tool)
{
  Profile *pr = tool;
  uint64_t total = 0;
  g_autoptr (JsonBuilder) jb = json_builder_new ();
  json_builder_begin_object (jb);
  json_builder_set_member_name (jb, "launches");
  json_builder_begin_array (jb);
  for (guint i = 0; i < pr->launches->len; i++)
    {
      LaunchSpace *ls = g_ptr_array_index (pr->launches, i);
      json_builder_begin_object (jb);
      json_builder_set_member_name (jb, "kernel");
      json_builder_add_string_value (jb, ls->kernel);
      json_builder_set_member_name (jb, "ctas");
      json_builder_begin_array (jb);
      for (uint64_t c = 0; c < ls->n_ctas; c++)
        {
          json_builder_add_int_value (jb, (gint64) ls->counts[c]);
          total += ls->counts[c];
        }
      json_builder_end_array (jb);
      json_builder_end_object (jb);
    }
  json_builder_end_array (jb);
  json_builder_set_member_name (jb, "total");
  json_builder_add_int_value (jb, (gint64) total);
  json_builder_end_object (jb);
  return json_builder_get_root (jb);
}

static void
profile_free (gpointer tool)
{
  Profile *pr = tool;
  g_ptr_array_free (pr->launches, TRUE);
  g_free (pr);
}

void
ws_instr_add_faults_profile (WsInstrument *ins)
{
  static const WsInstrTool vt = {
    .name = "faults-profile",
    .after_reg_writes = TRUE,
    .launch_begin = profile_launch_begin,
    .cta_begin = profile_cta_begin,
    .cta_end = profile_cta_end,
    .after = profile_after,
    .result = profile_result,
    .free = profile_free,
  };
  Profile *pr = g_new0 (Profile, 1);
  pr->launches = g_ptr_array_new_with_free_func (launch_space_free);
  ws_instrument_add (ins, &vt, pr);
}

/* ---- injection ----------------------------------------------------------------- */

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
  return g_strdup_printf ("%" G_GUINT64_FORMAT ":%" G_GUINT64_FORMAT ":%" G_GUINT64_FORMAT ":%u:%u",
                          site->launch, site->cta, site->index, site->reg_pick, site->bit_pick);
}

typedef struct {
  WsFaultSite site;
  gboolean armed;        /* the running launch is the site's */
  gboolean injected;
  char *kernel;
  uint32_t ptx_line, source_line, lane, bit;
  gboolean predicate;
  guint destination;
  uint64_t before, after;
} Inject;

typedef struct {
  uint64_t count;
} InjectCta;

static void
inject_launch_begin (gpointer tool, const WsInstrLaunch *launch)
{
  Inject *ij = tool;
  ij->armed = launch->index == ij->site.launch && !ij->injected;
  if (ij->armed)
    {
      g_free (ij->kernel);
      ij->kernel = g_strdup (launch->kernel);
    }
}

static gpointer
inject_cta_begin (gpointer tool, const WsInstrLaunch *launch, uint64_t cta)
{
  Inject *ij = tool;
  (void) launch;
  return ij->armed && cta == ij->site.cta ? g_new0 (InjectCta, 1) : NULL;
}

static void
inject_cta_end (gpointer tool, const WsInstrLaunch *launch, gpointer data)
{
  (void) tool;
  (void) launch;
  g_free (data);
}

static void
inject_after (gpointer tool, gpointer data, WsInstrInst *x)
{
  Inject *ij = tool;
  InjectCta *ic = data;
  uint32_t m = x->will_execute;
  uint64_t n;
  if (ic == NULL || m == 0)
    return;
  n = (uint64_t) __builtin_popcount (m);
  if (ij->site.index >= ic->count && ij->site.index < ic->count + n && !ij->injected)
    {
      /* the (index - count)-th executing lane */
      uint64_t k = ij->site.index - ic->count;
      uint32_t mm = m;
      for (uint64_t i = 0; i < k; i++)
        mm &= mm - 1;
      int lane = __builtin_ctz (mm);
      guint total = x->n_dst + x->n_pdst;
      guint r = ij->site.reg_pick % total;
      ij->injected = TRUE;
      ij->ptx_line = x->ptx_line;
      ij->source_line = x->source_line;
      ij->lane = (uint32_t) lane;
      ij->destination = r;
      if (r < x->n_dst)
        {
          uint32_t bit = ij->site.bit_pick % x->dst_bits[r];
          ij->predicate = FALSE;
          ij->bit = bit;
          ij->before = x->dst[r][lane];
          x->dst[r][lane] ^= 1ull << bit;
          ij->after = x->dst[r][lane];
        }
      else
        {
          uint32_t *p = x->pdst[r - x->n_dst];
          ij->predicate = TRUE;
          ij->bit = 0;
          ij->before = *p >> lane & 1;
          *p ^= 1u << lane;
          ij->after = *p >> lane & 1;
        }
    }
  ic->count += n;
}

static JsonNode *
inject_result (gpointer tool)
{
  Inject *ij = tool;
  g_autofree char *site = ws_fault_site_to_string (&ij->site);
  g_autoptr (JsonBuilder) jb = json_builder_new ();
  json_builder_begin_object (jb);
  json_builder_set_member_name (jb, "site");
  json_builder_add_string_value (jb, site);
  json_builder_set_member_name (jb, "injected");
  json_builder_add_boolean_value (jb, ij->injected);
  if (ij->injected)
    {
      json_builder_set_member_name (jb, "kernel");
      json_builder_add_string_value (jb, ij->kernel);
      json_builder_set_member_name (jb, "ptx_line");
      json_builder_add_int_value (jb, ij->ptx_line);
      json_builder_set_member_name (jb, "source_line");
      json_builder_add_int_value (jb, ij->source_line);
      json_builder_set_member_name (jb, "lane");
      json_builder_add_int_value (jb, ij->lane);
      json_builder_set_member_name (jb, "predicate");
      json_builder_add_boolean_value (jb, ij->predicate);
      json_builder_set_member_name (jb, "destination");
      json_builder_add_int_value (jb, ij->destination);
      json_builder_set_member_name (jb, "bit");
      json_builder_add_int_value (jb, ij->bit);
      json_builder_set_member_name (jb, "value_before");
      json_builder_add_int_value (jb, (gint64) ij->before);
      json_builder_set_member_name (jb, "value_after");
      json_builder_add_int_value (jb, (gint64) ij->after);
    }
  json_builder_end_object (jb);
  return json_builder_get_root (jb);
}

static void
inject_free (gpointer tool)
{
  Inject *ij = tool;
  g_free (ij->kernel);
  g_free (ij);
}

void
ws_instrument_add_fault_injector (WsInstrument *ins, const WsFaultSite *site)
{
  static const WsInstrTool vt = {
    .name = "faults-inject",
    .after_reg_writes = TRUE,
    .launch_begin = inject_launch_begin,
    .cta_begin = inject_cta_begin,
    .cta_end = inject_cta_end,
    .after = inject_after,
    .result = inject_result,
    .free = inject_free,
  };
  Inject *ij = g_new0 (Inject, 1);
  ij->site = *site;
  ws_instrument_add (ins, &vt, ij);
}

/* ---- site selection ---------------------------------------------------------------- */

WsFaultSite *
ws_fault_pick_sites (JsonNode *profile, guint n, guint64 seed, guint64 *space, GError **error)
{
  JsonObject *o = profile != NULL && JSON_NODE_HOLDS_OBJECT (profile) ? json_node_get_object (profile) : NULL;
  JsonArray *launches = o != NULL && json_object_has_member (o, "launches")
                          ? json_object_get_array_member (o, "launches") : NULL;
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
