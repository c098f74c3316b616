/*
 * The writers' lock, which readers never take (crg_epoch.h): a recursive
 * mutex over a plain pthread mutex (the owner counts its own re-locks, with
 * no atomic operation), and condition variables to wait on it. The sections
 * it guards are short (never user code), so a contended lock spins briefly
 * before sleeping, watching the owner field and trying only when it looks
 * free (test-and-test-and-set: the line does not bounce between cores).
 */
#ifndef CRG_MUTEX_H
#define CRG_MUTEX_H

#include "crg_base.h"

CRG_EXTERN_C_BEGIN

/** A reference-counted recursive mutex that one or more tables share. */
typedef struct crg_mutex crg_mutex;

/** Creates a mutex with a reference count of 1, or returns NULL (out of memory). */
crg_mutex *CRG_NULLABLE crg_mutex_create(void);

/** Drops a reference; the last one destroys the mutex, which must be unlocked. NULL is ignored. */
void crg_mutex_release(crg_mutex *CRG_NULLABLE m);

/** Locks `m`; the owner may lock it again (each lock needs an unlock). */
void crg_mutex_lock(crg_mutex *CRG_NONNULL m);

/**
 * crg_mutex_lock for a section that changes nothing a thread's cache may hold
 * (crg_tcache.h): a versioned mutex does not step the version for it (a
 * nested crg_mutex_lock still does). A write in it that replaces or retires
 * what a cache may hold calls crg_tcache_invalidate first.
 */
void crg_mutex_lock_quiet(crg_mutex *CRG_NONNULL m);

/** Unlocks `m`, which the calling thread must hold. */
void crg_mutex_unlock(crg_mutex *CRG_NONNULL m);

/** Whether the calling thread holds `m`. */
bool crg_mutex_held(crg_mutex *CRG_NONNULL m);

/* ---- Conditions --------------------------------------------------------- */

/** A condition variable, waited on with a crg_mutex held: one per thing
 * waited for, so that a broadcast wakes only its waiters. */
typedef struct crg_condition crg_condition;

/** Creates a condition, or returns NULL (out of memory). */
crg_condition *CRG_NULLABLE crg_condition_create(void);

/** Destroys a condition no thread waits on. NULL is ignored. */
void crg_condition_destroy(crg_condition *CRG_NULLABLE c);

/**
 * Atomically unlocks `m`, sleeps until `c` is signalled (or spuriously:
 * re-check in a loop) and locks `m` again. Returns 0, or EDEADLK without
 * waiting unless the caller holds `m` exactly once (held recursively, it
 * would stay locked while asleep).
 */
int crg_condition_wait(crg_condition *CRG_NONNULL c, crg_mutex *CRG_NONNULL m);

/**
 * crg_condition_wait, giving up after `timeout_ns` nanoseconds: returns 0
 * (signalled, or spuriously), ETIMEDOUT (the time passed; `m` is locked
 * again all the same) or EDEADLK.
 */
int crg_condition_wait_for(crg_condition *CRG_NONNULL c, crg_mutex *CRG_NONNULL m, uint64_t timeout_ns);

/** Wakes every thread waiting on `c`. */
void crg_condition_broadcast(crg_condition *CRG_NONNULL c);

CRG_EXTERN_C_END

#endif /* CRG_MUTEX_H */
