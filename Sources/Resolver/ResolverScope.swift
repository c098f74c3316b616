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
    /// Which built-in behaviour this scope has (`Engine/Scopes/ResolverScope+Kind.swift`).
    @usableFromInline let kind: Kind
    /// A caching scope's table of instances (weak boxes for `.shared`, expiring ones for
    /// `.timeToLive`), owning its values; nil for the others.
    @usableFromInline let table: InstanceTable?
    /// A time-to-live scope's life and clock; nil for the other kinds.
    @usableFromInline let life: ScopeLife?

    /// Whether this is a built-in scope, which lives as long as the process (set by `kept()`).
    var isKeptForever = false

    // Guarded by the registry mutex.
    /// The builds running in this scope, synchronous and async (DESIGN.md, S1).
    @exclusivity(unchecked) var building: [Build] = []
    /// How many builds this scope has started (each build's `BuildTicket`).
    @exclusivity(unchecked) var buildsStarted: UInt64 = 0
    /// A caching scope's generation: odd while entries leave the table, even otherwise, never
    /// the same even value twice; written under the mutex, read without it (DESIGN.md, S2, S3).
    @usableFromInline let generationWord: AtomicWord

    /// Makes a unique scope (for `ResolverScope` itself) or the base of a
    /// custom subclass.
    public init() {
        kind = type(of: self) == ResolverScope.self ? .unique : .custom
        table = nil
        life = nil
        generationWord = ResolverScope.makeGenerationWord()
    }

    init(kind: Kind) {
        assert(kind != .timeToLive, "a time-to-live scope is made with init(life:)")
        self.kind = kind
        table = kind.keepsInstances ? InstanceTable.make(mutex: registry.mutex, "a scope cache") : nil
        life = nil
        generationWord = ResolverScope.makeGenerationWord()
    }

    /// A time-to-live scope whose instances live for `life`.
    init(life: ScopeLife) {
        kind = .timeToLive
        table = InstanceTable.make(mutex: registry.mutex, "a scope cache")
        self.life = life
        generationWord = ResolverScope.makeGenerationWord()
    }

    deinit {
        releaseStorage()
    }

    /// Makes a new instance: the behaviour of the unique scope.
    open func resolve<Service>(registration: ResolverRegistration<Service>, resolver: Resolver, args: Any?) -> Service? {
        registration.instantiate(resolver: resolver, args: args)
    }

    /// The unique scope caches nothing, so there is nothing to reset.
    open func reset() {}

    /// Drops the instances this scope keeps for one service (one per argument list):
    ///
    /// ```swift
    /// ResolverScope.application.reset(UserSession.self)
    /// ResolverScope.session.reset(Theme.self, name: "dark")
    /// ```
    ///
    /// The next resolve of `Service` (under `name`; nil: the unnamed one) through this scope
    /// builds it again; the scope's other instances stay. As with `reset()`, no resolve that
    /// starts after it returns gets the dropped instances, which are released once no resolve
    /// that started before it is still running. A build of the service under way still returns
    /// its instance to the threads and tasks that asked, but does not keep it; nor do the builds
    /// of the scope's *other* services under way at that moment keep theirs.
    ///
    /// It works on the caching scopes (`.application`, `.cached`, `.shared`, a container's
    /// `cache`, every ``ResolverScopeCache``, ``ResolverScopeShare`` and
    /// ``ResolverScopeTimeToLive``), and does nothing on scopes that keep nothing (`.graph`,
    /// `.unique`; `.container`, whose instances live in each container's `cache`) or keep their
    /// own (subclasses of your own). A registration made by hand with a `key` other than its
    /// type's is kept under its `cacheKey`, which this does not reach: reset the scope.
    public func reset<Service>(_ type: Service.Type, name: Resolver.Name? = nil) {
        resetEntry(Service.self, name: name)
    }
}

