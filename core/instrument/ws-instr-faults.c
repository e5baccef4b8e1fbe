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

#include "instrument/ws-instr-builtins.h"

#include <glib.h>
#include <json-glib/json-glib.h>
#include <string.h>

/* ---- profile ------------------------------------------------------------------- */

typedef struct {
  char *kernel;
  uint64_t n_ctas;
  uint64_t *counts;
} LaunchSpace;

typedef struct {
  const WsInstrHost *host;
  WsInstrHostContext *ctx;
  GPtrArray *launches; /* LaunchSpace*, by launch index */
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
profile_launch_begin (void *tool, const WsInstrLaunchInfo *launch)
{
  Profile *pr = tool;
  LaunchSpace *ls = g_new0 (LaunchSpace, 1);
  ls->kernel = g_strdup (launch->kernel);
  ls->n_ctas = launch->n_ctas;
  ls->counts = g_new0 (uint64_t, MAX (launch->n_ctas, 1));
  g_ptr_array_add (pr->launches, ls);
  pr->cur = ls;
}

static void *
profile_cta_begin (void *tool, const WsInstrLaunchInfo *launch, uint64_t cta)
{
  Profile *pr = tool;
  ProfileCta *pc = g_new0 (ProfileCta, 1);
  (void) launch;
  pc->ls = pr->cur;
  pc->cta = cta;
  return pc;
}

static void
profile_cta_end (void *tool, const WsInstrLaunchInfo *launch, void *data)
{
  ProfileCta *pc = data;
  (void) tool;
  (void) launch;
  pc->ls->counts[pc->cta] = pc->count; /* one writer per CTA slot: no lock */
  g_free (pc);
}

static void
profile_after (void *tool, void *data, WsInstrSite *x)
{
  ProfileCta *pc = data;
  (void) tool;
  pc->count += (uint64_t) __builtin_popcount (x->will_execute);
}

static void
profile_result (void *tool)
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
  g_autoptr (JsonNode) root = json_builder_get_root (jb);
  g_autofree char *text = json_to_string (root, FALSE);
  pr->host->set_result_json (pr->ctx, text);
}

static void
profile_free (void *tool)
{
  Profile *pr = tool;
  g_ptr_array_free (pr->launches, TRUE);
  g_free (pr);
}

static void *
profile_init (const WsInstrHost *host, WsInstrHostContext *ctx, const char *args)
{
  Profile *pr = g_new0 (Profile, 1);
  (void) args;
  pr->host = host;
  pr->ctx = ctx;
  pr->launches = g_ptr_array_new_with_free_func (launch_space_free);
  return pr;
}

const WsInstrHandler *
ws_instr_faults_profile_handler (void)
{
  static const WsInstrHandler h = {
    .abi_version = WS_INSTR_SDK_ABI_VERSION,
    .size = sizeof (WsInstrHandler),
    .api_version = WS_INSTR_SDK_API_VERSION,
    .name = "faults-profile",
    .version = "1",
    .description = "fault-injection space: thread-level register writes per CTA (seed 003 section 8)",
    .after_where = WS_INSTR_SDK_AT_REG_WRITE,
    .init = profile_init,
    .launch_begin = profile_launch_begin,
    .cta_begin = profile_cta_begin,
    .cta_end = profile_cta_end,
    .after = profile_after,
    .result = profile_result,
    .teardown = profile_free,
  };
  return &h;
}

/* ---- injection ----------------------------------------------------------------- */

/* LAUNCH:CTA:INDEX:REG:BIT (ws-fault-sites.c has the host's copy of this form) */
typedef struct {
  uint64_t launch, cta, index;
  uint32_t reg_pick, bit_pick;
} Site;

typedef struct {
  const WsInstrHost *host;
  WsInstrHostContext *ctx;
  char *site_text;
  Site site;
  gboolean armed; /* the running launch is the site's */
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
inject_launch_begin (void *tool, const WsInstrLaunchInfo *launch)
{
  Inject *ij = tool;
  ij->armed = launch->index == ij->site.launch && !ij->injected;
  if (ij->armed)
    {
      g_free (ij->kernel);
      ij->kernel = g_strdup (launch->kernel);
    }
}

static void *
inject_cta_begin (void *tool, const WsInstrLaunchInfo *launch, uint64_t cta)
{
  Inject *ij = tool;
  (void) launch;
  return ij->armed && cta == ij->site.cta ? g_new0 (InjectCta, 1) : NULL;
}

static void
inject_cta_end (void *tool, const WsInstrLaunchInfo *launch, void *data)
{
  (void) tool;
  (void) launch;
  g_free (data);
}

static void
inject_after (void *tool, void *data, WsInstrSite *x)
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

static void
inject_result (void *tool)
{
  Inject *ij = tool;
  const char *site = ij->site_text;
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
  g_autoptr (JsonNode) root = json_builder_get_root (jb);
  g_autofree char *text = json_to_string (root, FALSE);
  ij->host->set_result_json (ij->ctx, text);
}

static void
inject_free (void *tool)
{
  Inject *ij = tool;
  g_free (ij->kernel);
  g_free (ij->site_text);
  g_free (ij);
}

static void *
inject_init (const WsInstrHost *host, WsInstrHostContext *ctx, const char *args)
{
  guint64 v[5];
  g_auto (GStrv) parts = g_strsplit (args, ":", -1);
  if (g_strv_length (parts) != 5)
    goto bad;
  for (int i = 0; i < 5; i++)
    if (!g_ascii_string_to_unsigned (parts[i], 10, 0, G_MAXUINT64, &v[i], NULL))
      goto bad;
  Inject *ij = g_new0 (Inject, 1);
  ij->host = host;
  ij->ctx = ctx;
  ij->site_text = g_strdup (args);
  ij->site.launch = v[0];
  ij->site.cta = v[1];
  ij->site.index = v[2];
  ij->site.reg_pick = (uint32_t) v[3];
  ij->site.bit_pick = (uint32_t) v[4];
  return ij;
bad:
  {
    g_autofree char *msg = g_strdup_printf ("bad fault site '%s': expected LAUNCH:CTA:INDEX:REG:BIT "
                                            "(five unsigned integers)",
                                            args);
    host->fail (ctx, msg);
    return NULL;
  }
}

const WsInstrHandler *
ws_instr_faults_inject_handler (void)
{
  static const WsInstrHandler h = {
    .abi_version = WS_INSTR_SDK_ABI_VERSION,
    .size = sizeof (WsInstrHandler),
    .api_version = WS_INSTR_SDK_API_VERSION,
    .name = "faults-inject",
    .version = "1",
    .description = "flips one bit of one register write (seed 003 section 8); args: LAUNCH:CTA:INDEX:REG:BIT",
    .after_where = WS_INSTR_SDK_AT_REG_WRITE,
    .init = inject_init,
    .launch_begin = inject_launch_begin,
    .cta_begin = inject_cta_begin,
    .cta_end = inject_cta_end,
    .after = inject_after,
    .result = inject_result,
    .teardown = inject_free,
  };
  return &h;
}
