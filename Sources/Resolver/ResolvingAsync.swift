// `resolveAsync` and `optionalAsync`: resolving from async code, whatever a
// registration's factory (DESIGN.md, "Actors and async factories"; the
// article Concurrency). The engine's async path is `Engine/Resolution/AsyncResolution.swift`.

extension Resolver {
    /// Resolves a `Service` from `root` in async code, whatever its factory:
    /// an async factory is awaited, a `@MainActor` factory runs on the main
    /// actor (the call hops there), a plain factory runs as a synchronous
    /// resolve would. Stops the program when none is registered (or its
    /// factory returns nil).
    ///
    /// It runs on the caller's actor (`nonisolated(nonsending)`): a cached
    /// instance costs about what a synchronous resolve costs, with no hop.
    ///
    /// - Parameters:
    ///   - type: the service type; inferred from the context when omitted.
    ///   - name: the registration's name.
    ///   - args: passed to the factory (``Args``), if any.
    @inlinable
    nonisolated(nonsending)
    public static func resolveAsync<Service>(_ type: Service.Type = Service.self, name: Resolver.Name? = .none,
                                             args: Any? = .none) async -> Service {
        if let service: Service = await resolveServiceAsync(in: nil, name: name, args: args) {
            return service
        }
        notResolved(Service.self, name: name, in: nil)
    }

    /// Resolves a `Service` from `root` in async code, or nil where
    /// `resolveAsync` would stop.
    ///
    /// - Parameters:
    ///   - type: the service type; inferred from the context when omitted.
    ///   - name: the registration's name.
    ///   - args: passed to the factory (``Args``), if any.
    @inlinable
    nonisolated(nonsending)
    public static func optionalAsync<Service>(_ type: Service.Type = Service.self, name: Resolver.Name? = .none,
                                              args: Any? = .none) async -> Service? {
        await resolveServiceAsync(in: nil, name: name, args: args)
    }

    /// Resolves a `Service` from this container (and its children) in async
    /// code (see the static `resolveAsync`).
    ///
    /// - Parameters:
    ///   - type: the service type; inferred from the context when omitted.
    ///   - name: the registration's name.
    ///   - args: passed to the factory (``Args``), if any.
    @inlinable
    nonisolated(nonsending)
    public final func resolveAsync<Service>(_ type: Service.Type = Service.self, name: Resolver.Name? = .none,
                                            args: Any? = .none) async -> Service {
        if let service: Service = await Resolver.resolveServiceAsync(in: self, name: name, args: args) {
            return service
        }
        Resolver.notResolved(Service.self, name: name, in: self)
    }

    /// Resolves a `Service` from this container (and its children) in async
    /// code, or nil where `resolveAsync` would stop.
    ///
    /// - Parameters:
    ///   - type: the service type; inferred from the context when omitted.
    ///   - name: the registration's name.
    ///   - args: passed to the factory (``Args``), if any.
    @inlinable
    nonisolated(nonsending)
    public final func optionalAsync<Service>(_ type: Service.Type = Service.self, name: Resolver.Name? = .none,
                                             args: Any? = .none) async -> Service? {
        await Resolver.resolveServiceAsync(in: self, name: name, args: args)
    }

    /// Resolves a `Service` registered with typed arguments from `root` in
    /// async code, whatever its factory (see `resolveAsync(_:name:args:)`):
    /// `await Resolver.resolveAsync(ProfileStore.self, arguments: 42)`. Stops
    /// where `resolve(_:name:arguments:_:)` stops.
    ///
    /// - Parameters:
    ///   - type: the service type; inferred from the context when omitted.
    ///   - name: the registration's name.
    ///   - first: the first argument.
    ///   - rest: the others, if any.
    @inlinable
    nonisolated(nonsending)
    public static func resolveAsync<Service, A, each B>(_ type: Service.Type = Service.self, name: Resolver.Name? = .none,
                                                        arguments first: A, _ rest: repeat each B) async -> Service {
        if let service: Service = await resolveServiceAsync(in: nil, name: name,
                                                            boxed: TypedArgumentsBox<A, repeat each B>(first, repeat each rest)) {
            return service
        }
        notResolved(Service.self, name: name, in: nil)
    }

    /// As `resolveAsync(_:name:arguments:_:)`, or nil where it would stop
    /// because nothing is registered or the factory returned nil.
    ///
    /// - Parameters: as `resolveAsync(_:name:arguments:_:)`.
    @inlinable
    nonisolated(nonsending)
    public static func optionalAsync<Service, A, each B>(_ type: Service.Type = Service.self, name: Resolver.Name? = .none,
                                                         arguments first: A, _ rest: repeat each B) async -> Service? {
        await resolveServiceAsync(in: nil, name: name, boxed: TypedArgumentsBox<A, repeat each B>(first, repeat each rest))
    }

    /// Resolves a `Service` registered with typed arguments from this
    /// container (and its children) in async code; see the static
    /// `resolveAsync(_:name:arguments:_:)`.
    ///
    /// - Parameters: as the static `resolveAsync(_:name:arguments:_:)`.
    @inlinable
    nonisolated(nonsending)
    public final func resolveAsync<Service, A, each B>(_ type: Service.Type = Service.self, name: Resolver.Name? = .none,
                                                       arguments first: A, _ rest: repeat each B) async -> Service {
        if let service: Service = await Resolver.resolveServiceAsync(in: self, name: name,
                                                                     boxed: TypedArgumentsBox<A, repeat each B>(first, repeat each rest)) {
            return service
        }
        Resolver.notResolved(Service.self, name: name, in: self)
    }

    /// As the instance `resolveAsync(_:name:arguments:_:)`, or nil.
    ///
    /// - Parameters: as the static `resolveAsync(_:name:arguments:_:)`.
    @inlinable
    nonisolated(nonsending)
    public final func optionalAsync<Service, A, each B>(_ type: Service.Type = Service.self, name: Resolver.Name? = .none,
                                                        arguments first: A, _ rest: repeat each B) async -> Service? {
        await Resolver.resolveServiceAsync(in: self, name: name, boxed: TypedArgumentsBox<A, repeat each B>(first, repeat each rest))
    }
}
