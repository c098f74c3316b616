// The resolve path of a key (DESIGN.md, "Compile-time-checked keys"): the
// one resolve path (`Resolution.swift`) with the key's registry key (its
// service type and its name), and one step of its own where a lookup finds
// nothing: the key's own registration (`KeyDefaults`). So a resolve through
// a key costs what a resolve with a literal name costs: the detours, the
// gate, `root` and the thread's cache as usual; a hit costs one probe; a
// miss finds the registration in the container (an override) or in the
// keys' table, and fills the thread's cache as usual.
//
// The path needs the key's name only. The rest of the key's declaration
// (its factory, scope and contexts) is needed once, at the key's first use,
// when neither lookup finds a registration: the path then answers
// `.undeclared`, and the caller, which holds the declaration, makes the
// key's registration (`KeyDefaults.declare`) and resolves again. Nothing on
// the way down holds on to the declaration, so where the compiler sees the
// key's getter it keeps nothing of it but the name.

/// What a key's resolve path found.
@frozen
@usableFromInline
enum KeyLookup<Result> {
    /// The path's answer.
    case resolved(Result)
    /// The key has no registration yet: its first use.
    case undeclared
}

extension Resolver {
    /// Resolves the key named `name` (its registry bytes) of
    /// `Path.Service`, declared at `site`, in `container` (nil: `root`).
    @inlinable
    @inline(__always)
    static func resolveKey<Path: ResolvePath>(_ name: KeyBytes, in container: Resolver?, _ arguments: ArgumentsPointer,
                                              _ path: Path.Type, _ site: KeySite) -> KeyLookup<Path.Result> {
        if Published.detours.load() != 0 {
            return RegistryKey.withKey(Path.Service.self, name) { key in
                resolveKeyWithDetour(key, in: container, arguments, path, site)
            }
        }
        let section = ReadSection()
        guard let target = registeredTarget(container, section) else {
            section.end()
            return RegistryKey.withKey(Path.Service.self, name) { key in
                resolveKeyAfterRegistering(key, in: container, arguments, path, site)
            }
        }
        let hit = ThreadCache.find(target, RegistryKey.typeID(of: Path.Service.self), name.start, name.hash, section)
        if let instance = hit?.instance {
            let service = ValueStorage.value(in: instance, as: Path.Service.self)
            section.end()
            return .resolved(Path.found(service))
        }
        let result = RegistryKey.withKey(Path.Service.self, name) { key in
            resolveKeyMissed(key, hit, from: target, arguments, section, path, site)
        }
        section.end()
        return result
    }

    /// `resolveKey` past a miss of the thread's cache: the registration it
    /// remembered, or the lookup's. Out of line, as `resolveMissed` is.
    @inlinable
    @inline(never)
    static func resolveKeyMissed<Path: ResolvePath>(_ key: RegistryKey, _ hit: ThreadCache.Hit?,
                                                    from target: UnownedReference<Resolver>,
                                                    _ arguments: ArgumentsPointer, _ section: borrowing ReadSection,
                                                    _ path: Path.Type, _ site: KeySite) -> KeyLookup<Path.Result> {
        let request = ResolveRequest(key, from: target, arguments)
        if let hit {
            return .resolved(resolveFound(hit.registration.unsafeCast(to: ResolverRegistration<Path.Service>.self),
                                          request, section, path))
        }
        return resolveKeyInReadSection(request, section, path, site)
    }

    /// Finds the key's registration from the request's container (an
    /// override), else the key's own; remembers it in the thread's cache
    /// and resolves it. `.undeclared` when the key has neither.
    @inlinable
    @inline(__always)
    static func resolveKeyInReadSection<Path: ResolvePath>(_ request: ResolveRequest,
                                                           _ section: borrowing ReadSection, _ path: Path.Type,
                                                           _ site: KeySite) -> KeyLookup<Path.Result> {
        guard let found = request.container.read({ $0.storage }).find(request.key, section)
                ?? KeyDefaults.find(request.key, site, of: Path.Service.self, section) else {
            return .undeclared
        }
        ThreadCache.fill(request.container, request.key, registration: found, section)
        return .resolved(resolveFound(found.unsafeCast(to: ResolverRegistration<Path.Service>.self), request,
                                      section, path))
    }

    /// `resolveWithDetour` for a key: the task's `withRoot` container or a
    /// verification's sandbox, a strict test's check, the graph's edge.
    @inlinable
    @inline(never)
    static func resolveKeyWithDetour<Path: ResolvePath>(_ key: RegistryKey, in container: Resolver?,
                                                        _ arguments: ArgumentsPointer, _ path: Path.Type,
                                                        _ site: KeySite) -> KeyLookup<Path.Result> {
        let target = container ?? currentOverride()
        if StrictTest.isActiveAnywhere {
            StrictTest.check(key, in: target)
        }
        recordKeyResolve(of: Path.Service.self, key)
        let section = ReadSection()
        guard let registered = registeredTarget(target, section) else {
            section.end()
            return resolveKeyAfterRegistering(key, in: target, arguments, path, site)
        }
        let result = resolveKeyInReadSection(ResolveRequest(key, from: registered, arguments), section, path, site)
        section.end()
        return result
    }

