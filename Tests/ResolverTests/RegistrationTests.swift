import Resolver
import Testing

extension IndependentTests {
    /// The three `register` overloads, type inference from the closure, and
    /// replacement of an earlier registration.
    @Suite struct Registration {
        @Test func factoryWithNoParameters() {
            let resolver = Resolver()
            resolver.register { XYZService() }
            let service: XYZService = resolver.resolve()
            #expect(service.name == "XYZService")
        }

        @Test func factoryReceivingTheResolvingContainer() {
            let resolver = Resolver()
            let leaf = Leaf()
            resolver.register { leaf }
            var received: Resolver?
            resolver.register { r in
                received = r
                return Middle(leaf: r.resolve())
            }
            let middle: Middle = resolver.resolve()
            #expect(received === resolver, "the factory gets the container resolve was called on")
            #expect(middle.leaf === leaf, "and resolves its dependencies through it")
        }

        @Test func factoryReceivingArguments() {
            let resolver = Resolver()
            resolver.register { _, args in "\(args() as Int)!" }
            #expect(resolver.resolve(String.self, args: 42) == "42!")
        }

        @Test func typeIsInferredFromTheClosureResult() {
            let resolver = Resolver()
            resolver.register { XYZService() as XYZFetching }
            #expect(resolver.optional(XYZFetching.self) != nil)
            #expect(resolver.optional(XYZService.self) == nil, "registered as the protocol only")
        }

        @Test func explicitTypeArgument() {
            let resolver = Resolver()
            resolver.register(XYZFetching.self) { XYZService() }
            #expect(resolver.optional(XYZFetching.self) != nil)
        }

        @Test func registeringAgainReplacesTheEarlierRegistration() {
            let resolver = Resolver()
            resolver.register { "first" }
            resolver.register { "second" }
            #expect(resolver.resolve(String.self) == "second")
            resolver.register(name: "n") { "named first" }
            resolver.register(name: "n") { "named second" }
            #expect(resolver.resolve(String.self, name: "n") == "named second")
            #expect(resolver.resolve(String.self) == "second", "the unnamed one is untouched")
        }

        @Test func optionalIsADifferentType() {
            let resolver = Resolver()
            resolver.register(Int?.self) { 1 }
            #expect(resolver.optional(Int.self) == nil)
            #expect(resolver.optional(Int?.self) == .some(1))
            resolver.register { 2 }
            #expect(resolver.optional(Int.self) == 2)
            #expect(resolver.optional(Int?.self) == .some(1))
        }

        @Test func registerReturnsOptionsForTheNewRegistration() {
            let resolver = Resolver()
            let options = resolver.register(name: "keyed") { XYZService() }
            #expect(options.registration.key == Int(bitPattern: ObjectIdentifier(XYZService.self)))
            #expect(options.registration.cacheKey == "\(options.registration.key):keyed")
        }
    }
}

extension ResolverTests {
    /// The static `register`, which writes to `Resolver.main`.
    @Suite struct RegistrationInMain {
        @Test func staticRegisterWritesToMain() {
            Resolver.reset()
            Resolver.register(name: "static") { "in main" }
            #expect(Resolver.main.optional(String.self, name: "static") == "in main")
            #expect(Resolver.resolve(String.self, name: "static") == "in main")
        }
    }
}
