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
/// Every member is safe to call from any thread. Resolving takes no lock
/// (<doc:ThreadsAndPerformance>); registering and the other changes take the
/// registry's mutex, which is never held while your code runs.
public final class Resolver: @unchecked Sendable {
    /// The C container: this container's table (owning one reference to each registration) and its children.
    @usableFromInline let storage: ContainerTable
    /// The scope behind `cache`, read by the resolve path without a lock.
    @usableFromInline let fields = Fields()
    /// This container's own `.application`, `.cached` and `.shared` caches (`isolatedScopes: true`), or nil.
    @usableFromInline let isolatedScopes: IsolatedScopes?
    /// `isolatedScopes` unretained (this container owns them), for the resolve path: DESIGN.md, B1.
    @usableFromInline let isolatedScopesReference: UncheckedReference<IsolatedScopes>?

    // Guarded by the registry mutex.
    /// The children, in the order added (their C containers are in `storage`).
    private(set) var children: [Resolver] = []
    var cacheScope: ResolverScope?
    /// How many registrations made here were given `.container`: the room
    /// `cache` reserves when it is made (one table for the batch), at most
    /// one entry per registration held here.
    var containerScopedRegistrations = 0
    /// `verify()`'s registrations that replaced another here (`recordReplacementLocked`), and each key's index.
    var replacements: [RecordedReplacement] = []
    var replacementIndex: [ReplacementKey: Int] = [:]

    // MARK: - The app's containers

    /// The container the static `register` functions write to.
    public static var main: Resolver {
        get { registry.withLock { registry.main } }
        set { registry.write { registry.setMainLocked(newValue) } }
    }

    /// The container the static `resolve`/`optional` functions and the
    /// property wrappers read from; starts as `main`. Set it to a container
    /// whose child is `main` to mock services in tests or previews.
    ///
    /// Inside `withRoot(_:operation:)`, reading it gives that call's
    /// container; setting it still sets the app-wide root.
    public static var root: Resolver {
        get { currentOverride() ?? registry.withLock { registry.root } }
        set { registry.write { registry.setRootLocked(newValue) } }
    }

    /// The scope new registrations get, read when `register` is called; starts as `.graph`.
    public static var defaultScope: ResolverScope {
        get { registry.withLock { registry.defaultScope } ?? .graph }
        set {
            let previous = registry.withLock { () -> ResolverScope? in
                defer { registry.defaultScope = newValue }
                return registry.defaultScope
            }
            withExtendedLifetime(previous) {}
        }
    }

    /// Called with every successfully resolved service, in DEBUG builds of
    /// this library (SwiftPM builds it in the app's configuration). Set it
    /// from any build; release builds never call it.
    public static var decorate: ((_ service: Any) -> Void)? {
        get { registry.withLock { registry.decorate?.decorate } }
        set { registry.setDecorate(newValue) }
    }

    /// A closure that runs the one-time `registerAllServices` if it has not run yet:
    /// `Resolver.registerServices?()`. The first resolve does it anyway; resolves do not call this
    /// closure, so replacing it changes only what the property returns.
    public static var registerServices: (() -> Void)? {
        get { registry.withLock { registry.registerServices } }
        set {
            let previous = registry.withLock { () -> (() -> Void)? in
                defer { registry.registerServices = newValue }
                return registry.registerServices
            }
            withExtendedLifetime(previous) {}
        }
    }

    /// Runs the one-time `registerAllServices` now if it has not run yet.
    public final func registerServices() {
        registry.ensureRegistered()
    }

    // MARK: - Lifecycle

    /// Makes a container, optionally with one child to fall back on.
    public convenience init(child: Resolver? = nil) {
        self.init(child: child, isolatedScopes: false)
    }

    /// Makes a container, optionally with one child to fall back on, that
    /// can keep its singletons to itself.
    ///
    /// With `isolatedScopes: true`, resolving through this container (or
    /// through `Resolver.root` while it is the root, as inside
    /// `withRoot(_:operation:)`) keeps `.application`, `.cached` and `.shared`
    /// instances in caches of its own rather than the app-wide ones: a test
    /// that runs on `Resolver(child: .main, isolatedScopes: true)` never sees
    /// another test's instances, nor leaves its own behind. Registrations
    /// are still found in the children. `Resolver.reset()` and
    /// `ResolverScope.application.reset()` leave these caches alone; they go
    /// with the container.
    public convenience init(child: Resolver? = nil, isolatedScopes: Bool) {
        self.init(mutex: registry.mutex, isolatedScopes: isolatedScopes ? IsolatedScopes() : nil)
        if let child {
            add(child: child)
        }
    }

