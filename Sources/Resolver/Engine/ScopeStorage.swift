/// How the caching scopes keep instances, and build each once
/// (DESIGN.md, invariant 4): the table and generation of `ResolverScope`,
/// read by the resolve path without a lock and changed under the registry
/// mutex.
extension ResolverScope {
    /// A generation word starting at a base no other scope uses (the scope's
    /// serial number in the upper 32 bits), so a (scope, generation) pair a
    /// memo remembers never comes back, even if another scope later takes
    /// this one's address.
    static func makeGenerationWord() -> AtomicWord {
        let word = AtomicWord.allocate()
        word.store(Published.scopesMade.increment() << 32)
        return word
    }

    /// The deinit's work: retires the cached instances; they are released
    /// once no read section can reach them. (No reader can reach this scope
    /// any more: registrations hold their scope, and a registration's old
    /// scope is retired, not released.)
    func releaseStorage() {
        ThreadCache.invalidate()
        table?.destroy()
        generationWord.deallocate()
        collectRetired()
    }

    /// The generation (under the mutex).
    var generation: UInt64 {
        generationWord.load()
    }

    /// Runs `change`, which takes entries out of the table, between two
    /// generation steps: odd during the change, a new even value after it.
    /// The mutex must be held.
    func changeEntriesLocked(_ change: () -> Void) {
        generationWord.store(generationWord.load() &+ 1)
        change()
        generationWord.store(generationWord.load() &+ 1)
    }
}

/// A weak reference held by reference, as a `.shared` cache or a
/// `WeakLazyInjected` stores it. Set once, when made, so threads may read it
/// at the same time.
@usableFromInline
final class WeakBox {
    @usableFromInline weak var object: AnyObject?

    init(_ object: AnyObject?) {
        self.object = object
    }
}

extension ResolverScope {
    /// `resolve(registration:resolver:args:)` of the built-in scopes, for
    /// callers outside the resolve path (custom scopes, `implements`).
    func resolveBuiltIn<Service>(_ registration: ResolverRegistration<Service>, _ resolver: Resolver, _ args: Any?) -> Service? {
        if registration.handMadeCacheName != nil, kind == .cache || kind == .shared {
            return withArguments(args) { arguments in
                ReadSection.run { section in
                    resolveHandMade(registration, resolver, arguments, section)
                }
            }
        }
        return withArguments(args) { arguments in
            withRegistryKey(Service.self, registration.name) { key in
                ReadSection.run { section in
                    ResolverRegistration.resolve(UnownedReference(registration), through: UnownedReference(self),
                                                 ResolveRequest(key, from: UnownedReference(resolver), arguments),
                                                 given: resolver, section)
                }
            }
        }
    }

    /// A caching scope (`.cache`, `.shared`) and a registration made by hand
    /// with a key other than its type's: the instance kept under its
    /// `cacheKey`, or a new one, built once and kept there. Registrations of
    /// several service types can meet under one `cacheKey` (in 1.5.1 too), so
    /// the entry holds the instance as `Any` (a `.shared` entry, weakly, as
    /// `AnyObject`) and a read casts it, as the original's `as? Service`; an
    /// instance of another type is replaced.
    func resolveHandMade<Service>(_ registration: ResolverRegistration<Service>, _ resolver: Resolver,
                                  _ arguments: ArgumentsPointer, _ section: borrowing ReadSection) -> Service? {
        let name = registration.handMadeCacheName.unsafelyUnwrapped
        return withRegistryKey(ResolverRegistration<Service>.handMadeCacheType, name.key, owner: name) { key in
            if let cached = anyInstance(key, as: Service.self) {
                return cached
            }
            return buildOnce(registration, ResolveRequest(key, from: UnownedReference(resolver), arguments),
                             given: resolver, section, handMade: true)
        }
    }

    /// The instance the entry under a hand-made registration's key holds, if
    /// it is a `Service` (see `resolveHandMade`). Call inside a read section
    /// or holding the mutex.
    func anyInstance<Service>(_ key: RegistryKey, as type: Service.Type) -> Service? {
        guard let entry = table?.findValue(key) else {
            return nil
        }
        if kind == .shared {
            return entry.unsafeCast(to: WeakBox.self).read { $0.object } as? Service
        }
        return ValueStorage.value(in: entry, as: Any.self) as? Service
    }

    /// Empties a caching scope and starts a new generation. The mutex must be
    /// held; the instances are retired.
    func resetLocked() {
        guard let table else { return }
        changeEntriesLocked {
            table.clearLocked()
        }
    }

    /// The service an entry of a caching scope's table holds: the instance
    /// itself (`.cache`), or the live object a weak box points at (`.shared`;
    /// nil once it is gone). Call inside a read section.
    @inlinable
    @inline(__always)
    static func service<Service>(inEntry entry: UnownedReference<AnyObject>, of kind: Kind, as type: Service.Type) -> Service? {
        guard kind == .shared else {
            return ValueStorage.value(in: entry, as: Service.self)
        }
        guard let object = entry.unsafeCast(to: WeakBox.self).read({ $0.object }) else {
            return nil
        }
        if ValueStorage.isClassReference(Service.self) {
            return unsafeBitCast(object, to: Service.self)
        }
        return object as? Service
    }

    /// The instance this caching scope holds under `key`, if any. Call inside
    /// a read section or holding the mutex.
    func cachedInstance<Service>(_ key: RegistryKey, as type: Service.Type) -> Service? {
        guard let entry = table?.findValue(key) else {
            return nil
        }
        return ResolverScope.service(inEntry: entry, of: kind, as: Service.self)
    }

