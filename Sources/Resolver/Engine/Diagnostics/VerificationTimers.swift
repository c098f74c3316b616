// A verification's timers (DESIGN.md, A4). `SchedulingExecutor` is SPI of Swift 6.3 (SE-0505, not yet
// accepted): another compiler builds without the conformance (verify() then stalls while the pool is short
// of threads: ResolverOneThreadProbe's verify mode hangs) rather than failing to build.
#if compiler(>=6.3) && !compiler(>=6.4)
@_spi(ExperimentalScheduling) import _Concurrency
#endif

/// The wake-ups a `VerificationExecutor` runs when their time comes, in the order given. Guarded by the
/// executor's mutex.
struct DelayedJobs {
    private var entries: [(due: ContinuousClock.Instant, job: UnownedJob)] = []

    mutating func add(_ job: UnownedJob, afterNanoseconds nanoseconds: UInt64) {
        entries.append((ContinuousClock.now.advanced(by: .nanoseconds(Int64(clamping: nanoseconds))), job))
    }

    /// Takes out the wake-ups due now, or every one (`all`: the operation has finished and no one would run
    /// them later; they wake a cancelled sleep, or a task that outlives the verification).
    mutating func takeDue(all: Bool) -> [UnownedJob] {
        let now = ContinuousClock.now
        let due = entries.filter { all || $0.due <= now }.map(\.job)
        entries.removeAll { all || $0.due <= now }
        return due
    }

    /// Nanoseconds until the next wake-up is due (0 if it is), or nil when there is none.
    var nanosecondsToNext: UInt64? {
        entries.map(\.due).min().map { DelayedJobs.nanoseconds(of: ContinuousClock.now.duration(to: $0)) }
    }

    /// `duration` in whole nanoseconds, if a `Duration` (another clock's cannot say: 0): 0 if negative, at
    /// most 10^9 s (as a verification's timeout: beyond any wait, and no overflow).
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
    func enqueue<C: Clock>(_ job: consuming ExecutorJob, at instant: C.Instant, tolerance: C.Duration?, clock: C) {
        enqueue(wakeUp: UnownedJob(job), afterNanoseconds: DelayedJobs.nanoseconds(of: clock.now.duration(to: instant)))
    }

    func enqueue<C: Clock>(_ job: consuming ExecutorJob, after delay: C.Duration, tolerance: C.Duration?, clock: C) {
        enqueue(wakeUp: UnownedJob(job), afterNanoseconds: DelayedJobs.nanoseconds(of: delay))
    }
}
#endif