    /// Makes a container that falls back on `parent` (the old name for a child).
    @available(swift, deprecated: 5.0, message: "Please use Resolver(child:).")
    public convenience init(parent: Resolver) {
        self.init(child: parent)
    }

    /// A container whose table uses `mutex` (the registry's, passed in while the registry is made) and, for tests, `allocator`.
    init(mutex: Mutex, allocator: TableAllocator? = nil, isolatedScopes: IsolatedScopes? = nil) {
        storage = ContainerTable.make(mutex: mutex, allocator: allocator)
        self.isolatedScopes = isolatedScopes
        isolatedScopesReference = isolatedScopes.map(UncheckedReference.init)
    }

    deinit {
        releaseStorage()
    }

    /// Adds a container to look in after this one (and its earlier children).
    public final func add(child: Resolver) {
        let failure = registry.write { () -> RegistryError? in
            let failure = storage.addChildLocked(child.storage)
            if failure == nil {
                children.append(child)
                publishChildrenLocked()
            }
            return failure
        }
        if failure == .wouldLoop {
            fail("RESOLVER: add(child:) would make a container its own descendant; lookups would never end.")
        } else if let failure {
            registry.reportRecoverable("RESOLVER: could not add a child container: \(failure).")
        }
    }

    /// Resets the app's state: `main` becomes a new, empty container and
    /// `root` becomes `main`; `.application`, `.cached` and `.shared` drop
    /// their instances; `registerAllServices` will run again before the next
    /// resolve; compile-time-checked keys forget their registrations, which
    /// each key's next use makes again from its declaration. Nothing else is
    /// touched.
    ///
    /// A resolve that starts after `reset()` returns sees the new state: it
    /// waits for `registerAllServices` to fill the new `main`. Instances the
    /// caches dropped are released once no resolve that started before the
    /// reset is still running (at once when none is).
    public static func reset() {
        registry.reset()
    }

    /// The cache of the `.container` scope: a `ResolverScopeCache` made on first use, or a scope set by the app.
    public var cache: ResolverScope {
        get { registry.write { cacheScopeLocked } }
        set {
            registry.write {
                if let old = cacheScope {
                    retire(old)
                }
                cacheScope = newValue
                fields.cache.store(UncheckedReference(newValue))
            }
        }
    }

    /// `cache`, made if needed.
    var cacheScopeLocked: ResolverScope {
        registry.assertLocked()
        if let cacheScope {
            return cacheScope
        }
        let scope = ResolverScopeCache()
        // No more than the registrations here: re-registering counts again.
        scope.table?.reserveLocked(min(containerScopedRegistrations, storage.table.countLocked))
        cacheScope = scope
        fields.cache.store(UncheckedReference(scope))
        return scope
    }

    // MARK: - Resolution

    // Two overloads each: without `args:`, and with an `args:` that has no
    // default. Every call the original accepts matches exactly one of them,
    // and a call without arguments carries no `Any?`.

    /// Resolves a `Service` from `root`; stops the program when none is registered (or its
    /// factory returns nil).
    ///
    /// - Parameters:
    ///   - type: the service type; inferred from the context when omitted.
    ///   - name: the registration's name; a named lookup never falls back to the unnamed
    ///     registration.
    @inlinable
    public static func resolve<Service>(_ type: Service.Type = Service.self, name: Resolver.Name? = .none) -> Service {
        if let service: Service = resolve(name?.key, in: nil, .none, SynchronousPath<Service>.self) {
            return service
        }
        notResolved(Service.self, name: name, in: nil)
    }

    /// Resolves a `Service` from `root`, as `resolve(_:name:)`, passing `args` to its factory
    /// (``Args``): one value, or a `[String: Any?]` dictionary read by key.
    @inlinable
    public static func resolve<Service>(_ type: Service.Type = Service.self, name: Resolver.Name? = .none, args: Any?) -> Service {
        if let service: Service = withArguments(args, { resolve(name?.key, in: nil, $0, SynchronousPath<Service>.self) }) {
            return service
        }
        notResolved(Service.self, name: name, in: nil)
    }

    /// Resolves a `Service` from this container (and its children), as the static `resolve(_:name:)` does from `root`.
    @inlinable
    public final func resolve<Service>(_ type: Service.Type = Service.self, name: Resolver.Name? = .none) -> Service {
        if let service: Service = Resolver.resolve(name?.key, in: self, .none, SynchronousPath<Service>.self) {
            return service
        }
        Resolver.notResolved(Service.self, name: name, in: self)
    }

