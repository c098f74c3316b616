// Every `register` overload: one per factory shape (no parameters, the
// container, the container and `Args`), each plain, `@MainActor` and async,
// static (into `main`) and on a container (the `callAsFunction` overloads of
// `Resolver.Registrar`, the value of a container's `register`: as methods, a
// call from a static context such as `registerAllServices` made the compiler
// try every one of them as a curried function, and reject it, at every
// registration). Each is one call into the one funnel,
// `Resolver.register(_:_:_:_:)`. The closure's type picks the
// overload: `{ @MainActor in … }` the main-actor one, `{ await … }` the async
// one.
//
// The parameters every overload shares:
// - `type`: the service type; inferred from the factory's result when
//   omitted (`register { Service() as Protocol }` registers `Protocol`).
// - `name`: register under this name; a named lookup never falls back to the
//   unnamed registration. Registering the same type and name again replaces
//   the earlier registration. Its default is spelled `.none`, not `nil`: a
//   `nil` literal default is type-checked again at every call that leaves the
//   argument out (two solver scopes per call, Benchmarks/README.md, make
//   bench-typecheck), `.none` is evaluated by the library. The same goes for
//   `resolve`, `optional`, `resolveAsync` and `implements`.
// - `isolation`: the caller's isolation (`#isolation`); leave it out. It
//   matters for a plain factory only: a plain factory registered from the
//   main actor may be isolated to it (a closure written in main-actor code
//   is), so the library says so if a synchronous resolve runs it elsewhere.
//   A `@MainActor` or async factory's isolation is part of its type, and
//   the overloads of those shapes (here, the typed-argument ones and
//   `register(into:)`'s) do not take the parameter: a `#isolation` default is
//   a macro expanded and type-checked at every call that picks the overload
//   (five solver scopes per call; Benchmarks/README.md, make bench-typecheck),
//   and the closure alone picks the overload either way
//   (Benchmarks/Scripts/overloads.py).
// - `fileID`, `line`: where the call is (`#fileID`, `#line`); leave them
//   out. Kept in the registration (`ResolverRegistration.registeredAt`) for
//   the messages that name it, `verify()`'s list of replaced registrations
//   and strict tests. Magic literals as defaults are filled in by the caller
//   with no type-checking of their own (unlike a macro such as `#isolation`):
//   make bench-typecheck.
// - `factory`: makes the service; returning nil counts as not registered.
//   A `@MainActor` factory runs on the main actor only (elsewhere a
//   synchronous resolve returns a cached instance or stops with a message;
//   `resolveAsync` hops there); an async factory runs through `resolveAsync`
//   only, and caching scopes build it once while the other askers suspend.
// Each returns the registration's options (scope, `implements`, …).

extension Resolver {
    /// Registers a factory with no parameters, in `main`: `register { NetworkService() as NetworkServicing }`.
    ///
    /// - Parameters:
    ///   - type: the service type; inferred from the factory's result when omitted.
    ///   - name: register under this name; a named lookup never falls back to the unnamed one.
    ///   - isolation: the caller's isolation (`#isolation`); leave it out. For a plain factory
    ///     registered from the main actor, the library says so if a synchronous resolve runs it
    ///     elsewhere; a `@MainActor` or async factory's isolation is part of its type.
    ///   - fileID: where the call is (`#fileID`); leave it out.
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

    /// Registers a factory that receives the resolving container, in `main`: `register { r in ViewModel(api: r.resolve()) }`.
    ///
    /// - Parameters:
    ///   - type: the service type; inferred from the factory's result when omitted.
    ///   - name: register under this name; a named lookup never falls back to the unnamed one.
    ///   - isolation: the caller's isolation (`#isolation`); leave it out. For a plain factory
    ///     registered from the main actor, the library says so if a synchronous resolve runs it
    ///     elsewhere; a `@MainActor` or async factory's isolation is part of its type.
    ///   - fileID: where the call is (`#fileID`); leave it out.
    ///   - line: the call's line (`#line`); leave it out.
    ///   - factory: makes the service; returning nil counts as not registered.
    /// - Returns: options for the new registration (scope, `implements`, …).
    @inlinable
    @discardableResult
    public static func register<Service>(_ type: Service.Type = Service.self, name: Resolver.Name? = .none,
                                         isolation: (any Actor)? = #isolation,
                                         fileID: StaticString = #fileID, line: UInt = #line,
                                         factory: @escaping ResolverFactoryResolver<Service>) -> ResolverOptions<Service> {
        register(nil, name, RegistrationSite(fileID, line), .resolver(factory), MainActorCheck.isMainActor(isolation))
    }

