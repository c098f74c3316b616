/*
 * Storage for atomic cells. See include/crg_atomic.h.
 */
#include "crg_atomic.h"

#include <stdlib.h>

/* Cache-line aligned, so the cells every resolve reads share no line with
 * data that other threads write. */
_Alignas(64) crg_cell crg_internal_global_cells[CRG_GLOBAL_CELLS];
_Alignas(64) crg_word crg_internal_global_words[CRG_GLOBAL_WORDS];

crg_cell *crg_cells_create(size_t count) {
    return calloc(count ? count : 1, sizeof(crg_cell));
}

crg_word *crg_words_create(size_t count) {
    return calloc(count ? count : 1, sizeof(crg_word));
}

void crg_cells_destroy(void *cells) {
    free(cells);
}
