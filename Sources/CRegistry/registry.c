/*
 * CRegistry implementation. See include/cregistry.h for the contract and the
 * table's invariants; comments here explain how the code keeps them.
 */
#if defined(__linux__) && !defined(_GNU_SOURCE)
#define _GNU_SOURCE /* PTHREAD_MUTEX_RECURSIVE, O_CLOEXEC, clock_gettime under -std=c11 */
#endif
#include "cregistry.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#if defined(__linux__)
#include <sys/random.h>
#endif

/* The whole of XXH3 is compiled into this file, so hashing a 16-byte key is a
 * few inlined instructions rather than a call into the shared library. */
#define XXH_INLINE_ALL
#include <xxhash.h>

#if defined(__GNUC__) || defined(__clang__)
#define CRG_LIKELY(x) __builtin_expect(!!(x), 1)
#define CRG_UNLIKELY(x) __builtin_expect(!!(x), 0)
#else
#define CRG_LIKELY(x) (x)
#define CRG_UNLIKELY(x) (x)
#endif

/* ------------------------------------------------------------------------ */
/* Seed                                                                      */
/* ------------------------------------------------------------------------ */

/* Written once under pthread_once; every table is created after that, so any
 * thread that can see a table also sees the seed. */
static uint64_t crg_seed;
static pthread_once_t crg_seed_once = PTHREAD_ONCE_INIT;

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
}

static inline void crg_ensure_seed(void) {
    pthread_once(&crg_seed_once, crg_seed_init);
}

uint64_t crg_name_hash(const void *bytes, size_t len) {
    crg_ensure_seed();
    static const uint8_t empty[1] = { 0 };
    return XXH3_64bits_withSeed(len ? bytes : empty, len, crg_seed);
}

/* The stored hash of a key: XXH3 over the 16 bytes (type, name hash). "No
 * name" and "a name" hash under different seeds, so they differ even when a
 * name's hash happens to be 0. 0 marks an empty slot, so it is remapped. */
static inline uint64_t crg_key_hash(const crg_key *key) {
    uint64_t words[2] = { key->type, key->has_name ? key->name_hash : 0 };
    uint64_t hash = XXH3_64bits_withSeed(words, sizeof words, crg_seed + (key->has_name ? 1 : 0));
    return hash ? hash : 1;
}

static inline int crg_check_key(const crg_key *key) {
    if (CRG_UNLIKELY(key == NULL)) {
        return EINVAL;
    }
    if (key->has_name && CRG_UNLIKELY(key->name_len < 0 || (key->name == NULL && key->name_len > 0))) {
        return EINVAL;
    }
    return 0;
}

/* ------------------------------------------------------------------------ */
/* Mutex                                                                     */
/* ------------------------------------------------------------------------ */

/* The fields every lock and unlock writes (the pthread mutex, depth, held)
 * come first, in one cache line: the struct is allocated 64-byte aligned, so
 * under contention one line moves between cores rather than two. */
struct crg_mutex {
    pthread_mutex_t mutex;
    unsigned depth;   /* recursion depth of the holder; read and written only by the holder */
    atomic_int held;  /* 1 while some thread holds the mutex: a hint for whether to spin */
    pthread_cond_t condition;
    atomic_size_t references;
};

crg_mutex *crg_mutex_create(void) {
    void *memory = NULL;
    if (posix_memalign(&memory, 64, sizeof(crg_mutex)) != 0) {
        return NULL;
    }
    crg_mutex *m = memory;
    pthread_mutexattr_t attributes;
    if (pthread_mutexattr_init(&attributes) != 0) {
        free(m);
        return NULL;
    }
    int rc = pthread_mutexattr_settype(&attributes, PTHREAD_MUTEX_RECURSIVE);
    if (rc == 0) {
        rc = pthread_mutex_init(&m->mutex, &attributes);
    }
    pthread_mutexattr_destroy(&attributes);
    if (rc != 0) {
        free(m);
        return NULL;
    }
    if (pthread_cond_init(&m->condition, NULL) != 0) {
        pthread_mutex_destroy(&m->mutex);
        free(m);
        return NULL;
    }
    m->depth = 0;
    atomic_init(&m->held, 0);
    atomic_init(&m->references, 1);
    return m;
}

