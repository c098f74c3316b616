// Resolving, overriding and resetting through keys (`ResolverKey.swift`):
// `Resolver.resolve(\.store)`, `Resolver.resolve(\.noteList, arguments: 42, "en")`,
// `await Resolver.resolveAsync(\.database)`, `Resolver.register(\.api) { MockAPI() }`,
// `ResolverScope.application.reset(\.store)`.
//
// Each resolving entry point has two overloads, for a key without arguments and
// for one with arguments, which takes exactly its list: a call that passes them
// wrongly fails to compile with a message naming the key's type or its list.
// They are `@inline(__always)`, so the compiler sees the key path where the app
// writes it and calls the key's getter directly.

extension Resolver {
    // MARK: - Resolving

    /// Resolves the service of a key from `root`: `Resolver.resolve(\.store)`. Stops the program
    /// when the key is promised and nothing registered it.
    ///
    /// - Parameter key: the key, a property of ``ResolverKeys``.
    @inlinable
    @inline(__always)
    public static func resolve<Service>(_ key: KeyPath<ResolverKeys, ResolverKey<Service>>) -> Service {
        if let service = keyed(key, in: nil, SynchronousPath<Service>.self) {
            return service
        }
        keyNotResolved(ResolverKeys()[keyPath: key].site, Service.self, in: nil)
    }

    /// Resolves the service of a key with arguments from `root`, passing them to its factory:
    /// `Resolver.resolve(\.noteList, arguments: 42, "en")`. The arguments must be the key's, in its
    /// order, or the call does not compile.
    ///
    /// - Parameters:
    ///   - key: the key, a property of ``ResolverKeys``.
    ///   - first: the key's first argument.
    ///   - rest: its others, if any.
    @inlinable
    @inline(__always)
    public static func resolve<Service, A, each B>(_ key: KeyPath<ResolverKeys, ResolverKey<Service, A, repeat each B>>,
        arguments first: A, _ rest: repeat each B) -> Service {
        if let service = keyed(key, in: nil, SynchronousPath<Service>.self, first, repeat each rest) {
            return service
        }
        keyNotResolved(ResolverKeys()[keyPath: key].site, Service.self, in: nil)
    }

    /// Resolves the service of a key from this container (and its children), else the key's own
    /// registration: `container.resolve(\.store)`.
    @inlinable
    @inline(__always)
    public final func resolve<Service>(_ key: KeyPath<ResolverKeys, ResolverKey<Service>>) -> Service {
        if let service = Resolver.keyed(key, in: self, SynchronousPath<Service>.self) {
            return service
        }
        Resolver.keyNotResolved(ResolverKeys()[keyPath: key].site, Service.self, in: self)
    }

    /// Resolves the service of a key with arguments from this container (and its children), else the
    /// key's own registration.
    @inlinable
    @inline(__always)
    public final func resolve<Service, A, each B>(_ key: KeyPath<ResolverKeys, ResolverKey<Service, A, repeat each B>>,
        arguments first: A, _ rest: repeat each B) -> Service {
        if let service = Resolver.keyed(key, in: self, SynchronousPath<Service>.self, first, repeat each rest) {
            return service
        }
        Resolver.keyNotResolved(ResolverKeys()[keyPath: key].site, Service.self, in: self)
    }

    /// Resolves the service of a key from `root`, or nil where `resolve` would stop (a promised key
    /// nothing registered): `Resolver.optional(\.analytics)`.
    @inlinable
    @inline(__always)
    public static func optional<Service>(_ key: KeyPath<ResolverKeys, ResolverKey<Service>>) -> Service? {
        keyed(key, in: nil, SynchronousPath<Service>.self)
    }

    /// Resolves the service of a key with arguments from `root`, or nil where `resolve` would stop.
    @inlinable
    @inline(__always)
    public static func optional<Service, A, each B>(_ key: KeyPath<ResolverKeys, ResolverKey<Service, A, repeat each B>>,
        arguments first: A, _ rest: repeat each B) -> Service? {
        keyed(key, in: nil, SynchronousPath<Service>.self, first, repeat each rest)
    }

