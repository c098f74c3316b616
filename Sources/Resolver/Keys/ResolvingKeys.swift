// Resolving, overriding and resetting through keys (`ResolverKey.swift`):
// `Resolver.resolve(\.store)`, `Resolver.resolve(\.noteList, arguments: 42,
// "en")`, `Resolver.optional(\.analytics)`, `await Resolver.resolveAsync(\.database)`,
// `Resolver.register(\.api) { MockAPI() }`, `ResolverScope.application.reset(\.store)`.
//
// Each resolving entry point has two overloads: for a key without arguments,
// and for a key with arguments, which takes exactly its list. A call that
// passes a key's arguments wrongly fails to compile with a message that names
// the key's type or its list (`cannot convert ... KeyPath<ResolverKeys,
// ResolverKey<NoteListViewModel, Int, String>> ...`), which one overload over
// the whole argument pack did not say. They are `@inline(__always)`, so that
// the compiler sees the key path where the app writes it and calls the key's
// getter directly (no key path is evaluated at run time).

extension Resolver {
    // MARK: - Resolving

    /// Resolves the service of a key from `root`: `Resolver.resolve(\.store)`.
    /// Stops the program when the key is promised and nothing registered it.
    ///
    /// - Parameter key: the key, a property of ``ResolverKeys``.
    @inlinable
    @inline(__always)
    public static func resolve<Service>(_ key: KeyPath<ResolverKeys, ResolverKey<Service>>) -> Service {
        let site = ResolverKeys()[keyPath: key].site
        while true {
            switch resolveKeyService(site, Service.self, in: nil) {
            case .resolved(let service?):
                return service
            case .resolved(nil):
                keyNotResolved(site, Service.self, in: nil)
            case .undeclared:
                declareKey(key, site)
            }
        }
    }

