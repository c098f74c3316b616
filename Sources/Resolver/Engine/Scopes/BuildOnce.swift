// Building a caching scope's instance once (DESIGN.md, S1), for threads and
// tasks alike.
//
// A build in progress is a `Build` in its scope's `building` list: the key
// it builds (type identity and name), whether a reset has dropped it since
// it began, and, once someone waits for it, its `Flight`: the outcome and
// the waiters.
// (A build nobody waits for, the common case, allocates nothing.) Under the
// registry mutex an asker
//
// - takes the instance the scope's table holds, if any;
// - else joins the flight for its key that no reset has dropped:
//   a thread waits on the flight's condition, a task suspends on a
//   continuation, and both get the flight's outcome;
// - else starts a flight, and builds without the lock.
//
// The builder ends the flight under the mutex: it stores the instance unless
// a reset of the scope or of the service dropped the build since it began
// (nothing built before a reset is kept after it), takes the flight out of the list and
// hands the outcome to the waiters. An asker that arrives after a reset never
// joins a flight that began before it: it starts its own. A flight whose
// builder will never finish (a verification's thread that failed) is
// abandoned: its waiters start over.
//
// Everything here is written once, for no service type in particular: an
// instance travels as the object `ValueStorage` keeps it in (the instance
// itself, for a class), and what needs the type (reading an entry, calling
// the factory) is a closure the caller's specialized code passes in. So a
// build runs no generic code of the library's own and makes no description
// (a flight names its registration only when a message needs it). What
// differs between threads and tasks is only how they wait and how the build
// runs: `buildOnce` (threads; the factory runs on the asking thread) and
// `buildOnceAsync` (tasks; the factory runs in a build task of its own, so
// that cancelling an asker leaves the build alone).

/// What a build-once is for: the key in the scope's table (and the
/// `typeID`, `name` and argument list flights are matched by), and the
/// registration (a `ResolverRegistration`), for messages.
@frozen
@usableFromInline
struct BuildKey {
    @usableFromInline let key: RegistryKey
    @usableFromInline let typeID: UInt64
    @usableFromInline let name: Resolver.Name?
    @usableFromInline let argumentsKey: [AnyHashable]?
    @usableFromInline let registration: AnyObject

    @inlinable
    init(_ key: RegistryKey, typeID: UInt64, name: Resolver.Name?, argumentsKey: [AnyHashable]?,
         registration: AnyObject) {
        self.key = key
        self.typeID = typeID
        self.name = name
        self.argumentsKey = argumentsKey
        self.registration = registration
    }
}

/// What a build made, as the caller's specialized code packs it: the
/// instance as `ValueStorage` keeps it (for the waiters) and as the scope's
/// table keeps it (for later resolves), each an owned reference, or both nil
/// when the factory returned nil.
@frozen
@usableFromInline
struct BuiltInstance {
    @usableFromInline let instance: UncheckedReference<AnyObject>?
    @usableFromInline let entry: UncheckedReference<AnyObject>?

    @inlinable
    init(instance: UncheckedReference<AnyObject>?, entry: UncheckedReference<AnyObject>?) {
        self.instance = instance
        self.entry = entry
    }
}

extension ResolverScope {
    /// How the first step of a build-once ended.
    enum BuildStart {
        /// The scope's table holds it, and `found` took it.
        case cached
        /// A build that no reset has dropped is under way: wait on its flight.
        case join(Flight)
        /// The caller builds it, as this build.
        case build(BuildTicket)
    }

    /// The first step of every build-once (S1): the cached instance (which
    /// `found` reads from the table's entry: false when the entry holds none
    /// for the caller, a `.shared` object gone or an expired one), else the
    /// flight of the build of the key that no reset has dropped, else a new
    /// build. The mutex must be held.
    func startBuildLocked(_ build: BuildKey, owner: ResolutionContext?,
                          found: (UncheckedReference<AnyObject>) -> Bool) -> BuildStart {
        registry.assertLocked()
        if let entry = entryLocked(build), found(entry) {
            return .cached
        }
        if let index = building.firstIndex(where: { $0.isBuilding(build.typeID, build.name, build.argumentsKey) }) {
            return .join(flightLocked(at: index))
        }
        buildsStarted &+= 1
        let ticket = BuildTicket(number: buildsStarted)
        building.append(Build(ticket: ticket, typeID: build.typeID, name: build.name, argumentsKey: build.argumentsKey,
                              registration: UncheckedReference(build.registration),
                              owner: owner.map(UncheckedReference.init), flight: nil))
        return .build(ticket)
    }

