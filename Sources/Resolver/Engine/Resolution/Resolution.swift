import CRegistry

// The resolve path. It is @inlinable so that an app's `resolve()` calls are
// specialized for their service type in the app's own module: no generic
// metadata lookups at run time, and no dynamic casts (the registry key is the
// exact type, so what is found under it is known to be a
// `ResolverRegistration<Service>`).
//
// It takes no lock (DESIGN.md). Everything runs inside one read section (a
// `ReadSection`, which every step that follows a shared reference takes as a
// parameter): the registration gate, `root`, the registration (here or in a
// child), its scope, a cached instance, and the factory. Shared objects
// reached through published fields (containers, registrations, scopes) are
// handled as `UnownedReference`s and used borrowed (`read`), taking no
// reference count: the read section keeps them alive. (A strong reference
// would be retained and released, writing a cache line every resolving
// thread shares.) A new instance comes from the registration's own factory
// (`call`), given the container borrowed the same way. The thread's own
// stack and graph are reached by pointer (`ThreadResolution`).

extension Resolver {
    /// Resolves `Service` in `container` (nil: `root`): nil when nothing is
    /// registered or the factory returned nil.
    @inlinable
    static func resolveService<Service>(in container: Resolver?, name: Resolver.Name?, arguments: ArgumentsPointer) -> Service? {
        resolve(in: container, name: name, arguments, SynchronousPath<Service>.self)
    }

    /// The one lookup of every resolve, synchronous or async (`Path`).
    ///
    /// The fast path: in a read section, the registration gate and `root`,
    /// then this thread's cache (`ThreadCache`): a hit costs one probe and
    /// no key. A miss goes on with what it loaded, by the full lookup, which
    /// fills the cache.
    @inlinable
    @inline(__always)
    static func resolve<Path: ResolvePath>(in container: Resolver?, name: Resolver.Name?, _ arguments: ArgumentsPointer,
                                           _ path: Path.Type) -> Path.Result {
        if Published.detours.load() != 0 {
            return withRegistryKey(Path.Service.self, name) { key in
                resolveWithDetour(key, in: container, arguments, path)
            }
        }
        let section = ReadSection()
        guard let target = registeredTarget(container, section) else {
            section.end()
            return withRegistryKey(Path.Service.self, name) { key in
                resolveAfterRegistering(key, in: container, arguments, path)
            }
        }
        let hit = ThreadCache.find(target, RegistryKey.typeID(of: Path.Service.self), name?.key.start,
                                   name?.key.hash ?? 0, section)
        let result: Path.Result
        if let hit {
            if let instance = hit.instance {
                let service = ValueStorage.value(in: instance, as: Path.Service.self)
                section.end()
                return Path.found(service)
            }
            result = resolveRemembered(hit.registration.unsafeCast(to: ResolverRegistration<Path.Service>.self), name,
                                       from: target, arguments, section, path)
        } else {
            result = resolveMissed(name, from: target, arguments, section, path)
        }
        section.end()
        return result
    }

    /// `resolve(in:name:_:_:)` with the registration the thread's cache
    /// remembered: no table probe. A new instance (`.unique`, `.graph`) of a
    /// plain (not isolated) factory needs no key either, so none is built;
    /// the other scopes go the whole way. Out of line, so that the cache hit above stays a short function.
    @inlinable
    @inline(never)
    static func resolveRemembered<Path: ResolvePath>(_ registration: UnownedReference<ResolverRegistration<Path.Service>>,
                                                     _ name: Resolver.Name?, from target: UnownedReference<Resolver>,
                                                     _ arguments: ArgumentsPointer, _ section: borrowing ReadSection,
                                                     _ path: Path.Type) -> Path.Result {
        ResolverRegistration<Path.Service>.checkArguments(registration, arguments)
        let scope = ResolverRegistration<Path.Service>.effectiveScope(registration, target, section)
        let made: Path.Service?
        switch scope.read({ $0.kind.strategy }) {
        case .newInstance where ResolverRegistration<Path.Service>.isolation(registration) == .none:
            made = ResolverRegistration<Path.Service>.produce(registration, ResolutionContext.currentState, target,
                                                             arguments, section)
        case .perResolution where ResolverRegistration<Path.Service>.isolation(registration) == .none:
            made = ResolverRegistration<Path.Service>.produceInGraph(registration, ResolutionContext.currentState,
                                                                    target, arguments, section)
        default:
            return withRegistryKey(Path.Service.self, name) { key in
                resolveFound(registration, ResolveRequest(key, from: target, arguments), section, path)
            }
        }
        if let decorate = Published.decorate.load(), let made {
            DecorateBox.call(decorate, with: made)
        }
        return Path.found(made)
    }

