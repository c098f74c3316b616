extension ResolverRegistration {
    /// The factory, in the shape it was registered with; each decision on it
    /// is an exhaustive `switch` below (DESIGN.md, "A factory's shape").
    @usableFromInline
    enum Factory {
        /// A factory without arguments, in the form the resolve path calls:
        /// `{ … }` (`plain(_:)`), `{ r in … }` (`givenResolver(_:)`), and a key's,
        /// whose pack closure is called with nothing between.
        case call(Call)
        /// `{ r, args in … }`.
        case arguments(ResolverFactoryArgumentsN<Service>)
        /// Of the raw `args:`: a hand-made registration's, or an `implements` one's, which passes them on.
        case anyArguments(ResolverFactoryAnyArguments<Service>)
        /// `{ @MainActor in … }`, in any shape.
        case mainActor(MainActorFactory, takesArguments: Bool)
        /// An async factory, in any shape: `resolveAsync` only.
        case async(AsyncFactory, takesArguments: Bool)
        /// `register(arguments: Int.self) { r, id in … }`, plain.
        case typed(TypedFactory)
        /// A list, `[Element]`: the elements of every container the lookup reaches.
        case collection(CollectionAssembly<Service>)
    }

    @usableFromInline
    typealias MainActorFactory = @MainActor (_ resolver: Resolver, _ args: Any?) -> Service?
    @usableFromInline
    typealias AsyncFactory = (_ resolver: Resolver, _ args: Any?) async -> Service?
    @usableFromInline
    typealias Call = (_ resolver: Resolver, _ arguments: ArgumentsPointer) -> Service?
}

extension ResolverRegistration.Factory {
    /// `{ LiveAPI() }`.
    @inlinable
    static func plain(_ factory: @escaping ResolverFactory<Service>) -> Self {
        .call { _, _ in factory() }
    }

    /// `{ r in Store(api: r.resolve()) }`.
    @inlinable
    static func givenResolver(_ factory: @escaping ResolverFactoryResolver<Service>) -> Self {
        .call { resolver, _ in factory(resolver) }
    }

    @inlinable
    var isolation: FactoryIsolation {
        switch self {
        case .call, .arguments, .anyArguments, .typed: return .none
        case .mainActor: return .mainActor
        case .async: return .async
        case .collection: return .collection
        }
    }

    /// Whether the factory reads the call's arguments (`verify()` skips it);
    /// `forwardsTo` answers for an `implements` registration's.
    func takesArguments(forwardingTo forwardsTo: (() -> Bool)?) -> Bool {
        switch self {
        case .call, .collection: return false
        case .arguments, .typed: return true
        case .anyArguments: return forwardsTo?() ?? true
        case .mainActor(_, let takesArguments), .async(_, let takesArguments): return takesArguments
        }
    }

    /// The form `update(factory:)` wraps. An async factory's takes the
    /// instance `resolveAsync` awaited and left in the thread's context.
    func anyArgumentsForm(name: Resolver.Name?) -> ResolverFactoryAnyArguments<Service> {
        switch self {
        case .arguments(let factory): return { resolver, args in factory(resolver, Resolver.Args(args)) }
        case .anyArguments(let factory): return factory
        case .call(let call): return { resolver, _ in call(resolver, .none) }
        case .typed(let typed): return typed.anyArgumentsForm(name: name)
        case .mainActor(let factory, _):
            return { resolver, args in ResolverRegistration.callOnMainActor(factory, name, resolver, args) }
        case .async:
            return { _, _ in
                guard let service = ResolutionContext.current.takeAwaitedInstance(as: Service.self) else {
                    fail(ResolverRegistration.asyncFactoryMessage(name), kind: .other)
                }
                return service
            }
        case .collection(let assembly):
            return { resolver, args in withArguments(args) { assembly.assemble(from: resolver, $0) } }
        }
    }

    /// The factory as the resolve path calls it, made once per registration
    /// and kept constant, so a borrowed registration calls it with no count
    /// (B1). A plain one registered from the main actor says when it first
    /// runs off it (A1).
    func call(name: Resolver.Name?, registeredOnMainActor: Bool) -> ResolverRegistration.Call {
        let call: ResolverRegistration.Call = switch self {
        case .arguments(let factory): { resolver, arguments in factory(resolver, Resolver.Args(arguments)) }
        case .anyArguments(let factory): { resolver, arguments in factory(resolver, arguments.value) }
        case .call(let call): call
        case .typed(let typed): typed.call
        case .mainActor(let factory, _):
            { resolver, arguments in ResolverRegistration.callOnMainActor(factory, name, resolver, arguments.value) }
        case .async: { _, _ in fail(ResolverRegistration.asyncFactoryMessage(name), kind: .other) }
        case .collection(let assembly): { resolver, arguments in assembly.assemble(from: resolver, arguments) }
        }
        guard registeredOnMainActor, isolation == .none else {
            return call
        }
        let departure = MainActorDeparture<Service>(name)
        return { resolver, arguments in
            departure.check()
            return call(resolver, arguments)
        }
    }
}

// The factories of a pack (a key's, maybe empty; `register(arguments:)`'s
// isolated ones): without arguments the form the path calls, with them the
// typed one.
extension ResolverRegistration.Factory {
    /// `{ LiveAPI() }`, `{ id, name in … }`.
    @inlinable
    static func taking<each Argument>(arguments factory: @escaping (repeat each Argument) -> Service) -> Self {
        guard argumentCount(repeat (each Argument).self) != 0 else {
            let none = Resolver.noArguments(repeat (each Argument).self)
            return .call { _, _ in factory(repeat each none) }
        }
        return .typed(ResolverRegistration.TypedFactoryOf<repeat each Argument>(plain: factory))
    }

