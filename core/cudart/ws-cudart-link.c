/* ws-cudart-link.c: joins the PTX of a -rdc=true program's translation units
 * into one module the emulator loads (what nvlink does for SASS).
 *
 *  - one .version/.target/.address_size header (the first unit's);
 *  - `.extern .func` declarations of functions another unit defines become
 *    `.visible` forward declarations (ptxas accepts a visible declaration
 *    followed by the visible definition);
 *  - `.extern` declarations of variables another unit defines are replaced
 *    by that definition when the definition comes later (so the variable is
 *    declared before its first use, and there is one variable, not two),
 *    and dropped when it came earlier;
 *  - module-scope names without linkage (e.g. printf's `$str`; nvcc already
 *    makes static __device__ names unique with __nv_static_ prefixes) that
 *    clash with an earlier unit's get a `_wsu<N>` suffix in unit N. */
#define G_LOG_DOMAIN "ws-cudart"

#include "cudart/ws-cudart-private.h"

#include <string.h>

char *ws_cudart_link_ptx (GPtrArray *units);

static gboolean
ident_start (char c)
{
  return g_ascii_isalpha (c) || c == '_' || c == '$' || c == '%';
}

static gboolean
ident_char (char c)
{
  return g_ascii_isalnum (c) || c == '_' || c == '$';
}

/* The function name of a ".func"/".entry" header line, after the keyword. */
static char *
func_name_after (const char *p)
{
  while (*p == ' ' || *p == '\t')
    p++;
  if (*p == '(')
    {
      const char *q = strchr (p, ')');
      if (q == NULL)
        return NULL;
      p = q + 1;
      while (*p == ' ' || *p == '\t')
        p++;
    }
  const char *s = p;
  while (ident_char (*p) || (p == s && ident_start (*p)))
    p++;
  return p > s ? g_strndup (s, p - s) : NULL;
}

/* The variable name of a module-scope ".global/.const/.shared" line. */
static char *
var_name (const char *line)
{
  g_auto (GStrv) words = g_strsplit_set (line, " \t", -1);
  for (guint i = 0; words[i] != NULL; i++)
    {
      const char *w = words[i];
      if (*w == 0 || *w == '.' || !ident_start (*w) || g_ascii_isdigit (*w))
        continue;
      gsize n = 0;
      while (ident_char (w[n]) || (n == 0 && ident_start (w[n])))
        n++;
      return n > 0 ? g_strndup (w, n) : NULL;
    }
  return NULL;
}

typedef struct {
  GPtrArray *lines;     /* char* of the unit, header removed for N > 0 */
  GHashTable *defined;  /* visible/weak functions and variables it defines */
  GHashTable *internal; /* module-scope names without linkage */
  GHashTable *var_defs; /* visible variable name -> first line index (GUINT_TO_POINTER (i + 1)) */
  GHashTable *rename;   /* internal names renamed in this unit */
  char *suffix;
} Unit;

static void
unit_scan (Unit *u, const char *ptx)
{
  u->lines = g_ptr_array_new_with_free_func (g_free);
  u->defined = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  u->internal = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  u->var_defs = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  u->rename = g_hash_table_new (g_str_hash, g_str_equal);
  g_auto (GStrv) lines = g_strsplit (ptx, "\n", -1);
  int depth = 0;
  for (guint i = 0; lines[i] != NULL; i++)
    {
      char *l = lines[i];
      const char *t = l;
      while (*t == ' ' || *t == '\t')
        t++;
      if (depth == 0)
        {
          char *name = NULL;
          if (g_str_has_prefix (t, ".visible .func") || g_str_has_prefix (t, ".weak .func"))
            {
              name = func_name_after (strstr (t, ".func") + 5);
              /* A definition (not a prototype) has a body; prototypes end in ';'
               * at depth 0 and are harmless either way. */
              if (name != NULL)
                g_hash_table_add (u->defined, name);
            }
          else if (g_str_has_prefix (t, ".func"))
            {
              name = func_name_after (t + 5);
              if (name != NULL)
                g_hash_table_add (u->internal, name);
            }
          else if (g_str_has_prefix (t, ".visible .global") || g_str_has_prefix (t, ".visible .const")
                   || g_str_has_prefix (t, ".weak .global"))
            {
              name = var_name (t);
              if (name != NULL)
                {
                  g_hash_table_insert (u->var_defs, g_strdup (name), GUINT_TO_POINTER (u->lines->len + 1));
                  g_hash_table_add (u->defined, name);
                }
            }
          else if (g_str_has_prefix (t, ".global") || g_str_has_prefix (t, ".const") || g_str_has_prefix (t, ".shared"))
            {
              name = var_name (t);
              if (name != NULL)
                g_hash_table_add (u->internal, name);
            }
        }
      for (const char *c = l; *c; c++)
        depth += *c == '{' ? 1 : *c == '}' ? -1 : 0;
      g_ptr_array_add (u->lines, g_strdup (l));
    }
}

static void
unit_clear (Unit *u)
{
  g_ptr_array_unref (u->lines);
  g_hash_table_unref (u->defined);
  g_hash_table_unref (u->internal);
  g_hash_table_unref (u->var_defs);
  g_hash_table_unref (u->rename);
  g_free (u->suffix);
}

/* Appends @line with the identifiers in @rename given @suffix. */
static void
append_renamed (GString *out, const char *line, GHashTable *rename, const char *suffix)
{
  const char *p = line;
  while (*p)
    {
      if (ident_start (*p) && (p == line || !ident_char (p[-1])))
        {
          const char *s = p++;
          while (ident_char (*p))
            p++;
          g_autofree char *word = g_strndup (s, p - s);
          g_string_append (out, word);
          if (g_hash_table_contains (rename, word))
            g_string_append (out, suffix);
          continue;
        }
      g_string_append_c (out, *p++);
    }
}

