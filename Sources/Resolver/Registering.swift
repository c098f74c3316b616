// Every `register` overload: a factory shape (no parameters, the container,
// the container and `Args`, typed arguments), plain, `@MainActor` or async,
// static (into `main`) or on a container. The container's are the
// `callAsFunction` overloads of `Resolver.Registrar`, the value of its
// `register`: as methods, a call from a static context such as
// `registerAllServices` made the compiler try each as a curried function, and
// reject it, at every registration. Each is one call into the funnel,
// `Resolver.register(_:_:_:_:_:_:_:)`; the closure's type picks the overload.
//
// What each default costs the type checker at every call (Benchmarks/README.md,
// make bench-typecheck):
// - `name: .none`, not `nil`: a `nil` literal default is type-checked again
//   at each call that leaves it out (two solver scopes); `.none` is evaluated
//   by the library. So for `resolve`, `optional`, `resolveAsync`, `implements`.
// - `isolation: #isolation` is a macro expanded and type-checked at each call
//   (five solver scopes), so only the plain shapes take it: a `@MainActor` or
//   async factory's isolation is its type's, and the closure alone picks the
//   overload either way (Benchmarks/Scripts/overloads.py).
// - `fileID`, `line` are magic literals, filled in by the caller with no
//   type-checking of their own (DESIGN.md, "Contexts, strict tests and where
//   registrations were made").

extension Resolver {
    /// Registers a factory with no parameters in `main`: `register { NetworkService() as NetworkServicing }`.
    ///
    /// The other shapes (given the container, given its arguments; `@MainActor`, async) take the
    /// same parameters, the `@MainActor` and async ones without `isolation`.
    ///
    /// - Parameters:
    ///   - type: the service type; inferred from the factory's result when omitted
    ///     (`register { Service() as Protocol }` registers `Protocol`).
    ///   - name: register under this name; a named lookup never falls back to the unnamed
    ///     registration. Registering a type and name again replaces the registration.
    ///   - isolation: the caller's isolation (`#isolation`); leave it out. A plain factory
    ///     registered on the main actor may be isolated to it: the library says so if a
    ///     synchronous resolve runs it elsewhere.
    ///   - fileID: where the call is (`#fileID`), for messages, `verify()` and strict tests; leave it out.
    ///   - line: the call's line (`#line`); leave it out.
    ///   - factory: makes the service; returning nil counts as not registered.
    /// - Returns: options for the new registration (scope, `implements`, …).
    @inlinable
    @discardableResult
    public static func register<Service>(_ type: Service.Type = Service.self, name: Resolver.Name? = .none,
                                         isolation: (any Actor)? = #isolation,
                                         fileID: StaticString = #fileID, line: UInt = #line,
                                         factory: @escaping ResolverFactory<Service>) -> ResolverOptions<Service> {
        register(nil, name, RegistrationSite(fileID, line), .plain(factory), MainActorCheck.isMainActor(isolation))
    }

    /// Registers a factory given the resolving container, in `main`: `register { r in ViewModel(api: r.resolve()) }`.
    @inlinable
    @discardableResult
    public static func register<Service>(_ type: Service.Type = Service.self, name: Resolver.Name? = .none,
                                         isolation: (any Actor)? = #isolation,
                                         fileID: StaticString = #fileID, line: UInt = #line,
                                         factory: @escaping ResolverFactoryResolver<Service>) -> ResolverOptions<Service> {
        register(nil, name, RegistrationSite(fileID, line), .givenResolver(factory), MainActorCheck.isMainActor(isolation))
    }

    /// Registers a factory given the container and the resolve call's arguments (``Args``), in `main`:
    /// `register { _, args in Session(user: args()) }`.
    @inlinable
    @discardableResult
    public static func register<Service>(_ type: Service.Type = Service.self, name: Resolver.Name? = .none,
                                         isolation: (any Actor)? = #isolation,
                                         fileID: StaticString = #fileID, line: UInt = #line,
                                         factory: @escaping ResolverFactoryArgumentsN<Service>) -> ResolverOptions<Service> {
        register(nil, name, RegistrationSite(fileID, line), .arguments(factory), MainActorCheck.isMainActor(isolation))
    }

    /// Registers a factory isolated to the main actor, in `main`: `register { @MainActor in SettingsViewModel() }`.
    ///
    /// It runs on the main actor only: elsewhere a synchronous resolve returns a cached instance or
    /// stops with a message, and `resolveAsync` hops there.
    @inlinable
    @discardableResult
    public static func register<Service>(_ type: Service.Type = Service.self, name: Resolver.Name? = .none,
                                         fileID: StaticString = #fileID, line: UInt = #line,
                                         factory: @escaping ResolverFactoryMainActor<Service>) -> ResolverOptions<Service> {
        register(nil, name, RegistrationSite(fileID, line), .mainActor({ _, _ in factory() }, takesArguments: false), false)
    }

