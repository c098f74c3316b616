/* The default allocator: malloc and free behind a crg_allocator, the one
 * place that calls them (crg_private.h poisons them elsewhere). */
#include "crg_base.h"

#include <stdint.h>
#include <stdlib.h>
#if defined(__APPLE__)
#include <malloc/malloc.h>
#else
#include <malloc.h>
#endif

static void *crg_default_allocate(size_t size, void *context) {
    (void)context;
    return malloc(size);
}

static void crg_default_deallocate(void *pointer, void *context) {
    (void)context;
    free(pointer);
}

size_t crg_allocation_size(const void *pointer) {
#if defined(__APPLE__)
    return malloc_size(pointer);
#else
    return malloc_usable_size((void *)(uintptr_t)pointer);
#endif
}

#include "crg_private.h"

const crg_allocator crg_internal_default_allocator = { crg_default_allocate, crg_default_deallocate, NULL };

void *crg_alloc_aligned(const crg_allocator *a, size_t size, size_t align, void **memory) {
    if (size > SIZE_MAX - (align - 1)) {
        return NULL;
    }
    void *raw = crg_alloc(a, size + align - 1);
    if (raw == NULL) {
        return NULL;
    }
    *memory = raw;
    return (void *)(((uintptr_t)raw + align - 1) & ~(uintptr_t)(align - 1));
}