    /// `resolve(in:name:_:_:)` past a miss of the thread's cache: the whole
    /// lookup, with the key. Out of line, as `resolveRemembered`.
    @inlinable
    @inline(never)
    static func resolveMissed<Path: ResolvePath>(_ name: Resolver.Name?, from target: UnownedReference<Resolver>,
                                                 _ arguments: ArgumentsPointer, _ section: borrowing ReadSection,
                                                 _ path: Path.Type) -> Path.Result {
        withRegistryKey(Path.Service.self, name) { key in
            resolveInReadSection(ResolveRequest(key, from: target, arguments), section, path)
        }
    }

    /// `resolveService` once the key is built (`implements`, scopes).
    @inlinable
    static func resolveService<Service>(_ key: RegistryKey, in container: Resolver?, _ arguments: ArgumentsPointer) -> Service? {
        if Published.detours.load() != 0 {
            return resolveWithDetour(key, in: container, arguments, SynchronousPath<Service>.self)
        }
        return resolveDirectly(key, in: container, arguments, SynchronousPath<Service>.self)
    }

    /// Resolves from `container`, or from the app-wide root when it is nil.
    @inlinable
    @inline(__always)
    static func resolveDirectly<Path: ResolvePath>(_ key: RegistryKey, in container: Resolver?, _ arguments: ArgumentsPointer,
                                                   _ path: Path.Type) -> Path.Result {
        let section = ReadSection()
        guard let target = registeredTarget(container, section) else {
            section.end()
            return resolveAfterRegistering(key, in: container, arguments, path)
        }
        let result = resolveInReadSection(ResolveRequest(key, from: target, arguments), section, path)
        section.end()
        return result
    }

    /// The container to search: `container`, or the root when it is nil;
    /// nil while `registerAllServices` has yet to run (the caller takes the
    /// slow way, `withRegisteredTarget`).
    @inlinable
    @inline(__always)
    static func registeredTarget(_ container: Resolver?, _ section: borrowing ReadSection) -> UnownedReference<Resolver>? {
        // Not `if let`: binding the container copies it, a retain and release
        // of an object every thread resolving from it writes.
        if container != nil {
            guard Published.registered.load() != 0 else {
                return nil
            }
            return UnownedReference(container.unsafelyUnwrapped)
        }
        return loadRegisteredRoot(section)
    }

    /// Finds the registration for the request's key from its container and
    /// resolves it (then the decorator, in DEBUG builds).
    @inlinable
    @inline(__always)
    static func resolveInReadSection<Path: ResolvePath>(_ request: ResolveRequest,
                                                        _ section: borrowing ReadSection, _ path: Path.Type) -> Path.Result {
        guard let found = request.container.read({ $0.storage }).find(request.key, section) else {
            return Path.found(nil)
        }
        ThreadCache.fill(request.container, request.key, registration: found, section)
        return resolveFound(found.unsafeCast(to: ResolverRegistration<Path.Service>.self), request, section,
                            path)
    }

    /// Resolves `registration`, found for the request (in its container's
    /// table, or in this thread's cache): its cached instance, or what `Path`
    /// does without one.
    @inlinable
    @inline(__always)
    static func resolveFound<Path: ResolvePath>(_ registration: UnownedReference<ResolverRegistration<Path.Service>>,
                                                _ request: ResolveRequest,
                                                _ section: borrowing ReadSection, _ path: Path.Type) -> Path.Result {
        ResolverRegistration<Path.Service>.checkArguments(registration, request.arguments)
        let scope = ResolverRegistration<Path.Service>.effectiveScope(registration, request.container, section)
        if let service = cachedService(registration, scope, request, section) {
            return Path.found(service)
        }
        return Path.uncached(registration, through: scope, request, section)
    }

