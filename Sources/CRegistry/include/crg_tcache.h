/*
 * A per-thread cache of lookups, (container, type, name) -> the value a
 * lookup found, in the thread's record: two-way set-associative, touched by
 * its thread only, validated by one process-wide version word (DESIGN.md,
 * T1). The version is odd while a write is in progress: a mutex marked with
 * crg_mutex_set_versioned steps it when a thread takes it (outermost, not
 * with crg_mutex_lock_quiet) and lets go of it (unlock, condition wait), and
 * crg_tcache_invalidate adds 2. Every change to what a key finds, or that
 * retires a cached value, is made under that mutex or invalidates. An entry
 * is valid for the version it was filled under, and filled only when the
 * version read before and after the lookup is the same even number. Values
 * are not owned: use them inside a read section (crg_epoch.h).
 *
 * A name is identified by its bytes' address and its hash (NULL and 0: no
 * name). A key's set holds two entries, way 0 filled last: a fill of the key
 * in way 0 replaces its value, a fill over a stale way 0 takes it, any other
 * moves way 0 to way 1 and takes way 0. So two keys sharing a set are both
 * kept; a third evicts the one filled least recently.
 */
#ifndef CRG_TCACHE_H
#define CRG_TCACHE_H

#include "crg_base.h"
#include "crg_mutex.h"
#include "crg_thread_record.h"

CRG_EXTERN_C_BEGIN

/** Private: the version word, on a cache line of its own. */
typedef struct crg_tcache_version_line {
    uint64_t version;
    char padding[56];
} crg_tcache_version_line;
extern crg_tcache_version_line crg_internal_tcache_line;

/** The set of a key, 0 ..< CRG_TCACHE_SETS: the top bits of one multiply
 * (Fibonacci hashing) of the container, the type and the name hash. */
static inline CRG_ALWAYS_INLINE unsigned crg_tcache_set_index(const void *CRG_NULLABLE container, uint64_t type,
                                                              uint64_t name_hash) {
    uint64_t mixed = ((uint64_t)(uintptr_t)container ^ (type >> 3) ^ name_hash) * 0x9E3779B97F4A7C15ull;
    return (unsigned)(mixed >> 57);
}

/** Private: whether `entry` holds the key. */
static inline CRG_ALWAYS_INLINE bool crg_tcache_entry_is(const crg_tcache_entry *CRG_NONNULL entry,
                                                         const void *CRG_NULLABLE container, uint64_t type,
                                                         const void *CRG_NULLABLE name, uint64_t name_hash) {
    return entry->container == container && entry->type == type && entry->name == name && entry->name_hash == name_hash;
}

/** Private: whether `entry` holds the key, filled under `version`. */
static inline CRG_ALWAYS_INLINE bool crg_tcache_entry_holds(const crg_tcache_entry *CRG_NONNULL entry,
                                                            const void *CRG_NULLABLE container, uint64_t type,
                                                            const void *CRG_NULLABLE name, uint64_t name_hash,
                                                            uint64_t version) {
    return crg_tcache_entry_is(entry, container, type, name, name_hash) && entry->version == version;
}

/** The value this thread cached for (`container`, `type`, `name`,
 * `name_hash`) under the current version, or NULL; remembers the version for
 * crg_tcache_fill. Call inside a read section. */
static inline CRG_ALWAYS_INLINE void *CRG_NULLABLE crg_tcache_find(const void *CRG_NULLABLE container, uint64_t type,
                                                                     const void *CRG_NULLABLE name, uint64_t name_hash) {
    crg_tcache *cache = &crg_internal_current_record->cache;
    uint64_t version = __atomic_load_n(&crg_internal_tcache_line.version, __ATOMIC_ACQUIRE);
    cache->probe_version = version;
    unsigned set = crg_tcache_set_index(container, type, name_hash);
    /* One entry pointer, moved to way 1 on a miss in way 0: a hit in way 0
     * costs one direct-mapped probe. (The empty asm keeps the compiler from
     * merging the two ways' loads of `value` into one indexed load.) */
    crg_tcache_entry *entry = &cache->ways[0][set];
    if (CRG_UNLIKELY(!crg_tcache_entry_holds(entry, container, type, name, name_hash, version))) {
        entry = &cache->ways[1][set];
        __asm__("" : "+r"(entry));
        if (!crg_tcache_entry_holds(entry, container, type, name, name_hash, version)) {
            return NULL;
        }
    }
    return entry->value;
}

/** Remembers `value`, which a lookup for the key found after this thread's
 * latest crg_tcache_find, unless a write began since. Call inside the same
 * read section as the lookup. */
static inline CRG_ALWAYS_INLINE void crg_tcache_fill(const void *CRG_NULLABLE container, uint64_t type,
                                                     const void *CRG_NULLABLE name, uint64_t name_hash,
                                                     void *CRG_NONNULL value) {
    crg_tcache *cache = &crg_internal_current_record->cache;
    /* The lookup's loads happen before the version is read again. */
    __atomic_thread_fence(__ATOMIC_ACQUIRE);
    uint64_t version = __atomic_load_n(&crg_internal_tcache_line.version, __ATOMIC_RELAXED);
    if (version != cache->probe_version || (version & 1) != 0) {
        return;
    }
    unsigned set = crg_tcache_set_index(container, type, name_hash);
    crg_tcache_entry *first = &cache->ways[0][set];
    if (crg_tcache_entry_is(first, container, type, name, name_hash)) {
        first->value = value;
        first->version = version;
        return;
    }
    /* Way 1 may hold the key (an older value): it is overwritten by way 0,
     * the key goes to way 0. A stale way 0 is dropped instead. */
    if (first->version == version) {
        cache->ways[1][set] = *first;
    }
    first->container = container;
    first->type = type;
    first->name = name;
    first->name_hash = name_hash;
    first->value = value;
    first->version = version;
}

/** The version word (acquire), for a reader that needs several tables as
 * they were at one moment: even now and unchanged after the reads
 * (crg_tcache_version_unchanged), they overlapped no write. */
static inline CRG_ALWAYS_INLINE uint64_t crg_tcache_version_load(void) {
    return __atomic_load_n(&crg_internal_tcache_line.version, __ATOMIC_ACQUIRE);
}

/** Whether the version word is still `version` after the loads made before
 * this call (an acquire fence orders them first). */
static inline CRG_ALWAYS_INLINE bool crg_tcache_version_unchanged(uint64_t version) {
    __atomic_thread_fence(__ATOMIC_ACQUIRE);
    return __atomic_load_n(&crg_internal_tcache_line.version, __ATOMIC_RELAXED) == version;
}

/** Marks a change made without the versioned mutex: every thread's cache
 * misses on its next probe. */
void crg_tcache_invalidate(void);

/** Marks `m` as a mutex whose critical sections step the version (see
 * above). Call before the cache is used. */
void crg_mutex_set_versioned(crg_mutex *CRG_NONNULL m);

CRG_EXTERN_C_END

#endif /* CRG_TCACHE_H */
