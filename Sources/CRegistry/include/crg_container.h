/*
 * Containers: a table (crg_table.h: its keys, values, errors and concurrency
 * rules) with an ordered list of child containers searched after it, depth
 * first. The list is replaced whole (a new array published, the old one
 * retired), so readers walk whichever they loaded without a lock. A
 * container does not own its children: the caller keeps them alive while
 * they are in the list. ELOOP: a container would become its own descendant.
 */
#ifndef CRG_CONTAINER_H
#define CRG_CONTAINER_H

#include "crg_table.h"

CRG_EXTERN_C_BEGIN

typedef struct crg_container crg_container;

/** Creates a container whose table is made with `options` (crg_create's).
 * Returns 0, EINVAL or ENOMEM (*out untouched). */
int crg_container_create(crg_container *CRG_NULLABLE *CRG_NULLABLE out, const crg_options *CRG_NULLABLE options);

/** Destroys a container and its table (crg_destroy), retiring both and its
 * child list; not its children. NULL is ignored. */
void crg_container_destroy(crg_container *CRG_NULLABLE c);

/** The container's own table. */
crg_table *CRG_NONNULL crg_container_table(crg_container *CRG_NONNULL c);

/** Appends `child` to the children, holding the table's mutex. Returns 0,
 * EINVAL, ENOMEM or ELOOP (`child` is `c` or has `c` among its descendants);
 * on an error nothing changed. */
int crg_container_add_child_locked(crg_container *CRG_NULLABLE c, crg_container *CRG_NULLABLE child);

/** Looks `key` up in `c`'s table, then in each child in the order added,
 * depth first, under crg_find's rules: 0 (the value in *value), ENOENT or
 * EINVAL. The children are searched out of line. */
static inline CRG_ALWAYS_INLINE int crg_container_find(crg_container *CRG_NULLABLE c, crg_key *CRG_NULLABLE key,
                                                       void *CRG_NULLABLE *CRG_NULLABLE value);

/* ---- Private: what the inline lookup reads ------------------------------ */

/* A container's child list (container.c): immutable once published. */
typedef struct crg_children crg_children;

/* The first member of every crg_container (container.c). */
typedef struct crg_container_head {
    crg_table *CRG_NONNULL table;
    crg_children *CRG_NULLABLE children; /* the child list, NULL when there is none */
} crg_container_head;

/* Out of line: the search of a container's children, in order, depth first. */
int crg_internal_find_in_children(crg_children *CRG_NONNULL children, crg_key *CRG_NONNULL key,
                                  void *CRG_NULLABLE *CRG_NULLABLE value);

static inline CRG_ALWAYS_INLINE int crg_container_find(crg_container *CRG_NULLABLE c, crg_key *CRG_NULLABLE key,
                                                       void *CRG_NULLABLE *CRG_NULLABLE value) {
    if (CRG_UNLIKELY(c == NULL)) {
        return EINVAL;
    }
    crg_container_head *head = (crg_container_head *)(void *)c;
    int rc = crg_find(head->table, key, value);
    if (CRG_LIKELY(rc != ENOENT)) {
        return rc;
    }
    crg_children *children = __atomic_load_n(&head->children, __ATOMIC_ACQUIRE);
    return children != NULL ? crg_internal_find_in_children(children, key, value) : rc;
}

CRG_EXTERN_C_END

#endif /* CRG_CONTAINER_H */