    /// The flight of the build at `index` of `building`, made for its first
    /// waiter. The mutex must be held.
    private func flightLocked(at index: Int) -> Flight {
        if let flight = building[index].flight {
            return flight
        }
        let flight = Flight(building[index])
        building[index].flight = flight
        return flight
    }

    /// The flight of the build `ticket`, for an async asker that started it
    /// and waits like the others. The mutex must be held.
    func flightLocked(of ticket: BuildTicket) -> Flight? {
        building.firstIndex { $0.ticket == ticket }.map(flightLocked(at:))
    }

    /// The entry the table holds for `build`: under its key, or, for a typed
    /// registration, for its argument list. The mutex must be held.
    private func entryLocked(_ build: BuildKey) -> UncheckedReference<AnyObject>? {
        guard let argumentsKey = build.argumentsKey else {
            return table?.findLocked(build.key)
        }
        return argumentEntryLocked(typeID: build.typeID, build.name, argumentsKey)
    }

    /// The last step: keeps what was built unless a reset dropped the
    /// build, and ends the build, handing the instance to its
    /// flight if anyone waits. The mutex must be held; resume the returned
    /// waiters after releasing it.
    func finishBuildLocked(_ ticket: BuildTicket, _ built: BuiltInstance, _ key: RegistryKey) -> Flight.Waiters {
        registry.assertLocked()
        guard let ended = removeBuildLocked(ticket) else {
            preconditionFailure("RESOLVER: a build ended twice")
        }
        if let entry = built.entry {
            if !ended.dropped {
                if let argumentsKey = ended.argumentsKey {
                    storeArgumentEntryLocked(entry, typeID: ended.typeID, ended.name, argumentsKey)
                } else {
                    storeEntryLocked(entry, key)
                }
            } else {
                // Never published; the caller keeps what it holds.
                entry.release()
            }
        }
        guard let flight = ended.flight else {
            // Nobody waits: the caller keeps its own reference.
            built.instance?.release()
            return .none
        }
        return flight.endLocked(.built(built.instance))
    }

    /// Ends a build whose builder will never finish: its waiters start over.
    /// The mutex must be held.
    func abandonLocked(_ ticket: BuildTicket) -> Flight.Waiters {
        registry.assertLocked()
        guard let flight = removeBuildLocked(ticket)?.flight else {
            return .none
        }
        return flight.endLocked(.abandoned)
    }

    /// Takes the build `ticket` out of the list (their order does not
    /// matter). The mutex must be held.
    private func removeBuildLocked(_ ticket: BuildTicket) -> Build? {
        guard let index = building.firstIndex(where: { $0.ticket == ticket }) else {
            return nil
        }
        building.swapAt(index, building.count - 1)
        return building.removeLast()
    }

    /// How `buildOnce`'s critical section ended.
    private enum ThreadBuildStep {
        /// An instance: cached (`found` took it), or another thread's build's
        /// (`built` took it).
        case done
        /// The flight it waited for was abandoned, or built what `built`
        /// could not take: again.
        case again
        /// This thread builds it, as this build.
        case build(BuildTicket)
        /// This thread is building it already: a dependency cycle.
        case cycle
        /// Waiting for this flight would close a circle of threads each
        /// waiting for another's build: the chain.
        case cycleAcrossThreads([String])
        /// The flight cannot be waited for (the thread holds the mutex more
        /// than once).
        case cannotWait
    }

