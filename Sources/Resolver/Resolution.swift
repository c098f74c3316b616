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

/// The arguments of a resolve call on their way to a factory: a pointer to
/// the caller's `args:` value, or nil when the call passed none (or passed
/// nil, which factories read the same way). A call without arguments (the
/// common case) then carries nothing that needs destroying; the `Any?` is
/// read only by factories that take arguments.
@usableFromInline
typealias ArgumentsPointer = UnsafePointer<Any?>?

/// Calls `body` with `args` as an `ArgumentsPointer`.
@inlinable
func withArguments<Result>(_ args: Any?, _ body: (ArgumentsPointer) -> Result) -> Result {
    withUnsafePointer(to: args) { pointer in
        body(args == nil ? nil : pointer)
    }
}

extension Optional where Wrapped == UnsafePointer<Any?> {
    /// The `args:` value (nil when none was passed).
    @inlinable
    var value: Any? {
        guard let self else { return nil }
        return self.pointee
    }
}

extension Resolver {
    /// Resolves `Service` in `container` (nil: `root`): nil when nothing is
    /// registered or the factory returned nil.
    @inlinable
    static func resolveService<Service>(in container: Resolver?, name: Resolver.Name?, arguments: ArgumentsPointer) -> Service? {
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
                return resolveUncached(mutex, registrationReference, resolverReference, isRoot: container == nil,
                                       arguments, key)
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

extension Resolver {
    /// The rest of a resolve that found no cached instance, out of line so
    /// that the cached path stays small. The registration is kept alive past
    /// the unlock with a real reference, and root too (another thread may
    /// replace it); a container the caller passed, the caller holds.
    @inlinable
    @inline(never)
    static func resolveUncached<Service>(_ mutex: OpaquePointer,
                                         _ registrationReference: Unmanaged<ResolverRegistration<Service>>,
                                         _ resolverReference: Unmanaged<Resolver>, isRoot: Bool,
                                         _ arguments: ArgumentsPointer, _ key: UnsafePointer<crg_key>) -> Service? {
        let registration = registrationReference.takeUnretainedValue()
        if !isRoot {
            return registration.resolveLocked(mutex, resolverReference, arguments, key)
        }
        let root = resolverReference.takeUnretainedValue()
        return withExtendedLifetime(root) {
            registration.resolveLocked(mutex, resolverReference, arguments, key)
        }
    }
}

extension ResolverRegistration {
    /// The instance this registration's own scope has cached under `key`
    /// (`.application`, `.cached`, custom caches and `.shared`), if any. The
    /// mutex must be held.
    @inlinable
    @inline(__always)
    final func cachedLocked(_ key: UnsafePointer<crg_key>) -> Service? {
        guard scopeFacts.kind.caches, let entry = cachedEntryLocked(key) else {
            return nil
        }
        return ResolverScope.service(inEntry: entry, of: scopeFacts.kind, as: Service.self)
    }

    /// The entry for `key` in the scope's table: remembered from an earlier
    /// lookup while the scope's generation is unchanged, else looked up (and
    /// remembered). The mutex must be held.
    @inlinable
    @inline(__always)
    final func cachedEntryLocked(_ key: UnsafePointer<crg_key>) -> UnsafeMutableRawPointer? {
        let generation = scopeFacts.generation.unsafelyUnwrapped.pointee
        if let cachedEntry, cachedEntryGeneration == generation {
            return cachedEntry
        }
        var raw: UnsafeMutableRawPointer?
        guard crg_get_locked(scopeFacts.table.unsafelyUnwrapped, key, &raw) == 0 else {
            return nil
        }
        cachedEntry = raw
        cachedEntryGeneration = generation
        return raw
    }

    /// The graph scope's way to an instance: the one made earlier in this
    /// thread's resolution, or a new one (`replacement` read under the
    /// lock), remembered for the rest of the resolution.
    @inlinable
    final func resolveInGraph(_ replacement: Unmanaged<FactoryBox>?, _ resolver: Resolver, _ arguments: ArgumentsPointer,
                              _ context: ResolutionContext) -> Service? {
        if context.isResolving, let found = context.graphInstance(for: self, as: Service.self) {
            return found
        }
        let service = instantiate(replacement, resolver, arguments, context)
        if context.isResolving, let service {
            context.rememberGraphInstance(service, for: self)
        }
        return service
    }

    /// Resolves through the scope. Called with the registry mutex held once
    /// and `key` being this registration's key; returns with the mutex
    /// released. The caller keeps `resolverReference` alive.
    @inlinable
    final func resolveLocked(_ mutex: OpaquePointer, _ resolverReference: Unmanaged<Resolver>, _ arguments: ArgumentsPointer,
                       _ key: UnsafePointer<crg_key>) -> Service? {
        switch scopeFacts.kind {
        case .cache, .shared:
            // The fast path has already looked in the cache.
            return resolverReference._withUnsafeGuaranteedRef { scope.buildOnceLocked(self, $0, arguments, key) }
        case .graph:
            let replacement = self.replacement
            crg_mutex_unlock(mutex)
            return resolverReference._withUnsafeGuaranteedRef { resolver in
                ResolutionContext.withCurrent { resolveInGraph(replacement, resolver, arguments, $0) }
            }
        case .unique:
            let replacement = self.replacement
            crg_mutex_unlock(mutex)
            return resolverReference._withUnsafeGuaranteedRef { resolver in
                ResolutionContext.withCurrent { instantiate(replacement, resolver, arguments, $0) }
            }
        case .container:
            return resolverReference._withUnsafeGuaranteedRef { resolver in
                let cache = resolver.cacheLocked
                if cache.kind.caches {
                    return cache.buildOnceLocked(self, resolver, arguments, key)
                }
                crg_mutex_unlock(mutex)
                return cache.resolve(registration: self, resolver: resolver, args: arguments.value)
            }
        case .custom:
            let scope = self.scope
            crg_mutex_unlock(mutex)
            return resolverReference._withUnsafeGuaranteedRef {
                scope.resolve(registration: self, resolver: $0, args: arguments.value)
            }
        }
    }
}
