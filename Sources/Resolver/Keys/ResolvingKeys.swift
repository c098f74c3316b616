// Resolving, overriding and resetting through keys (`ResolverKey.swift`):
// `Resolver.resolve(\.store)`, `Resolver.resolve(\.noteList, arguments: 42,
// "en")`, `Resolver.optional(\.analytics)`, `await Resolver.resolveAsync(\.database)`,
// `Resolver.register(\.api) { MockAPI() }`, `ResolverScope.application.reset(\.store)`.
//
// Each entry point is one overload, generic over the key's arguments: a key
// without arguments is resolved without the `arguments:` label, a key with
// arguments with exactly its list, or the call does not compile. They are
// `@inline(__always)`, so that the compiler sees the key path where the app
// writes it and reads the key's getter directly (no key path is evaluated at
// run time).

extension Resolver {
    // MARK: - Resolving

    /// Resolves the service of a key from `root`: `Resolver.resolve(\.store)`,
    /// `Resolver.resolve(\.noteList, arguments: 42, "en")`. Stops the program
    /// when the key is promised and nothing registered it.
    ///
    /// - Parameters:
    ///   - key: the key, a property of ``ResolverKeys``.
    ///   - arguments: the key's arguments, of its types and in its order (none for a key without).
    @inlinable
    @inline(__always)
    public static func resolve<Service, each Argument>(_ key: KeyPath<ResolverKeys, ResolverKey<Service, repeat each Argument>>,
                                                       arguments: repeat each Argument) -> Service {
        let site = ResolverKeys()[keyPath: key].site
        while true {
            switch resolveKeyService(site, Service.self, in: nil, arguments: repeat each arguments) {
            case .resolved(let service?):
                return service
            case .resolved(nil):
                keyNotResolved(site, Service.self, in: nil)
            case .undeclared:
                declareKey(key, site)
            }
        }
    }

    /// Resolves the service of a key from this container (and its
    /// children), else the key's own registration: `container.resolve(\.store)`.
    ///
    /// - Parameters:
    ///   - key: the key, a property of ``ResolverKeys``.
    ///   - arguments: the key's arguments, of its types and in its order (none for a key without).
    @inlinable
    @inline(__always)
    public final func resolve<Service, each Argument>(_ key: KeyPath<ResolverKeys, ResolverKey<Service, repeat each Argument>>,
                                                      arguments: repeat each Argument) -> Service {
        let site = ResolverKeys()[keyPath: key].site
        while true {
            switch Resolver.resolveKeyService(site, Service.self, in: self, arguments: repeat each arguments) {
            case .resolved(let service?):
                return service
            case .resolved(nil):
                Resolver.keyNotResolved(site, Service.self, in: self)
            case .undeclared:
                Resolver.declareKey(key, site)
            }
        }
    }

    /// Resolves the service of a key from `root`, or nil where `resolve`
    /// would stop (a promised key nothing registered):
    /// `Resolver.optional(\.analytics)`.
    ///
    /// - Parameters:
    ///   - key: the key, a property of ``ResolverKeys``.
    ///   - arguments: the key's arguments, of its types and in its order (none for a key without).
    @inlinable
    @inline(__always)
    public static func optional<Service, each Argument>(_ key: KeyPath<ResolverKeys, ResolverKey<Service, repeat each Argument>>,
                                                        arguments: repeat each Argument) -> Service? {
        let site = ResolverKeys()[keyPath: key].site
        while true {
            switch resolveKeyService(site, Service.self, in: nil, arguments: repeat each arguments) {
            case .resolved(let service):
                return service
            case .undeclared:
                declareKey(key, site)
            }
        }
    }

    /// Resolves the service of a key from this container (and its
    /// children), else the key's own registration, or nil where `resolve`
    /// would stop.
    ///
    /// - Parameters:
    ///   - key: the key, a property of ``ResolverKeys``.
    ///   - arguments: the key's arguments, of its types and in its order (none for a key without).
    @inlinable
    @inline(__always)
    public final func optional<Service, each Argument>(_ key: KeyPath<ResolverKeys, ResolverKey<Service, repeat each Argument>>,
                                                       arguments: repeat each Argument) -> Service? {
        let site = ResolverKeys()[keyPath: key].site
        while true {
            switch Resolver.resolveKeyService(site, Service.self, in: self, arguments: repeat each arguments) {
            case .resolved(let service):
                return service
            case .undeclared:
                Resolver.declareKey(key, site)
            }
        }
    }

