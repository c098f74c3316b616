// The services the scaling scenarios resolve, and the sink that keeps the
// optimiser from dropping the work. Self-contained (no other benchmark target)
// so that Scripts/scaling.py can build this target against an earlier commit
// of the library and measure both side by side.

/// A service with no dependencies.
final class Plain: Sendable {
    init() {}
}

/// A service registered under a name.
final class Named: Sendable {
    init() {}
}

/// The graph A(B): A built from a B resolved in the same resolution.
final class GraphB: Sendable {
    init() {}
}

final class GraphA: Sendable {
    let b: GraphB
    init(b: GraphB) { self.b = b }
}

/// Where results go: a call through a global closure the optimiser cannot see
/// into, so the object must exist and is passed borrowed (no retain). main
/// assigns it at run time: a global the whole module never reassigns would be
/// known to hold the empty closure, and constructions it receives would be
/// optimised away (the construction floor measured nothing).
nonisolated(unsafe) var sinkTarget: (AnyObject) -> Void = { _ in }

@inline(never)
func sink(_ object: AnyObject) { sinkTarget(object) }

/// The name used by the named scenarios.
let serviceName = "fred"
