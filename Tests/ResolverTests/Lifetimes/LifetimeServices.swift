import Resolver
import ResolverTestSupport

// The services and keys of the lifetime model test (LifetimeModelTests.swift):
// eight fixed service types, since a program cannot make types at run time,
// and a fixed pool of compile-time-checked keys, since keys are static
// declarations. Each factory asks the running program what to build
// (`LifetimeRunner`), so that a program can wire them as it likes and
// re-registering changes the graph.

/// An instance a lifetime program's factory made: its serial number in the
/// program (the model predicts it), the registration and the resolving
/// container that made it, the argument it was given, and the dependencies
/// its factory resolved, held strongly.
class LifetimeNode: @unchecked Sendable {
    let serial: Int
    let registration: Int
    let container: Int
    let argument: Int?
    let dependencies: [LifetimeNode?]

    required init(serial: Int, registration: Int, container: Int, argument: Int?, dependencies: [LifetimeNode?]) {
        self.serial = serial
        self.registration = registration
        self.container = container
        self.argument = argument
        self.dependencies = dependencies
    }
}

/// One of the eight service types; `Lifetime.types[index]` is `Lifetime.S<index>`.
protocol LifetimeService: LifetimeNode {
    static var index: Int { get }
}

/// The lifetime test's namespace: the service types and the key pool.
enum Lifetime {
    final class S0: LifetimeNode, LifetimeService, @unchecked Sendable { static let index = 0 }
    final class S1: LifetimeNode, LifetimeService, @unchecked Sendable { static let index = 1 }
    final class S2: LifetimeNode, LifetimeService, @unchecked Sendable { static let index = 2 }
    final class S3: LifetimeNode, LifetimeService, @unchecked Sendable { static let index = 3 }
    final class S4: LifetimeNode, LifetimeService, @unchecked Sendable { static let index = 4 }
    final class S5: LifetimeNode, LifetimeService, @unchecked Sendable { static let index = 5 }
    final class S6: LifetimeNode, LifetimeService, @unchecked Sendable { static let index = 6 }
    final class S7: LifetimeNode, LifetimeService, @unchecked Sendable { static let index = 7 }

    static let types: [any LifetimeService.Type] = [S0.self, S1.self, S2.self, S3.self, S4.self, S5.self, S6.self, S7.self]

    /// The level of a type: a factory depends only on types of a deeper
    /// level, so graphs are acyclic and at most four deep.
    static func level(_ type: Int) -> Int { type / 2 }

    /// The scope each key of the pool declares, by its index (`keyIndex`):
    /// the declarations below must say the same.
    static func declaredScope(ofKey key: Int) -> ScopeChoice {
        let builtIn: [ScopeChoice] = [.graph, .unique, .application, .cached, .shared, .container]
        let type = key / 3
        switch key % 3 {
        case 0: return builtIn[type % 6]
        case 1: return builtIn[(type + 3) % 6]
        default: return builtIn[(type + 1) % 6]
        }
    }

    /// The key of `type` in `variant` (0: `A`, 1: `B`, both without
    /// arguments; 2: `Arg`, with one `Int`).
    static func keyIndex(type: Int, variant: Int) -> Int { type * 3 + variant }

    /// The key pool, by `keyIndex`.
    static let keys: [any LifetimeKey] = [
        PlainLifetimeKey(\.lifetimeS0A), PlainLifetimeKey(\.lifetimeS0B), ArgumentLifetimeKey(\.lifetimeS0Arg),
        PlainLifetimeKey(\.lifetimeS1A), PlainLifetimeKey(\.lifetimeS1B), ArgumentLifetimeKey(\.lifetimeS1Arg),
        PlainLifetimeKey(\.lifetimeS2A), PlainLifetimeKey(\.lifetimeS2B), ArgumentLifetimeKey(\.lifetimeS2Arg),
        PlainLifetimeKey(\.lifetimeS3A), PlainLifetimeKey(\.lifetimeS3B), ArgumentLifetimeKey(\.lifetimeS3Arg),
        PlainLifetimeKey(\.lifetimeS4A), PlainLifetimeKey(\.lifetimeS4B), ArgumentLifetimeKey(\.lifetimeS4Arg),
        PlainLifetimeKey(\.lifetimeS5A), PlainLifetimeKey(\.lifetimeS5B), ArgumentLifetimeKey(\.lifetimeS5Arg),
        PlainLifetimeKey(\.lifetimeS6A), PlainLifetimeKey(\.lifetimeS6B), ArgumentLifetimeKey(\.lifetimeS6Arg),
        PlainLifetimeKey(\.lifetimeS7A), PlainLifetimeKey(\.lifetimeS7B), ArgumentLifetimeKey(\.lifetimeS7Arg),
    ]

