/*
 * Threads: a thread for work that may have to end early (a failure that
 * ends the thread rather than the process), its early exit, which leaves its
 * read section and releases its object (crg_thread_record.h), and a pointer
 * per thread for the front end.
 */
#ifndef CRG_THREAD_H
#define CRG_THREAD_H

#include "crg_base.h"

CRG_EXTERN_C_BEGIN

/**
 * Starts a detached thread running `body(context)`. Returns 0, or the error
 * of pthread_create (EAGAIN: no resources for another thread).
 */
int crg_thread_start(void (*CRG_NONNULL body)(void *CRG_NULLABLE context), void *CRG_NULLABLE context);

/** Ends the calling thread now (pthread_exit), skipping what its callers had
 * still to do: only on a thread crg_thread_start started, holding no lock. */
CRG_NORETURN void crg_thread_exit(void);

/** Private: the calling thread's pointer. */
extern CRG_THREAD_LOCAL void *CRG_NULLABLE crg_internal_thread_pointer;

/** The calling thread's pointer, NULL until crg_thread_pointer_exchange sets
 * it: one thread-local load. The library never reads, retains, releases or
 * clears it. */
static inline CRG_ALWAYS_INLINE void *CRG_NULLABLE crg_thread_pointer(void) {
    return crg_internal_thread_pointer;
}

/** Sets the calling thread's pointer; returns the one it replaces. */
static inline CRG_ALWAYS_INLINE void *CRG_NULLABLE crg_thread_pointer_exchange(void *CRG_NULLABLE pointer) {
    void *previous = crg_internal_thread_pointer;
    crg_internal_thread_pointer = pointer;
    return previous;
}

CRG_EXTERN_C_END

#endif /* CRG_THREAD_H */