    /// Registers a main-actor factory given the resolving container, in `main`:
    /// `register { @MainActor r in ProfileViewModel(settings: r.resolve()) }`.
    @inlinable
    @discardableResult
    public static func register<Service>(_ type: Service.Type = Service.self, name: Resolver.Name? = .none,
                                         fileID: StaticString = #fileID, line: UInt = #line,
                                         factory: @escaping ResolverFactoryMainActorResolver<Service>) -> ResolverOptions<Service> {
        register(nil, name, RegistrationSite(fileID, line), .mainActor({ resolver, _ in factory(resolver) }, takesArguments: false), false)
    }

    /// Registers a main-actor factory given the container and the resolve call's arguments, in `main`:
    /// `register { @MainActor _, args in ProfileViewModel(user: args()) }`.
    @inlinable
    @discardableResult
    public static func register<Service>(_ type: Service.Type = Service.self, name: Resolver.Name? = .none,
                                         fileID: StaticString = #fileID, line: UInt = #line,
                                         factory: @escaping ResolverFactoryMainActorArgumentsN<Service>) -> ResolverOptions<Service> {
        register(nil, name, RegistrationSite(fileID, line), .mainActor({ resolver, args in factory(resolver, Resolver.Args(args)) }, takesArguments: true), false)
    }

    /// Registers an async factory, in `main`: `register { await Store() }`.
    ///
    /// It runs through `resolveAsync` only (a synchronous resolve returns a cached instance or stops
    /// with a message), and a caching scope builds it once while the other askers suspend.
    @inlinable
    @discardableResult
    public static func register<Service>(_ type: Service.Type = Service.self, name: Resolver.Name? = .none,
                                         fileID: StaticString = #fileID, line: UInt = #line,
                                         factory: @escaping ResolverFactoryAsync<Service>) -> ResolverOptions<Service> {
        register(nil, name, RegistrationSite(fileID, line), .async({ _, _ in await factory() }, takesArguments: false), false)
    }

    /// Registers an async factory given the resolving container, in `main`: `register { r in await Store(api: r.resolve()) }`.
    @inlinable
    @discardableResult
    public static func register<Service>(_ type: Service.Type = Service.self, name: Resolver.Name? = .none,
                                         fileID: StaticString = #fileID, line: UInt = #line,
                                         factory: @escaping ResolverFactoryAsyncResolver<Service>) -> ResolverOptions<Service> {
        register(nil, name, RegistrationSite(fileID, line), .async({ resolver, _ in await factory(resolver) }, takesArguments: false), false)
    }

    /// Registers an async factory given the container and the resolve call's arguments, in `main`:
    /// `register { _, args in await Store(path: args()) }`.
    @inlinable
    @discardableResult
    public static func register<Service>(_ type: Service.Type = Service.self, name: Resolver.Name? = .none,
                                         fileID: StaticString = #fileID, line: UInt = #line,
                                         factory: @escaping ResolverFactoryAsyncArgumentsN<Service>) -> ResolverOptions<Service> {
        register(nil, name, RegistrationSite(fileID, line), .async({ resolver, args in await factory(resolver, Resolver.Args(args)) }, takesArguments: true), false)
    }

    /// Registers a factory of typed arguments, in `main`:
    /// `register(arguments: Int.self, String.self) { r, id, name in UserViewModel(id: id, name: name) }`,
    /// resolved with `resolve(UserViewModel.self, arguments: 42, "ada")`.
    ///
    /// `arguments` lists the types the factory takes after the container: one or more, of any
    /// types. A resolve whose argument list differs (in count or types) stops with a message that
    /// names both lists. A caching scope keeps one instance per argument list, so the arguments
    /// of a caching registration must be `Hashable` (`scope(_:)` stops otherwise). The other
    /// parameters are those of `register(_:name:isolation:fileID:line:factory:)`.
    @inlinable
    @discardableResult
    public static func register<Service, A, each B>(_ type: Service.Type = Service.self, name: Resolver.Name? = .none,
                                                    arguments first: A.Type, _ rest: repeat (each B).Type,
                                                    isolation: (any Actor)? = #isolation,
                                                    fileID: StaticString = #fileID, line: UInt = #line,
                                                    factory: @escaping (_ resolver: Resolver, _ first: A, _ rest: repeat each B) -> Service?)
        -> ResolverOptions<Service> {
        register(nil, name, RegistrationSite(fileID, line), .taking(resolver: factory),
                 MainActorCheck.isMainActor(isolation), ArgumentList(first, repeat (each B).self))
    }

