/// One registered way of making a `Service`: its factory, scope and name.
///
/// Custom scopes call ``instantiate(resolver:args:)`` to make a new instance;
/// ``resolve(resolver:args:)`` goes through the registration's scope.
///
/// A registration made by `register` does not know its container; one made
/// with ``init(resolver:key:name:factory:)`` keeps a weak reference to the
/// given container, where ``ResolverOptions/implements(_:name:)`` registers.
//
// The key (`typeID`, `name`) and the registered factory never change; the
// scope (owned by `scopeStorage`) and the factory `update(factory:)` installs
// change under the registry mutex, published in `fields`, and what they
// replace is retired (DESIGN.md, R2).
public final class ResolverRegistration<Service>: @unchecked Sendable {
    /// A factory installed by `update(factory:)`, held by reference.
    @usableFromInline
    final class FactoryBox {
        @usableFromInline let factory: ResolverFactoryAnyArguments<Service>

        init(_ factory: @escaping ResolverFactoryAnyArguments<Service>) {
            self.factory = factory
        }
    }

    /// `ObjectIdentifier(Service.self)` as the registry's type identity.
    @usableFromInline let typeID: UInt64
    @usableFromInline let name: Resolver.Name?
    @usableFromInline let factory: Factory
    /// `factory` as the resolve path calls it: a constant, called borrowed (DESIGN.md, B1).
    @usableFromInline let call: Call
    /// Its typed argument list (`register(arguments:)`) and that list's identity, or nil.
    @usableFromInline let argumentList: ArgumentList?
    @usableFromInline let argumentTypes: ObjectIdentifier?
    @usableFromInline let isolation: FactoryIsolation
    /// Where the `register` call that made it is (nil: made by hand).
    @usableFromInline let site: RegistrationSite?
    /// Whether `register` was called on the main actor: a plain factory written there may be isolated to it.
    let registeredOnMainActor: Bool
    /// Whether a caching scope keeps a nil its factory made of an Optional service type: as
    /// Resolver 1.5.1 did for registrations by type, never for a key's (as Factory never does).
    @usableFromInline let keepsNil: Bool
    /// What the resolve path reads without a lock: the scope, the installed factory, the memo.
    @usableFromInline let fields = Fields()

    // Guarded by the registry mutex.
    @exclusivity(unchecked) var scopeStorage: ResolverScope
    /// Counts installs, so an `update(factory:)` that raced another wraps the newer factory.
    private var factoryVersion: UInt64 = 0
    /// Its contexts (`onTest`, `onArg`, …) that apply or may, if any.
    var contexts: RegistrationContexts<Service>?
    /// Whether it has an `onTest` (applied or not): strict tests do not report it.
    var hasTestContext = false
    /// Whether `allowedInStrictTests()` marked it.
    var isAllowedInStrictTests = false

    /// The container given to `init(resolver:key:name:factory:)`, held weakly as by the original,
    /// where the options' `implements` registers; nil for `register`'s (their options know it).
    weak var container: Resolver?

    /// The registration an `implements()` registration resolves through: it needs arguments only
    /// if that one does.
    var forwardsTo: RegistrationDescribing?

    /// The key this registration reports: the type identity of `Service`, or
    /// the one given to `init(resolver:key:name:factory:)`.
    public let key: Int

    /// A string key of `key` and name, which the original's caches used:
    /// "key" or "key:name". Computed on demand.
    public var cacheKey: String {
        guard let name else { return String(key) }
        return String(key) + ":" + name.rawValue
    }

    /// For a registration made by hand whose `key` is not `Service`'s type identity: its
    /// `cacheKey`, under which the caching scopes keep its instance (with `handMadeCacheType`),
    /// as the original's caches did. nil for the others, kept under their type and name.
    let handMadeCacheName: Resolver.Name?

    /// The type identity of hand-made registrations' cache keys: odd, so no type's (a type's is
    /// its metadata's address). Registrations of different types may meet there, as in the original.
    static var handMadeCacheType: UInt64 { 1 }

    /// A registration made by `register`.
    @usableFromInline
    init(name: Resolver.Name?, scope: ResolverScope, factory: Factory, registeredOnMainActor: Bool = false,
         arguments: ArgumentList? = nil, site: RegistrationSite? = nil) {
        self.site = site
        typeID = UInt64(UInt(bitPattern: ObjectIdentifier(Service.self)))
        key = Int(bitPattern: UInt(typeID))
        self.name = name
        self.factory = factory
        call = factory.call(name: name, registeredOnMainActor: registeredOnMainActor)
        argumentList = arguments
        argumentTypes = arguments?.identity
        isolation = factory.isolation
        self.registeredOnMainActor = registeredOnMainActor
        keepsNil = !KeyName.isKey(name)
        handMadeCacheName = nil
        scopeStorage = scope
        fields.scope.store(UncheckedReference(scope))
    }

