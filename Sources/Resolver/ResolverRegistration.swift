import CRegistry

/// What every registration has, whatever its service type: the key it is
/// stored under and its scope. The registry, the cycle detector and the
/// diagnostics work on this base; a `ResolverRegistration<Service>` adds the
/// typed factory.
///
/// Not meant to be used outside the module: it has no public members and
/// cannot be subclassed elsewhere.
///
/// Invariants: `typeID`, `serviceType` and `name` never change. `scope` and
/// `scopeFacts` change together (and clear `cachedEntry`), only under the
/// registry mutex, and are read under it (which is why their accesses need
/// no dynamic exclusivity checks). A registration holds no reference to its
/// container: a weak one would slow down every retain of the container.
public class _ResolverRegistrationBase: @unchecked Sendable {
    /// `ObjectIdentifier(Service.self)` as the registry's type identity.
    @usableFromInline final let typeID: UInt64
    /// `Service.self`, for messages.
    @usableFromInline final let serviceType: Any.Type
    @usableFromInline final let name: Resolver.Name?
    /// The scope, strongly held (custom scopes are called through it).
    @exclusivity(unchecked) @usableFromInline final var scope: ResolverScope
    /// What the resolve path needs of `scope`, copied so that it reads plain
    /// data rather than the scope object.
    @exclusivity(unchecked) @usableFromInline final var scopeFacts: ScopeFacts
    /// Where this registration's instance sits in the scope's table, and the
    /// generation it was found in: while the scope's generation is the same,
    /// the entry is still there and the lookup can be skipped.
    @exclusivity(unchecked) @usableFromInline final var cachedEntry: UnsafeMutableRawPointer?
    @exclusivity(unchecked) @usableFromInline final var cachedEntryGeneration: UInt64 = 0

    @usableFromInline
    init(serviceType: Any.Type, name: Resolver.Name?, scope: ResolverScope) {
        self.typeID = UInt64(UInt(bitPattern: ObjectIdentifier(serviceType)))
        self.serviceType = serviceType
        self.name = name
        self.scope = scope
        self.scopeFacts = ScopeFacts(scope)
    }

    /// "Type" or "Type:name", as in the original's messages.
    final var keyDescription: String {
        describe(serviceType, name)
    }
}

/// One registered way of making a `Service`: its factory, scope and name.
///
/// Custom scopes call `instantiate(resolver:args:)` to make a new instance;
/// `resolve(resolver:args:)` goes through the registration's scope.
///
/// The factory it was registered with lives in a subclass, one per closure
/// shape, as an immutable property that the resolve path calls in place.
/// `update(factory:)` installs a replacement; replaced factories stay alive
/// as long as the registration, so a thread still running one (it holds the
/// registration) is never left with a freed closure.
/// A scope's kind, table and generation counter (see `ResolverScope`).
@usableFromInline
struct ScopeFacts {
    @usableFromInline let kind: ResolverScope.Kind
    @usableFromInline let table: OpaquePointer?
    @usableFromInline let generation: UnsafeMutablePointer<UInt64>?

    @inlinable
    init(_ scope: ResolverScope) {
        kind = scope.kind
        table = scope.table
        generation = scope.generation
    }
}

public class ResolverRegistration<Service>: _ResolverRegistrationBase, @unchecked Sendable {
    /// The factory installed by `update(factory:)`, owned (+1), or nil while
    /// the registered one is in use. Guarded by the registry mutex; the
    /// resolve path reads it under the lock.
    @exclusivity(unchecked) @usableFromInline final var replacement: Unmanaged<FactoryBox>?
    /// Factories replaced by later updates, kept alive (so a replaced box is
    /// never freed and a box's address identifies it for good). Guarded by
    /// the registry mutex. (`AnyObject`, not `FactoryBox`: an array of the
    /// generic box would make every registration's initializer look up the
    /// box's metadata.)
    @exclusivity(unchecked) final var retiredFactories: [AnyObject] = []

