import CRegistry

/// A container of service registrations, and the static API over the app's
/// main container.
///
/// ```swift
/// Resolver.register { NetworkService() as NetworkServicing }
/// Resolver.register { UserViewModel(network: Resolver.resolve()) }.scope(.application)
/// let model: UserViewModel = Resolver.resolve()
/// ```
///
/// A container's registrations live in a C hash table keyed by the exact
/// service type and name (`Optional<T>` is not `T`, and a named lookup never
/// falls back to the unnamed registration). Lookup tries the container
/// itself, then its children in the order added, depth first; the factory
/// receives the container `resolve` was called on.
///
/// Every member is safe to call from any thread.
public final class Resolver: @unchecked Sendable {
    /// Registrations by (type, name); values are retained
    /// `ResolverRegistration` objects. On the registry mutex.
    @usableFromInline let table: OpaquePointer
    /// Guarded by the registry mutex, like `hasChildren` and `cacheStorage`.
    @exclusivity(unchecked) @usableFromInline var childContainers: [Resolver] = []
    /// `!childContainers.isEmpty`, kept as plain data: reading the array on
    /// the resolve path retains its buffer (18 instructions per resolve).
    @exclusivity(unchecked) @usableFromInline var hasChildren = false
    @exclusivity(unchecked) @usableFromInline var cacheStorage: ResolverScope?

    // MARK: - The app's containers

    /// The container the static `register` functions write to.
    public static var main: Resolver {
        get { Registry.shared.withLock { Registry.shared.main } }
        set { Registry.shared.set(\.main, to: newValue) }
    }

    /// The container the static `resolve`/`optional` functions and the
    /// property wrappers read from; starts as `main`. Set it to a container
    /// whose child is `main` to mock services in tests or previews.
    public static var root: Resolver {
        get { Registry.shared.withLock { Registry.shared.root } }
        set { Registry.shared.set(\.root, to: newValue) }
    }

    /// The scope new registrations get, read when `register` is called.
    /// Starts as `.graph`.
    public static var defaultScope: ResolverScope {
        get { Registry.shared.withLock { Registry.shared.defaultScope } ?? .graph }
        set { Registry.shared.set(\.defaultScope, to: newValue) }
    }

    /// Called with every successfully resolved service, in DEBUG builds.
    public static var decorate: ((_ service: Any) -> Void)? {
        get { Registry.shared.withLock { Registry.shared.decorate } }
        set { Registry.shared.set(\.decorate, to: newValue) }
    }

    /// Runs the one-time `registerAllServices` now if it has not run yet.
    /// Normally unnecessary: the first resolve does it.
    public static var registerServices: (() -> Void)? {
        get { Registry.shared.withLock { Registry.shared.registerServices } }
        set { Registry.shared.set(\.registerServices, to: newValue) }
    }

    /// Runs the one-time `registerAllServices` now if it has not run yet.
    public final func registerServices() {
        Registry.shared.registerServicesIfPending()
    }

    // MARK: - Lifecycle

    /// Makes a container, optionally with one child to fall back on.
    public convenience init(child: Resolver? = nil) {
        self.init(mutex: Registry.shared.mutex, allocator: nil)
        if let child {
            add(child: child)
        }
    }

    /// Makes a container that falls back on `parent` (the old name for a child).
    @available(swift, deprecated: 5.0, message: "Please use Resolver(child:).")
    public convenience init(parent: Resolver) {
        self.init(child: parent)
    }

    /// A container whose table uses `mutex` and, for tests, `allocator`.
    init(mutex: OpaquePointer, allocator: UnsafePointer<crg_allocator>?) {
        var options = crg_options(capacity: 0, mutex: mutex, allocator: allocator)
        var table: OpaquePointer?
        guard crg_create(&table, &options) == 0, let table else {
            fatalError("RESOLVER: out of memory creating a container")
        }
        self.table = table
    }

    deinit {
        // The registrations are released after the table is gone, outside the
        // lock, since releasing them can run arbitrary deinits.
        ResolverScope.destroy(table)
    }

    /// Adds a container to look in after this one (and its earlier children).
    public final func add(child: Resolver) {
        let registry = Registry.shared
        registry.withLock {
            if child === self || child.containsLocked(self) {
                resolverFailure("RESOLVER: add(child:) would make a container its own descendant; lookups would never end.")
            }
            childContainers.append(child)
            hasChildren = true
        }
    }

    /// Whether `other` is this container or one of its descendants.
    private func containsLocked(_ other: Resolver) -> Bool {
        self === other || childContainers.contains { $0.containsLocked(other) }
    }

