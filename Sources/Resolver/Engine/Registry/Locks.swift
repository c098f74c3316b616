import CRegistry

/// A writers' mutex (`crg_mutex`: recursive, counted, shared by the tables
/// that use it), taken in one scope (`withLock`), never while user code runs.
@frozen @usableFromInline
struct Mutex: @unchecked Sendable {
    @usableFromInline let raw: OpaquePointer

    /// A new mutex; its owner gives it up with `release()`.
    static func make() -> Mutex { Mutex(raw: allocated(crg_mutex_create())) }
    @usableFromInline init(raw: OpaquePointer) { self.raw = raw }

    @inlinable
    func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        crg_mutex_lock(raw)
        defer { crg_mutex_unlock(raw) }
        return try body()
    }

    /// `withLock` without stepping the threads' caches' version: a build's
    /// start and end, which only add entries (T1).
    @inlinable
    func withQuietLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        crg_mutex_lock_quiet(raw)
        defer { crg_mutex_unlock(raw) }
        return try body()
    }

    /// Runs `body` (user code) unlocked, inside a `withLock` that holds it once.
    func withoutLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        crg_mutex_unlock(raw)
        defer { crg_mutex_lock(raw) }
        return try body()
    }

    var isHeldByCurrentThread: Bool { crg_mutex_held(raw) }
    func release() { crg_mutex_release(raw) }
    /// Makes every critical section step the threads' caches' version (T1).
    func stepsThreadCacheVersion() { crg_mutex_set_versioned(raw) }
}

/// A condition variable waited on inside a `Mutex`'s `withLock`, owned by the
/// object that declares it.
final class Condition: @unchecked Sendable {
    private let raw = allocated(crg_condition_create())
    deinit { crg_condition_destroy(raw) }

    /// Waits for `broadcast()`, releasing `mutex` (held once) meanwhile. False
    /// when the caller holds it more than once: waiting would keep it locked.
    func wait(_ mutex: Mutex) -> Bool { crg_condition_wait(raw, mutex.raw) == 0 }

    /// `wait(_:)` for at most `nanoseconds`: whether they passed.
    func waitTimingOut(_ mutex: Mutex, nanoseconds: UInt64) -> Bool {
        crg_condition_wait_for(raw, mutex.raw, nanoseconds) == ETIMEDOUT
    }

    func broadcast() { crg_condition_broadcast(raw) }
}
