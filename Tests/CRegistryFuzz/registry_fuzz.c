/*
 * libFuzzer harness for CRegistry: the input is a program of table
 * operations, run against the table and against a plain array model at the
 * same time. Any disagreement traps (and so does an inline key hash that
 * differs from xxHash's own, or a broken layout invariant: crg_check_invariants
 * runs after every operation). Allocation failures are injected on demand to
 * check that a failed operation leaves the table as it was. The input's first
 * byte chooses colliding name hashes and whether the table owns its values:
 * without a release function, replaced and removed values come back to the
 * caller; with one, every value is released exactly once, only after it left
 * the table, and replacing or removing may then fail for want of the node
 * that retires the value. The table's own memory (slot arrays, names, nodes)
 * is retired and freed by crg_collect().
 *
 * Build and run: make fuzz (FUZZ_SECONDS=60 by default).
 */
#include "crg_testing.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAX_KEYS 512
#define MAX_NAME 24

typedef struct {
    uint64_t type;
    int has_name;
    uint8_t name[MAX_NAME];
    size_t len;
    uintptr_t value;
} model_entry;

static model_entry model[MAX_KEYS];
static size_t model_count;
static int fail_next_allocation;
/* Values stored and values released, for a table that owns its values. */
static size_t values_stored;
static size_t values_released;

#define CHECK(condition) do { if (!(condition)) __builtin_trap(); } while (0)

static void *fuzz_allocate(size_t size, void *context) {
    (void)context;
    if (fail_next_allocation) {
        fail_next_allocation = 0;
        return NULL;
    }
    return malloc(size);
}

static void fuzz_deallocate(void *pointer, void *context) {
    (void)context;
    free(pointer);
}

/* Reads the input a byte at a time; past the end it reads zeros. */
typedef struct { const uint8_t *data; size_t size, at; } reader;

static uint8_t next(reader *r) {
    return r->at < r->size ? r->data[r->at++] : 0;
}

typedef struct {
    uint64_t type;
    int has_name;
    uint8_t name[MAX_NAME];
    size_t len;
} fuzz_key;

static fuzz_key read_key(reader *r) {
    fuzz_key k;
    memset(&k, 0, sizeof k);
    k.type = next(r) % 6; /* few types: many shared names */
    uint8_t shape = next(r);
    k.has_name = shape % 4 != 0;
    if (k.has_name) {
        k.len = (size_t)(shape / 4) % (MAX_NAME + 1);
        for (size_t i = 0; i < k.len; i++) {
            k.name[i] = next(r) % 3; /* tiny alphabet: includes NUL, many near-equal names */
        }
    }
    return k;
}

/* In collision mode every name of a given length shares one name hash. */
static crg_key c_key(const fuzz_key *k, int collide) {
    if (!k->has_name) {
        return crg_key_unnamed(k->type);
    }
    uint64_t hash = collide ? (uint64_t)k->len : crg_name_hash(k->name, k->len);
    return crg_key_named(k->type, k->name, k->len, hash);
}

static model_entry *model_find(const fuzz_key *k) {
    for (size_t i = 0; i < model_count; i++) {
        model_entry *e = &model[i];
        if (e->type == k->type && e->has_name == k->has_name && e->len == k->len &&
            memcmp(e->name, k->name, k->len) == 0) {
            return e;
        }
    }
    return NULL;
}

/* An owning table's release: the value has left the table and the model. */
static void release_value(void *value, void *context) {
    (void)context;
    for (size_t i = 0; i < model_count; i++) {
        CHECK(model[i].value != (uintptr_t)value);
    }
    values_released++;
}

static int visit_check(const crg_entry *entry, void *context) {
    size_t *seen = context;
    fuzz_key k;
    memset(&k, 0, sizeof k);
    k.type = entry->type;
    k.has_name = entry->has_name;
    k.len = entry->name_len;
    CHECK(k.len <= MAX_NAME);
    if (k.len) {
        memcpy(k.name, entry->name, k.len);
    }
    model_entry *e = model_find(&k);
    CHECK(e != NULL && e->value == (uintptr_t)entry->value);
    (*seen)++;
    return 0;
}

