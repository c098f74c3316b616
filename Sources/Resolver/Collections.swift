// Collections: many modules add elements to one list, and whoever needs the
// list resolves `[Element]`. Every `register(into:)` overload: one per
// factory shape (no parameters, the container), each plain, `@MainActor`
// and async, static (into `main`) and on a container. Each is one call into
// the register funnel (`Engine/Registrations/Resolver+Register.swift`). The `into:` label keeps
// them apart from `register`'s own overloads, so an ordinary `register { … }`
// call has none of them to consider.
//
// What a resolve of `[Element]` from a container gives (the engine's side is
// `Engine/Collections/`):
// - The containers are those a lookup from it searches: itself, then its
//   children in the order added, depth first, each once.
// - Each container contributes its own elements, in the order registered.
//   A container's part comes after its children's (theirs in the order the
//   children were added): parents first, in the words, since a
//   container's children are what it falls back on. For
//   `let feature = Resolver(child: app)`, `feature.resolve([Plugin].self)`
//   gives app's elements, then feature's; `app.resolve([Plugin].self)`
//   gives app's.
// - A plain registration of `[Element]` (`register { [A(), B()] as [Plugin] }`)
//   is found as a lookup finds any registration: where the walk reaches
//   one, its list stands for that container's elements and ends the walk,
//   so the containers a lookup would search after it add nothing. From its
//   own container, or from one that adds no elements, it is the answer, as
//   it is today; from a container that falls back on it, that container's
//   elements follow its list.
// - In one container, the last registration under the key wins, as always:
//   a plain `register` after elements replaces them there, and
//   `register(into:)` after a plain registration starts a new list there.
// - Each element is resolved through its own scope (`.application` keeps
//   one instance per element). An element whose factory returns nil is left
//   out. The list itself is assembled anew on every resolve.
// - With no registration of `[Element]` anywhere, `optional` gives nil and
//   `resolve` stops, as for any service.
//
// The parameters every overload shares:
// - `list`: the list's type, `[Element].self` (`[any Plugin].self`).
// - `name`: the list's name: elements added under a name make a list of
//   their own, resolved with `resolve([Element].self, name:)`.
// - `isolation`: the caller's isolation (`#isolation`); leave it out. Only
//   the plain shapes take it (see `Registering.swift`).
// - `factory`: makes the element; returning nil leaves it out of the list.
// Each returns the element's options: `.scope()` sets that element's scope,
// `.resolveProperties` runs on that element.

extension Resolver {
    /// Adds an element, made by a factory with no parameters, to the list of `[Element]` in `main`: `register(into: [any Plugin].self) { LoggingPlugin() }`.
    ///
    /// A resolve of `[Element]` from a container gives the elements of every container
    /// its lookup searches (itself, then its children, depth first): those of the
    /// containers it falls back on first, each container's in the order added, each
    /// element through its own scope. A plain `[Element]` registration met on the way
    /// stands for the elements there and ends the search, as it would end a lookup.
    ///
    /// - Parameters:
    ///   - list: the list's type, `[Element].self`.
    ///   - name: the list's name; elements added under a name make a list of their own.
    ///   - isolation: the caller's isolation (`#isolation`); leave it out. For a plain factory
    ///     registered from the main actor, the library says so if a synchronous resolve runs it
    ///     elsewhere; a `@MainActor` or async factory's isolation is part of its type.
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

