import Resolver
import Testing

extension Resolver.Name {
    static let fred = Self("Fred")
    static let barney = Self("Barney")
}

extension IndependentTests {
    /// `Resolver.Name`: literals, constants, equality, and names as keys.
    @Suite struct Names {
        @Test func literalsAndConstantsAreInterchangeable() {
            let resolver = Resolver()
            resolver.register(name: .fred) { "fred" }
            resolver.register(name: "Barney") { "barney" }
            #expect(resolver.resolve(String.self, name: "Fred") == "fred")
            #expect(resolver.resolve(String.self, name: .barney) == "barney")
        }

        @Test func nameFromString() {
            #expect(Resolver.Name.name(fromString: nil) == nil)
            #expect(Resolver.Name.name(fromString: "Fred") == .fred)
            #expect(Resolver.Name("x").rawValue == "x")
            let literal: Resolver.Name = "lit"
            #expect(literal.rawValue == "lit")
        }

        @Test func equalityAndHashingFollowSwiftStrings() {
            let precomposed = Resolver.Name("caf\u{E9}")
            let decomposed = Resolver.Name("cafe\u{301}")
            #expect(precomposed.rawValue == decomposed.rawValue)
            #expect(precomposed == decomposed)
            #expect(Set([precomposed, decomposed]).count == 1)
            #expect(precomposed.rawValue.utf8.count != decomposed.rawValue.utf8.count, "the spellings differ in bytes")
            #expect(Resolver.Name("a") != Resolver.Name("b"))
        }

        @Test func canonicallyEquivalentNamesAreTheSameRegistration() {
            let resolver = Resolver()
            resolver.register(name: Resolver.Name("caf\u{E9}")) { "precomposed" }
            #expect(resolver.resolve(String.self, name: Resolver.Name("cafe\u{301}")) == "precomposed")
            // Hangul syllable vs conjoining jamo; Å (U+00C5) vs A + ring vs Angstrom sign (U+212B).
            resolver.register(name: Resolver.Name("\u{D55C}")) { "han" }
            #expect(resolver.resolve(String.self, name: Resolver.Name("\u{1112}\u{1161}\u{11AB}")) == "han")
            resolver.register(name: Resolver.Name("\u{212B}")) { "angstrom" }
            #expect(resolver.resolve(String.self, name: Resolver.Name("A\u{30A}")) == "angstrom")
            #expect(resolver.resolve(String.self, name: Resolver.Name("\u{C5}")) == "angstrom")
            // Different characters stay different.
            #expect(resolver.optional(String.self, name: Resolver.Name("cafe")) == nil)
        }

        @Test func emptyNULAndAbsentNamesAreDistinct() {
            let resolver = Resolver()
            resolver.register { "none" }
            resolver.register(name: "") { "empty" }
            resolver.register(name: "\0") { "nul" }
            #expect(resolver.resolve(String.self) == "none")
            #expect(resolver.resolve(String.self, name: "") == "empty")
            #expect(resolver.resolve(String.self, name: "\0") == "nul")
            #expect(resolver.optional(String.self, name: "\0\0") == nil)
        }

        @Test func oneMebibyteName() {
            let resolver = Resolver()
            let long = String(repeating: "n", count: 1 << 20)
            resolver.register(name: Resolver.Name(long)) { "long" }
            #expect(resolver.resolve(String.self, name: Resolver.Name(long)) == "long")
            #expect(resolver.optional(String.self, name: Resolver.Name(long + "n")) == nil)
            #expect(resolver.optional(String.self, name: Resolver.Name(String(long.dropLast()))) == nil)
        }

        @Test func aHundredThousandNamesOnOneType() {
            let resolver = Resolver()
            for i in 0..<100_000 {
                resolver.register(name: Resolver.Name("service-\(i)")) { i }
            }
            var wrong = 0
            for i in 0..<100_000 where resolver.resolve(Int.self, name: Resolver.Name("service-\(i)")) != i {
                wrong += 1
            }
            #expect(wrong == 0)
            #expect(resolver.optional(Int.self) == nil)
        }

        @Test func nonASCIIAndCombiningNames() {
            let resolver = Resolver()
            let names = ["日本語", "🇸🇪", "e\u{301}\u{301}", "Ωmega", "ﬁ", "fi"]
            for (i, name) in names.enumerated() {
                resolver.register(name: Resolver.Name(name)) { i }
            }
            for (i, name) in names.enumerated() {
                #expect(resolver.resolve(Int.self, name: Resolver.Name(name)) == i)
            }
        }
    }
}
