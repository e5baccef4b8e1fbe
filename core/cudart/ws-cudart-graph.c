/* ws-cudart-graph.c: CUDA graphs, made by stream capture or node by node.
 *
 * While a stream captures, the kernel launches, copies, memsets and host
 * functions issued to it (and to streams joined through events) are
 * recorded instead of run.  Every stream of one capture shares one
 * dependency set (the capture is serialised in issue order, a valid order
 * of the dependencies the program expressed): each captured node depends on
 * the set, then becomes it; cudaStreamGetCaptureInfo reads it and
 * cudaStreamUpdateCaptureDependencies changes it, so nodes added by hand
 * during a capture take their place.  Kernel arguments are copied at
 * capture time, as the driver does.  Graphs built with cudaGraphAdd*Node
 * keep each node's dependencies; cudaGraphInstantiate copies the nodes into
 * the executable graph in a topological order (creation order among ready
 * nodes), so cudaGraphExecKernelNodeSetParams and cudaGraphExecUpdate
 * change the executable graph only.
 *
 * Conditional nodes (IF with an optional ELSE body, WHILE, SWITCH) own
 * their body graphs.  A conditional handle is the device address of a
 * 4-byte slot in emulated device memory holding the condition value:
 * device code's cudaGraphSetConditional stores into it (the emulator's
 * device-runtime call), and the executor reads it when it reaches the
 * node.  Handles created with cudaGraphCondAssignDefault get their default
 * value each time the graph they belong to starts running (a body graph's
 * handles at every run of the body).  Event and child-graph nodes are not
 * supported (loud errors). */
#define G_LOG_DOMAIN "ws-cudart"

#include "cudart/ws-cudart-private.h"

#include <string.h>

typedef enum {
  NODE_KERNEL,
  NODE_MEMCPY,
  NODE_MEMSET,
  NODE_HOST,
  NODE_MEMCPY3D, /* cudaGraphAddMemcpyNode: a cudaMemcpy3DParms */
  NODE_MEMSET2D, /* cudaGraphAddMemsetNode: pitch, element size, rows */
  NODE_EMPTY,
  NODE_MEM_ALLOC,   /* dst, count: a graph allocation made usable */
  NODE_MEM_FREE,    /* dst: a graph allocation given back */
  NODE_CONDITIONAL, /* cond_type, handle, bodies */
} NodeKind;

struct CUgraphNode_st {
  NodeKind kind;
  /* kernel */
  WsCudartKernel *kernel;
  dim3 grid, block;
  size_t shared;
  guint n_params;
  guint8 *params;          /* copied argument bytes */
  uint32_t *param_offsets; /* into params */
  /* memcpy / memset */
  void *dst;
  const void *src;
  size_t count;
  enum cudaMemcpyKind copy_kind;
  int value;
  /* host function */
  cudaHostFn_t fn;
  void *user_data;
  /* node-by-node graphs */
  struct cudaMemcpy3DParms copy3d;
  size_t pitch, width, height;
  unsigned int elem_size;
  /* conditional: its body graphs (WsCudartGraph*, owned; the array is the
   * phGraph_out CUDA hands back, valid for the node's lifetime) */
  enum cudaGraphConditionalNodeType cond_type;
  cudaGraphConditionalHandle handle;
  unsigned int n_bodies;
  cudaGraph_t *bodies;
  GPtrArray *deps; /* struct CUgraphNode_st* this node waits for (not owned) */
  WsCudartGraph *owner;
};

/* A conditional handle made for a graph: the slot's address is the handle. */
typedef struct {
  uint64_t slot;
  unsigned int default_value;
  unsigned int flags; /* cudaGraphCondAssignDefault or 0 */
} CondHandle;

struct _WsCudartGraph {
  GPtrArray *nodes;      /* struct CUgraphNode_st*, owned */
  cudaStream_t origin;   /* stream that began the capture (NULL when done) */
  char *invalid;         /* why the capture was invalidated */
  gboolean capture_into; /* cudaStreamBeginCaptureToGraph: the user's graph */
  unsigned long long capture_id;
  GPtrArray *tail;               /* capture: what the next captured node depends on (not owned) */
  GArray *tail_edges;            /* cudaGraphEdgeData, all default, as long as @tail */
  struct CUgraphNode_st *parent; /* conditional node whose body this is, or NULL */
  GArray *handles;               /* CondHandle made for this graph */
};

struct CUgraphExec_st {
  WsCudartGraph *graph; /* its own copy of the nodes, in launch order */
  GHashTable *map;      /* node of the instantiated graph -> its copy in @graph */
};

static GHashTable *graphs; /* live WsCudartGraph* (handles given out) */
static GHashTable *execs;
/* Conditional handles: slot address -> the graph it was made for.  The
 * slots stay allocated for the life of the program: executable graphs keep
 * using them after their graph is destroyed. */
static GHashTable *cond_handles;

/* Graph memory (cudaGraphAddMemAllocNode, cudaMallocAsync in a capture).
 * CUDA fixes an allocation's address when the node is made and maps memory
 * behind it when the node runs, until a free node (or cudaFree) unmaps it.
 * Here the address range is reserved in the emulated memory when the node
 * is made and stays reserved for the life of the program (a relaunch gets
 * the same address, as on the GPU); the node and its free only track
 * whether the range is in use, which the footprint attributes report. */
typedef struct {
  size_t bytes;
  gboolean mapped; /* between its alloc node and its free */
  gboolean backed; /* holds memory: from its first use to a trim while unmapped */
} GraphAlloc;
static GHashTable *graph_allocs; /* address -> GraphAlloc* */
static uint64_t graph_mem_used, graph_mem_used_high, graph_mem_reserved, graph_mem_reserved_high;

static void graph_unref (WsCudartGraph *g);

static void
node_free (struct CUgraphNode_st *n)
{
  g_free (n->params);
  g_free (n->param_offsets);
  if (n->deps)
    g_ptr_array_unref (n->deps);
  if (n->bodies != NULL)
    {
      g_rec_mutex_lock (&ws_cudart.lock);
      for (unsigned int i = 0; i < n->n_bodies; i++)
        {
          if (graphs != NULL)
            g_hash_table_remove (graphs, n->bodies[i]);
          graph_unref ((WsCudartGraph *) n->bodies[i]);
        }
      g_rec_mutex_unlock (&ws_cudart.lock);
      g_free (n->bodies);
    }
  g_free (n);
}

static void
graph_clear (gpointer data)
{
  WsCudartGraph *g = data;
  g_ptr_array_unref (g->nodes);
  g_ptr_array_unref (g->tail);
  g_array_unref (g->tail_edges);
  g_rec_mutex_lock (&ws_cudart.lock);
  for (guint i = 0; cond_handles != NULL && i < g->handles->len; i++)
    {
      gpointer slot = GSIZE_TO_POINTER (g_array_index (g->handles, CondHandle, i).slot);
      if (g_hash_table_lookup (cond_handles, slot) == g)
        g_hash_table_remove (cond_handles, slot);
    }
  g_rec_mutex_unlock (&ws_cudart.lock);
  g_array_unref (g->handles);
  g_free (g->invalid);
}

static WsCudartGraph *
graph_new (void)
{
  WsCudartGraph *g = g_atomic_rc_box_new0 (WsCudartGraph);
  g->nodes = g_ptr_array_new_with_free_func ((GDestroyNotify) node_free);
  g->tail = g_ptr_array_new ();
  g->tail_edges = g_array_new (FALSE, TRUE, sizeof (cudaGraphEdgeData));
  g->handles = g_array_new (FALSE, FALSE, sizeof (CondHandle));
  return g;
}

static void
graph_unref (WsCudartGraph *g)
{
  g_atomic_rc_box_release_full (g, graph_clear);
}

static void
tables_init (void)
{
  if (graphs == NULL)
    {
      graphs = g_hash_table_new (g_direct_hash, g_direct_equal);
      execs = g_hash_table_new (g_direct_hash, g_direct_equal);
      graph_allocs = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, g_free);
      cond_handles = g_hash_table_new (g_direct_hash, g_direct_equal);
    }
}

static gboolean
user_stream (cudaStream_t s)
{
  return s != NULL && s != cudaStreamLegacy && s != cudaStreamPerThread;
}

WsCudartGraph *
ws_cudart_capturing (cudaStream_t stream)
{
  if (!user_stream (stream) || !ws_cudart_stream_valid (stream))
    return NULL;
  return stream->capture;
}

static struct CUgraphNode_st *
add_node (WsCudartGraph *g, NodeKind kind)
{
  struct CUgraphNode_st *n = g_new0 (struct CUgraphNode_st, 1);
  n->kind = kind;
  n->owner = g;
  n->deps = g_ptr_array_new ();
  g_rec_mutex_lock (&ws_cudart.lock);
  g_ptr_array_add (g->nodes, n);
  g_rec_mutex_unlock (&ws_cudart.lock);
  return n;
}

/* A captured node: it depends on the capture's dependency set, then is it. */
static struct CUgraphNode_st *
capture_node (WsCudartGraph *g, NodeKind kind)
{
  struct CUgraphNode_st *n = add_node (g, kind);
  g_rec_mutex_lock (&ws_cudart.lock);
  for (guint i = 0; i < g->tail->len; i++)
    g_ptr_array_add (n->deps, g->tail->pdata[i]);
  g_ptr_array_set_size (g->tail, 0);
  g_ptr_array_add (g->tail, n);
  g_rec_mutex_unlock (&ws_cudart.lock);
  return n;
}