    /// Adds an element, made by a factory that receives the resolving container, to the list of `[Element]` in `main`: `register(into: [any Plugin].self) { r in AnalyticsPlugin(api: r.resolve()) }`.
    ///
    /// A resolve of `[Element]` from a container gives the elements of every container
    /// its lookup searches (itself, then its children, depth first): those of the
    /// containers it falls back on first, each container's in the order added, each
    /// element through its own scope. A plain `[Element]` registration met on the way
    /// stands for the elements there and ends the search, as it would end a lookup.
    ///
    /// - Parameters:
    ///   - list: the list's type, `[Element].self`.
    ///   - name: the list's name; elements added under a name make a list of their own.
    ///   - isolation: the caller's isolation (`#isolation`); leave it out. For a plain factory
    ///     registered from the main actor, the library says so if a synchronous resolve runs it
    ///     elsewhere; a `@MainActor` or async factory's isolation is part of its type.
    ///   - fileID: where the call is (`#fileID`); leave it out.
    ///   - line: the call's line (`#line`); leave it out.
    ///   - factory: makes the element; returning nil leaves it out of the list.
    /// - Returns: options for the element (its scope, `resolveProperties`, …).
    @inlinable
    @discardableResult
    public static func register<Element>(into list: [Element].Type, name: Resolver.Name? = .none,
                                         isolation: (any Actor)? = #isolation,
                                         fileID: StaticString = #fileID, line: UInt = #line,
                                         factory: @escaping ResolverFactoryResolver<Element>) -> ResolverOptions<Element> {
        register(nil, name, RegistrationSite(fileID, line), .resolver(factory), MainActorCheck.isMainActor(isolation), nil, .element)
    }

    /// Adds an element, made by a factory isolated to the main actor, to the list of `[Element]` in `main`: `register(into: [any Plugin].self) { @MainActor in BannerPlugin() }`.
    ///
    /// A resolve of `[Element]` from a container gives the elements of every container
    /// its lookup searches (itself, then its children, depth first): those of the
    /// containers it falls back on first, each container's in the order added, each
    /// element through its own scope. A plain `[Element]` registration met on the way
    /// stands for the elements there and ends the search, as it would end a lookup.
    ///
    /// - Parameters:
    ///   - list: the list's type, `[Element].self`.
    ///   - name: the list's name; elements added under a name make a list of their own.
    ///   - fileID: where the call is (`#fileID`); leave it out.
    ///   - line: the call's line (`#line`); leave it out.
    ///   - factory: makes the element; returning nil leaves it out of the list.
    /// - Returns: options for the element (its scope, `resolveProperties`, …).
    @inlinable
    @discardableResult
    public static func register<Element>(into list: [Element].Type, name: Resolver.Name? = .none,
                                         fileID: StaticString = #fileID, line: UInt = #line,
                                         factory: @escaping ResolverFactoryMainActor<Element>) -> ResolverOptions<Element> {
        register(nil, name, RegistrationSite(fileID, line), .mainActor({ _, _ in factory() }, takesArguments: false), false, nil, .element)
    }

    /// Adds an element, made by a main-actor factory that receives the resolving container, to the list of `[Element]` in `main`: `register(into: [any Plugin].self) { @MainActor r in BannerPlugin(settings: r.resolve()) }`.
    ///
    /// A resolve of `[Element]` from a container gives the elements of every container
    /// its lookup searches (itself, then its children, depth first): those of the
    /// containers it falls back on first, each container's in the order added, each
    /// element through its own scope. A plain `[Element]` registration met on the way
    /// stands for the elements there and ends the search, as it would end a lookup.
    ///
    /// - Parameters:
    ///   - list: the list's type, `[Element].self`.
    ///   - name: the list's name; elements added under a name make a list of their own.
    ///   - fileID: where the call is (`#fileID`); leave it out.
    ///   - line: the call's line (`#line`); leave it out.
    ///   - factory: makes the element; returning nil leaves it out of the list.
    /// - Returns: options for the element (its scope, `resolveProperties`, …).
    @inlinable
    @discardableResult
    public static func register<Element>(into list: [Element].Type, name: Resolver.Name? = .none,
                                         fileID: StaticString = #fileID, line: UInt = #line,
                                         factory: @escaping ResolverFactoryMainActorResolver<Element>) -> ResolverOptions<Element> {
        register(nil, name, RegistrationSite(fileID, line), .mainActor({ resolver, _ in factory(resolver) }, takesArguments: false), false, nil, .element)
    }

