/*
 * CRegistry: what only tests, the fuzzer and benchmarks call. Neither
 * cregistry.h nor `import CRegistry` brings it in: C includes it, Swift
 * imports the explicit submodule `CRegistry.Testing` (module.modulemap).
 */
#ifndef CRG_TESTING_H
#define CRG_TESTING_H

#include "cregistry.h"

CRG_EXTERN_C_BEGIN

/* ---- Tables (crg_table.h) ----------------------------------------------- */

/** The mutex guarding `t` (not retained), or NULL when `t` is NULL. */
crg_mutex *CRG_NULLABLE crg_table_mutex(crg_table *CRG_NULLABLE t);

/** crg_find() inside a read section of its own: for callers outside one. Only
 * the presence of the key is reliable once it returns, unless the caller owns
 * the values. */
int crg_get(crg_table *CRG_NULLABLE t, crg_key *CRG_NULLABLE key, void *CRG_NULLABLE *CRG_NULLABLE value);

/** crg_put_locked, crg_remove_locked, crg_clear_locked and
 * crg_iterate_locked, each taking and releasing the table's mutex itself. */
int crg_put(crg_table *CRG_NULLABLE t, crg_key *CRG_NULLABLE key, void *CRG_NULLABLE value,
            void *CRG_NULLABLE *CRG_NULLABLE previous);
int crg_remove(crg_table *CRG_NULLABLE t, crg_key *CRG_NULLABLE key, void *CRG_NULLABLE *CRG_NULLABLE value);
int crg_clear(crg_table *CRG_NULLABLE t, crg_release_fn CRG_NULLABLE drop, void *CRG_NULLABLE context);
int crg_iterate(crg_table *CRG_NULLABLE t,
                int (*CRG_NULLABLE visit)(const crg_entry *CRG_NONNULL entry, void *CRG_NULLABLE context),
                void *CRG_NULLABLE context);

/** Stores the number of keys in *count, holding the mutex. Returns 0 or EINVAL. */
int crg_count(crg_table *CRG_NULLABLE t, size_t *CRG_NULLABLE count);

/** Shape of a table. */
typedef struct crg_stats {
    size_t count;          /* keys stored */
    size_t capacity;       /* slots (0 for the shared empty array) */
    size_t max_distance;   /* longest distance of an entry from its home slot */
    size_t total_distance; /* sum of those distances: mean probe length = 1 + total/count */
} crg_stats;

/** Fills *stats (walks every slot: O(capacity)), holding the mutex. Returns 0 or EINVAL. */
int crg_get_stats(crg_table *CRG_NULLABLE t, crg_stats *CRG_NULLABLE stats);

/** What crg_check_invariants found broken: the first violation, in this order
 * (the whole table, then slot by slot); above every errno value. */
typedef enum crg_invariant {
    /** The sequence number is odd outside a write. */
    CRG_BROKEN_SEQUENCE = 0x100,
    /** The slot array: its capacity is not a power of two, its meta pointer
     * is not where its layout puts it, it is below the table's minimum
     * capacity, or it is the shared empty array while the table counts keys. */
    CRG_BROKEN_ARRAY,
    /** An empty slot (meta word 0) whose hash, type, name or value is not 0. */
    CRG_BROKEN_EMPTY_SLOT,
    /** An occupied slot without a value, or an unnamed entry whose hash is not its type's. */
    CRG_BROKEN_ENTRY,
    /** A meta word that is not the entry's: its tag (7 hash bits and whether
     * the key has a name) or its distance from home (+ 1, saturating). */
    CRG_BROKEN_META,
    /** Robin Hood order: an entry away from home right after an empty slot,
     * or more than one slot further from home than the entry before it. */
    CRG_BROKEN_ORDER,
    /** A lookup of an entry's key (from its stored hash) does not end at
     * that entry: the key is in the table twice, or the probe cannot reach it. */
    CRG_BROKEN_PROBE,
    /** The count differs from the number of occupied slots. */
    CRG_BROKEN_COUNT,
    /** The count is above 3/4 of the capacity (7 of the smallest array's 8). */
    CRG_BROKEN_LOAD
} crg_invariant;

/**
 * Checks every invariant of the table's layout (crg_invariant) on its current
 * array, holding the mutex: O(capacity) plus a probe per key (writes run it
 * only in builds with CRG_INTERNAL_CHECKS). Returns 0, EINVAL for a NULL
 * table, or the invariant found broken; *slot (when non-NULL) receives the
 * slot where it was found, or SIZE_MAX for the whole table (and for 0).
 */
int crg_check_invariants(crg_table *CRG_NULLABLE t, size_t *CRG_NULLABLE slot);

/** The key's hash, computed out of line and kept in key->hash. */
uint64_t crg_internal_key_hash(crg_key *CRG_NONNULL key);

/** 0 when the inline key hashes equal XXH3_64bits_withSeed for these inputs
 * under `seed` (NULL: the process's seed, also checking
 * crg_internal_key_hash); otherwise a bit mask of the mismatches. */
int crg_internal_hash_check(const uint64_t *CRG_NULLABLE seed, uint64_t type, uint64_t name_hash);

/* ---- Mutexes, read sections, threads ------------------------------------ */

/** Locks `m` if that is possible without waiting. Returns true if locked. */
bool crg_mutex_trylock(crg_mutex *CRG_NONNULL m);

/** crg_retire with the node from `allocator` (NULL: malloc); EINVAL also for
 * an allocator without functions. */
int crg_retire_with(const crg_allocator *CRG_NULLABLE allocator, void *CRG_NULLABLE object,
                    crg_release_fn CRG_NULLABLE release, void *CRG_NULLABLE context);

/** How often the calling thread took the epoch mutex on leaving a section. */
uint64_t crg_reader_leaving_collections(void);

/** How many objects were ever retired, by every thread. */
uint64_t crg_retirements(void);

/** How often a thread leaving a section found the epoch mutex taken and left the collection to the next. */
uint64_t crg_collect_requests(void);

/** The current version of the threads' caches (crg_tcache.h). */
uint64_t crg_tcache_version(void);

/** Empties the calling thread's cache, whatever the version. */
void crg_tcache_empty(void);

/** The calling thread's record (NULL before its first read section) and its
 * size: the block only its thread writes. */
const void *CRG_NULLABLE crg_thread_record_address(void);
size_t crg_thread_record_size(void);

/** How many bytes malloc holds for the block it returned at `pointer` (or
 * Swift's allocator did): malloc_usable_size, malloc_size on Apple's. */
size_t crg_allocation_size(const void *CRG_NONNULL pointer);

CRG_EXTERN_C_END

#endif /* CRG_TESTING_H */
