#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// One `verify()` call: the registrations to resolve, the sandbox, the
/// outcomes, and the threads resolving them (one at a time).
///
/// `mutex` (its own) guards the progress fields; `progressed` is signalled
/// when one changes. A worker thread takes the registration at `next`,
/// resolves it, and records the outcome if it is still the current worker
/// (`worker`): a worker that timed out is abandoned, and whatever it records
/// later is ignored.
final class VerificationRun: @unchecked Sendable {
    /// The verification the current task resolves for, where its thread is
    /// not one of the verification's own (a `@MainActor` factory an async
    /// factory hopped to), or nil.
    @TaskLocal static var current: VerificationRun?

    enum Outcome {
        case resolved
        case skipped
        case failed(kind: Resolver.Verification.Failure.Kind, message: String)
    }

    let sandbox: Resolver
    let recorder = GraphRecorder()
    private let registrations: [RegistrationDescribing]
    private let timeoutNanoseconds: UInt64
    private let mutex = Mutex.make()
    private let progressed = Condition()

    // Guarded by `mutex`.
    private var outcomes: [Outcome?]
    private var next = 0
    /// The current worker's number; 0 while none runs.
    private var worker = 0
    private var workersStarted = 0

    init(container: Resolver, registrations: [(registration: RegistrationDescribing, takesArguments: Bool)],
         timeout: Double) {
        sandbox = Resolver(mutex: registry.mutex, isolatedScopes: IsolatedScopes(everyCache: true))
        sandbox.add(child: container)
        self.registrations = registrations.map(\.registration)
        timeoutNanoseconds = timeout.isFinite && timeout > 0 ? UInt64(min(timeout, 1e9) * 1e9) : 0
        outcomes = registrations.map { $0.takesArguments ? .skipped : nil }
    }

    deinit {
        mutex.release()
    }

    /// Resolves every registration and collects the result.
    func run() -> Resolver.Verification {
        mutex.withLock {
            skipDone()
            while next < registrations.count {
                if worker == 0 {
                    startWorker()
                    continue
                }
                let waitingFor = next
                let timedOut = progressed.waitTimingOut(mutex, nanoseconds: timeoutNanoseconds)
                if timedOut, worker != 0, next == waitingFor {
                    let seconds = Double(timeoutNanoseconds) / 1e9
                    outcomes[next] = .failed(kind: .timedOut, message: "RESOLVER: resolving '\(registrations[next].keyDescription)' did not finish within \(seconds) s; it was left running.")
                    worker = 0
                    next += 1
                    skipDone()
                }
            }
        }
        return result()
    }

    /// Moves `next` past registrations already decided (skipped). `mutex` held.
    private func skipDone() {
        while next < registrations.count, outcomes[next] != nil {
            next += 1
        }
    }

    /// Starts a worker thread for the registrations from `next` on. `mutex` held.
    private func startWorker() {
        workersStarted += 1
        worker = workersStarted
        Published.detours.increment()
        let run = self
        let number = worker
        let rc = EngineThread.start {
            run.work(as: number)
        }
        if rc != 0 {
            Published.detours.decrement()
            outcomes[next] = .failed(kind: .other, message: "RESOLVER: could not start a thread to verify '\(registrations[next].keyDescription)' (error \(rc)).")
            worker = 0
            next += 1
            skipDone()
        }
    }

    /// A worker thread's life: resolve registrations until none is left or
    /// this worker is no longer the current one.
    private func work(as worker: Int) {
        let context = ResolutionContext.current
        context.verification = self
        context.verificationWorker = worker
        while true {
            let claimed = mutex.withLock { () -> Int? in
                guard worker == self.worker, next < registrations.count else {
                    return nil
                }
                return next
            }
            guard let index = claimed else {
                break
            }

            let resolved = registrations[index].resolveOnce(from: sandbox)

            mutex.withLock {
                if worker == self.worker, next == index {
                    outcomes[index] = resolved
                        ? .resolved
                        : .failed(kind: .returnedNil, message: "RESOLVER: '\(registrations[index].keyDescription)' resolved to nil: its factory returned nil.")
                    next += 1
                    skipDone()
                    if next == registrations.count {
                        self.worker = 0
                    }
                    progressed.broadcast()
                }
            }
        }
        context.verification = nil
        Published.detours.decrement()
    }

    /// A failure on a worker thread: record it against the registration being
    /// resolved, take this thread's unfinished builds out of their scopes, and
    /// end the thread. Called by `resolverFailure`.
    func workerFailed(_ message: String, kind: Resolver.Verification.Failure.Kind, context: ResolutionContext) -> Never {
        if registry.mutex.isHeldByCurrentThread {
            fatalError("RESOLVER: a verification failed while holding the registry lock: \(message)")
        }
        context.abandonUnfinishedBuilds()
        context.verification = nil
        mutex.withLock {
            // This worker is the current one unless it timed out: then its
            // registration already has its outcome.
            if worker != 0, next < registrations.count, outcomes[next] == nil, isCurrent(context) {
                outcomes[next] = .failed(kind: kind, message: message)
                next += 1
                skipDone()
                worker = 0
                progressed.broadcast()
            }
        }
        Published.detours.decrement()
        EngineThread.exit()
    }