    /// Adds an element, made by an async factory, to the list of `[Element]` in `main`: `register(into: [any Plugin].self) { await StorePlugin() }`.
    ///
    /// A resolve of `[Element]` from a container gives the elements of every container
    /// its lookup searches (itself, then its children, depth first): those of the
    /// containers it falls back on first, each container's in the order added, each
    /// element through its own scope. A plain `[Element]` registration met on the way
    /// stands for the elements there and ends the search, as it would end a lookup.
    ///
    /// - Parameters:
    ///   - list: the list's type, `[Element].self`.
    ///   - name: the list's name; elements added under a name make a list of their own.
    ///   - fileID: where the call is (`#fileID`); leave it out.
    ///   - line: the call's line (`#line`); leave it out.
    ///   - factory: makes the element; returning nil leaves it out of the list.
    /// - Returns: options for the element (its scope, `resolveProperties`, …).
    @inlinable
    @discardableResult
    public static func register<Element>(into list: [Element].Type, name: Resolver.Name? = .none,
                                         fileID: StaticString = #fileID, line: UInt = #line,
                                         factory: @escaping ResolverFactoryAsync<Element>) -> ResolverOptions<Element> {
        register(nil, name, RegistrationSite(fileID, line), .async({ _, _ in await factory() }, takesArguments: false), false, nil, .element)
    }

    /// Adds an element, made by an async factory that receives the resolving container, to the list of `[Element]` in `main`: `register(into: [any Plugin].self) { r in await StorePlugin(api: r.resolve()) }`.
    ///
    /// A resolve of `[Element]` from a container gives the elements of every container
    /// its lookup searches (itself, then its children, depth first): those of the
    /// containers it falls back on first, each container's in the order added, each
    /// element through its own scope. A plain `[Element]` registration met on the way
    /// stands for the elements there and ends the search, as it would end a lookup.
    ///
    /// - Parameters:
    ///   - list: the list's type, `[Element].self`.
    ///   - name: the list's name; elements added under a name make a list of their own.
    ///   - fileID: where the call is (`#fileID`); leave it out.
    ///   - line: the call's line (`#line`); leave it out.
    ///   - factory: makes the element; returning nil leaves it out of the list.
    /// - Returns: options for the element (its scope, `resolveProperties`, …).
    @inlinable
    @discardableResult
    public static func register<Element>(into list: [Element].Type, name: Resolver.Name? = .none,
                                         fileID: StaticString = #fileID, line: UInt = #line,
                                         factory: @escaping ResolverFactoryAsyncResolver<Element>) -> ResolverOptions<Element> {
        register(nil, name, RegistrationSite(fileID, line), .async({ resolver, _ in await factory(resolver) }, takesArguments: false), false, nil, .element)
    }

}

extension Resolver.Registrar {
    /// Adds an element, made by a factory with no parameters, to this container's list of `[Element]`: `register(into: [any Plugin].self) { LoggingPlugin() }`.
    ///
    /// A resolve of `[Element]` from a container gives the elements of every container
    /// its lookup searches (itself, then its children, depth first): those of the
    /// containers it falls back on first, each container's in the order added, each
    /// element through its own scope. A plain `[Element]` registration met on the way
    /// stands for the elements there and ends the search, as it would end a lookup.
    ///
    /// - Parameters:
    ///   - list: the list's type, `[Element].self`.
    ///   - name: the list's name; elements added under a name make a list of their own.
    ///   - isolation: the caller's isolation (`#isolation`); leave it out. For a plain factory
    ///     registered from the main actor, the library says so if a synchronous resolve runs it
    ///     elsewhere; a `@MainActor` or async factory's isolation is part of its type.
    ///   - fileID: where the call is (`#fileID`); leave it out.
    ///   - line: the call's line (`#line`); leave it out.
    ///   - factory: makes the element; returning nil leaves it out of the list.
    /// - Returns: options for the element (its scope, `resolveProperties`, …).
    @inlinable
    @discardableResult
    public func callAsFunction<Element>(into list: [Element].Type, name: Resolver.Name? = .none,
                                        isolation: (any Actor)? = #isolation,
                                        fileID: StaticString = #fileID, line: UInt = #line,
                                        factory: @escaping ResolverFactory<Element>) -> ResolverOptions<Element> {
        Resolver.register(container, name, RegistrationSite(fileID, line), .plain(factory), MainActorCheck.isMainActor(isolation), nil, .element)
    }

