/*
 * A thread's record (DESIGN.md, "A thread's record"): all the library keeps
 * per thread, in one block (128-byte aligned, a multiple of 128 bytes) that
 * shares no line pair with another allocation: the epoch's part
 * (crg_epoch.h) alone on the first 128 bytes, the only part other threads
 * read; CRG_THREAD_BYTES bytes for the front end; the thread's cache of
 * lookups (crg_tcache.h); its object.
 * Records are never freed: the next thread to start takes a free one.
 */
#ifndef CRG_THREAD_RECORD_H
#define CRG_THREAD_RECORD_H

#include "crg_base.h"

CRG_EXTERN_C_BEGIN

/* ---- The thread's cache (its operations: crg_tcache.h) ------------------ */

enum { CRG_TCACHE_SETS = 128, CRG_TCACHE_WAYS = 2 };

typedef struct crg_tcache_entry {
    const void *CRG_NULLABLE container;
    uint64_t type;
    const void *CRG_NULLABLE name;
    uint64_t name_hash;
    void *CRG_NULLABLE value;
    uint64_t version; /* filled under it (an empty entry's null container matches no key) */
} crg_tcache_entry;

typedef struct crg_tcache {
    uint64_t probe_version; /* what the latest probe read (crg_tcache_fill compares it) */
    /* Set i is ways[0][i] (filled last) and ways[1][i]: way 1 of a set is way
     * 0's address plus a constant. */
    crg_tcache_entry ways[CRG_TCACHE_WAYS][CRG_TCACHE_SETS];
} crg_tcache;

/* ---- The record --------------------------------------------------------- */

/** The size of a record's bytes for the front end (crg_thread_bytes), and
 * the unit records are aligned and padded to. */
enum { CRG_THREAD_BYTES = 512, CRG_RECORD_LINE = 128 };

/** The epoch's part of a record (crg_epoch.h). */
typedef struct crg_record_epoch {
    /* `state`: 0 outside a read section, (epoch << 1) | 1 inside, written by
     * the owner (atomically) and read by collectors. `next` (every record)
     * and `in_use` are under the epoch mutex; the rest is the owner's. */
    uint64_t state;
    uint64_t depth;            /* nesting */
    uint64_t seen_epoch;       /* the epoch and the count of retirements when */
    uint64_t seen_retirements; /* the owner last collected leaving a section */
    uint64_t leaving_collections; /* how often it took the epoch mutex then */
    struct crg_thread_record *CRG_NULLABLE next;
    bool in_use;
} crg_record_epoch;

/** A thread's record. Private: exposed for the inline read sections, bytes
 * and cache probes. */
typedef struct crg_thread_record {
    union { /* the epoch's part, alone on the first line pair */
        crg_record_epoch epoch;
        unsigned char epoch_line[CRG_RECORD_LINE];
    };
    unsigned char bytes[CRG_THREAD_BYTES]; /* the front end's, 128 bytes in */
    crg_tcache cache;
    void *CRG_NULLABLE object; /* crg_thread_object, and how to release it */
    crg_release_fn CRG_NULLABLE object_release;
} crg_thread_record;

/* The calling thread's record, NULL until its first read section. Private. */
extern CRG_THREAD_LOCAL crg_thread_record *CRG_NULLABLE crg_internal_current_record;

/** Private: attaches a record to the calling thread. Aborts if it cannot be allocated. */
crg_thread_record *CRG_NONNULL crg_internal_attach_record(void);

/** The calling thread's record, attached if it has none yet. */
static inline CRG_ALWAYS_INLINE crg_thread_record *CRG_NONNULL crg_thread_record_current(void) {
    crg_thread_record *record = crg_internal_current_record;
    if (CRG_UNLIKELY(record == NULL)) {
        record = crg_internal_attach_record();
    }
    return record;
}

/** The calling thread's CRG_THREAD_BYTES bytes, 16-byte aligned, zero in a new
 * record, the front end's to lay out: in a read section, a load and an add. */
static inline CRG_ALWAYS_INLINE void *CRG_NONNULL crg_thread_bytes(void) {
    return crg_thread_record_current()->bytes;
}

/**
 * Sets the function called with a record's bytes when its thread exits (after
 * the thread's object is released), to leave them as a new thread expects
 * them: the next thread may take the record as it is. Process-wide; set it
 * before the bytes are first used. NULL: nothing is called.
 */
void crg_thread_set_exit_callback(void (*CRG_NULLABLE callback)(void *CRG_NONNULL bytes));

/** The calling thread's object (crg_thread_set_object), or NULL. */
static inline void *CRG_NULLABLE crg_thread_object(void) {
    crg_thread_record *record = crg_internal_current_record;
    return record ? record->object : NULL;
}

/** Sets the calling thread's object, released with `release(object, NULL)`
 * when the thread exits; the one it replaces is released at once. */
void crg_thread_set_object(void *CRG_NULLABLE object, crg_release_fn CRG_NONNULL release);

CRG_EXTERN_C_END

#endif /* CRG_THREAD_RECORD_H */
