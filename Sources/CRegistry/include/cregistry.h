/*
 * CRegistry - an open-addressed hash table keyed by (type identity, name).
 *
 * This is the storage under the Resolver front end. It maps a key made of a
 * 64-bit type identity (the bit pattern of a Swift ObjectIdentifier) and an
 * optional name (UTF-8 bytes) to an opaque, non-NULL pointer. The table never
 * looks inside the values: the caller owns them. Whenever a value leaves the
 * table (replaced by crg_put, removed, cleared, destroyed) it is handed back
 * to the caller, who releases it.
 *
 * ---------------------------------------------------------------------------
 * Keys
 * ---------------------------------------------------------------------------
 * Two keys are equal when their types are equal and either both have no name
 * or both have names with the same bytes. Names are compared by content, never
 * by address, so "no name", the empty name "" and the one-byte name "\0" are
 * three different keys. The table keeps its own copy of every name it stores.
 *
 * Hashing is XXH3-64 (xxHash), seeded once per process from the operating
 * system's random source so that crafted names cannot force collisions that
 * repeat from run to run. A name's text is hashed once, by crg_name_hash(),
 * and the caller stores that hash in the key; a lookup then mixes only the
 * 16 bytes (type, name hash) and never re-reads the text except to confirm a
 * match.
 *
 * ---------------------------------------------------------------------------
 * Layout and invariants
 * ---------------------------------------------------------------------------
 * - Slots form one array whose length (the capacity) is a power of two >= 8.
 * - A slot is empty when its stored hash is 0; real hashes of 0 are stored
 *   as 1. Each occupied slot stores the full key hash, so almost every
 *   mismatch is rejected without touching the key or its name.
 * - Probing is linear from a key's home slot (hash & (capacity - 1)), with
 *   Robin Hood ordering: an insert takes the place of the first entry that is
 *   closer to its own home than the new key is to its home, and pushes that
 *   entry on. Hence in any two adjacent occupied slots the second entry's
 *   distance from home is at most the first's plus one, and a lookup stops at
 *   the first empty slot or the first entry closer to home than the probe
 *   distance: misses stay short even at high load.
 * - count <= capacity * 7/8 at all times. An insert that would exceed it first
 *   doubles the capacity. A removal that leaves count < capacity/8 halves the
 *   capacity towards max(initial capacity, 2 * count), if memory allows.
 * - Deletion is backward-shift: later entries of the same run move one slot
 *   back, so there are no tombstones and no rehash is ever needed for them.
 * - Values are never NULL.
 *
 * ---------------------------------------------------------------------------
 * Locking
 * ---------------------------------------------------------------------------
 * Every table is guarded by a crg_mutex: a recursive pthread mutex
 * (PTHREAD_MUTEX_RECURSIVE, on Linux and Darwin alike). A table normally has
 * its own; several tables may share one, so that a caller can group
 * operations across tables under a single lock/unlock pair.
 *
 * Each plain function (crg_put, crg_get, ...) takes the mutex itself and is
 * safe to call from any thread. Each *_locked variant does the same work but
 * expects the caller to hold the mutex already (crg_lock(), or
 * crg_mutex_lock() on a shared mutex); this is what lets a caller do several
 * operations under one lock pair. Calling a *_locked function without holding
 * the mutex is a data race.
 *
 * ---------------------------------------------------------------------------
 * Errors
 * ---------------------------------------------------------------------------
 * Functions that can fail return 0 on success or an errno value:
 *   EINVAL  a NULL table or key, a negative name length, a NULL name with a
 *           positive length, or a NULL value;
 *   ENOENT  the key is not in the table (crg_get, crg_remove);
 *   ENOMEM  an allocation failed; the table is exactly as it was before;
 *   EBUSY   a mutation was attempted from inside crg_iterate's visitor.
 * Nothing in this library aborts or prints.
 */
#ifndef CREGISTRY_H
#define CREGISTRY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__clang__)
#define CRG_NULLABLE _Nullable
#define CRG_NONNULL _Nonnull
#else
#define CRG_NULLABLE
#define CRG_NONNULL
#endif

/* ------------------------------------------------------------------------ */
/* Keys                                                                      */
/* ------------------------------------------------------------------------ */

/**
 * A lookup key. Build one with crg_key_unnamed() or crg_key_named().
 *
 * - type:      the type identity (any 64-bit value).
 * - has_name:  false for "no name"; then name, name_len and name_hash are
 *              ignored.
 * - name:      the name's bytes; may be NULL only when name_len == 0. The
 *              bytes need to stay valid only for the duration of the call.
 * - name_len:  the number of bytes; negative is EINVAL.
 * - name_hash: crg_name_hash(name, name_len). A key whose name_hash does not
 *              match its name is not an error the table can see: it simply
 *              will not find entries stored under the correct hash.
 */
typedef struct crg_key {
    uint64_t type;
    const void *CRG_NULLABLE name;
    ptrdiff_t name_len;
    uint64_t name_hash;
    bool has_name;
} crg_key;