    /// Resolves the service of a key from this container (and its children), else the key's own
    /// registration, or nil where `resolve` would stop.
    @inlinable
    @inline(__always)
    public final func optional<Service>(_ key: KeyPath<ResolverKeys, ResolverKey<Service>>) -> Service? {
        Resolver.keyed(key, in: self, SynchronousPath<Service>.self)
    }

    /// Resolves the service of a key with arguments from this container, or nil where `resolve` would stop.
    @inlinable
    @inline(__always)
    public final func optional<Service, A, each B>(_ key: KeyPath<ResolverKeys, ResolverKey<Service, A, repeat each B>>,
        arguments first: A, _ rest: repeat each B) -> Service? {
        Resolver.keyed(key, in: self, SynchronousPath<Service>.self, first, repeat each rest)
    }

    /// Resolves the service of a key from `root` in async code, whatever its factory:
    /// `await Resolver.resolveAsync(\.database)`. An async factory is awaited, a `@MainActor` one runs
    /// on the main actor (the call hops there), a plain one as a synchronous resolve would.
    @inlinable
    @inline(__always)
    nonisolated(nonsending)
    public static func resolveAsync<Service>(_ key: KeyPath<ResolverKeys, ResolverKey<Service>>) async -> Service {
        if let service = await finish(keyed(key, in: nil, AsyncStartPath<Service>.self)) {
            return service
        }
        keyNotResolved(ResolverKeys()[keyPath: key].site, Service.self, in: nil)
    }

    /// Resolves the service of a key with arguments from `root` in async code (see `resolveAsync(_:)`).
    @inlinable
    @inline(__always)
    nonisolated(nonsending)
    public static func resolveAsync<Service, A, each B>(_ key: KeyPath<ResolverKeys, ResolverKey<Service, A, repeat each B>>,
        arguments first: A, _ rest: repeat each B) async -> Service {
        if let service = await optionalAsync(key, arguments: first, repeat each rest) {
            return service
        }
        keyNotResolved(ResolverKeys()[keyPath: key].site, Service.self, in: nil)
    }

    /// Resolves the service of a key from this container in async code (see the static `resolveAsync(_:)`).
    @inlinable
    @inline(__always)
    nonisolated(nonsending)
    public final func resolveAsync<Service>(_ key: KeyPath<ResolverKeys, ResolverKey<Service>>) async -> Service {
        if let service = await Resolver.finish(Resolver.keyed(key, in: self, AsyncStartPath<Service>.self)) {
            return service
        }
        Resolver.keyNotResolved(ResolverKeys()[keyPath: key].site, Service.self, in: self)
    }

    /// Resolves the service of a key with arguments from this container in async code.
    @inlinable
    @inline(__always)
    nonisolated(nonsending)
    public final func resolveAsync<Service, A, each B>(_ key: KeyPath<ResolverKeys, ResolverKey<Service, A, repeat each B>>,
        arguments first: A, _ rest: repeat each B) async -> Service {
        if let service = await optionalAsync(key, arguments: first, repeat each rest) {
            return service
        }
        Resolver.keyNotResolved(ResolverKeys()[keyPath: key].site, Service.self, in: self)
    }

    /// Resolves the service of a key from `root` in async code, or nil where `resolveAsync` would stop.
    @inlinable
    @inline(__always)
    nonisolated(nonsending)
    public static func optionalAsync<Service>(_ key: KeyPath<ResolverKeys, ResolverKey<Service>>) async -> Service? {
        await finish(keyed(key, in: nil, AsyncStartPath<Service>.self))
    }

    /// Resolves the service of a key with arguments from `root` in async code, or nil where
    /// `resolveAsync` would stop.
    @inlinable
    @inline(__always)
    nonisolated(nonsending)
    public static func optionalAsync<Service, A, each B>(_ key: KeyPath<ResolverKeys, ResolverKey<Service, A, repeat each B>>,
        arguments first: A, _ rest: repeat each B) async -> Service? {
        switch keyed(key, in: nil, AsyncStartPath<Service>.self, first, repeat each rest) {
        case .done(let service):
            return service
        case .pending(let pending):
            // Boxed by synchronous code: Swift 6.3.1 frees an async callee's
            // argument pack out of order (DESIGN.md, W2).
            return await pending.finish(TypedArgumentsBox<A, repeat each B>(first, repeat each rest))
        }
    }