/* A kernel node's launch: the kernel, its shape and a copy of its
 * arguments, each at an 8-byte aligned offset of the node's buffer. */
static void
set_kernel_node (struct CUgraphNode_st *n, WsCudartKernel *k, const WsEmuFunctionInfo *info, dim3 grid, dim3 block,
                 size_t shared, void **args)
{
  n->kernel = k;
  n->grid = grid;
  n->block = block;
  n->shared = shared;
  n->n_params = info->n_params;
  n->param_offsets = g_new0 (uint32_t, MAX (1, info->n_params));
  gsize total = 0;
  for (guint i = 0; i < info->n_params; i++)
    {
      n->param_offsets[i] = (uint32_t) total;
      total += (info->param_sizes[i] + 7) & ~7u;
    }
  n->params = g_malloc0 (MAX (total, 1));
  for (guint i = 0; i < info->n_params; i++)
    memcpy (n->params + n->param_offsets[i], args[i], info->param_sizes[i]);
}

cudaError_t
ws_cudart_capture_kernel (WsCudartGraph *g, WsCudartKernel *k, dim3 grid, dim3 block, void **args, size_t shared)
{
  WsEmuFunctionInfo info = { 0 };
  ws_emu_function_get_info (k->fn, &info);
  struct CUgraphNode_st *n = capture_node (g, NODE_KERNEL);
  set_kernel_node (n, k, &info, grid, block, shared, args);
  return cudaSuccess;
}

cudaError_t
ws_cudart_capture_memcpy (WsCudartGraph *g, void *dst, const void *src, size_t count, enum cudaMemcpyKind kind)
{
  struct CUgraphNode_st *n = capture_node (g, NODE_MEMCPY);
  n->dst = dst;
  n->src = src;
  n->count = count;
  n->copy_kind = kind;
  return cudaSuccess;
}

cudaError_t
ws_cudart_capture_memset (WsCudartGraph *g, void *dst, int value, size_t count)
{
  struct CUgraphNode_st *n = capture_node (g, NODE_MEMSET);
  n->dst = dst;
  n->value = value;
  n->count = count;
  return cudaSuccess;
}

cudaError_t
ws_cudart_capture_host (WsCudartGraph *g, cudaHostFn_t fn, void *user_data)
{
  struct CUgraphNode_st *n = capture_node (g, NODE_HOST);
  n->fn = fn;
  n->user_data = user_data;
  return cudaSuccess;
}

cudaError_t
ws_cudart_capture_unsupported (WsCudartGraph *g, const char *what)
{
  ws_cudart_warn ("%s cannot be captured into a CUDA graph by the Warpscope emulator; the capture is invalidated",
                  what);
  g_rec_mutex_lock (&ws_cudart.lock);
  if (g->invalid == NULL)
    g->invalid = g_strdup (what);
  g_rec_mutex_unlock (&ws_cudart.lock);
  return ws_cudart_set_error (cudaErrorStreamCaptureUnsupported);
}

/* ---- graphs built node by node ---------------------------------------------- */

static WsCudartGraph *graph_copy (WsCudartGraph *g, gboolean sorted, GHashTable *map);

static struct CUgraphNode_st *
node_copy (const struct CUgraphNode_st *n, WsCudartGraph *owner, gboolean sorted, GHashTable *map)
{
  struct CUgraphNode_st *c = g_memdup2 (n, sizeof *n);
  if (n->kind == NODE_KERNEL)
    {
      WsEmuFunctionInfo info = { 0 };
      ws_emu_function_get_info (n->kernel->fn, &info);
      gsize total = 0;
      for (guint i = 0; i < info.n_params; i++)
        total += (info.param_sizes[i] + 7) & ~7u;
      c->params = g_memdup2 (n->params, MAX (total, 1));
      c->param_offsets = g_memdup2 (n->param_offsets, sizeof (uint32_t) * MAX (1, n->n_params));
    }
  else
    {
      c->params = NULL;
      c->param_offsets = NULL;
    }
  if (n->kind == NODE_CONDITIONAL)
    {
      /* the bodies are copied with the node (their nodes go into @map too) */
      c->bodies = g_new0 (cudaGraph_t, n->n_bodies);
      for (unsigned int i = 0; i < n->n_bodies; i++)
        {
          WsCudartGraph *body = graph_copy ((WsCudartGraph *) n->bodies[i], sorted, map);
          body->parent = c;
          c->bodies[i] = (cudaGraph_t) body;
        }
    }
  c->deps = g_ptr_array_new ();
  c->owner = owner;
  return c;
}

/* A copy of @g's nodes with their dependencies (@map: original -> copy);
 * @sorted: in a topological order (creation order among ready nodes). */
static WsCudartGraph *
graph_copy (WsCudartGraph *g, gboolean sorted, GHashTable *map)
{
  WsCudartGraph *c = graph_new ();
  g_array_append_vals (c->handles, g->handles->data, g->handles->len);
  guint n = g->nodes->len;
  g_autofree gboolean *done = g_new0 (gboolean, MAX (n, 1));
  for (guint placed = 0; placed < n;)
    {
      guint before = placed;
      for (guint i = 0; i < n; i++)
        {
          struct CUgraphNode_st *o = g->nodes->pdata[i];
          gboolean ready = !done[i];
          for (guint d = 0; ready && sorted && d < o->deps->len; d++)
            ready = g_hash_table_contains (map, o->deps->pdata[d]);
          if (!ready)
            continue;
          struct CUgraphNode_st *k = node_copy (o, c, sorted, map);
          g_ptr_array_add (c->nodes, k);
          g_hash_table_insert (map, o, k);
          done[i] = TRUE;
          placed++;
          if (sorted)
            break; /* restart: the earliest ready node goes first */
        }
      if (placed == before)
        break; /* a cycle (cannot happen: dependencies point to earlier nodes) */
    }
  for (guint i = 0; i < g->nodes->len; i++)
    {
      struct CUgraphNode_st *o = g->nodes->pdata[i], *k = g_hash_table_lookup (map, o);
      for (guint d = 0; k && d < o->deps->len; d++)
        g_ptr_array_add (k->deps, g_hash_table_lookup (map, o->deps->pdata[d]));
    }
  return c;
}

/* cudaMemsetParams: rows of width elements of 1, 2 or 4 bytes. */
static cudaError_t
memset_elements (const struct CUgraphNode_st *n)
{
  if (n->elem_size == 1)
    return cudaMemset2D (n->dst, n->pitch, n->value, n->width, n->height);
  if (!ws_cudart_is_device_ptr (n->dst)
      || ws_devmem_lookup (ws_cudart.mem, (uint64_t) (uintptr_t) n->dst,
                           n->pitch * (n->height - 1) + n->width * n->elem_size)
           == NULL)
    return ws_cudart_set_error (cudaErrorInvalidValue);
  for (size_t y = 0; y < n->height; y++)
    for (size_t x = 0; x < n->width; x++)
      {
        uint8_t *p = (uint8_t *) n->dst + y * n->pitch + x * n->elem_size;
        if (n->elem_size == 2)
          {
            uint16_t v = (uint16_t) n->value;
            memcpy (p, &v, 2);
          }
        else
          {
            uint32_t v = (uint32_t) n->value;
            memcpy (p, &v, 4);
          }
      }
  return cudaSuccess;
}

static WsCudartGraph *graph_from (cudaGraph_t graph);
static gboolean exec_valid (cudaGraphExec_t exec);

/* Whether @edges (n of them, or NULL) are all plain dependencies: the
 * programmatic ones (ports, cudaGraphDependencyTypeProgrammatic) are not
 * supported (with a message naming @what). */
static gboolean
edges_default (const cudaGraphEdgeData *edges, size_t n, const char *what)
{
  for (size_t i = 0; edges != NULL && i < n; i++)
    if (edges[i].type != cudaGraphDependencyTypeDefault || edges[i].from_port != 0 || edges[i].to_port != 0)
      {
        ws_cudart_warn ("%s: programmatic dependencies (edge data with a type or port) are not supported by the "
                        "Warpscope emulator",
                        what);
        return FALSE;
      }
  return TRUE;
}

/* A new node of @graph after @deps (which must be nodes of @graph). */
static cudaError_t
new_node (cudaGraphNode_t *out, cudaGraph_t graph, const cudaGraphNode_t *deps, size_t n_deps, NodeKind kind,
          struct CUgraphNode_st **node)
{
  cudaError_t err = ws_cudart_ensure ();
  if (err != cudaSuccess)
    return ws_cudart_set_error (err);
  WsCudartGraph *g = graph_from (graph);
  if (out == NULL || g == NULL || (n_deps > 0 && deps == NULL))
    return ws_cudart_set_error (cudaErrorInvalidValue);
  for (size_t i = 0; i < n_deps; i++)
    if (deps[i] == NULL || deps[i]->owner != g)
      return ws_cudart_set_error (cudaErrorInvalidValue);
  struct CUgraphNode_st *n = add_node (g, kind);
  for (size_t i = 0; i < n_deps; i++)
    g_ptr_array_add (n->deps, deps[i]);
  *out = n;
  *node = n;
  return cudaSuccess;
}