    /// Resets the app's state: `main` becomes a new, empty container and
    /// `root` becomes `main`; `.application`, `.cached` and `.shared` drop
    /// their instances; `registerAllServices` will run again before the next
    /// resolve. Nothing else is touched.
    public static func reset() {
        let registry = Registry.shared
        let application = ResolverScope.application, cached = ResolverScope.cached, shared = ResolverScope.shared
        registry.lock()
        let previous = (registry.main, registry.root)
        let main = Resolver(mutex: registry.mutex, allocator: nil)
        registry.main = main
        registry.root = main
        let dropped = application.drainLocked() + cached.drainLocked() + shared.drainLocked()
        registry.registrationPending = true
        registry.unlock()
        dropped.forEach(ValueStorage.release)
        withExtendedLifetime(previous) {}
    }

    /// The per-container cache used by the `.container` scope: a
    /// `ResolverScopeCache` made on first use, or a scope set by the app.
    public var cache: ResolverScope {
        get {
            Registry.shared.withLock { cacheLocked }
        }
        set { Registry.shared.set(\.cacheStorage, of: self, to: newValue) }
    }

    /// `cache`, made if needed. The mutex must be held.
    @usableFromInline
    var cacheLocked: ResolverScope {
        if let cacheStorage {
            return cacheStorage
        }
        let cache = ResolverScopeCache()
        cacheStorage = cache
        return cache
    }

    // MARK: - Registration

    /// Registers a factory with no parameters in `main`.
    @inlinable
    @discardableResult
    public static func register<Service>(_ type: Service.Type = Service.self, name: Resolver.Name? = nil,
                                         factory: @escaping ResolverFactory<Service>) -> ResolverOptions<Service> {
        register(nil, name) { PlainRegistration(name: name, scope: $0, factory: factory) }
    }

    /// Registers a factory that receives the resolving container, in `main`.
    @inlinable
    @discardableResult
    public static func register<Service>(_ type: Service.Type = Service.self, name: Resolver.Name? = nil,
                                         factory: @escaping ResolverFactoryResolver<Service>) -> ResolverOptions<Service> {
        register(nil, name) { ResolverArgumentRegistration(name: name, scope: $0, factory: factory) }
    }

    /// Registers a factory that receives the container and the resolve call's
    /// arguments, in `main`.
    @inlinable
    @discardableResult
    public static func register<Service>(_ type: Service.Type = Service.self, name: Resolver.Name? = nil,
                                         factory: @escaping ResolverFactoryArgumentsN<Service>) -> ResolverOptions<Service> {
        register(nil, name) { ArgumentsRegistration(name: name, scope: $0, factory: factory) }
    }

    /// Registers a factory with no parameters. Registering the same type and
    /// name again replaces the earlier registration.
    @inlinable
    @discardableResult
    public final func register<Service>(_ type: Service.Type = Service.self, name: Resolver.Name? = nil,
                                        factory: @escaping ResolverFactory<Service>) -> ResolverOptions<Service> {
        Resolver.register(self, name) { PlainRegistration(name: name, scope: $0, factory: factory) }
    }

    /// Registers a factory that receives the resolving container.
    @inlinable
    @discardableResult
    public final func register<Service>(_ type: Service.Type = Service.self, name: Resolver.Name? = nil,
                                        factory: @escaping ResolverFactoryResolver<Service>) -> ResolverOptions<Service> {
        Resolver.register(self, name) { ResolverArgumentRegistration(name: name, scope: $0, factory: factory) }
    }

    /// Registers a factory that receives the container and the resolve call's
    /// arguments (`register { r, args in Service(args()) }`).
    @inlinable
    @discardableResult
    public final func register<Service>(_ type: Service.Type = Service.self, name: Resolver.Name? = nil,
                                        factory: @escaping ResolverFactoryArgumentsN<Service>) -> ResolverOptions<Service> {
        Resolver.register(self, name) { ArgumentsRegistration(name: name, scope: $0, factory: factory) }
    }

    /// Stores a new registration, made by `make` with the default scope, in
    /// `container` (nil: `main`), under one lock pair. The registration it
    /// replaces is released afterwards, outside the lock.
    @inlinable
    static func register<Service>(_ container: Resolver?, _ name: Resolver.Name?,
                                  _ make: (ResolverScope) -> ResolverRegistration<Service>) -> ResolverOptions<Service> {
        registryReference._withUnsafeGuaranteedRef { registry in
            registry.lock()
            let target = container ?? registry.main
            let registration = make(registry.defaultScope ?? .graph)
            var previous: UnsafeMutableRawPointer?
            let pointer = Unmanaged.passRetained(registration).toOpaque()
            let rc = withRegistryKey(Service.self, name) { crg_put_locked(target.table, $0, pointer, &previous) }
            registry.unlock()
            if let previous {
                Unmanaged<AnyObject>.fromOpaque(previous).release()
            }
            if rc != 0 {
                Unmanaged<AnyObject>.fromOpaque(pointer).release()
                registry.reportRecoverable(outOfMemoryRegistering: Service.self, name, rc)
            }
            return ResolverOptions(registration: registration, container: target)
        }
    }

