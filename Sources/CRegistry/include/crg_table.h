/*
 * The table: an open-addressed hash table from a key, a 64-bit type identity
 * (the bit pattern of a Swift ObjectIdentifier) and an optional name (bytes),
 * to an opaque, non-NULL pointer, which readers search without a lock while
 * writers change it under a crg_mutex. The table never looks inside values.
 * A table made with a `release` function owns its values: one that leaves
 * the table (replaced, removed, cleared, or left in it when the table is
 * destroyed) is retired (crg_retire) and released once readers are done.
 *
 * Keys. Two keys are equal when their types are equal and either both have
 * no name or both have names with the same bytes: "no name", the empty name
 * "" and the one-byte name "\0" are three keys. The table keeps its own copy
 * of every name it stores. Hashing is XXH3-64 (xxHash), seeded once per
 * process from the operating system's random source, so crafted names cannot
 * force collisions that repeat from run to run. A name's bytes are hashed
 * once, by crg_name_hash(), and the caller keeps that hash in the key; the
 * key's own hash is computed inline by the first table call that needs it
 * and kept in the key, so a lookup that probes two tables hashes once.
 *
 * Layout (crg_table_inline.h; DESIGN.md, "The table"): linear probing in
 * Robin Hood order, backward-shift deletion, at most 3/4 of the slots in use
 * (7 of the smallest array's 8). An insert that would exceed that moves
 * every entry into a new array of four times the capacity below 1,024 slots,
 * twice above (crg_reserve_locked sizes a table once); a removal that leaves
 * count < capacity / 8 halves the capacity towards max(minimum, 2 * count)
 * if memory allows. A new or cleared table uses a shared, static, empty
 * array: it allocates nothing until its first insert.
 *
 * Concurrency (crg_epoch.h, DESIGN.md R1-R3): writers hold the table's mutex
 * (the _locked calls) and move slots inside a sequence write section (the
 * table's sequence number is odd meanwhile). Readers call crg_find inside a
 * read section, or holding the mutex, and retry a probe the sequence number
 * does not validate. Nothing a reader may be looking at is freed in place:
 * replaced arrays, removed names and values that left the table are retired.
 *
 * Errors. Functions that can fail return 0 on success or an errno value:
 *   EINVAL  a NULL table or key, a NULL name with a positive length, a NULL
 *           value, or options that make no sense;
 *   ENOENT  the key is not in the table;
 *   ENOMEM  an allocation failed; the table is exactly as it was before;
 *   EBUSY   a mutation was attempted from inside crg_iterate_locked's visitor.
 * Nothing in this file aborts or prints.
 */
#ifndef CRG_TABLE_H
#define CRG_TABLE_H

#include "crg_base.h"
#include "crg_epoch.h"
#include "crg_mutex.h"

CRG_EXTERN_C_BEGIN

/* ------------------------------------------------------------------------ */
/* Keys                                                                      */
/* ------------------------------------------------------------------------ */

/**
 * A lookup key. Build one with crg_key_unnamed() or crg_key_named().
 *
 * - type:      the type identity (any 64-bit value).
 * - has_name:  false for "no name"; then name, name_len and name_hash are
 *              ignored.
 * - name:      the name's bytes; may be NULL only when name_len == 0. The bytes
 *              need to stay valid only for the duration of a call.
 * - name_len:  the number of bytes.
 * - name_hash: crg_name_hash(name, name_len). A key whose name_hash does not
 *              match its name is not an error the table can see: it simply
 *              will not find entries stored under the correct hash.
 * - hash:      0 until a table call computes the key's hash and keeps it here.
 */
typedef struct crg_key {
    uint64_t type;
    const void *CRG_NULLABLE name;
    size_t name_len;
    uint64_t name_hash;
    uint64_t hash;
    bool has_name;
} crg_key;

