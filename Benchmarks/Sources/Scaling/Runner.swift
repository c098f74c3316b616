// Runs one operation on T threads at once for a fixed time and counts the
// operations: total throughput, the figure that shows whether a resolve scales
// with cores (it should grow with T) or serialises on something shared (total
// throughput falls when a second thread joins).

import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

/// One operation of a scenario. Implementations are final classes, so the loop
/// in `work` is specialised for each and the operation inlined into it.
/// `thread` numbers the measuring threads from 0, for operations that give
/// each thread state of its own.
protocol Operation: AnyObject, Sendable {
    /// One operation (every thread runs the same).
    func run()
    /// One operation on measuring thread `thread`.
    func run(thread: Int)
}

extension Operation {
    /// Operations that share everything between threads implement `run()`.
    func run(thread: Int) { run() }
}

/// A scenario: what it measures and how to build its operation (registrations
/// made, first use done) before any thread starts.
struct Scenario: Sendable {
    let name: String
    let implementation: String
    let make: @Sendable () -> any Operation
}

/// Monotonic seconds.
func now() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

/// The state the measuring thread shares with the workers.
final class Run: Sendable {
    let ready = Atomic<Int>(0)
    let go = Atomic<Bool>(false)
    let stop = Atomic<Bool>(false)
    let operations = Atomic<Int>(0)
}

/// Loops `operation.run()` until told to stop, checking the flag every 256
/// operations, and adds its count to the run's total.
func work<Op: Operation>(_ operation: Op, thread: Int, _ run: Run) {
    _ = run.ready.add(1, ordering: .releasing)
    while !run.go.load(ordering: .acquiring) {}
    var count = 0
    while !run.stop.load(ordering: .relaxed) {
        for _ in 0..<256 { operation.run(thread: thread) }
        count += 256
    }
    _ = run.operations.add(count, ordering: .relaxed)
}

/// A started thread.
private final class Job {
    let body: () -> Void
    init(_ body: @escaping () -> Void) { self.body = body }
}

func startThread(_ body: @escaping () -> Void) -> pthread_t {
    let job = Unmanaged.passRetained(Job(body)).toOpaque()
    #if canImport(Darwin)
    var thread: pthread_t?
    #else
    var thread = pthread_t()
    #endif
    let rc = pthread_create(&thread, nil, { argument in
        #if canImport(Darwin)
        Unmanaged<Job>.fromOpaque(argument).takeRetainedValue().body()
        #else
        Unmanaged<Job>.fromOpaque(argument!).takeRetainedValue().body()
        #endif
        return nil
    }, job)
    precondition(rc == 0, "pthread_create: \(rc)")
    #if canImport(Darwin)
    return thread!
    #else
    return thread
    #endif
}

/// Total operations per second of `operation` run by `threads` threads for
/// `seconds`.
func measure<Op: Operation>(_ operation: Op, threads: Int, seconds: Double) -> (operations: Int, seconds: Double) {
    let run = Run()
    let handles = (0..<threads).map { thread in startThread { work(operation, thread: thread, run) } }
    while run.ready.load(ordering: .acquiring) < threads { sched_yield() }
    let started = now()
    run.go.store(true, ordering: .releasing)
    usleep(useconds_t(seconds * 1e6))
    run.stop.store(true, ordering: .relaxed)
    for handle in handles { pthread_join(handle, nil) }
    let elapsed = now() - started
    return (run.operations.load(ordering: .relaxed), elapsed)
}

/// Opens the existential so that `measure` is specialised for the operation's type.
func measureAny(_ operation: any Operation, threads: Int, seconds: Double) -> (operations: Int, seconds: Double) {
    measure(operation, threads: threads, seconds: seconds)
}