    /// Registers a factory that receives the container and the resolve call's arguments (``Args``), in `main`: `register { _, args in Session(user: args()) }`.
    ///
    /// - Parameters:
    ///   - type: the service type; inferred from the factory's result when omitted.
    ///   - name: register under this name; a named lookup never falls back to the unnamed one.
    ///   - isolation: the caller's isolation (`#isolation`); leave it out. For a plain factory
    ///     registered from the main actor, the library says so if a synchronous resolve runs it
    ///     elsewhere; a `@MainActor` or async factory's isolation is part of its type.
    ///   - fileID: where the call is (`#fileID`); leave it out.
    ///   - line: the call's line (`#line`); leave it out.
    ///   - factory: makes the service; returning nil counts as not registered.
    /// - Returns: options for the new registration (scope, `implements`, …).
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
    /// - Parameters:
    ///   - type: the service type; inferred from the factory's result when omitted.
    ///   - name: register under this name; a named lookup never falls back to the unnamed one.
    ///   - fileID: where the call is (`#fileID`); leave it out.
    ///   - line: the call's line (`#line`); leave it out.
    ///   - factory: makes the service; returning nil counts as not registered.
    /// - Returns: options for the new registration (scope, `implements`, …).
    @inlinable
    @discardableResult
    public static func register<Service>(_ type: Service.Type = Service.self, name: Resolver.Name? = .none,
                                         fileID: StaticString = #fileID, line: UInt = #line,
                                         factory: @escaping ResolverFactoryMainActor<Service>) -> ResolverOptions<Service> {
        register(nil, name, RegistrationSite(fileID, line), .mainActor({ _, _ in factory() }, takesArguments: false), false)
    }

    /// Registers a main-actor factory that receives the resolving container, in `main`: `register { @MainActor r in ProfileViewModel(settings: r.resolve()) }`.
    ///
    /// - Parameters:
    ///   - type: the service type; inferred from the factory's result when omitted.
    ///   - name: register under this name; a named lookup never falls back to the unnamed one.
    ///   - fileID: where the call is (`#fileID`); leave it out.
    ///   - line: the call's line (`#line`); leave it out.
    ///   - factory: makes the service; returning nil counts as not registered.
    /// - Returns: options for the new registration (scope, `implements`, …).
    @inlinable
    @discardableResult
    public static func register<Service>(_ type: Service.Type = Service.self, name: Resolver.Name? = .none,
                                         fileID: StaticString = #fileID, line: UInt = #line,
                                         factory: @escaping ResolverFactoryMainActorResolver<Service>) -> ResolverOptions<Service> {
        register(nil, name, RegistrationSite(fileID, line), .mainActor({ resolver, _ in factory(resolver) }, takesArguments: false), false)
    }

    /// Registers a main-actor factory that receives the container and the resolve call's arguments, in `main`: `register { @MainActor _, args in ProfileViewModel(user: args()) }`.
    ///
    /// - Parameters:
    ///   - type: the service type; inferred from the factory's result when omitted.
    ///   - name: register under this name; a named lookup never falls back to the unnamed one.
    ///   - fileID: where the call is (`#fileID`); leave it out.
    ///   - line: the call's line (`#line`); leave it out.
    ///   - factory: makes the service; returning nil counts as not registered.
    /// - Returns: options for the new registration (scope, `implements`, …).
    @inlinable
    @discardableResult
    public static func register<Service>(_ type: Service.Type = Service.self, name: Resolver.Name? = .none,
                                         fileID: StaticString = #fileID, line: UInt = #line,
                                         factory: @escaping ResolverFactoryMainActorArgumentsN<Service>) -> ResolverOptions<Service> {
        register(nil, name, RegistrationSite(fileID, line), .mainActor({ resolver, args in factory(resolver, Resolver.Args(args)) }, takesArguments: true), false)
    }

