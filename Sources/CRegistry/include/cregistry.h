/*
 * CRegistry: the C core under the Resolver front end.
 *
 * - crg_table.h     an xxHash-keyed Robin Hood table, keyed by (type
 *                   identity, name), searched by readers without a lock.
 * - crg_container.h containers: tables with children searched depth first.
 * - crg_epoch.h     read sections and deferred release (epoch-based
 *                   reclamation): how readers stay lock-free and safe.
 * - crg_thread_record.h, crg_tcache.h  what the library keeps per thread:
 *                   its record, the front end's bytes in it, its cache of
 *                   lookups.
 * - crg_mutex.h     the writers' recursive mutex and its condition variables.
 * - crg_atomic.h    atomic cells through which the front end publishes state.
 * - crg_thread.h    a thread for work that may end early, its early exit,
 *                   and a pointer per thread.
 *
 * What only tests, the fuzzer and benchmarks call is in crg_testing.h, which
 * this header does not include. The design, its invariants and the
 * reclamation argument: DESIGN.md at the repository root.
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
