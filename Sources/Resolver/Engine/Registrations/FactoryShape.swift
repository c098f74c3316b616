// A registration's factory in the shape it was registered with, and every
// decision that depends on that shape, stated once: what isolation it needs,
// whether it takes arguments, the `(Resolver, Any?) -> Service?` form that
// `update(factory:)` wraps, and the `Call` the resolve path makes it through.
// Each is an exhaustive `switch`: a new shape is one change the compiler
// walks through.

extension ResolverRegistration {
    /// The factory, in the shape it was registered with. The resolve path
    /// calls it through the registration's `call`.
    @usableFromInline
    enum Factory {
        /// `register { Service() }`.
        case plain(ResolverFactory<Service>)
        /// `register { r in Service(r.resolve()) }`.
        case resolver(ResolverFactoryResolver<Service>)
        /// `register { r, args in Service(args()) }`.
        case arguments(ResolverFactoryArgumentsN<Service>)
        /// A factory of the raw `args:` value: a hand-made registration's,
        /// or an `implements` registration's, which passes the arguments on.
        case anyArguments(ResolverFactoryAnyArguments<Service>)
        /// `{ @MainActor in … }`, in any shape: runs on the main actor only.
        case mainActor(MainActorFactory, takesArguments: Bool)
        /// An async factory, in any shape: `resolveAsync` only.
        case async(AsyncFactory, takesArguments: Bool)
        /// `register(arguments: Int.self) { r, id in … }`: a plain factory of
        /// typed arguments. (`@MainActor` and async factories of typed
        /// arguments are `.mainActor` and `.async` ones that unbox them.)
        case typed(TypedFactory)
        /// The list of a collection, `[Element]`: this container's elements
        /// (`register(into:)`), assembled with those of every container the
        /// lookup reaches (`Engine/Collections/`).
        case collection(CollectionAssembly<Service>)
    }

    /// A main-actor factory of any shape, as stored.
    @usableFromInline
    typealias MainActorFactory = @MainActor (_ resolver: Resolver, _ args: Any?) -> Service?
    /// An async factory of any shape, as stored.
    @usableFromInline
    typealias AsyncFactory = (_ resolver: Resolver, _ args: Any?) async -> Service?
    /// The factory as the resolve path calls it, whatever its shape: with
    /// the container the factory receives and the call's arguments.
    @usableFromInline
    typealias Call = (_ resolver: Resolver, _ arguments: ArgumentsPointer) -> Service?
}

extension ResolverRegistration.Factory {
    /// What isolation the factory needs (DESIGN.md, A1).
    @inlinable
    var isolation: FactoryIsolation {
        switch self {
        case .plain, .resolver, .arguments, .anyArguments, .typed: return .none
        case .mainActor: return .mainActor
        case .async: return .async
        case .collection: return .collection
        }
    }

    /// Whether the factory reads the resolve call's arguments (`verify()`
    /// cannot make them up, and skips it). A factory of the raw arguments
    /// that forwards to another registration needs them only if that one
    /// does (`forwardsTo`; nil: it reads them itself).
    func takesArguments(forwardingTo forwardsTo: (() -> Bool)?) -> Bool {
        switch self {
        case .plain, .resolver, .collection: return false
        case .arguments, .typed: return true
        case .anyArguments: return forwardsTo?() ?? true
        case .mainActor(_, let takesArguments), .async(_, let takesArguments): return takesArguments
        }
    }

    /// The factory in the `(Resolver, Any?) -> Service?` form that
    /// `update(factory:)` wraps (`resolveProperties`). An async factory's
    /// form picks up the instance `resolveAsync` awaited and left in the
    /// thread's context just before calling it.
    func anyArgumentsForm(name: Resolver.Name?) -> ResolverFactoryAnyArguments<Service> {
        switch self {
        case .plain(let factory): return { _, _ in factory() }
        case .resolver(let factory): return { resolver, _ in factory(resolver) }
        case .arguments(let factory): return { resolver, args in factory(resolver, Resolver.Args(args)) }
        case .anyArguments(let factory): return factory
        case .typed(let typed): return typed.anyArgumentsForm(name: name)
        case .mainActor(let factory, _):
            return { resolver, args in ResolverRegistration.callOnMainActor(factory, name, resolver, args) }
        case .async:
            return { _, _ in
                guard let service = ResolutionContext.current.takeAwaitedInstance(as: Service.self) else {
                    resolverFailure(ResolverRegistration.asyncFactoryMessage(name), kind: .other)
                }
                return service
            }
        case .collection(let assembly):
            return { resolver, args in withArguments(args) { assembly.assemble(from: resolver, $0) } }
        }
    }

