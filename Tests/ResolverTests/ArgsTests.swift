import Resolver
import Testing

extension IndependentTests {
    /// `Resolver.Args`: positional and keyed arguments and their reads.
    @Suite struct Arguments {
        final class Configured {
            let flag: Bool
            let name: String?
            init(flag: Bool, name: String? = nil) { self.flag = flag; self.name = name }
        }

        @Test func positionalArgument() {
            let resolver = Resolver()
            resolver.register { _, args in Configured(flag: args()) }
            #expect(resolver.resolve(Configured.self, args: true).flag == true)
            #expect(resolver.resolve(Configured.self, args: false).flag == false)
        }

        @Test func keyedArgumentsFromAHeterogeneousLiteral() {
            let resolver = Resolver()
            resolver.register { _, args in "\(args("name") as String)#\(args("id") as Int)" }
            #expect(resolver.resolve(String.self, args: ["name": "x", "id": 7]) == "x#7")
        }

        @Test func keyedArgumentsFromAHomogeneousLiteralAndOptionalValues() {
            let resolver = Resolver()
            resolver.register { _, args in (args.get("a") as Int) + (args.get("b") as Int) }
            #expect(resolver.resolve(Int.self, args: ["a": 1, "b": 2]) == 3)
            let optionalValues: [String: Any?] = ["a": 10, "b": 20, "c": nil]
            #expect(resolver.resolve(Int.self, args: optionalValues) == 30)
        }

        @Test func argsArePassedThroughAsIs() {
            let resolver = Resolver()
            resolver.register(name: "inner") { _, args in args("k") as String }
            resolver.register { r, args in "outer " + r.resolve(String.self, name: "inner", args: args) }
            #expect(resolver.resolve(String.self, args: ["k": "v"]) == "outer v")
        }

        @Test func getAndCallAreTheSame() {
            let resolver = Resolver()
            resolver.register { _, args in [args() as Int, args.get() as Int] }
            #expect(resolver.resolve([Int].self, args: 5) == [5, 5])
        }

        @Test func optionalReads() {
            let resolver = Resolver()
            resolver.register { _, args in Configured(flag: args.optional("flag") ?? false, name: args.optional("name")) }
            let keyed = resolver.resolve(Configured.self, args: ["flag": true, "name": 3])
            #expect(keyed.flag == true)
            #expect(keyed.name == nil, "name is an Int, not a String")
            let none = resolver.resolve(Configured.self)
            #expect(none.flag == false && none.name == nil)

            resolver.register(name: "positional") { _, args in Configured(flag: args.optional() ?? true) }
            #expect(resolver.resolve(Configured.self, name: "positional").flag == true)
            #expect(resolver.resolve(Configured.self, name: "positional", args: false).flag == false)
            #expect(resolver.resolve(Configured.self, name: "positional", args: "not a bool").flag == true)
        }

        @Test func aSingleKeyedArgumentReadsPositionally() {
            let resolver = Resolver()
            resolver.register { _, args in args() as String }
            #expect(resolver.resolve(String.self, args: ["only": "one"]) == "one")
        }

        @Test func nonStringKeyedDictionariesArePositional() {
            let resolver = Resolver()
            resolver.register { _, args in (args() as [Int: String])[1] ?? "missing" }
            #expect(resolver.resolve(String.self, args: [1: "one"]) == "one")
        }

        @Test func readsFollowCastRulesBeyondTheExactType() {
            let resolver = Resolver()
            resolver.register { _, args in (args() as XYZFetching).id }
            let service = XYZService()
            #expect(resolver.resolve(Int.self, args: service) == service.id)
            resolver.register(name: "optional") { _, args in (args() as Int?) ?? -1 }
            #expect(resolver.resolve(Int.self, name: "optional", args: 4) == 4)
        }

        /// 1.5.1 kept a lone argument in its dictionary under the key "", so
        /// `optional("")` and `args("")` read it; an `Args` or a dictionary
        /// inside an `Optional` counted as what it wraps (issue 19).
        @Test func aLoneArgumentIsAlsoTheKeyedArgumentEmptyString() {
            #expect(Resolver.Args(6).optional("") as Int? == 6)
            #expect(Resolver.Args(Resolver.Args(6)).optional("") as Int? == 6)
            #expect(Resolver.Args(Optional(4) as Any).optional("") as Int? == 4)
            #expect(Resolver.Args(Optional(Optional(4)) as Any).optional("") as Int? == 4)
            #expect(Resolver.Args(Optional(Resolver.Args(6)) as Any).optional("") as Int? == 6)
            #expect(Resolver.Args(Optional(Resolver.Args(6)) as Any).optional() as Int? == 6)
            #expect(Resolver.Args(Optional(Resolver.Args(6)) as Any).get() as Int == 6)
            #expect(Resolver.Args(6).get("") as Int == 6)
            #expect(Resolver.Args("six").optional("") as Int? == nil, "a lone String is not an Int")
            #expect(Resolver.Args(6).optional("x") as Int? == nil, "only the key \"\" names it")
            #expect(Resolver.Args(nil).optional("") as Int? == nil)
            #expect(Resolver.Args(Optional<Int>.none as Any).optional("") as Int? == nil)
            // Keyed arguments have no "" unless it is one of their keys.
            #expect(Resolver.Args(["a": 1]).optional("") as Int? == nil)
            #expect(Resolver.Args(["": 5, "a": 1]).optional("") as Int? == 5)
            #expect(Resolver.Args(Optional(["a": 1]) as Any).optional("a") as Int? == 1)
            #expect(Resolver.Args(Optional(["a": 1]) as Any).optional("") as Int? == nil)

            let resolver = Resolver()
            resolver.register { _, args in (args.optional("") as Int?) ?? -1 }
            #expect(resolver.resolve(Int.self, args: 6) == 6)
            #expect(resolver.resolve(Int.self, args: ["k": 6]) == -1)
            #expect(resolver.resolve(Int.self) == -1)
            resolver.register(name: "called") { _, args in args("") as String }
            #expect(resolver.resolve(String.self, name: "called", args: "lone") == "lone")
        }

        @Test func argsReachResolvePropertiesWithArguments() {
            let resolver = Resolver()
            final class Mutable { var value = 0 }
            resolver.register { Mutable() }.resolveProperties { _, service, args in service.value = args() }
            #expect(resolver.resolve(Mutable.self, args: 9).value == 9)
        }
    }
}
