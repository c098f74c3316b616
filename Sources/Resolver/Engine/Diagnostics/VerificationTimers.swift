// A verification's timers (DESIGN.md, A4). `SchedulingExecutor` is SPI of Swift 6.3 (SE-0505, not yet
// accepted): another compiler builds without the conformance (verify() then stalls while the pool is short
// of threads: ResolverOneThreadProbe's verify mode hangs) rather than failing to build.
#if compiler(>=6.3) && !compiler(>=6.4)
@_spi(ExperimentalScheduling) import _Concurrency
#endif

@available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
extension VerificationExecutor {
    /// Runs the wake-up `job` of a sleeping task on this executor's thread once `nanoseconds` have passed.
    func enqueue(wakeUp job: UnownedJob, afterNanoseconds nanoseconds: UInt64) {
        signal { delayed.append((ContinuousClock.now.advanced(by: .nanoseconds(Int64(clamping: nanoseconds))), job)) }
    }

    /// Takes out the wake-ups due now, or every one (`all`: the operation has finished and no one would run
    /// them later; they wake a cancelled sleep, or a task that outlives the verification). `mutex` held.
    func takeDueLocked(all: Bool) -> [UnownedJob] {
        let now = ContinuousClock.now
        let due = delayed.filter { all || $0.due <= now }.map(\.job)
        delayed.removeAll { all || $0.due <= now }
        return due
    }

    /// Nanoseconds until the next wake-up is due (0 if it is), or nil when there is none. `mutex` held.
    var nanosecondsToNextLocked: UInt64? {
        delayed.map(\.due).min().map { Self.nanoseconds(of: ContinuousClock.now.duration(to: $0)) }
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
        enqueue(wakeUp: UnownedJob(job), afterNanoseconds: Self.nanoseconds(of: clock.now.duration(to: instant)))
    }

    func enqueue<C: Clock>(_ job: consuming ExecutorJob, after delay: C.Duration, tolerance: C.Duration?, clock: C) {
        enqueue(wakeUp: UnownedJob(job), afterNanoseconds: Self.nanoseconds(of: delay))
    }
}
#endif
