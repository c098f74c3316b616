// A baseline container that stores things the way the original Resolver 1.5.1
// does, so that the benchmarks can show what the C registry changes end to end:
//
// - registrations live in Swift dictionaries of `Any`: `[Int: Any]` keyed by the
//   type's ObjectIdentifier bits for unnamed services, `[String: Any]` keyed by
//   "\(typeKey):\(name)" for named ones, and come back out through `as?` casts;
// - scopes cache instances in `[String: Any]` dictionaries keyed by the
//   registration's string cache key;
// - graph scope is one shared dictionary with a resolution-depth counter,
//   emptied when the outermost resolution ends;
// - one global recursive pthread mutex is held for the whole resolve, factories
//   included (and for every register).
//
// It is written from the published 1.5.1 design, reduced to what the benchmark
// scenarios use (no child containers, no property wrappers, no `implements`).
// It is not a copy of that code, and not part of the library.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

// MARK: - The global lock

/// A recursive pthread mutex, as the original's `ResolverRecursiveLock`.
final class BaselineRecursiveLock: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    init() {
        mutex = .allocate(capacity: 1)
        var attributes = pthread_mutexattr_t()
        pthread_mutexattr_init(&attributes)
        pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_RECURSIVE))
        pthread_mutex_init(mutex, &attributes)
        pthread_mutexattr_destroy(&attributes)
    }

    @inline(__always) func lock() { pthread_mutex_lock(mutex) }
    @inline(__always) func unlock() { pthread_mutex_unlock(mutex) }
}

/// One lock for every container and every scope, as in the original.
let baselineLock = BaselineRecursiveLock()

/// The original runs `registerAllServices` once before the first resolve; the
/// check for it sits on every resolve. There is nothing to register here, but the
/// check is kept so the baseline pays what the original pays.
nonisolated(unsafe) private var baselineRegistrationNeeded = true

// MARK: - Arguments

/// Arguments as the original's `Resolver.Args`: always a `[String: Any?]`, a
/// single value stored under the key "".
public struct BaselineArgs {
    private var args: [String: Any?]

    public init(_ args: Any?) {
        if let args = args as? BaselineArgs {
            self.args = args.args
        } else if let args = args as? [String: Any?] {
            self.args = args
        } else {
            self.args = ["": args]
        }
    }

    /// The single argument, force-cast.
    public func callAsFunction<T>() -> T {
        (args.first?.value as? T)!
    }

    /// A keyed argument, force-cast.
    public func callAsFunction<T>(_ key: String) -> T {
        (args[key] as? T)!
    }
}

// MARK: - The container

public final class BaselineResolver: @unchecked Sendable {
    public typealias AnyFactory<Service> = (_ resolver: BaselineResolver, _ args: Any?) -> Service?

    private var typedRegistrations = [Int: Any]()
    private var namedRegistrations = [String: Any]()

    public static var defaultScope: BaselineScope { BaselineScope.graph }

    public init() {}

    // Registration, in the original's three closure shapes.

    @discardableResult
    public func register<Service>(_ type: Service.Type = Service.self, name: String? = nil,
                                  factory: @escaping () -> Service?) -> BaselineOptions<Service> {
        baselineLock.lock()
        defer { baselineLock.unlock() }
        let key = Int(bitPattern: ObjectIdentifier(Service.self))
        let factory: AnyFactory<Service> = { _, _ in factory() }
        let registration = BaselineRegistration<Service>(key: key, name: name, factory: factory)
        add(registration: registration, with: key, name: name)
        return BaselineOptions(registration: registration)
    }

    @discardableResult
    public func register<Service>(_ type: Service.Type = Service.self, name: String? = nil,
                                  factory: @escaping (_ resolver: BaselineResolver) -> Service?)
        -> BaselineOptions<Service>
    {
        baselineLock.lock()
        defer { baselineLock.unlock() }
        let key = Int(bitPattern: ObjectIdentifier(Service.self))
        let factory: AnyFactory<Service> = { r, _ in factory(r) }
        let registration = BaselineRegistration<Service>(key: key, name: name, factory: factory)
        add(registration: registration, with: key, name: name)
        return BaselineOptions(registration: registration)
    }

    @discardableResult
    public func register<Service>(_ type: Service.Type = Service.self, name: String? = nil,
                                  factory: @escaping (_ resolver: BaselineResolver, _ args: BaselineArgs) -> Service?)
        -> BaselineOptions<Service>
    {
        baselineLock.lock()
        defer { baselineLock.unlock() }
        let key = Int(bitPattern: ObjectIdentifier(Service.self))
        let factory: AnyFactory<Service> = { r, a in factory(r, BaselineArgs(a)) }
        let registration = BaselineRegistration<Service>(key: key, name: name, factory: factory)
        add(registration: registration, with: key, name: name)
        return BaselineOptions(registration: registration)
    }

    // Resolution: the global lock is held throughout, factories included.

