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

/// One resolve on its way down the path: the key, the container searched
/// (the one the caller gave, or `root`), which is also the one a factory
/// receives, and the arguments.
@frozen
@usableFromInline
struct ResolveRequest {
    @usableFromInline let key: RegistryKey
    /// The container searched: the caller's, or `root`.
    @usableFromInline let container: UnownedReference<Resolver>
    @usableFromInline let arguments: ArgumentsPointer

    @inlinable
    @inline(__always)
    init(_ key: RegistryKey, from container: UnownedReference<Resolver>, _ arguments: ArgumentsPointer) {
        self.key = key
        self.container = container
        self.arguments = arguments
    }

    /// The container as a strong reference, for the slow paths that keep
    /// it or hand it on.
    @inlinable
    var resolver: Resolver {
        container.object
    }
}

/// What a resolve does once it has found a registration whose instance its
/// scope does not hold: the one step in which a synchronous resolve and the
/// start of `resolveAsync` differ. Everything before it (the detours, the
/// registration gate, `root`, the thread's cache, the key, the table, the
/// scope, a cached instance) is one path, generic over this.
@usableFromInline
protocol ResolvePath {
    associatedtype Service
    associatedtype Result

    /// The answer when the resolve ends with `service`: a cached instance,
    /// or nil when nothing is registered.
    static func found(_ service: Service?) -> Result

    /// The answer for `registration`, whose instance `scope` does not hold.
    static func uncached(_ registration: UnownedReference<ResolverRegistration<Service>>,
                         through scope: UnownedReference<ResolverScope>, _ request: ResolveRequest,
                         _ section: borrowing ReadSection) -> Result
}

/// A synchronous resolve: the instance, made on this thread.
@frozen
@usableFromInline
enum SynchronousPath<Service>: ResolvePath {
    @inlinable
    @inline(__always)
    static func found(_ service: Service?) -> Service? {
        service
    }

    @inlinable
    @inline(__always)
    static func uncached(_ registration: UnownedReference<ResolverRegistration<Service>>,
                         through scope: UnownedReference<ResolverScope>, _ request: ResolveRequest,
                         _ section: borrowing ReadSection) -> Service? {
        let service = ResolverRegistration<Service>.resolveUncachedInline(registration, through: scope, request, section)
        // The decorator field first: binding `service` copies it (a retain).
        if let decorate = Published.decorate.load(), let service {
            DecorateBox.call(decorate, with: service)
        }
        return service
    }
}

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
    /// remembered: no table probe. A new instance (`.unique`, `.graph`) needs
    /// no key either, so none is built; the other scopes go the whole way.
    /// Out of line, so that the cache hit above stays a short function.
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
            let service = ResolverRegistration<Service>.argumentInstance(registration, scope, request.arguments, section)
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

extension ResolverRegistration {
    /// Resolves `registration` through its scope, for `request`.
    @inlinable
    @inline(__always)
    static func resolve(_ registration: UnownedReference<ResolverRegistration>, _ request: ResolveRequest, _ section: borrowing ReadSection) -> Service? {
        let scope = effectiveScope(registration, request.container, section)
        return resolve(registration, through: scope, request, section)
    }

    /// The scope `registration` resolves through from `container`: its own,
    /// with `.container` replaced by that container's cache and the app-wide
    /// caches by the container's isolated ones.
    @inlinable
    @inline(__always)
    static func effectiveScope(_ registration: UnownedReference<ResolverRegistration>, _ container: UnownedReference<Resolver>,
                               _ section: borrowing ReadSection) -> UnownedReference<ResolverScope> {
        var scope = registration.read { $0.fields.scope }.load().unsafelyUnwrapped
        if case .containerCache = scope.read({ $0.kind.strategy }) {
            scope = container.read { $0.fields.cache }.load() ?? Resolver.makeCacheScope(container)
        }
        if let isolated = container.read({ $0.isolatedScopesReference }) {
            scope = IsolatedScopes.substitute(isolated, scope, section)
        }
        return scope
    }

    /// Resolves `registration` through `scope` (not `.container`, which the
    /// caller has replaced by the container's cache). Only a cached instance
    /// is found here; everything else is in `resolveUncached`, kept out of
    /// line so the cached path stays small.
    @inlinable
    @inline(__always)
    static func resolve(_ registration: UnownedReference<ResolverRegistration>, through scope: UnownedReference<ResolverScope>,
                        _ request: ResolveRequest, _ section: borrowing ReadSection) -> Service? {
        let kind = scope.read { $0.kind }
        if kind.keepsInstances {
            if registration.read({ $0.argumentTypes }) != nil {
                if let service = argumentInstance(registration, scope, request.arguments, section) {
                    return service
                }
            } else if let entry = cachedEntry(registration, scope, kind, request.key, section),
                      let service = ResolverScope.service(inEntry: entry, of: kind, in: scope, as: Service.self) {
                return service
            }
        }
        return resolveUncached(registration, through: scope, request, section)
    }

