import CRegistry
import ResolverTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The per-thread cache of cached instances (crg_tcache.h). Other suites may
/// take the registry's (versioned) mutex meanwhile, which moves the version
/// by two: a test that needs a stable version retries until it has one.
@Suite struct TCacheTests {
    // The cache stores and compares addresses; it never reads through them.
    let container = UnsafeMutableRawPointer(bitPattern: 0x10000)!
    let value = UnsafeMutableRawPointer(bitPattern: 0x20000)!
    let name = UnsafeMutableRawPointer(bitPattern: 0x30000)!

    /// Probes, fills and probes again inside one read section; the second
    /// probe's answer, or nil if a write moved the version in between.
    func fillAndFind(type: UInt64, name: UnsafeRawPointer? = nil, hash: UInt64 = 0) -> UnsafeMutableRawPointer?? {
        crg_read_begin()
        defer { crg_read_end() }
        let before = crg_tcache_version()
        _ = crg_tcache_find(container, type, name, hash)
        crg_tcache_fill(container, type, name, hash, value)
        let found = crg_tcache_find(container, type, name, hash)
        return crg_tcache_version() == before ? .some(found) : .none
    }

    @Test func aFilledKeyIsFoundUntilTheVersionMoves() {
        var hit: UnsafeMutableRawPointer?
        for _ in 0..<1_000 {
            if let found = fillAndFind(type: 42) {
                hit = found
                break
            }
        }
        #expect(hit == value)
        crg_tcache_invalidate()
        crg_read_begin()
        #expect(crg_tcache_find(container, 42, nil, 0) == nil, "a new version empties the cache")
        crg_read_end()
    }

    @Test func keysDifferingOnlyInTheirNameAreApart() {
        var filled = false
        for _ in 0..<1_000 where fillAndFind(type: 7, name: name, hash: 99) != nil {
            filled = true
            break
        }
        #expect(filled)
        crg_read_begin()
        #expect(crg_tcache_find(container, 7, nil, 0) == nil)
        #expect(crg_tcache_find(container, 7, name, 98) == nil)
        #expect(crg_tcache_find(container, 8, name, 99) == nil)
        crg_read_end()
    }

    /// While a versioned mutex is held the version is odd: nothing is filled,
    /// and taking it empties every thread's cache.
    @Test func nothingIsFilledWhileAVersionedMutexIsHeld() throws {
        let mutex = try #require(crg_mutex_create())
        defer { crg_mutex_release(mutex) }
        crg_mutex_set_versioned(mutex)
        crg_mutex_lock(mutex)
        #expect(crg_tcache_version() & 1 == 1)
        crg_read_begin()
        _ = crg_tcache_find(container, 5, nil, 0)
        crg_tcache_fill(container, 5, nil, 0, value)
        #expect(crg_tcache_find(container, 5, nil, 0) == nil)
        crg_read_end()
        crg_mutex_lock(mutex)   // recursion does not step the version again
        #expect(crg_tcache_version() & 1 == 1)
        crg_mutex_unlock(mutex)
        crg_mutex_unlock(mutex)
    }

    @Test func takingAVersionedMutexEmptiesTheCaches() throws {
        let mutex = try #require(crg_mutex_create())
        defer { crg_mutex_release(mutex) }
        crg_mutex_set_versioned(mutex)
        var filled = false
        for _ in 0..<1_000 where fillAndFind(type: 11) != nil {
            filled = true
            break
        }
        #expect(filled)
        crg_mutex_lock(mutex)
        crg_mutex_unlock(mutex)
        crg_read_begin()
        #expect(crg_tcache_find(container, 11, nil, 0) == nil)
        crg_read_end()
    }

    /// A thread waiting on a condition has let go of the mutex: the version
    /// is even again meanwhile, so other threads' caches keep working.
    @Test func aConditionWaitLetsGoOfTheVersion() throws {
        let mutex = try #require(crg_mutex_create())
        defer { crg_mutex_release(mutex) }
        crg_mutex_set_versioned(mutex)
        let condition = try #require(crg_condition_create())
        defer { crg_condition_destroy(condition) }
        let state = Locked((waiting: false, done: false, sawEven: false))
        // The C objects' addresses, which both threads use under the mutex.
        nonisolated(unsafe) let sharedMutex = mutex
        nonisolated(unsafe) let sharedCondition = condition
        runOnThreads(2) { index in
            if index == 0 {
                crg_mutex_lock(sharedMutex)
                state.withLock { $0.waiting = true }
                while !state.withLock({ $0.done }) {
                    _ = crg_condition_wait_for(sharedCondition, sharedMutex, 50_000_000)
                }
                crg_mutex_unlock(sharedMutex)
                return
            }
            for _ in 0..<10_000 where !state.withLock({ $0.waiting }) {
                usleep(1_000)
            }
            // The waiter holds the mutex except while it waits: keep looking
            // until the version is even (other suites may hold the registry
            // mutex for a moment too).
            for _ in 0..<10_000 where !state.withLock({ $0.sawEven }) {
                if crg_tcache_version() & 1 == 0 {
                    state.withLock { $0.sawEven = true }
                }
                usleep(100)
            }
            crg_mutex_lock(sharedMutex)
            state.withLock { $0.done = true }
            crg_condition_broadcast(sharedCondition)
            crg_mutex_unlock(sharedMutex)
        }
        #expect(state.withLock { $0.waiting && $0.sawEven })
    }
}
