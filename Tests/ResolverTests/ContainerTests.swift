import Resolver
import Testing

extension IndependentTests {
    /// Child containers and lookup order.
    @Suite struct Containers {
        @Test func lookupOrderIsSelfThenChildrenInOrderDepthFirst() {
            let root = Resolver()
            let first = Resolver(), second = Resolver(), grandchild = Resolver()
            root.add(child: first)
            root.add(child: second)
            first.add(child: grandchild)
            grandchild.register { "grandchild" }
            second.register { "second" }
            #expect(root.resolve(String.self) == "grandchild", "depth first: first's subtree before second")
            first.register { "first" }
            #expect(root.resolve(String.self) == "first")
            root.register { "root" }
            #expect(root.resolve(String.self) == "root")
            #expect(second.resolve(String.self) == "second")
            second.register(Int.self) { 2 }
            #expect(root.resolve(Int.self) == 2)
        }

        @Test func initWithChild() {
            let child = Resolver()
            child.register { "from child" }
            let parent = Resolver(child: child)
            #expect(parent.resolve(String.self) == "from child")
        }

        @available(*, deprecated)
        @Test func deprecatedInitWithParentBehavesAsChild() {
            let parent = Resolver()
            parent.register { "from parent" }
            let resolver = Resolver(parent: parent)
            #expect(resolver.resolve(String.self) == "from parent")
        }
    }
}

extension ResolverTests {
    /// The static state: `main`, `root`, `defaultScope`, `reset()`, `decorate`.
    @Suite struct StaticState {
        @Test func mainRootAndDefaultScope() {
            Resolver.reset()
            #expect(Resolver.root === Resolver.main)
            let other = Resolver()
            Resolver.main = other
            #expect(Resolver.main === other)
            Resolver.reset()
            #expect(Resolver.main !== other && Resolver.root === Resolver.main)

            Resolver.defaultScope = .application
            defer { Resolver.defaultScope = .graph }
            let resolver = Resolver()
            resolver.register { Leaf() }
            #expect(resolver.resolve(Leaf.self) === resolver.resolve(Leaf.self), "read at registration time")
            Resolver.defaultScope = .graph
            resolver.register(name: "later") { Leaf() }
            #expect(resolver.resolve(Leaf.self, name: "later") !== resolver.resolve(Leaf.self, name: "later"))
            ResolverScope.application.reset()
        }

        @Test func resetResetsTheGlobalScopesAndNothingElse() {
            Resolver.reset()
            let resolver = Resolver()
            resolver.register(name: "app") { Leaf() }.scope(.application)
            resolver.register(name: "cached") { Leaf() }.scope(.cached)
            resolver.register(name: "session") { Leaf() }.scope(.session)
            resolver.register(name: "container") { Leaf() }.scope(.container)
            Resolver.register { "in old main" }
            let before = ["app", "cached", "session", "container"].map { resolver.resolve(Leaf.self, name: Resolver.Name($0)) }
            Resolver.reset()
            let after = ["app", "cached", "session", "container"].map { resolver.resolve(Leaf.self, name: Resolver.Name($0)) }
            #expect(before[0] !== after[0])
            #expect(before[1] !== after[1])
            #expect(before[2] === after[2], "custom scopes are untouched")
            #expect(before[3] === after[3], "container caches are untouched")
            #expect(Resolver.optional(String.self) == nil, "main is new")
            #expect(resolver.optional(Leaf.self, name: "app") != nil, "other containers keep their registrations")
            ResolverScope.session.reset()
        }

        @Test func decorateSeesEveryResolvedService() {
            // Tests of other modules (ResolverTestingTests) may resolve
            // meanwhile, on other threads: only this test's types count.
            let seen = Locked<[String]>([])
            Resolver.decorate = { service in
                guard service is Leaf || service is Middle || service is Top else { return }
                seen.withLock { $0.append(String(describing: type(of: service))) }
            }
            defer { Resolver.decorate = nil }
            let resolver = Resolver()
            resolver.register { Leaf() }
            resolver.register { r in Middle(leaf: r.resolve()) }
            _ = resolver.resolve(Middle.self)
            _ = resolver.optional(Top.self)
            #if DEBUG
            #expect(seen.withLock { $0 } == ["Leaf", "Middle"])
            #else
            #expect(seen.withLock { $0 }.isEmpty)
            #endif
        }

        @Test func resolvingTheDefaultResolver() {
            struct ViewModel: Resolving {}
            Resolver.reset()
            #expect(ViewModel().resolver === Resolver.root)
            let mock = Resolver(child: Resolver.main)
            Resolver.root = mock
            #expect(ViewModel().resolver === mock, "read on every access")
            Resolver.root = Resolver.main
        }
    }
}
