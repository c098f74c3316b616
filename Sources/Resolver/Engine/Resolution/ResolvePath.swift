// The resolve path, in call order (DESIGN.md, "One resolve path"). Every
// resolve takes it: by type, by name or through a key, synchronously or as
// the start of `resolveAsync`.
//
//   resolve   the entry: the detours, the registration gate, `root`, a read
//             section, and this thread's cache (an instance there ends it)
//   1. find   the registration: the one this thread's cache remembered, else
//             the container's lookup, else a key's own registration (made
//             from the key's declaration at its first use: `Keys/`)
//   2. scope  the scope it resolves through from that container
//   3. kept   the instance that scope keeps for it, if any
//   4. make   a new one: built once and kept (caching scopes), one per
//             resolution (`.graph`), new (`.unique`), or a custom scope's
//
// A synchronous resolve and the start of `resolveAsync` differ in one step,
// what to do without a kept instance (`ResolvePath.make`): the synchronous
// path makes it here; the async one does the same for a plain factory and
// hands a main-actor or async one to the awaiting code
// (`AsyncResolution.swift`).
//
// It is @inlinable, so that an app's `resolve()` calls are specialized for
// their service type in the app's module: no generic metadata lookups at run
// time, and no dynamic casts (the registry key is the exact type, so what is
// found under it is a `ResolverRegistration<Service>`). It takes no lock
// (R1): everything runs inside one read section, which keeps alive every
// shared object a published field leads to, so containers, registrations
// and scopes are used borrowed (`UncheckedReference.read`: a strong copy
// would write a reference count every resolving thread shares, DESIGN.md
// B1). The slow branches are out of line (B3).

/// One resolve on its way down the path: the key, the container searched
/// (the caller's, or `root`), which is also the one a factory receives, and
/// the arguments.
@frozen
@usableFromInline
struct ResolveRequest {
    @usableFromInline let key: RegistryKey
    @usableFromInline let container: UncheckedReference<Resolver>
    @usableFromInline let arguments: ArgumentsPointer

    @inlinable
    @inline(__always)
    init(_ key: RegistryKey, from container: UncheckedReference<Resolver>, _ arguments: ArgumentsPointer) {
        self.key = key
        self.container = container
        self.arguments = arguments
    }

    /// The container as a strong reference, for the slow paths that keep it.
    @inlinable
    var resolver: Resolver {
        container.object
    }
}

/// What a resolve does where the registration's scope keeps no instance:
/// the one step in which a synchronous resolve and the start of
/// `resolveAsync` differ.
@usableFromInline
protocol ResolvePath {
    associatedtype Service
    associatedtype Result

    /// The answer when the resolve ends with `service`: a kept instance, or
    /// nil when nothing is registered.
    static func found(_ service: Service?) -> Result

    /// Whether `result` is the answer for nothing found.
    static func isAbsent(_ result: Result) -> Bool

    /// Step 4 for `registration`, whose instance `scope` does not keep.
    static func make(_ registration: UncheckedReference<ResolverRegistration<Service>>,
                     through scope: UncheckedReference<ResolverScope>, _ request: ResolveRequest,
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
    static func isAbsent(_ result: Service?) -> Bool {
        result == nil
    }

    @inlinable
    @inline(__always)
    static func make(_ registration: UncheckedReference<ResolverRegistration<Service>>,
                     through scope: UncheckedReference<ResolverScope>, _ request: ResolveRequest,
                     _ section: borrowing ReadSection) -> Service? {
        decorated(ResolverRegistration<Service>.make(registration, through: scope, request, section))
    }

    /// `service`, after the decorator saw it (DEBUG builds, when one is set).
    @inlinable
    @inline(__always)
    static func decorated(_ service: Service?) -> Service? {
        // The decorator field first: binding `service` copies it (a retain).
        if let decorate = Published.decorate.load(), let service {
            DecorateBox.call(decorate, with: service)
        }
        return service
    }
}

extension Resolver {
    // MARK: - The entry

