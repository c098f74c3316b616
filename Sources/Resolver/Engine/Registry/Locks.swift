import CRegistry
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A writers' mutex (`crg_mutex`: a recursive pthread mutex with a
/// reference count, shared by the tables that use it). Held for table
/// operations only, never while user code runs. Taken and released in one
/// scope: `withLock`.
@frozen
@usableFromInline
struct Mutex: @unchecked Sendable {
    @usableFromInline let raw: OpaquePointer

    /// A new mutex, or the program stops (out of memory). Its owner gives it
    /// up with `release()`.
    static func make() -> Mutex {
        guard let mutex = crg_mutex_create() else {
            fatalError("RESOLVER: out of memory")
        }
        return Mutex(raw: mutex)
    }

    @usableFromInline
    init(raw: OpaquePointer) {
        self.raw = raw
    }

    /// Runs `body` holding the mutex.
    @inlinable
    func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        crg_mutex_lock(raw)
        defer { crg_mutex_unlock(raw) }
        return try body()
    }

    /// Runs `body` holding the mutex, for a critical section that changes
    /// nothing the threads' caches may hold (`crg_mutex_lock_quiet`): a
    /// build's start and end, which add entries to a scope's table but
    /// neither replace nor remove one without stepping the version
    /// themselves (`ThreadCache.invalidate`). DESIGN.md, T1.
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

    /// Whether the calling thread holds it.
    var isHeldByCurrentThread: Bool {
        crg_mutex_held(raw)
    }

    /// Gives up the owner's reference.
    func release() {
        crg_mutex_release(raw)
    }

    /// Makes every critical section of this mutex step the version that
    /// validates the threads' caches (`crg_tcache.h`).
    func stepsThreadCacheVersion() {
        crg_mutex_set_versioned(raw)
    }
}

/// A condition variable waited on with a `Mutex` held (inside its
/// `withLock`). Owned by the object that declares it.
final class Condition: @unchecked Sendable {
    private let raw: OpaquePointer

    init() {
        guard let condition = crg_condition_create() else {
            fatalError("RESOLVER: out of memory")
        }
        raw = condition
    }

    deinit {
        crg_condition_destroy(raw)
    }

    /// Waits for `broadcast()`, releasing `mutex` (held once by the caller)
    /// meanwhile. False when the wait is impossible: the caller holds the
    /// mutex more than once, so waiting would keep it locked.
    func wait(_ mutex: Mutex) -> Bool {
        crg_condition_wait(raw, mutex.raw) == 0
    }

    /// As `wait(_:)`, for at most `nanoseconds`: whether the time passed
    /// (the mutex is held again all the same).
    func waitTimingOut(_ mutex: Mutex, nanoseconds: UInt64) -> Bool {
        crg_condition_wait_for(raw, mutex.raw, nanoseconds) == ETIMEDOUT
    }

    /// Wakes every waiter.
    func broadcast() {
        crg_condition_broadcast(raw)
    }
}
