/*
 * Atomic cells for the front end, as swift-atomics' C shims: a pointer or a
 * 64-bit word that one thread publishes and others read without a lock.
 * Stores release, loads acquire. Cells live in memory of their own
 * (crg_cells_create), at stable addresses; several may share a line.
 */
#ifndef CRG_ATOMIC_H
#define CRG_ATOMIC_H

#include "crg_base.h"

CRG_EXTERN_C_BEGIN

/** A published pointer (an unretained object, a table, ...). */
typedef struct crg_cell {
    void *CRG_NULLABLE value;
} crg_cell;

/** A published 64-bit word (a flag, a generation). */
typedef struct crg_word {
    uint64_t value;
} crg_word;

/**
 * `count` zeroed cells; NULL when out of memory. The block's memory has no
 * type until used: its last cells may be used as words (crg_word, the same
 * size), as long as each is only ever used as one of the two.
 */
crg_cell *CRG_NULLABLE crg_cells_create(size_t count);
/** `count` zeroed words; NULL when out of memory. */
crg_word *CRG_NULLABLE crg_words_create(size_t count);
/** Frees cells or words made by crg_cells_create / crg_words_create. NULL is ignored. */
void crg_cells_destroy(void *CRG_NULLABLE cells);

static inline void *CRG_NULLABLE crg_cell_load(crg_cell *CRG_NONNULL cell) {
    return __atomic_load_n(&cell->value, __ATOMIC_ACQUIRE);
}

static inline void crg_cell_store(crg_cell *CRG_NONNULL cell, void *CRG_NULLABLE value) {
    __atomic_store_n(&cell->value, value, __ATOMIC_RELEASE);
}

/** Stores `value` and returns what the cell held. */
static inline void *CRG_NULLABLE crg_cell_exchange(crg_cell *CRG_NONNULL cell, void *CRG_NULLABLE value) {
    return __atomic_exchange_n(&cell->value, value, __ATOMIC_ACQ_REL);
}

/** Stores `desired` if the cell holds `expected`; returns whether it did. */
static inline bool crg_cell_compare_exchange(crg_cell *CRG_NONNULL cell, void *CRG_NULLABLE expected,
                                             void *CRG_NULLABLE desired) {
    return __atomic_compare_exchange_n(&cell->value, &expected, desired, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
}

static inline uint64_t crg_word_load(crg_word *CRG_NONNULL word) {
    return __atomic_load_n(&word->value, __ATOMIC_ACQUIRE);
}

static inline void crg_word_store(crg_word *CRG_NONNULL word, uint64_t value) {
    __atomic_store_n(&word->value, value, __ATOMIC_RELEASE);
}

/** Stores `desired` if the word holds `expected`; returns whether it did. */
static inline bool crg_word_compare_exchange(crg_word *CRG_NONNULL word, uint64_t expected, uint64_t desired) {
    return __atomic_compare_exchange_n(&word->value, &expected, desired, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
}

/** Adds `delta` and returns the new value. */
static inline uint64_t crg_word_add(crg_word *CRG_NONNULL word, uint64_t delta) {
    return __atomic_add_fetch(&word->value, delta, __ATOMIC_ACQ_REL);
}

/* ---- Process-wide cells ------------------------------------------------- */

/* Cells and words in static storage, zero at start, on one cache line: no
 * pointer to load, no initialization to check. The front end names them. */
enum { CRG_PUBLISHED_CELLS = 4, CRG_PUBLISHED_WORDS = 4 };
typedef struct crg_published {
    crg_cell cells[CRG_PUBLISHED_CELLS];
    crg_word words[CRG_PUBLISHED_WORDS];
} crg_published;
extern crg_published crg_internal_published;

/** Process-wide cell `index` (< CRG_PUBLISHED_CELLS). */
static inline crg_cell *CRG_NONNULL crg_published_cell(unsigned index) {
    return &crg_internal_published.cells[index];
}

/** Process-wide word `index` (< CRG_PUBLISHED_WORDS). */
static inline crg_word *CRG_NONNULL crg_published_word(unsigned index) {
    return &crg_internal_published.words[index];
}

CRG_EXTERN_C_END

#endif /* CRG_ATOMIC_H */