    /// The instance a caching scope holds for `registration`, if any
    /// (decorated, in DEBUG builds, when a decorator is set), remembered in
    /// this thread's cache where the scope's kind allows it.
    @inlinable
    @inline(__always)
    static func cachedService<Service>(_ registration: UnownedReference<ResolverRegistration<Service>>,
                                       _ scope: UnownedReference<ResolverScope>, _ request: ResolveRequest,
                                       _ section: borrowing ReadSection) -> Service? {
        let kind = scope.read { $0.kind }
        guard kind.keepsInstances else {
            return nil
        }
        if registration.read({ $0.argumentTypes }) != nil {
            // One instance per argument list, never in the thread's cache.
            let service = registration.read { $0.argumentInstance(scope, request.arguments) }
            if let decorate = Published.decorate.load(), let service {
                DecorateBox.call(decorate, with: service)
            }
            return service
        }
        guard let entry = ResolverRegistration<Service>.cachedEntry(registration, scope, kind, request.key, section),
              let service = ResolverScope.service(inEntry: entry, of: kind, in: scope, as: Service.self) else {
            return nil
        }
        let decorate = Published.decorate.load()
        if kind.threadCacheMayKeep && decorate == nil {
            ThreadCache.fill(request.container, request.key, instance: entry, section)
        }
        if let decorate {
            DecorateBox.call(decorate, with: service)
        }
        return service
    }

    /// A resolve while something, in this thread or another, asks resolves
    /// to take a detour (`Published.detours`): a `withRoot` call (a static
    /// resolve uses this task's root, if it has one), a verification (its
    /// threads resolve from its sandbox) or graph recording (the resolve is
    /// recorded as an edge from the factory asking for it), or a strict test
    /// (`StrictTest.check`).
    @inlinable
    @inline(never)
    static func resolveWithDetour<Path: ResolvePath>(_ key: RegistryKey, in container: Resolver?, _ arguments: ArgumentsPointer,
                                                     _ path: Path.Type) -> Path.Result {
        let target = container ?? currentOverride()
        if StrictTest.isActiveAnywhere {
            StrictTest.check(key, in: target)
        }
        GraphRecorder.recordResolve(of: Path.Service.self, key)
        return resolveDirectly(key, in: target, arguments, path)
    }

    /// The root, if `registerAllServices` has run for it; nil while it has
    /// yet to (or before the registry exists).
    ///
    /// `reset()` clears the registration flag before it publishes the new
    /// root, and `registerAllServices` sets it after it registered into that
    /// root. Loading the root, the flag, then the root again (acquire loads
    /// all) rules out pairing a root with a flag set for a later root: the
    /// flag of a later generation is stored after that generation's root, so
    /// the second load would see the later root (DESIGN.md, G1).
    @inlinable
    @inline(__always)
    static func loadRegisteredRoot(_ section: borrowing ReadSection) -> UnownedReference<Resolver>? {
        let root = Published.root.load()
        guard Published.registered.load() != 0, Published.root.load() == root else {
            return nil
        }
        return root
    }

    /// The slow path while `registerAllServices` has yet to run (or before
    /// the registry exists): run it (or wait for the thread running it), then
    /// resolve. Resolves made from inside `registerAllServices` come here too,
    /// and resolve from the container being registered. A `reset()` landing
    /// meanwhile sends a resolve from `root` round again, so it never looks
    /// in a root whose registration has yet to finish.
    @inlinable
    @inline(never)
    static func resolveAfterRegistering<Path: ResolvePath>(_ key: RegistryKey, in container: Resolver?,
                                                           _ arguments: ArgumentsPointer, _ path: Path.Type) -> Path.Result {
        withRegisteredTarget(container) { target, section in
            resolveInReadSection(ResolveRequest(key, from: target, arguments), section, path)
        }
    }

    /// Runs `registerAllServices` (or waits for the thread running it), then
    /// `body` in a read section with the container to search: `container`,
    /// or the root; from inside `registerAllServices`, the root being
    /// registered. A `reset()` landing meanwhile sends it round again.
    @usableFromInline
    static func withRegisteredTarget<Result>(_ container: Resolver?,
                                             _ body: (UnownedReference<Resolver>, borrowing ReadSection) -> Result) -> Result {
        while true {
            let insideRegistration = registry.ensureRegistered()
            let section = ReadSection()
            let target: UnownedReference<Resolver>
            if let container {
                target = UnownedReference(container)
            } else if insideRegistration, let root = Published.root.load() {
                target = root
            } else if let root = loadRegisteredRoot(section) {
                target = root
            } else {
                section.end()
                continue
            }
            let result = body(target, section)
            section.end()
            return result
        }
    }
}
