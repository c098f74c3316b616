import CRegistry

/// What a scope does: given a registration, return a cached instance or make
/// one with `registration.instantiate(resolver:args:)`.
public protocol ResolverScopeType: AnyObject {
    /// Returns the instance of `registration`'s service for this scope.
    func resolve<Service>(registration: ResolverRegistration<Service>, resolver: Resolver, args: Any?) -> Service?
    /// Drops whatever the scope has cached.
    func reset()
}

/// A scope controls when a registration's factory runs and how long its
/// instances live. The built-in scopes are static members (`.graph`,
/// `.application`, `.cached`, `.shared`, `.unique`, `.container`); apps add
/// their own as more instances:
///
/// ```swift
/// extension ResolverScope {
///     static let session = ResolverScopeCache()
/// }
/// register { Session() }.scope(.session)
/// ResolverScope.session.reset()
/// ```
///
/// `ResolverScope` itself is the unique scope: a new instance every time.
/// Subclasses may override `resolve(registration:resolver:args:)` and call
/// `registration.instantiate(resolver:args:)` to build; the resolve path calls
/// a subclass's override with real references, so it may hold on to them.
/// An override may be called from several threads at once, and runs with no
/// lock of the library's held: guard its state. In Swift 6 mode a subclass
/// restates `@unchecked Sendable`.
open class ResolverScope: ResolverScopeType, @unchecked Sendable {
    /// Which built-in behaviour a scope has, so the resolve path can handle
    /// the built-in scopes without a dynamic call.
    @usableFromInline
    enum Kind: UInt8 {
        case unique, graph, cache, shared, container, custom
    }

    @usableFromInline let kind: Kind
    /// The C table of a caching scope (`.cache`: instances, `.shared`: weak
    /// boxes), owning its values; nil for the others. Readers search it in a
    /// read section; writers change it under the registry mutex.
    @usableFromInline let table: OpaquePointer?

    // Guarded by the registry mutex.
    /// The keys whose factories are running, so that each is built once.
    var building: [InFlight] = []
    /// The keys whose async factories are running (`buildOnceAsync`).
    var asyncBuilding: [AsyncFlight] = []
    /// A caching scope's generation: odd while entries leave the table (a
    /// `reset()`, a dead `.shared` entry replaced), even otherwise, and never
    /// the same even value twice. So an entry a resolve found after reading
    /// an even generation is in the table for as long as the generation
    /// keeps that value (a registration's `CacheMemo` relies on that; a
    /// generation read before a change began goes stale with it, and an entry
    /// found then is at worst retired, never freed, while the reader's
    /// section is open). A build that began before a reset does not store
    /// into the reset cache. Written under the mutex, read without it.
    @usableFromInline let generationWord: UnsafeMutablePointer<crg_word>

    /// Makes a unique scope (for `ResolverScope` itself) or the base of a
    /// custom subclass.
    public init() {
        kind = type(of: self) == ResolverScope.self ? .unique : .custom
        table = nil
        generationWord = ResolverScope.makeGenerationWord()
    }

    init(kind: Kind) {
        self.kind = kind
        if kind == .cache || kind == .shared {
            var options = crg_options(capacity: 0, mutex: registry.mutex, allocator: nil,
                                      release: releaseRetainedObject, release_context: nil)
            var table: OpaquePointer?
            guard crg_create(&table, &options) == 0, let table else {
                fatalError("RESOLVER: out of memory creating a scope cache")
            }
            self.table = table
        } else {
            table = nil
        }
        generationWord = ResolverScope.makeGenerationWord()
    }

    /// A generation word starting at a base no other scope uses (the scope's
    /// serial number in the upper 32 bits), so a (scope, generation) pair a
    /// memo remembers never comes back, even if another scope later takes
    /// this one's address.
    private static func makeGenerationWord() -> UnsafeMutablePointer<crg_word> {
        let word = makeWords(1)
        crg_word_store(word, crg_word_add(Published.scopesMade, 1) << 32)
        return word
    }

    deinit {
        crg_tcache_invalidate()
        // Retires the cached instances; they are released once no read
        // section can reach them. (No reader can reach this scope any more:
        // registrations hold their scope, and a registration's old scope is
        // retired, not released.)
        crg_destroy(table)
        crg_cells_destroy(generationWord)
        collectRetired()
    }

    /// The generation (under the mutex).
    var generation: UInt64 {
        crg_word_load(generationWord)
    }

    /// Runs `change`, which takes entries out of the table, between two
    /// generation steps: odd during the change, a new even value after it.
    /// The mutex must be held.
    func changeEntriesLocked(_ change: () -> Void) {
        crg_word_store(generationWord, crg_word_load(generationWord) &+ 1)
        change()
        crg_word_store(generationWord, crg_word_load(generationWord) &+ 1)
    }

