// The services every benchmark resolves, shared by all implementations so that
// each container builds exactly the same objects.

/// A service with no dependencies (the transient, singleton and two-thread scenarios).
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

/// The generated types (GeneratedServices.swift) conform to this.
public protocol GeneratedService: AnyObject {
    init()
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
