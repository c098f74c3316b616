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
/// Safe to read from several threads at once: the wrapper is a single
/// reference to a box that holds the instance and the settings, and a read
/// (the getter does not mutate) loads the instance without a lock and without
/// writing anything but the instance's reference count and the box's. Two
/// threads reading it for the first time at the same moment may both resolve;
/// the first to finish is kept, and both get it. Copies of the wrapper
/// (`$service`) share the box: its instance and its settings.
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

    /// The first read (or the first after `release()`): resolve, and keep the
    /// instance unless another thread kept one first.
    @usableFromInline
    func resolveFirst() -> Service {
        let settings = box.settings
        let resolved = settings.container?.resolve(Service.self, name: settings.name, args: settings.args)
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
        box.replace(with: Unmanaged.passRetained(WeakBox(nil)).toOpaque())
    }

    /// Holds `newValue` weakly (an assignment counts as resolved).
    @usableFromInline
    func store(_ newValue: Service?) {
        box.replace(with: Unmanaged.passRetained(WeakBox(newValue.map { $0 as AnyObject })).toOpaque())
    }

    /// The first read: resolve, keep the instance weakly (unless another
    /// thread kept one first), and return it.
    @usableFromInline
    func resolveFirst() -> Service {
        let settings = box.settings
        let service = settings.container?.resolve(Service.self, name: settings.name, args: settings.args)
            ?? Resolver.resolve(Service.self, name: settings.name, args: settings.args)
        box.keepFirstWeakly(service)
        return service
    }
}

/// The state of a `LazyInjected` or `WeakLazyInjected`, in two atomic cells:
///
/// - `cells[instanceCell]`: an owned pointer (the instance as `ValueStorage`
///   keeps it, or a `WeakBox`), or nil while nothing was resolved. Reads load
///   it inside a read section; the first resolve installs with a
///   compare-and-swap; replacing retires the old pointer, so a reader that
///   has just loaded it can still use it.
/// - `cells[settingsCell]`: an owned `Settings` (container, name, args), or
///   nil for none. Settings are immutable: a change publishes a new one and
///   retires the old.
@usableFromInline
final class LazyBox: @unchecked Sendable {
    @usableFromInline let cells: UnsafeMutablePointer<crg_cell>
    @inlinable static var instanceCell: Int { 0 }
    static let settingsCell = 1

    /// What a wrapper resolves with.
    struct Settings {
        var container: Resolver?
        var name: Resolver.Name?
        var args: Any?
    }

    /// `Settings`, held by reference so a cell can publish it.
    final class SettingsBox {
        let settings: Settings
        init(_ settings: Settings) { self.settings = settings }
    }

    init(name: Resolver.Name?, container: Resolver?) {
        cells = makeCells(2)
        if name != nil || container != nil {
            let settings = SettingsBox(Settings(container: container, name: name, args: nil))
            crg_cell_store(cells + LazyBox.settingsCell, Unmanaged.passRetained(settings).toOpaque())
        }
    }

    deinit {
        // Nobody else can be reading a box that is being destroyed.
        for index in 0..<2 {
            if let pointer = crg_cell_load(cells + index) {
                Unmanaged<AnyObject>.fromOpaque(pointer).release()
            }
        }
        crg_cells_destroy(cells)
    }

    var isEmpty: Bool {
        crg_cell_load(cells + LazyBox.instanceCell) == nil
    }

    /// The settings (a copy).
    var settings: Settings {
        crg_read_begin()
        defer { crg_read_end() }
        guard let pointer = crg_cell_load(cells + LazyBox.settingsCell) else {
            return Settings()
        }
        return Unmanaged<SettingsBox>.fromOpaque(pointer).takeUnretainedValue().settings
    }

    /// Applies `change` to the settings and publishes the result; the old
    /// settings are retired. Concurrent changes are serialised by a
    /// compare-and-swap, so none is lost.
    func update(_ change: (inout Settings) -> Void) {
        while true {
            crg_read_begin()
            let old = crg_cell_load(cells + LazyBox.settingsCell)
            var settings = old.map { Unmanaged<SettingsBox>.fromOpaque($0).takeUnretainedValue().settings } ?? Settings()
            crg_read_end()
            change(&settings)
            let new = Unmanaged.passRetained(SettingsBox(settings)).toOpaque()
            if crg_cell_compare_exchange(cells + LazyBox.settingsCell, old, new) {
                if let old {
                    retire(retained: old)
                    collectRetired()
                }
                return
            }
            Unmanaged<SettingsBox>.fromOpaque(new).release()
        }
    }

    /// The instance held, if any (`LazyInjected`).
    @inlinable
    func value<Service>(as type: Service.Type) -> Service? {
        crg_read_begin()
        defer { crg_read_end() }
        guard let pointer = crg_cell_load(cells + LazyBox.instanceCell) else {
            return nil
        }
        return ValueStorage.value(at: pointer, as: Service.self)
    }

    /// Keeps `service` unless another thread kept one first; returns the one kept.
    @usableFromInline
    func keepFirst<Service>(_ service: Service) -> Service {
        let pointer = ValueStorage.retainedPointer(service)
        if crg_cell_compare_exchange(cells + LazyBox.instanceCell, nil, pointer) {
            return service
        }
        Unmanaged<AnyObject>.fromOpaque(pointer).release()
        return value(as: Service.self) ?? service
    }

    /// Whether a resolve happened, and the live object held weakly (`WeakLazyInjected`).
    @inlinable
    func weakObject<Service>(as type: Service.Type) -> (resolved: Bool, object: Service?) {
        crg_read_begin()
        defer { crg_read_end() }
        guard let pointer = crg_cell_load(cells + LazyBox.instanceCell) else {
            return (false, nil)
        }
        return (true, WeakBox.object(pointer) as? Service)
    }

    /// Keeps `service` weakly unless another thread kept one first.
    @usableFromInline
    func keepFirstWeakly<Service>(_ service: Service) {
        let pointer = Unmanaged.passRetained(WeakBox(service as AnyObject)).toOpaque()
        if !crg_cell_compare_exchange(cells + LazyBox.instanceCell, nil, pointer) {
            Unmanaged<AnyObject>.fromOpaque(pointer).release()
        }
    }

    /// Stores `pointer` (owned), retiring what the box held.
    @usableFromInline
    func replace(with pointer: UnsafeMutableRawPointer?) {
        if let old = crg_cell_exchange(cells + LazyBox.instanceCell, pointer) {
            retire(retained: old)
            collectRetired()
        }
    }
}
