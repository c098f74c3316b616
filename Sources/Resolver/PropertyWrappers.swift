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
    @usableFromInline var service: Service

    /// Resolves `Service` from `Resolver.root`.
    public init() {
        service = Resolver.resolve(Service.self)
    }

    /// Resolves `Service` under `name` from `container`, or `Resolver.root`.
    public init(name: Resolver.Name? = nil, container: Resolver? = nil) {
        service = container?.resolve(Service.self, name: name) ?? Resolver.resolve(Service.self, name: name)
    }

    /// The resolved service.
    @inlinable
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
    @usableFromInline var service: Service?

    /// Resolves `Service` from `Resolver.root`, or nil.
    public init() {
        service = Resolver.optional(Service.self)
    }

    /// Resolves `Service` under `name` from `container`, then `Resolver.root`, or nil.
    public init(name: Resolver.Name? = nil, container: Resolver? = nil) {
        service = container?.optional(Service.self, name: name) ?? Resolver.optional(Service.self, name: name)
    }

    /// The resolved service, or nil.
    @inlinable
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
/// resolved.
///
/// Safe to read from several threads at once: the wrapper is a reference to a box that holds
/// the instance and the settings, which a read loads without a lock. Two threads reading it first
/// at the same moment may both resolve; the first to finish is kept, and both get it. Copies of the
/// wrapper (`$service`) share the box: its instance and its settings.
@propertyWrapper
public struct LazyInjected<Service> {
    @usableFromInline let box: LazyBox

    /// Resolves `Service` from `Resolver.root` on first read.
    public init() {
        box = LazyBox(name: nil, container: nil)
    }

    /// Resolves `Service` under `name` from `container` (or `Resolver.root`) on first read.
    public init(name: Resolver.Name? = nil, container: Resolver? = nil) {
        box = LazyBox(name: name, container: container)
    }

    /// The container to resolve from; nil means `Resolver.root`.
    public var container: Resolver? {
        get { box.settings.container }
        nonmutating set { box.update { $0.container = newValue } }
    }

    /// The name to resolve.
    public var name: Resolver.Name? {
        get { box.settings.name }
        nonmutating set { box.update { $0.name = newValue } }
    }

    /// The arguments to resolve with.
    public var args: Any? {
        get { box.settings.args }
        nonmutating set { box.update { $0.args = newValue } }
    }

    /// Whether no service is held (not yet resolved, or released).
    public var isEmpty: Bool {
        box.isEmpty
    }

    /// The service, resolved on first read.
    @inlinable
    public var wrappedValue: Service {
        get {
            if let service = box.value(as: Service.self) {
                return service
            }
            return resolveFirst()
        }
        nonmutating set {
            box.replace(with: newValue)
        }
    }

    /// The wrapper itself (`$service`), to set `name`, `container` or `args`.
    public var projectedValue: LazyInjected<Service> {
        get { self }
        mutating set { self = newValue }
    }

    /// Drops the service; the next read resolves again.
    public func release() {
        box.clear()
    }

    /// The first read (or the first after `release()`): resolve, and keep the instance unless
    /// another thread kept one first.
    @usableFromInline
    func resolveFirst() -> Service {
        let settings = box.settings
        let resolved = box.keyService(as: Service.self, from: settings.container)
            ?? settings.container?.resolve(Service.self, name: settings.name, args: settings.args)
            ?? Resolver.resolve(Service.self, name: settings.name, args: settings.args)
        return box.keepFirst(resolved)
    }
}

/// As `LazyInjected`, but holds the instance weakly: once nothing else
/// references it, the property reads nil.
///
/// The first read resolves and returns the resolved instance, even one that
/// nothing else holds (a `.unique` service, say); later reads return what the
/// weak reference still holds.
@propertyWrapper
public struct WeakLazyInjected<Service> {
    @usableFromInline let box: LazyBox

    /// Resolves `Service` from `Resolver.root` on first read.
    public init() {
        box = LazyBox(name: nil, container: nil)
    }

    /// Resolves `Service` under `name` from `container` (or `Resolver.root`) on first read.
    public init(name: Resolver.Name? = nil, container: Resolver? = nil) {
        box = LazyBox(name: name, container: container)
    }

    /// The container to resolve from; nil means `Resolver.root`.
    public var container: Resolver? {
        get { box.settings.container }
        nonmutating set { box.update { $0.container = newValue } }
    }

    /// The name to resolve.
    public var name: Resolver.Name? {
        get { box.settings.name }
        nonmutating set { box.update { $0.name = newValue } }
    }

    /// The arguments to resolve with.
    public var args: Any? {
        get { box.settings.args }
        nonmutating set { box.update { $0.args = newValue } }
    }

    /// Whether no live instance is held.
    public var isEmpty: Bool {
        box.weakObject(as: Service.self).object == nil
    }

    /// The service, resolved on first read; nil once it has been released.
    @inlinable
    public var wrappedValue: Service? {
        get {
            let (resolved, object) = box.weakObject(as: Service.self)
            if resolved {
                return object
            }
            return resolveFirst()
        }
        nonmutating set {
            store(newValue)
        }
    }

    /// The wrapper itself (`$service`), to set `name`, `container` or `args`.
    public var projectedValue: WeakLazyInjected<Service> {
        get { self }
        mutating set { self = newValue }
    }

    /// Drops the reference; reads return nil afterwards.
    public func release() {
        box.replaceWeakly(with: nil)
    }

    /// Holds `newValue` weakly (an assignment counts as resolved).
    @usableFromInline
    func store(_ newValue: Service?) {
        box.replaceWeakly(with: newValue.map { $0 as AnyObject })
    }

    /// The first read: resolve, keep the instance weakly (unless another thread kept one first).
    @usableFromInline
    func resolveFirst() -> Service {
        let settings = box.settings
        let service = box.keyService(as: Service.self, from: settings.container)
            ?? settings.container?.resolve(Service.self, name: settings.name, args: settings.args)
            ?? Resolver.resolve(Service.self, name: settings.name, args: settings.args)
        box.keepFirstWeakly(service)
        return service
    }
}
