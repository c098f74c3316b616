/*
 * A per-thread cache of lookups: (container, type, name) -> the value a
 * lookup found for it, in a small two-way set-associative array in the
 * thread's record (crg_thread_record.h) that only that thread touches,
 * validated by one process-wide version word (DESIGN.md, T1):
 *
 * - The version is odd while a write is in progress, even otherwise. A mutex
 *   marked with crg_mutex_set_versioned adds 1 when a thread takes it
 *   (outermost, unless taken with crg_mutex_lock_quiet) and 1 when it lets
 *   go (unlock, or a condition wait); crg_tcache_invalidate adds 2. Every
 *   change that can alter what a key finds, or that retires a cached value,
 *   is made under that mutex or followed by crg_tcache_invalidate.
 * - An entry is valid for the version it was filled under: a probe that
 *   reads another version misses it (versions only grow). An entry is filled
 *   only if the version, read before the lookup and again after it, is the
 *   same even number: the lookup overlapped no write.
 * - Values are not owned: call these functions inside a read section
 *   (crg_epoch.h), which keeps a value found there alive.
 *
 * A name is identified by the address of its bytes and its hash (NULL and 0
 * for no name). Placement: a key's set holds two entries, the one filled
 * last in way 0. A fill of the key in way 0 replaces its value; a fill over
 * a stale way 0 takes it; any other fill moves way 0 to way 1 (dropping what
 * way 1 held) and takes way 0. So two keys that share a set are both kept,
 * and a third evicts the one filled least recently. Probes write only the
 * version they read.
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

/**
 * The set of a key, 0 ..< CRG_TCACHE_SETS: the top bits of one
 * multiplication (Fibonacci hashing) of the container, the type (addresses,
 * their low bits alignment) and the name hash.
 */
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

/**
 * The value cached for (`container`, `type`, `name`, `name_hash`) by this
 * thread under the current version, or NULL. Call inside a read section.
 * Remembers the version it read for crg_tcache_fill.
 */
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

/**
 * Remembers `value`, which a lookup for the key found after the latest
 * crg_tcache_find on this thread, unless a write began since that probe
 * (placement: see above). Call inside the same read section as the lookup.
 */
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

/**
 * The version word (acquire), for a reader that reads several tables and
 * needs them as they were at one moment: if it is even now and
 * crg_tcache_version_unchanged says it is the same after the reads, they
 * overlapped no write, as for crg_tcache_fill. Call inside a read section.
 */
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

/**
 * Marks `m` as a mutex whose critical sections step the version (see above).
 * Call before the cache is used.
 */
void crg_mutex_set_versioned(crg_mutex *CRG_NONNULL m);

CRG_EXTERN_C_END

#endif /* CRG_TCACHE_H */
