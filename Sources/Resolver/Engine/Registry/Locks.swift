import CRegistry

/// A writers' mutex (`crg_mutex`: recursive, reference counted, shared by the
/// tables that use it), held for table operations only, never while user code
/// runs, and taken in one scope (`withLock`).
@frozen @usableFromInline
struct Mutex: @unchecked Sendable {
    @usableFromInline let raw: OpaquePointer

    /// A new mutex; its owner gives it up with `release()`.
    static func make() -> Mutex { Mutex(raw: allocated(crg_mutex_create())) }

    @usableFromInline
    init(raw: OpaquePointer) { self.raw = raw }

    /// Runs `body` holding the mutex.
    @inlinable
    func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        crg_mutex_lock(raw)
        defer { crg_mutex_unlock(raw) }
        return try body()
    }

    /// Runs `body` holding the mutex without stepping the threads' caches'
    /// version (`crg_mutex_lock_quiet`): a build's start and end, which add
    /// entries and step the version themselves before replacing one (T1).
    @inlinable
    func withQuietLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        crg_mutex_lock_quiet(raw)
        defer { crg_mutex_unlock(raw) }
        return try body()
    }

    /// Runs `body` (user code) with the mutex released, from inside a
    /// `withLock` that holds it once; takes it again after.
    func withoutLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        crg_mutex_unlock(raw)
        defer { crg_mutex_lock(raw) }
        return try body()
    }

    var isHeldByCurrentThread: Bool { crg_mutex_held(raw) }

    /// Gives up the owner's reference.
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

    /// As `wait(_:)`, for at most `nanoseconds`: whether the time passed (the
    /// mutex is held again all the same).
    func waitTimingOut(_ mutex: Mutex, nanoseconds: UInt64) -> Bool {
        crg_condition_wait_for(raw, mutex.raw, nanoseconds) == ETIMEDOUT
    }

    func broadcast() { crg_condition_broadcast(raw) }
}
