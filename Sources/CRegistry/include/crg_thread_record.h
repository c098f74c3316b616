/*
 * A thread's record: everything the library keeps per thread, in one block
 * that no other allocation shares a line (or an adjacent-line prefetch pair)
 * with: 128-byte aligned, a multiple of 128 bytes long. It holds, in order:
 *
 * - the epoch's part (crg_epoch.h), alone on the first 128 bytes: `state`,
 *   the one field other threads (collectors) read;
 * - CRG_THREAD_BYTES bytes the front end lays out as it likes (crg_thread_bytes);
 * - the thread's cache of lookups (crg_tcache.h);
 * - the thread's object (crg_thread_object), released when the thread exits.
 *
 * Records are never freed: a thread that exits leaves its record for the
 * next thread that starts, which takes any free one before a new one is made
 * (DESIGN.md, "A thread's record").
 */
#ifndef CRG_THREAD_RECORD_H
#define CRG_THREAD_RECORD_H

#include "crg_base.h"

CRG_EXTERN_C_BEGIN

/* ------------------------------------------------------------------------ */
/* The thread's cache (its operations: crg_tcache.h)                          */
/* ------------------------------------------------------------------------ */

enum { CRG_TCACHE_SETS = 128, CRG_TCACHE_WAYS = 2 };

typedef struct crg_tcache_entry {
    const void *CRG_NULLABLE container;
    uint64_t type;
    const void *CRG_NULLABLE name;
    uint64_t name_hash;
    void *CRG_NULLABLE value;
    /* The version it was filled under (an empty entry's null container
     * matches no key). */
    uint64_t version;
} crg_tcache_entry;

typedef struct crg_tcache {
    /* The version the latest probe read (crg_tcache_fill compares it). */
    uint64_t probe_version;
    /* Set i is ways[0][i] (filled last) and ways[1][i]: a way's entries lie
     * together, so way 1 of a set is way 0's address plus a constant. */
    crg_tcache_entry ways[CRG_TCACHE_WAYS][CRG_TCACHE_SETS];
} crg_tcache;

/* ------------------------------------------------------------------------ */
/* The record                                                                */
/* ------------------------------------------------------------------------ */

/** The size of a record's bytes for the front end (crg_thread_bytes). */
enum { CRG_THREAD_BYTES = 512 };

/** The unit records are aligned to and padded to. */
enum { CRG_RECORD_LINE = 128 };

/** The epoch's part of a record (crg_epoch.h). */
typedef struct crg_record_epoch {
    /* 0 outside a read section; (epoch << 1) | 1 inside. Written by the
     * owner (atomically), read by collectors. */
    uint64_t state;
    /* Nesting depth; the owner's alone. */
    uint64_t depth;
    /* The epoch and the count of retirements when the owner last collected
     * on leaving a section: it tries again only once either has moved (the
     * owner's alone). */
    uint64_t seen_epoch;
    uint64_t seen_retirements;
    /* How often the owner took the epoch mutex on leaving a section (tests). */
    uint64_t leaving_collections;
    /* Every record, and whether a thread owns this one: under the epoch
     * mutex. */
    struct crg_thread_record *CRG_NULLABLE next;
    bool in_use;
} crg_record_epoch;

/**
 * A thread's record, allocated CRG_RECORD_LINE-aligned. Private: exposed so
 * that crg_read_begin(), crg_read_end(), crg_thread_bytes() and the cache's
 * probes can be inlined.
 */
typedef struct crg_thread_record {
    /* The epoch's part, alone on the first line pair. */
    union {
        crg_record_epoch epoch;
        unsigned char epoch_line[CRG_RECORD_LINE];
    };
    /* The front end's bytes (16-byte aligned: they start 128 bytes into the
     * record): the owner's alone. */
    unsigned char bytes[CRG_THREAD_BYTES];
    /* The thread's cache: the owner's alone. */
    crg_tcache cache;
    /* The owner's object (crg_thread_object) and how to release it. */
    void *CRG_NULLABLE object;
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

/**
 * The calling thread's bytes: CRG_THREAD_BYTES bytes, 16-byte aligned, zero
 * in a new record, the front end's to lay out. Inside a read section the
 * record exists, and this is one thread-local load and an add.
 */
static inline CRG_ALWAYS_INLINE void *CRG_NONNULL crg_thread_bytes(void) {
    return crg_thread_record_current()->bytes;
}

/**
 * Sets the function called with a record's bytes when its thread exits,
 * after the thread's object is released: the next thread to start may take
 * the record as it is, so the callback leaves the bytes as a new thread
 * expects them (releasing what they own). Process-wide; set it before the
 * bytes are first used. NULL: nothing is called.
 */
void crg_thread_set_exit_callback(void (*CRG_NULLABLE callback)(void *CRG_NONNULL bytes));

/**
 * The calling thread's object, set by crg_thread_set_object (NULL if none).
 * No other thread ever touches it; it is released when the thread exits.
 */
static inline void *CRG_NULLABLE crg_thread_object(void) {
    crg_thread_record *record = crg_internal_current_record;
    return record ? record->object : NULL;
}

/**
 * Sets the calling thread's object (attaching a record if the thread has
 * none), released with `release(object, NULL)` when the thread exits. The
 * object it replaces is released at once: call it only when nothing uses
 * that one.
 */
void crg_thread_set_object(void *CRG_NULLABLE object, crg_release_fn CRG_NONNULL release);

CRG_EXTERN_C_END

#endif /* CRG_THREAD_RECORD_H */
