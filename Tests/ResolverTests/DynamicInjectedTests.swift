import Resolver
import ResolverTestSupport
import ResolverTesting
import Testing

// `@DynamicInjected` (issue 43): a wrapper that resolves at every read, by
// type or by key, in a class, a struct and an actor. The examples of its doc
// comment (Sources/Resolver/DynamicInjected.swift) and of the article
// (GettingStarted.md) are compiled and run here: each region between
// `DOC EXAMPLE` lines is a code block of the file it names, word for word
// (`theExamplesAreTheDocumentation`).

/// The doc comment's example, its types nested so its names are the comment's.
enum DynamicInjectedDocExample {
    final class Cart: @unchecked Sendable {
        var total = 0
    }
    struct Shipping { let price: Int }
    final class Payments {}

    // DOC EXAMPLE: Sources/Resolver/DynamicInjected.swift
    final class CheckoutModel {
        @DynamicInjected var cart: Cart                         // by type, from Resolver.root
        @DynamicInjected(name: .express) var shipping: Shipping
        @DynamicInjected(\.payments) var payments               // by key

        var total: Int { cart.total + shipping.price }
    }
    // END DOC EXAMPLE
}

extension Resolver.Name {
    fileprivate static let express = Self("express")
}

extension ResolverKeys {
    fileprivate var payments: ResolverKey<DynamicInjectedDocExample.Payments> {
        ResolverKey { DynamicInjectedDocExample.Payments() }.scope(.unique)
    }
    fileprivate var dynLeaf: ResolverKey<Leaf> { ResolverKey { Leaf() }.scope(.unique) }
    fileprivate var dynCachedLeaf: ResolverKey<Leaf> { ResolverKey { Leaf() }.scope(DynamicScopes.cachedKey) }
    fileprivate var dynPromise: ResolverKey<Leaf> { .promised() }
}

/// The scopes of these tests, one per test that caches through a key (a
/// key's own registration is process-wide).
enum DynamicScopes {
    static let cachedKey = ResolverScopeCache()
}

/// A person, for the named spelling.
final class DynamicPerson: @unchecked Sendable {
    let name: String
    let serial = Serial.next()
    init(_ name: String) { self.name = name }
}

/// Reads by type from `Resolver.root`, named from a container, and by key
/// (from `root`, and from a container).
final class DynamicHolder {
    static let container = Resolver()

    @DynamicInjected var leaf: Leaf
    @DynamicInjected(name: .fred, container: DynamicHolder.container) var fred: DynamicPerson
    @DynamicInjected(\.dynLeaf) var keyLeaf
    @DynamicInjected(\.dynLeaf, container: DynamicHolder.container) var containerKeyLeaf
}

/// The same reads in a struct.
struct DynamicValue {
    @DynamicInjected var leaf: Leaf
    @DynamicInjected(name: .fred, container: DynamicHolder.container) var fred: DynamicPerson
    @DynamicInjected(\.dynLeaf) var keyLeaf
    @DynamicInjected(\.dynLeaf, container: DynamicHolder.container) var containerKeyLeaf
}

/// The same reads in an actor: from its methods, and from a nonisolated
/// method through properties declared `nonisolated` (the wrapper and the
/// service are `Sendable`).
actor DynamicActor {
    @DynamicInjected var leaf: Leaf
    @DynamicInjected(\.dynLeaf) var keyLeaf
    @DynamicInjected nonisolated var anywhereLeaf: Leaf
    @DynamicInjected(\.dynLeaf, container: DynamicHolder.container) nonisolated var anywhereKeyLeaf: Leaf

    /// Two reads of each property, inside the actor.
    func twoReads() -> (leaf: [Leaf], keyLeaf: [Leaf]) {
        ([leaf, leaf], [keyLeaf, keyLeaf])
    }

    /// Two reads of each `nonisolated` property, on the caller's thread.
    nonisolated func twoNonisolatedReads() -> (leaf: [Leaf], keyLeaf: [Leaf]) {
        ([anywhereLeaf, anywhereLeaf], [anywhereKeyLeaf, anywhereKeyLeaf])
    }
}

/// `Sendable` when its service is: a `Sendable` value can hold it.
struct SendableDynamicValue: Sendable {
    @DynamicInjected var leaf: Leaf
    @DynamicInjected(\.dynLeaf) var keyLeaf
}

