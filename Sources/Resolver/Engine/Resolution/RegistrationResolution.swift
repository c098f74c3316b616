// The resolve path past the lookup (`Resolution.swift`): a registration's
// scope, its cached instance and its memo, a new instance from its factory,
// the graph scope, and the build-once and custom scopes it hands over to.

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
                if let service = registration.read({ $0.argumentInstance(scope, request.arguments) }) {
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
    /// out of line in `resolveMissed` and `resolveRemembered`): the instance a resolve builds costs
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
            return registration.read { $0.resolveThroughCustomScope(scope, request) }
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
                return replacement.read { $0.produce(container, arguments) }
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

    /// A custom scope: call its `resolve(registration:resolver:args:)` with
    /// real references (slow path).
    @usableFromInline
    @inline(never)
    func resolveThroughCustomScope(_ scope: UnownedReference<ResolverScope>, _ request: ResolveRequest) -> Service? {
        scope.object.resolve(registration: self, resolver: request.resolver, args: request.arguments.value)
    }
}

extension ResolverRegistration.FactoryBox {
    /// An instance from the factory `update(factory:)` installed (out of
    /// line: the arguments are boxed for it).
    @usableFromInline
    @inline(never)
    func produce(_ container: UnownedReference<Resolver>, _ arguments: ArgumentsPointer) -> Service? {
        container.read { factory($0, arguments.value) }
    }
}
