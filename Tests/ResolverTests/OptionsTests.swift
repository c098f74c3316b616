import Resolver
import Testing

extension IndependentTests {
    /// `ResolverOptions`: implements, resolveProperties and scope, in any order.
    @Suite struct Options {
        @Test func implementsResolvesThroughTheSameRegistration() {
            let resolver = Resolver()
            resolver.register { XYZService() }
                .implements(XYZFetching.self)
                .implements(XYZUpdating.self)
                .scope(.container)
            let service: XYZService = resolver.resolve()
            let fetching: XYZFetching = resolver.resolve()
            let updating: XYZUpdating = resolver.resolve()
            #expect(fetching.id == service.id)
            #expect(updating.id == service.id)
        }

        /// The protocol resolves through the registration, so a scope set
        /// after `implements` decides what the protocol gets. Under the
        /// default (graph) scope, the protocol and the class resolved in one
        /// resolution are one instance, and two resolutions make two; each
        /// assertion below fails unless the scope written last took effect.
        @Test func scopeAfterImplementsAppliesToTheProtocol() {
            final class Both {
                let fetching: XYZFetching
                let service: XYZService
                init(fetching: XYZFetching, service: XYZService) { self.fetching = fetching; self.service = service }
            }
            let resolver = Resolver()
            resolver.register { r in Both(fetching: r.resolve(), service: r.resolve()) }

            resolver.register { XYZService() }.implements(XYZFetching.self)
            let graph: Both = resolver.resolve()
            #expect(graph.fetching === graph.service, "the control: the default graph scope shares within a resolution")

            resolver.register { XYZService() }.implements(XYZFetching.self).scope(.unique)
            let unique: Both = resolver.resolve()
            #expect(unique.fetching !== unique.service, ".unique: a new instance even within one resolution")

            let scope = ResolverScopeCache()
            resolver.register { XYZService() }.implements(XYZFetching.self).scope(scope)
            let c: XYZFetching = resolver.resolve()
            let d: XYZFetching = resolver.resolve()
            #expect(c === d, "the cache keeps one instance across resolutions")
            #expect(resolver.resolve(XYZService.self) === c, "the protocol's instance is the registration's")
            scope.reset()
            #expect(resolver.resolve(XYZFetching.self) !== c, "it was the cache that kept it")
        }

        @Test func implementsWithANameAndArgumentsPassingThrough() {
            let resolver = Resolver()
            final class Tagged: XYZFetching { let id: Int; init(_ id: Int) { self.id = id } }
            resolver.register { _, args in Tagged(args()) }.implements(XYZFetching.self, name: "tagged")
            #expect(resolver.resolve(XYZFetching.self, name: "tagged", args: 77).id == 77)
            #expect(resolver.optional(XYZFetching.self) == nil)
        }

        @Test func implementsOnANamedRegistrationUsesThatRegistration() {
            let resolver = Resolver()
            resolver.register { XYZService() }
            let named = resolver.register(name: "special") { XYZService() }.scope(ResolverScopeCache())
            named.implements(XYZFetching.self)
            let special: XYZService = resolver.resolve(name: "special")
            let fetching: XYZFetching = resolver.resolve()
            #expect(fetching.id == special.id)
        }

        @Test func resolvePropertiesRunInOrderAfterTheFactory() {
            let resolver = Resolver()
            final class Log { var steps: [String] = [] }
            resolver.register { () -> Log in let log = Log(); log.steps.append("factory"); return log }
                .resolveProperties { _, log in log.steps.append("first") }
                .resolveProperties { _, log, _ in log.steps.append("second") }
            #expect(resolver.resolve(Log.self).steps == ["factory", "first", "second"])
        }

        @Test func resolvePropertiesSkippedWhenTheFactoryReturnsNil() {
            let resolver = Resolver()
            let ran = Counter()
            resolver.register { nil as Leaf? }.resolveProperties { _, _ in ran.increment() }
            #expect(resolver.optional(Leaf.self) == nil)
            #expect(ran.count == 0)
        }

        /// A needs B, B needs C, and C needs the A being built: C gets it in
        /// A's resolveProperties, where the graph-scoped C is the one just built.
        @Test func resolvePropertiesBreaksACycle() {
            final class A { let b: B; init(b: B) { self.b = b } }
            final class B { let c: C; init(c: C) { self.c = c } }
            final class C { weak var a: A? }
            let resolver = Resolver()
            resolver.register { r in A(b: r.resolve()) }.resolveProperties { r, a in r.resolve(C.self).a = a }
            resolver.register { r in B(c: r.resolve()) }
            resolver.register { C() }
            let a: A = resolver.resolve()
            #expect(a.b.c.a === a)
        }

        /// `ResolverOptions` is a `struct`, as it was in 1.5.1 (the
        /// migration article called the original a `final class` until issue
        /// 19): a copy whose `registration` is replaced leaves the original
        /// alone.
        @Test func resolverOptionsIsAValueTypeAsIn151() {
            #expect(!((ResolverOptions<Leaf>.self as Any.Type) is AnyClass))
            let resolver = Resolver()
            let options = resolver.register { Leaf() }
            let registration = options.registration
            var copy = options
            copy.registration = resolver.register(name: "other") { Leaf() }.registration
            #expect(options.registration === registration)
            #expect(copy.registration !== registration)
        }
    }
}

extension ResolverTests {
    /// `scope(.application)`, through the app-wide cache.
    @Suite struct OptionsInAppWideScopes {
        @Test func scopeOptionSetsTheScope() {
            let resolver = Resolver()
            let options = resolver.register { Leaf() }.scope(.application)
            let first = options.registration.resolve(resolver: resolver, args: nil)
            #expect(first != nil)
            #expect(options.registration.resolve(resolver: resolver, args: nil) === first, "kept across resolutions")
            #expect(resolver.resolve(Leaf.self) === first)
            ResolverScope.application.reset()
            #expect(resolver.resolve(Leaf.self) !== first, "it was .application that kept it")
            ResolverScope.application.reset()
        }
    }
}