extension IndependentTests {
    /// `@DynamicInjected`, from containers of the tests' own or a `root` of
    /// the test's own (the `.resolver` trait).
    @Suite struct DynamicInjection {
        @Test func theExamplesAreTheDocumentation() throws {
            #expect(try docExamples(in: #filePath).map(\.files) == [
                ["Sources/Resolver/DynamicInjected.swift"],
                ["Sources/Resolver/Resolver.docc/GettingStarted.md"],
            ])
            let mismatches = try docExampleMismatches(in: #filePath)
            #expect(mismatches.isEmpty, "\(mismatches.joined(separator: "\n\n"))")
        }

        @Test(.resolver {
            $0.register { DynamicInjectedDocExample.Cart() }.scope(.application)
            $0.register(name: .express) { DynamicInjectedDocExample.Shipping(price: 5) }
        })
        func theDocCommentsExampleReadsTheCartThatIsRegisteredNow() {
            let model = DynamicInjectedDocExample.CheckoutModel()
            Resolver.resolve(DynamicInjectedDocExample.Cart.self).total = 10
            #expect(model.total == 15)
            #expect(model.payments !== model.payments, "a .unique key: a new instance each read")
            Resolver.root.register(name: .express) { DynamicInjectedDocExample.Shipping(price: 7) }
            #expect(model.total == 17, "the registration made after the model")
        }

        @Test(.resolver { $0.register { Leaf() }.scope(.unique) })
        func eachReadInAClassResolvesANewUniqueInstance() {
            let holder = DynamicHolder()
            let first = holder.leaf
            let second = holder.leaf
            #expect(first !== second)
            let firstKeyed = holder.keyLeaf
            #expect(holder.keyLeaf !== firstKeyed, "by key too")
            #expect(holder.containerKeyLeaf !== holder.containerKeyLeaf, "by key, from a container")
        }

        @Test(.resolver { $0.register { Leaf() }.scope(.application) })
        func eachReadInAClassReturnsTheInstanceTheScopeHolds() {
            let holder = DynamicHolder()
            #expect(holder.leaf === holder.leaf)
            #expect(holder.leaf === Resolver.resolve(Leaf.self))
        }

        @Test func aReadResolvesAKeysCachedInstanceFromTheScope() {
            let wrapper = DynamicInjected(\.dynCachedLeaf)
            #expect(wrapper.wrappedValue === wrapper.wrappedValue)
            let cached = wrapper.wrappedValue
            DynamicScopes.cachedKey.reset()
            #expect(wrapper.wrappedValue !== cached, "the next read after a reset resolves anew")
        }

        @Test(.resolver { $0.register { Leaf() }.scope(.application) })
        func aRegistrationReplacedBetweenReadsIsSeenByTheNextRead() {
            let holder = DynamicHolder()
            let before = holder.leaf
            let replacement = Leaf()
            Resolver.root.register { replacement }
            #expect(holder.leaf === replacement)
            #expect(holder.leaf !== before)
        }

        @Test func aKeyOverriddenBetweenReadsIsSeenByTheNextRead() {
            let container = Resolver()
            let wrapper = DynamicInjected(\.dynLeaf, container: container)
            let before = wrapper.wrappedValue
            let replacement = Leaf()
            container.register(\.dynLeaf) { replacement }
            #expect(wrapper.wrappedValue === replacement)
            #expect(wrapper.wrappedValue !== before)
        }

        @Test func aNamedWrapperResolvesFromItsContainerAtEachRead() {
            let people = Resolver()
            people.register(name: .fred) { DynamicPerson("Fred") }.scope(.unique)
            let fred = DynamicInjected<DynamicPerson>(name: .fred, container: people)
            #expect(fred.wrappedValue.name == "Fred")
            #expect(fred.wrappedValue !== fred.wrappedValue)
            people.register(name: .fred) { DynamicPerson("Frederick") }
            #expect(fred.wrappedValue.name == "Frederick")
        }

        /// nil for the container means `Resolver.root` as it is at each read,
        /// not as it was when the wrapper was made.
        @Test func aWrapperWithoutAContainerReadsTheRootOfTheMoment() {
            let first = Resolver()
            let firstLeaf = Leaf()
            first.register { firstLeaf }
            let second = Resolver()
            let secondLeaf = Leaf()
            second.register { secondLeaf }
            let wrapper = Resolver.withRoot(first) { DynamicInjected<Leaf>() }
            Resolver.withRoot(first) {
                #expect(wrapper.wrappedValue === firstLeaf)
            }
            Resolver.withRoot(second) {
                #expect(wrapper.wrappedValue === secondLeaf)
            }
        }