crg_mutex *crg_mutex_retain(crg_mutex *m) {
    if (m != NULL) {
        atomic_fetch_add_explicit(&m->references, 1, memory_order_relaxed);
    }
    return m;
}

void crg_mutex_release(crg_mutex *m) {
    if (m != NULL && atomic_fetch_sub_explicit(&m->references, 1, memory_order_acq_rel) == 1) {
        pthread_cond_destroy(&m->condition);
        pthread_mutex_destroy(&m->mutex);
        free(m);
    }
}

static inline void crg_cpu_relax(void) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__) || defined(__arm__)
    __asm__ __volatile__("yield");
#endif
}

/* How many times a contended lock is retried before the thread sleeps. The
 * sections guarded are a few nanoseconds long, so a short spin usually wins
 * the lock without a futex round trip. */
enum { CRG_SPINS = 64 };

static inline void crg_mutex_acquired(crg_mutex *m) {
    if (m->depth++ == 0) {
        atomic_store_explicit(&m->held, 1, memory_order_relaxed);
    }
}

void crg_mutex_lock(crg_mutex *m) {
    /* Uncontended (nobody seems to hold it): lock directly, which is cheaper
     * than trylock. Held by someone (possibly us, recursively): spin on
     * trylock a little, then sleep in pthread_mutex_lock. */
    if (CRG_LIKELY(atomic_load_explicit(&m->held, memory_order_relaxed) == 0)) {
        pthread_mutex_lock(&m->mutex);
        crg_mutex_acquired(m);
        return;
    }
    for (int i = 0; i < CRG_SPINS; i++) {
        if (pthread_mutex_trylock(&m->mutex) == 0) {
            crg_mutex_acquired(m);
            return;
        }
        crg_cpu_relax();
    }
    pthread_mutex_lock(&m->mutex);
    crg_mutex_acquired(m);
}

void crg_mutex_unlock(crg_mutex *m) {
    if (--m->depth == 0) {
        atomic_store_explicit(&m->held, 0, memory_order_relaxed);
    }
    pthread_mutex_unlock(&m->mutex);
}

int crg_mutex_wait(crg_mutex *m) {
    if (m->depth != 1) {
        return EDEADLK;
    }
    m->depth = 0;
    atomic_store_explicit(&m->held, 0, memory_order_relaxed);
    pthread_cond_wait(&m->condition, &m->mutex);
    m->depth = 1;
    atomic_store_explicit(&m->held, 1, memory_order_relaxed);
    return 0;
}

void crg_mutex_broadcast(crg_mutex *m) {
    pthread_cond_broadcast(&m->condition);
}

/* ------------------------------------------------------------------------ */
/* Table                                                                     */
/* ------------------------------------------------------------------------ */

/* An owned copy of a name. The empty name is a crg_name with len 0, distinct
 * from "no name", which is a NULL pointer. */
typedef struct crg_name {
    size_t len;
    uint8_t bytes[];
} crg_name;

/* 32 bytes: two slots per cache line. hash == 0 means empty. */
typedef struct crg_slot {
    uint64_t hash;
    uint64_t type;
    crg_name *name;
    void *value;
} crg_slot;

struct crg_table {
    crg_slot *slots;      /* capacity = mask + 1 slots, a power of two >= 8 */
    size_t mask;
    size_t count;         /* occupied slots; <= crg_max_load(capacity) */
    size_t min_capacity;  /* the table never shrinks below this */
    crg_mutex *mutex;     /* one reference held */
    crg_allocator allocator;
    unsigned busy;        /* > 0 while a visitor or drop callback runs */
};

enum { CRG_MIN_CAPACITY = 8 };

static void *crg_default_allocate(size_t size, void *context) {
    (void)context;
    return malloc(size);
}