    /// Registers an async factory, in `main`: `register { await Store() }`.
    ///
    /// - Parameters:
    ///   - type: the service type; inferred from the factory's result when omitted.
    ///   - name: register under this name; a named lookup never falls back to the unnamed one.
    ///   - fileID: where the call is (`#fileID`); leave it out.
    ///   - line: the call's line (`#line`); leave it out.
    ///   - factory: makes the service; returning nil counts as not registered.
    /// - Returns: options for the new registration (scope, `implements`, …).
    @inlinable
    @discardableResult
    public static func register<Service>(_ type: Service.Type = Service.self, name: Resolver.Name? = .none,
                                         fileID: StaticString = #fileID, line: UInt = #line,
                                         factory: @escaping ResolverFactoryAsync<Service>) -> ResolverOptions<Service> {
        register(nil, name, RegistrationSite(fileID, line), .async({ _, _ in await factory() }, takesArguments: false), false)
    }

    /// Registers an async factory that receives the resolving container, in `main`: `register { r in await Store(api: r.resolve()) }`.
    ///
    /// - Parameters:
    ///   - type: the service type; inferred from the factory's result when omitted.
    ///   - name: register under this name; a named lookup never falls back to the unnamed one.
    ///   - fileID: where the call is (`#fileID`); leave it out.
    ///   - line: the call's line (`#line`); leave it out.
    ///   - factory: makes the service; returning nil counts as not registered.
    /// - Returns: options for the new registration (scope, `implements`, …).
    @inlinable
    @discardableResult
    public static func register<Service>(_ type: Service.Type = Service.self, name: Resolver.Name? = .none,
                                         fileID: StaticString = #fileID, line: UInt = #line,
                                         factory: @escaping ResolverFactoryAsyncResolver<Service>) -> ResolverOptions<Service> {
        register(nil, name, RegistrationSite(fileID, line), .async({ resolver, _ in await factory(resolver) }, takesArguments: false), false)
    }