    /// The property name of a key, as a program prints it.
    static func keyName(_ key: Int) -> String {
        "lifetimeS\(key / 3)" + ["A", "B", "Arg"][key % 3]
    }

    /// A key's own factory: what the program that owns `resolver` wires it to.
    static func keyed<Service: LifetimeService>(_ resolver: Resolver, _ key: Int, _ argument: Int? = nil) -> Service {
        LifetimeRunner.buildKeyDefault(Service.self, key: key, resolver: resolver, argument: argument)
    }
}

// The key pool. Each key's scope is `Lifetime.declaredScope(ofKey:)`: for
// type i, A has the i-th of (graph, unique, application, cached, shared,
// container), B the (i + 3)-th and Arg the (i + 1)-th.
extension ResolverKeys {
    var lifetimeS0A: ResolverKey<Lifetime.S0> { ResolverKey { r in Lifetime.keyed(r, 0) }.scope(.graph) }
    var lifetimeS0B: ResolverKey<Lifetime.S0> { ResolverKey { r in Lifetime.keyed(r, 1) }.scope(.cached) }
    var lifetimeS0Arg: ResolverKey<Lifetime.S0, Int> { ResolverKey { r, n in Lifetime.keyed(r, 2, n) }.scope(.unique) }
    var lifetimeS1A: ResolverKey<Lifetime.S1> { ResolverKey { r in Lifetime.keyed(r, 3) }.scope(.unique) }
    var lifetimeS1B: ResolverKey<Lifetime.S1> { ResolverKey { r in Lifetime.keyed(r, 4) }.scope(.shared) }
    var lifetimeS1Arg: ResolverKey<Lifetime.S1, Int> { ResolverKey { r, n in Lifetime.keyed(r, 5, n) }.scope(.application) }
    var lifetimeS2A: ResolverKey<Lifetime.S2> { ResolverKey { r in Lifetime.keyed(r, 6) }.scope(.application) }
    var lifetimeS2B: ResolverKey<Lifetime.S2> { ResolverKey { r in Lifetime.keyed(r, 7) }.scope(.container) }
    var lifetimeS2Arg: ResolverKey<Lifetime.S2, Int> { ResolverKey { r, n in Lifetime.keyed(r, 8, n) }.scope(.cached) }
    var lifetimeS3A: ResolverKey<Lifetime.S3> { ResolverKey { r in Lifetime.keyed(r, 9) }.scope(.cached) }
    var lifetimeS3B: ResolverKey<Lifetime.S3> { ResolverKey { r in Lifetime.keyed(r, 10) }.scope(.graph) }
    var lifetimeS3Arg: ResolverKey<Lifetime.S3, Int> { ResolverKey { r, n in Lifetime.keyed(r, 11, n) }.scope(.shared) }
    var lifetimeS4A: ResolverKey<Lifetime.S4> { ResolverKey { r in Lifetime.keyed(r, 12) }.scope(.shared) }
    var lifetimeS4B: ResolverKey<Lifetime.S4> { ResolverKey { r in Lifetime.keyed(r, 13) }.scope(.unique) }
    var lifetimeS4Arg: ResolverKey<Lifetime.S4, Int> { ResolverKey { r, n in Lifetime.keyed(r, 14, n) }.scope(.container) }
    var lifetimeS5A: ResolverKey<Lifetime.S5> { ResolverKey { r in Lifetime.keyed(r, 15) }.scope(.container) }
    var lifetimeS5B: ResolverKey<Lifetime.S5> { ResolverKey { r in Lifetime.keyed(r, 16) }.scope(.application) }
    var lifetimeS5Arg: ResolverKey<Lifetime.S5, Int> { ResolverKey { r, n in Lifetime.keyed(r, 17, n) }.scope(.graph) }
    var lifetimeS6A: ResolverKey<Lifetime.S6> { ResolverKey { r in Lifetime.keyed(r, 18) }.scope(.graph) }
    var lifetimeS6B: ResolverKey<Lifetime.S6> { ResolverKey { r in Lifetime.keyed(r, 19) }.scope(.cached) }
    var lifetimeS6Arg: ResolverKey<Lifetime.S6, Int> { ResolverKey { r, n in Lifetime.keyed(r, 20, n) }.scope(.unique) }
    var lifetimeS7A: ResolverKey<Lifetime.S7> { ResolverKey { r in Lifetime.keyed(r, 21) }.scope(.unique) }
    var lifetimeS7B: ResolverKey<Lifetime.S7> { ResolverKey { r in Lifetime.keyed(r, 22) }.scope(.shared) }
    var lifetimeS7Arg: ResolverKey<Lifetime.S7, Int> { ResolverKey { r, n in Lifetime.keyed(r, 23, n) }.scope(.application) }
}

