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
/// `registration.instantiate(resolver:args:)` to build.
open class ResolverScope: ResolverScopeType, @unchecked Sendable {
    /// Which built-in behaviour a scope has, so the resolve path can handle
    /// the built-in scopes without a dynamic call.
    @usableFromInline
    enum Kind: UInt8 {
        case unique, graph, cache, shared, container, custom

        /// Whether the scope keeps instances in its table (`.cache` strongly,
        /// `.shared` weakly).
        @inlinable
        var caches: Bool {
            self == .cache || self == .shared
        }
    }

    @usableFromInline let kind: Kind
    /// The C table of a caching scope (`.cache`: instances, `.shared`: weak
    /// boxes), on the registry mutex; nil for the others.
    @usableFromInline let table: OpaquePointer?
    /// Caching scopes: the keys whose factories are running, so that each
    /// is built once. Guarded by the registry mutex.
    @exclusivity(unchecked) var building: [InFlight] = []
    /// Caching scopes: a counter that changes whenever an entry leaves
    /// `table` (a reset, or a dead weak entry replaced). A registration
    /// remembers where its cached instance sits, with the generation it saw;
    /// while the generation is unchanged that entry is still there. Written
    /// and read under the registry mutex; a raw pointer so that the resolve
    /// path reads it without touching the scope object.
    @usableFromInline let generation: UnsafeMutablePointer<UInt64>?

    /// Makes a unique scope (for `ResolverScope` itself) or the base of a
    /// custom subclass.
    public init() {
        kind = type(of: self) == ResolverScope.self ? .unique : .custom
        table = nil
        generation = nil
    }

    init(kind: Kind, table: OpaquePointer? = nil) {
        self.kind = kind
        self.table = table
        if table != nil {
            generation = UnsafeMutablePointer<UInt64>.allocate(capacity: 1)
            generation?.initialize(to: 0)
        } else {
            generation = nil
        }
    }

    deinit {
        if let table {
            ResolverScope.destroy(table)
        }
        generation?.deallocate()
    }

    /// Makes a new instance: the behaviour of the unique scope.
    open func resolve<Service>(registration: ResolverRegistration<Service>, resolver: Resolver, args: Any?) -> Service? {
        registration.instantiate(resolver: resolver, args: args)
    }

    /// The unique scope caches nothing, so there is nothing to reset.
    open func reset() {}

    /// A table on the registry mutex, for scopes that cache.
    static func makeTable() -> OpaquePointer {
        var options = crg_options(capacity: 0, mutex: Registry.shared.mutex, allocator: nil)
        var table: OpaquePointer?
        guard crg_create(&table, &options) == 0, let table else {
            fatalError("RESOLVER: out of memory creating a scope cache")
        }
        return table
    }

    /// Empties a caching scope's table (the mutex held) and returns the
    /// values it held, for the caller to release once the mutex is unlocked.
    func drainLocked() -> [UnsafeMutableRawPointer] {
        guard let table, let generation else {
            return []
        }
        var values: [UnsafeMutableRawPointer] = []
        withUnsafeMutablePointer(to: &values) { list in
            _ = crg_clear_locked(table, { value, context in
                context!.assumingMemoryBound(to: [UnsafeMutableRawPointer].self).pointee.append(value)
            }, list)
        }
        generation.pointee &+= 1
        return values
    }

    /// Destroys `table` and then releases what it held.
    static func destroy(_ table: OpaquePointer) {
        var values: [UnsafeMutableRawPointer] = []
        withUnsafeMutablePointer(to: &values) { list in
            crg_destroy(table, { value, context in
                context!.assumingMemoryBound(to: [UnsafeMutableRawPointer].self).pointee.append(value)
            }, list)
        }
        values.forEach(ValueStorage.release)
    }
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

/// Caches instances by service type and name until `reset()`. The scope of
/// `.application`, `.cached`, each container's `cache`, and of custom scopes
/// such as `static let session = ResolverScopeCache()`.
///
/// Each key's factory runs once even when many threads ask at the same
/// moment: the first builds (without holding the registry lock), the others
/// wait for its instance. A nil result is not cached. Value types are cached
/// too.
public final class ResolverScopeCache: ResolverScope, @unchecked Sendable {
    /// Makes an empty cache. Its table holds instances by (type, name) as
    /// `ValueStorage` pointers.
    public override init() {
        super.init(kind: .cache, table: ResolverScope.makeTable())
    }

