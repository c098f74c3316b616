#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// verify(): resolve every registration once, collecting what would have
// stopped the program instead of stopping it.
//
// A failure deep inside a factory cannot return to its caller (`resolve()`
// returns a service, or nothing at all), so registrations are resolved on a
// thread of the verification's own: a failure there is recorded and ends
// that thread (`EngineThread.exit`), and the next registration is resolved on a
// new one. What ending a thread skips:
// - builds of a caching scope the thread had started: taken out of their
//   scope first, so no other thread waits for them;
// - its read section: left by the thread-exit handling of the C core;
// - references held by the frames it leaves: leaked (a failed verification
//   is a bug report, not a steady state);
// - locks: none of ours is held where a failure is reported (checked; if one
//   were, the program stops as it would without verification). A factory
//   that fails while holding a lock of its own leaves it locked.

extension Resolver {
    /// What `verify()` found: each registration resolved, failed or skipped.
    public struct Verification: Sendable, CustomStringConvertible {
        /// Why a registration could not be resolved.
        public struct Failure: Sendable, CustomStringConvertible {
            /// What kind of failure.
            public enum Kind: Sendable, Equatable {
                /// A service it needs is not registered.
                case missing
                /// A factory (its own or a dependency's) returned nil.
                case returnedNil
                /// A dependency cycle, on one thread or across threads.
                case cycle
                /// It did not finish within the timeout (a factory that
                /// blocks, or waits for something that never comes).
                case timedOut
                /// Another failure: wrong arguments, a failed `implements`,
                /// a resolution nested without end.
                case other
            }

            /// The registration being verified, "Type" or "Type:name".
            public let service: String
            /// What kind of failure.
            public let kind: Kind
            /// The message the program would have stopped with, chain included.
            public let message: String

            /// The service, then the message, indented.
            public var description: String {
                let lines = message.split(separator: "\n", omittingEmptySubsequences: false)
                return "\(service): \(kind)\n" + lines.map { "    " + $0 }.joined(separator: "\n")
            }
        }

        /// The registrations that resolved, "Type" or "Type:name".
        public let resolved: [String]
        /// The registrations that failed, with why.
        public let failures: [Failure]
        /// The registrations not resolved because their factories take
        /// arguments, which `verify()` cannot make up, or are `@MainActor`,
        /// which its threads cannot run (<doc:Concurrency>).
        public let skipped: [String]
        /// The dependency graph the resolves showed.
        public let graph: Graph

        /// True when no registration failed.
        public var isValid: Bool {
            failures.isEmpty
        }

        /// A summary line, then each failure with its message, then the
        /// skipped registrations.
        public var description: String {
            var lines = ["Resolver.verify(): \(resolved.count) resolved, \(failures.count) failed, \(skipped.count) skipped."]
            for failure in failures {
                lines.append("FAILED " + failure.description)
            }
            if !skipped.isEmpty {
                lines.append("Skipped (the factory takes arguments, or is @MainActor): \(skipped.joined(separator: ", ")).")
            }
            return lines.joined(separator: "\n")
        }
    }

    /// Verifies `root` (see the instance method).
    ///
    /// - Parameter timeout: seconds a registration may take before it is
    ///   reported as `.timedOut` and left running.
    public static func verify(timeout: Double = 10) -> Verification {
        root.verify(timeout: timeout)
    }

    /// Resolves every registration this container can find (its own and its
    /// children's; each name) once, and reports what failed instead of
    /// stopping the program: missing dependencies with the chain that needed
    /// them, cycles, factories that returned nil. Registrations whose
    /// factories take arguments are listed as skipped.
    ///
    /// **This runs your factories**, once each, as a resolve would: call it
    /// at start-up in a debug build, or in a test. It resolves in a sandbox,
    /// a child of this container with caches of its own for every caching
    /// scope, so the app's singletons are neither made nor replaced; static
    /// resolves and property wrappers inside the factories use the sandbox
    /// too. (A property wrapper given an explicit container, and custom scope
    /// subclasses, reach outside it.) `registerAllServices` runs first if it
    /// has not. The calling thread waits; the resolves run on threads of
    /// their own, one at a time.
    ///
    /// - Parameter timeout: seconds a registration may take before it is
    ///   reported as `.timedOut` and left running.
    public func verify(timeout: Double = 10) -> Verification {
        registry.ensureRegistered()
        let registrations = registry.withLock {
            reachableRegistrationsLocked().map {
                (registration: $0, takesArguments: $0.takesArgumentsLocked || $0.isMainActorFactory)
            }
        }
        let run = VerificationRun(container: self, registrations: registrations, timeout: timeout)
        return run.run()
    }
}

/// One `verify()` call: the registrations to resolve, the sandbox, the
/// outcomes, and the threads resolving them (one at a time).
///
/// `mutex` (its own) guards the progress fields; `progressed` is signalled
/// when one changes. A worker thread takes the registration at `next`,
/// resolves it, and records the outcome if it is still the current worker
/// (`worker`): a worker that timed out is abandoned, and whatever it records
/// later is ignored.
final class VerificationRun: @unchecked Sendable {
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
        if !context.unfinishedBuilds.isEmpty {
            registry.withLock {
                for (scope, flight) in context.unfinishedBuilds {
                    scope.building.removeAll { $0 === flight }
                    flight.finished.broadcast()
                }
            }
            context.unfinishedBuilds.removeAll()
        }
        if !context.unfinishedAsyncBuilds.isEmpty {
            let abandoned = context.unfinishedAsyncBuilds
            context.unfinishedAsyncBuilds.removeAll()
            registry.withLock {
                for (scope, flight) in abandoned {
                    scope.asyncBuilding.removeAll { $0 === flight }
                }
            }
            for (_, flight) in abandoned {
                flight.abandon()
            }
        }
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
        return Resolver.Verification(resolved: resolved, failures: failures, skipped: skipped,
                                     graph: Resolver.Graph(nodes: nodes, edges: recorder.edges))
    }
}

// MARK: - Async registrations on a verification's own thread

/// Runs an async operation on the calling thread, which must be one of a
/// verification's own: a task executor (SE-0417) whose jobs this thread
/// runs, so the nonisolated parts of an async factory (and of the caching
/// scopes' build tasks, which prefer it too) run here, where a failure ends
/// the thread as it does for synchronous factories. Jobs isolated to an actor
/// run on that actor.
@available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
final class VerificationExecutor: TaskExecutor, @unchecked Sendable {
    /// The executor the current task's new tasks should prefer (a
    /// verification's), or nil.
    @TaskLocal static var current: VerificationExecutor?

    private let mutex = Mutex.make()
    private let arrived = Condition()
    // Guarded by `mutex`.
    private var jobs: [UnownedJob] = []
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

    private func finish() {
        mutex.withLock {
            finished = true
            arrived.broadcast()
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
            let (ready, done) = executor.mutex.withLock { () -> ([UnownedJob], Bool) in
                while executor.jobs.isEmpty && !executor.finished {
                    _ = executor.arrived.wait(executor.mutex)
                }
                let ready = executor.jobs
                executor.jobs = []
                return (ready, executor.finished && ready.isEmpty)
            }
            if done {
                return result.value.value
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
