/*
 * A per-thread cache of cached instances: (container, type, name) -> the
 * value a caching scope's table holds for it.
 *
 * A resolve of a cached `.application`/`.cached` service otherwise finds the
 * registration in its container's table, its scope, and the entry in the
 * scope's table. This cache answers the same question with one probe of a
 * small direct-mapped array that only the calling thread touches, validated
 * by one process-wide version word:
 *
 * - The version is odd while a write is in progress and even otherwise. A
 *   mutex marked with crg_mutex_set_versioned (the registry's) adds 1 when a
 *   thread takes it (outermost) and 1 when it lets go of it (unlock, or a
 *   condition wait); crg_tcache_invalidate adds 2 for changes made without it.
 *   Every change that can alter what a (container, type, name) resolves to,
 *   or that retires a cached value, happens under that mutex (DESIGN.md).
 * - A thread's cache is valid for the version it was filled under: a probe
 *   that reads another version empties the thread's cache first. An entry is
 *   filled only if the version, read before the lookup that found the value
 *   and again after it, is the same even number: the lookup overlapped no
 *   write.
 * - The values are not owned: call both functions inside a read section
 *   (crg_epoch.h). A value found under version v was in its table when v was
 *   read; any write that retired it since made the version odd before
 *   retiring (crg_retire's fence orders the two), so a read section that
 *   began after the retirement reads a newer version and misses; one that
 *   began before it keeps the value alive (its grace period).
 *
 * Names are identified by the address of their key bytes and their hash
 * (nil and 0 for no name): a name with other bytes misses, it is never
 * mistaken for another.
 */
#ifndef CRG_TCACHE_H
#define CRG_TCACHE_H

#include "crg_base.h"
#include "crg_mutex.h"

CRG_EXTERN_C_BEGIN

enum { CRG_TCACHE_SLOTS = 64 };

typedef struct crg_tcache_entry {
    const void *CRG_NULLABLE container;
    uint64_t type;
    const void *CRG_NULLABLE name;
    uint64_t name_hash;
    void *CRG_NULLABLE value;
} crg_tcache_entry;

typedef struct crg_tcache {
    /* The version the entries are valid for. */
    uint64_t version;
    /* The version the latest probe read (crg_tcache_fill compares it). */
    uint64_t probe_version;
    crg_tcache_entry entries[CRG_TCACHE_SLOTS];
} crg_tcache;

/** Private: the calling thread's cache. */
extern CRG_THREAD_LOCAL crg_tcache crg_internal_tcache;
/** Private: the version word, on a cache line of its own. */
typedef struct crg_tcache_version_line {
    uint64_t version;
    char padding[56];
} crg_tcache_version_line;
extern crg_tcache_version_line crg_internal_tcache_line;
/** Private: empties the calling thread's cache and makes it valid for `version`. */
void crg_tcache_reset(crg_tcache *CRG_NONNULL cache, uint64_t version);

/** Private: the slot of a key. */
static inline CRG_ALWAYS_INLINE unsigned crg_tcache_slot(const void *CRG_NULLABLE container, uint64_t type,
                                                         uint64_t name_hash) {
    uint64_t mixed = ((uint64_t)(uintptr_t)container ^ (type >> 3) ^ name_hash) * 0x9E3779B97F4A7C15ull;
    return (unsigned)(mixed >> 58);
}

/**
 * The value cached for (`container`, `type`, `name`, `name_hash`) by this
 * thread under the current version, or NULL. Call inside a read section.
 * Remembers the version it read for crg_tcache_fill.
 */
static inline CRG_ALWAYS_INLINE void *CRG_NULLABLE crg_tcache_find(const void *CRG_NULLABLE container, uint64_t type,
                                                                     const void *CRG_NULLABLE name, uint64_t name_hash) {
    crg_tcache *cache = &crg_internal_tcache;
    uint64_t version = __atomic_load_n(&crg_internal_tcache_line.version, __ATOMIC_ACQUIRE);
    cache->probe_version = version;
    if (CRG_UNLIKELY(version != cache->version)) {
        crg_tcache_reset(cache, version);
        return NULL;
    }
    crg_tcache_entry *entry = &cache->entries[crg_tcache_slot(container, type, name_hash)];
    if (entry->container == container && entry->type == type && entry->name == name && entry->name_hash == name_hash) {
        return entry->value;
    }
    return NULL;
}

/**
 * Remembers `value`, which a lookup for the key found in a caching scope's
 * table after the latest crg_tcache_find on this thread, unless a write began
 * since that probe. Call inside the same read section as the lookup.
 */
static inline CRG_ALWAYS_INLINE void crg_tcache_fill(const void *CRG_NULLABLE container, uint64_t type,
                                                     const void *CRG_NULLABLE name, uint64_t name_hash,
                                                     void *CRG_NONNULL value) {
    crg_tcache *cache = &crg_internal_tcache;
    /* The lookup's loads happen before the version is read again. */
    __atomic_thread_fence(__ATOMIC_ACQUIRE);
    uint64_t version = __atomic_load_n(&crg_internal_tcache_line.version, __ATOMIC_RELAXED);
    if (version != cache->probe_version || version != cache->version || (version & 1) != 0) {
        return;
    }
    crg_tcache_entry *entry = &cache->entries[crg_tcache_slot(container, type, name_hash)];
    entry->container = container;
    entry->type = type;
    entry->name = name;
    entry->name_hash = name_hash;
    entry->value = value;
}

/**
 * The version word (acquire), for a reader that reads several tables and
 * needs them as they were at one moment (a list assembled from several
 * containers): if it is even now and crg_tcache_version_unchanged says it
 * is the same after the reads, they overlapped no write, as for
 * crg_tcache_fill. Call inside a read section.
 */
static inline CRG_ALWAYS_INLINE uint64_t crg_tcache_version_load(void) {
    return __atomic_load_n(&crg_internal_tcache_line.version, __ATOMIC_ACQUIRE);
}

/** Whether the version word is still `version`, after the loads made before this call (an acquire fence orders them first). */
static inline CRG_ALWAYS_INLINE bool crg_tcache_version_unchanged(uint64_t version) {
    __atomic_thread_fence(__ATOMIC_ACQUIRE);
    return __atomic_load_n(&crg_internal_tcache_line.version, __ATOMIC_RELAXED) == version;
}

/** Marks a change made without the versioned mutex: every thread's cache is emptied on its next probe. */
void crg_tcache_invalidate(void);

/**
 * Makes `m` the mutex whose critical sections make the version odd (see
 * above). Call once, before the cache is used; a later call replaces the
 * earlier one.
 */
void crg_mutex_set_versioned(crg_mutex *CRG_NONNULL m);

/** The current version (tests). */
uint64_t crg_tcache_version(void);

/** The calling thread's cache, which it alone writes (tests). */
const crg_tcache *CRG_NONNULL crg_tcache_current(void);

CRG_EXTERN_C_END

#endif /* CRG_TCACHE_H */
