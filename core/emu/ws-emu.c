/* ws-emu.c: the emulated device: options, device heap, launches.
 *
 * A launch hands CTAs to worker threads through an atomic counter; each
 * worker owns the shared memory, local stacks and warp state of the CTA it
 * runs, so CTAs never share mutable state except device memory (atomics are
 * real host atomics).  printf output is buffered per CTA and printed at the
 * end of the launch in CTA order, so it is the same for every thread count. */
#define G_LOG_DOMAIN "ws-emu"

#include "emu/ws-emu-exec.h"
#include "emu/ws-emu-instrument.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define WS_EMU_HEAP_ALIGN 16

typedef struct {
  uint64_t off, size;
  gboolean used;
} HeapBlock;

typedef struct {
  uint64_t cta;
  GString *text;
} PrintfOut;

typedef struct {
  uint64_t cta;
  char *msg;
} FaultRecord;

/* Faults listed in a launch's error after the first (lowest block). */
#define WS_EMU_MAX_FAULTS_LISTED 16

static void
invalid_clear (gpointer data)
{
  WsEmuInvalidAccess *v = data;
  g_free (v->kernel);
  g_free (v->origin);
  g_free (v->instruction);
  g_free (v->detail);
}

WsEmu *
ws_emu_new (const WsEmuOptions *options, GError **error)
{
  WsEmu *emu;
  g_return_val_if_fail (options != NULL, NULL);
  if (options->mem == NULL)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID, "the emulator needs device memory (WsEmuOptions.mem is NULL)");
      return NULL;
    }
  emu = g_new0 (WsEmu, 1);
  emu->opt = *options;
  if (emu->opt.heap_bytes == 0)
    emu->opt.heap_bytes = 8u << 20;
  emu->modules = g_ptr_array_new_with_free_func ((GDestroyNotify) ws_emu_module_free);
  g_mutex_init (&emu->heap_lock);
  emu->heap_blocks = g_array_new (FALSE, FALSE, sizeof (HeapBlock));
  emu->invalid = g_array_new (FALSE, TRUE, sizeof (WsEmuInvalidAccess));
  emu->textures = g_array_new (FALSE, TRUE, sizeof (EmuTexSlot));
  emu->host_ranges = g_array_new (FALSE, FALSE, sizeof (uint64_t));
  g_array_set_clear_func (emu->invalid, invalid_clear);
  return emu;
}

void
ws_emu_free (WsEmu *emu)
{
  if (emu == NULL)
    return;
  if (emu->pool)
    g_thread_pool_free (emu->pool, FALSE, TRUE);
  g_ptr_array_free (emu->modules, TRUE);
  g_array_free (emu->heap_blocks, TRUE);
  g_array_free (emu->invalid, TRUE);
  g_array_free (emu->textures, TRUE);
  g_array_free (emu->host_ranges, TRUE);
  g_mutex_clear (&emu->heap_lock);
  g_free (emu);
}

/* ---- device heap (malloc/free in kernels) --------------------------------- */

gboolean
ws_emu_set_heap_bytes (WsEmu *emu, uint64_t bytes)
{
  g_return_val_if_fail (emu != NULL, FALSE);
  if (emu->heap_base)
    return FALSE;
  emu->opt.heap_bytes = bytes ? bytes : 8u << 20;
  return TRUE;
}

static gboolean
ensure_heap (WsEmu *emu, GError **error)
{
  HeapBlock b;
  if (emu->heap_base)
    return TRUE;
  emu->heap_base = ws_devmem_alloc (emu->opt.mem, emu->opt.heap_bytes, WS_ALLOC_HEAP, "device malloc heap", error);
  if (emu->heap_base == 0)
    return FALSE;
  emu->heap_size = emu->opt.heap_bytes;
  b.off = 0;
  b.size = emu->heap_size;
  b.used = FALSE;
  g_array_append_val (emu->heap_blocks, b);
  return TRUE;
}

/* First fit over address-ordered blocks: deterministic for a given order of
 * calls (the order between CTAs on different threads is not). */
