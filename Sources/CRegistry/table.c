/*
 * The table. See include/crg_table.h for the contract and crg_table_inline.h
 * for the layout. The elements of a live slot array are written and read
 * through __atomic builtins: meta words, hashes and types relaxed, name and
 * value pointers release/acquire (a reader that sees a pointer sees what it
 * points to).
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

#include "crg_xxhash.h"

#include "crg_private.h"

#define crg_distance crg_internal_distance

#define LOAD_RELAXED(p) __atomic_load_n((p), __ATOMIC_RELAXED)
#define STORE_RELAXED(p, v) __atomic_store_n((p), (v), __ATOMIC_RELAXED)
#define STORE_RELEASE(p, v) __atomic_store_n((p), (v), __ATOMIC_RELEASE)

/* ---- Seed and hashing --------------------------------------------------- */

/* Written once under pthread_once, before the first table is created (keys
 * reach tables through release/acquire chains); crg_seeded is set last, so
 * a name hash checks the seed with one load. */
static uint64_t crg_seed;
static pthread_once_t crg_seed_once = PTHREAD_ONCE_INIT;
static bool crg_seeded;
crg_hash_keys crg_internal_hash_keys;

static uint64_t crg_read64(const uint8_t *bytes) {
    uint64_t word;
    memcpy(&word, bytes, sizeof word);
    return crg_internal_le64(word);
}

/* The seed-dependent parts of XXH3 for 8 bytes under `seed` and for 16
 * bytes under `seed + 1` (see crg_hash_keys), from the library's secret. */
static crg_hash_keys crg_hash_keys_for(uint64_t seed) {
    const uint8_t *secret = XXH3_kSecret;
    const uint64_t seed8 = seed ^ ((uint64_t)XXH_swap32((uint32_t)seed) << 32);
    const uint64_t seed16 = seed + 1;
    crg_hash_keys keys = {
        (crg_read64(secret + 8) ^ crg_read64(secret + 16)) - seed8,
        (crg_read64(secret + 24) ^ crg_read64(secret + 32)) + seed16,
        (crg_read64(secret + 40) ^ crg_read64(secret + 48)) - seed16,
    };
    return keys;
}

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
    crg_internal_hash_keys = crg_hash_keys_for(seed);
    __atomic_store_n(&crg_seeded, true, __ATOMIC_RELEASE);
}

static inline void crg_ensure_seed(void) {
    if (CRG_UNLIKELY(!__atomic_load_n(&crg_seeded, __ATOMIC_ACQUIRE))) {
        pthread_once(&crg_seed_once, crg_seed_init);
    }
}

CRG_THREAD_LOCAL crg_name_memo crg_internal_name_memos[CRG_NAME_MEMOS];

uint64_t crg_name_hash(const void *bytes, size_t len) {
    crg_ensure_seed();
    static const uint8_t empty[1] = { 0 };
    return XXH3_64bits_withSeed(len ? bytes : empty, len, crg_seed);
}

uint64_t crg_internal_key_hash(crg_key *key) {
    key->hash = crg_internal_hash_key(&crg_internal_hash_keys, key);
    return key->hash;
}

int crg_internal_hash_check(const uint64_t *seed, uint64_t type, uint64_t name_hash) {
    crg_ensure_seed();
    const uint64_t used = seed != NULL ? *seed : crg_seed;
    const crg_hash_keys keys = seed != NULL ? crg_hash_keys_for(*seed) : crg_internal_hash_keys;
    const uint64_t words[2] = { type, name_hash };
    const uint64_t unnamed = XXH3_64bits_withSeed(&words[0], 8, used), named = XXH3_64bits_withSeed(words, 16, used + 1);
    crg_key unnamed_key = crg_key_unnamed(type), named_key = crg_key_named(type, NULL, 0, name_hash);
    /* The stored hashes too (0 remapped to 1), for the process's seed. */
    const bool stored = seed == NULL;
    return (crg_internal_hash_unnamed(&keys, type) != unnamed) | (crg_internal_hash_named(&keys, type, name_hash) != named) << 1 |
           (stored && crg_internal_key_hash(&unnamed_key) != (unnamed ? unnamed : 1)) << 2 |
           (stored && crg_internal_key_hash(&named_key) != (named ? named : 1)) << 3;
}

