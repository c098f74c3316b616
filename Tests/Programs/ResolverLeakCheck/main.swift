// Exercises the library and exits, for LeakSanitizer (`make asan`): every
// container, table, registration, cached instance and thread context it
// creates must be freed or still reachable at exit. Test runners keep
// allocations of their own, which is why this is a separate program.
import Resolver
import ResolverTestSupport

final class Leaf {}
final class Node { let leaf: Leaf; init(_ leaf: Leaf) { self.leaf = leaf } }
protocol Service: AnyObject {}
final class Implementation: Service {}
struct Value { let text = "value" }

nonisolated func exercise(round: Int) {
    let parent = Resolver()
    let child = Resolver()
    parent.add(child: child)
    child.register { Leaf() }
    parent.register { r in Node(r.resolve()) }
    parent.register(name: Resolver.Name("named \(round)")) { Leaf() }.scope(.application)
    parent.register { Implementation() }.implements(Service.self).scope(.shared)
    parent.register { Value() }.scope(.cached)
    parent.register { _, args in Node(Leaf()) }.resolveProperties { _, _, args in _ = args.optional() as Int? }
    parent.register(name: "container") { Leaf() }.scope(.container)
    for _ in 0..<10 {
        _ = parent.resolve(Node.self)
        _ = parent.resolve(Leaf.self, name: Resolver.Name("named \(round)"))
        _ = parent.resolve(Service.self)
        _ = parent.resolve(Value.self)
        _ = parent.resolve(Node.self, args: ["k": round])
        _ = parent.resolve(Leaf.self, name: "container")
        _ = parent.optional(Int.self)
        parent.register(name: "replaced") { round }
    }
    ResolverScope.cached.reset()
}

for round in 0..<50 {
    exercise(round: round)
}

// Threads: each gets a resolution context, freed when it exits.
runOnThreads(4) { _ in exercise(round: 1_000) }

Resolver.register { Leaf() }.scope(.application)
_ = Resolver.resolve(Leaf.self)
Resolver.reset()
if CommandLine.arguments.contains("--leak-on-purpose") {
    // Proves the check can fail: an object nothing refers to any more.
    _ = Unmanaged.passRetained(Leaf())
}
print("leak check: done")
