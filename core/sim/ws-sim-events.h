/* ws-sim-events.h: the simulator's event queue (private to core/sim).
 *
 * Events are delivered in (time, push order) order, exactly as a binary
 * heap keyed on (time, sequence number) would deliver them, but almost
 * every event costs O(1): nearly all are due within a few thousand cycles
 * of the cycle being simulated (pipeline results, L2 and DRAM round trips),
 * so they go into a timing wheel of EVQ_WHEEL one-cycle buckets, each a
 * FIFO (the push order within one cycle).  The rare event due further
 * ahead waits in an overflow heap and moves into its bucket as soon as the
 * wheel's window reaches it, before any later push can land there, so
 * order within a bucket stays push order.  An event pushed for a cycle
 * the wheel has already passed goes to a small "late" heap that is drained
 * first: it is earlier than everything in the wheel.
 *
 * A timing wheel ("calendar queue", R. Brown, CACM 31(10), 1988) is the
 * classic discrete-event-simulation structure for this pattern; this one
 * is written for the simulator's fixed event record. */
#pragma once

#include <glib.h>
#include <stdint.h>
#include <string.h>

#define EVQ_WHEEL 8192u /* buckets: cycles of lookahead in O(1) */
#define EVQ_MASK (EVQ_WHEEL - 1)
#define EVQ_WORDS (EVQ_WHEEL / 64)
#define EVQ_NONE G_MAXUINT64

typedef struct {
  uint64_t time;
  uint32_t a, b;
  uint32_t type;
  uint32_t seq;
} Event;

typedef struct {
  Event *v;
  guint n, cap;
} EvHeap;

typedef struct {
  Event *v;
  guint head, n, cap; /* FIFO: v[head..n) */
} EvBucket;

typedef struct {
  EvBucket *bucket;         /* EVQ_WHEEL */
  uint64_t used[EVQ_WORDS]; /* bit per non-empty bucket */
  uint64_t cur;             /* the wheel holds [cur, cur + EVQ_WHEEL) */
  guint in_wheel;
  EvHeap late; /* time < cur */
  EvHeap far;  /* time >= cur + EVQ_WHEEL */
  uint32_t seq;
} EventQueue;

static inline gboolean
evq_before (const Event *x, const Event *y)
{
  return x->time < y->time || (x->time == y->time && x->seq < y->seq);
}

static inline void
evh_push (EvHeap *h, Event e)
{
  if (h->n == h->cap)
    {
      h->cap = h->cap ? h->cap * 2 : 64;
      h->v = g_renew (Event, h->v, h->cap);
    }
  guint i = h->n++;
  while (i > 0)
    {
      guint p = (i - 1) / 2;
      if (!evq_before (&e, &h->v[p]))
        break;
      h->v[i] = h->v[p];
      i = p;
    }
  h->v[i] = e;
}

static inline Event
evh_pop (EvHeap *h)
{
  Event top = h->v[0];
  Event last = h->v[--h->n];
  guint i = 0;
  for (;;)
    {
      guint l = 2 * i + 1, r = l + 1, m = i;
      const Event *best = &last;
      if (l < h->n && evq_before (&h->v[l], best))
        m = l, best = &h->v[l];
      if (r < h->n && evq_before (&h->v[r], best))
        m = r;
      if (m == i)
        break;
      h->v[i] = h->v[m];
      i = m;
    }
  if (h->n > 0)
    h->v[i] = last;
  return top;
}

static inline void
evq_bucket_append (EventQueue *q, Event e)
{
  guint idx = (guint) (e.time & EVQ_MASK);
  EvBucket *bk = &q->bucket[idx];
  if (bk->n == bk->cap)
    {
      if (bk->head > 0)
        {
          memmove (bk->v, bk->v + bk->head, (bk->n - bk->head) * sizeof (Event));
          bk->n -= bk->head;
          bk->head = 0;
        }
      if (bk->n == bk->cap)
        {
          bk->cap = bk->cap ? bk->cap * 2 : 8;
          bk->v = g_renew (Event, bk->v, bk->cap);
        }
    }
  bk->v[bk->n++] = e;
  q->used[idx / 64] |= 1ull << (idx & 63);
  q->in_wheel++;
}

static inline void
evq_init (EventQueue *q)
{
  memset (q, 0, sizeof *q);
  q->bucket = g_new0 (EvBucket, EVQ_WHEEL);
}

