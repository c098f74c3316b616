// Building a caching scope's instance once, for threads and tasks alike
// (DESIGN.md, S1, A2, "One build-once"): what needs the service type is a
// closure the caller's specialized code passes in.

/// What a build-once is for: the table's key, what flights are matched by
/// (`typeID`, `name`, argument list), and the registration (for messages).
@frozen
@usableFromInline
struct BuildKey {
    @usableFromInline let key: RegistryKey
    @usableFromInline let typeID: UInt64
    @usableFromInline let name: Resolver.Name?
    @usableFromInline let argumentsKey: [AnyHashable]?
    /// Borrowed (B1): the asker holds the registration while it builds or waits.
    @usableFromInline let registration: UncheckedReference<AnyObject>
    @inlinable
    init(_ key: RegistryKey, typeID: UInt64, name: Resolver.Name?, argumentsKey: [AnyHashable]?,
         registration: AnyObject) {
        self.key = key
        self.typeID = typeID
        self.name = name
        self.argumentsKey = argumentsKey
        self.registration = UncheckedReference(registration)
    }
}

/// What a build made: the instance as `ValueStorage` keeps it (for the
/// waiters) and as the scope's table keeps it, each owned, or both nil.
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
    enum BuildStart {
        case cached
        case join(Flight)
        case build(BuildTicket)
    }

    /// The first step (S1): the cached instance (`found` reads the entry:
    /// false when it holds none for the caller), else the flight of the
    /// key's build that no reset dropped, else a new build.
    func beginBuildLocked(_ build: BuildKey, owner: ResolutionContext?,
                          found: (UncheckedReference<AnyObject>) -> Bool) -> BuildStart {
        registry.assertLocked()
        let entry = if let argumentsKey = build.argumentsKey {
            argumentEntryLocked(typeID: build.typeID, build.name, argumentsKey)
        } else {
            table?.findLocked(build.key)
        }
        if let entry, found(entry) {
            return .cached
        }
        if let index = building.firstIndex(where: { $0.isBuilding(build.typeID, build.name, build.argumentsKey) }) {
            return .join(flightLocked(at: index))
        }
        buildsStarted &+= 1
        let ticket = BuildTicket(number: buildsStarted)
        building.append(Build(ticket: ticket, typeID: build.typeID, name: build.name, argumentsKey: build.argumentsKey,
                              registration: build.registration,
                              owner: owner.map(UncheckedReference.init), flight: nil))
        return .build(ticket)
    }

    /// The flight of the build at `index`, made for its first waiter.
    private func flightLocked(at index: Int) -> Flight {
        if let flight = building[index].flight { return flight }
        let flight = Flight(building[index])
        building[index].flight = flight
        return flight
    }
    /// The flight of the build `ticket`, for an async asker that started it.
    func flightLocked(of ticket: BuildTicket) -> Flight? {
        building.firstIndex { $0.ticket == ticket }.map(flightLocked(at:))
    }

    /// The last step: keeps what was built unless a reset dropped the
    /// build, and ends it; resume the returned waiters after unlocking.
    func finishBuildLocked(_ ticket: BuildTicket, _ built: BuiltInstance, _ key: RegistryKey) -> Flight.Waiters {
        registry.assertLocked()
        guard let ended = removeBuildLocked(ticket) else {
            preconditionFailure("RESOLVER: a build ended twice")
        }
        if let entry = built.entry {
            if ended.dropped {
                entry.release() // never published; the caller keeps what it holds
            } else if let argumentsKey = ended.argumentsKey {
                storeArgumentEntryLocked(entry, typeID: ended.typeID, ended.name, argumentsKey)
            } else {
                storeEntryLocked(entry, key)
            }
        }
        guard let flight = ended.flight else {
            built.instance?.release() // nobody waits: the caller keeps its own reference
            return .none
        }
        return flight.endLocked(.built(built.instance))
    }

    /// Ends a build whose builder will never finish: its waiters start over.
    func abandonLocked(_ ticket: BuildTicket) -> Flight.Waiters {
        registry.assertLocked()
        return removeBuildLocked(ticket)?.flight?.endLocked(.abandoned) ?? .none
    }
    private func removeBuildLocked(_ ticket: BuildTicket) -> Build? {
        // From the end: a thread's builds nest, so the one ending is most often the last begun.
        guard let index = building.lastIndex(where: { $0.ticket == ticket }) else { return nil }
        building.swapAt(index, building.count - 1)
        return building.removeLast()
    }

    /// How `buildOnce`'s critical section ended.
    private enum ThreadBuildStep {
        /// `found` or `built` took an instance.
        case done
        /// The flight was abandoned, or built what `built` could not take.
        case again
        case build(BuildTicket)
        case cycle
        case cycleAcrossThreads([String])
        /// The thread holds the mutex more than once.
        case cannotWait
    }

    /// A caching scope's way, on a thread, to an instance it does not hold:
    /// wait for the flight building it, or build it without the lock while
    /// others wait. `found` reads an entry, `built` another thread's
    /// instance (each false when it holds nothing for the caller), `make`
    /// builds one. Failures found under the mutex are raised after it.
    @usableFromInline
    func buildOnce(_ build: BuildKey, found: (UncheckedReference<AnyObject>) -> Bool,
                   built: (UncheckedReference<AnyObject>?) -> Bool, make: () -> BuiltInstance) {
        let context = ResolutionContext.current
        while true {
            // Quiet: a build's start and end leave every thread's cache valid (S1, T1).
            let step = registry.mutex.withQuietLock { () -> ThreadBuildStep in
                switch beginBuildLocked(build, owner: context, found: found) {
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
                context.state.reportCycle(closingWith: build.registration.opaque)
            case .cycleAcrossThreads(let chain):
                fail("RESOLVER: circular dependency across threads: \(chain.joined(separator: " → ")). Each factory waits for an instance another thread is building."
                     + registeredAtLine([build.registration.object].compactMap { $0 as? RegistrationDescribing }),
                     kind: .cycle)
            case .cannotWait:
                fail("RESOLVER: cannot wait for '\(describeRegistration(build.registration.object))', built on another thread, while this thread is inside the registry (resolving from a deinit the registry ran?).",
                     kind: .other)
            }
        }
    }

    /// A caching scope's way, in a task, to an async registration's instance
    /// it does not hold: the first asker starts the build in a task of its
    /// own, and every asker suspends until it ends (A2).
    nonisolated(nonsending)
    func buildOnceAsync<Service>(_ registration: ResolverRegistration<Service>, _ resolver: Resolver, _ args: Any?,
                                 _ parent: AsyncFrame) async -> Service? {
        let argumentsKey = withCarriedArguments(args) { registration.argumentsKey($0) }
        let kind = self.kind
        let scope = UncheckedReference(self)
        while true {
            var service: Service?
            let start = withRegistryKey(Service.self, registration.name) { key in
                let build = BuildKey(key, typeID: registration.typeID, name: registration.name,
                                     argumentsKey: argumentsKey, registration: registration)
                return registry.withLock {
                    beginBuildLocked(build, owner: nil) { entry in
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
                guard let started = registry.withLock({ flightLocked(of: ticket) }) else { continue }
                flight = started
                let work = Carried((self, registration, resolver, args, parent))
                spawnBuildTask {
                    let (scope, registration, resolver, args, parent) = work.value
                    // A verification's thread, whose executor runs this, takes the build out when it fails.
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
                guard let instance = flight.builtLocked else { return false }
                service = instance.map { ValueStorage.value(in: $0, as: Service.self) }
                return true
            }
            if done {
                return service
            }
        }
    }

    /// What a build made, packed for the flight and for the table of a
    /// scope of `kind`. A `.shared` scope keeps no value type.
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

    /// `service` (held by `instance`) as a scope of `kind` keeps it:
    /// strongly, weakly (`.shared`) or with its expiry; owned, or nil.
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

/// Starts `operation` in a new task that inherits the caller's task-locals
/// (the chain, `withRoot`, a verification, on whose thread it then runs).
private func spawnBuildTask(_ operation: sending @escaping @isolated(any) () async -> Void) {
    if #available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *),
       let executor = VerificationExecutor.current {
        Task(executorPreference: executor, operation: operation)
    } else {
        Task(operation: operation)
    }
}

extension ResolverRegistration {
    /// A caching scope without the instance: build it once, the closures specialized where the resolve is.
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

    /// Stops: a synchronous resolve asked for an async factory's instance.
    @usableFromInline
    func asyncFactoryStop() -> Never {
        fail(Self.asyncFactoryMessage(name), kind: .other)
    }
}

extension ResolutionContext {
    /// Remembers a build a verification's thread started, for a failure to abandon.
    func noteBuildStartedLocked(_ ticket: BuildTicket, in scope: ResolverScope) {
        registry.assertLocked()
        if verification != nil {
            unfinishedBuilds.append((scope, ticket))
        }
    }
    func noteBuildEndedLocked(_ ticket: BuildTicket) {
        registry.assertLocked()
        if !unfinishedBuilds.isEmpty {
            unfinishedBuilds.removeAll { $0.ticket == ticket }
        }
    }

    /// Abandons the builds this thread will never finish (its verification failed).
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