        @Test(.resolver {
            $0.register { Leaf() }.scope(.unique)
        })
        func eachReadInAStructResolvesAnew() {
            let people = DynamicHolder.container
            people.register(name: .fred) { DynamicPerson("Fred") }.scope(.unique)
            let value = DynamicValue()
            #expect(value.leaf !== value.leaf)
            #expect(value.keyLeaf !== value.keyLeaf)
            #expect(value.containerKeyLeaf !== value.containerKeyLeaf)
            #expect(value.fred.name == "Fred" && value.fred !== value.fred)
            let copy = value.$leaf
            #expect(copy.wrappedValue !== value.leaf, "the projected value is the wrapper: it resolves too")
        }

        @Test(.resolver { $0.register { Leaf() }.scope(.unique) })
        func eachReadInAnActorResolvesAnew() async {
            let model = DynamicActor()
            let reads = await model.twoReads()
            #expect(reads.leaf[0] !== reads.leaf[1])
            #expect(reads.keyLeaf[0] !== reads.keyLeaf[1])
            let nonisolated = model.twoNonisolatedReads()
            #expect(nonisolated.leaf[0] !== nonisolated.leaf[1])
            #expect(nonisolated.keyLeaf[0] !== nonisolated.keyLeaf[1])
        }

        @Test(.resolver { $0.register { Leaf() }.scope(.application) })
        func aReadInAnActorReturnsTheInstanceTheScopeHoldsAndSeesAReplacement() async {
            let model = DynamicActor()
            let cached = Resolver.resolve(Leaf.self)
            #expect(await model.twoReads().leaf.allSatisfy { $0 === cached })
            #expect(model.twoNonisolatedReads().leaf.allSatisfy { $0 === cached })
            let replacement = Leaf()
            Resolver.root.register { replacement }
            #expect(await model.twoReads().leaf.allSatisfy { $0 === replacement })
            #expect(model.twoNonisolatedReads().leaf.allSatisfy { $0 === replacement })
        }

        /// A `Sendable` value holding the wrappers crosses into another
        /// task, and reads there resolve from that task's root.
        @Test(.resolver { $0.register { Leaf() }.scope(.application) })
        func aSendableValueOfWrappersReadsInAnotherTask() async {
            let value = SendableDynamicValue()
            let cached = Resolver.resolve(Leaf.self)
            let read = await Task { value.leaf }.value
            #expect(read === cached, "a child task inherits the test's root")
            let keyed = await Task.detached { (value.keyLeaf, value.keyLeaf) }.value
            #expect(keyed.0 !== keyed.1)
        }
    }
}

/// The article's example (GettingStarted.md, "Resolve at every read"): it
/// registers in `main`, so it runs in a suite of `ResolverTests`.
enum DynamicInjectedArticleExample {
    struct Cart {
        let items: [String]
    }

    static func run() -> (before: String, after: String) {
        // DOC EXAMPLE: Sources/Resolver/Resolver.docc/GettingStarted.md
        final class CartBadge {
            @DynamicInjected var cart: Cart                       // resolved at every read
            var text: String { cart.items.joined(separator: ", ") }
        }

        let badge = CartBadge()
        Resolver.register { Cart(items: ["tea"]) }
        let before = badge.text                                   // "tea"
        Resolver.register { Cart(items: ["tea", "milk"]) }
        let after = badge.text                                    // "tea, milk": the registration of the moment
        // END DOC EXAMPLE
        return (before, after)
    }
}

extension ResolverTests {
    /// `@DynamicInjected` with `main` and `verify()`.
    @Suite struct DynamicInjectionAppWide {
        @Test func theArticlesBadgeShowsTheCartRegisteredAtEachRead() {
            Resolver.reset()
            let run = DynamicInjectedArticleExample.run()
            #expect(run.before == "tea")
            #expect(run.after == "tea, milk")
            Resolver.reset()
        }

        /// The key variant makes the key's registration when the wrapper is
        /// made, as `@LazyInjected(\.key)` does: `verify()` reports a promise
        /// nobody kept before anything reads it.
        @Test func aKeyWrapperMakesItsKeyKnownToVerifyBeforeTheFirstRead() {
            Resolver.reset()
            #expect(!Resolver.verify().failures.contains { $0.service == "Leaf:\\.dynPromise" },
                    "no use of the key yet")
            let wrapper = DynamicInjected(\.dynPromise)
            let failures = Resolver.verify().failures
            #expect(failures.contains { $0.service == "Leaf:\\.dynPromise" && $0.kind == .missing }, "\(failures)")
            Resolver.register(\.dynPromise) { Leaf() }
            #expect(Resolver.verify().isValid)
            #expect(wrapper.wrappedValue !== wrapper.wrappedValue, "the promise kept: a new instance each read")
            Resolver.reset()
        }
    }
}
