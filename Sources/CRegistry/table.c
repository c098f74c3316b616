/*
 * The table and containers. See include/crg_table.h for the contract and
 * invariants; comments here explain how the code keeps them.
 *
 * Every field of a live slot array is written by writers (holding the table's
 * mutex) and read by readers (holding nothing) through __atomic builtins:
 * hashes and types relaxed, name and value pointers release/acquire, so a
 * reader that sees a pointer also sees what it points to. Writers move slots
 * only inside a sequence write section; readers check the sequence number
 * around each probe and retry if it moved.
 */
#if defined(__linux__) && !defined(_GNU_SOURCE)
#define _GNU_SOURCE /* O_CLOEXEC, clock_gettime under -std=c11 */
#endif
#include "crg_table.h"
#include "crg_epoch.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#if defined(__linux__)
#include <sys/random.h>
#endif

/* The whole of XXH3 is compiled into this file, so hashing a 16-byte key is a
 * few inlined instructions and nothing links against libxxhash. */
#define XXH_INLINE_ALL
#include <xxhash.h>

/* Shorter names for the layout helpers of crg_table_inline.h. */
#define crg_slots_of crg_internal_slots
#define crg_probe crg_internal_probe
#define crg_distance crg_internal_distance

#define LOAD_RELAXED(p) __atomic_load_n((p), __ATOMIC_RELAXED)
#define LOAD_ACQUIRE(p) __atomic_load_n((p), __ATOMIC_ACQUIRE)
#define STORE_RELAXED(p, v) __atomic_store_n((p), (v), __ATOMIC_RELAXED)
#define STORE_RELEASE(p, v) __atomic_store_n((p), (v), __ATOMIC_RELEASE)

/* ------------------------------------------------------------------------ */
/* Seed and hashing                                                          */
/* ------------------------------------------------------------------------ */

/* Written once under pthread_once; every table is created after that, and
 * keys reach tables through release/acquire chains, so any thread hashing for
 * a table sees the seed. */
static uint64_t crg_seed;
static pthread_once_t crg_seed_once = PTHREAD_ONCE_INIT;
/* Set (release) once crg_seed is: a name hash checks it with one load
 * rather than a pthread_once call. */
static bool crg_seeded;

static void crg_seed_init(void) {
    uint64_t seed = 0;
#if defined(__APPLE__)
    arc4random_buf(&seed, sizeof seed);
#else
#if defined(__linux__)
    if (getrandom(&seed, sizeof seed, 0) != (ssize_t)sizeof seed) {
        seed = 0;
    }
#endif
    if (seed == 0) {
        int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
        if (fd >= 0) {
            if (read(fd, &seed, sizeof seed) != (ssize_t)sizeof seed) {
                seed = 0;
            }
            close(fd);
        }
    }
#endif
    if (seed == 0) {
        /* Last resort: still differs per run, though not unpredictably. */
        struct timespec now;
        clock_gettime(CLOCK_REALTIME, &now);
        seed = XXH3_64bits_withSeed(&now, sizeof now, (uint64_t)(uintptr_t)&now ^ (uint64_t)getpid());
    }
    crg_seed = seed;
    __atomic_store_n(&crg_seeded, true, __ATOMIC_RELEASE);
}

static inline void crg_ensure_seed(void) {
    if (CRG_UNLIKELY(!__atomic_load_n(&crg_seeded, __ATOMIC_ACQUIRE))) {
        pthread_once(&crg_seed_once, crg_seed_init);
    }
}

uint64_t crg_name_hash(const void *bytes, size_t len) {
    crg_ensure_seed();
    static const uint8_t empty[1] = { 0 };
    return XXH3_64bits_withSeed(len ? bytes : empty, len, crg_seed);
}

/* The stored hash of a key, kept in the key: XXH3 over the type alone for a
 * key with no name, over (type, name hash) for a named key, under different
 * seeds, so the two kinds differ even when a name's hash happens to be 0. 0
 * marks an empty slot (and a key not hashed yet), so it is remapped. */