    /// Resolves the service of a key with arguments from `root`, passing
    /// them to its factory: `Resolver.resolve(\.noteList, arguments: 42, "en")`.
    /// The arguments must be the key's, in its order, or the call does not
    /// compile.
    ///
    /// - Parameters:
    ///   - key: the key, a property of ``ResolverKeys``.
    ///   - first: the key's first argument.
    ///   - rest: its others, if any.
    @inlinable
    @inline(__always)
    public static func resolve<Service, A, each B>(_ key: KeyPath<ResolverKeys, ResolverKey<Service, A, repeat each B>>,
        arguments first: A, _ rest: repeat each B) -> Service {
        let site = ResolverKeys()[keyPath: key].site
        while true {
            switch resolveKeyService(site, Service.self, in: nil, arguments: first, repeat each rest) {
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
    /// - Parameter key: the key, a property of ``ResolverKeys``.
    @inlinable
    @inline(__always)
    public final func resolve<Service>(_ key: KeyPath<ResolverKeys, ResolverKey<Service>>) -> Service {
        let site = ResolverKeys()[keyPath: key].site
        while true {
            switch Resolver.resolveKeyService(site, Service.self, in: self) {
            case .resolved(let service?):
                return service
            case .resolved(nil):
                Resolver.keyNotResolved(site, Service.self, in: self)
            case .undeclared:
                Resolver.declareKey(key, site)
            }
        }
    }

    /// Resolves the service of a key with arguments from this container (and
    /// its children), else the key's own registration.
    ///
    /// - Parameters:
    ///   - key: the key, a property of ``ResolverKeys``.
    ///   - first: the key's first argument.
    ///   - rest: its others, if any.
    @inlinable
    @inline(__always)
    public final func resolve<Service, A, each B>(_ key: KeyPath<ResolverKeys, ResolverKey<Service, A, repeat each B>>,
        arguments first: A, _ rest: repeat each B) -> Service {
        let site = ResolverKeys()[keyPath: key].site
        while true {
            switch Resolver.resolveKeyService(site, Service.self, in: self, arguments: first, repeat each rest) {
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
    /// would stop (a promised key nothing registered): `Resolver.optional(\.analytics)`.
    ///
    /// - Parameter key: the key, a property of ``ResolverKeys``.
    @inlinable
    @inline(__always)
    public static func optional<Service>(_ key: KeyPath<ResolverKeys, ResolverKey<Service>>) -> Service? {
        let site = ResolverKeys()[keyPath: key].site
        while true {
            switch resolveKeyService(site, Service.self, in: nil) {
            case .resolved(let service):
                return service
            case .undeclared:
                declareKey(key, site)
            }
        }
    }

    /// Resolves the service of a key with arguments from `root`, or nil
    /// where `resolve` would stop.
    ///
    /// - Parameters:
    ///   - key: the key, a property of ``ResolverKeys``.
    ///   - first: the key's first argument.
    ///   - rest: its others, if any.
    @inlinable
    @inline(__always)
    public static func optional<Service, A, each B>(_ key: KeyPath<ResolverKeys, ResolverKey<Service, A, repeat each B>>,
        arguments first: A, _ rest: repeat each B) -> Service? {
        let site = ResolverKeys()[keyPath: key].site
        while true {
            switch resolveKeyService(site, Service.self, in: nil, arguments: first, repeat each rest) {
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
    /// - Parameter key: the key, a property of ``ResolverKeys``.
    @inlinable
    @inline(__always)
    public final func optional<Service>(_ key: KeyPath<ResolverKeys, ResolverKey<Service>>) -> Service? {
        let site = ResolverKeys()[keyPath: key].site
        while true {
            switch Resolver.resolveKeyService(site, Service.self, in: self) {
            case .resolved(let service):
                return service
            case .undeclared:
                Resolver.declareKey(key, site)
            }
        }
    }

    /// Resolves the service of a key with arguments from this container,
    /// or nil where `resolve` would stop.
    ///
    /// - Parameters:
    ///   - key: the key, a property of ``ResolverKeys``.
    ///   - first: the key's first argument.
    ///   - rest: its others, if any.
    @inlinable
    @inline(__always)
    public final func optional<Service, A, each B>(_ key: KeyPath<ResolverKeys, ResolverKey<Service, A, repeat each B>>,
        arguments first: A, _ rest: repeat each B) -> Service? {
        let site = ResolverKeys()[keyPath: key].site
        while true {
            switch Resolver.resolveKeyService(site, Service.self, in: self, arguments: first, repeat each rest) {
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
    /// - Parameter key: the key, a property of ``ResolverKeys``.
    @inlinable
    @inline(__always)
    nonisolated(nonsending)
    public static func resolveAsync<Service>(_ key: KeyPath<ResolverKeys, ResolverKey<Service>>) async -> Service {
        let site = ResolverKeys()[keyPath: key].site
        while true {
            switch startKeyServiceAsync(site, Service.self, in: nil) {
            case .resolved(.done(let service?)):
                return service
            case .resolved(.done(nil)):
                keyNotResolved(site, Service.self, in: nil)
            case .resolved(.pending(let pending)):
                if let service = await pending.finish(boxedKeyArguments()) {
                    return service
                }
                keyNotResolved(site, Service.self, in: nil)
            case .undeclared:
                declareKey(key, site)
            }
        }
    }

    /// Resolves the service of a key with arguments from `root` in async
    /// code (see `resolveAsync(_:)`).
    ///
    /// - Parameters:
    ///   - key: the key, a property of ``ResolverKeys``.
    ///   - first: the key's first argument.
    ///   - rest: its others, if any.
    @inlinable
    @inline(__always)
    nonisolated(nonsending)
    public static func resolveAsync<Service, A, each B>(_ key: KeyPath<ResolverKeys, ResolverKey<Service, A, repeat each B>>,
        arguments first: A, _ rest: repeat each B) async -> Service {
        let site = ResolverKeys()[keyPath: key].site
        while true {
            switch startKeyServiceAsync(site, Service.self, in: nil, arguments: first, repeat each rest) {
            case .resolved(.done(let service?)):
                return service
            case .resolved(.done(nil)):
                keyNotResolved(site, Service.self, in: nil)
            case .resolved(.pending(let pending)):
                if let service = await pending.finish(boxedKeyArguments(first, repeat each rest)) {
                    return service
                }
                keyNotResolved(site, Service.self, in: nil)
            case .undeclared:
                declareKey(key, site)
            }
        }
    }

    /// Resolves the service of a key from this container in async code
    /// (see the static `resolveAsync(_:)`).
    ///
    /// - Parameter key: the key, a property of ``ResolverKeys``.
    @inlinable
    @inline(__always)
    nonisolated(nonsending)
    public final func resolveAsync<Service>(_ key: KeyPath<ResolverKeys, ResolverKey<Service>>) async -> Service {
        let site = ResolverKeys()[keyPath: key].site
        while true {
            switch Resolver.startKeyServiceAsync(site, Service.self, in: self) {
            case .resolved(.done(let service?)):
                return service
            case .resolved(.done(nil)):
                Resolver.keyNotResolved(site, Service.self, in: self)
            case .resolved(.pending(let pending)):
                if let service = await pending.finish(Resolver.boxedKeyArguments()) {
                    return service
                }
                Resolver.keyNotResolved(site, Service.self, in: self)
            case .undeclared:
                Resolver.declareKey(key, site)
            }
        }
    }

    /// Resolves the service of a key with arguments from this container in
    /// async code.
    ///
    /// - Parameters:
    ///   - key: the key, a property of ``ResolverKeys``.
    ///   - first: the key's first argument.
    ///   - rest: its others, if any.
    @inlinable
    @inline(__always)
    nonisolated(nonsending)
    public final func resolveAsync<Service, A, each B>(_ key: KeyPath<ResolverKeys, ResolverKey<Service, A, repeat each B>>,
        arguments first: A, _ rest: repeat each B) async -> Service {
        let site = ResolverKeys()[keyPath: key].site
        while true {
            switch Resolver.startKeyServiceAsync(site, Service.self, in: self, arguments: first, repeat each rest) {
            case .resolved(.done(let service?)):
                return service
            case .resolved(.done(nil)):
                Resolver.keyNotResolved(site, Service.self, in: self)
            case .resolved(.pending(let pending)):
                if let service = await pending.finish(Resolver.boxedKeyArguments(first, repeat each rest)) {
                    return service
                }
                Resolver.keyNotResolved(site, Service.self, in: self)
            case .undeclared:
                Resolver.declareKey(key, site)
            }
        }
    }

    /// Resolves the service of a key from `root` in async code, or nil
    /// where `resolveAsync` would stop.
    ///
    /// - Parameter key: the key, a property of ``ResolverKeys``.
    @inlinable
    @inline(__always)
    nonisolated(nonsending)
    public static func optionalAsync<Service>(_ key: KeyPath<ResolverKeys, ResolverKey<Service>>) async -> Service? {
        let site = ResolverKeys()[keyPath: key].site
        while true {
            switch startKeyServiceAsync(site, Service.self, in: nil) {
            case .resolved(.done(let service)):
                return service
            case .resolved(.pending(let pending)):
                return await pending.finish(boxedKeyArguments())
            case .undeclared:
                declareKey(key, site)
            }
        }
    }

    /// Resolves the service of a key with arguments from `root` in async
    /// code, or nil where `resolveAsync` would stop.
    ///
    /// - Parameters:
    ///   - key: the key, a property of ``ResolverKeys``.
    ///   - first: the key's first argument.
    ///   - rest: its others, if any.
    @inlinable
    @inline(__always)
    nonisolated(nonsending)
    public static func optionalAsync<Service, A, each B>(_ key: KeyPath<ResolverKeys, ResolverKey<Service, A, repeat each B>>,
        arguments first: A, _ rest: repeat each B) async -> Service? {
        let site = ResolverKeys()[keyPath: key].site
        while true {
            switch startKeyServiceAsync(site, Service.self, in: nil, arguments: first, repeat each rest) {
            case .resolved(.done(let service)):
                return service
            case .resolved(.pending(let pending)):
                return await pending.finish(boxedKeyArguments(first, repeat each rest))
            case .undeclared:
                declareKey(key, site)
            }
        }
    }

    /// Resolves the service of a key from this container in async code, or
    /// nil where `resolveAsync` would stop.
    ///
    /// - Parameter key: the key, a property of ``ResolverKeys``.
    @inlinable
    @inline(__always)
    nonisolated(nonsending)
    public final func optionalAsync<Service>(_ key: KeyPath<ResolverKeys, ResolverKey<Service>>) async -> Service? {
        let site = ResolverKeys()[keyPath: key].site
        while true {
            switch Resolver.startKeyServiceAsync(site, Service.self, in: self) {
            case .resolved(.done(let service)):
                return service
            case .resolved(.pending(let pending)):
                return await pending.finish(Resolver.boxedKeyArguments())
            case .undeclared:
                Resolver.declareKey(key, site)
            }
        }
    }

    /// Resolves the service of a key with arguments from this container in
    /// async code, or nil where `resolveAsync` would stop.
    ///
    /// - Parameters:
    ///   - key: the key, a property of ``ResolverKeys``.
    ///   - first: the key's first argument.
    ///   - rest: its others, if any.
    @inlinable
    @inline(__always)
    nonisolated(nonsending)
    public final func optionalAsync<Service, A, each B>(_ key: KeyPath<ResolverKeys, ResolverKey<Service, A, repeat each B>>,
        arguments first: A, _ rest: repeat each B) async -> Service? {
        let site = ResolverKeys()[keyPath: key].site
        while true {
            switch Resolver.startKeyServiceAsync(site, Service.self, in: self, arguments: first, repeat each rest) {
            case .resolved(.done(let service)):
                return service
            case .resolved(.pending(let pending)):
                return await pending.finish(Resolver.boxedKeyArguments(first, repeat each rest))
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