    /// Resolves the service of a key from this container in async code, or nil where `resolveAsync` would stop.
    @inlinable
    @inline(__always)
    nonisolated(nonsending)
    public final func optionalAsync<Service>(_ key: KeyPath<ResolverKeys, ResolverKey<Service>>) async -> Service? {
        await Resolver.finish(Resolver.keyed(key, in: self, AsyncStartPath<Service>.self))
    }

    /// Resolves the service of a key with arguments from this container in async code, or nil where
    /// `resolveAsync` would stop.
    @inlinable
    @inline(__always)
    nonisolated(nonsending)
    public final func optionalAsync<Service, A, each B>(_ key: KeyPath<ResolverKeys, ResolverKey<Service, A, repeat each B>>,
        arguments first: A, _ rest: repeat each B) async -> Service? {
        switch Resolver.keyed(key, in: self, AsyncStartPath<Service>.self, first, repeat each rest) {
        case .done(let service):
            return service
        case .pending(let pending):
            return await pending.finish(TypedArgumentsBox<A, repeat each B>(first, repeat each rest))
        }
    }

    /// A key's resolve from `container` (nil: `root`) along `path`.
    @inlinable
    @inline(__always)
    static func keyed<Service, Path: ResolvePath>(_ key: KeyPath<ResolverKeys, ResolverKey<Service>>, in container: Resolver?,
                                                 _ path: Path.Type) -> Path.Result where Path.Service == Service {
        let site = ResolverKeys()[keyPath: key].site
        return resolveKey(site, in: container, .none, path) { declareKey(key, declaredAt: site) }
    }

    /// A key's resolve with arguments from `container` (nil: `root`) along `path`.
    @inlinable
    @inline(__always)
    static func keyed<Service, A, each B, Path: ResolvePath>(_ key: KeyPath<ResolverKeys, ResolverKey<Service, A, repeat each B>>,
                                                            in container: Resolver?, _ path: Path.Type,
                                                            _ first: A, _ rest: repeat each B) -> Path.Result
        where Path.Service == Service {
        let site = ResolverKeys()[keyPath: key].site
        return withTypedArguments(first, repeat each rest) { arguments in
            resolveKey(site, in: container, arguments, path) { declareKey(key, declaredAt: site) }
        }
    }

    /// The end of a key's `resolveAsync` without arguments: a main-actor or async registration awaited.
    @inlinable
    nonisolated(nonsending)
    static func finish<Service>(_ step: AsyncStep<Service>) async -> Service? {
        switch step {
        case .done(let service):
            return service
        case .pending(let pending):
            return await pending.finish(nil)
        }
    }

    // MARK: - Overriding

    /// Registers another factory for a key, in the task's root (`main` outside a test):
    /// `Resolver.register(\.api) { MockAPI() }`.
    ///
    /// The factory's type is the key's: it returns the key's service and takes its arguments, or the
    /// call does not compile. The override keeps the key's scope (chain ``ResolverOptions/scope(_:)``
    /// to change it), not its contexts; it is found where a registration would be (this container, its
    /// children, `withRoot`), and the key's own factory everywhere else. Overrides take the plain
    /// shapes, `{ … }` and `{ r in … }`, and the same on the main actor, whatever the key's factory.
    ///
    /// - Parameters:
    ///   - key: the key, a property of ``ResolverKeys``.
    ///   - fileID: where the call is (`#fileID`); leave it out.
    ///   - line: the call's line (`#line`); leave it out.
    ///   - factory: makes the service from the key's arguments.
    /// - Returns: options for the new registration (scope, contexts, …).
    @inlinable
    @discardableResult
    public static func register<Service, each Argument>(_ key: KeyPath<ResolverKeys, ResolverKey<Service, repeat each Argument>>,
                                                        fileID: StaticString = #fileID, line: UInt = #line,
                                                        factory: @escaping (repeat each Argument) -> Service)
        -> ResolverOptions<Service> {
        overrideKey(key, .taking(arguments: factory), in: nil, RegistrationSite(fileID, line))
    }