static cudaError_t
set_kernel_params (struct CUgraphNode_st *n, const struct cudaKernelNodeParams *p, const char *what)
{
  if (p == NULL || p->func == NULL)
    return cudaErrorInvalidValue;
  if (p->extra != NULL)
    {
      ws_cudart_warn ("%s: kernel arguments in the \"extra\" format are not supported by the Warpscope emulator", what);
      return cudaErrorNotSupported;
    }
  WsCudartKernel *k = ws_cudart_find_kernel (p->func);
  if (k == NULL)
    return cudaErrorInvalidDeviceFunction;
  cudaError_t err = ws_cudart_kernel_resolve (k);
  if (err != cudaSuccess)
    return err;
  WsEmuFunctionInfo info = { 0 };
  ws_emu_function_get_info (k->fn, &info);
  if (info.n_params > 0 && p->kernelParams == NULL)
    return cudaErrorInvalidValue;
  g_free (n->params);
  g_free (n->param_offsets);
  set_kernel_node (n, k, &info, p->gridDim, p->blockDim, p->sharedMemBytes, p->kernelParams);
  return cudaSuccess;
}

/* ---- graph memory ------------------------------------------------------------ */

static void
graph_mem_account (int64_t used_delta, int64_t reserved_delta)
{
  graph_mem_used += (uint64_t) used_delta;
  graph_mem_reserved += (uint64_t) reserved_delta;
  graph_mem_used_high = MAX (graph_mem_used_high, graph_mem_used);
  graph_mem_reserved_high = MAX (graph_mem_reserved_high, graph_mem_reserved);
}

static gboolean
is_graph_alloc (const void *ptr)
{
  g_rec_mutex_lock (&ws_cudart.lock);
  tables_init ();
  gboolean ours = g_hash_table_contains (graph_allocs, ptr);
  g_rec_mutex_unlock (&ws_cudart.lock);
  return ours;
}

/* Reserves a graph allocation of @bytes (the address a node hands out). */
static cudaError_t
graph_alloc_reserve (void **ptr, size_t bytes)
{
  cudaError_t err = ws_cudart_allocate_device (ptr, bytes, "graph allocation");
  if (err != cudaSuccess)
    return err;
  GraphAlloc *a = g_new0 (GraphAlloc, 1);
  a->bytes = bytes;
  g_rec_mutex_lock (&ws_cudart.lock);
  tables_init ();
  g_hash_table_insert (graph_allocs, *ptr, a);
  g_rec_mutex_unlock (&ws_cudart.lock);
  return cudaSuccess;
}

static cudaError_t
graph_alloc_map (void *ptr)
{
  g_rec_mutex_lock (&ws_cudart.lock);
  GraphAlloc *a = g_hash_table_lookup (graph_allocs, ptr);
  cudaError_t err = cudaSuccess;
  if (a == NULL)
    err = cudaErrorInvalidValue;
  else if (a->mapped)
    {
      /* CUDA: launching a graph whose allocation is still in use fails */
      ws_cudart_warn ("graph allocation %p is still in use (not freed since the graph last ran)", ptr);
      err = cudaErrorInvalidValue;
    }
  else
    {
      a->mapped = TRUE;
      graph_mem_account ((int64_t) a->bytes, a->backed ? 0 : (int64_t) a->bytes);
      a->backed = TRUE;
    }
  g_rec_mutex_unlock (&ws_cudart.lock);
  return err == cudaSuccess ? err : ws_cudart_set_error (err);
}

/* Unmaps a graph allocation (a free node, or cudaFree/cudaFreeAsync
 * outside the graph); FALSE when @ptr is not a graph allocation in use. */
static gboolean
graph_alloc_unmap (void *ptr)
{
  g_rec_mutex_lock (&ws_cudart.lock);
  tables_init ();
  GraphAlloc *a = g_hash_table_lookup (graph_allocs, ptr);
  gboolean ok = a != NULL && a->mapped;
  if (ok)
    {
      a->mapped = FALSE;
      graph_mem_account (-(int64_t) a->bytes, 0);
    }
  g_rec_mutex_unlock (&ws_cudart.lock);
  return ok;
}

gboolean
ws_cudart_graph_alloc_release (void *ptr, cudaError_t *err)
{
  gboolean ours = is_graph_alloc (ptr);
  if (ours)
    *err = graph_alloc_unmap (ptr) ? cudaSuccess : ws_cudart_set_error (cudaErrorInvalidValue);
  return ours;
}

cudaError_t
ws_cudart_capture_malloc (WsCudartGraph *g, void **ptr, size_t size)
{
  if (ptr == NULL || size == 0)
    return ws_cudart_set_error (cudaErrorInvalidValue);
  cudaError_t err = graph_alloc_reserve (ptr, size);
  if (err != cudaSuccess)
    return err;
  struct CUgraphNode_st *n = capture_node (g, NODE_MEM_ALLOC);
  n->dst = *ptr;
  n->count = size;
  return cudaSuccess;
}

cudaError_t
ws_cudart_capture_free (WsCudartGraph *g, void *ptr)
{
  gboolean ours = is_graph_alloc (ptr);
  if (!ours)
    {
      ws_cudart_warn ("cudaFreeAsync(%p) in a stream capture: only memory allocated by a graph can be freed in one",
                      ptr);
      return ws_cudart_set_error (cudaErrorInvalidValue);
    }
  struct CUgraphNode_st *n = capture_node (g, NODE_MEM_FREE);
  n->dst = ptr;
  return cudaSuccess;
}

cudaError_t
cudaGraphAddMemAllocNode (cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *pDependencies,
                          size_t numDependencies, struct cudaMemAllocNodeParams *nodeParams)
{
  if (nodeParams == NULL || nodeParams->bytesize == 0)
    return ws_cudart_set_error (cudaErrorInvalidValue);
  if (nodeParams->poolProps.allocType != cudaMemAllocationTypePinned
      || nodeParams->poolProps.location.type != cudaMemLocationTypeDevice || nodeParams->poolProps.location.id != 0)
    {
      ws_cudart_warn (
        "cudaGraphAddMemAllocNode: only pinned memory on device 0 is supported by the Warpscope emulator");
      return ws_cudart_set_error (cudaErrorInvalidValue);
    }
  struct CUgraphNode_st *n;
  cudaError_t err = new_node (pGraphNode, graph, pDependencies, numDependencies, NODE_MEM_ALLOC, &n);
  if (err != cudaSuccess)
    return err;
  err = graph_alloc_reserve (&nodeParams->dptr, nodeParams->bytesize);
  if (err != cudaSuccess)
    {
      n->kind = NODE_EMPTY; /* stays in the graph, harmless */
      return err;
    }
  n->dst = nodeParams->dptr;
  n->count = nodeParams->bytesize;
  return cudaSuccess;
}

cudaError_t
cudaGraphMemAllocNodeGetParams (cudaGraphNode_t node, struct cudaMemAllocNodeParams *params_out)
{
  if (node == NULL || params_out == NULL || node->kind != NODE_MEM_ALLOC)
    return ws_cudart_set_error (cudaErrorInvalidValue);
  memset (params_out, 0, sizeof *params_out);
  params_out->poolProps.allocType = cudaMemAllocationTypePinned;
  params_out->poolProps.location.type = cudaMemLocationTypeDevice;
  params_out->poolProps.location.id = 0;
  params_out->bytesize = node->count;
  params_out->dptr = node->dst;
  return cudaSuccess;
}

cudaError_t
cudaGraphAddMemFreeNode (cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *pDependencies,
                         size_t numDependencies, void *dptr)
{
  gboolean ours = is_graph_alloc (dptr);
  if (!ours)
    return ws_cudart_set_error (cudaErrorInvalidValue);
  struct CUgraphNode_st *n;
  cudaError_t err = new_node (pGraphNode, graph, pDependencies, numDependencies, NODE_MEM_FREE, &n);
  if (err != cudaSuccess)
    return err;
  n->dst = dptr;
  return cudaSuccess;
}

cudaError_t
cudaGraphMemFreeNodeGetParams (cudaGraphNode_t node, void *dptr_out)
{
  if (node == NULL || dptr_out == NULL || node->kind != NODE_MEM_FREE)
    return ws_cudart_set_error (cudaErrorInvalidValue);
  *(void **) dptr_out = node->dst;
  return cudaSuccess;
}

/* The checks both graph-memory attribute calls start with. */
static cudaError_t
graph_mem_attribute_args (int device, const void *value)
{
  ENSURE_OR_RETURN ();
  if (device != 0)
    return ws_cudart_set_error (cudaErrorInvalidDevice);
  if (value == NULL)
    return ws_cudart_set_error (cudaErrorInvalidValue);
  return cudaSuccess;
}

/* Memory in use is what graphs have mapped and not freed; reserved memory
 * is what they hold, in use or kept for reuse until a trim. */
cudaError_t
cudaDeviceGetGraphMemAttribute (int device, enum cudaGraphMemAttributeType attr, void *value)
{
  cudaError_t bad = graph_mem_attribute_args (device, value);
  if (bad != cudaSuccess)
    return bad;
  g_rec_mutex_lock (&ws_cudart.lock);
  uint64_t v = 0;
  cudaError_t err = cudaSuccess;
  switch (attr)
    {
    case cudaGraphMemAttrUsedMemCurrent: v = graph_mem_used; break;
    case cudaGraphMemAttrUsedMemHigh: v = graph_mem_used_high; break;
    case cudaGraphMemAttrReservedMemCurrent: v = graph_mem_reserved; break;
    case cudaGraphMemAttrReservedMemHigh: v = graph_mem_reserved_high; break;
    default: err = cudaErrorInvalidValue; break;
    }
  g_rec_mutex_unlock (&ws_cudart.lock);
  if (err != cudaSuccess)
    return ws_cudart_set_error (err);
  *(uint64_t *) value = v;
  return cudaSuccess;
}

