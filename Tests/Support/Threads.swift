#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// The one way tests start threads: pthreads, which ThreadSanitizer follows
// (the start and the join are ordering points it sees). Nothing here uses
// Foundation, so the C tests and the programs can use it too.

/// Runs `body(index)` on `count` new threads at once and waits for them all.
///
/// The bodies start together: each thread waits until all `count` have been
/// created, so they overlap as much as the scheduler lets them.
public func runOnThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
    let together = startingTogether(count, body)
    let threads = (0..<count).map { index in spawn { together(index) } }
    for thread in threads { pthread_join(thread, nil) }
}

/// Runs `body(index)` on `count` new threads at once, as `runOnThreads(_:_:)`
/// does, and waits at most `seconds` for them all: false if some had not
/// finished by then (they are left running, so the test fails instead of
/// hanging).
public func runOnThreads(_ count: Int, within seconds: Double,
                         _ body: @escaping @Sendable (Int) -> Void) -> Bool {
    let together = startingTogether(count, body)
    let threads = (0..<count).map { index in startThread { together(index) } }
    let deadline = ContinuousClock.now + .seconds(seconds)
    return threads.allSatisfy { $0.finished(before: deadline) }
}

/// Starts `body` on a new thread and returns at once; the returned handle
/// tells whether it has finished.
@discardableResult
public func startThread(_ body: @escaping @Sendable () -> Void) -> StartedThread {
    let started = StartedThread()
    pthread_detach(spawn {
        body()
        started.done.withLock { $0 = true }
    })
    return started
}

/// A thread `startThread` started.
public final class StartedThread: Sendable {
    fileprivate let done = Locked(false)

    fileprivate init() {}

    /// Whether the thread's body has returned.
    public var isFinished: Bool {
        done.withLock { $0 }
    }

    /// Waits at most `seconds` for the body to return; false if it has not.
    public func finished(within seconds: Double) -> Bool {
        finished(before: .now + .seconds(seconds))
    }

    fileprivate func finished(before deadline: ContinuousClock.Instant) -> Bool {
        while !isFinished {
            if ContinuousClock.now >= deadline { return false }
            usleep(1_000)
        }
        return true
    }
}

/// `body`, wrapped so that each of `count` threads calling it waits for the
/// others to arrive before it runs.
private func startingTogether(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) -> @Sendable (Int) -> Void {
    let arrived = Locked(0)
    return { index in
        arrived.withLock { $0 += 1 }
        while arrived.withLock({ $0 }) < count { usleep(100) }
        body(index)
    }
}

/// Creates a joinable thread running `body`.
private func spawn(_ body: @escaping @Sendable () -> Void) -> pthread_t {
    final class Job { let body: () -> Void; init(_ body: @escaping () -> Void) { self.body = body } }
    let job = Unmanaged.passRetained(Job(body)).toOpaque()
    #if canImport(Darwin)
    var thread: pthread_t?
    #else
    var thread = pthread_t()
    #endif
    let rc = pthread_create(&thread, nil, { argument in
        Unmanaged<Job>.fromOpaque(argument!).takeRetainedValue().body()
        return nil
    }, job)
    precondition(rc == 0, "pthread_create: \(rc)")
    #if canImport(Darwin)
    return thread!
    #else
    return thread
    #endif
}
