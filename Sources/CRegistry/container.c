/* Containers: a table and children searched depth first. See include/crg_container.h. */
#include "crg_container.h"
#include "crg_epoch.h"

#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "crg_private.h"

/* Given back to its own allocator copy: a retired list may be released
 * after the container it belonged to. */
struct crg_children {
    crg_retire_node retire;
    crg_allocator allocator;
    size_t count;
    crg_container *items[];
};

struct crg_container {
    crg_container_head head; /* what crg_container_find reads; the rest is the writers' */
    crg_retire_node retire;
    crg_allocator allocator; /* the table's: for the container and its child lists */
    void *memory;            /* what was allocated: the container starts on a cache line inside it */
};

enum { CRG_CONTAINER_ALIGN = 64 };

/* crg_container_find reads a crg_container as its head, its first member. */
_Static_assert(offsetof(struct crg_container, head) == 0, "the head starts the container");

static void crg_release_children(crg_retire_node *node) {
    crg_children *children = CRG_CONTAINER_OF(node, crg_children, retire);
    const crg_allocator allocator = children->allocator;
    crg_free(&allocator, children);
}

static void crg_release_container(crg_retire_node *node) {
    crg_container *c = CRG_CONTAINER_OF(node, crg_container, retire);
    const crg_allocator allocator = c->allocator;
    crg_free(&allocator, c->memory);
}

int crg_container_create(crg_container **out, const crg_options *options) {
    if (out == NULL) {
        return EINVAL;
    }
    const crg_allocator *allocator = crg_allocator_or_default(options != NULL ? options->allocator : NULL);
    if (allocator == NULL) {
        return EINVAL;
    }
    /* On a cache line of its own allocation, as a table is: every lookup
     * reads the head, and no other allocation's writes share its line. */
    void *memory = NULL;
    crg_container *c = crg_alloc_aligned(allocator, sizeof *c, CRG_CONTAINER_ALIGN, &memory);
    if (c == NULL) {
        return ENOMEM;
    }
    memset(c, 0, sizeof *c);
    c->allocator = *allocator;
    c->memory = memory;
    int rc = crg_create(&c->head.table, options);
    if (rc != 0) {
        crg_free(allocator, memory);
        return rc;
    }
    *out = c;
    return 0;
}

void crg_container_destroy(crg_container *c) {
    if (c == NULL) {
        return;
    }
    crg_children *children = __atomic_load_n(&c->head.children, __ATOMIC_ACQUIRE);
    crg_destroy(c->head.table);
    if (children != NULL) {
        crg_retire_embedded(&children->retire, crg_release_children);
    }
    crg_retire_embedded(&c->retire, crg_release_container);
}

crg_table *crg_container_table(crg_container *c) {
    return c->head.table;
}

/* Whether `target` is `c` or one of its descendants. The mutex must be held. */
static bool crg_container_reaches(crg_container *c, const crg_container *target) {
    if (c == target) {
        return true;
    }
    crg_children *children = c->head.children;
    for (size_t i = 0; children != NULL && i < children->count; i++) {
        if (crg_container_reaches(children->items[i], target)) {
            return true;
        }
    }
    return false;
}

int crg_container_add_child_locked(crg_container *c, crg_container *child) {
    if (c == NULL || child == NULL) {
        return EINVAL;
    }
    CRG_ASSERT_HELD(crg_table_mutex(c->head.table));
    if (crg_container_reaches(child, c)) {
        return ELOOP;
    }
    crg_children *old = c->head.children;
    size_t count = old ? old->count : 0;
    if (count + 1 > (SIZE_MAX - sizeof(crg_children)) / sizeof(crg_container *)) {
        return ENOMEM;
    }
    crg_children *fresh = crg_alloc(&c->allocator, sizeof(crg_children) + (count + 1) * sizeof(crg_container *));
    if (fresh == NULL) {
        return ENOMEM;
    }
    fresh->allocator = c->allocator;
    fresh->count = count + 1;
    if (count > 0) {
        memcpy(fresh->items, old->items, count * sizeof(crg_container *));
    }
    fresh->items[count] = child;
    __atomic_store_n(&c->head.children, fresh, __ATOMIC_RELEASE);
    if (old != NULL) {
        crg_retire_embedded(&old->retire, crg_release_children);
    }
    return 0;
}

/* `children` is the container's child list, loaded (acquire) by the caller. */
int crg_internal_find_in_children(crg_children *children, crg_key *key, void **value) {
    for (size_t i = 0; i < children->count; i++) {
        if (crg_container_find(children->items[i], key, value) == 0) {
            return 0;
        }
    }
    return ENOENT;
}
