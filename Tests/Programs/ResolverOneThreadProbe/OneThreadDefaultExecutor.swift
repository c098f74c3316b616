// A default executor of one thread, timers included, for `verify N` (main.swift).
//
// OneThreadExecutor's hooks put every job of the global executor on one
// thread, but since Swift 6.3 a sleeping task's wake-up does not go through
// those hooks: `Task.sleep` hands it to the default executor as a timer
// (`SchedulingExecutor`), and Dispatch's fires on a thread of its own pool.
// This executor is the default one instead (the standard library's
// `ExecutorFactory`, SPI in 6.3), and runs every job and every timer on one
// thread: a cooperative pool of one thread that never grows.
@_spi(ExperimentalCustomExecutors) @_spi(ExperimentalScheduling) import _Concurrency
import Foundation

final class OneThreadDefaultExecutor: TaskExecutor, SchedulingExecutor, @unchecked Sendable {
    static let shared = OneThreadDefaultExecutor()

    private let condition = NSCondition()
    // Guarded by `condition`.
    private var jobs: [UnownedJob] = []
    private var timers: [(due: ContinuousClock.Instant, job: UnownedJob)] = []

    private init() {
        Thread { [self] in run() }.start()
    }

    func enqueue(_ job: consuming ExecutorJob) {
        add(UnownedJob(job), after: .zero)
    }

    func enqueue<C: Clock>(_ job: consuming ExecutorJob, at instant: C.Instant, tolerance: C.Duration?, clock: C) {
        add(UnownedJob(job), after: clock.now.duration(to: instant) as? Duration ?? .zero)
    }

    func enqueue<C: Clock>(_ job: consuming ExecutorJob, after delay: C.Duration, tolerance: C.Duration?, clock: C) {
        add(UnownedJob(job), after: delay as? Duration ?? .zero)
    }

    private func add(_ job: UnownedJob, after delay: Duration) {
        condition.lock()
        if delay <= .zero {
            jobs.append(job)
        } else {
            timers.append((ContinuousClock.now.advanced(by: delay), job))
        }
        condition.signal()
        condition.unlock()
    }

    /// The one thread: jobs in order, each timer's job when it is due.
    private func run() {
        while true {
            condition.lock()
            while true {
                let now = ContinuousClock.now
                jobs += timers.filter { $0.due <= now }.map(\.job)
                timers.removeAll { $0.due <= now }
                if !jobs.isEmpty {
                    break
                }
                if let next = timers.map(\.due).min() {
                    let (seconds, attoseconds) = now.duration(to: next).components
                    _ = condition.wait(until: Date(timeIntervalSinceNow: Double(seconds) + Double(attoseconds) / 1e18))
                } else {
                    condition.wait()
                }
            }
            let ready = jobs
            jobs = []
            condition.unlock()
            for job in ready {
                job.runSynchronously(on: asUnownedTaskExecutor())
            }
        }
    }
}

/// Makes `OneThreadDefaultExecutor` the default executor; the main executor
/// stays the platform's.
struct OneThreadExecutorFactory: ExecutorFactory {
    static var mainExecutor: any MainExecutor { PlatformExecutorFactory.mainExecutor }
    static var defaultExecutor: any TaskExecutor { OneThreadDefaultExecutor.shared }
}

/// Installs it: call before the first task starts.
func installOneThreadDefaultExecutor() {
    _createExecutors(factory: OneThreadExecutorFactory.self)
}
