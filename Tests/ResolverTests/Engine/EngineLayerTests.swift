import Foundation
@testable import Resolver
import Testing

extension ResolverTests {
    /// The engine's typed layer (Sources/Resolver/Engine): what its types
    /// promise, checked at their own level.
    @Suite struct EngineLayer {
        final class Object: @unchecked Sendable { let id = Serial.next() }

        /// The wrappers are the pointers they wrap: passing them costs what
        /// passing the pointers did.
        @Test func theWrappersAreThePointersTheyWrap() {
            let word = MemoryLayout<UnsafeRawPointer>.size
            #expect(MemoryLayout<UncheckedReference<Resolver>>.size == word)
            #expect(MemoryLayout<UncheckedReference<Resolver>?>.size == word, "nil is the null pointer")
            #expect(MemoryLayout<AtomicReference<Resolver>>.size == word)
            #expect(MemoryLayout<AtomicWord>.size == word)
            #expect(MemoryLayout<RegistryKey>.size == word)
            #expect(MemoryLayout<ReadSection>.size == 0)
        }

        @Test func anUncheckedReferenceReadsTheObjectItWasMadeFrom() {
            let object = Object()
            let reference = UncheckedReference(object)
            #expect(reference.read { $0.id } == object.id)
            #expect(reference.object === object)
            #expect(reference == UncheckedReference(object))
            #expect(reference != UncheckedReference(Object()))
        }

        /// `read` uses the object borrowed (`_withUnsafeGuaranteedRef`):
        /// inside it, the caller's reference is still the only one, so the
        /// resolve path writes no count of a shared object it reads.
        @Test func readingThroughAnUncheckedReferenceTakesNoCount() {
            var object = Object()
            let reference = UncheckedReference(object)
            let uniqueInside = reference.read { borrowed in
                withExtendedLifetime(borrowed) { isKnownUniquelyReferenced(&object) }
            }
            #expect(uniqueInside, "read retained the object")
            #expect(isKnownUniquelyReferenced(&object))
        }

        @Test func anOwnedReferenceKeepsTheObjectUntilReleased() {
            weak var weakObject: Object?
            let owned: UncheckedReference<Object> = {
                let object = Object()
                weakObject = object
                return .retaining(object)
            }()
            #expect(weakObject != nil, "the owned reference keeps it")
            owned.release()
            #expect(weakObject == nil)
        }

        @Test func aReadSectionEndsWhenEndedAndSectionsNest() {
            #expect(!ReadSection.isActive)
            let outer = ReadSection()
            #expect(ReadSection.isActive)
            let inner = ReadSection()
            inner.end()
            #expect(ReadSection.isActive, "the outer section is still open")
            outer.end()
            #expect(!ReadSection.isActive)
        }

        @Test func aReadSectionLeftByAThrowIsEnded() {
            struct Failure: Error {}
            #expect(throws: Failure.self) {
                try ReadSection.run { _ in
                    #expect(ReadSection.isActive)
                    throw Failure()
                }
            }
            #expect(!ReadSection.isActive)
        }

        @Test func aWordCountsUpAndDown() {
            let word = AtomicWord.allocate()
            defer { word.deallocate() }
            #expect(word.increment() == 1)
            #expect(word.increment() == 2)
            #expect(word.decrement() == 1)
            #expect(word.load() == 1)
        }

        /// `withoutLock` (how `registerAllServices` runs with the registry
        /// mutex released) lets another thread take the mutex meanwhile.
        @Test func withoutLockReleasesTheMutexForItsBody() {
            let mutex = Mutex.make()
            defer { mutex.release() }
            let otherTookIt = mutex.withLock {
                mutex.withoutLock {
                    startThread { mutex.withLock {} }.finished(within: 5)
                }
            }
            #expect(otherTookIt)
            #expect(!mutex.isHeldByCurrentThread)
        }

        /// A wait that would keep the mutex locked (held twice) is refused,
        /// not a deadlock.
        @Test func aConditionRefusesAWaitThatWouldKeepTheMutexLocked() {
            let mutex = Mutex.make()
            defer { mutex.release() }
            let condition = Condition()
            let waited = mutex.withLock { mutex.withLock { condition.wait(mutex) } }
            #expect(!waited)
        }

        /// Failures found while building once (here a cycle through two
        /// caching scopes) are raised with the registry mutex released: a
        /// verification's thread ends in one, and one raised under the mutex
        /// would stop the program instead of being reported.
        @Test func aCycleThroughCachingScopesIsReportedByVerify() throws {
            let container = Resolver()
            container.register { Chicken(egg: $0.resolve()) }.scope(.application)
            container.register { Egg(chicken: $0.resolve()) }.scope(.cached)

            let result = container.verify()

            let chicken = try #require(result.failures.first { $0.service == "Chicken" })
            #expect(chicken.kind == .cycle)
            #expect(chicken.message.contains("Chicken → Egg → Chicken"), "\(chicken.message)")
        }
    }
}

private final class Chicken {
    init(egg: Egg) {}
}

private final class Egg {
    init(chicken: Chicken) {}
}