uint64_t
ws_emu_heap_alloc (WsEmu *emu, uint64_t size)
{
  uint64_t need = (MAX (size, 1) + WS_EMU_HEAP_ALIGN - 1) / WS_EMU_HEAP_ALIGN * WS_EMU_HEAP_ALIGN;
  uint64_t result = 0;
  g_mutex_lock (&emu->heap_lock);
  for (guint i = 0; i < emu->heap_blocks->len; i++)
    {
      HeapBlock *b = &g_array_index (emu->heap_blocks, HeapBlock, i);
      if (b->used || b->size < need)
        continue;
      if (b->size > need)
        {
          HeapBlock rest = { b->off + need, b->size - need, FALSE };
          b->size = need;
          g_array_insert_val (emu->heap_blocks, i + 1, rest);
          b = &g_array_index (emu->heap_blocks, HeapBlock, i);
        }
      b->used = TRUE;
      result = emu->heap_base + b->off;
      memset ((void *) (uintptr_t) result, 0, need);
      break;
    }
  g_mutex_unlock (&emu->heap_lock);
  return result;
}

void
ws_emu_heap_free (WsEmu *emu, uint64_t addr)
{
  g_mutex_lock (&emu->heap_lock);
  for (guint i = 0; i < emu->heap_blocks->len; i++)
    {
      HeapBlock *b = &g_array_index (emu->heap_blocks, HeapBlock, i);
      if (emu->heap_base + b->off != addr || !b->used)
        continue;
      b->used = FALSE;
      if (i + 1 < emu->heap_blocks->len && !g_array_index (emu->heap_blocks, HeapBlock, i + 1).used)
        {
          b->size += g_array_index (emu->heap_blocks, HeapBlock, i + 1).size;
          g_array_remove_index (emu->heap_blocks, i + 1);
        }
      if (i > 0 && !g_array_index (emu->heap_blocks, HeapBlock, i - 1).used)
        {
          g_array_index (emu->heap_blocks, HeapBlock, i - 1).size += g_array_index (emu->heap_blocks, HeapBlock, i)
                                                                       .size;
          g_array_remove_index (emu->heap_blocks, i);
        }
      break;
    }
  g_mutex_unlock (&emu->heap_lock);
}

/* ---- faults ------------------------------------------------------------------ */

void
ws_emu_fault (Cta *c, Warp *w, uint32_t pc, int lane, WsCudaError cuda_error, const char *fmt, ...)
{
  Launch *L = c->L;
  va_list ap;
  g_autofree char *what = NULL;
  g_autofree char *inst = NULL;
  char *msg;
  const WsPtxModule *p = L->k->module->ptx;
  const WsPtxFunction *fn = w->fn->ptx;
  uint32_t tid = w->index * WS_EMU_WARP + (uint32_t) lane;
  uint32_t bx = L->block[0], by = L->block[1];
  uint32_t line = pc < fn->n_insts ? fn->insts[pc].line : fn->first_line;

  va_start (ap, fmt);
  what = g_strdup_vprintf (fmt, ap);
  va_end (ap);
  if (pc < fn->n_insts)
    inst = ws_ptx_inst_to_string (p, fn, &fn->insts[pc]);
  msg = g_strdup_printf ("%s\n  in kernel %s%s%s at %s:%u%s%s%s\n  block (%u,%u,%u), thread (%u,%u,%u)", what,
                         L->k->name, fn->is_entry ? "" : ", function ", fn->is_entry ? "" : fn->name,
                         L->k->module->origin, line, inst ? " (" : "", inst ? g_strstrip (inst) : "", inst ? ")" : "",
                         c->ctaid[0], c->ctaid[1], c->ctaid[2], tid % bx, (tid / bx) % by, tid / (bx * by));
  g_mutex_lock (&L->lock);
  {
    FaultRecord *r = g_new (FaultRecord, 1);
    r->cta = c->linear;
    r->msg = g_strdup (msg);
    g_ptr_array_add (L->faults, r);
  }
  if (!L->faulted || c->linear < L->fault_cta)
    {
      g_free (L->fault_msg);
      L->fault_msg = msg;
      L->fault_cta = c->linear;
      L->cuda_error = cuda_error;
      L->faulted = TRUE;
    }
  else
    g_free (msg);
  g_mutex_unlock (&L->lock);
  c->faulted = TRUE;
  g_atomic_int_set (&L->abort, 1);
}

/* Index of @id in a box of @dims, x fastest (CUDA's linear block/thread id). */
static guint64
linear_id (const uint32_t id[3], const uint32_t dims[3])
{
  return ((guint64) id[2] * dims[1] + id[1]) * dims[0] + id[0];
}

