/* Epoch-based reclamation and threads' records (include/crg_epoch.h). The
 * epoch mutex, a leaf lock, guards the records' list, the queue and advances. */
#include "crg_epoch.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crg_private.h"

CRG_THREAD_LOCAL crg_thread_record *crg_internal_current_record;
uint64_t crg_internal_epoch;
uint64_t crg_internal_retired;
uint64_t crg_internal_retirements;
/* Set by a thread that left a section and found the epoch mutex taken: the
 * next one to leave tries in its place. Cleared by each collection. */
static uint8_t collect_wanted;
static uint64_t collect_requests; /* how often it was set (crg_collect_requests) */

static pthread_mutex_t epoch_mutex = PTHREAD_MUTEX_INITIALIZER;
/* Every record ever made, in use or free for reuse. Under epoch_mutex. */
static crg_thread_record *records;
/* Retired objects, oldest first; epochs never decrease along the queue. */
static crg_retire_node *queue_head;
static crg_retire_node *queue_tail;

/* Set while this thread runs releases: a collect they cause returns at once. */
static CRG_THREAD_LOCAL bool collecting;

/* Detaches the record when its thread exits. */
static pthread_key_t reader_key;
static pthread_once_t reader_key_once = PTHREAD_ONCE_INIT;

_Static_assert(sizeof(crg_record_epoch) <= CRG_RECORD_LINE, "the epoch's part fits its line pair");
_Static_assert(offsetof(crg_thread_record, bytes) == CRG_RECORD_LINE, "the front end's bytes follow the epoch's line pair");
_Static_assert(offsetof(crg_thread_record, bytes) % 16 == 0, "the front end's bytes are 16-byte aligned");

/* Called with a record's bytes when its thread exits. */
static void (*exit_callback)(void *bytes);

void crg_thread_set_exit_callback(void (*callback)(void *bytes)) {
    __atomic_store_n(&exit_callback, callback, __ATOMIC_RELEASE);
}

/* A record's allocation: its size rounded up to whole line pairs. */
static const size_t record_size = (sizeof(crg_thread_record) + CRG_RECORD_LINE - 1) / CRG_RECORD_LINE * CRG_RECORD_LINE;

static void crg_detach_record(void *raw);

static void crg_make_reader_key(void) {
    if (pthread_key_create(&reader_key, crg_detach_record) != 0) {
        fputs("CRegistry: pthread_key_create failed; cannot track reader threads\n", stderr);
        abort();
    }
}

crg_thread_record *crg_internal_attach_record(void) {
    pthread_once(&reader_key_once, crg_make_reader_key);
    pthread_mutex_lock(&epoch_mutex);
    crg_thread_record *record = records;
    while (record != NULL && record->epoch.in_use) {
        record = record->epoch.next;
    }
    if (record == NULL) {
        void *unused; /* records are never freed */
        void *memory = crg_alloc_aligned(&crg_internal_default_allocator, record_size, CRG_RECORD_LINE, &unused);
        if (memory == NULL) {
            pthread_mutex_unlock(&epoch_mutex);
            fputs("CRegistry: out of memory for a thread's record\n", stderr);
            abort();
        }
        memset(memory, 0, record_size);
        record = memory;
        record->epoch.next = records;
        records = record;
    }
    record->epoch.in_use = true;
    record->epoch.depth = 0;
    record->epoch.seen_epoch = UINT64_MAX;
    record->epoch.seen_retirements = UINT64_MAX;
    record->object = NULL;
    record->object_release = NULL;
    __atomic_store_n(&record->epoch.state, 0, __ATOMIC_RELEASE);
    pthread_mutex_unlock(&epoch_mutex);
    crg_internal_current_record = record;
    pthread_setspecific(reader_key, record);
    return record;
}

/* Thread exit: release the thread's object, call the exit callback, leave any
 * open section and free the record for the next thread. */