    /// The factory as the resolve path calls it (`ResolverRegistration.call`),
    /// made once per registration. A registration keeps it in a constant
    /// property, so a resolve that holds the registration borrowed calls it
    /// without a reference count (`UncheckedReference.read`). A plain factory
    /// registered from the main actor says when it first runs off it
    /// (`MainActorDeparture`).
    func call(name: Resolver.Name?, registeredOnMainActor: Bool) -> ResolverRegistration.Call {
        let call = callOfItsShape(name: name)
        guard registeredOnMainActor, isolation == .none else {
            return call
        }
        let departure = MainActorDeparture<Service>(name)
        return { resolver, arguments in
            departure.check()
            return call(resolver, arguments)
        }
    }

    private func callOfItsShape(name: Resolver.Name?) -> ResolverRegistration.Call {
        switch self {
        case .plain(let factory):
            return { _, _ in factory() }
        case .resolver(let factory):
            return { resolver, _ in factory(resolver) }
        case .arguments(let factory):
            return { resolver, arguments in factory(resolver, Resolver.Args(arguments)) }
        case .anyArguments(let factory):
            return { resolver, arguments in factory(resolver, arguments.value) }
        case .typed(let typed):
            return typed.call(name: name)
        case .mainActor(let factory, _):
            return { resolver, arguments in
                ResolverRegistration.callOnMainActor(factory, name, resolver, arguments.value)
            }
        case .async:
            return { _, _ in resolverFailure(ResolverRegistration.asyncFactoryMessage(name), kind: .other) }
        case .collection(let assembly):
            return { resolver, arguments in assembly.assemble(from: resolver, arguments) }
        }
    }
}

// The factories of a pack of arguments (a key's, whose pack may be empty;
// `register(arguments:)`'s isolated ones): a key without arguments gets a
// plain shape, one with arguments the typed shape its resolves call, so both
// are the registrations `register` makes.
extension ResolverRegistration.Factory {
    /// `{ LiveAPI() }`, `{ id, name in … }`: the arguments alone.
    @inlinable
    static func taking<each Argument>(arguments factory: @escaping (repeat each Argument) -> Service) -> Self {
        guard argumentCount(repeat (each Argument).self) != 0 else {
            let none = Resolver.noArguments(repeat (each Argument).self)
            return .plain { factory(repeat each none) }
        }
        return .typed(ResolverRegistration.TypedFactoryOf<repeat each Argument>(plain: factory))
    }