    /// Registers a main-actor factory of typed arguments, in `main`:
    /// `register(arguments: User.self) { @MainActor r, user in ProfileViewModel(user: user) }`.
    @inlinable
    @discardableResult
    public static func register<Service, A, each B>(_ type: Service.Type = Service.self, name: Resolver.Name? = .none,
                                                    arguments first: A.Type, _ rest: repeat (each B).Type,
                                                    fileID: StaticString = #fileID, line: UInt = #line,
                                                    factory: @escaping @MainActor (_ resolver: Resolver, _ first: A, _ rest: repeat each B) -> Service?)
        -> ResolverOptions<Service> {
        register(nil, name, RegistrationSite(fileID, line), .onMainActor(resolver: factory), false, ArgumentList(first, repeat (each B).self))
    }

    /// Registers an async factory of typed arguments, in `main`:
    /// `register(arguments: Int.self) { r, id in await ProfileStore(id: id) }`, resolved with `await resolveAsync(ProfileStore.self, arguments: 42)`.
    @inlinable
    @discardableResult
    public static func register<Service, A, each B>(_ type: Service.Type = Service.self, name: Resolver.Name? = .none,
                                                    arguments first: A.Type, _ rest: repeat (each B).Type,
                                                    fileID: StaticString = #fileID, line: UInt = #line,
                                                    factory: @escaping (_ resolver: Resolver, _ first: A, _ rest: repeat each B) async -> Service?)
        -> ResolverOptions<Service> {
        register(nil, name, RegistrationSite(fileID, line), .awaiting(resolver: factory), false, ArgumentList(first, repeat (each B).self))
    }
}

extension Resolver.Registrar {
    /// Registers a factory with no parameters in this container, as the static `register(_:name:isolation:fileID:line:factory:)` does in `main`.
    @inlinable
    @discardableResult
    public func callAsFunction<Service>(_ type: Service.Type = Service.self, name: Resolver.Name? = .none,
                                        isolation: (any Actor)? = #isolation,
                                        fileID: StaticString = #fileID, line: UInt = #line,
                                        factory: @escaping ResolverFactory<Service>) -> ResolverOptions<Service> {
        Resolver.register(container, name, RegistrationSite(fileID, line), .plain(factory), MainActorCheck.isMainActor(isolation))
    }

    /// Registers a factory given the resolving container, in this container.
    @inlinable
    @discardableResult
    public func callAsFunction<Service>(_ type: Service.Type = Service.self, name: Resolver.Name? = .none,
                                        isolation: (any Actor)? = #isolation,
                                        fileID: StaticString = #fileID, line: UInt = #line,
                                        factory: @escaping ResolverFactoryResolver<Service>) -> ResolverOptions<Service> {
        Resolver.register(container, name, RegistrationSite(fileID, line), .givenResolver(factory), MainActorCheck.isMainActor(isolation))
    }

    /// Registers a factory given the container and the resolve call's arguments, in this container.
    @inlinable
    @discardableResult
    public func callAsFunction<Service>(_ type: Service.Type = Service.self, name: Resolver.Name? = .none,
                                        isolation: (any Actor)? = #isolation,
                                        fileID: StaticString = #fileID, line: UInt = #line,
                                        factory: @escaping ResolverFactoryArgumentsN<Service>) -> ResolverOptions<Service> {
        Resolver.register(container, name, RegistrationSite(fileID, line), .arguments(factory), MainActorCheck.isMainActor(isolation))
    }

    /// Registers a factory isolated to the main actor, in this container.
    @inlinable
    @discardableResult
    public func callAsFunction<Service>(_ type: Service.Type = Service.self, name: Resolver.Name? = .none,
                                        fileID: StaticString = #fileID, line: UInt = #line,
                                        factory: @escaping ResolverFactoryMainActor<Service>) -> ResolverOptions<Service> {
        Resolver.register(container, name, RegistrationSite(fileID, line), .mainActor({ _, _ in factory() }, takesArguments: false), false)
    }

    /// Registers a main-actor factory given the resolving container, in this container.
    @inlinable
    @discardableResult
    public func callAsFunction<Service>(_ type: Service.Type = Service.self, name: Resolver.Name? = .none,
                                        fileID: StaticString = #fileID, line: UInt = #line,
                                        factory: @escaping ResolverFactoryMainActorResolver<Service>) -> ResolverOptions<Service> {
        Resolver.register(container, name, RegistrationSite(fileID, line), .mainActor({ resolver, _ in factory(resolver) }, takesArguments: false), false)
    }