static inline void
evq_clear (EventQueue *q)
{
  for (guint w = 0; w < EVQ_WORDS; w++)
    for (uint64_t bits = q->used[w]; bits; bits &= bits - 1)
      {
        EvBucket *bk = &q->bucket[w * 64 + (guint) __builtin_ctzll (bits)];
        bk->head = bk->n = 0;
      }
  memset (q->used, 0, sizeof q->used);
  q->in_wheel = 0;
  q->late.n = q->far.n = 0;
  q->cur = 0;
  q->seq = 0;
}

static inline void
evq_free (EventQueue *q)
{
  if (q->bucket != NULL)
    for (guint i = 0; i < EVQ_WHEEL; i++)
      g_free (q->bucket[i].v);
  g_free (q->bucket);
  g_free (q->late.v);
  g_free (q->far.v);
  memset (q, 0, sizeof *q);
}

static inline gboolean
evq_empty (const EventQueue *q)
{
  return q->in_wheel == 0 && q->late.n == 0 && q->far.n == 0;
}

static inline void
evq_push (EventQueue *q, uint64_t time, uint32_t type, uint32_t a, uint32_t b)
{
  Event e = { time, a, b, type, q->seq++ };
  if (time < q->cur)
    evh_push (&q->late, e);
  else if (time - q->cur < EVQ_WHEEL)
    evq_bucket_append (q, e);
  else
    evh_push (&q->far, e);
}

/* The first non-empty bucket's time at or after cur, or EVQ_NONE. */
static inline uint64_t
evq_wheel_next (const EventQueue *q)
{
  if (q->in_wheel == 0)
    return EVQ_NONE;
  guint start = (guint) (q->cur & EVQ_MASK);
  guint w = start / 64;
  uint64_t bits = q->used[w] & (~0ull << (start & 63));
  for (guint k = 0; k <= EVQ_WORDS; k++)
    {
      if (bits)
        {
          guint idx = ((w * 64) + (guint) __builtin_ctzll (bits)) & EVQ_MASK;
          return q->cur + ((idx - start) & EVQ_MASK);
        }
      w = (w + 1) % EVQ_WORDS;
      bits = q->used[w];
      if (k + 1 == EVQ_WORDS) /* back at the start word: its low bits */
        bits &= (start & 63) ? ~(~0ull << (start & 63)) : 0;
    }
  g_assert_not_reached ();
  return EVQ_NONE;
}

/* Moves the window's start to @t (no bucket before @t may hold events) and
 * pulls the far events the window now covers into their buckets. */
static inline void
evq_advance (EventQueue *q, uint64_t t)
{
  if (t <= q->cur)
    return;
  q->cur = t;
  while (q->far.n > 0 && q->far.v[0].time - q->cur < EVQ_WHEEL)
    evq_bucket_append (q, evh_pop (&q->far));
}

/* The time of the next event, or EVQ_NONE. */
static inline uint64_t
evq_next_time (const EventQueue *q)
{
  if (q->late.n > 0)
    return q->late.v[0].time;
  uint64_t t = evq_wheel_next (q);
  if (t != EVQ_NONE)
    return t;
  return q->far.n > 0 ? q->far.v[0].time : EVQ_NONE;
}

/* Pops the next event if it is due at or before @now. */
static inline gboolean
evq_pop_due (EventQueue *q, uint64_t now, Event *out)
{
  if (q->late.n > 0)
    {
      *out = evh_pop (&q->late);
      return TRUE;
    }
  for (;;)
    {
      uint64_t t = evq_wheel_next (q);
      if (t == EVQ_NONE)
        {
          /* The wheel is empty: jump it to the first far event. */
          if (q->far.n == 0 || q->far.v[0].time > now)
            {
              evq_advance (q, now);
              return FALSE;
            }
          evq_advance (q, q->far.v[0].time);
          continue;
        }
      if (t > now)
        {
          evq_advance (q, now);
          return FALSE;
        }
      evq_advance (q, t);
      guint idx = (guint) (t & EVQ_MASK);
      EvBucket *bk = &q->bucket[idx];
      *out = bk->v[bk->head++];
      if (bk->head == bk->n)
        {
          bk->head = bk->n = 0;
          q->used[idx / 64] &= ~(1ull << (idx & 63));
        }
      q->in_wheel--;
      return TRUE;
    }
}
