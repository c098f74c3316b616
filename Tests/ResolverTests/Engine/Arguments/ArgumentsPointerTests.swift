@testable import Resolver
import Testing

extension IndependentTests {
    /// `args:` goes down the path as a pointer to the caller's `Any?`, and a
    /// factory's `Args` copies the `Any` from that address (`untypedPayload`):
    /// the payload of an `Any?` that is not nil is at its own address. These
    /// check that reading, for the shapes an `Any` takes (a value in its
    /// inline buffer, one boxed out of line, a class reference, an optional,
    /// an `Args`).
    @Suite struct ArgumentsPointers {
        struct Large: Equatable {
            let a: Int, b: Int, c: Int, d: Int, e: String
        }
        final class Object {}

        static func payload(of args: Any?) -> Any? {
            withArguments(args) { pointer in pointer.untypedPayload.map { $0.load(as: Any.self) } }
        }

        @Test func thePayloadIsTheValuePassed() throws {
            #expect(Self.payload(of: 7) as? Int == 7)
            #expect(Self.payload(of: "seven") as? String == "seven")
            let large = Large(a: 1, b: 2, c: 3, d: 4, e: String(repeating: "x", count: 100))
            #expect(Self.payload(of: large) as? Large == large)
            let object = Object()
            #expect(Self.payload(of: object) as? Object === object)
            let optional: Int? = 5
            #expect(Self.payload(of: optional as Any) as? Int? == .some(5))
            let nested = try #require(Self.payload(of: Resolver.Args(9)) as? Resolver.Args)
            #expect(nested() as Int == 9)
            let keyed = try #require(Self.payload(of: ["k": 1] as [String: Any?]) as? [String: Any?])
            #expect(keyed["k"] as? Int == 1)
        }

        @Test func nilIsNoArguments() {
            withArguments(nil) { pointer in
                #expect(pointer.isNone)
                #expect(pointer.untypedPayload == nil)
            }
        }

        /// What a factory's `Args` reads is the caller's value, and the copy outlives the call.
        @Test func aFactoryGetsItsOwnCopy() {
            let resolver = Resolver()
            var kept: [Resolver.Args] = []
            resolver.register { _, args -> Large in
                kept.append(args)
                return args()
            }.scope(.unique)
            let large = Large(a: 5, b: 6, c: 7, d: 8, e: String(repeating: "y", count: 64))
            #expect(resolver.resolve(Large.self, args: large) == large)
            #expect(kept.count == 1)
            #expect(kept[0]() as Large == large)
        }
    }
}