    /// Resolves `Path.Service` named `name` (its registry bytes; nil:
    /// unnamed), or the key declared at `site`, from `container` (nil:
    /// `root`). A synchronous resolve answers nil when nothing is registered
    /// or the factory returned nil.
    ///
    /// The fast path: in a read section, the gate and `root`, then this
    /// thread's cache: a kept instance there costs one probe and no key.
    @inlinable
    @inline(__always)
    static func resolve<Path: ResolvePath>(_ name: KeyBytes?, in container: Resolver?, _ arguments: ArgumentsPointer,
                                           _ path: Path.Type, declaredAt site: RegistrationSite = .notAKey)
        -> Path.Result {
        if Published.detours.load() != 0 {
            return detour(name, in: container, arguments, path, site)
        }
        let section = ReadSection()
        guard let target = registeredTarget(container, section) else {
            section.end()
            return afterRegistration(name, in: container, arguments, path, site)
        }
        let hit = ThreadCache.find(target, RegistryKey.typeID(of: Path.Service.self), name?.start, name?.hash ?? 0,
                                   section)
        let result: Path.Result
        if let hit {
            if let instance = hit.instance {
                let service = ValueStorage.value(in: instance, as: Path.Service.self)
                section.end()
                return Path.found(service)
            }
            result = remembered(hit.registration.unsafeCast(to: ResolverRegistration<Path.Service>.self), name,
                                from: target, arguments, section, path)
        } else {
            result = find(name, from: target, arguments, section, path, site)
        }
        section.end()
        return result
    }

    /// The entry while something asks resolves to take a detour
    /// (`Published.detours`): a `withRoot` call (a static resolve uses this
    /// task's root), a verification (its threads resolve from its sandbox),
    /// graph recording (the resolve is an edge from the factory asking for
    /// it), or a strict test (`StrictTest.check`).
    @inlinable
    @inline(never)
    static func detour<Path: ResolvePath>(_ name: KeyBytes?, in container: Resolver?,
                                                     _ arguments: ArgumentsPointer, _ path: Path.Type,
                                                     _ site: RegistrationSite) -> Path.Result {
        let target = container ?? currentOverride()
        withRegistryKey(RegistryKey.typeID(of: Path.Service.self), name) { key in
            if StrictTest.isActiveAnywhere {
                StrictTest.check(key, in: target)
            }
            GraphRecorder.recordResolve(of: Path.Service.self, key)
        }
        let section = ReadSection()
        guard let registered = registeredTarget(target, section) else {
            section.end()
            return afterRegistration(name, in: target, arguments, path, site)
        }
        let result = find(name, from: registered, arguments, section, path, site)
        section.end()
        return result
    }

    /// The entry while `registerAllServices` has yet to run (or before the
    /// registry exists): run it (or wait for the thread running it), then
    /// resolve. Resolves made from inside `registerAllServices` come here
    /// too, and resolve from the container being registered; a `reset()`
    /// landing meanwhile sends a resolve from `root` round again (G1).
    @inlinable
    @inline(never)
    static func afterRegistration<Path: ResolvePath>(_ name: KeyBytes?, in container: Resolver?,
                                                           _ arguments: ArgumentsPointer, _ path: Path.Type,
                                                           _ site: RegistrationSite) -> Path.Result {
        withRegisteredTarget(container) { target, section in
            find(name, from: target, arguments, section, path, site)
        }
    }

    /// The container to search: `container`, or the root when it is nil;
    /// nil while `registerAllServices` has yet to run.
    @inlinable
    @inline(__always)
    static func registeredTarget(_ container: Resolver?, _ section: borrowing ReadSection) -> UncheckedReference<Resolver>? {
        // Not `if let`: binding the container copies it (B1).
        if container != nil {
            guard Published.registered.load() != 0 else {
                return nil
            }
            return UncheckedReference(container.unsafelyUnwrapped)
        }
        return loadRegisteredRoot(section)
    }

    /// The root, if `registerAllServices` has run for it. Loading the root,
    /// the gate, then the root again (acquire loads all) rules out pairing a
    /// root with a gate opened for a later root (G1).
    @inlinable
    @inline(__always)
    static func loadRegisteredRoot(_ section: borrowing ReadSection) -> UncheckedReference<Resolver>? {
        let root = Published.root.load()
        guard Published.registered.load() != 0, Published.root.load() == root else {
            return nil
        }
        return root
    }