    /// Adds an element, made by a factory that receives the resolving container, to this container's list of `[Element]`: `register(into: [any Plugin].self) { r in AnalyticsPlugin(api: r.resolve()) }`.
    ///
    /// A resolve of `[Element]` from a container gives the elements of every container
    /// its lookup searches (itself, then its children, depth first): those of the
    /// containers it falls back on first, each container's in the order added, each
    /// element through its own scope. A plain `[Element]` registration met on the way
    /// stands for the elements there and ends the search, as it would end a lookup.
    ///
    /// - Parameters:
    ///   - list: the list's type, `[Element].self`.
    ///   - name: the list's name; elements added under a name make a list of their own.
    ///   - isolation: the caller's isolation (`#isolation`); leave it out. For a plain factory
    ///     registered from the main actor, the library says so if a synchronous resolve runs it
    ///     elsewhere; a `@MainActor` or async factory's isolation is part of its type.
    ///   - fileID: where the call is (`#fileID`); leave it out.
    ///   - line: the call's line (`#line`); leave it out.
    ///   - factory: makes the element; returning nil leaves it out of the list.
    /// - Returns: options for the element (its scope, `resolveProperties`, …).
    @inlinable
    @discardableResult
    public func callAsFunction<Element>(into list: [Element].Type, name: Resolver.Name? = .none,
                                        isolation: (any Actor)? = #isolation,
                                        fileID: StaticString = #fileID, line: UInt = #line,
                                        factory: @escaping ResolverFactoryResolver<Element>) -> ResolverOptions<Element> {
        Resolver.register(container, name, RegistrationSite(fileID, line), .resolver(factory), MainActorCheck.isMainActor(isolation), nil, .element)
    }

    /// Adds an element, made by a factory isolated to the main actor, to this container's list of `[Element]`: `register(into: [any Plugin].self) { @MainActor in BannerPlugin() }`.
    ///
    /// A resolve of `[Element]` from a container gives the elements of every container
    /// its lookup searches (itself, then its children, depth first): those of the
    /// containers it falls back on first, each container's in the order added, each
    /// element through its own scope. A plain `[Element]` registration met on the way
    /// stands for the elements there and ends the search, as it would end a lookup.
    ///
    /// - Parameters:
    ///   - list: the list's type, `[Element].self`.
    ///   - name: the list's name; elements added under a name make a list of their own.
    ///   - fileID: where the call is (`#fileID`); leave it out.
    ///   - line: the call's line (`#line`); leave it out.
    ///   - factory: makes the element; returning nil leaves it out of the list.
    /// - Returns: options for the element (its scope, `resolveProperties`, …).
    @inlinable
    @discardableResult
    public func callAsFunction<Element>(into list: [Element].Type, name: Resolver.Name? = .none,
                                        fileID: StaticString = #fileID, line: UInt = #line,
                                        factory: @escaping ResolverFactoryMainActor<Element>) -> ResolverOptions<Element> {
        Resolver.register(container, name, RegistrationSite(fileID, line), .mainActor({ _, _ in factory() }, takesArguments: false), false, nil, .element)
    }

