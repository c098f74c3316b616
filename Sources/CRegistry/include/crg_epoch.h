/*
 * Read sections and deferred release: epoch-based reclamation (DESIGN.md,
 * "Memory reclamation", for the argument).
 *
 * Readers take no lock: a thread reads what writers may replace between
 * crg_read_begin() and crg_read_end(), writing only its own record
 * (crg_thread_record.h). Writers never free what a reader may still read:
 * they retire it (crg_retire, crg_retire_embedded), and it is released once
 * every read section open at its retirement has ended. A global epoch
 * advances from E to E + 1 only when every thread in a section entered it at
 * E; what was retired at epoch e is released from e + 2 on. Sections may last
 * as long as the caller likes and nest; a thread that exits leaves its own.
 *
 *   crg_read_begin();
 *   void *value;
 *   if (crg_find(table, &key, &value) == 0) use(value);   // valid until crg_read_end()
 *   crg_read_end();
 */
#ifndef CRG_EPOCH_H
#define CRG_EPOCH_H

#include "crg_base.h"
#include "crg_thread_record.h"

CRG_EXTERN_C_BEGIN

/* ---- Read sections ------------------------------------------------------ */

/* Private, atomic: the global epoch, how many retired objects wait, how many
 * were ever retired. */
extern uint64_t crg_internal_epoch;
extern uint64_t crg_internal_retired;
extern uint64_t crg_internal_retirements;

/** Enters a read section (or a nested one). Never blocks, never fails, writes
 * nothing another thread writes. */
static inline CRG_ALWAYS_INLINE void crg_read_begin(void) {
    crg_record_epoch *reader = &crg_thread_record_current()->epoch;
    if (reader->depth++ == 0) {
        uint64_t epoch = __atomic_load_n(&crg_internal_epoch, __ATOMIC_RELAXED);
        __atomic_store_n(&reader->state, (epoch << 1) | 1, __ATOMIC_RELEASE);
        __atomic_thread_fence(__ATOMIC_SEQ_CST);
    }
}

/**
 * Private: crg_read_end's collection while retired objects wait: only if the
 * epoch or the count of retirements moved since this thread last tried, and
 * only if the epoch mutex is free (trylock).
 */
void crg_internal_collect_leaving(crg_record_epoch *CRG_NONNULL reader);

/** Leaves the innermost read section, on the thread that entered it; leaving
 * the outermost may run releases that are due (crg_internal_collect_leaving). */
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

/* ---- Deferred release --------------------------------------------------- */

/**
 * A retirement node, embedded in the object it retires (as liburcu's
 * rcu_head): retiring through it allocates nothing, so it cannot fail. Its
 * release function finds the object around it with CRG_CONTAINER_OF and may
 * free the node's memory. crg_retire_embedded fills it; untouched after.
 */
typedef struct crg_retire_node crg_retire_node;

/** How an object with an embedded node is released: `release(node)`. */
typedef void (*crg_node_release_fn)(crg_retire_node *CRG_NONNULL node);

struct crg_retire_node {
    crg_retire_node *CRG_NULLABLE next;    /* the queue, oldest first */
    uint64_t epoch;                        /* the epoch at retirement */
    crg_node_release_fn CRG_NULLABLE release;
};

/** The `type` whose field `member` is at `pointer` (Linux's container_of). */
#define CRG_CONTAINER_OF(pointer, type, member) \
    ((type *)(void *)((char *)(pointer) - offsetof(type, member)))

/**
 * Queues the object that embeds `node`, unlinked from everything readers can
 * reach, to be released with `release(node)` once no read section open now
 * can be reading it. Never fails, never allocates; from any thread, in a read
 * section or a release too.
 */
void crg_retire_embedded(crg_retire_node *CRG_NONNULL node, crg_node_release_fn CRG_NONNULL release);

/**
 * crg_retire_embedded for an object without a node: queues `object` to be
 * released with `release(object, context)`, through a node it allocates with
 * malloc (freed before `release` runs). Returns 0, EINVAL (NULL object or
 * release) or ENOMEM (nothing queued: the caller still owns `object`).
 */
int crg_retire(void *CRG_NULLABLE object, crg_release_fn CRG_NULLABLE release, void *CRG_NULLABLE context);

/**
 * Advances the epoch as far as the open read sections allow and runs every
 * release that is due, with no lock held, in retirement order (other
 * threads' calls run theirs concurrently), until none is due. Returns how
 * many it released; 0 when called from a release (the outer call goes on).
 */
size_t crg_collect(void);

CRG_EXTERN_C_END

#endif /* CRG_EPOCH_H */
