import CRegistry

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
/// resolved.
///
/// Safe to read from several threads at once: the instance lives in a small
/// reference box, read without a lock and without writing anything shared
/// (the getter does not mutate the wrapper). Two threads reading it for the
/// first time at the same moment may both resolve; the first to finish is
/// kept, and both get it. Copies of the wrapper (`$service`) share the box.
@propertyWrapper
public struct LazyInjected<Service> {
    @usableFromInline let box = LazyBox()
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
        box.isEmpty
    }

    /// The service, resolved on first read.
    public var wrappedValue: Service {
        get {
            if let service = box.value(as: Service.self) {
                return service
            }
            let resolved = container?.resolve(Service.self, name: name, args: args)
                ?? Resolver.resolve(Service.self, name: name, args: args)
            return box.keepFirst(resolved)
        }
        nonmutating set {
            box.replace(with: ValueStorage.retainedPointer(newValue))
        }
    }

    /// The wrapper itself (`$service`), to set `name`, `container` or `args`.
    public var projectedValue: LazyInjected<Service> {
        get { self }
        mutating set { self = newValue }
    }

    /// Drops the service; the next read resolves again.
    public func release() {
        box.replace(with: nil)
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
    @usableFromInline let box = LazyBox()
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
        box.weakObject(as: Service.self).object == nil
    }

    /// The service, resolved on first read; nil once it has been released.
    public var wrappedValue: Service? {
        get {
            let (resolved, object) = box.weakObject(as: Service.self)
            if resolved {
                return object
            }
            let service = container?.resolve(Service.self, name: name, args: args)
                ?? Resolver.resolve(Service.self, name: name, args: args)
            box.keepFirstWeakly(service)
            return service
        }
        nonmutating set {
            box.replace(with: Unmanaged.passRetained(WeakBox(newValue.map { $0 as AnyObject })).toOpaque())
        }
    }

    /// The wrapper itself (`$service`), to set `name`, `container` or `args`.
    public var projectedValue: WeakLazyInjected<Service> {
        get { self }
        mutating set { self = newValue }
    }

    /// Drops the reference; reads return nil afterwards.
    public func release() {
        box.replace(with: Unmanaged.passRetained(WeakBox(nil)).toOpaque())
    }
}

/// The state of a `LazyInjected` or `WeakLazyInjected`: one atomic cell with
/// an owned pointer (the instance as `ValueStorage` keeps it, or a `WeakBox`),
/// or nil while nothing was resolved. Reads load it inside a read section;
/// the first resolve installs with a compare-and-swap, and replacing retires
/// the old pointer, so a reader that has just loaded it can still use it.
@usableFromInline
final class LazyBox: @unchecked Sendable {
    @usableFromInline let cell: UnsafeMutablePointer<crg_cell>

    @usableFromInline
    init() {
        cell = makeCells(1)
    }

    deinit {
        // Nobody else can be reading a box that is being destroyed.
        if let pointer = crg_cell_load(cell) {
            Unmanaged<AnyObject>.fromOpaque(pointer).release()
        }
        crg_cells_destroy(cell)
    }

    var isEmpty: Bool {
        crg_cell_load(cell) == nil
    }

    /// The instance held, if any (`LazyInjected`).
    @inlinable
    func value<Service>(as type: Service.Type) -> Service? {
        crg_read_begin()
        defer { crg_read_end() }
        guard let pointer = crg_cell_load(cell) else {
            return nil
        }
        return ValueStorage.value(at: pointer, as: Service.self)
    }

    /// Keeps `service` unless another thread kept one first; returns the one kept.
    @usableFromInline
    func keepFirst<Service>(_ service: Service) -> Service {
        let pointer = ValueStorage.retainedPointer(service)
        if crg_cell_compare_exchange(cell, nil, pointer) {
            return service
        }
        Unmanaged<AnyObject>.fromOpaque(pointer).release()
        return value(as: Service.self) ?? service
    }

    /// Whether a resolve happened, and the live object held weakly (`WeakLazyInjected`).
    @usableFromInline
    func weakObject<Service>(as type: Service.Type) -> (resolved: Bool, object: Service?) {
        crg_read_begin()
        defer { crg_read_end() }
        guard let pointer = crg_cell_load(cell) else {
            return (false, nil)
        }
        return (true, WeakBox.object(pointer) as? Service)
    }

    /// Keeps `service` weakly unless another thread kept one first.
    @usableFromInline
    func keepFirstWeakly<Service>(_ service: Service) {
        let pointer = Unmanaged.passRetained(WeakBox(service as AnyObject)).toOpaque()
        if !crg_cell_compare_exchange(cell, nil, pointer) {
            Unmanaged<AnyObject>.fromOpaque(pointer).release()
        }
    }

    /// Stores `pointer` (owned), retiring what the box held.
    @usableFromInline
    func replace(with pointer: UnsafeMutableRawPointer?) {
        if let old = crg_cell_exchange(cell, pointer) {
            retire(retained: old)
            collectRetired()
        }
    }
}