    /// Resolves the service of a key from `root` in async code, whatever
    /// its factory: `await Resolver.resolveAsync(\.database)`. An async
    /// factory is awaited, a `@MainActor` one runs on the main actor (the
    /// call hops there), a plain one as a synchronous resolve would.
    ///
    /// - Parameters:
    ///   - key: the key, a property of ``ResolverKeys``.
    ///   - arguments: the key's arguments, of its types and in its order (none for a key without).
    @inlinable
    @inline(__always)
    nonisolated(nonsending)
    public static func resolveAsync<Service, each Argument>(_ key: KeyPath<ResolverKeys, ResolverKey<Service, repeat each Argument>>,
                                                            arguments: repeat each Argument) async -> Service {
        let site = ResolverKeys()[keyPath: key].site
        while true {
            switch await resolveKeyServiceAsync(site, Service.self, in: nil, arguments: repeat each arguments) {
            case .resolved(let service?):
                return service
            case .resolved(nil):
                keyNotResolved(site, Service.self, in: nil)
            case .undeclared:
                declareKey(key, site)
            }
        }
    }

    /// Resolves the service of a key from this container in async code
    /// (see the static `resolveAsync`).
    ///
    /// - Parameters:
    ///   - key: the key, a property of ``ResolverKeys``.
    ///   - arguments: the key's arguments, of its types and in its order (none for a key without).
    @inlinable
    @inline(__always)
    nonisolated(nonsending)
    public final func resolveAsync<Service, each Argument>(_ key: KeyPath<ResolverKeys, ResolverKey<Service, repeat each Argument>>,
                                                           arguments: repeat each Argument) async -> Service {
        let site = ResolverKeys()[keyPath: key].site
        while true {
            switch await Resolver.resolveKeyServiceAsync(site, Service.self, in: self, arguments: repeat each arguments) {
            case .resolved(let service?):
                return service
            case .resolved(nil):
                Resolver.keyNotResolved(site, Service.self, in: self)
            case .undeclared:
                Resolver.declareKey(key, site)
            }
        }
    }

    /// Resolves the service of a key from `root` in async code, or nil
    /// where `resolveAsync` would stop.
    ///
    /// - Parameters:
    ///   - key: the key, a property of ``ResolverKeys``.
    ///   - arguments: the key's arguments, of its types and in its order (none for a key without).
    @inlinable
    @inline(__always)
    nonisolated(nonsending)
    public static func optionalAsync<Service, each Argument>(_ key: KeyPath<ResolverKeys, ResolverKey<Service, repeat each Argument>>,
                                                             arguments: repeat each Argument) async -> Service? {
        let site = ResolverKeys()[keyPath: key].site
        while true {
            switch await resolveKeyServiceAsync(site, Service.self, in: nil, arguments: repeat each arguments) {
            case .resolved(let service):
                return service
            case .undeclared:
                declareKey(key, site)
            }
        }
    }

    /// Resolves the service of a key from this container in async code, or
    /// nil where `resolveAsync` would stop.
    ///
    /// - Parameters:
    ///   - key: the key, a property of ``ResolverKeys``.
    ///   - arguments: the key's arguments, of its types and in its order (none for a key without).
    @inlinable
    @inline(__always)
    nonisolated(nonsending)
    public final func optionalAsync<Service, each Argument>(_ key: KeyPath<ResolverKeys, ResolverKey<Service, repeat each Argument>>,
                                                            arguments: repeat each Argument) async -> Service? {
        let site = ResolverKeys()[keyPath: key].site
        while true {
            switch await Resolver.resolveKeyServiceAsync(site, Service.self, in: self, arguments: repeat each arguments) {
            case .resolved(let service):
                return service
            case .undeclared:
                Resolver.declareKey(key, site)
            }
        }
    }

    // MARK: - Overriding

