/* opcode-histogram.c: an instrumentation handler for Warpscope's emulator,
 * built out of tree against the SDK alone:
 *
 *   cc -shared -fPIC -o opcode-histogram.so opcode-histogram.c \
 *      $(pkg-config --cflags warpscope-instrument) -lpthread
 *   warpscope-cli tool run ./opcode-histogram.so -- ./prog args
 *   warpscope-cli tool run ./opcode-histogram.so:ops=ld,st -- ./prog args
 *
 * Before every instruction (or, with ops=LIST, before those opcodes only)
 * it counts warp-level executions (warps that issued it) and thread-level
 * executions (lanes whose guard was true) per PTX opcode.  The result is a
 * JSON object, and a text table in PREFIX.opcode-histogram.txt next to it.
 *
 * Counters live in per-thread-block data (no locks while a block runs) and
 * are summed into the totals under a mutex when the block ends: sums do not
 * depend on the order, so any number of emulator threads gives the same
 * result. */
#include <ws-instrument-sdk.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  char *opcode;
  unsigned long long warp, thread;
} Count;

typedef struct {
  const WsInstrHost *host;
  WsInstrHostContext *ctx;
  pthread_mutex_t lock;
  /* the running launch: opcode of each static instruction */
  const char **op_of_id;
  uint32_t n_insts;
  Count *counts; /* per distinct opcode, whole program */
  size_t n_counts;
} Histogram;

typedef struct {
  uint32_t n;
  unsigned long long *warp, *thread; /* per static instruction id */
} BlockCounts;

static Count *
count_for (Histogram *h, const char *opcode)
{
  for (size_t i = 0; i < h->n_counts; i++)
    if (strcmp (h->counts[i].opcode, opcode) == 0)
      return &h->counts[i];
  h->counts = realloc (h->counts, (h->n_counts + 1) * sizeof *h->counts);
  h->counts[h->n_counts] = (Count){ strdup (opcode), 0, 0 };
  return &h->counts[h->n_counts++];
}

static void *
hist_init (const WsInstrHost *host, WsInstrHostContext *ctx, const char *args)
{
  Histogram *h = calloc (1, sizeof *h);
  h->host = host;
  h->ctx = ctx;
  pthread_mutex_init (&h->lock, NULL);
  if (strncmp (args, "ops=", 4) == 0)
    {
      if (host->filter_opcodes (ctx, args + 4) != 0)
        {
          free (h);
          return NULL; /* the host has the message */
        }
    }
  else if (*args != '\0')
    {
      host->fail (ctx, "unknown argument: use ops=OPCODE,OPCODE,... or nothing");
      free (h);
      return NULL;
    }
  return h;
}

static void
hist_launch_begin (void *tool, const WsInstrLaunchInfo *launch)
{
  Histogram *h = tool;
  h->n_insts = launch->n_insts;
  h->op_of_id = realloc (h->op_of_id, (launch->n_insts + 1) * sizeof *h->op_of_id);
  for (uint32_t id = 0; id < launch->n_insts; id++)
    {
      WsInstrStaticInfo si = { .size = sizeof si };
      h->op_of_id[id] = h->host->inst_static (h->ctx, launch, id, &si) == 0 ? si.opcode : "?";
    }
}

static void *
hist_cta_begin (void *tool, const WsInstrLaunchInfo *launch, uint64_t cta)
{
  BlockCounts *b = calloc (1, sizeof *b);
  (void) tool;
  (void) cta;
  b->n = launch->n_insts;
  b->warp = calloc (launch->n_insts + 1, sizeof *b->warp);
  b->thread = calloc (launch->n_insts + 1, sizeof *b->thread);
  return b;
}

static void
hist_before (void *tool, void *cta_data, const WsInstrSite *site)
{
  BlockCounts *b = cta_data;
  (void) tool;
  b->warp[site->id]++;
  b->thread[site->id] += (unsigned long long) __builtin_popcount (site->will_execute);
}

static void
hist_cta_end (void *tool, const WsInstrLaunchInfo *launch, void *cta_data)
{
  Histogram *h = tool;
  BlockCounts *b = cta_data;
  (void) launch;
  pthread_mutex_lock (&h->lock);
  for (uint32_t id = 0; id < b->n; id++)
    if (b->warp[id] != 0)
      {
        Count *c = count_for (h, h->op_of_id[id]);
        c->warp += b->warp[id];
        c->thread += b->thread[id];
      }
  pthread_mutex_unlock (&h->lock);
  free (b->warp);
  free (b->thread);
  free (b);
}

static int
by_warp_desc (const void *a, const void *b)
{
  const Count *x = a, *y = b;
  if (x->warp != y->warp)
    return x->warp < y->warp ? 1 : -1;
  return strcmp (x->opcode, y->opcode);
}

static void
hist_result (void *tool)
{
  Histogram *h = tool;
  unsigned long long warp = 0, thread = 0;
  size_t cap = 256 + h->n_counts * 96, len = 0;
  char *json = malloc (cap);
  const char *prefix = h->host->output_prefix (h->ctx);
  FILE *txt = NULL;
  if (prefix != NULL)
    {
      char path[4096];
      snprintf (path, sizeof path, "%s.txt", prefix);
      txt = fopen (path, "w");
      if (txt == NULL)
        h->host->warn (h->ctx, "cannot write the text table next to the result");
    }
  qsort (h->counts, h->n_counts, sizeof *h->counts, by_warp_desc);
  len += (size_t) snprintf (json + len, cap - len, "{\"opcodes\":[");
  for (size_t i = 0; i < h->n_counts; i++)
    {
      const Count *c = &h->counts[i];
      len += (size_t) snprintf (json + len, cap - len,
                                "%s{\"opcode\":\"%s\",\"warp_instructions\":%llu,\"thread_instructions\":%llu}",
                                i ? "," : "", c->opcode, c->warp, c->thread);
      warp += c->warp;
      thread += c->thread;
      if (txt != NULL)
        fprintf (txt, "%-12s %14llu %16llu\n", c->opcode, c->warp, c->thread);
    }
  snprintf (json + len, cap - len, "],\"warp_instructions\":%llu,\"thread_instructions\":%llu}", warp, thread);
  h->host->set_result_json (h->ctx, json);
  free (json);
  if (txt != NULL)
    fclose (txt);
}

static void
hist_teardown (void *tool)
{
  Histogram *h = tool;
  for (size_t i = 0; i < h->n_counts; i++)
    free (h->counts[i].opcode);
  free (h->counts);
  free (h->op_of_id);
  pthread_mutex_destroy (&h->lock);
  free (h);
}

WS_INSTR_SDK_EXPORT const WsInstrHandler *ws_instr_handler_query (void);

WS_INSTR_SDK_EXPORT const WsInstrHandler *
ws_instr_handler_query (void)
{
  static const WsInstrHandler handler = {
    .abi_version = WS_INSTR_SDK_ABI_VERSION,
    .size = sizeof (WsInstrHandler),
    .api_version = WS_INSTR_SDK_API_VERSION,
    .name = "opcode-histogram",
    .version = "1.0",
    .description = "warp- and thread-level executions per PTX opcode",
    .before_where = WS_INSTR_SDK_AT_ALL,
    .init = hist_init,
    .launch_begin = hist_launch_begin,
    .cta_begin = hist_cta_begin,
    .cta_end = hist_cta_end,
    .before = hist_before,
    .result = hist_result,
    .teardown = hist_teardown,
  };
  return &handler;
}