/* Report order: by the first occurrence's block, then thread, then line. */
static gint
cmp_invalid (gconstpointer a, gconstpointer b, gpointer data)
{
  const WsEmuInvalidAccess *x = a, *y = b;
  const Launch *L = data;
  guint64 bx = linear_id (x->block, L->grid), by = linear_id (y->block, L->grid);
  if (bx != by)
    return bx < by ? -1 : 1;
  guint64 tx = linear_id (x->thread, L->block), ty = linear_id (y->thread, L->block);
  if (tx != ty)
    return tx < ty ? -1 : 1;
  return x->ptx_line < y->ptx_line ? -1 : x->ptx_line > y->ptx_line;
}

void
ws_emu_record_invalid (Cta *c, Warp *w, uint32_t pc, int lane, const char *access, const char *space, uint32_t size,
                       uint64_t address, uint32_t lanes, char *detail)
{
  Launch *L = c->L;
  const WsPtxFunction *fn = w->fn->ptx;
  uint32_t line = pc < fn->n_insts ? fn->insts[pc].line : fn->first_line;
  uint32_t tid = w->index * WS_EMU_WARP + (uint32_t) lane;
  uint32_t bx = L->block[0], by = L->block[1];
  g_mutex_lock (&L->lock);
  for (guint i = 0; i < L->invalid->len; i++)
    {
      WsEmuInvalidAccess *v = &g_array_index (L->invalid, WsEmuInvalidAccess, i);
      if (v->ptx_line == line && strcmp (v->space, space) == 0 && strcmp (v->access, access) == 0
          && strcmp (v->origin, L->k->module->origin) == 0)
        {
          v->count += lanes;
          /* The occurrence named is the first in (block, thread) order,
           * not the first some worker thread happened to reach: the same
           * program gives the same report with any number of workers. */
          if (linear_id (c->ctaid, L->grid) < linear_id (v->block, L->grid)
              || (linear_id (c->ctaid, L->grid) == linear_id (v->block, L->grid)
                  && tid < linear_id (v->thread, L->block)))
            {
              memcpy (v->block, c->ctaid, sizeof v->block);
              v->thread[0] = tid % bx;
              v->thread[1] = (tid / bx) % by;
              v->thread[2] = tid / (bx * by);
              v->address = address;
              g_free (v->detail);
              v->detail = g_steal_pointer (&detail);
            }
          g_mutex_unlock (&L->lock);
          g_free (detail);
          return;
        }
    }
  WsEmuInvalidAccess v = { 0 };
  v.kernel = g_strdup (L->k->name);
  v.origin = g_strdup (L->k->module->origin);
  v.ptx_line = line;
  if (pc < fn->n_insts)
    {
      v.instruction = ws_ptx_inst_to_string (L->k->module->ptx, fn, &fn->insts[pc]);
      g_strstrip (v.instruction);
    }
  v.access = access;
  v.space = space;
  v.size = size;
  memcpy (v.block, c->ctaid, sizeof v.block);
  v.thread[0] = tid % bx;
  v.thread[1] = (tid / bx) % by;
  v.thread[2] = tid / (bx * by);
  v.address = address;
  v.detail = detail;
  v.count = lanes;
  v.launches = 1;
  g_array_append_val (L->invalid, v);
  g_mutex_unlock (&L->lock);
}

/* Adds a launch's invalid accesses to the emulator's list (merged by kernel,
 * PTX line and kind: the first occurrence is kept). */
static void
merge_invalid (WsEmu *emu, Launch *L, GArray *launch)
{
  g_array_sort_with_data (launch, cmp_invalid, L);
  for (guint i = 0; i < launch->len; i++)
    {
      WsEmuInvalidAccess *v = &g_array_index (launch, WsEmuInvalidAccess, i);
      gboolean merged = FALSE;
      for (guint j = 0; j < emu->invalid->len && !merged; j++)
        {
          WsEmuInvalidAccess *e = &g_array_index (emu->invalid, WsEmuInvalidAccess, j);
          if (e->ptx_line == v->ptx_line && strcmp (e->kernel, v->kernel) == 0 && strcmp (e->origin, v->origin) == 0
              && strcmp (e->space, v->space) == 0 && strcmp (e->access, v->access) == 0)
            {
              e->count += v->count;
              e->launches++;
              merged = TRUE;
            }
        }
      if (!merged)
        {
          g_array_append_val (emu->invalid, *v);
          memset (v, 0, sizeof *v); /* moved: the launch's array must not free it */
        }
    }
}