    /// `{ r in … }`, `{ r, id, name in … }`.
    @inlinable
    static func taking<each Argument>(resolver factory: @escaping (Resolver, repeat each Argument) -> Service?) -> Self {
        guard argumentCount(repeat (each Argument).self) != 0 else {
            let none = Resolver.noArguments(repeat (each Argument).self)
            return .call { resolver, _ in factory(resolver, repeat each none) }
        }
        return .typed(ResolverRegistration.TypedFactoryOf<repeat each Argument>(factory))
    }

    /// `{ @MainActor in … }`, `{ @MainActor id in … }`: the arguments boxed, as they cross to the main actor.
    @inlinable
    static func onMainActor<each Argument>(arguments factory: @escaping @MainActor (repeat each Argument) -> Service) -> Self {
        .mainActor({ _, args in
            factory(repeat each Resolver.values(of: args, as: (repeat each Argument).self, for: Service.self))
        }, takesArguments: argumentCount(repeat (each Argument).self) != 0)
    }

    /// `{ @MainActor r, … in … }`.
    @inlinable
    static func onMainActor<each Argument>(resolver factory: @escaping @MainActor (Resolver, repeat each Argument) -> Service?)
        -> Self {
        .mainActor({ resolver, args in
            factory(resolver, repeat each Resolver.values(of: args, as: (repeat each Argument).self, for: Service.self))
        }, takesArguments: argumentCount(repeat (each Argument).self) != 0)
    }

    /// `{ await … }`, `{ id in await … }`, `{ @PlayActor () async in … }`: boxed, as they cross a suspension.
    @inlinable
    static func awaiting<each Argument>(arguments factory: @escaping (repeat each Argument) async -> Service) -> Self {
        .async({ _, args in
            await factory(repeat each Resolver.values(of: args, as: (repeat each Argument).self, for: Service.self))
        }, takesArguments: argumentCount(repeat (each Argument).self) != 0)
    }

    /// `{ r, … in await … }`.
    @inlinable
    static func awaiting<each Argument>(resolver factory: @escaping (Resolver, repeat each Argument) async -> Service?) -> Self {
        .async({ resolver, args in
            await factory(resolver, repeat each Resolver.values(of: args, as: (repeat each Argument).self, for: Service.self))
        }, takesArguments: argumentCount(repeat (each Argument).self) != 0)
    }
}

extension Resolver {
    /// The values of an empty pack: `()` (a cast the optimizer folds).
    @inlinable
    static func noArguments<each Argument>(_ types: repeat (each Argument).Type) -> (repeat each Argument) {
        (() as Any) as! (repeat each Argument)
    }

    /// The values a factory of the `(Resolver, Any?)` form is given.
    @inlinable
    static func values<Service, each Argument>(of args: Any?, as types: (repeat each Argument).Type,
                                               for service: Service.Type) -> (repeat each Argument) {
        if argumentCount(repeat (each Argument).self) == 0 {
            return noArguments(repeat (each Argument).self)
        }
        return unboxTyped(args, as: TypedArgumentsBox<repeat each Argument>.self, for: Service.self).values
    }

    /// Factories of a pack in the `(Resolver, Any?)` form that contexts take; a main-actor one's run as
    /// a `@MainActor` registration's is (on the main actor, else a stop).
    @inlinable
    static func anyArgumentsForm<Service, each Argument>(arguments factory: @escaping (repeat each Argument) -> Service)
        -> ResolverFactoryAnyArguments<Service> {
        { _, args in factory(repeat each values(of: args, as: (repeat each Argument).self, for: Service.self)) }
    }

    @inlinable
    static func anyArgumentsForm<Service, each Argument>(resolver factory: @escaping (Resolver, repeat each Argument) -> Service)
        -> ResolverFactoryAnyArguments<Service> {
        { resolver, args in
            factory(resolver, repeat each values(of: args, as: (repeat each Argument).self, for: Service.self))
        }
    }

    @inlinable
    static func mainActorForm<Service, each Argument>(arguments factory: @escaping @MainActor (repeat each Argument) -> Service)
        -> ResolverFactoryAnyArguments<Service> {
        { resolver, args in
            onMainActor({ _, args in
                factory(repeat each values(of: args, as: (repeat each Argument).self, for: Service.self))
            }, resolver, args)
        }
    }

    @inlinable
    static func mainActorForm<Service, each Argument>(resolver factory: @escaping @MainActor (Resolver, repeat each Argument) -> Service)
        -> ResolverFactoryAnyArguments<Service> {
        { resolver, args in
            onMainActor({ resolver, args in
                factory(resolver, repeat each values(of: args, as: (repeat each Argument).self, for: Service.self))
            }, resolver, args)
        }
    }

    /// `callOnMainActor`, as a static of a type that is not generic (B2).
    @usableFromInline
    static func onMainActor<Service>(_ factory: @escaping @MainActor (Resolver, Any?) -> Service?, _ resolver: Resolver,
                                     _ args: Any?) -> Service? {
        ResolverRegistration<Service>.callOnMainActor(factory, nil, resolver, args)
    }
}
