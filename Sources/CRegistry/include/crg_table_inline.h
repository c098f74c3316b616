/*
 * Private: the table's layout and its inline lookup, crg_find (a lookup
 * probes without a call). Include crg_table.h, not this file.
 */
#ifndef CRG_TABLE_INLINE_H
#define CRG_TABLE_INLINE_H

#include "crg_epoch.h"
#include <errno.h>
#include <string.h>

CRG_EXTERN_C_BEGIN

/* An owned copy of a name: its length, then its bytes (a short name is one
 * cache line), after what only writers use (table.c). "No name" is NULL. */
typedef struct crg_name {
    size_t len;
} crg_name;

static inline const uint8_t *CRG_NONNULL crg_internal_name_bytes(const crg_name *CRG_NONNULL name) {
    return (const uint8_t *)(const void *)(name + 1);
}

/*
 * A slot array: this header, then four arrays of `capacity` (a power of two)
 * elements, each starting on a cache line:
 * - entries: type and value, 16 bytes;
 * - names:   a named entry's owned name (NULL: no name);
 * - hashes:  full key hashes, for writers and probes past 254 slots from home;
 * - meta:    16 bits a slot: 0 when empty, else (min(distance + 1, 255) << 8)
 *            | crg_internal_tag(hash, named), distance being the entry's from
 *            its home slot. A probe reads meta, and an entry only where the
 *            word is what the key would store there (1 wrong match in 128).
 * An empty slot is zero in all four. The header never changes once
 * published. Retired whole: alone after a move, with names and values when
 * cleared or destroyed.
 */
typedef struct crg_slot {
    uint64_t type;
    void *CRG_NULLABLE value;
} crg_slot;

typedef struct crg_slots {
    crg_retire_node retire;
    crg_allocator allocator;
    crg_release_fn CRG_NULLABLE release; /* the values' release, for a retirement with contents */
    void *CRG_NULLABLE release_context;
    void *CRG_NULLABLE memory;           /* what was allocated (header and arrays are aligned inside it) */
    size_t mask;                         /* capacity - 1 */
    uint16_t *CRG_NONNULL meta;          /* = crg_internal_meta_words(s, mask) */
    bool owns_contents;
    bool is_static;
} crg_slots;

static inline CRG_ALWAYS_INLINE crg_slot *CRG_NONNULL crg_internal_entries(crg_slots *CRG_NONNULL s) {
    return (crg_slot *)(void *)(s + 1);
}

static inline CRG_ALWAYS_INLINE crg_name *CRG_NULLABLE *CRG_NONNULL crg_internal_names(crg_slots *CRG_NONNULL s, size_t mask) {
    return (crg_name **)(void *)(crg_internal_entries(s) + mask + 1);
}

static inline CRG_ALWAYS_INLINE uint64_t *CRG_NONNULL crg_internal_hashes(crg_slots *CRG_NONNULL s, size_t mask) {
    return (uint64_t *)(void *)(crg_internal_names(s, mask) + mask + 1);
}

static inline CRG_ALWAYS_INLINE uint16_t *CRG_NONNULL crg_internal_meta_words(crg_slots *CRG_NONNULL s, size_t mask) {
    /* = crg_internal_hashes(s, mask) + mask + 1, as one multiply-add. */
    return (uint16_t *)(void *)((uint8_t *)(void *)(s + 1) +
                                (mask + 1) * (sizeof(crg_slot) + sizeof(crg_name *) + sizeof(uint64_t)));
}

/* What readers read: the first member of every crg_table (table.c). */
typedef struct crg_table_head {
    uint64_t seq;                  /* odd while a writer moves slots */
    crg_slots *CRG_NONNULL slots;  /* the current array */
} crg_table_head;

enum {
    CRG_INTERNAL_READ_ATTEMPTS = 16, /* failed validations before crg_find takes the mutex */
    CRG_INTERNAL_FAR = 255 /* meta's saturated distance + 1: a probe past it goes on out of line */
};

/* ---- Key hashes: XXH3-64, inline ---------------------------------------- */

/*
 * A key's hash is XXH3_64bits_withSeed over its type's 8 bytes (no name, seed
 * S) or over {type, name hash} (seed S + 1), S the process's seed: a few
 * multiplies, with what depends on the seed and XXH3's secret computed once
 * (table.c). Bit-identical to the library's (the tests compare them); input
 * words are read little-endian, as XXH3 reads them.
 */
typedef struct crg_hash_keys {
    uint64_t unnamed_flip;   /* 8 bytes, seed S:      (secret[8..16) ^ secret[16..24)) - (S ^ (swap32(S) << 32)) */
    uint64_t named_flip_lo;  /* 16 bytes, seed S + 1: (secret[24..32) ^ secret[32..40)) + (S + 1) */
    uint64_t named_flip_hi;  /*                      (secret[40..48) ^ secret[48..56)) - (S + 1) */
} crg_hash_keys;

/* Written once, before the first table exists (table.c, crg_seed_init). */
extern crg_hash_keys crg_internal_hash_keys;