    public func resolve<Service>(_ type: Service.Type = Service.self, name: String? = nil, args: Any? = nil) -> Service {
        baselineLock.lock()
        defer { baselineLock.unlock() }
        registrationCheck()
        if let registration = lookup(type, name: name),
           let service = registration.resolve(resolver: self, args: args)
        {
            return service
        }
        fatalError("BASELINE: '\(Service.self):\(name ?? "NONAME")' not resolved.")
    }

    public func optional<Service>(_ type: Service.Type = Service.self, name: String? = nil, args: Any? = nil) -> Service? {
        baselineLock.lock()
        defer { baselineLock.unlock() }
        registrationCheck()
        if let registration = lookup(type, name: name) {
            return registration.resolve(resolver: self, args: args)
        }
        return nil
    }

    private func registrationCheck() {
        guard baselineRegistrationNeeded else { return }
        baselineRegistrationNeeded = false
    }

    private func lookup<Service>(_ type: Service.Type, name: String?) -> BaselineRegistration<Service>? {
        let key = Int(bitPattern: ObjectIdentifier(Service.self))
        if let name {
            return namedRegistrations["\(key):\(name)"] as? BaselineRegistration<Service>
        }
        return typedRegistrations[key] as? BaselineRegistration<Service>
    }

    private func add<Service>(registration: BaselineRegistration<Service>, with key: Int, name: String?) {
        if let name {
            namedRegistrations["\(key):\(name)"] = registration
        } else {
            typedRegistrations[key] = registration
        }
    }
}

// MARK: - Registrations and options

public final class BaselineRegistration<Service> {
    public let key: Int
    public let cacheKey: String
    var factory: BaselineResolver.AnyFactory<Service>
    var scope: BaselineScope = BaselineResolver.defaultScope
    var mutator: ((BaselineResolver, Service, Any?) -> Void)?

    init(key: Int, name: String?, factory: @escaping BaselineResolver.AnyFactory<Service>) {
        self.key = key
        if let name {
            cacheKey = String(key) + ":" + name
        } else {
            cacheKey = String(key)
        }
        self.factory = factory
    }

    /// Through the scope.
    public func resolve(resolver: BaselineResolver, args: Any?) -> Service? {
        scope.resolve(registration: self, resolver: resolver, args: args)
    }

    /// Runs the factory (and the property mutator, if any).
    public func instantiate(resolver: BaselineResolver, args: Any?) -> Service? {
        guard let service = factory(resolver, args) else { return nil }
        mutator?(resolver, service, args)
        return service
    }
}

/// Returned by `register`, a class as in the original.
public final class BaselineOptions<Service> {
    public let registration: BaselineRegistration<Service>

    init(registration: BaselineRegistration<Service>) {
        self.registration = registration
    }

    @discardableResult
    public func scope(_ scope: BaselineScope) -> BaselineOptions<Service> {
        baselineLock.lock()
        defer { baselineLock.unlock() }
        registration.scope = scope
        return self
    }
}

// MARK: - Scopes: a class hierarchy with string-keyed caches

public class BaselineScope: @unchecked Sendable {
    public static let application = BaselineScopeCache()
    public static let graph = BaselineScopeGraph()
    public static let unique = BaselineScope()

    public init() {}

    /// The base scope is `.unique`: a new instance every time.
    public func resolve<Service>(registration: BaselineRegistration<Service>, resolver: BaselineResolver,
                                 args: Any?) -> Service?
    {
        registration.instantiate(resolver: resolver, args: args)
    }

    public func reset() {}
}

/// `.application`: instances cached forever, keyed by the registration's cache key.
public final class BaselineScopeCache: BaselineScope, @unchecked Sendable {
    private var cachedServices = [String: Any](minimumCapacity: 32)

    override public func resolve<Service>(registration: BaselineRegistration<Service>, resolver: BaselineResolver,
                                          args: Any?) -> Service?
    {
        if let service = cachedServices[registration.cacheKey] as? Service {
            return service
        }
        let service = registration.instantiate(resolver: resolver, args: args)
        if let service {
            cachedServices[registration.cacheKey] = service
        }
        return service
    }

    override public func reset() {
        baselineLock.lock()
        defer { baselineLock.unlock() }
        cachedServices.removeAll()
    }
}

/// `.graph`: one instance per registration within one top-level resolution.
public final class BaselineScopeGraph: BaselineScope, @unchecked Sendable {
    private var graph = [String: Any?](minimumCapacity: 32)
    private var resolutionDepth = 0

    override public func resolve<Service>(registration: BaselineRegistration<Service>, resolver: BaselineResolver,
                                          args: Any?) -> Service?
    {
        if let service = graph[registration.cacheKey] as? Service {
            return service
        }
        resolutionDepth += 1
        let service = registration.instantiate(resolver: resolver, args: args)
        resolutionDepth -= 1
        if resolutionDepth == 0 {
            graph.removeAll()
        } else if let service, type(of: service as Any) is AnyClass {
            graph[registration.cacheKey] = service
        }
        return service
    }
}