/* Only the high watermarks can be set, and only to 0 (a reset). */
cudaError_t
cudaDeviceSetGraphMemAttribute (int device, enum cudaGraphMemAttributeType attr, void *value)
{
  cudaError_t bad = graph_mem_attribute_args (device, value);
  if (bad != cudaSuccess)
    return bad;
  if (*(uint64_t *) value != 0)
    return ws_cudart_set_error (cudaErrorInvalidValue);
  g_rec_mutex_lock (&ws_cudart.lock);
  cudaError_t err = cudaSuccess;
  if (attr == cudaGraphMemAttrUsedMemHigh)
    graph_mem_used_high = graph_mem_used;
  else if (attr == cudaGraphMemAttrReservedMemHigh)
    graph_mem_reserved_high = graph_mem_reserved;
  else
    err = cudaErrorInvalidValue;
  g_rec_mutex_unlock (&ws_cudart.lock);
  return err == cudaSuccess ? err : ws_cudart_set_error (err);
}

/* Gives back the memory graphs keep but do not use (their address ranges
 * stay reserved, as their virtual addresses do on a GPU). */
cudaError_t
cudaDeviceGraphMemTrim (int device)
{
  ENSURE_OR_RETURN ();
  if (device != 0)
    return ws_cudart_set_error (cudaErrorInvalidDevice);
  g_rec_mutex_lock (&ws_cudart.lock);
  tables_init ();
  GHashTableIter it;
  gpointer value;
  g_hash_table_iter_init (&it, graph_allocs);
  while (g_hash_table_iter_next (&it, NULL, &value))
    {
      GraphAlloc *a = value;
      if (a->backed && !a->mapped)
        {
          a->backed = FALSE;
          graph_mem_account (0, -(int64_t) a->bytes);
        }
    }
  g_rec_mutex_unlock (&ws_cudart.lock);
  return cudaSuccess;
}

cudaError_t
cudaGraphCreate (cudaGraph_t *pGraph, unsigned int flags)
{
  if (pGraph == NULL || flags != 0)
    return ws_cudart_set_error (cudaErrorInvalidValue);
  cudaError_t err = ws_cudart_ensure ();
  if (err != cudaSuccess)
    return ws_cudart_set_error (err);
  WsCudartGraph *g = graph_new ();
  g_rec_mutex_lock (&ws_cudart.lock);
  tables_init ();
  g_hash_table_add (graphs, g);
  g_rec_mutex_unlock (&ws_cudart.lock);
  *pGraph = (cudaGraph_t) g;
  return cudaSuccess;
}

cudaError_t
cudaGraphAddKernelNode (cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *pDependencies,
                        size_t numDependencies, const struct cudaKernelNodeParams *pNodeParams)
{
  struct CUgraphNode_st *n;
  if (pNodeParams == NULL)
    return ws_cudart_set_error (cudaErrorInvalidValue);
  cudaError_t err = new_node (pGraphNode, graph, pDependencies, numDependencies, NODE_KERNEL, &n);
  if (err != cudaSuccess)
    return err;
  err = set_kernel_params (n, pNodeParams, "cudaGraphAddKernelNode");
  if (err != cudaSuccess)
    {
      n->kind = NODE_EMPTY; /* stays in the graph, harmless */
      return ws_cudart_set_error (err);
    }
  return cudaSuccess;
}

cudaError_t
cudaGraphKernelNodeGetParams (cudaGraphNode_t node, struct cudaKernelNodeParams *pNodeParams)
{
  if (node == NULL || pNodeParams == NULL || node->kind != NODE_KERNEL)
    return ws_cudart_set_error (cudaErrorInvalidValue);
  /* The argument pointers point into the node's own copy, as the driver's do. */
  static __thread void *args[64];
  if (node->n_params > G_N_ELEMENTS (args))
    return ws_cudart_set_error (cudaErrorNotSupported);
  for (guint i = 0; i < node->n_params; i++)
    args[i] = node->params + node->param_offsets[i];
  memset (pNodeParams, 0, sizeof *pNodeParams);
  pNodeParams->func = (void *) node->kernel->host_fun;
  pNodeParams->gridDim = node->grid;
  pNodeParams->blockDim = node->block;
  pNodeParams->sharedMemBytes = (unsigned int) node->shared;
  pNodeParams->kernelParams = args;
  return cudaSuccess;
}

cudaError_t
cudaGraphKernelNodeSetParams (cudaGraphNode_t node, const struct cudaKernelNodeParams *pNodeParams)
{
  if (node == NULL || node->kind != NODE_KERNEL)
    return ws_cudart_set_error (cudaErrorInvalidValue);
  cudaError_t err = set_kernel_params (node, pNodeParams, "cudaGraphKernelNodeSetParams");
  return err == cudaSuccess ? err : ws_cudart_set_error (err);
}

cudaError_t
cudaGraphAddMemcpyNode (cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *pDependencies,
                        size_t numDependencies, const struct cudaMemcpy3DParms *pCopyParams)
{
  struct CUgraphNode_st *n;
  if (pCopyParams == NULL)
    return ws_cudart_set_error (cudaErrorInvalidValue);
  cudaError_t err = new_node (pGraphNode, graph, pDependencies, numDependencies, NODE_MEMCPY3D, &n);
  if (err == cudaSuccess)
    n->copy3d = *pCopyParams;
  return err;
}

cudaError_t
cudaGraphAddMemcpyNode1D (cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *pDependencies,
                          size_t numDependencies, void *dst, const void *src, size_t count, enum cudaMemcpyKind kind)
{
  struct CUgraphNode_st *n;
  cudaError_t err = new_node (pGraphNode, graph, pDependencies, numDependencies, NODE_MEMCPY, &n);
  if (err == cudaSuccess)
    {
      n->dst = dst;
      n->src = src;
      n->count = count;
      n->copy_kind = kind;
    }
  return err;
}

cudaError_t
cudaGraphAddMemsetNode (cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *pDependencies,
                        size_t numDependencies, const struct cudaMemsetParams *pMemsetParams)
{
  struct CUgraphNode_st *n;
  if (pMemsetParams == NULL
      || (pMemsetParams->elementSize != 1 && pMemsetParams->elementSize != 2 && pMemsetParams->elementSize != 4)
      || pMemsetParams->height == 0)
    return ws_cudart_set_error (cudaErrorInvalidValue);
  cudaError_t err = new_node (pGraphNode, graph, pDependencies, numDependencies, NODE_MEMSET2D, &n);
  if (err == cudaSuccess)
    {
      n->dst = pMemsetParams->dst;
      n->pitch = pMemsetParams->height > 1 ? pMemsetParams->pitch : pMemsetParams->width * pMemsetParams->elementSize;
      n->value = (int) pMemsetParams->value;
      n->elem_size = pMemsetParams->elementSize;
      n->width = pMemsetParams->width;
      n->height = pMemsetParams->height;
    }
  return err;
}

cudaError_t
cudaGraphAddHostNode (cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *pDependencies,
                      size_t numDependencies, const struct cudaHostNodeParams *pNodeParams)
{
  struct CUgraphNode_st *n;
  if (pNodeParams == NULL || pNodeParams->fn == NULL)
    return ws_cudart_set_error (cudaErrorInvalidValue);
  cudaError_t err = new_node (pGraphNode, graph, pDependencies, numDependencies, NODE_HOST, &n);
  if (err == cudaSuccess)
    {
      n->fn = pNodeParams->fn;
      n->user_data = pNodeParams->userData;
    }
  return err;
}

cudaError_t
cudaGraphAddEmptyNode (cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *pDependencies,
                       size_t numDependencies)
{
  struct CUgraphNode_st *n;
  return new_node (pGraphNode, graph, pDependencies, numDependencies, NODE_EMPTY, &n);
}

/* ---- conditional nodes -------------------------------------------------------- */

cudaError_t
cudaGraphConditionalHandleCreate (cudaGraphConditionalHandle *pHandle_out, cudaGraph_t graph,
                                  unsigned int defaultLaunchValue, unsigned int flags)
{
  ENSURE_OR_RETURN ();
  WsCudartGraph *g = graph_from (graph);
  if (pHandle_out == NULL || g == NULL || (flags != 0 && flags != cudaGraphCondAssignDefault))
    return ws_cudart_set_error (cudaErrorInvalidValue);
  g_rec_mutex_lock (&ws_cudart.lock);
  static guint serial;
  g_autofree char *label = g_strdup_printf ("conditional handle #%u", ++serial);
  g_autoptr (GError) error = NULL;
  uint64_t slot = ws_devmem_alloc (ws_cudart.mem, sizeof (uint32_t), WS_ALLOC_DEVICE, label, &error);
  if (slot == 0)
    {
      g_rec_mutex_unlock (&ws_cudart.lock);
      ws_cudart_warn ("cudaGraphConditionalHandleCreate: %s", error != NULL ? error->message : "no memory");
      return ws_cudart_set_error (cudaErrorMemoryAllocation);
    }
  /* the first launch sees the default even without cudaGraphCondAssignDefault */
  uint32_t v = defaultLaunchValue;
  memcpy ((void *) (uintptr_t) slot, &v, sizeof v);
  CondHandle h = { slot, defaultLaunchValue, flags };
  g_array_append_val (g->handles, h);
  g_hash_table_insert (cond_handles, GSIZE_TO_POINTER (slot), g);
  g_rec_mutex_unlock (&ws_cudart.lock);
  *pHandle_out = slot;
  return cudaSuccess;
}