static void crg_default_deallocate(void *pointer, void *context) {
    (void)context;
    free(pointer);
}

static inline void *crg_alloc(const crg_table *t, size_t size) {
    return t->allocator.allocate(size, t->allocator.context);
}

static inline void crg_free(const crg_table *t, void *pointer) {
    t->allocator.deallocate(pointer, t->allocator.context);
}

/* At most 7/8 of the slots are used. */
static inline size_t crg_max_load(size_t capacity) {
    return capacity - capacity / 8;
}

/* The smallest power-of-two capacity (>= 8) that holds `keys` keys within the
 * load limit, or 0 if that does not fit in a size_t. */
static size_t crg_capacity_for(size_t keys) {
    size_t capacity = CRG_MIN_CAPACITY;
    while (crg_max_load(capacity) < keys) {
        if (capacity > SIZE_MAX / 2 / sizeof(crg_slot)) {
            return 0;
        }
        capacity *= 2;
    }
    return capacity;
}

static inline size_t crg_distance(size_t index, uint64_t hash, size_t mask) {
    return (index - (size_t)hash) & mask;
}

/* Equal bytes? Names are mostly short, and for 4 to 16 bytes two pairs of
 * overlapping loads compare them without a loop: no call to memcmp, and no
 * length-dependent branch to mispredict after a cache miss (which would
 * discard the next lookups' loads). Other lengths go to memcmp. */
