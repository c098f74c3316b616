/// The state of a `LazyInjected` or `WeakLazyInjected`, in two published
/// fields:
///
/// - `instance`: owned (the instance as `ValueStorage` keeps it, or a
///   `WeakBox`), or nil while nothing was resolved. Reads load it inside a
///   read section; the first resolve installs with a compare-and-exchange;
///   replacing retires the old one, so a reader that has just loaded it can
///   still use it.
/// - `settings`: an owned `SettingsBox` (container, name, args), or nil for
///   none. Settings are immutable: a change publishes a new box and retires
///   the old.
@usableFromInline
final class LazyBox: @unchecked Sendable {
    @usableFromInline let cells = AtomicCells(count: 2)
    @inlinable var instance: AtomicReference<AnyObject> { cells.reference(0) }
    var settingsField: AtomicReference<SettingsBox> { cells.reference(1) }

    /// What a wrapper resolves with.
    struct Settings {
        var container: Resolver?
        var name: Resolver.Name?
        var args: Any?
    }

    /// `Settings`, held by reference so a field can publish it.
    final class SettingsBox {
        let settings: Settings
        init(_ settings: Settings) { self.settings = settings }
    }

    /// The key the wrapper resolves (`@LazyInjected(\.store)`), as a
    /// `KeyPath<ResolverKeys, ResolverKey<Service>>`; nil for a wrapper of
    /// a service type.
    let key: AnyKeyPath?

    init(name: Resolver.Name?, container: Resolver?, key: AnyKeyPath? = nil) {
        self.key = key
        if name != nil || container != nil {
            settingsField.store(.retaining(SettingsBox(Settings(container: container, name: name, args: nil))))
        }
    }

    deinit {
        // Nobody else can be reading a box that is being destroyed.
        instance.load()?.release()
        settingsField.load()?.release()
        cells.deallocate()
    }

    var isEmpty: Bool {
        instance.load() == nil
    }

    /// The settings (a copy).
    var settings: Settings {
        ReadSection.run { _ in
            settingsField.load()?.read { $0.settings } ?? Settings()
        }
    }

    /// Applies `change` to the settings and publishes the result; the old
    /// settings are retired. Concurrent changes are serialised by a
    /// compare-and-exchange, so none is lost.
    func update(_ change: (inout Settings) -> Void) {
        while true {
            let (old, current) = ReadSection.run { _ in
                let old = settingsField.load()
                return (old, old?.read { $0.settings } ?? Settings())
            }
            var settings = current
            change(&settings)
            let new = UncheckedReference.retaining(SettingsBox(settings))
            if settingsField.compareExchange(expected: old, desired: new) {
                if let old {
                    retire(owned: old)
                    collectRetired()
                }
                return
            }
            new.release()
        }
    }

    /// The instance held, if any (`LazyInjected`).
    @inlinable
    func value<Service>(as type: Service.Type) -> Service? {
        let section = ReadSection()
        guard let stored = instance.load() else {
            section.end()
            return nil
        }
        let service = ValueStorage.value(in: stored, as: Service.self)
        section.end()
        return service
    }

    /// Keeps `service` unless another thread kept one first; returns the one kept.
    @usableFromInline
    func keepFirst<Service>(_ service: Service) -> Service {
        let stored = ValueStorage.retainedReference(to: service)
        if instance.compareExchange(expected: nil, desired: stored) {
            return service
        }
        stored.release()
        return value(as: Service.self) ?? service
    }

    /// Whether a resolve happened, and the live object held weakly (`WeakLazyInjected`).
    @inlinable
    func weakObject<Service>(as type: Service.Type) -> (resolved: Bool, object: Service?) {
        let section = ReadSection()
        guard let stored = instance.load() else {
            section.end()
            return (false, nil)
        }
        let object = stored.unsafeCast(to: WeakBox.self).read { $0.object } as? Service
        section.end()
        return (true, object)
    }

    /// Keeps `service` weakly unless another thread kept one first.
    @usableFromInline
    func keepFirstWeakly<Service>(_ service: Service) {
        let stored = UncheckedReference<AnyObject>.retaining(WeakBox(service as AnyObject))
        if !instance.compareExchange(expected: nil, desired: stored) {
            stored.release()
        }
    }

    /// Holds `service` (`LazyInjected`'s setter), retiring what the box held.
    @usableFromInline
    func replace<Service>(with service: Service) {
        exchange(ValueStorage.retainedReference(to: service))
    }

    /// Holds `object` weakly (`WeakLazyInjected`'s setter).
    func replaceWeakly(with object: AnyObject?) {
        exchange(UncheckedReference<AnyObject>.retaining(WeakBox(object)))
    }

    /// Holds nothing: the next read resolves again.
    func clear() {
        exchange(nil)
    }

    private func exchange(_ stored: UncheckedReference<AnyObject>?) {
        if let old = instance.exchange(stored) {
            retire(owned: old)
            collectRetired()
        }
    }
}

extension LazyBox {
    /// The service of the wrapper's key, resolved from `container` (nil:
    /// `Resolver.root`), when the wrapper was made with a key; nil otherwise.
    func keyService<Service>(as type: Service.Type, from container: Resolver?) -> Service? {
        guard let key = key as? KeyPath<ResolverKeys, ResolverKey<Service>> else {
            return nil
        }
        return container?.resolve(key) ?? Resolver.resolve(key)
    }
}
