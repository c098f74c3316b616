@testable import Resolver
import ResolverTestSupport
import Testing

extension IndependentTests {
    /// A registration is an instance of `ResolverRegistration<Service>` of its
    /// own service type, whether the runtime gave the class (a type's first
    /// registration) or the table of registration classes did (every later
    /// one), for any mix of types, names, containers and closure shapes.
    @Suite struct RegistrationClasses {
        struct Value: Equatable { let number: Int }
        final class Object {}
        protocol Service: AnyObject {}
        final class Implementation: Service {}

        @Test func everyRegistrationIsOfItsOwnServiceType() {
            for round in 0..<3 {
                let resolver = Resolver()
                let value = resolver.register { Value(number: round) }.registration
                let named = resolver.register(name: "n") { Value(number: -round) }.registration
                let object = resolver.register { _ in Object() }.registration
                let service = resolver.register(Service.self) { Implementation() }.registration
                let optional = resolver.register(Int?.self) { round }.registration
                let argument = resolver.register(name: "args") { _, args in Value(number: args()) }.registration

                #expect(type(of: value) == ResolverRegistration<Value>.self)
                #expect(type(of: named) == ResolverRegistration<Value>.self)
                #expect(type(of: object) == ResolverRegistration<Object>.self)
                #expect(type(of: service) == ResolverRegistration<any Service>.self)
                #expect(type(of: optional) == ResolverRegistration<Int?>.self)
                #expect(type(of: argument) == ResolverRegistration<Value>.self)

                #expect(resolver.resolve(Value.self) == Value(number: round))
                #expect(resolver.resolve(Value.self, name: "n") == Value(number: -round))
                #expect(resolver.resolve(Value.self, name: "args", args: 7) == Value(number: 7))
                #expect(resolver.resolve(Int?.self) == round)
                #expect(resolver.resolve(Service.self) is Implementation)
            }
        }

        /// Types that differ only in their generic arguments get classes of their own.
        @Test func genericServiceTypesAreToldApart() {
            let resolver = Resolver()
            let ints = resolver.register { [1, 2] }.registration
            let strings = resolver.register { ["a"] }.registration
            let again = Resolver().register { [3] }.registration
            #expect(type(of: ints) == ResolverRegistration<[Int]>.self)
            #expect(type(of: strings) == ResolverRegistration<[String]>.self)
            #expect(type(of: again) == ResolverRegistration<[Int]>.self)
            #expect(resolver.resolve([String].self) == ["a"])
            #expect(resolver.resolve([Int].self) == [1, 2])
        }
    }
}
