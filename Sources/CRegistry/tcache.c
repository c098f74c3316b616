/*
 * The per-thread cache of cached instances. See include/crg_tcache.h.
 */
#include "crg_tcache.h"

#include <string.h>

CRG_THREAD_LOCAL crg_tcache crg_internal_tcache;

/* Alone on its cache line: readers load it on every probe; only writers
 * (taking the registry mutex) store to it. Even: no write in progress. */
__attribute__((aligned(64))) crg_tcache_version_line crg_internal_tcache_line = {0, {0}};

void crg_tcache_reset(crg_tcache *cache, uint64_t version) {
    memset(cache->entries, 0, sizeof cache->entries);
    cache->version = version;
}

void crg_tcache_invalidate(void) {
    __atomic_add_fetch(&crg_internal_tcache_line.version, 2, __ATOMIC_SEQ_CST);
}

uint64_t crg_tcache_version(void) {
    return __atomic_load_n(&crg_internal_tcache_line.version, __ATOMIC_ACQUIRE);
}

const crg_tcache *crg_tcache_current(void) {
    return &crg_internal_tcache;
}
