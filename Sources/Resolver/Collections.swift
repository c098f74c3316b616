// Every `register(into:)` overload: a factory shape (no parameters, the container), plain, `@MainActor` or
// async, static (into `main`) or on a container, each one call into the register funnel
// (`Engine/Registrations/Resolver+Register.swift`). The `into:` label keeps them apart from `register`'s own
// overloads, so an ordinary `register { … }` call has none of them to consider. What a resolve of
// `[Element]` gives: DESIGN.md, "Collections", and the first overload's doc.

extension Resolver {
    /// Adds an element, made by a factory with no parameters, to the list of `[Element]` in `main`:
    /// `register(into: [any Plugin].self) { LoggingPlugin() }`.
    ///
    /// A resolve of `[Element]` from a container gives the elements of every container its lookup searches
    /// (itself, then its children, depth first): those of the containers it falls back on first, each
    /// container's in the order added, each element through its own scope (`.application` keeps one per
    /// element); the list is assembled anew on every resolve. A plain `[Element]` registration met on the
    /// way stands for the elements there and ends the search, as it would end a lookup; in one container,
    /// the last registration under the key wins.
    ///
    /// The other shapes (given the container; `@MainActor`, async) take the same parameters, the
    /// `@MainActor` and async ones without `isolation`.
    ///
    /// - Parameters:
    ///   - list: the list's type, `[Element].self`.
    ///   - name: the list's name; elements added under a name make a list of their own.
    ///   - isolation: the caller's isolation (`#isolation`); leave it out. For a plain factory registered
    ///     from the main actor, the library says so if a synchronous resolve runs it elsewhere; a
    ///     `@MainActor` or async factory's isolation is part of its type.
    ///   - fileID: where the call is (`#fileID`); leave it out.
    ///   - line: the call's line (`#line`); leave it out.
    ///   - factory: makes the element; returning nil leaves it out of the list.
    /// - Returns: options for the element (its scope, `resolveProperties`, …).
    @inlinable
    @discardableResult
    public static func register<Element>(into list: [Element].Type, name: Resolver.Name? = .none,
                                         isolation: (any Actor)? = #isolation,
                                         fileID: StaticString = #fileID, line: UInt = #line,
                                         factory: @escaping ResolverFactory<Element>) -> ResolverOptions<Element> {
        register(nil, name, RegistrationSite(fileID, line), .plain(factory), MainActorCheck.isMainActor(isolation), nil, .element)
    }

    /// Adds an element, made by a factory that receives the resolving container, to the list of `[Element]`
    /// in `main`: `register(into: [any Plugin].self) { r in AnalyticsPlugin(api: r.resolve()) }`.
    @inlinable
    @discardableResult
    public static func register<Element>(into list: [Element].Type, name: Resolver.Name? = .none,
                                         isolation: (any Actor)? = #isolation,
                                         fileID: StaticString = #fileID, line: UInt = #line,
                                         factory: @escaping ResolverFactoryResolver<Element>) -> ResolverOptions<Element> {
        register(nil, name, RegistrationSite(fileID, line), .givenResolver(factory), MainActorCheck.isMainActor(isolation), nil, .element)
    }

    /// Adds an element, made by a factory isolated to the main actor, to the list of `[Element]` in `main`:
    /// `register(into: [any Plugin].self) { @MainActor in BannerPlugin() }`.
    @inlinable
    @discardableResult
    public static func register<Element>(into list: [Element].Type, name: Resolver.Name? = .none,
                                         fileID: StaticString = #fileID, line: UInt = #line,
                                         factory: @escaping ResolverFactoryMainActor<Element>) -> ResolverOptions<Element> {
        register(nil, name, RegistrationSite(fileID, line), .mainActor({ _, _ in factory() }, takesArguments: false), false, nil, .element)
    }

    /// Adds an element, made by a main-actor factory that receives the resolving container, to the list of
    /// `[Element]` in `main`:
    /// `register(into: [any Plugin].self) { @MainActor r in BannerPlugin(settings: r.resolve()) }`.
    @inlinable
    @discardableResult
    public static func register<Element>(into list: [Element].Type, name: Resolver.Name? = .none,
                                         fileID: StaticString = #fileID, line: UInt = #line,
                                         factory: @escaping ResolverFactoryMainActorResolver<Element>) -> ResolverOptions<Element> {
        register(nil, name, RegistrationSite(fileID, line), .mainActor({ resolver, _ in factory(resolver) }, takesArguments: false), false, nil, .element)
    }

    /// Adds an element, made by an async factory, to the list of `[Element]` in `main`:
    /// `register(into: [any Plugin].self) { await StorePlugin() }`.
    @inlinable
    @discardableResult
    public static func register<Element>(into list: [Element].Type, name: Resolver.Name? = .none,
                                         fileID: StaticString = #fileID, line: UInt = #line,
                                         factory: @escaping ResolverFactoryAsync<Element>) -> ResolverOptions<Element> {
        register(nil, name, RegistrationSite(fileID, line), .async({ _, _ in await factory() }, takesArguments: false), false, nil, .element)
    }