const WsEmuInvalidAccess *
ws_emu_get_invalid_accesses (WsEmu *emu, guint *n)
{
  g_return_val_if_fail (emu != NULL && n != NULL, NULL);
  *n = emu->invalid->len;
  return (const WsEmuInvalidAccess *) emu->invalid->data;
}

static gint
cmp_fault (gconstpointer a, gconstpointer b)
{
  const FaultRecord *x = *(FaultRecord *const *) a, *y = *(FaultRecord *const *) b;
  return x->cta < y->cta ? -1 : x->cta > y->cta;
}

static void
fault_record_free (gpointer data)
{
  FaultRecord *r = data;
  g_free (r->msg);
  g_free (r);
}

/* ---- workers --------------------------------------------------------------------- */

static void
cta_free (Cta *c)
{
  for (uint32_t i = 0; i < c->nwarps; i++)
    {
      g_free (c->warps[i].simt);
      g_free (c->warps[i].frames);
      g_free (c->warps[i].rstack);
      g_free (c->warps[i].pstack);
    }
  g_free (c->warps);
  g_free (c->shared);
  g_free (c->local);
}

static gpointer
worker_main (gpointer data)
{
  Launch *L = data;
  Cta c = { 0 };
  uint64_t winst = 0, tinst = 0;

  c.L = L;
  c.nwarps = L->nwarps;
  c.warps = g_new0 (Warp, c.nwarps);
  c.shared_user = L->k->static_shared;
  if (L->dyn)
    c.shared_user = (L->k->static_shared + L->k->dyn_shared_align - 1) / L->k->dyn_shared_align * L->k->dyn_shared_align
                    + L->dyn;
  /* A kernel reading %reserved_smem_offset_* (cooperative groups) gets the
   * CTA's reserved shared memory (1 KiB from sm_80 on) after its own,
   * 16-byte aligned; other kernels keep exact bounds on their shared memory. */
  const uint64_t reserved_rows = 0x1full << SR_RSMEM_BEGIN;
  c.shared_size = (L->k->sreg_used & reserved_rows) ? ((c.shared_user + 15u) & ~15u) + WS_EMU_RESERVED_SMEM
                                                    : c.shared_user;
  /* Backing for what an access may reach before the hardware notices
   * (WsEmuOptions.memcheck): the shared-memory allocation unit and the
   * default stack per thread. */
  c.shared_window = (c.shared_size + WS_EMU_SMEM_UNIT - 1) / WS_EMU_SMEM_UNIT * WS_EMU_SMEM_UNIT;
  c.shared = g_malloc0 (MAX (c.shared_window, 1));
  c.stack = L->k->stack_bytes;
  c.local_stride = L->emu->opt.memcheck ? c.stack : MAX (c.stack, WS_EMU_LOCAL_WINDOW);
  c.local = g_malloc0 ((gsize) L->nwarps * WS_EMU_WARP * c.local_stride);

  for (;;)
    {
      uint64_t idx;
      if (g_atomic_int_get (&L->abort))
        break;
      idx = (uint64_t) __atomic_fetch_add (&L->next_cta, 1, __ATOMIC_RELAXED);
      if (idx >= L->ncta)
        break;
      c.linear = idx;
      c.ctaid[0] = (uint32_t) (idx % L->grid[0]);
      c.ctaid[1] = (uint32_t) ((idx / L->grid[0]) % L->grid[1]);
      c.ctaid[2] = (uint32_t) (idx / ((uint64_t) L->grid[0] * L->grid[1]));
      memset (c.shared, 0, c.shared_window);
      c.winst = c.tinst = 0;
      c.child_seq = 0;
      c.out = NULL;
      c.trace = L->trace ? ws_trace_cta_begin (L->trace, idx, c.nwarps) : NULL;
      if (G_UNLIKELY (L->instr != NULL))
        ws_emu_instr_cta_begin (&c);
      ws_emu_run_cta (&c);
      if (G_UNLIKELY (c.instr != NULL))
        ws_emu_instr_cta_end (&c);
      if (c.trace)
        ws_trace_cta_end (c.trace);
      c.trace = NULL;
      winst += c.winst;
      tinst += c.tinst;
      if (c.out)
        {
          PrintfOut *o = g_new (PrintfOut, 1);
          o->cta = idx;
          o->text = c.out;
          c.out = NULL;
          g_mutex_lock (&L->lock);
          g_ptr_array_add (L->outputs, o);
          g_mutex_unlock (&L->lock);
        }
    }
  __atomic_add_fetch (&L->winst, winst, __ATOMIC_RELAXED);
  __atomic_add_fetch (&L->tinst, tinst, __ATOMIC_RELAXED);
  cta_free (&c);
  return NULL;
}

