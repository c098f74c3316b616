/*
 * Atomic cells for the Swift front end: a pointer or a 64-bit word that one
 * thread publishes and others read without a lock, in the manner of
 * swift-atomics' C shims. Stores release, loads acquire: whatever the writer
 * did before the store is visible to a reader that loads the new value.
 *
 * Cells live in memory of their own (crg_cells_create), so their addresses are
 * stable; a Swift object keeps a pointer to its cells. They are read far more
 * often than written, so several may share a cache line.
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

/* ------------------------------------------------------------------------ */
/* Process-wide cells                                                        */
/* ------------------------------------------------------------------------ */

/* The state every resolve reads first, in static storage (zero at start):
 * reaching it needs no pointer load and no initialization check. Named
 * fields, one per meaning (the front end's `Published` documents each). */
typedef struct crg_published {
    /** The root container, unretained (the front end's registry owns it). */
    crg_cell root;
    /** The decorator box to call, unretained, or NULL. */
    crg_cell decorate;
    /** 1 once the registration hook has run for the current generation. */
    crg_word registered;
    /** Non-zero while resolves must take the front end's detour. */
    crg_word detours;
    /** Counts scopes made (each starts its generations at its own base). */
    crg_word scopes_made;
    /** 1 while graph recording is on. */
    crg_word recording_graph;
} crg_published;
/** Private storage; use the accessors. */
extern crg_published crg_internal_published;

static inline crg_cell *CRG_NONNULL crg_published_root(void) { return &crg_internal_published.root; }
static inline crg_cell *CRG_NONNULL crg_published_decorate(void) { return &crg_internal_published.decorate; }
static inline crg_word *CRG_NONNULL crg_published_registered(void) { return &crg_internal_published.registered; }
static inline crg_word *CRG_NONNULL crg_published_detours(void) { return &crg_internal_published.detours; }
static inline crg_word *CRG_NONNULL crg_published_scopes_made(void) { return &crg_internal_published.scopes_made; }
static inline crg_word *CRG_NONNULL crg_published_recording_graph(void) {
    return &crg_internal_published.recording_graph;
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

CRG_EXTERN_C_END

#endif /* CRG_ATOMIC_H */
