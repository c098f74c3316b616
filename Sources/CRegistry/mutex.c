/* The writers' recursive mutex and its conditions. See include/crg_mutex.h. */
#if defined(__linux__) && !defined(_GNU_SOURCE)
#define _GNU_SOURCE
#endif
#include "crg_mutex.h"
#include "crg_tcache.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "crg_private.h"

/* What every lock and unlock writes shares one cache line (the struct starts
 * on a 64-byte boundary): under contention one line moves between cores. */
struct crg_mutex {
    pthread_mutex_t mutex;
    /* The holder's identity (the address of a thread-local), or NULL: written
     * by the holder, read by anyone (atomically), by the holder to recognise
     * recursion, by others to decide whether to spin or to try. */
    const void *owner;
    unsigned depth; /* the holder's */
    /* Whether this holding has stepped the version (odd), from the first
     * stepping acquisition on; the outermost release steps it back. */
    bool stepped;
    size_t references;
    bool versioned; /* taking it steps the caches' version (crg_tcache.h) */
    crg_allocator allocator;
    void *memory;   /* what was allocated: the mutex starts on a cache line inside it */
};

struct crg_condition {
    pthread_cond_t condition;
};

enum { CRG_MUTEX_ALIGN = 64 };

/* One byte per thread whose address identifies the thread. */
static CRG_THREAD_LOCAL char crg_thread_identity;

static inline const void *crg_self(void) {
    return &crg_thread_identity;
}

crg_mutex *crg_internal_mutex_create(const crg_allocator *a) {
    void *memory = NULL;
    crg_mutex *m = crg_alloc_aligned(a, sizeof(crg_mutex), CRG_MUTEX_ALIGN, &memory);
    if (m == NULL) {
        return NULL;
    }
    if (pthread_mutex_init(&m->mutex, NULL) != 0) {
        crg_free(a, memory);
        return NULL;
    }
    m->owner = NULL;
    m->depth = 0;
    m->stepped = false;
    m->references = 1;
    m->versioned = false;
    m->allocator = *a;
    m->memory = memory;
    return m;
}

crg_mutex *crg_mutex_create(void) {
    return crg_internal_mutex_create(&crg_internal_default_allocator);
}

crg_mutex *crg_mutex_retain(crg_mutex *m) {
    if (m != NULL) {
        __atomic_add_fetch(&m->references, 1, __ATOMIC_RELAXED);
    }
    return m;
}

void crg_mutex_release(crg_mutex *m) {
    if (m != NULL && __atomic_sub_fetch(&m->references, 1, __ATOMIC_ACQ_REL) == 0) {
        pthread_mutex_destroy(&m->mutex);
        const crg_allocator allocator = m->allocator;
        crg_free(&allocator, m->memory);
    }
}

/* How often a contended lock watches the owner before it sleeps: a brief spin
 * usually wins a short section's lock without a futex round trip. */
enum { CRG_SPINS = 100 };

/* The holder makes the version odd (a write may be under way), once per
 * holding, before anything it retires (crg_retire begins with a full fence). */
static inline void crg_mutex_step(crg_mutex *m) {
    if (!m->stepped && __atomic_load_n(&m->versioned, __ATOMIC_RELAXED)) {
        m->stepped = true;
        __atomic_add_fetch(&crg_internal_tcache_line.version, 1, __ATOMIC_SEQ_CST);
    }
}

static inline void crg_mutex_acquired(crg_mutex *m, const void *self, bool step) {
    __atomic_store_n(&m->owner, self, __ATOMIC_RELAXED);
    m->depth = 1;
    m->stepped = false;
    if (step) {
        crg_mutex_step(m);
    }
}

/* Before the holder lets go (unlock or wait): whether it had stepped. */
static inline bool crg_mutex_releasing(crg_mutex *m) {
    bool stepped = m->stepped;
    if (stepped) {
        /* Even again: what the holder changed is published. */
        m->stepped = false;
        __atomic_add_fetch(&crg_internal_tcache_line.version, 1, __ATOMIC_RELEASE);
    }
    return stepped;
}

void crg_mutex_set_versioned(crg_mutex *m) {
    __atomic_store_n(&m->versioned, true, __ATOMIC_RELAXED);
}