static void
pool_task (gpointer data, gpointer user_data)
{
  Launch *L = data;
  worker_main (L);
  g_mutex_lock (&L->lock);
  if (--L->helpers_running == 0)
    g_cond_signal (&L->done);
  g_mutex_unlock (&L->lock);
}

static gint
cmp_out (gconstpointer a, gconstpointer b)
{
  const PrintfOut *x = *(PrintfOut *const *) a, *y = *(PrintfOut *const *) b;
  return x->cta < y->cta ? -1 : x->cta > y->cta;
}

static gboolean
kernel_uses_malloc (WsEmuFunction *k)
{
  const WsPtxModule *p = k->module->ptx;
  for (guint f = 0; f < p->n_functions; f++)
    if (k->funcs[f])
      for (guint i = 0; i < p->functions[f].n_calls; i++)
        {
          const WsPtxCall *call = &p->functions[f].calls[i];
          /* (device-side launches keep their parameter buffers in the heap) */
          if (call->is_malloc || call->is_free
              || (call->callee < p->n_functions
                  && g_strcmp0 (ws_emu_device_runtime_call (p->functions[call->callee].name), "GetParameterBufferV2")
                       == 0))
            return TRUE;
        }
  return FALSE;
}

static void
register_trace_kernel (WsEmu *emu, WsEmuFunction *k)
{
  WsTraceKernelDesc desc = { 0 };
  WsEmuFunctionInfo info;
  if (k->trace_writer == emu->opt.trace && k->trace_kernel >= 0)
    return;
  ws_emu_function_get_info (k, &info);
  desc.name = k->name;
  desc.ptx = k->module->ptx->text;
  desc.n_insts = k->n_static;
  desc.insts = k->static_insts;
  desc.regs_per_thread = info.num_regs;
  desc.static_shared_bytes = info.static_shared_bytes;
  desc.local_bytes = info.local_bytes;
  desc.resources_from_ptxas = k->have_resources;
  k->trace_kernel = (int) ws_trace_writer_add_kernel (emu->opt.trace, &desc);
  k->trace_writer = emu->opt.trace;
}

static gboolean run_children (WsEmu *emu, WsEmuFunction *parent, GArray *children, WsLaunchStats *stats,
                              int *cuda_error, GError **error);