    /// Registers an async factory that receives the container and the resolve call's arguments, in `main`: `register { _, args in await Store(path: args()) }`.
    ///
    /// - Parameters:
    ///   - type: the service type; inferred from the factory's result when omitted.
    ///   - name: register under this name; a named lookup never falls back to the unnamed one.
    ///   - fileID: where the call is (`#fileID`); leave it out.
    ///   - line: the call's line (`#line`); leave it out.
    ///   - factory: makes the service; returning nil counts as not registered.
    /// - Returns: options for the new registration (scope, `implements`, …).
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
    /// One or more arguments, of any types. A resolve whose argument list
    /// differs (in count or types) stops with a message that names both
    /// lists. A caching scope keeps one instance per argument list, so the
    /// arguments of a caching registration must be `Hashable` (`scope(_:)`
    /// stops otherwise).
    ///
    /// - Parameters:
    ///   - type: the service type; inferred from the factory's result when omitted.
    ///   - name: register under this name; a named lookup never falls back to the unnamed one.
    ///   - first: the type of the first argument.
    ///   - rest: the types of the others, if any.
    ///   - isolation: the caller's isolation (`#isolation`); leave it out (see the plain `register`).
    ///   - fileID: where the call is (`#fileID`); leave it out.
    ///   - line: the call's line (`#line`); leave it out.
    ///   - factory: makes the service from the resolving container and the arguments; returning
    ///     nil counts as not registered.
    /// - Returns: options for the new registration (scope, `implements`, …).
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
    ///
    /// - Parameters: as the plain `register(arguments:)`, without `isolation`; the factory runs on the main actor only.
    /// - Returns: options for the new registration (scope, `implements`, …).
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
    /// `register(arguments: Int.self) { r, id in await ProfileStore(id: id) }`, resolved with
    /// `await resolveAsync(ProfileStore.self, arguments: 42)`.
    ///
    /// - Parameters: as the plain `register(arguments:)`, without `isolation`; the factory runs through `resolveAsync` only.
    /// - Returns: options for the new registration (scope, `implements`, …).
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
    /// Registers a factory with no parameters, in this container: `register { NetworkService() as NetworkServicing }`.
    ///
    /// - Parameters:
    ///   - type: the service type; inferred from the factory's result when omitted.
    ///   - name: register under this name; a named lookup never falls back to the unnamed one.
    ///   - isolation: the caller's isolation (`#isolation`); leave it out. For a plain factory
    ///     registered from the main actor, the library says so if a synchronous resolve runs it
    ///     elsewhere; a `@MainActor` or async factory's isolation is part of its type.
    ///   - fileID: where the call is (`#fileID`); leave it out.
    ///   - line: the call's line (`#line`); leave it out.
    ///   - factory: makes the service; returning nil counts as not registered.
    /// - Returns: options for the new registration (scope, `implements`, …).
    @inlinable
    @discardableResult
    public func callAsFunction<Service>(_ type: Service.Type = Service.self, name: Resolver.Name? = .none,
                                        isolation: (any Actor)? = #isolation,
                                        fileID: StaticString = #fileID, line: UInt = #line,
                                        factory: @escaping ResolverFactory<Service>) -> ResolverOptions<Service> {
        Resolver.register(container, name, RegistrationSite(fileID, line), .plain(factory), MainActorCheck.isMainActor(isolation))
    }

    /// Registers a factory that receives the resolving container, in this container: `register { r in ViewModel(api: r.resolve()) }`.
    ///
    /// - Parameters:
    ///   - type: the service type; inferred from the factory's result when omitted.
    ///   - name: register under this name; a named lookup never falls back to the unnamed one.
    ///   - isolation: the caller's isolation (`#isolation`); leave it out. For a plain factory
    ///     registered from the main actor, the library says so if a synchronous resolve runs it
    ///     elsewhere; a `@MainActor` or async factory's isolation is part of its type.
    ///   - fileID: where the call is (`#fileID`); leave it out.
    ///   - line: the call's line (`#line`); leave it out.
    ///   - factory: makes the service; returning nil counts as not registered.
    /// - Returns: options for the new registration (scope, `implements`, …).
    @inlinable
    @discardableResult
    public func callAsFunction<Service>(_ type: Service.Type = Service.self, name: Resolver.Name? = .none,
                                        isolation: (any Actor)? = #isolation,
                                        fileID: StaticString = #fileID, line: UInt = #line,
                                        factory: @escaping ResolverFactoryResolver<Service>) -> ResolverOptions<Service> {
        Resolver.register(container, name, RegistrationSite(fileID, line), .resolver(factory), MainActorCheck.isMainActor(isolation))
    }

    /// Registers a factory that receives the container and the resolve call's arguments (``Args``), in this container: `register { _, args in Session(user: args()) }`.
    ///
    /// - Parameters:
    ///   - type: the service type; inferred from the factory's result when omitted.
    ///   - name: register under this name; a named lookup never falls back to the unnamed one.
    ///   - isolation: the caller's isolation (`#isolation`); leave it out. For a plain factory
    ///     registered from the main actor, the library says so if a synchronous resolve runs it
    ///     elsewhere; a `@MainActor` or async factory's isolation is part of its type.
    ///   - fileID: where the call is (`#fileID`); leave it out.
    ///   - line: the call's line (`#line`); leave it out.
    ///   - factory: makes the service; returning nil counts as not registered.
    /// - Returns: options for the new registration (scope, `implements`, …).
    @inlinable
    @discardableResult
    public func callAsFunction<Service>(_ type: Service.Type = Service.self, name: Resolver.Name? = .none,
                                        isolation: (any Actor)? = #isolation,
                                        fileID: StaticString = #fileID, line: UInt = #line,
                                        factory: @escaping ResolverFactoryArgumentsN<Service>) -> ResolverOptions<Service> {
        Resolver.register(container, name, RegistrationSite(fileID, line), .arguments(factory), MainActorCheck.isMainActor(isolation))
    }

