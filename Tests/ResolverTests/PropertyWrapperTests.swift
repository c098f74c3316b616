import Resolver
import ResolverTesting
import Testing

/// A service no test registers.
private final class Unregistered {}

extension IndependentTests {
    /// The four property wrappers. Tests whose wrappers resolve from `root`
    /// run with a container of their own as `root` (the `.resolver` trait),
    /// a child of `main` with isolated scopes: what they register there, and
    /// their `.shared` instances, no other test sees.
    @Suite struct PropertyWrappers {
        final class Holder {
            @Injected var leaf: Leaf
            @Injected(name: "named") var named: Leaf
            @OptionalInjected var missing: Top?
            @OptionalInjected var present: Leaf?
        }

        @Test(.resolver {
            $0.register { Leaf() }
            $0.register(name: "named") { Leaf() }
        })
        func injectedResolvesAtInitialisation() {
            let holder = Holder()
            #expect(holder.leaf !== holder.named)
            #expect(holder.missing == nil)
            #expect(holder.present != nil)
            let projected = holder.$leaf
            #expect(projected.wrappedValue === holder.leaf)
            holder.leaf = Leaf()
            #expect(holder.leaf !== projected.wrappedValue)
        }

        @Test(.resolver { $0.register { "root" } })
        func injectedFromAGivenContainer() {
            let container = Resolver()
            container.register { "container" }
            final class Box {
                let container: Resolver
                init(_ c: Resolver) { container = c; _value = Injected(container: c) }
                @Injected var value: String
            }
            #expect(Box(container).value == "container")
        }

        @Test(.resolver { $0.register { "root" } })
        func optionalInjectedFallsBackToRoot() {
            let empty = Resolver()
            var wrapper = OptionalInjected<String>(container: empty)
            #expect(wrapper.wrappedValue == "root")
            wrapper.wrappedValue = nil
            #expect(wrapper.wrappedValue == nil)
            let none = OptionalInjected<Unregistered>(container: empty)
            #expect(none.wrappedValue == nil)
        }

        @Test func lazyInjectedResolvesOnFirstReadWithItsSettings() {
            let made = Counter()
            let container = Resolver()
            container.register(name: "n") { _, args -> String in made.increment(); return "n:\(args() as Int)" }
            @LazyInjected var value: String
            #expect($value.isEmpty)
            $value.container = container
            $value.name = "n"
            $value.args = 3
            #expect(made.count == 0)
            #expect(value == "n:3")
            #expect(value == "n:3")
            #expect(made.count == 1 && !$value.isEmpty)
            $value.release()
            #expect($value.isEmpty)
            #expect(value == "n:3")
            #expect(made.count == 2)
            value = "assigned"
            #expect(value == "assigned" && made.count == 2)
        }

        /// 1.5.1 stopped the program on a read after `release()`: it set its
        /// implicitly unwrapped instance to nil and returned that. Here the
        /// read resolves again, as the first one did (issue 19; the migration
        /// article lists it).
        @Test func aReadAfterReleaseResolvesAgain() {
            let container = Resolver()
            let made = Counter()
            container.register { () -> Leaf in made.increment(); return Leaf() }
            @LazyInjected var leaf: Leaf
            $leaf.container = container
            let first = leaf
            $leaf.release()
            #expect($leaf.isEmpty)
            let second = leaf
            #expect(second !== first, "a new instance: .graph keeps none")
            #expect(made.count == 2)
            #expect(!$leaf.isEmpty && leaf === second)

            // A scope that keeps its instance gives that one back.
            let scope = ResolverScopeCache()
            container.register(name: "kept") { () -> Leaf in made.increment(); return Leaf() }.scope(scope)
            @LazyInjected(name: "kept", container: container) var kept: Leaf
            let keptFirst = kept
            $kept.release()
            #expect(kept === keptFirst)
            #expect(made.count == 3)
        }

        @Test(.resolver { $0.register { Leaf() } })
        func lazyInjectedInAClass() {
            final class Model { @LazyInjected var leaf: Leaf }
            let model = Model()
            #expect(model.$leaf.isEmpty)
            let first = model.leaf
            #expect(model.leaf === first)
            #expect(!model.$leaf.isEmpty)
            model.$leaf.release()
            #expect(model.leaf !== first)
        }

        @Test(.resolver { $0.register { Leaf() }.scope(.shared) })
        func weakLazyInjectedHoldsWeakly() {
            final class Model { @WeakLazyInjected var leaf: Leaf? }
            let model = Model()
            #expect(model.$leaf.isEmpty)
            var strong: Leaf? = Resolver.resolve(Leaf.self)
            let id = strong?.id
            #expect(model.leaf?.id == id, "resolved on first read: the shared instance")
            strong = nil
            #expect(model.leaf == nil, "gone once nothing holds it")
            #expect(model.$leaf.isEmpty)
            let replacement = Leaf()
            model.leaf = replacement
            #expect(model.leaf === replacement)
            model.$leaf.release()
            #expect(model.leaf == nil)
        }

        /// The first read returns the instance it resolved, even one that
        /// nothing else holds; later reads return what the weak reference
        /// holds. (The original stored the instance weakly and returned the
        /// weak reference's content, so this first read was nil on Linux.)
        @Test func weakLazyInjectedFirstReadReturnsTheResolvedInstance() {
            final class Model { @WeakLazyInjected var leaf: Leaf? }
            let container = Resolver()
            let made = Counter()
            container.register { () -> Leaf in made.increment(); return Leaf() }.scope(.unique)
            let model = Model()
            model.$leaf.container = container
            let firstID = model.leaf?.id
            #expect(firstID != nil, "the first read returns the new instance")
            #expect(made.count == 1)
            #expect(model.leaf == nil, "nothing held it: the weak reference is empty")
            #expect(model.$leaf.isEmpty)
            #expect(made.count == 1, "a later read does not resolve again")
        }

        /// Compiles only if the wrappers are Sendable (they cross into a
        /// detached task), and checks the value arrives intact.
        @Test(.resolver { $0.register { Leaf() } })
        func injectedIsSendableWhenItsServiceIs() async {
            let injected = Injected<Leaf>()
            let optional = OptionalInjected<Leaf>()
            let ids = await Task.detached { (injected.wrappedValue.id, optional.wrappedValue?.id) }.value
            #expect(ids.0 == injected.wrappedValue.id)
            #expect(ids.1 == optional.wrappedValue?.id && ids.1 != nil)
        }
    }
}
