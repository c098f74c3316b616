// Every public declaration of Resolver 1.5.1, used once, with the original's
// signature (/work/shared/RESOLVER-1.5.1-DECLARATIONS.md lists them; the
// numbers below follow that list). Where a declaration could be matched by a
// looser one (an overload, a different closure type), the use pins it with an
// explicit type. Compiled in Swift 5 (APIProbe5) and Swift 6 (APIProbe6)
// language modes with warnings as errors; a missing or changed declaration
// fails `make test` here.
//
// The Apple-only declarations compile only where their frameworks exist, as
// in the original (`#if os(iOS)` for the storyboard support, SwiftUI for
// `InjectedObject`).
//
import Resolver

// MARK: - ResolverRegistering

// `@retroactive` marks the conformance of an imported type (Resolver) to an
// imported protocol (ResolverRegistering) as intended. Compilers since Swift
// 6.0 warn about the plain spelling in both language modes (the owner of
// `Resolver` could add the conformance later); the plain spelling is the
// documented pattern and Tests/Swift5App keeps it, but with warnings as
// errors only this one builds.
extension Resolver: @retroactive ResolverRegistering {
    // ResolverRegistering.registerAllServices() (requirement)
    public static func registerAllServices() {
        register(name: "registered") { "by registerAllServices" }
    }
}

/// The protocol as a type: runs the requirement directly.
func registerThroughTheProtocol() {
    let registering: ResolverRegistering.Type = Resolver.self
    registering.registerAllServices()
}

// MARK: - Services

protocol ProbeFetching: AnyObject { func fetch() -> String }

final class ProbeService: ProbeFetching {
    let tag: String
    init(_ tag: String = "service") { self.tag = tag }
    func fetch() -> String { tag }
}

final class ProbeSession {}

final class ProbeArgumentService {
    let flag: Bool
    let name: String
    init(flag: Bool, name: String) { self.flag = flag; self.name = name }
}

final class ProbeLog { var steps: [String] = [] }

extension Resolver.Name {
    // Name.init(_ rawValue: String)
    static let probe = Self("probe")
}

extension ResolverScope {
    // ResolverScopeCache.init(), as apps declare custom scopes.
    static let probeSession = ResolverScopeCache()
}

/// A scope of the app's own, through the protocol alone.
final class ProbeScopeType: ResolverScopeType {
    var resolved = 0
    // ResolverScopeType.resolve(registration:resolver:args:) (requirement)
    func resolve<Service>(registration: ResolverRegistration<Service>, resolver: Resolver, args: Any?) -> Service? {
        resolved += 1
        return registration.instantiate(resolver: resolver, args: args)
    }
    // ResolverScopeType.reset() (requirement)
    func reset() {}
}

/// Resolving with its default `resolver`.
struct ProbeDefaultResolving: Resolving {}

/// Resolving with a `resolver` of its own.
struct ProbeOwnResolving: Resolving {
    let resolver: Resolver
}

/// The requirement, used through a generic.
func resolverOf<Subject: Resolving>(_ subject: Subject) -> Resolver {
    subject.resolver
}

/// The property wrappers as apps declare them.
final class ProbeViewModel {
    @Injected var injected: ProbeService
    @Injected(name: .probe, container: nil) var injectedNamed: ProbeService
    @OptionalInjected var optional: ProbeSession?
    @OptionalInjected(name: .probe, container: nil) var optionalNamed: ProbeService?
    @LazyInjected var lazy: ProbeService
    @LazyInjected(name: .probe, container: nil) var lazyNamed: ProbeService
    @WeakLazyInjected var weakLazy: ProbeService?
    @WeakLazyInjected(name: .probe, container: nil) var weakLazyNamed: ProbeService?
}

/// Collects failed checks.
final class ProbeChecks {
    private(set) var failures: [String] = []

    func check(_ condition: Bool, _ what: String, line: Int = #line) {
        if !condition {
            failures.append("line \(line): \(what)")
        }
    }
}

// MARK: - The declarations

