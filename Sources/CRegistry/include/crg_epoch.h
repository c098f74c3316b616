/*
 * Read sections and deferred release: epoch-based reclamation.
 *
 * Readers take no lock. A thread that reads structures writers may replace
 * (tables, child lists, anything published through a crg_cell) does it
 * between crg_read_begin() and crg_read_end(). Writers never free or release
 * what a reader may still be reading: they hand it to crg_retire_embedded()
 * (through a node embedded in the object) or crg_retire() (any object), which
 * release it after a grace period, once every read section that was open when
 * it was retired has ended.
 *
 *   crg_read_begin();
 *   void *value;
 *   if (crg_find(table, &key, &value) == 0) use(value);   // valid until crg_read_end()
 *   crg_read_end();
 *
 * A global epoch advances from E to E + 1 only when every thread in a read
 * section entered it at E; an object retired at epoch e is released once the
 * epoch reaches e + 2 (DESIGN.md, "Memory reclamation": the argument, and
 * when threads leaving their sections collect). Entering and leaving write
 * only the thread's record (crg_thread_record.h). A thread that exits leaves
 * any section it is in.
 *
 * A read section may last as long as the caller likes, but while it is open
 * nothing retired after it began is released.
 */
#ifndef CRG_EPOCH_H
#define CRG_EPOCH_H

#include "crg_base.h"
#include "crg_thread_record.h"

CRG_EXTERN_C_BEGIN

/* ------------------------------------------------------------------------ */
/* Read sections                                                             */
/* ------------------------------------------------------------------------ */

/* The global epoch (atomic). Private. */
extern uint64_t crg_internal_epoch;
/* How many retired objects wait for release (atomic). Private. */
extern uint64_t crg_internal_retired;
/* How many objects were ever retired (atomic, only grows). Private. */
extern uint64_t crg_internal_retirements;

/**
 * Enters a read section (or a nested one). Never blocks, never fails, writes
 * nothing another thread writes.
 */
static inline CRG_ALWAYS_INLINE void crg_read_begin(void) {
    crg_record_epoch *reader = &crg_thread_record_current()->epoch;
    if (reader->depth++ == 0) {
        uint64_t epoch = __atomic_load_n(&crg_internal_epoch, __ATOMIC_RELAXED);
        __atomic_store_n(&reader->state, (epoch << 1) | 1, __ATOMIC_RELEASE);
        __atomic_thread_fence(__ATOMIC_SEQ_CST);
    }
}

/**
 * Private: crg_read_end's collection, while retired objects wait. It
 * collects only if the epoch or the count of retirements has moved since
 * this thread last collected on leaving a section, and only if no other
 * thread holds the epoch mutex (trylock): while objects wait for a section
 * that stays open, leaving a section costs two loads, never the mutex.
 */
void crg_internal_collect_leaving(crg_record_epoch *CRG_NONNULL reader);

/**
 * Leaves the innermost read section. Leaving the outermost one collects when
 * retired objects are waiting and something has changed since this thread
 * last did (crg_internal_collect_leaving), which may run their releases on
 * this thread. Must pair with crg_read_begin() on the same thread.
 */
static inline CRG_ALWAYS_INLINE void crg_read_end(void) {
    crg_record_epoch *reader = &crg_internal_current_record->epoch;
    if (--reader->depth == 0) {
        __atomic_store_n(&reader->state, 0, __ATOMIC_RELEASE);
        if (CRG_UNLIKELY(__atomic_load_n(&crg_internal_retired, __ATOMIC_RELAXED) != 0)) {
            crg_internal_collect_leaving(reader);
        }
    }
}

/** Whether the calling thread is inside a read section. */
bool crg_read_active(void);

/* ------------------------------------------------------------------------ */
/* Deferred release                                                          */
/* ------------------------------------------------------------------------ */

/**
 * A retirement node, embedded in the object it retires (as liburcu's
 * rcu_head): the queue's link, the epoch at retirement, and the function
 * that releases the object once its grace period has passed. That function
 * receives the node and finds the object around it with CRG_CONTAINER_OF;
 * it may free the memory the node lives in. The library retires its own
 * memory (slot arrays, names, tables, containers, child lists) this way:
 * retiring it allocates nothing, so it cannot fail.
 *
 * The fields are crg_retire_embedded's to fill; the node needs no
 * initialization, and must stay untouched from retirement until its release
 * function runs.
 */
typedef struct crg_retire_node crg_retire_node;

/** How an object with an embedded node is released: `release(node)`. */
typedef void (*crg_node_release_fn)(crg_retire_node *CRG_NONNULL node);

struct crg_retire_node {
    crg_retire_node *CRG_NULLABLE next;    /* the queue, oldest first */
    uint64_t epoch;                        /* the epoch at retirement */
    crg_node_release_fn CRG_NULLABLE release;
};

/**
 * The address of the `type` whose field `member` is at `pointer`: from a
 * node to the object it is embedded in (the Linux kernel's container_of).
 */
#define CRG_CONTAINER_OF(pointer, type, member) \
    ((type *)(void *)((char *)(pointer) - offsetof(type, member)))

/**
 * Queues the object that embeds `node`, to be released with `release(node)`
 * once no read section open now can still be reading it. Call it after
 * unlinking the object from everything readers can reach. Never fails, never
 * allocates. Thread-safe; may be called inside a read section or from a
 * release function.
 */
void crg_retire_embedded(crg_retire_node *CRG_NONNULL node, crg_node_release_fn CRG_NONNULL release);

/**
 * Queues `object` to be released with `release(object, context)` once no read
 * section open now can still be reading it: crg_retire_embedded for an object
 * with no node of its own, around a node it allocates with malloc (freed
 * before `release` runs). Call it after unlinking `object` from everything
 * readers can reach. Thread-safe; may be called inside a read section or from
 * a release callback. Returns 0, EINVAL (NULL object or release) or ENOMEM
 * (the node could not be allocated: nothing was queued, `release` will not
 * run, and the caller still owns `object`).
 */
int crg_retire(void *CRG_NULLABLE object, crg_release_fn CRG_NULLABLE release, void *CRG_NULLABLE context);

/**
 * Advances the epoch as far as the open read sections allow and runs every
 * release that is due, with no lock held, in retirement order within this
 * call (other threads' calls run theirs concurrently); repeats while releases
 * retire more that is already due. Returns how many it released. Called from
 * within a release callback, it returns 0 (the outer call goes on).
 */
size_t crg_collect(void);

CRG_EXTERN_C_END

#endif /* CRG_EPOCH_H */
