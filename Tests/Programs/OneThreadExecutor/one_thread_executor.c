// A global executor of one thread, for tests that must hold when every job
// runs on one thread (Darwin's LIBDISPATCH_COOPERATIVE_POOL_STRICT=1 has no
// Linux equivalent). It uses the hooks the Swift concurrency runtime exports
// for replacing the global executor: enqueue, enqueue after a delay, enqueue
// at a deadline. A job is run with `swift_job_run` on the generic executor.
#define _GNU_SOURCE
#include "one_thread_executor.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

#define SWIFTCC __attribute__((swiftcall))

typedef SWIFTCC void (*enqueue_original)(void *job);
typedef SWIFTCC void (*delay_original)(unsigned long long delay, void *job);
typedef SWIFTCC void (*deadline_original)(long long sec, long long nsec, long long tsec, long long tnsec, int clock,
                                          void *job);

extern SWIFTCC void (*swift_task_enqueueGlobal_hook)(void *job, enqueue_original original);
extern SWIFTCC void (*swift_task_enqueueGlobalWithDelay_hook)(unsigned long long delay, void *job, delay_original original);
extern SWIFTCC void (*swift_task_enqueueGlobalWithDeadline_hook)(long long sec, long long nsec, long long tsec,
                                                                 long long tnsec, int clock, void *job,
                                                                 deadline_original original);
/* swift_job_run(Job *, SerialExecutorRef): the executor reference is two
   words, {identity, implementation}; the generic executor is {0, 0}. */
extern SWIFTCC void swift_job_run(void *job, void *identity, uintptr_t implementation);

struct entry {
    void *job;
    unsigned long long due; /* CLOCK_MONOTONIC nanoseconds; 0: now */
    struct entry *next;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t wake = PTHREAD_COND_INITIALIZER;
static struct entry *head, *tail; /* ready jobs, in order */
static struct entry *timers;      /* delayed jobs, unordered */
static pthread_t thread;
static unsigned long jobs_run;

static unsigned long long now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (unsigned long long)ts.tv_sec * 1000000000ull + (unsigned long long)ts.tv_nsec;
}

static void push(void *job, unsigned long long due) {
    struct entry *e = malloc(sizeof *e);
    if (!e) abort();
    e->job = job;
    e->due = due;
    e->next = NULL;
    pthread_mutex_lock(&lock);
    if (due == 0) {
        if (tail) tail->next = e; else head = e;
        tail = e;
    } else {
        e->next = timers;
        timers = e;
    }
    pthread_cond_signal(&wake);
    pthread_mutex_unlock(&lock);
}

static SWIFTCC void on_enqueue(void *job, enqueue_original original) {
    (void)original;
    push(job, 0);
}

static SWIFTCC void on_delay(unsigned long long delay, void *job, delay_original original) {
    (void)original;
    push(job, now_ns() + delay + 1);
}

static SWIFTCC void on_deadline(long long sec, long long nsec, long long tsec, long long tnsec, int clock, void *job,
                                deadline_original original) {
    (void)tsec; (void)tnsec; (void)original;
    struct timespec ts;
    clock_gettime(clock == 1 ? CLOCK_BOOTTIME : CLOCK_MONOTONIC, &ts);
    long long now = (long long)ts.tv_sec * 1000000000ll + ts.tv_nsec;
    long long deadline = sec * 1000000000ll + nsec;
    long long wait = deadline > now ? deadline - now : 0;
    push(job, now_ns() + (unsigned long long)wait + 1);
}

static void *run(void *unused) {
    (void)unused;
    pthread_mutex_lock(&lock);
    for (;;) {
        unsigned long long now = now_ns(), next = 0;
        for (struct entry **p = &timers; *p;) {
            struct entry *e = *p;
            if (e->due <= now) {
                *p = e->next;
                e->next = NULL;
                e->due = 0;
                if (tail) tail->next = e; else head = e;
                tail = e;
            } else {
                if (next == 0 || e->due < next) next = e->due;
                p = &e->next;
            }
        }
        if (!head) {
            if (next) {
                struct timespec ts;
                clock_gettime(CLOCK_REALTIME, &ts);
                unsigned long long at = (unsigned long long)ts.tv_sec * 1000000000ull + (unsigned long long)ts.tv_nsec
                    + (next - now);
                ts.tv_sec = (time_t)(at / 1000000000ull);
                ts.tv_nsec = (long)(at % 1000000000ull);
                pthread_cond_timedwait(&wake, &lock, &ts);
            } else {
                pthread_cond_wait(&wake, &lock);
            }
            continue;
        }
        struct entry *e = head;
        head = e->next;
        if (!head) tail = NULL;
        pthread_mutex_unlock(&lock);
        swift_job_run(e->job, NULL, 0);
        free(e);
        pthread_mutex_lock(&lock);
        jobs_run++;
    }
    return NULL;
}

int one_thread_executor_install(void) {
    if (pthread_create(&thread, NULL, run, NULL) != 0) return -1;
    swift_task_enqueueGlobal_hook = on_enqueue;
    swift_task_enqueueGlobalWithDelay_hook = on_delay;
    swift_task_enqueueGlobalWithDeadline_hook = on_deadline;
    return 0;
}

unsigned long one_thread_executor_jobs_run(void) {
    pthread_mutex_lock(&lock);
    unsigned long n = jobs_run;
    pthread_mutex_unlock(&lock);
    return n;
}

int one_thread_executor_is_current(void) {
    return pthread_equal(pthread_self(), thread);
}