gboolean
ws_emu_launch (WsEmu *emu, WsEmuFunction *fn, const WsLaunchConfig *config, void **args, WsLaunchStats *stats,
               int *cuda_error, GError **error)
{
  Launch L = { 0 };
  const WsPtxFunction *pf;
  uint64_t nthreads;
  guint nworkers;
  double t0 = ws_now_seconds ();
  uint32_t max_shared;
  gboolean ok = TRUE;

  g_return_val_if_fail (emu != NULL && fn != NULL && config != NULL, FALSE);
  if (cuda_error)
    *cuda_error = WS_CUDA_SUCCESS;
  if (stats)
    memset (stats, 0, sizeof *stats);
  pf = &fn->module->ptx->functions[fn->index];

  if (fn->decode_error)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_UNSUPPORTED, "cannot launch %s: %s", fn->name, fn->decode_error);
      if (cuda_error)
        *cuda_error = WS_CUDA_ERROR_INVALID_DEVICE_FUNCTION;
      return FALSE;
    }
  nthreads = (uint64_t) config->block[0] * config->block[1] * config->block[2];
  if (config->grid[0] == 0 || config->grid[1] == 0 || config->grid[2] == 0 || nthreads == 0 || nthreads > 1024
      || config->grid[1] > 65535 || config->grid[2] > 65535 || config->block[2] > 64)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID,
                   "invalid launch configuration for %s: grid (%u,%u,%u), block (%u,%u,%u); a block has 1 to 1024 "
                   "threads, grid.y and grid.z are at most 65535",
                   fn->name, config->grid[0], config->grid[1], config->grid[2], config->block[0], config->block[1],
                   config->block[2]);
      if (cuda_error)
        *cuda_error = WS_CUDA_ERROR_INVALID_CONFIGURATION;
      return FALSE;
    }
  max_shared = emu->opt.gpu && emu->opt.gpu->shared_per_block_optin > 0
                 ? (uint32_t) emu->opt.gpu->shared_per_block_optin
                 : 227u * 1024u;
  if ((uint64_t) fn->static_shared + config->dynamic_shared_bytes > max_shared)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID,
                   "launch of %s asks for %u bytes of shared memory (%u static + %u dynamic); the device allows %u",
                   fn->name, fn->static_shared + config->dynamic_shared_bytes, fn->static_shared,
                   config->dynamic_shared_bytes, max_shared);
      if (cuda_error)
        *cuda_error = WS_CUDA_ERROR_INVALID_CONFIGURATION;
      return FALSE;
    }
  if ((kernel_uses_malloc (fn) || config->cooperative) && !ensure_heap (emu, error))
    {
      if (cuda_error)
        *cuda_error = WS_CUDA_ERROR_MEMORY_ALLOCATION;
      return FALSE;
    }

  L.emu = emu;
  L.k = fn;
  memcpy (L.grid, config->grid, sizeof L.grid);
  memcpy (L.block, config->block, sizeof L.block);
  L.dyn = config->dynamic_shared_bytes;
  L.ncta = (uint64_t) L.grid[0] * L.grid[1] * L.grid[2];
  L.nthreads = (uint32_t) nthreads;
  L.nwarps = (L.nthreads + WS_EMU_WARP - 1) / WS_EMU_WARP;
  L.param_bytes = (uint32_t) pf->param_bytes;
  L.params = g_malloc0 (MAX (L.param_bytes, 1));
  for (guint i = 0; i < pf->n_params; i++)
    if (args && args[i])
      memcpy (L.params + fn->param_offsets[i], args[i], fn->param_sizes[i]);
    else
      {
        g_set_error (error, WS_ERROR, WS_ERROR_INVALID, "launch of %s: argument %u is missing", fn->name, i);
        if (cuda_error)
          *cuda_error = WS_CUDA_ERROR_INVALID_VALUE;
        g_free (L.params);
        return FALSE;
      }
  L.table = ws_devmem_table (emu->opt.mem, &L.ntable);
  L.trace = emu->opt.trace;
  L.budget = emu->opt.instruction_budget;
  L.gridid = ++emu->grid_serial;
  L.outputs = g_ptr_array_new ();
  L.faults = g_ptr_array_new_with_free_func (fault_record_free);
  L.invalid = g_array_new (FALSE, TRUE, sizeof (WsEmuInvalidAccess));
  g_array_set_clear_func (L.invalid, invalid_clear);
  if (emu->opt.launch_timeout > 0)
    L.deadline = g_get_monotonic_time () + (gint64) (emu->opt.launch_timeout * G_USEC_PER_SEC);
  g_mutex_init (&L.lock);

  if (L.trace)
    {
      register_trace_kernel (emu, fn);
      ws_trace_writer_begin_launch (L.trace, (uint32_t) fn->trace_kernel, L.grid, L.block, L.dyn);
    }

  if (emu->opt.instrument != NULL)
    ws_emu_instr_launch_begin (&L);

  nworkers = emu->opt.deterministic ? 1 : (emu->opt.n_threads ? emu->opt.n_threads : g_get_num_processors ());
  if (nworkers > L.ncta)
    nworkers = (guint) L.ncta;
  L.threaded = config->cooperative || nworkers > 1;
  if (config->cooperative)
    {
      /* Every block at once (the runtime checked they fit on the device),
       * with the grid barrier's workspace in device memory. */
      L.cooperative = TRUE;
      L.grid_workspace = ws_emu_heap_alloc (emu, 64);
      if (L.grid_workspace == 0)
        {
          g_set_error (error, WS_ERROR, WS_ERROR_FAILED, "no device heap left for the grid workspace of %s", fn->name);
          if (cuda_error)
            *cuda_error = WS_CUDA_ERROR_MEMORY_ALLOCATION;
          L.abort = 1;
        }
      else
        memset ((void *) (uintptr_t) L.grid_workspace, 0, 64);
      GPtrArray *threads = g_ptr_array_new ();
      for (uint64_t i = 1; i < L.ncta && !L.abort; i++)
        g_ptr_array_add (threads, g_thread_new ("ws-emu-coop", worker_main, &L));
      worker_main (&L);
      for (guint i = 0; i < threads->len; i++)
        g_thread_join (threads->pdata[i]);
      g_ptr_array_free (threads, TRUE);
      if (L.grid_workspace)
        ws_emu_heap_free (emu, L.grid_workspace);
      else
        ok = FALSE;
    }
  else if (nworkers <= 1)
    worker_main (&L);
  else
    {
      /* The launching thread is one worker; the others come from a pool
       * that outlives the launch (thread creation would dominate programs
       * with many short launches). */
      if (emu->pool == NULL || emu->pool_size < nworkers - 1)
        {
          if (emu->pool)
            g_thread_pool_free (emu->pool, FALSE, TRUE);
          emu->pool = g_thread_pool_new (pool_task, NULL, (gint) (nworkers - 1), TRUE, NULL);
          emu->pool_size = nworkers - 1;
        }
      g_cond_init (&L.done);
      L.helpers_running = nworkers - 1;
      for (guint i = 0; i < nworkers - 1; i++)
        g_thread_pool_push (emu->pool, &L, NULL);
      worker_main (&L);
      g_mutex_lock (&L.lock);
      while (L.helpers_running > 0)
        g_cond_wait (&L.done, &L.lock);
      g_mutex_unlock (&L.lock);
      g_cond_clear (&L.done);
    }

  /* printf output in CTA order. */
  g_ptr_array_sort (L.outputs, cmp_out);
  for (guint i = 0; i < L.outputs->len; i++)
    {
      PrintfOut *o = g_ptr_array_index (L.outputs, i);
      if (emu->opt.printf_func)
        emu->opt.printf_func (o->text->str, o->text->len, emu->opt.printf_data);
      else
        {
          fwrite (o->text->str, 1, o->text->len, stdout);
          fflush (stdout);
        }
      g_string_free (o->text, TRUE);
      g_free (o);
    }
  g_ptr_array_free (L.outputs, TRUE);

  merge_invalid (emu, &L, L.invalid);
  if (L.trace)
    {
      g_autoptr (GError) terr = NULL;
      /* A faulted launch is incomplete even when every block was recorded:
       * the faulting block stopped early. */
      if (L.faulted)
        ws_trace_writer_mark_launch_faulted (L.trace);
      if (!ws_trace_writer_end_launch (L.trace, &terr) && !L.faulted)
        {
          g_propagate_prefixed_error (error, g_steal_pointer (&terr), "writing the trace of %s: ", fn->name);
          ok = FALSE;
        }
    }
  if (L.instr != NULL)
    ws_emu_instr_launch_end (&L, !L.faulted);
  if (L.faulted)
    {
      /* Every fault, the first (lowest block) in full, then the others. */
      GString *msg = g_string_new (L.fault_msg);
      g_ptr_array_sort (L.faults, cmp_fault);
      if (L.faults->len > 1)
        {
          g_string_append_printf (msg, "\n%u more thread blocks faulted before the launch stopped:", L.faults->len - 1);
          guint listed = 0;
          for (guint i = 0; i < L.faults->len; i++)
            {
              FaultRecord *r = g_ptr_array_index (L.faults, i);
              if (strcmp (r->msg, L.fault_msg) == 0)
                continue;
              if (listed++ == WS_EMU_MAX_FAULTS_LISTED)
                {
                  g_string_append_printf (msg, "\n(and %u more)", L.faults->len - 1 - WS_EMU_MAX_FAULTS_LISTED);
                  break;
                }
              g_string_append_printf (msg, "\n%s", r->msg);
            }
        }
      g_set_error (error, WS_ERROR, WS_ERROR_FAULT, "%s", msg->str);
      g_string_free (msg, TRUE);
      if (cuda_error)
        *cuda_error = L.cuda_error;
      ok = FALSE;
    }
  if (stats)
    {
      stats->warp_instructions = L.winst;
      stats->thread_instructions = L.tinst;
      stats->seconds = ws_now_seconds () - t0;
    }
  g_free (L.fault_msg);
  g_ptr_array_free (L.faults, TRUE);
  g_array_free (L.invalid, TRUE);
  g_free (L.params);
  g_mutex_clear (&L.lock);
  if (L.children != NULL)
    {
      if (ok)
        ok = run_children (emu, fn, L.children, stats, cuda_error, error);
      else
        for (guint i = 0; i < L.children->len; i++)
          ws_emu_heap_free (emu, g_array_index (L.children, EmuChildLaunch, i).buffer - WS_EMU_CHILD_HEADER);
      g_array_free (L.children, TRUE);
    }
  return ok;
}

