/*
 * Private: the table's layout and its inline lookups (crg_find,
 * crg_container_find), so that a resolve probes without a function call.
 * Include crg_table.h, not this file; nothing here is API.
 *
 * The concurrency rules are crg_table.h's: writers change slots inside a
 * sequence write section, with every slot field written atomically; readers
 * read them atomically, check the sequence number around the probe, and
 * retry if it moved (after CRG_INTERNAL_READ_ATTEMPTS, they take the mutex).
 */
#ifndef CRG_TABLE_INLINE_H
#define CRG_TABLE_INLINE_H

#include "crg_epoch.h"
#include <errno.h>
#include <string.h>

CRG_EXTERN_C_BEGIN

/* An owned copy of a name: this header, then `len` bytes. Retired as a unit
 * when its key is removed. The empty name has len 0; "no name" is NULL. */
typedef struct crg_name {
    crg_garbage garbage;
    crg_allocator allocator;
    size_t len;
} crg_name;

static inline const uint8_t *CRG_NONNULL crg_internal_name_bytes(const crg_name *CRG_NONNULL name) {
    return (const uint8_t *)(const void *)(name + 1);
}

/* 32 bytes: two slots per cache line (arrays are 64-byte aligned). */
typedef struct crg_slot {
    uint64_t hash; /* 0: empty */
    uint64_t type;
    crg_name *CRG_NULLABLE name;
    void *CRG_NULLABLE value;
} crg_slot;

/* A slot array's header, placed right before its slots. Retired as a unit:
 * alone when the table moved to another array, or with its contents (names,
 * and values when the table owns them) when it was cleared or destroyed. */
typedef struct crg_slots {
    crg_garbage garbage;
    crg_allocator allocator;
    crg_release_fn CRG_NULLABLE release; /* the values' release, for a retirement with contents */
    void *CRG_NULLABLE release_context;
    void *CRG_NULLABLE memory;           /* what was allocated (header and slots are aligned inside it) */
    size_t mask;                         /* capacity - 1 */
    bool owns_contents;
    bool is_static;
} crg_slots;

static inline crg_slot *CRG_NONNULL crg_internal_slots(crg_slots *CRG_NONNULL s) {
    return (crg_slot *)(void *)(s + 1);
}

/* The start of every crg_table: what readers read. */
typedef struct crg_table_head {
    uint64_t seq;                  /* odd while a writer moves slots */
    crg_slots *CRG_NONNULL slots;  /* the current array */
} crg_table_head;

/* The start of every crg_container. */
typedef struct crg_container_head {
    crg_table *CRG_NONNULL table;
    void *CRG_NULLABLE children;   /* the child list, NULL when there is none */
} crg_container_head;

enum { CRG_INTERNAL_READ_ATTEMPTS = 16 };

/* Out of line: the key's hash (XXH3, seeded); a probe under the mutex for a
 * reader that keeps meeting writers; the search of a container's children. */
uint64_t crg_internal_key_hash(crg_key *CRG_NONNULL key);
int crg_internal_find_locked(crg_table *CRG_NONNULL t, crg_key *CRG_NONNULL key, void *CRG_NULLABLE *CRG_NULLABLE value);
int crg_internal_find_in_children(crg_container *CRG_NONNULL c, crg_key *CRG_NONNULL key,
                                  void *CRG_NULLABLE *CRG_NULLABLE value);

static inline size_t crg_internal_distance(size_t index, uint64_t hash, size_t mask) {
    return (index - (size_t)hash) & mask;
}

/* Equal bytes? Names are mostly short, and for 4 to 16 bytes two pairs of
 * overlapping loads compare them without a loop: no call to memcmp, and no
 * length-dependent branch to mispredict after a cache miss. */
static inline CRG_ALWAYS_INLINE bool crg_internal_bytes_equal(const uint8_t *CRG_NONNULL a, const uint8_t *CRG_NONNULL b, size_t n) {
    if (n >= 8 && n <= 16) {
        uint64_t a0, b0, a1, b1;
        memcpy(&a0, a, 8);
        memcpy(&b0, b, 8);
        memcpy(&a1, a + n - 8, 8);
        memcpy(&b1, b + n - 8, 8);
        return ((a0 ^ b0) | (a1 ^ b1)) == 0;
    }
    if (n >= 4 && n < 8) {
        uint32_t a0, b0, a1, b1;
        memcpy(&a0, a, 4);
        memcpy(&b0, b, 4);
        memcpy(&a1, a + n - 4, 4);
        memcpy(&b1, b + n - 4, 4);
        return ((a0 ^ b0) | (a1 ^ b1)) == 0;
    }
    return n == 0 || memcmp(a, b, n) == 0;
}