static gboolean
is_ws (char c)
{
  return c == ' ' || c == '\t';
}

static const char *
skip_ws (const char *t)
{
  while (is_ws (*t))
    t++;
  return t;
}

/* Appends the statement starting at line @start of @u (up to the line
 * holding its ';'); returns the index after it. */
static guint
append_statement (GString *out, Unit *u, guint start)
{
  guint j = start;
  for (; j < u->lines->len; j++)
    {
      const char *l = u->lines->pdata[j];
      append_renamed (out, l, u->rename, u->suffix);
      g_string_append_c (out, '\n');
      if (strchr (l, ';') != NULL)
        break;
    }
  return j + 1;
}

/* Index after the statement starting at @start (without emitting it). */
static guint
statement_end (Unit *u, guint start)
{
  guint j = start;
  while (j < u->lines->len && strchr (u->lines->pdata[j], ';') == NULL)
    j++;
  return j + 1;
}

char *
ws_cudart_link_ptx (GPtrArray *units)
{
  guint n = units->len;
  Unit *u = g_new0 (Unit, n);
  for (guint i = 0; i < n; i++)
    unit_scan (&u[i], ((WsFatbinPtx *) units->pdata[i])->ptx);

  g_autoptr (GHashTable) all_defined = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GHashTable) var_owner = g_hash_table_new (g_str_hash, g_str_equal); /* name -> unit + 1 */
  for (guint i = 0; i < n; i++)
    {
      GHashTableIter it;
      gpointer key;
      g_hash_table_iter_init (&it, u[i].defined);
      while (g_hash_table_iter_next (&it, &key, NULL))
        g_hash_table_add (all_defined, key);
      g_hash_table_iter_init (&it, u[i].var_defs);
      while (g_hash_table_iter_next (&it, &key, NULL))
        if (!g_hash_table_contains (var_owner, key))
          g_hash_table_insert (var_owner, key, GUINT_TO_POINTER (i + 1));
    }
  /* Internal names an earlier unit already uses (or that a visible name
   * elsewhere takes) are renamed in the later unit. */
  g_autoptr (GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  for (guint i = 0; i < n; i++)
    {
      u[i].suffix = g_strdup_printf ("_wsu%u", i);
      GHashTableIter it;
      gpointer key;
      g_hash_table_iter_init (&it, u[i].internal);
      while (g_hash_table_iter_next (&it, &key, NULL))
        if (g_hash_table_contains (seen, key) || g_hash_table_contains (all_defined, key))
          g_hash_table_add (u[i].rename, key);
      g_hash_table_iter_init (&it, u[i].internal);
      while (g_hash_table_iter_next (&it, &key, NULL))
        g_hash_table_add (seen, key);
      g_hash_table_iter_init (&it, u[i].defined);
      while (g_hash_table_iter_next (&it, &key, NULL))
        g_hash_table_add (seen, key);
    }

  GString *out = g_string_new (NULL);
  g_autoptr (GHashTable) emitted = g_hash_table_new (g_str_hash, g_str_equal); /* hoisted definitions */
  for (guint i = 0; i < n; i++)
    {
      guint j = 0;
      while (j < u[i].lines->len)
        {
          const char *l = u[i].lines->pdata[j];
          const char *t = skip_ws (l);
          if (i > 0
              && (g_str_has_prefix (t, ".version") || g_str_has_prefix (t, ".target")
                  || g_str_has_prefix (t, ".address_size")))
            {
              j++;
              continue;
            }
          if (g_str_has_prefix (t, ".extern .func"))
            {
              g_autofree char *name = func_name_after (t + strlen (".extern .func"));
              if (name != NULL && g_hash_table_contains (all_defined, name))
                {
                  g_string_append (out, ".visible");
                  append_renamed (out, t + strlen (".extern"), u[i].rename, u[i].suffix);
                  g_string_append_c (out, '\n');
                  j++;
                  continue;
                }
            }
          if (g_str_has_prefix (t, ".extern .global") || g_str_has_prefix (t, ".extern .const"))
            {
              g_autofree char *name = var_name (t);
              guint owner = name != NULL ? GPOINTER_TO_UINT (g_hash_table_lookup (var_owner, name)) : 0;
              if (owner != 0)
                {
                  Unit *d = &u[owner - 1];
                  gpointer key = NULL, line = NULL;
                  g_hash_table_lookup_extended (d->var_defs, name, &key, &line);
                  if (owner - 1 > i && !g_hash_table_contains (emitted, key))
                    {
                      append_statement (out, d, GPOINTER_TO_UINT (line) - 1);
                      g_hash_table_add (emitted, key);
                    }
                  j = statement_end (&u[i], j);
                  continue;
                }
            }
          if (g_str_has_prefix (t, ".visible .global") || g_str_has_prefix (t, ".visible .const")
              || g_str_has_prefix (t, ".weak .global"))
            {
              g_autofree char *name = var_name (t);
              gpointer key = NULL;
              if (name != NULL && g_hash_table_lookup_extended (u[i].var_defs, name, &key, NULL)
                  && g_hash_table_contains (emitted, key))
                {
                  j = statement_end (&u[i], j); /* already hoisted to its first use */
                  continue;
                }
            }
          append_renamed (out, l, u[i].rename, u[i].suffix);
          g_string_append_c (out, '\n');
          j++;
        }
    }
  for (guint i = 0; i < n; i++)
    unit_clear (&u[i]);
  g_free (u);
  return g_string_free (out, FALSE);
}