/**
 * Hashes a name's bytes with XXH3-64 and the per-process seed.
 * Compute it once per name and keep it in the name's key.
 * `bytes` may be NULL when `len` is 0. Thread-safe; never fails.
 */
uint64_t crg_name_hash(const void *CRG_NULLABLE bytes, size_t len);

/** A key with no name. */
static inline crg_key crg_key_unnamed(uint64_t type) {
    crg_key key = { type, (const void *)0, 0, 0, false };
    return key;
}

/** A key with a name whose hash the caller computed with crg_name_hash(). */
static inline crg_key crg_key_named(uint64_t type, const void *CRG_NULLABLE name,
                                    ptrdiff_t name_len, uint64_t name_hash) {
    crg_key key = { type, name, name_len, name_hash, true };
    return key;
}

/* ------------------------------------------------------------------------ */
/* Mutex                                                                     */
/* ------------------------------------------------------------------------ */

/** A reference-counted recursive mutex that one or more tables share. */
typedef struct crg_mutex crg_mutex;

/**
 * Creates a recursive mutex with a reference count of 1.
 * Returns NULL if memory or the mutex could not be obtained.
 */
crg_mutex *CRG_NULLABLE crg_mutex_create(void);

/** Adds a reference. Returns `m`. NULL is ignored (and returned). */
crg_mutex *CRG_NULLABLE crg_mutex_retain(crg_mutex *CRG_NULLABLE m);

/**
 * Drops a reference; the mutex is destroyed when the last one goes (every
 * table holds one on the mutex it uses). It must not be locked then.
 * NULL is ignored.
 */
void crg_mutex_release(crg_mutex *CRG_NULLABLE m);

/**
 * Locks `m`. The same thread may lock it again; each lock needs an unlock.
 * If the mutex is briefly held by another thread the caller spins for a few
 * hundred cycles before sleeping, since the critical sections guarded here
 * are a handful of nanoseconds long.
 */
void crg_mutex_lock(crg_mutex *CRG_NONNULL m);

/** Unlocks `m`, which the calling thread must hold. */
void crg_mutex_unlock(crg_mutex *CRG_NONNULL m);

/**
 * Waits on the condition variable that comes with `m`, as a monitor does:
 * atomically unlocks `m`, sleeps until crg_mutex_broadcast() (or a spurious
 * wake-up: callers re-check their condition in a loop), and locks `m` again.
 * The calling thread must hold `m` exactly once: waiting while it is locked
 * recursively would keep it locked while asleep, so that returns EDEADLK
 * without waiting. Returns 0 or EDEADLK.
 */
int crg_mutex_wait(crg_mutex *CRG_NONNULL m);

/** Wakes every thread waiting in crg_mutex_wait() on `m`. The caller should hold `m`. */
void crg_mutex_broadcast(crg_mutex *CRG_NONNULL m);

/* ------------------------------------------------------------------------ */
/* Tables                                                                    */
/* ------------------------------------------------------------------------ */

typedef struct crg_table crg_table;

/**
 * Where a table gets its memory. Both functions receive `context`.
 * `allocate` returns NULL on failure, which the table reports as ENOMEM after
 * undoing whatever the operation had begun. Used by tests to inject failures.
 */
typedef struct crg_allocator {
    void *CRG_NULLABLE (*CRG_NONNULL allocate)(size_t size, void *CRG_NULLABLE context);
    void (*CRG_NONNULL deallocate)(void *CRG_NULLABLE pointer, void *CRG_NULLABLE context);
    void *CRG_NULLABLE context;
} crg_allocator;

/**
 * Options for crg_create(). Zero-initialised options are the defaults.
 * - capacity:  the number of keys the table holds before it first grows (and
 *              the size it never shrinks below); 0 means 8.
 * - mutex:     a mutex to share with other tables (the table retains it), or
 *              NULL for a mutex of the table's own.
 * - allocator: copied into the table; NULL means malloc/free.
 */
typedef struct crg_options {
    size_t capacity;
    crg_mutex *CRG_NULLABLE mutex;
    const crg_allocator *CRG_NULLABLE allocator;
} crg_options;

/**
 * Creates an empty table and stores it in *out.
 * `options` may be NULL for the defaults.
 * Returns 0, EINVAL (out is NULL, or capacity too large to represent), or
 * ENOMEM (*out is then untouched).
 */
int crg_create(crg_table *CRG_NULLABLE *CRG_NULLABLE out, const crg_options *CRG_NULLABLE options);

/**
 * Destroys a table: calls `drop(value, context)` for every value still in it
 * (when `drop` is non-NULL), frees the table's memory and releases its mutex.
 * No other thread may use the table any more; the mutex must not be held.
 * NULL is ignored.
 */
void crg_destroy(crg_table *CRG_NULLABLE t,
                 void (*CRG_NULLABLE drop)(void *CRG_NONNULL value, void *CRG_NULLABLE context),
                 void *CRG_NULLABLE context);

/** Locks the table's mutex (see crg_mutex_lock). Returns 0 or EINVAL. */
int crg_lock(crg_table *CRG_NULLABLE t);

