/* ws-cupti-inject.c: the CUPTI injection library of `warpscope-cli measure`.
 *
 * The CUDA driver loads it when CUDA_INJECTION64_PATH names it and calls
 * InitializeInjection() during cuInit.  It enables CUPTI's activity records
 * for kernels (CONCURRENT_KERNEL, so launches are not serialised) and
 * memcpys, collects them from the buffer-completed callback, and at exit
 * flushes CUPTI and writes one CSV row per record, in start-time order, to
 * the file named by WS_CUPTI_OUTPUT (format: docs/measurement.md; the
 * occurrence column is left out and computed by the reader).  Several
 * processes append to the same file; the header is written once.
 *
 * Plain C with no GLib: it lives inside the user's program. */
#include <cupti.h>
#include <fcntl.h>
#include <pthread.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BUFFER_SIZE (8u << 20)
#define BUFFER_ALIGN 8

typedef struct {
  uint64_t start, end;
  char *name; /* kernels only */
  int is_kernel;
  int32_t grid[3], block[3];
  uint32_t shared_bytes, registers;
  uint8_t copy_kind;
  uint64_t bytes;
} Record;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static Record *records;
static size_t n_records, cap_records;
static int failed; /* a CUPTI call failed: the output says so */
static uint64_t dropped;

static void
report (const char *what, CUptiResult rc)
{
  const char *msg = NULL;
  cuptiGetResultString (rc, &msg);
  fprintf (stderr, "warpscope CUPTI injection: %s failed: %s\n", what, msg ? msg : "unknown error");
  failed = 1;
}

static Record *
push (void)
{
  if (n_records == cap_records)
    {
      size_t cap = cap_records ? cap_records * 2 : 4096;
      Record *r = realloc (records, cap * sizeof *r);
      if (r == NULL)
        return NULL;
      records = r;
      cap_records = cap;
    }
  Record *r = &records[n_records++];
  memset (r, 0, sizeof *r);
  return r;
}

static void CUPTIAPI
buffer_requested (uint8_t **buffer, size_t *size, size_t *max_records)
{
  void *p = NULL;
  if (posix_memalign (&p, BUFFER_ALIGN, BUFFER_SIZE) != 0)
    p = NULL;
  *buffer = p;
  *size = p ? BUFFER_SIZE : 0;
  *max_records = 0; /* as many as fit */
}

static void CUPTIAPI
buffer_completed (CUcontext ctx, uint32_t stream, uint8_t *buffer, size_t size, size_t valid)
{
  (void) size;
  CUpti_Activity *rec = NULL;
  pthread_mutex_lock (&lock);
  while (cuptiActivityGetNextRecord (buffer, valid, &rec) == CUPTI_SUCCESS)
    {
      if (rec->kind == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL || rec->kind == CUPTI_ACTIVITY_KIND_KERNEL)
        {
          const CUpti_ActivityKernel10 *k = (const CUpti_ActivityKernel10 *) rec;
          Record *r = push ();
          if (r == NULL)
            break;
          r->is_kernel = 1;
          r->start = k->start;
          r->end = k->end;
          r->name = strdup (k->name ? k->name : "?");
          r->grid[0] = k->gridX, r->grid[1] = k->gridY, r->grid[2] = k->gridZ;
          r->block[0] = k->blockX, r->block[1] = k->blockY, r->block[2] = k->blockZ;
          r->shared_bytes = (uint32_t) (k->staticSharedMemory + k->dynamicSharedMemory);
          r->registers = k->registersPerThread;
        }
      else if (rec->kind == CUPTI_ACTIVITY_KIND_MEMCPY)
        {
          const CUpti_ActivityMemcpy6 *m = (const CUpti_ActivityMemcpy6 *) rec;
          Record *r = push ();
          if (r == NULL)
            break;
          r->start = m->start;
          r->end = m->end;
          r->copy_kind = m->copyKind;
          r->bytes = m->bytes;
        }
    }
  size_t n = 0;
  if (cuptiActivityGetNumDroppedRecords (ctx, stream, &n) == CUPTI_SUCCESS)
    dropped += n;
  pthread_mutex_unlock (&lock);
  free (buffer);
}

static int
by_start (const void *a, const void *b)
{
  const Record *x = a, *y = b;
  return x->start < y->start ? -1 : x->start > y->start;
}

/* CUPTI's copy kinds folded onto the CSV's directions: arrays count as
 * device memory. */