static inline bool crg_key_valid(const crg_key *key) {
    return key != NULL && (!key->has_name || key->name != NULL || key->name_len == 0);
}

/* ---- Memory ------------------------------------------------------------- */

struct crg_table {
    crg_table_head head; /* what readers read (crg_find) */
    /* The rest is the writers', under the mutex. */
    size_t count;
    size_t min_capacity;
    crg_mutex *mutex; /* one reference held */
    crg_allocator allocator;
    crg_release_fn release;
    void *release_context;
    unsigned busy;    /* > 0 while a visitor or drop callback runs */
    crg_retire_node retire;
    void *memory;     /* what was allocated: the table starts on a cache line inside it */
};

/* crg_find reads a crg_table as its head, its first member. */
_Static_assert(offsetof(struct crg_table, head) == 0, "the head starts the table");

/* The array of a new or cleared table: one empty slot, never written, laid
 * out as crg_slots_create lays out arrays. */
static struct {
    crg_slots header;
    crg_slot entries[1];
    crg_name *names[1];
    uint64_t hashes[1];
    uint16_t meta[1];
} crg_empty = { .header = { .mask = 0, .meta = crg_empty.meta, .is_static = true } };
_Static_assert(offsetof(__typeof__(crg_empty), entries) == sizeof(crg_slots), "entries follow the header");
_Static_assert(offsetof(__typeof__(crg_empty), meta) ==
                   sizeof(crg_slots) + sizeof(crg_slot) + sizeof(crg_name *) + sizeof(uint64_t),
               "then names, hashes and meta");

enum { CRG_MIN_CAPACITY = 8, CRG_ALIGN = 64 };

/* At most 3/4 of the slots are used (as in Swift's Dictionary), so most
 * probes end at or next to home; the smallest array's 8 slots hold 7 keys,
 * the default capacity. */
static inline size_t crg_max_load(size_t capacity) {
    return capacity <= CRG_MIN_CAPACITY ? capacity - capacity / 8 : capacity - capacity / 4;
}

/* Bytes per slot over the four arrays (crg_table_inline.h). */
#define CRG_SLOT_BYTES (sizeof(crg_slot) + sizeof(crg_name *) + sizeof(uint64_t) + sizeof(uint16_t))

/* Whether an array of `capacity` slots can be allocated at all (its size fits in a size_t). */
static inline bool crg_capacity_fits(size_t capacity) {
    return capacity <= (SIZE_MAX - 3 * CRG_ALIGN - sizeof(crg_slots)) / CRG_SLOT_BYTES;
}

/* The smallest power-of-two capacity (>= 8) that holds `keys` keys within the
 * load limit, or 0 if that does not fit in memory. */
static size_t crg_capacity_for(size_t keys) {
    size_t capacity = CRG_MIN_CAPACITY;
    while (crg_max_load(capacity) < keys) {
        if (!crg_capacity_fits(capacity * 2)) {
            return 0;
        }
        capacity *= 2;
    }
    return capacity;
}

/* A zeroed array of `capacity` slots, each of its arrays starting on a cache
 * line. The allocation covers every line a probe reads (the header's last
 * line, with the mask and the meta pointer, to meta's last line), so no
 * other allocation's writes (say, a reference count) share them. */
_Static_assert(sizeof(crg_slots) - offsetof(crg_slots, mask) <= CRG_ALIGN,
               "mask and meta pointer lie in the header's last line, which is inside the allocation");
static crg_slots *crg_slots_create(const crg_table *t, size_t capacity) {
    const size_t arrays = (capacity * CRG_SLOT_BYTES + CRG_ALIGN - 1) & ~(size_t)(CRG_ALIGN - 1);
    size_t size = CRG_ALIGN + sizeof(crg_slots) + arrays;
    void *memory = crg_alloc(&t->allocator, size);
    if (memory == NULL) {
        return NULL;
    }
    uintptr_t first = ((uintptr_t)memory + sizeof(crg_slots) + CRG_ALIGN - 1) & ~(uintptr_t)(CRG_ALIGN - 1);
    crg_slots *s = (crg_slots *)(first - sizeof(crg_slots));
    memset(s, 0, sizeof(crg_slots) + arrays);
    s->allocator = t->allocator;
    s->memory = memory;
    s->mask = capacity - 1;
    s->meta = crg_internal_meta_words(s, s->mask);
    return s;
}