    /// Registers another factory for a key, given the resolving container, in the task's root:
    /// `Resolver.register(\.store) { r in MockStore(api: r.resolve(\.api)) }`.
    @inlinable
    @discardableResult
    public static func register<Service, each Argument>(_ key: KeyPath<ResolverKeys, ResolverKey<Service, repeat each Argument>>,
                                                        fileID: StaticString = #fileID, line: UInt = #line,
                                                        factory: @escaping (Resolver, repeat each Argument) -> Service)
        -> ResolverOptions<Service> {
        overrideKey(key, .taking(resolver: factory), in: nil, RegistrationSite(fileID, line))
    }
}

extension Resolver.Registrar {
    /// Registers another factory for a key in this container: `container.register(\.api) { MockAPI() }`
    /// (see the static `register(_:fileID:line:factory:)`).
    @inlinable
    @discardableResult
    public func callAsFunction<Service, each Argument>(_ key: KeyPath<ResolverKeys, ResolverKey<Service, repeat each Argument>>,
                                                       fileID: StaticString = #fileID, line: UInt = #line,
                                                       factory: @escaping (repeat each Argument) -> Service)
        -> ResolverOptions<Service> {
        Resolver.overrideKey(key, .taking(arguments: factory), in: container, RegistrationSite(fileID, line))
    }

    /// Registers another factory for a key in this container, given the resolving container.
    @inlinable
    @discardableResult
    public func callAsFunction<Service, each Argument>(_ key: KeyPath<ResolverKeys, ResolverKey<Service, repeat each Argument>>,
                                                       fileID: StaticString = #fileID, line: UInt = #line,
                                                       factory: @escaping (Resolver, repeat each Argument) -> Service)
        -> ResolverOptions<Service> {
        Resolver.overrideKey(key, .taking(resolver: factory), in: container, RegistrationSite(fileID, line))
    }
}

extension Resolver {
    // MARK: - Resetting

    /// Makes a key as declared again in `root` (the task's root in a test
    /// with one): removes the override registered there and drops the key's
    /// instances, whatever its scope, where resolves from `root` find them
    /// (the test's own caches, for a test's root): `Resolver.reset(\.store)`,
    /// as Factory's `reset()` of one factory does. Overrides registered in
    /// the containers `root` falls back on stay.
    ///
    /// - Parameter key: the key, a property of ``ResolverKeys``.
    public static func reset<Service, each Argument>(_ key: KeyPath<ResolverKeys, ResolverKey<Service, repeat each Argument>>) {
        root.reset(key)
    }

    /// Makes a key as declared again in this container: removes the override registered here and
    /// drops the key's instances, whatever its scope, where resolves from this container find them.
    public final func reset<Service, each Argument>(_ key: KeyPath<ResolverKeys, ResolverKey<Service, repeat each Argument>>) {
        let own = Resolver.declareKey(key, declaredAt: ResolverKeys()[keyPath: key].site)
        Resolver.resetKey(own.name.unsafelyUnwrapped, Service.self, in: self, removingOverride: true)
    }
}

extension ResolverScope {
    /// Drops the instances of a key (every argument list of a key with
    /// arguments) that this scope keeps, and those the key's own scope keeps
    /// where resolves from `Resolver.root` find them, as Factory's
    /// `reset(.scope)` does: `ResolverScope.application.reset(\.store)`.
    /// The key's overrides stay; `Resolver.reset(\.key)` removes them too.
    ///
    /// - Parameter key: the key, a property of ``ResolverKeys``.
    public func reset<Service, each Argument>(_ key: KeyPath<ResolverKeys, ResolverKey<Service, repeat each Argument>>) {
        let own = Resolver.declareKey(key, declaredAt: ResolverKeys()[keyPath: key].site)
        Resolver.resetKey(own.name.unsafelyUnwrapped, Service.self, in: Resolver.root, removingOverride: false, also: self)
    }
}