    /// Makes a new instance: the behaviour of the unique scope.
    open func resolve<Service>(registration: ResolverRegistration<Service>, resolver: Resolver, args: Any?) -> Service? {
        registration.instantiate(resolver: resolver, args: args)
    }

    /// The unique scope caches nothing, so there is nothing to reset.
    open func reset() {}
}

extension ResolverScope {
    /// Created once, kept for the life of the app (until `Resolver.reset()` or
    /// `ResolverScope.application.reset()`).
    public static let application = ResolverScopeCache()
    /// Like `.application`, meant to be reset: `ResolverScope.cached.reset()`.
    public static let cached = ResolverScopeCache()
    /// One instance per registration within one top-level resolution. The default.
    public static let graph = ResolverScopeGraph()
    /// Kept while anyone else holds a strong reference.
    public static let shared = ResolverScopeShare()
    /// A new instance every time.
    public static let unique = ResolverScope()
    /// Cached in the `cache` of the container `resolve` was called on.
    public static let container = ResolverScopeContainer()
}

/// Caches instances by service type and name (for a registration made by
/// hand, by its `cacheKey`) until `reset()`. The scope of
/// `.application`, `.cached`, each container's `cache`, and of custom scopes
/// such as `static let session = ResolverScopeCache()`.
///
/// Each key's factory runs once even when many threads ask at the same
/// moment: the first builds (without holding the registry lock), the others
/// wait for its instance. A nil result is not cached. Value types are cached
/// too. Reading a cached instance takes no lock.
public final class ResolverScopeCache: ResolverScope, @unchecked Sendable {
    /// Makes an empty cache.
    public override init() {
        super.init(kind: .cache)
    }

    /// The cached instance, or a new one made (once) and cached.
    public override func resolve<Service>(registration: ResolverRegistration<Service>, resolver: Resolver, args: Any?) -> Service? {
        resolveBuiltIn(registration, resolver, args)
    }

    /// Drops every cached instance (builds in progress still complete, but
    /// do not store their instances). The instances are released once no
    /// resolve that started before the reset is still running.
    public override func reset() {
        registry.write { resetLocked() }
    }
}

/// One instance per registration within one top-level resolution: a service
/// that several dependencies of one `resolve` call need is made once for
/// them all. Class instances only; value types are always made anew. The
/// instances belong to the resolving thread.
public final class ResolverScopeGraph: ResolverScope, @unchecked Sendable {
    /// Makes a graph scope.
    public override init() {
        super.init(kind: .graph)
    }

    /// The instance made earlier in this resolution, or a new one.
    public override func resolve<Service>(registration: ResolverRegistration<Service>, resolver: Resolver, args: Any?) -> Service? {
        resolveBuiltIn(registration, resolver, args)
    }

    /// Graph instances last one resolution; there is nothing to reset.
    public override func reset() {}
}

/// Keeps an instance while anyone else holds a strong reference to it: the
/// cache holds it weakly. Class instances only.
public final class ResolverScopeShare: ResolverScope, @unchecked Sendable {
    /// Makes an empty shared scope.
    public override init() {
        super.init(kind: .shared)
    }

    /// The live shared instance, or a new one (built once, as in a cache,
    /// so that threads asking at the same moment share it).
    public override func resolve<Service>(registration: ResolverRegistration<Service>, resolver: Resolver, args: Any?) -> Service? {
        resolveBuiltIn(registration, resolver, args)
    }

    /// Forgets every shared instance.
    public override func reset() {
        registry.write { resetLocked() }
    }
}

/// Caches in the `cache` of the container that `resolve` was called on, so
/// each container (a test's mock container, say) has its own instances.
public final class ResolverScopeContainer: ResolverScope, @unchecked Sendable {
    /// Makes a container scope.
    public override init() {
        super.init(kind: .container)
    }

    /// The instance in `resolver.cache`.
    public override func resolve<Service>(registration: ResolverRegistration<Service>, resolver: Resolver, args: Any?) -> Service? {
        resolver.cache.resolve(registration: registration, resolver: resolver, args: args)
    }

    /// The instances live in each container's `cache`; reset those.
    public override func reset() {}
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

    /// The live object of the box at `raw`, read without a reference count
    /// on the box (read section).
    @inlinable
    @inline(__always)
    static func object(_ raw: UnsafeMutableRawPointer) -> AnyObject? {
        unowned(unsafe) let box = Unmanaged<WeakBox>.fromOpaque(raw).takeUnretainedValue()
        return box.object
    }
}