static void crg_detach_record(void *raw) {
    crg_thread_record *record = raw;
    /* While the record is still the thread's: releasing may read. */
    void *object = record->object;
    crg_release_fn object_release = record->object_release;
    record->object = NULL;
    record->object_release = NULL;
    if (object != NULL && object_release != NULL) {
        object_release(object, NULL);
    }
    void (*callback)(void *) = __atomic_load_n(&exit_callback, __ATOMIC_ACQUIRE);
    if (callback != NULL) {
        callback(record->bytes);
    }
    record->epoch.depth = 0;
    __atomic_store_n(&record->epoch.state, 0, __ATOMIC_RELEASE);
    crg_internal_current_record = NULL;
    pthread_mutex_lock(&epoch_mutex);
    record->epoch.in_use = false;
    pthread_mutex_unlock(&epoch_mutex);
    crg_collect();
}

const void *crg_thread_record_address(void) {
    return crg_internal_current_record;
}

size_t crg_thread_record_size(void) {
    return record_size;
}

uint64_t crg_reader_leaving_collections(void) {
    crg_thread_record *record = crg_internal_current_record;
    return record != NULL ? record->epoch.leaving_collections : 0;
}

uint64_t crg_collect_requests(void) {
    return __atomic_load_n(&collect_requests, __ATOMIC_RELAXED);
}

uint64_t crg_retirements(void) {
    return __atomic_load_n(&crg_internal_retirements, __ATOMIC_RELAXED);
}

bool crg_read_active(void) {
    crg_thread_record *record = crg_internal_current_record;
    return record != NULL && record->epoch.depth > 0;
}

/* Advances the epoch by one if every thread in a section entered it in the
 * current one. The epoch mutex must be held. */
static bool crg_try_advance(void) {
    uint64_t epoch = __atomic_load_n(&crg_internal_epoch, __ATOMIC_RELAXED);
    /* Pairs with the fence in crg_read_begin: a reader whose section began
     * before this point is seen in it below. */
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    for (crg_thread_record *record = records; record != NULL; record = record->epoch.next) {
        uint64_t state = __atomic_load_n(&record->epoch.state, __ATOMIC_ACQUIRE);
        if ((state & 1) && (state >> 1) != epoch) {
            return false;
        }
    }
    __atomic_store_n(&crg_internal_epoch, epoch + 1, __ATOMIC_RELEASE);
    return true;
}

void crg_retire_embedded(crg_retire_node *node, crg_node_release_fn release) {
    node->release = release;
    node->next = NULL;
    /* Everything the caller unlinked is visible before the epoch is read:
     * pairs with the fence in crg_read_begin. */
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    pthread_mutex_lock(&epoch_mutex);
    node->epoch = __atomic_load_n(&crg_internal_epoch, __ATOMIC_RELAXED);
    if (queue_tail != NULL) {
        queue_tail->next = node;
    } else {
        queue_head = node;
    }
    queue_tail = node;
    __atomic_add_fetch(&crg_internal_retired, 1, __ATOMIC_RELAXED);
    __atomic_add_fetch(&crg_internal_retirements, 1, __ATOMIC_RELAXED);
    pthread_mutex_unlock(&epoch_mutex);
}

/* What crg_retire queues: a node around the caller's object. */
struct crg_retire_box {
    crg_retire_node node;
    crg_allocator allocator;
    crg_release_fn release;
    void *object;
    void *context;
};

crg_retire_box *crg_retire_box_create(const crg_allocator *a) {
    crg_retire_box *box = crg_alloc(a, sizeof *box);
    if (box != NULL) {
        box->allocator = *a;
    }
    return box;
}

/* Gives the box back, then releases the object (which may retire more). */
static void crg_release_box(crg_retire_node *node) {
    crg_retire_box *box = CRG_CONTAINER_OF(node, crg_retire_box, node);
    const crg_allocator allocator = box->allocator;
    const crg_release_fn release = box->release;
    void *object = box->object;
    void *context = box->context;
    crg_free(&allocator, box);
    release(object, context);
}

