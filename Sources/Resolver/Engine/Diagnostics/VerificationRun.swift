/// One `verify()` call (DESIGN.md, "Detours"): a worker thread at a time takes the registration at `next`,
/// resolves it in the sandbox, and records the outcome if it is still the current `worker`: one that timed
/// out is abandoned, and what it records later ignored.
final class VerificationRun: @unchecked Sendable {
    /// The verification the current task resolves for on a thread not its own (a `@MainActor` factory an
    /// async factory hopped to).
    @TaskLocal static var current: VerificationRun?

    enum Outcome {
        case resolved, skipped
        case failed(kind: Resolver.Verification.Failure.Kind, message: String)
    }

    let sandbox: Resolver
    let recorder = GraphRecorder()
    private let registrations: [RegistrationDescribing]
    private let timeoutNanoseconds: UInt64
    private let mutex = Mutex.make()
    /// Signalled when a progress field changes.
    private let progressed = Condition()
    // Guarded by `mutex`.
    private var outcomes: [Outcome?]
    private var next = 0
    /// The current worker's number; 0 while none runs.
    private var worker = 0
    private var workersStarted = 0

    init(container: Resolver, registrations: [(registration: RegistrationDescribing, takesArguments: Bool)], timeout: Double) {
        sandbox = Resolver(mutex: registry.mutex, isolatedScopes: IsolatedScopes(everyCache: true))
        sandbox.add(child: container)
        self.registrations = registrations.map(\.registration)
        timeoutNanoseconds = timeout.isFinite && timeout > 0 ? UInt64(min(timeout, 1e9) * 1e9) : 0
        outcomes = registrations.map { $0.takesArguments ? .skipped : nil }
        next = undecided(from: 0)
    }

    deinit { mutex.release() }

    /// Resolves every registration and collects the result.
    func run() -> Resolver.Verification {
        mutex.withLock {
            while next < registrations.count {
                if worker == 0 {
                    launchWorkerLocked()
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

    /// The first registration from `index` on that is not decided (skipped) yet. `mutex` held.
    private func undecided(from index: Int) -> Int {
        outcomes[index...].firstIndex { $0 == nil } ?? outcomes.count
    }

    /// Records the outcome of the registration at `next` and moves past it; the worker ends with it, or
    /// when none is left. `mutex` held.
    private func decideLocked(_ outcome: Outcome, endingWorker: Bool) {
        outcomes[next] = outcome
        next = undecided(from: next + 1)
        if endingWorker || next == registrations.count { worker = 0 }
        progressed.broadcast()
    }

    /// Starts a worker thread for the registrations from `next` on. `mutex` held.
    private func launchWorkerLocked() {
        workersStarted += 1
        worker = workersStarted
        Published.detours.increment()
        let number = worker
        let rc = EngineThread.launch { self.work(as: number) }
        if rc != 0 {
            Published.detours.decrement()
            decideLocked(.failed(kind: .other, message: "RESOLVER: could not start a thread to verify '\(registrations[next].keyDescription)' (error \(rc))."),
                         endingWorker: true)
        }
    }

    /// A worker thread's life: resolve registrations until none is left or it is no longer current.
    private func work(as worker: Int) {
        let context = ResolutionContext.current
        context.verification = self
        context.verificationWorker = worker
        while let index = mutex.withLock({ worker == self.worker && next < registrations.count ? next : nil }) {
            let resolved = registrations[index].checkOnce(from: sandbox)
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

    /// A failure on a worker thread (`fail`): record it against the registration being resolved,
    /// take this thread's unfinished builds out of their scopes, and end the thread.
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

    private func result() -> Resolver.Verification {
        var resolved: [String] = [], failures: [Resolver.Verification.Failure] = [], skipped: [String] = []
        for (registration, outcome) in zip(registrations, outcomes) {
            switch outcome {
            case .resolved?: resolved.append(registration.keyDescription)
            case .skipped?: skipped.append(registration.keyDescription)
            case .failed(let kind, let message)?: failures.append(.init(service: registration.keyDescription, kind: kind, message: message))
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

/// Runs the async `operation` (a `checkOnce`) on this verification thread, which runs its task's jobs
/// (`VerificationExecutor`), with `container`, the sandbox, as the task's root: whether it resolved.
func verifyingAsync(from container: Resolver, _ operation: @escaping @Sendable () async -> Bool) -> Bool {
    guard #available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *) else { return true }
    // Not `withRoot`: a failure ends this thread inside the operation, and `withRoot` would never give back
    // its count of the detour word (the verification's own keeps resolves on the detour). The verification,
    // for parts of the factories that run on other threads: their resolves are edges of its graph.
    let verification = ResolutionContext.existing?.verification
    let executor = VerificationExecutor()
    Task(executorPreference: executor) {
        let value = await VerificationExecutor.$current.withValue(executor) {
            await VerificationRun.$current.withValue(verification) {
                await Resolver.$rootOverride.withValue(container) { await operation() }
            }
        }
        executor.signal { executor.result = value }
    }
    return executor.runJobs()
}

/// A task executor (SE-0417) whose jobs a verification's thread runs (DESIGN.md, A4), so the nonisolated
/// parts of an async factory and of the caching scopes' build tasks run there, where a failure ends the
/// thread as it does for a synchronous factory. Its timers: `VerificationTimers.swift`.
@available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
final class VerificationExecutor: TaskExecutor, @unchecked Sendable {
    /// The executor the current task's new tasks should prefer (a verification's).
    @TaskLocal static var current: VerificationExecutor?

    private let mutex = Mutex.make()
    private let arrived = Condition()
    // Guarded by `mutex`: the jobs to run, the wake-ups to run when due (in the order given), and the
    // operation's result once it has finished.
    private var jobs: [UnownedJob] = []
    var delayed: [(due: ContinuousClock.Instant, job: UnownedJob)] = []
    fileprivate var result: Bool?

    deinit { mutex.release() }

    func enqueue(_ job: UnownedJob) {
        signal { jobs.append(job) }
    }

    func signal(_ change: () -> Void) {
        mutex.withLock {
            change()
            arrived.broadcast()
        }
    }

    /// Runs its tasks' jobs and wake-ups on this thread until the operation has finished: its result.
    fileprivate func runJobs() -> Bool {
        while true {
            let (ready, wakeUps, result) = mutex.withLock { takeJobsLocked() }
            if let result { return result }
            // A wake-up is a task without an executor preference, which as a job of this executor would
            // first hop to the global one: it runs here in the global executor's stead, and the task it
            // resumes comes back to this executor.
            for job in wakeUps {
                job.runSynchronously(on: globalConcurrentExecutor.asUnownedTaskExecutor())
            }
            for job in ready {
                job.runSynchronously(on: asUnownedTaskExecutor())
            }
        }
    }

    /// The jobs to run and the wake-ups due (all once the operation has finished), or its result when none
    /// is left; waits while there are none, until one arrives or the next wake-up is due. `mutex` held.
    private func takeJobsLocked() -> (ready: [UnownedJob], wakeUps: [UnownedJob], result: Bool?) {
        while true {
            let wakeUps = takeDueLocked(all: result != nil)
            if !jobs.isEmpty || !wakeUps.isEmpty || result != nil {
                let ready = jobs
                jobs = []
                return (ready, wakeUps, ready.isEmpty && wakeUps.isEmpty ? result : nil)
            }
            if let wait = nanosecondsToNextLocked {
                _ = arrived.waitTimingOut(mutex, nanoseconds: wait)
            } else {
                _ = arrived.wait(mutex)
            }
        }
    }
}