    /// A factory installed by `update(factory:)`, held by reference.
    @usableFromInline
    final class FactoryBox {
        @usableFromInline let factory: ResolverFactoryAnyArguments<Service>

        init(_ factory: @escaping ResolverFactoryAnyArguments<Service>) {
            self.factory = factory
        }
    }

    /// The type identity of `Service` (the bit pattern of its `ObjectIdentifier`).
    public final var key: Int {
        Int(truncatingIfNeeded: typeID)
    }

    /// A string key of type and name, as the original's caches used.
    /// Computed on demand: nothing on the resolve path needs it.
    public final var cacheKey: String {
        guard let name else { return String(key) }
        return String(key) + ":" + name.rawValue
    }

    @usableFromInline
    init(name: Resolver.Name?, scope: ResolverScope) {
        super.init(serviceType: Service.self, name: name, scope: scope)
    }

    deinit {
        replacement?.release()
    }

    /// Runs the factory as registered (overridden per closure shape);
    /// `arguments` are read only by factories that take them.
    @usableFromInline
    func makeAsRegistered(_ resolver: Resolver, _ arguments: ArgumentsPointer) -> Service? {
        fatalError("RESOLVER: internal error: a registration without a factory")
    }

    /// The factory as registered, in the `(Resolver, Any?) -> Service?` form
    /// that `update(factory:)` works with (overridden per closure shape).
    var asRegisteredAnyArguments: ResolverFactoryAnyArguments<Service> {
        fatalError("RESOLVER: internal error: a registration without a factory")
    }

    /// Runs the current factory: `replacement` (read under the lock by the
    /// caller) or the registered one.
    @inlinable
    final func make(_ replacement: Unmanaged<FactoryBox>?, _ resolver: Resolver, _ arguments: ArgumentsPointer) -> Service? {
        if let replacement {
            return replacement._withUnsafeGuaranteedRef { $0.factory(resolver, arguments.value) }
        }
        return makeAsRegistered(resolver, arguments)
    }

    /// Resolves through this registration's scope: depending on the scope,
    /// a cached instance or a new one.
    public final func resolve(resolver: Resolver, args: Any?) -> Service? {
        let mutex = Registry.shared.mutex
        crg_mutex_lock(mutex)
        return withArguments(args) { arguments in
            withRegistryKey(Service.self, name) {
                resolveLocked(mutex, Unmanaged.passUnretained(resolver), arguments, $0)
            }
        }
    }

    /// Makes a new instance with the factory (and any `resolveProperties`
    /// blocks). This is what scopes call. A registration re-entered on the
    /// same thread while its factory is running is a dependency cycle, and
    /// stops the program with the chain of services involved.
    public final func instantiate(resolver: Resolver, args: Any?) -> Service? {
        let replacement = Registry.shared.withLock { self.replacement }
        return withArguments(args) { arguments in
            ResolutionContext.withCurrent { instantiate(replacement, resolver, arguments, $0) }
        }
    }

    /// Runs the factory (`replacement` read under the lock) with this
    /// registration on the thread's resolution stack.
    @inlinable
    final func instantiate(_ replacement: Unmanaged<FactoryBox>?, _ resolver: Resolver, _ arguments: ArgumentsPointer,
                     _ context: ResolutionContext) -> Service? {
        context.enter(self, withArguments: arguments != nil)
        defer { context.leave() }
        return make(replacement, resolver, arguments)
    }

    /// Replaces the factory with `modifier(factory)`: how `resolveProperties`
    /// attaches its blocks, and how apps can wrap a factory themselves.
    public final func update(factory modifier: (_ factory: @escaping ResolverFactoryAnyArguments<Service>) -> ResolverFactoryAnyArguments<Service>) {
        let registry = Registry.shared
        // The modifier is user code, so it runs without the lock held; if
        // another update lands meanwhile, wrap the newer factory instead, so
        // that no update is lost.
        while true {
            registry.lock()
            let seen = replacement
            let current = seen?.takeUnretainedValue().factory ?? asRegisteredAnyArguments
            registry.unlock()
            let updated = modifier(current)
            registry.lock()
            if replacement?.toOpaque() == seen?.toOpaque() {
                if let seen {
                    retiredFactories.append(seen.takeRetainedValue())
                }
                replacement = Unmanaged.passRetained(FactoryBox(updated))
                registry.unlock()
                return
            }
            registry.unlock()
        }
    }