/// Uses every declaration; returns what did not behave as expected.
func useEveryDeclaration() -> [String] {
    let checks = ProbeChecks()

    // MARK: Type aliases (all seven, as explicit types)
    let plainFactory: ResolverFactory<ProbeService> = { ProbeService("plain") }
    let resolverFactory: ResolverFactoryResolver<ProbeFetching> = { _ in ProbeService("resolver") }
    let argumentsFactory: ResolverFactoryArgumentsN<ProbeArgumentService> = { _, args in
        ProbeArgumentService(flag: args("flag"), name: args("name"))
    }
    let anyArgumentsFactory: ResolverFactoryAnyArguments<ProbeService> = { _, args in
        ProbeService(args as? String ?? "any")
    }
    let mutator: ResolverFactoryMutator<ProbeLog> = { _, log in log.steps.append("mutator") }
    let argumentsMutator: ResolverFactoryMutatorArgumentsN<ProbeLog> = { _, log, args in
        log.steps.append(args.optional() ?? "no argument")
    }
    let uniqueScope: ResolverScopeUnique = ResolverScope.unique

    // MARK: Resolver: static state
    Resolver.reset()                                               // static func reset()
    let main: Resolver = Resolver.main                             // static var main (get)
    Resolver.main = main                                           // static var main (set)
    let root: Resolver = Resolver.root                             // static var root (get)
    Resolver.root = root                                           // static var root (set)
    checks.check(root === main, "root starts as main")
    let defaultScope: ResolverScope = Resolver.defaultScope        // static var defaultScope (get)
    Resolver.defaultScope = defaultScope                           // static var defaultScope (set)
    let decorate: ((_ service: Any) -> Void)? = Resolver.decorate  // static var decorate (get)
    Resolver.decorate = decorate                                   // static var decorate (set)
    let registerServices: (() -> Void)? = Resolver.registerServices // static var registerServices (get)
    Resolver.registerServices = registerServices                   // static var registerServices (set)
    registerServices?()
    Resolver.main.registerServices()                               // final func registerServices()
    registerThroughTheProtocol()
    checks.check(Resolver.optional(String.self, name: "registered") == "by registerAllServices",
                 "registerAllServices ran")

    // MARK: Resolver: containers
    let container = Resolver()                                     // init(child: Resolver? = nil), defaulted
    let child = Resolver(child: nil)                               // init(child:)
    container.add(child: child)                                    // func add(child:)
    let cache: ResolverScope = container.cache                     // lazy var cache (get)
    container.cache = cache                                        // lazy var cache (set)
    checks.check(DeprecatedUse.childOf(child) !== child, "init(parent:) makes a container")

    // MARK: Resolver: register, static ×3 and instance ×3, each overload pinned
    Resolver.register(ProbeService.self, name: nil, factory: plainFactory)          // static, ResolverFactory
    Resolver.register(ProbeFetching.self, name: .probe, factory: resolverFactory)  // static, ResolverFactoryResolver
    Resolver.register(ProbeArgumentService.self, name: nil, factory: argumentsFactory) // static, ArgumentsN
    child.register(ProbeService.self, name: "child", factory: plainFactory)          // instance, ResolverFactory
    container.register(ProbeFetching.self, name: nil, factory: resolverFactory)      // instance, ResolverFactoryResolver
    container.register(ProbeArgumentService.self, name: .probe, factory: argumentsFactory) // instance, ArgumentsN
    // The forms apps write: the closure's shape picks the overload.
    Resolver.register { ProbeSession() }
    Resolver.register { r in ProbeService(r.resolve(String.self, name: "registered")) }
    Resolver.register { _, args in ProbeArgumentService(flag: args(), name: "positional") }

    // MARK: Resolver: resolve and optional, static and instance
    let staticResolve: (ProbeService.Type, Resolver.Name?, Any?) -> ProbeService = Resolver.resolve(_:name:args:)
    let staticOptional: (ProbeService.Type, Resolver.Name?, Any?) -> ProbeService? = Resolver.optional(_:name:args:)
    let instanceResolve: (ProbeService.Type, Resolver.Name?, Any?) -> ProbeService = container.resolve(_:name:args:)
    let instanceOptional: (ProbeService.Type, Resolver.Name?, Any?) -> ProbeService? = container.optional(_:name:args:)
    checks.check(staticResolve(ProbeService.self, nil, nil).tag == "by registerAllServices", "static resolve")
    checks.check(staticOptional(ProbeService.self, "absent", nil) == nil, "static optional")
    checks.check(instanceResolve(ProbeService.self, "child", nil).tag == "plain", "instance resolve through a child")
    checks.check(instanceOptional(ProbeService.self, nil, nil) == nil, "instance optional")
    // The same references without labels, as 1.5.1 code writes them (each
    // compiled against 1.5.1's one function): static, from `main`, unbound,
    // and `optional` static and from an instance.
    let bareResolve: (ProbeService.Type, Resolver.Name?, Any?) -> ProbeService = Resolver.resolve
    let mainResolve: (ProbeService.Type, Resolver.Name?, Any?) -> ProbeService = Resolver.main.resolve
    let unboundResolve: (Resolver) -> (ProbeService.Type, Resolver.Name?, Any?) -> ProbeService = Resolver.resolve
    let bareOptional: (ProbeService.Type, Resolver.Name?, Any?) -> ProbeService? = Resolver.optional
    let instanceBareOptional: (ProbeService.Type, Resolver.Name?, Any?) -> ProbeService? = container.optional
    checks.check(bareResolve(ProbeService.self, nil, nil).tag == "by registerAllServices", "resolve as a bare reference")
    checks.check(mainResolve(ProbeService.self, nil, nil).tag == "by registerAllServices", "main.resolve as a reference")
    checks.check(unboundResolve(container)(ProbeService.self, "child", nil).tag == "plain", "unbound resolve")
    checks.check(bareOptional(ProbeService.self, "absent", nil) == nil, "optional as a bare reference")
    checks.check(instanceBareOptional(ProbeService.self, nil, nil) == nil, "instance optional as a bare reference")
    let fetching: ProbeFetching = Resolver.resolve(name: .probe)
    checks.check(fetching.fetch() == "resolver", "named resolve")
    let keyed: ProbeArgumentService = container.resolve(name: .probe, args: ["flag": true, "name": "keyed"])
    checks.check(keyed.flag && keyed.name == "keyed", "keyed arguments")
    let positional: ProbeArgumentService = Resolver.resolve(args: true)
    checks.check(positional.flag, "a positional argument")
    checks.check(Resolver.optional(ProbeSession.self) != nil, "optional finds a registration")
    checks.check(container.optional(ProbeFetching.self) != nil, "instance optional with inference")

    // MARK: Resolver.Name
    let name: Resolver.Name = "literal"                            // ExpressibleByStringLiteral
    let text = "literal"
    let fromString = Resolver.Name(stringLiteral: text)            // init(stringLiteral: String)
    let rawValue: String = name.rawValue                           // let rawValue
    let parsed: Resolver.Name? = Resolver.Name.name(fromString: text) // static func name(fromString:)
    checks.check(Resolver.Name.name(fromString: nil) == nil, "name(fromString: nil)")
    checks.check(name == fromString && parsed == name && rawValue == text, "Name ==")  // static func ==
    var hasher = Hasher()
    name.hash(into: &hasher)                                       // func hash(into:)
    checks.check(Set([name, fromString, .probe]).count == 2, "Name is Hashable")

    // MARK: Resolver.Args
    let single = Resolver.Args(7)                                  // init(_ args: Any?)
    let dictionary = Resolver.Args(["id": 7, "name": "x"])
    let callSingle: Int = single()                                 // callAsFunction<T>() -> T
    let callKeyed: String = dictionary("name")                     // callAsFunction<T>(_ key: String) -> T
    let optionalSingle: Int? = single.optional()                   // optional<T>() -> T?
    let optionalKeyed: Int? = dictionary.optional("id")            // optional<T>(_ key: String) -> T?
    let getSingle: Int = single.get()                              // get<T>() -> T
    let getKeyed: Int = dictionary.get("id")                       // get<T>(_ key: String) -> T
    checks.check(callSingle == 7 && callKeyed == "x" && optionalSingle == 7 && optionalKeyed == 7
                 && getSingle == 7 && getKeyed == 7, "Args reads")

    // MARK: ResolverOptions
    var options: ResolverOptions<ProbeLog> = container.register { ProbeLog() }
    let registration: ResolverRegistration<ProbeLog> = options.registration // var registration (get)
    options.registration = registration                            // var registration (set)
    options
        .implements(AnyObject.self, name: "log")                   // implements(_:name:)
        .resolveProperties(mutator)                                // resolveProperties(_: ResolverFactoryMutator)
        .resolveProperties(argumentsMutator)                       // resolveProperties(_: ResolverFactoryMutatorArgumentsN)
        .scope(.unique)                                            // scope(_:)
    checks.check(container.resolve(ProbeLog.self, args: "with argument").steps == ["mutator", "with argument"],
                 "resolveProperties run in order")
    checks.check(container.optional(AnyObject.self, name: "log") is ProbeLog, "implements")
    let byHand = ResolverOptions(registration: registration)       // init(registration:) (public here)
    checks.check(byHand.registration === registration, "ResolverOptions(registration:)")

    // MARK: ResolverRegistration
    let made = ResolverRegistration<ProbeService>(resolver: container, key: 42, name: .probe,
                                                  factory: anyArgumentsFactory) // init(resolver:key:name:factory:)
    let key: Int = made.key                                        // let key
    let cacheKey: String = made.cacheKey                           // let cacheKey
    checks.check(key == 42 && !cacheKey.isEmpty, "key and cacheKey")
    made.update { factory in                                       // update(factory:)
        { resolver, args in factory(resolver, args).map { ProbeService("updated " + $0.tag) } }
    }
    let instantiated: ProbeService? = made.instantiate(resolver: container, args: "x") // instantiate(resolver:args:)
    checks.check(instantiated?.tag == "updated x", "instantiate runs the updated factory")
    let throughScope: ProbeService? = made.resolve(resolver: container, args: nil) // resolve(resolver:args:)
    checks.check(throughScope?.tag == "updated any", "resolve through the scope")

    // MARK: Scopes
    let application: ResolverScopeCache = ResolverScope.application   // static let application
    let cached: ResolverScopeCache = ResolverScope.cached              // static let cached
    let graph: ResolverScopeGraph = ResolverScope.graph                // static let graph
    let shared: ResolverScopeShare = ResolverScope.shared              // static let shared
    let unique: ResolverScope = ResolverScope.unique                   // static let unique
    let containerScope: ResolverScopeContainer = ResolverScope.container // static let container
    checks.check(uniqueScope === unique, "ResolverScopeUnique")
    let scopes: [ResolverScope] = [
        ResolverScope(),                                           // ResolverScope.init()
        ResolverScopeCache(),                                      // ResolverScopeCache.init()
        ResolverScopeGraph(),                                      // ResolverScopeGraph.init()
        ResolverScopeShare(),                                      // ResolverScopeShare.init()
        ResolverScopeContainer(),                                  // ResolverScopeContainer.init()
    ]
    checks.check(scopes.count == 5, "scopes made")
    let service = ResolverRegistration<ProbeService>(resolver: container, key: 1, name: nil) { _, _ in ProbeService() }
    let fromUnique: ProbeService? = unique.resolve(registration: service, resolver: container, args: nil) // ResolverScope.resolve
    let fromCache: ProbeService? = application.resolve(registration: service, resolver: container, args: nil) // ResolverScopeCache.resolve
    let fromGraph: ProbeService? = graph.resolve(registration: service, resolver: container, args: nil) // ResolverScopeGraph.resolve
    let fromShare: ProbeService? = shared.resolve(registration: service, resolver: container, args: nil) // ResolverScopeShare.resolve
    let fromContainer: ProbeService? = containerScope.resolve(registration: service, resolver: container, args: nil) // ResolverScopeContainer.resolve
    checks.check(fromUnique !== fromCache && fromCache === application.resolve(registration: service, resolver: container, args: nil),
                 "unique and cache scopes")
    checks.check(fromGraph != nil && fromShare != nil && fromContainer != nil, "graph, shared and container scopes")
    unique.reset()                                                 // ResolverScope.reset()
    application.reset()                                            // ResolverScopeCache.reset()
    cached.reset()
    graph.reset()                                                  // ResolverScopeGraph.reset()
    shared.reset()                                                 // ResolverScopeShare.reset()
    containerScope.reset()                                         // ResolverScopeContainer.reset() (inherited)
    ResolverScope.probeSession.reset()
    let scopeType = ProbeScopeType()
    let asScopeType: ResolverScopeType = scopeType
    let fromScopeType: ProbeService? = asScopeType.resolve(registration: service, resolver: container, args: nil)
    asScopeType.reset()
    checks.check(fromScopeType != nil && scopeType.resolved == 1, "ResolverScopeType")

    // MARK: Resolving
    checks.check(ProbeDefaultResolving().resolver === Resolver.root, "Resolving's default resolver") // extension Resolving
    checks.check(resolverOf(ProbeOwnResolving(resolver: container)) === container, "Resolving.resolver")

    // MARK: Property wrappers
    Resolver.register(name: .probe) { ProbeService("named") }
    let model = ProbeViewModel()
    var injected: Injected<ProbeService> = model.$injected         // Injected.projectedValue (get)
    injected = Injected()                                          // Injected.init()
    injected = Injected(name: "child", container: container)      // Injected.init(name:container:)
    model.$injected = injected                                     // Injected.projectedValue (set)
    model.injected = ProbeService("set")                           // Injected.wrappedValue (set)
    checks.check(model.injected.tag == "set" && model.injectedNamed.tag == "named", "@Injected") // wrappedValue (get)

    var optional: OptionalInjected<ProbeSession> = model.$optional // OptionalInjected.projectedValue (get)
    optional = OptionalInjected()                                  // OptionalInjected.init()
    optional = OptionalInjected(name: nil, container: container)   // OptionalInjected.init(name:container:)
    model.$optional = optional                                     // OptionalInjected.projectedValue (set)
    let session: ProbeSession? = model.optional                    // OptionalInjected.wrappedValue (get)
    model.optional = session                                       // OptionalInjected.wrappedValue (set)
    checks.check(model.optional != nil && model.optionalNamed?.tag == "named", "@OptionalInjected")

    var lazy: LazyInjected<ProbeService> = LazyInjected()          // LazyInjected.init()
    lazy = LazyInjected(name: nil, container: nil)                 // LazyInjected.init(name:container:)
    lazy.container = child                                         // LazyInjected.container
    lazy.name = "child"                                            // LazyInjected.name
    lazy.args = nil                                                // LazyInjected.args
    model.$lazy = lazy                                             // LazyInjected.projectedValue (set)
    checks.check(model.$lazy.isEmpty, "@LazyInjected starts empty") // LazyInjected.isEmpty, projectedValue (get)
    checks.check(model.lazy.tag == "plain", "@LazyInjected resolves with its name and container") // wrappedValue (get)
    model.lazy = ProbeService("assigned")                          // LazyInjected.wrappedValue (set)
    model.$lazy.release()                                          // LazyInjected.release()
    checks.check(model.$lazy.isEmpty, "@LazyInjected released")

    var weakLazy: WeakLazyInjected<ProbeService> = WeakLazyInjected() // WeakLazyInjected.init()
    weakLazy = WeakLazyInjected(name: .probe, container: nil)      // WeakLazyInjected.init(name:container:)
    weakLazy.container = nil                                       // WeakLazyInjected.container
    weakLazy.name = nil                                            // WeakLazyInjected.name
    weakLazy.args = nil                                            // WeakLazyInjected.args
    model.$weakLazy = weakLazy                                     // WeakLazyInjected.projectedValue (set)
    checks.check(model.$weakLazy.isEmpty, "@WeakLazyInjected starts empty") // isEmpty, projectedValue (get)
    let held = ProbeService("held")
    model.weakLazy = held                                          // WeakLazyInjected.wrappedValue (set)
    checks.check(model.weakLazy === held, "@WeakLazyInjected holds what is assigned") // wrappedValue (get)
    checks.check(model.weakLazyNamed?.tag == "named", "@WeakLazyInjected(name:)")
    withExtendedLifetime(held) {}

    Resolver.reset()
    return checks.failures
}