    /// Keeps `service` under `key`: strongly in a cache, weakly (class
    /// instances only) in a shared scope. What it replaces is retired. Out of
    /// memory, the instance is simply not cached. The mutex must be held.
    func storeLocked<Service>(_ service: Service, _ key: RegistryKey) {
        guard let table else { return }
        let stored: UnownedReference<AnyObject>
        if kind == .shared {
            guard let object = ValueStorage.instance(in: service) else {
                return
            }
            stored = .retaining(WeakBox(object))
        } else {
            stored = ValueStorage.retainedReference(to: service)
        }
        var rc: Int32 = 0
        if table.findLocked(key) != nil {
            // Replacing a dead `.shared` entry, or under a hand-made key an
            // instance of another type: the old one leaves the table.
            changeEntriesLocked {
                rc = table.putLocked(key, stored)
            }
        } else {
            rc = table.putLocked(key, stored)
        }
        if rc != 0 {
            // Never published: no reader can see it. The caller holds the
            // instance, so this release runs no deinit.
            stored.release()
        }
    }

    /// A caching scope's way to an instance that is not cached: wait for the
    /// thread building it, or build it (without the lock) while others wait;
    /// store it unless the scope was reset meanwhile. `handMade`: the
    /// request's key is the registration's hand-made key, whose entry holds
    /// `Any` (`resolveHandMade`). Call with the mutex not held.
    ///
    /// The mutex is held in two scopes, before the build and after it; a
    /// failure found under it (a cycle, a wait that cannot be) is raised
    /// after leaving it.
    @usableFromInline
    @inline(never)
    func buildOnce<Service>(_ registration: ResolverRegistration<Service>, _ request: ResolveRequest, given: Resolver?,
                            _ section: borrowing ReadSection, handMade: Bool = false) -> Service? {
        let context = ResolutionContext.current
        let (flightType, flightName) = handMade
            ? (ResolverRegistration<Service>.handMadeCacheType, registration.handMadeCacheName)
            : (registration.typeID, registration.name)
        let start = registry.withLock { () -> BuildStart<Service> in
            while true {
                if let cached = handMade ? anyInstance(request.key, as: Service.self)
                                         : cachedInstance(request.key, as: Service.self) {
                    return .cached(cached)
                }
                guard let flight = building.first(where: { $0.isBuilding(flightType, flightName) }) else {
                    break
                }
                if flight.owner === context {
                    return .cycle
                }
                if let chain = flight.cycle(closedBy: context) {
                    return .failure("RESOLVER: circular dependency across threads: \(chain.joined(separator: " → ")). Each factory waits for an instance another thread is building.",
                                    .cycle)
                }
                context.waitingFor = flight
                let waited = flight.finished.wait(registry.mutex)
                context.waitingFor = nil
                if !waited {
                    return .failure("RESOLVER: cannot wait for '\(registration.keyDescription)', built on another thread, while this thread is inside the registry (resolving from a deinit the registry ran?).",
                                    .other)
                }
            }
            let flight = InFlight(typeID: flightType, name: flightName,
                                  description: registration.keyDescription, owner: context)
            building.append(flight)
            if context.verification != nil {
                context.unfinishedBuilds.append((self, flight))
            }
            return .build(flight, generation: generation)
        }
        let flight: InFlight
        let buildGeneration: UInt64
        switch start {
        case .cached(let service):
            return service
        case .cycle:
            context.reportCycle(closingWith: UnownedReference(registration).opaque)
        case .failure(let message, let kind):
            resolverFailure(message, kind: kind)
        case .build(let started, let startGeneration):
            flight = started
            buildGeneration = startGeneration
        }

        let service = ResolverRegistration.produce(UnownedReference(registration), context, request, given: given, section)

        registry.withLock {
            building.removeAll { $0 === flight }
            if context.verification != nil {
                context.unfinishedBuilds.removeAll { $0.flight === flight }
            }
            if let service, buildGeneration == generation {
                if handMade {
                    storeLocked(service as Any, request.key)
                } else {
                    storeLocked(service, request.key)
                }
            }
            flight.finished.broadcast()
        }
        return service
    }
}

/// How `buildOnce`'s first critical section ended.
enum BuildStart<Service> {
    /// Another thread built it meanwhile.
    case cached(Service)
    /// This thread is building it: a dependency cycle.
    case cycle
    /// A failure to raise once the mutex is released.
    case failure(String, Resolver.Verification.Failure.Kind)
    /// This thread builds it, in `generation` of the scope.
    case build(InFlight, generation: UInt64)
}

/// A build in progress in a caching scope: which key, which thread, and the
/// condition its waiters sleep on (so a finished build wakes only them).
final class InFlight {
    let typeID: UInt64
    let name: Resolver.Name?
    let description: String
    let owner: ResolutionContext
    let finished = Condition()

    init(typeID: UInt64, name: Resolver.Name?, description: String, owner: ResolutionContext) {
        self.typeID = typeID
        self.name = name
        self.description = description
        self.owner = owner
    }

    /// Whether this build is for the key (`typeID`, `name`).
    func isBuilding(_ typeID: UInt64, _ name: Resolver.Name?) -> Bool {
        self.typeID == typeID && self.name == name
    }

    /// The chain of builds, if `waiter` waiting for this one would close a
    /// circle of threads each waiting for another's build (a dependency
    /// cycle spread over threads, which would deadlock); nil otherwise. The
    /// mutex must be held.
    func cycle(closedBy waiter: ResolutionContext) -> [String]? {
        var chain = [description]
        var owner = self.owner
        while let next = owner.waitingFor {
            chain.append(next.description)
            if next.owner === waiter {
                chain.append(description)
                return chain
            }
            owner = next.owner
        }
        return nil
    }
}
