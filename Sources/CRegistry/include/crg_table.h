/*
 * The table: an open-addressed hash table from a key, a 64-bit type identity
 * (a Swift ObjectIdentifier's bits) and an optional name (bytes), to an
 * opaque non-NULL pointer it never looks inside, searched by readers without
 * a lock while writers change it under a crg_mutex. A table made with a
 * `release` function owns its values: one that leaves it (replaced, removed,
 * cleared, or left in it when the table is destroyed) is retired (crg_retire).
 *
 * Keys are equal when their types are, and either neither has a name or both
 * have names of the same bytes: "no name", "" and "\0" are three keys. The
 * table copies the names it stores. Hashing is XXH3-64, seeded once per
 * process from the system's random source (crafted names cannot force
 * collisions that repeat); a name's hash is computed once (crg_name_hash) and
 * kept in the key, and so is the key's, by the first call that needs it.
 *
 * Layout (crg_table_inline.h; DESIGN.md, "The table"): linear probing in Robin
 * Hood order, backward-shift deletion, at most 3/4 of the slots in use (7 of
 * the smallest array's 8). An insert past that moves every entry into an
 * array four times larger below 1,024 slots, twice above (crg_reserve_locked
 * sizes one once); a removal that leaves count < capacity / 8 halves the
 * capacity towards max(minimum, 2 * count). A new or cleared table uses a
 * shared static empty array: it allocates nothing until its first insert.
 *
 * Concurrency (crg_epoch.h; DESIGN.md, R1-R3): writers hold the table's mutex
 * (the _locked calls) and move slots while the table's sequence number is
 * odd; readers call crg_find in a read section (or holding the mutex) and
 * retry a probe the sequence number does not validate. Replaced arrays,
 * removed names and values that left the table are retired, never freed in
 * place.
 *
 * Errors: 0, or an errno value: EINVAL (a NULL table or key, a NULL name with
 * a positive length, a NULL value, options that make no sense), ENOENT (no
 * such key), ENOMEM (the table is exactly as before), EBUSY (a change from
 * inside crg_iterate_locked's visitor). Nothing here aborts or prints.
 */
#ifndef CRG_TABLE_H
#define CRG_TABLE_H

#include "crg_base.h"
#include "crg_epoch.h"
#include "crg_mutex.h"

CRG_EXTERN_C_BEGIN

/* ---- Keys --------------------------------------------------------------- */

/**
 * A lookup key, made by crg_key_unnamed() or crg_key_named(): a type identity
 * (any 64-bit value) and, when has_name, `name_len` bytes at `name` (NULL
 * only when 0; valid for the duration of a call) with their crg_name_hash
 * (a wrong one is no error the table sees: it finds nothing stored under the
 * right one). `hash` is 0 until a table call computes the key's and keeps it.
 */
typedef struct crg_key {
    uint64_t type;
    const void *CRG_NULLABLE name;
    size_t name_len;
    uint64_t name_hash;
    uint64_t hash;
    bool has_name;
} crg_key;

/** Hashes a name's bytes (NULL when `len` is 0) with XXH3-64 and the
 * per-process seed, to be computed once per name and kept. Never fails. */
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
 * literal's), remembered per thread by their address: the same literal again
 * costs a load and two compares instead of a hash. Never pass bytes that may
 * be freed or rewritten.
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

/* ---- Tables ------------------------------------------------------------- */

typedef struct crg_table crg_table;

/**
 * Options for crg_create(); zeros are the defaults.
 * - capacity:  how many keys the table holds before it first grows, and the
 *              size it never shrinks below; 0 means 7.
 * - mutex:     the writers' mutex, shared with other tables (retained), or
 *              NULL for one of its own, made with the table's allocator.
 * - allocator: where all of the table's memory comes from (crg_base.h):
 *              copied; NULL means malloc/free.
 * - release:   makes the table the owner of its values, released with
 *              `release_context` once they left it and no reader can see
 *              them; NULL hands each back to the caller (crg_put_locked's
 *              `previous`, crg_remove_locked's `value`), who must not free it
 *              while readers may see it.
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
 * Destroys a table: its values (when it owns them), names, slots and the
 * table itself are retired (crg_collect releases them). No thread may call
 * the table's functions any more, nor hold its mutex. NULL is ignored.
 */
void crg_destroy(crg_table *CRG_NULLABLE t);

/**
 * Looks `key` up without a lock, inside a read section (crg_read_begin) or
 * holding the table's mutex: stores the value in *value (when non-NULL),
 * valid until the section ends. Returns 0, ENOENT or EINVAL. Never allocates;
 * keeps the key's hash in key->hash. Inline (crg_table_inline.h).
 */
static inline CRG_ALWAYS_INLINE int crg_find(crg_table *CRG_NULLABLE t, crg_key *CRG_NULLABLE key,
                                              void *CRG_NULLABLE *CRG_NULLABLE value);

/**
 * Inserts `value` under `key`, or replaces the value there (retired if the
 * table owns its values). *previous (when non-NULL) receives the value
 * replaced, or NULL for a new key: the caller's again, unless the table owns
 * it. A new key's name is copied and growing allocates an array; replacing
 * allocates only the node that retires an owned value. Returns 0, EINVAL,
 * ENOMEM or EBUSY; on an error nothing changed, *previous untouched. Call
 * holding the table's mutex.
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

/** The number of keys in the table (0 for NULL). Call holding the table's mutex. */
size_t crg_count_locked(crg_table *CRG_NULLABLE t);

/**
 * Removes `key`; its value goes to *value (when non-NULL), owned as
 * crg_put_locked's `previous`. Returns 0, ENOENT, EINVAL, ENOMEM (an owning
 * table's retirement node) or EBUSY; on an error nothing changed. May shrink
 * the table (without memory for that, it stays larger). Call holding the
 * table's mutex.
 */
int crg_remove_locked(crg_table *CRG_NULLABLE t, crg_key *CRG_NULLABLE key,
                      void *CRG_NULLABLE *CRG_NULLABLE value);

/**
 * Removes every key without allocating: the table takes the shared empty
 * array and retires the old one with its names and values. A table that does
 * not own its values first hands each to `drop(value, context)` (when
 * non-NULL). Returns 0, EINVAL or EBUSY. Call holding the table's mutex.
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
 * Calls `visit(entry, context)` for every entry, in no particular order,
 * until one returns non-zero. The visitor may read the table; a change
 * returns EBUSY. Returns 0, the visitor's non-zero result, or EINVAL. Call
 * holding the table's mutex.
 */
int crg_iterate_locked(crg_table *CRG_NULLABLE t,
                       int (*CRG_NULLABLE visit)(const crg_entry *CRG_NONNULL entry, void *CRG_NULLABLE context),
                       void *CRG_NULLABLE context);

CRG_EXTERN_C_END

#include "crg_table_inline.h"

#endif /* CRG_TABLE_H */