    /// The entry a caching scope holds for `registration`: the one its memo
    /// remembers, while the scope's generation is the one it was made in;
    /// else from the scope's table (and the memo is renewed).
    ///
    /// A memo is made only with an even generation read before the probe
    /// (acquire): the entry was in the table then, and stays there while the
    /// generation keeps that value (a change makes it odd first). A memo made
    /// just as a change began is stale at once, and its entry, retired by
    /// the change, stays valid for this read section only.
    @inlinable
    @inline(__always)
    static func cachedEntry(_ registration: UnownedReference<ResolverRegistration>, _ scope: UnownedReference<ResolverScope>,
                            _ kind: ResolverScope.Kind, _ key: RegistryKey,
                            _ section: borrowing ReadSection) -> UnownedReference<AnyObject>? {
        let generation = scope.read { $0.generationWord }.load()
        let memo = registration.read { $0.fields.memo }
        if let entry = memo.entry(madeIn: generation) {
            return entry
        }
        guard let entry = scope.read({ $0.table.unsafelyUnwrapped }).find(key, section) else {
            return nil
        }
        if generation & 1 == 0 && kind.memoMayKeep {
            memo.renew(entry, madeIn: generation)
        }
        return entry
    }

    /// Everything but a cached instance: build it once, make a new one, the
    /// graph scope, custom scopes. Out of line, specialized.
    @inlinable
    @inline(never)
    static func resolveUncached(_ registration: UnownedReference<ResolverRegistration>,
                                through scope: UnownedReference<ResolverScope>, _ request: ResolveRequest, _ section: borrowing ReadSection) -> Service? {
        resolveUncachedInline(registration, through: scope, request, section)
    }

    /// `resolveUncached`, inlined where a synchronous resolve has missed
    /// the thread's cache and the scope's (`SynchronousPath.uncached`, itself
    /// out of line in `resolveMissed`): the instance a resolve builds costs
    /// one call fewer.
    @inlinable
    @inline(__always)
    static func resolveUncachedInline(_ registration: UnownedReference<ResolverRegistration>,
                                      through scope: UnownedReference<ResolverScope>, _ request: ResolveRequest, _ section: borrowing ReadSection) -> Service? {
        switch scope.read({ $0.kind.strategy }) {
        case .buildOnceAndKeep:
            return buildOnce(registration, scope, request, section)
        case .newInstance:
            return produce(registration, ResolutionContext.currentState, request.container, request.arguments, section)
        case .perResolution:
            return produceInGraph(registration, ResolutionContext.currentState, request.container, request.arguments,
                                  section)
        case .containerCache, .delegate:
            return resolveThroughCustomScope(registration, scope, request)
        }
    }

    /// The graph scope: the instance made earlier in this thread's resolution,
    /// or a new one, remembered for the rest of it.
    @inlinable
    @inline(__always)
    static func produceInGraph(_ registration: UnownedReference<ResolverRegistration>, _ context: ThreadResolution,
                               _ container: UnownedReference<Resolver>, _ arguments: ArgumentsPointer,
                               _ section: borrowing ReadSection) -> Service? {
        let typeID = registration.read { $0.typeID }
        if context.hasGraphInstances, let found = context.graphInstance(of: registration, typeID: typeID, as: Service.self) {
            return found
        }
        let service = produce(registration, context, container, arguments, section)
        // Not `if let`: binding the instance copies it, a retain and release
        // around the one retain the graph's entry takes.
        if context.isResolving && service != nil {
            context.rememberGraphInstance(service.unsafelyUnwrapped, of: registration, typeID: typeID)
        }
        return service
    }

    /// Makes a new instance with the current factory, the registration on the
    /// thread's resolution stack: the one `update(factory:)` installed, or
    /// the registered one (`call`), called with `container` (the request's,
    /// which the factory receives). The read section keeps the registration,
    /// the container and a replacement alive, so all are used borrowed: no
    /// reference count is written.
    @inlinable
    @inline(__always)
    static func produce(_ registration: UnownedReference<ResolverRegistration>, _ context: ThreadResolution,
                        _ container: UnownedReference<Resolver>, _ arguments: ArgumentsPointer,
                        _ section: borrowing ReadSection) -> Service? {
        context.enter(registration.opaque, withArguments: !arguments.isNone)
        defer { context.leave() }
        return registration.read { registration in
            if let replacement = registration.fields.replacement.load() {
                return produceReplaced(replacement, container, arguments)
            }
            return container.read { registration.call($0, arguments) }
        }
    }

    /// `produce` for a request.
    @inlinable
    @inline(__always)
    static func produce(_ registration: UnownedReference<ResolverRegistration>, _ context: ThreadResolution,
                        _ request: ResolveRequest, _ section: borrowing ReadSection) -> Service? {
        produce(registration, context, request.container, request.arguments, section)
    }

    /// An instance from the factory `update(factory:)` installed (out of
    /// line: the arguments are boxed for it).
    @usableFromInline
    @inline(never)
    static func produceReplaced(_ replacement: UnownedReference<FactoryBox>, _ container: UnownedReference<Resolver>,
                                _ arguments: ArgumentsPointer) -> Service? {
        replacement.read { box in
            container.read { box.factory($0, arguments.value) }
        }
    }

    /// A custom scope: call its `resolve(registration:resolver:args:)` with
    /// real references (slow path).
    @usableFromInline
    @inline(never)
    static func resolveThroughCustomScope(_ registration: UnownedReference<ResolverRegistration>,
                                          _ scope: UnownedReference<ResolverScope>, _ request: ResolveRequest) -> Service? {
        scope.object.resolve(registration: registration.object, resolver: request.resolver,
                             args: request.arguments.value)
    }
}