    /// The cached instance, or a new one made (once) and cached.
    public override func resolve<Service>(registration: ResolverRegistration<Service>, resolver: Resolver, args: Any?) -> Service? {
        resolveCaching(registration, resolver, args)
    }

    /// Drops every cached instance (builds in progress still complete).
    public override func reset() {
        resetCaching()
    }
}

extension ResolverScope {
    /// `resolve(registration:resolver:args:)` of the caching scopes: the
    /// instance kept under the registration's key, or one built once.
    func resolveCaching<Service>(_ registration: ResolverRegistration<Service>, _ resolver: Resolver, _ args: Any?) -> Service? {
        Registry.shared.lock()
        return withArguments(args) { arguments in
            withRegistryKey(Service.self, registration.name) { buildOnceLocked(registration, resolver, arguments, $0) }
        }
    }

    /// `reset()` of the caching scopes: empties the table, then releases
    /// what it held with the lock released.
    func resetCaching() {
        let registry = Registry.shared
        registry.lock()
        let dropped = drainLocked()
        registry.unlock()
        dropped.forEach(ValueStorage.release)
    }

    /// The service an entry of a caching scope's table holds: the instance
    /// itself (`.cache`), or the live object a weak box points at (`.shared`;
    /// nil once it is gone). The mutex must be held.
    @inlinable
    @inline(__always)
    static func service<Service>(inEntry entry: UnsafeMutableRawPointer, of kind: Kind, as type: Service.Type) -> Service? {
        guard kind == .shared else {
            return ValueStorage.value(at: entry, as: Service.self)
        }
        guard let object = Unmanaged<WeakBox>.fromOpaque(entry).takeUnretainedValue().object else {
            return nil
        }
        if ValueStorage.isClassReference(Service.self) {
            return unsafeBitCast(object, to: Service.self)
        }
        return object as? Service
    }

    /// The instance this caching scope holds under `key`, if any. The mutex
    /// must be held.
    @inlinable
    func cachedLocked<Service>(_ key: UnsafePointer<crg_key>, as type: Service.Type) -> Service? {
        var entry: UnsafeMutableRawPointer?
        guard kind.caches, crg_get_locked(table.unsafelyUnwrapped, key, &entry) == 0, let entry else {
            return nil
        }
        return ResolverScope.service(inEntry: entry, of: kind, as: Service.self)
    }

    /// Keeps `service` under `key`: strongly in a cache, weakly (class
    /// instances only) in a shared scope. Returns the pointer the caller must
    /// release once the mutex is unlocked, if any: the entry it replaced, or
    /// the new one if the table could not take it (out of memory; the
    /// instance is then returned uncached). The mutex must be held.
    func storeLocked<Service>(_ service: Service, _ key: UnsafePointer<crg_key>) -> UnsafeMutableRawPointer? {
        let pointer: UnsafeMutableRawPointer
        if kind == .shared {
            guard let object = ValueStorage.instance(in: service) else {
                return nil
            }
            pointer = Unmanaged.passRetained(WeakBox(object)).toOpaque()
        } else {
            pointer = ValueStorage.retainedPointer(service)
        }
        var displaced: UnsafeMutableRawPointer?
        if crg_put_locked(table.unsafelyUnwrapped, key, pointer, &displaced) != 0 {
            return pointer
        }
        if displaced != nil {
            generation.unsafelyUnwrapped.pointee &+= 1
        }
        return displaced
    }