    /// A caching scope's way, on a thread, to an instance it does not hold:
    /// wait for the flight building it, or build it (without the lock) while
    /// others wait. The caller's closures know the service type: `found`
    /// reads an entry of the table, `built` an instance another thread's
    /// build made (each false when it holds nothing for the caller), and
    /// `make` builds one (on this thread, inside the caller's read section).
    /// Call with the mutex not held.
    ///
    /// Failures found under the mutex (a cycle, a wait that cannot be) are
    /// raised after leaving it.
    @usableFromInline
    func buildOnce(_ build: BuildKey, found: (UncheckedReference<AnyObject>) -> Bool,
                   built: (UncheckedReference<AnyObject>?) -> Bool, make: () -> BuiltInstance) {
        let context = ResolutionContext.current
        while true {
            // Quiet: a build's start and end change nothing a thread's cache
            // holds (a store that would: `storeEntryLocked`), so they leave
            // every thread's cache valid (T1).
            let step = registry.mutex.withQuietLock { () -> ThreadBuildStep in
                switch startBuildLocked(build, owner: context, found: found) {
                case .cached:
                    return .done
                case .build(let ticket):
                    context.noteBuildStartedLocked(ticket, in: self)
                    return .build(ticket)
                case .join(let flight):
                    if flight.owner === context {
                        return .cycle
                    }
                    if let chain = flight.cycleLocked(closedBy: context) {
                        return .cycleAcrossThreads(chain)
                    }
                    context.waitingFor = flight
                    defer { context.waitingFor = nil }
                    guard flight.waitLocked() else {
                        return .cannotWait
                    }
                    guard let instance = flight.builtLocked, built(instance) else {
                        return .again
                    }
                    return .done
                }
            }
            switch step {
            case .done:
                return
            case .again:
                continue
            case .build(let ticket):
                let instance = make()
                registry.mutex.withQuietLock {
                    context.noteBuildEndedLocked(ticket)
                    return finishBuildLocked(ticket, instance, build.key)
                }.resume()
                return
            case .cycle:
                context.state.reportCycle(closingWith: UncheckedReference(build.registration).opaque)
            case .cycleAcrossThreads(let chain):
                resolverFailure("RESOLVER: circular dependency across threads: \(chain.joined(separator: " → ")). Each factory waits for an instance another thread is building."
                                + registeredAtLine([build.registration].compactMap { $0 as? RegistrationDescribing }),
                                kind: .cycle)
            case .cannotWait:
                resolverFailure("RESOLVER: cannot wait for '\(describeRegistration(build.registration))', built on another thread, while this thread is inside the registry (resolving from a deinit the registry ran?).",
                                kind: .other)
            }
        }
    }
}