/* A name as allocated: what only writers use, then the crg_name readers
 * see (its length), then its bytes. */
typedef struct crg_name_block {
    crg_retire_node node;
    crg_allocator allocator;
    crg_name name;
} crg_name_block;
#if UINTPTR_MAX == UINT64_MAX
/* The length and a short name's bytes keep the allocation's 16-byte alignment. */
_Static_assert(offsetof(crg_name_block, name) % 16 == 0, "the name keeps the allocation's alignment");
#endif

static inline crg_name_block *crg_name_block_of(crg_name *name) {
    return CRG_CONTAINER_OF(name, crg_name_block, name);
}

/* A copy of `len` bytes, or NULL when out of memory. */
static crg_name *crg_name_create(const crg_table *t, const void *bytes, size_t len) {
    const size_t header = offsetof(crg_name_block, name) + sizeof(crg_name);
    if (len > SIZE_MAX - header) {
        return NULL;
    }
    crg_name_block *block = crg_alloc(&t->allocator, header + len);
    if (block == NULL) {
        return NULL;
    }
    block->allocator = t->allocator;
    crg_name *name = &block->name;
    name->len = len;
    if (len > 0) {
        memcpy((uint8_t *)(void *)(name + 1), bytes, len);
    }
    return name;
}

static void crg_name_free(crg_name *name) {
    crg_name_block *block = crg_name_block_of(name);
    crg_allocator allocator = block->allocator;
    crg_free(&allocator, block);
}

static void crg_release_name(crg_retire_node *node) {
    crg_name_free(&CRG_CONTAINER_OF(node, crg_name_block, node)->name);
}

/* A slot array's four arrays, found once per operation: a hash stored could
 * be the header's mask, as far as the compiler knows. */
typedef struct crg_arrays {
    size_t mask;
    uint16_t *meta;
    crg_slot *entries;
    crg_name **names;
    uint64_t *hashes;
} crg_arrays;

static inline crg_arrays crg_arrays_of(crg_slots *s) {
    const crg_arrays a = { s->mask, s->meta, crg_internal_entries(s), crg_internal_names(s, s->mask),
                           crg_internal_hashes(s, s->mask) };
    return a;
}