    /// Whether the thread of `context` is the current worker. `mutex` held.
    private func isCurrent(_ context: ResolutionContext) -> Bool {
        context.verificationWorker == worker
    }

    /// The collected outcomes and the graph.
    private func result() -> Resolver.Verification {
        var resolved: [String] = []
        var failures: [Resolver.Verification.Failure] = []
        var skipped: [String] = []
        for (registration, outcome) in zip(registrations, outcomes) {
            switch outcome {
            case .resolved?: resolved.append(registration.keyDescription)
            case .skipped?: skipped.append(registration.keyDescription)
            case .failed(let kind, let message)?:
                failures.append(.init(service: registration.keyDescription, kind: kind, message: message))
            case nil: break
            }
        }
        let nodes = registrations.map(\.scopedGraphNode)
        let edges = recorder.edges.union(registrations.flatMap(\.structuralEdges))
        let replacements = registry.withLock { sandbox.replacementsLocked() }.map(\.described)
        return Resolver.Verification(resolved: resolved, failures: failures, skipped: skipped,
                                     graph: Resolver.Graph(nodes: nodes, edges: edges), replacements: replacements)
    }
}

// MARK: - Async registrations on a verification's own thread

/// Runs an async operation on the calling thread, which must be one of a
/// verification's own: a task executor (SE-0417) whose jobs this thread
/// runs, so the nonisolated parts of an async factory (and of the caching
/// scopes' build tasks, which prefer it too) run here, where a failure ends
/// the thread as it does for synchronous factories. Jobs isolated to an actor
/// run on that actor.
///
/// It also keeps the timers of its tasks (`Task.sleep`, a clock's `sleep`;
/// `VerificationTimers.swift`): a timer of the global executor fires on a
/// thread of the cooperative pool, and `verify()`, a synchronous call,
/// blocks the pool thread it is called from while this thread runs the
/// factories. So nothing a verification waits for needs the pool
/// (DESIGN.md, A4).
@available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
final class VerificationExecutor: TaskExecutor, @unchecked Sendable {
    /// The executor the current task's new tasks should prefer (a
    /// verification's), or nil.
    @TaskLocal static var current: VerificationExecutor?

    private let mutex = Mutex.make()
    private let arrived = Condition()
    // Guarded by `mutex`.
    private var jobs: [UnownedJob] = []
    private var delayed = DelayedJobs()
    private var finished = false

    deinit {
        mutex.release()
    }

    func enqueue(_ job: UnownedJob) {
        mutex.withLock {
            jobs.append(job)
            arrived.broadcast()
        }
    }

    /// Runs the wake-up `job` of a sleeping task on this executor's thread
    /// once `nanoseconds` have passed (`VerificationTimers.swift`).
    func enqueue(wakeUp job: UnownedJob, afterNanoseconds nanoseconds: UInt64) {
        mutex.withLock {
            delayed.add(job, afterNanoseconds: nanoseconds)
            arrived.broadcast()
        }
    }

    private func finish() {
        mutex.withLock {
            finished = true
            arrived.broadcast()
        }
    }

    /// The jobs to run now, and the wake-ups whose time has come (all of
    /// them once the operation has finished: see `DelayedJobs`); waits
    /// while there are none, until the next wake-up is due. `mutex` held.
    private func takeJobsLocked() -> (ready: [UnownedJob], wakeUps: [UnownedJob], done: Bool) {
        while true {
            let wakeUps = delayed.takeDue(all: finished)
            if !jobs.isEmpty || !wakeUps.isEmpty || finished {
                let ready = jobs
                jobs = []
                return (ready, wakeUps, finished && ready.isEmpty && wakeUps.isEmpty)
            }
            if let wait = delayed.nanosecondsToNext {
                // The timer: the wait ends when the next wake-up is due, or
                // when a job or another wake-up arrives (they broadcast).
                _ = arrived.waitTimingOut(mutex, nanoseconds: wait)
            } else {
                _ = arrived.wait(mutex)
            }
        }
    }

    /// Runs `operation` to its end, running its jobs on this thread.
    static func run(_ operation: @escaping @Sendable () async -> Bool) -> Bool {
        let executor = VerificationExecutor()
        let result = Carried(ResultBox())
        Task(executorPreference: executor) {
            let value = await VerificationExecutor.$current.withValue(executor) {
                await operation()
            }
            result.value.value = value
            executor.finish()
        }
        while true {
            let (ready, wakeUps, done) = executor.mutex.withLock { executor.takeJobsLocked() }
            if done {
                return result.value.value
            }
            for job in wakeUps {
                DelayedJobs.run(job)
            }
            for job in ready {
                job.runSynchronously(on: executor.asUnownedTaskExecutor())
            }
        }
    }

    /// Written by the task before it finishes, read after.
    private final class ResultBox {
        var value = false
    }
}
