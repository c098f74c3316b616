#ifndef ONE_THREAD_EXECUTOR_H
#define ONE_THREAD_EXECUTOR_H

#ifdef __cplusplus
extern "C" {
#endif

/// Installs the Swift runtime's global-executor hooks so that every job the
/// global executor would run, timers included, runs on one thread of its
/// own, in order. Call once, before the first task starts. Returns 0, or -1
/// if the thread could not be started.
int one_thread_executor_install(void);

/// Jobs run so far on the executor's thread.
unsigned long one_thread_executor_jobs_run(void);

/// Whether the calling thread is the executor's thread.
int one_thread_executor_is_current(void);

#ifdef __cplusplus
}
#endif

#endif
