/* ws-cudart-graph.c: CUDA graphs made by stream capture.
 *
 * While a stream captures, the kernel launches, copies, memsets and host
 * functions issued to it (and to streams joined through events) are
 * recorded instead of run; cudaGraphLaunch replays them in issue order,
 * which is a valid order of the captured dependencies.  Kernel arguments
 * are copied at capture time, as the driver does.  Graphs built node by
 * node (cudaGraphAdd*Node) are not supported: those calls fail loudly. */
#define G_LOG_DOMAIN "ws-cudart"

#include "cudart/ws-cudart-private.h"

#include <string.h>

typedef enum {
  NODE_KERNEL,
  NODE_MEMCPY,
  NODE_MEMSET,
  NODE_HOST,
} NodeKind;

struct CUgraphNode_st {
  NodeKind kind;
  /* kernel */
  WsCudartKernel *kernel;
  dim3 grid, block;
  size_t shared;
  guint n_params;
  guint8 *params;            /* copied argument bytes */
  uint32_t *param_offsets;   /* into params */
  /* memcpy / memset */
  void *dst;
  const void *src;
  size_t count;
  enum cudaMemcpyKind copy_kind;
  int value;
  /* host function */
  cudaHostFn_t fn;
  void *user_data;
};

struct _WsCudartGraph {
  GPtrArray *nodes;          /* struct CUgraphNode_st*, owned */
  cudaStream_t origin;       /* stream that began the capture (NULL when done) */
  char *invalid;             /* why the capture was invalidated */
};

struct CUgraphExec_st {
  WsCudartGraph *graph;      /* a reference */
};

static GHashTable *graphs;   /* live WsCudartGraph* (handles given out) */
static GHashTable *execs;

static void
node_free (struct CUgraphNode_st *n)
{
  g_free (n->params);
  g_free (n->param_offsets);
  g_free (n);
}

static void
graph_clear (gpointer data)
{
  WsCudartGraph *g = data;
  g_ptr_array_unref (g->nodes);
  g_free (g->invalid);
}

static WsCudartGraph *
graph_new (void)
{
  WsCudartGraph *g = g_atomic_rc_box_new0 (WsCudartGraph);
  g->nodes = g_ptr_array_new_with_free_func ((GDestroyNotify) node_free);
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
  g_rec_mutex_lock (&ws_cudart.lock);
  g_ptr_array_add (g->nodes, n);
  g_rec_mutex_unlock (&ws_cudart.lock);
  return n;
}

cudaError_t
ws_cudart_capture_kernel (WsCudartGraph *g, WsCudartKernel *k, dim3 grid, dim3 block, void **args, size_t shared)
{
  WsEmuFunctionInfo info = { 0 };
  ws_emu_function_get_info (k->fn, &info);
  struct CUgraphNode_st *n = add_node (g, NODE_KERNEL);
  n->kernel = k;
  n->grid = grid;
  n->block = block;
  n->shared = shared;
  n->n_params = info.n_params;
  n->param_offsets = g_new0 (uint32_t, MAX (1, info.n_params));
  gsize total = 0;
  for (guint i = 0; i < info.n_params; i++)
    {
      n->param_offsets[i] = (uint32_t) total;
      total += (info.param_sizes[i] + 7) & ~7u;
    }
  n->params = g_malloc0 (MAX (total, 1));
  for (guint i = 0; i < info.n_params; i++)
    memcpy (n->params + n->param_offsets[i], args[i], info.param_sizes[i]);
  return cudaSuccess;
}

cudaError_t
ws_cudart_capture_memcpy (WsCudartGraph *g, void *dst, const void *src, size_t count, enum cudaMemcpyKind kind)
{
  struct CUgraphNode_st *n = add_node (g, NODE_MEMCPY);
  n->dst = dst;
  n->src = src;
  n->count = count;
  n->copy_kind = kind;
  return cudaSuccess;
}

cudaError_t
ws_cudart_capture_memset (WsCudartGraph *g, void *dst, int value, size_t count)
{
  struct CUgraphNode_st *n = add_node (g, NODE_MEMSET);
  n->dst = dst;
  n->value = value;
  n->count = count;
  return cudaSuccess;
}

