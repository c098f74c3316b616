import CRegistry

// The resolve path. It is @inlinable so that an app's `resolve()` calls are
// specialized for their service type in the app's own module: no generic
// metadata lookups at run time, and no dynamic casts (the registry key is the
// exact type, so what is found under it is known to be a
// `ResolverRegistration<Service>`).
//
// One lock pair covers the whole lookup: the pending-registration check, the
// root container, the registration (here or in a child), its scope and, for
// caching scopes, the cached instance. A cached instance is returned without
// allocating. Factories run after the lock is released.

extension Resolver {
    /// Resolves `Service` in `container` (nil: `root`): nil when nothing is
    /// registered or the factory returned nil.
    @inlinable
    static func resolveService<Service>(in container: Resolver?, name: Resolver.Name?, args: Any?) -> Service? {
        registryReference._withUnsafeGuaranteedRef { registry in
            let mutex = registry.mutex
            crg_mutex_lock(mutex)
            if _slowPath(registry.registrationPending) {
                registry.runPendingRegistration()
            }
            #if DEBUG
            let decorate = registry.decorate
            #endif
            // Under the lock, the container and the registration are read
            // without reference counting: the mutex keeps them alive.
            let resolverReference = container.map { Unmanaged.passUnretained($0) } ?? registry.rootReference
            let service: Service? = withRegistryKey(Service.self, name) { key in
                guard let raw = resolverReference._withUnsafeGuaranteedRef({ $0.registrationLocked(key) }) else {
                    crg_mutex_unlock(mutex)
                    return nil
                }
                let registrationReference = Unmanaged<ResolverRegistration<Service>>.fromOpaque(raw)
                if let cached = registrationReference._withUnsafeGuaranteedRef({ $0.cachedLocked(key) }) {
                    crg_mutex_unlock(mutex)
                    return cached
                }
                // Not cached: keep the registration alive past the unlock with a
                // real reference; the container too, unless the caller holds it.
                let registration = registrationReference.takeUnretainedValue()
                if let container {
                    return registration.resolveLocked(mutex, container, args, key)
                }
                return registration.resolveLocked(mutex, resolverReference.takeUnretainedValue(), args, key)
            }
            #if DEBUG
            if let decorate, let service {
                decorate(service)
            }
            #endif
            return service
        }
    }
}

extension ResolverRegistration {
    /// The instance this registration's own scope has cached under `key`
    /// (`.application`, `.cached`, custom caches and `.shared`), if any. The
    /// mutex must be held.
    @inlinable
    func cachedLocked(_ key: UnsafePointer<crg_key>) -> Service? {
        switch scopeKind {
        case .cache:
            guard let entry = cachedEntryLocked(key) else {
                return nil
            }
            return ValueStorage.value(at: entry, as: Service.self)
        case .shared:
            guard let entry = cachedEntryLocked(key),
                  let object = Unmanaged<WeakBox>.fromOpaque(entry).takeUnretainedValue().object else {
                return nil
            }
            return ResolverScopeShare.service(from: object, as: Service.self)
        default:
            return nil
        }
    }

    /// The entry for `key` in the scope's table: remembered from an earlier
    /// lookup while the scope's generation is unchanged, else looked up (and
    /// remembered). The mutex must be held.
    @inlinable
    func cachedEntryLocked(_ key: UnsafePointer<crg_key>) -> UnsafeMutableRawPointer? {
        let generation = scopeGeneration.unsafelyUnwrapped.pointee
        if let cachedEntry, cachedEntryGeneration == generation {
            return cachedEntry
        }
        var raw: UnsafeMutableRawPointer?
        guard crg_get_locked(scopeTable.unsafelyUnwrapped, key, &raw) == 0 else {
            return nil
        }
        cachedEntry = raw
        cachedEntryGeneration = generation
        return raw
    }

    /// Resolves through the scope. Called with the registry mutex held once
    /// and `key` being this registration's key; returns with the mutex
    /// released.
    @inlinable
    func resolveLocked(_ mutex: OpaquePointer, _ resolver: Resolver, _ args: Any?, _ key: UnsafePointer<crg_key>) -> Service? {
        switch scopeKind {
        case .cache, .shared:
            // The fast path has already looked in the cache.
            return scope.buildOnceLocked(self, resolver, args, key)
        case .graph:
            let factory = factoryBox
            crg_mutex_unlock(mutex)
            return ResolutionContext.withCurrent { context in
                if context.isResolving, let found = context.graphInstance(for: self, as: Service.self) {
                    return found
                }
                let service = instantiate(factory, resolver, args, context)
                if context.isResolving, let service, let object = ValueStorage.graphObject(for: service) {
                    context.rememberGraphInstance(object, for: self)
                }
                return service
            }
        case .unique:
            let factory = factoryBox
            crg_mutex_unlock(mutex)
            return ResolutionContext.withCurrent { instantiate(factory, resolver, args, $0) }
        case .container:
            let cache = resolver.cacheLocked
            if cache.kind == .cache || cache.kind == .shared {
                if let cached = cache.cachedLocked(key, as: Service.self) {
                    crg_mutex_unlock(mutex)
                    return cached
                }
                return cache.buildOnceLocked(self, resolver, args, key)
            }
            crg_mutex_unlock(mutex)
            return cache.resolve(registration: self, resolver: resolver, args: args)
        case .custom:
            let scope = self.scope
            crg_mutex_unlock(mutex)
            return scope.resolve(registration: self, resolver: resolver, args: args)
        }
    }
}