extension ResolverScope {
    /// A caching scope's way, in a task, to an instance of an async
    /// registration it does not hold: the first task starts the build in a
    /// task of its own and every task that asks meanwhile (the first too)
    /// suspends until it ends (A2). No thread waits.
    nonisolated(nonsending)
    func buildOnceAsync<Service>(_ registration: ResolverRegistration<Service>, _ resolver: Resolver, _ args: Any?,
                                 _ parent: AsyncFrame) async -> Service? {
        let argumentsKey = registration.argumentsKey(boxed: args)
        let kind = self.kind
        let scope = UncheckedReference(self)
        while true {
            var service: Service?
            let start = withRegistryKey(Service.self, registration.name) { key in
                let build = BuildKey(key, typeID: registration.typeID, name: registration.name,
                                     argumentsKey: argumentsKey, registration: registration)
                return registry.withLock {
                    startBuildLocked(build, owner: nil) { entry in
                        service = ResolverScope.service(inEntry: entry, of: kind, in: scope, as: Service.self)
                        return service != nil
                    }
                }
            }
            let flight: Flight
            switch start {
            case .cached:
                return service
            case .join(let joined):
                flight = joined
            case .build(let ticket):
                // This task waits for the build like the others.
                guard let started = registry.withLock({ flightLocked(of: ticket) }) else {
                    continue
                }
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
                    registry.withLock { verifying?.noteBuildStartedLocked(ticket, in: scope) }
                    let service = await AsyncFrame.$current.withValue(parent) {
                        await registration.runAsyncFactory(resolver, args, parent)
                    }
                    let built = ResolverScope.built(service, for: scope.kind, in: UncheckedReference(scope),
                                                    keepingNil: registration.keepsNil)
                    withRegistryKey(Service.self, registration.name) { key in
                        registry.write {
                            verifying?.noteBuildEndedLocked(ticket)
                            return scope.finishBuildLocked(ticket, built, key)
                        }
                    }.resume()
                }
            }
            await flight.ending()
            let done = registry.withLock { () -> Bool in
                guard let instance = flight.builtLocked else {
                    return false
                }
                service = instance.map { ValueStorage.value(in: $0, as: Service.self) }
                return true
            }
            if done {
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

extension ResolverRegistration {
    /// A caching scope without the instance: build it once (S1). Specialized
    /// where the resolve is (`@inlinable`), so the closures the scope's
    /// build-once calls run no generic code.
    @inlinable
    @inline(never)
    static func buildOnce(_ registration: UncheckedReference<ResolverRegistration>, _ scope: UncheckedReference<ResolverScope>,
                          _ request: ResolveRequest, _ section: borrowing ReadSection) -> Service? {
        registration.read { registration in
            if registration.isolation == .async {
                // Built by `resolveAsync` only: a thread never waits for an async build.
                registration.asyncFactoryStop()
            }
        }
        let kind = scope.read { $0.kind }
        var service: Service?
        let build = registration.read { registration in
            BuildKey(request.key, typeID: registration.typeID, name: registration.name,
                     argumentsKey: registration.argumentsKey(request.arguments), registration: registration)
        }
        scope.read { scope in
            scope.buildOnce(build, found: { entry in
                service = ResolverScope.service(inEntry: entry, of: kind, in: UncheckedReference(scope), as: Service.self)
                return service != nil
            }, built: { instance in
                service = instance.map { ValueStorage.value(in: $0, as: Service.self) }
                return true
            }, make: {
                service = produce(registration, ResolutionContext.currentState, request.container, request.arguments,
                                  section)
                return ResolverScope.built(service, for: kind, in: UncheckedReference(scope),
                                           keepingNil: registration.read { $0.keepsNil })
            })
        }
        return service
    }

    /// Stops: a synchronous resolve asked for an async factory's instance,
    /// which no caching scope holds yet.
    @usableFromInline
    func asyncFactoryStop() -> Never {
        resolverFailure(Self.asyncFactoryMessage(name), kind: .other)
    }
}

extension ResolverScope {
    /// What a build made, packed for the flight (the instance) and for the
    /// table of a scope of `kind` (strongly, weakly for `.shared`, with its
    /// expiry for a time-to-live scope): each an owned reference. A
    /// `.shared` scope keeps no value type (nothing to hold weakly).
    @inlinable
    static func built<Service>(_ service: Service?, for kind: Kind, in scope: UncheckedReference<ResolverScope>,
                               keepingNil: Bool = true) -> BuiltInstance {
        guard let service else {
            return BuiltInstance(instance: nil, entry: nil)
        }
        let instance = ValueStorage.retainedReference(to: service)
        if !keepingNil && ValueStorage.isNil(service) {
            // A key's nil of an Optional service: handed to the askers, never kept.
            return BuiltInstance(instance: instance, entry: nil)
        }
        return BuiltInstance(instance: instance, entry: entry(for: service, instance, of: kind, in: scope))
    }

    /// `service` (held by `instance`, an owned reference) as a table of a
    /// scope of `kind` keeps it: an owned reference, or nil for nothing to
    /// keep.
    @inlinable
    static func entry<Service>(for service: Service, _ instance: UncheckedReference<AnyObject>, of kind: Kind,
                               in scope: UncheckedReference<ResolverScope>) -> UncheckedReference<AnyObject>? {
        if kind.holdsInstancesWeakly {
            return ValueStorage.instance(in: service).map { .retaining(WeakBox($0)) }
        }
        if kind.instancesExpire {
            return .retaining(ExpiringBox(service, expiry: scope.read { $0.expiryOfInstanceBuiltNow() }))
        }
        return .retaining(instance.object)
    }
}

extension ResolutionContext {
    /// Remembers, on a verification's thread, a build it started, so that a
    /// failure ending the thread can abandon it. The mutex must be held.
    func noteBuildStartedLocked(_ ticket: BuildTicket, in scope: ResolverScope) {
        registry.assertLocked()
        if verification != nil {
            unfinishedBuilds.append((scope, ticket))
        }
    }

    /// Forgets a build this thread finished. The mutex must be held.
    func noteBuildEndedLocked(_ ticket: BuildTicket) {
        registry.assertLocked()
        if !unfinishedBuilds.isEmpty {
            unfinishedBuilds.removeAll { $0.ticket == ticket }
        }
    }

    /// Abandons the builds this thread started and will never finish (its
    /// verification failed). Call with the mutex not held.
    func abandonUnfinishedBuilds() {
        let waiters = registry.withLock { () -> [Flight.Waiters] in
            defer { unfinishedBuilds.removeAll() }
            return unfinishedBuilds.map { $0.scope.abandonLocked($0.ticket) }
        }
        for waiting in waiters {
            waiting.resume()
        }
    }
}