cudaError_t
ws_cudart_capture_host (WsCudartGraph *g, cudaHostFn_t fn, void *user_data)
{
  struct CUgraphNode_st *n = add_node (g, NODE_HOST);
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

/* ---- capture ------------------------------------------------------------- */

cudaError_t
cudaStreamBeginCapture (cudaStream_t stream, enum cudaStreamCaptureMode mode)
{
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
        ws_cudart_warn ("cudaStreamBeginCapture: capturing cudaStreamPerThread is not supported by the Warpscope "
                        "emulator; capture a stream made with cudaStreamCreate");
      return ws_cudart_set_error (cudaErrorStreamCaptureUnsupported);
    }
  if (mode != cudaStreamCaptureModeGlobal && mode != cudaStreamCaptureModeThreadLocal &&
      mode != cudaStreamCaptureModeRelaxed)
    return ws_cudart_set_error (cudaErrorInvalidValue);
  g_rec_mutex_lock (&ws_cudart.lock);
  if (stream->capture != NULL)
    {
      g_rec_mutex_unlock (&ws_cudart.lock);
      return ws_cudart_set_error (cudaErrorIllegalState);
    }
  WsCudartGraph *g = graph_new ();
  g->origin = stream;
  stream->capture = g;
  g_rec_mutex_unlock (&ws_cudart.lock);
  return cudaSuccess;
}

cudaError_t
cudaStreamBeginCapture_ptsz (cudaStream_t stream, enum cudaStreamCaptureMode mode)
{
  return cudaStreamBeginCapture (stream, mode);
}

cudaError_t
cudaStreamEndCapture (cudaStream_t stream, cudaGraph_t *pGraph)
{
  if (pGraph == NULL)
    return ws_cudart_set_error (cudaErrorInvalidValue);
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
      return ws_cudart_set_error (cudaErrorIllegalState);
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
  if (g->invalid != NULL)
    {
      graph_unref (g);
      g_rec_mutex_unlock (&ws_cudart.lock);
      *pGraph = NULL;
      return ws_cudart_set_error (cudaErrorStreamCaptureInvalidated);
    }
  tables_init ();
  g_hash_table_add (graphs, g);
  g_rec_mutex_unlock (&ws_cudart.lock);
  *pGraph = (cudaGraph_t) g;
  return cudaSuccess;
}

cudaError_t
cudaStreamEndCapture_ptsz (cudaStream_t stream, cudaGraph_t *pGraph)
{
  return cudaStreamEndCapture (stream, pGraph);
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
  g_rec_mutex_lock (&ws_cudart.lock);
  g_hash_table_remove (graphs, g);
  g_rec_mutex_unlock (&ws_cudart.lock);
  graph_unref (g);   /* instantiated executables keep their reference */
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

cudaError_t
cudaGraphInstantiate (cudaGraphExec_t *pGraphExec, cudaGraph_t graph, unsigned long long flags)
{
  if (pGraphExec == NULL)
    return ws_cudart_set_error (cudaErrorInvalidValue);
  WsCudartGraph *g = graph_from (graph);
  if (g == NULL)
    return ws_cudart_set_error (cudaErrorInvalidValue);
  if (flags & ~(unsigned long long) (cudaGraphInstantiateFlagAutoFreeOnLaunch | cudaGraphInstantiateFlagUseNodePriority))
    {
      ws_cudart_warn ("cudaGraphInstantiate: flags 0x%llx are not supported by the Warpscope emulator", flags);
      return ws_cudart_set_error (cudaErrorNotSupported);
    }
  struct CUgraphExec_st *e = g_new0 (struct CUgraphExec_st, 1);
  e->graph = g_atomic_rc_box_acquire (g);
  g_rec_mutex_lock (&ws_cudart.lock);
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
  GPtrArray *nodes = graphExec->graph->nodes;
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
        case NODE_MEMCPY:
          err = cudaMemcpyAsync (n->dst, n->src, n->count, n->copy_kind, NULL);
          break;
        case NODE_MEMSET:
          err = cudaMemsetAsync (n->dst, n->value, n->count, NULL);
          break;
        case NODE_HOST:
          n->fn (n->user_data);
          break;
        }
      /* A fault inside the graph is sticky like any other. */
      if (err == cudaSuccess && ws_cudart.sticky != cudaSuccess)
        err = ws_cudart.sticky;
    }
  return err;
}

cudaError_t
cudaGraphLaunch_ptsz (cudaGraphExec_t graphExec, cudaStream_t stream)
{
  return cudaGraphLaunch (graphExec, stream);
}
