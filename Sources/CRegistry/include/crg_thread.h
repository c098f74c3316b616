/*
 * CRegistry threads: a thread the front end starts for work that may have to
 * end early (verifying registrations, whose factories may hit a failure that
 * would otherwise stop the program), and its early exit.
 *
 * A thread that ends early skips whatever its callers still had to do: it
 * must hold no lock then. The read section it may be inside is left by the
 * thread-exit handling of crg_epoch.h, and its thread objects (crg_epoch.h)
 * are released.
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

/**
 * Ends the calling thread now (pthread_exit): the frames between here and the
 * thread's start are not returned through. Call only on a thread started by
 * crg_thread_start, holding no lock.
 */
CRG_NORETURN void crg_thread_exit(void);

CRG_EXTERN_C_END

#endif /* CRG_THREAD_H */