static inline bool crg_bytes_equal(const uint8_t *a, const uint8_t *b, size_t n) {
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

static inline bool crg_name_matches(const crg_name *stored, const crg_key *key) {
    if (!key->has_name) {
        return stored == NULL;
    }
    return stored != NULL && stored->len == (size_t)key->name_len &&
           crg_bytes_equal(stored->bytes, key->name, stored->len);
}

/* The slot holding `key`, or NULL. Robin Hood ordering lets a miss stop at
 * the first entry that sits closer to its home than we are to ours. */
static inline crg_slot *crg_find(const crg_table *t, const crg_key *key, uint64_t hash) {
    const size_t mask = t->mask;
    size_t index = (size_t)hash & mask;
    for (size_t distance = 0;; distance++) {
        crg_slot *slot = &t->slots[index];
        if (slot->hash == 0) {
            return NULL;
        }
        if (slot->hash == hash && slot->type == key->type && crg_name_matches(slot->name, key)) {
            return slot;
        }
        if (crg_distance(index, slot->hash, mask) < distance) {
            return NULL;
        }
        index = (index + 1) & mask;
    }
}

/* Places an entry known to be absent into a table with a free slot. */
static void crg_place(crg_slot *slots, size_t mask, crg_slot entry) {
    size_t index = (size_t)entry.hash & mask;
    size_t distance = 0;
    for (;;) {
        crg_slot *slot = &slots[index];
        if (slot->hash == 0) {
            *slot = entry;
            return;
        }
        size_t resident = crg_distance(index, slot->hash, mask);
        if (resident < distance) {
            /* Take from the rich: the resident is closer to home than we are. */
            crg_slot displaced = *slot;
            *slot = entry;
            entry = displaced;
            distance = resident;
        }
        index = (index + 1) & mask;
        distance++;
    }
}

/* Moves every entry into a new slot array of `capacity` slots. On ENOMEM the
 * table is untouched. */
static int crg_resize(crg_table *t, size_t capacity) {
    crg_slot *slots = crg_alloc(t, capacity * sizeof(crg_slot));
    if (slots == NULL) {
        return ENOMEM;
    }
    memset(slots, 0, capacity * sizeof(crg_slot));
    const size_t old_capacity = t->mask + 1;
    for (size_t i = 0; i < old_capacity; i++) {
        if (t->slots[i].hash != 0) {
            crg_place(slots, capacity - 1, t->slots[i]);
        }
    }
    crg_free(t, t->slots);
    t->slots = slots;
    t->mask = capacity - 1;
    return 0;
}

int crg_create(crg_table **out, const crg_options *options) {
    if (out == NULL) {
        return EINVAL;
    }
    crg_ensure_seed();
    crg_options defaults = { 0, NULL, NULL };
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
    const size_t capacity = crg_capacity_for(options->capacity);
    if (capacity == 0) {
        return EINVAL;
    }

    crg_table *t = allocator.allocate(sizeof *t, allocator.context);
    if (t == NULL) {
        return ENOMEM;
    }
    memset(t, 0, sizeof *t);
    t->allocator = allocator;
    t->slots = crg_alloc(t, capacity * sizeof(crg_slot));
    if (t->slots == NULL) {
        allocator.deallocate(t, allocator.context);
        return ENOMEM;
    }
    memset(t->slots, 0, capacity * sizeof(crg_slot));
    t->mask = capacity - 1;
    t->min_capacity = capacity;
    t->mutex = options->mutex ? crg_mutex_retain(options->mutex) : crg_mutex_create();
    if (t->mutex == NULL) {
        crg_free(t, t->slots);
        allocator.deallocate(t, allocator.context);
        return ENOMEM;
    }
    *out = t;
    return 0;
}

/* Calls drop on every value, with mutation fenced off, then frees the names. */
static void crg_drain(crg_table *t, void (*drop)(void *, void *), void *context) {
    const size_t capacity = t->mask + 1;
    if (drop != NULL) {
        t->busy++;
        for (size_t i = 0; i < capacity; i++) {
            if (t->slots[i].hash != 0) {
                drop(t->slots[i].value, context);
            }
        }
        t->busy--;
    }
    for (size_t i = 0; i < capacity; i++) {
        if (t->slots[i].hash != 0) {
            crg_free(t, t->slots[i].name);
        }
    }
}

void crg_destroy(crg_table *t, void (*drop)(void *, void *), void *context) {
    if (t == NULL) {
        return;
    }
    crg_mutex_lock(t->mutex);
    crg_drain(t, drop, context);
    crg_free(t, t->slots);
    crg_mutex *mutex = t->mutex;
    crg_allocator allocator = t->allocator;
    allocator.deallocate(t, allocator.context);
    crg_mutex_unlock(mutex);
    crg_mutex_release(mutex);
}

int crg_lock(crg_table *t) {
    if (t == NULL) {
        return EINVAL;
    }
    crg_mutex_lock(t->mutex);
    return 0;
}

int crg_unlock(crg_table *t) {
    if (t == NULL) {
        return EINVAL;
    }
    crg_mutex_unlock(t->mutex);
    return 0;
}

crg_mutex *crg_table_mutex(crg_table *t) {
    return t ? t->mutex : NULL;
}

int crg_put_locked(crg_table *t, const crg_key *key, void *value, void **previous) {
    int rc = crg_check_key(key);
    if (CRG_UNLIKELY(t == NULL || value == NULL || rc != 0)) {
        return EINVAL;
    }
    if (CRG_UNLIKELY(t->busy)) {
        return EBUSY;
    }
    const uint64_t hash = crg_key_hash(key);
    crg_slot *slot = crg_find(t, key, hash);
    if (slot != NULL) {
        void *old = slot->value;
        slot->value = value;
        if (previous != NULL) {
            *previous = old;
        }
        return 0;
    }

    /* A new key. Everything that can fail happens before the table changes. */
    crg_name *name = NULL;
    if (key->has_name) {
        name = crg_alloc(t, sizeof(crg_name) + (size_t)key->name_len);
        if (name == NULL) {
            return ENOMEM;
        }
        name->len = (size_t)key->name_len;
        if (name->len > 0) {
            memcpy(name->bytes, key->name, name->len);
        }
    }
    if (t->count + 1 > crg_max_load(t->mask + 1)) {
        const size_t capacity = t->mask + 1;
        rc = capacity <= SIZE_MAX / 2 / sizeof(crg_slot) ? crg_resize(t, capacity * 2) : ENOMEM;
        if (rc != 0) {
            crg_free(t, name);
            return rc;
        }
    }
    crg_slot entry = { hash, key->type, name, value };
    crg_place(t->slots, t->mask, entry);
    t->count++;
    if (previous != NULL) {
        *previous = NULL;
    }
    return 0;
}

int crg_put(crg_table *t, const crg_key *key, void *value, void **previous) {
    if (t == NULL) {
        return EINVAL;
    }
    crg_mutex_lock(t->mutex);
    int rc = crg_put_locked(t, key, value, previous);
    crg_mutex_unlock(t->mutex);
    return rc;
}

int crg_get_locked(crg_table *t, const crg_key *key, void **value) {
    if (CRG_UNLIKELY(t == NULL || crg_check_key(key) != 0)) {
        return EINVAL;
    }
    crg_slot *slot = crg_find(t, key, crg_key_hash(key));
    if (slot == NULL) {
        return ENOENT;
    }
    if (value != NULL) {
        *value = slot->value;
    }
    return 0;
}

int crg_get(crg_table *t, const crg_key *key, void **value) {
    if (t == NULL) {
        return EINVAL;
    }
    crg_mutex_lock(t->mutex);
    int rc = crg_get_locked(t, key, value);
    crg_mutex_unlock(t->mutex);
    return rc;
}

int crg_remove_locked(crg_table *t, const crg_key *key, void **value) {
    if (CRG_UNLIKELY(t == NULL || crg_check_key(key) != 0)) {
        return EINVAL;
    }
    if (CRG_UNLIKELY(t->busy)) {
        return EBUSY;
    }
    crg_slot *slot = crg_find(t, key, crg_key_hash(key));
    if (slot == NULL) {
        return ENOENT;
    }
    if (value != NULL) {
        *value = slot->value;
    }
    crg_free(t, slot->name);

    /* Backward-shift: pull the rest of the run one slot towards home. */
    const size_t mask = t->mask;
    size_t hole = (size_t)(slot - t->slots);
    for (;;) {
        size_t next = (hole + 1) & mask;
        crg_slot *candidate = &t->slots[next];
        if (candidate->hash == 0 || crg_distance(next, candidate->hash, mask) == 0) {
            break;
        }
        t->slots[hole] = *candidate;
        hole = next;
    }
    memset(&t->slots[hole], 0, sizeof(crg_slot));
    t->count--;

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

int crg_remove(crg_table *t, const crg_key *key, void **value) {
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

int crg_clear_locked(crg_table *t, void (*drop)(void *, void *), void *context) {
    if (t == NULL) {
        return EINVAL;
    }
    if (t->busy) {
        return EBUSY;
    }
    crg_drain(t, drop, context);
    const size_t capacity = t->mask + 1;
    crg_slot *smaller = capacity > t->min_capacity ? crg_alloc(t, t->min_capacity * sizeof(crg_slot)) : NULL;
    if (smaller != NULL) {
        memset(smaller, 0, t->min_capacity * sizeof(crg_slot));
        crg_free(t, t->slots);
        t->slots = smaller;
        t->mask = t->min_capacity - 1;
    } else {
        memset(t->slots, 0, capacity * sizeof(crg_slot));
    }
    t->count = 0;
    return 0;
}

int crg_clear(crg_table *t, void (*drop)(void *, void *), void *context) {
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
    const size_t capacity = t->mask + 1;
    t->busy++;
    for (size_t i = 0; i < capacity && rc == 0; i++) {
        const crg_slot *slot = &t->slots[i];
        if (slot->hash == 0) {
            continue;
        }
        crg_entry entry = {
            slot->type,
            slot->name != NULL,
            slot->name != NULL && slot->name->len > 0 ? slot->name->bytes : NULL,
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
    crg_stats result = { t->count, t->mask + 1, 0, 0 };
    for (size_t i = 0; i <= t->mask; i++) {
        if (t->slots[i].hash != 0) {
            size_t distance = crg_distance(i, t->slots[i].hash, t->mask);
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
