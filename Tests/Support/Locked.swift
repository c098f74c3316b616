#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A value behind a pthread mutex, for test state that several threads touch.
///
/// Tests use this rather than `Synchronization.Mutex`: on Linux, `Mutex`
/// acquires a contended lock inside the (uninstrumented) standard library, so
/// ThreadSanitizer sees no ordering between the two critical sections and
/// reports a race that is not there. ThreadSanitizer intercepts pthread
/// mutexes, so under `make tsan` every report is about the code under test.
public final class Locked<Value>: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var value: Value

    public init(_ value: Value) {
        self.value = value
        mutex = .allocate(capacity: 1)
        precondition(pthread_mutex_init(mutex, nil) == 0, "pthread_mutex_init")
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` with exclusive access to the value.
    public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