/**
 * Hashes a name's bytes with XXH3-64 and the per-process seed. Compute it once
 * per name and keep it. `bytes` may be NULL when `len` is 0. Never fails.
 */
uint64_t crg_name_hash(const void *CRG_NULLABLE bytes, size_t len);

/** Private: one remembered literal hash (see crg_name_hash_static). */
typedef struct crg_name_memo {
    const void *CRG_NULLABLE bytes;
    size_t len;
    uint64_t hash;
} crg_name_memo;

enum { CRG_NAME_MEMOS = 64 };

/** Private: the calling thread's remembered literal hashes. */
extern CRG_THREAD_LOCAL crg_name_memo crg_internal_name_memos[CRG_NAME_MEMOS];

/**
 * crg_name_hash() of bytes that never change while the process runs (a string
 * literal's), remembered per thread by their address: a name made from the
 * same literal again, as `name: "fred"` is at every call, costs a load and
 * two compares instead of a hash. Never pass bytes that may be freed or
 * rewritten.
 */
static inline CRG_ALWAYS_INLINE uint64_t crg_name_hash_static(const void *CRG_NONNULL bytes, size_t len) {
    crg_name_memo *memo = &crg_internal_name_memos[((uintptr_t)bytes >> 3) & (CRG_NAME_MEMOS - 1)];
    if (CRG_LIKELY(memo->bytes == bytes && memo->len == len)) {
        return memo->hash;
    }
    uint64_t hash = crg_name_hash(bytes, len);
    memo->bytes = bytes;
    memo->len = len;
    memo->hash = hash;
    return hash;
}

/** A key with no name. */
static inline CRG_ALWAYS_INLINE crg_key crg_key_unnamed(uint64_t type) {
    crg_key key = { type, NULL, 0, 0, 0, false };
    return key;
}

/** A key with a name whose hash the caller computed with crg_name_hash(). */
static inline CRG_ALWAYS_INLINE crg_key crg_key_named(uint64_t type, const void *CRG_NULLABLE name, size_t name_len,
                                    uint64_t name_hash) {
    crg_key key = { type, name, name_len, name_hash, 0, true };
    return key;
}

/* ------------------------------------------------------------------------ */
/* Tables                                                                    */
/* ------------------------------------------------------------------------ */

typedef struct crg_table crg_table;

/**
 * Options for crg_create(). Zero-initialised options are the defaults.
 * - capacity:  the number of keys the table holds before it first grows (and
 *              the size it never shrinks below); 0 means 7.
 * - mutex:     the writers' mutex, shared with other tables (the table retains
 *              it), or NULL for one of the table's own (made with the table's
 *              allocator: whoever retains it keeps that allocator in use).
 * - allocator: where the table gets all its memory (crg_base.h): the table
 *              itself, its own mutex, slot arrays, names, and the nodes that
 *              retire values it owns. Copied; NULL means malloc/free.
 * - release:   how values are released once they have left the table and no
 *              reader can see them (called with `release_context`), making the
 *              table their owner; NULL leaves values to the caller, who gets
 *              each one back (crg_put's `previous`, crg_remove's `value`) and
 *              must not free it while readers may still see it.
 */
typedef struct crg_options {
    size_t capacity;
    crg_mutex *CRG_NULLABLE mutex;
    const crg_allocator *CRG_NULLABLE allocator;
    crg_release_fn CRG_NULLABLE release;
    void *CRG_NULLABLE release_context;
} crg_options;

/**
 * Creates an empty table and stores it in *out. `options` may be NULL for the
 * defaults. Returns 0, EINVAL (out is NULL, an allocator without functions, or
 * a capacity too large to represent) or ENOMEM (*out is then untouched).
 */
int crg_create(crg_table *CRG_NULLABLE *CRG_NULLABLE out, const crg_options *CRG_NULLABLE options);