    /// Records the graph's edge to the key `key` names (`GraphRecorder`),
    /// its node named as the key's registrations show it: `\\.name`.
    @usableFromInline
    static func recordKeyResolve<Service>(of type: Service.Type, _ key: RegistryKey) {
        guard GraphRecorder.current != nil, let name = key.nameText else { return }
        let shown = Resolver.Name("\\." + name.dropLast())
        withRegistryKey(key.typeID, shown.key, owner: shown) { displayed in
            GraphRecorder.recordResolve(of: Service.self, displayed)
        }
    }

    /// `resolveAfterRegistering` for a key.
    @inlinable
    @inline(never)
    static func resolveKeyAfterRegistering<Path: ResolvePath>(_ key: RegistryKey, in container: Resolver?,
                                                              _ arguments: ArgumentsPointer, _ path: Path.Type,
                                                              _ site: KeySite) -> KeyLookup<Path.Result> {
        withRegisteredTarget(container) { target, section in
            resolveKeyInReadSection(ResolveRequest(key, from: target, arguments), section, path, site)
        }
    }

    /// Resolves the key declared at `site` from `container` (nil: `root`):
    /// the service, or nil (a promise nobody kept), or `.undeclared` at the
    /// key's first use.
    @inlinable
    @inline(__always)
    static func resolveKeyService<Service>(_ site: KeySite, _ service: Service.Type,
                                           in container: Resolver?) -> KeyLookup<Service?> {
        KeyName.withBytes(site.name) { name in
            resolveKey(name, in: container, .none, SynchronousPath<Service>.self, site)
        }
    }

    /// `resolveKeyService` with a key's arguments, a first one and the rest
    /// (see `withKeyCallArguments`).
    @inlinable
    @inline(__always)
    static func resolveKeyService<Service, A, each B>(_ site: KeySite, _ service: Service.Type,
                                                     in container: Resolver?,
                                                     arguments first: A, _ rest: repeat each B) -> KeyLookup<Service?> {
        withKeyCallArguments(first, repeat each rest) { pointer in
            KeyName.withBytes(site.name) { name in
                resolveKey(name, in: container, pointer, SynchronousPath<Service>.self, site)
            }
        }
    }

    /// The synchronous start of `resolveAsync` through a key: what a
    /// synchronous resolve would find, with a main-actor or async
    /// registration left to await (`AsyncStep.pending`).
    @inlinable
    @inline(__always)
    static func startKeyServiceAsync<Service>(_ site: KeySite, _ service: Service.Type,
                                              in container: Resolver?) -> KeyLookup<AsyncStep<Service>> {
        KeyName.withBytes(site.name) { name in
            resolveKey(name, in: container, .none, AsyncStartPath<Service>.self, site)
        }
    }

    /// `startKeyServiceAsync` with a key's arguments: synchronous, so that
    /// an async caller passes them on only to synchronous code (Swift 6.3.1
    /// frees an async callee's argument pack out of order: "freed pointer
    /// was not the last allocation"); a first one and the rest, as
    /// `resolveKeyService`.
    @inlinable
    @inline(__always)
    static func startKeyServiceAsync<Service, A, each B>(_ site: KeySite, _ service: Service.Type,
                                                        in container: Resolver?,
                                                        arguments first: A, _ rest: repeat each B) -> KeyLookup<AsyncStep<Service>> {
        withKeyCallArguments(first, repeat each rest) { pointer in
            KeyName.withBytes(site.name) { name in
                resolveKey(name, in: container, pointer, AsyncStartPath<Service>.self, site)
            }
        }
    }

    /// A key call's arguments boxed for a main-actor or async factory (nil:
    /// none).
    @inlinable
    static func boxedKeyArguments<each Argument>(_ arguments: repeat each Argument) -> Any? {
        keyArgumentCount(repeat (each Argument).self) == 0 ? nil : KeyArgumentsBox(repeat each arguments)
    }

    /// Makes the registration of the key `key` (declared at `site`) if it
    /// has none: runs its getter once more, taking its declaration. The key
    /// path is applied here, where the caller wrote it, so that the compiler
    /// calls the getter directly.
    @inlinable
    @inline(__always)
    static func declareKey<Service, each Argument>(_ key: KeyPath<ResolverKeys, ResolverKey<Service, repeat each Argument>>,
                                                  _ site: KeySite) {
        let declaration = KeyDeclaring.declaration(of: site) {
            _ = ResolverKeys()[keyPath: key]
        }
        KeyDefaults.install(declaration, Service.self, repeat (each Argument).self)
    }

    /// The declaration of `key`, taken from its getter (an override keeps
    /// its scope); its registration is made too, if it has none yet.
    @inlinable
    @inline(__always)
    static func declaredKey<Service, each Argument>(_ key: KeyPath<ResolverKeys, ResolverKey<Service, repeat each Argument>>)
        -> KeyDeclaration {
        let site = ResolverKeys()[keyPath: key].site
        return KeyDeclaring.declaration(of: site) {
            _ = ResolverKeys()[keyPath: key]
        }
    }

    /// Makes the key's registration if it has none yet: a property wrapper
    /// of the key mentions it (a promise `verify()` can then list).
    @inlinable
    static func mentionKey<Service, each Argument>(_ key: KeyPath<ResolverKeys, ResolverKey<Service, repeat each Argument>>) {
        let site = ResolverKeys()[keyPath: key].site
        let found = KeyName.withBytes(site.name) { name in
            RegistryKey.withKey(Service.self, name) { registryKey in
                ReadSection.run { section in
                    KeyDefaults.find(registryKey, site, of: Service.self, section) != nil
                }
            }
        }
        if !found {
            declareKey(key, site)
        }
    }
}