    /// Runs `registerAllServices` (or waits for the thread running it), then
    /// `body` in a read section with the container to search: `container`,
    /// or the root; from inside `registerAllServices`, the root being
    /// registered. A `reset()` landing meanwhile sends it round again.
    @usableFromInline
    static func withRegisteredTarget<Result>(_ container: Resolver?,
                                             _ body: (UncheckedReference<Resolver>, borrowing ReadSection) -> Result) -> Result {
        while true {
            let insideRegistration = registry.ensureRegistered()
            let section = ReadSection()
            let target: UncheckedReference<Resolver>
            if let container {
                target = UncheckedReference(container)
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

    // MARK: - 1. find

    /// The entry of a key's resolve: the one resolve path with the key's name
    /// (K1); at the key's first use, `declare` takes its declaration from its
    /// getter (K2) and the resolve goes again.
    @inlinable
    @inline(__always)
    static func resolveKey<Path: ResolvePath>(_ site: KeySite, in container: Resolver?, _ arguments: ArgumentsPointer,
                                              _ path: Path.Type, declare: () -> Void) -> Path.Result {
        KeyName.withBytes(site.name) { name in
            var result = resolve(name, in: container, arguments, path, declaredAt: site.place)
            // Nothing found: declare the key if it has no registration, and
            // go again until the registration is the one the last try saw (a
            // `Resolver.reset()` may forget a registration between a try and
            // the next; one that gives nil twice gives nil).
            var seen: ObjectIdentifier?
            while Path.isAbsent(result) {
                let current = KeyDefaults.registration(named: name, of: Path.Service.self)
                guard current == nil || current != seen else { break }
                if current == nil {
                    declare()
                }
                seen = current ?? KeyDefaults.registration(named: name, of: Path.Service.self)
                result = resolve(name, in: container, arguments, path, declaredAt: site.place)
            }
            return result
        }
    }


    /// Step 1 past a miss of the thread's cache: the container's lookup
    /// (here, then its children), else, for a key, its own registration;
    /// remembered in the thread's cache, then steps 2 to 4. Nil when
    /// nothing is found (a key at its first use: `Keys/`). Out of line, so
    /// that the cache hit stays a short function (B3).
    @inlinable
    @inline(never)
    static func find<Path: ResolvePath>(_ name: KeyBytes?, from target: UncheckedReference<Resolver>,
                                        _ arguments: ArgumentsPointer, _ section: borrowing ReadSection,
                                        _ path: Path.Type, _ site: RegistrationSite) -> Path.Result {
        withRegistryKey(RegistryKey.typeID(of: Path.Service.self), name) { key in
            guard let found = target.read({ $0.storage }).find(key, section)
                    ?? (site.isKeyDeclaration ? KeyDefaults.find(key, declaredAt: site, section) : nil) else {
                return Path.found(nil)
            }
            ThreadCache.fill(target, key, registration: found, section)
            return resolve(found.unsafeCast(to: ResolverRegistration<Path.Service>.self),
                           ResolveRequest(key, from: target, arguments), section, path)
        }
    }

    /// Step 1 answered by the thread's cache with a registration: no table
    /// probe. A new instance (`.unique`, `.graph`) of a plain factory needs
    /// no key either, so none is built; the other scopes go on with one.
    /// Out of line (B3).
    @inlinable
    @inline(never)
    static func remembered<Path: ResolvePath>(_ registration: UncheckedReference<ResolverRegistration<Path.Service>>,
                                              _ name: KeyBytes?, from target: UncheckedReference<Resolver>,
                                              _ arguments: ArgumentsPointer, _ section: borrowing ReadSection,
                                              _ path: Path.Type) -> Path.Result {
        ResolverRegistration<Path.Service>.checkArguments(registration, arguments)
        let scope = ResolverRegistration<Path.Service>.scope(registration, from: target, section)
        let strategy = scope.read { $0.kind.strategy }
        guard strategy == .newInstance || strategy == .perResolution, registration.read({ $0.isolation }) == .none else {
            return resolve(registration, name, from: target, arguments, section, path)
        }
        return Path.found(SynchronousPath<Path.Service>.decorated(
            ResolverRegistration<Path.Service>.makeNew(registration, inGraph: strategy == .perResolution,
                                                       ResolutionContext.currentState, target, arguments, section)))
    }

    /// Steps 2 to 4 for a registration the thread's cache remembered whose
    /// scope keeps or builds its instance: out of line, so that
    /// `remembered` stays the short function a `.unique` or `.graph`
    /// resolve runs (B3).
    @inlinable
    @inline(never)
    static func resolve<Path: ResolvePath>(_ registration: UncheckedReference<ResolverRegistration<Path.Service>>,
                                           _ name: KeyBytes?, from target: UncheckedReference<Resolver>,
                                           _ arguments: ArgumentsPointer, _ section: borrowing ReadSection,
                                           _ path: Path.Type) -> Path.Result {
        withRegistryKey(RegistryKey.typeID(of: Path.Service.self), name) { key in
            resolve(registration, ResolveRequest(key, from: target, arguments), section, path)
        }
    }

    /// Steps 2 to 4 for `registration`, found for the request.
    @inlinable
    @inline(__always)
    static func resolve<Path: ResolvePath>(_ registration: UncheckedReference<ResolverRegistration<Path.Service>>,
                                           _ request: ResolveRequest, _ section: borrowing ReadSection,
                                           _ path: Path.Type) -> Path.Result {
        ResolverRegistration<Path.Service>.checkArguments(registration, request.arguments)
        let scope = ResolverRegistration<Path.Service>.scope(registration, from: request.container, section)
        if let service = ResolverRegistration<Path.Service>.kept(registration, in: scope, request, section) {
            return Path.found(SynchronousPath<Path.Service>.decorated(service))
        }
        return Path.make(registration, through: scope, request, section)
    }
}

extension ResolverRegistration {
    // MARK: - 2. scope

    /// The scope `registration` resolves through from `container`: its own,
    /// with `.container` replaced by that container's cache and the app-wide
    /// caches by the container's isolated ones.
    @inlinable
    @inline(__always)
    static func scope(_ registration: UncheckedReference<ResolverRegistration>, from container: UncheckedReference<Resolver>,
                      _ section: borrowing ReadSection) -> UncheckedReference<ResolverScope> {
        ResolverScope.seen(registration.read { $0.fields.scope }.load().unsafelyUnwrapped, from: container, section)
    }
}

extension ResolverScope {
    /// The scope that stands for `scope` in a resolve from `container`:
    /// `.container` is that container's cache, and the app-wide caches are
    /// the container's isolated ones, where it has them.
    @inlinable
    @inline(__always)
    static func seen(_ scope: UncheckedReference<ResolverScope>, from container: UncheckedReference<Resolver>,
                     _ section: borrowing ReadSection) -> UncheckedReference<ResolverScope> {
        var scope = scope
        if case .containerCache = scope.read({ $0.kind.strategy }) {
            scope = container.read { $0.fields.cache }.load() ?? Resolver.makeCacheScope(container)
        }
        if let isolated = container.read({ $0.isolatedScopesReference }) {
            scope = IsolatedScopes.substitute(isolated, scope, section)
        }
        return scope
    }
}

extension ResolverRegistration {

    // MARK: - 3. kept

    /// The instance `scope` keeps for `registration`, if it keeps any: per
    /// argument list for a typed registration; else the entry its memo
    /// remembers or the scope's table holds, remembered in this thread's
    /// cache where the scope's kind allows it and no decorator must see
    /// the resolve (T1).
    @inlinable
    @inline(__always)
    static func kept(_ registration: UncheckedReference<ResolverRegistration>, in scope: UncheckedReference<ResolverScope>,
                     _ request: ResolveRequest, _ section: borrowing ReadSection) -> Service? {
        let kind = scope.read { $0.kind }
        guard kind.keepsInstances else {
            return nil
        }
        if registration.read({ $0.argumentTypes }) != nil {
            // One instance per argument list, never in the thread's cache.
            return registration.read { $0.argumentInstance(scope, request.arguments) }
        }
        guard let entry = keptEntry(registration, scope, kind, request.key, section),
              let service = ResolverScope.service(inEntry: entry, of: kind, in: scope, as: Service.self) else {
            return nil
        }
        if kind.threadCacheMayKeep && Published.decorate.load() == nil {
            ThreadCache.fill(request.container, request.key, instance: entry, section)
        }
        return service
    }

    /// Steps 3 and 4 through `scope`, without the decorator: for callers
    /// past the resolve path (`resolve(resolver:args:)`, the built-in
    /// scopes' `resolve(registration:resolver:args:)`, a list's parts),
    /// which check the call's arguments here as the path does.
    @inlinable
    static func keptOrMade(_ registration: UncheckedReference<ResolverRegistration>,
                           through scope: UncheckedReference<ResolverScope>, _ request: ResolveRequest,
                           _ section: borrowing ReadSection) -> Service? {
        checkArguments(registration, request.arguments)
        if let service = kept(registration, in: scope, request, section) {
            return service
        }
        return makeOutOfLine(registration, through: scope, request, section)
    }

    /// The entry a caching scope holds for `registration`: the one its memo
    /// remembers, while the scope's generation is the one it was made in;
    /// else from the scope's table, and the memo is renewed. A memo is made
    /// only with an even generation read before the probe (S2, S3): the
    /// entry was in the table then, and stays there while the generation
    /// keeps that value.
    @inlinable
    @inline(__always)
    static func keptEntry(_ registration: UncheckedReference<ResolverRegistration>, _ scope: UncheckedReference<ResolverScope>,
                          _ kind: ResolverScope.Kind, _ key: RegistryKey,
                          _ section: borrowing ReadSection) -> UncheckedReference<AnyObject>? {
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

    // MARK: - 4. make

    /// A new instance, as `scope`'s kind makes one: built once and kept,
    /// one per resolution, new every time, or through a custom scope.
    @inlinable
    @inline(__always)
    static func make(_ registration: UncheckedReference<ResolverRegistration>, through scope: UncheckedReference<ResolverScope>,
                     _ request: ResolveRequest, _ section: borrowing ReadSection) -> Service? {
        switch scope.read({ $0.kind.strategy }) {
        case .buildOnceAndKeep:
            return buildOnce(registration, scope, request, section)
        case .newInstance:
            return makeNew(registration, inGraph: false, ResolutionContext.currentState, request.container,
                           request.arguments, section)
        case .perResolution:
            return makeNew(registration, inGraph: true, ResolutionContext.currentState, request.container,
                           request.arguments, section)
        case .containerCache, .delegate:
            return registration.read { $0.customScopeInstance(scope, request) }
        }
    }

    /// `make`, out of line, for callers past the resolve path (a list's
    /// elements, `resolve(resolver:args:)`).
    @inlinable
    @inline(never)
    static func makeOutOfLine(_ registration: UncheckedReference<ResolverRegistration>,
                              through scope: UncheckedReference<ResolverScope>, _ request: ResolveRequest,
                              _ section: borrowing ReadSection) -> Service? {
        make(registration, through: scope, request, section)
    }

    /// A new instance of a scope that keeps none: for `.graph` the one made
    /// earlier in this thread's resolution, or a new one remembered for the
    /// rest of it; for `.unique` a new one.
    @inlinable
    @inline(__always)
    static func makeNew(_ registration: UncheckedReference<ResolverRegistration>, inGraph: Bool, _ context: ThreadResolution,
                        _ container: UncheckedReference<Resolver>, _ arguments: ArgumentsPointer,
                        _ section: borrowing ReadSection) -> Service? {
        guard inGraph else {
            return produce(registration, context, container, arguments, section)
        }
        let typeID = registration.read { $0.typeID }
        if context.hasGraphInstances, let found = context.graphInstance(of: registration, typeID: typeID, as: Service.self) {
            return found
        }
        let service = produce(registration, context, container, arguments, section)
        // Not `if let`: binding the instance copies it (B1).
        if context.isResolving && service != nil {
            context.rememberGraphInstance(service.unsafelyUnwrapped, of: registration, typeID: typeID)
        }
        return service
    }

    /// A new instance from the current factory, the registration on the
    /// thread's resolution stack: the one `update(factory:)` installed, or
    /// the registered one (`call`), given `container`. All used borrowed.
    @inlinable
    @inline(__always)
    static func produce(_ registration: UncheckedReference<ResolverRegistration>, _ context: ThreadResolution,
                        _ container: UncheckedReference<Resolver>, _ arguments: ArgumentsPointer,
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

    /// A custom scope: its `resolve(registration:resolver:args:)`, with real
    /// references (slow path).
    @usableFromInline
    @inline(never)
    func customScopeInstance(_ scope: UncheckedReference<ResolverScope>, _ request: ResolveRequest) -> Service? {
        scope.object.resolve(registration: self, resolver: request.resolver, args: request.arguments.value)
    }
}

extension ResolverRegistration.FactoryBox {
    /// An instance from the factory `update(factory:)` installed (out of
    /// line: the arguments are boxed for it).
    @usableFromInline
    @inline(never)
    func produce(_ container: UncheckedReference<Resolver>, _ arguments: ArgumentsPointer) -> Service? {
        container.read { factory($0, arguments.value) }
    }
}
