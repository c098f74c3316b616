/*
 * The per-thread cache of cached instances. See include/crg_tcache.h.
 */
#include "crg_tcache.h"

#include <string.h>

_Static_assert(CRG_TCACHE_SETS == 32, "crg_tcache_set_index takes the top 5 bits of its product");
_Static_assert(CRG_TCACHE_WAYS == 2, "crg_tcache_find and crg_tcache_fill look at two ways");

CRG_THREAD_LOCAL crg_tcache crg_internal_tcache;

/* Alone on its cache line: readers load it on every probe; only writers
 * (taking the registry mutex) store to it. Even: no write in progress. */
__attribute__((aligned(64))) crg_tcache_version_line crg_internal_tcache_line = {0, {0}};

void crg_tcache_invalidate(void) {
    __atomic_add_fetch(&crg_internal_tcache_line.version, 2, __ATOMIC_SEQ_CST);
}

void crg_tcache_empty(void) {
    memset(crg_internal_tcache.ways, 0, sizeof crg_internal_tcache.ways);
}

uint64_t crg_tcache_version(void) {
    return __atomic_load_n(&crg_internal_tcache_line.version, __ATOMIC_ACQUIRE);
}

const crg_tcache *crg_tcache_current(void) {
    return &crg_internal_tcache;
}
