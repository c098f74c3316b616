import CRegistry

/// What every registration has, whatever its service type: the key it is
/// stored under and its scope. The registry,
/// the cycle detector and the diagnostics work on this base; a
/// `ResolverRegistration<Service>` adds the typed factory.
///
/// Not meant to be used outside the module: it has no public members and
/// cannot be subclassed elsewhere.
///
/// Invariants: `typeID`, `serviceType` and `name` never change. `scope`,
/// `scopeKind`, `scopeTable` and `scopeGeneration` change together (and clear
/// `cachedEntry`), only under the registry mutex, and are read under it (which is why their accesses need no dynamic
/// exclusivity checks). A registration holds no reference to its container:
/// a weak one would slow down every retain of the container.
public class _ResolverRegistrationBase: @unchecked Sendable {
    /// `ObjectIdentifier(Service.self)` as the registry's type identity.
    @usableFromInline let typeID: UInt64
    /// `Service.self`, for messages.
    @usableFromInline let serviceType: Any.Type
    @usableFromInline let name: Resolver.Name?
    /// The scope, strongly held (custom scopes are called through it).
    @exclusivity(unchecked) @usableFromInline var scope: ResolverScope
    /// `scope.kind`, copied here so the resolve path reads plain data.
    @exclusivity(unchecked) @usableFromInline var scopeKind: ResolverScope.Kind
    /// `scope.table` and `scope.generation` (for the caching scopes), copied
    /// for the same reason.
    @exclusivity(unchecked) @usableFromInline var scopeTable: OpaquePointer?
    @exclusivity(unchecked) @usableFromInline var scopeGeneration: UnsafeMutablePointer<UInt64>?
    /// Where this registration's instance sits in `scopeTable`, and the
    /// generation it was found in: while the scope's generation is the same,
    /// the entry is still there and the lookup can be skipped.
    @exclusivity(unchecked) @usableFromInline var cachedEntry: UnsafeMutableRawPointer?
    @exclusivity(unchecked) @usableFromInline var cachedEntryGeneration: UInt64 = 0

    @usableFromInline
    init(serviceType: Any.Type, name: Resolver.Name?, scope: ResolverScope) {
        self.typeID = UInt64(UInt(bitPattern: ObjectIdentifier(serviceType)))
        self.serviceType = serviceType
        self.name = name
        self.scope = scope
        self.scopeKind = scope.kind
        self.scopeTable = scope.table
        self.scopeGeneration = scope.generation
    }

    /// "Type" or "Type:name", as in the original's messages.
    var keyDescription: String {
        describe(serviceType, name)
    }
}

/// One registered way of making a `Service`: its factory, scope and name.
///
/// Custom scopes call `instantiate(resolver:args:)` to make a new instance;
/// `resolve(resolver:args:)` goes through the registration's scope.
public final class ResolverRegistration<Service>: _ResolverRegistrationBase, @unchecked Sendable {
    /// The current factory, owned (+1). Guarded by the registry mutex.
    ///
    /// The resolve path reads it under the lock and calls it after unlocking
    /// without taking a reference: a factory replaced by `update(factory:)`
    /// moves to `retiredFactories` and lives as long as the registration,
    /// which the resolving thread does hold.
    @exclusivity(unchecked) @usableFromInline var factoryBox: Unmanaged<FactoryBox>
    /// Factories replaced by `update(factory:)`. Guarded by the registry mutex.
    @exclusivity(unchecked) var retiredFactories: [FactoryBox] = []
    /// Bumped by every `update(factory:)`. Guarded by the registry mutex.
    @exclusivity(unchecked) var factoryVersion = 0

    /// A registered factory, kept in its own shape.
    @usableFromInline
    enum Factory {
        case plain(ResolverFactory<Service>)
        case resolver(ResolverFactoryResolver<Service>)
        case arguments(ResolverFactoryArgumentsN<Service>)
        case any(ResolverFactoryAnyArguments<Service>)

