// The resolve path of a key (DESIGN.md, "Compile-time-checked keys"): the
// one resolve path (`Resolution.swift`) with the key's registry key (its
// service type and its name), and one step of its own where a lookup finds
// nothing: the key's own registration (`KeyDefaults`), made at its first
// use. So a resolve through a key costs what a resolve with a literal name
// costs: the detours, the gate, `root` and the thread's cache as usual; a
// hit costs one probe; a miss finds the registration in the container (an
// override) or in the keys' table, and fills the thread's cache as usual.

extension Resolver {
    /// Resolves the key named `name` (its registry bytes) of
    /// `Path.Service` in `container` (nil: `root`); `make` makes the key's
    /// own registration at its first use.
    @inlinable
    @inline(__always)
    static func resolveKey<Path: ResolvePath>(_ name: KeyBytes, in container: Resolver?, _ arguments: ArgumentsPointer,
                                              _ path: Path.Type, _ site: KeySite, promised: Bool,
                                              _ make: () -> ResolverRegistration<Path.Service>) -> Path.Result {
        if Published.detours.load() != 0 {
            return RegistryKey.withKey(Path.Service.self, name) { key in
                resolveKeyWithDetour(key, in: container, arguments, path, site, promised: promised, make)
            }
        }
        let section = ReadSection()
        guard let target = registeredTarget(container, section) else {
            section.end()
            return RegistryKey.withKey(Path.Service.self, name) { key in
                resolveKeyAfterRegistering(key, in: container, arguments, path, site, promised: promised, make)
            }
        }
        let hit = ThreadCache.find(target, RegistryKey.typeID(of: Path.Service.self), name.start, name.hash, section)
        if let instance = hit?.instance {
            let service = ValueStorage.value(in: instance, as: Path.Service.self)
            section.end()
            return Path.found(service)
        }
        let result = RegistryKey.withKey(Path.Service.self, name) { key in
            resolveKeyMissed(key, hit, from: target, given: container, arguments, section, path, site,
                             promised: promised, make)
        }
        section.end()
        return result
    }

    /// `resolveKey` past a miss of the thread's cache: the registration it
    /// remembered, or the lookup's. Out of line, as `resolveMissed` is.
    @inlinable
    @inline(never)
    static func resolveKeyMissed<Path: ResolvePath>(_ key: RegistryKey, _ hit: ThreadCache.Hit?,
                                                    from target: UnownedReference<Resolver>, given container: Resolver?,
                                                    _ arguments: ArgumentsPointer, _ section: borrowing ReadSection,
                                                    _ path: Path.Type, _ site: KeySite, promised: Bool,
                                                    _ make: () -> ResolverRegistration<Path.Service>) -> Path.Result {
        let request = ResolveRequest(key, from: target, arguments)
        if let hit {
            return resolveFound(hit.registration.unsafeCast(to: ResolverRegistration<Path.Service>.self), request,
                                given: container, section, path)
        }
        return resolveKeyInReadSection(request, given: container, section, path, site, promised: promised, make)
    }

    /// Finds the key's registration from the request's container (an
    /// override), else the key's own, made now if this is its first use;
    /// remembers it in the thread's cache and resolves it.
    @inlinable
    @inline(__always)
    static func resolveKeyInReadSection<Path: ResolvePath>(_ request: ResolveRequest, given: Resolver?,
                                                           _ section: borrowing ReadSection, _ path: Path.Type,
                                                           _ site: KeySite, promised: Bool,
                                                           _ make: () -> ResolverRegistration<Path.Service>) -> Path.Result {
        let found = request.container.read({ $0.storage }).find(request.key, section)
            ?? KeyDefaults.registration(for: request.key, site, promised: promised, make, section)
        ThreadCache.fill(request.container, request.key, registration: found, section)
        return resolveFound(found.unsafeCast(to: ResolverRegistration<Path.Service>.self), request, given: given,
                            section, path)
    }

    /// `resolveWithDetour` for a key: the task's `withRoot` container or a
    /// verification's sandbox, a strict test's check, the graph's edge.
    @inlinable
    @inline(never)
    static func resolveKeyWithDetour<Path: ResolvePath>(_ key: RegistryKey, in container: Resolver?,
                                                        _ arguments: ArgumentsPointer, _ path: Path.Type,
                                                        _ site: KeySite, promised: Bool,
                                                        _ make: () -> ResolverRegistration<Path.Service>) -> Path.Result {
        let target = container ?? currentOverride()
        if StrictTest.isActiveAnywhere {
            StrictTest.check(key, in: target)
        }
        GraphRecorder.recordResolve(of: Path.Service.self, key)
        let section = ReadSection()
        guard let registered = registeredTarget(target, section) else {
            section.end()
            return resolveKeyAfterRegistering(key, in: target, arguments, path, site, promised: promised, make)
        }
        let result = resolveKeyInReadSection(ResolveRequest(key, from: registered, arguments), given: target, section,
                                             path, site, promised: promised, make)
        section.end()
        return result
    }

    /// `resolveAfterRegistering` for a key.
    @inlinable
    @inline(never)
    static func resolveKeyAfterRegistering<Path: ResolvePath>(_ key: RegistryKey, in container: Resolver?,
                                                              _ arguments: ArgumentsPointer, _ path: Path.Type,
                                                              _ site: KeySite, promised: Bool,
                                                              _ make: () -> ResolverRegistration<Path.Service>) -> Path.Result {
        withRegisteredTarget(container) { target, section in
            resolveKeyInReadSection(ResolveRequest(key, from: target, arguments), given: container, section, path,
                                    site, promised: promised, make)
        }
    }

    /// Resolves `key` from `container` (nil: `root`) with `arguments`.
    @inlinable
    @inline(__always)
    static func resolveKeyService<Service, each Argument>(_ key: ResolverKey<Service, repeat each Argument>,
                                                         in container: Resolver?,
                                                         arguments: repeat each Argument) -> Service? {
        KeyName.withBytes(key.site.name) { name in
            withKeyArguments(repeat each arguments) { pointer in
                resolveKey(name, in: container, pointer, SynchronousPath<Service>.self, key.site,
                           promised: key.isPromised, { KeyRegistration.makeDefault(key) })
            }
        }
    }

    /// Resolves `key` from `container` (nil: `root`) in async code: as
    /// `resolveServiceAsync`, through the key's path.
    @inlinable
    nonisolated(nonsending)
    static func resolveKeyServiceAsync<Service, each Argument>(_ key: ResolverKey<Service, repeat each Argument>,
                                                              in container: Resolver?,
                                                              arguments: repeat each Argument) async -> Service? {
        let typed = keyArgumentCount(repeat (each Argument).self) != 0
        let boxed: KeyArgumentsBox<repeat each Argument>? = typed ? KeyArgumentsBox(repeat each arguments) : nil
        let step = KeyName.withBytes(key.site.name) { name in
            withKeyArguments(repeat each arguments) { pointer in
                resolveKey(name, in: container, pointer, AsyncStartPath<Service>.self, key.site,
                           promised: key.isPromised, { KeyRegistration.makeDefault(key) })
            }
        }
        switch step {
        case .done(let service):
            return service
        case .pending(let pending):
            return await pending.finish(boxed)
        }
    }
}