uint64_t crg_internal_key_hash(crg_key *key) {
    uint64_t hash;
    if (key->has_name) {
        uint64_t words[2] = { key->type, key->name_hash };
        hash = XXH3_64bits_withSeed(words, sizeof words, crg_seed + 1);
    } else {
        hash = XXH3_64bits_withSeed(&key->type, sizeof key->type, crg_seed);
    }
    key->hash = hash ? hash : 1;
    return key->hash;
}

static inline uint64_t crg_key_hash(crg_key *key) {
    return key->hash != 0 ? key->hash : crg_internal_key_hash(key);
}

static inline bool crg_key_valid(const crg_key *key) {
    return key != NULL && (!key->has_name || key->name != NULL || key->name_len == 0);
}

/* ------------------------------------------------------------------------ */
/* Memory                                                                    */
/* ------------------------------------------------------------------------ */

struct crg_table {
    /* What readers read, first (crg_table_head, crg_table_inline.h): the
     * sequence number, odd while a writer moves slots, and the current array
     * (an atomic pointer). */
    uint64_t seq;
    crg_slots *slots;
    /* The rest is the writers', under the mutex. */
    size_t count;
    size_t min_capacity;
    crg_mutex *mutex; /* one reference held */
    crg_allocator allocator;
    crg_release_fn release;
    void *release_context;
    unsigned busy;    /* > 0 while a visitor or drop callback runs */
    crg_garbage garbage;
};

/* The array of a new or cleared table: one empty slot, never written. */
static struct {
    crg_slots header;
    crg_slot slot[1];
} crg_empty = { .header = { .mask = 0, .is_static = true } };

static void *crg_default_allocate(size_t size, void *context) {
    (void)context;
    return malloc(size);
}

static void crg_default_deallocate(void *pointer, void *context) {
    (void)context;
    free(pointer);
}

static inline void *crg_alloc(const crg_allocator *a, size_t size) {
    return a->allocate(size, a->context);
}

static inline void crg_free(const crg_allocator *a, void *pointer) {
    a->deallocate(pointer, a->context);
}

/* At most 7/8 of the slots are used. */
static inline size_t crg_max_load(size_t capacity) {
    return capacity - capacity / 8;
}

enum { CRG_MIN_CAPACITY = 8, CRG_ALIGN = 64 };

/* The smallest power-of-two capacity (>= 8) that holds `keys` keys within the
 * load limit, or 0 if that does not fit in memory. */
static size_t crg_capacity_for(size_t keys) {
    size_t capacity = CRG_MIN_CAPACITY;
    while (crg_max_load(capacity) < keys) {
        if (capacity > (SIZE_MAX - CRG_ALIGN - sizeof(crg_slots)) / 2 / sizeof(crg_slot)) {
            return 0;
        }
        capacity *= 2;
    }
    return capacity;
}

/* A zeroed array of `capacity` slots whose slots start on a cache line. */
static crg_slots *crg_slots_create(const crg_table *t, size_t capacity) {
    size_t size = CRG_ALIGN + sizeof(crg_slots) + capacity * sizeof(crg_slot);
    void *memory = crg_alloc(&t->allocator, size);
    if (memory == NULL) {
        return NULL;
    }
    uintptr_t first = ((uintptr_t)memory + sizeof(crg_slots) + CRG_ALIGN - 1) & ~(uintptr_t)(CRG_ALIGN - 1);
    crg_slots *s = (crg_slots *)(first - sizeof(crg_slots));
    memset(s, 0, sizeof(crg_slots) + capacity * sizeof(crg_slot));
    s->allocator = t->allocator;
    s->memory = memory;
    s->mask = capacity - 1;
    return s;
}

static void crg_name_free(void *object, void *context) {
    (void)context;
    crg_name *name = object;
    crg_allocator allocator = name->allocator;
    crg_free(&allocator, name);
}

/* Releases a retired array: its contents first, if it took them along. */
static void crg_slots_free(void *object, void *context) {
    (void)context;
    crg_slots *s = object;
    if (s->owns_contents) {
        crg_slot *slots = crg_slots_of(s);
        for (size_t i = 0; i <= s->mask; i++) {
            if (slots[i].hash != 0) {
                if (slots[i].name != NULL) {
                    crg_name_free(slots[i].name, NULL);
                }
                if (s->release != NULL) {
                    s->release(slots[i].value, s->release_context);
                }
            }
        }
    }
    crg_allocator allocator = s->allocator;
    crg_free(&allocator, s->memory);
}