    /// `{ r in … }`, `{ r, id, name in … }`: the resolving container, then the arguments.
    @inlinable
    static func taking<each Argument>(resolver factory: @escaping (Resolver, repeat each Argument) -> Service?) -> Self {
        guard argumentCount(repeat (each Argument).self) != 0 else {
            let none = Resolver.noArguments(repeat (each Argument).self)
            return .resolver { resolver in factory(resolver, repeat each none) }
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

    /// `{ @MainActor r, … in … }`: the container, then the arguments boxed.
    @inlinable
    static func onMainActor<each Argument>(resolver factory: @escaping @MainActor (Resolver, repeat each Argument) -> Service?)
        -> Self {
        .mainActor({ resolver, args in
            factory(resolver, repeat each Resolver.values(of: args, as: (repeat each Argument).self, for: Service.self))
        }, takesArguments: argumentCount(repeat (each Argument).self) != 0)
    }

    /// `{ await … }`, `{ id in await … }`, `{ @PlayActor () async in … }`:
    /// the arguments boxed, as they cross a suspension.
    @inlinable
    static func awaiting<each Argument>(arguments factory: @escaping (repeat each Argument) async -> Service) -> Self {
        .async({ _, args in
            await factory(repeat each Resolver.values(of: args, as: (repeat each Argument).self, for: Service.self))
        }, takesArguments: argumentCount(repeat (each Argument).self) != 0)
    }

    /// `{ r, … in await … }`: the container, then the arguments boxed.
    @inlinable
    static func awaiting<each Argument>(resolver factory: @escaping (Resolver, repeat each Argument) async -> Service?) -> Self {
        .async({ resolver, args in
            await factory(resolver, repeat each Resolver.values(of: args, as: (repeat each Argument).self, for: Service.self))
        }, takesArguments: argumentCount(repeat (each Argument).self) != 0)
    }
}

extension Resolver {
    /// The values of an empty pack: `()` (a cast the optimizer folds once
    /// the pack is known).
    @inlinable
    static func noArguments<each Argument>(_ types: repeat (each Argument).Type) -> (repeat each Argument) {
        (() as Any) as! (repeat each Argument)
    }

    /// The values a factory of the `(Resolver, Any?)` form is given: none
    /// for an empty pack, else the call's, boxed.
    @inlinable
    static func values<Service, each Argument>(of args: Any?, as types: (repeat each Argument).Type,
                                               for service: Service.Type) -> (repeat each Argument) {
        if argumentCount(repeat (each Argument).self) == 0 {
            return noArguments(repeat (each Argument).self)
        }
        return unboxTyped(args, as: TypedArgumentsBox<repeat each Argument>.self, for: Service.self).values
    }

    /// A factory of the arguments alone in the `(Resolver, Any?)` form that
    /// contexts and `update(factory:)` take.
    @inlinable
    static func anyArgumentsForm<Service, each Argument>(arguments factory: @escaping (repeat each Argument) -> Service)
        -> ResolverFactoryAnyArguments<Service> {
        { _, args in factory(repeat each values(of: args, as: (repeat each Argument).self, for: Service.self)) }
    }

    /// A factory of the container and the arguments in the `(Resolver, Any?)` form.
    @inlinable
    static func anyArgumentsForm<Service, each Argument>(resolver factory: @escaping (Resolver, repeat each Argument) -> Service)
        -> ResolverFactoryAnyArguments<Service> {
        { resolver, args in
            factory(resolver, repeat each values(of: args, as: (repeat each Argument).self, for: Service.self))
        }
    }
}

extension Resolver {
    /// A main-actor factory of the arguments alone in the `(Resolver, Any?)`
    /// form: run as a `@MainActor` registration's factory is (on the main
    /// actor, else a stop with the fix).
    @inlinable
    static func mainActorForm<Service, each Argument>(arguments factory: @escaping @MainActor (repeat each Argument) -> Service)
        -> ResolverFactoryAnyArguments<Service> {
        { resolver, args in
            onMainActor({ _, args in
                factory(repeat each values(of: args, as: (repeat each Argument).self, for: Service.self))
            }, resolver, args)
        }
    }

    /// A main-actor factory of the container and the arguments in the `(Resolver, Any?)` form.
    @inlinable
    static func mainActorForm<Service, each Argument>(resolver factory: @escaping @MainActor (Resolver, repeat each Argument) -> Service)
        -> ResolverFactoryAnyArguments<Service> {
        { resolver, args in
            onMainActor({ resolver, args in
                factory(resolver, repeat each values(of: args, as: (repeat each Argument).self, for: Service.self))
            }, resolver, args)
        }
    }

    /// Runs a main-actor factory from a synchronous resolve: on the main
    /// actor it runs; elsewhere the program stops with the fix. A static of
    /// a type that is not generic (B2).
    @usableFromInline
    static func onMainActor<Service>(_ factory: @escaping @MainActor (Resolver, Any?) -> Service?, _ resolver: Resolver,
                                     _ args: Any?) -> Service? {
        ResolverRegistration<Service>.callOnMainActor(factory, nil, resolver, args)
    }
}
