/* Threads that may end early, and the pointer per thread. See include/crg_thread.h. */
#include "crg_thread.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>

#include "crg_private.h"

CRG_THREAD_LOCAL void *crg_internal_thread_pointer = NULL;

typedef struct crg_thread_start_info {
    void (*body)(void *);
    void *context;
} crg_thread_start_info;

static void *crg_thread_main(void *raw) {
    crg_thread_start_info info = *(crg_thread_start_info *)raw;
    crg_free(&crg_internal_default_allocator, raw);
    info.body(info.context);
    return NULL;
}

int crg_thread_start(void (*body)(void *), void *context) {
    crg_thread_start_info *info = crg_alloc(&crg_internal_default_allocator, sizeof *info);
    if (info == NULL) {
        return ENOMEM;
    }
    info->body = body;
    info->context = context;
    pthread_attr_t attributes;
    int rc = pthread_attr_init(&attributes);
    if (rc != 0) {
        crg_free(&crg_internal_default_allocator, info);
        return rc;
    }
    pthread_attr_setdetachstate(&attributes, PTHREAD_CREATE_DETACHED);
    pthread_t thread;
    rc = pthread_create(&thread, &attributes, crg_thread_main, info);
    pthread_attr_destroy(&attributes);
    if (rc != 0) {
        crg_free(&crg_internal_default_allocator, info);
    }
    return rc;
}

void crg_thread_exit(void) {
    pthread_exit(NULL);
}
