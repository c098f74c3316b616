// Building a caching scope's instance once per generation (DESIGN.md, S1),
// for threads and tasks alike.
//
// A build in progress is a `Flight` in its scope's `building` list: the key
// it builds (type identity and name), the scope's generation when it began,
// and who waits for it. Under the registry mutex an asker
//
// - takes the instance the scope's table holds, if any;
// - else joins the flight for its key *of the scope's current generation*:
//   a thread waits on the flight's condition, a task suspends on a
//   continuation, and both get the flight's outcome;
// - else starts a flight, and builds without the lock.
//
// The builder ends the flight under the mutex: it stores the instance if the
// scope's generation is still the flight's (a reset since it began stores
// nothing into the new generation), takes the flight out of the list and
// hands the outcome to the waiters. An asker that arrives after a reset never
// joins a flight that began before it: it starts its own. A flight whose
// builder will never finish (a verification's thread that failed) is
// abandoned: its waiters start over.
//
// What differs between threads and tasks is only how they wait and how the
// build runs: `buildOnce` (threads; the factory runs on the asking thread)
// and `buildOnceAsync` (tasks; the factory runs in a build task of its own,
// so that cancelling an asker leaves the build alone).

/// A build in progress in a caching scope. Its mutable state is guarded by
/// the registry mutex, held for a few instructions at a time.
final class Flight: @unchecked Sendable {
    /// How a flight ended.
    enum Outcome {
        /// Still building.
        case running
        /// Built: a `Carried<Service?>` (nil: the factory returned nil).
        case built(Any)
        /// Its builder will never finish: waiters start over.
        case abandoned
    }

    let typeID: UInt64
    let name: Resolver.Name?
    /// A typed registration's argument list (its instance is kept per list:
    /// `ArgumentInstances`), or nil.
    let argumentsKey: [AnyHashable]?
    /// The scope's generation when the build began.
    let generation: UInt64
    /// "Type" or "Type:name", for messages.
    let description: String
    /// The thread building it (for cycles across threads), or nil for an
    /// async build, which runs in a task of its own.
    let owner: ResolutionContext?

    // Guarded by the registry mutex.
    private(set) var outcome = Outcome.running
    /// The condition waiting threads sleep on, made by the first of them.
    private var ended: Condition?
    /// The tasks suspended until the flight ends.
    private var continuations: [CheckedContinuation<Void, Never>] = []
    /// How many threads and tasks wait for it (the tests read it).
    private(set) var waiting = 0

    init(typeID: UInt64, name: Resolver.Name?, argumentsKey: [AnyHashable]?, generation: UInt64, description: String,
         owner: ResolutionContext?) {
        self.typeID = typeID
        self.name = name
        self.argumentsKey = argumentsKey
        self.generation = generation
        self.description = description
        self.owner = owner
    }

    /// Whether this flight builds the key (`typeID`, `name`, argument list)
    /// in `generation`.
    func isBuilding(_ typeID: UInt64, _ name: Resolver.Name?, _ argumentsKey: [AnyHashable]?,
                    in generation: UInt64) -> Bool {
        self.typeID == typeID && self.name == name && self.generation == generation && self.argumentsKey == argumentsKey
    }

    /// The outcome as a `Service?`; nil (`.none`) when the flight was
    /// abandoned or built a value of another type (under a hand-made key,
    /// registrations of several types meet), so the asker starts over.
    func builtValue<Service>(as type: Service.Type) -> Service?? {
        guard case .built(let value) = outcome, let carried = value as? Carried<Service?> else {
            return .none
        }
        return .some(carried.value)
    }

    /// Waits, on the calling thread, until the flight ends. The registry
    /// mutex must be held, once: false when the wait is impossible (the
    /// caller holds it more than once).
    func waitLocked() -> Bool {
        registry.assertLocked()
        let condition: Condition
        if let ended {
            condition = ended
        } else {
            condition = Condition()
            ended = condition
        }
        waiting += 1
        defer { waiting -= 1 }
        while case .running = outcome {
            guard condition.wait(registry.mutex) else {
                return false
            }
        }
        return true
    }

    /// Suspends the calling task until the flight ends. Call without the mutex.
    func ending() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ended = registry.withLock { () -> Bool in
                guard case .running = outcome else {
                    return true
                }
                continuations.append(continuation)
                waiting += 1
                return false
            }
            if ended {
                continuation.resume()
            }
        }
    }

    /// Ends the flight with `outcome` and wakes its waiting threads; returns
    /// the tasks to resume once the mutex is released (`resume`). The mutex
    /// must be held.
    func endLocked(_ outcome: Outcome) -> Waiters {
        registry.assertLocked()
        self.outcome = outcome
        ended?.broadcast()
        waiting -= continuations.count
        defer { continuations = [] }
        return Waiters(continuations)
    }

    /// The chain of builds, if `waiter` waiting for this one would close a
    /// circle of threads each waiting for another's build (a dependency
    /// cycle spread over threads, which would deadlock); nil otherwise. The
    /// mutex must be held.
    func cycleLocked(closedBy waiter: ResolutionContext) -> [String]? {
        registry.assertLocked()
        var chain = [description]
        var owner = self.owner
        while let next = owner?.waitingFor {
            chain.append(next.description)
            if next.owner === waiter {
                chain.append(description)
                return chain
            }
            owner = next.owner
        }
        return nil
    }

    /// The tasks a flight's end resumes, once the registry mutex is released.
    struct Waiters {
        private let continuations: [CheckedContinuation<Void, Never>]

        init(_ continuations: [CheckedContinuation<Void, Never>]) {
            self.continuations = continuations
        }

        /// Resumes them. Call with the mutex not held.
        func resume() {
            for continuation in continuations {
                continuation.resume()
            }
        }
    }
}