/** Unlocks the table's mutex, which the calling thread must hold. Returns 0 or EINVAL. */
int crg_unlock(crg_table *CRG_NULLABLE t);

/** The mutex guarding `t` (not retained), or NULL when `t` is NULL. */
crg_mutex *CRG_NULLABLE crg_table_mutex(crg_table *CRG_NULLABLE t);

/**
 * Inserts `value` under `key`, or replaces the value already there.
 * On success *previous (when `previous` is non-NULL) receives the value that
 * was replaced, or NULL if the key was new; the caller now owns it.
 * A new key's name is copied. Returns 0, EINVAL, ENOMEM or EBUSY; on any
 * error the table is unchanged and *previous is untouched.
 */
int crg_put(crg_table *CRG_NULLABLE t, const crg_key *CRG_NULLABLE key, void *CRG_NULLABLE value,
            void *CRG_NULLABLE *CRG_NULLABLE previous);
int crg_put_locked(crg_table *CRG_NULLABLE t, const crg_key *CRG_NULLABLE key, void *CRG_NULLABLE value,
                   void *CRG_NULLABLE *CRG_NULLABLE previous);

/**
 * Looks `key` up. On success stores the value in *value (when `value` is
 * non-NULL). Returns 0, ENOENT or EINVAL. Never allocates.
 */
int crg_get(crg_table *CRG_NULLABLE t, const crg_key *CRG_NULLABLE key,
            void *CRG_NULLABLE *CRG_NULLABLE value);
int crg_get_locked(crg_table *CRG_NULLABLE t, const crg_key *CRG_NULLABLE key,
                   void *CRG_NULLABLE *CRG_NULLABLE value);

/**
 * Removes `key`. On success its value goes to *value (when `value` is
 * non-NULL) and the caller owns it. Returns 0, ENOENT, EINVAL or EBUSY.
 * May shrink the table; if that allocation fails the table simply stays
 * larger, and the removal still succeeds.
 */
int crg_remove(crg_table *CRG_NULLABLE t, const crg_key *CRG_NULLABLE key,
               void *CRG_NULLABLE *CRG_NULLABLE value);
int crg_remove_locked(crg_table *CRG_NULLABLE t, const crg_key *CRG_NULLABLE key,
                      void *CRG_NULLABLE *CRG_NULLABLE value);

/** Stores the number of keys in *count. Returns 0 or EINVAL. */
int crg_count(crg_table *CRG_NULLABLE t, size_t *CRG_NULLABLE count);

/**
 * Removes every key. For each value, `drop(value, context)` is called (when
 * `drop` is non-NULL) before the memory is reset, so the caller can collect
 * the values and release them after unlocking. The capacity returns to the
 * initial one when that allocation succeeds. Returns 0, EINVAL or EBUSY.
 */
int crg_clear(crg_table *CRG_NULLABLE t,
              void (*CRG_NULLABLE drop)(void *CRG_NONNULL value, void *CRG_NULLABLE context),
              void *CRG_NULLABLE context);
int crg_clear_locked(crg_table *CRG_NULLABLE t,
                     void (*CRG_NULLABLE drop)(void *CRG_NONNULL value, void *CRG_NULLABLE context),
                     void *CRG_NULLABLE context);

/** One entry as seen by crg_iterate's visitor. The pointers are valid only during the call. */
typedef struct crg_entry {
    uint64_t type;
    bool has_name;
    const uint8_t *CRG_NULLABLE name; /* NULL when !has_name or the name is empty */
    size_t name_len;
    void *CRG_NONNULL value;
} crg_entry;

/**
 * Calls `visit(entry, context)` for every entry, in slot order (that is, in no
 * particular order), holding the table's mutex. A visitor returning non-zero
 * stops the walk, and that value is returned. The visitor may read the table
 * (crg_get, crg_count) but any mutation returns EBUSY.
 * Returns 0 after a full walk, the visitor's non-zero result, or EINVAL.
 */
int crg_iterate(crg_table *CRG_NULLABLE t,
                int (*CRG_NULLABLE visit)(const crg_entry *CRG_NONNULL entry, void *CRG_NULLABLE context),
                void *CRG_NULLABLE context);
int crg_iterate_locked(crg_table *CRG_NULLABLE t,
                       int (*CRG_NULLABLE visit)(const crg_entry *CRG_NONNULL entry, void *CRG_NULLABLE context),
                       void *CRG_NULLABLE context);

/** Shape of a table, for tests and benchmarks. */
typedef struct crg_stats {
    size_t count;        /* keys stored */
    size_t capacity;     /* slots */
    size_t max_distance; /* longest distance of an entry from its home slot */
    size_t total_distance; /* sum of those distances: mean probe length = 1 + total/count */
} crg_stats;

/** Fills *stats (walks every slot: O(capacity)). Returns 0 or EINVAL. */
int crg_get_stats(crg_table *CRG_NULLABLE t, crg_stats *CRG_NULLABLE stats);

#ifdef __cplusplus
}
#endif

#endif /* CREGISTRY_H */
