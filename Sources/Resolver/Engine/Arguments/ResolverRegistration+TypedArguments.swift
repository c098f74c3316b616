/// A registration's typed argument list: its type `(A, repeat each B)` (a
/// key's pack) and whether every element is `Hashable`, as a caching scope
/// needs (it keeps one instance per list).
@frozen
@usableFromInline
struct ArgumentList: @unchecked Sendable {
    @usableFromInline let types: Any.Type
    @usableFromInline let hashable: Bool

    @inlinable
    init<each Argument>(_ types: repeat (each Argument).Type) {
        self.types = (repeat each Argument).self
        var hashable = true
        for type in repeat each types {
            if !(type is any Hashable.Type) { hashable = false }
        }
        self.hashable = hashable
    }

    /// The list of a pack, nil when it is empty (a key without arguments).
    @inlinable
    static func of<each Argument>(_ types: repeat (each Argument).Type) -> ArgumentList? {
        argumentCount(repeat (each Argument).self) == 0 ? nil : ArgumentList(repeat (each Argument).self)
    }

    @inlinable var identity: ObjectIdentifier { ObjectIdentifier(types) }
}

extension ResolverRegistration {
    /// A plain factory of typed arguments (`register(arguments: Int.self) { r,
    /// id in … }`), whatever their list. (`@MainActor` and async ones take
    /// the values boxed, as they cross a hop or a suspension.)
    @usableFromInline
    class TypedFactory {
        @usableFromInline init() {}
        /// The factory as `Factory.call` and `Factory.anyArgumentsForm` make it.
        var call: Call { preconditionFailure("TypedFactory is abstract") }
        func anyArgumentsForm(name: Resolver.Name?) -> ResolverFactoryAnyArguments<Service> {
            preconditionFailure("TypedFactory is abstract")
        }
    }

    /// The factory of the list `(repeat each Argument)`, `register(arguments:)`'s
    /// and a key's: `checked` reads the values from the call's frame, made
    /// where the list is known, so a resolve runs no generic code for it and
    /// calls it with nothing between. It captures the factory alone (a
    /// closure literal's is then inlined into it) and checks nothing: every
    /// way to it checks the call's list against the registration's first
    /// (`checkArguments`: the resolve path, `keptOrMade`, `instantiate`).
    @usableFromInline
    final class TypedFactoryOf<each Argument>: TypedFactory {
        @usableFromInline let checked: Call
        @usableFromInline let boxed: ResolverFactoryAnyArguments<Service>

        @inlinable
        init(_ factory: @escaping (Resolver, repeat each Argument) -> Service?) {
            checked = { resolver, arguments in
                factory(resolver, repeat each TypedArgumentsOf<repeat each Argument>.values(checked: arguments))
            }
            boxed = { resolver, args in
                factory(resolver, repeat each Resolver.unboxTyped(args, as: TypedArgumentsBox<repeat each Argument>.self,
                                                                  for: Service.self).values)
            }
        }

        /// A key's factory, of the arguments alone.
        @inlinable
        init(plain factory: @escaping (repeat each Argument) -> Service) {
            checked = { _, arguments in
                factory(repeat each TypedArgumentsOf<repeat each Argument>.values(checked: arguments))
            }
            boxed = { _, args in
                factory(repeat each Resolver.unboxTyped(args, as: TypedArgumentsBox<repeat each Argument>.self,
                                                        for: Service.self).values)
            }
        }

        override var call: Call { checked }
        override func anyArgumentsForm(name: Resolver.Name?) -> ResolverFactoryAnyArguments<Service> { boxed }
    }

    /// `args` as the box of the list `(repeat each Argument)`, else a stop.
    static func unbox<each Argument>(_ args: Any?, as type: TypedArgumentsBox<repeat each Argument>.Type,
                                     _ name: Resolver.Name?) -> TypedArgumentsBox<repeat each Argument> {
        guard let box = args as? TypedArgumentsBox<repeat each Argument> else {
            let passed = (args as? TypedArgumentsBoxing)?.types
            argumentsMismatch(registered: (repeat each Argument).self, passed: passed, name: name, untyped: args != nil)
        }
        return box
    }

    /// Stops: a call's argument list is not the registration's.
    static func argumentsMismatch(registered: Any.Type?, passed: Any.Type?, name: Resolver.Name?,
                                  untyped: Bool, site: RegistrationSite? = nil) -> Never {
        let service = describe(Service.self, name)
        let call = "Resolver.resolve(\(Service.self).self\(name.map { ", name: \"\($0.rawValue)\"" } ?? ""), arguments: …)"
        let message = switch (registered, passed) {
        case (let registered?, let passed?):
            "RESOLVER: '\(service)' is registered with arguments \(describeArgumentTypes(registered)), but \(describeArgumentTypes(passed)) were passed."
        case (let registered?, nil):
            "RESOLVER: '\(service)' is registered with arguments \(describeArgumentTypes(registered)), but "
                + (untyped ? "untyped args: were passed" : "none were passed") + ". Pass them with `\(call)`."
        case (nil, let passed?):
            "RESOLVER: '\(service)' is registered without typed arguments, but \(describeArgumentTypes(passed)) were passed. Register it with `register(arguments:)`, or resolve it without arguments."
        case (nil, nil):
            "RESOLVER: '\(service)': the arguments passed are not the registration's."
        }
        let located = site.map { "\n'\(service)' was registered at \($0)." } ?? ""
        fail(message + chainSentence + located + chainPlaces, kind: .other)
    }

    /// Stops unless the call's typed list is the registration's (or neither
    /// has one): one load and a compare for a call without arguments.
    @inlinable
    @inline(__always)
    static func checkArguments(_ registration: UncheckedReference<ResolverRegistration>, _ arguments: ArgumentsPointer) {
        if registration.read({ $0.argumentTypes }) != arguments.typedIdentity {
            registration.read { $0.checkArgumentsSlow(arguments) }
        }
    }

    @usableFromInline
    @inline(never)
    func checkArgumentsSlow(_ arguments: ArgumentsPointer) {
        let passed = arguments.typed?.pointee.types
        if argumentList?.identity == passed.map(ObjectIdentifier.init) {
            return
        }
        Self.argumentsMismatch(registered: argumentList?.types, passed: passed, name: name,
                               untyped: !arguments.isNone && passed == nil, site: site)
    }
}

extension Resolver {
    /// `unbox(_:as:_:)` for the factories, which the resolve path has
    /// checked the list for: a static of a type that is not generic (B2).
    @usableFromInline
    static func unboxTyped<Service, each Argument>(_ args: Any?, as type: TypedArgumentsBox<repeat each Argument>.Type,
                                                   for service: Service.Type) -> TypedArgumentsBox<repeat each Argument> {
        ResolverRegistration<Service>.unbox(args, as: type, nil)
    }
}
