/* Storage for atomic cells. See include/crg_atomic.h. */
#include "crg_atomic.h"

#include <stdint.h>
#include <string.h>

#include "crg_private.h"

/* On a line of their own: no data other threads write shares it. */
_Alignas(64) crg_published crg_internal_published;
_Static_assert(sizeof(crg_published) == 64, "the published cells fill one cache line");

/* `count` (at least 1) zeroed elements of `size` bytes, or NULL. */
static void *crg_zeroed(size_t count, size_t size) {
    count = count ? count : 1;
    if (count > SIZE_MAX / size) {
        return NULL;
    }
    void *memory = crg_alloc(&crg_internal_default_allocator, count * size);
    if (memory != NULL) {
        memset(memory, 0, count * size);
    }
    return memory;
}

crg_cell *crg_cells_create(size_t count) {
    return crg_zeroed(count, sizeof(crg_cell));
}

crg_word *crg_words_create(size_t count) {
    return crg_zeroed(count, sizeof(crg_word));
}

void crg_cells_destroy(void *cells) {
    crg_free(&crg_internal_default_allocator, cells);
}