    /// Resolves a `Service` from this container (and its children), passing `args` to its factory.
    @inlinable
    public final func resolve<Service>(_ type: Service.Type = Service.self, name: Resolver.Name? = .none, args: Any?) -> Service {
        if let service: Service = withArguments(args, { Resolver.resolve(name?.key, in: self, $0, SynchronousPath<Service>.self) }) {
            return service
        }
        Resolver.notResolved(Service.self, name: name, in: self)
    }

    /// Resolves a `Service` from `root`, or nil where `resolve(_:name:)` would stop.
    @inlinable
    public static func optional<Service>(_ type: Service.Type = Service.self, name: Resolver.Name? = .none) -> Service? {
        resolve(name?.key, in: nil, .none, SynchronousPath<Service>.self)
    }

    /// Resolves a `Service` from `root` with `args`, or nil where `resolve(_:name:args:)` would stop.
    @inlinable
    public static func optional<Service>(_ type: Service.Type = Service.self, name: Resolver.Name? = .none, args: Any?) -> Service? {
        withArguments(args) { resolve(name?.key, in: nil, $0, SynchronousPath<Service>.self) }
    }

    /// Resolves a `Service` from this container (and its children), or nil where `resolve` would stop.
    @inlinable
    public final func optional<Service>(_ type: Service.Type = Service.self, name: Resolver.Name? = .none) -> Service? {
        Resolver.resolve(name?.key, in: self, .none, SynchronousPath<Service>.self)
    }

    /// Resolves a `Service` from this container (and its children) with `args`, or nil where `resolve` would stop.
    @inlinable
    public final func optional<Service>(_ type: Service.Type = Service.self, name: Resolver.Name? = .none, args: Any?) -> Service? {
        withArguments(args) { Resolver.resolve(name?.key, in: self, $0, SynchronousPath<Service>.self) }
    }

    // MARK: - Typed arguments

    // `@_disfavoredOverload`: a call names `arguments:`, which only these
    // take, so it changes no call; it settles the unlabeled function
    // references of 1.5.1 code (`let f: (Session.Type, Resolver.Name?, Any?)
    // -> Session = Resolver.resolve`), which these also match with `A` as
    // `Any?` and no `B`, for the `args:` overload they mean.

    /// Resolves a `Service` registered with typed arguments (`register(arguments:)`) from `root`,
    /// passing `first` and `rest` to its factory: `Resolver.resolve(UserViewModel.self, arguments: 42, "ada")`.
    /// Stops when none is registered, when its factory returns nil, or when the argument list differs
    /// from the registration's (the message names both).
    @inlinable
    @_disfavoredOverload
    public static func resolve<Service, A, each B>(_ type: Service.Type = Service.self, name: Resolver.Name? = .none,
                                                   arguments first: A, _ rest: repeat each B) -> Service {
        if let service: Service = withTypedArguments(first, repeat each rest, body: {
            resolve(name?.key, in: nil, $0, SynchronousPath<Service>.self)
        }) {
            return service
        }
        notResolved(Service.self, name: name, in: nil)
    }

    /// As `resolve(_:name:arguments:_:)`, or nil when none is registered or its factory returns nil
    /// (a different argument list still stops).
    @inlinable
    @_disfavoredOverload
    public static func optional<Service, A, each B>(_ type: Service.Type = Service.self, name: Resolver.Name? = .none,
                                                    arguments first: A, _ rest: repeat each B) -> Service? {
        withTypedArguments(first, repeat each rest, body: { resolve(name?.key, in: nil, $0, SynchronousPath<Service>.self) })
    }

    /// As the static `resolve(_:name:arguments:_:)`, from this container (and its children).
    @inlinable
    @_disfavoredOverload
    public final func resolve<Service, A, each B>(_ type: Service.Type = Service.self, name: Resolver.Name? = .none,
                                                  arguments first: A, _ rest: repeat each B) -> Service {
        if let service: Service = withTypedArguments(first, repeat each rest, body: {
            Resolver.resolve(name?.key, in: self, $0, SynchronousPath<Service>.self)
        }) {
            return service
        }
        Resolver.notResolved(Service.self, name: name, in: self)
    }

    /// As the static `optional(_:name:arguments:_:)`, from this container (and its children).
    @inlinable
    @_disfavoredOverload
    public final func optional<Service, A, each B>(_ type: Service.Type = Service.self, name: Resolver.Name? = .none,
                                                   arguments first: A, _ rest: repeat each B) -> Service? {
        withTypedArguments(first, repeat each rest, body: { Resolver.resolve(name?.key, in: self, $0, SynchronousPath<Service>.self) })
    }
}