static void crg_retire_slots(crg_slots *s, bool with_contents, const crg_table *t) {
    if (s->is_static) {
        return;
    }
    s->owns_contents = with_contents;
    s->release = t->release;
    s->release_context = t->release_context;
    s->garbage.release = crg_slots_free;
    s->garbage.object = s;
    s->garbage.context = NULL;
    crg_internal_retire_node(&s->garbage);
}

static void crg_retire_name(crg_name *name) {
    if (name == NULL) {
        return;
    }
    name->garbage.release = crg_name_free;
    name->garbage.object = name;
    name->garbage.context = NULL;
    crg_internal_retire_node(&name->garbage);
}

/* ------------------------------------------------------------------------ */
/* Reading (the inline lookups are in crg_table_inline.h)                    */
/* ------------------------------------------------------------------------ */

int crg_internal_find_locked(crg_table *t, crg_key *key, void **value) {
    /* A writer keeps moving slots: wait for it once, and probe in peace. */
    crg_mutex_lock(t->mutex);
    crg_slots *s = t->slots;
    ptrdiff_t index = crg_probe(s, key, crg_key_hash(key));
    if (index >= 0 && value != NULL) {
        *value = crg_slots_of(s)[index].value;
    }
    crg_mutex_unlock(t->mutex);
    return index >= 0 ? 0 : ENOENT;
}

int crg_get(crg_table *t, crg_key *key, void **value) {
    crg_read_begin();
    int rc = crg_find(t, key, value);
    crg_read_end();
    return rc;
}

/* ------------------------------------------------------------------------ */
/* Writing                                                                   */
/* ------------------------------------------------------------------------ */

/* Slots move only between these two. The first store makes the sequence odd
 * before any slot changes (the release fence orders it before them); the last
 * makes it even again after they all have. */
static inline void crg_write_begin(crg_table *t) {
    STORE_RELAXED(&t->seq, t->seq + 1);
    __atomic_thread_fence(__ATOMIC_RELEASE);
}

static inline void crg_write_end(crg_table *t) {
    STORE_RELEASE(&t->seq, t->seq + 1);
}

static inline void crg_slot_store(crg_slot *slot, const crg_slot *entry) {
    STORE_RELAXED(&slot->hash, entry->hash);
    STORE_RELAXED(&slot->type, entry->type);
    STORE_RELEASE(&slot->name, entry->name);
    STORE_RELEASE(&slot->value, entry->value);
}

static inline crg_slot crg_slot_load(crg_slot *slot) {
    crg_slot entry = { LOAD_RELAXED(&slot->hash), LOAD_RELAXED(&slot->type), LOAD_RELAXED(&slot->name),
                       LOAD_RELAXED(&slot->value) };
    return entry;
}

/* Places an entry known to be absent into an array with a free slot, Robin
 * Hood style. Atomic stores: the array may be live (inside a write section). */
static void crg_place(crg_slots *s, crg_slot entry) {
    crg_slot *slots = crg_slots_of(s);
    const size_t mask = s->mask;
    size_t index = (size_t)entry.hash & mask;
    size_t distance = 0;
    for (;;) {
        crg_slot *slot = &slots[index];
        crg_slot resident = crg_slot_load(slot);
        if (resident.hash == 0) {
            crg_slot_store(slot, &entry);
            return;
        }
        size_t resident_distance = crg_distance(index, resident.hash, mask);
        if (resident_distance < distance) {
            /* Take from the rich: the resident is closer to home than we are. */
            crg_slot_store(slot, &entry);
            entry = resident;
            distance = resident_distance;
        }
        index = (index + 1) & mask;
        distance++;
    }
}

/* Moves every entry into a new array of `capacity` slots, publishes it and
 * retires the old one. The old array is never changed, so readers still on
 * it see a consistent table. On ENOMEM nothing changed. */