    // MARK: - Resolution

    // Each entry point comes in two overloads: without `args:`, and with an
    // `args:` that has no default. Every call the original accepts matches
    // exactly one of them, and a call without arguments carries no `Any?`.

    /// Resolves a `Service` from `root`; stops the program when none is
    /// registered (or its factory returns nil).
    @inlinable
    public static func resolve<Service>(_ type: Service.Type = Service.self, name: Resolver.Name? = nil) -> Service {
        if let service: Service = resolveService(in: nil, name: name, arguments: nil) {
            return service
        }
        notResolved(Service.self, name: name, in: nil)
    }

    /// Resolves a `Service` from `root`, passing `args` to its factory
    /// (see `Resolver.Args`); stops the program when none is registered (or
    /// its factory returns nil).
    @inlinable
    public static func resolve<Service>(_ type: Service.Type = Service.self, name: Resolver.Name? = nil, args: Any?) -> Service {
        if let service: Service = withArguments(args, { resolveService(in: nil, name: name, arguments: $0) }) {
            return service
        }
        notResolved(Service.self, name: name, in: nil)
    }

    /// Resolves a `Service` from this container (and its children); stops the
    /// program when none is registered (or its factory returns nil).
    @inlinable
    public final func resolve<Service>(_ type: Service.Type = Service.self, name: Resolver.Name? = nil) -> Service {
        if let service: Service = Resolver.resolveService(in: self, name: name, arguments: nil) {
            return service
        }
        Resolver.notResolved(Service.self, name: name, in: self)
    }

    /// Resolves a `Service` from this container (and its children), passing
    /// `args` to its factory; stops the program when none is registered (or
    /// its factory returns nil).
    @inlinable
    public final func resolve<Service>(_ type: Service.Type = Service.self, name: Resolver.Name? = nil, args: Any?) -> Service {
        if let service: Service = withArguments(args, { Resolver.resolveService(in: self, name: name, arguments: $0) }) {
            return service
        }
        Resolver.notResolved(Service.self, name: name, in: self)
    }

    /// Resolves a `Service` from `root`, or nil where `resolve` would stop.
    @inlinable
    public static func optional<Service>(_ type: Service.Type = Service.self, name: Resolver.Name? = nil) -> Service? {
        resolveService(in: nil, name: name, arguments: nil)
    }

    /// Resolves a `Service` from `root` with `args`, or nil where `resolve`
    /// would stop.
    @inlinable
    public static func optional<Service>(_ type: Service.Type = Service.self, name: Resolver.Name? = nil, args: Any?) -> Service? {
        withArguments(args) { resolveService(in: nil, name: name, arguments: $0) }
    }

    /// Resolves a `Service` from this container (and its children), or nil
    /// where `resolve` would stop.
    @inlinable
    public final func optional<Service>(_ type: Service.Type = Service.self, name: Resolver.Name? = nil) -> Service? {
        Resolver.resolveService(in: self, name: name, arguments: nil)
    }

    /// Resolves a `Service` from this container (and its children) with
    /// `args`, or nil where `resolve` would stop.
    @inlinable
    public final func optional<Service>(_ type: Service.Type = Service.self, name: Resolver.Name? = nil, args: Any?) -> Service? {
        withArguments(args) { Resolver.resolveService(in: self, name: name, arguments: $0) }
    }

    /// The registration for `key` here or in a child, depth first. The mutex
    /// must be held; the pointer is valid only while it is.
    @inlinable
    func registrationLocked(_ key: UnsafePointer<crg_key>) -> UnsafeMutableRawPointer? {
        var value: UnsafeMutableRawPointer?
        if crg_get_locked(table, key, &value) == 0 {
            return value
        }
        return hasChildren ? registrationInChildrenLocked(key) : nil
    }

    @usableFromInline
    func registrationInChildrenLocked(_ key: UnsafePointer<crg_key>) -> UnsafeMutableRawPointer? {
        for child in childContainers {
            if let found = child.registrationLocked(key) {
                return found
            }
        }
        return nil
    }
}
