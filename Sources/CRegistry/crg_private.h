/*
 * CRegistry's private helpers, for its .c files only. Include it last: it
 * poisons malloc and free, so that every allocation goes through a
 * crg_allocator and the failing-allocator tests reach every path.
 */
#ifndef CRG_PRIVATE_H
#define CRG_PRIVATE_H

#include "crg_testing.h"

/* malloc and free behind a crg_allocator (allocator.c). */
extern const crg_allocator crg_internal_default_allocator;

static inline void *crg_alloc(const crg_allocator *a, size_t size) {
    return a->allocate(size, a->context);
}

static inline void crg_free(const crg_allocator *a, void *pointer) {
    a->deallocate(pointer, a->context);
}

/* `allocator`, or the default one for NULL; NULL when it lacks a function. */
static inline const crg_allocator *crg_allocator_or_default(const crg_allocator *allocator) {
    if (allocator == NULL) {
        return &crg_internal_default_allocator;
    }
    return allocator->allocate != NULL && allocator->deallocate != NULL ? allocator : NULL;
}

/* `size` bytes aligned to `align` (a power of two) inside an allocation from
 * `a`, whose address goes to *memory (for crg_free); NULL when out of memory. */
void *crg_alloc_aligned(const crg_allocator *a, size_t size, size_t align, void **memory);

/* crg_mutex_create with the mutex's memory from `a` (and given back to it). */
crg_mutex *crg_internal_mutex_create(const crg_allocator *a);

/* Adds a reference to `m` and returns it (a table made with a mutex in its
 * options holds one); crg_mutex_release drops it. NULL is ignored. */
crg_mutex *crg_mutex_retain(crg_mutex *m);

/* crg_retire in two steps (epoch.c): a box from `a` (NULL when out of memory)
 * made before a change, then the retirement of `object` through it, which
 * cannot fail. The box goes back to `a` before `release` runs. */
typedef struct crg_retire_box crg_retire_box;
crg_retire_box *crg_retire_box_create(const crg_allocator *a);
void crg_retire_box_queue(crg_retire_box *box, void *object,
                          crg_release_fn release, void *context);

/* Checks (DESIGN.md, L1): debug builds (SwiftPM defines DEBUG) and builds
 * with CRG_INTERNAL_CHECKS stop when a `_locked` call is made without the
 * mutex; CRG_INTERNAL_CHECKS also checks a table's layout after every write
 * (table.c). A failed check prints what failed and where, and aborts. */
#if defined(DEBUG) || defined(CRG_INTERNAL_CHECKS)
#define CRG_CHECKS_LOCKS 1
#else
#define CRG_CHECKS_LOCKS 0
#endif

CRG_NORETURN void crg_internal_check_failed(const char *what, const char *function, size_t detail);

/* Stops unless the calling thread holds `mutex` (checked builds only). */
#define CRG_ASSERT_HELD(mutex)                                                              \
    do {                                                                                    \
        if (CRG_CHECKS_LOCKS && (mutex) != NULL && !crg_mutex_held(mutex)) {                \
            crg_internal_check_failed("called without the table's mutex", __func__, 0);     \
        }                                                                                   \
    } while (0)

#if defined(__GNUC__) || defined(__clang__)
#pragma GCC poison malloc calloc realloc free posix_memalign aligned_alloc
#endif

#endif /* CRG_PRIVATE_H */
