/*
 * CRegistry: the C core under the Resolver front end (DESIGN.md).
 *
 * - crg_table.h      a Robin Hood table keyed by (type identity, name),
 *                    searched by readers without a lock.
 * - crg_container.h  tables with children searched depth first.
 * - crg_epoch.h      read sections and deferred release.
 * - crg_thread_record.h, crg_tcache.h  a thread's record: the front end's
 *                    bytes, its object, its cache of lookups.
 * - crg_mutex.h      the writers' recursive mutex and its conditions.
 * - crg_atomic.h     atomic cells through which the front end publishes.
 * - crg_thread.h     threads that may end early, and a pointer per thread.
 * - crg_testing.h    (not included) what only tests and benchmarks call.
 */
#ifndef CREGISTRY_H
#define CREGISTRY_H

#include "crg_base.h"
#include "crg_atomic.h"
#include "crg_epoch.h"
#include "crg_mutex.h"
#include "crg_table.h"
#include "crg_tcache.h"
#include "crg_container.h"
#include "crg_thread.h"

#endif /* CREGISTRY_H */