extension ResolverScope {
    /// How the first step of a build-once ended.
    enum BuildStart<Service> {
        /// The scope's table holds it.
        case cached(Service)
        /// A flight of the current generation builds it: wait for its outcome.
        case join(Flight)
        /// The caller builds it, in this new flight.
        case build(Flight)
    }

    /// The first step of every build-once (S1): the cached instance, else the
    /// flight of the current generation for the key, else a new flight.
    /// `handMade`: the key is a hand-made registration's, whose entry holds
    /// `Any` (`resolveHandMade`). The mutex must be held.
    func startBuildLocked<Service>(_ key: RegistryKey, of registration: ResolverRegistration<Service>,
                                   argumentsKey: [AnyHashable]?, handMade: Bool, owner: ResolutionContext?)
        -> BuildStart<Service> {
        registry.assertLocked()
        let cached: Service?
        if let argumentsKey {
            cached = argumentInstance(registration, argumentsKey, as: Service.self)
        } else {
            cached = handMade ? anyInstance(key, as: Service.self) : cachedInstance(key, as: Service.self)
        }
        if let cached {
            return .cached(cached)
        }
        let (typeID, name) = handMade
            ? (ResolverRegistration<Service>.handMadeCacheType, registration.handMadeCacheName)
            : (registration.typeID, registration.name)
        let generation = self.generation
        if let flight = building.first(where: { $0.isBuilding(typeID, name, argumentsKey, in: generation) }) {
            return .join(flight)
        }
        let flight = Flight(typeID: typeID, name: name, argumentsKey: argumentsKey, generation: generation,
                            description: registration.keyDescription, owner: owner)
        building.append(flight)
        return .build(flight)
    }

    /// The last step: keeps `service` if the scope's generation is still the
    /// flight's, and ends the flight with it. The mutex must be held; resume
    /// the returned waiters after releasing it.
    func finishBuildLocked<Service>(_ flight: Flight, _ service: Service?, _ key: RegistryKey,
                                    of registration: ResolverRegistration<Service>, handMade: Bool) -> Flight.Waiters {
        registry.assertLocked()
        building.removeAll { $0 === flight }
        if let service, flight.generation == generation {
            if let argumentsKey = flight.argumentsKey {
                storeArgumentInstanceLocked(service, registration, argumentsKey)
            } else if handMade {
                storeLocked(service as Any, key)
            } else {
                storeLocked(service, key)
            }
        }
        return flight.endLocked(.built(Carried(service)))
    }

    /// Ends a flight whose builder will never finish: its waiters start over.
    /// The mutex must be held.
    func abandonLocked(_ flight: Flight) -> Flight.Waiters {
        registry.assertLocked()
        building.removeAll { $0 === flight }
        return flight.endLocked(.abandoned)
    }

    /// How `buildOnce`'s critical section ended.
    private enum ThreadBuildStep<Service> {
        /// An instance: cached, or another thread's build's.
        case done(Service?)
        /// The flight it waited for was abandoned, or built another type: again.
        case again
        /// This thread builds it.
        case build(Flight)
        /// This thread is building it already: a dependency cycle.
        case cycle
        /// A failure to raise once the mutex is released.
        case failure(String, Resolver.Verification.Failure.Kind)
    }