static inline CRG_ALWAYS_INLINE uint64_t crg_internal_le64(uint64_t word) {
#if defined(__BYTE_ORDER__) && defined(__ORDER_BIG_ENDIAN__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    return __builtin_bswap64(word);
#else
    return word;
#endif
}

/* XXH3_len_4to8_64b for 8 bytes, then XXH3_rrmxmx. */
static inline CRG_ALWAYS_INLINE uint64_t crg_internal_hash_unnamed(const crg_hash_keys *CRG_NONNULL keys, uint64_t type) {
    const uint64_t input = crg_internal_le64(type);
    /* input2 + (input1 << 32), input1/input2 the low/high 32 bits. */
    uint64_t h = ((input >> 32) | (input << 32)) ^ keys->unnamed_flip;
    h ^= ((h << 49) | (h >> 15)) ^ ((h << 24) | (h >> 40));
    h *= 0x9FB21C651E98DF25ULL;
    h ^= (h >> 35) + 8;
    h *= 0x9FB21C651E98DF25ULL;
    return h ^ (h >> 28);
}

/* XXH3_len_9to16_64b for 16 bytes, then XXH3_avalanche. */
static inline CRG_ALWAYS_INLINE uint64_t crg_internal_hash_named(const crg_hash_keys *CRG_NONNULL keys, uint64_t type,
                                                                 uint64_t name_hash) {
    const uint64_t lo = crg_internal_le64(type) ^ keys->named_flip_lo;
    const uint64_t hi = crg_internal_le64(name_hash) ^ keys->named_flip_hi;
#if defined(__SIZEOF_INT128__)
    const unsigned __int128 product = (unsigned __int128)lo * hi;
    const uint64_t fold = (uint64_t)product ^ (uint64_t)(product >> 64);
#else
    const uint64_t lo_lo = (lo & 0xFFFFFFFFu) * (hi & 0xFFFFFFFFu);
    const uint64_t hi_lo = (lo >> 32) * (hi & 0xFFFFFFFFu);
    const uint64_t lo_hi = (lo & 0xFFFFFFFFu) * (hi >> 32);
    const uint64_t hi_hi = (lo >> 32) * (hi >> 32);
    const uint64_t cross = (lo_lo >> 32) + (hi_lo & 0xFFFFFFFFu) + lo_hi;
    const uint64_t upper = (hi_lo >> 32) + (cross >> 32) + hi_hi;
    const uint64_t lower = (cross << 32) | (lo_lo & 0xFFFFFFFFu);
    const uint64_t fold = lower ^ upper;
#endif
    uint64_t h = 16 + __builtin_bswap64(lo) + hi + fold;
    h ^= h >> 37;
    h *= 0x165667919E3779F9ULL;
    return h ^ (h >> 32);
}

/* The key's stored hash (0 is remapped to 1: 0 means "not hashed yet"). */
static inline CRG_ALWAYS_INLINE uint64_t crg_internal_hash_key(const crg_hash_keys *CRG_NONNULL keys,
                                                               const crg_key *CRG_NONNULL key) {
    uint64_t hash = key->has_name ? crg_internal_hash_named(keys, key->type, key->name_hash)
                                  : crg_internal_hash_unnamed(keys, key->type);
    return hash != 0 ? hash : 1;
}

/* The key's hash, computed and kept in the key the first time. */
static inline CRG_ALWAYS_INLINE uint64_t crg_internal_key_hash_inline(crg_key *CRG_NONNULL key) {
    if (key->hash == 0) {
        key->hash = crg_internal_hash_key(&crg_internal_hash_keys, key);
    }
    return key->hash;
}

/* Out of line: a probe under the mutex for a reader that keeps meeting
 * writers; the end of a probe past the saturated distance. */
int crg_internal_find_locked(crg_table *CRG_NONNULL t, crg_key *CRG_NONNULL key, void *CRG_NULLABLE *CRG_NULLABLE value);
ptrdiff_t crg_internal_probe_far(crg_slots *CRG_NONNULL s, const crg_key *CRG_NONNULL key, uint64_t hash, size_t index,
                                 size_t distance);

/* ---- Probing ------------------------------------------------------------ */

static inline size_t crg_internal_distance(size_t index, uint64_t hash, size_t mask) {
    return (index - (size_t)hash) & mask;
}

/* The lower byte of a slot's meta word: the hash's top 7 bits and whether the
 * key has a name, so that a named entry never passes for an unnamed key. */
static inline CRG_ALWAYS_INLINE unsigned crg_internal_tag(uint64_t hash, bool named) {
    return ((unsigned)(hash >> 56) & 0xFEu) | (named ? 1u : 0u);
}

/* The meta word of an entry with this tag at this distance from home. */
static inline CRG_ALWAYS_INLINE uint16_t crg_internal_meta(unsigned tag, size_t distance) {
    return (uint16_t)(((distance + 1 < CRG_INTERNAL_FAR ? distance + 1 : CRG_INTERNAL_FAR) << 8) | tag);
}

/* Equal bytes? 4 to 16 bytes (most names) by two pairs of overlapping loads:
 * no call to memcmp, no length-dependent branch. */
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