extension ResolverScope {
    /// `resolve(registration:resolver:args:)` of the built-in scopes, for
    /// callers outside the resolve path (custom scopes, `implements`).
    func resolveBuiltIn<Service>(_ registration: ResolverRegistration<Service>, _ resolver: Resolver, _ args: Any?) -> Service? {
        if registration.handMadeCacheName != nil, kind == .cache || kind == .shared {
            return withArguments(args) { arguments in
                crg_read_begin()
                defer { crg_read_end() }
                return resolveHandMade(registration, resolver, arguments)
            }
        }
        return withArguments(args) { arguments in
            withRegistryKey(Service.self, registration.name) { key in
                crg_read_begin()
                defer { crg_read_end() }
                return ResolverRegistration.resolve(Unmanaged.passUnretained(registration).toOpaque(),
                                                    through: Unmanaged.passUnretained(self).toOpaque(), key,
                                                    Unmanaged.passUnretained(resolver).toOpaque(), given: resolver,
                                                    arguments)
            }
        }
    }

    /// A caching scope (`.cache`, `.shared`) and a registration made by hand
    /// with a key other than its type's: the instance kept under its
    /// `cacheKey`, or a new one, built once and kept there. Registrations of
    /// several service types can meet under one `cacheKey` (in 1.5.1 too), so
    /// the entry holds the instance as `Any` (a `.shared` entry, weakly, as
    /// `AnyObject`) and a read casts it, as the original's `as? Service`; an
    /// instance of another type is replaced. Call inside a read section.
    func resolveHandMade<Service>(_ registration: ResolverRegistration<Service>, _ resolver: Resolver,
                                  _ arguments: ArgumentsPointer) -> Service? {
        let name = registration.handMadeCacheName.unsafelyUnwrapped
        var key = crg_key(type: ResolverRegistration<Service>.handMadeCacheType, name: name.bytes, name_len: name.count,
                          name_hash: name.hash, hash: 0, has_name: true)
        return withExtendedLifetime(name) {
            if let cached = anyInstance(&key, as: Service.self) {
                return cached
            }
            return buildOnce(registration, resolver, &key, arguments, handMade: true)
        }
    }

    /// The instance the entry under a hand-made registration's key holds, if
    /// it is a `Service` (see `resolveHandMade`). Call inside a read section
    /// or holding the mutex.
    func anyInstance<Service>(_ key: UnsafeMutablePointer<crg_key>, as type: Service.Type) -> Service? {
        var entry: UnsafeMutableRawPointer?
        guard let table, crg_find(table, key, &entry) == 0, let entry else {
            return nil
        }
        if kind == .shared {
            return WeakBox.object(entry) as? Service
        }
        return ValueStorage.value(at: entry, as: Any.self) as? Service
    }

    /// Empties a caching scope and starts a new generation. The mutex must be
    /// held; the instances are retired.
    func resetLocked() {
        guard let table else { return }
        changeEntriesLocked {
            _ = crg_clear_locked(table, nil, nil)
        }
    }

    /// The service an entry of a caching scope's table holds: the instance
    /// itself (`.cache`), or the live object a weak box points at (`.shared`;
    /// nil once it is gone). Call inside a read section.
    @inlinable
    @inline(__always)
    static func service<Service>(inEntry entry: UnsafeMutableRawPointer, of kind: Kind, as type: Service.Type) -> Service? {
        guard kind == .shared else {
            return ValueStorage.value(at: entry, as: Service.self)
        }
        guard let object = WeakBox.object(entry) else {
            return nil
        }
        if ValueStorage.isClassReference(Service.self) {
            return unsafeBitCast(object, to: Service.self)
        }
        return object as? Service
    }

    /// The instance this caching scope holds under `key`, if any. Call inside
    /// a read section or holding the mutex.
    func cachedInstance<Service>(_ key: UnsafeMutablePointer<crg_key>, as type: Service.Type) -> Service? {
        var entry: UnsafeMutableRawPointer?
        guard let table, crg_find(table, key, &entry) == 0, let entry else {
            return nil
        }
        return ResolverScope.service(inEntry: entry, of: kind, as: Service.self)
    }

