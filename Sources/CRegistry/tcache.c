/* The per-thread cache of lookups. See include/crg_tcache.h. */
#include "crg_tcache.h"
#include "crg_testing.h"

#include <string.h>

_Static_assert(CRG_TCACHE_SETS == 128, "crg_tcache_set_index takes the top 7 bits of its product");
_Static_assert(CRG_TCACHE_WAYS == 2, "crg_tcache_find and crg_tcache_fill look at two ways");

/* Alone on its cache line: readers load it on every probe; only writers
 * (taking the versioned mutex) store to it. Even: no write in progress. */
__attribute__((aligned(64))) crg_tcache_version_line crg_internal_tcache_line = {0, {0}};

void crg_tcache_invalidate(void) {
    __atomic_add_fetch(&crg_internal_tcache_line.version, 2, __ATOMIC_SEQ_CST);
}

void crg_tcache_empty(void) {
    crg_thread_record *record = crg_thread_record_current();
    memset(record->cache.ways, 0, sizeof record->cache.ways);
}

uint64_t crg_tcache_version(void) {
    return __atomic_load_n(&crg_internal_tcache_line.version, __ATOMIC_ACQUIRE);
}