/* Whether @handle was made for @g or a graph @g is (nested) a body of: a
 * conditional node goes into the handle's graph or one of its children. */
static gboolean
handle_usable_in (cudaGraphConditionalHandle handle, WsCudartGraph *g)
{
  g_rec_mutex_lock (&ws_cudart.lock);
  WsCudartGraph *owner = cond_handles != NULL ? g_hash_table_lookup (cond_handles, GSIZE_TO_POINTER (handle)) : NULL;
  while (owner != NULL && g != NULL && g != owner)
    g = g->parent != NULL ? g->parent->owner : NULL;
  g_rec_mutex_unlock (&ws_cudart.lock);
  return owner != NULL && g == owner;
}

static cudaError_t
add_conditional_node (cudaGraphNode_t *out, cudaGraph_t graph, const cudaGraphNode_t *deps, size_t n_deps,
                      struct cudaConditionalNodeParams *p)
{
  unsigned int max_size = p->type == cudaGraphCondTypeIf ? 2 : p->type == cudaGraphCondTypeWhile ? 1 : G_MAXUINT;
  if (p->type != cudaGraphCondTypeIf && p->type != cudaGraphCondTypeWhile && p->type != cudaGraphCondTypeSwitch)
    {
      ws_cudart_warn ("cudaGraphAddNode: conditional node type %d is not IF (0), WHILE (1) or SWITCH (2)", p->type);
      return ws_cudart_set_error (cudaErrorInvalidValue);
    }
  if (p->size == 0 || p->size > max_size)
    {
      ws_cudart_warn ("cudaGraphAddNode: a %s conditional node with %u body graphs (IF takes 1, or 2 with an ELSE "
                      "body; WHILE 1; SWITCH at least 1)",
                      p->type == cudaGraphCondTypeIf      ? "IF"
                      : p->type == cudaGraphCondTypeWhile ? "WHILE"
                                                          : "SWITCH",
                      p->size);
      return ws_cudart_set_error (cudaErrorInvalidValue);
    }
  WsCudartGraph *g = graph_from (graph);
  if (g != NULL && !handle_usable_in (p->handle, g))
    {
      ws_cudart_warn ("cudaGraphAddNode: 0x%llx is not a conditional handle of this graph or of a graph it is the "
                      "body of (make one with cudaGraphConditionalHandleCreate)",
                      p->handle);
      return ws_cudart_set_error (cudaErrorInvalidValue);
    }
  struct CUgraphNode_st *n;
  cudaError_t err = new_node (out, graph, deps, n_deps, NODE_CONDITIONAL, &n);
  if (err != cudaSuccess)
    return err;
  n->cond_type = p->type;
  n->handle = p->handle;
  n->n_bodies = p->size;
  n->bodies = g_new0 (cudaGraph_t, p->size);
  g_rec_mutex_lock (&ws_cudart.lock);
  for (unsigned int i = 0; i < p->size; i++)
    {
      WsCudartGraph *body = graph_new ();
      body->parent = n;
      g_hash_table_add (graphs, body);
      n->bodies[i] = (cudaGraph_t) body;
    }
  g_rec_mutex_unlock (&ws_cudart.lock);
  p->phGraph_out = n->bodies;
  return cudaSuccess;
}

/* The generic node constructor: each type goes to its own cudaGraphAdd*Node. */
cudaError_t
cudaGraphAddNode (cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *pDependencies,
                  const cudaGraphEdgeData *dependencyData, size_t numDependencies,
                  struct cudaGraphNodeParams *nodeParams)
{
  if (nodeParams == NULL)
    return ws_cudart_set_error (cudaErrorInvalidValue);
  if (!edges_default (dependencyData, numDependencies, "cudaGraphAddNode"))
    return ws_cudart_set_error (cudaErrorNotSupported);
  const cudaGraphNode_t *deps = pDependencies;
  size_t n = numDependencies;
  switch (nodeParams->type)
    {
    case cudaGraphNodeTypeKernel:
      {
        const struct cudaKernelNodeParamsV2 *k = &nodeParams->kernel;
        struct cudaKernelNodeParams kp = { 0 };
        kp.func = k->func;
        kp.gridDim = k->gridDim;
        kp.blockDim = k->blockDim;
        kp.sharedMemBytes = k->sharedMemBytes;
        kp.kernelParams = k->kernelParams;
        kp.extra = k->extra;
        return cudaGraphAddKernelNode (pGraphNode, graph, deps, n, &kp);
      }
    case cudaGraphNodeTypeMemcpy:
      if (nodeParams->memcpy.flags != 0)
        return ws_cudart_set_error (cudaErrorInvalidValue);
      return cudaGraphAddMemcpyNode (pGraphNode, graph, deps, n, &nodeParams->memcpy.copyParams);
    case cudaGraphNodeTypeMemset:
      {
        const struct cudaMemsetParamsV2 *m = &nodeParams->memset;
        struct cudaMemsetParams mp = { 0 };
        mp.dst = m->dst;
        mp.pitch = m->pitch;
        mp.value = m->value;
        mp.elementSize = m->elementSize;
        mp.width = m->width;
        mp.height = m->height;
        return cudaGraphAddMemsetNode (pGraphNode, graph, deps, n, &mp);
      }
    case cudaGraphNodeTypeHost:
      {
        struct cudaHostNodeParams hp = { nodeParams->host.fn, nodeParams->host.userData };
        return cudaGraphAddHostNode (pGraphNode, graph, deps, n, &hp);
      }
    case cudaGraphNodeTypeEmpty: return cudaGraphAddEmptyNode (pGraphNode, graph, deps, n);
    case cudaGraphNodeTypeMemAlloc:
      {
        struct cudaMemAllocNodeParamsV2 *a = &nodeParams->alloc;
        struct cudaMemAllocNodeParams ap = { 0 };
        ap.poolProps = a->poolProps;
        ap.accessDescs = a->accessDescs;
        ap.accessDescCount = a->accessDescCount;
        ap.bytesize = a->bytesize;
        cudaError_t err = cudaGraphAddMemAllocNode (pGraphNode, graph, deps, n, &ap);
        if (err == cudaSuccess)
          a->dptr = ap.dptr;
        return err;
      }
    case cudaGraphNodeTypeMemFree: return cudaGraphAddMemFreeNode (pGraphNode, graph, deps, n, nodeParams->free.dptr);
    case cudaGraphNodeTypeConditional:
      return add_conditional_node (pGraphNode, graph, deps, n, &nodeParams->conditional);
    case cudaGraphNodeTypeGraph:
    case cudaGraphNodeTypeWaitEvent:
    case cudaGraphNodeTypeEventRecord:
    case cudaGraphNodeTypeExtSemaphoreSignal:
    case cudaGraphNodeTypeExtSemaphoreWait:
      ws_cudart_warn ("cudaGraphAddNode: %s nodes are not supported by the Warpscope emulator",
                      nodeParams->type == cudaGraphNodeTypeGraph         ? "child-graph"
                      : nodeParams->type == cudaGraphNodeTypeWaitEvent   ? "event-wait"
                      : nodeParams->type == cudaGraphNodeTypeEventRecord ? "event-record"
                                                                         : "external-semaphore");
      return ws_cudart_set_error (cudaErrorNotSupported);
    default:
      ws_cudart_warn ("cudaGraphAddNode: unknown node type %d", nodeParams->type);
      return ws_cudart_set_error (cudaErrorInvalidValue);
    }
}

cudaError_t
cudaGraphAddDependencies (cudaGraph_t graph, const cudaGraphNode_t *from, const cudaGraphNode_t *to,
                          const cudaGraphEdgeData *edgeData, size_t numDependencies)
{
  WsCudartGraph *g = graph_from (graph);
  if (g == NULL || (numDependencies > 0 && (from == NULL || to == NULL)))
    return ws_cudart_set_error (cudaErrorInvalidValue);
  if (!edges_default (edgeData, numDependencies, "cudaGraphAddDependencies"))
    return ws_cudart_set_error (cudaErrorNotSupported);
  for (size_t i = 0; i < numDependencies; i++)
    if (from[i] == NULL || to[i] == NULL || from[i]->owner != g || to[i]->owner != g)
      return ws_cudart_set_error (cudaErrorInvalidValue);
  g_rec_mutex_lock (&ws_cudart.lock);
  for (size_t i = 0; i < numDependencies; i++)
    g_ptr_array_add (to[i]->deps, from[i]);
  g_rec_mutex_unlock (&ws_cudart.lock);
  return cudaSuccess;
}

cudaError_t
cudaGraphNodeGetType (cudaGraphNode_t node, enum cudaGraphNodeType *pType)
{
  if (node == NULL || pType == NULL)
    return ws_cudart_set_error (cudaErrorInvalidValue);
  switch (node->kind)
    {
    case NODE_KERNEL: *pType = cudaGraphNodeTypeKernel; break;
    case NODE_MEMCPY:
    case NODE_MEMCPY3D: *pType = cudaGraphNodeTypeMemcpy; break;
    case NODE_MEMSET:
    case NODE_MEMSET2D: *pType = cudaGraphNodeTypeMemset; break;
    case NODE_HOST: *pType = cudaGraphNodeTypeHost; break;
    case NODE_EMPTY: *pType = cudaGraphNodeTypeEmpty; break;
    case NODE_MEM_ALLOC: *pType = cudaGraphNodeTypeMemAlloc; break;
    case NODE_MEM_FREE: *pType = cudaGraphNodeTypeMemFree; break;
    case NODE_CONDITIONAL: *pType = cudaGraphNodeTypeConditional; break;
    }
  return cudaSuccess;
}