    /// Keeps `service` under `key`: strongly in a cache, weakly (class
    /// instances only) in a shared scope. What it replaces is retired. Out of
    /// memory, the instance is simply not cached. The mutex must be held.
    func storeLocked<Service>(_ service: Service, _ key: UnsafeMutablePointer<crg_key>) {
        guard let table else { return }
        let pointer: UnsafeMutableRawPointer
        if kind == .shared {
            guard let object = ValueStorage.instance(in: service) else {
                return
            }
            pointer = Unmanaged.passRetained(WeakBox(object)).toOpaque()
        } else {
            pointer = ValueStorage.retainedPointer(service)
        }
        var rc: Int32 = 0
        var entry: UnsafeMutableRawPointer?
        if crg_find(table, key, &entry) == 0 {
            // Replacing a dead `.shared` entry, or under a hand-made key an
            // instance of another type: the old one leaves the table.
            changeEntriesLocked {
                rc = crg_put_locked(table, key, pointer, nil)
            }
        } else {
            rc = crg_put_locked(table, key, pointer, nil)
        }
        if rc != 0 {
            // Never published: no reader can see it. The caller holds the
            // instance, so this release runs no deinit.
            Unmanaged<AnyObject>.fromOpaque(pointer).release()
        }
    }

    /// A caching scope's way to an instance that is not cached: wait for the
    /// thread building it, or build it (without the lock) while others wait;
    /// store it unless the scope was reset meanwhile. `handMade`: `key` is
    /// the registration's hand-made key, whose entry holds `Any`
    /// (`resolveHandMade`). Call inside a read section, with the mutex not
    /// held.
    @usableFromInline
    @inline(never)
    func buildOnce<Service>(_ registration: ResolverRegistration<Service>, _ resolver: Resolver,
                            _ key: UnsafeMutablePointer<crg_key>, _ arguments: ArgumentsPointer,
                            handMade: Bool = false) -> Service? {
        let context = ResolutionContext.current
        let (flightType, flightName) = handMade
            ? (ResolverRegistration<Service>.handMadeCacheType, registration.handMadeCacheName)
            : (registration.typeID, registration.name)
        registry.lock()
        while true {
            if let cached = handMade ? anyInstance(key, as: Service.self) : cachedInstance(key, as: Service.self) {
                registry.unlock()
                return cached
            }
            guard let flight = building.first(where: { $0.isBuilding(flightType, flightName) }) else {
                break
            }
            if flight.owner === context {
                registry.unlock()
                context.reportCycle(closingWith: Unmanaged.passUnretained(registration).toOpaque())
            }
            flight.checkNoCycle(waiter: context)
            context.waitingFor = flight
            let rc = crg_condition_wait(flight.finished, registry.mutex)
            context.waitingFor = nil
            if rc != 0 {
                registry.unlock()
                resolverFailure("RESOLVER: cannot wait for '\(registration.keyDescription)', built on another thread, while this thread is inside the registry (resolving from a deinit the registry ran?).")
            }
        }
        let flight = InFlight(typeID: flightType, name: flightName,
                              description: registration.keyDescription, owner: context)
        building.append(flight)
        let generation = self.generation
        let verifying = context.verification != nil
        if verifying {
            context.unfinishedBuilds.append((self, flight))
        }
        registry.unlock()

        let service = registration.instantiateInReadSection(resolver, arguments)

        registry.lock()
        building.removeAll { $0 === flight }
        if verifying {
            context.unfinishedBuilds.removeAll { $0.flight === flight }
        }
        if let service, generation == self.generation {
            if handMade {
                storeLocked(service as Any, key)
            } else {
                storeLocked(service, key)
            }
        }
        crg_condition_broadcast(flight.finished)
        registry.unlock()
        return service
    }
}

/// A build in progress in a caching scope: which key, which thread, and the
/// condition its waiters sleep on (so a finished build wakes only them).
final class InFlight {
    let typeID: UInt64
    let name: Resolver.Name?
    let description: String
    let owner: ResolutionContext
    let finished: OpaquePointer

    init(typeID: UInt64, name: Resolver.Name?, description: String, owner: ResolutionContext) {
        self.typeID = typeID
        self.name = name
        self.description = description
        self.owner = owner
        finished = makeCondition()
    }

    deinit {
        crg_condition_destroy(finished)
    }

    /// Whether this build is for the key (`typeID`, `name`).
    func isBuilding(_ typeID: UInt64, _ name: Resolver.Name?) -> Bool {
        self.typeID == typeID && self.name == name
    }

    /// Stops the program if `waiter` waiting for this build would close a
    /// circle of threads each waiting for another's build (a dependency cycle
    /// spread over threads), instead of deadlocking. The mutex must be held.
    func checkNoCycle(waiter: ResolutionContext) {
        var chain = [description]
        var owner = self.owner
        while let next = owner.waitingFor {
            chain.append(next.description)
            if next.owner === waiter {
                chain.append(description)
                registry.unlock()
                resolverFailure("RESOLVER: circular dependency across threads: \(chain.joined(separator: " → ")). Each factory waits for an instance another thread is building.",
                                kind: .cycle)
            }
            owner = next.owner
        }
    }
}
