/// Resolves its service when the enclosing value is initialised, from the
/// given container or else `Resolver.root`.
///
/// ```swift
/// @Injected var network: NetworkServicing
/// @Injected(name: .fred) var fred: Person
/// ```
///
/// `Injected` is `Sendable` when its service is.
@propertyWrapper
public struct Injected<Service> {
    private var service: Service

    /// Resolves `Service` from `Resolver.root`.
    public init() {
        service = Resolver.resolve(Service.self)
    }

    /// Resolves `Service` under `name` from `container`, or `Resolver.root`.
    public init(name: Resolver.Name? = nil, container: Resolver? = nil) {
        service = container?.resolve(Service.self, name: name) ?? Resolver.resolve(Service.self, name: name)
    }

    /// The resolved service.
    public var wrappedValue: Service {
        get { service }
        mutating set { service = newValue }
    }

    /// The wrapper itself (`$service`).
    public var projectedValue: Injected<Service> {
        get { self }
        mutating set { self = newValue }
    }
}

extension Injected: Sendable where Service: Sendable {}

/// Resolves its service, if registered, when the enclosing value is
/// initialised. A given container that lacks it falls back to `Resolver.root`.
/// `OptionalInjected` is `Sendable` when its service is.
@propertyWrapper
public struct OptionalInjected<Service> {
    private var service: Service?

    /// Resolves `Service` from `Resolver.root`, or nil.
    public init() {
        service = Resolver.optional(Service.self)
    }

    /// Resolves `Service` under `name` from `container`, then `Resolver.root`, or nil.
    public init(name: Resolver.Name? = nil, container: Resolver? = nil) {
        service = container?.optional(Service.self, name: name) ?? Resolver.optional(Service.self, name: name)
    }

    /// The resolved service, or nil.
    public var wrappedValue: Service? {
        get { service }
        mutating set { service = newValue }
    }

    /// The wrapper itself (`$service`).
    public var projectedValue: OptionalInjected<Service> {
        get { self }
        mutating set { self = newValue }
    }
}

extension OptionalInjected: Sendable where Service: Sendable {}

/// Resolves its service on first read, using `$service.name`,
/// `$service.container` and `$service.args` if set before that.
///
/// `$service.isEmpty` tells whether it holds a service; `$service.release()`
/// drops it, so that the next read resolves again; assigning a value counts as
/// resolved. Reads and writes are serialised by the registry mutex, which is
/// not held while resolving: two threads reading it for the first time at once
/// may both resolve, and the first to finish is kept.
@propertyWrapper
public struct LazyInjected<Service> {
    private var service: Service?
    /// The container to resolve from; nil means `Resolver.root`.
    public var container: Resolver?
    /// The name to resolve.
    public var name: Resolver.Name?
    /// The arguments to resolve with.
    public var args: Any?

    /// Resolves `Service` from `Resolver.root` on first read.
    public init() {}

    /// Resolves `Service` under `name` from `container` (or `Resolver.root`) on first read.
    public init(name: Resolver.Name? = nil, container: Resolver? = nil) {
        self.name = name
        self.container = container
    }

    /// Whether no service is held (not yet resolved, or released).
    public var isEmpty: Bool {
        Registry.shared.withLock { service == nil }
    }

    /// The service, resolved on first read.
    public var wrappedValue: Service {
        mutating get {
            let registry = Registry.shared
            registry.lock()
            if let service {
                registry.unlock()
                return service
            }
            let (container, name, args) = (self.container, self.name, self.args)
            registry.unlock()
            let resolved = container?.resolve(Service.self, name: name, args: args)
                ?? Resolver.resolve(Service.self, name: name, args: args)
            registry.lock()
            defer { registry.unlock() }
            if let service {
                return service
            }
            service = resolved
            return resolved
        }
        mutating set {
            Registry.shared.withLock { service = newValue }
        }
    }

    /// The wrapper itself (`$service`), to set `name`, `container` or `args`.
    public var projectedValue: LazyInjected<Service> {
        get { self }
        mutating set { self = newValue }
    }

    /// Drops the service; the next read resolves again.
    public mutating func release() {
        Registry.shared.withLock { service = nil }
    }
}

/// As `LazyInjected`, but holds the instance weakly: once nothing else
/// references it, the property reads nil.
@propertyWrapper
public struct WeakLazyInjected<Service> {
    private var initialize = true
    private weak var service: AnyObject?
    /// The container to resolve from; nil means `Resolver.root`.
    public var container: Resolver?
    /// The name to resolve.
    public var name: Resolver.Name?
    /// The arguments to resolve with.
    public var args: Any?

    /// Resolves `Service` from `Resolver.root` on first read.
    public init() {}

    /// Resolves `Service` under `name` from `container` (or `Resolver.root`) on first read.
    public init(name: Resolver.Name? = nil, container: Resolver? = nil) {
        self.name = name
        self.container = container
    }

    /// Whether no live instance is held.
    public var isEmpty: Bool {
        Registry.shared.withLock { service == nil }
    }

    /// The service, resolved on first read; nil once it has been released.
    public var wrappedValue: Service? {
        mutating get {
            let registry = Registry.shared
            registry.lock()
            if !initialize {
                let service = self.service
                registry.unlock()
                return service as? Service
            }
            let (container, name, args) = (self.container, self.name, self.args)
            registry.unlock()
            let resolved = container?.resolve(Service.self, name: name, args: args)
                ?? Resolver.resolve(Service.self, name: name, args: args)
            registry.lock()
            defer { registry.unlock() }
            if initialize {
                initialize = false
                service = resolved as AnyObject
            }
            return service as? Service
        }
        mutating set {
            Registry.shared.withLock {
                initialize = false
                service = newValue.map { $0 as AnyObject }
            }
        }
    }

    /// The wrapper itself (`$service`), to set `name`, `container` or `args`.
    public var projectedValue: WeakLazyInjected<Service> {
        get { self }
        mutating set { self = newValue }
    }

    /// Drops the reference; reads return nil afterwards.
    public mutating func release() {
        Registry.shared.withLock { service = nil }
    }
}