    /// Registers a main-actor factory given the container and the resolve call's arguments, in this container.
    @inlinable
    @discardableResult
    public func callAsFunction<Service>(_ type: Service.Type = Service.self, name: Resolver.Name? = .none,
                                        fileID: StaticString = #fileID, line: UInt = #line,
                                        factory: @escaping ResolverFactoryMainActorArgumentsN<Service>) -> ResolverOptions<Service> {
        Resolver.register(container, name, RegistrationSite(fileID, line), .mainActor({ resolver, args in factory(resolver, Resolver.Args(args)) }, takesArguments: true), false)
    }

    /// Registers an async factory, in this container.
    @inlinable
    @discardableResult
    public func callAsFunction<Service>(_ type: Service.Type = Service.self, name: Resolver.Name? = .none,
                                        fileID: StaticString = #fileID, line: UInt = #line,
                                        factory: @escaping ResolverFactoryAsync<Service>) -> ResolverOptions<Service> {
        Resolver.register(container, name, RegistrationSite(fileID, line), .async({ _, _ in await factory() }, takesArguments: false), false)
    }

    /// Registers an async factory given the resolving container, in this container.
    @inlinable
    @discardableResult
    public func callAsFunction<Service>(_ type: Service.Type = Service.self, name: Resolver.Name? = .none,
                                        fileID: StaticString = #fileID, line: UInt = #line,
                                        factory: @escaping ResolverFactoryAsyncResolver<Service>) -> ResolverOptions<Service> {
        Resolver.register(container, name, RegistrationSite(fileID, line), .async({ resolver, _ in await factory(resolver) }, takesArguments: false), false)
    }

    /// Registers an async factory given the container and the resolve call's arguments, in this container.
    @inlinable
    @discardableResult
    public func callAsFunction<Service>(_ type: Service.Type = Service.self, name: Resolver.Name? = .none,
                                        fileID: StaticString = #fileID, line: UInt = #line,
                                        factory: @escaping ResolverFactoryAsyncArgumentsN<Service>) -> ResolverOptions<Service> {
        Resolver.register(container, name, RegistrationSite(fileID, line), .async({ resolver, args in await factory(resolver, Resolver.Args(args)) }, takesArguments: true), false)
    }

    /// Registers a factory of typed arguments in this container, as the static `register(_:name:arguments:_:isolation:fileID:line:factory:)` does in `main`.
    @inlinable
    @discardableResult
    public func callAsFunction<Service, A, each B>(_ type: Service.Type = Service.self, name: Resolver.Name? = .none,
                                                   arguments first: A.Type, _ rest: repeat (each B).Type,
                                                   isolation: (any Actor)? = #isolation,
                                                   fileID: StaticString = #fileID, line: UInt = #line,
                                                   factory: @escaping (_ resolver: Resolver, _ first: A, _ rest: repeat each B) -> Service?)
        -> ResolverOptions<Service> {
        Resolver.register(container, name, RegistrationSite(fileID, line), .taking(resolver: factory),
                          MainActorCheck.isMainActor(isolation), ArgumentList(first, repeat (each B).self))
    }

    /// Registers a main-actor factory of typed arguments in this container.
    @inlinable
    @discardableResult
    public func callAsFunction<Service, A, each B>(_ type: Service.Type = Service.self, name: Resolver.Name? = .none,
                                                   arguments first: A.Type, _ rest: repeat (each B).Type,
                                                   fileID: StaticString = #fileID, line: UInt = #line,
                                                   factory: @escaping @MainActor (_ resolver: Resolver, _ first: A, _ rest: repeat each B) -> Service?)
        -> ResolverOptions<Service> {
        Resolver.register(container, name, RegistrationSite(fileID, line), .onMainActor(resolver: factory), false,
                          ArgumentList(first, repeat (each B).self))
    }

    /// Registers an async factory of typed arguments in this container.
    @inlinable
    @discardableResult
    public func callAsFunction<Service, A, each B>(_ type: Service.Type = Service.self, name: Resolver.Name? = .none,
                                                   arguments first: A.Type, _ rest: repeat (each B).Type,
                                                   fileID: StaticString = #fileID, line: UInt = #line,
                                                   factory: @escaping (_ resolver: Resolver, _ first: A, _ rest: repeat each B) async -> Service?)
        -> ResolverOptions<Service> {
        Resolver.register(container, name, RegistrationSite(fileID, line), .awaiting(resolver: factory), false,
                          ArgumentList(first, repeat (each B).self))
    }
}

extension Resolver {
    /// Registers factories in this container, with the shapes of the static `register`:
    /// `container.register { Service() }`, `container.register(name: "fred") { r in Service(r.resolve()) }`.
    public final var register: Registrar {
        Registrar(container: self)
    }

    /// The value of a container's `register`: its `callAsFunction` overloads register in that container.
    public struct Registrar: Sendable {
        @usableFromInline let container: Resolver

        @inlinable
        init(container: Resolver) {
            self.container = container
        }
    }
}