cudaError_t
cudaGraphClone (cudaGraph_t *pGraphClone, cudaGraph_t originalGraph)
{
  WsCudartGraph *g = graph_from (originalGraph);
  if (g == NULL || pGraphClone == NULL)
    return ws_cudart_set_error (cudaErrorInvalidValue);
  for (guint i = 0; i < g->nodes->len; i++)
    if (((struct CUgraphNode_st *) g->nodes->pdata[i])->kind == NODE_CONDITIONAL)
      {
        ws_cudart_warn ("cudaGraphClone: a graph with conditional nodes cannot be cloned (a CUDA rule)");
        return ws_cudart_set_error (cudaErrorNotSupported);
      }
  g_rec_mutex_lock (&ws_cudart.lock);
  g_autoptr (GHashTable) map = g_hash_table_new (g_direct_hash, g_direct_equal);
  WsCudartGraph *c = graph_copy (g, FALSE, map);
  g_hash_table_add (graphs, c);
  g_rec_mutex_unlock (&ws_cudart.lock);
  *pGraphClone = (cudaGraph_t) c;
  return cudaSuccess;
}

cudaError_t
cudaGraphExecKernelNodeSetParams (cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
                                  const struct cudaKernelNodeParams *pNodeParams)
{
  if (!exec_valid (hGraphExec))
    return ws_cudart_set_error (cudaErrorInvalidValue);
  struct CUgraphNode_st *k = g_hash_table_lookup (hGraphExec->map, node);
  if (k == NULL || k->kind != NODE_KERNEL)
    return ws_cudart_set_error (cudaErrorInvalidValue);
  cudaError_t err = set_kernel_params (k, pNodeParams, "cudaGraphExecKernelNodeSetParams");
  return err == cudaSuccess ? err : ws_cudart_set_error (err);
}

/* Why @a (a graph being taken) does not match @b (the executable graph's)
 * node for node, or cudaGraphExecUpdateSuccess; conditional nodes match
 * when their type, handle, body count and bodies do. */
static enum cudaGraphExecUpdateResult
graph_matches (WsCudartGraph *a, WsCudartGraph *b)
{
  if (a->nodes->len != b->nodes->len)
    return cudaGraphExecUpdateErrorTopologyChanged;
  for (guint i = 0; i < a->nodes->len; i++)
    {
      struct CUgraphNode_st *x = a->nodes->pdata[i], *y = b->nodes->pdata[i];
      if (x->kind != y->kind)
        return cudaGraphExecUpdateErrorNodeTypeChanged;
      if (x->deps->len != y->deps->len)
        return cudaGraphExecUpdateErrorTopologyChanged;
      if (x->kind == NODE_KERNEL && x->kernel->fn != y->kernel->fn)
        return cudaGraphExecUpdateErrorFunctionChanged;
      if (x->kind == NODE_CONDITIONAL)
        {
          if (x->cond_type != y->cond_type || x->handle != y->handle || x->n_bodies != y->n_bodies)
            return cudaGraphExecUpdateErrorParametersChanged;
          for (unsigned int bi = 0; bi < x->n_bodies; bi++)
            {
              enum cudaGraphExecUpdateResult r = graph_matches ((WsCudartGraph *) x->bodies[bi],
                                                                (WsCudartGraph *) y->bodies[bi]);
              if (r != cudaGraphExecUpdateSuccess)
                return r;
            }
        }
    }
  return cudaGraphExecUpdateSuccess;
}

/* Takes @hGraph's node parameters when its nodes match the executable
 * graph's one for one (same kinds, same kernels, same dependencies). */
cudaError_t
cudaGraphExecUpdate (cudaGraphExec_t hGraphExec, cudaGraph_t hGraph, cudaGraphExecUpdateResultInfo *resultInfo)
{
  WsCudartGraph *g = graph_from (hGraph);
  if (!exec_valid (hGraphExec) || g == NULL)
    return ws_cudart_set_error (cudaErrorInvalidValue);
  if (resultInfo)
    memset (resultInfo, 0, sizeof *resultInfo);
  g_rec_mutex_lock (&ws_cudart.lock);
  g_autoptr (GHashTable) map = g_hash_table_new (g_direct_hash, g_direct_equal);
  WsCudartGraph *c = graph_copy (g, TRUE, map);
  WsCudartGraph *old = hGraphExec->graph;
  enum cudaGraphExecUpdateResult result = graph_matches (c, old);
  if (result != cudaGraphExecUpdateSuccess)
    {
      graph_unref (c);
      g_rec_mutex_unlock (&ws_cudart.lock);
      if (resultInfo)
        resultInfo->result = result;
      return ws_cudart_set_error (cudaErrorGraphExecUpdateFailure);
    }
  hGraphExec->graph = c;
  g_hash_table_remove_all (hGraphExec->map);
  GHashTableIter it;
  gpointer key, value;
  g_hash_table_iter_init (&it, map);
  while (g_hash_table_iter_next (&it, &key, &value))
    g_hash_table_insert (hGraphExec->map, key, value);
  graph_unref (old);
  g_rec_mutex_unlock (&ws_cudart.lock);
  if (resultInfo)
    resultInfo->result = cudaGraphExecUpdateSuccess;
  return cudaSuccess;
}

/* ---- capture ------------------------------------------------------------- */

/* Starts capturing @stream into a new graph (@into NULL) or into @into
 * after @deps. */
static cudaError_t
begin_capture (cudaStream_t stream, enum cudaStreamCaptureMode mode, WsCudartGraph *into, const cudaGraphNode_t *deps,
               const cudaGraphEdgeData *edges, size_t n_deps, const char *what)
{
  static unsigned long long next_capture_id;
  cudaError_t err = ws_cudart_ensure ();
  if (err != cudaSuccess)
    return ws_cudart_set_error (err);
  if (!ws_cudart_stream_valid (stream))
    return ws_cudart_set_error (cudaErrorInvalidResourceHandle);
  if (!user_stream (stream))
    {
      /* CUDA forbids capturing the legacy stream; the emulator keeps no
       * per-thread capture state, so cudaStreamPerThread is refused too. */
      if (stream == cudaStreamPerThread)
        ws_cudart_warn ("%s: capturing cudaStreamPerThread is not supported by the Warpscope "
                        "emulator; capture a stream made with cudaStreamCreate",
                        what);
      return ws_cudart_set_error (cudaErrorStreamCaptureUnsupported);
    }
  if (mode != cudaStreamCaptureModeGlobal && mode != cudaStreamCaptureModeThreadLocal
      && mode != cudaStreamCaptureModeRelaxed)
    return ws_cudart_set_error (cudaErrorInvalidValue);
  if (n_deps > 0 && deps == NULL)
    return ws_cudart_set_error (cudaErrorInvalidValue);
  for (size_t i = 0; i < n_deps; i++)
    if (deps[i] == NULL || deps[i]->owner != into)
      return ws_cudart_set_error (cudaErrorInvalidValue);
  if (!edges_default (edges, n_deps, what))
    return ws_cudart_set_error (cudaErrorNotSupported);
  g_rec_mutex_lock (&ws_cudart.lock);
  if (stream->capture != NULL || (into != NULL && into->origin != NULL))
    {
      g_rec_mutex_unlock (&ws_cudart.lock);
      return ws_cudart_set_error (cudaErrorIllegalState);
    }
  WsCudartGraph *g = into;
  if (g == NULL)
    {
      /* a graph handle already: cudaStreamGetCaptureInfo hands it out and
       * nodes may be added to it by hand during the capture */
      g = graph_new ();
      tables_init ();
      g_hash_table_add (graphs, g);
    }
  g->origin = stream;
  g->capture_into = into != NULL;
  g->capture_id = ++next_capture_id;
  g_clear_pointer (&g->invalid, g_free);
  g_ptr_array_set_size (g->tail, 0);
  for (size_t i = 0; i < n_deps; i++)
    g_ptr_array_add (g->tail, deps[i]);
  stream->capture = g;
  g_rec_mutex_unlock (&ws_cudart.lock);
  return cudaSuccess;
}

cudaError_t
cudaStreamBeginCapture (cudaStream_t stream, enum cudaStreamCaptureMode mode)
{
  return begin_capture (stream, mode, NULL, NULL, NULL, 0, "cudaStreamBeginCapture");
}

cudaError_t
cudaStreamBeginCapture_ptsz (cudaStream_t stream, enum cudaStreamCaptureMode mode)
{
  return cudaStreamBeginCapture (stream, mode);
}

cudaError_t
cudaStreamBeginCaptureToGraph (cudaStream_t stream, cudaGraph_t graph, const cudaGraphNode_t *dependencies,
                               const cudaGraphEdgeData *dependencyData, size_t numDependencies,
                               enum cudaStreamCaptureMode mode)
{
  ENSURE_OR_RETURN ();
  WsCudartGraph *g = graph_from (graph);
  if (g == NULL)
    return ws_cudart_set_error (cudaErrorInvalidValue);
  return begin_capture (stream, mode, g, dependencies, dependencyData, numDependencies,
                        "cudaStreamBeginCaptureToGraph");
}

cudaError_t
cudaStreamBeginCaptureToGraph_ptsz (cudaStream_t stream, cudaGraph_t graph, const cudaGraphNode_t *dependencies,
                                    const cudaGraphEdgeData *dependencyData, size_t numDependencies,
                                    enum cudaStreamCaptureMode mode)
{
  return cudaStreamBeginCaptureToGraph (stream, graph, dependencies, dependencyData, numDependencies, mode);
}

