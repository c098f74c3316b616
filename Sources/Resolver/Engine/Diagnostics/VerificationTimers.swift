// A verification's timers (DESIGN.md, A4): its executor schedules its
// tasks' wake-ups itself (`SchedulingExecutor`) and runs each on its own
// thread, where the global executor's timer would fire on a pool thread the
// blocked `verify()` calls may all hold.
//
// `SchedulingExecutor` is SPI of Swift 6.3 (SE-0505, not yet accepted). A
// compiler it was not checked with builds without the conformance (verify()
// then stalls while the pool is short of threads) rather than failing to
// build where the SPI has changed: ResolverOneThreadProbe's verify mode
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
    /// has finished and no one would run them later; what is left wakes a
    /// cancelled sleep, which does nothing, or a task that outlives the
    /// verification).
    mutating func takeDue(all: Bool) -> [UnownedJob] {
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

    /// Runs a wake-up on this thread, in the global executor's stead: a
    /// wake-up is a task of its own without an executor preference, which
    /// run as a job of the verification's executor would first hop to the
    /// global executor. The task it resumes prefers the verification's
    /// executor, and comes back to it.
    static func run(_ job: UnownedJob) {
        job.runSynchronously(on: globalConcurrentExecutor.asUnownedTaskExecutor())
    }

    /// `duration` in whole nanoseconds when it is a `Duration` (the standard
    /// clocks'; 0 for another clock's, which cannot say): 0 if negative, at
    /// most 10^9 s (as a verification's timeout: beyond any wait, and no
    /// overflow).
    static func nanoseconds<D: DurationProtocol>(of duration: D) -> UInt64 {
        guard case let (seconds, attoseconds)? = (duration as? Duration)?.components, seconds >= 0, attoseconds >= 0 else {
            return 0
        }
        return UInt64(min(seconds, 1_000_000_000)) * 1_000_000_000 + UInt64(attoseconds / 1_000_000_000)
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