        /// The factory as `(Resolver, Any?) -> Service?`, for `update(factory:)`.
        var general: ResolverFactoryAnyArguments<Service> {
            if case .any(let factory) = self {
                return factory
            }
            let box = FactoryBox(self)
            return { resolver, args in box.make(resolver, args) }
        }
    }

    /// An immutable factory, held by reference.
    @usableFromInline
    final class FactoryBox {
        @usableFromInline let factory: Factory

        init(_ factory: Factory) {
            self.factory = factory
        }

        /// Runs the factory.
        @inlinable
        func make(_ resolver: Resolver, _ args: Any?) -> Service? {
            switch factory {
            case .plain(let factory):
                return factory()
            case .resolver(let factory):
                return factory(resolver)
            case .arguments(let factory):
                return factory(resolver, Resolver.Args(args))
            case .any(let factory):
                return factory(resolver, args)
            }
        }
    }

    /// The type identity of `Service` (the bit pattern of its `ObjectIdentifier`).
    public let key: Int

    /// A string key of type and name, as the original's caches used.
    /// Computed on demand: nothing on the resolve path needs it.
    public var cacheKey: String {
        guard let name else { return String(key) }
        return String(key) + ":" + name.rawValue
    }

    @usableFromInline
    init(name: Resolver.Name?, scope: ResolverScope, factory: Factory) {
        self.factoryBox = Unmanaged.passRetained(FactoryBox(factory))
        self.key = Int(bitPattern: ObjectIdentifier(Service.self))
        super.init(serviceType: Service.self, name: name, scope: scope)
    }

    deinit {
        factoryBox.release()
    }

    /// Resolves through this registration's scope: depending on the scope,
    /// a cached instance or a new one.
    public final func resolve(resolver: Resolver, args: Any?) -> Service? {
        let mutex = Registry.shared.mutex
        crg_mutex_lock(mutex)
        return withRegistryKey(Service.self, name) { resolveLocked(mutex, resolver, args, $0) }
    }

    /// Makes a new instance with the factory (and any `resolveProperties`
    /// blocks). This is what scopes call. A registration re-entered on the
    /// same thread while its factory is running is a dependency cycle, and
    /// stops the program with the chain of services involved.
    public final func instantiate(resolver: Resolver, args: Any?) -> Service? {
        let registry = Registry.shared
        registry.lock()
        let factory = factoryBox
        registry.unlock()
        return ResolutionContext.withCurrent { instantiate(factory, resolver, args, $0) }
    }

    /// Runs `factory` (read from `factoryBox` under the lock) with this
    /// registration on the thread's resolution stack.
    @inlinable
    func instantiate(_ factory: Unmanaged<FactoryBox>, _ resolver: Resolver, _ args: Any?,
                     _ context: ResolutionContext) -> Service? {
        context.enter(self, withArguments: args != nil)
        defer { context.leave() }
        return factory._withUnsafeGuaranteedRef { $0.make(resolver, args) }
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
            let current = factoryBox.takeUnretainedValue().factory.general
            let version = factoryVersion
            registry.unlock()
            let updated = modifier(current)
            registry.lock()
            if version == factoryVersion {
                retiredFactories.append(factoryBox.takeRetainedValue())
                factoryBox = Unmanaged.passRetained(FactoryBox(.any(updated)))
                factoryVersion &+= 1
                registry.unlock()
                return
            }
            registry.unlock()
        }
    }

    /// Sets the scope (under the registry mutex).
    func setScope(_ scope: ResolverScope) {
        let registry = Registry.shared
        registry.lock()
        let previous = self.scope
        self.scope = scope
        self.scopeKind = scope.kind
        self.scopeTable = scope.table
        self.scopeGeneration = scope.generation
        self.cachedEntry = nil
        registry.unlock()
        withExtendedLifetime(previous) {}
    }
}