    /// A caching scope's way to an instance: the cached one, or one built
    /// once. If another thread is building this key, waits for it; else builds
    /// (with the lock released) while other threads wait. Called with the
    /// mutex held once; returns with it released.
    @usableFromInline
    @inline(never)
    func buildOnceLocked<Service>(_ registration: ResolverRegistration<Service>, _ resolver: Resolver,
                                  _ arguments: ArgumentsPointer, _ key: UnsafePointer<crg_key>) -> Service? {
        let registry = Registry.shared
        if let cached = cachedLocked(key, as: Service.self) {
            registry.unlock()
            return cached
        }
        let context = ResolutionContext.current
        while let flight = building.first(where: { $0.isBuilding(registration) }) {
            if flight.owner === context {
                context.reportCycle(closingWith: registration)
            }
            flight.checkNoCycle(waiter: context)
            context.waitingFor = flight
            registry.wait(for: registration.keyDescription)
            context.waitingFor = nil
            if let cached = cachedLocked(key, as: Service.self) {
                registry.unlock()
                return cached
            }
        }

        let flight = InFlight(registration, owner: context)
        building.append(flight)
        let replacement = registration.replacement
        registry.unlock()

        let service = registration.instantiate(replacement, resolver, arguments, context)

        registry.lock()
        building.removeAll { $0 === flight }
        let released = service.flatMap { storeLocked($0, key) }
        registry.broadcast()
        registry.unlock()
        if let released {
            ValueStorage.release(released)
        }
        return service
    }
}

/// A build in progress in a caching scope: which key, which thread.
final class InFlight {
    let registration: _ResolverRegistrationBase
    let owner: ResolutionContext

    init(_ registration: _ResolverRegistrationBase, owner: ResolutionContext) {
        self.registration = registration
        self.owner = owner
    }

    /// Whether this build is for `other`'s cache key (type and name).
    func isBuilding(_ other: _ResolverRegistrationBase) -> Bool {
        registration.typeID == other.typeID && registration.name == other.name
    }

    /// Stops the program if `waiter` waiting for this build would close a
    /// circle of threads each waiting for another's build (a dependency cycle
    /// spread over threads), instead of deadlocking. The mutex must be held.
    func checkNoCycle(waiter: ResolutionContext) {
        var chain = [registration.keyDescription]
        var owner = self.owner
        while let next = owner.waitingFor {
            chain.append(next.registration.keyDescription)
            if next.owner === waiter {
                chain.append(registration.keyDescription)
                resolverFailure("RESOLVER: circular dependency across threads: \(chain.joined(separator: " → ")). Each factory waits for an instance another thread is building.")
            }
            owner = next.owner
        }
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
        let replacement = Registry.shared.withLock { registration.replacement }
        return withArguments(args) { arguments in
            ResolutionContext.withCurrent { registration.resolveInGraph(replacement, resolver, arguments, $0) }
        }
    }

    /// Graph instances last one resolution; there is nothing to reset.
    public override func reset() {}
}

/// Keeps an instance while anyone else holds a strong reference to it: the
/// cache holds it weakly. Class instances only.
public final class ResolverScopeShare: ResolverScope, @unchecked Sendable {
    /// Makes an empty shared scope. Its table holds weak references by
    /// (type, name) as `WeakBox` objects.
    public override init() {
        super.init(kind: .shared, table: ResolverScope.makeTable())
    }

    /// The live shared instance, or a new one (built once, as in a cache,
    /// so that threads asking at the same moment share it).
    public override func resolve<Service>(registration: ResolverRegistration<Service>, resolver: Resolver, args: Any?) -> Service? {
        resolveCaching(registration, resolver, args)
    }

    /// Forgets every shared instance.
    public override func reset() {
        resetCaching()
    }
}

/// A weak reference held by reference.
@usableFromInline
final class WeakBox {
    @usableFromInline weak var object: AnyObject?

    init(_ object: AnyObject) {
        self.object = object
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