static int crg_resize(crg_table *t, size_t capacity) {
    crg_slots *fresh = crg_slots_create(t, capacity);
    if (fresh == NULL) {
        return ENOMEM;
    }
    crg_slots *old = t->slots;
    crg_slot *slots = crg_slots_of(old);
    for (size_t i = 0; i <= old->mask; i++) {
        if (slots[i].hash != 0) {
            crg_place(fresh, slots[i]);
        }
    }
    STORE_RELEASE(&t->slots, fresh);
    crg_retire_slots(old, false, t);
    return 0;
}

int crg_create(crg_table **out, const crg_options *options) {
    if (out == NULL) {
        return EINVAL;
    }
    crg_ensure_seed();
    crg_options defaults = { 0, NULL, NULL, NULL, NULL };
    if (options == NULL) {
        options = &defaults;
    }
    crg_allocator allocator = { crg_default_allocate, crg_default_deallocate, NULL };
    if (options->allocator != NULL) {
        if (options->allocator->allocate == NULL || options->allocator->deallocate == NULL) {
            return EINVAL;
        }
        allocator = *options->allocator;
    }
    const size_t min_capacity = crg_capacity_for(options->capacity);
    if (min_capacity == 0) {
        return EINVAL;
    }
    crg_table *t = crg_alloc(&allocator, sizeof *t);
    if (t == NULL) {
        return ENOMEM;
    }
    memset(t, 0, sizeof *t);
    t->allocator = allocator;
    t->release = options->release;
    t->release_context = options->release_context;
    t->min_capacity = min_capacity;
    t->slots = &crg_empty.header;
    t->mutex = options->mutex ? crg_mutex_retain(options->mutex) : crg_mutex_create();
    if (t->mutex == NULL) {
        crg_free(&allocator, t);
        return ENOMEM;
    }
    *out = t;
    return 0;
}

static void crg_table_free(void *object, void *context) {
    (void)context;
    crg_table *t = object;
    crg_mutex_release(t->mutex);
    crg_allocator allocator = t->allocator;
    crg_free(&allocator, t);
}

void crg_destroy(crg_table *t) {
    if (t == NULL) {
        return;
    }
    crg_mutex_lock(t->mutex);
    crg_slots *s = t->slots;
    STORE_RELEASE(&t->slots, &crg_empty.header);
    t->count = 0;
    crg_mutex_unlock(t->mutex);
    crg_retire_slots(s, true, t);
    /* The table (and its mutex reference) goes last: a reader in crg_find may
     * still be about to lock that mutex. */
    t->garbage.release = crg_table_free;
    t->garbage.object = t;
    t->garbage.context = NULL;
    crg_internal_retire_node(&t->garbage);
}

crg_mutex *crg_table_mutex(crg_table *t) {
    return t ? t->mutex : NULL;
}

/* Retiring one value that left a table that owns its values: a node
 * allocated before the change (so the change itself cannot fail). */
typedef struct crg_value_garbage {
    crg_garbage node;
    crg_release_fn release;
    void *context;
} crg_value_garbage;

/* Frees the node, then releases the value. */
static void crg_release_value(void *object, void *context) {
    crg_value_garbage *garbage = context;
    crg_release_fn release = garbage->release;
    void *release_context = garbage->context;
    free(garbage);
    release(object, release_context);
}

/* Allocates what retiring one value needs; NULL when the table does not own
 * values (*rc untouched) or when out of memory (*rc = ENOMEM). */
static crg_value_garbage *crg_value_garbage_create(crg_table *t, int *rc) {
    if (t->release == NULL) {
        return NULL;
    }
    crg_value_garbage *garbage = malloc(sizeof *garbage);
    if (garbage == NULL) {
        *rc = ENOMEM;
        return NULL;
    }
    garbage->release = t->release;
    garbage->context = t->release_context;
    return garbage;
}

static void crg_retire_value(crg_value_garbage *garbage, void *value) {
    garbage->node.release = crg_release_value;
    garbage->node.object = value;
    garbage->node.context = garbage;
    crg_internal_retire_node(&garbage->node);
}