    /// Makes a registration by hand, as the original allows: for calling a
    /// factory through a scope directly (`scope.resolve(registration:…)`) or
    /// building `ResolverOptions(registration:)`. It is not registered
    /// anywhere. Its scope is `Resolver.defaultScope`.
    ///
    /// The caching scopes keep its instance under ``cacheKey``, made of `key`
    /// and `name`, as the original's did: hand-made registrations under two
    /// keys cache two instances, and one whose `key` is not the type identity
    /// of `Service` (`Int(bitPattern: ObjectIdentifier(Service.self))`, the
    /// key `register` gives) does not share the instance of the registration
    /// `register` made for `Service` and `name`. Hand-made registrations of
    /// different service types under one `cacheKey` share the entry: each
    /// finds there an instance of its type, or makes one that replaces it.
    /// (Unlike the original's, a `key` that is the identity of another type
    /// does not reach the instances of that type's ordinary registrations.)
    public init(resolver: Resolver, key: Int, name: Resolver.Name?, factory: @escaping ResolverFactoryAnyArguments<Service>) {
        typeID = UInt64(UInt(bitPattern: ObjectIdentifier(Service.self)))
        self.key = key
        self.name = name
        let shaped = Factory.anyArguments(factory)
        self.factory = shaped
        call = shaped.call(name: name, registeredOnMainActor: false)
        argumentList = nil
        argumentTypes = nil
        isolation = .none
        registeredOnMainActor = false
        keepsNil = true
        site = nil
        if key == Int(bitPattern: UInt(typeID)) {
            handMadeCacheName = nil
        } else {
            handMadeCacheName = Resolver.Name(name.map { String(key) + ":" + $0.rawValue } ?? String(key))
        }
        let scope = Resolver.defaultScope
        scopeStorage = scope
        fields.scope.store(UncheckedReference(scope))
        container = resolver
    }

    deinit {
        fields.release()
    }

    /// The scope (under the registry mutex).
    @usableFromInline
    var scope: ResolverScope {
        registry.withLock { scopeStorage }
    }

    /// "Type" or "Type:name", as in the original's messages.
    var keyDescription: String {
        describe(Service.self, name)
    }

    /// `Service`, for a description made later (`RecordedReplacement`).
    var serviceType: Any.Type {
        Service.self
    }

    /// The factory as registered, in the `(Resolver, Any?) -> Service?` form
    /// that `update(factory:)` works with.
    var registeredFactory: ResolverFactoryAnyArguments<Service> {
        factory.anyArgumentsForm(name: name)
    }

    /// Resolves through this registration's scope: depending on the scope,
    /// a cached instance or a new one.
    public final func resolve(resolver: Resolver, args: Any?) -> Service? {
        resolveThroughScope(resolver, args)
    }

    /// Makes a new instance with the factory (and any `resolveProperties`
    /// blocks). This is what scopes call. A registration re-entered on the
    /// same thread while its factory is running is a dependency cycle, and
    /// stops the program with the chain of services involved.
    public final func instantiate(resolver: Resolver, args: Any?) -> Service? {
        produce(resolver, args)
    }

    /// Replaces the factory with `modifier(factory)`: how `resolveProperties`
    /// attaches its blocks, and how apps can wrap a factory themselves.
    public final func update(factory modifier: (_ factory: @escaping ResolverFactoryAnyArguments<Service>) -> ResolverFactoryAnyArguments<Service>) {
        // The modifier is user code, so it runs without the lock held; if
        // another update lands meanwhile, wrap the newer factory instead, so
        // that no update is lost.
        while true {
            let (version, current) = registry.withLock { () -> (UInt64, ResolverFactoryAnyArguments<Service>) in
                (factoryVersion, installedFactoryLocked ?? registeredFactory)
            }
            let updated = modifier(current)
            let installed = registry.write { () -> Bool in
                guard factoryVersion == version else {
                    return false
                }
                factoryVersion += 1
                installFactoryLocked(updated)
                return true
            }
            if installed {
                return
            }
        }
    }

    /// Installs `factory` as `update(factory:)` would, without a modifier:
    /// a context's. The mutex must be held.
    final func replaceFactoryLocked(_ factory: @escaping ResolverFactoryAnyArguments<Service>) {
        registry.assertLocked()
        factoryVersion += 1
        installFactoryLocked(factory)
    }

    /// Sets the scope (under the registry mutex); the old one, and the memo
    /// of its cached entry, are retired (a built-in scope, which outlives
    /// every reader, is let go at once).
    /// A registration given `.container` counts in `container`'s hint for
    /// its cache (`containerScopedRegistrations`).
    final func setScope(_ scope: ResolverScope, registeredIn container: Resolver? = nil) {
        checkArgumentsCanBeCached(in: scope)
        registry.write {
            guard scope !== scopeStorage else { return }
            if let container, scope.kind.strategy == .containerCache {
                container.containerScopedRegistrations += 1
            }
            let old = scopeStorage
            scopeStorage = scope
            publishScopeLocked(scope)
            if !old.isKeptForever {
                retire(old)
            }
        }
    }
}
