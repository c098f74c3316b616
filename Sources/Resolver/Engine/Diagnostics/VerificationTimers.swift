// A verification's timers (DESIGN.md, A4). `verify()` is synchronous: called
// from a task, it blocks a thread of the cooperative pool while the
// verification's own thread runs the factories (`VerificationExecutor`, a
// task executor whose jobs that thread runs). An async factory that sleeps
// (`Task.sleep`, a standard clock's `sleep`) hands its wake-up to the
// current task executor where that executor schedules jobs itself
// (`SchedulingExecutor`), and otherwise to the global executor, whose
// timers fire on a thread of the pool. As many `verify()` calls as the pool
// has threads would leave none for that timer: a pool that grows adds one
// after about a second, a pool that does not never does. So the
// verification's executor keeps its tasks' timers itself, on its own thread.
//
// `SchedulingExecutor` is the standard library's (SE-0505, not yet accepted:
// SPI in Swift 6.3, on Apple platforms from the 26.4 releases). This file is
// the one place that uses it; a compiler it was not checked with builds
// without the conformance (verify() then works as before, and stalls while
// the pool is short of threads) rather than failing to build where the SPI
// has changed. The tests show which: ResolverOneThreadProbe's verify mode
// hangs without it.
#if compiler(>=6.3) && !compiler(>=6.4)
@_spi(ExperimentalScheduling) import _Concurrency
#endif

/// The wake-ups a `VerificationExecutor` runs when their time comes, in the
/// order they were given. Guarded by the executor's mutex.
struct DelayedJobs {
    private var entries: [(due: ContinuousClock.Instant, job: UnownedJob)] = []

    mutating func add(_ job: UnownedJob, afterNanoseconds nanoseconds: UInt64) {
        entries.append((ContinuousClock.now.advanced(by: .nanoseconds(Int64(clamping: nanoseconds))), job))
    }

    /// Takes out the wake-ups due now, or every one (`all`: the operation
    /// has finished, and no one would run them later; what is left is the
    /// wake-up of a sleep that was cancelled, which does nothing, or of a
    /// task that outlives the verification).
    mutating func takeDue(all: Bool) -> [UnownedJob] {
        guard !entries.isEmpty else {
            return []
        }
        let now = ContinuousClock.now
        let due = entries.filter { all || $0.due <= now }.map(\.job)
        entries.removeAll { all || $0.due <= now }
        return due
    }

    /// Nanoseconds until the next wake-up is due (0 if it is), or nil when
    /// there is none.
    var nanosecondsToNext: UInt64? {
        entries.map(\.due).min().map { DelayedJobs.nanoseconds(of: ContinuousClock.now.duration(to: $0)) }
    }

    /// Runs a wake-up on this thread. A wake-up is a task of its own,
    /// without an executor preference (the standard library makes it so),
    /// that resumes the sleeping task: run as a job of the verification's
    /// executor, it would first hop to the global executor, a thread of the
    /// pool again. It runs here in the global executor's stead, for the few
    /// instructions it takes; the task it resumes prefers the verification's
    /// executor, and comes back to it.
    static func run(_ job: UnownedJob) {
        job.runSynchronously(on: globalConcurrentExecutor.asUnownedTaskExecutor())
    }

    /// `duration` in whole nanoseconds: 0 if negative, at most 10^9 s (as a
    /// verification's timeout: beyond any wait, and no overflow).
    static func nanoseconds(of duration: Duration) -> UInt64 {
        let (seconds, attoseconds) = duration.components
        guard seconds >= 0, attoseconds >= 0 else {
            return 0
        }
        return UInt64(min(seconds, 1_000_000_000)) * 1_000_000_000 + UInt64(attoseconds / 1_000_000_000)
    }

    /// `duration` in nanoseconds when it is a `Duration` (the standard
    /// clocks'); 0, at once, for another clock's, which cannot say.
    static func nanoseconds<D: DurationProtocol>(of duration: D) -> UInt64 {
        guard let duration = duration as? Duration else {
            return 0
        }
        return nanoseconds(of: duration)
    }
}

#if compiler(>=6.3) && !compiler(>=6.4)
@available(macOS 26.4, iOS 26.4, watchOS 26.4, tvOS 26.4, visionOS 26.4, *)
extension VerificationExecutor: SchedulingExecutor {
    /// A sleeping task's wake-up, due at `instant` of `clock`.
    func enqueue<C: Clock>(_ job: consuming ExecutorJob, at instant: C.Instant, tolerance: C.Duration?, clock: C) {
        enqueue(wakeUp: UnownedJob(job), afterNanoseconds: DelayedJobs.nanoseconds(of: clock.now.duration(to: instant)))
    }

    /// A sleeping task's wake-up, due after `delay` of `clock`.
    func enqueue<C: Clock>(_ job: consuming ExecutorJob, after delay: C.Duration, tolerance: C.Duration?, clock: C) {
        enqueue(wakeUp: UnownedJob(job), afterNanoseconds: DelayedJobs.nanoseconds(of: delay))
    }
}
#endif
