// `resolveAsync` and `optionalAsync`: resolving from async code, whatever a registration's
// factory (DESIGN.md, "Actors and async factories"; `Engine/Resolution/AsyncResolution.swift`).

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

    /// Resolves a `Service` from `root` in async code, or nil where `resolveAsync(_:name:args:)` would stop.
    @inlinable
    nonisolated(nonsending)
    public static func optionalAsync<Service>(_ type: Service.Type = Service.self, name: Resolver.Name? = .none,
                                              args: Any? = .none) async -> Service? {
        await resolveServiceAsync(in: nil, name: name, args: args)
    }

    /// As the static `resolveAsync(_:name:args:)`, from this container (and its children).
    @inlinable
    nonisolated(nonsending)
    public final func resolveAsync<Service>(_ type: Service.Type = Service.self, name: Resolver.Name? = .none,
                                            args: Any? = .none) async -> Service {
        if let service: Service = await Resolver.resolveServiceAsync(in: self, name: name, args: args) {
            return service
        }
        Resolver.notResolved(Service.self, name: name, in: self)
    }

    /// As the static `optionalAsync(_:name:args:)`, from this container (and its children).
    @inlinable
    nonisolated(nonsending)
    public final func optionalAsync<Service>(_ type: Service.Type = Service.self, name: Resolver.Name? = .none,
                                             args: Any? = .none) async -> Service? {
        await Resolver.resolveServiceAsync(in: self, name: name, args: args)
    }

    /// Resolves a `Service` registered with typed arguments from `root` in async code, whatever its
    /// factory (as `resolveAsync(_:name:args:)`): `await Resolver.resolveAsync(ProfileStore.self, arguments: 42)`.
    /// Stops where `resolve(_:name:arguments:_:)` stops.
    @inlinable
    nonisolated(nonsending)
    public static func resolveAsync<Service, A, each B>(_ type: Service.Type = Service.self, name: Resolver.Name? = .none,
                                                        arguments first: A, _ rest: repeat each B) async -> Service {
        if let service: Service = await resolveServiceAsync(in: nil, name: name,
                                                            args: TypedArgumentsBox<A, repeat each B>(first, repeat each rest)) {
            return service
        }
        notResolved(Service.self, name: name, in: nil)
    }

    /// As `resolveAsync(_:name:arguments:_:)`, or nil where it would stop because nothing is registered or the factory returned nil.
    @inlinable
    nonisolated(nonsending)
    public static func optionalAsync<Service, A, each B>(_ type: Service.Type = Service.self, name: Resolver.Name? = .none,
                                                         arguments first: A, _ rest: repeat each B) async -> Service? {
        await resolveServiceAsync(in: nil, name: name, args: TypedArgumentsBox<A, repeat each B>(first, repeat each rest))
    }

    /// As the static `resolveAsync(_:name:arguments:_:)`, from this container (and its children).
    @inlinable
    nonisolated(nonsending)
    public final func resolveAsync<Service, A, each B>(_ type: Service.Type = Service.self, name: Resolver.Name? = .none,
                                                       arguments first: A, _ rest: repeat each B) async -> Service {
        if let service: Service = await Resolver.resolveServiceAsync(in: self, name: name,
                                                                     args: TypedArgumentsBox<A, repeat each B>(first, repeat each rest)) {
            return service
        }
        Resolver.notResolved(Service.self, name: name, in: self)
    }

    /// As the static `optionalAsync(_:name:arguments:_:)`, from this container (and its children).
    @inlinable
    nonisolated(nonsending)
    public final func optionalAsync<Service, A, each B>(_ type: Service.Type = Service.self, name: Resolver.Name? = .none,
                                                        arguments first: A, _ rest: repeat each B) async -> Service? {
        await Resolver.resolveServiceAsync(in: self, name: name, args: TypedArgumentsBox<A, repeat each B>(first, repeat each rest))
    }
}