static inline void crg_mutex_lock_stepping(crg_mutex *m, bool step) {
    const void *self = crg_self();
    const void *owner = __atomic_load_n(&m->owner, __ATOMIC_RELAXED);
    if (owner == self) {
        /* Only this thread writes owner = self, so seeing it means we hold it. */
        m->depth++;
        if (step) {
            crg_mutex_step(m);
        }
        return;
    }
    /* Test and test-and-set: read until the lock looks free, then try. */
    for (int i = 0; i < CRG_SPINS; i++, owner = __atomic_load_n(&m->owner, __ATOMIC_RELAXED)) {
        if (owner == NULL && pthread_mutex_trylock(&m->mutex) == 0) {
            crg_mutex_acquired(m, self, step);
            return;
        }
        crg_cpu_relax();
    }
    pthread_mutex_lock(&m->mutex);
    crg_mutex_acquired(m, self, step);
}

void crg_mutex_lock(crg_mutex *m) {
    crg_mutex_lock_stepping(m, true);
}

void crg_mutex_lock_quiet(crg_mutex *m) {
    crg_mutex_lock_stepping(m, false);
}

bool crg_mutex_trylock(crg_mutex *m) {
    const void *self = crg_self();
    if (__atomic_load_n(&m->owner, __ATOMIC_RELAXED) == self) {
        m->depth++;
        crg_mutex_step(m);
        return true;
    }
    if (pthread_mutex_trylock(&m->mutex) == 0) {
        crg_mutex_acquired(m, self, true);
        return true;
    }
    return false;
}

void crg_mutex_unlock(crg_mutex *m) {
    if (--m->depth == 0) {
        crg_mutex_releasing(m);
        __atomic_store_n(&m->owner, NULL, __ATOMIC_RELAXED);
        pthread_mutex_unlock(&m->mutex);
    }
}

void crg_internal_check_failed(const char *what, const char *function, size_t detail) {
    fprintf(stderr, "CRegistry: internal check failed in %s: %s (%zu)\n", function, what, detail);
    abort();
}

bool crg_mutex_held(crg_mutex *m) {
    return __atomic_load_n(&m->owner, __ATOMIC_RELAXED) == crg_self();
}

crg_condition *crg_condition_create(void) {
    crg_condition *c = crg_alloc(&crg_internal_default_allocator, sizeof *c);
    if (c == NULL) {
        return NULL;
    }
    if (pthread_cond_init(&c->condition, NULL) != 0) {
        crg_free(&crg_internal_default_allocator, c);
        return NULL;
    }
    return c;
}

void crg_condition_destroy(crg_condition *c) {
    if (c != NULL) {
        pthread_cond_destroy(&c->condition);
        crg_free(&crg_internal_default_allocator, c);
    }
}

/* Waits on `c`, `m` held exactly once, until signalled or `deadline` (NULL:
 * none) passes. */
static int crg_condition_wait_until(crg_condition *c, crg_mutex *m, const struct timespec *deadline) {
    const void *self = crg_self();
    if (__atomic_load_n(&m->owner, __ATOMIC_RELAXED) != self || m->depth != 1) {
        return EDEADLK;
    }
    m->depth = 0;
    bool stepped = crg_mutex_releasing(m);
    __atomic_store_n(&m->owner, NULL, __ATOMIC_RELAXED);
    int rc = deadline != NULL ? pthread_cond_timedwait(&c->condition, &m->mutex, deadline)
                              : pthread_cond_wait(&c->condition, &m->mutex);
    crg_mutex_acquired(m, self, stepped);
    return rc == ETIMEDOUT ? ETIMEDOUT : 0;
}

int crg_condition_wait(crg_condition *c, crg_mutex *m) {
    return crg_condition_wait_until(c, m, NULL);
}

int crg_condition_wait_for(crg_condition *c, crg_mutex *m, uint64_t timeout_ns) {
    /* The realtime clock: every platform's pthread_cond_timedwait takes it. */
    struct timespec deadline;
    clock_gettime(CLOCK_REALTIME, &deadline);
    uint64_t nanoseconds = (uint64_t)deadline.tv_nsec + timeout_ns % 1000000000u;
    deadline.tv_sec += (time_t)(timeout_ns / 1000000000u + nanoseconds / 1000000000u);
    deadline.tv_nsec = (long)(nanoseconds % 1000000000u);
    return crg_condition_wait_until(c, m, &deadline);
}

void crg_condition_broadcast(crg_condition *c) {
    pthread_cond_broadcast(&c->condition);
}