/* What every probe step compares, copied out of the crg_key so that it
 * stays in registers across the atomic loads (the name is read from the key
 * only when a named entry matches). */
typedef struct crg_probe_key {
    uint64_t type;
    bool has_name;
} crg_probe_key;

static inline CRG_ALWAYS_INLINE crg_probe_key crg_internal_probe_key(const crg_key *CRG_NONNULL key) {
    crg_probe_key probe = { key->type, key->has_name };
    return probe;
}

/* Whether the entry at `index`, whose meta word matched, holds `key`
 * (`original`: the key it was copied from). */
static inline CRG_ALWAYS_INLINE bool crg_internal_entry_matches(crg_slots *CRG_NONNULL s, size_t mask, size_t index,
                                                                crg_probe_key key, const crg_key *CRG_NONNULL original) {
    if (__atomic_load_n(&crg_internal_entries(s)[index].type, __ATOMIC_RELAXED) != key.type) {
        return false;
    }
    if (!key.has_name) {
        return true; /* the tag says the entry has no name */
    }
    const crg_name *stored = __atomic_load_n(&crg_internal_names(s, mask)[index], __ATOMIC_ACQUIRE);
    return stored != NULL && stored->len == original->name_len &&
           crg_internal_bytes_equal(crg_internal_name_bytes(stored), (const uint8_t *)original->name, stored->len);
}

/* The entry of `key` (copied from `original`) in `s`, or NULL. Safe against
 * a concurrent writer (atomic reads; it ends within 256 slots, the far probe
 * within the capacity), but meaningful only once the sequence validates it. */
static inline CRG_ALWAYS_INLINE crg_slot *CRG_NULLABLE crg_internal_probe_entry(crg_slots *CRG_NONNULL s, crg_probe_key key,
                                                                               uint64_t hash,
                                                                               const crg_key *CRG_NONNULL original) {
    const size_t mask = s->mask;
    const uint16_t *meta = s->meta;
    size_t index = (size_t)hash & mask;
    /* No prefetch of the entry or name at home: a miss never needs them, and
     * prefetching them cost misses more than it saved hits. */
    /* At distance d from home the key's word would be `want`; a word below
     * `limit`, (d + 1) << 8, is an empty slot or an entry closer to its home:
     * the key is absent. Where meta saturates, a word below the limit sends
     * the probe out of line, on with exact distances. */
    unsigned want = (1u << 8) | crg_internal_tag(hash, key.has_name);
    unsigned limit = 1u << 8;
    for (;;) {
        const unsigned word = __atomic_load_n(&meta[index], __ATOMIC_RELAXED);
        if (word == want && crg_internal_entry_matches(s, mask, index, key, original)) {
            return &crg_internal_entries(s)[index];
        }
        if (word < limit) {
            if (CRG_UNLIKELY(limit >= (unsigned)CRG_INTERNAL_FAR << 8)) {
                /* The distance from the index: a long run fills a table far
                 * larger than 256 slots, so it does not wrap. */
                ptrdiff_t far = crg_internal_probe_far(s, original, hash, index, crg_internal_distance(index, hash, mask));
                return far >= 0 ? &crg_internal_entries(s)[far] : NULL;
            }
            return NULL;
        }
        want += 1u << 8;
        limit += 1u << 8;
        index = (index + 1) & mask;
    }
}

static inline CRG_ALWAYS_INLINE int crg_find(crg_table *CRG_NULLABLE t, crg_key *CRG_NULLABLE key, void *CRG_NULLABLE *CRG_NULLABLE value) {
    if (CRG_UNLIKELY(t == NULL || key == NULL || (key->has_name && key->name == NULL && key->name_len > 0))) {
        return EINVAL;
    }
    const uint64_t hash = crg_internal_key_hash_inline(key);
    const crg_probe_key probe = crg_internal_probe_key(key);
    crg_table_head *head = (crg_table_head *)(void *)t;
    for (int attempt = 0; attempt < CRG_INTERNAL_READ_ATTEMPTS; attempt++) {
        uint64_t before = __atomic_load_n(&head->seq, __ATOMIC_ACQUIRE);
        if (CRG_LIKELY((before & 1) == 0)) {
            crg_slots *s = __atomic_load_n(&head->slots, __ATOMIC_ACQUIRE);
            crg_slot *entry = crg_internal_probe_entry(s, probe, hash, key);
            void *found = entry != NULL ? __atomic_load_n(&entry->value, __ATOMIC_ACQUIRE) : NULL;
            __atomic_thread_fence(__ATOMIC_ACQUIRE);
            if (CRG_LIKELY(__atomic_load_n(&head->seq, __ATOMIC_RELAXED) == before)) {
                if (entry == NULL) {
                    return ENOENT;
                }
                if (value != NULL) {
                    *value = found;
                }
                return 0;
            }
        }
        crg_cpu_relax();
    }
    return crg_internal_find_locked(t, key, value);
}

CRG_EXTERN_C_END

#endif /* CRG_TABLE_INLINE_H */
