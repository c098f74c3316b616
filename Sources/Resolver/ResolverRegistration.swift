import CRegistry

/// One registered way of making a `Service`: its factory, scope and name.
///
/// Custom scopes call ``instantiate(resolver:args:)`` to make a new instance;
/// ``resolve(resolver:args:)`` goes through the registration's scope.
///
/// A registration made by `register` does not know its container; one made
/// with ``init(resolver:key:name:factory:)`` keeps a weak reference to the
/// given container, where ``ResolverOptions/implements(_:name:)`` registers.
//
// Invariants: the key (`typeID`, `name`) and the factory it was registered
// with never change. The scope and the factory installed by
// `update(factory:)` change under the registry mutex and are published in
// `cells` for readers: each holds an unretained pointer, owned by
// `scopeStorage` (the scope) or by the cell itself (the factory box); what
// they replace is retired, so a thread still running a replaced factory, or
// reading a replaced scope, is never left with a freed object (DESIGN.md).
public final class ResolverRegistration<Service>: @unchecked Sendable {
    /// The factory, in the shape it was registered with. The resolve path
    /// calls it in place.
    @usableFromInline
    enum Factory {
        case plain(ResolverFactory<Service>)
        case resolver(ResolverFactoryResolver<Service>)
        case arguments(ResolverFactoryArgumentsN<Service>)
        case anyArguments(ResolverFactoryAnyArguments<Service>)
    }

    /// A factory installed by `update(factory:)`, held by reference.
    @usableFromInline
    final class FactoryBox {
        @usableFromInline let factory: ResolverFactoryAnyArguments<Service>

        init(_ factory: @escaping ResolverFactoryAnyArguments<Service>) {
            self.factory = factory
        }

        /// The factory of the box at `raw`, read without a reference count
        /// (read section).
        @inlinable
        @inline(__always)
        static func factory(_ raw: UnsafeMutableRawPointer) -> ResolverFactoryAnyArguments<Service> {
            unowned(unsafe) let box = Unmanaged<FactoryBox>.fromOpaque(raw).takeUnretainedValue()
            return box.factory
        }
    }

    /// `ObjectIdentifier(Service.self)` as the registry's type identity.
    @usableFromInline let typeID: UInt64
    @usableFromInline let name: Resolver.Name?
    @usableFromInline let factory: Factory
    /// `cells[scopeCell]`: the scope (unretained; `scopeStorage` owns it).
    /// `cells[replacementCell]`: the `FactoryBox` from `update(factory:)`
    /// (owned, +1), or nil while the registered factory is in use.
    /// `cells[memoCell]`: the `CacheMemo` of its cached instance (owned), or nil.
    @usableFromInline let cells: UnsafeMutablePointer<crg_cell>
    @inlinable static var scopeCell: Int { 0 }
    @inlinable static var replacementCell: Int { 1 }
    @inlinable static var memoCell: Int { 2 }

    // Guarded by the registry mutex.
    private var scopeStorage: ResolverScope
    /// Counts `update(factory:)` installs, so an update that raced another
    /// can tell and wrap the newer factory.
    private var factoryVersion: UInt64 = 0

    /// The container given to `init(resolver:key:name:factory:)`, where the
    /// options' `implements` registers (held weakly, as by the original).
    /// Registrations made by `register` leave it nil: `ResolverOptions` knows
    /// their container.
    weak var container: Resolver?

    /// The registration an `implements()` registration resolves through
    /// (under the registry mutex): its factory takes arguments only to pass
    /// them on, so it needs them only if that one does.
    var forwardsTo: RegistrationDescribing?

    /// The key this registration reports: the type identity of `Service`, or
    /// the one given to `init(resolver:key:name:factory:)`.
    public let key: Int

    /// A string key of type and name, as the original's caches used:
    /// "key" or "key:name". Computed on demand.
    public var cacheKey: String {
        guard let name else { return String(key) }
        return String(key) + ":" + name.rawValue
    }

    /// A registration made by `register`.
    @usableFromInline
    init(name: Resolver.Name?, scope: ResolverScope, factory: Factory) {
        typeID = UInt64(UInt(bitPattern: ObjectIdentifier(Service.self)))
        key = Int(bitPattern: UInt(typeID))
        self.name = name
        self.factory = factory
        scopeStorage = scope
        cells = makeCells(3)
        crg_cell_store(cells, Unmanaged.passUnretained(scope).toOpaque())
    }

    /// Makes a registration by hand, as the original allows: for calling a
    /// factory through a scope directly (`scope.resolve(registration:…)`) or
    /// building `ResolverOptions(registration:)`. It is not registered
    /// anywhere; `key` is reported as given, while caches key on `Service`
    /// and `name`, as for every registration. Its scope is
    /// `Resolver.defaultScope`.
    public init(resolver: Resolver, key: Int, name: Resolver.Name?, factory: @escaping ResolverFactoryAnyArguments<Service>) {
        typeID = UInt64(UInt(bitPattern: ObjectIdentifier(Service.self)))
        self.key = key
        self.name = name
        self.factory = .anyArguments(factory)
        let scope = Resolver.defaultScope
        scopeStorage = scope
        cells = makeCells(3)
        crg_cell_store(cells, Unmanaged.passUnretained(scope).toOpaque())
        container = resolver
    }