/* A capture into an existing graph may pass no @pGraph (the caller has it). */
cudaError_t
cudaStreamEndCapture (cudaStream_t stream, cudaGraph_t *pGraph)
{
  cudaError_t err = ws_cudart_ensure ();
  if (err != cudaSuccess)
    return ws_cudart_set_error (err);
  if (!ws_cudart_stream_valid (stream))
    return ws_cudart_set_error (cudaErrorInvalidResourceHandle);
  g_rec_mutex_lock (&ws_cudart.lock);
  WsCudartGraph *g = user_stream (stream) ? stream->capture : NULL;
  if (g == NULL)
    {
      g_rec_mutex_unlock (&ws_cudart.lock);
      return ws_cudart_set_error (pGraph == NULL ? cudaErrorInvalidValue : cudaErrorIllegalState);
    }
  if (pGraph == NULL && !g->capture_into)
    {
      g_rec_mutex_unlock (&ws_cudart.lock);
      return ws_cudart_set_error (cudaErrorInvalidValue);
    }
  if (g->origin != stream)
    {
      g_rec_mutex_unlock (&ws_cudart.lock);
      return ws_cudart_set_error (cudaErrorStreamCaptureUnmatched);
    }
  /* Every stream joined into the capture leaves it. */
  GHashTableIter it;
  gpointer key;
  g_hash_table_iter_init (&it, ws_cudart.streams);
  while (g_hash_table_iter_next (&it, &key, NULL))
    if (((cudaStream_t) key)->capture == g)
      ((cudaStream_t) key)->capture = NULL;
  g_hash_table_iter_init (&it, ws_cudart.events);
  while (g_hash_table_iter_next (&it, &key, NULL))
    if (((cudaEvent_t) key)->capture == g)
      ((cudaEvent_t) key)->capture = NULL;
  g->origin = NULL;
  g_ptr_array_set_size (g->tail, 0);
  gboolean into = g->capture_into;
  g->capture_into = FALSE;
  if (g->invalid != NULL)
    {
      /* a graph of the capture's own is dropped; the user's graph stays
       * theirs, with what was captured before the failure */
      if (!into)
        {
          g_hash_table_remove (graphs, g);
          graph_unref (g);
        }
      else
        g_clear_pointer (&g->invalid, g_free);
      g_rec_mutex_unlock (&ws_cudart.lock);
      if (pGraph != NULL)
        *pGraph = NULL;
      return ws_cudart_set_error (cudaErrorStreamCaptureInvalidated);
    }
  g_rec_mutex_unlock (&ws_cudart.lock);
  if (pGraph != NULL)
    *pGraph = (cudaGraph_t) g;
  return cudaSuccess;
}

cudaError_t
cudaStreamEndCapture_ptsz (cudaStream_t stream, cudaGraph_t *pGraph)
{
  return cudaStreamEndCapture (stream, pGraph);
}

/* The capture's shared dependency set stands for every stream in it. */
cudaError_t
cudaStreamGetCaptureInfo (cudaStream_t stream, enum cudaStreamCaptureStatus *captureStatus_out,
                          unsigned long long *id_out, cudaGraph_t *graph_out, const cudaGraphNode_t **dependencies_out,
                          const cudaGraphEdgeData **edgeData_out, size_t *numDependencies_out)
{
  if (captureStatus_out == NULL || (edgeData_out != NULL && dependencies_out == NULL))
    return ws_cudart_set_error (cudaErrorInvalidValue);
  ENSURE_OR_RETURN ();
  if (!ws_cudart_stream_valid (stream))
    return ws_cudart_set_error (cudaErrorInvalidResourceHandle);
  g_rec_mutex_lock (&ws_cudart.lock);
  WsCudartGraph *g = ws_cudart_capturing (stream);
  if (g == NULL)
    *captureStatus_out = cudaStreamCaptureStatusNone;
  else
    {
      *captureStatus_out = g->invalid != NULL ? cudaStreamCaptureStatusInvalidated : cudaStreamCaptureStatusActive;
      if (id_out != NULL)
        *id_out = g->capture_id;
      if (graph_out != NULL)
        *graph_out = (cudaGraph_t) g;
      if (dependencies_out != NULL)
        *dependencies_out = (const cudaGraphNode_t *) g->tail->pdata;
      if (edgeData_out != NULL)
        {
          g_array_set_size (g->tail_edges, 0);
          g_array_set_size (g->tail_edges, MAX (g->tail->len, 1));
          *edgeData_out = (const cudaGraphEdgeData *) (gpointer) g->tail_edges->data;
        }
      if (numDependencies_out != NULL)
        *numDependencies_out = g->tail->len;
    }
  g_rec_mutex_unlock (&ws_cudart.lock);
  return cudaSuccess;
}

cudaError_t
cudaStreamGetCaptureInfo_ptsz (cudaStream_t stream, enum cudaStreamCaptureStatus *captureStatus_out,
                               unsigned long long *id_out, cudaGraph_t *graph_out,
                               const cudaGraphNode_t **dependencies_out, const cudaGraphEdgeData **edgeData_out,
                               size_t *numDependencies_out)
{
  return cudaStreamGetCaptureInfo (stream, captureStatus_out, id_out, graph_out, dependencies_out, edgeData_out,
                                   numDependencies_out);
}

cudaError_t
cudaStreamUpdateCaptureDependencies (cudaStream_t stream, cudaGraphNode_t *dependencies,
                                     const cudaGraphEdgeData *dependencyData, size_t numDependencies,
                                     unsigned int flags)
{
  ENSURE_OR_RETURN ();
  if (!ws_cudart_stream_valid (stream))
    return ws_cudart_set_error (cudaErrorInvalidResourceHandle);
  if ((flags != cudaStreamAddCaptureDependencies && flags != cudaStreamSetCaptureDependencies)
      || (numDependencies > 0 && dependencies == NULL))
    return ws_cudart_set_error (cudaErrorInvalidValue);
  if (!edges_default (dependencyData, numDependencies, "cudaStreamUpdateCaptureDependencies"))
    return ws_cudart_set_error (cudaErrorNotSupported);
  g_rec_mutex_lock (&ws_cudart.lock);
  WsCudartGraph *g = ws_cudart_capturing (stream);
  cudaError_t err = g == NULL ? cudaErrorIllegalState : cudaSuccess;
  for (size_t i = 0; err == cudaSuccess && i < numDependencies; i++)
    if (dependencies[i] == NULL || dependencies[i]->owner != g)
      err = cudaErrorInvalidValue;
  if (err == cudaSuccess)
    {
      if (flags == cudaStreamSetCaptureDependencies)
        g_ptr_array_set_size (g->tail, 0);
      for (size_t i = 0; i < numDependencies; i++)
        if (!g_ptr_array_find (g->tail, dependencies[i], NULL))
          g_ptr_array_add (g->tail, dependencies[i]);
    }
  g_rec_mutex_unlock (&ws_cudart.lock);
  return err == cudaSuccess ? err : ws_cudart_set_error (err);
}

cudaError_t
cudaStreamUpdateCaptureDependencies_ptsz (cudaStream_t stream, cudaGraphNode_t *dependencies,
                                          const cudaGraphEdgeData *dependencyData, size_t numDependencies,
                                          unsigned int flags)
{
  return cudaStreamUpdateCaptureDependencies (stream, dependencies, dependencyData, numDependencies, flags);
}

/* ---- graphs --------------------------------------------------------------- */

static WsCudartGraph *
graph_from (cudaGraph_t graph)
{
  g_rec_mutex_lock (&ws_cudart.lock);
  tables_init ();
  WsCudartGraph *g = g_hash_table_contains (graphs, graph) ? (WsCudartGraph *) graph : NULL;
  g_rec_mutex_unlock (&ws_cudart.lock);
  return g;
}

cudaError_t
cudaGraphDestroy (cudaGraph_t graph)
{
  WsCudartGraph *g = graph_from (graph);
  if (g == NULL)
    return ws_cudart_set_error (cudaErrorInvalidValue);
  if (g->parent != NULL)
    {
      ws_cudart_warn ("cudaGraphDestroy: %p is the body of a conditional node, which owns it", (void *) graph);
      return ws_cudart_set_error (cudaErrorInvalidValue);
    }
  if (g->origin != NULL)
    return ws_cudart_set_error (cudaErrorIllegalState); /* being captured into */
  g_rec_mutex_lock (&ws_cudart.lock);
  g_hash_table_remove (graphs, g);
  g_rec_mutex_unlock (&ws_cudart.lock);
  graph_unref (g); /* instantiated executables keep their reference */
  return cudaSuccess;
}

cudaError_t
cudaGraphGetNodes (cudaGraph_t graph, cudaGraphNode_t *nodes, size_t *numNodes)
{
  WsCudartGraph *g = graph_from (graph);
  if (g == NULL || numNodes == NULL)
    return ws_cudart_set_error (cudaErrorInvalidValue);
  if (nodes != NULL)
    for (size_t i = 0; i < *numNodes; i++)
      nodes[i] = i < g->nodes->len ? g->nodes->pdata[i] : NULL;
  *numNodes = g->nodes->len;
  return cudaSuccess;
}

/* The kind of the first node CUDA does not allow in a conditional body
 * (@in_body: @g is one), or NULL. */