    /// Registers a factory isolated to the main actor, in this container: `register { @MainActor in SettingsViewModel() }`.
    ///
    /// - Parameters:
    ///   - type: the service type; inferred from the factory's result when omitted.
    ///   - name: register under this name; a named lookup never falls back to the unnamed one.
    ///   - fileID: where the call is (`#fileID`); leave it out.
    ///   - line: the call's line (`#line`); leave it out.
    ///   - factory: makes the service; returning nil counts as not registered.
    /// - Returns: options for the new registration (scope, `implements`, …).
    @inlinable
    @discardableResult
    public func callAsFunction<Service>(_ type: Service.Type = Service.self, name: Resolver.Name? = .none,
                                        fileID: StaticString = #fileID, line: UInt = #line,
                                        factory: @escaping ResolverFactoryMainActor<Service>) -> ResolverOptions<Service> {
        Resolver.register(container, name, RegistrationSite(fileID, line), .mainActor({ _, _ in factory() }, takesArguments: false), false)
    }

    /// Registers a main-actor factory that receives the resolving container, in this container: `register { @MainActor r in ProfileViewModel(settings: r.resolve()) }`.
    ///
    /// - Parameters:
    ///   - type: the service type; inferred from the factory's result when omitted.
    ///   - name: register under this name; a named lookup never falls back to the unnamed one.
    ///   - fileID: where the call is (`#fileID`); leave it out.
    ///   - line: the call's line (`#line`); leave it out.
    ///   - factory: makes the service; returning nil counts as not registered.
    /// - Returns: options for the new registration (scope, `implements`, …).
    @inlinable
    @discardableResult
    public func callAsFunction<Service>(_ type: Service.Type = Service.self, name: Resolver.Name? = .none,
                                        fileID: StaticString = #fileID, line: UInt = #line,
                                        factory: @escaping ResolverFactoryMainActorResolver<Service>) -> ResolverOptions<Service> {
        Resolver.register(container, name, RegistrationSite(fileID, line), .mainActor({ resolver, _ in factory(resolver) }, takesArguments: false), false)
    }

    /// Registers a main-actor factory that receives the container and the resolve call's arguments, in this container: `register { @MainActor _, args in ProfileViewModel(user: args()) }`.
    ///
    /// - Parameters:
    ///   - type: the service type; inferred from the factory's result when omitted.
    ///   - name: register under this name; a named lookup never falls back to the unnamed one.
    ///   - fileID: where the call is (`#fileID`); leave it out.
    ///   - line: the call's line (`#line`); leave it out.
    ///   - factory: makes the service; returning nil counts as not registered.
    /// - Returns: options for the new registration (scope, `implements`, …).
    @inlinable
    @discardableResult
    public func callAsFunction<Service>(_ type: Service.Type = Service.self, name: Resolver.Name? = .none,
                                        fileID: StaticString = #fileID, line: UInt = #line,
                                        factory: @escaping ResolverFactoryMainActorArgumentsN<Service>) -> ResolverOptions<Service> {
        Resolver.register(container, name, RegistrationSite(fileID, line), .mainActor({ resolver, args in factory(resolver, Resolver.Args(args)) }, takesArguments: true), false)
    }

    /// Registers an async factory, in this container: `register { await Store() }`.
    ///
    /// - Parameters:
    ///   - type: the service type; inferred from the factory's result when omitted.
    ///   - name: register under this name; a named lookup never falls back to the unnamed one.
    ///   - fileID: where the call is (`#fileID`); leave it out.
    ///   - line: the call's line (`#line`); leave it out.
    ///   - factory: makes the service; returning nil counts as not registered.
    /// - Returns: options for the new registration (scope, `implements`, …).
    @inlinable
    @discardableResult
    public func callAsFunction<Service>(_ type: Service.Type = Service.self, name: Resolver.Name? = .none,
                                        fileID: StaticString = #fileID, line: UInt = #line,
                                        factory: @escaping ResolverFactoryAsync<Service>) -> ResolverOptions<Service> {
        Resolver.register(container, name, RegistrationSite(fileID, line), .async({ _, _ in await factory() }, takesArguments: false), false)
    }