void crg_retire_box_queue(crg_retire_box *box, void *object, crg_release_fn release, void *context) {
    box->release = release;
    box->object = object;
    box->context = context;
    crg_retire_embedded(&box->node, crg_release_box);
}

int crg_retire_with(const crg_allocator *allocator, void *object, crg_release_fn release, void *context) {
    const crg_allocator *a = crg_allocator_or_default(allocator);
    if (object == NULL || release == NULL || a == NULL) {
        return EINVAL;
    }
    crg_retire_box *box = crg_retire_box_create(a);
    if (box == NULL) {
        return ENOMEM;
    }
    crg_retire_box_queue(box, object, release, context);
    return 0;
}

int crg_retire(void *object, crg_release_fn release, void *context) {
    return crg_retire_with(NULL, object, release, context);
}

/* crg_collect; a thread leaving its section (`leaving`) takes the mutex only
 * if it is free, and notes what it saw. */
static size_t crg_collect_from(crg_record_epoch *leaving) {
    if (collecting || __atomic_load_n(&crg_internal_retired, __ATOMIC_RELAXED) == 0) {
        return 0;
    }
    size_t released = 0;
    for (;;) {
        if (leaving == NULL) {
            pthread_mutex_lock(&epoch_mutex);
        } else if (pthread_mutex_trylock(&epoch_mutex) != 0) {
            __atomic_store_n(&collect_wanted, 1, __ATOMIC_RELAXED);
            __atomic_add_fetch(&collect_requests, 1, __ATOMIC_RELAXED);
            return released;
        }
        __atomic_store_n(&collect_wanted, 0, __ATOMIC_RELAXED);
        if (leaving != NULL) {
            leaving->leaving_collections++;
        }
        if (queue_head != NULL) {
            /* Two advances: what was retired in the current epoch is due at +2. */
            if (crg_try_advance()) {
                (void)crg_try_advance();
            }
        }
        uint64_t epoch = __atomic_load_n(&crg_internal_epoch, __ATOMIC_RELAXED);
        crg_retire_node *ready = NULL;
        crg_retire_node **ready_tail = &ready;
        size_t count = 0;
        while (queue_head != NULL && queue_head->epoch + 2 <= epoch) {
            crg_retire_node *node = queue_head;
            queue_head = node->next;
            node->next = NULL;
            *ready_tail = node;
            ready_tail = &node->next;
            count++;
        }
        if (queue_head == NULL) {
            queue_tail = NULL;
        }
        if (leaving != NULL) {
            leaving->seen_epoch = epoch;
            leaving->seen_retirements = __atomic_load_n(&crg_internal_retirements, __ATOMIC_RELAXED);
        }
        pthread_mutex_unlock(&epoch_mutex);
        if (ready == NULL) {
            return released;
        }
        collecting = true;
        while (ready != NULL) {
            crg_retire_node *node = ready;
            ready = node->next; /* before the release frees the node */
            node->release(node);
        }
        collecting = false;
        __atomic_sub_fetch(&crg_internal_retired, count, __ATOMIC_RELAXED);
        released += count;
    }
}

size_t crg_collect(void) {
    return crg_collect_from(NULL);
}

void crg_internal_collect_leaving(crg_record_epoch *reader) {
    if (__atomic_load_n(&crg_internal_epoch, __ATOMIC_RELAXED) == reader->seen_epoch &&
        __atomic_load_n(&crg_internal_retirements, __ATOMIC_RELAXED) == reader->seen_retirements &&
        __atomic_load_n(&collect_wanted, __ATOMIC_RELAXED) == 0) {
        return; /* nothing has moved since this thread last tried */
    }
    (void)crg_collect_from(reader);
}

void crg_thread_set_object(void *object, crg_release_fn release) {
    crg_thread_record *record = crg_thread_record_current();
    void *previous = record->object;
    crg_release_fn previous_release = record->object_release;
    record->object = object;
    record->object_release = release;
    if (previous != NULL && previous_release != NULL) {
        previous_release(previous, NULL);
    }
}