    /// A caching scope's way, on a thread, to an instance it does not hold:
    /// wait for the flight building it, or build it (without the lock) while
    /// others wait. `handMade`: the request's key is the registration's
    /// hand-made key (`resolveHandMade`). Call with the mutex not held.
    ///
    /// Failures found under the mutex (a cycle, a wait that cannot be) are
    /// raised after leaving it.
    @usableFromInline
    @inline(never)
    func buildOnce<Service>(_ registration: ResolverRegistration<Service>, _ request: ResolveRequest, given: Resolver?,
                            _ section: borrowing ReadSection, handMade: Bool = false) -> Service? {
        if registration.isolation == .async {
            // Built by `resolveAsync` only: a thread never waits for an async build.
            resolverFailure(ResolverRegistration<Service>.asyncFactoryMessage(registration.name), kind: .other)
        }
        let context = ResolutionContext.current
        let argumentsKey = handMade ? nil : registration.argumentsKey(request.arguments)
        while true {
            let step = registry.withLock { () -> ThreadBuildStep<Service> in
                switch startBuildLocked(request.key, of: registration, argumentsKey: argumentsKey, handMade: handMade,
                                        owner: context) {
                case .cached(let service):
                    return .done(service)
                case .build(let flight):
                    context.noteBuildStartedLocked(flight, in: self)
                    return .build(flight)
                case .join(let flight):
                    if flight.owner === context {
                        return .cycle
                    }
                    if let chain = flight.cycleLocked(closedBy: context) {
                        return .failure("RESOLVER: circular dependency across threads: \(chain.joined(separator: " → ")). Each factory waits for an instance another thread is building."
                                        + registeredAtLine([registration]),
                                        .cycle)
                    }
                    context.waitingFor = flight
                    defer { context.waitingFor = nil }
                    guard flight.waitLocked() else {
                        return .failure("RESOLVER: cannot wait for '\(registration.keyDescription)', built on another thread, while this thread is inside the registry (resolving from a deinit the registry ran?).",
                                        .other)
                    }
                    return flight.builtValue(as: Service.self).map { .done($0) } ?? .again
                }
            }
            switch step {
            case .done(let service):
                return service
            case .again:
                continue
            case .cycle:
                context.state.reportCycle(closingWith: UnownedReference(registration).opaque)
            case .failure(let message, let kind):
                resolverFailure(message, kind: kind)
            case .build(let flight):
                let service = ResolverRegistration.produce(UnownedReference(registration), context.state, request,
                                                           given: given, section)
                registry.withLock {
                    context.noteBuildEndedLocked(flight)
                    return finishBuildLocked(flight, service, request.key, of: registration, handMade: handMade)
                }.resume()
                return service
            }
        }
    }

    /// A caching scope's way, in a task, to an instance of an async
    /// registration it does not hold: the first task starts the build in a
    /// task of its own and every task that asks meanwhile (the first too)
    /// suspends until it ends (A2). No thread waits.
    nonisolated(nonsending)
    func buildOnceAsync<Service>(_ registration: ResolverRegistration<Service>, _ resolver: Resolver, _ args: Any?,
                                 _ parent: AsyncFrame) async -> Service? {
        let argumentsKey = registration.argumentsKey(boxed: args)
        while true {
            let start: BuildStart<Service> = withRegistryKey(Service.self, registration.name) { key in
                registry.withLock {
                    startBuildLocked(key, of: registration, argumentsKey: argumentsKey, handMade: false, owner: nil)
                }
            }
            let flight: Flight
            switch start {
            case .cached(let service):
                return service
            case .join(let joined):
                flight = joined
            case .build(let started):
                flight = started
                let work = Carried((self, registration, resolver, args, parent))
                // A task of its own, inheriting this one's task-locals (the
                // chain, `withRoot`, a verification): cancelling any asker
                // leaves the build alone.
                startBuildTask {
                    let (scope, registration, resolver, args, parent) = work.value
                    // On a verification's thread (its executor runs this
                    // task), a failure ends the thread: it must first take
                    // this build out.
                    let verifying = ResolutionContext.existing
                    registry.withLock { verifying?.noteBuildStartedLocked(flight, in: scope) }
                    let service = await AsyncFrame.$current.withValue(parent) {
                        await registration.runAsyncFactory(resolver, args, parent)
                    }
                    withRegistryKey(Service.self, registration.name) { key in
                        registry.write {
                            verifying?.noteBuildEndedLocked(flight)
                            return scope.finishBuildLocked(flight, service, key, of: registration, handMade: false)
                        }
                    }.resume()
                }
            }
            await flight.ending()
            if let service = registry.withLock({ flight.builtValue(as: Service.self) }) {
                return service
            }
        }
    }
}

/// Starts `operation` in a new task that inherits the caller's task-locals
/// (and, inside `verify()`, runs on the verification's thread).
private func startBuildTask(_ operation: sending @escaping @isolated(any) () async -> Void) {
    if #available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *),
       let executor = VerificationExecutor.current {
        Task(executorPreference: executor, operation: operation)
    } else {
        Task(operation: operation)
    }
}

extension ResolutionContext {
    /// Remembers, on a verification's thread, a build it started, so that a
    /// failure ending the thread can abandon it. The mutex must be held.
    func noteBuildStartedLocked(_ flight: Flight, in scope: ResolverScope) {
        registry.assertLocked()
        if verification != nil {
            unfinishedBuilds.append((scope, flight))
        }
    }

    /// Forgets a build this thread finished. The mutex must be held.
    func noteBuildEndedLocked(_ flight: Flight) {
        registry.assertLocked()
        if !unfinishedBuilds.isEmpty {
            unfinishedBuilds.removeAll { $0.flight === flight }
        }
    }

    /// Abandons the builds this thread started and will never finish (its
    /// verification failed). Call with the mutex not held.
    func abandonUnfinishedBuilds() {
        let waiters = registry.withLock { () -> [Flight.Waiters] in
            defer { unfinishedBuilds.removeAll() }
            return unfinishedBuilds.map { $0.scope.abandonLocked($0.flight) }
        }
        for waiting in waiters {
            waiting.resume()
        }
    }
}