int crg_put_locked(crg_table *t, crg_key *key, void *value, void **previous) {
    if (CRG_UNLIKELY(t == NULL || value == NULL || !crg_key_valid(key))) {
        return EINVAL;
    }
    if (CRG_UNLIKELY(t->busy)) {
        return EBUSY;
    }
    const uint64_t hash = crg_key_hash(key);
    crg_slots *s = t->slots;
    ptrdiff_t index = crg_probe(s, key, hash);
    if (index >= 0) {
        int rc = 0;
        crg_value_garbage *garbage = crg_value_garbage_create(t, &rc);
        if (rc != 0) {
            return rc;
        }
        crg_slot *slot = &crg_slots_of(s)[index];
        void *old = slot->value;
        crg_write_begin(t);
        STORE_RELEASE(&slot->value, value);
        crg_write_end(t);
        if (garbage != NULL) {
            crg_retire_value(garbage, old);
        }
        if (previous != NULL) {
            *previous = old;
        }
        return 0;
    }

    /* A new key. Everything that can fail happens before the table changes. */
    crg_name *name = NULL;
    if (key->has_name) {
        name = crg_alloc(&t->allocator, sizeof(crg_name) + key->name_len);
        if (name == NULL) {
            return ENOMEM;
        }
        memset(&name->garbage, 0, sizeof name->garbage);
        name->allocator = t->allocator;
        name->len = key->name_len;
        if (name->len > 0) {
            memcpy((uint8_t *)(void *)(name + 1), key->name, name->len);
        }
    }
    crg_slot entry = { hash, key->type, name, value };
    const size_t capacity = s->mask + 1;
    if (s->is_static || t->count + 1 > crg_max_load(capacity)) {
        /* Grow (or allocate the first array): the new entry goes into the
         * private new array before it is published. */
        size_t target = s->is_static ? t->min_capacity : capacity * 2;
        if (!s->is_static && capacity > (SIZE_MAX - CRG_ALIGN - sizeof(crg_slots)) / 2 / sizeof(crg_slot)) {
            target = 0;
        }
        crg_slots *fresh = target ? crg_slots_create(t, target) : NULL;
        if (fresh == NULL) {
            if (name != NULL) {
                crg_free(&t->allocator, name);
            }
            return ENOMEM;
        }
        crg_slot *slots = crg_slots_of(s);
        for (size_t i = 0; i <= s->mask; i++) {
            if (slots[i].hash != 0) {
                crg_place(fresh, slots[i]);
            }
        }
        crg_place(fresh, entry);
        STORE_RELEASE(&t->slots, fresh);
        crg_retire_slots(s, false, t);
    } else {
        crg_write_begin(t);
        crg_place(s, entry);
        crg_write_end(t);
    }
    t->count++;
    if (previous != NULL) {
        *previous = NULL;
    }
    return 0;
}

int crg_put(crg_table *t, crg_key *key, void *value, void **previous) {
    if (t == NULL) {
        return EINVAL;
    }
    crg_mutex_lock(t->mutex);
    int rc = crg_put_locked(t, key, value, previous);
    crg_mutex_unlock(t->mutex);
    return rc;
}

int crg_remove_locked(crg_table *t, crg_key *key, void **value) {
    if (CRG_UNLIKELY(t == NULL || !crg_key_valid(key))) {
        return EINVAL;
    }
    if (CRG_UNLIKELY(t->busy)) {
        return EBUSY;
    }
    crg_slots *s = t->slots;
    ptrdiff_t index = crg_probe(s, key, crg_key_hash(key));
    if (index < 0) {
        return ENOENT;
    }
    int rc = 0;
    crg_value_garbage *garbage = crg_value_garbage_create(t, &rc);
    if (rc != 0) {
        return rc;
    }
    crg_slot *slots = crg_slots_of(s);
    const size_t mask = s->mask;
    crg_slot removed = slots[index];

    /* Backward-shift: pull the rest of the run one slot towards home. */
    crg_write_begin(t);
    size_t hole = (size_t)index;
    for (;;) {
        size_t next = (hole + 1) & mask;
        crg_slot candidate = slots[next];
        if (candidate.hash == 0 || crg_distance(next, candidate.hash, mask) == 0) {
            break;
        }
        crg_slot_store(&slots[hole], &candidate);
        hole = next;
    }
    const crg_slot empty = { 0, 0, NULL, NULL };
    crg_slot_store(&slots[hole], &empty);
    crg_write_end(t);
    t->count--;

    crg_retire_name(removed.name);
    if (garbage != NULL) {
        crg_retire_value(garbage, removed.value);
    }
    if (value != NULL) {
        *value = removed.value;
    }

    /* Mostly empty: halve towards twice the count. Failure just keeps the
     * larger array, which is still a valid table. */
    const size_t capacity = mask + 1;
    if (capacity > t->min_capacity && t->count < capacity / 8) {
        size_t target = crg_capacity_for(t->count * 2);
        if (target < t->min_capacity) {
            target = t->min_capacity;
        }
        if (target < capacity) {
            (void)crg_resize(t, target);
        }
    }
    return 0;
}