static void check_everything(crg_table *t) {
    size_t count = 0, seen = 0;
    CHECK(crg_count(t, &count) == 0 && count == model_count);
    CHECK(crg_iterate(t, visit_check, &seen) == 0 && seen == model_count);
    crg_stats stats;
    CHECK(crg_get_stats(t, &stats) == 0);
    CHECK(stats.count * 4 <= stats.capacity * 3 || (stats.capacity == 8 && stats.count <= 7));
    CHECK((stats.capacity & (stats.capacity - 1)) == 0);
    size_t slot = 0;
    CHECK(crg_check_invariants(t, &slot) == 0 && slot == SIZE_MAX);
}

/* The inline key hashes equal XXH3_64bits_withSeed: seed, type and name
 * hash from the input's first 24 bytes, under that seed and the process's. */
static void check_hashes(const uint8_t *data, size_t size) {
    uint64_t words[3] = { 0, 0, 0 };
    memcpy(words, data, size < sizeof words ? size : sizeof words);
    CHECK(crg_internal_hash_check(&words[0], words[1], words[2]) == 0);
    CHECK(crg_internal_hash_check(NULL, words[1], words[2]) == 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    check_hashes(data, size);
    reader r = { data, size, 0 };
    model_count = 0;
    fail_next_allocation = 0;
    values_stored = 0;
    values_released = 0;
    const uint8_t mode = next(&r);
    const int collide = mode & 1;
    const int owns = (mode & 2) != 0;
    crg_allocator allocator = { fuzz_allocate, fuzz_deallocate, NULL };
    crg_options options = { next(&r) % 64, NULL, &allocator, owns ? release_value : NULL, NULL };
    crg_table *t = NULL;
    if (crg_create(&t, &options) != 0) {
        return 0;
    }
    uintptr_t next_value = 1;

    while (r.at < r.size) {
        uint8_t op = next(&r);
        fail_next_allocation = (op & 0x80) != 0;
        fuzz_key k = read_key(&r);
        crg_key key = c_key(&k, collide);
        model_entry *e = model_find(&k);
        void *out = NULL;
        int rc;
        switch (op % 8) {
        case 0: case 1: case 2: { /* put */
            if (!e && model_count == MAX_KEYS) {
                break;
            }
            uintptr_t value = next_value++;
            rc = crg_put(t, &key, (void *)value, &out);
            if (rc == ENOMEM) {
                CHECK(e == NULL || owns); /* replacing allocates only a node to retire the old value */
                check_everything(t);
                break;
            }
            CHECK(rc == 0);
            values_stored++;
            if (e) {
                CHECK((uintptr_t)out == e->value);
                e->value = value;
            } else {
                CHECK(out == NULL);
                model_entry *fresh = &model[model_count++];
                fresh->type = k.type;
                fresh->has_name = k.has_name;
                fresh->len = k.len;
                memcpy(fresh->name, k.name, sizeof fresh->name);
                fresh->value = value;
            }
            break;
        }
        case 3: case 4: /* get */
            rc = crg_get(t, &key, &out);
            CHECK(e ? (rc == 0 && (uintptr_t)out == e->value) : rc == ENOENT);
            break;
        case 5: case 6: /* remove */
            rc = crg_remove(t, &key, &out);
            if (e && rc == ENOMEM) {
                CHECK(owns); /* only the node that retires the value is allocated */
                check_everything(t);
            } else if (e) {
                CHECK(rc == 0 && (uintptr_t)out == e->value);
                *e = model[--model_count];
            } else {
                CHECK(rc == ENOENT);
            }
            break;
        default: /* clear or reserve now and then, otherwise a full check */
            if (k.type == 0 && !k.has_name) {
                CHECK(crg_clear(t, NULL, NULL) == 0);
                model_count = 0;
            } else if (k.type == 1 && !k.has_name) { /* fails whole or not at all */
                crg_mutex *m = crg_table_mutex(t);
                crg_mutex_lock(m);
                rc = crg_reserve_locked(t, model_count + 4u * next(&r));
                crg_mutex_unlock(m);
                CHECK(rc == 0 || rc == ENOMEM);
            }
            check_everything(t);
            break;
        }
        fail_next_allocation = 0;
        size_t slot = 0;
        CHECK(crg_check_invariants(t, &slot) == 0 && slot == SIZE_MAX);
    }
    check_everything(t);
    crg_destroy(t);
    model_count = 0;
    crg_collect(); /* frees what the table retired: the sanitizers see every free */
    CHECK(!owns || values_released == values_stored);
    return 0;
}