static const char *
direction (uint8_t kind)
{
  switch (kind)
    {
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOD:
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOA: return "HtoD";
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOH:
    case CUPTI_ACTIVITY_MEMCPY_KIND_ATOH: return "DtoH";
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOD:
    case CUPTI_ACTIVITY_MEMCPY_KIND_ATOA:
    case CUPTI_ACTIVITY_MEMCPY_KIND_ATOD:
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOA: return "DtoD";
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOH: return "HtoH";
    case CUPTI_ACTIVITY_MEMCPY_KIND_PTOP: return "PtoP";
    default: return NULL;
    }
}

static void
write_name (FILE *f, const char *s)
{
  if (strpbrk (s, ",\"\n\r") == NULL)
    {
      fputs (s, f);
      return;
    }
  fputc ('"', f);
  for (; *s; s++)
    {
      if (*s == '"')
        fputc ('"', f);
      if (*s != '\n' && *s != '\r')
        fputc (*s, f);
    }
  fputc ('"', f);
}

static void
finish (void)
{
  CUptiResult rc = cuptiActivityFlushAll (CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
  if (rc != CUPTI_SUCCESS)
    report ("cuptiActivityFlushAll", rc);
  const char *path = getenv ("WS_CUPTI_OUTPUT");
  /* Append under a lock: a measured script may start several CUDA
   * processes, each with this library, all writing the same file. */
  int fd = path ? open (path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644) : -1;
  FILE *f = fd >= 0 ? fdopen (fd, "a") : NULL;
  if (f == NULL)
    {
      fprintf (stderr, "warpscope CUPTI injection: cannot write %s\n", path ? path : "(WS_CUPTI_OUTPUT is not set)");
      if (fd >= 0)
        close (fd);
      return;
    }
  flock (fd, LOCK_EX);
  struct stat st;
  int empty = fstat (fd, &st) == 0 && st.st_size == 0;
  pthread_mutex_lock (&lock);
  qsort (records, n_records, sizeof *records, by_start);
  fprintf (f, "# raw run recorded by the warpscope CUPTI injection library; %zu records, %llu dropped%s\n", n_records,
           (unsigned long long) dropped, failed ? ", a CUPTI call failed" : "");
  if (empty)
    fputs ("kind,name,grid_x,grid_y,grid_z,block_x,block_y,block_z,shared_bytes,registers,direction,bytes,runs,"
           "duration_ns\n",
           f);
  for (size_t i = 0; i < n_records; i++)
    {
      const Record *r = &records[i];
      unsigned long long ns = (unsigned long long) (r->end - r->start);
      if (r->is_kernel)
        {
          fputs ("kernel,", f);
          write_name (f, r->name);
          fprintf (f, ",%d,%d,%d,%d,%d,%d,%u,%u,,,1,%llu\n", r->grid[0], r->grid[1], r->grid[2], r->block[0],
                   r->block[1], r->block[2], r->shared_bytes, r->registers, ns);
        }
      else if (direction (r->copy_kind) != NULL)
        fprintf (f, "memcpy,memcpy,,,,,,,,,%s,%llu,1,%llu\n", direction (r->copy_kind), (unsigned long long) r->bytes,
                 ns);
    }
  pthread_mutex_unlock (&lock);
  fflush (f);
  flock (fd, LOCK_UN);
  if (fclose (f) != 0)
    fprintf (stderr, "warpscope CUPTI injection: writing %s failed\n", path);
}

/* Called by the CUDA driver (CUDA_INJECTION64_PATH); returns nonzero on
 * success. */
int InitializeInjection (void);

__attribute__ ((visibility ("default"))) int
InitializeInjection (void)
{
  CUptiResult rc = cuptiActivityRegisterCallbacks (buffer_requested, buffer_completed);
  if (rc != CUPTI_SUCCESS)
    {
      report ("cuptiActivityRegisterCallbacks", rc);
      return 0;
    }
  if ((rc = cuptiActivityEnable (CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL)) != CUPTI_SUCCESS)
    {
      report ("cuptiActivityEnable(CONCURRENT_KERNEL)", rc);
      return 0;
    }
  if ((rc = cuptiActivityEnable (CUPTI_ACTIVITY_KIND_MEMCPY)) != CUPTI_SUCCESS)
    {
      report ("cuptiActivityEnable(MEMCPY)", rc);
      return 0;
    }
  atexit (finish);
  return 1;
}
