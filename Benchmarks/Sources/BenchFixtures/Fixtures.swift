// The services every benchmark resolves, shared by all implementations so that
// each container builds exactly the same objects.

/// A service with no dependencies (the transient and singleton scenarios).
public final class Plain: Sendable {
    public init() {}
}

/// A service registered under a name (the named scenario).
public final class NamedService: Sendable {
    public init() {}
}

/// A service built from one argument (the one-argument scenario).
public final class ArgService: Sendable {
    public let value: Int
    public init(_ value: Int) { self.value = value }
}

/// The graph A(B(C), C): C is used twice within one resolution, so graph scope
/// must hand the same C to B and to A.
public final class GraphC: Sendable {
    public init() {}
}

public final class GraphB: Sendable {
    public let c: GraphC
    public init(c: GraphC) { self.c = c }
}

public final class GraphA: Sendable {
    public let b: GraphB
    public let c: GraphC
    public init(b: GraphB, c: GraphC) {
        self.b = b
        self.c = c
    }
}

/// The name used by the named scenario, in every container.
public let benchmarkServiceName = "fred"

/// The argument passed by the one-argument scenario.
public let benchmarkArgument = 7

/// The 1,000 generated service types conform to this. They are written at
/// build time, with `generatedServiceCount` and `forEachGeneratedService(_:)`,
/// by Sources/GenerateServices (run by Plugins/GenerateServicesPlugin) into
/// this target's plugin work directory under .build.
public protocol GeneratedService: AnyObject {
    init()
}

/// Something done once per generated service type: each container's
/// registration code (BenchScenarios: `OursRegistrar`, `SwinjectRegistrar`,
/// `BaselineRegistrar`), passed to `forEachGeneratedService(_:)`.
///
/// The register scenario measures what an app's registration code costs: 1,000
/// calls like `resolver.register { GeneratedService0042() }`, each compiled for
/// its concrete type (the library's `@inlinable` register specialized for it,
/// the factory a context-free closure). Written generically, one line per
/// container, the calls stay that way in release builds:
/// `forEachGeneratedService` is `@inlinable`, so BenchScenarios specializes it
/// for each registrar, and in it each `visit(GeneratedService0042.self)` has a
/// concrete type argument, so `visit` is specialized (and inlined,
/// `@inline(__always)`) for that type: the same code as the hand-written call
/// (the release binary holds one specialized factory closure per type and
/// container). Unspecialized, each call would time the library's generic path
/// and the runtime's generic metadata lookups instead, and each factory closure
/// would capture the type's metadata in a heap context (one more malloc per
/// registration, visible in the report's register row).
public protocol GeneratedServiceVisitor {
    func visit<Service: GeneratedService>(_ type: Service.Type)
}

/// Where results go, so that the optimiser cannot drop or shortcut the work
/// that produced them. A call through a mutable global closure: the compiler
/// cannot see its target, so it must assume the object escapes (an empty
/// `@inline(never)` function is not enough: release builds export its
/// "does not escape" effect across modules, and construction floors were then
/// stack-allocated). Every implementation's loop, floors included, pays this
/// same call (about a nanosecond), with the result passed borrowed (no retain).
/// `@exclusivity(unchecked)`: a release build would otherwise check exclusive
/// access to the global on every read (swift_beginAccess, ~10 ns).
@exclusivity(unchecked) nonisolated(unsafe) public var sinkObjectTarget: (AnyObject) -> Void = { _ in }
@exclusivity(unchecked) nonisolated(unsafe) public var sinkValueTarget: (UInt) -> Void = { _ in }

@inline(never)
public func sink(_ object: AnyObject) { sinkObjectTarget(object) }

@inline(never)
public func sink(_ value: UInt) { sinkValueTarget(value) }

// MARK: - The cold-container scenario

/// A service of the cold-container scenario's graph (written at build time
/// with `forEachDagService(_:)` and `buildDagByHand(_:)`, like the generated
/// services above): a class whose initializer takes its dependencies.
public protocol DagService: AnyObject {
    /// The service, its dependencies asked of `resolver` in the
    /// initializer's order.
    static func build<Resolving: DagResolving>(_ resolver: Resolving) -> Self
}

/// What a container's factory asks for a dependency: each implementation's
/// `resolve`, specialized for the dependency's type.
public protocol DagResolving {
    func get<Service: AnyObject>() -> Service
}

/// Something done once per service of the graph (register it, resolve it),
/// specialized for each type as `GeneratedServiceVisitor` is.
public protocol DagServiceVisitor {
    func visit<Service: DagService>(_ type: Service.Type)
}