    /// Adds an element, made by a main-actor factory that receives the resolving container, to this container's list of `[Element]`: `register(into: [any Plugin].self) { @MainActor r in BannerPlugin(settings: r.resolve()) }`.
    ///
    /// A resolve of `[Element]` from a container gives the elements of every container
    /// its lookup searches (itself, then its children, depth first): those of the
    /// containers it falls back on first, each container's in the order added, each
    /// element through its own scope. A plain `[Element]` registration met on the way
    /// stands for the elements there and ends the search, as it would end a lookup.
    ///
    /// - Parameters:
    ///   - list: the list's type, `[Element].self`.
    ///   - name: the list's name; elements added under a name make a list of their own.
    ///   - fileID: where the call is (`#fileID`); leave it out.
    ///   - line: the call's line (`#line`); leave it out.
    ///   - factory: makes the element; returning nil leaves it out of the list.
    /// - Returns: options for the element (its scope, `resolveProperties`, …).
    @inlinable
    @discardableResult
    public func callAsFunction<Element>(into list: [Element].Type, name: Resolver.Name? = .none,
                                        fileID: StaticString = #fileID, line: UInt = #line,
                                        factory: @escaping ResolverFactoryMainActorResolver<Element>) -> ResolverOptions<Element> {
        Resolver.register(container, name, RegistrationSite(fileID, line), .mainActor({ resolver, _ in factory(resolver) }, takesArguments: false), false, nil, .element)
    }

    /// Adds an element, made by an async factory, to this container's list of `[Element]`: `register(into: [any Plugin].self) { await StorePlugin() }`.
    ///
    /// A resolve of `[Element]` from a container gives the elements of every container
    /// its lookup searches (itself, then its children, depth first): those of the
    /// containers it falls back on first, each container's in the order added, each
    /// element through its own scope. A plain `[Element]` registration met on the way
    /// stands for the elements there and ends the search, as it would end a lookup.
    ///
    /// - Parameters:
    ///   - list: the list's type, `[Element].self`.
    ///   - name: the list's name; elements added under a name make a list of their own.
    ///   - fileID: where the call is (`#fileID`); leave it out.
    ///   - line: the call's line (`#line`); leave it out.
    ///   - factory: makes the element; returning nil leaves it out of the list.
    /// - Returns: options for the element (its scope, `resolveProperties`, …).
    @inlinable
    @discardableResult
    public func callAsFunction<Element>(into list: [Element].Type, name: Resolver.Name? = .none,
                                        fileID: StaticString = #fileID, line: UInt = #line,
                                        factory: @escaping ResolverFactoryAsync<Element>) -> ResolverOptions<Element> {
        Resolver.register(container, name, RegistrationSite(fileID, line), .async({ _, _ in await factory() }, takesArguments: false), false, nil, .element)
    }

    /// Adds an element, made by an async factory that receives the resolving container, to this container's list of `[Element]`: `register(into: [any Plugin].self) { r in await StorePlugin(api: r.resolve()) }`.
    ///
    /// A resolve of `[Element]` from a container gives the elements of every container
    /// its lookup searches (itself, then its children, depth first): those of the
    /// containers it falls back on first, each container's in the order added, each
    /// element through its own scope. A plain `[Element]` registration met on the way
    /// stands for the elements there and ends the search, as it would end a lookup.
    ///
    /// - Parameters:
    ///   - list: the list's type, `[Element].self`.
    ///   - name: the list's name; elements added under a name make a list of their own.
    ///   - fileID: where the call is (`#fileID`); leave it out.
    ///   - line: the call's line (`#line`); leave it out.
    ///   - factory: makes the element; returning nil leaves it out of the list.
    /// - Returns: options for the element (its scope, `resolveProperties`, …).
    @inlinable
    @discardableResult
    public func callAsFunction<Element>(into list: [Element].Type, name: Resolver.Name? = .none,
                                        fileID: StaticString = #fileID, line: UInt = #line,
                                        factory: @escaping ResolverFactoryAsyncResolver<Element>) -> ResolverOptions<Element> {
        Resolver.register(container, name, RegistrationSite(fileID, line), .async({ resolver, _ in await factory(resolver) }, takesArguments: false), false, nil, .element)
    }
}