/// What a program does with a key of the pool, whatever its type.
protocol LifetimeKey: Sendable {
    /// `container.resolve(\.key)`, or with `arguments: argument`.
    func resolve(_ container: Resolver, _ argument: Int?) -> LifetimeNode
    /// `Resolver.resolve(\.key)` (from the root), or with arguments.
    func resolveFromRoot(_ argument: Int?) -> LifetimeNode
    /// `await container.resolveAsync(\.key)`, or with arguments.
    func resolveAsync(_ container: Resolver, _ argument: Int?) async -> LifetimeNode
    /// `await Resolver.resolveAsync(\.key)`, or with arguments.
    func resolveAsyncFromRoot(_ argument: Int?) async -> LifetimeNode
    /// `container.register(\.key) { r in … }` (nil: `Resolver.register`, in
    /// `main`), then `.scope(scope)` unless it is nil.
    func override(in container: Resolver?, scope: ResolverScope?,
                  _ factory: @escaping (Resolver, Int?) -> LifetimeNode)
    /// `scope.reset(\.key)`.
    func reset(in scope: ResolverScope)
}

struct PlainLifetimeKey<Service: LifetimeService>: LifetimeKey {
    let path: KeyPath<ResolverKeys, ResolverKey<Service>> & Sendable

    init(_ path: KeyPath<ResolverKeys, ResolverKey<Service>> & Sendable) {
        self.path = path
    }

    func resolve(_ container: Resolver, _ argument: Int?) -> LifetimeNode {
        container.resolve(path)
    }

    func resolveFromRoot(_ argument: Int?) -> LifetimeNode {
        Resolver.resolve(path)
    }

    func resolveAsync(_ container: Resolver, _ argument: Int?) async -> LifetimeNode {
        await container.resolveAsync(path)
    }

    func resolveAsyncFromRoot(_ argument: Int?) async -> LifetimeNode {
        await Resolver.resolveAsync(path)
    }

    func override(in container: Resolver?, scope: ResolverScope?, _ factory: @escaping (Resolver, Int?) -> LifetimeNode) {
        let made: (Resolver) -> Service = { r in Self.cast(factory(r, nil)) }
        let options = if let container { container.register(path, factory: made) } else { Resolver.register(path, factory: made) }
        if let scope { options.scope(scope) }
    }

    func reset(in scope: ResolverScope) {
        scope.reset(path)
    }

    static func cast(_ node: LifetimeNode) -> Service {
        guard let service = node as? Service else { preconditionFailure("a factory of \(Service.self) made \(type(of: node))") }
        return service
    }
}

struct ArgumentLifetimeKey<Service: LifetimeService>: LifetimeKey {
    let path: KeyPath<ResolverKeys, ResolverKey<Service, Int>> & Sendable

    init(_ path: KeyPath<ResolverKeys, ResolverKey<Service, Int>> & Sendable) {
        self.path = path
    }

    func resolve(_ container: Resolver, _ argument: Int?) -> LifetimeNode {
        container.resolve(path, arguments: argument ?? 0)
    }

    func resolveFromRoot(_ argument: Int?) -> LifetimeNode {
        Resolver.resolve(path, arguments: argument ?? 0)
    }

    func resolveAsync(_ container: Resolver, _ argument: Int?) async -> LifetimeNode {
        await container.resolveAsync(path, arguments: argument ?? 0)
    }

    func resolveAsyncFromRoot(_ argument: Int?) async -> LifetimeNode {
        await Resolver.resolveAsync(path, arguments: argument ?? 0)
    }