    deinit {
        for index in [ResolverRegistration.replacementCell, ResolverRegistration.memoCell] {
            if let object = crg_cell_load(cells + index) {
                Unmanaged<AnyObject>.fromOpaque(object).release()
            }
        }
        crg_cells_destroy(cells)
    }

    /// The scope (under the registry mutex).
    var scope: ResolverScope {
        registry.withLock { scopeStorage }
    }

    /// "Type" or "Type:name", as in the original's messages.
    var keyDescription: String {
        describe(Service.self, name)
    }

    /// The factory as registered, in the `(Resolver, Any?) -> Service?` form
    /// that `update(factory:)` works with.
    var registeredFactory: ResolverFactoryAnyArguments<Service> {
        switch factory {
        case .plain(let factory): return { _, _ in factory() }
        case .resolver(let factory): return { resolver, _ in factory(resolver) }
        case .arguments(let factory): return { resolver, args in factory(resolver, Resolver.Args(args)) }
        case .anyArguments(let factory): return factory
        }
    }

    /// Resolves through this registration's scope: depending on the scope,
    /// a cached instance or a new one.
    public final func resolve(resolver: Resolver, args: Any?) -> Service? {
        withArguments(args) { arguments in
            withRegistryKey(Service.self, name) { key in
                if crg_word_load(Published.detours) != 0 {
                    GraphRecorder.recordResolve(of: Service.self, key)
                }
                crg_read_begin()
                defer { crg_read_end() }
                return ResolverRegistration.resolve(Unmanaged.passUnretained(self).toOpaque(), key,
                                                    Unmanaged.passUnretained(resolver).toOpaque(), given: resolver,
                                                    arguments)
            }
        }
    }

    /// Makes a new instance with the factory (and any `resolveProperties`
    /// blocks). This is what scopes call. A registration re-entered on the
    /// same thread while its factory is running is a dependency cycle, and
    /// stops the program with the chain of services involved.
    public final func instantiate(resolver: Resolver, args: Any?) -> Service? {
        withArguments(args) { arguments in
            crg_read_begin()
            defer { crg_read_end() }
            return instantiateInReadSection(resolver, arguments)
        }
    }

    /// `instantiate`, inside a read section.
    func instantiateInReadSection(_ resolver: Resolver, _ arguments: ArgumentsPointer) -> Service? {
        ResolverRegistration.make(Unmanaged.passUnretained(self).toOpaque(), ResolutionContext.current, resolver, arguments)
    }

    /// Replaces the factory with `modifier(factory)`: how `resolveProperties`
    /// attaches its blocks, and how apps can wrap a factory themselves.
    public final func update(factory modifier: (_ factory: @escaping ResolverFactoryAnyArguments<Service>) -> ResolverFactoryAnyArguments<Service>) {
        // The modifier is user code, so it runs without the lock held; if
        // another update lands meanwhile, wrap the newer factory instead, so
        // that no update is lost.
        while true {
            let (version, current) = registry.withLock { () -> (UInt64, ResolverFactoryAnyArguments<Service>) in
                let installed = crg_cell_load(cells + ResolverRegistration.replacementCell)
                    .map { Unmanaged<FactoryBox>.fromOpaque($0).takeUnretainedValue().factory }
                return (factoryVersion, installed ?? registeredFactory)
            }
            let updated = modifier(current)
            let installed = registry.write { () -> Bool in
                guard factoryVersion == version else {
                    return false
                }
                factoryVersion += 1
                let box = Unmanaged.passRetained(FactoryBox(updated)).toOpaque()
                if let replaced = crg_cell_exchange(cells + ResolverRegistration.replacementCell, box) {
                    retire(retained: replaced)
                }
                return true
            }
            if installed {
                return
            }
        }
    }

    /// Sets the scope (under the registry mutex); the old one, and the memo
    /// of its cached entry, are retired.
    final func setScope(_ scope: ResolverScope) {
        registry.write {
            guard scope !== scopeStorage else { return }
            retire(scopeStorage)
            scopeStorage = scope
            crg_cell_store(cells + ResolverRegistration.scopeCell, Unmanaged.passUnretained(scope).toOpaque())
            if let memo = crg_cell_exchange(cells + ResolverRegistration.memoCell, nil) {
                retire(retained: memo)
            }
        }
    }
}

/// What the diagnostics, verification and the dependency graph need of a
/// registration of any service type.
protocol RegistrationDescribing: AnyObject {
    /// "Type" or "Type:name".
    var keyDescription: String { get }
    /// The graph node of its key (without a scope).
    var graphNode: Resolver.Graph.Node { get }
    /// Whether its factory takes arguments (`verify()` skips it). The mutex
    /// must be held.
    var takesArgumentsLocked: Bool { get }
    /// Resolves it once from `container` (a verification's sandbox), as
    /// `optional()` does: whether an instance came back.
    func resolveOnce(from container: Resolver) -> Bool
    /// The scope (under the registry mutex).
    var scope: ResolverScope { get }
}

extension ResolverRegistration: RegistrationDescribing {
    var graphNode: Resolver.Graph.Node {
        Resolver.Graph.Node(typeID: typeID, type: String(describing: Service.self), name: name?.rawValue, scope: nil)
    }

    var takesArgumentsLocked: Bool {
        switch factory {
        case .plain, .resolver: return false
        case .arguments: return true
        case .anyArguments: return forwardsTo?.takesArgumentsLocked ?? true
        }
    }

    func resolveOnce(from container: Resolver) -> Bool {
        container.optional(Service.self, name: name) != nil
    }
}