    /// Registers another factory for a key, in `main`: `Resolver.register(\.api) { MockAPI() }`.
    ///
    /// The factory's type is the key's: it returns the key's service and
    /// takes its arguments, or the call does not compile. The override
    /// keeps the key's scope (chain ``ResolverOptions/scope(_:)`` to change
    /// it), not its contexts; it is found where a registration would be
    /// (this container, its children, `withRoot`), and the key's own
    /// factory everywhere else. Its factory is a plain one whatever the
    /// key's (two shapes only, so that every `register { … }` of an app
    /// type-checks as fast as before): a mock of a main-actor service is
    /// made with `{ MainActor.assumeIsolated { MockSettings() } }`, resolved
    /// on the main actor.
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
        registerKey(declaredKey(key), .plain(factory), Service.self, repeat (each Argument).self, in: nil,
                    RegistrationSite(fileID, line))
    }

    /// Registers another factory for a key, given the resolving container,
    /// in `main`: `Resolver.register(\.store) { r in MockStore(api: r.resolve(\.api)) }`.
    ///
    /// - Parameters:
    ///   - key: the key, a property of ``ResolverKeys``.
    ///   - fileID: where the call is (`#fileID`); leave it out.
    ///   - line: the call's line (`#line`); leave it out.
    ///   - factory: makes the service from the container and the key's arguments.
    /// - Returns: options for the new registration (scope, contexts, …).
    @inlinable
    @discardableResult
    public static func register<Service, each Argument>(_ key: KeyPath<ResolverKeys, ResolverKey<Service, repeat each Argument>>,
                                                        fileID: StaticString = #fileID, line: UInt = #line,
                                                        factory: @escaping (Resolver, repeat each Argument) -> Service)
        -> ResolverOptions<Service> {
        registerKey(declaredKey(key), .withResolver(factory), Service.self, repeat (each Argument).self, in: nil,
                    RegistrationSite(fileID, line))
    }
}

extension Resolver.Registrar {
    /// Registers another factory for a key in this container:
    /// `container.register(\.api) { MockAPI() }` (see the static
    /// `register(_:fileID:line:factory:)`).
    ///
    /// - Parameters:
    ///   - key: the key, a property of ``ResolverKeys``.
    ///   - fileID: where the call is (`#fileID`); leave it out.
    ///   - line: the call's line (`#line`); leave it out.
    ///   - factory: makes the service from the key's arguments.
    /// - Returns: options for the new registration (scope, contexts, …).
    @inlinable
    @discardableResult
    public func callAsFunction<Service, each Argument>(_ key: KeyPath<ResolverKeys, ResolverKey<Service, repeat each Argument>>,
                                                       fileID: StaticString = #fileID, line: UInt = #line,
                                                       factory: @escaping (repeat each Argument) -> Service)
        -> ResolverOptions<Service> {
        Resolver.registerKey(Resolver.declaredKey(key), .plain(factory), Service.self, repeat (each Argument).self,
                             in: container, RegistrationSite(fileID, line))
    }

    /// Registers another factory for a key in this container, given the
    /// resolving container: `container.register(\.store) { r in MockStore(api: r.resolve(\.api)) }`.
    ///
    /// - Parameters:
    ///   - key: the key, a property of ``ResolverKeys``.
    ///   - fileID: where the call is (`#fileID`); leave it out.
    ///   - line: the call's line (`#line`); leave it out.
    ///   - factory: makes the service from the container and the key's arguments.
    /// - Returns: options for the new registration (scope, contexts, …).
    @inlinable
    @discardableResult
    public func callAsFunction<Service, each Argument>(_ key: KeyPath<ResolverKeys, ResolverKey<Service, repeat each Argument>>,
                                                       fileID: StaticString = #fileID, line: UInt = #line,
                                                       factory: @escaping (Resolver, repeat each Argument) -> Service)
        -> ResolverOptions<Service> {
        Resolver.registerKey(Resolver.declaredKey(key), .withResolver(factory), Service.self, repeat (each Argument).self,
                             in: container, RegistrationSite(fileID, line))
    }
}

extension ResolverScope {
    /// Drops the instances this scope keeps for a key (every argument list
    /// of a key with arguments): `ResolverScope.application.reset(\.store)`.
    /// As ``reset(_:name:)`` does for a service and name.
    ///
    /// - Parameter key: the key, a property of ``ResolverKeys``.
    public func reset<Service, each Argument>(_ key: KeyPath<ResolverKeys, ResolverKey<Service, repeat each Argument>>) {
        resetEntry(Service.self, name: KeyName.registrationName(ResolverKeys()[keyPath: key].site))
    }
}