/**
 * Destroys a table: its values (when it owns them), names, slots and the table
 * itself are retired and released after readers are done with them (run
 * crg_collect() to release them now if no read section is open). No thread may
 * call the table's functions any more; the mutex must not be held by another
 * thread. NULL is ignored.
 */
void crg_destroy(crg_table *CRG_NULLABLE t);

/**
 * Looks `key` up without a lock. Call inside a read section (crg_read_begin),
 * or holding the table's mutex. On success stores the value in *value (when
 * `value` is non-NULL): valid until the read section ends. Returns 0, ENOENT
 * or EINVAL. Never allocates; stores the key's hash in key->hash. Inline
 * (crg_table_inline.h): this is the probe every resolve makes.
 */
static inline CRG_ALWAYS_INLINE int crg_find(crg_table *CRG_NULLABLE t, crg_key *CRG_NULLABLE key,
                                              void *CRG_NULLABLE *CRG_NULLABLE value);

/**
 * Inserts `value` under `key`, or replaces the value already there (retired if
 * the table owns its values). On success *previous (when non-NULL) receives
 * the value that was replaced, or NULL if the key was new: a table without a
 * release function hands it back to the caller; one with a release function
 * has retired it, and the pointer is only information. A new key's name is
 * copied, and growing allocates a new array; replacing allocates nothing,
 * except in a table that owns its values: the node that retires the old
 * value. Returns 0, EINVAL, ENOMEM or EBUSY; on any error the table is
 * unchanged and *previous untouched. Call holding the table's mutex.
 */
int crg_put_locked(crg_table *CRG_NULLABLE t, crg_key *CRG_NULLABLE key, void *CRG_NULLABLE value,
                   void *CRG_NULLABLE *CRG_NULLABLE previous);

/**
 * Makes room for `count` keys in all, for a batch of inserts: sizes the
 * array once (moving the entries into a new one, unless the current array
 * already holds `count` keys at most half full) so that no insert allocates
 * a slot array until the table holds that many. A removal may still shrink
 * it. Returns 0, EINVAL, EBUSY or ENOMEM (the array cannot be had; the table
 * is unchanged). Call holding the table's mutex.
 */
int crg_reserve_locked(crg_table *CRG_NULLABLE t, size_t count);

/**
 * Removes `key`. On success its value goes to *value (when non-NULL), with the
 * same ownership as crg_put's `previous`. Returns 0, ENOENT, EINVAL, ENOMEM
 * (only in a table that owns its values: the node that retires the value) or
 * EBUSY; on an error nothing changed. May shrink the table; if that
 * allocation fails the table simply stays larger. Call holding the table's
 * mutex.
 */
int crg_remove_locked(crg_table *CRG_NULLABLE t, crg_key *CRG_NULLABLE key,
                      void *CRG_NULLABLE *CRG_NULLABLE value);

/**
 * Removes every key, without allocating: the table switches to the shared
 * empty array, and the old one, with every name and value in it, is retired
 * as one. A table without a release function first calls `drop(value,
 * context)` for every value (when `drop` is non-NULL), so the caller can take
 * them back; a table with one ignores `drop`. Returns 0, EINVAL or EBUSY.
 * Call holding the table's mutex.
 */
int crg_clear_locked(crg_table *CRG_NULLABLE t, crg_release_fn CRG_NULLABLE drop, void *CRG_NULLABLE context);

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
 * particular order). A visitor returning non-zero stops the walk, and that
 * value is returned. The visitor may read the table but any mutation returns
 * EBUSY. Returns 0 after a full walk, the visitor's non-zero result, or
 * EINVAL. Call holding the table's mutex.
 */
int crg_iterate_locked(crg_table *CRG_NULLABLE t,
                       int (*CRG_NULLABLE visit)(const crg_entry *CRG_NONNULL entry, void *CRG_NULLABLE context),
                       void *CRG_NULLABLE context);

CRG_EXTERN_C_END

#include "crg_table_inline.h"

#endif /* CRG_TABLE_H */