    /// Sets the scope (under the registry mutex).
    final func setScope(_ scope: ResolverScope) {
        let registry = Registry.shared
        registry.lock()
        let previous = self.scope
        self.scope = scope
        self.scopeFacts = ScopeFacts(scope)
        self.cachedEntry = nil
        registry.unlock()
        withExtendedLifetime(previous) {}
    }
}

/// A registration made with `register { Service() }`.
@usableFromInline
final class PlainRegistration<Service>: ResolverRegistration<Service>, @unchecked Sendable {
    @usableFromInline let factory: ResolverFactory<Service>

    @usableFromInline
    init(name: Resolver.Name?, scope: ResolverScope, factory: @escaping ResolverFactory<Service>) {
        self.factory = factory
        super.init(name: name, scope: scope)
    }

    override func makeAsRegistered(_ resolver: Resolver, _ arguments: ArgumentsPointer) -> Service? {
        factory()
    }

    override var asRegisteredAnyArguments: ResolverFactoryAnyArguments<Service> {
        let factory = self.factory
        return { _, _ in factory() }
    }
}

/// A registration made with `register { resolver in Service(...) }`.
@usableFromInline
final class ResolverArgumentRegistration<Service>: ResolverRegistration<Service>, @unchecked Sendable {
    @usableFromInline let factory: ResolverFactoryResolver<Service>

    @usableFromInline
    init(name: Resolver.Name?, scope: ResolverScope, factory: @escaping ResolverFactoryResolver<Service>) {
        self.factory = factory
        super.init(name: name, scope: scope)
    }

    override func makeAsRegistered(_ resolver: Resolver, _ arguments: ArgumentsPointer) -> Service? {
        factory(resolver)
    }

    override var asRegisteredAnyArguments: ResolverFactoryAnyArguments<Service> {
        let factory = self.factory
        return { resolver, _ in factory(resolver) }
    }
}

/// A registration made with `register { resolver, args in Service(...) }`.
@usableFromInline
final class ArgumentsRegistration<Service>: ResolverRegistration<Service>, @unchecked Sendable {
    @usableFromInline let factory: ResolverFactoryArgumentsN<Service>

    @usableFromInline
    init(name: Resolver.Name?, scope: ResolverScope, factory: @escaping ResolverFactoryArgumentsN<Service>) {
        self.factory = factory
        super.init(name: name, scope: scope)
    }

    override func makeAsRegistered(_ resolver: Resolver, _ arguments: ArgumentsPointer) -> Service? {
        factory(resolver, Resolver.Args(arguments.value))
    }

    override var asRegisteredAnyArguments: ResolverFactoryAnyArguments<Service> {
        let factory = self.factory
        return { resolver, args in factory(resolver, Resolver.Args(args)) }
    }
}

/// A registration whose factory takes the raw `args:` value (`implements`).
@usableFromInline
final class AnyArgumentsRegistration<Service>: ResolverRegistration<Service>, @unchecked Sendable {
    @usableFromInline let factory: ResolverFactoryAnyArguments<Service>

    @usableFromInline
    init(name: Resolver.Name?, scope: ResolverScope, factory: @escaping ResolverFactoryAnyArguments<Service>) {
        self.factory = factory
        super.init(name: name, scope: scope)
    }

    override func makeAsRegistered(_ resolver: Resolver, _ arguments: ArgumentsPointer) -> Service? {
        factory(resolver, arguments.value)
    }

    override var asRegisteredAnyArguments: ResolverFactoryAnyArguments<Service> {
        factory
    }
}