/* Releases a retired array: its contents first, if it took them along. */
static void crg_release_slots(crg_retire_node *node) {
    crg_slots *s = CRG_CONTAINER_OF(node, crg_slots, retire);
    const crg_arrays a = crg_arrays_of(s);
    for (size_t i = 0; s->owns_contents && i <= a.mask; i++) {
        if (a.meta[i] != 0) {
            if (a.names[i] != NULL) {
                crg_name_free(a.names[i]);
            }
            if (s->release != NULL) {
                s->release(a.entries[i].value, s->release_context);
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
    crg_retire_embedded(&s->retire, crg_release_slots);
}

static void crg_retire_name(crg_name *name) {
    if (name != NULL) {
        crg_retire_embedded(&crg_name_block_of(name)->node, crg_release_name);
    }
}

/* ---- Reading (the inline lookups are in crg_table_inline.h) ------------- */

int crg_internal_find_locked(crg_table *t, crg_key *key, void **value) {
    /* A writer keeps moving slots: wait for it once, and probe in peace. */
    crg_mutex_lock(t->mutex);
    crg_slot *entry = crg_internal_probe_entry(t->head.slots, crg_internal_probe_key(key),
                                               crg_internal_key_hash_inline(key), key);
    if (entry != NULL && value != NULL) {
        *value = entry->value;
    }
    crg_mutex_unlock(t->mutex);
    return entry != NULL ? 0 : ENOENT;
}

/* A probe that has gone CRG_INTERNAL_FAR - 1 or more slots from home (only runs
 * of colliding hashes get there): meta no longer holds exact distances, so
 * the residents' distances come from their full hashes. */
ptrdiff_t crg_internal_probe_far(crg_slots *s, const crg_key *key, uint64_t hash, size_t index, size_t distance) {
    const size_t mask = s->mask;
    const unsigned tag = crg_internal_tag(hash, key->has_name);
    for (; distance <= mask; distance++) {
        const unsigned word = LOAD_RELAXED(&s->meta[index]);
        if (word == 0) {
            return -1;
        }
        const uint64_t stored = LOAD_RELAXED(&crg_internal_hashes(s, mask)[index]);
        const size_t resident = (word >> 8) < CRG_INTERNAL_FAR ? (size_t)(word >> 8) - 1
                                                               : crg_distance(index, stored, mask);
        if (resident < distance) {
            return -1;
        }
        if (resident == distance && (word & 0xFFu) == tag && stored == hash &&
            crg_internal_entry_matches(s, mask, index, crg_internal_probe_key(key), key)) {
            return (ptrdiff_t)index;
        }
        index = (index + 1) & mask;
    }
    return -1;
}

int crg_get(crg_table *t, crg_key *key, void **value) {
    crg_read_begin();
    int rc = crg_find(t, key, value);
    crg_read_end();
    return rc;
}

/* ---- Writing ------------------------------------------------------------ */

/* Slots move only between these two. The first store makes the sequence odd
 * before any slot changes (the release fence orders it before them); the last
 * makes it even again after they all have. */
static inline void crg_write_begin(crg_table *t) {
    STORE_RELAXED(&t->head.seq, t->head.seq + 1);
    __atomic_thread_fence(__ATOMIC_RELEASE);
}

static inline void crg_write_end(crg_table *t) {
    STORE_RELEASE(&t->head.seq, t->head.seq + 1);
}

/* One entry as writers move it: what the four arrays hold for a slot. */
typedef struct crg_record {
    uint64_t hash;
    uint64_t type;
    crg_name *name;
    void *value;
} crg_record;

/* Stores an entry at `index`, `distance` slots from its home. Atomic stores:
 * the array may be live (inside a write section). */
static inline void crg_record_store(const crg_arrays *a, size_t index, const crg_record *entry, size_t distance) {
    STORE_RELAXED(&a->hashes[index], entry->hash);
    STORE_RELAXED(&a->entries[index].type, entry->type);
    STORE_RELEASE(&a->names[index], entry->name);
    STORE_RELEASE(&a->entries[index].value, entry->value);
    STORE_RELAXED(&a->meta[index], crg_internal_meta(crg_internal_tag(entry->hash, entry->name != NULL), distance));
}

static inline void crg_record_erase(const crg_arrays *a, size_t index) {
    STORE_RELAXED(&a->meta[index], (uint16_t)0);
    STORE_RELAXED(&a->hashes[index], (uint64_t)0);
    STORE_RELAXED(&a->entries[index].type, (uint64_t)0);
    STORE_RELEASE(&a->names[index], (crg_name *)NULL);
    STORE_RELEASE(&a->entries[index].value, (void *)NULL);
}

/* Writers read what only they write: no ordering needed. */
static inline crg_record crg_record_load(const crg_arrays *a, size_t index) {
    crg_record entry = { LOAD_RELAXED(&a->hashes[index]), LOAD_RELAXED(&a->entries[index].type),
                         LOAD_RELAXED(&a->names[index]), LOAD_RELAXED(&a->entries[index].value) };
    return entry;
}

static inline bool crg_occupied(const crg_arrays *a, size_t index) {
    return LOAD_RELAXED(&a->meta[index]) != 0;
}

/* Where `key` is, or would go: the walk from its home stops at its slot, or
 * at the first one empty or holding an entry closer to its own home (where
 * Robin Hood order puts the key). Writers: exact distances, from the hashes. */
typedef struct crg_position {
    size_t index;
    size_t distance;
    bool found;
} crg_position;

static inline CRG_ALWAYS_INLINE crg_position crg_locate(crg_slots *s, const crg_arrays *a, const crg_key *key,
                                                        uint64_t hash) {
    const unsigned tag = crg_internal_tag(hash, key->has_name);
    crg_position at = { (size_t)hash & a->mask, 0, false };
    for (;;) {
        const unsigned word = LOAD_RELAXED(&a->meta[at.index]);
        const uint64_t stored = LOAD_RELAXED(&a->hashes[at.index]);
        if (word == 0 || crg_distance(at.index, stored, a->mask) < at.distance) {
            return at;
        }
        if (stored == hash && (word & 0xFFu) == tag &&
            crg_internal_entry_matches(s, a->mask, at.index, crg_internal_probe_key(key), key)) {
            at.found = true;
            return at;
        }
        at.index = (at.index + 1) & a->mask;
        at.distance++;
    }
}

/* Puts `entry`, a key not in the array (which has a free slot), at `index`,
 * `distance` from its home, and pushes the residents it displaces on. */
static inline void crg_place(const crg_arrays *a, crg_record entry, size_t index, size_t distance) {
    for (;;) {
        if (!crg_occupied(a, index)) {
            crg_record_store(a, index, &entry, distance);
            return;
        }
        size_t resident_distance = crg_distance(index, LOAD_RELAXED(&a->hashes[index]), a->mask);
        if (resident_distance < distance) {
            /* Take from the rich: the resident is closer to home than we are. */
            crg_record resident = crg_record_load(a, index);
            crg_record_store(a, index, &entry, distance);
            entry = resident;
            distance = resident_distance;
        }
        index = (index + 1) & a->mask;
        distance++;
    }
}

/* Moves every entry, and `extra` (a new key) when not NULL, into a new array
 * of `capacity` slots, publishes it and retires the old one, which is never
 * changed: readers still on it see a consistent table. ENOMEM: no change. */
static int crg_resize(crg_table *t, size_t capacity, const crg_record *extra) {
    crg_slots *fresh = crg_slots_create(t, capacity);
    if (fresh == NULL) {
        return ENOMEM;
    }
    crg_slots *old = t->head.slots;
    const crg_arrays from = crg_arrays_of(old), to = crg_arrays_of(fresh);
    for (size_t i = 0; i <= from.mask; i++) {
        if (crg_occupied(&from, i)) {
            const crg_record entry = crg_record_load(&from, i);
            crg_place(&to, entry, (size_t)entry.hash & to.mask, 0);
        }
    }
    if (extra != NULL) {
        crg_place(&to, *extra, (size_t)extra->hash & to.mask, 0);
    }
    STORE_RELEASE(&t->head.slots, fresh);
    crg_retire_slots(old, false, t);
    return 0;
}

/* Adds `entry` (a new key) through a larger array: the first real one, or
 * four times the capacity below 1,024 slots (half as many moves for tables
 * that fill to a few hundred while an app starts), or twice. */
static int crg_grow(crg_table *t, const crg_record *entry) {
    const crg_slots *s = t->head.slots;
    size_t target = t->min_capacity;
    if (!s->is_static) {
        const size_t capacity = s->mask + 1;
        const size_t factor = capacity < 1024 ? 4 : 2;
        if (capacity > SIZE_MAX / factor || !crg_capacity_fits(capacity * factor)) {
            return ENOMEM;
        }
        target = capacity * factor;
    }
    return crg_resize(t, target, entry);
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
    const crg_allocator *allocator = crg_allocator_or_default(options->allocator);
    if (allocator == NULL) {
        return EINVAL;
    }
    const size_t min_capacity = crg_capacity_for(options->capacity);
    if (min_capacity == 0) {
        return EINVAL;
    }
    /* The table starts on a cache line of its own allocation, so that the
     * line readers read (seq, slots) is shared with no other allocation. */
    void *memory = NULL;
    crg_table *t = crg_alloc_aligned(allocator, sizeof(crg_table), CRG_ALIGN, &memory);
    if (t == NULL) {
        return ENOMEM;
    }
    memset(t, 0, sizeof *t);
    t->memory = memory;
    t->allocator = *allocator;
    t->release = options->release;
    t->release_context = options->release_context;
    t->min_capacity = min_capacity;
    t->head.slots = &crg_empty.header;
    t->mutex = options->mutex ? crg_mutex_retain(options->mutex) : crg_internal_mutex_create(allocator);
    if (t->mutex == NULL) {
        crg_free(allocator, memory);
        return ENOMEM;
    }
    *out = t;
    return 0;
}

static void crg_release_table(crg_retire_node *node) {
    crg_table *t = CRG_CONTAINER_OF(node, crg_table, retire);
    crg_mutex_release(t->mutex);
    crg_allocator allocator = t->allocator;
    crg_free(&allocator, t->memory);
}

void crg_destroy(crg_table *t) {
    if (t == NULL) {
        return;
    }
    crg_mutex_lock(t->mutex);
    crg_slots *s = t->head.slots;
    STORE_RELEASE(&t->head.slots, &crg_empty.header);
    t->count = 0;
    crg_mutex_unlock(t->mutex);
    crg_retire_slots(s, true, t);
    /* The table (and its mutex reference) goes last: a reader in crg_find may
     * still be about to lock that mutex. */
    crg_retire_embedded(&t->retire, crg_release_table);
}

crg_mutex *crg_table_mutex(crg_table *t) {
    return t ? t->mutex : NULL;
}

/* With CRG_INTERNAL_CHECKS, a write ends by checking the layout invariants:
 * always up to 512 entries, then at each power of two (growing to a million
 * keys stays linear). */
#ifdef CRG_INTERNAL_CHECKS
static int crg_check_locked(const crg_table *t, size_t *where);

static void crg_internal_check_after_write(const crg_table *t, const char *function) {
    if (t->count > 512 && (t->count & (t->count - 1)) != 0) {
        return;
    }
    size_t where;
    int broken = crg_check_locked(t, &where);
    if (broken != 0) {
        crg_internal_check_failed("a layout invariant broke (crg_table.h, crg_check_invariants)", function,
                                  (size_t)broken);
    }
}
#else
#define crg_internal_check_after_write(t, function) ((void)0)
#endif

int crg_put_locked(crg_table *t, crg_key *key, void *value, void **previous) {
    if (CRG_UNLIKELY(t == NULL || value == NULL || !crg_key_valid(key))) {
        return EINVAL;
    }
    CRG_ASSERT_HELD(t->mutex);
    if (CRG_UNLIKELY(t->busy)) {
        return EBUSY;
    }
    const uint64_t hash = crg_internal_key_hash_inline(key);
    crg_slots *s = t->head.slots;
    const crg_arrays a = crg_arrays_of(s);
    const crg_position at = crg_locate(s, &a, key, hash);
    if (at.found) {
        /* A value an owning table lets go is retired through a node made
         * before the change, so that the change cannot fail. */
        crg_retire_box *box = t->release != NULL ? crg_retire_box_create(&t->allocator) : NULL;
        if (t->release != NULL && box == NULL) {
            return ENOMEM;
        }
        crg_slot *slot = &a.entries[at.index];
        void *old = LOAD_RELAXED(&slot->value);
        crg_write_begin(t);
        STORE_RELEASE(&slot->value, value);
        crg_write_end(t);
        if (box != NULL) {
            crg_retire_box_queue(box, old, t->release, t->release_context);
        }
        if (previous != NULL) {
            *previous = old;
        }
        crg_internal_check_after_write(t, __func__);
        return 0;
    }

    /* A new key. Everything that can fail happens before the table changes. */
    crg_name *name = NULL;
    if (key->has_name) {
        name = crg_name_create(t, key->name, key->name_len);
        if (name == NULL) {
            return ENOMEM;
        }
    }
    crg_record entry = { hash, key->type, name, value };
    if (s->is_static || t->count + 1 > crg_max_load(s->mask + 1)) {
        /* The new entry goes into the new array before it is published. */
        int rc = crg_grow(t, &entry);
        if (rc != 0) {
            if (name != NULL) {
                crg_name_free(name);
            }
            return rc;
        }
    } else {
        crg_write_begin(t);
        crg_place(&a, entry, at.index, at.distance);
        crg_write_end(t);
    }
    t->count++;
    if (previous != NULL) {
        *previous = NULL;
    }
    crg_internal_check_after_write(t, __func__);
    return 0;
}

int crg_reserve_locked(crg_table *t, size_t count) {
    if (t == NULL) {
        return EINVAL;
    }
    CRG_ASSERT_HELD(t->mutex);
    if (t->busy) {
        return EBUSY;
    }
    /* At most half full (3/4 of the capacity holds 1.5 * count): a table
     * filled to its load bound probes several slots per insert. */
    size_t capacity = count <= SIZE_MAX / 2 ? crg_capacity_for(count + count / 2) : 0;
    if (capacity == 0) {
        return ENOMEM;
    }
    capacity = capacity > t->min_capacity ? capacity : t->min_capacity;
    const crg_slots *s = t->head.slots;
    if (count == 0 || (!s->is_static && capacity <= s->mask + 1)) {
        return 0;
    }
    int rc = crg_resize(t, capacity, NULL);
    crg_internal_check_after_write(t, __func__);
    return rc;
}

int crg_remove_locked(crg_table *t, crg_key *key, void **value) {
    if (CRG_UNLIKELY(t == NULL || !crg_key_valid(key))) {
        return EINVAL;
    }
    CRG_ASSERT_HELD(t->mutex);
    if (CRG_UNLIKELY(t->busy)) {
        return EBUSY;
    }
    crg_slots *s = t->head.slots;
    const crg_arrays a = crg_arrays_of(s);
    const crg_position at = crg_locate(s, &a, key, crg_internal_key_hash_inline(key));
    if (!at.found) {
        return ENOENT;
    }
    crg_retire_box *box = t->release != NULL ? crg_retire_box_create(&t->allocator) : NULL;
    if (t->release != NULL && box == NULL) {
        return ENOMEM;
    }
    const size_t mask = a.mask;
    crg_record removed = crg_record_load(&a, at.index);

    /* Backward-shift: pull the rest of the run one slot towards home. */
    crg_write_begin(t);
    size_t hole = at.index;
    for (;;) {
        size_t next = (hole + 1) & mask;
        if (!crg_occupied(&a, next)) {
            break;
        }
        crg_record candidate = crg_record_load(&a, next);
        size_t distance = crg_distance(next, candidate.hash, mask);
        if (distance == 0) {
            break;
        }
        crg_record_store(&a, hole, &candidate, distance - 1);
        hole = next;
    }
    crg_record_erase(&a, hole);
    crg_write_end(t);
    t->count--;

    crg_retire_name(removed.name);
    if (box != NULL) {
        crg_retire_box_queue(box, removed.value, t->release, t->release_context);
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
            (void)crg_resize(t, target, NULL);
        }
    }
    crg_internal_check_after_write(t, __func__);
    return 0;
}

/* The forms that take the table's mutex themselves (crg_testing.h). */
#define CRG_LOCKING(t, call)              \
    do {                                  \
        if ((t) == NULL) {                \
            return EINVAL;                \
        }                                 \
        crg_mutex_lock((t)->mutex);       \
        const int rc = (call);            \
        crg_mutex_unlock((t)->mutex);     \
        return rc;                        \
    } while (0)

int crg_put(crg_table *t, crg_key *key, void *value, void **previous) {
    CRG_LOCKING(t, crg_put_locked(t, key, value, previous));
}

int crg_remove(crg_table *t, crg_key *key, void **value) {
    CRG_LOCKING(t, crg_remove_locked(t, key, value));
}

int crg_clear(crg_table *t, crg_release_fn drop, void *context) {
    CRG_LOCKING(t, crg_clear_locked(t, drop, context));
}

int crg_iterate(crg_table *t, int (*visit)(const crg_entry *, void *), void *context) {
    CRG_LOCKING(t, crg_iterate_locked(t, visit, context));
}

size_t crg_count_locked(crg_table *t) {
    if (t == NULL) {
        return 0;
    }
    CRG_ASSERT_HELD(t->mutex);
    return t->count;
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
    CRG_ASSERT_HELD(t->mutex);
    if (t->busy) {
        return EBUSY;
    }
    crg_slots *s = t->head.slots;
    if (t->release == NULL && drop != NULL) {
        const crg_arrays a = crg_arrays_of(s);
        t->busy++;
        for (size_t i = 0; i <= a.mask; i++) {
            if (crg_occupied(&a, i)) {
                drop(a.entries[i].value, context);
            }
        }
        t->busy--;
    }
    STORE_RELEASE(&t->head.slots, &crg_empty.header);
    t->count = 0;
    crg_retire_slots(s, true, t);
    crg_internal_check_after_write(t, __func__);
    return 0;
}

int crg_iterate_locked(crg_table *t, int (*visit)(const crg_entry *, void *), void *context) {
    if (t == NULL || visit == NULL) {
        return EINVAL;
    }
    CRG_ASSERT_HELD(t->mutex);
    int rc = 0;
    const crg_arrays a = crg_arrays_of(t->head.slots);
    t->busy++;
    for (size_t i = 0; i <= a.mask && rc == 0; i++) {
        if (!crg_occupied(&a, i)) {
            continue;
        }
        const crg_name *name = a.names[i];
        crg_entry entry = {
            a.entries[i].type,
            name != NULL,
            name != NULL && name->len > 0 ? crg_internal_name_bytes(name) : NULL,
            name != NULL ? name->len : 0,
            a.entries[i].value,
        };
        rc = visit(&entry, context);
    }
    t->busy--;
    return rc;
}

int crg_get_stats(crg_table *t, crg_stats *stats) {
    if (t == NULL || stats == NULL) {
        return EINVAL;
    }
    crg_mutex_lock(t->mutex);
    crg_slots *s = t->head.slots;
    const crg_arrays a = crg_arrays_of(s);
    crg_stats result = { t->count, s->is_static ? 0 : a.mask + 1, 0, 0 };
    for (size_t i = 0; i <= a.mask; i++) {
        if (crg_occupied(&a, i)) {
            size_t distance = crg_distance(i, a.hashes[i], a.mask);
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

/* ---- Invariants (tests and fuzzing) ------------------------------------- */

/* The first broken invariant of `t`'s current array, and where; the mutex is
 * held. Slot checks compare each slot with the one before it, so a run that
 * wraps past the end is checked like any other. */
static int crg_check_locked(const crg_table *t, size_t *where) {
    *where = SIZE_MAX;
    if (LOAD_RELAXED(&t->head.seq) & 1) {
        return CRG_BROKEN_SEQUENCE;
    }
    crg_slots *s = t->head.slots;
    const size_t mask = s->mask, capacity = mask + 1;
    if ((capacity & mask) != 0 || s->meta != crg_internal_meta_words(s, mask)) {
        return CRG_BROKEN_ARRAY;
    }
    if (s->is_static ? s != &crg_empty.header || t->count != 0 : capacity < t->min_capacity) {
        return CRG_BROKEN_ARRAY;
    }
    const crg_arrays a = crg_arrays_of(s);
    const uint16_t *meta = a.meta;
    const crg_slot *entries = a.entries;
    crg_name *const *names = a.names;
    const uint64_t *hashes = a.hashes;
    size_t occupied = 0;
    for (size_t i = 0; i <= mask; i++) {
        const unsigned word = LOAD_RELAXED(&meta[i]);
        const uint64_t hash = LOAD_RELAXED(&hashes[i]);
        const uint64_t type = LOAD_RELAXED(&entries[i].type);
        crg_name *name = LOAD_RELAXED(&names[i]);
        void *value = LOAD_RELAXED(&entries[i].value);
        if (word == 0) {
            if ((hash | type) != 0 || name != NULL || value != NULL) {
                *where = i;
                return CRG_BROKEN_EMPTY_SLOT;
            }
            continue;
        }
        *where = i;
        occupied++;
        crg_key key = name != NULL ? crg_key_named(type, crg_internal_name_bytes(name), name->len, 0)
                                   : crg_key_unnamed(type);
        if (value == NULL || (name == NULL && crg_internal_key_hash(&key) != hash)) {
            return CRG_BROKEN_ENTRY;
        }
        const size_t distance = crg_distance(i, hash, mask);
        if (word != crg_internal_meta(crg_internal_tag(hash, name != NULL), distance)) {
            return CRG_BROKEN_META;
        }
        if (distance > 0) {
            const size_t before = (i - 1) & mask;
            if (LOAD_RELAXED(&meta[before]) == 0 ||
                distance > crg_distance(before, LOAD_RELAXED(&hashes[before]), mask) + 1) {
                return CRG_BROKEN_ORDER;
            }
        }
        if (crg_internal_probe_entry(s, crg_internal_probe_key(&key), hash, &key) != &entries[i]) {
            return CRG_BROKEN_PROBE;
        }
    }
    *where = SIZE_MAX;
    if (occupied != t->count) {
        return CRG_BROKEN_COUNT;
    }
    if (!s->is_static && t->count > crg_max_load(capacity)) {
        return CRG_BROKEN_LOAD;
    }
    return 0;
}

int crg_check_invariants(crg_table *t, size_t *slot) {
    if (t == NULL) {
        return EINVAL;
    }
    size_t where;
    crg_mutex_lock(t->mutex);
    int broken = crg_check_locked(t, &where);
    crg_mutex_unlock(t->mutex);
    if (slot != NULL) {
        *slot = where;
    }
    return broken;
}