/// `init(parent:)` is deprecated (in the original too, for Swift 5 and
/// later): a deprecated declaration may use it without a warning, and this
/// one is reached through a protocol requirement, which is not deprecated, so
/// the call site does not warn either. That is the standard way to keep
/// exercising a deprecated API with warnings as errors.
protocol DeprecatedUses {
    func childOf(_ parent: Resolver) -> Resolver
}

struct DeprecatedUseWitness: DeprecatedUses {
    @available(*, deprecated, message: "exercises the deprecated init(parent:)")
    func childOf(_ parent: Resolver) -> Resolver {
        Resolver(parent: parent)                                   // init(parent:) (deprecated)
    }
}

enum DeprecatedUse {
    static func childOf(_ parent: Resolver) -> Resolver {
        let uses: DeprecatedUses = DeprecatedUseWitness()
        return uses.childOf(parent)
    }
}

// MARK: - Apple only

#if canImport(UIKit) && os(iOS)
import UIKit

/// StoryboardResolving and UIViewController.resolving (iOS only, as in the
/// original). The requirement is nonisolated, so a view controller (main
/// actor) implements it `nonisolated`.
final class ProbeViewController: UIViewController, StoryboardResolving {
    nonisolated func resolveViewController() {}         // StoryboardResolving.resolveViewController()
}

@MainActor
func useStoryboardResolving() -> Bool {
    let controller = ProbeViewController()
    controller.resolving = true                        // UIViewController.resolving (set)
    return controller.resolving                        // UIViewController.resolving (get)
}
#endif

#if canImport(SwiftUI) && canImport(Combine)
import Combine
import SwiftUI

@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
final class ProbeObservable: ObservableObject {
    @Published var count = 0
}

@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
struct ProbeView: View {
    @InjectedObject var first: ProbeObservable                      // InjectedObject.init()
    @InjectedObject(name: .probe, container: nil) var second: ProbeObservable // InjectedObject.init(name:container:)

    var body: some View {
        let binding: Binding<Int> = $first.count                    // InjectedObject.projectedValue
        return Text("\(first.count) \(second.count) \(binding.wrappedValue)") // InjectedObject.wrappedValue
    }

    mutating func replace() {
        first = ProbeObservable()                                   // InjectedObject.wrappedValue (set)
    }
}
#endif