static const char *
body_node_refused (WsCudartGraph *g, gboolean in_body)
{
  for (guint i = 0; i < g->nodes->len; i++)
    {
      struct CUgraphNode_st *n = g->nodes->pdata[i];
      if (in_body && n->kind == NODE_HOST)
        return "host";
      if (in_body && (n->kind == NODE_MEM_ALLOC || n->kind == NODE_MEM_FREE))
        return "memory allocation or free";
      for (unsigned int b = 0; n->kind == NODE_CONDITIONAL && b < n->n_bodies; b++)
        {
          const char *bad = body_node_refused ((WsCudartGraph *) n->bodies[b], TRUE);
          if (bad != NULL)
            return bad;
        }
    }
  return NULL;
}

cudaError_t
cudaGraphInstantiate (cudaGraphExec_t *pGraphExec, cudaGraph_t graph, unsigned long long flags)
{
  if (pGraphExec == NULL)
    return ws_cudart_set_error (cudaErrorInvalidValue);
  WsCudartGraph *g = graph_from (graph);
  if (g == NULL)
    return ws_cudart_set_error (cudaErrorInvalidValue);
  if (flags
      & ~(unsigned long long) (cudaGraphInstantiateFlagAutoFreeOnLaunch | cudaGraphInstantiateFlagUseNodePriority))
    {
      ws_cudart_warn ("cudaGraphInstantiate: flags 0x%llx are not supported by the Warpscope emulator", flags);
      return ws_cudart_set_error (cudaErrorNotSupported);
    }
  const char *bad = body_node_refused (g, FALSE);
  if (bad != NULL)
    {
      ws_cudart_warn ("cudaGraphInstantiate: a conditional node's body holds a %s node; CUDA allows only kernel, "
                      "empty, memcpy, memset and conditional nodes there",
                      bad);
      return ws_cudart_set_error (cudaErrorInvalidValue);
    }
  struct CUgraphExec_st *e = g_new0 (struct CUgraphExec_st, 1);
  g_rec_mutex_lock (&ws_cudart.lock);
  e->map = g_hash_table_new (g_direct_hash, g_direct_equal);
  e->graph = graph_copy (g, TRUE, e->map);
  g_hash_table_add (execs, e);
  g_rec_mutex_unlock (&ws_cudart.lock);
  *pGraphExec = e;
  return cudaSuccess;
}

cudaError_t
cudaGraphInstantiateWithFlags (cudaGraphExec_t *pGraphExec, cudaGraph_t graph, unsigned long long flags)
{
  return cudaGraphInstantiate (pGraphExec, graph, flags);
}

static gboolean
exec_valid (cudaGraphExec_t exec)
{
  g_rec_mutex_lock (&ws_cudart.lock);
  tables_init ();
  gboolean ok = g_hash_table_contains (execs, exec);
  g_rec_mutex_unlock (&ws_cudart.lock);
  return ok;
}

cudaError_t
cudaGraphExecDestroy (cudaGraphExec_t graphExec)
{
  if (!exec_valid (graphExec))
    return ws_cudart_set_error (cudaErrorInvalidValue);
  g_rec_mutex_lock (&ws_cudart.lock);
  g_hash_table_remove (execs, graphExec);
  g_rec_mutex_unlock (&ws_cudart.lock);
  graph_unref (graphExec->graph);
  g_hash_table_unref (graphExec->map);
  g_free (graphExec);
  return cudaSuccess;
}

/* Everything is resident already: nothing to upload. */
cudaError_t
cudaGraphUpload (cudaGraphExec_t graphExec, cudaStream_t stream)
{
  if (!exec_valid (graphExec))
    return ws_cudart_set_error (cudaErrorInvalidValue);
  if (!ws_cudart_stream_valid (stream))
    return ws_cudart_set_error (cudaErrorInvalidResourceHandle);
  return cudaSuccess;
}

cudaError_t
cudaGraphUpload_ptsz (cudaGraphExec_t graphExec, cudaStream_t stream)
{
  return cudaGraphUpload (graphExec, stream);
}

/* How deep conditional nodes may nest in the executor (CUDA itself has a
 * limit; this only keeps a malformed graph from exhausting the stack). */
#define WS_CUDART_MAX_GRAPH_DEPTH 64

static cudaError_t run_graph (WsCudartGraph *g, guint depth);

/* The condition value in @handle's slot. */
static cudaError_t
condition_read (cudaGraphConditionalHandle handle, uint32_t *value)
{
  g_rec_mutex_lock (&ws_cudart.lock);
  g_autoptr (GError) error = NULL;
  const void *p = ws_devmem_host_ptr (ws_cudart.mem, handle, sizeof *value, &error);
  if (p != NULL)
    memcpy (value, p, sizeof *value);
  g_rec_mutex_unlock (&ws_cudart.lock);
  if (p == NULL)
    {
      ws_cudart_warn ("conditional node: the slot of handle 0x%llx is not readable: %s", handle, error->message);
      return ws_cudart_set_error (cudaErrorInvalidValue);
    }
  return cudaSuccess;
}

/* IF runs body 0 on a non-zero value, else body 1 when there is one; WHILE
 * runs body 0 as long as the value (read before each iteration) is
 * non-zero; SWITCH runs body[value] when value < size. */
static cudaError_t
run_conditional (const struct CUgraphNode_st *n, guint depth)
{
  uint32_t v = 0;
  cudaError_t err = condition_read (n->handle, &v);
  if (err != cudaSuccess)
    return err;
  switch (n->cond_type)
    {
    case cudaGraphCondTypeIf:
      if (v != 0)
        return run_graph ((WsCudartGraph *) n->bodies[0], depth + 1);
      return n->n_bodies == 2 ? run_graph ((WsCudartGraph *) n->bodies[1], depth + 1) : cudaSuccess;
    case cudaGraphCondTypeWhile:
      while (err == cudaSuccess && v != 0)
        {
          err = run_graph ((WsCudartGraph *) n->bodies[0], depth + 1);
          if (err == cudaSuccess)
            err = condition_read (n->handle, &v);
        }
      return err;
    case cudaGraphCondTypeSwitch:
      return v < n->n_bodies ? run_graph ((WsCudartGraph *) n->bodies[v], depth + 1) : cudaSuccess;
    }
  return ws_cudart_set_error (cudaErrorInvalidValue);
}

/* Runs the nodes of an executable graph (or of a body of one) in order,
 * after giving the graph's handles made with cudaGraphCondAssignDefault
 * their default value. */
static cudaError_t
run_graph (WsCudartGraph *g, guint depth)
{
  if (depth > WS_CUDART_MAX_GRAPH_DEPTH)
    {
      ws_cudart_warn ("cudaGraphLaunch: conditional nodes nest deeper than %d levels", WS_CUDART_MAX_GRAPH_DEPTH);
      return ws_cudart_set_error (cudaErrorNotSupported);
    }
  for (guint i = 0; i < g->handles->len; i++)
    {
      const CondHandle *h = &g_array_index (g->handles, CondHandle, i);
      if (h->flags & cudaGraphCondAssignDefault)
        {
          uint32_t v = h->default_value;
          memcpy ((void *) (uintptr_t) h->slot, &v, sizeof v);
        }
    }
  cudaError_t err = cudaSuccess;
  GPtrArray *nodes = g->nodes;
  for (guint i = 0; i < nodes->len && err == cudaSuccess; i++)
    {
      struct CUgraphNode_st *n = nodes->pdata[i];
      switch (n->kind)
        {
        case NODE_KERNEL:
          {
            void **args = g_newa (void *, MAX (1, n->n_params));
            for (guint p = 0; p < n->n_params; p++)
              args[p] = n->params + n->param_offsets[p];
            err = ws_cudart_launch (NULL, n->kernel, n->grid, n->block, args, n->shared, NULL);
          }
          break;
        case NODE_MEMCPY: err = cudaMemcpyAsync (n->dst, n->src, n->count, n->copy_kind, NULL); break;
        case NODE_MEMSET: err = cudaMemsetAsync (n->dst, n->value, n->count, NULL); break;
        case NODE_HOST: n->fn (n->user_data); break;
        case NODE_MEMCPY3D: err = cudaMemcpy3D (&n->copy3d); break;
        case NODE_MEMSET2D: err = memset_elements (n); break;
        case NODE_EMPTY: break;
        case NODE_MEM_ALLOC: err = graph_alloc_map (n->dst); break;
        case NODE_MEM_FREE:
          err = graph_alloc_unmap (n->dst) ? cudaSuccess : ws_cudart_set_error (cudaErrorInvalidValue);
          break;
        case NODE_CONDITIONAL: err = run_conditional (n, depth); break;
        }
      /* A fault inside the graph is sticky like any other. */
      if (err == cudaSuccess && ws_cudart.sticky != cudaSuccess)
        err = ws_cudart.sticky;
    }
  return err;
}

cudaError_t
cudaGraphLaunch (cudaGraphExec_t graphExec, cudaStream_t stream)
{
  cudaError_t err = ws_cudart_ensure ();
  if (err != cudaSuccess)
    return ws_cudart_set_error (err);
  if (!exec_valid (graphExec))
    return ws_cudart_set_error (cudaErrorInvalidValue);
  if (!ws_cudart_stream_valid (stream))
    return ws_cudart_set_error (cudaErrorInvalidResourceHandle);
  WsCudartGraph *into = ws_cudart_capturing (stream);
  if (into != NULL)
    return ws_cudart_capture_unsupported (into, "cudaGraphLaunch");
  return run_graph (graphExec->graph, 0);
}

cudaError_t
cudaGraphLaunch_ptsz (cudaGraphExec_t graphExec, cudaStream_t stream)
{
  return cudaGraphLaunch (graphExec, stream);
}