    /// Adds an element, made by an async factory that receives the resolving container, to the list of
    /// `[Element]` in `main`:
    /// `register(into: [any Plugin].self) { r in await StorePlugin(api: r.resolve()) }`.
    @inlinable
    @discardableResult
    public static func register<Element>(into list: [Element].Type, name: Resolver.Name? = .none,
                                         fileID: StaticString = #fileID, line: UInt = #line,
                                         factory: @escaping ResolverFactoryAsyncResolver<Element>) -> ResolverOptions<Element> {
        register(nil, name, RegistrationSite(fileID, line), .async({ resolver, _ in await factory(resolver) }, takesArguments: false), false, nil, .element)
    }
}

extension Resolver.Registrar {
    /// Adds an element, made by a factory with no parameters, to this container's list of `[Element]`:
    /// `register(into: [any Plugin].self) { LoggingPlugin() }`.
    ///
    /// As `Resolver.register(into:name:isolation:fileID:line:factory:)`, in this container.
    @inlinable
    @discardableResult
    public func callAsFunction<Element>(into list: [Element].Type, name: Resolver.Name? = .none,
                                        isolation: (any Actor)? = #isolation,
                                        fileID: StaticString = #fileID, line: UInt = #line,
                                        factory: @escaping ResolverFactory<Element>) -> ResolverOptions<Element> {
        Resolver.register(container, name, RegistrationSite(fileID, line), .plain(factory), MainActorCheck.isMainActor(isolation), nil, .element)
    }

    /// Adds an element, made by a factory that receives the resolving container, to this container's list
    /// of `[Element]`: `register(into: [any Plugin].self) { r in AnalyticsPlugin(api: r.resolve()) }`.
    @inlinable
    @discardableResult
    public func callAsFunction<Element>(into list: [Element].Type, name: Resolver.Name? = .none,
                                        isolation: (any Actor)? = #isolation,
                                        fileID: StaticString = #fileID, line: UInt = #line,
                                        factory: @escaping ResolverFactoryResolver<Element>) -> ResolverOptions<Element> {
        Resolver.register(container, name, RegistrationSite(fileID, line), .givenResolver(factory), MainActorCheck.isMainActor(isolation), nil, .element)
    }

    /// Adds an element, made by a factory isolated to the main actor, to this container's list of
    /// `[Element]`: `register(into: [any Plugin].self) { @MainActor in BannerPlugin() }`.
    @inlinable
    @discardableResult
    public func callAsFunction<Element>(into list: [Element].Type, name: Resolver.Name? = .none,
                                        fileID: StaticString = #fileID, line: UInt = #line,
                                        factory: @escaping ResolverFactoryMainActor<Element>) -> ResolverOptions<Element> {
        Resolver.register(container, name, RegistrationSite(fileID, line), .mainActor({ _, _ in factory() }, takesArguments: false), false, nil, .element)
    }

    /// Adds an element, made by a main-actor factory that receives the resolving container, to this
    /// container's list of `[Element]`:
    /// `register(into: [any Plugin].self) { @MainActor r in BannerPlugin(settings: r.resolve()) }`.
    @inlinable
    @discardableResult
    public func callAsFunction<Element>(into list: [Element].Type, name: Resolver.Name? = .none,
                                        fileID: StaticString = #fileID, line: UInt = #line,
                                        factory: @escaping ResolverFactoryMainActorResolver<Element>) -> ResolverOptions<Element> {
        Resolver.register(container, name, RegistrationSite(fileID, line), .mainActor({ resolver, _ in factory(resolver) }, takesArguments: false), false, nil, .element)
    }

    /// Adds an element, made by an async factory, to this container's list of `[Element]`:
    /// `register(into: [any Plugin].self) { await StorePlugin() }`.
    @inlinable
    @discardableResult
    public func callAsFunction<Element>(into list: [Element].Type, name: Resolver.Name? = .none,
                                        fileID: StaticString = #fileID, line: UInt = #line,
                                        factory: @escaping ResolverFactoryAsync<Element>) -> ResolverOptions<Element> {
        Resolver.register(container, name, RegistrationSite(fileID, line), .async({ _, _ in await factory() }, takesArguments: false), false, nil, .element)
    }

    /// Adds an element, made by an async factory that receives the resolving container, to this container's
    /// list of `[Element]`:
    /// `register(into: [any Plugin].self) { r in await StorePlugin(api: r.resolve()) }`.
    @inlinable
    @discardableResult
    public func callAsFunction<Element>(into list: [Element].Type, name: Resolver.Name? = .none,
                                        fileID: StaticString = #fileID, line: UInt = #line,
                                        factory: @escaping ResolverFactoryAsyncResolver<Element>) -> ResolverOptions<Element> {
        Resolver.register(container, name, RegistrationSite(fileID, line), .async({ resolver, _ in await factory(resolver) }, takesArguments: false), false, nil, .element)
    }
}