static inline CRG_ALWAYS_INLINE bool crg_internal_name_matches(const crg_name *CRG_NULLABLE stored, const crg_key *CRG_NONNULL key) {
    if (!key->has_name) {
        return stored == NULL;
    }
    return stored != NULL && stored->len == key->name_len &&
           crg_internal_bytes_equal(crg_internal_name_bytes(stored), (const uint8_t *)key->name, stored->len);
}

/* The index of `key`'s slot in `s`, or -1. Safe against a concurrent writer
 * (every read is atomic, and at most capacity slots are visited), but only a
 * probe that the sequence number validates means anything. */
static inline CRG_ALWAYS_INLINE ptrdiff_t crg_internal_probe(crg_slots *CRG_NONNULL s, const crg_key *CRG_NONNULL key, uint64_t hash) {
    crg_slot *slots = crg_internal_slots(s);
    const size_t mask = s->mask;
    size_t index = (size_t)hash & mask;
    for (size_t distance = 0; distance <= mask; distance++) {
        crg_slot *slot = &slots[index];
        uint64_t stored = __atomic_load_n(&slot->hash, __ATOMIC_RELAXED);
        if (stored == 0) {
            return -1;
        }
        if (stored == hash && __atomic_load_n(&slot->type, __ATOMIC_RELAXED) == key->type &&
            crg_internal_name_matches(__atomic_load_n(&slot->name, __ATOMIC_ACQUIRE), key)) {
            return (ptrdiff_t)index;
        }
        if (crg_internal_distance(index, stored, mask) < distance) {
            return -1;
        }
        index = (index + 1) & mask;
    }
    return -1;
}

static inline void crg_internal_relax(void) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__) || defined(__arm__)
    __asm__ __volatile__("yield");
#endif
}

static inline CRG_ALWAYS_INLINE int crg_find(crg_table *CRG_NULLABLE t, crg_key *CRG_NULLABLE key, void *CRG_NULLABLE *CRG_NULLABLE value) {
    if (CRG_UNLIKELY(t == NULL || key == NULL || (key->has_name && key->name == NULL && key->name_len > 0))) {
        return EINVAL;
    }
    const uint64_t hash = key->hash != 0 ? key->hash : crg_internal_key_hash(key);
    crg_table_head *head = (crg_table_head *)(void *)t;
    for (int attempt = 0; attempt < CRG_INTERNAL_READ_ATTEMPTS; attempt++) {
        uint64_t before = __atomic_load_n(&head->seq, __ATOMIC_ACQUIRE);
        if (CRG_LIKELY((before & 1) == 0)) {
            crg_slots *s = __atomic_load_n(&head->slots, __ATOMIC_ACQUIRE);
            ptrdiff_t index = crg_internal_probe(s, key, hash);
            void *found = index >= 0 ? __atomic_load_n(&crg_internal_slots(s)[index].value, __ATOMIC_ACQUIRE) : NULL;
            __atomic_thread_fence(__ATOMIC_ACQUIRE);
            if (CRG_LIKELY(__atomic_load_n(&head->seq, __ATOMIC_RELAXED) == before)) {
                if (index < 0) {
                    return ENOENT;
                }
                if (value != NULL) {
                    *value = found;
                }
                return 0;
            }
        }
        crg_internal_relax();
    }
    return crg_internal_find_locked(t, key, value);
}

static inline CRG_ALWAYS_INLINE int crg_container_find(crg_container *CRG_NULLABLE c, crg_key *CRG_NULLABLE key,
                                     void *CRG_NULLABLE *CRG_NULLABLE value) {
    if (CRG_UNLIKELY(c == NULL)) {
        return EINVAL;
    }
    crg_container_head *head = (crg_container_head *)(void *)c;
    int rc = crg_find(head->table, key, value);
    if (CRG_LIKELY(rc != ENOENT) || __atomic_load_n(&head->children, __ATOMIC_ACQUIRE) == NULL) {
        return rc;
    }
    return crg_internal_find_in_children(c, key, value);
}

CRG_EXTERN_C_END

#endif /* CRG_TABLE_INLINE_H */