extension ResolverScope {
    /// Created once, kept for the life of the app (until `Resolver.reset()` or
    /// `ResolverScope.application.reset()`).
    public static let application = ResolverScopeCache().kept()
    /// Like `.application`, meant to be reset: `ResolverScope.cached.reset()`.
    public static let cached = ResolverScopeCache().kept()
    /// One instance per registration within one top-level resolution. The default.
    public static let graph = ResolverScopeGraph().kept()
    /// Kept while anyone else holds a strong reference.
    public static let shared = ResolverScopeShare().kept()
    /// A new instance every time.
    public static let unique = ResolverScope().kept()
    /// Cached in the `cache` of the container `resolve` was called on.
    public static let container = ResolverScopeContainer().kept()

    /// Marks a built-in scope: a registration that leaves one gives its reference up at once,
    /// where a scope that may go is retired (`setScope`).
    private func kept() -> Self {
        isKeptForever = true
        return self
    }
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

/// Caches instances as ``ResolverScopeCache`` does, each for a time: an
/// instance is built again by the first resolve after `timeToLive` has passed
/// since it was built.
///
/// ```swift
/// extension ResolverScope {
///     static let fiveMinutes = ResolverScopeTimeToLive(.seconds(300))
/// }
/// register { PriceList() }.scope(.fiveMinutes)
/// ```
///
/// An instance's life starts when its build ends, measured on `clock`
/// (`ContinuousClock`, which counts while the device sleeps, unless you pass
/// another). Until it ends every resolve returns the instance; the first
/// resolve after builds a new one, once, as a cache builds: threads and
/// tasks asking at that moment wait for that build, and async factories
/// too. No resolve returns an expired instance. A resolve of a live instance
/// reads the clock once, and takes no lock. Resolves of a time-to-live
/// service are not remembered by the thread's cache as `.application`'s are,
/// so they cost that clock reading and a table lookup more.
///
/// `reset()` and ``ResolverScope/reset(_:name:)`` work as a cache's. A
/// verification's sandbox copies the scope with the same life and clock.
/// An instance that has expired stays in the scope until the next resolve
/// replaces it (or a reset drops it), and is released then.
///
/// Available where `Duration` and `Clock` are: macOS 13, iOS 16, tvOS 16,
/// watchOS 9 and later.
@available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
public final class ResolverScopeTimeToLive: ResolverScope, @unchecked Sendable {
    /// How long an instance lives once built.
    public let timeToLive: Duration

    /// Makes an empty scope whose instances live for `timeToLive` each,
    /// measured on `clock`:
    ///
    /// ```swift
    /// static let prices = ResolverScopeTimeToLive(.seconds(300))
    /// ```
    ///
    /// A life of zero or less keeps no instance beyond its build: threads
    /// and tasks asking while it runs share it, and the next resolve builds
    /// again. Time is counted in whole nanoseconds.
    public convenience init(_ timeToLive: Duration, clock: some Clock<Duration> = ContinuousClock()) {
        let start = clock.now
        self.init(timeToLive, ScopeLife(nanoseconds: timeToLive.saturatedNanoseconds) {
            start.duration(to: clock.now).saturatedNanoseconds
        })
    }

    init(_ timeToLive: Duration, _ life: ScopeLife) {
        self.timeToLive = timeToLive
        super.init(life: life)
    }

    /// A new, empty scope with the same life and clock.
    func makeCopy() -> ResolverScopeTimeToLive {
        ResolverScopeTimeToLive(timeToLive, life.unsafelyUnwrapped)
    }

    /// The live instance, or a new one made (once) and kept for `timeToLive`.
    public override func resolve<Service>(registration: ResolverRegistration<Service>, resolver: Resolver, args: Any?) -> Service? {
        resolveBuiltIn(registration, resolver, args)
    }

    /// Drops every instance, live or expired (builds in progress still
    /// complete, but do not store their instances). The instances are
    /// released once no resolve that started before the reset is still
    /// running.
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