int crg_remove(crg_table *t, crg_key *key, void **value) {
    if (t == NULL) {
        return EINVAL;
    }
    crg_mutex_lock(t->mutex);
    int rc = crg_remove_locked(t, key, value);
    crg_mutex_unlock(t->mutex);
    return rc;
}

int crg_count(crg_table *t, size_t *count) {
    if (t == NULL || count == NULL) {
        return EINVAL;
    }
    crg_mutex_lock(t->mutex);
    *count = t->count;
    crg_mutex_unlock(t->mutex);
    return 0;
}

int crg_clear_locked(crg_table *t, crg_release_fn drop, void *context) {
    if (t == NULL) {
        return EINVAL;
    }
    if (t->busy) {
        return EBUSY;
    }
    crg_slots *s = t->slots;
    if (t->release == NULL && drop != NULL) {
        t->busy++;
        crg_slot *slots = crg_slots_of(s);
        for (size_t i = 0; i <= s->mask; i++) {
            if (slots[i].hash != 0) {
                drop(slots[i].value, context);
            }
        }
        t->busy--;
    }
    STORE_RELEASE(&t->slots, &crg_empty.header);
    t->count = 0;
    crg_retire_slots(s, true, t);
    return 0;
}

int crg_clear(crg_table *t, crg_release_fn drop, void *context) {
    if (t == NULL) {
        return EINVAL;
    }
    crg_mutex_lock(t->mutex);
    int rc = crg_clear_locked(t, drop, context);
    crg_mutex_unlock(t->mutex);
    return rc;
}

int crg_iterate_locked(crg_table *t, int (*visit)(const crg_entry *, void *), void *context) {
    if (t == NULL || visit == NULL) {
        return EINVAL;
    }
    int rc = 0;
    crg_slots *s = t->slots;
    crg_slot *slots = crg_slots_of(s);
    t->busy++;
    for (size_t i = 0; i <= s->mask && rc == 0; i++) {
        const crg_slot *slot = &slots[i];
        if (slot->hash == 0) {
            continue;
        }
        crg_entry entry = {
            slot->type,
            slot->name != NULL,
            slot->name != NULL && slot->name->len > 0 ? crg_internal_name_bytes(slot->name) : NULL,
            slot->name != NULL ? slot->name->len : 0,
            slot->value,
        };
        rc = visit(&entry, context);
    }
    t->busy--;
    return rc;
}

int crg_iterate(crg_table *t, int (*visit)(const crg_entry *, void *), void *context) {
    if (t == NULL) {
        return EINVAL;
    }
    crg_mutex_lock(t->mutex);
    int rc = crg_iterate_locked(t, visit, context);
    crg_mutex_unlock(t->mutex);
    return rc;
}

int crg_get_stats(crg_table *t, crg_stats *stats) {
    if (t == NULL || stats == NULL) {
        return EINVAL;
    }
    crg_mutex_lock(t->mutex);
    crg_slots *s = t->slots;
    crg_slot *slots = crg_slots_of(s);
    crg_stats result = { t->count, s->is_static ? 0 : s->mask + 1, 0, 0 };
    for (size_t i = 0; i <= s->mask; i++) {
        if (slots[i].hash != 0) {
            size_t distance = crg_distance(i, slots[i].hash, s->mask);
            result.total_distance += distance;
            if (distance > result.max_distance) {
                result.max_distance = distance;
            }
        }
    }
    crg_mutex_unlock(t->mutex);
    *stats = result;
    return 0;
}
