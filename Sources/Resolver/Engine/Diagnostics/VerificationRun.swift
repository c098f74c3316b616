/// One `verify()` call (DESIGN.md, "Detours"): the registrations to resolve,
/// the sandbox, the outcomes, and the threads resolving them, one at a time.
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
            skipDecidedLocked()
            while next < registrations.count {
                if worker == 0 {
                    startWorkerLocked()
                    continue
                }
                let waitingFor = next
                if progressed.waitTimingOut(mutex, nanoseconds: timeoutNanoseconds), worker != 0, next == waitingFor {
                    let seconds = Double(timeoutNanoseconds) / 1e9
                    decideLocked(.failed(kind: .timedOut, message: "RESOLVER: resolving '\(registrations[next].keyDescription)' did not finish within \(seconds) s; it was left running."),
                                 endingWorker: true)
                }
            }
        }
        return result()
    }

    /// Moves `next` past registrations already decided (skipped). `mutex` held.
    private func skipDecidedLocked() {
        while next < registrations.count, outcomes[next] != nil {
            next += 1
        }
    }

    /// Records the outcome of the registration at `next` and moves past it;
    /// the worker ends with it, or when none is left. `mutex` held.
    private func decideLocked(_ outcome: Outcome, endingWorker: Bool) {
        outcomes[next] = outcome
        next += 1
        skipDecidedLocked()
        if endingWorker || next == registrations.count {
            worker = 0
        }
        progressed.broadcast()
    }

    /// Starts a worker thread for the registrations from `next` on. `mutex` held.
    private func startWorkerLocked() {
        workersStarted += 1
        worker = workersStarted
        Published.detours.increment()
        let number = worker
        let rc = EngineThread.start { self.work(as: number) }
        if rc != 0 {
            Published.detours.decrement()
            decideLocked(.failed(kind: .other, message: "RESOLVER: could not start a thread to verify '\(registrations[next].keyDescription)' (error \(rc))."),
                         endingWorker: true)
        }
    }

    /// A worker thread's life: resolve registrations until none is left or
    /// this worker is no longer the current one.
    private func work(as worker: Int) {
        let context = ResolutionContext.current
        context.verification = self
        context.verificationWorker = worker
        while let index = mutex.withLock({ worker == self.worker && next < registrations.count ? next : nil }) {
            let resolved = registrations[index].resolveOnce(from: sandbox)
            mutex.withLock {
                if worker == self.worker, next == index {
                    decideLocked(resolved ? .resolved : .failed(kind: .returnedNil, message: "RESOLVER: '\(registrations[index].keyDescription)' resolved to nil: its factory returned nil."),
                                 endingWorker: false)
                }
            }
        }
        context.verification = nil
        Published.detours.decrement()
    }

    /// A failure on a worker thread (`resolverFailure`): record it against
    /// the registration being resolved, take this thread's unfinished builds
    /// out of their scopes, and end the thread.
    func workerFailed(_ message: String, kind: Resolver.Verification.Failure.Kind, context: ResolutionContext) -> Never {
        if registry.mutex.isHeldByCurrentThread {
            fatalError("RESOLVER: a verification failed while holding the registry lock: \(message)")
        }
        context.abandonUnfinishedBuilds()
        context.verification = nil
        mutex.withLock {
            // Unless this worker timed out: then its registration has its outcome.
            if worker != 0, next < registrations.count, outcomes[next] == nil, context.verificationWorker == worker {
                decideLocked(.failed(kind: kind, message: message), endingWorker: true)
            }
        }
        Published.detours.decrement()
        EngineThread.exit()
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

/// Runs the async `operation` on this verification thread (DESIGN.md, A4),
/// with `container` (the verification's sandbox) as the task's root: how
/// `verify()` resolves an async registration (`resolveOnce`). Whether it
/// resolved.
func verifyingAsync(from container: Resolver, _ operation: @escaping @Sendable () async -> Bool) -> Bool {
    guard #available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *) else {
        return true
    }
    // The sandbox as the task's root, for static resolves in the factories
    // and their build tasks. Not `withRoot`: a failure ends this thread
    // inside the operation, and `withRoot` would never give back its count
    // of the detour word (the verification's own count keeps resolves on
    // the detour). The verification, for the parts of the factories that run
    // on other threads: their resolves are edges of its graph.
    let verification = ResolutionContext.existing?.verification
    return VerificationExecutor.run {
        await VerificationRun.$current.withValue(verification) {
            await Resolver.$rootOverride.withValue(container) {
                await operation()
            }
        }
    }
}

/// Runs an async operation on the calling thread, one of a verification's
/// own: a task executor (SE-0417) whose jobs this thread runs, so the
/// nonisolated parts of an async factory (and of the caching scopes' build
/// tasks, which prefer it too) run here, where a failure ends the thread as
/// it does for synchronous factories. Jobs isolated to an actor run on that
/// actor. It also keeps its tasks' timers (`VerificationTimers.swift`), so
/// nothing a verification waits for needs the cooperative pool (DESIGN.md, A4).
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
    /// The operation's result, once it has finished.
    private var result: Bool?

    deinit {
        mutex.release()
    }

    func enqueue(_ job: UnownedJob) {
        signal { jobs.append(job) }
    }

    /// Runs the wake-up `job` of a sleeping task on this executor's thread
    /// once `nanoseconds` have passed (`VerificationTimers.swift`).
    func enqueue(wakeUp job: UnownedJob, afterNanoseconds nanoseconds: UInt64) {
        signal { delayed.add(job, afterNanoseconds: nanoseconds) }
    }

    private func signal(_ change: () -> Void) {
        mutex.withLock {
            change()
            arrived.broadcast()
        }
    }

    /// The jobs to run now, and the wake-ups whose time has come (all of
    /// them once the operation has finished: see `DelayedJobs`), or the
    /// result once nothing is left; waits while there are none, until the
    /// next wake-up is due (or a job or another wake-up arrives). `mutex` held.
    private func takeJobsLocked() -> (ready: [UnownedJob], wakeUps: [UnownedJob], result: Bool?) {
        while true {
            let wakeUps = delayed.takeDue(all: result != nil)
            if !jobs.isEmpty || !wakeUps.isEmpty || result != nil {
                let ready = jobs
                jobs = []
                return (ready, wakeUps, ready.isEmpty && wakeUps.isEmpty ? result : nil)
            }
            if let wait = delayed.nanosecondsToNext {
                _ = arrived.waitTimingOut(mutex, nanoseconds: wait)
            } else {
                _ = arrived.wait(mutex)
            }
        }
    }

    /// Runs `operation` to its end, running its jobs on this thread.
    static func run(_ operation: @escaping @Sendable () async -> Bool) -> Bool {
        let executor = VerificationExecutor()
        Task(executorPreference: executor) {
            let value = await VerificationExecutor.$current.withValue(executor) {
                await operation()
            }
            executor.signal { executor.result = value }
        }
        while true {
            let (ready, wakeUps, result) = executor.mutex.withLock { executor.takeJobsLocked() }
            if let result {
                return result
            }
            for job in wakeUps {
                DelayedJobs.run(job)
            }
            for job in ready {
                job.runSynchronously(on: executor.asUnownedTaskExecutor())
            }
        }
    }
}