static gint
cmp_child (gconstpointer a, gconstpointer b)
{
  const EmuChildLaunch *x = a, *y = b;
  if (x->cta != y->cta)
    return x->cta < y->cta ? -1 : 1;
  return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Device-side launches of a finished grid, in (block, launch order), each
 * with its own children after it (depth first); the CDP nesting limit of
 * the hardware (24 levels) ends runaway recursion. */
static gboolean
run_children (WsEmu *emu, WsEmuFunction *parent, GArray *children, WsLaunchStats *stats, int *cuda_error,
              GError **error)
{
  gboolean ok = TRUE;
  g_array_sort (children, cmp_child);
  emu->cdp_depth++;
  for (guint i = 0; i < children->len; i++)
    {
      uint64_t buf = g_array_index (children, EmuChildLaunch, i).buffer;
      if (!ok)
        {
          ws_emu_heap_free (emu, buf - WS_EMU_CHILD_HEADER);
          continue;
        }
      EmuChildHeader h;
      memcpy (&h, (const void *) (uintptr_t) (buf - WS_EMU_CHILD_HEADER), sizeof h);
      WsEmuFunction *k = parent->module->kernels[h.fn];
      if (emu->cdp_depth > 24)
        {
          g_set_error (error, WS_ERROR, WS_ERROR_FAULT,
                       "device-side launch of %s from %s is nested more than 24 levels deep", k->name, parent->name);
          if (cuda_error)
            *cuda_error = WS_CUDA_ERROR_LAUNCH_MAX_DEPTH_EXCEEDED;
          ok = FALSE;
          ws_emu_heap_free (emu, buf - WS_EMU_CHILD_HEADER);
          continue;
        }
      const WsPtxFunction *pf = &k->module->ptx->functions[k->index];
      g_autofree void **args = g_new0 (void *, pf->n_params + 1);
      for (guint p = 0; p < pf->n_params; p++)
        args[p] = (void *) (uintptr_t) (buf + k->param_offsets[p]);
      WsLaunchConfig cfg = { { h.grid[0], h.grid[1], h.grid[2] }, { h.block[0], h.block[1], h.block[2] }, h.shared };
      WsLaunchStats cs = { 0 };
      g_autoptr (GError) cerr = NULL;
      if (!ws_emu_launch (emu, k, &cfg, args, &cs, cuda_error, &cerr))
        {
          g_propagate_prefixed_error (error, g_steal_pointer (&cerr),
                                      "in %s, launched from the device by %s: ", k->name, parent->name);
          ok = FALSE;
        }
      if (stats)
        {
          stats->warp_instructions += cs.warp_instructions;
          stats->thread_instructions += cs.thread_instructions;
          stats->seconds += cs.seconds;
        }
      ws_emu_heap_free (emu, buf - WS_EMU_CHILD_HEADER);
    }
  emu->cdp_depth--;
  return ok;
}

void
ws_emu_register_host (WsEmu *emu, uint64_t addr, uint64_t size)
{
  g_return_if_fail (emu != NULL);
  uint64_t pair[2] = { addr, size };
  g_array_append_vals (emu->host_ranges, pair, 2);
}

gboolean
ws_emu_unregister_host (WsEmu *emu, uint64_t addr)
{
  g_return_val_if_fail (emu != NULL, FALSE);
  for (guint i = 0; i < emu->host_ranges->len; i += 2)
    if (g_array_index (emu->host_ranges, uint64_t, i) == addr)
      {
        g_array_remove_range (emu->host_ranges, i, 2);
        return TRUE;
      }
  return FALSE;
}

uint64_t
ws_emu_registered_host (WsEmu *emu, uint64_t addr, uint64_t len)
{
  g_return_val_if_fail (emu != NULL, 0);
  const uint64_t *r = (const uint64_t *) emu->host_ranges->data;
  for (guint i = 0; i < emu->host_ranges->len; i += 2)
    if (addr >= r[i] && addr + len <= r[i] + r[i + 1] && addr + len >= addr)
      return r[i];
  return 0;
}