    func override(in container: Resolver?, scope: ResolverScope?, _ factory: @escaping (Resolver, Int?) -> LifetimeNode) {
        let made: (Resolver, Int) -> Service = { r, n in PlainLifetimeKey<Service>.cast(factory(r, n)) }
        let options = if let container { container.register(path, factory: made) } else { Resolver.register(path, factory: made) }
        if let scope { options.scope(scope) }
    }

    func reset(in scope: ResolverScope) {
        scope.reset(path)
    }
}

// Registering and resolving a service type by type and name, for any of
// the eight (called on `Lifetime.types[i]`, which opens the type).
extension LifetimeService {
    /// `register(Self.self, name:) { r in … }`, in `container` (nil: `main`,
    /// through the static API), then `.scope(scope)`.
    static func register(in container: Resolver?, name: Resolver.Name?, scope: ResolverScope,
                         _ factory: @escaping (Resolver) -> LifetimeNode?) {
        let made: (Resolver) -> Self? = { r in factory(r).map(cast) }
        let options = if let container { container.register(Self.self, name: name, factory: made) }
                      else { Resolver.register(Self.self, name: name, factory: made) }
        options.scope(scope)
    }

    /// `register(Self.self, name:, arguments: Int.self) { r, n in … }`.
    static func registerTyped(in container: Resolver?, name: Resolver.Name?, scope: ResolverScope,
                              _ factory: @escaping (Resolver, Int) -> LifetimeNode?) {
        let made: (Resolver, Int) -> Self? = { r, n in factory(r, n).map(cast) }
        let options = if let container { container.register(Self.self, name: name, arguments: Int.self, factory: made) }
                      else { Resolver.register(Self.self, name: name, arguments: Int.self, factory: made) }
        options.scope(scope)
    }

    /// `register(Self.self, name:) { r, args in … }`: 1.5.1's untyped arguments.
    static func registerWithArgs(in container: Resolver?, name: Resolver.Name?, scope: ResolverScope,
                                 _ factory: @escaping (Resolver, Int) -> LifetimeNode?) {
        let made: (Resolver, Resolver.Args) -> Self? = { r, args in factory(r, args()).map(cast) }
        let options = if let container { container.register(Self.self, name: name, factory: made) }
                      else { Resolver.register(Self.self, name: name, factory: made) }
        options.scope(scope)
    }

    /// How a program resolves `Self` under `name` with `argument` (typed:
    /// `arguments:`, untyped: 1.5.1's `args:`): from `container`, or from
    /// the root when it is nil.
    static func optional(from container: Resolver?, name: Resolver.Name?, typed: Bool, argument: Int?) -> LifetimeNode? {
        switch (container, argument, typed) {
        case (let container?, nil, _): container.optional(Self.self, name: name)
        case (let container?, let n?, true): container.optional(Self.self, name: name, arguments: n)
        case (let container?, let n?, false): container.optional(Self.self, name: name, args: n)
        case (nil, nil, _): Resolver.optional(Self.self, name: name)
        case (nil, let n?, true): Resolver.optional(Self.self, name: name, arguments: n)
        case (nil, let n?, false): Resolver.optional(Self.self, name: name, args: n)
        }
    }

    /// As `optional(from:name:typed:argument:)`, with `optionalAsync`.
    static func optionalAsync(from container: Resolver?, name: Resolver.Name?, typed: Bool, argument: Int?) async -> LifetimeNode? {
        switch (container, argument, typed) {
        case (let container?, nil, _): await container.optionalAsync(Self.self, name: name)
        case (let container?, let n?, true): await container.optionalAsync(Self.self, name: name, arguments: n)
        case (let container?, let n?, false): await container.optionalAsync(Self.self, name: name, args: n)
        case (nil, nil, _): await Resolver.optionalAsync(Self.self, name: name)
        case (nil, let n?, true): await Resolver.optionalAsync(Self.self, name: name, arguments: n)
        case (nil, let n?, false): await Resolver.optionalAsync(Self.self, name: name, args: n)
        }
    }

    /// `scope.reset(Self.self, name:)`.
    static func reset(in scope: ResolverScope, name: Resolver.Name?) {
        scope.reset(Self.self, name: name)
    }

    static func cast(_ node: LifetimeNode) -> Self {
        guard let service = node as? Self else { preconditionFailure("a factory of \(Self.self) made \(type(of: node))") }
        return service
    }
}