    /// Registers an async factory that receives the resolving container, in this container: `register { r in await Store(api: r.resolve()) }`.
    ///
    /// - Parameters:
    ///   - type: the service type; inferred from the factory's result when omitted.
    ///   - name: register under this name; a named lookup never falls back to the unnamed one.
    ///   - fileID: where the call is (`#fileID`); leave it out.
    ///   - line: the call's line (`#line`); leave it out.
    ///   - factory: makes the service; returning nil counts as not registered.
    /// - Returns: options for the new registration (scope, `implements`, …).
    @inlinable
    @discardableResult
    public func callAsFunction<Service>(_ type: Service.Type = Service.self, name: Resolver.Name? = .none,
                                        fileID: StaticString = #fileID, line: UInt = #line,
                                        factory: @escaping ResolverFactoryAsyncResolver<Service>) -> ResolverOptions<Service> {
        Resolver.register(container, name, RegistrationSite(fileID, line), .async({ resolver, _ in await factory(resolver) }, takesArguments: false), false)
    }

    /// Registers an async factory that receives the container and the resolve call's arguments, in this container: `register { _, args in await Store(path: args()) }`.
    ///
    /// - Parameters:
    ///   - type: the service type; inferred from the factory's result when omitted.
    ///   - name: register under this name; a named lookup never falls back to the unnamed one.
    ///   - fileID: where the call is (`#fileID`); leave it out.
    ///   - line: the call's line (`#line`); leave it out.
    ///   - factory: makes the service; returning nil counts as not registered.
    /// - Returns: options for the new registration (scope, `implements`, …).
    @inlinable
    @discardableResult
    public func callAsFunction<Service>(_ type: Service.Type = Service.self, name: Resolver.Name? = .none,
                                        fileID: StaticString = #fileID, line: UInt = #line,
                                        factory: @escaping ResolverFactoryAsyncArgumentsN<Service>) -> ResolverOptions<Service> {
        Resolver.register(container, name, RegistrationSite(fileID, line), .async({ resolver, args in await factory(resolver, Resolver.Args(args)) }, takesArguments: true), false)
    }

    /// Registers a factory of typed arguments in this container (see the
    /// static `register(arguments:)`).
    ///
    /// - Parameters: as the static `register(arguments:)`.
    /// - Returns: options for the new registration (scope, `implements`, …).
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
    ///
    /// - Parameters: as the static `register(arguments:)`, without `isolation`; the factory runs on the main actor only.
    /// - Returns: options for the new registration (scope, `implements`, …).
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
    ///
    /// - Parameters: as the static `register(arguments:)`, without `isolation`; the factory runs through `resolveAsync` only.
    /// - Returns: options for the new registration (scope, `implements`, …).
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
    /// Registers factories in this container: `container.register { Service() }`,
    /// `container.register(name: "fred") { r in Service(r.resolve()) }`, with
    /// the same shapes as the static `register` (the ``Registrar``'s
    /// `callAsFunction` overloads). A value rather than methods: called from a
    /// static context (`registerAllServices`), `register { … }` then never
    /// considers the instance overloads as curried functions, which the
    /// compiler would try, and reject, for every registration.
    public final var register: Registrar {
        Registrar(container: self)
    }

    /// The value of a container's `register`: calling it registers a factory
    /// in that container (`container.register { Service() }`), with every
    /// shape the static `register` takes.
    public struct Registrar: Sendable {
        /// The container the factories are registered in.
        @usableFromInline let container: Resolver

        @inlinable
        init(container: Resolver) {
            self.container = container
        }
    }
}
